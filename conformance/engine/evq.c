/* SPDX-License-Identifier: Apache-2.0 */
/* evq.c - virtual time: a binary heap of events ordered by (time, seq). */
#include "eng.h"

static bool ev_less(const struct eng_event *a, const struct eng_event *b)
{
    return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

struct ibe_world *ibe_world_create(uint64_t seed)
{
    struct ibe_world *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    /* Hash the seed: seeds s and s+1 must not give shifted copies of one
     * splitmix stream. */
    uint64_t z = seed ^ 0x632BE59BD9B4E019ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    w->rng = z ^ (z >> 31);
    return w;
}

void ibe_world_destroy(struct ibe_world *w)
{
    if (!w)
        return;
    free(w->heap);
    free(w);
}

uint64_t ibe_now(const struct ibe_world *w) { return w->now; }

/* splitmix64: small, fast, and the same on every machine. */
uint64_t ibe_rand(struct ibe_world *w)
{
    uint64_t z = (w->rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

double eng_uniform(struct ibe_world *w)
{
    return (double)(ibe_rand(w) >> 11) * (1.0 / 9007199254740992.0);
}

void eng_at(struct ibe_world *w, uint64_t delay_ns, eng_event_fn fn,
            void *ctx, uint64_t arg)
{
    if (w->n == w->cap) {
        size_t cap = w->cap ? w->cap * 2 : 256;
        struct eng_event *h = realloc(w->heap, cap * sizeof *h);
        if (!h)
            abort();
        w->heap = h;
        w->cap = cap;
    }
    struct eng_event ev = {w->now + delay_ns, w->seq++, fn, ctx, arg};
    size_t i = w->n++;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!ev_less(&ev, &w->heap[p]))
            break;
        w->heap[i] = w->heap[p];
        i = p;
    }
    w->heap[i] = ev;
}

static struct eng_event pop(struct ibe_world *w)
{
    struct eng_event top = w->heap[0];
    struct eng_event last = w->heap[--w->n];
    size_t i = 0;
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        const struct eng_event *best = &last;
        if (l < w->n && ev_less(&w->heap[l], best)) {
            m = l;
            best = &w->heap[l];
        }
        if (r < w->n && ev_less(&w->heap[r], best))
            m = r;
        if (m == i)
            break;
        w->heap[i] = w->heap[m];
        i = m;
    }
    if (w->n)
        w->heap[i] = last;
    return top;
}

int ibe_world_step(struct ibe_world *w)
{
    if (!w->n)
        return 0;
    struct eng_event ev = pop(w);
    if (ev.t > w->now)
        w->now = ev.t;
    ev.fn(ev.ctx, ev.arg);
    return 1;
}

void ibe_world_run_until(struct ibe_world *w, uint64_t t)
{
    while (w->n && w->heap[0].t <= t)
        ibe_world_step(w);
    if (w->now < t)
        w->now = t;
}

uint64_t ibe_world_run(struct ibe_world *w, uint64_t limit)
{
    uint64_t n = 0;
    while (n < limit && ibe_world_step(w))
        n++;
    return n;
}
