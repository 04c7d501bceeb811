/* SPDX-License-Identifier: Apache-2.0 */
/*
 * H1 WQE segments against byte images written by hand from the layout
 * tables: the HanGu host document (软硬件接口设计文档 3.4, every 32-bit
 * word little-endian), the HanGu RTL NextSeg ([4:0] nopcode, [31:6] nda,
 * [37:32] nds, [38] F, [39] DBD) and the mthca structs (same words,
 * big-endian, 64-bit fields high word first).  Each vector is decoded and
 * compared field by field, then encoded from the struct and compared byte
 * by byte, in both layouts; a few fields go through the descriptor path.
 */
#include "ibwire/host.h"
#include "testutil.h"
#include "xorshift.h"

static const unsigned HG = IBW_WQE_LAYOUT_HANGU;
static const unsigned MT = IBW_WQE_LAYOUT_MTHCA;

static void test_next(void)
{
    /* nopcode 0x0A (SEND), nda 0x123, nds 3, F 1, DBD 0, nee 0, S 1, E 0,
     * C 1, imm 0x11223344.
     * word0 = 0x123 << 6 | 0x0A = 0x000048CA
     * word1 = 3 | 1 << 6          = 0x00000043
     * word2 = S << 1 | C << 3     = 0x0000000A
     * word3 = 0x11223344 */
    static const uint8_t le[16] = {0xCA, 0x48, 0x00, 0x00, 0x43, 0x00,
                                   0x00, 0x00, 0x0A, 0x00, 0x00, 0x00,
                                   0x44, 0x33, 0x22, 0x11};
    static const uint8_t be[16] = {0x00, 0x00, 0x48, 0xCA, 0x00, 0x00,
                                   0x00, 0x43, 0x00, 0x00, 0x00, 0x0A,
                                   0x11, 0x22, 0x33, 0x44};
    struct ibw_wqe_next n;
    uint8_t out[16];
    for (int pass = 0; pass < 2; pass++) {
        const uint8_t *v = pass ? be : le;
        unsigned lay = pass ? MT : HG;
        memset(&n, 0xEE, sizeof n);
        TU_EQ(ibw_wqe_next_decode_layout(v, 16, lay, &n), IBW_OK);
        TU_EQ(n.nopcode, 0x0A);
        TU_EQ(n.nda, 0x123);
        TU_EQ(n.nds, 3);
        TU_EQ(n.fence, 1);
        TU_EQ(n.dbd, 0);
        TU_EQ(n.nee, 0);
        TU_EQ(n.solicit, 1);
        TU_EQ(n.event, 0);
        TU_EQ(n.cq_update, 1);
        TU_EQ(n.imm, 0x11223344);
        memset(out, 0xAA, sizeof out);
        TU_EQ(ibw_wqe_next_encode_layout(&n, lay, out, sizeof out), IBW_OK);
        TU_MEMEQ(out, v, 16);
        TU_EQ(ibw_wqe_next_decode_layout(v, 15, lay, &n), IBW_E_TRUNCATED);
        TU_EQ(ibw_wqe_next_encode_layout(&n, lay, out, 15), IBW_E_NOSPACE);
    }
    /* next offset: HanGu 0x123 * 16 = 0x1230, mthca 0x123 << 6 = 0x48C0 */
    TU_EQ(ibw_wqe_next_offset(&n, HG), 0x1230);
    TU_EQ(ibw_wqe_next_offset(&n, MT), 0x48C0);

    /* every other bit: nopcode 0x12, nda 0x3FFFFFF, nds 63, F 0, DBD 1,
     * nee 0xABCDEF, E 1, imm 0.
     * word0 = 0xFFFFFFC0 | 0x12 = 0xFFFFFFD2
     * word1 = 0xABCDEF << 8 | 1 << 7 | 63 = 0xABCDEFBF
     * word2 = E << 2 = 4 */
    static const uint8_t le2[16] = {0xD2, 0xFF, 0xFF, 0xFF, 0xBF, 0xEF,
                                    0xCD, 0xAB, 0x04, 0, 0, 0, 0, 0, 0, 0};
    TU_EQ(ibw_wqe_next_decode_layout(le2, 16, HG, &n), IBW_OK);
    TU_EQ(n.nopcode, 0x12);
    TU_EQ(n.nda, 0x3FFFFFF);
    TU_EQ(n.nds, 63);
    TU_EQ(n.fence, 0);
    TU_EQ(n.dbd, 1);
    TU_EQ(n.nee, 0xABCDEF);
    TU_EQ(n.event, 1);
    TU_EQ(n.solicit, 0);
    TU_EQ(n.cq_update, 0);
    TU_EQ(ibw_wqe_next_encode_layout(&n, HG, out, 16), IBW_OK);
    TU_MEMEQ(out, le2, 16);

    /* descriptor path over the HanGu bytes (record convention) */
    const struct ibw_format *f = ibw_wqe_next_format();
    uint64_t val = 0;
    TU_EQ(f->conv, IBW_CONV_RECORD);
    TU_EQ(ibw_format_bytes(f), 16);
    TU_EQ(ibw_field_get(f, ibw_format_field(f, "nda"), le, 16, &val), IBW_OK);
    TU_EQ(val, 0x123);
    TU_EQ(ibw_field_get(f, ibw_format_field(f, "nds"), le, 16, &val), IBW_OK);
    TU_EQ(val, 3);
    TU_EQ(ibw_field_get(f, ibw_format_field(f, "imm"), le, 16, &val), IBW_OK);
    TU_EQ(val, 0x11223344);
    TU_CHECK(strcmp(f->id, "H1") == 0);
}

static void test_raddr_atomic(void)
{
    /* raddr 0x0102030405060708, rkey 0xA0B0C0D0, [127:96] reserved */
    static const uint8_t le[16] = {0x08, 0x07, 0x06, 0x05, 0x04, 0x03,
                                   0x02, 0x01, 0xD0, 0xC0, 0xB0, 0xA0,
                                   0, 0, 0, 0};
    static const uint8_t be[16] = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06,
                                   0x07, 0x08, 0xA0, 0xB0, 0xC0, 0xD0,
                                   0, 0, 0, 0};
    struct ibw_wqe_raddr r;
    uint8_t out[16];
    for (int pass = 0; pass < 2; pass++) {
        const uint8_t *v = pass ? be : le;
        unsigned lay = pass ? MT : HG;
        TU_EQ(ibw_wqe_raddr_decode_layout(v, 16, lay, &r), IBW_OK);
        TU_EQ(r.raddr, 0x0102030405060708ull);
        TU_EQ(r.rkey, 0xA0B0C0D0u);
        memset(out, 0x55, sizeof out);
        TU_EQ(ibw_wqe_raddr_encode_layout(&r, lay, out, 16), IBW_OK);
        TU_MEMEQ(out, v, 16);
    }

    /* swap_add 0x1111222233334444, compare 0x5555666677778888 */
    static const uint8_t ale[16] = {0x44, 0x44, 0x33, 0x33, 0x22, 0x22,
                                    0x11, 0x11, 0x88, 0x88, 0x77, 0x77,
                                    0x66, 0x66, 0x55, 0x55};
    static const uint8_t abe[16] = {0x11, 0x11, 0x22, 0x22, 0x33, 0x33,
                                    0x44, 0x44, 0x55, 0x55, 0x66, 0x66,
                                    0x77, 0x77, 0x88, 0x88};
    struct ibw_wqe_atomic a;
    for (int pass = 0; pass < 2; pass++) {
        const uint8_t *v = pass ? abe : ale;
        unsigned lay = pass ? MT : HG;
        TU_EQ(ibw_wqe_atomic_decode_layout(v, 16, lay, &a), IBW_OK);
        TU_EQ(a.swap_add, 0x1111222233334444ull);
        TU_EQ(a.compare, 0x5555666677778888ull);
        TU_EQ(ibw_wqe_atomic_encode_layout(&a, lay, out, 16), IBW_OK);
        TU_MEMEQ(out, v, 16);
    }
}

static void test_ud(void)
{
    /* HanGu hghca_ud_unit: port 1; 04h: slid 0x0011 [15:0], dlid 0x0022
     * [31:16]; 08h smac[47:16] 0x02AABBCC; 0Ch dmac[47:16] 0x02DDEEFF;
     * 10h sip 192.168.0.1; 14h dip 192.168.0.2; 20h dqpn 0x123;
     * 24h qkey 0x80000001 */
    static const uint8_t le[48] = {
        0x01, 0x00, 0x00, 0x00, 0x11, 0x00, 0x22, 0x00, 0xCC, 0xBB, 0xAA,
        0x02, 0xFF, 0xEE, 0xDD, 0x02, 0x01, 0x00, 0xA8, 0xC0, 0x02, 0x00,
        0xA8, 0xC0, 0,    0,    0,    0,    0,    0,    0,    0,
        0x23, 0x01, 0x00, 0x00, 0x01, 0x00, 0x00, 0x80, 0,    0,    0,
        0,    0,    0,    0,    0};
    struct ibw_wqe_ud u;
    uint8_t out[48];
    TU_EQ(ibw_wqe_ud_decode_layout(le, 48, HG, &u), IBW_OK);
    TU_EQ(u.port, 1);
    TU_EQ(u.slid, 0x0011);
    TU_EQ(u.dlid, 0x0022);
    TU_EQ(u.smac_hi, 0x02AABBCC);
    TU_EQ(u.dmac_hi, 0x02DDEEFF);
    TU_EQ(u.sip, 0xC0A80001u);
    TU_EQ(u.dip, 0xC0A80002u);
    TU_EQ(u.dqpn, 0x123);
    TU_EQ(u.qkey, 0x80000001u);
    memset(out, 0x77, sizeof out);
    TU_EQ(ibw_wqe_ud_encode_layout(&u, HG, out, 48), IBW_OK);
    TU_MEMEQ(out, le, 48);
    TU_EQ(ibw_wqe_ud_decode_layout(le, 47, HG, &u), IBW_E_TRUNCATED);
    /* mthca: dqpn and qkey sit at 0x20/0x24 as big-endian words */
    static const uint8_t be_tail[8] = {0x00, 0x00, 0x01, 0x23,
                                       0x80, 0x00, 0x00, 0x01};
    TU_EQ(ibw_wqe_ud_encode_layout(&u, MT, out, 48), IBW_OK);
    TU_MEMEQ(out + 32, be_tail, 8);
}

static void test_data_inline(void)
{
    /* byte_count 0x1000, inline 0, lkey 0x00ABCDEF, addr 0x00007F0012345678 */
    static const uint8_t le[16] = {0x00, 0x10, 0x00, 0x00, 0xEF, 0xCD,
                                   0xAB, 0x00, 0x78, 0x56, 0x34, 0x12,
                                   0x00, 0x7F, 0x00, 0x00};
    static const uint8_t be[16] = {0x00, 0x00, 0x10, 0x00, 0x00, 0xAB,
                                   0xCD, 0xEF, 0x00, 0x00, 0x7F, 0x00,
                                   0x12, 0x34, 0x56, 0x78};
    struct ibw_wqe_data d;
    uint8_t out[16];
    for (int pass = 0; pass < 2; pass++) {
        const uint8_t *v = pass ? be : le;
        unsigned lay = pass ? MT : HG;
        TU_EQ(ibw_wqe_data_decode_layout(v, 16, lay, &d), IBW_OK);
        TU_EQ(d.byte_count, 0x1000);
        TU_EQ(d.inline_flag, 0);
        TU_EQ(d.lkey, 0x00ABCDEF);
        TU_EQ(d.addr, 0x00007F0012345678ull);
        TU_EQ(ibw_wqe_data_encode_layout(&d, lay, out, 16), IBW_OK);
        TU_MEMEQ(out, v, 16);
    }
    /* inline header: flag 1, 5 bytes -> word 0x80000005; the flag is the
     * MSB of the first word (HanGu RDMA engine design): byte 3 for HanGu, byte
     * 0 mthca */
    static const uint8_t ile[4] = {0x05, 0x00, 0x00, 0x80};
    static const uint8_t ibe[4] = {0x80, 0x00, 0x00, 0x05};
    struct ibw_wqe_inline h;
    TU_EQ(ibw_wqe_inline_decode_layout(ile, 4, HG, &h), IBW_OK);
    TU_EQ(h.inline_flag, 1);
    TU_EQ(h.byte_count, 5);
    TU_EQ(ibw_wqe_inline_encode_layout(&h, MT, out, 4), IBW_OK);
    TU_MEMEQ(out, ibe, 4);
    /* the same bytes read as a DataSeg show the flag */
    uint8_t unit[16] = {0x05, 0x00, 0x00, 0x80};
    TU_EQ(ibw_wqe_data_decode_layout(unit, 16, HG, &d), IBW_OK);
    TU_EQ(d.inline_flag, 1);
    TU_EQ(d.byte_count, 5);
}

static void test_bind(void)
{
    /* remote read + write ([29], [30]) = 0x60000000; new_rkey 0x12345678;
     * lkey 0x9ABCDEF0; addr 0x100000000; length 0x2000 */
    static const uint8_t le[32] = {
        0x00, 0x00, 0x00, 0x60, 0, 0, 0, 0, 0x78, 0x56, 0x34,
        0x12, 0xF0, 0xDE, 0xBC, 0x9A, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00,
        0x00, 0x00, 0x00, 0x20, 0x00, 0x00, 0, 0, 0, 0};
    static const uint8_t be[32] = {
        0x60, 0x00, 0x00, 0x00, 0, 0, 0, 0, 0x12, 0x34, 0x56,
        0x78, 0x9A, 0xBC, 0xDE, 0xF0, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00,
        0x00, 0x00, 0, 0, 0, 0, 0x00, 0x00, 0x20, 0x00};
    struct ibw_wqe_bind b;
    uint8_t out[32];
    for (int pass = 0; pass < 2; pass++) {
        const uint8_t *v = pass ? be : le;
        unsigned lay = pass ? MT : HG;
        TU_EQ(ibw_wqe_bind_decode_layout(v, 32, lay, &b), IBW_OK);
        TU_EQ(b.remote_read, 1);
        TU_EQ(b.remote_write, 1);
        TU_EQ(b.remote_atomic, 0);
        TU_EQ(b.new_rkey, 0x12345678);
        TU_EQ(b.lkey, 0x9ABCDEF0u);
        TU_EQ(b.addr, 0x100000000ull);
        TU_EQ(b.length, 0x2000);
        TU_EQ(ibw_wqe_bind_encode_layout(&b, lay, out, 32), IBW_OK);
        TU_MEMEQ(out, v, 32);
    }
}

static void test_terminator(void)
{
    uint8_t z[16] = {0};
    /* mthca: byte_count 0, L_Key 0x100, addr 0 */
    static const uint8_t mt[16] = {0, 0, 0, 0, 0x00, 0x00, 0x01, 0x00,
                                   0, 0, 0, 0, 0, 0, 0, 0};
    TU_EQ(ibw_wqe_is_terminator(z, HG), 1);
    TU_EQ(ibw_wqe_is_terminator(mt, HG), 0);
    TU_EQ(ibw_wqe_is_terminator(mt, MT), 1);
    TU_EQ(ibw_wqe_is_terminator(z, MT), 0);
    z[15] = 1;
    TU_EQ(ibw_wqe_is_terminator(z, HG), 0);
}

/* Random structs survive write -> read in both layouts (values masked to
 * their widths by a round trip through the descriptor widths). */
static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rnd(void)
{
    return xorshift64_next(&rng_state);
}

static void test_round_trips(void)
{
    for (int i = 0; i < 2000; i++) {
        unsigned lay = (unsigned)(i & 1);
        struct ibw_wqe_data d, d2;
        memset(&d, 0, sizeof d);
        memset(&d2, 0, sizeof d2);
        d.byte_count = (uint32_t)rnd() & 0x7FFFFFFFu;
        d.inline_flag = (uint8_t)(rnd() & 1);
        d.lkey = (uint32_t)rnd();
        d.addr = rnd();
        uint8_t buf[48];
        TU_EQ(ibw_wqe_data_encode_layout(&d, lay, buf, 16), IBW_OK);
        TU_EQ(ibw_wqe_data_decode_layout(buf, 16, lay, &d2), IBW_OK);
        TU_CHECK(memcmp(&d, &d2, sizeof d) == 0);

        struct ibw_wqe_next n, n2;
        memset(&n, 0, sizeof n);
        n.nopcode = (uint8_t)(rnd() & 0x1F);
        n.nda = (uint32_t)rnd() & 0x3FFFFFFu;
        n.nds = (uint8_t)(rnd() & 0x3F);
        n.fence = (uint8_t)(rnd() & 1);
        n.dbd = (uint8_t)(rnd() & 1);
        n.nee = (uint32_t)rnd() & 0xFFFFFFu;
        n.solicit = (uint8_t)(rnd() & 1);
        n.event = (uint8_t)(rnd() & 1);
        n.cq_update = (uint8_t)(rnd() & 1);
        n.imm = (uint32_t)rnd();
        TU_EQ(ibw_wqe_next_encode_layout(&n, lay, buf, 16), IBW_OK);
        memset(&n2, 0, sizeof n2);
        TU_EQ(ibw_wqe_next_decode_layout(buf, 16, lay, &n2), IBW_OK);
        TU_CHECK(memcmp(&n, &n2, sizeof n) == 0);

        /* the two layouts differ exactly by the byte order of each word
         * (and the order of the two words of a 64-bit field) */
        uint8_t le[16], be[16];
        ibw_wqe_data_encode_layout(&d, HG, le, 16);
        ibw_wqe_data_encode_layout(&d, MT, be, 16);
        for (int k = 0; k < 8; k++) /* words 0, 1: byte-reversed */
            TU_EQ(le[k], be[(k / 4) * 4 + 3 - k % 4]);
        for (int k = 0; k < 8; k++) /* the 64-bit address: reversed */
            TU_EQ(le[8 + k], be[15 - k]);
    }
}

int main(void)
{
    test_next();
    test_raddr_atomic();
    test_ud();
    test_data_inline();
    test_bind();
    test_terminator();
    test_round_trips();
    return tu_done("host_segments");
}
