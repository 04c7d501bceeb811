/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dump_view.c - the whole-frame views of `ibwire dump`: -T text (one block
 * per frame, every field of every header as name=value) and -T json without
 * -e (one object per frame).  Both walk the headers the parser found and
 * print them through the library's format descriptors, so every field the
 * library declares shows, reserved bits included.
 */
#include <arpa/inet.h>
#include <string.h>
#include <sys/socket.h>

#include "dump_mad.h"
#include "dump_view.h"

/* Counters and lengths read better in decimal; keys, QPs, addresses and
 * checksums in hex. */
static int wide_decimal(const char *name)
{
    static const char *const names[] = {
        "psn", "msn", "pktlen", "paylen", "length", "total_length", "dmalen",
        "sport", "dport", "dlid", "slid", "eecnxt", "frag_offset", "vid",
        "flowlabel", "swapdt", "cmpdt", "origremdt", "pkey"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i]) == 0)
            return 1;
    return 0;
}

/* Formats whose byte fields are all IP addresses or GIDs. */
static int is_address_format(const struct ibw_format *fmt)
{
    return !strcmp(fmt->name, "grh") || !strcmp(fmt->name, "ipv4") ||
           !strcmp(fmt->name, "ipv6");
}

/* One field's value as text into buf. */
static void field_text(const struct ibw_format *fmt, const struct ibw_field *f,
                       const uint8_t *h, size_t avail, char *buf, size_t cap)
{
    if (f->kind == IBW_FK_BYTES) {
        const uint8_t *p = ibw_field_bytes(f, h, avail);
        size_t n = f->width / 8;
        if (!p) {
            snprintf(buf, cap, "(cut)");
        } else if (is_address_format(fmt)) {
            /* GIDs, IPv6 and IPv4 addresses */
            if (!inet_ntop(n == 4 ? AF_INET : AF_INET6, p, buf,
                           (socklen_t)cap))
                snprintf(buf, cap, "?");
        } else {
            size_t o = 0;
            for (size_t i = 0; i < n && o + 4 < cap; i++)
                o += (size_t)snprintf(buf + o, cap - o, n == 6 && i ? ":%02x"
                                                                    : "%02x",
                                      p[i]);
        }
        return;
    }
    uint64_t v;
    if (ibw_field_get(fmt, f, h, avail, &v) != IBW_OK) {
        snprintf(buf, cap, "(cut)");
    } else if ((f->width <= 8 && strcmp(f->name, "opcode") != 0) ||
               wide_decimal(f->name)) {
        snprintf(buf, cap, "%llu", (unsigned long long)v);
    } else {
        snprintf(buf, cap, "0x%0*llx", (int)((f->width + 3) / 4),
                 (unsigned long long)v);
    }
}

/* Header h of the view: its descriptor, first byte and the bytes from there
 * to the end of the frame.  0 when the view does not hold it. */
/* A header of the view as the dump walks it: its descriptor, its first
 * byte and how many of its bytes were captured. */
struct hdr_view {
    const struct ibw_format *fmt;
    const uint8_t *base;
    size_t avail;
};

/* Moves *h to the next header at or after it that the view holds and has a
 * descriptor for, and describes it in *v; 0 when none is left. */
static int next_header(const struct ibw_pkt *p, unsigned *h,
                       struct hdr_view *v)
{
    for (; *h < IBW_HDR_COUNT; (*h)++) {
        v->fmt = ibw_hdr_format(*h);
        if (!ibw_pkt_has(p, (enum ibw_hdr)*h) || !v->fmt)
            continue;
        v->base = p->data + p->off[*h];
        v->avail = p->len > p->off[*h] ? p->len - p->off[*h] : 0;
        return 1;
    }
    return 0;
}

/* The ICRC and VCRC lines differ only in the CRC's width (8 or 4 hex
 * digits); an absent CRC has no line. */
static void crc_text(struct dump_out *o, const char *name, uint8_t status,
                     uint32_t wire, uint32_t calc, int digits)
{
    if (status == IBW_CRC_UNCHECKED)
        dump_out_printf(o, "  %-12s unchecked (the frame is cut before its "
                        "end)\n", name);
    else if (status != IBW_CRC_ABSENT)
        dump_out_printf(o, "  %-12s %s (carried 0x%0*x, computed 0x%0*x)\n",
                        name, dump_crc_status_name(status), digits,
                        (unsigned)wire, digits, (unsigned)calc);
}

/* The outer layer i of frame c (encap.h), described in *v; 0 when it has
 * no format. */
static int outer_layer(const struct cap_frame *c, unsigned i,
                       struct hdr_view *v)
{
    const struct ibw_encap_layer *l = &c->encap.layer[i];
    v->fmt = ibw_encap_format(l->kind);
    if (!v->fmt || !c->iba)
        return 0;
    v->base = c->iba - c->encap.inner_off + l->off;
    v->avail = l->len;
    return 1;
}

/* The outer layers, one line each, before the carried frame's headers. */
static void outer_text(struct dump_out *o, const struct cap_frame *c)
{
    char val[128];
    struct hdr_view v;
    if (!c->encap.n || !c->iba)
        return;
    dump_out_printf(o, "  %-12s %u layers, the frame at byte %u\n", "outer",
                    (unsigned)c->encap.n, (unsigned)c->encap.inner_off);
    for (unsigned i = 0; i < c->encap.n; i++) {
        if (!outer_layer(c, i, &v))
            continue;
        dump_out_printf(o, "  %-12s", v.fmt->name);
        for (size_t k = 0; k < v.fmt->nfields; k++) {
            field_text(v.fmt, &v.fmt->fields[k], v.base, v.avail, val,
                       sizeof val);
            dump_out_printf(o, " %s=%s", v.fmt->fields[k].name, val);
        }
        dump_out_char(o, '\n');
    }
    if (c->mirror_cut)
        dump_out_printf(o, "  %-12s the mirror truncated the frame (T bit)\n",
                        "outer");
}

void dump_view_text(struct dump_out *o, const struct dump_frame *fr)
{
    const struct cap_frame *c = fr->cap;
    const struct ibw_pkt *p = fr->pkt;
    char val[128];

    dump_out_printf(o,
                    "frame %llu: %u bytes on wire, %u captured, link %s (%d), "
                    "time %lld.%09u\n",
                    (unsigned long long)c->number, c->wire_len, fr->cap_len,
                    cap_linktype_name(c->linktype), c->linktype,
                    (long long)fr->ts_sec, fr->ts_nsec);
    if (c->truncated)
        dump_out_printf(o, "  cut short at capture: %u of %u bytes\n",
                        c->caplen, c->origlen);
    if (c->erf_type >= 0)
        dump_out_printf(o, "  erf type=0x%02x\n", (unsigned)c->erf_type);
    if (!p) {
        dump_out_printf(o, "  not IBA: %s\n\n",
                        c->not_iba ? c->not_iba : "no IBA framing");
        return;
    }
    outer_text(o, c);
    struct hdr_view v;
    for (unsigned h = 0; next_header(p, &h, &v); h++) {
        dump_out_printf(o, "  %-12s", ibw_hdr_name(h));
        for (size_t i = 0; i < v.fmt->nfields; i++) {
            field_text(v.fmt, &v.fmt->fields[i], v.base, v.avail, val,
                       sizeof val);
            dump_out_printf(o, " %s=%s", v.fmt->fields[i].name, val);
        }
        if (h == IBW_HDR_BTH)
            dump_out_printf(o, " (%s)", ibw_opcode_info(p->opcode)->name);
        dump_out_char(o, '\n');
    }
    dump_mad_text(o, fr);
    if (p->cut) {
        if (p->wire_len)
            dump_out_printf(o, "  %-12s %zu of the %u bytes the length fields "
                            "say%s\n", "cut", p->len, p->wire_len,
                            c->truncated ? "" : " (the file records no cut)");
        else
            dump_out_printf(o, "  %-12s %zu bytes, before the length fields\n",
                            "cut", p->len);
    }
    if (ibw_pkt_has(p, IBW_HDR_BTH) && p->err == IBW_OK)
        dump_out_printf(o, "  %-12s %u bytes at offset %u, pad %u\n", "payload",
                        p->payload_len, p->payload_off, p->pad);
    else if (p->cut && p->payload_off)
        dump_out_printf(o, "  %-12s %u of %u bytes at offset %u\n", "payload",
                        p->payload_len, p->payload_wire_len, p->payload_off);
    else if (p->transport == IBW_TK_IB_RAW)
        dump_out_printf(o, "  %-12s %u bytes at offset %u (raw)\n", "payload",
                        p->payload_len, p->payload_off);
    crc_text(o, "icrc", p->icrc_status, p->icrc_wire, p->icrc_calc, 8);
    crc_text(o, "vcrc", p->vcrc_status, p->vcrc_wire, p->vcrc_calc, 4);
    if (p->transport == IBW_TK_NONE && p->err == IBW_OK)
        dump_out_printf(o, "  not IBA: no RoCE or InfiniBand transport\n");
    if (fr->err[0])
        dump_out_printf(o, "  %-12s %s\n", "error", fr->err);
    dump_out_char(o, '\n');
}

static void json_key(struct dump_out *o, const char *key, int *first)
{
    if (!*first)
        dump_out_char(o, ',');
    *first = 0;
    dump_out_json_str(o, key);
    dump_out_char(o, ':');
}

static void json_crc(struct dump_out *o, const char *key, uint8_t status,
                     uint32_t wire, uint32_t calc, unsigned digits, int *first)
{
    json_key(o, key, first);
    dump_out_str(o, "{\"status\":");
    dump_out_json_str(o, dump_crc_status_name(status));
    if (status != IBW_CRC_ABSENT && status != IBW_CRC_UNCHECKED) {
        dump_out_str(o, ",\"wire\":\"");
        dump_out_hex(o, wire, digits);
        dump_out_str(o, "\",\"calc\":\"");
        dump_out_hex(o, calc, digits);
        dump_out_char(o, '"');
    }
    dump_out_char(o, '}');
}

void dump_json_layer(struct dump_out *o, const char *name, unsigned off,
                     const struct ibw_format *fmt, const uint8_t *base,
                     size_t avail, dump_json_str_fn str)
{
    dump_out_str(o, "{\"name\":");
    dump_out_json_str(o, name);
    dump_out_str(o, ",\"offset\":");
    dump_out_dec(o, off);
    dump_out_str(o, ",\"fields\":{");
    for (size_t i = 0; i < fmt->nfields; i++) {
        const struct ibw_field *f = &fmt->fields[i];
        uint64_t v;
        if (i)
            dump_out_char(o, ',');
        dump_out_json_str(o, f->name);
        dump_out_char(o, ':');
        /* Integers up to 32 bits as JSON numbers; wider ones and byte
         * arrays as strings, which no JSON reader rounds. */
        if (f->kind == IBW_FK_UINT && f->width <= 32 &&
            ibw_field_get(fmt, f, base, avail, &v) == IBW_OK)
            dump_out_dec(o, v);
        else
            str(o, fmt, f, base, avail);
    }
    dump_out_str(o, "}}");
}

/* A header field's text (field_text) as a JSON string. */
static void header_json_str(struct dump_out *o, const struct ibw_format *fmt,
                            const struct ibw_field *f, const uint8_t *base,
                            size_t avail)
{
    char val[128];
    field_text(fmt, f, base, avail, val, sizeof val);
    dump_out_json_str(o, val);
}

void dump_view_json(struct dump_out *o, const struct dump_frame *fr)
{
    const struct cap_frame *c = fr->cap;
    const struct ibw_pkt *p = fr->pkt;
    int first = 1;

    dump_out_char(o, '{');
    json_key(o, "frame", &first);
    dump_out_dec(o, c->number);
    json_key(o, "time", &first);
    dump_out_printf(o, "\"%lld.%09u\"", (long long)fr->ts_sec, fr->ts_nsec);
    json_key(o, "len", &first);
    dump_out_dec(o, c->wire_len);
    json_key(o, "caplen", &first);
    dump_out_dec(o, fr->cap_len);
    json_key(o, "linktype", &first);
    dump_out_dec(o, (uint64_t)c->linktype);
    json_key(o, "truncated", &first);
    dump_out_str(o, c->truncated ? "true" : "false");
    if (c->erf_type >= 0) {
        json_key(o, "erf_type", &first);
        dump_out_dec(o, (uint64_t)c->erf_type);
    }
    if (!p) {
        json_key(o, "not_iba", &first);
        dump_out_json_str(o, c->not_iba ? c->not_iba : "no IBA framing");
        dump_out_str(o, "}\n");
        return;
    }
    struct hdr_view v;
    if (c->encap.n) {
        /* offsets from the record's first byte (after an ERF header);
         * the frame's own headers count from inner_offset */
        json_key(o, "inner_offset", &first);
        dump_out_dec(o, c->encap.inner_off);
        json_key(o, "outer", &first);
        dump_out_char(o, '[');
        for (unsigned i = 0, n = 0; i < c->encap.n; i++) {
            if (!outer_layer(c, i, &v))
                continue;
            if (n++)
                dump_out_char(o, ',');
            dump_json_layer(o, v.fmt->name, c->encap.layer[i].off, v.fmt,
                            v.base, v.avail, header_json_str);
        }
        dump_out_char(o, ']');
    }
    json_key(o, "headers", &first);
    dump_out_char(o, '[');
    int first_hdr = 1;
    for (unsigned h = 0; next_header(p, &h, &v); h++) {
        if (!first_hdr)
            dump_out_char(o, ',');
        first_hdr = 0;
        dump_json_layer(o, ibw_hdr_name(h), p->off[h], v.fmt, v.base, v.avail,
                        header_json_str);
    }
    dump_out_char(o, ']');
    dump_mad_json(o, fr);
    json_key(o, "transport", &first);
    dump_out_json_str(o, dump_transport_name(p->transport));
    if (ibw_pkt_has(p, IBW_HDR_BTH)) {
        json_key(o, "opcode_name", &first);
        dump_out_json_str(o, ibw_opcode_info(p->opcode)->name);
        if (p->err == IBW_OK) {
            json_key(o, "payload", &first);
            dump_out_printf(o, "{\"offset\":%u,\"len\":%u,\"pad\":%u}",
                            p->payload_off, p->payload_len, p->pad);
        } else if (p->cut && p->payload_off) {
            json_key(o, "payload", &first);
            dump_out_printf(o, "{\"offset\":%u,\"len\":%u,\"captured\":%u}",
                            p->payload_off, p->payload_wire_len,
                            p->payload_len);
        }
    }
    if (p->cut) {
        json_key(o, "cut", &first);
        dump_out_printf(o, "{\"captured\":%zu,\"wire_len\":%u,"
                        "\"recorded\":%s}", p->len, p->wire_len,
                        c->truncated ? "true" : "false");
    }
    json_crc(o, "icrc", p->icrc_status, p->icrc_wire, p->icrc_calc, 8, &first);
    json_crc(o, "vcrc", p->vcrc_status, p->vcrc_wire, p->vcrc_calc, 4, &first);
    if (fr->err[0]) {
        json_key(o, "error", &first);
        dump_out_str(o, "{\"header\":");
        dump_out_json_str(o, p->err_hdr ? p->err_hdr : "");
        dump_out_str(o, ",\"field\":");
        if (p->err_field)
            dump_out_json_str(o, p->err_field);
        else
            dump_out_str(o, "null");
        dump_out_str(o, ",\"message\":");
        dump_out_json_str(o, fr->err);
        dump_out_char(o, '}');
    }
    dump_out_str(o, "}\n");
}
