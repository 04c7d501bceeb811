/* SPDX-License-Identifier: Apache-2.0 */
/*
 * harness.h - two reference engines with the wire in the test's hands:
 * every packet an engine sends is parked in a queue, decoded with
 * ibw_parse(), and reaches the peer only when the test delivers it.  The
 * tests assert opcodes, PSNs and AETHs against the sequences the HanGu RDMA
 * engine design prescribes.
 */
#ifndef ENGINE_HARNESS_H
#define ENGINE_HARNESS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "ibwire/packet.h"
#include "testutil.h"

#define H_MAXQ 4096
#define PMTU 256

struct h_pkt {
    int from;               /* 0 = A (requester side), 1 = B */
    size_t len;
    uint8_t b[4200];
    /* decoded, independently of the engine, with the library */
    uint8_t opcode, ackreq, se, syndrome;
    uint32_t psn, destqp, msn, paylen;
    uint64_t va, orig;
    uint32_t dmalen;
    uint32_t ieth;          /* IETH R_Key (Send with Invalidate) */
};

struct harness {
    struct ibe_world *w;
    struct ibe_engine *e[2];
    uint32_t qp[2], cq[2];
    uint32_t lkey[2], rkey[2];
    uint64_t buf[2];        /* 64 KB registered buffer per side */
    struct h_pkt *q;        /* packets waiting on the wire */
    size_t nq;
};

static void h_decode(struct h_pkt *p)
{
    struct ibw_pkt v;
    int err = ibw_parse(p->b, p->len, IBW_LINK_ETHERNET, &v);
    if (err || v.icrc_status != IBW_CRC_GOOD) {
        p->opcode = 0xFF;
        return;
    }
    const uint8_t *bth = ibw_pkt_hdr(&v, IBW_HDR_BTH), *x;
    p->opcode = ibw_bth_get_opcode(bth);
    p->ackreq = ibw_bth_get_ackreq(bth);
    p->se = ibw_bth_get_se(bth);
    p->psn = ibw_bth_get_psn(bth);
    p->destqp = ibw_bth_get_destqp(bth);
    p->paylen = v.payload_len;
    if ((x = ibw_pkt_hdr(&v, IBW_HDR_AETH))) {
        p->syndrome = ibw_aeth_get_syndrome(x);
        p->msn = ibw_aeth_get_msn(x);
    }
    if ((x = ibw_pkt_hdr(&v, IBW_HDR_RETH))) {
        p->va = ibw_reth_get_va(x);
        p->dmalen = ibw_reth_get_dmalen(x);
    }
    if ((x = ibw_pkt_hdr(&v, IBW_HDR_IETH)))
        p->ieth = ibw_ieth_get_rkey(x);
    if ((x = ibw_pkt_hdr(&v, IBW_HDR_ATOMICACKETH)))
        p->orig = ibw_atomicacketh_get_origremdt(x);
}

static struct harness *h_cur;

static void h_tx(void *ctx, struct ibe_engine *from, const uint8_t *pkt, size_t len)
{
    struct harness *h = ctx;
    if (h->nq >= H_MAXQ || len > sizeof h->q[0].b)
        abort();
    struct h_pkt *p = &h->q[h->nq++];
    memset(p, 0, sizeof *p);
    p->from = from == h->e[0] ? 0 : 1;
    p->len = len;
    memcpy(p->b, pkt, len);
    h_decode(p);
}

/* Two engines, one QP each (type), connected: A sends PSNs from 100, B
 * from 5000.  retry/rnr_retry as given; PMTU 256. */
static void h_init(struct harness *h, uint8_t type, uint8_t retry, uint8_t rnr_retry)
{
    memset(h, 0, sizeof *h);
    h->q = calloc(H_MAXQ, sizeof *h->q);
    h->w = ibe_world_create(7);
    for (int i = 0; i < 2; i++) {
        struct ibe_config c = {8u << 20, IBE_FRAME_ROCEV2, (uint16_t)(1 - i),
                               0x0A000000u | (uint32_t)(1 - i), {2, 0, 10, 0, 0, (uint8_t)(1 - i)}};
        h->e[i] = ibe_engine_create(h->w, &c);
        ibe_engine_set_tx(h->e[i], h_tx, h);
        h->cq[i] = ibe_cq_create(h->e[i], 64);
        struct ibe_qp_attr a = {type, 1, h->cq[i], h->cq[i], 32, 16, 0x1234, 0};
        h->qp[i] = ibe_qp_create(h->e[i], &a);
        h->buf[i] = ibe_mem_alloc(h->e[i], 65536, 4096);
        ibe_mr_reg(h->e[i], 1, h->buf[i], 65536,
                   IBE_ACC_LOCAL_WRITE | IBE_ACC_REMOTE_WRITE | IBE_ACC_REMOTE_READ |
                       IBE_ACC_REMOTE_ATOMIC, &h->lkey[i], &h->rkey[i]);
    }
    for (int i = 0; i < 2; i++) {
        struct ibe_qp_conn c = {h->qp[1 - i], i ? 5000u : 100u, i ? 100u : 5000u, PMTU,
                                retry, rnr_retry, 8, 3, 16};
        ibe_qp_connect(h->e[i], h->qp[i], &c);
    }
    h_cur = h;
}

static void h_free(struct harness *h)
{
    for (int i = 0; i < 2; i++)
        ibe_engine_destroy(h->e[i]);
    ibe_world_destroy(h->w);
    free(h->q);
}

/* Run everything due now (scheduling, processing), not the timers. */
static void h_settle(struct harness *h)
{
    ibe_world_run_until(h->w, ibe_now(h->w));
}

/* Take the queued packets out (into out[], up to max); returns the count. */
static size_t h_take(struct harness *h, struct h_pkt *out, size_t max)
{
    size_t n = h->nq < max ? h->nq : max;
    memcpy(out, h->q, n * sizeof *out);
    memmove(h->q, h->q + n, (h->nq - n) * sizeof *h->q);
    h->nq -= n;
    return n;
}

static void h_deliver(struct harness *h, const struct h_pkt *p)
{
    ibe_engine_receive(h->e[1 - p->from], p->b, p->len);
    h_settle(h);
}

static void h_deliver_all(struct harness *h, const struct h_pkt *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h_deliver(h, &p[i]);
}

/* Post a one-SGE WR from A's buffer at off (len bytes). */
/* A send WR of one entry, len bytes at off in side's buffer, everything
 * else zero: the start every test's request is built from. */
static struct ibe_send_wr h_wr(const struct harness *h, int side, uint8_t op,
                               uint32_t off, uint32_t len, uint8_t flags)
{
    struct ibe_send_wr wr;
    memset(&wr, 0, sizeof wr);
    wr.opcode = op;
    wr.flags = flags;
    wr.num_sge = 1;
    wr.sg[0].addr = h->buf[side] + off;
    wr.sg[0].length = len;
    wr.sg[0].lkey = h->lkey[side];
    return wr;
}

static int h_post(struct harness *h, int side, uint8_t op, uint32_t off, uint32_t len,
                  uint64_t raddr_off, uint8_t flags)
{
    struct ibe_send_wr wr =
        h_wr(h, side, op, off, len, (uint8_t)(flags | IBE_SEND_SIGNALED));
    wr.wr_id = 0x1000u + off;
    wr.remote_addr = h->buf[1 - side] + raddr_off;
    wr.rkey = h->rkey[1 - side];
    wr.imm = 0xABCD0000u + off;
    return ibe_post_send(h->e[side], h->qp[side], &wr);
}

static int h_post_recv(struct harness *h, int side, uint32_t off, uint32_t len)
{
    struct ibe_recv_wr rw;
    memset(&rw, 0, sizeof rw);
    rw.wr_id = 0x2000u + off;
    rw.num_sge = 1;
    rw.sg[0].addr = h->buf[side] + off;
    rw.sg[0].length = len;
    rw.sg[0].lkey = h->lkey[side];
    return ibe_post_recv(h->e[side], h->qp[side], &rw);
}

static int h_poll(struct harness *h, int side, struct ibe_wc *wc, int n)
{
    return ibe_poll_cq(h->e[side], h->cq[side], wc, n);
}

/* A crafted packet from B's side (a response) or A's side (a request),
 * built with ibw_build(), independent of the engine's packet generator. */
static void h_inject_x(struct harness *h, int to, uint8_t opcode, uint32_t psn,
                       uint8_t syndrome, uint32_t msn, uint32_t imm,
                       const uint8_t *payload, size_t plen)
{
    struct ibw_build_spec s;
    memset(&s, 0, sizeof s);
    s.transport = IBW_TK_ROCE_V2_IP4;
    s.ttl = 64;
    s.bth.opcode = opcode;
    s.bth.pkey = 0xFFFF;
    s.bth.destqp = h->qp[to];
    s.bth.psn = psn;
    s.bth.ackreq = 1;
    s.aeth.syndrome = syndrome;
    s.aeth.msn = msn;
    s.immdt.imm = imm;
    s.ieth.rkey = imm;
    s.payload = payload;
    s.payload_len = plen;
    uint8_t out[4200];
    size_t n;
    if (ibw_build(&s, out, sizeof out, &n))
        abort();
    ibe_engine_receive(h->e[to], out, n);
    h_settle(h);
}

static void h_inject(struct harness *h, int to, uint8_t opcode, uint32_t psn,
                     uint8_t syndrome, uint32_t msn, const uint8_t *payload, size_t plen)
{
    h_inject_x(h, to, opcode, psn, syndrome, msn, 0, payload, plen);
}

#define AETH_ACK(credit) ((uint8_t)(0x00 | (credit)))
#define AETH_RNR(t) ((uint8_t)(0x20 | (t)))
#define AETH_NAK(code) ((uint8_t)(0x60 | (code)))

#endif
