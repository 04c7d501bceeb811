/* SPDX-License-Identifier: Apache-2.0 */
/*
 * H4 (HanGu) and H7 completions: the HanGu CQE and error CQE against byte
 * images written by hand from 软硬件接口设计文档 3.3.1 (every 32-bit word
 * little-endian) and hangu-rtl-layouts.md "H4"; the CQE -> work completion
 * mapping for every completion code, every send opcode and every receive
 * opcode; the status numbers against libibverbs' IBV_WC_* values.
 */
#include "ibwire/host.h"
#include "testutil.h"

/* A good send CQE: my_qpn 0x42, byte_cnt 0x1000, wqe 0x40,
 * opcode 0x10 (RDMA_READ), is_send 1, owner 0 (software). */
static const uint8_t send_cqe[32] = {
    0x42, 0x00, 0x00, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0,    0,    0,    0,    0x00, 0x10, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00,
    0x10, 0x01, 0x00, 0x00};

/* A good receive CQE: my_qpn 0x43, rqpn 0x77, word 3 = sl_ipok 0x51
 * [7:0] (SL 5, IP OK) | g_mlpath 0x83 [15:8] (GRH, path bits 3) | rlid 9
 * [31:16] = 0x00098351, imm 0xCAFEF00D, byte_cnt 0x200, wqe 0x80,
 * opcode 0x05 (SEND_ONLY_WITH_IMMEDIATE), is_send 0, owner 0x80 (HW). */
static const uint8_t recv_cqe[32] = {
    0x43, 0x00, 0x00, 0x00, 0, 0, 0, 0, 0x77, 0x00, 0x00, 0x00,
    0x51, 0x83, 0x09, 0x00, 0x0D, 0xF0, 0xFE, 0xCA, 0x00, 0x02, 0x00, 0x00,
    0x80, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x80};

/* RTL error CQE: my_qpn 0x42, word 4 = syndrome 0x05 [31:24] | vendor_err
 * 0x7E [23:16] = 0x057E0000, wqe 0x100, opcode 0xFF, is_send byte 1. */
static const uint8_t err_rtl[32] = {
    0x42, 0x00, 0x00, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0x00, 0x00, 0x7E, 0x05, 0, 0, 0, 0, 0x00, 0x01, 0x00, 0x00,
    0xFF, 0x01, 0x00, 0x00};

/* The same error in the document's layout: syndrome [7:0], vendor_err
 * [15:8], db_cnt [31:16] of word 4 -> bytes 05 7E 00 00 (no is_send). */
static const uint8_t err_doc[32] = {
    0x42, 0x00, 0x00, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0x05, 0x7E, 0x00, 0x00, 0, 0, 0, 0, 0x00, 0x01, 0x00, 0x00,
    0xFF, 0x00, 0x00, 0x00};

static void test_layouts(void)
{
    struct ibw_hg_cqe c;
    uint8_t out[32];
    TU_EQ(ibw_hg_cqe_decode(recv_cqe, 32, &c), IBW_OK);
    TU_EQ(c.my_qpn, 0x43);
    TU_EQ(c.my_ee, 0);
    TU_EQ(c.rqpn, 0x77);
    TU_EQ(c.sl_ipok, 0x51);
    TU_EQ(c.g_mlpath, 0x83);
    TU_EQ(c.rlid, 9);
    TU_EQ(c.imm, 0xCAFEF00Du);
    TU_EQ(c.byte_cnt, 0x200);
    TU_EQ(c.wqe, 0x80);
    TU_EQ(c.opcode, 0x05);
    TU_EQ(c.is_send, 0);
    TU_EQ(c.owner, 0x80);
    memset(out, 0xCC, sizeof out);
    TU_EQ(ibw_hg_cqe_encode(&c, out, 32), IBW_OK);
    TU_MEMEQ(out, recv_cqe, 32);
    TU_EQ(ibw_hg_cqe_decode(recv_cqe, 31, &c), IBW_E_TRUNCATED);
    TU_EQ(ibw_hg_cqe_encode(&c, out, 31), IBW_E_NOSPACE);
    TU_EQ(ibw_hg_cqe_sw_owned(recv_cqe), 0);
    TU_EQ(ibw_hg_cqe_sw_owned(send_cqe), 1);

    /* descriptor path: rlid at [127:112] of the little-endian image */
    const struct ibw_format *f = ibw_hg_cqe_format();
    uint64_t v = 0;
    TU_EQ(ibw_field_get(f, ibw_format_field(f, "rlid"), recv_cqe, 32, &v),
          IBW_OK);
    TU_EQ(v, 9);

    struct ibw_hg_err_cqe e;
    TU_EQ(ibw_hg_err_cqe_decode(err_rtl, 32, &e), IBW_OK);
    TU_EQ(e.my_qpn, 0x42);
    TU_EQ(e.syndrome, 0x05);
    TU_EQ(e.vendor_err, 0x7E);
    TU_EQ(e.wqe, 0x100);
    TU_EQ(e.opcode, 0xFF);
    TU_EQ(e.owner, 0);
    struct ibw_hg_err_cqe_doc d;
    TU_EQ(ibw_hg_err_cqe_doc_decode(err_doc, 32, &d), IBW_OK);
    TU_EQ(d.syndrome, 0x05);
    TU_EQ(d.vendor_err, 0x7E);
    TU_EQ(d.db_cnt, 0);
    TU_EQ(d.wqe, 0x100);

    /* RTL -> document and back */
    struct ibw_hg_err_cqe_doc d2;
    ibw_hg_err_cqe_to_doc(&e, &d2);
    TU_EQ(ibw_hg_err_cqe_doc_encode(&d2, out, 32), IBW_OK);
    TU_MEMEQ(out, err_doc, 32);
    struct ibw_hg_err_cqe e2;
    ibw_hg_err_cqe_from_doc(&d, &e2);
    TU_EQ(ibw_hg_err_cqe_encode(&e2, out, 32), IBW_OK);
    uint8_t want[32];
    memcpy(want, err_rtl, 32);
    want[29] = 0; /* the is_send byte is in neither error layout */
    TU_MEMEQ(out, want, 32);
}

static void test_to_wc(void)
{
    struct ibw_wc wc;
    TU_EQ(ibw_hg_cqe_to_wc(send_cqe, 32, &wc), IBW_OK);
    TU_EQ(wc.status, IBW_WC_SUCCESS);
    TU_EQ(wc.opcode, IBW_WC_RDMA_READ);
    TU_EQ(wc.byte_len, 0x1000);
    TU_EQ(wc.qp_num, 0x42);
    TU_EQ(wc.wqe, 0x40);
    TU_EQ(wc.wr_id, 0);
    TU_EQ(wc.wc_flags, 0);

    TU_EQ(ibw_hg_cqe_to_wc(recv_cqe, 32, &wc), IBW_OK);
    TU_EQ(wc.status, IBW_WC_SUCCESS);
    TU_EQ(wc.opcode, IBW_WC_RECV);
    TU_EQ(wc.wc_flags, IBW_WC_WITH_IMM | IBW_WC_GRH);
    TU_EQ(wc.imm_data, 0xCAFEF00Du);
    TU_EQ(wc.src_qp, 0x77);
    TU_EQ(wc.slid, 9);
    TU_EQ(wc.sl, 5);
    TU_EQ(wc.dlid_path_bits, 3);
    TU_EQ(wc.byte_len, 0x200);
    TU_EQ(wc.qp_num, 0x43);
    TU_EQ(wc.wqe, 0x80);
    TU_EQ(wc.pkey_index, 0);

    /* every send opcode byte -> completion opcode */
    static const uint8_t sop[][2] = {
        {0x0A, IBW_WC_SEND},       {0x0B, IBW_WC_SEND},
        {0x08, IBW_WC_RDMA_WRITE}, {0x09, IBW_WC_RDMA_WRITE},
        {0x10, IBW_WC_RDMA_READ},  {0x11, IBW_WC_COMP_SWAP},
        {0x12, IBW_WC_FETCH_ADD},  {0x18, IBW_WC_BIND_MW}};
    uint8_t t[32];
    memcpy(t, send_cqe, 32);
    for (size_t i = 0; i < sizeof sop / sizeof sop[0]; i++) {
        t[28] = sop[i][0];
        TU_EQ(ibw_hg_cqe_to_wc(t, 32, &wc), IBW_OK);
        TU_EQ(wc.opcode, sop[i][1]);
    }
    t[28] = 0x00; /* NOP completes nothing a WC can name */
    TU_EQ(ibw_hg_cqe_to_wc(t, 32, &wc), IBW_E_OPCODE);

    /* every receive opcode byte (BTH opcode, low 5 bits) */
    static const uint32_t rop[][3] = {
        {0x02, IBW_WC_RECV, 0},
        {0x04, IBW_WC_RECV, 0},
        {0x03, IBW_WC_RECV, IBW_WC_WITH_IMM},
        {0x05, IBW_WC_RECV, IBW_WC_WITH_IMM},
        {0x09, IBW_WC_RECV_RDMA_WITH_IMM, IBW_WC_WITH_IMM},
        {0x0B, IBW_WC_RECV_RDMA_WITH_IMM, IBW_WC_WITH_IMM},
        {0x16, IBW_WC_RECV, IBW_WC_WITH_INV},
        {0x17, IBW_WC_RECV, IBW_WC_WITH_INV},
        {0x64, IBW_WC_RECV, 0}, /* UD SEND_ONLY: low 5 bits = 0x04 */
        {0x65, IBW_WC_RECV, IBW_WC_WITH_IMM}};
    memcpy(t, recv_cqe, 32);
    t[13] = 0x00; /* no GRH */
    for (size_t i = 0; i < sizeof rop / sizeof rop[0]; i++) {
        t[28] = (uint8_t)rop[i][0];
        TU_EQ(ibw_hg_cqe_to_wc(t, 32, &wc), IBW_OK);
        TU_EQ(wc.opcode, rop[i][1]);
        TU_EQ(wc.wc_flags, rop[i][2]);
        TU_EQ(wc.imm_data, rop[i][2] ? 0xCAFEF00Du : 0u);
        /* without an immediate the word holds the P_Key index [31:16] */
        TU_EQ(wc.pkey_index, rop[i][2] ? 0u : 0xCAFEu);
    }
    t[28] = 0x06; /* RDMA WRITE FIRST completes no receive */
    TU_EQ(ibw_hg_cqe_to_wc(t, 32, &wc), IBW_E_OPCODE);
    TU_EQ(ibw_hg_cqe_to_wc(t, 20, &wc), IBW_E_TRUNCATED);
}

static void test_statuses(void)
{
    /* IBV_WC_* numbers (libibverbs verbs.h, enum ibv_wc_status) */
    TU_EQ(IBW_WC_SUCCESS, 0);
    TU_EQ(IBW_WC_LOC_LEN_ERR, 1);
    TU_EQ(IBW_WC_LOC_QP_OP_ERR, 2);
    TU_EQ(IBW_WC_LOC_EEC_OP_ERR, 3);
    TU_EQ(IBW_WC_LOC_PROT_ERR, 4);
    TU_EQ(IBW_WC_WR_FLUSH_ERR, 5);
    TU_EQ(IBW_WC_MW_BIND_ERR, 6);
    TU_EQ(IBW_WC_BAD_RESP_ERR, 7);
    TU_EQ(IBW_WC_LOC_ACCESS_ERR, 8);
    TU_EQ(IBW_WC_REM_INV_REQ_ERR, 9);
    TU_EQ(IBW_WC_REM_ACCESS_ERR, 10);
    TU_EQ(IBW_WC_REM_OP_ERR, 11);
    TU_EQ(IBW_WC_RETRY_EXC_ERR, 12);
    TU_EQ(IBW_WC_RNR_RETRY_EXC_ERR, 13);
    TU_EQ(IBW_WC_LOC_RDD_VIOL_ERR, 14);
    TU_EQ(IBW_WC_REM_INV_RD_REQ_ERR, 15);
    TU_EQ(IBW_WC_REM_ABORT_ERR, 16);
    TU_EQ(IBW_WC_INV_EECN_ERR, 17);
    TU_EQ(IBW_WC_INV_EEC_STATE_ERR, 18);
    TU_EQ(IBW_WC_FATAL_ERR, 19);
    TU_EQ(IBW_WC_RESP_TIMEOUT_ERR, 20);
    TU_EQ(IBW_WC_GENERAL_ERR, 21);
    TU_EQ(IBW_WC_RECV, 128);
    TU_EQ(IBW_WC_RECV_RDMA_WITH_IMM, 129);
    TU_CHECK(strcmp(ibw_wc_status_name(5), "WR_FLUSH_ERR") == 0);
    TU_CHECK(strcmp(ibw_wc_status_name(21), "GENERAL_ERR") == 0);
    TU_CHECK(ibw_wc_status_name(22) == NULL);

    /* Every completion code (hw/sw interface table 3-3-3, HanGu RTL
     * sw_hw_interface_const_def_h.vh, mthca MTHCA_CQ_ENTRY_SYNDROME_*)
     * through an RTL error CQE, with the status it must give. */
    static const uint8_t map[][2] = {
        {0x01, 1},  {0x02, 2},  {0x03, 3},  {0x04, 4},  {0x05, 5},
        {0x06, 6},  {0x10, 7},  {0x11, 8},  {0x12, 9},  {0x13, 10},
        {0x14, 11}, {0x15, 12}, {0x16, 13}, {0x20, 14}, {0x21, 15},
        {0x22, 16}, {0x23, 17}, {0x24, 18},
        /* codes no table defines: general error */
        {0x00, 21}, {0x07, 21}, {0x25, 21}, {0xFF, 21}};
    uint8_t t[32];
    struct ibw_wc wc;
    memcpy(t, err_rtl, 32);
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
        t[19] = map[i][0];
        TU_EQ(ibw_hg_cqe_to_wc(t, 32, &wc), IBW_OK);
        TU_EQ(wc.status, map[i][1]);
        TU_EQ(wc.vendor_err, 0x7E);
        TU_EQ(wc.opcode, IBW_WC_SEND);
        TU_EQ(wc.wqe, 0x100);
        TU_EQ(wc.byte_len, 0);
        /* and back: the syndrome an engine writes for that status */
        uint8_t syn = 0;
        if (map[i][1] != 21) {
            TU_EQ(ibw_cqe_status_to_syndrome(map[i][1], &syn), IBW_OK);
            TU_EQ(syn, map[i][0]);
        }
    }
    /* statuses without a syndrome */
    uint8_t syn;
    TU_EQ(ibw_cqe_status_to_syndrome(IBW_WC_SUCCESS, &syn), IBW_E_RANGE);
    TU_EQ(ibw_cqe_status_to_syndrome(IBW_WC_FATAL_ERR, &syn), IBW_E_RANGE);
    TU_EQ(ibw_cqe_status_to_syndrome(IBW_WC_RESP_TIMEOUT_ERR, &syn),
          IBW_E_RANGE);
    TU_EQ(ibw_cqe_status_to_syndrome(IBW_WC_GENERAL_ERR, &syn), IBW_E_RANGE);

    /* error direction: the is_send byte; 0xFE (mthca receive error) too */
    t[19] = 0x05;
    t[29] = 0;
    TU_EQ(ibw_hg_cqe_to_wc(t, 32, &wc), IBW_OK);
    TU_EQ(wc.opcode, IBW_WC_RECV);
    t[28] = 0xFE;
    TU_EQ(ibw_hg_cqe_to_wc(t, 32, &wc), IBW_OK);
    TU_EQ(wc.status, IBW_WC_WR_FLUSH_ERR);
    TU_EQ(ibw_cqe_opcode_is_error(0xFE), 1);
    TU_EQ(ibw_cqe_opcode_is_error(0xFF), 1);
    TU_EQ(ibw_cqe_opcode_is_error(0x1E), 0);
}

int main(void)
{
    test_layouts();
    test_to_wc();
    test_statuses();
    return tu_done("host_cqe");
}
