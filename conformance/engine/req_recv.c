/* SPDX-License-Identifier: Apache-2.0 */
/*
 * req_recv.c - RequesterRecvControl (HanGu RDMA engine design §3.4.5): ACK,
 * NAK and read response handling against the MultiQueue, timer events and bad
 * requests.
 *
 * UPSN is the PSN of the oldest unacknowledged request (the head of the
 * SWPB or RPB list, whichever is older), NPSN the next PSN to send, RPSN
 * the PSN of the response at hand.  RPSN < UPSN (duplicate) or >= NPSN
 * (invalid) is dropped.  The cases of §3.4.5.1.2 - §3.4.5.1.5:
 *   ACK RPSN == UPSN            release UPSN
 *   ACK RPSN > UPSN, no read    coalesced: release UPSN..RPSN
 *   ACK RPSN > UPSN, read       release up to the oldest read (RdPSN),
 *                               retransmit RdPSN..NPSN (its response was lost)
 *   RNR NAK                     release before RPSN (and before RdPSN; the
 *                               reads before RPSN go again at once), then wait
 *                               for the RNR timer and retransmit from RPSN
 *   PSN / invalid request /
 *   remote access NAK           release before RPSN (up to RdPSN), retransmit
 *                               from RPSN (or RdPSN) to NPSN
 *   remote operational NAK      release before RPSN, the rest completes in
 *                               error (the first with the NAK's status, the
 *                               others Flush in Error), QP -> Error
 *   read response               implicit release before the read; responses
 *                               that show an earlier response was lost make
 *                               the read(s) go again; data go through the
 *                               ScatterEntryManager (FETCH / UPDATE / RELEASE)
 *   loss timer                  retransmit from UPSN; counter expired ->
 *                               Retry Exceeded, flush, QP -> Error
 *   bad request (E17)           waits until the buffers are empty, then
 *                               completes in error and moves the QP to Error
 * Two choices the document leaves open, made here (README.md lists them):
 * invalid-request and remote-access NAKs are retried as the document says
 * but count against retry_cnt, and when it is exhausted the WQE completes
 * with the NAK's own status; on a loss-timer expiry everything from UPSN
 * goes again (Go-Back-N), not only the UPSN packet.
 */
#include "eng.h"

#include "ibwire/wire.h"

/* Release the Send/Write packets older than `limit` that no unfinished read
 * precedes; completes each message whose last packet goes. */
static unsigned release_before(struct ibe_engine *e, struct eng_qp *q, uint32_t limit)
{
    unsigned n = 0;
    /* one MultiQueue question per packet: both list heads (MQ_NIL when
     * empty); the RPB head is asked again each time, as completing a
     * message may post a read */
    for (;;) {
        struct mq_heads hd;
        mq_head_psns(e, q->qpn, &hd);
        uint32_t head = hd.swpb;
        if (head == MQ_NIL)
            break;
        if (psn_diff(hd.swpb_psn, limit) >= 0)
            break;
        if (hd.rpb != MQ_NIL && psn_diff(hd.rpb_psn, hd.swpb_psn) < 0)
            break;
        struct mq_swpb_msg s;
        mq_swpb_msg(e, head, &s);
        uint8_t last = s.last, op = s.wr_opcode;
        uint32_t slot = s.wqe_slot, len = s.msg_len;
        eng_rec_mq(e, M_REQRECV, 2, q->qpn, head);
        mq_pop(e, MQ_SWPB, q->qpn);
        n++;
        if (last)
            rtc_complete(e, q, slot, op, IBE_WC_SUCCESS, len, 1);
    }
    return n;
}

/* The oldest buffered read's (or atomic's) element, MQ_NIL when none, and
 * its PSN. */
static uint32_t oldest_read(struct ibe_engine *e, struct eng_qp *q, uint32_t *psn)
{
    struct mq_heads hd;
    mq_head_psns(e, q->qpn, &hd);
    *psn = hd.rpb_psn;
    return hd.rpb;
}

static void loss_timer(struct ibe_engine *e, struct eng_qp *q, uint8_t op)
{
    struct eng_conf c;
    cxt_conf(e, q->qpn, &c);
    struct rec_tset t = {op, q->qpn, c.retry_cnt, c.timeout, TM_LOSS};
    timer_set(e, M_REQRECV, &t);
}

static void after_progress(struct ibe_engine *e, struct eng_qp *q)
{
    q->rrc.nak_retries = 0;
    q->rrc.fault_rnr_naks = 0;
    timer_clear_count(e, q->qpn, TM_RNR);
    if (!q->rrc.rnr_wait) {
        if (!!mq_empty(e, MQ_SWPB, q->qpn) && !!mq_empty(e, MQ_RPB, q->qpn))
            loss_timer(e, q, TMO_STOP);
        else
            loss_timer(e, q, TMO_SET);
    }
    rtc_pump(e, q);
    rtc_resume(e, q);
    rrc_try_bad(e, q);
    sched_wake(e, q);
}

static uint8_t bad_status(uint8_t reqstate)
{
    switch (reqstate) {
    case RS_OPCODE: return IBE_WC_LOC_QP_OP_ERR;
    case RS_LOCAL_ACCESS: return IBE_WC_LOC_PROT_ERR;
    case RS_LENGTH: return IBE_WC_LOC_LEN_ERR;
    default: return IBE_WC_WR_FLUSH_ERR;
    }
}

/* Pop the oldest message and complete it with `status`. */
static bool complete_oldest(struct ibe_engine *e, struct eng_qp *q, uint8_t status)
{
    uint32_t psn;
    int k = eng_upsn(e, q, &psn);
    if (k == 1) {
        for (;;) {
            struct mq_swpb_msg s;
            mq_swpb_msg(e, mq_head(e, MQ_SWPB, q->qpn), &s);
            uint8_t last = s.last, op = s.wr_opcode;
            uint32_t slot = s.wqe_slot;
            mq_pop(e, MQ_SWPB, q->qpn);
            if (last) {
                rtc_complete(e, q, slot, op, status, 0, 1);
                break;
            }
            if (mq_empty(e, MQ_SWPB, q->qpn))
                return true; /* the rest of it is still being cut */
        }
        return true;
    }
    if (k == 2) {
        struct rpb_elem elem, *r = &elem;
        mq_rpb_read(e, mq_head(e, MQ_RPB, q->qpn), r);
        struct rec_sem c = {SEM_RELEASE, (uint8_t)r->reb_count, q->qpn, 0, 0, 0}, rs;
        if (r->reb_count)
            sem_cmd(e, &c, &rs);
        uint8_t op = r->wr_opcode;
        uint32_t slot = r->wqe_slot;
        mq_pop(e, MQ_RPB, q->qpn);
        rtc_complete(e, q, slot, op, status, 0, 1);
        return true;
    }
    return false;
}

void rrc_flush_sq(struct ibe_engine *e, struct eng_qp *q)
{
    loss_timer(e, q, TMO_STOP);
    struct rec_tset t = {TMO_STOP, q->qpn, 0, 0, TM_RNR};
    timer_set(e, M_REQRECV, &t);
    q->rrc.rnr_wait = 0;
    while (complete_oldest(e, q, IBE_WC_WR_FLUSH_ERR))
        ;
    rtc_drop_seg(e, q, IBE_WC_WR_FLUSH_ERR);
    if (q->rrc.bad_pending) {
        q->rrc.bad_pending = 0;
        rtc_complete(e, q, q->rrc.bad_slot, q->rrc.bad_op, bad_status(q->rrc.bad_code), 0, 0);
    }
    struct rec_sem c = {SEM_FLUSH, 0, q->qpn, 0, 0, 0}, rs;
    sem_cmd(e, &c, &rs);
    rtc_reset(e, q);
    q->rrc.acked_valid = 0;
    sched_requeue(e, q); /* the WQEs not yet parsed go through as flushed */
}

static void fail_head(struct ibe_engine *e, struct eng_qp *q, uint8_t status)
{
    if (!complete_oldest(e, q, status))
        rtc_drop_seg(e, q, status);
    cxt_write(e, M_REQRECV, CXW_STATE, q->qpn, IBE_QPS_ERR, 0);
    rrc_flush_sq(e, q);
}

static void serve_rrc_bad_request(struct ibe_engine *e)
{
    struct rec_bad in, *b = &in;
    rec_bad_get(e, b);
    struct eng_qp *q = eng_qp_known(e, b->qpn);
    q->rrc.bad_pending = 1;
    q->rrc.bad_slot = b->wqe_off;
    q->rrc.bad_code = b->errtype;
    q->rrc.bad_op = b->opcode;
    rrc_try_bad(e, q);
}

void rrc_try_bad(struct ibe_engine *e, struct eng_qp *q)
{
    if (!q->rrc.bad_pending || !mq_empty(e, MQ_SWPB, q->qpn) || !mq_empty(e, MQ_RPB, q->qpn) ||
        rtc_cutting(e, q))
        return;
    q->rrc.bad_pending = 0;
    rtc_complete(e, q, q->rrc.bad_slot, q->rrc.bad_op, bad_status(q->rrc.bad_code), 0, 0);
    cxt_write(e, M_REQRECV, CXW_STATE, q->qpn, IBE_QPS_ERR, 0);
    rrc_flush_sq(e, q);
}

static void serve_rrc_cnp(struct ibe_engine *e, struct eng_qp *q)
{
    e->st.cnp_rx++;
    struct eng_conf c;
    cxt_conf(e, q->qpn, &c);
    unsigned full = c.max_outstanding ? c.max_outstanding : 16;
    rtc_set_limit(e, q, full / 2 ? full / 2 : 1);
    struct rec_tset t = {TMO_SET, q->qpn, 0, 0, TM_CNP};
    timer_set(e, M_REQRECV, &t);
}

/* A lost read response is acted on once per read position; if the
 * retransmitted request is lost too, the loss timer takes over. */
static bool read_retx_once(struct eng_qp *q, uint32_t rd)
{
    if (q->rrc.rd_retx_valid && q->rrc.rd_retx_psn == rd)
        return false;
    q->rrc.rd_retx_valid = 1;
    q->rrc.rd_retx_psn = rd;
    return true;
}

static void on_ack(struct ibe_engine *e, struct eng_qp *q, const struct eng_hdr *h)
{
    unsigned n = release_before(e, q, psn_add(h->psn, 1));
    if (!q->rrc.acked_valid || psn_diff(h->psn, q->rrc.acked_psn) > 0) {
        q->rrc.acked_psn = h->psn;
        q->rrc.acked_valid = 1;
    }
    uint32_t rd;
    bool lost_read = oldest_read(e, q, &rd) != MQ_NIL &&
                     psn_diff(rd, h->psn) <= 0 && read_retx_once(q, rd);
    if (lost_read)
        rtc_retransmit_from(e, q, rd);
    if (n || lost_read)
        after_progress(e, q);
}

static void retry_from_nak(struct ibe_engine *e, struct eng_qp *q, uint32_t rpsn)
{
    uint32_t from = rpsn, rd;
    if (oldest_read(e, q, &rd) != MQ_NIL && psn_diff(rd, rpsn) < 0)
        from = rd;
    rtc_retransmit_from(e, q, from);
}

static void on_nak(struct ibe_engine *e, struct eng_qp *q, const struct eng_hdr *h)
{
    unsigned kind = ibw_aeth_syndrome_kind(h->syndrome);
    unsigned val = ibw_aeth_syndrome_value(h->syndrome);
    unsigned n = release_before(e, q, h->psn);
    if (kind == IBW_AETH_RNR_NAK) {
        e->st.rnr_naks_rx++;
        uint32_t rd;
        if (oldest_read(e, q, &rd) != MQ_NIL && psn_diff(rd, h->psn) < 0)
            rtc_retransmit_range(e, q, rd, h->psn);
        q->rrc.nak_retries = 0;
        if (ENG_FAULT(e, RNR_RETRY_FINITE)) {
            /* faults.h, zoo row 26: RNR retry count 7 taken as 7 tries */
            struct eng_conf rc7;
            cxt_conf(e, q->qpn, &rc7);
            if (rc7.rnr_retry == 7 && ++q->rrc.fault_rnr_naks > 7) {
                fail_head(e, q, IBE_WC_RNR_RETRY_EXC_ERR);
                return;
            }
        }
        if (ENG_FAULT(e, RNR_NO_WAIT)) {
            /* faults.h, zoo row 8: the RNR timer ignored, the request
             * resent at once, as after a sequence NAK */
            rtc_retransmit_from(e, q, h->psn);
            loss_timer(e, q, TMO_SET);
            if (n) {
                rtc_resume(e, q);
                sched_wake(e, q);
            }
            return;
        }
        loss_timer(e, q, TMO_STOP);
        q->rrc.rnr_wait = 1;
        q->rrc.rnr_psn = h->psn;
        struct tm_entry rnr;
        timer_entry(e, q->qpn, TM_RNR, &rnr);
        struct eng_conf c;
        cxt_conf(e, q->qpn, &c);
        struct rec_tset t = {rnr.count ? TMO_RESTART : TMO_SET, q->qpn,
                             c.rnr_retry, (uint8_t)val, TM_RNR};
        timer_set(e, M_REQRECV, &t);
        if (n) {
            rtc_resume(e, q);
            rrc_try_bad(e, q);
        }
        return;
    }
    switch (val) {
    case IBW_NAK_PSN_SEQ_ERROR:
        e->st.seq_naks_rx++;
        if (q->rrc.rnr_wait) {
            /* IBA 9.7.5.2.8: after an RNR NAK the requester resends when
             * the RNR timer expires.  A sequence NAK that names no later
             * PSN than the RNR-NAKed one (a responder that NAKs the
             * requests sent behind it, as Linux rxe does) acknowledges
             * nothing new: the wait goes on (Linux rxe's requester:
             * wait_for_rnr_timer holds its retry).  One naming a later
             * PSN means the NAKed request was taken: the wait is over. */
            if (psn_diff(h->psn, q->rrc.rnr_psn) <= 0) {
                if (n)
                    rtc_resume(e, q);
                return;
            }
            struct rec_tset t = {TMO_STOP, q->qpn, 0, 0, TM_RNR};
            timer_set(e, M_REQRECV, &t);
            q->rrc.rnr_wait = 0;
        }
        retry_from_nak(e, q, h->psn);
        loss_timer(e, q, TMO_SET);
        if (n) {
            rtc_resume(e, q);
            sched_wake(e, q);
        }
        return;
    case IBW_NAK_INVALID_REQUEST:
    case IBW_NAK_REMOTE_ACCESS_ERROR:
        e->st.other_naks_rx++;
        struct eng_conf c;
        cxt_conf(e, q->qpn, &c);
        if (++q->rrc.nak_retries > c.retry_cnt) {
            fail_head(e, q, val == IBW_NAK_INVALID_REQUEST ? IBE_WC_REM_INV_REQ_ERR
                                                          : IBE_WC_REM_ACCESS_ERR);
            return;
        }
        retry_from_nak(e, q, h->psn);
        loss_timer(e, q, TMO_SET);
        return;
    case IBW_NAK_REMOTE_OP_ERROR:
        e->st.other_naks_rx++;
        fail_head(e, q, IBE_WC_REM_OP_ERR);
        return;
    default:
        e->st.other_naks_rx++;
        fail_head(e, q, IBE_WC_BAD_RESP_ERR);
        return;
    }
}

/* Write one read/atomic response's bytes through the scatter entries. */
static bool scatter(struct ibe_engine *e, struct eng_qp *q, const uint8_t *data,
                    uint32_t len)
{
    uint32_t off = 0;
    while (off < len) {
        struct rec_sem c = {SEM_FETCH, 0, q->qpn, 0, 0, 0}, r;
        if (sem_cmd(e, &c, &r) != 0)
            return false;
        uint32_t n = len - off < r.len ? len - off : r.len;
        eng_dma_write(e, M_REQRECV, r.va, data + off, n);
        off += n;
        if (n == r.len) {
            struct rec_sem rel = {SEM_RELEASE, 1, q->qpn, 0, 0, 0}, rr;
            sem_cmd(e, &rel, &rr);
        } else {
            struct rec_sem up = {SEM_UPDATE, 0, q->qpn, r.len - n, r.key, r.va + n}, ur;
            sem_cmd(e, &up, &ur);
        }
    }
    return true;
}

static void on_read_resp(struct ibe_engine *e, struct eng_qp *q,
                         const struct eng_hdr *h, const uint8_t *payload,
                         uint32_t upsn, int kind)
{
    bool atomic = h->opcode == IBW_OP_RC_ATOMIC_ACKNOWLEDGE;
    bool first_like = atomic || ibw_opcode_is_first(h->opcode);
    if (mq_empty(e, MQ_RPB, q->qpn))
        return;
    if (psn_diff(h->psn, upsn) > 0) {
        if (first_like && kind == 1) {
            /* implicit release of the Sends/Writes before the oldest read */
            unsigned n = release_before(e, q, h->psn);
            uint32_t rd;
            oldest_read(e, q, &rd);
            if (rd != h->psn) {
                /* an earlier read's response was lost: go again from it
                 * through the request of RPSN */
                if (ENG_FAULT(e, READ_GAP_DROPPED))
                    return;
                if (read_retx_once(q, rd))
                    rtc_retransmit_range(e, q, rd, psn_add(h->psn, 1));
                after_progress(e, q);
                return;
            }
            if (n)
                after_progress(e, q);
        } else {
            /* case 1 (First/Only, UPSN is a read) and case 2 (Middle/Last):
             * a response before this one was lost */
            if (ENG_FAULT(e, READ_GAP_DROPPED))
                return;
            uint32_t rd;
            oldest_read(e, q, &rd);
            if (read_retx_once(q, rd))
                rtc_retransmit_range(e, q, rd, psn_add(first_like ? h->psn : rd, 1));
            return;
        }
    }
    uint32_t head = mq_head(e, MQ_RPB, q->qpn);
    struct rpb_elem elem, *r = &elem;
    mq_rpb_read(e, head, r);
    if (r->h.psn != h->psn)
        return;
    bool want_atomic = r->wr_opcode != IBE_WR_RDMA_READ;
    if (want_atomic != atomic)
        return;
    uint32_t pmtu = r->pmtu, remain = r->msg_len - r->done;
    uint8_t orig[8];
    const uint8_t *data = payload;
    uint32_t len = h->paylen;
    bool last;
    if (atomic) {
        for (int i = 0; i < 8; i++)
            orig[i] = (uint8_t)(h->orig >> (8 * i)); /* host order (LE) */
        data = orig;
        len = 8;
        last = true;
    } else {
        bool mid = eng_op_more_follow(h->opcode);
        bool is_first = ibw_opcode_is_first(h->opcode);
        if (r->done == 0 ? !is_first
                         : (is_first && !(r->rereq && r->rereq_psn == h->psn)))
            return; /* First/Only at the start (or where the read was
                       requested again), Middle/Last after */
        if (mid ? (len != pmtu || remain <= pmtu) : len != remain)
            return; /* wrong length: treat as lost */
        last = !mid;
    }
    if (!scatter(e, q, data, len))
        return;
    r->done += atomic ? 0 : len;
    r->h.psn = psn_add(r->h.psn, 1);
    r->h.va += len;
    r->h.dmalen -= atomic ? 0 : len;
    mq_rpb_write(e, head, r);
    if (last) {
        uint8_t op = r->wr_opcode;
        uint32_t slot = r->wqe_slot, total = r->msg_len;
        eng_rec_mq(e, M_REQRECV, 0, q->qpn, mq_head(e, MQ_RPB, q->qpn));
        mq_pop(e, MQ_RPB, q->qpn);
        rtc_complete(e, q, slot, op, IBE_WC_SUCCESS, total, 1);
        if (q->rrc.acked_valid)
            release_before(e, q, psn_add(q->rrc.acked_psn, 1));
    }
    after_progress(e, q);
}

static void serve_rrc_response(struct ibe_engine *e, const uint8_t *payload)
{
    struct eng_hdr in, *h = &in;
    rec_hdr_get(e, CH_RRC_IN, h);
    /* the HeaderParser checked the QP */
    struct eng_qp *q = eng_qp_known(e, h->destqp);
    struct eng_view v; /* CST: state, NextPSN (and the service type) */
    cxt_read(e, M_REQRECV, CXT_RD_CQ, CXR_CST, q->qpn, &v);
    if (v.state != IBE_QPS_RTS || v.type != IBE_RC)
        return;
    uint32_t upsn;
    int kind = eng_upsn(e, q, &upsn);
    if (!kind)
        return; /* nothing outstanding: a duplicate */
    if (psn_diff(h->psn, upsn) < 0)
        return; /* duplicate region */
    if (psn_diff(h->psn, v.npsn) >= 0) { /* invalid region: nothing sent there */
        if (!ENG_FAULT(e, ACK_BEYOND_ACCEPTED) || h->opcode != IBW_OP_RC_ACKNOWLEDGE ||
            ibw_aeth_syndrome_kind(h->syndrome) != IBW_AETH_ACK)
            return;
        in.psn = (v.npsn - 1) & PSN_MASK; /* taken as an ACK of all sent */
    }
    if (h->opcode == IBW_OP_RC_ACKNOWLEDGE) {
        if (ibw_aeth_syndrome_kind(h->syndrome) == IBW_AETH_ACK)
            on_ack(e, q, h);
        else
            on_nak(e, q, h);
    } else {
        on_read_resp(e, q, h, payload, upsn, kind);
    }
    /* UnAckedPSN back into the context (WR_QP_CTX UAPST) when it moved:
     * the oldest PSN still buffered, the NextPSN when none is */
    uint32_t now;
    if (!eng_upsn(e, q, &now)) {
        struct eng_view n;
        cxt_read(e, M_REQRECV, CXT_RD_CQ, CXR_CST, q->qpn, &n);
        now = n.npsn;
    }
    if (now != v.upsn)
        cxt_write(e, M_REQRECV, CXW_UAPST, q->qpn, v.state, now);
}

static void serve_rrc_timer(struct ibe_engine *e, const struct rec_texp *ev)
{
    struct eng_qp *q = eng_qp(e, ev->qpn);
    if (!q)
        return;
    struct eng_view v;
    cxt_read(e, M_REQRECV, CXT_RD_CQ, CXR_CST, q->qpn, &v);
    if (v.state != IBE_QPS_RTS)
        return;
    uint32_t upsn;
    if (ev->which == TM_LOSS) {
        if (!eng_upsn(e, q, &upsn))
            return;
        e->st.timeouts++;
        if (ev->event == TME_COUNTER) {
            fail_head(e, q, IBE_WC_RETRY_EXC_ERR);
            return;
        }
        q->rrc.rd_retx_valid = 0;
        rtc_retransmit_from(e, q, upsn);
        loss_timer(e, q, TMO_RESTART);
    } else if (ev->which == TM_RNR) {
        if (ev->event == TME_COUNTER) {
            q->rrc.rnr_wait = 0;
            fail_head(e, q, IBE_WC_RNR_RETRY_EXC_ERR);
            return;
        }
        q->rrc.rnr_wait = 0;
        if (eng_upsn(e, q, &upsn)) {
            uint32_t from = psn_diff(q->rrc.rnr_psn, upsn) >= 0 ? q->rrc.rnr_psn : upsn;
            rtc_retransmit_from(e, q, from);
            loss_timer(e, q, TMO_SET);
        }
        rtc_resume(e, q);
        sched_wake(e, q);
    }
}

void rrc_step(struct ibe_engine *e, struct eng_msg *m)
{
    switch (m->port) {
    case PORT_RRC_RESPONSE:
        serve_rrc_response(e, (const uint8_t *)m->cp[0]);
        break;
    case PORT_RRC_TIMER:
        serve_rrc_timer(e, (const struct rec_texp *)m->cp[0]);
        break;
    case PORT_RRC_BAD_REQUEST:
        serve_rrc_bad_request(e);
        break;
    case PORT_RRC_CNP:
        serve_rrc_cnp(e, (struct eng_qp *)m->p[0]);
        break;
    case PORT_RRC_HOLDS: {
        const struct eng_qp *q = m->p[0];
        m->ret = (q->rrc.rnr_wait ? RRC_RNR_WAIT : 0) |
                 (q->rrc.bad_pending ? RRC_BAD_PENDING : 0);
        break;
    }
    default:
        abort(); /* a port this module does not have: a wiring bug */
    }
}
