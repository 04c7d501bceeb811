/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dump.h - `ibwire dump`: the field table and the output buffer.
 *
 * A field is a name (Wireshark's, or ibwire.* for what Wireshark lacks), a
 * print type that reproduces how tshark 4.0 `-T fields` prints a field of
 * that Wireshark type and base, and the way to its occurrences in one frame.
 * The table is built once from the library's descriptors (dump_fields.c):
 * every header and MAD field where its format sits in the frame, named by
 * ibw_wire_tshark_name() / ibw_mad_tshark_name(), with tshark's deliberate
 * differences in one table there; beside them the entries computed from
 * more than one field or from no field at all (frame, CRCs, payload,
 * ibwire's verdicts; dump_fields_mad.c's MAD items).
 */
#ifndef IBWIRE_DUMP_H
#define IBWIRE_DUMP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "capture.h"
#include "ibwire/packet.h"

/* How a value prints (tshark's rendering of the Wireshark field type). */
enum dump_type {
    DT_DEC,     /* FT_UINTn BASE_DEC / BASE_DEC_HEX: decimal */
    DT_HEX8,    /* FT_UINT8 BASE_HEX: 0x%02x */
    DT_HEX16,   /* FT_UINT16 BASE_HEX: 0x%04x */
    DT_HEX24,   /* FT_UINT24 BASE_HEX: 0x%06x */
    DT_HEX32,   /* FT_UINT32 BASE_HEX: 0x%08x */
    DT_HEX64,   /* FT_UINT64 BASE_HEX: 0x%016x */
    DT_BOOL,    /* FT_BOOLEAN: 1 or 0 */
    DT_BYTES,   /* FT_BYTES: lower-case hex, no separators */
    DT_ETHER,   /* FT_ETHER: aa:bb:cc:dd:ee:ff */
    DT_IPV4,    /* FT_IPv4: dotted quad */
    DT_IPV6,    /* FT_IPv6: RFC 5952 text (inet_ntop) */
    DT_STRING,  /* FT_STRING */
    DT_TIME     /* FT_ABSOLUTE/RELATIVE_TIME as seconds: %lld.%09u */
};

/* One occurrence of a field: `u` for numbers (and seconds of DT_TIME, with
 * nanoseconds in `len`), `p`/`len` for bytes and addresses, `s` for
 * strings. */
struct dump_val {
    uint64_t u;
    const uint8_t *p;
    uint32_t len;
    const char *s;
};

/* The most occurrences a field has in one frame. */
#define DUMP_MAX_OCC 4

/* What the getters see of one frame. */
struct dump_frame {
    const struct cap_frame *cap;
    const struct ibw_pkt *pkt; /* NULL when the frame is not IBA-framed */
    uint64_t ts_sec;           /* as tshark shows it (ERF: the ERF time) */
    uint32_t ts_nsec;
    uint32_t cap_len;          /* tshark's frame.cap_len */
    uint32_t rep_len;          /* bytes from cap->iba on that the frame had
                                  by its record (tshark's reported length;
                                  more than iba_len when the capture cut it
                                  short) */
    char err[160];             /* "" or "hdr.field: what is wrong" */
};

/* Fills v[0..n) and returns n (0 when the field is absent). */
typedef unsigned (*dump_get_fn)(const struct dump_frame *fr,
                                struct dump_val *v);

struct dump_layer;

/* A table entry computed by getter g. */
#define DUMP_COMPUTED(n, t, g, d) {.name = (n), .type = (t), .get = (g), .desc = (d)}

/* A field is either computed by `get` (frame metadata, tshark's items that
 * span fields, ibwire's verdicts) or read through the library's descriptor
 * `fld` of a format that `layer` finds in the frame (every header and MAD
 * field: its position is the descriptor's, never the tool's). */
struct dump_field {
    const char *name;
    uint8_t type;         /* enum dump_type */
    dump_get_fn get;      /* NULL for a descriptor field */
    const char *desc;
    const struct dump_layer *layer;
    const struct ibw_field *fld;
    /* where tshark finds the same name in another format (the AtomicETH's
     * VA under reth.va, a directed-route SMP's M_Key under smplid.mkey):
     * read when `layer` is absent */
    const struct dump_layer *layer2;
    const struct ibw_field *fld2;
    uint16_t need;        /* bytes of the format tshark reads for it */
    uint8_t span;         /* one item over this many following fields */
    uint8_t twice;        /* tshark shows the value twice */
    uint8_t scale;        /* tshark shows the value times this (0: 1) */
};

/* Where a format sits in a frame, for a field that reads the format's
 * first `need` bytes: pointers to its first byte in at[] (one per
 * occurrence, up to DUMP_MAX_OCC), their count the result; 0 when the
 * frame does not carry it or tshark does not show it there. */
typedef unsigned (*dump_locate_fn)(const struct dump_frame *fr,
                                   const struct dump_layer *l, size_t need,
                                   const uint8_t **at);

struct dump_layer {
    const struct ibw_format *(*format)(void);
    dump_locate_fn locate;
    unsigned arg;   /* for the locator: a header index, an attribute ID */
    uint8_t naming; /* enum dump_naming */
    /* for a locator of one occurrence that needs no more than the frame */
    const uint8_t *(*find)(const struct dump_frame *fr);
};

/* How a family of formats is named and printed by default. */
enum dump_naming {
    DUMP_NAMES_WIRE, /* ibw_wire_tshark_name(); integers decimal, 1-bit
                        flags boolean, addresses by their size */
    DUMP_NAMES_MAD,  /* ibw_mad_tshark_name(); integers hex as wide as
                        the field, 16-byte fields as GIDs (IPv6) */
    DUMP_NAMES_OWN   /* ibwire.* beside the MAD name tshark does not
                        dissect; every field shown, hex, bytes */
};

/* Bits a descriptor field reads: from field f's first bit to the end of
 * the span'th field after it (dump_field.span). */
uint32_t dump_span_width(const struct ibw_field *f, unsigned span);

/* The occurrences of field f in frame fr, whichever way it is read. */
unsigned dump_field_get(const struct dump_field *f,
                        const struct dump_frame *fr, struct dump_val *v);

/* The MAD layers (dump_fields_mad.c), ended by an entry with format NULL,
 * and the places a MAD field shows only under a condition (the
 * differences table in dump_fields.c picks them). */
extern const struct dump_layer dump_mad_layers[];
enum dump_mad_variant {
    DUMP_MV_NEVER,            /* nowhere */
    DUMP_MV_RMPP_NONE,        /* SA MAD, RMPP type 0 */
    DUMP_MV_RMPP_DATA,        /* SA MAD, RMPP DATA */
    DUMP_MV_RMPP_ACK,         /* SA MAD, RMPP ACK */
    DUMP_MV_RMPP_DATA_OR_ACK,
    DUMP_MV_REQ_GID6,         /* REQ not over RoCEv2/IPv4 */
    DUMP_MV_REQ_GID4,         /* REQ over RoCEv2/IPv4 */
    DUMP_MV_REQ_NOT_IP,       /* REQ of no IP CM service ID */
    DUMP_MV_IPCM_V4,          /* IP CM header of IP version 4 */
    DUMP_MV_IPCM_NOT_V4,
    DUMP_MV_COUNT
};
extern const struct dump_layer dump_mad_variants[DUMP_MV_COUNT];

/* Getter building blocks: each fills the one occurrence v and returns 1,
 * the count a getter returns. */
static inline unsigned dump_put_u(struct dump_val *v, uint64_t u)
{
    v->u = u;
    return 1;
}

static inline unsigned dump_put_bytes(struct dump_val *v, const uint8_t *p,
                                      size_t n)
{
    v->p = p;
    v->len = (uint32_t)n;
    return 1;
}

static inline unsigned dump_put_str(struct dump_val *v, const char *s)
{
    v->s = s;
    return 1;
}

/* A getter `fn` for one integer: `expr` over the pointer `ptr`, which
 * `lookup` (an expression over fr, the frame) yields; absent (0) when that
 * pointer is NULL. */
#define DUMP_INT_GETTER(fn, ptr, lookup, expr)                                \
    static unsigned fn(const struct dump_frame *fr, struct dump_val *v)      \
    {                                                                         \
        const uint8_t *ptr = (lookup);                                        \
        return ptr ? dump_put_u(v, (uint64_t)(expr)) : 0;                     \
    }

/* A getter `fn` for `n` bytes at `at` (an expression over `ptr`), likewise. */
#define DUMP_BYTES_GETTER(fn, ptr, lookup, at, n)                             \
    static unsigned fn(const struct dump_frame *fr, struct dump_val *v)      \
    {                                                                         \
        const uint8_t *ptr = (lookup);                                        \
        return ptr ? dump_put_bytes(v, (at), (n)) : 0;                        \
    }

/* What tshark 4.0 shows after the headers of a packet it decodes (BTH in
 * the view, an opcode it knows): the payload it hands on (data.data unless
 * it is a MAD) and its ICRC/VCRC items, offsets into pkt->data.  For a cut
 * frame this follows tshark's arithmetic (dump_fields.c), not the view's. */
struct dump_tail {
    int payload, data, icrc, vcrc;
    size_t payload_off, payload_len; /* pad included */
    size_t icrc_off, vcrc_off;
};

/* Fills *fr for capture frame cf: tshark's times and lengths, and when cf
 * has IBA bytes their parse into *pkt (fr->pkt) and, when it fails for
 * another reason than the capture's cut, the error in fr->err. */
enum dump_frame_status {
    DUMP_FRAME_OK,             /* valid IBA, not IBA, or cut as recorded */
    DUMP_FRAME_CUT_UNRECORDED, /* cut short though the file says whole */
    DUMP_FRAME_ERROR           /* fr->err says what is wrong */
};
enum dump_frame_status dump_frame_read(struct dump_frame *fr,
                                       const struct cap_frame *cf,
                                       struct ibw_pkt *pkt);

/* Fills *t; 0 (nothing shown after the headers) when tshark does not get
 * there: no BTH, an opcode it does not know, a header cut short. */
int dump_tshark_tail(const struct dump_frame *fr, struct dump_tail *t);

/* tshark's own placement of an SA attribute (dump_fields.c), offsets from
 * the SA data: the record item at record_skip, record_len bytes (0: none),
 * and the smpdata item at smp_skip (-1: none; else it overrides the IBA's
 * record ID, ibw_sa_record_rid_size()). */
struct dump_tshark_sa_place {
    uint16_t attr;
    uint8_t record_skip;
    uint8_t record_len;
    int8_t smp_skip;
};

/* The entry for attribute `attr`, or NULL when tshark follows the IBA. */
const struct dump_tshark_sa_place *dump_tshark_sa_place(uint16_t attr);

/* The MAD entries no descriptor field gives (dump_fields_mad.c), ended by
 * an entry with name NULL. */
extern const struct dump_field dump_fields_mad[];

/* The field called `name`, or NULL (a binary search). */
const struct dump_field *dump_field_find(const char *name);

/* The table by number: fields 0 .. dump_field_count()-1 in the order
 * --list-fields prints them, fixed for the life of the process; the
 * number of the field called `name`, or -1.  The table is built once,
 * by whichever thread asks first. */
size_t dump_field_count(void);
const struct dump_field *dump_field_at(size_t i);
int dump_field_id(const char *name);

/* "good", "bad", "unchecked" or "absent" for an enum ibw_crc_status. */
const char *dump_crc_status_name(uint8_t status);

/* "ib-local", "ib-global", "ib-raw", "rocev1", "rocev2-ipv4", "rocev2-ipv6"
 * or "none" for an enum ibw_transport_kind. */
const char *dump_transport_name(uint8_t transport_kind);

/* Call fn for every field of every family (for --list-fields). */
void dump_field_each(void (*fn)(const struct dump_field *, void *),
                     void *arg);

/* ------------------------------------------------------------------------ */
/* Output                                                                   */
/* ------------------------------------------------------------------------ */

/* A large write buffer in front of a FILE, so that a million lines cost a
 * few hundred write calls and no per-line stdio locking. */
struct dump_out {
    FILE *f;
    size_t n;
    int failed;
    char buf[1 << 16];
};

void dump_out_flush(struct dump_out *o);
void dump_out_mem(struct dump_out *o, const void *p, size_t n);
void dump_out_str(struct dump_out *o, const char *s);
void dump_out_char(struct dump_out *o, char c);
void dump_out_dec(struct dump_out *o, uint64_t v);
void dump_out_hex(struct dump_out *o, uint64_t v, unsigned digits);
void dump_out_bytes_hex(struct dump_out *o, const uint8_t *p, size_t n,
                        char sep);
/* A string as a JSON string literal, quotes included. */
void dump_out_json_str(struct dump_out *o, const char *s);
/* printf-style, for the slow paths (text view, messages). */
void dump_out_printf(struct dump_out *o, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* One occurrence, as tshark -T fields prints it. */
void dump_out_value(struct dump_out *o, enum dump_type t,
                    const struct dump_val *v);

/* Characters n bytes take as hex, with a separator between bytes or none
 * (sep 0), and the rendering itself at dst (no NUL); the end returned. */
size_t dump_hex_len(size_t n, char sep);
char *dump_hex_chars(char *dst, const uint8_t *p, size_t n, char sep);

/* One occurrence as dump_out_value() prints it, NUL-terminated in buf:
 * 0, or -1 when cap cannot hold it; *len its length either way.  `scratch`
 * is a buffer of the caller's (its stream is not used). */
int dump_value_text(struct dump_out *scratch, enum dump_type t,
                    const struct dump_val *v, char *buf, size_t cap,
                    size_t *len);

#endif
