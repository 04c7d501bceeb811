/* SPDX-License-Identifier: Apache-2.0 */
/*
 * timing.c - the scheduler in virtual time: how a port hands its message
 * over once some module has a latency (eng_timing_route() then points the
 * engine's step table at this file's).  Part of the FIFO layer: it knows
 * ports and FIFOs, no module.
 *
 * Modules are of two kinds, by the ports they own.
 * - Stepping modules (the pipeline: DoorbellProcessing, WQEScheduler,
 *   WQEParser, DataPack, ReqPktGen, the converters, HeaderParser,
 *   ExecutionEngine, RespPktGen, RequesterRecvControl, TimerControl) take
 *   posted messages, which nobody waits for.  A message arrives when its
 *   sender's step has got that far (now + e->t_off) and no earlier than the
 *   one handed to the same module before it (one input FIFO per module);
 *   the module takes it then, or when its previous step is done if later.
 *   Until then the message waits as an event of the world, with the
 *   records waiting for the module in the boundary FIFOs and the bytes the
 *   message points to (the sender's buffers are reused at once).  A step
 *   spends the module's latency before its first hand-over and is busy
 *   until its last.
 * - Serving modules (context, address translation, DMA, MultiQueue, the
 *   scatter, receive-WQE and write-address tables, RequesterTransControl,
 *   which RequesterRecvControl drives with window questions, completions
 *   and re-sends) answer requests.  The asker waits for the answer, so the
 *   request is served within the asker's step and the server's latency is
 *   added to the asker's e->t_off: it delays whatever the asker hands over
 *   afterwards (time annotation, as loosely timed TLM models do, instead
 *   of suspending the asker).  A serving module takes nothing posted, so
 *   its requests keep their order.  Stepping modules answer a few
 *   requests too, the hardware's status reads and control lines, which do
 *   not queue behind a module's input FIFO: TimerControl's entry and
 *   retry-count questions, RequesterRecvControl's "a refused WQE is
 *   held" and its taking of one (so that nothing is issued behind a bad
 *   request before the refusal is known), the WQEScheduler's requeue and
 *   the ExecutionEngine's reset on a flush.  They may pass messages
 *   waiting for the module.
 * A posted message that arrives at once, to an idle module with nothing
 * waiting, steps the module at once, depth first, as the untimed model
 * does; with every latency 0 that is always so, and records, packets and
 * completions come in the untimed engine's order.
 */
#include "eng.h"

static bool port_posted(uint8_t port)
{
    switch (port) {
    case PORT_DB_RING: case PORT_SCHED_PUSH: case PORT_SCHED_WAKE:
    case PORT_PARSER_TAKE: case PORT_DATAPACK_TAKE: case PORT_REQPKT_SEND:
    case PORT_BW_TRANSMIT: case PORT_BW_RECEIVE: case PORT_HP_RECEIVE:
    case PORT_EE_REQUEST: case PORT_RESPPKT_SEND: case PORT_RRC_RESPONSE:
    case PORT_RRC_TIMER: case PORT_RRC_CNP: case PORT_TIMER_SET:
        return true;
    default:
        return false;
    }
}

/* The bytes cp[0] and cp[1] of a posted message point to, as its port
 * defines them.  Its p[0], where it has one, names a QP, which stays where
 * it is. */
static void carried(const struct eng_msg *m, size_t len[2])
{
    len[0] = len[1] = 0;
    switch (m->port) {
    case PORT_BW_TRANSMIT:
        len[0] = (size_t)m->a[1];
        break;
    case PORT_BW_RECEIVE: case PORT_HP_RECEIVE: case PORT_EE_REQUEST:
    case PORT_RRC_RESPONSE:
        len[0] = (size_t)m->a[0];
        break;
    case PORT_DATAPACK_TAKE:
        len[0] = sizeof(struct eng_wqe_side);
        len[1] = (size_t)m->a[0];
        break;
    case PORT_REQPKT_SEND:
        len[0] = sizeof(struct eng_hdr);
        len[1] = ((const struct eng_hdr *)m->cp[0])->paylen;
        break;
    case PORT_RESPPKT_SEND:
        len[0] = sizeof(struct rec_resp);
        len[1] = ((const struct rec_resp *)m->cp[0])->h.paylen;
        break;
    case PORT_RRC_TIMER:
        len[0] = sizeof(struct rec_texp);
        break;
    case PORT_TIMER_SET:
        len[0] = sizeof(struct rec_tset);
        break;
    default:
        break;
    }
}

/* A record taken out of its FIFO to wait with the message. */
struct held_rec {
    uint8_t ch, id, nw, to;
    uint32_t w[12];
};
/* The event's block: this, nrec records, then the bytes of cp[0] and
 * cp[1] (those that are not NULL). */
struct held {
    struct ibe_engine *e;
    struct eng_msg m;
    uint8_t mod, present[2];
    uint32_t ticket; /* its place in the module's input FIFO */
    uint32_t nrec;
    size_t len[2];
};

/* Module mod takes message m now. */
static void run_step(struct ibe_engine *e, int mod, struct eng_msg *m)
{
    e->t_off = e->lat[mod];
    e->depth++;
    e->wired[mod](e, m);
    e->depth--;
    e->free_at[mod] = e->w->now + e->t_off;
}

static void deliver(void *blob, uint64_t size)
{
    struct held *h = blob;
    struct ibe_engine *e = h->e;
    if (h->ticket != e->served[h->mod] || e->free_at[h->mod] > e->w->now) {
        /* busy, or an earlier message is still waiting: behind them.  The
         * earlier ones wait no later than the module is free (free_at
         * only grows), so they come first. */
        uint64_t free_at = e->free_at[h->mod];
        eng_at_owned(e->w, free_at > e->w->now ? free_at - e->w->now : 0,
                     deliver, blob, (size_t)size);
        return;
    }
    struct held_rec *r = (struct held_rec *)(h + 1);
    for (uint32_t i = 0; i < h->nrec; i++) {
        /* back into the FIFO the module pops; the trace saw them pushed */
        struct eng_fifo *f = &e->fifo[r[i].ch];
        if (f->count == ENG_FIFO_DEPTH)
            abort();
        uint32_t slot = (f->head + f->count) % ENG_FIFO_DEPTH;
        f->count++;
        f->id[slot] = r[i].id;
        f->nw[slot] = r[i].nw;
        f->to[slot] = r[i].to;
        memcpy(f->w[slot], r[i].w, sizeof r[i].w);
    }
    const uint8_t *bytes = (const uint8_t *)(r + h->nrec);
    struct eng_msg m = h->m;
    m.cp[0] = m.cp[1] = NULL;
    for (int i = 0; i < 2; i++)
        if (h->present[i]) {
            m.cp[i] = bytes;
            bytes += h->len[i];
        }
    e->served[h->mod]++;
    run_step(e, h->mod, &m);
    e->t_off = 0;
    free(blob); /* after the step: m points into it */
}

static void hold(struct ibe_engine *e, int mod, const struct eng_msg *m,
                 uint64_t delay)
{
    size_t len[2];
    carried(m, len);
    size_t bytes = (m->cp[0] ? len[0] : 0) + (m->cp[1] ? len[1] : 0);
    /* one consumer per boundary: the records waiting for mod are at the
     * heads of their FIFOs (counted as the loop below takes them) */
    uint32_t nrec = 0;
    for (int ch = 0; ch < CH_COUNT; ch++) {
        const struct eng_fifo *f = &e->fifo[ch];
        for (uint32_t i = 0;
             i < f->count && f->to[(f->head + i) % ENG_FIFO_DEPTH] == mod; i++)
            nrec++;
    }
    size_t size = sizeof(struct held) + nrec * sizeof(struct held_rec) + bytes;
    struct held *h = malloc(size);
    if (!h)
        abort();
    memset(h, 0, sizeof *h);
    h->e = e;
    h->m = *m;
    h->mod = (uint8_t)mod;
    h->nrec = nrec;
    struct held_rec *r = (struct held_rec *)(h + 1);
    for (int ch = 0; ch < CH_COUNT; ch++) {
        struct eng_fifo *f = &e->fifo[ch];
        while (f->count && f->to[f->head] == mod) {
            memset(r, 0, sizeof *r);
            r->ch = (uint8_t)ch;
            r->to = (uint8_t)mod;
            r->nw = f->nw[f->head];
            r->id = eng_pop(e, ch, r->w);
            r++;
        }
    }
    uint8_t *out = (uint8_t *)r;
    for (int i = 0; i < 2; i++) {
        h->present[i] = m->cp[i] != NULL;
        h->len[i] = h->present[i] ? len[i] : 0;
        if (h->len[i]) {
            memcpy(out, m->cp[i], len[i]);
            out += len[i];
        }
    }
    h->ticket = e->issued[mod]++;
    eng_at_owned(e->w, delay, deliver, h, size);
}

static void port_timed(struct ibe_engine *e, int mod, struct eng_msg *m)
{
    if (!e->depth)
        e->t_off = 0; /* the host or an event starts a step */
    if (!port_posted(m->port)) {
        e->t_off += e->lat[mod];
        e->depth++;
        e->wired[mod](e, m);
        e->depth--;
        return;
    }
    uint64_t now = e->w->now, arrive = now + e->t_off;
    if (arrive < e->last_in[mod])
        arrive = e->last_in[mod];
    e->last_in[mod] = arrive;
    if (arrive > now || e->free_at[mod] > now || e->issued[mod] != e->served[mod]) {
        uint64_t start = arrive > e->free_at[mod] ? arrive : e->free_at[mod];
        hold(e, mod, m, start - now);
        return;
    }
    /* The module's time is its own: the sender goes on at t_off 0. */
    run_step(e, mod, m);
    e->t_off = 0;
}

/* The scheduler's step table: entry mod hands the message to port_timed()
 * as a message for mod. */
#define TIMED(mod)                                                             \
    static void timed_##mod(struct ibe_engine *e, struct eng_msg *m)           \
    {                                                                          \
        port_timed(e, mod, m);                                                 \
    }
TIMED(M_HOST) TIMED(M_DOORBELL) TIMED(M_SCHED) TIMED(M_PARSER)
TIMED(M_DATAPACK) TIMED(M_REQTRANS) TIMED(M_TIMER) TIMED(M_MQ)
TIMED(M_REQPKTGEN) TIMED(M_HDRPARSER) TIMED(M_REQRECV) TIMED(M_SEM)
TIMED(M_EXEC) TIMED(M_RQWQE) TIMED(M_WAT) TIMED(M_RESPPKTGEN) TIMED(M_CXT)
TIMED(M_XLATE) TIMED(M_DMA) TIMED(M_WIRE) TIMED(M_TX256TO64)
TIMED(M_RX64TO256)
static const eng_step_fn timed_steps[M_COUNT] = {
    timed_M_HOST, timed_M_DOORBELL, timed_M_SCHED, timed_M_PARSER,
    timed_M_DATAPACK, timed_M_REQTRANS, timed_M_TIMER, timed_M_MQ,
    timed_M_REQPKTGEN, timed_M_HDRPARSER, timed_M_REQRECV, timed_M_SEM,
    timed_M_EXEC, timed_M_RQWQE, timed_M_WAT, timed_M_RESPPKTGEN, timed_M_CXT,
    timed_M_XLATE, timed_M_DMA, timed_M_WIRE, timed_M_TX256TO64,
    timed_M_RX64TO256};

void eng_timing_route(struct ibe_engine *e)
{
    e->step = e->timed ? timed_steps : e->wired;
}
