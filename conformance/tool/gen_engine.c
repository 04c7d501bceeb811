/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gen_engine.c - `ibwire gen` scenarios that run the reference engine
 * (conformance/engine) and the CM simulation, and write what crossed the
 * wire.  Engine A is the requester, engine B the responder.
 *
 * Vantage point: the capture is taken at the responder's port.  Requests
 * are written when they reach B (a request lost on the way is not in the
 * capture: the checker sees a PSN gap), responses when B sends them (a
 * response lost on the way back is in the capture).  That is what
 * `ibwire check --replay` needs: the capture shows exactly what the
 * responder received and what it answered.  gen_vantage.c moves the
 * capture point to the requester's port (at_requester) or hands the frames
 * to a tap that distorts them as real capture points do (gen_engine.h).
 *
 * Losses are deterministic (the n-th request or response packet), the
 * world seed is fixed, and timestamps are GEN_START_NS + virtual time, so
 * every run writes the same bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cm_sim.h"
#include "eng.h"
#include "gen.h"
#include "gen_engine.h"

#define GE_MEM (4u << 20)
#define GE_LAT_NS 2000u

struct ge_pkt {
    struct ge *g;
    int to_b;
    int lost;    /* lost after the capture point: recorded, not delivered */
    size_t len;
    uint8_t bytes[];
};

/* Write one wire packet; IB-framed ones become RoCEv1 when asked. */
static void ge_record(struct ge *g, const uint8_t *pkt, size_t len, int to_b)
{
    uint64_t ts = GEN_START_NS + ibe_now(g->w);
    if (g->rocev1) {
        struct ibw_pkt p;
        struct ibw_build_spec s;
        static uint8_t buf[4096 + 256];
        size_t n = 0;
        if (ibw_parse(pkt, len, IBW_LINK_IB, &p) != IBW_OK ||
            ibw_build_spec_from_pkt(&p, &s) != IBW_OK) {
            g->o->err = 1;
            return;
        }
        uint16_t slid = s.lrh.slid, dlid = s.lrh.dlid;
        s.transport = IBW_TK_ROCE_V1;
        const uint8_t mac[6] = {0x02, 0, 0, 0, 0, 0};
        memcpy(s.smac, mac, 6);
        memcpy(s.dmac, mac, 6);
        s.smac[5] = (uint8_t)slid;
        s.dmac[5] = (uint8_t)dlid;
        memset(&s.grh, 0, sizeof s.grh);
        s.grh.ipver = 6;
        s.grh.nxthdr = IBW_GRH_NXTHDR_IBA;
        s.grh.hoplmt = 64;
        /* link-local GIDs fe80::2:ff:fe00:LID, from the MACs above */
        uint8_t *gid[2] = {s.grh.sgid, s.grh.dgid};
        uint16_t lid[2] = {slid, dlid};
        for (int i = 0; i < 2; i++) {
            gid[i][0] = 0xfe;
            gid[i][1] = 0x80;
            gid[i][8] = 0x00;
            gid[i][11] = 0xff;
            gid[i][12] = 0xfe;
            gid[i][15] = (uint8_t)lid[i];
        }
        if (ibw_build(&s, buf, sizeof buf, &n) != IBW_OK) {
            g->o->err = 1;
            return;
        }
        pkt = buf;
        len = n;
    }
    if (g->tap)
        g->tap(g, ts, to_b, pkt, len);
    else if (cap_write(g->o->w, ts, pkt, len, NULL))
        g->o->err = 1;
    g->o->frames++;
}

static int in_list(const uint64_t *l, uint64_t n)
{
    for (int i = 0; i < GE_MAXDROP; i++)
        if (l[i] == n)
            return 1;
    return 0;
}

static void ge_deliver(void *ctx, uint64_t arg)
{
    (void)arg;
    struct ge_pkt *p = ctx;
    struct ge *g = p->g;
    /* arriving at the capture point's side: at B requests, at A responses */
    if (p->to_b != g->at_requester)
        ge_record(g, p->bytes, p->len, p->to_b);
    if (!p->lost)
        ibe_engine_receive(p->to_b ? g->b : g->a, p->bytes, p->len);
    free(p);
}

/* The link: fixed latency, the chosen packets lost.  A packet leaving the
 * capture point's side is recorded as it is sent; a response lost at the
 * requester's port is recorded on arrival, then lost (a NIC that drops it
 * after the mirror). */
static void ge_tx(void *ctx, struct ibe_engine *from, const uint8_t *pkt,
                  size_t len)
{
    struct ge *g = ctx;
    int to_b = from == g->a;
    int lost = 0;
    if (to_b == g->at_requester)
        ge_record(g, pkt, len, to_b);
    if (to_b) {
        if (in_list(g->drop_req, ++g->nreq))
            return;
    } else if (in_list(g->drop_resp, ++g->nresp)) {
        if (!g->at_requester)
            return;
        lost = 1;
    }
    struct ge_pkt *p = malloc(sizeof *p + len);
    if (!p)
        abort();
    p->g = g;
    p->to_b = to_b;
    p->lost = lost;
    p->len = len;
    memcpy(p->bytes, pkt, len);
    eng_at(g->w, GE_LAT_NS, ge_deliver, p, 0);
}

void ge_post_recv(struct ge *g)
{
    struct ibe_recv_wr r;
    memset(&r, 0, sizeof r);
    r.wr_id = g->recvs_posted;
    r.num_sge = 1;
    r.sg[0].addr = g->brecv + (uint64_t)(g->recvs_posted % 8) * 8192;
    r.sg[0].length = 8192;
    r.sg[0].lkey = g->blkey;
    g->recvs_posted++;
    ibe_post_recv(g->b, g->qb, &r);
}

/* Connect QP qa at A with qb at B: A sends from psn_a, B from psn_b. */
static void ge_connect(struct ge *g, uint32_t qa, uint32_t qb, uint32_t psn_a,
                       uint32_t psn_b)
{
    uint8_t to = g->ack_timeout ? g->ack_timeout : 8;
    struct ibe_qp_conn ca = {qb, psn_a, psn_b, g->pmtu, 7, 7, to, 1, 16};
    ibe_qp_connect(g->a, qa, &ca);
    struct ibe_qp_conn cb = {qa, psn_b, psn_a, g->pmtu, 7, 7, to, 1, 16};
    ibe_qp_connect(g->b, qb, &cb);
}

static uint32_t ge_qp(struct ibe_engine *e, uint32_t cq, uint8_t type)
{
    struct ibe_qp_attr a = {type, 1, cq, cq, 64, 64, 0x11111111u, 0xFFFF};
    return ibe_qp_create(e, &a);
}

void ge_qp_pair(struct ge *g, uint8_t type, uint32_t psn_a, uint32_t psn_b,
                uint32_t *qa, uint32_t *qb)
{
    *qa = ge_qp(g->a, g->cqa, type);
    *qb = ge_qp(g->b, g->cqb, type);
    ge_connect(g, *qa, *qb, psn_a, psn_b);
}

void ge_setup(struct ge *g, struct gen_out *o, uint8_t type, uint8_t framing,
              uint32_t recvs)
{
    memset(g, 0, sizeof *g);
    g->o = o;
    g->framing = framing;
    g->pmtu = 1024;
    g->w = ibe_world_create(0x1b3e5eed);
    struct ibe_config ca = {GE_MEM, framing, 1, 0x0A000001u, {2, 0, 10, 0, 0, 1}};
    struct ibe_config cb = {GE_MEM, framing, 0, 0x0A000000u, {2, 0, 10, 0, 0, 0}};
    g->a = ibe_engine_create(g->w, &ca);
    g->b = ibe_engine_create(g->w, &cb);
    if (!g->w || !g->a || !g->b)
        abort();
    ibe_engine_set_tx(g->a, ge_tx, g);
    ibe_engine_set_tx(g->b, ge_tx, g);
    g->cqa = ibe_cq_create(g->a, 256);
    g->cqb = ibe_cq_create(g->b, 256);
    /* QPs created before the memory, as they always were: the engine's
     * allocations, hence the bytes of every engine-* capture, stay put */
    g->qa = ge_qp(g->a, g->cqa, type);
    g->qb = ge_qp(g->b, g->cqb, type);
    g->abuf = ibe_mem_alloc(g->a, 65536, 4096);
    g->bbuf = ibe_mem_alloc(g->b, 65536, 4096);
    g->brecv = ibe_mem_alloc(g->b, 65536, 4096);
    g->batom = ibe_mem_alloc(g->b, 4096, 4096);
    uint32_t rk;
    ibe_mr_reg(g->a, 1, g->abuf, 65536, IBE_ACC_LOCAL_WRITE, &g->alkey, &rk);
    ibe_mr_reg(g->b, 1, g->bbuf, 0x30000 - 0x0, IBE_ACC_LOCAL_WRITE |
               IBE_ACC_REMOTE_WRITE | IBE_ACC_REMOTE_READ, &g->blkey, &g->brkey);
    uint32_t lk;
    ibe_mr_reg(g->b, 1, g->batom, 4096, IBE_ACC_LOCAL_WRITE | IBE_ACC_REMOTE_ATOMIC |
               IBE_ACC_REMOTE_READ, &lk, &g->binv_rkey);
    uint8_t *m = ibe_mem_ptr(g->a, g->abuf, 65536);
    for (uint32_t i = 0; i < 65536; i++)
        m[i] = (uint8_t)(i * 7 + 3);
    m = ibe_mem_ptr(g->b, g->bbuf, 65536);
    for (uint32_t i = 0; i < 65536; i++)
        m[i] = (uint8_t)(i * 13 + 5);
    ge_connect(g, g->qa, g->qb, 0x00F000, 0x00A000);
    for (uint32_t i = 0; i < recvs; i++)
        ge_post_recv(g);
}

void ge_done(struct ge *g)
{
    ibe_world_run(g->w, 1000000);
    ibe_engine_destroy(g->a);
    ibe_engine_destroy(g->b);
    ibe_world_destroy(g->w);
}

/* Post one WR from A and run the world until it has settled. */
void ge_op(struct ge *g, uint8_t op, uint32_t len, uint32_t off)
{
    struct ibe_send_wr wr;
    memset(&wr, 0, sizeof wr);
    wr.wr_id = off;
    wr.opcode = op;
    wr.flags = IBE_SEND_SIGNALED;
    wr.num_sge = len ? 1 : 0;
    wr.sg[0].addr = g->abuf + off;
    wr.sg[0].length = len;
    wr.sg[0].lkey = g->alkey;
    wr.imm = 0x1000u + off;
    wr.remote_addr = g->bbuf + off;
    wr.rkey = g->brkey;
    wr.remote_qpn = g->qb;
    wr.remote_qkey = 0x11111111u;
    if (op == IBE_WR_ATOMIC_CS || op == IBE_WR_ATOMIC_FA) {
        wr.remote_addr = g->batom + off;
        wr.rkey = g->binv_rkey;
        wr.compare_add = op == IBE_WR_ATOMIC_CS ? 0 : 5;
        wr.swap = 0x1122334455667788ull;
    }
    if (ibe_post_send(g->a, g->qa, &wr))
        g->o->err = 1;
}

void ge_settle(struct ge *g)
{
    ibe_world_run(g->w, 1000000);
    struct ibe_wc wc[16];
    while (ibe_poll_cq(g->a, g->cqa, wc, 16) > 0)
        ;
    while (ibe_poll_cq(g->b, g->cqb, wc, 16) > 0)
        ;
}

/*
 * Send with Invalidate: the HanGu WQE cannot carry it, so the request is
 * built here on A's behalf with A's next PSN (A's requester then counts
 * that PSN as sent, so the ACK is in sequence for it).
 */
static void ge_send_inv(struct ge *g, uint32_t len)
{
    struct eng_qp *q = eng_qp(g->a, g->qa);
    struct eng_hdr h;
    memset(&h, 0, sizeof h);
    h.opcode = IBW_OP_RC_SEND_ONLY_WITH_INVALIDATE;
    h.pkey = 0xFFFF;
    h.destqp = g->qb;
    h.psn = q->cxt.npsn;
    h.ackreq = 1;
    h.imm = g->binv_rkey;
    h.paylen = len;
    uint8_t buf[4096 + 256];
    size_t n = eng_wire_build(g->a, &h, ibe_mem_ptr(g->a, g->abuf, len), buf,
                              sizeof buf);
    if (!n) {
        g->o->err = 1;
        return;
    }
    q->cxt.npsn = psn_add(q->cxt.npsn, 1);
    ge_tx(g, g->a, buf, n);
    ge_settle(g);
}

void ge_rc_ops(struct ge *g)
{
    static const struct { uint8_t op; uint32_t len; } ops[] = {
        {IBE_WR_SEND, 200}, {IBE_WR_SEND, 3000}, {IBE_WR_SEND_IMM, 64},
        {IBE_WR_SEND_IMM, 2500}, {IBE_WR_RDMA_WRITE, 512},
        {IBE_WR_RDMA_WRITE, 4096}, {IBE_WR_RDMA_WRITE_IMM, 100},
        {IBE_WR_RDMA_WRITE_IMM, 2100}, {IBE_WR_RDMA_READ, 256},
        {IBE_WR_RDMA_READ, 3500}, {IBE_WR_ATOMIC_CS, 8}, {IBE_WR_ATOMIC_FA, 8},
        {IBE_WR_ATOMIC_CS, 8}, {IBE_WR_SEND, 0}};
    for (unsigned i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        ge_op(g, ops[i].op, ops[i].len,
              ops[i].op == IBE_WR_ATOMIC_CS || ops[i].op == IBE_WR_ATOMIC_FA
                  ? 0 : i * 64);
        ge_settle(g);
    }
    ge_send_inv(g, 48);
}

/* Every RC operation, single- and multi-packet. */
static void rc_ops(struct gen_out *o, uint8_t framing, int rocev1)
{
    struct ge g;
    ge_setup(&g, o, IBE_RC, framing, 16);
    g.rocev1 = rocev1;
    ge_rc_ops(&g);
    ge_done(&g);
}

static void rc_ops_rocev2(struct gen_out *o) { rc_ops(o, IBE_FRAME_ROCEV2, 0); }
static void rc_ops_ib(struct gen_out *o) { rc_ops(o, IBE_FRAME_IB, 0); }
static void rc_ops_rocev1(struct gen_out *o) { rc_ops(o, IBE_FRAME_IB, 1); }

static void uc_ops(struct gen_out *o)
{
    struct ge g;
    ge_setup(&g, o, IBE_UC, IBE_FRAME_ROCEV2, 16);
    static const struct { uint8_t op; uint32_t len; } ops[] = {
        {IBE_WR_SEND, 300}, {IBE_WR_SEND, 2900}, {IBE_WR_SEND_IMM, 70},
        {IBE_WR_RDMA_WRITE, 1024}, {IBE_WR_RDMA_WRITE, 3333},
        {IBE_WR_RDMA_WRITE_IMM, 40}, {IBE_WR_RDMA_WRITE_IMM, 2048}};
    for (unsigned i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        ge_op(&g, ops[i].op, ops[i].len, i * 64);
        ge_settle(&g);
    }
    ge_done(&g);
}

static void ud_ops(struct gen_out *o)
{
    struct ge g;
    ge_setup(&g, o, IBE_UD, IBE_FRAME_ROCEV2, 16);
    static const uint32_t lens[] = {0, 64, 1000, 1024};
    for (unsigned i = 0; i < 4; i++) {
        ge_op(&g, i & 1 ? IBE_WR_SEND_IMM : IBE_WR_SEND, lens[i], i * 64);
        ge_settle(&g);
    }
    ge_done(&g);
}

/* Request packet 3 (the middle of a 4-packet WRITE) lost: B NAKs with a
 * PSN sequence error, A goes back. */
static void rc_loss_nak(struct gen_out *o)
{
    struct ge g;
    ge_setup(&g, o, IBE_RC, IBE_FRAME_ROCEV2, 16);
    g.drop_req[0] = 3;
    ge_op(&g, IBE_WR_SEND, 100, 0);
    ge_op(&g, IBE_WR_RDMA_WRITE, 3000, 64);
    ge_op(&g, IBE_WR_SEND, 500, 128);
    ge_settle(&g);
    ge_done(&g);
}

/* A read response lost (A asks again from the lost PSN) and the last ACK
 * lost: A's loss timer expires, it sends again, B answers the duplicate. */
static void rc_loss_timeout(struct gen_out *o)
{
    struct ge g;
    ge_setup(&g, o, IBE_RC, IBE_FRAME_ROCEV2, 16);
    g.drop_resp[0] = 3;  /* the first read response */
    g.drop_resp[1] = 8;  /* the last ACK */
    ge_op(&g, IBE_WR_SEND, 1500, 0);
    ge_settle(&g);
    ge_op(&g, IBE_WR_RDMA_READ, 2000, 64);
    ge_settle(&g);
    ge_op(&g, IBE_WR_RDMA_WRITE, 64, 128);
    ge_op(&g, IBE_WR_SEND, 64, 192);
    ge_settle(&g);
    ge_done(&g);
}

static void post_recv_ev(void *ctx, uint64_t arg)
{
    (void)arg;
    ge_post_recv(ctx);
}

/* No receive WQE at B for the second SEND: RNR NAK, A waits the timer and
 * sends again once B has posted one. */
static void rc_rnr(struct gen_out *o)
{
    struct ge g;
    ge_setup(&g, o, IBE_RC, IBE_FRAME_ROCEV2, 1);
    ge_op(&g, IBE_WR_SEND, 100, 0);
    ge_op(&g, IBE_WR_SEND, 200, 64);
    ge_op(&g, IBE_WR_RDMA_WRITE_IMM, 32, 128);
    eng_at(g.w, 12000, post_recv_ev, &g, 0);
    eng_at(g.w, 40000, post_recv_ev, &g, 0);
    ge_settle(&g);
    ge_done(&g);
}

struct cm_cap { struct gen_out *o; };

static void cm_tap(void *ctx, uint64_t t, const uint8_t *pkt, size_t len)
{
    struct cm_cap *c = ctx;
    if (cap_write(c->o->w, GEN_START_NS + t, pkt, len, NULL))
        c->o->err = 1;
    c->o->frames++;
}

/* One connection through CM (REQ/REP/RTU), a verified SEND each way,
 * DREQ/DREP. */
static void cm_connect(struct gen_out *o)
{
    struct cm_cap c = {o};
    struct cmx_sim_opts so;
    struct cmx_sim_result r;
    memset(&so, 0, sizeof so);
    so.seed = 7;
    so.conns = 1;
    so.msg_size = 2048;
    so.framing = IBE_FRAME_ROCEV2;
    so.max_cm_retries = 3;
    so.resp_timeout = 16;
    so.tap = cm_tap;
    so.tap_ctx = &c;
    if (cmx_sim_run(&so, &r) != 0)
        o->err = 1;
}

#define CLEAN "exit 0\n"

static const struct gen_scenario engine_list[] = {
    {"engine-rc-ops", "reference engine, RoCEv2 RC: every operation, single "
     "and multi-packet, Send with Invalidate", CAP_LINKTYPE_ETHERNET,
     rc_ops_rocev2, CLEAN},
    {"engine-rc-ops-ib", "the same over native IB (LRH)",
     CAP_LINKTYPE_INFINIBAND, rc_ops_ib, CLEAN},
    {"engine-rc-ops-erf", "the same over native IB in ERF records",
     CAP_LINKTYPE_ERF, rc_ops_ib, CLEAN},
    {"engine-rc-ops-rocev1", "the same as RoCEv1 (Ethernet 0x8915 + GRH)",
     CAP_LINKTYPE_ETHERNET, rc_ops_rocev1, CLEAN},
    {"engine-uc", "reference engine, UC: SEND, SEND with immediate, WRITE, "
     "WRITE with immediate", CAP_LINKTYPE_ETHERNET, uc_ops, CLEAN},
    {"engine-ud", "reference engine, UD SENDs", CAP_LINKTYPE_ETHERNET, ud_ops,
     CLEAN},
    {"engine-rc-loss-nak", "a request lost before the responder: PSN "
     "sequence NAK and Go-Back-N", CAP_LINKTYPE_ETHERNET, rc_loss_nak,
     "# the lost request never reached the capture point (the responder's "
     "port), but the NAK and the resend of it show network loss, recovered: "
     "no note\nexit 0\n"},
    {"engine-rc-loss-timeout", "a read response and the last ACK lost: "
     "read again, loss-timer retransmission", CAP_LINKTYPE_ETHERNET,
     rc_loss_timeout, CLEAN},
    {"engine-rc-rnr", "no receive WQE: RNR NAK, wait, resend",
     CAP_LINKTYPE_ETHERNET, rc_rnr, CLEAN},
    {"engine-cm", "CM connect (REQ/REP/RTU), SEND each way, disconnect "
     "(DREQ/DREP), over the reference engines", CAP_LINKTYPE_ETHERNET,
     cm_connect, CLEAN},
};

const struct gen_family gen_engine_family = {
    "engine", engine_list, sizeof engine_list / sizeof engine_list[0]};
