/* SPDX-License-Identifier: Apache-2.0 */
/*
 * wire_check.h - the properties every IBW_WIRE_FORMAT format must keep,
 * generated from the format's own field list so that a new format is one
 * line in a harness table.
 *
 * For a format with prefix pfx and field list LIST, WIRE_CHECK_DEFINE emits
 *   void wire_check_<pfx>(const uint8_t *p, size_t len, struct fuzz_in *v)
 * which checks, on input bytes p/len and values drawn from v:
 *   - decode refuses a short buffer with IBW_E_TRUNCATED, encode with
 *     IBW_E_NOSPACE;
 *   - decode -> encode reproduces the bytes exactly (every bit is listed,
 *     reserved ones included; wire_check_coverage proves that);
 *   - each field read by decode, by the fast getter and through the
 *     descriptor equals a bit-by-bit reference read written here, apart
 *     from ibw_wire_get;
 *   - each fast setter and ibw_field_set change exactly the field's bits
 *     (compared with a bit-by-bit reference write), and ibw_field_set
 *     refuses a value wider than the field;
 *   - encode of a struct of arbitrary values, decoded again, gives each
 *     value masked to its width (encode -> decode is a fixed point).
 */
#ifndef IBWIRE_FUZZ_WIRE_CHECK_H
#define IBWIRE_FUZZ_WIRE_CHECK_H

#include <ibwire/base.h>

#include "fuzz_common.h"

/* Reference accessors: one bit at a time, IBA order (bit 0 = MSB of byte
 * 0).  Deliberately naive so they share no code with ibw_wire_get/set. */
static inline uint64_t ref_wire_get(const uint8_t *p, unsigned pos,
                                    unsigned width)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < width; i++) {
        unsigned bit = pos + i;
        v = (v << 1) | ((p[bit / 8] >> (7 - bit % 8)) & 1u);
    }
    return v;
}

static inline void ref_wire_set(uint8_t *p, unsigned pos, unsigned width,
                                uint64_t v)
{
    for (unsigned i = 0; i < width; i++) {
        unsigned bit = pos + i;
        uint8_t m = (uint8_t)(0x80u >> (bit % 8));
        if ((v >> (width - 1 - i)) & 1u)
            p[bit / 8] = (uint8_t)(p[bit / 8] | m);
        else
            p[bit / 8] = (uint8_t)(p[bit / 8] & ~m);
    }
}

/*
 * Descriptor sanity, independent of any input: every field inside the
 * format, no bit claimed twice and, when `all_bits` (wire formats list
 * their reserved bits), every bit claimed once.  Field names unique.
 * Aborts naming the format otherwise.
 */
static inline void wire_check_coverage(const struct ibw_format *fmt,
                                       int all_bits)
{
    static uint8_t owner[65536];
    FUZZ_CHECK_AT(fmt->width > 0 && fmt->width <= 8 * sizeof owner,
                  fmt->name);
    memset(owner, 0, (fmt->width + 7) / 8);
    for (size_t i = 0; i < fmt->nfields; i++) {
        const struct ibw_field *f = &fmt->fields[i];
        FUZZ_CHECK_AT(f->width > 0, f->name);
        FUZZ_CHECK_AT((uint64_t)f->pos + f->width <= fmt->width, f->name);
        FUZZ_CHECK_AT(f->kind != IBW_FK_UINT || f->width <= 64, f->name);
        FUZZ_CHECK_AT(f->kind != IBW_FK_BYTES ||
                          (f->pos % 8 == 0 && f->width % 8 == 0),
                      f->name);
        FUZZ_CHECK_AT(ibw_format_field(fmt, f->name) == f, f->name);
        for (uint32_t b = f->pos; b < f->pos + f->width; b++) {
            uint8_t m = (uint8_t)(1u << (b % 8));
            FUZZ_CHECK_AT(!(owner[b / 8] & m), f->name);
            owner[b / 8] = (uint8_t)(owner[b / 8] | m);
        }
    }
    if (all_bits)
        for (uint32_t b = 0; b < fmt->width; b++)
            FUZZ_CHECK_AT(owner[b / 8] & (1u << (b % 8)), fmt->name);
}

/* A wire-convention format of min_bytes..max_bytes with the descriptor
 * sanity above: what each harness asks of its table before fuzzing. */
static inline void wire_check_wire_descriptor(const struct ibw_format *fmt,
                                              size_t min_bytes,
                                              size_t max_bytes, int all_bits)
{
    FUZZ_CHECK_AT(fmt->conv == IBW_CONV_WIRE, fmt->name);
    FUZZ_CHECK_AT(ibw_format_bytes(fmt) >= min_bytes &&
                      ibw_format_bytes(fmt) <= max_bytes,
                  fmt->name);
    wire_check_coverage(fmt, all_bits);
}

#define WIRE_T_U8 uint8_t
#define WIRE_T_U16 uint16_t
#define WIRE_T_U32 uint32_t
#define WIRE_T_U64 uint64_t

/* The per-field checks on decoded struct `s` of bytes `p` (at least
 * pfx##_SIZE long), descriptor table `fmt`, values from `v`. */
#define WIRE__FIELD_INT(pfx, name, off, bit, w, T)                          \
    {                                                                       \
        const unsigned pos_ = (off) * 8u + (bit);                           \
        const uint64_t want_ = ref_wire_get(p, pos_, (w));                  \
        const struct ibw_field *f_ = ibw_format_field(fmt, #name);          \
        uint64_t via_desc_ = ~want_;                                        \
        FUZZ_CHECK_AT(f_ && f_->pos == pos_ && f_->width == (w) &&          \
                          f_->kind == IBW_FK_UINT,                          \
                      #pfx "." #name);                                      \
        FUZZ_CHECK_AT((uint64_t)s.name == want_, #pfx "." #name);           \
        FUZZ_CHECK_AT((uint64_t)pfx##_get_##name(p) == want_,               \
                      #pfx "." #name);                                      \
        FUZZ_CHECK_AT(ibw_field_get(fmt, f_, p, pfx##_SIZE, &via_desc_) ==  \
                              IBW_OK && via_desc_ == want_,                 \
                      #pfx "." #name);                                      \
        uint64_t val_ = fuzz_u64(v);                                        \
        uint64_t fits_ = (uint64_t)(T)val_ & ibw_mask64(w);                 \
        memcpy(fast_, p, pfx##_SIZE);                                       \
        memcpy(ref_, p, pfx##_SIZE);                                        \
        pfx##_set_##name(fast_, (T)val_);                                   \
        ref_wire_set(ref_, pos_, (w), fits_);                               \
        FUZZ_CHECK_AT(memcmp(fast_, ref_, pfx##_SIZE) == 0, #pfx "." #name);\
        memcpy(fast_, p, pfx##_SIZE);                                       \
        int rc_ = ibw_field_set(fmt, f_, fast_, pfx##_SIZE, val_);          \
        if (val_ & ~ibw_mask64(w)) {                                        \
            FUZZ_CHECK_AT(rc_ == IBW_E_RANGE &&                             \
                              memcmp(fast_, p, pfx##_SIZE) == 0,            \
                          #pfx "." #name);                                  \
        } else {                                                            \
            memcpy(ref_, p, pfx##_SIZE);                                    \
            ref_wire_set(ref_, pos_, (w), val_);                            \
            FUZZ_CHECK_AT(rc_ == IBW_OK &&                                  \
                              memcmp(fast_, ref_, pfx##_SIZE) == 0,         \
                          #pfx "." #name);                                  \
        }                                                                   \
        t.name = (T)val_;                                                   \
    }
#define WIRE__FIELD_U8(pfx, name, off, bit, w) \
    WIRE__FIELD_INT(pfx, name, off, bit, w, uint8_t)
#define WIRE__FIELD_U16(pfx, name, off, bit, w) \
    WIRE__FIELD_INT(pfx, name, off, bit, w, uint16_t)
#define WIRE__FIELD_U32(pfx, name, off, bit, w) \
    WIRE__FIELD_INT(pfx, name, off, bit, w, uint32_t)
#define WIRE__FIELD_U64(pfx, name, off, bit, w) \
    WIRE__FIELD_INT(pfx, name, off, bit, w, uint64_t)
#define WIRE__FIELD_BYTES(pfx, name, off, bit, w)                           \
    {                                                                       \
        const struct ibw_field *f_ = ibw_format_field(fmt, #name);          \
        FUZZ_CHECK_AT(f_ && f_->pos == (off) * 8u && f_->width == (w) &&    \
                          f_->kind == IBW_FK_BYTES,                         \
                      #pfx "." #name);                                      \
        FUZZ_CHECK_AT(memcmp(s.name, p + (off), (w) / 8) == 0,              \
                      #pfx "." #name);                                      \
        FUZZ_CHECK_AT(pfx##_get_##name(p) == p + (off), #pfx "." #name);    \
        FUZZ_CHECK_AT(ibw_field_bytes(f_, p, pfx##_SIZE) == p + (off),      \
                      #pfx "." #name);                                      \
        for (size_t i_ = 0; i_ < (w) / 8; i_++)                             \
            t.name[i_] = fuzz_u8(v);                                        \
        memcpy(fast_, p, pfx##_SIZE);                                       \
        pfx##_set_##name(fast_, t.name);                                    \
        FUZZ_CHECK_AT(memcmp(fast_ + (off), t.name, (w) / 8) == 0 &&        \
                          memcmp(fast_, p, (off)) == 0 &&                   \
                          memcmp(fast_ + (off) + (w) / 8,                   \
                                 p + (off) + (w) / 8,                       \
                                 pfx##_SIZE - (off) - (w) / 8) == 0,        \
                      #pfx "." #name);                                      \
    }
#define WIRE__FIELD(pfx, name, off, bit, w, kind, desc) \
    WIRE__FIELD_##kind(pfx, name, off, bit, w)

/* After encode(t) and decode into u: each value masked to its width. */
#define WIRE__REDEC_INT(pfx, name, w)                                       \
    FUZZ_CHECK_AT((uint64_t)u.name == ((uint64_t)t.name & ibw_mask64(w)),   \
                  #pfx "." #name " re-decoded");
#define WIRE__REDEC_U8 WIRE__REDEC_INT
#define WIRE__REDEC_U16 WIRE__REDEC_INT
#define WIRE__REDEC_U32 WIRE__REDEC_INT
#define WIRE__REDEC_U64 WIRE__REDEC_INT
#define WIRE__REDEC_BYTES(pfx, name, w)                                     \
    FUZZ_CHECK_AT(memcmp(u.name, t.name, (w) / 8) == 0,                     \
                  #pfx "." #name " re-decoded");
#define WIRE__REDEC(pfx, name, off, bit, w, kind, desc) \
    WIRE__REDEC_##kind(pfx, name, w)

#define WIRE_CHECK_DEFINE(pfx, LIST)                                        \
    static void wire_check_##pfx(const uint8_t *p, size_t len,             \
                                 struct fuzz_in *v)                         \
    {                                                                       \
        const struct ibw_format *fmt = pfx##_format();                      \
        struct pfx s, t, u;                                                 \
        uint8_t out_[pfx##_SIZE], fast_[pfx##_SIZE], ref_[pfx##_SIZE];      \
        memset(&s, 0, sizeof s);                                            \
        memset(&t, 0, sizeof t);                                            \
        memset(&u, 0, sizeof u);                                            \
        FUZZ_CHECK_AT(ibw_format_bytes(fmt) == pfx##_SIZE, #pfx);           \
        if (len < pfx##_SIZE) {                                             \
            FUZZ_CHECK_AT(pfx##_decode(p, len, &s) == IBW_E_TRUNCATED,      \
                          #pfx);                                            \
            FUZZ_CHECK_AT(pfx##_encode(&s, out_, len) == IBW_E_NOSPACE,     \
                          #pfx);                                            \
            return;                                                         \
        }                                                                   \
        FUZZ_CHECK_AT(pfx##_decode(p, len, &s) == IBW_OK, #pfx);            \
        memset(out_, 0xA5, sizeof out_);                                    \
        FUZZ_CHECK_AT(pfx##_encode(&s, out_, sizeof out_) == IBW_OK, #pfx); \
        FUZZ_CHECK_AT(memcmp(out_, p, pfx##_SIZE) == 0,                     \
                      #pfx " decode->encode");                              \
        LIST(WIRE__FIELD, pfx)                                              \
        memset(out_, 0x5A, sizeof out_);                                    \
        FUZZ_CHECK_AT(pfx##_encode(&t, out_, sizeof out_) == IBW_OK, #pfx); \
        FUZZ_CHECK_AT(pfx##_decode(out_, sizeof out_, &u) == IBW_OK, #pfx); \
        LIST(WIRE__REDEC, pfx)                                              \
    }

#endif /* IBWIRE_FUZZ_WIRE_CHECK_H */
