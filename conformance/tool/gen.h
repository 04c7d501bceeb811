/* SPDX-License-Identifier: Apache-2.0 */
/* gen.h - `ibwire gen`: scenario families that write reproducible captures.
 * Each family lives in its own file and exports one gen_family; cmd_gen.c
 * lists the families.  Timestamps start at a fixed time and advance by a
 * fixed step, so the same scenario always gives the same bytes. */
#ifndef IBWIRE_TOOL_GEN_H
#define IBWIRE_TOOL_GEN_H

#include <stdint.h>

#include "capture.h"
#include "ibwire/packet.h"

/* Where a scenario writes its frames. */
struct gen_out {
    struct cap_writer *w;
    uint64_t ts_ns;   /* time of the next frame */
    uint64_t step_ns; /* added after each frame */
    uint64_t frames;  /* frames written */
    int err;          /* set when a frame could not be built or written */
};

#define GEN_START_NS 1700000000000000000ull /* 2023-11-14, fixed */

struct gen_scenario {
    const char *name;
    const char *summary;
    int linktype;                     /* CAP_LINKTYPE_* of the capture */
    void (*run)(struct gen_out *o);
    const char *expect;               /* expected `ibwire check` verdict
                                         (the NAME.expect format), or NULL */
};

struct gen_family {
    const char *name;
    const struct gen_scenario *list;
    unsigned n;
};

/* Crafted packet sequences, one per rule they break (gen_violations.c). */
extern const struct gen_family gen_violation_family;

/* Traffic of the reference engine and the CM simulation (gen_engine.c). */
extern const struct gen_family gen_engine_family;

/* The reference engine's traffic seen from imperfect capture points
 * (gen_vantage.c). */
extern const struct gen_family gen_vantage_family;

/* The RoCEv2 header rules of annex A17 (gen_violations_a17.c). */
extern const struct gen_family gen_a17_family;
/* The reference engine's fault modes, one capture each (gen_fault.c):
 * bug-NAME is `ibwire sim --fault NAME --seed GF_SEED --messages
 * GF_MESSAGES` (the CM's options for the faults that need CM). */
extern const struct gen_family gen_fault_family;
#define GF_SEED 1
#define GF_MESSAGES 200
struct ibe_sim_opts;
struct cmx_sim_opts;
void gen_fault_sim_opts(unsigned fault, struct ibe_sim_opts *so);
void gen_fault_cm_opts(unsigned fault, struct cmx_sim_opts *so);

/* Build spec s and write it; records a failure in o->err. */
void gen_put(struct gen_out *o, const struct ibw_build_spec *s);

/* Write bytes as one frame (for frames the builder will not make). */
void gen_put_raw(struct gen_out *o, const uint8_t *frame, size_t len);

#endif
