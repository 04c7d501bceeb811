/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ibwire sim --cm: connect QP pairs of two reference engines through CM
 * MADs over QP1, carry verified traffic over them, disconnect,
 * and print one JSON object of counters.  Exit 0 when every invariant held,
 * 1 otherwise, 2 on bad arguments.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cm_sim.h"
#include "faults.h"
#include "sim_opts.h"
#include "tool.h"
#include "tool_doc.h"

static void usage_cm(FILE *f)
{
    tool_doc_help(&doc_sim, f);
}

/* The options only `ibwire sim --cm` has; see struct sim_cli. */
static int cm_own_opt(void *ctx, const char *a, const char *v, int *bad)
{
    struct cmx_sim_opts *o = ctx;
    uint64_t u = 0;
    if (!strcmp(a, "--conns")) {
        *bad = sim_parse_num(v, 100000, &u) || !u;
        o->conns = (uint32_t)u;
    } else if (!strcmp(a, "--size")) {
        *bad = sim_parse_num(v, 1u << 20, &u) || !u;
        o->msg_size = (uint32_t)u;
    } else if (!strcmp(a, "--cm-retries")) {
        *bad = sim_parse_num(v, 15, &u);
        o->max_cm_retries = (uint8_t)u;
    } else if (!strcmp(a, "--fault")) {
        /* faults.h: each on the side it names (client: requester side) */
        uint64_t m = 0;
        const char *at = v;
        *bad = ibe_fault_parse(v, &m, &at) != 0;
        if (*bad)
            fprintf(stderr, "ibwire sim --cm: --fault: unknown fault at '%s' "
                            "(see ibwire sim --list-faults)\n", at);
        o->faults[0] |= ibe_fault_side_mask(m, IBE_FS_REQ);
        o->faults[1] |= ibe_fault_side_mask(m, IBE_FS_RESP);
        if (ibe_fault_traffic(m) & IBE_FT_RNR)
            o->server_recv_delay_ns = 1000000;
    } else if (!strcmp(a, "--traffic-of")) {
        uint64_t m = 0;
        const char *at = v;
        *bad = ibe_fault_parse(v, &m, &at) != 0;
        if (*bad)
            fprintf(stderr, "ibwire sim --cm: --traffic-of: unknown fault at "
                            "'%s' (see ibwire sim --list-faults)\n", at);
        if (ibe_fault_traffic(m) & IBE_FT_RNR)
            o->server_recv_delay_ns = 1000000;
    } else if (!strcmp(a, "--cm-timeout")) {
        *bad = sim_parse_num(v, 31, &u);
        o->resp_timeout = (uint8_t)u;
    } else {
        return 0;
    }
    return 1;
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
    const struct sim_cli cli = {
        "ibwire sim --cm", usage_cm, "--cm",
        {&o.seed, &o.drop, &o.dup, &o.reorder, &o.corrupt, &o.framing, &wpath},
        cm_own_opt, &o, sim_cm_opts, sim_opts};
    int done = sim_cli_parse(&cli, argc, argv);
    if (done >= 0)
        return done;
    struct sim_tap tp = {NULL, 0};
    if (wpath) {
        if (sim_tap_open(&tp, wpath, o.framing, "ibwire sim --cm"))
            return TOOL_EXIT_USAGE;
        o.tap = sim_tap_frame;
        o.tap_ctx = &tp;
    }
    struct cmx_sim_result r;
    int rc = cmx_sim_run(&o, &r);
    if (sim_tap_close(&tp, wpath, "ibwire sim --cm"))
        rc = 1;
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
           ", \"connections_clean\": %" PRIu64
           ", \"connections_broken\": %" PRIu64
           ", \"connections_disagree\": %" PRIu64
           ", \"completed_flushed\": %" PRIu64
           ", \"wrs_unfinished\": %" PRIu64 ", \"invariants_ok\": %s",
           r.connections_established, r.connections_failed, r.cm_retries,
           r.mra_sent, r.rej_sent, r.disconnects, r.messages_posted,
           r.completed_ok, r.completed_error, r.bytes_verified,
           r.data_mismatches, r.retransmissions, r.timeouts, r.packets_on_wire,
           r.gmp_frames, r.qps_wrong_state, r.sim_time_ns, r.connections_clean,
           r.connections_broken, r.connections_disagree, r.completed_flushed,
           r.wrs_unfinished, r.invariants_ok ? "true" : "false");
    if (r.failure[0])
        printf(", \"failure\": \"%s\"", r.failure);
    if (o.faults[0] | o.faults[1]) {
        printf(", \"faults\": \"");
        for (unsigned k = 0, n = 0; k < IBE_FAULT_COUNT; k++)
            if ((o.faults[0] | o.faults[1]) >> k & 1)
                printf("%s%s", n++ ? "," : "", ibe_fault_table[k].name);
        printf("\"");
    }
    printf("}\n");
    /* a fault breaks invariants by design: reported above, not a failure */
    if ((o.faults[0] | o.faults[1]) && rc == 1)
        rc = 0;
    return rc ? TOOL_EXIT_FINDINGS : TOOL_EXIT_OK;
}
