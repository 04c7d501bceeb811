/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rqwqe_mgr.c - RQWQEManager (HanGu RDMA engine design §4.4.2): the responder
 * has no doorbell, so a Send (or Write with Immediate) is the trigger.  The
 * manager keeps a 512-byte fetch window read from the RQ ring at its own
 * WQE offset and splits it at the 16-byte all-zero terminator that ends
 * every receive WQE.  FETCH loads the head WQE's scatter entries into the
 * QP's working set (answer: valid entry, or invalid WQE = receiver not
 * ready); UPDATE/RELEASE_ENTRY track consumption; RELEASE_WQE retires it.
 */
#include "eng.h"

enum { WINDOW = 512 };

static void fetch_window(struct ibe_engine *e, struct eng_qp *q, uint32_t pd)
{
    uint64_t off = (uint64_t)(q->rq_ci % q->rq_depth) * ENG_RQ_SLOT;
    uint64_t ring = (uint64_t)q->rq_depth * ENG_RQ_SLOT;
    uint32_t n = (uint32_t)(ring - off < WINDOW ? ring - off : WINDOW);
    memset(q->win, 0, sizeof q->win);
    eng_xlate(e, M_RQWQE, XL_RD_WQE, 3, pd, 0, q->rq_base + off, n, 0);
    eng_dma_read(e, M_RQWQE, q->rq_base + off, q->win, n);
    q->win_slot = q->rq_ci;
    q->win_pi = q->rq_pi;
    q->win_valid = 1;
}

static void serve_rqm_reset(struct ibe_engine *e, struct eng_qp *q)
{
    (void)e;
    q->rqm_loaded = 0;
    q->rsg_n = 0;
    q->win_valid = 0;
}

/* Load the head receive WQE's entries; RQR_INVALID_WQE when none is
 * posted or it does not parse. */
static uint8_t load_wqe(struct ibe_engine *e, struct eng_qp *q, uint32_t pd)
{
    if (q->rq_ci == q->rq_pi) /* nothing posted: receiver not ready */
        return RQR_INVALID_WQE;
    /* the window holds the WQEs at win_slot.. that were posted when it
     * was read; anything else needs a new read */
    uint32_t rel = q->rq_ci - q->win_slot;
    uint64_t ring = (uint64_t)q->rq_depth * ENG_RQ_SLOT;
    uint64_t base = (uint64_t)(q->win_slot % q->rq_depth) * ENG_RQ_SLOT;
    if (!q->win_valid || rel * ENG_RQ_SLOT + ENG_RQ_SLOT > WINDOW ||
        base + (uint64_t)rel * ENG_RQ_SLOT >= ring ||
        q->rq_ci - q->win_slot >= q->win_pi - q->win_slot) {
        fetch_window(e, q, pd);
        rel = 0;
    }
    if (hf_split_recv_wqe(q->win + rel * ENG_RQ_SLOT, WINDOW - rel * ENG_RQ_SLOT,
                          IBE_RC /* a receive WQE reads alike for every
                                    service */, q->rsg, &q->rsg_n))
        return RQR_INVALID_WQE;
    q->rsg_i = 0;
    q->rqm_loaded = 1;
    return RQR_VALID;
}

/* The E10 commands, entry by entry: FETCH_ENTRY answers the loaded WQE's
 * head entry (loading the head WQE first; invalid entry when its entries
 * are used up, invalid WQE when none is posted); UPDATE_ENTRY rewrites the
 * head entry with what is left of it; RELEASE_ENTRY drops it; RELEASE_WQE
 * retires the WQE; FLUSH unloads it (a message abandoned: the next FETCH
 * starts the WQE again from its first entry). */
static int serve_rqm_cmd(struct ibe_engine *e, const struct rec_rq *out,
                         struct rec_rq *answer)
{
    rec_rq_put(e, 0, out);
    struct rec_rq in, *cmd = &in, back, *resp = &back;
    rec_rq_get(e, 0, cmd);
    struct eng_qp *q = eng_qp_known(e, cmd->qpn);
    memset(resp, 0, sizeof *resp);
    resp->qpn = q->qpn;
    resp->code = RQR_VALID;
    switch (cmd->op) {
    case RQ_FETCH:
        if (!q->rqm_loaded && (resp->code = load_wqe(e, q, cmd->pd)) != RQR_VALID)
            break;
        resp->wqe_off = (q->rq_ci % q->rq_depth) * ENG_RQ_SLOT;
        if (q->rsg_i < q->rsg_n) {
            resp->len = q->rsg[q->rsg_i].length;
            resp->key = q->rsg[q->rsg_i].lkey;
            resp->va = q->rsg[q->rsg_i].addr;
        } else {
            resp->code = RQR_INVALID_ENTRY; /* no (more) entries */
        }
        break;
    case RQ_UPDATE:
        if (q->rqm_loaded && q->rsg_i < q->rsg_n) {
            q->rsg[q->rsg_i].length = cmd->len;
            q->rsg[q->rsg_i].lkey = cmd->key;
            q->rsg[q->rsg_i].addr = cmd->va;
        } else {
            resp->code = RQR_INVALID_ENTRY;
        }
        break;
    case RQ_RELEASE_ENTRY:
        if (q->rqm_loaded && q->rsg_i < q->rsg_n)
            q->rsg_i++;
        else
            resp->code = RQR_INVALID_ENTRY;
        break;
    case RQ_RELEASE_WQE:
        q->rq_ci++;
        q->rqm_loaded = 0;
        q->rsg_n = 0;
        break;
    default: /* FLUSH */
        q->rqm_loaded = 0;
        q->rsg_n = 0;
        break;
    }
    /* every command is answered (E11) */
    rec_rq_put(e, 1, resp);
    rec_rq_get(e, 1, answer);
    return answer->code;
}

void rqm_step(struct ibe_engine *e, struct eng_msg *m)
{
    switch (m->port) {
    case PORT_RQM_CMD:
        m->ret = (int64_t)serve_rqm_cmd(e, (const struct rec_rq *)m->cp[0],
                                        (struct rec_rq *)m->p[0]);
        break;
    case PORT_RQM_RESET:
        serve_rqm_reset(e, (struct eng_qp *)m->p[0]);
        break;
    default:
        abort(); /* a port this module does not have: a wiring bug */
    }
}
