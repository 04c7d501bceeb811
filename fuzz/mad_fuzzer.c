/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mad_fuzzer.c - management datagrams and CM messages (catalog M1-M5).
 *
 * Input byte 0 chooses:
 *   0x00-0x7F  one format of IBW_MAD_FORMATS or Notice (byte 0 modulo their
 *              number):
 *              typed decode -> encode and the descriptor checks of
 *              format_check.h on the bytes that follow;
 *   0x80-0xFF  ibw_mad_decode on the bytes that follow, a whole MAD.
 * For ibw_mad_decode:
 *   - errors are the documented ones, each naming its field;
 *   - a decoded MAD: header equal to the typed header decode, kind and
 *     method consistent with the class tables, every layer inside the 256
 *     bytes and checked through its descriptor table;
 *   - a CM message re-encodes to the MAD data byte for byte, and
 *     mad_encode / mad_decode round-trip it; other attributes re-encode
 *     every covered bit;
 *   - ibw_mad_make_response sets the response method and status where the
 *     class keeps them; the CM timing functions stay monotonic and
 *     saturate instead of wrapping.
 */
#include <ibwire/mad.h>

#include "format_check.h"
#include "fuzz_common.h"

/* The registry's MAD formats, then the attributes mad.h declares outside
 * it (appended, so that a corpus byte 0 below 24 keeps its format). */
#define MAD_FUZZ_FORMATS(X) IBW_MAD_FORMATS(X) X(ibw_notice)

MAD_FUZZ_FORMATS(WIRE_TYPED_DEFINE)

struct mad_case {
    const struct ibw_format *(*format)(void);
    void (*typed)(const uint8_t *p, size_t len);
};
#define MAD_CASE(pfx) {pfx##_format, typed_##pfx},
static const struct mad_case cases[] = {MAD_FUZZ_FORMATS(MAD_CASE)};
#define N_CASES (sizeof cases / sizeof cases[0])

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    for (size_t i = 0; i < N_CASES; i++) {
        const struct ibw_format *fmt = cases[i].format();
        /* A format that starts at byte 0 lists every bit, reserved ones
         * included.  MAD-level formats that start later (rmpp, sa, vendor,
         * smplid; smpdirected also re-reads header bytes 4..7) list only
         * their own part. */
        uint32_t lowest = fmt->width;
        for (size_t k = 0; k < fmt->nfields; k++)
            if (fmt->fields[k].pos < lowest)
                lowest = fmt->fields[k].pos;
        wire_check_wire_descriptor(fmt, 0, FMT_MAX_BYTES, lowest == 0);
    }
    return 0;
}

/* The CM message of a decoded CM MAD, re-encoded and rebuilt. */
static void check_cm(const uint8_t *p, const struct ibw_mad_view *v)
{
    uint8_t data[IBW_CM_DATA_SIZE], mad[IBW_MAD_SIZE];
    struct ibw_cm_msg again;
    memset(data, 0xA5, sizeof data);
    FUZZ_CHECK(v->attr.cm.attributeid == v->hdr.attributeid);
    FUZZ_CHECK(ibw_cm_encode(&v->attr.cm, data, sizeof data) == IBW_OK);
    FUZZ_CHECK(memcmp(data, p + IBW_CM_DATA_OFFSET, sizeof data) == 0);
    FUZZ_CHECK(ibw_cm_encode(&v->attr.cm, data, sizeof data - 1) ==
               IBW_E_NOSPACE);
    FUZZ_CHECK(ibw_cm_format(v->hdr.attributeid) == v->attr_fmt);
    FUZZ_CHECK(ibw_cm_attr_name(v->hdr.attributeid) != NULL);
    switch (v->hdr.attributeid) {
#define CM_ROUNDTRIP(n, N, attr, label)                                      \
    case attr: {                                                             \
        struct ibw_cm_##n m;                                                 \
        FUZZ_CHECK(ibw_cm_##n##_mad_decode(p, IBW_MAD_SIZE, &m) == IBW_OK);  \
        FUZZ_CHECK(ibw_cm_##n##_mad_decode(p, IBW_MAD_SIZE - 1, &m) ==       \
                   IBW_E_TRUNCATED);                                         \
        FUZZ_CHECK(ibw_cm_##n##_mad_encode(&m, v->hdr.transactionid, mad,     \
                                          sizeof mad) == IBW_OK);            \
        break;                                                               \
    }
        IBW_CM_MESSAGES(CM_ROUNDTRIP)
#undef CM_ROUNDTRIP
    default:
        FUZZ_FAIL("CM MAD decoded with an attribute that is no message");
    }
    /* The rebuilt MAD: the CM class header and the same message. */
    FUZZ_CHECK(memcmp(mad + IBW_CM_DATA_OFFSET, p + IBW_CM_DATA_OFFSET,
                      IBW_CM_DATA_SIZE) == 0);
    FUZZ_CHECK(ibw_mad_hdr_get_baseversion(mad) == IBW_MAD_BASE_VERSION &&
               ibw_mad_hdr_get_mgmtclass(mad) == IBW_MGMT_CLASS_CM &&
               ibw_mad_hdr_get_classversion(mad) == IBW_CM_CLASS_VERSION &&
               ibw_mad_hdr_get_method(mad) == IBW_MAD_METHOD_SEND &&
               ibw_mad_hdr_get_transactionid(mad) == v->hdr.transactionid &&
               ibw_mad_hdr_get_attributeid(mad) == v->hdr.attributeid);
    struct ibw_mad_view w;
    FUZZ_CHECK(ibw_mad_decode(mad, sizeof mad, &w) == IBW_OK);
    FUZZ_CHECK(ibw_cm_decode(mad + IBW_CM_DATA_OFFSET, IBW_CM_DATA_SIZE,
                             v->hdr.attributeid, &again) == IBW_OK);
    memset(data, 0x5A, sizeof data);
    FUZZ_CHECK(ibw_cm_encode(&again, data, sizeof data) == IBW_OK &&
               memcmp(data, p + IBW_CM_DATA_OFFSET, sizeof data) == 0);

    if (v->hdr.attributeid == IBW_CM_ATTR_REQ) {
        struct ibw_ip_cm ip;
        int rc = ibw_cm_req_ip_cm(&v->attr.cm.u.req, &ip);
        FUZZ_CHECK(rc == IBW_OK || rc == IBW_E_UNSUPPORTED ||
                   rc == IBW_E_VERSION);
        FUZZ_CHECK((rc == IBW_E_UNSUPPORTED) ==
                   !ibw_cm_service_id_is_ip(v->attr.cm.u.req.serviceid));
    }
}

/* Timing arithmetic: monotonic in the code, saturating sums. */
static void check_cm_timing(const uint8_t *p)
{
    unsigned code = p[0] % 40;
    uint64_t t_max = ibw_load_be64(p + 1);
    uint64_t t = ibw_cm_timeout_ns(code);
    FUZZ_CHECK((code > 31) == (t == UINT64_MAX));
    if (code > 0 && code <= 31)
        FUZZ_CHECK(t == 2 * ibw_cm_timeout_ns(code - 1));
    unsigned back = ibw_cm_timeout_code(t_max);
    FUZZ_CHECK(back <= 31);
    FUZZ_CHECK(ibw_cm_timeout_ns(back) >= t_max || back == 31);
    FUZZ_CHECK(back == 0 || ibw_cm_timeout_ns(back - 1) < t_max);
    uint64_t c = ibw_cm_client_wait_ns(code, t_max);
    FUZZ_CHECK(c >= t && c >= t_max);
    FUZZ_CHECK(ibw_cm_client_mra_wait_ns(code, t_max) <= c);
    FUZZ_CHECK(ibw_cm_server_wait_ns(code, t_max) == c);
}

/* A name table either knows a value or says so; what it returns is a
 * printable string (strlen must stay inside it). */
static void check_name(const char *name, int must_exist)
{
    FUZZ_CHECK(name != NULL || !must_exist);
    if (name)
        FUZZ_CHECK(strlen(name) > 0 && strlen(name) < 128);
}

/* Names tools print for a decoded MAD, and the tshark field name of every
 * field of every layer. */
static void check_names(const uint8_t *p, const struct ibw_mad_view *v)
{
    char buf[160];
    check_name(ibw_mad_method_name(v->hdr.mgmtclass, v->hdr.method), 1);
    check_name(ibw_mad_attr_name(v->hdr.mgmtclass, v->hdr.attributeid), 0);
    check_name(ibw_mad_status_name(v->hdr.status), 1);
    FUZZ_CHECK(ibw_mad_status_code(v->hdr.status) <= 7);
    check_name(ibw_rmpp_type_name(p[25]), 0);
    check_name(ibw_rmpp_status_name(p[27]), 0);
    check_name(ibw_cm_rej_reason_name(ibw_load_be16(p + 32)), 0);
    check_name(ibw_cm_apr_status_name(p[33]), 0);
    check_name(ibw_cm_sidr_status_name(p[34]), 0);
    check_name(ibw_cm_msg_code_name(p[35] & 3u), 0);
    check_name(ibw_cm_attr_label(v->hdr.attributeid), 0);
    for (unsigned i = 0; i < v->nlayers; i++) {
        const struct ibw_format *f = v->layers[i].fmt;
        for (size_t k = 0; k < f->nfields; k++) {
            const char *field = f->fields[k].name;
            FUZZ_CHECK_AT(ibw_mad_tshark_name(f->name, field, buf,
                                              sizeof buf) == IBW_OK &&
                              strncmp(buf, "infiniband.", 11) == 0,
                          field);
            FUZZ_CHECK_AT(ibw_mad_tshark_name(f->name, field, buf, 12) ==
                              IBW_E_NOSPACE,
                          field);
        }
    }
    FUZZ_CHECK(ibw_mad_tshark_name("bth", "opcode", buf, sizeof buf) ==
               IBW_E_FIELD);
}

static void check_mad(const uint8_t *p, size_t len, struct fuzz_in *vals)
{
    struct ibw_mad_view v;
    int rc = ibw_mad_decode(p, len, &v);
    if (len < IBW_MAD_SIZE) {
        FUZZ_CHECK(rc == IBW_E_TRUNCATED && v.err_field != NULL);
        return;
    }
    if (rc != IBW_OK) {
        FUZZ_CHECK(v.err_field != NULL);
        FUZZ_CHECK(rc == IBW_E_VERSION || rc == IBW_E_UNSUPPORTED);
        FUZZ_CHECK((rc == IBW_E_VERSION) ==
                   (p[0] != IBW_MAD_BASE_VERSION));
        return;
    }
    FUZZ_CHECK(v.err_field == NULL);
    uint8_t hdr[IBW_MAD_HDR_SIZE];
    FUZZ_CHECK(ibw_mad_hdr_encode(&v.hdr, hdr, sizeof hdr) == IBW_OK);
    FUZZ_CHECK(memcmp(hdr, p, sizeof hdr) == 0);
    FUZZ_CHECK(v.kind == ibw_mad_class_kind(v.hdr.mgmtclass));
    FUZZ_CHECK(ibw_mad_method_valid(v.hdr.mgmtclass, v.hdr.method));
    FUZZ_CHECK(ibw_mad_class_name(v.hdr.mgmtclass) != NULL);
    FUZZ_CHECK(v.nlayers >= 1 && v.nlayers <= IBW_MAD_MAX_LAYERS);
    FUZZ_CHECK(ibw_format_same(v.layers[0].fmt, ibw_gmp_format()) && v.layers[0].off == 0);
    for (unsigned i = 0; i < v.nlayers; i++) {
        const struct ibw_mad_layer *l = &v.layers[i];
        FUZZ_CHECK_AT(l->off + ibw_format_bytes(l->fmt) <= IBW_MAD_SIZE,
                      l->fmt->name);
        check_wire_descriptors(l->fmt, p + l->off, vals);
    }
    if (v.attr_fmt) {
        FUZZ_CHECK(ibw_format_same(v.layers[v.nlayers - 1].fmt, v.attr_fmt) &&
                   v.layers[v.nlayers - 1].off == v.attr_off);
        /* The decoded attribute re-encodes to every covered bit. */
        for (size_t i = 0; i < N_CASES; i++)
            if (ibw_format_same(cases[i].format(), v.attr_fmt))
                cases[i].typed(p + v.attr_off, IBW_MAD_SIZE - v.attr_off);
    }
    if (v.kind == IBW_MAD_KIND_CM &&
        v.hdr.attributeid != IBW_CM_ATTR_CLASSPORTINFO)
        check_cm(p, &v);
    check_names(p, &v);

    /* Turning it into a response. */
    uint8_t resp[IBW_MAD_SIZE];
    uint16_t status = (uint16_t)fuzz_u64(vals);
    memcpy(resp, p, sizeof resp);
    FUZZ_CHECK(ibw_mad_make_response(resp, sizeof resp, status) == IBW_OK);
    FUZZ_CHECK(ibw_mad_hdr_get_method(resp) ==
               ibw_mad_response_method(v.hdr.method));
    FUZZ_CHECK(ibw_mad_method_is_response(ibw_mad_hdr_get_method(resp)) ||
               v.hdr.method == IBW_MAD_METHOD_TRAP);
    if (v.hdr.mgmtclass == IBW_MGMT_CLASS_SUBN_DIRECTED_ROUTE)
        FUZZ_CHECK(ibw_smp_dr_get_d(resp) == 1 &&
                   ibw_smp_dr_get_smpstatus(resp) == (status & 0x7FFF));
    else
        FUZZ_CHECK(ibw_mad_hdr_get_status(resp) == status);
    FUZZ_CHECK(memcmp(resp + IBW_MAD_HDR_SIZE, p + IBW_MAD_HDR_SIZE,
                      IBW_MAD_SIZE - IBW_MAD_HDR_SIZE) == 0);
    check_cm_timing(p + IBW_MAD_HDR_SIZE);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const uint8_t *p = data + 1;
    size_t len = size - 1;
    if (data[0] & 0x80) {
        /* Setter values come after the MAD. */
        struct fuzz_in vals = {p + (len < IBW_MAD_SIZE ? len : IBW_MAD_SIZE),
                               len < IBW_MAD_SIZE ? 0 : len - IBW_MAD_SIZE};
        check_mad(p, len, &vals);
        return 0;
    }
    const struct mad_case *c = &cases[data[0] % N_CASES];
    const struct ibw_format *fmt = c->format();
    size_t n = ibw_format_bytes(fmt);
    c->typed(p, len);
    if (len >= n) {
        struct fuzz_in vals = {p + n, len - n};
        check_wire_descriptors(fmt, p, &vals);
    }
    return 0;
}
