/* SPDX-License-Identifier: Apache-2.0 */
/*
 * W1-W12 against byte images written by hand from the IBA header diagrams
 * (Vol. 1 ch. 7.7, 8.3, 9.2, 9.3; FETH from 1.5).  Each vector is decoded
 * and the fields compared, then the struct is encoded and the bytes compared,
 * and a few fields are read through the descriptor path as well.
 */
#include "ibwire/wire.h"
#include "testutil.h"

static void test_lrh(void)
{
    /* VL 15, LVer 0, SL 3, LNH 3 (GRH), DLID 0xC001, PktLen 0x7FF, SLID 0xFFFE */
    static const uint8_t v[8] = {0xF0, 0x33, 0xC0, 0x01, 0x07, 0xFF, 0xFF, 0xFE};
    struct ibw_lrh h;
    TU_EQ(ibw_lrh_decode(v, sizeof v, &h), IBW_OK);
    TU_EQ(h.vl, 15);
    TU_EQ(h.lver, 0);
    TU_EQ(h.sl, 3);
    TU_EQ(h.resv2, 0);
    TU_EQ(h.lnh, IBW_LNH_IBA_GLOBAL);
    TU_EQ(h.dlid, 0xC001);
    TU_EQ(h.resv5, 0);
    TU_EQ(h.pktlen, 0x7FF);
    TU_EQ(h.slid, 0xFFFE);
    uint8_t out[8];
    memset(out, 0xAA, sizeof out);
    TU_EQ(ibw_lrh_encode(&h, out, sizeof out), IBW_OK);
    TU_MEMEQ(out, v, sizeof v);
    TU_EQ(ibw_lrh_decode(v, 7, &h), IBW_E_TRUNCATED);
    TU_EQ(ibw_lrh_encode(&h, out, 7), IBW_E_NOSPACE);

    /* VL 0, SL 0, LNH 2, DLID 4, PktLen 15, SLID 2 */
    static const uint8_t v2[8] = {0x00, 0x02, 0x00, 0x04, 0x00, 0x0F, 0x00, 0x02};
    TU_EQ(ibw_lrh_get_lnh(v2), IBW_LNH_IBA_LOCAL);
    TU_EQ(ibw_lrh_get_pktlen(v2), 15);
    uint8_t b[8] = {0};
    ibw_lrh_set_lnh(b, 2);
    ibw_lrh_set_dlid(b, 4);
    ibw_lrh_set_pktlen(b, 15);
    ibw_lrh_set_slid(b, 2);
    TU_MEMEQ(b, v2, 8);
    /* a setter masks to the field: PktLen 0xFFFF writes only 11 bits */
    ibw_lrh_set_pktlen(b, 0xFFFF);
    TU_EQ(b[4], 0x07);
    TU_EQ(b[5], 0xFF);
    TU_EQ(b[3], 0x04);
}

static void test_grh(void)
{
    /* IPVer 6, TClass 0xA5, FlowLabel 0x12345, PayLen 0x0100, NxtHdr 0x1B,
     * HopLmt 0x40, SGID fe80::1, DGID fe80::2 */
    static const uint8_t v[40] = {
        0x6A, 0x51, 0x23, 0x45, 0x01, 0x00, 0x1B, 0x40,
        0xFE, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01,
        0xFE, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02};
    struct ibw_grh h;
    TU_EQ(ibw_grh_decode(v, sizeof v, &h), IBW_OK);
    TU_EQ(h.ipver, 6);
    TU_EQ(h.tclass, 0xA5);
    TU_EQ(h.flowlabel, 0x12345);
    TU_EQ(h.paylen, 0x100);
    TU_EQ(h.nxthdr, IBW_GRH_NXTHDR_IBA);
    TU_EQ(h.hoplmt, 0x40);
    TU_EQ(h.sgid[0], 0xFE);
    TU_EQ(h.sgid[15], 0x01);
    TU_EQ(h.dgid[15], 0x02);
    TU_EQ(ibw_grh_get_dgid(v)[1], 0x80);
    uint8_t out[40] = {0}; /* the setters read-modify-write */
    TU_EQ(ibw_grh_encode(&h, out, sizeof out), IBW_OK);
    TU_MEMEQ(out, v, sizeof v);
    TU_EQ(ibw_grh_decode(v, 39, &h), IBW_E_TRUNCATED);
}

static void test_bth(void)
{
    /* RC RDMA WRITE ONLY, SE 1, M 0, PadCnt 3, TVer 0, P_Key 0xFFFF, FECN 1,
     * BECN 0, DestQP 0x11, AckReq 1, PSN 0xABCDEF */
    static const uint8_t v[12] = {0x0A, 0xB0, 0xFF, 0xFF, 0x80, 0x00,
                                  0x00, 0x11, 0x80, 0xAB, 0xCD, 0xEF};
    struct ibw_bth h;
    TU_EQ(ibw_bth_decode(v, sizeof v, &h), IBW_OK);
    TU_EQ(h.opcode, 0x0A);
    TU_EQ(h.se, 1);
    TU_EQ(h.m, 0);
    TU_EQ(h.padcnt, 3);
    TU_EQ(h.tver, 0);
    TU_EQ(h.pkey, 0xFFFF);
    TU_EQ(h.fecn, 1);
    TU_EQ(h.becn, 0);
    TU_EQ(h.resv6, 0);
    TU_EQ(h.destqp, 0x11);
    TU_EQ(h.ackreq, 1);
    TU_EQ(h.resv7, 0);
    TU_EQ(h.psn, 0xABCDEF);
    uint8_t out[12];
    TU_EQ(ibw_bth_encode(&h, out, sizeof out), IBW_OK);
    TU_MEMEQ(out, v, sizeof v);

    /* M 1, TVer 0xF, BECN 1, resv6 0x3F, resv7 0x7F: every reserved bit */
    static const uint8_t w[12] = {0x81, 0x4F, 0x80, 0x01, 0x7F, 0xFF,
                                  0xFF, 0xFF, 0x7F, 0x00, 0x00, 0x00};
    TU_EQ(ibw_bth_decode(w, sizeof w, &h), IBW_OK);
    TU_EQ(h.opcode, 0x81);
    TU_EQ(h.se, 0);
    TU_EQ(h.m, 1);
    TU_EQ(h.padcnt, 0);
    TU_EQ(h.tver, 0xF);
    TU_EQ(h.pkey, 0x8001);
    TU_EQ(h.fecn, 0);
    TU_EQ(h.becn, 1);
    TU_EQ(h.resv6, 0x3F);
    TU_EQ(h.destqp, 0xFFFFFF);
    TU_EQ(h.ackreq, 0);
    TU_EQ(h.resv7, 0x7F);
    TU_EQ(h.psn, 0);
    TU_EQ(ibw_bth_encode(&h, out, sizeof out), IBW_OK);
    TU_MEMEQ(out, w, sizeof w);

    /* fast setters touch only their bits */
    uint8_t b[12];
    memset(b, 0xFF, sizeof b);
    ibw_bth_set_psn(b, 0);
    ibw_bth_set_padcnt(b, 0);
    TU_EQ(b[8], 0xFF);
    TU_EQ(b[9] | b[10] | b[11], 0);
    TU_EQ(b[1], 0xCF);
}

static void test_small_eths(void)
{
    static const uint8_t rdeth[4] = {0x00, 0x12, 0x34, 0x56};
    struct ibw_rdeth rd;
    TU_EQ(ibw_rdeth_decode(rdeth, 4, &rd), IBW_OK);
    TU_EQ(rd.eecnxt, 0x123456);

    /* Q_Key 0x80010000 (GSI), SrcQP 1 */
    static const uint8_t deth[8] = {0x80, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01};
    struct ibw_deth d;
    TU_EQ(ibw_deth_decode(deth, 8, &d), IBW_OK);
    TU_EQ(d.qkey, 0x80010000u);
    TU_EQ(d.srcqp, 1);
    uint8_t out[8];
    TU_EQ(ibw_deth_encode(&d, out, 8), IBW_OK);
    TU_MEMEQ(out, deth, 8);

    static const uint8_t reth[16] = {0x00, 0x00, 0x7F, 0x00, 0x12, 0x34, 0x56, 0x78,
                                     0xDE, 0xAD, 0xBE, 0xEF, 0x00, 0x00, 0x10, 0x00};
    struct ibw_reth r;
    TU_EQ(ibw_reth_decode(reth, 16, &r), IBW_OK);
    TU_EQ(r.va, 0x00007F0012345678ull);
    TU_EQ(r.rkey, 0xDEADBEEFu);
    TU_EQ(r.dmalen, 0x1000);
    uint8_t o16[16];
    TU_EQ(ibw_reth_encode(&r, o16, 16), IBW_OK);
    TU_MEMEQ(o16, reth, 16);
    TU_EQ(ibw_reth_decode(reth, 15, &r), IBW_E_TRUNCATED);

    static const uint8_t ateth[28] = {
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x08, 0x01, 0x02, 0x03, 0x04,
        0x11, 0x11, 0x22, 0x22, 0x33, 0x33, 0x44, 0x44,
        0x55, 0x55, 0x66, 0x66, 0x77, 0x77, 0x88, 0x88};
    struct ibw_atomiceth a;
    TU_EQ(ibw_atomiceth_decode(ateth, 28, &a), IBW_OK);
    TU_EQ(a.va, 0x1008);
    TU_EQ(a.rkey, 0x01020304);
    TU_EQ(a.swapdt, 0x1111222233334444ull);
    TU_EQ(a.cmpdt, 0x5555666677778888ull);
    uint8_t o28[28];
    TU_EQ(ibw_atomiceth_encode(&a, o28, 28), IBW_OK);
    TU_MEMEQ(o28, ateth, 28);

    /* ACK with the invalid credit code, MSN 0x102 */
    static const uint8_t aeth[4] = {0x1F, 0x00, 0x01, 0x02};
    TU_EQ(ibw_aeth_get_syndrome(aeth), 0x1F);
    TU_EQ(ibw_aeth_get_msn(aeth), 0x102);
    TU_EQ(ibw_aeth_syndrome_kind(0x1F), IBW_AETH_ACK);
    TU_EQ(ibw_aeth_syndrome_value(0x1F), IBW_AETH_CREDIT_INVALID);
    TU_EQ(ibw_aeth_syndrome_kind(0x60), IBW_AETH_NAK);
    TU_EQ(ibw_aeth_syndrome_value(0x60), IBW_NAK_PSN_SEQ_ERROR);
    TU_EQ(ibw_aeth_syndrome_kind(0x2E), IBW_AETH_RNR_NAK);
    TU_EQ(ibw_aeth_syndrome_value(0x2E), 14);
    TU_EQ(ibw_aeth_syndrome(IBW_AETH_NAK, IBW_NAK_REMOTE_ACCESS_ERROR), 0x62);
    TU_EQ(ibw_aeth_syndrome(IBW_AETH_RNR_NAK, 1), 0x21);

    static const uint8_t ack[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    TU_EQ(ibw_atomicacketh_get_origremdt(ack), 0x0102030405060708ull);
    static const uint8_t imm[4] = {0xCA, 0xFE, 0xBA, 0xBE};
    TU_EQ(ibw_immdt_get_imm(imm), 0xCAFEBABEu);
    TU_EQ(ibw_ieth_get_rkey(imm), 0xCAFEBABEu);
    static const uint8_t xrc[4] = {0x00, 0x00, 0x0A, 0xBC};
    TU_EQ(ibw_xrceth_get_xrcsrq(xrc), 0xABC);
    /* FETH: SEL 1 (bits 0x30 of byte 3), PLT 2 (bits 0x0F) */
    static const uint8_t feth[4] = {0x00, 0x00, 0x00, 0x12};
    struct ibw_feth f;
    TU_EQ(ibw_feth_decode(feth, 4, &f), IBW_OK);
    TU_EQ(f.sel, 1);
    TU_EQ(f.plt, 2);
    TU_EQ(f.resv, 0);
    uint8_t o4[4] = {0}; /* the setters read-modify-write */
    TU_EQ(ibw_feth_encode(&f, o4, 4), IBW_OK);
    TU_MEMEQ(o4, feth, 4);
}

static void test_tables(void)
{
    /* IBA table 45 (credits) and 46 (RNR timer), spot values */
    TU_EQ(ibw_aeth_credits(0), 0);
    TU_EQ(ibw_aeth_credits(5), 6);
    TU_EQ(ibw_aeth_credits(0x0A), 32);
    TU_EQ(ibw_aeth_credits(0x1E), 32768);
    TU_EQ((uint32_t)ibw_aeth_credits(0x1F), (uint32_t)-1);
    TU_EQ(ibw_aeth_credit_code(0), 0);
    TU_EQ(ibw_aeth_credit_code(7), 5);
    TU_EQ(ibw_aeth_credit_code(8), 6);
    TU_EQ(ibw_aeth_credit_code(100000), 0x1E);
    TU_EQ(ibw_rnr_timer_usec(0), 655360);
    TU_EQ(ibw_rnr_timer_usec(1), 10);
    TU_EQ(ibw_rnr_timer_usec(14), 1280);
    TU_EQ(ibw_rnr_timer_usec(25), 61440);
    TU_EQ(ibw_rnr_timer_usec(31), 491520);
    TU_EQ(ibw_rnr_timer_usec(32), 0);
    TU_EQ(ibw_mtu_enum_to_bytes(1), 256);
    TU_EQ(ibw_mtu_enum_to_bytes(5), 4096);
    TU_EQ(ibw_mtu_enum_to_bytes(6), 0);
    TU_EQ(ibw_mtu_bytes_to_enum(1024), 3);
    TU_EQ(ibw_mtu_bytes_to_enum(1000), 0);
}

static void test_descriptors(void)
{
    const struct ibw_format *f = ibw_bth_format();
    TU_CHECK(strcmp(f->name, "bth") == 0);
    TU_CHECK(strcmp(f->id, "W3") == 0);
    TU_EQ(f->width, 96);
    TU_EQ(f->nfields, 13);
    const struct ibw_field *psn = ibw_format_field(f, "psn");
    TU_CHECK(psn != NULL);
    if (psn) {
        TU_EQ(psn->pos, 72);
        TU_EQ(psn->width, 24);
    }
    TU_CHECK(ibw_format_field(f, "nosuch") == NULL);
    /* the descriptor path agrees with the hand-made bytes */
    uint8_t b[12] = {0x0A, 0xB0, 0xFF, 0xFF, 0x80, 0x00, 0x00, 0x11, 0x80, 0xAB, 0xCD, 0xEF};
    uint64_t v = 0;
    TU_EQ(ibw_field_get(f, psn, b, sizeof b, &v), IBW_OK);
    TU_EQ(v, 0xABCDEF);
    TU_EQ(ibw_field_get(f, psn, b, 11, &v), IBW_E_TRUNCATED);
    const struct ibw_field *pad = ibw_format_field(f, "padcnt");
    TU_EQ(ibw_field_set(f, pad, b, sizeof b, 4), IBW_E_RANGE);
    TU_EQ(ibw_field_set(f, pad, b, sizeof b, 1), IBW_OK);
    TU_EQ(b[1], 0x90);
    /* every field of every W format lies inside the format and they do not
     * overlap: the bits covered add up to the size exactly */
    const struct ibw_format *all[] = {
        ibw_lrh_format(), ibw_grh_format(), ibw_bth_format(), ibw_rdeth_format(),
        ibw_deth_format(), ibw_reth_format(), ibw_atomiceth_format(),
        ibw_aeth_format(), ibw_atomicacketh_format(), ibw_immdt_format(),
        ibw_ieth_format(), ibw_xrceth_format(), ibw_feth_format()};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        uint32_t covered = 0, next = 0;
        for (size_t j = 0; j < all[i]->nfields; j++) {
            const struct ibw_field *fd = &all[i]->fields[j];
            TU_EQ(fd->pos, next); /* listed in order, contiguous */
            next = fd->pos + fd->width;
            covered += fd->width;
        }
        TU_EQ(covered, all[i]->width);
    }
}

int main(void)
{
    test_lrh();
    test_grh();
    test_bth();
    test_small_eths();
    test_tables();
    test_descriptors();
    return tu_done("wire vectors");
}
