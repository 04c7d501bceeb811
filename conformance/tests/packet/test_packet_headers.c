/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ibw_build_headers() / ibw_parse_headers(): the transport headers alone,
 * as the engine's header records carry them.  The expected bytes are
 * written by hand from the IBA Vol. 1 9.2-9.4 layouts (BTH, DETH, RETH,
 * ImmDt), not produced by the library's encoders.
 */
#include "ibwire/packet.h"
#include "testutil.h"

/* RC RDMA WRITE ONLY WITH IMMEDIATE: BTH RETH ImmDt, then 4 payload bytes. */
static const uint8_t write_imm[] = {
    /* BTH: opcode 0x0B; SE (bit 7) + PadCnt 2 (bits 5-4) = 0xA0; P_Key
     * 0xFFFF; reserved byte; DestQP 0x000012; AckReq (bit 7); PSN 0x34 */
    0x0B, 0xA0, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x12,
    0x80, 0x00, 0x00, 0x34,
    /* RETH: VA 0x1000, R_Key 0x11223344, DMA length 0x40 */
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00,
    0x11, 0x22, 0x33, 0x44, 0x00, 0x00, 0x00, 0x40,
    /* ImmDt */
    0xDE, 0xAD, 0xBE, 0xEF,
    /* payload */
    0x01, 0x02, 0x03, 0x04};

/* UD SEND ONLY: BTH DETH (Q_Key 0x80010000, SrcQP 0x000001). */
static const uint8_t ud_send[] = {
    0x64, 0x00, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x01,
    0x00, 0x00, 0x00, 0x07,
    0x80, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01};

static void test_build(void)
{
    struct ibw_build_spec s;
    uint8_t out[64];
    size_t n = 0;

    memset(&s, 0, sizeof s);
    s.bth.opcode = IBW_OP_RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE;
    s.bth.se = 1;
    s.bth.padcnt = 2; /* as given: no payload here to derive it from */
    s.bth.pkey = 0xFFFF;
    s.bth.destqp = 0x12;
    s.bth.ackreq = 1;
    s.bth.psn = 0x34;
    s.reth.va = 0x1000;
    s.reth.rkey = 0x11223344u;
    s.reth.dmalen = 0x40;
    s.immdt.imm = 0xDEADBEEFu;
    s.deth.qkey = 0x99; /* not a header of this opcode: not emitted */
    memset(out, 0xAA, sizeof out);
    TU_EQ(ibw_build_headers(&s, out, sizeof out, &n), IBW_OK);
    TU_EQ(n, 32);
    TU_MEMEQ(out, write_imm, 32);
    TU_EQ(out[32], 0xAA); /* nothing written past the headers */
    TU_EQ(ibw_build_headers(&s, out, 31, &n), IBW_E_NOSPACE);

    memset(&s, 0, sizeof s);
    s.bth.opcode = IBW_OP_UD_SEND_ONLY;
    s.bth.pkey = 0xFFFF;
    s.bth.destqp = 1;
    s.bth.psn = 7;
    s.deth.qkey = 0x80010000u;
    s.deth.srcqp = 1;
    TU_EQ(ibw_build_headers(&s, out, sizeof out, &n), IBW_OK);
    TU_EQ(n, sizeof ud_send);
    TU_MEMEQ(out, ud_send, sizeof ud_send);

    /* a reserved opcode: refused, or its BTH alone when asked for */
    s.bth.opcode = 0x15;
    TU_EQ(ibw_build_headers(&s, out, sizeof out, &n), IBW_E_OPCODE);
    s.flags = IBW_BUILD_ANY_OPCODE;
    TU_EQ(ibw_build_headers(&s, out, sizeof out, &n), IBW_OK);
    TU_EQ(n, 12);
    TU_EQ(out[0], 0x15);
}

static void test_parse(void)
{
    struct ibw_pkt p;
    TU_EQ(ibw_parse_headers(write_imm, sizeof write_imm, &p), IBW_OK);
    TU_EQ(p.opcode, 0x0B);
    TU_EQ(p.present, (1u << IBW_HDR_BTH) | (1u << IBW_HDR_RETH) |
                         (1u << IBW_HDR_IMMDT));
    TU_EQ(p.off[IBW_HDR_BTH], 0);
    TU_EQ(p.off[IBW_HDR_RETH], 12);
    TU_EQ(p.off[IBW_HDR_IMMDT], 28);
    TU_EQ(p.payload_off, 32);
    TU_EQ(p.payload_len, 4);
    TU_EQ(p.icrc_status, IBW_CRC_ABSENT);
    TU_EQ(p.transport, IBW_TK_NONE);
    TU_EQ(ibw_bth_get_padcnt(ibw_pkt_hdr(&p, IBW_HDR_BTH)), 2);
    TU_EQ(ibw_reth_get_rkey(ibw_pkt_hdr(&p, IBW_HDR_RETH)), 0x11223344u);
    TU_EQ(ibw_immdt_get_imm(ibw_pkt_hdr(&p, IBW_HDR_IMMDT)), 0xDEADBEEFu);

    TU_EQ(ibw_parse_headers(ud_send, sizeof ud_send, &p), IBW_OK);
    TU_EQ(ibw_deth_get_qkey(ibw_pkt_hdr(&p, IBW_HDR_DETH)), 0x80010000u);
    TU_EQ(p.payload_len, 0);

    /* cut inside the RETH: truncated, named; the BTH stays in the view */
    TU_EQ(ibw_parse_headers(write_imm, 20, &p), IBW_E_TRUNCATED);
    TU_CHECK(p.err_hdr && strcmp(p.err_hdr, "reth") == 0);
    TU_CHECK(ibw_pkt_has(&p, IBW_HDR_BTH));
    TU_CHECK(!ibw_pkt_has(&p, IBW_HDR_RETH));
    TU_EQ(ibw_parse_headers(write_imm, 11, &p), IBW_E_TRUNCATED);
    TU_CHECK(p.err_hdr && strcmp(p.err_hdr, "bth") == 0);

    uint8_t b[sizeof ud_send];
    memcpy(b, ud_send, sizeof b);
    b[0] = 0x66; /* UD reserved */
    TU_EQ(ibw_parse_headers(b, sizeof b, &p), IBW_E_OPCODE);
    memcpy(b, ud_send, sizeof b);
    b[1] = 0x01; /* TVer 1 */
    TU_EQ(ibw_parse_headers(b, sizeof b, &p), IBW_E_VERSION);
}

int main(void)
{
    test_build();
    test_parse();
    return tu_done("packet_headers");
}
