/* SPDX-License-Identifier: Apache-2.0 */
/*
 * eng_wire.c - the engine's only contact with wire bytes: header metadata
 * (E18/E19/E20 contents) -> ibw_build(), and ibw_parse() -> metadata.
 * Framing: RoCEv2 over IPv4 by default, native IB (LRH, no GRH) optional.
 */
#include "eng.h"

#include "ibwire/packet.h"

uint32_t eng_opflags(uint8_t opcode)
{
    const struct ibw_opcode_info *oi = ibw_opcode_info(opcode);
    if (!(oi->flags & IBW_OPF_VALID))
        return 0;
    uint32_t f = OPF_VALID;
    if (oi->hdrs & (1u << IBW_HDR_RETH)) f |= OPF_RETH;
    if (oi->hdrs & (1u << IBW_HDR_IMMDT)) f |= OPF_IMM;
    if (oi->hdrs & (1u << IBW_HDR_IETH)) f |= OPF_IETH;
    if (oi->hdrs & (1u << IBW_HDR_ATOMICETH)) f |= OPF_ATOMIC;
    if (oi->hdrs & (1u << IBW_HDR_AETH)) f |= OPF_AETH;
    if (oi->hdrs & (1u << IBW_HDR_ATOMICACKETH)) f |= OPF_ATOMICACK;
    if (oi->hdrs & (1u << IBW_HDR_DETH)) f |= OPF_DETH;
    if (oi->flags & IBW_OPF_PAYLOAD) f |= OPF_PAYLOAD;
    if ((oi->flags & IBW_OPF_ONLY) == IBW_OPF_ONLY) f |= OPF_ONLY;
    else if (oi->flags & IBW_OPF_FIRST) f |= OPF_FIRST;
    else if (oi->flags & IBW_OPF_LAST) f |= OPF_LAST;
    else if (oi->flags & IBW_OPF_MIDDLE) f |= OPF_MIDDLE;
    if (oi->flags & IBW_OPF_RESPONSE) f |= OPF_RESP;
    switch (oi->kind) {
    case IBW_OPK_SEND: f |= OPF_SEND; break;
    case IBW_OPK_WRITE: f |= OPF_WRITE; break;
    case IBW_OPK_READ: case IBW_OPK_READ_RESP: f |= OPF_READ; break;
    case IBW_OPK_ATOMIC: case IBW_OPK_ATOMIC_ACK: f |= OPF_ATOMICOP; break;
    default: break;
    }
    return f;
}

static void mac_of(uint32_t ip, uint8_t mac[6])
{
    mac[0] = 0x02; mac[1] = 0x00;
    ibw_store_be32(mac + 2, ip);
}

size_t eng_wire_build(const struct ibe_engine *e, const struct eng_hdr *h,
                      const uint8_t *payload, uint8_t *out, size_t cap)
{
    struct ibw_build_spec s;
    memset(&s, 0, sizeof s);
    /* Two-engine world: the peer's address is derived from ours. */
    uint32_t peer_ip = e->cfg.ipv4 ^ 1u;
    uint16_t peer_lid = (uint16_t)(e->cfg.lid ^ 1u);
    if (e->cfg.framing == IBE_FRAME_IB) {
        s.transport = IBW_TK_IB_LOCAL;
        s.lrh.sl = 0;
        s.lrh.dlid = peer_lid;
        s.lrh.slid = e->cfg.lid;
    } else {
        s.transport = IBW_TK_ROCE_V2_IP4;
        mac_of(peer_ip, s.dmac);
        memcpy(s.smac, e->cfg.mac, 6);
        ibw_store_be32(s.ip_src, e->cfg.ipv4);
        ibw_store_be32(s.ip_dst, peer_ip);
        s.ttl = 64;
        s.ip_df = 1;
        s.tos = 0x02; /* ECT(0): the link may mark CE via FECN instead */
        s.udp_sport = (uint16_t)(0xC000u | (h->destqp & 0x3FFFu));
    }
    s.bth.opcode = h->opcode;
    s.bth.se = h->se;
    s.bth.pkey = h->pkey ? h->pkey : 0xFFFF;
    s.bth.fecn = h->fecn;
    s.bth.becn = h->becn;
    s.bth.destqp = h->destqp;
    s.bth.ackreq = h->ackreq;
    s.bth.psn = h->psn;
    s.reth.va = h->va;
    s.reth.rkey = h->rkey;
    s.reth.dmalen = h->dmalen;
    s.atomiceth.va = h->va;
    s.atomiceth.rkey = h->rkey;
    s.atomiceth.swapdt = h->swap;
    s.atomiceth.cmpdt = h->cmp;
    s.aeth.syndrome = h->syndrome;
    s.aeth.msn = h->msn;
    s.atomicacketh.origremdt = h->orig;
    s.immdt.imm = h->imm;
    s.ieth.rkey = h->imm;
    s.deth.qkey = h->qkey;
    s.deth.srcqp = h->srcqp;
    s.payload = payload;
    s.payload_len = h->paylen;
    size_t n = 0;
    if (ibw_build(&s, out, cap, &n) != IBW_OK)
        return 0;
    return n;
}

int eng_wire_parse(const uint8_t *pkt, size_t len, uint8_t framing,
                   struct eng_hdr *h, const uint8_t **payload,
                   const char **why)
{
    struct ibw_pkt p;
    int err = ibw_parse(pkt, len,
                        framing == IBE_FRAME_IB ? IBW_LINK_IB
                                                : IBW_LINK_ETHERNET,
                        &p);
    *why = NULL;
    if (err != IBW_OK) {
        *why = p.err_hdr ? p.err_hdr : "packet";
        return err;
    }
    if (!ibw_pkt_has(&p, IBW_HDR_BTH)) {
        *why = "bth";
        return IBW_E_UNSUPPORTED;
    }
    if (p.icrc_status != IBW_CRC_GOOD ||
        (ibw_pkt_has(&p, IBW_HDR_LRH) && p.vcrc_status == IBW_CRC_BAD)) {
        *why = "icrc";
        return IBW_E_CRC;
    }
    memset(h, 0, sizeof *h);
    const uint8_t *b = ibw_pkt_hdr(&p, IBW_HDR_BTH);
    h->opcode = ibw_bth_get_opcode(b);
    h->se = ibw_bth_get_se(b);
    h->padcnt = ibw_bth_get_padcnt(b);
    h->pkey = ibw_bth_get_pkey(b);
    h->fecn = ibw_bth_get_fecn(b);
    h->becn = ibw_bth_get_becn(b);
    h->destqp = ibw_bth_get_destqp(b);
    h->ackreq = ibw_bth_get_ackreq(b);
    h->psn = ibw_bth_get_psn(b);
    const uint8_t *x;
    if ((x = ibw_pkt_hdr(&p, IBW_HDR_RETH))) {
        h->va = ibw_reth_get_va(x);
        h->rkey = ibw_reth_get_rkey(x);
        h->dmalen = ibw_reth_get_dmalen(x);
    }
    if ((x = ibw_pkt_hdr(&p, IBW_HDR_ATOMICETH))) {
        h->va = ibw_atomiceth_get_va(x);
        h->rkey = ibw_atomiceth_get_rkey(x);
        h->swap = ibw_atomiceth_get_swapdt(x);
        h->cmp = ibw_atomiceth_get_cmpdt(x);
    }
    if ((x = ibw_pkt_hdr(&p, IBW_HDR_AETH))) {
        h->syndrome = ibw_aeth_get_syndrome(x);
        h->msn = ibw_aeth_get_msn(x);
    }
    if ((x = ibw_pkt_hdr(&p, IBW_HDR_ATOMICACKETH)))
        h->orig = ibw_atomicacketh_get_origremdt(x);
    if ((x = ibw_pkt_hdr(&p, IBW_HDR_IMMDT)))
        h->imm = ibw_immdt_get_imm(x);
    if ((x = ibw_pkt_hdr(&p, IBW_HDR_IETH)))
        h->imm = ibw_ieth_get_rkey(x);
    if ((x = ibw_pkt_hdr(&p, IBW_HDR_DETH))) {
        h->qkey = ibw_deth_get_qkey(x);
        h->srcqp = ibw_deth_get_srcqp(x);
    }
    h->paylen = p.payload_len;
    *payload = ibw_pkt_payload(&p);
    return IBW_OK;
}

/* Extension headers in wire order after the BTH (IBA 9.2): their sizes. */
static const struct { uint32_t flag; size_t len; } ext_order[] = {
    {OPF_DETH, 8}, {OPF_RETH, 16}, {OPF_ATOMIC, 28}, {OPF_AETH, 4},
    {OPF_ATOMICACK, 8}, {OPF_IMM, 4}, {OPF_IETH, 4}};

size_t eng_hdr_to_bytes(const struct eng_hdr *h, uint8_t *out, size_t cap)
{
    uint32_t f = eng_opflags(h->opcode);
    size_t n = 12;
    for (size_t i = 0; i < sizeof ext_order / sizeof ext_order[0]; i++)
        if (f & ext_order[i].flag)
            n += ext_order[i].len;
    if (n > cap)
        return 0;
    memset(out, 0, n);
    ibw_bth_set_opcode(out, h->opcode);
    ibw_bth_set_se(out, h->se);
    ibw_bth_set_padcnt(out, h->padcnt);
    ibw_bth_set_pkey(out, h->pkey);
    ibw_bth_set_fecn(out, h->fecn);
    ibw_bth_set_becn(out, h->becn);
    ibw_bth_set_destqp(out, h->destqp);
    ibw_bth_set_ackreq(out, h->ackreq);
    ibw_bth_set_psn(out, h->psn);
    uint8_t *x = out + 12;
    if (f & OPF_DETH) {
        ibw_deth_set_qkey(x, h->qkey);
        ibw_deth_set_srcqp(x, h->srcqp);
        x += 8;
    }
    if (f & OPF_RETH) {
        ibw_reth_set_va(x, h->va);
        ibw_reth_set_rkey(x, h->rkey);
        ibw_reth_set_dmalen(x, h->dmalen);
        x += 16;
    }
    if (f & OPF_ATOMIC) {
        ibw_atomiceth_set_va(x, h->va);
        ibw_atomiceth_set_rkey(x, h->rkey);
        ibw_atomiceth_set_swapdt(x, h->swap);
        ibw_atomiceth_set_cmpdt(x, h->cmp);
        x += 28;
    }
    if (f & OPF_AETH) {
        ibw_aeth_set_syndrome(x, h->syndrome);
        ibw_aeth_set_msn(x, h->msn);
        x += 4;
    }
    if (f & OPF_ATOMICACK) {
        ibw_atomicacketh_set_origremdt(x, h->orig);
        x += 8;
    }
    if (f & OPF_IMM) {
        ibw_immdt_set_imm(x, h->imm);
        x += 4;
    }
    if (f & OPF_IETH)
        ibw_ieth_set_rkey(x, h->imm);
    return n;
}

int eng_hdr_from_bytes(const uint8_t *b, size_t len, struct eng_hdr *h)
{
    if (len < 12)
        return IBW_E_TRUNCATED;
    memset(h, 0, sizeof *h);
    h->opcode = ibw_bth_get_opcode(b);
    h->se = ibw_bth_get_se(b);
    h->padcnt = ibw_bth_get_padcnt(b);
    h->pkey = ibw_bth_get_pkey(b);
    h->fecn = ibw_bth_get_fecn(b);
    h->becn = ibw_bth_get_becn(b);
    h->destqp = ibw_bth_get_destqp(b);
    h->ackreq = ibw_bth_get_ackreq(b);
    h->psn = ibw_bth_get_psn(b);
    uint32_t f = eng_opflags(h->opcode);
    size_t need = 12;
    for (size_t i = 0; i < sizeof ext_order / sizeof ext_order[0]; i++)
        if (f & ext_order[i].flag)
            need += ext_order[i].len;
    if (need > len)
        return IBW_E_TRUNCATED;
    const uint8_t *x = b + 12;
    if (f & OPF_DETH) {
        h->qkey = ibw_deth_get_qkey(x);
        h->srcqp = ibw_deth_get_srcqp(x);
        x += 8;
    }
    if (f & OPF_RETH) {
        h->va = ibw_reth_get_va(x);
        h->rkey = ibw_reth_get_rkey(x);
        h->dmalen = ibw_reth_get_dmalen(x);
        x += 16;
    }
    if (f & OPF_ATOMIC) {
        h->va = ibw_atomiceth_get_va(x);
        h->rkey = ibw_atomiceth_get_rkey(x);
        h->swap = ibw_atomiceth_get_swapdt(x);
        h->cmp = ibw_atomiceth_get_cmpdt(x);
        x += 28;
    }
    if (f & OPF_AETH) {
        h->syndrome = ibw_aeth_get_syndrome(x);
        h->msn = ibw_aeth_get_msn(x);
        x += 4;
    }
    if (f & OPF_ATOMICACK) {
        h->orig = ibw_atomicacketh_get_origremdt(x);
        x += 8;
    }
    if (f & OPF_IMM) {
        h->imm = ibw_immdt_get_imm(x);
        x += 4;
    }
    if (f & OPF_IETH)
        h->imm = ibw_ieth_get_rkey(x);
    return IBW_OK;
}
