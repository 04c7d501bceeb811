/* SPDX-License-Identifier: Apache-2.0 */
/* check_expire.c - flows and CM exchanges that end by capture time: above
 * the flow and CM rules (a flow is settled by the flow rules before the
 * table ends it), below the frame entry that calls it per frame. */
#include "check_int.h"

static uint64_t idle_ns(const struct chk *c)
{
    return c->o.flow_idle_ns ? c->o.flow_idle_ns : 60000000000ull;
}

/* The flows idle longer than the idle time at capture time `now` end.  A
 * frame with an earlier time (out of order in the file) ends none. */
void chk_flows_expire(struct chk *c, uint64_t now)
{
    uint64_t idle = idle_ns(c);
    /* the next look at most a millisecond of capture time later: flows
     * end that much after their time at most */
    c->expire_at = now + CHK_EXPIRE_STEP_NS;
    while (c->close_head) {
        struct chk_flow *f = &c->flows[c->close_head - 1];
        if (now < f->close_at)
            break;
        chk_flow_settle(c, f);
        chk_flow_end(c, f);
    }
    if (c->cm_head)
        chk_cm_idle(c, now, idle);
    while (c->lru_head) {
        struct chk_flow *f = &c->flows[c->lru_head - 1];
        if (now < f->last_ts || now - f->last_ts <= idle)
            break;
        chk_flow_settle(c, f);
        chk_flow_end(c, f);
    }
}
