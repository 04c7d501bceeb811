/* SPDX-License-Identifier: Apache-2.0 */
/*
 * doorbell.c - DoorbellProcessing: takes the SQ doorbell (E1), reads the
 * QP's read-only send context (E2, SST view) and hands the WQE's metadata
 * (E12) to the WQEScheduler.
 */
#include "eng.h"

static void serve_db_ring(struct ibe_engine *e)
{
    struct rec_db in, *db = &in;
    rec_db_get(e, db);
    struct eng_qp *q = eng_qp(e, db->qpn);
    if (!q)
        return; /* a doorbell for a QP that does not exist is ignored */
    struct eng_view v;
    cxt_read(e, M_DOORBELL, CXT_RD_QP, CXR_SST, q->qpn, &v);
    struct rec_sched md = {
        .opcode = db->opcode, .fence = db->fence, .svc = v.type,
        .qpn = q->qpn, .dqpn = v.dqpn, .pd = v.pd, .lkey = 0,
        .pkey = v.pkey, .pmtu = (uint16_t)v.pmtu,
        .wqe_size = db->size, .sq_len = v.sq_len,
        .wqe_off = db->offset * 16u};
    rec_sched_put(e, CH_SCHED_IN, M_DOORBELL, M_SCHED, &md);
    sched_push(e);
}

void db_step(struct ibe_engine *e, struct eng_msg *m)
{
    switch (m->port) {
    case PORT_DB_RING:
        serve_db_ring(e);
        break;
    default:
        abort(); /* a port this module does not have: a wiring bug */
    }
}
