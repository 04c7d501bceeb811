/* SPDX-License-Identifier: Apache-2.0 */
/* check_cm.c - connection management: REQ -> REP -> RTU (REJ, MRA) and
 * DREQ -> DREP per communication ID, field values, the REP timeout, and the
 * QPNs/PSNs the exchange negotiates, handed to the flow tracker.
 *
 * One direction may reach the capture late (capture-points.md): a REP
 * recorded before its REQ, an RTU before its REP, a DREP before its DREQ,
 * the first packets of a connection before the REP that names its QPs and
 * PSNs.  Such a message is held while its cause may still come (the skew
 * window, capture time) and judged once it does, as the frame it was; one
 * whose cause never comes is judged as it stands.
 *
 * A capture with a snap length cuts CM MADs (capture-points.md): a message
 * is judged on the fields captured whole, each rule only when all of its
 * fields are, and what it negotiated that was captured goes to the flow
 * tracker as from a whole one.  A REQ cut before its service type leaves
 * the connection's transport open: its first frames wait (the skew window
 * at most) for a response, which only RC (or XRC, RD) sends, to settle it;
 * with none, the packets settle it as without CM. */
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

/* What the exchange knows of the connection's transport service. */
enum cm_tr { CM_TR_NONE = 0, CM_TR_KNOWN, CM_TR_CUT /* REQ cut before it */ };

/* A QPN or starting PSN (24 bits) the capture cut away. */
#define CM_CUT UINT32_MAX

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
    uint8_t tr_known;       /* enum cm_tr */
    uint32_t pmtu;          /* the REQ's path MTU in bytes, 0 if not valid */
    uint64_t ack_to_ns;     /* the REQ's primary local ACK timeout: 0 not
                               captured, UINT64_MAX code 0 (none) */
    /* life: an exchange idle for the idle time whose flows ended (or that
     * never got that far) is forgotten and its slot reused */
    uint64_t last_ts;
    uint32_t lru_prev, lru_next; /* index + 1; lru_next chains free slots */
    uint8_t live;
};

/* A CM message waiting for the one that causes it. */
struct cm_wait_msg {
    uint64_t frame, ts_ns;
    struct chk_addr src, dst;
    struct ibw_cm_msg m;
    unsigned avail;         /* bytes of m's data captured */
};

/* A frame of a connection whose CM exchange waits for its REP (or for the
 * REQ of a REP held), between endpoints a and b. */
struct cm_wait_frame {
    struct chk_addr a, b;
    struct chk_held h;
    uint32_t dqp, psn;
    uint8_t opcode;
};

struct chk_cm_hold {
    struct cm_wait_msg *msg;
    unsigned nmsg, capmsg;
    struct cm_wait_frame *fr;
    unsigned nfr, capfr;
    uint32_t nreq_open;     /* exchanges in state REQ sent */
    uint32_t ntr_open;      /* at most this many with their transport open
                             * (a REQ cut before it, a REP seen) */
    int busy;               /* releasing: no re-entry */
};

static struct chk_cm_hold *hold_state(struct chk *c);

static const char *state_name(unsigned s)
{
    static const char *const n[] = {"none",     "REQ sent",  "REP sent",
                                    "established", "rejected", "DREQ sent",
                                    "closed"};
    return s < sizeof n / sizeof n[0] ? n[s] : "?";
}

/* Was field `name` of message m captured whole, with `avail` bytes of the
 * message's data captured? */
static int cm_has(const struct ibw_cm_msg *m, unsigned avail, const char *name)
{
    const struct ibw_format *fmt = ibw_cm_format(m->attributeid);
    const struct ibw_field *f = fmt ? ibw_format_field(fmt, name) : NULL;
    return f && ((size_t)f->pos + f->width + 7) / 8 <= avail;
}

void chk_cm_free(struct chk *c)
{
    struct chk_cm_hold *w = c->cm_hold;
    if (w) {
        for (unsigned i = 0; i < w->nfr; i++)
            free(w->fr[i].h.bytes);
        free(w->fr);
        free(w->msg);
        free(w);
        c->cm_hold = NULL;
    }
    free(c->cm);
    c->cm = NULL;
    c->ncm = c->capcm = 0;
}

/* ---- the table: slots reused, found through the checker's hash ---- */

static uint32_t cm_idx(const struct chk *c, const struct chk_cm *e)
{
    return (uint32_t)(e - c->cm);
}

/* Key of the exchange whose side at `addr` chose communication ID id
 * (role CHK_KEY_CM: the client's, CHK_KEY_CM_SERVER: the server's). */
static void cm_key(struct chk_key *k, const struct chk_addr *addr, uint32_t id,
                   uint8_t role)
{
    static const struct chk_addr none;
    chk_make_key(k, addr, &none, id, role);
}

static void cm_unlink(struct chk *c, struct chk_cm *e)
{
    if (e->lru_prev)
        c->cm[e->lru_prev - 1].lru_next = e->lru_next;
    else
        c->cm_head = e->lru_next;
    if (e->lru_next)
        c->cm[e->lru_next - 1].lru_prev = e->lru_prev;
    else
        c->cm_tail = e->lru_prev;
    e->lru_prev = e->lru_next = 0;
}

/* e was active now: to the young end of the list. */
static void cm_touch(struct chk *c, struct chk_cm *e)
{
    if (c->ts_ns > e->last_ts)
        e->last_ts = c->ts_ns;
    uint32_t me = cm_idx(c, e) + 1;
    if (c->cm_tail == me)
        return;
    cm_unlink(c, e);
    e->lru_prev = c->cm_tail;
    if (c->cm_tail)
        c->cm[c->cm_tail - 1].lru_next = me;
    else
        c->cm_head = me;
    c->cm_tail = me;
}

/* Drop e's keys (those still naming it). */
static void cm_unkey(struct chk *c, struct chk_cm *e)
{
    struct chk_key k;
    uint32_t me = cm_idx(c, e) + 1;
    cm_key(&k, &e->client, e->client_id, CHK_KEY_CM);
    chk_key_del(c, &k, me);
    if (e->state >= CM_REP_SENT) {
        cm_key(&k, &e->server, e->server_id, CHK_KEY_CM_SERVER);
        chk_key_del(c, &k, me);
    }
}

static void cm_forget(struct chk *c, struct chk_cm *e)
{
    if (e->state == CM_REQ_SENT && c->cm_hold && c->cm_hold->nreq_open)
        c->cm_hold->nreq_open--;
    cm_unkey(c, e);
    cm_unlink(c, e);
    e->live = 0;
    e->lru_next = c->cm_free;
    c->cm_free = cm_idx(c, e) + 1;
}

static struct chk_cm *cm_new(struct chk *c)
{
    uint32_t i;
    if (c->cm_free) {
        i = c->cm_free - 1;
        c->cm_free = c->cm[i].lru_next;
    } else {
        if (c->ncm == c->capcm) {
            uint32_t n = c->capcm ? c->capcm * 2 : 8;
            struct chk_cm *m = realloc(c->cm, (size_t)n * sizeof *m);
            if (!m)
                return NULL;
            c->cm = m;
            c->capcm = n;
        }
        i = c->ncm++;
    }
    struct chk_cm *e = &c->cm[i];
    memset(e, 0, sizeof *e);
    e->live = 1;
    cm_touch(c, e);
    return e;
}

/* Does a flow of exchange e still live? */
static int cm_flows_live(struct chk *c, const struct chk_cm *e)
{
    return e->state >= CM_REP_SENT && e->state != CM_REJECTED &&
           (chk_flow_get(c, &e->client, &e->server, e->server_qpn, 0) ||
            chk_flow_get(c, &e->server, &e->client, e->client_qpn, 0));
}

void chk_cm_idle(struct chk *c, uint64_t now, uint64_t idle)
{
    while (c->cm_head) {
        struct chk_cm *e = &c->cm[c->cm_head - 1];
        if (now < e->last_ts || now - e->last_ts <= idle)
            break;
        if (cm_flows_live(c, e)) {
            /* a quiet connection whose traffic goes on: kept (its DREQ
             * may come much later) */
            uint64_t saved = c->ts_ns;
            c->ts_ns = now;
            cm_touch(c, e);
            c->ts_ns = saved;
        } else {
            cm_forget(c, e);
        }
    }
}

/* The exchange whose client (at `client`) chose communication ID id. */
static struct chk_cm *by_client(struct chk *c, const struct chk_addr *client,
                                uint32_t id)
{
    struct chk_key k;
    cm_key(&k, client, id, CHK_KEY_CM);
    uint32_t v = chk_key_get(c, &k);
    return v ? &c->cm[v - 1] : NULL;
}

/* The exchange whose server (at `server`) chose communication ID id. */
static struct chk_cm *by_server(struct chk *c, const struct chk_addr *server,
                                uint32_t id)
{
    struct chk_key k;
    cm_key(&k, server, id, CHK_KEY_CM_SERVER);
    uint32_t v = chk_key_get(c, &k);
    struct chk_cm *e = v ? &c->cm[v - 1] : NULL;
    return e && e->state >= CM_REP_SENT ? e : NULL;
}

/* A flow with no packets yet takes the transport the REQ named, so its
 * first packet is held to it too. */
static void cm_transport(struct chk_flow *f, const struct chk_cm *e)
{
    if (e->tr_known == CM_TR_KNOWN && !f->s.requests && !f->s.responses) {
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

/* The flow of requests src -> dst:qpn for a connection a REP just set up.
 * A flow there with packets that an earlier exchange negotiated (or whose
 * connection closed) carried an earlier connection on the same QP numbers
 * (QPs are reused): it has ended, and the new connection is a new flow.
 * One with packets and no CM yet holds this connection's first frames,
 * recorded before its REP. */
static struct chk_flow *fresh_flow(struct chk *c, const struct chk_addr *src,
                                   const struct chk_addr *dst, uint32_t qpn)
{
    struct chk_flow *f = chk_flow_get(c, src, dst, qpn, 0);
    if (f && (f->s.requests || f->s.responses) &&
        (f->s.cm_negotiated || f->closing)) {
        chk_flow_settle(c, f);
        chk_flow_end(c, f);
    }
    return chk_flow_get(c, src, dst, qpn, 1);
}

/* One direction of a negotiated connection: the flow of requests from
 * src (QPN src_qpn, first PSN src_psn) to dst (dst_qpn, dst_psn); psns
 * says whether the capture holds both PSNs. */
static void bind_direction(struct chk *c, const struct chk_cm *e, int psns,
                           const struct chk_addr *src, uint32_t src_qpn,
                           uint32_t src_psn, const struct chk_addr *dst,
                           uint32_t dst_qpn, uint32_t dst_psn)
{
    struct chk_flow *f = fresh_flow(c, src, dst, dst_qpn);
    if (!f)
        return;
    cm_flow(c, f, e);
    if (src == &e->client)
        f->ack_to_ns = e->ack_to_ns;
    if (!f->have_psn && psns) {
        f->cm_psn_pending = 1;
        f->cm_start_psn = src_psn;
        f->cm_alt_psn = dst_psn;
    }
    if (!f->s.req_qpn_known)
        chk_flow_cm_bind(c, f, src_qpn);
}

/* Tell the flow tracker what REQ/REP negotiated, as far as the capture
 * holds it: the connection needs both QPNs, the starting PSN check both
 * PSNs (a side may start at either). */
static void bind_flows(struct chk *c, const struct chk_cm *e)
{
    if (e->client_qpn == CM_CUT || e->server_qpn == CM_CUT)
        return;
    int psns = e->client_psn != CM_CUT && e->server_psn != CM_CUT;
    bind_direction(c, e, psns, &e->client, e->client_qpn, e->client_psn,
                   &e->server, e->server_qpn, e->server_psn);
    bind_direction(c, e, psns, &e->server, e->server_qpn, e->server_psn,
                   &e->client, e->client_qpn, e->client_psn);
}

/* m->u.req: a field captured (HAS) or its value (V) else the cut mark */
#define HAS(name) cm_has(mm, avail, #name)
#define V(name) (HAS(name) ? m->name : CM_CUT)

static void on_req(struct chk *c, const struct chk_addr *src,
                   const struct chk_addr *dst, const struct ibw_cm_msg *mm,
                   unsigned avail)
{
    const struct ibw_cm_req *m = &mm->u.req;
    int mtu = HAS(pppmtu), svc = HAS(transpsvctype) && HAS(ext_transport);
    if (mtu && (m->pppmtu < 1 || m->pppmtu > 5))
        chk_report(c, CHK_R_CM_FIELD, "REQ path MTU code %u, expected 1..5",
                   m->pppmtu);
    if (svc && m->transpsvctype == IBW_CM_TRANSPORT_EXTENDED &&
        m->ext_transport != IBW_CM_EXT_TRANSPORT_XRC)
        chk_report(c, CHK_R_CM_FIELD,
                   "REQ extended transport type %u, expected 1 (XRC)",
                   m->ext_transport);
    struct chk_cm *e = by_client(c, src, m->localcommid);
    if (e && e->state == CM_REQ_SENT)
        return; /* a resent REQ */
    if (e) { /* a new exchange with an ID used before */
        cm_unkey(c, e);
        uint32_t prev = e->lru_prev, next = e->lru_next;
        memset(e, 0, sizeof *e);
        e->lru_prev = prev;
        e->lru_next = next;
        e->live = 1;
    } else {
        e = cm_new(c);
    }
    if (!e)
        return;
    cm_touch(c, e);
    e->client = *src;
    e->server = *dst;
    e->client_id = m->localcommid;
    e->client_qpn = V(localqpn);
    e->client_psn = V(startpsn);
    e->req_ts = c->ts_ns;
    /* a timeout not captured: no REP is late */
    e->rep_wait_ns = HAS(remoteresptout) ? ibw_cm_timeout_ns(m->remoteresptout)
                                         : UINT64_MAX;
    e->pmtu = mtu && m->pppmtu >= 1 && m->pppmtu <= 5
                  ? ibw_mtu_enum_to_bytes(m->pppmtu) : 0;
    /* the client's requester's transport timer (12.7.34, 9.7.6.1.1) */
    e->ack_to_ns = !HAS(prim_localacktout) ? 0
                   : m->prim_localacktout ? ibw_cm_timeout_ns(m->prim_localacktout)
                                          : UINT64_MAX;
    e->state = CM_REQ_SENT;
    struct chk_key k;
    cm_key(&k, src, m->localcommid, CHK_KEY_CM);
    chk_key_put(c, &k, cm_idx(c, e) + 1);
    if (hold_state(c))
        c->cm_hold->nreq_open++;
    e->tr_known = CM_TR_KNOWN;
    if (!svc)
        e->tr_known = CM_TR_CUT;
    else if (m->transpsvctype == IBW_CM_TRANSPORT_RC)
        e->tr = IBW_TR_RC;
    else if (m->transpsvctype == IBW_CM_TRANSPORT_UC)
        e->tr = IBW_TR_UC;
    else if (m->transpsvctype == IBW_CM_TRANSPORT_RD)
        e->tr = IBW_TR_RD;
    else if (m->ext_transport == IBW_CM_EXT_TRANSPORT_XRC)
        e->tr = IBW_TR_XRC;
    else
        e->tr_known = CM_TR_NONE;
}

/* A message (msg, naming nids communication IDs) that answers an exchange
 * the capture does not hold: 1 to hold it while it may still wait for
 * frames recorded late, else the finding that the missing message was not
 * seen, and 0. */
static int unmatched(struct chk *c, int can_wait, const char *msg,
                     unsigned nids, uint32_t id, uint32_t id2,
                     const char *missing)
{
    if (can_wait)
        return 1;
    if (nids == 1)
        chk_report(c, CHK_R_CM_UNMATCHED,
                   "%s for communication ID 0x%08x: no %s seen", msg, id,
                   missing);
    else
        chk_report(c, CHK_R_CM_UNMATCHED,
                   "%s for communication IDs 0x%08x/0x%08x: no %s seen", msg,
                   id, id2, missing);
    return 0;
}

static int on_rep(struct chk *c, const struct chk_addr *src,
                  const struct chk_addr *dst, const struct ibw_cm_msg *mm,
                  unsigned avail, int can_wait)
{
    const struct ibw_cm_rep *m = &mm->u.rep;
    struct chk_cm *e = by_client(c, dst, m->remotecommid);
    if (!e)
        return unmatched(c, can_wait, "REP", 1, m->remotecommid, 0, "REQ");
    /* a resent REP: also after an RTU, which may have been lost beyond
     * the capture point or dropped by the passive side (a bad checksum);
     * the passive side resends its REP until an RTU arrives (12.9.4) */
    if ((e->state == CM_REP_SENT || e->state == CM_ESTABLISHED) &&
        e->server_id == m->localcommid)
        return 0;
    if (e->state != CM_REQ_SENT) {
        chk_report(c, CHK_R_CM_SEQ, "REP for communication ID 0x%08x in state %s",
                   m->remotecommid, state_name(e->state));
        return 0;
    }
    uint64_t took = c->ts_ns - e->req_ts;
    if (!e->mra_seen && c->ts_ns >= e->req_ts && took > e->rep_wait_ns)
        chk_report(c, CHK_R_CM_TIMEOUT,
                   "REP %llu us after the REQ, whose response timeout is %llu us",
                   (unsigned long long)(took / 1000),
                   (unsigned long long)(e->rep_wait_ns / 1000));
    e->server = *src;
    e->server_id = m->localcommid;
    e->server_qpn = V(localqpn);
    e->server_psn = V(startpsn);
    e->state = CM_REP_SENT;
    cm_touch(c, e);
    struct chk_key k;
    cm_key(&k, src, m->localcommid, CHK_KEY_CM_SERVER);
    chk_key_put(c, &k, cm_idx(c, e) + 1);
    if (c->cm_hold && c->cm_hold->nreq_open)
        c->cm_hold->nreq_open--;
    if (e->tr_known == CM_TR_CUT && hold_state(c))
        c->cm_hold->ntr_open++;
    bind_flows(c, e);
    return 0;
}

static int on_rtu(struct chk *c, const struct chk_addr *src,
                  const struct ibw_cm_rtu *m, int can_wait)
{
    struct chk_cm *e = by_client(c, src, m->localcommid);
    if (!e || e->state < CM_REP_SENT)
        return unmatched(c, can_wait, "RTU", 1, m->localcommid, 0, "REP");
    if (e->server_id != m->remotecommid)
        chk_report(c, CHK_R_CM_SEQ,
                   "RTU remote communication ID 0x%08x, the REP's is 0x%08x",
                   m->remotecommid, e->server_id);
    if (e->state == CM_REP_SENT)
        e->state = CM_ESTABLISHED;
    else if (e->state != CM_ESTABLISHED)
        chk_report(c, CHK_R_CM_SEQ, "RTU in state %s", state_name(e->state));
    return 0;
}

static int on_rej(struct chk *c, const struct chk_addr *src,
                  const struct chk_addr *dst, const struct ibw_cm_msg *mm,
                  unsigned avail, int can_wait)
{
    const struct ibw_cm_rej *m = &mm->u.rej;
    struct chk_cm *e = m->msgrej == IBW_CM_MSG_REQ
                           ? by_client(c, dst, m->remotecommid)
                           : by_server(c, dst, m->remotecommid);
    if (!e)
        e = by_client(c, src, m->localcommid);
    if (!e && can_wait && (m->remotecommid || m->msgrej != IBW_CM_MSG_REQ))
        return 1;
    if (HAS(reason) && !ibw_cm_rej_reason_name(m->reason))
        chk_report(c, CHK_R_CM_FIELD, "REJ reason %u is not defined", m->reason);
    if (m->msgrej > IBW_CM_MSG_OTHER)
        chk_report(c, CHK_R_CM_FIELD, "REJ message rejected code %u, expected 0..2",
                   m->msgrej);
    if (!e) {
        if (m->remotecommid || m->msgrej != IBW_CM_MSG_REQ)
            chk_report(c, CHK_R_CM_UNMATCHED,
                       "REJ for communication ID 0x%08x: no REQ/REP seen",
                       m->remotecommid);
        return 0;
    }
    if (e->state >= CM_ESTABLISHED && e->state != CM_REJECTED)
        chk_report(c, CHK_R_CM_SEQ, "REJ in state %s", state_name(e->state));
    if (e->state == CM_REQ_SENT && c->cm_hold && c->cm_hold->nreq_open)
        c->cm_hold->nreq_open--;
    e->state = CM_REJECTED;
    return 0;
}

static int on_mra(struct chk *c, const struct chk_addr *dst,
                  const struct ibw_cm_mra *m, int can_wait)
{
    struct chk_cm *e = m->msgmraed == IBW_CM_MSG_REQ
                           ? by_client(c, dst, m->remotecommid)
                           : by_server(c, dst, m->remotecommid);
    if (!e && can_wait)
        return 1;
    if (m->msgmraed > IBW_CM_MSG_OTHER)
        chk_report(c, CHK_R_CM_FIELD, "MRA message MRAed code %u, expected 0..2",
                   m->msgmraed);
    if (!e) {
        chk_report(c, CHK_R_CM_UNMATCHED,
                   "MRA for communication ID 0x%08x: no REQ/REP seen",
                   m->remotecommid);
        return 0;
    }
    e->mra_seen = 1;
    return 0;
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

static int on_dreq(struct chk *c, const struct chk_addr *src,
                   const struct ibw_cm_msg *mm, unsigned avail, int can_wait)
{
    const struct ibw_cm_dreq *m = &mm->u.dreq;
    int from_client = 0;
    struct chk_cm *e = by_ids(c, src, m->localcommid, m->remotecommid,
                              &from_client);
    if (!e)
        return unmatched(c, can_wait, "DREQ", 2, m->localcommid,
                         m->remotecommid, "connection");
    uint32_t peer = from_client ? e->server_qpn : e->client_qpn;
    if (HAS(remoteqpneecn) && peer != CM_CUT && m->remoteqpneecn != peer)
        chk_report(c, CHK_R_CM_QPN, "DREQ names remote QPN 0x%06x, the peer's "
                   "negotiated QPN is 0x%06x", m->remoteqpneecn, peer);
    if (e->state == CM_DREQ_SENT)
        return 0; /* resent, or both sides disconnecting at once */
    /* Resent after the DREP: that DREP was lost after the capture point
     * and the DREQ's sender timed out (IBA 12.9: DREQ Sent resends on its
     * timeout; the peer in TimeWait answers a DREQ again with a DREP, as
     * Linux's cm_dreq_handler() does).  A lossy ibwire sim --cm drew
     * CM-SEQ here on clean traffic (start-psn-stale's controls). */
    if (e->state == CM_CLOSED && e->dreq_from_client == (uint8_t)from_client)
        return 0;
    if (e->state != CM_ESTABLISHED && e->state != CM_REP_SENT)
        chk_report(c, CHK_R_CM_SEQ, "DREQ in state %s", state_name(e->state));
    e->state = CM_DREQ_SENT;
    e->dreq_from_client = (uint8_t)from_client;
    cm_touch(c, e);
    return 0;
}

static int on_drep(struct chk *c, const struct chk_addr *src,
                   const struct ibw_cm_drep *m, int can_wait)
{
    int from_client = 0;
    struct chk_cm *e = by_ids(c, src, m->localcommid, m->remotecommid,
                              &from_client);
    if (!e || (e->state != CM_DREQ_SENT && e->state != CM_CLOSED))
        return unmatched(c, can_wait, "DREP", 2, m->localcommid,
                         m->remotecommid, "DREQ");
    e->state = CM_CLOSED;
    cm_touch(c, e);
    /* the connection's flows are over: they end once late frames had
     * their chance (the skew window) */
    struct chk_flow *f = chk_flow_get(c, &e->client, &e->server, e->server_qpn, 0);
    if (f)
        chk_flow_close(c, f);
    f = chk_flow_get(c, &e->server, &e->client, e->client_qpn, 0);
    if (f)
        chk_flow_close(c, f);
    return 0;
}

#undef V
#undef HAS

/* Judge CM message m from src to dst, of whose data avail bytes were
 * captured; 1 when it waits for its cause instead (only when can_wait).
 * A message cut before the IDs (and codes) that tie it to its exchange
 * tells nothing. */
static int cm_judge(struct chk *c, const struct chk_addr *src,
                    const struct chk_addr *dst, const struct ibw_cm_msg *m,
                    unsigned avail, int can_wait)
{
    const char *code = m->attributeid == IBW_CM_ATTR_REJ   ? "msgrej"
                       : m->attributeid == IBW_CM_ATTR_MRA ? "msgmraed"
                                                           : NULL;
    if (!cm_has(m, avail, "localcommid") ||
        (m->attributeid != IBW_CM_ATTR_REQ && !cm_has(m, avail, "remotecommid")) ||
        (code && !cm_has(m, avail, code)))
        return 0;
    switch (m->attributeid) {
    case IBW_CM_ATTR_REQ: on_req(c, src, dst, m, avail); return 0;
    case IBW_CM_ATTR_REP: return on_rep(c, src, dst, m, avail, can_wait);
    case IBW_CM_ATTR_RTU: return on_rtu(c, src, &m->u.rtu, can_wait);
    case IBW_CM_ATTR_REJ: return on_rej(c, src, dst, m, avail, can_wait);
    case IBW_CM_ATTR_MRA: return on_mra(c, dst, &m->u.mra, can_wait);
    case IBW_CM_ATTR_DREQ: return on_dreq(c, src, m, avail, can_wait);
    case IBW_CM_ATTR_DREP: return on_drep(c, src, &m->u.drep, can_wait);
    default: return 0; /* SIDR, LAP, APR: no rules yet */
    }
}

static struct chk_cm_hold *hold_state(struct chk *c)
{
    if (!c->cm_hold)
        c->cm_hold = calloc(1, sizeof *c->cm_hold);
    return c->cm_hold;
}

static int same_pair(const struct chk_addr *a, const struct chk_addr *b,
                     const struct chk_addr *x, const struct chk_addr *y)
{
    return (chk_addr_eq(a, x) && chk_addr_eq(b, y)) ||
           (chk_addr_eq(a, y) && chk_addr_eq(b, x));
}

/* Does a CM exchange between a and b wait for the message that names the
 * QPs of a new connection: a REQ for its REP, or a held REP for its REQ? */
static int pair_pending(struct chk *c, const struct chk_addr *a,
                        const struct chk_addr *b)
{
    if (c->cm_hold && !c->cm_hold->nreq_open && !c->cm_hold->nmsg)
        return 0;
    for (uint32_t i = 0; i < c->ncm; i++)
        if (c->cm[i].state == CM_REQ_SENT &&
            same_pair(&c->cm[i].client, &c->cm[i].server, a, b))
            return 1;
    struct chk_cm_hold *w = c->cm_hold;
    for (unsigned i = 0; w && i < w->nmsg; i++)
        if (w->msg[i].m.attributeid == IBW_CM_ATTR_REP &&
            same_pair(&w->msg[i].src, &w->msg[i].dst, a, b))
            return 1;
    return 0;
}

/* The connection between a and b whose REQ was cut before its service
 * type: its transport is still open.  When the REQ and REP named both
 * QPNs, only the frames from a to b's QP dqp (any, with CM_CUT) are its;
 * when the cut took a QPN too, every frame between a and b may be. */
static struct chk_cm *tr_open(struct chk *c, const struct chk_addr *a,
                              const struct chk_addr *b, uint32_t dqp)
{
    if (!c->cm_hold || !c->cm_hold->ntr_open)
        return NULL;
    for (uint32_t i = c->ncm; i-- > 0;) {
        struct chk_cm *e = &c->cm[i];
        if (!e->live || e->tr_known != CM_TR_CUT || e->state < CM_REP_SENT ||
            e->state == CM_REJECTED)
            continue;
        if (e->client_qpn == CM_CUT || e->server_qpn == CM_CUT) {
            if (same_pair(&e->client, &e->server, a, b))
                return e;
            continue;
        }
        if (chk_addr_eq(&e->client, a) && chk_addr_eq(&e->server, b) &&
            (dqp == CM_CUT || dqp == e->server_qpn))
            return e;
        if (chk_addr_eq(&e->server, a) && chk_addr_eq(&e->client, b) &&
            (dqp == CM_CUT || dqp == e->client_qpn))
            return e;
    }
    return NULL;
}

/* Flow f (created when it does not exist) takes transport tr while it has
 * no packets. */
static void tr_give(struct chk *c, const struct chk_addr *src,
                    const struct chk_addr *dst, uint32_t qpn, unsigned tr)
{
    struct chk_flow *f = chk_flow_get(c, src, dst, qpn, 1);
    if (f && !f->s.requests && !f->s.responses) {
        f->tr = (uint8_t)tr;
        f->tr_known = 1;
    }
}

/* The transport of connection e is tr (known) or is left to its packets.
 * A response from src to dst's QP q at PSN psn settled it; where the cut
 * took the QPNs, the connection is taken to be that QP's and that of the
 * held request from dst to src it answers (its PSN; requests at that PSN
 * to several QPs, or none: left to the packets). */
static void tr_decide(struct chk *c, struct chk_cm *e, unsigned tr, int known,
                      const struct chk_addr *src, const struct chk_addr *dst,
                      uint32_t q, uint32_t psn)
{
    e->tr = (uint8_t)tr;
    e->tr_known = known ? CM_TR_KNOWN : CM_TR_NONE;
    if (c->cm_hold->ntr_open)
        c->cm_hold->ntr_open--;
    if (!known)
        return;
    if (e->client_qpn != CM_CUT && e->server_qpn != CM_CUT) {
        tr_give(c, &e->client, &e->server, e->server_qpn, tr);
        tr_give(c, &e->server, &e->client, e->client_qpn, tr);
        return;
    }
    struct chk_cm_hold *w = c->cm_hold;
    uint32_t r = CM_CUT;
    for (unsigned i = 0; w && i < w->nfr; i++) {
        const struct cm_wait_frame *fr = &w->fr[i];
        const struct ibw_opcode_info *oi = ibw_opcode_info(fr->opcode);
        if (!chk_addr_eq(&fr->a, dst) || !chk_addr_eq(&fr->b, src) ||
            fr->psn != psn || !(oi->flags & IBW_OPF_REQUEST) ||
            (oi->transport != IBW_TR_RC && oi->transport != IBW_TR_UC &&
             oi->transport != IBW_TR_XRC && oi->transport != IBW_TR_RD))
            continue;
        if (r != CM_CUT && r != fr->dqp)
            return; /* requests to several QPs: which one is it? */
        r = fr->dqp;
    }
    if (r == CM_CUT)
        return;
    tr_give(c, dst, src, r, tr);
    tr_give(c, src, dst, q, tr);
}

static void frame_release(struct chk *c, unsigned i)
{
    struct chk_cm_hold *w = c->cm_hold;
    struct cm_wait_frame fr = w->fr[i];
    memmove(w->fr + i, w->fr + i + 1, (w->nfr - i - 1) * sizeof *w->fr);
    w->nfr--;
    uint64_t frame = c->frame, ts = c->ts_ns;
    struct chk_flow *cur = c->cur_flow;
    struct ibw_pkt p;
    ibw_parse(fr.h.bytes, fr.h.len, (enum ibw_link)fr.h.link, &p);
    c->frame = fr.h.frame;
    c->ts_ns = fr.h.ts_ns;
    c->cur_flow = NULL;
    chk_flow_packet(c, &p, fr.h.truncated);
    c->frame = frame;
    c->ts_ns = ts;
    c->cur_flow = cur;
    free(fr.h.bytes);
}

/* Release, in capture order, the held frames whose exchange no longer
 * waits, and with force, or when the first of a pair's frames waited out
 * the skew window, all of that pair's. */
static void frames_settle(struct chk *c, int force)
{
    struct chk_cm_hold *w = c->cm_hold;
    uint64_t win = chk_skew_window(c);
    for (unsigned i = 0; w && i < w->nfr;) {
        struct cm_wait_frame *fr = &w->fr[i];
        int expired = c->ts_ns >= fr->h.ts_ns && c->ts_ns - fr->h.ts_ns > win;
        if (!force && !expired &&
            (pair_pending(c, &fr->a, &fr->b) || tr_open(c, &fr->a, &fr->b, CM_CUT))) {
            i++;
            continue;
        }
        /* this frame and every later one of its pair, in order; a
         * transport no response settled is left to the packets */
        struct chk_addr a = fr->a, b = fr->b;
        struct chk_cm *e;
        while ((e = tr_open(c, &a, &b, CM_CUT)) != NULL)
            tr_decide(c, e, 0, 0, NULL, NULL, 0, 0);
        for (unsigned k = i; k < w->nfr;) {
            if (same_pair(&w->fr[k].a, &w->fr[k].b, &a, &b))
                frame_release(c, k);
            else
                k++;
        }
    }
}

/* Judge the held messages whose cause has come (or, with expire, that
 * waited out the window; with force, all), as the frames they were; then
 * the frames that waited for them. */
static void settle(struct chk *c, int force)
{
    struct chk_cm_hold *w = c->cm_hold;
    if (!w || w->busy)
        return;
    w->busy = 1;
    uint64_t win = chk_skew_window(c);
    for (unsigned i = 0; i < w->nmsg;) {
        struct cm_wait_msg *h = &w->msg[i];
        int expired = c->ts_ns >= h->ts_ns && c->ts_ns - h->ts_ns > win;
        uint64_t frame = c->frame, ts = c->ts_ns;
        struct chk_flow *cur = c->cur_flow;
        c->frame = h->frame;
        c->ts_ns = h->ts_ns;
        c->cur_flow = NULL;
        int waits = cm_judge(c, &h->src, &h->dst, &h->m, h->avail,
                             !force && !expired);
        c->frame = frame;
        c->ts_ns = ts;
        c->cur_flow = cur;
        if (waits) {
            i++;
            continue;
        }
        memmove(w->msg + i, w->msg + i + 1, (w->nmsg - i - 1) * sizeof *w->msg);
        w->nmsg--;
        i = 0; /* it may be the cause another one waits for */
    }
    frames_settle(c, force);
    w->busy = 0;
}

static void hold_msg(struct chk *c, const struct chk_addr *src,
                     const struct chk_addr *dst, const struct ibw_cm_msg *m,
                     unsigned avail)
{
    struct chk_cm_hold *w = hold_state(c);
    if (w && w->nmsg == w->capmsg) {
        unsigned n = w->capmsg ? w->capmsg * 2 : 4;
        struct cm_wait_msg *nm = realloc(w->msg, n * sizeof *nm);
        if (nm) {
            w->msg = nm;
            w->capmsg = n;
        }
    }
    if (!w || w->nmsg == w->capmsg) {
        cm_judge(c, src, dst, m, avail, 0); /* no memory: as it stands */
        return;
    }
    struct cm_wait_msg *h = &w->msg[w->nmsg++];
    h->frame = c->frame;
    h->ts_ns = c->ts_ns;
    h->src = *src;
    h->dst = *dst;
    h->m = *m;
    h->avail = avail;
}

int chk_cm_hold_frame(struct chk *c, const struct ibw_pkt *p, int truncated)
{
    const uint8_t *b = ibw_pkt_hdr(p, IBW_HDR_BTH);
    if (!c->ncm || !b)
        return 0;
    uint32_t dqp = ibw_bth_get_destqp(b);
    if (dqp <= 1)
        return 0; /* MADs and QP0 traffic: no connection's */
    struct chk_addr src, dst;
    chk_pkt_addrs(p, &src, &dst);
    struct chk_flow *f = chk_flow_get(c, &src, &dst, dqp, 0);
    struct chk_flow *g = chk_flow_of_response(c, &src, &dst, dqp);
    /* A connection CM set up with its transport cut away: its first
     * frames wait for a response, which a UC QP never sends. */
    struct chk_cm *e = NULL;
    if ((f && (f->s.requests || f->s.responses || f->nheld)) ||
        (g && (g->s.requests || g->s.responses || g->nheld)))
        return 0;
    e = tr_open(c, &src, &dst, dqp);
    if (!e && (f || g || !pair_pending(c, &src, &dst)))
        return 0;
    const struct ibw_opcode_info *oi = ibw_opcode_info(p->opcode);
    if (e && (oi->flags & IBW_OPF_RESPONSE) &&
        (oi->transport == IBW_TR_RC || oi->transport == IBW_TR_RD ||
         oi->transport == IBW_TR_XRC)) {
        tr_decide(c, e, oi->transport, 1, &src, &dst, dqp,
                  ibw_bth_get_psn(b));
        settle(c, 0); /* the frames before it, then it */
        return 0;
    }
    struct chk_cm_hold *w = hold_state(c);
    if (!w)
        return 0;
    if (w->nfr == w->capfr) {
        unsigned n = w->capfr ? w->capfr * 2 : 4;
        struct cm_wait_frame *nf = realloc(w->fr, n * sizeof *nf);
        if (!nf)
            return 0;
        w->fr = nf;
        w->capfr = n;
    }
    struct cm_wait_frame *fr = &w->fr[w->nfr];
    fr->h.bytes = malloc(p->len ? p->len : 1);
    if (!fr->h.bytes)
        return 0;
    memcpy(fr->h.bytes, p->data, p->len);
    fr->h.len = (uint32_t)p->len;
    fr->h.link = p->link;
    fr->h.truncated = (uint8_t)truncated;
    fr->h.frame = c->frame;
    fr->h.ts_ns = c->ts_ns;
    fr->a = src;
    fr->b = dst;
    fr->dqp = dqp;
    fr->psn = ibw_bth_get_psn(b);
    fr->opcode = p->opcode;
    w->nfr++;
    return 1;
}

void chk_cm_expire(struct chk *c)
{
    if (c->cm_hold && (c->cm_hold->nmsg || c->cm_hold->nfr))
        settle(c, 0);
}

void chk_cm_finish(struct chk *c)
{
    if (c->cm_hold)
        settle(c, 1);
}

void chk_cm_mad(struct chk *c, const struct ibw_pkt *p, const uint8_t *mad,
                size_t len)
{
    struct ibw_cm_msg m;
    struct chk_addr src, dst;
    /* a MAD cut by the capture: the data it holds, the rest zero (and
     * each rule looks only at the fields captured whole) */
    uint8_t data[IBW_CM_DATA_SIZE] = {0};
    if (len < IBW_CM_DATA_OFFSET)
        return;
    unsigned avail = len - IBW_CM_DATA_OFFSET < IBW_CM_DATA_SIZE
                         ? (unsigned)(len - IBW_CM_DATA_OFFSET)
                         : IBW_CM_DATA_SIZE;
    memcpy(data, mad + IBW_CM_DATA_OFFSET, avail);
    uint16_t attr = ibw_mad_hdr_get_attributeid(mad);
    if (ibw_cm_decode(data, sizeof data, attr, &m) != IBW_OK)
        return;
    chk_pkt_addrs(p, &src, &dst);
    if (c->o.event) {
        struct chk_event e = {CHK_EV_CM, c->frame, c->ts_ns, NULL, p,
                              ibw_bth_get_psn(ibw_pkt_hdr(p, IBW_HDR_BTH)),
                              &m, &src, &dst};
        c->o.event(c->o.user, &e);
    }
    if (cm_judge(c, &src, &dst, &m, avail, 1)) {
        hold_msg(c, &src, &dst, &m, avail);
        return;
    }
    /* it may be what held messages and frames wait for */
    if (c->cm_hold && (c->cm_hold->nmsg || c->cm_hold->nfr))
        settle(c, 0);
}
