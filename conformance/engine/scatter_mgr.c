/* SPDX-License-Identifier: Apache-2.0 */
/*
 * scatter_mgr.c - ScatterEntryManager (HanGu RDMA engine design §3.4.5.4.1):
 * owns the REB lists of read/atomic scatter entries.  FETCH returns the entry
 * at the head of the QP's list, UPDATE rewrites it (the VA and length that
 * remain after a response packet was written), RELEASE frees it, FLUSH frees
 * them all.  Commands are E8, answers E9 (0x00 valid entry, 0x01 invalid
 * entry), one answer for every command.
 */
#include "eng.h"

static int serve_sem_cmd(struct ibe_engine *e, const struct rec_sem *out,
                         struct rec_sem *answer)
{
    rec_sem_put(e, 0, out);
    struct rec_sem in, *cmd = &in, back, *resp = &back;
    rec_sem_get(e, 0, cmd);
    struct eng_qp *q = eng_qp_known(e, cmd->qpn);
    uint32_t head = mq_head(e, MQ_REB, q->qpn);
    memset(resp, 0, sizeof *resp);
    resp->qpn = q->qpn;
    resp->op = 0x01; /* invalid entry unless found */
    switch (cmd->op) {
    case SEM_FETCH:
        if (head != MQ_NIL) {
            struct ibe_sge g;
            mq_reb_read(e, head, &g);
            resp->op = 0x00;
            resp->va = g.addr;
            resp->len = g.length;
            resp->key = g.lkey;
        }
        break;
    case SEM_UPDATE:
        if (head != MQ_NIL) {
            struct ibe_sge g = {cmd->va, cmd->len, cmd->key};
            mq_reb_write(e, head, &g);
            resp->op = 0x00;
        }
        break;
    case SEM_RELEASE:
        for (unsigned i = 0; i < (cmd->num ? cmd->num : 1u) &&
                             !mq_empty(e, MQ_REB, q->qpn); i++)
            mq_pop(e, MQ_REB, q->qpn);
        resp->op = 0x00;
        break;
    case SEM_FLUSH:
        while (!mq_empty(e, MQ_REB, q->qpn))
            mq_pop(e, MQ_REB, q->qpn);
        resp->op = 0x00;
        break;
    default:
        break;
    }
    /* every command is answered with an E9 (UPDATE/RELEASE/FLUSH: 0x00
     * done, UPDATE of an empty list 0x01) */
    rec_sem_put(e, 1, resp);
    rec_sem_get(e, 1, answer);
    return answer->op;
}

void sem_step(struct ibe_engine *e, struct eng_msg *m)
{
    switch (m->port) {
    case PORT_SEM_CMD:
        m->ret = (int64_t)serve_sem_cmd(e, (const struct rec_sem *)m->cp[0],
                                        (struct rec_sem *)m->p[0]);
        break;
    default:
        abort(); /* a port this module does not have: a wiring bug */
    }
}
