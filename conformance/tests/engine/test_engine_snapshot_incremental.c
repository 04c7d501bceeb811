/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Incremental world snapshots.  The reference is the engine run without
 * them: a script of phases (the host fills source buffers through
 * ibe_mem_ptr, posts RDMA WRITEs, atomics, Sends, Reads and receives,
 * polls some completions, then the world runs a while over a lossy link)
 * played from the start and stopped at phase k gives the state every
 * snapshot taken at phase k must come back to.  A second world takes an
 * incremental snapshot at the start of every phase, runs to the end with
 * some damage done, is restored to a middle snapshot (memory compared
 * with the run stopped there, then the rest of the script played and its
 * trace, packets, completions and memory compared with the uninterrupted
 * run's), takes new snapshots while it replays, loses a middle snapshot
 * (freed: its saved pages pass to the one before) and is restored to the
 * oldest, compared the same way.  Snapshots newer than a restored one are
 * refused; a full restore makes the chain stale.
 */
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "pair_world.h"
#include "run_digest.h"
#include "testutil.h"

#define MEM (1u << 20)
#define BUF 65536u
#define PHASES 8u
#define STEP 250u /* events each phase runs */

/* a run: what it shows (trace, packets), its completions */
struct run {
    struct run_digest d;
    uint64_t cqe_hash, cqes;
};

static struct run_digest *recording; /* the hooks' context points here */

static void record_into(struct run *x)
{
    recording = &x->d;
}

static const struct pair_shape shape = {
    7, MEM, BUF, 4096, 64, 32, 500, {0.06, 0.02, 0.03, 0.01, 0.0, 1500, 100}};

static void poll(struct pair_world *s, int max, struct run *x)
{
    for (int i = 0; i < 2; i++) {
        struct ibe_wc wc[8];
        int n = ibe_poll_cq(s->e[i], s->cq[i], wc, max < 8 ? max : 8);
        for (int k = 0; k < n; k++) {
            x->cqes++;
            x->cqe_hash = digest_bytes(x->cqe_hash, &wc[k].wr_id, sizeof wc[k].wr_id);
            x->cqe_hash = digest_bytes(x->cqe_hash, &wc[k].status, 1);
            x->cqe_hash = digest_bytes(x->cqe_hash, &wc[k].byte_len, 4);
        }
    }
}

/* Phase p of the script: host writes, posts, a partial poll, time. */
static void phase(struct pair_world *s, uint32_t p, struct run *x)
{
    record_into(x);
    uint8_t *src = ibe_mem_ptr(s->e[0], s->buf[0] + (p % 4) * 8192, 8192);
    for (uint32_t k = 0; k < 8192; k++)
        src[k] = (uint8_t)(k * 13 + p * 29);
    struct ibe_recv_wr r = {p, 1, {{s->buf[1] + 49152, 16384, s->lkey[1]}}};
    TU_EQ(ibe_post_recv(s->e[1], s->qpn[1], &r), 0);
    static const uint8_t ops[] = {IBE_WR_RDMA_WRITE, IBE_WR_ATOMIC_FA,
                                  IBE_WR_SEND, IBE_WR_RDMA_READ,
                                  IBE_WR_ATOMIC_CS, IBE_WR_RDMA_WRITE_IMM};
    for (uint32_t k = 0; k < 3; k++) {
        uint32_t m = p * 3 + k;
        struct ibe_send_wr w;
        memset(&w, 0, sizeof w);
        w.wr_id = 1000 + m;
        w.opcode = ops[m % 6];
        w.flags = IBE_SEND_SIGNALED;
        w.num_sge = 1;
        int atomic = w.opcode == IBE_WR_ATOMIC_FA || w.opcode == IBE_WR_ATOMIC_CS;
        uint32_t len = atomic ? 8 : 300 + m * 977 % 6000;
        w.sg[0] = (struct ibe_sge){s->buf[0] + (m % 4) * 8192 + (atomic ? 64 * (m % 8) : 0),
                                   len, s->lkey[0]};
        w.remote_addr = s->buf[1] + (atomic ? 40960 + 8 * (m % 4) : (m % 5) * 8192);
        w.rkey = s->rkey[1];
        w.compare_add = m * 3;
        w.swap = 0x1111111111111111ull * (m % 15);
        w.imm = m;
        if (w.opcode == IBE_WR_RDMA_WRITE_IMM) { /* takes a receive */
            struct ibe_recv_wr r2 = {500 + m, 1, {{s->buf[1] + 49152, 16384, s->lkey[1]}}};
            TU_EQ(ibe_post_recv(s->e[1], s->qpn[1], &r2), 0);
        }
        TU_EQ(ibe_post_send(s->e[0], s->qpn[0], &w), 0);
    }
    poll(s, 2, x);
    ibe_world_run(s->w, STEP);
}

static void finish(struct pair_world *s, struct run *x)
{
    record_into(x);
    ibe_world_run(s->w, 50000000);
    for (int k = 0; k < 64; k++)
        poll(s, 8, x);
    for (int i = 0; i < 2; i++) {
        const struct ibe_stats *st = ibe_engine_stats(s->e[i]);
        x->cqe_hash = digest_bytes(x->cqe_hash, st, sizeof *st);
    }
    x->cqe_hash = digest_bytes(x->cqe_hash, ibe_link_stats(s->l), sizeof(struct ibe_link_stats));
    uint64_t now = ibe_now(s->w);
    x->cqe_hash = digest_bytes(x->cqe_hash, &now, sizeof now);
}

/* Both engines' whole host memory. */
static uint64_t memory(struct pair_world *s)
{
    uint64_t h = 0;
    for (int i = 0; i < 2; i++)
        h = digest_bytes(h, ibe_mem_ptr(s->e[i], 0, MEM), MEM);
    return h;
}

/* What the uninterrupted script shows from phase `from` on: memory at
 * that point, then trace, packets, completions and memory at the end. */
struct expect {
    uint64_t mem_at, mem_end;
    struct run rest;
};

static struct expect reference(uint32_t from)
{
    struct expect x;
    memset(&x, 0, sizeof x);
    struct run before = {0};
    struct pair_world s;
    record_into(&before);
    pair_build(&s, &shape, &recording);
    for (uint32_t p = 0; p < from; p++)
        phase(&s, p, &before);
    x.mem_at = memory(&s);
    for (uint32_t p = from; p < PHASES; p++)
        phase(&s, p, &x.rest);
    finish(&s, &x.rest);
    x.mem_end = memory(&s);
    pair_destroy(&s);
    return x;
}

static void same_rest(const struct expect *want, struct pair_world *s, uint32_t from,
                      const char *what)
{
    TU_EQ(memory(s), want->mem_at);
    struct run got = {0};
    for (uint32_t p = from; p < PHASES; p++)
        phase(s, p, &got);
    finish(s, &got);
    printf("%s: %llu records, %llu packets, %llu completions\n", what,
           (unsigned long long)got.d.records, (unsigned long long)got.d.packets,
           (unsigned long long)got.cqes);
    TU_CHECK(want->rest.d.packets > 0);
    TU_EQ(got.d.records, want->rest.d.records);
    TU_EQ(got.d.packets, want->rest.d.packets);
    TU_EQ(got.cqes, want->rest.cqes);
    TU_EQ(got.d.trace, want->rest.d.trace);
    TU_EQ(got.d.wire, want->rest.d.wire);
    TU_EQ(got.cqe_hash, want->rest.cqe_hash);
    TU_EQ(memory(s), want->mem_end);
}

int main(void)
{
    const uint32_t mid = PHASES / 2;
    struct expect at_mid = reference(mid), at_start = reference(0);
    TU_CHECK(at_mid.mem_at != at_start.mem_at);

    struct pair_world s;
    struct run first = {0};
    record_into(&first);
    pair_build(&s, &shape, &recording);
    struct ibe_snapshot *snap[PHASES];
    for (uint32_t p = 0; p < PHASES; p++) {
        snap[p] = ibe_world_snapshot_incremental(s.w);
        TU_CHECK(snap[p] != NULL);
        phase(&s, p, &first);
    }
    finish(&s, &first);
    /* damage: memory, a QP, more posts */
    memset(ibe_mem_ptr(s.e[1], s.buf[1], BUF), 0xEE, BUF);
    memset(ibe_mem_ptr(s.e[0], 0, MEM), 0x5A, MEM);
    struct ibe_qp_attr a = {IBE_RC, 1, s.cq[1], s.cq[1], 16, 16, 0, 0xFFFF};
    TU_CHECK(ibe_qp_create(s.e[1], &a) != 0);

    /* to the middle: newer snapshots are refused from then on */
    TU_EQ(ibe_world_restore(s.w, snap[mid]), 0);
    for (uint32_t p = mid + 1; p < PHASES; p++) {
        TU_EQ(ibe_world_restore(s.w, snap[p]), -1);
        ibe_snapshot_free(snap[p]);
    }
    /* replayed with fresh snapshots after the restored one */
    struct ibe_snapshot *again[PHASES] = {0};
    TU_EQ(memory(&s), at_mid.mem_at);
    struct run got = {0};
    for (uint32_t p = mid; p < PHASES; p++) {
        if (p > mid)
            again[p] = ibe_world_snapshot_incremental(s.w);
        phase(&s, p, &got);
    }
    finish(&s, &got);
    TU_EQ(got.d.trace, at_mid.rest.d.trace);
    TU_EQ(got.d.wire, at_mid.rest.d.wire);
    TU_EQ(got.cqe_hash, at_mid.rest.cqe_hash);
    TU_EQ(memory(&s), at_mid.mem_end);
    printf("restored to phase %u: %llu records, %llu packets\n", mid,
           (unsigned long long)got.d.records, (unsigned long long)got.d.packets);

    /* back to one of the new ones, then to the oldest past a freed one */
    TU_EQ(ibe_world_restore(s.w, again[mid + 2]), 0);
    ibe_snapshot_free(snap[1]);
    ibe_snapshot_free(again[PHASES - 1]); /* stale by now */
    again[PHASES - 1] = NULL;
    TU_EQ(ibe_world_restore(s.w, snap[0]), 0);
    TU_EQ(ibe_world_restore(s.w, snap[mid]), -1);
    TU_EQ(ibe_world_restore(s.w, again[mid + 1]), -1);
    same_rest(&at_start, &s, 0, "restored to the oldest");

    /* the oldest again, then a middle one re-taken, after freeing the
     * newest (its pages pass to the one before) */
    TU_EQ(ibe_world_restore(s.w, snap[0]), 0);
    struct ibe_snapshot *chain[PHASES] = {0};
    struct run skip = {0};
    for (uint32_t p = 0; p < mid; p++) {
        if (p)
            chain[p] = ibe_world_snapshot_incremental(s.w);
        phase(&s, p, &skip);
    }
    struct ibe_snapshot *last = ibe_world_snapshot_incremental(s.w);
    phase(&s, mid, &skip);
    ibe_snapshot_free(last); /* the newest: back to chain[mid - 1] */
    ibe_snapshot_free(snap[0]); /* the oldest: evicted */
    TU_EQ(ibe_world_restore(s.w, chain[mid - 1]), 0);
    phase(&s, mid - 1, &skip);
    same_rest(&at_mid, &s, mid, "restored after freeing the newest and the oldest");

    /* a full restore makes the chain stale */
    struct ibe_snapshot *full = ibe_world_snapshot(s.w);
    TU_EQ(ibe_world_restore(s.w, full), 0);
    TU_EQ(ibe_world_restore(s.w, chain[1]), -1);
    ibe_snapshot_free(full);
    for (uint32_t p = 0; p < PHASES; p++) {
        ibe_snapshot_free(again[p]);
        ibe_snapshot_free(chain[p]);
        if (p >= 2 && p <= mid)
            ibe_snapshot_free(snap[p]);
    }
    pair_destroy(&s);
    return tu_done("engine_snapshot_incremental");
}
