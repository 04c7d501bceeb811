/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ibwire/base.h - version, errors, byte order and the field-list machinery.
 *
 * Every format in ibwire is declared exactly once, as an X-macro list of
 * fields.  From that list this header generates, per format:
 *   - typed static inline getters and setters whose offsets are compile-time
 *     constants (the fast path: the generic accessor below folds to a load,
 *     a shift and a mask once inlined);
 *   - a plain C struct with one member per field, and decode/encode functions
 *     that take a length and refuse short buffers;
 *   - a descriptor table (struct ibw_format) walked by tools: dump, the
 *     registry, `ibwire record`, the docs generator and the fuzzers.
 *
 * Two bit conventions exist and never mix inside one format:
 *   IBW_CONV_WIRE    IBA order: big-endian bytes, bit 0 is the most
 *                    significant bit of byte 0.  A field is (byte offset,
 *                    bit offset from the MSB of that byte, width).
 *   IBW_CONV_RECORD  Verilog bus order: bit 0 is the least significant bit
 *                    of 32-bit word 0 of a little-endian word array.  A field
 *                    is (lo bit, width), i.e. the bus slice [lo+width-1:lo].
 *
 * Nothing here allocates, does I/O or keeps global state.  C11.
 */
#ifndef IBWIRE_BASE_H
#define IBWIRE_BASE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Naming.  Every public name starts with ibw_ (IBW_ for macros and
 * constants); ibw__ marks a helper that is not part of the API.  A function
 * that converts between two forms of the same thing is named
 * <format>_<verb>, the verb last, and the verb says which two forms:
 *
 *   _decode / _encode  bytes of one format, in its own byte order (wire
 *                      formats big-endian, host formats as the device reads
 *                      them) -> struct of its fields / back.  Take a length,
 *                      return 0 or a negative enum ibw_err.  A variant that
 *                      also takes a byte layout is _decode_layout /
 *                      _encode_layout (WQE segments and CQEs, which the
 *                      HanGu and mthca layouts store in different orders).
 *                      A format carried inside a MAD has _mad_decode /
 *                      _mad_encode for the whole 256-byte MAD.
 *   _unpack / _pack    an engine record's 32-bit word array (Verilog bus
 *                      order, fixed size) -> struct / back.  Cannot fail.
 *   _get_F / _set_F    one field F in place, no length check.
 *   ibw_parse / _build several formats in one buffer: a frame -> a view of
 *                      all its headers (packet.h), a WQE -> its segments
 *                      (ibw_wqe_walk), and back (ibw_build, ibw_wqe_build_*).
 *   _load / _store     an integer from / to memory in a stated byte order.
 *   A_to_B / A_from_B  the same value in two numbering schemes (an IBA code
 *                      and bytes, the RTL encoding and the document's).
 *
 * Not found.  A lookup by name, number or key that finds nothing returns
 * NULL when its result is a pointer and -1 when it is an integer.  A value
 * conversion (A_to_B) given a value outside its domain returns 0, and says
 * so, only where 0 is never a valid result (sizes, MTU codes and bytes).
 *
 * Descriptor identity.  The descriptor tables (struct ibw_format, the
 * opcode table, the registry) are static data inside static inline
 * functions, so every translation unit that calls them has its own copy:
 * two pointers to "the same" format taken in two files compare unequal.
 * Compare formats with ibw_format_same() (by name), never with ==.
 */

#define IBW_VERSION_MAJOR 0
#define IBW_VERSION_MINOR 1
#define IBW_VERSION_PATCH 0
#define IBW_VERSION_NUMBER \
    (IBW_VERSION_MAJOR * 10000 + IBW_VERSION_MINOR * 100 + IBW_VERSION_PATCH)
#define IBW__STR2(x) #x
#define IBW__STR(x) IBW__STR2(x)
#define IBW_VERSION_STRING        \
    IBW__STR(IBW_VERSION_MAJOR) "." \
    IBW__STR(IBW_VERSION_MINOR) "." IBW__STR(IBW_VERSION_PATCH)

/* Runtime version of the header that was compiled in (for tools to print). */
static inline unsigned ibw_version_number(void) { return IBW_VERSION_NUMBER; }

#if defined(__GNUC__) || defined(__clang__)
#define IBW_UNUSED __attribute__((unused))
#define IBW_LIKELY(x) __builtin_expect(!!(x), 1)
#define IBW_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define IBW_UNUSED
#define IBW_LIKELY(x) (x)
#define IBW_UNLIKELY(x) (x)
#endif

/* ------------------------------------------------------------------------ */
/* Errors                                                                   */
/* ------------------------------------------------------------------------ */

/* Every fallible ibwire function returns 0 or one of these (negative). */
enum ibw_err {
    IBW_OK = 0,
    IBW_E_TRUNCATED = -1,   /* buffer shorter than the format needs */
    IBW_E_LENGTH = -2,      /* a length field disagrees with the bytes */
    IBW_E_PAD = -3,         /* pad count larger than the payload */
    IBW_E_OPCODE = -4,      /* opcode reserved or unknown */
    IBW_E_HDRSEQ = -5,      /* header sequence impossible for the opcode */
    IBW_E_VERSION = -6,     /* unsupported version field (IP, LVer, TVer, MAD) */
    IBW_E_RANGE = -7,       /* a value does not fit its field */
    IBW_E_FIELD = -8,       /* no such field / format */
    IBW_E_CRC = -9,         /* ICRC or VCRC mismatch */
    IBW_E_UNSUPPORTED = -10,/* valid input this build does not handle */
    IBW_E_NOSPACE = -11,    /* output buffer too small */
    IBW_E_CHECKSUM = -12,   /* IPv4 header checksum mismatch */
    IBW_E_MALFORMED = -13,  /* structurally invalid (e.g. WQE chain) */
    IBW_E_LINKTYPE = -14    /* link type not handled */
};

/* A static, human-readable name for an ibw_err value; never NULL. */
static inline const char *ibw_strerror(int err)
{
    switch (err) {
    case IBW_OK: return "success";
    case IBW_E_TRUNCATED: return "truncated";
    case IBW_E_LENGTH: return "length mismatch";
    case IBW_E_PAD: return "pad count exceeds payload";
    case IBW_E_OPCODE: return "reserved or unknown opcode";
    case IBW_E_HDRSEQ: return "header sequence impossible for opcode";
    case IBW_E_VERSION: return "unsupported version";
    case IBW_E_RANGE: return "value out of range for field";
    case IBW_E_FIELD: return "unknown field or format";
    case IBW_E_CRC: return "CRC mismatch";
    case IBW_E_UNSUPPORTED: return "unsupported";
    case IBW_E_NOSPACE: return "output buffer too small";
    case IBW_E_CHECKSUM: return "IPv4 header checksum mismatch";
    case IBW_E_MALFORMED: return "malformed";
    case IBW_E_LINKTYPE: return "unsupported link type";
    default: return "unknown error";
    }
}

/* ------------------------------------------------------------------------ */
/* Byte order: memcpy-based, alignment-free, host-order independent         */
/* ------------------------------------------------------------------------ */

static inline uint16_t ibw_load_be16(const void *p)
{
    uint8_t b[2];
    memcpy(b, p, 2);
    return (uint16_t)(((unsigned)b[0] << 8) | b[1]);
}
static inline uint32_t ibw_load_be32(const void *p)
{
    uint8_t b[4];
    memcpy(b, p, 4);
    return ((uint32_t)b[0] << 24) | ((uint32_t)b[1] << 16) |
           ((uint32_t)b[2] << 8) | (uint32_t)b[3];
}
static inline uint64_t ibw_load_be64(const void *p)
{
    const uint8_t *b = (const uint8_t *)p;
    return ((uint64_t)ibw_load_be32(b) << 32) | ibw_load_be32(b + 4);
}
static inline uint32_t ibw_load_le32(const void *p)
{
    uint8_t b[4];
    memcpy(b, p, 4);
    return ((uint32_t)b[3] << 24) | ((uint32_t)b[2] << 16) |
           ((uint32_t)b[1] << 8) | (uint32_t)b[0];
}
static inline void ibw_store_be16(void *p, uint16_t v)
{
    uint8_t b[2] = {(uint8_t)(v >> 8), (uint8_t)v};
    memcpy(p, b, 2);
}
static inline void ibw_store_be32(void *p, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8),
                    (uint8_t)v};
    memcpy(p, b, 4);
}
static inline void ibw_store_be64(void *p, uint64_t v)
{
    uint8_t *b = (uint8_t *)p;
    ibw_store_be32(b, (uint32_t)(v >> 32));
    ibw_store_be32(b + 4, (uint32_t)v);
}
static inline void ibw_store_le32(void *p, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16),
                    (uint8_t)(v >> 24)};
    memcpy(p, b, 4);
}

/* All-ones mask of `width` bits, width 0..64. */
static inline uint64_t ibw_mask64(unsigned width)
{
    return width >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << width) - 1);
}

/* ------------------------------------------------------------------------ */
/* The generic accessors                                                     */
/* ------------------------------------------------------------------------ */

/*
 * Wire order.  Read `width` (1..64) bits starting `bitpos` bits after the MSB
 * of p[0].  The field must satisfy (bitpos % 8) + width <= 64, true of every
 * IBA field; wider fields are byte arrays.  With constant arguments the loop
 * unrolls to the minimal load.  The caller guarantees the bytes exist.
 */
static inline uint64_t ibw_wire_get(const uint8_t *p, unsigned bitpos,
                                    unsigned width)
{
    const uint8_t *b = p + bitpos / 8;
    unsigned skip = bitpos % 8;
    unsigned nbytes = (skip + width + 7) / 8;
    uint64_t acc = 0;
    for (unsigned i = 0; i < nbytes; i++)
        acc = (acc << 8) | b[i];
    return (acc >> (nbytes * 8 - skip - width)) & ibw_mask64(width);
}

/* Wire order.  Write the low `width` bits of v; bits outside the field keep
 * their value.  Same constraints as ibw_wire_get(). */
static inline void ibw_wire_set(uint8_t *p, unsigned bitpos, unsigned width,
                                uint64_t v)
{
    uint8_t *b = p + bitpos / 8;
    unsigned skip = bitpos % 8;
    unsigned nbytes = (skip + width + 7) / 8;
    unsigned shift = nbytes * 8 - skip - width;
    uint64_t acc = 0;
    for (unsigned i = 0; i < nbytes; i++)
        acc = (acc << 8) | b[i];
    uint64_t m = ibw_mask64(width) << shift;
    acc = (acc & ~m) | ((v << shift) & m);
    for (unsigned i = nbytes; i-- > 0;) {
        b[i] = (uint8_t)acc;
        acc >>= 8;
    }
}

/* A field that crosses 32-bit words is moved one word at a time: the run
 * starting `done` bits into the field (at bit lo + done) ends at the word's
 * end or the field's, whichever comes first.  Returns the run's length and
 * sets *in_word to where in its word it starts. */
static inline unsigned ibw__rec_run(unsigned lo, unsigned done,
                                    unsigned width, unsigned *in_word)
{
    *in_word = (lo + done) % 32;
    unsigned take = 32 - *in_word;
    return take < width - done ? take : width - done;
}

/*
 * Record (bus) order over a little-endian array of 32-bit words: bit `lo` is
 * bit lo%32 of w[lo/32].  Reads `width` (1..64) bits.  The caller guarantees
 * the words exist.
 */
static inline uint64_t ibw_rec_get(const uint32_t *w, unsigned lo,
                                   unsigned width)
{
    uint64_t acc = 0;
    unsigned in_word, take;
    for (unsigned got = 0; got < width; got += take) {
        take = ibw__rec_run(lo, got, width, &in_word);
        uint64_t part =
            ((uint64_t)w[(lo + got) / 32] >> in_word) & ibw_mask64(take);
        acc |= part << got;
    }
    return acc;
}

/* Record order: write the low `width` bits of v at bit `lo`. */
static inline void ibw_rec_set(uint32_t *w, unsigned lo, unsigned width,
                               uint64_t v)
{
    unsigned in_word, take;
    for (unsigned put = 0; put < width; put += take) {
        take = ibw__rec_run(lo, put, width, &in_word);
        uint32_t m = (uint32_t)(ibw_mask64(take) << in_word);
        uint32_t part = (uint32_t)(((v >> put) & ibw_mask64(take)) << in_word);
        uint32_t *word = &w[(lo + put) / 32];
        *word = (*word & ~m) | part;
    }
}

/* Record words <-> the byte image of the FIFO word (word 0 byte 0 first,
 * each word little-endian).  nwords words, 4*nwords bytes. */
static inline void ibw_rec_to_bytes(const uint32_t *w, size_t nwords,
                                    uint8_t *out)
{
    for (size_t i = 0; i < nwords; i++)
        ibw_store_le32(out + 4 * i, w[i]);
}
static inline void ibw_rec_from_bytes(const uint8_t *in, size_t nwords,
                                      uint32_t *w)
{
    for (size_t i = 0; i < nwords; i++)
        w[i] = ibw_load_le32(in + 4 * i);
}

/* ------------------------------------------------------------------------ */
/* Descriptors                                                               */
/* ------------------------------------------------------------------------ */

enum ibw_conv { IBW_CONV_WIRE = 0, IBW_CONV_RECORD = 1 };

enum ibw_field_kind {
    IBW_FK_UINT = 0,  /* an unsigned integer of 1..64 bits */
    IBW_FK_BYTES = 1, /* a byte-aligned array (GIDs, private data, MACs) */
    IBW_FK_WIDE = 2   /* a record slice wider than 64 bits, held as
                         little-endian uint32_t words (bit 0 of the slice =
                         bit 0 of word 0), see IBW_WIDE_RECORD_FORMAT */
};

/* One field.  `pos` is the bit position in the format's convention: for
 * IBW_CONV_WIRE the offset from the MSB of byte 0 (byte*8 + bit), for
 * IBW_CONV_RECORD the lo bit.  `width` is in bits. */
struct ibw_field {
    const char *name;
    uint32_t pos;
    uint32_t width;
    uint8_t kind;
    const char *desc;
};

/* One format: a wire header, a MAD, a host structure or an engine record. */
struct ibw_format {
    const char *name;        /* C-ish short name, e.g. "bth", "sq_doorbell" */
    const char *id;          /* catalog ID of records.md, e.g. "W3" */
    const char *title;       /* one line: what it is */
    const char *source;      /* the design-document table / spec section */
    const char *layout;      /* which source decided the layout, conflicts */
    uint8_t conv;            /* enum ibw_conv */
    uint32_t width;          /* bits (wire formats: 8 * bytes) */
    const struct ibw_field *fields;
    size_t nfields;
};

/* Field `name` of `fmt`, or NULL. */
static inline const struct ibw_field *
ibw_format_field(const struct ibw_format *fmt, const char *name)
{
    for (size_t i = 0; i < fmt->nfields; i++)
        if (strcmp(fmt->fields[i].name, name) == 0)
            return &fmt->fields[i];
    return NULL;
}

/* Non-zero when a and b describe the same format.  Compares names, not
 * pointers: each translation unit has its own copy of a descriptor table. */
static inline int ibw_format_same(const struct ibw_format *a,
                                  const struct ibw_format *b)
{
    if (a == b)
        return 1;
    return a && b && strcmp(a->name, b->name) == 0;
}

/* Bytes a format occupies: wire formats width/8, records 4 bytes per
 * 32-bit word. */
static inline size_t ibw_format_bytes(const struct ibw_format *fmt)
{
    if (fmt->conv == IBW_CONV_RECORD)
        return ((size_t)fmt->width + 31) / 32 * 4;
    return ((size_t)fmt->width + 7) / 8;
}

/*
 * Introspection path: read an integer field through its descriptor.
 * `buf`/`len` is the wire bytes (IBW_CONV_WIRE) or the record's byte image
 * (IBW_CONV_RECORD, see ibw_rec_to_bytes).  Returns IBW_E_TRUNCATED when the
 * field lies past len, IBW_E_FIELD for a byte-array field.
 */
static inline int ibw_field_get(const struct ibw_format *fmt,
                                const struct ibw_field *f, const uint8_t *buf,
                                size_t len, uint64_t *out)
{
    if (f->kind != IBW_FK_UINT || f->width == 0 || f->width > 64)
        return IBW_E_FIELD;
    if (((size_t)f->pos + f->width + 7) / 8 > len)
        return IBW_E_TRUNCATED;
    if (fmt->conv == IBW_CONV_WIRE) {
        *out = ibw_wire_get(buf, f->pos, f->width);
    } else {
        uint64_t acc = 0;
        for (uint32_t i = 0; i < f->width; i++) {
            uint32_t bit = f->pos + i;
            acc |= (uint64_t)((buf[bit / 8] >> (bit % 8)) & 1u) << i;
        }
        *out = acc;
    }
    return IBW_OK;
}

/* Introspection path: write an integer field.  IBW_E_RANGE when v does not
 * fit in the field's width (nothing is written then). */
static inline int ibw_field_set(const struct ibw_format *fmt,
                                const struct ibw_field *f, uint8_t *buf,
                                size_t len, uint64_t v)
{
    if (f->kind != IBW_FK_UINT || f->width == 0 || f->width > 64)
        return IBW_E_FIELD;
    if (((size_t)f->pos + f->width + 7) / 8 > len)
        return IBW_E_TRUNCATED;
    if (v & ~ibw_mask64(f->width))
        return IBW_E_RANGE;
    if (fmt->conv == IBW_CONV_WIRE) {
        ibw_wire_set(buf, f->pos, f->width, v);
    } else {
        for (uint32_t i = 0; i < f->width; i++) {
            uint32_t bit = f->pos + i;
            uint8_t m = (uint8_t)(1u << (bit % 8));
            if ((v >> i) & 1u)
                buf[bit / 8] = (uint8_t)(buf[bit / 8] | m);
            else
                buf[bit / 8] = (uint8_t)(buf[bit / 8] & ~m);
        }
    }
    return IBW_OK;
}

/* Byte-array field through its descriptor: pointer to its first byte, or
 * NULL when it is not a byte field or lies past len. */
static inline const uint8_t *ibw_field_bytes(const struct ibw_field *f,
                                             const uint8_t *buf, size_t len)
{
    if (f->kind != IBW_FK_BYTES || f->pos % 8 || f->width % 8)
        return NULL;
    if ((size_t)(f->pos + f->width) / 8 > len)
        return NULL;
    return buf + f->pos / 8;
}

/* ------------------------------------------------------------------------ */
/* Generators for wire formats                                               */
/* ------------------------------------------------------------------------ */
/*
 * A wire field list is a macro LIST(X, c) that expands to one
 *     X(c, name, byte_offset, bit_offset, width, KIND, "meaning")
 * per field, KIND one of U8 U16 U32 U64 (an integer held in that C type) or
 * BYTES (byte-aligned, width a multiple of 8).  Reserved bits are listed too,
 * so that decode/encode round-trip every bit.  `c` is a context the
 * generators thread through (the prefix, or the struct pointer).
 *
 * IBW_WIRE_FORMAT(pfx, LIST, size_bytes, "name", "ID", "title", "source",
 *                 "layout") then defines, for prefix `pfx` (e.g. ibw_bth):
 *   struct pfx                                one member per field
 *   pfx##_SIZE                                size in bytes (enum constant)
 *   T    pfx##_get_NAME(const uint8_t *hdr)   fast getter, no length check
 *   void pfx##_set_NAME(uint8_t *hdr, T v)    fast setter, v masked to width
 *   int  pfx##_decode(const uint8_t *p, size_t len, struct pfx *out)
 *   int  pfx##_encode(const struct pfx *in, uint8_t *p, size_t len)
 *   const struct ibw_format *pfx##_format(void)
 * For BYTES fields the getter returns a pointer into hdr and the setter
 * copies width/8 bytes.  Fast getters/setters trust the caller for length;
 * decode/encode check it.
 */

#define IBW__FK_U8 IBW_FK_UINT
#define IBW__FK_U16 IBW_FK_UINT
#define IBW__FK_U32 IBW_FK_UINT
#define IBW__FK_U64 IBW_FK_UINT
#define IBW__FK_BYTES IBW_FK_BYTES

/* struct members */
#define IBW__MEMBER_U8(name, w) uint8_t name;
#define IBW__MEMBER_U16(name, w) uint16_t name;
#define IBW__MEMBER_U32(name, w) uint32_t name;
#define IBW__MEMBER_U64(name, w) uint64_t name;
#define IBW__MEMBER_BYTES(name, w) uint8_t name[(w) / 8];
#define IBW__WMEMBER(c, name, off, bit, w, kind, desc) IBW__MEMBER_##kind(name, w)

/* fast accessors */
#define IBW__WACC_INT(pfx, name, off, bit, w, T)                               \
    static inline T pfx##_get_##name(const uint8_t *hdr)                       \
    {                                                                          \
        return (T)ibw_wire_get(hdr, (off) * 8 + (bit), (w));                   \
    }                                                                          \
    static inline void pfx##_set_##name(uint8_t *hdr, T v)                     \
    {                                                                          \
        ibw_wire_set(hdr, (off) * 8 + (bit), (w), (uint64_t)v);                \
    }
#define IBW__WACC_U8(pfx, name, off, bit, w) \
    IBW__WACC_INT(pfx, name, off, bit, w, uint8_t)
#define IBW__WACC_U16(pfx, name, off, bit, w) \
    IBW__WACC_INT(pfx, name, off, bit, w, uint16_t)
#define IBW__WACC_U32(pfx, name, off, bit, w) \
    IBW__WACC_INT(pfx, name, off, bit, w, uint32_t)
#define IBW__WACC_U64(pfx, name, off, bit, w) \
    IBW__WACC_INT(pfx, name, off, bit, w, uint64_t)
#define IBW__WACC_BYTES(pfx, name, off, bit, w)                                \
    static inline const uint8_t *pfx##_get_##name(const uint8_t *hdr)         \
    {                                                                          \
        return hdr + (off);                                                    \
    }                                                                          \
    static inline void pfx##_set_##name(uint8_t *hdr, const uint8_t *v)        \
    {                                                                          \
        memcpy(hdr + (off), v, (w) / 8);                                       \
    }
#define IBW__WACC(pfx, name, off, bit, w, kind, desc) \
    IBW__WACC_##kind(pfx, name, off, bit, w)

/* struct <-> bytes */
#define IBW__WDEC_INT(s, name, off, bit, w, T) \
    s->name = (T)ibw_wire_get(p, (off) * 8 + (bit), (w));
#define IBW__WDEC_U8(s, name, off, bit, w) IBW__WDEC_INT(s, name, off, bit, w, uint8_t)
#define IBW__WDEC_U16(s, name, off, bit, w) IBW__WDEC_INT(s, name, off, bit, w, uint16_t)
#define IBW__WDEC_U32(s, name, off, bit, w) IBW__WDEC_INT(s, name, off, bit, w, uint32_t)
#define IBW__WDEC_U64(s, name, off, bit, w) IBW__WDEC_INT(s, name, off, bit, w, uint64_t)
#define IBW__WDEC_BYTES(s, name, off, bit, w) memcpy(s->name, p + (off), (w) / 8);
#define IBW__WDEC(s, name, off, bit, w, kind, desc) \
    IBW__WDEC_##kind(s, name, off, bit, w)

#define IBW__WENC_INT(s, name, off, bit, w) \
    ibw_wire_set(p, (off) * 8 + (bit), (w), (uint64_t)s->name);
#define IBW__WENC_U8 IBW__WENC_INT
#define IBW__WENC_U16 IBW__WENC_INT
#define IBW__WENC_U32 IBW__WENC_INT
#define IBW__WENC_U64 IBW__WENC_INT
#define IBW__WENC_BYTES(s, name, off, bit, w) memcpy(p + (off), s->name, (w) / 8);
#define IBW__WENC(s, name, off, bit, w, kind, desc) \
    IBW__WENC_##kind(s, name, off, bit, w)

#define IBW__WDESC(c, name, off, bit, w, kind, desc) \
    {#name, (uint32_t)((off) * 8 + (bit)), (uint32_t)(w), IBW__FK_##kind, desc},

#define IBW_WIRE_FORMAT(pfx, LIST, size, NAME, ID, TITLE, SOURCE, LAYOUT)      \
    struct pfx {                                                               \
        LIST(IBW__WMEMBER, ~)                                                  \
    };                                                                         \
    enum { pfx##_SIZE = (size) };                                              \
    LIST(IBW__WACC, pfx)                                                       \
    static inline int pfx##_decode(const uint8_t *p, size_t len,              \
                                   struct pfx *out)                            \
    {                                                                          \
        if (len < (size_t)(size))                                              \
            return IBW_E_TRUNCATED;                                            \
        LIST(IBW__WDEC, out)                                                   \
        return IBW_OK;                                                         \
    }                                                                          \
    static inline int pfx##_encode(const struct pfx *in, uint8_t *p,          \
                                   size_t len)                                 \
    {                                                                          \
        if (len < (size_t)(size))                                              \
            return IBW_E_NOSPACE;                                              \
        LIST(IBW__WENC, in)                                                    \
        return IBW_OK;                                                         \
    }                                                                          \
    static inline const struct ibw_format *pfx##_format(void)                 \
    {                                                                          \
        static const struct ibw_field fields[] = {LIST(IBW__WDESC, ~)};        \
        static const struct ibw_format fmt = {                                 \
            NAME, ID, TITLE, SOURCE, LAYOUT, IBW_CONV_WIRE,                    \
            (uint32_t)(size) * 8, fields, sizeof fields / sizeof fields[0]};   \
        return &fmt;                                                           \
    }

/* ------------------------------------------------------------------------ */
/* Generators for engine records (bus order)                                 */
/* ------------------------------------------------------------------------ */
/*
 * A record field list is a macro LIST(X, c) expanding to one
 *     X(c, name, hi, lo, KIND, "meaning")
 * per field: the bus slice [hi:lo], KIND U8 U16 U32 U64 (width hi-lo+1 <= 64).
 * Reserved bits are simply not listed (they are zero on encode).
 *
 * IBW_RECORD_FORMAT(pfx, LIST, width_bits, "name", "ID", "title", "source",
 *                   "layout") defines:
 *   struct pfx                                 one member per field
 *   pfx##_WIDTH, pfx##_WORDS                   bits, 32-bit words
 *   T    pfx##_get_NAME(const uint32_t *w)     fast getter
 *   void pfx##_set_NAME(uint32_t *w, T v)      fast setter, v masked
 *   void pfx##_pack(const struct pfx *in, uint32_t *w)   all words written
 *   void pfx##_unpack(const uint32_t *w, struct pfx *out)
 *   const struct ibw_format *pfx##_format(void)
 */
#define IBW__RMEMBER(c, name, hi, lo, kind, desc) IBW__MEMBER_##kind(name, 0)
#define IBW__RACC_INT(pfx, name, hi, lo, T)                                    \
    static inline T pfx##_get_##name(const uint32_t *w)                        \
    {                                                                          \
        return (T)ibw_rec_get(w, (lo), (hi) - (lo) + 1);                       \
    }                                                                          \
    static inline void pfx##_set_##name(uint32_t *w, T v)                      \
    {                                                                          \
        ibw_rec_set(w, (lo), (hi) - (lo) + 1, (uint64_t)v);                    \
    }
#define IBW__RACC_U8(pfx, name, hi, lo) IBW__RACC_INT(pfx, name, hi, lo, uint8_t)
#define IBW__RACC_U16(pfx, name, hi, lo) IBW__RACC_INT(pfx, name, hi, lo, uint16_t)
#define IBW__RACC_U32(pfx, name, hi, lo) IBW__RACC_INT(pfx, name, hi, lo, uint32_t)
#define IBW__RACC_U64(pfx, name, hi, lo) IBW__RACC_INT(pfx, name, hi, lo, uint64_t)
#define IBW__RACC(pfx, name, hi, lo, kind, desc) IBW__RACC_##kind(pfx, name, hi, lo)
#define IBW__RPACK(s, name, hi, lo, kind, desc) \
    ibw_rec_set(w, (lo), (hi) - (lo) + 1, (uint64_t)s->name);
#define IBW__RUNPACK_T_U8 uint8_t
#define IBW__RUNPACK_T_U16 uint16_t
#define IBW__RUNPACK_T_U32 uint32_t
#define IBW__RUNPACK_T_U64 uint64_t
#define IBW__RUNPACK(s, name, hi, lo, kind, desc) \
    s->name = (IBW__RUNPACK_T_##kind)ibw_rec_get(w, (lo), (hi) - (lo) + 1);
#define IBW__RDESC(c, name, hi, lo, kind, desc) \
    {#name, (uint32_t)(lo), (uint32_t)((hi) - (lo) + 1), IBW_FK_UINT, desc},

/* The body both record generators expand to.  MEMBER, PACK, UNPACK and DESC
 * are the per-field X-macros for the kinds the generator admits (the plain
 * generator's have no WIDE case, so a WIDE field there does not compile). */
#define IBW__RECORD_BODY(pfx, LIST, width, NAME, ID, TITLE, SOURCE, LAYOUT,    \
                         MEMBER, PACK, UNPACK, DESC)                           \
    struct pfx {                                                               \
        LIST(MEMBER, ~)                                                        \
    };                                                                         \
    enum { pfx##_WIDTH = (width), pfx##_WORDS = ((width) + 31) / 32 };         \
    LIST(IBW__RACC, pfx)                                                       \
    static inline void pfx##_pack(const struct pfx *in, uint32_t *w)          \
    {                                                                          \
        memset(w, 0, sizeof(uint32_t) * (size_t)pfx##_WORDS);                  \
        LIST(PACK, in)                                                         \
    }                                                                          \
    static inline void pfx##_unpack(const uint32_t *w, struct pfx *out)       \
    {                                                                          \
        LIST(UNPACK, out)                                                      \
    }                                                                          \
    static inline const struct ibw_format *pfx##_format(void)                 \
    {                                                                          \
        static const struct ibw_field fields[] = {LIST(DESC, ~)};             \
        static const struct ibw_format fmt = {                                 \
            NAME, ID, TITLE, SOURCE, LAYOUT, IBW_CONV_RECORD, (width),         \
            fields, sizeof fields / sizeof fields[0]};                         \
        return &fmt;                                                           \
    }

#define IBW_RECORD_FORMAT(pfx, LIST, width, NAME, ID, TITLE, SOURCE, LAYOUT)   \
    IBW__RECORD_BODY(pfx, LIST, width, NAME, ID, TITLE, SOURCE, LAYOUT,        \
                     IBW__RMEMBER, IBW__RPACK, IBW__RUNPACK, IBW__RDESC)

/* ------------------------------------------------------------------------ */
/* Records with fields wider than 64 bits                                    */
/* ------------------------------------------------------------------------ */
/*
 * Some engine records carry a slice wider than 64 bits that has no inner
 * structure at this level (the 256 data bits of a stream word, a buffered
 * packet).  Such a field is kind WIDE: it is held as an array of
 * (width + 31) / 32 little-endian 32-bit words, bit 0 of the slice in bit 0
 * of word 0 -- the same convention as the record itself, so a testbench can
 * copy the slice of its bus straight in.
 */

/* 32-bit words that hold a slice of `width` bits. */
#define IBW_WIDE_WORDS(width) (((width) + 31) / 32)

/* Record order: copy the slice [lo+width-1:lo] of w into out[], which gets
 * IBW_WIDE_WORDS(width) words; bits above `width` in the last word are 0. */
static inline void ibw_rec_get_wide(const uint32_t *w, unsigned lo,
                                    unsigned width, uint32_t *out)
{
    for (unsigned i = 0; i * 32 < width; i++) {
        unsigned take = width - i * 32 < 32 ? width - i * 32 : 32;
        out[i] = (uint32_t)ibw_rec_get(w, lo + i * 32, take);
    }
}

/* Record order: write the low `width` bits of v[] (IBW_WIDE_WORDS(width)
 * words) at bit `lo`; bits of v above `width` are ignored. */
static inline void ibw_rec_set_wide(uint32_t *w, unsigned lo, unsigned width,
                                    const uint32_t *v)
{
    for (unsigned i = 0; i * 32 < width; i++) {
        unsigned take = width - i * 32 < 32 ? width - i * 32 : 32;
        ibw_rec_set(w, lo + i * 32, take, v[i]);
    }
}

/*
 * IBW_WIDE_RECORD_FORMAT: as IBW_RECORD_FORMAT, but a field's KIND may also
 * be WIDE (any width).  A WIDE field is a struct member
 * uint32_t name[IBW_WIDE_WORDS(width)], with accessors
 *   void pfx##_get_NAME(const uint32_t *w, uint32_t *out)
 *   void pfx##_set_NAME(uint32_t *w, const uint32_t *v)
 * and descriptor kind IBW_FK_WIDE.  Integer kinds behave exactly as in
 * IBW_RECORD_FORMAT.
 */
#define IBW__XMEMBER_INT(name, hi, lo, T) T name;
#define IBW__XMEMBER_U8(name, hi, lo) IBW__XMEMBER_INT(name, hi, lo, uint8_t)
#define IBW__XMEMBER_U16(name, hi, lo) IBW__XMEMBER_INT(name, hi, lo, uint16_t)
#define IBW__XMEMBER_U32(name, hi, lo) IBW__XMEMBER_INT(name, hi, lo, uint32_t)
#define IBW__XMEMBER_U64(name, hi, lo) IBW__XMEMBER_INT(name, hi, lo, uint64_t)
#define IBW__XMEMBER_WIDE(name, hi, lo) \
    uint32_t name[IBW_WIDE_WORDS((hi) - (lo) + 1)];
#define IBW__XMEMBER(c, name, hi, lo, kind, desc) \
    IBW__XMEMBER_##kind(name, hi, lo)

#define IBW__RACC_WIDE(pfx, name, hi, lo)                                      \
    static inline void pfx##_get_##name(const uint32_t *w, uint32_t *out)      \
    {                                                                          \
        ibw_rec_get_wide(w, (lo), (hi) - (lo) + 1, out);                       \
    }                                                                          \
    static inline void pfx##_set_##name(uint32_t *w, const uint32_t *v)        \
    {                                                                          \
        ibw_rec_set_wide(w, (lo), (hi) - (lo) + 1, v);                         \
    }

#define IBW__XPACK_INT(s, name, hi, lo) \
    ibw_rec_set(w, (lo), (hi) - (lo) + 1, (uint64_t)s->name);
#define IBW__XPACK_U8 IBW__XPACK_INT
#define IBW__XPACK_U16 IBW__XPACK_INT
#define IBW__XPACK_U32 IBW__XPACK_INT
#define IBW__XPACK_U64 IBW__XPACK_INT
#define IBW__XPACK_WIDE(s, name, hi, lo) \
    ibw_rec_set_wide(w, (lo), (hi) - (lo) + 1, s->name);
#define IBW__XPACK(s, name, hi, lo, kind, desc) IBW__XPACK_##kind(s, name, hi, lo)

#define IBW__XUNPACK_INT(s, name, hi, lo, T) \
    s->name = (T)ibw_rec_get(w, (lo), (hi) - (lo) + 1);
#define IBW__XUNPACK_U8(s, name, hi, lo) IBW__XUNPACK_INT(s, name, hi, lo, uint8_t)
#define IBW__XUNPACK_U16(s, name, hi, lo) IBW__XUNPACK_INT(s, name, hi, lo, uint16_t)
#define IBW__XUNPACK_U32(s, name, hi, lo) IBW__XUNPACK_INT(s, name, hi, lo, uint32_t)
#define IBW__XUNPACK_U64(s, name, hi, lo) IBW__XUNPACK_INT(s, name, hi, lo, uint64_t)
#define IBW__XUNPACK_WIDE(s, name, hi, lo) \
    ibw_rec_get_wide(w, (lo), (hi) - (lo) + 1, s->name);
#define IBW__XUNPACK(s, name, hi, lo, kind, desc) \
    IBW__XUNPACK_##kind(s, name, hi, lo)

#define IBW__XFK_U8 IBW_FK_UINT
#define IBW__XFK_U16 IBW_FK_UINT
#define IBW__XFK_U32 IBW_FK_UINT
#define IBW__XFK_U64 IBW_FK_UINT
#define IBW__XFK_WIDE IBW_FK_WIDE
#define IBW__XDESC(c, name, hi, lo, kind, desc) \
    {#name, (uint32_t)(lo), (uint32_t)((hi) - (lo) + 1), IBW__XFK_##kind, desc},

#define IBW_WIDE_RECORD_FORMAT(pfx, LIST, width, NAME, ID, TITLE, SOURCE,     \
                               LAYOUT)                                         \
    IBW__RECORD_BODY(pfx, LIST, width, NAME, ID, TITLE, SOURCE, LAYOUT,        \
                     IBW__XMEMBER, IBW__XPACK, IBW__XUNPACK, IBW__XDESC)

#ifdef __cplusplus
}
#endif

#endif /* IBWIRE_BASE_H */
