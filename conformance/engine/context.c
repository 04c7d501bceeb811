/* SPDX-License-Identifier: Apache-2.0 */
/*
 * context.c - the context manager (E2): it owns the QP contexts (struct
 * eng_cxt).  A module asks with a cxt_cmd record (RD_QP_CTX / RD_CQ_CTX
 * and the OpCode naming its view) and gets a cxt_resp (the command echoed)
 * followed by its view record (cxt_view_sst / state / npst / cst / rst /
 * encap), all packed with the records.h packer and carried by the CH_CXT /
 * CH_CXT_RESP FIFOs.  Writes are a WR_QP_CTX cxt_cmd followed by a
 * cxt_wr_data (QP state, and the PSN its OpCode names); they are not
 * answered.  Also the CQ writer (CQEs into host memory, H4; CQ events) and
 * the receive-queue flush.
 */
#include "eng.h"

#include "ibwire/records.h"
#include "ibwire/wire.h"

ENG_OUT_OF_LINE static void serve_cxt_cq_push(struct ibe_engine *e, uint32_t cqn,
                              const struct ibe_wc *wc, uint32_t wqe_offset,
                              int is_send, uint32_t qpn, uint8_t opcode);



static uint8_t pmtu_enum(uint32_t bytes)
{
    return (uint8_t)ibw_mtu_bytes_to_enum(bytes ? bytes : 1024);
}

/* The manager's side of a read: pop the command, push the echo and the
 * view.  `side` gets what no view field carries (service type, Q_Key). */
static void serve_read(struct ibe_engine *e, int to, struct eng_view *side)
{
    struct ibw_cxt_cmd c;
    ENG_GET(e, CH_CXT, ibw_cxt_cmd, c);
    const struct eng_qp *x = eng_qp(e, c.qpn);
    if (!x)
        abort(); /* modules ask only about existing QPs */
    struct ibw_cxt_resp echo = {c.qpn, c.opcode, c.type};
    ENG_PUT(e, CH_CXT_RESP, 2, ibw_cxt_resp, M_CXT, to, echo);
    side->type = x->cxt.type;
    side->qkey = x->cxt.qkey;
    if (c.type == CXT_RD_CQ) { /* CST: RequesterRecvControl */
        struct ibw_cxt_view_cst v;
        memset(&v, 0, sizeof v);
        v.state = x->cxt.state;
        v.unacked_psn = x->cxt.upsn;
        v.next_psn = x->cxt.npsn;
        v.remote_qpn = x->cxt.c.remote_qpn;
        v.qp_pd = x->cxt.pd;
        v.cqn = x->cxt.scq;
        ENG_PUT(e, CH_CXT_RESP, 2, ibw_cxt_view_cst, M_CXT, to, v);
        return;
    }
    switch (c.opcode) {
    case CXR_SST: {
        struct ibw_cxt_view_sst v;
        memset(&v, 0, sizeof v);
        v.service_type = x->cxt.type;
        v.dst_qpn = x->cxt.c.remote_qpn;
        v.pkey = x->cxt.pkey;
        v.pmtu = pmtu_enum(x->cxt.c.pmtu);
        v.pd = x->cxt.pd;
        v.sq_entry_sz_log = 8; /* 256-byte slots */
        v.sq_length = x->cxt.sq_depth * ENG_SQ_SLOT;
        ENG_PUT(e, CH_CXT_RESP, 2, ibw_cxt_view_sst, M_CXT, to, v);
        break;
    }
    case CXR_STATE: {
        struct ibw_cxt_view_state v = {8, x->cxt.state, x->cxt.sq_depth * ENG_SQ_SLOT};
        ENG_PUT(e, CH_CXT_RESP, 2, ibw_cxt_view_state, M_CXT, to, v);
        break;
    }
    case CXR_NPST: {
        struct ibw_cxt_view_npst v;
        memset(&v, 0, sizeof v);
        v.state = x->cxt.state;
        v.next_psn = x->cxt.npsn;
        v.cqn = x->cxt.scq;
        ENG_PUT(e, CH_CXT_RESP, 2, ibw_cxt_view_npst, M_CXT, to, v);
        break;
    }
    case CXR_RST: {
        struct ibw_cxt_view_rst v;
        memset(&v, 0, sizeof v);
        v.state = x->cxt.state;
        v.rnr_timer = x->cxt.c.min_rnr_timer;
        v.expected_psn = x->cxt.epsn;
        v.pkey = x->cxt.pkey;
        v.pmtu = pmtu_enum(x->cxt.c.pmtu);
        v.remote_qpn = x->cxt.c.remote_qpn;
        v.rq_entry_sz_log = 7; /* 128-byte slots */
        v.qp_pd = x->cxt.pd;
        v.rq_length = x->cxt.rq_depth * ENG_RQ_SLOT;
        v.cqn = x->cxt.rcq;
        ENG_PUT(e, CH_CXT_RESP, 2, ibw_cxt_view_rst, M_CXT, to, v);
        break;
    }
    default: { /* ENCAP */
        struct ibw_cxt_view_encap v;
        memset(&v, 0, sizeof v);
        v.pkey = x->cxt.pkey;
        v.src_ip = e->cfg.ipv4;
        ENG_PUT(e, CH_CXT_RESP, 2, ibw_cxt_view_encap, M_CXT, to, v);
        break;
    }
    }
}

static void serve_cxt_read(struct ibe_engine *e, int from, uint8_t type,
                           uint8_t op, uint32_t qpn, struct eng_view *v)
{
    struct ibw_cxt_cmd c = {qpn, op, type};
    ENG_PUT(e, CH_CXT, 2, ibw_cxt_cmd, from, M_CXT, c);
    struct eng_view side;
    serve_read(e, from, &side);
    struct ibw_cxt_resp echo;
    ENG_GET(e, CH_CXT_RESP, ibw_cxt_resp, echo);
    if (echo.qpn != qpn || echo.opcode != op || echo.type != type)
        abort(); /* the manager answers in order: an engine bug */
    memset(v, 0, sizeof *v);
    v->type = side.type;
    v->qkey = side.qkey;
    if (type == CXT_RD_CQ) {
        struct ibw_cxt_view_cst x;
        ENG_GET(e, CH_CXT_RESP, ibw_cxt_view_cst, x);
        v->state = x.state;
        v->upsn = x.unacked_psn;
        v->npsn = x.next_psn;
        v->dqpn = x.remote_qpn;
        v->pd = x.qp_pd;
        v->cqn = x.cqn;
        return;
    }
    switch (op) {
    case CXR_SST: {
        struct ibw_cxt_view_sst x;
        ENG_GET(e, CH_CXT_RESP, ibw_cxt_view_sst, x);
        v->type = x.service_type;
        v->dqpn = x.dst_qpn;
        v->pkey = x.pkey;
        v->pmtu = ibw_mtu_enum_to_bytes(x.pmtu);
        v->pd = x.pd;
        v->sq_len = x.sq_length;
        break;
    }
    case CXR_STATE: {
        struct ibw_cxt_view_state x;
        ENG_GET(e, CH_CXT_RESP, ibw_cxt_view_state, x);
        v->state = x.state;
        v->sq_len = x.sq_length;
        break;
    }
    case CXR_NPST: {
        struct ibw_cxt_view_npst x;
        ENG_GET(e, CH_CXT_RESP, ibw_cxt_view_npst, x);
        v->state = x.state;
        v->npsn = x.next_psn;
        v->cqn = x.cqn;
        break;
    }
    case CXR_RST: {
        struct ibw_cxt_view_rst x;
        ENG_GET(e, CH_CXT_RESP, ibw_cxt_view_rst, x);
        v->state = x.state;
        v->rnr_timer = x.rnr_timer;
        v->epsn = x.expected_psn;
        v->pkey = x.pkey;
        v->pmtu = ibw_mtu_enum_to_bytes(x.pmtu);
        v->dqpn = x.remote_qpn;
        v->pd = x.qp_pd;
        v->rq_len = x.rq_length;
        v->cqn = x.cqn;
        break;
    }
    default: {
        struct ibw_cxt_view_encap x;
        ENG_GET(e, CH_CXT_RESP, ibw_cxt_view_encap, x);
        v->pkey = x.pkey;
        break;
    }
    }
}

/* Every receive WQE still posted completes with Flush in Error. */
void cxt_flush_rq(struct ibe_engine *e, struct eng_qp *q)
{
    int64_t ci;
    while ((ci = rqm_retire_posted(e, q)) >= 0) {
        struct ibe_wc wc;
        memset(&wc, 0, sizeof wc);
        wc.status = IBE_WC_WR_FLUSH_ERR;
        uint32_t idx = (uint32_t)ci % q->cxt.rq_depth;
        serve_cxt_cq_push(e, q->cxt.rcq, &wc, idx * ENG_RQ_SLOT, 0, q->qpn, 0);
    }
    /* the reset wires of the RQWQEManager and the ExecutionEngine */
    rqm_reset(e, q);
    ee_reset(e, q);
}

ENG_OUT_OF_LINE static void serve_cxt_write(struct ibe_engine *e, int from, uint8_t op,
                            uint32_t qpn, uint8_t state, uint32_t psn)
{
    struct ibw_cxt_cmd c = {qpn, op, CXT_WR_QP};
    ENG_PUT(e, CH_CXT, 2, ibw_cxt_cmd, from, M_CXT, c);
    struct ibw_cxt_wr_data d = {state, psn & PSN_MASK};
    ENG_PUT(e, CH_CXT, 2, ibw_cxt_wr_data, from, M_CXT, d);
    /* the manager's side */
    ENG_GET(e, CH_CXT, ibw_cxt_cmd, c);
    ENG_GET(e, CH_CXT, ibw_cxt_wr_data, d);
    struct eng_qp *x = eng_qp(e, c.qpn);
    if (!x)
        abort();
    switch (c.opcode) {
    case CXW_UAPST: x->cxt.upsn = d.psn; break;
    case CXW_NPST: x->cxt.npsn = d.psn; break;
    case CXW_EPST: x->cxt.epsn = d.psn; break;
    default: { /* STATE (ALL carries the same word) */
        x->cxt.state = d.state;
        if (d.state == IBE_QPS_ERR)
            cxt_flush_rq(e, x); /* receive WQEs complete in error at once */
        break;
    }
    }
}

void cxt_init_qp(struct ibe_engine *e, struct eng_qp *q)
{
    for (int b = 0; b < 3; b++)
        mq_list_init(e, b, q->qpn);
    serve_cxt_write(e, M_HOST, CXW_ALL, q->qpn, IBE_QPS_INIT, 0);
}

void cxt_set_state(struct ibe_engine *e, struct eng_qp *q, uint8_t state)
{
    serve_cxt_write(e, M_HOST, CXW_STATE, q->qpn, state, 0);
}

ENG_OUT_OF_LINE static void serve_cxt_cq_push(struct ibe_engine *e, uint32_t cqn,
                              const struct ibe_wc *wc, uint32_t wqe_offset,
                              int is_send, uint32_t qpn, uint8_t opcode)
{
    struct eng_qp *q = eng_qp(e, qpn);
    if (is_send && q)
        q->cxt.sq_cqe++;
    if (cqn >= ENG_MAX_CQ || !e->cxt.cq[cqn].valid)
        return;
    struct eng_cq *cq = &e->cxt.cq[cqn];
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

void cxt_step(struct ibe_engine *e, struct eng_msg *m)
{
    switch (m->port) {
    case PORT_CXT_READ:
        serve_cxt_read(e, (int)m->a[0], (uint8_t)m->a[1], (uint8_t)m->a[2],
                       (uint32_t)m->a[3], (struct eng_view *)m->p[0]);
        break;
    case PORT_CXT_WRITE:
        serve_cxt_write(e, (int)m->a[0], (uint8_t)m->a[1], (uint32_t)m->a[2],
                        (uint8_t)m->a[3], (uint32_t)m->a[4]);
        break;
    case PORT_CXT_CONF: {
        const struct eng_qp_cxt *x = &eng_qp_known(e, (uint32_t)m->a[0])->cxt;
        struct eng_conf *c = m->p[0];
        c->retry_cnt = x->c.retry_cnt;
        c->timeout = x->c.timeout;
        c->rnr_retry = x->c.rnr_retry;
        c->max_outstanding = x->c.max_outstanding;
        c->sq_base = x->sq_base;
        c->rq_base = x->rq_base;
        c->sq_depth = x->sq_depth;
        c->rq_depth = x->rq_depth;
        break;
    }
    case PORT_CXT_CQ_PUSH:
        serve_cxt_cq_push(e, (uint32_t)m->a[0], (const struct ibe_wc *)m->cp[0],
                          (uint32_t)m->a[1], (int)m->a[2], (uint32_t)m->a[3],
                          (uint8_t)m->a[4]);
        break;
    default:
        abort(); /* a port this module does not have: a wiring bug */
    }
}
