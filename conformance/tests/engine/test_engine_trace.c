/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The trace of one Send and one Read: every record crossing a module
 * boundary is seen, in the order the documents' data path implies, and
 * each unpacks (with the library's own unpackers) to the fields the
 * operation must produce.  Expected values come from the operation posted:
 * a 10-byte Send (verbs opcode 0x0A, BTH SEND ONLY 0x04, PSN 100) and a
 * 600-byte Read (0x10, READ REQUEST 0x0C, PSNs 101..103 at PMTU 256).
 */
#include "harness.h"
#include "ibwire/records.h"

struct trec {
    int side;
    struct ibe_trace_rec r;
};
static struct trec T[8192];
static size_t nT;

static void on_trace(void *ctx, struct ibe_engine *e, const struct ibe_trace_rec *r)
{
    struct harness *h = ctx;
    if (nT < 8192) {
        T[nT].side = e == h->e[0] ? 0 : 1;
        T[nT].r = *r;
        nT++;
    }
}

/* Next record at or after *pos with this id, source and destination. */
static const struct ibe_trace_rec *find(size_t *pos, int side, unsigned id,
                                        const char *from, const char *to)
{
    for (size_t i = *pos; i < nT; i++)
        if (T[i].side == side && T[i].r.rec_id == id && !strcmp(T[i].r.from, from) &&
            !strcmp(T[i].r.to, to)) {
            *pos = i + 1;
            return &T[i].r;
        }
    fprintf(stderr, "no E%u %s -> %s after record %zu\n", id, from, to, *pos);
    return NULL;
}

/* find() for a record the trace must hold: a miss, or a record of another
 * name when name is given, is a failure. */
static const struct ibe_trace_rec *expect_rec(size_t *pos, int side, unsigned id,
                                              const char *from, const char *to,
                                              const char *name)
{
    const struct ibe_trace_rec *r = find(pos, side, id, from, to);
    TU_CHECK(r != NULL && (name == NULL || !strcmp(r->rec, name)));
    if (r != NULL && name != NULL && strcmp(r->rec, name))
        fprintf(stderr, "E%u %s -> %s is %s, expected %s\n", id, from, to,
                r->rec, name);
    return r;
}

int main(void)
{
    static struct h_pkt P[64];
    struct harness h;
    h_init(&h, IBE_RC, 7, 7);
    for (int i = 0; i < 2; i++)
        ibe_engine_set_trace(h.e[i], on_trace, &h);
    h_post_recv(&h, 1, 0, 100);
    h_post(&h, 0, IBE_WR_SEND, 0, 10, 0, 0);
    h_settle(&h);
    size_t n = h_take(&h, P, 64);
    h_deliver_all(&h, P, n);
    n = h_take(&h, P, 64);
    h_deliver_all(&h, P, n);

    size_t pos = 0;
    const struct ibe_trace_rec *r;
    /* requester, doorbell to wire */
    r = expect_rec(&pos, 0, 1, "Host", "DoorbellProcessing", NULL);
    if (r) {
        struct ibw_sq_doorbell d;
        ibw_sq_doorbell_unpack(r->words, &d);
        TU_EQ(d.opcode, 0x0A);
        TU_EQ(d.qpn, h.qp[0]);
        TU_EQ(d.offset, 0);
        TU_EQ(d.size, 2); /* NextSeg + one DataSeg = 32 bytes */
    }
    /* E2 SST view for DoorbellProcessing: RC (0), A's peer B, P_Key
     * 0xFFFF, PMTU enum 1 (256), PD 1, 256-byte slots (log 8), SQ length
     * 32 slots x 256 = 8192 */
    size_t spos = pos;
    r = expect_rec(&spos, 0, 2, "ContextManager", "DoorbellProcessing", "cxt_resp");
    r = expect_rec(&spos, 0, 2, "ContextManager", "DoorbellProcessing", "cxt_view_sst");
    if (r) {
        struct ibw_cxt_view_sst v;
        ibw_cxt_view_sst_unpack(r->words, &v);
        TU_EQ(v.service_type, 0);
        TU_EQ(v.dst_qpn, h.qp[1]);
        TU_EQ(v.pkey, 0xFFFF);
        TU_EQ(v.pmtu, 1);
        TU_EQ(v.pd, 1);
        TU_EQ(v.sq_entry_sz_log, 8);
        TU_EQ(v.sq_length, 8192);
    }
    /* E2 STATE view for the WQEParser: RTS (3) in [31:29] */
    r = expect_rec(&spos, 0, 2, "WQEParser", "ContextManager", NULL);
    if (r) {
        TU_EQ(ibw_cxt_cmd_get_type(r->words), 1);
        TU_EQ(ibw_cxt_cmd_get_opcode(r->words), 5);
    }
    find(&spos, 0, 2, "ContextManager", "WQEParser"); /* cxt_resp */
    r = expect_rec(&spos, 0, 2, "ContextManager", "WQEParser", "cxt_view_state");
    if (r)
        TU_EQ(r->words[0] >> 29, 3);
    r = expect_rec(&pos, 0, 12, "DoorbellProcessing", "WQEScheduler", NULL);
    r = expect_rec(&pos, 0, 12, "WQEScheduler", "WQEParser", NULL);
    if (r) {
        struct ibw_db_meta m;
        ibw_db_meta_unpack(r->words, &m);
        TU_EQ(m.src_qpn, h.qp[0]);
        TU_EQ(m.dst_qpn, h.qp[1]);
        TU_EQ(m.pmtu, 256);
    }
    r = expect_rec(&pos, 0, 13, "WQEParser", "DataPack", NULL);
    if (r) {
        struct ibw_common_meta m;
        ibw_common_meta_unpack(r->words, &m);
        TU_EQ(m.opcode, 0x0A);
        TU_EQ(m.service_type, 0); /* RC */
        TU_EQ(m.msg_size, 10);
        TU_EQ(m.req_state, 0);
        TU_EQ(m.legal_entry_num, 1);
    }
    r = expect_rec(&pos, 0, 14, "WQEParser", "DataPack", NULL);
    if (r) {
        struct ibw_sg_entry s;
        ibw_sg_entry_unpack(r->words, &s);
        TU_EQ(s.length, 10);
        TU_EQ(s.lkey, h.lkey[0]);
        TU_EQ(s.va, h.buf[0]);
    }
    r = expect_rec(&pos, 0, 26, "DataPack", "DMAEngine", NULL);
    if (r) {
        struct ibw_dma_head d;
        ibw_dma_head_unpack(r->words, &d);
        TU_EQ(d.length, 10);
        TU_EQ(d.addr, h.buf[0]);
    }
    r = expect_rec(&pos, 0, 13, "DataPack", "RequesterTransControl", NULL);
    r = expect_rec(&pos, 0, 18, "RequesterTransControl", "ReqPktGen", NULL);
    if (r) {
        struct ibw_req_hdr_meta m;
        ibw_req_hdr_meta_unpack(r->words, &m);
        TU_EQ(m.opcode, 0x04);
        TU_EQ(m.psn, 100);
        TU_EQ(m.ackreq, 1);
        TU_EQ(m.destqp, h.qp[1]);
        TU_EQ(ibw_bus_bth_pkt_len(r->words), 10);
    }
    r = expect_rec(&pos, 0, 5, "RequesterTransControl", "TimerControl", NULL);
    if (r) {
        struct ibw_timer_set_event t;
        ibw_timer_set_event_unpack(r->words, &t);
        TU_EQ(t.opcode, 0x00);
        TU_EQ(t.qpn, h.qp[0]);
        TU_EQ(t.counter_value, 7);
        TU_EQ(t.timer_value, 8);
    }
    /* responder */
    size_t bpos = 0;
    r = expect_rec(&bpos, 1, 18, "HeaderParser", "ExecutionEngine", NULL);
    /* E2: the ExecutionEngine reads its RST view (RD_QP_CTX 1, RST 4; the
     * context echoes the command, then the view: B expects PSN 100, RTS 3,
     * PMTU enum 1, remote QPN = A's) and writes ExpectedPSN 101 back
     * (WR_QP_CTX 2, EPST 4, then cxt_wr_data) */
    size_t cpos = bpos;
    r = expect_rec(&cpos, 1, 2, "ExecutionEngine", "ContextManager", NULL);
    if (r) {
        struct ibw_cxt_cmd c;
        ibw_cxt_cmd_unpack(r->words, &c);
        TU_EQ(c.type, 1);
        TU_EQ(c.opcode, 4);
        TU_EQ(c.qpn, h.qp[1]);
        TU_CHECK(!strcmp(r->rec, "cxt_cmd"));
    }
    r = expect_rec(&cpos, 1, 2, "ContextManager", "ExecutionEngine", "cxt_resp");
    r = expect_rec(&cpos, 1, 2, "ContextManager", "ExecutionEngine", "cxt_view_rst");
    if (r) {
        struct ibw_cxt_view_rst v;
        ibw_cxt_view_rst_unpack(r->words, &v);
        TU_EQ(v.expected_psn, 100);
        TU_EQ(v.state, 3);
        TU_EQ(v.pmtu, 1);
        TU_EQ(v.remote_qpn, h.qp[0]);
    }
    r = expect_rec(&cpos, 1, 2, "ExecutionEngine", "ContextManager", NULL);
    if (r) {
        struct ibw_cxt_cmd c;
        ibw_cxt_cmd_unpack(r->words, &c);
        TU_EQ(c.type, 2);
        TU_EQ(c.opcode, 4);
    }
    r = expect_rec(&cpos, 1, 2, "ExecutionEngine", "ContextManager", "cxt_wr_data");
    if (r) {
        struct ibw_cxt_wr_data d;
        ibw_cxt_wr_data_unpack(r->words, &d);
        TU_EQ(d.psn, 101);
        TU_EQ(d.state, 3);
    }
    r = expect_rec(&bpos, 1, 10, "ExecutionEngine", "RQWQEManager", NULL);
    if (r) {
        struct ibw_rwm_cmd c;
        ibw_rwm_cmd_unpack(r->words, &c);
        TU_EQ(c.op, 0); /* FETCH_ENTRY */
        TU_EQ(c.qpn, h.qp[1]);
    }
    r = expect_rec(&bpos, 1, 11, "RQWQEManager", "ExecutionEngine", NULL);
    if (r) {
        struct ibw_rwm_resp c;
        ibw_rwm_resp_unpack(r->words, &c);
        TU_EQ(c.code, 0);
        TU_EQ(c.length, 100);
        TU_EQ(c.va, h.buf[1]);
    }
    r = expect_rec(&bpos, 1, 20, "ExecutionEngine", "RespPktGen", NULL);
    if (r) {
        struct ibw_resp_gen_meta m;
        ibw_resp_gen_meta_unpack(r->words, &m);
        TU_EQ(m.opcode, 0x11);
        TU_EQ(m.psn, 100);
        TU_EQ(m.msn, 1);
        TU_EQ(m.pmtu, 1); /* IBA enum 1 = 256 */
    }
    r = expect_rec(&pos, 0, 19, "HeaderParser", "RequesterRecvControl", NULL);
    if (r) {
        struct ibw_resp_hdr_meta m;
        ibw_resp_hdr_meta_unpack(r->words, &m);
        TU_EQ(m.opcode, 0x11);
        TU_EQ(m.psn, 100);
        TU_EQ(m.dw3 >> 24, 0x00); /* AETH syndrome: ACK, credit code 0 (the
                                     only receive WQE was just consumed) */
    }
    /* E2 CST view (RD_CQ_CTX 7, CST 2): UnAckedPSN and NextPSN as the
     * context held them before this ACK: 100 and 101 */
    size_t qpos = pos;
    const struct ibe_trace_rec *c2;
    c2 = expect_rec(&qpos, 0, 2, "RequesterRecvControl", "ContextManager", NULL);
    if (c2) {
        TU_EQ(ibw_cxt_cmd_get_type(c2->words), 7);
        TU_EQ(ibw_cxt_cmd_get_opcode(c2->words), 2);
    }
    find(&qpos, 0, 2, "ContextManager", "RequesterRecvControl"); /* resp */
    c2 = expect_rec(&qpos, 0, 2, "ContextManager", "RequesterRecvControl",
                    "cxt_view_cst");
    if (c2) {
        struct ibw_cxt_view_cst v;
        ibw_cxt_view_cst_unpack(c2->words, &v);
        TU_EQ(v.unacked_psn, 100);
        TU_EQ(v.next_psn, 101);
        TU_EQ(v.state, 3);
        TU_EQ(v.remote_qpn, h.qp[1]);
    }
    r = expect_rec(&pos, 0, 5, "RequesterRecvControl", "TimerControl", NULL);
    if (r) {
        struct ibw_timer_set_event t;
        ibw_timer_set_event_unpack(r->words, &t);
        TU_EQ(t.opcode, 0xFF); /* stop: nothing left outstanding */
    }
    /* ... and the context's UnAckedPSN follows: WR_QP_CTX (2) UAPST (2),
     * then cxt_wr_data with PSN 101 (nothing outstanding: = NextPSN) */
    r = find(&pos, 0, 2, "RequesterRecvControl", "ContextManager");
    while (r && ibw_cxt_cmd_get_type(r->words) != 2)
        r = find(&pos, 0, 2, "RequesterRecvControl", "ContextManager");
    TU_CHECK(r != NULL);
    if (r)
        TU_EQ(ibw_cxt_cmd_get_opcode(r->words), 2);
    r = expect_rec(&pos, 0, 2, "RequesterRecvControl", "ContextManager", "cxt_wr_data");
    if (r)
        TU_EQ(ibw_cxt_wr_data_get_psn(r->words), 101);

    /* the Read */
    uint8_t *b = ibe_mem_ptr(h.e[1], h.buf[1], 65536);
    for (int i = 0; i < 600; i++)
        b[1000 + i] = (uint8_t)i;
    size_t start = nT;
    h_post(&h, 0, IBE_WR_RDMA_READ, 4096, 600, 1000, 0);
    h_settle(&h);
    n = h_take(&h, P, 64);
    h_deliver_all(&h, P, n);
    n = h_take(&h, P, 64);
    h_deliver_all(&h, P, n);
    pos = start;
    r = expect_rec(&pos, 0, 15, "WQEParser", "DataPack", NULL);
    if (r) {
        struct ibw_raddr_meta m;
        ibw_raddr_meta_unpack(r->words, &m);
        TU_EQ(m.va, h.buf[1] + 1000);
        TU_EQ(m.rkey, h.rkey[1]);
    }
    r = expect_rec(&pos, 0, 21, "RequesterTransControl", "MultiQueue", NULL);
    if (r) {
        struct ibw_rpb_list_entry m;
        ibw_rpb_list_entry_unpack(r->words, &m);
        TU_EQ(m.empty, 0);
    }
    r = expect_rec(&pos, 0, 18, "RequesterTransControl", "ReqPktGen", NULL);
    if (r) {
        struct ibw_req_hdr_meta m;
        ibw_req_hdr_meta_unpack(r->words, &m);
        TU_EQ(m.opcode, 0x0C);
        TU_EQ(m.psn, 101);
        /* RETH in dwords 3..6: VA high, VA low, R_Key, DMA length */
        TU_EQ(m.dw3, (uint32_t)((h.buf[1] + 1000) >> 32));
        TU_EQ(m.dw4, (uint32_t)(h.buf[1] + 1000));
        TU_EQ(m.dw5, h.rkey[1]);
        TU_EQ(m.dw6, 600);
    }
    bpos = start;
    r = expect_rec(&bpos, 1, 3, "ExecutionEngine", "AddressTranslation", NULL);
    if (r) {
        struct ibw_vtp_cmd c;
        ibw_vtp_cmd_unpack(r->words, &c);
        TU_EQ(c.key, h.rkey[1]);
        TU_EQ(c.length, 600);
        TU_EQ(c.flags, 4); /* R_READ */
    }
    r = expect_rec(&bpos, 1, 4, "AddressTranslation", "ExecutionEngine", NULL);
    if (r)
        TU_EQ(ibw_vtp_resp_get_state(r->words), 0);
    for (unsigned k = 0; k < 3; k++) {
        r = expect_rec(&pos, 0, 19, "HeaderParser", "RequesterRecvControl", NULL);
        if (r) {
            TU_EQ(ibw_resp_hdr_meta_get_opcode(r->words), 0x0D + k);
            TU_EQ(ibw_resp_hdr_meta_get_psn(r->words), 101 + k);
        }
        r = expect_rec(&pos, 0, 8, "RequesterRecvControl", "ScatterEntryManager", NULL);
        if (r)
            TU_EQ(ibw_sem_cmd_get_op(r->words), 0); /* FETCH */
        r = expect_rec(&pos, 0, 9, "ScatterEntryManager", "RequesterRecvControl", NULL);
        if (r) {
            struct ibw_sem_resp s;
            ibw_sem_resp_unpack(r->words, &s);
            TU_EQ(s.code, 0);
            TU_EQ(s.va, h.buf[0] + 4096 + 256u * k); /* UPDATE moved it on */
            TU_EQ(s.length, 600 - 256u * k);
        }
        r = expect_rec(&pos, 0, 8, "RequesterRecvControl", "ScatterEntryManager", NULL);
        if (r)
            TU_EQ(ibw_sem_cmd_get_op(r->words), k < 2 ? 1 : 2); /* UPDATE, RELEASE */
        /* UPDATE and RELEASE are answered too (the very next record): 0x00 */
        size_t at = pos;
        r = expect_rec(&pos, 0, 9, "ScatterEntryManager", "RequesterRecvControl", NULL);
        TU_EQ(pos, at + 1);
        if (r)
            TU_EQ(ibw_sem_resp_get_code(r->words), 0);
    }
    /* the DMA engine (HanGu DMA engine design v1.5): a 600-byte gather from a
     * 4 KB-aligned buffer is cut at 256-byte boundaries into three tagged
     * requests */
    start = nT;
    h_post_recv(&h, 1, 8192, 1000);
    h_post(&h, 0, IBE_WR_SEND, 0, 600, 0, 0);
    h_settle(&h);
    pos = start;
    for (unsigned k = 0; k < 3; k++) {
        r = expect_rec(&pos, 0, 26, "DataPack", "DMAEngine", NULL);
        if (r) {
            struct ibw_dma_head d;
            ibw_dma_head_unpack(r->words, &d);
            TU_EQ(d.length, k < 2 ? 256u : 88u);
            TU_EQ(d.addr, h.buf[0] + 256u * k);
            TU_EQ(d.chnl_num, k); /* tag */
        }
    }
    /* E21: the SWPB list-table entry after each of the three packets is
     * buffered.  The free FIFO hands out 0, 1, 2, ... and takes freed
     * elements back at its tail; the first Send's element 0 came back, so
     * these are elements 1, 2, 3: head [11:0] = 1, tail [23:12] = 1, 2, 3,
     * empty [24] = 0 -> 0x1001, 0x2001, 0x3001. */
    pos = start;
    for (unsigned k = 0; k < 3; k++) {
        r = expect_rec(&pos, 0, 21, "RequesterTransControl", "MultiQueue", NULL);
        if (r) {
            TU_CHECK(!strcmp(r->rec, "swpb_list_entry"));
            TU_EQ(r->words[0], 0x1001u + 0x1000u * k);
        }
    }
    n = h_take(&h, P, 64);
    h_deliver_all(&h, P, n);
    n = h_take(&h, P, 64);
    h_deliver_all(&h, P, n);
    struct ibe_wc wc[4];
    TU_EQ(h_poll(&h, 0, wc, 4), 3);
    TU_MEMEQ(ibe_mem_ptr(h.e[0], h.buf[0] + 4096, 600), b + 1000, 600);
    TU_CHECK(ibe_engine_stats(h.e[0])->records > 40);

    /* E10/E11 entry by entry: a receive WQE of two entries (300 bytes at
     * B+20000, 400 at B+30000) takes a 600-byte Send (256 + 256 + 88).
     * Packet 1: FETCH_ENTRY (-> entry 1), 256 written, UPDATE_ENTRY with
     * the 44 left at +256; packet 2: 44 written, RELEASE_ENTRY,
     * FETCH_ENTRY (-> entry 2), 212 written, UPDATE_ENTRY (188 left);
     * packet 3: 88 written, UPDATE_ENTRY (100 left), RELEASE_WQE.  Ops:
     * FETCH 0, UPDATE 1, RELEASE_ENTRY 2, RELEASE_WQE 3. */
    struct ibe_recv_wr rw;
    memset(&rw, 0, sizeof rw);
    rw.num_sge = 2;
    rw.sg[0].addr = h.buf[1] + 20000;
    rw.sg[0].length = 300;
    rw.sg[0].lkey = h.lkey[1];
    rw.sg[1].addr = h.buf[1] + 30000;
    rw.sg[1].length = 400;
    rw.sg[1].lkey = h.lkey[1];
    TU_EQ(ibe_post_recv(h.e[1], h.qp[1], &rw), 0);
    uint8_t *a = ibe_mem_ptr(h.e[0], h.buf[0], 600);
    for (int i = 0; i < 600; i++)
        a[i] = (uint8_t)(i * 7 + 1);
    start = nT;
    h_post(&h, 0, IBE_WR_SEND, 0, 600, 0, 0);
    h_settle(&h);
    n = h_take(&h, P, 64);
    TU_EQ(n, 3);
    h_deliver_all(&h, P, n);
    static const unsigned ops[] = {0, 1, 2, 0, 1, 1, 3};
    pos = start;
    for (unsigned k = 0; k < sizeof ops / sizeof ops[0]; k++) {
        r = expect_rec(&pos, 1, 10, "ExecutionEngine", "RQWQEManager", NULL);
        if (!r)
            break;
        TU_EQ(ibw_rwm_cmd_get_op(r->words), ops[k]);
        if (k == 1) {
            TU_EQ(ibw_rwm_cmd_update_get_length(r->words), 44);
            TU_EQ(ibw_rwm_cmd_update_get_va(r->words), h.buf[1] + 20256);
        }
        if (k == 5)
            TU_EQ(ibw_rwm_cmd_update_get_length(r->words), 100);
        const struct ibe_trace_rec *a11 = expect_rec(&pos, 1, 11, "RQWQEManager",
                                               "ExecutionEngine", NULL);
        if (a11 && k == 3) {
            struct ibw_rwm_resp c;
            ibw_rwm_resp_unpack(a11->words, &c);
            TU_EQ(c.code, 0);
            TU_EQ(c.length, 400);
            TU_EQ(c.va, h.buf[1] + 30000);
        }
    }
    uint8_t *rb = ibe_mem_ptr(h.e[1], h.buf[1], 65536);
    TU_MEMEQ(rb + 20000, a, 300);
    TU_MEMEQ(rb + 30000, a + 300, 300);
    h_free(&h);
    return tu_done("engine_trace");
}
