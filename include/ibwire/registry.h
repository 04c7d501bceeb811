/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ibwire/registry.h - every format ibwire knows, listed at run time.
 *
 * Each family header declares its formats through the generators of base.h,
 * which give every format a descriptor (struct ibw_format: name, catalog
 * ID, width, fields with bit positions, meaning, source, layout decision).
 * The registry is the list of those descriptors: count, get by index, find
 * by name.  Tools walk it (`ibwire record`, the docs generator, fuzzers).
 *
 * Adding a family is one line in IBW__REGISTRY_FAMILIES below (plus the
 * #include of its header): the family exposes an X-macro list of its
 * format prefixes, as IBW_RECORD_FORMATS does in records.h.
 *
 * Also here: reading and writing one field of a record (bus order, word
 * array) through its descriptor, with range checks, for integer and WIDE
 * fields alike.
 */
#ifndef IBWIRE_REGISTRY_H
#define IBWIRE_REGISTRY_H

#include "base.h"
#include "cm.h"
#include "framing.h"
#include "host.h"
#include "mad.h"
#include "records.h"
#include "wire.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The transport headers of wire.h (W1-W12), in catalog order. */
#define IBW_WIRE_FORMATS(X)                                                   \
    X(ibw_lrh)                                                                \
    X(ibw_grh)                                                                \
    X(ibw_bth)                                                                \
    X(ibw_rdeth)                                                              \
    X(ibw_deth)                                                               \
    X(ibw_reth)                                                               \
    X(ibw_atomiceth)                                                          \
    X(ibw_aeth)                                                               \
    X(ibw_atomicacketh)                                                       \
    X(ibw_immdt)                                                              \
    X(ibw_ieth)                                                               \
    X(ibw_xrceth)                                                             \
    X(ibw_feth)

/* RoCE framing (W15). */
#define IBW_FRAMING_FORMATS(X)                                                \
    X(ibw_eth)                                                                \
    X(ibw_vlan)                                                               \
    X(ibw_ipv4)                                                               \
    X(ibw_ipv6)                                                               \
    X(ibw_udp)                                                                \
    X(ibw_cnp)

/* Every family, one line each. */
#define IBW__REGISTRY_FAMILIES(X)                                             \
    IBW_WIRE_FORMATS(X)                                                       \
    IBW_FRAMING_FORMATS(X)                                                    \
    IBW_MAD_FORMATS(X)                                                        \
    IBW_HOST_FORMATS(X)                                                       \
    IBW_RECORD_FORMATS(X)

/* A format's descriptor accessor, pfx##_format. */
typedef const struct ibw_format *(*ibw_format_fn)(void);

#define IBW__REGISTRY_FN(pfx) pfx##_format,

/* The table of descriptor accessors and its length in *n. */
static inline const ibw_format_fn *ibw__registry_table(size_t *n)
{
    static const ibw_format_fn table[] = {
        IBW__REGISTRY_FAMILIES(IBW__REGISTRY_FN)};
    *n = sizeof table / sizeof table[0];
    return table;
}

/* Number of formats in the registry. */
static inline size_t ibw_registry_count(void)
{
    size_t n;
    (void)ibw__registry_table(&n);
    return n;
}

/* Format number i (0 .. count-1), or NULL when i is out of range. */
static inline const struct ibw_format *ibw_registry_get(size_t i)
{
    size_t n;
    const ibw_format_fn *t = ibw__registry_table(&n);
    return i < n ? t[i]() : NULL;
}

/* The format called `name` (e.g. "bth", "sq_doorbell"), or NULL. */
static inline const struct ibw_format *ibw_registry_find(const char *name)
{
    size_t n;
    const ibw_format_fn *t = ibw__registry_table(&n);
    for (size_t i = 0; i < n; i++) {
        const struct ibw_format *f = t[i]();
        if (strcmp(f->name, name) == 0)
            return f;
    }
    return NULL;
}

/*
 * The Wireshark (tshark 4.0) display-filter name of field `field` of a
 * transport header (lrh ... feth) or framing header (eth, vlan, ipv4, ipv6,
 * udp), written to buf (n bytes): "infiniband." + format + "." + field for
 * the transport headers, Wireshark's protocol prefix (eth, vlan, ip, ipv6,
 * udp) for the framing, with the renames tabled below.  Reserved bits and
 * the fields tshark 4.0 does not dissect (BTH FECN/BECN, XRCETH, FETH, the
 * CNP) have no name: IBW_E_FIELD, as for a format of another family.
 * IBW_E_NOSPACE when the name does not fit.
 */
static inline int ibw_wire_tshark_name(const char *format, const char *field,
                                       char *buf, size_t n)
{
    /* Per format: its prefix (field NULL), then Wireshark's own spelling
     * of the fields it renames, "" for a field it does not dissect. */
    static const struct {
        const char *format, *field, *name;
    } names[] = {
        {"eth", NULL, "eth"},
        {"eth", "dmac", "eth.dst"},
        {"eth", "smac", "eth.src"},
        {"eth", "ethertype", "eth.type"},
        {"vlan", NULL, "vlan"},
        {"vlan", "pcp", "vlan.priority"},
        {"vlan", "vid", "vlan.id"},
        {"vlan", "ethertype", "vlan.etype"},
        {"ipv4", NULL, "ip"},
        {"ipv4", "ihl", "ip.hdr_len"}, /* shown in bytes, IHL * 4 */
        {"ipv4", "dscp", "ip.dsfield.dscp"},
        {"ipv4", "ecn", "ip.dsfield.ecn"},
        {"ipv4", "total_length", "ip.len"},
        {"ipv4", "resv", "ip.flags.rb"},
        {"ipv4", "df", "ip.flags.df"},
        {"ipv4", "mf", "ip.flags.mf"},
        {"ipv4", "protocol", "ip.proto"},
        {"ipv4", "saddr", "ip.src"},
        {"ipv4", "daddr", "ip.dst"},
        {"ipv6", NULL, "ipv6"},
        {"ipv6", "flowlabel", "ipv6.flow"},
        {"ipv6", "paylen", "ipv6.plen"},
        {"ipv6", "nexthdr", "ipv6.nxt"},
        {"ipv6", "hoplimit", "ipv6.hlim"},
        {"ipv6", "saddr", "ipv6.src"},
        {"ipv6", "daddr", "ipv6.dst"},
        {"udp", NULL, "udp"},
        {"udp", "sport", "udp.srcport"},
        {"udp", "dport", "udp.dstport"},
        {"lrh", NULL, "infiniband.lrh"},
        {"grh", NULL, "infiniband.grh"},
        {"bth", NULL, "infiniband.bth"},
        {"bth", "pkey", "infiniband.bth.p_key"},
        {"bth", "ackreq", "infiniband.bth.a"},
        {"bth", "fecn", ""},
        {"bth", "becn", ""},
        {"rdeth", NULL, "infiniband.rdeth"},
        {"deth", NULL, "infiniband.deth"},
        {"deth", "qkey", "infiniband.deth.q_key"},
        {"reth", NULL, "infiniband.reth"},
        {"reth", "rkey", "infiniband.reth.r_key"},
        {"atomiceth", NULL, "infiniband.atomiceth"},
        /* one name for the VA and R_Key of RETH and AtomicETH */
        {"atomiceth", "va", "infiniband.reth.va"},
        {"atomiceth", "rkey", "infiniband.reth.r_key"},
        {"aeth", NULL, "infiniband.aeth"},
        {"atomicacketh", NULL, "infiniband.atomicacketh"},
        /* the header item and its one field share the name */
        {"immdt", "imm", "infiniband.immdt"},
        {"ieth", "rkey", "infiniband.ieth"},
    };
    const char *prefix = NULL;
    const char *name = NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(names[i].format, format) != 0)
            continue;
        if (!names[i].field)
            prefix = names[i].name;
        else if (strcmp(names[i].field, field) == 0)
            name = names[i].name;
    }
    if (name && !name[0])
        return IBW_E_FIELD;
    if (!name && (!prefix || strncmp(field, "resv", 4) == 0))
        return IBW_E_FIELD;
    /* the whole name, or the prefix, a dot and the field */
    const char *parts[3] = {name ? name : prefix, name ? "" : ".",
                            name ? "" : field};
    size_t len[3], total = 1;
    for (size_t i = 0; i < 3; i++)
        total += len[i] = strlen(parts[i]);
    if (total > n)
        return IBW_E_NOSPACE;
    for (size_t i = 0, at = 0; i < 3; at += len[i], i++)
        memcpy(buf + at, parts[i], len[i] + (i == 2));
    return IBW_OK;
}

/* ------------------------------------------------------------------------ */
/* One record field through its descriptor (bus order, word array)          */
/* ------------------------------------------------------------------------ */

/* Words a record format occupies; 0 for a wire format. */
static inline size_t ibw_record_words(const struct ibw_format *fmt)
{
    return fmt->conv == IBW_CONV_RECORD ? ((size_t)fmt->width + 31) / 32 : 0;
}

/* Integer field f of record fmt from words w (ibw_record_words(fmt) of
 * them).  IBW_E_FIELD when fmt is not a record or f is not an integer. */
static inline int ibw_record_field_get(const struct ibw_format *fmt,
                                       const struct ibw_field *f,
                                       const uint32_t *w, uint64_t *out)
{
    if (fmt->conv != IBW_CONV_RECORD || f->kind != IBW_FK_UINT ||
        f->width == 0 || f->width > 64 || f->pos + f->width > fmt->width)
        return IBW_E_FIELD;
    *out = ibw_rec_get(w, f->pos, f->width);
    return IBW_OK;
}

/* Write integer field f.  IBW_E_RANGE (nothing written) when v does not fit
 * the field; IBW_E_FIELD as for ibw_record_field_get. */
static inline int ibw_record_field_set(const struct ibw_format *fmt,
                                       const struct ibw_field *f, uint32_t *w,
                                       uint64_t v)
{
    if (fmt->conv != IBW_CONV_RECORD || f->kind != IBW_FK_UINT ||
        f->width == 0 || f->width > 64 || f->pos + f->width > fmt->width)
        return IBW_E_FIELD;
    if (v & ~ibw_mask64(f->width))
        return IBW_E_RANGE;
    ibw_rec_set(w, f->pos, f->width, v);
    return IBW_OK;
}

/* Any field of a record (integer or WIDE) as words: out[] gets
 * IBW_WIDE_WORDS(f->width) words, bit 0 of the field in bit 0 of out[0].
 * IBW_E_NOSPACE when nout is too small, IBW_E_FIELD when fmt is not a record
 * or f lies outside it. */
static inline int ibw_record_field_get_words(const struct ibw_format *fmt,
                                             const struct ibw_field *f,
                                             const uint32_t *w, uint32_t *out,
                                             size_t nout)
{
    if (fmt->conv != IBW_CONV_RECORD || f->kind == IBW_FK_BYTES ||
        f->width == 0 || f->pos + f->width > fmt->width)
        return IBW_E_FIELD;
    if (nout < IBW_WIDE_WORDS((size_t)f->width))
        return IBW_E_NOSPACE;
    ibw_rec_get_wide(w, f->pos, f->width, out);
    return IBW_OK;
}

/* Write any field from nv words v[] (bit 0 of the value in bit 0 of v[0]).
 * IBW_E_RANGE (nothing written) when a bit at or above the field's width is
 * set in v; IBW_E_FIELD as for ibw_record_field_get_words. */
static inline int ibw_record_field_set_words(const struct ibw_format *fmt,
                                             const struct ibw_field *f,
                                             uint32_t *w, const uint32_t *v,
                                             size_t nv)
{
    if (fmt->conv != IBW_CONV_RECORD || f->kind == IBW_FK_BYTES ||
        f->width == 0 || f->pos + f->width > fmt->width)
        return IBW_E_FIELD;
    for (size_t i = 0; i < nv; i++) {
        size_t lo = i * 32;
        uint32_t allowed = lo >= f->width ? 0
                           : f->width - lo >= 32
                               ? 0xFFFFFFFFu
                               : (uint32_t)ibw_mask64((unsigned)(f->width - lo));
        if (v[i] & ~allowed)
            return IBW_E_RANGE;
    }
    uint32_t tmp[IBW_RECORD_MAX_WORDS] = {0};
    size_t need = IBW_WIDE_WORDS((size_t)f->width);
    if (need > IBW_RECORD_MAX_WORDS)
        return IBW_E_UNSUPPORTED;
    memcpy(tmp, v, (nv < need ? nv : need) * sizeof *v);
    ibw_rec_set_wide(w, f->pos, f->width, tmp);
    return IBW_OK;
}

#ifdef __cplusplus
}
#endif

#endif /* IBWIRE_REGISTRY_H */
