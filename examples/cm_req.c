/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cm_req: build a CM REQ MAD for an RDMA-CM (IP CM) connection and print it
 * field by field, the way a dump tool would: ibw_mad_decode() says which
 * formats the MAD holds and where, and each format's descriptor table
 * names its fields.
 *
 *   $ ./cm_req
 */
#include <inttypes.h>
#include <stdio.h>

#include "ibwire.h"

/* Print every field of `fmt`, whose byte 0 lies at mad[off]. */
static void print_layer(const struct ibw_format *fmt, const uint8_t *mad,
                        size_t off)
{
    printf("%s (%s, MAD byte %zu): %s\n", fmt->name, fmt->id, off, fmt->title);
    for (size_t i = 0; i < fmt->nfields; i++) {
        const struct ibw_field *f = &fmt->fields[i];
        printf("  %-22s ", f->name);
        if (f->kind == IBW_FK_BYTES) {
            const uint8_t *b = ibw_field_bytes(f, mad + off, IBW_MAD_SIZE - off);
            size_t n = f->width / 8;
            for (size_t j = 0; b && j < n && j < 16; j++)
                printf("%02x", b[j]);
            printf(n > 16 ? "... (%zu bytes)\n" : "\n", n);
        } else {
            uint64_t v = 0;
            ibw_field_get(fmt, f, mad + off, IBW_MAD_SIZE - off, &v);
            printf("0x%" PRIx64 "\n", v);
        }
    }
}

int main(void)
{
    struct ibw_cm_req req;
    memset(&req, 0, sizeof req);
    req.localcommid = 0x11223344;
    req.serviceid = ibw_cm_ip_service_id(6, 4791); /* TCP port space */
    req.localcaguid = 0x0002C90300A1B2C3ULL;
    req.localqpn = 0x000123;
    req.responderres = 4;
    req.initdepth = 4;
    req.remoteresptout = 20; /* 4.096 us * 2^20 = 4.29 s */
    req.transpsvctype = IBW_CM_TRANSPORT_RC;
    req.startpsn = 0x00ABCD;
    req.localresptout = 20;
    req.retrcount = 7;
    req.pkey = 0xFFFF;
    req.pppmtu = 5; /* 4096 */
    req.rnrretrcount = 7;
    req.maxcmretr = 15;
    req.prim_locallid = 4;
    req.prim_remotelid = 1;
    static const uint8_t lgid[16] = {0xFE, 0x80, 0, 0, 0, 0, 0, 0,
                                     0x00, 0x02, 0xC9, 0x03, 0x00, 0xA1, 0xB2,
                                     0xC3};
    static const uint8_t rgid[16] = {0xFE, 0x80, 0, 0, 0, 0, 0, 0,
                                     0x00, 0x02, 0xC9, 0x03, 0x00, 0xD4, 0xE5,
                                     0xF6};
    memcpy(req.prim_localgid, lgid, 16);
    memcpy(req.prim_remotegid, rgid, 16);
    req.prim_sl = 0;
    req.prim_subnetlocal = 1;
    req.prim_pktrate = 3;
    req.prim_localacktout = 18;

    /* The IP CM header opens the private data (IBA Annex A11). */
    struct ibw_ip_cm ip;
    memset(&ip, 0, sizeof ip);
    ip.ipv = 4;
    ip.sport = 50000;
    ibw_ip_cm_set_ipv4(ip.sip, 0xC0A8010A); /* 192.168.1.10 */
    ibw_ip_cm_set_ipv4(ip.dip, 0xC0A80114); /* 192.168.1.20 */
    ibw_ip_cm_encode(&ip, req.private_data, sizeof req.private_data);

    uint8_t mad[IBW_MAD_SIZE];
    int rc = ibw_cm_req_mad_encode(&req, 0x0000000000000001ULL, mad, sizeof mad);
    if (rc != IBW_OK) {
        fprintf(stderr, "build: %s\n", ibw_strerror(rc));
        return 1;
    }

    struct ibw_mad_view v;
    rc = ibw_mad_decode(mad, sizeof mad, &v);
    if (rc != IBW_OK) {
        fprintf(stderr, "decode: %s (%s)\n", ibw_strerror(rc), v.err_field);
        return 1;
    }
    printf("%s %s(%s)\n", ibw_mad_class_name(v.hdr.mgmtclass),
           ibw_mad_method_name(v.hdr.mgmtclass, v.hdr.method),
           ibw_mad_attr_name(v.hdr.mgmtclass, v.hdr.attributeid));
    /* layers[0] is the whole GMP; its data field is the REQ printed below */
    print_layer(ibw_mad_hdr_format(), mad, 0);
    for (size_t i = 1; i < v.nlayers; i++)
        print_layer(v.layers[i].fmt, mad, v.layers[i].off);
    print_layer(ibw_ip_cm_format(), mad, v.attr_off + 140);

    printf("client waits %" PRIu64 " ns for REP (eq. 3-2, t_max 1 ms)\n",
           ibw_cm_req_client_wait_ns(&v.attr.cm.u.req, 1000000));
    return 0;
}
