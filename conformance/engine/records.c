/* SPDX-License-Identifier: Apache-2.0 */
/*
 * records.c - every record handed from one module to another passes here:
 * it is packed with the library's own packer (include/ibwire/records.h)
 * into its bus image, which is what the FIFO holds and what the consumer
 * unpacks, counted, and, when a trace hook is installed, shown to the hook
 * with its source and destination module, so that an RTL testbench can
 * compare FIFO traffic record by record.
 */
#include "eng.h"

#include <stddef.h>

#include "ibwire/packet.h"
#include "ibwire/records.h"

void eng_trace_rec(struct ibe_engine *e, int from, int to, uint8_t id,
                   const char *name, const uint32_t *w, uint32_t nwords)
{
    struct ibe_trace_rec r;
    memset(&r, 0, sizeof r);
    r.time = e->w->now + e->t_off; /* when the hardware pushes it */
    r.rec_id = id;
    r.rec = name;
    r.from = eng_mod_name[from];
    r.to = eng_mod_name[to];
    r.nwords = nwords;
    memcpy(r.words, w, nwords * sizeof *w);
    e->trace(e->trace_ctx, e, &r);
}

#define PUT ENG_PUT
#define GET ENG_GET
/* Records that only announce a table write or a request whose answer the
 * model does not return through a record: the consumer drains them. */
#define ANNOUNCE(e, ch, id, pfx, from, to, s)                                  \
    do {                                                                       \
        uint32_t d_[12];                                                       \
        PUT(e, ch, id, pfx, from, to, s);                                      \
        eng_pop(e, ch, d_);                                                    \
    } while (0)

/* Where a record's put and get only move fields between the engine's struct
 * (r) and the library's record struct (s), the pairing is listed once as
 * X(engine field, record field) and expanded in both directions, so the two
 * cannot drift apart.  A field whose value must be narrowed on one way
 * (-Wconversion wants the cast said) stays out of the list and is written
 * beside it. */
#define TO_RECORD(eng_field, rec_field) s.rec_field = r->eng_field;
#define FROM_RECORD(eng_field, rec_field) r->eng_field = s.rec_field;

/* E12 */
#define SCHED_FIELDS(X)                                                        \
    X(opcode, opcode) X(fence, fence) X(svc, service_type) X(qpn, src_qpn)     \
    X(dqpn, dst_qpn) X(pd, pd) X(lkey, lkey) X(pkey, pkey)                     \
    X(pmtu, pmtu) X(sq_len, sq_length) X(wqe_off, wqe_offset)
/* E13 without the entry count (clamped on the way in), the WQE offset
 * (slots in the engine, bytes in the record) and the narrowed PMTU. */
#define MD_FIELDS(X)                                                           \
    X(opcode, opcode) X(svc, service_type) X(fence, fence)                     \
    X(inl, inline_flag) X(reqstate, req_state) X(sqpn, src_qpn)                \
    X(dqpn, dst_qpn) X(msgsize, msg_size) X(qkey, qkey) X(pd, pd)              \
    X(pkey, pkey) X(imm, imm)
/* E1 */
#define DB_FIELDS(X)                                                           \
    X(opcode, opcode) X(fence, fence) X(offset, offset) X(size, size)          \
    X(qpn, qpn)
/* E8 and E9 */
#define SEM_CMD_FIELDS(X)                                                      \
    X(op, op) X(num, number) X(qpn, qpn) X(len, length) X(key, key) X(va, va)
#define SEM_RESP_FIELDS(X)                                                     \
    X(op, code) X(qpn, qpn) X(len, length) X(key, key) X(va, va)
/* E11 */
#define RWM_RESP_FIELDS(X)                                                     \
    X(code, code) X(qpn, qpn) X(len, length) X(key, key) X(va, va)             \
    X(wqe_off, wqe_offset)
/* E5 without the counter (3 bits in the record) and E6 */
#define TSET_FIELDS(X) X(op, opcode) X(qpn, qpn) X(value, timer_value)
#define TEXP_FIELDS(X) X(event, event) X(qpn, qpn)
/* E17 without the WQE offset (slots in the engine, bytes in the record) */
#define BAD_FIELDS(X) X(qpn, qpn) X(errtype, err_type) X(opcode, opcode)
/* E20 */
#define RESP_FIELDS(X)                                                         \
    X(h.pkey, pkey) X(h.se, se) X(h.opcode, opcode) X(h.destqp, destqp)        \
    X(h.becn, becn) X(h.fecn, fecn) X(h.psn, psn) X(h.ackreq, ackreq)          \
    X(msgsize, msg_size) X(h.msn, msn) X(h.syndrome, syndrome)

void rec_db_put(struct ibe_engine *e, const struct rec_db *r)
{
    struct ibw_sq_doorbell s;
    memset(&s, 0, sizeof s);
    DB_FIELDS(TO_RECORD)
    PUT(e, CH_DB, 1, ibw_sq_doorbell, M_HOST, M_DOORBELL, s);
}

void rec_db_get(struct ibe_engine *e, struct rec_db *r)
{
    struct ibw_sq_doorbell s;
    GET(e, CH_DB, ibw_sq_doorbell, s);
    DB_FIELDS(FROM_RECORD)
}

void rec_sched_put(struct ibe_engine *e, int ch, int from, int to,
                   const struct rec_sched *r)
{
    struct ibw_db_meta s;
    memset(&s, 0, sizeof s);
    SCHED_FIELDS(TO_RECORD)
    s.wqe_size = (uint16_t)r->wqe_size;
    PUT(e, ch, 12, ibw_db_meta, from, to, s);
}

void rec_sched_get(struct ibe_engine *e, int ch, struct rec_sched *r)
{
    struct ibw_db_meta s;
    GET(e, ch, ibw_db_meta, s);
    memset(r, 0, sizeof *r);
    SCHED_FIELDS(FROM_RECORD)
    r->wqe_size = s.wqe_size;
}

static bool md_has_raddr(uint8_t op)
{
    return op == IBE_WR_RDMA_WRITE || op == IBE_WR_RDMA_WRITE_IMM ||
           op == IBE_WR_RDMA_READ || op == IBE_WR_ATOMIC_CS || op == IBE_WR_ATOMIC_FA;
}
static bool md_has_atomic(uint8_t op)
{
    return op == IBE_WR_ATOMIC_CS || op == IBE_WR_ATOMIC_FA;
}

/* E13, then one E14 per entry (an inline message: one E14 with bit 31 of
 * the length set and the byte count below it), E15 for operations with a
 * remote address, E16 for atomics. */
void rec_md_put(struct ibe_engine *e, int ch, int from, int to,
                const struct rec_md *r)
{
    struct ibw_common_meta s;
    memset(&s, 0, sizeof s);
    MD_FIELDS(TO_RECORD)
    s.pmtu = (uint16_t)r->pmtu;
    s.legal_entry_num = r->nent;
    s.wqe_offset = r->wqe_off * ENG_SQ_SLOT;
    s.dst_ip = e->cfg.ipv4 ^ 1u;
    PUT(e, ch, 13, ibw_common_meta, from, to, s);
    for (unsigned i = 0; i < r->nent; i++) {
        struct ibw_sg_entry g = {r->sg[i].length, r->sg[i].lkey, r->sg[i].addr};
        PUT(e, ch, 14, ibw_sg_entry, from, to, g);
    }
    if (md_has_raddr(r->opcode)) {
        struct ibw_raddr_meta ra = {r->raddr, r->rkey};
        PUT(e, ch, 15, ibw_raddr_meta, from, to, ra);
    }
    if (md_has_atomic(r->opcode)) {
        struct ibw_atomic_meta am = {r->swap, r->cmp};
        PUT(e, ch, 16, ibw_atomic_meta, from, to, am);
    }
}

void rec_md_get(struct ibe_engine *e, int ch, struct rec_md *r)
{
    struct ibw_common_meta s;
    GET(e, ch, ibw_common_meta, s);
    memset(r, 0, offsetof(struct rec_md, inline_data));
    MD_FIELDS(FROM_RECORD)
    r->pmtu = s.pmtu;
    r->nent = s.legal_entry_num > IBE_MAX_SGE ? IBE_MAX_SGE : s.legal_entry_num;
    r->wqe_off = s.wqe_offset / ENG_SQ_SLOT;
    for (unsigned i = 0; i < r->nent; i++) {
        struct ibw_sg_entry g;
        GET(e, ch, ibw_sg_entry, g);
        r->sg[i].length = g.length;
        r->sg[i].lkey = g.lkey;
        r->sg[i].addr = g.va;
    }
    if (md_has_raddr(r->opcode)) {
        struct ibw_raddr_meta ra;
        GET(e, ch, ibw_raddr_meta, ra);
        r->raddr = ra.va;
        r->rkey = ra.rkey;
    }
    if (md_has_atomic(r->opcode)) {
        struct ibw_atomic_meta am;
        GET(e, ch, ibw_atomic_meta, am);
        r->swap = am.swap_add;
        r->cmp = am.compare;
    }
}

void rec_bad_put(struct ibe_engine *e, const struct rec_bad *r)
{
    struct ibw_bad_req_meta s;
    memset(&s, 0, sizeof s);
    BAD_FIELDS(TO_RECORD)
    s.wqe_offset = r->wqe_off * ENG_SQ_SLOT;
    PUT(e, CH_BAD, 17, ibw_bad_req_meta, M_REQTRANS, M_REQRECV, s);
}

void rec_bad_get(struct ibe_engine *e, struct rec_bad *r)
{
    struct ibw_bad_req_meta s;
    GET(e, CH_BAD, ibw_bad_req_meta, s);
    BAD_FIELDS(FROM_RECORD)
    r->wqe_off = s.wqe_offset / ENG_SQ_SLOT;
}

/* TimerControl has one set-event input and one expire-event output per
 * timer (loss, RNR, and the model's CNP restore timer): the channel says
 * which timer, as separate FIFOs would in hardware. */
void rec_tset_put(struct ibe_engine *e, int from, const struct rec_tset *r)
{
    struct ibw_timer_set_event s;
    memset(&s, 0, sizeof s);
    TSET_FIELDS(TO_RECORD)
    s.counter_value = (uint8_t)(r->counter & 7);
    PUT(e, CH_TSET_LOSS + r->which, 5, ibw_timer_set_event, from, M_TIMER, s);
}

void rec_tset_get(struct ibe_engine *e, int which, struct rec_tset *r)
{
    struct ibw_timer_set_event s;
    GET(e, CH_TSET_LOSS + which, ibw_timer_set_event, s);
    TSET_FIELDS(FROM_RECORD)
    r->counter = s.counter_value;
    r->which = (uint8_t)which;
}

void rec_texp_put(struct ibe_engine *e, const struct rec_texp *r)
{
    struct ibw_timer_expire_event s;
    memset(&s, 0, sizeof s);
    TEXP_FIELDS(TO_RECORD)
    PUT(e, CH_TEXP_LOSS + r->which, 6, ibw_timer_expire_event, M_TIMER, M_REQRECV, s);
}

void rec_texp_get(struct ibe_engine *e, int which, struct rec_texp *r)
{
    struct ibw_timer_expire_event s;
    GET(e, CH_TEXP_LOSS + which, ibw_timer_expire_event, s);
    TEXP_FIELDS(FROM_RECORD)
    r->which = (uint8_t)which;
}

void rec_sem_put(struct ibe_engine *e, int is_resp, const struct rec_sem *r)
{
    if (is_resp) {
        struct ibw_sem_resp s;
        memset(&s, 0, sizeof s);
        SEM_RESP_FIELDS(TO_RECORD)
        PUT(e, CH_SEM_RESP, 9, ibw_sem_resp, M_SEM, M_REQRECV, s);
    } else {
        struct ibw_sem_cmd s;
        memset(&s, 0, sizeof s);
        SEM_CMD_FIELDS(TO_RECORD)
        PUT(e, CH_SEM_CMD, 8, ibw_sem_cmd, M_REQRECV, M_SEM, s);
    }
}

void rec_sem_get(struct ibe_engine *e, int is_resp, struct rec_sem *r)
{
    memset(r, 0, sizeof *r);
    if (is_resp) {
        struct ibw_sem_resp s;
        GET(e, CH_SEM_RESP, ibw_sem_resp, s);
        SEM_RESP_FIELDS(FROM_RECORD)
    } else {
        struct ibw_sem_cmd s;
        GET(e, CH_SEM_CMD, ibw_sem_cmd, s);
        SEM_CMD_FIELDS(FROM_RECORD)
    }
}

/* E10: the command word, with the FETCH / UPDATE variants' operands. */
void rec_rq_put(struct ibe_engine *e, int is_resp, const struct rec_rq *r)
{
    if (is_resp) {
        struct ibw_rwm_resp s;
        memset(&s, 0, sizeof s);
        RWM_RESP_FIELDS(TO_RECORD)
        PUT(e, CH_RQ_RESP, 11, ibw_rwm_resp, M_RQWQE, M_EXEC, s);
        return;
    }
    uint32_t w[ibw_rwm_cmd_WORDS];
    struct ibw_rwm_cmd c = {r->op, r->qpn};
    ibw_rwm_cmd_pack(&c, w);
    if (r->op == RQ_FETCH) {
        ibw_rwm_cmd_fetch_set_pd(w, r->pd);
        ibw_rwm_cmd_fetch_set_rq_length(w, r->rq_len);
        ibw_rwm_cmd_fetch_set_rq_entry_sz_log(w, 7); /* 128-byte slots */
    } else if (r->op == RQ_UPDATE) {
        ibw_rwm_cmd_update_set_length(w, r->len);
        ibw_rwm_cmd_update_set_lkey(w, r->key);
        ibw_rwm_cmd_update_set_va(w, r->va);
    }
    eng_push(e, CH_RQ_CMD, M_EXEC, M_RQWQE, 10, ibw_rwm_cmd_format()->name, w,
             ibw_rwm_cmd_WORDS);
}

void rec_rq_get(struct ibe_engine *e, int is_resp, struct rec_rq *r)
{
    memset(r, 0, sizeof *r);
    if (is_resp) {
        struct ibw_rwm_resp s;
        GET(e, CH_RQ_RESP, ibw_rwm_resp, s);
        RWM_RESP_FIELDS(FROM_RECORD)
        return;
    }
    uint32_t w[12];
    eng_pop(e, CH_RQ_CMD, w);
    r->op = (uint8_t)ibw_rwm_cmd_get_op(w);
    r->qpn = (uint32_t)ibw_rwm_cmd_get_qpn(w);
    if (r->op == RQ_FETCH) {
        r->pd = (uint32_t)ibw_rwm_cmd_fetch_get_pd(w);
        r->rq_len = (uint32_t)ibw_rwm_cmd_fetch_get_rq_length(w);
    }
    if (r->op == RQ_UPDATE) {
        r->len = (uint32_t)ibw_rwm_cmd_update_get_length(w);
        r->key = (uint32_t)ibw_rwm_cmd_update_get_lkey(w);
        r->va = ibw_rwm_cmd_update_get_va(w);
    }
}

/* E18/E19: the header bytes from the BTH on, bus ordered, with the payload
 * length in the BTH reserved bits. */
void rec_hdr_put(struct ibe_engine *e, int ch, int from, int to, int rec_id,
                 const struct eng_hdr *h)
{
    uint8_t b[64];
    size_t len = eng_hdr_to_bytes(h, b, sizeof b);
    uint32_t w[12];
    size_t nw = rec_id == 19 ? ibw_resp_hdr_meta_WORDS : ibw_req_hdr_meta_WORDS;
    if (len > 4 * nw)
        abort(); /* every header the engine sends fits its record */
    ibw_bus_from_wire_bytes(b, len, w, nw);
    ibw_bus_bth_set_pkt_len(w, h->paylen);
    eng_push(e, ch, from, to, (uint8_t)rec_id,
             rec_id == 19 ? ibw_resp_hdr_meta_format()->name
                          : ibw_req_hdr_meta_format()->name,
             w, (uint32_t)nw);
}

void rec_hdr_get(struct ibe_engine *e, int ch, struct eng_hdr *h)
{
    uint32_t w[12];
    uint8_t id = eng_pop(e, ch, w);
    size_t nw = id == 19 ? ibw_resp_hdr_meta_WORDS : ibw_req_hdr_meta_WORDS;
    uint8_t b[48];
    ibw_bus_to_wire_bytes(w, nw, b, 4 * nw);
    /* the length rides in the BTH reserved bits: clear them for the parse */
    unsigned paylen = ibw_bus_bth_pkt_len(w);
    if (eng_hdr_from_bytes(b, 4 * nw, h))
        abort();
    h->paylen = paylen;
}

/* E20.  The AtomicAckETH value is not in the record: it comes with the
 * read data (8 bytes, big-endian), as the atomic's result would come from
 * the DMA engine. */
void rec_resp_put(struct ibe_engine *e, const struct rec_resp *r)
{
    struct ibw_resp_gen_meta s;
    memset(&s, 0, sizeof s);
    RESP_FIELDS(TO_RECORD)
    s.pmtu = r->pmtu_enum;
    PUT(e, CH_RESPPKT_IN, 20, ibw_resp_gen_meta, M_EXEC, M_RESPPKTGEN, s);
}

void rec_resp_get(struct ibe_engine *e, struct rec_resp *r)
{
    struct ibw_resp_gen_meta s;
    GET(e, CH_RESPPKT_IN, ibw_resp_gen_meta, s);
    memset(r, 0, sizeof *r);
    RESP_FIELDS(FROM_RECORD)
    r->pmtu_enum = (uint8_t)s.pmtu;
}

void eng_rec_dma(struct ibe_engine *e, int from, int is_write, uint64_t addr,
                 uint32_t len, uint8_t tag)
{
    struct ibw_dma_head s = {len, addr, (uint8_t)(is_write ? 1 : 0), tag};
    PUT(e, CH_DMA, 26, ibw_dma_head, from, M_DMA, s);
}

/* E21: the list-table entry as the MultiQueue now holds it (the packed
 * word itself). */
void eng_rec_mq(struct ibe_engine *e, int from, uint8_t which, uint32_t qpn,
                uint32_t idx)
{
    (void)idx;
    if (qpn >= ENG_MAX_QP)
        return;
    int b = which == 0 ? MQ_RPB : MQ_SWPB;
    uint32_t w = e->mq.buf[b].list[qpn], d[12];
    eng_push(e, CH_MQ, from, M_MQ, 21,
             b == MQ_RPB ? ibw_rpb_list_entry_format()->name
                         : ibw_swpb_list_entry_format()->name, &w, 1);
    eng_pop(e, CH_MQ, d);
}

void eng_rec_wat(struct ibe_engine *e, int from, int is_write, uint32_t qpn,
                 uint32_t rkey, uint64_t va)
{
    (void)is_write;
    (void)qpn;
    struct ibw_write_addr_entry s = {va, rkey};
    PUT(e, CH_WAT, 23, ibw_write_addr_entry, from, M_WAT, s);
}

/* E7: the timer RAM entry as TimerControl writes it back. */
void eng_rec_tentry(struct ibe_engine *e, const struct tm_entry *t)
{
    unsigned left = t->count >= t->thresh ? 0u : (unsigned)(t->thresh - t->count);
    struct ibw_timer_entry s = {(uint8_t)(t->thresh & 7), (uint8_t)(left & 7),
                                t->active, t->setval, t->current};
    ANNOUNCE(e, CH_TENTRY, 7, ibw_timer_entry, M_TIMER, M_TIMER, s);
}

/* E22: a WQE indicator table bit written by the scheduler. */
void eng_rec_ind(struct ibe_engine *e, int from, uint8_t flag)
{
    struct ibw_wqe_indicator s = {flag};
    ANNOUNCE(e, CH_IND, 22, ibw_wqe_indicator, from, M_SCHED, s);
}

/* E14 into the REB: the scatter entries of a read, as RequesterTransControl
 * writes them into the MultiQueue. */
void eng_rec_sge(struct ibe_engine *e, int from, int to, const struct ibe_sge *g)
{
    struct ibw_sg_entry s = {g->length, g->lkey, g->addr};
    ANNOUNCE(e, CH_MQ, 14, ibw_sg_entry, from, to, s);
}
