/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_cm_psn: the meaning of a REQ's and REP's Starting PSN, held to what
 * Linux did on the wire.  For each capture of an RDMA CM connection
 * between two Linux rxe devices (the bundled pcaps/rxe-rping.pcap, and
 * ../shared/captures/rxe-rping-cm-send-read-write.pcap when present), the
 * capture's REQ is handed to a cmx agent acting as the server (accepting
 * with the capture's REP PSN and QPN), and the capture's REP to a cmx agent
 * acting as the client (that sent a REQ with the capture's REQ PSN).  The
 * QP attributes each agent then gives its QP must be the PSNs the two Linux
 * sides actually sent first: the client's first request packet and the
 * server's first request packet of the capture, which no CM code decides
 * here.  (In the shared capture: REQ PSN 0x003da6, REP PSN 0xfebd3d; the
 * client's first SEND carries 0xfebd3d, the server's first READ 0x003da6.)
 *
 * Usage: test_cm_psn FILE...; a FILE that cannot be opened is skipped,
 * exit 77 when none could be.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ibwire/packet.h>

#include "capture.h"
#include "cmx.h"
#include "testutil.h"

struct seen {
    int have_req, have_rep;
    uint8_t req[IBW_MAD_SIZE], rep[IBW_MAD_SIZE];
    uint32_t client_qpn, server_qpn;
    int have_client_first, have_server_first;
    uint32_t client_first_psn, server_first_psn; /* first request PSNs */
};

static int is_rc_request(uint8_t opcode)
{
    if (opcode >> 5 != 0) /* RC only */
        return 0;
    uint8_t op = opcode & 0x1F;
    return op <= 0x0C || op == 0x13 || op == 0x14 || op == 0x16 || op == 0x17;
}

static int read_capture(const char *path, struct seen *s)
{
    char err[256];
    struct cap_reader *r = cap_open(path, err, sizeof err);
    if (!r)
        return -1;
    memset(s, 0, sizeof *s);
    struct cap_frame fr;
    while (cap_next(r, &fr) == 1) {
        struct ibw_pkt k;
        if (!fr.iba || ibw_parse(fr.iba, fr.iba_len, fr.link, &k) != IBW_OK ||
            !ibw_pkt_has(&k, IBW_HDR_BTH))
            continue;
        const uint8_t *bth = fr.iba + k.off[IBW_HDR_BTH];
        uint32_t dqp = ibw_bth_get_destqp(bth);
        if (dqp == 1 && k.payload_len >= IBW_MAD_SIZE) {
            const uint8_t *mad = ibw_pkt_payload(&k);
            uint16_t attr = ibw_mad_hdr_get_attributeid(mad);
            const uint8_t *d = mad + IBW_CM_DATA_OFFSET;
            if (ibw_mad_hdr_get_mgmtclass(mad) != IBW_MGMT_CLASS_CM)
                continue;
            if (attr == IBW_CM_ATTR_REQ && !s->have_req) {
                memcpy(s->req, mad, IBW_MAD_SIZE);
                s->client_qpn = ibw_cm_req_get_localqpn(d);
                s->have_req = 1;
            } else if (attr == IBW_CM_ATTR_REP && !s->have_rep) {
                memcpy(s->rep, mad, IBW_MAD_SIZE);
                s->server_qpn = ibw_cm_rep_get_localqpn(d);
                s->have_rep = 1;
            }
            continue;
        }
        if (!s->have_rep || !is_rc_request(k.opcode))
            continue;
        if (dqp == s->server_qpn && !s->have_client_first) {
            s->client_first_psn = ibw_bth_get_psn(bth);
            s->have_client_first = 1;
        } else if (dqp == s->client_qpn && !s->have_server_first) {
            s->server_first_psn = ibw_bth_get_psn(bth);
            s->have_server_first = 1;
        }
    }
    cap_close(r);
    return 0;
}

/* One side's agent and what it did. */
struct side {
    struct cmx_hcr hcr;
    struct cmx_agent *ag;
    uint8_t sent[4][IBW_MAD_SIZE];
    int nsent, established;
    uint32_t accept_qpn, accept_psn;
};

static void s_send(void *ctx, const uint8_t *mad)
{
    struct side *s = ctx;
    if (s->nsent < 4)
        memcpy(s->sent[s->nsent], mad, IBW_MAD_SIZE);
    s->nsent++;
}

static int s_qp(void *ctx, uint16_t op, uint32_t qpn, const struct cmx_mbox *mb)
{
    struct side *s = ctx;
    return cmx_hcr_modify_qp(&s->hcr, op, qpn, mb);
}

static int s_req(void *ctx, uint32_t conn, const struct ibw_cm_req *req,
                 struct cmx_accept *acc)
{
    struct side *s = ctx;
    (void)conn;
    (void)req;
    cmx_hcr_add_qp(&s->hcr, s->accept_qpn);
    acc->qpn = s->accept_qpn;
    acc->start_psn = s->accept_psn;
    return CMX_ACCEPT;
}

static void s_event(void *ctx, const struct cmx_event *ev)
{
    struct side *s = ctx;
    if (ev->type == CMX_EV_ESTABLISHED)
        s->established = 1;
}

static int s_apply(void *ctx, uint32_t qpn, unsigned from, unsigned to,
                   const struct cmx_mbox *mb)
{
    (void)ctx, (void)qpn, (void)from, (void)to, (void)mb;
    return 0;
}

static void side_init(struct side *s, uint64_t guid)
{
    memset(s, 0, sizeof *s);
    cmx_hcr_init(&s->hcr, s_apply, s);
    struct cmx_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.guid = guid;
    cfg.lid = 0xFFFF;
    cfg.comm_id_base = 0x100;
    cfg.resp_timeout = 20;
    cfg.service_timeout = 20;
    cfg.max_cm_retries = 15;
    cfg.t_max_ns = 1000000;
    cfg.max_conns = 4;
    struct cmx_ops ops = {s, s_send, s_qp, s_req, s_event};
    s->ag = cmx_agent_create(&cfg, &ops);
}

static void check_capture(const char *path, const struct seen *c)
{
    const uint8_t *qd = c->req + IBW_CM_DATA_OFFSET;
    const uint8_t *pd = c->rep + IBW_CM_DATA_OFFSET;
    uint32_t req_psn = ibw_cm_req_get_startpsn(qd);
    uint32_t rep_psn = ibw_cm_rep_get_startpsn(pd);
    printf("%s: REQ PSN 0x%06x, REP PSN 0x%06x, client's first request 0x%06x, "
           "server's 0x%06x\n", path, req_psn, rep_psn, c->client_first_psn,
           c->server_first_psn);

    /* The server: the capture's REQ in, accepted as the capture's server. */
    struct side srv;
    side_init(&srv, 0x1111);
    srv.accept_qpn = c->server_qpn;
    srv.accept_psn = rep_psn;
    TU_EQ(cmx_listen(srv.ag, ibw_cm_req_get_serviceid(qd)), 0);
    cmx_receive(srv.ag, 1000, c->req, IBW_MAD_SIZE);
    TU_EQ(srv.nsent, 1);
    TU_EQ(ibw_mad_hdr_get_attributeid(srv.sent[0]), IBW_CM_ATTR_REP);
    TU_EQ(ibw_cm_rep_get_startpsn(srv.sent[0] + IBW_CM_DATA_OFFSET), rep_psn);
    TU_EQ(cmx_hcr_qp_state(&srv.hcr, c->server_qpn), IBW_HCR_QPS_RTR);
    TU_EQ(srv.hcr.qp_attr[c->server_qpn].sq_psn, c->server_first_psn);
    TU_EQ(srv.hcr.qp_attr[c->server_qpn].rq_psn, c->client_first_psn);

    /* The client: a REQ with the capture's PSN out, the capture's REP in
     * (its TID and Remote Communication ID made this agent's). */
    struct side cli;
    side_init(&cli, 0x2222);
    cmx_hcr_add_qp(&cli.hcr, c->client_qpn);
    struct cmx_connect cc = {ibw_cm_req_get_serviceid(qd), c->client_qpn,
                             req_psn, 3, 7, 7, 0, NULL, 0};
    TU_CHECK(cmx_connect(cli.ag, 1000, &cc) >= 0);
    TU_EQ(cli.nsent, 1);
    uint8_t rep[IBW_MAD_SIZE];
    memcpy(rep, c->rep, sizeof rep);
    ibw_mad_hdr_set_transactionid(rep, ibw_mad_hdr_get_transactionid(cli.sent[0]));
    ibw_cm_rep_set_remotecommid(rep + IBW_CM_DATA_OFFSET,
                                ibw_cm_req_get_localcommid(cli.sent[0] +
                                                           IBW_CM_DATA_OFFSET));
    cmx_receive(cli.ag, 2000, rep, sizeof rep);
    TU_EQ(cli.established, 1);
    TU_EQ(cmx_hcr_qp_state(&cli.hcr, c->client_qpn), IBW_HCR_QPS_RTS);
    TU_EQ(cli.hcr.qp_attr[c->client_qpn].sq_psn, c->client_first_psn);
    TU_EQ(cli.hcr.qp_attr[c->client_qpn].rq_psn, c->server_first_psn);

    cmx_agent_destroy(srv.ag);
    cmx_agent_destroy(cli.ag);
}

int main(int argc, char **argv)
{
    int used = 0;
    for (int i = 1; i < argc; i++) {
        struct seen s;
        if (read_capture(argv[i], &s)) {
            printf("%s: not there, skipped\n", argv[i]);
            continue;
        }
        used++;
        TU_CHECK(s.have_req && s.have_rep);
        TU_CHECK(s.have_client_first && s.have_server_first);
        /* Linux's two PSNs differ (random), or the test could not tell the
         * two meanings apart. */
        TU_CHECK(s.client_first_psn != s.server_first_psn);
        TU_CHECK(s.server_qpn < CMX_HCR_MAX_QP && s.client_qpn < CMX_HCR_MAX_QP);
        if (s.have_req && s.have_rep && s.have_client_first &&
            s.have_server_first && s.server_qpn < CMX_HCR_MAX_QP &&
            s.client_qpn < CMX_HCR_MAX_QP)
            check_capture(argv[i], &s);
    }
    if (!used)
        return 77;
    return tu_done("cm_psn");
}
