/* SPDX-License-Identifier: Apache-2.0 */
/*
 * check_fuzzer.c - the conformance checker fed a stream of frames.
 *
 * Input: byte 0 picks the configured PMTU (0 = learn per flow, or 256 ..
 * 4096); then frames, each as a 2-byte little-endian length, a flags byte
 * (bit 0: native InfiniBand, else Ethernet; bit 1: marked truncated) and
 * that many bytes.  Time advances 1 us per frame, or by the flags' upper
 * bits to reach the checker's timeouts.
 *
 * Properties (the checker's own invariants):
 *   - every finding names the frame being fed, an existing rule with that
 *     rule's severity, and a message;
 *   - the counters agree with the findings reported and the frames fed;
 *   - every flow summary stays within the frames fed and its own counts;
 *   - a second checker fed the same stream reports the same findings
 *     (no state leaks between runs, no dependence on addresses).
 */
#include <ibwire/packet.h>

#include "check.h"
#include "fuzz_common.h"
#include "rules.h"

struct tally {
    uint64_t frame; /* the frame being fed */
    uint64_t n, errors, warnings;
    uint64_t per_rule[CHK_RULE_COUNT];
    uint64_t hash;  /* of (frame, rule) in report order */
    uint64_t ended; /* flows ended (idle) before the end */
};

static void on_finding(void *user, const struct chk_finding *f)
{
    struct tally *t = user;
    /* a finding names the frame being fed, or an earlier one it settles
     * (held responses, deferred cuts and CRCs, end-of-capture notes) */
    FUZZ_CHECK(f->frame >= 1 && f->frame <= t->frame);
    FUZZ_CHECK(f->rule < CHK_RULE_COUNT);
    FUZZ_CHECK(f->severity == chk_rule(f->rule)->severity);
    FUZZ_CHECK(f->message != NULL);
    (void)strlen(f->message);
    t->n++;
    t->per_rule[f->rule]++;
    if (f->severity == CHK_ERROR)
        t->errors++;
    else
        t->warnings++;
    t->hash = (t->hash ^ (f->frame * 1000003u + f->rule)) * 0x100000001B3u;
}

struct flow_walk {
    uint64_t frames;
    size_t n;
};

static void on_flow(void *user, const struct chk_flow_summary *s)
{
    struct flow_walk *w = user;
    char buf[128];
    w->n++;
    FUZZ_CHECK(s->id >= 1);
    FUZZ_CHECK(s->first_frame >= 1 && s->first_frame <= s->last_frame &&
               s->last_frame <= w->frames);
    FUZZ_CHECK(s->requests + s->responses >= 1);
    FUZZ_CHECK(s->requests + s->responses <= w->frames);
    FUZZ_CHECK(s->transport != NULL);
    chk_addr_str(&s->req, buf, sizeof buf);
    FUZZ_CHECK(memchr(buf, 0, sizeof buf) != NULL);
    chk_addr_str(&s->resp, buf, 8); /* a short buffer is cut, not overrun */
    FUZZ_CHECK(memchr(buf, 0, 8) != NULL);
}

/* A flow ended before the end: a summary as sound as a live one's, about
 * frames already fed. */
static void on_flow_end(void *user, const struct chk_flow_summary *s)
{
    struct tally *t = user;
    struct flow_walk w = {t->frame, 0};
    t->ended++;
    t->hash = (t->hash ^ s->id) * 0x100000001B3u;
    on_flow(&w, s);
}

static uint64_t run(const uint8_t *data, size_t size, struct tally *t)
{
    static const uint32_t pmtus[] = {0, 256, 512, 1024, 2048, 4096};
    struct chk_opts o;
    memset(&o, 0, sizeof o);
    memset(t, 0, sizeof *t);
    o.pmtu = pmtus[data[0] % 6];
    o.report = on_finding;
    o.user = t;
    o.flow_end = on_flow_end;
    /* flows idle for 50 ms end (frames may be up to a second apart) */
    o.flow_idle_ns = data[0] & 0x80 ? 50000000u : 0;
    struct chk *c = chk_new(&o);
    FUZZ_CHECK(c != NULL);
    size_t pos = 1, len;
    uint64_t ts = 1000000000u;
    const uint8_t *frame;
    uint8_t flags;
    while (fuzz_next_frame(data, size, &pos, &frame, &len, &flags)) {
        ts += fuzz_frame_gap_ns(flags);
        t->frame++;
        chk_bytes(c, t->frame, ts, frame, len,
                  flags & 1 ? IBW_LINK_IB : IBW_LINK_ETHERNET, flags & 2);
    }
    chk_finish(c);
    const struct chk_stats *st = chk_stats(c);
    FUZZ_CHECK(st->frames == t->frame);
    FUZZ_CHECK(st->iba + st->not_iba == st->frames);
    FUZZ_CHECK(st->errors == t->errors && st->warnings == t->warnings);
    for (unsigned r = 0; r < CHK_RULE_COUNT; r++)
        FUZZ_CHECK_AT(st->per_rule[r] == t->per_rule[r], chk_rule(r)->id);
    struct flow_walk w = {t->frame, 0};
    chk_flows(c, on_flow, &w);
    FUZZ_CHECK(w.n + t->ended <= st->iba);
    chk_free(c);
    return t->hash;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct tally a, b;
    if (size < 1)
        return 0;
    uint64_t h1 = run(data, size, &a);
    uint64_t h2 = run(data, size, &b);
    FUZZ_CHECK(h1 == h2 && a.n == b.n);
    return 0;
}
