/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ibw_parse() on bad input: every truncation of several frames (each cut
 * view agreeing with the whole frame's), length fields that lie, pad larger
 * than the payload, reserved opcodes, headers the opcode needs but the
 * length leaves no room for, wrong versions; then a deterministic
 * random-mutation loop.  Each frame is parsed from a heap
 * buffer of exactly its length, so the sanitizer build catches any read
 * past the end.  Every error must name a header (and, for length and
 * version errors, the field).
 */
#include "ibwire/packet.h"
#include "testutil.h"

#include <stdlib.h>

/* Parse a heap copy of exactly n bytes. */
static int parse_copy(const uint8_t *d, size_t n, enum ibw_link link,
                      struct ibw_pkt *p)
{
    uint8_t *c = malloc(n ? n : 1);
    if (!c)
        abort();
    if (n)
        memcpy(c, d, n);
    int err = ibw_parse(c, n, link, p);
    /* The view stays inside the input. */
    for (unsigned h = 0; h < IBW_HDR_COUNT; h++)
        if (ibw_pkt_has(p, (enum ibw_hdr)h)) {
            /* A header in `present` is wholly readable, even the one an
             * error concerns; IPv4 with its options once its version and
             * IHL are sane. */
            size_t sz = ibw_hdr_size(h);
            const uint8_t *ip = c + p->off[h];
            if (h == IBW_HDR_IPV4 && ibw_ipv4_get_version(ip) == 4 &&
                ibw_ipv4_hdr_len(ip) > sz)
                sz = ibw_ipv4_hdr_len(ip);
            TU_CHECK(p->off[h] + sz <= n);
        }
    if (err == IBW_OK && ibw_pkt_has(p, IBW_HDR_BTH)) {
        TU_CHECK((size_t)p->payload_off + p->payload_len + p->pad + 4 <= n);
        TU_CHECK(p->icrc_off + 4 <= n);
        TU_CHECK((size_t)p->iba_end + p->trailer_len == n);
    }
    if (ibw_pkt_has(p, IBW_HDR_BTH) || p->transport == IBW_TK_IB_RAW)
        TU_CHECK((size_t)p->payload_off + p->payload_len <= n);
    TU_CHECK(p->payload_len <= p->payload_wire_len || p->err != IBW_OK);
    TU_EQ(err, p->err);
    if (err != IBW_OK)
        TU_CHECK(p->err_hdr != NULL);
    /* TRUNCATED is always a cut, and a cut never parses clean */
    if (err == IBW_E_TRUNCATED)
        TU_EQ(p->cut, 1);
    if (p->cut) {
        TU_CHECK(err != IBW_OK);
        TU_CHECK(p->wire_len == 0 || p->wire_len > n);
        TU_EQ(p->iba_end, n);
        TU_EQ(p->trailer_len, 0);
        TU_CHECK(p->icrc_status != IBW_CRC_GOOD &&
                 p->icrc_status != IBW_CRC_BAD);
        TU_CHECK(p->vcrc_status != IBW_CRC_GOOD &&
                 p->vcrc_status != IBW_CRC_BAD);
        TU_CHECK(p->icrc_off == 0 || p->icrc_off + 4 <= n);
        TU_CHECK(p->cut_hdr == IBW_HDR_COUNT ||
                 !ibw_pkt_has(p, (enum ibw_hdr)p->cut_hdr));
    } else {
        TU_EQ(p->wire_len, p->iba_end);
        if (err == IBW_OK)
            TU_EQ(p->payload_wire_len, p->payload_len);
    }
    free(c);
    return err;
}

/* Expect error `want` naming hdr.field (field NULL: any field). */
static void expect_at(int line, const uint8_t *d, size_t n, enum ibw_link link,
                      int want, const char *hdr, const char *field)
{
    struct ibw_pkt p;
    int err = parse_copy(d, n, link, &p);
    int good = err == want && p.err_hdr && strcmp(p.err_hdr, hdr) == 0 &&
               (!field || (p.err_field && strcmp(p.err_field, field) == 0));
    TU_CHECK(good);
    if (!good)
        fprintf(stderr, "  line %d: got %s %s.%s, want %s %s.%s\n", line,
                ibw_strerror(err), p.err_hdr ? p.err_hdr : "-",
                p.err_field ? p.err_field : "-", ibw_strerror(want), hdr,
                field ? field : "*");
}
#define EXPECT(d, n, link, want, hdr, field) \
    expect_at(__LINE__, (d), (n), (link), (want), (hdr), (field))

static size_t build(unsigned tk, uint8_t op, size_t payload_len, unsigned nvlan,
                    uint8_t *out, size_t cap)
{
    static const uint8_t payload[64] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    struct ibw_build_spec s;
    memset(&s, 0, sizeof s);
    s.transport = (uint8_t)tk;
    s.nvlan = (uint8_t)nvlan;
    s.ttl = 64;
    s.bth.opcode = op;
    s.bth.pkey = 0xFFFF;
    s.bth.destqp = 0x12;
    s.payload = payload;
    s.payload_len = payload_len;
    size_t n = 0;
    TU_EQ(ibw_build(&s, out, cap, &n), IBW_OK);
    return n;
}

/* The view of the first `cut` bytes of a whole frame: each header of the
 * whole view that fits is there at the same offset, the first that does not
 * is cut_hdr and nothing after it is there; the wire lengths are the whole
 * frame's once its length field is captured. */
static void check_cut_view(const struct ibw_pkt *w, const struct ibw_pkt *p,
                           size_t cut)
{
    TU_EQ(p->cut, 1);
    unsigned first_out = IBW_HDR_COUNT; /* in wire order: by offset */
    size_t first_off = SIZE_MAX;
    for (unsigned h = 0; h < IBW_HDR_COUNT; h++) {
        if (!ibw_pkt_has(w, (enum ibw_hdr)h))
            continue;
        size_t end = w->off[h] + ibw_hdr_size(h);
        if (end > cut && w->off[h] < first_off) {
            first_off = w->off[h];
            first_out = h;
        }
    }
    for (unsigned h = 0; h < IBW_HDR_COUNT; h++) {
        int want = ibw_pkt_has(w, (enum ibw_hdr)h) && w->off[h] < first_off;
        TU_EQ(ibw_pkt_has(p, (enum ibw_hdr)h), want);
        if (want)
            TU_EQ(p->off[h], w->off[h]);
    }
    TU_EQ(p->cut_hdr, first_out);
    if (first_out < IBW_HDR_COUNT) /* where the cut header starts */
        TU_EQ(p->off[first_out], w->off[first_out]);
    /* the length field is readable once the header holding it is there */
    int len_known = ibw_pkt_has(p, IBW_HDR_IPV4) ||
                    ibw_pkt_has(p, IBW_HDR_IPV6) ||
                    ibw_pkt_has(p, IBW_HDR_LRH) ||
                    (ibw_pkt_has(p, IBW_HDR_GRH) && w->link != IBW_LINK_IB);
    TU_EQ(p->wire_len, len_known ? w->iba_end : 0);
    if (ibw_pkt_has(p, IBW_HDR_BTH)) {
        TU_EQ(p->opcode, w->opcode);
        TU_EQ(p->pad, w->pad);
        TU_EQ(p->payload_wire_len, w->payload_len);
        TU_EQ(p->icrc_status, IBW_CRC_UNCHECKED);
    }
    if (first_out == IBW_HDR_COUNT) {
        TU_EQ(p->payload_off, w->payload_off);
        size_t got = cut - w->payload_off;
        TU_EQ(p->payload_len, got < w->payload_len ? got : w->payload_len);
    } else {
        TU_EQ(p->payload_len, 0);
    }
    if (w->link == IBW_LINK_IB)
        TU_EQ(p->vcrc_status, IBW_CRC_UNCHECKED);
}

static void test_truncations(void)
{
    static const struct {
        unsigned tk;
        uint8_t op;
        size_t payload;
        unsigned nvlan;
    } frames[] = {
        {IBW_TK_ROCE_V2_IP4, 0x04, 9, 2},  /* SEND ONLY, QinQ */
        {IBW_TK_ROCE_V2_IP6, 0x0B, 5, 1},  /* WRITE ONLY WITH IMMEDIATE */
        {IBW_TK_ROCE_V1, 0x12, 0, 0},      /* ATOMIC ACKNOWLEDGE */
        {IBW_TK_IB_LOCAL, 0x65, 3, 0},     /* UD SEND ONLY WITH IMMEDIATE */
        {IBW_TK_IB_GLOBAL, 0x4B, 7, 0},    /* RD WRITE ONLY WITH IMMEDIATE */
        {IBW_TK_ROCE_V2_IP4, 0x81, 0, 0},  /* CNP */
    };
    uint8_t f[256];
    for (size_t i = 0; i < sizeof frames / sizeof frames[0]; i++) {
        size_t n = build(frames[i].tk, frames[i].op, frames[i].payload,
                         frames[i].nvlan, f, sizeof f);
        enum ibw_link link = (frames[i].tk == IBW_TK_IB_LOCAL ||
                              frames[i].tk == IBW_TK_IB_GLOBAL)
                                 ? IBW_LINK_IB
                                 : IBW_LINK_ETHERNET;
        struct ibw_pkt p;
        TU_EQ(parse_copy(f, n, link, &p), IBW_OK);
        TU_EQ(p.icrc_status, IBW_CRC_GOOD);
        struct ibw_pkt whole = p;
        /* Every shorter length ends before something a header or a length
         * field promised: IBW_E_TRUNCATED, always, and the view of the cut
         * frame is the whole frame's view restricted to what fits. */
        for (size_t cut = 0; cut < n; cut++) {
            int err = parse_copy(f, cut, link, &p);
            TU_EQ(err, IBW_E_TRUNCATED);
            if (err != IBW_E_TRUNCATED)
                fprintf(stderr, "  frame %zu cut %zu: %s %s.%s\n", i, cut,
                        ibw_strerror(err), p.err_hdr ? p.err_hdr : "-",
                        p.err_field ? p.err_field : "-");
            check_cut_view(&whole, &p, cut);
        }
    }
    /* what a cut names, on the QinQ RoCEv2 frame */
    size_t n = build(IBW_TK_ROCE_V2_IP4, 0x04, 9, 2, f, sizeof f);
    TU_CHECK(n > 60);
    EXPECT(f, 10, IBW_LINK_ETHERNET, IBW_E_TRUNCATED, "eth", NULL);
    EXPECT(f, 16, IBW_LINK_ETHERNET, IBW_E_TRUNCATED, "vlan", NULL);
    EXPECT(f, 20, IBW_LINK_ETHERNET, IBW_E_TRUNCATED, "vlan2", NULL);
    EXPECT(f, 30, IBW_LINK_ETHERNET, IBW_E_TRUNCATED, "ipv4", NULL);
    EXPECT(f, 50, IBW_LINK_ETHERNET, IBW_E_TRUNCATED, "ipv4",
           "total_length");
    EXPECT(f, 60, IBW_LINK_ETHERNET, IBW_E_TRUNCATED, "ipv4",
           "total_length"); /* in the BTH: the IP length still named */
    n = build(IBW_TK_IB_LOCAL, 0x04, 4, 0, f, sizeof f);
    EXPECT(f, 7, IBW_LINK_IB, IBW_E_TRUNCATED, "lrh", NULL);
    EXPECT(f, n - 1, IBW_LINK_IB, IBW_E_TRUNCATED, "lrh", "pktlen");
}

static void test_lying_lengths(void)
{
    uint8_t f[256], m[256];
    /* RoCEv2/IPv4 SEND ONLY, 8-byte payload: eth 0..13, IPv4 14..33, UDP
     * 34..41, BTH 42..53, payload 54..61, ICRC 62..65; IP total 52, UDP 32 */
    size_t n = build(IBW_TK_ROCE_V2_IP4, 0x04, 8, 0, f, sizeof f);
    TU_EQ(n, 66);
    memcpy(m, f, n);
    /* one more than there is: the frame is cut, but the UDP length (whole)
     * disagrees with the IP length, and that comes first */
    ibw_ipv4_set_total_length(m + 14, 53);
    EXPECT(m, n, IBW_LINK_ETHERNET, IBW_E_LENGTH, "udp", "length");
    ibw_udp_set_length(m + 34, 33); /* agreeing: just cut */
    EXPECT(m, n, IBW_LINK_ETHERNET, IBW_E_TRUNCATED, "ipv4", "total_length");
    memcpy(m, f, n);
    ibw_ipv4_set_total_length(m + 14, 19); /* less than the header */
    EXPECT(m, n, IBW_LINK_ETHERNET, IBW_E_LENGTH, "ipv4", "total_length");
    ibw_ipv4_set_total_length(m + 14, 24); /* no room for UDP */
    EXPECT(m, n, IBW_LINK_ETHERNET, IBW_E_LENGTH, "ipv4", "total_length");
    ibw_ipv4_set_total_length(m + 14, 48); /* UDP says 32, IP leaves 28 */
    EXPECT(m, n, IBW_LINK_ETHERNET, IBW_E_LENGTH, "udp", "length");
    memcpy(m, f, n);
    ibw_udp_set_length(m + 34, 36);
    EXPECT(m, n, IBW_LINK_ETHERNET, IBW_E_LENGTH, "udp", "length");
    ibw_udp_set_length(m + 34, 8 + 12 + 3); /* BTH + ICRC do not fit */
    ibw_ipv4_set_total_length(m + 14, 20 + 8 + 12 + 3);
    EXPECT(m, n, IBW_LINK_ETHERNET, IBW_E_LENGTH, "udp", "length");
    memcpy(m, f, n);
    ibw_ipv4_set_ihl(m + 14, 4);
    EXPECT(m, n, IBW_LINK_ETHERNET, IBW_E_LENGTH, "ipv4", "ihl");
    /* 60-byte header: 14 + 60 > 66, but the total length (52) says the IP
     * packet ends inside it: not cut, inconsistent */
    ibw_ipv4_set_ihl(m + 14, 15);
    EXPECT(m, n, IBW_LINK_ETHERNET, IBW_E_LENGTH, "ipv4", "total_length");
    ibw_ipv4_set_total_length(m + 14, 100); /* cut inside the options */
    EXPECT(m, n, IBW_LINK_ETHERNET, IBW_E_TRUNCATED, "ipv4", "ihl");
    memcpy(m, f, n);
    ibw_ipv4_set_version(m + 14, 5);
    EXPECT(m, n, IBW_LINK_ETHERNET, IBW_E_VERSION, "ipv4", "version");
    memcpy(m, f, n);
    ibw_bth_set_tver(m + 42, 1);
    EXPECT(m, n, IBW_LINK_ETHERNET, IBW_E_VERSION, "bth", "tver");

    /* RoCEv2/IPv6 */
    n = build(IBW_TK_ROCE_V2_IP6, 0x04, 8, 0, f, sizeof f);
    memcpy(m, f, n);
    ibw_ipv6_set_paylen(m + 14, (uint16_t)(ibw_ipv6_get_paylen(f + 14) + 1));
    EXPECT(m, n, IBW_LINK_ETHERNET, IBW_E_LENGTH, "udp", "length");
    ibw_udp_set_length(m + 54, (uint16_t)(ibw_udp_get_length(f + 54) + 1));
    EXPECT(m, n, IBW_LINK_ETHERNET, IBW_E_TRUNCATED, "ipv6", "paylen");
    ibw_ipv6_set_paylen(m + 14, 4);
    EXPECT(m, n, IBW_LINK_ETHERNET, IBW_E_LENGTH, "ipv6", "paylen");
    ibw_ipv6_set_paylen(m + 14, (uint16_t)(ibw_ipv6_get_paylen(f + 14) - 4));
    EXPECT(m, n, IBW_LINK_ETHERNET, IBW_E_LENGTH, "udp", "length");
    memcpy(m, f, n);
    ibw_ipv6_set_version(m + 14, 4);
    EXPECT(m, n, IBW_LINK_ETHERNET, IBW_E_VERSION, "ipv6", "version");

    /* RoCEv1 ACK: GRH 14..53 (PayLen 20), BTH 54..65, AETH 66..69 */
    n = build(IBW_TK_ROCE_V1, 0x11, 0, 0, f, sizeof f);
    TU_EQ(n, 74);
    memcpy(m, f, n);
    /* one more byte than there is: an ACK would carry a payload byte */
    ibw_grh_set_paylen(m + 14, 21);
    EXPECT(m, n, IBW_LINK_ETHERNET, IBW_E_LENGTH, "payload", "length");
    ibw_grh_set_paylen(m + 14, 24); /* same, and the PadCnt 0 ... */
    ibw_bth_set_padcnt(m + 54, 3); /* ... now 3: 1 stray byte remains */
    EXPECT(m, n, IBW_LINK_ETHERNET, IBW_E_LENGTH, "payload", "length");
    memcpy(m, f, n);
    m[54] = 0x10; /* RDMA READ RESPONSE ONLY: AETH + payload, and cut */
    ibw_grh_set_paylen(m + 14, 21);
    EXPECT(m, n, IBW_LINK_ETHERNET, IBW_E_TRUNCATED, "grh", "paylen");
    ibw_grh_set_paylen(m + 14, 16); /* BTH + ICRC: no room for the AETH */
    EXPECT(m, n, IBW_LINK_ETHERNET, IBW_E_LENGTH, "aeth", NULL);
    ibw_grh_set_paylen(m + 14, 8);
    EXPECT(m, n, IBW_LINK_ETHERNET, IBW_E_LENGTH, "grh", "paylen");
    memcpy(m, f, n);
    ibw_grh_set_nxthdr(m + 14, 17);
    EXPECT(m, n, IBW_LINK_ETHERNET, IBW_E_HDRSEQ, "grh", "nxthdr");
    ibw_grh_set_nxthdr(m + 14, 0x1B);
    ibw_grh_set_ipver(m + 14, 4);
    EXPECT(m, n, IBW_LINK_ETHERNET, IBW_E_VERSION, "grh", "ipver");

    /* native IB with GRH: LRH PktLen and GRH PayLen must agree */
    n = build(IBW_TK_IB_GLOBAL, 0x04, 8, 0, f, sizeof f);
    memcpy(m, f, n);
    ibw_grh_set_paylen(m + 8, (uint16_t)(ibw_grh_get_paylen(f + 8) + 4));
    EXPECT(m, n, IBW_LINK_IB, IBW_E_LENGTH, "grh", "paylen");
    memcpy(m, f, n);
    ibw_lrh_set_pktlen(m, (uint16_t)(ibw_lrh_get_pktlen(f) + 1));
    EXPECT(m, n, IBW_LINK_IB, IBW_E_LENGTH, "grh", "paylen");
    ibw_grh_set_paylen(m + 8, (uint16_t)(ibw_grh_get_paylen(f + 8) + 4));
    EXPECT(m, n, IBW_LINK_IB, IBW_E_TRUNCATED, "lrh", "pktlen");
    ibw_lrh_set_pktlen(m, 1);
    EXPECT(m, n, IBW_LINK_IB, IBW_E_LENGTH, "lrh", "pktlen");
    ibw_lrh_set_pktlen(m, 4); /* 16 bytes: LRH and half a GRH */
    EXPECT(m, n, IBW_LINK_IB, IBW_E_LENGTH, "lrh", "pktlen");
    memcpy(m, f, n);
    ibw_lrh_set_lver(m, 1);
    EXPECT(m, n, IBW_LINK_IB, IBW_E_VERSION, "lrh", "lver");

    /* native IB local: PktLen 6 = 24 bytes: LRH + BTH + ICRC = 24, fine
     * for an opcode without headers, too short for the UD DETH */
    n = build(IBW_TK_IB_LOCAL, 0x64, 0, 0, f, sizeof f);
    memcpy(m, f, n);
    ibw_lrh_set_pktlen(m, 6);
    EXPECT(m, n, IBW_LINK_IB, IBW_E_LENGTH, "deth", NULL);
    ibw_lrh_set_pktlen(m, 5);
    EXPECT(m, n, IBW_LINK_IB, IBW_E_LENGTH, "lrh", "pktlen");
}

static void test_pad_and_opcode(void)
{
    uint8_t f[256], m[256];
    struct ibw_pkt p;

    /* ACK: nothing after the AETH, PadCnt 1 -> pad larger than payload */
    size_t n = build(IBW_TK_ROCE_V2_IP4, 0x11, 0, 0, f, sizeof f);
    memcpy(m, f, n);
    ibw_bth_set_padcnt(m + 42, 1);
    EXPECT(m, n, IBW_LINK_ETHERNET, IBW_E_PAD, "bth", "padcnt");
    /* empty SEND ONLY, PadCnt 3 */
    n = build(IBW_TK_IB_LOCAL, 0x04, 0, 0, f, sizeof f);
    memcpy(m, f, n);
    ibw_bth_set_padcnt(m + 8, 3);
    EXPECT(m, n, IBW_LINK_IB, IBW_E_PAD, "bth", "padcnt");
    /* 2 payload bytes + 2 pad; PadCnt 3 still fits (payload 1) */
    n = build(IBW_TK_IB_LOCAL, 0x04, 2, 0, f, sizeof f);
    memcpy(m, f, n);
    ibw_bth_set_padcnt(m + 8, 3);
    TU_EQ(parse_copy(m, n, IBW_LINK_IB, &p), IBW_OK);
    TU_EQ(p.payload_len, 1);
    TU_EQ(p.pad, 3);

    /* every reserved opcode: IBW_E_OPCODE naming bth.opcode, BTH kept,
     * ICRC checked (and good once recomputed) */
    n = build(IBW_TK_ROCE_V2_IP4, 0x04, 8, 0, f, sizeof f);
    unsigned reserved = 0;
    for (unsigned op = 0; op < 256; op++) {
        if (ibw_opcode_valid((uint8_t)op))
            continue;
        reserved++;
        memcpy(m, f, n);
        m[42] = (uint8_t)op;
        EXPECT(m, n, IBW_LINK_ETHERNET, IBW_E_OPCODE, "bth", "opcode");
        TU_EQ(ibw_parse(m, n, IBW_LINK_ETHERNET, &p), IBW_E_OPCODE);
        TU_CHECK(ibw_pkt_has(&p, IBW_HDR_BTH));
        TU_EQ(p.opcode, op);
        TU_EQ(ibw_bth_get_destqp(ibw_pkt_hdr(&p, IBW_HDR_BTH)), 0x12);
        TU_EQ(p.icrc_status, IBW_CRC_BAD); /* the opcode is covered */
        TU_EQ(ibw_pkt_store_crcs(m, &p), IBW_OK);
        TU_EQ(ibw_parse(m, n, IBW_LINK_ETHERNET, &p), IBW_E_OPCODE);
        TU_EQ(p.icrc_status, IBW_CRC_GOOD);
    }
    TU_EQ(reserved, 256 - 86);

    /* an opcode that needs headers the bytes do not hold */
    n = build(IBW_TK_ROCE_V2_IP4, 0x04, 0, 0, f, sizeof f);
    memcpy(m, f, n);
    m[42] = 0x0A; /* RDMA WRITE ONLY needs a 16-byte RETH */
    EXPECT(m, n, IBW_LINK_ETHERNET, IBW_E_LENGTH, "reth", NULL);
    m[42] = 0x13; /* CmpSwap: AtomicETH */
    EXPECT(m, n, IBW_LINK_ETHERNET, IBW_E_LENGTH, "atomiceth", NULL);
    m[42] = 0x81; /* CNP: 16 reserved bytes */
    EXPECT(m, n, IBW_LINK_ETHERNET, IBW_E_LENGTH, "cnp", NULL);
    /* bytes after an opcode that takes no payload */
    n = build(IBW_TK_ROCE_V2_IP4, 0x04, 4, 0, f, sizeof f);
    memcpy(m, f, n);
    m[42] = 0x11; /* ACK: the 4 bytes are exactly its AETH */
    TU_EQ(parse_copy(m, n, IBW_LINK_ETHERNET, &p), IBW_OK);
    TU_EQ(p.payload_len, 0);
    n = build(IBW_TK_ROCE_V2_IP4, 0x04, 8, 0, f, sizeof f);
    memcpy(m, f, n);
    m[42] = 0x11; /* 8 bytes: AETH + 4 stray bytes */
    EXPECT(m, n, IBW_LINK_ETHERNET, IBW_E_LENGTH, "payload", "length");
    m[42] = 0x0C; /* READ REQUEST: RETH needs 16, only 8 */
    EXPECT(m, n, IBW_LINK_ETHERNET, IBW_E_LENGTH, "reth", NULL);
    /* ATOMIC WRITE: RETH + exactly 8 bytes */
    n = build(IBW_TK_ROCE_V2_IP4, 0x0A, 4, 0, f, sizeof f);
    memcpy(m, f, n);
    m[42] = 0x1D;
    EXPECT(m, n, IBW_LINK_ETHERNET, IBW_E_LENGTH, "payload", "length");
    n = build(IBW_TK_ROCE_V2_IP4, 0x0A, 8, 0, f, sizeof f);
    memcpy(m, f, n);
    m[42] = 0x1D;
    TU_EQ(parse_copy(m, n, IBW_LINK_ETHERNET, &p), IBW_OK);
    TU_EQ(p.payload_len, 8);
}

static void test_not_iba(void)
{
    uint8_t f[256], m[256];
    struct ibw_pkt p;
    size_t n = build(IBW_TK_ROCE_V2_IP4, 0x04, 8, 0, f, sizeof f);

    memcpy(m, f, n);
    ibw_eth_set_ethertype(m, 0x0806); /* ARP */
    TU_EQ(parse_copy(m, n, IBW_LINK_ETHERNET, &p), IBW_OK);
    TU_EQ(p.transport, IBW_TK_NONE);
    TU_EQ(p.present, 1u << IBW_HDR_ETH);
    memcpy(m, f, n);
    ibw_ipv4_set_protocol(m + 14, 6); /* TCP */
    TU_EQ(parse_copy(m, n, IBW_LINK_ETHERNET, &p), IBW_OK);
    TU_EQ(p.transport, IBW_TK_NONE);
    memcpy(m, f, n);
    ibw_udp_set_dport(m + 34, 53);
    TU_EQ(parse_copy(m, n, IBW_LINK_ETHERNET, &p), IBW_OK);
    TU_EQ(p.transport, IBW_TK_NONE);
    TU_CHECK(ibw_pkt_has(&p, IBW_HDR_UDP));
    TU_CHECK(!ibw_pkt_has(&p, IBW_HDR_BTH));
    memcpy(m, f, n);
    ibw_ipv4_set_mf(m + 14, 1); /* a fragment */
    TU_EQ(parse_copy(m, n, IBW_LINK_ETHERNET, &p), IBW_OK);
    TU_EQ(p.transport, IBW_TK_NONE);
    /* three tags: the third is not followed */
    uint8_t q[64] = {0};
    ibw_eth_set_ethertype(q, 0x88A8);
    ibw_vlan_set_ethertype(q + 14, 0x8100);
    ibw_vlan_set_ethertype(q + 18, 0x8100);
    TU_EQ(parse_copy(q, sizeof q, IBW_LINK_ETHERNET, &p), IBW_OK);
    TU_EQ(p.nvlan, 2);
    TU_EQ(p.ethertype, 0x8100);
    TU_EQ(p.transport, IBW_TK_NONE);

    TU_EQ(parse_copy(f, n, (enum ibw_link)99, &p), IBW_E_LINKTYPE);

    /* native IB raw (LNH 0): VCRC only */
    uint8_t raw[8 + 8 + 2] = {0x00, 0x00, 0x00, 0x01, 0x00, 0x04, 0x00, 0x02,
                              1, 2, 3, 4, 5, 6, 7, 8};
    uint16_t v = ibw_vcrc(raw, 16);
    raw[16] = (uint8_t)v;
    raw[17] = (uint8_t)(v >> 8);
    TU_EQ(parse_copy(raw, sizeof raw, IBW_LINK_IB, &p), IBW_OK);
    TU_EQ(p.transport, IBW_TK_IB_RAW);
    TU_EQ(p.vcrc_status, IBW_CRC_GOOD);
    TU_EQ(p.icrc_status, IBW_CRC_ABSENT);
    TU_EQ(p.payload_off, 8);
    TU_EQ(p.payload_len, 8);
    TU_EQ(ibw_icrc_compute(&p), 0); /* no BTH, nothing to compute */
}

static uint64_t rng = 0x0123456789ABCDEFull;
static uint32_t rnd32(void)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng >> 33);
}

/* Random byte edits and cuts of valid frames: no crash, no read outside
 * the buffer (ASan), the view invariants of parse_copy() hold. */
static void test_mutations(void)
{
    static const unsigned tks[] = {IBW_TK_ROCE_V2_IP4, IBW_TK_ROCE_V2_IP6,
                                   IBW_TK_ROCE_V1, IBW_TK_IB_LOCAL,
                                   IBW_TK_IB_GLOBAL};
    uint8_t f[256], m[256];
    unsigned ok = 0, failed = 0;
    for (unsigned iter = 0; iter < 20000; iter++) {
        unsigned tk = tks[iter % 5];
        uint8_t op;
        do
            op = (uint8_t)rnd32();
        while (!ibw_opcode_valid(op));
        const struct ibw_opcode_info *info = ibw_opcode_info(op);
        size_t pl = info->kind == IBW_OPK_ATOMIC_WRITE ? 8
                    : (info->flags & IBW_OPF_PAYLOAD) ? rnd32() % 40
                                                      : 0;
        size_t n = build(tk, op, pl, rnd32() % 3, f, sizeof f);
        memcpy(m, f, n);
        unsigned edits = 1 + rnd32() % 4;
        for (unsigned e = 0; e < edits; e++)
            m[rnd32() % n] ^= (uint8_t)(1u << (rnd32() % 8));
        size_t len = (rnd32() % 4 == 0) ? rnd32() % (n + 1) : n;
        struct ibw_pkt p;
        enum ibw_link link = (tk == IBW_TK_IB_LOCAL || tk == IBW_TK_IB_GLOBAL)
                                 ? IBW_LINK_IB
                                 : IBW_LINK_ETHERNET;
        if (parse_copy(m, len, link, &p) == IBW_OK)
            ok++;
        else
            failed++;
    }
    /* both outcomes occur, so the loop exercised the error paths */
    TU_CHECK(ok > 1000);
    TU_CHECK(failed > 1000);
}

int main(void)
{
    test_truncations();
    test_lying_lengths();
    test_pad_and_opcode();
    test_not_iba();
    test_mutations();
    return tu_done("packet_bad");
}
