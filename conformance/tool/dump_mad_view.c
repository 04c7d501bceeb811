/*
 * dump_mad_view.c - the MAD layers in -T text and -T json: what
 * ibw_mad_decode() finds in a frame's MAD, every field of every layer
 * through the library's descriptors (reserved bits included), plus the IP
 * CM header of an IP CM REQ.
 */
#include <string.h>

#include "dump_mad.h"
#include "ibwire/mad.h"

/* The MAD of a frame, as dump_fields_mad.c locates it. */
static const uint8_t *frame_mad(const struct dump_frame *fr)
{
    struct dump_val v;
    const struct dump_field *f = dump_field_find("infiniband.mad");
    return f && f->get(fr, &v) ? v.p : NULL;
}

/* The layers to show: ibw_mad_decode()'s, and the IP CM header of a REQ
 * that carries one.  Returns the count (0: no MAD) and the decode result. */
static unsigned mad_layers(const struct dump_frame *fr, struct ibw_mad_view *mv,
                           struct ibw_mad_layer *out, int *rc,
                           const uint8_t **mad)
{
    const uint8_t *m = frame_mad(fr);
    if (!m)
        return 0;
    *mad = m;
    *rc = ibw_mad_decode(m, IBW_MAD_SIZE, mv);
    unsigned n = 0;
    for (unsigned i = 0; i < mv->nlayers; i++)
        out[n++] = mv->layers[i];
    if (n == 0) { /* rejected before any layer: still show the MAD */
        out[n].fmt = ibw_gmp_format();
        out[n++].off = 0;
    }
    struct ibw_ip_cm ip;
    if (*rc == IBW_OK && mv->kind == IBW_MAD_KIND_CM &&
        mv->hdr.attributeid == IBW_CM_ATTR_REQ &&
        ibw_cm_req_ip_cm(&mv->attr.cm.u.req, &ip) == IBW_OK) {
        out[n].fmt = ibw_ip_cm_format();
        out[n].off = (uint16_t)(IBW_CM_DATA_OFFSET +
                                ibw_format_field(ibw_cm_req_format(),
                                                 "private_data")->pos / 8);
        n++;
    }
    return n;
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
    struct ibw_mad_view mv;
    struct ibw_mad_layer layers[IBW_MAD_MAX_LAYERS + 1];
    const uint8_t *m = NULL;
    int rc = IBW_OK;
    unsigned n = mad_layers(fr, &mv, layers, &rc, &m);
    for (unsigned i = 0; i < n; i++) {
        const struct ibw_format *fmt = layers[i].fmt;
        const uint8_t *base = m + layers[i].off;
        size_t avail = IBW_MAD_SIZE - layers[i].off;
        dump_out_printf(o, "  %-12s", fmt->name);
        for (size_t k = 0; k < fmt->nfields; k++) {
            dump_out_printf(o, " %s=", fmt->fields[k].name);
            field_value(o, fmt, &fmt->fields[k], base, avail, 1);
        }
        dump_out_char(o, '\n');
    }
    if (!n)
        return;
    dump_out_printf(o, "  %-12s %s %s %s\n", "mad names",
                    or_unknown(ibw_mad_class_name(mv.hdr.mgmtclass)),
                    or_unknown(ibw_mad_method_name(mv.hdr.mgmtclass,
                                                   mv.hdr.method)),
                    or_unknown(ibw_mad_attr_name(mv.hdr.mgmtclass,
                                                 mv.hdr.attributeid)));
    if (rc != IBW_OK)
        dump_out_printf(o, "  %-12s mad.%s: %s\n", "mad error",
                        mv.err_field ? mv.err_field : "mad", ibw_strerror(rc));
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

void dump_mad_json(struct dump_out *o, const struct dump_frame *fr)
{
    struct ibw_mad_view mv;
    struct ibw_mad_layer layers[IBW_MAD_MAX_LAYERS + 1];
    const uint8_t *m = NULL;
    int rc = IBW_OK;
    unsigned n = mad_layers(fr, &mv, layers, &rc, &m);
    if (!n)
        return;
    dump_out_str(o, ",\"mad\":{");
    json_name(o, "class", ibw_mad_class_name(mv.hdr.mgmtclass));
    dump_out_char(o, ',');
    json_name(o, "method", ibw_mad_method_name(mv.hdr.mgmtclass, mv.hdr.method));
    dump_out_char(o, ',');
    json_name(o, "attribute",
              ibw_mad_attr_name(mv.hdr.mgmtclass, mv.hdr.attributeid));
    dump_out_str(o, ",\"layers\":[");
    for (unsigned i = 0; i < n; i++) {
        const struct ibw_format *fmt = layers[i].fmt;
        const uint8_t *base = m + layers[i].off;
        size_t avail = IBW_MAD_SIZE - layers[i].off;
        if (i)
            dump_out_char(o, ',');
        dump_out_str(o, "{\"name\":");
        dump_out_json_str(o, fmt->name);
        dump_out_str(o, ",\"offset\":");
        dump_out_dec(o, layers[i].off);
        dump_out_str(o, ",\"fields\":{");
        for (size_t k = 0; k < fmt->nfields; k++) {
            const struct ibw_field *f = &fmt->fields[k];
            uint64_t v;
            if (k)
                dump_out_char(o, ',');
            dump_out_json_str(o, f->name);
            dump_out_char(o, ':');
            /* Up to 32 bits as JSON numbers; wider values and bytes as
             * strings, which no JSON reader rounds. */
            if (f->kind != IBW_FK_BYTES && f->width <= 32 &&
                ibw_field_get(fmt, f, base, avail, &v) == IBW_OK) {
                dump_out_dec(o, v);
            } else {
                dump_out_char(o, '"');
                field_value(o, fmt, f, base, avail, 0);
                dump_out_char(o, '"');
            }
        }
        dump_out_str(o, "}}");
    }
    dump_out_str(o, "],\"error\":");
    if (rc == IBW_OK) {
        dump_out_str(o, "null");
    } else {
        dump_out_char(o, '{');
        json_name(o, "field", mv.err_field ? mv.err_field : "mad");
        dump_out_char(o, ',');
        json_name(o, "message", ibw_strerror(rc));
        dump_out_char(o, '}');
    }
    dump_out_char(o, '}');
}
