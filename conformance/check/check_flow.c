/* SPDX-License-Identifier: Apache-2.0 */
/* check_flow.c - the rules that need a flow's history: opcode sequences,
 * PSN continuity and retransmission, ACK/NAK meaning, MSN, READ and atomic
 * responses.  A flow is one requester QP sending to one responder QP; its
 * responses travel back to the requester's QPN, which RoCE packets do not
 * carry: it is learnt from CM, or by pairing the responses with the one
 * request flow between the same endpoints whose PSNs they answer.
 *
 * The capture point is not the devices.  What it may have done (cut
 * frames, one direction recorded late, requests it dropped, packets lost
 * after it) is settled here and said once per flow at the end
 * (chk_flows_finish), and never becomes an error:
 * - a response recorded before its request is held until the request
 *   arrives (or the skew window passes) and judged then;
 * - a request PSN gap is a question until the end: resent (network loss),
 *   acknowledged with no NAK or resend (capture loss), or left open;
 * - the requester is only held to what it provably received: a resend
 *   from before a NAK's PSN (the NAK may have been lost after the capture
 *   point) or a re-issued READ are correct behaviour. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_int.h"

/* Responses to flows whose requests were never seen get a flow keyed by a
 * QPN no packet can carry (QPNs are 24 bits). */
#define CHK_QPN_RESPONSES_ONLY 0x80000000u

#define POS_MASK (IBW_OPF_FIRST | IBW_OPF_MIDDLE | IBW_OPF_LAST)

static uint64_t skew_window(const struct chk *c)
{
    return chk_skew_window(c);
}

static uint32_t ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

/* The slot of a bounded ring (*n entries of cap from *head) that takes the
 * next entry: the first free one, or, once full, the oldest, given up. */
static inline unsigned ring_slot(unsigned *head, unsigned *n, unsigned cap)
{
    if (*n < cap)
        return (*head + (*n)++) % cap;
    unsigned i = *head;
    *head = (*head + 1) % cap;
    return i;
}

/* ---- timing across the two directions ----
 * A capture point may record one direction late by a delay d nobody
 * knows (d > 0: the responses' direction, d < 0: the requests').  Every
 * response comes after the request it proves received, so d is at most
 * the least time a response was recorded after such a request (negative
 * when one was recorded before it), and at most the skew window.  A
 * timing rule is broken only if it is broken for every d up to that. */

/* The largest d the flow's responses leave possible (ns). */
static int64_t skew_max(const struct chk *c, const struct chk_flow *f)
{
    int64_t w = (int64_t)skew_window(c);
    return f->have_lat && f->lat_min < w ? f->lat_min : w;
}

/* How long after a response recorded at rts a request recorded at ts may
 * have been sent, at most (ns); <= 0: it was sent first, whatever d is. */
static int64_t sent_after(const struct chk *c, const struct chk_flow *f,
                          uint64_t ts, uint64_t rts)
{
    return (int64_t)ts - (int64_t)rts + skew_max(c, f);
}

/* A new request at psn: the first response proving it received bounds d. */
static void lat_request(struct chk *c, struct chk_flow *f, uint32_t psn)
{
    if (f->lat_open)
        return;
    f->lat_open = 1;
    f->lat_psn = psn;
    f->lat_ts = c->ts_ns;
}

static void lat_response(struct chk *c, struct chk_flow *f, uint32_t r)
{
    if (!f->lat_open || chk_psn_diff(r, f->lat_psn) < 0)
        return;
    int64_t l = (int64_t)c->ts_ns - (int64_t)f->lat_ts;
    if (!f->have_lat || l < f->lat_min)
        f->lat_min = l;
    f->have_lat = 1;
    f->lat_open = 0;
}

/* Just past the last PSN the requester may have used: the next new PSN,
 * or, after a READ whose span is not known yet, the end of the largest
 * span it can have (PMTU 256). */
static uint32_t sent_end(const struct chk_flow *f)
{
    if (f->span_unknown) {
        uint32_t e = chk_psn_add(f->prev_psn, f->span_max);
        if (chk_psn_diff(e, f->next_psn) > 0)
            return e;
    }
    return f->next_psn;
}

/* Has the flow's requester been seen using PSN r (a READ's span counts)? */
static int psn_in_window(const struct chk_flow *f, uint32_t r)
{
    return f->have_psn && chk_psn_diff(r, f->first_psn) >= 0 &&
           chk_psn_diff(r, sent_end(f)) < 0;
}

/* Does response p at PSN r answer requests seen?  A PSN sequence error NAK
 * names the PSN the responder expects next, which may be the requester's
 * next one: the packets after it reached the responder but not the capture
 * whole (a corrupted copy, or capture loss). */
static int resp_in_window(const struct chk_flow *f, const struct ibw_pkt *p,
                          uint32_t r)
{
    if (psn_in_window(f, r))
        return 1;
    const uint8_t *a = ibw_pkt_hdr(p, IBW_HDR_AETH);
    uint8_t syn = a ? ibw_aeth_get_syndrome(a) : 0;
    /* (any other NAK names the request it rejects: one the capture saw) */
    return a && f->have_psn && ibw_aeth_syndrome_kind(syn) == IBW_AETH_NAK &&
           ibw_aeth_syndrome_value(syn) == IBW_NAK_PSN_SEQ_ERROR &&
           r == sent_end(f);
}

/* Is r a PSN the requester has not used yet, close enough that its request
 * may still be on its way to the capture (recorded late)? */
static int psn_ahead(const struct chk_flow *f, uint32_t r)
{
    if (!f->have_psn)
        return 1;
    int32_t d = chk_psn_diff(r, sent_end(f));
    return d >= 0 && d < CHK_AHEAD;
}

static const uint8_t *hdr(const struct ibw_pkt *p, enum ibw_hdr h)
{
    return ibw_pkt_hdr(p, h);
}

/* ---- per-PSN history and READ/atomic requests ---- */

/* The full-size history, the small one's entries moved into it (PSNs
 * distinct in their low 4 bits are distinct in their low 8).  NULL when
 * there is no memory for it. */
static struct chk_hist *hist_grow(struct chk_flow *f)
{
    struct chk_hist *big = calloc(CHK_HIST, sizeof *big);
    if (!big)
        return NULL;
    for (unsigned i = 0; i < CHK_HIST_SMALL; i++)
        if (f->hist_small[i].valid)
            big[f->hist_small[i].psn & (CHK_HIST - 1)] = f->hist_small[i];
    f->hist_big = big;
    return big;
}

/* chk_hist_get() for an entry to update. */
static struct chk_hist *hist_at(struct chk_flow *f, uint32_t psn)
{
    struct chk_hist *h = f->hist_big ? &f->hist_big[psn & (CHK_HIST - 1)]
                                     : &f->hist_small[psn & (CHK_HIST_SMALL - 1)];
    return h->valid && h->psn == psn ? h : NULL;
}

static struct chk_hist *hist_put(struct chk_flow *f, uint32_t psn,
                                 const struct ibw_pkt *p, uint8_t flags)
{
    struct chk_hist *h;
    if (f->hist_big) {
        h = &f->hist_big[psn & (CHK_HIST - 1)];
    } else {
        h = &f->hist_small[psn & (CHK_HIST_SMALL - 1)];
        /* the small one would forget a PSN the full one keeps: grow */
        if (h->valid && h->psn != psn && hist_grow(f))
            h = &f->hist_big[psn & (CHK_HIST - 1)];
    }
    h->psn = psn;
    h->opcode = p->opcode;
    h->paylen = (uint16_t)(p->payload_wire_len > 0xFFFF ? 0xFFFF
                                                        : p->payload_wire_len);
    h->valid = 1;
    h->flags = flags;
    h->msgs = 0;
    if (chk_req_digest(p, &h->hdr_digest, &h->digest))
        h->flags |= CHK_HIST_DIGEST;
    return h;
}

/* The ring of READ/atomic requests and its size. */
static struct chk_outst *out_ring(const struct chk_flow *f, unsigned *cap)
{
    *cap = f->out_big ? CHK_OUTSTANDING : CHK_OUT_SMALL;
    return f->out_big ? f->out_big : (struct chk_outst *)f->out_small;
}

static struct chk_outst *outst_add(struct chk_flow *f)
{
    unsigned cap, i;
    struct chk_outst *ring = out_ring(f, &cap);
    if (f->nout == cap && !f->out_big) {
        struct chk_outst *big = calloc(CHK_OUTSTANDING, sizeof *big);
        if (big) { /* oldest first from 0 */
            for (unsigned k = 0; k < f->nout; k++)
                big[k] = ring[(f->out_head + k) % cap];
            f->out_big = big;
            f->out_head = 0;
            ring = out_ring(f, &cap);
        }
    }
    if (f->nout == cap)
        chk_msn_outst_gone(f, &ring[f->out_head]); /* the oldest, given up */
    i = ring_slot(&f->out_head, &f->nout, cap);
    memset(&ring[i], 0, sizeof ring[i]);
    return &ring[i];
}

/* The state of the message sequence just before PSN psn, from what was
 * first sent there: a resend (Go-Back-N, perhaps after a response lost
 * beyond the capture point) restarts the sequence at that point. */
static uint8_t msg_state_before(struct chk_flow *f, uint32_t psn)
{
    uint32_t before = chk_psn_add(psn, CHK_PSN_MASK);
    const struct chk_hist *h = chk_hist_get(f, before);
    if (!h) {
        /* inside the span of a READ: no message open there */
        for (unsigned k = 0; k < f->nout; k++) {
            const struct chk_outst *o = chk_outst_at(f, k);
            if (o->kind == IBW_OPK_READ && o->span && chk_outst_covers(o, before))
                return CHK_MSG_NONE;
        }
        return CHK_MSG_UNKNOWN;
    }
    const struct ibw_opcode_info *hi = ibw_opcode_info(h->opcode);
    if (hi->kind == IBW_OPK_READ)
        return CHK_MSG_UNKNOWN; /* its span may reach psn - 1 */
    if (hi->kind != IBW_OPK_SEND && hi->kind != IBW_OPK_WRITE)
        return CHK_MSG_NONE;
    if (hi->flags & IBW_OPF_LAST)
        return CHK_MSG_NONE;
    return hi->kind == IBW_OPK_SEND ? CHK_MSG_SEND : CHK_MSG_WRITE;
}

static unsigned msg_kind(const struct ibw_opcode_info *oi)
{
    return oi->kind == IBW_OPK_SEND    ? CHK_MSG_SEND
           : oi->kind == IBW_OPK_WRITE ? CHK_MSG_WRITE
                                       : CHK_MSG_NONE;
}

static const char *msg_name(unsigned m)
{
    return m == CHK_MSG_SEND ? "SEND" : m == CHK_MSG_WRITE ? "RDMA WRITE" : "?";
}

/* FIRST -> MIDDLE* -> LAST of one operation, nothing in between. */
static void opseq(struct chk *c, struct chk_flow *f,
                  const struct ibw_opcode_info *oi)
{
    unsigned pos = oi->flags & POS_MASK;
    unsigned k = msg_kind(oi);
    if (pos & IBW_OPF_FIRST) {
        unsigned next = (pos & IBW_OPF_LAST) ? CHK_MSG_NONE : k;
        if (f->msg == CHK_MSG_SEND || f->msg == CHK_MSG_WRITE) {
            chk_report(c, CHK_R_FLOW_OPSEQ,
                       "%s while a %s message is still open (no LAST seen)",
                       oi->name, msg_name(f->msg));
            /* Which message the next MIDDLE/LAST continues is anyone's
             * guess: one finding, not a cascade. */
            if (next == CHK_MSG_NONE)
                next = CHK_MSG_UNKNOWN;
        }
        f->msg = (uint8_t)next;
        return;
    }
    if (f->msg == CHK_MSG_NONE)
        chk_report(c, CHK_R_FLOW_OPSEQ, "%s with no message open (no FIRST)",
                   oi->name);
    else if (f->msg != CHK_MSG_UNKNOWN && f->msg != k)
        chk_report(c, CHK_R_FLOW_OPSEQ, "%s inside a %s message", oi->name,
                   msg_name(f->msg));
    f->msg = (uint8_t)((pos & IBW_OPF_LAST) ? CHK_MSG_NONE : k);
}

/* RDMA WRITE bytes add up to the DMA Length; fed the in-order new packets
 * only (a resend is held to its original by FLOW-RETRANS-DIFF instead). */
static void write_len(struct chk *c, struct chk_flow *f, const struct ibw_pkt *p,
                      const struct ibw_opcode_info *oi)
{
    unsigned pos = oi->flags & POS_MASK;
    if (oi->kind != IBW_OPK_WRITE) {
        f->wr_open = 0;
        return;
    }
    if (pos & IBW_OPF_FIRST) {
        const uint8_t *reth = hdr(p, IBW_HDR_RETH);
        f->wr_open = reth != NULL; /* cut before the RETH: length unknown */
        f->wr_len = reth ? ibw_reth_get_dmalen(reth) : 0;
        f->wr_bytes = 0;
    } else if (!f->wr_open) {
        return; /* its FIRST not seen */
    }
    f->wr_bytes += p->payload_wire_len;
    if (!(pos & IBW_OPF_LAST))
        return;
    f->wr_open = 0;
    if (f->wr_bytes != f->wr_len)
        chk_report(c, CHK_R_FLOW_WRITE_LEN,
                   "%s: the RDMA WRITE carried %llu bytes, its DMA Length is %u",
                   oi->name, (unsigned long long)f->wr_bytes, f->wr_len);
}

static const char *pmtu_src_name(unsigned s)
{
    switch (s) {
    case CHK_PMTU_OPTION: return "option";
    case CHK_PMTU_CM: return "cm";
    case CHK_PMTU_PAYLOAD: return "payload";
    default: return NULL;
    }
}

static void set_pmtu(struct chk_flow *f, uint32_t pmtu, unsigned src)
{
    f->s.pmtu = pmtu;
    f->pmtu_src = (uint8_t)src;
    f->s.pmtu_source = pmtu_src_name(src);
}

/* Learn the PMTU from full packets; hold later ones to it. */
static void pmtu_rules(struct chk *c, struct chk_flow *f, const struct ibw_pkt *p,
                       const struct ibw_opcode_info *oi)
{
    unsigned pos = oi->flags & POS_MASK;
    if (c->o.pmtu || !(oi->flags & IBW_OPF_PAYLOAD) ||
        oi->kind == IBW_OPK_ATOMIC_WRITE)
        return;
    uint32_t pl = p->payload_wire_len;
    const char *src = f->pmtu_src == CHK_PMTU_CM ? "from CM" : "learnt";
    if (pos == IBW_OPF_FIRST || pos == IBW_OPF_MIDDLE) {
        if (!f->s.pmtu) {
            if (ibw_mtu_bytes_to_enum(pl))
                set_pmtu(f, pl, CHK_PMTU_PAYLOAD);
        } else if (pl != f->s.pmtu) {
            chk_report(c, CHK_R_PKT_LEN_FULL,
                       "%s payload %u bytes, the flow's PMTU is %u (%s)",
                       oi->name, pl, f->s.pmtu, src);
        }
    } else if (f->s.pmtu && pl > f->s.pmtu) {
        chk_report(c, CHK_R_PKT_LEN_LAST,
                   "%s payload %u bytes exceeds the flow's PMTU %u (%s)",
                   oi->name, pl, f->s.pmtu, src);
    }
}

/* READ o's span is now known to be span.  Fewer PSNs than the next
 * request left room for (o->span_max): the capture missed requests after
 * the READ (lost, or dropped for a bad CRC), so the flow's counts from
 * requests are lower bounds from here on. */
static void span_settled(struct chk_flow *f, struct chk_outst *o, uint32_t span)
{
    o->span = span;
    if (o->span_max && span < o->span_max)
        f->any_gap = 1;
}

/* Once the PMTU is known, the READs whose span was open get theirs; the
 * last one's end is where the requester's next new PSN is. */
static void settle_spans(struct chk *c, struct chk_flow *f)
{
    uint32_t pmtu = chk_flow_pmtu(c, f);
    if (!pmtu)
        return;
    for (unsigned k = 0; k < f->nout; k++) {
        struct chk_outst *o = chk_outst_at(f, k);
        if (o->kind == IBW_OPK_READ && !o->span)
            span_settled(f, o, chk_read_span(o->len, pmtu));
    }
    if (f->span_unknown && f->nout) {
        struct chk_outst *o = chk_outst_at(f, f->nout - 1);
        if (o->kind == IBW_OPK_READ && o->psn == f->prev_psn && o->span) {
            f->next_psn = f->prev_end = chk_psn_add(o->psn, o->span);
            f->span_unknown = 0;
        }
    }
}

/* ---- gaps: what the capture did not see of the request stream ---- */

static struct chk_gap *gap_add(struct chk *c, struct chk_flow *f, uint32_t lo,
                               uint32_t hi)
{
    f->s.gaps++;
    f->any_gap = 1;
    unsigned at = f->ngaps;
    /* full: a gap a resend round covered (lost in the network, recovered:
     * its rules ran, the notes skip it) gives its slot to the new one, so
     * that a long lossy run does not count its later gaps unexplained */
    for (unsigned i = 0; at == CHK_GAPS && i < CHK_GAPS; i++)
        if (f->gaps[i].resent == 1)
            at = i;
    if (at == CHK_GAPS) {
        f->gap_overflow += (uint32_t)chk_psn_diff(hi, lo);
        f->noted = 1;
        return NULL;
    }
    if (at == f->ngaps)
        f->ngaps++;
    struct chk_gap *g = &f->gaps[at];
    memset(g, 0, sizeof *g);
    g->lo = lo;
    g->hi = hi;
    g->frame = c->frame;
    return g;
}

static struct chk_gap *gap_of(struct chk_flow *f, uint32_t psn)
{
    for (unsigned i = 0; i < f->ngaps; i++)
        if (chk_psn_diff(psn, f->gaps[i].lo) >= 0 &&
            chk_psn_diff(psn, f->gaps[i].hi) < 0)
            return &f->gaps[i];
    return NULL;
}

/* ---- PSNs the capture saw sent out of sequence ----
 * A gap in the new PSNs, or in a resend round, is capture loss only for
 * PSNs the capture never saw at all: one carried by a frame with a bad CRC
 * was sent and dropped by its receiver (network loss), and one a resend
 * round or READ re-issue carried may be the copy the responder took. */

static void seen_add(struct chk_flow *f, uint32_t lo, uint32_t hi, int corrupt)
{
    if (f->nseen && !corrupt) {
        struct chk_seen *l = &f->seen[(f->seen_head + f->nseen - 1) % CHK_SEEN];
        if (!l->corrupt && l->hi == lo) {
            l->hi = hi; /* the same round goes on */
            return;
        }
    }
    unsigned i = ring_slot(&f->seen_head, &f->nseen, CHK_SEEN);
    f->seen[i].lo = lo;
    f->seen[i].hi = hi;
    f->seen[i].corrupt = (uint8_t)corrupt;
}

/* A range seen (corrupted, or also resent when resends) covering psn. */
static const struct chk_seen *seen_of(const struct chk_flow *f, uint32_t psn,
                                      int resends)
{
    for (unsigned k = 0; k < f->nseen; k++) {
        const struct chk_seen *s = &f->seen[(f->seen_head + k) % CHK_SEEN];
        if ((s->corrupt || resends) && chk_psn_diff(psn, s->lo) >= 0 &&
            chk_psn_diff(psn, s->hi) < 0)
            return s;
    }
    return NULL;
}

/* The first PSN in (psn, hi) where such a range starts; hi when none. */
static uint32_t seen_next(const struct chk_flow *f, uint32_t psn, uint32_t hi,
                          int resends)
{
    uint32_t e = hi;
    for (unsigned k = 0; k < f->nseen; k++) {
        const struct chk_seen *s = &f->seen[(f->seen_head + k) % CHK_SEEN];
        if ((s->corrupt || resends) && chk_psn_diff(s->lo, psn) > 0 &&
            chk_psn_diff(s->lo, e) < 0)
            e = s->lo;
    }
    return e;
}

enum { GAP_NONE, GAP_CORRUPT, GAP_RESENT, GAP_ANY };

/* Does a missing psn need no copy of its own seen?  Not when it lies
 * inside the span of a READ seen (the responder's PSNs, which the READ
 * carries); and for seen == GAP_ANY not when its original was seen. */
static int sent_seen(struct chk_flow *f, uint32_t psn, int seen)
{
    const struct chk_outst *o = chk_outst_find(f, psn, IBW_OPK_READ);
    if (o && (o->psn != psn || seen == GAP_ANY))
        return 1;
    return seen == GAP_ANY && chk_hist_get(f, psn);
}

/* Was a frame with a bad CRC from f's requester to its responder recorded
 * after frame `since` and before frame `until`?  Whatever its damaged
 * header says, it may have been any request there, a READ taking any
 * number of PSNs among them. */
static int corrupt_between(const struct chk *c, const struct chk_flow *f,
                           uint64_t since, uint64_t until)
{
    for (unsigned k = 0; k < c->ncorrupt; k++) {
        const struct chk_corrupt *x =
            &c->corrupt[(c->corrupt_head + k) % CHK_CORRUPT];
        if (x->frame > since && x->frame < until &&
            chk_addr_eq(&x->src, &f->s.req) && chk_addr_eq(&x->dst, &f->s.resp))
            return 1;
    }
    return 0;
}

/* PSNs [lo, hi) missing from where the request stream had them: the parts
 * the capture never saw are gaps (the first returned), the rest network
 * loss.  A frame with a bad CRC, recorded between frames since and until
 * (the requests either side of the gap) or saying its PSN is in the gap,
 * explains all of it from there: any field of it may be the one hit, its
 * opcode or a READ's length among them.  seen: GAP_NONE, nothing else
 * explains a PSN; GAP_CORRUPT, just those; GAP_RESENT, a resent copy too
 * (and a READ seen carries its span); GAP_ANY, the original as well. */
static struct chk_gap *gap_add_unseen(struct chk *c, struct chk_flow *f,
                                      uint32_t lo, uint32_t hi, int seen,
                                      uint64_t since, uint64_t until)
{
    struct chk_gap *first = NULL;
    /* The requests seen are lower bounds (any_gap) when a part of the
     * range was seen in no copy (gap_add) or only in a damaged one, which
     * may have been any request; not when every PSN of it was seen whole
     * (a resend round resuming past PSNs resent before, PSNs a NAK's
     * Go-Back-N did not resend whose originals were recorded): the
     * message counts through them are then those of the copies seen.
     * (Before, any such range set it, and FLOW-MSN and the resend rules
     * stopped for the rest of the flow after the first recovered loss.) */
    if (seen != GAP_NONE && since < until && corrupt_between(c, f, since, until)) {
        f->any_gap = 1;
        return NULL;
    }
    while (chk_psn_diff(hi, lo) > 0) {
        const struct chk_seen *s =
            seen == GAP_NONE ? NULL : seen_of(f, lo, seen >= GAP_RESENT);
        if (s) {
            /* past it (a corrupted frame: to the end of the gap) */
            if (s->corrupt)
                f->any_gap = 1;
            lo = !s->corrupt && chk_psn_diff(s->hi, hi) < 0 ? s->hi : hi;
            continue;
        }
        uint32_t e = seen == GAP_NONE ? hi
                                      : seen_next(f, lo, hi, seen >= GAP_RESENT);
        int walk = seen >= GAP_RESENT && chk_psn_diff(e, lo) <= (int32_t)CHK_HIST;
        while (lo != e) {
            /* a run [u, v) seen nowhere */
            uint32_t u = lo;
            while (walk && u != e && sent_seen(f, u, seen))
                u = chk_psn_add(u, 1);
            uint32_t v = walk ? u : e;
            while (v != e && !sent_seen(f, v, seen))
                v = chk_psn_add(v, 1);
            if (u != v) {
                struct chk_gap *g = gap_add(c, f, u, v);
                if (!first)
                    first = g;
            }
            lo = v;
        }
    }
    return first;
}

/* A NAK named PSN `at` inside gap g: the responder received every PSN of g
 * before it, so g splits there; returns the part from `at` (g itself when
 * the table is full and the gap stays whole). */
static struct chk_gap *gap_split(struct chk_flow *f, struct chk_gap *g,
                                 uint32_t at)
{
    if (chk_psn_diff(at, g->lo) <= 0 || f->ngaps == CHK_GAPS)
        return g;
    struct chk_gap *lower = &f->gaps[f->ngaps++];
    *lower = *g;
    lower->hi = at;
    lower->acked = 1;
    g->lo = at;
    return g;
}

/* ---- pairing responses with request flows ---- */

static int pair_push(uint32_t **v, uint32_t *n, uint32_t *cap, uint32_t x)
{
    if (*n == *cap) {
        uint32_t nc = *cap ? *cap * 2 : 4;
        uint32_t *nv = realloc(*v, nc * sizeof *nv);
        if (!nv)
            return -1;
        *v = nv;
        *cap = nc;
    }
    (*v)[(*n)++] = x;
    return 0;
}

static uint32_t flow_index(const struct chk *c, const struct chk_flow *f)
{
    return (uint32_t)(f - c->flows);
}

/* Put request PSN psn of flow f in the pairing index. */
static void psn_index_put(struct chk *c, struct chk_flow *f, uint32_t psn)
{
    struct chk_key k;
    chk_psn_key(&k, &f->s.req, &f->s.resp, psn);
    uint32_t me = flow_index(c, f) + 1, v = chk_key_get(c, &k);
    if (v != me)
        chk_key_put(c, &k, v ? CHK_SLOT_AMBIGUOUS : me);
}

/* Flow f (waiting in pair pr) sent request PSN psn: remember it, and index
 * it when the pair uses its index. */
static void pair_index(struct chk *c, struct chk_flow *f,
                       const struct chk_pair *pr, uint32_t psn)
{
    for (unsigned i = 0; i < f->nindexed; i++)
        if (f->indexed[i] == psn)
            return;
    if (f->nindexed == CHK_PAIR_INDEXED)
        return;
    f->indexed[f->nindexed++] = psn;
    if (pr->indexed)
        psn_index_put(c, f, psn);
}

/* A request flow with no responses paired yet waits in its endpoint pair.
 * While few wait, a response finds its flow by scanning them; once more
 * than CHK_PAIR_SCAN wait at once, the pair switches to the PSN index for
 * good (every waiting flow's PSNs go in), so the look-up stays constant
 * time however many QPs the two hosts share. */
static void pair_enlist(struct chk *c, struct chk_flow *f, uint32_t psn)
{
    if (f->s.req_qpn_known || (f->tr_known && f->tr == IBW_TR_UC))
        return; /* paired, or no responses to pair (UC) */
    struct chk_pair *pr;
    if (!f->pair) {
        pr = chk_pair_get(c, &f->s.req, &f->s.resp, 1);
        if (!pr || pair_push(&pr->req, &pr->nreq, &pr->capreq, flow_index(c, f)))
            return;
        f->pair = (uint32_t)(pr - c->pairs) + 1;
        if (!pr->indexed && pr->nreq > CHK_PAIR_SCAN) {
            pr->indexed = 1;
            for (uint32_t i = 0; i < pr->nreq; i++) {
                struct chk_flow *g = &c->flows[pr->req[i]];
                for (unsigned k = 0; k < g->nindexed; k++)
                    psn_index_put(c, g, g->indexed[k]);
            }
        }
    } else {
        pr = &c->pairs[f->pair - 1];
    }
    pair_index(c, f, pr, psn);
}

/* Was PSN r requested by flow f behind its first PSN (recorded after the
 * flow's first request: a resend of an original sent before the capture
 * began, or an original the network delayed behind the first one ahead of
 * the tap, netem reorder on the requester's egress)?  Its answers are f's
 * either way.  (Before, a responder's answers to such requests, its
 * sequence NAK naming the flow's real first PSN among them, made a stream
 * of their own, which the replay never saw.) */
static int psn_seen_behind(const struct chk_flow *f, uint32_t r)
{
    for (unsigned i = 0; i < f->ngaps; i++)
        if (f->gaps[i].resent == 2 && chk_psn_diff(r, f->gaps[i].lo) >= 0 &&
            chk_psn_diff(r, f->gaps[i].hi) < 0)
            return 1;
    return 0;
}

/* The one unbound request flow of transport tr from a to b whose requests
 * include PSN r; NULL when none does or several do (*several set). */
static struct chk_flow *pair_match(struct chk *c, const struct chk_pair *pr,
                                   unsigned tr, uint32_t r, int *several)
{
    struct chk_flow *fit = NULL;
    unsigned n = 0;
    struct chk_key k;
    uint32_t v = 0;
    if (pr->indexed) {
        chk_psn_key(&k, &pr->a, &pr->b, r);
        v = chk_key_get(c, &k);
    }
    if (v && v != CHK_SLOT_AMBIGUOUS) {
        struct chk_flow *g = &c->flows[v - 1];
        if (g->live && !g->s.req_qpn_known && !(g->tr_known && g->tr != tr) &&
            (psn_in_window(g, r) || psn_seen_behind(g, r))) {
            if (several)
                *several = 0;
            return g;
        }
    }
    for (uint32_t i = 0; i < pr->nreq; i++) {
        struct chk_flow *g = &c->flows[pr->req[i]];
        if (g->s.req_qpn_known || (g->tr_known && g->tr != tr))
            continue;
        if (psn_in_window(g, r) || psn_seen_behind(g, r)) {
            fit = g;
            n++;
        }
    }
    if (several)
        *several = n > 1;
    return n == 1 ? fit : NULL;
}

static void read_msn_same(struct chk *c, struct chk_flow *f,
                          const struct ibw_pkt *p,
                          const struct ibw_opcode_info *oi);

static void judge_response(struct chk *c, struct chk_flow *f,
                           const struct ibw_pkt *p);

/* Hand what flow f saw in the frame being judged to the caller's event
 * hook (check.h: chk_event), when there is one. */
static inline void flow_event(struct chk *c, const struct chk_flow *f,
                              unsigned kind, const struct ibw_pkt *p,
                              uint32_t psn)
{
    if (!c->o.event)
        return;
    struct chk_event e = {kind, c->frame, c->ts_ns, &f->s, p, psn,
                          NULL, NULL, NULL};
    c->o.event(c->o.user, &e);
}

/* Hold a copy of response p on flow f until its request shows up. */
static void hold(struct chk *c, struct chk_flow *f, const struct ibw_pkt *p,
                 int truncated)
{
    if (f->nheld == f->capheld) {
        unsigned n = f->capheld ? f->capheld * 2 : 4;
        struct chk_held *nh = realloc(f->held, n * sizeof *nh);
        if (!nh) {
            judge_response(c, f, p);
            return;
        }
        f->held = nh;
        f->capheld = n;
    }
    struct chk_held *h = &f->held[f->nheld];
    h->bytes = malloc(p->len ? p->len : 1);
    if (!h->bytes) {
        judge_response(c, f, p);
        return;
    }
    memcpy(h->bytes, p->data, p->len);
    h->len = (uint32_t)p->len;
    h->link = p->link;
    h->truncated = (uint8_t)truncated;
    h->frame = c->frame;
    h->ts_ns = c->ts_ns;
    f->nheld++;
}

/* Judge held response 0 of f now, as the frame it was. */
static void release(struct chk *c, struct chk_flow *f)
{
    struct chk_held h = f->held[0];
    memmove(f->held, f->held + 1, (f->nheld - 1) * sizeof *f->held);
    f->nheld--;
    uint64_t frame = c->frame, ts = c->ts_ns;
    struct chk_flow *cur = c->cur_flow;
    struct ibw_pkt p;
    ibw_parse(h.bytes, h.len, (enum ibw_link)h.link, &p);
    c->frame = h.frame;
    c->ts_ns = h.ts_ns;
    c->cur_flow = f;
    judge_response(c, f, &p);
    c->frame = frame;
    c->ts_ns = ts;
    c->cur_flow = cur;
    free(h.bytes);
}

/* Is p, at PSN r inside the span of a READ seen, the FIRST (or ONLY)
 * response of a READ re-issued from r that the capture may still record
 * late?  (The re-issue is answered from its own PSN.) */
static int reissue_ahead(struct chk_flow *f, const struct ibw_pkt *p, uint32_t r)
{
    const struct ibw_opcode_info *oi = ibw_opcode_info(p->opcode);
    if (oi->kind != IBW_OPK_READ_RESP || !(oi->flags & IBW_OPF_FIRST))
        return 0;
    int inside = 0;
    for (unsigned k = 0; k < f->nout; k++) {
        const struct chk_outst *o = chk_outst_at(f, k);
        if (o->kind != IBW_OPK_READ || !chk_outst_covers(o, r))
            continue;
        if (o->psn == r)
            return 0; /* a READ (or a re-issue) starts there */
        inside = 1;
    }
    return inside;
}

/* Judge the held responses that can be judged now: their request was seen
 * (the response was recorded early: skew), they can never be matched, or
 * they waited longer than the skew window (or force: end of capture). */
static void drain(struct chk *c, struct chk_flow *f, int force)
{
    while (f->nheld) {
        const struct chk_held *h = &f->held[0];
        int expired = c->ts_ns >= h->ts_ns && c->ts_ns - h->ts_ns > skew_window(c);
        if (!force && !expired && f->s.responses_only)
            break;
        if (!force && !expired && !f->s.responses_only) {
            struct ibw_pkt p;
            ibw_parse(h->bytes, h->len, (enum ibw_link)h->link, &p);
            uint32_t r = ibw_bth_get_psn(hdr(&p, IBW_HDR_BTH));
            if (reissue_ahead(f, &p, r))
                break;
            if (resp_in_window(f, &p, r)) {
                if (c->ts_ns > h->ts_ns) {
                    uint64_t sk = c->ts_ns - h->ts_ns;
                    if (!f->skew_frame)
                        f->skew_frame = h->frame;
                    if (sk > f->s.skew_ns)
                        f->s.skew_ns = sk;
                    f->noted = 1;
                }
            } else if (psn_ahead(f, r)) {
                break;
            }
        }
        /* the capture ended before the skew window after it did: its
         * request may come later than the capture's last frame */
        f->at_end = (uint8_t)(force && !expired && c->finished);
        release(c, f);
        f->at_end = 0;
    }
}

/* Response stream s (responses to one requester QP, no flow yet) belongs
 * to flow f: its responses go there from now on. */
static void merge_stream(struct chk *c, struct chk_flow *s, struct chk_flow *f,
                         uint32_t qpn)
{
    struct chk_pair *pr = s->pair ? &c->pairs[s->pair - 1] : NULL;
    if (pr)
        chk_pair_remove(pr->resp, &pr->nresp, flow_index(c, s));
    s->pair = 0;
    chk_flow_bind(c, f, qpn);
    f->s.paired_by = "psn";
    for (unsigned i = 0; i < s->nheld; i++) {
        if (f->nheld == f->capheld) {
            unsigned n = f->capheld ? f->capheld * 2 : 4;
            struct chk_held *nh = realloc(f->held, n * sizeof *nh);
            if (!nh) {
                free(s->held[i].bytes);
                continue;
            }
            f->held = nh;
            f->capheld = n;
        }
        f->held[f->nheld++] = s->held[i];
    }
    s->nheld = 0;
    for (unsigned i = 0; i < sizeof f->pkt_said; i++) /* said once a flow */
        f->pkt_said[i] |= s->pkt_said[i];
    if (!s->s.responses)
        s->dead = 1;
}

void chk_flow_cm_bind(struct chk *c, struct chk_flow *f, uint32_t req_qpn)
{
    /* Responses recorded before the CM message that names their QPs (one
     * direction late) wait in a stream keyed by their QPN: they are f's. */
    struct chk_flow *s = chk_flow_of_response(c, &f->s.resp, &f->s.req, req_qpn);
    if (s && s != f && s->s.responses_only) {
        merge_stream(c, s, f, req_qpn);
        f->s.paired_by = "cm";
        return;
    }
    chk_flow_bind(c, f, req_qpn);
}

/* A request on unbound flow f: do the unpaired response streams of its
 * endpoint pair answer it, and it alone? */
static void pair_streams(struct chk *c, struct chk_flow *f)
{
    if (!f->pair)
        return;
    struct chk_pair *pr = &c->pairs[f->pair - 1];
    for (uint32_t i = 0; i < pr->nresp && !f->s.req_qpn_known; i++) {
        struct chk_flow *s = &c->flows[pr->resp[i]];
        for (unsigned k = 0; k < s->nheld; k++) {
            struct ibw_pkt p;
            ibw_parse(s->held[k].bytes, s->held[k].len,
                      (enum ibw_link)s->held[k].link, &p);
            uint32_t r = ibw_bth_get_psn(hdr(&p, IBW_HDR_BTH));
            int several = 0;
            if (pair_match(c, pr, f->tr, r, &several) == f) {
                uint32_t qpn = s->s.req_qpn;
                merge_stream(c, s, f, qpn);
                drain(c, f, 0);
                return;
            }
            if (several)
                s->s.responses_only = 2; /* ambiguous */
        }
    }
}

/* The flow a response of transport tr from src to dst:qpn answers when no
 * flow is bound to it yet: the one unbound request flow of tr from dst to
 * src whose PSNs include it; else a response stream (keyed by a QPN no
 * packet carries) that waits for such a flow. */
static struct chk_flow *flow_for_response(struct chk *c,
                                          const struct chk_addr *src,
                                          const struct chk_addr *dst,
                                          uint32_t qpn, uint32_t psn,
                                          unsigned tr, int *waiting)
{
    struct chk_pair *pr = chk_pair_get(c, dst, src, 1);
    int several = 0;
    struct chk_flow *f = pr ? pair_match(c, pr, tr, psn, &several) : NULL;
    *waiting = 0;
    if (f) {
        chk_flow_bind(c, f, qpn);
        f->s.paired_by = "psn";
        return f;
    }
    f = chk_flow_get(c, dst, src, CHK_QPN_RESPONSES_ONLY | qpn, 1);
    if (!f)
        return NULL;
    f->s.resp_qpn_known = 0;
    f->s.resp_qpn = 0;
    f->s.responses_only = several ? 2 : 1;
    chk_flow_bind(c, f, qpn);
    if (pr && !pair_push(&pr->resp, &pr->nresp, &pr->capresp, flow_index(c, f)))
        f->pair = (uint32_t)(pr - c->pairs) + 1;
    *waiting = 1;
    return f;
}

/* ---- requests ---- */

/* The resend at `frame` waited at most `waited` ns after an RNR NAK of
 * timer_us: too short (and after it at all), FLOW-RNR-WAIT. */
static void rnr_wait(struct chk *c, int64_t waited, uint32_t timer_us,
                     uint64_t frame)
{
    if (waited <= 0 || waited * 10 >= (int64_t)timer_us * 9000)
        return;
    uint64_t saved = c->frame;
    c->frame = frame;
    chk_report(c, CHK_R_FLOW_RNR_WAIT,
               "resent after %lld us at most, RNR timer %u us",
               (long long)(waited / 1000), timer_us);
    c->frame = saved;
}

/* The resend round that began at PSN round_start (recorded at round_ts,
 * frame round_frame) followed a NAK of kind `pending` naming PSN e,
 * recorded at nak_ts: where did it start, and when? */
static void nak_round(struct chk *c, struct chk_flow *f, unsigned pending,
                      uint32_t e, uint64_t nak_ts, uint32_t rnr_us)
{
    uint32_t x = f->round_start;
    /* Resending from after the PSN the NAK named skips PSNs the responder
     * never acknowledged: wrong whether or not the NAK arrived.  From
     * before it: the NAK may have been lost after the capture point, and
     * a timeout resends from the oldest unacknowledged PSN.  A frame its
     * receiver drops (a bad CRC, or malformed: a runt), recorded between
     * the request before the round and the round's first, may have been
     * the round's first, from the PSN the NAK named: nothing shows a skip
     * (the responder, having dropped it, NAKs that PSN again).  Before,
     * that NAK again was taken as proof of the skip (FLOW-GBN on clean
     * traffic whose link corrupts or cuts frames: the icrc-small-unchecked
     * and runt-accept controls). */
    if (chk_psn_diff(x, e) > 0 &&
        !corrupt_between(c, f, f->round_since, f->round_frame)) {
        /* Unless the capture missed the resends of the PSNs skipped:
         * settled by what the responder does next. */
        f->gbn_suspect = (uint8_t)pending;
        f->gbn_stop = 0;
        f->gbn_e = e;
        f->gbn_x = x;
        f->gbn_frame = f->round_frame;
    }
    /* A round recorded before the RNR NAK (judged here because the NAK
     * may have reached the requester first, its direction recorded late)
     * came before it when neither direction is late (d = 0, which nothing
     * rules out).  It then answered no NAK: a resend only the local ACK
     * timer explains, which it does when the PSN's copy before was sent a
     * timeout or more earlier (the shortest the requester may use:
     * chk_ack_timeout_min), and the NAK answered one of the two copies.
     * Broken for every d only when no timeout explains it. */
    if (pending == CHK_PEND_RNR && x == e &&
        (f->round_ts > nak_ts || f->round_gap_ns < chk_ack_timeout_min(f)))
        rnr_wait(c, sent_after(c, f, f->round_ts, nak_ts), rnr_us,
                 f->round_frame);
}

/* The NAK just made pending, recorded after the last resend round: may
 * the round have followed it all the same (the responses' direction
 * recorded late)?  Then the round is judged against the last NAK that may
 * have come before it, once no NAK recorded later can (back_settle).  A
 * round from before the PSN the NAK named is what a timeout sends as well:
 * it leaves the NAK to the next round, as it would if recorded after it. */
static void nak_after_round(struct chk *c, struct chk_flow *f)
{
    chk_resend_nak(f, c->ts_ns, (uint64_t)(skew_max(c, f) > 0 ? skew_max(c, f) : 0),
                   f->pend_psn, f->pending == CHK_PEND_RNR ? f->pend_rnr_us : 0);
    f->pend_back = f->round_open && c->ts_ns >= f->round_ts &&
                   chk_psn_diff(f->round_start, f->pend_psn) >= 0 &&
                   sent_after(c, f, f->round_ts, c->ts_ns) > 0;
}

static void back_settle(struct chk *c, struct chk_flow *f, int force)
{
    if (!force && sent_after(c, f, f->round_ts, c->ts_ns) > 0)
        return;
    f->pend_back = 0;
    f->round_open = 0;
    nak_round(c, f, f->pending, f->pend_psn, f->pend_ts, f->pend_rnr_us);
    f->pending = CHK_PEND_NONE;
}

/* Was the request at prev a READ whose span is not known yet and may
 * reach up to psn - 1 (the next request resent after it then skips
 * nothing)? */
static int read_may_span(struct chk_flow *f, uint32_t prev, uint32_t psn)
{
    const struct chk_outst *o = chk_outst_find(f, prev, IBW_OPK_READ);
    int32_t d = chk_psn_diff(psn, prev);
    return o && o->psn == prev && !o->span && d > 0 &&
           chk_outst_covers(o, chk_psn_add(psn, CHK_PSN_MASK));
}

static void gbn_stopped(struct chk *c, struct chk_flow *f, uint32_t psn);

/* How long, at most, the requester's local ACK timer can have run when it
 * sent the request recorded now, since an acknowledgement of new PSNs
 * restarted it (UINT64_MAX: none known).  The acknowledgement reached the
 * requester no sooner than recorded, plus the skew the flow allows.  With
 * the requests' direction recorded late (responses recorded before their
 * requests: lat_min < 0) a response recorded up to that much before the
 * request may be its answer: the last one recorded before that counts
 * (engine-rc-rnr, vantage-post-loss with the requester's side delayed,
 * check_vantage_skew). */
static uint64_t progress_quiet(const struct chk *c, const struct chk_flow *f)
{
    uint64_t late = f->have_lat && f->lat_min < 0 ? (uint64_t)-f->lat_min : 0;
    uint64_t best = 0;
    for (unsigned k = 0; k < CHK_RJ_PROG; k++) {
        uint64_t t = f->rj_prog[k];
        if (t && t + late < c->ts_ns && t > best)
            best = t;
    }
    if (!best)
        return UINT64_MAX;
    int64_t sk = skew_max(c, f);
    return c->ts_ns - best + (sk > 0 ? (uint64_t)sk : 0);
}

static void request(struct chk *c, struct chk_flow *f, const struct ibw_pkt *p,
                    const struct ibw_opcode_info *oi)
{
    const uint8_t *b = hdr(p, IBW_HDR_BTH);
    uint32_t psn = ibw_bth_get_psn(b);
    uint16_t pkey = ibw_bth_get_pkey(b);
    unsigned pos = oi->flags & POS_MASK;
    uint64_t since = f->req_frame; /* the request before this one */
    f->req_frame = c->frame;
    f->last_req_ts = c->ts_ns;
    f->last_req_frame = c->frame;
    f->s.requests++;
    if (f->nmsn_wait)
        chk_msn_due(c, f, 0); /* before this request counts */
    if (f->pend_back)
        back_settle(c, f, 0);
    if (f->rj_open)
        chk_resend_due(c, f, 0);

    if (!f->have_pkey) {
        f->have_pkey = 1;
        f->pkey = pkey;
    } else if (pkey != f->pkey) {
        chk_report(c, CHK_R_FLOW_PKEY, "bth.pkey 0x%04x, the flow's is 0x%04x",
                   pkey, f->pkey);
    }
    pmtu_rules(c, f, p, oi);
    if (!f->have_psn) {
        f->have_psn = 1;
        uint32_t start = psn;
        /* IBA: each side starts at the PSN its own REQ/REP announced;
         * Linux IPoIB-CM starts both at the REP's, so either passes.  A
         * first request a little past it is not yet a violation: RoCEv2
         * runs over IP, where the first requests may arrive after later
         * ones (netem reorder before the capture point: the timestamps
         * cannot show it).  The flow is tracked from the starting PSN and
         * CM-QPN waits for a request at it (check_cm_psn_open). */
        if (f->cm_psn_pending && psn != f->cm_start_psn &&
            psn != f->cm_alt_psn) {
            int32_t da = chk_psn_diff(psn, f->cm_start_psn),
                    db = chk_psn_diff(psn, f->cm_alt_psn);
            if (da > 0 && da <= CHK_CM_AHEAD && (db <= 0 || da <= db))
                start = f->cm_start_psn;
            else if (db > 0 && db <= CHK_CM_AHEAD)
                start = f->cm_alt_psn;
            else
                chk_report(c, CHK_R_CM_QPN,
                           "first request PSN 0x%06x, CM negotiated starting "
                           "PSN 0x%06x (peer's 0x%06x)", psn, f->cm_start_psn,
                           f->cm_alt_psn);
            if (start != psn) {
                f->cm_psn_ahead = 1;
                f->cm_ahead_psn = psn;
                f->cm_ahead_frame = c->frame;
            }
        }
        f->first_psn = f->next_psn = start;
        f->prev_psn = chk_psn_add(start, CHK_PSN_MASK);
        f->prev_end = start;
        f->cm_psn_pending = 0;
        if (start == psn && !(pos & IBW_OPF_FIRST)) {
            chk_report(c, CHK_R_FLOW_START_MID,
                       "flow first seen at %s PSN 0x%06x", oi->name, psn);
            f->s.started_mid = 1;
            f->msg = CHK_MSG_UNKNOWN;
        }
    }
    if (f->cm_psn_ahead && psn == f->first_psn)
        f->cm_psn_ahead = 0; /* the starting PSN came after all */
    int32_t d = chk_psn_diff(psn, f->next_psn);
    /* Not the PSN after the previous request's (after a READ whose span is
     * not known yet, anywhere that span may end): a new resend round, or
     * the return to new PSNs after one that stopped short. */
    int32_t after_prev = chk_psn_diff(psn, f->prev_psn);
    int jump = f->span_unknown && !f->in_retrans
                   ? !(after_prev > 0 && (uint32_t)after_prev <= f->span_max)
                   : psn != f->prev_end;
    if (d < 0) {
        /* Back to a PSN already sent: a retransmission. */
        f->s.retransmissions++;
        chk_ack_read_reissue(f, psn);
        f->retx_ts = c->ts_ns;
        f->have_retx = 1;
        if (f->rr_pend && c->ts_ns <= f->rr_p_due &&
            (f->rr_p_noreq || (chk_psn_diff(psn, f->rr_p_read) >= 0 &&
                               chk_psn_diff(psn, f->rr_p_psn) <= 0)))
            f->rr_pend = 0; /* the READ may have been replayed */
        flow_event(c, f, CHK_EV_RETRANSMISSION, p, psn);
        int round = !f->in_retrans || chk_psn_diff(psn, f->prev_end) < 0;
        if (round && f->in_retrans)
            chk_resend_stop(f, f->prev_end); /* where the round before stopped */
        if (round) {
            f->round_start = psn;
        } else if (jump && !(f->have_ack &&
                             chk_psn_diff(f->last_ack,
                                          chk_psn_add(psn, CHK_PSN_MASK)) >= 0) &&
                   !read_may_span(f, f->prev_psn, psn)) {
            /* A resend round skipping PSNs not acknowledged: their resends
             * were not captured (or the requester skipped them), unless
             * the capture saw them resent already (a round this one
             * interrupted to re-issue a READ goes on where it was). */
            gap_add_unseen(c, f, f->prev_end, psn, GAP_RESENT, since,
                           c->frame);
        }
        /* A resend round that starts at or before a gap's first PSN (where
         * the responder's NAK or the requester's timeout sends it back) and
         * covers the gap: the network lost it, not (only) the capture. */
        struct chk_gap *g = gap_of(f, psn);
        if (g && g->resent != 2 && chk_psn_diff(f->round_start, g->lo) <= 0 &&
            psn == chk_psn_add(g->hi, CHK_PSN_MASK))
            g->resent = 1;
        /* Behind the flow's first PSN (while the flow has used fewer than
         * half the PSN space, so "behind" means something): a resend of
         * an original the capture never saw. */
        if (!g && chk_psn_diff(psn, f->first_psn) < 0 &&
            chk_psn_diff(f->next_psn, f->first_psn) >= 0) {
            g = gap_add_unseen(c, f, psn, chk_psn_add(psn, 1), GAP_CORRUPT,
                               0, f->s.first_frame);
            if (g)
                g->resent = 2; /* 2: its original never seen at all */
        }
        if (round || jump) {
            f->in_retrans = 1;
            f->msg = msg_state_before(f, psn);
        }
        if (round && f->gbn_suspect && chk_psn_diff(psn, f->gbn_e) <= 0)
            /* back to the NAK's PSN after all: its first resend may have
             * been corrupted */
            f->gbn_suspect = f->gbn_stop = 0;
        if (round && f->pend_back)
            back_settle(c, f, 1); /* the round before followed that NAK */
        if (f->pending != CHK_PEND_NONE && !round) {
            /* A resend round already under way when the NAK was sent goes
             * on (the NAK reaches the requester later); passing the PSN
             * the NAK named settles it. */
            if (psn == f->pend_psn && !f->pend_back)
                f->pending = CHK_PEND_NONE;
        } else if (round) {
            /* a resend round: which NAK, if any, did it follow? */
            f->round_open = 1;
            f->round_ts = c->ts_ns;
            f->round_frame = c->frame;
            f->round_since = since;
            const struct chk_hist *was = hist_at(f, psn);
            f->round_gap_ns = was && c->ts_ns >= was->copy_ts
                                  ? c->ts_ns - was->copy_ts : UINT64_MAX;
            /* the NAK pending sends the requester back to the PSN it
             * names: a round from before it is none of its doing */
            /* how long the requester's local ACK timer can have run
             * since the last acknowledgement of new PSNs restarted it:
             * recorded before the round, it reached the requester at most
             * the skew the flow allows later */
            uint64_t quiet = progress_quiet(c, f);
            chk_resend_round(c, f, psn, f->round_gap_ns, quiet,
                             (f->pending != CHK_PEND_NONE &&
                              chk_psn_diff(psn, f->pend_psn) >= 0) ||
                                 f->pend_back,
                             /* or a copy its receiver dropped (a bad
                              * CRC, a runt) just before: the round may
                              * have begun there (check_vantage_sim) */
                             psn == f->prev_psn ||
                                 corrupt_between(c, f, since, c->frame),
                             ibw_bth_get_opcode(b));
            if (f->pending != CHK_PEND_NONE &&
                sent_after(c, f, c->ts_ns, f->pend_ts) > 0) {
                f->round_open = 0;
                nak_round(c, f, f->pending, f->pend_psn, f->pend_ts,
                          f->pend_rnr_us);
                f->pending = CHK_PEND_NONE;
            } else if (f->pending == CHK_PEND_RNR && psn == f->pend_psn &&
                       f->pend_prev) {
                /* Recorded after the RNR NAK but sent before it: the
                 * request that NAK answers, sent after the one before. */
                rnr_wait(c, sent_after(c, f, c->ts_ns, f->pend_prev_ts),
                         f->pend_prev_us, c->frame);
                f->pend_prev = 0;
            }
        }
        f->prev_psn = psn;
        f->prev_end = chk_psn_add(psn, 1);
        chk_retrans_resend(c, f, p, oi, psn);
        chk_request_resent(c, f, p, oi, psn);
        if (oi->kind == IBW_OPK_READ || oi->kind == IBW_OPK_ATOMIC) {
            struct chk_outst *o = chk_outst_find(f, psn, oi->kind);
            uint32_t pmtu = chk_flow_pmtu(c, f);
            int32_t k = o ? chk_psn_diff(psn, o->psn) : 0;
            const uint8_t *reth = hdr(p, IBW_HDR_RETH);
            uint32_t len = reth ? ibw_reth_get_dmalen(reth) : 0;
            /* A READ re-issued from inside the original's response PSNs
             * asks only for the rest (IBA 9.7.5.1). */
            if (o && oi->kind == IBW_OPK_READ &&
                (k > 0 || !chk_hist_get(f, psn)))
                chk_retrans_read_reissue(c, f, p, o, psn, k);
            if (o && k == 0) {
                o->answered = 0; /* the responder answers it again */
                if (o->span)
                    f->prev_end = chk_psn_add(psn, o->span);
            } else if (oi->kind == IBW_OPK_READ && reth) {
                /* The re-issue has responses of its own, FIRST at psn. */
                uint32_t msgs = o ? o->msgs : 0xFFFFFFFFu;
                struct chk_outst *n = outst_add(f);
                n->psn = psn;
                n->kind = IBW_OPK_READ;
                n->len = len;
                n->msgs = msgs; /* the original's count: it is not executed
                                   again */
                n->have_va = 1;
                n->va = ibw_reth_get_va(reth);
                n->rkey = ibw_reth_get_rkey(reth);
                n->span = chk_read_span(len, pmtu);
                if (n->span)
                    f->prev_end = chk_psn_add(psn, n->span);
            } else if (oi->kind == IBW_OPK_ATOMIC && !o) {
                /* The resend of an atomic whose original the capture
                 * missed (or saw corrupted): it is answered all the same. */
                struct chk_outst *n = outst_add(f);
                n->psn = psn;
                n->kind = IBW_OPK_ATOMIC;
                n->span = 1;
                n->msgs = 0xFFFFFFFFu;
            }
        }
        seen_add(f, psn, f->prev_end, 0);
        opseq(c, f, oi);
        struct chk_hist *sent = hist_at(f, psn);
        if (sent) { /* when its latest copy came (resent_since_nak) */
            sent->judged = c->st.frames;
            sent->copy_ts = c->ts_ns;
        }
        return;
    }
    if (d > 0) {
        if (f->span_unknown && (uint32_t)d + 1 <= f->span_max) {
            /* The READ before consumed at most d + 1 PSNs: exactly that
             * many, or fewer and the capture missed the requests between
             * (lost, or dropped for a bad CRC: a lossy link makes both
             * look alike).  Only the fewest PSNs the READ can take at any
             * PMTU settles it; else its span waits for the PMTU or its
             * LAST response, and what was sent between is not known. */
            struct chk_outst *o = f->nout ? chk_outst_at(f, f->nout - 1) : NULL;
            if (o && o->kind == IBW_OPK_READ && !o->span) {
                if ((uint32_t)d + 1 == chk_read_span(o->len, 4096)) {
                    o->span = (uint32_t)d + 1;
                } else {
                    o->span_max = (uint32_t)d + 1;
                    f->msg = CHK_MSG_UNKNOWN;
                    f->wr_open = 0;
                }
            }
        } else {
            /* After a READ whose span is not known, the PSNs it may take
             * are no part of the gap: it begins past the largest span. */
            uint32_t lo = f->span_unknown ? chk_psn_add(f->prev_psn, f->span_max)
                                          : f->next_psn;
            gap_add_unseen(c, f, lo, psn, GAP_CORRUPT, since, c->frame);
            f->msg = CHK_MSG_UNKNOWN;
            f->wr_open = 0;
        }
    } else if (jump && f->in_retrans) {
        /* Back at the new PSNs after a resend that stopped short (a
         * second timeout restarted it): the sequence state before this
         * PSN is what was first sent there. */
        f->msg = msg_state_before(f, psn);
        gbn_stopped(c, f, psn);
    }
    /* A READ inside the span a READ before may take (its length not known
     * at this PMTU) may be its re-issue rather than a new message, until
     * the PMTU or that READ's LAST response says where the span ends.  A
     * READ at or past the largest span it can take (PMTU 256) is new. */
    if (f->span_unknown && oi->kind == IBW_OPK_READ && after_prev > 0 &&
        (uint32_t)after_prev < f->span_max) {
        struct chk_outst *po = f->nout ? chk_outst_at(f, f->nout - 1) : NULL;
        if (po && po->kind == IBW_OPK_READ && po->psn == f->prev_psn)
            chk_msn_doubt(f, po); /* this READ is the ring's next entry */
        else
            f->msn_inexact = 1;
    }
    f->span_unknown = 0;
    f->in_retrans = 0;
    lat_request(c, f, psn);
    uint8_t cls = chk_request_class(c, f, p, oi, psn);
    opseq(c, f, oi);
    write_len(c, f, p, oi);
    struct chk_hist *h = hist_put(f, psn, p, cls);
    h->judged = c->st.frames;
    h->copy_ts = c->ts_ns;
    f->prev_psn = psn;
    uint32_t span = 1;
    struct chk_outst *o = NULL;
    if (oi->kind == IBW_OPK_READ || oi->kind == IBW_OPK_ATOMIC) {
        o = outst_add(f);
        o->psn = psn;
        o->kind = oi->kind;
        o->span = 1;
        if (oi->kind == IBW_OPK_READ) {
            const uint8_t *reth = hdr(p, IBW_HDR_RETH);
            f->s.reads++;
            o->len = reth ? ibw_reth_get_dmalen(reth) : 0;
            if (reth) {
                o->have_va = 1;
                o->va = ibw_reth_get_va(reth);
                o->rkey = ibw_reth_get_rkey(reth);
            }
            o->span = reth ? chk_read_span(o->len, chk_flow_pmtu(c, f)) : 0;
            if (!reth)
                o->len = 0x7FFFFFFFu; /* cut before the RETH: any length */
            if (o->span) {
                span = o->span;
            } else {
                f->span_unknown = 1;
                f->span_max = chk_read_span(o->len, 256);
            }
        } else {
            f->s.atomics++;
        }
    }
    f->next_psn = chk_psn_add(psn, span);
    f->prev_end = f->next_psn;
    if (pos & IBW_OPF_LAST) {
        f->msgs_done++;
        f->s.messages++;
    }
    h->msgs = (uint32_t)f->msgs_done;
    if (o)
        o->msgs = (uint32_t)f->msgs_done;
}

/* ---- responses ---- */

/* A response acknowledging up to r; aeth: its AETH (NULL: none). */
static void note_ack(struct chk *c, struct chk_flow *f, uint32_t r,
                     const uint8_t *aeth)
{
    chk_resend_acked(f, r);
    if (!f->have_ack || chk_psn_diff(r, f->last_ack) > 0) {
        f->have_ack = 1;
        f->last_ack = r;
        /* the requester's local ACK timer restarts */
        f->rj_prog[f->rj_prog_next] = c->ts_ns;
        f->rj_prog_next = (uint8_t)((f->rj_prog_next + 1) % CHK_RJ_PROG);
    }
    if (aeth && chk_psn_diff(r, f->last_ack) == 0) {
        uint32_t m = ibw_aeth_get_msn(aeth);
        if (!f->have_ack_msn || chk_psn_diff(m, f->last_ack_msn) > 0)
            f->last_ack_msn = m;
        f->have_ack_msn = 1;
    }
}

/* Where packet `off` of READ o stands and what it carries, as the READ's
 * length and the PMTU fix it; judged packet by packet, so that responses
 * lost, duplicated or reordered on their way do not matter.  0 when the
 * response fits o, else a reason in why. */
static int read_resp_fits(const struct chk_outst *o, uint32_t off,
                          const struct ibw_opcode_info *oi, uint32_t pl,
                          uint32_t pmtu, char *why, size_t n)
{
    unsigned pos = oi->flags & POS_MASK;
    uint32_t span = o->span;
    if (o->len == 0x7FFFFFFFu)
        return 0; /* its RETH was cut off: nothing to hold it to */
    if (!span) {
        /* PMTU unknown: position only, and an ONLY carries it all */
        if ((pos & IBW_OPF_FIRST) && off) {
            snprintf(why, n, "%u PSNs into the READ at 0x%06x", off, o->psn);
            return -1;
        }
        if (!(pos & IBW_OPF_FIRST) && !off) {
            snprintf(why, n, "at the first PSN of the READ at 0x%06x", o->psn);
            return -1;
        }
        if (pos == (IBW_OPF_FIRST | IBW_OPF_LAST) && pl != o->len) {
            snprintf(why, n, "%u bytes, the READ at 0x%06x asked for %u", pl,
                     o->psn, o->len);
            return -1;
        }
        return 0;
    }
    unsigned want = span == 1            ? (IBW_OPF_FIRST | IBW_OPF_LAST)
                    : off == 0           ? IBW_OPF_FIRST
                    : off == span - 1    ? IBW_OPF_LAST
                                         : IBW_OPF_MIDDLE;
    if (pos != want) {
        snprintf(why, n, "PSN %u of the %u a READ of %u bytes at 0x%06x "
                 "consumes takes READ RESPONSE %s", off + 1, span, o->len,
                 o->psn,
                 want == (IBW_OPF_FIRST | IBW_OPF_LAST) ? "ONLY"
                 : want == IBW_OPF_FIRST                ? "FIRST"
                 : want == IBW_OPF_LAST                 ? "LAST"
                                                        : "MIDDLE");
        return -1;
    }
    if (pos & IBW_OPF_LAST) {
        uint32_t rest = o->len - (span - 1) * (pmtu ? pmtu : 0);
        if (pmtu && pl != rest) {
            snprintf(why, n, "%u bytes, the last %u of the %u the READ at "
                     "0x%06x asked for", pl, rest, o->len, o->psn);
            return -1;
        }
    }
    return 0;
}

static void read_response(struct chk *c, struct chk_flow *f,
                          const struct ibw_pkt *p,
                          const struct ibw_opcode_info *oi, uint32_t r)
{
    pmtu_rules(c, f, p, oi);
    settle_spans(c, f);
    uint32_t pmtu = chk_flow_pmtu(c, f);
    struct chk_outst *first = NULL;
    char why[200] = "";
    /* The newest READ covering r first (a re-issue), then older ones (a
     * late response to the original). */
    for (unsigned k = f->nout; k-- > 0;) {
        struct chk_outst *o = chk_outst_at(f, k);
        if (o->kind != IBW_OPK_READ || !chk_outst_covers(o, r))
            continue;
        uint32_t off = (uint32_t)chk_psn_diff(r, o->psn);
        char w[200];
        if (!read_resp_fits(o, off, oi, p->payload_wire_len, pmtu, w, sizeof w)) {
            f->read_ok = 1;
            if (f->ar_open)
                chk_ack_read_resp(c, f, o, r, hdr(p, IBW_HDR_AETH));
            o->resp_seen = 1;
            if (oi->flags & IBW_OPF_LAST) {
                o->answered = 1;
                if (!o->span)
                    span_settled(f, o, off + 1);
                if (o->next_inside)
                    chk_msn_read_end(f, k, chk_psn_add(r, 1));
            }
            return;
        }
        if (!first) {
            first = o;
            snprintf(why, sizeof why, "%s", w);
        }
    }
    if (first) {
        /* a zero-length READ: C9-88's own rule */
        chk_report(c, first->len ? CHK_R_FLOW_READ_RESP : CHK_R_FLOW_ZERO_LEN,
                   "%s at PSN 0x%06x: %s", oi->name, r, why);
        return;
    }
    const struct chk_hist *h = chk_hist_get(f, r);
    if (h)
        chk_report(c, CHK_R_FLOW_RESP_MATCH,
                   "%s at PSN 0x%06x, which was sent as %s", oi->name, r,
                   ibw_opcode_info(h->opcode)->name);
    else if (psn_in_window(f, r) && !f->any_gap)
        chk_report(c, CHK_R_FLOW_RESP_MATCH,
                   "%s at PSN 0x%06x matches no RDMA READ request", oi->name,
                   r);
}

static void gbn_report(struct chk *c, struct chk_flow *f)
{
    uint64_t saved = c->frame;
    c->frame = f->gbn_frame;
    if (f->gbn_stop)
        chk_report(c, CHK_R_FLOW_GBN,
                   "new PSN 0x%06x sent with 0x%06x-0x%06x not resent after "
                   "the NAK; the responder NAKs 0x%06x again", f->gbn_x,
                   f->gbn_e, chk_psn_add(f->gbn_x, CHK_PSN_MASK), f->gbn_e);
    else
        chk_report(c, CHK_R_FLOW_GBN, "resent from PSN 0x%06x, the %s named "
                   "0x%06x", f->gbn_x,
                   f->gbn_suspect == CHK_PEND_RNR ? "RNR NAK" : "NAK", f->gbn_e);
    c->frame = saved;
    f->gbn_suspect = 0;
    f->gbn_stop = 0;
}

/* A resend round (from a request PSN: after a NAK or a timeout) stopped
 * at prev_end and the requester went on with new PSN psn: Go-Back-N
 * resends every PSN from where it starts up to what had been sent, so
 * [prev_end, psn) are skipped unless the capture missed their resends or
 * an ACK covered them.  (A READ re-issued from inside its span, for
 * responses missing, is no such round: the responder received everything
 * after it, and the requester may go on.)  A NAK naming prev_end again settles it as FLOW-GBN, a response
 * covering it as capture loss (gbn_settle); nothing by the end of the
 * capture, nothing said (the capture may end before the responder's turn). */
/* Was every request of [lo, hi) that the history holds (at least one)
 * recorded again after the last sequence NAK, in whatever order?  On a
 * network that reorders (RoCEv2 over IP; netem before the capture point)
 * a resend round's own packets may be recorded before its first one.  On a
 * flow whose requests reach the capture late (CAP-SKEW) a request recorded
 * within the skew window after the NAK may have been sent before it: only
 * a later copy counts. */
static int resent_since_nak(const struct chk *c, const struct chk_flow *f,
                            uint32_t lo, uint32_t hi)
{
    uint64_t after = f->nak_ts + (f->s.skew_ns ? chk_skew_window(c) : 0);
    int32_t n = chk_psn_diff(hi, lo);
    if (!f->nak_judged || n <= 0 || (uint32_t)n > CHK_HIST)
        return 0;
    unsigned held = 0;
    for (int32_t i = 0; i < n; i++) {
        const struct chk_hist *h = chk_hist_get(f, chk_psn_add(lo, (uint32_t)i));
        if (!h)
            continue; /* inside a READ's span, or never recorded */
        if (h->judged <= f->nak_judged || h->copy_ts < after)
            return 0;
        held++;
    }
    return held > 0;
}

static void gbn_stopped(struct chk *c, struct chk_flow *f, uint32_t psn)
{
    /* A frame with a bad CRC recorded since the round began may have been
     * the resend of any of them (its receiver dropped it: the NAK again). */
    if (!chk_hist_get(f, f->round_start) || f->gbn_suspect ||
        read_may_span(f, f->prev_psn, psn) ||
        corrupt_between(c, f, f->round_frame ? f->round_frame - 1 : 0,
                        c->frame) ||
        (f->have_ack &&
         chk_psn_diff(f->last_ack, chk_psn_add(psn, CHK_PSN_MASK)) >= 0) ||
        resent_since_nak(c, f, f->prev_end, psn))
        return;
    f->gbn_suspect = CHK_PEND_NAK_SEQ;
    f->gbn_stop = 1;
    f->gbn_e = f->prev_end;
    f->gbn_x = psn;
    f->gbn_frame = c->frame;
}

/* A resend round began after the PSN E a NAK named.  A response covering E
 * shows E reached the responder (its resend was lost by the capture); a
 * NAK naming E again shows the requester skipped it. */
/* Has the capture already shown that it misses requests of this flow: a
 * gap, a request PSN it never saw although the requester sent it (later
 * PSNs were seen; the responder received it, NAKed it, or had it resent)?
 * The stop-short judgement takes the capture to see every request the
 * requester sends; a capture behind the loss (a tap after a lossy qdisc on
 * the requester's egress, a mirror port dropping under load) does not see
 * a resend the network dropped either, and the responder's NAK again is
 * what that loss looks like. */
static int capture_misses_requests(const struct chk_flow *f)
{
    return f->ngaps > 0 || f->gap_overflow > 0;
}

static void gbn_settle(struct chk *c, struct chk_flow *f, uint32_t r, int nak)
{
    int32_t d = chk_psn_diff(r, f->gbn_e);
    if (nak && d == 0 && f->gbn_stop && capture_misses_requests(f)) {
        /* not decidable on this capture; the resend the NAK asks for is
         * judged as any other (FLOW-GBN's own round from E, if it comes) */
        f->gbn_suspect = f->gbn_stop = 0;
    } else if (nak && d == 0) {
        gbn_report(c, f);
    } else if (!nak && d >= 0) {
        /* PSNs [E, X) reached the responder after its NAK.  After a
         * sequence NAK any copy the capture saw may be the one it took:
         * the original or a resend delayed on its way (reordered, or
         * still in flight when the NAK was sent), a READ's span with the
         * READ; only PSNs the capture never saw in any copy were resent
         * unseen (capture loss).  An RNR NAK rejected the copy it names:
         * the one taken came after it, and the capture missed it. */
        uint64_t saved = c->frame;
        c->frame = f->gbn_frame;
        gap_add_unseen(c, f, f->gbn_e, f->gbn_x,
                       f->gbn_suspect == CHK_PEND_RNR ? GAP_NONE : GAP_ANY, 0, 0);
        c->frame = saved;
        f->gbn_suspect = f->gbn_stop = 0;
    }
}

static void judge_response(struct chk *c, struct chk_flow *f,
                           const struct ibw_pkt *p)
{
    read_msn_same(c, f, p, ibw_opcode_info(p->opcode));
    const struct ibw_opcode_info *oi = ibw_opcode_info(p->opcode);
    const uint8_t *b = hdr(p, IBW_HDR_BTH);
    uint32_t r = ibw_bth_get_psn(b);
    uint16_t pkey = ibw_bth_get_pkey(b);
    f->s.responses++;
    /* a response held for its request (CAP-SKEW) is judged after later
     * frames, possibly in a flow set up after it: the span takes it in */
    f->s.last_frame = c->frame > f->s.last_frame ? c->frame : f->s.last_frame;
    if (c->frame < f->s.first_frame)
        f->s.first_frame = c->frame;
    if (!f->tr_known) { /* a flow that had only held responses so far */
        f->tr = oi->transport;
        f->tr_known = 1;
    }
    if (!f->s.transport)
        f->s.transport = ibw_transport_name(f->tr);
    if (f->pend_back)
        back_settle(c, f, 0);
    if (!f->have_resp_pkey) {
        f->have_resp_pkey = 1;
        f->resp_pkey = pkey;
        if (f->have_pkey && ((pkey ^ f->pkey) & 0x7FFF))
            chk_report(c, CHK_R_FLOW_PKEY,
                       "responder P_Key 0x%04x, requester's 0x%04x", pkey,
                       f->pkey);
        else if (f->have_pkey && !((pkey | f->pkey) & 0x8000))
            chk_report(c, CHK_R_FLOW_PKEY,
                       "P_Keys 0x%04x and 0x%04x are both limited members",
                       f->pkey, pkey);
    } else if (pkey != f->resp_pkey) {
        chk_report(c, CHK_R_FLOW_PKEY, "bth.pkey 0x%04x, the responder's is 0x%04x",
                   pkey, f->resp_pkey);
    }
    int in_window = resp_in_window(f, p, r);
    if (!in_window) {
        f->noted = 1;
        if (!f->s.ack_unsent++)
            f->unsent_frame = c->frame;
        f->unsent_end += f->at_end;
    }
    uint8_t syn = 0;
    const uint8_t *a = hdr(p, IBW_HDR_AETH);
    if (a) {
        syn = ibw_aeth_get_syndrome(a);
        uint32_t m = ibw_aeth_get_msn(a);
        chk_msn_response(c, f, p, r, m);
        if (!f->have_resp_msn || chk_psn_diff(m, f->resp_msn_max) > 0) {
            f->resp_msn_max = m;
            f->have_resp_msn = 1;
        } else if (chk_psn_diff(m, f->resp_msn_max) < 0) {
            f->resp_msn_back = 1;
        }
    }
    unsigned kind = ibw_aeth_syndrome_kind(syn);
    /* ACKs, RNR NAKs (the request named was received), READ responses and
     * atomic ACKs prove their requests received: a sequence NAK does not */
    if (in_window && (oi->kind != IBW_OPK_ACK || kind == IBW_AETH_ACK ||
                      kind == IBW_AETH_RNR_NAK))
        lat_response(c, f, r);
    if (f->gbn_suspect)
        gbn_settle(c, f, r, a && kind != IBW_AETH_ACK);
    switch (oi->kind) {
    case IBW_OPK_ACK:
        if (kind == IBW_AETH_ACK) {
            if (a) /* a frame cut before its AETH reads as an ACK */
                chk_ack_read_ack(f, r, ibw_aeth_get_msn(a), c->frame);
            note_ack(c, f, r, a);
        } else if (kind == IBW_AETH_RNR_NAK) {
            f->s.rnr_naks++;
            flow_event(c, f, CHK_EV_RNR, p, r);
            uint32_t us = ibw_rnr_timer_usec(ibw_aeth_syndrome_value(syn));
            /* the RNR NAK before, at the same PSN: a resend recorded after
             * this one may have been sent before it */
            f->pend_prev = f->pending == CHK_PEND_RNR && f->pend_psn == r;
            f->pend_prev_ts = f->pend_ts;
            f->pend_prev_us = f->pend_rnr_us;
            f->pending = CHK_PEND_RNR;
            f->pend_psn = r;
            f->pend_ts = c->ts_ns;
            f->pend_rnr_us = us;
            nak_after_round(c, f);
        } else if (kind == IBW_AETH_NAK) {
            f->s.naks++;
            flow_event(c, f, CHK_EV_NAK, p, r);
            struct chk_gap *g = gap_of(f, r);
            if (g)
                gap_split(f, g, r)->naked = 1;
            if (ibw_aeth_syndrome_value(syn) == IBW_NAK_PSN_SEQ_ERROR) {
                /* A NAK carrying an older MSN than the response that
                 * acknowledged past it was sent before that response: the
                 * network swapped them (RoCEv2 over IP), and the requester
                 * drops it as stale (9.7.5.1.2).  The responder's MSN never
                 * goes back (C9-148). */
                /* With the same MSN (the ACK named a packet inside a
                 * message) the two cannot be ordered on a path that has
                 * shown it reorders this flow's responses. */
                int32_t dm = chk_psn_diff(ibw_aeth_get_msn(a), f->last_ack_msn);
                int sent_before = f->have_ack_msn &&
                                  (dm < 0 || (dm == 0 && f->resp_msn_back));
                if (f->have_ack && chk_psn_diff(r, f->last_ack) <= 0 && !sent_before)
                    chk_report(c, CHK_R_FLOW_NAK_PSN,
                               "PSN sequence NAK names 0x%06x, already "
                               "acknowledged up to 0x%06x", r, f->last_ack);
                f->pending = CHK_PEND_NAK_SEQ;
                f->pend_psn = r;
                f->pend_ts = c->ts_ns;
                f->nak_judged = c->st.frames;
                f->nak_ts = c->ts_ns;
                nak_after_round(c, f);
            }
        }
        break;
    case IBW_OPK_READ_RESP:
        read_response(c, f, p, oi, r);
        if (oi->flags & IBW_OPF_LAST)
            note_ack(c, f, r, a);
        break;
    case IBW_OPK_ATOMIC_ACK: {
        struct chk_outst *o = chk_outst_find(f, r, IBW_OPK_ATOMIC);
        if (o && o->psn == r) {
            o->answered = 1;
            chk_dup_atomic(c, f, p, o);
        } else {
            const struct chk_hist *h = chk_hist_get(f, r);
            if (h)
                chk_report(c, CHK_R_FLOW_RESP_MATCH,
                           "ATOMIC ACKNOWLEDGE at PSN 0x%06x, which was sent "
                           "as %s", r, ibw_opcode_info(h->opcode)->name);
            else if (psn_in_window(f, r) && !f->any_gap)
                chk_report(c, CHK_R_FLOW_RESP_MATCH,
                           "ATOMIC ACKNOWLEDGE at PSN 0x%06x matches no atomic "
                           "request", r);
        }
        note_ack(c, f, r, a);
        break;
    }
    default: break;
    }
    if (in_window)
        chk_respond_response(c, f, p, oi, r);
    flow_event(c, f, CHK_EV_RESPONSE, p, r);
    if (c->o.rc_hook && f->tr == IBW_TR_RC)
        c->o.rc_hook(c->o.rc_hook_user, &f->s, p, c->frame, 0);
}

/* A response arrives on flow f: judged now, or held while its request may
 * still be on its way (recorded late) or while it waits for its flow. */
static void response(struct chk *c, struct chk_flow *f, const struct ibw_pkt *p,
                     int truncated, int waiting)
{
    uint32_t r = ibw_bth_get_psn(hdr(p, IBW_HDR_BTH));
    if (f->s.responses_only && f->pair && !waiting) {
        /* a stream not paired yet: does a request flow answer it now? */
        struct chk_pair *pr = &c->pairs[f->pair - 1];
        int several = 0;
        struct chk_flow *g = pair_match(c, pr, f->tr, r, &several);
        if (g) {
            merge_stream(c, f, g, f->s.req_qpn);
            f = g;
            c->cur_flow = g;
        } else {
            if (several)
                f->s.responses_only = 2;
            waiting = 1;
        }
    }
    if (f->nheld)
        drain(c, f, 0);
    if (waiting || f->nheld ||
        (!f->s.responses_only &&
         ((!resp_in_window(f, p, r) && psn_ahead(f, r)) ||
          reissue_ahead(f, p, r)))) {
        if (f->nheld >= CHK_HELD_MAX)
            release(c, f);
        hold(c, f, p, truncated);
        return;
    }
    judge_response(c, f, p);
}

/* ---- the flow a packet joins ---- */

/* A flow that already tells QP dst:dqp's transport service (from its
 * packets or CM) and names another: as_req, the flow of src's requests to
 * dst:dqp, or as_resp, the flow whose responses src sends to dst:dqp (the
 * same QP; an RC QP both requests and answers).  NULL when none does. */
static struct chk_flow *other_transport(struct chk_flow *as_req,
                                        struct chk_flow *as_resp, unsigned tr)
{
    if (as_req && as_req->tr_known && as_req->tr != tr)
        return as_req;
    if (as_resp && as_resp->tr_known && as_resp->tr != tr)
        return as_resp;
    return NULL;
}

/* Is the packet marked with congestion (ECN CE in IP, or BTH FECN)? */
static int congestion_marked(const struct ibw_pkt *p)
{
    const uint8_t *ip4 = hdr(p, IBW_HDR_IPV4), *ip6 = hdr(p, IBW_HDR_IPV6);
    if (ip4 && (ip4[1] & 3) == 3)
        return 1;
    if (ip6 && ((ip6[1] >> 4) & 3) == 3)
        return 1;
    return ibw_bth_get_fecn(hdr(p, IBW_HDR_BTH)) != 0;
}

void chk_flow_packet(struct chk *c, const struct ibw_pkt *p, int truncated)
{
    const struct ibw_opcode_info *oi = ibw_opcode_info(p->opcode);
    const uint8_t *b = hdr(p, IBW_HDR_BTH);
    struct chk_addr src, dst;
    uint32_t dqp = ibw_bth_get_destqp(b);
    int is_req = (oi->flags & IBW_OPF_REQUEST) != 0;
    struct chk_flow *f;
    if (oi->transport == IBW_TR_CNP) {
        /* A CNP throttles the QP it is sent to: the requester of the flow
         * whose responses go there. */
        chk_pkt_addrs(p, &src, &dst);
        f = chk_flow_of_response(c, &src, &dst, dqp);
        if (f) {
            f->s.cnps++;
            flow_event(c, f, CHK_EV_CNP, p, ibw_bth_get_psn(b));
        }
        return;
    }
    if ((dqp <= 1 && oi->transport != IBW_TR_RC && oi->transport != IBW_TR_UC &&
         oi->transport != IBW_TR_XRC) || oi->transport == IBW_TR_RESERVED ||
        oi->transport == IBW_TR_MSP)
        return; /* MADs; vendor opcodes: no service type.  Connected
                   traffic to QP0/1 (PKT-QP01-UD) is still a flow. */
    chk_pkt_addrs(p, &src, &dst);
    /* Both lookups once per packet: the transport rule needs them and the
     * packet's own flow is one of them once it exists. */
    struct chk_flow *as_req = chk_flow_get(c, &src, &dst, dqp, 0);
    struct chk_flow *as_resp = chk_flow_of_response(c, &src, &dst, dqp);
    /* A QP has one service type: a packet of another is no part of the
     * flow (fed to it, its headers would be misread), one finding. */
    f = other_transport(as_req, as_resp, oi->transport);
    if (f) {
        c->cur_flow = f;
        chk_report(c, CHK_R_FLOW_TRANSPORT,
                   "%s to QP 0x%06x, which carries %s traffic", oi->name, dqp,
                   ibw_transport_name(f->tr));
        return;
    }
    /* Datagrams (UD, RD) to QPs no connected flow uses: many peers, no
     * connection state to follow. */
    if (oi->transport != IBW_TR_RC && oi->transport != IBW_TR_UC &&
        oi->transport != IBW_TR_XRC)
        return;
    int waiting = 0;
    if (is_req) {
        f = as_req ? as_req : chk_flow_get(c, &src, &dst, dqp, 1);
    } else if (oi->flags & IBW_OPF_RESPONSE) {
        f = as_resp ? as_resp
                    : flow_for_response(c, &src, &dst, dqp, ibw_bth_get_psn(b),
                                        oi->transport, &waiting);
    } else {
        return;
    }
    if (!f)
        return;
    chk_flow_touch(c, f);
    if (!f->tr_known) {
        f->tr = oi->transport;
        f->tr_known = 1;
    }
    c->cur_flow = f;
    chk_a17_frame(c, f, p, is_req); /* its packet findings, RoCEv2 fields */
    if (!f->s.requests && !f->s.responses && !f->nheld)
        f->s.first_frame = c->frame;
    f->s.transport = ibw_transport_name(f->tr);
    if (p->cut && !f->s.cut_frames++)
        f->cut_frame = c->frame;
    f->mig_seen |= (uint8_t)(1u << (2 * !is_req + ibw_bth_get_m(b)));
    if (is_req) {
        f->s.last_frame = c->frame;
        if (congestion_marked(p)) {
            f->s.ecn_marks++;
            flow_event(c, f, CHK_EV_ECN, p, ibw_bth_get_psn(b));
        }
        request(c, f, p, oi);
        flow_event(c, f, CHK_EV_REQUEST, p, ibw_bth_get_psn(b));
        if (c->o.rc_hook && oi->transport == IBW_TR_RC)
            c->o.rc_hook(c->o.rc_hook_user, &f->s, p, c->frame, 1);
        if (!f->s.req_qpn_known) {
            pair_enlist(c, f, ibw_bth_get_psn(b));
            pair_streams(c, f);
        }
        if (f->nheld)
            drain(c, f, 0);
    } else {
        response(c, f, p, truncated, waiting);
    }
}

void chk_flow_corrupt(struct chk *c, const struct ibw_pkt *p)
{
    /* Any field may be the one hit, the opcode too: the frame counts where
     * it was recorded, between its endpoints (a gap of a flow it does not
     * belong to is explained too: a note the less, never an error).  A
     * malformed frame (its headers unparsed past the point of damage, its
     * BTH perhaps unread) counts there as well when its addresses are. */
    struct chk_addr src, dst;
    chk_pkt_addrs(p, &src, &dst);
    if (src.kind == 0)
        return;
    unsigned i = ring_slot(&c->corrupt_head, &c->ncorrupt, CHK_CORRUPT);
    c->corrupt[i].frame = c->frame;
    c->corrupt[i].src = src;
    c->corrupt[i].dst = dst;
    const uint8_t *b = hdr(p, IBW_HDR_BTH);
    if (!b)
        return;
    /* And at the PSN it says, when that is one of its flow's: a gap found
     * later (a resend round's) is explained from there. */
    const struct ibw_opcode_info *oi = ibw_opcode_info(p->opcode);
    struct chk_flow *f = chk_flow_get(c, &src, &dst, ibw_bth_get_destqp(b), 0);
    uint32_t psn = ibw_bth_get_psn(b);
    if (!f || f->dead || !f->have_psn || !(oi->flags & IBW_OPF_REQUEST) ||
        chk_psn_diff(psn, f->next_psn) >= (int32_t)CHK_AHEAD ||
        chk_psn_diff(psn, f->first_psn) < -(int32_t)CHK_AHEAD)
        return;
    seen_add(f, psn, chk_psn_add(psn, 1), 1);
    /* A new PSN seen first in a corrupt copy: its good copy, if one comes,
     * may come as a resend, which the message count does not take, so
     * FLOW-MSN's counts are no longer exact (an ibwire sim sweep: a SEND
     * first recorded corrupt left its message uncounted and drew FLOW-MSN) */
    if (chk_psn_diff(psn, f->next_psn) >= 0)
        f->msn_inexact = 1;
}

/* ---- end of capture ---- */

/* Append "0x..-0x.." for PSNs [lo, hi) to buf. */
static void add_range(char *buf, size_t n, uint32_t lo, uint32_t hi)
{
    size_t l = strlen(buf);
    if (l + 32 >= n) {
        if (l + 5 < n && strcmp(buf + l - 3, "...") != 0)
            snprintf(buf + l, n - l, ", ...");
        return;
    }
    uint32_t last = chk_psn_add(hi, CHK_PSN_MASK);
    if (lo == last)
        snprintf(buf + l, n - l, "%s0x%06x", l ? ", " : "", lo);
    else
        snprintf(buf + l, n - l, "%s0x%06x-0x%06x", l ? ", " : "", lo, last);
}

static void flow_notes(struct chk *c, struct chk_flow *f)
{
    if (!f->ngaps && !f->noted)
        return; /* (capture_lost and unexplained stay 0) */
    char lost[160] = "", open[160] = "";
    uint64_t nlost = 0, nopen = f->gap_overflow;
    uint64_t lost_frame = 0, open_frame = 0;
    /* in PSN order (a slot given to a later gap breaks the table's) */
    unsigned order[CHK_GAPS];
    for (unsigned i = 0; i < f->ngaps; i++) {
        unsigned k = i;
        for (; k > 0 && chk_psn_diff(f->gaps[order[k - 1]].lo, f->gaps[i].lo) > 0; k--)
            order[k] = order[k - 1];
        order[k] = i;
    }
    for (unsigned i = 0; i < f->ngaps; i++) {
        struct chk_gap *g = &f->gaps[order[i]];
        uint32_t n = (uint32_t)chk_psn_diff(g->hi, g->lo);
        if (g->resent == 1 || g->naked)
            continue; /* lost in the network and recovered: the rules ran */
        if (g->acked ||
            (g->resent != 2 && f->have_ack &&
             chk_psn_diff(f->last_ack, chk_psn_add(g->hi, CHK_PSN_MASK)) >= 0)) {
            nlost += n;
            add_range(lost, sizeof lost, g->lo, g->hi);
            if (!lost_frame)
                lost_frame = g->frame;
        } else {
            nopen += n;
            add_range(open, sizeof open, g->lo, g->hi);
            if (!open_frame)
                open_frame = g->frame;
        }
    }
    f->s.capture_lost = nlost;
    f->s.unexplained = nopen;
    uint64_t saved = c->frame;
    c->cur_flow = f;
    /* Responses naming PSNs the capture never saw sent: on a flow whose
     * capture point is shown to lose requests (CAP-LOSS), the same loss
     * (the responder's answer shows the requester sent them), counted in
     * that note; recorded within the skew window before the capture ended
     * on a flow with one direction late (CAP-SKEW), requests the capture
     * ended before recording, counted in that one.  The rest stay
     * FLOW-ACK-UNSENT. */
    uint64_t unsent = f->s.ack_unsent, unsent_end = 0, unsent_lost = 0;
    if (nlost) {
        unsent_lost = unsent;
        unsent = 0;
    } else if (f->s.skew_ns && f->unsent_end) {
        unsent_end = f->unsent_end;
        unsent -= unsent_end;
    }
    if (nlost) {
        char more[160] = "";
        if (unsent_lost)
            snprintf(more, sizeof more, "; %llu response%s name%s request "
                     "PSNs the capture never saw sent: lost by it too",
                     (unsigned long long)unsent_lost,
                     unsent_lost == 1 ? "" : "s", unsent_lost == 1 ? "s" : "");
        c->frame = lost_frame;
        chk_report(c, CHK_R_CAP_LOSS,
                   "%llu request PSN%s (%s) that the responder acknowledged "
                   "%s missing from the capture, never resent: lost by the "
                   "capture point, not the network%s",
                   (unsigned long long)nlost, nlost == 1 ? "" : "s", lost,
                   nlost == 1 ? "is" : "are", more);
    }
    if (nopen) {
        c->frame = open_frame ? open_frame : f->s.first_frame;
        chk_report(c, CHK_R_FLOW_PSN_GAP,
                   "%llu request PSN%s never seen (%s)%s",
                   (unsigned long long)nopen, nopen == 1 ? "" : "s",
                   open[0] ? open : "...",
                   f->tr == IBW_TR_UC ? ": UC has no acknowledgements to "
                                        "tell capture loss from network loss"
                                      : ", and not known to be acknowledged");
    }
    if (unsent) {
        c->frame = f->unsent_frame;
        chk_report(c, CHK_R_FLOW_ACK_UNSENT,
                   "%llu response%s name%s PSNs the capture never saw this "
                   "flow's requester send%s", (unsigned long long)unsent,
                   unsent == 1 ? "" : "s", unsent == 1 ? "s" : "",
                   f->s.responses_only == 2
                       ? " (several request flows between these endpoints "
                         "could be theirs: left unpaired)"
                   : f->s.responses_only ? " (no request flow to pair them with)"
                                         : "");
    }
    if (f->s.skew_ns) {
        char more[200] = "";
        if (unsent_end)
            snprintf(more, sizeof more, "; %llu response%s recorded within "
                     "that window before the capture ended name%s requests "
                     "it did not record yet", (unsigned long long)unsent_end,
                     unsent_end == 1 ? "" : "s", unsent_end == 1 ? "s" : "");
        c->frame = f->skew_frame;
        chk_report(c, CHK_R_CAP_SKEW,
                   "responses recorded up to %llu.%03llu us before the requests "
                   "they answer: one direction reached the capture late%s",
                   (unsigned long long)(f->s.skew_ns / 1000),
                   (unsigned long long)(f->s.skew_ns % 1000), more);
    }
    c->frame = saved;
    c->cur_flow = NULL;
}

/* FLOW-MSN (C9-148): the READ RESPONSE FIRST and LAST of one execution of
 * a READ carry one MSN.  Judged on a FIRST, MIDDLEs and a LAST at
 * consecutive PSNs recorded in a row (no other response of the flow between)
 * unless the READ was requested again at a PSN up to the LAST's (recorded
 * before the LAST, or within the skew window after it): the LAST may then
 * be a replay, and a replayed response may carry any MSN from the
 * original's to the responder's current one (statement MSN; Linux rxe
 * sends its current one).  A resend of other requests, or of this READ's
 * request past the LAST, replays nothing of it: before, any resend in the
 * flow within the skew window exempted the READ, so on a lossy link (a
 * resend every few microseconds) a READ RESPONSE LAST carrying the next
 * message's MSN (zoo row 31b) went unsaid.  Its request need not be in
 * the capture (one dropped for a bad ICRC was executed all the same: its
 * responses show it); then any resend within the skew window exempts it. */
static void read_msn_due(struct chk *c, struct chk_flow *f, int all)
{
    if (!f->rr_pend || (!all && c->ts_ns <= f->rr_p_due))
        return;
    f->rr_pend = 0;
    uint64_t frame = c->frame;
    struct chk_flow *cur = c->cur_flow;
    c->frame = f->rr_p_frame;
    c->cur_flow = f;
    f->rr_said = c->frame;
    chk_report(c, CHK_R_FLOW_MSN,
               "RDMA READ RESPONSE LAST at PSN 0x%06x carries aeth.msn 0x%06x, "
               "the READ RESPONSE FIRST of the same READ (PSN 0x%06x, frame "
               "%llu) 0x%06x: every response of one READ carries the MSN that "
               "counts it (C9-148)", f->rr_p_psn, f->rr_p_msn, f->rr_p_first,
               (unsigned long long)f->rr_p_fframe, f->rr_p_fmsn);
    c->frame = frame;
    c->cur_flow = cur;
}

static void read_msn_same(struct chk *c, struct chk_flow *f,
                          const struct ibw_pkt *p,
                          const struct ibw_opcode_info *oi)
{
    read_msn_due(c, f, 0);
    uint32_t r = ibw_bth_get_psn(hdr(p, IBW_HDR_BTH));
    unsigned pos = oi->flags & POS_MASK;
    const uint8_t *a = hdr(p, IBW_HDR_AETH);
    if (oi->kind != IBW_OPK_READ_RESP || p->cut) {
        f->rr_open = 0;
        return;
    }
    if (pos == IBW_OPF_FIRST) {
        f->rr_open = a != NULL;
        f->rr_next = chk_psn_add(r, 1);
        f->rr_msn = a ? ibw_aeth_get_msn(a) : 0;
        f->rr_first = r;
        f->rr_frame = c->frame;
        f->rr_ts = c->ts_ns;
        return;
    }
    if (!f->rr_open || r != f->rr_next ||
        !(pos == IBW_OPF_MIDDLE || pos == IBW_OPF_LAST)) {
        f->rr_open = 0;
        return;
    }
    f->rr_next = chk_psn_add(r, 1);
    if (pos == IBW_OPF_MIDDLE)
        return;
    f->rr_open = 0;
    uint64_t win = chk_skew_window(c);
    const struct chk_outst *o = chk_outst_find(f, f->rr_first, IBW_OPK_READ);
    if (!a || ibw_aeth_get_msn(a) == f->rr_msn ||
        (o ? o->reissued : f->have_retx && f->retx_ts + win >= f->rr_ts))
        return;
    if (f->rr_pend)
        read_msn_due(c, f, 1); /* one waits at a time */
    f->rr_pend = 1;
    f->rr_p_noreq = o == NULL;
    f->rr_p_read = o ? o->psn : f->rr_first;
    f->rr_p_psn = r;
    f->rr_p_msn = ibw_aeth_get_msn(a);
    f->rr_p_first = f->rr_first;
    f->rr_p_fmsn = f->rr_msn;
    f->rr_p_frame = c->frame;
    f->rr_p_fframe = f->rr_frame;
    f->rr_p_due = c->ts_ns + win;
    f->rr_said = c->frame; /* the MSN arc leaves it to this rule */
}

/* FLOW-MIGREQ: the requests carried one MigReq value throughout and the
 * responses the other (rules.h says why that is the whole judgement). */
static void migreq_judge(struct chk *c, struct chk_flow *f)
{
    unsigned q = f->mig_seen & 3u, r = (f->mig_seen >> 2) & 3u;
    if ((q != 1 && q != 2) || (r != 1 && r != 2) || q == r)
        return;
    c->cur_flow = f;
    chk_report(c, CHK_R_FLOW_MIGREQ,
               "every request carried BTH MigReq %u and every response "
               "MigReq %u (%llu requests, %llu responses)",
               q == 2, r == 2, (unsigned long long)f->s.requests,
               (unsigned long long)f->s.responses);
    c->cur_flow = NULL;
}

/* A flow whose first request came past the CM's starting PSN, with no
 * request at that PSN by its end: the requester did not start there. */
static void check_cm_psn_open(struct chk *c, struct chk_flow *f)
{
    if (!f->cm_psn_ahead || f->dead)
        return;
    f->cm_psn_ahead = 0;
    /* the flow did not start at the CM's PSN after all: what it was
     * tracked from up to its first request was never sent, not a gap */
    unsigned k = 0;
    for (unsigned i = 0; i < f->ngaps; i++) {
        struct chk_gap *g = &f->gaps[i];
        if (chk_psn_diff(g->lo, f->cm_ahead_psn) < 0 &&
            chk_psn_diff(g->lo, f->first_psn) >= 0) {
            if (chk_psn_diff(g->hi, f->cm_ahead_psn) <= 0) {
                if (f->s.gaps)
                    f->s.gaps--;
                continue;
            }
            g->lo = f->cm_ahead_psn;
        }
        f->gaps[k++] = *g;
    }
    f->ngaps = k;
    uint32_t negotiated = f->first_psn;
    f->first_psn = f->cm_ahead_psn;
    uint64_t frame = c->frame;
    c->frame = f->cm_ahead_frame;
    c->cur_flow = f;
    chk_report(c, CHK_R_CM_QPN,
               "first request PSN 0x%06x, CM negotiated starting PSN 0x%06x "
               "(peer's 0x%06x), and no request at 0x%06x followed",
               f->cm_ahead_psn, f->cm_start_psn, f->cm_alt_psn, negotiated);
    c->cur_flow = NULL;
    c->frame = frame;
}

void chk_flow_settle(struct chk *c, struct chk_flow *f)
{
    check_cm_psn_open(c, f);
    read_msn_due(c, f, 1);
    if (!f->dead)
        migreq_judge(c, f);
    if (f->nheld)
        drain(c, f, 1);
    if (f->nmsn_wait)
        chk_msn_due(c, f, 1);
    if (f->pend_back) {
        c->cur_flow = f;
        back_settle(c, f, 1);
        c->cur_flow = NULL;
    }
    if (f->gbn_suspect && !f->gbn_stop) { /* a skip nothing later explained */
        c->cur_flow = f;
        gbn_report(c, f);
        c->cur_flow = NULL;
    }
    if (f->rj_open || f->in_retrans) {
        c->cur_flow = f;
        chk_resend_due(c, f, 1);
        chk_resend_quiet(c, f, c->order.newest_ts);
        c->cur_flow = NULL;
    }
    if (!f->dead && (f->s.requests || f->s.responses))
        flow_notes(c, f);
}

/* The flows live at the end, phase by phase across flows (every held
 * response first: one may settle another flow's question). */
void chk_flows_finish(struct chk *c)
{
    for (uint32_t i = 0; i < c->nflows; i++) {
        if (!c->flows[i].live)
            continue;
        if (c->flows[i].nheld)
            drain(c, &c->flows[i], 1);
        if (c->flows[i].nmsn_wait)
            chk_msn_due(c, &c->flows[i], 1);
        read_msn_due(c, &c->flows[i], 1);
        if (c->flows[i].pend_back) {
            c->cur_flow = &c->flows[i];
            back_settle(c, &c->flows[i], 1);
            c->cur_flow = NULL;
        }
    }
    for (uint32_t i = 0; i < c->nflows; i++)
        if (c->flows[i].live && (c->flows[i].rj_open || c->flows[i].in_retrans)) {
            c->cur_flow = &c->flows[i];
            chk_resend_due(c, &c->flows[i], 1);
            chk_resend_quiet(c, &c->flows[i], c->order.newest_ts);
            c->cur_flow = NULL;
        }
    /* a skip nothing later explained */
    for (uint32_t i = 0; i < c->nflows; i++)
        if (c->flows[i].live && c->flows[i].gbn_suspect &&
            !c->flows[i].gbn_stop) {
            c->cur_flow = &c->flows[i];
            gbn_report(c, &c->flows[i]);
            c->cur_flow = NULL;
        }
    for (uint32_t i = 0; i < c->nflows; i++) {
        struct chk_flow *f = &c->flows[i];
        if (f->live)
            check_cm_psn_open(c, f);
        if (f->live && !f->dead)
            migreq_judge(c, f);
        if (f->live && !f->dead && (f->s.requests || f->s.responses))
            flow_notes(c, f);
    }
}

void chk_flows_free(struct chk *c)
{
    for (uint32_t i = 0; i < c->nflows; i++) {
        if (!c->flows[i].live)
            continue;
        for (unsigned k = 0; k < c->flows[i].nheld; k++)
            free(c->flows[i].held[k].bytes);
        free(c->flows[i].held);
        free(c->flows[i].hist_big);
        free(c->flows[i].out_big);
    }
    for (uint32_t i = 0; i < c->npairs; i++) {
        free(c->pairs[i].req);
        free(c->pairs[i].resp);
    }
    free(c->pairs);
    c->pairs = NULL;
    c->npairs = 0;
}
