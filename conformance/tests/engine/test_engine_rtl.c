/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Verilated bit-width converters (conformance/engine/rtl) in place of
 * the C ones: the bundled ibwire sim scenarios must give the same record
 * trace, wire packets, completions and counters.  The reference is the
 * run with the C converters; the RTL's clock counter shows that the
 * second run went through the Verilated model.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rtl/bitwidth_rtl.h"
#include "run_digest.h"
#include "sim.h"
#include "testutil.h"

static void on_trace(void *ctx, struct ibe_engine *e, const struct ibe_trace_rec *r)
{
    (void)e;
    digest_record(ctx, r);
}

static void on_tap(void *ctx, uint64_t t, const uint8_t *pkt, size_t len)
{
    digest_packet(ctx, t, pkt, len);
}

static void run(const struct ibe_sim_opts *base, int rtl, struct run_digest *d,
                struct ibe_sim_result *r)
{
    struct ibe_sim_opts o = *base;
    memset(d, 0, sizeof *d);
    o.trace = on_trace;
    o.trace_ctx = d;
    o.tap = on_tap;
    o.tap_ctx = d;
    if (rtl)
        setenv("IBWIRE_ENGINE_RTL", "1", 1);
    else
        unsetenv("IBWIRE_ENGINE_RTL");
    TU_CHECK(ibe_sim_run(&o, r) >= 0);
}

int main(void)
{
    static const struct {
        uint8_t transport, ib;
        uint32_t messages, max_size, ops, pmtu;
        double drop, dup, reorder, corrupt, ecn;
    } sc[] = {
        {IBE_RC, 0, 120, 20000, 0, 0, 0.05, 0.02, 0.02, 0.01, 0},
        {IBE_RC, 0, 80, 0, 0, 0, 0, 0, 0, 0, 0},
        {IBE_UC, 0, 80, 0, 0, 0, 0.05, 0, 0.02, 0, 0},
        {IBE_UD, 0, 80, 0, 0, 0, 0.02, 0, 0, 0, 0},
        {IBE_RC, 0, 60, 0, 0, 0, 0.02, 0, 0, 0, 0.2},
        {IBE_RC, 1, 60, 9000, 0, 0, 0.05, 0, 0, 0, 0},
        {IBE_RC, 0, 80, 0, IBE_OPM_READ | IBE_OPM_CAS | IBE_OPM_FAA, 256,
         0.05, 0.05, 0, 0, 0},
    };
    for (size_t i = 0; i < sizeof sc / sizeof sc[0]; i++) {
        struct ibe_sim_opts o;
        memset(&o, 0, sizeof o);
        o.seed = 1 + i;
        o.transport = sc[i].transport;
        o.framing = sc[i].ib ? IBE_FRAME_IB : IBE_FRAME_ROCEV2;
        o.messages = sc[i].messages;
        o.max_size = sc[i].max_size ? sc[i].max_size : 4096; /* ibwire sim's */
        o.ops = sc[i].ops;
        o.pmtu = sc[i].pmtu ? sc[i].pmtu : 1024;          /* defaults */
        o.drop = sc[i].drop;
        o.dup = sc[i].dup;
        o.reorder = sc[i].reorder;
        o.corrupt = sc[i].corrupt;
        o.ecn = sc[i].ecn;
        struct run_digest dc, dr;
        struct ibe_sim_result rc, rr;
        uint64_t before = eng_bw_rtl_cycles();
        run(&o, 0, &dc, &rc);
        TU_EQ(eng_bw_rtl_cycles(), before); /* the C converters only */
        run(&o, 1, &dr, &rr);
        TU_CHECK(eng_bw_rtl_cycles() > before + dr.packets);
        printf("scenario %zu: %llu records, %llu packets, %llu completed\n", i,
               (unsigned long long)dr.records, (unsigned long long)dr.packets,
               (unsigned long long)rr.completed_ok);
        TU_CHECK(dc.packets > 0);
        TU_EQ(dr.records, dc.records);
        TU_EQ(dr.trace, dc.trace);
        TU_EQ(dr.packets, dc.packets);
        TU_EQ(dr.wire, dc.wire);
        TU_CHECK(memcmp(&rr, &rc, sizeof rr) == 0); /* completions, counters */
    }
    unsetenv("IBWIRE_ENGINE_RTL");
    return tu_done("engine_rtl");
}
