/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_capture_cut.c - cap_write_cut(): frames cut by a snap length.
 *
 * The record layouts are compared with images written here from the format
 * descriptions (pcap record header: ts_sec, ts_nsec, incl_len, orig_len;
 * pcapng EPB: captured and original packet length; ERF: rlen counts the
 * record, wlen the wire frame), and the files are read back with libpcap
 * itself, not with ibwire's reader, so the lengths are what every pcap
 * tool will see.
 */
#include <pcap/pcap.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "scratch_dir.h"
#include "testutil.h"

static uint8_t frame[300];
#define TS 1500000000ull /* 1.5 s */

/* One frame of 300 bytes written cut to 128 (origlen 300), then the same
 * frame uncut as a second record. */
static int write_file(const char *name, enum cap_file_format fmt, int lt,
                      size_t origlen)
{
    struct cap_writer *w = scratch_writer(name, fmt, lt);
    if (!w)
        return -1;
    TU_EQ(cap_write_cut(w, TS, frame, 128, origlen, "cut"), 0);
    TU_EQ(cap_write(w, TS + 1000, frame, sizeof frame, NULL), 0);
    return cap_writer_close(w);
}

/* libpcap's view: each record's caplen, len and first caplen bytes. */
static void libpcap_lengths(const char *name, uint32_t cap0, uint32_t len0,
                            uint32_t cap1, uint32_t len1, size_t skip)
{
    char err[PCAP_ERRBUF_SIZE];
    pcap_t *p = pcap_open_offline(tmp_path(name), err);
    TU_CHECK(p != NULL);
    if (!p) {
        fprintf(stderr, "%s: %s\n", name, err);
        return;
    }
    struct pcap_pkthdr *h;
    const u_char *d;
    TU_EQ(pcap_next_ex(p, &h, &d), 1);
    TU_EQ(h->caplen, cap0);
    TU_EQ(h->len, len0);
    TU_MEMEQ(d + skip, frame, cap0 - skip);
    TU_EQ(pcap_next_ex(p, &h, &d), 1);
    TU_EQ(h->caplen, cap1);
    TU_EQ(h->len, len1);
    TU_MEMEQ(d + skip, frame, cap1 - skip);
    TU_EQ(pcap_next_ex(p, &h, &d), PCAP_ERROR_BREAK); /* end of file */
    pcap_close(p);
}

static void test_pcap(void)
{
    TU_EQ(write_file("c.pcap", CAP_FORMAT_PCAP, CAP_LINKTYPE_ETHERNET, 300), 0);
    uint8_t got[1024];
    size_t n = slurp(tmp_path("c.pcap"), got, sizeof got);
    /* 24-byte file header, record 1: 16 + 128, record 2: 16 + 300 */
    TU_EQ(n, 24 + 16 + 128 + 16 + 300);
    static const uint8_t rec1[16] = {
        0x01, 0, 0, 0,            /* 1 s */
        0x00, 0x65, 0xcd, 0x1d,   /* 500000000 ns */
        0x80, 0, 0, 0,            /* incl_len 128 */
        0x2c, 0x01, 0, 0};        /* orig_len 300 */
    TU_MEMEQ(got + 24, rec1, 16);
    TU_MEMEQ(got + 40, frame, 128);
    libpcap_lengths("c.pcap", 128, 300, 300, 300, 0);
}

static void test_pcapng(void)
{
    TU_EQ(write_file("c.pcapng", CAP_FORMAT_PCAPNG, CAP_LINKTYPE_ETHERNET, 300), 0);
    uint8_t got[1024];
    size_t n = slurp(tmp_path("c.pcapng"), got, sizeof got);
    /* SHB 28, IDB 32, then the EPB: type, block length, interface,
     * ts high, ts low, captured length, original length */
    TU_CHECK(n > 60 + 28);
    static const uint8_t epb_lens[8] = {0x80, 0, 0, 0, 0x2c, 0x01, 0, 0};
    TU_EQ(got[60], 6); /* EPB */
    /* 28 + 128 (already a multiple of 4) + comment option (4 + "cut" 3 +
     * 1 pad) + end of options 4 + trailing length 4 */
    TU_EQ(got[64] | got[65] << 8, 28 + 128 + 8 + 4 + 4);
    TU_MEMEQ(got + 60 + 20, epb_lens, 8);
    libpcap_lengths("c.pcapng", 128, 300, 300, 300, 0);
}

static void test_erf(void)
{
    TU_EQ(write_file("c-erf.pcap", CAP_FORMAT_PCAP, CAP_LINKTYPE_ERF, 300), 0);
    uint8_t got[1024];
    slurp(tmp_path("c-erf.pcap"), got, sizeof got);
    /* pcap record: incl 16 + 128, orig 16 + 300 (the ERF header is not
     * cut); ERF header at 40: rlen (bytes 10..11) 144, wlen (14..15) 300,
     * big-endian */
    TU_EQ(got[32] | got[33] << 8, 144);
    TU_EQ(got[36] | got[37] << 8, 316);
    TU_EQ(got[40 + 8], CAP_ERF_TYPE_INFINIBAND);
    TU_EQ(got[40 + 10] << 8 | got[40 + 11], 144);
    TU_EQ(got[40 + 14] << 8 | got[40 + 15], 300);
    libpcap_lengths("c-erf.pcap", 144, 316, 316, 316, 16);
}

/* origlen == len: the cut is not recorded; the bytes are those cap_write
 * gives for the 128 bytes. */
static void test_unrecorded(void)
{
    TU_EQ(write_file("u.pcap", CAP_FORMAT_PCAP, CAP_LINKTYPE_ETHERNET, 128), 0);
    struct cap_writer *w =
        scratch_writer("v.pcap", CAP_FORMAT_PCAP, CAP_LINKTYPE_ETHERNET);
    if (!w)
        return;
    TU_EQ(cap_write(w, TS, frame, 128, NULL), 0);
    TU_EQ(cap_write(w, TS + 1000, frame, sizeof frame, NULL), 0);
    TU_EQ(cap_writer_close(w), 0);
    uint8_t a[1024], b[1024];
    size_t na = slurp(tmp_path("u.pcap"), a, sizeof a);
    size_t nb = slurp(tmp_path("v.pcap"), b, sizeof b);
    TU_EQ(na, nb);
    TU_MEMEQ(a, b, na < nb ? na : nb);
    libpcap_lengths("u.pcap", 128, 128, 300, 300, 0);
}

static void test_refuses(void)
{
    struct cap_writer *w =
        scratch_writer("r.pcap", CAP_FORMAT_PCAP, CAP_LINKTYPE_ERF);
    if (!w)
        return;
    /* more bytes than the frame had */
    TU_EQ(cap_write_cut(w, TS, frame, 128, 127, NULL), -1);
    /* ERF wlen is 16 bits */
    TU_EQ(cap_write_cut(w, TS, frame, 128, 0x10000, NULL), -1);
    TU_EQ(cap_write_cut(w, TS, frame, 128, 0xFFFF, NULL), 0);
    TU_EQ(cap_writer_close(w), 0);
}

int main(void)
{
    for (size_t i = 0; i < sizeof frame; i++)
        frame[i] = (uint8_t)(i * 11 + 3);
    if (scratch_dir_create("ibw-cuttest") != 0)
        return 1;
    test_pcap();
    test_pcapng();
    test_erf();
    test_unrecorded();
    test_refuses();
    static const char *const files[] = {"c.pcap", "c.pcapng", "c-erf.pcap",
                                        "u.pcap", "v.pcap", "r.pcap"};
    scratch_dir_remove(files, sizeof files / sizeof files[0]);
    return tu_done("capture_cut");
}
