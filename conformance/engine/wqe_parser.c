/* SPDX-License-Identifier: Apache-2.0 */
/*
 * wqe_parser.c - WQEParser: fetches the WQE bytes from the SQ ring through
 * the address-translation unit and the DMA engine, decodes the segments and
 * applies the four checks of the HanGu RDMA engine design §2.4.3.1.2, in
 * order:
 *   QP state not RTS            -> ReqState 1 (completes as Flush in Error)
 *   operation not allowed for
 *   the service type            -> ReqState 2 (Unsupported OpCode)
 *   local access check failed   -> ReqState 4 (local access error)
 *   length check failed         -> ReqState 8 (local length error)
 * The result goes to DataPack as E13 with the E14/E15/E16 operands.
 */
#include "eng.h"

static bool op_allowed(uint8_t svc, uint8_t op)
{
    switch (op) {
    case IBE_WR_SEND: case IBE_WR_SEND_IMM:
        return true;
    case IBE_WR_RDMA_WRITE: case IBE_WR_RDMA_WRITE_IMM:
        return svc == IBE_RC || svc == IBE_UC;
    case IBE_WR_SEND_INV: /* IBA table 35: no UC/UD opcode carries an IETH */
    case IBE_WR_RDMA_READ: case IBE_WR_ATOMIC_CS: case IBE_WR_ATOMIC_FA:
        return svc == IBE_RC;
    default:
        return false;
    }
}

static void serve_parser_take(struct ibe_engine *e)
{
    struct rec_sched in, *sm = &in;
    rec_sched_get(e, CH_PARSER_IN, sm);
    /* the scheduler only schedules existing QPs */
    struct eng_qp *q = eng_qp_known(e, sm->qpn);
    struct eng_view v;
    cxt_read(e, M_PARSER, CXT_RD_QP, CXR_STATE, q->qpn, &v);
    /* the rest of what the parser needs comes with E12 */
    struct eng_conf conf; /* the SQ's base: no view carries it */
    cxt_conf(e, q->qpn, &conf);
    uint8_t wqe[ENG_SQ_SLOT];
    eng_xlate(e, M_PARSER, XL_RD_WQE, q->parser.parsed == 0 ? 1 : 2, sm->pd, 0,
              conf.sq_base + sm->wqe_off, ENG_SQ_SLOT, 0);
    eng_dma_read(e, M_PARSER, conf.sq_base + sm->wqe_off, wqe, ENG_SQ_SLOT);

    struct rec_md md;
    memset(&md, 0, sizeof md);
    uint32_t rqpn = 0, rqkey = 0;
    int bad = hf_read_send_wqe(wqe, sizeof wqe, sm->svc, sm->opcode,
                               (uint8_t)sm->wqe_size, sm->fence, &md, &rqpn, &rqkey);
    md.svc = sm->svc;
    md.pmtu = sm->pmtu;
    md.sqpn = q->qpn;
    md.dqpn = sm->svc == IBE_UD ? rqpn : sm->dqpn;
    md.qkey = rqkey;
    md.pd = sm->pd;
    md.pkey = sm->pkey;
    md.wqe_off = sm->wqe_off / ENG_SQ_SLOT; /* the slot: what the CQE names */

    if (v.state != IBE_QPS_RTS) {
        md.reqstate = RS_QP_STATE;
    } else if (bad || !op_allowed(sm->svc, md.opcode)) {
        md.reqstate = RS_OPCODE;
    } else {
        bool rd = md.opcode == IBE_WR_RDMA_READ || md.opcode == IBE_WR_ATOMIC_CS ||
                  md.opcode == IBE_WR_ATOMIC_FA;
        if (!md.inl)
            for (unsigned i = 0; i < md.nent && !md.reqstate; i++) {
                const struct ibe_sge *s = &md.sg[i];
                if (eng_xlate(e, M_PARSER, rd ? XL_WR_DATA : XL_RD_DATA, 1,
                              sm->pd, s->lkey, s->addr, s->length,
                              rd ? IBE_ACC_LOCAL_WRITE : 0) != XL_OK)
                    md.reqstate = RS_LOCAL_ACCESS;
            }
        if (!md.reqstate) {
            bool atomic = md.opcode == IBE_WR_ATOMIC_CS || md.opcode == IBE_WR_ATOMIC_FA;
            if ((atomic && (md.msgsize != 8 || (md.raddr & 7))) ||
                (sm->svc == IBE_UD && md.msgsize > md.pmtu) ||
                md.msgsize > 0x80000000u)
                md.reqstate = RS_LENGTH;
        }
    }
    /* Parked-capacity check: the requester must be able to buffer it. */
    q->parser.parsed++;
    rec_md_put(e, CH_DATAPACK_IN, M_PARSER, M_DATAPACK, &md);
    struct eng_wqe_side side = {md.solicited, md.signaled};
    datapack_take(e, &side, md.inl ? md.inline_data : NULL,
                  md.inl && md.msgsize <= IBE_MAX_INLINE ? md.msgsize : 0);
}

void parser_step(struct ibe_engine *e, struct eng_msg *m)
{
    switch (m->port) {
    case PORT_PARSER_TAKE:
        serve_parser_take(e);
        break;
    default:
        abort(); /* a port this module does not have: a wiring bug */
    }
}
