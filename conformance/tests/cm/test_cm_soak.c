/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_cm_soak.c - `ibwire sim --cm` under heavy loss.
 *
 * First the issue's own case: a run (50 connections, 20 % loss, the tool's
 * defaults) where one SEND runs out of transport retries, its ACKs lost, so
 * exactly one WR completes in error, the client still received and
 * verified that message, and the connection must be released on both
 * sides instead of staying established.  The issue's seed was 20108 (the
 * server's SEND of connection 43, nine sends of its LAST, PSN 16755745,
 * the client's three ACKs lost) while the sim's QPs ran local ACK timeout
 * 10 against the 14 their REQs state; with the QPs on the REQ's value
 * (cm_sim.c) that run no longer breaks, and seed 20104 is such a run.
 *
 * Then 300 seeds at 20 % loss with duplication and reordering and the
 * default CM retries, held to the invariants IBA gives: every connection
 * ends on both sides, every posted WR completes once, both sides agree on
 * how (clean, broken by a transport error, or failed), no QP left outside
 * RESET.  Broken connections must occur among them, or the transport-error
 * path would go untested.
 */
#include "cm_sim.h"
#include "testutil.h"

static void defaults(struct cmx_sim_opts *o, uint64_t seed)
{
    memset(o, 0, sizeof *o);
    o->seed = seed;
    o->conns = 50;
    o->msg_size = 4096;    /* ibwire sim --cm defaults */
    o->max_cm_retries = 15;
    o->resp_timeout = 8;
    o->drop = 0.2;
}

static void issue_seed(void)
{
    struct cmx_sim_opts o;
    struct cmx_sim_result r;
    defaults(&o, 20104);
    int rc = cmx_sim_run(&o, &r);
    if (rc)
        fprintf(stderr, "seed 20104: %s\n", r.failure);
    TU_EQ(rc, 0);
    TU_EQ(r.connections_established, 50);
    TU_EQ(r.connections_failed, 0);
    TU_EQ(r.connections_broken, 1);
    TU_EQ(r.connections_clean, 49);
    TU_EQ(r.disconnects, 50);
    TU_EQ(r.completed_error, 1);
    TU_EQ(r.completed_ok, 199);
    TU_EQ(r.bytes_verified, 2ull * 4096 * 50);
    TU_EQ(r.qps_wrong_state, 0);
    TU_EQ(r.live_connections, 0);
    TU_EQ(r.wrs_unfinished, 0);
}

static void soak(void)
{
    uint64_t broken = 0, failed_runs = 0;
    for (uint64_t seed = 20000; seed < 20300; seed++) {
        struct cmx_sim_opts o;
        struct cmx_sim_result r;
        defaults(&o, seed);
        o.dup = 0.05;
        o.reorder = 0.05;
        int rc = cmx_sim_run(&o, &r);
        if (rc) {
            fprintf(stderr, "seed %llu: %s\n", (unsigned long long)seed,
                    r.failure);
            failed_runs++;
        }
        TU_EQ(r.live_connections, 0);
        TU_EQ(r.qps_wrong_state, 0);
        TU_EQ(r.wrs_unfinished, 0);
        TU_EQ(r.connections_disagree, 0);
        TU_EQ(r.data_mismatches, 0);
        broken += r.connections_broken;
    }
    TU_EQ(failed_runs, 0);
    TU_CHECK(broken > 0);
}

int main(void)
{
    issue_seed();
    soak();
    return tu_done("cm_soak");
}
