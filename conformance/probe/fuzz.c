/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz.c - `ibwire probe --fuzz`: the driver (README.md, "Fuzzing").
 * Episode i of seed S is generated from its own random stream
 * (fz_rng_seed(S, i)), run on the device and on the reference engine,
 * judged (fuzz_judge.c); the first divergence of each judgement is shrunk
 * by delta debugging (fewer lines, smaller lengths, the default setup),
 * written as a probe script with the engine's frames, completions and
 * memory as expectations, and verified: the script must fail on the device
 * and pass on the engine.  Episodes whose outcome has a shape not seen
 * before are kept in DIR/corpus and run first the next time.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "fuzz.h"
#include "ibwire/packet.h"
#include "probe_int.h"

#define EPISODE_MAX 16384
#define MIN_BUDGET 400 /* runs of the pair per minimization */

static double wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- one episode on both ---- */

/* The engine first: the device's `~` windows then last until it has sent
 * what the engine sent in each (probe.h, window_frames), so that on a slow
 * device the probe's answers still come after the requests they answer. */
static void pair(const char *moves, struct probe_target *dev, struct probe_target *ref,
                 const struct probe_opts *po, struct fz_obs *d, struct fz_obs *r,
                 struct fz_verdict *v)
{
    static uint16_t win[FZ_MAXLINES];
    fz_observe(moves, ref, NULL, r);
    memset(win, 0, sizeof win);
    for (size_t i = 0; i < r->nfr; i++)
        if (r->fr[i].dir == 1 && r->fr[i].line > 0 && r->fr[i].line < FZ_MAXLINES &&
            win[r->fr[i].line] < UINT16_MAX)
            win[r->fr[i].line]++;
    struct probe_opts o = po ? *po : (struct probe_opts){0};
    o.window_frames = win;
    o.nwindow = FZ_MAXLINES;
    /* the default wait for a frame (50 ms), scaled as the device's are */
    o.window_cap_ns = 50000000ull * (o.within_scale > 1 ? o.within_scale : 1);
    fz_observe(moves, dev, &o, d);
    fz_judge(moves, d, r, v);
}

struct mini {
    struct probe_target *dev, *ref;
    const struct probe_opts *po;
    const char *key;
    unsigned runs;
    double deadline; /* wall(): no more runs from then on; 0: none */
};

static int still(struct mini *m, const char *moves)
{
    if (m->runs >= MIN_BUDGET || (m->deadline > 0 && wall() >= m->deadline))
        return 0;
    m->runs++;
    struct fz_obs d, r;
    struct fz_verdict v;
    pair(moves, m->dev, m->ref, m->po, &d, &r, &v);
    fz_obs_free(&d);
    fz_obs_free(&r);
    return v.diverged && !strcmp(v.key, m->key);
}

/* lines of a script, the setup and needs lines apart */
struct lines {
    char head[2][256];
    int nhead;
    char **l;
    int n;
};

static int split_lines(const char *s, struct lines *L)
{
    memset(L, 0, sizeof *L);
    int cap = 0;
    while (*s) {
        const char *e = strchr(s, '\n');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        if (n && (!strncmp(s, "setup", 5) || !strncmp(s, "needs", 5)) && L->nhead < 2 &&
            n < sizeof L->head[0]) {
            memcpy(L->head[L->nhead], s, n);
            L->head[L->nhead++][n] = 0;
        } else if (n) {
            if (L->n == cap) {
                cap = cap ? 2 * cap : 64;
                char **m = realloc(L->l, (size_t)cap * sizeof *m);
                if (!m)
                    return -1;
                L->l = m;
            }
            L->l[L->n] = malloc(n + 1);
            if (!L->l[L->n])
                return -1;
            memcpy(L->l[L->n], s, n);
            L->l[L->n++][n] = 0;
        }
        s += n + (e ? 1 : 0);
    }
    return 0;
}

static void free_lines(struct lines *L)
{
    for (int i = 0; i < L->n; i++)
        free(L->l[i]);
    free(L->l);
}

/* The script of L without lines [skip, skip + nskip). */
static int join(const struct lines *L, int skip, int nskip, char *out, size_t cap)
{
    size_t k = 0;
    for (int h = 0; h < L->nhead; h++) {
        int w = snprintf(out + k, cap - k, "%s\n", L->head[h]);
        if (w < 0 || (size_t)w >= cap - k)
            return -1;
        k += (size_t)w;
    }
    for (int i = 0; i < L->n; i++) {
        if (i >= skip && i < skip + nskip)
            continue;
        int w = snprintf(out + k, cap - k, "%s\n", L->l[i]);
        if (w < 0 || (size_t)w >= cap - k)
            return -1;
        k += (size_t)w;
    }
    out[k] = 0;
    return 0;
}

static void drop_lines(struct lines *L, int at, int n)
{
    for (int i = at; i < at + n; i++)
        free(L->l[i]);
    memmove(&L->l[at], &L->l[at + n], (size_t)(L->n - at - n) * sizeof L->l[0]);
    L->n -= n;
}

/* Replace line i by s if the divergence stays. */
static int try_line(struct mini *m, struct lines *L, int i, const char *s, char *buf,
                    size_t cap)
{
    char *old = L->l[i];
    char *nw = strdup(s);
    if (!nw)
        return 0;
    L->l[i] = nw;
    if (!join(L, 0, 0, buf, cap) && still(m, buf)) {
        free(old);
        return 1;
    }
    L->l[i] = old;
    free(nw);
    return 0;
}

unsigned fz_minimize(char *moves, size_t cap, struct probe_target *dev,
                     struct probe_target *ref, const struct probe_opts *po,
                     const char *key, double deadline)
{
    struct mini m = {dev, ref, po, key, 0, deadline};
    struct lines L;
    char *buf = malloc(EPISODE_MAX);
    if (!buf || split_lines(moves, &L)) {
        free(buf);
        return 0;
    }
    /* ddmin over the lines: drop chunks while the divergence stays */
    int n = 2;
    while (L.n >= 1 && m.runs < MIN_BUDGET) {
        int chunk = (L.n + n - 1) / n, removed = 0;
        for (int at = 0; at < L.n; at += chunk) {
            int k = at + chunk > L.n ? L.n - at : chunk;
            if (!join(&L, at, k, buf, EPISODE_MAX) && still(&m, buf)) {
                drop_lines(&L, at, k);
                n = n > 2 ? n - 1 : 2;
                removed = 1;
                break;
            }
        }
        if (!removed) {
            if (n >= L.n)
                break;
            n = 2 * n < L.n ? 2 * n : L.n;
        }
    }
    /* smaller numbers: len=, within=, halved while it stays */
    static const char *const keys[] = {"len=", "within=", "dmalen="};
    for (int i = 0; i < L.n; i++)
        for (int kk = 0; kk < 3; kk++)
            for (int tries = 0; tries < 10; tries++) {
                char *p = strstr(L.l[i], keys[kk]);
                if (!p || (p != L.l[i] && p[-1] != ' '))
                    break;
                char *num = p + strlen(keys[kk]), *end;
                unsigned long v = strtoul(num, &end, 10);
                if (end == num || v < 2 || !strncmp(num, "0x", 2))
                    break;
                char line[512];
                snprintf(line, sizeof line, "%.*s%lu%s", (int)(num - L.l[i]), L.l[i],
                         v / 2, end);
                if (!try_line(&m, &L, i, line, buf, EPISODE_MAX))
                    break;
            }
    /* the default setup: without the setup line, else without each key */
    for (int h = 0; h < L.nhead; h++) {
        if (strncmp(L.head[h], "setup", 5))
            continue;
        char save[256];
        snprintf(save, sizeof save, "%s", L.head[h]);
        snprintf(L.head[h], sizeof L.head[h], "setup");
        if (!join(&L, 0, 0, buf, EPISODE_MAX) && still(&m, buf)) {
            /* "setup" with no keys is the default */
            continue;
        }
        snprintf(L.head[h], sizeof L.head[h], "%s", save);
        for (;;) {
            int dropped = 0;
            char *p = L.head[h] + 5;
            while ((p = strchr(p, ' '))) {
                char *e = strchr(p + 1, ' ');
                char cand[256];
                snprintf(cand, sizeof cand, "%.*s%s", (int)(p - L.head[h]), L.head[h],
                         e ? e : "");
                snprintf(save, sizeof save, "%s", L.head[h]);
                snprintf(L.head[h], sizeof L.head[h], "%s", cand);
                if (!join(&L, 0, 0, buf, EPISODE_MAX) && still(&m, buf)) {
                    dropped = 1;
                    break;
                }
                snprintf(L.head[h], sizeof L.head[h], "%s", save);
                p++;
            }
            if (!dropped)
                break;
        }
    }
    /* the needs line, when what needed it went */
    for (int h = 0; h < L.nhead; h++) {
        if (strncmp(L.head[h], "needs", 5))
            continue;
        struct lines M = L;
        M.nhead = 0;
        char keep[2][256];
        int nk = 0;
        for (int q = 0; q < L.nhead; q++)
            if (q != h)
                memcpy(keep[nk++], L.head[q], sizeof keep[0]);
        memcpy(M.head, keep, sizeof keep);
        M.nhead = nk;
        if (!join(&M, 0, 0, buf, EPISODE_MAX) && still(&m, buf)) {
            memcpy(L.head, keep, sizeof keep);
            L.nhead = nk;
            h--;
        }
    }
    /* a bare "setup" line says nothing */
    for (int h = 0; h < L.nhead; h++)
        if (!strcmp(L.head[h], "setup")) {
            memmove(L.head[h], L.head[h + 1], sizeof L.head[0] * (size_t)(L.nhead - h - 1));
            L.nhead--;
            h--;
        }
    if (!join(&L, 0, 0, buf, EPISODE_MAX) && strlen(buf) < cap)
        memcpy(moves, buf, strlen(buf) + 1);
    free_lines(&L);
    free(buf);
    return m.runs;
}

/* ---- the corpus ---- */

/* The shape of an outcome: which response opcodes and AETH classes the
 * device sent, which completion statuses it gave, and its side. */
static uint64_t shape(const char *moves, const struct fz_obs *d)
{
    uint64_t s = strstr(moves, "post ") ? 1 : 0;
    for (size_t i = 0; i < d->nfr; i++) {
        if (d->fr[i].dir != 1)
            continue;
        struct probe_rx rx;
        probe_decode(d->fr[i].b, d->fr[i].len, &rx);
        unsigned k = (unsigned)rx.opcode * 8u + (rx.has_aeth ? rx.syndrome >> 5 : 0);
        s |= 1ull << (1 + k % 40);
    }
    for (int i = 0; i < d->ncq; i++)
        s |= 1ull << (41 + d->cq[i].status + (d->cq[i].recv ? 9 : 0));
    return s;
}

struct shapes {
    uint64_t *v;
    size_t n, cap;
};

static int shape_new(struct shapes *S, uint64_t s)
{
    for (size_t i = 0; i < S->n; i++)
        if (S->v[i] == s)
            return 0;
    if (S->n == S->cap) {
        size_t c = S->cap ? 2 * S->cap : 64;
        uint64_t *m = realloc(S->v, c * sizeof *m);
        if (!m)
            return 0;
        S->v = m;
        S->cap = c;
    }
    S->v[S->n++] = s;
    return 1;
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *b = malloc(EPISODE_MAX);
    size_t n = b ? fread(b, 1, EPISODE_MAX - 1, f) : 0;
    fclose(f);
    if (b)
        b[n] = 0;
    return b;
}

static int write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    int bad = fputs(text, f) < 0;
    return fclose(f) || bad ? -1 : 0;
}

/* ---- a divergence: shrink, script, verify, write ---- */

static int script_lines(const char *s)
{
    int n = 0;
    for (; *s; s = strchr(s, '\n') ? strchr(s, '\n') + 1 : s + strlen(s))
        if (*s != '#' && *s != '\n')
            n++;
    return n;
}

static void report(const struct fz_opts *o, const char *id, char *moves,
                   const struct fz_verdict *v0, double deadline, unsigned *lines_out,
                   int *verified)
{
    unsigned runs = fz_minimize(moves, EPISODE_MAX, o->dev, o->ref, o->popts, v0->key,
                                deadline);
    struct fz_obs d, r;
    struct fz_verdict v;
    pair(moves, o->dev, o->ref, o->popts, &d, &r, &v);
    if (!v.diverged)
        v = *v0;
    char *body = malloc(EPISODE_MAX * 2), *text = malloc(EPISODE_MAX * 3);
    *verified = 0;
    *lines_out = 0;
    if (!body || !text || !fz_script_of(moves, &r, &d, body, EPISODE_MAX * 2)) {
        fprintf(o->out, "  %s: the script does not fit\n", id);
        goto out;
    }
    /* it must fail on the device and pass on the engine */
    struct probe_test t = {id, PROBE_RESPONDER, v.section, v.rule, "", body};
    struct probe_result rd, rr;
    probe_run(&t, o->ref, NULL, &rr);
    probe_run(&t, o->dev, o->popts, &rd);
    *verified = rr.verdict == PROBE_PASS && rd.verdict == PROBE_FAIL;
    *lines_out = (unsigned)script_lines(body);
    snprintf(text, EPISODE_MAX * 3,
             "# %s: found by ibwire probe --fuzz against %s\n"
             "# statement: %s (%s)   rules: %s   (judgement %s)\n"
             "# divergence: %s\n"
             "# the device %s this script (%s); the reference engine %s it\n"
             "# shrunk in %u runs of the episode on both\n"
             "%s",
             id, o->dev_name ? o->dev_name : o->dev->name, *v.stmt ? v.stmt : "-",
             *v.section ? v.section : "-", *v.rule ? v.rule : "-", v.key, v.why,
             rd.verdict == PROBE_FAIL ? "fails" : "does NOT fail",
             rd.verdict == PROBE_FAIL ? rd.why : "not verified",
             rr.verdict == PROBE_PASS ? "passes" : "does NOT pass", runs, body);
    fprintf(o->out, "DIVERGENCE %s [%s] %s (%s)%s%s: %s\n", id, v.key,
            *v.stmt ? v.stmt : "-", *v.section ? v.section : "-",
            *v.rule ? " " : "", v.rule, v.why);
    if (o->out_dir) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s.probe", o->out_dir, id);
        if (write_file(path, text))
            fprintf(o->out, "  %s: %s\n", path, strerror(errno));
        else
            fprintf(o->out, "  %s: %u lines, %s\n", path, *lines_out,
                    *verified ? "fails on the device and passes on the engine"
                              : "NOT verified as a script");
    } else {
        fprintf(o->out, "%s", text);
    }
out:
    /* at once: a device whose host crashes later must not take the report
     * with it (stdout to a file is buffered) */
    fflush(o->out);
    free(body);
    free(text);
    fz_obs_free(&d);
    fz_obs_free(&r);
}

/* mkdir -p */
static int make_dir(const char *path)
{
    char p[1024];
    snprintf(p, sizeof p, "%s", path);
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = 0;
            if (mkdir(p, 0777) && errno != EEXIST)
                return -1;
            *s = '/';
        }
    return mkdir(p, 0777) && errno != EEXIST ? -1 : 0;
}

long fz_run(const struct fz_opts *o)
{
    double t0 = wall(), last = t0;
    struct shapes S = {NULL, 0, 0};
    char corpus[1024] = "";
    char *moves = malloc(EPISODE_MAX);
    if (!moves)
        return -1;
    if (o->out_dir) {
        if (make_dir(o->out_dir)) {
            fprintf(stderr, "ibwire probe: --out %s: %s\n", o->out_dir, strerror(errno));
            free(moves);
            return -1;
        }
        snprintf(corpus, sizeof corpus, "%s/corpus", o->out_dir);
        if (mkdir(corpus, 0777) && errno != EEXIST)
            corpus[0] = 0;
    }
    /* the device's capabilities: one open of an empty episode */
    uint32_t caps = PROBE_CAP_ATOMIC | PROBE_CAP_SEND_INV;
    {
        struct probe_dev d;
        struct probe_setup su = {PROBE_RC, 0x11, 0x1000, 0x2000, 256, 7, 7, 14, 1, 0,
                                 0xFFFF, 0x11111111u, 0};
        char err[256];
        if (!o->dev->open(o->dev->ctx, &su, &d, err, sizeof err)) {
            caps = d.caps;
            o->dev->close(o->dev->ctx);
        }
    }
    long divergences = 0;
    uint64_t skipped = 0, ran = 0, corpus_ran = 0;
    const char *found[64];
    unsigned best[64], tries[64];
    uint64_t count[64]; /* divergences of each judgement */
    int nfound = 0;
    double first_at = -1;
    uint64_t first_ep = 0;
    /* the corpus first: episodes kept by earlier runs */
    DIR *dir = corpus[0] ? opendir(corpus) : NULL;
    struct dirent *de;
    char **kept = NULL;
    size_t nkept = 0;
    while (dir && (de = readdir(dir))) {
        size_t l = strlen(de->d_name);
        if (l < 4 || strcmp(de->d_name + l - 3, ".ep"))
            continue;
        char **m = realloc(kept, (nkept + 1) * sizeof *m);
        if (!m)
            break;
        kept = m;
        kept[nkept] = malloc(strlen(corpus) + l + 2);
        if (kept[nkept])
            sprintf(kept[nkept++], "%s/%s", corpus, de->d_name);
    }
    if (dir)
        closedir(dir);
    uint64_t total = nkept + o->episodes;
    for (uint64_t i = 0; i < total; i++) {
        char id[96];
        if (i < nkept) {
            char *b = read_file(kept[i]);
            if (!b)
                continue;
            snprintf(moves, EPISODE_MAX, "%s", b);
            free(b);
            const char *base = strrchr(kept[i], '/');
            snprintf(id, sizeof id, "corpus-%.*s", (int)strcspn(base + 1, "."), base + 1);
            corpus_ran++;
        } else {
            struct fz_rng g;
            uint64_t ep = o->first + (i - nkept);
            fz_rng_seed(&g, o->seed, ep);
            if (!fz_generate(&g, caps, moves, EPISODE_MAX))
                continue;
            snprintf(id, sizeof id, "fz-%llu-%llu", (unsigned long long)o->seed,
                     (unsigned long long)ep);
        }
        if (o->verbose)
            fprintf(o->out, "--- %s\n%s", id, moves);
        if (o->episode_log) {
            fprintf(o->episode_log, "ibwire probe --fuzz: episode %s\n", id);
            fflush(o->episode_log);
        }
        struct fz_obs d, r;
        struct fz_verdict v;
        pair(moves, o->dev, o->ref, o->popts, &d, &r, &v);
        ran++;
        if (v.skip) {
            skipped++;
        } else {
            if (corpus[0] && shape_new(&S, shape(moves, &d)) && i >= nkept) {
                char path[1200];
                snprintf(path, sizeof path, "%s/%016llx.ep", corpus,
                         (unsigned long long)shape(moves, &d));
                FILE *f = fopen(path, "r");
                if (f)
                    fclose(f);
                else
                    write_file(path, moves);
            }
        }
        fz_obs_free(&d);
        fz_obs_free(&r);
        if (v.diverged) {
            divergences++;
            if (first_at < 0) {
                first_at = wall() - t0;
                first_ep = ran;
            }
            /* the first divergence of each judgement is shrunk, and the
             * next ones too (three at most) while its script is long */
            int k = 0;
            while (k < nfound && strcmp(found[k], v.key))
                k++;
            if (k == nfound && nfound < 64) {
                found[nfound] = v.key;
                tries[nfound] = 0;
                count[nfound] = 0;
                best[nfound++] = ~0u;
            }
            if (k < nfound)
                count[k]++;
            if (k < nfound && tries[k] < 3 && best[k] > 15) {
                unsigned lines;
                int ok;
                tries[k]++;
                /* a time limit holds the minimizations too: one
                 * that reaches it keeps what it has shrunk so far */
                report(o, id, moves, &v, o->time_limit > 0 ? t0 + o->time_limit : 0,
                       &lines, &ok);
                if (ok && lines < best[k])
                    best[k] = lines;
            }
        }
        double now = wall();
        if (o->progress && (now - last >= 2.0 || i + 1 == total)) {
            fprintf(o->progress, "fuzz: %llu/%llu episodes, %ld divergences, "
                    "%.0f episodes/s\n", (unsigned long long)ran,
                    (unsigned long long)total, divergences,
                    (double)ran / (now - t0 > 1e-9 ? now - t0 : 1e-9));
            last = now;
        }
        if (o->time_limit > 0 && now - t0 >= o->time_limit)
            break;
    }
    double secs = wall() - t0;
    fprintf(o->out, "fuzz: %llu episodes (%llu from the corpus) in %.1f s (%.0f/s), "
            "seed %llu: %ld divergences",
            (unsigned long long)ran, (unsigned long long)corpus_ran, secs,
            (double)ran / (secs > 1e-9 ? secs : 1e-9), (unsigned long long)o->seed,
            divergences);
    if (first_at >= 0)
        fprintf(o->out, ", the first at episode %llu after %.2f s",
                (unsigned long long)first_ep, first_at);
    fprintf(o->out, "; %llu not judged (N/A or the engine refused)\n",
            (unsigned long long)skipped);
    if (nfound) {
        fprintf(o->out, "fuzz: divergences by judgement:");
        for (int k = 0; k < nfound; k++)
            fprintf(o->out, " %s %llu%s", found[k], (unsigned long long)count[k],
                    k + 1 < nfound ? "," : "\n");
    }
    for (size_t k = 0; k < nkept; k++)
        free(kept[k]);
    free(kept);
    free(S.v);
    free(moves);
    return divergences;
}
