/* SPDX-License-Identifier: Apache-2.0 */
/*
 * replay.h - `ibwire check --replay`: the requests of every RC flow are fed
 * to a reference responder (a fresh QP of the reference engine set up to
 * match the flow) and the captured responses compared with the reference's
 * (rules REPLAY-*, conformance/rules.md).  Built into the tool, since the
 * check library comes before the engine in the build.
 */
#ifndef IBWIRE_REPLAY_H
#define IBWIRE_REPLAY_H

#include "check.h"

struct replay;

/* New replay state; installs its hook in o (rc_hook, rc_hook_user).  NULL
 * when out of memory. */
struct replay *replay_new(struct chk_opts *o);

/* The checker the findings are reported through (created with o). */
void replay_bind(struct replay *rp, struct chk *c);

/* End of the capture: reports the responses still missing.  NULL is fine. */
void replay_finish(struct replay *rp);

/* Free everything; NULL is fine. */
void replay_free(struct replay *rp);

#endif
