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

static void fetch_window(struct ibe_engine *e, struct eng_qp *q, uint32_t pd,
                         const struct eng_conf *ring_of)
{
    uint64_t off = (uint64_t)(q->rqm.rq_ci % ring_of->rq_depth) * ENG_RQ_SLOT;
    uint64_t ring = (uint64_t)ring_of->rq_depth * ENG_RQ_SLOT;
    uint32_t n = (uint32_t)(ring - off < WINDOW ? ring - off : WINDOW);
    memset(q->rqm.win, 0, sizeof q->rqm.win);
    eng_xlate(e, M_RQWQE, XL_RD_WQE, 3, pd, 0, ring_of->rq_base + off, n, 0);
    eng_dma_read(e, M_RQWQE, ring_of->rq_base + off, q->rqm.win, n);
    q->rqm.win_slot = q->rqm.rq_ci;
    q->rqm.win_pi = q->rqm.rq_pi;
    q->rqm.win_valid = 1;
}

static void serve_rqm_reset(struct ibe_engine *e, struct eng_qp *q)
{
    (void)e;
    q->rqm.loaded = 0;
    q->rqm.rsg_n = 0;
    q->rqm.win_valid = 0;
}

/* Load the head receive WQE's entries; RQR_INVALID_WQE when none is
 * posted or it does not parse. */
static uint8_t load_wqe(struct ibe_engine *e, struct eng_qp *q, uint32_t pd,
                        const struct eng_conf *ring_of)
{
    if (q->rqm.rq_ci == q->rqm.rq_pi) /* nothing posted: receiver not ready */
        return RQR_INVALID_WQE;
    /* the window holds the WQEs at win_slot.. that were posted when it
     * was read; anything else needs a new read */
    uint32_t rel = q->rqm.rq_ci - q->rqm.win_slot;
    uint64_t ring = (uint64_t)ring_of->rq_depth * ENG_RQ_SLOT;
    uint64_t base = (uint64_t)(q->rqm.win_slot % ring_of->rq_depth) * ENG_RQ_SLOT;
    if (!q->rqm.win_valid || rel * ENG_RQ_SLOT + ENG_RQ_SLOT > WINDOW ||
        base + (uint64_t)rel * ENG_RQ_SLOT >= ring ||
        q->rqm.rq_ci - q->rqm.win_slot >= q->rqm.win_pi - q->rqm.win_slot) {
        fetch_window(e, q, pd, ring_of);
        rel = 0;
    }
    if (hf_split_recv_wqe(q->rqm.win + rel * ENG_RQ_SLOT, WINDOW - rel * ENG_RQ_SLOT,
                          IBE_RC /* a receive WQE reads alike for every
                                    service */, q->rqm.rsg, &q->rqm.rsg_n))
        return RQR_INVALID_WQE;
    q->rqm.rsg_i = 0;
    q->rqm.loaded = 1;
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
    case RQ_FETCH: {
        struct eng_conf ring_of; /* the RQ's base and depth */
        cxt_conf(e, q->qpn, &ring_of);
        if (!q->rqm.loaded &&
            (resp->code = load_wqe(e, q, cmd->pd, &ring_of)) != RQR_VALID)
            break;
        resp->wqe_off = (q->rqm.rq_ci % ring_of.rq_depth) * ENG_RQ_SLOT;
        if (q->rqm.rsg_i < q->rqm.rsg_n) {
            resp->len = q->rqm.rsg[q->rqm.rsg_i].length;
            resp->key = q->rqm.rsg[q->rqm.rsg_i].lkey;
            resp->va = q->rqm.rsg[q->rqm.rsg_i].addr;
        } else {
            resp->code = RQR_INVALID_ENTRY; /* no (more) entries */
        }
        break;
    }
    case RQ_UPDATE:
        if (q->rqm.loaded && q->rqm.rsg_i < q->rqm.rsg_n) {
            q->rqm.rsg[q->rqm.rsg_i].length = cmd->len;
            q->rqm.rsg[q->rqm.rsg_i].lkey = cmd->key;
            q->rqm.rsg[q->rqm.rsg_i].addr = cmd->va;
        } else {
            resp->code = RQR_INVALID_ENTRY;
        }
        break;
    case RQ_RELEASE_ENTRY:
        if (q->rqm.loaded && q->rqm.rsg_i < q->rqm.rsg_n)
            q->rqm.rsg_i++;
        else
            resp->code = RQR_INVALID_ENTRY;
        break;
    case RQ_RELEASE_WQE:
        q->rqm.rq_ci++;
        q->rqm.loaded = 0;
        q->rqm.rsg_n = 0;
        break;
    default: /* FLUSH */
        q->rqm.loaded = 0;
        q->rqm.rsg_n = 0;
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
    case PORT_RQM_POSTED: {
        const struct eng_qp *q = m->p[0];
        m->ret = (int64_t)(q->rqm.rq_pi - q->rqm.rq_ci);
        break;
    }
    case PORT_RQM_RETIRE_POSTED: {
        struct eng_qp *q = m->p[0];
        m->ret = q->rqm.rq_ci == q->rqm.rq_pi ? -1 : (int64_t)q->rqm.rq_ci++;
        break;
    }
    default:
        abort(); /* a port this module does not have: a wiring bug */
    }
}
