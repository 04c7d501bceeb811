/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cm_sim.c - layer 2: the communication controller on the reference engine.
 *
 * Two engines; each node has a CM agent, an HCR model whose modify-QP
 * commands drive the engine's QP contexts, a QP1 GMP port and a WQE
 * arbiter (§4.3.1.3) that QP1 and the data QPs share.  The wire is our own
 * (the engine has no QP1): frames to QP1 go to the GMP port, the rest to the
 * engine, with the drop/dup/reorder/corrupt draws of `ibwire sim` and a tap.
 *
 * The scenario: `conns` connections through a pool of QPs per side (the
 * engine holds 64 QPs, so connections run in waves and QPs are reused after
 * RESET), one verified SEND each way per connection, then a disconnect from
 * the client (even connections) or the server (odd ones).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cm_sim.h"
#include "cmx.h"
#include "eng.h"
#include <ibwire/packet.h>

#define POOL 24u
#define LATENCY_NS 1000u
#define ARB_SERVICE_NS 100u
#define BACKLOG 1024u
#define SID 0x0000000001060000ull /* IP CM service ID: TCP port 0 */

struct cs_sim;

struct cs_qp {
    uint32_t qpn;
    int busy;         /* carries connection `conn` (index into cs_sim.conn) */
    uint32_t conn;
    uint64_t sbuf, rbuf;
    uint32_t lkey;
};

struct cs_node {
    struct cs_sim *s;
    int id;
    struct ibe_engine *e;
    struct cmx_agent *ag;
    struct cmx_hcr hcr;
    struct cmx_gmp_port gmp;
    struct cmx_arb arb;
    uint32_t cq;
    struct cs_qp qp[POOL];
    uint8_t backlog[BACKLOG][IBW_MAD_SIZE];
    uint32_t bl_head, bl_tail;
    uint64_t wake_at;
};

/* How a side's CM last reported a connection. */
enum { CS_NONE, CS_PENDING, CS_EST, CS_DOWN, CS_FAILED };

struct cs_conn {
    int cm[2];               /* CM handle on each side, -1 */
    int qp[2];               /* pool slot on each side, -1 */
    uint8_t est[2], sent_ok[2], recv_ok[2], posted[2], down[2], failed, done;
    uint8_t out[2];          /* CS_*: the side's last CM report */
    uint32_t wr_posted[2], wr_done[2]; /* sends and receives, by wr_id */
    uint32_t wc_errors;      /* completions in error other than flushes */
};

struct cs_sim {
    const struct cmx_sim_opts *o;
    struct cmx_sim_result *r;
    struct ibe_world *w;
    struct cs_node n[2];
    struct cs_conn *conn;
    uint32_t started, finished;
};

static uint8_t pattern(uint32_t conn, int side, uint32_t i)
{
    return (uint8_t)(conn * 7u + (uint32_t)side * 101u + i * 13u + 1u);
}

/* ---- the wire ------------------------------------------------------------ */

struct cs_frame {
    struct cs_node *to;
    size_t len;
    uint8_t b[];
};

static void cm_wake(void *ctx, uint64_t arg);

static void schedule_wake(struct cs_node *nd)
{
    uint64_t d = cmx_next_deadline(nd->ag);
    uint64_t now = ibe_now(nd->s->w);
    if (d == UINT64_MAX || d == nd->wake_at)
        return;
    nd->wake_at = d;
    eng_at(nd->s->w, d > now ? d - now : 0, cm_wake, nd, 0);
}

static void deliver(void *ctx, uint64_t arg)
{
    (void)arg;
    struct cs_frame *f = ctx;
    struct cs_node *nd = f->to;
    size_t bth = nd->s->o->framing == IBE_FRAME_IB ? 8 : 42;
    if (f->len > bth + 8 && ibw_bth_get_destqp(f->b + bth) == 1) {
        uint8_t mad[IBW_MAD_SIZE];
        struct ibw_wc wc;
        if (cmx_gmp_receive(&nd->gmp, f->b, f->len, mad) == IBW_OK) {
            while (cmx_gmp_poll(&nd->gmp, &wc) == 1)
                ;
            cmx_receive(nd->ag, ibe_now(nd->s->w), mad, sizeof mad);
            schedule_wake(nd);
        }
    } else {
        ibe_engine_receive(nd->e, f->b, f->len);
    }
    free(f);
}

static void put(struct cs_sim *s, struct cs_node *to, const uint8_t *b,
                size_t len, uint64_t delay)
{
    struct cs_frame *f = malloc(sizeof *f + len);
    if (!f)
        abort();
    f->to = to;
    f->len = len;
    memcpy(f->b, b, len);
    eng_at(s->w, delay, deliver, f, 0);
}

static void wire(struct cs_node *from, const uint8_t *pkt, size_t len)
{
    struct cs_sim *s = from->s;
    const struct cmx_sim_opts *o = s->o;
    uint8_t buf[4096 + 512];
    if (len > sizeof buf)
        return;
    memcpy(buf, pkt, len);
    s->r->packets_on_wire++;
    size_t bth = o->framing == IBE_FRAME_IB ? 8 : 42;
    if (o->corrupt > 0 && eng_uniform(s->w) < o->corrupt && len > bth + 16) {
        size_t at = bth + 5 + (size_t)(ibe_rand(s->w) % (len - bth - 5));
        buf[at] ^= (uint8_t)(1u << (ibe_rand(s->w) % 8));
    }
    if (o->tap)
        o->tap(o->tap_ctx, ibe_now(s->w), buf, len);
    if (o->drop > 0 && eng_uniform(s->w) < o->drop)
        return;
    uint64_t extra = 0;
    if (o->reorder > 0 && eng_uniform(s->w) < o->reorder)
        extra = LATENCY_NS * 2 + 3000;
    struct cs_node *to = &s->n[!from->id];
    put(s, to, buf, len, LATENCY_NS + extra);
    if (o->dup > 0 && eng_uniform(s->w) < o->dup)
        put(s, to, buf, len, LATENCY_NS + extra + 500);
}

static void on_engine_tx(void *ctx, struct ibe_engine *from, const uint8_t *pkt,
                         size_t len)
{
    (void)from;
    wire(ctx, pkt, len);
}

/* ---- arbitration: QP1 GMP sends and data-QP posts share one server ------- */

static void arb_next(struct cs_node *nd);

static void arb_done(void *ctx, uint64_t arg)
{
    (void)arg;
    struct cs_node *nd = ctx;
    cmx_arb_done(&nd->arb);
    arb_next(nd);
}

static void post_data(struct cs_node *nd, uint32_t slot, uint32_t k);

static void arb_next(struct cs_node *nd)
{
    uint32_t qpn;
    uint64_t token;
    if (!cmx_arb_grant(&nd->arb, &qpn, &token))
        return;
    nd->s->r->arb_grants++;
    if (qpn == 1) {
        uint8_t f[1024];
        int n = cmx_gmp_transmit(&nd->gmp, f, sizeof f);
        struct ibw_wc wc;
        while (cmx_gmp_poll(&nd->gmp, &wc) == 1)
            ;
        if (n > 0) {
            nd->s->r->gmp_frames++;
            wire(nd, f, (size_t)n);
        }
        /* Room in the GMP SQ again: move the backlog in. */
        while (nd->bl_head != nd->bl_tail &&
               cmx_gmp_post(&nd->gmp, nd->backlog[nd->bl_tail % BACKLOG]) == 0) {
            nd->bl_tail++;
            cmx_arb_request(&nd->arb, 1, 0);
        }
    } else {
        post_data(nd, (uint32_t)token, (uint32_t)(token >> 32));
    }
    eng_at(nd->s->w, ARB_SERVICE_NS, arb_done, nd, 0);
}

static void n_send_mad(void *ctx, const uint8_t *mad)
{
    struct cs_node *nd = ctx;
    if (cmx_gmp_post(&nd->gmp, mad) == 0) {
        cmx_arb_request(&nd->arb, 1, 0);
    } else if (nd->bl_head - nd->bl_tail < BACKLOG) {
        memcpy(nd->backlog[nd->bl_head++ % BACKLOG], mad, IBW_MAD_SIZE);
    }
    arb_next(nd);
}

/* ---- HCR -> engine QP contexts ------------------------------------------ */

static int slot_of_qpn(struct cs_node *nd, uint32_t qpn);
static void post_recv_for(struct cs_node *nd, uint32_t slot);

static void post_recv_later(void *ctx, uint64_t slot)
{
    post_recv_for(ctx, (uint32_t)slot);
}

static int apply(void *ctx, uint32_t qpn, unsigned from, unsigned to,
                 const struct cmx_mbox *mb)
{
    struct cs_node *nd = ctx;
    (void)from;
    switch (to) {
    case IBW_HCR_QPS_INIT: {
        int slot = slot_of_qpn(nd, qpn);
        if (slot < 0 || ibe_qp_set_state(nd->e, qpn, IBE_QPS_INIT))
            return -1;
        if (nd->id == 1 && nd->s->o->server_recv_delay_ns)
            eng_at(nd->s->w, nd->s->o->server_recv_delay_ns, post_recv_later, nd,
                   (uint64_t)slot); /* a fault's RNR traffic */
        else
            post_recv_for(nd, (uint32_t)slot); /* the RQ works from INIT on */
        return 0;
    }
    case IBW_HCR_QPS_RTR: {
        /* the local ACK timeout the REQ states (cm_agent.c), not one of
         * its own: a checker judges the resends by the REQ's */
        struct ibe_qp_conn c = {mb->remote_qpn, mb->sq_psn, mb->rq_psn,
                                128u << mb->pmtu, mb->retry_cnt,
                                mb->rnr_retry, mb->ack_timeout, 1, 16};
        if (ibe_qp_connect(nd->e, qpn, &c))
            return -1;
        return ibe_qp_set_state(nd->e, qpn, IBE_QPS_RTR);
    }
    case IBW_HCR_QPS_RTS:
        return ibe_qp_set_state(nd->e, qpn, IBE_QPS_RTS);
    case IBW_HCR_QPS_ERR:
        return ibe_qp_set_state(nd->e, qpn, IBE_QPS_ERR);
    case IBW_HCR_QPS_RESET:
        return ibe_qp_set_state(nd->e, qpn, IBE_QPS_RESET);
    default:
        return -1;
    }
}

static int n_qp_cmd(void *ctx, uint16_t op, uint32_t qpn,
                    const struct cmx_mbox *mb)
{
    struct cs_node *nd = ctx;
    return cmx_hcr_modify_qp(&nd->hcr, op, qpn, mb);
}

/* ---- connections ---------------------------------------------------------- */

static int slot_of_qpn(struct cs_node *nd, uint32_t qpn)
{
    for (uint32_t i = 0; i < POOL; i++)
        if (nd->qp[i].qpn == qpn)
            return (int)i;
    return -1;
}

static int free_slot(struct cs_node *nd)
{
    for (uint32_t i = 0; i < POOL; i++)
        if (!nd->qp[i].busy)
            return (int)i;
    return -1;
}

static void post_recv_for(struct cs_node *nd, uint32_t slot)
{
    struct cs_qp *q = &nd->qp[slot];
    struct ibe_recv_wr rw = {q->conn, 1, {{q->rbuf, nd->s->o->msg_size, q->lkey}}};
    memset(ibe_mem_ptr(nd->e, q->rbuf, nd->s->o->msg_size), 0, nd->s->o->msg_size);
    if (ibe_post_recv(nd->e, q->qpn, &rw) == 0)
        nd->s->conn[q->conn].wr_posted[nd->id]++;
}

/* The arbiter grants later than the request: by then the connection may
 * have been torn down and the slot handed to another one, whose send this
 * is not. */
static void post_data(struct cs_node *nd, uint32_t slot, uint32_t k)
{
    struct cs_qp *q = &nd->qp[slot];
    if (!q->busy || q->conn != k || ibe_qp_state(nd->e, q->qpn) != IBE_QPS_RTS)
        return;
    struct ibe_send_wr wr;
    memset(&wr, 0, sizeof wr);
    wr.wr_id = q->conn;
    wr.opcode = IBE_WR_SEND;
    wr.flags = IBE_SEND_SIGNALED;
    wr.num_sge = 1;
    wr.sg[0].addr = q->sbuf;
    wr.sg[0].length = nd->s->o->msg_size;
    wr.sg[0].lkey = q->lkey;
    uint8_t *p = ibe_mem_ptr(nd->e, q->sbuf, nd->s->o->msg_size);
    for (uint32_t i = 0; i < nd->s->o->msg_size; i++)
        p[i] = pattern(q->conn, nd->id, i);
    if (ibe_post_send(nd->e, q->qpn, &wr) == 0) {
        nd->s->r->messages_posted++;
        nd->s->conn[k].wr_posted[nd->id]++;
    }
}

static void start_conn(struct cs_sim *s, uint32_t k)
{
    struct cs_node *a = &s->n[0];
    int slot = free_slot(a);
    if (slot < 0)
        return;
    struct cs_qp *q = &a->qp[slot];
    q->busy = 1;
    q->conn = k;
    s->conn[k].qp[0] = slot;
    cmx_hcr_add_qp(&a->hcr, q->qpn);
    ibe_qp_set_state(a->e, q->qpn, IBE_QPS_RESET);
    struct cmx_connect c = {SID, q->qpn, (uint32_t)(ibe_rand(s->w) & 0xFFFFFFu),
                            3, 7, 7, 0, (const uint8_t *)&k, sizeof k};
    s->started++;
    s->conn[k].out[0] = CS_PENDING;
    s->conn[k].cm[0] = cmx_connect(a->ag, ibe_now(s->w), &c);
    schedule_wake(a);
}

static void release(struct cs_sim *s, int side, uint32_t k)
{
    struct cs_conn *c = &s->conn[k];
    if (c->qp[side] >= 0)
        s->n[side].qp[c->qp[side]].busy = 0;
    c->qp[side] = -1;
}

static void maybe_finish(struct cs_sim *s, uint32_t k)
{
    struct cs_conn *c = &s->conn[k];
    if (c->done)
        return;
    if (c->failed || (c->down[0] && c->down[1])) {
        c->done = 1;
        s->finished++;
        if (s->started < s->o->conns)
            start_conn(s, s->started);
    }
}

static int n_on_req(void *ctx, uint32_t conn, const struct ibw_cm_req *req,
                    struct cmx_accept *acc)
{
    struct cs_node *b = ctx;
    struct cs_sim *s = b->s;
    uint32_t k;
    memcpy(&k, req->private_data, sizeof k); /* the client's connection no. */
    if (k >= s->o->conns)
        return IBW_CM_REJ_CONSUMER_DEFINED;
    int slot = free_slot(b);
    if (slot < 0)
        return IBW_CM_REJ_NO_QP;
    struct cs_qp *q = &b->qp[slot];
    q->busy = 1;
    q->conn = k;
    if (s->conn[k].qp[1] >= 0)
        release(s, 1, k); /* an earlier attempt for k that gave up */
    s->conn[k].qp[1] = slot;
    s->conn[k].cm[1] = (int)conn;
    s->conn[k].out[1] = CS_PENDING;
    cmx_hcr_add_qp(&b->hcr, q->qpn);
    ibe_qp_set_state(b->e, q->qpn, IBE_QPS_RESET);
    acc->qpn = q->qpn;
    acc->start_psn = (uint32_t)(ibe_rand(s->w) & 0xFFFFFFu);
    return CMX_ACCEPT;
}

static void n_on_event(void *ctx, const struct cmx_event *ev)
{
    struct cs_node *nd = ctx;
    struct cs_sim *s = nd->s;
    int slot = slot_of_qpn(nd, ev->qpn);
    if (slot < 0 || !nd->qp[slot].busy)
        return;
    uint32_t k = nd->qp[slot].conn;
    struct cs_conn *c = &s->conn[k];
    switch (ev->type) {
    case CMX_EV_ESTABLISHED:
        c->est[nd->id] = 1;
        c->out[nd->id] = CS_EST;
        if (nd->id == 0)
            s->r->connections_established++;
        if (!c->posted[nd->id]) {
            c->posted[nd->id] = 1;
            cmx_arb_request(&nd->arb, ev->qpn, (uint64_t)k << 32 | (uint32_t)slot);
            arb_next(nd);
        }
        break;
    case CMX_EV_FAILED:
    case CMX_EV_REJECTED:
    case CMX_EV_STALE:
        /* Stale: the peer reused the QP of a connection it had closed
         * already (its DREQ never got through); for this side that is the
         * end of an established connection, not a failed one. */
        c->out[nd->id] = ev->type == CMX_EV_STALE && c->out[nd->id] == CS_EST
                             ? CS_DOWN : CS_FAILED;
        if (nd->id == 0) {
            c->failed = 1;
            s->r->connections_failed++;
            release(s, 0, k);
            maybe_finish(s, k);
        } else {
            release(s, 1, k);
        }
        break;
    case CMX_EV_DISCONNECTED:
        c->down[nd->id] = 1;
        c->out[nd->id] = CS_DOWN;
        if (nd->id == 0)
            s->r->disconnects++;
        release(s, nd->id, k);
        maybe_finish(s, k);
        break;
    default:
        break;
    }
}

static void cm_wake(void *ctx, uint64_t arg)
{
    (void)arg;
    struct cs_node *nd = ctx;
    nd->wake_at = 0;
    cmx_tick(nd->ag, ibe_now(nd->s->w));
    schedule_wake(nd);
}

/* The consumer's side of a transport error (retries exhausted, a NAK): the
 * QP is in Error and the peer cannot know, so the connection is released
 * with a DREQ, as a Linux ULP answers such a completion with
 * rdma_disconnect(); the peer's outstanding WRs then flush. */
static void on_wc_error(struct cs_sim *s, struct cs_node *nd, uint32_t k)
{
    struct cs_conn *c = &s->conn[k];
    c->wc_errors++;
    s->r->completed_error++;
    if (c->out[nd->id] == CS_EST && c->cm[nd->id] >= 0 &&
        cmx_disconnect(nd->ag, ibe_now(s->w), (uint32_t)c->cm[nd->id]) == 0)
        schedule_wake(nd);
}

static void poll_node(struct cs_sim *s, struct cs_node *nd)
{
    struct ibe_wc wc[32];
    int n;
    while ((n = ibe_poll_cq(nd->e, nd->cq, wc, 32)) > 0) {
        for (int i = 0; i < n; i++) {
            /* wr_id is the connection; the slot may belong to another one
             * by now (a teardown flushes, then the QP is reused). */
            if (wc[i].wr_id >= s->o->conns)
                continue;
            uint32_t k = (uint32_t)wc[i].wr_id;
            struct cs_conn *c = &s->conn[k];
            c->wr_done[nd->id]++;
            if (wc[i].status == IBE_WC_WR_FLUSH_ERR) {
                s->r->completed_flushed++;
                continue;
            }
            if (wc[i].status != IBE_WC_SUCCESS) {
                on_wc_error(s, nd, k);
                continue;
            }
            int slot = slot_of_qpn(nd, wc[i].qpn);
            if (slot < 0 || !nd->qp[slot].busy || nd->qp[slot].conn != k)
                continue; /* cannot happen: success needs a live QP */
            s->r->completed_ok++;
            if (wc[i].is_send) {
                c->sent_ok[nd->id] = 1;
            } else {
                const uint8_t *p = ibe_mem_ptr(nd->e, nd->qp[slot].rbuf, s->o->msg_size);
                int ok = wc[i].byte_len == s->o->msg_size;
                for (uint32_t j = 0; ok && j < s->o->msg_size; j++)
                    ok = p[j] == pattern(k, !nd->id, j);
                if (ok) {
                    s->r->bytes_verified += s->o->msg_size;
                    c->recv_ok[nd->id] = 1;
                } else {
                    s->r->data_mismatches++;
                }
                /* A packet on a passive QP still in REP_SENT: IBA's
                 * communication-established event stands for the RTU. */
                cmx_comm_established(nd->ag, ibe_now(s->w), wc[i].qpn);
                schedule_wake(nd);
            }
            if (c->sent_ok[0] && c->sent_ok[1] && c->recv_ok[0] && c->recv_ok[1] &&
                c->est[0] && c->est[1] && !c->down[0] && !c->down[1]) {
                int side = k % 2; /* even: client disconnects, odd: server */
                struct cs_node *d = &s->n[side];
                if (c->cm[side] >= 0 &&
                    cmx_disconnect(d->ag, ibe_now(s->w), (uint32_t)c->cm[side]) == 0)
                    schedule_wake(d);
            }
        }
    }
}

static int setup_node(struct cs_sim *s, int id)
{
    struct cs_node *nd = &s->n[id];
    const struct cmx_sim_opts *o = s->o;
    nd->s = s;
    nd->id = id;
    uint64_t mem = (uint64_t)POOL * o->msg_size * 2 + (8u << 20);
    struct ibe_config cfg = {mem, o->framing, (uint16_t)(id ? 0 : 1),
                             id ? 0x0A000000u : 0x0A000001u,
                             {2, 0, 10, 0, 0, (uint8_t)(id ? 0 : 1)}};
    nd->e = ibe_engine_create(s->w, &cfg);
    if (!nd->e)
        return -1;
    ibe_engine_set_tx(nd->e, on_engine_tx, nd);
    if (o->faults[id])
        ibe_engine_set_faults(nd->e, o->faults[id]);
    nd->cq = ibe_cq_create(nd->e, 4096);
    cmx_hcr_init(&nd->hcr, apply, nd);
    cmx_gmp_init(&nd->gmp, o->framing != IBE_FRAME_IB, cfg.ipv4, cfg.ipv4 ^ 1u,
                 cfg.lid, (uint16_t)(cfg.lid ^ 1u));
    cmx_arb_init(&nd->arb);
    uint64_t base = ibe_mem_alloc(nd->e, (uint64_t)POOL * o->msg_size * 2, 4096);
    uint32_t lkey = 0, rkey = 0;
    if (ibe_mr_reg(nd->e, 1, base, (uint64_t)POOL * o->msg_size * 2,
                   IBE_ACC_LOCAL_WRITE, &lkey, &rkey))
        return -1;
    for (uint32_t i = 0; i < POOL; i++) {
        struct ibe_qp_attr qa = {IBE_RC, 1, nd->cq, nd->cq, 16, 16, 0, 0};
        struct cs_qp *q = &nd->qp[i];
        q->qpn = ibe_qp_create(nd->e, &qa);
        if (!q->qpn || q->qpn >= CMX_HCR_MAX_QP)
            return -1;
        ibe_qp_set_state(nd->e, q->qpn, IBE_QPS_RESET);
        q->sbuf = base + (uint64_t)i * o->msg_size * 2;
        q->rbuf = q->sbuf + o->msg_size;
        q->lkey = lkey;
    }
    struct cmx_config cc = {id ? 0x3333444455556666ull : 0xCCCCDDDDEEEEFFFFull,
                            cfg.lid, id ? 0x11112222u : 0xAAAABBBBu,
                            o->resp_timeout, 10, o->max_cm_retries,
                            2 * LATENCY_NS + 4000, 256};
    struct cmx_ops ops = {nd, n_send_mad, n_qp_cmd, n_on_req, n_on_event};
    nd->ag = cmx_agent_create(&cc, &ops);
    return nd->ag ? 0 : -1;
}

int cmx_sim_run(const struct cmx_sim_opts *o, struct cmx_sim_result *r)
{
    memset(r, 0, sizeof *r);
    if (!o->conns || !o->msg_size || o->msg_size > (1u << 20) ||
        o->max_cm_retries > 15 || o->resp_timeout > 31)
        return -1;
    struct cs_sim s;
    memset(&s, 0, sizeof s);
    s.o = o;
    s.r = r;
    s.w = ibe_world_create(o->seed);
    s.conn = calloc(o->conns, sizeof *s.conn);
    int rc = -1;
    if (!s.w || !s.conn || setup_node(&s, 0) || setup_node(&s, 1))
        goto out;
    for (uint32_t k = 0; k < o->conns; k++)
        s.conn[k].cm[0] = s.conn[k].cm[1] = s.conn[k].qp[0] = s.conn[k].qp[1] = -1;
    cmx_listen(s.n[1].ag, SID);
    for (uint32_t k = 0; k < o->conns && k < POOL; k++)
        start_conn(&s, k);
    uint64_t steps = 0;
    while (s.finished < o->conns && steps < 200000000ull) {
        if (!ibe_world_step(s.w))
            break;
        steps++;
        poll_node(&s, &s.n[0]);
        poll_node(&s, &s.n[1]);
    }
    /* Let the last DREP retries and timers run out. */
    while (ibe_world_step(s.w) && steps++ < 400000000ull) {
        poll_node(&s, &s.n[0]);
        poll_node(&s, &s.n[1]);
    }
    r->sim_time_ns = ibe_now(s.w);
    for (int i = 0; i < 2; i++) {
        const struct cmx_stats *st = cmx_agent_stats(s.n[i].ag);
        r->cm_retries += st->retries;
        r->mra_sent += st->mra_sent;
        r->rej_sent += st->rej_sent;
        r->live_connections += cmx_agent_live(s.n[i].ag);
        r->hcr_failures += s.n[i].hcr.failures;
        const struct ibe_stats *es = ibe_engine_stats(s.n[i].e);
        r->retransmissions += es->retransmissions;
        r->timeouts += es->timeouts;
        for (uint32_t q = 0; q < POOL; q++) {
            uint32_t qpn = s.n[i].qp[q].qpn;
            int hs = cmx_hcr_qp_state(&s.n[i].hcr, qpn);
            if ((hs != -1 && hs != IBW_HCR_QPS_RESET) ||
                ibe_qp_state(s.n[i].e, qpn) != IBE_QPS_RESET)
                r->qps_wrong_state++;
        }
    }
    uint64_t failed_class = 0;
    for (uint32_t k = 0; k < o->conns; k++) {
        const struct cs_conn *c = &s.conn[k];
        for (int i = 0; i < 2; i++)
            if (c->wr_posted[i] != c->wr_done[i])
                r->wrs_unfinished += c->wr_posted[i] > c->wr_done[i]
                                         ? c->wr_posted[i] - c->wr_done[i]
                                         : c->wr_done[i] - c->wr_posted[i];
        int ended = (c->out[0] == CS_DOWN || c->out[0] == CS_FAILED) &&
                    c->out[1] != CS_PENDING && c->out[1] != CS_EST;
        if (!ended)
            r->connections_disagree++;
        else if (c->out[0] == CS_DOWN && c->out[1] == CS_DOWN && !c->wc_errors &&
                 c->est[0] && c->est[1] && c->sent_ok[0] && c->sent_ok[1] &&
                 c->recv_ok[0] && c->recv_ok[1])
            r->connections_clean++;
        else if (c->wc_errors)
            r->connections_broken++;
        else if (c->out[0] == CS_FAILED && c->out[1] != CS_DOWN &&
                 !c->recv_ok[0] && !c->recv_ok[1])
            failed_class++;
        else
            r->connections_disagree++;
    }
    r->invariants_ok = s.finished == o->conns && r->qps_wrong_state == 0 &&
                       r->live_connections == 0 && r->data_mismatches == 0 &&
                       r->hcr_failures == 0 && r->connections_disagree == 0 &&
                       r->wrs_unfinished == 0 &&
                       r->connections_clean + r->connections_broken +
                               failed_class == o->conns &&
                       r->bytes_verified >= 2ull * o->msg_size * r->connections_clean;
    if (!r->invariants_ok)
        snprintf(r->failure, sizeof r->failure,
                 "finished %u/%u, wrong QPs %llu, live %llu, mismatches %llu, "
                 "HCR failures %llu, disagreeing %llu, unfinished WRs %llu, "
                 "verified %llu",
                 s.finished, o->conns, (unsigned long long)r->qps_wrong_state,
                 (unsigned long long)r->live_connections,
                 (unsigned long long)r->data_mismatches,
                 (unsigned long long)r->hcr_failures,
                 (unsigned long long)r->connections_disagree,
                 (unsigned long long)r->wrs_unfinished,
                 (unsigned long long)r->bytes_verified);
    rc = r->invariants_ok ? 0 : 1;
out:
    for (int i = 0; i < 2; i++) {
        cmx_agent_destroy(s.n[i].ag);
        if (s.n[i].e)
            ibe_engine_destroy(s.n[i].e);
    }
    if (s.w)
        ibe_world_destroy(s.w);
    free(s.conn);
    return rc;
}
