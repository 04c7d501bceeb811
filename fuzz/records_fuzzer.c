/* SPDX-License-Identifier: Apache-2.0 */
/*
 * records_fuzzer.c - every format of the run-time registry, chosen by
 * index: the engine-internal records (E1-E28, bus order) and whatever other
 * family the registry lists.
 *
 * Input: bytes 0-1 (little-endian) pick the registry index (modulo the
 * count); the next ibw_format_bytes(fmt) bytes are the format's image (for a
 * record: its words, each little-endian, zero-filled when the input is
 * short); the rest are values for the write checks.
 *
 * Properties (format_check.h): descriptor reads and writes agree with a
 * bit-by-bit reference for every integer and WIDE field; typed
 * unpack -> pack keeps exactly the listed bits and pack -> unpack -> pack is
 * a fixed point; typed decode -> encode of wire formats keeps every covered
 * bit.  The registry itself: every index gives a format, names are unique
 * and found by name, no field overlaps another or leaves its format.
 */
#include <ibwire/registry.h>

#include "format_check.h"
#include "fuzz_common.h"

IBW_RECORD_FORMATS(RECORD_TYPED_DEFINE)
IBW_WIRE_FORMATS(WIRE_TYPED_DEFINE)

/* The typed entry points of the families this harness knows, looked up by
 * descriptor; a registry format without one still gets the descriptor
 * checks. */
struct typed_case {
    const struct ibw_format *(*format)(void);
    void (*record)(const uint32_t *w);
    void (*wire)(const uint8_t *p, size_t len);
};
#define REC_CASE(pfx) {pfx##_format, typed_##pfx, NULL},
#define WIRE_CASE(pfx) {pfx##_format, NULL, typed_##pfx},
static const struct typed_case typed[] = {
    IBW_RECORD_FORMATS(REC_CASE) IBW_WIRE_FORMATS(WIRE_CASE)};
#define N_TYPED (sizeof typed / sizeof typed[0])

static const struct typed_case *typed_for(const struct ibw_format *fmt)
{
    for (size_t i = 0; i < N_TYPED; i++)
        if (ibw_format_same(typed[i].format(), fmt))
            return &typed[i];
    return NULL;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    size_t n = ibw_registry_count();
    FUZZ_CHECK(n > 0 && ibw_registry_get(n) == NULL);
    for (size_t i = 0; i < n; i++) {
        const struct ibw_format *fmt = ibw_registry_get(i);
        FUZZ_CHECK(fmt != NULL && fmt->name && fmt->id && fmt->nfields > 0);
        FUZZ_CHECK_AT(ibw_registry_find(fmt->name) == fmt, fmt->name);
        FUZZ_CHECK_AT(ibw_format_bytes(fmt) <= FMT_MAX_BYTES, fmt->name);
        FUZZ_CHECK_AT(fmt->conv == IBW_CONV_WIRE ||
                          fmt->conv == IBW_CONV_RECORD,
                      fmt->name);
        wire_check_coverage(fmt, 0);
        if (fmt->conv == IBW_CONV_RECORD)
            FUZZ_CHECK_AT(ibw_record_words(fmt) <= IBW_RECORD_MAX_WORDS,
                          fmt->name);
    }
    /* Every family the harness knows is registered. */
    for (size_t i = 0; i < N_TYPED; i++)
        FUZZ_CHECK_AT(ibw_registry_find(typed[i].format()->name) ==
                          typed[i].format(),
                      typed[i].format()->name);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    size_t idx = (size_t)(data[0] | data[1] << 8) % ibw_registry_count();
    const struct ibw_format *fmt = ibw_registry_get(idx);
    const struct typed_case *tc = typed_for(fmt);
    const uint8_t *p = data + 2;
    size_t len = size - 2;
    size_t n = ibw_format_bytes(fmt);
    struct fuzz_in vals = {p + (len < n ? len : n), len < n ? 0 : len - n};

    if (fmt->conv == IBW_CONV_WIRE) {
        if (tc && tc->wire)
            tc->wire(p, len);
        if (len >= n)
            check_wire_descriptors(fmt, p, &vals);
        return 0;
    }
    uint8_t image[FMT_MAX_BYTES] = {0}, back[FMT_MAX_BYTES];
    uint32_t w[FMT_MAX_BYTES / 4];
    memcpy(image, p, len < n ? len : n);
    ibw_rec_from_bytes(image, n / 4, w);
    ibw_rec_to_bytes(w, n / 4, back);
    FUZZ_CHECK_AT(memcmp(image, back, n) == 0, fmt->name);
    check_record_descriptors(fmt, w, &vals);
    if (tc && tc->record)
        tc->record(w);
    return 0;
}
