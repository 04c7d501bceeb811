/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Builder round trip: for every defined opcode on every carriage, build a
 * frame from pseudo-random field values, parse it back, and require every
 * header field, the payload and the derived lengths to come back as put in,
 * with good ICRC/VCRC; a flipped payload or PSN bit must make the ICRC bad.
 * The byte-exact checks of ibw_build() against hand-written frames and real
 * captures are in test_packet_vectors.c and test_packet_captures.c.
 */
#include "ibwire/packet.h"
#include "testutil.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t rnd(void)
{
    /* xorshift64*: deterministic, so a failure reproduces */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1Dull;
}

static void rnd_bytes(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)rnd();
}

/* Fill every field of a wire header struct with random values that fit,
 * through its descriptor: encode random bytes, decode them back. */
#define RANDOM_HDR(pfx, dst)                                                  \
    do {                                                                      \
        uint8_t raw_[pfx##_SIZE];                                             \
        rnd_bytes(raw_, sizeof raw_);                                         \
        pfx##_decode(raw_, sizeof raw_, (dst));                               \
    } while (0)

static const unsigned carriages[] = {IBW_TK_ROCE_V2_IP4, IBW_TK_ROCE_V2_IP6,
                                     IBW_TK_ROCE_V1, IBW_TK_IB_LOCAL,
                                     IBW_TK_IB_GLOBAL};

/* A header in the view decodes to the struct the spec held. */
#define SAME_HDR(pkt, H, pfx, want)                                           \
    do {                                                                      \
        struct pfx got_;                                                      \
        memset(&got_, 0, sizeof got_);                                        \
        TU_CHECK(ibw_pkt_has((pkt), IBW_HDR_##H));                            \
        if (ibw_pkt_has((pkt), IBW_HDR_##H)) {                                \
            TU_EQ(pfx##_decode(ibw_pkt_hdr((pkt), IBW_HDR_##H), pfx##_SIZE,  \
                               &got_), IBW_OK);                               \
            TU_MEMEQ(&got_, (want), sizeof got_);                             \
        }                                                                     \
    } while (0)

static void random_spec(struct ibw_build_spec *s, unsigned tk, uint8_t op,
                        uint8_t *payload)
{
    const struct ibw_opcode_info *info = ibw_opcode_info(op);
    memset(s, 0, sizeof *s);
    s->transport = (uint8_t)tk;
    rnd_bytes(s->dmac, 6);
    rnd_bytes(s->smac, 6);
    s->nvlan = (uint8_t)(rnd() % 3);
    for (unsigned i = 0; i < s->nvlan; i++) {
        s->vlan[i].tpid = (i == 0 && s->nvlan == 2) ? 0x88A8 : 0x8100;
        s->vlan[i].pcp = (uint8_t)(rnd() & 7);
        s->vlan[i].dei = (uint8_t)(rnd() & 1);
        s->vlan[i].vid = (uint16_t)(rnd() & 0xFFF);
    }
    rnd_bytes(s->ip_src, 16);
    rnd_bytes(s->ip_dst, 16);
    s->tos = (uint8_t)rnd();
    s->ttl = (uint8_t)rnd();
    s->flowlabel = (uint32_t)(rnd() & 0xFFFFF);
    s->ip_id = (uint16_t)rnd();
    s->ip_df = (uint8_t)(rnd() & 1);
    s->udp_sport = (uint16_t)rnd();
    RANDOM_HDR(ibw_lrh, &s->lrh);
    s->lrh.lver = 0;
    RANDOM_HDR(ibw_grh, &s->grh);
    RANDOM_HDR(ibw_bth, &s->bth);
    s->bth.opcode = op;
    s->bth.tver = 0;
    RANDOM_HDR(ibw_rdeth, &s->rdeth);
    RANDOM_HDR(ibw_deth, &s->deth);
    RANDOM_HDR(ibw_xrceth, &s->xrceth);
    RANDOM_HDR(ibw_reth, &s->reth);
    RANDOM_HDR(ibw_feth, &s->feth);
    RANDOM_HDR(ibw_atomiceth, &s->atomiceth);
    RANDOM_HDR(ibw_aeth, &s->aeth);
    RANDOM_HDR(ibw_atomicacketh, &s->atomicacketh);
    RANDOM_HDR(ibw_immdt, &s->immdt);
    RANDOM_HDR(ibw_ieth, &s->ieth);
    if (info->kind == IBW_OPK_ATOMIC_WRITE)
        s->payload_len = IBW_ATOMIC_WRITE_PAYLOAD;
    else if (info->flags & IBW_OPF_PAYLOAD)
        s->payload_len = (size_t)(rnd() % 41);
    rnd_bytes(payload, s->payload_len);
    s->payload = payload;
}

static void round_trip(unsigned tk, uint8_t op)
{
    const struct ibw_opcode_info *info = ibw_opcode_info(op);
    uint8_t payload[64];
    struct ibw_build_spec s;
    random_spec(&s, tk, op, payload);

    uint8_t frame[512];
    size_t n = 0;
    TU_EQ(ibw_build(&s, frame, sizeof frame, &n), IBW_OK);
    int ib = tk == IBW_TK_IB_LOCAL || tk == IBW_TK_IB_GLOBAL;
    struct ibw_pkt p;
    int err = ibw_parse(frame, n, ib ? IBW_LINK_IB : IBW_LINK_ETHERNET, &p);
    TU_EQ(err, IBW_OK);
    if (err != IBW_OK) {
        fprintf(stderr, "  op 0x%02x tk %u: %s.%s\n", op, tk, p.err_hdr,
                p.err_field ? p.err_field : "-");
        return;
    }
    TU_EQ(p.transport, tk);
    TU_EQ(p.opcode, op);
    TU_EQ(p.icrc_status, IBW_CRC_GOOD);
    TU_EQ(p.vcrc_status, ib ? IBW_CRC_GOOD : IBW_CRC_ABSENT);
    TU_EQ(p.trailer_len, 0);
    TU_EQ(p.iba_end, n);
    TU_EQ(p.payload_len, s.payload_len);
    TU_MEMEQ(ibw_pkt_payload(&p), payload, s.payload_len);
    size_t pad = (4 - (s.payload_len & 3)) & 3;
    TU_EQ(p.pad, pad);
    for (size_t i = 0; i < pad; i++)
        TU_EQ(frame[p.payload_off + s.payload_len + i], 0);

    /* Exactly the opcode's headers, plus the carriage's. */
    uint32_t carriage;
    switch (tk) {
    case IBW_TK_ROCE_V2_IP4:
        carriage = (1u << IBW_HDR_ETH) | (1u << IBW_HDR_IPV4) |
                   (1u << IBW_HDR_UDP);
        break;
    case IBW_TK_ROCE_V2_IP6:
        carriage = (1u << IBW_HDR_ETH) | (1u << IBW_HDR_IPV6) |
                   (1u << IBW_HDR_UDP);
        break;
    case IBW_TK_ROCE_V1:
        carriage = (1u << IBW_HDR_ETH) | (1u << IBW_HDR_GRH);
        break;
    case IBW_TK_IB_LOCAL:
        carriage = 1u << IBW_HDR_LRH;
        break;
    default:
        carriage = (1u << IBW_HDR_LRH) | (1u << IBW_HDR_GRH);
        break;
    }
    if (!ib && s.nvlan >= 1)
        carriage |= 1u << IBW_HDR_VLAN;
    if (!ib && s.nvlan == 2)
        carriage |= 1u << IBW_HDR_VLAN2;
    TU_EQ(p.present, carriage | (1u << IBW_HDR_BTH) | info->hdrs);

    /* Field by field: the BTH with its derived PadCnt, every extended
     * header as given. */
    struct ibw_bth bth = s.bth;
    bth.padcnt = (uint8_t)pad;
    SAME_HDR(&p, BTH, ibw_bth, &bth);
#define EXT(H, pfx, m) \
    if (info->hdrs & (1u << IBW_HDR_##H)) SAME_HDR(&p, H, pfx, &s.m);
    EXT(RDETH, ibw_rdeth, rdeth)
    EXT(DETH, ibw_deth, deth)
    EXT(XRCETH, ibw_xrceth, xrceth)
    EXT(RETH, ibw_reth, reth)
    EXT(FETH, ibw_feth, feth)
    EXT(ATOMICETH, ibw_atomiceth, atomiceth)
    EXT(AETH, ibw_aeth, aeth)
    EXT(ATOMICACKETH, ibw_atomicacketh, atomicacketh)
    EXT(IMMDT, ibw_immdt, immdt)
    EXT(IETH, ibw_ieth, ieth)
#undef EXT
    size_t transport_len = 12 + info->hdr_bytes + s.payload_len + pad + 4;
    if (ib) {
        struct ibw_lrh lrh = s.lrh;
        lrh.lnh = tk == IBW_TK_IB_LOCAL ? 2 : 3;
        lrh.pktlen = (uint16_t)((8u + (tk == IBW_TK_IB_GLOBAL ? 40u : 0u) +
                                 transport_len) / 4);
        SAME_HDR(&p, LRH, ibw_lrh, &lrh);
        TU_EQ(n, (size_t)lrh.pktlen * 4 + 2);
    }
    if (tk == IBW_TK_IB_GLOBAL || tk == IBW_TK_ROCE_V1) {
        struct ibw_grh grh = s.grh;
        grh.ipver = 6;
        grh.nxthdr = 0x1B;
        grh.paylen = (uint16_t)transport_len;
        SAME_HDR(&p, GRH, ibw_grh, &grh);
    }
    if (!ib) {
        struct ibw_eth eth;
        memcpy(eth.dmac, s.dmac, 6);
        memcpy(eth.smac, s.smac, 6);
        eth.ethertype = s.nvlan ? s.vlan[0].tpid : 0;
        struct ibw_eth got;
        ibw_eth_decode(frame, 14, &got);
        TU_MEMEQ(got.dmac, eth.dmac, 6);
        TU_MEMEQ(got.smac, eth.smac, 6);
        for (unsigned i = 0; i < s.nvlan; i++) {
            const uint8_t *t = ibw_pkt_hdr(&p, i ? IBW_HDR_VLAN2 : IBW_HDR_VLAN);
            TU_EQ(ibw_vlan_get_pcp(t), s.vlan[i].pcp);
            TU_EQ(ibw_vlan_get_dei(t), s.vlan[i].dei);
            TU_EQ(ibw_vlan_get_vid(t), s.vlan[i].vid);
        }
        if (s.nvlan)
            TU_EQ(ibw_eth_get_ethertype(frame), s.vlan[0].tpid);
    }
    if (tk == IBW_TK_ROCE_V2_IP4) {
        const uint8_t *ip = ibw_pkt_hdr(&p, IBW_HDR_IPV4);
        TU_EQ(ip[1], s.tos);
        TU_EQ(ibw_ipv4_get_ttl(ip), s.ttl);
        TU_EQ(ibw_ipv4_get_id(ip), s.ip_id);
        TU_EQ(ibw_ipv4_get_df(ip), s.ip_df);
        TU_MEMEQ(ibw_ipv4_get_saddr(ip), s.ip_src, 4);
        TU_MEMEQ(ibw_ipv4_get_daddr(ip), s.ip_dst, 4);
        TU_EQ(ibw_ipv4_get_total_length(ip), 28 + transport_len);
        TU_EQ(p.ip_csum_status, IBW_CRC_GOOD);
    }
    if (tk == IBW_TK_ROCE_V2_IP6) {
        const uint8_t *ip = ibw_pkt_hdr(&p, IBW_HDR_IPV6);
        TU_EQ(ibw_ipv6_get_tclass(ip), s.tos);
        TU_EQ(ibw_ipv6_get_flowlabel(ip), s.flowlabel);
        TU_EQ(ibw_ipv6_get_hoplimit(ip), s.ttl);
        TU_MEMEQ(ibw_ipv6_get_saddr(ip), s.ip_src, 16);
        TU_MEMEQ(ibw_ipv6_get_daddr(ip), s.ip_dst, 16);
        TU_EQ(ibw_ipv6_get_paylen(ip), 8 + transport_len);
    }
    if (tk == IBW_TK_ROCE_V2_IP4 || tk == IBW_TK_ROCE_V2_IP6) {
        const uint8_t *u = ibw_pkt_hdr(&p, IBW_HDR_UDP);
        TU_EQ(ibw_udp_get_sport(u), s.udp_sport);
        TU_EQ(ibw_udp_get_dport(u), 4791);
        TU_EQ(ibw_udp_get_length(u), 8 + transport_len);
        TU_EQ(ibw_udp_get_checksum(u), 0);
    }

    /* A flipped PSN bit, or payload bit, makes the ICRC bad. */
    uint8_t m[512];
    memcpy(m, frame, n);
    m[p.off[IBW_HDR_BTH] + 11] ^= 0x01;
    TU_EQ(ibw_parse(m, n, ib ? IBW_LINK_IB : IBW_LINK_ETHERNET, &p), IBW_OK);
    TU_EQ(p.icrc_status, IBW_CRC_BAD);
    if (ib)
        TU_EQ(p.vcrc_status, IBW_CRC_BAD);
    /* ... and ibw_pkt_store_crcs() repairs it */
    TU_EQ(ibw_pkt_store_crcs(m, &p), IBW_OK);
    TU_EQ(ibw_parse(m, n, ib ? IBW_LINK_IB : IBW_LINK_ETHERNET, &p), IBW_OK);
    TU_EQ(p.icrc_status, IBW_CRC_GOOD);
    if (ib)
        TU_EQ(p.vcrc_status, IBW_CRC_GOOD);
    if (s.payload_len) {
        m[p.payload_off + s.payload_len - 1] ^= 0x80;
        TU_EQ(ibw_parse(m, n, ib ? IBW_LINK_IB : IBW_LINK_ETHERNET, &p),
              IBW_OK);
        TU_EQ(p.icrc_status, IBW_CRC_BAD);
    }

    /* The spec taken back from the view rebuilds the same bytes. */
    ibw_parse(frame, n, ib ? IBW_LINK_IB : IBW_LINK_ETHERNET, &p);
    struct ibw_build_spec back;
    uint8_t again[512];
    size_t n2 = 0;
    TU_EQ(ibw_build_spec_from_pkt(&p, &back), IBW_OK);
    TU_EQ(ibw_build(&back, again, sizeof again, &n2), IBW_OK);
    TU_EQ(n2, n);
    TU_MEMEQ(again, frame, n);
}

static void test_build_options(void)
{
    struct ibw_build_spec s;
    uint8_t out[128];
    size_t n = 0;
    struct ibw_pkt p;

    /* An empty RC SEND ONLY over RoCEv2/IPv4 is 14 + 20 + 8 + 12 + 4 = 58
     * bytes: ETH_PAD adds 2 zero bytes that the parser reports as trailer;
     * an ACK (62 bytes) is left alone. */
    memset(&s, 0, sizeof s);
    s.transport = IBW_TK_ROCE_V2_IP4;
    s.flags = IBW_BUILD_ETH_PAD;
    s.bth.opcode = 0x04;
    memset(out, 0xEE, sizeof out);
    TU_EQ(ibw_build(&s, out, sizeof out, &n), IBW_OK);
    TU_EQ(n, 60);
    TU_EQ(out[58], 0);
    TU_EQ(out[59], 0);
    TU_EQ(ibw_parse(out, n, IBW_LINK_ETHERNET, &p), IBW_OK);
    TU_EQ(p.trailer_len, 2);
    TU_EQ(p.iba_end, 58);
    TU_EQ(p.icrc_status, IBW_CRC_GOOD);
    s.bth.opcode = 0x11;
    TU_EQ(ibw_build(&s, out, sizeof out, &n), IBW_OK);
    TU_EQ(n, 62);
    TU_EQ(ibw_parse(out, n, IBW_LINK_ETHERNET, &p), IBW_OK);
    TU_EQ(p.trailer_len, 0);

    /* BAD_ICRC / BAD_VCRC produce exactly the flipped value. */
    s.flags = IBW_BUILD_BAD_ICRC;
    TU_EQ(ibw_build(&s, out, sizeof out, &n), IBW_OK);
    TU_EQ(ibw_parse(out, n, IBW_LINK_ETHERNET, &p), IBW_OK);
    TU_EQ(p.icrc_status, IBW_CRC_BAD);
    TU_EQ(p.icrc_wire, ~p.icrc_calc & 0xFFFFFFFFu);
    s.transport = IBW_TK_IB_LOCAL;
    s.flags = IBW_BUILD_BAD_VCRC;
    TU_EQ(ibw_build(&s, out, sizeof out, &n), IBW_OK);
    TU_EQ(ibw_parse(out, n, IBW_LINK_IB, &p), IBW_OK);
    TU_EQ(p.icrc_status, IBW_CRC_GOOD);
    TU_EQ(p.vcrc_status, IBW_CRC_BAD);

    /* KEEP_PADCNT: a send with 4 payload bytes and PadCnt 2 as asked. */
    memset(&s, 0, sizeof s);
    s.transport = IBW_TK_ROCE_V2_IP6;
    s.flags = IBW_BUILD_KEEP_PADCNT;
    s.bth.opcode = 0x04;
    s.bth.padcnt = 2;
    s.payload = (const uint8_t *)"abcd";
    s.payload_len = 4;
    TU_EQ(ibw_build(&s, out, sizeof out, &n), IBW_OK);
    TU_EQ(ibw_parse(out, n, IBW_LINK_ETHERNET, &p), IBW_OK);
    TU_EQ(p.pad, 2);
    TU_EQ(p.payload_len, 4);
    TU_EQ(p.icrc_status, IBW_CRC_GOOD);

    /* Refusals. */
    memset(&s, 0, sizeof s);
    s.transport = IBW_TK_ROCE_V2_IP4;
    s.bth.opcode = 0x15; /* reserved */
    TU_EQ(ibw_build(&s, out, sizeof out, &n), IBW_E_OPCODE);
    s.flags = IBW_BUILD_ANY_OPCODE; /* but buildable on request */
    TU_EQ(ibw_build(&s, out, sizeof out, &n), IBW_OK);
    TU_EQ(ibw_parse(out, n, IBW_LINK_ETHERNET, &p), IBW_E_OPCODE);
    TU_EQ(p.icrc_status, IBW_CRC_GOOD);
    s.flags = 0;
    s.bth.opcode = 0x04;
    s.nvlan = 3;
    TU_EQ(ibw_build(&s, out, sizeof out, &n), IBW_E_RANGE);
    s.nvlan = 0;
    s.transport = IBW_TK_IB_RAW;
    TU_EQ(ibw_build(&s, out, sizeof out, &n), IBW_E_UNSUPPORTED);
    s.transport = IBW_TK_NONE;
    TU_EQ(ibw_build(&s, out, sizeof out, &n), IBW_E_UNSUPPORTED);
    /* LRH PktLen is 11 bits of words: 8188 bytes at most from LRH to ICRC */
    static uint8_t big[9000];
    static uint8_t bigout[9100];
    s.transport = IBW_TK_IB_LOCAL;
    s.payload = big;
    s.payload_len = 8188 - 8 - 12 - 4;
    TU_EQ(ibw_build(&s, bigout, sizeof bigout, &n), IBW_OK);
    TU_EQ(n, 8190);
    TU_EQ(ibw_parse(bigout, n, IBW_LINK_IB, &p), IBW_OK);
    TU_EQ(p.vcrc_status, IBW_CRC_GOOD);
    s.payload_len += 4;
    TU_EQ(ibw_build(&s, bigout, sizeof bigout, &n), IBW_E_RANGE);
    /* every capacity below the size: refused */
    s.payload_len = 20;
    size_t need = 8 + 12 + 20 + 4 + 2;
    for (size_t cap = 0; cap < need; cap++)
        TU_EQ(ibw_build(&s, out, cap, &n), IBW_E_NOSPACE);
    TU_EQ(ibw_build(&s, out, need, &n), IBW_OK);

    /* A kept pad count that leaves native IB short of whole words: LRH 8 +
     * BTH 12 + 27 payload + PadCnt 0 + ICRC 4 = 51 bytes, which the LRH's
     * PktLen (in words) cannot state.  On RoCE the lengths count bytes. */
    memset(&s, 0, sizeof s);
    s.transport = IBW_TK_IB_LOCAL;
    s.flags = IBW_BUILD_KEEP_PADCNT;
    s.bth.opcode = 0x04;
    s.payload = big;
    s.payload_len = 27;
    TU_EQ(ibw_build(&s, out, sizeof out, &n), IBW_E_MALFORMED);
    s.bth.padcnt = 1; /* 52 bytes */
    TU_EQ(ibw_build(&s, out, sizeof out, &n), IBW_OK);
    TU_EQ(n, 54);
    s.transport = IBW_TK_ROCE_V2_IP4;
    s.bth.padcnt = 0;
    TU_EQ(ibw_build(&s, out, sizeof out, &n), IBW_OK);
    TU_EQ(ibw_parse(out, n, IBW_LINK_ETHERNET, &p), IBW_OK);
    TU_EQ(p.icrc_off, 14 + 20 + 8 + 12 + 27);
    TU_EQ(p.icrc_status, IBW_CRC_GOOD);

    /* Fields are emitted as given even where the parser then reads the
     * frame otherwise: LRH LVer 1 (refused by the parser, at the LRH) and
     * UDP destination port 4792 (plain UDP to the parser). */
    s.transport = IBW_TK_IB_LOCAL;
    s.flags = 0;
    s.lrh.lver = 1;
    TU_EQ(ibw_build(&s, out, sizeof out, &n), IBW_OK);
    TU_EQ(ibw_parse(out, n, IBW_LINK_IB, &p), IBW_E_VERSION);
    TU_EQ(out[0] & 0x0F, 1); /* LVer: low nibble of byte 0 (VL is high) */
    s.lrh.lver = 0;
    s.transport = IBW_TK_ROCE_V2_IP4;
    s.udp_dport = 4792;
    TU_EQ(ibw_build(&s, out, sizeof out, &n), IBW_OK);
    TU_EQ(ibw_parse(out, n, IBW_LINK_ETHERNET, &p), IBW_OK);
    TU_EQ(ibw_pkt_has(&p, IBW_HDR_UDP), 1);
    TU_EQ(ibw_pkt_has(&p, IBW_HDR_BTH), 0);
    TU_EQ(ibw_load_be16(out + 14 + 20 + 2), 4792);
}

int main(void)
{
    for (unsigned c = 0; c < sizeof carriages / sizeof carriages[0]; c++)
        for (unsigned op = 0; op < 256; op++)
            if (ibw_opcode_valid((uint8_t)op))
                for (int rep = 0; rep < 4; rep++)
                    round_trip(carriages[c], (uint8_t)op);
    test_build_options();
    return tu_done("packet_build");
}
