/* SPDX-License-Identifier: Apache-2.0 */
/*
 * req_trans.c - RequesterTransControl (HanGu RDMA engine design §3.4.1): cuts
 * each message into PMTU-sized packets with a length counter
 * (First/Middle/Last/Only), assigns PSNs (a read takes ceil(len/PMTU) PSNs, at
 * least one), sets AckReq on every RC packet (the document's choice: every
 * request packet is acknowledged), keeps RC packets in the MultiQueue (SWPB
 * for Send/Write packets with their payload, RPB for Read/atomic requests, REB
 * for their scatter entries), arms the loss timer, enforces the per-QP
 * outstanding limit (UniVista RoCEv2 notes) and fence, and turns bad requests
 * into E17.
 */
#include "eng.h"

static int serve_eng_upsn(struct ibe_engine *e, const struct eng_qp *q,
                          uint32_t *psn);
static void serve_rtc_resume(struct ibe_engine *e, struct eng_qp *q);
static void serve_rtc_retransmit_from(struct ibe_engine *e, struct eng_qp *q,
                                      uint32_t psn);

/* faults.h resend-early: once per QP, after a new Send/Write message sent
 * while three PSNs or more before it are unacknowledged, the oldest a
 * Send/Write packet: everything outstanding resent at once (Go-Back-N from
 * the oldest), no NAK, no timeout.  Which such moment is taken follows the
 * traffic, not the world's random stream: the first whose oldest PSN is a
 * multiple of 4 (so a variant's PSNs, drawn from its seed, move it through
 * the flow).  A draw from that stream (1 in 16, before) changed the run's
 * timing where the fault never fired, which read as a variant the rule
 * missed (fault_variants: 7-13 of 50 such, none with a resend). */
static void early_resend(struct ibe_engine *e, struct eng_qp *q)
{
    uint32_t up;
    if (!ENG_FAULT(e, RESEND_EARLY) || q->rtc.early_done ||
        serve_eng_upsn(e, q, &up) != 1 || psn_diff(q->rtc.npsn, up) < 4 ||
        (up & 3) != 0)
        return;
    q->rtc.early_done = 1;
    serve_rtc_retransmit_from(e, q, up);
}



/* The RC opcode of packet i of n of a Send or Write; seg_opcode() moves it
 * to the QP's transport. */
static uint8_t seg_rc_opcode(uint8_t op, uint32_t i, uint32_t n)
{
    bool only = n == 1, first = i == 0, last = i + 1 == n;
    switch (op) {
    case IBE_WR_SEND:
        return only ? IBW_OP_RC_SEND_ONLY : first ? IBW_OP_RC_SEND_FIRST
             : last ? IBW_OP_RC_SEND_LAST : IBW_OP_RC_SEND_MIDDLE;
    case IBE_WR_SEND_IMM:
        return only ? IBW_OP_RC_SEND_ONLY_WITH_IMMEDIATE
             : first ? IBW_OP_RC_SEND_FIRST
             : last ? IBW_OP_RC_SEND_LAST_WITH_IMMEDIATE : IBW_OP_RC_SEND_MIDDLE;
    case IBE_WR_SEND_INV:
        return only ? IBW_OP_RC_SEND_ONLY_WITH_INVALIDATE
             : first ? IBW_OP_RC_SEND_FIRST
             : last ? IBW_OP_RC_SEND_LAST_WITH_INVALIDATE : IBW_OP_RC_SEND_MIDDLE;
    case IBE_WR_RDMA_WRITE:
        return only ? IBW_OP_RC_RDMA_WRITE_ONLY : first ? IBW_OP_RC_RDMA_WRITE_FIRST
             : last ? IBW_OP_RC_RDMA_WRITE_LAST : IBW_OP_RC_RDMA_WRITE_MIDDLE;
    default: /* IBE_WR_RDMA_WRITE_IMM */
        return only ? IBW_OP_RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE
             : first ? IBW_OP_RC_RDMA_WRITE_FIRST
             : last ? IBW_OP_RC_RDMA_WRITE_LAST_WITH_IMMEDIATE
                    : IBW_OP_RC_RDMA_WRITE_MIDDLE;
    }
}

static uint8_t seg_opcode(uint8_t svc, uint8_t op, uint32_t i, uint32_t n)
{
    return ibw_opcode_in_transport(seg_rc_opcode(op, i, n), eng_transport_of(svc));
}

/* NPST view: state (and the service type beside it); latches NextPSN. */
static void npst_read(struct ibe_engine *e, struct eng_qp *q, struct eng_view *v)
{
    cxt_read(e, M_REQTRANS, CXT_RD_QP, CXR_NPST, q->qpn, v);
    q->rtc.npsn = v->npsn;
}

/* Write the NextPSN register back when it moved. */
static void npst_write(struct ibe_engine *e, struct eng_qp *q, const struct eng_view *v)
{
    if (q->rtc.npsn != v->npsn)
        cxt_write(e, M_REQTRANS, CXW_NPST, q->qpn, v->state, q->rtc.npsn);
}

static uint32_t npkts(uint32_t len, uint32_t pmtu)
{
    return len ? (len + pmtu - 1) / pmtu : 1;
}

ENG_OUT_OF_LINE static void serve_rtc_complete(struct ibe_engine *e, struct eng_qp *q,
                               uint32_t slot, uint8_t opcode, uint8_t status,
                               uint32_t len, int counted)
{
    (void)slot;
    if (counted && q->rtc.outstanding)
        q->rtc.outstanding--;
    struct eng_conf conf; /* the SQ's depth */
    cxt_conf(e, q->qpn, &conf);
    uint32_t idx = q->rtc.sq_ci % conf.sq_depth;
    q->rtc.sq_ci++;
    struct ibe_wc wc;
    memset(&wc, 0, sizeof wc);
    wc.status = status;
    wc.opcode = opcode;
    wc.byte_len = len;
    struct eng_view v; /* the CQN */
    cxt_read(e, M_REQTRANS, CXT_RD_QP, CXR_NPST, q->qpn, &v);
    /* Every WQE yields a CQE here (the sim counts them); the signalled flag
     * is carried for the CQE's consumer. */
    cxt_cq_push(e, v.cqn, &wc, idx * ENG_SQ_SLOT, 1, q->qpn, opcode);
}

static void arm_loss_timer(struct ibe_engine *e, struct eng_qp *q)
{
    struct tm_entry loss;
    timer_entry(e, q->qpn, TM_LOSS, &loss);
    if (loss.active || (rrc_holds(e, q) & RRC_RNR_WAIT))
        return;
    struct eng_conf c;
    cxt_conf(e, q->qpn, &c);
    struct rec_tset t = {TMO_SET, q->qpn, c.retry_cnt, c.timeout, TM_LOSS};
    timer_set(e, M_REQTRANS, &t);
}

static void fill_common(const struct rec_md *md, struct eng_hdr *h)
{
    memset(h, 0, sizeof *h);
    h->pkey = (uint16_t)md->pkey;
    h->destqp = md->dqpn;
    h->ackreq = md->svc == IBE_RC;
}

/* Build packet i of the message being cut; returns its payload length. */
static uint32_t build_seg(struct eng_qp *q, const struct rec_md *md, uint32_t i,
                          uint32_t n, uint32_t off, struct eng_hdr *h)
{
    fill_common(md, h);
    uint32_t len = md->msgsize - off < md->pmtu ? md->msgsize - off : md->pmtu;
    h->opcode = seg_opcode(md->svc, md->opcode, i, n);
    h->psn = q->rtc.npsn;
    q->rtc.npsn = psn_add(q->rtc.npsn, 1);
    h->paylen = len;
    if (ibw_opcode_has_hdr(h->opcode, IBW_HDR_RETH)) {
        h->va = md->raddr;
        h->rkey = md->rkey;
        h->dmalen = md->msgsize;
    }
    if (ibw_opcode_has_hdr(h->opcode, IBW_HDR_IMMDT) ||
        ibw_opcode_has_hdr(h->opcode, IBW_HDR_IETH))
        h->imm = md->imm;
    if (ibw_opcode_has_hdr(h->opcode, IBW_HDR_DETH)) {
        h->qkey = md->qkey;
        h->srcqp = q->qpn;
    }
    if (ibw_opcode_is_last(h->opcode) && md->solicited &&
        md->opcode != IBE_WR_RDMA_WRITE)
        h->se = 1;
    return len;
}

ENG_OUT_OF_LINE static void serve_rtc_take(struct ibe_engine *e,
                           const struct eng_wqe_side *side, uint8_t *payload)
{
    struct rec_md in, *md = &in;
    rec_md_get(e, CH_RTC_IN, md);
    md->solicited = side->solicited;
    md->signaled = side->signaled;
    /* the parser only passes existing QPs */
    struct eng_qp *q = eng_qp_known(e, md->sqpn);
    q->rtc.taken++;
    if (q->rtc.wait_take) {
        q->rtc.wait_take = 0;
        sched_wake(e, q);
    }
    if (md->reqstate == RS_QP_STATE) {
        serve_rtc_complete(e, q, md->wqe_off, md->opcode, IBE_WC_WR_FLUSH_ERR,
                           0, 0);
        free(payload);
        return;
    }
    if (md->reqstate != RS_NORMAL) {
        struct rec_bad b = {q->qpn, md->reqstate, md->opcode, md->wqe_off};
        rec_bad_put(e, &b);
        rrc_bad_request(e);
        free(payload);
        return;
    }
    if (md->svc != IBE_RC) {
        /* UC/UD: no buffering, no acknowledgement; done once sent. */
        struct eng_view v;
        npst_read(e, q, &v);
        uint32_t n = npkts(md->msgsize, md->pmtu), off = 0;
        for (uint32_t i = 0; i < n; i++) {
            struct eng_hdr h;
            uint32_t len = build_seg(q, md, i, n, off, &h);
            reqpkt_send(e, M_REQTRANS, &h, payload ? payload + off : NULL);
            off += len;
        }
        npst_write(e, q, &v);
        serve_rtc_complete(e, q, md->wqe_off, md->opcode, IBE_WC_SUCCESS,
                           md->msgsize, 0);
        free(payload);
        return;
    }
    q->rtc.seg_md = malloc(sizeof *q->rtc.seg_md);
    if (!q->rtc.seg_md)
        abort();
    *q->rtc.seg_md = *md;
    q->rtc.seg_buf = payload;
    q->rtc.seg_off = 0;
    q->rtc.seg_i = 0;
    bool rd = md->opcode == IBE_WR_RDMA_READ || md->opcode == IBE_WR_ATOMIC_CS ||
              md->opcode == IBE_WR_ATOMIC_FA;
    q->rtc.seg_n = rd ? 1 : npkts(md->msgsize, md->pmtu);
    q->rtc.outstanding++;
    serve_rtc_resume(e, q);
}

static void finish_seg(struct ibe_engine *e, struct eng_qp *q)
{
    free(q->rtc.seg_md);
    free(q->rtc.seg_buf);
    q->rtc.seg_md = NULL;
    q->rtc.seg_buf = NULL;
    arm_loss_timer(e, q);
    sched_wake(e, q);
}

static void resume(struct ibe_engine *e, struct eng_qp *q);

/* A READ or atomic request to ReqPktGen.  Fault mode READ_REQ_PAYLOAD
 * (faults.h, zoo row 31a): a READ request carries 48 bytes after the RETH. */
static void send_read_req(struct ibe_engine *e, int from, const struct eng_hdr *h)
{
    if (h->opcode == IBW_OP_RC_RDMA_READ_REQUEST && ENG_FAULT(e, READ_REQ_PAYLOAD)) {
        static const uint8_t junk[48];
        struct eng_hdr x = *h;
        x.paylen = sizeof junk;
        reqpkt_send(e, from, &x, junk);
        return;
    }
    reqpkt_send(e, from, h, NULL);
}

/* A Send/Write packet sent again.  Fault modes (faults.h): RESEND_PAYLOAD
 * (zoo row 15) flips its first payload byte, RESEND_SHORT (row 27) cuts its
 * last 4 bytes off. */
static void send_again(struct ibe_engine *e, const struct swpb_elem *s)
{
    if (s->h.paylen >= 8 &&
        (ENG_FAULT(e, RESEND_PAYLOAD) || ENG_FAULT(e, RESEND_SHORT))) {
        uint8_t buf[4096];
        struct eng_hdr x = s->h;
        uint32_t n = x.paylen < sizeof buf ? x.paylen : (uint32_t)sizeof buf;
        memcpy(buf, s->payload, n);
        if (ENG_FAULT(e, RESEND_PAYLOAD))
            buf[0] ^= 0xFF;
        if (ENG_FAULT(e, RESEND_SHORT))
            n -= 4;
        x.paylen = n;
        reqpkt_send(e, M_REQRECV, &x, buf);
        return;
    }
    reqpkt_send(e, M_REQRECV, &s->h, s->payload);
}

/* A READ re-issued after part of its responses.  Fault modes (faults.h,
 * zoo row 7): READ_REISSUE_LEN keeps the original RETH length,
 * READ_REISSUE_VA the original VA. */
static void reissue_read(struct ibe_engine *e, const struct rpb_elem *r)
{
    struct eng_hdr x = r->h;
    if (r->done && r->wr_opcode == IBE_WR_RDMA_READ) {
        if (ENG_FAULT(e, READ_REISSUE_LEN))
            x.dmalen = r->msg_len;
        if (ENG_FAULT(e, READ_REISSUE_VA))
            x.va -= r->done;
    }
    send_read_req(e, M_REQRECV, &x);
}

static void serve_rtc_resume(struct ibe_engine *e, struct eng_qp *q)
{
    if (!q->rtc.seg_md || q->rtc.rec_active)
        return;
    struct eng_view v;
    npst_read(e, q, &v);
    if (v.state != IBE_QPS_RTS)
        return;
    resume(e, q);
    npst_write(e, q, &v);
}

/* Cut (more of) the message in seg_md, PSNs from the rtc_npsn register. */
static void resume(struct ibe_engine *e, struct eng_qp *q)
{
    struct rec_md *md = q->rtc.seg_md;
    if (md->fence && !mq_empty(e, MQ_RPB, q->qpn))
        return; /* fence: wait for earlier reads and atomics */
    if (md->opcode == IBE_WR_RDMA_READ || md->opcode == IBE_WR_ATOMIC_CS ||
        md->opcode == IBE_WR_ATOMIC_FA) {
        if (!mq_nfree(e, MQ_RPB) || mq_nfree(e, MQ_REB) < md->nent)
            return;
        uint32_t ri = mq_alloc(e, MQ_RPB, q->qpn);
        struct rpb_elem elem, *r = &elem;
        memset(r, 0, sizeof *r);
        fill_common(md, &r->h);
        r->h.psn = q->rtc.npsn;
        r->pmtu = md->pmtu;
        r->h.va = md->raddr;
        r->h.rkey = md->rkey;
        if (md->opcode == IBE_WR_RDMA_READ) {
            r->h.opcode = IBW_OP_RC_RDMA_READ_REQUEST;
            r->h.dmalen = md->msgsize;
            r->npsn = npkts(md->msgsize, md->pmtu);
        } else {
            r->h.opcode = md->opcode == IBE_WR_ATOMIC_CS ? IBW_OP_RC_COMPARE_SWAP
                                                         : IBW_OP_RC_FETCH_ADD;
            r->h.swap = md->swap;
            r->h.cmp = md->cmp;
            r->npsn = 1;
        }
        q->rtc.npsn = psn_add(q->rtc.npsn, r->npsn);
        r->wqe_slot = md->wqe_off;
        r->wr_opcode = md->opcode;
        r->msg_len = md->msgsize;
        r->signaled = md->signaled;
        r->reb_count = md->nent;
        mq_rpb_write(e, ri, r);
        eng_rec_mq(e, M_REQTRANS, 0, q->qpn, ri);
        for (unsigned i = 0; i < md->nent; i++) {
            uint32_t bi = mq_alloc(e, MQ_REB, q->qpn);
            mq_reb_write(e, bi, &md->sg[i]);
            eng_rec_sge(e, M_REQTRANS, M_MQ, &md->sg[i]);
        }
        send_read_req(e, M_REQTRANS, &r->h);
        finish_seg(e, q);
        return;
    }
    while (q->rtc.seg_i < q->rtc.seg_n) {
        uint32_t upsn;
        if (!mq_nfree(e, MQ_SWPB) ||
            (serve_eng_upsn(e, q, &upsn) &&
             psn_diff(q->rtc.npsn, upsn) >= ENG_WINDOW))
            return; /* resumed when the MultiQueue frees an element */
        uint32_t si = mq_alloc(e, MQ_SWPB, q->qpn);
        struct swpb_elem elem, *s = &elem;
        uint32_t len = build_seg(q, md, q->rtc.seg_i, q->rtc.seg_n, q->rtc.seg_off, &s->h);
        s->payload = NULL;
        s->wqe_slot = md->wqe_off;
        s->wr_opcode = md->opcode;
        s->msg_len = md->msgsize;
        s->signaled = md->signaled;
        s->last = q->rtc.seg_i + 1 == q->rtc.seg_n;
        const uint8_t *slot = mq_swpb_write(
            e, si, s, len ? q->rtc.seg_buf + q->rtc.seg_off : NULL, len);
        eng_rec_mq(e, M_REQTRANS, 2, q->qpn, si);
        reqpkt_send(e, M_REQTRANS, &s->h, slot);
        q->rtc.seg_off += len;
        q->rtc.seg_i++;
        arm_loss_timer(e, q);
    }
    finish_seg(e, q);
    early_resend(e, q);
}

static bool serve_rtc_can_issue(struct ibe_engine *e, struct eng_qp *q,
                                uint32_t scheduled)
{
    (void)e;
    if (q->rtc.taken != scheduled) {
        /* a WQE is still on its way through the parser and DataPack (the
         * modules have latencies): one at a time, woken when it is taken */
        q->rtc.wait_take = 1;
        return false;
    }
    if (q->rtc.seg_md)
        return false;
    struct eng_view v;
    cxt_read(e, M_REQTRANS, CXT_RD_QP, CXR_NPST, q->qpn, &v);
    if (v.state != IBE_QPS_RTS)
        return true; /* the parser flushes it */
    if (q->rtc.rec_active || rrc_holds(e, q))
        return false;
    if (v.type == IBE_RC && q->rtc.outstanding >= q->rtc.limit)
        return false;
    return true;
}

/* PSNs a buffered read (or atomic) still spans, at its own PMTU. */
static uint32_t rpb_span(const struct rpb_elem *r)
{
    if (r->wr_opcode != IBE_WR_RDMA_READ)
        return 1;
    return npkts(r->msg_len - r->done, r->pmtu);
}

static int serve_eng_upsn(struct ibe_engine *e, const struct eng_qp *q,
                          uint32_t *psn)
{
    struct mq_heads hd;
    mq_head_psns(e, q->qpn, &hd);
    if (hd.swpb == MQ_NIL && hd.rpb == MQ_NIL)
        return 0;
    if (hd.rpb == MQ_NIL ||
        (hd.swpb != MQ_NIL && psn_diff(hd.swpb_psn, hd.rpb_psn) < 0)) {
        *psn = hd.swpb_psn;
        return 1;
    }
    *psn = hd.rpb_psn;
    return 2;
}

/* Walk the buffered requests in PSN order; send again those whose PSNs
 * overlap [from, to_excl), stopping once `limit` (if not NULL) is reached.
 * Returns the PSN after the last request sent, or `from` if none. */
static uint32_t resend(struct ibe_engine *e, struct eng_qp *q, uint32_t from,
                       uint32_t to_excl, const uint32_t *limit)
{
    uint32_t next = from;
    struct mq_heads at; /* the walk's positions and their PSNs */
    mq_head_psns(e, q->qpn, &at);
    uint32_t i = at.swpb, j = at.rpb;
    /* an element is copied out only when it is needed whole: a read for
     * its span, a packet to send again */
    struct rpb_elem r;
    bool have_r = false;
    while (i != MQ_NIL || j != MQ_NIL) {
        bool take_s = j == MQ_NIL ||
                      (i != MQ_NIL && psn_diff(at.swpb_psn, at.rpb_psn) < 0);
        uint32_t psn, end;
        if (take_s) {
            psn = at.swpb_psn;
            end = psn_add(psn, 1);
        } else {
            if (!have_r)
                mq_rpb_read(e, j, &r);
            have_r = true;
            psn = at.rpb_psn;
            end = psn_add(psn, rpb_span(&r));
        }
        if (psn_diff(psn, to_excl) >= 0 || (limit && psn_diff(psn, *limit) >= 0))
            break;
        if (psn_diff(end, from) > 0) {
            if (take_s) {
                struct swpb_elem s;
                mq_swpb_read(e, i, &s);
                send_again(e, &s);
            } else {
                if (r.done) {
                    r.rereq = 1;
                    r.rereq_psn = r.h.psn;
                    mq_rpb_write(e, j, &r);
                }
                reissue_read(e, &r);
            }
            e->st.retransmissions++;
            next = end;
            if (ENG_FAULT(e, GBN_STOPS))
                break; /* faults.h, zoo row 28: one packet, then nothing */
        }
        if (take_s) {
            i = mq_next_psn(e, MQ_SWPB, q->qpn, i, &at.swpb_psn);
        } else {
            j = mq_next_psn(e, MQ_RPB, q->qpn, j, &at.rpb_psn);
            have_r = false;
        }
    }
    return next;
}

ENG_OUT_OF_LINE static void serve_rtc_retransmit_range(struct ibe_engine *e, struct eng_qp *q,
                                       uint32_t from, uint32_t to_excl)
{
    resend(e, q, from, to_excl, NULL);
}

static void serve_rtc_pump(struct ibe_engine *e, struct eng_qp *q)
{
    if (!q->rtc.rec_active)
        return;
    uint32_t upsn;
    if (!serve_eng_upsn(e, q, &upsn) || psn_diff(q->rtc.rec_end, upsn) <= 0) {
        q->rtc.rec_active = 0;
    } else {
        if (psn_diff(q->rtc.rec_next, upsn) < 0)
            q->rtc.rec_next = upsn;
        uint32_t limit = psn_add(upsn, ENG_RECOVERY_WINDOW);
        if (psn_diff(q->rtc.rec_next, limit) < 0)
            q->rtc.rec_next = resend(e, q, q->rtc.rec_next, q->rtc.rec_end, &limit);
        if (psn_diff(q->rtc.rec_next, q->rtc.rec_end) >= 0 ||
            ENG_FAULT(e, GBN_STOPS))
            q->rtc.rec_active = 0;
    }
    if (!q->rtc.rec_active) {
        serve_rtc_resume(e, q);
        sched_wake(e, q);
    }
}

ENG_OUT_OF_LINE static void serve_rtc_retransmit_from(struct ibe_engine *e, struct eng_qp *q,
                                      uint32_t psn)
{
    if (q->rtc.rec_active && psn_diff(q->rtc.rec_next, psn) > 0)
        q->rtc.rec_next = psn;
    else if (!q->rtc.rec_active)
        q->rtc.rec_next = psn;
    q->rtc.rec_active = 1;
    struct eng_view v;
    cxt_read(e, M_REQTRANS, CXT_RD_QP, CXR_NPST, q->qpn, &v);
    q->rtc.rec_end = v.npsn;
    serve_rtc_pump(e, q);
}

/* The message being cut completes with `status` and goes (a flush, or
 * RequesterRecvControl failing the head when nothing is buffered). */
ENG_OUT_OF_LINE static bool serve_rtc_drop_seg(struct ibe_engine *e, struct eng_qp *q,
                                               uint8_t status)
{
    if (!q->rtc.seg_md)
        return false;
    serve_rtc_complete(e, q, q->rtc.seg_md->wqe_off, q->rtc.seg_md->opcode,
                       status, 0, 1);
    free(q->rtc.seg_md);
    free(q->rtc.seg_buf);
    q->rtc.seg_md = NULL;
    q->rtc.seg_buf = NULL;
    return true;
}

void rtc_step(struct ibe_engine *e, struct eng_msg *m)
{
    switch (m->port) {
    case PORT_RTC_CAN_ISSUE:
        m->ret = (int64_t)serve_rtc_can_issue(e, (struct eng_qp *)m->p[0],
                                              (uint32_t)m->a[0]);
        break;
    case PORT_RTC_TAKE:
        serve_rtc_take(e, (const struct eng_wqe_side *)m->cp[0],
                       (uint8_t *)m->p[0]);
        break;
    case PORT_RTC_RETRANSMIT_FROM:
        serve_rtc_retransmit_from(e, (struct eng_qp *)m->p[0],
                                  (uint32_t)m->a[0]);
        break;
    case PORT_RTC_RETRANSMIT_RANGE:
        serve_rtc_retransmit_range(e, (struct eng_qp *)m->p[0],
                                   (uint32_t)m->a[0], (uint32_t)m->a[1]);
        break;
    case PORT_RTC_RESUME:
        serve_rtc_resume(e, (struct eng_qp *)m->p[0]);
        break;
    case PORT_RTC_PUMP:
        serve_rtc_pump(e, (struct eng_qp *)m->p[0]);
        break;
    case PORT_ENG_UPSN:
        m->ret = (int64_t)serve_eng_upsn(e, (const struct eng_qp *)m->cp[0],
                                         (uint32_t *)m->p[0]);
        break;
    case PORT_RTC_COMPLETE:
        serve_rtc_complete(e, (struct eng_qp *)m->p[0], (uint32_t)m->a[0],
                           (uint8_t)m->a[1], (uint8_t)m->a[2],
                           (uint32_t)m->a[3], (int)m->a[4]);
        break;
    case PORT_RTC_SET_LIMIT:
        ((struct eng_qp *)m->p[0])->rtc.limit = (uint32_t)m->a[0];
        break;
    case PORT_RTC_DROP_SEG:
        m->ret = (int64_t)serve_rtc_drop_seg(e, (struct eng_qp *)m->p[0],
                                             (uint8_t)m->a[0]);
        break;
    case PORT_RTC_CUTTING:
        m->ret = ((struct eng_qp *)m->p[0])->rtc.seg_md != NULL;
        break;
    case PORT_RTC_RESET: {
        struct eng_qp *q = m->p[0];
        q->rtc.outstanding = 0;
        q->rtc.rec_active = 0;
        break;
    }
    default:
        abort(); /* a port this module does not have: a wiring bug */
    }
}
