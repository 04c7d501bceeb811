/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Module latencies in virtual time (timing.c).  One RC message over a
 * perfect link, run untimed and then with latencies set; the expected
 * times are the untimed run's plus what the latencies add along the path,
 * counted by hand from the engine's design:
 * - a stepping module's latency delays everything downstream of it once
 *   (ReqPktGen on the requester: the request and hence the ACK; the
 *   ExecutionEngine on the responder: only the ACK);
 * - a serving module's latency delays its asker once per request: before
 *   a Send leaves, the WQEParser fetches the WQE (one DMA read) and
 *   DataPack gathers its one entry (one DMA read);
 * - a module takes one message at a time: the packets of a four-packet
 *   Send leave ReqPktGen one latency apart, however fast the link;
 * - latencies on the other engine, or on modules the Send never passes,
 *   change nothing.
 * And where timing must not matter: WQEs the requester refuses (a bad
 * L_Key, an opcode UD lacks... here a bad L_Key) and a Write the responder
 * refuses (bad R_Key) between good ones complete, on both sides, with the
 * statuses and in the order of the untimed engine.
 */
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "ibwire/opcode.h"
#include "pair_world.h"
#include "testutil.h"

#define MEM (1u << 20)
#define LINK_NS 1000u

struct times {
    uint64_t pkt[8]; /* tap times of the requests */
    unsigned npkt;
    uint64_t ack;    /* ... of the last ACK */
    uint64_t cqe;    /* when the requester's completion could be polled */
};

/* RoCEv2 over IPv4: the BTH opcode follows 14 + 20 + 8 header bytes. */
#define BTH_OPCODE_AT 42u

static void on_tap(void *ctx, uint64_t t, const uint8_t *pkt, size_t len)
{
    struct times *x = ctx;
    TU_CHECK(len > BTH_OPCODE_AT);
    if (pkt[BTH_OPCODE_AT] == IBW_OP_RC_ACKNOWLEDGE) {
        x->ack = t;
        return;
    }
    if (x->npkt < 8)
        x->pkt[x->npkt++] = t;
}

/* Two engines with RC QPs connected over a perfect link (pair_world.h),
 * engine i with the latency list lat[i] (NULL: none), untraced. */
static struct run_digest set_up; /* what building the pair records */
static struct run_digest *unrecorded = &set_up;

static void pair_open(struct pair_world *p, uint64_t seed, const char *lat0,
                      const char *lat1)
{
    const struct pair_shape shape = {seed, MEM, 65536, 64, 64, 16, 100,
                                     {0, 0, 0, 0, 0, LINK_NS, 100}};
    pair_build(p, &shape, &unrecorded);
    for (int i = 0; i < 2; i++) {
        ibe_engine_set_trace(p->e[i], NULL, NULL);
        const char *lat = i ? lat1 : lat0;
        if (lat)
            TU_EQ(ibe_engine_apply_latency(p->e[i], lat, NULL), 0);
    }
    ibe_link_set_tap(p->l, NULL, NULL);
}

static void post_send(struct pair_world *p, uint64_t wr_id, uint8_t opcode,
                      uint64_t from, uint32_t len, uint32_t lkey, uint32_t rkey)
{
    struct ibe_send_wr s;
    memset(&s, 0, sizeof s);
    s.wr_id = wr_id;
    s.opcode = opcode;
    s.flags = IBE_SEND_SIGNALED;
    s.num_sge = 1;
    s.sg[0] = (struct ibe_sge){from, len, lkey};
    s.remote_addr = p->buf[1] + 40000;
    s.rkey = rkey;
    TU_EQ(ibe_post_send(p->e[0], p->qpn[0], &s), 0);
}

/* A Send of `len` bytes (PMTU 1024) from engine 0 to engine 1. */
static struct times run(uint32_t len, const char *lat0, const char *lat1)
{
    struct times x;
    memset(&x, 0, sizeof x);
    struct pair_world p;
    pair_open(&p, 7, lat0, lat1);
    ibe_link_set_tap(p.l, on_tap, &x);
    struct ibe_recv_wr r = {1, 1, {{p.buf[1], 65536, p.lkey[1]}}};
    TU_EQ(ibe_post_recv(p.e[1], p.qpn[1], &r), 0);
    post_send(&p, 9, IBE_WR_SEND, p.buf[0], len, p.lkey[0], 0);
    struct ibe_wc wc;
    while (ibe_world_step(p.w))
        if (!x.cqe && ibe_poll_cq(p.e[0], p.cq[0], &wc, 1) == 1) {
            TU_EQ(wc.status, IBE_WC_SUCCESS);
            TU_EQ(wc.wr_id, 9);
            x.cqe = ibe_now(p.w);
        }
    TU_CHECK(x.cqe != 0);
    pair_destroy(&p);
    return x;
}

/* Completions (wr_id, status, byte_len) of both sides, in order. */
struct outcome {
    uint64_t wc[2][16][3];
    int n[2];
};

/* Send, Write, Send, Send, Write; with bad_local WQE 2 has a bad L_Key
 * (the requester refuses it), else only the Write of WQE 4 is refused, by
 * the responder (bad R_Key). */
static struct outcome run_errors(const char *lat, int bad_local)
{
    struct outcome o;
    memset(&o, 0, sizeof o);
    struct pair_world p;
    pair_open(&p, 3, lat, lat);
    for (uint64_t k = 0; k < 4; k++) {
        struct ibe_recv_wr r = {100 + k, 1, {{p.buf[1] + k * 8192, 8192, p.lkey[1]}}};
        TU_EQ(ibe_post_recv(p.e[1], p.qpn[1], &r), 0);
    }
    for (uint64_t k = 0; k < 5; k++)
        post_send(&p, k, k == 1 || k == 4 ? IBE_WR_RDMA_WRITE : IBE_WR_SEND,
                  p.buf[0] + k * 4096, 3000,
                  k == 2 && bad_local ? 0xBAD : p.lkey[0],
                  k == 4 ? 0xBAD : p.rkey[1]);
    ibe_world_run(p.w, 1000000);
    for (int i = 0; i < 2; i++) {
        struct ibe_wc wc;
        while (o.n[i] < 16 && ibe_poll_cq(p.e[i], p.cq[i], &wc, 1) == 1) {
            o.wc[i][o.n[i]][0] = wc.wr_id;
            o.wc[i][o.n[i]][1] = wc.status;
            o.wc[i][o.n[i]][2] = wc.byte_len;
            o.n[i]++;
        }
    }
    pair_destroy(&p);
    return o;
}

static void shifted(const struct times *base, const struct times *t,
                    uint64_t req, uint64_t ack, const char *what)
{
    printf("%-44s request %+lld ns, ACK %+lld ns, completion %+lld ns\n", what,
           (long long)(t->pkt[0] - base->pkt[0]), (long long)(t->ack - base->ack),
           (long long)(t->cqe - base->cqe));
    TU_EQ(t->npkt, base->npkt);
    for (unsigned i = 0; i < base->npkt; i++)
        TU_EQ(t->pkt[i], base->pkt[i] + req);
    TU_EQ(t->ack, base->ack + ack);
    TU_EQ(t->cqe, base->cqe + ack);
}

int main(void)
{
    struct times base = run(256, NULL, NULL);
    TU_EQ(base.npkt, 1u); /* SEND ONLY */
    TU_CHECK(base.ack >= base.pkt[0] + LINK_NS);

    struct times t = run(256, "ReqPktGen=1000", NULL);
    shifted(&base, &t, 1000, 1000, "requester ReqPktGen 1000 ns");
    t = run(256, "ReqPktGen=1000", "ExecutionEngine=500");
    shifted(&base, &t, 1000, 1500, "... and responder ExecutionEngine 500 ns");
    t = run(256, "DMAEngine=100", NULL);
    shifted(&base, &t, 200, 200, "requester DMAEngine 100 ns (two reads)");
    /* the responder's packet generator is not on the request's way: only
     * the ACK moves */
    t = run(256, NULL, "RespPktGen=40");
    shifted(&base, &t, 0, 40, "responder RespPktGen 40 ns");
    /* latencies of modules the Send does not pass (reads, atomics) */
    t = run(256, "ScatterEntryManager=5000,WriteAddrTable=5000", NULL);
    shifted(&base, &t, 0, 0, "modules off the path");

    /* one message at a time: four packets one ReqPktGen latency apart */
    struct times b4 = run(4096, NULL, NULL);
    TU_EQ(b4.npkt, 4u);
    for (unsigned i = 0; i + 1 < b4.npkt; i++)
        TU_CHECK(b4.pkt[i + 1] - b4.pkt[i] < 1000);
    struct times t4 = run(4096, "ReqPktGen=1000", NULL);
    TU_EQ(t4.npkt, 4u);
    TU_EQ(t4.pkt[0], b4.pkt[0] + 1000);
    for (unsigned i = 0; i + 1 < t4.npkt; i++)
        TU_EQ(t4.pkt[i + 1] - t4.pkt[i], 1000);
    printf("four packets with ReqPktGen 1000 ns: %llu, %llu, %llu ns apart\n",
           (unsigned long long)(t4.pkt[1] - t4.pkt[0]),
           (unsigned long long)(t4.pkt[2] - t4.pkt[1]),
           (unsigned long long)(t4.pkt[3] - t4.pkt[2]));

    /* refused WQEs: as the untimed engine completes them */
    struct outcome ref = run_errors(NULL, 1), rref = run_errors(NULL, 0);
    TU_EQ(ref.n[0], 5); /* every send WQE completes */
    TU_EQ(ref.wc[0][0][1], IBE_WC_SUCCESS);
    TU_EQ(ref.wc[0][2][0], 2);
    TU_EQ(ref.wc[0][2][1], IBE_WC_LOC_PROT_ERR);
    TU_EQ(ref.wc[0][3][1], IBE_WC_WR_FLUSH_ERR); /* the QP is in error now */
    TU_EQ(rref.n[0], 5);
    TU_EQ(rref.wc[0][3][1], IBE_WC_SUCCESS);
    TU_EQ(rref.wc[0][4][1], IBE_WC_REM_ACCESS_ERR);
    static const char *const lats[] = {
        "documents", "RequesterRecvControl=700,WQEParser=300",
        "ReqPktGen=1000,RequesterTransControl=50,ExecutionEngine=400",
        "DataPack=2000,DMAEngine=100,TimerControl=3000"};
    for (size_t i = 0; i < sizeof lats / sizeof lats[0]; i++) {
        struct outcome o = run_errors(lats[i], 1), r = run_errors(lats[i], 0);
        printf("refused WQEs, latencies %s: %d and %d completions, "
               "%d and %d with the remote refusal\n", lats[i], o.n[0], o.n[1],
               r.n[0], r.n[1]);
        TU_EQ(o.n[0], ref.n[0]);
        TU_EQ(o.n[1], ref.n[1]);
        TU_MEMEQ(o.wc, ref.wc, sizeof o.wc);
        TU_EQ(r.n[0], rref.n[0]);
        TU_EQ(r.n[1], rref.n[1]);
        TU_MEMEQ(r.wc, rref.wc, sizeof r.wc);
    }

    /* the latency list: names, numbers, profiles */
    struct ibe_world *w = ibe_world_create(1);
    struct ibe_config c = {MEM, IBE_FRAME_ROCEV2, 0, 0x0A000001u, {2, 0, 0, 0, 0, 1}};
    struct ibe_engine *e = ibe_engine_create(w, &c);
    const char *bad = NULL;
    TU_EQ(ibe_engine_apply_latency(e, "documents,DMAEngine=250", &bad), 0);
    TU_EQ(ibe_engine_latency(e, "DMAEngine"), 250);
    TU_EQ(ibe_engine_latency(e, "TimerControl"), 6);  /* 3 cycles at 500 MHz */
    TU_EQ(ibe_engine_latency(e, "MultiQueue"), 12);   /* 6 cycles */
    TU_EQ(ibe_engine_latency(e, "HeaderParser"), 2);  /* the default cycle */
    TU_EQ(ibe_engine_latency(e, "Nonesuch"), -1);
    TU_EQ(ibe_engine_apply_latency(e, "ReqPktGen=5,Bogus=1", &bad), -1);
    TU_CHECK(bad && !strcmp(bad, "Bogus=1"));
    TU_EQ(ibe_engine_apply_latency(e, "ReqPktGen=", &bad), -1);
    TU_EQ(ibe_engine_apply_latency(e, "ReqPktGen=12x", &bad), -1);
    TU_EQ(ibe_engine_apply_latency(e, "Host=5", &bad), -1);
    TU_EQ(ibe_engine_apply_latency(NULL, "none,RespPktGen=3", &bad), 0);
    TU_EQ(ibe_engine_apply_latency(e, "none", &bad), 0);
    TU_EQ(ibe_engine_latency(e, "DMAEngine"), 0);
    ibe_engine_destroy(e);
    ibe_world_destroy(w);
    return tu_done("engine_latency");
}
