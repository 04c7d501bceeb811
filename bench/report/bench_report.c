/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench_report: what `ibwire check --report` costs on a 1,000,000-frame
 * capture, against `ibwire check` alone on the same file in the same run.
 *
 *   bench_report IBWIRE DIR [--frames N] [--runs N] [--max-ratio R]
 *                [--max-mb M]
 *
 * Writes DIR/bench_report.pcap: 64 RC connections, SEND ONLYs of 64..1024
 * bytes each acknowledged, where every 400th message of a connection is
 * lost once (the next request arrives first, the responder NAKs the
 * sequence error, the requester resends both), every 300th request is
 * ECN CE-marked and answered by a CNP: markers of every kind across the
 * whole capture, as a lossy fabric would show.  Then runs IBWIRE check with
 * and without --report N times each (default 3), alternating which goes
 * first, and compares the best times (noise only adds time).  Prints the
 * times, their ratio and the page's size; --max-ratio R fails when
 * report/check > R, --max-mb M when the page is larger than M MB.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "capture.h"
#include "ibwire/packet.h"

#define CONNS 64

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

struct conn {
    unsigned q;
    uint32_t psn, msn;
    unsigned long msgs;
};

struct gen {
    struct cap_writer *w;
    uint64_t ts;
    unsigned long frames, limit;
};

enum kind { REQ, ACK, NAK_SEQ, CNP };

/* One frame of connection k: a request at psn (ECN CE-marked when ce),
 * or a response / CNP from the responder.  0 when written. */
static int put(struct gen *g, const struct conn *k, enum kind kind,
               uint32_t psn, int ce)
{
    static uint8_t payload[1024], frame[2048];
    struct ibw_build_spec s;
    memset(&s, 0, sizeof s);
    s.transport = IBW_TK_ROCE_V2_IP4;
    uint8_t a[4] = {10, 1, 0, (uint8_t)(1 + k->q)}, b[4] = {10, 2, 0, 1};
    int from_req = kind == REQ;
    memcpy(from_req ? s.ip_src : s.ip_dst, a, 4);
    memcpy(from_req ? s.ip_dst : s.ip_src, b, 4);
    s.ttl = 64;
    s.udp_sport = (uint16_t)(0xC000 + k->q);
    s.bth.pkey = 0xFFFF;
    s.bth.psn = psn;
    switch (kind) {
    case REQ:
        s.tos = ce ? 3 : 2; /* ECT(0), or CE */
        s.bth.opcode = 0x04; /* RC SEND ONLY */
        s.bth.destqp = 0x200 + k->q;
        s.bth.ackreq = 1;
        s.payload = payload;
        s.payload_len = 64 + (uint32_t)((psn * 37u + k->q * 11u) % 961u);
        break;
    case ACK:
    case NAK_SEQ:
        s.bth.opcode = 0x11; /* RC ACKNOWLEDGE */
        s.bth.destqp = 0x100 + k->q;
        s.aeth.syndrome = kind == ACK ? 0x1F : 0x60;
        s.aeth.msn = k->msn;
        break;
    case CNP:
        s.bth.opcode = 0x81;
        s.bth.destqp = 0x100 + k->q;
        s.bth.becn = 1;
        s.bth.psn = 0;
        break;
    }
    size_t len;
    g->ts += 1000;
    g->frames++;
    return ibw_build(&s, frame, sizeof frame, &len) != IBW_OK ||
           cap_write(g->w, g->ts, frame, len, NULL);
}

/* The next message of connection k, and its acknowledgement. */
static int message(struct gen *g, struct conn *k)
{
    int bad = 0;
    uint32_t p = k->psn, next = (p + 1) & 0xFFFFFF;
    int ce = k->msgs % 300 == 150;
    if (k->msgs % 400 == 199) {
        /* p is lost: p+1 arrives, the responder NAKs p, both are resent */
        bad |= put(g, k, REQ, next, 0);
        bad |= put(g, k, NAK_SEQ, p, 0);
        bad |= put(g, k, REQ, p, 0);
        k->msgs++;
        bad |= put(g, k, REQ, next, 0);
        k->msn += 2;
        bad |= put(g, k, ACK, next, 0);
        k->psn = (next + 1) & 0xFFFFFF;
        k->msgs++;
        return bad;
    }
    bad |= put(g, k, REQ, p, ce);
    k->msn++;
    bad |= put(g, k, ACK, p, 0);
    if (ce)
        bad |= put(g, k, CNP, 0, 0);
    k->psn = next;
    k->msgs++;
    return bad;
}

static int write_capture(const char *path, unsigned long frames)
{
    char err[256];
    struct gen g = {NULL, 1700000000000000000ull, 0, frames};
    g.w = cap_writer_open(path, CAP_FORMAT_PCAP, CAP_LINKTYPE_ETHERNET, err,
                          sizeof err);
    if (!g.w) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    struct conn c[CONNS];
    for (unsigned q = 0; q < CONNS; q++)
        c[q] = (struct conn){q, (q * 0x10001u) & 0xFFFFFF, 0, 0};
    int bad = 0;
    for (unsigned long i = 0; !bad && g.frames < frames; i++)
        bad = message(&g, &c[i % CONNS]);
    return cap_writer_close(g.w) || bad ? -1 : 0;
}

/* Seconds `ibwire check [--report page] file` took, output discarded;
 * -1 when it failed. */
static double time_check(const char *ibwire, const char *file,
                         const char *page)
{
    double t0 = now();
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stdout))
            _exit(126);
        if (page)
            execl(ibwire, ibwire, "check", "--report", page, file, (char *)0);
        else
            execl(ibwire, ibwire, "check", file, (char *)0);
        _exit(127);
    }
    int st;
    if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) ||
        WEXITSTATUS(st) > 1)
        return -1;
    return now() - t0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: bench_report IBWIRE DIR [--frames N] [--runs "
                        "N] [--max-ratio R] [--max-mb M]\n");
        return 2;
    }
    unsigned long frames = 1000000;
    int runs = 3;
    double max_ratio = 0, max_mb = 0;
    for (int i = 3; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--frames"))
            frames = strtoul(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--runs"))
            runs = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--max-ratio"))
            max_ratio = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "--max-mb"))
            max_mb = atof(argv[i + 1]);
    }
    char file[4096], page[4096];
    snprintf(file, sizeof file, "%s/bench_report.pcap", argv[2]);
    snprintf(page, sizeof page, "%s/bench_report.html", argv[2]);
    if (write_capture(file, frames)) {
        fprintf(stderr, "bench_report: cannot write %s\n", file);
        return 1;
    }
    double best_check = 1e30, best_report = 1e30;
    for (int r = 0; r < runs; r++) {
        for (int side = 0; side < 2; side++) {
            int with = (side + r) % 2;
            double t = time_check(argv[1], file, with ? page : NULL);
            if (t < 0) {
                fprintf(stderr, "bench_report: ibwire check failed\n");
                return 1;
            }
            if (with && t < best_report)
                best_report = t;
            if (!with && t < best_check)
                best_check = t;
        }
    }
    struct stat sb;
    if (stat(page, &sb)) {
        fprintf(stderr, "bench_report: no page %s\n", page);
        return 1;
    }
    double mb = (double)sb.st_size / 1e6, ratio = best_report / best_check;
    printf("%lu frames: check %.3f s, check --report %.3f s, ratio %.2f; "
           "report %.2f MB\n", frames, best_check, best_report, ratio, mb);
    int bad = 0;
    if (max_ratio > 0 && ratio > max_ratio) {
        printf("FAIL: --report takes more than %.2f times check's time\n",
               max_ratio);
        bad = 1;
    }
    if (max_mb > 0 && mb > max_mb) {
        printf("FAIL: the report is larger than %.1f MB\n", max_mb);
        bad = 1;
    }
    return bad;
}
