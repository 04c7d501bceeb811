/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_lib_build - frames from ibwire_builder_* against what does not
 * share the builder's code:
 *   - hand vectors: frames written out byte by byte below from the IBA and
 *     the IP/UDP layouts, with the builder's documented defaults; their
 *     IPv4 checksums and ICRCs come from conformance/tests/packet/
 *     icrc_ref.py (zlib over the masked fields), and the meson test
 *     lib_build_vectors_ref re-runs it over this file;
 *   - tshark: frames with many fields set are written to pcaps (the
 *     capture writer) and read back with `tshark -T fields`, which must
 *     print every value set; icrc_ref.py then checks their IPv4 checksums,
 *     ICRCs and VCRCs (written out as C vectors, which it reads).
 *
 *   test_lib_build OUTDIR TSHARK PYTHON ICRC_REF   (TSHARK "" to skip it)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "ibwire_lib.h"
#include "testutil.h"


/* ---- hand vectors ------------------------------------------------------ */

/* RoCEv2/IPv4 RC SEND ONLY, payload "hello", SE and AckReq set, PSN 0x102;
 * everything else the builder's defaults. */
static const uint8_t eth_send_only[] = {
    /* Ethernet: dst 02:00:00:00:00:02, src 02:00:00:00:00:01, IPv4 */
    0x02, 0x00, 0x00, 0x00, 0x00, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01,
    0x08, 0x00,
    /* IPv4: 0x45, TOS 0, total 20 + 8 + 12 + 5 + 3 + 4 = 52, id 0, DF,
     * TTL 64, UDP, checksum, 10.0.0.1 -> 10.0.0.2 */
    0x45, 0x00, 0x00, 0x34, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,
    /* checksum */ 0x26, 0xB7,
    0x0A, 0x00, 0x00, 0x01, 0x0A, 0x00, 0x00, 0x02,
    /* UDP: 49152 -> 4791, length 8 + 12 + 5 + 3 + 4 = 32, checksum 0 */
    0xC0, 0x00, 0x12, 0xB7, 0x00, 0x20, 0x00, 0x00,
    /* BTH: opcode 0x04; SE 1, M 0, PadCnt 3, TVer 0 -> 0xB0; P_Key
     * 0xFFFF; FECN/BECN 0; DestQP 0x000011; AckReq 1; PSN 0x000102 */
    0x04, 0xB0, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x11, 0x80, 0x00, 0x01, 0x02,
    /* payload and 3 pad bytes */
    'h', 'e', 'l', 'l', 'o', 0x00, 0x00, 0x00,
    /* ICRC */ 0xEE, 0xDE, 0x33, 0x2D};

/* RoCEv2/IPv4 RC RDMA WRITE FIRST + RETH (VA 0x12345678, R_Key 0x1234,
 * DMA length 256), 8 payload bytes 0..7, PSN 0x200. */
static const uint8_t eth_write_first[] = {
    0x02, 0x00, 0x00, 0x00, 0x00, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01,
    0x08, 0x00,
    /* IPv4: total 20 + 8 + 12 + 16 + 8 + 4 = 68 */
    0x45, 0x00, 0x00, 0x44, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,
    /* checksum */ 0x26, 0xA7,
    0x0A, 0x00, 0x00, 0x01, 0x0A, 0x00, 0x00, 0x02,
    /* UDP: length 8 + 12 + 16 + 8 + 4 = 48 */
    0xC0, 0x00, 0x12, 0xB7, 0x00, 0x30, 0x00, 0x00,
    /* BTH: opcode 0x06, no flags, PadCnt 0, P_Key 0xFFFF, DestQP 0x11,
     * AckReq 0, PSN 0x000200 */
    0x06, 0x00, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x11, 0x00, 0x00, 0x02, 0x00,
    /* RETH: VA (8 bytes), R_Key, DMA length */
    0x00, 0x00, 0x00, 0x00, 0x12, 0x34, 0x56, 0x78, 0x00, 0x00, 0x12, 0x34,
    0x00, 0x00, 0x01, 0x00,
    /* payload */
    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
    /* ICRC */ 0x72, 0xEA, 0xB0, 0x24};

/* The hand vector read back through the packet handle, and its CRCs. */
static void test_parse_vector(void)
{
    ibwire_packet *p = ibwire_packet_new();
    const uint8_t *v = eth_send_only;
    size_t n = sizeof eth_send_only;
    uint64_t u = 0;
    uint8_t mac[6];
    size_t len = 0;
    char text[64];
    TU_EQ(ibwire_packet_parse(p, v, n, 0, 1, 1500000000123456789u), 0);
    TU_CHECK(ibwire_packet_error(p) == NULL);
    TU_EQ(ibwire_packet_icrc_status(p), IBWIRE_CRC_GOOD);
    TU_EQ(ibwire_packet_vcrc_status(p), IBWIRE_CRC_ABSENT);
    TU_EQ(ibwire_packet_uint(p, ibwire_field_lookup("infiniband.bth.psn"), 0,
                             &u), 1);
    TU_EQ(u, 0x102);
    TU_EQ(ibwire_packet_uint(p, ibwire_field_lookup("frame.time_epoch"), 0,
                             &u), 1);
    TU_EQ(u, 1500000000123456789u);
    TU_EQ(ibwire_packet_bytes(p, ibwire_field_lookup("eth.src"), 0, mac,
                              sizeof mac, &len), 1);
    TU_EQ(len, 6);
    TU_MEMEQ(mac, eth_send_only + 6, 6);
    TU_EQ(ibwire_packet_bytes(p, ibwire_field_lookup("eth.src"), 0, mac, 2,
                              &len), IBWIRE_E_NOSPACE);
    TU_EQ(ibwire_packet_text(p, ibwire_field_lookup("ip.dst"), 0, text,
                             sizeof text), 8);
    TU_CHECK(strcmp(text, "10.0.0.2") == 0);
    TU_EQ(ibwire_packet_text(p, ibwire_field_lookup("data.data"), 0, text,
                             sizeof text), 16);
    TU_CHECK(strcmp(text, "68656c6c6f000000") == 0);
    TU_EQ(ibwire_packet_text(p, ibwire_field_lookup("data.data"), 0, text,
                             16), IBWIRE_E_NOSPACE);
    TU_EQ(ibwire_packet_text(p, ibwire_field_lookup("infiniband.aeth.msn"),
                             0, text, sizeof text), 0);
    TU_CHECK(text[0] == '\0');
    uint32_t icrc = 0;
    TU_EQ(ibwire_icrc_compute(v, n, 1, &icrc), 0);
    TU_EQ(icrc, 0x2D33DEEEu); /* bytes EE DE 33 2D read little-endian */
    TU_EQ(ibwire_icrc_verify(v, n, 1), 1);
    /* cut by a snap length after the headers: no error, ICRC unchecked */
    TU_EQ(ibwire_packet_parse(p, v, 56, n, 1, 0), 0);
    TU_CHECK(ibwire_packet_error(p) == NULL);
    TU_EQ(ibwire_packet_icrc_status(p), IBWIRE_CRC_UNCHECKED);
    TU_EQ(ibwire_packet_uint(p, ibwire_field_lookup("ibwire.cut"), 0, &u), 1);
    TU_EQ(u, 1);
    /* a reserved opcode: the error names the field */
    uint8_t bad[sizeof eth_send_only];
    memcpy(bad, v, n);
    bad[42] = 0x1F;
    TU_EQ(ibwire_packet_parse(p, bad, n, 0, 1, 0), 0);
    TU_CHECK(ibwire_packet_error(p) &&
             strncmp(ibwire_packet_error(p), "bth.opcode:", 11) == 0);
    ibwire_packet_free(p);
}

static void test_hand_vectors(void)
{
    uint8_t out[256];
    ibwire_builder *b = ibwire_builder_new();
    TU_CHECK(ibwire_builder_uint(b, "infiniband.bth.se", 1) == 0);
    TU_CHECK(ibwire_builder_uint(b, "infiniband.bth.a", 1) == 0);
    TU_CHECK(ibwire_builder_uint(b, "infiniband.bth.psn", 0x102) == 0);
    TU_CHECK(ibwire_builder_text(b, "data.data", "68656c6c6f") == 0);
    long n = ibwire_build(b, 1, out, sizeof out);
    TU_CHECK(n == (long)sizeof eth_send_only);
    TU_CHECK(n > 0 && memcmp(out, eth_send_only, (size_t)n) == 0);
    TU_CHECK(ibwire_icrc_verify(out, (size_t)n, 1) == 1);
    /* the size alone, and a buffer too small */
    TU_CHECK(ibwire_build(b, 1, NULL, 0) == n);
    TU_CHECK(ibwire_build(b, 1, out, 10) == IBWIRE_E_NOSPACE);

    ibwire_builder_reset(b);
    const uint8_t payload[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    TU_CHECK(ibwire_builder_uint(b, "infiniband.bth.opcode", 0x06) == 0);
    TU_CHECK(ibwire_builder_uint(b, "infiniband.bth.psn", 0x200) == 0);
    TU_CHECK(ibwire_builder_uint(b, "infiniband.reth.va", 0x12345678) == 0);
    TU_CHECK(ibwire_builder_text(b, "infiniband.reth.r_key", "0x1234") == 0);
    TU_CHECK(ibwire_builder_uint(b, "infiniband.reth.dmalen", 256) == 0);
    TU_CHECK(ibwire_builder_bytes(b, "data.data", payload, 8) == 0);
    n = ibwire_build(b, 1, out, sizeof out);
    TU_CHECK(n == (long)sizeof eth_write_first);
    TU_CHECK(n > 0 && memcmp(out, eth_write_first, (size_t)n) == 0);

    /* an ICRC set by hand is kept: a frame with a bad one */
    TU_CHECK(ibwire_builder_uint(b, "infiniband.invariant.crc", 0x01020304) ==
           0);
    n = ibwire_build(b, 1, out, sizeof out);
    TU_CHECK(n == (long)sizeof eth_write_first);
    TU_CHECK(n > 4 && memcmp(out + n - 4, "\x01\x02\x03\x04", 4) == 0);
    TU_CHECK(ibwire_icrc_verify(out, (size_t)n, 1) == 0);

    /* what is refused, and said */
    TU_CHECK(ibwire_builder_uint(b, "infiniband.bth.psn", 1u << 24) ==
           IBWIRE_E_RANGE);
    TU_CHECK(ibwire_builder_uint(b, "no.such.field", 1) == IBWIRE_E_NAME);
    TU_CHECK(ibwire_builder_uint(b, "frame.number", 1) == IBWIRE_E_NAME);
    TU_CHECK(ibwire_builder_text(b, "ip.src", "10.0.0.300") == IBWIRE_E_RANGE);
    TU_CHECK(ibwire_builder_uint(b, "infiniband.aeth.msn", 1) == 0);
    TU_CHECK(ibwire_build(b, 1, out, sizeof out) == IBWIRE_E_FIELD);
    TU_CHECK(ibwire_builder_error(b) &&
           strstr(ibwire_builder_error(b), "infiniband.aeth.msn"));
    TU_CHECK(ibwire_build(b, 197, out, sizeof out) == IBWIRE_E_LINKTYPE);
    TU_CHECK(ibwire_build(NULL, 1, out, sizeof out) == IBWIRE_E_ARG);
    ibwire_builder_free(b);
}

/* ---- tshark ------------------------------------------------------------ */

/* A field set as text, and what tshark prints for it ("" for the same). */
struct set {
    const char *name, *value, *tshark;
};

struct frame_case {
    int link;
    struct set sets[24];
};

static const struct frame_case cases[] = {
    /* RoCEv2/IPv4 in a VLAN, RDMA WRITE ONLY, a 7-byte payload */
    {1,
     {{"eth.dst", "0a:1b:2c:3d:4e:5f", ""},
      {"eth.src", "02:aa:bb:cc:dd:ee", ""},
      {"vlan.id", "100", ""},
      {"vlan.priority", "3", ""},
      {"ip.src", "192.168.7.1", ""},
      {"ip.dst", "192.168.7.2", ""},
      {"ip.ttl", "17", ""},
      {"ip.dsfield.dscp", "26", ""},
      {"ip.dsfield.ecn", "1", ""},
      {"ip.id", "0x1234", ""},
      {"udp.srcport", "50000", ""},
      {"infiniband.bth.opcode", "10", ""},
      {"infiniband.bth.se", "1", ""},
      {"infiniband.bth.m", "1", ""},
      {"infiniband.bth.p_key", "32769", ""},
      {"infiniband.bth.destqp", "0x123456", ""},
      {"infiniband.bth.a", "1", ""},
      {"infiniband.bth.psn", "11259375", ""},
      {"infiniband.reth.va", "0x1122334455667788", ""},
      {"infiniband.reth.r_key", "0xdeadbeef", ""},
      {"infiniband.reth.dmalen", "7", ""},
      {"data.data", "01020304050607", "0102030405060700"},
      {NULL, NULL, NULL}}},
    /* RoCEv2/IPv6, UD SEND ONLY + DETH */
    {1,
     {{"ipv6.src", "fd00::1", ""},
      {"ipv6.dst", "fd00::2", ""},
      {"ipv6.hlim", "9", ""},
      {"ipv6.flow", "0x012345", ""},
      {"infiniband.bth.opcode", "100", ""},
      {"infiniband.bth.destqp", "0x000042", ""},
      {"infiniband.deth.q_key", "0x0000000011111111", ""},
      {"infiniband.deth.srcqp", "0x00000043", ""},
      {"data.data", "aabbcc", "aabbcc00"},
      {NULL, NULL, NULL}}},
    /* RoCEv1, RC SEND ONLY with immediate */
    {1,
     {{"eth.type", "0x8915", ""},
      {"infiniband.grh.sgid", "fe80::a", ""},
      {"infiniband.grh.dgid", "fe80::b", ""},
      {"infiniband.grh.hoplmt", "3", ""},
      {"infiniband.bth.opcode", "5", ""},
      {"infiniband.immdt", "0a0b0c0d", "0a0b0c0d,0a0b0c0d"},
      {"infiniband.bth.psn", "77", ""},
      {NULL, NULL, NULL}}},
    /* RoCEv2/IPv4, RC ACKNOWLEDGE: an RNR NAK */
    {1,
     {{"infiniband.bth.opcode", "17", ""},
      {"infiniband.aeth.syndrome", "37", ""},
      {"infiniband.aeth.msn", "4660", ""},
      {NULL, NULL, NULL}}},
    /* native IB, local, RC FETCH ADD (AtomicETH under reth.*) */
    {247,
     {{"infiniband.lrh.sl", "5", ""},
      {"infiniband.lrh.dlid", "16", ""},
      {"infiniband.lrh.slid", "32", ""},
      {"infiniband.bth.opcode", "20", ""},
      {"infiniband.reth.va", "0x0000000000001000", ""},
      {"infiniband.reth.r_key", "0x00000077", ""},
      {"infiniband.atomiceth.swapdt", "5", ""},
      {"infiniband.bth.psn", "3", ""},
      {NULL, NULL, NULL}}},
    /* native IB with a GRH, RC ATOMIC ACKNOWLEDGE */
    {247,
     {{"infiniband.grh.dgid", "fe80::1:2", ""},
      {"infiniband.bth.opcode", "18", ""},
      {"infiniband.atomicacketh.origremdt", "72623859790382856", ""},
      {NULL, NULL, NULL}}},
};
#define NCASES (sizeof cases / sizeof cases[0])

/* The frames of one link type into a capture at path (ERF for native IB,
 * which icrc_ref.py reads with its VCRC). */
static int write_capture(const char *path, int link, FILE *vectors)
{
    char err[256];
    int file_link = link == 247 ? CAP_LINKTYPE_ERF : CAP_LINKTYPE_ETHERNET;
    struct cap_writer *w =
        cap_writer_open(path, CAP_FORMAT_PCAP, file_link, err, sizeof err);
    if (!w) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    uint8_t out[512];
    for (size_t i = 0; i < NCASES; i++) {
        if (cases[i].link != link)
            continue;
        ibwire_builder *b = ibwire_builder_new();
        for (const struct set *s = cases[i].sets; s->name; s++) {
            int rc = ibwire_builder_text(b, s->name, s->value);
            if (rc) {
                fprintf(stderr, "case %zu: %s=%s: %s\n", i, s->name, s->value,
                        ibwire_strerror(rc));
                tu_failures++;
            }
        }
        long n = ibwire_build(b, link, out, sizeof out);
        if (n < 0)
            fprintf(stderr, "case %zu: %s\n", i, ibwire_builder_error(b));
        TU_CHECK(n > 0);
        if (n > 0) {
            TU_CHECK(cap_write(w, 1000000000u * (i + 1), out, (size_t)n,
                             NULL) == 0);
            /* for icrc_ref.py --c-file, which takes ib_* as native IB */
            fprintf(vectors, "static const uint8_t %s_case%zu[] = {",
                    link == 247 ? "ib" : "eth", i);
            for (long k = 0; k < n; k++)
                fprintf(vectors, "%s0x%02x", k ? ", " : "", out[k]);
            fprintf(vectors, "};\n");
        }
        ibwire_builder_free(b);
    }
    return cap_writer_close(w);
}

/* tshark's reading of every value set in the capture's frames. */
static void compare_tshark(const char *tshark, const char *path, int link)
{
    unsigned frame = 0;
    for (size_t i = 0; i < NCASES; i++) {
        if (cases[i].link != link)
            continue;
        frame++;
        for (const struct set *s = cases[i].sets; s->name; s++) {
            char cmd[2048], got[1024] = "";
            snprintf(cmd, sizeof cmd,
                     "'%s' -n -r '%s' -Y frame.number==%u -T fields -e %s "
                     "--disable-protocol rpcordma 2>/dev/null",
                     tshark, path, frame, s->name);
            FILE *p = popen(cmd, "r");
            if (!p || !fgets(got, sizeof got, p))
                got[0] = '\0';
            if (p)
                pclose(p);
            got[strcspn(got, "\n")] = '\0';
            const char *want = s->tshark[0] ? s->tshark : s->value;
            if (strcmp(got, want) != 0) {
                fprintf(stderr, "%s frame %u %s: tshark '%s', set '%s'\n",
                        path, frame, s->name, got, want);
                tu_failures++;
            }
        }
    }
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: test_lib_build OUTDIR TSHARK PYTHON "
                        "ICRC_REF\n");
        return 2;
    }
    test_parse_vector();
    test_hand_vectors();
    char eth[4096], ib[4096], vec[4096], cmd[16384];
    snprintf(eth, sizeof eth, "%s/lib-built-eth.pcap", argv[1]);
    snprintf(ib, sizeof ib, "%s/lib-built-ib.pcap", argv[1]);
    snprintf(vec, sizeof vec, "%s/lib-built-vectors.c", argv[1]);
    FILE *vectors = fopen(vec, "w");
    if (!vectors) {
        fprintf(stderr, "%s: cannot write\n", vec);
        return 1;
    }
    TU_CHECK(write_capture(eth, 1, vectors) == 0);
    TU_CHECK(write_capture(ib, 247, vectors) == 0);
    fclose(vectors);
    if (argv[2][0]) {
        compare_tshark(argv[2], eth, 1);
        compare_tshark(argv[2], ib, 247);
    } else {
        printf("tshark not installed: its reading not compared\n");
    }
    /* the CRCs and IPv4 checksums of every frame built, by the reference */
    snprintf(cmd, sizeof cmd, "'%s' '%s' --c-file '%s'", argv[3], argv[4],
             vec);
    TU_CHECK(system(cmd) == 0);
    printf("%d failures\n", tu_failures);
    return tu_failures != 0;
}
