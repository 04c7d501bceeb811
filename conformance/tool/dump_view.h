/* SPDX-License-Identifier: Apache-2.0 */
/* dump_view.h - the whole-frame views of `ibwire dump` (-T text, -T json). */
#ifndef IBWIRE_DUMP_VIEW_H
#define IBWIRE_DUMP_VIEW_H

#include "dump.h"

/* One block of text for the frame: its lengths and time, then one line per
 * header with every field as name=value, the payload, the ICRC/VCRC
 * verdicts and the error if any; a blank line after. */
void dump_view_text(struct dump_out *o, const struct dump_frame *fr);

/* One JSON object for the frame on one line: frame number, time, lengths,
 * link type, headers (name, offset, fields), transport, opcode name,
 * payload, icrc, vcrc, error. */
void dump_view_json(struct dump_out *o, const struct dump_frame *fr);

/* Writes a field's value as a JSON string (quotes included). */
typedef void (*dump_json_str_fn)(struct dump_out *o,
                                 const struct ibw_format *fmt,
                                 const struct ibw_field *f,
                                 const uint8_t *base, size_t avail);

/* One header or MAD layer as {"name":..,"offset":..,"fields":{..}}, the
 * shape both JSON views share: fields of up to 32 bits as numbers, every
 * other field (and one cut short) through str.  fmt's fields are read from
 * base, with avail bytes there. */
void dump_json_layer(struct dump_out *o, const char *name, unsigned off,
                     const struct ibw_format *fmt, const uint8_t *base,
                     size_t avail, dump_json_str_fn str);

#endif
