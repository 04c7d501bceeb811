/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_cm_sim.c - the CM proofs on the reference engine: RC QP
 * pairs connected through CM MADs over QP1, verified traffic each way, then
 * torn down, with no QP left outside RESET.  The 20 % loss case is the
 * issue's proof (100 connections).
 */
#include "cm_sim.h"
#include "testutil.h"

static void run(uint32_t conns, double drop, uint8_t retries, uint64_t seed)
{
    struct cmx_sim_opts o;
    memset(&o, 0, sizeof o);
    o.seed = seed;
    o.conns = conns;
    o.msg_size = 3000;
    o.drop = drop;
    o.max_cm_retries = retries;
    o.resp_timeout = 8;
    struct cmx_sim_result r;
    int rc = cmx_sim_run(&o, &r);
    if (rc)
        fprintf(stderr, "conns %u drop %.2f: %s\n", conns, drop, r.failure);
    TU_EQ(rc, 0);
    TU_EQ(r.connections_established, conns);
    TU_EQ(r.connections_failed, 0);
    TU_EQ(r.disconnects, conns);
    TU_EQ(r.bytes_verified, 2ull * 3000 * conns);
    TU_EQ(r.data_mismatches, 0);
    TU_EQ(r.qps_wrong_state, 0);
    TU_EQ(r.live_connections, 0);
    TU_EQ(r.completed_error, 0);
    if (drop == 0.0) {
        TU_EQ(r.cm_retries, 0);
        TU_EQ(r.rej_sent, 0);
        /* No loss: REQ, REP, RTU, DREQ, DREP per connection exactly. */
        TU_EQ(r.gmp_frames, 5ull * conns);
    } else {
        TU_CHECK(r.cm_retries > 0);
        TU_CHECK(r.retransmissions > 0);
    }
}

int main(void)
{
    run(10, 0.0, 2, 1);
    run(100, 0.0, 2, 2);
    run(100, 0.20, 15, 3);
    return tu_done("cm_sim");
}
