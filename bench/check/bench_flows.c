/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench_flows: does the checker's cost per frame, and its memory, stay put
 * as the number of flows grows?  Two captures of the same number of frames,
 * checked in the same run:
 *
 *   one flow    one RC connection: SEND ONLY, ACK, SEND ONLY, ACK, ...
 *   many flows  short RC connections between the same two hosts, one
 *               SEND ONLY and its ACK each, 10 ms apart, no CM, each with
 *               its own QPNs and a random starting PSN (as real HCAs pick
 *               them)
 *
 * Each check runs in a child process so that its peak RSS is its own.  The
 * many-flow capture is also checked at a quarter of its length: the peak
 * RSS may not grow with the number of flows that ended.
 *
 *   bench_flows DIR [--connections N] [--runs N] [--min-ratio R] [--max-rss-mb M]
 *
 * Each capture is checked N times (default 5); the best time counts.
 *
 * Fails (exit 1) when many/one frames per second < R, or a peak RSS > M,
 * or when the checker finds anything in traffic that is correct.
 */
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
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

/* splitmix64: deterministic PSNs and QPNs for every run */
static uint64_t rnd(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

struct conn {
    uint32_t req_qpn, resp_qpn, psn, msn;
};

static int put(struct cap_writer *w, uint64_t ts, const struct conn *k,
               int is_ack, const uint8_t *payload, uint32_t paylen)
{
    static const uint8_t a[4] = {10, 1, 0, 1}, b[4] = {10, 2, 0, 1};
    static uint8_t frame[2048];
    struct ibw_build_spec s;
    memset(&s, 0, sizeof s);
    s.transport = IBW_TK_ROCE_V2_IP4;
    memcpy(is_ack ? s.ip_dst : s.ip_src, a, 4);
    memcpy(is_ack ? s.ip_src : s.ip_dst, b, 4);
    s.ttl = 64;
    bench_spec_l2l3(&s);
    s.udp_sport = (uint16_t)(0xC000 | (k->req_qpn & 0x3FFF));
    s.bth.pkey = 0xFFFF;
    s.bth.psn = k->psn;
    if (is_ack) {
        s.bth.opcode = 0x11; /* RC ACKNOWLEDGE */
        s.bth.destqp = k->req_qpn;
        s.aeth.syndrome = 0x1F;
        s.aeth.msn = k->msn;
    } else {
        s.bth.opcode = 0x04; /* RC SEND ONLY */
        s.bth.destqp = k->resp_qpn;
        s.bth.ackreq = 1;
        s.payload = payload;
        s.payload_len = paylen;
    }
    size_t len;
    return ibw_build(&s, frame, sizeof frame, &len) != IBW_OK ||
           cap_write(w, ts, frame, len, NULL);
}

/* frames: 2 per message; many: one connection per message, else one
 * connection for all of them. */
static int write_capture(const char *path, unsigned long messages, int many)
{
    static uint8_t payload[256];
    struct cap_writer *w = bench_capture_open(path);
    if (!w)
        return -1;
    bench_payload_fill(payload, sizeof payload);
    uint64_t seed = 12;
    struct conn k = {0x11, 0x22, (uint32_t)rnd(&seed) & 0xFFFFFF, 0};
    uint64_t ts = 1700000000000000000ull;
    for (unsigned long m = 0; m < messages; m++) {
        if (many) {
            k.req_qpn = (uint32_t)(0x100 + 2 * m) & 0xFFFFFF;
            k.resp_qpn = (uint32_t)(0x101 + 2 * m) & 0xFFFFFF;
            k.psn = (uint32_t)rnd(&seed) & 0xFFFFFF;
            k.msn = 0;
        }
        k.msn = (k.msn + 1) & 0xFFFFFF;
        uint32_t paylen = 64 + (uint32_t)(m % 193);
        if (put(w, ts, &k, 0, payload, paylen) ||
            put(w, ts + 3000, &k, 1, NULL, 0))
            return -1;
        k.psn = (k.psn + 1) & 0xFFFFFF;
        ts += many ? 10000000u : 10000u; /* 10 ms between connections */
    }
    return cap_writer_close(w);
}

static void count_finding(void *user, const struct chk_finding *f)
{
    unsigned long *n = user;
    if (!*n)
        fprintf(stderr, "bench_flows: unexpected finding at frame %llu: %s\n",
                (unsigned long long)f->frame, f->message);
    (*n)++;
}

struct result {
    double seconds;
    unsigned long frames, findings;
    long peak_rss_kb;
};

/* Check `path` in a child; its time, counts and peak RSS. */
static int check_in_child(const char *path, struct result *res)
{
    int fd[2];
    if (pipe(fd))
        return -1;
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        close(fd[0]);
        struct result r = {0, 0, 0, 0};
        char err[256];
        double t0 = now();
        struct cap_reader *rd = cap_open(path, err, sizeof err);
        if (!rd)
            _exit(2);
        struct chk_opts o = {0, count_finding, &r.findings, NULL, NULL, 0, 0, NULL, NULL, 0};
        struct chk *c = chk_new(&o);
        struct cap_frame fr;
        while (cap_next(rd, &fr) == 1)
            chk_frame(c, &fr);
        chk_finish(c);
        r.frames = chk_stats(c)->frames;
        chk_free(c);
        cap_close(rd);
        r.seconds = now() - t0;
        _exit(write(fd[1], &r, sizeof r) == (ssize_t)sizeof r ? 0 : 2);
    }
    close(fd[1]);
    ssize_t got = read(fd[0], res, sizeof *res);
    close(fd[0]);
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0 || got != (ssize_t)sizeof *res)
        return -1;
    res->peak_rss_kb = ru.ru_maxrss;
    return 0;
}

static int runs = 5;
static int keep; /* --keep 1: leave the captures for other tools */

/* Write the capture, check it `runs` times: the best time (on a busy
 * machine noise only adds time) and the largest peak RSS. */
static int run(const char *dir, const char *name, unsigned long messages,
               int many, struct result *res)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (write_capture(path, messages, many)) {
        fprintf(stderr, "bench_flows: cannot write %s\n", path);
        return -1;
    }
    int rc = check_in_child(path, res);
    for (int i = 1; i < runs && !rc; i++) {
        struct result again;
        rc = check_in_child(path, &again);
        if (!rc && again.seconds < res->seconds)
            res->seconds = again.seconds;
        if (!rc && again.peak_rss_kb > res->peak_rss_kb)
            res->peak_rss_kb = again.peak_rss_kb;
    }
    if (!keep)
        remove(path);
    if (rc) {
        fprintf(stderr, "bench_flows: checking %s failed\n", path);
        return -1;
    }
    printf("%-36s %8lu frames %7.3f s %6.2f M frames/s  peak RSS %6.1f MB  "
           "%lu findings\n", name, res->frames, res->seconds,
           (double)res->frames / res->seconds / 1e6,
           (double)res->peak_rss_kb / 1024.0, res->findings);
    return 0;
}

int main(int argc, char **argv)
{
    unsigned long conns = 1000000;
    double min_ratio = 0, max_rss_mb = 0;
    if (argc < 2) {
        fprintf(stderr, "usage: bench_flows DIR [--connections N] [--runs N] "
                        "[--min-ratio R] [--max-rss-mb M]\n");
        return 2;
    }
    for (int i = 2; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--connections"))
            conns = strtoul(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--min-ratio"))
            min_ratio = strtod(argv[i + 1], NULL);
        else if (!strcmp(argv[i], "--max-rss-mb"))
            max_rss_mb = strtod(argv[i + 1], NULL);
        else if (!strcmp(argv[i], "--keep"))
            keep = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--runs"))
            runs = atoi(argv[i + 1]) > 0 ? atoi(argv[i + 1]) : 1;
    }
    struct result one, many, quarter;
    if (run(argv[1], "bench-flows-one.pcap", conns, 0, &one) ||
        run(argv[1], "bench-flows-many-quarter.pcap", conns / 4, 1, &quarter) ||
        run(argv[1], "bench-flows-many.pcap", conns, 1, &many))
        return 2;
    double ratio = ((double)many.frames / many.seconds) /
                   ((double)one.frames / one.seconds);
    printf("frames/s many flows / one flow: %.3f (required >= %.3f)\n", ratio,
           min_ratio);
    printf("peak RSS: %.1f MB at %lu connections, %.1f MB at %lu (limit %.0f MB)\n",
           (double)quarter.peak_rss_kb / 1024.0, conns / 4,
           (double)many.peak_rss_kb / 1024.0, conns, max_rss_mb);
    int fail = 0;
    if (one.findings || many.findings || quarter.findings) {
        fprintf(stderr, "bench_flows: findings on correct traffic\n");
        fail = 1;
    }
    if (ratio < min_ratio)
        fail = 1;
    if (max_rss_mb > 0 && (double)many.peak_rss_kb / 1024.0 > max_rss_mb)
        fail = 1;
    return fail;
}
