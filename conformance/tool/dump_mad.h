/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dump_mad.h - the management datagrams in `ibwire dump`'s whole-frame
 * views (the -T fields names live in dump_fields_mad.c's table).
 */
#ifndef IBWIRE_DUMP_MAD_H
#define IBWIRE_DUMP_MAD_H

#include "dump.h"

/* For a frame that carries a MAD: one line per MAD layer (the GMP, the
 * class headers, the attribute, a REQ's IP CM header) with every field as
 * name=value, then the class/method/attribute names or the decode error.
 * Nothing for other frames. */
void dump_mad_text(struct dump_out *o, const struct dump_frame *fr);

/* For a frame that carries a MAD: `,"mad":{...}` (class, method and
 * attribute names, layers with offsets and fields, error), to follow
 * another key of the frame's JSON object.  Nothing for other frames. */
void dump_mad_json(struct dump_out *o, const struct dump_frame *fr);

#endif
