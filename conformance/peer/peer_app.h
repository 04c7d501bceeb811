/* SPDX-License-Identifier: Apache-2.0 */
/*
 * peer_app.h - an application of `ibwire peer` in a file of its own
 * (perftest.c): peer.c keeps the wire, the CM and the clock, and hands the
 * application the points where a protocol differs - which QP a REQ gets,
 * what is posted when a QP reaches INIT, the CM's events, and a turn of
 * the loop to poll its own CQs and decide when the run is over.  rping,
 * ucmatose and agent are older and live in peer.c itself.
 */
#ifndef IBW_PEER_APP_H
#define IBW_PEER_APP_H

#include <stdint.h>
#include <stdio.h>

#include "cmx.h"
#include "engine.h"
#include "peer.h"

struct peer;

struct peer_app_ops {
    const char *name;
    size_t state_size;                    /* zeroed for the app by peer.c */
    /* the engine is up (peer_engine()); 0 or -1 */
    int (*setup)(struct peer *p, void *st);
    /* a REQ for the service: choose acc->qpn (acc->start_psn is set);
     * CMX_ACCEPT or a REJ reason */
    int (*on_req)(struct peer *p, void *st, uint32_t conn, struct cmx_accept *acc);
    /* the QP of a connection reached INIT: post its receives */
    void (*qp_init)(struct peer *p, void *st, uint32_t qpn);
    void (*on_event)(struct peer *p, void *st, const struct cmx_event *ev);
    /* one turn of the loop; non-zero: the run is over (peer_fail() tells
     * a failure apart) */
    int (*tick)(struct peer *p, void *st, uint64_t now);
    /* after a run that did not fail: the summary line */
    void (*summary)(struct peer *p, void *st, FILE *log);
    /* --loss spares the engine's frames to this remote QP (NULL: none) */
    int (*lossless)(struct peer *p, void *st, uint32_t remote_qpn);
};

/* what peer.c lends an application */
struct ibe_engine *peer_engine(struct peer *p);
const struct peer_opts *peer_options(const struct peer *p);
void peer_fail(struct peer *p, const char *msg);
void peer_disconnect(struct peer *p, uint32_t conn);
/* client: a REQ for the port (-p) to the server with the CMA header, as
 * the built-in client makes it; the connection handle, -2 while the other
 * side's MAC is not known yet, -1 when the CM cannot */
int peer_connect(struct peer *p, uint32_t qpn, uint32_t start_psn);
uint64_t peer_now(const struct peer *p);

extern const struct peer_app_ops peer_app_perftest;

#endif
