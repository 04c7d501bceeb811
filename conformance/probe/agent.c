/* SPDX-License-Identifier: Apache-2.0 */
/*
 * agent.c - ibwire-agent, the device agent: runs on the machine of the
 * device under test (libibverbs + librdmacm) so that a probe can check
 * what the device did, not only what it sent.
 *
 *   ibwire-agent [-a ADDR] [-p PORT] [-n CONNECTIONS]
 *
 * It listens with the RDMA CM (RDMA_PS_TCP, ADDR:PORT, default
 * 0.0.0.0:18515) and accepts one connection at a time on an RC QP with the
 * probe's four regions (probe.h): A 64 KiB remote read/write/atomic, R
 * 4 KiB remote read/write, N 4 KiB local only, L 64 KiB local only (the
 * receive buffers and the sources of the device's own requests), each
 * filled with probe_init_byte().  The accept's private data (the REP's)
 * tells the peer what it has, big-endian:
 *
 *   0  "IBWA"         4  version (1)   5  regions (4)   6  reserved (2)
 *   8  the QPN (4)
 *   12 + 20 i: region i's VA (8), length (4), R_Key (4), access (4: 1
 *      local write, 2 remote write, 4 remote read, 8 remote atomic)
 *
 * The side channel is a TCP socket on the loopback (127.0.0.1:PORT), one
 * command a line, answered with lines:
 *   recv OFF LEN                         post a receive at L+OFF: "ok"
 *   post OP OFF LEN VA RKEY IMM CMP SWAP a request from L+OFF (OP: send,
 *                                        send-imm, write, write-imm, read,
 *                                        cas, faa): "ok"
 *   poll                                 one "cqe recv|send STATUS LEN IMM"
 *                                        per completion (STATUS: ibv_wc_status
 *                                        by name, IMM '-' when none), "end"
 *   mem R OFF LEN                        "mem HEX" of region R (A, R, N, L)
 *   init                                 the regions' initial bytes again: "ok"
 * and "err WHY" for anything wrong.  The connection is the device's only
 * QP; it goes when the peer disconnects, and the agent waits for the next
 * (-n: how many, 0 for ever).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include "probe.h"

static const uint32_t reg_len[PR_COUNT] = {65536, 4096, 4096, 65536};
static const unsigned reg_acc[PR_COUNT] = {
    IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE |
        IBV_ACCESS_REMOTE_ATOMIC,
    IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE,
    IBV_ACCESS_LOCAL_WRITE, IBV_ACCESS_LOCAL_WRITE};

struct conn {
    struct rdma_cm_id *id;
    struct ibv_pd *pd;
    struct ibv_cq *cq;
    struct ibv_mr *mr[PR_COUNT];
    uint8_t *buf[PR_COUNT];
};

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v;
}

static void put64(uint8_t *p, uint64_t v)
{
    put32(p, (uint32_t)(v >> 32));
    put32(p + 4, (uint32_t)v);
}

static uint32_t wire_acc(unsigned a)
{
    return (a & IBV_ACCESS_LOCAL_WRITE ? 1u : 0) |
           (a & IBV_ACCESS_REMOTE_WRITE ? 2u : 0) |
           (a & IBV_ACCESS_REMOTE_READ ? 4u : 0) |
           (a & IBV_ACCESS_REMOTE_ATOMIC ? 8u : 0);
}

static void fill(struct conn *c)
{
    for (int r = 0; r < PR_COUNT; r++)
        for (uint32_t i = 0; i < reg_len[r]; i++)
            c->buf[r][i] = probe_init_byte(r, i);
}

static void conn_free(struct conn *c)
{
    if (c->id && c->id->qp)
        rdma_destroy_qp(c->id);
    for (int r = 0; r < PR_COUNT; r++) {
        if (c->mr[r])
            ibv_dereg_mr(c->mr[r]);
        free(c->buf[r]);
    }
    if (c->cq)
        ibv_destroy_cq(c->cq);
    if (c->pd)
        ibv_dealloc_pd(c->pd);
    if (c->id)
        rdma_destroy_id(c->id);
    memset(c, 0, sizeof *c);
}

static int conn_accept(struct conn *c, struct rdma_cm_id *id)
{
    c->id = id;
    c->pd = ibv_alloc_pd(id->verbs);
    c->cq = c->pd ? ibv_create_cq(id->verbs, 256, NULL, NULL, 0) : NULL;
    if (!c->cq)
        return -1;
    for (int r = 0; r < PR_COUNT; r++) {
        if (posix_memalign((void **)&c->buf[r], 4096, reg_len[r]))
            return -1;
        c->mr[r] = ibv_reg_mr(c->pd, c->buf[r], reg_len[r], reg_acc[r]);
        if (!c->mr[r])
            return -1;
    }
    fill(c);
    struct ibv_qp_init_attr qa;
    memset(&qa, 0, sizeof qa);
    qa.send_cq = qa.recv_cq = c->cq;
    qa.qp_type = IBV_QPT_RC;
    qa.cap.max_send_wr = 64;
    qa.cap.max_recv_wr = 64;
    qa.cap.max_send_sge = qa.cap.max_recv_sge = 1;
    if (rdma_create_qp(id, c->pd, &qa))
        return -1;
    uint8_t pd[12 + 20 * PR_COUNT];
    memset(pd, 0, sizeof pd);
    memcpy(pd, "IBWA", 4);
    pd[4] = 1;
    pd[5] = PR_COUNT;
    put32(pd + 8, id->qp->qp_num);
    for (int r = 0; r < PR_COUNT; r++) {
        uint8_t *e = pd + 12 + 20 * r;
        put64(e, (uint64_t)(uintptr_t)c->buf[r]);
        put32(e + 8, reg_len[r]);
        put32(e + 12, c->mr[r]->rkey);
        put32(e + 16, wire_acc(reg_acc[r]));
    }
    struct rdma_conn_param cp;
    memset(&cp, 0, sizeof cp);
    cp.private_data = pd;
    cp.private_data_len = sizeof pd;
    cp.responder_resources = 16;
    cp.initiator_depth = 16;
    cp.retry_count = 7;
    cp.rnr_retry_count = 7;
    return rdma_accept(id, &cp);
}

/* ---- the side channel ------------------------------------------------------ */

static int region_of(const char *s)
{
    const char *p = s[0] && !s[1] ? strchr(PROBE_REGION_NAMES, s[0]) : NULL;
    return p ? (int)(p - PROBE_REGION_NAMES) : -1;
}

static void reply(int fd, const char *s)
{
    size_t n = strlen(s);
    while (n) {
        ssize_t w = write(fd, s, n);
        if (w <= 0)
            return;
        s += w;
        n -= (size_t)w;
    }
}

static void command(struct conn *c, int fd, char *line)
{
    char op[16] = "", a[16] = "";
    unsigned long long v[8] = {0};
    int n = sscanf(line, "%15s %15s %llu %llu %llu %llu %llu %llu %llu", op, a,
                   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6]);
    char out[256];
    if (n < 1)
        return;
    if (!c->id || !c->id->qp) {
        reply(fd, "err no connection\n");
        return;
    }
    if (!strcmp(op, "recv")) {
        unsigned long long off = strtoull(a, NULL, 0), len = n > 2 ? v[0] : 0;
        if (n != 3 || off + len > reg_len[PR_L]) {
            reply(fd, "err recv OFF LEN inside L\n");
            return;
        }
        struct ibv_sge sg = {(uintptr_t)c->buf[PR_L] + off, (uint32_t)len,
                             c->mr[PR_L]->lkey};
        struct ibv_recv_wr wr = {off, NULL, &sg, 1}, *bad;
        reply(fd, ibv_post_recv(c->id->qp, &wr, &bad) ? "err post_recv\n" : "ok\n");
    } else if (!strcmp(op, "post")) {
        static const char *names[] = {"send", "send-imm", "write", "write-imm",
                                      "read", "cas", "faa"};
        static const enum ibv_wr_opcode ops[] = {
            IBV_WR_SEND, IBV_WR_SEND_WITH_IMM, IBV_WR_RDMA_WRITE,
            IBV_WR_RDMA_WRITE_WITH_IMM, IBV_WR_RDMA_READ,
            IBV_WR_ATOMIC_CMP_AND_SWP, IBV_WR_ATOMIC_FETCH_AND_ADD};
        int k = -1;
        for (int i = 0; i < 7; i++)
            if (!strcmp(a, names[i]))
                k = i;
        /* v: OFF LEN VA RKEY IMM CMP SWAP */
        if (k < 0 || n != 9 || v[0] + v[1] > reg_len[PR_L]) {
            reply(fd, "err post OP OFF LEN VA RKEY IMM CMP SWAP\n");
            return;
        }
        struct ibv_sge sg = {(uintptr_t)c->buf[PR_L] + v[0], (uint32_t)v[1],
                             c->mr[PR_L]->lkey};
        struct ibv_send_wr wr, *bad;
        memset(&wr, 0, sizeof wr);
        wr.wr_id = v[0];
        wr.sg_list = &sg;
        wr.num_sge = 1;
        wr.opcode = ops[k];
        wr.send_flags = IBV_SEND_SIGNALED;
        wr.imm_data = htonl((uint32_t)v[4]);
        if (k >= 5) {
            wr.wr.atomic.remote_addr = v[2];
            wr.wr.atomic.rkey = (uint32_t)v[3];
            wr.wr.atomic.compare_add = k == 6 ? v[6] : v[5];
            wr.wr.atomic.swap = v[6];
        } else {
            wr.wr.rdma.remote_addr = v[2];
            wr.wr.rdma.rkey = (uint32_t)v[3];
        }
        reply(fd, ibv_post_send(c->id->qp, &wr, &bad) ? "err post_send\n" : "ok\n");
    } else if (!strcmp(op, "poll")) {
        struct ibv_wc wc;
        while (ibv_poll_cq(c->cq, 1, &wc) == 1) {
            char imm[16] = "-";
            if (wc.wc_flags & IBV_WC_WITH_IMM)
                snprintf(imm, sizeof imm, "%u", ntohl(wc.imm_data));
            snprintf(out, sizeof out, "cqe %s %s %u %s\n",
                     wc.opcode & IBV_WC_RECV ? "recv" : "send",
                     ibv_wc_status_str(wc.status), wc.byte_len, imm);
            reply(fd, out);
        }
        reply(fd, "end\n");
    } else if (!strcmp(op, "mem")) {
        int r = region_of(a);
        if (r < 0 || n != 4 || v[0] + v[1] > reg_len[r]) {
            reply(fd, "err mem A|R|N|L OFF LEN\n");
            return;
        }
        reply(fd, "mem ");
        for (unsigned long long i = 0; i < v[1]; i++) {
            snprintf(out, sizeof out, "%02x", c->buf[r][v[0] + i]);
            reply(fd, out);
        }
        reply(fd, "\n");
    } else if (!strcmp(op, "init")) {
        fill(c);
        reply(fd, "ok\n");
    } else {
        reply(fd, "err unknown command\n");
    }
}

int main(int argc, char **argv)
{
    const char *addr = "0.0.0.0";
    int port = 18515;
    long conns = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-a") && i + 1 < argc)
            addr = argv[++i];
        else if (!strcmp(argv[i], "-p") && i + 1 < argc)
            port = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-n") && i + 1 < argc)
            conns = atol(argv[++i]);
        else {
            fprintf(stderr, "usage: ibwire-agent [-a ADDR] [-p PORT] [-n CONNECTIONS]\n");
            return 2;
        }
    }
    if (port <= 0 || port > 65535) {
        fprintf(stderr, "ibwire-agent: -p %d: 1 ... 65535\n", port);
        return 2;
    }
    struct sockaddr_in sin;
    memset(&sin, 0, sizeof sin);
    sin.sin_family = AF_INET;
    sin.sin_port = htons((uint16_t)port);
    if (inet_pton(AF_INET, addr, &sin.sin_addr) != 1) {
        fprintf(stderr, "ibwire-agent: -a %s: not an IPv4 address\n", addr);
        return 2;
    }
    struct rdma_event_channel *ch = rdma_create_event_channel();
    struct rdma_cm_id *lid = NULL;
    if (!ch || rdma_create_id(ch, &lid, NULL, RDMA_PS_TCP) ||
        rdma_bind_addr(lid, (struct sockaddr *)&sin) || rdma_listen(lid, 4)) {
        fprintf(stderr, "ibwire-agent: RDMA CM listen on %s:%d: %s\n", addr, port,
                strerror(errno));
        return 1;
    }
    int ls = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), one = 1;
    struct sockaddr_in lo = sin;
    lo.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (ls < 0 || bind(ls, (struct sockaddr *)&lo, sizeof lo) || listen(ls, 2)) {
        fprintf(stderr, "ibwire-agent: side channel 127.0.0.1:%d: %s\n", port,
                strerror(errno));
        return 1;
    }
    fprintf(stderr, "ibwire-agent: listening on %s:%d (RDMA CM), side channel "
            "127.0.0.1:%d (TCP)\n", addr, port, port);
    struct conn c;
    memset(&c, 0, sizeof c);
    int cfd = -1;
    char line[512];
    size_t ll = 0;
    long done = 0;
    for (;;) {
        struct pollfd p[3] = {{ch->fd, POLLIN, 0}, {ls, POLLIN, 0},
                              {cfd, POLLIN, 0}};
        if (poll(p, cfd >= 0 ? 3 : 2, -1) < 0 && errno != EINTR)
            return 1;
        if (p[0].revents & POLLIN) {
            struct rdma_cm_event *ev;
            if (rdma_get_cm_event(ch, &ev))
                return 1;
            struct rdma_cm_event e = *ev;
            rdma_ack_cm_event(ev);
            if (e.event == RDMA_CM_EVENT_CONNECT_REQUEST) {
                if (c.id) {
                    rdma_reject(e.id, NULL, 0);
                    rdma_destroy_id(e.id);
                } else if (conn_accept(&c, e.id)) {
                    fprintf(stderr, "ibwire-agent: cannot accept: %s\n", strerror(errno));
                    rdma_reject(e.id, NULL, 0);
                    conn_free(&c);
                }
            } else if (e.event == RDMA_CM_EVENT_ESTABLISHED) {
                fprintf(stderr, "ibwire-agent: connected, QPN 0x%06x\n",
                        c.id && c.id->qp ? c.id->qp->qp_num : 0);
            } else if (e.event == RDMA_CM_EVENT_DISCONNECTED) {
                fprintf(stderr, "ibwire-agent: disconnected\n");
                if (c.id)
                    rdma_disconnect(c.id);
                conn_free(&c);
                if (conns && ++done >= conns)
                    break;
            }
        }
        if (p[1].revents & POLLIN) {
            int f = accept(ls, NULL, NULL);
            if (cfd >= 0)
                close(cfd);
            cfd = f;
            ll = 0;
        }
        if (cfd >= 0 && (p[2].revents & (POLLIN | POLLHUP))) {
            ssize_t n = read(cfd, line + ll, sizeof line - 1 - ll);
            if (n <= 0) {
                close(cfd);
                cfd = -1;
                continue;
            }
            ll += (size_t)n;
            char *nl;
            while ((nl = memchr(line, '\n', ll))) {
                *nl = 0;
                command(&c, cfd, line);
                size_t used = (size_t)(nl + 1 - line);
                memmove(line, nl + 1, ll - used);
                ll -= used;
            }
            if (ll == sizeof line - 1)
                ll = 0; /* a line too long: dropped */
        }
    }
    rdma_destroy_id(lid);
    rdma_destroy_event_channel(ch);
    return 0;
}
