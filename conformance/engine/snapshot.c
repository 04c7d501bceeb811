/* SPDX-License-Identifier: Apache-2.0 */
/*
 * snapshot.c - a whole world saved and put back: virtual time, the random
 * source, the pending events (with the packets in flight they own), every
 * engine (its struct, host memory, QP rings' shadows, the message being
 * segmented, the MultiQueue tables and buffers) and every link.
 *
 * A restore writes into the same objects the snapshot was taken from, so
 * the pointers the world holds into itself (events to engines and links,
 * engines to their tables) stay valid; what was allocated after the
 * snapshot is freed, what the snapshot owned is copied afresh.  Taken
 * between events, when every module FIFO is empty.
 */
#include "eng.h"

#include <stddef.h>

struct qp_copy {
    struct rec_db *sq_db;
    struct eng_send_shadow *sq_shadow;
    uint64_t *rq_shadow;
    struct rec_md *seg_md;
    uint8_t *seg_buf;
};

struct engine_copy {
    struct ibe_engine *e;
    struct ibe_engine *self;     /* the struct byte for byte */
    struct qp_copy *qp;          /* ENG_MAX_QP entries */
    uint8_t *mem;                /* self->mem_hw bytes */
    struct swpb_elem *swpb;      /* self->swpb_hw elements */
    uint8_t *payload;            /* ... and their payload slots */
    struct rpb_elem *rpb;        /* mq[MQ_RPB].cap elements */
    uint32_t *mq_free[3], *mq_elem[3];
};

struct plain_copy {
    void *obj;
    size_t size;
    void *bytes;
};

struct ibe_snapshot {
    const struct ibe_world *w;
    uint64_t now, seq, rng;
    struct eng_event *events;    /* owned blobs copied */
    size_t nevents;
    struct engine_copy *eng;
    size_t neng;
    struct plain_copy *plain;
    size_t nplain;
};

static void *dup_bytes(const void *src, size_t len)
{
    if (!len)
        return NULL;
    void *p = malloc(len);
    if (!p)
        abort(); /* as every allocation of the engine's running state */
    memcpy(p, src, len);
    return p;
}

/* memcpy for copies that may be empty (and then have no buffer). */
static void copy_back(void *dst, const void *src, size_t len)
{
    if (len)
        memcpy(dst, src, len);
}

static uint8_t *seg_buf_copy(const struct eng_qp *q)
{
    return q->rtc.seg_buf && q->rtc.seg_md ? dup_bytes(q->rtc.seg_buf, q->rtc.seg_md->msgsize)
                                   : NULL;
}

static void save_engine(struct engine_copy *c, struct ibe_engine *e)
{
    c->e = e;
    /* The QP table is most of the struct and mostly unused: only the
     * valid entries are copied (calloc leaves the rest unbacked). */
    c->self = calloc(1, sizeof *c->self);
    c->qp = calloc(ENG_MAX_QP, sizeof *c->qp);
    if (!c->self || !c->qp)
        abort();
    size_t qp_start = offsetof(struct ibe_engine, qp);
    size_t qp_end = qp_start + sizeof e->qp;
    memcpy(c->self, e, qp_start);
    memcpy((uint8_t *)c->self + qp_end, (const uint8_t *)e + qp_end,
           sizeof *e - qp_end);
    for (uint32_t i = 0; i < e->qp_hw; i++) {
        const struct eng_qp *q = &e->qp[i];
        if (!q->valid)
            continue;
        c->self->qp[i] = *q;
        struct qp_copy *k = &c->qp[i];
        k->sq_db = dup_bytes(q->sched.sq_db, q->cxt.sq_depth * sizeof *q->sched.sq_db);
        k->sq_shadow = dup_bytes(q->host.sq_shadow, q->cxt.sq_depth * sizeof *q->host.sq_shadow);
        k->rq_shadow = dup_bytes(q->host.rq_shadow, q->cxt.rq_depth * sizeof *q->host.rq_shadow);
        k->seg_md = q->rtc.seg_md ? dup_bytes(q->rtc.seg_md, sizeof *q->rtc.seg_md) : NULL;
        k->seg_buf = seg_buf_copy(q);
    }
    uint64_t hw = e->mem_hw > e->mem_top ? e->mem_hw : e->mem_top;
    c->self->mem_hw = hw;
    c->mem = dup_bytes(e->mem, hw);
    c->swpb = dup_bytes(e->mq.swpb, e->mq.swpb_hw * sizeof *e->mq.swpb);
    c->payload = dup_bytes(e->mq.swpb_payload, (size_t)e->mq.swpb_hw * ENG_PAYLOAD_SLOT);
    c->rpb = dup_bytes(e->mq.rpb, e->mq.buf[MQ_RPB].cap * sizeof *e->mq.rpb);
    for (int b = 0; b < 3; b++) {
        const struct mq_buf *m = &e->mq.buf[b];
        c->mq_free[b] = dup_bytes(m->free_fifo, m->cap * sizeof *m->free_fifo);
        c->mq_elem[b] = dup_bytes(m->elem,
                                  (size_t)m->cap * m->elem_words * sizeof *m->elem);
    }
}

static void free_engine_copy(struct engine_copy *c)
{
    if (c->qp)
        for (uint32_t i = 0; i < ENG_MAX_QP; i++) {
            free(c->qp[i].sq_db);
            free(c->qp[i].sq_shadow);
            free(c->qp[i].rq_shadow);
            free(c->qp[i].seg_md);
            free(c->qp[i].seg_buf);
        }
    free(c->qp);
    free(c->self);
    free(c->mem);
    free(c->swpb);
    free(c->payload);
    free(c->rpb);
    for (int b = 0; b < 3; b++) {
        free(c->mq_free[b]);
        free(c->mq_elem[b]);
    }
}

void ibe_snapshot_free(struct ibe_snapshot *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->nevents; i++)
        if (eng_event_owned(&s->events[i]))
            free(s->events[i].ctx);
    free(s->events);
    for (size_t i = 0; i < s->neng; i++)
        free_engine_copy(&s->eng[i]);
    free(s->eng);
    for (size_t i = 0; i < s->nplain; i++)
        free(s->plain[i].bytes);
    free(s->plain);
    free(s);
}

/* A copy of events[0..n) whose owned blobs are copies too. */
static struct eng_event *copy_events(const struct eng_event *ev, size_t n)
{
    struct eng_event *out = dup_bytes(ev, n * sizeof *ev);
    for (size_t i = 0; i < n; i++)
        if (eng_event_owned(&out[i]))
            out[i].ctx = dup_bytes(ev[i].ctx, eng_event_owned(&ev[i]));
    return out;
}

struct ibe_snapshot *ibe_world_snapshot(struct ibe_world *w)
{
    struct ibe_snapshot *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->w = w;
    s->now = w->now;
    s->seq = w->seq;
    s->rng = w->rng;
    s->events = copy_events(w->heap, w->n);
    s->nevents = w->n;
    s->eng = calloc(w->nparts, sizeof *s->eng);
    s->plain = calloc(w->nparts, sizeof *s->plain);
    if (!s->eng || !s->plain) {
        ibe_snapshot_free(s);
        return NULL;
    }
    for (size_t i = 0; i < w->nparts; i++) {
        const struct eng_part *p = &w->parts[i];
        if (p->size) {
            s->plain[s->nplain++] = (struct plain_copy){
                p->obj, p->size, dup_bytes(p->obj, p->size)};
        } else {
            save_engine(&s->eng[s->neng++], p->obj);
        }
    }
    return s;
}

/* Does the world still hold what the snapshot holds, and nothing else?
 * (Its QPs are never destroyed, so each QP of the snapshot still exists.) */
static bool same_parts(const struct ibe_world *w, const struct ibe_snapshot *s)
{
    if (s->w != w || w->nparts != s->neng + s->nplain)
        return false;
    for (size_t i = 0; i < w->nparts; i++) {
        bool found = false;
        for (size_t k = 0; k < s->neng && !found; k++)
            found = s->eng[k].e == w->parts[i].obj;
        for (size_t k = 0; k < s->nplain && !found; k++)
            found = s->plain[k].obj == w->parts[i].obj;
        if (!found)
            return false;
    }
    return true;
}

static void restore_qp(struct eng_qp *q, const struct eng_qp *was,
                       const struct qp_copy *k)
{
    free(q->rtc.seg_md);
    free(q->rtc.seg_buf);
    if (!was->valid) { /* created after the snapshot */
        free(q->sched.sq_db);
        free(q->host.sq_shadow);
        free(q->host.rq_shadow);
        memset(q, 0, sizeof *q);
        return;
    }
    struct rec_db *sq_db = q->sched.sq_db;
    struct eng_send_shadow *sq_shadow = q->host.sq_shadow;
    uint64_t *rq_shadow = q->host.rq_shadow;
    *q = *was;
    q->sched.sq_db = sq_db;
    q->host.sq_shadow = sq_shadow;
    q->host.rq_shadow = rq_shadow;
    copy_back(sq_db, k->sq_db, q->cxt.sq_depth * sizeof *sq_db);
    copy_back(sq_shadow, k->sq_shadow, q->cxt.sq_depth * sizeof *sq_shadow);
    copy_back(rq_shadow, k->rq_shadow, q->cxt.rq_depth * sizeof *rq_shadow);
    q->rtc.seg_md = k->seg_md ? dup_bytes(k->seg_md, sizeof *k->seg_md) : NULL;
    q->rtc.seg_buf = k->seg_buf && k->seg_md ? dup_bytes(k->seg_buf, k->seg_md->msgsize)
                                         : NULL;
}

static void restore_engine(const struct engine_copy *c)
{
    struct ibe_engine *e = c->e;
    const struct ibe_engine *was = c->self;
    uint64_t mem_hw = e->mem_hw > e->mem_top ? e->mem_hw : e->mem_top;
    uint32_t swpb_hw = e->mq.swpb_hw;
    for (uint32_t i = 0; i < e->qp_hw; i++) /* was->qp_hw <= e->qp_hw */
        if (e->qp[i].valid || was->qp[i].valid)
            restore_qp(&e->qp[i], &was->qp[i], &c->qp[i]);
    /* the struct around the QP table: its pointers are the same objects */
    size_t qp_start = offsetof(struct ibe_engine, qp);
    size_t qp_end = qp_start + sizeof e->qp;
    memcpy(e, was, qp_start);
    memcpy((uint8_t *)e + qp_end, (const uint8_t *)was + qp_end,
           sizeof *e - qp_end);
    copy_back(e->mem, c->mem, was->mem_hw);
    if (mem_hw > was->mem_hw) /* handed out or written since: as created */
        memset(e->mem + was->mem_hw, 0, mem_hw - was->mem_hw);
    copy_back(e->mq.swpb, c->swpb, was->mq.swpb_hw * sizeof *e->mq.swpb);
    copy_back(e->mq.swpb_payload, c->payload, (size_t)was->mq.swpb_hw * ENG_PAYLOAD_SLOT);
    for (uint32_t i = was->mq.swpb_hw; i < swpb_hw; i++) { /* as created */
        memset(&e->mq.swpb[i], 0, sizeof e->mq.swpb[i]);
        e->mq.swpb[i].payload = e->mq.swpb_payload + (size_t)i * ENG_PAYLOAD_SLOT;
    }
    copy_back(e->mq.rpb, c->rpb, e->mq.buf[MQ_RPB].cap * sizeof *e->mq.rpb);
    for (int b = 0; b < 3; b++) {
        struct mq_buf *m = &e->mq.buf[b];
        copy_back(m->free_fifo, c->mq_free[b], m->cap * sizeof *m->free_fifo);
        copy_back(m->elem, c->mq_elem[b],
               (size_t)m->cap * m->elem_words * sizeof *m->elem);
    }
}

int ibe_world_restore(struct ibe_world *w, const struct ibe_snapshot *s)
{
    if (!s || !same_parts(w, s))
        return -1;
    for (size_t i = 0; i < w->n; i++)
        if (eng_event_owned(&w->heap[i]))
            free(w->heap[i].ctx);
    w->n = 0;
    if (w->cap < s->nevents) {
        struct eng_event *h = realloc(w->heap, s->nevents * sizeof *h);
        if (!h)
            abort();
        w->heap = h;
        w->cap = s->nevents;
    }
    for (size_t i = 0; i < s->nevents; i++) {
        w->heap[i] = s->events[i];
        if (eng_event_owned(&s->events[i]))
            w->heap[i].ctx = dup_bytes(s->events[i].ctx,
                                       eng_event_owned(&s->events[i]));
    }
    w->n = s->nevents;
    w->now = s->now;
    w->seq = s->seq;
    w->rng = s->rng;
    for (size_t i = 0; i < s->nplain; i++)
        copy_back(s->plain[i].obj, s->plain[i].bytes, s->plain[i].size);
    for (size_t i = 0; i < s->neng; i++)
        restore_engine(&s->eng[i]);
    return 0;
}
