/* SPDX-License-Identifier: Apache-2.0 */
/*
 * agent.c - ibwire-agent, the device agent: runs on the machine of the
 * device under test (libibverbs + librdmacm) so that a probe can check
 * what the device did, not only what it sent.
 *
 *   ibwire-agent [-a ADDR] [-p PORT] [-n CONNECTIONS] [-d DEVICE]
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
 *                                        cas, faa; faa adds SWAP): "ok"
 *   poll                                 one "cqe recv|send STATUS LEN IMM
 *                                        VERBS-STATUS" per completion (STATUS:
 *                                        the probe's name, ok, loc-len,
 *                                        rem-inv, rem-acc, rem-op, retry-exc,
 *                                        rnr-exc, flush or other; IMM '-'
 *                                        when none), then "end"
 *   mem R OFF LEN                        "mem HEX" of region R (A, R, N, L)
 *   init                                 the regions' initial bytes again: "ok"
 *   qp rc|ud PROBE_QPN RQ_PSN SQ_PSN PMTU RETRY RNR_RETRY TIMEOUT MIN_RNR
 *      MAX_RD PKEY QKEY PROBE_IPV4 [mw]  (numbers decimal or 0x hex) a fresh
 *                                        QP of plain verbs, no CM, with fresh
 *                                        regions, connected to the probe at
 *                                        PROBE_IPV4 (RoCEv2: its GID is
 *                                        ::ffff:PROBE_IPV4; the kernel's
 *                                        neighbour table gives its MAC);
 *                                        answered "dev QPN IPV4 MAC", one
 *                                        "reg X VA LEN RKEY LKEY ACCESS" per
 *                                        region, "ok".  MAX_RD 0: 16.  mw: R's
 *                                        R_Key is a type 2 memory window's
 *                                        over R (what a SEND with Invalidate
 *                                        invalidates), and "cap send-inv"
 *                                        comes before "ok" when the device
 *                                        bound it.  A UD
 *                                        QP's receives skip the 40-byte GRH
 *                                        verbs put first (a scratch buffer
 *                                        takes it) and its completions count
 *                                        the payload only, as on the wire.
 *   destroy                              the QP of `qp` and its regions go:
 *                                        "ok"
 * and "err WHY" for anything wrong.  A CM connection and a `qp` QP exclude
 * each other.  The CM connection goes when the peer disconnects, and the
 * agent waits for the next (-n: how many, 0 for ever); a `qp` QP goes at
 * `destroy`, at the next `qp`, or when the side channel closes.  -d DEV:
 * the device of `qp` (default the first), port 1.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
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

/* The GRH a UD receive starts with in verbs (IBA 11.4.1.1). */
#define GRH_BYTES 40

struct conn {
    struct rdma_cm_id *id; /* a CM connection's, or NULL */
    struct ibv_qp *qp;     /* the QP the commands act on */
    int ud;                /* a `qp ud` QP */
    struct ibv_pd *pd;
    /* apart: a completion in error says nothing of its opcode (verbs), and
     * the CQ it is on tells a flushed receive from a send */
    struct ibv_cq *scq, *rcq;
    struct ibv_mr *mr[PR_COUNT];
    uint8_t *buf[PR_COUNT];
    struct ibv_mw *mw;     /* over R, for a test that invalidates it */
    uint32_t mw_rkey;
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
    else if (c->qp)
        ibv_destroy_qp(c->qp);
    if (c->mw)
        ibv_dealloc_mw(c->mw);
    for (int r = 0; r < PR_COUNT; r++) {
        if (c->mr[r])
            ibv_dereg_mr(c->mr[r]);
        free(c->buf[r]);
    }
    if (c->scq)
        ibv_destroy_cq(c->scq);
    if (c->rcq)
        ibv_destroy_cq(c->rcq);
    if (c->pd)
        ibv_dealloc_pd(c->pd);
    if (c->id)
        rdma_destroy_id(c->id);
    memset(c, 0, sizeof *c);
}

/* PD, CQ and the four regions on a device.  L has GRH_BYTES more than its
 * length past its end: the scratch a UD receive's GRH goes to. */
static int conn_regions(struct conn *c, struct ibv_context *ctx, int mw)
{
    c->pd = ibv_alloc_pd(ctx);
    c->scq = c->pd ? ibv_create_cq(ctx, 256, NULL, NULL, 0) : NULL;
    c->rcq = c->scq ? ibv_create_cq(ctx, 256, NULL, NULL, 0) : NULL;
    if (!c->rcq)
        return -1;
    for (int r = 0; r < PR_COUNT; r++) {
        size_t n = reg_len[r] + (r == PR_L ? GRH_BYTES : 0);
        if (posix_memalign((void **)&c->buf[r], 4096, n))
            return -1;
        c->mr[r] = ibv_reg_mr(c->pd, c->buf[r], n,
                              reg_acc[r] | (mw && r == PR_R ? IBV_ACCESS_MW_BIND : 0));
        if (!c->mr[r])
            return -1;
    }
    fill(c);
    return 0;
}

static int conn_accept(struct conn *c, struct rdma_cm_id *id)
{
    c->id = id;
    if (conn_regions(c, id->verbs, 0))
        return -1;
    struct ibv_qp_init_attr qa;
    memset(&qa, 0, sizeof qa);
    qa.send_cq = c->scq;
    qa.recv_cq = c->rcq;
    qa.qp_type = IBV_QPT_RC;
    qa.cap.max_send_wr = 64;
    qa.cap.max_recv_wr = 64;
    qa.cap.max_send_sge = qa.cap.max_recv_sge = 1;
    if (rdma_create_qp(id, c->pd, &qa))
        return -1;
    c->qp = id->qp;
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

/* ---- a QP per probe test, plain verbs (the `qp` command) ------------------ */

/* The device of `qp`: opened at the first, kept. */
struct dev {
    const char *name;      /* -d, or NULL: the first */
    struct ibv_context *ctx;
    uint8_t port;
    int gid_index;         /* its RoCEv2 IPv4 GID */
    uint32_t ip4;          /* host order */
    uint8_t mac[6];
};

static int dev_open(struct dev *d, char *why, size_t whylen)
{
    if (d->ctx)
        return 0;
    int n = 0;
    struct ibv_device **list = ibv_get_device_list(&n);
    struct ibv_device *pick = NULL;
    for (int i = 0; list && i < n && !pick; i++)
        if (!d->name || !strcmp(ibv_get_device_name(list[i]), d->name))
            pick = list[i];
    if (!pick) {
        snprintf(why, whylen, "no RDMA device%s%s", d->name ? " " : "",
                 d->name ? d->name : "");
        if (list)
            ibv_free_device_list(list);
        return -1;
    }
    d->ctx = ibv_open_device(pick);
    ibv_free_device_list(list);
    struct ibv_port_attr pa;
    d->port = 1;
    if (!d->ctx || ibv_query_port(d->ctx, d->port, &pa)) {
        snprintf(why, whylen, "cannot open the device or query its port 1");
        return -1;
    }
    /* the GID a RoCEv2 IPv4 peer is reached from: type RoCE v2, an
     * IPv4-mapped address (::ffff:a.b.c.d) */
    d->gid_index = -1;
    struct ibv_gid_entry e;
    for (int i = 0; i < pa.gid_tbl_len && d->gid_index < 0; i++) {
        static const uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
        if (ibv_query_gid_ex(d->ctx, d->port, (uint32_t)i, &e, 0) ||
            e.gid_type != IBV_GID_TYPE_ROCE_V2 || memcmp(e.gid.raw, mapped, 12))
            continue;
        d->gid_index = i;
        d->ip4 = (uint32_t)e.gid.raw[12] << 24 | (uint32_t)e.gid.raw[13] << 16 |
                 (uint32_t)e.gid.raw[14] << 8 | e.gid.raw[15];
        char ifname[IF_NAMESIZE];
        struct ifreq ifr;
        int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        memset(&ifr, 0, sizeof ifr);
        if (s < 0 || !if_indextoname(e.ndev_ifindex, ifname)) {
            if (s >= 0)
                close(s);
            snprintf(why, whylen, "GID %d: no network device", i);
            return -1;
        }
        snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "%s", ifname);
        int rc = ioctl(s, SIOCGIFHWADDR, &ifr);
        close(s);
        if (rc) {
            snprintf(why, whylen, "%s: no MAC address", ifname);
            return -1;
        }
        memcpy(d->mac, ifr.ifr_hwaddr.sa_data, 6);
    }
    if (d->gid_index < 0) {
        snprintf(why, whylen, "%s port 1 has no RoCEv2 IPv4 GID",
                 ibv_get_device_name(d->ctx->device));
        return -1;
    }
    return 0;
}

static enum ibv_mtu mtu_enum(unsigned long long b)
{
    switch (b) {
    case 256: return IBV_MTU_256;
    case 512: return IBV_MTU_512;
    case 1024: return IBV_MTU_1024;
    case 2048: return IBV_MTU_2048;
    case 4096: return IBV_MTU_4096;
    default: return (enum ibv_mtu)0;
    }
}

/* v: PROBE_QPN RQ_PSN SQ_PSN PMTU RETRY RNR_RETRY TIMEOUT MIN_RNR MAX_RD PKEY
 * QKEY; the QP set up through INIT, RTR and RTS as the probe's setup says. */
static int qp_create(struct conn *c, struct dev *d, int ud, int mw,
                     const unsigned long long *v, uint32_t probe_ip4,
                     char *why, size_t whylen)
{
    enum ibv_mtu mtu = mtu_enum(v[3]);
    if (!mtu || v[4] > 7 || v[5] > 7 || v[6] > 31 || v[7] > 31 || v[8] > 255 ||
        v[9] > 0xffff || v[0] > 0xffffff || v[1] > 0xffffff || v[2] > 0xffffff) {
        snprintf(why, whylen, "qp: a value out of range");
        return -1;
    }
    if (dev_open(d, why, whylen))
        return -1;
    if (conn_regions(c, d->ctx, mw)) {
        snprintf(why, whylen, "qp: PD, CQ or regions: %s", strerror(errno));
        return -1;
    }
    int pkey_index = -1;
    for (int i = 0; i < 128 && pkey_index < 0; i++) {
        uint16_t pk;
        if (ibv_query_pkey(d->ctx, d->port, i, &pk))
            break;
        if ((ntohs(pk) & 0x7fff) == (v[9] & 0x7fff) && ntohs(pk))
            pkey_index = i;
    }
    if (pkey_index < 0) {
        snprintf(why, whylen, "qp: the device has no P_Key 0x%04llx", v[9]);
        return -1;
    }
    struct ibv_qp_init_attr qa;
    memset(&qa, 0, sizeof qa);
    qa.send_cq = c->scq;
    qa.recv_cq = c->rcq;
    qa.qp_type = ud ? IBV_QPT_UD : IBV_QPT_RC;
    qa.cap.max_send_wr = 64;
    qa.cap.max_recv_wr = 64;
    qa.cap.max_send_sge = 1;
    qa.cap.max_recv_sge = 2;
    c->qp = ibv_create_qp(c->pd, &qa);
    if (!c->qp) {
        snprintf(why, whylen, "qp: ibv_create_qp: %s", strerror(errno));
        return -1;
    }
    c->ud = ud;
    struct ibv_qp_attr a;
    memset(&a, 0, sizeof a);
    a.qp_state = IBV_QPS_INIT;
    a.pkey_index = (uint16_t)pkey_index;
    a.port_num = d->port;
    int mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT;
    if (ud) {
        a.qkey = (uint32_t)v[10];
        mask |= IBV_QP_QKEY;
    } else {
        a.qp_access_flags = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
                            IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC;
        mask |= IBV_QP_ACCESS_FLAGS;
    }
    if (ibv_modify_qp(c->qp, &a, mask)) {
        snprintf(why, whylen, "qp: to INIT: %s", strerror(errno));
        return -1;
    }
    memset(&a, 0, sizeof a);
    a.qp_state = IBV_QPS_RTR;
    mask = IBV_QP_STATE;
    if (!ud) {
        a.path_mtu = mtu;
        a.dest_qp_num = (uint32_t)v[0];
        a.rq_psn = (uint32_t)v[1];
        a.max_dest_rd_atomic = (uint8_t)(v[8] ? v[8] : 16);
        a.min_rnr_timer = (uint8_t)v[7];
        a.ah_attr.is_global = 1;
        a.ah_attr.port_num = d->port;
        a.ah_attr.grh.sgid_index = (uint8_t)d->gid_index;
        a.ah_attr.grh.hop_limit = 64;
        a.ah_attr.grh.dgid.raw[10] = a.ah_attr.grh.dgid.raw[11] = 0xff;
        a.ah_attr.grh.dgid.raw[12] = (uint8_t)(probe_ip4 >> 24);
        a.ah_attr.grh.dgid.raw[13] = (uint8_t)(probe_ip4 >> 16);
        a.ah_attr.grh.dgid.raw[14] = (uint8_t)(probe_ip4 >> 8);
        a.ah_attr.grh.dgid.raw[15] = (uint8_t)probe_ip4;
        mask |= IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
                IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
    }
    if (ibv_modify_qp(c->qp, &a, mask)) {
        snprintf(why, whylen, "qp: to RTR: %s", strerror(errno));
        return -1;
    }
    memset(&a, 0, sizeof a);
    a.qp_state = IBV_QPS_RTS;
    a.sq_psn = (uint32_t)v[2];
    mask = IBV_QP_STATE | IBV_QP_SQ_PSN;
    if (!ud) {
        a.timeout = (uint8_t)v[6];
        a.retry_cnt = (uint8_t)v[4];
        a.rnr_retry = (uint8_t)v[5];
        a.max_rd_atomic = 16;
        mask |= IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
                IBV_QP_MAX_QP_RD_ATOMIC;
    }
    if (ibv_modify_qp(c->qp, &a, mask)) {
        snprintf(why, whylen, "qp: to RTS: %s", strerror(errno));
        return -1;
    }
    return 0;
}

/* R as a type 2 memory window bound on the QP (remote read and write, as
 * R): what a SEND with Invalidate may invalidate.  0 with c->mw_rkey, or
 * -1 when the device has no such windows (the test is then N/A). */
static int bind_window(struct conn *c)
{
    c->mw = ibv_alloc_mw(c->pd, IBV_MW_TYPE_2);
    if (!c->mw)
        return -1;
    struct ibv_send_wr wr, *bad;
    memset(&wr, 0, sizeof wr);
    wr.wr_id = UINT64_MAX;
    wr.opcode = IBV_WR_BIND_MW;
    wr.send_flags = IBV_SEND_SIGNALED;
    wr.bind_mw.mw = c->mw;
    wr.bind_mw.rkey = ibv_inc_rkey(c->mw->rkey);
    wr.bind_mw.bind_info.mr = c->mr[PR_R];
    wr.bind_mw.bind_info.addr = (uintptr_t)c->buf[PR_R];
    wr.bind_mw.bind_info.length = reg_len[PR_R];
    wr.bind_mw.bind_info.mw_access_flags = IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE;
    if (ibv_post_send(c->qp, &wr, &bad))
        return -1;
    struct ibv_wc wc;
    for (int i = 0; i < 2000; i++) { /* a local operation: at once, or 2 s */
        int n = ibv_poll_cq(c->scq, 1, &wc);
        if (n < 0)
            return -1;
        if (n == 1) {
            if (wc.status != IBV_WC_SUCCESS)
                return -1;
            c->mw_rkey = wr.bind_mw.rkey;
            return 0;
        }
        usleep(1000);
    }
    return -1;
}

static const char *probe_status_name(enum ibv_wc_status st)
{
    switch (st) {
    case IBV_WC_SUCCESS: return "ok";
    case IBV_WC_LOC_LEN_ERR: return "loc-len";
    case IBV_WC_REM_INV_REQ_ERR: return "rem-inv";
    case IBV_WC_REM_ACCESS_ERR: return "rem-acc";
    case IBV_WC_REM_OP_ERR: return "rem-op";
    case IBV_WC_RETRY_EXC_ERR: return "retry-exc";
    case IBV_WC_RNR_RETRY_EXC_ERR: return "rnr-exc";
    case IBV_WC_WR_FLUSH_ERR: return "flush";
    default: return "other";
    }
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

static void command(struct conn *c, struct dev *d, int fd, char *line)
{
    char op[16] = "", a[16] = "";
    unsigned long long v[12] = {0};
    char out[256];
    if (sscanf(line, "%15s %15s", op, a) < 1)
        return;
    if (!strcmp(op, "qp")) {
        /* qp rc|ud 11 numbers PROBE_IPV4 */
        char ip[32] = "", opt[8] = "";
        int n = sscanf(line, "%*s %*s %lli %lli %lli %lli %lli %lli %lli %lli "
                       "%lli %lli %lli %31s %7s", (long long *)&v[0], (long long *)&v[1],
                       (long long *)&v[2], (long long *)&v[3], (long long *)&v[4],
                       (long long *)&v[5], (long long *)&v[6], (long long *)&v[7],
                       (long long *)&v[8], (long long *)&v[9], (long long *)&v[10], ip,
                       opt);
        int mw = n == 13 && !strcmp(opt, "mw");
        struct in_addr pip;
        if (c->id) {
            reply(fd, "err a CM connection holds the agent\n");
            return;
        }
        if ((n != 12 && !mw) || (strcmp(a, "rc") && strcmp(a, "ud")) ||
            inet_pton(AF_INET, ip, &pip) != 1) {
            reply(fd, "err qp rc|ud PROBE_QPN RQ_PSN SQ_PSN PMTU RETRY RNR_RETRY "
                      "TIMEOUT MIN_RNR MAX_RD PKEY QKEY PROBE_IPV4 [mw]\n");
            return;
        }
        conn_free(c);
        char why[200];
        int ud = !strcmp(a, "ud");
        if (qp_create(c, d, ud, mw, v, ntohl(pip.s_addr), why, sizeof why)) {
            conn_free(c);
            snprintf(out, sizeof out, "err %s\n", why);
            reply(fd, out);
            return;
        }
        int windowed = mw && !ud && !bind_window(c);
        snprintf(out, sizeof out, "dev %u %u.%u.%u.%u %02x:%02x:%02x:%02x:%02x:%02x\n",
                 c->qp->qp_num, d->ip4 >> 24, d->ip4 >> 16 & 255, d->ip4 >> 8 & 255,
                 d->ip4 & 255, d->mac[0], d->mac[1], d->mac[2], d->mac[3], d->mac[4],
                 d->mac[5]);
        reply(fd, out);
        for (int r = 0; r < PR_COUNT; r++) {
            snprintf(out, sizeof out, "reg %c %llu %u %u %u %u\n", PROBE_REGION_NAMES[r],
                     (unsigned long long)(uintptr_t)c->buf[r], reg_len[r],
                     r == PR_R && windowed ? c->mw_rkey : c->mr[r]->rkey,
                     c->mr[r]->lkey, wire_acc(reg_acc[r]));
            reply(fd, out);
        }
        if (windowed)
            reply(fd, "cap send-inv\n");
        reply(fd, "ok\n");
        return;
    }
    if (!strcmp(op, "destroy")) {
        if (!c->id)
            conn_free(c);
        reply(fd, c->id ? "err the CM connection goes by a disconnect\n" : "ok\n");
        return;
    }
    int n = sscanf(line, "%15s %15s %llu %llu %llu %llu %llu %llu %llu", op, a,
                   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6]);
    if (!c->qp) {
        reply(fd, "err no QP: no CM connection, no `qp`\n");
        return;
    }
    if (!strcmp(op, "recv")) {
        unsigned long long off = strtoull(a, NULL, 0), len = n > 2 ? v[0] : 0;
        if (n != 3 || off + len > reg_len[PR_L]) {
            reply(fd, "err recv OFF LEN inside L\n");
            return;
        }
        struct ibv_sge sg[2] = {
            {(uintptr_t)c->buf[PR_L] + reg_len[PR_L], GRH_BYTES, c->mr[PR_L]->lkey},
            {(uintptr_t)c->buf[PR_L] + off, (uint32_t)len, c->mr[PR_L]->lkey}};
        struct ibv_recv_wr wr, *bad;
        memset(&wr, 0, sizeof wr);
        wr.wr_id = off;
        wr.sg_list = c->ud ? sg : sg + 1;
        wr.num_sge = c->ud ? 2 : 1;
        reply(fd, ibv_post_recv(c->qp, &wr, &bad) ? "err post_recv\n" : "ok\n");
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
        if (k < 0 || n != 9 || v[0] + v[1] > reg_len[PR_L] || c->ud) {
            reply(fd, c->ud ? "err post: RC only\n"
                            : "err post OP OFF LEN VA RKEY IMM CMP SWAP\n");
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
        reply(fd, ibv_post_send(c->qp, &wr, &bad) ? "err post_send\n" : "ok\n");
    } else if (!strcmp(op, "poll")) {
        struct ibv_wc wc;
        for (int recv = 0; recv < 2; recv++)
            while (ibv_poll_cq(recv ? c->rcq : c->scq, 1, &wc) == 1) {
                char imm[16] = "-";
                uint32_t len = wc.byte_len;
                if (wc.status == IBV_WC_SUCCESS && (wc.wc_flags & IBV_WC_WITH_IMM))
                    snprintf(imm, sizeof imm, "%u", ntohl(wc.imm_data));
                if (recv && c->ud && wc.status == IBV_WC_SUCCESS)
                    len = len >= GRH_BYTES ? len - GRH_BYTES : 0;
                snprintf(out, sizeof out, "cqe %s %s %u %s %s\n", recv ? "recv" : "send",
                         probe_status_name(wc.status), len, imm,
                         ibv_wc_status_str(wc.status));
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
    struct dev dv;
    memset(&dv, 0, sizeof dv);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-a") && i + 1 < argc)
            addr = argv[++i];
        else if (!strcmp(argv[i], "-p") && i + 1 < argc)
            port = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-n") && i + 1 < argc)
            conns = atol(argv[++i]);
        else if (!strcmp(argv[i], "-d") && i + 1 < argc)
            dv.name = argv[++i];
        else {
            fprintf(stderr, "usage: ibwire-agent [-a ADDR] [-p PORT] [-n CONNECTIONS] "
                            "[-d DEVICE]\n");
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
                if (c.id || c.qp) {
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
                if (c.id) {
                    rdma_disconnect(c.id);
                    conn_free(&c);
                }
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
                if (!c.id)
                    conn_free(&c); /* a `qp` QP lives as long as its channel */
                continue;
            }
            ll += (size_t)n;
            char *nl;
            while ((nl = memchr(line, '\n', ll))) {
                *nl = 0;
                command(&c, &dv, cfd, line);
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
