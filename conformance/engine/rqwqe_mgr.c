/*
 * rqwqe_mgr.c - RQWQEManager (seed 000 §4.4.2): the responder has no
 * doorbell, so a Send (or Write with Immediate) is the trigger.  The
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

int rqm_cmd(struct ibe_engine *e, const struct rec_rq *out, struct rec_rq *answer)
{
    rec_rq_put(e, 0, out);
    struct rec_rq in, *cmd = &in, back, *resp = &back;
    rec_rq_get(e, 0, cmd);
    struct eng_qp *q = eng_qp(e, cmd->qpn);
    if (!q)
        abort();
    memset(resp, 0, sizeof *resp);
    resp->qpn = q->qpn;
    resp->code = RQR_VALID;
    switch (cmd->op) {
    case RQ_FETCH: {
        if (q->rq_ci == q->rq_pi) { /* nothing posted: receiver not ready */
            resp->code = RQR_INVALID_WQE;
            break;
        }
        /* the window holds the WQEs at win_slot.. that were posted when it
         * was read; anything else needs a new read */
        uint32_t rel = q->rq_ci - q->win_slot;
        uint64_t ring = (uint64_t)q->rq_depth * ENG_RQ_SLOT;
        uint64_t base = (uint64_t)(q->win_slot % q->rq_depth) * ENG_RQ_SLOT;
        if (!q->win_valid || rel * ENG_RQ_SLOT + ENG_RQ_SLOT > WINDOW ||
            base + (uint64_t)rel * ENG_RQ_SLOT >= ring || q->rq_ci - q->win_slot >= q->win_pi - q->win_slot) {
            fetch_window(e, q, cmd->pd);
            rel = 0;
        }
        if (hf_split_recv_wqe(q->win + rel * ENG_RQ_SLOT, WINDOW - rel * ENG_RQ_SLOT,
                              IBE_RC /* a receive WQE reads alike for every
                                        service */, q->rsg, &q->rsg_n)) {
            resp->code = RQR_INVALID_WQE;
            break;
        }
        q->rsg_i = 0;
        q->rsg_off = 0;
        resp->wqe_off = (q->rq_ci % q->rq_depth) * ENG_RQ_SLOT;
        if (q->rsg_n) {
            resp->len = q->rsg[0].length;
            resp->key = q->rsg[0].lkey;
            resp->va = q->rsg[0].addr;
        } else {
            resp->code = RQR_INVALID_ENTRY; /* a WQE with no entries */
        }
        break;
    }
    case RQ_RELEASE_WQE:
        q->rq_ci++;
        q->rsg_n = 0;
        break;
    case RQ_FLUSH:
        q->rsg_n = 0;
        q->win_valid = 0;
        break;
    default: /* UPDATE / RELEASE_ENTRY: the working set is updated in place */
        break;
    }
    rec_rq_put(e, 1, resp);
    rec_rq_get(e, 1, answer);
    return answer->code;
}
