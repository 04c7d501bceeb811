/* SPDX-License-Identifier: Apache-2.0 */
/*
 * engine_raw.c - the reference engine as the device on a raw socket of its
 * own, in real time: its world's clock follows CLOCK_MONOTONIC from the
 * test's start, every frame that comes in on the interface goes to
 * ibe_engine_receive(), every frame it sends goes out on the interface.
 * It runs when the raw target waits (probe_agent.pump).  With the raw
 * target on the other end of a veth pair, this is the whole suite over a
 * real wire; it is also the seed of `ibwire peer` (issue 27).
 */
#include <stdlib.h>
#include <string.h>

#include "probe_int.h"

struct engraw {
    struct probe_agent a;
    struct probe_engdev d;
    int fd, ifindex;
    uint64_t t0;
    int txerr;
};

static void er_tx(void *ctx, struct ibe_engine *from, const uint8_t *pkt,
                  size_t len)
{
    struct engraw *s = ctx;
    (void)from;
    if (probe_rawsock_send(s->fd, s->ifindex, pkt, len))
        s->txerr = 1;
}

static void er_pump(void *ctx)
{
    struct engraw *s = ctx;
    if (!s->d.w)
        return;
    uint8_t b[PROBE_MAX_FRAME];
    size_t n;
    while (probe_rawsock_recv(s->fd, b, sizeof b, &n, NULL) == 1) {
        ibe_world_run_until(s->d.w, probe_mono_ns() - s->t0);
        ibe_engine_receive(s->d.e, b, n);
    }
    ibe_world_run_until(s->d.w, probe_mono_ns() - s->t0);
}

static int er_open(void *ctx, const struct probe_setup *su, struct probe_dev *d,
                   char *err, size_t errlen)
{
    struct engraw *s = ctx;
    uint8_t b[PROBE_MAX_FRAME];
    size_t n;
    while (probe_rawsock_recv(s->fd, b, sizeof b, &n, NULL) == 1)
        ;
    if (probe_engdev_open(&s->d, su, d, er_tx, s, err, errlen))
        return -1;
    s->t0 = probe_mono_ns();
    s->txerr = 0;
    return 0;
}

static void er_close(void *ctx)
{
    probe_engdev_close(&((struct engraw *)ctx)->d);
}

static int er_post_recv(void *ctx, uint32_t off, uint32_t len)
{
    struct engraw *s = ctx;
    er_pump(s);
    return probe_engdev_post_recv(&s->d, off, len);
}

static int er_post_send(void *ctx, const struct probe_wr *wr)
{
    struct engraw *s = ctx;
    er_pump(s);
    return probe_engdev_post_send(&s->d, wr);
}

static int er_poll(void *ctx, struct probe_cqe *c, int max)
{
    struct engraw *s = ctx;
    return s->txerr ? -1 : probe_engdev_poll(&s->d, c, max);
}

static int er_mem_read(void *ctx, int region, uint32_t off, uint8_t *buf,
                       uint32_t len)
{
    return probe_engdev_mem_read(&((struct engraw *)ctx)->d, region, off, buf, len);
}

struct probe_agent *probe_engine_raw_agent(const char *iface, char *err,
                                           size_t errlen)
{
    struct engraw *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->fd = probe_rawsock_open(iface, &s->ifindex, err, errlen);
    if (s->fd < 0) {
        free(s);
        return NULL;
    }
    s->a.name = "engine";
    s->a.ctx = s;
    s->a.open = er_open;
    s->a.close = er_close;
    s->a.post_recv = er_post_recv;
    s->a.post_send = er_post_send;
    s->a.poll = er_poll;
    s->a.mem_read = er_mem_read;
    s->a.pump = er_pump;
    return &s->a;
}

void probe_engine_raw_agent_free(struct probe_agent *a)
{
    if (!a)
        return;
    struct engraw *s = a->ctx;
    probe_engdev_close(&s->d);
    probe_rawsock_close(s->fd);
    free(s);
}
