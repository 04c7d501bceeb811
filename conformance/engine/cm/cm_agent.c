/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cm_agent.c - the CM client (fig. 4-2) and server (fig. 4-3) state machines
 * of the UESTC thesis (2017) over a connection table, with the
 * timeout-and-retry unit of §4.1.4 (eq. 3-2 ... 3-5 from ibwire/cm.h).
 *
 * The thesis's hardware serves one connection at a time and returns to
 * IDLE/LISTEN after ESTABLISHED to be free for the next; here each table
 * entry runs its own copy of the machine, so an established entry stays in
 * ESTABLISHED while the link is up and the module is always free.  The
 * pass-through states (PEER_COMPARE, REP_RCVD, REJ_RETRY, DCONN_PRO,
 * DREQ_RCVD, DREP_RCVD, REJ_SENT) are entered and left inside one call; each
 * entry records the states it visits so tests can hold it to the figures.
 *
 * Where the thesis is silent the IBA rules apply: a duplicate REQ is
 * answered with the REP (or MRA) again, a duplicate REP with the RTU again,
 * a DREQ for an unknown connection with a DREP, a DREQ that goes unanswered
 * is retried like a REQ, and giving up on a REQ/REP sends REJ(Timeout).
 * An established connection that ends stays in TimeWait for one response
 * timeout: only its identity, so that a late REQ gets REJ(stale) and a late
 * REP nothing; its QP goes to RESET at once and may serve the next
 * connection (the caller's pool decides), unlike IBA's TimeWait, which also
 * keeps the QP out of use so that stale data packets die out first.
 */
#include <stdlib.h>
#include <string.h>

#include "cmx.h"

/* The local ACK timeout code (4.096 us x 2^14 = 67 ms) of the QPs this
 * agent connects, and the one its REQ states (IBA 12.7.34): a checker that
 * reads the REQ judges this QP's resends by it, so the two must agree. */
enum { CMX_QP_TIMEOUT_CODE = 14 };

/* What TimeWait keeps of a connection that was established and is over:
 * enough to know its MADs when they come late (IBA 12.9.8.3.1; Linux keeps
 * cm_timewait_info in its remote-ID table for the same purpose). */
#define CMX_TW_MAX 256u
struct cmx_tw {
    uint64_t remote_guid, until;
    uint32_t remote_comm_id, local_comm_id;
};

struct cmx_agent {
    struct cmx_config cfg;
    uint64_t now;                 /* time of the call being served */
    struct cmx_tw tw[CMX_TW_MAX]; /* a ring: the oldest is overwritten */
    uint32_t ntw;
    struct cmx_ops ops;
    struct cmx_conn *c;
    uint32_t cursor;
    uint64_t next_tid;
    uint32_t next_comm;
    uint64_t listen[8];
    unsigned nlisten;
    struct cmx_stats st;
};

static void go(struct cmx_conn *c, uint8_t s)
{
    c->state = s;
    if (c->npath < CMX_PATH_MAX)
        c->path[c->npath++] = s;
}

static uint32_t handle_of(const struct cmx_agent *a, const struct cmx_conn *c)
{
    return (uint32_t)(c - a->c);
}

static void emit(struct cmx_agent *a, struct cmx_conn *c, uint8_t type,
                 uint16_t reason)
{
    if (!a->ops.on_event)
        return;
    struct cmx_event ev = {type, c->role, handle_of(a, c), c->qpn,
                           c->remote_qpn, reason, NULL, 0};
    if (c->private_in_len) {
        ev.private_data = c->private_in;
        ev.private_len = c->private_in_len;
    }
    a->ops.on_event(a->ops.ctx, &ev);
}

static struct cmx_conn *alloc_conn(struct cmx_agent *a, uint8_t role)
{
    /* Round robin, so a finished entry keeps its record for a while. */
    for (uint32_t i = 0; i < a->cfg.max_conns; i++) {
        uint32_t k = (a->cursor + i) % a->cfg.max_conns;
        if (!a->c[k].used) {
            a->cursor = k + 1;
            struct cmx_conn *c = &a->c[k];
            memset(c, 0, sizeof *c);
            c->used = 1;
            c->role = role;
            c->local_comm_id = a->next_comm++;
            go(c, role == CMX_CLIENT ? CMX_IDLE : CMX_LISTEN);
            return c;
        }
    }
    return NULL;
}

static void send(struct cmx_agent *a, const uint8_t *mad)
{
    a->st.mads_sent++;
    a->ops.send_mad(a->ops.ctx, mad);
}

/* Remember and send; a retry sends last_mad again. */
static void send_keep(struct cmx_agent *a, struct cmx_conn *c)
{
    send(a, c->last_mad);
}

static int qp_cmd(struct cmx_agent *a, struct cmx_conn *c, uint16_t op)
{
    struct cmx_mbox mb;
    memset(&mb, 0, sizeof mb);
    mb.transport = IBW_CM_TRANSPORT_RC;
    mb.pmtu = c->pmtu;
    mb.retry_cnt = c->retry_cnt & 7u;
    mb.rnr_retry = c->rnr_retry & 7u;
    mb.ack_timeout = CMX_QP_TIMEOUT_CODE;
    mb.min_rnr_timer = 1;
    mb.remote_qpn = c->remote_qpn;
    /* A REQ's or REP's Starting PSN (Tables 106, 110) is the first PSN its
     * sender expects to receive.  Linux reads it so: ib_send_cm_req() takes
     * its own REQ's PSN as the active side's rq_psn, cm_req_handler() the
     * REQ's as the passive side's sq_psn, the REP's the other way round,
     * and rxe NAKs every request sent from the PSN read the other way.  So
     * this side sends from the PSN the other side put in its message. */
    mb.sq_psn = c->remote_psn;
    mb.rq_psn = c->start_psn;
    mb.pkey = 0xFFFF;
    mb.dlid = c->remote_lid;
    mb.resp_res = 16;
    mb.init_depth = 16;
    a->st.qp_cmds++;
    int st = a->ops.qp_cmd(a->ops.ctx, op, c->qpn, &mb);
    if (st != 0)
        emit(a, c, CMX_EV_QP_CMD_FAILED, (uint16_t)st);
    return st;
}

static void start_timer(struct cmx_conn *c, uint64_t now, uint64_t wait)
{
    c->wait_ns = wait;
    c->deadline = now + wait;
}

/* The connection is over: QP to ERR (if not already) then RESET, entry
 * back to IDLE/LISTEN and freed.  Callers tell the user afterwards, so the
 * QP is already in RESET (and reusable) when the user hears of it. */
static void finish(struct cmx_agent *a, struct cmx_conn *c, int qp_in_err)
{
    if (!qp_in_err)
        qp_cmd(a, c, IBW_HCR_OP_2ERR_QP);
    qp_cmd(a, c, IBW_HCR_OP_2RST_QP);
    c->deadline = 0;
    go(c, c->role == CMX_CLIENT ? CMX_IDLE : CMX_LISTEN);
    c->used = 0;
}

/* Remember an established connection that just ended for one response
 * timeout (eq. 3-2): its REQ may still be on the wire (a duplicate, or a
 * retry sent before our REP arrived) and must not open a new connection
 * on a fresh QP for a peer that has closed this one. */
static void enter_timewait(struct cmx_agent *a, const struct cmx_conn *c)
{
    struct cmx_tw *t = &a->tw[a->ntw++ % CMX_TW_MAX];
    t->remote_guid = c->remote_guid;
    t->remote_comm_id = c->remote_comm_id;
    t->local_comm_id = c->local_comm_id;
    t->until = a->now + ibw_cm_client_wait_ns(a->cfg.resp_timeout, a->cfg.t_max_ns);
}

static const struct cmx_tw *in_timewait(const struct cmx_agent *a,
                                        uint64_t guid, uint32_t remote_comm)
{
    for (uint32_t i = 0; i < CMX_TW_MAX && i < a->ntw; i++) {
        const struct cmx_tw *t = &a->tw[i];
        if (t->until > a->now && t->remote_guid == guid &&
            t->remote_comm_id == remote_comm)
            return t;
    }
    return NULL;
}

static void send_rej(struct cmx_agent *a, uint64_t tid, uint32_t local,
                     uint32_t remote, uint8_t msg, uint16_t reason)
{
    struct ibw_cm_rej r;
    uint8_t mad[IBW_MAD_SIZE];
    memset(&r, 0, sizeof r);
    r.localcommid = local;
    r.remotecommid = remote;
    r.msgrej = msg;
    r.reason = reason;
    ibw_cm_rej_mad_encode(&r, tid, mad, sizeof mad);
    a->st.rej_sent++;
    send(a, mad);
}

static void build_req(struct cmx_agent *a, struct cmx_conn *c,
                      const struct cmx_connect *p)
{
    struct ibw_cm_req q;
    memset(&q, 0, sizeof q);
    q.localcommid = c->local_comm_id;
    q.serviceid = p->service_id;
    q.localcaguid = a->cfg.guid;
    q.localqpn = p->qpn;
    q.responderres = 16;
    q.initdepth = 16;
    q.remoteresptout = a->cfg.resp_timeout;
    q.transpsvctype = IBW_CM_TRANSPORT_RC;
    q.startpsn = p->start_psn;
    q.localresptout = a->cfg.resp_timeout;
    q.retrcount = p->retry_cnt & 7u;
    q.pkey = 0xFFFF;
    q.pppmtu = p->pmtu;
    q.rnrretrcount = p->rnr_retry & 7u;
    q.maxcmretr = a->cfg.max_cm_retries & 15u;
    q.prim_locallid = a->cfg.lid;
    q.prim_localacktout = CMX_QP_TIMEOUT_CODE;
    q.prim_subnetlocal = 1;
    if (p->private_data)
        memcpy(q.private_data, p->private_data,
               p->private_len < 92 ? p->private_len : 92);
    ibw_cm_req_mad_encode(&q, c->tid, c->last_mad, sizeof c->last_mad);
}

struct cmx_agent *cmx_agent_create(const struct cmx_config *cfg,
                                   const struct cmx_ops *ops)
{
    struct cmx_agent *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->cfg = *cfg;
    if (!a->cfg.max_conns)
        a->cfg.max_conns = 1024;
    a->ops = *ops;
    a->c = calloc(a->cfg.max_conns, sizeof *a->c);
    if (!a->c) {
        free(a);
        return NULL;
    }
    a->next_comm = cfg->comm_id_base;
    a->next_tid = (cfg->guid << 20) | 1u;
    return a;
}

void cmx_agent_destroy(struct cmx_agent *a)
{
    if (a) {
        free(a->c);
        free(a);
    }
}

int cmx_listen(struct cmx_agent *a, uint64_t service_id)
{
    if (a->nlisten == sizeof a->listen / sizeof a->listen[0])
        return -1;
    a->listen[a->nlisten++] = service_id;
    return 0;
}

/* fig. 4-2 IDLE -> REQ_SENT: send REQ, RST2INIT, start the eq. 3-2 wait. */
int cmx_connect(struct cmx_agent *a, uint64_t now, const struct cmx_connect *p)
{
    a->now = now;
    if (p->private_len > 92 || p->pmtu < 1 || p->pmtu > 5)
        return -1;
    struct cmx_conn *c = alloc_conn(a, CMX_CLIENT);
    if (!c)
        return -1;
    c->peer = p->peer;
    c->qpn = p->qpn;
    c->start_psn = p->start_psn;
    c->service_id = p->service_id;
    c->pmtu = p->pmtu;
    c->retry_cnt = p->retry_cnt;
    c->rnr_retry = p->rnr_retry;
    c->max_retries = a->cfg.max_cm_retries;
    c->tid = a->next_tid++;
    build_req(a, c, p);
    send_keep(a, c);
    go(c, CMX_REQ_SENT);
    qp_cmd(a, c, IBW_HCR_OP_RST2INIT_QP);
    start_timer(c, now, ibw_cm_client_wait_ns(a->cfg.resp_timeout,
                                              a->cfg.t_max_ns));
    return (int)handle_of(a, c);
}

static void send_rep(struct cmx_agent *a, struct cmx_conn *c,
                     const struct cmx_accept *acc)
{
    struct ibw_cm_rep r;
    memset(&r, 0, sizeof r);
    r.localcommid = c->local_comm_id;
    r.remotecommid = c->remote_comm_id;
    r.localqpn = c->qpn;
    r.startpsn = c->start_psn;
    r.respres = 16;
    r.initdepth = 16;
    r.tgtackdelay = 10;
    r.failoveracc = IBW_CM_FAILOVER_UNSUPPORTED;
    r.rnrretrcount = c->rnr_retry & 7u;
    r.localcaguid = a->cfg.guid;
    if (acc && acc->private_len)
        memcpy(r.private_data, acc->private_data,
               acc->private_len < 196 ? acc->private_len : 196);
    ibw_cm_rep_mad_encode(&r, c->tid, c->last_mad, sizeof c->last_mad);
    send_keep(a, c);
}

/* fig. 4-3 REQ_RCVD, accepted: REP, INIT2RTR, REP_SENT with the eq. 3-4
 * wait. */
static void server_accept(struct cmx_agent *a, struct cmx_conn *c,
                          uint64_t now, const struct cmx_accept *acc)
{
    /* A deferred REQ moved its QP to INIT already when the application
     * named it then; it may name another now. */
    if (!c->peer && !(c->qp_in_init && c->qpn == acc->qpn)) {
        c->qpn = acc->qpn;
        qp_cmd(a, c, IBW_HCR_OP_RST2INIT_QP);
    }
    c->qpn = acc->qpn;
    c->start_psn = acc->start_psn & 0xFFFFFFu;
    c->deferred = 0;
    send_rep(a, c, acc);
    qp_cmd(a, c, IBW_HCR_OP_INIT2RTR_QP);
    go(c, CMX_REP_SENT);
    c->retries = 0;
    start_timer(c, now, ibw_cm_server_wait_ns(c->remote_resp_timeout,
                                              a->cfg.t_max_ns));
}

int cmx_accept(struct cmx_agent *a, uint64_t now, uint32_t conn,
               const struct cmx_accept *acc)
{
    a->now = now;
    if (conn >= a->cfg.max_conns)
        return -1;
    struct cmx_conn *c = &a->c[conn];
    if (!c->used || c->state != CMX_REQ_RCVD || !c->deferred)
        return -1;
    server_accept(a, c, now, acc);
    return 0;
}

static struct cmx_conn *find_by_comm(struct cmx_agent *a, uint32_t local,
                                     uint32_t remote, int check_remote)
{
    for (uint32_t i = 0; i < a->cfg.max_conns; i++) {
        struct cmx_conn *c = &a->c[i];
        if (c->used && c->local_comm_id == local &&
            (!check_remote || c->remote_comm_id == remote))
            return c;
    }
    return NULL;
}

static void send_mra(struct cmx_agent *a, struct cmx_conn *c, uint8_t msg)
{
    struct ibw_cm_mra m;
    uint8_t mad[IBW_MAD_SIZE];
    memset(&m, 0, sizeof m);
    m.localcommid = c->local_comm_id;
    m.remotecommid = c->remote_comm_id;
    m.msgmraed = msg;
    m.servicetimeout = a->cfg.service_timeout;
    ibw_cm_mra_mad_encode(&m, c->tid, mad, sizeof mad);
    a->st.mra_sent++;
    send(a, mad);
}

static void on_req(struct cmx_agent *a, uint64_t now, const uint8_t *mad)
{
    struct ibw_cm_req q;
    if (ibw_cm_req_mad_decode(mad, IBW_MAD_SIZE, &q) != IBW_OK)
        return;
    uint64_t tid = ibw_mad_hdr_get_transactionid(mad);
    /* A REQ seen before: answer it again (IBA 12.9.5.1). */
    for (uint32_t i = 0; i < a->cfg.max_conns; i++) {
        struct cmx_conn *c = &a->c[i];
        if (!c->used || c->role != CMX_SERVER ||
            c->remote_comm_id != q.localcommid || c->remote_guid != q.localcaguid)
            continue;
        a->st.dup_rcvd++;
        if (c->state == CMX_REQ_RCVD && c->deferred)
            send_mra(a, c, IBW_CM_MSG_REQ);
        else if (c->state == CMX_REP_SENT)
            send_keep(a, c);
        return;
    }
    /* The REQ of a connection that was established here and is over (a
     * late duplicate): Linux cm_dup_req_handler answers a REQ that finds
     * its cm_id in TIMEWAIT with REJ(stale connection). */
    const struct cmx_tw *tw = in_timewait(a, q.localcaguid, q.localcommid);
    if (tw) {
        a->st.dup_rcvd++;
        send_rej(a, tid, tw->local_comm_id, q.localcommid, IBW_CM_MSG_REQ,
                 IBW_CM_REJ_STALE_CONN);
        return;
    }
    /* Stale connection (IBA 12.9.8.3.1): a new REQ naming a QP that is
     * still connected here.  Reject it and drop the old connection. */
    for (uint32_t i = 0; i < a->cfg.max_conns; i++) {
        struct cmx_conn *c = &a->c[i];
        if (c->used && c->state == CMX_ESTABLISHED &&
            c->remote_guid == q.localcaguid && c->remote_qpn == q.localqpn) {
            send_rej(a, tid, 0, q.localcommid, IBW_CM_MSG_REQ,
                     IBW_CM_REJ_STALE_CONN);
            a->st.stale++;
            enter_timewait(a, c);
            finish(a, c, 0);
            emit(a, c, CMX_EV_STALE, IBW_CM_REJ_STALE_CONN);
            return;
        }
    }
    struct cmx_conn *c = NULL;
    /* Peer-to-peer: our own REQ crossed theirs; the larger GUID (then the
     * larger QPN) stays the client (§4.1.2 (4), IBA 12.9.6). */
    for (uint32_t i = 0; i < a->cfg.max_conns; i++) {
        struct cmx_conn *p = &a->c[i];
        if (p->used && p->peer && p->state == CMX_REQ_SENT &&
            p->service_id == q.serviceid) {
            go(p, CMX_PEER_COMPARE);
            int stay = a->cfg.guid > q.localcaguid ||
                       (a->cfg.guid == q.localcaguid && p->qpn > q.localqpn);
            if (stay) {
                go(p, CMX_REQ_SENT);
                return;
            }
            go(p, CMX_IDLE);
            p->role = CMX_SERVER;
            p->deadline = 0;
            a->st.role_switches++;
            emit(a, p, CMX_EV_ROLE_SWITCH, 0);
            go(p, CMX_LISTEN);
            c = p;
            break;
        }
    }
    if (!c) {
        int listened = 0;
        for (unsigned k = 0; k < a->nlisten; k++)
            listened |= a->listen[k] == q.serviceid;
        if (!listened) {
            send_rej(a, tid, 0, q.localcommid, IBW_CM_MSG_REQ,
                     IBW_CM_REJ_INVALID_SERVICE_ID);
            return;
        }
        c = alloc_conn(a, CMX_SERVER);
        if (!c) {
            send_rej(a, tid, 0, q.localcommid, IBW_CM_MSG_REQ,
                     IBW_CM_REJ_NO_RESOURCES);
            return;
        }
    }
    c->tid = tid;
    c->service_id = q.serviceid;
    c->remote_comm_id = q.localcommid;
    c->remote_guid = q.localcaguid;
    c->remote_qpn = q.localqpn;
    c->remote_psn = q.startpsn;
    c->remote_lid = q.prim_locallid;
    c->remote_resp_timeout = q.localresptout;
    c->pmtu = q.pppmtu;
    c->retry_cnt = q.retrcount;
    c->rnr_retry = q.rnrretrcount;
    c->max_retries = q.maxcmretr;
    memcpy(c->private_in, q.private_data, 92);
    c->private_in_len = 92;
    go(c, CMX_REQ_RCVD);
    struct cmx_accept acc;
    memset(&acc, 0, sizeof acc);
    acc.qpn = c->qpn;
    acc.start_psn = c->start_psn;
    int d = a->ops.on_req ? a->ops.on_req(a->ops.ctx, handle_of(a, c), &q, &acc)
                          : IBW_CM_REJ_NO_QP;
    if (d == CMX_ACCEPT) {
        server_accept(a, c, now, &acc);
    } else if (d == CMX_DEFER) {
        if (!c->peer && acc.qpn) {
            c->qpn = acc.qpn;
            c->qp_in_init = qp_cmd(a, c, IBW_HCR_OP_RST2INIT_QP) == 0;
        }
        c->deferred = 1;
        send_mra(a, c, IBW_CM_MSG_REQ);
    } else {
        send_rej(a, tid, c->local_comm_id, c->remote_comm_id, IBW_CM_MSG_REQ,
                 (uint16_t)d);
        go(c, CMX_REJ_SENT);
        if (c->peer)
            qp_cmd(a, c, IBW_HCR_OP_2ERR_QP);
        c->deadline = 0;
        go(c, CMX_LISTEN);
        c->used = 0;
    }
}

/* fig. 4-2 REJ_RETRY: send the REQ again while retries last, else give up
 * and tell the user. */
static void client_retry(struct cmx_agent *a, struct cmx_conn *c,
                         uint64_t now, uint16_t reason)
{
    go(c, CMX_REJ_RETRY);
    if (c->retries < c->max_retries) {
        c->retries++;
        a->st.retries++;
        send_keep(a, c);
        go(c, CMX_REQ_SENT);
        start_timer(c, now, ibw_cm_client_wait_ns(a->cfg.resp_timeout,
                                                  a->cfg.t_max_ns));
        return;
    }
    if (reason == IBW_CM_REJ_TIMEOUT)
        send_rej(a, c->tid, c->local_comm_id, c->remote_comm_id,
                 IBW_CM_MSG_REQ, IBW_CM_REJ_TIMEOUT);
    a->st.failed++;
    finish(a, c, 0);
    emit(a, c, CMX_EV_FAILED, reason);
}

static void send_rtu(struct cmx_agent *a, struct cmx_conn *c)
{
    struct ibw_cm_rtu r;
    uint8_t mad[IBW_MAD_SIZE];
    memset(&r, 0, sizeof r);
    r.localcommid = c->local_comm_id;
    r.remotecommid = c->remote_comm_id;
    ibw_cm_rtu_mad_encode(&r, c->tid, mad, sizeof mad);
    send(a, mad);
}

static void on_rep(struct cmx_agent *a, uint64_t now, const uint8_t *mad)
{
    struct ibw_cm_rep r;
    if (ibw_cm_rep_mad_decode(mad, IBW_MAD_SIZE, &r) != IBW_OK)
        return;
    uint64_t tid = ibw_mad_hdr_get_transactionid(mad);
    struct cmx_conn *c = NULL;
    for (uint32_t i = 0; i < a->cfg.max_conns && !c; i++)
        if (a->c[i].used && a->c[i].role == CMX_CLIENT && a->c[i].tid == tid)
            c = &a->c[i];
    if (!c) {
        /* A DREQ took a new TID; a late REP still names us by comm ID. */
        struct cmx_conn *d = find_by_comm(a, r.remotecommid, r.localcommid, 1);
        if (d && d->role == CMX_CLIENT)
            c = d;
    }
    if (c && c->state != CMX_REQ_SENT && r.remotecommid == c->local_comm_id &&
        r.localcommid == c->remote_comm_id) {
        /* A REP we accepted already, sent again or duplicated on the way.
         * Established: our RTU was lost, send it again.  Later (DREQ
         * sent) the REP is only late: a REJ here would tear down the
         * server's half of a connection that is being released in order
         * (IBA 12.9.5: a duplicate is discarded; Linux cm_dup_rep_handler
         * answers RTU in ESTABLISHED and nothing otherwise). */
        a->st.dup_rcvd++;
        if (c->state == CMX_ESTABLISHED)
            send_rtu(a, c);
        return;
    }
    if (!c && in_timewait(a, r.localcaguid, r.localcommid)) {
        a->st.dup_rcvd++; /* a late REP of a connection already over */
        return;
    }
    if (!c || c->state != CMX_REQ_SENT) {
        send_rej(a, tid, 0, r.localcommid, IBW_CM_MSG_REP,
                 IBW_CM_REJ_INVALID_COMM_ID);
        return;
    }
    go(c, CMX_REP_RCVD);
    c->deadline = 0;
    if (r.remotecommid != c->local_comm_id) {
        /* §5.2.2 (2): a REP with an invalid communication ID is rejected
         * with reason 0x6, then the REQ is retried. */
        send_rej(a, tid, c->local_comm_id, r.localcommid, IBW_CM_MSG_REP,
                 IBW_CM_REJ_INVALID_COMM_ID);
        client_retry(a, c, now, IBW_CM_REJ_INVALID_COMM_ID);
        return;
    }
    c->remote_comm_id = r.localcommid;
    c->remote_qpn = r.localqpn;
    c->remote_psn = r.startpsn;
    c->remote_guid = r.localcaguid;
    memcpy(c->private_in, r.private_data, sizeof r.private_data);
    c->private_in_len = sizeof r.private_data;
    qp_cmd(a, c, IBW_HCR_OP_INIT2RTR_QP);
    send_rtu(a, c);
    go(c, CMX_ESTABLISHED);
    qp_cmd(a, c, IBW_HCR_OP_RTR2RTS_QP);
    a->st.established++;
    emit(a, c, CMX_EV_ESTABLISHED, 0);
}

static void server_established(struct cmx_agent *a, struct cmx_conn *c)
{
    c->deadline = 0;
    go(c, CMX_ESTABLISHED);
    qp_cmd(a, c, IBW_HCR_OP_RTR2RTS_QP);
    a->st.established++;
    emit(a, c, CMX_EV_ESTABLISHED, 0);
}

static void on_rtu(struct cmx_agent *a, const uint8_t *mad)
{
    struct ibw_cm_rtu r;
    if (ibw_cm_rtu_mad_decode(mad, IBW_MAD_SIZE, &r) != IBW_OK)
        return;
    struct cmx_conn *c = find_by_comm(a, r.remotecommid, r.localcommid, 1);
    if (c && c->role == CMX_SERVER && c->state == CMX_REP_SENT)
        server_established(a, c);
}

void cmx_comm_established(struct cmx_agent *a, uint64_t now, uint32_t qpn)
{
    a->now = now;
    int k = cmx_conn_by_qpn(a, qpn);
    if (k >= 0 && a->c[k].role == CMX_SERVER && a->c[k].state == CMX_REP_SENT)
        server_established(a, &a->c[k]);
}

static void on_mra(struct cmx_agent *a, uint64_t now, const uint8_t *mad)
{
    struct ibw_cm_mra m;
    if (ibw_cm_mra_mad_decode(mad, IBW_MAD_SIZE, &m) != IBW_OK)
        return;
    struct cmx_conn *c = find_by_comm(a, m.remotecommid, 0, 0);
    if (!c)
        return;
    a->st.mra_rcvd++;
    /* §4.1.4: an MRA clears the counter and restarts the wait with the
     * service timeout it carries (eq. 3-3 for the client, 3-5 the server). */
    if (c->role == CMX_CLIENT && c->state == CMX_REQ_SENT &&
        m.msgmraed == IBW_CM_MSG_REQ) {
        c->remote_comm_id = m.localcommid;
        c->retries = 0;
        start_timer(c, now, ibw_cm_client_mra_wait_ns(m.servicetimeout,
                                                      a->cfg.t_max_ns));
    } else if (c->role == CMX_SERVER && c->state == CMX_REP_SENT &&
               m.msgmraed == IBW_CM_MSG_REP) {
        c->retries = 0;
        start_timer(c, now, ibw_cm_server_mra_wait_ns(m.servicetimeout,
                                                      a->cfg.t_max_ns));
    }
}

static void on_rej(struct cmx_agent *a, uint64_t now, const uint8_t *mad)
{
    struct ibw_cm_rej r;
    if (ibw_cm_rej_mad_decode(mad, IBW_MAD_SIZE, &r) != IBW_OK)
        return;
    struct cmx_conn *c = find_by_comm(a, r.remotecommid, 0, 0);
    if (!c)
        return;
    a->st.rej_rcvd++;
    if (c->role == CMX_CLIENT && c->state == CMX_REQ_SENT) {
        c->deadline = 0;
        if (r.reason == IBW_CM_REJ_NO_QP || r.reason == IBW_CM_REJ_NO_RESOURCES) {
            client_retry(a, c, now, r.reason); /* transient: worth a retry */
            return;
        }
        a->st.failed++;
        finish(a, c, 0);
        emit(a, c, CMX_EV_REJECTED, r.reason);
    } else if (c->role == CMX_SERVER && c->state == CMX_REP_SENT) {
        /* fig. 4-3 REP_SENT: a REJ sends the server back to LISTEN and its
         * reason goes up to the user (§5.2.2: 0x6). */
        finish(a, c, 0);
        emit(a, c, CMX_EV_REJECTED, r.reason);
    } else if (c->state == CMX_ESTABLISHED) {
        enter_timewait(a, c);
        finish(a, c, 0);
        emit(a, c, CMX_EV_REJECTED, r.reason);
    }
}

static void send_drep(struct cmx_agent *a, uint64_t tid, uint32_t local,
                      uint32_t remote)
{
    struct ibw_cm_drep d;
    uint8_t mad[IBW_MAD_SIZE];
    memset(&d, 0, sizeof d);
    d.localcommid = local;
    d.remotecommid = remote;
    ibw_cm_drep_mad_encode(&d, tid, mad, sizeof mad);
    send(a, mad);
}

int cmx_disconnect(struct cmx_agent *a, uint64_t now, uint32_t conn)
{
    a->now = now;
    if (conn >= a->cfg.max_conns)
        return -1;
    struct cmx_conn *c = &a->c[conn];
    if (!c->used || c->state != CMX_ESTABLISHED)
        return -1;
    go(c, CMX_DCONN_PRO);
    struct ibw_cm_dreq d;
    memset(&d, 0, sizeof d);
    d.localcommid = c->local_comm_id;
    d.remotecommid = c->remote_comm_id;
    d.remoteqpneecn = c->remote_qpn;
    c->tid = a->next_tid++;
    ibw_cm_dreq_mad_encode(&d, c->tid, c->last_mad, sizeof c->last_mad);
    send_keep(a, c);
    go(c, CMX_DREQ_SENT);
    qp_cmd(a, c, IBW_HCR_OP_2ERR_QP);
    c->retries = 0;
    c->max_retries = a->cfg.max_cm_retries;
    start_timer(c, now, ibw_cm_client_wait_ns(a->cfg.resp_timeout,
                                              a->cfg.t_max_ns));
    return 0;
}

static void disconnected(struct cmx_agent *a, struct cmx_conn *c)
{
    a->st.disconnects++;
    c->private_in_len = 0;
    enter_timewait(a, c);
    finish(a, c, 1);
    emit(a, c, CMX_EV_DISCONNECTED, 0);
}

static void on_dreq(struct cmx_agent *a, const uint8_t *mad)
{
    struct ibw_cm_dreq d;
    if (ibw_cm_dreq_mad_decode(mad, IBW_MAD_SIZE, &d) != IBW_OK)
        return;
    uint64_t tid = ibw_mad_hdr_get_transactionid(mad);
    struct cmx_conn *c = find_by_comm(a, d.remotecommid, d.localcommid, 1);
    /* Unknown (our DREP was lost and we are gone already): DREP anyway. */
    send_drep(a, tid, d.remotecommid, d.localcommid);
    if (!c)
        return;
    if (c->state == CMX_ESTABLISHED || c->state == CMX_REP_SENT) {
        go(c, CMX_DREQ_RCVD);
        qp_cmd(a, c, IBW_HCR_OP_2ERR_QP);
        disconnected(a, c);
    }
    /* In DREQ_SENT both sides are closing; our own DREP wait goes on. */
}

static void on_drep(struct cmx_agent *a, const uint8_t *mad)
{
    struct ibw_cm_drep d;
    if (ibw_cm_drep_mad_decode(mad, IBW_MAD_SIZE, &d) != IBW_OK)
        return;
    struct cmx_conn *c = find_by_comm(a, d.remotecommid, d.localcommid, 1);
    if (!c || c->state != CMX_DREQ_SENT)
        return;
    if (c->role == CMX_SERVER)
        go(c, CMX_DREP_RCVD);
    disconnected(a, c);
}

void cmx_receive(struct cmx_agent *a, uint64_t now, const uint8_t *mad,
                 size_t len)
{
    a->now = now;
    if (len < IBW_MAD_SIZE ||
        ibw_mad_hdr_get_baseversion(mad) != IBW_MAD_BASE_VERSION ||
        ibw_mad_hdr_get_mgmtclass(mad) != IBW_MGMT_CLASS_CM ||
        ibw_mad_hdr_get_classversion(mad) != IBW_CM_CLASS_VERSION)
        return;
    a->st.mads_rcvd++;
    switch (ibw_mad_hdr_get_attributeid(mad)) {
    case IBW_CM_ATTR_REQ: on_req(a, now, mad); break;
    case IBW_CM_ATTR_MRA: on_mra(a, now, mad); break;
    case IBW_CM_ATTR_REJ: on_rej(a, now, mad); break;
    case IBW_CM_ATTR_REP: on_rep(a, now, mad); break;
    case IBW_CM_ATTR_RTU: on_rtu(a, mad); break;
    case IBW_CM_ATTR_DREQ: on_dreq(a, mad); break;
    case IBW_CM_ATTR_DREP: on_drep(a, mad); break;
    default: break;
    }
}

static void expire(struct cmx_agent *a, struct cmx_conn *c, uint64_t now)
{
    c->deadline = 0;
    switch (c->state) {
    case CMX_REQ_SENT:
        client_retry(a, c, now, IBW_CM_REJ_TIMEOUT);
        break;
    case CMX_REP_SENT:
        if (c->retries < c->max_retries) {
            c->retries++;
            a->st.retries++;
            send_keep(a, c);
            start_timer(c, now, ibw_cm_server_wait_ns(c->remote_resp_timeout,
                                                      a->cfg.t_max_ns));
        } else {
            send_rej(a, c->tid, c->local_comm_id, c->remote_comm_id,
                     IBW_CM_MSG_REP, IBW_CM_REJ_TIMEOUT);
            a->st.failed++;
            finish(a, c, 0);
            emit(a, c, CMX_EV_FAILED, IBW_CM_REJ_TIMEOUT);
        }
        break;
    case CMX_DREQ_SENT:
        if (c->retries < c->max_retries) {
            c->retries++;
            a->st.retries++;
            send_keep(a, c);
            start_timer(c, now, c->wait_ns);
        } else {
            disconnected(a, c); /* fig. 4-2/4-3: timeout also ends it */
        }
        break;
    default:
        break;
    }
}

void cmx_tick(struct cmx_agent *a, uint64_t now)
{
    a->now = now;
    for (uint32_t i = 0; i < a->cfg.max_conns; i++) {
        struct cmx_conn *c = &a->c[i];
        if (c->used && c->deadline && c->deadline <= now)
            expire(a, c, now);
    }
}

uint64_t cmx_next_deadline(const struct cmx_agent *a)
{
    uint64_t t = UINT64_MAX;
    for (uint32_t i = 0; i < a->cfg.max_conns; i++)
        if (a->c[i].used && a->c[i].deadline && a->c[i].deadline < t)
            t = a->c[i].deadline;
    return t;
}

const struct cmx_conn *cmx_conn_get(const struct cmx_agent *a, uint32_t conn)
{
    return conn < a->cfg.max_conns ? &a->c[conn] : NULL;
}

int cmx_conn_by_qpn(const struct cmx_agent *a, uint32_t qpn)
{
    for (uint32_t i = 0; i < a->cfg.max_conns; i++)
        if (a->c[i].used && a->c[i].qpn == qpn)
            return (int)i;
    return -1;
}

const struct cmx_stats *cmx_agent_stats(const struct cmx_agent *a)
{
    return &a->st;
}

uint32_t cmx_agent_live(const struct cmx_agent *a)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < a->cfg.max_conns; i++)
        n += a->c[i].used;
    return n;
}
