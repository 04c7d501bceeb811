/* SPDX-License-Identifier: Apache-2.0 */
/* The argument loop and capture tap shared by `ibwire sim` and `ibwire sim --cm`. */
#include "sim_opts.h"

#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "tool.h"

int sim_parse_num(const char *s, uint64_t max, uint64_t *v)
{
    char *end;
    if (!s || !*s)
        return -1;
    *v = strtoull(s, &end, 0);
    return *end || *v > max ? -1 : 0;
}

int sim_parse_prob(const char *s, double *v)
{
    char *end;
    if (!s || !*s)
        return -1;
    *v = strtod(s, &end);
    return (*end || *v < 0 || *v > 1) ? -1 : 0;
}

/* The shared options that take a value: 1 (with *bad set) when a is one. */
static int link_opt(const struct sim_link_opts *l, const char *a, const char *v,
                    int *bad)
{
    if (!strcmp(a, "--seed"))
        *bad = sim_parse_num(v, UINT64_MAX, l->seed);
    else if (!strcmp(a, "--drop"))
        *bad = sim_parse_prob(v, l->drop);
    else if (!strcmp(a, "--dup"))
        *bad = sim_parse_prob(v, l->dup);
    else if (!strcmp(a, "--reorder"))
        *bad = sim_parse_prob(v, l->reorder);
    else if (!strcmp(a, "--corrupt"))
        *bad = sim_parse_prob(v, l->corrupt);
    else if (!strcmp(a, "-w"))
        *l->wpath = v;
    else
        return 0;
    return 1;
}

int sim_cli_parse(const struct sim_cli *c, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int bad = 0;
        int known = tool_opt_find(c->opts, a) || tool_opt_find(c->opts2, a);
        if (c->skip && !strcmp(a, c->skip)) {
            continue;
        } else if (!known) {
            fprintf(stderr, "%s: unknown option '%s'\n", c->prog, a);
            c->usage(stderr);
            return TOOL_EXIT_USAGE;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            c->usage(stdout);
            return TOOL_EXIT_OK;
        } else if (!strcmp(a, "--ib")) {
            *c->link.framing = IBE_FRAME_IB;
            continue;
        } else if (!v) {
            bad = 1;
        } else if (!link_opt(&c->link, a, v, &bad) && !c->own(c->ctx, a, v, &bad)) {
            fprintf(stderr, "%s: unknown option '%s'\n", c->prog, a);
            c->usage(stderr);
            return TOOL_EXIT_USAGE;
        }
        if (bad) {
            fprintf(stderr, "%s: bad value for %s\n", c->prog, a);
            c->usage(stderr);
            return TOOL_EXIT_USAGE;
        }
        i++;
    }
    return -1;
}

void sim_tap_frame(void *ctx, uint64_t t, const uint8_t *pkt, size_t len)
{
    struct sim_tap *tp = ctx;
    if (cap_write(tp->w, t, pkt, len, NULL))
        tp->err = 1;
}

int sim_tap_open(struct sim_tap *tp, const char *path, uint8_t framing,
                 const char *prog)
{
    char err[256];
    tp->err = 0;
    tp->w = cap_writer_open(path, CAP_FORMAT_PCAP, framing == IBE_FRAME_IB ? 252 : 1,
                            err, sizeof err);
    if (!tp->w) {
        fprintf(stderr, "%s: %s\n", prog, err);
        return -1;
    }
    return 0;
}

int sim_tap_close(struct sim_tap *tp, const char *path, const char *prog)
{
    if (tp->w && (cap_writer_close(tp->w) || tp->err)) {
        fprintf(stderr, "%s: error writing %s\n", prog, path);
        return -1;
    }
    return 0;
}
