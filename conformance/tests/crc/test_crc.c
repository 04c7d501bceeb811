/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_crc - the ICRC/VCRC arithmetic of crc.h (catalog W13) against
 * references that do not share its code:
 *   - published check values ("123456789" and friends);
 *   - zlib's crc32() (when built with zlib) and a bit-at-a-time CRC-32
 *     written here, over every length 0..1024 at random alignments, random
 *     starting values and random chunkings, for the dispatched path
 *     (PCLMULQDQ where the CPU has it) and the portable path;
 *   - a bit-at-a-time CRC-16 written here for the VCRC;
 *   - with --capture FILE: the VCRC of every frame of a real native-IB
 *     capture (pcap, link type 197 ERF) must verify; exit 77 when the file
 *     is absent.
 */
#include <errno.h>
#include <stdlib.h>

#include <ibwire/crc.h>

#include "testutil.h"
#include "xorshift.h"

#ifdef TEST_HAVE_ZLIB
#include <zlib.h>
#endif

/* The definitions, one bit at a time (reflected register, shift right). */
static uint32_t ref_crc32(uint32_t crc, const uint8_t *p, size_t len)
{
    uint32_t c = ~crc;
    for (size_t i = 0; i < len; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++)
            c = (c & 1u) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
    }
    return ~c;
}

static uint16_t ref_vcrc(const uint8_t *p, size_t len)
{
    uint32_t c = 0xFFFFu;
    for (size_t i = 0; i < len; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++)
            c = (c & 1u) ? (c >> 1) ^ 0xD008u : c >> 1; /* 0x100B reflected */
    }
    return (uint16_t)(c ^ 0xFFFFu);
}

/* Deterministic xorshift64 so failures reproduce. */
static uint64_t rng_state = 0x9E3779B97F4A7C15u;
static uint32_t rng(void)
{
    return (uint32_t)(xorshift64_next(&rng_state) >> 32);
}

static uint32_t zlib_crc32(uint32_t crc, const uint8_t *p, size_t len)
{
#ifdef TEST_HAVE_ZLIB
    return (uint32_t)crc32((uLong)crc, p, (uInt)len);
#else
    return ref_crc32(crc, p, len);
#endif
}

/* ibw_crc32 over p in random pieces, chained. */
static uint32_t crc32_chunked(uint32_t crc, const uint8_t *p, size_t len)
{
    while (len > 0) {
        size_t piece = rng() % (len + 1);
        if (rng() % 4 == 0)
            piece = len < 16 ? len : rng() % 16; /* short pieces too */
        crc = ibw_crc32(crc, p, piece);
        p += piece;
        len -= piece;
    }
    return crc;
}

static void test_check_values(void)
{
    static const char digits[] = "123456789";
    static const char fox[] = "The quick brown fox jumps over the lazy dog";

    /* CRC-32/ISO-HDLC check value (the catalogued "check" of the zlib CRC). */
    TU_EQ(ibw_crc32(0, digits, 9), 0xCBF43926u);
    TU_EQ(ibw_crc32_portable(0, digits, 9), 0xCBF43926u);
    TU_EQ(ref_crc32(0, (const uint8_t *)digits, 9), 0xCBF43926u);
    TU_EQ(ibw_crc32(ibw_crc32(0, digits, 4), digits + 4, 5), 0xCBF43926u);
    /* Widely published values of the same CRC. */
    TU_EQ(ibw_crc32(0, "a", 1), 0xE8B7BE43u);
    TU_EQ(ibw_crc32(0, fox, sizeof fox - 1), 0x414FA339u);
    TU_EQ(ibw_crc32(0, NULL, 0), 0);
    TU_EQ(ibw_crc32(0x12345678u, NULL, 0), 0x12345678u);

    /* VCRC check value 0x0A3D: from a separate bit-at-a-time Python model,
     * c=0xFFFF; per byte c^=b, 8x (c>>1)^0xD008 if c&1 else c>>1; c^0xFFFF. */
    TU_EQ(ibw_vcrc(digits, 9), 0x0A3D);
    TU_EQ(ref_vcrc((const uint8_t *)digits, 9), 0x0A3D);
    TU_EQ(ibw_crc16_update(ibw_crc16_update(0xFFFF, digits, 3), digits + 3, 6) ^
              0xFFFFu,
          0x0A3D);
    TU_EQ(ibw_vcrc(NULL, 0), 0);
}

/*
 * Every length 0..1024, each at a random offset inside an allocation that
 * ends exactly where the data ends (ASan sees any over-read): both CRCs,
 * whole and in pieces.
 */
static void test_all_lengths(void)
{
    for (size_t len = 0; len <= 1024; len++) {
        size_t off = rng() % 16;
        uint8_t *block = malloc(off + len > 0 ? off + len : 1);
        if (!block) {
            TU_CHECK(block != NULL);
            return;
        }
        uint8_t *p = block + off;
        for (size_t i = 0; i < len; i++)
            p[i] = (uint8_t)rng();

        uint32_t seed = (len % 3 == 0) ? 0 : rng();
        uint32_t want = zlib_crc32(seed, p, len);
        TU_EQ(ibw_crc32(seed, p, len), want);
        TU_EQ(ibw_crc32_portable(seed, p, len), want);
        TU_EQ(ref_crc32(seed, p, len), want);
        TU_EQ(crc32_chunked(seed, p, len), want);

        uint16_t want16 = ref_vcrc(p, len);
        TU_EQ(ibw_vcrc(p, len), want16);
        size_t cut = len ? rng() % len : 0;
        uint16_t c = ibw_crc16_update(0xFFFF, p, cut);
        c = ibw_crc16_update(c, p + cut, len - cut);
        TU_EQ(c ^ 0xFFFFu, want16);
        free(block);
    }
}

/* Every alignment for the lengths around the folding thresholds, and long
 * buffers that run the four-lane loop many times. */
static void test_crc32_alignments_and_long(void)
{
    enum { BIG = 70000 + 64 };
    uint8_t *buf = malloc(BIG);
    if (!buf) {
        TU_CHECK(buf != NULL);
        return;
    }
    for (size_t i = 0; i < BIG; i++)
        buf[i] = (uint8_t)rng();
    for (size_t off = 0; off < 16; off++)
        for (size_t len = 48; len <= 160; len++) {
            uint32_t seed = rng();
            uint32_t want = zlib_crc32(seed, buf + off, len);
            TU_EQ(ibw_crc32(seed, buf + off, len), want);
            TU_EQ(ibw_crc32_portable(seed, buf + off, len), want);
        }
    static const size_t longs[] = {4096, 4097, 4111, 4159, 65536, 65536 + 63,
                                   70000};
    for (size_t i = 0; i < sizeof longs / sizeof longs[0]; i++) {
        size_t off = rng() % 64, len = longs[i];
        uint32_t seed = rng();
        uint32_t want = zlib_crc32(seed, buf + off, len);
        TU_EQ(ibw_crc32(seed, buf + off, len), want);
        TU_EQ(ibw_crc32_portable(seed, buf + off, len), want);
        TU_EQ(crc32_chunked(seed, buf + off, len), want);
    }
    /* All-zero and all-ones data: structured inputs a folding slip shows. */
    memset(buf, 0, 4096);
    TU_EQ(ibw_crc32(0, buf, 4096), zlib_crc32(0, buf, 4096));
    TU_EQ(ibw_crc32(0xFFFFFFFFu, buf, 4096), zlib_crc32(0xFFFFFFFFu, buf, 4096));
    memset(buf, 0xFF, 4096);
    TU_EQ(ibw_crc32(0, buf, 4096), zlib_crc32(0, buf, 4096));
    free(buf);
}

/* ------------------------------------------------------------------------ */
/* The capture: pcap of ERF records carrying native IB packets               */
/* ------------------------------------------------------------------------ */

enum { PCAP_LINKTYPE_ERF = 197, ERF_TYPE_INFINIBAND = 21, ERF_HDR = 16 };

static uint32_t pcap_u32(const uint8_t *p, int swapped)
{
    return swapped ? ibw_load_be32(p) : ibw_load_le32(p);
}

/* Locate the IB packet (LRH..VCRC) inside one ERF record; 0 on a
 * malformed record, with the reason printed. */
static int erf_packet(const uint8_t *rec, size_t caplen, unsigned frame,
                      size_t *off, size_t *len)
{
    if (caplen < ERF_HDR) {
        fprintf(stderr, "frame %u: ERF header truncated (%zu bytes)\n", frame,
                caplen);
        return 0;
    }
    unsigned type = rec[8];
    size_t hdr = ERF_HDR;
    /* Extension headers: 8 bytes each while the "more" bit is set. */
    for (int more = (type & 0x80u) != 0; more; hdr += 8) {
        if (hdr + 8 > caplen) {
            fprintf(stderr, "frame %u: ERF extension header truncated\n", frame);
            return 0;
        }
        more = (rec[hdr] & 0x80u) != 0;
    }
    if ((type & 0x7Fu) != ERF_TYPE_INFINIBAND) {
        fprintf(stderr, "frame %u: ERF type %u, not InfiniBand\n", frame,
                type & 0x7Fu);
        return 0;
    }
    size_t wlen = ibw_load_be16(rec + 14);
    if (wlen > caplen - hdr || wlen < 8 + 2) { /* LRH + VCRC at least */
        fprintf(stderr, "frame %u: wire length %zu vs %zu captured\n", frame,
                wlen, caplen - hdr);
        return 0;
    }
    *off = hdr;
    *len = wlen;
    return 1;
}

/* The VCRC carried in the last two bytes, least significant byte first. */
static uint16_t wire_vcrc(const uint8_t *pkt, size_t len)
{
    return (uint16_t)(pkt[len - 2] | (unsigned)pkt[len - 1] << 8);
}

static int test_capture(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (errno == ENOENT) {
            printf("SKIP: %s absent; VCRC capture check not run\n", path);
            return 77;
        }
        perror(path);
        return 1;
    }
    uint8_t gh[24];
    if (fread(gh, 1, sizeof gh, f) != sizeof gh) {
        fprintf(stderr, "%s: short pcap header\n", path);
        fclose(f);
        return 1;
    }
    uint32_t magic = ibw_load_le32(gh);
    int swapped;
    if (magic == 0xA1B2C3D4u || magic == 0xA1B23C4Du)
        swapped = 0;
    else if (magic == 0xD4C3B2A1u || magic == 0x4D3CB2A1u)
        swapped = 1;
    else {
        fprintf(stderr, "%s: not a pcap file (magic %08x)\n", path, magic);
        fclose(f);
        return 1;
    }
    uint32_t linktype = pcap_u32(gh + 20, swapped) & 0xFFFFu;
    TU_EQ(linktype, PCAP_LINKTYPE_ERF);

    static uint8_t rec[262144];
    unsigned frames = 0, good = 0, corrupted_caught = 0;
    uint8_t rh[16];
    while (fread(rh, 1, sizeof rh, f) == sizeof rh) {
        size_t caplen = pcap_u32(rh + 8, swapped);
        if (caplen > sizeof rec || fread(rec, 1, caplen, f) != caplen) {
            fprintf(stderr, "frame %u: record length %zu unreadable\n",
                    frames + 1, caplen);
            TU_CHECK(0);
            break;
        }
        frames++;
        size_t off, len;
        if (!erf_packet(rec, caplen, frames, &off, &len)) {
            TU_CHECK(0);
            continue;
        }
        uint8_t *pkt = rec + off;
        uint16_t want = wire_vcrc(pkt, len);
        TU_EQ(ref_vcrc(pkt, len - 2), want);
        TU_EQ(ibw_vcrc(pkt, len - 2), want);
        if (ibw_vcrc(pkt, len - 2) != want)
            continue;
        good++;
        /* One flipped bit before the VCRC must break it. */
        size_t bit = rng() % ((len - 2) * 8);
        pkt[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        corrupted_caught += ibw_vcrc(pkt, len - 2) != want;
    }
    fclose(f);
    printf("%s: %u frames, %u VCRCs verified\n", path, frames, good);
    /* PROVENANCE.md: 43 frames, VCRC valid on all of them. */
    TU_EQ(frames, 43);
    TU_EQ(good, frames);
    TU_EQ(corrupted_caught, good);
    return -1;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--capture") == 0) {
        int skip_or_fail = test_capture(argv[2]);
        if (skip_or_fail >= 0)
            return skip_or_fail;
        return tu_done("vcrc_capture");
    }
    printf("CRC-32 path: %s; zlib: %s\n",
           ibw_crc32_has_clmul() ? "PCLMULQDQ folding + slicing-by-8"
                                 : "slicing-by-8",
#ifdef TEST_HAVE_ZLIB
           zlibVersion()
#else
           "absent (bitwise reference only)"
#endif
    );
    test_check_values();
    test_all_lengths();
    test_crc32_alignments_and_long();
    return tu_done("crc");
}
