/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The world's event queue (evq.c) against a sort.  Events are scheduled in
 * rounds, the world stepping a few events between rounds, with the delays
 * the engine uses: a fixed one (a timer, a link), zero (a module's next
 * step), random ones (a reordering link), bursts at one time, times that
 * events scheduled apart share, and runs
 * of falling delays (which the lanes cannot hold, so the heap must).  Each
 * event is scheduled at or after the present, so the order the world must
 * fire them in is that of (due time, order scheduled) over all of them,
 * which a plain qsort gives independently of the queue's lanes and heap.
 * A snapshot taken when all are scheduled and most still pending, restored
 * twice, must give the rest of that order both times.
 */
#include <stdlib.h>

#include "eng.h"
#include "testutil.h"
#include "xorshift.h"

enum { N = 20000 };

struct sched { uint64_t due, id; };
static struct sched planned[N];
static struct sched fired[N];
static size_t nfired;

static void on_event(void *ctx, uint64_t arg)
{
    struct ibe_world *w = ctx;
    if (nfired < N)
        fired[nfired] = (struct sched){ibe_now(w), arg};
    nfired++;
}

static int by_due_then_id(const void *a, const void *b)
{
    const struct sched *x = a, *y = b;
    if (x->due != y->due)
        return x->due < y->due ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* The delay of the i-th event, scheduled at `now`: the kinds take turns
 * irregularly. */
static uint64_t delay_of(uint64_t *rng, size_t i, uint64_t now)
{
    uint64_t r = xorshift64_next(rng);
    switch (r % 7) {
    case 6: /* due on one of the next two multiples of 4096: events of
               different rounds, in different lanes, fall due together */
        return 4096 - now % 4096 + (r >> 32 & 1) * 4096;
    case 0: return 1000;                /* a link's fixed delay */
    case 1: return 65536;               /* a timer */
    case 2: return 0;                   /* a module's next step */
    case 3: return r >> 40 & 0x1FFF;    /* a reordering link */
    case 4: return 300 + (i & 3);       /* close but not sorted */
    default: return 20000;              /* another timer */
    }
}

/* Fire until the world is empty, the next event counted as the
 * `resume_at`-th fired; then every event fired must be the planned one. */
static void run_out_and_compare(struct ibe_world *w, size_t resume_at)
{
    nfired = resume_at;
    while (ibe_world_step(w))
        ;
    TU_EQ(nfired, N);
    size_t bad = 0;
    for (size_t i = 0; i < N && i < nfired; i++)
        if (fired[i].id != planned[i].id || fired[i].due != planned[i].due) {
            if (!bad++)
                fprintf(stderr, "event %zu: fired id %llu at %llu, expected "
                        "id %llu at %llu\n", i,
                        (unsigned long long)fired[i].id,
                        (unsigned long long)fired[i].due,
                        (unsigned long long)planned[i].id,
                        (unsigned long long)planned[i].due);
        }
    TU_EQ(bad, 0);
}

/* Equal due times held in different places go by order scheduled: here
 * the first event due at 100 sits in a lane, the second in the heap (it
 * fits no lane: every lane ends later), and a lane is scanned after the
 * heap's top. */
static void check_tie_heap_lane(void)
{
    struct ibe_world *w = ibe_world_create(1);
    static const uint64_t delay[] = {100, 1000, 900, 800, 700, 600, 500,
                                     400, 300, 100};
    size_t n = sizeof delay / sizeof delay[0];
    for (size_t i = 0; i < n; i++)
        eng_at(w, delay[i], on_event, w, i);
    nfired = 0;
    while (ibe_world_step(w))
        ;
    /* by due time; the two due at 100 in the order scheduled */
    static const uint64_t want[] = {0, 9, 8, 7, 6, 5, 4, 3, 2, 1};
    TU_EQ(nfired, n);
    for (size_t i = 0; i < n && i < nfired; i++)
        TU_EQ(fired[i].id, want[i]);
    ibe_world_destroy(w);
}

int main(void)
{
    check_tie_heap_lane();
    nfired = 0;

    struct ibe_world *w = ibe_world_create(7);
    uint64_t rng = 0x9E3779B97F4A7C15ull;
    size_t scheduled = 0;
    while (scheduled < N) {
        /* a round: a burst at one time, then mixed delays; one round in
         * four falling delays instead, which fit no lane after the first
         * few and so fill the heap */
        size_t round = 1 + (size_t)(xorshift64_next(&rng) % 200);
        int falling = xorshift64_next(&rng) % 4 == 0;
        for (size_t k = 0; k < round && scheduled < N; k++, scheduled++) {
            uint64_t d = falling ? 40000 - 37 * k
                         : k < 8 ? 5000 : delay_of(&rng, scheduled, ibe_now(w));
            planned[scheduled] = (struct sched){ibe_now(w) + d, scheduled};
            eng_at(w, d, on_event, w, scheduled);
        }
        size_t steps = (size_t)(xorshift64_next(&rng) % 150);
        for (size_t k = 0; k < steps && ibe_world_step(w); k++)
            ;
    }
    /* everything scheduled, much still pending */
    TU_CHECK(eng_world_nevents(w) > 1000);
    struct ibe_snapshot *snap = ibe_world_snapshot(w);
    size_t fired_at_snap = nfired;
    TU_CHECK(snap != NULL);
    qsort(planned, N, sizeof planned[0], by_due_then_id);
    run_out_and_compare(w, nfired);

    /* the rest again, twice, from the snapshot: events are put back into
     * the queue in the snapshot's order, not the order they were made */
    for (int again = 0; again < 2 && snap; again++) {
        TU_EQ(ibe_world_restore(w, snap), 0);
        run_out_and_compare(w, fired_at_snap);
    }
    ibe_snapshot_free(snap);
    ibe_world_destroy(w);
    return tu_done("engine_evq");
}
