/* check_flow.c - the rules that need a flow's history: opcode sequences,
 * PSN continuity and retransmission, ACK/NAK meaning, MSN, READ and atomic
 * responses.  A flow is one requester QP sending to one responder QP; its
 * responses travel back to the requester's QPN, which is learnt from CM or
 * from the first response whose PSN fits the flow. */
#include <string.h>

#include "check_int.h"

/* Responses to flows whose requests were never seen get a flow keyed by a
 * QPN no packet can carry (QPNs are 24 bits). */
#define CHK_QPN_RESPONSES_ONLY 0x80000000u

static uint32_t flow_pmtu(const struct chk *c, const struct chk_flow *f)
{
    return c->o.pmtu ? c->o.pmtu : f->s.pmtu;
}

/* Has the flow's request stream been seen sending PSN r? */
static int psn_in_window(const struct chk_flow *f, uint32_t r)
{
    return f->have_psn && chk_psn_diff(r, f->first_psn) >= 0 &&
           chk_psn_diff(r, f->next_psn) < 0;
}

static uint32_t ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

/* PSNs a READ of len bytes consumes at this PMTU (0 = PMTU unknown). */
static uint32_t read_span(uint32_t len, uint32_t pmtu)
{
    if (!pmtu)
        return 0;
    return len ? ceil_div(len, pmtu) : 1;
}

/* The flow a response of transport tr from src to dst:qpn answers when no
 * flow is bound to it yet: the one unbound flow of tr from dst to src whose
 * PSNs it fits, or a new responses-only flow. */
static struct chk_flow *flow_for_response(struct chk *c,
                                          const struct chk_addr *src,
                                          const struct chk_addr *dst,
                                          uint32_t qpn, uint32_t psn,
                                          unsigned tr)
{
    struct chk_flow *f = NULL, *only = NULL, *fit = NULL;
    unsigned ncand = 0, nfit = 0;
    for (uint32_t i = 0; i < c->nflows; i++) {
        struct chk_flow *g = &c->flows[i];
        /* Only a flow of the response's transport (never UC, which has
         * no responses): another is some other QP's. */
        if (g->s.req_qpn_known || !g->s.resp_qpn_known ||
            (g->tr_known && g->tr != tr) ||
            !chk_addr_eq(&g->s.req, dst) || !chk_addr_eq(&g->s.resp, src))
            continue;
        ncand++;
        only = g;
        if (g->have_psn) {
            int32_t back = chk_psn_diff(g->next_psn, psn);
            if (back > 0 && back <= 0x400000) {
                nfit++;
                fit = g;
            }
        }
    }
    if (ncand == 1)
        f = only;
    else if (nfit == 1)
        f = fit;
    if (!f) {
        f = chk_flow_get(c, dst, src, CHK_QPN_RESPONSES_ONLY | qpn, 1);
        if (!f)
            return NULL;
        f->s.resp_qpn_known = 0;
        f->s.resp_qpn = 0;
    }
    chk_flow_bind(c, f, qpn);
    return f;
}

static void hist_put(struct chk_flow *f, uint32_t psn, const struct ibw_pkt *p)
{
    struct chk_hist *h = &f->hist[psn & (CHK_HIST - 1)];
    h->psn = psn;
    h->opcode = p->opcode;
    h->paylen = (uint16_t)(p->payload_len > 0xFFFF ? 0xFFFF : p->payload_len);
    h->valid = 1;
}

static const struct chk_hist *hist_get(const struct chk_flow *f, uint32_t psn)
{
    const struct chk_hist *h = &f->hist[psn & (CHK_HIST - 1)];
    return h->valid && h->psn == psn ? h : NULL;
}

static struct chk_outst *outst_add(struct chk_flow *f)
{
    unsigned i;
    if (f->nout < CHK_OUTSTANDING) {
        i = (f->out_head + f->nout) % CHK_OUTSTANDING;
        f->nout++;
    } else {
        i = f->out_head;
        f->out_head = (f->out_head + 1) % CHK_OUTSTANDING;
    }
    memset(&f->out[i], 0, sizeof f->out[i]);
    return &f->out[i];
}

/* The remembered READ/atomic request whose PSNs cover r, or NULL. */
static struct chk_outst *outst_find(struct chk_flow *f, uint32_t r, unsigned kind)
{
    for (unsigned k = 0; k < f->nout; k++) {
        struct chk_outst *o = &f->out[(f->out_head + k) % CHK_OUTSTANDING];
        if (o->kind != kind)
            continue;
        int32_t off = chk_psn_diff(r, o->psn);
        uint32_t span = o->span ? o->span : read_span(o->len, 256);
        if (off >= 0 && (uint32_t)off < (span ? span : 1))
            return o;
    }
    return NULL;
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
    unsigned pos = oi->flags & (IBW_OPF_FIRST | IBW_OPF_MIDDLE | IBW_OPF_LAST);
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
    unsigned pos = oi->flags & (IBW_OPF_FIRST | IBW_OPF_MIDDLE | IBW_OPF_LAST);
    if (oi->kind != IBW_OPK_WRITE) {
        f->wr_open = 0;
        return;
    }
    if (pos & IBW_OPF_FIRST) {
        f->wr_open = 1;
        f->wr_len = ibw_reth_get_dmalen(p->data + p->off[IBW_HDR_RETH]);
        f->wr_bytes = 0;
    } else if (!f->wr_open) {
        return; /* its FIRST not seen */
    }
    f->wr_bytes += p->payload_len;
    if (!(pos & IBW_OPF_LAST))
        return;
    f->wr_open = 0;
    if (f->wr_bytes != f->wr_len)
        chk_report(c, CHK_R_FLOW_WRITE_LEN,
                   "%s: the RDMA WRITE carried %llu bytes, its DMA Length is %u",
                   oi->name, (unsigned long long)f->wr_bytes, f->wr_len);
}

/* Learn the PMTU from full packets; hold later ones to it. */
static void pmtu_rules(struct chk *c, struct chk_flow *f, const struct ibw_pkt *p,
                       const struct ibw_opcode_info *oi)
{
    unsigned pos = oi->flags & (IBW_OPF_FIRST | IBW_OPF_MIDDLE | IBW_OPF_LAST);
    if (c->o.pmtu || !(oi->flags & IBW_OPF_PAYLOAD) ||
        oi->kind == IBW_OPK_ATOMIC_WRITE)
        return;
    uint32_t pl = p->payload_len;
    if (pos == IBW_OPF_FIRST || pos == IBW_OPF_MIDDLE) {
        if (!f->s.pmtu) {
            if (ibw_mtu_bytes_to_enum(pl))
                f->s.pmtu = pl;
        } else if (pl != f->s.pmtu) {
            chk_report(c, CHK_R_PKT_LEN_FULL,
                       "%s payload %u bytes, the flow's PMTU is %u (learnt)",
                       oi->name, pl, f->s.pmtu);
        }
    } else if (f->s.pmtu && pl > f->s.pmtu) {
        chk_report(c, CHK_R_PKT_LEN_LAST,
                   "%s payload %u bytes exceeds the flow's PMTU %u (learnt)",
                   oi->name, pl, f->s.pmtu);
    }
}

static void request(struct chk *c, struct chk_flow *f, const struct ibw_pkt *p,
                    const struct ibw_opcode_info *oi)
{
    const uint8_t *b = p->data + p->off[IBW_HDR_BTH];
    uint32_t psn = ibw_bth_get_psn(b);
    uint16_t pkey = ibw_bth_get_pkey(b);
    unsigned pos = oi->flags & (IBW_OPF_FIRST | IBW_OPF_MIDDLE | IBW_OPF_LAST);
    f->s.requests++;
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
        f->first_psn = f->next_psn = psn;
        /* IBA: each side starts at the PSN its own REQ/REP announced;
         * Linux IPoIB-CM starts both at the REP's, so either passes. */
        if (f->cm_psn_pending && psn != f->cm_start_psn && psn != f->cm_alt_psn)
            chk_report(c, CHK_R_CM_QPN,
                       "first request PSN 0x%06x, CM negotiated starting PSN "
                       "0x%06x (peer's 0x%06x)", psn, f->cm_start_psn,
                       f->cm_alt_psn);
        f->cm_psn_pending = 0;
        if (!(pos & IBW_OPF_FIRST)) {
            chk_report(c, CHK_R_FLOW_START_MID,
                       "flow first seen at %s PSN 0x%06x", oi->name, psn);
            f->s.started_mid = 1;
            f->msg = CHK_MSG_UNKNOWN;
        }
    }
    int32_t d = chk_psn_diff(psn, f->next_psn);
    if (d < 0) {
        /* Back to a PSN already sent: a retransmission. */
        f->s.retransmissions++;
        /* Behind the flow's first PSN (while the flow has used fewer than
         * half the PSN space, so "behind" means something): a resend of
         * an original the capture never saw. */
        if (chk_psn_diff(psn, f->first_psn) < 0 &&
            chk_psn_diff(f->next_psn, f->first_psn) >= 0) {
            chk_report(c, CHK_R_FLOW_PSN_GAP,
                       "PSN 0x%06x resent, but the flow's first PSN seen is "
                       "0x%06x (original not seen)", psn, f->first_psn);
            f->s.gaps++;
        }
        if (!f->in_retrans) {
            f->in_retrans = 1;
            f->msg = CHK_MSG_UNKNOWN;
            if (f->pending != CHK_PEND_NONE) {
                if (psn != f->pend_psn)
                    chk_report(c, CHK_R_FLOW_GBN,
                               "resent from PSN 0x%06x, the %s named 0x%06x",
                               psn,
                               f->pending == CHK_PEND_RNR ? "RNR NAK" : "NAK",
                               f->pend_psn);
                if (f->pending == CHK_PEND_RNR) {
                    uint64_t waited = (c->ts_ns - f->pend_ts) / 1000u;
                    if (c->ts_ns >= f->pend_ts &&
                        waited * 10 < (uint64_t)f->pend_rnr_us * 9)
                        chk_report(c, CHK_R_FLOW_RNR_WAIT,
                                   "resent after %llu us, RNR timer %u us",
                                   (unsigned long long)waited, f->pend_rnr_us);
                }
                f->pending = CHK_PEND_NONE;
            }
        }
        const struct chk_hist *h = hist_get(f, psn);
        uint32_t pl = p->payload_len > 0xFFFF ? 0xFFFF : p->payload_len;
        if (h && (h->opcode != p->opcode || h->paylen != pl))
            chk_report(c, CHK_R_FLOW_RETRANS_DIFF,
                       "PSN 0x%06x resent as %s with %u bytes, first sent as "
                       "%s with %u bytes", psn, oi->name, pl,
                       ibw_opcode_info(h->opcode)->name, h->paylen);
        if (oi->kind == IBW_OPK_READ || oi->kind == IBW_OPK_ATOMIC) {
            struct chk_outst *o = outst_find(f, psn, oi->kind);
            if (o && o->psn == psn)
                o->answered = 0; /* the responder answers it again */
            uint32_t pmtu = flow_pmtu(c, f);
            int32_t k = o ? chk_psn_diff(psn, o->psn) : 0;
            /* A READ re-issued from inside the original's response PSNs
             * asks only for the rest: k PMTUs less (IBA 9.7.4). */
            if (k > 0 && oi->kind == IBW_OPK_READ && o->span && pmtu &&
                ibw_pkt_has(p, IBW_HDR_RETH)) {
                uint32_t len = ibw_reth_get_dmalen(p->data + p->off[IBW_HDR_RETH]);
                uint64_t done = (uint64_t)k * pmtu;
                if (done < o->len && len != o->len - done)
                    chk_report(c, CHK_R_FLOW_RETRANS_DIFF,
                               "RDMA READ re-issued at PSN 0x%06x, %d PSNs into "
                               "the one at 0x%06x, asks for %u bytes, the rest "
                               "is %u", psn, k, o->psn, len,
                               (unsigned)(o->len - done));
            }
        }
        opseq(c, f, oi);
        return;
    }
    if (d > 0) {
        if (f->span_unknown && (uint32_t)d + 1 <= f->span_max) {
            /* The READ before consumed d + 1 PSNs: learn its span. */
            struct chk_outst *o =
                &f->out[(f->out_head + f->nout - 1) % CHK_OUTSTANDING];
            if (f->nout && o->kind == IBW_OPK_READ && !o->span)
                o->span = (uint32_t)d + 1;
        } else {
            chk_report(c, CHK_R_FLOW_PSN_GAP,
                       "PSN 0x%06x, expected 0x%06x (%d PSNs not seen)", psn,
                       f->next_psn, d);
            f->s.gaps++;
            f->msg = CHK_MSG_UNKNOWN;
            f->wr_open = 0;
        }
    }
    f->span_unknown = 0;
    f->in_retrans = 0;
    opseq(c, f, oi);
    write_len(c, f, p, oi);
    hist_put(f, psn, p);
    uint32_t span = 1;
    if (oi->kind == IBW_OPK_READ || oi->kind == IBW_OPK_ATOMIC) {
        struct chk_outst *o = outst_add(f);
        o->psn = psn;
        o->kind = oi->kind;
        o->span = 1;
        if (oi->kind == IBW_OPK_READ) {
            f->s.reads++;
            o->len = ibw_reth_get_dmalen(p->data + p->off[IBW_HDR_RETH]);
            o->span = read_span(o->len, flow_pmtu(c, f));
            if (o->span) {
                span = o->span;
            } else {
                f->span_unknown = 1;
                f->span_max = read_span(o->len, 256);
            }
        } else {
            f->s.atomics++;
        }
    }
    f->next_psn = chk_psn_add(psn, span);
    if (pos & IBW_OPF_LAST) {
        f->msgs_done++;
        f->s.messages++;
    }
}

static void msn_rules(struct chk *c, struct chk_flow *f, uint32_t msn)
{
    if (!f->have_msn) {
        f->have_msn = 1;
        f->msn = f->msn_first = msn;
        return;
    }
    int32_t dm = chk_psn_diff(msn, f->msn);
    /* Since the first MSN seen the responder can have completed at most
     * the messages whose requests were all seen since then. */
    int32_t since = chk_psn_diff(msn, f->msn_first);
    if (dm < 0)
        chk_report(c, CHK_R_FLOW_MSN, "aeth.msn 0x%06x after 0x%06x", msn,
                   f->msn);
    else if (!f->s.gaps && f->have_psn && since > 0 &&
             (uint64_t)since > f->msgs_done)
        chk_report(c, CHK_R_FLOW_MSN,
                   "aeth.msn 0x%06x is %d past the first MSN seen, the requests "
                   "seen completed %llu messages", msn, since,
                   (unsigned long long)f->msgs_done);
    if (dm > 0)
        f->msn = msn;
}

static void note_ack(struct chk_flow *f, uint32_t r)
{
    if (!f->have_ack || chk_psn_diff(r, f->last_ack) > 0) {
        f->have_ack = 1;
        f->last_ack = r;
    }
}

static void read_response(struct chk *c, struct chk_flow *f,
                          const struct ibw_pkt *p,
                          const struct ibw_opcode_info *oi, uint32_t r)
{
    unsigned pos = oi->flags & (IBW_OPF_FIRST | IBW_OPF_MIDDLE | IBW_OPF_LAST);
    struct chk_outst *o = outst_find(f, r, IBW_OPK_READ);
    pmtu_rules(c, f, p, oi);
    if (!o) {
        const struct chk_hist *h = hist_get(f, r);
        if (h)
            chk_report(c, CHK_R_FLOW_RESP_MATCH,
                       "%s at PSN 0x%06x, which was sent as %s", oi->name, r,
                       ibw_opcode_info(h->opcode)->name);
        else if (psn_in_window(f, r))
            chk_report(c, CHK_R_FLOW_RESP_MATCH,
                       "%s at PSN 0x%06x matches no RDMA READ request",
                       oi->name, r);
        f->rr_open = 0;
        return;
    }
    int idx = (int)(o - f->out);
    uint32_t off = (uint32_t)chk_psn_diff(r, o->psn);
    uint32_t pmtu = flow_pmtu(c, f);
    if (!o->span && pmtu)
        o->span = read_span(o->len, pmtu);
    if (pos & IBW_OPF_FIRST) {
        if (off != 0)
            chk_report(c, CHK_R_FLOW_READ_RESP,
                       "%s at PSN 0x%06x, the READ starts at 0x%06x", oi->name,
                       r, o->psn);
        f->rr_open = 1;
        f->rr_idx = idx;
        f->rr_bytes = 0;
    } else if (!f->rr_open || f->rr_idx != idx || r != f->rr_next) {
        if (f->rr_open || !f->s.started_mid)
            chk_report(c, CHK_R_FLOW_READ_RESP,
                       "%s at PSN 0x%06x, expected %s", oi->name, r,
                       f->rr_open && f->rr_idx == idx ? "the next PSN of the "
                                                        "open response"
                                                      : "READ RESPONSE FIRST");
        f->rr_open = 1;
        f->rr_idx = idx;
        f->rr_bytes = off * (pmtu ? pmtu : 0);
    }
    f->rr_next = chk_psn_add(r, 1);
    f->rr_bytes += p->payload_len;
    if (!(pos & IBW_OPF_LAST))
        return;
    f->rr_open = 0;
    o->answered = 1;
    if (o->span && off + 1 != o->span)
        chk_report(c, CHK_R_FLOW_READ_RESP,
                   "%s at PSN 0x%06x: a READ of %u bytes at 0x%06x ends at "
                   "0x%06x (%u PSNs)", oi->name, r, o->len, o->psn,
                   chk_psn_add(o->psn, o->span - 1), o->span);
    if (!o->span)
        o->span = off + 1;
    if (f->rr_bytes != o->len && (pmtu || (pos & IBW_OPF_FIRST)))
        chk_report(c, CHK_R_FLOW_READ_RESP,
                   "responses carried %u bytes, the READ asked for %u",
                   f->rr_bytes, o->len);
}

static void response(struct chk *c, struct chk_flow *f, const struct ibw_pkt *p,
                     const struct ibw_opcode_info *oi)
{
    const uint8_t *b = p->data + p->off[IBW_HDR_BTH];
    uint32_t r = ibw_bth_get_psn(b);
    uint16_t pkey = ibw_bth_get_pkey(b);
    f->s.responses++;
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
    if (f->have_psn && !psn_in_window(f, r))
        chk_report(c, CHK_R_FLOW_ACK_UNSENT,
                   "%s PSN 0x%06x, requests seen 0x%06x..0x%06x", oi->name, r,
                   f->first_psn, chk_psn_add(f->next_psn, CHK_PSN_MASK));
    else if (!f->have_psn && f->s.responses == 1)
        chk_report(c, CHK_R_FLOW_ACK_UNSENT,
                   "%s PSN 0x%06x answers requests this capture never saw",
                   oi->name, r);
    uint8_t syn = 0;
    if (ibw_pkt_has(p, IBW_HDR_AETH)) {
        const uint8_t *a = p->data + p->off[IBW_HDR_AETH];
        syn = ibw_aeth_get_syndrome(a);
        msn_rules(c, f, ibw_aeth_get_msn(a));
    }
    unsigned kind = ibw_aeth_syndrome_kind(syn);
    switch (oi->kind) {
    case IBW_OPK_ACK:
        if (kind == IBW_AETH_ACK) {
            note_ack(f, r);
        } else if (kind == IBW_AETH_RNR_NAK) {
            f->s.rnr_naks++;
            f->pending = CHK_PEND_RNR;
            f->pend_psn = r;
            f->pend_ts = c->ts_ns;
            f->pend_rnr_us = ibw_rnr_timer_usec(ibw_aeth_syndrome_value(syn));
        } else if (kind == IBW_AETH_NAK) {
            f->s.naks++;
            if (ibw_aeth_syndrome_value(syn) == IBW_NAK_PSN_SEQ_ERROR) {
                if (f->have_ack && chk_psn_diff(r, f->last_ack) <= 0)
                    chk_report(c, CHK_R_FLOW_NAK_PSN,
                               "PSN sequence NAK names 0x%06x, already "
                               "acknowledged up to 0x%06x", r, f->last_ack);
                f->pending = CHK_PEND_NAK_SEQ;
                f->pend_psn = r;
                f->pend_ts = c->ts_ns;
            }
        }
        break;
    case IBW_OPK_READ_RESP:
        read_response(c, f, p, oi, r);
        if (oi->flags & IBW_OPF_LAST)
            note_ack(f, r);
        break;
    case IBW_OPK_ATOMIC_ACK: {
        struct chk_outst *o = outst_find(f, r, IBW_OPK_ATOMIC);
        if (o && o->psn == r) {
            o->answered = 1;
        } else {
            const struct chk_hist *h = hist_get(f, r);
            if (h)
                chk_report(c, CHK_R_FLOW_RESP_MATCH,
                           "ATOMIC ACKNOWLEDGE at PSN 0x%06x, which was sent "
                           "as %s", r, ibw_opcode_info(h->opcode)->name);
            else if (psn_in_window(f, r))
                chk_report(c, CHK_R_FLOW_RESP_MATCH,
                           "ATOMIC ACKNOWLEDGE at PSN 0x%06x matches no atomic "
                           "request", r);
        }
        note_ack(f, r);
        break;
    }
    default: break;
    }
}

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

void chk_flow_packet(struct chk *c, const struct ibw_pkt *p)
{
    const struct ibw_opcode_info *oi = ibw_opcode_info(p->opcode);
    const uint8_t *b = p->data + p->off[IBW_HDR_BTH];
    struct chk_addr src, dst;
    uint32_t dqp = ibw_bth_get_destqp(b);
    int is_req = (oi->flags & IBW_OPF_REQUEST) != 0;
    struct chk_flow *f;
    if (dqp <= 1 || oi->transport == IBW_TR_CNP ||
        oi->transport == IBW_TR_RESERVED || oi->transport == IBW_TR_MSP)
        return; /* QP0/1: PKT-QP01-UD; CNP, vendor opcodes: no service type */
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
    if (is_req) {
        f = as_req ? as_req : chk_flow_get(c, &src, &dst, dqp, 1);
    } else if (oi->flags & IBW_OPF_RESPONSE) {
        f = as_resp ? as_resp
                    : flow_for_response(c, &src, &dst, dqp, ibw_bth_get_psn(b),
                                        oi->transport);
    } else {
        return;
    }
    if (!f)
        return;
    if (!f->tr_known) {
        f->tr = oi->transport;
        f->tr_known = 1;
    }
    c->cur_flow = f;
    if (!f->s.requests && !f->s.responses)
        f->s.first_frame = c->frame;
    f->s.transport = ibw_transport_name(f->tr);
    f->s.last_frame = c->frame;
    if (is_req)
        request(c, f, p, oi);
    else
        response(c, f, p, oi);
    if (c->o.rc_hook && oi->transport == IBW_TR_RC)
        c->o.rc_hook(c->o.rc_hook_user, &f->s, p, c->frame, is_req);
}
