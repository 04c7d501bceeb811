/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ibwire check: judge captures against the InfiniBand rules.
 *
 *   ibwire check [--format text|json|junit] [--annotate OUT.pcapng]
 *                [--pmtu N] [--skew US] [--flow-idle S] [--reorder MS]
 *                [-j N] [--replay] [--report OUT.html] [FILE...]
 *   ibwire check -i IFACE [-f BPF] [--duration S] [--interval S]
 *                [-w OUT.pcapng] [--format ...] [--pmtu N] [--skew US]
 *
 * Streams each file through the checker (conformance/check): memory grows
 * with the flows, not the capture.  text: `frame N: RULE-ID: message` per
 * finding (at most TEXT_CAP per rule and flow, and a per-packet rule once
 * per flow, then one line with the number left out), then a summary per
 * file and per flow; json: one object for the whole run, every finding
 * (one that repeats a per-packet rule on its flow carries "repeat": true,
 * so a reader can say it once per flow as the text does); junit: one
 * testcase per rule per file.  --annotate writes a
 * pcapng copy of the (single) input with each frame's findings as its
 * packet comment.  --report writes an HTML page with a time-sequence chart
 * per flow (conformance/report), besides the chosen output.  With no FILE, checks every capture in the bundled pcaps/
 * directory ($IBWIRE_PCAPS, else ./pcaps) against its expected verdict
 * (NAME.expect next to it).  Exit 0: no error found (or every bundled
 * verdict as expected); 1: errors (or a verdict differs); 2: an input could
 * not be read, or bad arguments.
 *
 * Frames are judged in timestamp order (the checker holds each up to
 * --reorder MS of capture time for a frame recorded late; 0: file order).
 *
 * -i: frames from a network interface (libpcap), fed through the same path
 * as a file's (so findings come up to the --reorder window after the
 * frame, which the poll's timeout bounds when traffic stops); flushed as
 * they come, a per-flow summary every
 * --interval seconds (text), the full summary at --duration, SIGINT or
 * SIGTERM.  -w keeps the frames checked as pcapng.  A pcapng with several
 * interfaces is one timeline; its findings then name the frame's interface.
 */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "capture.h"
#include "check.h"
#include "ibwire_lib.h"
#include "ibwire_lib_tool.h"
#include "replay.h"
#include "report.h"
#include "tool.h"
#include "tool_doc.h"

enum fmt { FMT_TEXT, FMT_JSON, FMT_JUNIT };

#define JUNIT_KEEP 10 /* messages kept per rule for the junit report */
#define TEXT_CAP 5    /* text lines per rule and flow; the rest counted */
#define ENDED_KEEP 4096 /* ended flows listed in order of appearance; past
                           that, in the order they ended (spooled) */
/* frames whose interface and vantage point are remembered (pcapng with
 * several interfaces, a collector's several mirror sessions or VNIs), for
 * findings that a later frame settles */
#define IFRING (1u << 18)

/* Findings of one rule on one flow beyond TEXT_CAP, for the text output. */
struct capped {
    uint64_t flow;
    unsigned rule;
    uint64_t count;     /* findings of the rule on the flow */
    char flow_name[160];
};

struct run {
    enum fmt fmt;
    uint32_t pmtu;
    const char *annotate;
    int replay;
    struct report *rep;     /* --report, else NULL */
    FILE *out;
    /* per file */
    const char *file;
    int first_finding;
    /* --annotate: each frame's findings (some come after the frame, when a
     * later frame or the end of the capture settles them) */
    char **notes;
    uint64_t nnotes;
    char *kept[CHK_RULE_COUNT][JUNIT_KEEP];
    /* bundled-verdict mode: findings compared with the .expect file */
    FILE *verdict_out;
    int first_flow;
    uint64_t tot_errors, tot_warnings;
    uint64_t skew_ns;
    uint64_t flow_idle_ns;
    uint64_t reorder_ns;    /* --reorder (chk_opts.reorder_ns) */
    unsigned jobs;          /* -j: threads for a file (1: this one) */
    /* summaries of the flows that ended before the end of the file, in
     * the order they ended, until the file's summary is written */
    FILE *spool;
    /* ... the first ENDED_KEEP of them are kept instead, to be listed
     * with the live ones in order of appearance */
    struct chk_flow_summary *ended;
    size_t nended;
    /* the flows still live at the end, as the checker summarizes them
     * when it finishes (in order of appearance) */
    struct chk_flow_summary *live;
    size_t nlive, livecap;
    int finishing;
    /* text capping: open addressing over (flow, rule) */
    struct capped *cap;
    size_t ncap, capcap;
    /* live capture (-i) */
    const char *iface, *filter, *write_path;
    uint64_t duration_ns, interval_ns; /* 0: until a signal / none */
    uint64_t live_start, live_next;    /* CLOCK_MONOTONIC, ns */
    uint64_t live_last_frame;          /* CLOCK_MONOTONIC of the last frame fed */
    int live_frames;                   /* a frame was fed */
    /* the reader being fed, and the interface of recent frames */
    struct cap_reader *rd;
    struct where { uint32_t iface, vantage; } *ifring;
    uint64_t last_frame;
};

static volatile sig_atomic_t live_stop;

static void on_stop_signal(int sig)
{
    (void)sig;
    live_stop = 1;
}

static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Remember which interface and vantage point a frame came from, once a
 * frame has either. */
static void note_iface(struct run *r, const struct cap_frame *fr)
{
    r->last_frame = fr->number;
    if (r->rep)
        report_frame(r->rep, fr->number,
                     (uint64_t)fr->ts_sec * 1000000000u + fr->ts_nsec);
    if (!r->ifring && (cap_interfaces(r->rd) > 1 || fr->vantage))
        r->ifring = calloc(IFRING, sizeof *r->ifring);
    if (r->ifring) {
        r->ifring[fr->number & (IFRING - 1)].iface = fr->interface;
        r->ifring[fr->number & (IFRING - 1)].vantage = fr->vantage;
    }
}

/* chk_feed's look at each frame of a file before it is judged. */
static void file_frame(void *user, const struct cap_frame *fr)
{
    note_iface(user, fr);
}

/* Where frame n was seen, into buf: its interface when the capture has
 * several, its vantage point inside it when there are several; 0 when
 * there is one place, or the frame is too far back to tell. */
static int frame_iface(const struct run *r, uint64_t n, char *buf, size_t len)
{
    if (!r->rd || !r->ifring || !n || n > r->last_frame ||
        r->last_frame - n >= IFRING)
        return 0;
    const struct where *w = &r->ifring[n & (IFRING - 1)];
    if (cap_vantages(r->rd) > 1 && w->vantage)
        cap_vantage_name(r->rd, w->vantage, buf, len);
    else if (cap_interfaces(r->rd) > 1)
        cap_interface_name(r->rd, w->iface, buf, len);
    else
        return 0;
    return 1;
}

/* The options (tool_doc.h): the parser below, --help and ibwire-check(1). */
enum {
    CO_HELP = 1, CO_FORMAT, CO_ANNOTATE, CO_PMTU, CO_SKEW, CO_FLOW_IDLE,
    CO_REORDER, CO_JOBS, CO_REPLAY, CO_REPORT, CO_IFACE, CO_FILTER,
    CO_DURATION, CO_INTERVAL, CO_WRITE
};

const struct tool_opt check_opts[] = {
    {CO_FORMAT, "--format", "text|json|junit",
     "the output: text (default), JSON or JUnit XML",
     "Text shows at most five findings of one rule per flow, then \"... and N "
     "more\", and a per-packet rule once per flow (\"... and N more frames of "
     "flow F with RULE\"), so that one bad sender does not bury the rest. JSON "
     "(with `\"repeat\": true` on a per-packet rule's later findings on a flow), "
     "JUnit and `--annotate` keep every finding.", NULL},
    {CO_ANNOTATE, "--annotate", "OUT.pcapng",
     "write the capture again with each finding as a packet comment",
     "The comments show in Wireshark. Takes exactly one FILE.", NULL},
    {CO_PMTU, "--pmtu", "N",
     "the path MTU (256, 512, 1024, 2048 or 4096) when neither the CM REQ nor "
     "full packets tell it", "The flow summary says where each flow's PMTU "
     "came from.", NULL},
    {CO_SKEW, "--skew", "US",
     "how long a response recorded before its request waits for it "
     "(microseconds, default 1000)",
     "Host-side captures record one direction late; such frames are "
     "reported once as CAP-SKEW rather than as errors.", NULL},
    {CO_FLOW_IDLE, "--flow-idle", "S",
     "a flow with no frame for S seconds of capture time has ended: it is "
     "summarized and forgotten (default 60)",
     "Memory follows the flows live at once, not the capture. A flow is also "
     "settled a skew window after its connection's DREP, and so is an idle "
     "CM exchange whose flows ended.", NULL},
    {CO_REORDER, "--reorder", "MS",
     "judge frames in timestamp order, waiting up to MS ms of capture time "
     "for a frame recorded late (default 250; 0: file order)",
     "A capture point may record a frame after frames that reached it later "
     "(a veth receiver, a host-side capture); its timestamp says so. At most "
     "65536 frames and 64 MiB wait.", NULL},
    {CO_JOBS, "-j", "N",
     "parse a file's frames on N threads (default 1); the verdict and its "
     "output are the same for every N",
     "One thread reads, the others parse (the ICRC is most of the work), and "
     "one checker judges the frames in order: the output is byte for byte "
     "that of `-j 1`.", NULL},
    {CO_REPLAY, "--replay", NULL,
     "feed each RC flow's requests to the reference responder and report "
     "where the captured responses differ", NULL, NULL},
    {CO_REPORT, "--report", "OUT.html",
     "also write an HTML report: per flow a PSN/time chart with "
     "retransmissions, NAKs, CNPs and findings marked", NULL, NULL},
    TOOL_OPT_HELP(CO_HELP),
    TOOL_OPT_END};

const struct tool_opt check_live_opts[] = {
    {CO_IFACE, "-i", "IFACE",
     "check live traffic on IFACE (libpcap); findings as they come",
     "Root or CAP_NET_RAW. Takes no FILE and no `--annotate` (use `-w`). "
     "Stops at SIGINT or SIGTERM, or after `--duration`.", NULL},
    {CO_FILTER, "-f", "BPF",
     "the capture filter (default on Ethernet: \"" CAP_LIVE_FILTER "\")",
     NULL, NULL},
    {CO_DURATION, "--duration", "S", "stop after S seconds", NULL, NULL},
    {CO_INTERVAL, "--interval", "S",
     "print the per-flow summary every S seconds (text)", NULL, NULL},
    {CO_WRITE, "-w", "OUT.pcapng", "save the frames checked as pcapng",
     NULL, NULL},
    TOOL_OPT_END};

static void usage(FILE *f)
{
    tool_doc_help(&doc_check, f);
}

static void xml_str(FILE *o, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", o); break;
        case '>': fputs("&gt;", o); break;
        case '&': fputs("&amp;", o); break;
        case '"': fputs("&quot;", o); break;
        default: fputc(*s, o); break;
        }
    }
}

static void flow_name(const struct chk_flow_summary *s, char *buf, size_t n)
{
    char a[64], b[64];
    chk_addr_str(&s->req, a, sizeof a);
    chk_addr_str(&s->resp, b, sizeof b);
    if (s->resp_qpn_known)
        snprintf(buf, n, "%s -> %s QP 0x%06x", a, b, s->resp_qpn);
    else
        snprintf(buf, n, "%s QP 0x%06x <- %s (responses)", a, s->req_qpn, b);
}

/* The text output shows the first TEXT_CAP findings of a rule on a flow,
 * the first only of a per-packet rule (the rest are the same fault on more
 * frames: one bad packet does not fill the output); 1 when this one is
 * beyond them (and counted instead). */
static int text_capped(struct run *r, const struct chk_finding *f)
{
    if (!f->flow)
        return 0;
    int pkt = chk_rule(f->rule)->scope == CHK_SCOPE_PACKET;
    if (pkt && !f->repeat)
        return 0; /* the first of its rule on the flow (the checker says) */
    if ((r->ncap + 1) * 2 > r->capcap) {
        size_t n = r->capcap ? r->capcap * 2 : 64;
        struct capped *nc = calloc(n, sizeof *nc);
        if (!nc)
            return 0;
        for (size_t i = 0; i < r->capcap; i++)
            if (r->cap[i].count) {
                size_t k = (r->cap[i].flow * 131 + r->cap[i].rule) & (n - 1);
                while (nc[k].count)
                    k = (k + 1) & (n - 1);
                nc[k] = r->cap[i];
            }
        free(r->cap);
        r->cap = nc;
        r->capcap = n;
    }
    size_t k = (f->flow->id * 131 + f->rule) & (r->capcap - 1);
    while (r->cap[k].count &&
           (r->cap[k].flow != f->flow->id || r->cap[k].rule != f->rule))
        k = (k + 1) & (r->capcap - 1);
    struct capped *e = &r->cap[k];
    if (!e->count) {
        e->flow = f->flow->id;
        e->rule = f->rule;
        r->ncap++;
    }
    uint64_t cap = pkt ? 0 : TEXT_CAP; /* per-packet: repeats only counted */
    if (++e->count == cap + 1)
        flow_name(f->flow, e->flow_name, sizeof e->flow_name);
    return e->count > cap;
}

static int cmp_capped(const void *a, const void *b)
{
    const struct capped *x = a, *y = b;
    if (x->flow != y->flow)
        return x->flow < y->flow ? -1 : 1;
    return x->rule < y->rule ? -1 : x->rule > y->rule;
}

/* "... and N more RULE in this flow" for every capped (flow, rule). */
static void text_capped_flush(struct run *r)
{
    size_t n = 0;
    for (size_t i = 0; i < r->capcap; i++) {
        int pkt = chk_rule(r->cap[i].rule)->scope == CHK_SCOPE_PACKET;
        if (r->cap[i].count > (pkt ? 0u : TEXT_CAP))
            r->cap[n++] = r->cap[i];
    }
    if (n)
        qsort(r->cap, n, sizeof *r->cap, cmp_capped);
    for (size_t i = 0; r->out && i < n; i++) {
        const struct chk_rule_info *ri = chk_rule(r->cap[i].rule);
        if (ri->scope == CHK_SCOPE_PACKET)
            fprintf(r->out, "... and %llu more frames of flow %s with %s\n",
                    (unsigned long long)r->cap[i].count, r->cap[i].flow_name,
                    ri->id);
        else
            fprintf(r->out, "... and %llu more %s in flow %s\n",
                    (unsigned long long)(r->cap[i].count - TEXT_CAP), ri->id,
                    r->cap[i].flow_name);
    }
    free(r->cap);
    r->cap = NULL;
    r->ncap = r->capcap = 0;
}

static void on_finding(void *user, const struct chk_finding *f)
{
    struct run *r = user;
    const struct chk_rule_info *ri = chk_rule(f->rule);
    char ifn[160];
    int have_if = frame_iface(r, f->frame, ifn, sizeof ifn);
    if (r->rep)
        report_finding(r->rep, f);
    if (r->verdict_out)
        fprintf(r->verdict_out, "finding %llu %s\n",
                (unsigned long long)f->frame, ri->id);
    switch (r->fmt) {
    case FMT_TEXT:
        if (r->out && !text_capped(r, f)) {
            if (have_if)
                fprintf(r->out, "frame %llu [%s]: %s: %s\n",
                        (unsigned long long)f->frame, ifn, ri->id,
                        f->message);
            else
                fprintf(r->out, "frame %llu: %s: %s\n",
                        (unsigned long long)f->frame, ri->id, f->message);
        }
        break;
    case FMT_JSON:
        fprintf(r->out, "%s\n        {\"frame\": %llu, ",
                r->first_finding ? "" : ",", (unsigned long long)f->frame);
        if (have_if) {
            fputs("\"interface\": ", r->out);
            ibwire_tool_json_str(r->out, ifn);
            fputs(", ", r->out);
        }
        fprintf(r->out, "\"rule\": \"%s\", \"severity\": \"%s\", "
                "\"spec\": \"%s\", \"message\": ",
                ri->id, chk_severity_name(f->severity), ri->spec);
        ibwire_tool_json_str(r->out, f->message);
        if (f->repeat)
            fputs(", \"repeat\": true", r->out);
        fputc('}', r->out);
        r->first_finding = 0;
        break;
    case FMT_JUNIT:
        for (unsigned i = 0; i < JUNIT_KEEP; i++)
            if (!r->kept[f->rule][i]) {
                char buf[700];
                snprintf(buf, sizeof buf, "frame %llu: %s",
                         (unsigned long long)f->frame, f->message);
                r->kept[f->rule][i] = strdup(buf);
                break;
            }
        break;
    }
    if (r->annotate && f->frame) {
        if (f->frame > r->nnotes) {
            uint64_t n = r->nnotes ? r->nnotes : 1024;
            while (n < f->frame)
                n *= 2;
            char **nn = realloc(r->notes, (size_t)n * sizeof *nn);
            if (!nn)
                return;
            memset(nn + r->nnotes, 0, (size_t)(n - r->nnotes) * sizeof *nn);
            r->notes = nn;
            r->nnotes = n;
        }
        char **slot = &r->notes[f->frame - 1];
        size_t old = *slot ? strlen(*slot) : 0;
        size_t add = strlen(ri->id) + strlen(f->message) + 5;
        char *ns = realloc(*slot, old + add);
        if (!ns)
            return;
        snprintf(ns + old, add, "%s%s: %s", old ? "; " : "", ri->id, f->message);
        *slot = ns;
    }
    if (r->iface && r->out)
        fflush(r->out); /* live: each finding as it happens */
}

static void flow_text(void *user, const struct chk_flow_summary *s)
{
    struct run *r = user;
    char a[64], b[64], qa[16] = "?", qb[16] = "?", pm[48] = "unknown";
    char notes[256] = "";
    size_t nl = 0;
    chk_addr_str(&s->req, a, sizeof a);
    chk_addr_str(&s->resp, b, sizeof b);
    if (s->req_qpn_known)
        snprintf(qa, sizeof qa, "0x%06x", s->req_qpn);
    if (s->resp_qpn_known)
        snprintf(qb, sizeof qb, "0x%06x", s->resp_qpn);
    if (s->pmtu)
        snprintf(pm, sizeof pm, "%u (%s)", s->pmtu,
                 s->pmtu_source ? s->pmtu_source : "?");
#define NOTE(...)                                                              \
    do {                                                                       \
        if (nl < sizeof notes)                                                 \
            nl += (size_t)snprintf(notes + nl, sizeof notes - nl, __VA_ARGS__); \
    } while (0)
    if (s->started_mid)
        NOTE(", started mid-message");
    if (s->cm_negotiated)
        NOTE(", negotiated by CM");
    else if (s->paired_by)
        NOTE(", paired by PSN (no CM)");
    if (s->responses_only)
        NOTE(", responses only%s", s->responses_only == 2 ? " (ambiguous)" : "");
    if (s->cut_frames)
        NOTE(", %llu cut", (unsigned long long)s->cut_frames);
    if (s->capture_lost)
        NOTE(", %llu PSNs lost by the capture", (unsigned long long)s->capture_lost);
    if (s->skew_ns)
        NOTE(", skew %llu us", (unsigned long long)(s->skew_ns / 1000));
    if (s->cnps)
        NOTE(", %llu CNP", (unsigned long long)s->cnps);
    if (s->ecn_marks)
        NOTE(", %llu ECN", (unsigned long long)s->ecn_marks);
#undef NOTE
    fprintf(r->out,
            "  flow %s %s QP %s -> %s QP %s: frames %llu-%llu, %llu requests, "
            "%llu responses, %llu messages, %llu retransmitted, %llu gaps, "
            "%llu NAK, %llu RNR NAK, PMTU %s%s: %llu errors, %llu warnings\n",
            s->transport ? s->transport : "?", a, qa, b, qb,
            (unsigned long long)s->first_frame,
            (unsigned long long)s->last_frame, (unsigned long long)s->requests,
            (unsigned long long)s->responses, (unsigned long long)s->messages,
            (unsigned long long)s->retransmissions,
            (unsigned long long)s->gaps, (unsigned long long)s->naks,
            (unsigned long long)s->rnr_naks, pm, notes,
            (unsigned long long)s->errors, (unsigned long long)s->warnings);
}

static void flow_json(void *user, const struct chk_flow_summary *s)
{
    struct run *r = user;
    char obj[4096]; /* two addresses and 31 short members */
    if (ibwire_tool_summary_json(s, obj, sizeof obj) < 0)
        snprintf(obj, sizeof obj, "{}");
    fprintf(r->out, "%s\n        %s", r->first_flow ? "" : ",", obj);
    r->first_flow = 0;
}

/* A flow ended before the end of the file.  The first ENDED_KEEP are kept
 * to be listed with the live flows in order of appearance (what a capture
 * shorter than the idle time shows); the rest wait as lines in the spool, a
 * temporary file, so that memory stays bounded by the live flows. */
static void flow_ended(void *user, const struct chk_flow_summary *s)
{
    struct run *r = user;
    if (r->rep)
        report_flow(r->rep, s);
    if (!r->out || (r->fmt != FMT_TEXT && r->fmt != FMT_JSON))
        return;
    if (r->nended < ENDED_KEEP) {
        if (!r->ended && !(r->ended = malloc(ENDED_KEEP * sizeof *r->ended)))
            return;
        r->ended[r->nended++] = *s; /* its strings are static */
        return;
    }
    if (!r->spool && !(r->spool = tmpfile()))
        return; /* no room for it: the flow goes unlisted */
    FILE *out = r->out;
    r->out = r->spool;
    if (r->fmt == FMT_TEXT)
        flow_text(r, s);
    else
        flow_json(r, s);
    r->out = out;
}

/* A flow summarized by the checker: one that ended before the end, or at
 * the end one still live (kept to be listed with the ended ones). */
static void flow_from_checker(void *user, const ibwire_flow *f)
{
    struct run *r = user;
    const struct chk_flow_summary *s = ibwire_tool_flow_summary(f);
    if (!r->finishing) {
        flow_ended(r, s);
        return;
    }
    struct chk_flow_summary *more =
        chk_grow(r->live, r->nlive, &r->livecap, sizeof *r->live, 64);
    if (!more)
        return; /* no room for it: the flow goes unlisted */
    r->live = more;
    r->live[r->nlive++] = *s; /* its strings are static */
}

struct flow_list {
    struct run *r;
    void (*fn)(void *user, const struct chk_flow_summary *s);
    size_t next; /* r->ended[next] is the next kept one to list */
};

/* A live flow, in order of appearance: the kept ended ones before it go
 * first. */
static void list_live(void *user, const struct chk_flow_summary *s)
{
    struct flow_list *l = user;
    while (l->next < l->r->nended && l->r->ended[l->next].id < s->id)
        l->fn(l->r, &l->r->ended[l->next++]);
    l->fn(l->r, s);
}

static int cmp_summary_id(const void *a, const void *b)
{
    const struct chk_flow_summary *x = a, *y = b;
    return (x->id > y->id) - (x->id < y->id);
}

/* Every flow of the file: those spooled (ended late in a long capture),
 * then the kept ended ones and the live ones merged in order of
 * appearance. */
static void list_flows(struct run *r,
                       void (*fn)(void *user, const struct chk_flow_summary *s))
{
    if (r->spool) {
        char buf[65536];
        size_t n;
        rewind(r->spool);
        while ((n = fread(buf, 1, sizeof buf, r->spool)) > 0)
            fwrite(buf, 1, n, r->out);
        fclose(r->spool);
        r->spool = NULL;
    }
    if (r->nended) /* (qsort of NULL, even for 0 entries, is undefined) */
        qsort(r->ended, r->nended, sizeof *r->ended, cmp_summary_id);
    struct flow_list l = {r, fn, 0};
    for (size_t i = 0; i < r->nlive; i++)
        list_live(&l, &r->live[i]);
    while (l.next < r->nended)
        fn(r, &r->ended[l.next++]);
    free(r->ended);
    r->ended = NULL;
    r->nended = 0;
    free(r->live);
    r->live = NULL;
    r->nlive = r->livecap = 0;
}

/* --report: what the checker saw, for the charts. */
static void report_on_event(void *user, const struct chk_event *e)
{
    report_event(((struct run *)user)->rep, e);
}

/* --replay's end: the responses the reference still misses, reported
 * through the checker before it summarizes the live flows. */
static void replay_settled(void *user)
{
    replay_finish(user);
}

/*
 * The checker for one input, through libibwire: the options, the flows
 * as it summarizes them, and the tool's hooks (findings with their rule
 * numbers, --report's events, and --replay: the reference responder of
 * conformance/check/replay.c on the RC hook, reporting where captured
 * responses differ from the reference's).  NULL without memory (said).
 */
static ibwire_checker *checker_for(struct run *r, struct replay **rp)
{
    ibwire_checker *ck = ibwire_checker_new();
    *rp = NULL;
    int bad = !ck || ibwire_checker_set_pmtu(ck, r->pmtu) ||
              ibwire_checker_set_skew_ns(ck, r->skew_ns) ||
              ibwire_checker_set_flow_idle_ns(ck, r->flow_idle_ns) ||
              ibwire_checker_on_flow(ck, flow_from_checker, r) ||
              ibwire_tool_checker_on_chk_finding(ck, on_finding, r) ||
              (r->rep && ibwire_tool_checker_on_event(ck, report_on_event, r));
    if (!bad) {
        struct chk_opts *o = ibwire_tool_checker_opts(ck);
        if (o)
            o->reorder_ns = r->reorder_ns;
    }
    if (!bad && r->replay) {
        *rp = replay_new(ibwire_tool_checker_opts(ck));
        bad = !*rp || ibwire_tool_checker_on_settled(ck, replay_settled, *rp);
    }
    struct chk *c = bad ? NULL : ibwire_tool_checker_chk(ck);
    if (!c) {
        fprintf(stderr, "ibwire check: out of memory\n");
        replay_free(*rp);
        *rp = NULL;
        ibwire_checker_free(ck);
        return NULL;
    }
    if (*rp)
        replay_bind(*rp, c);
    return ck;
}

static void junit_file(struct run *r, const struct chk_stats *st)
{
    unsigned failures = 0;
    for (unsigned i = 0; i < CHK_RULE_COUNT; i++)
        if (st->per_rule[i] && chk_rule(i)->severity == CHK_ERROR)
            failures++;
    fprintf(r->out, "  <testsuite name=\"");
    xml_str(r->out, r->file);
    fprintf(r->out, "\" tests=\"%u\" failures=\"%u\" errors=\"0\">\n",
            (unsigned)CHK_RULE_COUNT, failures);
    for (unsigned i = 0; i < CHK_RULE_COUNT; i++) {
        const struct chk_rule_info *ri = chk_rule(i);
        fprintf(r->out, "    <testcase classname=\"");
        xml_str(r->out, r->file);
        fprintf(r->out, "\" name=\"%s\"", ri->id);
        if (!st->per_rule[i]) {
            fprintf(r->out, "/>\n");
            continue;
        }
        fprintf(r->out, ">\n");
        const char *tag = ri->severity == CHK_ERROR ? "failure" : "system-out";
        if (ri->severity == CHK_ERROR)
            fprintf(r->out, "      <failure message=\"%llu findings\">",
                    (unsigned long long)st->per_rule[i]);
        else
            fprintf(r->out, "      <system-out>%llu warnings\n",
                    (unsigned long long)st->per_rule[i]);
        for (unsigned k = 0; k < JUNIT_KEEP && r->kept[i][k]; k++) {
            xml_str(r->out, r->kept[i][k]);
            fputc('\n', r->out);
            free(r->kept[i][k]);
            r->kept[i][k] = NULL;
        }
        fprintf(r->out, "</%s>\n    </testcase>\n", tag);
    }
    fprintf(r->out, "  </testsuite>\n");
}

/* --annotate: copy the capture to a pcapng with each frame's findings as
 * its packet comment.  0 when written. */
static int annotate(struct run *r, const char *path, int lt)
{
    char err[512];
    struct cap_reader *rd = cap_open(path, err, sizeof err);
    struct cap_writer *w =
        rd ? cap_writer_open(r->annotate, CAP_FORMAT_PCAPNG, lt, err, sizeof err)
           : NULL;
    int bad = !w, mixed = 0;
    struct cap_frame fr;
    while (w && cap_next(rd, &fr) == 1) {
        if (fr.linktype != lt) { /* one link type per annotated copy */
            mixed = bad = 1;
            break;
        }
        uint64_t ts = (uint64_t)fr.ts_sec * 1000000000u + fr.ts_nsec;
        const char *cm = fr.number <= r->nnotes ? r->notes[fr.number - 1] : NULL;
        if (lt == CAP_LINKTYPE_ETHERNET || lt == CAP_LINKTYPE_INFINIBAND ||
            !fr.iba)
            bad |= cap_write(w, ts, fr.raw, fr.caplen, cm);
        else
            bad |= cap_write(w, ts, fr.iba, fr.iba_len, cm);
    }
    if (w && cap_writer_close(w))
        bad = 1;
    cap_close(rd);
    for (uint64_t i = 0; i < r->nnotes; i++)
        free(r->notes[i]);
    free(r->notes);
    r->notes = NULL;
    r->nnotes = 0;
    if (mixed)
        fprintf(stderr, "ibwire check: %s: interfaces of different link "
                "types; --annotate writes one link type\n", path);
    else if (bad)
        fprintf(stderr, "ibwire check: cannot write %s\n", r->annotate);
    return bad;
}

/* -w: keep a frame the live capture fed to the checker.  0 when written. */
static int live_write(struct cap_writer *w, const struct cap_frame *fr)
{
    uint64_t ts = (uint64_t)fr->ts_sec * 1000000000u + fr->ts_nsec;
    if (fr->linktype == CAP_LINKTYPE_ETHERNET ||
        fr->linktype == CAP_LINKTYPE_INFINIBAND)
        return cap_write_cut(w, ts, fr->raw, fr->caplen,
                             fr->origlen > fr->caplen ? fr->origlen
                                                      : fr->caplen,
                             NULL);
    /* ERF / exported PDU: the writer adds the wrapper again */
    return fr->iba ? cap_write(w, ts, fr->iba, fr->iba_len, NULL) : 0;
}

/* Live: what to do between frames (and when none came).  Prints the
 * per-flow summary when --interval is due; 1 when the capture ends
 * (--duration reached, SIGINT or SIGTERM). */
static int live_tick(struct run *r, struct chk *c)
{
    /* frames held for a late one are judged once the window has passed,
     * traffic or not; the time passed is this host's since the last
     * frame, not the frames' stamps against this host's real time: a
     * capture point may stamp with its time since boot (Linux 6.12's veth
     * stamps the frames it receives so: CAP-TS-CLOCKS), and real time
     * would then be decades past every frame held */
    uint64_t now = mono_ns();
    if (r->live_frames)
        chk_release_idle(c, now - r->live_last_frame);
    if (live_stop || (r->duration_ns && now - r->live_start >= r->duration_ns))
        return 1;
    if (r->interval_ns && now >= r->live_next) {
        r->live_next += r->interval_ns;
        if (r->live_next <= now)
            r->live_next = now + r->interval_ns;
        if (r->fmt == FMT_TEXT && r->out) {
            const struct chk_stats *st = chk_stats(c);
            fprintf(r->out,
                    "-- %s after %.1f s: %llu frames (%llu IBA, %llu other), "
                    "%llu errors, %llu warnings so far\n",
                    r->iface, (double)(now - r->live_start) / 1e9,
                    (unsigned long long)st->frames,
                    (unsigned long long)st->iba,
                    (unsigned long long)st->not_iba,
                    (unsigned long long)st->errors,
                    (unsigned long long)st->warnings);
            chk_flows(c, flow_text, r);
            fflush(r->out);
        }
    }
    return 0;
}

/* Open the input: a capture file, or with -i the interface. */
static struct cap_reader *open_input(const struct run *r, const char *path,
                                     char *err, size_t errlen)
{
    if (r->iface)
        return cap_open_live(r->iface, r->filter, 100, err, errlen);
    return cap_open(path, err, errlen);
}

/* Check one file (or the live interface); returns its exit status (0, 1
 * or 2). */
static int check_file(struct run *r, const char *path, int first_file)
{
    char err[512];
    struct cap_reader *rd = open_input(r, path, err, sizeof err);
    if (!rd) {
        fprintf(stderr, "ibwire check: %s\n", err);
        if (r->fmt == FMT_JSON && r->out) {
            fprintf(r->out, "%s\n    {\"file\": ", first_file ? "" : ",");
            ibwire_tool_json_str(r->out, path);
            fprintf(r->out, ", \"error\": ");
            ibwire_tool_json_str(r->out, err);
            fprintf(r->out, "}");
        }
        return TOOL_EXIT_USAGE;
    }
    struct cap_writer *w = NULL;
    int lt = cap_linktype(rd);
    if (r->write_path) {
        w = cap_writer_open(r->write_path, CAP_FORMAT_PCAPNG, lt, err,
                            sizeof err);
        if (!w) {
            fprintf(stderr, "ibwire check: %s\n", err);
            cap_close(rd);
            return TOOL_EXIT_USAGE;
        }
    }
    if (r->annotate) {
        w = cap_writer_open(r->annotate, CAP_FORMAT_PCAPNG, lt, err, sizeof err);
        if (!w) {
            fprintf(stderr, "ibwire check: %s\n", err);
            cap_close(rd);
            return TOOL_EXIT_USAGE;
        }
        cap_writer_close(w); /* written after the check: see annotate() */
        w = NULL;
    }
    r->file = path;
    r->first_finding = 1;
    r->first_flow = 1;
    if (r->rep && report_file_begin(r->rep, path)) {
        fprintf(stderr, "ibwire check: out of memory\n");
        cap_close(rd);
        cap_writer_close(w);
        return TOOL_EXIT_USAGE;
    }
    struct replay *rp;
    ibwire_checker *ck = checker_for(r, &rp);
    if (!ck) {
        cap_close(rd);
        cap_writer_close(w);
        return TOOL_EXIT_USAGE;
    }
    struct chk *c = ibwire_tool_checker_chk(ck);
    if (r->fmt == FMT_TEXT && r->out)
        fprintf(r->out, "== %s\n", path);
    if (r->fmt == FMT_JSON) {
        fprintf(r->out, "%s\n    {\"file\": ", first_file ? "" : ",");
        ibwire_tool_json_str(r->out, path);
        fprintf(r->out, ", \"findings\": [");
    }
    struct cap_frame fr;
    int rc, status = TOOL_EXIT_OK;
    r->rd = rd;
    r->last_frame = 0;
    if (r->iface) {
        r->live_start = mono_ns();
        r->live_next = r->live_start + r->interval_ns;
        if (r->out)
            fflush(r->out);
    }
    if (!r->iface) {
        /* a file: read once, judged in order (-j: parsed in parallel) */
        rc = chk_feed_all(c, rd, r->jobs, file_frame, r) ? -1 : 0;
    } else {
        while ((rc = cap_next(rd, &fr)) == 1 || rc == CAP_TIMEOUT) {
            if (rc == 1) {
                note_iface(r, &fr);
                if (w && live_write(w, &fr)) {
                    fprintf(stderr, "ibwire check: cannot write %s\n",
                            r->write_path);
                    cap_writer_close(w);
                    w = NULL;
                    status = TOOL_EXIT_USAGE;
                }
                chk_frame(c, &fr);
                r->live_last_frame = mono_ns();
                r->live_frames = 1;
            }
            if (r->iface && live_tick(r, c))
                break;
        }
    }
    if (rc < 0) {
        fprintf(stderr, "ibwire check: %s: %s\n", path, cap_error(rd));
        status = TOOL_EXIT_USAGE;
    }
    uint64_t recv, drop;
    if (cap_live_stats(rd, &recv, &drop) == 0 && drop)
        fprintf(stderr, "ibwire check: %s: the system dropped %llu frames "
                "the checker never saw\n", path, (unsigned long long)drop);
    /* the frames the checker still holds for a late one are judged first,
     * as any other: the flows they end are listed as ended ones */
    chk_release(c, UINT64_MAX);
    /* settles, ends the replay, and hands the live flows over */
    r->finishing = 1;
    ibwire_checker_finish(ck);
    r->finishing = 0;
    if (r->annotate && annotate(r, path, lt))
        status = TOOL_EXIT_USAGE;
    const struct chk_stats *st = chk_stats(c);
    if (r->rep) {
        for (size_t i = 0; i < r->nlive; i++)
            report_flow(r->rep, &r->live[i]);
        report_file_end(r->rep, st, rc < 0);
    }
    if (status == TOOL_EXIT_OK && st->errors)
        status = TOOL_EXIT_FINDINGS;
    r->tot_errors += st->errors;
    r->tot_warnings += st->warnings;
    switch (r->fmt) {
    case FMT_TEXT:
        text_capped_flush(r);
        if (!r->out)
            break;
        fprintf(r->out,
                "%s: %llu frames (%llu IBA, %llu other), %llu errors, %llu "
                "warnings\n",
                path, (unsigned long long)st->frames,
                (unsigned long long)st->iba, (unsigned long long)st->not_iba,
                (unsigned long long)st->errors,
                (unsigned long long)st->warnings);
        if (cap_interfaces(rd) > 1) {
            fprintf(r->out, "  interfaces:");
            for (uint32_t i = 0; i < cap_interfaces(rd); i++) {
                char n[80];
                int ilt = cap_interface_linktype(rd, i);
                fprintf(r->out, "%s %s (%s)", i ? "," : "",
                        cap_interface_name(rd, i, n, sizeof n),
                        cap_linktype_name(ilt));
            }
            fputc('\n', r->out);
        }
        if (cap_vantages(rd) > 1) {
            fprintf(r->out, "  vantage points:");
            for (uint32_t v = 1; v <= cap_vantages(rd); v++) {
                char n[160];
                fprintf(r->out, "%s %s", v > 1 ? "," : "",
                        cap_vantage_name(rd, v, n, sizeof n));
            }
            fputc('\n', r->out);
        }
        list_flows(r, flow_text);
        break;
    case FMT_JSON:
        fprintf(r->out, "\n      ], \"frames\": %llu, \"errors\": %llu, "
                "\"warnings\": %llu, \"flows\": [",
                (unsigned long long)st->frames, (unsigned long long)st->errors,
                (unsigned long long)st->warnings);
        list_flows(r, flow_json);
        fprintf(r->out, "\n      ]");
        if (cap_interfaces(rd) > 1) {
            fprintf(r->out, ", \"interfaces\": [");
            for (uint32_t i = 0; i < cap_interfaces(rd); i++) {
                char n[80];
                fprintf(r->out, "%s{\"name\": ", i ? ", " : "");
                ibwire_tool_json_str(r->out,
                                     cap_interface_name(rd, i, n, sizeof n));
                fprintf(r->out, ", \"linktype\": %d}",
                        cap_interface_linktype(rd, i));
            }
            fputc(']', r->out);
        }
        if (cap_vantages(rd) > 1) {
            fprintf(r->out, ", \"vantage_points\": [");
            for (uint32_t v = 1; v <= cap_vantages(rd); v++) {
                char n[160];
                fputs(v > 1 ? ", " : "", r->out);
                ibwire_tool_json_str(r->out,
                                     cap_vantage_name(rd, v, n, sizeof n));
            }
            fputc(']', r->out);
        }
        fputc('}', r->out);
        break;
    case FMT_JUNIT:
        junit_file(r, st);
        break;
    }
    if (r->verdict_out)
        fprintf(r->verdict_out, "exit %d\n", status);
    if (r->spool) { /* a format that lists no flows */
        fclose(r->spool);
        r->spool = NULL;
    }
    free(r->ended);
    r->ended = NULL;
    r->nended = 0;
    free(r->live);
    r->live = NULL;
    r->nlive = r->livecap = 0;
    ibwire_checker_free(ck);
    replay_free(rp);
    cap_close(rd);
    r->rd = NULL;
    free(r->ifring);
    r->ifring = NULL;
    if (w && cap_writer_close(w)) {
        fprintf(stderr, "ibwire check: cannot write %s\n", r->write_path);
        status = TOOL_EXIT_USAGE;
    }
    return status;
}

static int has_suffix(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && !strcmp(s + a - b, suf);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Read a whole small file; NULL when missing.  Caller frees. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb) {
                free(buf);
                buf = NULL;
            }
            buf = nb;
        }
    }
    fclose(f);
    if (buf)
        *len = n;
    return buf;
}

/* Drop comment lines ('#') so expected and actual verdicts compare. */
static size_t strip_comments(char *s, size_t n)
{
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        size_t e = i;
        while (e < n && s[e] != '\n')
            e++;
        if (s[i] != '#' && e > i) {
            memmove(s + o, s + i, e - i);
            o += e - i;
            s[o++] = '\n';
        }
        i = e + 1;
    }
    return o;
}

/* No FILE: every bundled capture against its NAME.expect. */
static int check_bundled(struct run *r)
{
    const char *dir = getenv("IBWIRE_PCAPS");
    if (!dir)
        dir = "pcaps";
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "ibwire check: no FILE given and no bundled capture "
                        "directory '%s' (set IBWIRE_PCAPS)\n", dir);
        return TOOL_EXIT_USAGE;
    }
    char **names = NULL;
    size_t n = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (!has_suffix(de->d_name, ".pcap") && !has_suffix(de->d_name, ".pcapng"))
            continue;
        char **nn = realloc(names, (n + 1) * sizeof *nn);
        if (!nn)
            break;
        names = nn;
        names[n++] = strdup(de->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp_str);
    int status = TOOL_EXIT_OK;
    unsigned ok = 0, bad = 0, noexp = 0;
    FILE *saved = r->out;
    for (size_t i = 0; i < n; i++) {
        char path[4096], exp[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        snprintf(exp, sizeof exp, "%s", path);
        char *dot = strrchr(exp, '.');
        snprintf(dot, sizeof exp - (size_t)(dot - exp), ".expect");
        char *mem = NULL;
        size_t memlen = 0;
        r->verdict_out = open_memstream(&mem, &memlen);
        r->out = NULL;
        int st = check_file(r, path, 1);
        fclose(r->verdict_out);
        r->verdict_out = NULL;
        size_t elen = 0;
        char *want = slurp(exp, &elen);
        if (!want) {
            printf("%-40s no expected verdict (%s); exit %d\n", names[i], exp, st);
            noexp++;
            if (st)
                status = TOOL_EXIT_FINDINGS;
        } else {
            elen = strip_comments(want, elen);
            if (elen == memlen && !memcmp(want, mem, elen)) {
                printf("%-40s as expected (exit %d)\n", names[i], st);
                ok++;
            } else {
                printf("%-40s DIFFERS from %s; got:\n%s", names[i], exp, mem);
                bad++;
                status = TOOL_EXIT_FINDINGS;
            }
        }
        if (st == TOOL_EXIT_USAGE)
            status = TOOL_EXIT_USAGE;
        free(want);
        free(mem);
        free(names[i]);
    }
    free(names);
    r->out = saved;
    printf("%u captures: %u as expected, %u differ, %u without verdict\n",
           (unsigned)n, ok, bad, noexp);
    return status;
}

/* --report: write the page once every file is checked; the exit status,
 * made 2 when the page cannot be written. */
static int report_done(struct run *r, const char *path, int status)
{
    if (!r->rep)
        return status;
    if (report_write(r->rep, path)) {
        fprintf(stderr, "ibwire check: cannot write %s\n", path);
        status = TOOL_EXIT_USAGE;
    }
    report_free(r->rep);
    r->rep = NULL;
    return status;
}

int cmd_check(int argc, char **argv)
{
    struct run r;
    memset(&r, 0, sizeof r);
    r.fmt = FMT_TEXT;
    r.out = stdout;
    const char *report_path = NULL;
    /* Options may stand before or after the files (as with GNU tools);
     * the file arguments are gathered, in order, at the front of argv[1..]
     * (argv[0] keeps the command name).  After "--" everything is a file. */
    int nfiles = 0;
    int only_files = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (only_files || a[0] != '-' || !a[1]) {
            argv[1 + nfiles++] = argv[i];
            continue;
        }
        if (!strcmp(a, "--")) {
            only_files = 1;
            continue;
        }
        const struct tool_opt *o = tool_doc_find(&doc_check, a);
        if (!o || (o->arg && i + 1 >= argc)) {
            fprintf(stderr, "ibwire check: unknown option '%s'\n", a);
            usage(stderr);
            return TOOL_EXIT_USAGE;
        }
        const char *v = o->arg ? argv[++i] : NULL;
        switch (o->id) {
        case CO_HELP:
            usage(stdout);
            return TOOL_EXIT_OK;
        case CO_FORMAT:
            if (!strcmp(v, "text"))
                r.fmt = FMT_TEXT;
            else if (!strcmp(v, "json"))
                r.fmt = FMT_JSON;
            else if (!strcmp(v, "junit"))
                r.fmt = FMT_JUNIT;
            else {
                fprintf(stderr, "ibwire check: unknown format '%s'\n", v);
                return TOOL_EXIT_USAGE;
            }
            break;
        case CO_ANNOTATE:
            r.annotate = v;
            break;
        case CO_PMTU: {
            char *end;
            unsigned long n = strtoul(v, &end, 10);
            if (*end || !ibw_mtu_bytes_to_enum((uint32_t)n)) {
                fprintf(stderr, "ibwire check: --pmtu must be 256, 512, 1024, "
                                "2048 or 4096\n");
                return TOOL_EXIT_USAGE;
            }
            r.pmtu = (uint32_t)n;
            break;
        }
        case CO_SKEW: {
            char *end;
            unsigned long long n = strtoull(v, &end, 10);
            if (*end || n == 0 || n > 60000000ull) {
                fprintf(stderr, "ibwire check: --skew takes microseconds, "
                                "1..60000000\n");
                return TOOL_EXIT_USAGE;
            }
            r.skew_ns = n * 1000u;
            break;
        }
        case CO_JOBS: {
            char *end;
            unsigned long n = strtoul(v, &end, 10);
            if (*end || n < 1 || n > CHK_MAX_JOBS) {
                fprintf(stderr, "ibwire check: -j takes 1..%d threads\n",
                        CHK_MAX_JOBS);
                return TOOL_EXIT_USAGE;
            }
            r.jobs = (unsigned)n;
            break;
        }
        case CO_FLOW_IDLE: {
            char *end;
            double x = strtod(v, &end);
            if (*end || !(x > 0) || x > 1e9) {
                fprintf(stderr, "ibwire check: --flow-idle takes seconds, "
                                "more than 0\n");
                return TOOL_EXIT_USAGE;
            }
            r.flow_idle_ns = (uint64_t)(x * 1e9);
            if (!r.flow_idle_ns)
                r.flow_idle_ns = 1;
            break;
        }
        case CO_REORDER: {
            char *end;
            double x = strtod(v, &end);
            if (*end || !(x >= 0) || x > 60000) {
                fprintf(stderr, "ibwire check: --reorder takes milliseconds, "
                                "0..60000\n");
                return TOOL_EXIT_USAGE;
            }
            uint64_t ns = (uint64_t)(x * 1e6);
            r.reorder_ns = ns ? ns : CHK_REORDER_NONE;
            break;
        }
        case CO_REPORT:
            report_path = v;
            break;
        case CO_REPLAY:
            r.replay = 1;
            break;
        case CO_IFACE:
            r.iface = v;
            break;
        case CO_FILTER:
            r.filter = v;
            break;
        case CO_WRITE:
            r.write_path = v;
            break;
        case CO_DURATION:
        case CO_INTERVAL: {
            char *end;
            double x = strtod(v, &end);
            if (*end || !(x > 0) || x > 1e9) {
                fprintf(stderr, "ibwire check: %s takes seconds, more than "
                                "0\n", a);
                return TOOL_EXIT_USAGE;
            }
            uint64_t ns = (uint64_t)(x * 1e9);
            if (o->id == CO_DURATION)
                r.duration_ns = ns ? ns : 1;
            else
                r.interval_ns = ns ? ns : 1;
            break;
        }
        }
    }
    if (r.annotate && nfiles != 1) {
        fprintf(stderr, "ibwire check: --annotate takes exactly one FILE\n");
        return TOOL_EXIT_USAGE;
    }
    if (!r.iface && (r.filter || r.write_path || r.duration_ns ||
                     r.interval_ns)) {
        fprintf(stderr, "ibwire check: -f, -w, --duration and --interval "
                        "go with -i IFACE\n");
        return TOOL_EXIT_USAGE;
    }
    if (r.iface && (nfiles || r.annotate)) {
        fprintf(stderr, "ibwire check: -i IFACE takes no FILE and no "
                        "--annotate (use -w)\n");
        return TOOL_EXIT_USAGE;
    }
    if (r.iface) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_stop_signal; /* no SA_RESTART: poll returns */
        sigemptyset(&sa.sa_mask);
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
        argv[1] = (char *)r.iface;
        nfiles = 1;
    }
    if (report_path && !(r.rep = report_new())) {
        fprintf(stderr, "ibwire check: out of memory\n");
        return TOOL_EXIT_USAGE;
    }
    if (nfiles == 0)
        return report_done(&r, report_path, check_bundled(&r));
    if (r.fmt == FMT_JSON)
        fprintf(r.out, "{\"files\": [");
    if (r.fmt == FMT_JUNIT)
        fprintf(r.out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                       "<testsuites name=\"ibwire check\">\n");
    int status = TOOL_EXIT_OK;
    for (int k = 0; k < nfiles; k++) {
        int st = check_file(&r, argv[1 + k], k == 0);
        if (st > status)
            status = st;
    }
    if (r.fmt == FMT_JUNIT)
        fprintf(r.out, "</testsuites>\n");
    if (r.fmt == FMT_JSON)
        fprintf(r.out, "\n  ], \"errors\": %llu, \"warnings\": %llu}\n",
                (unsigned long long)r.tot_errors,
                (unsigned long long)r.tot_warnings);
    return report_done(&r, report_path, status);
}
