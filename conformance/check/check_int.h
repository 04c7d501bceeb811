/* SPDX-License-Identifier: Apache-2.0 */
/* check_int.h - what the checker's files share (not for users).
 *
 * The files call downwards only (conformance/tests/lint checks it): each
 * calls only files after it in
 *   check_parallel.c, check.c (entry: options, frames, finish),
 *   check_order.c (frames judged in timestamp order, each dispatched),
 *   check_pkt.c, check_expire.c, check_cm.c, check_flow.c (a flow's state
 *   and the dispatch of its packets), check_a17.c, the flow rule families
 *   that read that state (check_msn.c, check_retrans.c, check_respond.c),
 *   check_l2.c (capture points that rewrite the Ethernet header),
 *   check_table.c, check_report.c, check_addr.c, rules.c
 * and replay.c (the reference responder) only check_table.c,
 * check_report.c and check_addr.c.  The flow table, the reporting and the
 * addresses, at the bottom, call none of the others (rules.c aside). */
#ifndef IBWIRE_CHECK_INT_H
#define IBWIRE_CHECK_INT_H

#include <stdarg.h>
#include <string.h>

#include "check.h"

#define CHK_PSN_MASK 0xFFFFFFu
/* How far past the CM's starting PSN a flow's first recorded request may be
 * and still wait for the requests before it (the network reordered them):
 * the flow is then tracked from the starting PSN. */
#define CHK_CM_AHEAD 4096
#define CHK_HIST 256u      /* per-flow history of request PSNs (power of 2) */
#define CHK_HIST_SMALL 16u /* ... held in the flow until a 17th is needed */
#define CHK_OUTSTANDING 256 /* per-flow READ/atomic requests remembered: the
                              CM initiator depth is 8 bits (rxe allows 128) */
#define CHK_OUT_SMALL 4    /* ... held in the flow until a 5th is needed */
#define CHK_GAPS 16        /* per-flow PSN gaps remembered individually */
#define CHK_SEEN 32        /* per-flow PSN ranges seen resent or corrupted */
#define CHK_CORRUPT 16     /* frames with a bad CRC remembered */
#define CHK_HELD_MAX 64    /* responses a flow holds for their requests */
#define CHK_AHEAD 4096     /* how far past the requests seen a response may
                              be and still be waited for (PSNs) */
#define CHK_CUT_LENGTHS 8  /* unrecorded cut lengths tracked */
#define CHK_CUT_PATTERN 4  /* frames ending at one length short of their
                              length fields that make it a snap length */
#define CHK_PAIR_SCAN 8    /* request flows waiting in an endpoint pair that
                              a scan finds faster than the PSN index */
#define CHK_PAIR_INDEXED 8 /* request PSNs of a flow not paired yet that
                              the pairing index holds */
#define CHK_EXPIRE_STEP_NS 1000000u /* how often (capture time) idle flows
                                       are looked for */
#define CHK_MSN_WAIT 8      /* responses whose MSN waits for the requests
                              the skew window may still show (FLOW-MSN) */
#define CHK_CRC_PATTERN 4  /* IBA frames, none with a good CRC, that make the
                              capture one without wire CRCs */

/* A bad-CRC finding held until the capture shows it keeps wire CRCs. */
struct chk_crc_held {
    uint64_t frame;
    unsigned rule;
    char msg[384];
};

/* A frame with a bad CRC that came before any frame showed whether the
 * capture keeps the wire CRCs: a copy, judged when that is known. */
struct chk_crc_wait {
    uint64_t frame, ts_ns;
    uint8_t *bytes;
    uint32_t len, caplen;
    uint8_t link, truncated;
};

/* 24-bit PSN difference a - b as a signed number in [-2^23, 2^23). */
static inline int32_t chk_psn_diff(uint32_t a, uint32_t b)
{
    uint32_t d = (a - b) & CHK_PSN_MASK;
    return d & 0x800000u ? (int32_t)d - 0x1000000 : (int32_t)d;
}

static inline uint32_t chk_psn_add(uint32_t a, uint32_t n)
{
    return (a + n) & CHK_PSN_MASK;
}

/* Same endpoint address? */
static inline int chk_addr_eq(const struct chk_addr *a, const struct chk_addr *b)
{
    return a->kind == b->kind && !memcmp(a->a, b->a, sizeof a->a);
}

/* chk_hist.flags */
enum {
    CHK_HIST_DIGEST = 1,  /* digest covers the whole request (not cut) */
    CHK_HIST_WF = 2,      /* an RDMA WRITE MIDDLE/LAST continuing a FIRST the
                             capture saw, of the lengths it must have: the
                             responder has no cause to call it invalid */
    CHK_HIST_BAD = 4,     /* a request the responder must reject (C9-92,
                             C9-94, 9.4: see FLOW-INVALID-ACCEPTED) */
    CHK_HIST_ZERO = 8     /* an RDMA READ or WRITE ONLY of DMA length 0 */
};

/* What a packet was, per PSN, when first sent. */
struct chk_hist {
    uint32_t psn;
    uint8_t opcode;
    uint8_t valid;
    uint16_t paylen;
    uint32_t msgs;      /* messages completed by the requests seen up to and
                           including this one (chk_flow.msgs_done after it) */
    uint32_t hdr_digest; /* of its extension headers after the BTH ... */
    uint32_t digest;    /* ... and of its payload (both: CHK_HIST_DIGEST) */
    uint8_t flags;      /* CHK_HIST_* */
    uint64_t judged;    /* frames judged when its last copy was (order of
                           judging, not frame numbers) */
    uint64_t copy_ts;   /* ... and that copy's time */
};

/* A response's MSN judged once the skew window after it has passed: the
 * requests recorded until then may have reached the responder before it
 * was sent (check_msn.c). */
struct chk_msn_wait {
    uint64_t due, frame;
    uint32_t r, msn, lo;
};

/* A READ or atomic request (an original or a re-issue) and its span. */
struct chk_outst {
    uint32_t psn;
    uint32_t span;      /* PSNs consumed; 0 = not known yet (PMTU unknown) */
    uint32_t span_max;  /* span not known: at most this many (0 = the
                           largest a READ of len can take, at PMTU 256) */
    uint32_t len;       /* READ: DMA length */
    uint8_t kind;       /* IBW_OPK_READ or IBW_OPK_ATOMIC */
    uint8_t answered;
    uint8_t resp_seen;  /* READ: a response of it was recorded */
    uint8_t reissued;   /* READ: requested again (its responses replayed
                           carry the responder's MSN of then) */
    uint8_t have_va;    /* READ: va and rkey known (an original with RETH) */
    uint8_t have_orig;  /* atomic: an ATOMIC ACKNOWLEDGE answered it */
    uint8_t next_inside; /* READ: the READ after it (the next entry) lies
                           inside the span it may take, and its span is not
                           known yet: that READ may be its re-issue
                           (FLOW-MSN, check_msn.c) */
    uint32_t msgs;      /* messages completed with it (it counts: C9-148) */
    uint32_t rkey;
    uint64_t va;
    uint64_t orig;      /* ... the original remote data it returned */
};

/* Request PSNs [lo, hi) the capture did not see, and what explains them. */
struct chk_gap {
    uint32_t lo, hi;
    uint64_t frame;     /* where the gap showed */
    uint8_t resent;     /* a PSN of it was sent again: network loss */
    uint8_t naked;      /* a NAK named a PSN of it */
    uint8_t acked;      /* the responder is known to have received all of it
                           (a NAK named the PSN after it) */
};

/* Request PSNs [lo, hi) the capture saw sent although not as a new request
 * in sequence: a resend round (or READ re-issue) covered them, or a frame
 * with a bad CRC carried them (its receiver dropped it: network loss). */
struct chk_seen {
    uint32_t lo, hi;
    uint8_t corrupt;    /* 0: seen resent; 1: seen with a bad CRC (any
                           span: it may have been a READ) */
};

/* A frame with a bad CRC: any of its fields may be the one hit, so it is
 * placed by where it was recorded, between its endpoints. */
struct chk_corrupt {
    uint64_t frame;
    struct chk_addr src, dst;
};

/* A response held until its request is seen (one direction recorded late)
 * or until it can be paired with a request flow: a copy of the frame. */
struct chk_held {
    uint64_t frame, ts_ns;
    uint8_t *bytes;
    uint32_t len;
    uint8_t link, truncated;
};

/* The request flows from one endpoint to another still waiting for their
 * responses to be paired, and the response streams waiting for a flow. */
struct chk_pair {
    struct chk_addr a, b;   /* requests a -> b, responses b -> a */
    uint32_t *req;          /* flow indices: unbound request flows a -> b */
    uint32_t nreq, capreq;
    uint32_t *resp;         /* flow indices: unpaired response streams */
    uint32_t nresp, capresp;
    uint8_t indexed;        /* the PSN index is in use for its flows (once
                               more than CHK_PAIR_SCAN wait at once) */
};

/* RoCEv2 header fields that stay fixed per direction of a connection
 * (check_a17.c): what the direction's first packet carried. */
struct chk_a17_dir {
    uint16_t sport;         /* UDP source port */
    uint8_t have;           /* a RoCEv2 packet of the direction was seen */
    uint8_t dscp, ttl;
    uint8_t ecn;            /* bit 0: Not-ECT seen, bit 1: ECT or CE seen;
                               bits 2, 3: the same of acknowledgements */
    uint8_t said;           /* rules said on it: CHK_A17_SAID_* bits */
};

enum chk_msg_state {
    CHK_MSG_NONE = 0,   /* between messages */
    CHK_MSG_SEND,       /* a SEND message is open */
    CHK_MSG_WRITE,      /* an RDMA WRITE message is open */
    CHK_MSG_UNKNOWN     /* after a gap/start/retransmit: accept anything */
};

enum chk_pending { CHK_PEND_NONE = 0, CHK_PEND_NAK_SEQ, CHK_PEND_RNR };

struct chk_flow {
    /* What a flow's end and the per-frame bookkeeping read, together at
     * the front: a flow ends long after its last frame, when the rest of
     * it has left the caches. */
    uint64_t last_ts;       /* capture time of its last frame */
    uint64_t close_at;      /* closing: it ends at this capture time */
    uint32_t lru_prev, lru_next; /* flow index + 1 in the live (or closing)
                                    list, oldest first; lru_next chains the
                                    free slots of a flow that ended */
    uint32_t key_qpn;       /* the QPN of its request key (a response
                               stream's is marked, see flow_for_response) */
    uint32_t pair;          /* endpoint-pair record index + 1, 0 none */
    uint8_t live;
    uint8_t closing;        /* in the closing list, not the live one */
    uint8_t dead;           /* an unpaired stream merged into its flow */
    uint8_t pend_back;      /* the NAK pending was recorded after the last
                               round, which may have followed it still */
    uint8_t gbn_stop;       /* the suspect is a resend round that stopped
                               short: judged only if a NAK names its gap */
    uint8_t gbn_suspect;    /* enum chk_pending of a resend round that began
                               after the NAK's PSN, not settled yet */
    uint8_t noted;          /* something for its end notes besides gaps
                               (gap overflow, responses to unseen requests,
                               skew): most flows have nothing to note */
    unsigned ngaps;
    unsigned nheld, capheld;
    struct chk_held *held;  /* responses held for their requests */
    struct chk_hist *hist_big;          /* CHK_HIST entries, or NULL */
    struct chk_outst *out_big;          /* CHK_OUTSTANDING entries, or NULL */
    struct chk_flow_summary s;
    /* check_a17.c: requests [0] and responses [1]; and the per-packet
     * rules already said on the flow (said once per flow and kind) */
    struct chk_a17_dir a17[2];
    uint8_t pkt_said[(CHK_RULE_COUNT + 7) / 8];
    uint8_t tr;             /* enum ibw_transport */
    uint8_t tr_known;       /* tr set: by the first packet or by CM's REQ */
    uint16_t pkey;
    uint16_t resp_pkey;
    uint8_t have_pkey, have_resp_pkey;
    /* requests */
    uint8_t have_psn;
    uint32_t next_psn;      /* the next new PSN expected */
    uint32_t first_psn;     /* first request PSN seen */
    uint8_t msg;            /* enum chk_msg_state */
    uint8_t in_retrans;
    uint8_t span_unknown;   /* last READ's span not known: PSN may jump */
    uint32_t span_max;      /* ... by at most this many */
    uint8_t cm_psn_pending; /* CM gave a starting PSN to check */
    uint32_t cm_start_psn;  /* the side's own starting PSN */
    uint32_t cm_alt_psn;    /* the peer's (IPoIB-CM starts there) */
    uint64_t nak_judged;    /* frames judged at the last PSN sequence NAK */
    uint64_t nak_ts;        /* ... and its time */
    uint8_t cm_psn_ahead;   /* the first request came after the CM's
                               starting PSN: open until a request at it */
    uint32_t cm_ahead_psn;  /* ... that first request's PSN and frame */
    uint64_t cm_ahead_frame;
    uint64_t msgs_done;     /* messages completed by requests seen */
    uint8_t wr_open;        /* an RDMA WRITE's FIRST seen, its LAST not yet */
    uint32_t wr_len;        /* ... its RETH DMA Length */
    uint64_t wr_bytes;      /* ... payload bytes of its packets so far */
    /* Most flows are short: their history and READ/atomic requests fit in
     * the flow; a longer one moves them to the heap (hist_big, out_big)
     * with the full sizes, so it remembers exactly as much either way and
     * a new flow costs little to set up. */
    struct chk_hist hist_small[CHK_HIST_SMALL];
    unsigned nout, out_head;
    /* responses */
    uint8_t have_ack;
    uint32_t last_ack;      /* highest PSN acknowledged */
    uint8_t have_ack_msn;
    uint32_t last_ack_msn;  /* the highest MSN a response acknowledging up to
                               last_ack carried (FLOW-NAK-PSN: a NAK with an
                               older MSN was sent before it) */
    uint8_t have_resp_msn, resp_msn_back;
    uint32_t resp_msn_max;  /* the highest AETH MSN seen; resp_msn_back: a
                               response with a lower one came after it, so
                               the path reorders this flow's responses */
    uint8_t have_msn;
    uint32_t msn;
    uint32_t msn_first;     /* the first MSN seen */
    uint8_t msn_arc;        /* FLOW-MSN (check_msn.c): the responses so far
                               bound the responder's MSN offset (its MSN
                               minus the messages the requests seen
                               complete) to the arc of 24-bit values */
    uint32_t msn_arc_lo, msn_arc_w; /* ... [lo, lo + w] */
    uint8_t msn_inexact;    /* a READ that may have been a re-issue was
                               counted as a new message: counts uncertain */
    unsigned nmsn_doubt;    /* ... not known yet: READs of the ring with
                               next_inside set */
    uint8_t nmsn_wait;      /* msn_wait entries in use */
    uint8_t have_bad;       /* FLOW-INVALID-ACCEPTED: a request the
                               responder must reject is not answered yet: */
    uint8_t bad_why;        /* ... why (check_respond.c) */
    uint32_t bad_psn;       /* ... its PSN */
    uint8_t rr_open;        /* FLOW-MSN: a READ RESPONSE FIRST, the
                               responses after it in a row: */
    uint32_t rr_next, rr_msn, rr_first; /* ... next PSN, its MSN, its PSN */
    uint64_t rr_frame, rr_ts; /* ... its frame and capture time */
    uint8_t rr_pend;        /* a LAST whose MSN is not its FIRST's waits
                               out the skew window for a resend: */
    uint32_t rr_p_psn, rr_p_msn, rr_p_first, rr_p_fmsn;
    uint32_t rr_p_read;     /* ... the PSN of its READ request */
    uint8_t rr_p_noreq;     /* ... that request not in the capture */
    uint64_t rr_p_frame, rr_p_fframe, rr_p_due;
    uint64_t rr_said;       /* frame of the last READ RESPONSE LAST it
                               reported (the MSN arc leaves it unsaid) */
    uint64_t retx_ts;       /* capture time of the last request resent */
    uint8_t have_retx;
    uint8_t mig_seen;       /* FLOW-MIGREQ: BTH MigReq values seen, bit
                               (2 * response + MigReq) */
    uint8_t read_ok;        /* a READ was answered with data: the QP allows
                               remote reads */
    uint8_t write_ok;       /* an ACK covered an RDMA WRITE: it allows
                               remote writes */
    uint8_t pending;        /* enum chk_pending */
    uint32_t pend_psn;
    uint64_t pend_ts;
    uint32_t pend_rnr_us;
    uint8_t pend_prev;      /* an RNR NAK at pend_psn came before it: */
    uint32_t pend_prev_us;  /* ... its timer and when it was recorded */
    uint64_t pend_prev_ts;
    /* capture skew: how late the responses' direction can be recorded */
    uint8_t lat_open;       /* a new request waits for a response: */
    uint8_t have_lat;
    uint32_t lat_psn;       /* ... its PSN and when it was recorded */
    uint64_t lat_ts;
    int64_t lat_min;        /* least (response - request) recorded time, ns */
    uint8_t round_open;     /* the last resend round, no NAK judged yet */
    uint64_t round_ts, round_frame;
    uint64_t round_since;   /* ... the frame of the request before it */
    uint64_t round_gap_ns;  /* ... the time since the PSN it resent from
                               was last recorded (UINT64_MAX: never seen) */
    uint8_t ar_open;        /* FLOW-ACK-READ (check_respond.c): an ACK
                               covered a READ none or not all of whose
                               responses were recorded: */
    uint8_t ar_before;      /* ... some were, before the ACK */
    uint8_t ar_after;       /* ... its responses recorded since */
    uint32_t ar_read_psn, ar_span, ar_ack_psn, ar_msn;
    uint64_t ar_frame;      /* ... the ACK's frame */
    uint8_t rj_open;        /* a resend round nothing justified yet
                               (check_resend.c): */
    uint32_t rj_psn;        /* ... the PSN it resent from, */
    uint64_t rj_ts, rj_frame, rj_gap_ns; /* ... when, and since its copy */
    uint64_t rj_quiet_ns;   /* ... and since an ACK of new PSNs, at most */
#define CHK_RJ_PROG 4
    uint64_t rj_prog[CHK_RJ_PROG]; /* the last responses acknowledging new
                               PSNs (0: none) */
    uint8_t rj_prog_next;
#define CHK_RJ_STOPS 4
    uint32_t rj_stops[CHK_RJ_STOPS]; /* where the last walks since the
                               latest NAK stopped, short of what was sent */
    uint8_t rj_nstops, rj_stop_next;
    uint64_t rj_round_ts;   /* when the last walk (a round not resuming
                               one) began */
    uint64_t rj_from_ts;    /* when the recovery's rj_recover_from was set:
                               walks begun before are a NAK's before */
    uint64_t last_req_ts, last_req_frame; /* the flow's last request */
    uint8_t rj_recovering;  /* a NAK, RNR NAK or resend round came, and the
                               responder has not yet acknowledged every PSN
                               sent by then (up to rj_recover_end) */
    uint32_t rj_recover_end;
    uint32_t rj_recover_from; /* ... the PSN it resends from: the latest
                               NAK's, else the round's that began it */
    uint64_t rj_recover_due; /* ... not before (an RNR NAK's timer), ns */
#define CHK_RJ_NAKS 4
    struct chk_rj_nak {     /* the last NAKs and RNR NAKs recorded: */
        uint32_t psn;       /* ... the PSN named, */
        uint64_t ts, due;   /* ... when (0: none), its RNR timer over at */
    } rj_naks[CHK_RJ_NAKS];
    uint8_t rj_nak_next;
    uint64_t ack_to_ns;     /* the requester's local ACK timeout, from the
                               CM REQ (client's requests only): 0 unknown,
                               UINT64_MAX none (code 0: infinite) */
    uint8_t pmtu_src;       /* enum chk_pmtu_src */
    uint8_t any_gap;        /* request PSNs were missed (or the flow started
                               mid-stream): counts from requests are lower
                               bounds only */
    uint32_t prev_psn;      /* PSN of the last request seen */
    uint32_t round_start;   /* first PSN of the current resend round */
    uint32_t prev_end;      /* PSN after the last request's (its span) */
    uint32_t gbn_e, gbn_x;  /* ... the PSN named and where the round began */
    uint64_t gbn_frame;
    /* gaps */
    uint64_t gap_overflow;  /* PSNs of gaps beyond CHK_GAPS (unexplained) */
    unsigned nseen, seen_head;
    uint64_t req_frame;     /* frame of the last request seen */
    /* responses held for their requests */
    uint64_t skew_frame;    /* first response found recorded early */
    uint64_t unsent_frame;  /* first response to an unseen request */
    uint64_t unsent_end;    /* ... of them, responses the end of the capture
                               came within the skew window after (their
                               requests may be recorded after it) */
    uint8_t at_end;         /* releasing responses at the end of the capture
                               within their skew window */
    uint64_t cut_frame;     /* first cut frame */
    uint8_t nindexed;       /* request PSNs in the pairing index */
    /* Tables read only up to their counts (ngaps, nseen, nout, nindexed):
     * last, and left out of the zeroing a new flow gets. */
    struct chk_gap gaps[CHK_GAPS];
    struct chk_outst out_small[CHK_OUT_SMALL];
    uint32_t indexed[CHK_PAIR_INDEXED];
    struct chk_seen seen[CHK_SEEN]; /* ring: the newest CHK_SEEN ranges */
    struct chk_msn_wait msn_wait[CHK_MSN_WAIT];
};

/* ---- a flow's per-PSN history and READ/atomic requests, as the rule
 * families read them (check_flow.c writes them) ---- */

static inline const struct chk_hist *chk_hist_get(const struct chk_flow *f,
                                                  uint32_t psn)
{
    const struct chk_hist *h =
        f->hist_big ? &f->hist_big[psn & (CHK_HIST - 1)]
                    : &f->hist_small[psn & (CHK_HIST_SMALL - 1)];
    return h->valid && h->psn == psn ? h : NULL;
}

/* The same, to change what a later copy of the PSN showed. */
static inline struct chk_hist *chk_hist_get_mut(struct chk_flow *f, uint32_t psn)
{
    struct chk_hist *h = f->hist_big ? &f->hist_big[psn & (CHK_HIST - 1)]
                                     : &f->hist_small[psn & (CHK_HIST_SMALL - 1)];
    return h->valid && h->psn == psn ? h : NULL;
}

/* The shortest local ACK timeout the flow's requester may use (ns): the
 * CM REQ's when the capture holds it, less 1/32, else IBA's shortest
 * nonzero one, 4.096 us x 2^1 (9.7.6.1.1; the CM field's encoding,
 * 12.7.34).  The 1/32: a requester restarts its timer when it fires and
 * only then builds and sends the resend, so the next expiry can come that
 * latency less than a whole timeout after the copy on the wire (0.6 % seen
 * from ibwire peer under ASan); a timer counting coarse ticks, one tick
 * short (4.8 % at 16.8 ms with 4 ms ticks, the ack-timer-tick fault), is
 * still early. */
#define CHK_MIN_ACK_TIMEOUT_NS 8192u
static inline uint64_t chk_ack_timeout_min(const struct chk_flow *f)
{
    return f->ack_to_ns ? f->ack_to_ns - f->ack_to_ns / 32
                        : CHK_MIN_ACK_TIMEOUT_NS;
}

static inline uint32_t chk_read_span(uint32_t len, uint32_t pmtu)
{
    if (!pmtu)
        return 0;
    return len ? (len + pmtu - 1) / pmtu : 1;
}

/* Request k (0 = oldest) of the ring of READ/atomic requests. */
static inline struct chk_outst *chk_outst_at(const struct chk_flow *f, unsigned k)
{
    unsigned cap = f->out_big ? CHK_OUTSTANDING : CHK_OUT_SMALL;
    struct chk_outst *ring =
        f->out_big ? f->out_big : (struct chk_outst *)f->out_small;
    return &ring[(f->out_head + k) % cap];
}

/* Does request o (span, or the largest it can have) cover PSN r? */
static inline int chk_outst_covers(const struct chk_outst *o, uint32_t r)
{
    int32_t off = chk_psn_diff(r, o->psn);
    uint32_t span = o->span       ? o->span
                    : o->span_max ? o->span_max
                                  : chk_read_span(o->len, 256);
    return off >= 0 && (uint32_t)off < (span ? span : 1);
}

/* The newest remembered request of `kind` covering r, or NULL. */
static inline struct chk_outst *chk_outst_find(const struct chk_flow *f,
                                               uint32_t r, unsigned kind)
{
    for (unsigned k = f->nout; k-- > 0;) {
        struct chk_outst *o = chk_outst_at(f, k);
        if (o->kind == kind && chk_outst_covers(o, r))
            return o;
    }
    return NULL;
}

/* ---- flow rule families (each reads the state check_flow.c keeps) ---- */

/* check_msn.c: FLOW-MSN for response p at PSN r carrying AETH MSN msn
 * (judged once the skew window after it has passed). */
void chk_msn_response(struct chk *c, struct chk_flow *f, const struct ibw_pkt *p,
                      uint32_t r, uint32_t msn);
/* check_msn.c: before a request is counted, judge the responses whose skew
 * window has passed; all = 1 at the flow's end. */
void chk_msn_due(struct chk *c, struct chk_flow *f, int all);
/* check_msn.c: the READ after READ o (the ring's entry k, the newest but
 * one), counted as a new message, lies inside the span o may take at the
 * smallest PMTU, so it may be o's re-issue instead. */
void chk_msn_doubt(struct chk_flow *f, struct chk_outst *o);
/* check_msn.c: READ o (the ring's entry k) ends just before PSN end (its
 * LAST response was recorded). */
void chk_msn_read_end(struct chk_flow *f, unsigned k, uint32_t end);
/* check_msn.c: READ o leaves the ring (its slot is taken). */
void chk_msn_outst_gone(struct chk_flow *f, const struct chk_outst *o);

/* check_respond.c (FLOW-ACK-READ): an ACK at PSN r with MSN msn; a READ
 * response of READ o at r (aeth NULL for a MIDDLE); a request resent at
 * psn (a READ re-issued is answered again, with replayed responses). */
void chk_ack_read_ack(struct chk_flow *f, uint32_t r, uint32_t msn,
                      uint64_t frame);
void chk_ack_read_resp(struct chk *c, struct chk_flow *f,
                       const struct chk_outst *o, uint32_t r,
                       const uint8_t *aeth);
void chk_ack_read_reissue(struct chk_flow *f, uint32_t psn);

/* check_resend.c (FLOW-RESEND-UNJUSTIFIED): a resend round from psn opens,
 * gap_ns after the PSN's copy before (UINT64_MAX: none seen) and at most
 * quiet_ns after the last response acknowledging new PSNs (UINT64_MAX:
 * none); nak_pending:
 * a NAK or RNR NAK came before it; dup_of_last: the request just before
 * was the same PSN; opcode: the resent packet's. */
void chk_resend_round(struct chk *c, struct chk_flow *f, uint32_t psn,
                      uint64_t gap_ns, uint64_t quiet_ns, int nak_pending,
                      int dup_of_last, uint8_t opcode);
/* A NAK or RNR NAK naming nak_psn recorded at ts_ns (rnr_us: an RNR
 * NAK's timer, else 0): it may have come before a round recorded up to
 * window_ns earlier that starts at nak_psn or past it; and it begins a
 * recovery (or moves the one under way) that resends from nak_psn, once
 * the timer has run. */
void chk_resend_nak(struct chk_flow *f, uint64_t ts_ns, uint64_t window_ns,
                    uint32_t nak_psn, uint32_t rnr_us);
/* A resend round stopped before PSN end (a round from before it began):
 * the requester may go on from there later in the same recovery. */
void chk_resend_stop(struct chk_flow *f, uint32_t end);
/* A response acknowledging up to PSN r: it ends the recovery under way
 * once r covers every PSN sent when it began. */
void chk_resend_acked(struct chk_flow *f, uint32_t r);
/* FLOW-GBN-QUIET, at the end of the flow or the capture: its last
 * requests were a resend round that stopped short of what was sent, and
 * nothing came from the requester since, for longer than any local ACK
 * timeout (then_ns: the capture's last time). */
void chk_resend_quiet(struct chk *c, struct chk_flow *f, uint64_t then_ns);
/* The round still open, judged once the skew window after it has passed
 * (force: now, at the end or before the next round). */
void chk_resend_due(struct chk *c, struct chk_flow *f, int force);

/* check_retrans.c: the digests of request p's extension headers and of
 * its payload; 0 when the capture cut it (no digest), else 1. */
int chk_req_digest(const struct ibw_pkt *p, uint32_t *hdr, uint32_t *payload);
/* The digests of the frame being judged, taken ahead by chk_feed's other
 * thread (check_parallel.c) with chk_req_digest() itself: while p is set,
 * chk_req_digest(p) answers from here in this thread. */
struct chk_digest_ahead {
    const struct ibw_pkt *p;
    uint32_t hdr, payload;
    int ok;
};
extern _Thread_local struct chk_digest_ahead chk_digest_ahead;
/* check_retrans.c: FLOW-RETRANS-DIFF for p, a resend of PSN psn. */
void chk_retrans_resend(struct chk *c, struct chk_flow *f, const struct ibw_pkt *p,
                        const struct ibw_opcode_info *oi, uint32_t psn);
/* check_retrans.c: FLOW-RETRANS-DIFF for READ p re-issued at psn, k PSNs
 * into the READ o it repeats the rest of (k = 0: o is itself a re-issue,
 * which the history does not hold, and p repeats it). */
void chk_retrans_read_reissue(struct chk *c, struct chk_flow *f,
                              const struct ibw_pkt *p, const struct chk_outst *o,
                              uint32_t psn, int32_t k);

/* check_respond.c: what the responder owes new request p, judged before
 * p changes the flow's message state: CHK_HIST_BAD (and the reason
 * FLOW-INVALID-ACCEPTED names when it is accepted), CHK_HIST_WF,
 * CHK_HIST_ZERO. */
uint8_t chk_request_class(const struct chk *c, struct chk_flow *f,
                          const struct ibw_pkt *p, const struct ibw_opcode_info *oi,
                          uint32_t psn);
/* check_respond.c: a copy of the request at psn recorded again: when it is
 * valid in itself, the invalid one waiting at psn is no longer judged. */
void chk_request_resent(const struct chk *c, struct chk_flow *f,
                        const struct ibw_pkt *p, const struct ibw_opcode_info *oi,
                        uint32_t psn);
/* check_respond.c: the rules on what a response answers:
 * FLOW-INVALID-ACCEPTED, FLOW-NAK-INVALID, FLOW-ZERO-LEN. */
void chk_respond_response(struct chk *c, struct chk_flow *f, const struct ibw_pkt *p,
                          const struct ibw_opcode_info *oi, uint32_t r);
/* check_respond.c: FLOW-DUP-ATOMIC for an ATOMIC ACKNOWLEDGE of o. */
void chk_dup_atomic(struct chk *c, struct chk_flow *f, const struct ibw_pkt *p,
                    struct chk_outst *o);

enum chk_pmtu_src { CHK_PMTU_NONE = 0, CHK_PMTU_OPTION, CHK_PMTU_CM, CHK_PMTU_PAYLOAD };

/* An unrecorded cut length: frames ending there, short of their length
 * fields; the first few are kept until the length proves to be a snap
 * length (or not, and they are malformed after all). */
struct chk_cutlen {
    uint32_t len;
    uint32_t count;
    uint64_t frames[CHK_CUT_PATTERN];
    char *msgs[CHK_CUT_PATTERN];
};

/* Flow-table key: (src, dst, qpn) of a request or of a response alias,
 * packed into words so that building, hashing and comparing it (several
 * times a packet) are a few word operations: w[0..1] the source address,
 * w[2..3] the destination's, w[4] both kinds, the role (1 request key,
 * 2 response alias) and the QPN. */
struct chk_key {
    uint64_t w[5];
};

struct chk_slot {
    uint32_t hash;          /* of the key: most probes end on it */
    uint32_t flow;          /* index + 1; 0 = empty slot (roles 1, 2, 3), or
                               CHK_SLOT_AMBIGUOUS (role 4) */
};

/* Key roles in the one hash table. */
enum {
    CHK_KEY_REQUEST = 1,   /* requests src -> dst:qpn: the flow */
    CHK_KEY_RESPONSE = 2,  /* responses src -> dst:qpn: the flow they answer */
    CHK_KEY_PAIR = 3,      /* endpoint pair record */
    CHK_KEY_PSN = 4,       /* pair + request PSN -> the one flow not paired
                              yet that sent it */
    CHK_KEY_CM = 5,        /* CM exchange by (client, its communication ID) */
    CHK_KEY_CM_SERVER = 6  /* ... by (server, its communication ID) */
};
#define CHK_SLOT_AMBIGUOUS 0xFFFFFFFFu

struct chk_cm;
struct chk_cm_hold;

/* A frame the reorder stage holds (check_order.c): its IBA bytes copied,
 * with the view when the caller parsed it (data moved to the copy). */
struct chk_order_frame {
    uint64_t frame, ts_ns;
    uint32_t caplen, iba_len;
    uint8_t link, truncated, has_iba, parsed;
    struct ibw_pkt pkt;
    uint8_t *bytes;         /* owned by the slot, reused */
    size_t bytes_cap;
    const uint8_t *borrowed; /* or the frame's bytes where the reader keeps
                                them (chk_order.borrow): not copied */
};

/* The reorder stage: held frames oldest first, and what
 * CAP-TS-ORDER says. */
struct chk_order {
    struct chk_order_frame *pool; /* cap frames, held or spare */
    uint32_t *ring;         /* pool indices of the held, oldest first */
    uint32_t *spare;        /* pool indices not held */
    uint32_t cap, head, n, nspare; /* cap a power of two */
    size_t bytes;           /* IBA bytes held */
    int borrow;             /* the frame being fed keeps its bytes until
                               chk_order_unborrow (chk_feed, a mapped file) */
    int in_order;           /* no frame still to be fed is stamped before
                               one fed (chk_feed_all, cap_ts_ordered) */
    uint64_t newest_ts;     /* latest timestamp fed */
    uint64_t judged_ts;     /* latest timestamp judged */
    int fed_any, judged_any;
    uint64_t late;          /* frames fed after one with a later stamp */
    uint64_t late_first;    /* the first of them */
    uint64_t late_back, late_back_frame; /* the largest step back, where */
    uint64_t late_judged;   /* of them, older than a frame already judged */
};

/* Capture points that rewrite the Ethernet source address (check_l2.c):
 * what the capture has shown so far. */
enum chk_l2_state {
    CHK_L2_UNDECIDED = 0,
    CHK_L2_DEVICE,      /* it records the devices' own addresses */
    CHK_L2_STAMPED      /* it writes a timestamp into every source address */
};
#define CHK_L2_SOURCES 8 /* endpoints whose source addresses are followed */
#define CHK_L2_PAIRS 8   /* consecutive-frame pairs of one endpoint (on two
                            endpoints at least) that decide a timestamp */
#define CHK_L2_HOLD 64   /* frames held at most while it is not decided */

/* One endpoint's last source address. */
struct chk_l2_src {
    struct chk_addr addr;
    uint64_t mac;
    uint32_t pairs;
};

struct chk_l2 {
    uint8_t state;          /* enum chk_l2_state */
    struct chk_l2_src src[CHK_L2_SOURCES];
    unsigned nsrc;
    uint32_t pairs, rising; /* consecutive frames of an endpoint: all, and
                               those whose source address grew */
    uint32_t sources;       /* endpoints with such a pair */
    uint64_t first_frame;   /* the first frame of the pattern */
    uint64_t excused, excused_zero; /* refused sources not judged */
    struct chk_order_frame *held; /* frames waiting for the decision */
    unsigned nheld, capheld, taken;
};

/* Bounds of the hold besides its window: memory stays bounded at line
 * rate (a frame pushed out by them is judged, whatever its age). */
#define CHK_REORDER_FRAMES 65536u
#define CHK_REORDER_BYTES (64u << 20)

/* CAP-MIRROR-DUP (check_mirror.c): the carried frames seen last, to know
 * a second copy of one that a mirror took on two ports. */
enum { CHK_MIRROR_RING = 16 };
struct chk_mirror {
    uint64_t hash[CHK_MIRROR_RING];
    uint64_t ts[CHK_MIRROR_RING];
    uint64_t frame[CHK_MIRROR_RING];
    uint32_t vantage[CHK_MIRROR_RING];   /* cap_frame.vantage */
    unsigned next;
    uint64_t dups, first_dup, first_of;  /* copies, the first and its twin */
    uint64_t cut, first_cut;             /* frames an ERSPAN mirror cut */
};

/* The clocks a capture's frames were stamped by (check_clock.c). */
#define CHK_CLOCKS 4
struct chk_clocks {
    unsigned n;                   /* clocks seen (0 before the first frame) */
    uint64_t last[CHK_CLOCKS];    /* each one's last time */
    int64_t offset[CHK_CLOCKS];   /* added to move it onto the first */
    uint64_t frames[CHK_CLOCKS];  /* frames after the first of each */
    uint64_t out;                 /* the last time given out */
    uint64_t first_frame;         /* where the second clock appeared */
    int64_t first_step;           /* and its step from the frame before */
};

struct chk {
    struct chk_mirror mirror;
    struct chk_clocks clocks;
    struct chk_opts o;
    struct chk_stats st;
    uint64_t frame;
    uint64_t ts_ns;
    uint32_t caplen;        /* recorded length of the frame being judged */
    struct chk_flow *flows;
    uint32_t nflows, capflows; /* slots used (live or free), allocated */
    uint32_t lru_head, lru_tail; /* live flows by last activity (index + 1) */
    const struct chk_flow *tail_flow; /* the last one touched: no need to
                                         move it (NULL after any change) */
    uint64_t expire_at;     /* capture time of the next look for idle flows */
    uint32_t free_head;     /* slots of flows that ended (index + 1) */
    uint64_t next_id;       /* summary ids: 1, 2, ... by creation */
    uint64_t ended_flows;
    struct chk_slot *slots;  /* 8 bytes a slot, so that a probe that misses
                                touches one cache line; the keys, read only
                                when the hash matches, apart in keys */
    struct chk_key *keys;
    uint32_t nslots, used;
    struct chk_pair *pairs;
    uint32_t npairs, cappairs;
    uint32_t last_pair;     /* the pair record asked for last (index + 1) */
    struct chk_cm *cm;
    uint32_t ncm, capcm;    /* slots used (live or free), allocated */
    uint32_t cm_head, cm_tail; /* live exchanges by last activity (+ 1) */
    uint32_t cm_free;       /* free slots (index + 1) */
    uint32_t close_head, close_tail; /* flows whose connection CM closed,
                                        by closing time (index + 1) */
    struct chk_cm_hold *cm_hold; /* CM messages and frames waiting for the
                                    CM message that causes them */
    struct chk_flow *cur_flow; /* flow of the packet being judged */
    struct chk_order order;    /* frames waiting to be judged in time order */
    struct chk_l2 l2;          /* does the capture keep the source MACs? */
    /* frames cut by the capture */
    uint64_t cut_recorded, cut_first_frame;
    uint32_t snap_min, snap_max;
    uint32_t max_caplen;    /* longest frame recorded */
    struct chk_cutlen cutlen[CHK_CUT_LENGTHS];
    unsigned ncutlen;
    /* CRCs: does the capture keep the ones the wire carried? */
    uint64_t crc_good, crc_bad;
    struct chk_crc_held *crc_held;
    unsigned ncrc_held, capcrc_held;
    struct chk_crc_wait crc_wait[CHK_CRC_PATTERN];
    unsigned ncrc_wait;
    uint8_t crc_nowait;     /* bad-CRC frames are judged whole at once */
    struct chk_corrupt corrupt[CHK_CORRUPT]; /* ring: the newest ones */
    unsigned ncorrupt, corrupt_head;
    int finished;
    char msg[512];
    /* Per-packet findings of the frame being judged wait here for the flow
     * it joins (check_report.c), so that each is said once per flow: */
    uint8_t defer;          /* set while a frame is judged */
    struct chk_pend *pend;
    unsigned npend, cappend;
};

/* The PMTU the flow's packets are held to (0 = not known). */
static inline uint32_t chk_flow_pmtu(const struct chk *c, const struct chk_flow *f)
{
    return c->o.pmtu ? c->o.pmtu : f->s.pmtu;
}

#define CHK_SKEW_DEFAULT_NS 1000000u

/* How long a message recorded before its cause waits for it (capture
 * time): --skew, default 1 ms. */
static inline uint64_t chk_skew_window(const struct chk *c)
{
    return c->o.skew_ns ? c->o.skew_ns : CHK_SKEW_DEFAULT_NS;
}

/* How far back the reorder stage waits for a late frame (capture time). */
static inline uint64_t chk_reorder_window(const struct chk *c)
{
    return c->o.reorder_ns ? c->o.reorder_ns : CHK_REORDER_DEFAULT_NS;
}

/* The reorder stage (check_order.c): a frame fed (iba NULL: one with no
 * IBA packet; p: its view when the caller parsed it) is held and judged in
 * timestamp order. */
void chk_order_add(struct chk *c, uint64_t frame, uint64_t ts_ns,
                   const uint8_t *iba, size_t iba_len, enum ibw_link link,
                   int truncated, uint32_t caplen, const struct ibw_pkt *p);
/* A record whose outer headers (encap.h) are in error goes through the
 * reorder stage whole, with one of these links (past enum ibw_link's
 * values): judged by chk_outer_frame() in its turn. */
enum {
    CHK_LINK_OUTER_ETHERNET = 240,
    CHK_LINK_OUTER_SLL,
    CHK_LINK_OUTER_SLL2
};
static inline int chk_link_outer(unsigned link)
{
    return link >= CHK_LINK_OUTER_ETHERNET && link <= CHK_LINK_OUTER_SLL2;
}
/* Judge such a record (check_outer.c): PKT-MALFORMED naming the outer
 * field when it was meant to carry RoCE, a cut frame when the capture cut
 * it inside an outer header, else a frame of other traffic. */
void chk_outer_frame(struct chk *c, uint64_t frame, uint64_t ts_ns,
                     const uint8_t *rec, size_t len, unsigned link,
                     int truncated, uint32_t caplen);
/* Is the frame meant to be IBA at all (check_pkt.c)? */
int chk_meant_as_iba(const struct ibw_pkt *p);
/* A frame cut short (check_pkt.c): recorded as cut (truncated), or by the
 * pattern of cut lengths a snap length or a malformed frame; msg words
 * the PKT-MALFORMED finding.  c->frame and c->caplen are the frame's. */
void chk_cut_record(struct chk *c, int truncated, const char *msg);

/* Copy the bytes of the held frames that borrow them (chk_feed, before its
 * reader's frames may go away). */
void chk_order_unborrow(struct chk *c);
/* Judge every held frame and say CAP-TS-ORDER (chk_finish). */
void chk_order_finish(struct chk *c);

/* CAP-MIRROR-DUP (check_mirror.c): 1 when frame fr (its carried frame
 * parsed in p, or NULL) is a second copy of a frame a mirror or tunnel
 * delivered just before: it is counted, not judged.  Also counts the
 * frames an ERSPAN mirror cut.  chk_mirror_finish() says it once. */
int chk_mirror_dup(struct chk *c, const struct cap_frame *fr,
                   const struct ibw_pkt *p);
void chk_mirror_finish(struct chk *c);

/* CAP-TS-CLOCKS: the time of frame `frame` stamped ts, moved onto the
 * capture's first clock when the file mixes clocks (check_clock.c);
 * chk_clock_finish() says so once. */
uint64_t chk_clock(struct chk *c, uint64_t ts, uint64_t frame);
void chk_clock_finish(struct chk *c);
void chk_order_free(struct chk *c);

/* Capture points that rewrite L2 (check_l2.c).  chk_l2_feed: frame fr
 * (its IBA bytes iba, its view p; NULL for a frame with none) before it is
 * judged: 0 to judge it now; 1 when it was held, -1 when it could not be
 * (no memory: judged now, after the released ones); the frames released
 * since are then taken one by one, oldest first, with chk_l2_release()
 * until it gives NULL. */
int chk_l2_feed(struct chk *c, const struct chk_order_frame *fr,
                const uint8_t *iba, const struct ibw_pkt *p);
const struct chk_order_frame *chk_l2_release(struct chk *c);
/* The end of the capture: what is still held is judged as recorded. */
void chk_l2_end(struct chk *c);
/* CAP-ETH-SRC, once, when the capture writes timestamps there. */
void chk_l2_note(struct chk *c);
void chk_l2_free(struct chk *c);
/* A source address no receiver takes (zero, group, broadcast). */
int chk_l2_src_refused(uint64_t mac);
/* 1 when PKT-ETH-SRC is not judged on the frame's source address mac (the
 * capture point wrote it); counted for CAP-ETH-SRC. */
int chk_l2_src_excused(struct chk *c, uint64_t mac);

/* A per-packet finding waiting for its frame's flow. */
struct chk_pend {
    uint64_t frame;
    unsigned rule;
    char msg[512];
};

/* Report rule r for the current frame (printf-style evidence).  A
 * per-packet rule's finding on a frame of a flow is flagged a repeat when
 * the flow had one of that rule already; while c->defer is set, per-packet
 * findings made before the frame's flow is known wait for
 * chk_report_flush(). */
void chk_report(struct chk *c, unsigned rule, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Report the waiting per-packet findings of the current frame as findings
 * of flow f; f NULL: every waiting finding, of no flow. */
void chk_report_flush(struct chk *c, struct chk_flow *f);

/* The frame being judged joined flow f (RC/UC/XRC, the flow tracker calls
 * it once per frame, before judging it; is_req: a request): its waiting
 * per-packet findings are said for f, and its RoCEv2 header fields held to
 * the direction's (FLOW-UDP-SPORT, FLOW-DSCP, FLOW-TTL, FLOW-ECN). */
void chk_a17_frame(struct chk *c, struct chk_flow *f, const struct ibw_pkt *p,
                   int is_req);

/* Per-packet rules; returns 0 when the packet cannot be judged further. */
int chk_packet(struct chk *c, const struct ibw_pkt *p, int truncated);

/* Source and destination addresses of a parsed packet. */
void chk_pkt_addrs(const struct ibw_pkt *p, struct chk_addr *src,
                   struct chk_addr *dst);

/* Flow rules for a packet with a BTH: RC/UC/XRC ones join their flow,
 * any one is held to the transport of the flows its QP has.  truncated:
 * the capture recorded the cut (for a held copy). */
void chk_flow_packet(struct chk *c, const struct ibw_pkt *p, int truncated);

/* A frame with a bad CRC, which its receiver dropped: a request in it
 * shows the PSN sent and lost in the network, not by the capture. */
void chk_flow_corrupt(struct chk *c, const struct ibw_pkt *p);

/* End of capture for the flows: drain held responses, report the notes. */
void chk_flows_finish(struct chk *c);

/* The endpoint-pair record of requests a -> b (created when asked). */
struct chk_pair *chk_pair_get(struct chk *c, const struct chk_addr *a,
                              const struct chk_addr *b, int create);

/* Free the flows' held responses and the pair records. */
void chk_flows_free(struct chk *c);

/* End of capture for cut frames: the unrecorded cut lengths that proved no
 * snap length are malformed frames; CAP-TRUNCATED once. */
void chk_cut_finish(struct chk *c);

/* End of capture for CRCs: the held bad-CRC findings, or CAP-CRC once. */
void chk_crc_finish(struct chk *c);

/* End of capture for the bad-CRC frames still waiting (before the flows
 * finish): judged whole, as in a capture without wire CRCs. */
void chk_crc_wait_finish(struct chk *c);

/* Hash-table primitives over struct chk_key (check_table.c). */
void chk_make_key(struct chk_key *k, const struct chk_addr *src,
                  const struct chk_addr *dst, uint32_t qpn, uint8_t role);
uint32_t chk_key_get(struct chk *c, const struct chk_key *k);
int chk_key_put(struct chk *c, const struct chk_key *k, uint32_t value);
void chk_key_del(struct chk *c, const struct chk_key *k, uint32_t value);

/* End the flows idle for longer than the idle time at capture time now. */
void chk_flows_expire(struct chk *c, uint64_t now);

/* Flow f's connection was closed (CM DREP): it ends a skew window later. */
void chk_flow_close(struct chk *c, struct chk_flow *f);

/* Forget the CM exchanges idle at capture time now whose flows ended. */
void chk_cm_idle(struct chk *c, uint64_t now, uint64_t idle);

/* Flow f was active now: it moves to the young end of the live list
 * (per packet: the common case inline). */
void chk_flow_touch_move(struct chk *c, struct chk_flow *f);
static inline void chk_flow_touch(struct chk *c, struct chk_flow *f)
{
    if (c->ts_ns > f->last_ts) /* a frame judged late keeps the newest */
        f->last_ts = c->ts_ns;
    if (!f->closing && c->tail_flow != f) /* closed: it still ends */
        chk_flow_touch_move(c, f);
}

/* Settle flow f as at the end of the capture (held responses, open
 * questions, once-per-flow notes) and free it; its summary goes to the
 * flow_end callback.  (check_flow.c: the settling; check_table.c: the
 * freeing) */
void chk_flow_settle(struct chk *c, struct chk_flow *f);
void chk_flow_end(struct chk *c, struct chk_flow *f);

/* Take flow f out of the pairing structures (pair lists, PSN index). */
void chk_flow_unpair(struct chk *c, struct chk_flow *f);

/* Remove flow index x from a pair record's list v of *n. */
void chk_pair_remove(uint32_t *v, uint32_t *n, uint32_t x);

/* The pairing-index key of request PSN psn sent from a to b. */
void chk_psn_key(struct chk_key *k, const struct chk_addr *a,
                 const struct chk_addr *b, uint32_t psn);

/* Look up / create the flow of requests src -> dst:qpn. */
struct chk_flow *chk_flow_get(struct chk *c, const struct chk_addr *src,
                              const struct chk_addr *dst, uint32_t qpn,
                              int create);

/* The flow a response src -> dst:qpn was bound to, or NULL. */
struct chk_flow *chk_flow_of_response(struct chk *c, const struct chk_addr *src,
                                      const struct chk_addr *dst, uint32_t qpn);

/* Add a response alias: responses dst -> src:req_qpn belong to flow f. */
void chk_flow_bind(struct chk *c, struct chk_flow *f, uint32_t req_qpn);

/* CM rules for a MAD to QP1 that decoded as a CM message: its len bytes
 * (fewer than a MAD's when the capture cut it). */
void chk_cm_mad(struct chk *c, const struct ibw_pkt *p, const uint8_t *mad,
                size_t len);

/* A frame with a BTH about to join its flow: 1 when CM holds it instead,
 * because it belongs to no flow yet and a CM exchange between its
 * endpoints waits for the message (REP, or its REQ) that names its QPs. */
int chk_cm_hold_frame(struct chk *c, const struct ibw_pkt *p, int truncated);

/* Before each frame: judge the CM messages and release the frames whose
 * cause did not arrive within the skew window. */
void chk_cm_expire(struct chk *c);

/* End of capture: judge and release everything CM still holds. */
void chk_cm_finish(struct chk *c);

/* Flow f was set up by CM for responses to req_qpn: bind them, taking
 * over a response stream that was waiting for its flow. */
void chk_flow_cm_bind(struct chk *c, struct chk_flow *f, uint32_t req_qpn);

/* Free the CM table. */
void chk_cm_free(struct chk *c);

#endif
