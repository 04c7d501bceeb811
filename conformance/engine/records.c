/*
 * records.c - every record handed from one module to another passes here:
 * it is counted and, when a trace hook is installed, packed with the
 * library's own packer (include/ibwire/records.h) into its bus image and
 * shown to the hook with its source and destination module, so that an RTL
 * testbench can compare FIFO traffic record by record.  Packing happens
 * only while a hook is installed: a simulation without a trace pays one
 * counter increment per record.
 */
#include "eng.h"

#include "ibwire/packet.h"
#include "ibwire/records.h"

static void emit(struct ibe_engine *e, uint8_t id, const char *name, int from,
                 int to, const uint32_t *w, uint32_t nwords)
{
    struct ibe_trace_rec r;
    memset(&r, 0, sizeof r);
    r.time = e->w->now;
    r.rec_id = id;
    r.rec = name;
    r.from = eng_mod_name[from];
    r.to = eng_mod_name[to];
    if (nwords > 12)
        nwords = 12;
    r.nwords = nwords;
    memcpy(r.words, w, nwords * sizeof *w);
    e->trace(e->trace_ctx, e, &r);
}

/* Count; true when the record must also be packed for the hook. */
static bool want(struct ibe_engine *e)
{
    e->st.records++;
    return e->trace != NULL;
}

#define EMIT(e, id, pfx, from, to, s)                                  \
    do {                                                               \
        uint32_t w_[pfx##_WORDS];                                      \
        pfx##_pack(&(s), w_);                                          \
        emit(e, id, pfx##_format()->name, from, to, w_, pfx##_WORDS);  \
    } while (0)

void eng_rec_db(struct ibe_engine *e, int from, int to, const struct rec_db *r)
{
    if (!want(e))
        return;
    struct ibw_sq_doorbell s = {r->opcode, r->fence, r->offset, r->size, r->qpn};
    EMIT(e, 1, ibw_sq_doorbell, from, to, s);
}

void eng_rec_sched(struct ibe_engine *e, int from, int to, const struct rec_sched *r)
{
    if (!want(e))
        return;
    struct ibw_db_meta s;
    memset(&s, 0, sizeof s);
    s.opcode = r->opcode;
    s.fence = r->fence;
    s.service_type = r->svc;
    s.src_qpn = r->qpn;
    s.dst_qpn = r->dqpn;
    s.pd = r->pd;
    s.lkey = r->lkey;
    s.pkey = r->pkey;
    s.wqe_size = (uint16_t)r->wqe_size;
    s.pmtu = r->pmtu;
    s.sq_length = r->sq_len;
    s.wqe_offset = r->wqe_off;
    EMIT(e, 12, ibw_db_meta, from, to, s);
}

void eng_rec_md(struct ibe_engine *e, int from, int to, const struct rec_md *r)
{
    if (!want(e))
        return;
    struct ibw_common_meta s;
    memset(&s, 0, sizeof s);
    s.opcode = r->opcode & 0x1F;
    s.service_type = r->svc;
    s.fence = r->fence;
    s.inline_flag = r->inl;
    s.req_state = r->reqstate;
    s.legal_entry_num = r->nent;
    s.pmtu = (uint16_t)r->pmtu;
    s.src_qpn = r->sqpn;
    s.dst_qpn = r->dqpn;
    s.msg_size = r->msgsize;
    s.qkey = r->qkey;
    s.pd = r->pd;
    s.pkey = r->pkey;
    s.imm = r->imm;
    s.wqe_offset = r->wqe_off * ENG_SQ_SLOT;
    s.dst_ip = e->cfg.ipv4 ^ 1u;
    EMIT(e, 13, ibw_common_meta, from, to, s);
    if (r->opcode == IBE_WR_RDMA_WRITE || r->opcode == IBE_WR_RDMA_WRITE_IMM ||
        r->opcode == IBE_WR_RDMA_READ || r->opcode == IBE_WR_ATOMIC_CS ||
        r->opcode == IBE_WR_ATOMIC_FA) {
        struct ibw_raddr_meta ra = {r->raddr, r->rkey};
        EMIT(e, 15, ibw_raddr_meta, from, to, ra);
    }
    if (r->opcode == IBE_WR_ATOMIC_CS || r->opcode == IBE_WR_ATOMIC_FA) {
        struct ibw_atomic_meta am = {r->swap, r->cmp};
        EMIT(e, 16, ibw_atomic_meta, from, to, am);
    }
}

void eng_rec_sge(struct ibe_engine *e, int from, int to, const struct ibe_sge *g)
{
    if (!want(e))
        return;
    struct ibw_sg_entry s = {g->length, g->lkey, g->addr};
    EMIT(e, 14, ibw_sg_entry, from, to, s);
}

void eng_rec_bad(struct ibe_engine *e, int from, int to, const struct rec_bad *r)
{
    if (!want(e))
        return;
    struct ibw_bad_req_meta s = {r->qpn, r->errtype, (uint8_t)(r->opcode & 0x1F),
                                 r->wqe_off * ENG_SQ_SLOT};
    EMIT(e, 17, ibw_bad_req_meta, from, to, s);
}

void eng_rec_tset(struct ibe_engine *e, int from, int to, const struct rec_tset *r)
{
    if (!want(e))
        return;
    struct ibw_timer_set_event s = {r->op, r->qpn, (uint8_t)(r->counter & 7), r->value};
    EMIT(e, 5, ibw_timer_set_event, from, to, s);
}

void eng_rec_texp(struct ibe_engine *e, int from, int to, const struct rec_texp *r)
{
    if (!want(e))
        return;
    struct ibw_timer_expire_event s = {r->event, r->qpn};
    EMIT(e, 6, ibw_timer_expire_event, from, to, s);
}

void eng_rec_sem(struct ibe_engine *e, int from, int to, int is_resp,
                 const struct rec_sem *r)
{
    if (!want(e))
        return;
    if (is_resp) {
        struct ibw_sem_resp s = {r->op, r->qpn, r->len, r->key, r->va};
        EMIT(e, 9, ibw_sem_resp, from, to, s);
    } else {
        struct ibw_sem_cmd s = {r->op, r->num, r->qpn, r->len, r->key, r->va};
        EMIT(e, 8, ibw_sem_cmd, from, to, s);
    }
}

void eng_rec_rq(struct ibe_engine *e, int from, int to, int is_resp,
                const struct rec_rq *r)
{
    if (!want(e))
        return;
    if (is_resp) {
        struct ibw_rwm_resp s = {r->code, r->qpn, r->len, r->key, r->va, r->wqe_off};
        EMIT(e, 11, ibw_rwm_resp, from, to, s);
        return;
    }
    uint32_t w[ibw_rwm_cmd_WORDS];
    struct ibw_rwm_cmd c = {r->op, r->qpn};
    ibw_rwm_cmd_pack(&c, w);
    if (r->op == RQ_FETCH) {
        struct eng_qp *q = eng_qp(e, r->qpn);
        if (q) {
            ibw_rwm_cmd_fetch_set_pd(w, q->pd);
            ibw_rwm_cmd_fetch_set_rq_length(w, q->rq_depth * ENG_RQ_SLOT);
            ibw_rwm_cmd_fetch_set_rq_entry_sz_log(w, 7); /* 128-byte slots */
        }
    } else if (r->op == RQ_UPDATE) {
        ibw_rwm_cmd_update_set_length(w, r->len);
        ibw_rwm_cmd_update_set_lkey(w, r->key);
        ibw_rwm_cmd_update_set_va(w, r->va);
    }
    emit(e, 10, ibw_rwm_cmd_format()->name, from, to, w, ibw_rwm_cmd_WORDS);
}

/* E18/E19: the header bytes as they will be (or were) on the wire, bus
 * ordered, with the payload length in the BTH reserved bits. */
void eng_rec_hdr(struct ibe_engine *e, int from, int to, int rec_id,
                 const struct eng_hdr *h)
{
    if (!want(e))
        return;
    /* only the header bytes are kept: build without the payload */
    uint8_t pkt[512];
    struct eng_hdr nopay = *h;
    nopay.paylen = 0;
    size_t n = eng_wire_build(e, &nopay, NULL, pkt, sizeof pkt);
    struct ibw_pkt v;
    ibw_parse_flags(pkt, n, e->cfg.framing == IBE_FRAME_IB ? IBW_LINK_IB
                                                           : IBW_LINK_ETHERNET,
                    IBW_PARSE_NO_CRC, &v);
    size_t start = v.off[IBW_HDR_BTH], len = v.payload_off - start;
    uint32_t w[ibw_req_hdr_meta_WORDS];
    size_t nw = rec_id == 19 ? ibw_resp_hdr_meta_WORDS : ibw_req_hdr_meta_WORDS;
    if (len > 4 * nw)
        len = 4 * nw;
    ibw_bus_from_wire_bytes(pkt + start, len, w, nw);
    ibw_bus_bth_set_pkt_len(w, h->paylen);
    emit(e, (uint8_t)rec_id,
         rec_id == 19 ? ibw_resp_hdr_meta_format()->name : ibw_req_hdr_meta_format()->name,
         from, to, w, (uint32_t)nw);
}

void eng_rec_resp(struct ibe_engine *e, int from, int to, const struct rec_resp *r)
{
    if (!want(e))
        return;
    uint32_t w[ibw_resp_gen_meta_WORDS];
    struct ibw_resp_gen_meta s;
    memset(&s, 0, sizeof s);
    s.pkey = r->h.pkey;
    s.se = r->h.se;
    s.opcode = r->h.opcode;
    s.destqp = r->h.destqp;
    s.becn = r->h.becn;
    s.fecn = r->h.fecn;
    s.psn = r->h.psn;
    s.ackreq = r->h.ackreq;
    s.pmtu = r->pmtu_enum;
    s.msg_size = r->msgsize;
    s.msn = r->h.msn;
    s.syndrome = r->h.syndrome;
    ibw_resp_gen_meta_pack(&s, w);
    emit(e, 20, ibw_resp_gen_meta_format()->name, from, to, w, ibw_resp_gen_meta_WORDS);
}

void eng_rec_cxt(struct ibe_engine *e, int from, int to, const struct rec_cxt *r)
{
    if (!want(e))
        return;
    struct ibw_cxt_cmd s = {r->qpn, r->op, r->type};
    EMIT(e, 2, ibw_cxt_cmd, from, to, s);
}

void eng_rec_xlate(struct ibe_engine *e, int from, uint8_t type, uint8_t op,
                   uint32_t flags, uint32_t pd, uint32_t key, uint64_t va,
                   uint32_t len, int status)
{
    if (!want(e))
        return;
    struct ibw_vtp_cmd c = {type, op, flags, pd, key, va, len};
    EMIT(e, 3, ibw_vtp_cmd, from, M_XLATE, c);
    struct ibw_vtp_resp r = {(uint8_t)status};
    EMIT(e, 4, ibw_vtp_resp, M_XLATE, from, r);
}

void eng_rec_dma(struct ibe_engine *e, int from, int is_write, uint64_t addr,
                 uint32_t len, uint8_t tag)
{
    if (!want(e))
        return;
    struct ibw_dma_head s = {len, addr, (uint8_t)(is_write ? 1 : 0), tag};
    EMIT(e, 26, ibw_dma_head, from, M_DMA, s);
}

void eng_rec_mq(struct ibe_engine *e, int from, uint8_t which, uint32_t qpn,
                uint32_t idx)
{
    (void)idx;
    if (!want(e))
        return;
    struct eng_qp *q = eng_qp(e, qpn);
    if (!q)
        return;
    const struct mq_list *l = which == 0 ? &q->rpb : &q->swpb;
    uint16_t head = (uint16_t)(l->head == MQ_NIL ? 0 : l->head);
    uint16_t tail = (uint16_t)(l->tail == MQ_NIL ? 0 : l->tail);
    if (which == 0) {
        struct ibw_rpb_list_entry s = {head, tail, (uint8_t)(l->count == 0)};
        EMIT(e, 21, ibw_rpb_list_entry, from, M_MQ, s);
    } else {
        struct ibw_swpb_list_entry s = {head, tail, (uint8_t)(l->count == 0)};
        EMIT(e, 21, ibw_swpb_list_entry, from, M_MQ, s);
    }
}

void eng_rec_wat(struct ibe_engine *e, int from, int is_write, uint32_t qpn,
                 uint32_t rkey, uint64_t va)
{
    (void)is_write;
    (void)qpn;
    if (!want(e))
        return;
    struct ibw_write_addr_entry s = {va, rkey};
    EMIT(e, 23, ibw_write_addr_entry, from, M_WAT, s);
}

/* E7: the timer RAM entry as TimerControl writes it back. */
void eng_rec_tentry(struct ibe_engine *e, const struct tm_entry *t)
{
    if (!want(e))
        return;
    unsigned left = t->count >= t->thresh ? 0u : (unsigned)(t->thresh - t->count);
    struct ibw_timer_entry s = {(uint8_t)(t->thresh & 7), (uint8_t)(left & 7),
                                t->active, t->setval, t->current};
    EMIT(e, 7, ibw_timer_entry, M_TIMER, M_TIMER, s);
}

/* E22: a WQE indicator table bit written by the scheduler. */
void eng_rec_ind(struct ibe_engine *e, int from, uint8_t flag)
{
    if (!want(e))
        return;
    struct ibw_wqe_indicator s = {flag};
    EMIT(e, 22, ibw_wqe_indicator, from, M_SCHED, s);
}
