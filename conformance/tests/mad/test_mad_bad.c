/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Bad MADs: short buffers, wrong base version, reserved classes, methods a
 * class does not define, attributes that are no CM message.  Each must give
 * its error and name the field; none may read past the buffer (buffers are
 * heap copies of exactly `len` bytes, so the sanitizer build catches any
 * over-read).  Then every class/method byte pair and a seeded random sweep:
 * whatever ibw_mad_decode accepts, every field of every layer it reports
 * must be readable inside the 256 bytes.
 */
#include <stdlib.h>

#include "ibwire/mad.h"
#include "testutil.h"

/* A valid CM RTU MAD, by hand: base 1, class 7, version 2, Send,
 * attribute 0x0014, comm IDs 1 and 2. */
static void rtu_mad(uint8_t mad[256])
{
    memset(mad, 0, 256);
    mad[0] = 0x01;
    mad[1] = 0x07;
    mad[2] = 0x02;
    mad[3] = 0x03;
    mad[17] = 0x14;
    mad[27] = 0x01;
    mad[31] = 0x02;
}

/* Decode a heap copy of exactly len bytes of p. */
static int decode_exact(const uint8_t *p, size_t len, struct ibw_mad_view *v)
{
    uint8_t *copy = malloc(len ? len : 1);
    if (!copy)
        return -100;
    memcpy(copy, p, len);
    int rc = ibw_mad_decode(copy, len, v);
    free(copy);
    return rc;
}

static int field_is(const struct ibw_mad_view *v, const char *name)
{
    return v->err_field && strcmp(v->err_field, name) == 0;
}

static void test_short(void)
{
    uint8_t mad[256];
    rtu_mad(mad);
    struct ibw_mad_view v;
    for (size_t len = 0; len < 256; len++) {
        TU_EQ(decode_exact(mad, len, &v), IBW_E_TRUNCATED);
        TU_CHECK(field_is(&v, "mad"));
    }
    /* from 24 bytes on, the header is decoded even though the MAD is short */
    TU_EQ(decode_exact(mad, 24, &v), IBW_E_TRUNCATED);
    TU_EQ(v.hdr.attributeid, 0x0014);
    TU_EQ(decode_exact(mad, 256, &v), IBW_OK);
    TU_CHECK(v.err_field == NULL);
    TU_EQ(v.attr.cm.u.rtu.remotecommid, 2);

    /* every per-format decode refuses short input, every encode short
     * output */
    struct ibw_cm_rtu rtu;
    for (size_t len = 0; len < 256; len++) {
        uint8_t *copy = malloc(len ? len : 1);
        memcpy(copy, mad, len);
        TU_EQ(ibw_cm_rtu_mad_decode(copy, len, &rtu), IBW_E_TRUNCATED);
        TU_EQ(ibw_cm_rtu_mad_encode(&rtu, 1, copy, len), IBW_E_NOSPACE);
        free(copy);
    }
    struct ibw_pathrecord pr;
    TU_EQ(ibw_pathrecord_decode(mad, 63, &pr), IBW_E_TRUNCATED);
    struct ibw_smp_dr dr;
    TU_EQ(ibw_smp_dr_decode(mad, 255, &dr), IBW_E_TRUNCATED);
    struct ibw_rmpp rm;
    TU_EQ(ibw_rmpp_decode(mad, 35, &rm), IBW_E_TRUNCATED);
}

static void test_version(void)
{
    uint8_t mad[256];
    struct ibw_mad_view v;
    static const uint8_t bad[] = {0x00, 0x02, 0x80, 0xFF};
    for (size_t i = 0; i < sizeof bad; i++) {
        rtu_mad(mad);
        mad[0] = bad[i];
        TU_EQ(decode_exact(mad, 256, &v), IBW_E_VERSION);
        TU_CHECK(field_is(&v, "baseversion"));
    }
}

static void test_class(void)
{
    uint8_t mad[256];
    struct ibw_mad_view v;
    /* reserved classes (IBA 13.4.4): 0x00, 0x02, 0x50..0x80, 0x82..0xFF */
    static const uint8_t bad[] = {0x00, 0x02, 0x50, 0x7F, 0x80, 0x82, 0xFF};
    for (size_t i = 0; i < sizeof bad; i++) {
        rtu_mad(mad);
        mad[1] = bad[i];
        mad[3] = 0x01; /* Get, so only the class can be at fault */
        TU_EQ(decode_exact(mad, 256, &v), IBW_E_UNSUPPORTED);
        TU_CHECK(field_is(&v, "mgmtclass"));
        TU_EQ(ibw_mad_class_kind(bad[i]), -1);
    }
}

static void test_method(void)
{
    uint8_t mad[256];
    struct ibw_mad_view v;
    static const struct {
        uint8_t cls, method;
    } bad[] = {
        {0x07, 0x05}, /* CM Trap */
        {0x07, 0x12}, /* CM GetTable */
        {0x07, 0x7F},
        {0x07, 0x00},
        {0x07, 0x83}, /* Send with the response bit */
        {0x01, 0x03}, /* SMP Send */
        {0x81, 0x12}, /* DR SMP GetTable */
        {0x03, 0x03}, /* SA Send */
        {0x03, 0x05}, /* SA Trap */
        {0x04, 0x12}, /* PerfMgt GetTable */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        rtu_mad(mad);
        mad[1] = bad[i].cls;
        mad[3] = bad[i].method;
        TU_EQ(decode_exact(mad, 256, &v), IBW_E_UNSUPPORTED);
        TU_CHECK(field_is(&v, "method"));
    }
    /* vendor classes define their own methods */
    rtu_mad(mad);
    mad[1] = 0x09;
    mad[3] = 0x7F;
    TU_EQ(decode_exact(mad, 256, &v), IBW_OK);
    TU_EQ(v.kind, IBW_MAD_KIND_VENDOR1);
}

static void test_cm_attribute(void)
{
    uint8_t mad[256];
    struct ibw_mad_view v;
    static const uint16_t bad[] = {0x0000, 0x0002, 0x000F, 0x001B, 0x001C,
                                   0x0035, 0x0100, 0xFFFF};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        rtu_mad(mad);
        mad[16] = (uint8_t)(bad[i] >> 8);
        mad[17] = (uint8_t)bad[i];
        TU_EQ(decode_exact(mad, 256, &v), IBW_E_UNSUPPORTED);
        TU_CHECK(field_is(&v, "attributeid"));
    }
    /* SMP and SA attributes this build does not break down are no error */
    rtu_mad(mad);
    mad[1] = 0x03;
    mad[3] = 0x01;
    mad[17] = 0x38; /* MCMemberRecord */
    TU_EQ(decode_exact(mad, 256, &v), IBW_OK);
    TU_CHECK(v.attr_fmt == NULL);
    TU_EQ(v.nlayers, 3);
}

/* Every layer's every field reads inside the MAD. */
static void check_layers(const uint8_t *mad, const struct ibw_mad_view *v)
{
    for (size_t l = 0; l < v->nlayers; l++) {
        const struct ibw_format *f = v->layers[l].fmt;
        size_t off = v->layers[l].off;
        TU_CHECK(off + ibw_format_bytes(f) <= 256);
        for (size_t i = 0; i < f->nfields; i++) {
            const struct ibw_field *fd = &f->fields[i];
            if (fd->kind == IBW_FK_BYTES) {
                TU_CHECK(ibw_field_bytes(fd, mad + off, 256 - off) != NULL);
            } else {
                uint64_t x;
                TU_EQ(ibw_field_get(f, fd, mad + off, 256 - off, &x), IBW_OK);
            }
        }
    }
}

static void test_all_class_method_pairs(void)
{
    uint8_t mad[256];
    struct ibw_mad_view v;
    unsigned ok = 0;
    for (unsigned cls = 0; cls < 256; cls++) {
        for (unsigned m = 0; m < 256; m++) {
            rtu_mad(mad);
            mad[1] = (uint8_t)cls;
            mad[3] = (uint8_t)m;
            int rc = ibw_mad_decode(mad, sizeof mad, &v);
            if (rc == IBW_OK) {
                ok++;
                TU_CHECK(v.err_field == NULL);
                TU_CHECK(v.nlayers >= 1);
                TU_CHECK(ibw_mad_class_name((uint8_t)cls) != NULL);
                TU_CHECK(ibw_mad_method_name((uint8_t)cls, (uint8_t)m) != NULL);
                check_layers(mad, &v);
            } else {
                TU_CHECK(rc == IBW_E_UNSUPPORTED);
                TU_CHECK(field_is(&v, "mgmtclass") || field_is(&v, "method"));
            }
        }
    }
    /* accepted: 71 vendor/application classes x 256 methods, CM 4 (Get,
     * Set, GetResp, Send), SMP LID and DR 5 each, SA 12, PerfMgt, BM,
     * DevMgt, SNMP 8 common methods each */
    TU_EQ(ok, 71u * 256 + 4 + 5 + 5 + 12 + 4 * 8);
}

/* xorshift64*, fixed seed: reproducible. */
static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;
static uint64_t rng(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1DULL;
}

static void test_random(void)
{
    static const uint8_t classes[] = {0x01, 0x81, 0x03, 0x07, 0x04, 0x30};
    uint8_t mad[256];
    struct ibw_mad_view v;
    unsigned ok = 0;
    for (unsigned iter = 0; iter < 20000; iter++) {
        for (size_t i = 0; i < sizeof mad; i++)
            mad[i] = (uint8_t)rng();
        /* steer half of them past the early checks */
        if (iter & 1) {
            mad[0] = 1;
            mad[1] = classes[rng() % sizeof classes];
            mad[16] = 0;
            if (mad[1] == 0x07) {
                mad[3] = 0x03;
                mad[17] = (uint8_t)(0x10 + rng() % 12);
            }
        }
        size_t len = (iter % 7 == 0) ? (size_t)(rng() % 257) : 256;
        int rc = decode_exact(mad, len, &v);
        if (rc == IBW_OK) {
            ok++;
            check_layers(mad, &v);
        } else {
            TU_CHECK(v.err_field != NULL);
        }
    }
    TU_CHECK(ok > 1000);
}

int main(void)
{
    test_short();
    test_version();
    test_class();
    test_method();
    test_cm_attribute();
    test_all_class_method_pairs();
    test_random();
    return tu_done("mad_bad");
}
