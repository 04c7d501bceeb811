/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_capture.c - the capture writer and reader (catalog W16).
 *
 * Writer: file and record layouts compared byte for byte with images
 * written out here from the format descriptions (pcap: 24-byte file header,
 * 16-byte record headers, little-endian; pcapng: SHB, IDB, EPB blocks with
 * options padded to 4 bytes; ERF: 16-byte record header, timestamp as
 * little-endian 32.32 fixed point; exported PDU: big-endian tag/length/
 * value).  Reader: round trips through every link type and format, hand-
 * built ERF and exported-PDU records, and damaged files.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "scratch_dir.h"
#include "testutil.h"

static void spit(const char *path, const void *buf, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return;
    fwrite(buf, 1, n, f);
    fclose(f);
}

static const uint8_t frame4[4] = {0xde, 0xad, 0xbe, 0xef};
/* 1.5 s after the epoch. */
#define TS_1_5 1500000000ull

static void write_one(const char *name, enum cap_file_format fmt, int lt,
                      const char *comment)
{
    struct cap_writer *w = scratch_writer(name, fmt, lt);
    if (!w)
        return;
    TU_EQ(cap_write(w, TS_1_5, frame4, sizeof frame4, comment), 0);
    TU_EQ(cap_writer_close(w), 0);
}

/* The file `name` holds `total` bytes and `want` at offset `at`. */
static void check_file(const char *name, size_t total, size_t at,
                       const uint8_t *want, size_t n)
{
    uint8_t got[256];
    size_t len = slurp(tmp_path(name), got, sizeof got);
    TU_EQ(len, total);
    if (len >= at + n)
        TU_MEMEQ(got + at, want, n);
}

static void test_writer_pcap_247(void)
{
    static const uint8_t want[] = {
        /* magic a1b23c4d (nanosecond pcap) little-endian */
        0x4d, 0x3c, 0xb2, 0xa1,
        0x02, 0x00, 0x04, 0x00, /* version 2.4 */
        0, 0, 0, 0, 0, 0, 0, 0, /* thiszone, sigfigs */
        0x00, 0x00, 0x04, 0x00, /* snaplen 262144 = 0x40000 */
        0xf7, 0x00, 0x00, 0x00, /* link type 247 */
        0x01, 0x00, 0x00, 0x00, /* 1 s */
        0x00, 0x65, 0xcd, 0x1d, /* 500000000 ns = 0x1dcd6500 */
        0x04, 0x00, 0x00, 0x00, /* caplen */
        0x04, 0x00, 0x00, 0x00, /* len */
        0xde, 0xad, 0xbe, 0xef};
    write_one("w247.pcap", CAP_FORMAT_PCAP, 247, "dropped in pcap");
    check_file("w247.pcap", sizeof want, 0, want, sizeof want);
}

static void test_writer_pcap_erf(void)
{
    static const uint8_t want_record[] = {
        0x01, 0x00, 0x00, 0x00, 0x00, 0x65, 0xcd, 0x1d, /* 1.5 s */
        0x14, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, /* 20 = 16 + 4 */
        /* ERF timestamp: fraction 0.5 * 2^32 = 0x80000000, seconds 1 */
        0x00, 0x00, 0x00, 0x80, 0x01, 0x00, 0x00, 0x00,
        0x15,       /* type 21 InfiniBand */
        0x04,       /* flags: variable-length record */
        0x00, 0x14, /* rlen 20, big-endian */
        0x00, 0x00, /* loss counter */
        0x00, 0x04, /* wlen 4 */
        0xde, 0xad, 0xbe, 0xef};
    static const uint8_t linktype_197[4] = {197, 0, 0, 0};
    write_one("werf.pcap", CAP_FORMAT_PCAP, 197, NULL);
    check_file("werf.pcap", 24 + sizeof want_record, 20, linktype_197, 4);
    check_file("werf.pcap", 24 + sizeof want_record, 24, want_record,
               sizeof want_record);
}

static void test_writer_pcap_exported(void)
{
    static const uint8_t want_data[] = {
        0x00, 0x0c, 0x00, 0x0c, /* tag 12 PROTO_NAME, 12 bytes */
        'i', 'n', 'f', 'i', 'n', 'i', 'b', 'a', 'n', 'd', 0, 0,
        0x00, 0x00, 0x00, 0x00, /* tag 0 end of options, length 0 */
        0xde, 0xad, 0xbe, 0xef};
    static const uint8_t linktype_252[4] = {252, 0, 0, 0};
    static const uint8_t caplen_24[4] = {24, 0, 0, 0};
    size_t total = 24 + 16 + sizeof want_data;
    write_one("w252.pcap", CAP_FORMAT_PCAP, 252, NULL);
    check_file("w252.pcap", total, 20, linktype_252, 4);
    check_file("w252.pcap", total, 32, caplen_24, 4);
    check_file("w252.pcap", total, 40, want_data, sizeof want_data);
}

static void test_writer_pcapng_comment(void)
{
    static const uint8_t want[] = {
        /* SHB: type, length 28, byte-order magic, version 1.0, section
         * length -1, length again */
        0x0a, 0x0d, 0x0d, 0x0a, 0x1c, 0x00, 0x00, 0x00,
        0x4d, 0x3c, 0x2b, 0x1a, 0x01, 0x00, 0x00, 0x00,
        0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
        0x1c, 0x00, 0x00, 0x00,
        /* IDB: type 1, length 32, link type 1, reserved, snaplen,
         * if_tsresol (9) length 1 value 9 + 3 pad, opt_endofopt, length */
        0x01, 0x00, 0x00, 0x00, 0x20, 0x00, 0x00, 0x00,
        0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00,
        0x09, 0x00, 0x01, 0x00, 0x09, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x20, 0x00, 0x00, 0x00,
        /* EPB: type 6, length 28 + 4 data + 8 comment + 4 end + 4 = 48 */
        0x06, 0x00, 0x00, 0x00, 0x30, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, /* interface 0 */
        0x00, 0x00, 0x00, 0x00, /* timestamp high: 1.5e9 < 2^32 */
        0x00, 0x2f, 0x68, 0x59, /* timestamp low: 1500000000 = 0x59682f00 */
        0x04, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00,
        0xde, 0xad, 0xbe, 0xef,
        0x01, 0x00, 0x02, 0x00, 'h', 'i', 0x00, 0x00, /* opt_comment */
        0x00, 0x00, 0x00, 0x00,                        /* opt_endofopt */
        0x30, 0x00, 0x00, 0x00};
    write_one("wc.pcapng", CAP_FORMAT_PCAPNG, 1, "hi");
    check_file("wc.pcapng", sizeof want, 0, want, sizeof want);
}

static void test_writer_refuses(void)
{
    char err[256] = "";
    TU_CHECK(cap_writer_open(tmp_path("x.pcap"), CAP_FORMAT_PCAP, 105, err,
                             sizeof err) == NULL);
    TU_CHECK(strstr(err, "105") != NULL);
    TU_CHECK(cap_writer_open("/nonexistent-dir/x.pcap", CAP_FORMAT_PCAP, 1,
                             err, sizeof err) == NULL);
    TU_CHECK(strstr(err, "/nonexistent-dir/x.pcap") != NULL);
}

/* Every link type and both formats: what goes in comes back, located. */
static void test_round_trip(void)
{
    static const int lts[] = {1, 197, 247, 252};
    static const enum cap_file_format fmts[] = {CAP_FORMAT_PCAP,
                                                CAP_FORMAT_PCAPNG};
    uint8_t frames[3][70];
    size_t lens[3] = {70, 61, 1};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 70; j++)
            frames[i][j] = (uint8_t)(i * 70 + j);
    for (size_t l = 0; l < 4; l++) {
        for (size_t f = 0; f < 2; f++) {
            char err[256];
            const char *path = tmp_path("rt.cap");
            struct cap_writer *w =
                cap_writer_open(path, fmts[f], lts[l], err, sizeof err);
            TU_CHECK(w != NULL);
            if (!w)
                continue;
            for (unsigned i = 0; i < 3; i++) {
                uint64_t ts = UINT64_C(1234567890123456789) + i;
                TU_EQ(cap_write(w, ts, frames[i], lens[i], "c"), 0);
            }
            TU_EQ(cap_writer_close(w), 0);
            struct cap_reader *r = cap_open(path, err, sizeof err);
            TU_CHECK(r != NULL);
            if (!r)
                continue;
            TU_EQ(cap_linktype(r), lts[l]);
            struct cap_frame fr;
            for (int i = 0; i < 3; i++) {
                TU_EQ(cap_next(r, &fr), 1);
                TU_EQ(fr.number, (uint64_t)i + 1);
                TU_EQ(fr.ts_sec, 1234567890);
                TU_EQ(fr.ts_nsec, 123456789u + (uint32_t)i);
                TU_CHECK(fr.iba != NULL);
                TU_EQ(fr.iba_len, lens[i]);
                TU_EQ(fr.wire_len,
                      lts[l] == 197 ? lens[i] : fr.origlen);
                TU_EQ(fr.truncated, 0);
                TU_EQ(fr.link,
                      lts[l] == 1 ? IBW_LINK_ETHERNET : IBW_LINK_IB);
                if (fr.iba)
                    TU_MEMEQ(fr.iba, frames[i], lens[i]);
            }
            TU_EQ(cap_next(r, &fr), 0);
            cap_close(r);
        }
    }
}

/* Locate the IBA bytes of a record built here. */
static struct cap_frame locate(int lt, const uint8_t *rec, uint32_t caplen,
                               uint32_t origlen)
{
    struct cap_frame fr;
    memset(&fr, 0, sizeof fr);
    fr.linktype = lt;
    fr.raw = rec;
    fr.caplen = caplen;
    fr.origlen = origlen;
    cap_locate_iba(&fr);
    return fr;
}

static void test_erf_records(void)
{
    /* Type 0x95: InfiniBand (21) with the extension bit; two extension
     * headers, the first with its own "more" bit set; rlen padded to 8
     * bytes past wlen 4, so the packet is clipped to 4. */
    static const uint8_t ext[] = {
        0, 0, 0, 0, 0, 0, 0, 0,
        0x95, 0x04, 0x00, 0x28, 0x00, 0x00, 0x00, 0x04,
        0x81, 1, 2, 3, 4, 5, 6, 7,  /* extension header, more follow */
        0x01, 1, 2, 3, 4, 5, 6, 7,  /* last extension header */
        0xde, 0xad, 0xbe, 0xef, 0, 0, 0, 0};
    struct cap_frame fr = locate(197, ext, sizeof ext, sizeof ext);
    TU_EQ(fr.erf_type, 0x95);
    TU_CHECK(fr.iba == ext + 32);
    TU_EQ(fr.iba_len, 4);
    TU_EQ(fr.link, IBW_LINK_IB);
    TU_EQ(fr.wire_len, 4);
    TU_EQ(fr.truncated, 0);

    /* Ethernet (type 2): 2 bytes of offset/pad before the frame. */
    static const uint8_t eth[] = {
        0, 0, 0, 0, 0, 0, 0, 0,
        0x02, 0x04, 0x00, 0x16, 0x00, 0x00, 0x00, 0x04,
        0x00, 0x00, 0xca, 0xfe, 0xba, 0xbe};
    fr = locate(197, eth, sizeof eth, sizeof eth);
    TU_CHECK(fr.iba == eth + 18);
    TU_EQ(fr.iba_len, 4);
    TU_EQ(fr.link, IBW_LINK_ETHERNET);

    /* Another ERF type (ATM, 3): not IBA. */
    static const uint8_t atm[] = {0, 0, 0, 0, 0, 0, 0, 0,
                                  0x03, 0x04, 0x00, 0x14, 0, 0, 0, 4,
                                  1, 2, 3, 4};
    fr = locate(197, atm, sizeof atm, sizeof atm);
    TU_CHECK(fr.iba == NULL);
    TU_CHECK(fr.not_iba != NULL);

    /* Shorter than the ERF header; extension headers past the end;
     * payload shorter than wlen (cut at capture). */
    fr = locate(197, ext, 15, 15);
    TU_CHECK(fr.iba == NULL && fr.truncated);
    fr = locate(197, ext, 30, 30);
    TU_CHECK(fr.iba == NULL && fr.truncated);
    fr = locate(197, ext, 34, 40);
    TU_CHECK(fr.iba == ext + 32 && fr.iba_len == 2 && fr.truncated);
}

static void test_exported_pdu_records(void)
{
    /* The name padded to 12 as Wireshark writes it, or exactly 10 long. */
    static const uint8_t padded[] = {0x00, 0x0c, 0x00, 0x0c, 'i', 'n', 'f',
                                     'i',  'n',  'i',  'b',  'a', 'n', 'd',
                                     0,    0,    0x00, 0x00, 0x00, 0x00, 0x42};
    struct cap_frame fr = locate(252, padded, sizeof padded, sizeof padded);
    TU_CHECK(fr.iba == padded + 20 && fr.iba_len == 1);
    TU_EQ(fr.link, IBW_LINK_IB);
    static const uint8_t heur[] = {0x00, 0x0d, 0x00, 0x0a, 'i', 'n', 'f', 'i',
                                   'n',  'i',  'b',  'a',  'n', 'd', 0x00,
                                   0x00, 0x00, 0x00, 0x42, 0x43};
    fr = locate(252, heur, sizeof heur, sizeof heur);
    TU_CHECK(fr.iba == heur + 18 && fr.iba_len == 2);
    static const uint8_t other[] = {0x00, 0x0c, 0x00, 0x04, 'e', 't', 'h', 0,
                                    0x00, 0x00, 0x00, 0x00, 0x42};
    fr = locate(252, other, sizeof other, sizeof other);
    TU_CHECK(fr.iba == NULL && fr.not_iba != NULL);
    /* no end-of-options tag; a tag longer than the record */
    fr = locate(252, padded, 16, 16);
    TU_CHECK(fr.iba == NULL && fr.not_iba != NULL);
    static const uint8_t overlong[] = {0x00, 0x0c, 0x00, 0x40, 'i', 'n'};
    fr = locate(252, overlong, sizeof overlong, sizeof overlong);
    TU_CHECK(fr.iba == NULL && fr.not_iba != NULL);
}

static void pcap_header(uint8_t *h, uint32_t linktype)
{
    static const uint8_t hdr[24] = {0xd4, 0xc3, 0xb2, 0xa1, 2, 0, 4, 0,
                                    0,    0,    0,    0,    0, 0, 0, 0,
                                    0xff, 0xff, 0,    0};
    memcpy(h, hdr, 24);
    ibw_store_le32(h + 20, linktype);
}

static void test_bad_files(void)
{
    char err[1024];
    uint8_t buf[128];

    TU_CHECK(cap_open(tmp_path("missing.pcap"), err, sizeof err) == NULL);
    TU_CHECK(strstr(err, "missing.pcap") && strstr(err, "No such file"));

    spit(tmp_path("empty.pcap"), "", 0);
    TU_CHECK(cap_open(tmp_path("empty.pcap"), err, sizeof err) == NULL);
    TU_CHECK(strstr(err, "empty.pcap") && strstr(err, "empty"));

    spit(tmp_path("garbage.pcap"), "this is not a capture file at all", 33);
    TU_CHECK(cap_open(tmp_path("garbage.pcap"), err, sizeof err) == NULL);
    TU_CHECK(strstr(err, "garbage.pcap") && strstr(err, "not a readable"));

    pcap_header(buf, 105); /* IEEE 802.11 */
    spit(tmp_path("wifi.pcap"), buf, 24);
    TU_CHECK(cap_open(tmp_path("wifi.pcap"), err, sizeof err) == NULL);
    TU_CHECK(strstr(err, "wifi.pcap") && strstr(err, "link type 105"));

    /* A record that claims 100 bytes, 6 present: damaged after frame 1. */
    pcap_header(buf, 1);
    static const uint8_t rec_ok[] = {0, 0, 0, 0, 0, 0, 0, 0,
                                     2, 0, 0, 0, 2, 0, 0, 0, 0xaa, 0xbb};
    static const uint8_t rec_cut[] = {0, 0, 0, 0, 0, 0, 0, 0, 100, 0, 0, 0,
                                      100, 0, 0, 0, 1, 2, 3, 4, 5, 6};
    memcpy(buf + 24, rec_ok, sizeof rec_ok);
    memcpy(buf + 24 + sizeof rec_ok, rec_cut, sizeof rec_cut);
    spit(tmp_path("cut.pcap"), buf, 24 + sizeof rec_ok + sizeof rec_cut);
    struct cap_reader *r = cap_open(tmp_path("cut.pcap"), err, sizeof err);
    TU_CHECK(r != NULL);
    if (r) {
        struct cap_frame fr;
        TU_EQ(cap_next(r, &fr), 1);
        TU_EQ(fr.caplen, 2);
        TU_EQ(cap_next(r, &fr), -1);
        TU_CHECK(strstr(cap_error(r), "cut.pcap") &&
                 strstr(cap_error(r), "after frame 1"));
        cap_close(r);
    }

    /* Cut at capture: caplen 2 of len 60. */
    static const uint8_t rec_snap[] = {0, 0, 0, 0, 0, 0, 0, 0,
                                       2, 0, 0, 0, 60, 0, 0, 0, 0xaa, 0xbb};
    memcpy(buf + 24, rec_snap, sizeof rec_snap);
    spit(tmp_path("snap.pcap"), buf, 24 + sizeof rec_snap);
    r = cap_open(tmp_path("snap.pcap"), err, sizeof err);
    TU_CHECK(r != NULL);
    if (r) {
        struct cap_frame fr;
        TU_EQ(cap_next(r, &fr), 1);
        TU_EQ(fr.truncated, 1);
        TU_EQ(fr.caplen, 2);
        TU_EQ(fr.origlen, 60);
        TU_EQ(fr.wire_len, 60);
        TU_EQ(cap_next(r, &fr), 0);
        cap_close(r);
    }
}

/* Read the n-frame file `name`: frame i is dated sec[i] s + nsec[i] ns. */
static void expect_times(const char *name, size_t n, const int64_t *sec,
                         const uint32_t *nsec)
{
    char err[1024];
    struct cap_reader *r = cap_open(tmp_path(name), err, sizeof err);
    TU_CHECK(r != NULL);
    if (!r)
        return;
    struct cap_frame fr;
    for (size_t i = 0; i < n; i++) {
        TU_EQ(cap_next(r, &fr), 1);
        TU_EQ(fr.ts_sec, sec[i]);
        TU_EQ(fr.ts_nsec, nsec[i]);
    }
    TU_EQ(cap_next(r, &fr), 0);
    cap_close(r);
}

/*
 * Classic pcap seconds are unsigned 32-bit: 0x80000000 is 2038-01-19
 * 03:14:08 UTC and 0xFFFFFFFF is 2106-02-07 06:28:15, never before 1970,
 * whichever byte order the file has (libpcap sign-extends native-order
 * seconds).  The writer writes them so, and refuses a time past 2^32 - 1 s
 * in classic pcap and ERF; pcapng's 64-bit time holds it.
 */
static void test_seconds_past_2038(void)
{
    static const int64_t sec[2] = {INT64_C(2147483648), INT64_C(4294967295)};
    static const uint32_t nsec[2] = {0, 999999000u};
    /* little-endian, microsecond magic d4 c3 b2 a1, link type 247 */
    static const uint8_t le[24 + 2 * 20] = {
        0xd4, 0xc3, 0xb2, 0xa1, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0xff, 0xff, 0, 0, 0xf7, 0, 0, 0,
        0x00, 0x00, 0x00, 0x80, 0, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0,
        0xde, 0xad, 0xbe, 0xef,
        /* 999999 us = 0x000F423F */
        0xff, 0xff, 0xff, 0xff, 0x3f, 0x42, 0x0f, 0x00, 4, 0, 0, 0, 4, 0, 0, 0,
        0xde, 0xad, 0xbe, 0xef};
    /* the same, big-endian */
    static const uint8_t be[24 + 2 * 20] = {
        0xa1, 0xb2, 0xc3, 0xd4, 0, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0xff, 0xff, 0, 0, 0, 0xf7,
        0x80, 0x00, 0x00, 0x00, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 4,
        0xde, 0xad, 0xbe, 0xef,
        0xff, 0xff, 0xff, 0xff, 0x00, 0x0f, 0x42, 0x3f, 0, 0, 0, 4, 0, 0, 0, 4,
        0xde, 0xad, 0xbe, 0xef};
    spit(tmp_path("t2038le.pcap"), le, sizeof le);
    expect_times("t2038le.pcap", 2, sec, nsec);
    spit(tmp_path("t2038be.pcap"), be, sizeof be);
    expect_times("t2038be.pcap", 2, sec, nsec);

    /* Written (2^31 s + 1 ns): seconds 00 00 00 80, ns 01 00 00 00. */
    static const uint8_t want_rec[8] = {0, 0, 0, 0x80, 1, 0, 0, 0};
    struct cap_writer *w = scratch_writer("t2038w.pcap", CAP_FORMAT_PCAP, 247);
    if (!w)
        return;
    TU_EQ(cap_write(w, UINT64_C(2147483648000000001), frame4, 4, NULL), 0);
    TU_EQ(cap_write(w, UINT64_C(4294967296000000000), frame4, 4, NULL), -1);
    TU_EQ(cap_writer_close(w), 0);
    check_file("t2038w.pcap", 24 + 16 + 4, 24, want_rec, sizeof want_rec);
    static const uint32_t one_ns[1] = {1};
    expect_times("t2038w.pcap", 1, sec, one_ns);

    /* pcapng: 2^32 s is written and read back; ERF refuses it. */
    w = scratch_writer("t2106.pcapng", CAP_FORMAT_PCAPNG, 247);
    if (!w)
        return;
    TU_EQ(cap_write(w, UINT64_C(4294967296000000007), frame4, 4, NULL), 0);
    TU_EQ(cap_writer_close(w), 0);
    static const int64_t sec2106[1] = {INT64_C(4294967296)};
    static const uint32_t seven_ns[1] = {7};
    expect_times("t2106.pcapng", 1, sec2106, seven_ns);
    w = scratch_writer("t2106.pcapng", CAP_FORMAT_PCAPNG, 197);
    if (!w)
        return;
    TU_EQ(cap_write(w, UINT64_C(4294967296000000007), frame4, 4, NULL), -1);
    TU_EQ(cap_writer_close(w), 0);
}

/* ---- cap_ts_ordered: the time order of a mapped file ---- */

static size_t put32le(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
    return 4;
}

/* Ethernet / IPv4 with protocol proto (total length tl) at p: 34 bytes. */
static size_t eth_ip4(uint8_t *p, unsigned proto, unsigned tl)
{
    memset(p, 0, 34);
    p[5] = 1;
    p[11] = 2;
    p[12] = 0x08; /* IPv4 */
    p[14] = 0x45;
    p[16] = (uint8_t)(tl >> 8);
    p[17] = (uint8_t)tl;
    p[22] = 64;
    p[23] = (uint8_t)proto;
    return 34;
}

/* A 60-byte Ethernet / IPv4 / UDP to port 4791 frame. */
static size_t plain_frame(uint8_t *p)
{
    size_t n = eth_ip4(p, 17, 46);
    memset(p + n, 0, 26);
    p[n + 2] = 0x12; /* 4791 */
    p[n + 3] = 0xB7;
    return 60;
}

/* ERSPAN III (GRE 0x22EB with a sequence number, ver 2, gra 1: 100 ns
 * units) carrying a plain frame mirrored at ts100 (100 ns units). */
static size_t erspan3_frame(uint8_t *p, uint32_t ts100)
{
    size_t n = eth_ip4(p, 47, 20 + 8 + 12 + 60);
    static const uint8_t gre[8] = {0x10, 0x00, 0x22, 0xEB, 0, 0, 0, 1};
    memcpy(p + n, gre, 8);
    n += 8;
    uint8_t *e = p + n;
    memset(e, 0, 12);
    e[0] = 0x20; /* ver 2 */
    e[3] = 9;    /* session */
    e[4] = (uint8_t)(ts100 >> 24);
    e[5] = (uint8_t)(ts100 >> 16);
    e[6] = (uint8_t)(ts100 >> 8);
    e[7] = (uint8_t)ts100;
    e[11] = 0x12; /* hw 1, gra 1 */
    n += 12;
    return n + plain_frame(p + n);
}

/* A little-endian microsecond pcap on Ethernet of n records: record k
 * stamped sec[k].usec[k], carrying erspan[k] ? an ERSPAN III frame with
 * that timestamp : a plain frame. */
static const char *ordered_file(const char *name, unsigned n,
                                const uint32_t *sec, const uint32_t *usec,
                                const uint32_t *erspan)
{
    static uint8_t img[24 + 4 * (16 + 160)];
    size_t k = 0;
    k += put32le(img + k, 0xa1b2c3d4u);
    img[k++] = 2, img[k++] = 0, img[k++] = 4, img[k++] = 0;
    k += put32le(img + k, 0);
    k += put32le(img + k, 0);
    k += put32le(img + k, 65535);
    k += put32le(img + k, 1);
    for (unsigned i = 0; i < n; i++) {
        uint8_t *h = img + k;
        k += 16;
        size_t len = erspan[i] ? erspan3_frame(img + k, erspan[i])
                               : plain_frame(img + k);
        k += len;
        put32le(h, sec[i]);
        put32le(h + 4, usec[i]);
        put32le(h + 8, (uint32_t)len);
        put32le(h + 12, (uint32_t)len);
    }
    spit(tmp_path(name), img, k);
    return tmp_path(name);
}

static int ordered_of(const char *path, int read_first)
{
    char err[256];
    struct cap_reader *r = cap_open(path, err, sizeof err);
    TU_CHECK(r != NULL);
    if (!r)
        return -1;
    struct cap_frame fr;
    if (read_first)
        TU_CHECK(cap_next(r, &fr) == 1);
    int o = cap_ts_ordered(r);
    TU_CHECK(cap_ts_ordered(r) == o); /* asked again: the same */
    cap_close(r);
    return o;
}

static void test_ts_ordered(void)
{
    static const uint32_t none[3] = {0, 0, 0};
    /* plain frames: equal stamps keep the order, one going back does not */
    uint32_t sec[3] = {1, 1, 1}, up[3] = {1, 2, 2}, back[3] = {2, 1, 3};
    TU_CHECK(ordered_of(ordered_file("ord.pcap", 3, sec, up, none), 0) == 1);
    TU_CHECK(ordered_of(ordered_file("ord.pcap", 3, sec, back, none), 0) == 0);
    /* not asked before the first frame: cannot tell */
    TU_CHECK(ordered_of(ordered_file("ord.pcap", 3, sec, up, none), 1) == 0);
    /* ERSPAN III in 100 ns units refines a microsecond record time to the
     * mirror's, within a microsecond (t >= 2^32 * 100 ns: 1000 s).  The
     * records 1 us apart and in order; the second mirrored 900 ns before
     * its record time, the first 500 ns after: the second is earlier. */
    uint64_t ta = 1000000010000ull, tb = ta + 1000; /* ns */
    uint32_t s2[2] = {1000, 1000}, u2[2] = {10, 11};
    uint32_t back_ts[2] = {(uint32_t)((ta + 500) / 100),
                           (uint32_t)((tb - 900) / 100)};
    const char *f = ordered_file("ord.pcap", 2, s2, u2, back_ts);
    char err[256];
    struct cap_reader *r = cap_open(f, err, sizeof err);
    TU_CHECK(r != NULL);
    struct cap_frame fr;
    if (r) { /* the refinement this test stands on */
        TU_CHECK(cap_next(r, &fr) == 1 && fr.ts_sec == 1000 &&
                 fr.ts_nsec == 10500);
        TU_CHECK(cap_next(r, &fr) == 1 && fr.ts_sec == 1000 &&
                 fr.ts_nsec == 10100);
        cap_close(r);
    }
    TU_CHECK(ordered_of(f, 0) == 0);
    uint32_t fwd_ts[2] = {(uint32_t)((ta + 500) / 100),
                          (uint32_t)((tb + 200) / 100)};
    TU_CHECK(ordered_of(ordered_file("ord.pcap", 2, s2, u2, fwd_ts), 0) == 1);
    /* a plain frame after the mirrored ones, stamped between them */
    uint32_t s3[3] = {1000, 1000, 1000}, u3[3] = {10, 11, 11};
    uint32_t mix[3] = {fwd_ts[0], fwd_ts[1], 0};
    TU_CHECK(ordered_of(ordered_file("ord.pcap", 3, s3, u3, mix), 0) == 0);
}

int main(void)
{
    if (scratch_dir_create("ibw-captest") != 0)
        return 1;
    test_writer_pcap_247();
    test_writer_pcap_erf();
    test_writer_pcap_exported();
    test_writer_pcapng_comment();
    test_writer_refuses();
    test_round_trip();
    test_erf_records();
    test_exported_pdu_records();
    test_bad_files();
    test_seconds_past_2038();
    test_ts_ordered();
    static const char *const files[] = {
        "w247.pcap", "werf.pcap", "w252.pcap", "wc.pcapng", "rt.cap",
        "empty.pcap", "garbage.pcap", "wifi.pcap", "cut.pcap", "snap.pcap",
        "t2038le.pcap", "t2038be.pcap", "t2038w.pcap", "t2106.pcapng",
        "ord.pcap"};
    scratch_dir_remove(files, sizeof files / sizeof files[0]);
    return tu_done("capture");
}
