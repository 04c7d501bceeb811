/* SPDX-License-Identifier: Apache-2.0 */
/*
 * check_order.c - the reorder stage in front of the rules: frames are
 * judged in the order of their timestamps, not of the file; and the
 * judging of one frame (the packet, CM and flow rules in turn).
 *
 * Why: a capture point may record a frame after frames that reached it
 * later, and its timestamp says so.  On a veth pair the frame is stamped
 * when the sender hands it over and queued on that CPU's backlog, which
 * may wait while the other CPU delivers frames sent later (docs/rxe-vm.md,
 * the L family); two packet sockets on one interface may then even record
 * different orders.  The rules about order (MSN, response matching, NAK
 * PSNs, the CM state machine) are statements about the order the devices
 * sent in, and the timestamps are the capture's best account of it, so
 * they judge in timestamp order.  A capture whose timestamps go backwards
 * is said once (CAP-TS-ORDER): its file order is not the wire order.
 *
 * Why here and not in the tool: the checker is fed one frame at a time by
 * the tool (file, -i, -j, --replay), by the libibwire ABI and so the
 * Python Checker; in the checker all of them get the same order.
 *
 * Bounds: a frame is held until a frame at least the window newer
 * (reorder_ns, default CHK_REORDER_DEFAULT_NS) has been fed, or until
 * CHK_REORDER_FRAMES frames or CHK_REORDER_BYTES bytes are held: memory
 * stays bounded at any rate.  A frame older than one already judged (later
 * than the window, or pushed out by the bounds) is judged where it is, and
 * so is one more than the window older than the newest (a clock stepped
 * back: the frames held were recorded before it and are judged first).
 * Equal timestamps keep the file order; findings keep the file's frame
 * numbers.  A caller that sees time pass without frames (a live capture)
 * calls chk_release() or chk_release_idle() so that what it holds is not
 * kept waiting.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_int.h"

/* ---- one frame through the rules ---- */

static void judge_parsed(struct chk *c, uint64_t frame, uint64_t ts_ns,
                         const struct ibw_pkt *pp, size_t len, int truncated)
{
    c->frame = frame;
    c->ts_ns = ts_ns;
    c->cur_flow = NULL;
    if (ts_ns >= c->expire_at) /* (a check per frame would cost) */
        chk_flows_expire(c, ts_ns);
    c->st.frames++;
    if (!c->caplen)
        c->caplen = (uint32_t)len;
    if (c->caplen > c->max_caplen)
        c->max_caplen = c->caplen;
    /* what waited for a CM message that did not come in time */
    if (c->cm_hold)
        chk_cm_expire(c);
    c->defer = 1; /* per-packet findings wait for the frame's flow */
    int go = chk_packet(c, pp, truncated);
    c->caplen = 0;
    if (go && !(c->ncm && chk_cm_hold_frame(c, pp, truncated)))
        chk_flow_packet(c, pp, truncated);
    else if (c->o.rc_hook && c->crc_good && ibw_pkt_has(pp, IBW_HDR_BTH) &&
             (pp->icrc_status == IBW_CRC_BAD || pp->vcrc_status == IBW_CRC_BAD))
        c->o.rc_hook(c->o.rc_hook_user, NULL, pp, frame,
                     (ibw_opcode_info(pp->opcode)->flags & IBW_OPF_REQUEST) != 0);
    c->frame = frame;
    chk_report_flush(c, NULL); /* those of a frame that joined no flow */
    c->defer = 0;
}

/* A frame with no IBA packet: counted, and its time ends idle flows. */
static void judge_other(struct chk *c, uint64_t frame, uint64_t ts)
{
    c->frame = frame;
    c->ts_ns = ts;
    c->st.frames++;
    c->st.not_iba++;
    if (ts >= c->expire_at)
        chk_flows_expire(c, ts);
}

/* Judge one frame now: the rules, in the order called.  caplen 0: the
 * recorded length is iba_len; p NULL: not parsed yet. */
static void judge_one(struct chk *c, uint64_t frame, uint64_t ts_ns,
                      const uint8_t *iba, size_t iba_len, enum ibw_link link,
                      int truncated, uint32_t caplen, const struct ibw_pkt *p)
{
    if (caplen > c->max_caplen)
        c->max_caplen = caplen;
    if (!iba) {
        judge_other(c, frame, ts_ns);
        return;
    }
    if (chk_link_outer(link)) {
        chk_outer_frame(c, frame, ts_ns, iba, iba_len, link, truncated,
                        caplen);
        return;
    }
    c->caplen = caplen;
    struct ibw_pkt parsed;
    if (!p) {
        ibw_parse(iba, iba_len, link, &parsed);
        p = &parsed;
    }
    judge_parsed(c, frame, ts_ns, p, iba_len, truncated);
}

/* The frames the L2 stage (check_l2.c) released, oldest first. */
static void judge_l2_released(struct chk *c)
{
    const struct chk_order_frame *h;
    while ((h = chk_l2_release(c)))
        judge_one(c, h->frame, h->ts_ns, h->has_iba ? h->bytes : NULL,
                  h->iba_len, (enum ibw_link)h->link, h->truncated, h->caplen,
                  NULL);
}

/* Judge one frame, unless the capture's verdict on its Ethernet source
 * address holds it (check_l2.c). */
static void judge_frame(struct chk *c, uint64_t frame, uint64_t ts_ns,
                        const uint8_t *iba, size_t iba_len, enum ibw_link link,
                        int truncated, uint32_t caplen, const struct ibw_pkt *p)
{
    struct ibw_pkt parsed;
    if (iba && !p && !chk_link_outer(link)) {
        ibw_parse(iba, iba_len, link, &parsed);
        p = &parsed;
    }
    /* The capture's L2 verdict is taken and nothing waits for it: the L2
     * stage would hand the frame straight back (chk_l2_feed returns 0 when
     * its state is decided and it holds nothing), so the record it would
     * be given is not built. */
    if (c->l2.state != CHK_L2_UNDECIDED && !c->l2.nheld) {
        judge_one(c, frame, ts_ns, iba, iba_len, link, truncated, caplen, p);
        return;
    }
    struct chk_order_frame fr = {0};
    fr.frame = frame;
    fr.ts_ns = ts_ns;
    fr.caplen = caplen;
    fr.iba_len = iba ? (uint32_t)iba_len : 0;
    fr.link = (uint8_t)link;
    fr.truncated = (uint8_t)(truncated != 0);
    fr.has_iba = iba != NULL;
    int held = chk_l2_feed(c, &fr, iba, iba ? p : NULL);
    if (held)
        judge_l2_released(c);
    if (held <= 0)
        judge_one(c, frame, ts_ns, iba, iba_len, link, truncated, caplen, p);
}

/* ---- the stage ---- */


/* Room for one more held frame; 0 without memory.  The frames sit in a
 * pool and the ring orders their indices, so that a late frame moves back
 * past the ones stamped after it by moving indices, not frames. */
static int order_room(struct chk_order *o)
{
    if (o->n < o->cap)
        return 1;
    uint32_t ncap = o->cap ? o->cap * 2 : 64;
    struct chk_order_frame *pool = realloc(o->pool, ncap * sizeof *pool);
    if (!pool)
        return 0;
    o->pool = pool;
    /* a new slot needs no buffer yet; everything else is written when a
     * frame is held in it (a memset of the whole slot, struct ibw_pkt
     * included, was the most of a short capture's cost here) */
    for (uint32_t i = o->cap; i < ncap; i++) {
        pool[i].bytes = NULL;
        pool[i].bytes_cap = 0;
    }
    uint32_t *ring = malloc(ncap * sizeof *ring);
    uint32_t *spare = realloc(o->spare, ncap * sizeof *spare);
    if (!ring || !spare) {
        free(ring);
        if (spare)
            o->spare = spare;
        return 0; /* the pool grew, unused: no harm */
    }
    for (uint32_t i = 0; i < o->n; i++)
        ring[i] = o->ring[(o->head + i) & (o->cap - 1)];
    free(o->ring);
    o->ring = ring;
    o->spare = spare;
    for (uint32_t i = o->cap; i < ncap; i++) /* full: no spare before */
        o->spare[o->nspare++] = i;
    o->head = 0;
    o->cap = ncap;
    return 1;
}

static struct chk_order_frame *held_at(struct chk_order *o, uint32_t i)
{
    return &o->pool[o->ring[(o->head + i) & (o->cap - 1)]];
}

static void judge_now(struct chk *c, uint64_t frame, uint64_t ts_ns,
                      const uint8_t *iba, size_t iba_len, enum ibw_link link,
                      int truncated, uint32_t caplen, const struct ibw_pkt *p)
{
    struct chk_order *o = &c->order;
    if (!o->judged_any || ts_ns > o->judged_ts)
        o->judged_ts = ts_ns;
    o->judged_any = 1;
    judge_frame(c, frame, ts_ns, iba, iba_len, link, truncated, caplen, p);
}

static void judge_held(struct chk *c, struct chk_order_frame *h)
{
    const uint8_t *b = h->borrowed ? h->borrowed : h->bytes;
    judge_now(c, h->frame, h->ts_ns, h->has_iba ? b : NULL, h->iba_len,
              (enum ibw_link)h->link, h->truncated, h->caplen,
              h->parsed ? &h->pkt : NULL);
}

/* Judge the oldest held frame. */
static void release_one(struct chk *c)
{
    struct chk_order *o = &c->order;
    uint32_t k = o->ring[o->head];
    struct chk_order_frame *h = &o->pool[k];
    o->head = (o->head + 1) & (o->cap - 1);
    o->n--;
    o->bytes -= h->iba_len;
    o->spare[o->nspare++] = k; /* its buffer stays with it, to be reused */
    judge_held(c, h); /* nothing is held while a frame is judged */
}

/* Judge what the window no longer holds: frames older than newest - window
 * and those past the frame and byte bounds. */
static void release_before(struct chk *c, uint64_t newest)
{
    struct chk_order *o = &c->order;
    uint64_t w = chk_reorder_window(c);
    while (o->n) {
        const struct chk_order_frame *h = held_at(o, 0);
        if (newest - h->ts_ns < w && o->n <= CHK_REORDER_FRAMES &&
            o->bytes <= CHK_REORDER_BYTES)
            break;
        release_one(c);
    }
}

void chk_order_add(struct chk *c, uint64_t frame, uint64_t ts_ns,
                   const uint8_t *iba, size_t iba_len, enum ibw_link link,
                   int truncated, uint32_t caplen, const struct ibw_pkt *p)
{
    struct chk_order *o = &c->order;
    /* CAP-TS-ORDER: recorded after a frame with a later timestamp */
    if (o->fed_any && ts_ns < o->newest_ts) {
        uint64_t back = o->newest_ts - ts_ns;
        if (!o->late++)
            o->late_first = frame;
        if (back > o->late_back) {
            o->late_back = back;
            o->late_back_frame = frame;
        }
        if ((o->judged_any && ts_ns < o->judged_ts) ||
            back >= chk_reorder_window(c))
            o->late_judged++;
    }
    /* later than the window (or the clock stepped back): what is held was
     * recorded before it and is judged first */
    int beyond = o->fed_any && ts_ns < o->newest_ts &&
                 o->newest_ts - ts_ns >= chk_reorder_window(c);
    if (!o->fed_any || ts_ns > o->newest_ts)
        o->newest_ts = ts_ns;
    o->fed_any = 1;
    /* in_order: the feeder knows that no frame still to come is stamped
     * before this one (chk_feed_all on a file whose every timestamp is
     * checked, cap_ts_ordered).  Holding it could then change nothing: a
     * frame moves back in the ring only past held frames stamped after it
     * (none will come), and is "beyond" only when stamped a window before
     * the newest (none will be); so every frame fed is judged in the
     * order fed, as it would be after waiting, and judged_ts stays at most
     * the stamp of any frame to come, so the CAP-TS-ORDER counts above are
     * those of waiting too.  Not holding it saves the ring's work and
     * judges its bytes while they are still in the cache. */
    if (beyond || c->o.reorder_ns == CHK_REORDER_NONE || o->in_order ||
        !order_room(o)) {
        /* where it is (too late, asked, or no memory to hold it) */
        while (o->n)
            release_one(c);
        judge_now(c, frame, ts_ns, iba, iba_len, link, truncated, caplen, p);
        return;
    }
    uint32_t k = o->spare[o->nspare - 1];
    struct chk_order_frame *h = &o->pool[k];
    /* a frame whose bytes the reader keeps is held where it is: the common
     * case, a frame in order, costs no copy (only its place in the ring) */
    h->borrowed = o->borrow && iba ? iba : NULL;
    if (iba && !h->borrowed && iba_len > h->bytes_cap) {
        uint8_t *nb = realloc(h->bytes, iba_len);
        if (!nb) {
            while (o->n)
                release_one(c);
            judge_now(c, frame, ts_ns, iba, iba_len, link, truncated, caplen,
                      p);
            return;
        }
        h->bytes = nb;
        h->bytes_cap = iba_len;
    }
    h->frame = frame;
    h->ts_ns = ts_ns;
    h->caplen = caplen;
    h->link = (uint8_t)link;
    h->truncated = (uint8_t)(truncated != 0);
    h->has_iba = iba != NULL;
    h->iba_len = iba ? (uint32_t)iba_len : 0;
    h->parsed = p != NULL;
    if (iba && iba_len && !h->borrowed) /* (an empty frame has no buffer) */
        memcpy(h->bytes, iba, iba_len);
    if (p) {
        h->pkt = *p;
        /* the view's offsets are from data */
        h->pkt.data = h->borrowed ? h->borrowed : h->bytes;
    }
    o->nspare--;
    uint32_t mask = o->cap - 1, at = o->n++;
    o->ring[(o->head + at) & mask] = k;
    o->bytes += h->iba_len;
    /* stable insertion by timestamp: a late frame moves back past the held
     * frames stamped after it (most frames are in order and stay put) */
    for (; at > 0; at--) {
        uint32_t *before = &o->ring[(o->head + at - 1) & mask],
                 *here = &o->ring[(o->head + at) & mask];
        if (o->pool[*before].ts_ns <= ts_ns)
            break;
        uint32_t t = *before;
        *before = *here;
        *here = t;
    }
    release_before(c, o->newest_ts);
}

void chk_order_unborrow(struct chk *c)
{
    struct chk_order *o = &c->order;
    o->borrow = 0;
    for (uint32_t i = 0; i < o->n; i++) {
        struct chk_order_frame *h = held_at(o, i);
        if (!h->borrowed)
            continue;
        if (h->iba_len > h->bytes_cap) {
            uint8_t *nb = realloc(h->bytes, h->iba_len);
            if (!nb) { /* no memory to hold them: judged now */
                while (o->n)
                    release_one(c);
                return;
            }
            h->bytes = nb;
            h->bytes_cap = h->iba_len;
        }
        if (h->iba_len)
            memcpy(h->bytes, h->borrowed, h->iba_len);
        h->borrowed = NULL;
        if (h->parsed)
            h->pkt.data = h->bytes;
    }
}

void chk_release(struct chk *c, uint64_t now_ns)
{
    if (!c || c->finished)
        return;
    release_before(c, now_ns > c->order.newest_ts ? now_ns
                                                  : c->order.newest_ts);
}

void chk_release_idle(struct chk *c, uint64_t idle_ns)
{
    if (!c || c->finished || !c->order.fed_any)
        return;
    uint64_t newest = c->order.newest_ts;
    chk_release(c, idle_ns > UINT64_MAX - newest ? UINT64_MAX : newest + idle_ns);
}

void chk_order_finish(struct chk *c)
{
    struct chk_order *o = &c->order;
    while (o->n)
        release_one(c);
    chk_l2_end(c); /* what waited for the L2 verdict is judged as recorded */
    judge_l2_released(c);
    chk_l2_note(c);
    if (!o->late)
        return;
    uint64_t saved = c->frame;
    c->frame = o->late_first;
    c->cur_flow = NULL;
    unsigned long long us = (unsigned long long)(o->late_back / 1000u);
    char how[160];
    if (c->o.reorder_ns == CHK_REORDER_NONE)
        snprintf(how, sizeof how, "judged in file order (--reorder 0)");
    else if (o->late_judged)
        snprintf(how, sizeof how,
                 "judged in timestamp order, but %llu came more than the "
                 "reorder window late and were judged where they are",
                 (unsigned long long)o->late_judged);
    else
        snprintf(how, sizeof how, "judged in timestamp order");
    chk_report(c, CHK_R_CAP_TS_ORDER,
               "%llu frame%s recorded after a frame with a later timestamp "
               "(the largest step back %llu.%03llu ms, frame %llu): the file "
               "order is not the order on the wire; %s",
               (unsigned long long)o->late, o->late == 1 ? "" : "s",
               us / 1000u, us % 1000u,
               (unsigned long long)o->late_back_frame, how);
    c->frame = saved;
}

void chk_order_free(struct chk *c)
{
    struct chk_order *o = &c->order;
    for (uint32_t i = 0; i < o->cap; i++)
        free(o->pool[i].bytes);
    free(o->pool);
    free(o->ring);
    free(o->spare);
    memset(o, 0, sizeof *o);
}
