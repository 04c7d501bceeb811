/* SPDX-License-Identifier: Apache-2.0 */
/*
 * report.h - `ibwire check --report`: one self-contained HTML page (inline
 * SVG and CSS, no script) that draws what the checker saw.
 *
 * The caller hands the report what the checker tells it, file by file:
 * every frame's time (report_frame, before the checker sees the frame),
 * the checker's events (report_event as chk_opts.event), its findings, and
 * the final summary of every flow (ended ones and those chk_flows() lists).
 * The report keeps what it draws in memory bounded by the flows: a plain
 * packet series is thinned as it grows, markers are all kept.
 */
#ifndef IBWIRE_REPORT_H
#define IBWIRE_REPORT_H

#include <stdint.h>

#include "check.h"

struct report;

/* NULL when out of memory. */
struct report *report_new(void);

/* A new capture file (or live interface) starts. */
int report_file_begin(struct report *r, const char *path);

/* Frame `frame` of the current file was recorded at ts_ns. */
void report_frame(struct report *r, uint64_t frame, uint64_t ts_ns);

/* An event of the current file's checker (chk_opts.event). */
void report_event(struct report *r, const struct chk_event *e);

/* A finding of the current file. */
void report_finding(struct report *r, const struct chk_finding *f);

/* The final summary of a flow of the current file. */
void report_flow(struct report *r, const struct chk_flow_summary *s);

/* The current file ends with these counters; `failed` when it could not
 * be read to its end. */
void report_file_end(struct report *r, const struct chk_stats *st,
                     int failed);

/* Write the page; 0 when written. */
int report_write(struct report *r, const char *path);

void report_free(struct report *r);

#endif
