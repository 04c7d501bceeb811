/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Hand-built flows for the flow rules of the bug zoo (FLOW-MSN,
 * FLOW-RETRANS-DIFF, FLOW-DUP-ATOMIC, FLOW-ZERO-LEN, FLOW-NAK-INVALID,
 * FLOW-INVALID-ACCEPTED): each case is a short sequence of frames built with
 * ibw_build() and the exact set of findings (rule, frame) that IBA and the
 * rule's statement give for it, written here from the sequence's design,
 * including the sequences that must stay clean (replays with the current
 * MSN, responses reordered, what the capture point cannot show).
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "testutil.h"

#define QA 0x000011u
#define QB 0x000022u
#define MAXFR 32
#define MAXLEN 9000

enum { A = 0, B = 1 };

struct run {
    unsigned n;
    uint8_t bytes[MAXFR][MAXLEN];
    size_t len[MAXFR];
    size_t cut[MAXFR]; /* bytes recorded, 0 = all */
    uint64_t ts[MAXFR]; /* capture time (ns), 0 = 1 ms x frame number */
    /* findings */
    unsigned nf;
    uint64_t frame[64];
    unsigned rule[64];
};

static struct run R;
static uint32_t g_pmtu;

static const uint8_t *pattern(unsigned shift)
{
    static uint8_t buf[8192 + 8];
    if (!buf[1])
        for (unsigned i = 0; i < sizeof buf; i++)
            buf[i] = (uint8_t)(i * 7 + 1);
    return buf + shift;
}

static void reset(uint32_t pmtu)
{
    memset(&R, 0, sizeof R);
    g_pmtu = pmtu;
}

/* A packet from `from` with opcode op at psn. */
static void spec(struct ibw_build_spec *s, int from, uint8_t op, uint32_t psn)
{
    static const uint8_t mac[2][6] = {{2, 0, 0, 0, 0, 1}, {2, 0, 0, 0, 0, 2}};
    memset(s, 0, sizeof *s);
    s->transport = IBW_TK_ROCE_V2_IP4;
    memcpy(s->smac, mac[from], 6);
    memcpy(s->dmac, mac[!from], 6);
    s->ip_src[0] = s->ip_dst[0] = 10;
    s->ip_src[3] = (uint8_t)(from + 1);
    s->ip_dst[3] = (uint8_t)(!from + 1);
    s->ttl = 64;
    s->ip_df = 1;
    s->udp_sport = (uint16_t)(0xC000 + from);
    s->bth.pkey = 0xFFFF;
    s->bth.opcode = op;
    s->bth.destqp = from == A ? QB : QA;
    s->bth.psn = psn;
    s->aeth.syndrome = ibw_aeth_syndrome(IBW_AETH_ACK, IBW_AETH_CREDIT_INVALID);
    s->reth.rkey = 0x1234;
    s->reth.va = 0x10000;
}

static void put(const struct ibw_build_spec *s)
{
    size_t len = 0;
    int e = ibw_build(s, R.bytes[R.n], MAXLEN, &len);
    TU_EQ(e, IBW_OK);
    R.len[R.n++] = len;
}

static void req(uint8_t op, uint32_t psn, size_t paylen, uint32_t dmalen)
{
    struct ibw_build_spec s;
    spec(&s, A, op, psn);
    s.payload = pattern(0);
    s.payload_len = paylen;
    s.reth.dmalen = dmalen;
    put(&s);
}

static void read_req(uint32_t psn, uint64_t va, uint32_t len)
{
    struct ibw_build_spec s;
    spec(&s, A, IBW_OP_RC_RDMA_READ_REQUEST, psn);
    s.reth.va = va;
    s.reth.dmalen = len;
    put(&s);
}

static void resp(uint8_t op, uint32_t psn, size_t paylen, uint32_t msn)
{
    struct ibw_build_spec s;
    spec(&s, B, op, psn);
    s.payload = pattern(0);
    s.payload_len = paylen;
    s.aeth.msn = msn;
    put(&s);
}

static void ack(uint32_t psn, uint32_t msn) { resp(IBW_OP_RC_ACKNOWLEDGE, psn, 0, msn); }

static void nak(uint32_t psn, unsigned code, uint32_t msn)
{
    struct ibw_build_spec s;
    spec(&s, B, IBW_OP_RC_ACKNOWLEDGE, psn);
    s.aeth.syndrome = ibw_aeth_syndrome(IBW_AETH_NAK, code);
    s.aeth.msn = msn;
    put(&s);
}

static void fetch_add(uint32_t psn)
{
    struct ibw_build_spec s;
    spec(&s, A, IBW_OP_RC_FETCH_ADD, psn);
    s.atomiceth.va = 0x3000;
    s.atomiceth.rkey = 0x9ABC;
    s.atomiceth.swapdt = 1;
    put(&s);
}

static void atomic_ack(uint32_t psn, uint32_t msn, uint64_t orig)
{
    struct ibw_build_spec s;
    spec(&s, B, IBW_OP_RC_ATOMIC_ACKNOWLEDGE, psn);
    s.aeth.msn = msn;
    s.atomicacketh.origremdt = orig;
    put(&s);
}

static void on_finding(void *user, const struct chk_finding *f)
{
    (void)user;
    if (R.nf < 64) {
        R.frame[R.nf] = f->frame;
        R.rule[R.nf] = f->rule;
    }
    R.nf++;
}

/* Judge the frames built; the findings must be exactly want (a list of
 * rule, frame pairs ending with rule CHK_RULE_COUNT). */
static void expect(const char *name, const unsigned *want)
{
    struct chk_opts o;
    memset(&o, 0, sizeof o);
    o.pmtu = g_pmtu;
    o.report = on_finding;
    /* frames 1 ms apart, a 1 us skew window: each response's MSN is held
     * to the requests recorded before it */
    o.skew_ns = 1000;
    struct chk *k = chk_new(&o);
    TU_CHECK(k != NULL);
    for (unsigned i = 0; i < R.n; i++)
        chk_bytes(k, i + 1, R.ts[i] ? R.ts[i] : 1000000ull * (i + 1), R.bytes[i],
                  R.cut[i] ? R.cut[i] : R.len[i], IBW_LINK_ETHERNET,
                  R.cut[i] != 0);
    chk_finish(k);
    chk_free(k);
    unsigned nw = 0;
    while (want[2 * nw] != CHK_RULE_COUNT)
        nw++;
    int ok = R.nf == nw;
    for (unsigned i = 0; ok && i < nw; i++) {
        int hit = 0;
        for (unsigned j = 0; j < R.nf && j < 64; j++)
            hit |= R.rule[j] == want[2 * i] && R.frame[j] == want[2 * i + 1];
        ok = hit;
    }
    TU_CHECK(ok);
    if (!ok) {
        fprintf(stderr, "%s: got", name);
        for (unsigned j = 0; j < R.nf && j < 64; j++)
            fprintf(stderr, " %s@%llu", chk_rule(R.rule[j])->id,
                    (unsigned long long)R.frame[j]);
        fprintf(stderr, "\n");
    }
}

#define END CHK_RULE_COUNT
#define SEND_ONLY IBW_OP_RC_SEND_ONLY
#define RR_FIRST IBW_OP_RC_RDMA_READ_RESPONSE_FIRST
#define RR_MIDDLE IBW_OP_RC_RDMA_READ_RESPONSE_MIDDLE
#define RR_LAST IBW_OP_RC_RDMA_READ_RESPONSE_LAST
#define RR_ONLY IBW_OP_RC_RDMA_READ_RESPONSE_ONLY

static void times_us(const double *us);

static void msn_cases(void)
{
    /* C9-148: the READ counts when executed, all its responses carry it */
    reset(1024);
    req(SEND_ONLY, 0, 64, 0);
    ack(0, 1);
    read_req(1, 0x20000, 3000);          /* 3: PSNs 1-3 */
    resp(RR_FIRST, 1, 1024, 2);
    resp(RR_MIDDLE, 2, 1024, 2);
    resp(RR_LAST, 3, 952, 2);
    expect("msn read c9-148", (const unsigned[]){END});

    /* ... a READ counted only at its LAST (the MSN before it on FIRST) */
    reset(1024);
    req(SEND_ONLY, 0, 64, 0);
    ack(0, 1);
    read_req(1, 0x20000, 2048);
    resp(RR_FIRST, 1, 1024, 1);          /* 4: 1, the READ executed: 2 */
    resp(RR_LAST, 2, 1024, 2);           /* 5: not the FIRST's MSN */
    expect("msn read counted late",
           (const unsigned[]){CHK_R_FLOW_MSN, 4, CHK_R_FLOW_MSN, 5, END});

    /* rxe under loss: a replayed READ response with the current MSN, the
     * ACK of a duplicate SEND naming the last PSN with the current MSN,
     * and responses reordered on their way: all consistent */
    reset(1024);
    read_req(0, 0x20000, 2048);          /* 1: PSNs 0-1 */
    req(SEND_ONLY, 2, 64, 0);            /* 2 */
    req(SEND_ONLY, 3, 64, 0);            /* 3 */
    resp(RR_FIRST, 0, 1024, 1);          /* 4 */
    ack(3, 3);                           /* 5: LAST of the READ lost */
    read_req(1, 0x20400, 1024);          /* 6: re-issued */
    req(SEND_ONLY, 2, 64, 0);            /* 7: a duplicate */
    ack(3, 3);                           /* 8: its ACK: the newest PSN */
    resp(RR_LAST, 1, 1024, 3);           /* 9: replayed, current MSN */
    resp(RR_ONLY, 1, 1024, 3);           /* 10: ... or as a new READ */
    expect("msn rxe replays", (const unsigned[]){END});

    /* rxe re-issues a READ from its first response missing, with VA and
     * length advanced (rxe_req.c req_retry), and replays it from its
     * responder resource as MIDDLE..LAST (rdatm_res_state_replay), with the
     * current MSN: clean, whether the PMTU is known (v = 0) or learnt from
     * the responses themselves (v = 1) */
    for (unsigned v = 0; v < 2; v++) {
        reset(v ? 0 : 1024);
        req(SEND_ONLY, 0, 64, 0);
        ack(0, 1);
        read_req(1, 0x20000, 3500);      /* 3: PSNs 1-4 */
        resp(RR_FIRST, 1, 1024, 2);
        resp(RR_LAST, 4, 428, 2);        /* 5: 2 and 3 lost */
        req(SEND_ONLY, 5, 64, 0);        /* 6 */
        ack(5, 3);                       /* 7 */
        read_req(2, 0x20400, 2476);      /* 8: re-issued from PSN 2 */
        resp(RR_MIDDLE, 2, 1024, 3);
        resp(RR_MIDDLE, 3, 1024, 3);
        resp(RR_LAST, 4, 428, 3);
        expect(v ? "msn rxe read replay, pmtu learnt" : "msn rxe read replay",
               (const unsigned[]){END});
    }

    /* PMTU not known yet: a READ at a PSN inside the span the READ before
     * may take (8 PSNs at PMTU 256) is a new message or that READ's
     * re-issue.  The first READ's LAST at PSN 1 (and the PMTU the FIRST
     * shows) settles it as new, so the counts stay exact and the ACK of
     * the SEND FIRST with the next message's MSN is judged (before, the
     * flow's MSN went unjudged for good: msn-per-packet's variants) */
    reset(0);
    read_req(0, 0x20000, 2048);          /* 1: PSNs 0-1 at PMTU 1024 */
    read_req(2, 0x30000, 1024);          /* 2: inside 0's largest span */
    resp(RR_FIRST, 0, 1024, 1);
    resp(RR_LAST, 1, 1024, 1);           /* 4: READ 0 ends before 2 */
    resp(RR_ONLY, 2, 1024, 2);
    req(IBW_OP_RC_SEND_FIRST, 3, 1024, 0);
    ack(3, 3);                           /* 7: FIRST completes nothing */
    req(IBW_OP_RC_SEND_LAST, 4, 64, 0);
    ack(4, 3);
    expect("msn read inside a span, new",
           (const unsigned[]){CHK_R_FLOW_MSN, 7, END});
    /* ... and settled as a re-issue (READ 0 of 3 PMTUs asked again from
     * PSN 2 after two responses, answered as rxe replays it): the READ at
     * 2 was counted once too often, so the right MSNs draw nothing */
    reset(0);
    read_req(0, 0x20000, 3072);          /* 1: PSNs 0-2 at PMTU 1024 */
    resp(RR_FIRST, 0, 1024, 1);
    resp(RR_MIDDLE, 1, 1024, 1);
    read_req(2, 0x20800, 1024);          /* 4: the rest */
    resp(RR_LAST, 2, 1024, 1);
    req(SEND_ONLY, 3, 64, 0);
    ack(3, 2);
    expect("msn read inside a span, re-issue", (const unsigned[]){END});

    /* a READ RESPONSE LAST with the next message's MSN (zoo row 31b), a
     * SEND recorded again (a PSN outside the READ: the network
     * duplicated the newest request) just before it: that replays nothing
     * of the READ, so the LAST is judged against its FIRST (before, any
     * resend within the skew window exempted it; the SEND after the READ
     * keeps the MSN arcs from catching it) */
    reset(1024);
    req(SEND_ONLY, 0, 64, 0);            /* 1 */
    read_req(1, 0x20000, 2048);          /* 2: PSNs 1-2 */
    req(SEND_ONLY, 3, 64, 0);            /* 3 */
    resp(RR_FIRST, 1, 1024, 2);          /* 4 */
    req(SEND_ONLY, 3, 64, 0);            /* 5: again */
    resp(RR_LAST, 2, 1024, 3);           /* 6 */
    times_us((const double[]){1, 2, 3, 4, 4.5, 5});
    expect("msn read last ahead, other resend",
           (const unsigned[]){CHK_R_FLOW_MSN, 6, END});

    /* SENDs 0-3, a NAK naming 1, only 1 resent and a new PSN, then an ACK
     * past them (the resends of 2 and 3 went by unrecorded, or their
     * originals were taken): every PSN was seen whole, so the counts stay
     * exact and a later ACK with a wrong MSN is judged (before, the first
     * recovered loss stopped FLOW-MSN for the rest of the flow) */
    reset(0);
    for (uint32_t k = 0; k < 4; k++)
        req(SEND_ONLY, k, 64, 0);        /* 1-4 */
    ack(0, 1);
    nak(1, IBW_NAK_PSN_SEQ_ERROR, 1);    /* 6 */
    req(SEND_ONLY, 1, 64, 0);            /* 7 */
    req(SEND_ONLY, 4, 64, 0);            /* 8 */
    ack(4, 5);                           /* 9 */
    req(SEND_ONLY, 5, 64, 0);
    ack(5, 7);                           /* 11: 6 */
    expect("msn after a recovered loss",
           (const unsigned[]){CHK_R_FLOW_MSN, 11, END});

    /* an ACK whose MSN goes back below what its own PSN completes */
    reset(0);
    req(SEND_ONLY, 0, 64, 0);
    req(SEND_ONLY, 1, 64, 0);
    req(SEND_ONLY, 2, 64, 0);
    ack(0, 7);                           /* 4: O in [4, 6] */
    ack(2, 7);                           /* 5: O = 4 */
    ack(1, 5);                           /* 6: O = 3 */
    expect("msn below its PSN", (const unsigned[]){CHK_R_FLOW_MSN, 6, END});

    /* RNR NAK and sequence NAK: the message at their PSN is not done */
    reset(0);
    req(SEND_ONLY, 0, 64, 0);
    ack(0, 1);
    req(SEND_ONLY, 1, 64, 0);
    {
        struct ibw_build_spec s;
        spec(&s, B, IBW_OP_RC_ACKNOWLEDGE, 1);
        s.aeth.syndrome = ibw_aeth_syndrome(IBW_AETH_RNR_NAK, 1);
        s.aeth.msn = 1;
        put(&s);                         /* 4 */
    }
    req(SEND_ONLY, 1, 64, 0);
    ack(1, 2);
    nak(2, IBW_NAK_PSN_SEQ_ERROR, 2);    /* 7: names the next PSN */
    expect("msn naks", (const unsigned[]){END});

    /* a request PSN the capture never saw: counts are lower bounds only,
     * nothing judged */
    reset(0);
    req(SEND_ONLY, 0, 64, 0);
    ack(0, 1);
    req(SEND_ONLY, 2, 64, 0);            /* PSN 1 missing */
    ack(2, 9);
    /* (the ACK of PSN 2 shows PSN 1 received: capture loss) */
    expect("msn after a gap", (const unsigned[]){CHK_R_CAP_LOSS, 3, END});
}

static void retrans_cases(void)
{
    /* an identical resend, and one cut by the capture with other bytes
     * (cut: compared by opcode and length only) */
    reset(0);
    req(SEND_ONLY, 0, 256, 0);
    req(SEND_ONLY, 1, 256, 0);
    req(SEND_ONLY, 0, 256, 0);
    {
        struct ibw_build_spec s;
        spec(&s, A, SEND_ONLY, 1);
        s.payload = pattern(3);
        s.payload_len = 256;
        put(&s);
        R.cut[R.n - 1] = 128;
    }
    ack(1, 2);
    expect("retrans same", (const unsigned[]){CHK_R_CAP_TRUNCATED, 4, END});

    /* other ImmDt, other payload bytes, other RETH */
    reset(0);
    req(IBW_OP_RC_SEND_ONLY_WITH_IMMEDIATE, 0, 64, 0);
    req(SEND_ONLY, 1, 64, 0);
    req(IBW_OP_RC_RDMA_WRITE_ONLY, 2, 64, 64);
    {
        struct ibw_build_spec s;
        spec(&s, A, IBW_OP_RC_SEND_ONLY_WITH_IMMEDIATE, 0);
        s.payload = pattern(0);
        s.payload_len = 64;
        s.immdt.imm = 5;
        put(&s);                         /* 4 */
        spec(&s, A, SEND_ONLY, 1);
        s.payload = pattern(1);
        s.payload_len = 64;
        put(&s);                         /* 5 */
        spec(&s, A, IBW_OP_RC_RDMA_WRITE_ONLY, 2);
        s.payload = pattern(0);
        s.payload_len = 64;
        s.reth.dmalen = 64;
        s.reth.va = 0x10040;
        put(&s);                         /* 6 */
    }
    expect("retrans differs",
           (const unsigned[]){CHK_R_FLOW_RETRANS_DIFF, 4, CHK_R_FLOW_RETRANS_DIFF,
                              5, CHK_R_FLOW_RETRANS_DIFF, 6, END});

    /* READ re-issued 2 PMTUs in: the rest, from VA + 2048, same R_Key */
    reset(1024);
    read_req(0, 0x20000, 3000);
    resp(RR_FIRST, 0, 1024, 1);
    resp(RR_MIDDLE, 1, 1024, 1);
    read_req(2, 0x20800, 952);           /* 4 right */
    read_req(2, 0x20000, 952);           /* 5 wrong VA */
    read_req(2, 0x20800, 3000);          /* 6 wrong length */
    expect("read reissue",
           (const unsigned[]){CHK_R_FLOW_RETRANS_DIFF, 5, CHK_R_FLOW_RETRANS_DIFF,
                              6, END});
}

static void nak_psn_cases(void)
{
    /* a sequence NAK naming an acknowledged PSN: with the responder's
     * current MSN it was sent after the ACK (FLOW-NAK-PSN); with an older
     * MSN before it, the network swapping the two (no finding) */
    for (unsigned v = 0; v < 2; v++) {
        reset(0);
        for (uint32_t k = 0; k < 4; k++)
            req(SEND_ONLY, k, 64, 0);
        ack(3, 4);                        /* 5 */
        nak(1, IBW_NAK_PSN_SEQ_ERROR, v ? 1 : 4); /* 6 */
        if (v)
            expect("nak psn sent before the ack", (const unsigned[]){END});
        else
            expect("nak psn acknowledged", (const unsigned[]){CHK_R_FLOW_NAK_PSN, 6, END});
    }
    /* the same MSN (the ACK named a packet inside a WRITE): judged, unless
     * the path has shown it reorders this flow's responses (an ACK with an
     * older MSN recorded after a newer one) */
    for (unsigned v = 0; v < 2; v++) {
        reset(1024);
        req(SEND_ONLY, 0, 64, 0);
        req(SEND_ONLY, 1, 64, 0);
        ack(1, 2);                        /* 3 */
        if (v)
            ack(0, 1);                    /* 4: late */
        req(IBW_OP_RC_RDMA_WRITE_FIRST, 2, 1024, 4096);
        req(IBW_OP_RC_RDMA_WRITE_MIDDLE, 3, 1024, 0);
        req(IBW_OP_RC_RDMA_WRITE_MIDDLE, 4, 1024, 0);
        req(IBW_OP_RC_RDMA_WRITE_LAST, 5, 1024, 0);
        ack(3, 2);
        nak(3, IBW_NAK_PSN_SEQ_ERROR, 2); /* 9 (10 with the late ACK) */
        if (v)
            expect("nak psn same msn, reordering path", (const unsigned[]){END});
        else
            expect("nak psn same msn", (const unsigned[]){CHK_R_FLOW_NAK_PSN, 9, END});
    }
}

static void gbn_cases(void)
{
    /* after the NAK naming 1 only 1 is resent, then a new PSN: the
     * responder NAKs 2 again (FLOW-GBN), or ACKs past 2 (the capture
     * missed the resends: no error), or says nothing more (not judged) */
    for (unsigned v = 0; v < 3; v++) {
        reset(0);
        for (uint32_t k = 0; k < 4; k++)
            req(SEND_ONLY, k, 64, 0);
        ack(0, 1);
        nak(1, IBW_NAK_PSN_SEQ_ERROR, 1);
        req(SEND_ONLY, 1, 64, 0);        /* 7 */
        req(SEND_ONLY, 4, 64, 0);        /* 8 */
        if (v == 0)
            nak(2, IBW_NAK_PSN_SEQ_ERROR, 2);
        else if (v == 1)
            ack(4, 5);
        if (v == 0)
            expect("gbn stop nak", (const unsigned[]){CHK_R_FLOW_GBN, 8, END});
        else
            expect("gbn stop explained", (const unsigned[]){END});
    }
    /* the same stop, on a capture that has shown it misses this flow's
     * requests (PSN 1 acknowledged, never seen: CAP-LOSS): the resend of 5
     * may have been sent and lost before the capture point, so the NAK
     * naming 5 again decides nothing (a tap behind a lossy qdisc) */
    reset(0);
    req(SEND_ONLY, 0, 64, 0);
    req(SEND_ONLY, 2, 64, 0);            /* 2: PSN 1 missing */
    ack(2, 3);
    for (uint32_t k = 3; k < 7; k++)
        req(SEND_ONLY, k, 64, 0);        /* 4-7 */
    nak(4, IBW_NAK_PSN_SEQ_ERROR, 4);    /* 8 */
    req(SEND_ONLY, 4, 64, 0);            /* 9 */
    req(SEND_ONLY, 7, 64, 0);            /* 10 */
    nak(5, IBW_NAK_PSN_SEQ_ERROR, 5);    /* 11 */
    expect("gbn stop, capture loses requests",
           (const unsigned[]){CHK_R_CAP_LOSS, 2, END});
    /* the same stop on a capture that missed an original request (PSN 1,
     * seen only when resent after the NAK naming it): the tap sits behind
     * the loss, and the resend of 5 may have been dropped there too */
    reset(0);
    req(SEND_ONLY, 0, 64, 0);
    req(SEND_ONLY, 2, 64, 0);            /* 2: PSN 1 missing */
    nak(1, IBW_NAK_PSN_SEQ_ERROR, 1);    /* 3 */
    for (uint32_t k = 1; k < 6; k++)
        req(SEND_ONLY, k, 64, 0);        /* 4-8 */
    nak(3, IBW_NAK_PSN_SEQ_ERROR, 3);    /* 9 */
    req(SEND_ONLY, 3, 64, 0);            /* 10 */
    req(SEND_ONLY, 6, 64, 0);            /* 11: 4 and 5 not resent */
    nak(4, IBW_NAK_PSN_SEQ_ERROR, 4);    /* 12 */
    expect("gbn stop, capture missed an original", (const unsigned[]){END});
    /* after the NAK naming 1 the resend of 1 is recorded damaged (v = 0:
     * its ICRC fails; v = 1: a runt, its UDP length short of the BTH) and
     * the round goes on from 2; the responder, which dropped that copy,
     * NAKs 1 again.  The damaged frame may have been the round's first:
     * no skip is shown (before, FLOW-GBN on the icrc-small-unchecked and
     * runt-accept clean controls) */
    for (unsigned v = 0; v < 2; v++) {
        reset(0);
        for (uint32_t k = 0; k < 4; k++)
            req(SEND_ONLY, k, 64, 0);    /* 1-4 */
        ack(0, 1);
        nak(1, IBW_NAK_PSN_SEQ_ERROR, 1); /* 6 */
        req(SEND_ONLY, 1, 64, 0);        /* 7: damaged below */
        if (v == 0)
            R.bytes[R.n - 1][R.len[R.n - 1] - 10] ^= 1; /* a payload bit */
        else
            R.bytes[R.n - 1][14 + 20 + 5] = 16; /* UDP length 16 < 8 + 12 */
        req(SEND_ONLY, 2, 64, 0);        /* 8 */
        req(SEND_ONLY, 3, 64, 0);        /* 9 */
        nak(1, IBW_NAK_PSN_SEQ_ERROR, 1); /* 10 */
        expect(v ? "gbn round first runt" : "gbn round first corrupt",
               (const unsigned[]){v ? CHK_R_PKT_MALFORMED : CHK_R_PKT_ICRC, 7,
                                  END});
    }
    /* the whole round resent before the new PSN: clean */
    reset(0);
    for (uint32_t k = 0; k < 4; k++)
        req(SEND_ONLY, k, 64, 0);
    nak(1, IBW_NAK_PSN_SEQ_ERROR, 1);
    for (uint32_t k = 1; k < 5; k++)
        req(SEND_ONLY, k, 64, 0);
    ack(4, 5);
    expect("gbn whole", (const unsigned[]){END});
}

/* The frames built so far recorded at us[k] microseconds. */
static void times_us(const double *us)
{
    for (unsigned i = 0; i < R.n; i++)
        R.ts[i] = (uint64_t)(us[i] * 1000.0);
}

static void resend_cases(void)
{
    /* SENDs 0-3 at 1-4 us, 0 resent at 5 us: 4 us after its copy, sooner
     * than any local ACK timeout (8.192 us), no NAK before it */
    for (unsigned v = 0; v < 4; v++) {
        reset(0);
        for (uint32_t k = 0; k < 4; k++)
            req(SEND_ONLY, k, 64, 0);                 /* 1-4 */
        if (v == 1)
            nak(0, IBW_NAK_PSN_SEQ_ERROR, 0);        /* 5, at 4.5 us */
        req(SEND_ONLY, v == 2 ? 3 : 0, 64, 0);      /* the resend */
        ack(3, 4);
        if (v == 3) /* the resend 20 us after its copy: a timeout may */
            times_us((const double[]){1, 2, 3, 4, 21, 22});
        else if (v == 1)
            times_us((const double[]){1, 2, 3, 4, 4.5, 5, 6});
        else
            times_us((const double[]){1, 2, 3, 4, 5, 6});
        if (v == 0)
            expect("resend unjustified",
                   (const unsigned[]){CHK_R_FLOW_RESEND_UNJUSTIFIED, 5, END});
        else /* after a NAK; the last PSN again (a network duplicate); late */
            expect("resend justified", (const unsigned[]){END});
    }
    /* SENDs 0-3 at 1-4 us (their responses 0.2 us after: the flow's skew
     * window), 0 resent at 5 us and a sequence NAK naming 2 recorded 0.1 us
     * after it: a NAK that reached the requester first would send it back
     * to 2, not 0 (it acknowledges 0 and 1), so the round from 0 stays
     * unjustified (before, any NAK within the window explained it:
     * resend-early's variants under loss); v = 1: 2 resent, from the
     * PSN the NAK names */
    for (unsigned v = 0; v < 2; v++) {
        reset(0);
        for (uint32_t k = 0; k < 2; k++) {
            req(SEND_ONLY, k, 64, 0);
            ack(k, k + 1);
        }
        req(SEND_ONLY, 2, 64, 0);                    /* 5 */
        req(SEND_ONLY, 3, 64, 0);                    /* 6 */
        req(SEND_ONLY, v ? 2 : 0, 64, 0);            /* 7: resent */
        nak(2, IBW_NAK_PSN_SEQ_ERROR, 2);            /* 8 */
        times_us((const double[]){1, 1.2, 2, 2.2, 3, 4, 5, 5.1});
        if (v == 0)
            expect("resend before the NAK's psn",
                   (const unsigned[]){CHK_R_FLOW_RESEND_UNJUSTIFIED, 7, END});
        else
            expect("resend at the NAK's psn", (const unsigned[]){END});
    }
    /* SENDs 0-3, NAK naming 1, only 1 resent and ACKed, then nothing from
     * the requester while the capture goes on (another QP's SEND) until
     * 9000 s (past 4.096 us x 2^31 = 8796 s, the longest local ACK
     * timeout) or 100 s (not past it); or 2 and 3 ACKed: nothing left */
    for (unsigned v = 0; v < 3; v++) {
        reset(0);
        for (uint32_t k = 0; k < 4; k++)
            req(SEND_ONLY, k, 64, 0);                 /* 1-4 */
        nak(1, IBW_NAK_PSN_SEQ_ERROR, 1);            /* 5 */
        req(SEND_ONLY, 1, 64, 0);                    /* 6 */
        ack(v == 2 ? 3 : 1, v == 2 ? 4 : 2);         /* 7 */
        struct ibw_build_spec o;                     /* 8: another QP's */
        spec(&o, A, SEND_ONLY, 0x500);
        o.bth.destqp = 0x33;
        put(&o);
        times_us((const double[]){1, 2, 3, 4, 5, 6, 7, v == 1 ? 100e6 : 9000e6});
        if (v == 0)
            expect("gbn quiet", (const unsigned[]){CHK_R_FLOW_GBN_QUIET, 6, END});
        else
            expect("gbn quiet not yet", (const unsigned[]){END});
    }
    /* READ of 3 PMTUs at 0, an ACK naming 1 (inside its span) before its
     * responses (FLOW-ACK-READ at the ACK), or after them (clean) */
    for (unsigned v = 0; v < 2; v++) {
        reset(256);
        read_req(0, 0x10000, 3 * 256);               /* 1 */
        if (v == 0)
            ack(1, 1);                               /* 2 */
        resp(RR_FIRST, 0, 256, 1);
        resp(RR_MIDDLE, 1, 256, 1);
        resp(RR_LAST, 2, 256, 1);
        if (v == 1)
            ack(2, 1);
        if (v == 0)
            expect("ack covers read", (const unsigned[]){CHK_R_FLOW_ACK_READ, 2, END});
        else
            expect("ack after read", (const unsigned[]){END});
    }
}

static void respond_cases(void)
{
    /* duplicate atomics: the same value is right, another is not */
    reset(0);
    fetch_add(0);
    atomic_ack(0, 1, 7);
    fetch_add(0);
    atomic_ack(0, 1, 7);
    fetch_add(0);
    atomic_ack(0, 1, 8);                 /* 6 */
    expect("dup atomic", (const unsigned[]){CHK_R_FLOW_DUP_ATOMIC, 6, END});

    /* zero-length READ NAKed Remote Access: not judged before a READ was
     * served (the QP may not allow remote reads), an error after */
    reset(0);
    read_req(0, 0, 0);
    nak(0, IBW_NAK_REMOTE_ACCESS_ERROR, 0);
    expect("zero len no access known", (const unsigned[]){END});
    reset(0);
    read_req(0, 0x20000, 16);
    resp(RR_ONLY, 0, 16, 1);
    req(IBW_OP_RC_RDMA_WRITE_ONLY, 1, 0, 0); /* 3: a zero-length WRITE */
    nak(1, IBW_NAK_REMOTE_ACCESS_ERROR, 1);  /* 4: no WRITE served: fine */
    expect("zero len write", (const unsigned[]){END});
    reset(0);
    read_req(0, 0x20000, 16);
    resp(RR_ONLY, 0, 16, 1);
    read_req(1, 0, 0);
    resp(RR_ONLY, 1, 4, 2);              /* 4: data for a zero-length READ */
    read_req(2, 0, 0);
    nak(2, IBW_NAK_REMOTE_ACCESS_ERROR, 2); /* 6 */
    expect("zero len read",
           (const unsigned[]){CHK_R_FLOW_ZERO_LEN, 4, CHK_R_FLOW_ZERO_LEN, 6, END});

    /* NAK Invalid Request: on a valid WRITE MIDDLE an error; on a SEND
     * MIDDLE (the receive WQE may be short) or a WRITE whose FIRST the
     * capture did not see, not judged */
    reset(0);
    req(IBW_OP_RC_RDMA_WRITE_FIRST, 0, 1024, 4096);
    req(IBW_OP_RC_RDMA_WRITE_MIDDLE, 1, 1024, 0);
    nak(1, IBW_NAK_INVALID_REQUEST, 0);  /* 3 */
    expect("nak invalid write", (const unsigned[]){CHK_R_FLOW_NAK_INVALID, 3, END});
    /* the same WRITE MIDDLE resent as a FIRST (FLOW-RETRANS-DIFF, as Linux
     * 6.1 rxe did: docs/rxe-vm.md F8): the NAK may answer that copy, an
     * Invalid Request inside an open WRITE, so it is not held against the
     * first copy */
    reset(0);
    req(IBW_OP_RC_RDMA_WRITE_FIRST, 0, 1024, 4096);
    req(IBW_OP_RC_RDMA_WRITE_MIDDLE, 1, 1024, 0);
    req(IBW_OP_RC_RDMA_WRITE_FIRST, 1, 1024, 4096); /* 3 */
    nak(1, IBW_NAK_INVALID_REQUEST, 0);  /* 4 */
    expect("nak invalid write resent other",
           (const unsigned[]){CHK_R_FLOW_RETRANS_DIFF, 3, CHK_R_FLOW_OPSEQ, 3, END});
    reset(0);
    req(IBW_OP_RC_SEND_FIRST, 0, 1024, 0);
    req(IBW_OP_RC_SEND_MIDDLE, 1, 1024, 0);
    nak(1, IBW_NAK_INVALID_REQUEST, 0);
    expect("nak invalid send", (const unsigned[]){END});
    reset(1024);
    req(IBW_OP_RC_RDMA_WRITE_MIDDLE, 5, 1024, 0); /* flow starts mid-WRITE */
    req(IBW_OP_RC_RDMA_WRITE_MIDDLE, 6, 1024, 0);
    nak(6, IBW_NAK_INVALID_REQUEST, 0);
    expect("nak invalid mid", (const unsigned[]){CHK_R_FLOW_START_MID, 1, END});

    /* requests that must be rejected: accepted is an error, NAKed fine */
    reset(0);
    read_req(0, 0x20000, 0x80000001u);   /* C9-94 */
    resp(RR_FIRST, 0, 1024, 1);          /* 2 */
    expect("accepted dmalen", (const unsigned[]){CHK_R_FLOW_INVALID_ACCEPTED, 2, END});
    reset(0);
    read_req(0, 0x20000, 0x80000001u);
    nak(0, IBW_NAK_INVALID_REQUEST, 0);
    req(SEND_ONLY, 1, 64, 0);
    expect("rejected dmalen", (const unsigned[]){END});
    reset(0);
    {
        struct ibw_build_spec s;
        spec(&s, A, IBW_OP_RC_RDMA_WRITE_ONLY, 0);
        s.payload = pattern(0);
        s.payload_len = 64;
        s.reth.dmalen = 64;
        s.reth.va = 0xFFFFFFFFFFFFFFF0ull; /* wraps */
        put(&s);
    }
    req(SEND_ONLY, 1, 64, 0);
    ack(1, 2);                           /* 3: covers it */
    expect("accepted wrap", (const unsigned[]){CHK_R_FLOW_INVALID_ACCEPTED, 3, END});
    /* PMTU violations: judged with a PMTU the responder holds (--pmtu),
     * never with one learnt from payloads */
    reset(1024);
    req(IBW_OP_RC_SEND_FIRST, 0, 512, 0);
    req(IBW_OP_RC_SEND_LAST, 1, 64, 0);
    ack(1, 1);
    expect("accepted pmtu",
           (const unsigned[]){CHK_R_PKT_LEN_FULL, 1, CHK_R_FLOW_INVALID_ACCEPTED, 3,
                              END});
    reset(0);
    req(IBW_OP_RC_SEND_FIRST, 0, 1024, 0);
    req(IBW_OP_RC_SEND_MIDDLE, 1, 512, 0);
    req(IBW_OP_RC_SEND_LAST, 2, 64, 0);
    ack(2, 1);
    expect("learnt pmtu", (const unsigned[]){CHK_R_PKT_LEN_FULL, 2, END});
    /* ... but a FIRST whose payload is no PMTU at all (a SEND FIRST cut 8
     * bytes short of 1024) is invalid on any path, the PMTU known or not:
     * accepted, an error (len-check-off on a Send, whose message has no
     * DMA Length to compare); v = 1: resent whole before the ACK, which
     * may accept that copy (the copies' difference is FLOW-RETRANS-DIFF's) */
    for (unsigned v = 0; v < 2; v++) {
        reset(0);
        req(IBW_OP_RC_SEND_FIRST, 0, 1016, 0);
        req(IBW_OP_RC_SEND_LAST, 1, 64, 0);
        if (v) {
            req(IBW_OP_RC_SEND_FIRST, 0, 1024, 0); /* 3 */
            req(IBW_OP_RC_SEND_LAST, 1, 64, 0);
        }
        ack(1, 1);
        if (v)
            expect("cut first resent whole",
                   (const unsigned[]){CHK_R_PKT_LEN_FULL, 1,
                                      CHK_R_FLOW_RETRANS_DIFF, 3, END});
        else
            expect("cut first accepted",
                   (const unsigned[]){CHK_R_PKT_LEN_FULL, 1,
                                      CHK_R_FLOW_INVALID_ACCEPTED, 3, END});
    }
}

int main(void)
{
    msn_cases();
    retrans_cases();
    nak_psn_cases();
    gbn_cases();
    respond_cases();
    resend_cases();
    return tu_done("check_flow_rules");
}
