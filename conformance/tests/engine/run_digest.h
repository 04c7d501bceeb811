/* SPDX-License-Identifier: Apache-2.0 */
/*
 * run_digest.h - what an engine run shows, folded into hashes: every
 * record the trace hook sees (time, name, source, destination, words) and
 * every packet the link's tap sees (time, bytes).  Tests that must show
 * two runs behave alike compare digests.
 */
#ifndef ENGINE_RUN_DIGEST_H
#define ENGINE_RUN_DIGEST_H

#include <stdint.h>
#include <string.h>

#include "engine.h"

struct run_digest {
    uint64_t trace, wire, records, packets;
};

static uint64_t digest_bytes(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001B3ull; /* FNV-1a */
    return h;
}

static void digest_record(struct run_digest *d, const struct ibe_trace_rec *r)
{
    d->records++;
    d->trace = digest_bytes(d->trace, &r->time, sizeof r->time);
    d->trace = digest_bytes(d->trace, r->rec, strlen(r->rec));
    d->trace = digest_bytes(d->trace, r->from, strlen(r->from));
    d->trace = digest_bytes(d->trace, r->to, strlen(r->to));
    d->trace = digest_bytes(d->trace, r->words, r->nwords * sizeof r->words[0]);
}

static void digest_packet(struct run_digest *d, uint64_t t, const uint8_t *pkt,
                          size_t len)
{
    d->packets++;
    d->wire = digest_bytes(d->wire, &t, sizeof t);
    d->wire = digest_bytes(d->wire, pkt, len);
}

/* Trace and tap hooks for a run chosen later: their context is the
 * address of the test's `struct run_digest *`, which the test points at
 * the run being recorded (the hooks and their contexts are part of a world
 * snapshot, so a restored world keeps writing where the pointer says). */
static inline void digest_trace_hook(void *ctx, struct ibe_engine *e,
                                     const struct ibe_trace_rec *r)
{
    (void)e;
    digest_record(*(struct run_digest **)ctx, r);
}

static inline void digest_tap_hook(void *ctx, uint64_t t, const uint8_t *pkt,
                                   size_t len)
{
    digest_packet(*(struct run_digest **)ctx, t, pkt, len);
}

#endif
