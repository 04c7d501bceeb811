/* SPDX-License-Identifier: Apache-2.0 */
/*
 * capture_pcapng.c - the pcapng reader, block by block.
 *
 * libpcap reads pcapng too, but refuses a file whose interfaces have
 * different link types (a capture from an Ethernet port and an InfiniBand
 * port), and a capture tool writes such files.  This reader keeps every
 * Interface Description Block of every section (link type, snap length,
 * if_tsresol, if_tsoffset, if_name) and returns each packet with its
 * interface's link type, in file order: one timeline for all interfaces.
 *
 * Blocks: SHB (byte order per section), IDB, EPB, SPB (interface 0, no
 * time), the obsolete Packet Block; every other block is skipped (by
 * seeking when the file allows it, so a huge block costs nothing).
 * Offsets and counts are 64-bit: files over 4 GiB read to their end.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "capture_int.h"

enum {
    NG_SHB = 0x0A0D0D0A,
    NG_IDB = 0x00000001,
    NG_PB = 0x00000002, /* obsolete Packet Block */
    NG_SPB = 0x00000003,
    NG_EPB = 0x00000006,
    NG_MAGIC = 0x1A2B3C4D,
    NG_MAGIC_SWAPPED = 0x4D3C2B1A,
    NG_OPT_END = 0,
    NG_IF_NAME = 2,
    NG_IF_TSRESOL = 9,
    NG_IF_TSOFFSET = 14,
    NG_MAX_IFACES = 65536
};

/* skip() seeks over blocks of up to 4 GiB, and files grow past 2^31 */
_Static_assert(sizeof(off_t) >= 8, "64-bit off_t (_FILE_OFFSET_BITS=64)");

/* Blocks read into memory (packets, interfaces, sections) may be this
 * long; longer ones are damage (libpcap's limit is 16 MiB). */
#define NG_MAX_BODY (64u << 20)

static uint32_t load32(const struct cap_reader *r, const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    if (r->swap)
        v = (v >> 24) | ((v >> 8) & 0xFF00u) | ((v << 8) & 0xFF0000u) |
            (v << 24);
    return v;
}

static uint16_t load16(const struct cap_reader *r, const uint8_t *p)
{
    uint16_t v;
    memcpy(&v, p, 2);
    if (r->swap)
        v = (uint16_t)((unsigned)(v >> 8) | ((unsigned)v << 8));
    return v;
}

static uint64_t load64_halves(const struct cap_reader *r, const uint8_t *p)
{
    /* packet timestamps: two 32-bit halves, high first */
    return ((uint64_t)load32(r, p) << 32) | load32(r, p + 4);
}

static uint64_t load64(const struct cap_reader *r, const uint8_t *p)
{
    uint64_t native;
    memcpy(&native, p, 8);
    if (!r->swap)
        return native;
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = (v << 8) | ((native >> (8 * i)) & 0xFFu);
    return v;
}

static int damaged(struct cap_reader *r, const char *why)
{
    snprintf(r->err, sizeof r->err,
             "%s: damaged capture after frame %llu (byte %llu): %s", r->path,
             (unsigned long long)r->count, (unsigned long long)r->offset, why);
    return -1;
}

/* Exactly n bytes: 1, or 0 at a clean end of file (nothing read). */
static int read_exact(struct cap_reader *r, void *p, size_t n, int eof_ok)
{
    size_t got = fread(p, 1, n, r->f);
    r->offset += got;
    if (got == n)
        return 1;
    if (got == 0 && eof_ok && feof(r->f))
        return 0;
    return damaged(r, ferror(r->f) ? strerror(errno)
                                   : "the file ends inside a block");
}

static int skip(struct cap_reader *r, uint64_t n)
{
    if (n <= (uint64_t)INT64_MAX && (off_t)n >= 0 &&
        fseeko(r->f, (off_t)n, SEEK_CUR) == 0) {
        r->offset += n;
        return 1;
    }
    uint8_t tmp[4096];
    while (n) {
        size_t k = n < sizeof tmp ? (size_t)n : sizeof tmp;
        if (read_exact(r, tmp, k, 0) != 1)
            return -1;
        n -= k;
    }
    return 1;
}

static int body_into_buf(struct cap_reader *r, size_t n)
{
    if (n > NG_MAX_BODY)
        return damaged(r, "block longer than 64 MiB");
    if (n > r->bufcap) {
        uint8_t *nb = realloc(r->buf, n);
        if (!nb)
            return damaged(r, "out of memory");
        r->buf = nb;
        r->bufcap = n;
    }
    return n ? read_exact(r, r->buf, n, 0) : 1;
}

int cap_add_iface(struct cap_reader *r, const struct cap_iface *ifc)
{
    if (r->nifs == r->capifs) {
        uint32_t n = r->capifs ? r->capifs * 2 : 4;
        struct cap_iface *ni = realloc(r->ifs, n * sizeof *ni);
        if (!ni)
            return -1;
        r->ifs = ni;
        r->capifs = n;
    }
    r->ifs[r->nifs++] = *ifc;
    return 0;
}

struct cap_reader *cap_new_pcap_reader(pcap_t *p, int lt, const char *name)
{
    struct cap_reader *r = calloc(1, sizeof *r);
    struct cap_iface one;
    memset(&one, 0, sizeof one);
    one.linktype = lt;
    one.units = 1000000000u;
    if (name)
        snprintf(one.name, sizeof one.name, "%s", name);
    if (!r || cap_add_iface(r, &one)) {
        free(r);
        return NULL;
    }
    r->pcap = p;
    r->linktype = lt;
    return r;
}

static int parse_idb(struct cap_reader *r, size_t n)
{
    const uint8_t *b = r->buf;
    if (n < 8)
        return damaged(r, "Interface Description Block too short");
    if (r->nifs >= NG_MAX_IFACES)
        return damaged(r, "more than 65536 interfaces");
    struct cap_iface ifc;
    memset(&ifc, 0, sizeof ifc);
    ifc.linktype = load16(r, b);
    ifc.snaplen = load32(r, b + 4);
    ifc.units = 1000000; /* default resolution: microseconds */
    size_t off = 8;
    while (off + 4 <= n) {
        uint16_t code = load16(r, b + off);
        uint16_t len = load16(r, b + off + 2);
        off += 4;
        if (code == NG_OPT_END)
            break;
        if (len > n - off)
            return damaged(r, "interface option runs past its block");
        const uint8_t *v = b + off;
        if (code == NG_IF_TSRESOL && len >= 1) {
            unsigned e = v[0] & 0x7Fu;
            if (v[0] & 0x80u) {
                if (e > 63)
                    return damaged(r, "if_tsresol beyond 2^-63");
                ifc.units = (uint64_t)1 << e;
            } else {
                if (e > 19)
                    return damaged(r, "if_tsresol beyond 10^-19");
                ifc.units = 1;
                while (e--)
                    ifc.units *= 10;
            }
        } else if (code == NG_IF_TSOFFSET && len == 8) {
            ifc.tsoffset = (int64_t)load64(r, v);
        } else if (code == NG_IF_NAME && len > 0) {
            size_t k = len < sizeof ifc.name - 1 ? len : sizeof ifc.name - 1;
            memcpy(ifc.name, v, k);
            ifc.name[k] = '\0';
        }
        off += len + (size_t)((4 - len % 4) % 4);
    }
    if (cap_add_iface(r, &ifc))
        return damaged(r, "out of memory");
    return 1;
}

/* One block's header (8 bytes, or 4 when the type was read already);
 * fills *type and *body (bytes between the length fields).  0 at a clean
 * end of the file. */
static int block_header(struct cap_reader *r, const uint8_t *pretype,
                        uint32_t *type, uint64_t *body)
{
    uint8_t h[12];
    int rc;
    if (pretype) {
        memcpy(h, pretype, 4);
        rc = read_exact(r, h + 4, 4, 0);
    } else {
        rc = read_exact(r, h, 8, 1);
    }
    if (rc != 1)
        return rc;
    memcpy(type, h, 4); /* NG_SHB reads the same in both orders */
    if (*type == NG_SHB) {
        if (read_exact(r, h + 8, 4, 0) != 1)
            return -1;
        uint32_t m;
        memcpy(&m, h + 8, 4);
        if (m == NG_MAGIC)
            r->swap = 0;
        else if (m == NG_MAGIC_SWAPPED)
            r->swap = 1;
        else
            return damaged(r, "section header with an unknown byte-order "
                              "magic");
    } else {
        *type = load32(r, h);
    }
    uint32_t len = load32(r, h + 4);
    if (len < 12 || len % 4)
        return damaged(r, "block length not a multiple of 4 of at least 12");
    *body = len - 12u;
    if (*type == NG_SHB) {
        if (*body < 4)
            return damaged(r, "section header block too short");
        *body -= 4; /* the magic, read already */
    }
    return 1;
}

/* The trailing copy of the block length. */
static int block_trailer(struct cap_reader *r)
{
    uint8_t t[4];
    return read_exact(r, t, 4, 0);
}

/* The next block of interest: 1 with a packet in *fr, 2 for an IDB or
 * SHB handled, 0 at the end, -1 damaged. */
static int one_block(struct cap_reader *r, const uint8_t *pretype,
                     struct cap_frame *fr)
{
    uint32_t type;
    uint64_t body;
    int rc = block_header(r, pretype, &type, &body);
    if (rc != 1)
        return rc;
    if (type != NG_SHB && type != NG_IDB && type != NG_EPB &&
        type != NG_SPB && type != NG_PB) {
        if (skip(r, body) != 1 || block_trailer(r) != 1)
            return -1;
        return 2;
    }
    if (body > NG_MAX_BODY)
        return damaged(r, "block longer than 64 MiB");
    if (body_into_buf(r, (size_t)body) != 1 || block_trailer(r) != 1)
        return -1;
    size_t n = (size_t)body;
    const uint8_t *b = r->buf;
    if (type == NG_SHB) {
        if (n < 12)
            return damaged(r, "section header block too short");
        if (load16(r, b) != 1)
            return damaged(r, "section header of a pcapng major version "
                              "other than 1");
        r->section_base = r->nifs;
        return 2;
    }
    if (type == NG_IDB)
        return parse_idb(r, n) < 0 ? -1 : 2;
    if (!fr)
        return damaged(r, "a packet before any Interface Description Block");
    uint32_t ifid, caplen, origlen;
    uint64_t ts = 0;
    size_t hdr;
    if (type == NG_SPB) {
        if (n < 4)
            return damaged(r, "simple packet block too short");
        ifid = 0;
        origlen = load32(r, b);
        hdr = 4;
        caplen = origlen;
        if (caplen > n - hdr)
            caplen = (uint32_t)(n - hdr);
    } else {
        size_t fixed = 20; /* EPB and PB: id, time, lengths */
        if (n < fixed)
            return damaged(r, "packet block too short");
        ifid = type == NG_EPB ? load32(r, b) : load16(r, b);
        ts = load64_halves(r, b + 4);
        caplen = load32(r, b + 12);
        origlen = load32(r, b + 16);
        hdr = fixed;
        if (caplen > n - hdr)
            return damaged(r, "packet data run past its block");
    }
    if (ifid >= r->nifs - r->section_base)
        return damaged(r, "a packet on an interface no Interface "
                          "Description Block described");
    uint32_t g = r->section_base + ifid;
    const struct cap_iface *ifc = &r->ifs[g];
    if (type == NG_SPB && ifc->snaplen && caplen > ifc->snaplen)
        caplen = ifc->snaplen;
    uint64_t sec = ts / ifc->units, frac = ts % ifc->units;
    uint64_t nsec;
    if (ifc->units <= UINT64_MAX / 1000000000u)
        nsec = frac * 1000000000u / ifc->units;
    else
        nsec = (uint64_t)((long double)frac * 1e9L / (long double)ifc->units);
    if (nsec > 999999999u)
        nsec = 999999999u;
    if (sec > (uint64_t)INT64_MAX / 2)
        sec = (uint64_t)INT64_MAX / 2;
    r->count++;
    memset(fr, 0, sizeof *fr);
    fr->number = r->count;
    fr->ts_sec = (int64_t)sec + ifc->tsoffset;
    fr->ts_nsec = (uint32_t)nsec;
    fr->caplen = caplen;
    fr->origlen = origlen;
    fr->linktype = ifc->linktype;
    fr->interface = g;
    fr->raw = b + hdr;
    cap_locate_iba(fr);
    return 1;
}

int cap_pcapng_open(struct cap_reader *r)
{
    static const uint8_t shb[4] = {0x0A, 0x0D, 0x0D, 0x0A};
    int rc = one_block(r, shb, NULL);
    while (rc == 2 && r->nifs == 0)
        rc = one_block(r, NULL, NULL);
    if (rc == 0) {
        snprintf(r->err, sizeof r->err,
                 "%s: pcapng capture without an Interface Description Block",
                 r->path);
        return -1;
    }
    if (rc < 0)
        return -1;
    r->linktype = r->ifs[0].linktype;
    return 0;
}

int cap_pcapng_next(struct cap_reader *r, struct cap_frame *fr)
{
    int rc;
    while ((rc = one_block(r, NULL, fr)) == 2)
        ;
    return rc;
}
