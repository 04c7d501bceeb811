/* SPDX-License-Identifier: Apache-2.0 */
/* check_respond.c - what a responder owes the requests the capture saw:
 * FLOW-INVALID-ACCEPTED (a request it must reject is not accepted),
 * FLOW-NAK-INVALID (an Invalid Request NAK only for a request the capture
 * cannot show valid), FLOW-ACK-READ (an ACK covers an RDMA READ only once
 * its responses were sent), FLOW-ZERO-LEN (C9-88: zero-length READ/WRITE need no
 * valid R_Key or VA) and FLOW-DUP-ATOMIC (a duplicate atomic returns the
 * saved original value).
 *
 * Each new request is classified once, when it is first sent (before it
 * changes the flow's message state), into flags its history entry keeps;
 * the responses read them at their PSN. */
#include <stdio.h>

#include "check_int.h"

#define POS_MASK (IBW_OPF_FIRST | IBW_OPF_MIDDLE | IBW_OPF_LAST)

enum {
    BAD_NONE = 0,
    BAD_LEN_FULL,   /* FIRST/MIDDLE payload not the PMTU (C9-92) */
    BAD_LEN_LAST,   /* LAST/ONLY payload above the PMTU (C9-92) */
    BAD_WRITE_LEN,  /* WRITE bytes other than the RETH DMA Length (C9-92) */
    BAD_DMALEN,     /* RETH DMA Length above 2^31 (C9-94) */
    BAD_WRAP,       /* RETH VA + DMA Length past 2^64 (9.4) */
    BAD_ALIGN       /* atomic VA not 8-byte aligned (9.4.5) */
};

static const char *bad_name(unsigned why)
{
    switch (why) {
    case BAD_LEN_FULL: return "a FIRST/MIDDLE payload other than the PMTU";
    case BAD_LEN_LAST: return "a LAST/ONLY payload above the PMTU";
    case BAD_WRITE_LEN: return "RDMA WRITE bytes other than its DMA Length";
    case BAD_DMALEN: return "a DMA Length above 2^31";
    case BAD_WRAP: return "a VA + DMA Length past 2^64";
    case BAD_ALIGN: return "an atomic VA not 8-byte aligned";
    default: return "?";
    }
}

/* Why a request is invalid from its own bytes and the PMTU alone (the
 * RDMA WRITE's length against its DMA Length needs the message's other
 * packets: chk_request_class); BAD_NONE when nothing shows it. */
static unsigned bad_in_itself(const struct chk *c, const struct chk_flow *f,
                              const struct ibw_pkt *p,
                              const struct ibw_opcode_info *oi)
{
    unsigned pos = oi->flags & POS_MASK, why = BAD_NONE;
    uint32_t pl = p->payload_wire_len;
    uint32_t pmtu = chk_flow_pmtu(c, f);
    /* a PMTU the responder is known to hold requests to (CM's, or the
     * user's), not one learnt from the payloads themselves */
    int pmtu_sure = pmtu && (c->o.pmtu || f->pmtu_src == CHK_PMTU_CM);
    const uint8_t *reth = ibw_pkt_hdr(p, IBW_HDR_RETH);
    const uint8_t *aeth = ibw_pkt_hdr(p, IBW_HDR_ATOMICETH);
    if (reth && (oi->kind == IBW_OPK_READ || oi->kind == IBW_OPK_WRITE)) {
        uint32_t len = ibw_reth_get_dmalen(reth);
        uint64_t va = ibw_reth_get_va(reth);
        if (len > 0x80000000u)
            why = BAD_DMALEN;
        else if (len && va + (len - 1) < va)
            why = BAD_WRAP;
    }
    if (aeth && oi->kind == IBW_OPK_ATOMIC && (ibw_atomiceth_get_va(aeth) & 7))
        why = BAD_ALIGN;
    if (!why && pmtu_sure && (oi->flags & IBW_OPF_PAYLOAD) &&
        (oi->kind == IBW_OPK_SEND || oi->kind == IBW_OPK_WRITE)) {
        if ((pos == IBW_OPF_FIRST || pos == IBW_OPF_MIDDLE) && pl != pmtu)
            why = BAD_LEN_FULL;
        else if ((pos & IBW_OPF_LAST) && pl > pmtu)
            why = BAD_LEN_LAST;
    }
    /* Without a PMTU the responder is known to hold (one learnt from the
     * payloads may be the wrong packet's), a FIRST or MIDDLE is still
     * invalid when its payload is no PMTU at all (C9-92: it carries
     * exactly the PMTU, one of 256, 512, 1024, 2048 or 4096 bytes), on
     * any path: a SEND FIRST cut short, whose message has no length to
     * compare, was seen only with a CM or --pmtu before (len-check-off's
     * variants on a Send). */
    if (!why && !pmtu_sure && !p->cut && (oi->flags & IBW_OPF_PAYLOAD) &&
        (oi->kind == IBW_OPK_SEND || oi->kind == IBW_OPK_WRITE) &&
        (pos == IBW_OPF_FIRST || pos == IBW_OPF_MIDDLE) &&
        !ibw_mtu_bytes_to_enum(pl))
        why = BAD_LEN_FULL;
    return why;
}

uint8_t chk_request_class(const struct chk *c, struct chk_flow *f,
                          const struct ibw_pkt *p, const struct ibw_opcode_info *oi,
                          uint32_t psn)
{
    unsigned pos = oi->flags & POS_MASK, why = bad_in_itself(c, f, p, oi);
    uint8_t flags = 0;
    uint32_t pl = p->payload_wire_len;
    uint32_t pmtu = chk_flow_pmtu(c, f);
    const uint8_t *reth = ibw_pkt_hdr(p, IBW_HDR_RETH);
    if (reth && (oi->kind == IBW_OPK_READ || oi->kind == IBW_OPK_WRITE) &&
        !ibw_reth_get_dmalen(reth) &&
        (oi->kind == IBW_OPK_READ || pos == (IBW_OPF_FIRST | IBW_OPF_LAST)))
        flags |= CHK_HIST_ZERO;
    if (oi->kind == IBW_OPK_WRITE && !why) {
        if (pos == (IBW_OPF_FIRST | IBW_OPF_LAST)) {
            if (reth && !p->cut && pl != ibw_reth_get_dmalen(reth))
                why = BAD_WRITE_LEN;
        } else if (!(pos & IBW_OPF_FIRST) && f->wr_open &&
                   f->msg == CHK_MSG_WRITE) {
            uint64_t total = f->wr_bytes + pl;
            int fits = (pos & IBW_OPF_LAST) ? total == f->wr_len
                                            : total < f->wr_len;
            if (!fits && (pos & IBW_OPF_LAST))
                why = BAD_WRITE_LEN;
            /* The FIRST passed the responder's R_Key/VA checks for the
             * whole DMA Length (9.7.5.1.x), the sequence is the one open
             * and the lengths are what they must be: nothing left that
             * could make this packet an invalid request. */
            if (fits && pmtu &&
                ((pos & IBW_OPF_LAST) ? pl <= pmtu && pl : pl == pmtu))
                flags |= CHK_HIST_WF;
        }
    }
    if (why) {
        flags |= CHK_HIST_BAD;
        if (!f->have_bad) {
            f->have_bad = 1;
            f->bad_psn = psn;
            f->bad_why = (uint8_t)why;
        }
    }
    return flags;
}

/* A copy of the request at psn recorded again (a resend, or the network's
 * duplicate).  When the invalid request waiting for its answer is this
 * PSN's and this copy is valid in itself, the responder's answer may be
 * this copy's: it proves nothing (the copies' difference is
 * FLOW-RETRANS-DIFF's).  A link that cuts the first copy, the requester
 * resending it whole after a loss, drew FLOW-INVALID-ACCEPTED on the
 * resend's ACK (len-check-off's clean controls under loss).  A WRITE's
 * length against its DMA Length is no copy's own: it stays judged. */
void chk_request_resent(const struct chk *c, struct chk_flow *f,
                        const struct ibw_pkt *p, const struct ibw_opcode_info *oi,
                        uint32_t psn)
{
    if (f->have_bad && psn == f->bad_psn && f->bad_why != BAD_WRITE_LEN &&
        !p->cut && bad_in_itself(c, f, p, oi) == BAD_NONE)
        f->have_bad = 0;
}

void chk_respond_response(struct chk *c, struct chk_flow *f, const struct ibw_pkt *p,
                          const struct ibw_opcode_info *oi, uint32_t r)
{
    const uint8_t *a = ibw_pkt_hdr(p, IBW_HDR_AETH);
    unsigned kind = a ? ibw_aeth_syndrome_kind(ibw_aeth_get_syndrome(a))
                      : IBW_AETH_ACK;
    const struct chk_hist *h = chk_hist_get(f, r);
    if (kind == IBW_AETH_RNR_NAK)
        return;
    if (kind == IBW_AETH_NAK) {
        unsigned code = ibw_aeth_syndrome_value(ibw_aeth_get_syndrome(a));
        if (code == IBW_NAK_PSN_SEQ_ERROR)
            return;
        /* Rejected, as it had to be; or a request before it was: the
         * responder executes nothing past a NAK's PSN until that PSN is
         * resent, so the bad request was not accepted (its resend is held
         * to it by FLOW-RETRANS-DIFF). */
        if (f->have_bad && chk_psn_diff(f->bad_psn, r) >= 0)
            f->have_bad = 0;
        if (!h)
            return;
        const struct ibw_opcode_info *hi = ibw_opcode_info(h->opcode);
        if (code == IBW_NAK_INVALID_REQUEST && (h->flags & CHK_HIST_WF))
            chk_report(c, CHK_R_FLOW_NAK_INVALID,
                       "NAK Invalid Request at PSN 0x%06x, an %s of %u bytes "
                       "that continues the RDMA WRITE its FIRST opened, at the "
                       "PMTU and within the DMA Length", r, hi->name, h->paylen);
        if (code == IBW_NAK_REMOTE_ACCESS_ERROR && (h->flags & CHK_HIST_ZERO) &&
            (hi->kind == IBW_OPK_READ ? f->read_ok : f->write_ok))
            chk_report(c, CHK_R_FLOW_ZERO_LEN,
                       "NAK Remote Access Error at PSN 0x%06x, an %s of DMA "
                       "Length 0 on a QP that already served remote %s",
                       r, hi->name, hi->kind == IBW_OPK_READ ? "reads" : "writes");
        return;
    }
    /* ACK, READ response or atomic ACK: the request at r was accepted, and
     * every one before it (responses go in PSN order, C9-105 aside: a
     * duplicate's ACK names a PSN the responder had already executed). */
    if (f->have_bad && chk_psn_diff(r, f->bad_psn) >= 0 &&
        chk_psn_diff(r, f->next_psn) < 0) {
        chk_report(c, CHK_R_FLOW_INVALID_ACCEPTED,
                   "%s at PSN 0x%06x accepts the request at 0x%06x, which has "
                   "%s: it must be NAKed (Invalid Request)", oi->name, r,
                   f->bad_psn, bad_name(f->bad_why));
        f->have_bad = 0;
    }
    if (oi->kind == IBW_OPK_ACK && h &&
        ibw_opcode_info(h->opcode)->kind == IBW_OPK_WRITE)
        f->write_ok = 1;
}

void chk_dup_atomic(struct chk *c, struct chk_flow *f, const struct ibw_pkt *p,
                    struct chk_outst *o)
{
    (void)f;
    const uint8_t *e = ibw_pkt_hdr(p, IBW_HDR_ATOMICACKETH);
    if (!e)
        return;
    uint64_t v = ibw_atomicacketh_get_origremdt(e);
    if (o->have_orig && v != o->orig) {
        chk_report(c, CHK_R_FLOW_DUP_ATOMIC,
                   "ATOMIC ACKNOWLEDGE at PSN 0x%06x returns 0x%llx; the atomic "
                   "at that PSN was answered 0x%llx before: a duplicate returns "
                   "the saved result, it is not executed again", o->psn,
                   (unsigned long long)v, (unsigned long long)o->orig);
        return;
    }
    o->have_orig = 1;
    o->orig = v;
}

/* ---- FLOW-ACK-READ: an ACK covering a READ before its responses ----
 * An ACK at PSN r acknowledges every request up to r (9.7.5.1.2, C9-105),
 * so one that covers an RDMA READ says the READ was done: its responses
 * were all sent before it (zoo row 6a: rxe ACKed a duplicate WRITE with
 * the PSN of a later READ still being answered).  Any PSN from the READ's
 * own to beyond its span covers it.  The READ's responses recorded after
 * such an ACK prove it was sent before them when the capture point cannot
 * have swapped them:
 *   - a response with a higher MSN than the ACK's (the responder's MSN never
 *     goes back, C9-148), or
 *   - the ACK's PSN inside the READ's span before its last PSN: an ACK sent
 *     after the READ's responses names the last PSN or later, or
 *   - on a flow whose responses the path has not shown reordered (a lower
 *     MSN after a higher one, as FLOW-NAK-PSN), two responses or more of a
 *     READ none of whose responses came before the ACK: the network would
 *     have to delay each of them past it.
 * A READ re-issued, before the ACK or after it, is answered again: its
 * replayed responses carry the responder's MSN of then (rxe), and prove
 * nothing. */
void chk_ack_read_ack(struct chk_flow *f, uint32_t r, uint32_t msn,
                      uint64_t frame)
{
    if (f->ar_open)
        return; /* the one pending is judged first */
    for (unsigned k = 0; k < f->nout; k++) {
        const struct chk_outst *o = chk_outst_at(f, k);
        if (o->kind != IBW_OPK_READ || o->answered || o->reissued || !o->len ||
            o->len == 0x7FFFFFFFu || chk_psn_diff(r, o->psn) < 0)
            continue;
        /* a re-issue is an entry of its own: with another READ covering its
         * PSN, it (or that one) was requested again */
        int again = 0;
        for (unsigned j = 0; j < f->nout && !again; j++) {
            const struct chk_outst *x = chk_outst_at(f, j);
            again = j != k && x->kind == IBW_OPK_READ && chk_outst_covers(x, o->psn);
        }
        if (again)
            continue;
        f->ar_open = 1;
        f->ar_before = o->resp_seen;
        f->ar_after = 0;
        f->ar_read_psn = o->psn;
        f->ar_span = o->span;
        f->ar_ack_psn = r;
        f->ar_msn = msn;
        f->ar_frame = frame;
        return;
    }
}

void chk_ack_read_resp(struct chk *c, struct chk_flow *f,
                       const struct chk_outst *o, uint32_t r,
                       const uint8_t *aeth)
{
    (void)r;
    if (o->psn != f->ar_read_psn)
        return;
    f->ar_after++;
    int32_t dm = aeth ? chk_psn_diff(ibw_aeth_get_msn(aeth), f->ar_msn) : 0;
    uint32_t span = o->span ? o->span : f->ar_span;
    int inside = span > 1 &&
                 chk_psn_diff(f->ar_ack_psn, chk_psn_add(o->psn, span - 1)) < 0;
    int unswapped = !f->resp_msn_back && !f->ar_before && f->ar_after >= 2;
    if (!(dm > 0 || inside || unswapped))
        return;
    f->ar_open = 0;
    uint64_t saved = c->frame;
    c->frame = f->ar_frame;
    chk_report(c, CHK_R_FLOW_ACK_READ,
               "ACK of PSN 0x%06x (MSN %u) covers the RDMA READ at 0x%06x, whose "
               "responses were not all sent: %s", f->ar_ack_psn, f->ar_msn,
               o->psn, dm > 0 ? "one with a higher MSN came after it"
               : inside ? "its PSN lies inside the READ's span, before its last"
                        : "they came after it");
    c->frame = saved;
}

void chk_ack_read_reissue(struct chk_flow *f, uint32_t psn)
{
    for (unsigned k = 0; k < f->nout; k++) {
        struct chk_outst *o = chk_outst_at(f, k);
        if (o->kind != IBW_OPK_READ || !chk_outst_covers(o, psn))
            continue;
        o->reissued = 1;
        if (f->ar_open && o->psn == f->ar_read_psn)
            f->ar_open = 0; /* answered again */
    }
}
