/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cm_sim.h - layer 2 of the communication controller: two reference
 * engines whose RC QPs are connected and torn down through CM MADs over
 * QP1 (GMP), with QP states driven through the HCR model; behind
 * `ibwire sim --cm`.
 */
#ifndef IBW_CM_SIM_H
#define IBW_CM_SIM_H

#include "engine.h"

struct cmx_sim_opts {
    uint64_t seed;
    uint32_t conns;         /* QP pairs to connect */
    uint32_t msg_size;      /* bytes each way per connection */
    double drop, dup, reorder, corrupt;
    uint8_t framing;        /* enum ibe_framing */
    uint8_t max_cm_retries; /* 0..15 */
    uint8_t resp_timeout;   /* CM response timeout code */
    ibe_tap_fn tap;
    void *tap_ctx;
    /* fault modes (faults.h) of the client's engine (node 0) and the
     * server's (node 1); 0: none */
    uint64_t faults[2];
    /* a fault's traffic (faults.h IBE_FT_RNR): the server posts its
     * receive WQEs this long after INIT, so the client's Sends meet RNR
     * NAKs first; 0: at INIT */
    uint64_t server_recv_delay_ns;
};

struct cmx_sim_result {
    uint64_t connections_established, connections_failed, cm_retries,
        mra_sent, rej_sent, disconnects;
    uint64_t messages_posted, completed_ok, completed_error, bytes_verified,
        data_mismatches, retransmissions, timeouts, packets_on_wire,
        gmp_frames, arb_grants, sim_time_ns;
    uint64_t qps_wrong_state, live_connections, hcr_failures;
    /* Every connection ends in one of three ways, judged per connection:
     * clean (both sides established, both messages verified, both
     * disconnected), broken (a WR completed in error on an established
     * connection, then both sides released it), or failed (the client's
     * CM gave up or was rejected, the server never connected or gave up
     * too).  Anything else, e.g. one side still established, disagrees. */
    uint64_t connections_clean, connections_broken, connections_disagree;
    uint64_t completed_flushed, wrs_unfinished;
    int invariants_ok;
    char failure[200];
};

/* Run one CM scenario: 0 when every invariant held, 1 otherwise, -1 for
 * unusable options. */
int cmx_sim_run(const struct cmx_sim_opts *o, struct cmx_sim_result *r);

#endif
