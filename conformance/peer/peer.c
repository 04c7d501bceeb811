/* SPDX-License-Identifier: Apache-2.0 */
/*
 * peer.c - `ibwire peer`: the reference engine and its CM on an AF_PACKET
 * socket, in real time (peer.h).
 *
 * The wire: every frame on the interface is read; ARP requests (IPv6:
 * Neighbor Solicitations) for the engine's address are answered (the
 * kernel of the interface does not own it), an ARP reply (Neighbor
 * Advertisement) names the other side's MAC; UDP 4791 frames for the
 * engine's address go to QP1 (the CM agent) when their BTH names QP1, to
 * the engine otherwise.  The engine addresses a two-engine world over IPv4
 * (its peer is its own address ^ 1, MAC 02:00 + that address): its frames
 * are readdressed on the way out to the other side's MAC and address, with
 * the IPv4 checksum and the ICRC (which covers the addresses) recomputed,
 * or rebuilt as IPv6 frames, and IPv6 frames are rebuilt as IPv4 on the
 * way in.  That is the only change; the engine's code is not touched.
 *
 * The CM: conformance/engine/cm's agent (cmx) with its HCR model driving
 * the engine's QP, and the MADs framed here as UD SEND ONLY to QP1 with
 * the GSI Q_Key.  The REQ the agent builds is given what Linux's CM needs
 * of a RoCEv2 path and what its RDMA CM needs of an IP-based service (IBA
 * annex A11): the GIDs (IPv4-mapped), LIDs 0xFFFF (permissive, as Linux
 * sends them on RoCE), hop limit 64, not subnet-local, and the CMA header
 * in the private data (cma.h); the service ID is RDMA_PS_TCP's.
 *
 * The application: rdma-core's rping (librdmacm/examples/rping.c).  The
 * client SENDs {addr, rkey, len} of its start buffer (struct
 * rping_rdma_info, big-endian), the server READs it, SENDs a go-ahead, the
 * client SENDs {addr, rkey, len} of its sink buffer, the server WRITEs what
 * it read there and SENDs a go-ahead; the client compares the two buffers
 * (rping -v's check).  Buffers hold rping's text: "rdma-ping-%d: " then
 * letters from 'A' + ping, cycling A..z, NUL at the end.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* ppoll */
#endif
#include "peer.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <ibwire/packet.h>

#include "capture.h"
#include "cma.h"
#include "cmx.h"
#include "engine.h"
#include "peer_app.h"
#include "probe.h"

#ifdef __linux__
#include <arpa/inet.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAXF 9216
#define INFO_LEN 16u /* struct rping_rdma_info */

enum { WR_RECV = 1, WR_SEND = 2, WR_READ = 3, WR_WRITE = 4 };
#define AGENT_BYTES 256u /* what --app agent reads and writes */
#define STALL_NS 5000000u /* a loop turn longer than this is a stall */
/* The engine's own IPv4 address in its world when the wire is IPv6 (no
 * frame with it leaves: they are rebuilt as IPv6). */
#define ENGINE_IP4 0x0AFE0002u
/* rping's states, as far as this side needs them */
enum { RP_IDLE, RP_READ_ADV, RP_READ, RP_WRITE_ADV, RP_WRITE, RP_DONE };

struct peer {
    const struct peer_opts *o;
    int fd, ifindex;
    uint8_t mac[6];
    uint32_t rip;
    uint8_t rip6[16];
    int have_rip, have_rmac;
    uint8_t rmac[6];
    uint64_t t0, last_arp;
    struct cap_writer *cap;
    /* engine */
    struct ibe_world *w;
    struct ibe_engine *e;
    uint32_t cq, qpn, lkey, rkey;
    uint64_t start_va, rdma_va, send_va[2], recv_va;
    unsigned send_slot;
    /* CM */
    struct cmx_agent *ag;
    struct cmx_hcr hcr;
    uint32_t gmp_psn;
    int conn, connecting, established, disconnecting, down, failed;
    uint64_t accept_at;          /* --accept-delay: when to answer the REQ */
    struct cmx_accept pending;   /* what to answer it with */
    int reqs_sent;
    uint32_t rtus_lost[8];  /* --lose-rtu: connections whose RTU was lost */
    unsigned nrtus_lost;
    uint16_t sport;
    /* rping */
    int rp;
    uint32_t ping, start_char;
    uint64_t r_addr;
    uint32_t r_rkey, r_len;
    uint64_t verified, dropped;
    uint32_t ucm_sends, ucm_recvs;
    struct { uint64_t va; uint32_t len, rkey, acc; } reg[PR_COUNT];
    uint64_t rnd;
    char why[200];
    /* an application in its own file (peer_app.h), or NULL */
    const struct peer_app_ops *app;
    void *app_state;
};

static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t wall_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t now_of(const struct peer *p) { return mono_ns() - p->t0; }

static void fail(struct peer *p, const char *msg)
{
    if (!p->failed) {
        p->failed = 1;
        snprintf(p->why, sizeof p->why, "%s", msg);
    }
}

static void logf_(struct peer *p, const char *fmt, const char *a)
{
    if (p->o->verbose && p->o->log)
        fprintf(p->o->log, fmt, a);
}

/* ---- the wire ------------------------------------------------------------ */

static void tx(struct peer *p, const uint8_t *f, size_t len)
{
    struct sockaddr_ll sll;
    memset(&sll, 0, sizeof sll);
    sll.sll_family = AF_PACKET;
    sll.sll_ifindex = p->ifindex;
    sll.sll_halen = 6;
    memcpy(sll.sll_addr, f, 6);
    if (sendto(p->fd, f, len, 0, (struct sockaddr *)&sll, sizeof sll) !=
        (ssize_t)len)
        fail(p, "cannot send a frame on the interface");
    if (p->cap && len > 14 && (ibw_load_be16(f + 12) == 0x0800 ||
                               ibw_load_be16(f + 12) == 0x86DD))
        cap_write(p->cap, wall_ns(), f, len, NULL);
}

/* ---- IPv6 neighbours (RFC 4861) ------------------------------------------- */

#define ETH_IP6 0x86DDu
#define ICMP6 58u
#define ND_NS 135u
#define ND_NA 136u

static uint16_t icmp6_checksum(const uint8_t *ip6, const uint8_t *m, size_t len)
{
    /* the pseudo-header: both addresses, the length, the next header */
    uint32_t sum = (uint32_t)len + ICMP6;
    for (int i = 0; i < 32; i += 2)
        sum += ibw_load_be16(ip6 + 8 + i);
    for (size_t i = 0; i + 1 < len; i += 2)
        sum += ibw_load_be16(m + i);
    if (len & 1)
        sum += (uint32_t)m[len - 1] << 8;
    while (sum >> 16)
        sum = (sum & 0xFFFFu) + (sum >> 16);
    return (uint16_t)~sum;
}

/* An NS (type 135) for target or an NA (136) about our address, with the
 * link-layer address option (1: source, 2: target). */
static void nd_send(struct peer *p, unsigned type, const uint8_t *dmac,
                    const uint8_t dst[16], const uint8_t target[16])
{
    uint8_t f[14 + 40 + 32];
    memcpy(f, dmac, 6);
    memcpy(f + 6, p->mac, 6);
    ibw_store_be16(f + 12, ETH_IP6);
    uint8_t *ip = f + 14, *m = f + 54;
    ibw_store_be32(ip, 6u << 28);
    ibw_store_be16(ip + 4, 32);
    ip[6] = ICMP6;
    ip[7] = 255; /* ND is only taken with hop limit 255 (on-link) */
    memcpy(ip + 8, p->o->ip6_addr, 16);
    memcpy(ip + 24, dst, 16);
    memset(m, 0, 32);
    m[0] = (uint8_t)type;
    if (type == ND_NA)
        m[4] = 0x60; /* solicited, override */
    memcpy(m + 8, target, 16);
    m[24] = type == ND_NS ? 1 : 2;
    m[25] = 1; /* 8 bytes */
    memcpy(m + 26, p->mac, 6);
    ibw_store_be16(m + 2, icmp6_checksum(ip, m, 32));
    tx(p, f, sizeof f);
}

static void nd_solicit(struct peer *p)
{
    /* to the target's solicited-node group: ff02::1:ff00:0/104 and the
     * target's last 24 bits (RFC 4291 2.7.1) */
    uint8_t dst[16] = {0xFF, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0xFF};
    uint8_t dmac[6] = {0x33, 0x33, 0xFF};
    memcpy(dst + 13, p->rip6 + 13, 3);
    memcpy(dmac + 3, p->rip6 + 13, 3);
    nd_send(p, ND_NS, dmac, dst, p->rip6);
}

static void on_icmp6(struct peer *p, const uint8_t *f, size_t len)
{
    const uint8_t *ip = f + 14, *m = f + 54;
    static const uint8_t unspecified[16];
    if (len < 14 + 40 + 24 || ip[6] != ICMP6 || ip[7] != 255 ||
        (m[0] != ND_NS && m[0] != ND_NA) || m[1] != 0 ||
        ibw_load_be16(ip + 4) < 24 || 54u + ibw_load_be16(ip + 4) > len ||
        icmp6_checksum(ip, m, ibw_load_be16(ip + 4)) != 0)
        return;
    const uint8_t *target = m + 8;
    if (m[0] == ND_NS && !memcmp(target, p->o->ip6_addr, 16) &&
        memcmp(ip + 8, unspecified, 16)) { /* not duplicate detection */
        if (p->cap)
            cap_write(p->cap, wall_ns(), f, len, NULL);
        nd_send(p, ND_NA, f + 6, ip + 8, p->o->ip6_addr);
    } else if (m[0] == ND_NA && p->have_rip && !memcmp(target, p->rip6, 16) &&
               !p->have_rmac) {
        if (p->cap)
            cap_write(p->cap, wall_ns(), f, len, NULL);
        memcpy(p->rmac, f + 6, 6);
        /* the target link-layer address option, when there is one */
        for (size_t o = 24; o + 8 <= ibw_load_be16(ip + 4) && m[o + 1]; o += 8u * m[o + 1])
            if (m[o] == 2)
                memcpy(p->rmac, m + o + 2, 6);
        p->have_rmac = 1;
        logf_(p, "peer: ND: %s\n", "the other side's MAC learnt");
    }
}

static void arp_send(struct peer *p, uint16_t op, const uint8_t *tmac,
                     uint32_t tip)
{
    uint8_t f[42];
    static const uint8_t bc[6] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
    memcpy(f, op == 1 ? bc : tmac, 6);
    memcpy(f + 6, p->mac, 6);
    ibw_store_be16(f + 12, 0x0806);
    ibw_store_be16(f + 14, 1);      /* Ethernet */
    ibw_store_be16(f + 16, 0x0800); /* IPv4 */
    f[18] = 6;
    f[19] = 4;
    ibw_store_be16(f + 20, op);
    memcpy(f + 22, p->mac, 6);
    ibw_store_be32(f + 28, p->o->ip);
    memset(f + 32, 0, 6);
    if (op == 2)
        memcpy(f + 32, tmac, 6);
    ibw_store_be32(f + 38, tip);
    tx(p, f, sizeof f);
}

static void on_arp(struct peer *p, const uint8_t *f, size_t len)
{
    if (len < 42 || ibw_load_be16(f + 14) != 1 || ibw_load_be16(f + 16) != 0x0800 ||
        f[18] != 6 || f[19] != 4)
        return;
    uint16_t op = ibw_load_be16(f + 20);
    uint32_t sip = ibw_load_be32(f + 28), tip = ibw_load_be32(f + 38);
    if (p->rip && sip == p->rip && !p->have_rmac) {
        memcpy(p->rmac, f + 22, 6);
        p->have_rmac = 1;
        logf_(p, "peer: ARP: %s\n", "the other side's MAC learnt");
    }
    if (op == 1 && tip == p->o->ip)
        arp_send(p, 2, f + 22, sip);
}

/* The engine's IPv4 frame to the other side's MAC and address: the IPv4
 * checksum and the ICRC (which covers the addresses) follow.  Its length
 * in b, 0 when it cannot be sent. */
static size_t readdress4(struct peer *p, const uint8_t *pkt, size_t len, uint8_t *b)
{
    memcpy(b, pkt, len);
    memcpy(b, p->rmac, 6);
    memcpy(b + 6, p->mac, 6);
    uint8_t *ip = b + 14;
    ibw_store_be32(ip + 16, p->rip);
    ibw_ipv4_set_checksum(ip, 0);
    ibw_ipv4_set_checksum(ip, ibw_ipv4_checksum(ip, ibw_ipv4_hdr_len(ip)));
    struct ibw_pkt k;
    if (ibw_parse(b, len, IBW_LINK_ETHERNET, &k) != IBW_OK ||
        (k.icrc_status != IBW_CRC_GOOD && k.icrc_status != IBW_CRC_BAD))
        return 0;
    ibw_store_le32(b + k.icrc_off, ibw_icrc_compute(&k));
    return len;
}

/* The engine speaks IPv4 in its world; an IPv6 wire gets the same frame
 * rebuilt as RoCEv2/IPv6 (ibw_build computes the ICRC with the IPv6
 * masks).  Its length in b (cap bytes), 0 when it cannot be sent. */
static size_t rebuild6(struct peer *p, const uint8_t *pkt, size_t len,
                       uint8_t *b, size_t cap)
{
    struct ibw_pkt k;
    struct ibw_build_spec s;
    size_t n = 0;
    if (ibw_parse(pkt, len, IBW_LINK_ETHERNET, &k) != IBW_OK ||
        ibw_build_spec_from_pkt(&k, &s) != IBW_OK)
        return 0;
    s.transport = IBW_TK_ROCE_V2_IP6;
    memcpy(s.dmac, p->rmac, 6);
    memcpy(s.smac, p->mac, 6);
    memcpy(s.ip_src, p->o->ip6_addr, 16);
    memcpy(s.ip_dst, p->rip6, 16);
    s.ttl = 64;
    s.flowlabel = 0; /* as rxe sends it (ip6_flow_hdr(.., 0)) */
    return ibw_build(&s, b, cap, &n) == IBW_OK ? n : 0;
}

static void engine_tx(void *ctx, struct ibe_engine *from, const uint8_t *pkt,
                      size_t len)
{
    struct peer *p = ctx;
    (void)from;
    uint8_t b[MAXF];
    if (len > sizeof b || len < 42 || !p->have_rmac)
        return;
    len = p->o->ip6 ? rebuild6(p, pkt, len, b, sizeof b) : readdress4(p, pkt, len, b);
    if (!len)
        return;
    /* the engine's own frame is RoCEv2/IPv4 without VLAN: BTH at 42 */
    if (p->o->loss > 0 &&
        !(p->app && p->app->lossless && len >= 42 + 12 &&
          p->app->lossless(p, p->app_state, ibw_bth_get_destqp(pkt + 42)))) {
        p->rnd = p->rnd * 6364136223846793005ull + 1442695040888963407ull;
        if ((double)(p->rnd >> 11) / 9007199254740992.0 < p->o->loss) {
            p->dropped++;
            return;
        }
    }
    tx(p, b, len);
}

/* --lose-rtu: is this the first RTU of its connection (local
 * communication ID)?  It is then lost; the REP resent draws another. */
static int rtu_lost(struct peer *p, uint32_t comm_id)
{
    for (unsigned i = 0; i < p->nrtus_lost; i++)
        if (p->rtus_lost[i] == comm_id)
            return 0;
    if (p->nrtus_lost == sizeof p->rtus_lost / sizeof p->rtus_lost[0])
        return 0;
    p->rtus_lost[p->nrtus_lost++] = comm_id;
    return 1;
}

static void gmp_send(void *ctx, const uint8_t *mad_in)
{
    struct peer *p = ctx;
    uint8_t mad[IBW_MAD_SIZE];
    memcpy(mad, mad_in, sizeof mad);
    if (ibw_mad_hdr_get_attributeid(mad) == IBW_CM_ATTR_REQ) {
        /* What the agent does not know of a RoCEv2 path (see the top). */
        uint8_t *d = mad + IBW_CM_DATA_OFFSET;
        uint8_t g[16];
        ibw_cm_req_set_prim_locallid(d, 0xFFFF);
        ibw_cm_req_set_prim_remotelid(d, 0xFFFF);
        if (p->o->ip6) { /* the GIDs are the IPv6 addresses themselves */
            ibw_cm_req_set_prim_localgid(d, p->o->ip6_addr);
            ibw_cm_req_set_prim_remotegid(d, p->rip6);
        } else {
            memset(g, 0, sizeof g);
            g[10] = g[11] = 0xFF;
            ibw_store_be32(g + 12, p->o->ip);
            ibw_cm_req_set_prim_localgid(d, g);
            ibw_store_be32(g + 12, p->rip);
            ibw_cm_req_set_prim_remotegid(d, g);
        }
        ibw_cm_req_set_prim_hoplim(d, 64);
        ibw_cm_req_set_prim_subnetlocal(d, 0);
    }
    if (!p->have_rmac)
        return; /* the agent's timer sends it again */
    struct ibw_build_spec s;
    memset(&s, 0, sizeof s);
    if (p->o->ip6) {
        s.transport = IBW_TK_ROCE_V2_IP6;
        memcpy(s.ip_src, p->o->ip6_addr, 16);
        memcpy(s.ip_dst, p->rip6, 16);
    } else {
        s.transport = IBW_TK_ROCE_V2_IP4;
        ibw_store_be32(s.ip_src, p->o->ip);
        ibw_store_be32(s.ip_dst, p->rip);
    }
    memcpy(s.smac, p->mac, 6);
    memcpy(s.dmac, p->rmac, 6);
    s.ttl = 64;
    s.ip_df = 1;
    s.udp_sport = 0xC001;
    s.bth.opcode = IBW_OP_UD_SEND_ONLY;
    s.bth.pkey = 0xFFFF;
    s.bth.destqp = 1;
    s.bth.psn = p->gmp_psn++ & 0xFFFFFFu;
    s.deth.qkey = IBW_QP1_QKEY;
    s.deth.srcqp = 1;
    s.payload = mad;
    s.payload_len = IBW_MAD_SIZE;
    uint8_t f[512];
    size_t n = 0;
    if (ibw_build(&s, f, sizeof f, &n) != IBW_OK)
        return;
    if (ibw_mad_hdr_get_attributeid(mad) == IBW_CM_ATTR_RTU && p->o->lose_rtu &&
        rtu_lost(p, ibw_cm_rtu_get_localcommid(mad + IBW_CM_DATA_OFFSET)))
        return; /* lost on the wire */
    tx(p, f, n);
    if (ibw_mad_hdr_get_attributeid(mad) == IBW_CM_ATTR_REQ && p->o->dup_req &&
        !p->reqs_sent++)
        tx(p, f, n); /* the duplicate, right behind the first */
}

static void on_roce(struct peer *p, const uint8_t *f, size_t len)
{
    struct ibw_pkt k;
    if (ibw_parse(f, len, IBW_LINK_ETHERNET, &k) != IBW_OK ||
        !ibw_pkt_has(&k, IBW_HDR_BTH))
        return;
    if (p->cap)
        cap_write(p->cap, wall_ns(), f, len, NULL);
    const uint8_t *bth = f + k.off[IBW_HDR_BTH];
    uint64_t now = now_of(p);
    if (ibw_bth_get_destqp(bth) == 1) {
        if (k.icrc_status != IBW_CRC_GOOD || k.opcode != IBW_OP_UD_SEND_ONLY ||
            !ibw_pkt_has(&k, IBW_HDR_DETH) || k.payload_len != IBW_MAD_SIZE ||
            ibw_deth_get_qkey(f + k.off[IBW_HDR_DETH]) != IBW_QP1_QKEY)
            return;
        const uint8_t *mad = ibw_pkt_payload(&k);
        if (ibw_mad_hdr_get_mgmtclass(mad) != IBW_MGMT_CLASS_CM)
            return;
        if (!p->have_rip) { /* server: the first REQ names the other side */
            if (p->o->ip6)
                memcpy(p->rip6, f + 14 + 8, 16);
            else
                p->rip = ibw_load_be32(f + 14 + 12);
            p->have_rip = 1;
            memcpy(p->rmac, f + 6, 6);
            p->have_rmac = 1;
        }
        cmx_receive(p->ag, now, mad, IBW_MAD_SIZE);
        return;
    }
    /* The world's clock is not moved on before the frame goes in: after a
     * stall of this process (a loaded machine, a TCG guest) the frames
     * that came meanwhile are older than now, and moving the clock first
     * fired every ACK timeout of the stall before the ACKs that had come
     * in time (seen against rxe: seven resends in 2 ms, then retry
     * exceeded, their ACKs still in the socket).  The loop moves it after
     * the socket is drained. */
    if (p->o->role == PEER_SERVER && p->qpn && ibw_bth_get_destqp(bth) == p->qpn)
        cmx_comm_established(p->ag, now, p->qpn); /* data before the RTU */
    else if (p->app && p->o->role == PEER_SERVER)
        cmx_comm_established(p->ag, now, ibw_bth_get_destqp(bth));
    if (p->o->ip6) {
        /* Into the engine's IPv4 world: from its peer's address to its own.
         * A frame whose ICRC fails stays out, as the engine would drop it. */
        struct ibw_build_spec s;
        uint8_t b[MAXF];
        size_t n = 0;
        if (k.icrc_status != IBW_CRC_GOOD || ibw_build_spec_from_pkt(&k, &s) != IBW_OK)
            return;
        s.transport = IBW_TK_ROCE_V2_IP4;
        memset(s.ip_src, 0, 16);
        memset(s.ip_dst, 0, 16);
        ibw_store_be32(s.ip_src, ENGINE_IP4 ^ 1u);
        ibw_store_be32(s.ip_dst, ENGINE_IP4);
        s.ip_df = 1;
        if (ibw_build(&s, b, sizeof b, &n) == IBW_OK)
            ibe_engine_receive(p->e, b, n);
        return;
    }
    ibe_engine_receive(p->e, f, len);
}

static void rx_all(struct peer *p)
{
    uint8_t f[MAXF];
    for (;;) {
        struct sockaddr_ll from;
        socklen_t fl = sizeof from;
        ssize_t n = recvfrom(p->fd, f, sizeof f, MSG_TRUNC,
                             (struct sockaddr *)&from, &fl);
        if (n < 0)
            return;
        if (from.sll_pkttype == PACKET_OUTGOING || n < 14 || (size_t)n > sizeof f)
            continue;
        uint16_t et = ibw_load_be16(f + 12);
        if (et == 0x0806 && !p->o->ip6) {
            on_arp(p, f, (size_t)n);
        } else if (et == ETH_IP6 && p->o->ip6 && n >= 14 + 40 + 8 &&
                   (f[14] >> 4) == 6) {
            if (f[20] == ICMP6)
                on_icmp6(p, f, (size_t)n);
            else if (f[20] == 17 && !memcmp(f + 38, p->o->ip6_addr, 16) &&
                     ibw_load_be16(f + 56) == IBW_ROCEV2_UDP_PORT)
                on_roce(p, f, (size_t)n);
        } else if (et == 0x0800 && !p->o->ip6 && n >= 42 && (f[14] >> 4) == 4 &&
                   (f[14] & 15) == 5 && f[23] == 17 &&
                   ibw_load_be32(f + 30) == p->o->ip &&
                   ibw_load_be16(f + 36) == IBW_ROCEV2_UDP_PORT) {
            on_roce(p, f, (size_t)n);
        }
    }
}

/* ---- HCR -> the engine's QP (as cm_sim.c binds it) ----------------------- */

static void post_recv(struct peer *p)
{
    struct ibe_recv_wr r;
    memset(&r, 0, sizeof r);
    r.wr_id = WR_RECV;
    r.num_sge = 1;
    r.sg[0].addr = p->o->app == PEER_APP_UCMATOSE ? p->rdma_va : p->recv_va;
    r.sg[0].length = p->o->app == PEER_APP_UCMATOSE ? p->o->size : INFO_LEN;
    r.sg[0].lkey = p->lkey;
    if (ibe_post_recv(p->e, p->qpn, &r))
        fail(p, "cannot post a receive");
}

static int apply(void *ctx, uint32_t qpn, unsigned from, unsigned to,
                 const struct cmx_mbox *mb)
{
    struct peer *p = ctx;
    (void)from;
    switch (to) {
    case IBW_HCR_QPS_INIT:
        if (ibe_qp_set_state(p->e, qpn, IBE_QPS_INIT))
            return -1;
        if (p->app) {
            p->app->qp_init(p, p->app_state, qpn);
            return 0;
        }
        /* the RQ works from INIT on: the client's SEND may come right
         * after the RTU (ucmatose posts all its receives before it
         * connects or accepts) */
        for (uint32_t i = 0; i < (p->o->app == PEER_APP_UCMATOSE ? p->o->count : 1); i++)
            post_recv(p);
        return 0;
    case IBW_HCR_QPS_RTR: {
        /* The mailbox says which PSN this side sends from and which it
         * receives from as Linux reads the REQ/REP (cm_agent.c qp_cmd()). */
        struct ibe_qp_conn c = {mb->remote_qpn, mb->sq_psn, mb->rq_psn,
                                128u << mb->pmtu, mb->retry_cnt, mb->rnr_retry,
                                mb->ack_timeout, 12, 16};
        if (ibe_qp_connect(p->e, qpn, &c))
            return -1;
        return ibe_qp_set_state(p->e, qpn, IBE_QPS_RTR);
    }
    case IBW_HCR_QPS_RTS: return ibe_qp_set_state(p->e, qpn, IBE_QPS_RTS);
    case IBW_HCR_QPS_ERR: return ibe_qp_set_state(p->e, qpn, IBE_QPS_ERR);
    case IBW_HCR_QPS_RESET: return ibe_qp_set_state(p->e, qpn, IBE_QPS_RESET);
    default: return -1;
    }
}

static int qp_cmd(void *ctx, uint16_t op, uint32_t qpn, const struct cmx_mbox *mb)
{
    struct peer *p = ctx;
    return cmx_hcr_modify_qp(&p->hcr, op, qpn, mb);
}

/* ---- rping ---------------------------------------------------------------- */

static void post(struct peer *p, uint8_t opcode, uint64_t wr_id, uint64_t la,
                 uint32_t len, uint64_t ra, uint32_t rkey)
{
    struct ibe_send_wr w;
    memset(&w, 0, sizeof w);
    w.wr_id = wr_id;
    w.opcode = opcode;
    w.flags = IBE_SEND_SIGNALED;
    w.num_sge = 1;
    w.sg[0].addr = la;
    w.sg[0].length = len;
    w.sg[0].lkey = p->lkey;
    w.remote_addr = ra;
    w.rkey = rkey;
    if (ibe_post_send(p->e, p->qpn, &w))
        fail(p, "cannot post a send request");
}

/* SEND {addr, rkey, len} of a buffer (rping_format_send) */
static void send_info(struct peer *p, uint64_t va, uint32_t len)
{
    uint64_t s = p->send_va[p->send_slot++ & 1u];
    uint8_t *b = ibe_mem_ptr(p->e, s, INFO_LEN);
    ibw_store_be64(b, va);
    ibw_store_be32(b + 8, p->rkey);
    ibw_store_be32(b + 12, len);
    post(p, IBE_WR_SEND, WR_SEND, s, INFO_LEN, 0, 0);
}

static void client_ping(struct peer *p)
{
    uint32_t size = p->o->size;
    char *b = (char *)ibe_mem_ptr(p->e, p->start_va, size);
    int cc = snprintf(b, size, "rdma-ping-%u: ", p->ping);
    uint32_t c = p->start_char;
    for (uint32_t i = cc > 0 ? (uint32_t)cc : 0; i < size; i++) {
        b[i] = (char)c;
        if (++c > 122)
            c = 65;
    }
    if (++p->start_char > 122)
        p->start_char = 65;
    b[size - 1] = 0;
    memset(ibe_mem_ptr(p->e, p->rdma_va, size), 0, size);
    p->rp = RP_READ_ADV;
    send_info(p, p->start_va, size);
}

static void client_recv(struct peer *p)
{
    uint32_t size = p->o->size;
    if (p->rp == RP_READ_ADV) { /* the server has read: advertise the sink */
        post_recv(p);
        p->rp = RP_WRITE_ADV;
        send_info(p, p->rdma_va, size);
        return;
    }
    if (p->rp != RP_WRITE_ADV) {
        fail(p, "rping: a SEND from the server out of turn");
        return;
    }
    const uint8_t *a = ibe_mem_ptr(p->e, p->start_va, size);
    const uint8_t *b = ibe_mem_ptr(p->e, p->rdma_va, size);
    if (p->o->validate && memcmp(a, b, size)) {
        char m[160];
        snprintf(m, sizeof m, "rping: ping %u: the data written back differs "
                 "from what was sent", p->ping);
        fail(p, m);
        return;
    }
    p->verified += size;
    if (p->o->verbose && p->o->log)
        fprintf(p->o->log, "ping data: %s\n", (const char *)b);
    p->ping++;
    if (p->o->count && p->ping >= p->o->count) {
        p->rp = RP_DONE;
        p->disconnecting = 1;
        cmx_disconnect(p->ag, now_of(p), (uint32_t)p->conn);
        return;
    }
    post_recv(p);
    client_ping(p);
}

static void server_recv(struct peer *p)
{
    const uint8_t *b = ibe_mem_ptr(p->e, p->recv_va, INFO_LEN);
    uint64_t addr = ibw_load_be64(b);
    uint32_t rkey = ibw_load_be32(b + 8), len = ibw_load_be32(b + 12);
    post_recv(p);
    if (p->rp == RP_IDLE || p->rp == RP_DONE) { /* READ_ADV */
        if (len > p->o->size || !len) {
            fail(p, "rping: the client's buffer is larger than ours (-S)");
            return;
        }
        p->r_addr = addr;
        p->r_rkey = rkey;
        p->r_len = len;
        p->rp = RP_READ;
        post(p, IBE_WR_RDMA_READ, WR_READ, p->rdma_va, len, addr, rkey);
    } else if (p->rp == RP_WRITE_ADV) {
        const char *d = (const char *)ibe_mem_ptr(p->e, p->rdma_va, p->o->size);
        uint32_t n = (uint32_t)strnlen(d, p->o->size) + 1;
        if (n > p->o->size)
            n = p->o->size;
        if (n > len)
            n = len;
        p->rp = RP_WRITE;
        post(p, IBE_WR_RDMA_WRITE, WR_WRITE, p->rdma_va, n, addr, rkey);
    } else {
        fail(p, "rping: a SEND from the client out of turn");
    }
}

static void server_done_op(struct peer *p, uint64_t wr_id)
{
    if (wr_id == WR_READ && p->rp == RP_READ) {
        if (p->o->verbose && p->o->log)
            fprintf(p->o->log, "server ping data: %s\n",
                    (const char *)ibe_mem_ptr(p->e, p->rdma_va, p->o->size));
        p->rp = RP_WRITE_ADV;
        send_info(p, p->rdma_va, p->o->size); /* go ahead */
    } else if (wr_id == WR_WRITE && p->rp == RP_WRITE) {
        p->rp = RP_DONE;
        p->verified += p->r_len;
        p->ping++;
        send_info(p, p->rdma_va, p->o->size); /* go ahead */
    }
}

/* cmatose (rdma-core's ucmatose): both sides post `count` receives before
 * connecting, send `count` messages of `size` bytes once connected, wait
 * for both; then the server disconnects and the client waits for it. */
static void ucm_start(struct peer *p)
{
    uint8_t *b = ibe_mem_ptr(p->e, p->start_va, p->o->size);
    for (uint32_t i = 0; i < p->o->size; i++)
        b[i] = (uint8_t)('a' + i % 26);
    for (uint32_t i = 0; i < p->o->count; i++)
        post(p, IBE_WR_SEND, WR_SEND, p->start_va, p->o->size, 0, 0);
}

static void ucm_done(struct peer *p, int recv, uint32_t len)
{
    if (recv) {
        p->ucm_recvs++;
        p->verified += len;
    } else {
        p->ucm_sends++;
    }
    if (p->ucm_recvs == p->o->count && p->ucm_sends == p->o->count &&
        !p->disconnecting) {
        p->ping = p->o->count;
        if (p->o->role == PEER_SERVER) {
            p->disconnecting = 1;
            cmx_disconnect(p->ag, now_of(p), (uint32_t)p->conn);
        }
    }
}

/* --app agent: the device agent's REP (conformance/probe/agent.c) names
 * its regions; READ region A and compare it with probe_init_byte(), WRITE
 * a pattern into region R, then ask the agent on its side channel
 * (127.0.0.1:port, TCP: the peer runs on the agent's machine) what region
 * R holds: what the device did, not only what it sent. */
static void agent_start(struct peer *p, const uint8_t *pd, size_t len)
{
    static const uint32_t acc[PR_COUNT] = {15, 7, 1, 1};
    if (len < 12 + 20 * PR_COUNT || memcmp(pd, "IBWA", 4) || pd[4] != 1 ||
        pd[5] != PR_COUNT) {
        fail(p, "agent: the REP's private data is not the agent's region table");
        return;
    }
    for (int r = 0; r < PR_COUNT; r++) {
        const uint8_t *e = pd + 12 + 20 * r;
        p->reg[r].va = ibw_load_be64(e);
        p->reg[r].len = ibw_load_be32(e + 8);
        p->reg[r].rkey = ibw_load_be32(e + 12);
        p->reg[r].acc = ibw_load_be32(e + 16);
        if (p->reg[r].acc != acc[r] || p->reg[r].len < AGENT_BYTES) {
            char m[120];
            snprintf(m, sizeof m, "agent: region %c: access 0x%x, %u bytes",
                     PROBE_REGION_NAMES[r], p->reg[r].acc, p->reg[r].len);
            fail(p, m);
            return;
        }
        if (p->o->verbose && p->o->log)
            fprintf(p->o->log, "peer: agent region %c: va 0x%llx len %u rkey 0x%x "
                    "access 0x%x\n", PROBE_REGION_NAMES[r],
                    (unsigned long long)p->reg[r].va, p->reg[r].len,
                    p->reg[r].rkey, p->reg[r].acc);
    }
    post(p, IBE_WR_RDMA_READ, WR_READ, p->rdma_va, AGENT_BYTES, p->reg[PR_A].va,
         p->reg[PR_A].rkey);
}

static int side_cmd(struct peer *p, const char *cmd, char *out, size_t cap)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons(p->o->port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    struct timeval tv = {5, 0};
    if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) ||
        connect(fd, (struct sockaddr *)&a, sizeof a) ||
        write(fd, cmd, strlen(cmd)) != (ssize_t)strlen(cmd)) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    size_t n = 0;
    while (n + 1 < cap && !memchr(out, '\n', n)) {
        ssize_t k = read(fd, out + n, cap - 1 - n);
        if (k <= 0)
            break;
        n += (size_t)k;
    }
    out[n] = 0;
    close(fd);
    return 0;
}

static void agent_done_op(struct peer *p, uint64_t wr_id)
{
    if (wr_id == WR_READ) {
        const uint8_t *b = ibe_mem_ptr(p->e, p->rdma_va, AGENT_BYTES);
        for (uint32_t i = 0; i < AGENT_BYTES; i++)
            if (b[i] != probe_init_byte(PR_A, i)) {
                fail(p, "agent: region A does not hold its initial bytes");
                return;
            }
        p->verified += AGENT_BYTES;
        uint8_t *w = ibe_mem_ptr(p->e, p->start_va, AGENT_BYTES);
        for (uint32_t i = 0; i < AGENT_BYTES; i++)
            w[i] = (uint8_t)(i * 37u + 11u);
        post(p, IBE_WR_RDMA_WRITE, WR_WRITE, p->start_va, AGENT_BYTES,
             p->reg[PR_R].va, p->reg[PR_R].rkey);
    } else if (wr_id == WR_WRITE) {
        char cmd[64], out[AGENT_BYTES * 2 + 64];
        snprintf(cmd, sizeof cmd, "mem R 0 %u\n", AGENT_BYTES);
        if (side_cmd(p, cmd, out, sizeof out)) {
            fail(p, "agent: no side channel on 127.0.0.1 at the port");
            return;
        }
        const uint8_t *w = ibe_mem_ptr(p->e, p->start_va, AGENT_BYTES);
        char want[AGENT_BYTES * 2 + 8] = "mem ";
        for (uint32_t i = 0; i < AGENT_BYTES; i++)
            snprintf(want + 4 + 2 * i, 3, "%02x", w[i]);
        if (strncmp(out, want, strlen(want))) {
            fail(p, "agent: region R does not hold what the WRITE carried");
            return;
        }
        p->verified += AGENT_BYTES;
        p->ping = 1;
        p->disconnecting = 1;
        cmx_disconnect(p->ag, now_of(p), (uint32_t)p->conn);
    }
}

static void poll_cq(struct peer *p)
{
    struct ibe_wc wc;
    while (ibe_poll_cq(p->e, p->cq, &wc, 1) == 1) {
        if (wc.status != IBE_WC_SUCCESS) {
            if (wc.status == IBE_WC_WR_FLUSH_ERR && (p->down || p->disconnecting))
                continue;
            char m[120];
            snprintf(m, sizeof m, "a work request (wr_id %llu) completed with "
                     "status 0x%02x", (unsigned long long)wc.wr_id, wc.status);
            fail(p, m);
            return;
        }
        if (p->o->app == PEER_APP_UCMATOSE) {
            ucm_done(p, wc.wr_id == WR_RECV, wc.byte_len);
            continue;
        }
        if (p->o->app == PEER_APP_AGENT) {
            agent_done_op(p, wc.wr_id);
            continue;
        }
        if (wc.wr_id == WR_RECV) {
            if (p->o->role == PEER_CLIENT)
                client_recv(p);
            else
                server_recv(p);
        } else if (p->o->role == PEER_SERVER) {
            server_done_op(p, wc.wr_id);
        }
    }
}

/* ---- CM ------------------------------------------------------------------- */

static int on_req(void *ctx, uint32_t conn, const struct ibw_cm_req *req,
                  struct cmx_accept *acc)
{
    struct peer *p = ctx;
    uint16_t ps, port;
    struct peer_cma h;
    char err[120];
    if (!peer_cma_parse_sid(req->serviceid, &ps, &port) || ps != PEER_CMA_PS_TCP ||
        port != p->o->port)
        return IBW_CM_REJ_INVALID_SERVICE_ID;
    if (peer_cma_decode(req->private_data, 92, &h, err, sizeof err)) {
        logf_(p, "peer: REQ: %s\n", err);
        return IBW_CM_REJ_CONSUMER_DEFINED;
    }
    if (p->o->ip6 ? h.ip_version != 6 || memcmp(h.dst, p->o->ip6_addr, 16)
                  : h.ip_version != 4 || peer_cma_ip4(h.dst) != p->o->ip)
        return IBW_CM_REJ_CONSUMER_DEFINED;
    if (p->app) {
        acc->start_psn = (uint32_t)(mono_ns() & 0xFFFFFFu);
        acc->private_len = 0;
        int r = p->app->on_req(p, p->app_state, conn, acc);
        if (r == CMX_ACCEPT) {
            cmx_hcr_add_qp(&p->hcr, acc->qpn);
            ibe_qp_set_state(p->e, acc->qpn, IBE_QPS_RESET);
        }
        return r;
    }
    if (p->conn >= 0)
        return IBW_CM_REJ_NO_QP; /* one connection at a time */
    p->conn = (int)conn;
    cmx_hcr_add_qp(&p->hcr, p->qpn);
    ibe_qp_set_state(p->e, p->qpn, IBE_QPS_RESET);
    acc->qpn = p->qpn;
    acc->start_psn = (uint32_t)(mono_ns() & 0xFFFFFFu);
    acc->private_len = 0;
    if (p->o->accept_delay_ms) {
        /* The application answers late: the agent sends MRA(REQ) now and
         * the loop accepts when the delay is over. */
        p->pending = *acc;
        p->accept_at = now_of(p) + (uint64_t)p->o->accept_delay_ms * 1000000u;
        if (!p->accept_at)
            p->accept_at = 1;
        return CMX_DEFER;
    }
    return CMX_ACCEPT;
}

static void on_event(void *ctx, const struct cmx_event *ev)
{
    struct peer *p = ctx;
    char m[120];
    if (p->app) {
        p->app->on_event(p, p->app_state, ev);
        return;
    }
    switch (ev->type) {
    case CMX_EV_ESTABLISHED:
        p->established = 1;
        logf_(p, "peer: %s\n", "connection established");
        if (p->o->app == PEER_APP_UCMATOSE) {
            ucm_start(p);
        } else if (p->o->app == PEER_APP_AGENT) {
            agent_start(p, ev->private_data, ev->private_data ? ev->private_len : 0);
        } else if (p->o->role == PEER_CLIENT) {
            p->start_char = 65;
            client_ping(p);
        }
        break;
    case CMX_EV_DISCONNECTED:
        p->down = 1;
        logf_(p, "peer: %s\n", "disconnected");
        break;
    case CMX_EV_REJECTED:
        snprintf(m, sizeof m, "the connection was rejected: %s (%u)",
                 ibw_cm_rej_reason_name(ev->reason), ev->reason);
        fail(p, m);
        p->down = 1;
        break;
    case CMX_EV_FAILED:
    case CMX_EV_STALE:
    case CMX_EV_QP_CMD_FAILED:
        snprintf(m, sizeof m, "the CM gave up (event %u, reason %u)", ev->type,
                 ev->reason);
        fail(p, m);
        p->down = 1;
        break;
    default:
        break;
    }
}

/* ---- what an application in its own file may use (peer_app.h) ----------- */

struct ibe_engine *peer_engine(struct peer *p) { return p->e; }
const struct peer_opts *peer_options(const struct peer *p) { return p->o; }
void peer_fail(struct peer *p, const char *msg) { fail(p, msg); }
uint64_t peer_now(const struct peer *p) { return now_of(p); }
void peer_disconnect(struct peer *p, uint32_t conn)
{
    cmx_disconnect(p->ag, now_of(p), conn);
}
int peer_connect(struct peer *p, uint32_t qpn, uint32_t start_psn)
{
    if (!p->have_rmac)
        return -2; /* the loop is still asking ARP */
    uint8_t pd[PEER_CMA_HDR_LEN];
    uint16_t sport = (uint16_t)(0xC000u | (mono_ns() & 0x3FFFu));
    peer_cma_encode4(pd, sport, p->o->ip, p->rip);
    cmx_hcr_add_qp(&p->hcr, qpn);
    struct cmx_connect c = {peer_cma_service_id(PEER_CMA_PS_TCP, p->o->port),
                            qpn, start_psn & 0xFFFFFFu, 3, 7, 7, 0, pd, sizeof pd};
    return cmx_connect(p->ag, now_of(p), &c);
}

/* ---- setup and the loop --------------------------------------------------- */

static int open_iface(struct peer *p, char *err, size_t errlen)
{
    unsigned idx = if_nametoindex(p->o->iface);
    if (!idx) {
        snprintf(err, errlen, "%s: no such interface", p->o->iface);
        return -1;
    }
    p->fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC,
                   htons(ETH_P_ALL));
    if (p->fd < 0) {
        snprintf(err, errlen, "%s: raw socket: %s (root or CAP_NET_RAW)",
                 p->o->iface, strerror(errno));
        return -1;
    }
    /* A requester may burst its whole send queue (perftest: 128 messages
     * of 64 KB) while this process does not run; the default socket
     * buffer (about 200 frames) lost most of such a burst in a TCG guest,
     * and every loss cost a requester's retry timeout.  Best effort: the
     * forced size needs CAP_NET_ADMIN, the plain one is capped by
     * net.core.rmem_max. */
    int rcvbuf = 32 << 20;
    if (setsockopt(p->fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof rcvbuf))
        (void)setsockopt(p->fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "%s", p->o->iface);
    struct sockaddr_ll sll;
    memset(&sll, 0, sizeof sll);
    sll.sll_family = AF_PACKET;
    sll.sll_protocol = htons(ETH_P_ALL);
    sll.sll_ifindex = (int)idx;
    if (ioctl(p->fd, SIOCGIFHWADDR, &ifr) ||
        bind(p->fd, (struct sockaddr *)&sll, sizeof sll)) {
        snprintf(err, errlen, "%s: %s", p->o->iface, strerror(errno));
        return -1;
    }
    memcpy(p->mac, ifr.ifr_hwaddr.sa_data, 6);
    p->ifindex = (int)idx;
    return 0;
}

static int setup_engine(struct peer *p)
{
    p->w = ibe_world_create(1);
    struct ibe_config c;
    memset(&c, 0, sizeof c);
    c.mem_bytes = 1u << 22;
    c.framing = IBE_FRAME_ROCEV2;
    c.lid = 1;
    c.ipv4 = p->o->ip6 ? ENGINE_IP4 : p->o->ip;
    memcpy(c.mac, p->mac, 6);
    p->e = p->w ? ibe_engine_create(p->w, &c) : NULL;
    if (!p->e)
        return -1;
    ibe_engine_set_tx(p->e, engine_tx, p);
    uint32_t size = p->o->size;
    uint64_t total = 2ull * size + 3 * INFO_LEN + 64;
    if (p->o->app == PEER_APP_UCMATOSE && p->o->count > 60)
        return -1; /* every message is posted at once: the SQ holds 64 */
    uint64_t base = ibe_mem_alloc(p->e, total, 4096);
    if (!base || ibe_mr_reg(p->e, 1, base, total,
                            IBE_ACC_LOCAL_WRITE | IBE_ACC_REMOTE_READ |
                                IBE_ACC_REMOTE_WRITE,
                            &p->lkey, &p->rkey))
        return -1;
    p->start_va = base;
    p->rdma_va = base + size;
    p->send_va[0] = base + 2ull * size;
    p->send_va[1] = p->send_va[0] + INFO_LEN;
    p->recv_va = p->send_va[1] + INFO_LEN;
    memset(ibe_mem_ptr(p->e, base, total), 0, total);
    p->cq = ibe_cq_create(p->e, 256);
    struct ibe_qp_attr a;
    memset(&a, 0, sizeof a);
    a.type = IBE_RC;
    a.pd = 1;
    a.send_cq = a.recv_cq = p->cq;
    a.sq_depth = 64;
    a.rq_depth = 64;
    a.pkey = 0xFFFF;
    p->qpn = ibe_qp_create(p->e, &a);
    if (!p->qpn)
        return -1;
    cmx_hcr_init(&p->hcr, apply, p);
    struct cmx_config cc;
    memset(&cc, 0, sizeof cc);
    /* the CA GUID: the interface MAC's EUI-64, as Linux derives it */
    cc.guid = (uint64_t)(p->mac[0] ^ 2u) << 56 | (uint64_t)p->mac[1] << 48 |
              (uint64_t)p->mac[2] << 40 | 0xFFFEull << 24 |
              (uint64_t)p->mac[3] << 16 | (uint64_t)p->mac[4] << 8 | p->mac[5];
    cc.lid = 0xFFFF;
    cc.comm_id_base = (uint32_t)(mono_ns() & 0x7FFFFF00u) | 1u;
    cc.resp_timeout = 20;    /* Linux's CMA_CM_RESPONSE_TIMEOUT */
    /* What an MRA asks for: Linux's CMA_CM_RESPONSE_TIMEOUT, or more when
     * the answer is delayed on purpose (4.096 us * 2^x over the delay and
     * a second more). */
    cc.service_timeout = 20;
    while (cc.service_timeout < 31 &&
           ibw_cm_timeout_ns(cc.service_timeout) <
               (uint64_t)p->o->accept_delay_ms * 1000000u + 1000000000u)
        cc.service_timeout++;
    cc.max_cm_retries = 15;  /* CMA_MAX_CM_RETRIES */
    cc.t_max_ns = 1000000;
    cc.max_conns = 16;
    struct cmx_ops ops = {p, gmp_send, qp_cmd, on_req, on_event};
    p->ag = cmx_agent_create(&cc, &ops);
    if (p->ag && p->app)
        return p->app->setup(p, p->app_state);
    return p->ag ? 0 : -1;
}

int peer_run(const struct peer_opts *o)
{
    struct peer *p = calloc(1, sizeof *p);
    if (!p)
        return 2;
    p->o = o;
    p->fd = -1;
    p->conn = -1;
    p->rip = o->role == PEER_CLIENT ? o->remote_ip : 0;
    p->have_rip = o->role == PEER_CLIENT;
    if (o->ip6 && o->role == PEER_CLIENT)
        memcpy(p->rip6, o->remote_ip6, 16);
    p->rnd = mono_ns() | 1u;
    if (o->app == PEER_APP_PERFTEST) {
        p->app = &peer_app_perftest;
        p->app_state = calloc(1, p->app->state_size);
        if (!p->app_state) {
            free(p);
            return 2;
        }
    }
    if (o->have_remote_mac) {
        memcpy(p->rmac, o->remote_mac, 6);
        p->have_rmac = 1;
    }
    char err[256];
    int rc = 2;
    if (o->size < 32 || o->size > 65536) {
        snprintf(err, sizeof err, "--size %u: 32 ... 65536", o->size);
        goto out;
    }
    if (open_iface(p, err, sizeof err))
        goto out;
    if (setup_engine(p)) {
        snprintf(err, sizeof err, "engine: cannot set it up");
        goto out;
    }
    if (o->pcap) {
        p->cap = cap_writer_open(o->pcap, CAP_FORMAT_PCAP, 1, err, sizeof err);
        if (!p->cap)
            goto out;
    }
    if (o->role == PEER_SERVER)
        cmx_listen(p->ag, peer_cma_service_id(PEER_CMA_PS_TCP, o->port));
    p->t0 = mono_ns();
    uint64_t limit = (uint64_t)((o->timeout_s > 0 ? o->timeout_s : 30.0) * 1e9);
    rc = 1;
    uint64_t last = 0;
    while (!p->failed) {
        /* The engine's clock stops while this process does not run: a
         * stall (a loaded machine, a TCG guest: 0.8 s seen) is not time
         * the wire had to answer in, and the world would otherwise spend
         * it at once, every ACK timeout of it firing before the frames of
         * the exchange could even be sent (seen against rxe: seven resends
         * within 2.5 ms, retry exceeded, rxe's ACKs unread). */
        if (now_of(p) - last > STALL_NS)
            p->t0 += now_of(p) - last - STALL_NS;
        rx_all(p);
        uint64_t now = now_of(p);
        last = now;
        ibe_world_run_until(p->w, now);
        cmx_tick(p->ag, now);
        poll_cq(p);
        if (p->app && p->app->tick(p, p->app_state, now))
            break;
        if (p->down)
            break;
        if (now > limit) {
            char m[120];
            if (p->app)
                snprintf(m, sizeof m, "%s: timed out after %.1f s", p->app->name,
                         (double)limit / 1e9);
            else
                snprintf(m, sizeof m, "timed out after %.1f s (established %d, "
                         "%u pings)", (double)limit / 1e9, p->established, p->ping);
            fail(p, m);
            break;
        }
        if (o->role == PEER_CLIENT && !p->have_rmac &&
            (!p->last_arp || now - p->last_arp > 200000000u)) {
            p->last_arp = now ? now : 1;
            if (o->ip6)
                nd_solicit(p);
            else
                arp_send(p, 1, NULL, p->rip);
        }
        if (p->accept_at && now >= p->accept_at && p->conn >= 0) {
            p->accept_at = 0;
            if (cmx_accept(p->ag, now, (uint32_t)p->conn, &p->pending))
                fail(p, "the CM cannot answer the deferred REQ");
        }
        if (o->role == PEER_CLIENT && p->have_rmac && !p->connecting && !p->app) {
            uint8_t pd[PEER_CMA_HDR_LEN];
            p->sport = (uint16_t)(0xC000u | (mono_ns() & 0x3FFFu));
            if (o->ip6)
                peer_cma_encode6(pd, p->sport, o->ip6_addr, p->rip6);
            else
                peer_cma_encode4(pd, p->sport, o->ip, p->rip);
            cmx_hcr_add_qp(&p->hcr, p->qpn);
            struct cmx_connect c = {peer_cma_service_id(PEER_CMA_PS_TCP, o->port),
                                    p->qpn, (uint32_t)(mono_ns() & 0xFFFFFFu),
                                    3, 7, 7, 0, pd, sizeof pd};
            p->connecting = 1;
            p->conn = cmx_connect(p->ag, now, &c);
            if (p->conn < 0)
                fail(p, "the CM cannot start the connection");
        }
        struct pollfd pf = {p->fd, POLLIN, 0};
        struct timespec ts = {0, 500000};
        ppoll(&pf, 1, &ts, NULL);
    }
    if (!p->app) { /* an application has judged its run in its tick() */
        if (!p->failed && o->role == PEER_CLIENT && o->count && p->ping < o->count)
            fail(p, "disconnected before the last ping");
        if (!p->failed && o->app == PEER_APP_UCMATOSE && p->ping < o->count)
            fail(p, "disconnected before every message went both ways");
        if (!p->failed && o->role == PEER_SERVER && !p->ping)
            fail(p, "disconnected before any ping");
    }
    if (p->failed) {
        snprintf(err, sizeof err, "%s", p->why);
    } else {
        rc = 0;
        const struct cmx_stats *cs = cmx_agent_stats(p->ag);
        if (!o->quiet && o->log)
            fprintf(o->log, "peer: CM: %llu MRA sent, %llu MRA received, "
                    "%llu MADs resent, %llu duplicates received\n",
                    (unsigned long long)cs->mra_sent,
                    (unsigned long long)cs->mra_rcvd,
                    (unsigned long long)cs->retries,
                    (unsigned long long)cs->dup_rcvd);
        if (p->app) {
            if (!o->quiet && o->log)
                p->app->summary(p, p->app_state, o->log);
        } else if (!o->quiet && o->log)
            fprintf(o->log, o->app == PEER_APP_UCMATOSE
                    ? "peer: %u messages each way, %llu bytes received, disconnected"
                      " (%llu frames dropped on purpose, %llu resent)\n"
                    : "peer: %u pings, %llu bytes verified, disconnected"
                      " (%llu frames dropped on purpose, %llu resent)\n",
                    p->ping, (unsigned long long)p->verified,
                    (unsigned long long)p->dropped,
                    (unsigned long long)ibe_engine_stats(p->e)->retransmissions);
    }
out:
    if (rc && o->log)
        fprintf(o->log, "ibwire peer: %s\n", err);
    if (p->cap)
        cap_writer_close(p->cap);
    if (p->ag)
        cmx_agent_destroy(p->ag);
    if (p->e)
        ibe_engine_destroy(p->e);
    if (p->w)
        ibe_world_destroy(p->w);
    if (p->fd >= 0)
        close(p->fd);
    free(p->app_state);
    free(p);
    return rc;
}

#else

int peer_run(const struct peer_opts *o)
{
    if (o->log)
        fprintf(o->log, "ibwire peer: raw sockets are Linux's AF_PACKET\n");
    return 2;
}

#endif
