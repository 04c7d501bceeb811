/*
 * context.c - the context manager: QP state and PSN context reads/writes
 * (E2 commands), and the CQ writer that turns completions into CQE bytes
 * in host memory (H4) and raises CQ events (solicited-only arming).
 */
#include "eng.h"

void cxt_init_qp(struct ibe_engine *e, struct eng_qp *q)
{
    q->state = IBE_QPS_INIT;
    q->limit = 16;
    mq_list_init(&q->swpb);
    mq_list_init(&q->rpb);
    mq_list_init(&e->reb_list[q->qpn]);
    for (int i = 0; i < 3; i++)
        memset(&q->tm[i], 0, sizeof q->tm[i]);
    struct rec_cxt c = {2 /* WR_QP_CTX */, 1 /* ALL */, q->qpn, q->state, 0};
    eng_rec_cxt(e, M_HOST, M_CXT, &c);
}

/* Every receive WQE still posted completes with Flush in Error. */
void cxt_flush_rq(struct ibe_engine *e, struct eng_qp *q)
{
    while (q->rq_ci != q->rq_pi) {
        struct ibe_wc wc;
        memset(&wc, 0, sizeof wc);
        wc.status = IBE_WC_WR_FLUSH_ERR;
        uint32_t idx = q->rq_ci % q->rq_depth;
        q->rq_ci++;
        cxt_cq_push(e, q->rcq, &wc, idx * ENG_RQ_SLOT, 0, q->qpn, 0);
    }
    q->rsg_n = 0;
    q->win_valid = 0;
    q->recv_active = 0;
}

void cxt_set_state(struct ibe_engine *e, struct eng_qp *q, uint8_t state)
{
    q->state = state;
    struct rec_cxt c = {2 /* WR_QP_CTX */, 5 /* STATE */, q->qpn, state, 0};
    eng_rec_cxt(e, M_HOST, M_CXT, &c);
    if (state == IBE_QPS_ERR)
        cxt_flush_rq(e, q);
}

void cxt_cq_push(struct ibe_engine *e, uint32_t cqn, const struct ibe_wc *wc,
                 uint32_t wqe_offset, int is_send, uint32_t qpn, uint8_t opcode)
{
    if (cqn >= ENG_MAX_CQ || !e->cq[cqn].valid)
        return;
    struct eng_cq *cq = &e->cq[cqn];
    struct ibe_wc c = *wc;
    c.is_send = (uint8_t)is_send;
    c.qpn = qpn;
    uint8_t cqe[ENG_CQE];
    hf_write_cqe(cqe, &c, wqe_offset, opcode);
    eng_dma_write(e, M_CXT, cq->base + (uint64_t)(cq->pi % cq->depth) * ENG_CQE,
                  cqe, ENG_CQE);
    cq->pi++;
    if (cq->armed && (!cq->solicited_only || c.solicited ||
                      c.status != IBE_WC_SUCCESS)) {
        cq->armed = 0;
        cq->events++;
    }
}
