/* SPDX-License-Identifier: Apache-2.0 */
/*
 * engine_fuzzer.c - the reference engine's responder fed arbitrary packets
 * against a set-up QP.
 *
 * Byte 0 picks a world: one engine (RoCEv2 or native IB framing), a CQ, a
 * QP of type RC, UC or UD moved to RTS with a receive PSN and PMTU from
 * byte 0, a 8 KiB memory region with every access right between two
 * unregistered guard areas; with bit 3 of byte 0 set the modules have the
 * documents' latencies, so packets and records wait in the scheduler's
 * queues (timing.c).  Each world is built once and snapshotted
 * (ibe_world_snapshot); every input restores its world from the snapshot,
 * posts a few receives and then feeds records:
 *   kind 0  raw bytes: if they parse far enough to have a BTH, the
 *           destination QP is pointed at ours and the CRCs are recomputed
 *           (so mutations get past the ICRC check), then delivered;
 *   kind 1  a request built with ibw_build: opcode, PSN near the expected
 *           one, RETH into (or outside) the region with a right or wrong
 *           R_Key, AtomicETH, ImmDt/IETH, payload from the input;
 *   kind 2  let virtual time run (timers);
 *   kind 3  post another receive.
 *
 * Properties (the engine's own invariants):
 *   - everything the engine transmits parses with good CRCs, is a response
 *     (or CNP) and goes to the connected remote QP;
 *   - nothing is written outside registered memory: the guard areas stay
 *     as they were;
 *   - every completion names our QP and CQ, a known status, a receive
 *     (nothing was posted to the send queue), a length that fits the
 *     buffers;
 *   - the receive counter equals the packets delivered;
 *   - restoring the world puts it back: the engine's counters are those
 *     of the snapshot at the start of every input.
 */
#include <ibwire/packet.h>

#include "engine.h"
#include "fuzz_common.h"

#define REMOTE_QPN 0x99u
#define REGION 8192u
#define GUARD 4096u
#define GUARD_BYTE 0xC3u

struct ctx {
    struct ibe_engine *e;
    enum ibw_link link;
    uint64_t tx;
};

static void on_tx(void *user, struct ibe_engine *from, const uint8_t *pkt,
                  size_t len)
{
    struct ctx *c = user;
    struct ibw_pkt v;
    FUZZ_CHECK(from == c->e);
    c->tx++;
    int rc = ibw_parse(pkt, len, c->link, &v);
    if (rc != IBW_OK)
        fprintf(stderr, "engine sent a bad packet: %s %s.%s\n",
                ibw_strerror(rc), v.err_hdr, v.err_field ? v.err_field : "");
    FUZZ_CHECK(rc == IBW_OK && ibw_pkt_has(&v, IBW_HDR_BTH));
    FUZZ_CHECK(v.icrc_status == IBW_CRC_GOOD);
    FUZZ_CHECK(!ibw_pkt_has(&v, IBW_HDR_LRH) || v.vcrc_status == IBW_CRC_GOOD);
    const struct ibw_opcode_info *op = ibw_pkt_opcode_info(&v);
    FUZZ_CHECK((op->flags & IBW_OPF_RESPONSE) || v.opcode == IBW_OP_CNP);
    FUZZ_CHECK(ibw_bth_get_destqp(ibw_pkt_hdr(&v, IBW_HDR_BTH)) == REMOTE_QPN);
}

static uint64_t region_va, guard_lo, guard_hi;
static uint32_t region_lkey, region_rkey;

static void post_recv(struct ibe_engine *e, uint32_t qpn, struct fuzz_in *in)
{
    struct ibe_recv_wr r;
    memset(&r, 0, sizeof r);
    r.wr_id = fuzz_u8(in);
    r.num_sge = 1 + fuzz_u8(in) % 2;
    for (unsigned i = 0; i < r.num_sge; i++) {
        uint32_t off = (uint32_t)(fuzz_u8(in) * 16u) % REGION;
        r.sg[i].addr = region_va + off;
        r.sg[i].length = (REGION - off) / 2;
        r.sg[i].lkey = region_lkey;
    }
    (void)ibe_post_recv(e, qpn, &r); /* a full ring is fine */
}

/* Request opcodes a responder handles, plus two it must refuse. */
static const uint8_t request_ops[] = {
    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09,
    0x0A, 0x0B, 0x0C, 0x13, 0x14, 0x16, 0x17, 0x10, 0x11};

static size_t build_request(struct fuzz_in *in, uint8_t qp_type,
                            uint32_t qpn, uint32_t psn, int native,
                            uint8_t *out, size_t cap)
{
    struct ibw_build_spec s;
    memset(&s, 0, sizeof s);
    s.transport = native ? IBW_TK_IB_LOCAL : IBW_TK_ROCE_V2_IP4;
    uint8_t pick = fuzz_u8(in);
    uint8_t op = request_ops[pick % sizeof request_ops];
    if (qp_type == IBE_UC)
        op = (uint8_t)(op | 0x20);
    else if (qp_type == IBE_UD)
        op = 0x64 | (pick & 1); /* UD SEND ONLY (with immediate) */
    if (pick & 0x80)
        op = fuzz_u8(in); /* anything, reserved opcodes included */
    s.bth.opcode = op;
    s.bth.pkey = fuzz_u8(in) & 0x40 ? (uint16_t)fuzz_u64(in) : 0xFFFF;
    s.bth.destqp = qpn;
    int8_t delta = (int8_t)fuzz_u8(in);
    uint32_t step = (uint32_t)(int32_t)(delta / 16); /* mostly 0, +-7 */
    s.bth.psn = (psn + step) & 0xFFFFFFu;
    s.bth.ackreq = fuzz_u8(in) & 1;
    s.bth.se = fuzz_u8(in) & 1;
    uint8_t where = fuzz_u8(in);
    s.reth.va = where & 0x80 ? fuzz_u64(in)
                             : region_va + (uint64_t)(fuzz_u8(in) * 32u);
    s.reth.rkey = where & 0x40 ? (uint32_t)fuzz_u64(in) : region_rkey;
    s.reth.dmalen = where & 0x20 ? (uint32_t)fuzz_u64(in) : fuzz_u8(in) * 8u;
    s.atomiceth.va = s.reth.va & ~(uint64_t)(where & 0x10 ? 0 : 7);
    s.atomiceth.rkey = s.reth.rkey;
    s.atomiceth.swapdt = fuzz_u64(in);
    s.atomiceth.cmpdt = fuzz_u64(in);
    s.immdt.imm = (uint32_t)fuzz_u64(in);
    s.ieth.rkey = region_rkey;
    s.deth.qkey = (uint32_t)fuzz_u64(in);
    s.deth.srcqp = REMOTE_QPN;
    s.lrh.dlid = 1;
    s.lrh.slid = 2;
    size_t plen = fuzz_u8(in) * 4u + (where & 3);
    if (plen > in->left)
        plen = in->left;
    s.payload = in->p;
    s.payload_len = plen;
    in->p += plen;
    in->left -= plen;
    size_t n = 0;
    if (ibw_build(&s, out, cap, &n) != IBW_OK)
        return 0;
    return n;
}

/* Raw bytes aimed at our QP, with CRCs made right when they can be. */
static size_t aim_raw(struct fuzz_in *in, uint32_t qpn, enum ibw_link link,
                      uint8_t *out, size_t cap)
{
    size_t len = (size_t)fuzz_u8(in) * 4u;
    if (len > in->left)
        len = in->left;
    if (len > cap)
        len = cap;
    memcpy(out, in->p, len);
    in->p += len;
    in->left -= len;
    struct ibw_pkt v;
    ibw_parse_flags(out, len, link, IBW_PARSE_NO_CRC, &v);
    if (ibw_pkt_has(&v, IBW_HDR_BTH)) {
        ibw_bth_set_destqp(out + v.off[IBW_HDR_BTH], qpn);
        ibw_parse_flags(out, len, link, IBW_PARSE_NO_CRC, &v);
        ibw_pkt_store_crcs(out, &v);
    }
    return len;
}

/* A world as byte 0 of an input configures it, kept for every input that
 * starts with the same byte. */
struct world {
    struct ibe_world *w;
    struct ibe_engine *e;
    struct ibe_snapshot *snap;
    struct ctx c;
    uint32_t cq, qpn;
    uint8_t qp_type;
    int native;
};

static struct world *build_world(uint8_t cfg)
{
    struct world *s = calloc(1, sizeof *s);
    FUZZ_CHECK(s != NULL);
    s->native = cfg & 1;
    static const uint8_t types[] = {IBE_RC, IBE_RC, IBE_UC, IBE_UD};
    s->qp_type = types[(cfg >> 1) & 3];
    uint32_t rq_psn = (uint32_t)(cfg >> 3) * 0x7FFFFu & 0xFFFFFF;

    s->w = ibe_world_create(1);
    FUZZ_CHECK(s->w != NULL);
    struct ibe_config ec;
    memset(&ec, 0, sizeof ec);
    ec.mem_bytes = 1u << 20;
    ec.framing = s->native ? IBE_FRAME_IB : IBE_FRAME_ROCEV2;
    ec.lid = 1;
    ec.ipv4 = 0x0A000001;
    struct ibe_engine *e = ibe_engine_create(s->w, &ec);
    FUZZ_CHECK(e != NULL);
    if (cfg & 8)
        ibe_engine_set_latency_profile(e, IBE_LATENCY_DOCUMENTS);
    s->e = e;
    s->c = (struct ctx){e, s->native ? IBW_LINK_IB : IBW_LINK_ETHERNET, 0};
    ibe_engine_set_tx(e, on_tx, &s->c);

    /* the same addresses and keys in every world (one allocation order) */
    guard_lo = ibe_mem_alloc(e, GUARD, 64);
    region_va = ibe_mem_alloc(e, REGION, 64);
    guard_hi = ibe_mem_alloc(e, GUARD, 64);
    memset(ibe_mem_ptr(e, guard_lo, GUARD), GUARD_BYTE, GUARD);
    memset(ibe_mem_ptr(e, guard_hi, GUARD), GUARD_BYTE, GUARD);
    FUZZ_CHECK(ibe_mr_reg(e, 1, region_va, REGION, 0xF, &region_lkey,
                          &region_rkey) == 0);
    s->cq = ibe_cq_create(e, 64);
    struct ibe_qp_attr qa;
    memset(&qa, 0, sizeof qa);
    qa.type = s->qp_type;
    qa.pd = 1;
    qa.send_cq = qa.recv_cq = s->cq;
    qa.sq_depth = qa.rq_depth = 16;
    qa.qkey = 0x11111111;
    qa.pkey = 0xFFFF;
    s->qpn = ibe_qp_create(e, &qa);
    FUZZ_CHECK(s->qpn >= 2);
    struct ibe_qp_conn conn;
    memset(&conn, 0, sizeof conn);
    conn.remote_qpn = REMOTE_QPN;
    conn.rq_psn = rq_psn;
    conn.pmtu = 256u << (cfg >> 6);
    conn.retry_cnt = 3;
    conn.rnr_retry = 2;
    conn.timeout = 10;
    conn.min_rnr_timer = 1;
    FUZZ_CHECK(ibe_qp_connect(e, s->qpn, &conn) == 0);
    s->snap = ibe_world_snapshot(s->w);
    FUZZ_CHECK(s->snap != NULL);
    return s;
}

static struct world *worlds[256];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint8_t frame[4096 + 256];
    struct fuzz_in in = {data, size};
    uint8_t cfg = fuzz_u8(&in);
    if (!worlds[cfg])
        worlds[cfg] = build_world(cfg);
    struct world *s = worlds[cfg];
    FUZZ_CHECK(ibe_world_restore(s->w, s->snap) == 0);
    FUZZ_CHECK(ibe_engine_stats(s->e)->pkts_rx == 0);
    struct ibe_world *w = s->w;
    struct ibe_engine *e = s->e;
    s->c.tx = 0;
    int native = s->native;
    uint8_t qp_type = s->qp_type;
    uint32_t qpn = s->qpn, cq = s->cq;
    uint32_t rq_psn = (uint32_t)(cfg >> 3) * 0x7FFFFu & 0xFFFFFF;
    for (unsigned i = 0; i < 4; i++)
        post_recv(e, qpn, &in);

    uint64_t fed = 0;
    uint32_t psn = rq_psn;
    for (unsigned steps = 0; in.left && steps < 64; steps++) {
        uint8_t kind = fuzz_u8(&in) & 3;
        size_t n = 0;
        if (kind == 0)
            n = aim_raw(&in, qpn, s->c.link, frame, sizeof frame);
        else if (kind == 1)
            n = build_request(&in, qp_type, qpn, psn, native, frame,
                              sizeof frame);
        else if (kind == 2)
            ibe_world_run_until(w, ibe_now(w) + ((uint64_t)fuzz_u8(&in) << 16));
        else
            post_recv(e, qpn, &in);
        if (n) {
            ibe_engine_receive(e, frame, n);
            fed++;
            psn = (psn + 1) & 0xFFFFFF;
        }
        ibe_world_run(w, 100000);
    }
    ibe_world_run_until(w, ibe_now(w) + 100000000u);
    ibe_world_run(w, 1000000);

    FUZZ_CHECK(ibe_engine_stats(e)->pkts_rx == fed);
    /* one memcmp per guard area, not a loop over its bytes: under
     * -fsanitize=fuzzer every compare of that loop called the coverage
     * tracer (8,192 bytes, three traced compares each), a third of the
     * harness's time per input */
    static uint8_t guard_image[GUARD];
    if (!guard_image[0])
        memset(guard_image, GUARD_BYTE, GUARD);
    FUZZ_CHECK(!memcmp(ibe_mem_ptr(e, guard_lo, GUARD), guard_image, GUARD));
    FUZZ_CHECK(!memcmp(ibe_mem_ptr(e, guard_hi, GUARD), guard_image, GUARD));
    struct ibe_wc wc[16];
    int got;
    while ((got = ibe_poll_cq(e, cq, wc, 16)) > 0)
        for (int i = 0; i < got; i++) {
            FUZZ_CHECK(wc[i].qpn == qpn && !wc[i].is_send);
            FUZZ_CHECK(wc[i].opcode == IBE_WR_RECV ||
                       wc[i].status != IBE_WC_SUCCESS ||
                       wc[i].opcode == IBE_WR_RDMA_WRITE_IMM);
            FUZZ_CHECK(wc[i].status <= IBE_WC_UNSUPPORTED_OP);
            FUZZ_CHECK(wc[i].status != IBE_WC_SUCCESS ||
                       wc[i].byte_len <= REGION);
        }
    return 0;
}
