/* SPDX-License-Identifier: Apache-2.0 */
/*
 * host_fuzzer.c - the host interface (catalog H1-H7): the WQE walker on
 * arbitrary queue memory, work requests built into WQEs and walked back,
 * and the CQE, HCR and doorbell formats.
 *
 * Input byte 0 modulo 3 chooses:
 *   0  walk: bytes 1-8 are the walk configuration (doorbell), the rest is
 *      the queue memory;
 *   1  build: up to four work requests drawn from the input are built into
 *      one queue, linked, and walked;
 *   2  formats: byte 1 picks a host format; typed and descriptor checks in
 *      both WQE byte orders, and the CQE -> work completion conversions.
 *
 * Walk properties: the result is one of the documented errors; every
 * entry's error names a field and a reason and points inside the queue or
 * at the doorbell; WQEs whose link was sound lie inside the queue, follow
 * their predecessor's NextSeg (offset, size, opcode, fence) and do not
 * overlap; DataSegs and inline data lie inside their WQE; IBW_OK means a
 * clean chain that ends; walking twice gives the same answer.
 * Build properties: whatever the builder accepts, the walker accepts, and
 * reads back the same opcode, size, fence, flags, immediate data, remote
 * address, atomic operands, UD address, gather list or inline bytes.
 */
#include <ibwire/host.h>

#include "format_check.h"
#include "fuzz_common.h"

#define WALK_CAP 64
#define QUEUE_BYTES (4 * IBW_WQE_MAX_UNITS * IBW_WQE_UNIT + 256)

static struct ibw_wqe_info infos[WALK_CAP], infos2[WALK_CAP];

/* Does entry wi's own extent lie inside the queue (its link was sound)? */
static int in_queue(const struct ibw_wqe_info *wi, size_t qlen)
{
    return wi->offset % IBW_WQE_UNIT == 0 && wi->size > 0 &&
           (uint64_t)wi->offset + (uint64_t)wi->size * IBW_WQE_UNIT <= qlen;
}

static void check_walk(const uint8_t *q, size_t qlen,
                       const struct ibw_wqe_walk_cfg *cfg, size_t cap)
{
    size_t count = 99, count2 = 98;
    int rc = ibw_wqe_walk(q, qlen, cfg, infos, cap, &count);
    if (cfg->layout > IBW_WQE_LAYOUT_MTHCA || cfg->queue > IBW_WQ_RECV ||
        (cfg->service != IBW_TR_RC && cfg->service != IBW_TR_UC &&
         cfg->service != IBW_TR_UD)) {
        FUZZ_CHECK(rc == IBW_E_UNSUPPORTED && count == 0);
        return;
    }
    FUZZ_CHECK(rc == IBW_OK || rc == IBW_E_OPCODE || rc == IBW_E_LENGTH ||
               rc == IBW_E_MALFORMED || rc == IBW_E_NOSPACE);
    FUZZ_CHECK(count >= 1 && count <= cap);
    int any_err = 0;
    for (size_t i = 0; i < count; i++) {
        const struct ibw_wqe_info *wi = &infos[i];
        FUZZ_CHECK(wi->index == i);
        if (wi->err) {
            any_err = 1;
            FUZZ_CHECK(wi->err == IBW_E_OPCODE || wi->err == IBW_E_LENGTH ||
                       wi->err == IBW_E_MALFORMED);
            FUZZ_CHECK(wi->err_field && wi->err_why);
            FUZZ_CHECK(wi->err_at == IBW_WQE_AT_DOORBELL ||
                       wi->err_at < qlen);
        }
        if (i + 1 < count) {
            /* Not the last: its link was sound and its NextSeg led on. */
            FUZZ_CHECK(in_queue(wi, qlen) && wi->next.nds != 0);
            const struct ibw_wqe_info *nx = &infos[i + 1];
            uint64_t want = ibw_wqe_next_offset(&wi->next, cfg->layout);
            FUZZ_CHECK(nx->offset == (want < UINT32_MAX ? want : UINT32_MAX));
            FUZZ_CHECK(nx->fence == wi->next.fence);
            if (cfg->queue == IBW_WQ_SEND)
                FUZZ_CHECK(nx->opcode == wi->next.nopcode &&
                           nx->size == wi->next.nds);
        }
        if (!in_queue(wi, qlen)) {
            FUZZ_CHECK(i + 1 == count && wi->err);
            continue;
        }
        uint64_t end = (uint64_t)wi->offset + (uint64_t)wi->size * 16;
        if (wi->nsge) {
            FUZZ_CHECK(wi->sge_offset >= wi->offset + IBW_WQE_UNIT);
            FUZZ_CHECK(wi->sge_offset + (uint64_t)wi->nsge * 16 <= end);
            struct ibw_wqe_data d;
            FUZZ_CHECK(ibw_wqe_info_sge(q, qlen, cfg->layout, wi,
                                        wi->nsge - 1, &d) == IBW_OK);
        }
        struct ibw_wqe_data d0;
        FUZZ_CHECK(ibw_wqe_info_sge(q, qlen, cfg->layout, wi, wi->nsge,
                                    &d0) == IBW_E_RANGE);
        if (wi->has_inline && wi->err != IBW_E_LENGTH)
            FUZZ_CHECK(wi->inline_offset + (uint64_t)wi->inline_len <= end);
        if (wi->has_inline)
            FUZZ_CHECK(wi->nsge == 0 && wi->total_len == wi->inline_len);
        /* WQEs the walk went through never overlap; the walk ends at the
         * first one that would, and flags it. */
        for (size_t k = 0; k < i; k++) {
            uint64_t a0 = infos[k].offset;
            uint64_t a1 = a0 + (uint64_t)infos[k].size * IBW_WQE_UNIT;
            if (!(end <= a0 || wi->offset >= a1))
                FUZZ_CHECK(i + 1 == count && wi->err == IBW_E_MALFORMED &&
                           wi->err_ref <= k);
        }
        if (cfg->queue == IBW_WQ_RECV)
            FUZZ_CHECK(!wi->has_raddr && !wi->has_atomic && !wi->has_ud &&
                       !wi->has_bind && !wi->has_inline);
    }
    if (rc == IBW_OK)
        FUZZ_CHECK(!any_err && infos[count - 1].next.nds == 0);
    if (rc == IBW_E_NOSPACE)
        FUZZ_CHECK(!any_err && count == cap);
    if (rc != IBW_OK && rc != IBW_E_NOSPACE)
        FUZZ_CHECK(any_err);
    FUZZ_CHECK(ibw_wqe_walk(q, qlen, cfg, infos2, cap, &count2) == rc);
    FUZZ_CHECK(count2 == count &&
               memcmp(infos, infos2, count * sizeof infos[0]) == 0);
}

static void mode_walk(const uint8_t *p, size_t len)
{
    struct fuzz_in in = {p, len < 8 ? len : 8};
    struct ibw_wqe_walk_cfg cfg;
    memset(&cfg, 0, sizeof cfg);
    uint8_t b = fuzz_u8(&in);
    cfg.layout = b & 1;
    cfg.queue = (b >> 1) & 1;
    static const uint8_t services[] = {IBW_TR_RC, IBW_TR_UC, IBW_TR_UD,
                                       IBW_TR_RC, IBW_TR_RD};
    cfg.service = services[(b >> 2) % 5];
    cfg.first_opcode = fuzz_u8(&in);
    cfg.first_size = fuzz_u8(&in);
    cfg.first_fence = fuzz_u8(&in) & 1;
    uint32_t off = (uint32_t)(fuzz_u8(&in) | fuzz_u8(&in) << 8);
    cfg.first_offset = off & 0x8000 ? off & 0x7FFF : off * 16u;
    size_t cap = 1 + fuzz_u8(&in) % WALK_CAP;
    const uint8_t *q = p + (len < 8 ? len : 8);
    size_t qlen = len < 8 ? 0 : len - 8;
    check_walk(q, qlen, &cfg, cap);
}

/* ---------------------------------------------------------------------- */

static uint8_t queue[QUEUE_BYTES];

struct built {
    struct ibw_send_wr wr;
    struct ibw_recv_wr rwr;
    struct ibw_sge sg[4];
    uint8_t inline_data[128];
    struct ibw_wqe_desc desc;
    uint32_t offset;
};

static void draw_wr(struct fuzz_in *in, struct built *b)
{
    static const uint32_t ops[] = {
        IBW_WR_RDMA_WRITE, IBW_WR_RDMA_WRITE_WITH_IMM, IBW_WR_SEND,
        IBW_WR_SEND_WITH_IMM, IBW_WR_RDMA_READ, IBW_WR_ATOMIC_CMP_AND_SWP,
        IBW_WR_ATOMIC_FETCH_AND_ADD, IBW_WR_BIND_MW, 7};
    memset(b, 0, sizeof *b);
    struct ibw_send_wr *wr = &b->wr;
    uint8_t c = fuzz_u8(in);
    wr->opcode = ops[c % 9];
    wr->send_flags = fuzz_u8(in) & 0xF;
    uint32_t nsge = fuzz_u8(in) % 5;
    uint64_t total = 0;
    for (uint32_t i = 0; i < nsge; i++) {
        b->sg[i].addr = fuzz_u64(in);
        b->sg[i].lkey = (uint32_t)fuzz_u64(in);
        uint8_t l = fuzz_u8(in);
        /* Mostly small lengths; sometimes huge ones near the limits. */
        b->sg[i].length = l & 0x80 ? (uint32_t)fuzz_u64(in) : l;
        if (wr->opcode == IBW_WR_ATOMIC_CMP_AND_SWP ||
            wr->opcode == IBW_WR_ATOMIC_FETCH_AND_ADD)
            b->sg[i].length = l & 0x40 ? l : 8;
        total += b->sg[i].length;
    }
    wr->sg_list = nsge ? b->sg : NULL;
    wr->num_sge = nsge;
    wr->inline_len = fuzz_u8(in) % (sizeof b->inline_data + 1);
    for (uint32_t i = 0; i < wr->inline_len; i++)
        b->inline_data[i] = fuzz_u8(in);
    wr->inline_data = b->inline_data;
    wr->imm_data = (uint32_t)fuzz_u64(in);
    wr->remote_qpn = (uint32_t)fuzz_u64(in);
    wr->remote_qkey = (uint32_t)fuzz_u64(in);
    wr->ah.dlid = (uint16_t)fuzz_u64(in);
    wr->ah.slid = (uint16_t)fuzz_u64(in);
    wr->ah.port = fuzz_u8(in);
    wr->ah.eth = fuzz_u8(in) & 1;
    for (unsigned i = 0; i < 6; i++) {
        wr->ah.dmac[i] = fuzz_u8(in);
        wr->ah.smac[i] = fuzz_u8(in);
    }
    wr->ah.sip = (uint32_t)fuzz_u64(in);
    wr->ah.dip = (uint32_t)fuzz_u64(in);
    wr->rdma.remote_addr = fuzz_u64(in);
    wr->rdma.rkey = (uint32_t)fuzz_u64(in);
    uint64_t data = wr->send_flags & IBW_SEND_INLINE ? wr->inline_len : total;
    wr->rdma.length = fuzz_u8(in) & 0x80 ? (uint32_t)fuzz_u64(in)
                                           : (uint32_t)data;
    wr->atomic.remote_addr = fuzz_u64(in);
    wr->atomic.rkey = (uint32_t)fuzz_u64(in);
    wr->atomic.compare_add = fuzz_u64(in);
    wr->atomic.swap = fuzz_u64(in);
    wr->bind.new_rkey = (uint32_t)fuzz_u64(in);
    wr->bind.mr_lkey = (uint32_t)fuzz_u64(in);
    wr->bind.addr = fuzz_u64(in);
    wr->bind.length = fuzz_u64(in);
    wr->bind.access = fuzz_u8(in);
    b->rwr.sg_list = wr->sg_list;
    b->rwr.num_sge = nsge;
}

/* The walked WQE says what its WR said. */
static void check_built_send(const struct built *b,
                             const struct ibw_wqe_info *wi, unsigned layout,
                             unsigned service, const struct ibw_wqe_next *nx)
{
    const struct ibw_send_wr *wr = &b->wr;
    uint8_t op = 0;
    FUZZ_CHECK(ibw_wr_to_wqe_opcode(wr->opcode, &op) == IBW_OK);
    FUZZ_CHECK(wi->opcode == op && wi->size == b->desc.size &&
               wi->offset == b->offset);
    FUZZ_CHECK(nx->cq_update == !!(wr->send_flags & IBW_SEND_SIGNALED));
    FUZZ_CHECK(nx->solicit == !!(wr->send_flags & IBW_SEND_SOLICITED));
    if (op == IBW_WQE_OP_SEND_IMM || op == IBW_WQE_OP_RDMA_WRITE_IMM)
        FUZZ_CHECK(nx->imm == wr->imm_data);
    int atomic = op == IBW_WQE_OP_ATOMIC_CS || op == IBW_WQE_OP_ATOMIC_FA;
    FUZZ_CHECK(wi->has_ud == (service == IBW_TR_UD &&
                              (op == IBW_WQE_OP_SEND ||
                               op == IBW_WQE_OP_SEND_IMM)));
    if (wi->has_ud)
        FUZZ_CHECK(wi->ud.dqpn == wr->remote_qpn &&
                   wi->ud.qkey == wr->remote_qkey);
    if (wi->has_raddr) {
        FUZZ_CHECK(wi->raddr.raddr == (atomic ? wr->atomic.remote_addr
                                              : wr->rdma.remote_addr));
        FUZZ_CHECK(wi->raddr.rkey == (atomic ? wr->atomic.rkey
                                             : wr->rdma.rkey));
    }
    FUZZ_CHECK(wi->has_atomic == atomic);
    if (op == IBW_WQE_OP_ATOMIC_CS)
        FUZZ_CHECK(wi->atomic.swap_add == wr->atomic.swap &&
                   wi->atomic.compare == wr->atomic.compare_add);
    if (op == IBW_WQE_OP_ATOMIC_FA)
        FUZZ_CHECK(wi->atomic.swap_add == wr->atomic.compare_add);
    FUZZ_CHECK(wi->has_bind == (op == IBW_WQE_OP_BIND_MW));
    if (wi->has_bind)
        FUZZ_CHECK(wi->bind.new_rkey == wr->bind.new_rkey &&
                   wi->bind.lkey == wr->bind.mr_lkey &&
                   wi->bind.addr == wr->bind.addr &&
                   wi->bind.length == wr->bind.length);
    if (wr->send_flags & IBW_SEND_INLINE && wr->inline_len) {
        FUZZ_CHECK(wi->has_inline && wi->inline_len == wr->inline_len);
        FUZZ_CHECK(memcmp(queue + wi->inline_offset, wr->inline_data,
                          wr->inline_len) == 0);
        return;
    }
    if (wr->send_flags & IBW_SEND_INLINE)
        return; /* an empty InlineSeg: nothing more to compare */
    FUZZ_CHECK(!wi->has_inline && wi->nsge == wr->num_sge);
    uint64_t total = 0;
    for (uint32_t k = 0; k < wr->num_sge; k++) {
        struct ibw_wqe_data d;
        FUZZ_CHECK(ibw_wqe_info_sge(queue, sizeof queue, layout, wi, k, &d) ==
                   IBW_OK);
        FUZZ_CHECK(d.addr == wr->sg_list[k].addr &&
                   d.lkey == wr->sg_list[k].lkey &&
                   d.byte_count == wr->sg_list[k].length && !d.inline_flag);
        total += wr->sg_list[k].length;
    }
    FUZZ_CHECK(wi->total_len == total);
}

static void mode_build(const uint8_t *p, size_t len)
{
    static struct built b[4];
    struct fuzz_in in = {p, len};
    uint8_t c = fuzz_u8(&in);
    unsigned layout = c & 1;
    unsigned recv = (c >> 1) & 1;
    static const uint8_t services[] = {IBW_TR_RC, IBW_TR_UC, IBW_TR_UD};
    unsigned service = services[(c >> 2) % 3];
    unsigned n = 1 + (c >> 4) % 4;
    unsigned align = layout == IBW_WQE_LAYOUT_MTHCA ? 64 : 16;
    uint32_t at = (uint32_t)(fuzz_u8(&in) % 4) * align;
    unsigned built = 0;
    memset(queue, 0, sizeof queue);
    for (unsigned i = 0; i < n; i++) {
        struct built *w = &b[built];
        draw_wr(&in, w);
        w->offset = at;
        int rc = recv ? ibw_wqe_build_recv(&w->rwr, layout, queue + at,
                                           sizeof queue - at, &w->desc)
                      : ibw_wqe_build_send(&w->wr, layout, service,
                                           queue + at, sizeof queue - at,
                                           &w->desc);
        if (rc != IBW_OK)
            continue;
        FUZZ_CHECK(w->desc.size >= 1 && w->desc.size <= IBW_WQE_MAX_UNITS);
        if (built)
            FUZZ_CHECK(ibw_wqe_link(queue + b[built - 1].offset, IBW_WQE_UNIT,
                                    layout, &w->desc, at) == IBW_OK);
        built++;
        at += ((w->desc.size * 16u + align - 1) / align) * align;
    }
    if (!built)
        return;
    struct ibw_wqe_walk_cfg cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.layout = (uint8_t)layout;
    cfg.queue = (uint8_t)recv;
    cfg.service = (uint8_t)service;
    cfg.first_opcode = b[0].desc.opcode;
    cfg.first_size = b[0].desc.size;
    cfg.first_fence = b[0].desc.fence;
    cfg.first_offset = b[0].offset;
    size_t count = 0;
    int rc = ibw_wqe_walk(queue, sizeof queue, &cfg, infos, WALK_CAP, &count);
    if (rc != IBW_OK)
        for (size_t i = 0; i < count; i++)
            if (infos[i].err)
                fprintf(stderr, "WQE %zu at %u: %s: %s\n", i,
                        infos[i].offset, infos[i].err_field,
                        infos[i].err_why);
    FUZZ_CHECK(rc == IBW_OK && count == built);
    for (unsigned i = 0; i < built; i++) {
        const struct ibw_wqe_info *wi = &infos[i];
        FUZZ_CHECK(wi->fence == b[i].desc.fence);
        if (recv) {
            FUZZ_CHECK(wi->offset == b[i].offset && wi->size == b[i].desc.size &&
                       wi->nsge == b[i].rwr.num_sge);
            continue;
        }
        check_built_send(&b[i], wi, layout, service, &wi->next);
    }
    check_walk(queue, sizeof queue, &cfg, WALK_CAP);
}

/* ---------------------------------------------------------------------- */

/* The host formats by kind: bus-order records (WQE segments, HanGu CQEs)
 * and wire-order formats (ConnectX-3 CQEs, HCR, doorbells). */
#define HOST_RECORDS(X)                                                      \
    X(ibw_wqe_next) X(ibw_wqe_raddr) X(ibw_wqe_atomic) X(ibw_wqe_ud)         \
    X(ibw_wqe_data) X(ibw_wqe_inline) X(ibw_wqe_bind) X(ibw_hg_cqe)          \
    X(ibw_hg_err_cqe) X(ibw_hg_err_cqe_doc)
#define HOST_WIRE(X)                                                         \
    X(ibw_cx3_gmp_ctrl) X(ibw_cx3_data) X(ibw_cx3_cqe) X(ibw_cx3_err_cqe)    \
    X(ibw_hcr) X(ibw_uar_send_db) X(ibw_uar_cq_db)

HOST_RECORDS(RECORD_TYPED_DEFINE)
HOST_WIRE(WIRE_TYPED_DEFINE)

/* Segment bytes in either byte order: read -> write keeps the listed bits,
 * and the layout conversion itself is a bijection. */
#define SEG_IO_DEFINE(pfx)                                                   \
    static void seg_io_##pfx(const uint8_t *p, size_t len)                  \
    {                                                                        \
        enum { N = pfx##_WORDS * 4 };                                        \
        struct pfx s;                                                        \
        uint8_t out[N];                                                      \
        uint32_t w[pfx##_WORDS], w2[pfx##_WORDS], mask[pfx##_WORDS];         \
        for (unsigned layout = 0; layout < 2; layout++) {                    \
            if (len < N) {                                                   \
                FUZZ_CHECK(pfx##_decode_layout(p, len, layout, &s) == IBW_E_TRUNCATED);\
                continue;                                                    \
            }                                                                \
            FUZZ_CHECK(pfx##_decode_layout(p, len, layout, &s) == IBW_OK);            \
            FUZZ_CHECK(pfx##_encode_layout(&s, layout, out, N - 1) == IBW_E_NOSPACE);\
            FUZZ_CHECK(pfx##_encode_layout(&s, layout, out, N) == IBW_OK);           \
            ibw_wqe_seg_load(pfx##_format(), layout, p, w);                  \
            ibw_wqe_seg_load(pfx##_format(), layout, out, w2);               \
            fmt_mask_record(pfx##_format(), mask);                           \
            for (size_t i = 0; i < pfx##_WORDS; i++)                         \
                FUZZ_CHECK_AT(w2[i] == (w[i] & mask[i]), #pfx);              \
            ibw_wqe_seg_store(pfx##_format(), layout, w, out);               \
            FUZZ_CHECK_AT(memcmp(out, p, N) == 0, #pfx " load/store");       \
        }                                                                    \
    }
HOST_RECORDS(SEG_IO_DEFINE)

struct host_case {
    const struct ibw_format *(*format)(void);
    void (*record)(const uint32_t *w);
    void (*seg_io)(const uint8_t *p, size_t len);
    void (*wire)(const uint8_t *p, size_t len);
};
#define HOST_REC_CASE(pfx) {pfx##_format, typed_##pfx, seg_io_##pfx, NULL},
#define HOST_WIRE_CASE(pfx) {pfx##_format, NULL, NULL, typed_##pfx},
static const struct host_case cases[] = {HOST_RECORDS(HOST_REC_CASE)
                                             HOST_WIRE(HOST_WIRE_CASE)};
#define N_CASES (sizeof cases / sizeof cases[0])

#define COUNT_ONE(pfx) +1
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    /* A format added to IBW_HOST_FORMATS needs a line above. */
    if (N_CASES != 0 IBW_HOST_FORMATS(COUNT_ONE))
        fprintf(stderr, "host_fuzzer: IBW_HOST_FORMATS has formats this "
                        "harness does not list\n");
    for (size_t i = 0; i < N_CASES; i++)
        wire_check_coverage(cases[i].format(), 0);
    return 0;
}

/* The small helpers around the formats: the error-CQE layout converters,
 * the ConnectX-3 GMP WQE builder, the HCR state machine and status. */
static void check_helpers(const uint8_t *p, struct fuzz_in *v)
{
    struct ibw_hg_err_cqe rtl, back;
    struct ibw_hg_err_cqe_doc doc, doc2;
    FUZZ_CHECK(ibw_hg_err_cqe_decode(p, IBW_HG_CQE_BYTES, &rtl) == IBW_OK);
    ibw_hg_err_cqe_to_doc(&rtl, &doc);
    ibw_hg_err_cqe_from_doc(&doc, &back);
#define SAME(a, b)                                                           \
    ((a).my_qpn == (b).my_qpn && (a).syndrome == (b).syndrome &&             \
     (a).vendor_err == (b).vendor_err && (a).wqe == (b).wqe &&               \
     (a).opcode == (b).opcode && (a).owner == (b).owner)
    FUZZ_CHECK(SAME(rtl, back));
    FUZZ_CHECK(ibw_hg_err_cqe_doc_decode(p, IBW_HG_CQE_BYTES, &doc) == IBW_OK);
    ibw_hg_err_cqe_from_doc(&doc, &back);
    ibw_hg_err_cqe_to_doc(&back, &doc2);
    /* db_cnt has no place in the RTL layout and comes back 0 */
    FUZZ_CHECK(SAME(doc, doc2) && doc2.db_cnt == 0);
#undef SAME

    struct ibw_cx3_gmp_req r;
    memset(&r, 0, sizeof r);
    r.owner = fuzz_u8(v);
    r.vl15 = fuzz_u8(v);
    r.sl = fuzz_u8(v);
    r.signaled = fuzz_u8(v) & 1;
    r.rlid = (uint16_t)fuzz_u64(v);
    r.lkey = (uint32_t)fuzz_u64(v);
    r.addr = fuzz_u64(v);
    uint8_t wqe[32];
    struct ibw_cx3_gmp_ctrl ctl;
    struct ibw_cx3_data d;
    FUZZ_CHECK(ibw_cx3_gmp_wqe_build(&r, wqe, 31) == IBW_E_NOSPACE);
    FUZZ_CHECK(ibw_cx3_gmp_wqe_build(&r, wqe, sizeof wqe) == IBW_OK);
    FUZZ_CHECK(ibw_cx3_gmp_ctrl_decode(wqe, 16, &ctl) == IBW_OK &&
               ibw_cx3_data_decode(wqe + 16, 16, &d) == IBW_OK);
    FUZZ_CHECK(ctl.owner == (r.owner & 1) && ctl.sl == (r.sl & 0xF) &&
               ctl.rlid == r.rlid && ctl.ds == 2 &&
               ctl.opcode == IBW_CX3_OPCODE_SEND);
    FUZZ_CHECK(d.byte_count == IBW_CX3_GMP_BYTES && d.lkey == r.lkey &&
               d.addr == r.addr);

    unsigned from = p[0] % 9, to = p[1] % 9;
    uint16_t op = 0xFFFF;
    int rc = ibw_hcr_modify_qp_opcode(from, to, &op);
    FUZZ_CHECK(rc == IBW_OK || rc == IBW_E_RANGE);
    if (from > IBW_HCR_QPS_ERR || to > IBW_HCR_QPS_ERR)
        FUZZ_CHECK(rc == IBW_E_RANGE);
    if (rc == IBW_OK && op)
        FUZZ_CHECK(ibw_hcr_opcode_name(op) != NULL);
    /* any status byte: a name or NULL, never a crash */
    (void)ibw_hcr_status_name(p[2]);
    (void)ibw_hg_hcr_status_name(p[3]);
    unsigned busy = (unsigned)ibw_hcr_busy(p, p[4]);
    FUZZ_CHECK(busy == (ibw_hcr_get_go(p) ||
                        ibw_hcr_get_t(p) == (p[4] & 1u)));
    FUZZ_CHECK((ibw_wqe_opcode_name(p[5]) != NULL) ==
               ibw_wqe_opcode_valid(p[5]));
}

static void mode_formats(const uint8_t *p, size_t len)
{
    if (len < 1)
        return;
    const struct host_case *c = &cases[p[0] % N_CASES];
    const struct ibw_format *fmt = c->format();
    size_t n = ibw_format_bytes(fmt);
    p++;
    len--;
    struct fuzz_in vals = {p + (len < n ? len : n), len < n ? 0 : len - n};
    if (c->wire) {
        c->wire(p, len);
        if (len >= n)
            check_wire_descriptors(fmt, p, &vals);
    } else {
        uint8_t image[FMT_MAX_BYTES] = {0};
        uint32_t w[FMT_MAX_BYTES / 4];
        memcpy(image, p, len < n ? len : n);
        ibw_rec_from_bytes(image, n / 4, w);
        c->record(w);
        c->seg_io(p, len);
        check_record_descriptors(fmt, w, &vals);
    }

    /* Completions: any 32 bytes are some CQE. */
    struct ibw_wc wc;
    int rc = ibw_hg_cqe_to_wc(p, len, &wc);
    FUZZ_CHECK(rc == IBW_OK || rc == IBW_E_OPCODE ||
               (rc == IBW_E_TRUNCATED && len < IBW_HG_CQE_BYTES));
    if (rc != IBW_E_TRUNCATED)
        FUZZ_CHECK(ibw_wc_status_name(wc.status) != NULL);
    rc = ibw_cx3_cqe_to_wc(p, len, &wc);
    FUZZ_CHECK(rc == IBW_OK || rc == IBW_E_OPCODE ||
               (rc == IBW_E_TRUNCATED && len < 32));
    uint8_t syn = 0;
    unsigned status = len ? p[0] % 24 : 0;
    if (ibw_cqe_status_to_syndrome(status, &syn) == IBW_OK)
        FUZZ_CHECK(ibw_cqe_syndrome_to_status(syn) == status);
    if (len >= IBW_HG_CQE_BYTES)
        check_helpers(p, &vals);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    switch (data[0] % 3) {
    case 0: mode_walk(data + 1, size - 1); break;
    case 1: mode_build(data + 1, size - 1); break;
    default: mode_formats(data + 1, size - 1); break;
    }
    return 0;
}
