/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pair_world.h - the world the snapshot tests run: two engines, each
 * with one buffer registered with every right, a CQ and an RC QP, joined
 * by a lossy link and connected; both engines traced and the link tapped
 * into the run the test points `*recording` at (hooks and contexts are
 * part of a snapshot, so the pointer, not the run, is their context).
 */
#ifndef ENGINE_PAIR_WORLD_H
#define ENGINE_PAIR_WORLD_H

#include <string.h>

#include "engine.h"
#include "run_digest.h"
#include "testutil.h"

struct pair_shape {
    uint64_t seed;
    uint64_t mem, buf, buf_align;
    uint32_t cq_depth, qp_depth, first_psn;
    struct ibe_link_params link;
};

struct pair_world {
    struct ibe_world *w;
    struct ibe_engine *e[2];
    struct ibe_link *l;
    uint32_t qpn[2], cq[2], lkey[2], rkey[2];
    uint64_t buf[2];
};

static inline void pair_build(struct pair_world *s, const struct pair_shape *k,
                              struct run_digest **recording)
{
    memset(s, 0, sizeof *s);
    s->w = ibe_world_create(k->seed);
    for (int i = 0; i < 2; i++) {
        struct ibe_config c = {k->mem, IBE_FRAME_ROCEV2, 0, 0x0A000001u + (uint32_t)i,
                               {2, 0, 0, 0, 0, (uint8_t)(1 + i)}};
        s->e[i] = ibe_engine_create(s->w, &c);
        ibe_engine_set_trace(s->e[i], digest_trace_hook, recording);
        s->buf[i] = ibe_mem_alloc(s->e[i], k->buf, k->buf_align);
        TU_EQ(ibe_mr_reg(s->e[i], 1, s->buf[i], k->buf, 0xF, &s->lkey[i], &s->rkey[i]), 0);
        s->cq[i] = ibe_cq_create(s->e[i], k->cq_depth);
        struct ibe_qp_attr a = {IBE_RC, 1, s->cq[i], s->cq[i], k->qp_depth,
                                k->qp_depth, 0, 0xFFFF};
        s->qpn[i] = ibe_qp_create(s->e[i], &a);
    }
    s->l = ibe_link_create(s->w, s->e[0], s->e[1], &k->link);
    ibe_link_set_tap(s->l, digest_tap_hook, recording);
    for (int i = 0; i < 2; i++) {
        struct ibe_qp_conn c = {s->qpn[1 - i], k->first_psn, k->first_psn, 1024,
                                7, 7, 8, 1, 0};
        TU_EQ(ibe_qp_connect(s->e[i], s->qpn[i], &c), 0);
    }
}

static inline void pair_destroy(struct pair_world *s)
{
    ibe_link_destroy(s->l);
    ibe_engine_destroy(s->e[0]);
    ibe_engine_destroy(s->e[1]);
    ibe_world_destroy(s->w);
}

#endif
