/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sim.c - two engines, one RC/UC/UD QP each, joined by a lossy link, driven
 * by a random mix of operations; everything the requester posts is checked
 * where it lands.  Data are a function of (seed, message, offset), so every
 * byte can be verified without keeping copies.
 */
#include "sim.h"

#include <stdio.h>
#include <string.h>

#include "eng.h"
#include "ibwire/packet.h"
#include "ibwire/wire.h"

enum { SLOTS = 64, RQ_DEPTH = 64 };

struct msg {
    uint8_t op;
    uint32_t len;
    uint64_t atomic_expect;
    uint8_t recv_kind;     /* consumes a receive WQE at the target */
    uint8_t delivered;
};

struct sim {
    const struct ibe_sim_opts *o;
    struct ibe_sim_result *r;
    struct ibe_world *w;
    struct ibe_engine *a, *b;
    uint32_t qa, qb, cqa, cqb, lka, lkb, rkb;
    uint64_t src, dst, tgt, rbuf, atom;
    uint32_t max;
    struct msg *m;
    uint64_t posted, next_done;
    uint64_t recv_head;         /* oldest message that may still arrive */
    uint64_t atomic_model;
    uint64_t recv_posted;
    uint64_t ud_dups;
    uint32_t traffic;           /* IBE_FT_* of the faults' traffic */
    uint8_t lost[3];            /* the chosen losses done (sim_drop) */
    uint32_t loss_seen[3];      /* frames of each chosen loss's kind seen */
    uint32_t sends_seen;        /* Send ONLY frames seen (sim_drop) */
    uint32_t runts_seen;        /* the same, for IBE_FT_RUNT */
    uint8_t cut;                /* IBE_FT_SHORT done */
};

/* The chosen losses of a fault's traffic (faults.h IBE_FT_LOSS*): each
 * kind of frame lost once, the first time it crosses. */
static int sim_drop(void *ctx, int dir, uint8_t *pkt, size_t *lenp)
{
    struct sim *s = ctx;
    size_t len = *lenp;
    size_t bth = s->o->framing == IBE_FRAME_IB ? 8 : 42;
    if (len < bth + 12)
        return 0;
    uint8_t op = pkt[bth];
    /* IBE_FT_CORRUPT: every 8th Send ONLY with payload gets its first
     * payload bit flipped (the ICRC then fails) */
    if (dir == 0 && (s->traffic & IBE_FT_CORRUPT) && op == IBW_OP_RC_SEND_ONLY &&
        len >= bth + 12 + 4 + 4 && ++s->sends_seen % 8 == 0)
        pkt[bth + 12] ^= 1;
    int k = -1;
    if (dir == 0 && (s->traffic & IBE_FT_LOSS) &&
        (op == IBW_OP_RC_SEND_MIDDLE || op == IBW_OP_RC_RDMA_WRITE_MIDDLE))
        k = 0;
    else if (dir == 1 && (s->traffic & IBE_FT_LOSS_READ) &&
             (op == IBW_OP_RC_RDMA_READ_RESPONSE_MIDDLE ||
              op == IBW_OP_RC_RDMA_READ_RESPONSE_LAST))
        k = 1;
    else if (dir == 1 && (s->traffic & IBE_FT_LOSS_ATOMIC) &&
             op == IBW_OP_RC_ATOMIC_ACKNOWLEDGE)
        k = 2;
    /* IBE_FT_RUNT: every 8th Send ONLY's UDP length short of its BTH, the
     * ICRC computed over that header (only the length is wrong) */
    if (dir == 0 && (s->traffic & IBE_FT_RUNT) && op == IBW_OP_RC_SEND_ONLY &&
        s->o->framing != IBE_FRAME_IB && ++s->runts_seen % 8 == 0) {
        struct ibw_pkt p;
        if (ibw_parse(pkt, len, IBW_LINK_ETHERNET, &p) == IBW_OK &&
            ibw_pkt_has(&p, IBW_HDR_UDP) && p.icrc_status == IBW_CRC_GOOD) {
            ibw_store_be16(pkt + p.off[IBW_HDR_UDP] + 4, 8 + 8);
            ibw_store_le32(pkt + p.icrc_off, ibw_icrc_compute(&p));
        }
    }
    /* IBE_FT_SHORT: the first Send/Write FIRST rebuilt 8 bytes short (its
     * lengths and CRCs those of the shorter frame), once */
    if (dir == 0 && (s->traffic & IBE_FT_SHORT) && !s->cut &&
        (op == IBW_OP_RC_SEND_FIRST || op == IBW_OP_RC_RDMA_WRITE_FIRST)) {
        struct ibw_pkt p;
        struct ibw_build_spec sp;
        static uint8_t out[4096 + 256];
        size_t n = 0;
        s->cut = 1;
        if (ibw_parse(pkt, len, s->o->framing == IBE_FRAME_IB ? IBW_LINK_IB
                                                              : IBW_LINK_ETHERNET,
                      &p) == IBW_OK &&
            ibw_build_spec_from_pkt(&p, &sp) == IBW_OK && sp.payload_len > 8) {
            sp.payload_len -= 8;
            if (ibw_build(&sp, out, sizeof out, &n) == IBW_OK && n <= len) {
                memcpy(pkt, out, n);
                *lenp = n;
            }
        }
    }
    if (k < 0 || s->lost[k] || ++s->loss_seen[k] < s->o->loss_nth)
        return 0;
    s->lost[k] = 1;
    return 1;
}

/* 8 pattern bytes for block off/8 of message i. */
static uint64_t pat8(uint64_t seed, uint64_t i, uint32_t blk)
{
    uint64_t x = seed * 0x9E3779B97F4A7C15ull ^ (i * 0xC2B2AE3D27D4EB4Full) ^ blk;
    x ^= x >> 29;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 32;
    return x;
}

static uint8_t pat(uint64_t seed, uint64_t i, uint32_t off)
{
    return (uint8_t)(pat8(seed, i, off / 8u) >> (8 * (off % 8)));
}

static void fill(uint8_t *p, uint64_t seed, uint64_t i, uint32_t len)
{
    uint32_t k = 0;
    for (; k + 8 <= len; k += 8) {
        uint64_t x = pat8(seed, i, k / 8u);
        memcpy(p + k, &x, 8); /* same() reads it back the same way */
    }
    for (; k < len; k++)
        p[k] = pat(seed, i, k);
}

static bool same(const uint8_t *p, uint64_t seed, uint64_t i, uint32_t len)
{
    uint32_t k = 0;
    for (; k + 8 <= len; k += 8) {
        uint64_t x = pat8(seed, i, k / 8u), y;
        memcpy(&y, p + k, 8);
        if (x != y)
            return false;
    }
    for (; k < len; k++)
        if (p[k] != pat(seed, i, k))
            return false;
    return true;
}

static void fail(struct sim *s, const char *what)
{
    if (!s->r->failure[0])
        snprintf(s->r->failure, sizeof s->r->failure, "%s", what);
}

/* A data check that failed: counted, and named when it is the first. */
static void mismatch(struct sim *s, const char *what)
{
    s->r->data_mismatches++;
    fail(s, what);
}

/* A data check: its bytes count as verified when it holds. */
static void verify(struct sim *s, bool ok, uint32_t bytes, const char *what)
{
    if (ok)
        s->r->bytes_verified += bytes;
    else
        mismatch(s, what);
}

static void post_recv(struct sim *s)
{
    uint64_t k = s->recv_posted++;
    struct ibe_recv_wr rw;
    memset(&rw, 0, sizeof rw);
    rw.wr_id = k % RQ_DEPTH;
    rw.num_sge = 1;
    rw.sg[0].addr = s->rbuf + (k % RQ_DEPTH) * s->max;
    rw.sg[0].length = s->max;
    rw.sg[0].lkey = s->lkb;
    if (ibe_post_recv(s->b, s->qb, &rw))
        fail(s, "receive ring overflow");
}

static uint8_t pick_op(struct sim *s, uint32_t mask)
{
    static const uint8_t ops[7] = {IBE_WR_SEND, IBE_WR_SEND_IMM, IBE_WR_RDMA_WRITE,
                                   IBE_WR_RDMA_WRITE_IMM, IBE_WR_RDMA_READ,
                                   IBE_WR_ATOMIC_CS, IBE_WR_ATOMIC_FA};
    for (;;) {
        unsigned k = (unsigned)(ibe_rand(s->w) % 7);
        if (mask & (1u << k))
            return ops[k];
    }
}

static int post_one(struct sim *s, uint32_t mask)
{
    uint64_t i = s->posted;
    uint32_t slot = (uint32_t)(i % SLOTS);
    struct msg *m = &s->m[i];
    m->op = pick_op(s, mask);
    m->len = (uint32_t)(ibe_rand(s->w) % ((uint64_t)s->max + 1));
    if (s->traffic & IBE_FT_SMALL)
        m->len %= 5; /* frames under 65 bytes */
    /* a fault's traffic (faults.h): the special message in the middle */
    bool special = s->traffic && s->o->transport == IBE_RC &&
                   i == (s->o->fault_at && s->o->fault_at < s->o->messages
                             ? s->o->fault_at : s->o->messages / 2);
    uint64_t wrap_va = 0;
    if (special && (s->traffic & (IBE_FT_ZLREAD | IBE_FT_ZLBADKEY))) {
        m->op = IBE_WR_RDMA_READ;
        m->len = 0;
    } else if (special && (s->traffic & IBE_FT_VAWRAP)) {
        m->op = IBE_WR_RDMA_WRITE;
        m->len = 64;
        wrap_va = 0xFFFFFFFFFFFFFFF0ull;
    } else if (special && (s->traffic & IBE_FT_SENDINV)) {
        m->op = IBE_WR_SEND_INV;
        m->len = m->len < s->o->pmtu ? m->len : s->o->pmtu / 2;
    }
    bool atomic = m->op == IBE_WR_ATOMIC_CS || m->op == IBE_WR_ATOMIC_FA;
    if (atomic)
        m->len = 8;
    struct ibe_send_wr wr;
    memset(&wr, 0, sizeof wr);
    wr.wr_id = i;
    wr.opcode = m->op;
    wr.flags = IBE_SEND_SIGNALED;
    wr.num_sge = 1;
    wr.imm = (uint32_t)i;
    uint64_t src = s->src + (uint64_t)slot * s->max;
    uint64_t dst = s->dst + (uint64_t)slot * s->max;
    uint64_t tgt = s->tgt + (uint64_t)slot * s->max;
    wr.sg[0].lkey = s->lka;
    wr.sg[0].length = m->len;
    wr.rkey = s->rkb;
    switch (m->op) {
    case IBE_WR_RDMA_READ:
        fill(ibe_mem_ptr(s->b, tgt, m->len), s->o->seed, i, m->len);
        memset(ibe_mem_ptr(s->a, dst, m->len), 0xEE, m->len);
        wr.sg[0].addr = dst;
        wr.remote_addr = tgt;
        break;
    case IBE_WR_ATOMIC_CS:
    case IBE_WR_ATOMIC_FA: {
        wr.sg[0].addr = dst;
        wr.remote_addr = s->atom;
        uint64_t x = ibe_rand(s->w);
        m->atomic_expect = s->atomic_model;
        if (m->op == IBE_WR_ATOMIC_FA) {
            wr.compare_add = x & 0xFFFF;
            s->atomic_model += wr.compare_add;
        } else {
            /* compare equal half of the time */
            wr.compare_add = (x & 1) ? s->atomic_model : x;
            wr.swap = x >> 1;
            if (wr.compare_add == s->atomic_model)
                s->atomic_model = wr.swap;
        }
        memset(ibe_mem_ptr(s->a, dst, 8), 0xEE, 8);
        break;
    }
    default:
        fill(ibe_mem_ptr(s->a, src, m->len), s->o->seed, i, m->len);
        wr.sg[0].addr = src;
        wr.remote_addr = tgt;
        if (m->op == IBE_WR_RDMA_WRITE || m->op == IBE_WR_RDMA_WRITE_IMM)
            memset(ibe_mem_ptr(s->b, tgt, m->len), 0xEE, m->len);
        break;
    }
    if (special) {
        if (s->traffic & IBE_FT_ZLBADKEY)
            wr.rkey = 0; /* no region's: C9-88 says it is not looked at */
        if (wrap_va)
            wr.remote_addr = wrap_va;
        if (m->op == IBE_WR_SEND_INV)
            wr.imm = 0; /* the R_Key to invalidate: no region's */
    }
    m->recv_kind = m->op == IBE_WR_SEND || m->op == IBE_WR_SEND_IMM ||
                   m->op == IBE_WR_SEND_INV || m->op == IBE_WR_RDMA_WRITE_IMM;
    if (s->o->transport == IBE_UD) {
        wr.remote_qpn = s->qb;
        wr.remote_qkey = 0x11111111u;
    }
    if (ibe_post_send(s->a, s->qa, &wr))
        return -1;
    s->posted++;
    s->r->messages_posted++;
    s->r->bytes_posted += m->len;
    return 0;
}

/* A requester completion: in order, once, and its data where it belongs. */
static void on_send_wc(struct sim *s, const struct ibe_wc *wc)
{
    struct ibe_sim_result *r = s->r;
    if (wc->wr_id != s->next_done) {
        r->order_violations++;
        fail(s, "requester completion out of order");
    }
    s->next_done = wc->wr_id + 1;
    if (wc->wr_id >= s->posted)
        return;
    const struct msg *m = &s->m[wc->wr_id];
    uint32_t slot = (uint32_t)(wc->wr_id % SLOTS);
    if (wc->status != IBE_WC_SUCCESS) {
        r->completed_error++;
        if (wc->status == IBE_WC_WR_FLUSH_ERR)
            r->flushed++;
        if (wc->status == IBE_WC_RETRY_EXC_ERR)
            r->retry_exceeded++;
        return;
    }
    r->completed_ok++;
    if (s->o->transport != IBE_RC)
        return; /* UC/UD: checked where the data arrive */
    if (wc->byte_len != m->len && m->op != IBE_WR_ATOMIC_CS && m->op != IBE_WR_ATOMIC_FA) {
        mismatch(s, "requester byte count");
    }
    switch (m->op) {
    case IBE_WR_RDMA_WRITE:
    case IBE_WR_RDMA_WRITE_IMM:
        verify(s, same(ibe_mem_ptr(s->b, s->tgt + (uint64_t)slot * s->max, m->len),
                       s->o->seed, wc->wr_id, m->len),
               m->len, "RDMA Write data at the target");
        break;
    case IBE_WR_RDMA_READ:
        verify(s, same(ibe_mem_ptr(s->a, s->dst + (uint64_t)slot * s->max, m->len),
                       s->o->seed, wc->wr_id, m->len),
               m->len, "RDMA Read data at the requester");
        break;
    case IBE_WR_ATOMIC_CS:
    case IBE_WR_ATOMIC_FA: {
        const uint8_t *p = ibe_mem_ptr(s->a, s->dst + (uint64_t)slot * s->max, 8);
        uint64_t v = 0;
        for (int k = 7; k >= 0; k--)
            v = v << 8 | p[k];
        verify(s, v == m->atomic_expect, 8, "atomic original value");
        break;
    }
    default:
        break; /* Sends are verified at the receiver */
    }
}

/* A responder completion: the next message that can still arrive, whole. */
static void on_recv_wc(struct sim *s, const struct ibe_wc *wc)
{
    struct ibe_sim_result *r = s->r;
    if (wc->status != IBE_WC_SUCCESS) {
        mismatch(s, "receive completed in error");
        return;
    }
    uint64_t buf = s->rbuf + (wc->wr_id % RQ_DEPTH) * s->max;
    uint64_t found = UINT64_MAX;
    for (uint64_t i = s->recv_head; i < s->posted; i++) {
        const struct msg *m = &s->m[i];
        if (!m->recv_kind || m->delivered)
            continue;
        bool match;
        if (m->op == IBE_WR_RDMA_WRITE_IMM) {
            match = wc->has_imm && wc->imm == (uint32_t)i && wc->byte_len == m->len &&
                    same(ibe_mem_ptr(s->b, s->tgt + (i % SLOTS) * s->max, m->len),
                         s->o->seed, i, m->len);
        } else {
            match = wc->byte_len == m->len &&
                    (m->op != IBE_WR_SEND_IMM || (wc->has_imm && wc->imm == (uint32_t)i)) &&
                    same(ibe_mem_ptr(s->b, buf, m->len), s->o->seed, i, m->len);
        }
        if (match) {
            found = i;
            break;
        }
        if (s->o->transport == IBE_RC)
            break; /* RC: it must be the oldest */
        if (s->o->transport == IBE_UD)
            continue; /* UD: a reordering wire may reorder datagrams */
    }
    if (found == UINT64_MAX && s->o->transport == IBE_UD) {
        /* UD has no PSN check (IBA): a datagram the wire duplicated is
         * delivered again; counted, not an engine fault */
        for (uint64_t i = s->recv_head; i < s->posted; i++)
            if (s->m[i].recv_kind && s->m[i].delivered && wc->byte_len == s->m[i].len &&
                same(ibe_mem_ptr(s->b, buf, s->m[i].len), s->o->seed, i, s->m[i].len)) {
                r->duplicates_delivered++;
                s->ud_dups++;
                post_recv(s);
                return;
            }
    }
    if (found == UINT64_MAX) {
        /* a message delivered earlier, again? */
        for (uint64_t i = 0; i < s->recv_head; i++)
            if (s->m[i].recv_kind && s->m[i].delivered && wc->byte_len == s->m[i].len &&
                s->m[i].op != IBE_WR_RDMA_WRITE_IMM &&
                same(ibe_mem_ptr(s->b, buf, s->m[i].len), s->o->seed, i, s->m[i].len)) {
                r->duplicates_delivered++;
                fail(s, "message delivered twice");
                post_recv(s);
                return;
            }
        mismatch(s, "received data match no message in order");
        post_recv(s);
        return;
    }
    if (s->o->transport != IBE_UD) {
        for (uint64_t i = s->recv_head; i < found; i++)
            if (s->m[i].recv_kind && !s->m[i].delivered)
                r->lost_messages++;
        s->recv_head = found + 1;
    }
    s->m[found].delivered = 1;
    if (s->o->transport != IBE_RC) {
        r->bytes_verified += s->m[found].len;
    } else if (s->m[found].op != IBE_WR_RDMA_WRITE_IMM) {
        r->bytes_verified += s->m[found].len;
    }
    post_recv(s);
}

uint32_t ibe_sim_parse_ops(const char *list)
{
    static const char *names[7] = {"send", "send_imm", "write", "write_imm",
                                   "read", "cas", "faa"};
    uint32_t mask = 0;
    const char *p = list;
    while (*p) {
        size_t n = strcspn(p, ",");
        int k;
        for (k = 0; k < 7; k++)
            if (strlen(names[k]) == n && !strncmp(p, names[k], n))
                break;
        if (k == 7)
            return 0;
        mask |= 1u << k;
        p += n;
        if (*p == ',')
            p++;
    }
    return mask;
}

const char *ibe_qp_state_name(int st)
{
    static const char *n[7] = {"RESET", "INIT", "RTR", "RTS", "SQD", "SQE", "ERR"};
    return st >= 0 && st < 7 ? n[st] : "?";
}

int ibe_sim_run(const struct ibe_sim_opts *o, struct ibe_sim_result *r)
{
    memset(r, 0, sizeof *r);
    uint32_t all = o->transport == IBE_RC ? 0x7F : o->transport == IBE_UC ? 0x0F : 0x03;
    uint32_t mask = (o->ops ? o->ops : all) & all;
    if (!mask || !ibw_mtu_bytes_to_enum(o->pmtu))
        return -1;
    struct sim s;
    memset(&s, 0, sizeof s);
    s.o = o;
    s.r = r;
    s.max = o->max_size ? o->max_size : 1;
    if (o->transport == IBE_UD && s.max > o->pmtu)
        s.max = o->pmtu;
    s.max = (s.max + 7) / 8 * 8;
    s.traffic = ibe_fault_traffic(o->faults | o->traffic_of);
    if ((s.traffic & IBE_FT_READS) && !o->ops && o->transport == IBE_RC &&
        s.max < 2 * o->pmtu)
        s.max = 3 * o->pmtu; /* multi-packet READs */
    if (!mask)
        return -1;
    s.m = calloc(o->messages ? o->messages : 1, sizeof *s.m);
    s.w = ibe_world_create(o->seed);
    uint64_t mem = (uint64_t)s.max * (SLOTS * 3 + RQ_DEPTH) + (8u << 20);
    struct ibe_config ca = {mem, o->framing, 1, 0x0A000001u, {2, 0, 10, 0, 0, 1}};
    struct ibe_config cb = {mem, o->framing, 0, 0x0A000000u, {2, 0, 10, 0, 0, 0}};
    s.a = s.w ? ibe_engine_create(s.w, &ca) : NULL;
    s.b = s.w ? ibe_engine_create(s.w, &cb) : NULL;
    if (!s.m || !s.w || !s.a || !s.b ||
        (o->latency && (ibe_engine_apply_latency(s.a, o->latency, NULL) ||
                        ibe_engine_apply_latency(s.b, o->latency, NULL)))) {
        if (s.a)
            ibe_engine_destroy(s.a);
        if (s.b)
            ibe_engine_destroy(s.b);
        if (s.w)
            ibe_world_destroy(s.w);
        free(s.m);
        return -1;
    }
    ibe_engine_set_choices(s.a, o->choices);
    ibe_engine_set_choices(s.b, o->choices);
    if (o->faults) {
        ibe_engine_set_faults(s.a, ibe_fault_side_mask(o->faults, IBE_FS_REQ));
        ibe_engine_set_faults(s.b, ibe_fault_side_mask(o->faults, IBE_FS_RESP));
    }
    struct ibe_link_params lp = {o->drop, o->dup, o->reorder, o->corrupt, o->ecn,
                                 1000, 100.0};
    struct ibe_link *l = ibe_link_create(s.w, s.a, s.b, &lp);
    if (o->tap)
        ibe_link_set_tap(l, o->tap, o->tap_ctx);
    if (s.traffic & (IBE_FT_LOSS | IBE_FT_LOSS_READ | IBE_FT_LOSS_ATOMIC |
                     IBE_FT_CORRUPT | IBE_FT_RUNT | IBE_FT_SHORT))
        ibe_link_set_drop(l, sim_drop, &s);
    if (o->trace) {
        ibe_engine_set_trace(s.a, o->trace, o->trace_ctx);
        ibe_engine_set_trace(s.b, o->trace, o->trace_ctx);
    }
    s.cqa = ibe_cq_create(s.a, 256);
    s.cqb = ibe_cq_create(s.b, 256);
    struct ibe_qp_attr qa = {o->transport, 1, s.cqa, s.cqa, SLOTS, RQ_DEPTH, 0x11111111u, 0};
    struct ibe_qp_attr qb = {o->transport, 1, s.cqb, s.cqb, SLOTS, RQ_DEPTH, 0x11111111u, 0};
    s.qa = ibe_qp_create(s.a, &qa);
    s.qb = ibe_qp_create(s.b, &qb);
    s.src = ibe_mem_alloc(s.a, (uint64_t)s.max * SLOTS, 4096);
    s.dst = ibe_mem_alloc(s.a, (uint64_t)s.max * SLOTS, 4096);
    s.tgt = ibe_mem_alloc(s.b, (uint64_t)s.max * SLOTS, 4096);
    s.rbuf = ibe_mem_alloc(s.b, (uint64_t)s.max * RQ_DEPTH, 4096);
    s.atom = ibe_mem_alloc(s.b, 8, 8);
    uint32_t rk;
    ibe_mr_reg(s.a, 1, s.src, (uint64_t)s.max * SLOTS * 2 + 4096, IBE_ACC_LOCAL_WRITE,
               &s.lka, &rk);
    ibe_mr_reg(s.b, 1, s.tgt, s.atom + 8 - s.tgt,
               IBE_ACC_LOCAL_WRITE | IBE_ACC_REMOTE_WRITE | IBE_ACC_REMOTE_READ |
                   IBE_ACC_REMOTE_ATOMIC, &s.lkb, &s.rkb);
    memset(ibe_mem_ptr(s.b, s.atom, 8), 0, 8);
    /* random starting PSNs, so that runs also cross the 24-bit wrap */
    uint32_t psn_a = (uint32_t)(ibe_rand(s.w) & 0xFFFFFF);
    uint32_t psn_b = (uint32_t)(ibe_rand(s.w) & 0xFFFFFF);
    struct ibe_qp_conn c = {s.qb, psn_a, psn_b, o->pmtu, o->retry_cnt ? o->retry_cnt : 7,
                            7, 10, 1, 16};
    ibe_qp_connect(s.a, s.qa, &c);
    struct ibe_qp_conn cbn = {s.qa, psn_b, psn_a, o->pmtu, 7, 7, 10, 1, 16};
    ibe_qp_connect(s.b, s.qb, &cbn);
    /* RNR traffic: one receive WQE kept posted */
    for (int i = 0; i < ((s.traffic & IBE_FT_RNR) ? 1 : RQ_DEPTH); i++)
        post_recv(&s);

    struct ibe_wc wc[64];
    bool unreliable = o->transport != IBE_RC;
    for (;;) {
        /* UC/UD complete at the requester as soon as they are sent: post in
         * batches and let the wire drain, so that no buffer is reused while
         * a packet for it may still arrive. */
        uint64_t batch_end = unreliable ? s.posted + SLOTS / 2 : UINT64_MAX;
        bool refused = false;
        while (s.posted < o->messages && s.posted < batch_end &&
               ibe_sq_free(s.a, s.qa) > 0)
            if (post_one(&s, mask)) {
                refused = true;
                break;
            }
        uint64_t ran = ibe_world_run(s.w, unreliable ? UINT64_MAX : 256);
        if (unreliable) { /* drained: what has not arrived is lost */
            int n;
            while ((n = ibe_poll_cq(s.b, s.cqb, wc, 64)) > 0)
                for (int i = 0; i < n; i++)
                    if (!wc[i].is_send)
                        on_recv_wc(&s, &wc[i]);
            for (uint64_t i = s.recv_head; i < s.posted; i++)
                if (s.m[i].recv_kind && !s.m[i].delivered)
                    r->lost_messages++;
            s.recv_head = s.posted;
        }
        r->events += ran;
        int n;
        while ((n = ibe_poll_cq(s.a, s.cqa, wc, 64)) > 0)
            for (int i = 0; i < n; i++) {
                if (wc[i].is_send)
                    on_send_wc(&s, &wc[i]);
                else
                    on_recv_wc(&s, &wc[i]);
            }
        while ((n = ibe_poll_cq(s.b, s.cqb, wc, 64)) > 0)
            for (int i = 0; i < n; i++)
                if (!wc[i].is_send)
                    on_recv_wc(&s, &wc[i]);
        if (!ran && (s.posted >= o->messages || !ibe_sq_free(s.a, s.qa)))
            break;
        /* a fault's traffic may leave the QP in Error: posting refused */
        if (!ran && refused && (o->faults || s.traffic))
            break;
        /* a fault may keep a QP busy for ever (RNR retry 7 is infinite) */
        if (o->faults && ibe_now(s.w) > 10000000000ull) {
            r->fault_stopped = 1;
            break;
        }
    }
    /* messages that never arrived anywhere (UC/UD) */
    for (uint64_t i = s.recv_head; i < s.posted; i++)
        if (s.m[i].recv_kind && !s.m[i].delivered)
            r->lost_messages++;

    const struct ibe_stats *sa = ibe_engine_stats(s.a), *sb = ibe_engine_stats(s.b);
    r->retransmissions = sa->retransmissions;
    r->timeouts = sa->timeouts;
    r->rnr_naks = sa->rnr_naks_rx;
    r->seq_naks = sa->seq_naks_rx;
    r->packets_on_wire = ibe_link_stats(l)->sent;
    r->icrc_drops = sa->icrc_drops + sb->icrc_drops;
    r->sim_time_ns = ibe_now(s.w);
    r->qp_state = ibe_qp_state(s.a, s.qa);

    uint64_t done = r->completed_ok + r->completed_error;
    if (done != r->messages_posted)
        fail(&s, "not every posted message completed (hang)");
    if (o->transport == IBE_RC && r->completed_error && r->qp_state != IBE_QPS_ERR)
        fail(&s, "error completions but the QP is not in Error");
    if (o->transport == IBE_RC && !r->completed_error) {
        for (uint64_t i = 0; i < s.posted; i++)
            if (s.m[i].recv_kind && !s.m[i].delivered) {
                fail(&s, "RC message not delivered");
                break;
            }
    }
    r->invariants_ok = !r->failure[0] && !r->data_mismatches &&
                       r->duplicates_delivered == s.ud_dups && !r->order_violations;
    ibe_link_destroy(l);
    ibe_engine_destroy(s.a);
    ibe_engine_destroy(s.b);
    ibe_world_destroy(s.w);
    free(s.m);
    return r->invariants_ok ? 0 : 1;
}
