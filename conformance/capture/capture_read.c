/* SPDX-License-Identifier: Apache-2.0 */
/* capture_read.c - the capture reader: libpcap (classic pcap) or the
 * pcapng block reader, then per-link framing. */
#if defined(__GLIBC__) || defined(__linux__)
#define _GNU_SOURCE 1 /* fopencookie: classic pcap from a pipe */
#endif
#include <errno.h>
#include <pcap/pcap.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__has_include)
#if __has_include(<stdio_ext.h>)
#include <stdio_ext.h>
#define CAP_HAVE_FSETLOCKING 1
#endif
#endif

#include "capture_int.h"

/* stdio buffer for the capture file: libpcap reads each record with two
 * small freads, and a large buffer turns those into few read() calls. */
#define CAP_READ_BUFFER (1u << 20)

const char *cap_linktype_name(int linktype)
{
    switch (linktype) {
    case CAP_LINKTYPE_ETHERNET: return "Ethernet";
    case CAP_LINKTYPE_ERF: return "ERF";
    case CAP_LINKTYPE_INFINIBAND: return "InfiniBand";
    case CAP_LINKTYPE_EXPORTED_PDU: return "exported PDU";
    case CAP_LINKTYPE_LINUX_SLL: return "Linux cooked";
    case CAP_LINKTYPE_LINUX_SLL2: return "Linux cooked v2";
    default: return "unknown";
    }
}

int cap_linktype_supported(int linktype)
{
    return linktype == CAP_LINKTYPE_ETHERNET || linktype == CAP_LINKTYPE_ERF ||
           linktype == CAP_LINKTYPE_INFINIBAND ||
           linktype == CAP_LINKTYPE_EXPORTED_PDU ||
           linktype == CAP_LINKTYPE_LINUX_SLL ||
           linktype == CAP_LINKTYPE_LINUX_SLL2;
}

static void unsupported(char *err, size_t errlen, const char *path, int lt)
{
    const char *name = pcap_datalink_val_to_name(lt);
    snprintf(err, errlen,
             "%s: link type %d (%s) not supported; ibwire reads 1 "
             "(Ethernet), 113 (LINUX_SLL), 197 (ERF), 247 (InfiniBand), "
             "252 (exported PDU), 276 (LINUX_SLL2)",
             path, lt, name ? name : "unknown");
}

#ifdef __GLIBC__
/* A pipe cannot seek back over the magic read to tell pcapng from pcap:
 * a stream that yields those bytes again, then the rest of the pipe. */
struct prefixed {
    FILE *src;
    uint8_t b[4];
    size_t n, pos;
};

static ssize_t prefixed_read(void *cookie, char *buf, size_t size)
{
    struct prefixed *p = cookie;
    size_t k = 0;
    while (k < size && p->pos < p->n)
        buf[k++] = (char)p->b[p->pos++];
    if (k < size)
        k += fread(buf + k, 1, size - k, p->src);
    return (ssize_t)k;
}

static int prefixed_close(void *cookie)
{
    free(cookie);
    return 0;
}

static FILE *replay_prefix(FILE *src, const uint8_t *b, size_t n)
{
    struct prefixed *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->src = src;
    memcpy(p->b, b, n);
    p->n = n;
    cookie_io_functions_t io = {prefixed_read, NULL, NULL, prefixed_close};
    FILE *f = fopencookie(p, "rb", io);
    if (!f)
        free(p);
    return f;
}
#else
static FILE *replay_prefix(FILE *src, const uint8_t *b, size_t n)
{
    (void)src;
    (void)b;
    (void)n;
    errno = ESPIPE;
    return NULL;
}
#endif

static void map_classic(struct cap_reader *r, FILE *f, off_t size);

static struct cap_reader *open_pcapng(const char *path, FILE *f,
                                      int from_stdin, char *iobuf, char *err,
                                      size_t errlen)
{
    struct cap_reader *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, errlen, "%s: out of memory", path);
        if (!from_stdin)
            fclose(f);
        free(iobuf);
        return NULL;
    }
    r->f = f;
    r->own_file = !from_stdin;
    r->iobuf = iobuf;
    r->offset = 4;
    snprintf(r->path, sizeof r->path, "%s", path);
    if (cap_pcapng_open(r)) {
        snprintf(err, errlen, "%s", r->err);
        cap_close(r);
        return NULL;
    }
    if (!cap_linktype_supported(r->linktype)) {
        unsupported(err, errlen, path, r->linktype);
        cap_close(r);
        return NULL;
    }
    return r;
}

struct cap_reader *cap_open(const char *path, char *err, size_t errlen)
{
    char pcap_err[PCAP_ERRBUF_SIZE] = "";
    struct stat st;

    if (strcmp(path, "-") != 0) {
        if (stat(path, &st) != 0) {
            snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
            return NULL;
        }
        if (S_ISDIR(st.st_mode)) {
            snprintf(err, errlen, "%s: is a directory, not a capture file",
                     path);
            return NULL;
        }
        if (S_ISREG(st.st_mode) && st.st_size == 0) {
            snprintf(err, errlen, "%s: empty file, not a capture file", path);
            return NULL;
        }
    }
    int from_stdin = strcmp(path, "-") == 0;
    FILE *f = from_stdin ? stdin : fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    /* (stdin outlives the reader: it keeps its own buffer) */
    char *iobuf = from_stdin ? NULL : malloc(CAP_READ_BUFFER);
    if (iobuf)
        setvbuf(f, iobuf, _IOFBF, CAP_READ_BUFFER);
#ifdef CAP_HAVE_FSETLOCKING
    /* One thread reads the file: stdio need not lock it on each of the
     * two freads libpcap makes per record (a fifth of a bare read loop). */
    if (!from_stdin)
        __fsetlocking(f, FSETLOCKING_BYCALLER);
#endif
    uint8_t magic[4];
    size_t nmagic = fread(magic, 1, sizeof magic, f);
    static const uint8_t shb[4] = {0x0A, 0x0D, 0x0D, 0x0A};
    if (nmagic == sizeof magic && !memcmp(magic, shb, sizeof shb))
        return open_pcapng(path, f, from_stdin, iobuf, err, errlen);
    /* Classic pcap (or not a capture): libpcap reads it from the start. */
    if (fseeko(f, 0, SEEK_SET) != 0) {
        clearerr(f);
        f = replay_prefix(f, magic, nmagic);
        if (!f) {
            snprintf(err, errlen, "%s: cannot read from a pipe: %s", path,
                     strerror(errno));
            return NULL;
        }
    }
    /* Nanosecond precision whatever the file holds, so that timestamps
     * survive a read/write round trip.  On success pcap owns f. */
    pcap_t *p = pcap_fopen_offline_with_tstamp_precision(
        f, PCAP_TSTAMP_PRECISION_NANO, pcap_err);
    if (!p) {
        snprintf(err, errlen, "%s: not a readable pcap/pcapng capture: %s",
                 path, pcap_err);
        if (f != stdin)
            fclose(f);
        free(iobuf);
        return NULL;
    }
    int lt = pcap_datalink(p);
    if (!cap_linktype_supported(lt)) {
        unsupported(err, errlen, path, lt);
        pcap_close(p);
        free(iobuf);
        return NULL;
    }
    struct cap_reader *r = cap_new_pcap_reader(p, lt, NULL);
    if (!r) {
        snprintf(err, errlen, "%s: out of memory", path);
        pcap_close(p);
        free(iobuf);
        return NULL;
    }
    r->iobuf = iobuf;
    r->classic = 1;
    snprintf(r->path, sizeof r->path, "%s", path);
    if (!from_stdin && S_ISREG(st.st_mode))
        map_classic(r, f, st.st_size);
    return r;
}

/* The frame a tunnel or mirror carries inside fr->iba (read on `link`):
 * fr->iba moves to it, what was before it counts in outer_len.  Malformed
 * outer headers leave no IBA bytes and the reason in not_iba; the
 * ERSPAN III timestamp refines a coarser record time. */
static void decap(struct cap_frame *fr, enum ibw_outer_link link)
{
    struct ibw_encap *e = &fr->encap;
    fr->outer_at = (uint32_t)(fr->iba - fr->raw);
    fr->outer_bytes = (uint32_t)fr->iba_len;
    fr->outer_link = (uint16_t)link;
    ibw_decap(fr->iba, fr->iba_len, link, e);
    if (e->err) {
        /* a record cut inside an outer header by the snap length is a
         * cut frame whose IBA part was not captured */
        fr->not_iba = e->err == IBW_E_TRUNCATED && fr->truncated
                          ? "record cut inside an encapsulation header"
                          : "malformed encapsulation header";
        fr->iba = NULL;
        fr->iba_len = 0;
        return;
    }
    if (!e->n)
        return;
    fr->outer_len += e->inner_off;
    fr->iba += e->inner_off;
    fr->iba_len = e->inner_len;
    fr->link = (enum ibw_link)e->inner_link;
    if (e->mirror_cut) {
        fr->mirror_cut = 1;
        fr->truncated = 1;
    }
    if (e->outer_cut)
        fr->truncated = 1;
    if (e->has_ts && e->ts_gra == 1) {
        /* 100 ns units modulo 2^32 (a 429 s period): the value nearest the
         * record's time, when the record's clock is coarser (whole
         * microseconds) and within a microsecond of it */
        const uint64_t period = (uint64_t)100u << 32;
        uint64_t t = (uint64_t)fr->ts_sec * 1000000000u + fr->ts_nsec;
        if (fr->ts_sec >= 0 && fr->ts_nsec % 1000u == 0) {
            uint64_t mirror = (uint64_t)e->ts * 100u;
            uint64_t base = t - t % period;
            uint64_t best = base + mirror;
            if (best > t + period / 2 && best >= period)
                best -= period;
            else if (best + period / 2 < t)
                best += period;
            if (best + 1000u > t && best < t + 1000u) {
                fr->ts_sec = (int64_t)(best / 1000000000u);
                fr->ts_nsec = (uint32_t)(best % 1000000000u);
            }
        }
    }
}

/* ---- classic pcap, mapped ----
 *
 * libpcap reads a record with two freads, each copying out of the stdio
 * buffer, which itself was copied from the page cache: for a checker that
 * does little per frame that is a third of its time, and a frame the
 * checker holds (the reorder stage, -j batches) must be copied once more.
 * A regular file is mapped instead and its records walked here: a frame is
 * a pointer into the map, valid until cap_close (cap_frame_stable).  libpcap
 * still opens the file and says what is wrong with a bad header; the walk
 * takes only records it reads exactly as libpcap would (whole, no longer
 * than the snapshot length), and hands the first other one, and all after
 * it, to libpcap at the same offset, so that damage is reported in
 * libpcap's words. */

static uint32_t map_u32(const struct cap_reader *r, size_t off)
{
    uint32_t v;
    memcpy(&v, r->map + off, 4);
    return r->map_swap ? __builtin_bswap32(v) : v;
}

/* Map the classic pcap file f (size bytes) that libpcap opened in r. */
static void map_classic(struct cap_reader *r, FILE *f, off_t size)
{
    if (size < 24 || (uint64_t)size > SIZE_MAX)
        return;
    void *m = mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, fileno(f), 0);
    if (m == MAP_FAILED)
        return;
    uint32_t magic;
    memcpy(&magic, m, 4);
    int swap = magic == 0xd4c3b2a1u || magic == 0x4d3cb2a1u;
    if (swap)
        magic = __builtin_bswap32(magic);
    if (magic != 0xa1b2c3d4u && magic != 0xa1b23c4du) {
        munmap(m, (size_t)size); /* a variant libpcap alone knows */
        return;
    }
    (void)madvise(m, (size_t)size, MADV_SEQUENTIAL);
    r->map = m;
    r->map_len = (size_t)size;
    r->map_off = 24;
    r->map_swap = swap;
    r->map_nano = magic == 0xa1b23c4du;
    int snap = pcap_snapshot(r->pcap);
    r->map_snap = snap > 0 ? (uint32_t)snap : 0;
}

static void map_drop(struct cap_reader *r)
{
    if (r->map)
        munmap((void *)(uintptr_t)r->map, r->map_len);
    r->map = NULL;
}

/* The pages read are counted in the process's resident size while they
 * stay mapped, so that a large file would look like a checker whose memory
 * grows with the capture: pages more than MAP_KEEP behind the reading
 * point are given back, MAP_STEP at a time.  A frame held from there (the
 * reorder stage holds up to 64 MiB) is still valid: its page is read again
 * from the file. */
#define MAP_KEEP ((size_t)32 << 20)
#define MAP_STEP ((size_t)8 << 20)

static void map_forget(struct cap_reader *r)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t end = (r->map_off - MAP_KEEP) / page * page;
    if (end > r->map_dropped)
        (void)madvise((void *)(uintptr_t)(r->map + r->map_dropped),
                      end - r->map_dropped, MADV_DONTNEED);
    r->map_dropped = end;
}

/* The caplen of the record at off when the walk takes it (whole, within
 * the snapshot length), else -1. */
static int64_t map_record(const struct cap_reader *r, size_t off)
{
    if (r->map_len - off < 16)
        return -1;
    uint32_t caplen = map_u32(r, off + 8);
    if (caplen > r->map_snap || caplen > r->map_len - off - 16)
        return -1;
    return caplen;
}

/* The frame of the record at off (caplen bytes), its IBA located. */
static void map_frame(const struct cap_reader *r, size_t off, uint32_t caplen,
                      struct cap_frame *fr)
{
    fr->ts_sec = (int64_t)map_u32(r, off);
    uint32_t frac = map_u32(r, off + 4);
    fr->ts_nsec = r->map_nano ? frac : frac * 1000u;
    fr->caplen = caplen;
    fr->origlen = map_u32(r, off + 12);
    fr->linktype = r->linktype;
    fr->interface = 0;
    fr->raw = r->map + off + 16;
    cap_locate_iba(fr);
}

/* The next record from the map: 1, 0 at the end, -1 when libpcap takes
 * over from here (positioned at this record). */
static int map_next(struct cap_reader *r, struct cap_frame *fr)
{
    size_t off = r->map_off;
    if (off == r->map_len)
        return 0;
    int64_t caplen = map_record(r, off);
    if (caplen >= 0) {
        r->map_off = off + 16 + (size_t)caplen;
        if (r->map_off - r->map_dropped >= MAP_KEEP + MAP_STEP)
            map_forget(r);
        r->count++;
        fr->number = r->count;
        map_frame(r, off, (uint32_t)caplen, fr);
        return 1;
    }
    FILE *f = pcap_file(r->pcap);
    if (!f || fseeko(f, (off_t)off, SEEK_SET) != 0)
        return -2;
    return -1;
}

int cap_frame_stable(const struct cap_reader *r, const struct cap_frame *fr)
{
    return r->map && fr->raw >= r->map && fr->raw < r->map + r->map_len;
}

/* 1 when decap() cannot find an outer layer in this Ethernet frame, so
 * that its time is the record's: no GRE (the ERSPAN III timestamp that
 * refines it comes only under GRE), no UDP to a tunnel port, no MPLS, at
 * most two VLAN tags (decap follows more).  0 when it may (the caller asks
 * decap itself): a short or odd frame included. */
static int plain_ethernet(const uint8_t *d, size_t len)
{
    size_t off = 12;
    unsigned et = 0;
    for (unsigned tags = 0;; tags++, off += 4) {
        if (off + 2 > len)
            return 0;
        et = (unsigned)d[off] << 8 | d[off + 1];
        if (et != IBW_ETHERTYPE_VLAN && et != IBW_ETHERTYPE_QINQ)
            break;
        if (tags == 2)
            return 0;
    }
    off += 2;
    unsigned proto;
    size_t l4;
    if (et == IBW_ETHERTYPE_IPV4) {
        if (off + 20 > len)
            return 0;
        proto = d[off + 9];
        l4 = off + (size_t)(d[off] & 0x0Fu) * 4;
    } else if (et == IBW_ETHERTYPE_IPV6) {
        if (off + 40 > len)
            return 0;
        proto = d[off + 6];
        l4 = off + 40;
    } else {
        return et != IBW_ETHERTYPE_MPLS && et != IBW_ETHERTYPE_MPLS_MC;
    }
    if (proto == IBW_IPPROTO_GRE)
        return 0;
    if (proto != IBW_IPPROTO_UDP)
        return 1;
    if (l4 + 4 > len)
        return 0;
    unsigned port = (unsigned)d[l4 + 2] << 8 | d[l4 + 3];
    return port != IBW_VXLAN_UDP_PORT && port != IBW_GENEVE_UDP_PORT;
}

int cap_ts_ordered(struct cap_reader *r)
{
    if (r->map_scanned)
        return r->map_ordered;
    r->map_scanned = 1;
    if (!r->map || r->map_tail || r->count || r->map_off != 24 ||
        r->linktype != CAP_LINKTYPE_ETHERNET)
        return 0;
    /* every record, as map_next() takes them: the timestamp chk_frame()
     * reads (the record's, or decap's where it may refine it) may never
     * go back; pages walked are given back as map_next() gives them */
    size_t page = (size_t)sysconf(_SC_PAGESIZE), dropped = 0, off = 24;
    uint64_t last = 0;
    struct cap_frame fr;
    while (off < r->map_len) {
        int64_t caplen = map_record(r, off);
        if (caplen < 0)
            return 0; /* libpcap reads from there: not known */
        uint64_t ts;
        const uint8_t *d = r->map + off + 16;
        if (plain_ethernet(d, (size_t)caplen)) {
            uint32_t frac = map_u32(r, off + 4);
            ts = (uint64_t)map_u32(r, off) * 1000000000u +
                 (r->map_nano ? frac : frac * 1000u);
        } else {
            map_frame(r, off, (uint32_t)caplen, &fr);
            ts = (uint64_t)fr.ts_sec * 1000000000u + fr.ts_nsec;
        }
        if (ts < last)
            return 0;
        last = ts;
        off += 16 + (size_t)caplen;
        if (off - dropped >= MAP_KEEP + MAP_STEP) {
            size_t end = (off - MAP_STEP) / page * page;
            if (end > MAP_KEEP) {
                size_t from = dropped > MAP_KEEP ? dropped : MAP_KEEP;
                (void)madvise((void *)(uintptr_t)(r->map + from / page * page),
                              end - from / page * page, MADV_DONTNEED);
            }
            dropped = end;
        }
    }
    r->map_ordered = 1;
    return 1;
}

/* ERF: 16-byte record header (timestamp 8, type 1, flags 1, rlen 2, lctr 2,
 * wlen 2), then 8-byte extension headers while the previous type byte has
 * its top bit set, then the payload. */
static void locate_erf(struct cap_frame *fr)
{
    const uint8_t *raw = fr->raw;
    size_t caplen = fr->caplen;
    if (caplen < CAP_ERF_HEADER_LEN) {
        fr->not_iba = "ERF record shorter than its 16-byte header";
        fr->truncated = 1;
        return;
    }
    uint8_t type = raw[8];
    uint16_t wlen = ibw_load_be16(raw + 14);
    fr->erf_type = type;
    fr->wire_len = wlen;
    size_t off = CAP_ERF_HEADER_LEN;
    uint8_t more = type & 0x80u;
    while (more) {
        if (off + CAP_ERF_EXT_LEN > caplen) {
            fr->not_iba = "ERF extension headers run past the record";
            fr->truncated = 1;
            return;
        }
        more = raw[off] & 0x80u;
        off += CAP_ERF_EXT_LEN;
    }
    switch (type & 0x7Fu) {
    case CAP_ERF_TYPE_INFINIBAND:
        fr->link = IBW_LINK_IB;
        break;
    case CAP_ERF_TYPE_ETH:
    case CAP_ERF_TYPE_COLOR_ETH:
    case CAP_ERF_TYPE_DSM_COLOR_ETH:
    case CAP_ERF_TYPE_COLOR_HASH_ETH:
        /* Ethernet ERF records put 2 bytes (offset, pad) before the frame. */
        if (off + CAP_ERF_ETH_PAD > caplen) {
            fr->not_iba = "ERF Ethernet record shorter than its 2-byte pad";
            fr->truncated = 1;
            return;
        }
        off += CAP_ERF_ETH_PAD;
        fr->link = IBW_LINK_ETHERNET;
        break;
    default:
        fr->not_iba = "ERF record type is neither InfiniBand nor Ethernet";
        return;
    }
    size_t avail = caplen - off;
    /* rlen pads records to 8 bytes; the packet itself is wlen long. */
    if (avail > wlen)
        avail = wlen;
    else if (avail < wlen)
        fr->truncated = 1;
    fr->iba = raw + off;
    fr->iba_len = avail;
    if (fr->link == IBW_LINK_ETHERNET)
        decap(fr, IBW_OUTER_ETHERNET);
}

static int name_is_infiniband(const uint8_t *v, size_t n)
{
    while (n > 0 && v[n - 1] == 0) /* values are NUL-padded to 4 bytes */
        n--;
    return n == 10 && memcmp(v, "infiniband", 10) == 0;
}

/* Exported PDU: (tag 2, length 2, value) TLVs up to tag 0, then the PDU. */
static void locate_exported_pdu(struct cap_frame *fr)
{
    const uint8_t *raw = fr->raw;
    size_t caplen = fr->caplen;
    size_t off = 0;
    int infiniband = 0, named = 0;
    for (;;) {
        if (off + 4 > caplen) {
            fr->not_iba = "exported PDU tags have no end-of-options tag";
            return;
        }
        uint16_t tag = ibw_load_be16(raw + off);
        uint16_t tlen = ibw_load_be16(raw + off + 2);
        off += 4;
        if (tag == CAP_EXP_PDU_END_OF_OPT)
            break;
        if (tlen > caplen - off) {
            fr->not_iba = "exported PDU tag runs past the record";
            return;
        }
        if (tag == CAP_EXP_PDU_PROTO_NAME ||
            tag == CAP_EXP_PDU_HEUR_PROTO_NAME) {
            named = 1;
            if (name_is_infiniband(raw + off, tlen))
                infiniband = 1;
        }
        off += tlen;
    }
    if (!infiniband) {
        fr->not_iba = named ? "exported PDU of another protocol"
                            : "exported PDU without a protocol name";
        return;
    }
    fr->link = IBW_LINK_IB;
    fr->iba = raw + off;
    fr->iba_len = caplen - off;
}

void cap_locate_iba(struct cap_frame *fr)
{
    fr->iba = NULL;
    fr->iba_len = 0;
    fr->not_iba = NULL;
    fr->erf_type = -1;
    fr->link = IBW_LINK_ETHERNET;
    fr->wire_len = fr->origlen;
    fr->truncated = fr->caplen < fr->origlen;
    fr->outer_len = 0;
    fr->mirror_cut = 0;
    fr->encap.n = 0;
    fr->encap.err = IBW_OK;
    fr->encap.vantage_kind = 0;
    fr->outer_at = fr->outer_bytes = 0;
    fr->outer_link = 0;
    switch (fr->linktype) {
    case CAP_LINKTYPE_ETHERNET:
        fr->iba = fr->raw;
        fr->iba_len = fr->caplen;
        decap(fr, IBW_OUTER_ETHERNET);
        break;
    case CAP_LINKTYPE_LINUX_SLL:
        fr->iba = fr->raw;
        fr->iba_len = fr->caplen;
        decap(fr, IBW_OUTER_SLL);
        break;
    case CAP_LINKTYPE_LINUX_SLL2:
        fr->iba = fr->raw;
        fr->iba_len = fr->caplen;
        decap(fr, IBW_OUTER_SLL2);
        break;
    case CAP_LINKTYPE_INFINIBAND:
        fr->link = IBW_LINK_IB;
        fr->iba = fr->raw;
        fr->iba_len = fr->caplen;
        break;
    case CAP_LINKTYPE_ERF:
        locate_erf(fr);
        break;
    case CAP_LINKTYPE_EXPORTED_PDU:
        locate_exported_pdu(fr);
        break;
    default:
        fr->not_iba = "link type not supported";
        break;
    }
}

static int next_frame(struct cap_reader *r, struct cap_frame *fr);

int cap_next(struct cap_reader *r, struct cap_frame *fr)
{
    int rc = next_frame(r, fr);
    if (rc == 1)
        fr->vantage = fr->encap.vantage_kind || fr->outer_link ==
                                                    IBW_OUTER_SLL2
                          ? cap_vantage_of(r, fr)
                          : 0;
    return rc;
}

static int next_frame(struct cap_reader *r, struct cap_frame *fr)
{
    if (!r->pcap)
        return cap_pcapng_next(r, fr);
    if (r->map && !r->map_tail) {
        int m = map_next(r, fr);
        if (m >= 0)
            return m;
        if (m == -2) {
            snprintf(r->err, sizeof r->err,
                     "%s: damaged capture after frame %llu: cannot seek",
                     r->path, (unsigned long long)r->count);
            return -1;
        }
        /* frames before stay valid: unmapped on cap_close */
        r->map_tail = 1;
    }
    struct pcap_pkthdr *h;
    const u_char *data;
    int rc = pcap_next_ex(r->pcap, &h, &data);
    if (rc == PCAP_ERROR_BREAK)
        return 0;
    if (rc == 0 && r->live)
        return cap_live_wait(r);
    if (rc != 1) {
        snprintf(r->err, sizeof r->err,
                 "%s: damaged capture after frame %llu: %s", r->path,
                 (unsigned long long)r->count, pcap_geterr(r->pcap));
        return -1;
    }
    r->count++;
    fr->number = r->count;
    /* Classic pcap seconds are unsigned 32-bit (good until 2106), but
     * libpcap sign-extends them for a native-order file (not a swapped
     * one), which would date 2038-01-19 on before 1970. */
    fr->ts_sec = r->classic ? (int64_t)(uint32_t)h->ts.tv_sec
                            : (int64_t)h->ts.tv_sec;
    /* nanoseconds (see cap_open), unless a live interface could not */
    fr->ts_nsec = (uint32_t)h->ts.tv_usec * (r->micro ? 1000u : 1u);
    fr->caplen = h->caplen;
    fr->origlen = h->len;
    fr->linktype = r->linktype;
    fr->interface = 0;
    fr->raw = data;
    cap_locate_iba(fr);
    return 1;
}

const char *cap_error(const struct cap_reader *r) { return r->err; }

int cap_linktype(const struct cap_reader *r) { return r->linktype; }

uint32_t cap_interfaces(const struct cap_reader *r) { return r->nifs; }

int cap_interfaces_fixed(const struct cap_reader *r) { return r->pcap != NULL; }

const char *cap_interface_name(const struct cap_reader *r, uint32_t i,
                               char *buf, size_t len)
{
    if (i < r->nifs && r->ifs[i].name[0])
        snprintf(buf, len, "%s", r->ifs[i].name);
    else
        snprintf(buf, len, "if%u", (unsigned)i);
    return buf;
}

int cap_interface_linktype(const struct cap_reader *r, uint32_t i)
{
    return i < r->nifs ? r->ifs[i].linktype : -1;
}

void cap_close(struct cap_reader *r)
{
    if (!r)
        return;
    map_drop(r);
    cap_vantage_free(r);
    if (r->pcap)
        pcap_close(r->pcap); /* closes the FILE before its buffer goes */
    if (r->f && r->own_file)
        fclose(r->f);
    free(r->iobuf);
    free(r->ifs);
    free(r->buf);
    free(r);
}
