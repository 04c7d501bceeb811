/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lib_build.c - frames built from fields named as `ibwire dump` names
 * them.  A name is taken when the dump table reads it from a wire header's
 * descriptor (Ethernet, 802.1Q, IPv4, IPv6, UDP, LRH, GRH, BTH and the
 * extended headers), plus the payload "data.data" and the two CRC items.
 *
 * How: the header library's ibw_build() lays the frame out from a spec
 * holding what decides the layout (carriage, VLAN tag, opcode, payload,
 * pad) and the defaults; then every field set is written over it through
 * its descriptor, where the parse of the built frame finds its header; then
 * what is derived and was not set (IPv4 checksum, ICRC, VCRC) is computed
 * again over the final bytes.  Lengths set by hand are written last, so
 * they stay as set; those not set are ibw_build()'s.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dump.h"
#include "ibwire.h"
#include "lib_int.h"

/* One field set: its table entry and value (a number, or bytes). */
struct setting {
    const struct dump_field *f;
    int is_bytes;
    uint64_t u;
    uint8_t b[16];
};

/* Room for every wire field the table names. */
#define BUILD_MAX_SETTINGS 256

struct ibwire_builder {
    struct setting set[BUILD_MAX_SETTINGS];
    size_t nset;
    uint8_t *payload;
    size_t payload_len;
    int icrc_set, vcrc_set;
    uint32_t icrc; /* as dump prints them: the wire bytes big-endian */
    uint16_t vcrc;
    uint8_t *frame; /* the frame being built */
    size_t room;
    char error[256];
};

/* Names that are no header field. */
static const char payload_name[] = "data.data";
static const char icrc_name[] = "infiniband.invariant.crc";
static const char vcrc_name[] = "infiniband.variant.crc";

/* Defaults: addresses of two hosts, the RoCEv2 ports, an RC SEND ONLY to
 * QP 0x11 on the default partition. */
static const uint8_t default_dmac[6] = {0x02, 0, 0, 0, 0, 0x02};
static const uint8_t default_smac[6] = {0x02, 0, 0, 0, 0, 0x01};
static const uint8_t default_ip4_src[4] = {10, 0, 0, 1};
static const uint8_t default_ip4_dst[4] = {10, 0, 0, 2};
/* IPv4-mapped, as RoCE GIDs of IPv4 addresses are */
static const uint8_t default_ip6_src[16] = {[10] = 0xFF, [11] = 0xFF, 10, 0, 0, 1};
static const uint8_t default_ip6_dst[16] = {[10] = 0xFF, [11] = 0xFF, 10, 0, 0, 2};
/* link-local GIDs of ports 1 and 2 (native IB, RoCEv1) */
static const uint8_t default_sgid[16] = {0xFE, 0x80, [15] = 1};
static const uint8_t default_dgid[16] = {0xFE, 0x80, [15] = 2};
enum {
    DEFAULT_TTL = 64,
    DEFAULT_UDP_SPORT = 49152,
    DEFAULT_PKEY = 0xFFFF,
    DEFAULT_OPCODE = 0x04, /* RC SEND ONLY */
    DEFAULT_DESTQP = 0x11,
    DEFAULT_SLID = 1,
    DEFAULT_DLID = 2
};

static int fail(ibwire_builder *b, int rc, const char *fmt, const char *name)
{
    snprintf(b->error, sizeof b->error, fmt, name);
    return rc;
}

IBWIRE_API ibwire_builder *ibwire_builder_new(void)
{
    return calloc(1, sizeof(struct ibwire_builder));
}

IBWIRE_API void ibwire_builder_free(ibwire_builder *b)
{
    if (!b)
        return;
    free(b->payload);
    free(b->frame);
    free(b);
}

IBWIRE_API void ibwire_builder_reset(ibwire_builder *b)
{
    if (!b)
        return;
    free(b->payload);
    b->payload = NULL;
    b->payload_len = 0;
    b->nset = 0;
    b->icrc_set = b->vcrc_set = 0;
    b->error[0] = '\0';
}

IBWIRE_API const char *ibwire_builder_error(const ibwire_builder *b)
{
    return b && b->error[0] ? b->error : NULL;
}

/* ---- what a name sets ---------------------------------------------------- */

/* The table entry of a header field the builder writes, or NULL. */
static const struct dump_field *header_field(const char *name)
{
    const struct dump_field *f = dump_field_find(name);
    if (!f || f->get || !f->layer || f->layer->naming != DUMP_NAMES_WIRE)
        return NULL;
    return f;
}

static uint32_t field_bits(const struct dump_field *f)
{
    return dump_span_width(f->fld, f->span);
}

/* The setting for f, added when new; NULL when the table is full. */
static struct setting *setting_for(ibwire_builder *b,
                                   const struct dump_field *f)
{
    for (size_t i = 0; i < b->nset; i++)
        if (b->set[i].f == f)
            return &b->set[i];
    if (b->nset == BUILD_MAX_SETTINGS)
        return NULL;
    struct setting *s = &b->set[b->nset++];
    memset(s, 0, sizeof *s);
    s->f = f;
    return s;
}

static const struct setting *setting_named(const ibwire_builder *b,
                                           const char *name)
{
    for (size_t i = 0; i < b->nset; i++)
        if (strcmp(b->set[i].f->name, name) == 0)
            return &b->set[i];
    return NULL;
}

/* A field of header h was set (it decides whether h is built). */
static int header_set(const ibwire_builder *b, enum ibw_hdr h)
{
    for (size_t i = 0; i < b->nset; i++)
        if (b->set[i].f->layer->arg == (unsigned)h)
            return 1;
    return 0;
}

IBWIRE_API int ibwire_builder_uint(ibwire_builder *b, const char *name,
                                   uint64_t v)
{
    if (!b || !name)
        return IBWIRE_E_ARG;
    if (!strcmp(name, icrc_name) || !strcmp(name, vcrc_name)) {
        int icrc = !strcmp(name, icrc_name);
        if (v > (icrc ? 0xFFFFFFFFu : 0xFFFFu))
            return fail(b, IBWIRE_E_RANGE, "%s: value does not fit", name);
        if (icrc) {
            b->icrc_set = 1;
            b->icrc = (uint32_t)v;
        } else {
            b->vcrc_set = 1;
            b->vcrc = (uint16_t)v;
        }
        return 0;
    }
    const struct dump_field *f = header_field(name);
    if (!f)
        return fail(b, IBWIRE_E_NAME, "%s: not a field the builder sets",
                    name);
    uint32_t bits = field_bits(f);
    unsigned scale = f->scale ? f->scale : 1u;
    if (bits > 64 || v % scale || (bits < 64 && (v / scale) >> bits))
        return fail(b, IBWIRE_E_RANGE, "%s: value does not fit the field",
                    name);
    struct setting *s = setting_for(b, f);
    if (!s)
        return fail(b, IBWIRE_E_NOMEM, "%s: too many fields set", name);
    s->is_bytes = 0;
    s->u = v / scale;
    return 0;
}

IBWIRE_API int ibwire_builder_bytes(ibwire_builder *b, const char *name,
                                    const uint8_t *v, size_t n)
{
    if (!b || !name || (!v && n))
        return IBWIRE_E_ARG;
    if (!strcmp(name, payload_name)) {
        if (n > 0xFFFFu)
            return fail(b, IBWIRE_E_RANGE, "%s: longer than a packet holds",
                        name);
        uint8_t *p = malloc(n ? n : 1);
        if (!p)
            return IBWIRE_E_NOMEM;
        if (n)
            memcpy(p, v, n);
        free(b->payload);
        b->payload = p;
        b->payload_len = n;
        return 0;
    }
    const struct dump_field *f = header_field(name);
    if (!f)
        return fail(b, IBWIRE_E_NAME, "%s: not a byte field the builder sets",
                    name);
    uint32_t bits = field_bits(f);
    if (bits % 8 || n != bits / 8 || n > sizeof b->set[0].b || f->scale)
        return fail(b, IBWIRE_E_RANGE, "%s: not that many bytes", name);
    struct setting *s = setting_for(b, f);
    if (!s)
        return fail(b, IBWIRE_E_NOMEM, "%s: too many fields set", name);
    s->is_bytes = 1;
    memcpy(s->b, v, n);
    return 0;
}

/* Hex digits, optionally separated by ':', into out[cap]: the count, or
 * -1 when the text is not that. */
static long parse_hex(const char *t, uint8_t *out, size_t cap)
{
    size_t n = 0;
    while (*t) {
        if (*t == ':' && n) {
            t++;
            continue;
        }
        unsigned hi, lo;
        if (sscanf(t, "%1x%1x", &hi, &lo) != 2 || n == cap)
            return -1;
        out[n++] = (uint8_t)(hi << 4 | lo);
        t += 2;
    }
    return (long)n;
}

IBWIRE_API int ibwire_builder_text(ibwire_builder *b, const char *name,
                                   const char *text)
{
    if (!b || !name || !text)
        return IBWIRE_E_ARG;
    uint8_t bytes[16];
    if (!strcmp(name, payload_name)) {
        size_t n = strlen(text) / 2 + 1;
        uint8_t *tmp = malloc(n);
        if (!tmp)
            return IBWIRE_E_NOMEM;
        long got = parse_hex(text, tmp, n);
        int rc = got < 0 ? fail(b, IBWIRE_E_RANGE, "%s: not hex bytes", name)
                         : ibwire_builder_bytes(b, name, tmp, (size_t)got);
        free(tmp);
        return rc;
    }
    const struct dump_field *f =
        strcmp(name, icrc_name) && strcmp(name, vcrc_name) ? header_field(name)
                                                           : NULL;
    uint8_t type = f ? f->type : DT_HEX32;
    if (!f && strcmp(name, icrc_name) && strcmp(name, vcrc_name))
        return fail(b, IBWIRE_E_NAME, "%s: not a field the builder sets",
                    name);
    switch (type) {
    case DT_IPV4:
    case DT_IPV6:
        if (inet_pton(type == DT_IPV4 ? AF_INET : AF_INET6, text, bytes) != 1)
            return fail(b, IBWIRE_E_RANGE, "%s: not an address", name);
        return ibwire_builder_bytes(b, name, bytes, type == DT_IPV4 ? 4 : 16);
    case DT_ETHER:
    case DT_BYTES: {
        long n = parse_hex(text, bytes, sizeof bytes);
        if (n < 0)
            return fail(b, IBWIRE_E_RANGE, "%s: not hex bytes", name);
        return ibwire_builder_bytes(b, name, bytes, (size_t)n);
    }
    default: {
        /* numbers as dump prints them (decimal, 0x hex), booleans 0/1 */
        char *end;
        unsigned long long v = strtoull(text, &end, 0);
        if (!*text || *end || text[0] == '-')
            return fail(b, IBWIRE_E_RANGE, "%s: not a number", name);
        return ibwire_builder_uint(b, name, v);
    }
    }
}

/* ---- building ------------------------------------------------------------ */

/* The number set for name, or dflt. */
static uint64_t uint_or(const ibwire_builder *b, const char *name,
                        uint64_t dflt)
{
    const struct setting *s = setting_named(b, name);
    return s && !s->is_bytes ? s->u : dflt;
}

/* The spec ibw_build() lays the frame out from: the carriage, the opcode
 * and pad, the payload, and every default. */
static int make_spec(ibwire_builder *b, int link, struct ibw_build_spec *sp)
{
    memset(sp, 0, sizeof *sp);
    if (link == CAP_LINKTYPE_ETHERNET) {
        uint64_t et = uint_or(b, "eth.type", uint_or(b, "vlan.etype", 0));
        sp->transport = et == IBW_ETHERTYPE_ROCEV1   ? IBW_TK_ROCE_V1
                        : header_set(b, IBW_HDR_IPV6) ? IBW_TK_ROCE_V2_IP6
                                                      : IBW_TK_ROCE_V2_IP4;
        sp->nvlan = header_set(b, IBW_HDR_VLAN) ? 1 : 0;
    } else if (link == CAP_LINKTYPE_INFINIBAND) {
        sp->transport = header_set(b, IBW_HDR_GRH) ? IBW_TK_IB_GLOBAL
                                                   : IBW_TK_IB_LOCAL;
    } else {
        return fail(b, IBWIRE_E_LINKTYPE, "link type %s: build makes 1 "
                    "(Ethernet) and 247 (InfiniBand)", link ? "other" : "0");
    }
    memcpy(sp->dmac, default_dmac, sizeof sp->dmac);
    memcpy(sp->smac, default_smac, sizeof sp->smac);
    if (sp->transport == IBW_TK_ROCE_V2_IP6) {
        memcpy(sp->ip_src, default_ip6_src, 16);
        memcpy(sp->ip_dst, default_ip6_dst, 16);
    } else {
        memcpy(sp->ip_src, default_ip4_src, 4);
        memcpy(sp->ip_dst, default_ip4_dst, 4);
    }
    sp->ttl = DEFAULT_TTL;
    sp->ip_df = 1; /* RoCE is sent unfragmented */
    sp->udp_sport = DEFAULT_UDP_SPORT;
    sp->lrh.slid = DEFAULT_SLID;
    sp->lrh.dlid = DEFAULT_DLID;
    memcpy(sp->grh.sgid, default_sgid, 16);
    memcpy(sp->grh.dgid, default_dgid, 16);
    sp->grh.hoplmt = DEFAULT_TTL;
    sp->bth.opcode = (uint8_t)uint_or(b, "infiniband.bth.opcode",
                                      DEFAULT_OPCODE);
    sp->bth.pkey = DEFAULT_PKEY;
    sp->bth.destqp = DEFAULT_DESTQP;
    if (setting_named(b, "infiniband.bth.padcnt")) {
        sp->flags |= IBW_BUILD_KEEP_PADCNT;
        sp->bth.padcnt = (uint8_t)uint_or(b, "infiniband.bth.padcnt", 0);
    }
    sp->payload = b->payload;
    sp->payload_len = b->payload_len;
    return 0;
}

/* Where setting s goes in the built frame (the byte its descriptor counts
 * from) and the descriptor; NULL when the frame has no such header. */
static uint8_t *field_place(const ibwire_builder *b, const struct ibw_pkt *p,
                            const struct setting *s,
                            const struct ibw_field **fld)
{
    const struct dump_field *f = s->f;
    if (ibw_pkt_has(p, (enum ibw_hdr)f->layer->arg)) {
        *fld = f->fld;
        return b->frame + p->off[f->layer->arg];
    }
    /* the same name in another header (AtomicETH's VA under reth.va) */
    if (f->layer2 && f->layer2->naming == DUMP_NAMES_WIRE &&
        ibw_pkt_has(p, (enum ibw_hdr)f->layer2->arg)) {
        *fld = f->fld2;
        return b->frame + p->off[f->layer2->arg];
    }
    return NULL;
}

static int write_settings(ibwire_builder *b, const struct ibw_pkt *p)
{
    for (size_t i = 0; i < b->nset; i++) {
        const struct setting *s = &b->set[i];
        const struct ibw_field *fld;
        uint8_t *at = field_place(b, p, s, &fld);
        if (!at)
            return fail(b, IBWIRE_E_FIELD,
                        "%s: the packet built carries no such header (see "
                        "its opcode and carriage)",
                        s->f->name);
        uint32_t bits = dump_span_width(fld, s->f->span);
        if (s->is_bytes)
            memcpy(at + fld->pos / 8, s->b, bits / 8);
        else
            ibw_wire_set(at, fld->pos, bits, s->u);
    }
    return 0;
}

/* The IPv4 checksum, ICRC and VCRC over the final bytes, each unless set;
 * p is the parse of the frame as ibw_build() made it (the layout the
 * settings did not move). */
static void store_derived(ibwire_builder *b, struct ibw_pkt *p)
{
    if (ibw_pkt_has(p, IBW_HDR_IPV4) && !setting_named(b, "ip.checksum")) {
        uint8_t *ip = b->frame + p->off[IBW_HDR_IPV4];
        ibw_ipv4_set_checksum(ip, 0);
        ibw_ipv4_set_checksum(ip, ibw_ipv4_checksum(ip, ibw_ipv4_SIZE));
    }
    uint8_t *icrc = b->frame + p->icrc_off;
    if (b->icrc_set)
        ibw_store_be32(icrc, b->icrc);
    else
        ibw_store_le32(icrc, ibw_icrc_compute(p));
    if (ibw_pkt_has(p, IBW_HDR_LRH)) {
        uint8_t *vcrc = b->frame + p->vcrc_off;
        if (b->vcrc_set)
            ibw_store_be16(vcrc, b->vcrc);
        else {
            uint16_t v = ibw_vcrc_compute(p);
            vcrc[0] = (uint8_t)v; /* sent least significant byte first */
            vcrc[1] = (uint8_t)(v >> 8);
        }
    }
}

IBWIRE_API long ibwire_build(ibwire_builder *b, int link, uint8_t *out,
                             size_t cap)
{
    if (!b || (!out && cap))
        return IBWIRE_E_ARG;
    b->error[0] = '\0';
    struct ibw_build_spec sp;
    int rc = make_spec(b, link, &sp);
    if (rc)
        return rc;
    /* the largest frame: every header, the payload, pad and both CRCs */
    size_t need = 256 + b->payload_len;
    if (need > b->room) {
        uint8_t *f = realloc(b->frame, need);
        if (!f)
            return IBWIRE_E_NOMEM;
        b->frame = f;
        b->room = need;
    }
    size_t len;
    rc = ibw_build(&sp, b->frame, b->room, &len);
    if (rc == IBW_E_OPCODE)
        return fail(b, IBWIRE_E_FIELD, "%s: reserved opcode",
                    "infiniband.bth.opcode");
    if (rc)
        return fail(b, rc == IBW_E_RANGE ? IBWIRE_E_RANGE : IBWIRE_E_FIELD,
                    "%s: these fields make no packet", "frame");
    struct ibw_pkt p;
    ibw_parse(b->frame, len, link == CAP_LINKTYPE_ETHERNET ? IBW_LINK_ETHERNET
                                                           : IBW_LINK_IB,
              &p);
    if (p.err != IBW_OK)
        return fail(b, IBWIRE_E_FIELD, "%s: the packet built does not parse",
                    "frame");
    rc = write_settings(b, &p);
    if (rc)
        return rc;
    store_derived(b, &p);
    if (!out && !cap)
        return (long)len; /* the size asked */
    if (len > cap) {
        snprintf(b->error, sizeof b->error, "frame: needs %zu bytes", len);
        return IBWIRE_E_NOSPACE;
    }
    memcpy(out, b->frame, len);
    return (long)len;
}
