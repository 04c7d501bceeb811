/* SPDX-License-Identifier: Apache-2.0 */
/*
 * engine.c - the engine object and the host driver side of the API: host
 * memory, regions, CQs, QPs, posting WQE bytes and ringing doorbells,
 * polling CQE bytes.
 */
#include "eng.h"

#include "ibwire/wire.h"
#ifdef IBW_ENGINE_RTL
#include "rtl/bitwidth_rtl.h"
#endif

const char *const eng_mod_name[M_COUNT] = {
    "Host", "DoorbellProcessing", "WQEScheduler", "WQEParser", "DataPack",
    "RequesterTransControl", "TimerControl", "MultiQueue", "ReqPktGen",
    "HeaderParser", "RequesterRecvControl", "ScatterEntryManager",
    "ExecutionEngine", "RQWQEManager", "WriteAddrTable", "RespPktGen",
    "ContextManager", "AddressTranslation", "DMAEngine", "LinkLayer",
    "256To64Trans", "64To256Trans"};

/* The engine's wiring: which step function is each module.  A module
 * replaced by another implementation of the same ports is replaced here. */
static const eng_step_fn eng_steps[M_COUNT] = {
    [M_DOORBELL] = db_step, [M_SCHED] = sched_step, [M_PARSER] = parser_step,
    [M_DATAPACK] = datapack_step, [M_REQTRANS] = rtc_step,
    [M_TIMER] = timer_step, [M_MQ] = mq_step, [M_REQPKTGEN] = reqpkt_step,
    [M_HDRPARSER] = hp_step, [M_REQRECV] = rrc_step, [M_SEM] = sem_step,
    [M_EXEC] = ee_step, [M_RQWQE] = rqm_step, [M_WAT] = wat_step,
    [M_RESPPKTGEN] = resppkt_step, [M_CXT] = cxt_step, [M_XLATE] = xlate_step,
    [M_DMA] = dma_step, [M_TX256TO64] = bw_step, [M_RX64TO256] = bw_step};

enum { SWPB_CAP = 4096, RPB_CAP = 512, REB_CAP = 4096 };

struct ibe_engine *ibe_engine_create(struct ibe_world *w,
                                     const struct ibe_config *cfg)
{
    struct ibe_engine *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->w = w;
    e->step = e->wired = eng_steps;
    e->cfg = *cfg;
    if (!e->cfg.mem_bytes)
        e->cfg.mem_bytes = 16u << 20;
    e->mem = calloc(1, e->cfg.mem_bytes);
    e->mq.swpb = calloc(SWPB_CAP, sizeof *e->mq.swpb);
    e->mq.rpb = calloc(RPB_CAP, sizeof *e->mq.rpb);
    e->mq.swpb_payload = malloc((size_t)SWPB_CAP * ENG_PAYLOAD_SLOT);
    if (!e->mem || !e->mq.swpb || !e->mq.rpb || !e->mq.swpb_payload ||
        mq_init(e, MQ_SWPB, SWPB_CAP) || mq_init(e, MQ_RPB, RPB_CAP) ||
        mq_init(e, MQ_REB, REB_CAP)) {
        ibe_engine_destroy(e);
        return NULL;
    }
    for (uint32_t i = 0; i < SWPB_CAP; i++)
        e->mq.swpb[i].payload = e->mq.swpb_payload + (size_t)i * ENG_PAYLOAD_SLOT;
    e->mem_top = 0x1000;
    bw_use_c_converters(e);
#ifdef IBW_ENGINE_RTL
    /* the Verilated converters in place of the C ones (rtl/README.md) */
    const char *rtl = getenv("IBWIRE_ENGINE_RTL");
    if (rtl && rtl[0] == '1') {
        void *model = eng_bw_rtl_new();
        if (!model) {
            ibe_engine_destroy(e);
            return NULL;
        }
        e->bw.core = (struct eng_bw_core){eng_bw_rtl_down, eng_bw_rtl_up, model,
                                          eng_bw_rtl_free};
    }
#endif
    /* module latencies for every engine of a program (README.md) */
    const char *lat = getenv("IBWIRE_ENGINE_LATENCY");
    if (lat && *lat && ibe_engine_apply_latency(e, lat, NULL)) {
        ibe_engine_destroy(e);
        return NULL;
    }
    if (eng_world_attach(w, e, 0)) {
        ibe_engine_destroy(e);
        return NULL;
    }
    return e;
}

void ibe_engine_destroy(struct ibe_engine *e)
{
    if (!e)
        return;
    eng_snapshots_drop(e->w);
    eng_world_detach(e->w, e);
    if (e->bw.core.free)
        e->bw.core.free(e->bw.core.state);
    for (uint32_t i = 0; i < ENG_MAX_QP; i++) {
        free(e->qp[i].host.sq_shadow);
        free(e->qp[i].sched.sq_db);
        free(e->qp[i].host.rq_shadow);
    }
    for (int b = 0; b < 3; b++)
        mq_fini(e, b);
    free(e->mq.swpb_payload);
    free(e->mq.swpb);
    free(e->mq.rpb);
    free(e->mem);
    free(e);
}

uint64_t ibe_mem_alloc(struct ibe_engine *e, uint64_t len, uint64_t align)
{
    if (align < 16)
        align = 16;
    uint64_t a = (e->mem_top + align - 1) / align * align;
    if (a + len > e->cfg.mem_bytes)
        return 0;
    e->mem_top = a + len;
    return a;
}

uint8_t *ibe_mem_ptr(struct ibe_engine *e, uint64_t addr, uint64_t len)
{
    if (!eng_mem_ok(e, addr, len))
        return NULL;
    if (addr + len > e->mem_hw)
        e->mem_hw = addr + len; /* the caller may write there */
    eng_mem_will_write(e, addr, len);
    return e->mem + addr;
}

uint32_t ibe_cq_create(struct ibe_engine *e, uint32_t depth)
{
    if (e->cxt.ncq + 1 >= ENG_MAX_CQ)
        return 0;
    uint32_t cqn = ++e->cxt.ncq;
    struct eng_cq *cq = &e->cxt.cq[cqn];
    cq->base = ibe_mem_alloc(e, (uint64_t)depth * ENG_CQE, 4096);
    if (!cq->base)
        return 0;
    cq->depth = depth;
    cq->valid = 1;
    eng_mem_will_write(e, cq->base, (uint64_t)depth * ENG_CQE);
    for (uint32_t i = 0; i < depth; i++)
        hf_cqe_give_to_hw(e->mem + cq->base + (uint64_t)i * ENG_CQE);
    return cqn;
}

void ibe_cq_arm(struct ibe_engine *e, uint32_t cqn, int solicited_only)
{
    if (cqn < ENG_MAX_CQ && e->cxt.cq[cqn].valid) {
        e->cxt.cq[cqn].armed = 1;
        e->cxt.cq[cqn].solicited_only = (uint8_t)(solicited_only != 0);
    }
}

uint64_t ibe_cq_events(struct ibe_engine *e, uint32_t cqn)
{
    return cqn < ENG_MAX_CQ ? e->cxt.cq[cqn].events : 0;
}

int ibe_poll_cq(struct ibe_engine *e, uint32_t cqn, struct ibe_wc *wc, int n)
{
    if (cqn >= ENG_MAX_CQ || !e->cxt.cq[cqn].valid)
        return -1;
    struct eng_cq *cq = &e->cxt.cq[cqn];
    int got = 0;
    while (got < n) {
        uint8_t *p = e->mem + cq->base + (uint64_t)(cq->ci % cq->depth) * ENG_CQE;
        uint32_t off;
        struct ibe_wc c;
        if (hf_read_cqe(p, &c, &off) <= 0)
            break;
        eng_mem_will_write(e, (uint64_t)(p - e->mem), ENG_CQE);
        hf_cqe_give_to_hw(p);
        struct eng_qp *q = eng_qp(e, c.qpn);
        if (q && c.is_send) {
            uint32_t idx = off / ENG_SQ_SLOT;
            c.wr_id = q->host.sq_shadow[idx % q->cxt.sq_depth].wr_id;
            c.opcode = q->host.sq_shadow[idx % q->cxt.sq_depth].opcode;
        } else if (q) {
            c.wr_id = q->host.rq_shadow[(off / ENG_RQ_SLOT) % q->cxt.rq_depth];
            if (c.status != IBE_WC_SUCCESS)
                c.opcode = IBE_WR_RECV;
        }
        wc[got++] = c;
        cq->ci++;
    }
    return got;
}

uint32_t ibe_qp_create(struct ibe_engine *e, const struct ibe_qp_attr *a)
{
    /* faults.h, zoo row 31c: QPs numbered from 1 (0 is create's failure) */
    uint32_t qpn = ENG_FAULT(e, QPN_01) ? 1 : 2;
    while (qpn < ENG_MAX_QP && e->qp[qpn].valid)
        qpn++;
    if (qpn >= ENG_MAX_QP || !a->sq_depth || !a->rq_depth)
        return 0;
    struct eng_qp *q = &e->qp[qpn];
    if (qpn >= e->qp_hw)
        e->qp_hw = qpn + 1;
    memset(q, 0, sizeof *q);
    q->qpn = qpn;
    q->cxt.type = a->type;
    q->cxt.pd = a->pd;
    q->cxt.scq = a->send_cq;
    q->cxt.rcq = a->recv_cq;
    q->cxt.qkey = a->qkey;
    q->cxt.pkey = a->pkey ? a->pkey : 0xFFFF;
    q->cxt.sq_depth = a->sq_depth;
    q->cxt.rq_depth = a->rq_depth;
    q->cxt.sq_base = ibe_mem_alloc(e, (uint64_t)a->sq_depth * ENG_SQ_SLOT, 4096);
    q->cxt.rq_base = ibe_mem_alloc(e, (uint64_t)a->rq_depth * ENG_RQ_SLOT, 4096);
    q->host.sq_shadow = calloc(a->sq_depth, sizeof *q->host.sq_shadow);
    q->sched.sq_db = calloc(a->sq_depth, sizeof *q->sched.sq_db);
    q->host.rq_shadow = calloc(a->rq_depth, sizeof *q->host.rq_shadow);
    if (!q->cxt.sq_base || !q->cxt.rq_base || !q->host.sq_shadow || !q->host.rq_shadow || !q->sched.sq_db) {
        free(q->sched.sq_db);
        free(q->host.sq_shadow);
        free(q->host.rq_shadow);
        memset(q, 0, sizeof *q);
        return 0;
    }
    q->valid = 1;
    q->rtc.limit = 16; /* RequesterTransControl's reset value */
    cxt_init_qp(e, q);
    return qpn;
}

int ibe_qp_connect(struct ibe_engine *e, uint32_t qpn,
                   const struct ibe_qp_conn *c)
{
    struct eng_qp *q = eng_qp(e, qpn);
    if (!q || !ibw_mtu_bytes_to_enum(c->pmtu))
        return -1;
    q->cxt.c = *c;
    /* faults.h, zoo row 25: the transmit PSN the QP had (0 when new),
     * not the connection's */
    if (!ENG_FAULT(e, START_PSN_STALE))
        q->cxt.npsn = c->sq_psn & PSN_MASK;
    q->cxt.upsn = q->cxt.npsn;
    q->cxt.epsn = c->rq_psn & PSN_MASK;
    q->rtc.limit = c->max_outstanding ? c->max_outstanding : 16;
    q->ee.nak_armed = 1;
    cxt_set_state(e, q, IBE_QPS_RTS);
    return 0;
}

int ibe_qp_set_state(struct ibe_engine *e, uint32_t qpn, uint8_t state)
{
    struct eng_qp *q = eng_qp(e, qpn);
    if (!q)
        return -1;
    cxt_set_state(e, q, state);
    if (state == IBE_QPS_ERR)
        rrc_flush_sq(e, q);
    return 0;
}

int ibe_qp_state(struct ibe_engine *e, uint32_t qpn)
{
    struct eng_qp *q = eng_qp(e, qpn);
    return q ? q->cxt.state : -1;
}

unsigned ibe_qp_outstanding_limit(struct ibe_engine *e, uint32_t qpn)
{
    struct eng_qp *q = eng_qp(e, qpn);
    return q ? q->rtc.limit : 0;
}

uint32_t ibe_sq_free(struct ibe_engine *e, uint32_t qpn)
{
    struct eng_qp *q = eng_qp(e, qpn);
    return q ? q->cxt.sq_depth - (q->host.sq_pi - q->cxt.sq_cqe) : 0;
}

int ibe_post_send(struct ibe_engine *e, uint32_t qpn,
                  const struct ibe_send_wr *wr)
{
    struct eng_qp *q = eng_qp(e, qpn);
    if (!q || q->host.sq_pi - q->cxt.sq_cqe >= q->cxt.sq_depth || wr->num_sge > IBE_MAX_SGE)
        return -1;
    uint8_t inl[IBE_MAX_INLINE];
    uint32_t n = 0;
    if (wr->flags & IBE_SEND_INLINE) {
        for (unsigned i = 0; i < wr->num_sge; i++) {
            const uint8_t *src = ibe_mem_ptr(e, wr->sg[i].addr, wr->sg[i].length);
            if (!src || n + wr->sg[i].length > IBE_MAX_INLINE)
                return -1;
            memcpy(inl + n, src, wr->sg[i].length);
            n += wr->sg[i].length;
        }
    }
    uint32_t slot = q->host.sq_pi % q->cxt.sq_depth;
    uint8_t *p = e->mem + q->cxt.sq_base + (uint64_t)slot * ENG_SQ_SLOT;
    eng_mem_will_write(e, q->cxt.sq_base + (uint64_t)slot * ENG_SQ_SLOT, ENG_SQ_SLOT);
    struct rec_db db;
    memset(&db, 0, sizeof db);
    if (hf_build_send_wqe(q->cxt.type, p, wr, inl, n, &db))
        return -1;
    db.offset = (uint32_t)((uint64_t)slot * ENG_SQ_SLOT / 16);
    db.qpn = qpn;
    if (q->host.sq_pi) { /* chain the previous WQE to this one */
        uint32_t prev = (q->host.sq_pi - 1) % q->cxt.sq_depth;
        eng_mem_will_write(e, q->cxt.sq_base + (uint64_t)prev * ENG_SQ_SLOT, ENG_SQ_SLOT);
        hf_link(e->mem + q->cxt.sq_base + (uint64_t)prev * ENG_SQ_SLOT, &db,
                slot * ENG_SQ_SLOT);
    }
    q->host.sq_shadow[slot].wr_id = wr->wr_id;
    q->host.sq_shadow[slot].opcode = wr->opcode;
    q->host.sq_shadow[slot].signaled = (wr->flags & IBE_SEND_SIGNALED) != 0;
    q->host.sq_pi++;
    rec_db_put(e, &db);
    db_ring(e);
    return 0;
}

int ibe_post_recv(struct ibe_engine *e, uint32_t qpn,
                  const struct ibe_recv_wr *wr)
{
    struct eng_qp *q = eng_qp(e, qpn);
    if (!q || q->rqm.rq_pi - q->rqm.rq_ci >= q->cxt.rq_depth || wr->num_sge > IBE_MAX_SGE)
        return -1;
    uint32_t slot = q->rqm.rq_pi % q->cxt.rq_depth;
    eng_mem_will_write(e, q->cxt.rq_base + (uint64_t)slot * ENG_RQ_SLOT, ENG_RQ_SLOT);
    if (hf_write_recv_wqe(e->mem + q->cxt.rq_base + (uint64_t)slot * ENG_RQ_SLOT, wr))
        return -1;
    q->host.rq_shadow[slot] = wr->wr_id;
    q->rqm.rq_pi++;
    if (q->cxt.state == IBE_QPS_ERR)
        cxt_flush_rq(e, q);
    return 0;
}

void ibe_engine_set_tx(struct ibe_engine *e, ibe_tx_fn fn, void *ctx)
{
    e->tx = fn;
    e->tx_ctx = ctx;
}

void ibe_engine_receive(struct ibe_engine *e, const uint8_t *pkt, size_t len)
{
    bw_receive(e, pkt, len);
}

void ibe_engine_set_bitwidth(struct ibe_engine *e, int on)
{
    e->bw.on = on != 0;
}

void ibe_engine_set_faults(struct ibe_engine *e, uint64_t faults)
{
    e->faults = faults;
}

uint64_t ibe_engine_faults(const struct ibe_engine *e)
{
    return e->faults;
}

void ibe_engine_set_choices(struct ibe_engine *e, uint64_t choices)
{
    e->choices = choices;
}

void ibe_engine_set_trace(struct ibe_engine *e, ibe_trace_fn fn, void *ctx)
{
    e->trace = fn;
    e->trace_ctx = ctx;
}

const struct ibe_stats *ibe_engine_stats(const struct ibe_engine *e)
{
    return &e->st;
}

/* ---- module latencies ---- */

static int mod_by_name(const char *name, size_t n)
{
    for (int m = 0; m < M_COUNT; m++)
        if (strlen(eng_mod_name[m]) == n && !strncmp(eng_mod_name[m], name, n))
            return m;
    return -1;
}

static void latency_changed(struct ibe_engine *e)
{
    e->timed = 0;
    for (int m = 0; m < M_COUNT; m++)
        e->timed |= e->lat[m] != 0;
    eng_timing_route(e);
}

int ibe_engine_set_latency(struct ibe_engine *e, const char *module, uint32_t ns)
{
    int m = mod_by_name(module, strlen(module));
    if (m < 0 || m == M_HOST)
        return -1;
    e->lat[m] = ns;
    latency_changed(e);
    return 0;
}

int64_t ibe_engine_latency(const struct ibe_engine *e, const char *module)
{
    int m = mod_by_name(module, strlen(module));
    return m < 0 || m == M_HOST ? -1 : (int64_t)e->lat[m];
}

/* The documents give the engine's clock and a few modules' cycle counts:
 * rdma_clk 500 MHz, 2 ns a cycle (HanGu DMA engine design v1.5 §3.3, table
 * 3-4; the HanGu RDMA engine design §3.4.2.4.2 sizes the timers at the
 * same clock); a TimerControl update takes 3 cycles (ibid. §3.4.2.4.2); a
 * MultiQueue insert 6 cycles for a message's first packet and a release 5
 * (ibid. §3.4.3.4.2.1 and .2.2: the slower, insert, is taken).  Every other
 * module takes the one cycle a registered FIFO output costs. */
enum { ENG_CYCLE_NS = 2 };
void ibe_engine_set_latency_profile(struct ibe_engine *e,
                                    enum ibe_latency_profile p)
{
    for (int m = 0; m < M_COUNT; m++)
        e->lat[m] = p == IBE_LATENCY_DOCUMENTS && m != M_HOST ? ENG_CYCLE_NS : 0;
    if (p == IBE_LATENCY_DOCUMENTS) {
        e->lat[M_TIMER] = 3 * ENG_CYCLE_NS;
        e->lat[M_MQ] = 6 * ENG_CYCLE_NS;
    }
    latency_changed(e);
}

int ibe_engine_apply_latency(struct ibe_engine *e, const char *list,
                             const char **bad)
{
    const char *s = list;
    while (*s) {
        const char *end = strchr(s, ',');
        size_t n = end ? (size_t)(end - s) : strlen(s);
        const char *eq = memchr(s, '=', n);
        if (n == 9 && !strncmp(s, "documents", 9)) {
            if (e)
                ibe_engine_set_latency_profile(e, IBE_LATENCY_DOCUMENTS);
        } else if (n == 4 && !strncmp(s, "none", 4)) {
            if (e)
                ibe_engine_set_latency_profile(e, IBE_LATENCY_NONE);
        } else {
            int m = eq ? mod_by_name(s, (size_t)(eq - s)) : -1;
            char *num_end = NULL;
            unsigned long ns = 0;
            if (m > 0 && eq + 1 < s + n && eq[1] >= '0' && eq[1] <= '9')
                ns = strtoul(eq + 1, &num_end, 10);
            if (m <= 0 || eq + 1 >= s + n || eq[1] < '0' || eq[1] > '9' ||
                num_end != s + n || ns > UINT32_MAX) {
                if (bad)
                    *bad = s;
                return -1;
            }
            if (e) {
                e->lat[m] = (uint32_t)ns;
                latency_changed(e);
            }
        }
        s += n;
        if (*s == ',')
            s++;
    }
    return 0;
}
