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
    for (size_t i = 0; i < w->n; i++)
        if (eng_event_owned(&w->heap[i]))
            free(w->heap[i].ctx);
    free(w->heap);
    free(w->parts);
    free(w);
}

/* Make room for one more element in the array *p of *cap elements (n in
 * use), doubling from `first`; -1 when out of memory. */
static int grow(void **p, size_t *cap, size_t n, size_t elem, size_t first)
{
    if (n < *cap)
        return 0;
    size_t more = *cap ? *cap * 2 : first;
    void *np = realloc(*p, more * elem);
    if (!np)
        return -1;
    *p = np;
    *cap = more;
    return 0;
}

int eng_world_attach(struct ibe_world *w, void *obj, size_t size)
{
    void *parts = w->parts;
    int rc = grow(&parts, &w->parts_cap, w->nparts, sizeof *w->parts, 4);
    w->parts = parts;
    if (rc)
        return -1;
    w->parts[w->nparts++] = (struct eng_part){obj, size};
    return 0;
}

void eng_world_detach(struct ibe_world *w, void *obj)
{
    for (size_t i = 0; i < w->nparts; i++)
        if (w->parts[i].obj == obj) {
            w->parts[i] = w->parts[--w->nparts];
            return;
        }
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

static void schedule(struct ibe_world *w, uint64_t delay_ns, eng_event_fn fn,
                     void *ctx, uint64_t arg, bool owned)
{
    void *heap = w->heap;
    int rc = grow(&heap, &w->cap, w->n, sizeof *w->heap, 256);
    w->heap = heap;
    if (rc)
        abort();
    struct eng_event ev = {w->now + delay_ns, w->seq++ << 1 | (uint64_t)owned,
                           fn, ctx, arg};
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

void eng_at(struct ibe_world *w, uint64_t delay_ns, eng_event_fn fn,
            void *ctx, uint64_t arg)
{
    schedule(w, delay_ns, fn, ctx, arg, false);
}

void eng_at_owned(struct ibe_world *w, uint64_t delay_ns, eng_event_fn fn,
                  void *blob, size_t size)
{
    schedule(w, delay_ns, fn, blob, (uint64_t)size, true);
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
