/* SPDX-License-Identifier: Apache-2.0 */
/*
 * check_parallel.c - feed a capture to one checker, reading and parsing on
 * other threads.
 *
 * A frame's cost is reading it (libpcap), parsing it with its ICRC, and the
 * rules.  What the checker keeps between frames (flows, pairing across QPs,
 * CM, the capture-wide verdicts on CRCs and cut lengths) is judged in one
 * thread, the caller's, in frame order, exactly as without threads: the
 * findings and their order are the same whatever the number of threads.
 *
 * With jobs = 2 a reader thread reads the file once into batches of frames
 * (each batch owns copies of its frames) and the caller judges them; a
 * batch is parsed by whichever of the two gets to it first (the reader
 * when the caller is behind, so the work evens out); with more, jobs - 2
 * workers parse (batch b on worker b mod (jobs - 2)).  Threads meet once
 * per batch, not once per frame.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check_int.h"

#define NBATCH 8       /* batches in flight */
#define BATCH 256      /* frames per batch */

enum { B_FREE = 0, B_READ, B_PARSING, B_PARSED };

struct batch {
    int state;                 /* under pipe.mu */
    uint64_t seq;              /* which batch of the file it holds */
    unsigned n;                /* frames in it */
    int last;                  /* the reader's last batch */
    struct cap_frame fr[BATCH]; /* raw and iba point into bytes */
    struct ibw_pkt pkt[BATCH];
    uint32_t dig_hdr[BATCH];   /* chk_req_digest() of pkt[i], taken by */
    uint32_t dig_payload[BATCH]; /* the parsing thread */
    uint8_t dig_ok[BATCH];
    size_t raw_at[BATCH];      /* while it fills: where raw is in bytes, */
    size_t iba_at[BATCH];      /* and iba from raw (SIZE_MAX: none) */
    uint8_t stable[BATCH];     /* raw is the reader's, kept until the end
                                  (cap_frame_stable): not copied */
    uint8_t *bytes;
    size_t used, cap;
};

struct pipe {
    struct batch *b;
    struct cap_reader *rd;
    unsigned parsers;          /* parse workers (0: the caller parses) */
    int stop;                  /* the caller is done: everybody ends */
    uint64_t judging;          /* the batch the caller is at (under mu) */
    int err;                   /* the reader met damage or ran out of memory */
    pthread_mutex_t mu;
    pthread_cond_t cv;
};

struct parser {
    struct pipe *p;
    unsigned k;
};

/* Wait until slot x holds batch seq in state want (or stop); 0 when it
 * does.  (A parser may come to a slot while it still holds an earlier
 * batch another parser has not done yet.) */
static int wait_state(struct pipe *p, struct batch *x, int want, uint64_t seq)
{
    pthread_mutex_lock(&p->mu);
    while (!(x->state == want && (want == B_FREE || x->seq == seq)) && !p->stop)
        pthread_cond_wait(&p->cv, &p->mu);
    int ok = x->state == want && (want == B_FREE || x->seq == seq);
    pthread_mutex_unlock(&p->mu);
    return ok ? 0 : -1;
}

static void set_state(struct pipe *p, struct batch *x, int st)
{
    pthread_mutex_lock(&p->mu);
    x->state = st;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
}

/* Copy frame fr into batch x; its pointers are set when the batch is
 * full (the arena may move while it fills). */
static int batch_add(struct batch *x, const struct cap_frame *fr, int stable)
{
    if (stable) {
        unsigned i = x->n++;
        x->fr[i] = *fr;
        x->stable[i] = 1;
        return 0;
    }
    if (x->used + fr->caplen > x->cap) {
        size_t n = x->cap ? x->cap * 2 : 256 * 1024;
        while (n < x->used + fr->caplen)
            n *= 2;
        uint8_t *b = realloc(x->bytes, n);
        if (!b)
            return -1;
        x->bytes = b;
        x->cap = n;
    }
    unsigned i = x->n++;
    x->fr[i] = *fr;
    x->stable[i] = 0;
    if (fr->caplen) /* (raw may be NULL for 0 bytes) */
        memcpy(x->bytes + x->used, fr->raw, fr->caplen);
    x->raw_at[i] = x->used;
    x->iba_at[i] = fr->iba ? (size_t)(fr->iba - fr->raw) : SIZE_MAX;
    x->used += fr->caplen;
    return 0;
}

static void batch_seal(struct batch *x)
{
    for (unsigned i = 0; i < x->n; i++) {
        struct cap_frame *f = &x->fr[i];
        if (x->stable[i])
            continue;
        f->raw = x->bytes + x->raw_at[i];
        f->iba = x->iba_at[i] == SIZE_MAX ? NULL : f->raw + x->iba_at[i];
    }
}

/* Parse the batch's frames, and take the resend digests of every frame
 * with a BTH (a pure function of its bytes, CRC-32 over its payload: the
 * most of a request's cost after the ICRC) while the bytes are in this
 * thread's cache, so that the judging thread does not. */
static void parse_batch(struct batch *x)
{
    for (unsigned i = 0; i < x->n; i++) {
        x->dig_ok[i] = 0;
        if (!x->fr[i].iba)
            continue;
        struct ibw_pkt *p = &x->pkt[i];
        ibw_parse(x->fr[i].iba, x->fr[i].iba_len, x->fr[i].link, p);
        if (ibw_pkt_has(p, IBW_HDR_BTH))
            x->dig_ok[i] = (uint8_t)(1 + chk_req_digest(p, &x->dig_hdr[i],
                                                        &x->dig_payload[i]));
    }
}

static void *read_loop(void *arg)
{
    struct pipe *p = arg;
    struct cap_frame fr;
    int done = 0;
    for (uint64_t b = 0; !done; b++) {
        struct batch *x = &p->b[b % NBATCH];
        if (wait_state(p, x, B_FREE, b))
            return NULL; /* stop */
        x->seq = b;
        x->n = 0;
        x->used = 0;
        x->last = 0;
        while (x->n < BATCH) {
            int rc = cap_next(p->rd, &fr);
            if (rc != 1 || batch_add(x, &fr, cap_frame_stable(p->rd, &fr))) {
                p->err = rc != 0; /* read under mu by the caller, after */
                done = 1;
                break;
            }
        }
        x->last = done;
        batch_seal(x);
        /* the caller behind by a batch or more: parse this one here */
        pthread_mutex_lock(&p->mu);
        int mine = !p->parsers && b >= p->judging + 2;
        x->state = mine ? B_PARSING : B_READ;
        pthread_cond_broadcast(&p->cv);
        pthread_mutex_unlock(&p->mu);
        if (mine) {
            parse_batch(x);
            set_state(p, x, B_PARSED);
        }
    }
    return NULL;
}

static void *parse_loop(void *arg)
{
    struct parser *w = arg;
    struct pipe *p = w->p;
    for (uint64_t b = w->k;; b += p->parsers) {
        struct batch *x = &p->b[b % NBATCH];
        if (wait_state(p, x, B_READ, b))
            return NULL;
        parse_batch(x);
        int last = x->last;
        set_state(p, x, B_PARSED);
        if (last)
            return NULL;
    }
}

/* The reader's frames are about to go: what is still held is judged now
 * when the caller asked for everything (chk_feed_all, the reader's bytes
 * still valid), or else copied to be judged later. */
static void feed_end(struct chk *c, int release_all)
{
    if (release_all)
        chk_release(c, UINT64_MAX);
    chk_order_unborrow(c);
}

static int feed_serial(struct chk *c, struct cap_reader *rd,
                       void (*on_frame)(void *user, const struct cap_frame *fr),
                       void *user, int release_all)
{
    struct cap_frame fr;
    int rc;
    while ((rc = cap_next(rd, &fr)) == 1) {
        if (on_frame)
            on_frame(user, &fr);
        c->order.borrow = cap_frame_stable(rd, &fr);
        chk_frame(c, &fr);
    }
    feed_end(c, release_all);
    return rc < 0 ? -1 : 0;
}

static int feed_jobs(struct chk *c, struct cap_reader *rd, unsigned jobs,
                     void (*on_frame)(void *user, const struct cap_frame *fr),
                     void *user, int release_all);

static int feed(struct chk *c, struct cap_reader *rd, unsigned jobs,
                void (*on_frame)(void *user, const struct cap_frame *fr),
                void *user, int release_all)
{
    /* All of rd's frames and nothing after them but chk_release(): when
     * rd tells that its timestamps never go back, and nothing was fed
     * before, the reorder stage has nothing to wait for (check_order.c) */
    c->order.in_order = release_all && !c->order.fed_any && cap_ts_ordered(rd);
    int rc = feed_jobs(c, rd, jobs, on_frame, user, release_all);
    c->order.in_order = 0;
    return rc;
}

static int feed_jobs(struct chk *c, struct cap_reader *rd, unsigned jobs,
                     void (*on_frame)(void *user, const struct cap_frame *fr),
                     void *user, int release_all)
{
    /* threads only where asking for an interface's name while the reader
     * reads is safe (the list cannot grow under it) */
    if (jobs <= 1 || !cap_interfaces_fixed(rd))
        return feed_serial(c, rd, on_frame, user, release_all);
    if (jobs > CHK_MAX_JOBS)
        jobs = CHK_MAX_JOBS;
    struct pipe p;
    memset(&p, 0, sizeof p);
    p.rd = rd;
    p.parsers = jobs - 2;
    p.b = calloc(NBATCH, sizeof *p.b);
    if (!p.b)
        return feed_serial(c, rd, on_frame, user, release_all);
    pthread_mutex_init(&p.mu, NULL);
    pthread_cond_init(&p.cv, NULL);
    pthread_t reader, th[CHK_MAX_JOBS];
    struct parser w[CHK_MAX_JOBS];
    unsigned started = 0;
    int have_reader = pthread_create(&reader, NULL, read_loop, &p) == 0;
    for (unsigned k = 0; have_reader && k < p.parsers; k++) {
        w[k].p = &p;
        w[k].k = k;
        if (pthread_create(&th[k], NULL, parse_loop, &w[k]))
            break;
        started++;
    }
    int serial = !have_reader || started < p.parsers;
    if (!serial) {
        for (uint64_t b = 0;; b++) {
            struct batch *x = &p.b[b % NBATCH];
            if (p.parsers) {
                if (wait_state(&p, x, B_PARSED, b))
                    break;
            } else {
                /* batch b read: parse it here unless the reader took it */
                pthread_mutex_lock(&p.mu);
                p.judging = b;
                while (!(x->seq == b && (x->state == B_READ ||
                                         x->state == B_PARSED)) && !p.stop)
                    pthread_cond_wait(&p.cv, &p.mu);
                int parse_here = x->seq == b && x->state == B_READ;
                int ok = x->seq == b && (parse_here || x->state == B_PARSED);
                if (parse_here)
                    x->state = B_PARSING;
                pthread_mutex_unlock(&p.mu);
                if (!ok)
                    break;
                if (parse_here)
                    parse_batch(x);
            }
            for (unsigned i = 0; i < x->n; i++) {
                if (on_frame)
                    on_frame(user, &x->fr[i]);
                c->order.borrow = x->stable[i];
                if (x->dig_ok[i]) { /* (a frame held gets judged from a
                                       copy: not this pointer) */
                    chk_digest_ahead.p = &x->pkt[i];
                    chk_digest_ahead.hdr = x->dig_hdr[i];
                    chk_digest_ahead.payload = x->dig_payload[i];
                    chk_digest_ahead.ok = x->dig_ok[i] - 1;
                }
                chk_frame_parsed(c, &x->fr[i], x->fr[i].iba ? &x->pkt[i] : NULL);
                chk_digest_ahead.p = NULL;
            }
            int last = x->last;
            set_state(&p, x, B_FREE);
            if (last)
                break;
        }
    }
    feed_end(c, release_all); /* before the batches, and the reader, go */
    pthread_mutex_lock(&p.mu);
    p.stop = 1;
    pthread_cond_broadcast(&p.cv);
    pthread_mutex_unlock(&p.mu);
    if (have_reader)
        pthread_join(reader, NULL);
    for (unsigned k = 0; k < started; k++)
        pthread_join(th[k], NULL);
    int err = p.err;
    for (unsigned i = 0; i < NBATCH; i++)
        free(p.b[i].bytes);
    free(p.b);
    pthread_cond_destroy(&p.cv);
    pthread_mutex_destroy(&p.mu);
    /* no threads to be had: nothing was read yet, one thread does it all */
    if (serial)
        return feed_serial(c, rd, on_frame, user, release_all);
    return err ? -1 : 0;
}

int chk_feed(struct chk *c, struct cap_reader *rd, unsigned jobs,
             void (*on_frame)(void *user, const struct cap_frame *fr),
             void *user)
{
    return feed(c, rd, jobs, on_frame, user, 0);
}

int chk_feed_all(struct chk *c, struct cap_reader *rd, unsigned jobs,
                 void (*on_frame)(void *user, const struct cap_frame *fr),
                 void *user)
{
    return feed(c, rd, jobs, on_frame, user, 1);
}
