/* SPDX-License-Identifier: Apache-2.0 */
/*
 * engine.h - the conformance suite's reference RDMA engine: public API.
 *
 * A transaction-level model of the HanGu RDMA engine (as the HanGu RDMA engine
 * design describes it) with the RoCEv2 behaviour of the UniVista RoCEv2 notes
 * and the DMA engine of the HanGu DMA engine design v1.5.  Engines live in a
 * world that owns virtual time; two engines are joined by a simulated lossy
 * link.  Everything is deterministic given the world's seed.
 *
 * Host side: simulated host memory, memory regions, CQs and QPs whose SQ/RQ/
 * CQ rings hold WQE and CQE bytes.  Wire side: real packets with ICRC.
 */
#ifndef IBW_ENGINE_H
#define IBW_ENGINE_H

#include <stddef.h>
#include <stdint.h>

struct ibe_world;
struct ibe_engine;
struct ibe_link;

/* ---- completion status codes (the HanGu/mthca completion codes, E28) ---- */
enum ibe_wc_status {
    IBE_WC_SUCCESS = 0x00,
    IBE_WC_LOC_LEN_ERR = 0x01,
    IBE_WC_LOC_QP_OP_ERR = 0x02,
    IBE_WC_LOC_PROT_ERR = 0x04,
    IBE_WC_WR_FLUSH_ERR = 0x05,
    IBE_WC_BAD_RESP_ERR = 0x10,
    IBE_WC_LOC_ACCESS_ERR = 0x11,
    IBE_WC_REM_INV_REQ_ERR = 0x12,
    IBE_WC_REM_ACCESS_ERR = 0x13,
    IBE_WC_REM_OP_ERR = 0x14,
    IBE_WC_RETRY_EXC_ERR = 0x15,
    IBE_WC_RNR_RETRY_EXC_ERR = 0x16,
    IBE_WC_UNSUPPORTED_OP = 0x17 /* the highest code; never produced (kept
                                    for API users that bound statuses) */
};
/* The WQEParser's "Unsupported OpCode" completes as IBE_WC_LOC_QP_OP_ERR,
 * its local access error as IBE_WC_LOC_PROT_ERR, its length error as
 * IBE_WC_LOC_LEN_ERR, "Flush in Error" as IBE_WC_WR_FLUSH_ERR. */

/* Verbs opcodes as they appear in WQEs and doorbells (H1). */
enum ibe_wr_opcode {
    IBE_WR_RDMA_WRITE = 0x08,
    IBE_WR_RDMA_WRITE_IMM = 0x09,
    IBE_WR_SEND = 0x0A,
    IBE_WR_SEND_IMM = 0x0B,
    IBE_WR_RDMA_READ = 0x10,
    IBE_WR_ATOMIC_CS = 0x11,
    IBE_WR_ATOMIC_FA = 0x12,
    IBE_WR_SEND_INV = 0x01, /* Send with Invalidate (imm = the R_Key): the
                               HanGu WQE has no opcode for it; this is the
                               mlx4 extension (MLX4_OPCODE_SEND_INVAL),
                               IBW_WQE_OP_SEND_INV in host_wqe.h.  Was 0x13
                               (unpostable) before. RC only. */
    IBE_WR_RECV = 0x80      /* completion opcode of a receive */
};

enum ibe_qp_type { IBE_RC = 0, IBE_UC = 1, IBE_UD = 3 }; /* RTL codes */
enum ibe_qp_state {
    IBE_QPS_RESET = 0, IBE_QPS_INIT = 1, IBE_QPS_RTR = 2, IBE_QPS_RTS = 3,
    IBE_QPS_SQD = 4, IBE_QPS_SQE = 5, IBE_QPS_ERR = 6
};

/* Access rights of a memory region. */
enum {
    IBE_ACC_LOCAL_WRITE = 1, IBE_ACC_REMOTE_WRITE = 2, IBE_ACC_REMOTE_READ = 4,
    IBE_ACC_REMOTE_ATOMIC = 8
};

/* Send flags. */
enum { IBE_SEND_FENCE = 1, IBE_SEND_SOLICITED = 2, IBE_SEND_INLINE = 4,
       IBE_SEND_SIGNALED = 8 };

struct ibe_sge {
    uint64_t addr; /* VA inside a region of the posting engine */
    uint32_t length;
    uint32_t lkey;
};

#define IBE_MAX_SGE 4
#define IBE_MAX_INLINE 128

struct ibe_send_wr {
    uint64_t wr_id;
    uint8_t opcode;   /* enum ibe_wr_opcode */
    uint8_t flags;    /* IBE_SEND_* */
    uint8_t num_sge;
    struct ibe_sge sg[IBE_MAX_SGE];
    uint32_t imm;     /* immediate data, or the R_Key to invalidate */
    uint64_t remote_addr;
    uint32_t rkey;
    uint64_t compare_add; /* FA: add; CS: compare */
    uint64_t swap;
    /* UD only */
    uint32_t remote_qpn, remote_qkey;
};

struct ibe_recv_wr {
    uint64_t wr_id;
    uint8_t num_sge;
    struct ibe_sge sg[IBE_MAX_SGE];
};

struct ibe_wc {
    uint64_t wr_id;
    uint8_t status;   /* enum ibe_wc_status */
    uint8_t opcode;   /* the WR's verbs opcode, IBE_WR_RECV for receives */
    uint8_t is_send;
    uint8_t solicited;  /* engine-internal (raises the solicited event);
                           the HanGu CQE has no such bit: 0 when polled */
    uint8_t has_imm;
    uint32_t byte_len;
    uint32_t imm;
    uint32_t qpn, src_qp;
};

struct ibe_qp_attr {
    uint8_t type;          /* enum ibe_qp_type */
    uint32_t pd;
    uint32_t send_cq, recv_cq;
    uint32_t sq_depth, rq_depth; /* WQE slots, powers of two */
    uint32_t qkey;         /* UD */
    uint16_t pkey;
};

/* What ibe_qp_connect() sets (INIT -> RTR -> RTS in one step). */
struct ibe_qp_conn {
    uint32_t remote_qpn;
    uint32_t sq_psn;       /* first PSN this side sends */
    uint32_t rq_psn;       /* first PSN this side expects */
    uint32_t pmtu;         /* bytes, 256..4096 */
    uint8_t retry_cnt;     /* 0..7 */
    uint8_t rnr_retry;     /* 0..7, 7 = infinite */
    uint8_t timeout;       /* local ACK timeout code: 4.096 us << timeout */
    uint8_t min_rnr_timer; /* RNR NAK timer code the responder sends */
    uint8_t max_outstanding; /* 0 = 16 (UniVista RoCEv2 notes) */
};

/* ---- the world: virtual time ---- */
struct ibe_world *ibe_world_create(uint64_t seed);
/* Destroy a world's engines and links first: they leave the world's list
 * of parts (snapshots) as they go. */
void ibe_world_destroy(struct ibe_world *w);
uint64_t ibe_now(const struct ibe_world *w);            /* nanoseconds */
/* Run the next event; 0 when there is none. */
int ibe_world_step(struct ibe_world *w);
/* Run events until virtual time `t` (inclusive) or none is left. */
void ibe_world_run_until(struct ibe_world *w, uint64_t t);
/* Run until no event is pending or `limit` events ran; returns events run. */
uint64_t ibe_world_run(struct ibe_world *w, uint64_t limit);
/* The world's deterministic random source. */
uint64_t ibe_rand(struct ibe_world *w);
/* Snapshots: everything the world holds (time, random state, pending
 * events and the packets in flight, every engine with its host memory,
 * every link), taken between events.  Restoring puts the world back as it
 * was, into the same engine and link objects (pointers to them stay
 * valid; callbacks and their contexts are those of the snapshot).  A
 * snapshot restores only into its own world and only while the world has
 * the same engines and links: -1 otherwise, 0 on success.  Objects the
 * callbacks own (a CM layer, a capture) are not part of it. */
struct ibe_snapshot;
struct ibe_snapshot *ibe_world_snapshot(struct ibe_world *w); /* NULL: no memory */
/* Incremental snapshots, for many successive ones (a snapshot before each
 * step, to rewind over the last few): each costs what changed since the
 * one before it, not the world's host memory.  From the first one on,
 * every host-memory page written is saved once per snapshot before the
 * write, and each one compares the engines' tables with a copy of them
 * as they were at the previous one.  They form a chain per world, oldest
 * to newest:
 * - restoring one (ibe_world_restore) keeps it and the older ones valid
 *   and makes every newer one stale: a stale snapshot is refused (-1)
 *   and can only be freed;
 * - any one may be freed at any time; freeing the oldest costs nothing
 *   but its memory (a ring of them evicts that way), freeing another
 *   hands what it saved to the one before it;
 * - restoring a full snapshot, or destroying an engine of the world,
 *   makes the whole chain stale.
 * Free them before destroying their world. */
struct ibe_snapshot *ibe_world_snapshot_incremental(struct ibe_world *w);
int ibe_world_restore(struct ibe_world *w, const struct ibe_snapshot *s);
void ibe_snapshot_free(struct ibe_snapshot *s);

/* ---- engines ---- */
enum ibe_framing { IBE_FRAME_ROCEV2 = 0, IBE_FRAME_IB = 1 };
struct ibe_config {
    uint64_t mem_bytes;    /* simulated host memory */
    uint8_t framing;       /* enum ibe_framing */
    uint16_t lid;
    uint32_t ipv4;
    uint8_t mac[6];
};
struct ibe_engine *ibe_engine_create(struct ibe_world *w,
                                     const struct ibe_config *cfg);
void ibe_engine_destroy(struct ibe_engine *e);

/* Host memory: bump allocator, returns an address (its own VA). */
uint64_t ibe_mem_alloc(struct ibe_engine *e, uint64_t len, uint64_t align);
uint8_t *ibe_mem_ptr(struct ibe_engine *e, uint64_t addr, uint64_t len);

/* Memory regions: contiguous, VA == host address.  Returns 0 on success. */
int ibe_mr_reg(struct ibe_engine *e, uint32_t pd, uint64_t va, uint64_t len,
               uint32_t access, uint32_t *lkey, uint32_t *rkey);
int ibe_mr_dereg(struct ibe_engine *e, uint32_t key);

uint32_t ibe_cq_create(struct ibe_engine *e, uint32_t depth);
/* Arm the CQ: the next completion (solicited_only: the next solicited
 * receive completion or any error) raises one event. */
void ibe_cq_arm(struct ibe_engine *e, uint32_t cqn, int solicited_only);
uint64_t ibe_cq_events(struct ibe_engine *e, uint32_t cqn);
int ibe_poll_cq(struct ibe_engine *e, uint32_t cqn, struct ibe_wc *wc, int n);

/* Create a QP (state INIT); returns its QPN (>= 2) or 0. */
uint32_t ibe_qp_create(struct ibe_engine *e, const struct ibe_qp_attr *attr);
/* Move to RTS with the connection parameters.  0 on success. */
int ibe_qp_connect(struct ibe_engine *e, uint32_t qpn,
                   const struct ibe_qp_conn *c);
int ibe_qp_set_state(struct ibe_engine *e, uint32_t qpn, uint8_t state);
int ibe_qp_state(struct ibe_engine *e, uint32_t qpn);
/* Current outstanding-message limit (16, or 8 after a CNP). */
unsigned ibe_qp_outstanding_limit(struct ibe_engine *e, uint32_t qpn);

/* Post: the WR is written as WQE bytes into the ring and the doorbell rung.
 * 0, or -1 when the ring is full / QP unusable. */
int ibe_post_send(struct ibe_engine *e, uint32_t qpn,
                  const struct ibe_send_wr *wr);
int ibe_post_recv(struct ibe_engine *e, uint32_t qpn,
                  const struct ibe_recv_wr *wr);
uint32_t ibe_sq_free(struct ibe_engine *e, uint32_t qpn);

/* ---- wire side ---- */
/* Where an engine's transmitted packets go (the link installs one). */
typedef void (*ibe_tx_fn)(void *ctx, struct ibe_engine *from,
                          const uint8_t *pkt, size_t len);
void ibe_engine_set_tx(struct ibe_engine *e, ibe_tx_fn fn, void *ctx);
/* Hand a received packet to the engine's HeaderParser (processed now). */
void ibe_engine_receive(struct ibe_engine *e, const uint8_t *pkt, size_t len);

/* ---- trace: every record crossing a module boundary ---- */
struct ibe_trace_rec {
    uint64_t time;
    uint8_t rec_id;     /* catalog number: 1 for E1 ... 28 */
    const char *rec;    /* record name (records.h name when it exists) */
    const char *from, *to; /* module names */
    uint32_t nwords;
    uint32_t words[12]; /* the record as packed on the bus (bit 0 = w[0]&1) */
};
typedef void (*ibe_trace_fn)(void *ctx, struct ibe_engine *e,
                             const struct ibe_trace_rec *r);
void ibe_engine_set_trace(struct ibe_engine *e, ibe_trace_fn fn, void *ctx);
/* Packets pass the bit-width converters as E25 stream words and E24 link
 * words whenever a trace hook is installed; on != 0 makes them do so
 * without one as well (they are lossless, and slow: off by default). */
void ibe_engine_set_bitwidth(struct ibe_engine *e, int on);

/* Fault modes (faults.h): mask of IBE_FAULT_BIT()s this engine misbehaves
 * by, as the bug zoo's implementations did; 0 (the default) for none. */
void ibe_engine_set_faults(struct ibe_engine *e, uint64_t faults);
/* Open choices (choices.h): mask of IBE_CHOICE_BIT()s, the other
 * behaviour the IBA allows where it allows several; 0: the defaults. */
void ibe_engine_set_choices(struct ibe_engine *e, uint64_t choices);
uint64_t ibe_engine_faults(const struct ibe_engine *e);

/* ---- module latencies (virtual time) ---- */
/* Module `module` (a name of the trace's modules: "ReqPktGen",
 * "ExecutionEngine", "DMAEngine", ...) takes `ns` to answer: a message
 * handed to it waits that long before the module steps on it, or, for a
 * lookup its asker waits for (context, translation, DMA, tables), the
 * answer delays what the asker hands over next.  Every latency is 0 unless
 * set: modules step at once, in the untimed model's order.  Returns -1
 * for an unknown module name. */
int ibe_engine_set_latency(struct ibe_engine *e, const char *module, uint32_t ns);
/* Module `module`'s latency in ns, or -1 for an unknown name. */
int64_t ibe_engine_latency(const struct ibe_engine *e, const char *module);
enum ibe_latency_profile {
    IBE_LATENCY_NONE,      /* every module 0 ns (the default) */
    IBE_LATENCY_DOCUMENTS  /* cycles the HanGu documents give, 2 ns each */
};
/* Set every module's latency from a profile. */
void ibe_engine_set_latency_profile(struct ibe_engine *e,
                                    enum ibe_latency_profile p);
/* Apply a latency list "documents", "none" or "Module=ns,Module=ns,..."
 * (names as above; entries after a profile override it).  Returns 0, or -1
 * with *bad (when bad is not NULL) pointing at the first entry that is not
 * one.  With e NULL it only checks the list. */
int ibe_engine_apply_latency(struct ibe_engine *e, const char *list,
                             const char **bad);

/* ---- counters ---- */
struct ibe_stats {
    uint64_t pkts_tx, pkts_rx, bytes_tx;
    uint64_t retransmissions;  /* request packets sent again */
    uint64_t timeouts;         /* loss-timer expiries */
    uint64_t rnr_naks_rx, seq_naks_rx, other_naks_rx;
    uint64_t rnr_naks_tx, seq_naks_tx;
    uint64_t icrc_drops, malformed_drops;
    uint64_t dup_requests;     /* duplicate requests seen by the responder */
    uint64_t cnp_rx, cnp_tx;
    uint64_t dma_reqs, dma_subreqs;
    uint64_t records;          /* records crossing module boundaries */
};
const struct ibe_stats *ibe_engine_stats(const struct ibe_engine *e);

/* ---- the lossy link ---- */
struct ibe_link_params {
    double drop, dup, reorder, corrupt, ecn; /* probabilities per packet */
    uint64_t latency_ns;      /* one-way */
    double gbps;              /* serialization rate, 0 = infinite */
};
struct ibe_link *ibe_link_create(struct ibe_world *w, struct ibe_engine *a,
                                 struct ibe_engine *b,
                                 const struct ibe_link_params *p);
void ibe_link_destroy(struct ibe_link *l);
/* Tap: sees every packet put on the wire (after corruption), with the time. */
typedef void (*ibe_tap_fn)(void *ctx, uint64_t time_ns, const uint8_t *pkt,
                           size_t len);
void ibe_link_set_tap(struct ibe_link *l, ibe_tap_fn fn, void *ctx);
/* Chosen damage: fn sees every frame before the tap (dir 0: from the
 * first engine, 1: from the second), may change its bytes or shorten it
 * (*len), and returns non-zero to lose it after the tap.  It draws no
 * random numbers, so the link's own draws are unchanged. */
typedef int (*ibe_drop_fn)(void *ctx, int dir, uint8_t *pkt, size_t *len);
void ibe_link_set_drop(struct ibe_link *l, ibe_drop_fn fn, void *ctx);
struct ibe_link_stats {
    uint64_t sent, dropped, duplicated, reordered, corrupted, delivered;
};
const struct ibe_link_stats *ibe_link_stats(const struct ibe_link *l);

#endif
