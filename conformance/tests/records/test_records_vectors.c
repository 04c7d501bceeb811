/* SPDX-License-Identifier: Apache-2.0 */
/*
 * E1-E26 against word images written by hand from the layout tables (HanGu
 * RDMA engine design appendix 7 and chapter 3/4 tables, HanGu DMA engine
 * design v1.5 T1-2, the RTL positions of hangu-rtl-layouts.md, and ibwire's
 * documented choice for E24).  Each comment derives the words from the field
 * positions; words are listed word 0 (bits [31:0]) first.
 *
 * For every vector: pack(fields) == words, unpack(words) == fields, every
 * getter on the words == its field, every setter on zero words == words.
 * The end checks that every record in the registry had a vector.
 */
#include "ibwire/registry.h"
#include "testutil.h"

/* ---- the per-vector checks, expanded from each record's field list ---- */

#define GET_EQ_INT(pfx, name)                                                 \
    TU_EQ(pfx##_get_##name(want_), in_.name);                                 \
    TU_EQ(out_.name, in_.name);
#define GET_EQ_U8 GET_EQ_INT
#define GET_EQ_U16 GET_EQ_INT
#define GET_EQ_U32 GET_EQ_INT
#define GET_EQ_U64 GET_EQ_INT
#define GET_EQ_WIDE(pfx, name)                                                \
    {                                                                         \
        uint32_t g_[IBW_RECORD_MAX_WORDS];                                    \
        pfx##_get_##name(want_, g_);                                          \
        TU_MEMEQ(g_, in_.name, sizeof in_.name);                              \
        TU_MEMEQ(out_.name, in_.name, sizeof in_.name);                       \
    }
#define GET_EQ(pfx, name, hi, lo, kind, desc) GET_EQ_##kind(pfx, name)
#define SET_ONE(pfx, name, hi, lo, kind, desc) pfx##_set_##name(set_, in_.name);

static char covered[128][32];
static size_t ncovered;

static void cover(const char *name)
{
    if (ncovered < 128)
        snprintf(covered[ncovered++], sizeof covered[0], "%s", name);
}

/* in: the hand-chosen fields; want: the hand-derived words. */
#define CHECK_VEC(pfx, LIST, in, want)                                        \
    do {                                                                      \
        const struct pfx in_ = in;                                            \
        const uint32_t *want_ = want;                                         \
        TU_EQ(sizeof(want) / sizeof(want)[0], pfx##_WORDS);                   \
        uint32_t got_[pfx##_WORDS];                                           \
        memset(got_, 0xA5, sizeof got_);                                      \
        pfx##_pack(&in_, got_);                                               \
        TU_MEMEQ(got_, want_, sizeof got_);                                   \
        struct pfx out_;                                                      \
        memset(&out_, 0x5A, sizeof out_);                                     \
        pfx##_unpack(want_, &out_);                                           \
        LIST(GET_EQ, pfx)                                                     \
        uint32_t set_[pfx##_WORDS];                                           \
        memset(set_, 0, sizeof set_);                                         \
        LIST(SET_ONE, pfx)                                                    \
        TU_MEMEQ(set_, want_, sizeof set_);                                   \
        cover(pfx##_format()->name);                                          \
    } while (0)

/* ---------------------------------- E1 --------------------------------- */

static void test_sq_doorbell(void)
{
    /* opcode 0x0A (SEND) [4:0], F 1 [5], offset 0xFEDCBA [31:8],
     * size 3 [39:32], qpn 0xABCDEF [63:40]:
     * w0 = 0xFEDCBA<<8 | 1<<5 | 0x0A = 0xFEDCBA2A
     * w1 = 0xABCDEF<<8 | 0x03      = 0xABCDEF03 */
    static const struct ibw_sq_doorbell r = {
        .opcode = IBW_REC_OP_SEND, .fence = 1, .offset = 0xFEDCBA, .size = 3,
        .qpn = 0xABCDEF};
    static const uint32_t w[] = {0xFEDCBA2A, 0xABCDEF03};
    CHECK_VEC(ibw_sq_doorbell, IBW_SQ_DOORBELL_FIELDS, r, w);

    /* The FIFO word's byte image: each word little-endian, word 0 first. */
    static const uint8_t image[8] = {0x2A, 0xBA, 0xDC, 0xFE,
                                     0x03, 0xEF, 0xCD, 0xAB};
    uint8_t b[8];
    ibw_rec_to_bytes(w, 2, b);
    TU_MEMEQ(b, image, 8);
    uint32_t back[2];
    ibw_rec_from_bytes(image, 2, back);
    TU_MEMEQ(back, w, sizeof w);

    /* Setters mask to the field: qpn 0x1FFFFFF keeps 24 bits. */
    uint32_t m[2] = {0, 0};
    ibw_sq_doorbell_set_qpn(m, 0x1FFFFFF);
    TU_EQ(m[1], 0xFFFFFF00);
    TU_EQ(m[0], 0);
}

/* ---------------------------------- E2 --------------------------------- */

static void test_cxt(void)
{
    /* type 2 (WR_QP_CTX) [127:124], opcode 3 (NPST) [123:120],
     * qpn 0x123456 [119:96]: w3 = 0x2<<28 | 0x3<<24 | 0x123456 */
    static const struct ibw_cxt_cmd c = {
        .type = IBW_CXT_WR_QP_CTX, .opcode = IBW_CXT_WR_QP_NPST,
        .qpn = 0x123456};
    static const uint32_t wc[] = {0, 0, 0, 0x23123456};
    CHECK_VEC(ibw_cxt_cmd, IBW_CXT_CMD_FIELDS, c, wc);

    /* type 1, opcode 4 (RST), qpn 0xABCDEF: w3 = 0x14ABCDEF */
    static const struct ibw_cxt_resp rsp = {
        .type = IBW_CXT_RD_QP_CTX, .opcode = IBW_CXT_RD_QP_RST,
        .qpn = 0xABCDEF};
    static const uint32_t wr[] = {0, 0, 0, 0x14ABCDEF};
    CHECK_VEC(ibw_cxt_resp, IBW_CXT_CMD_FIELDS, rsp, wr);

    /* state 3 (RTS) [2:0], psn 0x123456 [31:8]: w0 = 0x12345603 */
    static const struct ibw_cxt_wr_data d = {.state = IBW_CXT_QPS_RTS,
                                             .psn = 0x123456};
    static const uint32_t wd[] = {0x12345603, 0, 0, 0};
    CHECK_VEC(ibw_cxt_wr_data, IBW_CXT_WR_DATA_FIELDS, d, wd);
}

static void test_cxt_views(void)
{
    /* SST: service_type 3 [7:0], dst_qpn 0xABCDEF [31:8] -> w0 0xABCDEF03;
     * pkey 0x8001 [47:32], msgmax 0x11 [52:48], pmtu 5 [55:53]:
     * byte [55:48] = 5<<5 | 0x11 = 0xB1 -> w1 0x00B18001;
     * sq_lkey w2, pd w3; sq_entry_sz_log 6 [135:128] -> w4 6;
     * sq_length 0x10000 [191:160] -> w5. */
    static const struct ibw_cxt_view_sst sst = {
        .service_type = 3, .dst_qpn = 0xABCDEF, .pkey = 0x8001,
        .msgmax = 0x11, .pmtu = 5, .sq_lkey = 0x11223344, .pd = 0x55667788,
        .sq_entry_sz_log = 6, .sq_length = 0x10000};
    static const uint32_t wsst[] = {0xABCDEF03, 0x00B18001, 0x11223344,
                                    0x55667788, 0x00000006, 0x00010000, 0, 0};
    CHECK_VEC(ibw_cxt_view_sst, IBW_CXT_VIEW_SST_FIELDS, sst, wsst);

    /* STATE: sq_entry_sz_log 7 [7:0], state 6 [31:29] -> 0xC0000007;
     * sq_length 0x2000 [63:32]. */
    static const struct ibw_cxt_view_state st = {
        .sq_entry_sz_log = 7, .state = IBW_CXT_QPS_ERR, .sq_length = 0x2000};
    static const uint32_t wst[] = {0xC0000007, 0x00002000, 0, 0};
    CHECK_VEC(ibw_cxt_view_state, IBW_CXT_VIEW_STATE_FIELDS, st, wst);

    /* NPST: state 3, next_psn 0x654321 -> w0 0x65432103; cq_lkey w1;
     * cq_size_log 0x0C [71:64] -> w2; cq_pd w3; cqn 0x00ABCD [151:128],
     * eqn 0x7E [159:152] -> w4 0x7E00ABCD; dmac_lo 0x1234 [175:160],
     * eq_size_log 0x0A [191:184] -> w5 0x0A001234; eq_lkey w6; eq_pd w7;
     * eq_intr 0x8421 [271:256] -> w8. */
    static const struct ibw_cxt_view_npst np = {
        .state = 3, .next_psn = 0x654321, .cq_lkey = 0xCAFEBABE,
        .cq_size_log = 0x0C, .cq_pd = 0xBEEF, .cqn = 0xABCD, .eqn = 0x7E,
        .dmac_lo = 0x1234, .eq_size_log = 0x0A, .eq_lkey = 0xDEADBEEF,
        .eq_pd = 0x42, .eq_intr = 0x8421};
    static const uint32_t wnp[] = {0x65432103, 0xCAFEBABE, 0x0000000C,
                                   0x0000BEEF, 0x7E00ABCD, 0x0A001234,
                                   0xDEADBEEF, 0x00000042, 0x00008421};
    CHECK_VEC(ibw_cxt_view_npst, IBW_CXT_VIEW_NPST_FIELDS, np, wnp);

    /* CST: state 2, unacked_psn 0x000100 -> w0 0x00010002; dmac_lo 0xAB
     * [39:32], next_psn 0x000123 [63:40] -> w1 0x000123AB; dmac_hi 0xCD
     * [71:64], remote_qpn 0x00FEDC [95:72] -> w2 0x00FEDCCD; cq_lkey w3,
     * qp_pd w4, cq_pd w5; cq_size_log 0x0F [199:192] -> w6; cqn 0x00BEEF
     * [247:224], eqn 0x99 [255:248] -> w7 0x9900BEEF. */
    static const struct ibw_cxt_view_cst cs = {
        .state = 2, .unacked_psn = 0x100, .dmac_lo = 0xAB, .next_psn = 0x123,
        .dmac_hi = 0xCD, .remote_qpn = 0xFEDC, .cq_lkey = 0x01020304,
        .qp_pd = 0x05060708, .cq_pd = 0x090A0B0C, .cq_size_log = 0x0F,
        .cqn = 0xBEEF, .eqn = 0x99};
    static const uint32_t wcs[] = {0x00010002, 0x000123AB, 0x00FEDCCD,
                                   0x01020304, 0x05060708, 0x090A0B0C,
                                   0x0000000F, 0x9900BEEF};
    CHECK_VEC(ibw_cxt_view_cst, IBW_CXT_VIEW_CST_FIELDS, cs, wcs);

    /* RST: state 3 [2:0], rnr_timer 0x1F [7:3] -> byte 0xFB, expected_psn
     * 0x777777 -> w0 0x777777FB; pkey 0xFFFF, msgmax 0x0C, pmtu 3 ->
     * byte [55:48] 0x6C, dmac_lo 0x5A [63:56] -> w1 0x5A6CFFFF; remote_qpn
     * 0x112233 [87:64], rq_entry_sz_log 4 [95:88] -> w2 0x04112233;
     * rq_lkey w3, cq_lkey w4, qp_pd w5, cq_pd w6, rq_length w7;
     * cq_size_log 0x0B -> w8; cqn 0x00ABCD [311:288], dmac_hi 0xA5
     * [319:312] -> w9 0xA500ABCD. */
    static const struct ibw_cxt_view_rst rs = {
        .state = 3, .rnr_timer = 0x1F, .expected_psn = 0x777777,
        .pkey = 0xFFFF, .msgmax = 0x0C, .pmtu = 3, .dmac_lo = 0x5A,
        .remote_qpn = 0x112233, .rq_entry_sz_log = 4, .rq_lkey = 0xA1A2A3A4,
        .cq_lkey = 0xB1B2B3B4, .qp_pd = 0xC1C2C3C4, .cq_pd = 0xD1D2D3D4,
        .rq_length = 0x00400000, .cq_size_log = 0x0B, .cqn = 0xABCD,
        .dmac_hi = 0xA5};
    static const uint32_t wrs[] = {0x777777FB, 0x5A6CFFFF, 0x04112233,
                                   0xA1A2A3A4, 0xB1B2B3B4, 0xC1C2C3C4,
                                   0xD1D2D3D4, 0x00400000, 0x0000000B,
                                   0xA500ABCD};
    CHECK_VEC(ibw_cxt_view_rst, IBW_CXT_VIEW_RST_FIELDS, rs, wrs);

    /* documents' CST view (T7.42): state 3, UnAcked PSN 0xAAA [31:8] ->
     * w0 0x000AAA03; Next PSN 0xBBB [63:40] -> w1 0x000BBB00; CQ L_Key
     * [95:64] -> w2 */
    static const struct ibw_cxt_view_cst_doc csd = {
        .state = 3, .unacked_psn = 0xAAA, .next_psn = 0xBBB,
        .cq_lkey = 0x12345678};
    static const uint32_t wcsd[] = {0x000AAA03, 0x000BBB00, 0x12345678};
    CHECK_VEC(ibw_cxt_view_cst_doc, IBW_CXT_VIEW_CST_DOC_FIELDS, csd, wcsd);
    /* the RTL view above in the documents' layout: Next PSN 0x123 -> w1
     * 0x00012300 (the DMAC byte has no place), CQ L_Key in w2 */
    struct ibw_cxt_view_cst_doc csd2;
    ibw_cxt_view_cst_to_doc(&cs, &csd2);
    uint32_t w3[3];
    ibw_cxt_view_cst_doc_pack(&csd2, w3);
    static const uint32_t wcs2[] = {0x00010002, 0x00012300, 0x01020304};
    TU_MEMEQ(w3, wcs2, sizeof w3);
    struct ibw_cxt_view_cst csb;
    ibw_cxt_view_cst_from_doc(&csd, &csb);
    TU_EQ(csb.cq_lkey, 0x12345678);
    TU_EQ(csb.next_psn, 0xBBB);
    TU_EQ(csb.remote_qpn, 0);

    /* documents' RST view (T7.41): state 6, RNRTimer 0x12 [7:3] -> 0x96,
     * Expected PSN 0x123456 -> w0 0x12345696; L_Key w1, PD w2; P_Key
     * 0xFFFF [111:96], PMTU 5 [127:112] -> w3 0x0005FFFF */
    static const struct ibw_cxt_view_rst_doc rsd = {
        .state = 6, .rnr_timer = 0x12, .expected_psn = 0x123456,
        .lkey = 0xAABBCCDD, .pd = 0x42, .pkey = 0xFFFF, .pmtu = 5};
    static const uint32_t wrsd[] = {0x12345696, 0xAABBCCDD, 0x00000042,
                                    0x0005FFFF};
    CHECK_VEC(ibw_cxt_view_rst_doc, IBW_CXT_VIEW_RST_DOC_FIELDS, rsd, wrsd);
    /* the RTL view above: RQ L_Key and QP PD move to words 1 and 2, PMTU 3
     * -> w3 0x0003FFFF */
    struct ibw_cxt_view_rst_doc rsd2;
    ibw_cxt_view_rst_to_doc(&rs, &rsd2);
    uint32_t w4[4];
    ibw_cxt_view_rst_doc_pack(&rsd2, w4);
    static const uint32_t wrs2[] = {0x777777FB, 0xA1A2A3A4, 0xC1C2C3C4,
                                    0x0003FFFF};
    TU_MEMEQ(w4, wrs2, sizeof w4);
    struct ibw_cxt_view_rst rsb;
    TU_EQ(ibw_cxt_view_rst_from_doc(&rsd, &rsb), IBW_OK);
    TU_EQ(rsb.rq_lkey, 0xAABBCCDD);
    TU_EQ(rsb.qp_pd, 0x42);
    TU_EQ(rsb.pmtu, 5);
    TU_EQ(rsb.cq_lkey, 0);
    struct ibw_cxt_view_rst_doc bad = rsd;
    bad.pmtu = 8;
    TU_EQ(ibw_cxt_view_rst_from_doc(&bad, &rsb), IBW_E_RANGE);

    /* ENCAP: port 1 [2:0], sl 0xF [7:4] -> 0xF1, pkey 0xFFFF [31:16] ->
     * w0 0xFFFF00F1; src_ip w1, dst_ip w2; src_mac 0x001122334455
     * [143:96] -> w3 0x22334455, w4[15:0] 0x0011; dst_mac 0x66778899AABB
     * [191:144] -> w4[31:16] 0xAABB, w5 0x66778899. */
    static const struct ibw_cxt_view_encap en = {
        .port = 1, .sl = 0xF, .pkey = 0xFFFF, .src_ip = 0xC0A80001,
        .dst_ip = 0xC0A80002, .src_mac = 0x001122334455ull,
        .dst_mac = 0x66778899AABBull};
    static const uint32_t wen[] = {0xFFFF00F1, 0xC0A80001, 0xC0A80002,
                                   0x22334455, 0xAABB0011, 0x66778899, 0, 0};
    CHECK_VEC(ibw_cxt_view_encap, IBW_CXT_VIEW_ENCAP_FIELDS, en, wen);
}

/* -------------------------------- E3, E4 ------------------------------- */

static void test_vtp(void)
{
    /* type 2 [3:0], opcode 1 [7:4] -> w0 0x12; flags 0xF (L_WRITE..
     * R_ATOMIC) w1; pd w2; key w3; va 0x00007F0012345678 [191:128] ->
     * w4 0x12345678, w5 0x00007F00; length 0x1000 w6. */
    static const struct ibw_vtp_cmd c = {
        .type = IBW_VTP_RD_REQ_DATA, .opcode = IBW_VTP_RD_L_NET,
        .flags = IBW_VTP_FLAG_L_WRITE | IBW_VTP_FLAG_R_WRITE |
                 IBW_VTP_FLAG_R_READ | IBW_VTP_FLAG_R_ATOMIC,
        .pd = 0x1234, .key = 0x89ABCDEF, .va = 0x00007F0012345678ull,
        .length = 0x1000};
    static const uint32_t wc[] = {0x00000012, 0x0000000F, 0x00001234,
                                  0x89ABCDEF, 0x12345678, 0x00007F00,
                                  0x00001000, 0};
    CHECK_VEC(ibw_vtp_cmd, IBW_VTP_CMD_FIELDS, c, wc);

    /* documents: PD_ERR is 4'b0100 */
    static const struct ibw_vtp_resp r = {.state = IBW_VTP_PD_ERR};
    static const uint32_t wr[] = {0x04};
    CHECK_VEC(ibw_vtp_resp, IBW_VTP_RESP_FIELDS, r, wr);

    /* RTL: key_err bit 2 and length_err bit 3 -> 0x0C */
    static const struct ibw_vtp_resp_rtl rr = {.key_err = 1, .length_err = 1};
    static const uint32_t wrr[] = {0x0C};
    CHECK_VEC(ibw_vtp_resp_rtl, IBW_VTP_RESP_RTL_FIELDS, rr, wrr);

    /* Converters: the first failing check in key, PD, flags, length order. */
    struct ibw_vtp_resp out = {0};
    TU_EQ(ibw_vtp_resp_from_rtl(&rr, &out), IBW_OK);
    TU_EQ(out.state, 2); /* KEY_ERR 4'b0010 */
    struct ibw_vtp_resp_rtl pf = {.pd_err = 1, .flags_err = 1};
    TU_EQ(ibw_vtp_resp_from_rtl(&pf, &out), IBW_OK);
    TU_EQ(out.state, 4); /* PD_ERR */
    struct ibw_vtp_resp_rtl fl = {.flags_err = 1, .length_err = 1};
    TU_EQ(ibw_vtp_resp_from_rtl(&fl, &out), IBW_OK);
    TU_EQ(out.state, 3); /* FLAGS_ERR */
    struct ibw_vtp_resp_rtl ok = {.success = 1};
    TU_EQ(ibw_vtp_resp_from_rtl(&ok, &out), IBW_OK);
    TU_EQ(out.state, 0);
    struct ibw_vtp_resp_rtl none = {0};
    TU_EQ(ibw_vtp_resp_from_rtl(&none, &out), IBW_E_MALFORMED);
    struct ibw_vtp_resp_rtl back = {0};
    struct ibw_vtp_resp len = {.state = 1};
    TU_EQ(ibw_vtp_resp_to_rtl(&len, &back), IBW_OK);
    uint32_t wb[1];
    ibw_vtp_resp_rtl_pack(&back, wb);
    TU_EQ(wb[0], 0x08); /* LENGTH_ERR is bit 3 */
    struct ibw_vtp_resp bad = {.state = 5};
    TU_EQ(ibw_vtp_resp_to_rtl(&bad, &back), IBW_E_RANGE);
}

/* ------------------------------- E5 - E7 ------------------------------- */

static void test_timers(void)
{
    /* opcode 0x01 [7:0], qpn 0x00ABCD [31:8] -> w0 0x00ABCD01;
     * counter 5 [34:32], timer 0x81 [42:35] -> w1 = 0x81<<3 | 5 = 0x40D */
    static const struct ibw_timer_set_event s = {
        .opcode = IBW_TIMER_RESTART, .qpn = 0xABCD, .counter_value = 5,
        .timer_value = 0x81};
    static const uint32_t ws[] = {0x00ABCD01, 0x0000040D};
    CHECK_VEC(ibw_timer_set_event, IBW_TIMER_SET_EVENT_FIELDS, s, ws);

    /* event 0xFF (counter expired), qpn 0x123456 -> 0x123456FF */
    static const struct ibw_timer_expire_event e = {
        .event = IBW_TIMER_COUNTER_EXPIRED, .qpn = 0x123456};
    static const uint32_t we[] = {0x123456FF};
    CHECK_VEC(ibw_timer_expire_event, IBW_TIMER_EXPIRE_EVENT_FIELDS, e, we);

    /* T3.5's example row 0: current 56, set 80, active 1, count 2,
     * threshold 5: 56<<15 | 80<<7 | 1<<6 | 2<<3 | 5
     * = 0x1C0000 + 0x2800 + 0x40 + 0x10 + 5 = 0x1C2855 */
    static const struct ibw_timer_entry t0 = {
        .current_value = 56, .set_value = 80, .active = 1, .retry_count = 2,
        .retry_threshold = 5};
    static const uint32_t wt0[] = {0x1C2855};
    CHECK_VEC(ibw_timer_entry, IBW_TIMER_ENTRY_FIELDS, t0, wt0);
    /* row 16383: 79, 90, 1, 3, 7: 0x278000 + 0x2D00 + 0x40 + 0x18 + 7 */
    static const struct ibw_timer_entry t1 = {
        .current_value = 79, .set_value = 90, .active = 1, .retry_count = 3,
        .retry_threshold = 7};
    static const uint32_t wt1[] = {0x27AD5F};
    CHECK_VEC(ibw_timer_entry, IBW_TIMER_ENTRY_FIELDS, t1, wt1);
}

/* ------------------------------- E8, E9 -------------------------------- */

static void test_sem(void)
{
    /* RTL: op 4 (FLUSH) [2:0], number 0x1F [7:3] -> 0xFC, qpn 1 [31:8] ->
     * w0 0x000001FC; length w1, key w2, va [159:96] -> w3 low, w4 high */
    static const struct ibw_sem_cmd c = {
        .op = IBW_SEM_FLUSH, .number = 0x1F, .qpn = 1, .length = 0x100,
        .key = 0x11111111, .va = 0x0123456789ABCDEFull};
    static const uint32_t wc[] = {0x000001FC, 0x00000100, 0x11111111,
                                  0x89ABCDEF, 0x01234567};
    CHECK_VEC(ibw_sem_cmd, IBW_SEM_CMD_FIELDS, c, wc);

    /* documents: op 2 [1:0], number 0x3F [7:2] -> 0xFE, qpn 1 -> w0
     * 0x000001FE; VA [95:32] -> w1 low, w2 high; R_Key w3; Length w4 */
    static const struct ibw_sem_cmd_doc d = {
        .op = 2, .number = 0x3F, .qpn = 1, .va = 0x0123456789ABCDEFull,
        .key = 0x22222222, .length = 0x40};
    static const uint32_t wd[] = {0x000001FE, 0x89ABCDEF, 0x01234567,
                                  0x22222222, 0x00000040};
    CHECK_VEC(ibw_sem_cmd_doc, IBW_SEM_CMD_DOC_FIELDS, d, wd);

    struct ibw_sem_cmd_doc dd = {0};
    TU_EQ(ibw_sem_cmd_to_doc(&c, &dd), IBW_E_RANGE); /* FLUSH has no code */
    struct ibw_sem_cmd rel = c;
    rel.op = IBW_SEM_RELEASE;
    TU_EQ(ibw_sem_cmd_to_doc(&rel, &dd), IBW_OK);
    uint32_t w[5];
    ibw_sem_cmd_doc_pack(&dd, w);
    /* op 2 | number 0x1F<<2 = 0x7E, qpn 1 -> 0x0000017E, then VA, key, len */
    static const uint32_t wrel[] = {0x0000017E, 0x89ABCDEF, 0x01234567,
                                    0x11111111, 0x00000100};
    TU_MEMEQ(w, wrel, sizeof w);
    struct ibw_sem_cmd back = {0};
    TU_EQ(ibw_sem_cmd_from_doc(&d, &back), IBW_E_RANGE); /* number 63 > 31 */
    TU_EQ(ibw_sem_cmd_from_doc(&dd, &back), IBW_OK);
    TU_EQ(back.number, 0x1F);
    TU_EQ(back.op, 2);

    /* RTL response: code 1, qpn 0xABCDEF -> w0 0xABCDEF01; length w1,
     * key w2, va -> w3 0x76543210, w4 0xFEDCBA98 */
    static const struct ibw_sem_resp r = {
        .code = IBW_ENTRY_INVALID, .qpn = 0xABCDEF, .length = 0x10,
        .key = 0x33333333, .va = 0xFEDCBA9876543210ull};
    static const uint32_t wr[] = {0xABCDEF01, 0x00000010, 0x33333333,
                                  0x76543210, 0xFEDCBA98};
    CHECK_VEC(ibw_sem_resp, IBW_SEM_RESP_FIELDS, r, wr);

    /* documents: code 0, qpn 2 -> 0x00000200; VA w1-w2; key w3; len w4 */
    static const struct ibw_sem_resp_doc rd = {
        .code = 0, .qpn = 2, .va = 0x0000000100000002ull, .key = 0x44,
        .length = 0x55};
    static const uint32_t wrd[] = {0x00000200, 0x00000002, 0x00000001,
                                   0x00000044, 0x00000055};
    CHECK_VEC(ibw_sem_resp_doc, IBW_ENTRY_RESP_DOC_FIELDS, rd, wrd);

    struct ibw_sem_resp_doc rdoc;
    ibw_sem_resp_to_doc(&r, &rdoc);
    ibw_sem_resp_doc_pack(&rdoc, w);
    static const uint32_t wr2[] = {0xABCDEF01, 0x76543210, 0xFEDCBA98,
                                   0x33333333, 0x00000010};
    TU_MEMEQ(w, wr2, sizeof w);
    struct ibw_sem_resp rback;
    ibw_sem_resp_from_doc(&rdoc, &rback);
    ibw_sem_resp_pack(&rback, w);
    TU_MEMEQ(w, wr, sizeof w);
}

/* ------------------------------ E10, E11 ------------------------------- */

static void test_rwm(void)
{
    /* head: op 3 (RELEASE_WQE), qpn 0x000777 -> w0 0x00077703 */
    static const struct ibw_rwm_cmd h = {.op = IBW_RWM_RELEASE_WQE,
                                         .qpn = 0x777};
    static const uint32_t wh[] = {0x00077703, 0, 0, 0, 0, 0, 0, 0};
    CHECK_VEC(ibw_rwm_cmd, IBW_RWM_CMD_FIELDS, h, wh);

    /* FETCH: op 0, qpn 0x10 -> w0 0x00001000; pd w1, rq_lkey w2,
     * rq_length w3, rq_entry_sz_log 6 [135:128] -> w4 */
    static const struct ibw_rwm_cmd_fetch f = {
        .op = IBW_RWM_FETCH_ENTRY, .qpn = 0x10, .pd = 0xAAAA5555,
        .rq_lkey = 0x12345678, .rq_length = 0x8000, .rq_entry_sz_log = 6};
    static const uint32_t wf[] = {0x00001000, 0xAAAA5555, 0x12345678,
                                  0x00008000, 0x00000006, 0, 0, 0};
    CHECK_VEC(ibw_rwm_cmd_fetch, IBW_RWM_CMD_FETCH_FIELDS, f, wf);

    /* UPDATE: op 1, qpn 0xFFFFFF -> w0 0xFFFFFF01; length 1000 w1,
     * lkey w2, va 0x2DEADBEEF [159:96] -> w3 0xDEADBEEF, w4 2 */
    static const struct ibw_rwm_cmd_update u = {
        .op = IBW_RWM_UPDATE_ENTRY, .qpn = 0xFFFFFF, .length = 1000,
        .lkey = 0xCAFEF00D, .va = 0x00000002DEADBEEFull};
    static const uint32_t wu[] = {0xFFFFFF01, 0x000003E8, 0xCAFEF00D,
                                  0xDEADBEEF, 0x00000002, 0, 0, 0};
    CHECK_VEC(ibw_rwm_cmd_update, IBW_RWM_CMD_UPDATE_FIELDS, u, wu);

    /* documents (7 words): op 3 [1:0], qpn 0xABC -> w0 0x000ABC03; PD w1,
     * RQ_Key w2, Entry_VA w3 (low) w4 (high), Entry_LKey w5,
     * Entry_Length w6 */
    static const struct ibw_rwm_cmd_doc d = {
        .op = 3, .qpn = 0xABC, .pd = 1, .rq_lkey = 2,
        .entry_va = 0x0000000400000003ull, .entry_lkey = 5,
        .entry_length = 6};
    static const uint32_t wd[] = {0x000ABC03, 1, 2, 3, 4, 5, 6};
    CHECK_VEC(ibw_rwm_cmd_doc, IBW_RWM_CMD_DOC_FIELDS, d, wd);

    /* converters */
    struct ibw_rwm_cmd_doc dd = {0};
    TU_EQ(ibw_rwm_cmd_update_to_doc(&u, &dd), IBW_OK);
    uint32_t w7[7];
    ibw_rwm_cmd_doc_pack(&dd, w7);
    static const uint32_t wud[] = {0xFFFFFF01, 0, 0, 0xDEADBEEF, 0x00000002,
                                   0xCAFEF00D, 0x000003E8};
    TU_MEMEQ(w7, wud, sizeof w7);
    TU_EQ(ibw_rwm_cmd_fetch_to_doc(&f, &dd), IBW_OK);
    ibw_rwm_cmd_doc_pack(&dd, w7);
    static const uint32_t wfd[] = {0x00001000, 0xAAAA5555, 0x12345678, 0, 0,
                                   0, 0};
    TU_MEMEQ(w7, wfd, sizeof w7);
    struct ibw_rwm_cmd_fetch flush = {.op = IBW_RWM_FLUSH, .qpn = 1};
    TU_EQ(ibw_rwm_cmd_fetch_to_doc(&flush, &dd), IBW_E_RANGE);
    struct ibw_rwm_cmd_fetch fb;
    struct ibw_rwm_cmd_update ub;
    TU_EQ(ibw_rwm_cmd_from_doc(&d, &fb, &ub), 3);
    TU_EQ(fb.qpn, 0xABC);
    TU_EQ(fb.pd, 0); /* a release carries only the head */
    struct ibw_rwm_cmd_doc du = d;
    du.op = IBW_RWM_UPDATE_ENTRY;
    TU_EQ(ibw_rwm_cmd_from_doc(&du, &fb, &ub), 1);
    TU_EQ(ub.va, 0x0000000400000003ull);
    TU_EQ(ub.lkey, 5);
    TU_EQ(ub.length, 6);

    /* RTL response: code 0x20 (invalid WQE), qpn 5 -> w0 0x00000520;
     * length w1, key w2, va w3 low w4 high, wqe_offset w5 */
    static const struct ibw_rwm_resp r = {
        .code = IBW_ENTRY_INVALID_WQE, .qpn = 5, .length = 0x100, .key = 7,
        .va = 0x1122334455667788ull, .wqe_offset = 0x40};
    static const uint32_t wr[] = {0x00000520, 0x00000100, 0x00000007,
                                  0x55667788, 0x11223344, 0x00000040};
    CHECK_VEC(ibw_rwm_resp, IBW_RWM_RESP_FIELDS, r, wr);

    /* documents: code 1, qpn 6 -> 0x00000601; VA w1-w2, RKey w3, len w4 */
    static const struct ibw_rwm_resp_doc rd = {
        .code = 1, .qpn = 6, .va = 0x1122334455667788ull, .key = 9,
        .length = 10};
    static const uint32_t wrd[] = {0x00000601, 0x55667788, 0x11223344, 9, 10};
    CHECK_VEC(ibw_rwm_resp_doc, IBW_ENTRY_RESP_DOC_FIELDS, rd, wrd);

    struct ibw_rwm_resp rb;
    ibw_rwm_resp_from_doc(&rd, &rb);
    TU_EQ(rb.wqe_offset, 0);
    TU_EQ(rb.va, 0x1122334455667788ull);
    struct ibw_rwm_resp_doc rdb;
    ibw_rwm_resp_to_doc(&r, &rdb);
    TU_EQ(rdb.code, 0x20);
    TU_EQ(rdb.length, 0x100);
}

/* ------------------------------ E12 - E17 ------------------------------ */

static void test_send_meta(void)
{
    /* db_meta: opcode 0x10 (READ) [4:0], F 1 [5], service_type 3 (UD)
     * [7:6] -> byte 0xC0|0x20|0x10 = 0xF0, src_qpn 0x123 -> w0 0x000123F0;
     * dst_qpn 0x456 [63:40] -> w1 0x00045600; pd w2, lkey w3; pkey 0xFFFF
     * [143:128] -> w4; wqe_size 4 [175:160], pmtu 1024 [191:176] ->
     * w5 0x04000004; sq_length w6; wqe_offset w7 */
    static const struct ibw_db_meta db = {
        .opcode = IBW_REC_OP_RDMA_READ, .fence = 1, .service_type = IBW_ST_UD,
        .src_qpn = 0x123, .dst_qpn = 0x456, .pd = 7, .lkey = 0x1111,
        .pkey = 0xFFFF, .wqe_size = 4, .pmtu = 1024, .sq_length = 0x10000,
        .wqe_offset = 0xF00};
    static const uint32_t wdb[] = {0x000123F0, 0x00045600, 0x00000007,
                                   0x00001111, 0x0000FFFF, 0x04000004,
                                   0x00010000, 0x00000F00};
    CHECK_VEC(ibw_db_meta, IBW_DB_META_FIELDS, db, wdb);

    /* common_meta: opcode 0x11 (CAS) [4:0], service_type 5 (XRC) [7:5]
     * -> byte0 0xB1; fence 1 [8], inline 0 [9], req_state 4 [15:12] ->
     * byte1 0x41; legal_entry_num 3 [23:16]; pmtu 4096 = 0x1000 [39:24]
     * -> byte3 0x00 and w1[7:0] 0x10: w0 0x000341B1; src_qpn 0xABCDEF
     * [63:40] -> w1 0xABCDEF10; dst_qpn 2 [87:64] -> w2; msg_size w3,
     * qkey w4, pd w5, pkey w6, imm w7, wqe_offset w8, dst_ip w9;
     * dst_mac_lid 0x0002C9A1B2C3 [367:320] -> w10 0xC9A1B2C3, w11 2 */
    static const struct ibw_common_meta cm = {
        .opcode = IBW_REC_OP_ATOMIC_CS, .service_type = IBW_ST_XRC,
        .fence = 1, .inline_flag = 0, .req_state = IBW_REQ_LOCAL_ACCESS_ERR,
        .legal_entry_num = 3, .pmtu = 4096, .src_qpn = 0xABCDEF,
        .dst_qpn = 2, .msg_size = 8, .qkey = 0x80010000, .pd = 3,
        .pkey = 0xFFFF, .imm = 0xDEADBEEF, .wqe_offset = 0x80,
        .dst_ip = 0x0A000001, .dst_mac_lid = 0x0002C9A1B2C3ull};
    static const uint32_t wcm[] = {0x000341B1, 0xABCDEF10, 0x00000002,
                                   0x00000008, 0x80010000, 0x00000003,
                                   0x0000FFFF, 0xDEADBEEF, 0x00000080,
                                   0x0A000001, 0xC9A1B2C3, 0x00000002};
    CHECK_VEC(ibw_common_meta, IBW_COMMON_META_FIELDS, cm, wcm);
    /* inline flag alone is bit 9 */
    uint32_t wi[12] = {0};
    ibw_common_meta_set_inline_flag(wi, 1);
    TU_EQ(wi[0], 0x200);

    /* sg_entry: length [31:0], lkey [63:32], va [127:64] */
    static const struct ibw_sg_entry sg = {
        .length = IBW_SG_INLINE_FLAG | 16, .lkey = 0xABC,
        .va = 0x00007FFF00001000ull};
    static const uint32_t wsg[] = {0x80000010, 0x00000ABC, 0x00001000,
                                   0x00007FFF};
    CHECK_VEC(ibw_sg_entry, IBW_SG_ENTRY_FIELDS, sg, wsg);

    /* raddr_meta: va [63:0], rkey [95:64], [127:96] reserved */
    static const struct ibw_raddr_meta ra = {.va = 0x123456789ABCDEF0ull,
                                             .rkey = 0x0BADF00D};
    static const uint32_t wra[] = {0x9ABCDEF0, 0x12345678, 0x0BADF00D, 0};
    CHECK_VEC(ibw_raddr_meta, IBW_RADDR_META_FIELDS, ra, wra);

    /* atomic_meta: swap_add [63:0] = 1, compare [127:64] */
    static const struct ibw_atomic_meta am = {
        .swap_add = 1, .compare = 0xFFFFFFFF00000000ull};
    static const uint32_t wam[] = {1, 0, 0, 0xFFFFFFFF};
    CHECK_VEC(ibw_atomic_meta, IBW_ATOMIC_META_FIELDS, am, wam);

    /* bad_req_meta: qpn 0xABCDEF [23:0], err_type 4 [31:24] -> w0
     * 0x04ABCDEF; opcode 0x12 [36:32] -> w1 0x12; wqe_offset w2 */
    static const struct ibw_bad_req_meta br = {
        .qpn = 0xABCDEF, .err_type = IBW_REQ_LOCAL_ACCESS_ERR,
        .opcode = IBW_REC_OP_ATOMIC_FA, .wqe_offset = 0x200};
    static const uint32_t wbr[] = {0x04ABCDEF, 0x00000012, 0x00000200, 0};
    CHECK_VEC(ibw_bad_req_meta, IBW_BAD_REQ_META_FIELDS, br, wbr);

    /* documents: ErrType top byte, QPN below: 0x02000001 */
    static const struct ibw_bad_req_meta_doc bd = {.qpn = 1, .err_type = 2};
    static const uint32_t wbd[] = {0x02000001};
    CHECK_VEC(ibw_bad_req_meta_doc, IBW_BAD_REQ_META_DOC_FIELDS, bd, wbd);
    struct ibw_bad_req_meta_doc bdd;
    ibw_bad_req_meta_to_doc(&br, &bdd);
    uint32_t w1[1];
    ibw_bad_req_meta_doc_pack(&bdd, w1);
    TU_EQ(w1[0], 0x04ABCDEF); /* word 0 of the RTL record */
    struct ibw_bad_req_meta bb;
    ibw_bad_req_meta_from_doc(&bd, &bb);
    TU_EQ(bb.qpn, 1);
    TU_EQ(bb.opcode, 0);
}

/* ------------------------------ E18 - E20 ------------------------------ */

static void test_hdr_meta(void)
{
    /* An RC RDMA WRITE FIRST header, 28 bytes, payload length 1000:
     * BTH opcode 0x06; SE 1, M 1, PadCnt 3, TVer 0 -> byte 1 0xF0;
     * P_Key 0xFFFF; FECN 1, resv6 = len[5:0] = 1000 & 63 = 40 = 0x28 ->
     * byte 4 0x80|0x28 = 0xA8; DestQP 0x000012; AckReq 1, resv7 =
     * len[12:6] = 15 -> byte 8 0x8F; PSN 0x000100; RETH VA 0x12345678,
     * R_Key 0xAABBCCDD, DMA length 0x2000. */
    static const uint8_t hdr[28] = {
        0x06, 0xF0, 0xFF, 0xFF, 0xA8, 0x00, 0x00, 0x12, 0x8F, 0x00,
        0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x12, 0x34, 0x56, 0x78,
        0xAA, 0xBB, 0xCC, 0xDD, 0x00, 0x00, 0x20, 0x00};
    /* Dword i = bytes 4i..4i+3, first byte on top. */
    static const uint32_t wq[] = {0x06F0FFFF, 0xA8000012, 0x8F000100,
                                  0x00000000, 0x12345678, 0xAABBCCDD,
                                  0x00002000, 0, 0, 0};
    static const struct ibw_req_hdr_meta q = {
        .pkey = 0xFFFF, .tver = 0, .padcnt = 3, .m = 1, .se = 1,
        .opcode = 0x06, .destqp = 0x12, .len_lo = 0x28, .becn = 0, .fecn = 1,
        .psn = 0x100, .len_hi = 0x0F, .ackreq = 1, .dw3 = 0,
        .dw4 = 0x12345678, .dw5 = 0xAABBCCDD, .dw6 = 0x2000};
    CHECK_VEC(ibw_req_hdr_meta, IBW_REQ_HDR_META_FIELDS, q, wq);
    TU_EQ(ibw_bus_bth_pkt_len(wq), 1000);

    uint32_t w[10];
    TU_EQ(ibw_bus_from_wire_bytes(hdr, sizeof hdr, w, 10), IBW_OK);
    TU_MEMEQ(w, wq, sizeof w);
    uint8_t back[28];
    TU_EQ(ibw_bus_to_wire_bytes(wq, 10, back, sizeof back), IBW_OK);
    TU_MEMEQ(back, hdr, sizeof hdr);
    TU_EQ(ibw_bus_from_wire_bytes(hdr, sizeof hdr, w, 6), IBW_E_NOSPACE);
    TU_EQ(ibw_bus_to_wire_bytes(wq, 6, back, sizeof back), IBW_E_TRUNCATED);
    /* a length that ends inside a word: bytes 01..0D, by the rule above
     * byte 12 lands in [31:24] of word 3, the rest of words 3 and 4 zero */
    static const uint8_t odd[13] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13};
    static const uint32_t odd_w[5] = {0x01020304, 0x05060708, 0x090A0B0C,
                                      0x0D000000, 0};
    uint32_t ow[5] = {~0u, ~0u, ~0u, ~0u, ~0u};
    TU_EQ(ibw_bus_from_wire_bytes(odd, sizeof odd, ow, 5), IBW_OK);
    TU_MEMEQ(ow, odd_w, sizeof ow);
    uint8_t oback[14];
    memset(oback, 0xEE, sizeof oback);
    TU_EQ(ibw_bus_to_wire_bytes(odd_w, 5, oback, sizeof odd), IBW_OK);
    TU_MEMEQ(oback, odd, sizeof odd);
    TU_EQ(oback[13], 0xEE); /* nothing past n written */

    /* The same BTH read by wire.h's IBA-order decoder agrees field by
     * field with the bus record. */
    struct ibw_bth bth;
    TU_EQ(ibw_bth_decode(hdr, sizeof hdr, &bth), IBW_OK);
    TU_EQ(bth.opcode, q.opcode);
    TU_EQ(bth.se, q.se);
    TU_EQ(bth.m, q.m);
    TU_EQ(bth.padcnt, q.padcnt);
    TU_EQ(bth.pkey, q.pkey);
    TU_EQ(bth.fecn, q.fecn);
    TU_EQ(bth.resv6, q.len_lo);
    TU_EQ(bth.destqp, q.destqp);
    TU_EQ(bth.ackreq, q.ackreq);
    TU_EQ(bth.resv7, q.len_hi);
    TU_EQ(bth.psn, q.psn);

    /* Setting the length: 0 clears both slices, 8191 fills them, 8192
     * is refused and leaves the words alone. */
    memcpy(w, wq, sizeof w);
    TU_EQ(ibw_bus_bth_set_pkt_len(w, 0), IBW_OK);
    TU_EQ(w[1], 0x80000012);
    TU_EQ(w[2], 0x80000100);
    TU_EQ(ibw_bus_bth_set_pkt_len(w, 8191), IBW_OK);
    TU_EQ(w[1], 0xBF000012);
    TU_EQ(w[2], 0xFF000100);
    TU_EQ(ibw_bus_bth_set_pkt_len(w, 8192), IBW_E_RANGE);
    TU_EQ(w[2], 0xFF000100);

    /* Atomic ACK, 24 bytes: opcode 0x12, P_Key 0x8000 -> dw0 0x12008000;
     * BECN 1 (0x40 in byte 4), DestQP 0xABC -> dw1 0x40000ABC; PSN 0xFFFF
     * -> dw2 0x0000FFFF; AETH syndrome 0x1F MSN 7 -> dw3 0x1F000007;
     * AtomicAckETH 0x0102030405060708 -> dw4 0x01020304, dw5 0x05060708;
     * the documents' length slot [239:224] = 0x18 -> w7 0x00000018 */
    static const struct ibw_resp_hdr_meta r = {
        .pkey = 0x8000, .opcode = 0x12, .destqp = 0xABC, .becn = 1,
        .psn = 0xFFFF, .dw3 = 0x1F000007, .dw4 = 0x01020304,
        .dw5 = 0x05060708, .len_doc = 0x18};
    static const uint32_t wr[] = {0x12008000, 0x40000ABC, 0x0000FFFF,
                                  0x1F000007, 0x01020304, 0x05060708, 0,
                                  0x00000018};
    CHECK_VEC(ibw_resp_hdr_meta, IBW_RESP_HDR_META_FIELDS, r, wr);
    TU_EQ(ibw_bus_bth_pkt_len(wr), 0);

    /* ACK to generate: opcode 0x11, P_Key 0xFFFF -> w0 0x1100FFFF; FECN 1,
     * DestQP 0x33 -> w1 0x80000033; PSN 0x200 -> w2; pmtu 3 [111:96] ->
     * w3; msg_size w4; MSN 9 [183:160], syndrome 0x62 (NAK remote access)
     * [191:184] -> w5 0x62000009 */
    static const struct ibw_resp_gen_meta g = {
        .opcode = IBW_RESP_GEN_ACK, .pkey = 0xFFFF, .destqp = 0x33,
        .fecn = 1, .psn = 0x200, .pmtu = 3, .msg_size = 0x1000, .msn = 9,
        .syndrome = 0x62};
    static const uint32_t wg[] = {0x1100FFFF, 0x80000033, 0x00000200,
                                  0x00000003, 0x00001000, 0x62000009};
    CHECK_VEC(ibw_resp_gen_meta, IBW_RESP_GEN_META_FIELDS, g, wg);
    /* bits [95:0] are the BTH and [191:160] the AETH, in bus order */
    uint8_t b[12];
    TU_EQ(ibw_bus_to_wire_bytes(wg, 3, b, 12), IBW_OK);
    TU_EQ(ibw_bth_get_opcode(b), 0x11);
    TU_EQ(ibw_bth_get_destqp(b), 0x33);
    TU_EQ(ibw_bth_get_fecn(b), 1);
    TU_EQ(ibw_bth_get_psn(b), 0x200);
    TU_EQ(ibw_bus_to_wire_bytes(wg + 5, 1, b, 4), IBW_OK);
    TU_EQ(ibw_aeth_get_syndrome(b), 0x62);
    TU_EQ(ibw_aeth_get_msn(b), 9);
}

/* ------------------------------ E21 - E26 ------------------------------ */

static void test_multiqueue(void)
{
    /* RPB list: head 0x1AB [8:0], tail 0xCD [17:9], empty [18]:
     * 0x40000 | 0xCD<<9 (0x19A00) | 0x1AB = 0x59BAB */
    static const struct ibw_rpb_list_entry rl = {.head = 0x1AB, .tail = 0xCD,
                                                 .empty = 1};
    static const uint32_t wrl[] = {0x59BAB};
    CHECK_VEC(ibw_rpb_list_entry, IBW_RPB_LIST_ENTRY_FIELDS, rl, wrl);

    /* RPB element: packet [255:0] = words 0..7, next 0x155 [264:256] */
    static const struct ibw_rpb_element re = {
        .packet = {0x03020100, 0x07060504, 0x0B0A0908, 0x0F0E0D0C,
                   0x13121110, 0x17161514, 0x1B1A1918, 0x1F1E1D1C},
        .next_addr = 0x155};
    static const uint32_t wre[] = {0x03020100, 0x07060504, 0x0B0A0908,
                                   0x0F0E0D0C, 0x13121110, 0x17161514,
                                   0x1B1A1918, 0x1F1E1D1C, 0x00000155};
    CHECK_VEC(ibw_rpb_element, IBW_RPB_ELEMENT_FIELDS, re, wre);

    static const struct ibw_rpb_free_entry rf = {.addr = 0x1FF};
    static const uint32_t wrf[] = {0x1FF};
    CHECK_VEC(ibw_rpb_free_entry, IBW_RPB_FREE_ENTRY_FIELDS, rf, wrf);

    /* REB list: head 0x2ABC [13:0], tail 0x1234 [27:14], empty [28]:
     * 0x10000000 | 0x1234<<14 (0x048D0000) | 0x2ABC = 0x148D2ABC */
    static const struct ibw_reb_list_entry bl = {.head = 0x2ABC,
                                                 .tail = 0x1234, .empty = 1};
    static const uint32_t wbl[] = {0x148D2ABC};
    CHECK_VEC(ibw_reb_list_entry, IBW_REB_LIST_ENTRY_FIELDS, bl, wbl);

    /* REB element: scatter entry (length, lkey, va) then next 0x3FFF
     * [141:128] -> w4 */
    static const struct ibw_reb_element be = {
        .length = 0x100, .lkey = 0x200, .va = 0x0000000300000004ull,
        .next_addr = 0x3FFF};
    static const uint32_t wbe[] = {0x100, 0x200, 0x4, 0x3, 0x3FFF};
    CHECK_VEC(ibw_reb_element, IBW_REB_ELEMENT_FIELDS, be, wbe);

    static const struct ibw_reb_free_entry bf = {.addr = 0x2001};
    static const uint32_t wbf[] = {0x2001};
    CHECK_VEC(ibw_reb_free_entry, IBW_REB_FREE_ENTRY_FIELDS, bf, wbf);

    /* SWPB list: head 0xABC [11:0], tail 0x123 [23:12], empty [24]:
     * 0x01000000 | 0x123000 | 0xABC = 0x01123ABC */
    static const struct ibw_swpb_list_entry sl = {.head = 0xABC,
                                                  .tail = 0x123, .empty = 1};
    static const uint32_t wsl[] = {0x01123ABC};
    CHECK_VEC(ibw_swpb_list_entry, IBW_SWPB_LIST_ENTRY_FIELDS, sl, wsl);

    /* SWPB element: packet words, next 0xFFF [267:256] -> w8 */
    static const struct ibw_swpb_element se = {
        .packet = {0x11111111, 0x22222222, 0x33333333, 0x44444444,
                   0x55555555, 0x66666666, 0x77777777, 0x88888888},
        .next_addr = 0xFFF};
    static const uint32_t wse[] = {0x11111111, 0x22222222, 0x33333333,
                                   0x44444444, 0x55555555, 0x66666666,
                                   0x77777777, 0x88888888, 0x00000FFF};
    CHECK_VEC(ibw_swpb_element, IBW_SWPB_ELEMENT_FIELDS, se, wse);

    static const struct ibw_swpb_free_entry sf = {.addr = 0x800};
    static const uint32_t wsf[] = {0x800};
    CHECK_VEC(ibw_swpb_free_entry, IBW_SWPB_FREE_ENTRY_FIELDS, sf, wsf);

    /* WIDE setter ignores bits above the field: a next_addr of 0x1FFF in
     * a 12-bit field keeps 0xFFF */
    uint32_t w[9] = {0};
    ibw_swpb_element_set_next_addr(w, 0x1FFF);
    TU_EQ(w[8], 0xFFF);
}

static void test_tables_link_dma(void)
{
    static const struct ibw_wqe_indicator wi = {.flag = 1};
    static const uint32_t wwi[] = {1};
    CHECK_VEC(ibw_wqe_indicator, IBW_WQE_INDICATOR_FIELDS, wi, wwi);

    /* write-address entry: VA (63~0), R_Key (95~64) */
    static const struct ibw_write_addr_entry wa = {
        .va = 0x00000001FFFFFFFFull, .rkey = 0x12345678};
    static const uint32_t wwa[] = {0xFFFFFFFF, 0x00000001, 0x12345678};
    CHECK_VEC(ibw_write_addr_entry, IBW_WRITE_ADDR_ENTRY_FIELDS, wa, wwa);

    /* link word (ibwire's layout): wire bytes 01..08 -> [31:0] 0x01020304,
     * [63:32] 0x05060708; S 1 [64], valid 0 (= 8) [69:67], VL 2 [71:70]
     * -> control byte 0x80 | 0x01 = 0x81 */
    static const struct ibw_link_word l1 = {
        .data = 0x0506070801020304ull, .sop = 1, .valid_bytes = 0, .vl = 2};
    static const uint32_t wl1[] = {0x01020304, 0x05060708, 0x81};
    CHECK_VEC(ibw_link_word, IBW_LINK_WORD_FIELDS, l1, wl1);
    /* T 1 [65], E 1 [66], valid 5 [69:67], VL 3: 0xC0|0x28|0x04|0x02 */
    static const struct ibw_link_word l2 = {
        .eop = 1, .err = 1, .valid_bytes = 5, .vl = 3};
    static const uint32_t wl2[] = {0, 0, 0xEE};
    CHECK_VEC(ibw_link_word, IBW_LINK_WORD_FIELDS, l2, wl2);
    TU_EQ(ibw_link_valid_bytes_code(8), 0);
    TU_EQ(ibw_link_valid_bytes_code(5), 5);
    TU_EQ(ibw_link_valid_bytes_count(0), 8);
    TU_EQ(ibw_link_valid_bytes_count(3), 3);

    /* stream word: 32 wire bytes 00..1F -> dword i = bytes 4i..4i+3, first
     * on top: 0x00010203, 0x04050607, ...; eop [257] -> w8 0x2 */
    static const struct ibw_stream_word s = {
        .data = {0x00010203, 0x04050607, 0x08090A0B, 0x0C0D0E0F, 0x10111213,
                 0x14151617, 0x18191A1B, 0x1C1D1E1F},
        .sop = 0, .eop = 1};
    static const uint32_t ws[] = {0x00010203, 0x04050607, 0x08090A0B,
                                  0x0C0D0E0F, 0x10111213, 0x14151617,
                                  0x18191A1B, 0x1C1D1E1F, 0x00000002};
    CHECK_VEC(ibw_stream_word, IBW_STREAM_WORD_FIELDS, s, ws);
    uint8_t bytes[32];
    for (unsigned i = 0; i < 32; i++)
        bytes[i] = (uint8_t)i;
    uint32_t d[8];
    TU_EQ(ibw_bus_from_wire_bytes(bytes, 32, d, 8), IBW_OK);
    TU_MEMEQ(d, s.data, sizeof d);
    /* link slice 1 carries wire bytes 8..15 */
    TU_EQ(ibw_stream_data_slice(&s, 1), 0x0C0D0E0F08090A0Bull);
    /* sop alone is bit 256 */
    uint32_t w9[9] = {0};
    ibw_stream_word_set_sop(w9, 1);
    TU_EQ(w9[8], 1);

    /* DMA head (documents): Length 00h [31:0], Addr 04h..0Bh [95:32],
     * Type 0Ch [7:0] -> [103:96], chnl_num 0Ch [31:24] -> [127:120]:
     * w3 = 0x05<<24 | 0x02 */
    static const struct ibw_dma_head h = {
        .length = 0x1000, .addr = 0x0000000FEDCBA000ull, .type = 2,
        .chnl_num = 5};
    static const uint32_t wh[] = {0x00001000, 0xEDCBA000, 0x0000000F,
                                  0x05000002};
    CHECK_VEC(ibw_dma_head, IBW_DMA_HEAD_FIELDS, h, wh);

    /* RTL head: length [12:0], addr [95:32] */
    static const struct ibw_dma_head_rtl hr = {
        .length = 0x1FFF, .addr = 0x8000000000000000ull};
    static const uint32_t whr[] = {0x00001FFF, 0, 0x80000000, 0};
    CHECK_VEC(ibw_dma_head_rtl, IBW_DMA_HEAD_RTL_FIELDS, hr, whr);

    struct ibw_dma_head_rtl r = {0};
    TU_EQ(ibw_dma_head_to_rtl(&h, &r), IBW_OK);
    uint32_t w4[4];
    ibw_dma_head_rtl_pack(&r, w4);
    static const uint32_t whh[] = {0x00001000, 0xEDCBA000, 0x0000000F, 0};
    TU_MEMEQ(w4, whh, sizeof w4);
    struct ibw_dma_head big = h;
    big.length = 0x2000;
    TU_EQ(ibw_dma_head_to_rtl(&big, &r), IBW_E_RANGE);
    struct ibw_dma_head back;
    ibw_dma_head_from_rtl(&hr, &back);
    TU_EQ(back.length, 0x1FFF);
    TU_EQ(back.addr, 0x8000000000000000ull);
    TU_EQ(back.type, 0);
    TU_EQ(back.chnl_num, 0);
}

/* ------------------------------ codes ---------------------------------- */

static void test_codes(void)
{
    unsigned v = 99;
    uint32_t b = 0;
    /* service types */
    TU_EQ(ibw_service_type_to_doc(IBW_ST_UD, &v), IBW_OK);
    TU_EQ(v, 2);
    TU_EQ(ibw_service_type_to_doc(IBW_ST_RC, &v), IBW_OK);
    TU_EQ(v, 0);
    TU_EQ(ibw_service_type_to_doc(IBW_ST_RD, &v), IBW_E_RANGE);
    TU_EQ(ibw_service_type_to_doc(IBW_ST_XRC, &v), IBW_E_RANGE);
    TU_EQ(ibw_service_type_from_doc(2, &v), IBW_OK);
    TU_EQ(v, 3);
    TU_EQ(ibw_service_type_from_doc(1, &v), IBW_OK);
    TU_EQ(v, 1);
    TU_EQ(ibw_service_type_from_doc(3, &v), IBW_E_RANGE);

    /* PMTU: 256 << code; IBA enum = code + 1 */
    TU_EQ(ibw_pmtu_code_to_bytes(IBW_PMTU_1024, &b), IBW_OK);
    TU_EQ(b, 1024);
    TU_EQ(ibw_pmtu_code_to_bytes(IBW_PMTU_4096, &b), IBW_OK);
    TU_EQ(b, 4096);
    TU_EQ(ibw_pmtu_code_to_bytes(5, &b), IBW_E_RANGE);
    TU_EQ(ibw_pmtu_bytes_to_code(256, &v), IBW_OK);
    TU_EQ(v, 0);
    TU_EQ(ibw_pmtu_bytes_to_code(2048, &v), IBW_OK);
    TU_EQ(v, 3);
    TU_EQ(ibw_pmtu_bytes_to_code(1500, &v), IBW_E_RANGE);
    TU_EQ(ibw_pmtu_bytes_to_code(8192, &v), IBW_E_RANGE);
    TU_EQ(ibw_pmtu_code_to_iba(IBW_PMTU_256, &v), IBW_OK);
    TU_EQ(v, 1);
    TU_EQ(ibw_pmtu_code_to_iba(IBW_PMTU_4096, &v), IBW_OK);
    TU_EQ(v, 5);
    TU_EQ(ibw_pmtu_code_to_iba(7, &v), IBW_E_RANGE);
    TU_EQ(ibw_pmtu_iba_to_code(3, &v), IBW_OK);
    TU_EQ(v, 2);
    TU_EQ(ibw_pmtu_iba_to_code(0, &v), IBW_E_RANGE);
    TU_EQ(ibw_pmtu_iba_to_code(6, &v), IBW_E_RANGE);

    /* ReqState and NAK codes -> completion codes (mthca values) */
    TU_EQ(ibw_req_state_to_cpl(IBW_REQ_QP_STATE_ERR, &v), IBW_OK);
    TU_EQ(v, 0x05); /* WR_FLUSH_ERR, "Flush in Error" */
    TU_EQ(ibw_req_state_to_cpl(IBW_REQ_OPCODE_ERR, &v), IBW_OK);
    TU_EQ(v, 0x02); /* LOCAL_QP_OP_ERR */
    TU_EQ(ibw_req_state_to_cpl(IBW_REQ_LOCAL_ACCESS_ERR, &v), IBW_OK);
    TU_EQ(v, 0x04); /* LOCAL_PROT_ERR */
    TU_EQ(ibw_req_state_to_cpl(IBW_REQ_NORMAL, &v), IBW_OK);
    TU_EQ(v, 0);
    TU_EQ(ibw_req_state_to_cpl(3, &v), IBW_E_RANGE);
    TU_EQ(ibw_nak_to_cpl(IBW_NAK_REMOTE_ACCESS_ERROR, &v), IBW_OK);
    TU_EQ(v, 0x13);
    TU_EQ(ibw_nak_to_cpl(IBW_NAK_INVALID_REQUEST, &v), IBW_OK);
    TU_EQ(v, 0x12);
    TU_EQ(ibw_nak_to_cpl(IBW_NAK_REMOTE_OP_ERROR, &v), IBW_OK);
    TU_EQ(v, 0x14);
    TU_EQ(ibw_nak_to_cpl(IBW_NAK_INVALID_RD_REQUEST, &v), IBW_OK);
    TU_EQ(v, 0x21);
    TU_EQ(ibw_nak_to_cpl(IBW_NAK_PSN_SEQ_ERROR, &v), IBW_OK);
    TU_EQ(v, 0x15);
    TU_EQ(ibw_nak_to_cpl(5, &v), IBW_E_RANGE);
    TU_EQ(ibw_timer_expiry_cpl(0), 0x15);
    TU_EQ(ibw_timer_expiry_cpl(1), 0x16);

    /* response type: RTL ACK 0x11 / read 0x00 <-> documents 0x01 / 0x02 */
    TU_EQ(ibw_resp_gen_type_to_doc(0x11, &v), IBW_OK);
    TU_EQ(v, 0x01);
    TU_EQ(ibw_resp_gen_type_to_doc(0x00, &v), IBW_OK);
    TU_EQ(v, 0x02);
    TU_EQ(ibw_resp_gen_type_to_doc(0x12, &v), IBW_E_RANGE);
    TU_EQ(ibw_resp_gen_type_from_doc(0x02, &v), IBW_OK);
    TU_EQ(v, 0x00);
    TU_EQ(ibw_resp_gen_type_from_doc(0x01, &v), IBW_OK);
    TU_EQ(v, 0x11);
    TU_EQ(ibw_resp_gen_type_from_doc(0x03, &v), IBW_E_RANGE);

    /* a few code values against the tables */
    TU_EQ(IBW_TIMER_STOP, 0xFF);
    TU_EQ(IBW_TIMER_RESTART, 0x01);
    TU_EQ(IBW_ENTRY_INVALID_WQE, 0x20);
    TU_EQ(IBW_SEM_FLUSH, 4);
    TU_EQ(IBW_CXT_MAP_ICM_CTX, 6);
    TU_EQ(IBW_VTP_WR_EQE, 4);
    TU_EQ(IBW_VTP_FLAG_BIND_EN, 0x8000);
    TU_EQ(IBW_VTP_FLAG_SW_OWNS_MASK, 0xF0000000u);
}

int main(void)
{
    test_sq_doorbell();
    test_cxt();
    test_cxt_views();
    test_vtp();
    test_timers();
    test_sem();
    test_rwm();
    test_send_meta();
    test_hdr_meta();
    test_multiqueue();
    test_tables_link_dma();
    test_codes();

    /* Every engine record (catalog E*) of the registry has a hand vector
     * above; host formats in bus order (H*) are tested in tests/host. */
    for (size_t i = 0; i < ibw_registry_count(); i++) {
        const struct ibw_format *f = ibw_registry_get(i);
        if (f->conv != IBW_CONV_RECORD || f->id[0] != 'E')
            continue;
        int found = 0;
        for (size_t k = 0; k < ncovered; k++)
            found |= strcmp(covered[k], f->name) == 0;
        if (!found)
            fprintf(stderr, "no hand vector for record %s\n", f->name);
        TU_CHECK(found);
    }
    return tu_done("records_vectors");
}
