/* SPDX-License-Identifier: Apache-2.0 */
/*
 * runner.c - runs one probe test: reads its script line by line, injects
 * the frames it describes, matches what the device sends against the
 * expectations (fields, time limits), performs the device-side operations
 * through the target, and keeps every frame for the pcapng written when
 * the test fails.  README.md (this directory) defines the script format.
 * A dry run (no target) checks a script's syntax and names.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "ibwire/packet.h"
#include "probe_int.h"

#define MAXTOK 24
#define MAXPEND 256
#define MAXCQE 256
#define DEFAULT_WITHIN 50000000ull  /* 50 ms */
#define WITHIN_DEFAULT(r) \
    (DEFAULT_WITHIN * ((r)->o && (r)->o->within_scale > 1 ? (r)->o->within_scale : 1u))
#define DEFAULT_QUIET 1000000ull    /* 1 ms of nothing for '.' */

struct logged {
    uint64_t at;
    int dir;   /* 0: probe -> device, 1: device -> probe */
    int line;
    int fault; /* enum probe_fault of a frame the probe broke */
    size_t len;
    uint8_t *b;
};

struct pend {
    uint64_t at;
    size_t len;
    uint8_t b[PROBE_MAX_FRAME];
};

struct run {
    const struct probe_test *t;
    struct probe_target *tg; /* NULL: a dry run */
    const struct probe_opts *o;
    struct probe_setup su;
    int timeout_set;     /* the script chose the local ACK timeout */
    struct probe_dev d;
    uint64_t mark;       /* time of the last frame in or out */
    int line;
    const char *text;    /* the current line */
    size_t textlen;
    char *why;
    size_t whylen;
    struct pend *pend;
    size_t npend;
    struct probe_cqe cq[MAXCQE];
    int ncq;
    uint32_t recv_off;
    struct logged *log;
    size_t nlog, caplog;
    uint64_t cnps;
    int window_spent; /* a `~` ran to window_cap_ns: no more waiting (probe.h) */
    char quality[200];   /* a bound the IBA does not set, missed: the
                            figure measured (the verdict QUALITY) */
};

/* ---- failures ---- */

static int fail(struct run *r, const char *fmt, ...)
{
    int k = snprintf(r->why, r->whylen, "line %d `%.*s`: ", r->line,
                     (int)r->textlen, r->text ? r->text : "");
    if (k < 0 || (size_t)k >= r->whylen)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->why + k, r->whylen - (size_t)k, fmt, ap);
    va_end(ap);
    return -1;
}

static void keep(struct run *r, uint64_t at, int dir, int fault,
                 const uint8_t *b, size_t len)
{
    if (r->nlog == r->caplog) {
        size_t n = r->caplog ? 2 * r->caplog : 64;
        struct logged *l = realloc(r->log, n * sizeof *l);
        if (!l)
            return;
        r->log = l;
        r->caplog = n;
    }
    uint8_t *c = malloc(len);
    if (!c)
        return;
    memcpy(c, b, len);
    r->log[r->nlog++] = (struct logged){at, dir, r->line, fault, len, c};
    if (r->o && r->o->on_frame)
        r->o->on_frame(r->o->user, dir, r->line, at, b, len);
    if (r->o && r->o->verbose) {
        struct probe_rx rx;
        char desc[256];
        probe_decode(b, len, &rx);
        probe_describe(&rx, desc, sizeof desc);
        fprintf(r->o->log ? r->o->log : stderr, "  %12.3f us %s %s\n",
                (double)at / 1000.0, dir ? "<" : ">", desc);
    }
}

/* ---- values ---- */

enum vkind { V_NUM, V_PSN, V_KEY, V_TIME };

static int term(struct run *r, const char **p, enum vkind k, uint64_t *out)
{
    const char *s = *p;
    if (isdigit((unsigned char)*s)) {
        errno = 0;
        char *end;
        uint64_t v = strtoull(s, &end, 0);
        if (errno)
            return -1;
        if (k == V_TIME) {
            uint64_t m = 1;
            if (!strncmp(end, "ns", 2)) end += 2;
            else if (!strncmp(end, "us", 2)) { m = 1000; end += 2; }
            else if (!strncmp(end, "ms", 2)) { m = 1000000; end += 2; }
            else if (*end == 's') { m = 1000000000; end++; }
            else return -1;
            v *= m;
        }
        *out = v;
        *p = end;
        return 0;
    }
    if (k == V_TIME)
        return -1;
    size_t n = 0;
    while (isalpha((unsigned char)s[n]))
        n++;
    if (n == 1 && (*s == 'E' || *s == 'S')) {
        *out = *s == 'E' ? r->su.rq_psn : r->su.sq_psn;
    } else if (n == 1 && strchr(PROBE_REGION_NAMES, *s)) {
        int reg = (int)(strchr(PROBE_REGION_NAMES, *s) - PROBE_REGION_NAMES);
        *out = k == V_KEY ? r->d.reg[reg].rkey : r->d.reg[reg].va;
    } else if (n == 3 && !strncmp(s, "dev", 3)) {
        *out = r->d.qpn;
    } else if (n == 5 && !strncmp(s, "probe", 5)) {
        *out = r->su.probe_qpn;
    } else if (n == 3 && !strncmp(s, "bad", 3)) {
        /* a key no region of the device has */
        uint32_t b = r->d.reg[PR_A].rkey ^ 0x00A5A500u;
        for (int i = 0; i < PR_COUNT; i++)
            if (b == r->d.reg[i].rkey || b == r->d.reg[i].lkey)
                b ^= 0x5A000000u;
        *out = b;
    } else {
        return -1;
    }
    *p = s + n;
    return 0;
}

static int factor_list(struct run *r, const char **p, enum vkind k, uint64_t *out)
{
    if (term(r, p, k, out))
        return -1;
    while (**p == '*') {
        (*p)++;
        uint64_t v;
        if (term(r, p, k == V_TIME ? V_NUM : k, &v))
            return -1;
        *out *= v;
    }
    return 0;
}

static int eval(struct run *r, const char *s, enum vkind k, uint64_t *out)
{
    const char *p = s;
    uint64_t v;
    if (factor_list(r, &p, k, &v))
        return -1;
    while (*p == '+' || *p == '-') {
        char op = *p++;
        uint64_t w;
        if (factor_list(r, &p, k, &w))
            return -1;
        v = op == '+' ? v + w : v - w;
    }
    if (*p)
        return -1;
    if (k == V_PSN)
        v &= 0xFFFFFFu;
    *out = v;
    return 0;
}

/* "LO..HI": PSNs from LO to HI (modulo 2^24, HI not before LO) */
static int psn_range(struct run *r, const char *v, uint32_t *lo, uint32_t *hi)
{
    const char *dots = strstr(v, "..");
    char a[64];
    uint64_t x, y;
    if (!dots || (size_t)(dots - v) >= sizeof a)
        return -1;
    memcpy(a, v, (size_t)(dots - v));
    a[dots - v] = 0;
    if (eval(r, a, V_PSN, &x) || eval(r, dots + 2, V_PSN, &y) ||
        ((y - x) & 0xFFFFFFu) >= 0x800000u)
        return -1;
    *lo = (uint32_t)x;
    *hi = (uint32_t)y;
    return 0;
}

/* ---- tokens of a line ---- */

struct line {
    int n;
    char *tok[MAXTOK];
    char buf[512];
};

static int split(const char *s, size_t len, struct line *l)
{
    if (len >= sizeof l->buf)
        return -1;
    memcpy(l->buf, s, len);
    l->buf[len] = 0;
    char *h = strchr(l->buf, '#');
    if (h)
        *h = 0;
    l->n = 0;
    for (char *t = strtok(l->buf, " \t"); t; t = strtok(NULL, " \t")) {
        if (l->n == MAXTOK)
            return -1;
        l->tok[l->n++] = t;
    }
    return 0;
}

/* key=value at tok: the value, or NULL */
static const char *kv(const char *tok, const char *key)
{
    size_t n = strlen(key);
    return !strncmp(tok, key, n) && tok[n] == '=' ? tok + n + 1 : NULL;
}

/* The keys a line takes (plus flags). */
static int allowed(const char *tok, const char *const *keys)
{
    const char *eq = strchr(tok, '=');
    size_t n = eq ? (size_t)(eq - tok) : strlen(tok);
    for (; *keys; keys++)
        if (strlen(*keys) == n && !strncmp(*keys, tok, n))
            return 1;
    return 0;
}

/* ---- frames from the device ---- */

/* Pull frames until `deadline` or the first one (0: none). */
static int pull(struct run *r, uint64_t deadline)
{
    if (r->npend == MAXPEND)
        return fail(r, "the device sent more than %d frames unread", MAXPEND);
    struct pend *f = &r->pend[r->npend];
    int got = r->tg->recv(r->tg->ctx, f->b, sizeof f->b, &f->len, &f->at, deadline);
    if (got < 0)
        return fail(r, "target %s: receive failed", r->tg->name);
    if (got) {
        keep(r, f->at, 1, PF_NONE, f->b, f->len);
        r->npend++;
    }
    return got;
}

static void unpend(struct run *r, size_t i)
{
    memmove(&r->pend[i], &r->pend[i + 1], (r->npend - i - 1) * sizeof r->pend[0]);
    r->npend--;
}

/* The first pending non-CNP frame (CNPs are congestion control's, A17.9:
 * not what a test judges; they are kept in the pcap), pulling until the
 * deadline.  1 with it at pend[0], 0 none, -1 error. */
static int next_frame(struct run *r, uint64_t deadline)
{
    for (;;) {
        while (r->npend) {
            struct probe_rx rx;
            probe_decode(r->pend[0].b, r->pend[0].len, &rx);
            if (rx.ok && rx.opcode == IBW_OP_CNP) {
                r->cnps++;
                unpend(r, 0);
                continue;
            }
            return 1;
        }
        int g = pull(r, deadline);
        if (g <= 0)
            return g;
    }
}

/* ---- steps ---- */

static const char *const setup_keys[] = {"type", "pmtu", "epsn", "spsn", "retry",
    "rnr_retry", "timeout", "rnr_timer", "max_rd", "pkey", "qkey", NULL};

static int do_setup(struct run *r, const struct line *l)
{
    for (int i = 1; i < l->n; i++) {
        const char *t = l->tok[i], *v;
        uint64_t x = 0;
        if (!allowed(t, setup_keys) || !strchr(t, '='))
            return fail(r, "unknown setup key '%s'", t);
        if ((v = kv(t, "type"))) {
            if (!strcmp(v, "rc"))
                r->su.type = PROBE_RC;
            else if (!strcmp(v, "ud"))
                r->su.type = PROBE_UD;
            else
                return fail(r, "type is rc or ud, not '%s'", v);
            continue;
        }
        v = strchr(t, '=') + 1;
        if (eval(r, v, V_NUM, &x))
            return fail(r, "bad value '%s'", v);
        if (kv(t, "pmtu")) {
            if (x != 256 && x != 512 && x != 1024 && x != 2048 && x != 4096)
                return fail(r, "pmtu %llu is not 256..4096", (unsigned long long)x);
            r->su.pmtu = (uint32_t)x;
        } else if (kv(t, "epsn")) r->su.rq_psn = (uint32_t)x & 0xFFFFFFu;
        else if (kv(t, "spsn")) r->su.sq_psn = (uint32_t)x & 0xFFFFFFu;
        else if (kv(t, "retry")) r->su.retry_cnt = (uint8_t)(x & 7);
        else if (kv(t, "rnr_retry")) r->su.rnr_retry = (uint8_t)(x & 7);
        else if (kv(t, "timeout")) {
            r->su.timeout = (uint8_t)(x & 31);
            r->timeout_set = 1;
        }
        else if (kv(t, "rnr_timer")) r->su.min_rnr_timer = (uint8_t)(x & 31);
        else if (kv(t, "max_rd")) r->su.max_rd_atomic = (uint8_t)x;
        else if (kv(t, "pkey")) r->su.pkey = (uint16_t)x;
        else if (kv(t, "qkey")) r->su.qkey = (uint32_t)x;
    }
    return 0;
}

static const struct { const char *name; uint32_t cap; } capnames[] = {
    {"atomic", PROBE_CAP_ATOMIC}, {"send-inv", PROBE_CAP_SEND_INV},
    {"ud", PROBE_CAP_UD}, {"rd-limit", PROBE_CAP_RD_LIMIT},
    {"vtime", PROBE_CAP_VTIME}};

static int caps_of(struct run *r, const struct line *l, uint32_t *caps)
{
    *caps = 0;
    for (int i = 1; i < l->n; i++) {
        size_t k = 0;
        while (k < sizeof capnames / sizeof capnames[0] &&
               strcmp(capnames[k].name, l->tok[i]))
            k++;
        if (k == sizeof capnames / sizeof capnames[0])
            return fail(r, "unknown capability '%s'", l->tok[i]);
        *caps |= capnames[k].cap;
    }
    return 0;
}

static int syndrome_by_name(const char *v, uint8_t *syn)
{
    static const struct { const char *n; uint8_t s; } t[] = {
        {"ack", 0x1F}, {"rnr", 0x20}, {"nak-seq", 0x60}, {"nak-inv", 0x61},
        {"nak-acc", 0x62}, {"nak-op", 0x63}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (!strcmp(v, t[i].n)) {
            *syn = t[i].s;
            return 0;
        }
    return -1;
}

/* An expected AETH "ack", "rnr", "nak-seq", ... or several joined by '|':
 * 1 when syndrome matches one, 0 when none does, -1 for an unknown name. */
static int aeth_match(const char *v, uint8_t syndrome)
{
    int hit = 0;
    while (*v) {
        char name[16];
        size_t n = strcspn(v, "|");
        if (n >= sizeof name)
            return -1;
        memcpy(name, v, n);
        name[n] = 0;
        uint8_t s;
        if (syndrome_by_name(name, &s))
            return -1;
        if (s == 0x1F ? (syndrome >> 5) == 0
            : s == 0x20 ? (syndrome >> 5) == 1 : syndrome == s)
            hit = 1;
        v += n + (v[n] == '|');
    }
    return hit;
}

static const char *const tx_keys[] = {"psn", "len", "data", "va", "rkey",
    "dmalen", "imm", "ieth", "swap", "add", "cmp", "orig", "aeth", "msn",
    "timer", "credit", "pkey", "dqp", "sqp", "qkey", "fault", "ackreq",
    "noack", "se", "fecn", "becn", NULL};

static int do_tx(struct run *r, const struct line *l)
{
    if (l->n < 2)
        return fail(r, "'>' needs an opcode");
    int op = probe_opcode_by_name(l->tok[1]);
    if (op < 0 || op == IBW_OP_CNP)
        return fail(r, "unknown opcode '%s'", l->tok[1]);
    struct probe_frame_spec fs;
    memset(&fs, 0, sizeof fs);
    fs.opcode = (uint8_t)op;
    fs.destqp = r->d.qpn;
    fs.srcqp = r->su.probe_qpn;
    fs.pkey = r->su.pkey;
    fs.qkey = r->su.qkey;
    fs.ackreq = !ibw_opcode_is_response((uint8_t)op);
    int have_dmalen = 0, have_psn = 0, have_aeth = 0;
    uint8_t timer = 0, credit = 0x1F;
    for (int i = 2; i < l->n; i++) {
        const char *t = l->tok[i], *v = strchr(t, '=');
        uint64_t x = 0;
        if (!allowed(t, tx_keys))
            return fail(r, "unknown key '%s'", t);
        if (!v) {
            if (!strcmp(t, "ackreq")) fs.ackreq = 1;
            else if (!strcmp(t, "noack")) fs.ackreq = 0;
            else if (!strcmp(t, "se")) fs.se = 1;
            else if (!strcmp(t, "fecn")) fs.fecn = 1;
            else if (!strcmp(t, "becn")) fs.becn = 1;
            else return fail(r, "'%s' needs a value", t);
            continue;
        }
        v++;
        if (kv(t, "aeth")) {
            if (syndrome_by_name(v, &fs.syndrome))
                return fail(r, "unknown aeth '%s'", v);
            have_aeth = 1;
            continue;
        }
        if (kv(t, "fault")) {
            static const char *const f[] = {"", "icrc", "ipver", "iplen",
                                            "udpport", "udplen"};
            fs.fault = PF_NONE;
            for (int k = 1; k < 6; k++)
                if (!strcmp(v, f[k]))
                    fs.fault = (uint8_t)k;
            if (fs.fault == PF_NONE)
                return fail(r, "unknown fault '%s'", v);
            continue;
        }
        enum vkind k = kv(t, "psn") ? V_PSN
                     : (kv(t, "rkey") || kv(t, "ieth")) ? V_KEY : V_NUM;
        if (eval(r, v, k, &x))
            return fail(r, "bad value '%s'", v);
        if (kv(t, "psn")) { fs.psn = (uint32_t)x; have_psn = 1; }
        else if (kv(t, "len")) fs.len = (uint32_t)x;
        else if (kv(t, "data")) fs.data = (uint32_t)x;
        else if (kv(t, "va")) fs.va = x;
        else if (kv(t, "rkey")) fs.rkey = (uint32_t)x;
        else if (kv(t, "dmalen")) { fs.dmalen = (uint32_t)x; have_dmalen = 1; }
        else if (kv(t, "imm")) fs.imm = (uint32_t)x;
        else if (kv(t, "ieth")) fs.ieth = (uint32_t)x;
        else if (kv(t, "swap") || kv(t, "add")) fs.swap = x;
        else if (kv(t, "cmp")) fs.cmp = x;
        else if (kv(t, "orig")) fs.orig = x;
        else if (kv(t, "msn")) fs.msn = (uint32_t)x;
        else if (kv(t, "timer")) timer = (uint8_t)(x & 0x1F);
        else if (kv(t, "credit")) credit = (uint8_t)(x & 0x1F);
        else if (kv(t, "pkey")) fs.pkey = (uint16_t)x;
        else if (kv(t, "dqp")) fs.destqp = (uint32_t)x & 0xFFFFFFu;
        else if (kv(t, "sqp")) fs.srcqp = (uint32_t)x & 0xFFFFFFu;
        else if (kv(t, "qkey")) fs.qkey = (uint32_t)x;
    }
    if (!have_psn)
        return fail(r, "'>' needs psn=");
    if (!have_dmalen)
        fs.dmalen = fs.len;
    if (!have_aeth)
        fs.syndrome = 0x1F;
    if (fs.syndrome == 0x1F)
        fs.syndrome = credit; /* an ACK: its credit count */
    else if ((fs.syndrome & 0xE0) == 0x20)
        fs.syndrome = (uint8_t)(0x20 | timer);
    if (!r->tg)
        return 0;
    uint8_t f[PROBE_MAX_FRAME];
    size_t n = probe_craft(&fs, &r->d, f, sizeof f);
    if (!n)
        return fail(r, "the frame cannot be built (ibw_build refused it)");
    uint64_t now = r->tg->now(r->tg->ctx);
    keep(r, now, 0, fs.fault, f, n);
    r->mark = now;
    if (r->tg->send(r->tg->ctx, f, n))
        return fail(r, "target %s: send failed", r->tg->name);
    return 0;
}

static const char *const rx_keys[] = {"psn", "aeth", "timer", "msn", "len",
    "data", "from", "va", "rkey", "dmalen", "orig", "imm", "dqp", "within",
    "after", "quality", "figure", NULL};

/* Whether opcode op is one of the '|'-separated names of alts; -1 when a
 * name is no opcode. */
static int opcode_in(const char *alts, int op)
{
    int found = 0;
    for (const char *p = alts; *p;) {
        size_t n = strcspn(p, "|");
        char name[48];
        if (!n || n >= sizeof name)
            return -1;
        memcpy(name, p, n);
        name[n] = 0;
        int o = probe_opcode_by_name(name);
        if (o < 0)
            return -1;
        found |= o == op;
        p += n + (p[n] == '|');
    }
    return found;
}

static int do_rx(struct run *r, const struct line *l)
{
    if (l->n < 2)
        return fail(r, "'<' needs an opcode");
    if (opcode_in(l->tok[1], -1) < 0)
        return fail(r, "unknown opcode '%s'", l->tok[1]);
    uint64_t within = WITHIN_DEFAULT(r), after = 0, quality = 0;
    int within_given = 0;
    const char *figure = "response time";
    for (int i = 2; i < l->n; i++) {
        const char *t = l->tok[i], *v = strchr(t, '=');
        uint64_t x;
        if (!allowed(t, rx_keys) || !v)
            return fail(r, "unknown key '%s'", t);
        v++;
        if (kv(t, "figure")) {
            figure = v;
            continue;
        }
        if (kv(t, "aeth")) {
            if (aeth_match(v, 0) < 0)
                return fail(r, "unknown aeth '%s'", v);
            continue;
        }
        if (kv(t, "psn") && strstr(v, "..")) {
            uint32_t lo, hi;
            if (psn_range(r, v, &lo, &hi))
                return fail(r, "bad PSN range '%s'", v);
            continue;
        }
        enum vkind k = kv(t, "psn") ? V_PSN : kv(t, "rkey") ? V_KEY
                     : (kv(t, "within") || kv(t, "after") || kv(t, "quality"))
                         ? V_TIME : V_NUM;
        if (eval(r, v, k, &x))
            return fail(r, "bad value '%s'", v);
        if (kv(t, "within")) within = x, within_given = 1;
        if (kv(t, "after")) after = x;
        if (kv(t, "quality")) quality = x;
    }
    /* quality=T: a bound the IBA does not set.  Later than T is a QUALITY
     * result with the time measured; only nothing by the conformance bound
     * (within=, else twice the local ACK timeout and the default wait: a
     * retry at the timeout must have come by then) fails. */
    if (quality && !within_given)
        within = 2 * (4096ull << r->su.timeout) + WITHIN_DEFAULT(r);
    if (!r->tg)
        return 0;
    int g = next_frame(r, r->mark + within);
    if (g < 0)
        return -1;
    if (!g)
        return fail(r, "nothing came within %.3f us",
                    (double)within / 1000.0);
    struct pend *f = &r->pend[0];
    struct probe_rx rx;
    char desc[256];
    probe_decode(f->b, f->len, &rx);
    probe_describe(&rx, desc, sizeof desc);
    /* a frame of an earlier post may predate the mark of a later one */
    uint64_t waited = f->at > r->mark ? f->at - r->mark : 0;
    if (!rx.ok)
        return fail(r, "got %s", desc);
    if (opcode_in(l->tok[1], rx.opcode) != 1)
        return fail(r, "got %s", desc);
    if (f->at > r->mark + within)
        return fail(r, "got %s after %.3f us, later than %.3f us", desc,
                    (double)waited / 1000.0, (double)within / 1000.0);
    /* on a real clock the two frames' times are the kernel's, each some
     * microseconds after the device's own clock read it: 1/64 of slack */
    uint64_t slack = r->d.caps & PROBE_CAP_VTIME ? 0 : after / 64;
    if (waited + slack < after)
        return fail(r, "got %s after %.3f us, earlier than %.3f us", desc,
                    (double)waited / 1000.0, (double)after / 1000.0);
    int dqp_given = 0;
    for (int i = 2; i < l->n; i++) {
        const char *t = l->tok[i], *v = strchr(t, '=') + 1;
        uint64_t x = 0;
        if (kv(t, "within") || kv(t, "after") || kv(t, "quality") ||
            kv(t, "figure"))
            continue;
        if (kv(t, "aeth")) {
            if (!rx.has_aeth || aeth_match(v, rx.syndrome) != 1)
                return fail(r, "got %s: not aeth=%s", desc, v);
            continue;
        }
        if (kv(t, "from")) {
            eval(r, v, V_NUM, &x);
            int reg = -1;
            for (int q = 0; q < PR_COUNT; q++)
                if (x >= r->d.reg[q].va && x - r->d.reg[q].va < r->d.reg[q].len)
                    reg = q;
            if (reg < 0)
                return fail(r, "from=%s is in no region", v);
            uint32_t off = (uint32_t)(x - r->d.reg[reg].va);
            for (uint32_t j = 0; j < rx.paylen; j++)
                if (rx.payload[j] != probe_init_byte(reg, off + j))
                    return fail(r, "got %s: payload byte %u is 0x%02x, not "
                                "0x%02x (%c+0x%x)", desc, j, rx.payload[j],
                                probe_init_byte(reg, off + j),
                                PROBE_REGION_NAMES[reg], off + j);
            continue;
        }
        if (kv(t, "psn") && strstr(v, "..")) {
            uint32_t lo, hi;
            psn_range(r, v, &lo, &hi);
            if (((rx.psn - lo) & 0xFFFFFFu) > ((hi - lo) & 0xFFFFFFu))
                return fail(r, "got %s: PSN not in %s", desc, v);
            continue;
        }
        enum vkind k = kv(t, "psn") ? V_PSN : kv(t, "rkey") ? V_KEY : V_NUM;
        eval(r, v, k, &x);
        if (kv(t, "data")) {
            for (uint32_t j = 0; j < rx.paylen; j++)
                if (rx.payload[j] != probe_data_byte((uint32_t)x + j))
                    return fail(r, "got %s: payload byte %u is 0x%02x, not 0x%02x",
                                desc, j, rx.payload[j],
                                probe_data_byte((uint32_t)x + j));
            continue;
        }
        uint64_t have = 0;
        if (kv(t, "psn")) have = rx.psn;
        else if (kv(t, "timer")) have = rx.syndrome & 0x1F;
        else if (kv(t, "msn")) { have = rx.msn; x &= 0xFFFFFFu; }
        else if (kv(t, "len")) have = rx.paylen;
        else if (kv(t, "va")) have = rx.va;
        else if (kv(t, "rkey")) have = rx.rkey;
        else if (kv(t, "dmalen")) have = rx.dmalen;
        else if (kv(t, "orig")) have = rx.orig;
        else if (kv(t, "imm")) have = rx.imm;
        else if (kv(t, "dqp")) { have = rx.destqp; dqp_given = 1; }
        if (have != x)
            return fail(r, "got %s: %.*s is 0x%llx, not 0x%llx", desc,
                        (int)(strchr(t, '=') - t), t, (unsigned long long)have,
                        (unsigned long long)x);
    }
    if (!dqp_given && rx.destqp != r->su.probe_qpn)
        return fail(r, "got %s: the destination QP is not the probe's 0x%x",
                    desc, r->su.probe_qpn);
    if (quality && waited > quality && !r->quality[0]) {
        char name[64];
        snprintf(name, sizeof name, "%s", figure);
        for (char *c = name; *c; c++)
            if (*c == '-')
                *c = ' ';
        snprintf(r->quality, sizeof r->quality, "%s %.1f ms (line %d: the "
                 "test's bound %.1f ms; the IBA sets none)", name,
                 (double)waited / 1e6, r->line, (double)quality / 1e6);
    }
    r->mark = f->at;
    unpend(r, 0);
    return 0;
}

static int do_quiet(struct run *r, const struct line *l, int drain)
{
    uint64_t within = DEFAULT_QUIET;
    for (int i = 1; i < l->n; i++) {
        const char *v = kv(l->tok[i], "within");
        if (!v || eval(r, v, V_TIME, &within))
            return fail(r, "'%s' takes within= only", l->tok[0]);
    }
    if (!r->tg)
        return 0;
    uint64_t now = r->tg->now(r->tg->ctx), deadline = now + within, cap = deadline;
    /* the fuzzer's device run (probe.h, window_frames): a `~` lasts at
     * least until the device has sent as many frames as the engine did in
     * it, up to window_cap_ns */
    unsigned need = 0, got = 0;
    if (drain && r->o && r->o->window_frames && r->line > 0 && r->line < r->o->nwindow &&
        !r->window_spent) {
        need = r->o->window_frames[r->line];
        if (now + r->o->window_cap_ns > cap)
            cap = now + r->o->window_cap_ns;
    }
    for (;;) {
        int g = next_frame(r, got < need ? cap : deadline);
        if (g < 0)
            return -1;
        if (!g) {
            /* a device that sent less than the engine once (it went
             * another way: an error state, coalesced ACKs) is not waited
             * for again in this run */
            if (got < need && cap > deadline)
                r->window_spent = 1;
            return 0;
        }
        got++;
        if (!drain) {
            struct probe_rx rx;
            char desc[256];
            probe_decode(r->pend[0].b, r->pend[0].len, &rx);
            probe_describe(&rx, desc, sizeof desc);
            return fail(r, "expected nothing, got %s", desc);
        }
        unpend(r, 0);
    }
}

static int do_wait(struct run *r, const struct line *l)
{
    uint64_t t;
    if (l->n != 2 || eval(r, l->tok[1], V_TIME, &t))
        return fail(r, "wait takes a time (10us, 2ms, ...)");
    if (!r->tg)
        return 0;
    uint64_t deadline = r->tg->now(r->tg->ctx) + t;
    while (r->tg->now(r->tg->ctx) < deadline) {
        int g = pull(r, deadline);
        if (g < 0)
            return -1;
    }
    return 0;
}

static int do_recv(struct run *r, const struct line *l)
{
    uint64_t len = 0, off = r->recv_off;
    int have_len = 0;
    for (int i = 1; i < l->n; i++) {
        const char *v;
        if ((v = kv(l->tok[i], "len"))) {
            if (eval(r, v, V_NUM, &len))
                return fail(r, "bad len");
            have_len = 1;
        } else if ((v = kv(l->tok[i], "off"))) {
            if (eval(r, v, V_NUM, &off))
                return fail(r, "bad off");
        } else {
            return fail(r, "recv takes len= and off=");
        }
    }
    if (!have_len || off + len > 65536)
        return fail(r, "recv needs len= inside region L");
    r->recv_off = (uint32_t)((off + len + 4095) & ~4095ull);
    if (!r->tg)
        return 0;
    if (r->tg->post_recv(r->tg->ctx, (uint32_t)off, (uint32_t)len))
        return fail(r, "target %s: post_recv failed", r->tg->name);
    return 0;
}

static const char *const post_keys[] = {"len", "off", "va", "rkey", "imm",
    "cmp", "swap", "add", NULL};

static int do_post(struct run *r, const struct line *l)
{
    static const char *const ops[] = {"send", "send-imm", "write", "write-imm",
                                      "read", "cas", "faa"};
    struct probe_wr wr;
    memset(&wr, 0, sizeof wr);
    if (l->n < 2)
        return fail(r, "post needs an operation");
    size_t k = 0;
    while (k < 7 && strcmp(ops[k], l->tok[1]))
        k++;
    if (k == 7)
        return fail(r, "unknown operation '%s'", l->tok[1]);
    wr.op = (uint8_t)k;
    if (wr.op == PROBE_WR_CAS || wr.op == PROBE_WR_FAA)
        wr.len = 8;
    for (int i = 2; i < l->n; i++) {
        const char *t = l->tok[i], *v = strchr(t, '=');
        uint64_t x;
        if (!allowed(t, post_keys) || !v)
            return fail(r, "unknown key '%s'", t);
        if (eval(r, v + 1, kv(t, "rkey") ? V_KEY : V_NUM, &x))
            return fail(r, "bad value '%s'", v + 1);
        if (kv(t, "len")) wr.len = (uint32_t)x;
        else if (kv(t, "off")) wr.local_off = (uint32_t)x;
        else if (kv(t, "va")) wr.remote_va = x;
        else if (kv(t, "rkey")) wr.rkey = (uint32_t)x;
        else if (kv(t, "imm")) wr.imm = (uint32_t)x;
        else if (kv(t, "cmp")) wr.cmp = x;
        else wr.swap = x;
    }
    if ((uint64_t)wr.local_off + wr.len > 65536)
        return fail(r, "the local data is outside region L");
    if (!r->tg)
        return 0;
    /* the device cannot send the request before it is told to: its time
     * is counted from the post, not from the frame before (through an
     * agent the post itself takes a while) */
    uint64_t t = r->tg->now(r->tg->ctx);
    if (t > r->mark)
        r->mark = t;
    if (r->tg->post_send(r->tg->ctx, &wr))
        return fail(r, "target %s: post_send failed", r->tg->name);
    return 0;
}

static const char *const status_names[] = {"ok", "loc-len", "rem-inv",
    "rem-acc", "rem-op", "retry-exc", "rnr-exc", "flush", "other"};

static int poll_all(struct run *r)
{
    int n = r->tg->poll(r->tg->ctx, r->cq + r->ncq, MAXCQE - r->ncq);
    if (n < 0)
        return fail(r, "target %s: poll failed", r->tg->name);
    r->ncq += n;
    return 0;
}

static int do_cqe(struct run *r, const struct line *l)
{
    if (l->n < 2)
        return fail(r, "cqe needs recv, send or none");
    /* none-ok: no completion with status ok; completions in error are
     * taken and allowed (a responder's QP may go to the Error state after
     * a NAK, flushing its receives, IBA 9.9.3) */
    int none_ok = !strcmp(l->tok[1], "none-ok");
    int none = none_ok || !strcmp(l->tok[1], "none");
    int recv = !strcmp(l->tok[1], "recv");
    if (!none && !recv && strcmp(l->tok[1], "send"))
        return fail(r, "cqe needs recv, send, none or none-ok");
    int status = -1, first = 2;
    uint64_t len = 0, imm = 0, within = none ? DEFAULT_QUIET : WITHIN_DEFAULT(r);
    int have_len = 0, have_imm = 0;
    if (!none) {
        if (l->n < 3)
            return fail(r, "cqe needs a status");
        for (int s = 0; s < 9; s++)
            if (!strcmp(l->tok[2], status_names[s]))
                status = s;
        if (status < 0)
            return fail(r, "unknown status '%s'", l->tok[2]);
        first = 3;
    }
    for (int i = first; i < l->n; i++) {
        const char *v;
        if ((v = kv(l->tok[i], "len")) && !none) {
            if (eval(r, v, V_NUM, &len)) return fail(r, "bad len");
            have_len = 1;
        } else if ((v = kv(l->tok[i], "imm")) && !none) {
            if (eval(r, v, V_NUM, &imm)) return fail(r, "bad imm");
            have_imm = 1;
        } else if ((v = kv(l->tok[i], "within"))) {
            if (eval(r, v, V_TIME, &within)) return fail(r, "bad within");
        } else {
            return fail(r, "unknown key '%s'", l->tok[i]);
        }
    }
    if (!r->tg)
        return 0;
    uint64_t deadline = r->tg->now(r->tg->ctx) + within;
    for (;;) {
        if (poll_all(r))
            return -1;
        for (int i = 0; none_ok && i < r->ncq;)
            if (r->cq[i].status != PROBE_ST_OK) {
                memmove(&r->cq[i], &r->cq[i + 1],
                        (size_t)(r->ncq - i - 1) * sizeof r->cq[0]);
                r->ncq--;
            } else {
                i++;
            }
        if (none && r->ncq)
            return fail(r, "expected no completion, got a %s one with status %s",
                        r->cq[0].recv ? "receive" : "send",
                        status_names[r->cq[0].status]);
        int i = 0;
        while (!none && i < r->ncq && r->cq[i].recv != recv)
            i++;
        if (!none && i < r->ncq) {
            struct probe_cqe c = r->cq[i];
            memmove(&r->cq[i], &r->cq[i + 1], (size_t)(r->ncq - i - 1) * sizeof c);
            r->ncq--;
            if (c.status != status)
                return fail(r, "the completion has status %s",
                            status_names[c.status]);
            if (have_len && c.len != len)
                return fail(r, "the completion says %u bytes", c.len);
            if (have_imm && (!c.has_imm || c.imm != imm))
                return fail(r, "the completion's immediate is %s0x%x",
                            c.has_imm ? "" : "absent, ", c.imm);
            return 0;
        }
        if (r->tg->now(r->tg->ctx) >= deadline)
            break;
        uint64_t step = r->tg->now(r->tg->ctx) + 10000;
        if (pull(r, step < deadline ? step : deadline) < 0)
            return -1;
    }
    if (none)
        return 0;
    return fail(r, "no %s completion within %.3f us", recv ? "receive" : "send",
                (double)within / 1000.0);
}

static int do_mem(struct run *r, const struct line *l)
{
    if (l->n < 3)
        return fail(r, "mem takes REGION+off len= and data=, init or u64=");
    const char *a = l->tok[1];
    const char *rp = strchr(PROBE_REGION_NAMES, a[0]);
    if (!a[0] || !rp)
        return fail(r, "mem names a region A, R, N or L");
    int reg = (int)(rp - PROBE_REGION_NAMES);
    uint64_t off = 0, len = 0, data = 0, u64 = 0;
    int mode = -1; /* 0 data, 1 init, 2 u64 */
    if (a[1] && (a[1] != '+' || eval(r, a + 2, V_NUM, &off)))
        return fail(r, "bad offset '%s'", a);
    for (int i = 2; i < l->n; i++) {
        const char *v;
        if ((v = kv(l->tok[i], "len"))) {
            if (eval(r, v, V_NUM, &len)) return fail(r, "bad len");
        } else if ((v = kv(l->tok[i], "data"))) {
            if (eval(r, v, V_NUM, &data)) return fail(r, "bad data");
            mode = 0;
        } else if (!strcmp(l->tok[i], "init")) {
            mode = 1;
        } else if ((v = kv(l->tok[i], "u64"))) {
            if (eval(r, v, V_NUM, &u64)) return fail(r, "bad u64");
            mode = 2;
            len = 8;
        } else {
            return fail(r, "unknown key '%s'", l->tok[i]);
        }
    }
    if (mode < 0 || !len || len > 65536)
        return fail(r, "mem needs len= and data=, init or u64=");
    if (!r->tg)
        return 0;
    uint8_t *b = malloc(len);
    if (!b)
        return fail(r, "out of memory");
    int rc = 0;
    if (r->tg->mem_read(r->tg->ctx, reg, (uint32_t)off, b, (uint32_t)len)) {
        rc = fail(r, "target %s: memory read failed", r->tg->name);
    } else if (mode == 2) {
        uint64_t v = 0;
        for (int i = 7; i >= 0; i--)
            v = v << 8 | b[i];
        if (v != u64)
            rc = fail(r, "the 8 bytes hold 0x%llx", (unsigned long long)v);
    } else {
        for (uint32_t i = 0; i < len; i++) {
            uint8_t want = mode ? probe_init_byte(reg, (uint32_t)off + i)
                                : probe_data_byte((uint32_t)data + i);
            if (b[i] != want) {
                rc = fail(r, "byte %u of %c+0x%llx is 0x%02x, not 0x%02x", i,
                          PROBE_REGION_NAMES[reg], (unsigned long long)off,
                          b[i], want);
                break;
            }
        }
    }
    free(b);
    return rc;
}

/* ---- the run ---- */

static void write_pcap(struct run *r)
{
    if (!r->o || !r->o->pcap_dir || !r->nlog)
        return;
    int quiet = r->why[0] == 0; /* a pass: no message to add the path to */
    char path[1024], err[256];
    snprintf(path, sizeof path, "%s/%s.pcapng", r->o->pcap_dir, r->t->id);
    struct cap_writer *w = cap_writer_open(path, CAP_FORMAT_PCAPNG, 1, err, sizeof err);
    if (!w) {
        size_t k = strlen(r->why);
        snprintf(r->why + k, r->whylen - k, "%s(frames not written: %s)",
                 quiet ? "" : " ", err);
        return;
    }
    static const char *const faults[] = {"", "icrc", "ipver", "iplen",
                                         "udpport", "udplen"};
    for (size_t i = 0; i < r->nlog; i++) {
        char c[96];
        snprintf(c, sizeof c, "%s, script line %d%s%s",
                 r->log[i].dir ? "device to probe" : "probe to device",
                 r->log[i].line, r->log[i].fault ? ", fault=" : "",
                 faults[r->log[i].fault]);
        cap_write(w, r->log[i].at, r->log[i].b, r->log[i].len, c);
    }
    if (cap_writer_close(w) == 0 && !quiet) {
        size_t k = strlen(r->why);
        snprintf(r->why + k, r->whylen - k, " (frames: %s)", path);
    }
}

/* Run (tg != NULL) or check the script; the verdict. */
static int interpret(struct run *r)
{
    const char *s = r->t->script;
    int stage = 0; /* 0 setup lines, 1 steps */
    uint32_t needs = 0;
    struct line l;
    r->su = (struct probe_setup){PROBE_RC, 0x11, 0x1000, 0x2000, 256, 7, 7,
                                 14, 1, 0, 0xFFFF, 0x11111111u, 0};
    if (!r->tg) { /* a dry run: names resolve to something */
        memset(&r->d, 0, sizeof r->d);
        r->d.qpn = 2;
    }
    for (r->line = 1; *s; r->line++) {
        const char *e = strchr(s, '\n');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        r->text = s;
        r->textlen = len;
        s += len + (e ? 1 : 0);
        if (split(r->text, len, &l))
            return fail(r, "line too long"), PROBE_ERROR;
        if (!l.n)
            continue;
        const char *k = l.tok[0];
        int rc;
        if (!strcmp(k, "setup") || !strcmp(k, "needs")) {
            if (stage)
                return fail(r, "setup and needs come first"), PROBE_ERROR;
            if (!strcmp(k, "setup")) {
                rc = do_setup(r, &l);
            } else {
                uint32_t c;
                rc = caps_of(r, &l, &c);
                needs |= c;
            }
            if (rc)
                return PROBE_ERROR;
            continue;
        }
        if (!stage) {
            stage = 1;
            if (r->tg) {
                char err[256];
                r->su.needs = needs;
                /* a slow probe (within_scale) must still answer before
                 * the device's local ACK timer runs out where the test
                 * left the timeout at its default: log2(scale) codes up */
                for (unsigned sc = r->o ? r->o->within_scale : 0;
                     !r->timeout_set && sc > 1 && r->su.timeout < 31; sc >>= 1)
                    r->su.timeout++;
                if (r->tg->open(r->tg->ctx, &r->su, &r->d, err, sizeof err))
                    return fail(r, "%s", err), PROBE_ERROR;
                r->mark = r->tg->now(r->tg->ctx);
                /* QP0 and QP1 are the SMI's and the GSI's (9.2; a RoCEv2
                 * port has QP1 only, A17.4): never a test's connection */
                if (r->d.qpn < 2)
                    return fail(r, "the device gave its %s QP the number %u, "
                                "which only QP0/QP1 may have",
                                r->su.type == PROBE_UD ? "UD" : "RC", r->d.qpn),
                           PROBE_FAIL;
                if ((r->d.caps & needs) != needs) {
                    snprintf(r->why, r->whylen, "the device lacks:");
                    for (size_t i = 0; i < sizeof capnames / sizeof capnames[0]; i++)
                        if ((needs & ~r->d.caps) & capnames[i].cap) {
                            size_t n = strlen(r->why);
                            snprintf(r->why + n, r->whylen - n, " %s",
                                     capnames[i].name);
                        }
                    return PROBE_NA;
                }
            }
        }
        /* the line is read without a target first: a script error is an
         * ERROR, not the device's FAIL */
        struct probe_target *tg = r->tg;
        if (tg && r->o && r->o->on_step)
            r->o->on_step(r->o->user, r->line, tg->now(tg->ctx));
        uint32_t recv_off = r->recv_off;
        for (int pass = tg ? 0 : 1; pass < 2; pass++) {
            r->tg = pass ? tg : NULL;
            if (!strcmp(k, ">")) rc = do_tx(r, &l);
            else if (!strcmp(k, "<")) rc = do_rx(r, &l);
            else if (!strcmp(k, ".")) rc = do_quiet(r, &l, 0);
            else if (!strcmp(k, "~")) rc = do_quiet(r, &l, 1);
            else if (!strcmp(k, "wait")) rc = do_wait(r, &l);
            else if (!strcmp(k, "recv")) rc = do_recv(r, &l);
            else if (!strcmp(k, "post")) rc = do_post(r, &l);
            else if (!strcmp(k, "cqe")) rc = do_cqe(r, &l);
            else if (!strcmp(k, "mem")) rc = do_mem(r, &l);
            else rc = fail(r, "unknown step '%s'", k);
            if (rc && (!pass || !tg)) {
                r->tg = tg;
                return PROBE_ERROR;
            }
            if (rc)
                return PROBE_FAIL;
            if (!pass)
                r->recv_off = recv_off;
        }
    }
    if (!stage)
        return fail(r, "the script has no steps"), PROBE_ERROR;
    if (r->tg) { /* a frame the device sent that no step took */
        r->text = "(end of script)";
        r->textlen = strlen(r->text);
        int g = next_frame(r, r->tg->now(r->tg->ctx));
        if (g < 0)
            return PROBE_FAIL;
        if (g) {
            struct probe_rx rx;
            char desc[256];
            probe_decode(r->pend[0].b, r->pend[0].len, &rx);
            probe_describe(&rx, desc, sizeof desc);
            return fail(r, "the device also sent %s", desc), PROBE_FAIL;
        }
    }
    if (r->quality[0]) {
        snprintf(r->why, r->whylen, "%s", r->quality);
        return PROBE_QUALITY;
    }
    return PROBE_PASS;
}

int probe_script_check(const char *script, char *err, size_t errlen)
{
    struct probe_test t = {"(check)", 0, "", "", "", script};
    struct run r;
    memset(&r, 0, sizeof r);
    r.t = &t;
    r.why = err;
    r.whylen = errlen;
    err[0] = 0;
    return interpret(&r) == PROBE_PASS ? 0 : -1;
}

void probe_run(const struct probe_test *t, struct probe_target *tg,
               const struct probe_opts *o, struct probe_result *res)
{
    struct run r;
    memset(&r, 0, sizeof r);
    memset(res, 0, sizeof *res);
    r.t = t;
    r.tg = tg;
    r.o = o;
    r.why = res->why;
    r.whylen = sizeof res->why;
    r.pend = calloc(MAXPEND, sizeof *r.pend);
    if (!r.pend) {
        res->verdict = PROBE_ERROR;
        snprintf(res->why, sizeof res->why, "out of memory");
        return;
    }
    int v = interpret(&r);
    res->verdict = (uint8_t)v;
    res->step_line = v == PROBE_PASS || v == PROBE_NA || v == PROBE_QUALITY ? 0 : r.line;
    if (v == PROBE_FAIL || v == PROBE_ERROR || v == PROBE_QUALITY ||
        (o && o->pcap_all))
        write_pcap(&r);
    if (o && o->at_end && r.d.qpn)
        o->at_end(o->user, tg);
    tg->close(tg->ctx);
    for (size_t i = 0; i < r.nlog; i++)
        free(r.log[i].b);
    free(r.log);
    free(r.pend);
}
