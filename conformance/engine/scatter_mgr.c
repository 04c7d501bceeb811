/*
 * scatter_mgr.c - ScatterEntryManager (seed 000 §3.4.5.4.1): owns the REB
 * lists of read/atomic scatter entries.  FETCH returns the entry at the head
 * of the QP's list, UPDATE rewrites it (the VA and length that remain after
 * a response packet was written), RELEASE frees it, FLUSH frees them all.
 * Commands are E8, answers E9 (0x00 valid entry, 0x01 invalid entry), one
 * answer for every command.
 */
#include "eng.h"

int sem_cmd(struct ibe_engine *e, const struct rec_sem *out, struct rec_sem *answer)
{
    rec_sem_put(e, 0, out);
    struct rec_sem in, *cmd = &in, back, *resp = &back;
    rec_sem_get(e, 0, cmd);
    struct eng_qp *q = eng_qp(e, cmd->qpn);
    if (!q)
        abort();
    struct mq_list *l = &e->reb_list[q->qpn];
    memset(resp, 0, sizeof *resp);
    resp->qpn = q->qpn;
    resp->op = 0x01; /* invalid entry unless found */
    switch (cmd->op) {
    case SEM_FETCH:
        if (l->head != MQ_NIL) {
            const struct reb_elem *r = &e->reb[l->head];
            resp->op = 0x00;
            resp->va = r->va;
            resp->len = r->len;
            resp->key = r->key;
        }
        break;
    case SEM_UPDATE:
        if (l->head != MQ_NIL) {
            e->reb[l->head].va = cmd->va;
            e->reb[l->head].len = cmd->len;
            resp->op = 0x00;
        }
        break;
    case SEM_RELEASE:
        for (unsigned i = 0; i < (cmd->num ? cmd->num : 1u) && l->head != MQ_NIL; i++)
            mq_pop(&e->reb_pool, l);
        resp->op = 0x00;
        break;
    case SEM_FLUSH:
        while (l->head != MQ_NIL)
            mq_pop(&e->reb_pool, l);
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
