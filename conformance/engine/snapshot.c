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
 *
 * Incremental snapshots (a chain per world, oldest to newest) copy only
 * what changed.  Host memory: from a snapshot on, a block's contents
 * (UNDO_BLOCK bytes; "page" below) are saved the first time it is
 * written (eng_mem_will_write), into the
 * newest snapshot's undo log; a restore applies the logs from the newest
 * back to its own.  The rest of an engine outside its QP table (the
 * struct, the MultiQueue tables and buffers) is compared, 64 bytes at a
 * time, with a shadow copy of it as it was at the newest snapshot: what
 * differs goes into the previous snapshot's log before the shadow takes
 * it.  So the newest snapshot's log of those bytes is always empty, and
 * the shadow with the logs applied back to a snapshot is that snapshot.
 * Valid QPs, events, links, time and random state are copied, as in a
 * full snapshot.
 */
#include "eng.h"

#include <stddef.h>

/* Host memory is saved in blocks of UNDO_BLOCK bytes: the writes between
 * two snapshots are mostly small (a CQE, a receive WQE, a short payload),
 * and each block written costs a copy of the block and its room in the
 * ring of snapshots the caller keeps.  The saved-generation array is one
 * word per block; calloc leaves the part over memory never written
 * unbacked. */
#define UNDO_BLOCK 512u
#define CMP_BLOCK 4096u /* the shadow's first comparison, before grains */
#define GRAIN 64u

/* The parts of an engine outside host memory and the QP table that an
 * incremental snapshot keeps as differences from the shadow. */
enum {
    R_HEAD,                 /* the struct before the QP table */
    R_TAIL,                 /* ... and after it */
    R_RPB,                  /* below mq[MQ_RPB].hw */
    R_MQ_FREE,              /* three: MQ_RPB, MQ_REB, MQ_SWPB, below hw */
    R_MQ_ELEM = R_MQ_FREE + 3,
    R_SWPB = R_MQ_ELEM + 3, /* below swpb_hw */
    R_PAYLOAD,              /* ... and their payload slots */
    R_COUNT
};

struct page_save {
    uint64_t page;
    uint8_t *bytes;
};

struct grain_save {
    uint16_t region, len;
    uint32_t off;
    uint8_t bytes[GRAIN];
};

/* What one snapshot needs to go back from its successor (or from now,
 * for the newest): entries saved later are applied first, so when a page
 * or grain is saved twice (logs merged by a free) the older bytes win. */
struct undo_log {
    struct page_save *pg;
    size_t npg, cappg;
    struct grain_save *gr;
    size_t ngr, capgr;
};

struct shadow {
    uint8_t *bytes;
    size_t len, cap;
};

/* An engine's side of its world's incremental snapshots. */
struct eng_undo {
    uint32_t *saved;        /* per page: the generation whose log has it */
    uint64_t npages;
    uint32_t gen;           /* the newest snapshot's generation */
    struct undo_log *log;   /* ... and its log for this engine */
    struct shadow sh[R_COUNT];
};

struct qp_copy {
    struct rec_db *sq_db;
    struct eng_send_shadow *sq_shadow;
    uint64_t *rq_shadow;
    struct rec_md *seg_md;
    uint8_t *seg_buf;
};

struct engine_copy {
    struct ibe_engine *e;
    struct eng_qp *qps;          /* nqp entries: the QPNs below qp_hw */
    struct qp_copy *qp;          /* ... and what each valid one owns */
    uint32_t nqp;
    /* full snapshots */
    struct ibe_engine *self;     /* the struct byte for byte, but its QPs */
    uint8_t *mem;                /* self->mem_hw bytes */
    struct swpb_elem *swpb;      /* self->mq.swpb_hw elements */
    uint8_t *payload;            /* ... and their payload slots */
    struct rpb_elem *rpb;        /* mq[MQ_RPB].cap elements */
    uint32_t *mq_free[3], *mq_elem[3];
    /* incremental snapshots */
    struct undo_log log;
};

struct plain_copy {
    void *obj;
    size_t size;
    void *bytes;
};

struct ibe_snapshot {
    struct ibe_world *w;
    uint64_t now, seq, rng;
    struct eng_event *events;    /* owned blobs copied */
    size_t nevents;
    struct engine_copy *eng;
    size_t neng;
    struct plain_copy *plain;
    size_t nplain;
    uint8_t incremental;
    uint8_t stale;               /* a newer one was restored, or an engine
                                    left the world: restores refused */
    struct ibe_snapshot *older, *newer; /* the world's chain */
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

/* Room for one more of *n elements of `size` bytes in *arr. */
static void *room_for_one(void *arr, size_t n, size_t *cap, size_t size)
{
    if (n < *cap)
        return arr;
    size_t more = *cap ? *cap * 2 : 16;
    void *p = realloc(arr, more * size);
    if (!p)
        abort();
    *cap = more;
    return p;
}

static uint8_t *seg_buf_copy(const struct eng_qp *q)
{
    return q->rtc.seg_buf && q->rtc.seg_md ? dup_bytes(q->rtc.seg_buf, q->rtc.seg_md->msgsize)
                                   : NULL;
}

/* The valid QPs with their rings' shadows and the message being
 * segmented. */
static void save_qps(struct engine_copy *c, const struct ibe_engine *e)
{
    c->nqp = e->qp_hw;
    c->qps = c->nqp ? calloc(c->nqp, sizeof *c->qps) : NULL;
    c->qp = c->nqp ? calloc(c->nqp, sizeof *c->qp) : NULL;
    if (c->nqp && (!c->qps || !c->qp))
        abort();
    for (uint32_t i = 0; i < c->nqp; i++) {
        const struct eng_qp *q = &e->qp[i];
        if (!q->valid)
            continue;
        c->qps[i] = *q;
        struct qp_copy *k = &c->qp[i];
        k->sq_db = dup_bytes(q->sched.sq_db, q->cxt.sq_depth * sizeof *q->sched.sq_db);
        k->sq_shadow = dup_bytes(q->host.sq_shadow, q->cxt.sq_depth * sizeof *q->host.sq_shadow);
        k->rq_shadow = dup_bytes(q->host.rq_shadow, q->cxt.rq_depth * sizeof *q->host.rq_shadow);
        k->seg_md = q->rtc.seg_md ? dup_bytes(q->rtc.seg_md, sizeof *q->rtc.seg_md) : NULL;
        k->seg_buf = seg_buf_copy(q);
    }
}

static void save_engine(struct engine_copy *c, struct ibe_engine *e)
{
    c->e = e;
    save_qps(c, e);
    /* The QP table is most of the struct: it is left out (calloc leaves
     * it unbacked) and the valid entries copied by save_qps. */
    c->self = calloc(1, sizeof *c->self);
    if (!c->self)
        abort();
    size_t qp_start = offsetof(struct ibe_engine, qp);
    size_t qp_end = qp_start + sizeof e->qp;
    memcpy(c->self, e, qp_start);
    memcpy((uint8_t *)c->self + qp_end, (const uint8_t *)e + qp_end,
           sizeof *e - qp_end);
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

static void log_clear(struct undo_log *l)
{
    for (size_t i = 0; i < l->npg; i++)
        free(l->pg[i].bytes);
    l->npg = 0;
    l->ngr = 0;
}

static void log_free(struct undo_log *l)
{
    log_clear(l);
    free(l->pg);
    free(l->gr);
    memset(l, 0, sizeof *l);
}

/* Move src's entries behind dst's (applied before them). */
static void log_append(struct undo_log *dst, struct undo_log *src)
{
    for (size_t i = 0; i < src->npg; i++) {
        dst->pg = room_for_one(dst->pg, dst->npg, &dst->cappg, sizeof *dst->pg);
        dst->pg[dst->npg++] = src->pg[i];
    }
    src->npg = 0;
    for (size_t i = 0; i < src->ngr; i++) {
        dst->gr = room_for_one(dst->gr, dst->ngr, &dst->capgr, sizeof *dst->gr);
        dst->gr[dst->ngr++] = src->gr[i];
    }
    src->ngr = 0;
}

static void free_engine_copy(struct engine_copy *c)
{
    if (c->qp)
        for (uint32_t i = 0; i < c->nqp; i++) {
            free(c->qp[i].sq_db);
            free(c->qp[i].sq_shadow);
            free(c->qp[i].rq_shadow);
            free(c->qp[i].seg_md);
            free(c->qp[i].seg_buf);
        }
    free(c->qp);
    free(c->qps);
    free(c->self);
    free(c->mem);
    free(c->swpb);
    free(c->payload);
    free(c->rpb);
    for (int b = 0; b < 3; b++) {
        free(c->mq_free[b]);
        free(c->mq_elem[b]);
    }
    log_free(&c->log);
}

/* Everything the snapshot owns, leaving an empty shell. */
static void release(struct ibe_snapshot *s)
{
    for (size_t i = 0; i < s->nevents; i++)
        if (eng_event_owned(&s->events[i]))
            free(s->events[i].ctx);
    free(s->events);
    s->events = NULL;
    s->nevents = 0;
    for (size_t i = 0; i < s->neng; i++)
        free_engine_copy(&s->eng[i]);
    free(s->eng);
    s->eng = NULL;
    s->neng = 0;
    for (size_t i = 0; i < s->nplain; i++)
        free(s->plain[i].bytes);
    free(s->plain);
    s->plain = NULL;
    s->nplain = 0;
}

/* ---- host memory pages and the shadow ---- */

/* Region r of engine e: where it is, how much of it can have been written
 * (*len: below a high-water mark), and how much the shadow keeps (*full).
 * A MultiQueue buffer writes only the elements it ever allocated, and its
 * free FIFO only as many positions (a free writes at the position after
 * the last one written, and no more are freed than were allocated), so
 * the shadow holds the whole table (the rest as created) and only the
 * part below hw is compared.  The SWPB elements and payload slots grow
 * with swpb_hw: their shadow does too, and a restore puts the elements
 * above it back as created. */
static uint8_t *region_at(struct ibe_engine *e, int r, size_t *len, size_t *full)
{
    size_t qp_start = offsetof(struct ibe_engine, qp);
    size_t qp_end = qp_start + sizeof e->qp;
    uint8_t *at;
    if (r == R_HEAD) {
        *len = *full = qp_start;
        return (uint8_t *)e;
    }
    if (r == R_TAIL) {
        *len = *full = sizeof *e - qp_end;
        return (uint8_t *)e + qp_end;
    }
    if (r == R_SWPB) {
        *len = *full = e->mq.swpb_hw * sizeof *e->mq.swpb;
        return (uint8_t *)e->mq.swpb;
    }
    if (r == R_PAYLOAD) {
        *len = *full = (size_t)e->mq.swpb_hw * ENG_PAYLOAD_SLOT;
        return e->mq.swpb_payload;
    }
    const struct mq_buf *m = &e->mq.buf[r == R_RPB ? MQ_RPB : (r - R_MQ_FREE) % 3];
    size_t one;
    if (r == R_RPB) {
        one = sizeof *e->mq.rpb;
        at = (uint8_t *)e->mq.rpb;
    } else if (r < R_MQ_ELEM) {
        one = sizeof *m->free_fifo;
        at = (uint8_t *)m->free_fifo;
    } else {
        one = (size_t)m->elem_words * sizeof *m->elem;
        at = (uint8_t *)m->elem;
    }
    *len = m->hw * one;
    *full = m->cap * one;
    return at;
}

static uint64_t page_len(const struct ibe_engine *e, uint64_t page)
{
    uint64_t left = e->cfg.mem_bytes - page * UNDO_BLOCK;
    return left < UNDO_BLOCK ? left : UNDO_BLOCK;
}

static void next_generation(struct eng_undo *u)
{
    if (++u->gen == 0) { /* wrapped: no page may look saved */
        memset(u->saved, 0, u->npages * sizeof *u->saved);
        u->gen = 1;
    }
}

/* The write hook: keep the old contents of pages written for the first
 * time since the newest snapshot. */
static void save_pages(struct ibe_engine *e, uint64_t addr, uint64_t len)
{
    struct eng_undo *u = e->undo;
    if (!len || !u->log || addr >= e->cfg.mem_bytes)
        return;
    uint64_t end = len > e->cfg.mem_bytes - addr ? e->cfg.mem_bytes : addr + len;
    struct undo_log *l = u->log;
    for (uint64_t p = addr / UNDO_BLOCK; p <= (end - 1) / UNDO_BLOCK; p++) {
        if (u->saved[p] == u->gen)
            continue;
        u->saved[p] = u->gen;
        l->pg = room_for_one(l->pg, l->npg, &l->cappg, sizeof *l->pg);
        l->pg[l->npg++] = (struct page_save){
            p, dup_bytes(e->mem + p * UNDO_BLOCK, page_len(e, p))};
    }
}

static void apply_pages(struct ibe_engine *e, const struct undo_log *l)
{
    for (size_t i = l->npg; i-- > 0;)
        memcpy(e->mem + l->pg[i].page * UNDO_BLOCK, l->pg[i].bytes,
               page_len(e, l->pg[i].page));
}

static void apply_grains(struct eng_undo *u, const struct undo_log *l)
{
    for (size_t i = l->ngr; i-- > 0;) {
        const struct grain_save *g = &l->gr[i];
        memcpy(u->sh[g->region].bytes + g->off, g->bytes, g->len);
    }
}

static void log_grain(struct undo_log *l, int r, size_t off, const uint8_t *bytes,
                      size_t len)
{
    l->gr = room_for_one(l->gr, l->ngr, &l->capgr, sizeof *l->gr);
    struct grain_save *g = &l->gr[l->ngr++];
    g->region = (uint16_t)r;
    g->len = (uint16_t)len;
    g->off = (uint32_t)off;
    memcpy(g->bytes, bytes, len);
}

/* Bring the shadow up to the engine as it is now; what it held of the
 * bytes that changed goes into `older` (the previous snapshot's log, NULL
 * when there is none).  Bytes past a region's end at the previous
 * snapshot (SWPB elements allocated since) need no log: a restore puts
 * them back as created. */
static void shadow_take(struct eng_undo *u, struct ibe_engine *e,
                        struct undo_log *older)
{
    for (int r = 0; r < R_COUNT; r++) {
        size_t len, full;
        const uint8_t *live = region_at(e, r, &len, &full);
        struct shadow *sh = &u->sh[r];
        size_t common = len < sh->len ? len : sh->len;
        for (size_t b = 0; b < common; b += CMP_BLOCK) {
            size_t n = common - b < CMP_BLOCK ? common - b : CMP_BLOCK;
            if (!memcmp(live + b, sh->bytes + b, n))
                continue;
            for (size_t g = b; g < b + n; g += GRAIN) {
                size_t k = b + n - g < GRAIN ? b + n - g : GRAIN;
                if (!memcmp(live + g, sh->bytes + g, k))
                    continue;
                if (older)
                    log_grain(older, r, g, sh->bytes + g, k);
                memcpy(sh->bytes + g, live + g, k);
            }
        }
        if (full > sh->cap) {
            uint8_t *nb = realloc(sh->bytes, full);
            if (!nb)
                abort();
            sh->bytes = nb;
            sh->cap = full;
        }
        if (full > sh->len)
            memcpy(sh->bytes + sh->len, live + sh->len, full - sh->len);
        sh->len = full;
    }
}

/* Put the engine outside host memory and the QP table back as the shadow
 * holds it (the write hook is the engine's own, not the snapshot's). */
static void shadow_put_back(struct eng_undo *u, struct ibe_engine *e)
{
    void (*saver)(struct ibe_engine *, uint64_t, uint64_t) = e->mem_saver;
    uint32_t swpb_hw = e->mq.swpb_hw;
    size_t written[R_SWPB], full;
    for (int r = 0; r < R_SWPB; r++) /* what may differ: up to hw as it is */
        region_at(e, r, &written[r], &full);
    for (int r = 0; r < R_SWPB; r++)
        copy_back(region_at(e, r, &full, &full), u->sh[r].bytes, written[r]);
    e->mem_saver = saver;
    e->undo = u;
    /* SWPB elements allocated since: as created */
    for (int r = R_SWPB; r <= R_PAYLOAD; r++) {
        size_t len;
        uint8_t *live = region_at(e, r, &len, &full);
        copy_back(live, u->sh[r].bytes, len);
        u->sh[r].len = len;
    }
    for (uint32_t i = e->mq.swpb_hw; i < swpb_hw; i++) {
        memset(&e->mq.swpb[i], 0, sizeof e->mq.swpb[i]);
        e->mq.swpb[i].payload = e->mq.swpb_payload + (size_t)i * ENG_PAYLOAD_SLOT;
    }
}

static struct eng_undo *undo_new(struct ibe_engine *e)
{
    struct eng_undo *u = calloc(1, sizeof *u);
    if (!u)
        abort();
    u->npages = (e->cfg.mem_bytes + UNDO_BLOCK - 1) / UNDO_BLOCK;
    u->saved = calloc(u->npages ? u->npages : 1, sizeof *u->saved);
    if (!u->saved)
        abort();
    e->undo = u;
    e->mem_saver = save_pages;
    return u;
}

static void undo_free(struct ibe_engine *e)
{
    struct eng_undo *u = e->undo;
    if (!u)
        return;
    free(u->saved);
    for (int r = 0; r < R_COUNT; r++)
        free(u->sh[r].bytes);
    free(u);
    e->undo = NULL;
    e->mem_saver = NULL;
}

/* No incremental snapshot left: the engines stop saving pages. */
static void undo_free_all(struct ibe_world *w)
{
    for (size_t i = 0; i < w->nparts; i++)
        if (!w->parts[i].size)
            undo_free(w->parts[i].obj);
}

static struct engine_copy *copy_of(struct ibe_snapshot *s, const struct ibe_engine *e)
{
    for (size_t i = 0; i < s->neng; i++)
        if (s->eng[i].e == e)
            return &s->eng[i];
    return NULL;
}

/* s and the snapshots `next` leads to from it: out of the chain, empty. */
static void go_stale(struct ibe_snapshot *s, bool toward_older)
{
    while (s) {
        struct ibe_snapshot *next = toward_older ? s->older : s->newer;
        release(s);
        s->stale = 1;
        s->older = s->newer = NULL;
        s = next;
    }
}

void eng_snapshots_drop(struct ibe_world *w)
{
    if (!w || !w->inc_newest)
        return;
    go_stale(w->inc_newest, true);
    w->inc_newest = NULL;
    undo_free_all(w);
}

/* Take s out of its world's chain; its logs join the previous snapshot's
 * (or are dropped when it is the oldest). */
static void unlink_incremental(struct ibe_snapshot *s)
{
    struct ibe_world *w = s->w;
    struct ibe_snapshot *o = s->older, *n = s->newer;
    for (size_t i = 0; i < s->neng; i++) {
        struct engine_copy *c = &s->eng[i];
        struct engine_copy *oc = o ? copy_of(o, c->e) : NULL;
        if (oc)
            log_append(&oc->log, &c->log);
        if (n)
            continue;
        /* it was the newest: the previous one is now, and the shadow
         * goes back to it */
        struct eng_undo *u = c->e->undo;
        u->log = oc ? &oc->log : NULL;
        if (oc) {
            apply_grains(u, &oc->log);
            oc->log.ngr = 0;
        }
    }
    if (o)
        o->newer = n;
    if (n)
        n->older = o;
    else
        w->inc_newest = o;
    s->older = s->newer = NULL;
    if (!w->inc_newest)
        undo_free_all(w);
}

void ibe_snapshot_free(struct ibe_snapshot *s)
{
    if (!s)
        return;
    if (s->incremental && !s->stale)
        unlink_incremental(s);
    release(s);
    free(s);
}

/* A copy of the world's n pending events whose owned blobs are copies too. */
static struct eng_event *copy_events(const struct ibe_world *w, size_t n)
{
    if (!n)
        return NULL;
    struct eng_event *out = malloc(n * sizeof *out);
    if (!out)
        abort(); /* as every allocation of the engine's running state */
    eng_world_copy_events(w, out);
    for (size_t i = 0; i < n; i++)
        if (eng_event_owned(&out[i]))
            out[i].ctx = dup_bytes(out[i].ctx, eng_event_owned(&out[i]));
    return out;
}

/* Time, random state, events and links; engines by save_engine or, for
 * an incremental snapshot, their QPs only. */
static struct ibe_snapshot *snapshot_common(struct ibe_world *w, int incremental)
{
    struct ibe_snapshot *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->w = w;
    s->incremental = (uint8_t)(incremental != 0);
    s->now = w->now;
    s->seq = w->seq;
    s->rng = w->rng;
    s->nevents = eng_world_nevents(w);
    s->events = copy_events(w, s->nevents);
    s->eng = calloc(w->nparts, sizeof *s->eng);
    s->plain = calloc(w->nparts, sizeof *s->plain);
    if (w->nparts && (!s->eng || !s->plain)) {
        release(s); /* not in the chain yet */
        free(s);
        return NULL;
    }
    for (size_t i = 0; i < w->nparts; i++) {
        const struct eng_part *p = &w->parts[i];
        if (p->size) {
            s->plain[s->nplain++] = (struct plain_copy){
                p->obj, p->size, dup_bytes(p->obj, p->size)};
        } else if (incremental) {
            struct engine_copy *c = &s->eng[s->neng++];
            c->e = p->obj;
            save_qps(c, c->e);
        } else {
            save_engine(&s->eng[s->neng++], p->obj);
        }
    }
    return s;
}

struct ibe_snapshot *ibe_world_snapshot(struct ibe_world *w)
{
    return snapshot_common(w, 0);
}

struct ibe_snapshot *ibe_world_snapshot_incremental(struct ibe_world *w)
{
    struct ibe_snapshot *s = snapshot_common(w, 1);
    if (!s)
        return NULL;
    struct ibe_snapshot *prev = w->inc_newest;
    for (size_t i = 0; i < s->neng; i++) {
        struct engine_copy *c = &s->eng[i];
        struct eng_undo *u = c->e->undo ? c->e->undo : undo_new(c->e);
        struct engine_copy *pc = prev ? copy_of(prev, c->e) : NULL;
        shadow_take(u, c->e, pc ? &pc->log : NULL);
        u->log = &c->log;
        next_generation(u);
    }
    s->older = prev;
    if (prev)
        prev->newer = s;
    w->inc_newest = s;
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

static void restore_qps(struct ibe_engine *e, const struct engine_copy *c)
{
    static const struct eng_qp none; /* a QPN the snapshot had not used */
    for (uint32_t i = 0; i < e->qp_hw; i++) { /* c->nqp <= e->qp_hw */
        const struct eng_qp *was = i < c->nqp ? &c->qps[i] : &none;
        if (e->qp[i].valid || was->valid)
            restore_qp(&e->qp[i], was, was->valid ? &c->qp[i] : NULL);
    }
}

static void restore_engine(const struct engine_copy *c)
{
    struct ibe_engine *e = c->e;
    const struct ibe_engine *was = c->self;
    uint64_t mem_hw = e->mem_hw > e->mem_top ? e->mem_hw : e->mem_top;
    uint32_t swpb_hw = e->mq.swpb_hw;
    restore_qps(e, c);
    /* the struct around the QP table: its pointers are the same objects,
     * but the write hook is the engine's own */
    void (*saver)(struct ibe_engine *, uint64_t, uint64_t) = e->mem_saver;
    struct eng_undo *undo = e->undo;
    size_t qp_start = offsetof(struct ibe_engine, qp);
    size_t qp_end = qp_start + sizeof e->qp;
    memcpy(e, was, qp_start);
    memcpy((uint8_t *)e + qp_end, (const uint8_t *)was + qp_end,
           sizeof *e - qp_end);
    e->mem_saver = saver;
    e->undo = undo;
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

/* Back to incremental snapshot s: host memory by the page logs from the
 * newest on, the shadow by the logs of the snapshots before the newest;
 * the newer snapshots go stale, s starts afresh as the newest. */
static void restore_incremental(struct ibe_world *w, struct ibe_snapshot *s)
{
    for (struct ibe_snapshot *t = w->inc_newest;; t = t->older) {
        for (size_t i = 0; i < t->neng; i++) {
            apply_pages(t->eng[i].e, &t->eng[i].log);
            apply_grains(t->eng[i].e->undo, &t->eng[i].log);
        }
        if (t == s)
            break;
    }
    go_stale(s->newer, false);
    s->newer = NULL;
    w->inc_newest = s;
    for (size_t i = 0; i < s->neng; i++) {
        struct engine_copy *c = &s->eng[i];
        struct eng_undo *u = c->e->undo;
        log_clear(&c->log);
        restore_qps(c->e, c);
        shadow_put_back(u, c->e);
        u->log = &c->log;
        next_generation(u);
    }
}

int ibe_world_restore(struct ibe_world *w, const struct ibe_snapshot *s)
{
    if (!s || s->stale || !same_parts(w, s))
        return -1;
    /* the incremental chain is changed by its restores (newer ones go
     * stale); a full restore rewrites memory without the write hook, so
     * it makes the whole chain stale */
    struct ibe_snapshot *inc = s->incremental ? w->inc_newest : NULL;
    while (inc && inc != s)
        inc = inc->older;
    if (s->incremental && !inc)
        return -1;
    if (!s->incremental)
        eng_snapshots_drop(w);
    eng_world_drop_events(w);
    for (size_t i = 0; i < s->nevents; i++) {
        struct eng_event ev = s->events[i];
        if (eng_event_owned(&ev))
            ev.ctx = dup_bytes(ev.ctx, eng_event_owned(&ev));
        eng_world_put_event(w, ev);
    }
    w->now = s->now;
    w->seq = s->seq;
    w->rng = s->rng;
    for (size_t i = 0; i < s->nplain; i++)
        copy_back(s->plain[i].obj, s->plain[i].bytes, s->plain[i].size);
    if (s->incremental)
        restore_incremental(w, inc);
    else
        for (size_t i = 0; i < s->neng; i++)
            restore_engine(&s->eng[i]);
    return 0;
}
