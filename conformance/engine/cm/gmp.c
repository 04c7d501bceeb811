/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gmp.c - GMP transport over QP1 (UESTC thesis (2017) §4.3) and the
 * arbitration of §4.3.1.3.
 *
 * Driver side: a MAD is copied into a send buffer, a GMP send WQE (fig.
 * 4-15 control segment + fig. 4-16 data segment, ibw_cx3_gmp_wqe_build) is
 * written into the QP1 send ring and the UAR send doorbell (fig. 4-17) is
 * rung.  Device side: the WQE is read back field by field, the 256 bytes it
 * points at are framed as UD SEND ONLY to QP1 with the GSI Q_Key
 * (ibw_build) and a CQE (fig. 4-19) is written; received frames are checked
 * the same way and complete with a receive CQE.
 */
#include <string.h>

#include <ibwire/packet.h>

#include "cmx.h"

static void mac_of(uint32_t ip, uint8_t mac[6])
{
    mac[0] = 0x02;
    mac[1] = 0x00;
    ibw_store_be32(mac + 2, ip);
}

void cmx_gmp_init(struct cmx_gmp_port *p, int roce, uint32_t ipv4,
                  uint32_t peer_ipv4, uint16_t lid, uint16_t peer_lid)
{
    memset(p, 0, sizeof *p);
    p->roce = roce ? 1 : 0;
    p->ipv4 = ipv4;
    p->peer_ipv4 = peer_ipv4;
    mac_of(ipv4, p->mac);
    mac_of(peer_ipv4, p->peer_mac);
    p->lid = lid;
    p->peer_lid = peer_lid;
}

int cmx_gmp_post(struct cmx_gmp_port *p, const uint8_t *mad)
{
    if (p->sq_pi - p->sq_ci >= CMX_GMP_SQ)
        return -1;
    uint32_t slot = p->sq_pi % CMX_GMP_SQ;
    memcpy(p->buf[slot], mad, IBW_MAD_SIZE);
    struct ibw_cx3_gmp_req r;
    memset(&r, 0, sizeof r);
    /* Owner is 0 on the first pass over the ring, 1 on the second, ... */
    r.owner = (uint8_t)((p->sq_pi / CMX_GMP_SQ) & 1u);
    r.icrc = 1;
    r.signaled = 1;
    r.rlid = p->peer_lid;
    r.lkey = 0;
    r.addr = CMX_GMP_BUF_ADDR + (uint64_t)slot * IBW_MAD_SIZE;
    ibw_cx3_gmp_wqe_build(&r, p->sq[slot], sizeof p->sq[slot]);
    p->sq_pi++;
    struct ibw_uar_send_db db = {1, 0};
    uint8_t w[4];
    ibw_uar_send_db_encode(&db, w, sizeof w);
    p->doorbell = ibw_load_be32(w);
    return 0;
}

static void write_cqe(struct cmx_gmp_port *p, const struct ibw_cx3_cqe *c)
{
    struct ibw_cx3_cqe e = *c;
    e.owner = (uint8_t)((p->cq_pi / CMX_GMP_CQ) & 1u);
    ibw_cx3_cqe_encode(&e, p->cq[p->cq_pi % CMX_GMP_CQ], 32);
    p->cq_pi++;
    if (p->cq_pi - p->cq_ci > CMX_GMP_CQ)
        p->cq_ci = p->cq_pi - CMX_GMP_CQ; /* overrun: oldest lost */
}

static int frame_gmp(const struct cmx_gmp_port *p, const uint8_t *mad,
                     uint8_t *frame, size_t cap)
{
    struct ibw_build_spec s;
    memset(&s, 0, sizeof s);
    if (p->roce) {
        s.transport = IBW_TK_ROCE_V2_IP4;
        memcpy(s.smac, p->mac, 6);
        memcpy(s.dmac, p->peer_mac, 6);
        ibw_store_be32(s.ip_src, p->ipv4);
        ibw_store_be32(s.ip_dst, p->peer_ipv4);
        s.ttl = 64;
        s.ip_df = 1;
        s.udp_sport = 0xC001;
    } else {
        s.transport = IBW_TK_IB_LOCAL;
        s.lrh.dlid = p->peer_lid;
        s.lrh.slid = p->lid;
    }
    s.bth.opcode = IBW_OP_UD_SEND_ONLY;
    s.bth.pkey = 0xFFFF;
    s.bth.destqp = 1;
    s.bth.psn = (uint32_t)(p->sent & 0xFFFFFFu);
    s.deth.qkey = IBW_QP1_QKEY;
    s.deth.srcqp = 1;
    s.payload = mad;
    s.payload_len = IBW_MAD_SIZE;
    size_t n = 0;
    if (ibw_build(&s, frame, cap, &n) != IBW_OK)
        return -1;
    return (int)n;
}

int cmx_gmp_transmit(struct cmx_gmp_port *p, uint8_t *frame, size_t cap)
{
    if (p->sq_ci == p->sq_pi)
        return 0;
    uint32_t slot = p->sq_ci % CMX_GMP_SQ;
    struct ibw_cx3_gmp_ctrl ctl;
    struct ibw_cx3_data d;
    ibw_cx3_gmp_ctrl_decode(p->sq[slot], 16, &ctl);
    ibw_cx3_data_decode(p->sq[slot] + 16, 16, &d);
    uint64_t off = d.addr - CMX_GMP_BUF_ADDR;
    if (ctl.opcode != IBW_CX3_OPCODE_SEND || ctl.ds != 2 ||
        ctl.owner != ((p->sq_ci / CMX_GMP_SQ) & 1u) ||
        d.byte_count != IBW_CX3_GMP_BYTES || d.addr < CMX_GMP_BUF_ADDR ||
        off % IBW_MAD_SIZE || off / IBW_MAD_SIZE >= CMX_GMP_SQ)
        return -1;
    int n = frame_gmp(p, p->buf[off / IBW_MAD_SIZE], frame, cap);
    if (n < 0)
        return -1;
    struct ibw_cx3_cqe c;
    memset(&c, 0, sizeof c);
    c.my_qpn = 1;
    c.byte_cnt = IBW_CX3_GMP_BYTES;
    c.wqe_counter = (uint16_t)p->sq_ci;
    c.sr = 1;
    c.opcode = IBW_CX3_OPCODE_SEND;
    if (ctl.cq_update == 3)
        write_cqe(p, &c);
    p->sq_ci++;
    p->sent++;
    return n;
}

int cmx_gmp_receive(struct cmx_gmp_port *p, const uint8_t *frame, size_t len,
                    uint8_t *mad)
{
    struct ibw_pkt k;
    int e = ibw_parse(frame, len, p->roce ? IBW_LINK_ETHERNET : IBW_LINK_IB,
                      &k);
    if (e != IBW_OK)
        return e;
    if (k.icrc_status != IBW_CRC_GOOD)
        return p->dropped_bad++, IBW_E_CRC;
    const uint8_t *bth = frame + k.off[IBW_HDR_BTH];
    if (k.opcode != IBW_OP_UD_SEND_ONLY || ibw_bth_get_destqp(bth) != 1 ||
        !ibw_pkt_has(&k, IBW_HDR_DETH))
        return IBW_E_UNSUPPORTED;
    const uint8_t *deth = frame + k.off[IBW_HDR_DETH];
    if (ibw_deth_get_qkey(deth) != IBW_QP1_QKEY || k.payload_len != IBW_MAD_SIZE)
        return p->dropped_bad++, IBW_E_UNSUPPORTED;
    memcpy(mad, ibw_pkt_payload(&k), IBW_MAD_SIZE);
    struct ibw_cx3_cqe c;
    memset(&c, 0, sizeof c);
    c.my_qpn = 1;
    c.rqpn = ibw_deth_get_srcqp(deth);
    c.byte_cnt = IBW_MAD_SIZE;
    c.opcode = IBW_CX3_RECV_SEND;
    c.wqe_counter = (uint16_t)p->received;
    write_cqe(p, &c);
    p->received++;
    return IBW_OK;
}

int cmx_gmp_poll(struct cmx_gmp_port *p, struct ibw_wc *wc)
{
    if (p->cq_ci == p->cq_pi)
        return 0;
    const uint8_t *e = p->cq[p->cq_ci % CMX_GMP_CQ];
    if (ibw_cx3_cqe_get_owner(e) != ((p->cq_ci / CMX_GMP_CQ) & 1u))
        return 0;
    p->cq_ci++;
    return ibw_cx3_cqe_to_wc(e, 32, wc) == IBW_OK ? 1 : 0;
}

/* ---- arbitration -------------------------------------------------------- */

void cmx_arb_init(struct cmx_arb *a)
{
    memset(a, 0, sizeof *a);
}

int cmx_arb_request(struct cmx_arb *a, uint32_t qpn, uint64_t token)
{
    if (a->n == CMX_ARB_MAX)
        return -1;
    a->req[a->n].qpn = qpn;
    a->req[a->n].seq = a->seq++;
    a->req[a->n].token = token;
    a->n++;
    return 0;
}

int cmx_arb_grant(struct cmx_arb *a, uint32_t *qpn, uint64_t *token)
{
    if (a->busy || !a->n)
        return 0;
    /* QP0 > QP1 > the others first come first served; the oldest request
     * wins within a class. */
    unsigned best = 0;
    for (unsigned i = 1; i < a->n; i++) {
        unsigned ci = a->req[i].qpn < 2 ? a->req[i].qpn : 2;
        unsigned cb = a->req[best].qpn < 2 ? a->req[best].qpn : 2;
        if (ci < cb || (ci == cb && a->req[i].seq < a->req[best].seq))
            best = i;
    }
    *qpn = a->req[best].qpn;
    *token = a->req[best].token;
    a->req[best] = a->req[--a->n];
    a->busy = 1; /* non-preemptive until cmx_arb_done() */
    return 1;
}

void cmx_arb_done(struct cmx_arb *a)
{
    a->busy = 0;
}
