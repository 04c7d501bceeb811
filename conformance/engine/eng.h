/* SPDX-License-Identifier: Apache-2.0 */
/*
 * eng.h - internals shared by the engine's modules.
 *
 * One C file per module of the HanGu RDMA engine design (plus the DMA engine
 * of the HanGu DMA engine design v1.5, the address-translation unit, the
 * context manager, the link and the virtual clock).  Modules hand each other
 * records (the E-catalog of records.md) through small FIFOs of packed words
 * (records.c): the producer packs with the library's packer, the consumer
 * unpacks, the trace hook sees every push.
 */
#ifndef IBW_ENG_H
#define IBW_ENG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "choices.h"
#include "faults.h"
#include "ibwire/opcode.h"

/* ------------------------------------------------------------------ */
/* virtual time (evq.c)                                                */
/* ------------------------------------------------------------------ */
typedef void (*eng_event_fn)(void *ctx, uint64_t arg);
struct eng_event {
    uint64_t t;
    uint64_t seq;     /* order among equal times; its low bit set: ctx is a
                         malloc'd block of arg bytes that the event owns
                         until fn runs (and frees it) */
    eng_event_fn fn;
    void *ctx;
    uint64_t arg;
};
/* The size of the block event ev owns, 0 when it owns none.  The flag
 * rides in seq so that an event stays 40 bytes: the heap moves events by
 * value, and a sixth field cost the event loop 0.5 % of a lossy run. */
static inline size_t eng_event_owned(const struct eng_event *ev)
{
    return (ev->seq & 1) ? (size_t)ev->arg : 0;
}
/* What a world holds besides time and events, so that a snapshot can find
 * it: its engines, and plain-data objects (the links) copied byte for
 * byte. */
struct eng_part {
    void *obj;
    size_t size;      /* 0: an engine */
};
/* A sorted FIFO of events (evq.c): a ring of cap (a power of two) slots,
 * with the keys of its first and last event beside it for the scans (an
 * empty lane: first t all ones, last key 0). */
struct eng_lane {
    uint64_t first_t, first_seq, last_t, last_seq;
    struct eng_event *ev;
    size_t head, n, cap;
};
enum { ENG_LANES = 8 };
struct ibe_world {
    uint64_t now, seq, rng;
    /* pending events: the lanes hold runs in key order, the heap the rest */
    struct eng_lane lane[ENG_LANES];
    struct eng_event *heap;
    size_t nheap, heap_cap;
    size_t nevents;   /* in the lanes and the heap */
    struct eng_part *parts;
    size_t nparts, parts_cap;
    struct ibe_snapshot *inc_newest; /* incremental snapshots (snapshot.c) */
};
void eng_at(struct ibe_world *w, uint64_t delay_ns, eng_event_fn fn,
            void *ctx, uint64_t arg);
/* As eng_at, the event owning `blob` (malloc'd, `size` bytes, handed to
 * fn as its arg): a snapshot copies it, destroying the world frees it; fn
 * frees it when it runs. */
void eng_at_owned(struct ibe_world *w, uint64_t delay_ns, eng_event_fn fn,
                  void *blob, size_t size);
/* The pending events, for snapshots: how many, a copy of them (in no
 * particular order; owned blobs not copied), dropping them all (owned
 * blobs freed), and putting one back with its own time and sequence. */
size_t eng_world_nevents(const struct ibe_world *w);
void eng_world_copy_events(const struct ibe_world *w, struct eng_event *out);
void eng_world_drop_events(struct ibe_world *w);
void eng_world_put_event(struct ibe_world *w, struct eng_event ev);
/* Register / forget a part of the world (size 0: an engine); attach
 * returns -1 when out of memory. */
int eng_world_attach(struct ibe_world *w, void *obj, size_t size);
void eng_world_detach(struct ibe_world *w, void *obj);
double eng_uniform(struct ibe_world *w);

/* ------------------------------------------------------------------ */
/* PSN arithmetic (24 bits)                                            */
/* ------------------------------------------------------------------ */
#define PSN_MASK 0xFFFFFFu
static inline uint32_t psn_add(uint32_t a, uint32_t n) { return (a + n) & PSN_MASK; }
/* Signed distance a - b in the 24-bit circle. */
static inline int32_t psn_diff(uint32_t a, uint32_t b)
{
    uint32_t d = (a - b) & PSN_MASK;
    return d & 0x800000u ? (int32_t)d - 0x1000000 : (int32_t)d;
}

/* ------------------------------------------------------------------ */
/* packet header metadata (E18 requests, E19/E20 responses)            */
/* ------------------------------------------------------------------ */
struct eng_hdr {
    uint8_t opcode, se, padcnt, ackreq, fecn, becn;
    uint16_t pkey;
    uint32_t destqp, psn;
    uint64_t va;          /* RETH / AtomicETH */
    uint32_t rkey, dmalen;
    uint64_t swap, cmp;   /* AtomicETH */
    uint8_t syndrome;     /* AETH */
    uint32_t msn;
    uint64_t orig;        /* AtomicAckETH */
    uint32_t imm;         /* ImmDt, or IETH R_Key */
    uint32_t qkey, srcqp; /* DETH */
    uint32_t paylen;
};

/* Questions the modules ask of an opcode, beyond the library's
 * ibw_opcode_*(): does the packet continue a message an earlier packet
 * began (Middle, Last), do more packets of its message follow (First,
 * Middle)?  An Only packet does neither. */
static inline bool eng_op_continues(uint8_t op)
{
    return !ibw_opcode_is_first(op) &&
           (ibw_opcode_is_middle(op) || ibw_opcode_is_last(op));
}
static inline bool eng_op_more_follow(uint8_t op)
{
    return !ibw_opcode_is_last(op) &&
           (ibw_opcode_is_first(op) || ibw_opcode_is_middle(op));
}
/* The transport of a QP's service type (IBE_RC, IBE_UC, IBE_UD). */
static inline enum ibw_transport eng_transport_of(uint8_t type)
{
    return type == IBE_UD ? IBW_TR_UD : type == IBE_UC ? IBW_TR_UC : IBW_TR_RC;
}

/* Encode header + payload into a framed packet with ICRC; returns length
 * or 0 when it does not fit. */
size_t eng_wire_build(const struct ibe_engine *e, const struct eng_hdr *h,
                      const uint8_t *payload, uint8_t *out, size_t cap);
/* Parse a packet: 0 and h/payload filled, or an ibw_err (negative); *why
 * names the failing check. */
int eng_wire_parse(const uint8_t *pkt, size_t len, uint8_t framing,
                   struct eng_hdr *h, const uint8_t **payload,
                   const char **why);
/* The same; skip_icrc: a bad ICRC (or VCRC) is not an error (a fault mode). */
int eng_wire_parse_ex(const uint8_t *pkt, size_t len, uint8_t framing,
                      struct eng_hdr *h, const uint8_t **payload,
                      const char **why, int skip_icrc);
/* Fault modes on a frame eng_wire_build() built (faults.h). */
enum { ENG_WF_MIGREQ = 1, ENG_WF_ICRC_NO_PAD, ENG_WF_ICRC_PAD_OFFSET,
       ENG_WF_ICRC_MASK };
void eng_wire_fault(const struct ibe_engine *e, uint8_t *buf, size_t n,
                    unsigned what);
/* A RoCEv2/IPv4 frame's copy into out (cap bytes) with the UDP length taken
 * from the IPv4 total length: 1, or 0 when it is not such a frame. */
int eng_wire_fault_runt(const uint8_t *pkt, size_t len, uint8_t *out, size_t cap);
/* Whether engine e has fault mode F (faults.h) on. */
#define ENG_FAULT(e, F) (((e)->faults & IBE_FAULT_BIT(F)) != 0)
/* Whether engine e takes open choice C (choices.h). */
#define ENG_CHOICE(e, C) (((e)->choices & IBE_CHOICE_BIT(C)) != 0)

/* ------------------------------------------------------------------ */
/* host memory (engine.c), regions (addr_xlate.c), DMA (dma.c)         */
/* ------------------------------------------------------------------ */
struct eng_mr {
    uint8_t valid;
    uint32_t pd, key, access;
    uint64_t va, len;
};
/* E4 status codes (documents' 4-bit codes, canonical). */
enum { XL_OK = 0, XL_LENGTH = 1, XL_KEY = 2, XL_FLAGS = 3, XL_PD = 4 };
/* E3 command types / flags we use. */
enum { XL_RD_WQE = 1, XL_RD_DATA = 2, XL_WR_DATA = 3 };
/* The ExecutionEngine's Send with Invalidate removes region `key`: -1 when
 * there is none. */
static inline int eng_mr_invalidate(struct ibe_engine *e, uint32_t key);
/* ... only when region `key` exists in protection domain pd: -1 otherwise. */
static inline int eng_mr_invalidate_in_pd(struct ibe_engine *e, uint32_t key, uint32_t pd);
static inline int eng_xlate(struct ibe_engine *e, int mod_from, uint8_t type, uint8_t op,
              uint32_t pd, uint32_t key, uint64_t va, uint32_t len,
              uint32_t need_access);
static inline void eng_dma_read(struct ibe_engine *e, int mod_from, uint64_t addr,
                  void *dst, uint32_t len);
static inline void eng_dma_write(struct ibe_engine *e, int mod_from, uint64_t addr,
                   const void *src, uint32_t len);

/* ------------------------------------------------------------------ */
/* MultiQueue (multiqueue.c)                                           */
/* ------------------------------------------------------------------ */
#define ENG_MAX_QP 1024u
/* One MultiQueue buffer's tables as packed E21 records (multiqueue.c). */
struct mq_buf {
    uint32_t cap, nfree, fhead;  /* free FIFO: count, read position */
    uint32_t *free_fifo;         /* *_free_entry words, a ring of cap */
    uint32_t *elem, elem_words;  /* element table: *_element records */
    uint32_t hw;                 /* elements ever allocated are below it:
                                    the only ones written (snapshots) */
    uint32_t list[ENG_MAX_QP];   /* *_list_entry per QP (<= 29 bits) */
};
enum { MQ_RPB = 0, MQ_REB = 1, MQ_SWPB = 2 };
#define MQ_NIL 0xFFFFFFFFu

#define ENG_PAYLOAD_SLOT 4096u /* bytes of one SWPB element's payload */
/* SWPB element: one buffered Send/Write packet. */
struct swpb_elem {
    struct eng_hdr h;
    uint8_t *payload;     /* pool slot, PMTU bytes */
    uint32_t wqe_slot;
    uint8_t last;         /* last packet of its message */
    uint8_t signaled;
    uint8_t wr_opcode;
    uint32_t msg_len;
};
/* RPB element: one buffered Read (or atomic) request. */
struct rpb_elem {
    struct eng_hdr h;     /* the request as (re)sent; updated on progress */
    uint32_t npsn;        /* PSNs the request spans */
    uint32_t wqe_slot;
    uint8_t wr_opcode;
    uint32_t msg_len, done; /* bytes received so far */
    uint32_t pmtu;        /* from the request's E13 */
    uint32_t reb_count;   /* scatter entries in the REB list */
    uint8_t signaled;
    uint8_t rereq;        /* re-requested from the middle: the responder */
    uint32_t rereq_psn;   /* starts again with a First at this PSN */
};
struct ibe_engine;
int mq_init(struct ibe_engine *e, int b, uint32_t cap);   /* -1: no memory */
void mq_fini(struct ibe_engine *e, int b);
static inline void mq_list_init(struct ibe_engine *e, int b, uint32_t qpn);
static inline bool mq_empty(struct ibe_engine *e, int b, uint32_t qpn);
/* mq_head: MQ_NIL if empty; mq_next: MQ_NIL after the tail */
static inline uint32_t mq_head(struct ibe_engine *e, int b, uint32_t qpn);
static inline uint32_t mq_next(struct ibe_engine *e, int b, uint32_t qpn, uint32_t i);
/* Both request lists' heads at once (SWPB, RPB), as RequesterTransControl
 * and RequesterRecvControl walk them side by side in PSN order. */
static inline void mq_heads(struct ibe_engine *e, uint32_t qpn, uint32_t *swpb,
                            uint32_t *rpb);
static inline uint32_t mq_nfree(struct ibe_engine *e, int b);
static inline uint32_t mq_alloc(struct ibe_engine *e, int b, uint32_t qpn); /* appends; MQ_NIL if full */
static inline void mq_pop(struct ibe_engine *e, int b, uint32_t qpn);       /* frees the head */
/* REB element payload: the scatter entry (E14 layout inside reb_element). */
static inline void mq_reb_write(struct ibe_engine *e, uint32_t i, const struct ibe_sge *g);
static inline void mq_reb_read(struct ibe_engine *e, uint32_t i, struct ibe_sge *g);
/* Both request lists' heads and their PSNs (MQ_NIL heads when empty). */
struct mq_heads { uint32_t swpb, rpb, swpb_psn, rpb_psn; };
static inline void mq_head_psns(struct ibe_engine *e, uint32_t qpn, struct mq_heads *out);
/* mq_next with the next element's PSN (SWPB or RPB), for a walk in PSN
 * order that copies out only the elements it uses. */
static inline uint32_t mq_next_psn(struct ibe_engine *e, int b, uint32_t qpn,
                                   uint32_t i, uint32_t *psn);
/* SWPB / RPB elements by address, copied out and in.  A written SWPB
 * element takes len payload bytes into its slot; the slot's address comes
 * back (the data path to ReqPktGen). */
static inline void mq_swpb_read(struct ibe_engine *e, uint32_t i, struct swpb_elem *out);
static inline const uint8_t *mq_swpb_write(struct ibe_engine *e, uint32_t i,
                                           const struct swpb_elem *in,
                                           const uint8_t *payload, uint32_t len);
static inline void mq_rpb_read(struct ibe_engine *e, uint32_t i, struct rpb_elem *out);
/* What completing a buffered packet's message needs of it, without the
 * packet: RequesterRecvControl releases packets by the million. */
struct mq_swpb_msg { uint8_t last, wr_opcode; uint32_t wqe_slot, msg_len; };
static inline void mq_swpb_msg(struct ibe_engine *e, uint32_t i, struct mq_swpb_msg *out);
static inline void mq_rpb_write(struct ibe_engine *e, uint32_t i, const struct rpb_elem *in);

/* ------------------------------------------------------------------ */
/* timers (timer.c)                                                    */
/* ------------------------------------------------------------------ */
enum { TM_LOSS = 0, TM_RNR = 1, TM_CNP = 2 };
enum { TMO_SET = 0x00, TMO_RESTART = 0x01, TMO_STOP = 0xFF };
enum { TME_EXPIRED = 0x00, TME_COUNTER = 0xFF };
/* E7 timer RAM entry, plus the model's deadline. */
struct tm_entry {
    uint8_t current, setval, active, count, thresh;
    uint64_t gen;   /* invalidates scheduled expiries */
};

/* ------------------------------------------------------------------ */
/* QP / CQ context (context.c)                                         */
/* ------------------------------------------------------------------ */
#define ENG_SQ_SLOT 256u   /* bytes per send WQE slot */
#define ENG_RQ_SLOT 128u   /* bytes per receive WQE slot */
#define ENG_CQE 32u
#define ENG_MAX_CQ 256u
#define ENG_MAX_MR 1024u
#define ENG_ATOMIC_CACHE 16u
#define ENG_READ_CACHE 16u /* READs executed whose spans a re-issue may enter */

struct eng_cq {
    uint8_t valid;
    uint64_t base;
    uint32_t depth, pi, ci;
    uint8_t armed, solicited_only;
    uint64_t events;
};

struct rec_db { uint8_t opcode, fence, size; uint32_t offset, qpn; };         /* E1 */
struct eng_send_shadow { uint64_t wr_id; uint8_t opcode, signaled; };

/* A module's latched E2 view: the fields of its view record, plus the
 * service type and Q_Key, which only the SST view has (type) or no view
 * has (Q_Key): the context manager hands them beside the view. */
struct eng_view {
    uint8_t type, state, rnr_timer;
    uint16_t pkey;
    uint32_t pd, qkey, dqpn, pmtu, npsn, upsn, epsn, cqn, sq_len, rq_len;
};
/* E2 codes (hangu-rtl-layouts.md E2). */
enum { CXT_RD_QP = 1, CXT_WR_QP = 2, CXT_RD_CQ = 7 };
enum { CXR_ALL = 1, CXR_NPST = 2, CXR_SST = 3, CXR_RST = 4, CXR_STATE = 5,
       CXR_ENCAP = 6, CXR_CST = 2 /* RD_CQ_CTX */ };
enum { CXW_ALL = 1, CXW_UAPST = 2, CXW_NPST = 3, CXW_EPST = 4, CXW_STATE = 5 };
/* Module `from` reads QP qpn's context: cxt_cmd (type RD_QP_CTX or
 * RD_CQ_CTX, op its view) out, cxt_resp + the view record back into *v. */
static inline void cxt_read(struct ibe_engine *e, int from, uint8_t type, uint8_t op,
              uint32_t qpn, struct eng_view *v);
/* Module `from` writes QP qpn's context: WR_QP_CTX cxt_cmd (op: which PSN,
 * or STATE) + cxt_wr_data (state, psn); unanswered.  STATE = Error also
 * flushes the receive queue. */
static inline void cxt_write(struct ibe_engine *e, int from, uint8_t op, uint32_t qpn,
               uint8_t state, uint32_t psn);

/* Per-QP state, one struct per module that owns it.  A module file reads
 * and writes only its own struct; what another module holds it gets
 * through that module's port (ports.h), a record it was handed, or the
 * context manager's views.  The `owner:` tag on each struct is what the
 * lint test engine_module_state reads (conformance/tests/lint); the top
 * (engine.c: the driver's command path) and snapshot.c may touch every
 * struct.  valid and qpn name the QP: every module may read them. */

/* owner: context.c - the QP context (context-management document §4.2.1):
 * read only through RD_QP_CTX / RD_CQ_CTX views, written only through
 * WR_QP_CTX + cxt_wr_data; the host fills it (create / connect / modify =
 * the driver's WR_QP_CTX ALL).  The ring bases and depths are context too:
 * the driver writes them there and the views carry the lengths; what no
 * view carries (bases, retry settings) cxt_conf() hands out. */
struct eng_qp_cxt {
    uint8_t type, state;
    uint32_t pd, scq, rcq, qkey;
    uint16_t pkey;
    struct ibe_qp_conn c;   /* remote QPN, PMTU, RNR timer; retry/timeout */
    uint32_t npsn, upsn, epsn; /* NextPSN, UnAckedPSN, ExpectedPSN */
    uint64_t sq_base, rq_base;
    uint32_t sq_depth, rq_depth;
    uint32_t sq_cqe;        /* send completions the CQ writer took: the host
                               reuses an SQ slot once its CQE is written */
};
/* owner: engine.c - the driver's side of the rings (hw/sw interface
 * §3.4): what it posted and the wr_id each slot carries. */
struct eng_qp_host {
    uint32_t sq_pi;                         /* send WQEs posted */
    struct eng_send_shadow *sq_shadow;      /* wr_id per SQ slot */
    uint64_t *rq_shadow;                    /* wr_id per RQ slot */
};
/* owner: scheduler.c - WQEScheduler (HanGu RDMA engine design §2.4.2):
 * the doorbells not yet scheduled, each slot's E12 as DoorbellProcessing
 * handed it, and the next slot to schedule. */
struct eng_qp_sched {
    uint32_t db_pending;
    uint32_t sq_hw;         /* send WQEs handed to the WQEParser */
    uint8_t parked;         /* the requester could not take its turn */
    struct rec_db *sq_db;   /* opcode, size, fence of each slot's WQE */
};
/* owner: wqe_parser.c - WQEParser (HanGu RDMA engine design §2.4.3). */
struct eng_qp_parser {
    uint32_t parsed;        /* WQEs read: the first one's E3 differs */
};
/* owner: req_trans.c - RequesterTransControl (HanGu RDMA engine design
 * §3.4.1): the NextPSN register, the length counter of the message being
 * cut, the outstanding limit, Go-Back-N recovery, the SQ's retired count. */
struct eng_qp_rtc {
    uint32_t npsn;          /* latched from the NPST view, written back */
    uint32_t outstanding, limit; /* messages in flight, limit (16/8) */
    uint32_t sq_ci;         /* send WQEs completed */
    uint8_t rec_active;     /* Go-Back-N recovery in progress */
    uint32_t rec_next, rec_end; /* next PSN to send again, NPSN then */
    struct rec_md *seg_md;
    uint8_t *seg_buf;
    uint32_t seg_off, seg_i, seg_n;
    uint32_t taken;         /* WQEs DataPack handed over */
    uint8_t wait_take;      /* the scheduler waits for the next one */
    uint8_t early_done;     /* faults.h resend-early: fired on this QP */
};
/* owner: req_recv.c - RequesterRecvControl (HanGu RDMA engine design
 * §3.4.5): the RNR wait, the held bad request, NAK retries, the highest
 * ACKed PSN, the read already acted on. */
struct eng_qp_rrc {
    uint8_t rnr_wait, bad_pending;
    uint32_t bad_slot; uint8_t bad_code, bad_op;
    uint8_t nak_retries;
    uint32_t acked_psn; uint8_t acked_valid; /* highest PSN an ACK covered */
    uint32_t rnr_psn;       /* where to resume after the RNR timer */
    uint8_t rd_retx_valid;  /* a lost read response was already acted on */
    uint32_t rd_retx_psn;   /* ... for the read at this PSN */
    uint8_t fault_rnr_naks; /* fault RNR_RETRY_FINITE (faults.h): RNR
                               NAKs since the last progress */
};
/* owner: timer.c - TimerControl's timer RAM (HanGu RDMA engine design
 * §3.4.2, E7): loss, RNR, CNP restore. */
struct eng_qp_tmr {
    struct tm_entry tm[3];
};
/* owner: exec_engine.c - ExecutionEngine (HanGu RDMA engine design
 * §4.4.1): MSN, the sequence-NAK arm, the message in progress (and the
 * Write's remaining DMA length), the entry
 * E11 handed it, the atomic cache, the UC drop state. */
struct eng_qp_ee {
    uint32_t msn;
    uint8_t nak_armed;      /* a PSN-sequence NAK may be sent */
    uint8_t recv_active;    /* a multi-packet Send (1) / Write (2) is on */
    uint32_t recv_bytes;
    uint32_t wr_resid;      /* RDMA Write: RETH DMA length not yet written
                               (C9-92: the payloads must add up to it) */
    uint32_t wqe_off;       /* the receive WQE's offset, from E11 */
    struct { uint32_t psn; uint64_t orig; uint8_t valid; } acache[ENG_ATOMIC_CACHE];
    uint32_t acache_next;
    /* the spans of the READs executed last and the MSN they were answered
     * with (choices DUP_READ_CONTINUE, DUP_MSN_ORIGINAL) */
    struct { uint32_t psn, npsn, msn; uint8_t valid; } rcache[ENG_READ_CACHE];
    uint32_t rcache_next;
    struct { uint8_t valid, wqe; uint32_t len, key; uint64_t va; } ent;
                            /* wqe: a FETCH loaded a WQE not yet released */
    uint8_t uc_drop;        /* UC: dropping until the next First/Only */
    uint8_t dup_read_seen;  /* fault NAK_AFTER_DUP_READ (faults.h): a
                               duplicate READ was answered */
    /* choice ACK_COALESCE: the ACKs held back, for the last of them */
    uint8_t acks_held;
    uint32_t ack_held_psn, ack_held_msn;
    uint32_t ack_gen;       /* voids a flush already scheduled */
    struct eng_view ack_view; /* the request's view, to answer it later */
};
/* owner: rqwqe_mgr.c - RQWQEManager (HanGu RDMA engine design §4.4.2):
 * the RQ indices (the driver writes the producer index here when it
 * posts), the 512-byte fetch window, the loaded WQE's entries. */
struct eng_qp_rqm {
    uint32_t rq_pi, rq_ci;  /* posted, retired */
    uint8_t win[512];
    uint32_t win_slot, win_pi; uint8_t win_valid;
    struct ibe_sge rsg[IBE_MAX_SGE]; /* head at rsg_i */
    uint8_t rsg_n, rsg_i, loaded;
};

struct eng_qp {
    uint8_t valid;
    uint32_t qpn;
    struct eng_qp_cxt cxt;
    struct eng_qp_host host;
    struct eng_qp_sched sched;
    struct eng_qp_parser parser;
    struct eng_qp_rtc rtc;
    struct eng_qp_rrc rrc;
    struct eng_qp_tmr tmr;
    struct eng_qp_ee ee;
    struct eng_qp_rqm rqm;
};

/* One FIFO per boundary.  The producer packs with the records.h packer and
 * pushes; the consumer pops and unpacks; the trace sees every push.  The
 * model runs the consumer right after the push, so a few entries suffice
 * (an E13 with four E14s, an E15 and an E16 is the longest burst). */
enum eng_chan {
    CH_DB, CH_SCHED_IN, CH_PARSER_IN, CH_DATAPACK_IN, CH_RTC_IN, CH_BAD,
    CH_TSET_LOSS, CH_TSET_RNR, CH_TSET_CNP, CH_TEXP_LOSS, CH_TEXP_RNR,
    CH_SEM_CMD, CH_SEM_RESP, CH_RQ_CMD, CH_RQ_RESP, CH_REQPKT_IN, CH_EXEC_IN,
    CH_RRC_IN, CH_RESPPKT_IN, CH_CXT, CH_CXT_RESP, CH_VTP_CMD, CH_VTP_RESP, CH_DMA, CH_MQ,
    CH_WAT, CH_TENTRY, CH_IND, CH_TX_STREAM, CH_TX_LINK, CH_RX_LINK,
    CH_RX_STREAM, CH_COUNT
};
#define ENG_FIFO_DEPTH 8u
struct eng_fifo {
    uint32_t head, count;
    uint8_t id[ENG_FIFO_DEPTH], nw[ENG_FIFO_DEPTH];
    uint8_t to[ENG_FIFO_DEPTH]; /* the consumer (enum eng_mod): a message
                                   held for a module's latency takes the
                                   records waiting for it along (timing.c) */
    uint32_t w[ENG_FIFO_DEPTH][12];
};

/* ------------------------------------------------------------------ */
/* the bit-width converters' cores (bitwidth.c; rtl/ for the RTL)      */
/* ------------------------------------------------------------------ */
/* 256To64Trans and 64To256Trans as their FIFOs see them, records as
 * packed bus images: down takes one E25 word (nbytes of it valid: E25 has
 * no count) and gives its E24 words, returning how many; up takes one E24
 * word and returns 1 with an E25 word (and the packet's bytes so far) when
 * one comes out.  The C model (bw_use_c_converters) or an external one
 * (the Verilated RTL, rtl/bitwidth_rtl.h). */
struct eng_bw_core {
    unsigned (*down)(void *state, const uint32_t *e25, unsigned nbytes,
                     uint32_t e24[4][3]);
    int (*up)(void *state, const uint32_t *e24, uint32_t *e25, uint32_t *bytes);
    void *state;
    void (*free)(void *state); /* NULL: state belongs to the engine */
};
/* The C 64To256Trans's Counter and DataReg. */
struct eng_bw_gather {
    uint32_t data[8];
    uint32_t got;
    uint8_t counter, sop;
};
void bw_use_c_converters(struct ibe_engine *e);

/* ------------------------------------------------------------------ */
/* ports: how one module reaches another (ports.h)                     */
/* ------------------------------------------------------------------ */
/* A module never calls a function of another module's file.  It pushes
 * its records into the boundary's FIFO and then hands the consumer a
 * message through a port: the port functions declared below (ports.h, the
 * FIFO layer) pack their arguments into a struct eng_msg and step the
 * module that owns the port through the engine's step table, which the
 * engine's top (engine.c) wires.  Each module file exports one step
 * function; replacing a module (by an RTL model, say) is replacing its
 * entry in the table.  With every latency 0 a port steps its module at
 * once (run to completion, depth first: the order the records had when
 * producers called their consumers); with latencies the scheduler in
 * timing.c decides when (README.md, "Modules are processes"). */
enum eng_port_id {
PORT_ENG_XLATE,
PORT_ENG_MR_INVALIDATE,
PORT_BW_TRANSMIT,
PORT_BW_RECEIVE,
PORT_CXT_READ,
PORT_CXT_WRITE,
PORT_CXT_CQ_PUSH,
PORT_DATAPACK_TAKE,
PORT_ENG_DMA_READ,
PORT_ENG_DMA_WRITE,
PORT_DB_RING,
PORT_EE_REQUEST,
PORT_HP_RECEIVE,
PORT_MQ_LIST_INIT,
PORT_MQ_EMPTY,
PORT_MQ_HEAD,
PORT_MQ_HEADS,
PORT_MQ_NEXT,
PORT_MQ_NFREE,
PORT_MQ_ALLOC,
PORT_MQ_POP,
PORT_MQ_REB_WRITE,
PORT_MQ_REB_READ,
PORT_REQPKT_SEND,
PORT_RRC_RESPONSE,
PORT_RRC_TIMER,
PORT_RRC_BAD_REQUEST,
PORT_RRC_CNP,
PORT_RTC_CAN_ISSUE,
PORT_RTC_TAKE,
PORT_RTC_RETRANSMIT_FROM,
PORT_RTC_RETRANSMIT_RANGE,
PORT_RTC_RESUME,
PORT_RTC_PUMP,
PORT_ENG_UPSN,
PORT_RTC_COMPLETE,
PORT_RESPPKT_SEND,
PORT_RQM_CMD,
PORT_RQM_RESET,
PORT_SEM_CMD,
PORT_SCHED_PUSH,
PORT_SCHED_WAKE,
PORT_TIMER_SET,
PORT_PARSER_TAKE,
PORT_WAT_WRITE,
PORT_WAT_READ,
PORT_CXT_CONF,
PORT_TIMER_ENTRY,
PORT_TIMER_CLEAR_COUNT,
PORT_RRC_HOLDS,
PORT_RTC_SET_LIMIT,
PORT_RTC_DROP_SEG,
PORT_RTC_CUTTING,
PORT_RTC_RESET,
PORT_SCHED_REQUEUE,
PORT_RQM_POSTED,
PORT_RQM_RETIRE_POSTED,
PORT_EE_RESET,
PORT_XLATE_INVALIDATE_IN_PD,
PORT_MQ_HEAD_PSNS,
PORT_MQ_SWPB_READ,
PORT_MQ_SWPB_WRITE,
PORT_MQ_RPB_READ,
PORT_MQ_RPB_WRITE,
PORT_MQ_NEXT_PSN,
PORT_MQ_SWPB_MSG,
    PORT_COUNT
};
struct eng_msg {
    uint8_t port;        /* enum eng_port_id */
    uint64_t a[8];       /* the port's scalar arguments, in order */
    void *p[2];          /* ... its pointers to what the module fills */
    const void *cp[3];   /* ... its pointers to what the module reads */
    int64_t ret;         /* the port's answer */
};
typedef void (*eng_step_fn)(struct ibe_engine *e, struct eng_msg *m);
/* Each module file's one entry point: serve message m on one of its
 * ports. */
void xlate_step(struct ibe_engine *e, struct eng_msg *m);
void bw_step(struct ibe_engine *e, struct eng_msg *m);
void cxt_step(struct ibe_engine *e, struct eng_msg *m);
void datapack_step(struct ibe_engine *e, struct eng_msg *m);
void dma_step(struct ibe_engine *e, struct eng_msg *m);
void db_step(struct ibe_engine *e, struct eng_msg *m);
void ee_step(struct ibe_engine *e, struct eng_msg *m);
void hp_step(struct ibe_engine *e, struct eng_msg *m);
void mq_step(struct ibe_engine *e, struct eng_msg *m);
void reqpkt_step(struct ibe_engine *e, struct eng_msg *m);
void rrc_step(struct ibe_engine *e, struct eng_msg *m);
void rtc_step(struct ibe_engine *e, struct eng_msg *m);
void resppkt_step(struct ibe_engine *e, struct eng_msg *m);
void rqm_step(struct ibe_engine *e, struct eng_msg *m);
void sem_step(struct ibe_engine *e, struct eng_msg *m);
void sched_step(struct ibe_engine *e, struct eng_msg *m);
void timer_step(struct ibe_engine *e, struct eng_msg *m);
void parser_step(struct ibe_engine *e, struct eng_msg *m);
void wat_step(struct ibe_engine *e, struct eng_msg *m);
/* ------------------------------------------------------------------ */
/* the engine                                                          */
/* ------------------------------------------------------------------ */
enum eng_mod {
    M_HOST, M_DOORBELL, M_SCHED, M_PARSER, M_DATAPACK, M_REQTRANS, M_TIMER,
    M_MQ, M_REQPKTGEN, M_HDRPARSER, M_REQRECV, M_SEM, M_EXEC, M_RQWQE,
    M_WAT, M_RESPPKTGEN, M_CXT, M_XLATE, M_DMA, M_WIRE, M_TX256TO64,
    M_RX64TO256, M_COUNT
};
extern const char *const eng_mod_name[M_COUNT];

/* Engine-wide state of each module, tagged like the per-QP structs. */
/* owner: scheduler.c - WQEScheduler's Q1 / Q2 and the WQE indicator table
 * (HanGu RDMA engine design §2.4.2, §2.4.4, E22). */
struct eng_sched {
    uint32_t q1[ENG_MAX_QP + 1], q2[ENG_MAX_QP + 1]; /* new doorbells, more WQEs */
    uint32_t q1h, q1n, q2h, q2n;
    uint8_t indicator[ENG_MAX_QP]; /* E22: QP is queued */
    uint8_t armed;
};
/* owner: multiqueue.c - the MultiQueue's tables (HanGu RDMA engine design
 * §3.4.3): list, element and free tables as E21 records, and the buffered
 * packets by element address. */
struct eng_mq {
    struct mq_buf buf[3];    /* MQ_RPB, MQ_REB, MQ_SWPB tables */
    struct swpb_elem *swpb;  /* the packets, by element address */
    struct rpb_elem *rpb;
    uint8_t *swpb_payload;
    uint32_t swpb_hw;        /* SWPB payload slots ever allocated: what a
                                snapshot copies */
};
/* owner: write_addr_table.c - WriteAddrTable (HanGu RDMA engine design
 * §4.4.3, E23). */
struct eng_wat {
    struct { uint32_t rkey; uint64_t va; } ent[ENG_MAX_QP];
};
/* owner: exec_engine.c - ExecutionEngine (HanGu RDMA engine design
 * §4.4.1): the RST view latched for the request at hand. */
struct eng_ee {
    struct eng_view view;
};
/* owner: addr_xlate.c - the address-translation unit's regions (HanGu
 * address-translation design). */
struct eng_xlate {
    struct eng_mr mr[ENG_MAX_MR];
};
/* owner: context.c - the CQ contexts and the CQ writer's producer indices
 * (context-management document §4.2.2). */
struct eng_cxt {
    struct eng_cq cq[ENG_MAX_CQ];
    uint32_t ncq;
};
/* owner: bitwidth.c - 256To64Trans / 64To256Trans (HanGu RDMA engine
 * design §6.4.1, §6.4.2) and the link layer's bytes on either side. */
struct eng_bw {
    uint8_t on;              /* run the E25/E24 converters without a trace */
    struct eng_bw_core core;
    struct eng_bw_gather gather;
    uint8_t txbuf[4096 + 256], rxbuf[4096 + 256];
    size_t txlen, rxlen;
};
/* owner: req_pktgen.c - ReqPktGen (HanGu RDMA engine design §3.4.4): the
 * packet it frames. */
struct eng_reqpkt {
    uint8_t buf[4096 + 256];
};
/* owner: resp_pktgen.c - ResponsePacketGen (HanGu RDMA engine design
 * §4.4.4): the packet it frames. */
struct eng_resppkt {
    uint8_t buf[4096 + 256];
};

struct ibe_engine {
    struct ibe_world *w;
    struct ibe_config cfg;
    /* host memory (engine.c hands it out; the DMA engine reads and writes
     * it, as the host's memory is no module's) */
    uint8_t *mem;
    uint64_t mem_top;
    uint64_t mem_hw;     /* end of the host memory ever handed out or
                            written: what a snapshot must copy */
    uint32_t qp_hw;      /* QPNs ever created are below it (the same) */
    struct eng_qp qp[ENG_MAX_QP];
    struct eng_sched sched;
    struct eng_mq mq;
    struct eng_wat wat;
    struct eng_ee ee;
    struct eng_xlate xlate;
    struct eng_cxt cxt;
    struct eng_bw bw;
    struct eng_reqpkt reqpkt;
    struct eng_resppkt resppkt;
    /* the top's wiring: where packets go, the trace hook, the counters
     * every module adds to, the boundary FIFOs (records.c), the step table */
    ibe_tx_fn tx; void *tx_ctx;
    ibe_trace_fn trace; void *trace_ctx;
    struct ibe_stats st;
    struct eng_fifo fifo[CH_COUNT];
    const eng_step_fn *step; /* what a port calls for each enum eng_mod */
    const eng_step_fn *wired; /* the module behind each (engine.c) */
    /* module latencies in virtual time (timing.c); all 0 unless set */
    uint8_t timed;           /* some latency is not 0 */
    uint64_t t_off;          /* the running step's time past w->now: the
                                latencies of the requests it has made */
    uint32_t depth;          /* steps running (0: the host or an event) */
    uint64_t free_at[M_COUNT]; /* when each module's last step ended: it
                                  takes the next message no earlier */
    uint64_t last_in[M_COUNT]; /* when the last message handed to each
                                  module arrives: one input FIFO, so none
                                  arrives before an earlier one */
    uint32_t issued[M_COUNT];  /* messages handed to each module to wait,
                                  numbered in order: the module takes */
    uint32_t served[M_COUNT];  /* them by number, a new one behind them */
    uint32_t lat[M_COUNT];   /* ns, per module */
    /* fault modes (faults.h, ibe_engine_set_faults): a strap the driver
     * sets, read by the module that owns each faulty behaviour; 0: none */
    uint64_t faults;
    /* open choices (choices.h, ibe_engine_set_choices): 0, the defaults */
    uint64_t choices;
    /* While incremental snapshots of the world are live, host memory about
     * to be written is handed to mem_saver first (snapshot.c keeps the
     * pages' old contents); NULL otherwise.  Not part of any snapshot. */
    void (*mem_saver)(struct ibe_engine *e, uint64_t addr, uint64_t len);
    struct eng_undo *undo;
};

/* Every write into host memory (e->mem) goes through here first: the DMA
 * engine's writes, and the host side's WQEs, CQE ownership and
 * ibe_mem_ptr.  A pointer call, so that it costs one test when no
 * incremental snapshot is live, and modules reach snapshot.c through no
 * function of it. */
static inline void eng_mem_will_write(struct ibe_engine *e, uint64_t addr,
                                      uint64_t len)
{
    if (e->mem_saver)
        e->mem_saver(e, addr, len);
}
/* An engine leaves its world: incremental snapshots become unrestorable
 * and let go of it (snapshot.c). */
void eng_snapshots_drop(struct ibe_world *w);

/* Host memory bounds: every module that touches host memory checks here. */
static inline bool eng_mem_ok(const struct ibe_engine *e, uint64_t addr,
                              uint64_t len)
{
    return addr <= e->cfg.mem_bytes && len <= e->cfg.mem_bytes - addr;
}

/* On a step function's rarely used ports: a serve function inlined into
 * the step makes every message pay its register saves, and the hottest
 * ports (MultiQueue list heads, say) are a dozen instructions. */
#define ENG_OUT_OF_LINE __attribute__((noinline))

/* Hand message m to module mod's step function (ports.h).  With every
 * latency 0, e->step is the wiring (engine.c) and mod steps at once, run
 * to completion; once a latency is set it is the scheduler's table
 * (timing.c), which steps e->wired[mod] in virtual time: untimed, a port
 * costs no test of it. */
static inline void eng_port(struct ibe_engine *e, int mod, struct eng_msg *m)
{
    e->step[mod](e, m);
}
/* Point e->step at the wiring or at the scheduler, as e->timed says. */
void eng_timing_route(struct ibe_engine *e);

static inline struct eng_qp *eng_qp(struct ibe_engine *e, uint32_t qpn)
{
    if (qpn >= ENG_MAX_QP || !e->qp[qpn].valid)
        return NULL;
    return &e->qp[qpn];
}

/* The QP a record names where the module that produced the record has
 * already checked it exists: a missing one is an engine bug. */
static inline struct eng_qp *eng_qp_known(struct ibe_engine *e, uint32_t qpn)
{
    struct eng_qp *q = eng_qp(e, qpn);
    if (!q)
        abort();
    return q;
}

/* ------------------------------------------------------------------ */
/* records handed between modules (records.c does the trace)          */
/* ------------------------------------------------------------------ */
struct rec_sched { uint8_t opcode, fence, svc; uint32_t qpn, dqpn, pd, lkey;  /* E12 */
                   uint16_t pkey, pmtu; uint32_t wqe_size, sq_len, wqe_off; };
struct rec_md {                                                               /* E13 */
    uint8_t opcode, svc, fence, inl, reqstate, nent;
    uint32_t pmtu, sqpn, dqpn, msgsize, qkey, pd, pkey, imm, wqe_off;
    uint8_t solicited, signaled;
    struct ibe_sge sg[IBE_MAX_SGE];     /* E14 */
    uint64_t raddr; uint32_t rkey;     /* E15 */
    uint64_t swap, cmp;                /* E16 */
    uint8_t inline_data[IBE_MAX_INLINE];
};
struct rec_bad { uint32_t qpn; uint8_t errtype, opcode; uint32_t wqe_off; }; /* E17 */
struct rec_tset { uint8_t op; uint32_t qpn; uint8_t counter, value; uint8_t which; }; /* E5 */
struct rec_texp { uint8_t event; uint32_t qpn; uint8_t which; };           /* E6 */
struct rec_sem { uint8_t op, num; uint32_t qpn, len, key; uint64_t va; };   /* E8/E9 */
struct rec_rq { uint8_t op; uint8_t code; uint32_t qpn, len, key; uint64_t va; uint32_t wqe_off;
                uint32_t pd, rq_len; /* FETCH: from the ExecutionEngine's view */ }; /* E10/E11 */
struct rec_resp { struct eng_hdr h; uint8_t pmtu_enum; uint32_t msgsize; }; /* E20 */

enum { SEM_FETCH = 0, SEM_UPDATE = 1, SEM_RELEASE = 2, SEM_FLUSH = 4 };
enum { RQ_FETCH = 0, RQ_UPDATE = 1, RQ_RELEASE_ENTRY = 2, RQ_RELEASE_WQE = 3,
       RQ_FLUSH = 4 };
enum { RQR_VALID = 0x00, RQR_INVALID_ENTRY = 0x01, RQR_INVALID_WQE = 0x20 };
enum { RS_NORMAL = 0, RS_QP_STATE = 1, RS_OPCODE = 2, RS_LOCAL_ACCESS = 4,
       RS_LENGTH = 8 };

/* ------------------------------------------------------------------ */
/* module boundaries: small FIFOs of packed records (records.c)        */
/* ------------------------------------------------------------------ */
/* Show a pushed record to the trace hook (records.c). */
void eng_trace_rec(struct ibe_engine *e, int from, int to, uint8_t id,
                   const char *name, const uint32_t *w, uint32_t nwords);
/* Push a packed record (nwords <= 12) into channel ch; counts it and shows
 * it to the trace hook.  Inline: every hand-over passes here. */
static inline void eng_push(struct ibe_engine *e, int ch, int from, int to,
                            uint8_t id, const char *name, const uint32_t *w,
                            uint32_t nwords)
{
    struct eng_fifo *f = &e->fifo[ch];
    if (f->count == ENG_FIFO_DEPTH || nwords > 12)
        abort(); /* a consumer did not drain its FIFO: an engine bug */
    uint32_t slot = (f->head + f->count) % ENG_FIFO_DEPTH;
    f->count++;
    f->id[slot] = id;
    f->nw[slot] = (uint8_t)nwords;
    f->to[slot] = (uint8_t)to;
    memcpy(f->w[slot], w, nwords * sizeof *w);
    e->st.records++;
    if (e->trace)
        eng_trace_rec(e, from, to, id, name, w, nwords);
}
/* Pop the oldest record of channel ch into w (room for 12 words; the
 * record's own words are written); returns its catalog number.  Popping
 * an empty FIFO is an engine bug (abort). */
static inline uint8_t eng_pop(struct ibe_engine *e, int ch, uint32_t *w)
{
    struct eng_fifo *f = &e->fifo[ch];
    if (!f->count)
        abort(); /* nothing was pushed: an engine bug */
    uint32_t slot = f->head;
    f->head = (f->head + 1) % ENG_FIFO_DEPTH;
    f->count--;
    memcpy(w, f->w[slot], f->nw[slot] * sizeof *w);
    return f->id[slot];
}

/* Pack struct s with the records.h packer for record pfx and push it. */
#define ENG_PUT(e, ch, id, pfx, from, to, s)                                   \
    do {                                                                       \
        uint32_t w_[pfx##_WORDS];                                              \
        pfx##_pack(&(s), w_);                                                  \
        eng_push(e, ch, from, to, id, pfx##_format()->name, w_, pfx##_WORDS);  \
    } while (0)
/* Pop channel ch and unpack it as record pfx into struct s. */
#define ENG_GET(e, ch, pfx, s)                                                 \
    do {                                                                       \
        uint32_t w_[12];                                                       \
        eng_pop(e, ch, w_);                                                    \
        pfx##_unpack(w_, &(s));                                                \
    } while (0)

/* Values the records do not carry, passed beside them and listed in
 * README.md: the WQE's solicited / signalled flags (E13 has no field for
 * them) travel WQEParser -> DataPack -> RequesterTransControl. */
struct eng_wqe_side { uint8_t solicited, signaled; };

/* put: pack + push; get: pop + unpack (records.c). */
void rec_db_put(struct ibe_engine *e, const struct rec_db *r);
void rec_db_get(struct ibe_engine *e, struct rec_db *r);
void rec_sched_put(struct ibe_engine *e, int ch, int from, int to, const struct rec_sched *r);
void rec_sched_get(struct ibe_engine *e, int ch, struct rec_sched *r);
void rec_md_put(struct ibe_engine *e, int ch, int from, int to, const struct rec_md *r);
void rec_md_get(struct ibe_engine *e, int ch, struct rec_md *r);
void rec_bad_put(struct ibe_engine *e, const struct rec_bad *r);
void rec_bad_get(struct ibe_engine *e, struct rec_bad *r);
void rec_tset_put(struct ibe_engine *e, int from, const struct rec_tset *r);
void rec_tset_get(struct ibe_engine *e, int which, struct rec_tset *r);
void rec_texp_put(struct ibe_engine *e, const struct rec_texp *r);
void rec_texp_get(struct ibe_engine *e, int which, struct rec_texp *r);
void rec_sem_put(struct ibe_engine *e, int is_resp, const struct rec_sem *r);
void rec_sem_get(struct ibe_engine *e, int is_resp, struct rec_sem *r);
void rec_rq_put(struct ibe_engine *e, int is_resp, const struct rec_rq *r);
void rec_rq_get(struct ibe_engine *e, int is_resp, struct rec_rq *r);
/* E18/E19: header metadata as its bus image (BTH onwards, payload length
 * in the BTH reserved bits). */
void rec_hdr_put(struct ibe_engine *e, int ch, int from, int to, int rec_id,
                 const struct eng_hdr *h);
void rec_hdr_get(struct ibe_engine *e, int ch, struct eng_hdr *h);
void rec_resp_put(struct ibe_engine *e, const struct rec_resp *r);
void rec_resp_get(struct ibe_engine *e, struct rec_resp *r);
/* Header bytes from the BTH on <-> metadata, through ibw_build_headers()
 * and ibw_parse_headers() (eng_wire.c).  to_bytes: the length, 0 when the
 * headers do not fit cap; from_bytes: 0 or an ibw_err. */
size_t eng_hdr_to_bytes(const struct eng_hdr *h, uint8_t *out, size_t cap);
int eng_hdr_from_bytes(const uint8_t *b, size_t len, struct eng_hdr *h);
/* Bit-width converters (bitwidth.c): a packet's bytes as E25
 * stream words and E24 link words. */
static inline void bw_transmit(struct ibe_engine *e, int from, const uint8_t *pkt, size_t len);
static inline void bw_receive(struct ibe_engine *e, const uint8_t *pkt, size_t len);

void eng_rec_dma(struct ibe_engine *e, int from, int is_write, uint64_t addr,
                 uint32_t len, uint8_t tag);
void eng_rec_mq(struct ibe_engine *e, int from, uint8_t which, uint32_t qpn,
                uint32_t idx);
void eng_rec_wat(struct ibe_engine *e, int from, int is_write, uint32_t qpn,
                 uint32_t rkey, uint64_t va);
void eng_rec_sge(struct ibe_engine *e, int from, int to, const struct ibe_sge *g);
void eng_rec_tentry(struct ibe_engine *e, const struct tm_entry *t);
void eng_rec_ind(struct ibe_engine *e, int from, uint8_t flag);

/* ------------------------------------------------------------------ */
/* module ports (ports.h steps the module that owns each) and the      */
/* host's entry points (called by engine.c only)                       */
/* ------------------------------------------------------------------ */
/* context.c */
void cxt_init_qp(struct ibe_engine *e, struct eng_qp *q);
static inline void cxt_cq_push(struct ibe_engine *e, uint32_t cqn, const struct ibe_wc *wc,
                 uint32_t wqe_offset, int is_send, uint32_t qpn, uint8_t opcode);
void cxt_set_state(struct ibe_engine *e, struct eng_qp *q, uint8_t state);
void cxt_flush_rq(struct ibe_engine *e, struct eng_qp *q);
/* The connection settings and ring geometry no view carries (the RTL
 * hardwires the retry values into E5; the ring bases are translated, not
 * viewed): a copy, no record. */
struct eng_conf {
    uint8_t retry_cnt, timeout, rnr_retry;
    uint32_t max_outstanding;
    uint64_t sq_base, rq_base;
    uint32_t sq_depth, rq_depth;
};
static inline void cxt_conf(struct ibe_engine *e, uint32_t qpn, struct eng_conf *out);
/* doorbell.c */
static inline void db_ring(struct ibe_engine *e);
/* scheduler.c */
static inline void sched_push(struct ibe_engine *e);
static inline void sched_wake(struct ibe_engine *e, struct eng_qp *q);
/* The QP goes back into Q2 whether or not it was parked (a flush: the WQEs
 * not yet parsed go through as flushed). */
static inline void sched_requeue(struct ibe_engine *e, struct eng_qp *q);
void sched_kick(struct ibe_engine *e);
/* wqe_parser.c */
static inline void parser_take(struct ibe_engine *e);
/* datapack.c */
static inline void datapack_take(struct ibe_engine *e, const struct eng_wqe_side *side,
                   const uint8_t *inline_data, uint32_t inline_len);
/* req_trans.c */
static inline bool rtc_can_issue(struct ibe_engine *e, struct eng_qp *q,
                                 uint32_t scheduled);
static inline void rtc_take(struct ibe_engine *e, const struct eng_wqe_side *side,
              uint8_t *payload /* owned */);
static inline void rtc_retransmit_from(struct ibe_engine *e, struct eng_qp *q, uint32_t psn);
static inline void rtc_retransmit_range(struct ibe_engine *e, struct eng_qp *q, uint32_t from,
                          uint32_t to_excl);
static inline void rtc_resume(struct ibe_engine *e, struct eng_qp *q);
static inline void rtc_pump(struct ibe_engine *e, struct eng_qp *q);
static inline int eng_upsn(struct ibe_engine *e, const struct eng_qp *q, uint32_t *psn);
/* Packets a QP keeps in flight: the whole window normally, a few while it
 * recovers (Go-Back-N re-sends are paced by the ACKs). */
#define ENG_WINDOW 256
#define ENG_RECOVERY_WINDOW 16
static inline void rtc_complete(struct ibe_engine *e, struct eng_qp *q, uint32_t slot,
                  uint8_t opcode, uint8_t status, uint32_t len, int counted);
/* The outstanding limit (a CNP halves it, its timer restores it). */
static inline void rtc_set_limit(struct ibe_engine *e, struct eng_qp *q, uint32_t limit);
/* The message being cut completes with `status` and is dropped; false when
 * none is being cut. */
static inline bool rtc_drop_seg(struct ibe_engine *e, struct eng_qp *q, uint8_t status);
static inline bool rtc_cutting(struct ibe_engine *e, struct eng_qp *q);
/* The send queue was flushed: nothing outstanding, no recovery. */
static inline void rtc_reset(struct ibe_engine *e, struct eng_qp *q);
/* timer.c */
static inline void timer_set(struct ibe_engine *e, int from, const struct rec_tset *r);
/* A copy of QP qpn's timer RAM entry `which` (E7), as the timer's owner
 * answers a status read; clearing the count restarts its retry budget. */
static inline void timer_entry(struct ibe_engine *e, uint32_t qpn, int which,
                               struct tm_entry *out);
static inline void timer_clear_count(struct ibe_engine *e, uint32_t qpn, int which);
uint64_t timer_duration_ns(int which, uint8_t value);
/* req_pktgen.c */
static inline void reqpkt_send(struct ibe_engine *e, int from, const struct eng_hdr *h,
                 const uint8_t *payload);
/* hdr_parser.c */
static inline void hp_receive(struct ibe_engine *e, const uint8_t *pkt, size_t len);
/* req_recv.c */
static inline void rrc_response(struct ibe_engine *e, const uint8_t *payload,
                                uint32_t len);
static inline void rrc_timer(struct ibe_engine *e, const struct rec_texp *ev);
static inline void rrc_bad_request(struct ibe_engine *e);
static inline void rrc_cnp(struct ibe_engine *e, struct eng_qp *q);
/* What holds the requester back: RRC_RNR_WAIT, RRC_BAD_PENDING. */
enum { RRC_RNR_WAIT = 1, RRC_BAD_PENDING = 2 };
static inline unsigned rrc_holds(struct ibe_engine *e, struct eng_qp *q);
void rrc_flush_sq(struct ibe_engine *e, struct eng_qp *q);
void rrc_try_bad(struct ibe_engine *e, struct eng_qp *q);
/* scatter_mgr.c */
static inline int sem_cmd(struct ibe_engine *e, const struct rec_sem *cmd, struct rec_sem *resp);
/* exec_engine.c */
static inline void ee_request(struct ibe_engine *e, const uint8_t *payload,
                              uint32_t len);
/* rqwqe_mgr.c */
static inline int rqm_cmd(struct ibe_engine *e, const struct rec_rq *cmd, struct rec_rq *resp);
/* The QP went to Error: forget the loaded WQE and the fetch window (the
 * RQWQEManager's reset input). */
static inline void rqm_reset(struct ibe_engine *e, struct eng_qp *q);
/* Receive WQEs posted and not retired (the AETH credit count). */
static inline uint32_t rqm_posted(struct ibe_engine *e, struct eng_qp *q);
/* Retire the oldest posted receive WQE unused (the QP-error flush): its
 * index in the ring's count, or -1 when none is posted. */
static inline int64_t rqm_retire_posted(struct ibe_engine *e, struct eng_qp *q);
/* exec_engine.c: the QP went to Error: forget the entry and the message
 * in progress (the ExecutionEngine's reset input). */
static inline void ee_reset(struct ibe_engine *e, struct eng_qp *q);
/* write_addr_table.c */
static inline void wat_write(struct ibe_engine *e, uint32_t qpn, uint32_t rkey, uint64_t va);
static inline void wat_read(struct ibe_engine *e, uint32_t qpn, uint32_t *rkey, uint64_t *va);
/* resp_pktgen.c */
static inline void resppkt_send(struct ibe_engine *e, const struct rec_resp *r,
                  const uint8_t *payload);
/* hostfmt.c: WQE / CQE bytes through include/ibwire/host.h */
int hf_build_send_wqe(uint8_t type, uint8_t *slot, const struct ibe_send_wr *wr,
                      const uint8_t *inl, uint32_t inl_len, struct rec_db *db);
void hf_link(uint8_t *prev, const struct rec_db *db, uint32_t offset);
int hf_read_send_wqe(const uint8_t *slot, size_t len, uint8_t type,
                     uint8_t opcode, uint8_t size, uint8_t fence,
                     struct rec_md *md, uint32_t *remote_qpn, uint32_t *remote_qkey);
int hf_write_recv_wqe(uint8_t *slot, const struct ibe_recv_wr *wr);
int hf_split_recv_wqe(const uint8_t *win, size_t len, uint8_t type,
                      struct ibe_sge *sg, uint8_t *n);
void hf_write_cqe(uint8_t *cqe, const struct ibe_wc *wc, uint32_t wqe_offset,
                  uint8_t bth_or_wqe_opcode);
void hf_cqe_give_to_hw(uint8_t *cqe);
/* 1 and *wc filled when software owns the CQE, 0 when hardware does. */
int hf_read_cqe(const uint8_t *cqe, struct ibe_wc *wc, uint32_t *wqe_offset);

#include "ports.h"

#endif
