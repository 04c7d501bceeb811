/* check_cm.c - connection management: REQ -> REP -> RTU (REJ, MRA) and
 * DREQ -> DREP per communication ID, field values, the REP timeout, and the
 * QPNs/PSNs the exchange negotiates, handed to the flow tracker. */
#include <stdlib.h>
#include <string.h>

#include "check_int.h"
#include "ibwire/cm.h"

enum cm_state {
    CM_REQ_SENT = 1,
    CM_REP_SENT,
    CM_ESTABLISHED,
    CM_REJECTED,
    CM_DREQ_SENT,
    CM_CLOSED
};

struct chk_cm {
    struct chk_addr client, server;
    uint32_t client_id, server_id;
    uint32_t client_qpn, server_qpn;
    uint32_t client_psn, server_psn;
    uint64_t req_ts;
    uint64_t rep_wait_ns;
    uint8_t state;
    uint8_t mra_seen;
    uint8_t dreq_from_client;
    uint8_t tr;             /* the REQ's service type (enum ibw_transport) */
    uint8_t tr_known;
    uint32_t pmtu;          /* the REQ's path MTU in bytes, 0 if not valid */
};

static const char *state_name(unsigned s)
{
    static const char *const n[] = {"none",     "REQ sent",  "REP sent",
                                    "established", "rejected", "DREQ sent",
                                    "closed"};
    return s < sizeof n / sizeof n[0] ? n[s] : "?";
}

void chk_cm_free(struct chk *c)
{
    free(c->cm);
    c->cm = NULL;
    c->ncm = c->capcm = 0;
}

static struct chk_cm *cm_new(struct chk *c)
{
    if (c->ncm == c->capcm) {
        uint32_t n = c->capcm ? c->capcm * 2 : 8;
        struct chk_cm *m = realloc(c->cm, (size_t)n * sizeof *m);
        if (!m)
            return NULL;
        c->cm = m;
        c->capcm = n;
    }
    struct chk_cm *e = &c->cm[c->ncm++];
    memset(e, 0, sizeof *e);
    return e;
}

/* The exchange whose client (at `client`) chose communication ID id. */
static struct chk_cm *by_client(struct chk *c, const struct chk_addr *client,
                                uint32_t id)
{
    for (uint32_t i = c->ncm; i-- > 0;)
        if (c->cm[i].client_id == id && chk_addr_eq(&c->cm[i].client, client))
            return &c->cm[i];
    return NULL;
}

/* The exchange whose server (at `server`) chose communication ID id. */
static struct chk_cm *by_server(struct chk *c, const struct chk_addr *server,
                                uint32_t id)
{
    for (uint32_t i = c->ncm; i-- > 0;)
        if (c->cm[i].state >= CM_REP_SENT && c->cm[i].server_id == id &&
            chk_addr_eq(&c->cm[i].server, server))
            return &c->cm[i];
    return NULL;
}

/* A flow with no packets yet takes the transport the REQ named, so its
 * first packet is held to it too. */
static void cm_transport(struct chk_flow *f, const struct chk_cm *e)
{
    if (e->tr_known && !f->s.requests && !f->s.responses) {
        f->tr = e->tr;
        f->tr_known = 1;
    }
}

/* What the exchange tells a flow it set up: transport, PMTU, pairing. */
static void cm_flow(struct chk *c, struct chk_flow *f, const struct chk_cm *e)
{
    cm_transport(f, e);
    f->s.resp_qpn_known = 1;
    f->s.cm_negotiated = 1;
    f->s.paired_by = "cm";
    if (e->pmtu && !c->o.pmtu && f->pmtu_src != CHK_PMTU_CM) {
        f->s.pmtu = e->pmtu;
        f->pmtu_src = CHK_PMTU_CM;
        f->s.pmtu_source = "cm";
    }
}

/* Tell the flow tracker what REQ/REP negotiated. */
static void bind_flows(struct chk *c, const struct chk_cm *e)
{
    struct chk_flow *f = chk_flow_get(c, &e->client, &e->server, e->server_qpn, 1);
    if (f) {
        cm_flow(c, f, e);
        if (!f->have_psn) {
            f->cm_psn_pending = 1;
            f->cm_start_psn = e->client_psn;
            f->cm_alt_psn = e->server_psn;
        }
        if (!f->s.req_qpn_known)
            chk_flow_bind(c, f, e->client_qpn);
    }
    f = chk_flow_get(c, &e->server, &e->client, e->client_qpn, 1);
    if (f) {
        cm_flow(c, f, e);
        if (!f->have_psn) {
            f->cm_psn_pending = 1;
            f->cm_start_psn = e->server_psn;
            f->cm_alt_psn = e->client_psn;
        }
        if (!f->s.req_qpn_known)
            chk_flow_bind(c, f, e->server_qpn);
    }
}

static void on_req(struct chk *c, const struct chk_addr *src,
                   const struct chk_addr *dst, const struct ibw_cm_req *m)
{
    if (m->pppmtu < 1 || m->pppmtu > 5)
        chk_report(c, CHK_R_CM_FIELD, "REQ path MTU code %u, expected 1..5",
                   m->pppmtu);
    if (m->transpsvctype == IBW_CM_TRANSPORT_EXTENDED &&
        m->ext_transport != IBW_CM_EXT_TRANSPORT_XRC)
        chk_report(c, CHK_R_CM_FIELD,
                   "REQ extended transport type %u, expected 1 (XRC)",
                   m->ext_transport);
    struct chk_cm *e = by_client(c, src, m->localcommid);
    if (e && e->state == CM_REQ_SENT)
        return; /* a resent REQ */
    if (!e)
        e = cm_new(c);
    if (!e)
        return;
    memset(e, 0, sizeof *e);
    e->client = *src;
    e->server = *dst;
    e->client_id = m->localcommid;
    e->client_qpn = m->localqpn;
    e->client_psn = m->startpsn;
    e->req_ts = c->ts_ns;
    e->rep_wait_ns = ibw_cm_timeout_ns(m->remoteresptout);
    e->pmtu = m->pppmtu >= 1 && m->pppmtu <= 5 ? ibw_mtu_enum_to_bytes(m->pppmtu) : 0;
    e->state = CM_REQ_SENT;
    e->tr_known = 1;
    if (m->transpsvctype == IBW_CM_TRANSPORT_RC)
        e->tr = IBW_TR_RC;
    else if (m->transpsvctype == IBW_CM_TRANSPORT_UC)
        e->tr = IBW_TR_UC;
    else if (m->transpsvctype == IBW_CM_TRANSPORT_RD)
        e->tr = IBW_TR_RD;
    else if (m->ext_transport == IBW_CM_EXT_TRANSPORT_XRC)
        e->tr = IBW_TR_XRC;
    else
        e->tr_known = 0;
}

static void on_rep(struct chk *c, const struct chk_addr *src,
                   const struct chk_addr *dst, const struct ibw_cm_rep *m)
{
    struct chk_cm *e = by_client(c, dst, m->remotecommid);
    if (!e) {
        chk_report(c, CHK_R_CM_UNMATCHED,
                   "REP for communication ID 0x%08x: no REQ seen",
                   m->remotecommid);
        return;
    }
    if (e->state == CM_REP_SENT && e->server_id == m->localcommid)
        return; /* a resent REP */
    if (e->state != CM_REQ_SENT) {
        chk_report(c, CHK_R_CM_SEQ, "REP for communication ID 0x%08x in state %s",
                   m->remotecommid, state_name(e->state));
        return;
    }
    uint64_t took = c->ts_ns - e->req_ts;
    if (!e->mra_seen && c->ts_ns >= e->req_ts && took > e->rep_wait_ns)
        chk_report(c, CHK_R_CM_TIMEOUT,
                   "REP %llu us after the REQ, whose response timeout is %llu us",
                   (unsigned long long)(took / 1000),
                   (unsigned long long)(e->rep_wait_ns / 1000));
    e->server = *src;
    e->server_id = m->localcommid;
    e->server_qpn = m->localqpn;
    e->server_psn = m->startpsn;
    e->state = CM_REP_SENT;
    bind_flows(c, e);
}

static void on_rtu(struct chk *c, const struct chk_addr *src,
                   const struct ibw_cm_rtu *m)
{
    struct chk_cm *e = by_client(c, src, m->localcommid);
    if (!e || e->state < CM_REP_SENT) {
        chk_report(c, CHK_R_CM_UNMATCHED,
                   "RTU for communication ID 0x%08x: no REP seen",
                   m->localcommid);
        return;
    }
    if (e->server_id != m->remotecommid)
        chk_report(c, CHK_R_CM_SEQ,
                   "RTU remote communication ID 0x%08x, the REP's is 0x%08x",
                   m->remotecommid, e->server_id);
    if (e->state == CM_REP_SENT)
        e->state = CM_ESTABLISHED;
    else if (e->state != CM_ESTABLISHED)
        chk_report(c, CHK_R_CM_SEQ, "RTU in state %s", state_name(e->state));
}

static void on_rej(struct chk *c, const struct chk_addr *src,
                   const struct chk_addr *dst, const struct ibw_cm_rej *m)
{
    if (!ibw_cm_rej_reason_name(m->reason))
        chk_report(c, CHK_R_CM_FIELD, "REJ reason %u is not defined", m->reason);
    if (m->msgrej > IBW_CM_MSG_OTHER)
        chk_report(c, CHK_R_CM_FIELD, "REJ message rejected code %u, expected 0..2",
                   m->msgrej);
    struct chk_cm *e = m->msgrej == IBW_CM_MSG_REQ
                           ? by_client(c, dst, m->remotecommid)
                           : by_server(c, dst, m->remotecommid);
    if (!e)
        e = by_client(c, src, m->localcommid);
    if (!e) {
        if (m->remotecommid || m->msgrej != IBW_CM_MSG_REQ)
            chk_report(c, CHK_R_CM_UNMATCHED,
                       "REJ for communication ID 0x%08x: no REQ/REP seen",
                       m->remotecommid);
        return;
    }
    if (e->state >= CM_ESTABLISHED && e->state != CM_REJECTED)
        chk_report(c, CHK_R_CM_SEQ, "REJ in state %s", state_name(e->state));
    e->state = CM_REJECTED;
}

static void on_mra(struct chk *c, const struct chk_addr *dst,
                   const struct ibw_cm_mra *m)
{
    if (m->msgmraed > IBW_CM_MSG_OTHER)
        chk_report(c, CHK_R_CM_FIELD, "MRA message MRAed code %u, expected 0..2",
                   m->msgmraed);
    struct chk_cm *e = m->msgmraed == IBW_CM_MSG_REQ
                           ? by_client(c, dst, m->remotecommid)
                           : by_server(c, dst, m->remotecommid);
    if (!e) {
        chk_report(c, CHK_R_CM_UNMATCHED,
                   "MRA for communication ID 0x%08x: no REQ/REP seen",
                   m->remotecommid);
        return;
    }
    e->mra_seen = 1;
}

/* The exchange a DREQ/DREP from src with these IDs belongs to; *from_client
 * says which side sent it. */
static struct chk_cm *by_ids(struct chk *c, const struct chk_addr *src,
                             uint32_t local, uint32_t remote, int *from_client)
{
    struct chk_cm *e = by_client(c, src, local);
    if (e && e->state >= CM_REP_SENT && e->server_id == remote) {
        *from_client = 1;
        return e;
    }
    e = by_server(c, src, local);
    if (e && e->client_id == remote) {
        *from_client = 0;
        return e;
    }
    return NULL;
}

static void on_dreq(struct chk *c, const struct chk_addr *src,
                    const struct ibw_cm_dreq *m)
{
    int from_client = 0;
    struct chk_cm *e = by_ids(c, src, m->localcommid, m->remotecommid,
                              &from_client);
    if (!e) {
        chk_report(c, CHK_R_CM_UNMATCHED,
                   "DREQ for communication IDs 0x%08x/0x%08x: no connection seen",
                   m->localcommid, m->remotecommid);
        return;
    }
    uint32_t peer = from_client ? e->server_qpn : e->client_qpn;
    if (m->remoteqpneecn != peer)
        chk_report(c, CHK_R_CM_QPN, "DREQ names remote QPN 0x%06x, the peer's "
                   "negotiated QPN is 0x%06x", m->remoteqpneecn, peer);
    if (e->state == CM_DREQ_SENT)
        return; /* resent, or both sides disconnecting at once */
    if (e->state != CM_ESTABLISHED && e->state != CM_REP_SENT)
        chk_report(c, CHK_R_CM_SEQ, "DREQ in state %s", state_name(e->state));
    e->state = CM_DREQ_SENT;
    e->dreq_from_client = (uint8_t)from_client;
}

static void on_drep(struct chk *c, const struct chk_addr *src,
                    const struct ibw_cm_drep *m)
{
    int from_client = 0;
    struct chk_cm *e = by_ids(c, src, m->localcommid, m->remotecommid,
                              &from_client);
    if (!e || (e->state != CM_DREQ_SENT && e->state != CM_CLOSED)) {
        chk_report(c, CHK_R_CM_UNMATCHED,
                   "DREP for communication IDs 0x%08x/0x%08x: no DREQ seen",
                   m->localcommid, m->remotecommid);
        return;
    }
    e->state = CM_CLOSED;
}

void chk_cm_mad(struct chk *c, const struct ibw_pkt *p, const uint8_t *mad,
                size_t len)
{
    struct ibw_cm_msg m;
    struct chk_addr src, dst;
    if (len < IBW_CM_DATA_OFFSET + IBW_CM_DATA_SIZE)
        return;
    uint16_t attr = ibw_mad_hdr_get_attributeid(mad);
    if (ibw_cm_decode(mad + IBW_CM_DATA_OFFSET, IBW_CM_DATA_SIZE, attr, &m) !=
        IBW_OK)
        return;
    chk_pkt_addrs(p, &src, &dst);
    switch (attr) {
    case IBW_CM_ATTR_REQ: on_req(c, &src, &dst, &m.u.req); break;
    case IBW_CM_ATTR_REP: on_rep(c, &src, &dst, &m.u.rep); break;
    case IBW_CM_ATTR_RTU: on_rtu(c, &src, &m.u.rtu); break;
    case IBW_CM_ATTR_REJ: on_rej(c, &src, &dst, &m.u.rej); break;
    case IBW_CM_ATTR_MRA: on_mra(c, &dst, &m.u.mra); break;
    case IBW_CM_ATTR_DREQ: on_dreq(c, &src, &m.u.dreq); break;
    case IBW_CM_ATTR_DREP: on_drep(c, &src, &m.u.drep); break;
    default: break; /* SIDR, LAP, APR: no rules yet */
    }
}
