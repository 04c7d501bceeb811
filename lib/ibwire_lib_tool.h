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
#include <stdio.h>

#include "check.h"
#include "ibwire_lib.h"

/* Options of the underlying checker the tool may change before the first
 * frame, for what installs itself there (replay_new()'s RC hook).  The
 * checker's own report, user, flow_end and event members are the
 * library's: set the hooks below instead.  NULL once it started. */
struct chk_opts *ibwire_tool_checker_opts(ibwire_checker *c);

/* Hooks of the tool's, before the first frame (IBWIRE_E_STATE after):
 *   - every finding as the checker reports it (rule number, flow summary),
 *     before the ABI's finding callback;
 *   - every event (--report);
 *   - after the checker settled at ibwire_checker_finish() and before the
 *     live flows are summarized: what reports through the checker at the
 *     end (replay_finish()), so the summaries count it. */
int ibwire_tool_checker_on_chk_finding(ibwire_checker *c, chk_report_fn fn,
                                       void *user);
int ibwire_tool_checker_on_event(ibwire_checker *c,
                                 void (*fn)(void *user,
                                            const struct chk_event *e),
                                 void *user);
int ibwire_tool_checker_on_settled(ibwire_checker *c, void (*fn)(void *user),
                                   void *user);

/* Start the checker now (creating the underlying struct chk) and return
 * it, for chk_feed() and chk_frame() of the tool's own readers and for
 * replay_bind(); NULL without memory.  Frames the tool gives it this way
 * are numbered by the tool's reader. */
struct chk *ibwire_tool_checker_chk(ibwire_checker *c);

/* The JSON object of one summary (what ibwire_flow_json() prints), into
 * buf: its length, or IBWIRE_E_NOSPACE. */
int ibwire_tool_summary_json(const struct chk_flow_summary *s, char *buf,
                             size_t cap);

/* s as a JSON string (quotes included) on o, escaped as the flow objects
 * escape theirs. */
void ibwire_tool_json_str(FILE *o, const char *s);

/* The summary behind a flow handle. */
const struct chk_flow_summary *ibwire_tool_flow_summary(const ibwire_flow *f);

#endif
