/* SPDX-License-Identifier: Apache-2.0 */
/*
 * target_raw.c - the raw-socket target: frames to and from the device over
 * an AF_PACKET socket on an interface, on the monotonic clock (its zero is
 * the test's start); the device-side operations are an agent's (struct
 * probe_agent): the device's own agent, or the reference engine on the
 * other end of a veth pair (engine_raw.c), which runs whenever the target
 * waits.
 */
#include <stdlib.h>
#include <string.h>

#include "probe_int.h"

#define WAIT_NS 20000u /* at most this long between a device's turns */

struct raw {
    struct probe_target t;
    struct probe_agent *ag;
    int fd, ifindex;
    uint64_t t0;
};

/* A RoCEv2 frame: IPv4, UDP, destination port 4791.  A device on a host
 * stack also answers what is not RoCEv2 (an ICMP port unreachable for
 * the probe's frame to another UDP port): not the device's transport, not
 * what a test judges. */
static int rocev2(const uint8_t *f, size_t len)
{
    if (len < 14 + 20 + 8 || (f[14] >> 4) != 4)
        return 0;
    size_t ihl = (size_t)(f[14] & 15) * 4;
    if (ihl < 20 || len < 14 + ihl + 8 || f[14 + 9] != 17)
        return 0;
    return (f[14 + ihl + 2] << 8 | f[14 + ihl + 3]) == 4791;
}

static uint64_t raw_now(void *ctx)
{
    struct raw *s = ctx;
    return probe_mono_ns() - s->t0;
}

static void pump(struct raw *s)
{
    if (s->ag->pump)
        s->ag->pump(s->ag->ctx);
}

static int raw_open(void *ctx, const struct probe_setup *su, struct probe_dev *d,
                    char *err, size_t errlen)
{
    struct raw *s = ctx;
    uint8_t b[PROBE_MAX_FRAME];
    size_t n;
    while (probe_rawsock_recv(s->fd, b, sizeof b, &n, NULL) == 1)
        ; /* what the previous test left on the wire */
    if (s->ag->open(s->ag->ctx, su, d, err, errlen))
        return -1;
    d->caps &= ~(uint32_t)PROBE_CAP_VTIME;
    s->t0 = probe_mono_ns();
    return 0;
}

static void raw_close(void *ctx)
{
    struct raw *s = ctx;
    s->ag->close(s->ag->ctx);
}

static int raw_send(void *ctx, const uint8_t *f, size_t len)
{
    struct raw *s = ctx;
    int rc = probe_rawsock_send(s->fd, s->ifindex, f, len);
    pump(s);
    return rc;
}

static int raw_recv(void *ctx, uint8_t *buf, size_t cap, size_t *len,
                    uint64_t *at, uint64_t deadline)
{
    struct raw *s = ctx;
    for (;;) {
        pump(s);
        uint64_t k = 0;
        int g = probe_rawsock_recv(s->fd, buf, cap, len, &k);
        if (g == 1 && !rocev2(buf, *len))
            continue;
        if (g) {
            *at = k > s->t0 ? k - s->t0 : 0; /* the kernel's time of it */
            return g;
        }
        uint64_t now = raw_now(s);
        if (now >= deadline)
            return 0;
        probe_rawsock_wait(s->fd, deadline - now < WAIT_NS ? deadline - now : WAIT_NS);
    }
}

static int raw_post_recv(void *ctx, uint32_t off, uint32_t len)
{
    struct raw *s = ctx;
    int rc = s->ag->post_recv(s->ag->ctx, off, len);
    pump(s);
    return rc;
}

static int raw_post_send(void *ctx, const struct probe_wr *wr)
{
    struct raw *s = ctx;
    int rc = s->ag->post_send(s->ag->ctx, wr);
    pump(s);
    return rc;
}

static int raw_poll(void *ctx, struct probe_cqe *c, int max)
{
    struct raw *s = ctx;
    pump(s);
    return s->ag->poll(s->ag->ctx, c, max);
}

static int raw_mem_read(void *ctx, int region, uint32_t off, uint8_t *buf,
                        uint32_t len)
{
    struct raw *s = ctx;
    pump(s);
    return s->ag->mem_read(s->ag->ctx, region, off, buf, len);
}

struct probe_target *probe_raw_target(const char *iface, struct probe_agent *ag,
                                      char *err, size_t errlen)
{
    struct raw *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->fd = probe_rawsock_open(iface, &s->ifindex, err, errlen);
    if (s->fd < 0) {
        free(s);
        return NULL;
    }
    s->ag = ag;
    s->t.name = "raw";
    s->t.ctx = s;
    s->t.open = raw_open;
    s->t.close = raw_close;
    s->t.now = raw_now;
    s->t.send = raw_send;
    s->t.recv = raw_recv;
    s->t.post_recv = raw_post_recv;
    s->t.post_send = raw_post_send;
    s->t.poll = raw_poll;
    s->t.mem_read = raw_mem_read;
    return &s->t;
}

void probe_raw_target_free(struct probe_target *t)
{
    if (!t)
        return;
    struct raw *s = t->ctx;
    probe_rawsock_close(s->fd);
    free(s);
}
