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
 * the client has torn down both connections (DREQ; the engine answers with
 * a DREP); it has succeeded when the client went through the handshakes
 * after its test - the BW report (write, read) or the -C SENDs (send).
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

enum { WR_COMM_RECV = 1, WR_COMM_SEND = 100, WR_WORK_RECV = 200 };

struct pt_app {
    uint32_t cq, lkey, rkey;
    uint64_t comm_rx, comm_tx, region;
    uint32_t region_len, recv_len;
    uint32_t comm_qpn, work_qpn, work_psn;
    int comm_conn, work_conn;
    int comm_up, work_up, comm_down, work_down;
    uint64_t first_down_at;
    int dreq_sent;
    unsigned tx_slot;
    uint32_t recvs_posted, recvs_done;
    uint64_t bytes_rx;
    struct pt_server srv;
};

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
        r[i] = (uint8_t)(i * 7u + 3u);
    a->cq = ibe_cq_create(e, 2048);
    a->comm_qpn = make_qp(e, a->cq, 8);
    a->work_qpn = make_qp(e, a->cq, WORK_RQ);
    /* the engine's page and a common cache line, as perftest's own server
     * on x86 announces them */
    pt_server_init(&a->srv, 4096, 64);
    return a->cq && a->comm_qpn && a->work_qpn ? 0 : -1;
}

static int pt_on_req(struct peer *p, void *st, uint32_t conn,
                     struct cmx_accept *acc)
{
    struct pt_app *a = st;
    (void)p;
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
    uint32_t n = o->count && o->count < WORK_RQ ? o->count : WORK_RQ;
    for (uint32_t i = 0; i < n; i++)
        post_recv(p, qpn, WR_WORK_RECV, a->region, a->recv_len, a->lkey);
    a->recvs_posted = n;
}

static void pt_on_event(struct peer *p, void *st, const struct cmx_event *ev)
{
    struct pt_app *a = st;
    const struct peer_opts *o = peer_options(p);
    int work = a->work_conn >= 0 && ev->conn == (uint32_t)a->work_conn;
    char m[160];
    switch (ev->type) {
    case CMX_EV_ESTABLISHED:
        if (work) {
            a->work_up = 1;
            struct pt_dest *d = &a->srv.dest;
            memset(d, 0, sizeof *d);
            d->out_reads = 16; /* the REP's responder resources */
            d->qpn = a->work_qpn;
            d->psn = a->work_psn;
            d->rkey = a->rkey;
            d->vaddr = a->region;
            d->gid[10] = d->gid[11] = 0xFF;
            ibw_store_be32(d->gid + 12, o->ip);
            d->gid_index = 1;
            a->srv.ready = 1;
        } else {
            a->comm_up = 1;
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
        snprintf(m, sizeof m, "perftest: the CM gave up on the %s connection "
                 "(event %u, reason %u)", work ? "test" : "comm", ev->type,
                 ev->reason);
        peer_fail(p, m);
        break;
    default:
        break;
    }
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
    struct ibe_send_wr w;
    memset(&w, 0, sizeof w);
    w.wr_id = WR_COMM_SEND;
    w.opcode = IBE_WR_SEND;
    w.flags = IBE_SEND_SIGNALED;
    w.num_sge = 1;
    w.sg[0].addr = tx;
    w.sg[0].length = (uint32_t)n;
    w.sg[0].lkey = a->lkey;
    if (ibe_post_send(e, a->comm_qpn, &w))
        peer_fail(p, "perftest: cannot post a SEND on the comm QP");
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
            /* receives still posted when a connection goes down flush */
            if (wc.status == IBE_WC_WR_FLUSH_ERR &&
                (on_work ? a->work_down : a->comm_down))
                continue;
            snprintf(m, sizeof m, "perftest: a work request on the %s QP "
                     "(wr_id %llu) completed with status 0x%02x",
                     on_work ? "test" : "comm", (unsigned long long)wc.wr_id,
                     wc.status);
            peer_fail(p, m);
            return 1;
        }
        if (wc.wr_id >= WR_COMM_RECV && wc.wr_id < WR_COMM_RECV + COMM_SLOTS) {
            comm_answer(p, a, wc.wr_id - WR_COMM_RECV, wc.byte_len);
        } else if (wc.wr_id == WR_WORK_RECV) {
            a->recvs_done++;
            a->bytes_rx += wc.byte_len;
            if (!o->count || a->recvs_posted < o->count) {
                post_recv(p, a->work_qpn, WR_WORK_RECV, a->region, a->recv_len,
                          a->lkey);
                a->recvs_posted++;
            }
        }
    }
    int comm_gone = a->comm_down || a->comm_conn < 0;
    int work_gone = a->work_down || a->work_conn < 0;
    /* perftest's client tears down both connections (DREQ each); should
     * it leave one up, this side ends it, and gives up after as long again */
    if (a->first_down_at && !(comm_gone && work_gone) &&
        now - a->first_down_at > LINGER_NS) {
        if (a->dreq_sent) {
            peer_fail(p, "perftest: a connection is still up after this side's DREQ");
            return 1;
        }
        if (!comm_gone)
            peer_disconnect(p, (uint32_t)a->comm_conn);
        if (!work_gone)
            peer_disconnect(p, (uint32_t)a->work_conn);
        a->dreq_sent = 1;
        a->first_down_at = now | 1u;
    }
    if (!(a->first_down_at && comm_gone && work_gone))
        return 0;
    /* the verdict: the client went through the steps after its test */
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
    fprintf(log, "peer: perftest %s: %u comm messages answered, ", a->srv.version,
            a->srv.msgs);
    if (a->recvs_done)
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

const struct peer_app_ops peer_app_perftest = {
    "perftest", sizeof(struct pt_app), pt_setup, pt_on_req, pt_qp_init,
    pt_on_event, pt_tick, pt_summary,
};
#endif
