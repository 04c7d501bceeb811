/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_cm_directed.c - the test cases of the UESTC thesis (2017) table 5-1 on
 * layer 1 of the communication controller: two CM agents, each with its HCR
 * model and QP1 GMP port, joined by an in-memory wire in virtual time that
 * carries real UD frames.  Node configuration of table 5-2: client QPN 0x2,
 * LID 1, COM_ID 0xaaaabbbb, server QPN 0x8, LID 4, COM_ID 0x11112222, retry 2,
 * timeout code 1.  Expected values are worked out by hand from the thesis
 * figures and the IBA tables, as the comments show.
 */
#include <stdlib.h>

#include "cmx.h"
#include "testutil.h"

#define TMAX 1000u  /* t_max, ns: also the wire latency */
#define CLIENT_GUID 0xCCCCDDDDEEEEFFFFull
#define SERVER_GUID 0x3333444455556666ull
#define SID 0x1000000000000001ull

struct node;
struct msg { uint64_t t; int to; size_t len; uint8_t f[400]; };

static struct world {
    uint64_t now;
    struct msg q[256];
    unsigned nq;
    struct node *n[2];
    int drop_dir[2];           /* drop every frame sent by node i */
    int corrupt_first_rep;     /* change REP RemoteCommID once */
    uint8_t sent_attr[2][64];  /* attribute IDs sent, in order (low byte) */
    uint64_t sent_time[2][64];
    uint8_t sent_mad[2][64][IBW_MAD_SIZE];
    uint8_t first_frame[400];
    size_t first_len;
    unsigned nsent[2];
} W;

struct node {
    int id;
    struct cmx_agent *ag;
    struct cmx_hcr hcr;
    struct cmx_gmp_port gmp;
    int decision;              /* what on_req answers */
    uint32_t accept_qpn;
    struct cmx_event ev[16];
    uint8_t ev_priv[16][16];
    unsigned nev;
};

static void n_send(void *ctx, const uint8_t *mad)
{
    struct node *nd = ctx;
    uint8_t m[IBW_MAD_SIZE];
    memcpy(m, mad, sizeof m);
    if (W.corrupt_first_rep && ibw_mad_hdr_get_attributeid(m) == IBW_CM_ATTR_REP) {
        ibw_store_be32(m + 24 + 4, 0xDEADBEEFu); /* REP RemoteCommID, data +4 */
        W.corrupt_first_rep = 0;
    }
    unsigned k = W.nsent[nd->id]++;
    if (k < 64) {
        W.sent_attr[nd->id][k] = (uint8_t)ibw_mad_hdr_get_attributeid(m);
        W.sent_time[nd->id][k] = W.now;
        memcpy(W.sent_mad[nd->id][k], m, IBW_MAD_SIZE);
    }
    TU_EQ(cmx_gmp_post(&nd->gmp, m), 0);
    struct msg mm;
    int n = cmx_gmp_transmit(&nd->gmp, mm.f, sizeof mm.f);
    TU_CHECK(n > 0);
    struct ibw_wc wc;
    TU_EQ(cmx_gmp_poll(&nd->gmp, &wc), 1); /* the send completion */
    TU_EQ(wc.opcode, IBW_WC_SEND);
    TU_EQ(wc.byte_len, 256);
    if (!W.first_len) {
        memcpy(W.first_frame, mm.f, (size_t)n);
        W.first_len = (size_t)n;
    }
    if (n <= 0 || W.drop_dir[nd->id] || W.nq == 256)
        return;
    mm.t = W.now + TMAX;
    mm.to = !nd->id;
    mm.len = (size_t)n;
    W.q[W.nq++] = mm;
}

static int n_qp(void *ctx, uint16_t op, uint32_t qpn, const struct cmx_mbox *mb)
{
    struct node *nd = ctx;
    return cmx_hcr_modify_qp(&nd->hcr, op, qpn, mb);
}

static int n_req(void *ctx, uint32_t conn, const struct ibw_cm_req *req,
                 struct cmx_accept *acc)
{
    struct node *nd = ctx;
    (void)conn;
    (void)req;
    if (!acc->qpn)
        acc->qpn = nd->accept_qpn;
    acc->start_psn = 0x800;
    memcpy(acc->private_data, "hello client", 12);
    acc->private_len = 12;
    return nd->decision;
}

static void n_event(void *ctx, const struct cmx_event *ev)
{
    struct node *nd = ctx;
    if (nd->nev < 16) {
        if (ev->private_data)
            memcpy(nd->ev_priv[nd->nev], ev->private_data, 16);
        nd->ev[nd->nev++] = *ev;
    }
}

static struct node N[2];

static void setup(int retries)
{
    for (int i = 0; i < 2; i++)
        cmx_agent_destroy(N[i].ag);
    memset(&W, 0, sizeof W);
    memset(N, 0, sizeof N);
    for (int i = 0; i < 2; i++) {
        struct node *nd = &N[i];
        nd->id = i;
        W.n[i] = nd;
        struct cmx_config cfg = {i ? SERVER_GUID : CLIENT_GUID,
                                 (uint16_t)(i ? 4 : 1),
                                 i ? 0x11112222u : 0xAAAABBBBu,
                                 1, 10, (uint8_t)retries, TMAX, 64};
        struct cmx_ops ops = {nd, n_send, n_qp, n_req, n_event};
        nd->ag = cmx_agent_create(&cfg, &ops);
        cmx_hcr_init(&nd->hcr, NULL, NULL);
        cmx_hcr_add_qp(&nd->hcr, i ? 8 : 2);
        cmx_gmp_init(&nd->gmp, 1, i ? 0x0A000000u : 0x0A000001u,
                     i ? 0x0A000001u : 0x0A000000u, (uint16_t)(i ? 4 : 1),
                     (uint16_t)(i ? 1 : 4));
        nd->accept_qpn = 8;
    }
    cmx_listen(N[1].ag, SID);
}

/* Run the wire and the timers until nothing is left or `until`. */
static void run(uint64_t until)
{
    for (;;) {
        uint64_t t = UINT64_MAX;
        for (unsigned i = 0; i < W.nq; i++)
            if (W.q[i].t < t)
                t = W.q[i].t;
        for (int i = 0; i < 2; i++) {
            uint64_t d = cmx_next_deadline(N[i].ag);
            if (d < t)
                t = d;
        }
        if (t == UINT64_MAX || t > until)
            return;
        W.now = t;
        for (unsigned i = 0; i < W.nq;) {
            if (W.q[i].t != t) {
                i++;
                continue;
            }
            struct msg m = W.q[i];
            memmove(&W.q[i], &W.q[i + 1], (W.nq - i - 1) * sizeof W.q[0]);
            W.nq--;
            uint8_t mad[IBW_MAD_SIZE];
            struct node *nd = &N[m.to];
            TU_EQ(cmx_gmp_receive(&nd->gmp, m.f, m.len, mad), IBW_OK);
            struct ibw_wc wc;
            TU_EQ(cmx_gmp_poll(&nd->gmp, &wc), 1);
            TU_EQ(wc.opcode, IBW_WC_RECV);
            TU_EQ(wc.src_qp, 1);
            cmx_receive(nd->ag, t, mad, sizeof mad);
        }
        for (int i = 0; i < 2; i++)
            cmx_tick(N[i].ag, t);
    }
}

static int connect_client(uint8_t peer, uint32_t qpn)
{
    struct cmx_connect c = {SID, qpn, 0x100, 3, 7, 7, peer,
                            (const uint8_t *)"hello server", 12};
    return cmx_connect(N[0].ag, W.now, &c);
}

#define PATH(conn, ...)                                                      \
    do {                                                                     \
        static const uint8_t want_[] = {__VA_ARGS__};                        \
        TU_EQ((conn)->npath, sizeof want_);                                  \
        TU_MEMEQ((conn)->path, want_, sizeof want_);                         \
    } while (0)

static void test_normal(void)
{
    setup(2);
    int c = connect_client(0, 2);
    TU_EQ(c, 0);
    run(1000000);
    const struct cmx_conn *a = cmx_conn_get(N[0].ag, 0);
    const struct cmx_conn *b = cmx_conn_get(N[1].ag, 0);
    PATH(a, CMX_IDLE, CMX_REQ_SENT, CMX_REP_RCVD, CMX_ESTABLISHED);
    PATH(b, CMX_LISTEN, CMX_REQ_RCVD, CMX_REP_SENT, CMX_ESTABLISHED);
    /* REQ, RTU from the client; REP from the server (attribute IDs). */
    TU_EQ(W.nsent[0], 2);
    TU_EQ(W.sent_attr[0][0], 0x10);
    TU_EQ(W.sent_attr[0][1], 0x14);
    TU_EQ(W.nsent[1], 1);
    TU_EQ(W.sent_attr[1][0], 0x13);
    /* The REQ frame: Ethernet 14 + IPv4 20 + UDP 8 = 42, BTH at 42, DETH at
     * 54, MAD at 62, ICRC 4: 322 bytes. */
    TU_EQ(W.first_len, 322);
    static const uint8_t bth_deth[20] = {
        0x64, 0x00, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00,
        0x80, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01};
    TU_MEMEQ(W.first_frame + 42, bth_deth, 20);
    /* MAD header: base 1, class 7, version 2, Send, attribute 0x0010. */
    static const uint8_t hdr[4] = {0x01, 0x07, 0x02, 0x03};
    TU_MEMEQ(W.first_frame + 62, hdr, 4);
    const uint8_t *req = W.first_frame + 62 + 24;
    static const uint8_t comm[4] = {0xAA, 0xAA, 0xBB, 0xBB};
    TU_MEMEQ(req, comm, 4);                       /* LocalCommID, data 0 */
    static const uint8_t guid[8] = {0xCC, 0xCC, 0xDD, 0xDD, 0xEE, 0xEE, 0xFF, 0xFF};
    TU_MEMEQ(req + 16, guid, 8);                  /* LocalCAGUID, data 16 */
    static const uint8_t qpn[3] = {0x00, 0x00, 0x02};
    TU_MEMEQ(req + 32, qpn, 3);                   /* LocalQPN, data 32 */
    TU_EQ(req[43], 0x08);   /* RemoteCMResponseTimeout 1 << 3 | RC 0 | 0 */
    TU_EQ(req[51], 0x20);   /* MaxCMRetries 2 in bits 0-3 of byte 51 */
    TU_MEMEQ(req + 140, "hello server", 12);      /* PrivateData, data 140 */
    /* Server REP: LocalCommID 0x11112222, RemoteCommID 0xaaaabbbb, QPN 8. */
    static const uint8_t rep[16] = {0x11, 0x11, 0x22, 0x22, 0xAA, 0xAA, 0xBB, 0xBB,
                                    0, 0, 0, 0, 0x00, 0x00, 0x08, 0x00};
    TU_MEMEQ(W.sent_mad[1][0] + 24, rep, 16);
    /* Private data both ways reached the user. */
    TU_EQ(N[0].nev, 1);
    TU_EQ(N[0].ev[0].type, CMX_EV_ESTABLISHED);
    TU_MEMEQ(N[0].ev_priv[0], "hello client", 12);
    TU_EQ(N[1].nev, 1);
    TU_MEMEQ(N[1].ev_priv[0], "hello server", 12);
    /* QP states and the attributes the mailboxes carried. */
    TU_EQ(cmx_hcr_qp_state(&N[0].hcr, 2), IBW_HCR_QPS_RTS);
    TU_EQ(cmx_hcr_qp_state(&N[1].hcr, 8), IBW_HCR_QPS_RTS);
    TU_EQ(N[0].hcr.qp_attr[2].remote_qpn, 8);
    /* Each message's Starting PSN is the PSN its sender receives from: the
     * client (REQ 0x100) sends from the REP's 0x800, the server from the
     * REQ's (test_cm_psn holds this to a Linux capture). */
    TU_EQ(N[0].hcr.qp_attr[2].rq_psn, 0x100);
    TU_EQ(N[0].hcr.qp_attr[2].sq_psn, 0x800);
    TU_EQ(N[1].hcr.qp_attr[8].remote_qpn, 2);
    TU_EQ(N[1].hcr.qp_attr[8].rq_psn, 0x800);
    TU_EQ(N[1].hcr.qp_attr[8].sq_psn, 0x100);
    TU_EQ(N[1].hcr.qp_attr[8].pmtu, 3);
    TU_EQ(N[0].hcr.commands, 3); /* RST2INIT, INIT2RTR, RTR2RTS */
    TU_EQ(N[1].hcr.commands, 3);
    TU_EQ(N[0].hcr.failures + N[1].hcr.failures, 0);
}

/* Node side sent its message (attribute attr) and two retries, the retries
 * at retry1 and retry2 (ns), then gave up with REJ(Timeout) at rej and
 * reported that one failure. */
static void expect_given_up(int side, uint8_t attr, uint64_t retry1,
                            uint64_t retry2, uint64_t rej)
{
    TU_EQ(W.nsent[side], 4);
    for (int k = 0; k < 3; k++)
        TU_EQ(W.sent_attr[side][k], attr);
    TU_EQ(W.sent_time[side][1], retry1);
    TU_EQ(W.sent_time[side][2], retry2);
    TU_EQ(W.sent_attr[side][3], 0x12);
    TU_EQ(W.sent_time[side][3], rej);
    TU_EQ(ibw_load_be16(W.sent_mad[side][3] + 24 + 10), 4); /* REJ reason */
    TU_EQ(N[side].nev, 1);
    TU_EQ(N[side].ev[0].type, CMX_EV_FAILED);
    TU_EQ(N[side].ev[0].reason, 4);
}

static void test_timeout_retry(void)
{
    setup(2);
    W.drop_dir[0] = 1; /* the server never hears the client */
    connect_client(0, 2);
    run(10000000);
    /* Wait per try, eq. 3-2: 4.096 us * 2^1 + 2 * t_max = 8192 + 2000 ns.
     * REQ at 0, retries at 10192 and 20384, given up at 30576 with a
     * REJ(Timeout). */
    expect_given_up(0, 0x10, 10192, 20384, 30576);
    TU_EQ(cmx_agent_stats(N[0].ag)->retries, 2);
    const struct cmx_conn *a = cmx_conn_get(N[0].ag, 0);
    PATH(a, CMX_IDLE, CMX_REQ_SENT, CMX_REJ_RETRY, CMX_REQ_SENT, CMX_REJ_RETRY,
         CMX_REQ_SENT, CMX_REJ_RETRY, CMX_IDLE);
    TU_EQ(cmx_hcr_qp_state(&N[0].hcr, 2), IBW_HCR_QPS_RESET);
    TU_EQ(cmx_agent_live(N[0].ag), 0);
}

static void test_rej_invalid_comm_id(void)
{
    setup(2);
    W.corrupt_first_rep = 1;
    connect_client(0, 2);
    run(1000000);
    /* Client: REQ, REJ(0x6, message REP), REQ again, RTU. */
    TU_EQ(W.nsent[0], 4);
    TU_EQ(W.sent_attr[0][1], 0x12);
    const uint8_t *rej = W.sent_mad[0][1] + 24;
    TU_EQ(ibw_load_be32(rej + 4), 0x11112222u); /* RemoteCommID */
    TU_EQ(rej[8] >> 6, 1);                      /* MessageRejected = REP */
    TU_EQ(ibw_load_be16(rej + 10), 6);          /* Reason */
    TU_EQ(W.sent_attr[0][2], 0x10);
    TU_EQ(W.sent_attr[0][3], 0x14);
    /* The server reports 0x6 up and goes back to LISTEN. */
    TU_EQ(N[1].ev[0].type, CMX_EV_REJECTED);
    TU_EQ(N[1].ev[0].reason, 6);
    PATH(cmx_conn_get(N[1].ag, 0), CMX_LISTEN, CMX_REQ_RCVD, CMX_REP_SENT,
         CMX_LISTEN);
    PATH(cmx_conn_get(N[0].ag, 0), CMX_IDLE, CMX_REQ_SENT, CMX_REP_RCVD,
         CMX_REJ_RETRY, CMX_REQ_SENT, CMX_REP_RCVD, CMX_ESTABLISHED);
    TU_EQ(N[1].ev[1].type, CMX_EV_ESTABLISHED);
    TU_EQ(cmx_hcr_qp_state(&N[1].hcr, 8), IBW_HCR_QPS_RTS);
    TU_EQ(cmx_hcr_qp_state(&N[0].hcr, 2), IBW_HCR_QPS_RTS);
}

static void test_disconnect(int from_server)
{
    setup(2);
    connect_client(0, 2);
    run(1000000);
    TU_EQ(cmx_disconnect(N[from_server].ag, W.now, 0), 0);
    run(2000000);
    const struct cmx_conn *a = cmx_conn_get(N[0].ag, 0);
    const struct cmx_conn *b = cmx_conn_get(N[1].ag, 0);
    if (from_server) {
        PATH(b, CMX_LISTEN, CMX_REQ_RCVD, CMX_REP_SENT, CMX_ESTABLISHED,
             CMX_DCONN_PRO, CMX_DREQ_SENT, CMX_DREP_RCVD, CMX_LISTEN);
        PATH(a, CMX_IDLE, CMX_REQ_SENT, CMX_REP_RCVD, CMX_ESTABLISHED,
             CMX_DREQ_RCVD, CMX_IDLE);
    } else {
        PATH(a, CMX_IDLE, CMX_REQ_SENT, CMX_REP_RCVD, CMX_ESTABLISHED,
             CMX_DCONN_PRO, CMX_DREQ_SENT, CMX_IDLE);
        PATH(b, CMX_LISTEN, CMX_REQ_RCVD, CMX_REP_SENT, CMX_ESTABLISHED,
             CMX_DREQ_RCVD, CMX_LISTEN);
    }
    /* DREQ (0x15) from one side, DREP (0x16) from the other; the DREQ names
     * the peer's QPN (data 8..10). */
    int s = from_server, r = !from_server;
    TU_EQ(W.sent_attr[s][W.nsent[s] - 1], 0x15);
    TU_EQ(W.sent_attr[r][W.nsent[r] - 1], 0x16);
    TU_EQ(ibw_wire_get(W.sent_mad[s][W.nsent[s] - 1] + 24 + 8, 0, 24),
          from_server ? 2 : 8);
    /* §5.2.2 (3): both QPs end in RESET, connection records deleted. */
    TU_EQ(cmx_hcr_qp_state(&N[0].hcr, 2), IBW_HCR_QPS_RESET);
    TU_EQ(cmx_hcr_qp_state(&N[1].hcr, 8), IBW_HCR_QPS_RESET);
    TU_EQ(cmx_agent_live(N[0].ag) + cmx_agent_live(N[1].ag), 0);
    TU_EQ(cmx_agent_stats(N[0].ag)->disconnects, 1);
    TU_EQ(cmx_agent_stats(N[1].ag)->disconnects, 1);
}

static void test_mra(void)
{
    setup(2);
    N[1].decision = CMX_DEFER;
    connect_client(0, 2);
    run(1500); /* REQ arrives at 1000, MRA leaves at 1000 */
    TU_EQ(W.sent_attr[1][0], 0x11);
    TU_EQ(W.sent_mad[1][0][24 + 9] >> 3, 10); /* ServiceTimeout 10 */
    run(2000); /* MRA arrives at 2000 */
    /* eq. 3-3: 4.096 us * 2^10 + t_max = 4194304 + 1000 from t = 2000. */
    TU_EQ(cmx_next_deadline(N[0].ag), 2000 + 4194304 + 1000);
    run(3000000); /* far past the REQ's own 10192 ns wait: no retry */
    TU_EQ(W.nsent[0], 1);
    W.now = 3000000;
    TU_EQ(cmx_accept(N[1].ag, W.now, 0,
                     &(struct cmx_accept){8, 0x800, {0}, 0}), 0);
    run(4000000);
    TU_EQ(cmx_agent_stats(N[0].ag)->retries, 0);
    TU_EQ(cmx_conn_get(N[0].ag, 0)->state, CMX_ESTABLISHED);
    TU_EQ(cmx_conn_get(N[1].ag, 0)->state, CMX_ESTABLISHED);
    /* The deferred QP went to INIT once, with the MRA, not again. */
    TU_EQ(N[1].hcr.failures, 0);
    TU_EQ(N[1].hcr.commands, 3);
}

static void test_peer_crossing(void)
{
    setup(2);
    cmx_hcr_add_qp(&N[1].hcr, 8);
    connect_client(1, 2);
    struct cmx_connect c = {SID, 8, 0x800, 3, 7, 7, 1, NULL, 0};
    TU_EQ(cmx_connect(N[1].ag, W.now, &c), 0);
    run(1000000);
    /* Client GUID 0xcccc... > server GUID 0x3333...: the client stays. */
    PATH(cmx_conn_get(N[0].ag, 0), CMX_IDLE, CMX_REQ_SENT, CMX_PEER_COMPARE,
         CMX_REQ_SENT, CMX_REP_RCVD, CMX_ESTABLISHED);
    PATH(cmx_conn_get(N[1].ag, 0), CMX_IDLE, CMX_REQ_SENT, CMX_PEER_COMPARE,
         CMX_IDLE, CMX_LISTEN, CMX_REQ_RCVD, CMX_REP_SENT, CMX_ESTABLISHED);
    TU_EQ(cmx_agent_stats(N[1].ag)->role_switches, 1);
    TU_EQ(cmx_agent_live(N[0].ag), 1);
    TU_EQ(cmx_agent_live(N[1].ag), 1);
    TU_EQ(N[0].hcr.qp_attr[2].remote_qpn, 8);
    TU_EQ(N[1].hcr.qp_attr[8].remote_qpn, 2);
    TU_EQ(cmx_hcr_qp_state(&N[0].hcr, 2), IBW_HCR_QPS_RTS);
    TU_EQ(cmx_hcr_qp_state(&N[1].hcr, 8), IBW_HCR_QPS_RTS);
}

static void test_stale(void)
{
    setup(2);
    connect_client(0, 2);
    run(1000000);
    /* The client "reboots": a fresh agent, same GUID, same QPN, new
     * communication ID, while the server still holds the old connection. */
    struct cmx_agent *old = N[0].ag;
    struct cmx_config cfg = {CLIENT_GUID, 1, 0x5000, 1, 10, 2, TMAX, 64};
    struct cmx_ops ops = {&N[0], n_send, n_qp, n_req, n_event};
    N[0].ag = cmx_agent_create(&cfg, &ops);
    cmx_hcr_add_qp(&N[0].hcr, 2);
    connect_client(0, 2);
    run(2000000);
    TU_EQ(cmx_agent_stats(N[1].ag)->stale, 1);
    TU_EQ(N[1].ev[1].type, CMX_EV_STALE);
    TU_EQ(cmx_hcr_qp_state(&N[1].hcr, 8), IBW_HCR_QPS_RESET);
    /* The new REQ got REJ(10, stale connection). */
    TU_EQ(N[0].nev, 2); /* ESTABLISHED of the old agent, then this */
    TU_EQ(N[0].ev[1].type, CMX_EV_REJECTED);
    TU_EQ(N[0].ev[1].reason, 10);
    cmx_agent_destroy(old);
}

/* With duplication on the wire a REP the server sent twice can
 * reach the client after the client sent its DREQ (which takes a new TID).
 * IBA 12.9.5 discards a duplicate; Linux cm_dup_rep_handler answers RTU in
 * ESTABLISHED and nothing otherwise.  A REJ here would end the server's
 * half with REJECTED while the client reports DISCONNECTED. */
static void test_late_rep(void)
{
    setup(2);
    connect_client(0, 2);
    run(1000000);
    uint8_t rep[IBW_MAD_SIZE];
    memcpy(rep, W.sent_mad[1][0], sizeof rep);
    TU_EQ(W.sent_attr[1][0], 0x13);
    /* Established: the duplicate gets the RTU again (0x14). */
    cmx_receive(N[0].ag, W.now, rep, sizeof rep);
    TU_EQ(W.nsent[0], 3);
    TU_EQ(W.sent_attr[0][2], 0x14);
    run(2000000);
    TU_EQ(cmx_disconnect(N[0].ag, W.now, 0), 0);
    TU_EQ(W.nsent[0], 4);
    TU_EQ(W.sent_attr[0][3], 0x15);
    /* DREQ sent: the same REP is answered with nothing at all. */
    cmx_receive(N[0].ag, W.now, rep, sizeof rep);
    TU_EQ(W.nsent[0], 4);
    run(3000000);
    TU_EQ(N[1].nev, 2);
    TU_EQ(N[1].ev[1].type, CMX_EV_DISCONNECTED);
    TU_EQ(N[0].nev, 2);
    TU_EQ(N[0].ev[1].type, CMX_EV_DISCONNECTED);
    TU_EQ(cmx_agent_stats(N[1].ag)->rej_rcvd, 0);
    TU_EQ(cmx_hcr_qp_state(&N[0].hcr, 2), IBW_HCR_QPS_RESET);
    TU_EQ(cmx_hcr_qp_state(&N[1].hcr, 8), IBW_HCR_QPS_RESET);
}

/* A REP timeout on the server while the client, having the REP,
 * is established and every RTU is lost.  IBA 12.9.5: the passive side
 * gives up with REJ(Timeout); the active side takes a REJ in Established
 * as the end of the connection (Linux cm_rej_handler: ESTABLISHED ->
 * timewait, REJ_RECEIVED).  Both sides report the failure, both QPs end in
 * RESET: never established on one side and dead on the other. */
static void test_rep_timeout_one_side(void)
{
    setup(2);
    connect_client(0, 2);
    run(1500);               /* REQ delivered at 1000, REP on the wire */
    W.drop_dir[0] = 1;       /* from now on the server hears nothing */
    run(10000000);
    /* eq. 3-4 wait per REP: 4.096 us * 2^1 + 2 * t_max = 10192 ns; REP at
     * 1000, again at 11192 and 21384, REJ(Timeout) at 31576. */
    expect_given_up(1, 0x13, 11192, 21384, 31576);
    TU_EQ(N[0].nev, 2);
    TU_EQ(N[0].ev[0].type, CMX_EV_ESTABLISHED);
    TU_EQ(N[0].ev[1].type, CMX_EV_REJECTED);
    TU_EQ(N[0].ev[1].reason, 4);
    TU_EQ(cmx_hcr_qp_state(&N[0].hcr, 2), IBW_HCR_QPS_RESET);
    TU_EQ(cmx_hcr_qp_state(&N[1].hcr, 8), IBW_HCR_QPS_RESET);
    TU_EQ(cmx_agent_live(N[0].ag) + cmx_agent_live(N[1].ag), 0);
}

/* Found by the soak test (seed 24840): a duplicate of the client's REQ reaches the
 * server after the connection was released.  Without TimeWait the server
 * took it for a new connection, gave it a fresh QP and sent a REP the
 * client could only reject.  IBA 12.9.8.3.1 / Linux cm_dup_req_handler: a
 * REQ of a connection in TimeWait gets REJ(stale connection, 10), and no
 * connection is opened. */
static void test_late_req(void)
{
    setup(2);
    connect_client(0, 2);
    run(1000000);
    uint8_t req[IBW_MAD_SIZE];
    memcpy(req, W.sent_mad[0][0], sizeof req);
    TU_EQ(cmx_disconnect(N[0].ag, W.now, 0), 0);
    run(2000000);
    TU_EQ(cmx_agent_live(N[1].ag), 0);
    unsigned before = W.nsent[1];
    cmx_receive(N[1].ag, W.now, req, sizeof req);
    TU_EQ(W.nsent[1], before + 1);
    TU_EQ(W.sent_attr[1][before], 0x12);
    const uint8_t *rej = W.sent_mad[1][before] + 24;
    TU_EQ(ibw_load_be32(rej), 0x11112222u);      /* LocalCommID: the old one */
    TU_EQ(ibw_load_be32(rej + 4), 0xAAAABBBBu);  /* RemoteCommID */
    TU_EQ(rej[8] >> 6, 0);                       /* MessageRejected = REQ */
    TU_EQ(ibw_load_be16(rej + 10), 10);
    TU_EQ(cmx_agent_live(N[1].ag), 0);
    TU_EQ(N[1].nev, 2);                          /* no new connection */
    run(3000000);
    TU_EQ(N[0].nev, 2);                          /* the client ignores it */
    /* One response timeout later (eq. 3-2: 8192 + 2000 ns) TimeWait is
     * over and the same REQ would be a new connection again. */
    W.now += 10192;
    before = W.nsent[1];
    cmx_receive(N[1].ag, W.now, req, sizeof req);
    TU_EQ(W.sent_attr[1][before], 0x13);
    TU_EQ(cmx_agent_live(N[1].ag), 1);
}

static void test_hcr_protocol(void)
{
    struct cmx_hcr h;
    cmx_hcr_init(&h, NULL, NULL);
    cmx_hcr_add_qp(&h, 5);
    struct cmx_mbox mb;
    memset(&mb, 0, sizeof mb);
    mb.pmtu = 3;
    mb.remote_qpn = 9;
    /* RESET -> RTR skips INIT: IBA forbids it, BAD_QP_STATE (0x10). */
    TU_EQ(cmx_hcr_modify_qp(&h, IBW_HCR_OP_INIT2RTR_QP, 5, &mb), 0x10);
    /* Last word after it: status 0x10 in [31:24], go 0, t 0, opcode 0x1A. */
    TU_EQ(cmx_hcr_read32(&h, 0x18), 0x1000001Au);
    TU_EQ(cmx_hcr_modify_qp(&h, IBW_HCR_OP_RST2INIT_QP, 5, &mb), 0);
    TU_EQ(cmx_hcr_read32(&h, 0x18), 0x00200019u); /* t = 1 this time */
    TU_EQ(cmx_hcr_read32(&h, 0x08), 5);           /* in_modifier = QPN */
    TU_EQ(cmx_hcr_read32(&h, 0x00), 0);           /* mailbox 0x10000000 */
    TU_EQ(cmx_hcr_read32(&h, 0x04), 0x10000000u);
    TU_EQ(cmx_hcr_modify_qp(&h, IBW_HCR_OP_RTR2RTS_QP, 5, &mb), 0x10);
    mb.remote_qpn = 0;
    TU_EQ(cmx_hcr_modify_qp(&h, IBW_HCR_OP_INIT2RTR_QP, 5, &mb), 0x03);
    mb.remote_qpn = 9;
    TU_EQ(cmx_hcr_modify_qp(&h, IBW_HCR_OP_INIT2RTR_QP, 5, &mb), 0);
    TU_EQ(cmx_hcr_modify_qp(&h, IBW_HCR_OP_RTR2RTS_QP, 5, &mb), 0);
    TU_EQ(cmx_hcr_qp_state(&h, 5), IBW_HCR_QPS_RTS);
    TU_EQ(cmx_hcr_modify_qp(&h, IBW_HCR_OP_2ERR_QP, 5, NULL), 0);
    TU_EQ(cmx_hcr_modify_qp(&h, IBW_HCR_OP_2RST_QP, 5, NULL), 0);
    TU_EQ(cmx_hcr_modify_qp(&h, IBW_HCR_OP_2RST_QP, 5, NULL), 0x10);
    TU_EQ(cmx_hcr_modify_qp(&h, IBW_HCR_OP_RST2INIT_QP, 77, &mb), 0x0A);
    TU_EQ(cmx_hcr_modify_qp(&h, IBW_HCR_OP_NOP, 5, &mb), 0x02);
    /* Raw register protocol: go stays up until the device runs; meanwhile
     * the driver sees the register busy and a second go is ignored. */
    cmx_hcr_write32(&h, 0x08, 5);
    cmx_hcr_write32(&h, 0x18, 0x00800019u | ((uint32_t)h.toggle << 21));
    TU_CHECK(ibw_hcr_busy(h.regs, h.toggle));
    TU_EQ(cmx_hcr_read32(&h, 0x18) >> 23 & 1u, 1);
    cmx_hcr_write32(&h, 0x18, 0x0080001Eu);
    TU_EQ(cmx_hcr_read32(&h, 0x18) & 0xFFFu, 0x019);
    cmx_hcr_device_step(&h);
    TU_EQ(cmx_hcr_read32(&h, 0x18) >> 23 & 1u, 0);
    TU_EQ(cmx_hcr_read32(&h, 0x18) >> 24, 0);
    TU_EQ(cmx_hcr_qp_state(&h, 5), IBW_HCR_QPS_INIT);
}

static void test_gmp_wqe_cqe(void)
{
    struct cmx_gmp_port p;
    cmx_gmp_init(&p, 1, 0x0A000001u, 0x0A000000u, 1, 4);
    uint8_t mad[IBW_MAD_SIZE] = {1, 7, 2, 3};
    TU_EQ(cmx_gmp_post(&p, mad), 0);
    /* fig. 4-15: opcode 01010 in byte 3, DS 2 in byte 7 [5:0], byte 11 =
     * icrc (0x10) | C = 3 (0x0C), RLID 4 in bytes 12-13; fig. 4-16: byte
     * count 256, lkey 0, address 0x20000000. */
    static const uint8_t wqe[32] = {
        0, 0, 0, 0x0A, 0, 0, 0, 0x02, 0, 0, 0, 0x1C, 0x00, 0x04, 0, 0,
        0, 0, 0x01, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0x20, 0, 0, 0};
    TU_MEMEQ(p.sq[0], wqe, 32);
    TU_EQ(p.doorbell, 0x00000100u); /* fig. 4-17: QPN 1 << 8 */
    uint8_t f[400];
    TU_EQ(cmx_gmp_transmit(&p, f, sizeof f), 322);
    /* fig. 4-19: my QPN 1 in bytes 1-3, byte count 256 at 0x14, byte 31 =
     * owner 0 | S/R 1 (0x40) | opcode 01010. */
    TU_EQ(ibw_load_be32(p.cq[0]), 1);
    TU_EQ(ibw_load_be32(p.cq[0] + 20), 256);
    TU_EQ(p.cq[0][31], 0x4A);
    TU_EQ(cmx_gmp_transmit(&p, f, sizeof f), 0);
    /* A frame with the wrong Q_Key is refused. */
    f[54] ^= 0xFF;
    uint8_t out[IBW_MAD_SIZE];
    TU_CHECK(cmx_gmp_receive(&p, f, 322, out) != IBW_OK);
    TU_CHECK(cmx_gmp_receive(&p, f, 100, out) != IBW_OK);
    /* Owner bit of the second pass: WQE 16 carries owner 1 (bit 7 of byte 0). */
    for (int i = 0; i < 16; i++) {
        cmx_gmp_post(&p, mad);
        cmx_gmp_transmit(&p, f, sizeof f);
    }
    TU_EQ(p.sq[0][0], 0x80);
}

static void test_arbitration(void)
{
    /* Fig. 5-7: QP3 is being served when QP0 asks; QP0 waits for QP3 to
     * finish.  Then QP0 and QP1 wait: QP0 first; then QP1 over QP4 and
     * QP5; then QP4, QP5, QP6 in the order they asked. */
    struct cmx_arb a;
    uint32_t q;
    uint64_t tok;
    cmx_arb_init(&a);
    cmx_arb_request(&a, 3, 0);
    TU_EQ(cmx_arb_grant(&a, &q, &tok), 1);
    TU_EQ(q, 3);
    cmx_arb_request(&a, 0, 0);
    TU_EQ(cmx_arb_grant(&a, &q, &tok), 0); /* non-preemptive */
    cmx_arb_request(&a, 4, 0);
    cmx_arb_request(&a, 1, 0);
    cmx_arb_request(&a, 5, 0);
    cmx_arb_done(&a);
    TU_EQ(cmx_arb_grant(&a, &q, &tok), 1);
    TU_EQ(q, 0);
    cmx_arb_request(&a, 6, 0);
    cmx_arb_done(&a);
    TU_EQ(cmx_arb_grant(&a, &q, &tok), 1);
    TU_EQ(q, 1);
    static const uint32_t rest[3] = {4, 5, 6};
    for (int i = 0; i < 3; i++) {
        cmx_arb_done(&a);
        TU_EQ(cmx_arb_grant(&a, &q, &tok), 1);
        TU_EQ(q, rest[i]);
    }
    cmx_arb_done(&a);
    TU_EQ(cmx_arb_grant(&a, &q, &tok), 0);
}

int main(void)
{
    test_normal();
    test_timeout_retry();
    test_rej_invalid_comm_id();
    test_disconnect(0);
    test_disconnect(1);
    test_mra();
    test_peer_crossing();
    test_stale();
    test_late_rep();
    test_late_req();
    test_rep_timeout_one_side();
    test_hcr_protocol();
    test_gmp_wqe_cqe();
    test_arbitration();
    for (int i = 0; i < 2; i++)
        cmx_agent_destroy(N[i].ag);
    return tu_done("cm_directed");
}
