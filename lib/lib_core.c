/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lib_core.c - libibwire's version, errors, fields by name, frame parsing
 * and CRCs.  A packet handle reads a frame exactly as `ibwire dump` does
 * (conformance/fields: dump_frame_read(), the same field table and value
 * rendering), so every name answers what `dump -T fields` prints.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dump.h"
#include "ibwire.h"
#include "lib_int.h"

#ifndef IBWIRE_LIB_VERSION
#error "the build passes the project version as IBWIRE_LIB_VERSION"
#endif

IBWIRE_API const char *ibwire_version(void)
{
    return IBWIRE_LIB_VERSION;
}

IBWIRE_API int ibwire_abi(void)
{
    return IBWIRE_LIB_ABI;
}

IBWIRE_API const char *ibwire_strerror(int err)
{
    switch (err) {
    case IBWIRE_OK: return "success";
    case IBWIRE_E_NOMEM: return "out of memory";
    case IBWIRE_E_NAME: return "no field or record of that name";
    case IBWIRE_E_ARG: return "invalid argument";
    case IBWIRE_E_IO: return "capture file could not be read";
    case IBWIRE_E_STATE: return "not allowed in this state";
    default:
        /* the header library's codes keep their meaning and wording */
        if (err < 0 && err >= IBW_E_LINKTYPE)
            return ibw_strerror(err);
        return err > 0 ? "success" : "unknown error";
    }
}

/* ------------------------------------------------------------------------ */
/* Fields by name                                                           */
/* ------------------------------------------------------------------------ */

static const struct dump_field *field_of(int id)
{
    return id < 0 ? NULL : dump_field_at((size_t)id);
}

IBWIRE_API int ibwire_field_count(void)
{
    return (int)dump_field_count();
}

IBWIRE_API int ibwire_field_lookup(const char *name)
{
    if (!name)
        return IBWIRE_E_ARG;
    int id = dump_field_id(name);
    return id < 0 ? IBWIRE_E_NAME : id;
}

IBWIRE_API const char *ibwire_field_name(int id)
{
    const struct dump_field *f = field_of(id);
    return f ? f->name : NULL;
}

IBWIRE_API const char *ibwire_field_description(int id)
{
    const struct dump_field *f = field_of(id);
    return f ? f->desc : NULL;
}

/* The ABI's type for a dump print type: how a caller takes the value. */
static int abi_type(uint8_t dump_type)
{
    switch (dump_type) {
    case DT_BOOL: return IBWIRE_FT_BOOL;
    case DT_BYTES: return IBWIRE_FT_BYTES;
    case DT_ETHER: return IBWIRE_FT_ETHER;
    case DT_IPV4: return IBWIRE_FT_IPV4;
    case DT_IPV6: return IBWIRE_FT_IPV6;
    case DT_STRING: return IBWIRE_FT_STRING;
    case DT_TIME: return IBWIRE_FT_TIME;
    default: return IBWIRE_FT_UINT; /* decimal and every hex width */
    }
}

IBWIRE_API int ibwire_field_type(int id)
{
    const struct dump_field *f = field_of(id);
    return f ? abi_type(f->type) : IBWIRE_E_ARG;
}

/* ------------------------------------------------------------------------ */
/* Frames handed in                                                         */
/* ------------------------------------------------------------------------ */

static int link_known(int link)
{
    return link == CAP_LINKTYPE_ETHERNET || link == CAP_LINKTYPE_ERF ||
           link == CAP_LINKTYPE_INFINIBAND ||
           link == CAP_LINKTYPE_EXPORTED_PDU ||
           link == CAP_LINKTYPE_LINUX_SLL || link == CAP_LINKTYPE_LINUX_SLL2;
}

int lib_frame_describe(struct cap_frame *cf, const uint8_t *frame,
                       size_t caplen, size_t origlen, int link,
                       uint64_t ts_ns)
{
    if ((!frame && caplen) || caplen > LIB_MAX_FRAME)
        return IBWIRE_E_ARG;
    if (origlen == 0)
        origlen = caplen;
    if (origlen < caplen || origlen > UINT32_MAX)
        return IBWIRE_E_ARG;
    if (!link_known(link))
        return IBWIRE_E_LINKTYPE;
    memset(cf, 0, sizeof *cf);
    cf->ts_sec = (int64_t)(ts_ns / 1000000000u);
    cf->ts_nsec = (uint32_t)(ts_ns % 1000000000u);
    cf->caplen = (uint32_t)caplen;
    cf->origlen = (uint32_t)origlen;
    cf->linktype = link;
    cf->raw = frame;
    cap_locate_iba(cf);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Parsing a frame                                                          */
/* ------------------------------------------------------------------------ */

struct ibwire_packet {
    uint8_t *bytes; /* the caller's frame, copied */
    size_t room;
    uint64_t parsed; /* frames parsed with this handle: frame.number */
    int valid;       /* a frame was parsed */
    struct cap_frame cf;
    struct ibw_pkt pkt;
    struct dump_frame fr;
    struct dump_out scratch; /* for rendering one value */
    char not_iba[96];        /* why a frame that decodes is no IBA packet */
};

IBWIRE_API ibwire_packet *ibwire_packet_new(void)
{
    return calloc(1, sizeof(struct ibwire_packet));
}

IBWIRE_API void ibwire_packet_free(ibwire_packet *p)
{
    if (!p)
        return;
    free(p->bytes);
    free(p);
}

/* A frame that decodes but holds no IBA packet, said the way the header
 * promises ("frame: not IBA: IPv4 UDP port 53"): by its link framing,
 * or by the last header that decided it.  Nothing for IBA, for a decode
 * error (said already) or a cut before the deciding header. */
static void describe_not_iba(ibwire_packet *p)
{
    const struct ibw_pkt *k = &p->pkt;
    char *out = p->not_iba;
    size_t n = sizeof p->not_iba;
    out[0] = '\0';
    if (!p->cf.iba) {
        snprintf(out, n, "frame: not IBA: %s",
                 p->cf.not_iba ? p->cf.not_iba : "no bytes");
        return;
    }
    if (k->transport != IBW_TK_NONE || k->err != IBW_OK || k->cut)
        return;
    int v4 = ibw_pkt_has(k, IBW_HDR_IPV4);
    const char *ip = v4 ? "IPv4" : "IPv6";
    if (ibw_pkt_has(k, IBW_HDR_UDP))
        snprintf(out, n, "frame: not IBA: %s UDP port %u", ip,
                 ibw_udp_get_dport(k->data + k->off[IBW_HDR_UDP]));
    else if (v4)
        snprintf(out, n, "frame: not IBA: IPv4 protocol %u",
                 ibw_ipv4_get_protocol(k->data + k->off[IBW_HDR_IPV4]));
    else if (ibw_pkt_has(k, IBW_HDR_IPV6))
        snprintf(out, n, "frame: not IBA: IPv6 next header %u",
                 ibw_ipv6_get_nexthdr(k->data + k->off[IBW_HDR_IPV6]));
    else
        snprintf(out, n, "frame: not IBA: EtherType 0x%04x", k->ethertype);
}

IBWIRE_API int ibwire_packet_parse(ibwire_packet *p, const uint8_t *frame,
                                   size_t caplen, size_t origlen, int link,
                                   uint64_t ts_ns)
{
    if (!p)
        return IBWIRE_E_ARG;
    struct cap_frame cf;
    int rc = lib_frame_describe(&cf, frame, caplen, origlen, link, ts_ns);
    if (rc)
        return rc;
    if (caplen > p->room) {
        uint8_t *b = realloc(p->bytes, caplen);
        if (!b)
            return IBWIRE_E_NOMEM;
        p->bytes = b;
        p->room = caplen;
    }
    if (caplen)
        memcpy(p->bytes, frame, caplen);
    /* describe the copy, the caller's bytes are not ours to keep */
    lib_frame_describe(&p->cf, p->bytes, caplen, origlen, link, ts_ns);
    p->cf.number = ++p->parsed;
    dump_frame_read(&p->fr, &p->cf, &p->pkt);
    p->valid = 1;
    describe_not_iba(p);
    return 0;
}

IBWIRE_API const char *ibwire_packet_error(const ibwire_packet *p)
{
    if (!p || !p->valid)
        return NULL;
    if (p->fr.err[0])
        return p->fr.err;
    return p->not_iba[0] ? p->not_iba : NULL;
}

/* The ABI's verdict for a header-library CRC status. */
static int abi_crc(uint8_t status)
{
    switch (status) {
    case IBW_CRC_GOOD: return IBWIRE_CRC_GOOD;
    case IBW_CRC_BAD: return IBWIRE_CRC_BAD;
    case IBW_CRC_UNCHECKED: return IBWIRE_CRC_UNCHECKED;
    default: return IBWIRE_CRC_ABSENT;
    }
}

/* A CRC a packet that stopped parsing early may still carry. */
static int crc_status(const ibwire_packet *p, uint8_t status)
{
    if (!p)
        return IBWIRE_E_ARG;
    if (!p->valid || !p->fr.pkt)
        return IBWIRE_CRC_ABSENT;
    if (status == IBW_CRC_ABSENT && p->pkt.err != IBW_OK &&
        !(p->pkt.cut && p->pkt.err == IBW_E_TRUNCATED) &&
        p->pkt.transport != IBW_TK_NONE)
        return IBWIRE_CRC_UNCHECKED; /* it has one the parse never reached */
    return abi_crc(status);
}

IBWIRE_API int ibwire_packet_icrc_status(const ibwire_packet *p)
{
    return crc_status(p, p ? p->pkt.icrc_status : 0);
}

IBWIRE_API int ibwire_packet_vcrc_status(const ibwire_packet *p)
{
    if (p && p->valid && p->fr.pkt && p->pkt.link != IBW_LINK_IB)
        return IBWIRE_CRC_ABSENT; /* RoCE carries no VCRC */
    return crc_status(p, p ? p->pkt.vcrc_status : 0);
}

/* The occurrences of field id: their count, or a negative IBWIRE_E_*. */
static int occurrences(const ibwire_packet *p, int id, struct dump_val *v,
                       const struct dump_field **fp)
{
    const struct dump_field *f = field_of(id);
    if (!p || !f)
        return IBWIRE_E_ARG;
    *fp = f;
    if (!p->valid)
        return 0;
    memset(v, 0, DUMP_MAX_OCC * sizeof *v);
    return (int)dump_field_get(f, &p->fr, v);
}

IBWIRE_API int ibwire_packet_count(const ibwire_packet *p, int id)
{
    struct dump_val v[DUMP_MAX_OCC];
    const struct dump_field *f;
    int n = occurrences(p, id, v, &f);
    return n < 0 ? 0 : n;
}

IBWIRE_API int ibwire_packet_uint(const ibwire_packet *p, int id, int occ,
                                  uint64_t *out)
{
    struct dump_val v[DUMP_MAX_OCC];
    const struct dump_field *f;
    int n = occurrences(p, id, v, &f);
    if (n < 0 || !out || occ < 0)
        return IBWIRE_E_ARG;
    int t = abi_type(f->type);
    if (t != IBWIRE_FT_UINT && t != IBWIRE_FT_BOOL && t != IBWIRE_FT_TIME)
        return IBWIRE_E_FIELD;
    if (occ >= n)
        return 0;
    /* a time is seconds in u and nanoseconds in len (dump.h) */
    *out = t == IBWIRE_FT_TIME ? v[occ].u * 1000000000u + v[occ].len
                               : v[occ].u;
    return 1;
}

IBWIRE_API int ibwire_packet_bytes(const ibwire_packet *p, int id, int occ,
                                   uint8_t *buf, size_t cap, size_t *len)
{
    struct dump_val v[DUMP_MAX_OCC];
    const struct dump_field *f;
    int n = occurrences(p, id, v, &f);
    if (n < 0 || !len || occ < 0 || (!buf && cap))
        return IBWIRE_E_ARG;
    int t = abi_type(f->type);
    if (t != IBWIRE_FT_BYTES && t != IBWIRE_FT_ETHER && t != IBWIRE_FT_IPV4 &&
        t != IBWIRE_FT_IPV6)
        return IBWIRE_E_FIELD;
    *len = 0;
    if (occ >= n)
        return 0;
    *len = v[occ].len;
    if (v[occ].len > cap)
        return IBWIRE_E_NOSPACE;
    if (v[occ].len)
        memcpy(buf, v[occ].p, v[occ].len);
    return 1;
}

IBWIRE_API int ibwire_packet_text(const ibwire_packet *p, int id, int occ,
                                  char *buf, size_t cap)
{
    struct dump_val v[DUMP_MAX_OCC];
    const struct dump_field *f;
    int n = occurrences(p, id, v, &f);
    if (n < 0 || !buf || cap == 0 || occ < 0)
        return IBWIRE_E_ARG;
    buf[0] = '\0';
    if (occ >= n)
        return 0;
    size_t len;
    ibwire_packet *scratch_owner = (ibwire_packet *)p; /* scratch only */
    if (dump_value_text(&scratch_owner->scratch, (enum dump_type)f->type,
                        &v[occ], buf, cap, &len) != 0) {
        buf[0] = '\0';
        return IBWIRE_E_NOSPACE;
    }
    return len > INT32_MAX ? IBWIRE_E_NOSPACE : (int)len;
}

/* ------------------------------------------------------------------------ */
/* ICRC and VCRC                                                            */
/* ------------------------------------------------------------------------ */

/* Parse a frame far enough to know where its CRCs are: 0, or IBWIRE_E_*.
 * A frame whose lengths are right but whose CRC is wrong parses. */
static int crc_parse(const uint8_t *frame, size_t len, int link,
                     struct ibw_pkt *pkt)
{
    struct cap_frame cf;
    if (!frame)
        return IBWIRE_E_ARG;
    int rc = lib_frame_describe(&cf, frame, len, len, link, 0);
    if (rc)
        return rc;
    if (!cf.iba)
        return IBWIRE_E_UNSUPPORTED; /* ERF or PDU framing of no IBA */
    ibw_parse(cf.iba, cf.iba_len, cf.link, pkt);
    return pkt->err;
}

/* One CRC of a frame: the value computed into *calc and 1 / 0 for right /
 * wrong, or IBWIRE_E_UNSUPPORTED when the frame carries none. */
static int crc_of(const uint8_t *frame, size_t len, int link, int vcrc,
                  uint32_t *calc)
{
    struct ibw_pkt pkt;
    int rc = crc_parse(frame, len, link, &pkt);
    if (rc)
        return rc;
    uint8_t status = vcrc ? pkt.vcrc_status : pkt.icrc_status;
    if (status != IBW_CRC_GOOD && status != IBW_CRC_BAD)
        return IBWIRE_E_UNSUPPORTED; /* no BTH, or RoCE's absent VCRC */
    *calc = vcrc ? pkt.vcrc_calc : pkt.icrc_calc;
    return status == IBW_CRC_GOOD;
}

/* The CRC's computed value into *out: 0, or IBWIRE_E_*. */
static int crc_value(const uint8_t *frame, size_t len, int link, int vcrc,
                     uint32_t *out)
{
    uint32_t calc = 0; /* set whenever crc_of succeeds; gcc -O3 cannot tell */
    int rc = crc_of(frame, len, link, vcrc, &calc);
    if (rc < 0)
        return rc;
    *out = calc;
    return 0;
}

IBWIRE_API int ibwire_icrc_compute(const uint8_t *frame, size_t len, int link,
                                   uint32_t *icrc)
{
    return icrc ? crc_value(frame, len, link, 0, icrc) : IBWIRE_E_ARG;
}

IBWIRE_API int ibwire_vcrc_compute(const uint8_t *frame, size_t len, int link,
                                   uint16_t *vcrc)
{
    uint32_t v;
    int rc = vcrc ? crc_value(frame, len, link, 1, &v) : IBWIRE_E_ARG;
    if (rc == 0)
        *vcrc = (uint16_t)v;
    return rc;
}

IBWIRE_API int ibwire_icrc_verify(const uint8_t *frame, size_t len, int link)
{
    uint32_t calc;
    return crc_of(frame, len, link, 0, &calc);
}

IBWIRE_API int ibwire_vcrc_verify(const uint8_t *frame, size_t len, int link)
{
    uint32_t calc;
    return crc_of(frame, len, link, 1, &calc);
}
