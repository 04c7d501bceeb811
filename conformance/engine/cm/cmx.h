/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmx.h - the communication controller of the UESTC thesis (2017): the CM
 * client and server state machines (fig. 4-2, 4-3), the connection table, the
 * timeout-and-retry unit (§4.1.4, eq. 3-1 ... 3-5), the HCR register model
 * with the QP state machine (fig. 2-3), GMP transport over QP1 (fig. 4-15,
 * 4-16, 4-19) and the arbitration of §4.3.1.3.
 *
 * Layer 1 (this header, cm_agent.c, hcr_model.c, gmp.c) knows nothing of the
 * reference engine: the agent sends MADs through a callback, runs QP
 * commands through a callback and is given the time with every call.
 * Layer 2 (cm_sim.c) binds it to the engine.
 */
#ifndef IBW_CMX_H
#define IBW_CMX_H

#include <stddef.h>
#include <stdint.h>

#include <ibwire/cm.h>
#include <ibwire/host.h>

/* ---- the HCR mailbox: QP attributes learnt from the REQ/REP ------------ */
/* An ibwire-defined layout (the thesis gives none): what the modify-QP
 * commands need, in big-endian words like the rest of the HCR interface. */
#define CMX_MBOX_FIELDS(X, c)                                                  \
    X(c, transport, 0, 0, 8, U8, "transport: 0 RC, 1 UC, 3 UD")                \
    X(c, pmtu, 1, 0, 8, U8, "path MTU code 1 (256) ... 5 (4096)")              \
    X(c, retry_cnt, 2, 0, 3, U8, "transport retry count")                      \
    X(c, rnr_retry, 2, 3, 3, U8, "RNR retry count")                            \
    X(c, ack_timeout, 3, 0, 5, U8, "local ACK timeout code")                   \
    X(c, min_rnr_timer, 3, 5, 3, U8, "RNR NAK timer code (low 3 bits)")        \
    X(c, remote_qpn, 4, 0, 24, U32, "remote QPN (REQ/REP LocalQPN)")           \
    X(c, resp_res, 7, 0, 8, U8, "responder resources")                         \
    X(c, sq_psn, 8, 0, 24, U32, "first PSN this side sends")                   \
    X(c, init_depth, 11, 0, 8, U8, "initiator depth")                          \
    X(c, rq_psn, 12, 0, 24, U32, "first PSN this side expects")                \
    X(c, qkey, 16, 0, 32, U32, "Q_Key")                                        \
    X(c, pkey, 20, 0, 16, U16, "partition key")                                \
    X(c, dlid, 22, 0, 16, U16, "remote port LID")
IBW_WIRE_FORMAT(cmx_mbox, CMX_MBOX_FIELDS, 24, "cmx_mbox", "-",
                "HCR modify-QP mailbox (QP attributes from REQ/REP)",
                "ibwire CM model (cm/cmx.h)", "ibwire-defined")

/* ---- HCR register model + QP state machine ----------------------------- */
#define CMX_HCR_MAX_QP 4096u
#define CMX_HCR_MBOX_ADDR 0x10000000ull  /* where the mailbox lies */

/* Called when a command moved a QP (engine binding); non-zero fails it. */
typedef int (*cmx_hcr_apply_fn)(void *ctx, uint32_t qpn, unsigned from,
                                unsigned to, const struct cmx_mbox *mb);

struct cmx_hcr {
    uint8_t regs[28];           /* host-visible: seven big-endian words */
    uint8_t toggle;             /* the driver's T bit for the next command */
    uint8_t pending;            /* go was written, not yet executed */
    uint8_t mbox[cmx_mbox_SIZE];
    uint8_t qp_state[CMX_HCR_MAX_QP]; /* enum ibw_hcr_qp_state */
    uint8_t qp_valid[CMX_HCR_MAX_QP];
    struct cmx_mbox qp_attr[CMX_HCR_MAX_QP];
    cmx_hcr_apply_fn apply;
    void *apply_ctx;
    uint64_t commands, failures;
};

void cmx_hcr_init(struct cmx_hcr *h, cmx_hcr_apply_fn apply, void *ctx);
/* Make a QP known to the device, in RESET. */
void cmx_hcr_add_qp(struct cmx_hcr *h, uint32_t qpn);
/* Host-visible register access (offset 0x00 ... 0x18, 4-byte aligned).
 * Writing 0x18 with go = 1 hands the command to the device. */
uint32_t cmx_hcr_read32(const struct cmx_hcr *h, unsigned off);
void cmx_hcr_write32(struct cmx_hcr *h, unsigned off, uint32_t v);
/* The device executes the pending command (clears go, writes status). */
void cmx_hcr_device_step(struct cmx_hcr *h);
/* Driver: wait until free, write the mailbox and the HCR words, ring go,
 * let the device run, poll go and return the status (enum ibw_hcr_status). */
int cmx_hcr_modify_qp(struct cmx_hcr *h, uint16_t opcode, uint32_t qpn,
                      const struct cmx_mbox *mb);
/* QP state as the device holds it; -1 for an unknown QP. */
int cmx_hcr_qp_state(const struct cmx_hcr *h, uint32_t qpn);

/* ---- GMP over QP1 ------------------------------------------------------- */
#define CMX_GMP_SQ 16u
#define CMX_GMP_CQ 32u
#define CMX_GMP_BUF_ADDR 0x20000000ull /* host address of MAD buffer 0 */

struct cmx_gmp_port {
    uint8_t roce;               /* 1: RoCEv2/IPv4, 0: native IB (LRH) */
    uint32_t ipv4, peer_ipv4;
    uint8_t mac[6], peer_mac[6];
    uint16_t lid, peer_lid;
    uint8_t sq[CMX_GMP_SQ][32]; /* GMP send WQEs, fig. 4-15/4-16 */
    uint8_t buf[CMX_GMP_SQ][IBW_MAD_SIZE];
    uint32_t sq_pi, sq_ci;      /* driver produces, device consumes */
    uint8_t cq[CMX_GMP_CQ][32]; /* CQEs, fig. 4-19 */
    uint32_t cq_pi, cq_ci;
    uint32_t doorbell;          /* last UAR send doorbell word */
    uint64_t sent, received, dropped_bad;
};

void cmx_gmp_init(struct cmx_gmp_port *p, int roce, uint32_t ipv4,
                  uint32_t peer_ipv4, uint16_t lid, uint16_t peer_lid);
/* Driver: queue a 256-byte MAD for QP1 (WQE + doorbell).  -1 when full. */
int cmx_gmp_post(struct cmx_gmp_port *p, const uint8_t *mad);
/* Device: send the next posted WQE as a UD SEND ONLY frame to QP1 with the
 * GSI Q_Key, write its CQE.  Frame length, 0 when nothing is posted, -1 on
 * a malformed WQE. */
int cmx_gmp_transmit(struct cmx_gmp_port *p, uint8_t *frame, size_t cap);
/* Device: accept a received frame for QP1: the MAD to mad[256] and a
 * receive CQE.  0 when taken, an ibw_err when not a valid GMP. */
int cmx_gmp_receive(struct cmx_gmp_port *p, const uint8_t *frame, size_t len,
                    uint8_t *mad);
/* Driver: next completion; 1 when one was read, 0 when none. */
int cmx_gmp_poll(struct cmx_gmp_port *p, struct ibw_wc *wc);

/* ---- arbitration of §4.3.1.3 -------------------------------------------- */
#define CMX_ARB_MAX 64u
struct cmx_arb {
    struct { uint32_t qpn; uint64_t seq; uint64_t token; } req[CMX_ARB_MAX];
    unsigned n;
    uint64_t seq;
    int busy;
};
void cmx_arb_init(struct cmx_arb *a);
/* Queue a request; -1 when full. */
int cmx_arb_request(struct cmx_arb *a, uint32_t qpn, uint64_t token);
/* Grant the next request when idle: QP0, then QP1, then the oldest other.
 * 1 with qpn and token set, 0 when busy or nothing is waiting. */
int cmx_arb_grant(struct cmx_arb *a, uint32_t *qpn, uint64_t *token);
/* The granted service has finished: the next grant may happen. */
void cmx_arb_done(struct cmx_arb *a);

/* ---- the CM agent ------------------------------------------------------- */
enum cmx_state {
    CMX_IDLE, CMX_REQ_SENT, CMX_PEER_COMPARE, CMX_REP_RCVD, CMX_REJ_RETRY,
    CMX_ESTABLISHED, CMX_DCONN_PRO, CMX_DREQ_SENT, CMX_DREQ_RCVD,
    CMX_LISTEN, CMX_REQ_RCVD, CMX_REJ_SENT, CMX_REP_SENT, CMX_DREP_RCVD
};

enum cmx_role { CMX_CLIENT = 0, CMX_SERVER = 1 };
enum cmx_event_type {
    CMX_EV_ESTABLISHED, CMX_EV_FAILED, CMX_EV_REJECTED, CMX_EV_DISCONNECTED,
    CMX_EV_STALE, CMX_EV_ROLE_SWITCH, CMX_EV_QP_CMD_FAILED
};
struct cmx_event {
    uint8_t type;          /* enum cmx_event_type */
    uint8_t role;          /* role of the entry when it happened */
    uint32_t conn;         /* connection handle */
    uint32_t qpn, remote_qpn;
    uint16_t reason;       /* REJ reason (FAILED: IBW_CM_REJ_TIMEOUT too) */
    const uint8_t *private_data; /* REQ/REP private data, when present */
    size_t private_len;
};

struct cmx_accept {
    uint32_t qpn;          /* local QP for the connection */
    uint32_t start_psn;    /* the REP's: the first PSN this side receives */
    uint8_t private_data[196];
    size_t private_len;
};
#define CMX_ACCEPT 0
#define CMX_DEFER (-1)     /* send MRA(REQ), answer later with cmx_accept();
                              a qpn given now goes to INIT at once */

struct cmx_ops {
    void *ctx;
    void (*send_mad)(void *ctx, const uint8_t *mad);
    /* Run a modify-QP command; returns the HCR status (0 = OK). */
    int (*qp_cmd)(void *ctx, uint16_t opcode, uint32_t qpn,
                  const struct cmx_mbox *mb);
    /* A REQ for a listened service: CMX_ACCEPT (fill *acc), CMX_DEFER or a
     * REJ reason (> 0). */
    int (*on_req)(void *ctx, uint32_t conn, const struct ibw_cm_req *req,
                  struct cmx_accept *acc);
    void (*on_event)(void *ctx, const struct cmx_event *ev);
};

struct cmx_config {
    uint64_t guid;
    uint16_t lid;
    uint32_t comm_id_base;  /* first local communication ID */
    uint8_t resp_timeout;   /* CM response timeout code put in REQ/REP */
    uint8_t service_timeout;/* code sent in MRA */
    uint8_t max_cm_retries; /* 0..15 */
    uint64_t t_max_ns;      /* largest transit time of a MAD */
    uint32_t max_conns;
};

struct cmx_connect {
    uint64_t service_id;
    uint32_t qpn;
    uint32_t start_psn;     /* the REQ's: the first PSN this side receives */
    uint8_t pmtu;           /* code 1..5 */
    uint8_t retry_cnt, rnr_retry;
    uint8_t peer;           /* peer-to-peer: a crossing REQ is compared */
    const uint8_t *private_data;
    size_t private_len;     /* <= 92 */
};

#define CMX_PATH_MAX 48
struct cmx_conn {
    uint8_t used, role, state, peer;
    uint8_t retries, max_retries;
    uint8_t deferred;
    uint8_t qp_in_init;           /* deferred REQ: its QP went to INIT */
    uint8_t npath;
    uint8_t path[CMX_PATH_MAX];   /* states visited, for tests and traces */
    uint32_t local_comm_id, remote_comm_id;
    uint32_t qpn, remote_qpn;
    uint32_t start_psn;           /* ours: the first PSN we receive */
    uint32_t remote_psn;          /* theirs: the first PSN we send */
    uint64_t remote_guid, service_id, tid;
    uint64_t deadline;            /* 0: no timer running */
    uint64_t wait_ns;             /* the wait the timer was started with */
    uint8_t pmtu, retry_cnt, rnr_retry, remote_resp_timeout;
    uint16_t remote_lid;
    uint8_t last_mad[IBW_MAD_SIZE]; /* what a retry sends again */
    uint8_t private_in[196];
    size_t private_in_len;
};

struct cmx_stats {
    uint64_t established, failed, retries, mra_sent, mra_rcvd, rej_sent,
        rej_rcvd, disconnects, stale, mads_sent, mads_rcvd, dup_rcvd,
        role_switches, qp_cmds;
};

struct cmx_agent;
struct cmx_agent *cmx_agent_create(const struct cmx_config *cfg,
                                   const struct cmx_ops *ops);
void cmx_agent_destroy(struct cmx_agent *a);
int cmx_listen(struct cmx_agent *a, uint64_t service_id);
/* Start a connection (client).  Returns the handle, or -1. */
int cmx_connect(struct cmx_agent *a, uint64_t now, const struct cmx_connect *c);
/* Answer a deferred REQ (after CMX_DEFER). */
int cmx_accept(struct cmx_agent *a, uint64_t now, uint32_t conn,
               const struct cmx_accept *acc);
/* Tear an established connection down (DREQ), from either side. */
int cmx_disconnect(struct cmx_agent *a, uint64_t now, uint32_t conn);
/* A MAD arrived from the peer. */
void cmx_receive(struct cmx_agent *a, uint64_t now, const uint8_t *mad,
                 size_t len);
/* A packet arrived on a passive QP still waiting for RTU (IBA's
 * communication-established event): treated as the RTU. */
void cmx_comm_established(struct cmx_agent *a, uint64_t now, uint32_t qpn);
/* Fire the timers due at `now`. */
void cmx_tick(struct cmx_agent *a, uint64_t now);
/* Earliest running timer, UINT64_MAX when none. */
uint64_t cmx_next_deadline(const struct cmx_agent *a);
const struct cmx_conn *cmx_conn_get(const struct cmx_agent *a, uint32_t conn);
/* Handle of the live connection on a local QP, or -1. */
int cmx_conn_by_qpn(const struct cmx_agent *a, uint32_t qpn);
const struct cmx_stats *cmx_agent_stats(const struct cmx_agent *a);
uint32_t cmx_agent_live(const struct cmx_agent *a);

#endif
