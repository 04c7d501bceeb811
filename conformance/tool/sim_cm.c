/*
 * ibwire sim --cm: connect QP pairs of two reference engines through CM
 * MADs over QP1 (issue 6), carry verified traffic over them, disconnect,
 * and print one JSON object of counters.  Exit 0 when every invariant held,
 * 1 otherwise, 2 on bad arguments.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "cm_sim.h"
#include "tool.h"

static void usage_cm(FILE *f)
{
    fprintf(f,
            "usage: ibwire sim --cm [--seed N] [--conns N] [--size B]\n"
            "                  [--cm-retries 0..15] [--cm-timeout 0..31]\n"
            "                  [--drop P] [--dup P] [--reorder P] [--corrupt P]\n"
            "                  [--ib] [-w OUT.pcap]\n");
}

static int num(const char *s, uint64_t max, uint64_t *v)
{
    char *end;
    if (!s || !*s)
        return -1;
    *v = strtoull(s, &end, 0);
    return *end || *v > max ? -1 : 0;
}

static int prob(const char *s, double *v)
{
    char *end;
    if (!s || !*s)
        return -1;
    *v = strtod(s, &end);
    return (*end || *v < 0 || *v > 1) ? -1 : 0;
}

struct cm_tap { struct cap_writer *w; int err; };

static void cm_on_tap(void *ctx, uint64_t t, const uint8_t *pkt, size_t len)
{
    struct cm_tap *tp = ctx;
    if (cap_write(tp->w, t, pkt, len, NULL))
        tp->err = 1;
}

int cmd_sim_cm(int argc, char **argv)
{
    struct cmx_sim_opts o;
    memset(&o, 0, sizeof o);
    o.seed = 1;
    o.conns = 100;
    o.msg_size = 4096;
    o.max_cm_retries = 15;
    o.resp_timeout = 8;
    const char *wpath = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        uint64_t u = 0;
        int bad = 0;
        if (!strcmp(a, "--cm")) {
            continue;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage_cm(stdout);
            return TOOL_EXIT_OK;
        } else if (!strcmp(a, "--ib")) {
            o.framing = IBE_FRAME_IB;
            continue;
        } else if (!v) {
            bad = 1;
        } else if (!strcmp(a, "--seed")) {
            bad = num(v, UINT64_MAX, &o.seed);
        } else if (!strcmp(a, "--conns")) {
            bad = num(v, 100000, &u) || !u;
            o.conns = (uint32_t)u;
        } else if (!strcmp(a, "--size")) {
            bad = num(v, 1u << 20, &u) || !u;
            o.msg_size = (uint32_t)u;
        } else if (!strcmp(a, "--cm-retries")) {
            bad = num(v, 15, &u);
            o.max_cm_retries = (uint8_t)u;
        } else if (!strcmp(a, "--cm-timeout")) {
            bad = num(v, 31, &u);
            o.resp_timeout = (uint8_t)u;
        } else if (!strcmp(a, "--drop")) {
            bad = prob(v, &o.drop);
        } else if (!strcmp(a, "--dup")) {
            bad = prob(v, &o.dup);
        } else if (!strcmp(a, "--reorder")) {
            bad = prob(v, &o.reorder);
        } else if (!strcmp(a, "--corrupt")) {
            bad = prob(v, &o.corrupt);
        } else if (!strcmp(a, "-w")) {
            wpath = v;
        } else {
            fprintf(stderr, "ibwire sim --cm: unknown option '%s'\n", a);
            usage_cm(stderr);
            return TOOL_EXIT_USAGE;
        }
        if (bad) {
            fprintf(stderr, "ibwire sim --cm: bad value for %s\n", a);
            usage_cm(stderr);
            return TOOL_EXIT_USAGE;
        }
        i++;
    }
    struct cm_tap tp = {NULL, 0};
    if (wpath) {
        char err[256];
        tp.w = cap_writer_open(wpath, CAP_FORMAT_PCAP,
                               o.framing == IBE_FRAME_IB ? 252 : 1, err, sizeof err);
        if (!tp.w) {
            fprintf(stderr, "ibwire sim --cm: %s\n", err);
            return TOOL_EXIT_USAGE;
        }
        o.tap = cm_on_tap;
        o.tap_ctx = &tp;
    }
    struct cmx_sim_result r;
    int rc = cmx_sim_run(&o, &r);
    if (tp.w && (cap_writer_close(tp.w) || tp.err)) {
        fprintf(stderr, "ibwire sim --cm: error writing %s\n", wpath);
        rc = 1;
    }
    if (rc < 0) {
        fprintf(stderr, "ibwire sim --cm: unusable options\n");
        return TOOL_EXIT_USAGE;
    }
    printf("{\"connections_established\": %" PRIu64
           ", \"connections_failed\": %" PRIu64 ", \"cm_retries\": %" PRIu64
           ", \"mra_sent\": %" PRIu64 ", \"rej_sent\": %" PRIu64
           ", \"disconnects\": %" PRIu64 ", \"messages_posted\": %" PRIu64
           ", \"completed_ok\": %" PRIu64 ", \"completed_error\": %" PRIu64
           ", \"bytes_verified\": %" PRIu64 ", \"data_mismatches\": %" PRIu64
           ", \"retransmissions\": %" PRIu64 ", \"timeouts\": %" PRIu64
           ", \"packets_on_wire\": %" PRIu64 ", \"gmp_frames\": %" PRIu64
           ", \"qps_wrong_state\": %" PRIu64 ", \"sim_time_ns\": %" PRIu64
           ", \"invariants_ok\": %s",
           r.connections_established, r.connections_failed, r.cm_retries,
           r.mra_sent, r.rej_sent, r.disconnects, r.messages_posted,
           r.completed_ok, r.completed_error, r.bytes_verified,
           r.data_mismatches, r.retransmissions, r.timeouts, r.packets_on_wire,
           r.gmp_frames, r.qps_wrong_state, r.sim_time_ns,
           r.invariants_ok ? "true" : "false");
    if (r.failure[0])
        printf(", \"failure\": \"%s\"", r.failure);
    printf("}\n");
    return rc ? TOOL_EXIT_FINDINGS : TOOL_EXIT_OK;
}
