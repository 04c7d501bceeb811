/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Properties of every engine record, for random field values:
 *   - unpack(pack(x)) == x;
 *   - pack writes exactly the bits of the listed fields: every other bit of
 *     the word array (reserved bits, bits above the record's width) is 0,
 *     even when the struct holds values wider than their fields;
 *   - the descriptor path (registry.h) reads the same slices as the typed
 *     path, and refuses values that do not fit.
 * The field masks and slices are computed here bit by bit from the
 * descriptors, not with the library's accessors.
 */
#include <stdlib.h>

#include "ibwire/registry.h"
#include "testutil.h"

#define ADAPT(pfx)                                                            \
    static void pfx##_p(const void *s, uint32_t *w)                           \
    {                                                                         \
        pfx##_pack((const struct pfx *)s, w);                                 \
    }                                                                         \
    static void pfx##_u(const uint32_t *w, void *s)                           \
    {                                                                         \
        pfx##_unpack(w, (struct pfx *)s);                                     \
    }
IBW_RECORD_FORMATS(ADAPT)

struct rec_ops {
    const struct ibw_format *(*format)(void);
    void (*pack)(const void *, uint32_t *);
    void (*unpack)(const uint32_t *, void *);
    size_t struct_size;
    size_t words;
};

#define ENTRY(pfx) {pfx##_format, pfx##_p, pfx##_u, sizeof(struct pfx), pfx##_WORDS},
static const struct rec_ops ops[] = {IBW_RECORD_FORMATS(ENTRY)};
#define NOPS (sizeof ops / sizeof ops[0])

enum { MAXW = IBW_RECORD_MAX_WORDS, STRUCT_MAX = 512 };

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint32_t rnd32(void)
{
    /* xorshift64*: reproducible, independent of the C library */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 0x2545F4914F6CDD1Dull) >> 32);
}

static int bit_of(const uint32_t *w, uint32_t b)
{
    return (int)((w[b / 32] >> (b % 32)) & 1u);
}

/* Mask of every bit some field of fmt covers. */
static void field_mask(const struct ibw_format *fmt, uint32_t *mask)
{
    memset(mask, 0, MAXW * sizeof *mask);
    for (size_t i = 0; i < fmt->nfields; i++)
        for (uint32_t b = 0; b < fmt->fields[i].width; b++) {
            uint32_t bit = fmt->fields[i].pos + b;
            mask[bit / 32] |= 1u << (bit % 32);
        }
}

static void check_descriptor(const struct rec_ops *op)
{
    const struct ibw_format *fmt = op->format();
    TU_CHECK(fmt->conv == IBW_CONV_RECORD);
    TU_EQ(op->words, (fmt->width + 31) / 32);
    TU_EQ(ibw_record_words(fmt), op->words);
    TU_CHECK(op->words <= MAXW);
    TU_CHECK(op->struct_size <= STRUCT_MAX);
    TU_CHECK(fmt->id && fmt->id[0] == 'E');
    TU_CHECK(fmt->title && fmt->title[0]);
    TU_CHECK(fmt->source && fmt->source[0]);
    TU_CHECK(fmt->layout && fmt->layout[0]);
    uint32_t seen[MAXW] = {0};
    for (size_t i = 0; i < fmt->nfields; i++) {
        const struct ibw_field *f = &fmt->fields[i];
        TU_CHECK(f->width > 0);
        TU_CHECK(f->pos + f->width <= fmt->width);
        TU_CHECK(f->kind == IBW_FK_UINT ? f->width <= 64
                                        : f->kind == IBW_FK_WIDE);
        TU_CHECK(f->desc && f->desc[0]);
        for (size_t k = 0; k < i; k++)
            TU_CHECK(strcmp(fmt->fields[k].name, f->name) != 0);
        for (uint32_t b = 0; b < f->width && f->pos + b < fmt->width; b++) {
            uint32_t bit = f->pos + b;
            if (bit_of(seen, bit)) {
                fprintf(stderr, "%s.%s overlaps bit %u\n", fmt->name, f->name,
                        (unsigned)bit);
                TU_CHECK(0);
            }
            seen[bit / 32] |= 1u << (bit % 32);
        }
    }
}

static void check_roundtrip(const struct rec_ops *op, int iter)
{
    const struct ibw_format *fmt = op->format();
    uint32_t mask[MAXW];
    field_mask(fmt, mask);

    uint32_t r[MAXW], w[MAXW], w2[MAXW];
    unsigned char s[STRUCT_MAX], s2[STRUCT_MAX];
    for (size_t i = 0; i < MAXW; i++)
        r[i] = rnd32();
    /* a few patterns besides random ones: all ones, all zeros */
    if (iter == 0)
        memset(r, 0xFF, sizeof r);
    if (iter == 1)
        memset(r, 0, sizeof r);

    memset(s, 0, sizeof s);
    op->unpack(r, s);
    memset(w, 0xA5, sizeof w);
    op->pack(s, w);
    for (size_t i = 0; i < op->words; i++)
        TU_EQ(w[i], r[i] & mask[i]);
    for (size_t i = op->words; i < MAXW; i++)
        TU_EQ(w[i], 0xA5A5A5A5u); /* pack stays inside its words */

    memset(s2, 0, sizeof s2);
    op->unpack(w, s2);
    TU_CHECK(memcmp(s, s2, op->struct_size) == 0);

    /* descriptor path: each field's slice, bit by bit */
    for (size_t i = 0; i < fmt->nfields; i++) {
        const struct ibw_field *f = &fmt->fields[i];
        uint32_t got[MAXW] = {0}, want[MAXW] = {0};
        TU_EQ(ibw_record_field_get_words(fmt, f, w, got, MAXW), IBW_OK);
        for (uint32_t b = 0; b < f->width; b++)
            want[b / 32] |= (uint32_t)bit_of(r, f->pos + b) << (b % 32);
        TU_MEMEQ(got, want, sizeof got);
        if (f->kind == IBW_FK_UINT) {
            uint64_t v = 0, v64 = (uint64_t)want[1] << 32 | want[0];
            TU_EQ(ibw_record_field_get(fmt, f, w, &v), IBW_OK);
            TU_EQ(v, v64);
            /* writing it back through the descriptor changes nothing */
            memcpy(w2, w, sizeof w2);
            TU_EQ(ibw_record_field_set(fmt, f, w2, v), IBW_OK);
            TU_MEMEQ(w2, w, sizeof w2);
            if (f->width < 64) {
                TU_EQ(ibw_record_field_set(fmt, f, w2,
                                           (uint64_t)1 << f->width),
                      IBW_E_RANGE);
                TU_MEMEQ(w2, w, sizeof w2);
            }
        } else {
            uint64_t v;
            TU_EQ(ibw_record_field_get(fmt, f, w, &v), IBW_E_FIELD);
        }
        /* one bit above the field through the word path: refused */
        uint32_t over[MAXW + 1] = {0};
        over[f->width / 32] = 1u << (f->width % 32);
        memcpy(w2, w, sizeof w2);
        TU_EQ(ibw_record_field_set_words(fmt, f, w2, over, MAXW + 1),
              IBW_E_RANGE);
        TU_MEMEQ(w2, w, sizeof w2);
        TU_EQ(ibw_record_field_set_words(fmt, f, w2, want, MAXW), IBW_OK);
        TU_MEMEQ(w2, w, sizeof w2);
    }

    /* a struct full of garbage: pack still writes only field bits */
    for (size_t i = 0; i < op->struct_size; i++)
        s[i] = (unsigned char)rnd32();
    op->pack(s, w);
    for (size_t i = 0; i < op->words; i++)
        TU_EQ(w[i] & ~mask[i], 0);
}

int main(int argc, char **argv)
{
    int iters = argc > 1 ? atoi(argv[1]) : 500;
    size_t nrec = 0;
    for (size_t i = 0; i < ibw_registry_count(); i++)
        nrec += ibw_registry_get(i)->conv == IBW_CONV_RECORD &&
                ibw_registry_get(i)->id[0] == 'E';
    TU_EQ(NOPS, nrec);
    for (size_t k = 0; k < NOPS; k++) {
        check_descriptor(&ops[k]);
        for (int i = 0; i < iters; i++)
            check_roundtrip(&ops[k], i);
    }
    /* the wire formats have no record words */
    TU_EQ(ibw_record_words(ibw_bth_format()), 0);
    uint64_t v;
    const uint32_t zero[4] = {0};
    TU_EQ(ibw_record_field_get(ibw_bth_format(), &ibw_bth_format()->fields[0],
                               zero, &v),
          IBW_E_FIELD);
    return tu_done("records_props");
}
