/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Scenario tests: the engine scenarios at test-suite size.  The full
 * 10,000-message RC scenario is the benchmark (bench/engine); here the
 * same shape (0-64 KB mixed messages, drop 10 %, duplicate 5 %, reorder
 * 5 %, corrupt 1 %) runs with fewer messages so the sanitizer build stays
 * quick.  Invariants are the simulator's own byte-by-byte checks; the
 * expectations below are the issue's: everything completes once, in
 * order, verified, nothing delivered twice; 100 % drop ends in Retry
 * Exceeded + Flush with the QP in Error; UC/UD lose whole messages only.
 */
#include <stdio.h>
#include <string.h>

#include "sim.h"
#include "testutil.h"

static struct ibe_sim_opts base(uint8_t transport, uint32_t n, uint32_t max)
{
    struct ibe_sim_opts o;
    memset(&o, 0, sizeof o);
    o.seed = 42;
    o.messages = n;
    o.max_size = max;
    o.transport = transport;
    o.pmtu = 1024;
    return o;
}

static void show(const char *name, const struct ibe_sim_result *r)
{
    printf("%s: posted %llu ok %llu err %llu verified %llu B retx %llu timeouts %llu "
           "seq_naks %llu lost %llu icrc_drops %llu%s%s\n",
           name, (unsigned long long)r->messages_posted,
           (unsigned long long)r->completed_ok, (unsigned long long)r->completed_error,
           (unsigned long long)r->bytes_verified, (unsigned long long)r->retransmissions,
           (unsigned long long)r->timeouts, (unsigned long long)r->seq_naks,
           (unsigned long long)r->lost_messages, (unsigned long long)r->icrc_drops,
           r->failure[0] ? " FAILURE: " : "", r->failure);
}

static void rc_lossy(uint8_t framing, uint32_t pmtu, uint64_t seed, uint32_t n)
{
    struct ibe_sim_opts o = base(IBE_RC, n, 65536);
    o.framing = framing;
    o.pmtu = pmtu;
    o.seed = seed;
    o.drop = 0.10;
    o.dup = 0.05;
    o.reorder = 0.05;
    o.corrupt = 0.01;
    struct ibe_sim_result r;
    TU_EQ(ibe_sim_run(&o, &r), 0);
    show("rc lossy", &r);
    TU_EQ(r.completed_ok, n);
    TU_EQ(r.completed_error, 0);
    TU_EQ(r.bytes_verified, r.bytes_posted);
    TU_EQ(r.data_mismatches, 0);
    TU_EQ(r.duplicates_delivered, 0);
    TU_EQ(r.order_violations, 0);
    TU_EQ(r.qp_state, IBE_QPS_RTS);
    TU_CHECK(r.retransmissions > 0);
    TU_CHECK(r.seq_naks > 0);
    TU_CHECK(r.icrc_drops > 0); /* corrupted packets were caught */
}

int main(void)
{
    rc_lossy(IBE_FRAME_ROCEV2, 1024, 42, 600);
    rc_lossy(IBE_FRAME_IB, 4096, 7, 300);
    rc_lossy(IBE_FRAME_ROCEV2, 256, 9, 150);

    struct ibe_sim_opts o = base(IBE_RC, 200, 65536);
    o.drop = 1.0;
    o.retry_cnt = 3;
    struct ibe_sim_result r;
    TU_EQ(ibe_sim_run(&o, &r), 0);
    show("rc drop 100%", &r);
    TU_EQ(r.completed_ok, 0);
    TU_EQ(r.completed_error, 200);
    TU_EQ(r.retry_exceeded, 1);
    TU_EQ(r.flushed, 199);
    TU_EQ(r.qp_state, IBE_QPS_ERR);
    TU_EQ(r.timeouts, 4); /* retry_cnt 3: the 4th expiry ends it */

    o = base(IBE_UC, 1000, 8192);
    o.drop = 0.1;
    o.reorder = 0.05;
    o.dup = 0.05;
    TU_EQ(ibe_sim_run(&o, &r), 0);
    show("uc lossy", &r);
    TU_EQ(r.completed_ok, 1000);
    TU_CHECK(r.lost_messages > 0);
    TU_EQ(r.duplicates_delivered, 0);
    TU_EQ(r.data_mismatches, 0);

    o = base(IBE_UD, 1000, 1024);
    o.drop = 0.1;
    o.reorder = 0.05;
    TU_EQ(ibe_sim_run(&o, &r), 0);
    show("ud lossy", &r);
    TU_CHECK(r.lost_messages > 50 && r.lost_messages < 200);
    TU_EQ(r.duplicates_delivered, 0);
    TU_EQ(r.data_mismatches, 0);

    /* deterministic: the same seed gives the same run */
    struct ibe_sim_result r2;
    TU_EQ(ibe_sim_run(&o, &r2), 0);
    TU_EQ(r2.packets_on_wire, r.packets_on_wire);
    TU_EQ(r2.lost_messages, r.lost_messages);
    return tu_done("engine_sim");
}
