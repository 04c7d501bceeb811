/* SPDX-License-Identifier: Apache-2.0 */
/*
 * evq.c - virtual time: pending events, taken in (time, seq) order.
 *
 * Most events come a fixed delay after the present (a timer armed for its
 * timeout, a module's next step, a frame's flight), so the events of one
 * kind arrive already in key order.  Such runs are kept in a few sorted
 * FIFOs, the lanes: an event joins the lane whose last key is the greatest
 * not above its own, and only one that fits no lane goes to a binary heap.
 * The next event is the least of the heap's top and the lanes' heads.  The
 * order taken is the keys' order whichever place holds an event, so this
 * is a faster heap, not a different schedule.  It matters because every
 * re-arming of a timer leaves its earlier expiry pending until it falls due
 * (a generation number voids it): the world holds about ten times more
 * events than are live, and in a heap each cost a sift of log depth.
 */
#include "eng.h"

/* The one order of events: due time, then order scheduled. */
static bool key_less(uint64_t t1, uint64_t seq1, uint64_t t2, uint64_t seq2)
{
    return t1 < t2 || (t1 == t2 && seq1 < seq2);
}

static bool ev_less(const struct eng_event *a, const struct eng_event *b)
{
    return key_less(a->t, a->seq, b->t, b->seq);
}

static void lane_clear(struct eng_lane *l);

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
    for (int l = 0; l < ENG_LANES; l++)
        lane_clear(&w->lane[l]);
    return w;
}

void ibe_world_destroy(struct ibe_world *w)
{
    if (!w)
        return;
    eng_world_drop_events(w);
    free(w->heap);
    for (int l = 0; l < ENG_LANES; l++)
        free(w->lane[l].ev);
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

/* Ring slot i (0 = the head) of lane l. */
static struct eng_event *lane_at(const struct eng_lane *l, size_t i)
{
    return &l->ev[(l->head + i) & (l->cap - 1)];
}

static void lane_clear(struct eng_lane *l)
{
    l->head = l->n = 0;
    l->first_t = UINT64_MAX;
    l->first_seq = UINT64_MAX;
    l->last_t = l->last_seq = 0;
}

static void heap_push(struct ibe_world *w, struct eng_event ev)
{
    void *heap = w->heap;
    int rc = grow(&heap, &w->heap_cap, w->nheap, sizeof *w->heap, 64);
    w->heap = heap;
    if (rc)
        abort();
    size_t i = w->nheap++;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!ev_less(&ev, &w->heap[p]))
            break;
        w->heap[i] = w->heap[p];
        i = p;
    }
    w->heap[i] = ev;
}

static void heap_pop(struct ibe_world *w)
{
    struct eng_event last = w->heap[--w->nheap];
    size_t i = 0;
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        const struct eng_event *best = &last;
        if (l < w->nheap && ev_less(&w->heap[l], best)) {
            m = l;
            best = &w->heap[l];
        }
        if (r < w->nheap && ev_less(&w->heap[r], best))
            m = r;
        if (m == i)
            break;
        w->heap[i] = w->heap[m];
        i = m;
    }
    if (w->nheap)
        w->heap[i] = last;
}

static void lane_push(struct eng_lane *l, struct eng_event ev)
{
    if (l->n == l->cap) {
        /* twice the slots; the full ring's wrapped part (the slots before
         * the head) moves up to follow its old end */
        size_t old = l->cap, more = old ? 2 * old : 64;
        struct eng_event *nev = realloc(l->ev, more * sizeof *nev);
        if (!nev)
            abort();
        memcpy(nev + old, nev, l->head * sizeof *nev);
        l->ev = nev;
        l->cap = more;
    }
    if (!l->n) {
        l->first_t = ev.t;
        l->first_seq = ev.seq;
    }
    l->last_t = ev.t;
    l->last_seq = ev.seq;
    *lane_at(l, l->n++) = ev;
}

static void lane_pop(struct eng_lane *l)
{
    l->head = (l->head + 1) & (l->cap - 1);
    if (!--l->n) {
        lane_clear(l);
        return;
    }
    l->first_t = l->ev[l->head].t;
    l->first_seq = l->ev[l->head].seq;
}

void eng_world_put_event(struct ibe_world *w, struct eng_event ev)
{
    /* the lane whose last key is the greatest not above ev's; an empty
     * lane's last key is 0, so it is taken only when no other fits */
    struct eng_lane *fit = NULL;
    for (int i = 0; i < ENG_LANES; i++) {
        struct eng_lane *l = &w->lane[i];
        if (!key_less(ev.t, ev.seq, l->last_t, l->last_seq) &&
            (!fit || key_less(fit->last_t, fit->last_seq, l->last_t, l->last_seq)))
            fit = l;
    }
    if (fit)
        lane_push(fit, ev);
    else
        heap_push(w, ev);
    w->nevents++;
}

static void schedule(struct ibe_world *w, uint64_t delay_ns, eng_event_fn fn,
                     void *ctx, uint64_t arg, bool owned)
{
    struct eng_event ev = {w->now + delay_ns, w->seq++ << 1 | (uint64_t)owned,
                           fn, ctx, arg};
    eng_world_put_event(w, ev);
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

/* The lane whose head is the next event, NULL when it is the heap's top.
 * The world must hold an event. */
static struct eng_lane *next_lane(struct ibe_world *w)
{
    struct eng_lane *src = NULL;
    uint64_t t = UINT64_MAX, seq = UINT64_MAX;
    if (w->nheap) {
        t = w->heap[0].t;
        seq = w->heap[0].seq;
    }
    for (int i = 0; i < ENG_LANES; i++) {
        struct eng_lane *l = &w->lane[i];
        if (key_less(l->first_t, l->first_seq, t, seq)) {
            t = l->first_t;
            seq = l->first_seq;
            src = l;
        }
    }
    return src;
}

static uint64_t next_time(struct ibe_world *w)
{
    struct eng_lane *l = next_lane(w);
    return l ? l->first_t : w->heap[0].t;
}

static struct eng_event pop(struct ibe_world *w)
{
    struct eng_lane *l = next_lane(w);
    struct eng_event top;
    if (l) {
        top = l->ev[l->head];
        lane_pop(l);
    } else {
        top = w->heap[0];
        heap_pop(w);
    }
    w->nevents--;
    return top;
}

size_t eng_world_nevents(const struct ibe_world *w) { return w->nevents; }

void eng_world_copy_events(const struct ibe_world *w, struct eng_event *out)
{
    size_t k = 0;
    for (size_t i = 0; i < w->nheap; i++)
        out[k++] = w->heap[i];
    for (int l = 0; l < ENG_LANES; l++)
        for (size_t i = 0; i < w->lane[l].n; i++)
            out[k++] = *lane_at(&w->lane[l], i);
}

void eng_world_drop_events(struct ibe_world *w)
{
    for (size_t i = 0; i < w->nheap; i++)
        if (eng_event_owned(&w->heap[i]))
            free(w->heap[i].ctx);
    w->nheap = 0;
    for (int l = 0; l < ENG_LANES; l++) {
        struct eng_lane *ln = &w->lane[l];
        for (size_t i = 0; i < ln->n; i++)
            if (eng_event_owned(lane_at(ln, i)))
                free(lane_at(ln, i)->ctx);
        lane_clear(ln);
    }
    w->nevents = 0;
}

int ibe_world_step(struct ibe_world *w)
{
    if (!w->nevents)
        return 0;
    struct eng_event ev = pop(w);
    if (ev.t > w->now)
        w->now = ev.t;
    ev.fn(ev.ctx, ev.arg);
    return 1;
}

void ibe_world_run_until(struct ibe_world *w, uint64_t t)
{
    while (w->nevents && next_time(w) <= t)
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
