/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench_check: `ibwire check`'s engine (capture reader + checker) on a
 * 1,000,000-packet RoCEv2 capture against a bare libpcap read loop over the
 * same file, in the same run.  Prints both rates and their ratio; with
 * --min-ratio R fails when checker/bare < R.
 *
 *   bench_check FILE [--packets N] [--runs N] [--min-ratio R]
 *               [--jobs J] [--min-jobs-speedup S] [--tool IBWIRE]
 *               [--replay 0|1] [--keep 0|1]
 *
 * With --jobs J (default 2) the checker also runs with J threads
 * (chk_feed: the parsing spread over J - 1 workers), same file, same run;
 * --min-jobs-speedup S fails when that is less than S times as fast.
 *
 * Both sides run N times (default 9), alternating which goes first, and
 * the best time of each is compared: on a busy machine noise only ever
 * adds time, so the minimum is the steadiest estimate of either side.
 *
 * With --tool IBWIRE the same runs also time, as processes with their
 * output thrown away, `IBWIRE check FILE`, `IBWIRE check -j J FILE`,
 * `IBWIRE check --replay FILE` and, when it is on PATH, `tshark -n -r FILE`;
 * the table at the end gives each as a ratio of times to the bare loop
 * (median of the runs), and --replay's to `check`'s (--replay 0 leaves
 * that one out).  Only a crash (or a
 * wrong count) fails the run then: the figures are for reading.
 *
 * FILE is (re)written first: 16 RC connections, each a SEND ONLY of 64..1024
 * bytes then an ACK, PSNs advancing, fixed timestamps.
 */
#include <fcntl.h>
#include <pcap/pcap.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_capture.h"
#include "check.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int write_capture(const char *path, unsigned long n)
{
    static uint8_t payload[1024], frame[2048];
    struct cap_writer *w = bench_capture_open(path);
    if (!w)
        return -1;
    bench_payload_fill(payload, sizeof payload);
    uint32_t psn[16] = {0}, msn[16] = {0};
    for (unsigned long k = 0; k < n; k++) {
        unsigned q = (unsigned)(k / 2) % 16;
        int is_ack = k & 1;
        struct ibw_build_spec s;
        memset(&s, 0, sizeof s);
        s.transport = IBW_TK_ROCE_V2_IP4;
        uint8_t a[4] = {10, 1, 0, (uint8_t)(1 + q)}, b[4] = {10, 2, 0, 1};
        memcpy(is_ack ? s.ip_dst : s.ip_src, a, 4);
        memcpy(is_ack ? s.ip_src : s.ip_dst, b, 4);
        s.ttl = 64;
        bench_spec_l2l3(&s);
        s.udp_sport = (uint16_t)(0xC000 + q);
        s.bth.pkey = 0xFFFF;
        s.bth.psn = psn[q];
        if (is_ack) {
            s.bth.opcode = 0x11;
            s.bth.destqp = 0x100 + q;
            s.aeth.syndrome = 0x1F;
            s.aeth.msn = ++msn[q];
            psn[q] = (psn[q] + 1) & 0xFFFFFF;
        } else {
            s.bth.opcode = 0x04;
            s.bth.destqp = 0x200 + q;
            s.bth.ackreq = 1;
            s.payload = payload;
            s.payload_len = 64 + (k * 37) % 961;
        }
        size_t len;
        if (ibw_build(&s, frame, sizeof frame, &len) != IBW_OK ||
            cap_write(w, 1700000000000000000ull + k * 1000, frame, len, NULL))
            return -1;
    }
    return cap_writer_close(w);
}

static double bare_loop(const char *path, unsigned long *count)
{
    char err[PCAP_ERRBUF_SIZE];
    double t0 = now();
    pcap_t *p = pcap_open_offline(path, err);
    if (!p)
        return -1;
    struct pcap_pkthdr *h;
    const u_char *d;
    unsigned long n = 0, sum = 0;
    while (pcap_next_ex(p, &h, &d) == 1) {
        sum += d[h->caplen - 1];
        n++;
    }
    pcap_close(p);
    *count = n + (sum & 0); /* sum keeps the loop reading the bytes */
    return now() - t0;
}

static void no_report(void *user, const struct chk_finding *f)
{
    (void)f;
    (*(unsigned long *)user)++;
}

static double check_loop(const char *path, unsigned jobs, unsigned long *count,
                         unsigned long *findings)
{
    char err[256];
    *findings = 0;
    double t0 = now();
    struct cap_reader *r = cap_open(path, err, sizeof err);
    if (!r)
        return -1;
    struct chk_opts o = {0, no_report, findings, NULL, NULL, 0, 0, NULL, NULL, 0};
    struct chk *c = chk_new(&o);
    if (chk_feed_all(c, r, jobs, NULL, NULL))
        *findings += 1000000; /* a read error: no figure */
    chk_finish(c);
    *count = chk_stats(c)->frames;
    chk_free(c);
    cap_close(r);
    return now() - t0;
}

extern char **environ;

/* Time one process, argv[0] looked up on PATH, its output to /dev/null;
 * -1 when it cannot start, -2 when it dies of a signal (a crash). */
static double spawn_time(char *const argv[])
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    double t0 = now();
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc)
        return -1;
    int st;
    if (waitpid(pid, &st, 0) != pid)
        return -1;
    double t = now() - t0;
    if (WIFSIGNALED(st))
        return -2;
    return WIFEXITED(st) && WEXITSTATUS(st) == 127 ? -1 : t;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

enum { MAX_RUNS = 99 };

int main(int argc, char **argv)
{
    unsigned long n = 1000000;
    int runs = 9;
    double min_ratio = 0, min_jobs = 0;
    unsigned jobs = 2;
    int keep = 0; /* --keep 1: leave FILE for other tools to time */
    const char *tool = NULL; /* --tool IBWIRE: time the tool too */
    int no_replay = 0;       /* --replay 0: leave `check --replay` out */
    if (argc < 2) {
        fprintf(stderr, "usage: bench_check FILE [--packets N] [--runs N] [--min-ratio R] [--jobs J] [--min-jobs-speedup S]\n");
        return 2;
    }
    for (int i = 2; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--packets"))
            n = strtoul(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--runs"))
            runs = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--min-ratio"))
            min_ratio = strtod(argv[i + 1], NULL);
        else if (!strcmp(argv[i], "--keep"))
            keep = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--jobs"))
            jobs = (unsigned)atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--min-jobs-speedup"))
            min_jobs = strtod(argv[i + 1], NULL);
        else if (!strcmp(argv[i], "--replay"))
            no_replay = !atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--tool"))
            tool = argv[i + 1];
    }
    if (write_capture(argv[1], n)) {
        fprintf(stderr, "bench_check: cannot write %s\n", argv[1]);
        return 2;
    }
    if (runs < 1 || runs > MAX_RUNS) {
        fprintf(stderr, "bench_check: --runs must be 1..%d\n", MAX_RUNS);
        return 2;
    }
    unsigned long nb = 0, nc = 0, nj = 0, findings = 0, findings_j = 0;
    double tb[MAX_RUNS], tc[MAX_RUNS], tj[MAX_RUNS];
    enum { NTOOL = 4 };
    double tt[NTOOL][MAX_RUNS];
    for (int rep = 0; rep < runs; rep++) {
        /* Alternate the order so that neither side always inherits the
         * other's cache state or a clock ramp. */
        if (rep % 2 == 0) {
            tb[rep] = bare_loop(argv[1], &nb);
            tc[rep] = check_loop(argv[1], 1, &nc, &findings);
            tj[rep] = jobs > 1 ? check_loop(argv[1], jobs, &nj, &findings_j) : 1;
        } else {
            tj[rep] = jobs > 1 ? check_loop(argv[1], jobs, &nj, &findings_j) : 1;
            tc[rep] = check_loop(argv[1], 1, &nc, &findings);
            tb[rep] = bare_loop(argv[1], &nb);
        }
        if (tool) {
            char jarg[16];
            snprintf(jarg, sizeof jarg, "%u", jobs);
            char *cmd[][6] = {
                {(char *)tool, "check", argv[1], NULL},
                {(char *)tool, "check", "-j", jarg, argv[1], NULL},
                {(char *)tool, "check", "--replay", argv[1], NULL},
                {"tshark", "-n", "-r", argv[1], NULL}};
            for (int k = 0; k < NTOOL; k++) {
                if (k == 2 && no_replay) {
                    tt[k][rep] = -1; /* reported as not run */
                    continue;
                }
                tt[k][rep] = spawn_time(cmd[k]);
                if (tt[k][rep] == -2) {
                    fprintf(stderr, "bench_check: %s crashed\n", cmd[k][0]);
                    return 2;
                }
            }
        }
        if (tb[rep] < 0 || tc[rep] < 0 || tj[rep] < 0) {
            fprintf(stderr, "bench_check: cannot read %s\n", argv[1]);
            return 2;
        }
    }
    double best_b = tb[0], best_c = tc[0], best_j = tj[0];
    for (int rep = 1; rep < runs; rep++) {
        best_b = tb[rep] < best_b ? tb[rep] : best_b;
        best_c = tc[rep] < best_c ? tc[rep] : best_c;
        best_j = tj[rep] < best_j ? tj[rep] : best_j;
    }
    double med_b = median(tb, runs), med_c = median(tc, runs);
    if (tool) {
        static const char *name[NTOOL] = {"ibwire check", "ibwire check -j",
                                          "ibwire check --replay",
                                          "tshark -n -r"};
        double med[NTOOL];
        printf("ratios of times, median of %d runs (lower is faster):\n", runs);
        printf("  %-24s %8.3f s  1.00 (baseline)\n", "bare libpcap loop", med_b);
        printf("  %-24s %8.3f s  %.2f x bare\n", "check (in process)", med_c,
               med_c / med_b);
        for (int k = 0; k < NTOOL; k++) {
            int ok_runs = 1;
            for (int rep = 0; rep < runs; rep++)
                ok_runs = ok_runs && tt[k][rep] >= 0;
            if (!ok_runs) {
                printf("  %-24s (not run: %s)\n", name[k],
                       k == 2 && no_replay ? "--replay 0" : "not found");
                med[k] = -1;
                continue;
            }
            med[k] = median(tt[k], runs);
            printf("  %-24s %8.3f s  %.2f x bare\n", name[k], med[k],
                   med[k] / med_b);
        }
        if (med[0] > 0 && med[1] > 0)
            printf("  check -j %u / check:       %.2f (speed-up %.2f x)\n", jobs,
                   med[1] / med[0], med[0] / med[1]);
        if (med[0] > 0 && med[2] > 0)
            printf("  check --replay / check:   %.2f\n", med[2] / med[0]);
        if (med[0] > 0 && med[3] > 0)
            printf("  tshark / check:           %.2f\n", med[3] / med[0]);
    }
    double ratio = best_b / best_c; /* checker speed / bare speed */
    printf("bare libpcap loop: %lu packets, best of %d %.3f s (%.1f ns/packet), "
           "median %.3f s\n", nb, runs, best_b, best_b * 1e9 / (double)nb, med_b);
    printf("ibwire check:      %lu packets, best of %d %.3f s (%.1f ns/packet), "
           "median %.3f s, %lu findings\n", nc, runs, best_c,
           best_c * 1e9 / (double)nc, med_c, findings);
    printf("checker cost over the bare loop: %.1f ns/packet\n",
           (best_c - best_b) * 1e9 / (double)nc);
    printf("speed ratio check/bare: %.3f best/best, %.3f median/median "
           "(required >= %.3f, best/best)\n", ratio, med_b / med_c, min_ratio);
    int ok = ratio >= min_ratio;
    if (jobs > 1) {
        double jr = best_c / best_j;
        printf("ibwire check -j %u: %lu packets, best of %d %.3f s (%.1f "
               "ns/packet): %.2fx -j 1 (required >= %.2f), speed ratio to "
               "the bare loop %.3f\n", jobs, nj, runs, best_j,
               best_j * 1e9 / (double)nj, jr, min_jobs, best_b / best_j);
        ok = ok && jr >= min_jobs;
        if (nj != n || findings_j) {
            fprintf(stderr, "bench_check: -j packet counts or findings wrong\n");
            ok = 0;
        }
    }
    if (!keep)
        remove(argv[1]);
    if (nb != n || nc != n || findings) {
        fprintf(stderr, "bench_check: packet counts or findings wrong\n");
        return 1;
    }
    return ok ? 0 : 1;
}
