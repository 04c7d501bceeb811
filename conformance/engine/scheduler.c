/* SPDX-License-Identifier: Apache-2.0 */
/*
 * scheduler.c - WQEScheduler: queue Q1 takes QPs with new doorbells, queue
 * Q2 QPs that still have WQEs after their turn; the WQE indicator table
 * (E22, one bit per QP) keeps a QP in at most one queue.  One WQE per turn,
 * Q1 before Q2, so a QP with a long backlog cannot starve a new one.  A QP
 * the requester cannot serve now (outstanding limit, fence, RNR wait,
 * buffer full) is parked and woken by RequesterRecvControl.
 */
#include "eng.h"

static void qpush(uint32_t *q, uint32_t *h, uint32_t *n, uint32_t v)
{
    q[(*h + *n) % (ENG_MAX_QP + 1)] = v;
    (*n)++;
}
static uint32_t qpop(uint32_t *q, uint32_t *h, uint32_t *n)
{
    uint32_t v = q[*h];
    *h = (*h + 1) % (ENG_MAX_QP + 1);
    (*n)--;
    return v;
}

static void enqueue(struct ibe_engine *e, struct eng_qp *q, int second)
{
    if (e->sched.indicator[q->qpn])
        return;
    e->sched.indicator[q->qpn] = 1;
    eng_rec_ind(e, M_SCHED, 1);
    if (second)
        qpush(e->sched.q2, &e->sched.q2h, &e->sched.q2n, q->qpn);
    else
        qpush(e->sched.q1, &e->sched.q1h, &e->sched.q1n, q->qpn);
}

static void sched_run(void *ctx, uint64_t arg)
{
    (void)arg;
    struct ibe_engine *e = ctx;
    e->sched.armed = 0;
    while (e->sched.q1n || e->sched.q2n) {
        uint32_t qpn = e->sched.q1n ? qpop(e->sched.q1, &e->sched.q1h, &e->sched.q1n)
                              : qpop(e->sched.q2, &e->sched.q2h, &e->sched.q2n);
        e->sched.indicator[qpn] = 0;
        eng_rec_ind(e, M_SCHED, 0);
        struct eng_qp *q = eng_qp(e, qpn);
        if (!q || !q->sched.db_pending)
            continue;
        if (!rtc_can_issue(e, q, q->sched.sq_hw)) {
            q->sched.parked = 1;
            continue;
        }
        struct eng_conf conf; /* the SQ's depth */
        cxt_conf(e, q->qpn, &conf);
        uint32_t slot = q->sched.sq_hw % conf.sq_depth;
        const struct rec_db *db = &q->sched.sq_db[slot];
        /* the scheduler re-reads the send context (SST) as
         * DoorbellProcessing did for the E12 it passes on */
        struct eng_view v;
        cxt_read(e, M_SCHED, CXT_RD_QP, CXR_SST, q->qpn, &v);
        struct rec_sched md = {
            .opcode = db->opcode, .fence = db->fence, .svc = v.type, .qpn = q->qpn,
            .dqpn = v.dqpn, .pd = v.pd, .pkey = v.pkey,
            .pmtu = (uint16_t)v.pmtu, .wqe_size = db->size,
            .sq_len = v.sq_len, .wqe_off = slot * ENG_SQ_SLOT};
        q->sched.db_pending--;
        q->sched.sq_hw++;
        rec_sched_put(e, CH_PARSER_IN, M_SCHED, M_PARSER, &md);
        parser_take(e);
        if (q->sched.db_pending && !q->sched.parked)
            enqueue(e, q, 1);
    }
}

void sched_kick(struct ibe_engine *e)
{
    if (!e->sched.armed) {
        e->sched.armed = 1;
        eng_at(e->w, 0, sched_run, e, 0);
    }
}

static void serve_sched_push(struct ibe_engine *e)
{
    struct rec_sched in, *md = &in;
    rec_sched_get(e, CH_SCHED_IN, md);
    struct eng_qp *q = eng_qp(e, md->qpn);
    if (!q)
        return;
    /* what the WQE's turn needs of the doorbell, kept per slot from E12 */
    struct eng_conf conf;
    cxt_conf(e, q->qpn, &conf);
    q->sched.sq_db[(md->wqe_off / ENG_SQ_SLOT) % conf.sq_depth] =
        (struct rec_db){md->opcode, md->fence, (uint8_t)md->wqe_size,
                        md->wqe_off / 16u, md->qpn};
    q->sched.db_pending++;
    if (!q->sched.parked)
        enqueue(e, q, 0);
    sched_kick(e);
}

static void serve_sched_wake(struct ibe_engine *e, struct eng_qp *q)
{
    if (!q->sched.parked)
        return;
    q->sched.parked = 0;
    if (q->sched.db_pending) {
        enqueue(e, q, 1);
        sched_kick(e);
    }
}

static void serve_sched_requeue(struct ibe_engine *e, struct eng_qp *q)
{
    q->sched.parked = 1;
    serve_sched_wake(e, q);
}

void sched_step(struct ibe_engine *e, struct eng_msg *m)
{
    switch (m->port) {
    case PORT_SCHED_PUSH:
        serve_sched_push(e);
        break;
    case PORT_SCHED_WAKE:
        serve_sched_wake(e, (struct eng_qp *)m->p[0]);
        break;
    case PORT_SCHED_REQUEUE:
        serve_sched_requeue(e, (struct eng_qp *)m->p[0]);
        break;
    default:
        abort(); /* a port this module does not have: a wiring bug */
    }
}
