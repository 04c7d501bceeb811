/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lib_checker.c - the streaming checker of conformance/check behind
 * opaque handles: frames in (one at a time or a whole file), findings and
 * flow summaries out through the caller's callbacks.  The JSON object of
 * a summary is printed here, for the ABI and for `ibwire check --format
 * json` alike.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ibwire_lib_tool.h"
#include "lib_int.h"

struct ibwire_flow {
    const struct chk_flow_summary *s;
    char req[64], resp[64]; /* the endpoints as text */
};

struct ibwire_checker {
    struct chk_opts opts;  /* what chk_new() gets */
    struct chk *chk;       /* NULL until the first frame */
    ibwire_finding_fn finding;
    void *finding_user;
    ibwire_flow_fn flow;
    void *flow_user;
    /* the tool's hooks (ibwire_lib_tool.h) */
    chk_report_fn chk_finding;
    void *chk_finding_user;
    void (*event)(void *user, const struct chk_event *e);
    void *event_user;
    void (*settled)(void *user);
    void *settled_user;
    uint64_t frames;       /* frames fed through the ABI: their numbers */
    uint64_t flows;        /* summaries handed to the flow callback */
    int in_finding;        /* 1 + repeat flag while a finding is given */
    int finished;
    char error[600];
};

/* ---- callbacks from the checker --------------------------------------- */

static void give_finding(void *user, const struct chk_finding *f)
{
    ibwire_checker *c = user;
    if (c->chk_finding)
        c->chk_finding(c->chk_finding_user, f);
    if (!c->finding)
        return;
    const struct chk_rule_info *ri = chk_rule(f->rule);
    /* the ABI counts severity up: 2 error, 1 warning, 0 note */
    int severity = f->severity == CHK_ERROR ? 2 : 1;
    c->in_finding = 1 + (f->repeat != 0);
    c->finding(c->finding_user, f->frame, ri->id, severity, f->message,
               f->flow ? f->flow->id : 0);
    c->in_finding = 0;
}

IBWIRE_API const char *ibwire_rule_spec(const char *rule)
{
    if (!rule)
        return NULL;
    for (unsigned r = 0; r < CHK_RULE_COUNT; r++)
        if (!strcmp(chk_rule(r)->id, rule))
            return chk_rule(r)->spec;
    return NULL;
}

IBWIRE_API int ibwire_checker_finding_repeat(const ibwire_checker *c)
{
    if (!c || !c->in_finding)
        return IBWIRE_E_STATE;
    return c->in_finding - 1;
}

static void give_flow(void *user, const struct chk_flow_summary *s)
{
    ibwire_checker *c = user;
    ibwire_flow f = {.s = s};
    chk_addr_str(&s->req, f.req, sizeof f.req);
    chk_addr_str(&s->resp, f.resp, sizeof f.resp);
    c->flows++;
    if (c->flow)
        c->flow(c->flow_user, &f);
}

static void give_event(void *user, const struct chk_event *e)
{
    ibwire_checker *c = user;
    c->event(c->event_user, e);
}

/* ---- life cycle -------------------------------------------------------- */

IBWIRE_API ibwire_checker *ibwire_checker_new(void)
{
    return calloc(1, sizeof(struct ibwire_checker));
}

IBWIRE_API void ibwire_checker_free(ibwire_checker *c)
{
    if (!c)
        return;
    chk_free(c->chk);
    free(c);
}

/* Options may change until the first frame. */
static int configurable(const ibwire_checker *c)
{
    return !c ? IBWIRE_E_ARG : c->chk ? IBWIRE_E_STATE : 0;
}

IBWIRE_API int ibwire_checker_set_pmtu(ibwire_checker *c, uint32_t pmtu)
{
    int rc = configurable(c);
    if (rc)
        return rc;
    /* an IBA path MTU: 256, 512, 1024, 2048 or 4096 */
    if (pmtu && (pmtu < 256 || pmtu > 4096 || (pmtu & (pmtu - 1))))
        return IBWIRE_E_RANGE;
    c->opts.pmtu = pmtu;
    return 0;
}

IBWIRE_API int ibwire_checker_set_skew_ns(ibwire_checker *c, uint64_t ns)
{
    int rc = configurable(c);
    if (!rc)
        c->opts.skew_ns = ns;
    return rc;
}

IBWIRE_API int ibwire_checker_set_flow_idle_ns(ibwire_checker *c, uint64_t ns)
{
    int rc = configurable(c);
    if (!rc)
        c->opts.flow_idle_ns = ns;
    return rc;
}

IBWIRE_API int ibwire_checker_on_finding(ibwire_checker *c,
                                         ibwire_finding_fn fn, void *user)
{
    int rc = configurable(c);
    if (!rc) {
        c->finding = fn;
        c->finding_user = user;
    }
    return rc;
}

IBWIRE_API int ibwire_checker_on_flow(ibwire_checker *c, ibwire_flow_fn fn,
                                      void *user)
{
    int rc = configurable(c);
    if (!rc) {
        c->flow = fn;
        c->flow_user = user;
    }
    return rc;
}

struct chk_opts *ibwire_tool_checker_opts(ibwire_checker *c)
{
    return configurable(c) ? NULL : &c->opts;
}

int ibwire_tool_checker_on_chk_finding(ibwire_checker *c, chk_report_fn fn,
                                       void *user)
{
    int rc = configurable(c);
    if (!rc) {
        c->chk_finding = fn;
        c->chk_finding_user = user;
    }
    return rc;
}

int ibwire_tool_checker_on_event(ibwire_checker *c,
                                 void (*fn)(void *user,
                                            const struct chk_event *e),
                                 void *user)
{
    int rc = configurable(c);
    if (!rc) {
        c->event = fn;
        c->event_user = user;
    }
    return rc;
}

int ibwire_tool_checker_on_settled(ibwire_checker *c, void (*fn)(void *user),
                                   void *user)
{
    int rc = configurable(c);
    if (!rc) {
        c->settled = fn;
        c->settled_user = user;
    }
    return rc;
}

/* The checker, created at the first frame with the options set so far. */
static struct chk *started(ibwire_checker *c)
{
    if (c->chk)
        return c->chk;
    c->opts.report = give_finding;
    c->opts.user = c;
    c->opts.flow_end = give_flow;
    c->opts.event = c->event ? give_event : NULL;
    c->chk = chk_new(&c->opts);
    return c->chk;
}

struct chk *ibwire_tool_checker_chk(ibwire_checker *c)
{
    return c ? started(c) : NULL;
}

/* ---- frames ------------------------------------------------------------ */

/* The checker ready for another frame: 0, or IBWIRE_E_*. */
static int feedable(ibwire_checker *c)
{
    if (!c)
        return IBWIRE_E_ARG;
    if (c->finished)
        return IBWIRE_E_STATE;
    return started(c) ? 0 : IBWIRE_E_NOMEM;
}

IBWIRE_API int ibwire_checker_feed(ibwire_checker *c, const uint8_t *frame,
                                   size_t caplen, size_t origlen, int link,
                                   uint64_t ts_ns)
{
    struct cap_frame cf;
    int rc = feedable(c);
    if (rc)
        return rc;
    rc = lib_frame_describe(&cf, frame, caplen, origlen, link, ts_ns);
    if (rc)
        return rc;
    cf.number = ++c->frames;
    chk_frame(c->chk, &cf);
    return 0;
}

IBWIRE_API int ibwire_checker_feed_file(ibwire_checker *c, const char *path)
{
    int rc = feedable(c);
    if (rc)
        return rc;
    if (!path)
        return IBWIRE_E_ARG;
    char msg[512];
    struct cap_reader *rd = cap_open(path, msg, sizeof msg);
    if (!rd) {
        snprintf(c->error, sizeof c->error, "%s", msg);
        return IBWIRE_E_IO;
    }
    struct cap_frame cf;
    while ((rc = cap_next(rd, &cf)) == 1) {
        /* numbered on from the frames fed before */
        cf.number = ++c->frames;
        chk_frame(c->chk, &cf);
    }
    if (rc < 0)
        snprintf(c->error, sizeof c->error, "%s: %s", path, cap_error(rd));
    cap_close(rd);
    return rc < 0 ? IBWIRE_E_IO : 0;
}

IBWIRE_API int ibwire_checker_finish(ibwire_checker *c)
{
    int rc = feedable(c);
    if (rc)
        return rc;
    chk_finish(c->chk);
    c->finished = 1;
    if (c->settled)
        c->settled(c->settled_user);
    chk_flows(c->chk, give_flow, c);
    return 0;
}

IBWIRE_API uint64_t ibwire_checker_count(const ibwire_checker *c,
                                         const char *what)
{
    if (!c || !what)
        return 0;
    if (!strcmp(what, "flows"))
        return c->flows;
    if (!c->chk)
        return 0;
    const struct chk_stats *st = chk_stats(c->chk);
    if (!strcmp(what, "frames"))
        return st->frames;
    if (!strcmp(what, "iba"))
        return st->iba;
    if (!strcmp(what, "errors"))
        return st->errors;
    if (!strcmp(what, "warnings"))
        return st->warnings;
    if (!strcmp(what, "cm_messages"))
        return st->cm_messages;
    return 0;
}

IBWIRE_API const char *ibwire_checker_error(const ibwire_checker *c)
{
    return c && c->error[0] ? c->error : NULL;
}

/* ---- flow summaries ---------------------------------------------------- */

/* How a member of the JSON object is held in the summary. */
enum member_kind {
    M_TRANSPORT, /* string, "?" when unknown */
    M_ADDR,      /* struct chk_addr, as text */
    M_QPN,       /* uint32_t, null unless the int at `known` says */
    M_U64,
    M_U32,
    M_BOOL,      /* int, true or false (responses_only: 2 is true too) */
    M_STR        /* const char *, null when NULL */
};

struct member {
    const char *name;
    uint8_t kind;
    size_t at, known;
};

#define MEMBER(n, k, field) {n, k, offsetof(struct chk_flow_summary, field), 0}
#define QPN_MEMBER(n, field, flag)                                            \
    {n, M_QPN, offsetof(struct chk_flow_summary, field),                      \
     offsetof(struct chk_flow_summary, flag)}

/* The members in the order `ibwire check --format json` prints them. */
static const struct member members[] = {
    MEMBER("transport", M_TRANSPORT, transport),
    MEMBER("requester", M_ADDR, req),
    QPN_MEMBER("requester_qpn", req_qpn, req_qpn_known),
    MEMBER("responder", M_ADDR, resp),
    QPN_MEMBER("responder_qpn", resp_qpn, resp_qpn_known),
    MEMBER("first_frame", M_U64, first_frame),
    MEMBER("last_frame", M_U64, last_frame),
    MEMBER("requests", M_U64, requests),
    MEMBER("responses", M_U64, responses),
    MEMBER("messages", M_U64, messages),
    MEMBER("retransmissions", M_U64, retransmissions),
    MEMBER("gaps", M_U64, gaps),
    MEMBER("naks", M_U64, naks),
    MEMBER("rnr_naks", M_U64, rnr_naks),
    MEMBER("pmtu", M_U32, pmtu),
    MEMBER("started_mid", M_BOOL, started_mid),
    MEMBER("cm_negotiated", M_BOOL, cm_negotiated),
    MEMBER("errors", M_U64, errors),
    MEMBER("warnings", M_U64, warnings),
    MEMBER("pmtu_source", M_STR, pmtu_source),
    MEMBER("paired_by", M_STR, paired_by),
    MEMBER("responses_only", M_BOOL, responses_only),
    MEMBER("cut_frames", M_U64, cut_frames),
    MEMBER("capture_lost", M_U64, capture_lost),
    MEMBER("unexplained_gap_psns", M_U64, unexplained),
    MEMBER("ack_unsent", M_U64, ack_unsent),
    MEMBER("skew_ns", M_U64, skew_ns),
    MEMBER("cnps", M_U64, cnps),
    MEMBER("ecn_marks", M_U64, ecn_marks),
    MEMBER("reads", M_U64, reads),
    MEMBER("atomics", M_U64, atomics),
};
/* Not in the JSON object: the flow's number, which findings carry. */
static const struct member id_member = MEMBER("id", M_U64, id);

static const struct member *member_named(const char *name)
{
    if (!strcmp(name, id_member.name))
        return &id_member;
    for (size_t i = 0; i < sizeof members / sizeof members[0]; i++)
        if (!strcmp(members[i].name, name))
            return &members[i];
    return NULL;
}

static const void *member_at(const struct chk_flow_summary *s, size_t at)
{
    return (const char *)s + at;
}

/* A numeric or boolean member into *out: 1, or 0 when it is null. */
static int member_uint(const struct chk_flow_summary *s,
                       const struct member *m, uint64_t *out)
{
    const void *p = member_at(s, m->at);
    switch (m->kind) {
    case M_QPN:
        if (!*(const int *)member_at(s, m->known))
            return 0;
        *out = *(const uint32_t *)p;
        return 1;
    case M_U64: *out = *(const uint64_t *)p; return 1;
    case M_U32: *out = *(const uint32_t *)p; return 1;
    case M_BOOL: *out = *(const int *)p != 0; return 1;
    default: return 0;
    }
}

const struct chk_flow_summary *ibwire_tool_flow_summary(const ibwire_flow *f)
{
    return f ? f->s : NULL;
}

IBWIRE_API int ibwire_flow_uint(const ibwire_flow *f, const char *member,
                                uint64_t *out)
{
    if (!f || !member || !out)
        return IBWIRE_E_ARG;
    const struct member *m = member_named(member);
    return m ? member_uint(f->s, m, out) : 0;
}

IBWIRE_API const char *ibwire_flow_text(const ibwire_flow *f,
                                        const char *member)
{
    if (!f || !member)
        return NULL;
    const struct member *m = member_named(member);
    if (!m)
        return NULL;
    const void *p = member_at(f->s, m->at);
    switch (m->kind) {
    case M_TRANSPORT:
    case M_STR: return *(const char *const *)p;
    case M_ADDR:
        return m->at == offsetof(struct chk_flow_summary, req) ? f->req
                                                                : f->resp;
    default: return NULL;
    }
}

/* Text appended to buf as far as it fits; `len` counts it all. */
struct json_buf {
    char *buf;
    size_t cap, len;
};

/* Bytes appended as they are, and an unsigned number in decimal: a flow
 * summary is some forty of each, once per flow, and a printf call apiece
 * was most of `check --format json`'s time on captures of many short
 * connections. */
static void put_bytes(struct json_buf *j, const char *b, size_t n)
{
    if (j->len < j->cap) {
        size_t room = j->cap - j->len;
        memcpy(j->buf + j->len, b, n < room ? n : room);
        /* vsnprintf's contract kept: the text ends in NUL where it fits */
        if (n < room)
            j->buf[j->len + n] = '\0';
        else
            j->buf[j->cap - 1] = '\0';
    }
    j->len += n;
}

static void put_lit(struct json_buf *j, const char *s)
{
    put_bytes(j, s, strlen(s));
}

static void put_u64(struct json_buf *j, uint64_t v)
{
    char d[20];
    size_t n = 0;
    do {
        d[sizeof d - ++n] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    put_bytes(j, d + sizeof d - n, n);
}

/* One byte of a JSON string as JSON writes it: quotes and backslashes
 * escaped, control characters as \u00XX; into out, which it returns.  The
 * flow objects here and the tool's own JSON (file names, messages) share
 * it, so both escape alike. */
static const char *json_char(unsigned char ch, char out[8])
{
    if (ch == '"' || ch == '\\')
        snprintf(out, 8, "\\%c", ch);
    else if (ch < 0x20)
        snprintf(out, 8, "\\u%04x", ch);
    else {
        out[0] = (char)ch;
        out[1] = '\0';
    }
    return out;
}

static void put_str(struct json_buf *j, const char *s)
{
    char e[8];
    put_lit(j, "\"");
    while (*s) {
        size_t n = 0; /* a run that needs no escape goes in one piece */
        while (s[n] && s[n] != '"' && s[n] != '\\' &&
               (unsigned char)s[n] >= 0x20)
            n++;
        put_bytes(j, s, n);
        s += n;
        if (*s)
            put_lit(j, json_char((unsigned char)*s++, e));
    }
    put_lit(j, "\"");
}

void ibwire_tool_json_str(FILE *o, const char *s)
{
    char e[8];
    fputc('"', o);
    for (; *s; s++)
        fputs(json_char((unsigned char)*s, e), o);
    fputc('"', o);
}

int ibwire_tool_summary_json(const struct chk_flow_summary *s, char *buf,
                             size_t cap)
{
    struct json_buf j = {buf, cap, 0};
    char addr[64];
    uint64_t v;
    for (size_t i = 0; i < sizeof members / sizeof members[0]; i++) {
        const struct member *m = &members[i];
        const void *p = member_at(s, m->at);
        put_lit(&j, i ? ", \"" : "{\"");
        put_lit(&j, m->name);
        put_lit(&j, "\": ");
        switch (m->kind) {
        case M_TRANSPORT: {
            const char *t = *(const char *const *)p;
            put_lit(&j, "\"");
            put_lit(&j, t ? t : "?");
            put_lit(&j, "\"");
            break;
        }
        case M_ADDR:
            chk_addr_str(p, addr, sizeof addr);
            put_str(&j, addr);
            break;
        case M_STR: {
            const char *t = *(const char *const *)p;
            if (t)
                put_str(&j, t);
            else
                put_lit(&j, "null");
            break;
        }
        case M_BOOL:
            put_lit(&j, *(const int *)p ? "true" : "false");
            break;
        default:
            if (member_uint(s, m, &v))
                put_u64(&j, v);
            else
                put_lit(&j, "null");
        }
    }
    put_lit(&j, "}");
    if (j.len >= cap)
        return IBWIRE_E_NOSPACE;
    return j.len > INT32_MAX ? IBWIRE_E_NOSPACE : (int)j.len;
}

IBWIRE_API int ibwire_flow_json(const ibwire_flow *f, char *buf, size_t cap)
{
    if (!f || (!buf && cap))
        return IBWIRE_E_ARG;
    return ibwire_tool_summary_json(f->s, buf, cap);
}
