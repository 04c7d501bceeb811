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
 */
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "ibwire/opcode.h"
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

/* A Send of `len` bytes (PMTU 1024) from engine 0 to engine 1, with the
 * latency lists lat0 / lat1 (NULL: none). */
static struct times run(uint32_t len, const char *lat0, const char *lat1)
{
    struct times x;
    memset(&x, 0, sizeof x);
    struct ibe_world *w = ibe_world_create(7);
    struct ibe_engine *e[2];
    uint32_t qpn[2], cq[2], lkey[2], rkey[2];
    uint64_t buf[2];
    for (int i = 0; i < 2; i++) {
        struct ibe_config c = {MEM, IBE_FRAME_ROCEV2, 0, 0x0A000001u + (uint32_t)i,
                               {2, 0, 0, 0, 0, (uint8_t)(1 + i)}};
        e[i] = ibe_engine_create(w, &c);
        TU_CHECK(e[i] != NULL);
        const char *lat = i ? lat1 : lat0;
        const char *bad = NULL;
        if (lat)
            TU_EQ(ibe_engine_apply_latency(e[i], lat, &bad), 0);
        buf[i] = ibe_mem_alloc(e[i], 65536, 64);
        TU_EQ(ibe_mr_reg(e[i], 1, buf[i], 65536, 0xF, &lkey[i], &rkey[i]), 0);
        cq[i] = ibe_cq_create(e[i], 64);
        struct ibe_qp_attr a = {IBE_RC, 1, cq[i], cq[i], 16, 16, 0, 0xFFFF};
        qpn[i] = ibe_qp_create(e[i], &a);
    }
    struct ibe_link_params lp = {0, 0, 0, 0, 0, LINK_NS, 100};
    struct ibe_link *l = ibe_link_create(w, e[0], e[1], &lp);
    ibe_link_set_tap(l, on_tap, &x);
    for (int i = 0; i < 2; i++) {
        struct ibe_qp_conn c = {qpn[1 - i], 100, 100, 1024, 7, 7, 8, 1, 0};
        TU_EQ(ibe_qp_connect(e[i], qpn[i], &c), 0);
    }
    struct ibe_recv_wr r = {1, 1, {{buf[1], 65536, lkey[1]}}};
    TU_EQ(ibe_post_recv(e[1], qpn[1], &r), 0);
    struct ibe_send_wr s;
    memset(&s, 0, sizeof s);
    s.wr_id = 9;
    s.opcode = IBE_WR_SEND;
    s.flags = IBE_SEND_SIGNALED;
    s.num_sge = 1;
    s.sg[0] = (struct ibe_sge){buf[0], len, lkey[0]};
    TU_EQ(ibe_post_send(e[0], qpn[0], &s), 0);
    struct ibe_wc wc;
    while (ibe_world_step(w))
        if (!x.cqe && ibe_poll_cq(e[0], cq[0], &wc, 1) == 1) {
            TU_EQ(wc.status, IBE_WC_SUCCESS);
            TU_EQ(wc.wr_id, 9);
            x.cqe = ibe_now(w);
        }
    TU_CHECK(x.cqe != 0);
    ibe_link_destroy(l);
    ibe_engine_destroy(e[0]);
    ibe_engine_destroy(e[1]);
    ibe_world_destroy(w);
    return x;
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
