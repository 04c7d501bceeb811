/* SPDX-License-Identifier: Apache-2.0 */
/*
 * exec_engine.c - ExecutionEngine (HanGu RDMA engine design §4.4.1, UniVista
 * RoCEv2 notes §2.5.2 RC_CHK): the responder.  In order: QP state
 * (Reset/Init/Error drop), service type and Q_Key (UD), PSN region (RC:
 * invalid -> one PSN-sequence NAK carrying ePSN; duplicate -> Send/Write
 * re-ACKed with ePSN-1, Read re-executed, atomic answered from the saved
 * original value; expected -> execute), opcode sequence and length
 * (First/Middle == PMTU, Last/Only <= PMTU -> else NAK invalid request), then
 * execution: RDMA Write through the WriteAddrTable, Send and
 * Write-with-Immediate through the RQWQEManager (no receive WQE -> RNR NAK),
 * R_Key/bounds/rights through the address-translation unit (-> NAK remote
 * access error), read responses cut by PMTU, atomics executed once.  ACKs
 * carry the MSN and the credit count.  A packet marked FECN makes it send a
 * CNP (UniVista RoCEv2 notes).
 */
#include "eng.h"

#include "ibwire/wire.h"

/* The RST view latched when a request arrives (RD_QP_CTX RST); the
 * ExpectedPSN and state it changes are written back with WR_QP_CTX. */
#define EV (e->ee.view)

static void set_epsn(struct ibe_engine *e, const struct eng_qp *q, uint32_t psn)
{
    EV.epsn = psn & PSN_MASK;
    cxt_write(e, M_EXEC, CXW_EPST, q->qpn, EV.state, EV.epsn);
}

static void set_error(struct ibe_engine *e, const struct eng_qp *q)
{
    EV.state = IBE_QPS_ERR;
    cxt_write(e, M_EXEC, CXW_STATE, q->qpn, IBE_QPS_ERR, 0);
}

static void flush_held_ack(struct ibe_engine *e, struct eng_qp *q);

static void respond(struct ibe_engine *e, struct eng_qp *q, uint8_t opcode,
                    uint32_t psn, uint8_t syndrome, const uint8_t *payload,
                    uint32_t len, uint64_t orig)
{
    /* responses go in PSN order: an ACK held back goes first */
    if (q->ee.acks_held)
        flush_held_ack(e, q);
    struct rec_resp r;
    memset(&r, 0, sizeof r);
    r.h.opcode = opcode;
    r.h.pkey = EV.pkey;
    r.h.destqp = EV.dqpn;
    r.h.psn = psn & PSN_MASK;
    r.h.syndrome = syndrome;
    r.h.msn = q->ee.msn & PSN_MASK;
    r.h.orig = orig;
    r.h.paylen = len;
    r.pmtu_enum = (uint8_t)ibw_mtu_bytes_to_enum(EV.pmtu);
    r.msgsize = len;
    resppkt_send(e, &r, payload);
}

static uint8_t ack_syndrome(struct ibe_engine *e, struct eng_qp *q)
{
    return ibw_aeth_syndrome(IBW_AETH_ACK, ibw_aeth_credit_code(rqm_posted(e, q)));
}

/*
 * Choice ACK_COALESCE (choices.h, statement ACK-COALESCE): one ACK for
 * several requests.  The ACK a request with AckReq asks for is held; the
 * fourth held, any other response (which must not overtake it), or
 * COALESCE_WAIT_NS without either sends one ACK for the last of them, with the
 * MSN as of that request (a READ executed since counts in its responses,
 * not in an ACK for an earlier PSN) and the credits of then.  IBA 9.7.5.1: an ACK acknowledges every request
 * up to its PSN, and AckReq asks for an ACK without saying how soon.
 */
enum { COALESCE_MAX = 4, COALESCE_WAIT_NS = 3000 };

static void flush_held_ack(struct ibe_engine *e, struct eng_qp *q)
{
    struct eng_view saved = EV;
    uint32_t msn = q->ee.msn;
    EV = q->ee.ack_view;
    q->ee.msn = q->ee.ack_held_msn; /* as of the PSN it acknowledges */
    q->ee.acks_held = 0;
    q->ee.ack_gen++;
    respond(e, q, IBW_OP_RC_ACKNOWLEDGE, q->ee.ack_held_psn,
            ack_syndrome(e, q), NULL, 0, 0);
    q->ee.msn = msn;
    EV = saved;
}

static void held_ack_due(void *ctx, uint64_t arg)
{
    struct ibe_engine *e = ctx;
    struct eng_qp *q = eng_qp(e, (uint32_t)(arg & 0xFFFFFF));
    if (q && q->ee.acks_held && q->ee.ack_gen == (uint32_t)(arg >> 32))
        flush_held_ack(e, q);
}

static void ack_request(struct ibe_engine *e, struct eng_qp *q, uint32_t psn)
{
    if (!ENG_CHOICE(e, ACK_COALESCE)) {
        respond(e, q, IBW_OP_RC_ACKNOWLEDGE, psn, ack_syndrome(e, q), NULL, 0, 0);
        return;
    }
    q->ee.ack_held_psn = psn;
    q->ee.ack_held_msn = q->ee.msn;
    q->ee.ack_view = EV;
    if (++q->ee.acks_held >= COALESCE_MAX) {
        flush_held_ack(e, q);
        return;
    }
    if (q->ee.acks_held == 1)
        eng_at(e->w, COALESCE_WAIT_NS, held_ack_due, e,
               (uint64_t)(q->qpn & 0xFFFFFF) | ((uint64_t)q->ee.ack_gen << 32));
}

static void nak(struct ibe_engine *e, struct eng_qp *q, unsigned code)
{
    if (code == IBW_NAK_PSN_SEQ_ERROR)
        e->st.seq_naks_tx++;
    respond(e, q, IBW_OP_RC_ACKNOWLEDGE, EV.epsn, ibw_aeth_syndrome(IBW_AETH_NAK, code), NULL, 0, 0);
}

/* After an RNR NAK the responder waits for the requester to send the NAKed
 * PSN again (its ExpectedPSN did not move) and returns no other NAK until
 * a request with that PSN arrives (IBA 9.7.5.2: a responder that has sent
 * a NAK sends no further NAK except for a valid request at the expected
 * PSN; 9.7.5.2.8: the requester resends from the NAKed PSN after the RNR
 * timer).  The requests the requester had already sent behind the NAKed
 * one are dropped silently: a PSN-sequence NAK for them would name the
 * same PSN and make the requester cut its RNR wait short.  (Linux rxe
 * answers the first of them with a sequence NAK: check_psn() clears
 * sent_psn_nak on the RNR-NAKed in-sequence request; its requester ignores
 * it during the RNR wait, wait_for_rnr_timer.) */
static void rnr_nak(struct ibe_engine *e, struct eng_qp *q, uint32_t psn)
{
    e->st.rnr_naks_tx++;
    q->ee.nak_armed = ENG_FAULT(e, SEQ_NAK_AFTER_RNR);
    respond(e, q, IBW_OP_RC_ACKNOWLEDGE, psn, ibw_aeth_syndrome(IBW_AETH_RNR_NAK, EV.rnr_timer),
            NULL, 0, 0);
}

/* Read responses for [va, va+len) starting at `psn`. */
/* The responses to a READ of len bytes at va from PSN psn.  `at` and
 * `span`: where psn stands in the span the opcodes follow and how many
 * PSNs that span has (0 and the READ's own count: its own span). */
static void read_responses_in(struct ibe_engine *e, struct eng_qp *q,
                              uint32_t psn, uint64_t va, uint32_t len,
                              uint32_t at, uint32_t span)
{
    uint32_t pmtu = EV.pmtu;
    uint32_t n = len ? (len + pmtu - 1) / pmtu : 1;
    uint8_t buf[4096];
    for (uint32_t i = 0; i < n; i++) {
        uint32_t chunk = len - i * pmtu < pmtu ? len - i * pmtu : pmtu;
        uint32_t k = at + i;
        uint8_t op = span == 1 ? IBW_OP_RC_RDMA_READ_RESPONSE_ONLY
                   : k == 0 ? IBW_OP_RC_RDMA_READ_RESPONSE_FIRST
                   : k + 1 == span ? IBW_OP_RC_RDMA_READ_RESPONSE_LAST
                                   : IBW_OP_RC_RDMA_READ_RESPONSE_MIDDLE;
        eng_dma_read(e, M_EXEC, va + (uint64_t)i * pmtu, buf, chunk);
        /* faults.h, zoo row 31b: the LAST carries the next message's MSN */
        uint32_t ahead = op == IBW_OP_RC_RDMA_READ_RESPONSE_LAST &&
                         ENG_FAULT(e, MSN_READ_AHEAD);
        q->ee.msn += ahead;
        respond(e, q, op, psn_add(psn, i), ack_syndrome(e, q), buf, chunk, 0);
        q->ee.msn -= ahead;
    }
}

static void read_responses(struct ibe_engine *e, struct eng_qp *q, uint32_t psn,
                           uint64_t va, uint32_t len)
{
    uint32_t pmtu = EV.pmtu;
    read_responses_in(e, q, psn, va, len, 0, len ? (len + pmtu - 1) / pmtu : 1);
}

/* A duplicate READ at psn (IBA 9.7.5.1: executed again from its own PSN,
 * the same bytes at the same PSNs).  The opcodes are the statement
 * READ-DUP-OPCODE's open choice (conformance/check/statements.h): FIRST
 * ... LAST from psn by default, or with DUP_READ_CONTINUE those of the
 * original span it re-enters when psn lies inside one executed earlier
 * and the re-issue runs to that span's end. */
static void dup_read_responses(struct ibe_engine *e, struct eng_qp *q,
                               const struct eng_hdr *h)
{
    uint32_t pmtu = EV.pmtu;
    uint32_t n = h->dmalen ? (h->dmalen + pmtu - 1) / pmtu : 1;
    uint32_t at = 0, span = n, msn = q->ee.msn;
    for (unsigned i = 0; i < ENG_READ_CACHE; i++) {
        int32_t d = psn_diff(h->psn, q->ee.rcache[i].psn);
        if (!q->ee.rcache[i].valid || d < 0 || (uint32_t)d + n != q->ee.rcache[i].npsn)
            continue;
        /* statement MSN: the MSN its first answer had (open choice) */
        if (ENG_CHOICE(e, DUP_MSN_ORIGINAL))
            q->ee.msn = q->ee.rcache[i].msn;
        if (d > 0 && ENG_CHOICE(e, DUP_READ_CONTINUE)) {
            at = (uint32_t)d;
            span = q->ee.rcache[i].npsn;
        }
        break;
    }
    read_responses_in(e, q, h->psn, h->va, h->dmalen, at, span);
    q->ee.msn = msn;
}

static uint8_t rq_cmd(struct ibe_engine *e, struct eng_qp *q, uint8_t op)
{
    struct rec_rq c, r;
    memset(&c, 0, sizeof c);
    c.op = op;
    c.qpn = q->qpn;
    if (op == RQ_FETCH) {
        c.pd = EV.pd;
        c.rq_len = EV.rq_len;
    } else if (op == RQ_UPDATE) {
        c.len = q->ee.ent.len;
        c.key = q->ee.ent.key;
        c.va = q->ee.ent.va;
    }
    uint8_t code = (uint8_t)rqm_cmd(e, &c, &r);
    if (op == RQ_FETCH && code != RQR_INVALID_WQE) {
        q->ee.ent.wqe = 1;
        q->ee.wqe_off = r.wqe_off; /* what the CQE names */
    }
    if (op == RQ_RELEASE_WQE || op == RQ_FLUSH)
        q->ee.ent.wqe = 0;
    if (op == RQ_FETCH && code == RQR_VALID) {
        q->ee.ent.valid = 1;
        q->ee.ent.len = r.len;
        q->ee.ent.key = r.key;
        q->ee.ent.va = r.va;
    } else if (op != RQ_UPDATE) {
        q->ee.ent.valid = 0;
    }
    return code;
}

/* Scatter a Send payload into the current receive WQE entry by entry
 * (E10 FETCH_ENTRY / UPDATE_ENTRY / RELEASE_ENTRY); false on overflow. */
static bool recv_scatter(struct ibe_engine *e, struct eng_qp *q,
                         const uint8_t *p, uint32_t len)
{
    while (len) {
        if (!q->ee.ent.valid && rq_cmd(e, q, RQ_FETCH) != RQR_VALID)
            return false;
        uint32_t n = len < q->ee.ent.len ? len : q->ee.ent.len;
        if (n) {
            if (eng_xlate(e, M_EXEC, XL_WR_DATA, 1, EV.pd, q->ee.ent.key,
                          q->ee.ent.va, n, IBE_ACC_LOCAL_WRITE) != XL_OK)
                return false;
            eng_dma_write(e, M_EXEC, q->ee.ent.va, p, n);
        }
        p += n;
        len -= n;
        q->ee.ent.va += n;
        q->ee.ent.len -= n;
        q->ee.recv_bytes += n;
        if (q->ee.ent.len == 0)
            rq_cmd(e, q, RQ_RELEASE_ENTRY);
        else
            rq_cmd(e, q, RQ_UPDATE);
    }
    return true;
}

static void recv_complete(struct ibe_engine *e, struct eng_qp *q,
                          const struct eng_hdr *h, uint8_t status, uint32_t len,
                          uint8_t opcode)
{
    struct ibe_wc wc;
    memset(&wc, 0, sizeof wc);
    wc.status = status;
    wc.opcode = opcode;
    wc.byte_len = len;
    wc.has_imm = (uint8_t)ibw_opcode_has_hdr(h->opcode, IBW_HDR_IMMDT);
    wc.imm = h->imm;
    wc.solicited = h->se;
    wc.src_qp = EV.type == IBE_UD ? h->srcqp : EV.dqpn;
    uint32_t wqe_off = q->ee.wqe_off;
    rq_cmd(e, q, RQ_RELEASE_WQE);
    cxt_cq_push(e, EV.cqn, &wc, wqe_off, 0, q->qpn, h->opcode);
}

/* FETCH_ENTRY for a message's first packet: loads the head WQE. */
static int fetch_wqe(struct ibe_engine *e, struct eng_qp *q)
{
    return rq_cmd(e, q, RQ_FETCH);
}

/* The message in progress is abandoned: the WQE starts over. */
static void abandon_wqe(struct ibe_engine *e, struct eng_qp *q)
{
    if (q->ee.ent.wqe)
        rq_cmd(e, q, RQ_FLUSH);
}

/* Execute an atomic at va: the original value (and the cache entry). */
static uint64_t atomic_exec(struct ibe_engine *e, const struct eng_hdr *h)
{
    uint8_t b[8];
    eng_dma_read(e, M_EXEC, h->va, b, 8);
    uint64_t orig = 0;
    for (int i = 7; i >= 0; i--)
        orig = orig << 8 | b[i];
    uint64_t nv = h->opcode == IBW_OP_RC_FETCH_ADD
                      ? orig + h->swap
                      : (orig == h->cmp ? h->swap : orig);
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)(nv >> (8 * i));
    eng_dma_write(e, M_EXEC, h->va, b, 8);
    return orig;
}

static void ud_request(struct ibe_engine *e, struct eng_qp *q,
                       const struct eng_hdr *h, const uint8_t *p)
{
    if ((h->opcode != IBW_OP_UD_SEND_ONLY &&
         h->opcode != IBW_OP_UD_SEND_ONLY_WITH_IMMEDIATE) || h->qkey != EV.qkey ||
        h->paylen > EV.pmtu)
        return; /* UD: silently dropped */
    if (fetch_wqe(e, q) == RQR_INVALID_WQE)
        return;
    q->ee.recv_bytes = 0;
    if (!recv_scatter(e, q, p, h->paylen)) {
        recv_complete(e, q, h, IBE_WC_LOC_LEN_ERR, 0, IBE_WR_RECV);
        return;
    }
    recv_complete(e, q, h, IBE_WC_SUCCESS, h->paylen, IBE_WR_RECV);
}

/* UC: no ACKs; a gap drops the message in progress, which never completes. */
static bool uc_sequence(struct ibe_engine *e, struct eng_qp *q, const struct eng_hdr *h)
{
    int32_t d = psn_diff(h->psn, EV.epsn);
    if (d < 0)
        return false; /* an old or duplicated packet */
    if (d > 0) {
        q->ee.recv_active = 0; /* a gap: the partial message is abandoned */
        abandon_wqe(e, q);
        q->ee.uc_drop = 1;
    }
    if (ibw_opcode_is_first(h->opcode)) {
        q->ee.uc_drop = 0;
        q->ee.recv_active = 0;
        abandon_wqe(e, q);
    }
    set_epsn(e, q, psn_add(h->psn, 1));
    return !q->ee.uc_drop;
}

static void serve_ee_request(struct ibe_engine *e, const uint8_t *p)
{
    struct eng_hdr in, *h = &in;
    rec_hdr_get(e, CH_EXEC_IN, h);
    /* the HeaderParser checked the QP */
    struct eng_qp *q = eng_qp_known(e, h->destqp);
    cxt_read(e, M_EXEC, CXT_RD_QP, CXR_RST, q->qpn, &EV);
    if (EV.state != IBE_QPS_RTR && EV.state != IBE_QPS_RTS)
        return;
    if (ibw_opcode_transport(h->opcode) != eng_transport_of(EV.type))
        return;
    if (h->fecn) {
        struct rec_resp r;
        memset(&r, 0, sizeof r);
        r.h.opcode = IBW_OP_CNP;
        r.h.pkey = EV.pkey;
        r.h.destqp = EV.type == IBE_UD ? h->srcqp : EV.dqpn;
        r.h.becn = 1;
        e->st.cnp_tx++;
        resppkt_send(e, &r, NULL);
    }
    if (EV.type == IBE_UD) {
        ud_request(e, q, h, p);
        return;
    }
    enum ibw_op_kind kind = ibw_opcode_kind(h->opcode);
    uint32_t pmtu = EV.pmtu;
    bool rc = EV.type == IBE_RC;

    if (rc) {
        int32_t d = psn_diff(h->psn, EV.epsn);
        if (d > 0) { /* invalid region: one NAK per gap */
            if (q->ee.nak_armed) {
                q->ee.nak_armed = 0;
                nak(e, q, IBW_NAK_PSN_SEQ_ERROR);
            }
            return;
        }
        if (d < 0) { /* duplicate region */
            e->st.dup_requests++;
            if (kind == IBW_OPK_READ) {
                if (!h->dmalen ||
                    eng_xlate(e, M_EXEC, XL_RD_DATA, 2, EV.pd, h->rkey, h->va,
                              h->dmalen, IBE_ACC_REMOTE_READ) == XL_OK)
                    dup_read_responses(e, q, h);
                q->ee.dup_read_seen = ENG_FAULT(e, NAK_AFTER_DUP_READ);
            } else if (kind == IBW_OPK_ATOMIC) {
                for (unsigned i = 0; i < ENG_ATOMIC_CACHE; i++)
                    if (q->ee.acache[i].valid && q->ee.acache[i].psn == h->psn) {
                        /* faults.h, zoo row 9: executed again */
                        if (ENG_FAULT(e, ATOMIC_DUP_EXEC))
                            q->ee.acache[i].orig = atomic_exec(e, h);
                        respond(e, q, IBW_OP_RC_ATOMIC_ACKNOWLEDGE, h->psn,
                                ack_syndrome(e, q), NULL, 0,
                                q->ee.acache[i].orig);
                        break;
                    }
            } else {
                respond(e, q, IBW_OP_RC_ACKNOWLEDGE, psn_add(EV.epsn, PSN_MASK),
                        ack_syndrome(e, q),
                        NULL, 0, 0);
            }
            return;
        }
        /* faults.h, zoo row 13: a zero-length READ stops the responder
         * (rxe crashed): no answer, and no NAK for what follows */
        if (kind == IBW_OPK_READ && !h->dmalen && ENG_FAULT(e, ZERO_READ_SILENT)) {
            q->ee.nak_armed = 0;
            return;
        }
        q->ee.nak_armed = 1;
    } else if (!uc_sequence(e, q, h)) {
        return;
    }

    /* opcode sequence and length */
    bool in_send = q->ee.recv_active == 1, in_write = q->ee.recv_active == 2;
    bool send = kind == IBW_OPK_SEND, write = kind == IBW_OPK_WRITE;
    bool ok_seq = eng_op_continues(h->opcode)
                      ? (send ? in_send : write ? in_write : false)
                      : !(in_send || in_write);
    bool ok_len = eng_op_more_follow(h->opcode) ? h->paylen == pmtu
                                                : h->paylen <= pmtu;
    if (!rc && !send && !write)
        ok_seq = false;
    if (e->faults) {
        /* faults.h: zoo row 10, the C9-92 length checks never fire */
        if (ENG_FAULT(e, LEN_CHECK_OFF))
            ok_len = true;
        /* row 20: SEND ONLY WITH INVALIDATE not a message start */
        if (h->opcode == IBW_OP_RC_SEND_ONLY_WITH_INVALIDATE &&
            ENG_FAULT(e, SEND_INV_NOT_START))
            ok_seq = false;
        /* row 6b: after a duplicate READ, a valid Send/Write NAKed */
        if (q->ee.dup_read_seen && (send || write)) {
            q->ee.dup_read_seen = 0;
            ok_seq = false;
        }
    }
    if (!ok_seq || !ok_len) {
        if (rc)
            nak(e, q, IBW_NAK_INVALID_REQUEST);
        else
            q->ee.uc_drop = 1;
        return;
    }

    if (kind == IBW_OPK_READ) {
        /* C9-88: a zero-length READ's R_Key and VA are not checked; fault
         * ZERO_READ_RKEY (faults.h, zoo row 14) checks them, fault
         * ZERO_READ_SILENT (row 13) never answers it */
        if ((h->dmalen || ENG_FAULT(e, ZERO_READ_RKEY)) &&
            eng_xlate(e, M_EXEC, XL_RD_DATA, 2, EV.pd, h->rkey, h->va, h->dmalen,
                      IBE_ACC_REMOTE_READ) != XL_OK) {
            if (!ENG_FAULT(e, NO_NAK)) /* row 16: no NAK */
                nak(e, q, IBW_NAK_REMOTE_ACCESS_ERROR);
            else
                q->ee.nak_armed = 0;
            return;
        }
        uint32_t n = h->dmalen ? (h->dmalen + pmtu - 1) / pmtu : 1;
        set_epsn(e, q, psn_add(EV.epsn, n));
        q->ee.msn++;
        q->ee.rcache[q->ee.rcache_next].psn = h->psn;
        q->ee.rcache[q->ee.rcache_next].npsn = n;
        q->ee.rcache[q->ee.rcache_next].msn = q->ee.msn;
        q->ee.rcache[q->ee.rcache_next].valid = 1;
        q->ee.rcache_next = (q->ee.rcache_next + 1) % ENG_READ_CACHE;
        /* faults.h, zoo row 6a: an ACK covering the READ before its
         * responses, at any PSN of its span (drawn at random) */
        if (n > 1 && ENG_FAULT(e, ACK_COVERS_READ))
            respond(e, q, IBW_OP_RC_ACKNOWLEDGE,
                    psn_add(h->psn, (uint32_t)(ibe_rand(e->w) % n)),
                    ack_syndrome(e, q), NULL, 0, 0);
        read_responses(e, q, h->psn, h->va, h->dmalen);
        return;
    }
    if (kind == IBW_OPK_ATOMIC) {
        if ((h->va & 7) ||
            eng_xlate(e, M_EXEC, XL_WR_DATA, 2, EV.pd, h->rkey, h->va, 8,
                      IBE_ACC_REMOTE_ATOMIC) != XL_OK) {
            if (!ENG_FAULT(e, NO_NAK)) /* faults.h, zoo row 16 */
                nak(e, q, (h->va & 7) ? IBW_NAK_INVALID_REQUEST
                                      : IBW_NAK_REMOTE_ACCESS_ERROR);
            else
                q->ee.nak_armed = 0;
            return;
        }
        uint64_t orig = atomic_exec(e, h);
        q->ee.acache[q->ee.acache_next].psn = h->psn;
        q->ee.acache[q->ee.acache_next].orig = orig;
        q->ee.acache[q->ee.acache_next].valid = 1;
        q->ee.acache_next = (q->ee.acache_next + 1) % ENG_ATOMIC_CACHE;
        set_epsn(e, q, psn_add(EV.epsn, 1));
        q->ee.msn++;
        respond(e, q, IBW_OP_RC_ATOMIC_ACKNOWLEDGE, h->psn, ack_syndrome(e, q), NULL,
                0, orig);
        return;
    }

    bool last = ibw_opcode_is_last(h->opcode);
    if (send) {
        if (ibw_opcode_is_first(h->opcode)) {
            if (fetch_wqe(e, q) == RQR_INVALID_WQE) {
                if (rc)
                    rnr_nak(e, q, h->psn);
                else
                    q->ee.uc_drop = 1;
                return;
            }
            q->ee.recv_bytes = 0;
        }
        if (!recv_scatter(e, q, p, h->paylen)) {
            if (rc) {
                nak(e, q, IBW_NAK_REMOTE_OP_ERROR);
                recv_complete(e, q, h,
                              ENG_FAULT(e, LONG_SEND_QP_OP_ERR) ? IBE_WC_LOC_QP_OP_ERR
                                                                : IBE_WC_LOC_LEN_ERR,
                              0, IBE_WR_RECV);
                set_error(e, q);
            } else {
                q->ee.uc_drop = 1;
                q->ee.recv_active = 0;
            }
            return;
        }
        q->ee.recv_active = last ? 0 : 1;
        if (last) {
            if (ibw_opcode_has_hdr(h->opcode, IBW_HDR_IETH)) {
                /* Send with Invalidate: the R_Key goes */
                eng_mr_invalidate_in_pd(e, h->imm, EV.pd);
            }
            recv_complete(e, q, h, IBE_WC_SUCCESS, q->ee.recv_bytes, IBE_WR_RECV);
        }
    } else { /* RDMA Write */
        uint32_t rkey;
        uint64_t va;
        bool wrapped = false;
        uint32_t resid;
        if (ibw_opcode_is_first(h->opcode)) {
            /* faults.h, zoo row 19: VA + length wrapping 2^64 passes (the
             * write goes nowhere here) */
            wrapped = h->va + h->dmalen < h->va && ENG_FAULT(e, VA_WRAP);
            /* C9-88: a zero-length WRITE's R_Key and VA are not checked
             * (Linux rxe check_rkey(): "A zero-byte op is not required to
             * set an addr or rkey") */
            if (!wrapped && h->dmalen &&
                eng_xlate(e, M_EXEC, XL_WR_DATA, 2, EV.pd, h->rkey, h->va, h->dmalen,
                          IBE_ACC_REMOTE_WRITE) != XL_OK) {
                if (rc && !ENG_FAULT(e, NO_NAK)) /* row 16: no NAK */
                    nak(e, q, IBW_NAK_REMOTE_ACCESS_ERROR);
                else if (rc)
                    q->ee.nak_armed = 0; /* silent from here on */
                else
                    q->ee.uc_drop = 1;
                return;
            }
            rkey = h->rkey;
            va = h->va;
            resid = h->dmalen;
        } else {
            wat_read(e, q->qpn, &rkey, &va);
            resid = q->ee.wr_resid;
            if (eng_xlate(e, M_EXEC, XL_WR_DATA, 2, EV.pd, rkey, va, h->paylen,
                          IBE_ACC_REMOTE_WRITE) != XL_OK) {
                if (rc)
                    nak(e, q, IBW_NAK_REMOTE_ACCESS_ERROR);
                else
                    q->ee.uc_drop = 1;
                return;
            }
        }
        /* fault ZERO_DMALEN_DATA (faults.h): a FIRST or ONLY of DMA length
         * 0 skips the length check below with the range check (Linux 6.1
         * rxe check_rkey() returns before both); its bytes go nowhere */
        bool unchecked = ibw_opcode_is_first(h->opcode) && !h->dmalen &&
                         ENG_FAULT(e, ZERO_DMALEN_DATA);
        if (unchecked)
            wrapped = true;
        /* C9-92: the payloads of a WRITE add up to its RETH DMA length:
         * no packet carries more than what is left, the LAST (or ONLY)
         * exactly what is left.  Checked after the range (as Linux rxe
         * check_rkey() does: RESPST_ERR_LENGTH -> NAK Invalid Request);
         * fault LEN_CHECK_OFF (faults.h, zoo row 10) skips it. */
        if (!unchecked && (h->paylen > resid || (last && h->paylen != resid))) {
            bool off = ENG_FAULT(e, LEN_CHECK_OFF);
            /* with the check off, bytes past the checked range still
             * cannot be written: a FIRST/ONLY carrying more than its DMA
             * length is then NAKed as the old range check did */
            bool over = off && ibw_opcode_is_first(h->opcode) && h->paylen > resid;
            if (!off || over) {
                if (rc)
                    nak(e, q, over ? IBW_NAK_REMOTE_ACCESS_ERROR
                                   : IBW_NAK_INVALID_REQUEST);
                else
                    q->ee.uc_drop = 1;
                return;
            }
        }
        if (ibw_opcode_is_first(h->opcode)) {
            q->ee.recv_bytes = 0;
            abandon_wqe(e, q);
        }
        bool imm = ibw_opcode_has_hdr(h->opcode, IBW_HDR_IMMDT);
        if (imm && fetch_wqe(e, q) == RQR_INVALID_WQE) {
            if (rc)
                rnr_nak(e, q, h->psn);
            else
                q->ee.uc_drop = 1;
            return;
        }
        if (!wrapped)
            eng_dma_write(e, M_EXEC, va, p, h->paylen);
        q->ee.recv_bytes += h->paylen;
        if (!last) {
            wat_write(e, q->qpn, rkey, va + h->paylen);
            q->ee.wr_resid = h->paylen < resid ? resid - h->paylen : 0;
        }
        q->ee.recv_active = last ? 0 : 2;
        if (last && imm)
            recv_complete(e, q, h, IBE_WC_SUCCESS, q->ee.recv_bytes, IBE_WR_RDMA_WRITE_IMM);
    }
    if (rc) {
        set_epsn(e, q, psn_add(EV.epsn, 1));
        /* faults.h: zoo row 4, MSN per packet; row 5, none for a WRITE
         * without immediate */
        if (e->faults && ENG_FAULT(e, MSN_PER_PACKET))
            q->ee.msn++;
        else if (last && !(write && !ibw_opcode_has_hdr(h->opcode, IBW_HDR_IMMDT) &&
                           ENG_FAULT(e, MSN_NO_WRITE)))
            q->ee.msn++;
        if (h->ackreq)
            ack_request(e, q, h->psn);
    }
}

void ee_step(struct ibe_engine *e, struct eng_msg *m)
{
    switch (m->port) {
    case PORT_EE_RESET: {
        struct eng_qp *q = m->p[0];
        q->ee.ent.valid = q->ee.ent.wqe = 0;
        q->ee.recv_active = 0;
        q->ee.acks_held = 0; /* a flush already scheduled finds none */
        q->ee.ack_gen++;
        break;
    }
    case PORT_EE_REQUEST:
        serve_ee_request(e, (const uint8_t *)m->cp[0]);
        break;
    default:
        abort(); /* a port this module does not have: a wiring bug */
    }
}
