/* SPDX-License-Identifier: Apache-2.0 */
/*
 * eng_wire.c - the engine's only contact with wire bytes: header metadata
 * (E18/E19/E20 contents) -> ibw_build(), and ibw_parse() -> metadata; the
 * header records' bus image through ibw_build_headers() and
 * ibw_parse_headers().
 * Framing: RoCEv2 over IPv4 by default, native IB (LRH, no GRH) optional.
 */
#include "eng.h"

#include "ibwire/packet.h"

/* The header fields of h into the spec's BTH and extended header structs;
 * the builder emits those the opcode takes. */
static void spec_from_hdr(const struct eng_hdr *h, struct ibw_build_spec *s)
{
    s->bth.opcode = h->opcode;
    s->bth.se = h->se;
    s->bth.padcnt = h->padcnt; /* ibw_build() computes its own */
    s->bth.pkey = h->pkey;
    s->bth.fecn = h->fecn;
    s->bth.becn = h->becn;
    s->bth.destqp = h->destqp;
    s->bth.ackreq = h->ackreq;
    s->bth.psn = h->psn;
    s->reth.va = h->va;
    s->reth.rkey = h->rkey;
    s->reth.dmalen = h->dmalen;
    s->atomiceth.va = h->va;
    s->atomiceth.rkey = h->rkey;
    s->atomiceth.swapdt = h->swap;
    s->atomiceth.cmpdt = h->cmp;
    s->aeth.syndrome = h->syndrome;
    s->aeth.msn = h->msn;
    s->atomicacketh.origremdt = h->orig;
    s->immdt.imm = h->imm;
    s->ieth.rkey = h->imm;
    s->deth.qkey = h->qkey;
    s->deth.srcqp = h->srcqp;
}

/* The header fields of a parsed view into h (zeroed first); the payload
 * length is the caller's. */
static void hdr_from_view(const struct ibw_pkt *p, struct eng_hdr *h)
{
    memset(h, 0, sizeof *h);
    const uint8_t *b = ibw_pkt_hdr(p, IBW_HDR_BTH), *x;
    h->opcode = ibw_bth_get_opcode(b);
    h->se = ibw_bth_get_se(b);
    h->padcnt = ibw_bth_get_padcnt(b);
    h->pkey = ibw_bth_get_pkey(b);
    h->fecn = ibw_bth_get_fecn(b);
    /* RoCEv2's forward congestion mark is IP ECN CE (annex A17.9); the
     * responder answers it as IB's FECN, with a CNP. */
    if ((x = ibw_pkt_hdr(p, IBW_HDR_IPV4)) && ibw_ipv4_get_ecn(x) == 3)
        h->fecn = 1;
    if ((x = ibw_pkt_hdr(p, IBW_HDR_IPV6)) && (ibw_ipv6_get_tclass(x) & 3) == 3)
        h->fecn = 1;
    h->becn = ibw_bth_get_becn(b);
    h->destqp = ibw_bth_get_destqp(b);
    h->ackreq = ibw_bth_get_ackreq(b);
    h->psn = ibw_bth_get_psn(b);
    if ((x = ibw_pkt_hdr(p, IBW_HDR_RETH))) {
        h->va = ibw_reth_get_va(x);
        h->rkey = ibw_reth_get_rkey(x);
        h->dmalen = ibw_reth_get_dmalen(x);
    }
    if ((x = ibw_pkt_hdr(p, IBW_HDR_ATOMICETH))) {
        h->va = ibw_atomiceth_get_va(x);
        h->rkey = ibw_atomiceth_get_rkey(x);
        h->swap = ibw_atomiceth_get_swapdt(x);
        h->cmp = ibw_atomiceth_get_cmpdt(x);
    }
    if ((x = ibw_pkt_hdr(p, IBW_HDR_AETH))) {
        h->syndrome = ibw_aeth_get_syndrome(x);
        h->msn = ibw_aeth_get_msn(x);
    }
    if ((x = ibw_pkt_hdr(p, IBW_HDR_ATOMICACKETH)))
        h->orig = ibw_atomicacketh_get_origremdt(x);
    if ((x = ibw_pkt_hdr(p, IBW_HDR_IMMDT)))
        h->imm = ibw_immdt_get_imm(x);
    if ((x = ibw_pkt_hdr(p, IBW_HDR_IETH)))
        h->imm = ibw_ieth_get_rkey(x);
    if ((x = ibw_pkt_hdr(p, IBW_HDR_DETH))) {
        h->qkey = ibw_deth_get_qkey(x);
        h->srcqp = ibw_deth_get_srcqp(x);
    }
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
        s.tos = 0x02; /* ECT(0): a congested link may mark it CE */
        s.udp_sport = (uint16_t)(0xC000u | (h->destqp & 0x3FFFu));
    }
    spec_from_hdr(h, &s);
    if (!s.bth.pkey)
        s.bth.pkey = 0xFFFF;
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
    return eng_wire_parse_ex(pkt, len, framing, h, payload, why, 0);
}

int eng_wire_parse_ex(const uint8_t *pkt, size_t len, uint8_t framing,
                      struct eng_hdr *h, const uint8_t **payload,
                      const char **why, int skip_icrc)
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
    if (!skip_icrc && (p.icrc_status != IBW_CRC_GOOD ||
        (ibw_pkt_has(&p, IBW_HDR_LRH) && p.vcrc_status == IBW_CRC_BAD))) {
        *why = "icrc";
        return IBW_E_CRC;
    }
    hdr_from_view(&p, h);
    h->paylen = p.payload_len;
    *payload = ibw_pkt_payload(&p);
    return IBW_OK;
}

size_t eng_hdr_to_bytes(const struct eng_hdr *h, uint8_t *out, size_t cap)
{
    struct ibw_build_spec s;
    memset(&s, 0, sizeof s);
    spec_from_hdr(h, &s);
    s.flags = IBW_BUILD_ANY_OPCODE; /* a reserved opcode: its BTH alone */
    size_t n = 0;
    if (ibw_build_headers(&s, out, cap, &n) != IBW_OK)
        return 0;
    return n;
}

int eng_hdr_from_bytes(const uint8_t *b, size_t len, struct eng_hdr *h)
{
    struct ibw_pkt p;
    int err = ibw_parse_headers(b, len, &p);
    if (err != IBW_OK)
        return err;
    hdr_from_view(&p, h);
    return IBW_OK;
}

/* Fault modes on a built frame (faults.h): what a buggy packet generator
 * put on the wire.  Each recomputes what it must so that only the bug
 * shows (a changed MigReq gets a good ICRC; VCRC follows the ICRC). */
void eng_wire_fault(const struct ibe_engine *e, uint8_t *buf, size_t n,
                    unsigned what)
{
    struct ibw_pkt p;
    enum ibw_link link = e->cfg.framing == IBE_FRAME_IB ? IBW_LINK_IB : IBW_LINK_ETHERNET;
    if (ibw_parse(buf, n, link, &p) != IBW_OK || !ibw_pkt_has(&p, IBW_HDR_BTH) ||
        p.icrc_status != IBW_CRC_GOOD)
        return;
    uint8_t *bth = buf + p.off[IBW_HDR_BTH];
    uint32_t off = p.icrc_off, pad = ibw_bth_get_padcnt(bth), crc;
    switch (what) {
    case ENG_WF_MIGREQ:
        ibw_bth_set_m(bth, 1);
        crc = ibw_icrc_compute(&p);
        ibw_store_le32(buf + off, crc);
        break;
    case ENG_WF_ICRC_NO_PAD:
        /* rxe before 2030abddec68: the CRC stops before the pad, and the
         * pad bytes are whatever the buffer held */
        if (!pad)
            return;
        p.icrc_off = off - pad;
        crc = ibw_icrc_compute(&p);
        memset(buf + off - pad, 0xA5, pad);
        ibw_store_le32(buf + off, crc);
        break;
    case ENG_WF_ICRC_PAD_OFFSET: {
        /* the right CRC, written where the payload ends: the pad after it */
        if (!pad)
            return;
        crc = ibw_icrc_compute(&p);
        uint8_t t[8];
        ibw_store_le32(t, crc);
        memset(t + 4, 0, 4);
        memcpy(buf + off - pad, t, 4 + pad);
        break;
    }
    case ENG_WF_ICRC_MASK: {
        /* the IPv4 identification masked too, as if it were variant */
        if (!ibw_pkt_has(&p, IBW_HDR_IPV4) || n > 4096 + 256)
            return;
        uint8_t copy[4096 + 256];
        struct ibw_pkt q;
        memcpy(copy, buf, n);
        copy[p.off[IBW_HDR_IPV4] + 4] = copy[p.off[IBW_HDR_IPV4] + 5] = 0xFF;
        if (ibw_parse(copy, n, link, &q) != IBW_OK)
            return;
        crc = ibw_icrc_compute(&q);
        ibw_store_le32(buf + off, crc);
        break;
    }
    default:
        return;
    }
    if (ibw_pkt_has(&p, IBW_HDR_LRH) && ibw_parse(buf, n, link, &p) == IBW_OK &&
        p.vcrc_off)
    {
        uint16_t v = ibw_vcrc_compute(&p);
        buf[p.vcrc_off] = (uint8_t)v;
        buf[p.vcrc_off + 1] = (uint8_t)(v >> 8);
    }
}

int eng_wire_fault_runt(const uint8_t *pkt, size_t len, uint8_t *out, size_t cap)
{
    /* Ethernet II, IPv4 without options, UDP: the receiver that does not
     * check the UDP length (faults.h RUNT_ACCEPT) */
    if (len > cap || len < 14 + 20 + 8 || ibw_load_be16(pkt + 12) != 0x0800 ||
        (pkt[14] & 0xF0) != 0x40 || (pkt[14] & 0x0F) != 5 || pkt[14 + 9] != 17)
        return 0;
    uint16_t total = ibw_load_be16(pkt + 14 + 2);
    if (total < 28 || (size_t)total + 14 > len)
        return 0;
    memcpy(out, pkt, len);
    ibw_store_be16(out + 14 + 20 + 4, (uint16_t)(total - 20));
    return 1;
}
