/* SPDX-License-Identifier: Apache-2.0 */
/* check.c - the checker's entry: options, frames in, parse, dispatch to
 * the reorder stage that judges them in time order (check_order.c: the
 * packet, flow and CM rules of check_pkt.c, check_flow.c, check_cm.c), the
 * end of the capture. */
#include <stdlib.h>

#include "check_int.h"

struct chk *chk_new(const struct chk_opts *opts)
{
    struct chk *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->o = *opts;
    c->nslots = 1024;
    c->slots = calloc(c->nslots, sizeof *c->slots);
    c->keys = malloc(c->nslots * sizeof *c->keys);
    if (!c->slots || !c->keys) {
        free(c->keys);
        free(c->slots);
        free(c);
        return NULL;
    }
    return c;
}

void chk_free(struct chk *c)
{
    if (!c)
        return;
    chk_flows_free(c);
    chk_order_free(c);
    chk_l2_free(c);
    free(c->crc_held);
    free(c->pend);
    for (unsigned i = 0; i < c->ncrc_wait; i++)
        free(c->crc_wait[i].bytes);
    for (unsigned i = 0; i < c->ncutlen; i++)
        for (unsigned k = 0; k < CHK_CUT_PATTERN; k++)
            free(c->cutlen[i].msgs[k]);
    free(c->flows);
    free(c->slots);
    free(c->keys);
    chk_cm_free(c);
    free(c);
}

const struct chk_stats *chk_stats(const struct chk *c) { return &c->st; }

/* ---- frames ---- */

void chk_bytes(struct chk *c, uint64_t frame, uint64_t ts_ns,
               const uint8_t *data, size_t len, enum ibw_link link,
               int truncated)
{
    chk_order_add(c, frame, ts_ns, data, len, link, truncated, 0, NULL);
}

/* A record whose outer headers are in error: fed whole, to be judged by
 * check_outer.c in its turn.  1 when fr is one. */
static int outer_error(struct chk *c, const struct cap_frame *fr, uint64_t ts)
{
    if (fr->iba || !fr->encap.err || fr->encap.err == IBW_E_LINKTYPE ||
        !fr->outer_link)
        return 0;
    unsigned link = fr->outer_link == IBW_OUTER_SLL    ? CHK_LINK_OUTER_SLL
                    : fr->outer_link == IBW_OUTER_SLL2 ? CHK_LINK_OUTER_SLL2
                                                       : CHK_LINK_OUTER_ETHERNET;
    chk_order_add(c, fr->number, ts, fr->raw + fr->outer_at, fr->outer_bytes,
                  (enum ibw_link)link, fr->truncated, fr->caplen, NULL);
    return 1;
}

void chk_frame(struct chk *c, const struct cap_frame *fr)
{
    uint64_t ts = chk_clock(
        c, (uint64_t)fr->ts_sec * 1000000000u + fr->ts_nsec, fr->number);
    if (outer_error(c, fr, ts))
        return;
    if (fr->encap.n && fr->iba && chk_mirror_dup(c, fr, NULL)) {
        chk_order_add(c, fr->number, ts, NULL, 0, fr->link, 0, 0, NULL);
        return;
    }
    chk_order_add(c, fr->number, ts, fr->iba, fr->iba ? fr->iba_len : 0,
                  fr->link, fr->truncated, fr->caplen - fr->outer_len, NULL);
}

void chk_frame_parsed(struct chk *c, const struct cap_frame *fr,
                      const struct ibw_pkt *p)
{
    uint64_t ts = chk_clock(
        c, (uint64_t)fr->ts_sec * 1000000000u + fr->ts_nsec, fr->number);
    if (outer_error(c, fr, ts))
        return;
    if (fr->encap.n && fr->iba && chk_mirror_dup(c, fr, p)) {
        chk_order_add(c, fr->number, ts, NULL, 0, fr->link, 0, 0, NULL);
        return;
    }
    chk_order_add(c, fr->number, ts, fr->iba, fr->iba ? fr->iba_len : 0,
                  fr->link, fr->truncated, fr->caplen - fr->outer_len,
                  fr->iba ? p : NULL);
}

void chk_finish(struct chk *c)
{
    if (c->finished)
        return;
    chk_order_finish(c); /* every frame judged before the end settles */
    chk_mirror_finish(c);
    chk_clock_finish(c);
    c->finished = 1;
    chk_crc_wait_finish(c);
    chk_cm_finish(c);
    chk_flows_finish(c);
    chk_crc_finish(c);
    chk_cut_finish(c);
}
