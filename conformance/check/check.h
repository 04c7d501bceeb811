/* SPDX-License-Identifier: Apache-2.0 */
/*
 * check.h - the conformance checker: feed it frames in capture order, it
 * reports findings (rule, frame, message) through a callback as soon as a
 * frame shows them.  Frames are judged in the order of their timestamps:
 * each is held until a frame the reorder window newer has been fed (or
 * chk_release()/chk_finish()), so a finding comes up to that much capture
 * time after its frame was fed; it names the frame by the number it was
 * fed with.
 *
 * Memory: one context, a flow table and a CM table that grow with the
 * flows and connections live at once: a flow idle for longer than
 * flow_idle_ns, or whose connection CM closed, is summarized and freed.
 */
#ifndef IBWIRE_CHECK_H
#define IBWIRE_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "capture.h"
#include "ibwire/packet.h"
#include "rules.h"

struct chk;

struct chk_flow_summary;

/* One finding; `message` and `flow` are valid during the callback only. */
struct chk_finding {
    uint64_t frame;      /* 1-based, as tshark numbers frames */
    unsigned rule;       /* enum chk_rule */
    int severity;        /* enum chk_severity */
    const char *message; /* evidence: field, value seen vs expected */
    const struct chk_flow_summary *flow; /* the flow it concerns, or NULL */
    int repeat;          /* a per-packet rule's finding on a frame of a flow
                            that had one of that rule already: callers that
                            say a rule once per flow count it instead */
};

typedef void (*chk_report_fn)(void *user, const struct chk_finding *f);

/* An endpoint: an address (IPv4/IPv6 address, RoCEv1 GID, or native-IB
 * LID in the last two bytes) and a QPN. */
enum chk_addr_kind { CHK_ADDR_IP4 = 1, CHK_ADDR_IP6, CHK_ADDR_GID, CHK_ADDR_LID };

struct chk_addr {
    uint8_t kind;     /* enum chk_addr_kind */
    uint8_t a[16];
};

/* The summary of one flow: requests from `req` to QP resp_qpn at `resp`,
 * responses back to req_qpn (when learnt). */
struct chk_flow_summary {
    uint64_t id;            /* 1, 2, ... in order of creation */
    struct chk_addr req, resp;
    uint32_t resp_qpn;      /* valid when resp_qpn_known */
    int resp_qpn_known;     /* 0 for a flow seen only through responses */
    uint32_t req_qpn;       /* valid when req_qpn_known */
    int req_qpn_known;
    const char *transport;  /* "RC", "UC", "XRC" */
    uint32_t pmtu;          /* 0 when not learnt */
    const char *pmtu_source;/* "option", "cm", "payload" or NULL */
    const char *paired_by;  /* how responses were tied to the requests:
                               "cm", "psn" (no CM: the PSNs they answer) or
                               NULL (not paired) */
    uint64_t first_frame, last_frame;
    uint64_t requests, responses, messages;
    uint64_t retransmissions, gaps, naks, rnr_naks, reads, atomics;
    uint64_t errors, warnings;
    /* what the capture point did (vantage notes) */
    uint64_t capture_lost;  /* request PSNs missing from the capture that the
                               responder acknowledged (no NAK, no resend) */
    uint64_t unexplained;   /* request PSNs never seen, not known to have
                               been acknowledged */
    uint64_t ack_unsent;    /* responses to requests the capture never saw */
    uint64_t skew_ns;       /* largest time a response was recorded before
                               the request it answers */
    uint64_t cut_frames;    /* frames of the flow cut by the capture */
    uint64_t cnps, ecn_marks; /* CNPs to the requester, ECN CE / FECN marks */
    int responses_only;     /* responses no request flow could be paired with */
    int started_mid;        /* first packet seen was MIDDLE/LAST */
    int cm_negotiated;      /* QPNs/PSNs came from a CM exchange */
};

/*
 * A hook for `--replay` (engine issue): called for every RC packet that
 * belongs to a flow, after the checker has judged it, with the flow it
 * was assigned to and whether it is a request.  NULL for none.  Also
 * called with flow NULL for a frame with a BTH whose CRC is bad once the
 * capture has shown it keeps good ones: its receiver dropped it, so it is
 * judged by nothing else and joins no flow.
 */
typedef void (*chk_rc_hook_fn)(void *user, const struct chk_flow_summary *flow,
                               const struct ibw_pkt *pkt, uint64_t frame,
                               int is_request);

/*
 * What the checker saw happen, for a caller that draws it (`--report`):
 * every packet a flow judged (REQUEST, RESPONSE), and one event at each
 * place a flow summary counter named after the kind is incremented, so a
 * caller counting them per flow gets the summary's numbers.  CM: every CM
 * message decoded, in capture order.
 */
enum chk_event_kind {
    CHK_EV_REQUEST = 1,   /* a request packet, after it was judged */
    CHK_EV_RESPONSE,      /* a response packet, after it was judged (a
                             response held for its request comes late, with
                             its own frame and time) */
    CHK_EV_RETRANSMISSION,/* summary.retransmissions */
    CHK_EV_NAK,           /* summary.naks */
    CHK_EV_RNR,           /* summary.rnr_naks */
    CHK_EV_CNP,           /* summary.cnps */
    CHK_EV_ECN,           /* summary.ecn_marks */
    CHK_EV_CM,            /* a CM message (flow NULL) */
};

struct ibw_cm_msg;

/* Valid during the callback only. */
struct chk_event {
    unsigned kind;                       /* enum chk_event_kind */
    uint64_t frame, ts_ns;
    const struct chk_flow_summary *flow; /* NULL for CM */
    const struct ibw_pkt *pkt;           /* the packet of the frame */
    uint32_t psn;                        /* BTH PSN */
    const struct ibw_cm_msg *cm;         /* CHK_EV_CM: the decoded message */
    const struct chk_addr *src, *dst;    /* CHK_EV_CM: its endpoints */
};

struct chk_opts {
    uint32_t pmtu;            /* bytes; 0 = learn per flow */
    chk_report_fn report;
    void *user;
    chk_rc_hook_fn rc_hook;   /* may be NULL */
    void *rc_hook_user;
    uint64_t skew_ns;         /* how long a response recorded before its
                                 request waits for it (capture time); 0 means
                                 the default, 1 ms */
    uint64_t flow_idle_ns;    /* a flow with no frame for this long (capture
                                 time) has ended: it is settled, summarized
                                 through flow_end and freed; 0 means the
                                 default, 60 s; UINT64_MAX never */
    /* A flow ended before the end of the capture (idle, or its connection
     * closed by CM): its final summary, valid during the call.  The flows
     * still live at the end are those chk_flows() lists.  May be NULL. */
    void (*flow_end)(void *user, const struct chk_flow_summary *s);
    /* Each event as it happens (chk_event); NULL for none.  Gets `user`. */
    void (*event)(void *user, const struct chk_event *e);
    /* Frames are judged in the order of their timestamps: a frame is held
     * until one this much newer (capture time) has come, so that a frame
     * recorded late, with an older timestamp, is judged before the ones
     * stamped after it (CAP-TS-ORDER says so once).  0 means the default,
     * 250 ms; CHK_REORDER_NONE judges in the order fed. */
    uint64_t reorder_ns;
};

#define CHK_REORDER_DEFAULT_NS 250000000u
#define CHK_REORDER_NONE UINT64_MAX

/* Counters of one run. */
struct chk_stats {
    uint64_t frames;          /* frames fed */
    uint64_t iba;             /* frames carrying an IBA packet (BTH) */
    uint64_t not_iba;         /* frames with no IBA packet */
    uint64_t errors, warnings;
    uint64_t per_rule[CHK_RULE_COUNT];
    uint64_t cm_messages;
};

/* New checker; NULL on allocation failure. */
struct chk *chk_new(const struct chk_opts *opts);

/* Feed one frame as the capture reader returned it (judged in timestamp
 * order: see reorder_ns). */
void chk_frame(struct chk *c, const struct cap_frame *fr);

/* The same for a frame whose IBA bytes (fr->iba) were already parsed into
 * *p by ibw_parse() (NULL when fr->iba is NULL). */
void chk_frame_parsed(struct chk *c, const struct cap_frame *fr,
                      const struct ibw_pkt *p);

/* Judge every frame of reader rd in order (on_frame, if not NULL, sees each
 * frame just before the checker, in this thread).  jobs > 1 reads on
 * another thread (and with jobs > 2 parses on jobs - 2 more) while this one
 * judges: the findings and their order are those of jobs = 1.  A reader
 * whose interface list may grow (pcapng) is read in this thread.  0 at the
 * end of the capture, -1 when it is damaged (cap_error()) or memory ran
 * out. */
#define CHK_MAX_JOBS 64
int chk_feed(struct chk *c, struct cap_reader *rd, unsigned jobs,
             void (*on_frame)(void *user, const struct cap_frame *fr),
             void *user);

/* chk_feed(), then chk_release(c, UINT64_MAX): every frame of rd is judged
 * before it returns.  The same verdicts and order as those two calls; the
 * frames still held at the end of rd are judged from the reader's bytes
 * instead of being copied first (chk_feed must copy them: its caller may
 * close the reader before it judges them). */
int chk_feed_all(struct chk *c, struct cap_reader *rd, unsigned jobs,
                 void (*on_frame)(void *user, const struct cap_frame *fr),
                 void *user);

/* Judge one IBA frame given directly (bytes starting at the link header
 * named by `link`); frame is its 1-based number, ts_ns its time;
 * truncated: the capture recorded that it cut the frame (caplen < len). */
void chk_bytes(struct chk *c, uint64_t frame, uint64_t ts_ns,
               const uint8_t *data, size_t len, enum ibw_link link,
               int truncated);

/* Time has passed without frames (a live capture: the capture's clock,
 * ns): judge the held frames older than now_ns minus the reorder window. */
void chk_release(struct chk *c, uint64_t now_ns);

/* The same, with the time measured by the caller's own clock: idle_ns have
 * passed since the last frame was fed.  Judges the held frames older than
 * the newest frame's time plus idle_ns minus the reorder window.  For a
 * caller whose clock is not the one the frames carry (a capture point
 * that stamps with the time since boot, or with two clocks:
 * CAP-TS-CLOCKS), where now_ns of chk_release() would release everything
 * at once or nothing. */
void chk_release_idle(struct chk *c, uint64_t idle_ns);

/* End of the capture: settle what was left open (responses waiting for
 * their requests, READ spans, unrecorded cuts) and report the notes said
 * once per flow or per capture (capture loss, skew, cut frames, responses
 * without requests).  Call once, after the last frame and before reading
 * the final chk_stats()/chk_flows(). */
void chk_finish(struct chk *c);

/* Counters so far. */
const struct chk_stats *chk_stats(const struct chk *c);

/* Call fn for every flow still live (not ended through flow_end), in order
 * of first appearance. */
void chk_flows(const struct chk *c,
               void (*fn)(void *user, const struct chk_flow_summary *s),
               void *user);

/* Human form of an address ("10.0.0.1", "lid 0x0001", a GID in RFC 5952
 * form such as "fe80::1"). */
void chk_addr_str(const struct chk_addr *a, char *buf, size_t len);

/* Free everything; NULL is fine. */
void chk_free(struct chk *c);

/* Array items (n used of *cap elements of `size` bytes) with room for one
 * more: items itself, or items moved to twice the room (first elements
 * when it had none); NULL when out of memory, items and *cap left as they
 * were.  Shared by the checker's replay and the HTML report. */
static inline void *chk_grow(void *items, size_t n, size_t *cap, size_t size,
                             size_t first)
{
    if (n < *cap)
        return items;
    size_t room = *cap ? *cap * 2 : first;
    void *moved = realloc(items, room * size);
    if (moved)
        *cap = room;
    return moved;
}

#endif
