/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ibwire_lib_tool.h - what the `ibwire` tool needs of libibwire's checker
 * beyond the ABI: the checker it wraps, for the hooks the ABI does not
 * carry (--report's events, --replay's RC hook, -j parallel reading, live
 * capture, pcapng interface names), and a flow summary's JSON object for a
 * summary the tool holds itself.
 *
 * NOT part of the ABI: not installed, not exported from libibwire.so (its
 * symbols are hidden); only code linking the static library uses it.
 */
#ifndef IBWIRE_LIB_TOOL_H
#define IBWIRE_LIB_TOOL_H

#include <stddef.h>

#include "check.h"
#include "ibwire_lib.h"

/* Options of the underlying checker the tool may change before the first
 * frame (the ABI's own setters and callbacks are applied over them when
 * the checker starts): the event and RC hooks.  NULL once it started. */
struct chk_opts *ibwire_tool_checker_opts(ibwire_checker *c);

/* Start the checker now (creating the underlying struct chk) and return
 * it, for chk_feed() and chk_frame() of the tool's own readers and for
 * replay_bind(); NULL without memory.  Frames the tool gives it this way
 * are numbered by the tool's reader. */
struct chk *ibwire_tool_checker_chk(ibwire_checker *c);

/* The JSON object of one summary (what ibwire_flow_json() prints), into
 * buf: its length, or IBWIRE_E_NOSPACE. */
int ibwire_tool_summary_json(const struct chk_flow_summary *s, char *buf,
                             size_t cap);

/* The summary behind a flow handle. */
const struct chk_flow_summary *ibwire_tool_flow_summary(const ibwire_flow *f);

#endif
