/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The checker's reorder stage (check_order.c) at its bounds, with frames
 * that carry no IBA packet (what is counted is the frames judged, and the
 * one CAP-TS-ORDER finding):
 *   - frames within the window wait: none is judged before the window
 *     passes, chk_release() judges them when time passes without frames,
 *     and chk_release_idle() when the caller's clock is not the frames';
 *   - more frames than CHK_REORDER_FRAMES (65536) within the window: the
 *     oldest are judged anyway, so what is held stays bounded; a late frame
 *     older than one judged that way is judged where it is, and the note
 *     says so;
 *   - the note names the first late frame, the largest step back (and its
 *     frame) and the count, computed here from the timestamps fed.
 */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "testutil.h"

static unsigned notes;
static uint64_t note_frame;
static char note[512];

static void on_finding(void *user, const struct chk_finding *f)
{
    (void)user;
    if (!strcmp(chk_rule(f->rule)->id, "CAP-TS-ORDER")) {
        notes++;
        note_frame = f->frame;
        snprintf(note, sizeof note, "%s", f->message);
    }
}

static void feed(struct chk *c, uint64_t number, uint64_t ts_ns)
{
    struct cap_frame fr;
    memset(&fr, 0, sizeof fr);
    fr.number = number;
    fr.ts_sec = (int64_t)(ts_ns / 1000000000u);
    fr.ts_nsec = (uint32_t)(ts_ns % 1000000000u);
    fr.caplen = fr.origlen = fr.wire_len = 60;
    fr.linktype = 1;
    fr.not_iba = "test frame";
    chk_frame(c, &fr);
}

static struct chk *fresh(void)
{
    struct chk_opts o;
    memset(&o, 0, sizeof o);
    o.report = on_finding;
    notes = 0;
    note_frame = 0;
    note[0] = 0;
    return chk_new(&o);
}

#define T0 1700000000000000000ull /* a capture's epoch time, ns */
#define MS 1000000ull

/* Within the window: held, then judged in time order; the late one draws
 * the note only. */
static void window(void)
{
    struct chk *c = fresh();
    feed(c, 1, T0);
    feed(c, 2, T0 + 5 * MS);
    feed(c, 3, T0 + 2 * MS);        /* 3 ms back */
    feed(c, 4, T0 + 100 * MS);
    TU_EQ(chk_stats(c)->frames, 0); /* all within 250 ms of the newest */
    chk_release(c, T0 + 300 * MS);  /* 300 - 250: frames before 50 ms go */
    TU_EQ(chk_stats(c)->frames, 3);
    chk_finish(c);
    TU_EQ(chk_stats(c)->frames, 4);
    TU_EQ(notes, 1);
    TU_EQ(note_frame, 3);
    TU_CHECK(strstr(note, "1 frame recorded after a frame with a later "
                          "timestamp (the largest step back 3.000 ms, "
                          "frame 3)") != NULL);
    TU_CHECK(strstr(note, "judged in timestamp order") != NULL);
    TU_CHECK(strstr(note, "window late") == NULL);
    chk_free(c);
}

/* More frames than the stage holds, all within the window. */
static void bounded(void)
{
    struct chk *c = fresh();
    const uint64_t n = 70000;
    for (uint64_t i = 1; i <= n; i++)
        feed(c, i, T0 + i * 1000u); /* 1 us apart: 70 ms in all */
    /* the oldest were judged to keep 65536 held */
    TU_EQ(chk_stats(c)->frames, n - 65536);
    /* 0.5 us after frame 2, long since judged: judged where it is */
    feed(c, n + 1, T0 + 2500u);
    TU_EQ(chk_stats(c)->frames, n - 65536 + 1);
    chk_finish(c);
    TU_EQ(chk_stats(c)->frames, n + 1);
    TU_EQ(notes, 1);
    TU_EQ(note_frame, n + 1);
    char want[160];
    snprintf(want, sizeof want, "(the largest step back %llu.%03llu ms, "
             "frame %llu)", (unsigned long long)((n * 1000u - 2500u) / 1000000u),
             (unsigned long long)((n * 1000u - 2500u) / 1000u % 1000u),
             (unsigned long long)(n + 1));
    TU_CHECK(strstr(note, want) != NULL);
    TU_CHECK(strstr(note, "but 1 came more than the reorder window late") !=
             NULL);
    chk_free(c);
}

/* A capture point that stamps with the time since boot (Linux 6.12's veth
 * on the frames it receives): a live caller's idle time moves the window
 * on from the newest frame, whatever clock the frames carry.  Real time
 * (chk_release()) would be decades past them and judge all at once. */
static void idle(void)
{
    const uint64_t boot = 43000 * MS;
    struct chk *c = fresh();
    feed(c, 1, boot);
    feed(c, 2, boot + 5 * MS);
    feed(c, 3, boot + 2 * MS);        /* 3 ms back */
    feed(c, 4, boot + 100 * MS);
    chk_release_idle(c, 100 * MS);    /* 200 - 250: none before -50 ms */
    TU_EQ(chk_stats(c)->frames, 0);
    chk_release_idle(c, 200 * MS);    /* 300 - 250: frames before 50 ms go */
    TU_EQ(chk_stats(c)->frames, 3);
    feed(c, 5, boot + 101 * MS);      /* and the window follows the newest */
    chk_release_idle(c, 0);
    TU_EQ(chk_stats(c)->frames, 3);
    chk_finish(c);
    TU_EQ(chk_stats(c)->frames, 5);
    TU_EQ(notes, 1);
    TU_EQ(note_frame, 3);
    TU_CHECK(strstr(note, "window late") == NULL);
    chk_free(c);
}

int main(void)
{
    window();
    bounded();
    idle();
    return tu_done("test_check_order");
}
