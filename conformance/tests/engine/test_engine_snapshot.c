/* SPDX-License-Identifier: Apache-2.0 */
/*
 * World snapshots.  The reference is the engine itself run without one:
 * two engines over a lossy link move a mix of Sends, Writes and Reads; a
 * second world built the same way is snapshotted half-way (packets in
 * flight, timers armed, messages half segmented), run to the end, restored
 * and run to the end again.  Both continuations must give the uninterrupted
 * run's record trace, wire packets, completions, counters and memory.  A
 * restore into a world whose engines changed is refused.
 */
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "pair_world.h"
#include "run_digest.h"
#include "testutil.h"

#define MEM (1u << 20)
#define BUF 65536u
#define MSGS 40u

struct run {
    struct run_digest d;
    uint64_t cqe_hash, cqes;
};

static struct run_digest *recording; /* the hooks write here (pair_world.h) */
static void record_into(struct run *x)
{
    recording = &x->d;
}

static const struct pair_shape shape = {
    42, MEM, BUF, 64, 256, 64, 100, {0.08, 0.02, 0.03, 0.01, 0.02, 2000, 100}};

static void build(struct pair_world *s, struct run *x, const char *lat)
{
    record_into(x);
    pair_build(s, &shape, &recording);
    for (int i = 0; i < 2; i++) {
        if (lat)
            TU_EQ(ibe_engine_apply_latency(s->e[i], lat, NULL), 0);
        uint8_t *p = ibe_mem_ptr(s->e[i], s->buf[i], BUF);
        for (uint32_t k = 0; k < BUF; k++)
            p[k] = (uint8_t)(k * 7 + (uint32_t)i);
    }
    for (uint32_t m = 0; m < MSGS; m++) {
        struct ibe_recv_wr r = {m, 1, {{s->buf[1] + 32768, 32768, s->lkey[1]}}};
        ibe_post_recv(s->e[1], s->qpn[1], &r);
        static const uint8_t ops[] = {IBE_WR_SEND, IBE_WR_RDMA_WRITE,
                                      IBE_WR_RDMA_READ, IBE_WR_SEND_IMM};
        struct ibe_send_wr w;
        memset(&w, 0, sizeof w);
        w.wr_id = m;
        w.opcode = ops[m % 4];
        w.flags = IBE_SEND_SIGNALED;
        w.num_sge = 1;
        w.sg[0] = (struct ibe_sge){s->buf[0] + (m % 8) * 1024, 500 + m * 331 % 7000,
                                   s->lkey[0]};
        w.remote_addr = s->buf[1] + (m % 16) * 1024;
        w.rkey = s->rkey[1];
        w.imm = m;
        TU_EQ(ibe_post_send(s->e[0], s->qpn[0], &w), 0);
    }
}

static void finish(struct pair_world *s, struct run *x)
{
    record_into(x);
    ibe_world_run(s->w, 50000000);
    for (int i = 0; i < 2; i++) {
        struct ibe_wc wc[16];
        int n;
        while ((n = ibe_poll_cq(s->e[i], s->cq[i], wc, 16)) > 0)
            for (int k = 0; k < n; k++) {
                x->cqes++;
                x->cqe_hash = digest_bytes(x->cqe_hash, &wc[k].wr_id, sizeof wc[k].wr_id);
                x->cqe_hash = digest_bytes(x->cqe_hash, &wc[k].status, 1);
                x->cqe_hash = digest_bytes(x->cqe_hash, &wc[k].byte_len, 4);
            }
        const struct ibe_stats *st = ibe_engine_stats(s->e[i]);
        x->cqe_hash = digest_bytes(x->cqe_hash, st, sizeof *st);
        x->cqe_hash = digest_bytes(x->cqe_hash, ibe_mem_ptr(s->e[i], s->buf[i], BUF), BUF);
    }
    x->cqe_hash = digest_bytes(x->cqe_hash, ibe_link_stats(s->l), sizeof(struct ibe_link_stats));
    uint64_t now = ibe_now(s->w);
    x->cqe_hash = digest_bytes(x->cqe_hash, &now, sizeof now);
}

static void same_run(const struct run *a, const struct run *b, const char *what)
{
    printf("%s: %llu records, %llu packets, %llu completions\n", what,
           (unsigned long long)b->d.records, (unsigned long long)b->d.packets,
           (unsigned long long)b->cqes);
    TU_EQ(b->d.records, a->d.records);
    TU_EQ(b->d.packets, a->d.packets);
    TU_EQ(b->cqes, a->cqes);
    TU_EQ(b->d.trace, a->d.trace);
    TU_EQ(b->d.wire, a->d.wire);
    TU_EQ(b->cqe_hash, a->cqe_hash);
}

/* lat: module latencies (NULL: none); with them, messages wait in the
 * event queue for their modules when the snapshot is taken. */
static void check_snapshots(const char *lat)
{
    printf("latencies: %s\n", lat ? lat : "none");
    /* the uninterrupted run */
    struct run ref = {0};
    struct pair_world s;
    build(&s, &ref, lat);
    finish(&s, &ref);
    pair_destroy(&s);
    TU_EQ(ref.cqes, MSGS + MSGS / 2); /* every send WQE, and a receive per Send */

    /* half-way: the trace and taps so far are kept, the rest compared */
    struct run cont = {0};
    build(&s, &cont, lat);
    ibe_world_run(s.w, 400);
    TU_CHECK(ibe_now(s.w) > 0);
    struct ibe_snapshot *snap = ibe_world_snapshot(s.w);
    TU_CHECK(snap != NULL);
    struct run head = cont;
    finish(&s, &cont);
    same_run(&ref, &cont, "after the snapshot");

    /* back to the snapshot, with some damage done first */
    memset(ibe_mem_ptr(s.e[1], s.buf[1], BUF), 0xEE, BUF);
    struct ibe_qp_attr a = {IBE_RC, 1, s.cq[1], s.cq[1], 16, 16, 0, 0xFFFF};
    TU_CHECK(ibe_qp_create(s.e[1], &a) != 0);
    struct run again = head;
    ibe_engine_set_trace(s.e[0], NULL, NULL);
    TU_EQ(ibe_world_restore(s.w, snap), 0);
    finish(&s, &again);
    same_run(&ref, &again, "after the restore");
    struct run twice = head;
    TU_EQ(ibe_world_restore(s.w, snap), 0);
    finish(&s, &twice);
    same_run(&ref, &twice, "after a second restore");

    /* an engine the snapshot does not know: refused */
    struct ibe_config c = {MEM, IBE_FRAME_ROCEV2, 0, 0x0A000009u, {2, 0, 0, 0, 0, 9}};
    struct ibe_engine *extra = ibe_engine_create(s.w, &c);
    TU_EQ(ibe_world_restore(s.w, snap), -1);
    ibe_engine_destroy(extra);
    TU_EQ(ibe_world_restore(s.w, snap), 0);
    ibe_snapshot_free(snap);
    pair_destroy(&s);
}

int main(void)
{
    check_snapshots(NULL);
    check_snapshots("documents,ReqPktGen=300,ExecutionEngine=200,DMAEngine=50");
    return tu_done("engine_snapshot");
}
