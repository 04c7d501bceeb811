/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Statement READ-DUP-OPCODE (conformance/check/statements.h), by hand: a
 * READ of n PSNs is answered in full (the capture sees every response; the
 * requester lost some after the capture point), then re-issued from PSN k
 * of its span as the exact rest (VA and length advanced), and the re-issue
 * is answered one way or another.  Each sequence goes through the checker
 * alone and through the checker with --replay's reference responder, and
 * both must give what the IBA text gives (docs/iba-statements.md):
 *   - the two opcode choices the text leaves open, FIRST ... LAST from the
 *     re-issued PSN (rdmavt/hfi1) and the original span's MIDDLE ... LAST
 *     (Linux rxe), are clean in both;
 *   - what the text rules out (a FIRST anywhere but the re-issued PSN, a
 *     LAST or MIDDLE where neither span puts one, a re-issue from the
 *     span's first PSN answered MIDDLE) is an error in both: FLOW-READ-RESP
 *     from the checker, REPLAY-DIFF from the replay.
 * n is 1 (ONLY), 2 and 4 PSNs at PMTU 256; k the first, a middle and the
 * last PSN of the span.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "replay.h"
#include "testutil.h"

#define PMTU 256u
#define P0 0x00FFFEu /* the READ's first PSN: spans cross the 24-bit wrap */
#define VA0 0x40000ull
#define MAXFR 24
#define MAXLEN 600

#define RR_FIRST IBW_OP_RC_RDMA_READ_RESPONSE_FIRST
#define RR_MIDDLE IBW_OP_RC_RDMA_READ_RESPONSE_MIDDLE
#define RR_LAST IBW_OP_RC_RDMA_READ_RESPONSE_LAST
#define RR_ONLY IBW_OP_RC_RDMA_READ_RESPONSE_ONLY

static struct {
    unsigned n;
    uint8_t b[MAXFR][MAXLEN];
    size_t len[MAXFR];
} F;

static unsigned found[CHK_RULE_COUNT];

static uint32_t psn_at(uint32_t k) { return (P0 + k) & 0xFFFFFFu; }

/* One frame: from the requester (to_resp 1) or the responder. */
static void frame(int to_resp, uint8_t op, uint32_t psn, uint64_t va,
                  uint32_t dmalen, uint32_t paylen)
{
    static const uint8_t mac_req[6] = {2, 0, 0, 0, 0, 1};
    static const uint8_t mac_resp[6] = {2, 0, 0, 0, 0, 2};
    static uint8_t payload[PMTU];
    for (unsigned i = 0; i < PMTU; i++)
        payload[i] = (uint8_t)(i * 5 + 3);
    struct ibw_build_spec s;
    memset(&s, 0, sizeof s);
    s.transport = IBW_TK_ROCE_V2_IP4;
    memcpy(s.smac, to_resp ? mac_req : mac_resp, 6);
    memcpy(s.dmac, to_resp ? mac_resp : mac_req, 6);
    s.ip_src[0] = s.ip_dst[0] = 10;
    s.ip_src[3] = (uint8_t)(to_resp ? 1 : 2);
    s.ip_dst[3] = (uint8_t)(to_resp ? 2 : 1);
    s.ttl = 64;
    s.ip_df = 1;
    s.udp_sport = (uint16_t)(to_resp ? 0xC001 : 0xC002);
    s.bth.pkey = 0xFFFF;
    s.bth.opcode = op;
    s.bth.destqp = to_resp ? 0x22 : 0x11;
    s.bth.psn = psn;
    s.bth.ackreq = (uint8_t)to_resp;
    s.reth.va = va;
    s.reth.rkey = 0x1234;
    s.reth.dmalen = dmalen;
    s.aeth.syndrome = ibw_aeth_syndrome(IBW_AETH_ACK, IBW_AETH_CREDIT_INVALID);
    s.aeth.msn = 1; /* the READ is the flow's first message */
    s.payload = payload;
    s.payload_len = paylen;
    TU_CHECK(F.n < MAXFR);
    if (F.n >= MAXFR)
        return;
    TU_EQ(ibw_build(&s, F.b[F.n], MAXLEN, &F.len[F.n]), IBW_OK);
    F.n++;
}

/* The responses from PSN `from` to the end of a span of n PSNs of a READ
 * of len bytes; opcodes as the span starting at `origin` puts them. */
static void responses_but(uint32_t origin, uint32_t from, uint32_t n,
                          uint32_t len, uint32_t skip)
{
    for (uint32_t k = from; k < n; k++) {
        if (k == skip)
            continue;
        uint32_t at = k - origin, span = n - origin;
        uint8_t op = span == 1 ? RR_ONLY : at == 0 ? RR_FIRST
                   : at + 1 == span ? RR_LAST : RR_MIDDLE;
        uint32_t pl = k + 1 < n ? PMTU : len - (n - 1) * PMTU;
        frame(0, op, psn_at(k), 0, 0, pl);
    }
}

static void responses(uint32_t origin, uint32_t from, uint32_t n, uint32_t len)
{
    responses_but(origin, from, n, len, UINT32_MAX);
}

static void on_finding(void *user, const struct chk_finding *f)
{
    (void)user;
    if (f->rule < CHK_RULE_COUNT)
        found[f->rule]++;
}

/* Judge the frames; with_replay adds --replay's reference responder. */
static void judge(int with_replay)
{
    memset(found, 0, sizeof found);
    struct chk_opts o;
    memset(&o, 0, sizeof o);
    o.pmtu = PMTU;
    o.report = on_finding;
    o.skew_ns = 1000;
    struct replay *rp = with_replay ? replay_new(&o) : NULL;
    TU_CHECK(!with_replay || rp);
    struct chk *c = chk_new(&o);
    TU_CHECK(c != NULL);
    if (!c)
        exit(1);
    if (rp)
        replay_bind(rp, c);
    for (unsigned i = 0; i < F.n; i++)
        chk_bytes(c, i + 1, 1000000ull * (i + 1), F.b[i], F.len[i],
                  IBW_LINK_ETHERNET, 0);
    chk_finish(c);
    replay_finish(rp);
    replay_free(rp);
    chk_free(c);
}

static unsigned errors(void)
{
    unsigned n = 0;
    for (unsigned r = 0; r < CHK_RULE_COUNT; r++)
        if (chk_rule(r)->severity == CHK_ERROR)
            n += found[r];
    return n;
}

/* The expectation for the sequence built: clean, or exactly the rule's
 * findings (bad > 0) from the checker and REPLAY-DIFF from the replay. */
static void expect(const char *name, int bad)
{
    judge(0);
    int ok = bad ? found[CHK_R_FLOW_READ_RESP] > 0 &&
                       errors() == found[CHK_R_FLOW_READ_RESP]
                 : errors() == 0;
    TU_CHECK(ok);
    if (!ok)
        fprintf(stderr, "%s: check: %u errors, %u FLOW-READ-RESP\n", name,
                errors(), found[CHK_R_FLOW_READ_RESP]);
    judge(1);
    /* with --replay the checker's own rules run too */
    unsigned replay_diff = found[CHK_R_REPLAY_DIFF];
    ok = bad ? replay_diff > 0 : errors() == 0;
    TU_CHECK(ok);
    if (!ok) {
        fprintf(stderr, "%s: check --replay: %u errors, %u REPLAY-DIFF:", name,
                errors(), replay_diff);
        for (unsigned r = 0; r < CHK_RULE_COUNT; r++)
            if (found[r])
                fprintf(stderr, " %s x%u", chk_rule(r)->id, found[r]);
        fprintf(stderr, "\n");
    }
}

/* The READ of len bytes, its responses, and its re-issue from PSN k.  With
 * `lost`, the response at k is not in the capture (lost before the
 * capture point: a capture on the requester's side), else all are (lost
 * after it). */
static void prologue_lost(uint32_t len, uint32_t k, int lost)
{
    uint32_t n = (len + PMTU - 1) / PMTU;
    F.n = 0;
    frame(1, IBW_OP_RC_RDMA_READ_REQUEST, psn_at(0), VA0, len, 0);
    responses_but(0, 0, n, len, lost ? k : UINT32_MAX);
    frame(1, IBW_OP_RC_RDMA_READ_REQUEST, psn_at(k), VA0 + (uint64_t)k * PMTU,
          len - k * PMTU, 0);
}

static void prologue(uint32_t len, uint32_t k) { prologue_lost(len, k, 0); }

int main(void)
{
    static const uint32_t lens[] = {200, 500, 1000}; /* 1, 2 and 4 PSNs */
    for (unsigned li = 0; li < 3; li++) {
        uint32_t len = lens[li], n = (len + PMTU - 1) / PMTU;
        uint32_t ks[3] = {0, n / 2, n - 1};
        for (unsigned ki = 0; ki < 3; ki++) {
            uint32_t k = ks[ki];
            char name[96];
            /* the two choices: a READ of its own, the original span */
            prologue(len, k);
            responses(k, k, n, len);
            snprintf(name, sizeof name, "len %u from PSN %u: FIRST from it", len, k);
            expect(name, 0);
            prologue(len, k);
            responses(0, k, n, len);
            snprintf(name, sizeof name, "len %u from PSN %u: the original span",
                     len, k);
            expect(name, 0);
            /* the same from the requester's side: the response at k never
             * reached the capture point */
            if (k > 0) {
                prologue_lost(len, k, 1);
                responses(k, k, n, len);
                snprintf(name, sizeof name, "len %u from PSN %u, requester's side: "
                         "FIRST from it", len, k);
                expect(name, 0);
                prologue_lost(len, k, 1);
                responses(0, k, n, len);
                snprintf(name, sizeof name, "len %u from PSN %u, requester's side: "
                         "the original span", len, k);
                expect(name, 0);
            }
            if (n == 1)
                continue;
            /* ruled out: the opcodes of a span that starts a PSN later
             * than the re-issue (a FIRST or ONLY past it) */
            if (k + 1 < n) {
                prologue(len, k);
                responses(k + 1, k, n, len);
                snprintf(name, sizeof name, "len %u from PSN %u: a span one "
                         "PSN late", len, k);
                expect(name, 1);
            }
            /* ruled out: the whole READ again answered from its MIDDLE */
            if (k == 0) {
                prologue(len, 0);
                frame(0, n > 2 ? RR_MIDDLE : RR_LAST, psn_at(0), 0, 0, PMTU);
                responses(0, 1, n, len);
                snprintf(name, sizeof name, "len %u from PSN 0: no FIRST", len);
                expect(name, 1);
            }
        }
    }
    return tu_done("read_reissue");
}
