/* SPDX-License-Identifier: Apache-2.0 */
/*
 * check_clock.c - CAP-TS-CLOCKS: a capture whose frames were stamped by
 * two clocks.
 *
 * Seen on Linux 7.2 with netem on a veth: the frames one side sent carry
 * the time since boot (the delivery time the stack wrote into the packet),
 * the other side's the time of day, 56 years apart, interleaved in file
 * order.  Taken as they are, every frame of one clock is decades "late",
 * the reorder stage judges the two directions apart, and the flows expire
 * between two frames of one exchange.  No clock of one capture point steps
 * by more than CHK_CLOCK_APART, so a frame that far from every clock seen
 * so far starts another one.  Each clock after the first is moved onto the
 * first by the step at the frame where it appeared, and from then on the
 * times are kept from going back: the file's order is the only one left
 * that can be trusted between the clocks (a frame's time is never earlier
 * than the one before it), while within the first clock the gaps stay as
 * recorded.  Constant cost per frame (CHK_CLOCKS clocks at most; a frame
 * far from all of them once they are all taken joins the nearest).
 */
#include "check_int.h"

/* Frames this far from every clock's last time start a clock of their own:
 * a day (a capture that pauses for longer and then resumes is taken for
 * one with another clock: only its gap is lost). */
#define CHK_CLOCK_APART (86400ull * 1000000000u)

static uint64_t distance(uint64_t a, uint64_t b)
{
    return a > b ? a - b : b - a;
}

uint64_t chk_clock(struct chk *c, uint64_t ts, uint64_t frame)
{
    struct chk_clocks *k = &c->clocks;
    if (!k->n) {
        k->n = 1;
        k->last[0] = ts;
        k->out = ts;
        return ts;
    }
    unsigned best = 0;
    for (unsigned i = 1; i < k->n; i++)
        if (distance(ts, k->last[i]) < distance(ts, k->last[best]))
            best = i;
    if (distance(ts, k->last[best]) > CHK_CLOCK_APART &&
        k->n < CHK_CLOCKS) {
        best = k->n++;
        /* its first frame follows the last one judged */
        k->offset[best] = (int64_t)(k->out - ts);
        if (best == 1) {
            k->first_frame = frame;
            k->first_step = (int64_t)(ts - k->last[0]);
        }
    }
    k->last[best] = ts;
    k->frames[best]++;
    if (k->n == 1) {
        k->out = ts;
        return ts;
    }
    uint64_t t = ts + (uint64_t)k->offset[best];
    if (t < k->out)
        t = k->out;
    k->out = t;
    return t;
}

void chk_clock_finish(struct chk *c)
{
    struct chk_clocks *k = &c->clocks;
    if (k->n < 2)
        return;
    uint64_t saved = c->frame;
    c->frame = k->first_frame;
    c->cur_flow = NULL;
    uint64_t others = 0;
    for (unsigned i = 1; i < k->n; i++)
        others += k->frames[i];
    int64_t step = k->first_step;
    uint64_t s = (uint64_t)(step < 0 ? -step : step) / 1000000000u;
    chk_report(c, CHK_R_CAP_TS_CLOCKS,
               "frames stamped by %u clocks: frame %llu is %llu.%02llu days "
               "%s the frame before it, and %llu frames follow the later "
               "clock%s; their times are taken relative to the first clock "
               "from there, and the file order between them",
               k->n, (unsigned long long)k->first_frame,
               (unsigned long long)(s / 86400u),
               (unsigned long long)(s % 86400u * 100u / 86400u),
               step < 0 ? "before" : "after", (unsigned long long)others,
               k->n > 2 ? "s" : "");
    c->frame = saved;
}
