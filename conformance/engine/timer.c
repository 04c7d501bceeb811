/* SPDX-License-Identifier: Apache-2.0 */
/*
 * timer.c - TimerControl (HanGu RDMA engine design §3.4.2): per QP a loss
 * timer and an RNR timer (E7 RAM entries: current value, set value, active,
 * retry count, retry threshold), driven by set events (E5: set / restart /
 * stop) and answering with expire events (E6: timer expired, or counter
 * expired when the retry count passes the threshold).  A third per-QP timer
 * restores the outstanding limit after a CNP (UniVista RoCEv2 notes).  Virtual
 * time replaces the hardware's periodic scan: each arming schedules one
 * expiry, and a generation number voids stale ones.
 */
#include "eng.h"

#include "ibwire/wire.h"

enum { CNP_RESTORE_NS = 200000 };

uint64_t timer_duration_ns(int which, uint8_t value)
{
    switch (which) {
    case TM_LOSS: /* IBA local ACK timeout: 4.096 us * 2^value; 0 = the
                     longest the model allows, never infinite */
        return 4096ull << (value ? (value > 20 ? 20 : value) : 20);
    case TM_RNR:
        return (uint64_t)ibw_rnr_timer_usec(value & 0x1F) * 1000u;
    default:
        return CNP_RESTORE_NS;
    }
}

struct tm_ctx { struct ibe_engine *e; };

static void expire(void *ctx, uint64_t arg)
{
    struct ibe_engine *e = ctx;
    uint32_t qpn = (uint32_t)(arg & 0xFFFFFF);
    int which = (int)((arg >> 24) & 0xFF);
    uint64_t gen = arg >> 32;
    struct eng_qp *q = eng_qp(e, qpn);
    if (!q)
        return;
    struct tm_entry *t = &q->tmr.tm[which];
    if (!t->active || (t->gen & 0xFFFFFFFFu) != gen)
        return;
    t->active = 0;
    eng_rec_tentry(e, t);
    if (which == TM_CNP) {
        struct eng_conf c;
        cxt_conf(e, qpn, &c);
        rtc_set_limit(e, q, c.max_outstanding ? c.max_outstanding : 16);
        sched_wake(e, q);
        return;
    }
    t->count++;
    /* RNR retry 7 means "retry for ever" (IBA). */
    bool infinite = which == TM_RNR && t->thresh == 7;
    struct rec_texp ev = {(!infinite && t->count > t->thresh) ? TME_COUNTER
                                                                : TME_EXPIRED,
                          qpn, (uint8_t)which};
    rec_texp_put(e, &ev);
    struct rec_texp got;
    rec_texp_get(e, which, &got);
    rrc_timer(e, &got);
}

static void serve_timer_set(struct ibe_engine *e, int from,
                            const struct rec_tset *set)
{
    rec_tset_put(e, from, set);
    struct rec_tset in, *r = &in;
    rec_tset_get(e, set->which, r);
    struct eng_qp *q = eng_qp_known(e, r->qpn);
    struct tm_entry *t = &q->tmr.tm[r->which];
    t->gen++;
    if (r->op == TMO_STOP) {
        t->active = 0;
        eng_rec_tentry(e, t);
        return;
    }
    if (r->op == TMO_SET)
        t->count = 0;
    t->active = 1;
    t->setval = r->value;
    t->current = r->value;
    t->thresh = r->counter & 7;
    eng_rec_tentry(e, t);
    uint64_t arg = (uint64_t)(q->qpn & 0xFFFFFF) | ((uint64_t)r->which << 24) |
                   ((t->gen & 0xFFFFFFFFu) << 32);
    uint64_t ns = timer_duration_ns(r->which, r->value);
    if (r->which == TM_RNR && ENG_FAULT(e, RNR_TIMER_FAST))
        ns /= 500; /* faults.h, zoo row 23: the PSIF HCA's RNR timer */
    /* choices.h: the statement RNR leaves open how much longer than the
     * timer the requester waits */
    if (r->which == TM_RNR && ENG_CHOICE(e, RNR_WAIT_LONGER))
        ns *= 2;
    if (r->which == TM_LOSS && ENG_FAULT(e, ACK_TIMER_TICK)) {
        /* faults.h: a 4 ms tick timer armed at the end of a tick fires
         * whole ticks later, one tick short of the rounded-up timeout */
        const uint64_t tick = 4000000;
        uint64_t ticks = (ns + tick - 1) / tick;
        ns = ticks > 1 ? (ticks - 1) * tick : tick;
    }
    eng_at(e->w, ns, expire, e, arg);
}

void timer_step(struct ibe_engine *e, struct eng_msg *m)
{
    switch (m->port) {
    case PORT_TIMER_SET:
        serve_timer_set(e, (int)m->a[0], (const struct rec_tset *)m->cp[0]);
        break;
    case PORT_TIMER_ENTRY:
        *(struct tm_entry *)m->p[0] =
            eng_qp_known(e, (uint32_t)m->a[0])->tmr.tm[m->a[1]];
        break;
    case PORT_TIMER_CLEAR_COUNT:
        eng_qp_known(e, (uint32_t)m->a[0])->tmr.tm[m->a[1]].count = 0;
        break;
    default:
        abort(); /* a port this module does not have: a wiring bug */
    }
}
