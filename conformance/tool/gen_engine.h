/* SPDX-License-Identifier: Apache-2.0 */
/* gen_engine.h - the reference-engine harness of `ibwire gen` (gen_engine.c),
 * shared with the families that run the engines under other capture points
 * (gen_vantage.c).  Engine A is the requester, engine B the responder, one
 * lossless link with fixed latency and chosen packets lost. */
#ifndef IBWIRE_TOOL_GEN_ENGINE_H
#define IBWIRE_TOOL_GEN_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "gen.h"

#define GE_MAXDROP 4

struct ge;

/* Where a recorded frame goes instead of the capture file, when set: the
 * frame as the capture point sees it, its time and its direction (to_b: a
 * request from A to B). */
typedef void (*ge_tap_fn)(struct ge *g, uint64_t ts_ns, int to_b,
                          const uint8_t *frame, size_t len);

struct ge {
    struct gen_out *o;
    struct ibe_world *w;
    struct ibe_engine *a, *b;
    uint8_t framing;     /* the engines' */
    int rocev1;          /* write IB-framed packets as RoCEv1 */
    int at_requester;    /* capture point at A's port instead of B's */
    ge_tap_fn tap;       /* NULL: frames go to o->w */
    void *tap_ctx;
    uint32_t qa, qb, cqa, cqb;  /* the QP pair ge_op and ge_post_recv use */
    uint64_t abuf, bbuf, batom, brecv;
    uint32_t alkey, blkey, brkey, binv_rkey;
    uint32_t pmtu;
    uint64_t nreq, nresp;                 /* packets sent so far */
    /* 1-based numbers of the request/response packets the link loses: a
     * request before the capture point at B (after it at A), a response
     * after the capture point at either port */
    uint64_t drop_req[GE_MAXDROP], drop_resp[GE_MAXDROP];
    uint32_t recvs_posted;
    uint8_t ack_timeout; /* local ACK timeout code of the QPs ge_qp_pair
                            connects; 0: 8 (1 ms), ge_setup's pair's */
};

/* Two engines, one connected QP each (first PSNs 0x00F000 from A,
 * 0x00A000 from B); recvs receive WQEs posted at B. */
void ge_setup(struct ge *g, struct gen_out *o, uint8_t type, uint8_t framing,
              uint32_t recvs);

/* Another connected QP pair of the given type with the given first PSNs;
 * its QPNs in *qa (at A) and *qb (at B). */
void ge_qp_pair(struct ge *g, uint8_t type, uint32_t psn_a, uint32_t psn_b,
                uint32_t *qa, uint32_t *qb);

/* One receive WQE at B's QP g->qb. */
void ge_post_recv(struct ge *g);

/* Post one WR (IBE_WR_*) of len bytes at offset off from A's g->qa. */
void ge_op(struct ge *g, uint8_t op, uint32_t len, uint32_t off);

/* Run the world until it has settled, and drain the CQs. */
void ge_settle(struct ge *g);

/* Every RC operation, single- and multi-packet, one at a time, ending with
 * a Send with Invalidate (the engine-rc-ops traffic). */
void ge_rc_ops(struct ge *g);

/* Run out the timers, free everything. */
void ge_done(struct ge *g);

#endif
