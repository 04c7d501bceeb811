/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gen_violations_a17.c - crafted scenarios for the RoCEv2 header rules of
 * annex A17 (PKT-IP-HDR, PKT-ETH-SRC, PKT-FECN-BECN, FLOW-UDP-SPORT,
 * FLOW-DSCP, FLOW-TTL, FLOW-ECN) and a clean one that uses ECN as a
 * congestion-managed sender does.  As in gen_violations.c, the expected
 * verdicts are written by hand from each scenario's design (which frame
 * breaks which rule), not by running the checker.
 *
 * Host A (10.0.0.1, QPN 0x000011) sends requests to host B (10.0.0.2,
 * QPN 0x000022), which answers; frames 1-2 are a SEND ONLY and its ACK, so
 * the flow and both directions' header fields are known before the fault.
 */
#include <string.h>

#include "gen.h"

enum { A = 0, B = 1 };
#define QPN_A 0x000011u
#define QPN_B 0x000022u
#define V2 IBW_TK_ROCE_V2_IP4
#define SYN_ACK ibw_aeth_syndrome(IBW_AETH_ACK, IBW_AETH_CREDIT_INVALID)

static const uint8_t *pattern(void)
{
    static uint8_t buf[256];
    if (!buf[1])
        for (unsigned i = 0; i < sizeof buf; i++)
            buf[i] = (uint8_t)(i * 7 + 1);
    return buf;
}

/* An RC packet from `from` to the other side's QP, over RoCEv2 (IPv4, or
 * IPv6 with v6), with the header fields every packet of the scenario
 * shares unless it bends one. */
static void pkt(struct ibw_build_spec *s, int from, uint8_t op, uint32_t psn,
                int v6)
{
    static const uint8_t mac[2][6] = {{0x02, 0, 0, 0, 0, 0x01},
                                      {0x02, 0, 0, 0, 0, 0x02}};
    int to = !from;
    memset(s, 0, sizeof *s);
    s->transport = v6 ? IBW_TK_ROCE_V2_IP6 : V2;
    memcpy(s->smac, mac[from], 6);
    memcpy(s->dmac, mac[to], 6);
    if (v6) {
        s->ip_src[0] = s->ip_dst[0] = 0xFD;
        s->ip_src[15] = (uint8_t)(from + 1);
        s->ip_dst[15] = (uint8_t)(to + 1);
    } else {
        s->ip_src[0] = s->ip_dst[0] = 10;
        s->ip_src[3] = (uint8_t)(from + 1);
        s->ip_dst[3] = (uint8_t)(to + 1);
    }
    s->ttl = 64;
    s->ip_df = 1;
    s->tos = 26 << 2; /* DSCP 26, ECN 00 */
    s->udp_sport = (uint16_t)(0xC000 + from);
    s->bth.pkey = 0xFFFF;
    s->bth.opcode = op;
    s->bth.destqp = from == A ? QPN_B : QPN_A;
    s->bth.psn = psn & 0xFFFFFFu;
    if (op == IBW_OP_RC_ACKNOWLEDGE) {
        s->aeth.syndrome = SYN_ACK;
        s->aeth.msn = psn + 1; /* one SEND per PSN from 0 */
    } else {
        s->payload = pattern();
        s->payload_len = 64;
        s->bth.ackreq = 1;
    }
}

/* Frames 1-2: SEND ONLY PSN 0 and its ACK. */
static void prologue(struct gen_out *o, int v6)
{
    struct ibw_build_spec s;
    pkt(&s, A, IBW_OP_RC_SEND_ONLY, 0, v6);
    gen_put(o, &s);
    pkt(&s, B, IBW_OP_RC_ACKNOWLEDGE, 0, v6);
    gen_put(o, &s);
}

/* Frame bytes of spec s into f (cap bytes); their length. */
static size_t bytes(const struct ibw_build_spec *s, uint8_t *f, size_t cap)
{
    size_t len = 0;
    ibw_build(s, f, cap, &len);
    return len;
}

/* The IPv4 header checksum of frame f made right again. */
static void ip4_csum(uint8_t *f)
{
    uint8_t *ip = f + 14;
    ibw_ipv4_set_checksum(ip, 0);
    ibw_ipv4_set_checksum(ip, ibw_ipv4_checksum(ip, ibw_ipv4_hdr_len(ip)));
}

static void ip_hdr(struct gen_out *o)
{
    struct ibw_build_spec s;
    static uint8_t f[512];
    prologue(o, 0);
    /* 3: DF clear (the builder keeps the ICRC consistent) */
    pkt(&s, A, IBW_OP_RC_SEND_ONLY, 1, 0);
    s.ip_df = 0;
    gen_put(o, &s);
    /* 4: IHL 6, four NOP option bytes; lengths, checksum and ICRC made
     * consistent, so only the IHL is wrong */
    pkt(&s, A, IBW_OP_RC_SEND_ONLY, 2, 0);
    size_t len = bytes(&s, f, sizeof f);
    memmove(f + 14 + 24, f + 14 + 20, len - 34);
    memset(f + 14 + 20, 1, 4);
    len += 4;
    f[14] = 0x46;
    ibw_store_be16(f + 14 + 2, (uint16_t)(len - 14));
    ip4_csum(f);
    struct ibw_pkt p;
    ibw_parse(f, len, IBW_LINK_ETHERNET, &p);
    ibw_store_le32(f + len - 4, p.icrc_calc);
    gen_put_raw(o, f, len);
    /* 5: protocol 6 (TCP) over the UDP header to 4791 */
    pkt(&s, A, IBW_OP_RC_SEND_ONLY, 3, 0);
    len = bytes(&s, f, sizeof f);
    f[14 + 9] = 6;
    ip4_csum(f);
    gen_put_raw(o, f, len);
    /* 6-8: over IPv6: a SEND and its ACK, then next header 6 */
    prologue(o, 1);
    pkt(&s, A, IBW_OP_RC_SEND_ONLY, 1, 1);
    len = bytes(&s, f, sizeof f);
    f[14 + 6] = 6;
    gen_put_raw(o, f, len);
    /* 9: IPv4 flags 110, the reserved bit set; checksum and ICRC kept
     * consistent */
    pkt(&s, A, IBW_OP_RC_SEND_ONLY, 4, 0);
    len = bytes(&s, f, sizeof f);
    f[14 + 6] |= 0x80;
    ip4_csum(f);
    ibw_parse(f, len, IBW_LINK_ETHERNET, &p);
    ibw_store_le32(f + len - 4, p.icrc_calc);
    gen_put_raw(o, f, len);
}

static void eth_src(struct gen_out *o)
{
    static const uint8_t bad[3][6] = {{0x01, 0x00, 0x5E, 0x00, 0x00, 0x01},
                                      {0, 0, 0, 0, 0, 0},
                                      {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}};
    struct ibw_build_spec s;
    prologue(o, 0);
    for (unsigned i = 0; i < 3; i++) { /* 3 multicast, 4 zero, 5 broadcast */
        pkt(&s, A, IBW_OP_RC_SEND_ONLY, 1 + i, 0);
        memcpy(s.smac, bad[i], 6);
        gen_put(o, &s);
    }
}

static void fecn_becn(struct gen_out *o)
{
    struct ibw_build_spec s;
    prologue(o, 0);
    pkt(&s, A, IBW_OP_RC_SEND_ONLY, 1, 0); /* 3: FECN */
    s.bth.fecn = 1;
    gen_put(o, &s);
    pkt(&s, B, IBW_OP_RC_ACKNOWLEDGE, 1, 0); /* 4: BECN */
    s.bth.becn = 1;
    gen_put(o, &s);
}

/* Frames 3-6: two SENDs (PSN 1, 2) with one header field bent, each with
 * its ACK: the rule is said once for the direction, at frame 3. */
static void bend(struct gen_out *o, void (*fn)(struct ibw_build_spec *))
{
    struct ibw_build_spec s;
    prologue(o, 0);
    for (uint32_t psn = 1; psn <= 2; psn++) {
        pkt(&s, A, IBW_OP_RC_SEND_ONLY, psn, 0);
        fn(&s);
        gen_put(o, &s);
        pkt(&s, B, IBW_OP_RC_ACKNOWLEDGE, psn, 0);
        gen_put(o, &s);
    }
}

static void sport_fn(struct ibw_build_spec *s) { s->udp_sport = 0xD123; }
static void dscp_fn(struct ibw_build_spec *s) { s->tos = 0; }
static void ttl_fn(struct ibw_build_spec *s) { s->ttl = 63; }
static void ecn_fn(struct ibw_build_spec *s) { s->tos |= 2; } /* ECT(0) */

static void bad_sport(struct gen_out *o) { bend(o, sport_fn); }
static void bad_dscp(struct gen_out *o) { bend(o, dscp_fn); }
static void bad_ttl(struct gen_out *o) { bend(o, ttl_fn); }
static void bad_ecn(struct gen_out *o) { bend(o, ecn_fn); }

/* A congestion-managed sender: ECT(0) on every request, one marked CE by
 * the network; the responses with their own DSCP and TTL (each side has
 * its address vector); then a READ whose response carries data ECT(0)
 * while the responder's ACKs stay Not-ECT (as TCP's pure ACKs). */
static void a17_clean(struct gen_out *o)
{
    struct ibw_build_spec s;
    for (uint32_t psn = 0; psn < 4; psn++) {
        pkt(&s, A, IBW_OP_RC_SEND_ONLY, psn, 0);
        s.tos = (uint8_t)(26 << 2 | (psn == 2 ? 3 : 2));
        gen_put(o, &s);
        pkt(&s, B, IBW_OP_RC_ACKNOWLEDGE, psn, 0);
        s.tos = 46 << 2;
        s.ttl = 255;
        gen_put(o, &s);
    }
    pkt(&s, A, IBW_OP_RC_RDMA_READ_REQUEST, 4, 0); /* 9 */
    s.tos = 26 << 2 | 2;
    s.payload = NULL;
    s.payload_len = 0;
    s.reth.va = 0x10000;
    s.reth.rkey = 0x1234;
    s.reth.dmalen = 64;
    gen_put(o, &s);
    pkt(&s, B, IBW_OP_RC_RDMA_READ_RESPONSE_ONLY, 4, 0); /* 10 */
    s.tos = 46 << 2 | 2;
    s.ttl = 255;
    s.bth.ackreq = 0;
    s.aeth.syndrome = SYN_ACK;
    s.aeth.msn = 5;
    gen_put(o, &s);
}

#define SC(n, s, fn, e) {n, s, CAP_LINKTYPE_ETHERNET, fn, e}

static const struct gen_scenario scenarios[] = {
    SC("crafted-a17-clean", "RoCEv2 ECN as a congestion-managed sender uses "
       "it, each side with its own DSCP and TTL", a17_clean, "exit 0\n"),
    SC("bad-pkt-ip-hdr", "IPv4 DF clear, IHL 6, protocol 6; IPv6 next "
       "header 6; IPv4 reserved flag set", ip_hdr,
       "finding 3 PKT-IP-HDR\nfinding 4 PKT-IP-HDR\nfinding 5 PKT-IP-HDR\n"
       "finding 8 PKT-IP-HDR\nfinding 9 PKT-IP-HDR\nexit 1\n"),
    SC("bad-pkt-eth-src", "Ethernet source multicast, zero, broadcast",
       eth_src,
       "finding 3 PKT-ETH-SRC\nfinding 4 PKT-ETH-SRC\nfinding 5 PKT-ETH-SRC\n"
       "exit 1\n"),
    SC("bad-pkt-fecn-becn", "BTH FECN on a request, BECN on its ACK",
       fecn_becn,
       "finding 3 PKT-FECN-BECN\nfinding 4 PKT-FECN-BECN\nexit 1\n"),
    SC("bad-a17-udp-sport", "requests from another UDP source port",
       bad_sport, "finding 3 FLOW-UDP-SPORT\nexit 0\n"),
    SC("bad-a17-dscp", "requests with another DSCP", bad_dscp,
       "finding 3 FLOW-DSCP\nexit 1\n"),
    SC("bad-a17-ttl", "requests with another TTL", bad_ttl,
       "finding 3 FLOW-TTL\nexit 0\n"),
    SC("bad-a17-ecn", "ECN-capable requests after a Not-ECT one",
       bad_ecn, "finding 3 FLOW-ECN\nexit 1\n"),
};

const struct gen_family gen_a17_family = {
    "a17", scenarios, sizeof scenarios / sizeof scenarios[0]};
