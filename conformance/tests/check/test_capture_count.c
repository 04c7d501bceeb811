/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Frame numbers past 2^32: the readers (classic pcap through libpcap, and
 * the pcapng block reader) number frames with 64 bits, and the checker
 * keeps those numbers in its findings and flow summaries.  Writing 2^32
 * frames takes too long for a test, so the reader's count (capture_int.h)
 * starts just below 2^32; the capture is bad-flow-gbn.pcap, whose one
 * finding (FLOW-GBN) is on frame 7 of 8 (its .expect), so it must come on
 * frame START + 7 with the flow spanning START + 1 .. START + 8.
 *
 *   test_capture_count PCAPS_DIR WORK_DIR
 */
#include <stdlib.h>

#include "capture_int.h"
#include "check.h"
#include "testutil.h"

#define START (((uint64_t)1 << 32) - 3u)

static uint64_t found_frame, found_count;
static uint64_t flow_first, flow_last;

static void on_finding(void *user, const struct chk_finding *f)
{
    (void)user;
    if (!strcmp(chk_rule(f->rule)->id, "FLOW-GBN"))
        found_frame = f->frame;
    found_count++;
}

static void on_flow(void *user, const struct chk_flow_summary *s)
{
    (void)user;
    if (s->id == 1) {
        flow_first = s->first_frame;
        flow_last = s->last_frame;
    }
}

/* Read path with the count starting at START; check what comes out. */
static void run(const char *path)
{
    char err[512];
    struct cap_reader *r = cap_open(path, err, sizeof err);
    TU_CHECK(r != NULL);
    if (!r) {
        fprintf(stderr, "%s\n", err);
        return;
    }
    r->count = START;
    struct chk_opts o;
    memset(&o, 0, sizeof o);
    o.report = on_finding;
    struct chk *c = chk_new(&o);
    struct cap_frame fr;
    uint64_t want = START + 1;
    found_frame = found_count = flow_first = flow_last = 0;
    while (cap_next(r, &fr) == 1) {
        TU_EQ(fr.number, want);
        want++;
        chk_frame(c, &fr);
    }
    chk_finish(c);
    TU_EQ(want, START + 9);
    TU_EQ(chk_stats(c)->frames, 8);
    TU_EQ(found_count, 1);
    TU_EQ(found_frame, START + 7);
    chk_flows(c, on_flow, NULL);
    TU_EQ(flow_first, START + 1);
    TU_EQ(flow_last, START + 8);
    chk_free(c);
    cap_close(r);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: test_capture_count PCAPS_DIR WORK_DIR\n");
        return 2;
    }
    char src[4096], ng[4096], err[512];
    snprintf(src, sizeof src, "%s/bad-flow-gbn.pcap", argv[1]);
    snprintf(ng, sizeof ng, "%s/count-gbn.pcapng", argv[2]);
    run(src);
    /* the same frames as pcapng (the writer; the reader's own code path) */
    struct cap_reader *r = cap_open(src, err, sizeof err);
    struct cap_writer *w =
        r ? cap_writer_open(ng, CAP_FORMAT_PCAPNG, cap_linktype(r), err,
                            sizeof err)
          : NULL;
    TU_CHECK(w != NULL);
    struct cap_frame fr;
    while (w && cap_next(r, &fr) == 1)
        TU_CHECK(cap_write(w, (uint64_t)fr.ts_sec * 1000000000u + fr.ts_nsec,
                           fr.raw, fr.caplen, NULL) == 0);
    TU_CHECK(w && cap_writer_close(w) == 0);
    cap_close(r);
    run(ng);
    return tu_done("test_capture_count");
}
