/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dump_mad_view.c - the MAD layers in -T text and -T json: what
 * ibw_mad_decode() finds in a frame's MAD, every field of every layer
 * through the library's descriptors (reserved bits included), plus the IP
 * CM header of an IP CM REQ.
 */
#include <string.h>

#include "dump_mad.h"
#include "dump_view.h"
#include "ibwire/mad.h"

/* The MAD of a frame, as dump_fields_mad.c locates it. */
static const uint8_t *frame_mad(const struct dump_frame *fr)
{
    struct dump_val v;
    const struct dump_field *f = dump_field_find("infiniband.mad");
    return f && dump_field_get(f, fr, &v) ? v.p : NULL;
}

/* What the views show of a frame's MAD. */
struct mad_shown {
    const uint8_t *mad;
    int rc; /* ibw_mad_decode()'s verdict */
    struct ibw_mad_view mv;
    unsigned n;
    struct ibw_mad_layer layers[IBW_MAD_MAX_LAYERS + 1];
};

/* The layers to show: ibw_mad_decode()'s (the GMP alone when it rejects
 * the MAD before finding any), and the IP CM header of a REQ that carries
 * one.  Returns the count, 0 when the frame has no MAD. */
static unsigned mad_layers(const struct dump_frame *fr, struct mad_shown *s)
{
    s->n = 0;
    s->mad = frame_mad(fr);
    if (!s->mad)
        return 0;
    s->rc = ibw_mad_decode(s->mad, IBW_MAD_SIZE, &s->mv);
    for (unsigned i = 0; i < s->mv.nlayers; i++)
        s->layers[s->n++] = s->mv.layers[i];
    if (s->n == 0) {
        s->layers[0].fmt = ibw_gmp_format();
        s->layers[s->n++].off = 0;
    }
    struct ibw_ip_cm ip;
    if (s->rc == IBW_OK && s->mv.kind == IBW_MAD_KIND_CM &&
        s->mv.hdr.attributeid == IBW_CM_ATTR_REQ &&
        ibw_cm_req_ip_cm(&s->mv.attr.cm.u.req, &ip) == IBW_OK) {
        s->layers[s->n].fmt = ibw_ip_cm_format();
        s->layers[s->n++].off = (uint16_t)(
            IBW_CM_DATA_OFFSET +
            ibw_format_field(ibw_cm_req_format(), "private_data")->pos / 8);
    }
    return s->n;
}

/* Layer i's format, first byte and the MAD bytes from there. */
static const struct ibw_format *layer_at(const struct mad_shown *s,
                                         unsigned i, const uint8_t **base,
                                         size_t *avail)
{
    *base = s->mad + s->layers[i].off;
    *avail = IBW_MAD_SIZE - (size_t)s->layers[i].off;
    return s->layers[i].fmt;
}

/* Byte fields longer than this are shortened in the text view. */
#define TEXT_BYTES_MAX 16

static void field_value(struct dump_out *o, const struct ibw_format *fmt,
                        const struct ibw_field *f, const uint8_t *base,
                        size_t avail, int shorten)
{
    if (f->kind == IBW_FK_BYTES) {
        const uint8_t *p = ibw_field_bytes(f, base, avail);
        size_t n = f->width / 8;
        if (!p) {
            dump_out_str(o, "(cut)");
        } else if (shorten && n > TEXT_BYTES_MAX) {
            dump_out_bytes_hex(o, p, TEXT_BYTES_MAX, 0);
            dump_out_printf(o, "...(%zu bytes)", n);
        } else {
            dump_out_bytes_hex(o, p, n, 0);
        }
        return;
    }
    uint64_t v;
    if (ibw_field_get(fmt, f, base, avail, &v) != IBW_OK)
        dump_out_str(o, "(cut)");
    else if (f->width <= 8)
        dump_out_dec(o, v);
    else
        dump_out_hex(o, v, (f->width + 3) / 4);
}

static const char *or_unknown(const char *s)
{
    return s ? s : "unknown";
}

void dump_mad_text(struct dump_out *o, const struct dump_frame *fr)
{
    struct mad_shown s;
    if (!mad_layers(fr, &s))
        return;
    for (unsigned i = 0; i < s.n; i++) {
        const uint8_t *base;
        size_t avail;
        const struct ibw_format *fmt = layer_at(&s, i, &base, &avail);
        dump_out_printf(o, "  %-12s", fmt->name);
        for (size_t k = 0; k < fmt->nfields; k++) {
            dump_out_printf(o, " %s=", fmt->fields[k].name);
            field_value(o, fmt, &fmt->fields[k], base, avail, 1);
        }
        dump_out_char(o, '\n');
    }
    const struct ibw_mad_hdr *h = &s.mv.hdr;
    dump_out_printf(o, "  %-12s %s %s %s\n", "mad names",
                    or_unknown(ibw_mad_class_name(h->mgmtclass)),
                    or_unknown(ibw_mad_method_name(h->mgmtclass, h->method)),
                    or_unknown(ibw_mad_attr_name(h->mgmtclass,
                                                 h->attributeid)));
    if (s.rc != IBW_OK)
        dump_out_printf(o, "  %-12s mad.%s: %s\n", "mad error",
                        s.mv.err_field ? s.mv.err_field : "mad",
                        ibw_strerror(s.rc));
}

static void json_name(struct dump_out *o, const char *key, const char *val)
{
    dump_out_json_str(o, key);
    dump_out_char(o, ':');
    if (val)
        dump_out_json_str(o, val);
    else
        dump_out_str(o, "null");
}

/* A MAD field's value (field_value, unshortened) as a JSON string. */
static void layer_json_str(struct dump_out *o, const struct ibw_format *fmt,
                           const struct ibw_field *f, const uint8_t *base,
                           size_t avail)
{
    dump_out_char(o, '"');
    field_value(o, fmt, f, base, avail, 0);
    dump_out_char(o, '"');
}

void dump_mad_json(struct dump_out *o, const struct dump_frame *fr)
{
    struct mad_shown s;
    if (!mad_layers(fr, &s))
        return;
    const struct ibw_mad_hdr *h = &s.mv.hdr;
    dump_out_str(o, ",\"mad\":{");
    json_name(o, "class", ibw_mad_class_name(h->mgmtclass));
    dump_out_char(o, ',');
    json_name(o, "method", ibw_mad_method_name(h->mgmtclass, h->method));
    dump_out_char(o, ',');
    json_name(o, "attribute", ibw_mad_attr_name(h->mgmtclass, h->attributeid));
    dump_out_str(o, ",\"layers\":[");
    for (unsigned i = 0; i < s.n; i++) {
        const uint8_t *base;
        size_t avail;
        const struct ibw_format *fmt = layer_at(&s, i, &base, &avail);
        if (i)
            dump_out_char(o, ',');
        dump_json_layer(o, fmt->name, s.layers[i].off, fmt, base, avail,
                        layer_json_str);
    }
    dump_out_str(o, "],\"error\":");
    if (s.rc == IBW_OK) {
        dump_out_str(o, "null");
    } else {
        dump_out_char(o, '{');
        json_name(o, "field", s.mv.err_field ? s.mv.err_field : "mad");
        dump_out_char(o, ',');
        json_name(o, "message", ibw_strerror(s.rc));
        dump_out_char(o, '}');
    }
    dump_out_char(o, '}');
}
