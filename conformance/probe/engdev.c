/* SPDX-License-Identifier: Apache-2.0 */
/*
 * engdev.c - the reference engine as a device under test: a world and one
 * engine per test, the four regions with their known contents and rights,
 * one QP connected as the test's setup says, and the device-side
 * operations (the agent's) through the engine's host API.  The self target
 * (target_self.c, virtual time) and the engine on a raw socket
 * (engine_raw.c, real time) put their own frame paths around it.
 */
#include <string.h>

#include "probe_int.h"

static const uint32_t region_len[PR_COUNT] = {65536, 4096, 4096, 65536};
static const uint32_t region_acc[PR_COUNT] = {
    IBE_ACC_LOCAL_WRITE | IBE_ACC_REMOTE_READ | IBE_ACC_REMOTE_WRITE |
        IBE_ACC_REMOTE_ATOMIC,
    IBE_ACC_LOCAL_WRITE | IBE_ACC_REMOTE_READ | IBE_ACC_REMOTE_WRITE,
    IBE_ACC_LOCAL_WRITE,
    IBE_ACC_LOCAL_WRITE};

void probe_engdev_close(struct probe_engdev *s)
{
    if (s->e)
        ibe_engine_destroy(s->e);
    if (s->w)
        ibe_world_destroy(s->w);
    s->e = NULL;
    s->w = NULL;
}

int probe_engdev_open(struct probe_engdev *s, const struct probe_setup *su,
                      struct probe_dev *d, ibe_tx_fn tx, void *txctx,
                      char *err, size_t errlen)
{
    probe_engdev_close(s);
    s->w = ibe_world_create(1);
    struct ibe_config c;
    memset(&c, 0, sizeof c);
    c.mem_bytes = 1u << 20;
    c.framing = IBE_FRAME_ROCEV2;
    c.lid = 2;
    c.ipv4 = PROBE_ENGDEV_IP;
    uint8_t mac[6] = {0x02, 0x00, 0x0A, 0x00, 0x00, 0x02};
    memcpy(c.mac, mac, 6);
    s->e = s->w ? ibe_engine_create(s->w, &c) : NULL;
    if (!s->e) {
        snprintf(err, errlen, "engine: cannot create it");
        return -1;
    }
    ibe_engine_set_tx(s->e, tx, txctx);
    ibe_engine_set_faults(s->e, s->faults);
    ibe_engine_set_choices(s->e, s->choices);
    memset(d, 0, sizeof *d);
    for (int r = 0; r < PR_COUNT; r++) {
        s->va[r] = ibe_mem_alloc(s->e, region_len[r], 4096);
        uint8_t *p = ibe_mem_ptr(s->e, s->va[r], region_len[r]);
        if (!s->va[r] || !p ||
            ibe_mr_reg(s->e, 1, s->va[r], region_len[r], region_acc[r],
                       &s->lkey[r], &s->rkey[r])) {
            snprintf(err, errlen, "engine: cannot register region %c",
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
        snprintf(err, errlen, "engine: cannot create and connect the QP");
        return -1;
    }
    d->qpn = s->qpn;
    memcpy(d->dev_mac, mac, 6);
    /* the engine addresses its peer as 02:00 + (its IPv4 ^ 1) */
    uint8_t pmac[6] = {0x02, 0x00, 0x0A, 0x00, 0x00, 0x03};
    memcpy(d->probe_mac, pmac, 6);
    d->dev_ip4 = PROBE_ENGDEV_IP;
    d->probe_ip4 = PROBE_ENGDEV_IP ^ 1u;
    /* the engine's responder keeps no READ/atomic resource limit (engine
     * README: "the responder has no RDMA-read resource limit") */
    d->caps = PROBE_CAP_ATOMIC | PROBE_CAP_SEND_INV | PROBE_CAP_UD;
    return 0;
}

int probe_engdev_post_recv(struct probe_engdev *s, uint32_t off, uint32_t len)
{
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

int probe_engdev_post_send(struct probe_engdev *s, const struct probe_wr *wr)
{
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

int probe_engdev_poll(struct probe_engdev *s, struct probe_cqe *c, int max)
{
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

int probe_engdev_mem_read(struct probe_engdev *s, int region, uint32_t off,
                          uint8_t *buf, uint32_t len)
{
    if (region < 0 || region >= PR_COUNT || off > region_len[region] ||
        len > region_len[region] - off)
        return -1;
    const uint8_t *p = ibe_mem_ptr(s->e, s->va[region] + off, len);
    if (!p)
        return -1;
    memcpy(buf, p, len);
    return 0;
}
