/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ibwire_dpi.c - the DPI-C functions ibwire_pkg imports (sv/ibwire_dpi.svh),
 * a thin layer over libibwire (lib/ibwire_lib.h) and nothing else.
 *
 * Compile it with the simulator's svdpi.h on the include path and link
 * libibwire: Verilator compiles it as C++, commercial simulators as C, so
 * the code keeps to what both accept (no designated initialisers, casts on
 * malloc).
 *
 * The DPI types are the C types svdpi.h gives them: `int unsigned` is
 * unsigned int, `shortint unsigned` unsigned short, the same types as
 * uint32_t and uint16_t on every platform a simulator runs on.
 *
 * Open arrays: a simulator may or may not hand over contiguous storage
 * (svGetArrayPtr() returns NULL when not); then the bytes are copied one
 * element at a time through a scratch buffer.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "svdpi.h"
#include "ibwire_lib.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Larger than any frame ibwire_pkg's IBW_FRAME_MAX admits. */
enum { DPI_SCRATCH_BYTES = 16384 };

/* Where non-contiguous arrays are copied.  One is enough: a simulator
 * calls one import at a time, and none keeps the bytes past its call. */
static uint8_t dpi_scratch[DPI_SCRATCH_BYTES];

/* The bytes of open array h, at least len of them, or NULL when the array
 * is shorter (or len is negative or too large for the scratch copy). */
static const uint8_t *dpi_array_in(const svOpenArrayHandle h, int len)
{
    if (len < 0 || len > svSize(h, 1))
        return NULL;
    const uint8_t *p = (const uint8_t *)svGetArrayPtr(h);
    if (p)
        return p;
    if (len > DPI_SCRATCH_BYTES)
        return NULL;
    int low = svLow(h, 1);
    for (int i = 0; i < len; i++)
        dpi_scratch[i] = *(const uint8_t *)svGetArrElemPtr1(h, low + i);
    return dpi_scratch;
}

/* Copy n bytes into open array h (already checked to hold them). */
static void dpi_array_out(const svOpenArrayHandle h, const uint8_t *src,
                          int n)
{
    uint8_t *p = (uint8_t *)svGetArrayPtr(h);
    if (p) {
        if (p != src)
            memcpy(p, src, (size_t)n);
        return;
    }
    int low = svLow(h, 1);
    for (int i = 0; i < n; i++)
        *(uint8_t *)svGetArrElemPtr1(h, low + i) = src[i];
}

const char *ibw_dpi_strerror(int err)
{
    return ibwire_strerror(err);
}

/* ------------------------------------------------------------------------ */
/* Parsing                                                                  */
/* ------------------------------------------------------------------------ */

void *ibw_dpi_packet_new(void)
{
    return ibwire_packet_new();
}

void ibw_dpi_packet_free(void *p)
{
    ibwire_packet_free((ibwire_packet *)p);
}

int ibw_dpi_packet_parse(void *p, const svOpenArrayHandle frame, int len,
                         int link)
{
    const uint8_t *bytes = dpi_array_in(frame, len);
    if (!bytes)
        return IBWIRE_E_ARG;
    return ibwire_packet_parse((ibwire_packet *)p, bytes, (size_t)len, 0, link,
                               0);
}

const char *ibw_dpi_packet_error(void *p)
{
    const char *why = ibwire_packet_error((const ibwire_packet *)p);
    return why ? why : "";
}

int ibw_dpi_packet_icrc_status(void *p)
{
    return ibwire_packet_icrc_status((const ibwire_packet *)p);
}

int ibw_dpi_packet_vcrc_status(void *p)
{
    return ibwire_packet_vcrc_status((const ibwire_packet *)p);
}

int ibw_dpi_field_id(const char *name)
{
    return ibwire_field_lookup(name);
}

int ibw_dpi_packet_field_by_id(void *p, int id, unsigned long long *value)
{
    uint64_t v = 0;
    int rc = ibwire_packet_uint((const ibwire_packet *)p, id, 0, &v);
    *value = v;
    return rc;
}

int ibw_dpi_packet_field(void *p, const char *name, unsigned long long *value)
{
    int id = ibwire_field_lookup(name);
    if (id < 0) {
        *value = 0;
        return id;
    }
    return ibw_dpi_packet_field_by_id(p, id, value);
}

/* ------------------------------------------------------------------------ */
/* Building                                                                 */
/* ------------------------------------------------------------------------ */

void *ibw_dpi_builder_new(void)
{
    return ibwire_builder_new();
}

void ibw_dpi_builder_free(void *b)
{
    ibwire_builder_free((ibwire_builder *)b);
}

void ibw_dpi_builder_reset(void *b)
{
    ibwire_builder_reset((ibwire_builder *)b);
}

int ibw_dpi_builder_set(void *b, const char *name, unsigned long long value)
{
    return ibwire_builder_uint((ibwire_builder *)b, name, value);
}

int ibw_dpi_builder_set_text(void *b, const char *name, const char *text)
{
    return ibwire_builder_text((ibwire_builder *)b, name, text);
}

int ibw_dpi_builder_payload(void *b, const svOpenArrayHandle data, int len)
{
    const uint8_t *bytes = dpi_array_in(data, len);
    if (!bytes)
        return IBWIRE_E_ARG;
    return ibwire_builder_bytes((ibwire_builder *)b, "data.data", bytes,
                                (size_t)len);
}

int ibw_dpi_build(void *b, int link, const svOpenArrayHandle frame)
{
    int cap = svSize(frame, 1);
    uint8_t *direct = (uint8_t *)svGetArrayPtr(frame);
    uint8_t *out = direct ? direct : dpi_scratch;
    if (!direct && cap > DPI_SCRATCH_BYTES)
        cap = DPI_SCRATCH_BYTES;
    long n = ibwire_build((ibwire_builder *)b, link, out, (size_t)cap);
    if (n < 0)
        return (int)n;
    dpi_array_out(frame, out, (int)n);
    return (int)n;
}

const char *ibw_dpi_builder_error(void *b)
{
    const char *why = ibwire_builder_error((const ibwire_builder *)b);
    return why ? why : "";
}

/* ------------------------------------------------------------------------ */
/* CRCs                                                                     */
/* ------------------------------------------------------------------------ */

int ibw_dpi_icrc_compute(const svOpenArrayHandle frame, int len, int link,
                         unsigned int *icrc)
{
    const uint8_t *bytes = dpi_array_in(frame, len);
    *icrc = 0;
    return bytes ? ibwire_icrc_compute(bytes, (size_t)len, link, icrc)
                 : IBWIRE_E_ARG;
}

int ibw_dpi_vcrc_compute(const svOpenArrayHandle frame, int len, int link,
                         unsigned short *vcrc)
{
    const uint8_t *bytes = dpi_array_in(frame, len);
    *vcrc = 0;
    return bytes ? ibwire_vcrc_compute(bytes, (size_t)len, link, vcrc)
                 : IBWIRE_E_ARG;
}

int ibw_dpi_icrc_verify(const svOpenArrayHandle frame, int len, int link)
{
    const uint8_t *bytes = dpi_array_in(frame, len);
    return bytes ? ibwire_icrc_verify(bytes, (size_t)len, link) : IBWIRE_E_ARG;
}

int ibw_dpi_vcrc_verify(const svOpenArrayHandle frame, int len, int link)
{
    const uint8_t *bytes = dpi_array_in(frame, len);
    return bytes ? ibwire_vcrc_verify(bytes, (size_t)len, link) : IBWIRE_E_ARG;
}

/* ------------------------------------------------------------------------ */
/* Records                                                                  */
/* ------------------------------------------------------------------------ */

/* 32-bit words of the package's IBW_RECORD_MAX_BITS: the generator sizes
 * it to the widest registry format, and so does this. */
static size_t dpi_record_max_words(void)
{
    static size_t words;
    if (!words) {
        for (int rec = 0; rec < ibwire_record_count(); rec++) {
            size_t w = (size_t)ibwire_record_words(rec);
            if (w > words)
                words = w;
        }
    }
    return words;
}

int ibw_dpi_record_bits(const char *rec)
{
    int id = ibwire_record_lookup(rec);
    return id < 0 ? id : ibwire_record_bits(id);
}

int ibw_dpi_record_set(const char *rec, const char *field, svBitVecVal *value,
                       unsigned long long v)
{
    return ibwire_record_set_u64(rec, field, value, dpi_record_max_words(), v);
}

int ibw_dpi_record_get(const char *rec, const char *field,
                       const svBitVecVal *value, unsigned long long *v)
{
    uint64_t out = 0;
    int rc = ibwire_record_get_u64(rec, field, value, dpi_record_max_words(),
                                   &out);
    *v = out;
    return rc;
}

/* Record and field numbers of rec.field, or a negative IBWIRE_E_*. */
static int dpi_record_field(const char *rec, const char *field, int *id)
{
    *id = ibwire_record_lookup(rec);
    if (*id < 0)
        return *id;
    return ibwire_record_field_lookup(*id, field);
}

int ibw_dpi_record_set_wide(const char *rec, const char *field,
                            svBitVecVal *value, const svBitVecVal *v)
{
    int id;
    int f = dpi_record_field(rec, field, &id);
    if (f < 0)
        return f;
    return ibwire_record_set(id, f, value, dpi_record_max_words(), v,
                             dpi_record_max_words());
}

int ibw_dpi_record_get_wide(const char *rec, const char *field,
                            const svBitVecVal *value, svBitVecVal *v)
{
    size_t words = dpi_record_max_words();
    memset(v, 0, words * sizeof *v);
    int id;
    int f = dpi_record_field(rec, field, &id);
    if (f < 0)
        return f;
    return ibwire_record_get(id, f, value, words, v, words);
}

/* ------------------------------------------------------------------------ */
/* The checker                                                              */
/* ------------------------------------------------------------------------ */

struct dpi_checker {
    ibwire_checker *checker;
    char **findings; /* "frame N RULE severity: message", malloc'd */
    size_t nfindings, cap;
};

static const char *dpi_severity(int severity)
{
    return severity >= 2 ? "error" : severity == 1 ? "warning" : "note";
}

static void dpi_keep_finding(void *user, uint64_t frame, const char *rule,
                             int severity, const char *message,
                             uint64_t flow_id)
{
    struct dpi_checker *dc = (struct dpi_checker *)user;
    (void)flow_id;
    if (dc->nfindings == dc->cap) {
        size_t cap = dc->cap ? dc->cap * 2 : 16;
        char **grown = (char **)realloc(dc->findings, cap * sizeof *grown);
        if (!grown)
            return;
        dc->findings = grown;
        dc->cap = cap;
    }
    const char *sev = dpi_severity(severity);
    int n = snprintf(NULL, 0, "frame %llu %s %s: %s",
                     (unsigned long long)frame, rule, sev, message);
    char *text = n < 0 ? NULL : (char *)malloc((size_t)n + 1);
    if (!text)
        return;
    snprintf(text, (size_t)n + 1, "frame %llu %s %s: %s",
             (unsigned long long)frame, rule, sev, message);
    dc->findings[dc->nfindings++] = text;
}

void *ibw_dpi_checker_new(int pmtu)
{
    struct dpi_checker *dc = (struct dpi_checker *)calloc(1, sizeof *dc);
    if (!dc)
        return NULL;
    dc->checker = ibwire_checker_new();
    if (!dc->checker ||
        (pmtu && ibwire_checker_set_pmtu(dc->checker, (uint32_t)pmtu) != 0) ||
        ibwire_checker_on_finding(dc->checker, dpi_keep_finding, dc) != 0) {
        ibwire_checker_free(dc->checker);
        free(dc);
        return NULL;
    }
    return dc;
}

void ibw_dpi_checker_free(void *c)
{
    struct dpi_checker *dc = (struct dpi_checker *)c;
    if (!dc)
        return;
    ibwire_checker_free(dc->checker);
    for (size_t i = 0; i < dc->nfindings; i++)
        free(dc->findings[i]);
    free(dc->findings);
    free(dc);
}

int ibw_dpi_checker_feed(void *c, const svOpenArrayHandle frame, int len,
                         int link, unsigned long long ts_ns)
{
    struct dpi_checker *dc = (struct dpi_checker *)c;
    const uint8_t *bytes = dpi_array_in(frame, len);
    if (!dc || !bytes)
        return IBWIRE_E_ARG;
    return ibwire_checker_feed(dc->checker, bytes, (size_t)len, 0, link,
                               ts_ns);
}

int ibw_dpi_checker_finish(void *c)
{
    struct dpi_checker *dc = (struct dpi_checker *)c;
    return dc ? ibwire_checker_finish(dc->checker) : IBWIRE_E_ARG;
}

int ibw_dpi_checker_findings(void *c)
{
    struct dpi_checker *dc = (struct dpi_checker *)c;
    return dc ? (int)dc->nfindings : IBWIRE_E_ARG;
}

const char *ibw_dpi_checker_finding(void *c, int i)
{
    struct dpi_checker *dc = (struct dpi_checker *)c;
    if (!dc || i < 0 || (size_t)i >= dc->nfindings)
        return "";
    return dc->findings[i];
}

unsigned long long ibw_dpi_checker_count(void *c, const char *what)
{
    struct dpi_checker *dc = (struct dpi_checker *)c;
    return dc ? ibwire_checker_count(dc->checker, what) : 0;
}

#ifdef __cplusplus
}
#endif
