/* SPDX-License-Identifier: Apache-2.0 */
/*
 * H7: every work-request kind turned into WQE bytes, compared with WQEs
 * written out by hand from the H1/H2 layout (HanGu: 32-bit words
 * little-endian; mthca: big-endian).  Segment order per mthca: NextSeg,
 * [UDSeg], [RaddrSeg], [AtomicSeg] / [BindSeg], DataSegs or one InlineSeg.
 * NextSeg word 2 carries S = bit 1, C = bit 3; word 3 the immediate.
 * Then the built WQEs are linked, walked and compared with the WRs.
 */
#include "ibwire/host.h"
#include "testutil.h"

static const unsigned HG = IBW_WQE_LAYOUT_HANGU;
static const unsigned MT = IBW_WQE_LAYOUT_MTHCA;

static struct ibw_send_wr blank_wr(unsigned opcode)
{
    struct ibw_send_wr wr;
    memset(&wr, 0, sizeof wr);
    wr.opcode = opcode;
    return wr;
}

static void build_and_compare(const struct ibw_send_wr *wr, unsigned lay,
                              unsigned service, const uint8_t *want,
                              size_t want_len, unsigned want_op,
                              unsigned want_fence)
{
    uint8_t out[1024];
    struct ibw_wqe_desc desc;
    memset(out, 0xA5, sizeof out);
    TU_EQ(ibw_wqe_build_send(wr, lay, service, out, sizeof out, &desc),
          IBW_OK);
    TU_EQ(desc.size * 16u, want_len);
    TU_EQ(desc.opcode, want_op);
    TU_EQ(desc.fence, want_fence);
    TU_MEMEQ(out, want, want_len);
    TU_EQ(out[want_len], 0xA5); /* nothing written past the WQE */
}

static void test_send(void)
{
    /* SEND, signaled + solicited, 2 SGEs (0x100 @0x1000 lkey 0x11,
     * 0x20 @0x200000000000 lkey 0x22), RC.
     * NextSeg: word 2 = S | C = 0x0A; DataSegs: len, lkey, addr (LE). */
    static const uint8_t want[48] = {
        0, 0, 0, 0, 0, 0, 0, 0, 0x0A, 0, 0, 0, 0, 0, 0, 0,
        0x00, 0x01, 0x00, 0x00, 0x11, 0x00, 0x00, 0x00,
        0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x20, 0x00, 0x00, 0x00, 0x22, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x20, 0x00, 0x00};
    static const struct ibw_sge sg[2] = {{0x1000, 0x100, 0x11},
                                         {0x200000000000ull, 0x20, 0x22}};
    struct ibw_send_wr wr = blank_wr(IBW_WR_SEND);
    wr.wr_id = 77;
    wr.send_flags = IBW_SEND_SIGNALED | IBW_SEND_SOLICITED;
    wr.sg_list = sg;
    wr.num_sge = 2;
    build_and_compare(&wr, HG, IBW_TR_RC, want, sizeof want,
                      IBW_WQE_OP_SEND, 0);

    /* the same in the mthca layout: every word big-endian */
    static const uint8_t want_be[48] = {
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x0A, 0, 0, 0, 0,
        0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x11,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00,
        0x00, 0x00, 0x00, 0x20, 0x00, 0x00, 0x00, 0x22,
        0x00, 0x00, 0x20, 0x00, 0x00, 0x00, 0x00, 0x00};
    build_and_compare(&wr, MT, IBW_TR_RC, want_be, sizeof want_be,
                      IBW_WQE_OP_SEND, 0);

    /* zero-length SEND: just the NextSeg */
    static const uint8_t want0[16] = {0};
    struct ibw_send_wr z = blank_wr(IBW_WR_SEND);
    build_and_compare(&z, HG, IBW_TR_UC, want0, 16, IBW_WQE_OP_SEND, 0);
}

static void test_send_imm_inline(void)
{
    /* SEND_WITH_IMM, inline "hello", fenced, UC; imm 0x01020304.
     * InlineSeg header 0x80000005 (LE 05 00 00 80), data, pad to 16. */
    static const uint8_t want[32] = {
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x04, 0x03, 0x02, 0x01,
        0x05, 0x00, 0x00, 0x80, 'h', 'e', 'l', 'l', 'o', 0, 0, 0,
        0,    0,    0,    0};
    static const uint8_t hello[5] = {'h', 'e', 'l', 'l', 'o'};
    struct ibw_send_wr wr = blank_wr(IBW_WR_SEND_WITH_IMM);
    wr.send_flags = IBW_SEND_INLINE | IBW_SEND_FENCE;
    wr.inline_data = hello;
    wr.inline_len = 5;
    wr.imm_data = 0x01020304;
    build_and_compare(&wr, HG, IBW_TR_UC, want, sizeof want,
                      IBW_WQE_OP_SEND_IMM, 1);

    /* 12 inline bytes fill the first unit exactly (4 + 12 = 16) */
    static const uint8_t twelve[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    static const uint8_t want12[32] = {
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0x0C, 0, 0, 0x80, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    struct ibw_send_wr w12 = blank_wr(IBW_WR_SEND);
    w12.send_flags = IBW_SEND_INLINE;
    w12.inline_data = twelve;
    w12.inline_len = 12;
    build_and_compare(&w12, HG, IBW_TR_RC, want12, sizeof want12,
                      IBW_WQE_OP_SEND, 0);
}

static void test_write_read(void)
{
    /* RDMA_WRITE_WITH_IMM: raddr 0x0000700000001000, rkey 0x5555,
     * length 0x40, one SGE 0x40 @0x3000 lkey 0x66, imm 0xAABBCCDD */
    static const uint8_t want_w[48] = {
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xDD, 0xCC, 0xBB, 0xAA,
        0x00, 0x10, 0x00, 0x00, 0x00, 0x70, 0x00, 0x00,
        0x55, 0x55, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x40, 0x00, 0x00, 0x00, 0x66, 0x00, 0x00, 0x00,
        0x00, 0x30, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
    static const struct ibw_sge sw[1] = {{0x3000, 0x40, 0x66}};
    struct ibw_send_wr wr = blank_wr(IBW_WR_RDMA_WRITE_WITH_IMM);
    wr.sg_list = sw;
    wr.num_sge = 1;
    wr.imm_data = 0xAABBCCDDu;
    wr.rdma.remote_addr = 0x0000700000001000ull;
    wr.rdma.rkey = 0x5555;
    wr.rdma.length = 0x40;
    build_and_compare(&wr, HG, IBW_TR_RC, want_w, sizeof want_w,
                      IBW_WQE_OP_RDMA_WRITE_IMM, 0);

    /* RDMA_READ: raddr 0x2000, rkey 0x77, length 0x1000, scatter 0x1000
     * @0x4000 lkey 0x88 */
    static const uint8_t want_r[48] = {
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0x00, 0x20, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x77, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x10, 0x00, 0x00, 0x88, 0x00, 0x00, 0x00,
        0x00, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
    static const struct ibw_sge sr[1] = {{0x4000, 0x1000, 0x88}};
    struct ibw_send_wr rd = blank_wr(IBW_WR_RDMA_READ);
    rd.sg_list = sr;
    rd.num_sge = 1;
    rd.rdma.remote_addr = 0x2000;
    rd.rdma.rkey = 0x77;
    rd.rdma.length = 0x1000;
    build_and_compare(&rd, HG, IBW_TR_RC, want_r, sizeof want_r,
                      IBW_WQE_OP_RDMA_READ, 0);

    /* errors: length disagreeing with the data, READ on UC, inline READ */
    uint8_t out[256];
    struct ibw_wqe_desc d;
    rd.rdma.length = 0xFFF;
    TU_EQ(ibw_wqe_build_send(&rd, HG, IBW_TR_RC, out, sizeof out, &d),
          IBW_E_LENGTH);
    rd.rdma.length = 0x1000;
    TU_EQ(ibw_wqe_build_send(&rd, HG, IBW_TR_UC, out, sizeof out, &d),
          IBW_E_OPCODE);
    rd.send_flags = IBW_SEND_INLINE;
    TU_EQ(ibw_wqe_build_send(&rd, HG, IBW_TR_RC, out, sizeof out, &d),
          IBW_E_RANGE);
    TU_EQ(ibw_wqe_build_send(&wr, HG, IBW_TR_UD, out, sizeof out, &d),
          IBW_E_OPCODE); /* RDMA WRITE on UD */
}

static void test_atomics(void)
{
    /* CMP_AND_SWP: remote 0x8000 rkey 0x99, compare 1, swap 2, result
     * buffer 8 @0x5000 lkey 0xAA.  AtomicSeg: swap_add = swap,
     * compare = compare. */
    static const uint8_t want_cs[64] = {
        0, 0, 0, 0, 0, 0, 0, 0, 0x08, 0, 0, 0, 0, 0, 0, 0,
        0x00, 0x80, 0, 0, 0, 0, 0, 0, 0x99, 0, 0, 0, 0, 0, 0, 0,
        0x02, 0, 0, 0, 0, 0, 0, 0, 0x01, 0, 0, 0, 0, 0, 0, 0,
        0x08, 0, 0, 0, 0xAA, 0, 0, 0, 0x00, 0x50, 0, 0, 0, 0, 0, 0};
    static const struct ibw_sge res[1] = {{0x5000, 8, 0xAA}};
    struct ibw_send_wr wr = blank_wr(IBW_WR_ATOMIC_CMP_AND_SWP);
    wr.send_flags = IBW_SEND_SIGNALED;
    wr.sg_list = res;
    wr.num_sge = 1;
    wr.atomic.remote_addr = 0x8000;
    wr.atomic.rkey = 0x99;
    wr.atomic.compare_add = 1;
    wr.atomic.swap = 2;
    build_and_compare(&wr, HG, IBW_TR_RC, want_cs, sizeof want_cs,
                      IBW_WQE_OP_ATOMIC_CS, 0);

    /* FETCH_AND_ADD 0x10: swap_add = add data, compare = 0 */
    static const uint8_t want_fa[64] = {
        0, 0, 0, 0, 0, 0, 0, 0, 0x08, 0, 0, 0, 0, 0, 0, 0,
        0x00, 0x80, 0, 0, 0, 0, 0, 0, 0x99, 0, 0, 0, 0, 0, 0, 0,
        0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0x08, 0, 0, 0, 0xAA, 0, 0, 0, 0x00, 0x50, 0, 0, 0, 0, 0, 0};
    struct ibw_send_wr fa = wr;
    fa.opcode = IBW_WR_ATOMIC_FETCH_AND_ADD;
    fa.atomic.compare_add = 0x10;
    fa.atomic.swap = 0xDEAD; /* ignored by FetchAdd */
    build_and_compare(&fa, HG, IBW_TR_RC, want_fa, sizeof want_fa,
                      IBW_WQE_OP_ATOMIC_FA, 0);

    /* the result list must be exactly one 8-byte entry */
    uint8_t out[256];
    struct ibw_wqe_desc d;
    static const struct ibw_sge two[2] = {{0x5000, 8, 0xAA}, {0, 8, 1}};
    static const struct ibw_sge four[1] = {{0x5000, 4, 0xAA}};
    fa.sg_list = two;
    fa.num_sge = 2;
    TU_EQ(ibw_wqe_build_send(&fa, HG, IBW_TR_RC, out, sizeof out, &d),
          IBW_E_RANGE);
    fa.num_sge = 0;
    TU_EQ(ibw_wqe_build_send(&fa, HG, IBW_TR_RC, out, sizeof out, &d),
          IBW_E_RANGE);
    fa.sg_list = four;
    fa.num_sge = 1;
    TU_EQ(ibw_wqe_build_send(&fa, HG, IBW_TR_RC, out, sizeof out, &d),
          IBW_E_LENGTH);
}

static void test_bind(void)
{
    /* BIND_MW, signaled: new R_Key 0x12345678, region L_Key 0x9ABCDEF0,
     * addr 0x100000000, length 0x2000, remote read + write.
     * BindSeg word 0 = bit 30 | bit 29 = 0x60000000. */
    static const uint8_t want[48] = {
        0, 0, 0, 0, 0, 0, 0, 0, 0x08, 0, 0, 0, 0, 0, 0, 0,
        0x00, 0x00, 0x00, 0x60, 0, 0, 0, 0, 0x78, 0x56, 0x34, 0x12,
        0xF0, 0xDE, 0xBC, 0x9A, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00,
        0x00, 0x00, 0x00, 0x20, 0x00, 0x00, 0, 0, 0, 0};
    struct ibw_send_wr wr = blank_wr(IBW_WR_BIND_MW);
    wr.send_flags = IBW_SEND_SIGNALED;
    wr.bind.mw_handle = 5;
    wr.bind.mw_rkey = 0x12345600;
    wr.bind.new_rkey = 0x12345678;
    wr.bind.mr_handle = 6;
    wr.bind.mr_lkey = 0x9ABCDEF0u;
    wr.bind.addr = 0x100000000ull;
    wr.bind.length = 0x2000;
    wr.bind.access = IBW_ACCESS_REMOTE_READ | IBW_ACCESS_REMOTE_WRITE;
    build_and_compare(&wr, HG, IBW_TR_RC, want, sizeof want,
                      IBW_WQE_OP_BIND_MW, 0);
    uint8_t out[64];
    struct ibw_wqe_desc d;
    TU_EQ(ibw_wqe_build_send(&wr, HG, IBW_TR_UD, out, sizeof out, &d),
          IBW_E_OPCODE);
}

static void test_ud(void)
{
    /* UD SEND over RoCE: port 1, DMAC 02:DD:EE:FF:00:22, SMAC
     * 02:AA:BB:CC:00:11, 192.168.0.1 -> 192.168.0.2, dqpn 0x123,
     * Q_Key 0x80000001, one SGE 0x80 @0x6000 lkey 0xBB.
     * UDSeg: dlid = DMAC[15:0] 0x0022, slid = SMAC[15:0] 0x0011,
     * smac_hi 0x02AABBCC, dmac_hi 0x02DDEEFF. */
    static const uint8_t want[80] = {
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0x01, 0x00, 0x00, 0x00, 0x11, 0x00, 0x22, 0x00, 0xCC, 0xBB, 0xAA,
        0x02, 0xFF, 0xEE, 0xDD, 0x02, 0x01, 0x00, 0xA8, 0xC0, 0x02, 0x00,
        0xA8, 0xC0, 0,    0,    0,    0,    0,    0,    0,    0,
        0x23, 0x01, 0x00, 0x00, 0x01, 0x00, 0x00, 0x80, 0,    0,    0,
        0,    0,    0,    0,    0,
        0x80, 0x00, 0x00, 0x00, 0xBB, 0x00, 0x00, 0x00,
        0x00, 0x60, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
    static const struct ibw_sge sg[1] = {{0x6000, 0x80, 0xBB}};
    struct ibw_send_wr wr = blank_wr(IBW_WR_SEND);
    wr.sg_list = sg;
    wr.num_sge = 1;
    wr.remote_qpn = 0x123;
    wr.remote_qkey = 0x80000001u;
    wr.ah.port = 1;
    wr.ah.eth = 1;
    static const uint8_t dmac[6] = {0x02, 0xDD, 0xEE, 0xFF, 0x00, 0x22};
    static const uint8_t smac[6] = {0x02, 0xAA, 0xBB, 0xCC, 0x00, 0x11};
    memcpy(wr.ah.dmac, dmac, 6);
    memcpy(wr.ah.smac, smac, 6);
    wr.ah.sip = 0xC0A80001u;
    wr.ah.dip = 0xC0A80002u;
    build_and_compare(&wr, HG, IBW_TR_UD, want, sizeof want,
                      IBW_WQE_OP_SEND, 0);

    /* IB addressing puts the LIDs there instead */
    wr.ah.eth = 0;
    wr.ah.dlid = 0x0022;
    wr.ah.slid = 0x0011;
    uint8_t out[128];
    struct ibw_wqe_desc d;
    TU_EQ(ibw_wqe_build_send(&wr, HG, IBW_TR_UD, out, sizeof out, &d),
          IBW_OK);
    TU_EQ(out[20], 0x11);
    TU_EQ(out[22], 0x22);
    TU_EQ(out[24] | out[28] | out[32] | out[36], 0); /* no MACs, no IPs */
    /* the mthca UD segment holds an address vector ibwire does not model */
    TU_EQ(ibw_wqe_build_send(&wr, MT, IBW_TR_UD, out, sizeof out, &d),
          IBW_E_UNSUPPORTED);
}

static void test_recv(void)
{
    /* receive WR, 2 SGEs: NextSeg, DataSegs, 16 zero bytes */
    static const uint8_t want[64] = {
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0x00, 0x02, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x40, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    static const struct ibw_sge sg[2] = {{0x10000, 0x200, 1},
                                         {0x20000, 0x40, 2}};
    struct ibw_recv_wr wr;
    memset(&wr, 0, sizeof wr);
    wr.wr_id = 9;
    wr.sg_list = sg;
    wr.num_sge = 2;
    uint8_t out[128];
    struct ibw_wqe_desc d;
    memset(out, 0xA5, sizeof out);
    TU_EQ(ibw_wqe_build_recv(&wr, HG, out, sizeof out, &d), IBW_OK);
    TU_EQ(d.size, 4);
    TU_EQ(d.opcode, 0);
    TU_MEMEQ(out, want, 64);
    TU_EQ(out[64], 0xA5);

    /* mthca: NextSeg DBD (word 1 bit 7), terminator L_Key 0x100 */
    static const uint8_t want_be[48] = {
        0, 0, 0, 0, 0, 0, 0, 0x80, 0, 0, 0, 0, 0, 0, 0, 0,
        0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00,
        0, 0, 0, 0, 0x00, 0x00, 0x01, 0x00, 0, 0, 0, 0, 0, 0, 0, 0};
    wr.num_sge = 1;
    TU_EQ(ibw_wqe_build_recv(&wr, MT, out, sizeof out, &d), IBW_OK);
    TU_EQ(d.size, 3);
    TU_MEMEQ(out, want_be, 48);

    /* empty scatter list (for RDMA WRITE with immediate): 2 units */
    wr.num_sge = 0;
    TU_EQ(ibw_wqe_build_recv(&wr, HG, out, sizeof out, &d), IBW_OK);
    TU_EQ(d.size, 2);
    TU_EQ(ibw_wqe_build_recv(&wr, HG, out, 31, &d), IBW_E_NOSPACE);

    /* A scatter entry whose DataSeg is the terminator (HanGu RDMA engine
     * design fig. 4.8: the last 128 bits of a receive WQE are all 0) would cut
     * the list short, so it is refused: HanGu {addr 0, length 0, L_Key 0} as
     * the second of two entries, mthca {0, 0, L_Key 0x100}. */
    static const struct ibw_sge zero2[2] = {{0x10000, 0x200, 1}, {0, 0, 0}};
    wr.sg_list = zero2;
    wr.num_sge = 2;
    TU_EQ(ibw_wqe_build_recv(&wr, HG, out, sizeof out, &d), IBW_E_RANGE);
    static const struct ibw_sge mt_term = {0, 0, 0x100};
    wr.sg_list = &mt_term;
    wr.num_sge = 1;
    TU_EQ(ibw_wqe_build_recv(&wr, MT, out, sizeof out, &d), IBW_E_RANGE);
    /* One bit away from the terminator is an ordinary entry: HanGu
     * {0, 0, L_Key 1} is byte count 00 00 00 00, L_Key 01 00 00 00, then an
     * address of 8 zero bytes (little-endian words, as in want above); and
     * {0, 0, 0} is not mthca's terminator. */
    static const uint8_t want_lkey1[16] = {0, 0, 0, 0, 1, 0, 0, 0,
                                           0, 0, 0, 0, 0, 0, 0, 0};
    static const struct ibw_sge lkey1 = {0, 0, 1};
    wr.sg_list = &lkey1;
    TU_EQ(ibw_wqe_build_recv(&wr, HG, out, sizeof out, &d), IBW_OK);
    TU_MEMEQ(out + 16, want_lkey1, 16);
    wr.sg_list = &zero2[1];
    TU_EQ(ibw_wqe_build_recv(&wr, MT, out, sizeof out, &d), IBW_OK);
    TU_EQ(d.size, 3);
}

static void test_limits(void)
{
    static struct ibw_sge many[62];
    uint8_t out[1024];
    struct ibw_wqe_desc d;
    for (int i = 0; i < 62; i++) {
        many[i].addr = (uint64_t)i << 12;
        many[i].length = 16;
        many[i].lkey = 1;
    }
    struct ibw_send_wr wr = blank_wr(IBW_WR_SEND);
    wr.sg_list = many;
    wr.num_sge = 62; /* 1 + 62 = 63 units: the largest nds */
    TU_EQ(ibw_wqe_build_send(&wr, HG, IBW_TR_RC, out, sizeof out, &d),
          IBW_OK);
    TU_EQ(d.size, 63);
    TU_EQ(ibw_wqe_build_send(&wr, HG, IBW_TR_RC, out, 63 * 16 - 1, &d),
          IBW_E_NOSPACE);
    struct ibw_send_wr big = wr;
    big.num_sge = 0;
    big.send_flags = IBW_SEND_INLINE;
    static const uint8_t data[1000];
    big.inline_data = data;
    big.inline_len = 1000; /* 1 + 63 units */
    TU_EQ(ibw_wqe_build_send(&big, HG, IBW_TR_RC, out, sizeof out, &d),
          IBW_E_NOSPACE);
    big.inline_data = NULL;
    big.inline_len = 4;
    TU_EQ(ibw_wqe_build_send(&big, HG, IBW_TR_RC, out, sizeof out, &d),
          IBW_E_RANGE);

    static struct ibw_sge huge[2] = {{0, 0x7FFFFFFF, 1}, {0, 1, 1}};
    struct ibw_send_wr h = blank_wr(IBW_WR_SEND);
    h.sg_list = huge;
    h.num_sge = 2; /* exactly 2 GiB */
    TU_EQ(ibw_wqe_build_send(&h, HG, IBW_TR_RC, out, sizeof out, &d),
          IBW_E_LENGTH);
    huge[1].length = 0x80000000u;
    TU_EQ(ibw_wqe_build_send(&h, HG, IBW_TR_RC, out, sizeof out, &d),
          IBW_E_RANGE);

    struct ibw_send_wr bad = blank_wr(7); /* LOCAL_INV: no WQE here */
    TU_EQ(ibw_wqe_build_send(&bad, HG, IBW_TR_RC, out, sizeof out, &d),
          IBW_E_OPCODE);
    bad.opcode = IBW_WR_SEND;
    TU_EQ(ibw_wqe_build_send(&bad, HG, IBW_TR_RD, out, sizeof out, &d),
          IBW_E_UNSUPPORTED);
}

static void test_link_and_walk(void)
{
    /* SQ of 0x100 bytes: SEND (2 units) at 0, WRITE (3 units) at 0x40,
     * CMP_AND_SWP (4 units) at 0x80, linked in that order. */
    uint8_t q[0x100];
    memset(q, 0, sizeof q);
    static const struct ibw_sge s0[1] = {{0x1000, 0x10, 1}};
    static const struct ibw_sge s1[1] = {{0x2000, 0x20, 2}};
    static const struct ibw_sge s2[1] = {{0x3000, 8, 3}};
    struct ibw_send_wr w0 = blank_wr(IBW_WR_SEND);
    w0.sg_list = s0;
    w0.num_sge = 1;
    w0.send_flags = IBW_SEND_SIGNALED;
    struct ibw_send_wr w1 = blank_wr(IBW_WR_RDMA_WRITE);
    w1.sg_list = s1;
    w1.num_sge = 1;
    w1.rdma.remote_addr = 0x9000;
    w1.rdma.rkey = 0x42;
    w1.rdma.length = 0x20;
    struct ibw_send_wr w2 = blank_wr(IBW_WR_ATOMIC_CMP_AND_SWP);
    w2.sg_list = s2;
    w2.num_sge = 1;
    w2.send_flags = IBW_SEND_FENCE;
    w2.atomic.remote_addr = 0xA000;
    w2.atomic.rkey = 0x43;
    w2.atomic.compare_add = 5;
    w2.atomic.swap = 6;
    struct ibw_wqe_desc d0, d1, d2;
    TU_EQ(ibw_wqe_build_send(&w0, HG, IBW_TR_RC, q, 0x40, &d0), IBW_OK);
    TU_EQ(ibw_wqe_build_send(&w1, HG, IBW_TR_RC, q + 0x40, 0x40, &d1),
          IBW_OK);
    TU_EQ(ibw_wqe_build_send(&w2, HG, IBW_TR_RC, q + 0x80, 0x80, &d2),
          IBW_OK);
    TU_EQ(ibw_wqe_link(q, 16, HG, &d1, 0x40), IBW_OK);
    TU_EQ(ibw_wqe_link(q + 0x40, 16, HG, &d2, 0x80), IBW_OK);
    /* WQE 0's NextSeg now: word 0 = (0x40 / 16) << 6 | 0x08 = 0x108,
     * word 1 = nds 3; C kept in word 2 */
    static const uint8_t ns0[16] = {0x08, 0x01, 0, 0, 0x03, 0, 0, 0,
                                    0x08, 0, 0, 0, 0, 0, 0, 0};
    TU_MEMEQ(q, ns0, 16);
    /* WQE 1's: (0x80 / 16) << 6 | 0x11 = 0x211; nds 4 | F (bit 6) = 0x44 */
    static const uint8_t ns1[16] = {0x11, 0x02, 0, 0, 0x44, 0, 0, 0,
                                    0, 0, 0, 0, 0, 0, 0, 0};
    TU_MEMEQ(q + 0x40, ns1, 16);
    TU_EQ(ibw_wqe_link(q, 16, HG, &d1, 0x48), IBW_E_RANGE); /* unaligned */
    TU_EQ(ibw_wqe_link(q, 16, MT, &d1, 0x50), IBW_E_RANGE); /* mthca: 64 */
    TU_EQ(ibw_wqe_link(q, 15, HG, &d1, 0x40), IBW_E_TRUNCATED);

    struct ibw_wqe_walk_cfg cfg = {HG, IBW_WQ_SEND, IBW_TR_RC, d0.opcode,
                                   d0.size, d0.fence, 0};
    struct ibw_wqe_info wi[4];
    size_t n = 0;
    TU_EQ(ibw_wqe_walk(q, sizeof q, &cfg, wi, 4, &n), IBW_OK);
    TU_EQ(n, 3);
    TU_EQ(wi[0].opcode, IBW_WQE_OP_SEND);
    TU_EQ(wi[0].next.cq_update, 1);
    TU_EQ(wi[0].nsge, 1);
    TU_EQ(wi[0].total_len, 0x10);
    TU_EQ(wi[1].opcode, IBW_WQE_OP_RDMA_WRITE);
    TU_EQ(wi[1].raddr.raddr, 0x9000);
    TU_EQ(wi[1].raddr.rkey, 0x42);
    TU_EQ(wi[1].total_len, 0x20);
    TU_EQ(wi[2].opcode, IBW_WQE_OP_ATOMIC_CS);
    TU_EQ(wi[2].fence, 1);
    TU_EQ(wi[2].atomic.swap_add, 6);
    TU_EQ(wi[2].atomic.compare, 5);
    TU_EQ(wi[2].raddr.raddr, 0xA000);
    struct ibw_wqe_data sge;
    TU_EQ(ibw_wqe_info_sge(q, sizeof q, HG, &wi[2], 0, &sge), IBW_OK);
    TU_EQ(sge.addr, 0x3000);
    TU_EQ(sge.byte_count, 8);
    TU_EQ(sge.lkey, 3);
    TU_EQ(ibw_wqe_info_sge(q, sizeof q, HG, &wi[2], 1, &sge), IBW_E_RANGE);
}

int main(void)
{
    test_send();
    test_send_imm_inline();
    test_write_read();
    test_atomics();
    test_bind();
    test_ud();
    test_recv();
    test_limits();
    test_link_and_walk();
    return tu_done("host_wr");
}
