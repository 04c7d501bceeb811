/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_lib_abi - libibwire's version, errors, field table, records, CRCs
 * and argument checks, through the public header only.  The truths:
 *   - the version meson declares for the project (argv[1]);
 *   - records: a BTH packed through the ABI against its bytes written by
 *     hand from IBA Vol.1 9.2, and an SQ doorbell (catalog E1) against
 *     words computed by hand from its documented bit positions;
 *   - CRCs: real captures whose every ICRC (and VCRC) is good
 *     (PROVENANCE.md; the packet suite's reference script agrees), and the
 *     same frames with one covered byte flipped.
 *
 *   test_lib_abi VERSION CAPTURES_DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibwire_lib.h"
#include "testutil.h"

static void test_version_errors(const char *version)
{
    TU_CHECK(strcmp(ibwire_version(), version) == 0);
    TU_EQ(ibwire_abi(), IBWIRE_LIB_ABI);
    static const int codes[] = {
        IBWIRE_OK, IBWIRE_E_TRUNCATED, IBWIRE_E_LENGTH, IBWIRE_E_RANGE,
        IBWIRE_E_FIELD, IBWIRE_E_CRC, IBWIRE_E_UNSUPPORTED, IBWIRE_E_NOSPACE,
        IBWIRE_E_LINKTYPE, IBWIRE_E_NOMEM, IBWIRE_E_NAME, IBWIRE_E_ARG,
        IBWIRE_E_IO, IBWIRE_E_STATE, -12345};
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        const char *s = ibwire_strerror(codes[i]);
        TU_CHECK(s != NULL && s[0] != '\0');
        /* each its own line */
        for (size_t j = 0; j < i && s; j++)
            TU_CHECK(strcmp(s, ibwire_strerror(codes[j])) != 0);
    }
}

static void test_fields(void)
{
    int n = ibwire_field_count();
    TU_CHECK(n > 300); /* --list-fields prints over 300 names */
    for (int id = 0; id < n; id++) {
        const char *name = ibwire_field_name(id);
        TU_CHECK(name != NULL);
        if (name)
            TU_EQ(ibwire_field_lookup(name), id);
        TU_CHECK(ibwire_field_type(id) >= IBWIRE_FT_UINT &&
                 ibwire_field_type(id) <= IBWIRE_FT_TIME);
        TU_CHECK(ibwire_field_description(id) != NULL);
    }
    /* types by the Wireshark type each name has */
    static const struct {
        const char *name;
        int type;
    } types[] = {
        {"infiniband.bth.psn", IBWIRE_FT_UINT},
        {"infiniband.bth.se", IBWIRE_FT_BOOL},
        {"eth.src", IBWIRE_FT_ETHER},
        {"ip.src", IBWIRE_FT_IPV4},
        {"ipv6.dst", IBWIRE_FT_IPV6},
        {"infiniband.grh.sgid", IBWIRE_FT_IPV6},
        {"data.data", IBWIRE_FT_BYTES},
        {"frame.time_epoch", IBWIRE_FT_TIME},
        {"ibwire.error", IBWIRE_FT_STRING},
    };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        TU_EQ(ibwire_field_type(ibwire_field_lookup(types[i].name)),
              types[i].type);
    TU_EQ(ibwire_field_lookup("infiniband.bth.nosuch"), IBWIRE_E_NAME);
    TU_EQ(ibwire_field_lookup(""), IBWIRE_E_NAME);
    TU_EQ(ibwire_field_lookup(NULL), IBWIRE_E_ARG);
    TU_CHECK(ibwire_field_name(-1) == NULL);
    TU_CHECK(ibwire_field_name(n) == NULL);
    TU_EQ(ibwire_field_type(n), IBWIRE_E_ARG);
    TU_CHECK(ibwire_field_description(-5) == NULL);
}

static void test_records(void)
{
    /* BTH, IBA Vol.1 9.2: RC SEND ONLY (0x04); SE 1, M 0, PadCnt 3, TVer 0
     * -> 0xB0; P_Key 0xFFFF; byte 4 zero; DestQP 0x000011; AckReq 1 ->
     * 0x80; PSN 0x000102.  Bytes 04 B0 FF FF | 00 00 00 11 | 80 00 01 02,
     * read big-endian as one 96-bit value: words (least significant
     * first) 0x80000102, 0x00000011, 0x04B0FFFF. */
    static const uint32_t bth_words[3] = {0x80000102u, 0x00000011u,
                                          0x04B0FFFFu};
    int bth = ibwire_record_lookup("bth");
    TU_CHECK(bth >= 0);
    TU_EQ(ibwire_record_lookup("W3"), bth);
    TU_EQ(ibwire_record_bits(bth), 96);
    TU_EQ(ibwire_record_words(bth), 3);
    TU_CHECK(strcmp(ibwire_record_id(bth), "W3") == 0);
    uint32_t w[4] = {0, 0, 0, 0xA5A5A5A5u};
    static const struct {
        const char *field;
        uint64_t v;
        int lsb, width;
    } bth_fields[] = {
        {"opcode", 0x04, 88, 8}, {"se", 1, 87, 1},     {"padcnt", 3, 84, 2},
        {"pkey", 0xFFFF, 64, 16}, {"destqp", 0x11, 32, 24},
        {"ackreq", 1, 31, 1},     {"psn", 0x102, 0, 24},
    };
    for (size_t i = 0; i < sizeof bth_fields / sizeof bth_fields[0]; i++) {
        int f = ibwire_record_field_lookup(bth, bth_fields[i].field);
        TU_CHECK(f >= 0);
        TU_EQ(ibwire_record_field_lsb(bth, f), bth_fields[i].lsb);
        TU_EQ(ibwire_record_field_width(bth, f), bth_fields[i].width);
        TU_EQ(ibwire_record_set_u64("bth", bth_fields[i].field, w, 3,
                                    bth_fields[i].v),
              0);
    }
    TU_MEMEQ(w, bth_words, sizeof bth_words);
    TU_EQ(w[3], 0xA5A5A5A5u); /* nothing past the record's words */
    uint64_t psn = 0;
    TU_EQ(ibwire_record_get_u64("W3", "psn", bth_words, 3, &psn), 0);
    TU_EQ(psn, 0x102);

    /* SQ doorbell (E1), positions of records_cmd.h / docs/records.md:
     * opcode [4:0], F [5], offset [31:8], size [39:32], qpn [63:40].
     * opcode 0x0A, F 1, offset 0x10, size 2, qpn 0x123:
     * word 0 = 0x10 << 8 | 1 << 5 | 0x0A = 0x0000102A,
     * word 1 = 0x123 << 8 | 2 = 0x00012302. */
    uint32_t db[2] = {0, 0};
    TU_EQ(ibwire_record_set_u64("sq_doorbell", "opcode", db, 2, 0x0A), 0);
    TU_EQ(ibwire_record_set_u64("sq_doorbell", "fence", db, 2, 1), 0);
    TU_EQ(ibwire_record_set_u64("sq_doorbell", "offset", db, 2, 0x10), 0);
    TU_EQ(ibwire_record_set_u64("sq_doorbell", "size", db, 2, 2), 0);
    TU_EQ(ibwire_record_set_u64("E1", "qpn", db, 2, 0x123), 0);
    TU_EQ(db[0], 0x0000102Au);
    TU_EQ(db[1], 0x00012302u);
    int sq = ibwire_record_lookup("sq_doorbell");
    TU_EQ(ibwire_record_field_lsb(sq, ibwire_record_field_lookup(sq, "qpn")),
          40);
    /* the range and argument checks */
    TU_EQ(ibwire_record_set_u64("sq_doorbell", "fence", db, 2, 2),
          IBWIRE_E_RANGE);
    TU_EQ(db[0], 0x0000102Au); /* nothing written */
    TU_EQ(ibwire_record_set_u64("sq_doorbell", "qpn", db, 1, 1),
          IBWIRE_E_NOSPACE);
    TU_EQ(ibwire_record_set_u64("sq_doorbell", "nosuch", db, 2, 1),
          IBWIRE_E_NAME);
    TU_EQ(ibwire_record_set_u64("nosuch", "qpn", db, 2, 1), IBWIRE_E_NAME);
    TU_EQ(ibwire_record_lookup(NULL), IBWIRE_E_ARG);
    TU_CHECK(ibwire_record_name(-1) == NULL);
    TU_CHECK(ibwire_record_name(ibwire_record_count()) == NULL);
    TU_EQ(ibwire_record_field_lsb(sq, 1000), IBWIRE_E_ARG);
    uint32_t v[1] = {0};
    TU_EQ(ibwire_record_get(sq, 0, db, 2, v, 0), IBWIRE_E_NOSPACE);
    TU_EQ(ibwire_record_get(sq, 0, NULL, 2, v, 1), IBWIRE_E_ARG);

    /* every format: every field reads back what was written, alone */
    int nrec = ibwire_record_count();
    TU_CHECK(nrec > 50);
    for (int r = 0; r < nrec; r++) {
        int words = ibwire_record_words(r);
        uint32_t *buf = calloc((size_t)words, sizeof *buf);
        uint32_t *val = calloc((size_t)words, sizeof *val);
        uint32_t *back = calloc((size_t)words, sizeof *back);
        for (int f = 0; buf && val && back && f < ibwire_record_field_count(r);
             f++) {
            int width = ibwire_record_field_width(r, f);
            int lsb = ibwire_record_field_lsb(r, f);
            TU_CHECK(lsb >= 0 && lsb + width <= ibwire_record_bits(r));
            size_t nv = ((size_t)width + 31) / 32;
            for (size_t k = 0; k < nv; k++)
                val[k] = 0x5A5A5A5Au ^ (uint32_t)k;
            if (width % 32)
                val[nv - 1] &= (1u << (width % 32)) - 1;
            memset(buf, 0, (size_t)words * sizeof *buf);
            TU_EQ(ibwire_record_set(r, f, buf, (size_t)words, val, nv), 0);
            TU_EQ(ibwire_record_get(r, f, buf, (size_t)words, back, nv), 0);
            TU_MEMEQ(back, val, nv * sizeof *val);
        }
        free(buf);
        free(val);
        free(back);
    }
}

/* Every IBA frame of a capture: its ICRC (and VCRC) verify, and not with
 * a covered byte flipped.  The number of frames checked. */
static unsigned crc_capture(const char *path, int vcrc)
{
    char err[512];
    ibwire_capture *cap = ibwire_capture_open(path, err, sizeof err);
    if (!cap)
        return 0;
    const uint8_t *frame;
    size_t caplen, origlen;
    int link;
    uint64_t ts;
    unsigned n = 0;
    while (ibwire_capture_next(cap, &frame, &caplen, &origlen, &link, &ts) ==
           1) {
        uint32_t icrc;
        if (caplen < origlen || ibwire_icrc_compute(frame, caplen, link,
                                                    &icrc) != 0)
            continue; /* cut, or no BTH */
        n++;
        TU_EQ(ibwire_icrc_verify(frame, caplen, link), 1);
        if (vcrc)
            TU_EQ(ibwire_vcrc_verify(frame, caplen, link), 1);
        uint8_t *copy = malloc(caplen);
        memcpy(copy, frame, caplen);
        /* a byte the ICRC covers: 8 before its slot (payload, or a
         * transport header of a short packet) */
        copy[caplen - (vcrc ? 6 : 4) - 8] ^= 0x01;
        TU_EQ(ibwire_icrc_verify(copy, caplen, link), 0);
        free(copy);
    }
    ibwire_capture_close(cap);
    return n;
}

static void test_crcs(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/roce-vectors-cx4.pcap", dir);
    unsigned roce = crc_capture(path, 0);
    snprintf(path, sizeof path, "%s/ib-native-erf-2008.pcap", dir);
    unsigned ib = crc_capture(path, 1);
    printf("ICRC verified on %u RoCE and %u native IB frames\n", roce, ib);
    /* the argument checks */
    uint32_t icrc;
    uint16_t vcrc;
    TU_EQ(ibwire_icrc_compute(NULL, 10, 1, &icrc), IBWIRE_E_ARG);
    TU_EQ(ibwire_icrc_compute((const uint8_t *)"abc", 3, 1, NULL),
          IBWIRE_E_ARG);
    TU_EQ(ibwire_icrc_verify((const uint8_t *)"abc", 3, 99),
          IBWIRE_E_LINKTYPE);
    TU_CHECK(ibwire_icrc_verify((const uint8_t *)"abc", 3, 1) < 0);
    TU_CHECK(ibwire_vcrc_compute((const uint8_t *)"abcdefgh", 8, 247,
                                 &vcrc) < 0);
}

static void test_arguments(void)
{
    ibwire_packet *p = ibwire_packet_new();
    uint64_t u;
    char text[8];
    size_t len;
    int psn = ibwire_field_lookup("infiniband.bth.psn");
    TU_EQ(ibwire_packet_parse(NULL, (const uint8_t *)"", 0, 0, 1, 0),
          IBWIRE_E_ARG);
    TU_EQ(ibwire_packet_parse(p, NULL, 5, 0, 1, 0), IBWIRE_E_ARG);
    TU_EQ(ibwire_packet_parse(p, (const uint8_t *)"abc", 3, 2, 1, 0),
          IBWIRE_E_ARG); /* origlen below caplen */
    TU_EQ(ibwire_packet_parse(p, (const uint8_t *)"abc", (size_t)1 << 40, 0,
                              1, 0),
          IBWIRE_E_ARG);
    TU_EQ(ibwire_packet_parse(p, (const uint8_t *)"abc", 3, 0, 5, 0),
          IBWIRE_E_LINKTYPE);
    /* nothing parsed yet: every field absent */
    TU_EQ(ibwire_packet_uint(p, psn, 0, &u), 0);
    TU_EQ(ibwire_packet_count(p, psn), 0);
    /* a frame too short for anything */
    TU_EQ(ibwire_packet_parse(p, (const uint8_t *)"abc", 3, 0, 1, 0), 0);
    TU_EQ(ibwire_packet_count(p, psn), 0);
    TU_EQ(ibwire_packet_uint(p, -1, 0, &u), IBWIRE_E_ARG);
    TU_EQ(ibwire_packet_uint(p, psn, 0, NULL), IBWIRE_E_ARG);
    TU_EQ(ibwire_packet_uint(p, ibwire_field_lookup("eth.src"), 0, &u),
          IBWIRE_E_FIELD);
    TU_EQ(ibwire_packet_bytes(p, psn, 0, NULL, 0, &len), IBWIRE_E_FIELD);
    TU_EQ(ibwire_packet_text(p, psn, 0, text, 0), IBWIRE_E_ARG);
    TU_EQ(ibwire_packet_text(p, ibwire_field_count(), 0, text, sizeof text),
          IBWIRE_E_ARG);
    TU_EQ(ibwire_packet_icrc_status(NULL), IBWIRE_E_ARG);
    ibwire_packet_free(p);
    ibwire_packet_free(NULL);
    TU_CHECK(ibwire_capture_open("/nonexistent.pcap", text, sizeof text) ==
             NULL);
    TU_CHECK(strlen(text) < sizeof text);
    TU_EQ(ibwire_capture_next(NULL, NULL, NULL, NULL, NULL, NULL),
          IBWIRE_E_ARG);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: test_lib_abi VERSION CAPTURES_DIR\n");
        return 2;
    }
    test_version_errors(argv[1]);
    test_fields();
    test_records();
    test_crcs(argv[2]);
    test_arguments();
    return tu_done("test_lib_abi");
}
