/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sim.h - the scenario runner behind `ibwire sim` and the engine benchmark:
 * two engines over a lossy link, a random mix of operations, and the
 * invariants checked at the end (every message completes exactly once and
 * in order, every byte verified at its destination, no duplicate delivery).
 */
#ifndef IBW_ENGINE_SIM_H
#define IBW_ENGINE_SIM_H

#include "engine.h"
#include "faults.h"

enum {
    IBE_OPM_SEND = 1, IBE_OPM_SEND_IMM = 2, IBE_OPM_WRITE = 4,
    IBE_OPM_WRITE_IMM = 8, IBE_OPM_READ = 16, IBE_OPM_CAS = 32, IBE_OPM_FAA = 64
};

struct ibe_sim_opts {
    uint64_t seed;
    uint32_t messages;
    uint32_t max_size;
    uint8_t transport;    /* IBE_RC / IBE_UC / IBE_UD */
    uint32_t ops;         /* IBE_OPM_* mask; 0 = every op the transport has */
    double drop, dup, reorder, corrupt, ecn;
    uint32_t pmtu;
    uint8_t framing;      /* enum ibe_framing */
    uint8_t retry_cnt;    /* 0 = 7 */
    const char *latency;  /* module latencies (ibe_engine_apply_latency); NULL: none */
    ibe_tap_fn tap; void *tap_ctx;
    ibe_trace_fn trace; void *trace_ctx;
    /* Fault modes (faults.h): faults are set on the side each names (the
     * requester A or the responder B); the traffic of faults | traffic_of
     * is shaped so that the capture shows them (IBE_FT_*): traffic_of
     * alone is the clean control run of a fault's traffic. */
    uint64_t faults, traffic_of;
    /* Open choices (choices.h) both engines take: the other behaviour a
     * statement allows; never a rule broken. */
    uint64_t choices;
    /* Where a fault's traffic puts its special frames (a variant of the
     * fault, `ibwire sim --variants`): the special message (IBE_FT_ZLREAD,
     * VAWRAP, SENDINV) is message fault_at (0: the middle one), and each
     * chosen loss (IBE_FT_LOSS*) strikes the loss_nth frame of its kind
     * (0 or 1: the first). */
    uint32_t fault_at;
    uint32_t loss_nth;
};

struct ibe_sim_result {
    uint64_t messages_posted, completed_ok, completed_error;
    uint64_t bytes_posted, bytes_verified, data_mismatches;
    uint64_t duplicates_delivered, order_violations, lost_messages;
    uint64_t retransmissions, timeouts, rnr_naks, seq_naks;
    uint64_t packets_on_wire, icrc_drops, sim_time_ns, events;
    uint64_t flushed, retry_exceeded;
    uint64_t fault_stopped; /* a fault run stopped at its virtual-time cap */
    int qp_state;         /* the requester QP's final state */
    int invariants_ok;
    char failure[200];
};

/* Run one scenario; returns 0 when every invariant held, 1 otherwise,
 * -1 when the options are unusable. */
int ibe_sim_run(const struct ibe_sim_opts *o, struct ibe_sim_result *r);
/* Parse "send,write,read,..." into a mask; 0 on an unknown name. */
uint32_t ibe_sim_parse_ops(const char *list);
const char *ibe_qp_state_name(int state);

#endif
