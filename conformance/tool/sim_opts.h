/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sim_opts.h - what `ibwire sim` and `ibwire sim --cm` share: the argument
 * loop with its link-loss, framing, seed and capture options, number and
 * probability parsing, the usage/error paths, and the pcap tap.
 */
#ifndef IBWIRE_TOOL_SIM_OPTS_H
#define IBWIRE_TOOL_SIM_OPTS_H

#include <stdint.h>
#include <stdio.h>

#include "capture.h"
#include "tool_doc.h"

/* Where the shared options land in the command's own option struct. */
struct sim_link_opts {
    uint64_t *seed;
    double *drop, *dup, *reorder, *corrupt;
    uint8_t *framing;      /* enum ibe_framing; --ib sets IBE_FRAME_IB */
    const char **wpath;    /* -w */
};

struct sim_cli {
    const char *prog;      /* prefix of every message, e.g. "ibwire sim" */
    void (*usage)(FILE *f);
    const char *skip;      /* a flag the caller has already acted on, or NULL */
    struct sim_link_opts link;
    /* The command's own options that take a value: returns 1 (with *bad
     * set) when a is one of them, 0 when a is unknown. */
    int (*own)(void *ctx, const char *a, const char *v, int *bad);
    void *ctx;
    /* The documented options (tool_doc.h): a name in neither table is
     * unknown, whatever the handlers above would do with it. */
    const struct tool_opt *opts, *opts2;
};

/* Parses argv[1..argc-1]: returns -1 when the command should run, else the
 * exit code to return (0 after --help, TOOL_EXIT_USAGE after a message on
 * stderr for an unknown option or a bad value). */
int sim_cli_parse(const struct sim_cli *c, int argc, char **argv);

/* Parses an unsigned number (any strtoull base) no greater than max: 0, or
 * -1 when s is missing, empty, has trailing text or exceeds max. */
int sim_parse_num(const char *s, uint64_t max, uint64_t *v);

/* Parses a probability 0..1: 0, or -1 when s is missing, empty, has trailing
 * text or lies outside 0..1. */
int sim_parse_prob(const char *s, double *v);

/* The capture the simulated link is tapped into. */
struct sim_tap { struct cap_writer *w; int err; };

/* An ibe_tap_fn: appends one frame to the sim_tap in ctx, noting failure. */
void sim_tap_frame(void *ctx, uint64_t t, const uint8_t *pkt, size_t len);

/* Opens path as a pcap whose link type suits framing (252 for native IB,
 * 1 for Ethernet): 0, or -1 after "<prog>: <reason>" on stderr. */
int sim_tap_open(struct sim_tap *tp, const char *path, uint8_t framing,
                 const char *prog);

/* Closes an open tap (nothing when none is open): 0, or -1 after
 * "<prog>: error writing <path>" on stderr when any frame or the close failed. */
int sim_tap_close(struct sim_tap *tp, const char *path, const char *prog);

#endif
