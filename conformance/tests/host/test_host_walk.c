/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The WQE walker on queues built by hand, word by word: the words are
 * computed in the comments from the H1/H2 layout (NextSeg word 0 =
 * nda << 6 | nopcode with nda in 16-byte units, word 1 = nds | F << 6,
 * word 2 = S << 1 | C << 3, word 3 = imm; DataSeg = length (bit 31 =
 * inline), L_Key, 64-bit address) and stored little-endian (HanGu) or
 * big-endian (mthca) by the small helpers below -- not by the code under
 * test.  Good chains, then one queue per kind of malformation, then random
 * bytes for the sanitizer build.
 */
#include "ibwire/host.h"
#include "testutil.h"
#include "xorshift.h"

#include <stdlib.h>

static const unsigned HG = IBW_WQE_LAYOUT_HANGU;
static const unsigned MT = IBW_WQE_LAYOUT_MTHCA;

static uint8_t q[0x400];
static int q_be;

static void w32(size_t off, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        q[off + (size_t)(q_be ? 3 - i : i)] = (uint8_t)(v >> (8 * i));
}
static void w64(size_t off, uint64_t v)
{
    /* LE: low word first; BE: high word first */
    w32(off + (q_be ? 4 : 0), (uint32_t)v);
    w32(off + (q_be ? 0 : 4), (uint32_t)(v >> 32));
}
static void next_seg(size_t off, uint32_t w0, uint32_t w1, uint32_t w2,
                     uint32_t imm)
{
    w32(off, w0);
    w32(off + 4, w1);
    w32(off + 8, w2);
    w32(off + 12, imm);
}
static void data_seg(size_t off, uint32_t len, uint32_t lkey, uint64_t addr)
{
    w32(off, len);
    w32(off + 4, lkey);
    w64(off + 8, addr);
}
static void reset(int be)
{
    memset(q, 0, sizeof q);
    q_be = be;
}

static struct ibw_wqe_walk_cfg sq_cfg(unsigned op, unsigned size)
{
    struct ibw_wqe_walk_cfg c = {(uint8_t)HG, IBW_WQ_SEND, IBW_TR_RC,
                                 (uint8_t)op, (uint8_t)size, 0, 0};
    return c;
}

static struct ibw_wqe_info wi[16];
static size_t n;

static void test_good_sq(void)
{
    reset(0);
    /* WQE 0 @0x00 SEND, 2 units.  NextSeg -> WRITE at 0x40 (nda 4), 3
     * units: w0 = 4 << 6 | 0x08 = 0x108, w1 = 3, w2 = C = 0x8 */
    next_seg(0x00, 0x108, 3, 0x8, 0);
    data_seg(0x10, 0x10, 1, 0x1000);
    /* WQE 1 @0x40 WRITE, 3 units.  -> READ at 0x80 (nda 8), 3 units,
     * fenced: w0 = 8 << 6 | 0x10 = 0x210, w1 = 3 | 0x40 = 0x43 */
    next_seg(0x40, 0x210, 0x43, 0, 0);
    w64(0x50, 0x9000); /* RaddrSeg */
    w32(0x58, 0x42);
    data_seg(0x60, 0x20, 2, 0x2000);
    /* WQE 2 @0x80 READ, 3 units, end of chain */
    next_seg(0x80, 0, 0, 0x2, 0);
    w64(0x90, 0xA000);
    w32(0x98, 0x43);
    data_seg(0xA0, 0x30, 3, 0x3000);

    struct ibw_wqe_walk_cfg cfg = sq_cfg(IBW_WQE_OP_SEND, 2);
    TU_EQ(ibw_wqe_walk(q, 0x100, &cfg, wi, 16, &n), IBW_OK);
    TU_EQ(n, 3);
    TU_EQ(wi[0].offset, 0x00);
    TU_EQ(wi[0].size, 2);
    TU_EQ(wi[0].opcode, IBW_WQE_OP_SEND);
    TU_EQ(wi[0].next.nopcode, IBW_WQE_OP_RDMA_WRITE);
    TU_EQ(wi[0].next.cq_update, 1);
    TU_EQ(wi[0].nsge, 1);
    TU_EQ(wi[0].sge_offset, 0x10);
    TU_EQ(wi[0].total_len, 0x10);
    TU_EQ(wi[0].err, IBW_OK);
    TU_EQ(wi[1].index, 1);
    TU_EQ(wi[1].offset, 0x40);
    TU_EQ(wi[1].size, 3);
    TU_EQ(wi[1].opcode, IBW_WQE_OP_RDMA_WRITE);
    TU_EQ(wi[1].fence, 0);
    TU_EQ(wi[1].has_raddr, 1);
    TU_EQ(wi[1].raddr.raddr, 0x9000);
    TU_EQ(wi[1].raddr.rkey, 0x42);
    TU_EQ(wi[1].sge_offset, 0x60);
    TU_EQ(wi[2].offset, 0x80);
    TU_EQ(wi[2].opcode, IBW_WQE_OP_RDMA_READ);
    TU_EQ(wi[2].fence, 1);
    TU_EQ(wi[2].next.solicit, 1);
    TU_EQ(wi[2].raddr.rkey, 0x43);
    TU_EQ(wi[2].total_len, 0x30);

    /* the same chain, mthca layout: words big-endian, nda = address >> 6
     * (0x40 -> 1, 0x80 -> 2) */
    reset(1);
    next_seg(0x00, 1u << 6 | 0x08, 3, 0x8, 0);
    data_seg(0x10, 0x10, 1, 0x1000);
    next_seg(0x40, 2u << 6 | 0x10, 0x43, 0, 0);
    w64(0x50, 0x0000123400009000ull);
    w32(0x58, 0x42);
    data_seg(0x60, 0x20, 2, 0x2000);
    next_seg(0x80, 0, 0, 0, 0);
    w64(0x90, 0xA000);
    w32(0x98, 0x43);
    data_seg(0xA0, 0x30, 3, 0x3000);
    cfg.layout = (uint8_t)MT;
    TU_EQ(ibw_wqe_walk(q, 0x100, &cfg, wi, 16, &n), IBW_OK);
    TU_EQ(n, 3);
    TU_EQ(wi[1].offset, 0x40);
    TU_EQ(wi[1].raddr.raddr, 0x0000123400009000ull);
    TU_EQ(wi[2].offset, 0x80);
    TU_EQ(wi[2].total_len, 0x30);

    /* capacity: the chain is 3 long */
    cfg.layout = (uint8_t)MT;
    TU_EQ(ibw_wqe_walk(q, 0x100, &cfg, wi, 2, &n), IBW_E_NOSPACE);
    TU_EQ(n, 2);
}

static void test_good_inline_ud_atomic(void)
{
    reset(0);
    /* SEND with 5 inline bytes, 2 units; header 0x80000005 */
    next_seg(0x00, 0x2u << 6 | 0x12, 4, 0, 0x01020304); /* -> FA @0x20 */
    w32(0x10, 0x80000005u);
    memcpy(q + 0x14, "hello", 5);
    /* FetchAdd @0x20: raddr, atomic (add 7), result buffer of 8 bytes */
    next_seg(0x20, 0, 0, 0, 0);
    w64(0x30, 0xB000);
    w32(0x38, 0x44);
    w64(0x40, 7);
    data_seg(0x50, 8, 4, 0x4000);
    struct ibw_wqe_walk_cfg cfg = sq_cfg(IBW_WQE_OP_SEND_IMM, 2);
    TU_EQ(ibw_wqe_walk(q, 0x100, &cfg, wi, 16, &n), IBW_OK);
    TU_EQ(n, 2);
    TU_EQ(wi[0].has_inline, 1);
    TU_EQ(wi[0].inline_len, 5);
    TU_EQ(wi[0].inline_offset, 0x14);
    TU_EQ(wi[0].next.imm, 0x01020304);
    TU_CHECK(memcmp(q + wi[0].inline_offset, "hello", 5) == 0);
    TU_EQ(wi[1].opcode, IBW_WQE_OP_ATOMIC_FA);
    TU_EQ(wi[1].has_atomic, 1);
    TU_EQ(wi[1].atomic.swap_add, 7);
    TU_EQ(wi[1].nsge, 1);

    /* UD SEND: NextSeg, UDSeg (3 units: dqpn at +0x20, qkey at +0x24),
     * one DataSeg = 5 units */
    reset(0);
    next_seg(0x00, 0, 0, 0, 0);
    w32(0x10, 1);          /* port */
    w32(0x14, 0x00220011); /* dlid 0x22 | slid 0x11 */
    w32(0x30, 0x123);      /* dqpn */
    w32(0x34, 0x80000001u);
    data_seg(0x40, 0x80, 5, 0x6000);
    cfg = sq_cfg(IBW_WQE_OP_SEND, 5);
    cfg.service = IBW_TR_UD;
    TU_EQ(ibw_wqe_walk(q, 0x100, &cfg, wi, 16, &n), IBW_OK);
    TU_EQ(n, 1);
    TU_EQ(wi[0].has_ud, 1);
    TU_EQ(wi[0].ud.dqpn, 0x123);
    TU_EQ(wi[0].ud.qkey, 0x80000001u);
    TU_EQ(wi[0].ud.dlid, 0x22);
    TU_EQ(wi[0].ud.slid, 0x11);
    TU_EQ(wi[0].sge_offset, 0x40);
    /* too short for the UDSeg */
    cfg.first_size = 3;
    TU_EQ(ibw_wqe_walk(q, 0x100, &cfg, wi, 16, &n), IBW_E_MALFORMED);
    TU_CHECK(strcmp(wi[0].err_field, "UDSeg") == 0);
    /* the missing segment is located at its WQE, as for RaddrSeg/BindSeg,
     * not at 0x10 where it would start */
    TU_EQ(wi[0].err_at, 0);
    /* A one-unit UD SEND filling a 16-byte queue: the UDSeg would start at
     * 0x10, the queue's end; err_at stays inside the queue (walker contract:
     * err_at < qlen). */
    cfg.first_size = 1;
    TU_EQ(ibw_wqe_walk(q, 0x10, &cfg, wi, 16, &n), IBW_E_MALFORMED);
    TU_EQ(n, 1);
    TU_CHECK(strcmp(wi[0].err_field, "UDSeg") == 0);
    TU_EQ(wi[0].err_at, 0);
}

static void test_good_rq(void)
{
    reset(0);
    /* WQE 0 @0: NextSeg -> 0x30 (nda 3), 3 units: w0 = 3 << 6 = 0xC0;
     * one DataSeg; terminator (16 zero bytes) */
    next_seg(0x00, 0xC0, 3, 0, 0);
    data_seg(0x10, 0x200, 1, 0x10000);
    /* WQE 1 @0x30: last; one DataSeg; terminator */
    data_seg(0x40, 0x100, 2, 0x20000);
    struct ibw_wqe_walk_cfg cfg = {(uint8_t)HG, IBW_WQ_RECV, IBW_TR_RC,
                                   0, 0, 0, 0}; /* size from the terminator */
    TU_EQ(ibw_wqe_walk(q, 0x100, &cfg, wi, 16, &n), IBW_OK);
    TU_EQ(n, 2);
    TU_EQ(wi[0].size, 3);
    TU_EQ(wi[0].nsge, 1);
    TU_EQ(wi[0].total_len, 0x200);
    TU_EQ(wi[1].offset, 0x30);
    TU_EQ(wi[1].total_len, 0x100);
    TU_EQ(wi[1].opcode, 0);

    /* mthca receive WQE: terminator is L_Key 0x100 */
    reset(1);
    next_seg(0x00, 0, 0x80, 0, 0);
    data_seg(0x10, 0x200, 1, 0x10000);
    data_seg(0x20, 0, 0x100, 0);
    cfg.layout = (uint8_t)MT;
    cfg.first_size = 3;
    TU_EQ(ibw_wqe_walk(q, 0x100, &cfg, wi, 16, &n), IBW_OK);
    TU_EQ(wi[0].nsge, 1);
    TU_EQ(wi[0].next.dbd, 1);
}

/* Expect a walk to fail with err on entry `at`, naming `field`. */
static void expect(const struct ibw_wqe_walk_cfg *cfg, size_t qlen, int ret,
                   size_t count, size_t at, int err, const char *field,
                   uint32_t err_at)
{
    n = 99;
    TU_EQ(ibw_wqe_walk(q, qlen, cfg, wi, 16, &n), ret);
    TU_EQ(n, count);
    if (n <= at)
        return;
    TU_EQ(wi[at].err, err);
    TU_CHECK(wi[at].err_field && strcmp(wi[at].err_field, field) == 0);
    TU_CHECK(wi[at].err_why && wi[at].err_why[0]);
    TU_EQ(wi[at].err_at, err_at);
    if (!wi[at].err_field || strcmp(wi[at].err_field, field) != 0)
        fprintf(stderr, "  got field %s (%s)\n",
                wi[at].err_field ? wi[at].err_field : "(none)",
                wi[at].err_why ? wi[at].err_why : "");
}

static void test_chain_errors(void)
{
    struct ibw_wqe_walk_cfg cfg;

    /* doorbell size runs past a 0x40-byte queue */
    reset(0);
    cfg = sq_cfg(IBW_WQE_OP_SEND, 5);
    expect(&cfg, 0x40, IBW_E_LENGTH, 1, 0, IBW_E_LENGTH, "doorbell.size",
           IBW_WQE_AT_DOORBELL);
    /* doorbell size 0 */
    cfg = sq_cfg(IBW_WQE_OP_SEND, 0);
    expect(&cfg, 0x40, IBW_E_LENGTH, 1, 0, IBW_E_LENGTH, "doorbell.size",
           IBW_WQE_AT_DOORBELL);
    /* doorbell offset outside, and misaligned */
    cfg = sq_cfg(IBW_WQE_OP_SEND, 1);
    cfg.first_offset = 0x40;
    expect(&cfg, 0x40, IBW_E_MALFORMED, 1, 0, IBW_E_MALFORMED,
           "doorbell.offset", IBW_WQE_AT_DOORBELL);
    cfg.first_offset = 0x08;
    expect(&cfg, 0x40, IBW_E_MALFORMED, 1, 0, IBW_E_MALFORMED,
           "doorbell.offset", IBW_WQE_AT_DOORBELL);

    /* NextSeg.nds overruns: WQE 0 (zero-length SEND, 1 unit) -> 0x20
     * (nda 2) with 5 units in a 0x40-byte queue: w0 = 2 << 6 | 0x0A */
    reset(0);
    next_seg(0x00, 0x8A, 5, 0, 0);
    cfg = sq_cfg(IBW_WQE_OP_SEND, 1);
    expect(&cfg, 0x40, IBW_E_LENGTH, 2, 1, IBW_E_LENGTH, "NextSeg.nds", 0);

    /* NextSeg.nda points outside: nda 0x10 -> 0x100 */
    reset(0);
    next_seg(0x00, 0x10u << 6 | 0x0A, 1, 0, 0);
    expect(&cfg, 0x40, IBW_E_MALFORMED, 2, 1, IBW_E_MALFORMED,
           "NextSeg.nda", 0);
    TU_EQ(wi[1].offset, 0x100);

    /* loop: 0x00 -> 0x10 -> 0x00 */
    reset(0);
    next_seg(0x00, 0x1u << 6 | 0x0A, 1, 0, 0);
    next_seg(0x10, 0x0u << 6 | 0x0A, 1, 0, 0);
    expect(&cfg, 0x40, IBW_E_MALFORMED, 3, 2, IBW_E_MALFORMED,
           "NextSeg.nda", 0x10);
    TU_EQ(wi[2].err_ref, 0);
    TU_CHECK(wi[2].err_why && strstr(wi[2].err_why, "loop") != NULL);

    /* overlap: WQE 0 has 2 units, its NextSeg points at 0x10 */
    reset(0);
    next_seg(0x00, 0x1u << 6 | 0x0A, 1, 0, 0);
    cfg = sq_cfg(IBW_WQE_OP_SEND, 2);
    expect(&cfg, 0x40, IBW_E_MALFORMED, 2, 1, IBW_E_MALFORMED,
           "NextSeg.nda", 0);
    TU_CHECK(wi[1].err_why && strstr(wi[1].err_why, "overlap") != NULL);

    /* unsupported configurations */
    cfg.service = IBW_TR_RD;
    TU_EQ(ibw_wqe_walk(q, 0x40, &cfg, wi, 16, &n), IBW_E_UNSUPPORTED);
    TU_EQ(n, 0);
    cfg.service = IBW_TR_RC;
    cfg.layout = 7;
    TU_EQ(ibw_wqe_walk(q, 0x40, &cfg, wi, 16, &n), IBW_E_UNSUPPORTED);
}

static void test_content_errors(void)
{
    struct ibw_wqe_walk_cfg cfg;

    /* bad opcode from the doorbell (0x1F) */
    reset(0);
    cfg = sq_cfg(0x1F, 1);
    expect(&cfg, 0x40, IBW_E_OPCODE, 1, 0, IBW_E_OPCODE, "doorbell.opcode",
           IBW_WQE_AT_DOORBELL);
    /* bad opcode from a NextSeg (0x05); the chain goes on to its end */
    next_seg(0x00, 0x1u << 6 | 0x05, 1, 0, 0);
    cfg = sq_cfg(IBW_WQE_OP_SEND, 1);
    expect(&cfg, 0x40, IBW_E_OPCODE, 2, 1, IBW_E_OPCODE, "NextSeg.nopcode",
           0);

    /* opcode not allowed on the service: RDMA WRITE on UD */
    reset(0);
    cfg = sq_cfg(IBW_WQE_OP_RDMA_WRITE, 3);
    cfg.service = IBW_TR_UD;
    expect(&cfg, 0x40, IBW_E_MALFORMED, 1, 0, IBW_E_MALFORMED,
           "doorbell.opcode", IBW_WQE_AT_DOORBELL);
    /* RDMA READ on UC */
    cfg = sq_cfg(IBW_WQE_OP_RDMA_READ, 3);
    cfg.service = IBW_TR_UC;
    expect(&cfg, 0x40, IBW_E_MALFORMED, 1, 0, IBW_E_MALFORMED,
           "doorbell.opcode", IBW_WQE_AT_DOORBELL);

    /* inline length past the WQE: 2 units, header says 20 bytes
     * (4 + 20 > 16) */
    reset(0);
    w32(0x10, 0x80000014u);
    cfg = sq_cfg(IBW_WQE_OP_SEND, 2);
    expect(&cfg, 0x40, IBW_E_LENGTH, 1, 0, IBW_E_LENGTH,
           "InlineSeg.byte_count", 0x10);
    /* units left over after the inline data: 3 units, 5 bytes */
    w32(0x10, 0x80000005u);
    cfg.first_size = 3;
    expect(&cfg, 0x40, IBW_E_MALFORMED, 1, 0, IBW_E_MALFORMED, "InlineSeg",
           0x10);

    /* inline data where the opcode forbids it: RDMA READ */
    reset(0);
    w32(0x20, 0x80000004u); /* after NextSeg + RaddrSeg */
    cfg = sq_cfg(IBW_WQE_OP_RDMA_READ, 3);
    expect(&cfg, 0x40, IBW_E_MALFORMED, 1, 0, IBW_E_MALFORMED, "InlineSeg",
           0x20);

    /* WRITE without room for its RaddrSeg */
    reset(0);
    cfg = sq_cfg(IBW_WQE_OP_RDMA_WRITE, 1);
    expect(&cfg, 0x40, IBW_E_MALFORMED, 1, 0, IBW_E_MALFORMED, "RaddrSeg",
           0);
    /* CmpSwap without its AtomicSeg */
    cfg = sq_cfg(IBW_WQE_OP_ATOMIC_CS, 2);
    expect(&cfg, 0x40, IBW_E_MALFORMED, 1, 0, IBW_E_MALFORMED, "AtomicSeg",
           0);
    /* an atomic with two scatter entries, and with a 16-byte one */
    reset(0);
    data_seg(0x30, 8, 1, 0x1000);
    data_seg(0x40, 8, 1, 0x2000);
    cfg = sq_cfg(IBW_WQE_OP_ATOMIC_FA, 5);
    expect(&cfg, 0x60, IBW_E_MALFORMED, 1, 0, IBW_E_MALFORMED, "DataSeg",
           0x40);
    data_seg(0x30, 16, 1, 0x1000);
    cfg.first_size = 4;
    expect(&cfg, 0x60, IBW_E_MALFORMED, 1, 0, IBW_E_MALFORMED,
           "DataSeg.byte_count", 0x30);
    /* NOP with a data segment, BIND_MW with one */
    reset(0);
    cfg = sq_cfg(IBW_WQE_OP_NOP, 2);
    expect(&cfg, 0x40, IBW_E_MALFORMED, 1, 0, IBW_E_MALFORMED, "DataSeg",
           0x10);
    cfg = sq_cfg(IBW_WQE_OP_BIND_MW, 4);
    expect(&cfg, 0x40, IBW_E_MALFORMED, 1, 0, IBW_E_MALFORMED, "DataSeg",
           0x30);
    cfg = sq_cfg(IBW_WQE_OP_BIND_MW, 2);
    expect(&cfg, 0x40, IBW_E_MALFORMED, 1, 0, IBW_E_MALFORMED, "BindSeg",
           0);
    /* the inline flag in a DataSeg that is not the first */
    reset(0);
    data_seg(0x10, 0x10, 1, 0x1000);
    data_seg(0x20, 0x80000010u, 1, 0x2000);
    cfg = sq_cfg(IBW_WQE_OP_SEND, 3);
    expect(&cfg, 0x40, IBW_E_MALFORMED, 1, 0, IBW_E_MALFORMED,
           "DataSeg.byte_count", 0x20);
    /* a 2 GiB message */
    reset(0);
    data_seg(0x10, 0x7FFFFFFF, 1, 0);
    data_seg(0x20, 1, 1, 0);
    expect(&cfg, 0x40, IBW_E_LENGTH, 1, 0, IBW_E_LENGTH,
           "DataSeg.byte_count", 0x10);
}

static void test_rq_errors(void)
{
    struct ibw_wqe_walk_cfg cfg = {(uint8_t)HG, IBW_WQ_RECV, IBW_TR_RC,
                                   0, 3, 0, 0};
    /* last unit not the terminator */
    reset(0);
    data_seg(0x10, 0x100, 1, 0x1000);
    data_seg(0x20, 0x100, 2, 0x2000);
    expect(&cfg, 0x40, IBW_E_MALFORMED, 1, 0, IBW_E_MALFORMED, "terminator",
           0x20);
    /* only a NextSeg */
    cfg.first_size = 1;
    expect(&cfg, 0x40, IBW_E_MALFORMED, 1, 0, IBW_E_MALFORMED, "terminator",
           0x00);
    /* terminator before the end */
    reset(0);
    data_seg(0x20, 0x100, 2, 0x2000);
    cfg.first_size = 4; /* 0x10 zero, 0x20 data, 0x30 zero */
    expect(&cfg, 0x40, IBW_E_MALFORMED, 1, 0, IBW_E_MALFORMED, "terminator",
           0x10);
    /* inline flag in a receive WQE */
    reset(0);
    data_seg(0x10, 0x80000004u, 1, 0);
    cfg.first_size = 3;
    expect(&cfg, 0x40, IBW_E_MALFORMED, 1, 0, IBW_E_MALFORMED,
           "DataSeg.byte_count", 0x10);
    /* no terminator within one 512-byte fetch */
    memset(q, 0xEE, sizeof q);
    cfg.first_size = 0;
    expect(&cfg, sizeof q, IBW_E_MALFORMED, 1, 0, IBW_E_MALFORMED,
           "terminator", 0x00);
    /* ... nor before the queue ends */
    expect(&cfg, 0x40, IBW_E_MALFORMED, 1, 0, IBW_E_MALFORMED, "terminator",
           0x00);
}

/* Random queues and configurations must never read out of bounds (the
 * sanitizer build checks) and every entry must lie inside the queue. */
static uint64_t rs = 0x243F6A8885A308D3ull;
static uint32_t rnd(void)
{
    return (uint32_t)(xorshift64_next(&rs) >> 16);
}

static void test_random(void)
{
    static uint8_t buf[0x200];
    size_t long_chains = 0;
    for (int iter = 0; iter < 20000; iter++) {
        size_t qlen = (rnd() % 0x20) * 16 + rnd() % 16;
        for (size_t i = 0; i < qlen; i++) {
            uint32_t r = rnd();
            /* many zero bytes and small values: more valid-looking chains */
            uint32_t small = (r & 4) ? 0x3F : 0;
            buf[i] = (uint8_t)((r & 3) ? (r >> 8) & small : r >> 8);
        }
        struct ibw_wqe_walk_cfg cfg;
        cfg.layout = (uint8_t)(rnd() & 1);
        /* plant plausible NextSegs so that chains get long */
        static const uint8_t ops[] = {0x0A, 0x0B, 0x08, 0x09, 0x10,
                                      0x11, 0x12, 0x18, 0x00, 0x1F};
        q_be = cfg.layout == MT;
        for (size_t u = 0; u + 16 <= qlen; u += 16) {
            if (rnd() & 1)
                continue;
            uint32_t units = (uint32_t)(qlen / (q_be ? 64 : 16)) + 1;
            uint32_t w0 = (rnd() % units) << 6 | ops[rnd() % sizeof ops];
            uint32_t w1 = (rnd() % 5) | (rnd() & 0x40);
            for (int i = 0; i < 4; i++) {
                buf[u + (size_t)(q_be ? 3 - i : i)] = (uint8_t)(w0 >> (8 * i));
                buf[u + 4 + (size_t)(q_be ? 3 - i : i)] =
                    (uint8_t)(w1 >> (8 * i));
            }
        }
        uint8_t *heap = qlen ? (uint8_t *)malloc(qlen) : NULL;
        if (qlen)
            memcpy(heap, buf, qlen);
        cfg.queue = (uint8_t)(rnd() & 1);
        cfg.service = (uint8_t)((rnd() % 3) == 2 ? IBW_TR_UD : rnd() & 1);
        cfg.first_opcode = ops[rnd() % sizeof ops];
        cfg.first_size = (uint8_t)(rnd() % 8);
        cfg.first_fence = 0;
        cfg.first_offset = (rnd() % 4) * 16;
        size_t cnt = 0;
        int r = ibw_wqe_walk(heap ? heap : buf, qlen, &cfg, wi, 16, &cnt);
        TU_CHECK(cnt <= 16);
        TU_CHECK(r <= 0);
        for (size_t k = 0; k < cnt; k++) {
            if (wi[k].err == IBW_OK) {
                TU_CHECK((size_t)wi[k].offset + wi[k].size * 16u <= qlen);
                TU_CHECK(wi[k].inline_offset + wi[k].inline_len <= qlen);
            }
            TU_CHECK(wi[k].err == IBW_OK || wi[k].err_field != NULL);
        }
        if (cnt >= 4)
            long_chains++;
        free(heap);
    }
    printf("random walks: %zu of 20000 reached 4 or more WQEs\n",
           long_chains);
    TU_CHECK(long_chains > 100); /* the generator reaches deep chains */
}

int main(void)
{
    test_good_sq();
    test_good_inline_ud_atomic();
    test_good_rq();
    test_chain_errors();
    test_content_errors();
    test_rq_errors();
    test_random();
    return tu_done("host_walk");
}
