/* SPDX-License-Identifier: Apache-2.0 */
/*
 * target_self.c - the self target: ibwire's reference engine as the device
 * under test, in the probe's process.  A fresh world and engine per test;
 * frames to the device go to ibe_engine_receive(), frames from it are
 * queued by its transmit hook with their virtual time; the device itself
 * and its device-side operations are engdev.c's.  Waiting runs the world in steps of QUANTUM_NS of virtual
 * time, so the probe acts within 2 us of the frame it waited for.
 *
 * A breakage (`ibwire probe --self-break NAME`) alters the engine's frames
 * on their way out, so that the suite is seen to fail when the device
 * misbehaves.  The engine's own fault modes (`ibwire probe --self --fault
 * NAME`, probe_self_target_set_faults()) make the device itself misbehave
 * (README.md, "Fault modes").
 */
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "ibwire/packet.h"
#include "ibwire/wire.h"
#include "probe.h"
#include "probe_int.h"

#define QUANTUM_NS 2000u
#define MAXQ 1024

enum brk {
    BRK_NONE, BRK_DROP_SEQ_NAK, BRK_MSN_ZERO, BRK_DROP_RNR_NAK
};
const char *const probe_self_breaks[] = {
    "drop-seq-nak: the device never sends a PSN sequence error NAK",
    "msn-zero: every AETH the device sends carries MSN 0",
    "drop-rnr-nak: the device never sends an RNR NAK",
    NULL
};

struct qframe {
    uint64_t at;
    size_t len;
    uint8_t b[PROBE_MAX_FRAME];
};

struct self {
    struct probe_target t;
    int brk;
    struct probe_engdev d;
    struct qframe *q;
    size_t qhead, qn;
    int overflow;
};

/* The breakage: 0 to drop the frame. */
static int broken(struct self *s, uint8_t *f, size_t len)
{
    if (s->brk == BRK_NONE)
        return 1;
    struct ibw_pkt v;
    if (ibw_parse(f, len, IBW_LINK_ETHERNET, &v) != IBW_OK)
        return 1;
    const uint8_t *ca = ibw_pkt_hdr(&v, IBW_HDR_AETH);
    if (!ca)
        return 1;
    size_t off = (size_t)(ca - f);
    uint8_t syn = ibw_aeth_get_syndrome(ca);
    if (s->brk == BRK_DROP_SEQ_NAK && syn == 0x60)
        return 0;
    if (s->brk == BRK_DROP_RNR_NAK && (syn & 0xE0) == 0x20)
        return 0;
    if (s->brk == BRK_MSN_ZERO) {
        f[off + 1] = f[off + 2] = f[off + 3] = 0;
        probe_frame_fix(f, len);
    }
    return 1;
}

static void self_tx(void *ctx, struct ibe_engine *from, const uint8_t *pkt,
                    size_t len)
{
    struct self *s = ctx;
    (void)from;
    if (s->qn >= MAXQ || len > PROBE_MAX_FRAME) {
        s->overflow = 1;
        return;
    }
    struct qframe *f = &s->q[(s->qhead + s->qn) % MAXQ];
    f->at = ibe_now(s->d.w);
    f->len = len;
    memcpy(f->b, pkt, len);
    if (broken(s, f->b, len))
        s->qn++;
}

static void self_close(void *ctx)
{
    struct self *s = ctx;
    probe_engdev_close(&s->d);
}

static int self_open(void *ctx, const struct probe_setup *su,
                     struct probe_dev *d, char *err, size_t errlen)
{
    struct self *s = ctx;
    s->qhead = s->qn = 0;
    s->overflow = 0;
    if (probe_engdev_open(&s->d, su, d, self_tx, s, err, errlen))
        return -1;
    d->caps |= PROBE_CAP_VTIME;
    return 0;
}

static uint64_t self_now(void *ctx)
{
    struct self *s = ctx;
    return ibe_now(s->d.w);
}

static int self_send(void *ctx, const uint8_t *f, size_t len)
{
    struct self *s = ctx;
    ibe_engine_receive(s->d.e, f, len);
    ibe_world_run_until(s->d.w, ibe_now(s->d.w)); /* what is due now */
    return 0;
}

static int self_recv(void *ctx, uint8_t *buf, size_t cap, size_t *len,
                     uint64_t *at, uint64_t deadline)
{
    struct self *s = ctx;
    for (;;) {
        if (s->overflow)
            return -1;
        if (s->qn) {
            struct qframe *f = &s->q[s->qhead];
            s->qhead = (s->qhead + 1) % MAXQ;
            s->qn--;
            *len = f->len < cap ? f->len : cap;
            memcpy(buf, f->b, *len);
            *at = f->at;
            return 1;
        }
        uint64_t now = ibe_now(s->d.w);
        if (now >= deadline)
            return 0;
        uint64_t next = now + QUANTUM_NS < deadline ? now + QUANTUM_NS : deadline;
        ibe_world_run_until(s->d.w, next);
    }
}

static int self_post_recv(void *ctx, uint32_t off, uint32_t len)
{
    return probe_engdev_post_recv(&((struct self *)ctx)->d, off, len);
}

static int self_post_send(void *ctx, const struct probe_wr *wr)
{
    return probe_engdev_post_send(&((struct self *)ctx)->d, wr);
}

static int self_poll(void *ctx, struct probe_cqe *c, int max)
{
    return probe_engdev_poll(&((struct self *)ctx)->d, c, max);
}

static int self_mem_read(void *ctx, int region, uint32_t off, uint8_t *buf,
                         uint32_t len)
{
    return probe_engdev_mem_read(&((struct self *)ctx)->d, region, off, buf, len);
}

void probe_self_target_set_faults(struct probe_target *t, uint64_t faults)
{
    ((struct self *)t->ctx)->d.faults = faults;
}

void probe_self_target_set_choices(struct probe_target *t, uint64_t choices)
{
    ((struct self *)t->ctx)->d.choices = choices;
}

struct probe_target *probe_self_target(const char *brk)
{
    int b = BRK_NONE;
    if (brk) {
        static const char *const names[] = {"drop-seq-nak", "msn-zero",
                                            "drop-rnr-nak"};
        for (int i = 0; i < 3; i++)
            if (!strcmp(brk, names[i]))
                b = i + 1;
        if (b == BRK_NONE)
            return NULL;
    }
    struct self *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->q = calloc(MAXQ, sizeof *s->q);
    if (!s->q) {
        free(s);
        return NULL;
    }
    s->brk = b;
    s->t.name = "self";
    s->t.ctx = s;
    s->t.open = self_open;
    s->t.close = self_close;
    s->t.now = self_now;
    s->t.send = self_send;
    s->t.recv = self_recv;
    s->t.post_recv = self_post_recv;
    s->t.post_send = self_post_send;
    s->t.poll = self_poll;
    s->t.mem_read = self_mem_read;
    return &s->t;
}

void probe_self_target_free(struct probe_target *t)
{
    if (!t)
        return;
    struct self *s = t->ctx;
    self_close(s);
    free(s->q);
    free(s);
}
