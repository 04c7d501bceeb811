/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lib_record.c - every registry format as one bus value (ibwire_lib.h,
 * "Records by name").  An engine record's fields already sit at their bus
 * bits; a wire-convention format (byte 0 first, bit 0 its MSB) is read as
 * one big-endian number, so a field `pos` bits from the start and `w`
 * wide sits at bus bits [width - pos - w, width - pos).  Both are then
 * the same slice of a little-endian word array, which the header
 * library's record accessors move.
 */
#include <string.h>

#include "ibwire.h"
#include "ibwire/registry.h"
#include "lib_int.h"

static const struct ibw_format *record_of(int rec)
{
    return rec < 0 ? NULL : ibw_registry_get((size_t)rec);
}

static const struct ibw_field *field_of(const struct ibw_format *fmt,
                                        int field)
{
    return fmt && field >= 0 && (size_t)field < fmt->nfields
               ? &fmt->fields[field]
               : NULL;
}

/* The field's lowest bit in the bus value. */
static uint32_t bus_lsb(const struct ibw_format *fmt, const struct ibw_field *f)
{
    return fmt->conv == IBW_CONV_RECORD ? f->pos
                                        : fmt->width - f->pos - f->width;
}

/* A descriptor whose field lies outside its format would make the
 * accessors reach past the caller's words: never used. */
static int field_sound(const struct ibw_format *fmt, const struct ibw_field *f)
{
    return f->width > 0 && f->pos <= fmt->width &&
           f->width <= fmt->width - f->pos;
}

IBWIRE_API int ibwire_record_count(void)
{
    return (int)ibw_registry_count();
}

IBWIRE_API int ibwire_record_lookup(const char *name)
{
    if (!name)
        return IBWIRE_E_ARG;
    size_t n = ibw_registry_count();
    for (size_t i = 0; i < n; i++) {
        const struct ibw_format *f = ibw_registry_get(i);
        if (strcmp(f->name, name) == 0 || (f->id && strcmp(f->id, name) == 0))
            return (int)i;
    }
    return IBWIRE_E_NAME;
}

IBWIRE_API const char *ibwire_record_name(int rec)
{
    const struct ibw_format *f = record_of(rec);
    return f ? f->name : NULL;
}

IBWIRE_API const char *ibwire_record_id(int rec)
{
    const struct ibw_format *f = record_of(rec);
    return f ? f->id : NULL;
}

IBWIRE_API const char *ibwire_record_title(int rec)
{
    const struct ibw_format *f = record_of(rec);
    return f ? f->title : NULL;
}

IBWIRE_API int ibwire_record_bits(int rec)
{
    const struct ibw_format *f = record_of(rec);
    return f ? (int)f->width : IBWIRE_E_ARG;
}

IBWIRE_API int ibwire_record_words(int rec)
{
    const struct ibw_format *f = record_of(rec);
    return f ? (int)IBW_WIDE_WORDS(f->width) : IBWIRE_E_ARG;
}

IBWIRE_API int ibwire_record_field_count(int rec)
{
    const struct ibw_format *f = record_of(rec);
    return f ? (int)f->nfields : IBWIRE_E_ARG;
}

IBWIRE_API const char *ibwire_record_field_name(int rec, int field)
{
    const struct ibw_field *f = field_of(record_of(rec), field);
    return f ? f->name : NULL;
}

IBWIRE_API int ibwire_record_field_lsb(int rec, int field)
{
    const struct ibw_format *fmt = record_of(rec);
    const struct ibw_field *f = field_of(fmt, field);
    return f && field_sound(fmt, f) ? (int)bus_lsb(fmt, f) : IBWIRE_E_ARG;
}

IBWIRE_API int ibwire_record_field_width(int rec, int field)
{
    const struct ibw_field *f = field_of(record_of(rec), field);
    return f ? (int)f->width : IBWIRE_E_ARG;
}

IBWIRE_API int ibwire_record_field_lookup(int rec, const char *name)
{
    const struct ibw_format *fmt = record_of(rec);
    if (!fmt || !name)
        return IBWIRE_E_ARG;
    const struct ibw_field *f = ibw_format_field(fmt, name);
    return f ? (int)(f - fmt->fields) : IBWIRE_E_NAME;
}

/* The format and field for a set/get on nwords words: 0, or IBWIRE_E_*. */
static int access_of(int rec, int field, size_t nwords,
                     const struct ibw_format **fmtp,
                     const struct ibw_field **fp)
{
    const struct ibw_format *fmt = record_of(rec);
    const struct ibw_field *f = field_of(fmt, field);
    if (!f || !field_sound(fmt, f))
        return IBWIRE_E_ARG;
    if (nwords < IBW_WIDE_WORDS((size_t)fmt->width))
        return IBWIRE_E_NOSPACE;
    *fmtp = fmt;
    *fp = f;
    return 0;
}

IBWIRE_API int ibwire_record_set(int rec, int field, uint32_t *words,
                                 size_t nwords, const uint32_t *v, size_t nv)
{
    const struct ibw_format *fmt;
    const struct ibw_field *f;
    int rc = access_of(rec, field, nwords, &fmt, &f);
    if (rc)
        return rc;
    if (!words || (!v && nv))
        return IBWIRE_E_ARG;
    for (size_t i = 0; i < nv; i++) {
        /* the field's bits left for this word: above them, none may be set */
        size_t room = f->width > i * 32 ? f->width - i * 32 : 0;
        if (room < 32 && (v[i] >> room) != 0)
            return IBWIRE_E_RANGE;
    }
    /* word by word, the missing high words of v zero */
    uint32_t lsb = bus_lsb(fmt, f);
    for (uint32_t done = 0; done < f->width; done += 32) {
        unsigned take = f->width - done < 32 ? f->width - done : 32;
        size_t i = done / 32;
        ibw_rec_set(words, lsb + done, take, i < nv ? v[i] : 0);
    }
    return 0;
}

IBWIRE_API int ibwire_record_get(int rec, int field, const uint32_t *words,
                                 size_t nwords, uint32_t *v, size_t nv)
{
    const struct ibw_format *fmt;
    const struct ibw_field *f;
    int rc = access_of(rec, field, nwords, &fmt, &f);
    if (rc)
        return rc;
    if (!words || !v)
        return IBWIRE_E_ARG;
    if (nv < IBW_WIDE_WORDS((size_t)f->width))
        return IBWIRE_E_NOSPACE;
    ibw_rec_get_wide(words, bus_lsb(fmt, f), f->width, v);
    return 0;
}

/* Record and field numbers by name: 0, or IBWIRE_E_*. */
static int by_names(const char *rec, const char *field, int *r, int *f)
{
    if (!rec || !field)
        return IBWIRE_E_ARG;
    *r = ibwire_record_lookup(rec);
    if (*r < 0)
        return *r;
    *f = ibwire_record_field_lookup(*r, field);
    return *f < 0 ? *f : 0;
}

IBWIRE_API int ibwire_record_set_u64(const char *rec, const char *field,
                                     uint32_t *words, size_t nwords,
                                     uint64_t v)
{
    int r, f;
    int rc = by_names(rec, field, &r, &f);
    if (rc)
        return rc;
    if (record_of(r)->fields[f].width > 64)
        return IBWIRE_E_FIELD;
    uint32_t parts[2] = {(uint32_t)v, (uint32_t)(v >> 32)};
    return ibwire_record_set(r, f, words, nwords, parts, 2);
}

IBWIRE_API int ibwire_record_get_u64(const char *rec, const char *field,
                                     const uint32_t *words, size_t nwords,
                                     uint64_t *v)
{
    int r, f;
    int rc = by_names(rec, field, &r, &f);
    if (rc)
        return rc;
    if (!v)
        return IBWIRE_E_ARG;
    if (record_of(r)->fields[f].width > 64)
        return IBWIRE_E_FIELD;
    uint32_t parts[2] = {0, 0};
    rc = ibwire_record_get(r, f, words, nwords, parts, 2);
    if (rc == 0)
        *v = ((uint64_t)parts[1] << 32) | parts[0];
    return rc;
}
