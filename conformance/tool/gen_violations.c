/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gen_violations.c - crafted scenarios for `ibwire gen`: short packet
 * sequences built with ibw_build(), clean ones (every operation, loss and
 * recovery, UC/UD/CNP, native IB, RoCEv1, a CM connect/disconnect) and one
 * per error rule of the checker, each breaking that rule at a known frame.
 * The expected verdicts are written here by hand from the scenario's design
 * (which frame breaks which rule), not by running the checker.
 *
 * Host A (10.0.0.1, LID 1, QPN 0x000011) is the requester unless said
 * otherwise; host B (10.0.0.2, LID 2, QPN 0x000022) the responder.
 */
#include <string.h>

#include "gen.h"
#include "ibwire/cm.h"
#include "ibwire/mad.h"

enum { A = 0, B = 1 };
#define QPN_A 0x000011u
#define QPN_B 0x000022u
#define PSN_A 0x000100u /* A's starting PSN */
#define PSN_B 0x000200u /* B's starting PSN */
#define GSI_QKEY 0x80010000u
#define V2 IBW_TK_ROCE_V2_IP4

static const uint8_t *pattern(void)
{
    static uint8_t buf[8192];
    if (!buf[1])
        for (unsigned i = 0; i < sizeof buf; i++)
            buf[i] = (uint8_t)(i * 7 + 1);
    return buf;
}

/* Addresses and routing for a packet from `from` over transport tk. */
static void base(struct ibw_build_spec *s, unsigned tk, int from)
{
    static const uint8_t mac[2][6] = {{0x02, 0, 0, 0, 0, 0x01},
                                      {0x02, 0, 0, 0, 0, 0x02}};
    static const uint8_t ip[2][4] = {{10, 0, 0, 1}, {10, 0, 0, 2}};
    int to = !from;
    memset(s, 0, sizeof *s);
    s->transport = (uint8_t)tk;
    memcpy(s->smac, mac[from], 6);
    memcpy(s->dmac, mac[to], 6);
    memcpy(s->ip_src, ip[from], 4);
    memcpy(s->ip_dst, ip[to], 4);
    s->ttl = 64;
    s->ip_df = 1;
    s->udp_sport = (uint16_t)(0xC000 + from);
    s->lrh.slid = (uint16_t)(from + 1);
    s->lrh.dlid = (uint16_t)(to + 1);
    /* RoCEv1 GIDs: IPv4-mapped, as RoCE stacks form them */
    s->grh.sgid[10] = s->grh.sgid[11] = 0xFF;
    s->grh.dgid[10] = s->grh.dgid[11] = 0xFF;
    memcpy(s->grh.sgid + 12, ip[from], 4);
    memcpy(s->grh.dgid + 12, ip[to], 4);
    s->grh.hoplmt = 64;
    s->bth.pkey = 0xFFFF;
}

/* An RC/UC packet from `from` to the other side's QP. */
static void rc(struct ibw_build_spec *s, unsigned tk, int from, uint8_t op,
               uint32_t psn)
{
    base(s, tk, from);
    s->bth.opcode = op;
    s->bth.destqp = from == A ? QPN_B : QPN_A;
    s->bth.psn = psn & 0xFFFFFFu;
}

static void pl(struct ibw_build_spec *s, size_t len)
{
    s->payload = pattern();
    s->payload_len = len;
}

/* Put an RC request of len payload bytes; an RETH (WRITE FIRST) names
 * dmalen bytes, the whole WRITE's length. */
static void req_dma(struct gen_out *o, unsigned tk, int from, uint8_t op,
                    uint32_t psn, size_t len, uint32_t dmalen)
{
    struct ibw_build_spec s;
    rc(&s, tk, from, op, psn);
    pl(&s, len);
    s.reth.va = 0x10000;
    s.reth.rkey = 0x1234;
    s.reth.dmalen = dmalen;
    s.immdt.imm = 0xCAFE;
    s.bth.ackreq = ibw_opcode_is_last(op) != 0;
    gen_put(o, &s);
}

/* Put an RC request of len payload bytes, a whole message if it has RETH. */
static void req(struct gen_out *o, unsigned tk, int from, uint8_t op,
                uint32_t psn, size_t len)
{
    req_dma(o, tk, from, op, psn, len, (uint32_t)len);
}

/* Put an ACKNOWLEDGE (or NAK) from `from`. */
static void ack(struct gen_out *o, unsigned tk, int from, uint32_t psn,
                uint8_t syndrome, uint32_t msn)
{
    struct ibw_build_spec s;
    rc(&s, tk, from, IBW_OP_RC_ACKNOWLEDGE, psn);
    s.aeth.syndrome = syndrome;
    s.aeth.msn = msn;
    gen_put(o, &s);
}

/* ACK without end-to-end credits, NAK PSN sequence error, RNR NAK */
#define SYN_ACK ibw_aeth_syndrome(IBW_AETH_ACK, IBW_AETH_CREDIT_INVALID)
#define SYN_NAK_SEQ ibw_aeth_syndrome(IBW_AETH_NAK, IBW_NAK_PSN_SEQ_ERROR)
#define SYN_RNR(t) ibw_aeth_syndrome(IBW_AETH_RNR_NAK, (t))
#define SYN_NAK_INV ibw_aeth_syndrome(IBW_AETH_NAK, IBW_NAK_INVALID_REQUEST)
#define SYN_NAK_ACC ibw_aeth_syndrome(IBW_AETH_NAK, IBW_NAK_REMOTE_ACCESS_ERROR)

/* An RDMA READ request of len bytes from va. */
static void read_req_va(struct gen_out *o, unsigned tk, int from, uint32_t psn,
                        uint64_t va, uint32_t len)
{
    struct ibw_build_spec s;
    rc(&s, tk, from, IBW_OP_RC_RDMA_READ_REQUEST, psn);
    s.reth.va = va;
    s.reth.rkey = 0x5678;
    s.reth.dmalen = len;
    s.bth.ackreq = 1;
    gen_put(o, &s);
}

static void read_req(struct gen_out *o, unsigned tk, int from, uint32_t psn,
                     uint32_t len)
{
    struct ibw_build_spec s;
    rc(&s, tk, from, IBW_OP_RC_RDMA_READ_REQUEST, psn);
    s.reth.va = 0x20000;
    s.reth.rkey = 0x5678;
    s.reth.dmalen = len;
    s.bth.ackreq = 1;
    gen_put(o, &s);
}

static void read_resp(struct gen_out *o, unsigned tk, int from, uint8_t op,
                      uint32_t psn, size_t len, uint32_t msn)
{
    struct ibw_build_spec s;
    rc(&s, tk, from, op, psn);
    pl(&s, len);
    s.aeth.syndrome = SYN_ACK;
    s.aeth.msn = msn;
    gen_put(o, &s);
}

static void fetch_add(struct gen_out *o, unsigned tk, int from, uint32_t psn,
                      uint64_t va)
{
    struct ibw_build_spec s;
    rc(&s, tk, from, IBW_OP_RC_FETCH_ADD, psn);
    s.atomiceth.va = va;
    s.atomiceth.rkey = 0x9ABC;
    s.atomiceth.swapdt = 1;
    s.bth.ackreq = 1;
    gen_put(o, &s);
}

static void atomic_ack_val(struct gen_out *o, unsigned tk, int from,
                           uint32_t psn, uint32_t msn, uint64_t orig)
{
    struct ibw_build_spec s;
    rc(&s, tk, from, IBW_OP_RC_ATOMIC_ACKNOWLEDGE, psn);
    s.aeth.syndrome = SYN_ACK;
    s.aeth.msn = msn;
    s.atomicacketh.origremdt = orig;
    gen_put(o, &s);
}

static void atomic_ack(struct gen_out *o, unsigned tk, int from, uint32_t psn,
                       uint32_t msn)
{
    atomic_ack_val(o, tk, from, psn, msn, 41);
}

/* A datagram (UD SEND ONLY) carrying bytes from `from` to dqp. */
static void ud(struct gen_out *o, unsigned tk, int from, uint32_t dqp,
               uint32_t sqp, uint32_t qkey, const uint8_t *data, size_t len,
               uint8_t vl)
{
    struct ibw_build_spec s;
    base(&s, tk, from);
    s.bth.opcode = IBW_OP_UD_SEND_ONLY;
    s.bth.destqp = dqp;
    s.deth.qkey = qkey;
    s.deth.srcqp = sqp;
    s.lrh.vl = vl;
    s.payload = data;
    s.payload_len = len;
    gen_put(o, &s);
}

static void mad_put(struct gen_out *o, unsigned tk, int from, const uint8_t *mad)
{
    ud(o, tk, from, 1, 1, GSI_QKEY, mad, IBW_MAD_SIZE, 0);
}

/* CM messages between A (client) and B (server). */
#define CID_A 0x0A0A0001u
#define CID_B 0x0B0B0002u

static void cm_req(struct gen_out *o, unsigned tk, uint8_t pmtu, uint32_t psn)
{
    uint8_t mad[IBW_MAD_SIZE];
    struct ibw_cm_req m;
    memset(&m, 0, sizeof m);
    m.localcommid = CID_A;
    m.serviceid = ibw_cm_ip_service_id(6, 18515);
    m.localqpn = QPN_A;
    m.startpsn = psn;
    m.pkey = 0xFFFF;
    m.pppmtu = pmtu;
    m.remoteresptout = 20; /* 4.3 s */
    m.localresptout = 20;
    m.retrcount = 7;
    m.rnrretrcount = 7;
    m.maxcmretr = 15;
    m.prim_locallid = 1;
    m.prim_remotelid = 2;
    ibw_cm_req_mad_encode(&m, 1, mad, sizeof mad);
    mad_put(o, tk, A, mad);
}

static void cm_rep(struct gen_out *o, unsigned tk, uint32_t psn)
{
    uint8_t mad[IBW_MAD_SIZE];
    struct ibw_cm_rep m;
    memset(&m, 0, sizeof m);
    m.localcommid = CID_B;
    m.remotecommid = CID_A;
    m.localqpn = QPN_B;
    m.startpsn = psn;
    m.rnrretrcount = 7;
    ibw_cm_rep_mad_encode(&m, 2, mad, sizeof mad);
    mad_put(o, tk, B, mad);
}

static void cm_rtu(struct gen_out *o, unsigned tk, uint32_t remote)
{
    uint8_t mad[IBW_MAD_SIZE];
    struct ibw_cm_rtu m;
    memset(&m, 0, sizeof m);
    m.localcommid = CID_A;
    m.remotecommid = remote;
    ibw_cm_rtu_mad_encode(&m, 1, mad, sizeof mad);
    mad_put(o, tk, A, mad);
}

/* A's REQ (path MTU code pmtu, A's first PSN PSN_A), B's REP (PSN_B) and
 * A's RTU naming remote as B's communication ID, over RoCEv2. */
static void cm_connect(struct gen_out *o, uint8_t pmtu, uint32_t remote)
{
    cm_req(o, V2, pmtu, PSN_A);
    cm_rep(o, V2, PSN_B);
    cm_rtu(o, V2, remote);
}

static void cm_dreq_drep(struct gen_out *o, unsigned tk)
{
    uint8_t mad[IBW_MAD_SIZE];
    struct ibw_cm_dreq q;
    memset(&q, 0, sizeof q);
    q.localcommid = CID_A;
    q.remotecommid = CID_B;
    q.remoteqpneecn = QPN_B;
    ibw_cm_dreq_mad_encode(&q, 3, mad, sizeof mad);
    mad_put(o, tk, A, mad);
    struct ibw_cm_drep p;
    memset(&p, 0, sizeof p);
    p.localcommid = CID_B;
    p.remotecommid = CID_A;
    ibw_cm_drep_mad_encode(&p, 3, mad, sizeof mad);
    mad_put(o, tk, B, mad);
}

/* ------------------------------------------------------------------------ */
/* Clean scenarios                                                          */
/* ------------------------------------------------------------------------ */

/* 1-3 CM; 4-7 SEND of 2148 bytes + ACK; 8-9 WRITE ONLY + ACK; 10-13 READ of
 * 2500 bytes (3 PSNs at PMTU 1024); 14-15 FETCH ADD + atomic ACK; 16-17 B
 * sends to A; 18-20 WRITE FIRST/LAST + ACK; 21-22 DREQ/DREP. */
static void rc_clean(struct gen_out *o)
{
    cm_connect(o, 3, CID_B);
    req(o, V2, A, IBW_OP_RC_SEND_FIRST, PSN_A, 1024);
    req(o, V2, A, IBW_OP_RC_SEND_MIDDLE, PSN_A + 1, 1024);
    req(o, V2, A, IBW_OP_RC_SEND_LAST, PSN_A + 2, 100);
    ack(o, V2, B, PSN_A + 2, SYN_ACK, 1);
    req(o, V2, A, IBW_OP_RC_RDMA_WRITE_ONLY, PSN_A + 3, 64);
    ack(o, V2, B, PSN_A + 3, SYN_ACK, 2);
    read_req(o, V2, A, PSN_A + 4, 2500);
    /* the READ counts when executed: all its responses carry MSN 3 (C9-148) */
    read_resp(o, V2, B, IBW_OP_RC_RDMA_READ_RESPONSE_FIRST, PSN_A + 4, 1024, 3);
    read_resp(o, V2, B, IBW_OP_RC_RDMA_READ_RESPONSE_MIDDLE,
              PSN_A + 5, 1024, 3);
    read_resp(o, V2, B, IBW_OP_RC_RDMA_READ_RESPONSE_LAST, PSN_A + 6, 452, 3);
    fetch_add(o, V2, A, PSN_A + 7, 0x3000);
    atomic_ack(o, V2, B, PSN_A + 7, 4);
    req(o, V2, B, IBW_OP_RC_SEND_ONLY_WITH_IMMEDIATE, PSN_B, 32);
    ack(o, V2, A, PSN_B, SYN_ACK, 1);
    req_dma(o, V2, A, IBW_OP_RC_RDMA_WRITE_FIRST, PSN_A + 8, 1024, 1034);
    req(o, V2, A, IBW_OP_RC_RDMA_WRITE_LAST, PSN_A + 9, 10);
    ack(o, V2, B, PSN_A + 9, SYN_ACK, 5);
    cm_dreq_drep(o, V2);
}

/* Loss and recovery, captured at the requester: PSN 1 lost on the way
 * (NAK, Go-Back-N), an RNR NAK and the wait, a timeout and resend. */
static void loss_clean(struct gen_out *o)
{
    req(o, V2, A, IBW_OP_RC_SEND_ONLY, 0, 64); /* 1 */
    req(o, V2, A, IBW_OP_RC_SEND_ONLY, 1, 64); /* 2, lost after the capture */
    req(o, V2, A, IBW_OP_RC_SEND_ONLY, 2, 64); /* 3 */
    ack(o, V2, B, 0, SYN_ACK, 1);              /* 4 */
    ack(o, V2, B, 1, SYN_NAK_SEQ, 1);          /* 5 expected PSN 1 */
    req(o, V2, A, IBW_OP_RC_SEND_ONLY, 1, 64); /* 6 resent */
    req(o, V2, A, IBW_OP_RC_SEND_ONLY, 2, 64); /* 7 resent */
    ack(o, V2, B, 2, SYN_ACK, 3);              /* 8 */
    req(o, V2, A, IBW_OP_RC_SEND_ONLY, 3, 64); /* 9 */
    ack(o, V2, B, 3, SYN_RNR(1), 3);           /* 10 RNR, 10 us */
    o->ts_ns += 20000;
    req(o, V2, A, IBW_OP_RC_SEND_ONLY, 3, 64); /* 11 resent after 30 us */
    ack(o, V2, B, 3, SYN_ACK, 4);              /* 12 */
    req(o, V2, A, IBW_OP_RC_SEND_ONLY, 4, 64); /* 13, its ACK is lost */
    o->ts_ns += 1000000;
    req(o, V2, A, IBW_OP_RC_SEND_ONLY, 4, 64); /* 14 resent after the timeout */
    ack(o, V2, B, 4, SYN_ACK, 5);              /* 15 */
}

/* READ responses replayed as Linux rxe replays them (rxe_resp.c): a READ
 * re-issued for its last response, lost after the capture point (here at
 * the responder), is answered from the responder's
 * saved resource with the current MSN, which counts the SEND executed
 * since; the network delivers that replay after the response of a later
 * READ (MSN 4).  No MSN rule is broken: every response carries what the
 * responder had completed by then (C9-148), and responses may be
 * reordered on their way. */
static void replay_clean(struct gen_out *o)
{
    req(o, V2, A, IBW_OP_RC_SEND_FIRST, 0, 1024);  /* 1 teaches PMTU 1024 */
    req(o, V2, A, IBW_OP_RC_SEND_LAST, 1, 24);     /* 2 */
    ack(o, V2, B, 1, SYN_ACK, 1);                  /* 3 */
    read_req_va(o, V2, A, 2, 0x20000, 2048);       /* 4 PSNs 2-3 */
    req(o, V2, A, IBW_OP_RC_SEND_ONLY, 4, 64);     /* 5 */
    read_resp(o, V2, B, IBW_OP_RC_RDMA_READ_RESPONSE_FIRST, 2, 1024, 2); /* 6 */
    /* 7 its LAST, lost after the capture point */
    read_resp(o, V2, B, IBW_OP_RC_RDMA_READ_RESPONSE_LAST, 3, 1024, 2);
    ack(o, V2, B, 4, SYN_ACK, 3);                  /* 8 the SEND */
    o->ts_ns += 200000;
    read_req_va(o, V2, A, 3, 0x20400, 1024);       /* 9 re-issued: the rest */
    read_req_va(o, V2, A, 5, 0x30000, 64);         /* 10 a new READ */
    read_resp(o, V2, B, IBW_OP_RC_RDMA_READ_RESPONSE_ONLY, 5, 64, 4); /* 11 */
    /* 12 the replay, sent before the READ at 5 was executed (rxe sends a
     * LAST here, the rest of the original; a new READ's ONLY fits too) */
    read_resp(o, V2, B, IBW_OP_RC_RDMA_READ_RESPONSE_ONLY, 3, 1024, 3);
}

/* UC WRITE of 2 PMTUs + 5 bytes, UD SENDs, a CNP. */
static void uc_ud_clean(struct gen_out *o)
{
    req_dma(o, V2, A, IBW_OP_UC_RDMA_WRITE_FIRST, 0x10, 1024, 2053);
    req(o, V2, A, IBW_OP_UC_RDMA_WRITE_MIDDLE, 0x11, 1024);
    req(o, V2, A, IBW_OP_UC_RDMA_WRITE_LAST, 0x12, 5);
    ud(o, V2, A, 0x33, 0x44, 0x11111111, pattern(), 100, 0);
    struct ibw_build_spec s;
    base(&s, V2, B);
    s.bth.opcode = IBW_OP_UD_SEND_ONLY_WITH_IMMEDIATE;
    s.bth.destqp = 0x44;
    s.deth.qkey = 0x11111111;
    s.deth.srcqp = 0x33;
    s.immdt.imm = 7;
    pl(&s, 0);
    gen_put(o, &s);
    base(&s, V2, B);
    s.bth.opcode = IBW_OP_CNP;
    s.bth.destqp = QPN_A;
    s.bth.becn = 1;
    gen_put(o, &s);
}

/* Native IB: an SMP NodeInfo Get on VL15 and its response, RC SEND + ACK. */
static void ib_clean(struct gen_out *o)
{
    uint8_t mad[IBW_MAD_SIZE];
    ibw_mad_hdr_fill(mad, sizeof mad, IBW_MGMT_CLASS_SUBN_LID_ROUTED, 1,
                     IBW_MAD_METHOD_GET, 5, IBW_SMP_ATTR_NODEINFO, 0);
    ud(o, IBW_TK_IB_LOCAL, A, 0, 0, 0, mad, sizeof mad, 15);
    ibw_mad_make_response(mad, sizeof mad, 0);
    ud(o, IBW_TK_IB_LOCAL, B, 0, 0, 0, mad, sizeof mad, 15);
    req(o, IBW_TK_IB_LOCAL, A, IBW_OP_RC_SEND_ONLY, 7, 200);
    ack(o, IBW_TK_IB_LOCAL, B, 7, SYN_ACK, 1);
}

/* RoCEv1: RDMA WRITE ONLY + ACK. */
static void rocev1_clean(struct gen_out *o)
{
    req(o, IBW_TK_ROCE_V1, A, IBW_OP_RC_RDMA_WRITE_ONLY, 0x500, 300);
    ack(o, IBW_TK_ROCE_V1, B, 0x500, SYN_ACK, 1);
}

/* ------------------------------------------------------------------------ */
/* One scenario per error rule                                              */
/* ------------------------------------------------------------------------ */

/* A SEND ONLY + ACK before the violation, so flows exist. */
static void prologue(struct gen_out *o)
{
    req(o, V2, A, IBW_OP_RC_SEND_ONLY, 0, 64);
    ack(o, V2, B, 0, SYN_ACK, 1);
}

/* Most packet rules are broken by bending one field of the SEND ONLY that
 * follows the prologue: put the prologue and leave that SEND's spec in s. */
static void prologue_then_send(struct gen_out *o, struct ibw_build_spec *s)
{
    prologue(o);
    rc(s, V2, A, IBW_OP_RC_SEND_ONLY, 1);
    pl(s, 64);
}

/* The same SEND as frame bytes in f, for the violations the builder will
 * not make (it always writes consistent IP and UDP headers); its length. */
static size_t prologue_then_send_bytes(struct gen_out *o, uint8_t *f,
                                       size_t cap)
{
    struct ibw_build_spec s;
    size_t len = 0;
    prologue_then_send(o, &s);
    ibw_build(&s, f, cap, &len);
    return len;
}

static void bad_malformed(struct gen_out *o)
{
    static uint8_t f[256];
    size_t len = prologue_then_send_bytes(o, f, sizeof f);
    ibw_store_be16(f + 14 + 20 + 4, 0x20); /* UDP Length says 32 bytes */
    gen_put_raw(o, f, len);
}

static void bad_icrc(struct gen_out *o)
{
    struct ibw_build_spec s;
    prologue_then_send(o, &s);
    s.flags = IBW_BUILD_BAD_ICRC;
    gen_put(o, &s);
}

static void bad_vcrc(struct gen_out *o)
{
    struct ibw_build_spec s;
    rc(&s, IBW_TK_IB_LOCAL, A, IBW_OP_RC_SEND_ONLY, 0);
    pl(&s, 64);
    s.flags = IBW_BUILD_BAD_VCRC;
    gen_put(o, &s);
}

static void bad_ip_csum(struct gen_out *o)
{
    static uint8_t f[256];
    size_t len = prologue_then_send_bytes(o, f, sizeof f);
    f[14 + 10] ^= 0x01; /* the ICRC masks the checksum: still valid */
    gen_put_raw(o, f, len);
}

static void bad_ip_version(struct gen_out *o)
{
    static uint8_t f[256];
    size_t len = prologue_then_send_bytes(o, f, sizeof f);
    f[14] = 0x55; /* version 5, IHL 5; UDP to 4791 still at byte 34 */
    /* a consistent header checksum, so only the version is wrong */
    ibw_ipv4_set_checksum(f + 14, 0);
    ibw_ipv4_set_checksum(f + 14, ibw_ipv4_checksum(f + 14, ibw_ipv4_SIZE));
    gen_put_raw(o, f, len);
}

static void bad_ip_frag(struct gen_out *o)
{
    static uint8_t f[256];
    size_t len = prologue_then_send_bytes(o, f, sizeof f);
    f[14 + 6] |= 0x20; /* MF: a fragment the parser leaves undecoded */
    gen_put_raw(o, f, len);
}

static void bad_udp_csum(struct gen_out *o)
{
    struct ibw_build_spec s;
    prologue_then_send(o, &s);
    s.udp_csum = 0x1234;
    gen_put(o, &s);
}

static void bad_version(struct gen_out *o)
{
    struct ibw_build_spec s;
    prologue_then_send(o, &s);
    s.bth.tver = 1;
    gen_put(o, &s);
}

static void bad_opcode(struct gen_out *o)
{
    struct ibw_build_spec s;
    base(&s, V2, A);
    /* UD SEND FIRST does not exist */
    s.bth.opcode = ibw_opcode_in_transport(IBW_OP_RC_SEND_FIRST, IBW_TR_UD);
    s.bth.destqp = 0x33;
    s.flags = IBW_BUILD_ANY_OPCODE;
    pl(&s, 64);
    gen_put(o, &s);
}

static void bad_reserved(struct gen_out *o)
{
    struct ibw_build_spec s;
    prologue_then_send(o, &s);
    s.bth.resv7 = 0x01;
    gen_put(o, &s);
}

static void bad_pad(struct gen_out *o)
{
    struct ibw_build_spec s;
    prologue(o);
    rc(&s, V2, A, IBW_OP_RC_SEND_ONLY, 1);
    pl(&s, 4);
    s.bth.padcnt = 1;
    s.flags = IBW_BUILD_KEEP_PADCNT;
    gen_put(o, &s);
}

static void bad_no_payload(struct gen_out *o)
{
    struct ibw_build_spec s;
    prologue(o);
    rc(&s, V2, A, IBW_OP_RC_RDMA_READ_REQUEST, 1);
    s.reth.dmalen = 64;
    pl(&s, 8); /* a READ request carries no payload */
    gen_put(o, &s);
}

static void bad_len_full(struct gen_out *o)
{
    req(o, V2, A, IBW_OP_RC_SEND_FIRST, 0, 1000); /* no PMTU is 1000 bytes */
    req(o, V2, A, IBW_OP_RC_SEND_LAST, 1, 10);
    /* the responder rejects it (an ACK would be FLOW-INVALID-ACCEPTED: a
     * FIRST of no PMTU's size is invalid on any path) */
    ack(o, V2, B, 0, SYN_NAK_INV, 0);
}

static void bad_len_last(struct gen_out *o)
{
    req(o, V2, A, IBW_OP_RC_SEND_FIRST, 0, 1024);
    /* more than the PMTU of 1024 */
    req(o, V2, A, IBW_OP_RC_SEND_LAST, 1, 2000);
    ack(o, V2, B, 1, SYN_ACK, 1);
}

static void bad_atomic_align(struct gen_out *o)
{
    prologue(o);
    fetch_add(o, V2, A, 1, 0x3004);
    /* the responder rejects it (an ATOMIC ACKNOWLEDGE would be
     * FLOW-INVALID-ACCEPTED) */
    ack(o, V2, B, 1, SYN_NAK_INV, 1);
}

static void bad_pkey(struct gen_out *o)
{
    struct ibw_build_spec s;
    rc(&s, V2, A, IBW_OP_RC_SEND_ONLY, 0);
    pl(&s, 64);
    s.bth.pkey = 0x8000;
    gen_put(o, &s);
}

static void bad_qp01_ud(struct gen_out *o)
{
    struct ibw_build_spec s;
    rc(&s, V2, A, IBW_OP_RC_SEND_ONLY, 0);
    s.bth.destqp = 1;
    pl(&s, 64);
    gen_put(o, &s);
}

static void bad_qp0_vl15(struct gen_out *o)
{
    uint8_t mad[IBW_MAD_SIZE];
    ibw_mad_hdr_fill(mad, sizeof mad, IBW_MGMT_CLASS_SUBN_LID_ROUTED, 1,
                     IBW_MAD_METHOD_GET, 5, IBW_SMP_ATTR_NODEINFO, 0);
    ud(o, IBW_TK_IB_LOCAL, A, 0, 0, 0, mad, sizeof mad, 0);
}

static void bad_aeth(struct gen_out *o)
{
    req(o, V2, A, IBW_OP_RC_SEND_ONLY, 0, 64);
    ack(o, V2, B, 0, 0x40, 1); /* syndrome kind 2 is reserved */
}

static void bad_cnp(struct gen_out *o)
{
    struct ibw_build_spec s;
    base(&s, V2, B);
    s.bth.opcode = IBW_OP_CNP;
    s.bth.destqp = QPN_A;
    s.bth.becn = 1;
    s.bth.ackreq = 1;
    gen_put(o, &s);
}

static void bad_mad(struct gen_out *o)
{
    uint8_t mad[IBW_MAD_SIZE];
    ibw_mad_hdr_fill(mad, sizeof mad, IBW_MGMT_CLASS_PERF_MGMT, 1,
                     IBW_MAD_METHOD_GET, 9, IBW_MAD_ATTR_CLASSPORTINFO, 0);
    mad[0] = 2; /* base version */
    mad_put(o, V2, A, mad);
}

static void bad_qp1_qkey(struct gen_out *o)
{
    uint8_t mad[IBW_MAD_SIZE];
    ibw_mad_hdr_fill(mad, sizeof mad, IBW_MGMT_CLASS_PERF_MGMT, 1,
                     IBW_MAD_METHOD_GET, 9, IBW_MAD_ATTR_CLASSPORTINFO, 0);
    ud(o, V2, A, 1, 1, 0x12345678, mad, sizeof mad, 0);
}

static void bad_opseq(struct gen_out *o)
{
    req(o, V2, A, IBW_OP_RC_SEND_FIRST, 0, 1024);
    /* a new message inside the open SEND */
    req(o, V2, A, IBW_OP_RC_SEND_ONLY, 1, 64);
    req(o, V2, A, IBW_OP_RC_SEND_LAST, 2, 10);
}

static void bad_flow_pkey(struct gen_out *o)
{
    struct ibw_build_spec s;
    prologue_then_send(o, &s);
    s.bth.pkey = 0xFFFE;
    s.bth.ackreq = 1;
    gen_put(o, &s);
}

static void bad_retrans_diff(struct gen_out *o)
{
    req(o, V2, A, IBW_OP_RC_SEND_ONLY, 0, 64);
    req(o, V2, A, IBW_OP_RC_SEND_ONLY, 1, 64);
    o->ts_ns += 1000000;
    req(o, V2, A, IBW_OP_RC_SEND_ONLY, 0, 32); /* resent with another length */
}

/* SENDs 0-3 (frames 1-4), ACK 0 (5), sequence NAK naming 1 (6). */
static void sends_then_nak1(struct gen_out *o)
{
    req(o, V2, A, IBW_OP_RC_SEND_ONLY, 0, 64); /* 1 */
    req(o, V2, A, IBW_OP_RC_SEND_ONLY, 1, 64); /* 2 */
    req(o, V2, A, IBW_OP_RC_SEND_ONLY, 2, 64); /* 3 */
    req(o, V2, A, IBW_OP_RC_SEND_ONLY, 3, 64); /* 4 */
    ack(o, V2, B, 0, SYN_ACK, 1);              /* 5 */
    ack(o, V2, B, 1, SYN_NAK_SEQ, 1);          /* 6 expected PSN 1 */
}

static void bad_gbn(struct gen_out *o)
{
    sends_then_nak1(o); /* 1-6 */
    req(o, V2, A, IBW_OP_RC_SEND_ONLY, 2, 64); /* 7 resends from 2, not 1 */
    req(o, V2, A, IBW_OP_RC_SEND_ONLY, 3, 64); /* 8 */
}

/* Zoo row 28 (Coyote PR 86): Go-Back-N that resends one packet and stops:
 * after the NAK naming 1 only PSN 1 comes again, then a new PSN. */
static void bad_gbn_stop(struct gen_out *o)
{
    sends_then_nak1(o); /* 1-6 */
    req(o, V2, A, IBW_OP_RC_SEND_ONLY, 1, 64); /* 7 resent */
    req(o, V2, A, IBW_OP_RC_SEND_ONLY, 4, 64); /* 8 new: 2-3 never resent */
    o->ts_ns += 1000000; /* (after the new PSN whatever the skew) */
    ack(o, V2, B, 2, SYN_NAK_SEQ, 2);          /* 9 expects 2 still */
}

/* Issue 31: PSN 0 resent 4 us after it was sent (the frames 1 us apart),
 * sooner than any local ACK timeout (4.096 us x 2^1), with no NAK. */
static void bad_resend_unjustified(struct gen_out *o)
{
    uint64_t step = o->step_ns;
    o->step_ns = 1000;
    req(o, V2, A, IBW_OP_RC_SEND_ONLY, 0, 64); /* 1 */
    req(o, V2, A, IBW_OP_RC_SEND_ONLY, 1, 64); /* 2 */
    req(o, V2, A, IBW_OP_RC_SEND_ONLY, 2, 64); /* 3 */
    req(o, V2, A, IBW_OP_RC_SEND_ONLY, 3, 64); /* 4 */
    req(o, V2, A, IBW_OP_RC_SEND_ONLY, 0, 64); /* 5 resent at once */
    o->step_ns = step;
    ack(o, V2, B, 3, SYN_ACK, 4);              /* 6 */
}

/* Issue 31: after the NAK naming 1 only PSN 1 is resent (and ACKed), then
 * the requester sends nothing for 9000 s while another QP's traffic goes
 * on: past 4.096 us x 2^31 (8796 s), the longest local ACK timeout. */
static void bad_gbn_quiet(struct gen_out *o)
{
    sends_then_nak1(o); /* 1-6 */
    req(o, V2, A, IBW_OP_RC_SEND_ONLY, 1, 64); /* 7 resent, and no more */
    ack(o, V2, B, 1, SYN_ACK, 2);              /* 8 */
    o->ts_ns += 9000000000000ull;
    struct ibw_build_spec s;                   /* 9 another QP's SEND */
    rc(&s, V2, A, IBW_OP_RC_SEND_ONLY, 0x100);
    s.bth.destqp ^= 0x40;
    pl(&s, 64);
    gen_put(o, &s);
}

/* Zoo row 6a at a PSN other than the READ's last: an ACK naming PSN 1,
 * inside a 3-packet READ's span, sent before the READ's responses. */
static void bad_ack_read(struct gen_out *o)
{
    read_req(o, V2, A, 0, 3 * 1024);                                 /* 1 */
    ack(o, V2, B, 1, SYN_ACK, 1);                                    /* 2 */
    read_resp(o, V2, B, IBW_OP_RC_RDMA_READ_RESPONSE_FIRST, 0, 1024, 1);
    read_resp(o, V2, B, IBW_OP_RC_RDMA_READ_RESPONSE_MIDDLE, 1, 1024, 1);
    read_resp(o, V2, B, IBW_OP_RC_RDMA_READ_RESPONSE_LAST, 2, 1024, 1);
}

static void bad_resend_unseen(struct gen_out *o)
{
    req(o, V2, A, IBW_OP_RC_SEND_ONLY, 0x100, 64); /* 1 the flow's first PSN */
    ack(o, V2, B, 0x100, SYN_ACK, 1);              /* 2 */
    /* 3 "resends" a PSN before the first */
    req(o, V2, A, IBW_OP_RC_SEND_ONLY, 0x0FF, 64);
}

static void bad_rnr_wait(struct gen_out *o)
{
    req(o, V2, A, IBW_OP_RC_SEND_ONLY, 0, 64);
    ack(o, V2, B, 0, SYN_RNR(14), 0); /* wait 1.28 ms */
    req(o, V2, A, IBW_OP_RC_SEND_ONLY, 0, 64);       /* 10 us later */
}

static void bad_nak_psn(struct gen_out *o)
{
    req(o, V2, A, IBW_OP_RC_SEND_ONLY, 0, 64); /* 1 */
    req(o, V2, A, IBW_OP_RC_SEND_ONLY, 1, 64); /* 2 */
    req(o, V2, A, IBW_OP_RC_SEND_ONLY, 2, 64); /* 3 */
    ack(o, V2, B, 1, SYN_ACK, 2);              /* 4 */
    ack(o, V2, B, 1, SYN_NAK_SEQ, 2);          /* 5 names an acknowledged PSN */
    req(o, V2, A, IBW_OP_RC_SEND_ONLY, 1, 64); /* 6 */
    req(o, V2, A, IBW_OP_RC_SEND_ONLY, 2, 64); /* 7 */
}

static void bad_msn(struct gen_out *o)
{
    req(o, V2, A, IBW_OP_RC_SEND_ONLY, 0, 64);
    req(o, V2, A, IBW_OP_RC_SEND_ONLY, 1, 64);
    ack(o, V2, B, 0, SYN_ACK, 5);
    ack(o, V2, B, 1, SYN_ACK, 4); /* MSN goes back */
}

/* Zoo row 5 (rxe before b1377cc37f6b): the MSN counts only messages that
 * consume a receive WQE, so an RDMA WRITE leaves it unchanged. */
static void bad_msn_write(struct gen_out *o)
{
    req(o, V2, A, IBW_OP_RC_SEND_ONLY, 0, 64);             /* 1 */
    ack(o, V2, B, 0, SYN_ACK, 1);                          /* 2 */
    o->ts_ns += 2000000; /* past the skew window: MSN 1 counts the SEND */
    req_dma(o, V2, A, IBW_OP_RC_RDMA_WRITE_ONLY, 1, 64, 64); /* 3 */
    ack(o, V2, B, 1, SYN_ACK, 1);                          /* 4 not counted */
}

/* Zoo row 4 (rxe before 9fcd67d1772c): the MSN counts acknowledged
 * packets, not messages. */
static void bad_msn_packet(struct gen_out *o)
{
    req(o, V2, A, IBW_OP_RC_SEND_ONLY, 0, 64);      /* 1 */
    ack(o, V2, B, 0, SYN_ACK, 1);                   /* 2 */
    o->ts_ns += 2000000; /* past the skew window */
    req(o, V2, A, IBW_OP_RC_SEND_FIRST, 1, 1024);   /* 3 */
    req(o, V2, A, IBW_OP_RC_SEND_MIDDLE, 2, 1024);  /* 4 */
    req(o, V2, A, IBW_OP_RC_SEND_LAST, 3, 100);     /* 5 */
    ack(o, V2, B, 3, SYN_ACK, 4);                   /* 6 one per packet */
}

/* Zoo row 31b (the HLS RoCE stack): a READ RESPONSE LAST carries the MSN
 * of a message not even requested yet. */
static void bad_msn_read_ahead(struct gen_out *o)
{
    req(o, V2, A, IBW_OP_RC_SEND_FIRST, 0, 1024);   /* 1 teaches PMTU 1024 */
    req(o, V2, A, IBW_OP_RC_SEND_LAST, 1, 24);      /* 2 */
    ack(o, V2, B, 1, SYN_ACK, 1);                   /* 3 */
    o->ts_ns += 2000000; /* past the skew window */
    read_req(o, V2, A, 2, 2048);                    /* 4 PSNs 2-3 */
    read_resp(o, V2, B, IBW_OP_RC_RDMA_READ_RESPONSE_FIRST, 2, 1024, 2); /* 5 */
    read_resp(o, V2, B, IBW_OP_RC_RDMA_READ_RESPONSE_LAST, 3, 1024, 3);  /* 6 */
    o->ts_ns += 2000000; /* the next SEND: not sent within the window */
    req(o, V2, A, IBW_OP_RC_SEND_ONLY, 4, 64);      /* 7 */
    ack(o, V2, B, 4, SYN_ACK, 3);                   /* 8 */
}

/* Zoo row 15 (rxe 5d122db2ff80): a resend of the same length with other
 * payload bytes. */
static void bad_retrans_payload(struct gen_out *o)
{
    struct ibw_build_spec s;
    req(o, V2, A, IBW_OP_RC_SEND_ONLY, 0, 64);      /* 1 */
    req(o, V2, A, IBW_OP_RC_SEND_ONLY, 1, 64);      /* 2 */
    o->ts_ns += 1000000;
    rc(&s, V2, A, IBW_OP_RC_SEND_ONLY, 0);          /* 3 resent: bytes 1.. */
    s.payload = pattern() + 1;
    s.payload_len = 64;
    gen_put(o, &s);
}

/* Zoo row 7 (rxe 030e46e495af): a READ re-issued for its last PMTU asks
 * for the right length from the original address. */
static void bad_read_reissue_va(struct gen_out *o)
{
    req(o, V2, A, IBW_OP_RC_SEND_FIRST, 0, 1024);   /* 1 teaches PMTU 1024 */
    req(o, V2, A, IBW_OP_RC_SEND_LAST, 1, 24);      /* 2 */
    ack(o, V2, B, 1, SYN_ACK, 1);                   /* 3 */
    read_req_va(o, V2, A, 2, 0x20000, 2048);        /* 4 PSNs 2-3 */
    read_resp(o, V2, B, IBW_OP_RC_RDMA_READ_RESPONSE_FIRST, 2, 1024, 2); /* 5 */
    o->ts_ns += 1000000;
    read_req_va(o, V2, A, 3, 0x20000, 1024);        /* 6 the rest is at 0x20400 */
}

/* Zoo row 9 (rxe's atomic replay): a duplicate FETCH ADD executed again. */
static void bad_dup_atomic(struct gen_out *o)
{
    fetch_add(o, V2, A, 0, 0x3000);                 /* 1 */
    atomic_ack_val(o, V2, B, 0, 1, 41);             /* 2 (lost after capture) */
    o->ts_ns += 1000000;
    fetch_add(o, V2, A, 0, 0x3000);                 /* 3 resent */
    atomic_ack_val(o, V2, B, 0, 1, 42);             /* 4 executed again */
}

/* Zoo row 14 (rxe, "Handle zero length cases correctly"): a zero-length
 * READ NAKed Remote Access Error on a QP that served a READ. */
static void bad_zero_len(struct gen_out *o)
{
    read_req(o, V2, A, 0, 64);                                         /* 1 */
    read_resp(o, V2, B, IBW_OP_RC_RDMA_READ_RESPONSE_ONLY, 0, 64, 1);   /* 2 */
    read_req_va(o, V2, A, 1, 0, 0);                /* 3 no VA, no R_Key */
    ack(o, V2, B, 1, SYN_NAK_ACC, 1);              /* 4 */
}

/* Zoo row 6b (rxe, fixed by 4e4c53df5677): a WRITE MIDDLE in a valid
 * sequence NAKed Invalid Request. */
static void bad_nak_invalid(struct gen_out *o)
{
    req_dma(o, V2, A, IBW_OP_RC_RDMA_WRITE_FIRST, 0, 1024, 3072); /* 1 */
    req(o, V2, A, IBW_OP_RC_RDMA_WRITE_MIDDLE, 1, 1024);          /* 2 */
    req(o, V2, A, IBW_OP_RC_RDMA_WRITE_LAST, 2, 1024);            /* 3 */
    ack(o, V2, B, 1, SYN_NAK_INV, 0);                             /* 4 */
}

/* Zoo row 19 (CVE-2016-8636): a READ whose VA + length wraps past 2^64
 * answered with data. */
static void bad_invalid_accepted(struct gen_out *o)
{
    read_req_va(o, V2, A, 0, 0xFFFFFFFFFFFFFF00ull, 512);               /* 1 */
    read_resp(o, V2, B, IBW_OP_RC_RDMA_READ_RESPONSE_ONLY, 0, 512, 1);   /* 2 */
}

static void bad_resp_match(struct gen_out *o)
{
    req(o, V2, A, IBW_OP_RC_SEND_ONLY, 0, 64);
    atomic_ack(o, V2, B, 0, 1); /* an atomic ACK for a SEND */
}

static void bad_read_resp(struct gen_out *o)
{
    req(o, V2, A, IBW_OP_RC_SEND_FIRST, 0, 1024); /* teaches the PMTU, 1024 */
    req(o, V2, A, IBW_OP_RC_SEND_LAST, 1, 24);
    ack(o, V2, B, 1, SYN_ACK, 1);
    read_req(o, V2, A, 2, 2048);
    read_resp(o, V2, B, IBW_OP_RC_RDMA_READ_RESPONSE_FIRST, 2, 1024, 2);
    /* 1536 of 2048 bytes */
    read_resp(o, V2, B, IBW_OP_RC_RDMA_READ_RESPONSE_LAST, 3, 512, 2);
}

static void bad_read_reissue(struct gen_out *o)
{
    req(o, V2, A, IBW_OP_RC_SEND_FIRST, 0, 1024); /* teaches the PMTU, 1024 */
    req(o, V2, A, IBW_OP_RC_SEND_LAST, 1, 24);
    ack(o, V2, B, 1, SYN_ACK, 1);
    read_req(o, V2, A, 2, 2048);  /* 4: PSNs 2..3 */
    read_resp(o, V2, B, IBW_OP_RC_RDMA_READ_RESPONSE_FIRST, 2, 1024, 2);
    read_req(o, V2, A, 3, 2048);  /* 6: re-issued at PSN 3, still 2048 bytes */
}

static void bad_flow_transport(struct gen_out *o)
{
    uint8_t dg[32] = {0};
    cm_connect(o, 3, CID_B); /* 1-3 CM sets up an RC connection */
    /* 4 UC SEND ONLY: the REQ said RC */
    req(o, V2, A, IBW_OP_UC_SEND_ONLY, PSN_A, 64);
    req(o, V2, A, IBW_OP_RC_SEND_ONLY, PSN_A, 64); /* 5 the RC SEND */
    ack(o, V2, B, PSN_A, SYN_ACK, 1);              /* 6 */
    /* 7 a UC SEND ONLY to the RC QP */
    req(o, V2, A, IBW_OP_UC_SEND_ONLY, PSN_A + 1, 64);
    ud(o, V2, B, QPN_A, QPN_B, 0x1111, dg, sizeof dg, 0); /* 8 a datagram to
                                           the RC requester's QP */
    /* 9 the RC flow goes on */
    req(o, V2, A, IBW_OP_RC_SEND_ONLY, PSN_A + 1, 64);
    ack(o, V2, B, PSN_A + 1, SYN_ACK, 2); /* 10 */
}

static void bad_write_len(struct gen_out *o)
{
    prologue(o);                                 /* 1-2 */
    /* 3 WRITE ONLY, 64 of 60 */
    req_dma(o, V2, A, IBW_OP_RC_RDMA_WRITE_ONLY, 1, 64, 60);
    /* 4 a WRITE of 2048 bytes */
    req_dma(o, V2, A, IBW_OP_RC_RDMA_WRITE_FIRST, 2, 1024, 2048);
    req(o, V2, A, IBW_OP_RC_RDMA_WRITE_LAST, 3, 10); /* 5 ends after 1034 */
    /* (no response: an ACK would be FLOW-INVALID-ACCEPTED) */
}

static void bad_cm_seq(struct gen_out *o)
{
    cm_connect(o, 3, 0x0B0B0099); /* the RTU: not the REP's ID */
}

static void bad_cm_field(struct gen_out *o)
{
    cm_connect(o, 7, CID_B); /* path MTU code 7 */
}

static void bad_cm_qpn(struct gen_out *o)
{
    cm_connect(o, 3, CID_B);
    req(o, V2, A, IBW_OP_RC_SEND_ONLY, 0x999, 64); /* neither negotiated PSN */
    ack(o, V2, B, 0x999, SYN_ACK, 1);
}

#define SC(n, s, lt, fn, e) {n, s, CAP_LINKTYPE_##lt, fn, e}
#define OK "exit 0\n"

static const struct gen_scenario scenarios[] = {
    SC("crafted-rc-clean", "RC over RoCEv2: CM, SEND, WRITE, READ, atomic, "
       "DREQ/DREP", ETHERNET, rc_clean, OK),
    SC("crafted-loss-clean", "NAK and Go-Back-N, RNR NAK and wait, timeout "
       "resend", ETHERNET, loss_clean, OK),
    SC("crafted-replay-clean", "READ responses replayed with the current MSN "
       "and reordered (as Linux rxe under loss)", ETHERNET, replay_clean, OK),
    SC("crafted-uc-ud-clean", "UC WRITE, UD SENDs, a CNP", ETHERNET,
       uc_ud_clean, OK),
    SC("crafted-ib-clean", "native IB (ERF): SMP on VL15, RC SEND + ACK", ERF,
       ib_clean, OK),
    SC("crafted-rocev1-clean", "RoCEv1 WRITE ONLY + ACK", ETHERNET,
       rocev1_clean, OK),
    SC("bad-pkt-malformed", "UDP Length shorter than the datagram", ETHERNET,
       bad_malformed, "finding 3 PKT-MALFORMED\nexit 1\n"),
    SC("bad-pkt-icrc", "a corrupted ICRC", ETHERNET, bad_icrc,
       "finding 3 PKT-ICRC\nexit 1\n"),
    SC("bad-pkt-vcrc", "a corrupted VCRC (native IB)", ERF, bad_vcrc,
       "finding 1 PKT-VCRC\nexit 1\n"),
    SC("bad-pkt-ip-csum", "a wrong IPv4 header checksum", ETHERNET,
       bad_ip_csum, "finding 3 PKT-IP-CSUM\nexit 1\n"),
    SC("bad-pkt-ip-version", "IPv4 version 5 on a RoCEv2 packet", ETHERNET,
       bad_ip_version, "finding 3 PKT-VERSION\nexit 1\n"),
    SC("bad-pkt-ip-frag", "MF set on a RoCEv2 packet, IPv4 checksum stale",
       ETHERNET, bad_ip_frag,
       "finding 3 PKT-IP-CSUM\nfinding 3 PKT-IP-HDR\nexit 1\n"),
    SC("bad-pkt-udp-csum", "a wrong non-zero UDP checksum", ETHERNET,
       bad_udp_csum, "finding 3 PKT-UDP-CSUM\nexit 1\n"),
    SC("bad-pkt-version", "BTH TVer 1", ETHERNET, bad_version,
       "finding 3 PKT-VERSION\nexit 1\n"),
    SC("bad-pkt-opcode", "UD opcode 0x60", ETHERNET, bad_opcode,
       "finding 1 PKT-OPCODE\nexit 1\n"),
    SC("bad-pkt-reserved", "BTH Resv7 not zero", ETHERNET, bad_reserved,
       "finding 3 PKT-RESERVED\nexit 1\n"),
    SC("bad-pkt-pad", "PadCnt 1 on a 4-byte payload", ETHERNET, bad_pad,
       "finding 3 PKT-PAD\nexit 1\n"),
    SC("bad-pkt-no-payload", "an RDMA READ request with payload", ETHERNET,
       bad_no_payload, "finding 3 PKT-NO-PAYLOAD\nexit 1\n"),
    SC("bad-pkt-len-full", "a SEND FIRST of 1000 bytes", ETHERNET,
       bad_len_full, "finding 1 PKT-LEN-FULL\nexit 1\n"),
    SC("bad-pkt-len-last", "a SEND LAST above the PMTU", ETHERNET,
       bad_len_last, "finding 2 PKT-LEN-LAST\nexit 1\n"),
    SC("bad-pkt-atomic-align", "FETCH ADD at an unaligned address", ETHERNET,
       bad_atomic_align, "finding 3 PKT-ATOMIC-ALIGN\nexit 1\n"),
    SC("bad-pkt-pkey", "P_Key 0x8000", ETHERNET, bad_pkey,
       "finding 1 PKT-PKEY\nexit 1\n"),
    SC("bad-pkt-qp01-ud", "RC SEND to QP1", ETHERNET, bad_qp01_ud,
       "finding 1 PKT-QP01-UD\nexit 1\n"),
    SC("bad-pkt-qp0-vl15", "an SMP to QP0 on VL0", ERF, bad_qp0_vl15,
       "finding 1 PKT-QP0-VL15\nexit 1\n"),
    SC("bad-pkt-aeth", "an ACK with the reserved syndrome kind", ETHERNET,
       bad_aeth, "finding 2 PKT-AETH\nexit 1\n"),
    SC("bad-pkt-cnp", "a CNP with AckReq", ETHERNET, bad_cnp,
       "finding 1 PKT-CNP\nexit 1\n"),
    SC("bad-pkt-mad", "a MAD with base version 2", ETHERNET, bad_mad,
       "finding 1 PKT-MAD\nexit 1\n"),
    SC("bad-pkt-qp1-qkey", "a GMP to QP1 with a wrong Q_Key", ETHERNET,
       bad_qp1_qkey, "finding 1 PKT-QP1-QKEY\nexit 1\n"),
    SC("bad-flow-opseq", "SEND ONLY inside an open SEND", ETHERNET, bad_opseq,
       "finding 2 FLOW-OPSEQ\nexit 1\n"),
    SC("bad-flow-pkey", "a P_Key change within a connection", ETHERNET,
       bad_flow_pkey, "finding 3 FLOW-PKEY\nexit 1\n"),
    SC("bad-flow-retrans-diff", "a resend with another length", ETHERNET,
       bad_retrans_diff, "finding 3 FLOW-RETRANS-DIFF\nexit 1\n"),
    SC("bad-flow-gbn", "a resend that skips the NAKed PSN", ETHERNET, bad_gbn,
       "finding 7 FLOW-GBN\nexit 1\n"),
    SC("bad-flow-gbn-stop", "a Go-Back-N that resends one PSN and goes on",
       ETHERNET, bad_gbn_stop, "finding 8 FLOW-GBN\nexit 1\n"),
    SC("bad-flow-resend-unjustified", "a resend with no NAK, sooner than "
       "any local ACK timeout", ETHERNET, bad_resend_unjustified,
       "finding 5 FLOW-RESEND-UNJUSTIFIED\nexit 1\n"),
    SC("bad-flow-gbn-quiet", "a Go-Back-N that resends one PSN and goes "
       "quiet", ETHERNET, bad_gbn_quiet, "finding 7 FLOW-GBN-QUIET\nexit 1\n"),
    SC("bad-flow-ack-read", "an ACK inside a READ's span before its "
       "responses", ETHERNET, bad_ack_read,
       "finding 2 FLOW-ACK-READ\nexit 1\n"),
    SC("bad-flow-resend-unseen", "a resend of a PSN before the flow's first",
       ETHERNET, bad_resend_unseen, "finding 3 FLOW-PSN-GAP\nexit 0\n"),
    SC("bad-flow-read-reissue", "an RDMA READ re-issued mid-response for "
       "its whole length", ETHERNET, bad_read_reissue,
       "finding 6 FLOW-RETRANS-DIFF\nexit 1\n"),
    SC("bad-flow-rnr-wait", "a resend before the RNR timer", ETHERNET,
       bad_rnr_wait, "finding 3 FLOW-RNR-WAIT\nexit 1\n"),
    SC("bad-flow-nak-psn", "a sequence NAK for an acknowledged PSN", ETHERNET,
       bad_nak_psn, "finding 5 FLOW-NAK-PSN\nexit 1\n"),
    SC("bad-flow-msn", "an MSN that goes back", ETHERNET, bad_msn,
       "finding 4 FLOW-MSN\nexit 1\n"),
    SC("bad-flow-msn-write", "an MSN that does not count an RDMA WRITE",
       ETHERNET, bad_msn_write, "finding 4 FLOW-MSN\nexit 1\n"),
    SC("bad-flow-msn-packet", "an MSN that counts packets, not messages",
       ETHERNET, bad_msn_packet, "finding 6 FLOW-MSN\nexit 1\n"),
    SC("bad-flow-msn-read-ahead", "a READ RESPONSE LAST with the next "
       "message's MSN", ETHERNET, bad_msn_read_ahead,
       "finding 6 FLOW-MSN\nexit 1\n"),
    SC("bad-flow-retrans-payload", "a resend with other payload bytes",
       ETHERNET, bad_retrans_payload, "finding 3 FLOW-RETRANS-DIFF\nexit 1\n"),
    SC("bad-flow-read-reissue-va", "an RDMA READ re-issued for the rest from "
       "the original address", ETHERNET, bad_read_reissue_va,
       "finding 6 FLOW-RETRANS-DIFF\nexit 1\n"),
    SC("bad-flow-dup-atomic", "a duplicate FETCH ADD executed again",
       ETHERNET, bad_dup_atomic, "finding 4 FLOW-DUP-ATOMIC\nexit 1\n"),
    SC("bad-flow-zero-len", "a zero-length READ NAKed Remote Access Error",
       ETHERNET, bad_zero_len, "finding 4 FLOW-ZERO-LEN\nexit 1\n"),
    SC("bad-flow-nak-invalid", "NAK Invalid Request on a valid WRITE MIDDLE",
       ETHERNET, bad_nak_invalid, "finding 4 FLOW-NAK-INVALID\nexit 1\n"),
    SC("bad-flow-invalid-accepted", "a READ past 2^64 answered with data",
       ETHERNET, bad_invalid_accepted,
       "finding 2 FLOW-INVALID-ACCEPTED\nexit 1\n"),
    SC("bad-flow-resp-match", "an atomic ACK for a SEND", ETHERNET,
       bad_resp_match, "finding 2 FLOW-RESP-MATCH\nexit 1\n"),
    SC("bad-flow-read-resp", "READ responses short of the length", ETHERNET,
       bad_read_resp, "finding 6 FLOW-READ-RESP\nexit 1\n"),
    SC("bad-flow-transport", "UC and UD packets to the QPs of an RC "
       "connection", ETHERNET, bad_flow_transport,
       "finding 4 FLOW-TRANSPORT\nfinding 7 FLOW-TRANSPORT\n"
       "finding 8 FLOW-TRANSPORT\nexit 1\n"),
    SC("bad-flow-write-len", "RDMA WRITEs carrying other than their DMA "
       "Length", ETHERNET, bad_write_len,
       "finding 3 FLOW-WRITE-LEN\nfinding 5 FLOW-WRITE-LEN\nexit 1\n"),
    SC("bad-cm-seq", "an RTU with the wrong remote ID", ETHERNET, bad_cm_seq,
       "finding 3 CM-SEQ\nexit 1\n"),
    SC("bad-cm-field", "a REQ with path MTU code 7", ETHERNET, bad_cm_field,
       "finding 1 CM-FIELD\nexit 1\n"),
    SC("bad-cm-qpn", "traffic at a PSN CM did not negotiate", ETHERNET,
       bad_cm_qpn, "finding 4 CM-QPN\nexit 1\n"),
};

const struct gen_family gen_violation_family = {
    "crafted", scenarios, sizeof scenarios / sizeof scenarios[0]};
