/* SPDX-License-Identifier: Apache-2.0 */
/*
 * agent_client.c - a real device as the probe's device: struct probe_agent
 * over the side channel of ibwire-agent (agent.c, whose header has the
 * protocol).  `open` asks for a fresh QP set up as the test says (`qp`),
 * `close` destroys it (`destroy`); the other calls are one command each.
 * No libibverbs here: the probe needs none to drive a device through its
 * agent.  The parsing is apart from the socket so that test_probe_agent can
 * check it line by line.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "probe_int.h"

/* How long an answer may take: a `qp` on a slow (emulated) machine
 * registers four regions and walks a QP through three states. */
#define ANSWER_MS 20000

int probe_agent_parse_dev(const char *line, struct probe_dev *d)
{
    unsigned qpn, ip[4], mac[6];
    char tail;
    if (sscanf(line, "dev %u %u.%u.%u.%u %x:%x:%x:%x:%x:%x %c", &qpn, &ip[0], &ip[1],
               &ip[2], &ip[3], &mac[0], &mac[1], &mac[2], &mac[3], &mac[4], &mac[5],
               &tail) != 11 || qpn > 0xFFFFFFu)
        return -1;
    uint32_t a = 0;
    for (int i = 0; i < 4; i++) {
        if (ip[i] > 255)
            return -1;
        a = a << 8 | ip[i];
    }
    for (int i = 0; i < 6; i++) {
        if (mac[i] > 255)
            return -1;
        d->dev_mac[i] = (uint8_t)mac[i];
    }
    d->qpn = qpn;
    d->dev_ip4 = a;
    return 0;
}

int probe_agent_parse_reg(const char *line, struct probe_dev *d)
{
    char name;
    unsigned long long va;
    unsigned len, rkey, lkey, acc;
    char tail;
    if (sscanf(line, "reg %c %llu %u %u %u %u %c", &name, &va, &len, &rkey, &lkey,
               &acc, &tail) != 6)
        return -1;
    const char *p = strchr(PROBE_REGION_NAMES, name);
    if (!p || !name)
        return -1;
    struct probe_region_info *r = &d->reg[p - PROBE_REGION_NAMES];
    r->va = va;
    r->len = len;
    r->rkey = rkey;
    r->lkey = lkey;
    r->access = acc;
    return 0;
}

int probe_agent_parse_cqe(const char *line, struct probe_cqe *c)
{
    static const char *const st[] = {
        [PROBE_ST_OK] = "ok", [PROBE_ST_LOC_LEN] = "loc-len",
        [PROBE_ST_REM_INV_REQ] = "rem-inv", [PROBE_ST_REM_ACCESS] = "rem-acc",
        [PROBE_ST_REM_OP] = "rem-op", [PROBE_ST_RETRY_EXC] = "retry-exc",
        [PROBE_ST_RNR_RETRY_EXC] = "rnr-exc", [PROBE_ST_FLUSH] = "flush",
        [PROBE_ST_OTHER] = "other"};
    char kind[8], status[16], imm[16];
    unsigned len;
    if (sscanf(line, "cqe %7s %15s %u %15s", kind, status, &len, imm) != 4)
        return -1;
    memset(c, 0, sizeof *c);
    if (!strcmp(kind, "recv"))
        c->recv = 1;
    else if (strcmp(kind, "send"))
        return -1;
    size_t k = 0;
    while (k < sizeof st / sizeof st[0] && strcmp(st[k], status))
        k++;
    if (k == sizeof st / sizeof st[0])
        return -1;
    c->status = (uint8_t)k;
    c->len = len;
    if (strcmp(imm, "-")) {
        char *end;
        errno = 0;
        unsigned long v = strtoul(imm, &end, 10);
        if (*end || errno || v > 0xFFFFFFFFul)
            return -1;
        c->has_imm = 1;
        c->imm = (uint32_t)v;
    }
    return 0;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

int probe_agent_parse_mem(const char *line, uint8_t *buf, uint32_t len)
{
    if (strncmp(line, "mem ", 4) || strlen(line + 4) != 2 * (size_t)len)
        return -1;
    for (uint32_t i = 0; i < len; i++) {
        int h = hexval(line[4 + 2 * i]), l = hexval(line[5 + 2 * i]);
        if (h < 0 || l < 0)
            return -1;
        buf[i] = (uint8_t)(h << 4 | l);
    }
    return 0;
}

int probe_agent_format_qp(const struct probe_setup *s, uint32_t probe_ip4,
                          char *out, size_t cap)
{
    int n = snprintf(out, cap, "qp %s %u %u %u %u %u %u %u %u %u %u %u %u.%u.%u.%u%s\n",
                     s->type == PROBE_UD ? "ud" : "rc", s->probe_qpn, s->rq_psn,
                     s->sq_psn, s->pmtu, s->retry_cnt, s->rnr_retry, s->timeout,
                     s->min_rnr_timer, s->max_rd_atomic, s->pkey, s->qkey,
                     probe_ip4 >> 24, probe_ip4 >> 16 & 255, probe_ip4 >> 8 & 255,
                     probe_ip4 & 255, s->needs & PROBE_CAP_SEND_INV ? " mw" : "");
    return n > 0 && (size_t)n < cap ? 0 : -1;
}

/* ---- the side channel ---- */

#define QUEUED 64

struct client {
    struct probe_agent a;
    int fd;
    uint32_t probe_ip4;
    uint8_t probe_mac[6];
    char in[1 << 17];      /* a `mem` answer of a whole 64 KiB region fits */
    size_t inlen;
    size_t used;           /* the line handed out last, still in `in` */
    struct probe_cqe q[QUEUED]; /* completions polled, not yet taken */
    int nq;
    char err[256];
};

static int say(struct client *s, const char *cmd)
{
    size_t n = strlen(cmd);
    while (n) {
        ssize_t w = send(s->fd, cmd, n, MSG_NOSIGNAL);
        if (w <= 0) {
            snprintf(s->err, sizeof s->err, "agent: the side channel is gone");
            return -1;
        }
        cmd += w;
        n -= (size_t)w;
    }
    return 0;
}

/* The agent's next line (without its newline) in *line: 0, or -1. */
static int hear(struct client *s, char **line)
{
    if (s->used) {
        memmove(s->in, s->in + s->used, s->inlen - s->used);
        s->inlen -= s->used;
        s->used = 0;
    }
    for (;;) {
        char *nl = memchr(s->in, '\n', s->inlen);
        if (nl) {
            *nl = 0;
            s->used = (size_t)(nl + 1 - s->in);
            *line = s->in;
            return 0;
        }
        if (s->inlen == sizeof s->in - 1) {
            snprintf(s->err, sizeof s->err, "agent: a line too long");
            return -1;
        }
        struct pollfd p = {s->fd, POLLIN, 0};
        int g = poll(&p, 1, ANSWER_MS);
        ssize_t n = g > 0 ? read(s->fd, s->in + s->inlen, sizeof s->in - 1 - s->inlen) : -1;
        if (n <= 0) {
            snprintf(s->err, sizeof s->err, "agent: %s", g == 0 ? "no answer" : "the side channel is gone");
            return -1;
        }
        s->inlen += (size_t)n;
    }
}

/* A command answered by one "ok" line. */
static int ask_ok(struct client *s, const char *cmd)
{
    char *l;
    if (say(s, cmd) || hear(s, &l))
        return -1;
    if (strcmp(l, "ok")) {
        snprintf(s->err, sizeof s->err, "agent: %.*s: %.200s",
                 (int)strcspn(cmd, " \n"), cmd, l);
        return -1;
    }
    return 0;
}

static int cl_open(void *ctx, const struct probe_setup *su, struct probe_dev *d,
                   char *err, size_t errlen)
{
    struct client *s = ctx;
    char cmd[256], *l;
    s->nq = 0;
    s->err[0] = 0;
    memset(d, 0, sizeof *d);
    if (probe_agent_format_qp(su, s->probe_ip4, cmd, sizeof cmd) || say(s, cmd) ||
        hear(s, &l))
        goto bad;
    if (probe_agent_parse_dev(l, d)) {
        snprintf(s->err, sizeof s->err, "agent: qp: %.200s", l);
        goto bad;
    }
    unsigned seen = 0;
    int wrong = 0, mw = 0;
    for (;;) { /* to the "ok", even past a bad line: the next answer */
        if (hear(s, &l))
            goto bad;
        if (!strcmp(l, "ok"))
            break;
        if (!strcmp(l, "cap send-inv")) {
            mw = 1;
            continue;
        }
        const char *p = !strncmp(l, "reg ", 4) ? strchr(PROBE_REGION_NAMES, l[4]) : NULL;
        if (!wrong && (!p || !l[4] || probe_agent_parse_reg(l, d))) {
            snprintf(s->err, sizeof s->err, "agent: qp: %.200s", l);
            wrong = 1;
        }
        if (!wrong)
            seen |= 1u << (p - PROBE_REGION_NAMES);
    }
    if (wrong)
        goto bad;
    if (seen != (1u << PR_COUNT) - 1) {
        snprintf(s->err, sizeof s->err, "agent: qp: not every region answered");
        goto bad;
    }
    memcpy(d->probe_mac, s->probe_mac, 6);
    d->probe_ip4 = s->probe_ip4;
    /* A SEND with Invalidate invalidates memory windows and fast-registered
     * regions, not a region of ibv_reg_mr: the agent makes R a type 2
     * memory window when the test needs it and the device has them ("cap
     * send-inv").  No READ resource limit is claimed: a device cannot be
     * asked whether it enforces one. */
    d->caps = PROBE_CAP_ATOMIC | PROBE_CAP_UD | (mw ? PROBE_CAP_SEND_INV : 0);
    return 0;
bad:
    snprintf(err, errlen, "%s", s->err);
    return -1;
}

static void cl_close(void *ctx)
{
    struct client *s = ctx;
    (void)ask_ok(s, "destroy\n");
}

static int cl_post_recv(void *ctx, uint32_t off, uint32_t len)
{
    char cmd[64];
    snprintf(cmd, sizeof cmd, "recv %u %u\n", off, len);
    return ask_ok(ctx, cmd);
}

static int cl_post_send(void *ctx, const struct probe_wr *wr)
{
    static const char *const op[] = {
        [PROBE_WR_SEND] = "send", [PROBE_WR_SEND_IMM] = "send-imm",
        [PROBE_WR_WRITE] = "write", [PROBE_WR_WRITE_IMM] = "write-imm",
        [PROBE_WR_READ] = "read", [PROBE_WR_CAS] = "cas", [PROBE_WR_FAA] = "faa"};
    if (wr->op >= sizeof op / sizeof op[0])
        return -1;
    char cmd[256];
    snprintf(cmd, sizeof cmd, "post %s %u %u %llu %u %u %llu %llu\n", op[wr->op],
             wr->local_off, wr->len, (unsigned long long)wr->remote_va, wr->rkey,
             wr->imm, (unsigned long long)wr->cmp, (unsigned long long)wr->swap);
    return ask_ok(ctx, cmd);
}

static int cl_poll(void *ctx, struct probe_cqe *c, int max)
{
    struct client *s = ctx;
    if (!s->nq) {
        char *l;
        int bad = 0;
        if (say(s, "poll\n"))
            return -1;
        for (;;) { /* to the "end", even past a bad line: the next answer */
            if (hear(s, &l))
                return -1;
            if (!strcmp(l, "end"))
                break;
            if (bad)
                continue;
            if (s->nq == QUEUED || probe_agent_parse_cqe(l, &s->q[s->nq])) {
                snprintf(s->err, sizeof s->err, "agent: poll: %.200s", l);
                bad = 1;
                continue;
            }
            /* the probe's "other" is many verbs statuses: say which */
            int off = 0;
            sscanf(l, "cqe %*s %*s %*s %*s%n", &off);
            const char *verbs = l + off;
            if (s->q[s->nq].status == PROBE_ST_OTHER && off && *verbs)
                snprintf(s->err, sizeof s->err, "agent: a %s completion's verbs status:%.200s",
                         s->q[s->nq].recv ? "receive" : "send", verbs);
            s->nq++;
        }
        if (bad) {
            s->nq = 0;
            return -1;
        }
    }
    int n = s->nq < max ? s->nq : max;
    memcpy(c, s->q, (size_t)n * sizeof *c);
    memmove(s->q, s->q + n, (size_t)(s->nq - n) * sizeof *c);
    s->nq -= n;
    return n;
}

static int cl_mem_read(void *ctx, int region, uint32_t off, uint8_t *buf,
                       uint32_t len)
{
    struct client *s = ctx;
    char cmd[64], *l;
    if (region < 0 || region >= PR_COUNT || len > (sizeof s->in - 8) / 2)
        return -1;
    snprintf(cmd, sizeof cmd, "mem %c %u %u\n", PROBE_REGION_NAMES[region], off, len);
    if (say(s, cmd) || hear(s, &l))
        return -1;
    if (probe_agent_parse_mem(l, buf, len)) {
        snprintf(s->err, sizeof s->err, "agent: mem: %.200s", l);
        return -1;
    }
    return 0;
}

struct probe_agent *probe_agent_client(const char *hostport, uint32_t probe_ip4,
                                       const uint8_t probe_mac[6], char *err,
                                       size_t errlen)
{
    char host[256];
    const char *colon = strrchr(hostport, ':');
    if (!colon || colon == hostport || (size_t)(colon - hostport) >= sizeof host ||
        !colon[1]) {
        snprintf(err, errlen, "--agent %s: HOST:PORT", hostport);
        return NULL;
    }
    memcpy(host, hostport, (size_t)(colon - hostport));
    host[colon - hostport] = 0;
    struct addrinfo hints, *ai = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    int g = getaddrinfo(host, colon + 1, &hints, &ai);
    if (g) {
        snprintf(err, errlen, "--agent %s: %s", hostport, gai_strerror(g));
        return NULL;
    }
    int fd = -1;
    for (struct addrinfo *p = ai; p && fd < 0; p = p->ai_next) {
        fd = socket(p->ai_family, p->ai_socktype | SOCK_CLOEXEC, p->ai_protocol);
        if (fd >= 0 && connect(fd, p->ai_addr, p->ai_addrlen)) {
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(ai);
    if (fd < 0) {
        snprintf(err, errlen, "--agent %s: cannot connect: %s", hostport,
                 strerror(errno));
        return NULL;
    }
    struct client *s = calloc(1, sizeof *s);
    if (!s) {
        close(fd);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->fd = fd;
    s->probe_ip4 = probe_ip4;
    memcpy(s->probe_mac, probe_mac, 6);
    s->a.name = "agent";
    s->a.ctx = s;
    s->a.open = cl_open;
    s->a.close = cl_close;
    s->a.post_recv = cl_post_recv;
    s->a.post_send = cl_post_send;
    s->a.poll = cl_poll;
    s->a.mem_read = cl_mem_read;
    return &s->a;
}

const char *probe_agent_client_error(struct probe_agent *a)
{
    return a ? ((struct client *)a->ctx)->err : "";
}

void probe_agent_client_free(struct probe_agent *a)
{
    if (!a)
        return;
    struct client *s = a->ctx;
    close(s->fd);
    free(s);
}
