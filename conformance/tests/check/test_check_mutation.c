/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Mutation test: random single mutations (fixed seed) of the clean crafted
 * captures, each fed to the checker, which must notice:
 *   BYTE    one byte changed inside what the CRCs cover (CRCs left stale):
 *           an error on that frame.
 *   PSN     one PSN bit flipped in a request, CRCs recomputed: a finding
 *           on that frame or later, or a retransmission counted.
 *   OPCODE  a request's opcode replaced by another defined one, CRCs
 *           recomputed: a finding on that frame or later, unless the new
 *           opcode is a valid substitute (undetectable_opcode: same
 *           transport, answered alike, same message position, legal
 *           header chain and lengths; each one listed).
 *   SWEEP   every request of every clean capture swapped for every other
 *           defined opcode: noticed exactly when undetectable_opcode()
 *           does not allow the swap (no gap, no over-allowing).
 *   DROP    a request removed: a finding (the PSN gap) on the frames after.
 *   DUP     a request sent twice: a retransmission counted, or a finding.
 * The mutations come from the library (ibw_parse / ibw_pkt_store_crcs), not
 * from the checker under test.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "testutil.h"
#include "xorshift.h"

#define MAXF 64
#define MAXLEN 4200

struct cap {
    unsigned n;
    size_t len[MAXF];
    enum ibw_link link[MAXF];
    uint64_t ts[MAXF];
    uint8_t data[MAXF][MAXLEN];
};

static struct cap clean, mut;

static int load(const char *path, struct cap *c)
{
    char err[256];
    struct cap_reader *r = cap_open(path, err, sizeof err);
    struct cap_frame fr;
    if (!r) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    c->n = 0;
    while (cap_next(r, &fr) == 1 && c->n < MAXF) {
        if (!fr.iba || fr.iba_len > MAXLEN)
            continue;
        memcpy(c->data[c->n], fr.iba, fr.iba_len);
        c->len[c->n] = fr.iba_len;
        c->link[c->n] = fr.link;
        c->ts[c->n] = (uint64_t)fr.ts_sec * 1000000000u + fr.ts_nsec;
        c->n++;
    }
    cap_close(r);
    return 0;
}

struct verdict {
    uint64_t first_frame; /* first frame with a finding, 0 = none */
    uint64_t errors_at;   /* errors on the watched frame */
    uint64_t watch;
    uint64_t retrans;
};

static void on_finding(void *user, const struct chk_finding *f)
{
    struct verdict *v = user;
    if (!v->first_frame || f->frame < v->first_frame)
        v->first_frame = f->frame;
    if (f->frame == v->watch && f->severity == CHK_ERROR)
        v->errors_at++;
}

static void add_retrans(void *user, const struct chk_flow_summary *s)
{
    ((struct verdict *)user)->retrans += s->retransmissions;
}

static void judge(const struct cap *c, struct verdict *v, uint64_t watch)
{
    memset(v, 0, sizeof *v);
    v->watch = watch;
    struct chk_opts o = {0, on_finding, v, NULL, NULL, 0, 0, NULL, NULL, 0};
    struct chk *k = chk_new(&o);
    for (unsigned i = 0; i < c->n; i++)
        chk_bytes(k, i + 1, c->ts[i], c->data[i], c->len[i], c->link[i], 0);
    chk_finish(k);
    chk_flows(k, add_retrans, v);
    chk_free(k);
}

static int is_request(const struct cap *c, unsigned i, struct ibw_pkt *p);

static uint64_t rng = 0x1b5eed2024ull;
static uint32_t rnd(uint32_t n)
{
    return (uint32_t)(xorshift64_next(&rng) % n);
}

/* Frames that are RC/UC requests to a QP above 1. */
static int is_request(const struct cap *c, unsigned i, struct ibw_pkt *p)
{
    if (ibw_parse(c->data[i], c->len[i], c->link[i], p) != IBW_OK ||
        !ibw_pkt_has(p, IBW_HDR_BTH))
        return 0;
    const struct ibw_opcode_info *oi = ibw_opcode_info(p->opcode);
    return (oi->flags & IBW_OPF_REQUEST) && oi->transport != IBW_TR_UD &&
           ibw_bth_get_destqp(p->data + p->off[IBW_HDR_BTH]) > 1;
}

static unsigned pick_request(const struct cap *c, struct ibw_pkt *p)
{
    for (int tries = 0; tries < 1000; tries++) {
        unsigned i = rnd(c->n);
        if (is_request(c, i, p))
            return i;
    }
    return c->n;
}

/*
 * Bytes whose change no receiver could notice, left out: on RoCE the
 * variant fields the ICRC masks (BTH byte 4: FECN/BECN/resv6; GRH traffic
 * class, flow label, hop limit), and the fields that make the frame
 * another protocol's (IPv4 protocol, UDP destination port), after which it
 * is no longer IBA traffic at all.  Native IB has the VCRC over everything.
 */
static int invisible_byte(const struct ibw_pkt *p, size_t pos)
{
    if (ibw_pkt_has(p, IBW_HDR_LRH))
        return 0;
    if (pos == (size_t)p->off[IBW_HDR_BTH] + 4)
        return 1;
    if (ibw_pkt_has(p, IBW_HDR_GRH)) {
        size_t g = p->off[IBW_HDR_GRH];
        if (pos < g + 4 || pos == g + 7)
            return 1;
    }
    if (ibw_pkt_has(p, IBW_HDR_IPV4) && pos == (size_t)p->off[IBW_HDR_IPV4] + 9)
        return 1;
    if (ibw_pkt_has(p, IBW_HDR_UDP) &&
        (pos == (size_t)p->off[IBW_HDR_UDP] + 2 ||
         pos == (size_t)p->off[IBW_HDR_UDP] + 3))
        return 1;
    return 0;
}

/* The IPv4 IHL says where the UDP header starts: change it and the UDP
 * header (port 4791) is read from elsewhere, so, as with the protocol
 * byte, the datagram is no longer RoCEv2 to any receiver. */
static int ihl_bit(const struct ibw_pkt *p, size_t pos, uint8_t bit)
{
    return ibw_pkt_has(p, IBW_HDR_IPV4) && pos == (size_t)p->off[IBW_HDR_IPV4] &&
           (bit & 0x0F);
}

static int has_copy(const struct cap *c, unsigned i);

/* Is request i redundant: the same PSN to the same QP sent again in the
 * capture (a retransmission copy), or a UC packet (nothing answers it)?
 * Dropping it leaves a valid capture. */
static int redundant(const struct cap *c, unsigned i)
{
    struct ibw_pkt p;
    if (!is_request(c, i, &p))
        return 0;
    return ibw_opcode_info(p.opcode)->transport == IBW_TR_UC || has_copy(c, i);
}

static unsigned position(const struct ibw_opcode_info *oi)
{
    return oi->flags & (IBW_OPF_FIRST | IBW_OPF_MIDDLE | IBW_OPF_LAST);
}

/* What answers a request: SEND and RDMA WRITE are answered by ACKs alone,
 * CmpSwap and FetchAdd by an ATOMIC ACKNOWLEDGE; the others (READ, FLUSH,
 * ATOMIC WRITE) each by something of its own. */
static int answer_class(const struct ibw_opcode_info *oi)
{
    switch (oi->kind) {
    case IBW_OPK_SEND:
    case IBW_OPK_WRITE: return 1;
    case IBW_OPK_ATOMIC: return 2;
    default: return 0;
    }
}

/* The PMTU the capture shows for request i's flow: the payload of any of
 * its FIRST/MIDDLE packets (those carry exactly the PMTU), else 4096. */
static uint32_t shown_pmtu(const struct cap *c, unsigned i)
{
    struct ibw_pkt p, q;
    if (!is_request(c, i, &p))
        return 4096;
    uint32_t dqp = ibw_bth_get_destqp(p.data + p.off[IBW_HDR_BTH]);
    for (unsigned k = 0; k < c->n; k++) {
        if (!is_request(c, k, &q) ||
            ibw_bth_get_destqp(q.data + q.off[IBW_HDR_BTH]) != dqp)
            continue;
        unsigned pos = position(ibw_opcode_info(q.opcode));
        if (pos == IBW_OPF_FIRST || pos == IBW_OPF_MIDDLE)
            return (uint32_t)q.payload_len;
    }
    return 4096;
}

/* Does request i have a copy (same PSN to the same QP: a retransmission)? */
static int has_copy(const struct cap *c, unsigned i)
{
    struct ibw_pkt p, q;
    if (!is_request(c, i, &p))
        return 0;
    const uint8_t *b = p.data + p.off[IBW_HDR_BTH];
    for (unsigned k = 0; k < c->n; k++) {
        if (k == i || !is_request(c, k, &q))
            continue;
        const uint8_t *bq = q.data + q.off[IBW_HDR_BTH];
        if (ibw_bth_get_psn(bq) == ibw_bth_get_psn(b) &&
            ibw_bth_get_destqp(bq) == ibw_bth_get_destqp(b))
            return 1;
    }
    return 0;
}

/*
 * Can request i of the clean capture, opcode old_op, turn into the opcode
 * of packet np (the same bytes re-read with the new opcode's header chain,
 * CRCs recomputed; parsed: the parse succeeded) and leave a capture no
 * receiver could fault?  Exactly when all of these hold:
 *  - The packet has no retransmitted copy in the capture: a copy carries
 *    the old opcode at the same PSN (FLOW-RETRANS-DIFF).
 *  - The same transport (opcode bits 7-5): a QP has one service type, and
 *    its other packets carry the old one (FLOW-TRANSPORT).
 *  - Answered alike: SEND and RDMA WRITE by ACKs alone, CmpSwap and
 *    FetchAdd by an ATOMIC ACKNOWLEDGE at their PSN.  Anything else (READ,
 *    FLUSH, ATOMIC WRITE, a response opcode) leaves the capture's answer at
 *    that PSN answering nothing, or gets an answer of the wrong kind.
 *  - The same position class (FIRST, MIDDLE, LAST, ONLY), and inside a
 *    multi-packet message the same operation: the packets around it carry
 *    on the old message (FLOW-OPSEQ).  So FIRST and MIDDLE have no
 *    substitute at all (SEND FIRST/MIDDLE, WRITE FIRST/MIDDLE are alone in
 *    their class), LAST only its variants (SEND LAST / WITH IMMEDIATE /
 *    WITH INVALIDATE; WRITE LAST / WITH IMMEDIATE), ONLY any SEND or WRITE
 *    ONLY variant, an atomic the other atomic.
 *  - The header chain fits and the payload length stays legal.  The new
 *    extension headers (ImmDt 4, IETH 4, RETH 16 bytes) take bytes from, or
 *    give bytes back to, the payload; header lengths are multiples of 4, so
 *    the unchanged PadCnt stays right as long as some payload is left to
 *    pad (none left: only with PadCnt 0).  A LAST packet keeps at least 1
 *    byte; an ONLY packet that grows stays within the PMTU the capture
 *    shows for the flow (a WRITE ONLY of a full PMTU read as SEND ONLY is
 *    16 bytes too long).  Atomics: the same AtomicETH, no payload; FetchAdd
 *    ignores the Compare field, so any value is legal either way.
 *  - RDMA WRITE bytes add up to the RETH DMA Length (FLOW-WRITE-LEN): a
 *    WRITE LAST variant must keep its payload length, so only one with the
 *    same headers (none: WRITE LAST <-> WITH IMMEDIATE moves 4 bytes); a
 *    packet becoming WRITE ONLY (WITH IMMEDIATE) must carry exactly the DMA
 *    Length its RETH now reads (a SEND's first payload bytes by chance, or a
 *    WRITE ONLY's own RETH when the ImmDt presence is unchanged).  SEND has
 *    no length on the wire.
 * Hence the undetectable swaps: SEND ONLY <-> WITH IMMEDIATE <-> WITH
 * INVALIDATE (header sizes differ, but the payload gives or takes the 4
 * bytes; not on an empty SEND ONLY), SEND LAST <-> its variants, WRITE ONLY
 * (WITH IMMEDIATE) -> SEND ONLY variants (RETH read as payload, within the
 * PMTU), CmpSwap <-> FetchAdd - each only on a packet sent once.
 * Receive-queue use is not on the wire either (a WRITE without immediate
 * consumes no receive WQE), but an RNR NAK for a request that became one
 * would be; the only swaps into WRITE ONLY need the DMA-length coincidence
 * above, and RNR-NAKed requests have copies (their resends) anyway.
 */
static int undetectable_opcode(const struct cap *c, unsigned i, uint8_t old_op,
                               const struct ibw_pkt *np, int parsed)
{
    const struct ibw_opcode_info *oo = ibw_opcode_info(old_op);
    const struct ibw_opcode_info *no = ibw_opcode_info(np->opcode);
    unsigned pos = position(no);
    if (!parsed || has_copy(c, i) || oo->transport != no->transport ||
        position(oo) != pos)
        return 0;
    if (!answer_class(oo) || answer_class(oo) != answer_class(no))
        return 0;
    if (no->kind == IBW_OPK_ATOMIC)
        return 1; /* same headers, no payload */
    if (pos != IBW_OPF_ONLY && oo->kind != no->kind)
        return 0;
    if (pos == IBW_OPF_FIRST || pos == IBW_OPF_MIDDLE)
        return 0; /* alone in their class: only the opcode itself */
    uint8_t pad = ibw_bth_get_padcnt(np->data + np->off[IBW_HDR_BTH]);
    if (np->payload_len == 0 && (pad || pos == IBW_OPF_LAST))
        return 0;
    if (np->payload_len > shown_pmtu(c, i))
        return 0;
    if (no->kind == IBW_OPK_WRITE && pos == IBW_OPF_LAST)
        return oo->hdrs == no->hdrs;
    if (no->kind == IBW_OPK_WRITE)
        return ibw_reth_get_dmalen(np->data + np->off[IBW_HDR_RETH]) ==
               np->payload_len;
    return 1;
}

/* Every request of the clean capture swapped for every other defined
 * opcode: noticed exactly when undetectable_opcode() says it can be.  A
 * silent swap it does not allow is a checker gap; a noticed swap it allows
 * is a criterion too loose (or a false finding).  Counts into sw[4]:
 * swaps, valid substitutes, gaps, over-allowed. */
static void sweep_opcodes(const char *file, const struct verdict *base,
                          unsigned sw[4])
{
    struct ibw_pkt p;
    for (unsigned i = 0; i < clean.n; i++) {
        if (!is_request(&clean, i, &p))
            continue;
        uint8_t old_op = p.opcode;
        size_t bth = p.off[IBW_HDR_BTH];
        for (unsigned op = 0; op < 256; op++) {
            struct verdict v;
            if (!ibw_opcode_valid((uint8_t)op) || op == old_op)
                continue;
            mut = clean;
            mut.data[i][bth] = (uint8_t)op;
            int parsed = ibw_parse(mut.data[i], mut.len[i], mut.link[i], &p) ==
                         IBW_OK;
            ibw_pkt_store_crcs(mut.data[i], &p);
            judge(&mut, &v, i + 1);
            int noticed = (v.first_frame && v.first_frame >= i + 1) ||
                          v.retrans > base->retrans;
            int valid = undetectable_opcode(&clean, i, old_op, &p, parsed);
            sw[0]++;
            sw[1] += (unsigned)valid;
            if (noticed == !valid)
                continue;
            sw[noticed ? 3 : 2]++;
            fprintf(stderr, "%s: sweep frame %u %s -> %s: %s\n", file, i + 1,
                    ibw_opcode_info(old_op)->name,
                    ibw_opcode_info((uint8_t)op)->name,
                    noticed ? "noticed, but allowed as a valid substitute"
                            : "not noticed: MISSED");
        }
    }
}

enum { M_BYTE, M_PSN, M_OPCODE, M_DROP, M_DUP, M_COUNT };
static const char *const mname[M_COUNT] = {"byte", "psn", "opcode", "drop",
                                           "dup"};

int main(int argc, char **argv)
{
    static const char *const files[] = {
        "crafted-rc-clean.pcap", "crafted-loss-clean.pcap",
        "crafted-uc-ud-clean.pcap", "crafted-ib-clean.pcap",
        "crafted-rocev1-clean.pcap",
        /* engine-generated (conformance/tool/gen_engine.c); engine-rc-loss-nak
         * is left out: its gap warning is its expected verdict, not clean */
        "engine-cm.pcap", "engine-rc-loss-timeout.pcap",
        "engine-rc-ops.pcap", "engine-rc-ops-erf.pcap",
        "engine-rc-ops-ib.pcap", "engine-rc-ops-rocev1.pcap",
        "engine-rc-rnr.pcap", "engine-uc.pcap", "engine-ud.pcap"};
    const char *dir = argc > 1 ? argv[1] : "pcaps";
    unsigned tried[M_COUNT] = {0}, caught[M_COUNT] = {0};
    unsigned undetectable = 0; /* opcode swaps to a valid substitute */
    unsigned sw[4] = {0};
    for (unsigned fi = 0; fi < sizeof files / sizeof files[0]; fi++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, files[fi]);
        TU_CHECK(load(path, &clean) == 0);
        struct verdict base;
        judge(&clean, &base, 0);
        TU_EQ(base.first_frame, 0); /* clean really is clean */
        sweep_opcodes(files[fi], &base, sw);
        for (unsigned round = 0; round < 200; round++) {
            unsigned m = rnd(M_COUNT), i;
            struct ibw_pkt p;
            struct verdict v;
            mut = clean;
            if (m == M_BYTE) {
                i = rnd(clean.n);
                ibw_parse(mut.data[i], mut.len[i], mut.link[i], &p);
                size_t lo = ibw_pkt_has(&p, IBW_HDR_LRH) ? p.off[IBW_HDR_LRH]
                            : ibw_pkt_has(&p, IBW_HDR_IPV4) ? p.off[IBW_HDR_IPV4]
                            : ibw_pkt_has(&p, IBW_HDR_IPV6) ? p.off[IBW_HDR_IPV6]
                                                            : p.off[IBW_HDR_GRH];
                size_t pos = lo + rnd((uint32_t)(p.iba_end - lo));
                if (invisible_byte(&p, pos))
                    continue;
                uint8_t bit = (uint8_t)(1u << rnd(8));
                if (ihl_bit(&p, pos, bit))
                    continue;
                mut.data[i][pos] ^= bit;
                judge(&mut, &v, i + 1);
                tried[m]++;
                if (v.errors_at)
                    caught[m]++;
                else
                    fprintf(stderr, "%s: byte %zu of frame %u (0x%02x -> "
                            "0x%02x): no error\n", files[fi], pos, i + 1,
                            clean.data[i][pos], mut.data[i][pos]);
                continue;
            }
            i = pick_request(&clean, &p);
            if (i == clean.n)
                continue;
            ibw_parse(mut.data[i], mut.len[i], mut.link[i], &p);
            size_t bth = p.off[IBW_HDR_BTH];
            tried[m]++;
            if (m == M_PSN || m == M_OPCODE) {
                uint8_t old_op = p.opcode;
                if (m == M_PSN) {
                    uint32_t psn = ibw_bth_get_psn(mut.data[i] + bth);
                    ibw_bth_set_psn(mut.data[i] + bth, psn ^ (1u << rnd(24)));
                } else {
                    uint8_t op;
                    do
                        op = (uint8_t)rnd(256);
                    while (!ibw_opcode_valid(op) || op == p.opcode);
                    mut.data[i][bth] = op;
                }
                int parsed = ibw_parse(mut.data[i], mut.len[i], mut.link[i],
                                       &p) == IBW_OK;
                ibw_pkt_store_crcs(mut.data[i], &p);
                judge(&mut, &v, i + 1);
                if ((v.first_frame && v.first_frame >= i + 1) ||
                    v.retrans > base.retrans) {
                    caught[m]++;
                } else if (m == M_OPCODE && undetectable_opcode(&clean, i, old_op,
                                                                &p, parsed)) {
                    undetectable++;
                    fprintf(stderr, "%s: frame %u %s -> %s (PSN 0x%06x, "
                            "payload %u): a valid substitute, not noticed\n",
                            files[fi], i + 1, ibw_opcode_info(old_op)->name,
                            ibw_opcode_info(p.opcode)->name,
                            ibw_bth_get_psn(mut.data[i] + bth),
                            (unsigned)p.payload_len);
                } else {
                    fprintf(stderr, "%s: %s mutation of frame %u (%s -> %s, "
                            "PSN 0x%06x) not noticed: MISSED\n", files[fi],
                            mname[m], i + 1, ibw_opcode_info(old_op)->name,
                            ibw_opcode_info(mut.data[i][bth])->name,
                            ibw_bth_get_psn(mut.data[i] + bth));
                }
                continue;
            }
            if (m == M_DROP && redundant(&clean, i)) {
                tried[m]--;
                continue;
            }
            if (m == M_DROP) {
                memmove(&mut.data[i], &mut.data[i + 1],
                        (clean.n - i - 1) * sizeof mut.data[0]);
                memmove(&mut.len[i], &mut.len[i + 1],
                        (clean.n - i - 1) * sizeof mut.len[0]);
                memmove(&mut.link[i], &mut.link[i + 1],
                        (clean.n - i - 1) * sizeof mut.link[0]);
                memmove(&mut.ts[i], &mut.ts[i + 1],
                        (clean.n - i - 1) * sizeof mut.ts[0]);
                mut.n--;
                judge(&mut, &v, 0);
                if (v.first_frame >= i + 1)
                    caught[m]++;
                else
                    fprintf(stderr, "%s: dropping frame %u not noticed\n",
                            files[fi], i + 1);
                continue;
            }
            /* M_DUP */
            if (clean.n >= MAXF)
                continue;
            memmove(&mut.data[i + 1], &mut.data[i],
                    (clean.n - i) * sizeof mut.data[0]);
            memmove(&mut.len[i + 1], &mut.len[i], (clean.n - i) * sizeof mut.len[0]);
            memmove(&mut.link[i + 1], &mut.link[i],
                    (clean.n - i) * sizeof mut.link[0]);
            memmove(&mut.ts[i + 1], &mut.ts[i], (clean.n - i) * sizeof mut.ts[0]);
            mut.n++;
            judge(&mut, &v, 0);
            if (v.retrans > base.retrans || v.first_frame)
                caught[m]++;
            else
                fprintf(stderr, "%s: duplicating frame %u not noticed\n",
                        files[fi], i + 1);
        }
    }
    for (unsigned m = 0; m < M_COUNT; m++)
        printf("%-7s %u/%u noticed%s\n", mname[m], caught[m], tried[m],
               m == M_OPCODE ? " (plus the valid substitutes)" : "");
    printf("opcode  %u valid substitutes (undetectable_opcode)\n",
           undetectable);
    printf("sweep   %u opcode swaps, %u valid substitutes, %u missed, "
           "%u noticed though allowed\n", sw[0], sw[1], sw[2], sw[3]);
    TU_CHECK(sw[0] > 1000);
    TU_EQ(sw[2], 0);
    TU_EQ(sw[3], 0);
    for (unsigned m = 0; m < M_COUNT; m++) {
        TU_CHECK(tried[m] > 20);
        TU_EQ(caught[m] + (m == M_OPCODE ? undetectable : 0), tried[m]);
    }
    return tu_done("check_mutation");
}
