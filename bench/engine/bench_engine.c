/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Engine benchmark: simulated messages and wire packets per second of wall
 * time for the first scenario, against the same mix over a perfect
 * link measured in the same run (the ratio says what the loss recovery
 * costs).  Fails if an invariant breaks.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "sim.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int run(const char *name, double drop, double dup, double reorder,
               double corrupt, double *msgs_s)
{
    struct ibe_sim_opts o;
    memset(&o, 0, sizeof o);
    o.seed = 1;
    o.messages = 10000;
    o.max_size = 65536;
    o.transport = IBE_RC;
    o.pmtu = 1024;
    o.drop = drop;
    o.dup = dup;
    o.reorder = reorder;
    o.corrupt = corrupt;
    struct ibe_sim_result r;
    double t0 = now_s();
    int rc = ibe_sim_run(&o, &r);
    double dt = now_s() - t0;
    *msgs_s = (double)r.messages_posted / dt;
    printf("%-10s %6.2f s  %9.0f msgs/s  %10.0f wire pkts/s  (%llu pkts, %llu retx, "
           "%llu timeouts, %.3f s simulated)  %s\n",
           name, dt, *msgs_s, (double)r.packets_on_wire / dt,
           (unsigned long long)r.packets_on_wire, (unsigned long long)r.retransmissions,
           (unsigned long long)r.timeouts, (double)r.sim_time_ns * 1e-9,
           rc == 0 && r.completed_ok == 10000 ? "invariants ok" : "INVARIANT FAILED");
    return rc == 0 && r.completed_ok == 10000 ? 0 : 1;
}

int main(void)
{
    double base, lossy;
    int bad = run("perfect", 0, 0, 0, 0, &base);
    bad |= run("lossy", 0.10, 0.05, 0.05, 0.01, &lossy);
    printf("lossy / perfect message rate: %.2f\n", lossy / base);
    return bad;
}
