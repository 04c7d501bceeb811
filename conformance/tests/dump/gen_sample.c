/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gen_sample.c - writes pcaps/rocev2-rc-mixed.pcap, the sample capture the
 * README dumps:
 *
 *   gen_sample OUT.pcap
 *
 * One RoCEv2/IPv4 RC connection between two hosts (A 192.168.10.1 QP 0x11,
 * B 192.168.10.2 QP 0x22, PMTU 256), every packet built by ibw_build() with
 * consistent PSNs, MSNs and lengths and a good ICRC:
 *   RDMA WRITE FIRST/MIDDLE/LAST (600 bytes) and its ACK,
 *   SEND ONLY WITH IMMEDIATE and its ACK,
 *   RDMA READ REQUEST (512 bytes) and READ RESPONSE FIRST/LAST,
 *   COMPARE SWAP and FETCH ADD with their ATOMIC ACKNOWLEDGEs,
 *   SEND FIRST + SEND LAST WITH INVALIDATE, an RNR NAK, the retransmitted
 *   SEND FIRST + LAST and the ACK,
 *   RDMA WRITE ONLY WITH IMMEDIATE and a coalesced ACK.
 * Deterministic: the same bytes every run (a test compares the committed
 * file with a fresh one).  Later `ibwire gen` produces captures from the
 * reference engine; this one is small and hand-scripted.
 */
#include <stdio.h>
#include <string.h>

#include "capture.h"
#include "ibwire/packet.h"

enum { PMTU = 256, QP_A = 0x11, QP_B = 0x22 };

struct conn {
    struct cap_writer *w;
    uint64_t ts;
    uint32_t psn_a;  /* next PSN A sends */
    uint32_t msn_b;  /* B's message sequence number */
    uint8_t data[1024];
};

static void endpoint(struct ibw_build_spec *s, int from_a)
{
    static const uint8_t mac_a[6] = {0x02, 0x1b, 0x00, 0x00, 0x00, 0x0a};
    static const uint8_t mac_b[6] = {0x02, 0x1b, 0x00, 0x00, 0x00, 0x0b};
    static const uint8_t ip_a[4] = {192, 168, 10, 1};
    static const uint8_t ip_b[4] = {192, 168, 10, 2};
    memset(s, 0, sizeof *s);
    s->transport = IBW_TK_ROCE_V2_IP4;
    memcpy(s->smac, from_a ? mac_a : mac_b, 6);
    memcpy(s->dmac, from_a ? mac_b : mac_a, 6);
    memcpy(s->ip_src, from_a ? ip_a : ip_b, 4);
    memcpy(s->ip_dst, from_a ? ip_b : ip_a, 4);
    s->tos = 0x68; /* DSCP 26, ECN 0 */
    s->ttl = 64;
    s->ip_df = 1;
    s->udp_sport = from_a ? 0xC011 : 0xC022; /* per-QP flow entropy */
    s->bth.pkey = 0xFFFF;
    s->bth.destqp = from_a ? QP_B : QP_A;
}

static int send_pkt(struct conn *c, struct ibw_build_spec *s)
{
    uint8_t frame[512];
    size_t len;
    int rc = ibw_build(s, frame, sizeof frame, &len);
    if (rc != IBW_OK) {
        fprintf(stderr, "gen_sample: opcode 0x%02x: %s\n", s->bth.opcode,
                ibw_strerror(rc));
        return -1;
    }
    c->ts += 3000 + 17 * (len & 0xFF); /* a few microseconds apart */
    return cap_write(c->w, c->ts, frame, len, NULL);
}

/* A request from A: opcode, payload slice, AckReq. */
static int req(struct conn *c, uint8_t op, size_t off, size_t n, int ackreq,
               struct ibw_build_spec *s)
{
    s->bth.opcode = op;
    s->bth.psn = c->psn_a++ & 0xFFFFFF;
    s->bth.ackreq = (uint8_t)ackreq;
    s->payload = c->data + off;
    s->payload_len = n;
    return send_pkt(c, s);
}

/* An ACK (or NAK) from B for PSN psn. */
static int ack(struct conn *c, uint32_t psn, uint8_t syndrome)
{
    struct ibw_build_spec s;
    endpoint(&s, 0);
    s.bth.opcode = 0x11;
    s.bth.psn = psn;
    s.aeth.syndrome = syndrome;
    s.aeth.msn = c->msn_b;
    return send_pkt(c, &s);
}

static const uint64_t remote_va = 0x00007f3a12340000ull;
static const uint32_t remote_rkey = 0x1a2b3c;

/* A request from A that carries a RETH for remote_va + off. */
static void rdma_spec(struct ibw_build_spec *s, uint64_t off, uint32_t len)
{
    endpoint(s, 1);
    s->reth.va = remote_va + off;
    s->reth.rkey = remote_rkey;
    s->reth.dmalen = len;
}

/* A READ RESPONSE from B: PSN, payload slice. */
static int read_resp(struct conn *c, uint8_t op, uint32_t psn, size_t off,
                     size_t n)
{
    struct ibw_build_spec s;
    endpoint(&s, 0);
    s.bth.opcode = op;
    s.bth.psn = psn;
    s.aeth.syndrome = ibw_aeth_syndrome(IBW_AETH_ACK, 15);
    s.aeth.msn = c->msn_b;
    s.payload = c->data + off;
    s.payload_len = n;
    return send_pkt(c, &s);
}

static int script(struct conn *c)
{
    struct ibw_build_spec s;
    int rc = 0;

    /* RDMA WRITE of 600 bytes: 256 + 256 + 88. */
    rdma_spec(&s, 0, 600);
    rc |= req(c, 0x06, 0, PMTU, 0, &s);
    endpoint(&s, 1);
    rc |= req(c, 0x07, PMTU, PMTU, 0, &s);
    endpoint(&s, 1);
    rc |= req(c, 0x08, 2 * PMTU, 88, 1, &s);
    c->msn_b++;
    rc |= ack(c, c->psn_a - 1, ibw_aeth_syndrome(IBW_AETH_ACK, 16));

    /* SEND ONLY WITH IMMEDIATE, 32 bytes. */
    endpoint(&s, 1);
    s.immdt.imm = 0xC0FFEE01;
    s.bth.se = 1;
    rc |= req(c, 0x05, 600, 32, 1, &s);
    c->msn_b++;
    rc |= ack(c, c->psn_a - 1, ibw_aeth_syndrome(IBW_AETH_ACK, 15));

    /* RDMA READ of 512 bytes: one request, two response PSNs. */
    rdma_spec(&s, 0x1000, 512);
    uint32_t read_psn = c->psn_a;
    rc |= req(c, 0x0C, 0, 0, 1, &s);
    c->psn_a = read_psn + 2; /* the responses use PSN and PSN+1 */
    c->msn_b++;
    rc |= read_resp(c, 0x0D, read_psn, 100, PMTU);
    rc |= read_resp(c, 0x0F, read_psn + 1, 100 + PMTU, 512 - PMTU);

    /* COMPARE SWAP and FETCH ADD on one 8-byte word. */
    static const struct {
        uint8_t op;
        uint64_t swap, cmp, orig;
    } atomics[] = {{0x13, 0x2222, 0x1111, 0x1111},
                   {0x14, 5, 0, 0x2222}};
    for (size_t i = 0; i < 2; i++) {
        endpoint(&s, 1);
        s.atomiceth.va = remote_va + 0x2000;
        s.atomiceth.rkey = remote_rkey;
        s.atomiceth.swapdt = atomics[i].swap;
        s.atomiceth.cmpdt = atomics[i].cmp;
        rc |= req(c, atomics[i].op, 0, 0, 1, &s);
        c->msn_b++;
        endpoint(&s, 0);
        s.bth.opcode = 0x12;
        s.bth.psn = c->psn_a - 1;
        s.aeth.syndrome = ibw_aeth_syndrome(IBW_AETH_ACK, 14);
        s.aeth.msn = c->msn_b;
        s.atomicacketh.origremdt = atomics[i].orig;
        rc |= send_pkt(c, &s);
    }

    /* SEND of 300 bytes with invalidate: B has no receive WQE yet (RNR NAK,
     * timer code 14 = 1.28 ms, IBA table 46), A waits that long and sends
     * it again. */
    uint32_t send_psn = c->psn_a;
    for (int attempt = 0; attempt < 2; attempt++) {
        c->psn_a = send_psn;
        endpoint(&s, 1);
        rc |= req(c, 0x00, 200, PMTU, 0, &s);
        endpoint(&s, 1);
        s.ieth.rkey = 0x00abcd01;
        rc |= req(c, 0x16, 200 + PMTU, 300 - PMTU, 1, &s);
        if (attempt == 0) {
            rc |= ack(c, send_psn, ibw_aeth_syndrome(IBW_AETH_RNR_NAK, 14));
            c->ts += 1280000; /* the RNR wait the NAK asked for */
        }
    }
    c->msn_b++;
    rc |= ack(c, c->psn_a - 1, ibw_aeth_syndrome(IBW_AETH_ACK, 13));

    /* RDMA WRITE ONLY WITH IMMEDIATE, 64 bytes, and a second unacknowledged
     * WRITE ONLY, both covered by one ACK. */
    rdma_spec(&s, 0x3000, 64);
    s.immdt.imm = 0xC0FFEE02;
    rc |= req(c, 0x0B, 700, 64, 0, &s);
    c->msn_b++;
    rdma_spec(&s, 0x3040, 13); /* 3 pad bytes */
    rc |= req(c, 0x0A, 800, 13, 1, &s);
    c->msn_b++;
    rc |= ack(c, c->psn_a - 1, ibw_aeth_syndrome(IBW_AETH_ACK, 16));
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: gen_sample OUT.pcap\n");
        return 2;
    }
    static struct conn c;
    char err[512];
    c.w = cap_writer_open(argv[1], CAP_FORMAT_PCAP, CAP_LINKTYPE_ETHERNET,
                          err, sizeof err);
    if (!c.w) {
        fprintf(stderr, "gen_sample: %s\n", err);
        return 1;
    }
    c.ts = 1735689600ull * 1000000000ull; /* 2025-01-01T00:00:00Z */
    c.psn_a = 0x5A5A00;
    for (size_t i = 0; i < sizeof c.data; i++)
        c.data[i] = (uint8_t)(i * 7 + (i >> 8));
    int rc = script(&c);
    if (cap_writer_close(c.w) != 0 || rc != 0) {
        fprintf(stderr, "gen_sample: %s: write failed\n", argv[1]);
        return 1;
    }
    return 0;
}
