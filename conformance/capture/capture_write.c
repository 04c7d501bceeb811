/* SPDX-License-Identifier: Apache-2.0 */
/*
 * capture_write.c - the capture writer: classic pcap and pcapng, by hand.
 *
 * Both formats are written in little-endian byte order (the byte-order
 * magic tells readers so).  pcapng: one Section Header Block, one Interface
 * Description Block with nanosecond resolution, then one Enhanced Packet
 * Block per frame, with the frame's comment as opt_comment.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"

enum {
    PCAPNG_SHB = 0x0A0D0D0A,
    PCAPNG_IDB = 0x00000001,
    PCAPNG_EPB = 0x00000006,
    PCAPNG_BYTE_ORDER_MAGIC = 0x1A2B3C4D,
    PCAPNG_OPT_ENDOFOPT = 0,
    PCAPNG_OPT_COMMENT = 1,
    PCAPNG_IF_TSRESOL = 9,
    CAP_SNAPLEN = 262144,
    ERF_FLAG_VARLEN = 0x04        /* variable-length record */
};

/* Classic pcap magic announcing nanosecond timestamps. */
#define PCAP_MAGIC_NSEC 0xA1B23C4Du

/* The exported-PDU prefix: PROTO_NAME "infiniband" (NUL-padded to 12) and
 * end-of-options. */
static const uint8_t exp_pdu_prefix[] = {
    0x00, CAP_EXP_PDU_PROTO_NAME, 0x00, 12,
    'i', 'n', 'f', 'i', 'n', 'i', 'b', 'a', 'n', 'd', 0, 0,
    0x00, CAP_EXP_PDU_END_OF_OPT, 0x00, 0};

struct cap_writer {
    FILE *f;
    int own;       /* fclose on close */
    int failed;
    enum cap_file_format format;
    int linktype;
};

static void put(struct cap_writer *w, const void *p, size_t n)
{
    if (n && fwrite(p, 1, n, w->f) != n)
        w->failed = 1;
}

static void put_le16(struct cap_writer *w, uint16_t v)
{
    uint8_t b[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
    put(w, b, 2);
}

static void put_le32(struct cap_writer *w, uint32_t v)
{
    uint8_t b[4];
    ibw_store_le32(b, v);
    put(w, b, 4);
}

static void put_zeros(struct cap_writer *w, size_t n)
{
    static const uint8_t zeros[8];
    put(w, zeros, n);
}

static size_t pad4(size_t n) { return (4 - n % 4) % 4; }

static int linktype_writable(int linktype)
{
    return linktype == CAP_LINKTYPE_ETHERNET || linktype == CAP_LINKTYPE_ERF ||
           linktype == CAP_LINKTYPE_INFINIBAND ||
           linktype == CAP_LINKTYPE_EXPORTED_PDU;
}

static void write_file_header(struct cap_writer *w)
{
    if (w->format == CAP_FORMAT_PCAP) {
        put_le32(w, PCAP_MAGIC_NSEC);
        put_le16(w, 2); /* version 2.4 */
        put_le16(w, 4);
        put_le32(w, 0); /* thiszone */
        put_le32(w, 0); /* sigfigs */
        put_le32(w, CAP_SNAPLEN);
        put_le32(w, (uint32_t)w->linktype);
        return;
    }
    /* SHB without options: 28 bytes. */
    put_le32(w, PCAPNG_SHB);
    put_le32(w, 28);
    put_le32(w, PCAPNG_BYTE_ORDER_MAGIC);
    put_le16(w, 1); /* version 1.0 */
    put_le16(w, 0);
    put_le32(w, 0xFFFFFFFFu); /* section length unknown (-1) */
    put_le32(w, 0xFFFFFFFFu);
    put_le32(w, 28);
    /* IDB: 16 fixed bytes + if_tsresol (4 + 1 + 3 pad) + end (4) + 4. */
    uint32_t idb_len = 16 + 8 + 4 + 4;
    put_le32(w, PCAPNG_IDB);
    put_le32(w, idb_len);
    put_le16(w, (uint16_t)w->linktype);
    put_le16(w, 0);
    put_le32(w, CAP_SNAPLEN);
    put_le16(w, PCAPNG_IF_TSRESOL);
    put_le16(w, 1);
    uint8_t nanoseconds = 9; /* 10^-9 */
    put(w, &nanoseconds, 1);
    put_zeros(w, 3);
    put_le16(w, PCAPNG_OPT_ENDOFOPT);
    put_le16(w, 0);
    put_le32(w, idb_len);
}

struct cap_writer *cap_writer_open_stream(FILE *f, enum cap_file_format format,
                                          int linktype, char *err,
                                          size_t errlen)
{
    if (!linktype_writable(linktype)) {
        snprintf(err, errlen,
                 "cannot write link type %d; use 1, 197, 247 or 252",
                 linktype);
        return NULL;
    }
    struct cap_writer *w = calloc(1, sizeof *w);
    if (!w) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    w->f = f;
    w->format = format;
    w->linktype = linktype;
    write_file_header(w);
    if (w->failed) {
        snprintf(err, errlen, "cannot write the file header: %s",
                 strerror(errno));
        free(w);
        return NULL;
    }
    return w;
}

struct cap_writer *cap_writer_open(const char *path,
                                   enum cap_file_format format, int linktype,
                                   char *err, size_t errlen)
{
    int to_stdout = strcmp(path, "-") == 0;
    FILE *f = to_stdout ? stdout : fopen(path, "wb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot create: %s", path, strerror(errno));
        return NULL;
    }
    char why[256];
    struct cap_writer *w =
        cap_writer_open_stream(f, format, linktype, why, sizeof why);
    if (!w) {
        snprintf(err, errlen, "%s: %s", path, why);
        if (!to_stdout)
            fclose(f);
        return NULL;
    }
    w->own = !to_stdout;
    return w;
}

/* Bytes the link-type wrapper adds in front of the IBA frame. */
static size_t wrapper_len(const struct cap_writer *w)
{
    switch (w->linktype) {
    case CAP_LINKTYPE_ERF: return CAP_ERF_HEADER_LEN;
    case CAP_LINKTYPE_EXPORTED_PDU: return sizeof exp_pdu_prefix;
    default: return 0;
    }
}

/* len: the IBA bytes in the record; wlen: the IBA frame's length on the
 * wire (more than len when the capture cut it). */
static void write_wrapper(struct cap_writer *w, uint64_t ts_ns, size_t len,
                          size_t wlen)
{
    if (w->linktype == CAP_LINKTYPE_EXPORTED_PDU) {
        put(w, exp_pdu_prefix, sizeof exp_pdu_prefix);
    } else if (w->linktype == CAP_LINKTYPE_ERF) {
        /* ERF timestamp: little-endian 32.32 fixed-point seconds. */
        uint64_t sec = ts_ns / 1000000000u;
        uint64_t frac = ((ts_ns % 1000000000u) << 32) / 1000000000u;
        put_le32(w, (uint32_t)frac);
        put_le32(w, (uint32_t)sec);
        uint8_t b[8];
        b[0] = CAP_ERF_TYPE_INFINIBAND;
        b[1] = ERF_FLAG_VARLEN;
        ibw_store_be16(b + 2, (uint16_t)(CAP_ERF_HEADER_LEN + len)); /* rlen */
        ibw_store_be16(b + 4, 0);                                    /* lctr */
        ibw_store_be16(b + 6, (uint16_t)wlen);                       /* wlen */
        put(w, b, 8);
    }
}

int cap_write(struct cap_writer *w, uint64_t ts_ns, const uint8_t *frame,
              size_t len, const char *comment)
{
    return cap_write_cut(w, ts_ns, frame, len, len, comment);
}

int cap_write_cut(struct cap_writer *w, uint64_t ts_ns, const uint8_t *frame,
                  size_t len, size_t origlen, const char *comment)
{
    size_t rec = wrapper_len(w) + len;
    /* the record's original length: the wrapper is never cut */
    size_t orig = wrapper_len(w) + origlen;
    if (origlen < len || (uint64_t)orig > UINT32_MAX)
        return -1;
    if (w->linktype == CAP_LINKTYPE_ERF && (rec > 0xFFFF || origlen > 0xFFFF))
        return -1; /* rlen and wlen are 16 bits */
    if (rec > CAP_SNAPLEN)
        return -1;
    /* Classic pcap and ERF keep seconds in 32 unsigned bits (to 2106):
     * a later time would be written as some other time. */
    if ((w->format == CAP_FORMAT_PCAP || w->linktype == CAP_LINKTYPE_ERF) &&
        ts_ns / 1000000000u > UINT32_MAX)
        return -1;
    if (w->format == CAP_FORMAT_PCAP) {
        put_le32(w, (uint32_t)(ts_ns / 1000000000u));
        put_le32(w, (uint32_t)(ts_ns % 1000000000u));
        put_le32(w, (uint32_t)rec);
        put_le32(w, (uint32_t)orig);
        write_wrapper(w, ts_ns, len, origlen);
        put(w, frame, len);
        return w->failed ? -1 : 0;
    }
    size_t clen = comment ? strlen(comment) : 0;
    if (clen > 0xFFFF)
        clen = 0xFFFF;
    size_t opts = clen ? 4 + clen + pad4(clen) + 4 : 0;
    size_t blen = 28 + rec + pad4(rec) + opts + 4;
    put_le32(w, PCAPNG_EPB);
    put_le32(w, (uint32_t)blen);
    put_le32(w, 0); /* interface 0 */
    put_le32(w, (uint32_t)(ts_ns >> 32));
    put_le32(w, (uint32_t)ts_ns);
    put_le32(w, (uint32_t)rec);
    put_le32(w, (uint32_t)orig);
    write_wrapper(w, ts_ns, len, origlen);
    put(w, frame, len);
    put_zeros(w, pad4(rec));
    if (clen) {
        put_le16(w, PCAPNG_OPT_COMMENT);
        put_le16(w, (uint16_t)clen);
        put(w, comment, clen);
        put_zeros(w, pad4(clen));
        put_le16(w, PCAPNG_OPT_ENDOFOPT);
        put_le16(w, 0);
    }
    put_le32(w, (uint32_t)blen);
    return w->failed ? -1 : 0;
}

int cap_writer_close(struct cap_writer *w)
{
    if (!w)
        return 0;
    int failed = w->failed;
    if (fflush(w->f) != 0)
        failed = 1;
    if (w->own && fclose(w->f) != 0)
        failed = 1;
    free(w);
    return failed ? -1 : 0;
}
