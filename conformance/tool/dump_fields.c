/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dump_fields.c - the field table of `ibwire dump -T fields`: frame,
 * Ethernet, 802.1Q, IPv4, IPv6, UDP, ERF, the InfiniBand transport
 * headers, and ibwire's own names.
 *
 * Wireshark names print what tshark 4.0 prints for them, including its
 * quirks (all checked against tshark by conformance/tests/dump):
 *   - ImmDt and IETH are byte fields that appear twice (the header item and
 *     the field inside it share the name);
 *   - AtomicETH's VA and R_Key use infiniband.reth.va / reth.r_key;
 *   - the ICRC prints as the big-endian number of its four wire bytes;
 *   - DETH Q_Key is 64-bit hex, DETH SrcQP 32-bit hex;
 *   - the payload goes to Wireshark's "data" dissector (data.data), pad
 *     bytes included;
 *   - opcodes tshark does not know (CNP, XRC, FLUSH, ATOMIC WRITE, reserved)
 *     show only the BTH and infiniband.vendor: the first 4 bytes after the
 *     BTH, then every byte after the BTH to the end of the packet (ICRC and
 *     VCRC included); no CRC field.  ibwire's own decode of those packets is
 *     in -T text / -T json and the ibwire.* names.
 * tshark mis-decodes RD (0x40-0x55) as a vendor transport; there ibwire
 * prints its own decode under the same names (rdeth.eecnxt, deth.*, ...).
 *
 * Frames cut short (snap length; ibw_pkt.cut), as tshark 4.0 shows them:
 *   - every header captured whole prints in full; of the header the cut
 *     falls in, the fields whose bytes were all captured (tshark adds the
 *     fields in wire order and stops at the first it cannot read; a field
 *     needs the bytes tshark reads for it: IPv6 traffic class and flow
 *     label, GRH traffic class and flow label read 2 or 4 bytes from the
 *     start, ImmDt/IETH all 4, RDETH a 3-byte field at byte 1);
 *   - the payload and CRCs follow tshark's own arithmetic (tshark_tail()):
 *     its payload length comes from LRH PktLen, GRH PayLen (RoCEv1), or for
 *     RoCEv2 from the bytes the IP layer hands over: the IP length capped by
 *     the record's original length.  A payload not wholly captured is not
 *     shown; then whatever stands 2, 4 or 6 bytes before the end of the
 *     reported packet decides which CRC items it adds, each shown only if
 *     captured.  So a snap-length capture (caplen < origlen) shows no
 *     payload and no ICRC, while a capture that wrote the cut length as the
 *     original length (mlx-uccl) shows the captured payload minus its last
 *     4 bytes, and those 4 bytes as the ICRC;
 *   - MADs (QP0/QP1) whose 256 bytes were not all captured show nothing of
 *     the MAD, no data and no CRC.
 */
#include <string.h>

#include "dump.h"
#include "ibwire/mad.h"

/* How tshark 4.0 treats an opcode. */
enum tshark_view {
    TV_KNOWN,  /* decoded: RC 0x00-0x14, 0x16, 0x17; UC 0x20-0x2B; UD 0x64,
                  0x65 */
    TV_RD,     /* RD: tshark is no reference; ibwire decodes */
    TV_VENDOR  /* "Unknown OpCode": BTH + vendor bytes only */
};

static enum tshark_view tshark_view(uint8_t op)
{
    if (op <= 0x14 || op == 0x16 || op == 0x17 || (op >= 0x20 && op <= 0x2B) ||
        op == 0x64 || op == 0x65)
        return TV_KNOWN;
    if (op >= 0x40 && op <= 0x55 && ibw_opcode_valid(op))
        return TV_RD;
    return TV_VENDOR;
}

/* Header h of the frame for a field that reads its first `need` bytes, or
 * NULL: a header in the view, or the one the capture cut when those bytes
 * were captured (see the top). */
static const uint8_t *hdr(const struct dump_frame *fr, enum ibw_hdr h,
                          size_t need)
{
    const struct ibw_pkt *p = fr->pkt;
    if (!p)
        return NULL;
    if (ibw_pkt_has(p, h))
        return p->data + p->off[h];
    if (p->cut && p->cut_hdr == h && (size_t)p->off[h] + need <= p->len)
        return p->data + p->off[h];
    return NULL;
}

/* An extended transport header, only where tshark would decode it. */
static const uint8_t *ext_hdr(const struct dump_frame *fr, enum ibw_hdr h,
                              size_t need)
{
    const uint8_t *p = hdr(fr, h, need);
    if (!p || tshark_view(fr->pkt->opcode) == TV_VENDOR)
        return NULL;
    return p;
}

/* A getter for one integer: `expr` over the header pointer h, which FIND
 * (hdr or ext_hdr) looks up for a field tshark reads from the first NEED
 * bytes of the header; absent when those are. */
#define INT_GETTER(fn, FIND, H, NEED, expr)                                   \
    DUMP_INT_GETTER(fn, h, FIND(fr, H, NEED), expr)

/* A getter for a byte field (address, GID) of n bytes at `expr`. */
#define BYTES_GETTER(fn, H, NEED, expr, n)                                    \
    DUMP_BYTES_GETTER(fn, h, hdr(fr, H, NEED), expr, n)

/* ---- frame ------------------------------------------------------------- */

static unsigned get_frame_number(const struct dump_frame *fr,
                                 struct dump_val *v)
{
    return dump_put_u(v, fr->cap->number);
}
static unsigned get_frame_len(const struct dump_frame *fr, struct dump_val *v)
{
    return dump_put_u(v, fr->cap->wire_len);
}
static unsigned get_frame_cap_len(const struct dump_frame *fr,
                                  struct dump_val *v)
{
    return dump_put_u(v, fr->cap_len);
}
static unsigned get_frame_time_epoch(const struct dump_frame *fr,
                                     struct dump_val *v)
{
    v->u = fr->ts_sec;
    v->len = fr->ts_nsec;
    return 1;
}
static unsigned get_erf_types(const struct dump_frame *fr, struct dump_val *v)
{
    return fr->cap->erf_type >= 0 ? dump_put_u(v, (uint64_t)fr->cap->erf_type) : 0;
}

/* ---- Ethernet, 802.1Q ---------------------------------------------------- */

BYTES_GETTER(get_eth_dst, IBW_HDR_ETH, ibw_eth_SIZE, ibw_eth_get_dmac(h), 6)
BYTES_GETTER(get_eth_src, IBW_HDR_ETH, ibw_eth_SIZE, ibw_eth_get_smac(h), 6)
INT_GETTER(get_eth_type, hdr, IBW_HDR_ETH, ibw_eth_SIZE, ibw_eth_get_ethertype(h))

/* Wireshark's vlan.* are the 0x8100 tags; an 802.1ad (0x88A8) tag is
 * another protocol to it.  The TPID sits in the two bytes before a tag.
 * `need`: the bytes of the tag the field reads (2 for the TCI, 4 for the
 * EtherType after it). */
static unsigned vlan_tags(const struct dump_frame *fr, const uint8_t **tags,
                          size_t need)
{
    static const enum ibw_hdr which[2] = {IBW_HDR_VLAN, IBW_HDR_VLAN2};
    unsigned n = 0;
    for (unsigned i = 0; i < 2; i++) {
        const uint8_t *t = hdr(fr, which[i], need);
        if (t && ibw_load_be16(t - 2) == IBW_ETHERTYPE_VLAN)
            tags[n++] = t;
    }
    return n;
}

#define VLAN_GETTER(fn, NEED, expr)                                           \
    static unsigned fn(const struct dump_frame *fr, struct dump_val *v)      \
    {                                                                         \
        const uint8_t *tags[2];                                               \
        unsigned n = vlan_tags(fr, tags, NEED);                               \
        for (unsigned i = 0; i < n; i++) {                                    \
            const uint8_t *h = tags[i];                                       \
            v[i].u = (uint64_t)(expr);                                        \
        }                                                                     \
        return n;                                                             \
    }
VLAN_GETTER(get_vlan_priority, 2, ibw_vlan_get_pcp(h))
VLAN_GETTER(get_vlan_dei, 2, ibw_vlan_get_dei(h))
VLAN_GETTER(get_vlan_id, 2, ibw_vlan_get_vid(h))
VLAN_GETTER(get_vlan_etype, 4, ibw_vlan_get_ethertype(h))

/* ---- IPv4, IPv6, UDP ----------------------------------------------------- */

BYTES_GETTER(get_ip_src, IBW_HDR_IPV4, 16, ibw_ipv4_get_saddr(h), 4)
BYTES_GETTER(get_ip_dst, IBW_HDR_IPV4, 20, ibw_ipv4_get_daddr(h), 4)
INT_GETTER(get_ip_hdr_len, hdr, IBW_HDR_IPV4, 1, ibw_ipv4_hdr_len(h))
INT_GETTER(get_ip_dsfield, hdr, IBW_HDR_IPV4, 2, h[1])
INT_GETTER(get_ip_dscp, hdr, IBW_HDR_IPV4, 2, ibw_ipv4_get_dscp(h))
INT_GETTER(get_ip_ecn, hdr, IBW_HDR_IPV4, 2, ibw_ipv4_get_ecn(h))
INT_GETTER(get_ip_len, hdr, IBW_HDR_IPV4, 4, ibw_ipv4_get_total_length(h))
INT_GETTER(get_ip_id, hdr, IBW_HDR_IPV4, 6, ibw_ipv4_get_id(h))
INT_GETTER(get_ip_df, hdr, IBW_HDR_IPV4, 8, ibw_ipv4_get_df(h))
INT_GETTER(get_ip_ttl, hdr, IBW_HDR_IPV4, 9, ibw_ipv4_get_ttl(h))
INT_GETTER(get_ip_proto, hdr, IBW_HDR_IPV4, 10, ibw_ipv4_get_protocol(h))
INT_GETTER(get_ip_checksum, hdr, IBW_HDR_IPV4, 12, ibw_ipv4_get_checksum(h))

BYTES_GETTER(get_ipv6_src, IBW_HDR_IPV6, 24, ibw_ipv6_get_saddr(h), 16)
BYTES_GETTER(get_ipv6_dst, IBW_HDR_IPV6, 40, ibw_ipv6_get_daddr(h), 16)
INT_GETTER(get_ipv6_tclass, hdr, IBW_HDR_IPV6, 4, ibw_ipv6_get_tclass(h))
INT_GETTER(get_ipv6_flow, hdr, IBW_HDR_IPV6, 4, ibw_ipv6_get_flowlabel(h))
INT_GETTER(get_ipv6_plen, hdr, IBW_HDR_IPV6, 7, ibw_ipv6_get_paylen(h))
INT_GETTER(get_ipv6_nxt, hdr, IBW_HDR_IPV6, 7, ibw_ipv6_get_nexthdr(h))
INT_GETTER(get_ipv6_hlim, hdr, IBW_HDR_IPV6, 8, ibw_ipv6_get_hoplimit(h))

INT_GETTER(get_udp_srcport, hdr, IBW_HDR_UDP, 4, ibw_udp_get_sport(h))
INT_GETTER(get_udp_dstport, hdr, IBW_HDR_UDP, 4, ibw_udp_get_dport(h))
INT_GETTER(get_udp_length, hdr, IBW_HDR_UDP, 6, ibw_udp_get_length(h))
INT_GETTER(get_udp_checksum, hdr, IBW_HDR_UDP, 8, ibw_udp_get_checksum(h))

/* ---- LRH, GRH, BTH ------------------------------------------------------- */

INT_GETTER(get_lrh_vl, hdr, IBW_HDR_LRH, ibw_lrh_SIZE, ibw_lrh_get_vl(h))
INT_GETTER(get_lrh_lver, hdr, IBW_HDR_LRH, ibw_lrh_SIZE, ibw_lrh_get_lver(h))
INT_GETTER(get_lrh_sl, hdr, IBW_HDR_LRH, ibw_lrh_SIZE, ibw_lrh_get_sl(h))
INT_GETTER(get_lrh_lnh, hdr, IBW_HDR_LRH, ibw_lrh_SIZE, ibw_lrh_get_lnh(h))
INT_GETTER(get_lrh_dlid, hdr, IBW_HDR_LRH, ibw_lrh_SIZE, ibw_lrh_get_dlid(h))
INT_GETTER(get_lrh_pktlen, hdr, IBW_HDR_LRH, ibw_lrh_SIZE, ibw_lrh_get_pktlen(h))
INT_GETTER(get_lrh_slid, hdr, IBW_HDR_LRH, ibw_lrh_SIZE, ibw_lrh_get_slid(h))

INT_GETTER(get_grh_ipver, hdr, IBW_HDR_GRH, ibw_grh_SIZE, ibw_grh_get_ipver(h))
INT_GETTER(get_grh_tclass, hdr, IBW_HDR_GRH, ibw_grh_SIZE, ibw_grh_get_tclass(h))
INT_GETTER(get_grh_flowlabel, hdr, IBW_HDR_GRH, ibw_grh_SIZE, ibw_grh_get_flowlabel(h))
INT_GETTER(get_grh_paylen, hdr, IBW_HDR_GRH, ibw_grh_SIZE, ibw_grh_get_paylen(h))
INT_GETTER(get_grh_nxthdr, hdr, IBW_HDR_GRH, ibw_grh_SIZE, ibw_grh_get_nxthdr(h))
INT_GETTER(get_grh_hoplmt, hdr, IBW_HDR_GRH, ibw_grh_SIZE, ibw_grh_get_hoplmt(h))
BYTES_GETTER(get_grh_sgid, IBW_HDR_GRH, ibw_grh_SIZE, ibw_grh_get_sgid(h), 16)
BYTES_GETTER(get_grh_dgid, IBW_HDR_GRH, ibw_grh_SIZE, ibw_grh_get_dgid(h), 16)

INT_GETTER(get_bth_opcode, hdr, IBW_HDR_BTH, ibw_bth_SIZE, ibw_bth_get_opcode(h))
INT_GETTER(get_bth_se, hdr, IBW_HDR_BTH, ibw_bth_SIZE, ibw_bth_get_se(h))
INT_GETTER(get_bth_m, hdr, IBW_HDR_BTH, ibw_bth_SIZE, ibw_bth_get_m(h))
INT_GETTER(get_bth_padcnt, hdr, IBW_HDR_BTH, ibw_bth_SIZE, ibw_bth_get_padcnt(h))
INT_GETTER(get_bth_tver, hdr, IBW_HDR_BTH, ibw_bth_SIZE, ibw_bth_get_tver(h))
INT_GETTER(get_bth_pkey, hdr, IBW_HDR_BTH, ibw_bth_SIZE, ibw_bth_get_pkey(h))
INT_GETTER(get_bth_destqp, hdr, IBW_HDR_BTH, ibw_bth_SIZE, ibw_bth_get_destqp(h))
INT_GETTER(get_bth_a, hdr, IBW_HDR_BTH, ibw_bth_SIZE, ibw_bth_get_ackreq(h))
INT_GETTER(get_bth_psn, hdr, IBW_HDR_BTH, ibw_bth_SIZE, ibw_bth_get_psn(h))
INT_GETTER(get_bth_fecn, hdr, IBW_HDR_BTH, ibw_bth_SIZE, ibw_bth_get_fecn(h))
INT_GETTER(get_bth_becn, hdr, IBW_HDR_BTH, ibw_bth_SIZE, ibw_bth_get_becn(h))

/* ---- extended transport headers ------------------------------------------ */

INT_GETTER(get_rdeth_eecnxt, ext_hdr, IBW_HDR_RDETH, ibw_rdeth_SIZE, ibw_rdeth_get_eecnxt(h))
INT_GETTER(get_deth_qkey, ext_hdr, IBW_HDR_DETH, ibw_deth_SIZE, ibw_deth_get_qkey(h))
INT_GETTER(get_deth_srcqp, ext_hdr, IBW_HDR_DETH, ibw_deth_SIZE, ibw_deth_get_srcqp(h))
INT_GETTER(get_reth_dmalen, ext_hdr, IBW_HDR_RETH, ibw_reth_SIZE, ibw_reth_get_dmalen(h))

/* VA and R_Key of the RETH or, under the same names, of the AtomicETH. */
static unsigned get_reth_va(const struct dump_frame *fr, struct dump_val *v)
{
    const uint8_t *h = ext_hdr(fr, IBW_HDR_RETH, ibw_reth_SIZE);
    if (h)
        return dump_put_u(v, ibw_reth_get_va(h));
    h = ext_hdr(fr, IBW_HDR_ATOMICETH, ibw_atomiceth_SIZE);
    return h ? dump_put_u(v, ibw_atomiceth_get_va(h)) : 0;
}
static unsigned get_reth_rkey(const struct dump_frame *fr, struct dump_val *v)
{
    const uint8_t *h = ext_hdr(fr, IBW_HDR_RETH, ibw_reth_SIZE);
    if (h)
        return dump_put_u(v, ibw_reth_get_rkey(h));
    h = ext_hdr(fr, IBW_HDR_ATOMICETH, ibw_atomiceth_SIZE);
    return h ? dump_put_u(v, ibw_atomiceth_get_rkey(h)) : 0;
}

INT_GETTER(get_atomiceth_swapdt, ext_hdr, IBW_HDR_ATOMICETH, ibw_atomiceth_SIZE,
           ibw_atomiceth_get_swapdt(h))
INT_GETTER(get_atomiceth_cmpdt, ext_hdr, IBW_HDR_ATOMICETH, ibw_atomiceth_SIZE,
           ibw_atomiceth_get_cmpdt(h))
INT_GETTER(get_atomicacketh_origremdt, ext_hdr, IBW_HDR_ATOMICACKETH, ibw_atomicacketh_SIZE,
           ibw_atomicacketh_get_origremdt(h))

INT_GETTER(get_aeth_syndrome, ext_hdr, IBW_HDR_AETH, ibw_aeth_SIZE, ibw_aeth_get_syndrome(h))
INT_GETTER(get_aeth_kind, ext_hdr, IBW_HDR_AETH, ibw_aeth_SIZE,
           ibw_aeth_syndrome_kind(ibw_aeth_get_syndrome(h)))
INT_GETTER(get_aeth_msn, ext_hdr, IBW_HDR_AETH, ibw_aeth_SIZE, ibw_aeth_get_msn(h))

/* The 5-bit syndrome value, under the name its kind gives it. */
static unsigned aeth_value(const struct dump_frame *fr, struct dump_val *v,
                           unsigned kind)
{
    const uint8_t *h = ext_hdr(fr, IBW_HDR_AETH, ibw_aeth_SIZE);
    if (!h)
        return 0;
    uint8_t s = ibw_aeth_get_syndrome(h);
    if (ibw_aeth_syndrome_kind(s) != kind)
        return 0;
    return dump_put_u(v, ibw_aeth_syndrome_value(s));
}
static unsigned get_aeth_credit(const struct dump_frame *fr,
                                struct dump_val *v)
{
    return aeth_value(fr, v, IBW_AETH_ACK);
}
static unsigned get_aeth_timer(const struct dump_frame *fr, struct dump_val *v)
{
    return aeth_value(fr, v, IBW_AETH_RNR_NAK);
}
static unsigned get_aeth_error(const struct dump_frame *fr, struct dump_val *v)
{
    return aeth_value(fr, v, IBW_AETH_NAK);
}

/* ImmDt and IETH: tshark shows the 4 bytes twice (header item + field). */
static unsigned twice(struct dump_val *v, const uint8_t *h)
{
    if (!h)
        return 0;
    dump_put_bytes(&v[0], h, 4);
    dump_put_bytes(&v[1], h, 4);
    return 2;
}
static unsigned get_immdt(const struct dump_frame *fr, struct dump_val *v)
{
    return twice(v, ext_hdr(fr, IBW_HDR_IMMDT, ibw_immdt_SIZE));
}
static unsigned get_ieth(const struct dump_frame *fr, struct dump_val *v)
{
    return twice(v, ext_hdr(fr, IBW_HDR_IETH, ibw_ieth_SIZE));
}

/* Never printed: tshark 4.0 hands IBA payloads to the data dissector
 * (data.data) and fills infiniband.payload only for EtherType-encapsulated
 * raw packets, which ibwire does not emulate. */
static unsigned get_none(const struct dump_frame *fr, struct dump_val *v)
{
    (void)fr;
    (void)v;
    return 0;
}

static int vendor_view(const struct dump_frame *fr)
{
    return hdr(fr, IBW_HDR_BTH, ibw_bth_SIZE) &&
           tshark_view(fr->pkt->opcode) == TV_VENDOR;
}

/* The opcodes whose bytes after the headers tshark hands to its payload
 * code: those with a payload, and RDMA READ REQUEST (none per the IBA). */
static int tshark_has_payload(uint8_t op)
{
    return (ibw_opcode_info(op)->flags & IBW_OPF_PAYLOAD) || op == 0x0C;
}

/* UD to or from QP0/QP1: tshark hands the payload to its MAD dissector. */
static int mad_packet(const struct dump_frame *fr)
{
    const uint8_t *bth = hdr(fr, IBW_HDR_BTH, ibw_bth_SIZE);
    const uint8_t *deth = hdr(fr, IBW_HDR_DETH, ibw_deth_SIZE);
    return bth && deth &&
           (ibw_bth_get_destqp(bth) <= 1 || ibw_deth_get_srcqp(deth) <= 1);
}

int dump_tshark_tail(const struct dump_frame *fr, struct dump_tail *t)
{
    const struct ibw_pkt *p = fr->pkt;
    memset(t, 0, sizeof *t);
    if (!p || !ibw_pkt_has(p, IBW_HDR_BTH) || vendor_view(fr))
        return 0;
    int mad = mad_packet(fr);
    if (!p->cut) {
        /* a whole packet: the payload and pad of a packet that decodes,
         * the ICRC wherever it was located */
        t->payload = p->err == IBW_OK;
        t->payload_off = p->payload_off;
        t->payload_len = (size_t)p->payload_len + p->pad;
        t->data = t->payload && !mad && t->payload_len;
        t->icrc = p->icrc_status != IBW_CRC_ABSENT;
        t->icrc_off = p->icrc_off;
        t->vcrc = p->vcrc_status != IBW_CRC_ABSENT;
        t->vcrc_off = p->vcrc_off;
        return 1;
    }
    if (p->cut_hdr != IBW_HDR_COUNT || p->payload_off == 0)
        return 0; /* tshark stopped inside a header */
    /* tshark's arithmetic over its IB data: `rep` where the layer below
     * says it ends (the record's length, for RoCEv2 capped by the IP
     * length); `need` how far the length fields say the packet goes (LRH
     * PktLen on native IB; the data itself on RoCE), all of which must be
     * captured for it to look at the payload; `crcs` the bytes it keeps back
     * from the payload for the CRCs */
    size_t cap = p->len, pay = p->payload_off;
    size_t rep = fr->rep_len, need, crcs = 4;
    if (p->transport == IBW_TK_ROCE_V2_IP4 ||
        p->transport == IBW_TK_ROCE_V2_IP6) {
        if (p->wire_len < rep)
            rep = p->wire_len;
        need = rep;
    } else if (p->transport == IBW_TK_ROCE_V1) {
        need = rep;
    } else { /* native IB */
        need = p->wire_len - 2;
        crcs = 6;
    }
    size_t rest = rep - pay; /* rep >= cap >= pay */
    size_t off = pay;        /* where tshark's offset stands after that */
    if (mad) {
        /* its MAD dissector reads all 256 bytes or gives up quietly */
        if (need <= cap && rest >= IBW_MAD_SIZE + crcs - 4) {
            t->payload = 1;
            t->payload_off = pay;
            t->payload_len = IBW_MAD_SIZE;
            off = pay + IBW_MAD_SIZE;
        }
    } else if (tshark_has_payload(p->opcode) && need <= cap) {
        /* the payload: what is left before the CRC bytes (all of it when
         * fewer are left), and the offset moved to where the CRCs would
         * start, even back into the headers */
        size_t n = rest >= crcs ? rest - crcs : rest;
        if (n > cap - pay)
            n = cap - pay;
        t->payload = t->data = n > 0;
        t->payload_off = pay;
        t->payload_len = n;
        off = pay + rest - crcs;
    }
    /* the CRC items: by what remains of the reported packet, each shown
     * only when captured */
    size_t left = rep > off ? rep - off : 0;
    if ((left == 4 || left == 6) && off + 4 <= cap) {
        t->icrc = 1;
        t->icrc_off = off;
        if (left == 6 && off + 6 <= cap) {
            t->vcrc = 1;
            t->vcrc_off = off + 4;
        }
    } else if (left == 2 && off + 2 <= cap) {
        t->vcrc = 1;
        t->vcrc_off = off;
    }
    return 1;
}

static unsigned get_vendor(const struct dump_frame *fr, struct dump_val *v)
{
    if (!vendor_view(fr))
        return 0;
    const struct ibw_pkt *p = fr->pkt;
    size_t start = p->off[IBW_HDR_BTH] + (size_t)ibw_bth_SIZE;
    size_t end = p->iba_end ? p->iba_end : p->len;
    if (end <= start)
        return 0;
    size_t n = end - start;
    if (p->cut && n < 4)
        return 0; /* tshark's 4-byte vendor item cannot be read */
    dump_put_bytes(&v[0], p->data + start, n < 4 ? n : 4);
    dump_put_bytes(&v[1], p->data + start, n);
    return 2;
}

/* The ICRC as tshark prints it: its wire bytes as a big-endian number. */
static unsigned get_icrc(const struct dump_frame *fr, struct dump_val *v)
{
    struct dump_tail t;
    if (!dump_tshark_tail(fr, &t) || !t.icrc)
        return 0;
    return dump_put_u(v, ibw_load_be32(fr->pkt->data + t.icrc_off));
}

static unsigned get_vcrc(const struct dump_frame *fr, struct dump_val *v)
{
    const struct ibw_pkt *p = fr->pkt;
    if (!p || vendor_view(fr))
        return 0;
    if (p->transport == IBW_TK_IB_RAW) {
        if (p->vcrc_status == IBW_CRC_ABSENT || p->cut)
            return 0;
        /* raw packets: tshark shows the VCRC twice */
        v[0].u = v[1].u = ibw_load_be16(p->data + p->vcrc_off);
        return 2;
    }
    struct dump_tail t;
    if (!dump_tshark_tail(fr, &t) || !t.vcrc)
        return 0;
    return dump_put_u(v, ibw_load_be16(p->data + t.vcrc_off));
}

/* Undissected bytes after the headers: payload and pad, or for a raw packet
 * what follows its 4-byte raw header, up to the VCRC. */
static unsigned get_data(const struct dump_frame *fr, struct dump_val *v)
{
    const struct ibw_pkt *p = fr->pkt;
    if (!p)
        return 0;
    if (p->transport == IBW_TK_IB_RAW) {
        size_t start = ibw_lrh_SIZE + 4;
        if (p->err != IBW_OK || p->vcrc_off <= start)
            return 0;
        return dump_put_bytes(v, p->data + start, p->vcrc_off - start);
    }
    struct dump_tail t;
    if (!dump_tshark_tail(fr, &t) || !t.data)
        return 0;
    return dump_put_bytes(v, p->data + t.payload_off, t.payload_len);
}

/* ---- ibwire's own names --------------------------------------------------- */

const char *dump_crc_status_name(uint8_t s)
{
    switch (s) {
    case IBW_CRC_GOOD: return "good";
    case IBW_CRC_BAD: return "bad";
    case IBW_CRC_UNCHECKED: return "unchecked";
    default: return "absent";
    }
}

/* Carried and computed values exist for a CRC that was checked. */
static int verified(uint8_t status)
{
    return status == IBW_CRC_GOOD || status == IBW_CRC_BAD;
}

/* Verdict, carried and computed value of the ICRC or VCRC. */
#define CRC_GETTERS(name, status, wire, calc)                                 \
    static unsigned get_##name##_status(const struct dump_frame *fr,         \
                                        struct dump_val *v)                  \
    {                                                                         \
        return fr->pkt ? dump_put_str(v, dump_crc_status_name(fr->pkt->status))   \
                       : 0;                                                   \
    }                                                                         \
    static unsigned get_##name##_wire(const struct dump_frame *fr,           \
                                      struct dump_val *v)                    \
    {                                                                         \
        const struct ibw_pkt *p = fr->pkt;                                    \
        return p && verified(p->status) ? dump_put_u(v, p->wire) : 0;         \
    }                                                                         \
    static unsigned get_##name##_calc(const struct dump_frame *fr,           \
                                      struct dump_val *v)                    \
    {                                                                         \
        const struct ibw_pkt *p = fr->pkt;                                    \
        return p && verified(p->status) ? dump_put_u(v, p->calc) : 0;         \
    }
CRC_GETTERS(icrc, icrc_status, icrc_wire, icrc_calc)
CRC_GETTERS(vcrc, vcrc_status, vcrc_wire, vcrc_calc)

static unsigned get_ip_csum_status(const struct dump_frame *fr,
                                   struct dump_val *v)
{
    if (!hdr(fr, IBW_HDR_IPV4, ibw_ipv4_SIZE))
        return 0;
    return dump_put_str(v, dump_crc_status_name(fr->pkt->ip_csum_status));
}
static unsigned get_error(const struct dump_frame *fr, struct dump_val *v)
{
    return fr->err[0] ? dump_put_str(v, fr->err) : 0;
}
static unsigned get_truncated(const struct dump_frame *fr, struct dump_val *v)
{
    return dump_put_u(v, (uint64_t)fr->cap->truncated);
}
static unsigned get_not_iba(const struct dump_frame *fr, struct dump_val *v)
{
    return fr->cap->not_iba ? dump_put_str(v, fr->cap->not_iba) : 0;
}

const char *dump_transport_name(uint8_t tk)
{
    switch (tk) {
    case IBW_TK_IB_LOCAL: return "ib-local";
    case IBW_TK_IB_GLOBAL: return "ib-global";
    case IBW_TK_IB_RAW: return "ib-raw";
    case IBW_TK_ROCE_V1: return "rocev1";
    case IBW_TK_ROCE_V2_IP4: return "rocev2-ipv4";
    case IBW_TK_ROCE_V2_IP6: return "rocev2-ipv6";
    default: return "none";
    }
}
static unsigned get_transport(const struct dump_frame *fr, struct dump_val *v)
{
    return fr->pkt ? dump_put_str(v, dump_transport_name(fr->pkt->transport)) : 0;
}
static unsigned get_opcode_name(const struct dump_frame *fr,
                                struct dump_val *v)
{
    const uint8_t *bth = hdr(fr, IBW_HDR_BTH, ibw_bth_SIZE);
    if (!bth)
        return 0;
    return dump_put_str(v, ibw_opcode_info(ibw_bth_get_opcode(bth))->name);
}
/* The payload of a packet that decodes, or the part captured of a cut one
 * whose headers were all captured. */
static int payload_known(const struct ibw_pkt *p)
{
    return ibw_pkt_has(p, IBW_HDR_BTH) &&
           (p->err == IBW_OK ||
            (p->cut && p->cut_hdr == IBW_HDR_COUNT && p->payload_off));
}
static unsigned get_payload_len(const struct dump_frame *fr,
                                struct dump_val *v)
{
    const struct ibw_pkt *p = fr->pkt;
    return p && payload_known(p) ? dump_put_u(v, p->payload_len) : 0;
}
static unsigned get_payload_wire_len(const struct dump_frame *fr,
                                     struct dump_val *v)
{
    const struct ibw_pkt *p = fr->pkt;
    return p && payload_known(p) ? dump_put_u(v, p->payload_wire_len) : 0;
}
static unsigned get_cut(const struct dump_frame *fr, struct dump_val *v)
{
    return fr->pkt ? dump_put_u(v, fr->pkt->cut) : 0;
}
static unsigned get_cut_header(const struct dump_frame *fr,
                               struct dump_val *v)
{
    const struct ibw_pkt *p = fr->pkt;
    if (!p || !p->cut)
        return 0;
    return dump_put_str(v, p->cut_hdr < IBW_HDR_COUNT ? ibw_hdr_name(p->cut_hdr)
                                                      : "payload");
}
static unsigned get_wire_len(const struct dump_frame *fr, struct dump_val *v)
{
    const struct ibw_pkt *p = fr->pkt;
    return p && p->wire_len ? dump_put_u(v, p->wire_len) : 0;
}
INT_GETTER(get_xrceth_srq, hdr, IBW_HDR_XRCETH, ibw_xrceth_SIZE, ibw_xrceth_get_xrcsrq(h))
INT_GETTER(get_feth_sel, hdr, IBW_HDR_FETH, ibw_feth_SIZE, ibw_feth_get_sel(h))
INT_GETTER(get_feth_plt, hdr, IBW_HDR_FETH, ibw_feth_SIZE, ibw_feth_get_plt(h))

/* ---- the table ------------------------------------------------------------ */

const struct dump_field dump_fields_base[] = {
    {"frame.number", DT_DEC, get_frame_number, "frame number, from 1"},
    {"frame.len", DT_DEC, get_frame_len, "frame length on the wire"},
    {"frame.cap_len", DT_DEC, get_frame_cap_len, "bytes captured"},
    {"frame.time_epoch", DT_TIME, get_frame_time_epoch,
     "capture time, seconds since 1970"},
    {"erf.types", DT_HEX8, get_erf_types, "ERF record type byte"},

    {"eth.dst", DT_ETHER, get_eth_dst, "destination MAC"},
    {"eth.src", DT_ETHER, get_eth_src, "source MAC"},
    {"eth.type", DT_HEX16, get_eth_type, "EtherType of the Ethernet header"},
    {"vlan.priority", DT_DEC, get_vlan_priority, "802.1Q priority (PCP)"},
    {"vlan.dei", DT_BOOL, get_vlan_dei, "802.1Q drop eligible"},
    {"vlan.id", DT_DEC, get_vlan_id, "802.1Q VLAN ID"},
    {"vlan.etype", DT_HEX16, get_vlan_etype, "EtherType after the tag"},

    {"ip.src", DT_IPV4, get_ip_src, "IPv4 source"},
    {"ip.dst", DT_IPV4, get_ip_dst, "IPv4 destination"},
    {"ip.hdr_len", DT_DEC, get_ip_hdr_len, "IPv4 header bytes"},
    {"ip.dsfield", DT_HEX8, get_ip_dsfield, "IPv4 TOS byte"},
    {"ip.dsfield.dscp", DT_DEC, get_ip_dscp, "IPv4 DSCP"},
    {"ip.dsfield.ecn", DT_DEC, get_ip_ecn, "IPv4 ECN"},
    {"ip.len", DT_DEC, get_ip_len, "IPv4 total length"},
    {"ip.id", DT_HEX16, get_ip_id, "IPv4 identification"},
    {"ip.flags.df", DT_BOOL, get_ip_df, "IPv4 don't fragment"},
    {"ip.ttl", DT_DEC, get_ip_ttl, "IPv4 TTL"},
    {"ip.proto", DT_DEC, get_ip_proto, "IPv4 protocol"},
    {"ip.checksum", DT_HEX16, get_ip_checksum, "IPv4 header checksum"},
    {"ipv6.src", DT_IPV6, get_ipv6_src, "IPv6 source"},
    {"ipv6.dst", DT_IPV6, get_ipv6_dst, "IPv6 destination"},
    {"ipv6.tclass", DT_HEX32, get_ipv6_tclass, "IPv6 traffic class"},
    {"ipv6.flow", DT_HEX24, get_ipv6_flow, "IPv6 flow label"},
    {"ipv6.plen", DT_DEC, get_ipv6_plen, "IPv6 payload length"},
    {"ipv6.nxt", DT_DEC, get_ipv6_nxt, "IPv6 next header"},
    {"ipv6.hlim", DT_DEC, get_ipv6_hlim, "IPv6 hop limit"},
    {"udp.srcport", DT_DEC, get_udp_srcport, "UDP source port"},
    {"udp.dstport", DT_DEC, get_udp_dstport, "UDP destination port"},
    {"udp.length", DT_DEC, get_udp_length, "UDP length"},
    {"udp.checksum", DT_HEX16, get_udp_checksum, "UDP checksum"},

    {"infiniband.lrh.vl", DT_HEX8, get_lrh_vl, "LRH virtual lane"},
    {"infiniband.lrh.lver", DT_DEC, get_lrh_lver, "LRH link version"},
    {"infiniband.lrh.sl", DT_DEC, get_lrh_sl, "LRH service level"},
    {"infiniband.lrh.lnh", DT_HEX8, get_lrh_lnh, "LRH link next header"},
    {"infiniband.lrh.dlid", DT_DEC, get_lrh_dlid, "LRH destination LID"},
    {"infiniband.lrh.pktlen", DT_DEC, get_lrh_pktlen,
     "LRH packet length (words)"},
    {"infiniband.lrh.slid", DT_DEC, get_lrh_slid, "LRH source LID"},
    {"infiniband.grh.ipver", DT_DEC, get_grh_ipver, "GRH IP version"},
    {"infiniband.grh.tclass", DT_DEC, get_grh_tclass, "GRH traffic class"},
    {"infiniband.grh.flowlabel", DT_DEC, get_grh_flowlabel, "GRH flow label"},
    {"infiniband.grh.paylen", DT_DEC, get_grh_paylen, "GRH payload length"},
    {"infiniband.grh.nxthdr", DT_DEC, get_grh_nxthdr, "GRH next header"},
    {"infiniband.grh.hoplmt", DT_DEC, get_grh_hoplmt, "GRH hop limit"},
    {"infiniband.grh.sgid", DT_IPV6, get_grh_sgid, "GRH source GID"},
    {"infiniband.grh.dgid", DT_IPV6, get_grh_dgid, "GRH destination GID"},
    {"infiniband.bth.opcode", DT_DEC, get_bth_opcode, "BTH opcode"},
    {"infiniband.bth.se", DT_BOOL, get_bth_se, "BTH solicited event"},
    {"infiniband.bth.m", DT_BOOL, get_bth_m, "BTH migration request"},
    {"infiniband.bth.padcnt", DT_DEC, get_bth_padcnt, "BTH pad count"},
    {"infiniband.bth.tver", DT_DEC, get_bth_tver, "BTH transport version"},
    {"infiniband.bth.p_key", DT_DEC, get_bth_pkey, "BTH partition key"},
    {"infiniband.bth.destqp", DT_HEX24, get_bth_destqp, "BTH destination QP"},
    {"infiniband.bth.a", DT_BOOL, get_bth_a, "BTH acknowledge request"},
    {"infiniband.bth.psn", DT_DEC, get_bth_psn, "BTH PSN"},
    {"infiniband.rdeth.eecnxt", DT_DEC, get_rdeth_eecnxt, "RDETH EE context"},
    {"infiniband.deth.q_key", DT_HEX64, get_deth_qkey, "DETH Q_Key"},
    {"infiniband.deth.srcqp", DT_HEX32, get_deth_srcqp, "DETH source QP"},
    {"infiniband.reth.va", DT_HEX64, get_reth_va,
     "RETH (or AtomicETH) virtual address"},
    {"infiniband.reth.r_key", DT_HEX32, get_reth_rkey,
     "RETH (or AtomicETH) R_Key"},
    {"infiniband.reth.dmalen", DT_DEC, get_reth_dmalen, "RETH DMA length"},
    {"infiniband.atomiceth.swapdt", DT_DEC, get_atomiceth_swapdt,
     "AtomicETH swap/add data"},
    {"infiniband.atomiceth.cmpdt", DT_DEC, get_atomiceth_cmpdt,
     "AtomicETH compare data"},
    {"infiniband.atomicacketh.origremdt", DT_DEC, get_atomicacketh_origremdt,
     "AtomicAckETH original remote data"},
    {"infiniband.aeth.syndrome", DT_DEC, get_aeth_syndrome, "AETH syndrome"},
    {"infiniband.aeth.syndrome.opcode", DT_DEC, get_aeth_kind,
     "AETH syndrome kind: 0 ACK, 1 RNR NAK, 2 reserved, 3 NAK"},
    {"infiniband.aeth.syndrome.credit_count", DT_DEC, get_aeth_credit,
     "AETH credit code (ACK)"},
    {"infiniband.aeth.syndrome.timer", DT_DEC, get_aeth_timer,
     "AETH RNR timer code (RNR NAK)"},
    {"infiniband.aeth.syndrome.error_code", DT_DEC, get_aeth_error,
     "AETH NAK code"},
    {"infiniband.aeth.msn", DT_DEC, get_aeth_msn, "AETH MSN"},
    {"infiniband.immdt", DT_BYTES, get_immdt, "immediate data (twice)"},
    {"infiniband.ieth", DT_BYTES, get_ieth, "IETH R_Key (twice)"},
    {"infiniband.payload", DT_BYTES, get_none,
     "never set (tshark uses data.data)"},
    {"infiniband.vendor", DT_BYTES, get_vendor,
     "bytes after the BTH of an opcode tshark does not know"},
    {"infiniband.invariant.crc", DT_HEX32, get_icrc,
     "ICRC wire bytes as a big-endian number"},
    {"infiniband.variant.crc", DT_HEX16, get_vcrc,
     "VCRC wire bytes as a big-endian number"},
    {"data.data", DT_BYTES, get_data, "payload and pad bytes"},

    {"ibwire.error", DT_STRING, get_error,
     "why the frame does not decode: header.field: problem"},
    {"ibwire.not_iba", DT_STRING, get_not_iba,
     "why the frame holds no IBA bytes (link framing)"},
    {"ibwire.truncated", DT_BOOL, get_truncated, "cut short at capture"},
    {"ibwire.transport", DT_STRING, get_transport,
     "ib-local, ib-global, ib-raw, rocev1, rocev2-ipv4, rocev2-ipv6, none"},
    {"ibwire.opcode.name", DT_STRING, get_opcode_name, "IBA opcode name"},
    {"ibwire.payload.len", DT_DEC, get_payload_len,
     "payload bytes (no pad); of a cut frame, those captured"},
    {"ibwire.payload.wire_len", DT_DEC, get_payload_wire_len,
     "payload bytes the packet carried (no pad), cut or not"},
    {"ibwire.cut", DT_BOOL, get_cut,
     "the bytes end before the length fields say (snap length)"},
    {"ibwire.cut.header", DT_STRING, get_cut_header,
     "of a cut frame: the first header not wholly captured, or payload"},
    {"ibwire.wire_len", DT_DEC, get_wire_len,
     "bytes to the end of the IBA (or IP) packet, as its length fields "
     "say"},
    {"ibwire.bth.fecn", DT_BOOL, get_bth_fecn, "BTH FECN"},
    {"ibwire.bth.becn", DT_BOOL, get_bth_becn, "BTH BECN"},
    {"ibwire.xrceth.xrcsrq", DT_HEX24, get_xrceth_srq, "XRCETH XRC SRQ"},
    {"ibwire.feth.sel", DT_DEC, get_feth_sel, "FETH selectivity level"},
    {"ibwire.feth.plt", DT_DEC, get_feth_plt, "FETH placement type"},
    {"ibwire.icrc.status", DT_STRING, get_icrc_status,
     "ICRC verdict: good, bad, unchecked (frame cut), absent"},
    {"ibwire.icrc.wire", DT_HEX32, get_icrc_wire, "ICRC value carried"},
    {"ibwire.icrc.calc", DT_HEX32, get_icrc_calc, "ICRC value computed"},
    {"ibwire.vcrc.status", DT_STRING, get_vcrc_status,
     "VCRC verdict: good, bad, unchecked (frame cut), absent"},
    {"ibwire.vcrc.wire", DT_HEX16, get_vcrc_wire, "VCRC value carried"},
    {"ibwire.vcrc.calc", DT_HEX16, get_vcrc_calc, "VCRC value computed"},
    {"ibwire.ip.checksum.status", DT_STRING, get_ip_csum_status,
     "IPv4 header checksum verdict: good, bad, unchecked (options cut)"},
    {NULL, 0, NULL, NULL}};

static const struct dump_field *const families[] = {dump_fields_base,
                                                   dump_fields_mad};

const struct dump_field *dump_field_find(const char *name)
{
    for (size_t i = 0; i < sizeof families / sizeof families[0]; i++)
        for (const struct dump_field *f = families[i]; f->name; f++)
            if (strcmp(f->name, name) == 0)
                return f;
    return NULL;
}

void dump_field_each(void (*fn)(const struct dump_field *, void *), void *arg)
{
    for (size_t i = 0; i < sizeof families / sizeof families[0]; i++)
        for (const struct dump_field *f = families[i]; f->name; f++)
            fn(f, arg);
}
