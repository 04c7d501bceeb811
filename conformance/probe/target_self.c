/* SPDX-License-Identifier: Apache-2.0 */
/*
 * target_self.c - the self target: ibwire's reference engine as the device
 * under test, in the probe's process.  A fresh world and engine per test;
 * frames to the device go to ibe_engine_receive(), frames from it are
 * queued by its transmit hook with their virtual time; the device-side
 * operations are the engine's host API (ibe_post_*, ibe_poll_cq,
 * ibe_mem_ptr).  Waiting runs the world in steps of QUANTUM_NS of virtual
 * time, so the probe acts within 2 us of the frame it waited for.
 *
 * A breakage (`ibwire probe --self-break NAME`) alters the engine's frames
 * on their way out, so that the suite is seen to fail when the device
 * misbehaves: the engine's own fault modes take this place once they exist
 * (README.md, "Breakages").
 */
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "ibwire/packet.h"
#include "ibwire/wire.h"
#include "probe.h"
#include "probe_int.h"

#define QUANTUM_NS 2000u
#define MAXQ 1024
#define DEV_IP 0x0A000002u /* the engine sends to ipv4 ^ 1: the probe */

enum brk {
    BRK_NONE, BRK_DROP_SEQ_NAK, BRK_MSN_ZERO, BRK_DROP_RNR_NAK
};
const char *const probe_self_breaks[] = {
    "drop-seq-nak: the device never sends a PSN sequence error NAK",
    "msn-zero: every AETH the device sends carries MSN 0",
    "drop-rnr-nak: the device never sends an RNR NAK",
    NULL
};

struct qframe {
    uint64_t at;
    size_t len;
    uint8_t b[PROBE_MAX_FRAME];
};

struct self {
    struct probe_target t;
    int brk;
    struct ibe_world *w;
    struct ibe_engine *e;
    uint32_t qpn, cq;
    uint32_t lkey[PR_COUNT], rkey[PR_COUNT];
    uint64_t va[PR_COUNT];
    struct qframe *q;
    size_t qhead, qn;
    int overflow;
};

static const uint32_t region_len[PR_COUNT] = {65536, 4096, 4096, 65536};
static const uint32_t region_acc[PR_COUNT] = {
    IBE_ACC_LOCAL_WRITE | IBE_ACC_REMOTE_READ | IBE_ACC_REMOTE_WRITE |
        IBE_ACC_REMOTE_ATOMIC,
    IBE_ACC_LOCAL_WRITE | IBE_ACC_REMOTE_READ | IBE_ACC_REMOTE_WRITE,
    IBE_ACC_LOCAL_WRITE,
    IBE_ACC_LOCAL_WRITE};

/* The breakage: 0 to drop the frame. */
static int broken(struct self *s, uint8_t *f, size_t len)
{
    if (s->brk == BRK_NONE)
        return 1;
    struct ibw_pkt v;
    if (ibw_parse(f, len, IBW_LINK_ETHERNET, &v) != IBW_OK)
        return 1;
    const uint8_t *ca = ibw_pkt_hdr(&v, IBW_HDR_AETH);
    if (!ca)
        return 1;
    size_t off = (size_t)(ca - f);
    uint8_t syn = ibw_aeth_get_syndrome(ca);
    if (s->brk == BRK_DROP_SEQ_NAK && syn == 0x60)
        return 0;
    if (s->brk == BRK_DROP_RNR_NAK && (syn & 0xE0) == 0x20)
        return 0;
    if (s->brk == BRK_MSN_ZERO) {
        f[off + 1] = f[off + 2] = f[off + 3] = 0;
        probe_frame_fix(f, len);
    }
    return 1;
}

static void self_tx(void *ctx, struct ibe_engine *from, const uint8_t *pkt,
                    size_t len)
{
    struct self *s = ctx;
    (void)from;
    if (s->qn >= MAXQ || len > PROBE_MAX_FRAME) {
        s->overflow = 1;
        return;
    }
    struct qframe *f = &s->q[(s->qhead + s->qn) % MAXQ];
    f->at = ibe_now(s->w);
    f->len = len;
    memcpy(f->b, pkt, len);
    if (broken(s, f->b, len))
        s->qn++;
}

static void self_close(void *ctx)
{
    struct self *s = ctx;
    if (s->e)
        ibe_engine_destroy(s->e);
    if (s->w)
        ibe_world_destroy(s->w);
    s->e = NULL;
    s->w = NULL;
}

static int self_open(void *ctx, const struct probe_setup *su,
                     struct probe_dev *d, char *err, size_t errlen)
{
    struct self *s = ctx;
    self_close(s);
    s->qhead = s->qn = 0;
    s->overflow = 0;
    s->w = ibe_world_create(1);
    struct ibe_config c;
    memset(&c, 0, sizeof c);
    c.mem_bytes = 1u << 20;
    c.framing = IBE_FRAME_ROCEV2;
    c.lid = 2;
    c.ipv4 = DEV_IP;
    uint8_t mac[6] = {0x02, 0x00, 0x0A, 0x00, 0x00, 0x02};
    memcpy(c.mac, mac, 6);
    s->e = s->w ? ibe_engine_create(s->w, &c) : NULL;
    if (!s->e) {
        snprintf(err, errlen, "self: cannot create the engine");
        return -1;
    }
    ibe_engine_set_tx(s->e, self_tx, s);
    memset(d, 0, sizeof *d);
    for (int r = 0; r < PR_COUNT; r++) {
        s->va[r] = ibe_mem_alloc(s->e, region_len[r], 4096);
        uint8_t *p = ibe_mem_ptr(s->e, s->va[r], region_len[r]);
        if (!s->va[r] || !p ||
            ibe_mr_reg(s->e, 1, s->va[r], region_len[r], region_acc[r],
                       &s->lkey[r], &s->rkey[r])) {
            snprintf(err, errlen, "self: cannot register region %c",
                     PROBE_REGION_NAMES[r]);
            return -1;
        }
        for (uint32_t i = 0; i < region_len[r]; i++)
            p[i] = probe_init_byte(r, i);
        d->reg[r].va = s->va[r];
        d->reg[r].len = region_len[r];
        d->reg[r].rkey = s->rkey[r];
        d->reg[r].lkey = s->lkey[r];
        d->reg[r].access = region_acc[r];
    }
    s->cq = ibe_cq_create(s->e, 256);
    struct ibe_qp_attr a;
    memset(&a, 0, sizeof a);
    a.type = su->type == PROBE_UD ? IBE_UD : IBE_RC;
    a.pd = 1;
    a.send_cq = a.recv_cq = s->cq;
    a.sq_depth = 64;
    a.rq_depth = 64;
    a.qkey = su->qkey;
    a.pkey = su->pkey;
    s->qpn = ibe_qp_create(s->e, &a);
    struct ibe_qp_conn cn;
    memset(&cn, 0, sizeof cn);
    cn.remote_qpn = su->probe_qpn;
    cn.sq_psn = su->sq_psn;
    cn.rq_psn = su->rq_psn;
    cn.pmtu = su->pmtu;
    cn.retry_cnt = su->retry_cnt;
    cn.rnr_retry = su->rnr_retry;
    cn.timeout = su->timeout;
    cn.min_rnr_timer = su->min_rnr_timer;
    cn.max_outstanding = 0;
    if (!s->qpn || ibe_qp_connect(s->e, s->qpn, &cn)) {
        snprintf(err, errlen, "self: cannot create and connect the QP");
        return -1;
    }
    d->qpn = s->qpn;
    memcpy(d->dev_mac, mac, 6);
    /* the engine addresses its peer as 02:00 + (its IPv4 ^ 1) */
    uint8_t pmac[6] = {0x02, 0x00, 0x0A, 0x00, 0x00, 0x03};
    memcpy(d->probe_mac, pmac, 6);
    d->dev_ip4 = DEV_IP;
    d->probe_ip4 = DEV_IP ^ 1u;
    /* the engine's responder keeps no READ/atomic resource limit (README:
     * "the responder has no RDMA-read resource limit") */
    d->caps = PROBE_CAP_ATOMIC | PROBE_CAP_SEND_INV | PROBE_CAP_UD |
              PROBE_CAP_VTIME;
    return 0;
}

static uint64_t self_now(void *ctx)
{
    struct self *s = ctx;
    return ibe_now(s->w);
}

static int self_send(void *ctx, const uint8_t *f, size_t len)
{
    struct self *s = ctx;
    ibe_engine_receive(s->e, f, len);
    ibe_world_run_until(s->w, ibe_now(s->w)); /* what is due now */
    return 0;
}

static int self_recv(void *ctx, uint8_t *buf, size_t cap, size_t *len,
                     uint64_t *at, uint64_t deadline)
{
    struct self *s = ctx;
    for (;;) {
        if (s->overflow)
            return -1;
        if (s->qn) {
            struct qframe *f = &s->q[s->qhead];
            s->qhead = (s->qhead + 1) % MAXQ;
            s->qn--;
            *len = f->len < cap ? f->len : cap;
            memcpy(buf, f->b, *len);
            *at = f->at;
            return 1;
        }
        uint64_t now = ibe_now(s->w);
        if (now >= deadline)
            return 0;
        uint64_t next = now + QUANTUM_NS < deadline ? now + QUANTUM_NS : deadline;
        ibe_world_run_until(s->w, next);
    }
}

static int self_post_recv(void *ctx, uint32_t off, uint32_t len)
{
    struct self *s = ctx;
    struct ibe_recv_wr r;
    memset(&r, 0, sizeof r);
    r.wr_id = off;
    r.num_sge = 1;
    r.sg[0].addr = s->va[PR_L] + off;
    r.sg[0].length = len;
    r.sg[0].lkey = s->lkey[PR_L];
    int rc = ibe_post_recv(s->e, s->qpn, &r);
    ibe_world_run_until(s->w, ibe_now(s->w));
    return rc ? -1 : 0;
}

static int self_post_send(void *ctx, const struct probe_wr *wr)
{
    struct self *s = ctx;
    static const uint8_t ops[] = {
        [PROBE_WR_SEND] = IBE_WR_SEND, [PROBE_WR_SEND_IMM] = IBE_WR_SEND_IMM,
        [PROBE_WR_WRITE] = IBE_WR_RDMA_WRITE,
        [PROBE_WR_WRITE_IMM] = IBE_WR_RDMA_WRITE_IMM,
        [PROBE_WR_READ] = IBE_WR_RDMA_READ, [PROBE_WR_CAS] = IBE_WR_ATOMIC_CS,
        [PROBE_WR_FAA] = IBE_WR_ATOMIC_FA};
    if (wr->op >= sizeof ops)
        return -1;
    struct ibe_send_wr w;
    memset(&w, 0, sizeof w);
    w.wr_id = wr->local_off;
    w.opcode = ops[wr->op];
    w.flags = IBE_SEND_SIGNALED;
    w.num_sge = 1;
    w.sg[0].addr = s->va[PR_L] + wr->local_off;
    w.sg[0].length = wr->len;
    w.sg[0].lkey = s->lkey[PR_L];
    w.imm = wr->imm;
    w.remote_addr = wr->remote_va;
    w.rkey = wr->rkey;
    w.compare_add = wr->op == PROBE_WR_FAA ? wr->swap : wr->cmp;
    w.swap = wr->swap;
    int rc = ibe_post_send(s->e, s->qpn, &w);
    ibe_world_run_until(s->w, ibe_now(s->w));
    return rc ? -1 : 0;
}

static uint8_t status_of(uint8_t st)
{
    switch (st) {
    case IBE_WC_SUCCESS: return PROBE_ST_OK;
    case IBE_WC_LOC_LEN_ERR: return PROBE_ST_LOC_LEN;
    case IBE_WC_REM_INV_REQ_ERR: return PROBE_ST_REM_INV_REQ;
    case IBE_WC_REM_ACCESS_ERR: return PROBE_ST_REM_ACCESS;
    case IBE_WC_REM_OP_ERR: return PROBE_ST_REM_OP;
    case IBE_WC_RETRY_EXC_ERR: return PROBE_ST_RETRY_EXC;
    case IBE_WC_RNR_RETRY_EXC_ERR: return PROBE_ST_RNR_RETRY_EXC;
    case IBE_WC_WR_FLUSH_ERR: return PROBE_ST_FLUSH;
    default: return PROBE_ST_OTHER;
    }
}

static int self_poll(void *ctx, struct probe_cqe *c, int max)
{
    struct self *s = ctx;
    int n = 0;
    while (n < max) {
        struct ibe_wc wc;
        if (ibe_poll_cq(s->e, s->cq, &wc, 1) != 1)
            break;
        memset(&c[n], 0, sizeof c[n]);
        c[n].recv = !wc.is_send;
        c[n].status = status_of(wc.status);
        c[n].has_imm = wc.has_imm;
        c[n].len = wc.byte_len;
        c[n].imm = wc.imm;
        n++;
    }
    return n;
}

static int self_mem_read(void *ctx, int region, uint32_t off, uint8_t *buf,
                         uint32_t len)
{
    struct self *s = ctx;
    if (region < 0 || region >= PR_COUNT || off > region_len[region] ||
        len > region_len[region] - off)
        return -1;
    const uint8_t *p = ibe_mem_ptr(s->e, s->va[region] + off, len);
    if (!p)
        return -1;
    memcpy(buf, p, len);
    return 0;
}

struct probe_target *probe_self_target(const char *brk)
{
    int b = BRK_NONE;
    if (brk) {
        static const char *const names[] = {"drop-seq-nak", "msn-zero",
                                            "drop-rnr-nak"};
        for (int i = 0; i < 3; i++)
            if (!strcmp(brk, names[i]))
                b = i + 1;
        if (b == BRK_NONE)
            return NULL;
    }
    struct self *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->q = calloc(MAXQ, sizeof *s->q);
    if (!s->q) {
        free(s);
        return NULL;
    }
    s->brk = b;
    s->t.name = "self";
    s->t.ctx = s;
    s->t.open = self_open;
    s->t.close = self_close;
    s->t.now = self_now;
    s->t.send = self_send;
    s->t.recv = self_recv;
    s->t.post_recv = self_post_recv;
    s->t.post_send = self_post_send;
    s->t.poll = self_poll;
    s->t.mem_read = self_mem_read;
    return &s->t;
}

void probe_self_target_free(struct probe_target *t)
{
    if (!t)
        return;
    struct self *s = t->ctx;
    self_close(s);
    free(s->q);
    free(s);
}
