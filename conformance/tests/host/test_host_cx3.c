/* SPDX-License-Identifier: Apache-2.0 */
/*
 * H3, H5, H6 and the ConnectX-3 half of H4 against byte images written by
 * hand from the UESTC thesis (2017) fig. 2-3, 4-15, 4-16, 4-17, 4-19 with the
 * bit positions of mlx4 (mthca-mlx4-layouts.md §4-§7).  All words big-endian.
 */
#include "ibwire/host.h"
#include "testutil.h"

static void test_gmp_wqe(void)
{
    /* control: owner 1, opcode 01010 -> word 0x8000000A; DS 2 -> 0x00000002;
     * SLR [16], MaxStatRate 3 [15:12], SL 5 [11:8], icrc [4], C 3 [3:2]
     *   -> 0x00010000 | 0x3000 | 0x0500 | 0x10 | 0x0C = 0x0001351C;
     * RLID 7 [31:16] -> 0x00070000.
     * data: byte count 256 -> 0x00000100; L_Key 0x1234;
     *       address 0x0000000087654320 */
    static const uint8_t v[32] = {
        0x80, 0x00, 0x00, 0x0A, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01, 0x35,
        0x1C, 0x00, 0x07, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
        0x12, 0x34, 0x00, 0x00, 0x00, 0x00, 0x87, 0x65, 0x43, 0x20};
    struct ibw_cx3_gmp_ctrl c;
    TU_EQ(ibw_cx3_gmp_ctrl_decode(v, 16, &c), IBW_OK);
    TU_EQ(c.owner, 1);
    TU_EQ(c.opcode, 0x0A);
    TU_EQ(c.ds, 2);
    TU_EQ(c.vl15, 0);
    TU_EQ(c.slr, 1);
    TU_EQ(c.max_stat_rate, 3);
    TU_EQ(c.sl, 5);
    TU_EQ(c.icrc, 1);
    TU_EQ(c.cq_update, 3);
    TU_EQ(c.fl, 0);
    TU_EQ(c.rlid, 7);
    TU_EQ(c.resv0 | c.resv1 | c.resv2 | c.resv3 | c.resv4 | c.resv5, 0);
    struct ibw_cx3_data d;
    TU_EQ(ibw_cx3_data_decode(v + 16, 16, &d), IBW_OK);
    TU_EQ(d.inline_flag, 0);
    TU_EQ(d.byte_count, 256);
    TU_EQ(d.lkey, 0x1234);
    TU_EQ(d.addr, 0x87654320u);

    uint8_t out[32];
    memset(out, 0xAA, sizeof out);
    TU_EQ(ibw_cx3_gmp_ctrl_encode(&c, out, 16), IBW_OK);
    TU_EQ(ibw_cx3_data_encode(&d, out + 16, 16), IBW_OK);
    TU_MEMEQ(out, v, 32);

    struct ibw_cx3_gmp_req r;
    memset(&r, 0, sizeof r);
    r.owner = 1;
    r.slr = 1;
    r.max_stat_rate = 3;
    r.sl = 5;
    r.icrc = 1;
    r.signaled = 1;
    r.rlid = 7;
    r.lkey = 0x1234;
    r.addr = 0x87654320u;
    memset(out, 0xAA, sizeof out);
    TU_EQ(ibw_cx3_gmp_wqe_build(&r, out, sizeof out), IBW_OK);
    TU_MEMEQ(out, v, 32);
    TU_EQ(ibw_cx3_gmp_wqe_build(&r, out, 31), IBW_E_NOSPACE);

    /* V (VL15, bit 17) and FL (bit 0): word 2 = 0x00020001 */
    static const uint8_t w2[16] = {0, 0, 0, 0, 0, 0, 0, 0,
                                   0x00, 0x02, 0x00, 0x01, 0, 0, 0, 0};
    TU_EQ(ibw_cx3_gmp_ctrl_decode(w2, 16, &c), IBW_OK);
    TU_EQ(c.vl15, 1);
    TU_EQ(c.fl, 1);
    TU_EQ(c.slr, 0);
    TU_EQ(c.cq_update, 0);
    TU_EQ(ibw_cx3_gmp_ctrl_decode(w2, 15, &c), IBW_E_TRUNCATED);
}

static void test_cqe(void)
{
    /* send completion: my_qpn 0x42, byte_cnt 0x100, wqe_counter 5,
     * Timestamp[15:0] 0x1234, owner 1, S/R 1, opcode 0x0A:
     * last byte = 0x80 | 0x40 | 0x0A = 0xCA */
    static const uint8_t s[32] = {
        0x00, 0x00, 0x00, 0x42, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0,    0,    0,    0,    0x00, 0x00, 0x01, 0x00, 0x00, 0x05, 0x00,
        0x00, 0x00, 0x12, 0x34, 0xCA};
    struct ibw_cx3_cqe c;
    TU_EQ(ibw_cx3_cqe_decode(s, 32, &c), IBW_OK);
    TU_EQ(c.my_qpn, 0x42);
    TU_EQ(c.byte_cnt, 0x100);
    TU_EQ(c.wqe_counter, 5);
    TU_EQ(c.timestamp, 0x1234);
    TU_EQ(c.owner, 1);
    TU_EQ(c.sr, 1);
    TU_EQ(c.is, 0);
    TU_EQ(c.opcode, 0x0A);
    uint8_t out[32];
    TU_EQ(ibw_cx3_cqe_encode(&c, out, 32), IBW_OK);
    TU_MEMEQ(out, s, 32);
    struct ibw_wc wc;
    TU_EQ(ibw_cx3_cqe_to_wc(s, 32, &wc), IBW_OK);
    TU_EQ(wc.status, IBW_WC_SUCCESS);
    TU_EQ(wc.opcode, IBW_WC_SEND);
    TU_EQ(wc.byte_len, 0x100);
    TU_EQ(wc.qp_num, 0x42);
    TU_EQ(wc.wqe, 5);

    /* RoCE receive, SEND with immediate: my_qpn 0x43, immed 0xDEADBEEF,
     * G 1 + path 5 -> 0x85, rqpn 0x99, SL 3 / VID 0x064 -> 0x3064,
     * SMAC 02:11:22:33:44:55 (0x0211 at 0x0E, 0x22334455 at 0x10),
     * byte_cnt 0x40, wqe_counter 0x10, checksum 0xBEEF, owner 0, S/R 0,
     * opcode 0x02 (SEND_IMM) */
    static const uint8_t r[32] = {
        0x00, 0x00, 0x00, 0x43, 0xDE, 0xAD, 0xBE, 0xEF, 0x85, 0x00, 0x00,
        0x99, 0x30, 0x64, 0x02, 0x11, 0x22, 0x33, 0x44, 0x55, 0x00, 0x00,
        0x00, 0x40, 0x00, 0x10, 0xBE, 0xEF, 0x00, 0x00, 0x00, 0x02};
    TU_EQ(ibw_cx3_cqe_decode(r, 32, &c), IBW_OK);
    TU_EQ(c.g, 1);
    TU_EQ(c.mlpath, 5);
    TU_EQ(c.rqpn, 0x99);
    TU_EQ(c.sl, 3);
    TU_EQ(c.vid, 0x064);
    TU_EQ(c.rlid, 0x0211);
    TU_EQ(c.smac_lo, 0x22334455);
    TU_EQ(c.checksum, 0xBEEF);
    TU_EQ(ibw_cx3_cqe_encode(&c, out, 32), IBW_OK);
    TU_MEMEQ(out, r, 32);
    TU_EQ(ibw_cx3_cqe_to_wc(r, 32, &wc), IBW_OK);
    TU_EQ(wc.status, IBW_WC_SUCCESS);
    TU_EQ(wc.opcode, IBW_WC_RECV);
    TU_EQ(wc.wc_flags, IBW_WC_WITH_IMM | IBW_WC_GRH);
    TU_EQ(wc.imm_data, 0xDEADBEEFu);
    TU_EQ(wc.src_qp, 0x99);
    TU_EQ(wc.sl, 3);
    TU_EQ(wc.dlid_path_bits, 5);
    TU_EQ(wc.slid, 0x0211);
    TU_EQ(wc.byte_len, 0x40);
    TU_EQ(wc.wqe, 0x10);

    /* the other receive opcodes: 0x00 RDMA_WRITE_IMM, 0x01 SEND (P_Key
     * index = immed & 0x7F), 0x03 SEND_INV; 0x05 is none */
    uint8_t t[32];
    memcpy(t, r, 32);
    t[31] = 0x00;
    TU_EQ(ibw_cx3_cqe_to_wc(t, 32, &wc), IBW_OK);
    TU_EQ(wc.opcode, IBW_WC_RECV_RDMA_WITH_IMM);
    TU_CHECK(wc.wc_flags & IBW_WC_WITH_IMM);
    t[31] = 0x01;
    TU_EQ(ibw_cx3_cqe_to_wc(t, 32, &wc), IBW_OK);
    TU_EQ(wc.opcode, IBW_WC_RECV);
    TU_EQ(wc.wc_flags, IBW_WC_GRH);
    TU_EQ(wc.pkey_index, 0xEF & 0x7F);
    TU_EQ(wc.imm_data, 0);
    t[31] = 0x03;
    TU_EQ(ibw_cx3_cqe_to_wc(t, 32, &wc), IBW_OK);
    TU_EQ(wc.wc_flags, IBW_WC_WITH_INV | IBW_WC_GRH);
    TU_EQ(wc.imm_data, 0xDEADBEEFu);
    t[31] = 0x05;
    TU_EQ(ibw_cx3_cqe_to_wc(t, 32, &wc), IBW_E_OPCODE);
    TU_EQ(ibw_cx3_cqe_to_wc(t, 31, &wc), IBW_E_TRUNCATED);

    /* error CQE: my_qpn 0x42, wqe_counter 7, vendor_err 0x33, syndrome
     * 0x15 (retry exceeded), S/R 1, opcode 11110 -> 0x40 | 0x1E = 0x5E */
    static const uint8_t e[32] = {
        0x00, 0x00, 0x00, 0x42, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0,    0,    0,    0,    0, 0, 0, 0, 0x00, 0x07, 0x33, 0x15,
        0,    0,    0,    0x5E};
    struct ibw_cx3_err_cqe ec;
    TU_EQ(ibw_cx3_err_cqe_decode(e, 32, &ec), IBW_OK);
    TU_EQ(ec.my_qpn, 0x42);
    TU_EQ(ec.wqe_counter, 7);
    TU_EQ(ec.vendor_err, 0x33);
    TU_EQ(ec.syndrome, 0x15);
    TU_EQ(ec.sr, 1);
    TU_EQ(ec.opcode, IBW_CX3_CQE_OPCODE_ERROR);
    TU_EQ(ibw_cx3_err_cqe_encode(&ec, out, 32), IBW_OK);
    TU_MEMEQ(out, e, 32);
    TU_EQ(ibw_cx3_cqe_to_wc(e, 32, &wc), IBW_OK);
    TU_EQ(wc.status, IBW_WC_RETRY_EXC_ERR);
    TU_EQ(wc.vendor_err, 0x33);
    TU_EQ(wc.opcode, IBW_WC_SEND);
    TU_EQ(wc.wqe, 7);
    TU_EQ(wc.qp_num, 0x42);

    /* every syndrome of the mlx4 table through a ConnectX-3 error CQE */
    static const uint8_t map[][2] = {
        {0x01, 1},  {0x02, 2},  {0x04, 4},  {0x05, 5},  {0x06, 6},
        {0x10, 7},  {0x11, 8},  {0x12, 9},  {0x13, 10}, {0x14, 11},
        {0x15, 12}, {0x16, 13}, {0x22, 16}, {0x7F, 21}};
    memcpy(t, e, 32);
    t[31] = 0x1E; /* receive side */
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
        t[27] = map[i][0];
        TU_EQ(ibw_cx3_cqe_to_wc(t, 32, &wc), IBW_OK);
        TU_EQ(wc.status, map[i][1]);
        TU_EQ(wc.opcode, IBW_WC_RECV);
    }
}

static void test_hcr(void)
{
    /* RST2INIT_QP: in_param 0x12345000 (mailbox), in_modifier 0x1A5
     * (QPN), out_param 0xABCD0000, token 0xFFFF, go 1 (bit 23),
     * t 1 (bit 21), opcode 0x019: word 6 = 0x00A00019 */
    static const uint8_t v[28] = {
        0x00, 0x00, 0x00, 0x00, 0x12, 0x34, 0x50, 0x00, 0x00, 0x00,
        0x01, 0xA5, 0x00, 0x00, 0x00, 0x00, 0xAB, 0xCD, 0x00, 0x00,
        0xFF, 0xFF, 0x00, 0x00, 0x00, 0xA0, 0x00, 0x19};
    struct ibw_hcr h;
    memset(&h, 0, sizeof h);
    h.in_param = 0x12345000u;
    h.in_modifier = 0x1A5;
    h.out_param = 0xABCD0000u;
    h.token = IBW_HCR_POLL_TOKEN;
    h.go = 1;
    h.t = 1;
    h.opcode = IBW_HCR_OP_RST2INIT_QP;
    uint8_t out[28];
    memset(out, 0x5A, sizeof out);
    TU_EQ(ibw_hcr_encode(&h, out, sizeof out), IBW_OK);
    TU_MEMEQ(out, v, 28);
    TU_EQ(ibw_hcr_encode(&h, out, 27), IBW_E_NOSPACE);
    TU_EQ(ibw_hcr_get_opcode(v + 0), 0x019);
    TU_EQ(ibw_hcr_busy(v, 0), 1); /* go set */

    /* status 0x10 (BAD_QP_STATE), e 1, t 1, op_modifier 0xAB, opcode
     * 0xFFA: word 6 = 0x10000000 | 0x00400000 | 0x00200000 | 0x000AB000 |
     * 0xFFA = 0x106ABFFA */
    static const uint8_t w6[28] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                   0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                   0, 0, 0, 0, 0x10, 0x6A, 0xBF, 0xFA};
    TU_EQ(ibw_hcr_decode(w6, 28, &h), IBW_OK);
    TU_EQ(h.status, IBW_HCR_STAT_BAD_QP_STATE);
    TU_EQ(h.go, 0);
    TU_EQ(h.e, 1);
    TU_EQ(h.t, 1);
    TU_EQ(h.resv1, 0);
    TU_EQ(h.op_modifier, 0xAB);
    TU_EQ(h.opcode, IBW_HCR_OP_MAP_ICM);
    TU_EQ(ibw_hcr_decode(w6, 27, &h), IBW_E_TRUNCATED);
    TU_EQ(ibw_hcr_busy(w6, 1), 1); /* t still equals our toggle */
    TU_EQ(ibw_hcr_busy(w6, 0), 0);
    TU_CHECK(strcmp(ibw_hcr_status_name(0x10), "BAD_QP_STATE") == 0);
    TU_CHECK(strcmp(ibw_hcr_status_name(0x05), "BAD_RESOURCE") == 0);
    TU_CHECK(strcmp(ibw_hg_hcr_status_name(0x05), "BAD_NVMEM") == 0);
    TU_CHECK(ibw_hcr_status_name(0x07) == NULL);
    TU_CHECK(strcmp(ibw_hcr_opcode_name(0x21), "2RST_QP") == 0);
    TU_CHECK(strcmp(ibw_hcr_opcode_name(0x16), "SW2HW_CQ") == 0);

    /* the QP state machine's commands (mthca/mlx4 opcode values) */
    static const uint16_t tr[][3] = {
        {0, 1, 0x19}, {1, 1, 0x2D}, {1, 2, 0x1A}, {2, 3, 0x1B},
        {3, 3, 0x1C}, {3, 4, 0x1F}, {4, 3, 0x20}, {4, 4, 0x38},
        {5, 3, 0x1D}, {3, 6, 0x1E}, {0, 6, 0x1E}, {6, 6, 0x1E},
        {6, 0, 0x21}, {3, 0, 0x21}, {0, 0, 0}};
    for (size_t i = 0; i < sizeof tr / sizeof tr[0]; i++) {
        uint16_t op = 0xFFFF;
        TU_EQ(ibw_hcr_modify_qp_opcode(tr[i][0], tr[i][1], &op), IBW_OK);
        TU_EQ(op, tr[i][2]);
    }
    uint16_t op;
    TU_EQ(ibw_hcr_modify_qp_opcode(0, 2, &op), IBW_E_RANGE); /* RST->RTR */
    TU_EQ(ibw_hcr_modify_qp_opcode(6, 3, &op), IBW_E_RANGE); /* ERR->RTS */
    TU_EQ(ibw_hcr_modify_qp_opcode(2, 4, &op), IBW_E_RANGE); /* RTR->SQD */
    TU_EQ(ibw_hcr_modify_qp_opcode(7, 0, &op), IBW_E_RANGE);
}

static void test_uar(void)
{
    /* send doorbell, QPN 0x123: BE32(0x123 << 8) */
    static const uint8_t sd[4] = {0x00, 0x01, 0x23, 0x00};
    struct ibw_uar_send_db s;
    memset(&s, 0, sizeof s);
    s.qpn = 0x123;
    uint8_t out[8];
    TU_EQ(ibw_uar_send_db_encode(&s, out, 4), IBW_OK);
    TU_MEMEQ(out, sd, 4);
    TU_EQ(ibw_uar_send_db_decode(sd, 4, &s), IBW_OK);
    TU_EQ(s.qpn, 0x123);

    /* CQ doorbell: sn 2, cmd REQ_NOT (2), CQN 0x45 -> 0x22000045;
     * cq_ci 0xABCD at 0x24 */
    static const uint8_t cd[8] = {0x22, 0x00, 0x00, 0x45,
                                  0x00, 0x00, 0xAB, 0xCD};
    struct ibw_uar_cq_db c;
    TU_EQ(ibw_uar_cq_db_decode(cd, 8, &c), IBW_OK);
    TU_EQ(c.cmd_sn, 2);
    TU_EQ(c.cmd, IBW_CX3_CQ_DB_REQ_NOT);
    TU_EQ(c.cqn, 0x45);
    TU_EQ(c.cq_ci, 0xABCD);
    TU_EQ(c.resv0 | c.resv1 | c.resv2, 0);
    TU_EQ(ibw_uar_cq_db_encode(&c, out, 8), IBW_OK);
    TU_MEMEQ(out, cd, 8);
    TU_EQ(IBW_UAR_CQ_CI_OFFSET - IBW_UAR_CQ_DB_OFFSET, 4);
    TU_EQ(IBW_UAR_SEND_DB_OFFSET, 0x14);
}

int main(void)
{
    test_gmp_wqe();
    test_cqe();
    test_hcr();
    test_uar();
    return tu_done("host_cx3");
}
