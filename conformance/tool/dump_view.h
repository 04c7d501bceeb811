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

#endif
