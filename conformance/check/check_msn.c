/* SPDX-License-Identifier: Apache-2.0 */
/* check_msn.c - FLOW-MSN: the MSN a response carries at its PSN.
 *
 * The responder's MSN counts the messages it has completed (IBA 9.7.6):
 * a SEND or RDMA WRITE when its last packet is executed, an RDMA READ or
 * atomic when it is executed, before its first response goes out (C9-148:
 * every response of a READ carries the MSN that counts it).  Let O be the
 * MSN the responder had before the first request the capture saw; the
 * requests seen then complete msgs(r) messages through PSN r, and a
 * response at r was sent after the responder executed r and before it
 * executed what the capture has not shown sent yet:
 *     O + msgs(r) <= MSN <= O + msgs(everything sent so far)
 * (a NAK or RNR NAK at r completes nothing at r: msgs(r - 1)).
 * The upper end is what a response replayed for a duplicate request may
 * carry: Linux rxe sends every response, replayed READ responses and the
 * ACK of a duplicate SEND/WRITE (C9-105) among them, with its current MSN
 * (rxe_resp.c: prepare_ack_packet() writes qp->resp.msn; read_reply() for
 * a duplicate READ found by find_resource() does not count it again), and
 * a response reordered or duplicated on its way needs no order among the
 * MSNs recorded.  So each response bounds O to an arc; the arcs of a
 * flow's responses must meet.  O is unknown (a capture starting mid-flow,
 * or a responder whose first MSN is not 0), so it is the arcs' common
 * point that is judged, not one response on its own: a responder that
 * counts packets (zoo row 4), skips RDMA WRITEs (row 5) or puts the next
 * message's MSN on a READ's last response (row 31b) leaves them without
 * one as soon as its responses follow their requests closely enough.
 * Judged only while the capture saw every request PSN (no gap): then the
 * counts are exact, else only lower bounds.  "Sent by then" is what the
 * capture recorded up to the skew window after the response (the requests'
 * direction may be recorded that late): a response waits that long
 * (CHK_MSN_WAIT of them per flow; a newer one takes the newest one's
 * place), so the verdict does not depend on how late either direction
 * reached the capture. */
#include <stdio.h>

#include "check_int.h"

/* Does a request with this opcode complete a message? */
static int ends_message(uint8_t opcode)
{
    return (ibw_opcode_info(opcode)->flags & IBW_OPF_LAST) != 0;
}

void chk_msn_response(struct chk *c, struct chk_flow *f, const struct ibw_pkt *p,
                      uint32_t r, uint32_t msn)
{
    if (!f->have_msn) {
        f->have_msn = 1;
        f->msn = f->msn_first = msn;
    } else if (chk_psn_diff(msn, f->msn) > 0) {
        f->msn = msn;
    }
    if (f->any_gap || f->msn_inexact || !f->have_psn)
        return;
    const uint8_t *a = ibw_pkt_hdr(p, IBW_HDR_AETH);
    int nak = ibw_aeth_syndrome_kind(ibw_aeth_get_syndrome(a)) != IBW_AETH_ACK;
    uint32_t lo;
    const struct chk_hist *h = chk_hist_get(f, r);
    const struct chk_outst *o;
    if (h) {
        lo = h->msgs - (uint32_t)(nak && ends_message(h->opcode));
    } else if (!nak && (o = chk_outst_find(f, r, IBW_OPK_READ)) != NULL &&
               o->msgs != 0xFFFFFFFFu) {
        lo = o->msgs; /* inside a READ's span: it counts (C9-148) */
    } else if (nak && r == f->next_psn && !f->span_unknown) {
        lo = (uint32_t)f->msgs_done; /* a NAK naming the next PSN */
    } else {
        return; /* a PSN the history does not hold */
    }
    struct chk_msn_wait *w;
    if (f->nmsn_wait < CHK_MSN_WAIT) {
        w = &f->msn_wait[f->nmsn_wait++];
    } else {
        /* Full: this response takes the place of the newest one waiting,
         * which goes unjudged.  The oldest keep their places (the start O
         * is bounded from), and the newest response is always judged: on
         * traffic pipelined deeper than the table within the skew window
         * the latest MSN is what a responder that counts wrong gets away
         * from O with.  Each is still judged at its own time. */
        w = &f->msn_wait[0];
        for (unsigned k = 1; k < f->nmsn_wait; k++)
            if (f->msn_wait[k].due > w->due ||
                (f->msn_wait[k].due == w->due && f->msn_wait[k].frame > w->frame))
                w = &f->msn_wait[k];
    }
    w->due = c->ts_ns + chk_skew_window(c);
    w->frame = c->frame;
    w->r = r;
    w->msn = msn;
    w->lo = lo;
}

/* Judge waiting response w: the requests seen complete hi messages by the
 * end of its skew window. */
static void judge(struct chk *c, struct chk_flow *f, const struct chk_msn_wait *w,
                  uint32_t hi)
{
    uint32_t width = hi - w->lo;
    if (f->any_gap || f->msn_inexact || width >= 0x400000u)
        return; /* counts no longer exact, or too loose to say anything */
    /* O lies in [msn - hi, msn - lo] (24-bit) */
    uint32_t s = (w->msn - hi) & CHK_PSN_MASK;
    if (!f->msn_arc) {
        f->msn_arc = 1;
        f->msn_arc_lo = s;
        f->msn_arc_w = width;
        return;
    }
    int32_t d = chk_psn_diff(s, f->msn_arc_lo);
    int64_t ilo = d > 0 ? d : 0;
    int64_t ihi = (int64_t)d + width < (int64_t)f->msn_arc_w
                      ? (int64_t)d + width
                      : (int64_t)f->msn_arc_w;
    if (ilo <= ihi) {
        f->msn_arc_lo = (f->msn_arc_lo + (uint32_t)ilo) & CHK_PSN_MASK;
        f->msn_arc_w = (uint32_t)(ihi - ilo);
        return;
    }
    /* the MSNs this response could carry, given the responses before; they
     * stay the reference (the next ones are judged against them) */
    uint32_t elo = (f->msn_arc_lo + w->lo) & CHK_PSN_MASK;
    uint32_t ehi = (f->msn_arc_lo + f->msn_arc_w + hi) & CHK_PSN_MASK;
    char range[40];
    if (elo == ehi)
        snprintf(range, sizeof range, "0x%06x", elo);
    else
        snprintf(range, sizeof range, "0x%06x-0x%06x", elo, ehi);
    if (w->frame == f->rr_said)
        return; /* said already: its READ's FIRST carried another MSN */
    uint64_t frame = c->frame;
    struct chk_flow *cur = c->cur_flow;
    c->frame = w->frame;
    c->cur_flow = f;
    chk_report(c, CHK_R_FLOW_MSN,
               "aeth.msn 0x%06x at PSN 0x%06x, expected %s: the requests seen "
               "complete %u message%s through it (%u within the skew window "
               "after it), counted from the start the flow's other responses "
               "fix", w->msn, w->r, range, w->lo, w->lo == 1 ? "" : "s", hi);
    c->frame = frame;
    c->cur_flow = cur;
}

/* A READ inside the span the READ before it may take is a new message or
 * that READ's re-issue (9.7.4: a requester may re-issue from any PSN of the
 * span it has not had answered).  It is counted as new; the responses
 * recorded meanwhile wait (the skew window is no bound here) until the
 * earlier READ's span is known: its LAST response (chk_msn_read_end) or
 * the PMTU (chk_msn_due) ends it before the READ (new: the counts are
 * exact) or past it (a re-issue: counted once too often, and the flow's
 * MSN is no longer judged).  Before, every such READ made the counts
 * uncertain for good: a flow that began with two READs before any packet
 * showed the PMTU had its MSN never judged (msn-per-packet's variants). */
void chk_msn_doubt(struct chk_flow *f, struct chk_outst *o)
{
    if (f->msn_inexact || o->next_inside)
        return;
    o->next_inside = 1;
    f->nmsn_doubt++;
}

void chk_msn_read_end(struct chk_flow *f, unsigned k, uint32_t end)
{
    struct chk_outst *o = chk_outst_at(f, k);
    if (!o->next_inside)
        return;
    o->next_inside = 0;
    f->nmsn_doubt--;
    if (k + 1 >= f->nout || chk_psn_diff(end, chk_outst_at(f, k + 1)->psn) > 0)
        f->msn_inexact = 1; /* the READ after it was its re-issue */
}

void chk_msn_outst_gone(struct chk_flow *f, const struct chk_outst *o)
{
    if (o->next_inside) {
        f->nmsn_doubt--;
        f->msn_inexact = 1; /* no longer settled */
    }
}

void chk_msn_due(struct chk *c, struct chk_flow *f, int all)
{
    uint32_t pmtu = chk_flow_pmtu(c, f);
    for (unsigned k = 0; f->nmsn_doubt && pmtu && k < f->nout; k++) {
        const struct chk_outst *o = chk_outst_at(f, k);
        if (o->next_inside)
            chk_msn_read_end(f, k, chk_psn_add(o->psn, chk_read_span(o->len, pmtu)));
    }
    if (f->nmsn_doubt) {
        if (!all)
            return; /* judged once the doubts are settled */
        f->msn_inexact = 1;
    }
    unsigned k = 0;
    while (k < f->nmsn_wait) {
        struct chk_msn_wait *w = &f->msn_wait[k];
        if (!all && w->due >= c->ts_ns) {
            k++;
            continue;
        }
        struct chk_msn_wait x = *w;
        *w = f->msn_wait[--f->nmsn_wait];
        judge(c, f, &x, (uint32_t)f->msgs_done);
    }
}
