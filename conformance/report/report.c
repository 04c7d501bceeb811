/* SPDX-License-Identifier: Apache-2.0 */
/*
 * report.c - the HTML report of `ibwire check --report` (report.h).
 *
 * Per flow, a time-sequence graph in the manner of the Stevens/tcptrace
 * graphs drawn for TCP: request PSNs (unwrapped from 24 bits) against
 * capture time, the acknowledged-PSN line, READ response spans, a marker
 * for every retransmission, NAK, RNR NAK, CNP, ECN mark and finding, and a
 * throughput strip below.  CM exchanges are drawn as ladders.
 *
 * Memory is bounded by the flows drawn (MAX_FLOWS per file): the plain
 * packet series of a flow keep every k-th packet, k doubling whenever a
 * series fills (so they stay spread over the whole flow), while markers
 * are all kept since they are what the reader looks for.
 */
#include "report.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibwire/cm.h"
#include "ibwire/opcode.h"
#include "ibwire/packet.h"
#include "ibwire/wire.h"

#define MAX_FLOWS 1000        /* flows drawn and tabulated per file */
#define SERIES_CAP 4096       /* points a series keeps before thinning */
#define POINT_BUDGET 120000   /* plain points drawn over the whole report */
#define CHART_MIN_POINTS 100  /* ... but at least this many per series */
#define CHART_MAX_POINTS 3000 /* ... and at most this many */
#define TP_BINS 120           /* throughput strip bars */
#define OPEN_SPANS 16         /* READs waiting for their last response */
#define SPANS_CAP 2048        /* READ spans drawn per flow */
#define LOOSE_CAP 2000        /* findings without a flow listed per file */
#define MAX_LADDERS 16        /* CM endpoint pairs drawn per file */
#define LADDER_MSGS 64        /* CM messages drawn per ladder */
#define RING (1u << 18)       /* recent frames whose time is remembered */

enum mark_kind { MK_RETRANS, MK_NAK, MK_RNR, MK_CNP, MK_ECN, MK_FINDING, MK_N };

static const char *const mark_name[MK_N] = {
    "retransmission", "nak", "rnr", "cnp", "ecn", "finding"};

struct pt {
    uint64_t ts;
    int64_t y;
};

/* A packet series thinned to every `stride`-th packet as it grows. */
struct series {
    struct pt *v;
    size_t n, cap;
    uint64_t seen, stride;
};

struct mark {
    uint64_t ts, frame;
    int64_t y;
    uint8_t kind;  /* enum mark_kind */
    uint8_t has_y; /* 0: drawn in the band above the plot */
    uint8_t code;  /* NAK code, RNR timer, finding severity */
    uint16_t rule;
    uint32_t psn;
    size_t msg;    /* finding: offset of its message in the file's arena */
};

struct span {
    uint64_t t0, t1;
    int64_t y0, y1;
};

struct rflow {
    int have_summary;
    struct chk_flow_summary s;
    int have_ref;
    uint32_t ref_psn;
    int64_t ref_y;
    int have_y;
    int64_t ymin, ymax;
    uint64_t tmin, tmax;
    struct series req, rresp, ack;
    struct mark *mk;
    size_t nmk, capmk;
    uint64_t nkind[MK_N];
    struct span *sp;
    size_t nsp, capsp;
    uint64_t spans_dropped;
    struct span open[OPEN_SPANS];
    unsigned nopen;
    uint64_t bin[TP_BINS];
    uint64_t bin_w, bin_t0;
    uint64_t bytes, goodput_bytes;
    uint64_t nak_code[5]; /* by NAK code, 4 counting the rest */
    uint64_t last_retrans_frame;
};

struct cm_row {
    uint64_t ts, frame;
    uint16_t attr;
    uint8_t a_to_b;
    uint32_t comm;
};

struct ladder {
    struct chk_addr a, b;
    struct cm_row m[LADDER_MSGS];
    unsigned n;
    uint64_t more;
};

struct rfile {
    char *path;
    struct chk_stats st;
    int failed;
    uint64_t first_ts, last_ts, frames;
    struct rflow *flows[MAX_FLOWS + 1]; /* by flow id */
    uint64_t flows_over; /* flows past MAX_FLOWS: tabulated by the JSON */
    char *arena;
    size_t alen, acap;
    struct mark *loose;
    size_t nloose, caploose;
    uint64_t loose_more;
    struct ladder lad[MAX_LADDERS];
    unsigned nlad;
    uint64_t cm_more;
};

struct report {
    struct rfile **files;
    size_t nfiles, capfiles;
    struct rfile *cur;
    uint64_t *ring; /* time of frame n at n % RING */
    uint64_t last_frame, last_ts;
};

/* The report's arrays start with room for 16. */
static void *grow(void *v, size_t n, size_t *cap, size_t size)
{
    return chk_grow(v, n, cap, size, 16);
}

struct report *report_new(void)
{
    struct report *r = calloc(1, sizeof *r);
    if (r && !(r->ring = calloc(RING, sizeof *r->ring))) {
        free(r);
        r = NULL;
    }
    return r;
}

int report_file_begin(struct report *r, const char *path)
{
    struct rfile **nf = grow(r->files, r->nfiles, &r->capfiles, sizeof *nf);
    if (!nf)
        return -1;
    r->files = nf;
    struct rfile *f = calloc(1, sizeof *f);
    if (!f || !(f->path = strdup(path))) {
        free(f);
        r->cur = NULL;
        return -1;
    }
    r->files[r->nfiles++] = f;
    r->cur = f;
    r->last_frame = r->last_ts = 0;
    return 0;
}

void report_frame(struct report *r, uint64_t frame, uint64_t ts_ns)
{
    struct rfile *f = r->cur;
    if (!f)
        return;
    if (!f->frames++)
        f->first_ts = ts_ns;
    if (ts_ns > f->last_ts)
        f->last_ts = ts_ns;
    r->ring[frame & (RING - 1)] = ts_ns;
    r->last_frame = frame;
    r->last_ts = ts_ns;
}

/* The time of frame n, when it is recent enough to be remembered; else
 * that of the latest frame (a finding settled long after its frame). */
static uint64_t frame_ts(const struct report *r, uint64_t n)
{
    if (n && n <= r->last_frame && r->last_frame - n < RING)
        return r->ring[n & (RING - 1)];
    return r->last_ts;
}

static struct rflow *flow_of(struct rfile *f, uint64_t id)
{
    if (!id || id > MAX_FLOWS)
        return NULL;
    if (!f->flows[id]) {
        struct rflow *fl = calloc(1, sizeof *fl);
        if (!fl)
            return NULL;
        fl->tmin = UINT64_MAX;
        fl->req.stride = fl->rresp.stride = fl->ack.stride = 1;
        f->flows[id] = fl;
    }
    return f->flows[id];
}

static void series_add(struct series *s, uint64_t ts, int64_t y)
{
    if (s->seen++ % s->stride)
        return;
    if (s->n == SERIES_CAP) {
        /* full: keep every other point and take half as many next */
        for (size_t i = 0; i < s->n / 2; i++)
            s->v[i] = s->v[2 * i];
        s->n /= 2;
        s->stride *= 2;
    }
    struct pt *nv = grow(s->v, s->n, &s->cap, sizeof *nv);
    if (!nv)
        return;
    s->v = nv;
    s->v[s->n].ts = ts;
    s->v[s->n].y = y;
    s->n++;
}

static void seen_at(struct rflow *fl, uint64_t ts)
{
    if (ts < fl->tmin)
        fl->tmin = ts;
    if (ts > fl->tmax)
        fl->tmax = ts;
}

static void seen_y(struct rflow *fl, int64_t y)
{
    if (!fl->have_y || y < fl->ymin)
        fl->ymin = y;
    if (!fl->have_y || y > fl->ymax)
        fl->ymax = y;
    fl->have_y = 1;
}

/* PSN on the flow's unwrapped axis, nearest to the last request's; a
 * request moves the reference (other packets may name any PSN). */
static int64_t unwrap(struct rflow *fl, uint32_t psn, int is_request)
{
    if (!fl->have_ref) {
        fl->have_ref = 1;
        fl->ref_psn = psn;
        fl->ref_y = psn;
        return psn;
    }
    uint32_t u = (psn - fl->ref_psn) & 0xFFFFFFu;
    int64_t d = u >= 0x800000u ? (int64_t)u - 0x1000000 : (int64_t)u;
    int64_t y = fl->ref_y + d;
    if (is_request) {
        fl->ref_psn = psn;
        fl->ref_y = y;
    }
    return y;
}

/* Payload bytes into the throughput bins; the bins widen (pairs merged)
 * when the flow outlasts them. */
static void tp_add(struct rflow *fl, uint64_t ts, uint64_t bytes)
{
    if (!fl->bin_w) {
        fl->bin_w = 1000;
        fl->bin_t0 = ts;
    }
    uint64_t at = ts > fl->bin_t0 ? ts - fl->bin_t0 : 0;
    while (at / fl->bin_w >= TP_BINS) {
        for (unsigned i = 0; i < TP_BINS / 2; i++)
            fl->bin[i] = fl->bin[2 * i] + fl->bin[2 * i + 1];
        memset(fl->bin + TP_BINS / 2, 0, sizeof fl->bin / 2);
        fl->bin_w *= 2;
    }
    fl->bin[at / fl->bin_w] += bytes;
}

static struct mark *mark_add(struct rflow *fl, unsigned kind, uint64_t frame,
                             uint64_t ts)
{
    struct mark *nm = grow(fl->mk, fl->nmk, &fl->capmk, sizeof *nm);
    if (!nm)
        return NULL;
    fl->mk = nm;
    struct mark *m = &fl->mk[fl->nmk++];
    memset(m, 0, sizeof *m);
    m->kind = (uint8_t)kind;
    m->frame = frame;
    m->ts = ts;
    fl->nkind[kind]++;
    seen_at(fl, ts);
    return m;
}

static void span_close(struct rflow *fl, unsigned i)
{
    struct span *ns = fl->nsp < SPANS_CAP
                          ? grow(fl->sp, fl->nsp, &fl->capsp, sizeof *ns)
                          : NULL;
    if (ns)
        fl->sp = ns;
    if (ns)
        fl->sp[fl->nsp++] = fl->open[i];
    else
        fl->spans_dropped++;
    fl->open[i] = fl->open[--fl->nopen];
}

/* A READ request opens the span of PSNs its responses will use. */
static void read_request(struct rflow *fl, const struct ibw_pkt *p,
                         uint64_t ts, int64_t y)
{
    const uint8_t *reth = ibw_pkt_hdr(p, IBW_HDR_RETH);
    uint32_t len = reth ? ibw_reth_get_dmalen(reth) : 0;
    uint32_t mtu = fl->s.pmtu ? fl->s.pmtu : 4096;
    uint32_t npkt = len ? (len + mtu - 1) / mtu : 1;
    if (fl->nopen == OPEN_SPANS)
        span_close(fl, 0); /* never answered in full */
    struct span *s = &fl->open[fl->nopen++];
    s->t0 = s->t1 = ts;
    s->y0 = y;
    s->y1 = y + npkt - 1;
}

static void read_response(struct rflow *fl, uint64_t ts, int64_t y, int last)
{
    for (unsigned i = 0; i < fl->nopen; i++) {
        struct span *s = &fl->open[i];
        if (y < s->y0 || y > s->y1)
            continue;
        if (ts > s->t1)
            s->t1 = ts;
        if (last)
            span_close(fl, i);
        return;
    }
}

static void on_request(struct rflow *fl, const struct chk_event *e)
{
    const struct ibw_opcode_info *oi = ibw_opcode_info(e->pkt->opcode);
    int64_t y = unwrap(fl, e->psn, 1);
    seen_y(fl, y);
    series_add(&fl->req, e->ts_ns, y);
    uint32_t len = e->pkt->payload_wire_len;
    fl->bytes += len;
    if (fl->last_retrans_frame != e->frame) /* resends are no goodput */
        fl->goodput_bytes += len;
    tp_add(fl, e->ts_ns, len);
    if (oi->kind == IBW_OPK_READ)
        read_request(fl, e->pkt, e->ts_ns, y);
}

static void on_response(struct rflow *fl, const struct chk_event *e)
{
    const struct ibw_opcode_info *oi = ibw_opcode_info(e->pkt->opcode);
    int64_t y = unwrap(fl, e->psn, 0);
    const uint8_t *aeth = ibw_pkt_hdr(e->pkt, IBW_HDR_AETH);
    switch (oi->kind) {
    case IBW_OPK_READ_RESP: {
        int last = (oi->flags & IBW_OPF_LAST) != 0;
        seen_y(fl, y);
        series_add(&fl->rresp, e->ts_ns, y);
        tp_add(fl, e->ts_ns, e->pkt->payload_wire_len);
        read_response(fl, e->ts_ns, y, last);
        if (last)
            series_add(&fl->ack, e->ts_ns, y);
        break;
    }
    case IBW_OPK_ACK:
        if (aeth && ibw_aeth_syndrome_kind(ibw_aeth_get_syndrome(aeth)) ==
                        IBW_AETH_ACK) {
            seen_y(fl, y);
            series_add(&fl->ack, e->ts_ns, y);
        }
        break;
    case IBW_OPK_ATOMIC_ACK:
        seen_y(fl, y);
        series_add(&fl->ack, e->ts_ns, y);
        break;
    default: break;
    }
}

static void on_marker(struct rflow *fl, const struct chk_event *e,
                      unsigned kind)
{
    struct mark *m = mark_add(fl, kind, e->frame, e->ts_ns);
    if (!m)
        return;
    m->psn = e->psn;
    const uint8_t *aeth = ibw_pkt_hdr(e->pkt, IBW_HDR_AETH);
    uint8_t syn = aeth ? ibw_aeth_get_syndrome(aeth) : 0;
    switch (kind) {
    case MK_RETRANS:
        fl->last_retrans_frame = e->frame;
        /* fall through */
    case MK_NAK:
    case MK_RNR:
    case MK_ECN:
        m->y = unwrap(fl, e->psn, 0);
        m->has_y = 1;
        seen_y(fl, m->y);
        break;
    default: break;
    }
    if (kind == MK_NAK) {
        m->code = (uint8_t)ibw_aeth_syndrome_value(syn);
        fl->nak_code[m->code < 4 ? m->code : 4]++;
    } else if (kind == MK_RNR) {
        m->code = (uint8_t)ibw_aeth_syndrome_value(syn);
    }
}

static int same_addr(const struct chk_addr *x, const struct chk_addr *y)
{
    return x->kind == y->kind && !memcmp(x->a, y->a, sizeof x->a);
}

/* A CM message joins the ladder of its two endpoints. */
static void on_cm(struct rfile *f, const struct chk_event *e)
{
    struct ladder *l = NULL;
    int a_to_b = 1;
    for (unsigned i = 0; i < f->nlad && !l; i++) {
        if (same_addr(&f->lad[i].a, e->src) && same_addr(&f->lad[i].b, e->dst))
            l = &f->lad[i];
        else if (same_addr(&f->lad[i].b, e->src) &&
                 same_addr(&f->lad[i].a, e->dst)) {
            l = &f->lad[i];
            a_to_b = 0;
        }
    }
    if (!l) {
        if (f->nlad == MAX_LADDERS) {
            f->cm_more++;
            return;
        }
        l = &f->lad[f->nlad++];
        l->a = *e->src;
        l->b = *e->dst;
    }
    if (l->n == LADDER_MSGS) {
        l->more++;
        return;
    }
    struct cm_row *m = &l->m[l->n++];
    m->ts = e->ts_ns;
    m->frame = e->frame;
    m->attr = e->cm->attributeid;
    m->a_to_b = (uint8_t)a_to_b;
    /* every CM message that has IDs starts with the sender's local one */
    m->comm = e->cm->u.req.localcommid;
}

void report_event(struct report *r, const struct chk_event *e)
{
    struct rfile *f = r->cur;
    if (!f)
        return;
    if (e->kind == CHK_EV_CM) {
        on_cm(f, e);
        return;
    }
    struct rflow *fl = e->flow ? flow_of(f, e->flow->id) : NULL;
    if (!fl)
        return;
    seen_at(fl, e->ts_ns);
    switch (e->kind) {
    case CHK_EV_REQUEST: on_request(fl, e); break;
    case CHK_EV_RESPONSE: on_response(fl, e); break;
    case CHK_EV_RETRANSMISSION: on_marker(fl, e, MK_RETRANS); break;
    case CHK_EV_NAK: on_marker(fl, e, MK_NAK); break;
    case CHK_EV_RNR: on_marker(fl, e, MK_RNR); break;
    case CHK_EV_CNP: on_marker(fl, e, MK_CNP); break;
    case CHK_EV_ECN: on_marker(fl, e, MK_ECN); break;
    default: break;
    }
}

static size_t arena_put(struct rfile *f, const char *s)
{
    size_t n = strlen(s) + 1;
    if (f->alen + n > f->acap) {
        size_t cap = f->acap ? f->acap : 4096;
        while (cap < f->alen + n)
            cap *= 2;
        char *na = realloc(f->arena, cap);
        if (!na)
            return SIZE_MAX;
        f->arena = na;
        f->acap = cap;
    }
    memcpy(f->arena + f->alen, s, n);
    f->alen += n;
    return f->alen - n;
}

/* A finding listed outside the charts: room for it, or NULL when the list
 * is full (then counted). */
static struct mark *loose_add(struct rfile *f)
{
    if (f->nloose == LOOSE_CAP) {
        f->loose_more++;
        return NULL;
    }
    struct mark *nl = grow(f->loose, f->nloose, &f->caploose, sizeof *nl);
    if (!nl)
        return NULL;
    f->loose = nl;
    return &f->loose[f->nloose++];
}

void report_finding(struct report *r, const struct chk_finding *fd)
{
    struct rfile *f = r->cur;
    if (!f)
        return;
    uint64_t ts = frame_ts(r, fd->frame);
    struct rflow *fl = fd->flow ? flow_of(f, fd->flow->id) : NULL;
    struct mark *m = NULL;
    if (fl) {
        m = mark_add(fl, MK_FINDING, fd->frame, ts);
    } else if (fd->flow) {
        return; /* a flow past MAX_FLOWS */
    } else if ((m = loose_add(f))) {
        memset(m, 0, sizeof *m);
        m->kind = MK_FINDING;
        m->frame = fd->frame;
        m->ts = ts;
    }
    if (!m)
        return;
    m->rule = (uint16_t)fd->rule;
    m->code = (uint8_t)fd->severity;
    m->msg = arena_put(f, fd->message);
}

void report_flow(struct report *r, const struct chk_flow_summary *s)
{
    if (!r->cur)
        return;
    struct rflow *fl = flow_of(r->cur, s->id);
    if (!fl) {
        r->cur->flows_over++;
        return;
    }
    fl->have_summary = 1;
    fl->s = *s; /* its strings are static */
}

void report_file_end(struct report *r, const struct chk_stats *st, int failed)
{
    if (!r->cur)
        return;
    r->cur->st = *st;
    r->cur->failed = failed;
    for (unsigned i = 1; i <= MAX_FLOWS; i++) {
        struct rflow *fl = r->cur->flows[i];
        while (fl && fl->nopen) /* READs never answered in full */
            span_close(fl, 0);
        /* a flow with no summary (a response stream merged into its
         * request flow) gets no chart: its findings are listed */
        for (size_t k = 0; fl && !fl->have_summary && k < fl->nmk; k++) {
            struct mark *m = fl->mk[k].kind == MK_FINDING ? loose_add(r->cur)
                                                          : NULL;
            if (m)
                *m = fl->mk[k];
        }
    }
    r->cur = NULL;
}

/* ---- writing ---- */

/* Text from the capture (paths, messages quoting its fields) as HTML
 * text or attribute value: markup characters as entities, and control
 * characters, which HTML does not allow, as '?'. */
static void esc(FILE *o, const char *s)
{
    static const char *const entity[] = {
        ['<'] = "&lt;", ['>'] = "&gt;", ['&'] = "&amp;", ['"'] = "&quot;",
        ['\''] = "&#39;"};
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch < sizeof entity / sizeof *entity && entity[ch])
            fputs(entity[ch], o);
        else
            fputc(ch < 0x20 && ch != '\t' && ch != '\n' ? '?' : ch, o);
    }
}

/* ts - t0, 0 for a time before t0 (a capture whose clock stepped back) */
static uint64_t since(uint64_t ts, uint64_t t0)
{
    return ts > t0 ? ts - t0 : 0;
}

static void fmt_time(char *buf, size_t n, uint64_t ns)
{
    if (ns >= 1000000000ull)
        snprintf(buf, n, "%.6g s", (double)ns / 1e9);
    else if (ns >= 1000000)
        snprintf(buf, n, "%.6g ms", (double)ns / 1e6);
    else
        snprintf(buf, n, "%.6g us", (double)ns / 1e3);
}

static void fmt_rate(char *buf, size_t n, uint64_t bytes, uint64_t ns)
{
    if (!ns || !bytes) {
        snprintf(buf, n, "-");
        return;
    }
    double bps = (double)bytes * 8e9 / (double)ns;
    if (bps >= 1e9)
        snprintf(buf, n, "%.2f Gb/s", bps / 1e9);
    else if (bps >= 1e6)
        snprintf(buf, n, "%.2f Mb/s", bps / 1e6);
    else
        snprintf(buf, n, "%.1f kb/s", bps / 1e3);
}

static const char *nak_name(unsigned code)
{
    switch (code) {
    case IBW_NAK_PSN_SEQ_ERROR: return "PSN sequence error";
    case IBW_NAK_INVALID_REQUEST: return "invalid request";
    case IBW_NAK_REMOTE_ACCESS_ERROR: return "remote access error";
    case IBW_NAK_REMOTE_OP_ERROR: return "remote operational error";
    case IBW_NAK_INVALID_RD_REQUEST: return "invalid RD request";
    default: return "reserved code";
    }
}

static const char *const nak_short[5] = {"seq", "inval", "access", "op",
                                         "other"};

/* A round step for an axis spanning `range` in about `ticks` steps. */
static double nice_step(double range, int ticks)
{
    double raw = range / ticks, p = 1;
    while (p * 10 <= raw)
        p *= 10;
    while (p > raw)
        p /= 10;
    double m = raw / p;
    return p * (m < 2 ? 2 : m < 5 ? 5 : 10);
}

/* Chart geometry: plot area, then the throughput strip below it. */
#define CW 960.0
#define CL 78.0
#define CR 16.0
#define BAND_FIND 12.0 /* findings row */
#define BAND_CNP 26.0  /* CNP row */
#define CT 38.0
#define PH 300.0
#define TP_TOP (CT + PH + 34.0)
#define TP_H 60.0
#define CH (TP_TOP + TP_H + 22.0)
#define PW (CW - CL - CR)

struct axes {
    uint64_t t0, t1, file_t0;
    int64_t y0, y1;
};

static double ax_x(const struct axes *a, uint64_t ts)
{
    if (a->t1 <= a->t0)
        return CL + PW / 2;
    /* inset so that markers at the first and last packet show whole */
    uint64_t d = since(ts, a->t0);
    return CL + 8 + (double)d / (double)(a->t1 - a->t0) * (PW - 16);
}

static double ax_y(const struct axes *a, int64_t y)
{
    if (a->y1 <= a->y0)
        return CT + PH / 2;
    return CT + PH - (double)(y - a->y0) / (double)(a->y1 - a->y0) * PH;
}

static void draw_grid(FILE *o, const struct axes *a)
{
    fprintf(o, "<rect class=\"plot\" x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" "
            "height=\"%.0f\"/>", CL, CT, PW, PH);
    double span = (double)(a->t1 - a->t0);
    if (span > 0) {
        double st = nice_step(span, 8);
        double first = (double)(a->t0 - a->file_t0);
        double t = st * (double)(uint64_t)(first / st + 0.999999);
        for (; t <= first + span; t += st) {
            uint64_t ts = a->file_t0 + (uint64_t)t;
            double x = ax_x(a, ts);
            char lab[32];
            fmt_time(lab, sizeof lab, (uint64_t)t);
            fprintf(o, "<path class=\"grid\" d=\"M%.1f %.0fV%.0f\"/>"
                    "<text class=\"tick\" x=\"%.1f\" y=\"%.0f\">%s</text>",
                    x, CT, CT + PH, x, CT + PH + 14, lab);
        }
    }
    if (a->y1 > a->y0) {
        double st = nice_step((double)(a->y1 - a->y0), 6);
        if (st < 1)
            st = 1;
        int64_t s = (int64_t)st;
        int64_t y = a->y0 / s * s;
        if (y < a->y0)
            y += s;
        for (; y <= a->y1; y += s) {
            double yy = ax_y(a, y);
            fprintf(o, "<path class=\"grid\" d=\"M%.0f %.1fH%.0f\"/>"
                    "<text class=\"ytick\" x=\"%.0f\" y=\"%.1f\">0x%06" PRIx64
                    "</text>", CL, yy, CL + PW, CL - 4, yy + 3,
                    (uint64_t)y & 0xFFFFFFu);
        }
    }
    fprintf(o, "<text class=\"lab\" x=\"%.0f\" y=\"%.0f\">findings</text>"
            "<text class=\"lab\" x=\"%.0f\" y=\"%.0f\">CNP</text>"
            "<text class=\"lab\" x=\"%.0f\" y=\"%.0f\">capture time from the "
            "start of the file</text>",
            CL - 4, BAND_FIND + 3, CL - 4, BAND_CNP + 3, CL + PW / 2,
            CT + PH + 28);
}

/* Coordinate v to a tenth, as %.1f would print it but without a trailing
 * ".0": the plain packets are most of the page, and printf's floating
 * point conversion most of the time spent writing them. */
static void num(FILE *o, double v)
{
    char buf[32], *e = buf + sizeof buf, *p = e;
    long t = (long)(v * 10 + (v < 0 ? -0.5 : 0.5));
    unsigned long u = t < 0 ? (unsigned long)-t : (unsigned long)t;
    if (u % 10) {
        *--p = (char)('0' + u % 10);
        *--p = '.';
    }
    u /= 10;
    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (t < 0)
        *--p = '-';
    fwrite(p, 1, (size_t)(e - p), o);
}

/* A vertical segment per packet of series s, as tall as one PSN (within
 * what stays visible), at most `budget` of them. */
static void draw_series(FILE *o, const char *cls, const struct series *s,
                        const struct axes *a, uint32_t budget)
{
    if (!s->n)
        return;
    size_t step = (s->n + budget - 1) / budget;
    double h = a->y1 > a->y0 ? PH / (double)(a->y1 - a->y0) : 8;
    h = h < 3 ? 3 : h > 14 ? 14 : h;
    fprintf(o, "<path class=\"%s\" d=\"", cls);
    for (size_t i = 0; i < s->n; i += step) {
        fputc('M', o);
        num(o, ax_x(a, s->v[i].ts));
        fputc(' ', o);
        num(o, ax_y(a, s->v[i].y) + h / 2);
        fputs("v-", o);
        num(o, h);
    }
    fputs("\"/>", o);
}

static int cmp_pt(const void *x, const void *y)
{
    const struct pt *p = x, *q = y;
    return (p->ts > q->ts) - (p->ts < q->ts);
}

/* The highest PSN acknowledged so far, as a staircase. */
static void draw_ack(FILE *o, const struct series *s, const struct axes *a,
                     uint32_t budget)
{
    if (!s->n)
        return;
    /* responses held for their requests arrive late: order by time */
    qsort(s->v, s->n, sizeof *s->v, cmp_pt);
    size_t step = (s->n + budget - 1) / budget;
    int64_t hi = s->v[0].y;
    fprintf(o, "<path class=\"ack\" d=\"M%.1f %.1f", ax_x(a, s->v[0].ts),
            ax_y(a, hi));
    for (size_t i = 0; i < s->n; i++) {
        int last = i + 1 == s->n;
        if (s->v[i].y > hi)
            hi = s->v[i].y;
        if (i % step && !last)
            continue;
        fputc('H', o);
        num(o, ax_x(a, s->v[i].ts));
        fputc('V', o);
        num(o, ax_y(a, hi));
    }
    fputs("\"/>", o);
}

static void draw_spans(FILE *o, const struct rflow *fl, const struct axes *a)
{
    if (!fl->nsp)
        return;
    fputs("<path class=\"span\" d=\"", o);
    for (size_t i = 0; i < fl->nsp; i++) {
        const struct span *s = &fl->sp[i];
        double x0 = ax_x(a, s->t0), x1 = ax_x(a, s->t1);
        double y0 = ax_y(a, s->y1) - 3, y1 = ax_y(a, s->y0) + 3;
        if (x1 - x0 < 1.5)
            x1 = x0 + 1.5;
        fprintf(o, "M%.1f %.1fH%.1fV%.1fH%.1fZ", x0, y0, x1, y1, x0);
    }
    fputs("\"/>", o);
}

static void mark_title(FILE *o, const struct rfile *f, const struct mark *m,
                       const struct axes *a)
{
    char t[32];
    fmt_time(t, sizeof t, since(m->ts, a->file_t0));
    fprintf(o, "<title>frame %" PRIu64 " at %s: ", m->frame, t);
    switch (m->kind) {
    case MK_RETRANS:
        fprintf(o, "retransmission of PSN 0x%06x", m->psn);
        break;
    case MK_NAK:
        fprintf(o, "NAK (%s) at PSN 0x%06x", nak_name(m->code), m->psn);
        break;
    case MK_RNR:
        fprintf(o, "RNR NAK at PSN 0x%06x, timer code %u (%u us)", m->psn,
                m->code, ibw_rnr_timer_usec(m->code));
        break;
    case MK_CNP:
        fputs("CNP to the requester", o);
        break;
    case MK_ECN:
        fprintf(o, "congestion mark (ECN CE or FECN) on PSN 0x%06x", m->psn);
        break;
    case MK_FINDING: {
        const struct chk_rule_info *ri = chk_rule(m->rule);
        fprintf(o, "%s %s: ", ri->id, chk_severity_name(m->code));
        if (m->msg != SIZE_MAX)
            esc(o, f->arena + m->msg);
        break;
    }
    default: break;
    }
    fputs("</title>", o);
}

static void draw_marks(FILE *o, const struct rfile *f, const struct rflow *fl,
                       const struct axes *a)
{
    for (size_t i = 0; i < fl->nmk; i++) {
        const struct mark *m = &fl->mk[i];
        double x = ax_x(a, m->ts), y = m->has_y ? ax_y(a, m->y) : 0;
        const char *kind = mark_name[m->kind];
        fprintf(o, "<g class=\"m-%s%s\" data-kind=\"%s\" data-frame=\"%"
                PRIu64 "\">", kind,
                m->kind == MK_FINDING && m->code == CHK_ERROR ? " err" : "",
                kind, m->frame);
        mark_title(o, f, m, a);
        switch (m->kind) {
        case MK_RETRANS:
            fprintf(o, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\"/>", x, y);
            break;
        case MK_NAK:
            fprintf(o, "<path d=\"M%.1f %.1fl8 8m0-8l-8 8\"/>", x - 4, y - 4);
            break;
        case MK_RNR:
            fprintf(o, "<path d=\"M%.1f %.1fl5 5-5 5-5-5z\"/>", x, y - 5);
            break;
        case MK_ECN:
            fprintf(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"5\" "
                    "height=\"5\"/>", x - 2.5, y - 2.5);
            break;
        case MK_CNP:
            fprintf(o, "<path d=\"M%.1f %.1fh8l-4 7z\"/>", x - 4,
                    BAND_CNP - 4);
            break;
        case MK_FINDING:
            fprintf(o, "<path d=\"M%.1f %.1fl4 -8 4 8z\"/>", x - 4,
                    BAND_FIND + 4);
            break;
        default: break;
        }
        fputs("</g>", o);
    }
}

static void draw_throughput(FILE *o, const struct rflow *fl,
                            const struct axes *a)
{
    uint64_t top = 0;
    for (unsigned i = 0; i < TP_BINS; i++)
        if (fl->bin[i] > top)
            top = fl->bin[i];
    fprintf(o, "<rect class=\"plot\" x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" "
            "height=\"%.0f\"/>", CL, TP_TOP, PW, TP_H);
    char rate[32];
    fmt_rate(rate, sizeof rate, top, fl->bin_w);
    fprintf(o, "<text class=\"ytick\" x=\"%.0f\" y=\"%.0f\">%s</text>"
            "<text class=\"ytick\" x=\"%.0f\" y=\"%.0f\">payload</text>",
            CL - 4, TP_TOP + 9, rate, CL - 4, TP_TOP + TP_H);
    if (!top)
        return;
    fputs("<path class=\"tp\" d=\"", o);
    for (unsigned i = 0; i < TP_BINS; i++) {
        if (!fl->bin[i])
            continue;
        uint64_t t = fl->bin_t0 + i * fl->bin_w;
        double x0 = ax_x(a, t), x1 = ax_x(a, t + fl->bin_w);
        if (x1 > CL + PW)
            x1 = CL + PW;
        if (x1 - x0 < 1)
            x1 = x0 + 1;
        double h = (double)fl->bin[i] / (double)top * (TP_H - 2);
        fprintf(o, "M%.1f %.1fH%.1fV%.1fH%.1fZ", x0, TP_TOP + TP_H, x1,
                TP_TOP + TP_H - h, x0);
    }
    fputs("\"/>", o);
}

static void flow_title(FILE *o, const struct rflow *fl)
{
    char a[64], b[64];
    chk_addr_str(&fl->s.req, a, sizeof a);
    chk_addr_str(&fl->s.resp, b, sizeof b);
    esc(o, a);
    if (fl->s.req_qpn_known)
        fprintf(o, " QP 0x%06x", fl->s.req_qpn);
    fputs(" &#8594; ", o);
    esc(o, b);
    if (fl->s.resp_qpn_known)
        fprintf(o, " QP 0x%06x", fl->s.resp_qpn);
}

static void draw_chart(FILE *o, size_t fi, const struct rfile *f,
                       struct rflow *fl, uint32_t budget)
{
    struct axes a = {fl->tmin, fl->tmax, f->first_ts, fl->ymin, fl->ymax};
    if (fl->tmin == UINT64_MAX)
        a.t0 = a.t1 = f->first_ts;
    if (a.file_t0 > a.t0)
        a.file_t0 = a.t0;
    a.y0 -= 1;
    a.y1 += 1;
    fprintf(o, "<figure class=\"flow\" id=\"f%zu-flow-%" PRIu64 "\">"
            "<figcaption>Flow %" PRIu64 " (%s): ", fi, fl->s.id, fl->s.id,
            fl->s.transport ? fl->s.transport : "?");
    flow_title(o, fl);
    fprintf(o, ", frames %" PRIu64 "&#8211;%" PRIu64 "</figcaption>",
            fl->s.first_frame, fl->s.last_frame);
    fprintf(o, "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" "
            "viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" height=\"%.0f\" "
            "data-flow=\"%" PRIu64 "\" data-first-frame=\"%" PRIu64 "\" "
            "data-last-frame=\"%" PRIu64 "\" role=\"img\">",
            CW, CH, CW, CH, fl->s.id, fl->s.first_frame, fl->s.last_frame);
    draw_grid(o, &a);
    draw_spans(o, fl, &a);
    draw_ack(o, &fl->ack, &a, budget); /* under the packets it answers */
    draw_series(o, "req", &fl->req, &a, budget);
    draw_series(o, "rresp", &fl->rresp, &a, budget);
    draw_marks(o, f, fl, &a);
    draw_throughput(o, fl, &a);
    fputs("</svg>", o);
    if (fl->req.stride > 1 || fl->rresp.stride > 1 ||
        fl->req.n > budget || fl->spans_dropped)
        fprintf(o, "<p class=\"note\">Plain packets thinned for drawing "
                "(%" PRIu64 " requests, %" PRIu64 " READ responses); every "
                "marker is drawn%s.</p>", fl->req.seen, fl->rresp.seen,
                fl->spans_dropped ? "; some READ spans are not" : "");
    fputs("</figure>\n", o);
}

static void flow_notes(FILE *o, const struct chk_flow_summary *s)
{
    const char *sep = "";
#define NOTE(...)                                                              \
    do {                                                                       \
        fputs(sep, o);                                                         \
        fprintf(o, __VA_ARGS__);                                               \
        sep = "; ";                                                            \
    } while (0)
    if (s->started_mid)
        NOTE("started mid-message");
    if (s->cm_negotiated)
        NOTE("negotiated by CM");
    else if (s->paired_by)
        NOTE("paired by %s", !strcmp(s->paired_by, "psn") ? "PSN (no CM)"
                                                           : s->paired_by);
    if (s->responses_only)
        NOTE("responses only%s", s->responses_only == 2 ? " (ambiguous)" : "");
    if (s->cut_frames)
        NOTE("%" PRIu64 " frames cut by the capture", s->cut_frames);
    if (s->capture_lost)
        NOTE("%" PRIu64 " PSNs lost by the capture", s->capture_lost);
    if (s->unexplained)
        NOTE("%" PRIu64 " PSNs never seen", s->unexplained);
    if (s->ack_unsent)
        NOTE("%" PRIu64 " responses to requests not captured", s->ack_unsent);
    if (s->skew_ns)
        NOTE("direction skew up to %" PRIu64 " us", s->skew_ns / 1000);
#undef NOTE
}

static void flow_row(FILE *o, size_t fi, const struct rflow *fl)
{
    const struct chk_flow_summary *s = &fl->s;
    char a[64], b[64], rate[32];
    chk_addr_str(&s->req, a, sizeof a);
    chk_addr_str(&s->resp, b, sizeof b);
    fprintf(o, "<tr><td><a href=\"#f%zu-flow-%" PRIu64 "\">%" PRIu64
            "</a></td><td>%s</td><td>", fi, s->id, s->id,
            s->transport ? s->transport : "?");
    esc(o, a);
    if (s->req_qpn_known)
        fprintf(o, "<br>QP 0x%06x", s->req_qpn);
    fputs("</td><td>", o);
    esc(o, b);
    if (s->resp_qpn_known)
        fprintf(o, "<br>QP 0x%06x", s->resp_qpn);
    fputs("</td><td>", o);
    if (s->pmtu)
        fprintf(o, "%u (%s)", s->pmtu, s->pmtu_source ? s->pmtu_source : "?");
    else
        fputs("?", o);
    fmt_rate(rate, sizeof rate, fl->goodput_bytes,
             fl->tmax > fl->tmin && fl->tmin != UINT64_MAX
                 ? fl->tmax - fl->tmin : 0);
    fprintf(o, "</td><td>%" PRIu64 "</td><td>%" PRIu64 "</td><td>%" PRIu64
            "</td><td>%" PRIu64 "</td><td>%s</td><td>%" PRIu64 "</td><td>",
            s->requests, s->responses, s->messages, fl->bytes, rate,
            s->retransmissions);
    fprintf(o, "%" PRIu64, s->naks);
    if (s->naks) {
        const char *sep = " (";
        for (unsigned k = 0; k < 5; k++)
            if (fl->nak_code[k]) {
                fprintf(o, "%s%s %" PRIu64, sep, nak_short[k], fl->nak_code[k]);
                sep = ", ";
            }
        fputc(')', o);
    }
    fprintf(o, "</td><td>%" PRIu64 "</td><td>%" PRIu64 "</td><td>%" PRIu64
            "</td><td class=\"notes\">", s->rnr_naks, s->cnps, s->ecn_marks);
    flow_notes(o, s);
    fprintf(o, "</td><td class=\"%s\">%" PRIu64 " errors, %" PRIu64
            " warnings</td></tr>\n", s->errors ? "bad" : "", s->errors,
            s->warnings);
}

/* The CM messages between two endpoints, one row each, top to bottom. */
static void draw_ladder(FILE *o, const struct rfile *f, const struct ladder *l)
{
    const double lx = 230, rx = 730, row = 24, top = 40;
    double h = top + row * l->n + 16;
    char a[64], b[64];
    chk_addr_str(&l->a, a, sizeof a);
    chk_addr_str(&l->b, b, sizeof b);
    fprintf(o, "<svg class=\"ladder\" xmlns=\"http://www.w3.org/2000/svg\" "
            "viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" height=\"%.0f\">",
            CW, h, CW, h);
    fprintf(o, "<text class=\"end\" x=\"%.0f\" y=\"16\">", lx);
    esc(o, a);
    fprintf(o, "</text><text class=\"end\" x=\"%.0f\" y=\"16\">", rx);
    esc(o, b);
    fprintf(o, "</text><path class=\"life\" d=\"M%.0f 24V%.0fM%.0f 24V%.0f\"/>",
            lx, h - 6, rx, h - 6);
    for (unsigned i = 0; i < l->n; i++) {
        const struct cm_row *m = &l->m[i];
        double y = top + row * i + 8;
        double x0 = m->a_to_b ? lx : rx, x1 = m->a_to_b ? rx : lx;
        double dir = m->a_to_b ? -1 : 1;
        const char *name = ibw_cm_attr_name(m->attr);
        char t[32];
        fmt_time(t, sizeof t, since(m->ts, f->first_ts));
        fprintf(o, "<g class=\"cm\" data-frame=\"%" PRIu64 "\"><title>frame %"
                PRIu64 " at %s: %s, communication ID 0x%08x</title>"
                "<path d=\"M%.0f %.1fH%.0fm%.0f -4l%.0f 4 %.0f 4\"/>"
                "<text x=\"%.0f\" y=\"%.1f\">%s</text>"
                "<text class=\"t\" x=\"%.0f\" y=\"%.1f\">%s, frame %" PRIu64
                "</text></g>",
                m->frame, m->frame, t, name ? name : "?", m->comm, x0, y, x1,
                dir * 8, -dir * 8, dir * 8, (lx + rx) / 2, y - 4,
                name ? name : "?", lx - 12, y + 4, t, m->frame);
    }
    fputs("</svg>", o);
    if (l->more)
        fprintf(o, "<p class=\"note\">%" PRIu64 " more CM messages between "
                "these endpoints are not drawn.</p>", l->more);
}

static const char css[] =
    "body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222;"
    "max-width:1300px}"
    "h1{font-size:1.5em}h2{border-bottom:1px solid #ccc;margin-top:2em}"
    "table{border-collapse:collapse;margin:.5em 0}"
    "td,th{border:1px solid #ddd;padding:2px 6px;text-align:left;"
    "vertical-align:top}th{background:#f3f3f3}"
    ".bad{color:#b00020;font-weight:600}.ok{color:#176f2c;font-weight:600}"
    ".flows{font-size:12px}.flows td{white-space:nowrap}"
    ".flows td.notes{white-space:normal;min-width:180px;max-width:260px}"
    ".note{font-size:12px;color:#555}.wide{overflow-x:auto}"
    "figure{margin:1em 0}figcaption{font-weight:600;margin-bottom:4px}"
    "svg{background:#fff;border:1px solid #ddd;max-width:100%;height:auto}"
    "svg text{font:11px system-ui,sans-serif;fill:#333}"
    ".plot{fill:#fcfcfc;stroke:#bbb}.grid{stroke:#eee}"
    ".tick{text-anchor:middle}.ytick,.lab{text-anchor:end}"
    ".req{stroke:#1f5fbf;stroke-width:1.3}"
    ".rresp{stroke:#2a9d3a;stroke-width:1.3}"
    ".ack{stroke:#0b8a6a;stroke-width:1.2;fill:none}"
    ".span{fill:#f4a261;fill-opacity:.25;stroke:#e76f51;stroke-opacity:.5}"
    ".tp{fill:#7aa6e0}"
    ".m-retransmission{fill:none;stroke:#d62828;stroke-width:1.5}"
    ".m-nak{stroke:#9d0208;stroke-width:2}"
    ".m-rnr{fill:#f77f00;stroke:#9c4a00}"
    ".m-cnp{fill:#7b2cbf}.m-ecn{fill:#e9c46a;stroke:#8a6d1f}"
    ".m-finding{fill:#e9c46a;stroke:#8a6d1f}.m-finding.err{fill:#d62828;"
    "stroke:#7a0010}"
    ".ladder path{stroke:#444;fill:none}.ladder .life{stroke:#aaa;"
    "stroke-dasharray:4 3}.ladder text{text-anchor:middle}"
    ".ladder .t{text-anchor:end;fill:#666}.ladder .end{font-weight:600}"
    ".key span{display:inline-block;margin-right:1.2em}"
    ".sw{display:inline-block;width:12px;height:12px;margin-right:4px;"
    "vertical-align:-2px;border-radius:2px}";

static const char legend[] =
    "<p class=\"key\"><span><i class=\"sw\" style=\"background:#1f5fbf\">"
    "</i>request PSN</span><span><i class=\"sw\" style=\"background:#2a9d3a\">"
    "</i>READ response PSN</span><span><i class=\"sw\" "
    "style=\"background:#f4a261\"></i>READ span (request to last "
    "response)</span><span><i class=\"sw\" style=\"background:#0b8a6a\">"
    "</i>acknowledged PSN</span><span><i class=\"sw\" "
    "style=\"border:2px solid #d62828;border-radius:8px\"></i>retransmission"
    "</span><span><i class=\"sw\" style=\"background:#9d0208\"></i>NAK "
    "(&#215;)</span><span><i class=\"sw\" style=\"background:#f77f00\"></i>"
    "RNR NAK</span><span><i class=\"sw\" style=\"background:#7b2cbf\"></i>"
    "CNP</span><span><i class=\"sw\" style=\"background:#e9c46a\"></i>ECN "
    "mark / warning</span><span><i class=\"sw\" style=\"background:#d62828\">"
    "</i>error finding</span><span><i class=\"sw\" "
    "style=\"background:#7aa6e0\"></i>payload throughput</span>"
    " Hover a marker for its frame and message.</p>\n";

static uint32_t chart_budget(const struct report *r)
{
    size_t charts = 0;
    for (size_t i = 0; i < r->nfiles; i++)
        for (unsigned k = 1; k <= MAX_FLOWS; k++)
            charts += r->files[i]->flows[k] && r->files[i]->flows[k]->have_summary;
    size_t b = charts ? POINT_BUDGET / charts : CHART_MAX_POINTS;
    if (b < CHART_MIN_POINTS)
        b = CHART_MIN_POINTS;
    if (b > CHART_MAX_POINTS)
        b = CHART_MAX_POINTS;
    return (uint32_t)b;
}

static void write_file(FILE *o, size_t fi, const struct rfile *f,
                       uint32_t budget)
{
    const struct chk_stats *st = &f->st;
    char dur[32];
    fmt_time(dur, sizeof dur, since(f->last_ts, f->first_ts));
    fprintf(o, "<section class=\"file\" id=\"file-%zu\"><h2>", fi);
    esc(o, f->path);
    fprintf(o, "</h2><table><tr><th>frames</th><td>%" PRIu64 " (%" PRIu64
            " IBA, %" PRIu64 " other)</td></tr><tr><th>duration</th><td>%s"
            "</td></tr><tr><th>verdict</th><td class=\"%s\">",
            st->frames, st->iba, st->not_iba, dur,
            st->errors || f->failed ? "bad" : "ok");
    if (f->failed)
        fputs("could not be read to its end; ", o);
    fprintf(o, "%s: %" PRIu64 " errors, %" PRIu64 " warnings</td></tr>"
            "</table>\n", st->errors ? "breaches the rules" : "no errors",
            st->errors, st->warnings);
    if (st->errors || st->warnings) {
        fputs("<h3>Findings by rule</h3><table><tr><th>rule</th><th>"
              "severity</th><th>findings</th></tr>", o);
        for (unsigned k = 0; k < CHK_RULE_COUNT; k++) {
            if (!st->per_rule[k])
                continue;
            const struct chk_rule_info *ri = chk_rule(k);
            fprintf(o, "<tr><td><a href=\"#rule-%s\">%s</a></td><td "
                    "class=\"%s\">%s</td><td>%" PRIu64 "</td></tr>", ri->id,
                    ri->id, ri->severity == CHK_ERROR ? "bad" : "",
                    chk_severity_name(ri->severity), st->per_rule[k]);
        }
        fputs("</table>\n", o);
    }
    fputs("<h3>Flows</h3><div class=\"wide\"><table class=\"flows\"><tr><th>flow</th><th>"
          "transport</th><th>requester</th><th>responder</th><th>PMTU "
          "(from)</th><th>requests</th><th>responses</th><th>messages</th>"
          "<th>payload bytes</th><th>goodput</th><th>resent</th><th>"
          "NAKs (by code)</th><th>RNR NAKs</th><th>CNPs</th><th>ECN marks"
          "</th><th>capture-point notes</th><th>findings</th></tr>\n", o);
    size_t nflows = 0;
    for (unsigned k = 1; k <= MAX_FLOWS; k++)
        if (f->flows[k] && f->flows[k]->have_summary) {
            flow_row(o, fi, f->flows[k]);
            nflows++;
        }
    fputs("</table></div>\n", o);
    if (!nflows)
        fputs("<p>No RC, UC or XRC flow.</p>\n", o);
    if (f->flows_over)
        fprintf(o, "<p class=\"note\">%" PRIu64 " more flows are neither "
                "tabulated nor drawn (`ibwire check --format json` lists "
                "them all).</p>\n", f->flows_over);
    if (nflows) {
        fputs("<h3>Time&#8211;sequence charts</h3>\n", o);
        fputs(legend, o);
    }
    for (unsigned k = 1; k <= MAX_FLOWS; k++)
        if (f->flows[k] && f->flows[k]->have_summary)
            draw_chart(o, fi, f, f->flows[k], budget);
    if (f->nlad) {
        fputs("<h3>CM exchanges</h3>\n", o);
        for (unsigned k = 0; k < f->nlad; k++)
            draw_ladder(o, f, &f->lad[k]);
        if (f->cm_more)
            fprintf(o, "<p class=\"note\">%" PRIu64 " CM messages between "
                    "further endpoint pairs are not drawn.</p>\n", f->cm_more);
    }
    if (f->nloose) {
        fputs("<h3>Findings outside any flow</h3><ul class=\"loose\">\n", o);
        for (size_t k = 0; k < f->nloose; k++) {
            const struct mark *m = &f->loose[k];
            const struct chk_rule_info *ri = chk_rule(m->rule);
            fprintf(o, "<li data-kind=\"finding\" data-frame=\"%" PRIu64
                    "\">frame %" PRIu64 ": <a href=\"#rule-%s\">%s</a> ",
                    m->frame, m->frame, ri->id, ri->id);
            if (m->msg != SIZE_MAX)
                esc(o, f->arena + m->msg);
            fputs("</li>\n", o);
        }
        fputs("</ul>\n", o);
        if (f->loose_more)
            fprintf(o, "<p class=\"note\">and %" PRIu64 " more.</p>\n",
                    f->loose_more);
    }
    fputs("</section>\n", o);
}

int report_write(struct report *r, const char *path)
{
    FILE *o = fopen(path, "w");
    if (!o)
        return -1;
    uint64_t errors = 0, warnings = 0, frames = 0;
    int failed = 0;
    uint64_t per_rule[CHK_RULE_COUNT] = {0};
    for (size_t i = 0; i < r->nfiles; i++) {
        const struct rfile *f = r->files[i];
        errors += f->st.errors;
        warnings += f->st.warnings;
        frames += f->st.frames;
        failed |= f->failed;
        for (unsigned k = 0; k < CHK_RULE_COUNT; k++)
            per_rule[k] += f->st.per_rule[k];
    }
    fprintf(o, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta "
            "charset=\"utf-8\"><meta name=\"viewport\" content=\"width="
            "device-width\"><title>ibwire check report</title><style>%s"
            "</style></head><body>\n<h1>ibwire check report</h1>\n<table>"
            "<tr><th>files</th><td>", css);
    for (size_t i = 0; i < r->nfiles; i++) {
        fprintf(o, "%s<a href=\"#file-%zu\">", i ? "<br>" : "", i + 1);
        esc(o, r->files[i]->path);
        fputs("</a>", o);
    }
    fprintf(o, "</td></tr><tr><th>frames</th><td>%" PRIu64 "</td></tr>"
            "<tr><th>verdict</th><td class=\"%s\">%s: %" PRIu64 " errors, %"
            PRIu64 " warnings</td></tr></table>\n", frames,
            errors || failed ? "bad" : "ok",
            errors ? "breaches the rules"
                   : failed ? "unreadable input" : "no errors",
            errors, warnings);
    uint32_t budget = chart_budget(r);
    for (size_t i = 0; i < r->nfiles; i++)
        write_file(o, i + 1, r->files[i], budget);
    int any = 0;
    for (unsigned k = 0; k < CHK_RULE_COUNT; k++) {
        if (!per_rule[k])
            continue;
        const struct chk_rule_info *ri = chk_rule(k);
        if (!any++)
            fputs("<section id=\"rules\"><h2>Rules found</h2><p>As stated in "
                  "<code>conformance/rules.md</code>.</p><dl>\n", o);
        fprintf(o, "<dt id=\"rule-%s\"><b>%s</b> (%s)</dt><dd>", ri->id,
                ri->id, chk_severity_name(ri->severity));
        esc(o, ri->statement);
        fputs("<br><small>source: ", o);
        esc(o, ri->source);
        fputs("; evidence: ", o);
        esc(o, ri->evidence);
        fputs("</small></dd>\n", o);
    }
    if (any)
        fputs("</dl></section>\n", o);
    fputs("</body></html>\n", o);
    int bad = ferror(o);
    return fclose(o) || bad ? -1 : 0;
}

void report_free(struct report *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->nfiles; i++) {
        struct rfile *f = r->files[i];
        for (unsigned k = 1; k <= MAX_FLOWS; k++) {
            struct rflow *fl = f->flows[k];
            if (!fl)
                continue;
            free(fl->req.v);
            free(fl->rresp.v);
            free(fl->ack.v);
            free(fl->mk);
            free(fl->sp);
            free(fl);
        }
        free(f->arena);
        free(f->loose);
        free(f->path);
        free(f);
    }
    free(r->files);
    free(r->ring);
    free(r);
}
