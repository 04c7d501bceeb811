/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Send with Invalidate in the WQE (an extension: neither mthca nor the
 * HanGu WQE has the opcode; ibwire uses mlx4's MLX4_OPCODE_SEND_INVAL =
 * 0x01 and puts the R_Key where mlx4 does, in the immediate word).  The
 * bytes below are written out by hand from the H1 layout (HanGu: 32-bit
 * words little-endian): NextSeg word 2 has C = bit 3, word 3 the R_Key;
 * a DataSeg is byte_count, lkey, addr (64).
 */
#include "ibwire/host.h"
#include "testutil.h"

int main(void)
{
    /* SEND_WITH_INV, signalled, R_Key 0x00112233, one SGE 0x20 bytes at
     * 0x4000 lkey 0x77: NextSeg 00.. | 08 00 00 00 | 33 22 11 00, DataSeg
     * 20 00 00 00 | 77 00 00 00 | 00 40 00 00 00 00 00 00 */
    static const uint8_t want[32] = {
        0, 0, 0, 0, 0, 0, 0, 0, 0x08, 0, 0, 0, 0x33, 0x22, 0x11, 0x00,
        0x20, 0, 0, 0, 0x77, 0, 0, 0, 0x00, 0x40, 0, 0, 0, 0, 0, 0};
    static const struct ibw_sge sg[1] = {{0x4000, 0x20, 0x77}};
    struct ibw_send_wr wr;
    memset(&wr, 0, sizeof wr);
    wr.opcode = IBW_WR_SEND_WITH_INV;
    TU_EQ(wr.opcode, 9u); /* IBV_WR_SEND_WITH_INV */
    wr.send_flags = IBW_SEND_SIGNALED;
    wr.sg_list = sg;
    wr.num_sge = 1;
    wr.imm_data = 0x00112233u;
    uint8_t out[64];
    struct ibw_wqe_desc d;
    memset(out, 0xA5, sizeof out);
    TU_EQ(ibw_wqe_build_send(&wr, IBW_WQE_LAYOUT_HANGU, IBW_TR_RC, out,
                             sizeof out, &d), IBW_OK);
    TU_EQ(d.opcode, 0x01);
    TU_EQ(d.size, 2);
    TU_MEMEQ(out, want, sizeof want);
    TU_EQ(out[32], 0xA5);

    /* the walker reads it back: opcode 0x01 from the doorbell, R_Key in
     * next.imm, one data segment */
    struct ibw_wqe_walk_cfg cfg = {IBW_WQE_LAYOUT_HANGU, IBW_WQ_SEND,
                                   IBW_TR_RC, 0x01, 2, 0, 0};
    struct ibw_wqe_info wi;
    size_t n = 0;
    memset(&wi, 0, sizeof wi);
    ibw_wqe_walk(want, sizeof want, &cfg, &wi, 1, &n);
    TU_EQ(n, 1);
    TU_EQ(wi.err, IBW_OK);
    TU_EQ(wi.opcode, 0x01);
    TU_EQ(wi.next.imm, 0x00112233u);
    TU_EQ(wi.next.cq_update, 1);
    TU_EQ(wi.nsge, 1);
    TU_EQ(wi.total_len, 0x20);
    TU_CHECK(strcmp(ibw_wqe_opcode_name(0x01), "SEND_INV") == 0);

    /* RC only: IBA table 35 gives UC and UD no opcode with an IETH */
    TU_EQ(ibw_wqe_build_send(&wr, IBW_WQE_LAYOUT_HANGU, IBW_TR_UC, out,
                             sizeof out, &d), IBW_E_OPCODE);
    TU_EQ(ibw_wqe_build_send(&wr, IBW_WQE_LAYOUT_HANGU, IBW_TR_UD, out,
                             sizeof out, &d), IBW_E_OPCODE);
    cfg.service = IBW_TR_UC;
    memset(&wi, 0, sizeof wi);
    ibw_wqe_walk(want, sizeof want, &cfg, &wi, 1, &n);
    TU_EQ(wi.err, IBW_E_MALFORMED);

    /* inline, like any Send: "hi" -> InlineSeg 0x80000002 (LE 02 00 00 80) */
    static const uint8_t want_inl[32] = {
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x44, 0x33, 0x22, 0x11,
        0x02, 0x00, 0x00, 0x80, 'h', 'i', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    static const uint8_t hi[2] = {'h', 'i'};
    memset(&wr, 0, sizeof wr);
    wr.opcode = IBW_WR_SEND_WITH_INV;
    wr.send_flags = IBW_SEND_INLINE;
    wr.inline_data = hi;
    wr.inline_len = 2;
    wr.imm_data = 0x11223344u;
    TU_EQ(ibw_wqe_build_send(&wr, IBW_WQE_LAYOUT_HANGU, IBW_TR_RC, out,
                             sizeof out, &d), IBW_OK);
    TU_MEMEQ(out, want_inl, sizeof want_inl);
    cfg.service = IBW_TR_RC;
    memset(&wi, 0, sizeof wi);
    ibw_wqe_walk(want_inl, sizeof want_inl, &cfg, &wi, 1, &n);
    TU_EQ(wi.err, IBW_OK);
    TU_EQ(wi.has_inline, 1);
    TU_EQ(wi.inline_len, 2);

    /* its send CQE (opcode byte 0x01 at 0x1C, is_send 1) completes as a
     * Send: my_qpn 0x42, byte_cnt 0x20, wqe 0x40 */
    static const uint8_t cqe[32] = {
        0x42, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0x20, 0, 0, 0, 0x40, 0, 0, 0, 0x01, 0x01, 0x00, 0x00};
    struct ibw_wc wc;
    TU_EQ(ibw_hg_cqe_to_wc(cqe, sizeof cqe, &wc), IBW_OK);
    TU_EQ(wc.opcode, IBW_WC_SEND);
    TU_EQ(wc.byte_len, 0x20);
    return tu_done("host_sendinv");
}
