/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gen_fault.c - `ibwire gen bug-NAME`: the capture of each fault mode of
 * the reference engine (conformance/engine/faults.h), written by the run
 *
 *   ibwire sim --fault NAME --seed GF_SEED --messages GF_MESSAGES
 *
 * (or `ibwire sim --cm --fault NAME --seed 7 --conns 1 --size 2048
 * --cm-retries 3 --cm-timeout 16` for the faults that need CM): the link tap's frames, timestamps GEN_START_NS +
 * virtual time.  The clean control run is the same command with
 * --traffic-of NAME instead of --fault NAME.  The fault is on the side the
 * table names; the other engine is correct.
 */
#include <stdio.h>
#include <string.h>

#include "cm_sim.h"
#include "gen.h"
#include "sim.h"

struct gf_cap { struct gen_out *o; };

static void gf_tap(void *ctx, uint64_t t, const uint8_t *pkt, size_t len)
{
    struct gf_cap *c = ctx;
    if (cap_write(c->o->w, GEN_START_NS + t, pkt, len, NULL))
        c->o->err = 1;
    c->o->frames++;
}

void gen_fault_sim_opts(unsigned k, struct ibe_sim_opts *so)
{
    memset(so, 0, sizeof *so);
    so->seed = GF_SEED;
    so->messages = GF_MESSAGES;
    so->max_size = 4096;
    so->transport = IBE_RC;
    so->pmtu = 1024;
    so->faults = 1ull << k;
}

void gen_fault_cm_opts(unsigned k, struct cmx_sim_opts *so)
{
    memset(so, 0, sizeof *so);
    so->seed = 7;
    so->conns = 1;
    so->msg_size = 2048;
    so->framing = IBE_FRAME_ROCEV2;
    so->max_cm_retries = 3;
    so->resp_timeout = 16;
    so->faults[0] = ibe_fault_side_mask(1ull << k, IBE_FS_REQ);
    so->faults[1] = ibe_fault_side_mask(1ull << k, IBE_FS_RESP);
    if (ibe_fault_table[k].traffic & IBE_FT_RNR)
        so->server_recv_delay_ns = 1000000;
}

static void bug_run(struct gen_out *o, unsigned k)
{
    struct gf_cap c = {o};
    if (ibe_fault_table[k].traffic & IBE_FT_CM) {
        struct cmx_sim_opts so;
        struct cmx_sim_result r;
        gen_fault_cm_opts(k, &so);
        so.tap = gf_tap;
        so.tap_ctx = &c;
        if (cmx_sim_run(&so, &r) < 0)
            o->err = 1;
        return;
    }
    struct ibe_sim_opts so;
    struct ibe_sim_result r;
    gen_fault_sim_opts(k, &so);
    so.tap = gf_tap;
    so.tap_ctx = &c;
    if (ibe_sim_run(&so, &r) < 0) /* 1: invariants broken, by design */
        o->err = 1;
}

#define GF_RUN(E, n, z, s, r, nd, t, d) \
    static void bug_##E(struct gen_out *o) { bug_run(o, IBE_FAULT_##E); }
IBE_FAULTS(GF_RUN)
#undef GF_RUN

static const struct gen_scenario fault_list[] = {
#define GF_ROW(E, n, z, s, r, nd, t, d) \
    {"bug-" n, "fault mode, zoo row " z ": " d, CAP_LINKTYPE_ETHERNET, bug_##E, NULL},
    IBE_FAULTS(GF_ROW)
#undef GF_ROW
};

const struct gen_family gen_fault_family = {
    "fault", fault_list, sizeof fault_list / sizeof fault_list[0]};
