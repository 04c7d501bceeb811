/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ibw_parse() against complete packets written out byte by byte below, each
 * field derived in the comments from the IBA / IEEE / IETF layouts.  The
 * IPv4 checksums, ICRCs and VCRCs written here were computed by
 * icrc_ref.py (zlib.crc32 over the masked fields, written from the masking
 * rules, not from ibwire); the meson test `packet_vectors_ref` re-runs that
 * script over this file, so a wrong literal fails there, and a wrong
 * ibwire computation fails here.
 */
#include "ibwire/packet.h"
#include "testutil.h"

/* Parse, expect no error and good CRCs; returns the view. */
static struct ibw_pkt parse_ok(const uint8_t *d, size_t n, enum ibw_link link,
                               unsigned transport, uint32_t present)
{
    struct ibw_pkt p;
    int err = ibw_parse(d, n, link, &p);
    TU_EQ(err, IBW_OK);
    if (err)
        fprintf(stderr, "  error in %s.%s\n", p.err_hdr,
                p.err_field ? p.err_field : "-");
    TU_EQ(p.err, err);
    TU_EQ(p.transport, transport);
    TU_EQ(p.present, present);
    TU_EQ(p.icrc_status, IBW_CRC_GOOD);
    TU_EQ(ibw_icrc_compute(&p), p.icrc_wire);
    if (link == IBW_LINK_IB)
        TU_EQ(p.vcrc_status, IBW_CRC_GOOD);
    else
        TU_EQ(p.vcrc_status, IBW_CRC_ABSENT);
    return p;
}

#define B(h) (1u << IBW_HDR_##h)
#define ROCE4 (B(ETH) | B(IPV4) | B(UDP) | B(BTH))

/* ---- 1. RoCEv2 / IPv4, RC SEND ONLY, 5-byte payload, FCS trailer ------- */
static const uint8_t v2ip4_send_only[] = {
    /* Ethernet: dmac 02:00:00:00:00:02, smac 02:00:00:00:00:01, IPv4 */
    0x02, 0x00, 0x00, 0x00, 0x00, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01,
    0x08, 0x00,
    /* IPv4: version 4, IHL 5 -> 0x45; TOS = DSCP 26 << 2 | ECN 2 = 0x6A;
     * total length 20 + 8 + 12 + 5 + 3 + 4 = 52 = 0x0034; id 0x1234;
     * flags DF -> 0x4000; TTL 64; protocol 17; checksum; 192.168.1.1 ->
     * 192.168.1.2 */
    0x45, 0x6A, 0x00, 0x34, 0x12, 0x34, 0x40, 0x00, 0x40, 0x11,
    /* checksum */ 0xA4, 0xC7,
    0xC0, 0xA8, 0x01, 0x01, 0xC0, 0xA8, 0x01, 0x02,
    /* UDP: sport 0xC000, dport 4791 = 0x12B7, length 8 + 12 + 5 + 3 + 4 =
     * 32, checksum 0 */
    0xC0, 0x00, 0x12, 0xB7, 0x00, 0x20, 0x00, 0x00,
    /* BTH: opcode 0x04 RC SEND ONLY; SE 1, M 0, PadCnt 3, TVer 0 ->
     * 1 0 11 0000 = 0xB0; P_Key 0xFFFF; FECN 0 BECN 0 resv6 0; DestQP
     * 0x000011; AckReq 1 -> 0x80; PSN 0x000102 */
    0x04, 0xB0, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x11, 0x80, 0x00, 0x01, 0x02,
    /* payload "hello", pad 3 */
    'h', 'e', 'l', 'l', 'o', 0x00, 0x00, 0x00,
    /* ICRC */ 0xDA, 0x8A, 0xE1, 0xF4,
    /* 4 more bytes standing in for the Ethernet FCS: trailer */
    0xDE, 0xAD, 0xBE, 0xEF};

static void test_v2ip4_send_only(void)
{
    const uint8_t *v = v2ip4_send_only;
    struct ibw_pkt p =
        parse_ok(v, sizeof v2ip4_send_only, IBW_LINK_ETHERNET,
                 IBW_TK_ROCE_V2_IP4, ROCE4);
    TU_EQ(p.off[IBW_HDR_IPV4], 14);
    TU_EQ(p.off[IBW_HDR_UDP], 34);
    TU_EQ(p.off[IBW_HDR_BTH], 42);
    TU_EQ(p.ethertype, 0x0800);
    TU_EQ(p.ip_csum_status, IBW_CRC_GOOD);
    TU_EQ(p.opcode, 0x04);
    TU_EQ(p.payload_off, 54);
    TU_EQ(p.payload_len, 5);
    TU_MEMEQ(ibw_pkt_payload(&p), "hello", 5);
    TU_EQ(p.pad, 3);
    TU_EQ(p.icrc_off, 62);
    TU_EQ(p.icrc_wire, 0xF4E18ADA); /* bytes da 8a e1 f4, LSB first */
    TU_EQ(p.iba_end, 66);
    TU_EQ(p.trailer_len, 4);
    const uint8_t *bth = ibw_pkt_hdr(&p, IBW_HDR_BTH);
    TU_EQ(ibw_bth_get_se(bth), 1);
    TU_EQ(ibw_bth_get_padcnt(bth), 3);
    TU_EQ(ibw_bth_get_destqp(bth), 0x11);
    TU_EQ(ibw_bth_get_ackreq(bth), 1);
    TU_EQ(ibw_bth_get_psn(bth), 0x102);
    const uint8_t *ip = ibw_pkt_hdr(&p, IBW_HDR_IPV4);
    TU_EQ(ibw_ipv4_get_dscp(ip), 26);
    TU_EQ(ibw_ipv4_get_ecn(ip), 2);
    TU_EQ(ibw_ipv4_get_df(ip), 1);
    TU_EQ(ibw_ipv4_get_ttl(ip), 64);
    TU_EQ(ibw_udp_get_sport(ibw_pkt_hdr(&p, IBW_HDR_UDP)), 0xC000);
    TU_EQ(ibw_ipv4_checksum(ip, 20), 0xA4C7);

    /* The masked fields do not change the ICRC; an unmasked one does. */
    uint8_t m[sizeof v2ip4_send_only];
    memcpy(m, v, sizeof m);
    m[15] = 0x00;         /* TOS */
    m[22] = 0x01;         /* TTL */
    m[24] = m[25] = 0x55; /* IP checksum (now wrong) */
    m[40] = m[41] = 0x77; /* UDP checksum */
    m[46] = 0xC0;         /* FECN, BECN */
    m[sizeof m - 2] = 0x11; /* trailer: not covered */
    TU_EQ(ibw_parse(m, sizeof m, IBW_LINK_ETHERNET, &p), IBW_OK);
    TU_EQ(p.icrc_status, IBW_CRC_GOOD);
    TU_EQ(p.ip_csum_status, IBW_CRC_BAD); /* a verdict, not an error */
    m[0] ^= 0xFF;  /* Ethernet header: not covered */
    TU_EQ(ibw_parse(m, sizeof m, IBW_LINK_ETHERNET, &p), IBW_OK);
    TU_EQ(p.icrc_status, IBW_CRC_GOOD);
    m[55] ^= 0x01; /* payload */
    TU_EQ(ibw_parse(m, sizeof m, IBW_LINK_ETHERNET, &p), IBW_OK);
    TU_EQ(p.icrc_status, IBW_CRC_BAD);
    memcpy(m, v, sizeof m);
    m[35] ^= 0x01; /* UDP source port is covered */
    TU_EQ(ibw_parse(m, sizeof m, IBW_LINK_ETHERNET, &p), IBW_OK);
    TU_EQ(p.icrc_status, IBW_CRC_BAD);
}

/* ---- 2. RoCEv2 / IPv6 in a VLAN, RC RDMA WRITE ONLY + RETH ------------- */
static const uint8_t v2ip6_vlan_write[] = {
    /* Ethernet: dmac 02:00:00:00:00:02, smac 02:00:00:00:00:01, 802.1Q */
    0x02, 0x00, 0x00, 0x00, 0x00, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01,
    0x81, 0x00,
    /* tag: PCP 3, DEI 0, VID 100 -> 011 0 0000 0110 0100 = 0x6064; IPv6 */
    0x60, 0x64, 0x86, 0xDD,
    /* IPv6: version 6, traffic class 0x68, flow label 0x12345 ->
     * 0110 0110 1000 0001 0010 0011 0100 0101 = 66 81 23 45; payload
     * length 8 + 12 + 16 + 8 + 4 = 48 = 0x0030; next header 17; hop
     * limit 64; fe80::1 -> fe80::2 */
    0x66, 0x81, 0x23, 0x45, 0x00, 0x30, 0x11, 0x40,
    0xFE, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01,
    0xFE, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02,
    /* UDP: sport 0xABCD, dport 4791, length 48, checksum 0 */
    0xAB, 0xCD, 0x12, 0xB7, 0x00, 0x30, 0x00, 0x00,
    /* BTH: opcode 0x0A RC RDMA WRITE ONLY; SE 0 M 0 PadCnt 0 TVer 0;
     * P_Key 0x8001; FECN 1 -> 0x80 (masked in the ICRC); DestQP 0x000ABC;
     * AckReq 1; PSN 0x000001 */
    0x0A, 0x00, 0x80, 0x01, 0x80, 0x00, 0x0A, 0xBC, 0x80, 0x00, 0x00, 0x01,
    /* RETH: VA 0x00007F0000001000, R_Key 0x00001234, DMA length 8 */
    0x00, 0x00, 0x7F, 0x00, 0x00, 0x00, 0x10, 0x00,
    0x00, 0x00, 0x12, 0x34, 0x00, 0x00, 0x00, 0x08,
    /* payload 1..8, no pad */
    1, 2, 3, 4, 5, 6, 7, 8,
    /* ICRC */ 0x2D, 0x08, 0x53, 0xF7};

static void test_v2ip6_vlan_write(void)
{
    struct ibw_pkt p = parse_ok(
        v2ip6_vlan_write, sizeof v2ip6_vlan_write, IBW_LINK_ETHERNET,
        IBW_TK_ROCE_V2_IP6,
        B(ETH) | B(VLAN) | B(IPV6) | B(UDP) | B(BTH) | B(RETH));
    TU_EQ(p.nvlan, 1);
    TU_EQ(p.off[IBW_HDR_VLAN], 14);
    TU_EQ(p.off[IBW_HDR_IPV6], 18);
    TU_EQ(p.off[IBW_HDR_UDP], 58);
    TU_EQ(p.off[IBW_HDR_BTH], 66);
    TU_EQ(p.off[IBW_HDR_RETH], 78);
    TU_EQ(p.payload_off, 94);
    TU_EQ(p.payload_len, 8);
    TU_EQ(p.pad, 0);
    TU_EQ(p.trailer_len, 0);
    TU_EQ(p.ip_csum_status, IBW_CRC_ABSENT);
    const uint8_t *tag = ibw_pkt_hdr(&p, IBW_HDR_VLAN);
    TU_EQ(ibw_vlan_get_pcp(tag), 3);
    TU_EQ(ibw_vlan_get_dei(tag), 0);
    TU_EQ(ibw_vlan_get_vid(tag), 100);
    const uint8_t *ip = ibw_pkt_hdr(&p, IBW_HDR_IPV6);
    TU_EQ(ibw_ipv6_get_tclass(ip), 0x68);
    TU_EQ(ibw_ipv6_get_flowlabel(ip), 0x12345);
    TU_EQ(ibw_ipv6_get_hoplimit(ip), 64);
    struct ibw_reth r;
    TU_EQ(ibw_reth_decode(ibw_pkt_hdr(&p, IBW_HDR_RETH), 16, &r), IBW_OK);
    TU_EQ(r.va, 0x00007F0000001000ull);
    TU_EQ(r.rkey, 0x1234);
    TU_EQ(r.dmalen, 8);
    TU_EQ(ibw_bth_get_fecn(ibw_pkt_hdr(&p, IBW_HDR_BTH)), 1);
    TU_EQ(ibw_bth_get_pkey(ibw_pkt_hdr(&p, IBW_HDR_BTH)), 0x8001);
}

/* ---- 3. RoCEv1, RC ACKNOWLEDGE + AETH, FCS trailer --------------------- */
static const uint8_t v1_ack[] = {
    /* Ethernet: dmac 02:00:00:00:00:01, smac 02:00:00:00:00:02, 0x8915 */
    0x02, 0x00, 0x00, 0x00, 0x00, 0x01, 0x02, 0x00, 0x00, 0x00, 0x00, 0x02,
    0x89, 0x15,
    /* GRH: IPVer 6, TClass 0x20, FlowLabel 0xABCDE -> 6 20 ABCDE =
     * 62 0A BC DE; PayLen 12 + 4 + 4 = 20 = 0x0014; NxtHdr 0x1B; HopLmt 1;
     * SGID fe80::202:c9ff:fe00:2, DGID fe80::202:c9ff:fe00:1 */
    0x62, 0x0A, 0xBC, 0xDE, 0x00, 0x14, 0x1B, 0x01,
    0xFE, 0x80, 0, 0, 0, 0, 0, 0, 0x02, 0x02, 0xC9, 0xFF, 0xFE, 0x00, 0x00, 0x02,
    0xFE, 0x80, 0, 0, 0, 0, 0, 0, 0x02, 0x02, 0xC9, 0xFF, 0xFE, 0x00, 0x00, 0x01,
    /* BTH: opcode 0x11 RC ACKNOWLEDGE; flags 0; P_Key 0xFFFF; BECN 1 ->
     * 0x40; DestQP 0x000012; AckReq 0; PSN 0x000005 */
    0x11, 0x00, 0xFF, 0xFF, 0x40, 0x00, 0x00, 0x12, 0x00, 0x00, 0x00, 0x05,
    /* AETH: syndrome ACK (00) + credit code 0x1F (invalid) = 0x1F, MSN 3 */
    0x1F, 0x00, 0x00, 0x03,
    /* ICRC */ 0xDC, 0xD7, 0x48, 0xAF,
    /* FCS stand-in */
    0x01, 0x02, 0x03, 0x04};

static void test_v1_ack(void)
{
    struct ibw_pkt p = parse_ok(v1_ack, sizeof v1_ack, IBW_LINK_ETHERNET,
                                IBW_TK_ROCE_V1,
                                B(ETH) | B(GRH) | B(BTH) | B(AETH));
    TU_EQ(p.ethertype, 0x8915);
    TU_EQ(p.off[IBW_HDR_GRH], 14);
    TU_EQ(p.off[IBW_HDR_BTH], 54);
    TU_EQ(p.off[IBW_HDR_AETH], 66);
    TU_EQ(p.payload_len, 0);
    TU_EQ(p.icrc_off, 70);
    TU_EQ(p.trailer_len, 4);
    const uint8_t *a = ibw_pkt_hdr(&p, IBW_HDR_AETH);
    TU_EQ(ibw_aeth_syndrome_kind(ibw_aeth_get_syndrome(a)), IBW_AETH_ACK);
    TU_EQ(ibw_aeth_syndrome_value(ibw_aeth_get_syndrome(a)), 0x1F);
    TU_EQ(ibw_aeth_get_msn(a), 3);
    const uint8_t *g = ibw_pkt_hdr(&p, IBW_HDR_GRH);
    TU_EQ(ibw_grh_get_tclass(g), 0x20);
    TU_EQ(ibw_grh_get_flowlabel(g), 0xABCDE);
}

/* ---- 4. native IB, LRH only, UD SEND ONLY + DETH ----------------------- */
static const uint8_t ib_local_ud[] = {
    /* LRH: VL 2, LVer 0 -> 0x20; SL 0, LNH 2 (BTH next) -> 0x02; DLID
     * 0x0004; PktLen (8 + 12 + 8 + 4 + 4) / 4 = 9; SLID 0x0002 */
    0x20, 0x02, 0x00, 0x04, 0x00, 0x09, 0x00, 0x02,
    /* BTH: opcode 0x64 UD SEND ONLY; PadCnt 0; P_Key 0xFFFF; DestQP
     * 0x000001; AckReq 0; PSN 0x00002A */
    0x64, 0x00, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x2A,
    /* DETH: Q_Key 0x80010000 (QP1), SrcQP 0x000001 */
    0x80, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
    /* payload */
    0xDE, 0xAD, 0xBE, 0xEF,
    /* ICRC */ 0xFE, 0x4A, 0x6A, 0x5F,
    /* VCRC */ 0xB8, 0x7F};

static void test_ib_local_ud(void)
{
    struct ibw_pkt p =
        parse_ok(ib_local_ud, sizeof ib_local_ud, IBW_LINK_IB,
                 IBW_TK_IB_LOCAL, B(LRH) | B(BTH) | B(DETH));
    TU_EQ(p.off[IBW_HDR_BTH], 8);
    TU_EQ(p.off[IBW_HDR_DETH], 20);
    TU_EQ(p.payload_off, 28);
    TU_EQ(p.payload_len, 4);
    TU_EQ(p.icrc_off, 32);
    TU_EQ(p.vcrc_off, 36);
    TU_EQ(p.vcrc_wire, 0x7FB8);
    TU_EQ(p.trailer_len, 0);
    const uint8_t *d = ibw_pkt_hdr(&p, IBW_HDR_DETH);
    TU_EQ(ibw_deth_get_qkey(d), 0x80010000u);
    TU_EQ(ibw_deth_get_srcqp(d), 1);
    TU_EQ(ibw_lrh_get_vl(ib_local_ud), 2);

    /* VL is masked in the ICRC, not in the VCRC; SL is in both. */
    uint8_t m[sizeof ib_local_ud];
    memcpy(m, ib_local_ud, sizeof m);
    m[0] = 0x70; /* VL 7 */
    TU_EQ(ibw_parse(m, sizeof m, IBW_LINK_IB, &p), IBW_OK);
    TU_EQ(p.icrc_status, IBW_CRC_GOOD);
    TU_EQ(p.vcrc_status, IBW_CRC_BAD);
    m[0] = 0x20;
    m[1] = 0x12; /* SL 1 */
    TU_EQ(ibw_parse(m, sizeof m, IBW_LINK_IB, &p), IBW_OK);
    TU_EQ(p.icrc_status, IBW_CRC_BAD);
    TU_EQ(p.vcrc_status, IBW_CRC_BAD);
}

/* ---- 5. native IB, LRH + GRH, RC RDMA READ REQUEST + RETH -------------- */
static const uint8_t ib_global_read[] = {
    /* LRH: VL 1, LVer 0 -> 0x10; SL 5, LNH 3 (GRH next) -> 0x53; DLID
     * 0x0010; PktLen (8 + 40 + 12 + 16 + 4) / 4 = 20 = 0x014; SLID 0x0020 */
    0x10, 0x53, 0x00, 0x10, 0x00, 0x14, 0x00, 0x20,
    /* GRH: IPVer 6, TClass 0x10, FlowLabel 0x00001 -> 61 00 00 01; PayLen
     * 12 + 16 + 4 = 32; NxtHdr 0x1B; HopLmt 0xFF; SGID fe80::1, DGID
     * fe80::2 */
    0x61, 0x00, 0x00, 0x01, 0x00, 0x20, 0x1B, 0xFF,
    0xFE, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01,
    0xFE, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02,
    /* BTH: opcode 0x0C RC RDMA READ REQUEST; flags 0; P_Key 0xFFFF; DestQP
     * 0x000033; AckReq 1; PSN 0x000007 */
    0x0C, 0x00, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x33, 0x80, 0x00, 0x00, 0x07,
    /* RETH: VA 0x1000, R_Key 0xABCD, DMA length 0x1000 */
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00,
    0x00, 0x00, 0xAB, 0xCD, 0x00, 0x00, 0x10, 0x00,
    /* ICRC */ 0xB7, 0x4E, 0x23, 0xA8,
    /* VCRC */ 0x36, 0x7D};

static void test_ib_global_read(void)
{
    struct ibw_pkt p = parse_ok(ib_global_read, sizeof ib_global_read,
                                IBW_LINK_IB, IBW_TK_IB_GLOBAL,
                                B(LRH) | B(GRH) | B(BTH) | B(RETH));
    TU_EQ(p.off[IBW_HDR_GRH], 8);
    TU_EQ(p.off[IBW_HDR_BTH], 48);
    TU_EQ(p.off[IBW_HDR_RETH], 60);
    TU_EQ(p.payload_len, 0);
    TU_EQ(p.icrc_off, 76);
    TU_EQ(p.vcrc_off, 80);
    TU_EQ(ibw_reth_get_dmalen(ibw_pkt_hdr(&p, IBW_HDR_RETH)), 0x1000);
    /* With a GRH the whole LRH counts as ones: changing DLID keeps the ICRC */
    uint8_t m[sizeof ib_global_read];
    memcpy(m, ib_global_read, sizeof m);
    m[3] = 0x99;
    m[8 + 7] = 0x01; /* hop limit: masked */
    TU_EQ(ibw_parse(m, sizeof m, IBW_LINK_IB, &p), IBW_OK);
    TU_EQ(p.icrc_status, IBW_CRC_GOOD);
    TU_EQ(p.vcrc_status, IBW_CRC_BAD);
    m[8 + 4 + 2] ^= 1; /* GRH NxtHdr is covered ... and must be 0x1B */
    TU_EQ(ibw_parse(m, sizeof m, IBW_LINK_IB, &p), IBW_E_HDRSEQ);
    TU_EQ(p.icrc_status, IBW_CRC_ABSENT);
}

/* ---- 6. RoCEv2 / IPv4, RC FETCH ADD + AtomicETH ------------------------ */
static const uint8_t v2ip4_fetch_add[] = {
    0x02, 0x00, 0x00, 0x00, 0x00, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01,
    0x08, 0x00,
    /* IPv4: 0x45, TOS 0, total 20 + 8 + 12 + 28 + 4 = 72 = 0x48, id 1,
     * DF, TTL 64, UDP, checksum, 10.0.0.1 -> 10.0.0.2 */
    0x45, 0x00, 0x00, 0x48, 0x00, 0x01, 0x40, 0x00, 0x40, 0x11,
    /* checksum */ 0x26, 0xA2,
    0x0A, 0x00, 0x00, 0x01, 0x0A, 0x00, 0x00, 0x02,
    /* UDP: sport 49152, dport 4791, length 8 + 12 + 28 + 4 = 52 */
    0xC0, 0x00, 0x12, 0xB7, 0x00, 0x34, 0x00, 0x00,
    /* BTH: opcode 0x14 RC FETCH ADD; P_Key 0xFFFF; DestQP 0x000100;
     * AckReq 1; PSN 0x000010 */
    0x14, 0x00, 0xFF, 0xFF, 0x00, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00, 0x10,
    /* AtomicETH: VA 0x2000, R_Key 0x11223344, add data 1, compare 0 */
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x20, 0x00,
    0x11, 0x22, 0x33, 0x44,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    /* ICRC */ 0xE9, 0xB1, 0xAF, 0xE3};

/* ---- 7. RoCEv2 / IPv4, RC ATOMIC ACKNOWLEDGE + AETH + AtomicAckETH ----- */
static const uint8_t v2ip4_atomic_ack[] = {
    0x02, 0x00, 0x00, 0x00, 0x00, 0x01, 0x02, 0x00, 0x00, 0x00, 0x00, 0x02,
    0x08, 0x00,
    /* IPv4: total 20 + 8 + 12 + 4 + 8 + 4 = 56 = 0x38, id 2, DF, TTL 64,
     * 10.0.0.2 -> 10.0.0.1 */
    0x45, 0x00, 0x00, 0x38, 0x00, 0x02, 0x40, 0x00, 0x40, 0x11,
    /* checksum */ 0x26, 0xB1,
    0x0A, 0x00, 0x00, 0x02, 0x0A, 0x00, 0x00, 0x01,
    /* UDP: sport 49153, dport 4791, length 36 */
    0xC0, 0x01, 0x12, 0xB7, 0x00, 0x24, 0x00, 0x00,
    /* BTH: opcode 0x12 RC ATOMIC ACKNOWLEDGE; DestQP 0x000200; PSN 0x10 */
    0x12, 0x00, 0xFF, 0xFF, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x10,
    /* AETH: ACK, credit code 4 -> 0x04; MSN 9 */
    0x04, 0x00, 0x00, 0x09,
    /* AtomicAckETH: original remote data 5 */
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05,
    /* ICRC */ 0xDB, 0xC6, 0xFB, 0x83};

/* ---- 8. RoCEv2 / IPv4 CNP ---------------------------------------------- */
static const uint8_t v2ip4_cnp[] = {
    0x02, 0x00, 0x00, 0x00, 0x00, 0x01, 0x02, 0x00, 0x00, 0x00, 0x00, 0x02,
    0x08, 0x00,
    /* IPv4: TOS 0xC0 (DSCP 48, ECN 0), total 20 + 8 + 12 + 16 + 4 = 60,
     * id 3, DF, TTL 64, 10.0.0.2 -> 10.0.0.1 */
    0x45, 0xC0, 0x00, 0x3C, 0x00, 0x03, 0x40, 0x00, 0x40, 0x11,
    /* checksum */ 0x25, 0xEC,
    0x0A, 0x00, 0x00, 0x02, 0x0A, 0x00, 0x00, 0x01,
    /* UDP: sport 0, dport 4791, length 40 */
    0x00, 0x00, 0x12, 0xB7, 0x00, 0x28, 0x00, 0x00,
    /* BTH: opcode 0x81 CNP; P_Key 0xFFFF; BECN 1 -> 0x40; DestQP 0x000100
     * (the QP to slow down); PSN 0 */
    0x81, 0x00, 0xFF, 0xFF, 0x40, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00,
    /* 16 reserved bytes */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    /* ICRC */ 0x0B, 0x0C, 0xE3, 0x8D};

/* ---- 8b. vector 8 with reserved bytes 0x01..0x10 ---------------------- */
/* A sender that puts something in the reserved bytes: the ICRC covers them
 * (AF C7 14 68 from icrc_ref.py, which checks this file), so a rebuild must
 * keep them to reproduce the frame. */
static const uint8_t v2ip4_cnp_resv[] = {
    0x02, 0x00, 0x00, 0x00, 0x00, 0x01, 0x02, 0x00, 0x00, 0x00, 0x00, 0x02,
    0x08, 0x00,
    /* IPv4 as in vector 8 (same length, so same checksum) */
    0x45, 0xC0, 0x00, 0x3C, 0x00, 0x03, 0x40, 0x00, 0x40, 0x11,
    /* checksum */ 0x25, 0xEC,
    0x0A, 0x00, 0x00, 0x02, 0x0A, 0x00, 0x00, 0x01,
    0x00, 0x00, 0x12, 0xB7, 0x00, 0x28, 0x00, 0x00,
    0x81, 0x00, 0xFF, 0xFF, 0x40, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00,
    /* 16 reserved bytes, not zero */
    0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C,
    0x0D, 0x0E, 0x0F, 0x10,
    /* ICRC */ 0xAF, 0xC7, 0x14, 0x68};

/* ---- 9. RoCEv2 / IPv4, XRC SEND ONLY + XRCETH -------------------------- */
static const uint8_t v2ip4_xrc_send[] = {
    0x02, 0x00, 0x00, 0x00, 0x00, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01,
    0x08, 0x00,
    /* IPv4: total 20 + 8 + 12 + 4 + 4 + 4 = 52 = 0x34, id 4 */
    0x45, 0x00, 0x00, 0x34, 0x00, 0x04, 0x40, 0x00, 0x40, 0x11,
    /* checksum */ 0x26, 0xB3,
    0x0A, 0x00, 0x00, 0x01, 0x0A, 0x00, 0x00, 0x02,
    /* UDP: length 32 */
    0xC0, 0x00, 0x12, 0xB7, 0x00, 0x20, 0x00, 0x00,
    /* BTH: opcode 0xA4 XRC SEND ONLY; DestQP 0x000300; AckReq; PSN 1 */
    0xA4, 0x00, 0xFF, 0xFF, 0x00, 0x00, 0x03, 0x00, 0x80, 0x00, 0x00, 0x01,
    /* XRCETH: reserved 0, XRC SRQ 0x000123 */
    0x00, 0x00, 0x01, 0x23,
    /* payload */
    0xCA, 0xFE, 0xF0, 0x0D,
    /* ICRC */ 0xE8, 0xAA, 0xC3, 0xEC};

/* ---- 10. RoCEv2 / IPv4, RD SEND ONLY + RDETH + DETH -------------------- */
static const uint8_t v2ip4_rd_send[] = {
    0x02, 0x00, 0x00, 0x00, 0x00, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01,
    0x08, 0x00,
    /* IPv4: total 20 + 8 + 12 + 4 + 8 + 4 + 4 = 60 = 0x3C, id 5 */
    0x45, 0x00, 0x00, 0x3C, 0x00, 0x05, 0x40, 0x00, 0x40, 0x11,
    /* checksum */ 0x26, 0xAA,
    0x0A, 0x00, 0x00, 0x01, 0x0A, 0x00, 0x00, 0x02,
    /* UDP: length 40 */
    0xC0, 0x00, 0x12, 0xB7, 0x00, 0x28, 0x00, 0x00,
    /* BTH: opcode 0x44 RD SEND ONLY; DestQP 0x000400; AckReq; PSN 2 */
    0x44, 0x00, 0xFF, 0xFF, 0x00, 0x00, 0x04, 0x00, 0x80, 0x00, 0x00, 0x02,
    /* RDETH: reserved 0, EE context 0x000077 */
    0x00, 0x00, 0x00, 0x77,
    /* DETH: Q_Key 0x00000011, SrcQP 0x000022 */
    0x00, 0x00, 0x00, 0x11, 0x00, 0x00, 0x00, 0x22,
    /* payload */
    0x01, 0x02, 0x03, 0x04,
    /* ICRC */ 0xAF, 0xBA, 0x14, 0xA5};

/* ---- 11. RoCEv2 / IPv4, RC FLUSH + FETH + RETH ------------------------- */
static const uint8_t v2ip4_flush[] = {
    0x02, 0x00, 0x00, 0x00, 0x00, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01,
    0x08, 0x00,
    /* IPv4: total 20 + 8 + 12 + 4 + 16 + 4 = 64 = 0x40, id 6 */
    0x45, 0x00, 0x00, 0x40, 0x00, 0x06, 0x40, 0x00, 0x40, 0x11,
    /* checksum */ 0x26, 0xA5,
    0x0A, 0x00, 0x00, 0x01, 0x0A, 0x00, 0x00, 0x02,
    /* UDP: length 44 */
    0xC0, 0x00, 0x12, 0xB7, 0x00, 0x2C, 0x00, 0x00,
    /* BTH: opcode 0x1C RC FLUSH; DestQP 0x000500; AckReq; PSN 3 */
    0x1C, 0x00, 0xFF, 0xFF, 0x00, 0x00, 0x05, 0x00, 0x80, 0x00, 0x00, 0x03,
    /* FETH: 26 reserved bits, Selectivity Level 1 (byte 3 bits 2-3 from
     * the MSB -> 0x10), Placement Type 2 (bits 4-7 -> 0x02) */
    0x00, 0x00, 0x00, 0x12,
    /* RETH: VA 0x3000, R_Key 0x55, DMA length 0x40 */
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x30, 0x00,
    0x00, 0x00, 0x00, 0x55, 0x00, 0x00, 0x00, 0x40,
    /* ICRC */ 0xFD, 0x7B, 0x5E, 0x24};

static void test_roce_ext_headers(void)
{
    struct ibw_pkt p;
    const uint8_t *h;

    p = parse_ok(v2ip4_fetch_add, sizeof v2ip4_fetch_add, IBW_LINK_ETHERNET,
                 IBW_TK_ROCE_V2_IP4, ROCE4 | B(ATOMICETH));
    TU_EQ(p.off[IBW_HDR_ATOMICETH], 54);
    TU_EQ(p.payload_len, 0);
    h = ibw_pkt_hdr(&p, IBW_HDR_ATOMICETH);
    TU_EQ(ibw_atomiceth_get_va(h), 0x2000);
    TU_EQ(ibw_atomiceth_get_rkey(h), 0x11223344u);
    TU_EQ(ibw_atomiceth_get_swapdt(h), 1);
    TU_EQ(ibw_atomiceth_get_cmpdt(h), 0);
    TU_EQ(ibw_pkt_opcode_info(&p)->kind, IBW_OPK_ATOMIC);

    p = parse_ok(v2ip4_atomic_ack, sizeof v2ip4_atomic_ack, IBW_LINK_ETHERNET,
                 IBW_TK_ROCE_V2_IP4, ROCE4 | B(AETH) | B(ATOMICACKETH));
    TU_EQ(p.off[IBW_HDR_AETH], 54);
    TU_EQ(p.off[IBW_HDR_ATOMICACKETH], 58);
    TU_EQ(ibw_aeth_get_msn(ibw_pkt_hdr(&p, IBW_HDR_AETH)), 9);
    TU_EQ(ibw_atomicacketh_get_origremdt(
              ibw_pkt_hdr(&p, IBW_HDR_ATOMICACKETH)), 5);

    p = parse_ok(v2ip4_cnp, sizeof v2ip4_cnp, IBW_LINK_ETHERNET,
                 IBW_TK_ROCE_V2_IP4, ROCE4 | B(CNP));
    TU_EQ(p.opcode, 0x81); /* IBA annex A17: CNP */
    TU_EQ(p.off[IBW_HDR_CNP], 54);
    TU_EQ(p.payload_len, 0);
    TU_EQ(p.icrc_off, 70);
    TU_EQ(ibw_bth_get_becn(ibw_pkt_hdr(&p, IBW_HDR_BTH)), 1);

    p = parse_ok(v2ip4_xrc_send, sizeof v2ip4_xrc_send, IBW_LINK_ETHERNET,
                 IBW_TK_ROCE_V2_IP4, ROCE4 | B(XRCETH));
    TU_EQ(ibw_xrceth_get_xrcsrq(ibw_pkt_hdr(&p, IBW_HDR_XRCETH)), 0x123);
    TU_EQ(p.payload_off, 58);
    TU_EQ(p.payload_len, 4);

    p = parse_ok(v2ip4_rd_send, sizeof v2ip4_rd_send, IBW_LINK_ETHERNET,
                 IBW_TK_ROCE_V2_IP4, ROCE4 | B(RDETH) | B(DETH));
    TU_EQ(p.off[IBW_HDR_RDETH], 54);
    TU_EQ(p.off[IBW_HDR_DETH], 58);
    TU_EQ(ibw_rdeth_get_eecnxt(ibw_pkt_hdr(&p, IBW_HDR_RDETH)), 0x77);
    TU_EQ(ibw_deth_get_qkey(ibw_pkt_hdr(&p, IBW_HDR_DETH)), 0x11);
    TU_EQ(ibw_deth_get_srcqp(ibw_pkt_hdr(&p, IBW_HDR_DETH)), 0x22);
    TU_EQ(p.payload_len, 4);

    p = parse_ok(v2ip4_flush, sizeof v2ip4_flush, IBW_LINK_ETHERNET,
                 IBW_TK_ROCE_V2_IP4, ROCE4 | B(FETH) | B(RETH));
    TU_EQ(p.off[IBW_HDR_FETH], 54); /* FETH before RETH on the wire */
    TU_EQ(p.off[IBW_HDR_RETH], 58);
    TU_EQ(ibw_feth_get_sel(ibw_pkt_hdr(&p, IBW_HDR_FETH)), 1);
    TU_EQ(ibw_feth_get_plt(ibw_pkt_hdr(&p, IBW_HDR_FETH)), 2);
    TU_EQ(ibw_reth_get_dmalen(ibw_pkt_hdr(&p, IBW_HDR_RETH)), 0x40);
    TU_EQ(p.payload_len, 0);
}

/* The opcode table against IBA table 38 / ib-opcodes.md, spot by spot. */
static void test_opcode_table(void)
{
    const struct ibw_opcode_info *o;
    unsigned valid = 0;
    for (unsigned op = 0; op < 256; op++) {
        o = ibw_opcode_info((uint8_t)op);
        TU_CHECK(o != NULL && o->name != NULL && o->cname != NULL);
        if (o->flags & IBW_OPF_VALID) {
            valid++;
            unsigned bytes = 0;
            uint32_t bits = 0;
            for (unsigned i = 0; i < o->nseq; i++) {
                bytes += ibw_hdr_size(o->seq[i]);
                bits |= 1u << o->seq[i];
            }
            TU_EQ(bytes, o->hdr_bytes);
            TU_EQ(bits, o->hdrs);
            TU_EQ(o->transport, op >> 5);
            TU_EQ(ibw_opcode_by_name(o->name), op);
            TU_EQ(ibw_opcode_by_name(o->cname), op);
        } else {
            TU_EQ(o->kind, IBW_OPK_NONE);
        }
    }
    /* RC 24 - 0x15 + FLUSH + ATOMIC WRITE = 25, UC 12, RD 22 + RD FLUSH =
     * 23, UD 2, CNP 1, XRC 24 - 0xB5 = 23: 86 */
    TU_EQ(valid, 86);
    TU_CHECK(!ibw_opcode_valid(0x15));
    TU_CHECK(!ibw_opcode_valid(0xB5));
    TU_CHECK(!ibw_opcode_valid(0x18));
    TU_CHECK(!ibw_opcode_valid(0x66));
    TU_CHECK(!ibw_opcode_valid(0xC0));
    TU_EQ(ibw_opcode_info(0xE3)->transport, IBW_TR_MSP);
    TU_CHECK(strcmp(ibw_opcode_info(0xE3)->name, "manufacturer specific") == 0);

    /* lengths from BTH start to payload, as in rxe's table */
    static const struct { uint8_t op; unsigned len; } lens[] = {
        {0x00, 12}, {0x03, 16}, {0x0B, 32}, {0x0C, 28}, {0x12, 24},
        {0x13, 40}, {0x17, 16}, {0x1C, 32}, {0x1D, 28}, {0x2B, 32},
        {0x4B, 44}, {0x4D, 20}, {0x52, 28}, {0x53, 52}, {0x55, 24},
        {0x64, 20}, {0x65, 24}, {0xAB, 36}, {0xAD, 16}, {0xB3, 44},
        {0xB7, 20}, {0x81, 28}};
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++)
        TU_EQ(12u + ibw_opcode_info(lens[i].op)->hdr_bytes, lens[i].len);

    o = ibw_opcode_info(0x0B);
    TU_CHECK(strcmp(o->name, "RC RDMA WRITE ONLY WITH IMMEDIATE") == 0);
    TU_EQ(o->nseq, 2);
    TU_EQ(o->seq[0], IBW_HDR_RETH);
    TU_EQ(o->seq[1], IBW_HDR_IMMDT);
    TU_EQ(o->kind, IBW_OPK_WRITE);
    TU_EQ(o->flags & (IBW_OPF_ONLY | IBW_OPF_MIDDLE), IBW_OPF_ONLY);
    TU_CHECK(o->flags & IBW_OPF_IMM);
    TU_CHECK(o->flags & IBW_OPF_RWR);
    TU_CHECK(o->flags & IBW_OPF_REQUEST);
    o = ibw_opcode_info(0x1C);
    TU_EQ(o->seq[0], IBW_HDR_FETH);
    TU_EQ(o->seq[1], IBW_HDR_RETH);
    TU_CHECK(!(o->flags & IBW_OPF_PAYLOAD));
    o = ibw_opcode_info(0x1D);
    TU_EQ(o->kind, IBW_OPK_ATOMIC_WRITE);
    TU_CHECK(o->flags & IBW_OPF_PAYLOAD_REQ);
    o = ibw_opcode_info(0x0E);
    TU_EQ(o->kind, IBW_OPK_READ_RESP);
    TU_EQ(o->flags & (IBW_OPF_ONLY | IBW_OPF_MIDDLE), IBW_OPF_MIDDLE);
    TU_CHECK(o->flags & IBW_OPF_RESPONSE);
    o = ibw_opcode_info(0x4C);
    TU_EQ(o->nseq, 3);
    TU_EQ(o->seq[0], IBW_HDR_RDETH);
    TU_EQ(o->seq[1], IBW_HDR_DETH);
    TU_EQ(o->seq[2], IBW_HDR_RETH);
    o = ibw_opcode_info(0x4F);
    TU_EQ(o->nseq, 2); /* RD responses carry RDETH only */
    o = ibw_opcode_info(0xB1);
    TU_EQ(o->hdrs, 1u << IBW_HDR_AETH); /* XRC responses: no XRCETH */
    o = ibw_opcode_info(0x17);
    TU_CHECK(o->flags & IBW_OPF_INV);
    TU_EQ(o->seq[0], IBW_HDR_IETH);
    o = ibw_opcode_info(0x81);
    TU_EQ(o->kind, IBW_OPK_CNP);
    TU_EQ(o->hdr_bytes, 16);
    TU_CHECK(!(o->flags & IBW_OPF_PAYLOAD));
}

static void test_framing(void)
{
    /* RFC 1071 example-style check: the header of vector 1 sums to 0xFFFF
     * with its checksum in place. */
    const uint8_t *ip = v2ip4_send_only + 14;
    uint32_t sum = 0;
    for (int i = 0; i < 20; i += 2)
        sum += ibw_load_be16(ip + i);
    while (sum >> 16)
        sum = (sum & 0xFFFF) + (sum >> 16);
    TU_EQ(sum, 0xFFFF);
    TU_CHECK(ibw_ipv4_checksum_ok(ip, 20));
    TU_EQ(ibw_ipv4_hdr_len(ip), 20);
    struct ibw_ipv4 h4;
    TU_EQ(ibw_ipv4_decode(ip, 20, &h4), IBW_OK);
    TU_EQ(h4.version, 4);
    TU_EQ(h4.ihl, 5);
    TU_EQ(h4.total_length, 52);
    TU_EQ(h4.id, 0x1234);
    TU_EQ(h4.frag_offset, 0);
    TU_EQ(h4.protocol, 17);
    TU_EQ(h4.saddr[3], 1);
    TU_EQ(h4.daddr[3], 2);
    uint8_t out[20];
    TU_EQ(ibw_ipv4_encode(&h4, out, sizeof out), IBW_OK);
    TU_MEMEQ(out, ip, 20);
    struct ibw_eth e;
    TU_EQ(ibw_eth_decode(v2ip6_vlan_write, 14, &e), IBW_OK);
    TU_EQ(e.ethertype, IBW_ETHERTYPE_VLAN);
    TU_EQ(e.smac[5], 1);
    TU_EQ(ibw_eth_format()->nfields, 3);
    TU_CHECK(ibw_format_field(ibw_ipv4_format(), "total_length") != NULL);
    TU_EQ(ibw_ipv6_format()->width, 320);
    TU_EQ(ibw_udp_SIZE, 8);
    TU_EQ(ibw_cnp_SIZE, 16);
    /* every header has a descriptor whose size is the header's size */
    for (unsigned h = 0; h < IBW_HDR_COUNT; h++) {
        const struct ibw_format *f = ibw_hdr_format(h);
        TU_CHECK(f != NULL);
        if (f)
            TU_EQ(ibw_format_bytes(f), ibw_hdr_size(h));
    }
    TU_CHECK(ibw_hdr_format(IBW_HDR_COUNT) == NULL);
    TU_CHECK(strcmp(ibw_transport_kind_name(IBW_TK_ROCE_V1), "RoCEv1") == 0);
}

/* ---- ibw_build() must reproduce the hand-written frames byte for byte -- */

static void expect_build(const struct ibw_build_spec *s, const uint8_t *want,
                         size_t want_len, const char *name)
{
    uint8_t out[256];
    size_t n = 0;
    int err = ibw_build(s, out, sizeof out, &n);
    TU_EQ(err, IBW_OK);
    TU_EQ(n, want_len);
    if (err == IBW_OK && n == want_len) {
        if (memcmp(out, want, n) != 0)
            fprintf(stderr, "  %s differs\n", name);
        TU_MEMEQ(out, want, n);
    }
    /* one byte too little room: refused, nothing written past cap */
    uint8_t small[256];
    memset(small, 0x5A, sizeof small);
    TU_EQ(ibw_build(s, small, want_len - 1, &n), IBW_E_NOSPACE);
    TU_EQ(small[want_len - 1], 0x5A);
}

static const uint8_t mac1[6] = {2, 0, 0, 0, 0, 1}, mac2[6] = {2, 0, 0, 0, 0, 2};

static void test_build_vectors(void)
{
    struct ibw_build_spec s;

    /* vector 1 without its 4 trailer bytes */
    memset(&s, 0, sizeof s);
    s.transport = IBW_TK_ROCE_V2_IP4;
    memcpy(s.dmac, mac2, 6);
    memcpy(s.smac, mac1, 6);
    memcpy(s.ip_src, (const uint8_t[]){192, 168, 1, 1}, 4);
    memcpy(s.ip_dst, (const uint8_t[]){192, 168, 1, 2}, 4);
    s.tos = 0x6A;
    s.ttl = 64;
    s.ip_id = 0x1234;
    s.ip_df = 1;
    s.udp_sport = 0xC000;
    s.bth.opcode = 0x04;
    s.bth.se = 1;
    s.bth.pkey = 0xFFFF;
    s.bth.destqp = 0x11;
    s.bth.ackreq = 1;
    s.bth.psn = 0x102;
    s.payload = (const uint8_t *)"hello";
    s.payload_len = 5;
    expect_build(&s, v2ip4_send_only, sizeof v2ip4_send_only - 4, "v1");

    /* vector 2 */
    memset(&s, 0, sizeof s);
    s.transport = IBW_TK_ROCE_V2_IP6;
    memcpy(s.dmac, mac2, 6);
    memcpy(s.smac, mac1, 6);
    s.nvlan = 1;
    s.vlan[0].pcp = 3;
    s.vlan[0].vid = 100;
    s.ip_src[0] = s.ip_dst[0] = 0xFE;
    s.ip_src[1] = s.ip_dst[1] = 0x80;
    s.ip_src[15] = 1;
    s.ip_dst[15] = 2;
    s.tos = 0x68;
    s.flowlabel = 0x12345;
    s.ttl = 64;
    s.udp_sport = 0xABCD;
    s.bth.opcode = 0x0A;
    s.bth.pkey = 0x8001;
    s.bth.fecn = 1;
    s.bth.destqp = 0xABC;
    s.bth.ackreq = 1;
    s.bth.psn = 1;
    s.reth.va = 0x00007F0000001000ull;
    s.reth.rkey = 0x1234;
    s.reth.dmalen = 8;
    /* named, not a compound literal: this file is also built as C++,
     * where a compound literal dies with its full-expression */
    static const uint8_t write_payload[] = {1, 2, 3, 4, 5, 6, 7, 8};
    s.payload = write_payload;
    s.payload_len = 8;
    expect_build(&s, v2ip6_vlan_write, sizeof v2ip6_vlan_write, "v2");

    /* vector 3 without the trailer */
    memset(&s, 0, sizeof s);
    s.transport = IBW_TK_ROCE_V1;
    memcpy(s.dmac, mac1, 6);
    memcpy(s.smac, mac2, 6);
    s.grh.tclass = 0x20;
    s.grh.flowlabel = 0xABCDE;
    s.grh.hoplmt = 1;
    memcpy(s.grh.sgid, v1_ack + 14 + 8, 16);
    memcpy(s.grh.dgid, v1_ack + 14 + 24, 16);
    s.bth.opcode = 0x11;
    s.bth.pkey = 0xFFFF;
    s.bth.becn = 1;
    s.bth.destqp = 0x12;
    s.bth.psn = 5;
    s.aeth.syndrome = 0x1F;
    s.aeth.msn = 3;
    expect_build(&s, v1_ack, sizeof v1_ack - 4, "v3");

    /* vector 4 */
    memset(&s, 0, sizeof s);
    s.transport = IBW_TK_IB_LOCAL;
    s.lrh.vl = 2;
    s.lrh.dlid = 4;
    s.lrh.slid = 2;
    s.bth.opcode = 0x64;
    s.bth.pkey = 0xFFFF;
    s.bth.destqp = 1;
    s.bth.psn = 0x2A;
    s.deth.qkey = 0x80010000u;
    s.deth.srcqp = 1;
    static const uint8_t ud_payload[] = {0xDE, 0xAD, 0xBE, 0xEF};
    s.payload = ud_payload;
    s.payload_len = 4;
    expect_build(&s, ib_local_ud, sizeof ib_local_ud, "v4");

    /* vector 5 */
    memset(&s, 0, sizeof s);
    s.transport = IBW_TK_IB_GLOBAL;
    s.lrh.vl = 1;
    s.lrh.sl = 5;
    s.lrh.dlid = 0x10;
    s.lrh.slid = 0x20;
    s.grh.tclass = 0x10;
    s.grh.flowlabel = 1;
    s.grh.hoplmt = 0xFF;
    memcpy(s.grh.sgid, ib_global_read + 16, 16);
    memcpy(s.grh.dgid, ib_global_read + 32, 16);
    s.bth.opcode = 0x0C;
    s.bth.pkey = 0xFFFF;
    s.bth.destqp = 0x33;
    s.bth.ackreq = 1;
    s.bth.psn = 7;
    s.reth.va = 0x1000;
    s.reth.rkey = 0xABCD;
    s.reth.dmalen = 0x1000;
    expect_build(&s, ib_global_read, sizeof ib_global_read, "v5");

    /* vector 8, the CNP */
    memset(&s, 0, sizeof s);
    s.transport = IBW_TK_ROCE_V2_IP4;
    memcpy(s.dmac, mac1, 6);
    memcpy(s.smac, mac2, 6);
    memcpy(s.ip_src, (const uint8_t[]){10, 0, 0, 2}, 4);
    memcpy(s.ip_dst, (const uint8_t[]){10, 0, 0, 1}, 4);
    s.tos = 0xC0;
    s.ttl = 64;
    s.ip_id = 3;
    s.ip_df = 1;
    s.bth.opcode = IBW_OP_CNP;
    s.bth.pkey = 0xFFFF;
    s.bth.becn = 1;
    s.bth.destqp = 0x100;
    expect_build(&s, v2ip4_cnp, sizeof v2ip4_cnp, "v8");
    /* the same with the reserved bytes given */
    for (unsigned i = 0; i < sizeof s.cnp.resv; i++)
        s.cnp.resv[i] = (uint8_t)(i + 1);
    expect_build(&s, v2ip4_cnp_resv, sizeof v2ip4_cnp_resv, "v8b");
    /* and taken from the parsed frame (once rebuilt as zeros) */
    struct ibw_pkt p;
    TU_EQ(ibw_parse(v2ip4_cnp_resv, sizeof v2ip4_cnp_resv, IBW_LINK_ETHERNET,
                    &p), IBW_OK);
    TU_EQ(p.icrc_status, IBW_CRC_GOOD);
    TU_EQ(ibw_build_spec_from_pkt(&p, &s), IBW_OK);
    expect_build(&s, v2ip4_cnp_resv, sizeof v2ip4_cnp_resv, "v8b rebuilt");

    /* vector 11, FLUSH: FETH then RETH */
    memset(&s, 0, sizeof s);
    s.transport = IBW_TK_ROCE_V2_IP4;
    memcpy(s.dmac, mac2, 6);
    memcpy(s.smac, mac1, 6);
    memcpy(s.ip_src, (const uint8_t[]){10, 0, 0, 1}, 4);
    memcpy(s.ip_dst, (const uint8_t[]){10, 0, 0, 2}, 4);
    s.ttl = 64;
    s.ip_id = 6;
    s.ip_df = 1;
    s.udp_sport = 0xC000;
    s.bth.opcode = 0x1C;
    s.bth.pkey = 0xFFFF;
    s.bth.destqp = 0x500;
    s.bth.ackreq = 1;
    s.bth.psn = 3;
    s.feth.sel = 1;
    s.feth.plt = 2;
    s.reth.va = 0x3000;
    s.reth.rkey = 0x55;
    s.reth.dmalen = 0x40;
    expect_build(&s, v2ip4_flush, sizeof v2ip4_flush, "v11");
}

int main(void)
{
    test_v2ip4_send_only();
    test_v2ip6_vlan_write();
    test_v1_ack();
    test_ib_local_ud();
    test_ib_global_read();
    test_roce_ext_headers();
    test_opcode_table();
    test_framing();
    test_build_vectors();
    return tu_done("packet_vectors");
}
