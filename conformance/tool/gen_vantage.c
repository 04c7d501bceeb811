/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gen_vantage.c - `ibwire gen` scenarios of correct RDMA traffic seen from
 * imperfect capture points (../shared/reference/capture-points.md): frames
 * cut by the snap length, one direction recorded late, requests the capture
 * lost, packets lost after the capture point, QPs paired without CM, RoCEv1
 * one way and RoCEv2 the other.  The devices are the reference engines
 * (gen_engine.h) and behave correctly throughout, so every error the checker
 * reports on these captures is a false one; the warnings expected are the
 * vantage-point notes that say what the capture point did.
 *
 * The engines' frames go to a tap (vcap) that keeps them with their
 * direction; the scenario then distorts them (drops, delays, cuts) and
 * writes them sorted by time.
 *
 * The expected verdicts are written by hand from what each scenario does to
 * the capture, following the checker's rule design (vantage-point notes
 * once per flow or capture, at the end of the capture, after every
 * per-frame finding; the note's frame is the first frame it is about).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "gen_engine.h"

struct vframe {
    uint64_t ts;
    uint64_t seq;     /* order of recording, to sort stably */
    int to_b;         /* a request from A */
    size_t len;
    uint8_t *bytes;
};

struct vcap {
    struct vframe *f;
    size_t n, cap;
    uint64_t nreq, nresp;         /* requests, responses recorded so far */
    /* the capture loses lose_n requests from the lose_req-th (1-based) and
     * lose_n responses from the lose_resp-th: a burst both ways */
    uint64_t lose_req, lose_resp, lose_n;
    int mixed;                    /* A's frames as RoCEv1 */
};

/* A RoCEv2/IPv4 frame rebuilt as RoCEv1 from the same endpoint: GRH with
 * the IPv4-mapped GIDs ::ffff:a.b.c.d of its IPv4 addresses, same MACs,
 * same BTH onwards.  0 on success. */
static int as_rocev1(const uint8_t *pkt, size_t len, uint8_t *out, size_t cap,
                     size_t *n)
{
    struct ibw_pkt p;
    struct ibw_build_spec s;
    if (ibw_parse(pkt, len, IBW_LINK_ETHERNET, &p) != IBW_OK ||
        ibw_build_spec_from_pkt(&p, &s) != IBW_OK ||
        s.transport != IBW_TK_ROCE_V2_IP4)
        return -1;
    s.transport = IBW_TK_ROCE_V1;
    memset(&s.grh, 0, sizeof s.grh);
    s.grh.ipver = 6;
    s.grh.nxthdr = IBW_GRH_NXTHDR_IBA;
    s.grh.hoplmt = 64;
    s.grh.sgid[10] = s.grh.sgid[11] = 0xFF;
    s.grh.dgid[10] = s.grh.dgid[11] = 0xFF;
    memcpy(s.grh.sgid + 12, s.ip_src, 4);
    memcpy(s.grh.dgid + 12, s.ip_dst, 4);
    return ibw_build(&s, out, cap, n) == IBW_OK ? 0 : -1;
}

static void vtap(struct ge *g, uint64_t ts, int to_b, const uint8_t *frame,
                 size_t len)
{
    struct vcap *c = g->tap_ctx;
    uint64_t k = to_b ? ++c->nreq : ++c->nresp;
    uint64_t first = to_b ? c->lose_req : c->lose_resp;
    if (first && k >= first && k < first + c->lose_n)
        return; /* the capture point missed it; it reached its receiver */
    uint8_t v1[4096 + 256];
    if (c->mixed && to_b) {
        size_t n = 0;
        if (as_rocev1(frame, len, v1, sizeof v1, &n)) {
            g->o->err = 1;
            return;
        }
        frame = v1;
        len = n;
    }
    if (c->n == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 256;
        c->f = realloc(c->f, c->cap * sizeof *c->f);
        if (!c->f)
            abort();
    }
    struct vframe *f = &c->f[c->n];
    f->ts = ts;
    f->seq = c->n++;
    f->to_b = to_b;
    f->len = len;
    f->bytes = malloc(len);
    if (!f->bytes)
        abort();
    memcpy(f->bytes, frame, len);
}

static int by_time(const void *x, const void *y)
{
    const struct vframe *a = x, *b = y;
    if (a->ts != b->ts)
        return a->ts < b->ts ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Write what the tap kept: A's frames late_ns later (a host-side capture
 * on A records its transmissions late), sorted by time, each cut to snap
 * bytes (0: not cut); recorded says whether the record keeps the original
 * length or claims the cut one. */
static void vflush(struct ge *g, struct vcap *c, uint64_t late_ns,
                   size_t snap, int recorded)
{
    for (size_t i = 0; i < c->n; i++)
        if (c->f[i].to_b)
            c->f[i].ts += late_ns;
    qsort(c->f, c->n, sizeof *c->f, by_time);
    for (size_t i = 0; i < c->n; i++) {
        struct vframe *f = &c->f[i];
        size_t keep = snap && f->len > snap ? snap : f->len;
        if (cap_write_cut(g->o->w, f->ts, f->bytes, keep,
                          recorded ? f->len : keep, NULL))
            g->o->err = 1;
        free(f->bytes);
    }
    free(c->f);
    memset(c, 0, sizeof *c);
}

static void vsetup(struct ge *g, struct vcap *c, struct gen_out *o)
{
    ge_setup(g, o, IBE_RC, IBE_FRAME_ROCEV2, 16);
    memset(c, 0, sizeof *c);
    g->tap = vtap;
    g->tap_ctx = c;
}

/* engine-rc-ops traffic as one vantage point sees it: at_requester and
 * mixed as in struct ge and struct vcap, late_ns, snap and recorded as
 * vflush takes them. */
static void rc_ops_seen(struct gen_out *o, int at_requester, int mixed,
                        uint64_t late_ns, size_t snap, int recorded)
{
    struct ge g;
    struct vcap c;
    vsetup(&g, &c, o);
    g.at_requester = at_requester;
    c.mixed = mixed;
    ge_rc_ops(&g);
    ge_done(&g);
    vflush(&g, &c, late_ns, snap, recorded);
}

/* Header-only capture: every frame cut to 128 bytes, caplen < len. */
static void cut128(struct gen_out *o)
{
    rc_ops_seen(o, 0, 0, 0, 128, 1);
}

/* Cut to 243 bytes and the cut length written as the original length. */
static void cut243_unrecorded(struct gen_out *o)
{
    rc_ops_seen(o, 0, 0, 0, 243, 0);
}

/* Host-side capture on the requester: what A sends is recorded 30 us late,
 * what it receives on time, so ACKs come before their requests. */
static void skew30(struct gen_out *o)
{
    rc_ops_seen(o, 1, 0, 30000, 0, 0);
}

/* The capture loses a burst: four MIDDLE packets of an 8-packet WRITE
 * (requests 3..6) and B's ACKs of them (responses 3..6; the engine ACKs
 * every packet).  B received them: its next ACK, in the file, names a PSN
 * past them. */
static void capture_loss(struct gen_out *o)
{
    struct ge g;
    struct vcap c;
    vsetup(&g, &c, o);
    c.lose_req = 3;
    c.lose_resp = 3;
    c.lose_n = 4;
    ge_op(&g, IBE_WR_SEND, 200, 0);
    ge_settle(&g);
    ge_op(&g, IBE_WR_RDMA_WRITE, 8192, 256);
    ge_settle(&g);
    ge_op(&g, IBE_WR_SEND, 100, 64);
    ge_settle(&g);
    ge_done(&g);
    vflush(&g, &c, 0, 0, 0);
}

/* Three more RC QP pairs between the same two hosts, connected out of band
 * (no CM in the capture), each from its own random first PSNs; each round
 * posts one operation on every pair before running the world, so their
 * packets interleave.  (ge_setup's own pair stays idle.) */
static void no_cm(struct gen_out *o)
{
    struct ge g;
    struct vcap c;
    vsetup(&g, &c, o);
    enum { NPAIRS = 3 };
    uint32_t qa[NPAIRS], qb[NPAIRS];
    uint32_t x = 0x2545F491u; /* xorshift32: fixed, so the PSNs are too */
    for (int i = 0; i < NPAIRS; i++) {
        uint32_t psn[2];
        for (int k = 0; k < 2; k++) {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            psn[k] = x & 0xFFFFFFu;
        }
        ge_qp_pair(&g, IBE_RC, psn[0], psn[1], &qa[i], &qb[i]);
        g.qb = qb[i];
        for (int r = 0; r < 4; r++)
            ge_post_recv(&g);
    }
    static const struct { uint8_t op; uint32_t len; } rounds[] = {
        {IBE_WR_SEND, 2000}, {IBE_WR_RDMA_WRITE, 3000},
        {IBE_WR_RDMA_READ, 2500}, {IBE_WR_SEND_IMM, 64},
        {IBE_WR_ATOMIC_FA, 8}};
    for (unsigned r = 0; r < sizeof rounds / sizeof rounds[0]; r++) {
        for (int i = 0; i < NPAIRS; i++) {
            g.qa = qa[i];
            g.qb = qb[i];
            ge_op(&g, rounds[r].op, rounds[r].len,
                  rounds[r].op == IBE_WR_ATOMIC_FA ? (uint32_t)i * 8
                                                   : (uint32_t)i * 16384 + r * 64);
        }
        ge_settle(&g);
    }
    ge_done(&g);
    vflush(&g, &c, 0, 0, 0);
}

/* A sends RoCEv1 (GIDs ::ffff:10.0.0.1 -> ::ffff:10.0.0.0), B answers
 * RoCEv2 over IPv4 between the same addresses: one connection. */
static void mixed_roce(struct gen_out *o)
{
    rc_ops_seen(o, 0, 1, 0, 0, 0);
}

/* Captured at A's port; responses lost after it, on their way into A
 * (numbers count requests and responses as A sends and B answers them):
 *  - response 2, the ACK of the second of two SENDs: A's timer resends that
 *    SEND, whose ACK is in the file (B answers the duplicate);
 *  - response 5, the MIDDLE of a 3-packet READ response: A asks again from
 *    its PSN for the rest (responses 7, 8);
 *  - request 7, a 3-packet WRITE's MIDDLE, lost on the link after the
 *    capture point; B ACKs the FIRST (response 9) and NAKs the LAST with
 *    the MIDDLE's PSN (response 10); both lost: A's timer resends the whole
 *    WRITE from its FIRST, earlier than the PSN the NAK in the file names. */
static void post_loss(struct gen_out *o)
{
    struct ge g;
    struct vcap c;
    vsetup(&g, &c, o);
    g.at_requester = 1;
    g.drop_resp[0] = 2;
    g.drop_resp[1] = 5;
    g.drop_req[0] = 7;
    g.drop_resp[2] = 9;
    g.drop_resp[3] = 10;
    ge_op(&g, IBE_WR_SEND, 200, 0);
    ge_op(&g, IBE_WR_SEND, 300, 64);
    ge_settle(&g);
    ge_op(&g, IBE_WR_RDMA_READ, 3000, 128);
    ge_settle(&g);
    ge_op(&g, IBE_WR_RDMA_WRITE, 3000, 4096);
    ge_settle(&g);
    ge_op(&g, IBE_WR_SEND, 64, 192);
    ge_settle(&g);
    ge_done(&g);
    vflush(&g, &c, 0, 0, 0);
}

/* Captured at A's port: a READ and the WRITE after it lost after the
 * capture point, then both again when A's timer resends them; a SEND
 * posted 2 ms later reaches B, which NAKs the READ's PSN (sequence error).
 * Both copies of the READ were recorded well before the NAK: the responder
 * had neither (rxe read_bw under netem loss showed this, the second copy
 * 2.8 ms before the NAK). */
static void post_loss_twice(struct gen_out *o)
{
    struct ge g;
    struct vcap c;
    vsetup(&g, &c, o);
    g.at_requester = 1;
    g.ack_timeout = 12; /* 16.8 ms, for the SEND to come 2 ms after the resend */
    ge_qp_pair(&g, IBE_RC, 0x00F000, 0x00A000, &g.qa, &g.qb);
    for (int i = 0; i < 16; i++)
        ge_post_recv(&g);
    g.drop_resp[0] = 1; /* the first READ's response */
    g.drop_req[0] = 2;  /* the second READ, the WRITE: lost twice */
    g.drop_req[1] = 3;
    g.drop_req[2] = 5;
    g.drop_req[3] = 6;
    ge_op(&g, IBE_WR_RDMA_READ, 1000, 0);
    ge_op(&g, IBE_WR_RDMA_READ, 1000, 4096);
    ge_op(&g, IBE_WR_RDMA_WRITE, 200, 1024);
    /* past the local ACK timeout: the resends go (and are lost) */
    ibe_world_run_until(g.w, ibe_now(g.w) + 19000000u);
    ge_op(&g, IBE_WR_SEND, 64, 2048);
    ge_settle(&g);
    ge_done(&g);
    vflush(&g, &c, 0, 0, 0);
}

static const struct gen_scenario vantage_list[] = {
    {"vantage-cut", "engine-rc-ops traffic, every frame cut to 128 bytes "
     "(caplen < len recorded)", CAP_LINKTYPE_ETHERNET, cut128,
     "# a header-only capture: 20 of the 51 frames cut at 128 bytes (caplen <\n"
     "# len), the capture's doing, said once at the end, at the first cut\n"
     "# frame; PSN, opcode, AETH, RETH all fit, so the flow is judged whole\n"
     "finding 1 CAP-TRUNCATED\nexit 0\n"},
    {"vantage-cut-unrecorded", "the same cut to 243 bytes, the original "
     "length also written as 243 (IP Total Length says more)",
     CAP_LINKTYPE_ETHERNET, cut243_unrecorded,
     "# 19 of the 51 frames cut at 243 bytes with caplen = len: only the IP\n"
     "# Total Length tells; still the capture's doing (not PKT-MALFORMED),\n"
     "# said once at the end, at the first cut frame\n"
     "finding 1 CAP-TRUNCATED\nexit 0\n"},
    {"vantage-skew", "host-side capture at the requester: its transmissions "
     "recorded 30 us late, so ACKs precede their requests",
     CAP_LINKTYPE_ETHERNET, skew30,
     "# the requester's frames recorded 30 us late: frame 1 is the ACK of the\n"
     "# SEND in frame 2; one skew note for the one flow (~26 us: 30 less the\n"
     "# 4 us round trip), at the end, at the flow's first frame\n"
     "finding 1 CAP-SKEW\nexit 0\n"},
    {"vantage-capture-loss", "four WRITE MIDDLE packets missing from the "
     "capture, acknowledged by the responder's ACK of the WRITE LAST",
     CAP_LINKTYPE_ETHERNET, capture_loss,
     "# PSNs 0x00f002..0x00f005 missing from the file, frame 6 ACKs 0x00f006\n"
     "# past them, no NAK, no resend: capture loss, not a gap; one note for\n"
     "# the flow at the end, at frame 5, where the hole shows\n"
     "finding 5 CAP-LOSS\nexit 0\n"},
    {"vantage-no-cm", "three RC QP pairs between the same two hosts, no CM, "
     "random first PSNs, interleaved", CAP_LINKTYPE_ETHERNET, no_cm,
     "# correct traffic; each response answers PSNs of exactly one pair's\n"
     "# requests, so pairing by PSN is unambiguous: nothing to say\n"
     "exit 0\n"},
    {"vantage-mixed-roce", "one RC connection: the requester sends RoCEv1 "
     "with IPv4-mapped GIDs, the responder RoCEv2 over IPv4",
     CAP_LINKTYPE_ETHERNET, mixed_roce,
     "# ::ffff:10.0.0.1 is 10.0.0.1: one connection, correct traffic\n"
     "exit 0\n"},
    {"vantage-post-loss", "captured at the requester's port: an ACK, a READ "
     "response and a NAK lost after it; timer resend, READ re-issued, "
     "Go-Back-N from an earlier PSN", CAP_LINKTYPE_ETHERNET, post_loss,
     "# frame 5 resends an ACKed SEND (the ACK in frame 4 never reached A),\n"
     "# frame 11 re-issues the READ from the MIDDLE in frame 9 (lost after\n"
     "# the capture), frame 19 resends from 0x00f005 though frame 18 NAKs\n"
     "# 0x00f006 (neither reached A): each right for what A received\n"
     "exit 0\n"},
    {"vantage-post-loss-twice", "captured at the requester's port: a READ "
     "lost after it twice (sent, resent at the timeout), then a sequence "
     "NAK naming it", CAP_LINKTYPE_ETHERNET, post_loss_twice,
     "# frames 6 and 7 resend at the timeout what frames 2 and 3 sent (both\n"
     "# lost after the capture); frame 10 NAKs 0x00f001, which neither copy\n"
     "# delivered; frame 11 goes back to it: right for what B received\n"
     "exit 0\n"},
};

const struct gen_family gen_vantage_family = {
    "vantage", vantage_list, sizeof vantage_list / sizeof vantage_list[0]};
