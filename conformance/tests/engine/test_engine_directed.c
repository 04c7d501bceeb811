/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Directed tests of the reference engine: one per case of the HanGu RDMA
 * engine design §3.4.5.1.2 (ACK), §3.4.5.1.3 (NAK), read-response handling,
 * timers, bad requests, WQEParser checks, responder PSN regions, and the
 * UniVista RoCEv2 notes' outstanding limit and CNP.  Every expectation is
 * written out from the documents and IBA tables: PSNs start at 100 (A) with
 * PMTU 256, so a 600-byte message is 256 + 256 + 88 bytes on PSNs 100, 101,
 * 102.  Opcodes (IBA table 35): 0x00 SEND FIRST, 0x01 MIDDLE, 0x02 LAST, 0x04
 * SEND ONLY, 0x05 SEND ONLY IMM, 0x0A WRITE ONLY, 0x0C READ REQUEST,
 * 0x0D/0x0E/0x0F/0x10 READ RESPONSE FIRST/MIDDLE/LAST/ONLY, 0x11 ACK,
 * 0x12 ATOMIC ACK, 0x14 FETCH ADD, 0x64 UD SEND ONLY, 0x81 CNP.
 * AETH syndromes (IBA table 44): ACK 0b000ccccc, RNR NAK 0b001ttttt,
 * NAK 0b011nnnnn with n = 0 PSN sequence, 1 invalid request, 2 remote
 * access, 3 remote operational.
 */
#include "harness.h"

static struct h_pkt P[256], R[256];

#define expect_pkt(p, op, psn_) \
    do {                         \
        TU_EQ((p)->opcode, op);  \
        TU_EQ((p)->psn, psn_);   \
    } while (0)

static void test_segmentation_and_psn(void)
{
    struct harness h;
    h_init(&h, IBE_RC, 7, 7);
    for (int i = 0; i < 4; i++)
        h_post_recv(&h, 1, 4096u * (uint32_t)i, 4096);
    uint8_t *a = ibe_mem_ptr(h.e[0], h.buf[0], 65536);
    for (int i = 0; i < 4096; i++)
        a[i] = (uint8_t)(i * 7);
    h_post(&h, 0, IBE_WR_SEND, 0, 600, 0, 0);
    h_post(&h, 0, IBE_WR_RDMA_WRITE, 0, 256, 20000, 0);
    h_post(&h, 0, IBE_WR_RDMA_WRITE, 0, 0, 20000, 0);
    h_post(&h, 0, IBE_WR_RDMA_READ, 30000, 600, 0, 0);
    h_post(&h, 0, IBE_WR_SEND, 0, 10, 0, 0);
    h_settle(&h);
    size_t n = h_take(&h, P, 256);
    TU_EQ(n, 7);
    expect_pkt(&P[0], 0x00, 100);
    expect_pkt(&P[1], 0x01, 101);
    expect_pkt(&P[2], 0x02, 102);
    TU_EQ(P[0].paylen, 256);
    TU_EQ(P[2].paylen, 88);
    for (int i = 0; i < 7; i++)
        TU_EQ(P[i].ackreq, 1); /* every RC request packet asks for an ACK */
    expect_pkt(&P[3], 0x0A, 103);
    TU_EQ(P[3].dmalen, 256);
    expect_pkt(&P[4], 0x0A, 104);
    TU_EQ(P[4].paylen, 0);
    expect_pkt(&P[5], 0x0C, 105);
    TU_EQ(P[5].dmalen, 600);
    expect_pkt(&P[6], 0x04, 108); /* the read took ceil(600/256) = 3 PSNs */
    h_deliver_all(&h, P, n);
    n = h_take(&h, R, 256);
    TU_EQ(n, 9);
    /* ACK per packet; MSN counts finished messages; credits = free RQ WQEs
     * (4 posted: code 4 = 4 credits until the Send completes, then 3) */
    expect_pkt(&R[0], 0x11, 100); TU_EQ(R[0].syndrome, AETH_ACK(4)); TU_EQ(R[0].msn, 0);
    expect_pkt(&R[1], 0x11, 101); TU_EQ(R[1].msn, 0);
    expect_pkt(&R[2], 0x11, 102); TU_EQ(R[2].syndrome, AETH_ACK(3)); TU_EQ(R[2].msn, 1);
    expect_pkt(&R[3], 0x11, 103); TU_EQ(R[3].msn, 2);
    expect_pkt(&R[4], 0x11, 104); TU_EQ(R[4].msn, 3);
    expect_pkt(&R[5], 0x0D, 105); TU_EQ(R[5].msn, 4);
    expect_pkt(&R[6], 0x0E, 106);
    expect_pkt(&R[7], 0x0F, 107); TU_EQ(R[7].paylen, 88);
    expect_pkt(&R[8], 0x11, 108); TU_EQ(R[8].msn, 5);
    h_deliver_all(&h, R, n);
    struct ibe_wc wc[8];
    TU_EQ(h_poll(&h, 0, wc, 8), 5);
    const uint32_t lens[5] = {600, 256, 0, 600, 10};
    for (int i = 0; i < 5; i++) {
        TU_EQ(wc[i].status, IBE_WC_SUCCESS);
        TU_EQ(wc[i].byte_len, lens[i]);
    }
    TU_EQ(wc[3].opcode, IBE_WR_RDMA_READ);
    TU_EQ(h_poll(&h, 1, wc, 8), 2);
    TU_EQ(wc[0].byte_len, 600);
    TU_EQ(wc[1].byte_len, 10);
    const uint8_t *b = ibe_mem_ptr(h.e[1], h.buf[1], 65536);
    TU_MEMEQ(b, a, 600);          /* the Send, in the first receive buffer */
    TU_MEMEQ(b + 20000, a, 256);  /* the Write */
    TU_MEMEQ(a + 30000, b, 600);  /* the Read brought B's bytes back */
    h_free(&h);
}

static void test_ack_cases(void)
{
    struct harness h;
    h_init(&h, IBE_RC, 7, 7);
    for (int i = 0; i < 3; i++) {
        h_post_recv(&h, 1, 100u * (uint32_t)i, 100);
        h_post(&h, 0, IBE_WR_SEND, 0, 10, 0, 0);
    }
    h_settle(&h);
    size_t n = h_take(&h, P, 256);
    TU_EQ(n, 3);
    h_deliver_all(&h, P, n);
    TU_EQ(h_take(&h, R, 256), 3);
    struct ibe_wc wc[8];
    /* RPSN == UPSN: exactly the first request is released */
    h_deliver(&h, &R[0]);
    TU_EQ(h_poll(&h, 0, wc, 8), 1);
    /* RPSN < UPSN: a duplicate ACK changes nothing */
    h_deliver(&h, &R[0]);
    TU_EQ(h_poll(&h, 0, wc, 8), 0);
    TU_EQ(h.nq, 0);
    /* RPSN > UPSN, no read: coalesced, 101 and 102 both go */
    h_deliver(&h, &R[2]);
    TU_EQ(h_poll(&h, 0, wc, 8), 2);
    TU_EQ(h.nq, 0);
    h_free(&h);
}

static void test_ack_with_lost_read_response(void)
{
    struct harness h;
    h_init(&h, IBE_RC, 7, 7);
    uint8_t *b = ibe_mem_ptr(h.e[1], h.buf[1], 65536);
    for (int i = 0; i < 64; i++)
        b[1000 + i] = (uint8_t)(0xA0 + i);
    h_post(&h, 0, IBE_WR_RDMA_WRITE, 0, 10, 0, 0);
    h_post(&h, 0, IBE_WR_RDMA_READ, 2000, 10, 1000, 0);
    h_post(&h, 0, IBE_WR_RDMA_WRITE, 0, 10, 100, 0);
    h_settle(&h);
    size_t n = h_take(&h, P, 256);
    TU_EQ(n, 3);
    h_deliver_all(&h, P, n);
    TU_EQ(h_take(&h, R, 256), 3);
    expect_pkt(&R[1], 0x10, 101);
    h_deliver(&h, &R[0]);
    /* the read response R[1] is lost; the ACK of 102 shows it */
    h_deliver(&h, &R[2]);
    struct ibe_wc wc[8];
    TU_EQ(h_poll(&h, 0, wc, 8), 1); /* only the first Write */
    n = h_take(&h, P, 256);
    TU_EQ(n, 2); /* RdPSN .. NPSN again */
    expect_pkt(&P[0], 0x0C, 101);
    expect_pkt(&P[1], 0x0A, 102);
    h_deliver_all(&h, P, n);
    n = h_take(&h, R, 256);
    TU_EQ(n, 2);
    expect_pkt(&R[0], 0x10, 101); /* the duplicate read is executed again */
    expect_pkt(&R[1], 0x11, 102); /* the duplicate write re-ACKed with ePSN-1 */
    h_deliver_all(&h, R, n);
    TU_EQ(h_poll(&h, 0, wc, 8), 2);
    TU_EQ(wc[0].opcode, IBE_WR_RDMA_READ);
    TU_EQ(wc[0].status, IBE_WC_SUCCESS);
    TU_MEMEQ(ibe_mem_ptr(h.e[0], h.buf[0] + 2000, 10), b + 1000, 10);
    h_free(&h);
}

static void test_nak_psn_sequence(void)
{
    struct harness h;
    h_init(&h, IBE_RC, 7, 7);
    for (int i = 0; i < 3; i++) {
        h_post_recv(&h, 1, 100u * (uint32_t)i, 100);
        h_post(&h, 0, IBE_WR_SEND, 0, 10, 0, 0);
    }
    h_settle(&h);
    TU_EQ(h_take(&h, P, 256), 3);
    h_deliver(&h, &P[1]); /* 100 lost */
    h_deliver(&h, &P[2]);
    size_t n = h_take(&h, R, 256);
    TU_EQ(n, 1); /* one NAK for the gap, carrying ePSN */
    expect_pkt(&R[0], 0x11, 100);
    TU_EQ(R[0].syndrome, AETH_NAK(0));
    h_deliver(&h, &R[0]);
    n = h_take(&h, P, 256);
    TU_EQ(n, 3); /* Go-Back-N from RPSN to NPSN */
    expect_pkt(&P[0], 0x04, 100);
    expect_pkt(&P[2], 0x04, 102);
    h_deliver_all(&h, P, n);
    n = h_take(&h, R, 256);
    TU_EQ(n, 3);
    h_deliver_all(&h, R, n);
    struct ibe_wc wc[8];
    TU_EQ(h_poll(&h, 0, wc, 8), 3);
    TU_EQ(h_poll(&h, 1, wc, 8), 3);
    TU_EQ(ibe_engine_stats(h.e[0])->seq_naks_rx, 1);
    h_free(&h);
}

static void test_rnr(void)
{
    struct harness h;
    h_init(&h, IBE_RC, 7, 1);
    h_post(&h, 0, IBE_WR_SEND, 0, 10, 0, 0);
    h_settle(&h);
    TU_EQ(h_take(&h, P, 256), 1);
    h_deliver(&h, &P[0]); /* no receive WQE at B */
    TU_EQ(h_take(&h, R, 256), 1);
    expect_pkt(&R[0], 0x11, 100);
    TU_EQ(R[0].syndrome, AETH_RNR(3)); /* min RNR timer code 3 = 30 us */
    uint64_t t0 = ibe_now(h.w);
    h_deliver(&h, &R[0]);
    ibe_world_run_until(h.w, t0 + 29000);
    TU_EQ(h.nq, 0); /* nothing before the RNR timer */
    ibe_world_run_until(h.w, t0 + 31000);
    TU_EQ(h_take(&h, P, 256), 1);
    expect_pkt(&P[0], 0x04, 100);
    h_post_recv(&h, 1, 0, 100);
    h_deliver(&h, &P[0]);
    TU_EQ(h_take(&h, R, 256), 1);
    TU_EQ(R[0].syndrome & 0x60, 0x00);
    h_deliver(&h, &R[0]);
    struct ibe_wc wc[8];
    TU_EQ(h_poll(&h, 0, wc, 8), 1);
    TU_EQ(wc[0].status, IBE_WC_SUCCESS);

    /* rnr_retry 1: RNR, one retry, RNR again -> RNR retry exceeded */
    h_post(&h, 0, IBE_WR_SEND, 0, 10, 0, 0);
    h_post(&h, 0, IBE_WR_SEND, 0, 10, 0, 0);
    for (int round = 0; round < 2; round++) {
        h_settle(&h);
        size_t n = h_take(&h, P, 256);
        TU_CHECK(n >= 1);
        expect_pkt(&P[0], 0x04, 101);
        h_deliver(&h, &P[0]);
        TU_EQ(h_take(&h, R, 256), 1);
        TU_EQ(R[0].syndrome, AETH_RNR(3));
        h_deliver(&h, &R[0]);
        ibe_world_run_until(h.w, ibe_now(h.w) + 31000);
    }
    TU_EQ(h_poll(&h, 0, wc, 8), 2);
    TU_EQ(wc[0].status, IBE_WC_RNR_RETRY_EXC_ERR);
    TU_EQ(wc[1].status, IBE_WC_WR_FLUSH_ERR);
    TU_EQ(ibe_qp_state(h.e[0], h.qp[0]), IBE_QPS_ERR);
    h_free(&h);
}

static void test_remote_access_nak(void)
{
    struct harness h;
    h_init(&h, IBE_RC, 2, 7);
    struct ibe_send_wr wr = h_wr(&h, 0, IBE_WR_RDMA_WRITE, 0, 10, 0);
    wr.remote_addr = h.buf[1];
    wr.rkey = h.rkey[1] ^ 0x01; /* wrong key tag */
    ibe_post_send(h.e[0], h.qp[0], &wr);
    h_post(&h, 0, IBE_WR_RDMA_WRITE, 0, 10, 0, 0);
    h_settle(&h);
    TU_EQ(h_take(&h, P, 256), 2);
    /* the document's recovery: retransmit; this engine counts those NAKs
     * against retry_cnt (2) and then completes with the NAK's status */
    for (int round = 0; round < 3; round++) {
        h_deliver(&h, &P[0]);
        size_t n = h_take(&h, R, 256);
        TU_CHECK(n >= 1);
        expect_pkt(&R[0], 0x11, 100);
        TU_EQ(R[0].syndrome, AETH_NAK(2));
        h_deliver(&h, &R[0]);
        n = h_take(&h, P, 256);
        TU_EQ(n, round < 2 ? 2u : 0u);
    }
    struct ibe_wc wc[8];
    TU_EQ(h_poll(&h, 0, wc, 8), 2);
    TU_EQ(wc[0].status, IBE_WC_REM_ACCESS_ERR);
    TU_EQ(wc[1].status, IBE_WC_WR_FLUSH_ERR);
    TU_EQ(ibe_qp_state(h.e[0], h.qp[0]), IBE_QPS_ERR);
    TU_EQ(ibe_qp_state(h.e[1], h.qp[1]), IBE_QPS_RTS); /* responder stays */
    h_free(&h);
}

static void test_invalid_request_nak(void)
{
    struct harness h;
    h_init(&h, IBE_RC, 7, 7);
    uint8_t pl[256] = {0};
    /* SEND MIDDLE with no message open at the responder */
    h_inject(&h, 1, 0x01, 100, 0, 0, pl, 256);
    TU_EQ(h_take(&h, R, 256), 1);
    expect_pkt(&R[0], 0x11, 100);
    TU_EQ(R[0].syndrome, AETH_NAK(1));
    /* SEND ONLY longer than the PMTU */
    uint8_t big[300] = {0};
    h_inject(&h, 1, 0x04, 100, 0, 0, big, 300);
    TU_EQ(h_take(&h, R, 256), 1);
    TU_EQ(R[0].syndrome, AETH_NAK(1));
    /* requester side: invalid-request NAKs retried, then the status */
    struct harness g;
    h_init(&g, IBE_RC, 0, 7);
    h_post(&g, 0, IBE_WR_SEND, 0, 10, 0, 0);
    h_settle(&g);
    TU_EQ(h_take(&g, P, 256), 1);
    h_inject(&g, 0, 0x11, 100, AETH_NAK(1), 0, NULL, 0);
    struct ibe_wc wc[4];
    TU_EQ(h_poll(&g, 0, wc, 4), 1);
    TU_EQ(wc[0].status, IBE_WC_REM_INV_REQ_ERR);
    h_free(&g);
    h_free(&h);
}

static void test_remote_operational_nak(void)
{
    struct harness h;
    h_init(&h, IBE_RC, 7, 7);
    h_post_recv(&h, 1, 0, 16); /* too small for the 100-byte Send */
    h_post(&h, 0, IBE_WR_SEND, 0, 100, 0, 0);
    h_post(&h, 0, IBE_WR_SEND, 0, 10, 0, 0);
    h_settle(&h);
    TU_EQ(h_take(&h, P, 256), 2);
    h_deliver(&h, &P[0]);
    TU_EQ(h_take(&h, R, 256), 1);
    expect_pkt(&R[0], 0x11, 100);
    TU_EQ(R[0].syndrome, AETH_NAK(3));
    TU_EQ(ibe_qp_state(h.e[1], h.qp[1]), IBE_QPS_ERR); /* responder -> Error */
    h_deliver(&h, &P[1]); /* dropped by the responder in Error */
    TU_EQ(h.nq, 0);
    h_deliver(&h, &R[0]);
    struct ibe_wc wc[4];
    TU_EQ(h_poll(&h, 0, wc, 4), 2);
    TU_EQ(wc[0].status, IBE_WC_REM_OP_ERR);
    TU_EQ(wc[1].status, IBE_WC_WR_FLUSH_ERR);
    TU_EQ(h.nq, 0); /* no retransmission */
    TU_EQ(ibe_qp_state(h.e[0], h.qp[0]), IBE_QPS_ERR);
    /* the responder's receive: completed in error; one posted now is flushed */
    TU_EQ(h_poll(&h, 1, wc, 4), 1);
    TU_EQ(wc[0].status, IBE_WC_LOC_LEN_ERR);
    h_post_recv(&h, 1, 0, 100);
    TU_EQ(h_poll(&h, 1, wc, 4), 1);
    TU_EQ(wc[0].status, IBE_WC_WR_FLUSH_ERR);
    TU_EQ(wc[0].wr_id, 0x2000u);
    h_free(&h);
}

static void test_read_implicit_release_and_middle_loss(void)
{
    struct harness h;
    h_init(&h, IBE_RC, 7, 7);
    h_post_recv(&h, 1, 0, 100);
    uint8_t *b = ibe_mem_ptr(h.e[1], h.buf[1], 65536);
    for (int i = 0; i < 600; i++)
        b[8192 + i] = (uint8_t)(i * 13 + 1);
    h_post(&h, 0, IBE_WR_SEND, 0, 10, 0, 0);
    h_post(&h, 0, IBE_WR_RDMA_READ, 4096, 600, 8192, 0);
    h_settle(&h);
    size_t n = h_take(&h, P, 256);
    TU_EQ(n, 2);
    h_deliver_all(&h, P, n);
    n = h_take(&h, R, 256);
    TU_EQ(n, 4); /* ACK 100, read First 101, Middle 102, Last 103 */
    expect_pkt(&R[1], 0x0D, 101);
    expect_pkt(&R[2], 0x0E, 102);
    expect_pkt(&R[3], 0x0F, 103);
    /* the ACK is lost: the read's First releases the Send implicitly */
    h_deliver(&h, &R[1]);
    struct ibe_wc wc[4];
    TU_EQ(h_poll(&h, 0, wc, 4), 1);
    TU_EQ(wc[0].opcode, IBE_WR_SEND);
    /* the Middle is lost: the Last shows it; the read goes again from
     * PSN 102 for the remaining 344 bytes */
    h_deliver(&h, &R[3]);
    n = h_take(&h, P, 256);
    TU_EQ(n, 1);
    expect_pkt(&P[0], 0x0C, 102);
    TU_EQ(P[0].va, h.buf[1] + 8192 + 256);
    TU_EQ(P[0].dmalen, 344);
    h_deliver(&h, &P[0]);
    n = h_take(&h, R, 256);
    TU_EQ(n, 2);
    expect_pkt(&R[0], 0x0D, 102);
    expect_pkt(&R[1], 0x0F, 103);
    h_deliver_all(&h, R, n);
    TU_EQ(h_poll(&h, 0, wc, 4), 1);
    TU_EQ(wc[0].status, IBE_WC_SUCCESS);
    TU_EQ(wc[0].byte_len, 600);
    TU_MEMEQ(ibe_mem_ptr(h.e[0], h.buf[0] + 4096, 600), b + 8192, 600);
    h_free(&h);
}

static void test_loss_timer_and_retry_exceeded(void)
{
    struct harness h;
    h_init(&h, IBE_RC, 2, 7);
    h_post(&h, 0, IBE_WR_SEND, 0, 10, 0, 0);
    h_post(&h, 0, IBE_WR_RDMA_WRITE, 0, 10, 0, 0);
    h_settle(&h);
    size_t copies = 0, n;
    uint64_t t_first = ibe_now(h.w), t_retx = 0;
    while (ibe_world_step(h.w))
        ;
    n = h_take(&h, P, 256);
    for (size_t i = 0; i < n; i++)
        if (P[i].psn == 100)
            copies++;
    (void)t_first;
    (void)t_retx;
    /* 2 original packets + 2 retries of both (Go-Back-N from UPSN) */
    TU_EQ(copies, 3);
    TU_EQ(n, 6);
    struct ibe_wc wc[4];
    TU_EQ(h_poll(&h, 0, wc, 4), 2);
    TU_EQ(wc[0].status, IBE_WC_RETRY_EXC_ERR);
    TU_EQ(wc[1].status, IBE_WC_WR_FLUSH_ERR);
    TU_EQ(ibe_qp_state(h.e[0], h.qp[0]), IBE_QPS_ERR);
    /* timeout code 8: 4.096 us << 8 = 1048.576 us per try, 3 tries */
    TU_EQ(ibe_now(h.w) >= 3u * 1048576u, 1);
    /* posting to a QP in Error: flushed, nothing on the wire */
    h_post(&h, 0, IBE_WR_SEND, 0, 10, 0, 0);
    h_settle(&h);
    TU_EQ(h.nq, 0);
    TU_EQ(h_poll(&h, 0, wc, 4), 1);
    TU_EQ(wc[0].status, IBE_WC_WR_FLUSH_ERR);
    h_free(&h);
}

static void test_bad_request_order_and_parser_checks(void)
{
    struct harness h;
    h_init(&h, IBE_RC, 7, 7);
    h_post(&h, 0, IBE_WR_RDMA_WRITE, 0, 10, 0, 0);
    struct ibe_send_wr wr = h_wr(&h, 0, IBE_WR_SEND, 0, 10, 0);
    wr.sg[0].lkey = h.lkey[0] + 0x100; /* no such region */
    ibe_post_send(h.e[0], h.qp[0], &wr);
    h_post(&h, 0, IBE_WR_SEND, 0, 10, 0, 0);
    h_settle(&h);
    size_t n = h_take(&h, P, 256);
    TU_EQ(n, 1); /* only the Write; the bad request waits */
    struct ibe_wc wc[4];
    TU_EQ(h_poll(&h, 0, wc, 4), 0);
    h_deliver(&h, &P[0]);
    TU_EQ(h_take(&h, R, 256), 1);
    h_deliver(&h, &R[0]);
    TU_EQ(h_poll(&h, 0, wc, 4), 3);
    TU_EQ(wc[0].status, IBE_WC_SUCCESS);
    TU_EQ(wc[1].status, IBE_WC_LOC_PROT_ERR);
    TU_EQ(wc[2].status, IBE_WC_WR_FLUSH_ERR);
    TU_EQ(ibe_qp_state(h.e[0], h.qp[0]), IBE_QPS_ERR);
    h_free(&h);

    /* operation not allowed for the service type: a Read on UC */
    h_init(&h, IBE_UC, 7, 7);
    h_post(&h, 0, IBE_WR_RDMA_READ, 0, 10, 0, 0);
    h_settle(&h);
    TU_EQ(h.nq, 0);
    TU_EQ(h_poll(&h, 0, wc, 4), 1);
    TU_EQ(wc[0].status, IBE_WC_LOC_QP_OP_ERR);
    /* length: an atomic to a misaligned address */
    h_free(&h);
    h_init(&h, IBE_RC, 7, 7);
    h_post(&h, 0, IBE_WR_ATOMIC_FA, 0, 8, 4, 0);
    h_settle(&h);
    TU_EQ(h.nq, 0);
    TU_EQ(h_poll(&h, 0, wc, 4), 1);
    TU_EQ(wc[0].status, IBE_WC_LOC_LEN_ERR);
    h_free(&h);
    /* QP state: a QP not in RTS flushes what is posted */
    h_init(&h, IBE_RC, 7, 7);
    ibe_qp_set_state(h.e[0], h.qp[0], IBE_QPS_INIT);
    h_post(&h, 0, IBE_WR_SEND, 0, 10, 0, 0);
    h_settle(&h);
    TU_EQ(h.nq, 0);
    TU_EQ(h_poll(&h, 0, wc, 4), 1);
    TU_EQ(wc[0].status, IBE_WC_WR_FLUSH_ERR);
    h_free(&h);
}

static void test_responder_duplicates_and_atomics(void)
{
    struct harness h;
    h_init(&h, IBE_RC, 7, 7);
    h_post_recv(&h, 1, 0, 100);
    h_post_recv(&h, 1, 100, 100);
    uint8_t *b = ibe_mem_ptr(h.e[1], h.buf[1], 65536);
    memset(b + 4096, 0, 8);
    b[4096] = 7; /* the 64-bit value 7, little-endian host order */
    h_post(&h, 0, IBE_WR_SEND, 0, 10, 0, 0);
    struct ibe_send_wr wr = h_wr(&h, 0, IBE_WR_ATOMIC_FA, 512, 8, 0);
    wr.remote_addr = h.buf[1] + 4096;
    wr.rkey = h.rkey[1];
    wr.compare_add = 5;
    ibe_post_send(h.e[0], h.qp[0], &wr);
    h_settle(&h);
    size_t n = h_take(&h, P, 256);
    TU_EQ(n, 2);
    expect_pkt(&P[1], 0x14, 101);
    h_deliver_all(&h, P, n);
    n = h_take(&h, R, 256);
    TU_EQ(n, 2);
    expect_pkt(&R[1], 0x12, 101);
    TU_EQ(R[1].orig, 7);
    TU_EQ(b[4096], 12);
    /* the same two requests again: duplicates */
    h_deliver_all(&h, P, 2);
    n = h_take(&h, R + 2, 254);
    TU_EQ(n, 2);
    expect_pkt(&R[2], 0x11, 101); /* duplicate Send: ACK with ePSN - 1 = 102 - 1 */
    expect_pkt(&R[3], 0x12, 101); /* atomic answered from the saved value */
    TU_EQ(R[3].orig, 7);
    TU_EQ(b[4096], 12); /* executed once */
    struct ibe_wc wc[4];
    TU_EQ(h_poll(&h, 1, wc, 4), 1); /* delivered once */
    h_deliver_all(&h, R, 4);
    TU_EQ(h_poll(&h, 0, wc, 4), 2);
    TU_EQ(wc[1].status, IBE_WC_SUCCESS);
    TU_EQ(ibe_mem_ptr(h.e[0], h.buf[0] + 512, 8)[0], 7);
    TU_EQ(ibe_engine_stats(h.e[1])->dup_requests, 2);
    h_free(&h);
}

static void test_outstanding_limit_and_cnp(void)
{
    struct harness h;
    h_init(&h, IBE_RC, 7, 7);
    for (int i = 0; i < 16; i++)
        h_post_recv(&h, 1, 100u * (uint32_t)i, 100);
    for (int i = 0; i < 20; i++)
        h_post(&h, 0, IBE_WR_SEND, 0, 10, 0, 0);
    h_settle(&h);
    size_t n = h_take(&h, P, 256);
    TU_EQ(n, 16); /* OSQ_PER_QP = 16 */
    TU_EQ(ibe_qp_outstanding_limit(h.e[0], h.qp[0]), 16);
    h_inject(&h, 0, 0x81, 0, 0, 0, NULL, 0); /* CNP */
    TU_EQ(ibe_qp_outstanding_limit(h.e[0], h.qp[0]), 8);
    TU_EQ(ibe_engine_stats(h.e[0])->cnp_rx, 1);
    h_deliver_all(&h, P, n);
    n = h_take(&h, R, 256);
    TU_EQ(n, 16);
    h_deliver_all(&h, R, n);
    n = h_take(&h, P, 256);
    TU_EQ(n, 4); /* the last four go (4 < 8) */
    ibe_world_run_until(h.w, ibe_now(h.w) + 250000);
    TU_EQ(ibe_qp_outstanding_limit(h.e[0], h.qp[0]), 16); /* restored */
    h_free(&h);
}

static void test_solicited_fence_icrc_state(void)
{
    struct harness h;
    h_init(&h, IBE_RC, 7, 7);
    h_post_recv(&h, 1, 0, 100);
    h_post_recv(&h, 1, 100, 100);
    ibe_cq_arm(h.e[1], h.cq[1], 1);
    h_post(&h, 0, IBE_WR_SEND, 0, 10, 0, 0);
    h_post(&h, 0, IBE_WR_SEND_IMM, 0, 10, 0, IBE_SEND_SOLICITED);
    h_settle(&h);
    size_t n = h_take(&h, P, 256);
    TU_EQ(n, 2);
    TU_EQ(P[0].se, 0);
    expect_pkt(&P[1], 0x05, 101);
    TU_EQ(P[1].se, 1);
    h_deliver(&h, &P[0]);
    TU_EQ(ibe_cq_events(h.e[1], h.cq[1]), 0); /* not solicited: no event */
    h_deliver(&h, &P[1]);
    TU_EQ(ibe_cq_events(h.e[1], h.cq[1]), 1);
    struct ibe_wc wc[4];
    TU_EQ(h_poll(&h, 1, wc, 4), 2);
    TU_EQ(wc[1].has_imm, 1);
    TU_EQ(wc[1].imm, 0xABCD0000u);
    h_take(&h, R, 256);

    /* a corrupted packet fails its ICRC and is dropped without an answer */
    h_post_recv(&h, 1, 200, 100);
    h_post(&h, 0, IBE_WR_SEND, 0, 10, 0, 0);
    h_settle(&h);
    TU_EQ(h_take(&h, P, 256), 1);
    P[0].b[P[0].len - 8] ^= 0x10; /* a payload byte */
    h_deliver(&h, &P[0]);
    TU_EQ(h.nq, 0);
    TU_EQ(ibe_engine_stats(h.e[1])->icrc_drops, 1);
    h_free(&h);

    /* fence: the Write waits for the Read before it */
    h_init(&h, IBE_RC, 7, 7);
    h_post(&h, 0, IBE_WR_RDMA_READ, 1000, 10, 0, 0);
    h_post(&h, 0, IBE_WR_RDMA_WRITE, 0, 10, 0, IBE_SEND_FENCE);
    h_settle(&h);
    n = h_take(&h, P, 256);
    TU_EQ(n, 1);
    expect_pkt(&P[0], 0x0C, 100);
    h_deliver(&h, &P[0]);
    TU_EQ(h_take(&h, R, 256), 1);
    h_deliver(&h, &R[0]);
    n = h_take(&h, P, 256);
    TU_EQ(n, 1);
    expect_pkt(&P[0], 0x0A, 101);
    h_free(&h);

    /* a responder not in RTR/RTS drops requests silently */
    h_init(&h, IBE_RC, 7, 7);
    ibe_qp_set_state(h.e[1], h.qp[1], IBE_QPS_INIT);
    h_post(&h, 0, IBE_WR_RDMA_WRITE, 0, 10, 0, 0);
    h_settle(&h);
    TU_EQ(h_take(&h, P, 256), 1);
    h_deliver(&h, &P[0]);
    TU_EQ(h.nq, 0);
    h_free(&h);
}

static void test_psn_wrap(void)
{
    /* PSNs are 24 bits: a 3-packet Send from 0xFFFFFF uses 0xFFFFFF, 0, 1;
     * a Read after it starts at 2. */
    struct harness h;
    h_init(&h, IBE_RC, 7, 7);
    for (int i = 0; i < 2; i++) {
        struct ibe_qp_conn c = {h.qp[1 - i], 0xFFFFFFu, 0xFFFFFFu, PMTU, 7, 7, 8, 3, 16};
        ibe_qp_connect(h.e[i], h.qp[i], &c);
    }
    h_post_recv(&h, 1, 0, 1000);
    h_post(&h, 0, IBE_WR_SEND, 0, 600, 0, 0);
    h_post(&h, 0, IBE_WR_RDMA_READ, 2000, 300, 0, 0);
    h_settle(&h);
    size_t n = h_take(&h, P, 256);
    TU_EQ(n, 4);
    expect_pkt(&P[0], 0x00, 0xFFFFFFu);
    expect_pkt(&P[1], 0x01, 0);
    expect_pkt(&P[2], 0x02, 1);
    expect_pkt(&P[3], 0x0C, 2);
    h_deliver(&h, &P[1]); /* 0xFFFFFF lost: 0 is ahead of ePSN across the wrap */
    TU_EQ(h_take(&h, R, 256), 1);
    expect_pkt(&R[0], 0x11, 0xFFFFFFu);
    TU_EQ(R[0].syndrome, AETH_NAK(0));
    h_deliver(&h, &R[0]);
    n = h_take(&h, P, 256);
    TU_EQ(n, 4);
    h_deliver_all(&h, P, n);
    n = h_take(&h, R, 256);
    TU_EQ(n, 5); /* 3 ACKs, 2 read responses on PSNs 2 and 3 */
    expect_pkt(&R[3], 0x0D, 2);
    expect_pkt(&R[4], 0x0F, 3);
    h_deliver_all(&h, R, n);
    struct ibe_wc wc[4];
    TU_EQ(h_poll(&h, 0, wc, 4), 2);
    TU_EQ(wc[1].status, IBE_WC_SUCCESS);
    h_free(&h);
}

static void test_send_with_invalidate(void)
{
    /* The responder side alone, from a crafted packet (IBA 0x17 SEND ONLY
     * WITH INVALIDATE, IETH = the R_Key): the message is received and the
     * region the R_Key names is gone afterwards. */
    struct harness h;
    h_init(&h, IBE_RC, 7, 7);
    h_post_recv(&h, 1, 0, 100);
    uint8_t pl[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    h_inject_x(&h, 1, 0x17, 100, 0, 0, h.rkey[1], pl, sizeof pl);
    TU_EQ(h_take(&h, R, 256), 1);
    expect_pkt(&R[0], 0x11, 100);
    TU_EQ(R[0].syndrome & 0xE0, 0x00);
    struct ibe_wc wc[4];
    TU_EQ(h_poll(&h, 1, wc, 4), 1);
    TU_EQ(wc[0].byte_len, 10);
    TU_EQ(ibe_mr_dereg(h.e[1], h.rkey[1]), -1); /* already gone */
    h_free(&h);
}

/* A requester-side Send with Invalidate (WQE opcode 0x01, the mlx4
 * extension; IBA table 35: 0x17 SEND ONLY WITH INVALIDATE, 0x00 SEND FIRST
 * + 0x16 SEND LAST WITH INVALIDATE, IETH = the R_Key).  RoCEv2/IPv4 puts the
 * 4-byte IETH right after the BTH: Ethernet 14 + IPv4 20 + UDP 8 + BTH 12 =
 * byte 54, big-endian. */
static void expect_ieth_bytes(const struct h_pkt *p, uint32_t rkey)
{
    TU_EQ(p->b[54], (rkey >> 24) & 0xFF);
    TU_EQ(p->b[55], (rkey >> 16) & 0xFF);
    TU_EQ(p->b[56], (rkey >> 8) & 0xFF);
    TU_EQ(p->b[57], rkey & 0xFF);
    TU_EQ(p->ieth, rkey);
}

static void test_requester_send_with_invalidate(void)
{
    struct harness h;
    h_init(&h, IBE_RC, 2, 7);
    /* a second region on B, the one the sends will invalidate */
    uint32_t lkey2 = 0, rkey2 = 0;
    TU_EQ(ibe_mr_reg(h.e[1], 1, h.buf[1] + 32768, 4096, IBE_ACC_REMOTE_WRITE,
                     &lkey2, &rkey2), 0);
    /* control: before the invalidation a write with rkey2 is ACKed */
    struct ibe_send_wr wr = h_wr(&h, 0, IBE_WR_RDMA_WRITE, 0, 8, IBE_SEND_SIGNALED);
    wr.remote_addr = h.buf[1] + 32768;
    wr.rkey = rkey2;
    TU_EQ(ibe_post_send(h.e[0], h.qp[0], &wr), 0);
    h_settle(&h);
    TU_EQ(h_take(&h, P, 256), 1);
    expect_pkt(&P[0], 0x0A, 100);
    h_deliver(&h, &P[0]);
    TU_EQ(h_take(&h, R, 256), 1);
    TU_EQ(R[0].syndrome, AETH_ACK(R[0].syndrome & 0x1F));
    h_deliver(&h, &R[0]);

    /* SEND ONLY WITH INVALIDATE: 10 bytes, PSN 101, IETH = rkey2 */
    h_post_recv(&h, 1, 0, 100);
    h_post_recv(&h, 1, 1024, 1000);
    struct ibe_send_wr si = wr;
    si.opcode = IBE_WR_SEND_INV;
    si.sg[0].length = 10;
    si.imm = rkey2;
    si.wr_id = 0x51;
    TU_EQ(ibe_post_send(h.e[0], h.qp[0], &si), 0);
    h_settle(&h);
    TU_EQ(h_take(&h, P, 256), 1);
    expect_pkt(&P[0], 0x17, 101);
    TU_EQ(P[0].paylen, 10);
    expect_ieth_bytes(&P[0], rkey2);
    h_deliver(&h, &P[0]);
    TU_EQ(h_take(&h, R, 256), 1);
    expect_pkt(&R[0], 0x11, 101);
    TU_EQ(R[0].syndrome & 0xE0, 0x00);
    h_deliver(&h, &R[0]);
    struct ibe_wc wc[8];
    TU_EQ(h_poll(&h, 0, wc, 8), 2);
    TU_EQ(wc[1].status, IBE_WC_SUCCESS);
    TU_EQ(wc[1].opcode, IBE_WR_SEND_INV);
    TU_EQ(wc[1].wr_id, 0x51);
    TU_EQ(h_poll(&h, 1, wc, 8), 1);
    TU_EQ(wc[0].status, IBE_WC_SUCCESS);
    TU_EQ(wc[0].byte_len, 10);
    /* the region is gone at the responder */
    TU_EQ(ibe_mr_dereg(h.e[1], rkey2), -1);

    /* a later RDMA WRITE with that R_Key: NAK remote access (PSN 102) */
    TU_EQ(ibe_post_send(h.e[0], h.qp[0], &wr), 0);
    h_settle(&h);
    TU_EQ(h_take(&h, P, 256), 1);
    expect_pkt(&P[0], 0x0A, 102);
    h_deliver(&h, &P[0]);
    TU_EQ(h_take(&h, R, 256), 1);
    expect_pkt(&R[0], 0x11, 102);
    TU_EQ(R[0].syndrome, AETH_NAK(2));
    h_free(&h);

    /* two packets: 400 bytes = SEND FIRST (256, no IETH) + SEND LAST WITH
     * INVALIDATE (144, IETH) on PSNs 100, 101; the R_Key is B's main one */
    h_init(&h, IBE_RC, 2, 7);
    h_post_recv(&h, 1, 0, 1000);
    si = h_wr(&h, 0, IBE_WR_SEND_INV, 0, 400, IBE_SEND_SIGNALED);
    si.imm = h.rkey[1];
    TU_EQ(ibe_post_send(h.e[0], h.qp[0], &si), 0);
    h_settle(&h);
    TU_EQ(h_take(&h, P, 256), 2);
    expect_pkt(&P[0], 0x00, 100);
    TU_EQ(P[0].paylen, 256);
    TU_EQ(P[0].ieth, 0);
    expect_pkt(&P[1], 0x16, 101);
    TU_EQ(P[1].paylen, 144);
    expect_ieth_bytes(&P[1], h.rkey[1]);
    h_deliver(&h, &P[0]);
    TU_EQ(ibe_mr_dereg(h.e[1], h.rkey[1] ^ 0x01), -1); /* still there: */
    h_deliver(&h, &P[1]);                              /* (wrong tag) */
    TU_EQ(h_take(&h, R, 256), 2);
    expect_pkt(&R[1], 0x11, 101);
    TU_EQ(h_poll(&h, 1, wc, 8), 1);
    TU_EQ(wc[0].byte_len, 400);
    TU_EQ(ibe_mr_dereg(h.e[1], h.rkey[1]), -1);
    h_free(&h);

    /* UC has no opcode carrying an IETH: the WQEParser's Unsupported
     * OpCode (IBE_WC_LOC_QP_OP_ERR), nothing on the wire */
    h_init(&h, IBE_UC, 2, 7);
    si.sg[0].lkey = h.lkey[0];
    si.sg[0].addr = h.buf[0];
    si.sg[0].length = 10;
    TU_EQ(ibe_post_send(h.e[0], h.qp[0], &si), 0);
    h_settle(&h);
    TU_EQ(h_take(&h, P, 256), 0);
    TU_EQ(h_poll(&h, 0, wc, 8), 1);
    TU_EQ(wc[0].status, IBE_WC_LOC_QP_OP_ERR);
    h_free(&h);
}

static void test_ud_qkey_and_uc(void)
{
    struct harness h;
    h_init(&h, IBE_UD, 7, 7);
    h_post_recv(&h, 1, 0, 256);
    struct ibe_send_wr wr = h_wr(&h, 0, IBE_WR_SEND, 0, 20, 0);
    wr.remote_qpn = h.qp[1];
    wr.remote_qkey = 0x9999; /* wrong Q_Key */
    ibe_post_send(h.e[0], h.qp[0], &wr);
    wr.remote_qkey = 0x1234;
    ibe_post_send(h.e[0], h.qp[0], &wr);
    h_settle(&h);
    size_t n = h_take(&h, P, 256);
    TU_EQ(n, 2);
    TU_EQ(P[0].opcode, 0x64);
    h_deliver_all(&h, P, n);
    TU_EQ(h.nq, 0); /* UD is not acknowledged */
    struct ibe_wc wc[4];
    TU_EQ(h_poll(&h, 1, wc, 4), 1); /* only the right Q_Key */
    TU_EQ(wc[0].byte_len, 20);
    TU_EQ(wc[0].src_qp, h.qp[0]);
    TU_EQ(h_poll(&h, 0, wc, 4), 2); /* both complete at the sender */
    h_free(&h);

    /* UC: a lost middle packet drops the whole message, never partial */
    h_init(&h, IBE_UC, 7, 7);
    h_post_recv(&h, 1, 0, 4096);
    h_post_recv(&h, 1, 4096, 4096);
    h_post(&h, 0, IBE_WR_SEND, 0, 600, 0, 0);
    h_post(&h, 0, IBE_WR_SEND, 0, 10, 0, 0);
    h_settle(&h);
    n = h_take(&h, P, 256);
    TU_EQ(n, 4);
    TU_EQ(P[0].opcode, 0x20); /* UC SEND FIRST */
    TU_EQ(P[0].ackreq, 0);
    h_deliver(&h, &P[0]);
    h_deliver(&h, &P[2]);
    h_deliver(&h, &P[3]);
    TU_EQ(h_poll(&h, 1, wc, 4), 1);
    TU_EQ(wc[0].byte_len, 10);
    TU_EQ(wc[0].wr_id, 0x2000u); /* the abandoned message's WQE is reused */
    h_deliver(&h, &P[3]); /* a duplicate is dropped */
    TU_EQ(h_poll(&h, 1, wc, 4), 0);
    h_free(&h);
}

int main(void)
{
    test_segmentation_and_psn();
    test_ack_cases();
    test_ack_with_lost_read_response();
    test_nak_psn_sequence();
    test_rnr();
    test_remote_access_nak();
    test_invalid_request_nak();
    test_remote_operational_nak();
    test_read_implicit_release_and_middle_loss();
    test_loss_timer_and_retry_exceeded();
    test_bad_request_order_and_parser_checks();
    test_responder_duplicates_and_atomics();
    test_outstanding_limit_and_cnp();
    test_solicited_fence_icrc_state();
    test_ud_qkey_and_uc();
    test_send_with_invalidate();
    test_requester_send_with_invalidate();
    test_psn_wrap();
    return tu_done("engine_directed");
}
