/* SPDX-License-Identifier: Apache-2.0 */
/*
 * format_check.h - properties every format keeps, driven by its descriptor
 * table alone (so that a harness can walk a whole family list or the
 * registry) plus the typed decode/encode or pack/unpack its generator made.
 *
 * Wire formats (IBW_CONV_WIRE, IBA bit order over bytes):
 *   - every field read through its descriptor equals the bit-by-bit
 *     reference read of wire_check.h; writing a value through the
 *     descriptor changes exactly that field's bits (or is refused with
 *     IBW_E_RANGE when the value is too wide);
 *   - writing every field's value into a blank buffer through the
 *     descriptors rebuilds the input's covered bits;
 *   - typed decode -> encode reproduces every covered bit and touches no
 *     other byte; short buffers are refused.
 * Records (IBW_CONV_RECORD, bus order over little-endian words):
 *   - the same descriptor properties against a bit-by-bit bus reference,
 *     for integer and WIDE fields, and the byte-image path of base.h
 *     (ibw_field_get on ibw_rec_to_bytes) agrees with the word path;
 *   - unpack -> pack keeps exactly the listed bits (reserved bits come
 *     back zero), and pack -> unpack -> pack is a fixed point.
 */
#ifndef IBWIRE_FUZZ_FORMAT_CHECK_H
#define IBWIRE_FUZZ_FORMAT_CHECK_H

#include <ibwire/base.h>
#include <ibwire/registry.h> /* record field access by descriptor */

#include "fuzz_common.h"
#include "wire_check.h"

/* Largest format the checks handle, in bytes (a MAD is 256). */
#define FMT_MAX_BYTES 512

/* Bit `b` of a wire-order byte buffer / of a record word array. */
static inline unsigned wbit(const uint8_t *p, uint32_t b)
{
    return (p[b / 8] >> (7 - b % 8)) & 1u;
}
static inline unsigned rbit(const uint32_t *w, uint32_t b)
{
    return (w[b / 32] >> (b % 32)) & 1u;
}

/* Covered bits of a format as a mask in the format's own layout: bytes in
 * IBA order for wire formats, words for records (mask_w). */
static inline void fmt_mask_wire(const struct ibw_format *fmt, uint8_t *mask)
{
    memset(mask, 0, ibw_format_bytes(fmt));
    for (size_t i = 0; i < fmt->nfields; i++)
        for (uint32_t b = fmt->fields[i].pos;
             b < fmt->fields[i].pos + fmt->fields[i].width; b++)
            mask[b / 8] = (uint8_t)(mask[b / 8] | (0x80u >> (b % 8)));
}
static inline void fmt_mask_record(const struct ibw_format *fmt,
                                   uint32_t *mask)
{
    memset(mask, 0, ibw_format_bytes(fmt));
    for (size_t i = 0; i < fmt->nfields; i++)
        for (uint32_t b = fmt->fields[i].pos;
             b < fmt->fields[i].pos + fmt->fields[i].width; b++)
            mask[b / 32] |= 1u << (b % 32);
}

/*
 * Descriptor checks of a wire format on p (at least ibw_format_bytes(fmt)
 * bytes), values drawn from v.
 */
static inline void check_wire_descriptors(const struct ibw_format *fmt,
                                          const uint8_t *p, struct fuzz_in *v)
{
    size_t n = ibw_format_bytes(fmt);
    uint8_t a[FMT_MAX_BYTES], b[FMT_MAX_BYTES], rebuilt[FMT_MAX_BYTES],
        mask[FMT_MAX_BYTES];
    FUZZ_CHECK_AT(n <= FMT_MAX_BYTES, fmt->name);
    fmt_mask_wire(fmt, mask);
    memset(rebuilt, 0, n);
    for (size_t i = 0; i < fmt->nfields; i++) {
        const struct ibw_field *f = &fmt->fields[i];
        if (f->kind == IBW_FK_BYTES) {
            const uint8_t *at = ibw_field_bytes(f, p, n);
            FUZZ_CHECK_AT(at == p + f->pos / 8, f->name);
            memcpy(rebuilt + f->pos / 8, at, f->width / 8);
            FUZZ_CHECK_AT(ibw_field_bytes(f, p, f->pos / 8) == NULL ||
                              f->width == 0,
                          f->name);
            continue;
        }
        FUZZ_CHECK_AT(f->kind == IBW_FK_UINT, f->name);
        uint64_t got = 0, want = ref_wire_get(p, f->pos, f->width);
        FUZZ_CHECK_AT(ibw_field_get(fmt, f, p, n, &got) == IBW_OK &&
                          got == want,
                      f->name);
        /* A field past the end of a short buffer is refused. */
        FUZZ_CHECK_AT(ibw_field_get(fmt, f, p, f->pos / 8, &got) ==
                          IBW_E_TRUNCATED,
                      f->name);
        FUZZ_CHECK_AT(ibw_field_set(fmt, f, rebuilt, n, want) == IBW_OK,
                      f->name);
        uint64_t val = fuzz_u64(v);
        if (fuzz_u8(v) & 1)
            val &= ibw_mask64(f->width); /* mostly values that fit */
        memcpy(a, p, n);
        memcpy(b, p, n);
        int rc = ibw_field_set(fmt, f, a, n, val);
        if (val & ~ibw_mask64(f->width)) {
            FUZZ_CHECK_AT(rc == IBW_E_RANGE && memcmp(a, p, n) == 0,
                          f->name);
        } else {
            ref_wire_set(b, f->pos, f->width, val);
            FUZZ_CHECK_AT(rc == IBW_OK && memcmp(a, b, n) == 0, f->name);
        }
    }
    for (size_t i = 0; i < n; i++)
        FUZZ_CHECK_AT(rebuilt[i] == (p[i] & mask[i]), fmt->name);
}

/* Typed decode -> encode of wire format pfx on p/len (any length). */
#define WIRE_TYPED_DEFINE(pfx)                                               \
    static void typed_##pfx(const uint8_t *p, size_t len)                   \
    {                                                                        \
        struct pfx s;                                                        \
        uint8_t out[pfx##_SIZE], mask[pfx##_SIZE];                           \
        memset(&s, 0, sizeof s);                                             \
        if (len < pfx##_SIZE) {                                              \
            FUZZ_CHECK_AT(pfx##_decode(p, len, &s) == IBW_E_TRUNCATED, #pfx);\
            FUZZ_CHECK_AT(pfx##_encode(&s, out, len) == IBW_E_NOSPACE, #pfx);\
            return;                                                          \
        }                                                                    \
        FUZZ_CHECK_AT(pfx##_decode(p, len, &s) == IBW_OK, #pfx);             \
        memset(out, 0xA5, sizeof out);                                       \
        FUZZ_CHECK_AT(pfx##_encode(&s, out, sizeof out) == IBW_OK, #pfx);    \
        fmt_mask_wire(pfx##_format(), mask);                                 \
        for (size_t i = 0; i < sizeof out; i++)                              \
            FUZZ_CHECK_AT((out[i] & mask[i]) == (p[i] & mask[i]) &&          \
                              (out[i] & ~mask[i]) == (0xA5 & ~mask[i]),      \
                          #pfx " decode->encode");                           \
    }

/*
 * Descriptor checks of a record format on words w (ibw_format_bytes(fmt)/4
 * of them), values drawn from v.
 */
static inline void check_record_descriptors(const struct ibw_format *fmt,
                                            const uint32_t *w,
                                            struct fuzz_in *v)
{
    enum { MAXW = FMT_MAX_BYTES / 4 };
    size_t nw = ibw_format_bytes(fmt) / 4;
    uint32_t a[MAXW], b[MAXW], val[MAXW], got[MAXW], mask[MAXW];
    uint8_t image[FMT_MAX_BYTES];
    FUZZ_CHECK_AT(nw <= MAXW, fmt->name);
    fmt_mask_record(fmt, mask);
    ibw_rec_to_bytes(w, nw, image);
    for (size_t i = 0; i < fmt->nfields; i++) {
        const struct ibw_field *f = &fmt->fields[i];
        size_t fw = IBW_WIDE_WORDS((size_t)f->width);
        FUZZ_CHECK_AT(f->kind == IBW_FK_UINT || f->kind == IBW_FK_WIDE,
                      f->name);
        FUZZ_CHECK_AT(f->kind == IBW_FK_WIDE || f->width <= 64, f->name);
        /* Word path against the bit-by-bit reference. */
        memset(got, 0xEE, sizeof got);
        FUZZ_CHECK_AT(ibw_record_field_get_words(fmt, f, w, got, fw) ==
                          IBW_OK,
                      f->name);
        for (uint32_t k = 0; k < f->width; k++)
            FUZZ_CHECK_AT(rbit(got, k) == rbit(w, f->pos + k), f->name);
        if (f->width % 32)
            FUZZ_CHECK_AT((got[fw - 1] >> (f->width % 32)) == 0, f->name);
        if (fw > 1 || f->width > 1)
            FUZZ_CHECK_AT(ibw_record_field_get_words(fmt, f, w, got, 0) ==
                              IBW_E_NOSPACE,
                          f->name);
        if (f->kind == IBW_FK_UINT) {
            uint64_t x = 0, y = 0;
            FUZZ_CHECK_AT(ibw_record_field_get(fmt, f, w, &x) == IBW_OK,
                          f->name);
            FUZZ_CHECK_AT(ibw_field_get(fmt, f, image, nw * 4, &y) == IBW_OK,
                          f->name);
            uint64_t want = got[0] | (fw > 1 ? (uint64_t)got[1] << 32 : 0);
            FUZZ_CHECK_AT(x == want && y == want, f->name);
        }
        /* Writing a value changes exactly the field's bits. */
        for (size_t k = 0; k < fw; k++)
            val[k] = (uint32_t)fuzz_u64(v);
        if (fuzz_u8(v) & 1) /* mostly values that fit */
            for (size_t k = 0; k < fw; k++)
                val[k] &= k * 32 + 32 <= f->width
                              ? 0xFFFFFFFFu
                              : (uint32_t)ibw_mask64(f->width - (unsigned)k * 32);
        int too_wide = 0;
        for (uint32_t k = f->width; k < fw * 32; k++)
            too_wide |= (int)rbit(val, k);
        memcpy(a, w, nw * 4);
        memcpy(b, w, nw * 4);
        int rc = ibw_record_field_set_words(fmt, f, a, val, fw);
        if (too_wide) {
            FUZZ_CHECK_AT(rc == IBW_E_RANGE && memcmp(a, w, nw * 4) == 0,
                          f->name);
            continue;
        }
        for (uint32_t k = 0; k < f->width; k++) {
            uint32_t bit = f->pos + k;
            b[bit / 32] = (b[bit / 32] & ~(1u << (bit % 32))) |
                          (uint32_t)rbit(val, k) << (bit % 32);
        }
        FUZZ_CHECK_AT(rc == IBW_OK && memcmp(a, b, nw * 4) == 0, f->name);
        if (f->kind == IBW_FK_UINT) {
            uint64_t x = val[0] | (fw > 1 ? (uint64_t)val[1] << 32 : 0);
            memcpy(a, w, nw * 4);
            FUZZ_CHECK_AT(ibw_record_field_set(fmt, f, a, x) == IBW_OK &&
                              memcmp(a, b, nw * 4) == 0,
                          f->name);
        }
    }
}

/* Typed unpack -> pack of record pfx on words w. */
#define RECORD_TYPED_DEFINE(pfx)                                             \
    static void typed_##pfx(const uint32_t *w)                              \
    {                                                                        \
        struct pfx s, t;                                                     \
        uint32_t out[pfx##_WORDS], again[pfx##_WORDS], mask[pfx##_WORDS];    \
        memset(&s, 0, sizeof s);                                             \
        memset(&t, 0, sizeof t);                                             \
        pfx##_unpack(w, &s);                                                 \
        memset(out, 0xA5, sizeof out);                                       \
        pfx##_pack(&s, out);                                                 \
        fmt_mask_record(pfx##_format(), mask);                               \
        for (size_t i = 0; i < pfx##_WORDS; i++)                             \
            FUZZ_CHECK_AT(out[i] == (w[i] & mask[i]),                        \
                          #pfx " unpack->pack");                             \
        pfx##_unpack(out, &t);                                               \
        pfx##_pack(&t, again);                                               \
        FUZZ_CHECK_AT(memcmp(out, again, sizeof out) == 0,                   \
                      #pfx " pack->unpack->pack");                           \
    }

#endif /* IBWIRE_FUZZ_FORMAT_CHECK_H */
