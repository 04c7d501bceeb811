/* SPDX-License-Identifier: Apache-2.0 */
/*
 * perftest.c - `ibwire peer -s --app perftest`: the reference engine as the
 * server of perftest's ib_write_bw / ib_read_bw / ib_send_bw -R
 * (perftest.h has the exchange, as a real run between two rxe shows it).
 *
 * The engine serves the three tests without being told which: the first
 * connection gets the comm QP, the second the test QP, whose region (2 x
 * -S bytes, remote READ and WRITE) is what the pingpong_dest announces and
 * whose receive queue is kept full of receives of -S bytes, as perftest's
 * send_bw server keeps its own (min(512, -n) posted, one more per
 * completion until -n are posted).  A write or read client never SENDs on
 * the test QP; a send client never READs or WRITEs.  The run is over when
 * both connections are torn down: by the client (perftest 4.5: DREQ; the
 * engine answers with a DREP) or, when a client that finished the exchange
 * stays quiet (perftest 25.01 waits for the server), by the engine's own
 * DREQs; it has succeeded when the client went through the handshakes
 * after its test - the BW report (write, read) or the -C SENDs (send).
 *
 * As a client (-c, --perftest-verb) the engine plays perftest's client
 * against such a server: the same steps from the other end, then -C
 * WRITEs, READs (-V: their bytes checked against the engine server's
 * region) or SENDs of -S bytes, at most CLIENT_DEPTH outstanding, the steps after
 * the test, and a DREQ on each connection.  It is what lets two engines
 * run the exchange without a VM (tests/peer/perftest_netns.py), and it
 * runs against perftest's own server (scripts/rxe-vm/peer.sh).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "perftest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ibwire/packet.h>

/* ---- the exchange (no engine, no socket) --------------------------------- */

void pt_dest_encode(uint8_t out[PT_DEST_LEN], const struct pt_dest *d)
{
    memset(out, 0, PT_DEST_LEN);
    ibw_store_be32(out + 0, d->lid);
    ibw_store_be32(out + 4, d->out_reads);
    ibw_store_be32(out + 8, d->qpn);
    ibw_store_be32(out + 12, d->psn);
    ibw_store_be32(out + 16, d->rkey);
    /* 20..23: the struct's padding before vaddr; perftest leaves whatever
     * its stack held there, this side zeroes it */
    ibw_store_be64(out + 24, d->vaddr);
    memcpy(out + 32, d->gid, 16);
    ibw_store_be32(out + 48, d->srqn);
    ibw_store_be32(out + 52, d->gid_index);
}

void pt_dest_decode(const uint8_t in[PT_DEST_LEN], struct pt_dest *d)
{
    d->lid = ibw_load_be32(in + 0);
    d->out_reads = ibw_load_be32(in + 4);
    d->qpn = ibw_load_be32(in + 8);
    d->psn = ibw_load_be32(in + 12);
    d->rkey = ibw_load_be32(in + 16);
    d->vaddr = ibw_load_be64(in + 24);
    memcpy(d->gid, in + 32, 16);
    d->srqn = ibw_load_be32(in + 48);
    d->gid_index = ibw_load_be32(in + 52);
}

void pt_server_init(struct pt_server *s, uint32_t cycle_buffer,
                    uint32_t cache_line)
{
    memset(s, 0, sizeof *s);
    s->cycle_buffer = cycle_buffer;
    s->cache_line = cache_line;
}

int pt_reply(struct pt_server *s, const uint8_t *msg, size_t len, uint8_t *out,
             size_t cap, char *err, size_t errlen)
{
    if (cap < PT_MAX_MSG) {
        snprintf(err, errlen, "perftest: reply buffer of %zu bytes", cap);
        return -1;
    }
    s->msgs++;
    switch (len) {
    case PT_VERSION_LEN:
        if (s->msgs != 1 || msg[PT_VERSION_LEN - 1] != 0) {
            snprintf(err, errlen, "perftest: message %u: 16 bytes that are not "
                     "the opening version string", s->msgs);
            return -1;
        }
        memcpy(s->version, msg, PT_VERSION_LEN);
        s->version[PT_VERSION_LEN] = 0;
        /* The client's own version back: which of perftest's message
         * layouts it uses (5.31: a 2-byte MTU, 5.33: 8-byte iterations)
         * depends on the version the other side claims, and this side
         * follows whatever layout the client sends. */
        memcpy(out, msg, PT_VERSION_LEN);
        return (int)PT_VERSION_LEN;
    case PT_INT_LEN:
        /* check_sys_data(): the cycle buffer, then the cache line; each
         * side takes the larger of the two */
        if (s->ints >= 2) {
            snprintf(err, errlen, "perftest: message %u: a third 4-byte "
                     "message (only the cycle buffer and cache line are)", s->msgs);
            return -1;
        }
        ibw_store_be32(out, s->ints++ == 0 ? s->cycle_buffer : s->cache_line);
        return (int)PT_INT_LEN;
    case PT_MTU_LEN:
        /* check_mtu(): the client takes the smaller MTU; the engine runs
         * any of 256..4096, so it names the client's own */
        if (s->mtus++ || msg[1] != 0 || msg[0] < '1' || msg[0] > '5') {
            snprintf(err, errlen, "perftest: message %u: 2 bytes that are not "
                     "an MTU enum (\"1\" ... \"5\")", s->msgs);
            return -1;
        }
        memcpy(out, msg, PT_MTU_LEN);
        return (int)PT_MTU_LEN;
    case PT_DEST_LEN: {
        s->dests++;
        pt_dest_decode(msg, &s->client);
        /* perftest's pingpong_dest is zero until set_up_connection(),
         * which both sides reach at the same step: answer in kind */
        if (s->ready && s->client.qpn) {
            pt_dest_encode(out, &s->dest);
            s->dests_ready++;
        } else {
            memset(out, 0, PT_DEST_LEN);
        }
        return (int)PT_DEST_LEN;
    }
    case PT_REPORT_LEN:
        /* xchg_bw_reports(): size, iterations, BW peak, BW average,
         * message rate.  The engine measures no bandwidth; it returns the
         * size and iterations the client names and 0.0 for the rates
         * (perftest's write and read servers send uninitialised ones). */
        if (s->reports >= 5) {
            snprintf(err, errlen, "perftest: message %u: a sixth 8-byte "
                     "message (the BW report has five)", s->msgs);
            return -1;
        }
        s->report[s->reports] = ibw_load_be64(msg);
        if (s->reports < 2)
            memcpy(out, msg, PT_REPORT_LEN);
        else
            memset(out, 0, PT_REPORT_LEN);
        s->reports++;
        return (int)PT_REPORT_LEN;
    default:
        snprintf(err, errlen, "perftest: message %u: %zu bytes, no step of "
                 "perftest's exchange (16, 4, 2, 56 or 8)", s->msgs, len);
        return -1;
    }
}

/* ---- the application on the engine (peer_app.h) -------------------------- */

#ifdef __linux__
#include "peer_app.h"

#define COMM_SLOTS 4u       /* receives kept on the comm QP */
#define WORK_RQ 512u        /* perftest's rx_depth for BW tests */
#define LINGER_NS 3000000000ull
#define CLIENT_DEPTH 8u     /* client: WRs outstanding on the test QP */

enum { WR_COMM_RECV = 1, WR_COMM_SEND = 100, WR_WORK_RECV = 200, WR_WORK_OP = 300 };

/* The client's steps: a message of the exchange (its length), or one of
 * these. */
enum { ST_ZERO_DEST = 1000, ST_CONNECT_TEST, ST_TEST, ST_REPORT, ST_DISCONNECT,
       ST_DONE };

struct pt_app {
    uint32_t cq, lkey, rkey;
    uint64_t comm_rx, comm_tx, region;
    uint32_t region_len, recv_len;
    uint32_t comm_qpn, work_qpn, work_psn, comm_remote_qpn;
    int comm_conn, work_conn;
    int comm_up, work_up, comm_down, work_down;
    uint64_t first_down_at;
    uint64_t last_msg_at;       /* server: when the last comm message came */
    int test_ended;             /* server: the BW report or the -C SENDs are in */
    unsigned dests_at_test_end; /* server: pingpong_dests answered by then */
    int dreq_sent;
    unsigned tx_slot;
    uint32_t recvs_posted, recvs_done;
    uint64_t bytes_rx;
    struct pt_server srv;
    /* client */
    unsigned step, nsteps, reports_sent, work_retries;
    uint64_t retry_at;
    int waiting;                /* for the answer to the message sent */
    unsigned steps[24];
    uint32_t ops_posted, ops_done;
    uint64_t verified;
    struct pt_dest server;      /* the server's last pingpong_dest */
};

static int is_client(struct peer *p)
{
    return peer_options(p)->role == PEER_CLIENT;
}

/* perftest's client, step by step (perftest.h) */
static void client_plan(struct pt_app *a, unsigned verb)
{
    unsigned n = 0;
    a->steps[n++] = PT_VERSION_LEN;
    a->steps[n++] = PT_INT_LEN;
    a->steps[n++] = PT_INT_LEN;
    a->steps[n++] = PT_MTU_LEN;
    a->steps[n++] = ST_ZERO_DEST;
    a->steps[n++] = ST_CONNECT_TEST;
    a->steps[n++] = ST_ZERO_DEST;
    for (unsigned i = 0; i < (verb == PT_SEND ? 4u : 3u); i++)
        a->steps[n++] = PT_DEST_LEN;
    a->steps[n++] = ST_TEST;
    if (verb != PT_SEND) {
        a->steps[n++] = PT_DEST_LEN;
        for (unsigned i = 0; i < 5; i++)
            a->steps[n++] = ST_REPORT;
    }
    a->steps[n++] = PT_DEST_LEN;
    a->steps[n++] = ST_DISCONNECT;
    a->steps[n++] = ST_DONE;
    a->nsteps = n;
}

static void post_recv(struct peer *p, uint32_t qpn, uint64_t wr_id,
                      uint64_t va, uint32_t len, uint32_t lkey)
{
    struct ibe_recv_wr r;
    memset(&r, 0, sizeof r);
    r.wr_id = wr_id;
    r.num_sge = 1;
    r.sg[0].addr = va;
    r.sg[0].length = len;
    r.sg[0].lkey = lkey;
    if (ibe_post_recv(peer_engine(p), qpn, &r))
        peer_fail(p, "perftest: cannot post a receive");
}

static uint32_t make_qp(struct ibe_engine *e, uint32_t cq, uint32_t rq)
{
    struct ibe_qp_attr a;
    memset(&a, 0, sizeof a);
    a.type = IBE_RC;
    a.pd = 1;
    a.send_cq = a.recv_cq = cq;
    a.sq_depth = 16;
    a.rq_depth = rq;
    a.pkey = 0xFFFF;
    return ibe_qp_create(e, &a);
}

static int pt_setup(struct peer *p, void *st)
{
    struct pt_app *a = st;
    struct ibe_engine *e = peer_engine(p);
    const struct peer_opts *o = peer_options(p);
    a->comm_conn = a->work_conn = -1;
    a->recv_len = o->size;
    a->region_len = 2 * o->size;
    uint32_t comm_len = 2 * COMM_SLOTS * PT_MAX_MSG;
    uint64_t base = ibe_mem_alloc(e, (uint64_t)a->region_len + comm_len, 4096);
    if (!base || ibe_mr_reg(e, 1, base, (uint64_t)a->region_len + comm_len,
                            IBE_ACC_LOCAL_WRITE | IBE_ACC_REMOTE_READ |
                                IBE_ACC_REMOTE_WRITE,
                            &a->lkey, &a->rkey))
        return -1;
    a->region = base;
    a->comm_rx = base + a->region_len;
    a->comm_tx = a->comm_rx + COMM_SLOTS * PT_MAX_MSG;
    /* bytes a READ client can tell apart from zeroed memory */
    uint8_t *r = ibe_mem_ptr(e, base, a->region_len);
    for (uint32_t i = 0; i < a->region_len; i++)
        r[i] = pt_region_byte(i);
    a->cq = ibe_cq_create(e, 2048);
    a->comm_qpn = make_qp(e, a->cq, 8);
    a->work_qpn = make_qp(e, a->cq, WORK_RQ);
    /* the engine's page and a common cache line, as perftest's own server
     * on x86 announces them */
    pt_server_init(&a->srv, 4096, 64);
    if (is_client(p))
        client_plan(a, o->perftest_verb);
    return a->cq && a->comm_qpn && a->work_qpn ? 0 : -1;
}

static int pt_on_req(struct peer *p, void *st, uint32_t conn,
                     struct cmx_accept *acc)
{
    struct pt_app *a = st;
    if (is_client(p))
        return IBW_CM_REJ_NO_QP; /* a client takes no REQ */
    if (a->comm_conn < 0) {
        a->comm_conn = (int)conn;
        acc->qpn = a->comm_qpn;
    } else if (a->work_conn < 0) {
        a->work_conn = (int)conn;
        acc->qpn = a->work_qpn;
        a->work_psn = acc->start_psn;
    } else {
        return IBW_CM_REJ_NO_QP; /* perftest -R: one test QP */
    }
    return CMX_ACCEPT;
}

/* The server's pingpong_dest, answered from now on: the test QP as the
 * REP announced it.  Set when that QP is set up for the REP, not when the
 * connection is established: under loss the client's RTU may be lost, and
 * the client, established on the REP, goes on with the exchange on the
 * comm QP (its dests with values) while this side waits for the REP's
 * resend to draw the RTU again or for the first packet on the test QP,
 * which for send comes only after the exchange. */
static void own_dest(const struct pt_app *a, const struct peer_opts *o,
                     uint32_t out_reads, struct pt_dest *d)
{
    memset(d, 0, sizeof *d);
    d->out_reads = out_reads;
    d->qpn = a->work_qpn;
    d->psn = a->work_psn;
    d->rkey = a->rkey;
    d->vaddr = a->region;
    d->gid[10] = d->gid[11] = 0xFF;
    ibw_store_be32(d->gid + 12, o->ip);
    d->gid_index = 1;
}

static void server_dest(struct pt_app *a, const struct peer_opts *o)
{
    if (a->srv.ready)
        return;
    own_dest(a, o, 16, &a->srv.dest); /* 16: the REP's responder resources */
    a->srv.ready = 1;
}

static void pt_qp_init(struct peer *p, void *st, uint32_t qpn)
{
    struct pt_app *a = st;
    const struct peer_opts *o = peer_options(p);
    if (qpn == a->comm_qpn) {
        for (uint32_t i = 0; i < COMM_SLOTS; i++)
            post_recv(p, qpn, WR_COMM_RECV + i, a->comm_rx + i * PT_MAX_MSG,
                      PT_MAX_MSG, a->lkey);
        return;
    }
    if (is_client(p))
        return; /* perftest's client receives nothing on the test QP */
    uint32_t n = o->count && o->count < WORK_RQ ? o->count : WORK_RQ;
    for (uint32_t i = 0; i < n; i++)
        post_recv(p, qpn, WR_WORK_RECV, a->region, a->recv_len, a->lkey);
    a->recvs_posted = n;
    if (qpn == a->work_qpn && a->work_conn >= 0)
        server_dest(a, o);
}

static void pt_on_event(struct peer *p, void *st, const struct cmx_event *ev)
{
    struct pt_app *a = st;
    const struct peer_opts *o = peer_options(p);
    int work = a->work_conn >= 0 && ev->conn == (uint32_t)a->work_conn;
    char m[160];
    switch (ev->type) {
    case CMX_EV_ESTABLISHED:
        if (work && is_client(p)) {
            a->work_up = 1;
        } else if (work) {
            a->work_up = 1;
            server_dest(a, o);
        } else {
            a->comm_up = 1;
            a->comm_remote_qpn = ev->remote_qpn;
        }
        if (o->verbose && o->log)
            fprintf(o->log, "peer: perftest: %s connection established\n",
                    work ? "test" : "comm");
        break;
    case CMX_EV_DISCONNECTED:
        if (work)
            a->work_down = 1;
        else
            a->comm_down = 1;
        if (!a->first_down_at)
            a->first_down_at = peer_now(p) | 1u;
        if (o->verbose && o->log)
            fprintf(o->log, "peer: perftest: %s connection torn down\n",
                    work ? "test" : "comm");
        break;
    case CMX_EV_REJECTED:
    case CMX_EV_FAILED:
    case CMX_EV_STALE:
    case CMX_EV_QP_CMD_FAILED:
        /* perftest's server listens for the test connection only after
         * the exchange's first steps; its own client retries a rejected
         * REQ ten times, 100 ms apart (retry_rdma_connect()) */
        if (ev->type == CMX_EV_REJECTED && work && is_client(p) &&
            a->work_retries < 10) {
            a->work_retries++;
            a->work_conn = -1;
            a->retry_at = peer_now(p) + 100000000u;
            if (o->verbose && o->log)
                fprintf(o->log, "peer: perftest: test connection rejected "
                        "(reason %u), again in 100 ms\n", ev->reason);
            break;
        }
        snprintf(m, sizeof m, "perftest: the CM gave up on the %s connection "
                 "(event %u, reason %u)", work ? "test" : "comm", ev->type,
                 ev->reason);
        peer_fail(p, m);
        break;
    default:
        break;
    }
}

static void comm_send(struct peer *p, struct pt_app *a, uint64_t tx, uint32_t len)
{
    struct ibe_send_wr w;
    memset(&w, 0, sizeof w);
    w.wr_id = WR_COMM_SEND;
    w.opcode = IBE_WR_SEND;
    w.flags = IBE_SEND_SIGNALED;
    w.num_sge = 1;
    w.sg[0].addr = tx;
    w.sg[0].length = len;
    w.sg[0].lkey = a->lkey;
    if (ibe_post_send(peer_engine(p), a->comm_qpn, &w))
        peer_fail(p, "perftest: cannot post a SEND on the comm QP");
}

/* Called on each message and SEND the server takes: the test has ended
 * once the BW report (write, read) or the -C SENDs (send) are in. */
static void server_note_test_end(struct pt_app *a, const struct peer_opts *o)
{
    if (!a->test_ended && (a->srv.reports == 5 ||
                           (o->count && a->recvs_done == o->count))) {
        a->test_ended = 1;
        a->dests_at_test_end = a->srv.dests_ready;
    }
}

/* The server has seen the whole exchange: the test's end, then the closing
 * pingpong_dest. */
static int server_exchange_done(const struct pt_app *a)
{
    return a->test_ended && a->srv.dests_ready > a->dests_at_test_end;
}

static void comm_answer(struct peer *p, struct pt_app *a, uint64_t slot,
                        uint32_t len)
{
    struct ibe_engine *e = peer_engine(p);
    const uint8_t *msg = ibe_mem_ptr(e, a->comm_rx + slot * PT_MAX_MSG, len);
    uint64_t tx = a->comm_tx + (a->tx_slot++ % COMM_SLOTS) * PT_MAX_MSG;
    uint8_t *out = ibe_mem_ptr(e, tx, PT_MAX_MSG);
    char err[160];
    int n = pt_reply(&a->srv, msg, len, out, PT_MAX_MSG, err, sizeof err);
    if (n < 0) {
        peer_fail(p, err);
        return;
    }
    post_recv(p, a->comm_qpn, WR_COMM_RECV + slot,
              a->comm_rx + slot * PT_MAX_MSG, PT_MAX_MSG, a->lkey);
    comm_send(p, a, tx, (uint32_t)n);
    a->last_msg_at = peer_now(p) | 1u;
    server_note_test_end(a, peer_options(p));
}

static void client_dest(struct peer *p, struct pt_app *a, struct pt_dest *d)
{
    const struct peer_opts *o = peer_options(p);
    own_dest(a, o, o->perftest_verb == PT_READ ? 16 : 1, d);
}

/* the client's message of the current step */
static void client_send_step(struct peer *p, struct pt_app *a)
{
    struct ibe_engine *e = peer_engine(p);
    unsigned st = a->steps[a->step];
    uint64_t tx = a->comm_tx + (a->tx_slot++ % COMM_SLOTS) * PT_MAX_MSG;
    uint8_t *b = ibe_mem_ptr(e, tx, PT_MAX_MSG);
    uint32_t len;
    memset(b, 0, PT_MAX_MSG);
    switch (st) {
    case PT_VERSION_LEN: memcpy(b, "6.06", 4); len = PT_VERSION_LEN; break;
    case PT_INT_LEN:
        ibw_store_be32(b, a->step == 1 ? 4096u : 64u);
        len = PT_INT_LEN;
        break;
    case PT_MTU_LEN: b[0] = '3'; len = PT_MTU_LEN; break;
    case ST_ZERO_DEST: len = PT_DEST_LEN; break;
    case PT_DEST_LEN: {
        struct pt_dest d;
        client_dest(p, a, &d);
        pt_dest_encode(b, &d);
        len = PT_DEST_LEN;
        break;
    }
    default: { /* ST_REPORT: size, iterations, then rates it has not */
        const struct peer_opts *o = peer_options(p);
        if (a->reports_sent == 0)
            ibw_store_be64(b, o->size);
        else if (a->reports_sent == 1)
            ibw_store_be64(b, o->count);
        a->reports_sent++;
        len = PT_REPORT_LEN;
        break;
    }
    }
    a->waiting = 1;
    comm_send(p, a, tx, len);
}

static void client_post_ops(struct peer *p, struct pt_app *a)
{
    const struct peer_opts *o = peer_options(p);
    static const uint8_t op[] = {IBE_WR_RDMA_WRITE, IBE_WR_RDMA_READ, IBE_WR_SEND};
    while (a->ops_posted < o->count && a->ops_posted - a->ops_done < CLIENT_DEPTH) {
        struct ibe_send_wr w;
        memset(&w, 0, sizeof w);
        w.wr_id = WR_WORK_OP;
        w.opcode = op[o->perftest_verb];
        w.flags = IBE_SEND_SIGNALED;
        w.num_sge = 1;
        /* READs land in the region's second half: the first keeps the
         * bytes a WRITE or SEND carries */
        w.sg[0].addr = a->region + (o->perftest_verb == PT_READ ? o->size : 0);
        w.sg[0].length = o->size;
        w.sg[0].lkey = a->lkey;
        w.remote_addr = a->server.vaddr;
        w.rkey = a->server.rkey;
        if (ibe_post_send(peer_engine(p), a->work_qpn, &w)) {
            peer_fail(p, "perftest: cannot post a request on the test QP");
            return;
        }
        a->ops_posted++;
    }
}

/* Move the client on as far as it can go without waiting. */
static void client_advance(struct peer *p, struct pt_app *a)
{
    while (!a->waiting && a->step < a->nsteps) {
        unsigned st = a->steps[a->step];
        if (st == ST_CONNECT_TEST) {
            if (a->work_conn < 0) {
                if (peer_now(p) < a->retry_at)
                    return;
                if (a->work_retries)
                    ibe_qp_set_state(peer_engine(p), a->work_qpn, IBE_QPS_RESET);
                a->work_psn = (uint32_t)(peer_now(p) * 2654435761u) & 0xFFFFFFu;
                int c = peer_connect(p, a->work_qpn, a->work_psn);
                if (c == -1)
                    peer_fail(p, "perftest: the CM cannot start the test connection");
                if (c < 0)
                    return;
                a->work_conn = c;
            }
            if (!a->work_up)
                return;
            a->step++;
        } else if (st == ST_TEST) {
            /* a send server's R_Key is 0 in perftest's own */
            if (!a->server.qpn ||
                (!a->server.rkey && peer_options(p)->perftest_verb != PT_SEND)) {
                peer_fail(p, "perftest: the server's pingpong_dest names no QP "
                          "or R_Key before the test");
                return;
            }
            client_post_ops(p, a);
            if (a->ops_done < peer_options(p)->count)
                return;
            a->step++;
        } else if (st == ST_DISCONNECT) {
            /* --await-dreq: the server's DREQs end it (perftest 25.01) */
            if (!peer_options(p)->await_dreq) {
                peer_disconnect(p, (uint32_t)a->work_conn);
                peer_disconnect(p, (uint32_t)a->comm_conn);
                a->first_down_at = peer_now(p) | 1u;
            }
            a->step++;
        } else if (st == ST_DONE) {
            return;
        } else {
            client_send_step(p, a);
        }
    }
}

/* the server's answer to the client's message of the current step */
static void client_answer(struct peer *p, struct pt_app *a, uint64_t slot,
                          uint32_t len)
{
    struct ibe_engine *e = peer_engine(p);
    unsigned st = a->steps[a->step];
    unsigned want = st == ST_ZERO_DEST ? PT_DEST_LEN
                    : st == ST_REPORT  ? PT_REPORT_LEN : st;
    char m[160];
    if (!a->waiting || len != want) {
        snprintf(m, sizeof m, "perftest: step %u: the server sent %u bytes, "
                 "%u expected", a->step + 1, len, a->waiting ? want : 0);
        peer_fail(p, m);
        return;
    }
    const uint8_t *b = ibe_mem_ptr(e, a->comm_rx + slot * PT_MAX_MSG, len);
    if (st == PT_DEST_LEN || st == ST_ZERO_DEST)
        pt_dest_decode(b, &a->server);
    else if (st == PT_VERSION_LEN)
        memcpy(a->srv.version, b, PT_VERSION_LEN);
    a->srv.msgs++;
    post_recv(p, a->comm_qpn, WR_COMM_RECV + slot,
              a->comm_rx + slot * PT_MAX_MSG, PT_MAX_MSG, a->lkey);
    a->waiting = 0;
    a->step++;
}

static void client_op_done(struct peer *p, struct pt_app *a)
{
    const struct peer_opts *o = peer_options(p);
    a->ops_done++;
    if (o->perftest_verb == PT_READ && o->validate) {
        const uint8_t *b = ibe_mem_ptr(peer_engine(p), a->region + o->size, o->size);
        for (uint32_t i = 0; i < o->size; i++)
            if (b[i] != pt_region_byte(i)) {
                char m[160];
                snprintf(m, sizeof m, "perftest: READ %u: byte %u is 0x%02x, the "
                         "engine server's region holds 0x%02x", a->ops_done, i,
                         b[i], pt_region_byte(i));
                peer_fail(p, m);
                return;
            }
        a->verified += o->size;
    }
}

/* This side's DREQ on each connection still up, the test QP's first (as
 * perftest's own server disconnects). */
static void end_connections(struct peer *p, struct pt_app *a, int comm_gone,
                            int work_gone, uint64_t now)
{
    if (!work_gone)
        peer_disconnect(p, (uint32_t)a->work_conn);
    if (!comm_gone)
        peer_disconnect(p, (uint32_t)a->comm_conn);
    a->dreq_sent = 1;
    a->first_down_at = now | 1u;
}

static int pt_tick(struct peer *p, void *st, uint64_t now)
{
    struct pt_app *a = st;
    const struct peer_opts *o = peer_options(p);
    struct ibe_wc wc;
    char m[160];
    while (ibe_poll_cq(peer_engine(p), a->cq, &wc, 1) == 1) {
        int on_work = wc.qpn == a->work_qpn;
        if (wc.status != IBE_WC_SUCCESS) {
            /* receives still posted when a connection goes down flush,
             * from this side's own DREQ on */
            if (wc.status == IBE_WC_WR_FLUSH_ERR &&
                (a->first_down_at || (on_work ? a->work_down : a->comm_down)))
                continue;
            if (wc.wr_id == WR_WORK_RECV && wc.status == IBE_WC_LOC_LEN_ERR)
                snprintf(m, sizeof m, "perftest: a SEND longer than the "
                         "receives of -S %u bytes (the client's -s is larger)",
                         o->size);
            else
                snprintf(m, sizeof m, "perftest: a work request on the %s QP "
                         "(wr_id %llu) completed with status 0x%02x",
                         on_work ? "test" : "comm", (unsigned long long)wc.wr_id,
                         wc.status);
            peer_fail(p, m);
            return 1;
        }
        if (wc.wr_id >= WR_COMM_RECV && wc.wr_id < WR_COMM_RECV + COMM_SLOTS) {
            if (is_client(p))
                client_answer(p, a, wc.wr_id - WR_COMM_RECV, wc.byte_len);
            else
                comm_answer(p, a, wc.wr_id - WR_COMM_RECV, wc.byte_len);
        } else if (wc.wr_id == WR_WORK_OP) {
            client_op_done(p, a);
        } else if (wc.wr_id == WR_WORK_RECV) {
            a->recvs_done++;
            a->bytes_rx += wc.byte_len;
            server_note_test_end(a, o);
            if (!o->count || a->recvs_posted < o->count) {
                post_recv(p, a->work_qpn, WR_WORK_RECV, a->region, a->recv_len,
                          a->lkey);
                a->recvs_posted++;
            }
        }
    }
    if (is_client(p)) {
        if (a->comm_conn < 0) {
            int c = peer_connect(p, a->comm_qpn, (uint32_t)(now * 40503u));
            if (c == -1)
                peer_fail(p, "perftest: the CM cannot start the comm connection");
            if (c < 0)
                return c == -1;
            a->comm_conn = c;
        }
        if (a->comm_up)
            client_advance(p, a);
        if (a->first_down_at && a->step < a->nsteps - 1) {
            snprintf(m, sizeof m, "perftest: a connection was torn down at "
                     "step %u of %u", a->step + 1, a->nsteps);
            peer_fail(p, m);
            return 1;
        }
    }
    int comm_gone = a->comm_down || a->comm_conn < 0;
    int work_gone = a->work_down || a->work_conn < 0;
    /* Who disconnects first depends on perftest's version: 4.5's client
     * sends its DREQs right after the closing handshake, 25.01's waits for
     * the server's (rdma_cm_disconnect_nodes() calls rdma_disconnect() on
     * the server only, then both wait for DISCONNECTED).  A server whose
     * client has gone quiet after a complete exchange ends both
     * connections itself, the test QP's first as perftest's server does. */
    if (!is_client(p) && !a->first_down_at && a->last_msg_at &&
        now > a->last_msg_at + LINGER_NS && server_exchange_done(a)) {
        end_connections(p, a, comm_gone, work_gone, now);
    }
    /* perftest's client tears down both connections (DREQ each); should
     * it leave one up, this side ends it, and gives up after as long again */
    if (a->first_down_at && !(comm_gone && work_gone) &&
        now > a->first_down_at + LINGER_NS) {
        if (a->dreq_sent) {
            peer_fail(p, "perftest: a connection is still up after this side's DREQ");
            return 1;
        }
        end_connections(p, a, comm_gone, work_gone, now);
    }
    if (!(a->first_down_at && comm_gone && work_gone))
        return 0;
    /* the verdict: the client went through the steps after its test */
    if (is_client(p)) {
        if (a->step < a->nsteps - 1) {
            snprintf(m, sizeof m, "perftest: torn down at step %u of %u",
                     a->step + 1, a->nsteps);
            peer_fail(p, m);
        }
        return 1;
    }
    if (a->srv.dests_ready < 4) {
        snprintf(m, sizeof m, "perftest: the client left after %u of its "
                 "pingpong_dest handshakes with the test QP set up (at least 4: "
                 "three before the test, one to close)", a->srv.dests_ready);
        peer_fail(p, m);
    } else if (a->recvs_done && o->count && a->recvs_done != o->count) {
        snprintf(m, sizeof m, "perftest: %u SENDs received on the test QP, "
                 "-C %u expected", a->recvs_done, o->count);
        peer_fail(p, m);
    } else if (!a->recvs_done && a->srv.reports != 5) {
        snprintf(m, sizeof m, "perftest: the client left without its BW report "
                 "(%u of 5 values) and sent no SEND on the test QP",
                 a->srv.reports);
        peer_fail(p, m);
    } else if (!a->recvs_done && o->count && a->srv.report[1] != o->count) {
        snprintf(m, sizeof m, "perftest: the client reports %llu iterations, "
                 "-C %u expected", (unsigned long long)a->srv.report[1], o->count);
        peer_fail(p, m);
    }
    return 1;
}

static void pt_summary(struct peer *p, void *st, FILE *log)
{
    struct pt_app *a = st;
    const struct ibe_stats *s = ibe_engine_stats(peer_engine(p));
    const struct peer_opts *o = peer_options(p);
    fprintf(log, "peer: perftest %s: %u comm messages %s, ", a->srv.version,
            a->srv.msgs, is_client(p) ? "exchanged" : "answered");
    if (is_client(p))
        fprintf(log, "%u %s of %u bytes (%llu bytes verified)", a->ops_done,
                o->perftest_verb == PT_WRITE ? "WRITEs"
                : o->perftest_verb == PT_READ ? "READs" : "SENDs",
                o->size, (unsigned long long)a->verified);
    else if (a->recvs_done)
        fprintf(log, "%u SENDs received (%llu bytes)", a->recvs_done,
                (unsigned long long)a->bytes_rx);
    else
        fprintf(log, "the client's report: %llu x %llu bytes",
                (unsigned long long)a->srv.report[1],
                (unsigned long long)a->srv.report[0]);
    fprintf(log, ", both connections torn down (%llu frames in, %llu out, "
            "%llu resent, %llu duplicate requests)\n",
            (unsigned long long)s->pkts_rx, (unsigned long long)s->pkts_tx,
            (unsigned long long)s->retransmissions,
            (unsigned long long)s->dup_requests);
}

/* --loss spares the comm QP: perftest posts the receive of its exchange
 * into the buffer of the SEND it has just made (post_one_recv_wqe() and
 * rdma_write_data() both use buf[0]), so a lost ACK of that SEND lets the
 * engine's answer overwrite what perftest's HCA then resends - a resend
 * with other bytes, perftest's doing (README.md).  Loss on the test QP is
 * what the run is about. */
static int pt_lossless(struct peer *p, void *st, uint32_t remote_qpn)
{
    struct pt_app *a = st;
    (void)p;
    return a->comm_remote_qpn && remote_qpn == a->comm_remote_qpn;
}

const struct peer_app_ops peer_app_perftest = {
    "perftest", sizeof(struct pt_app), pt_setup, pt_on_req, pt_qp_init,
    pt_on_event, pt_tick, pt_summary, pt_lossless,
};
#endif
