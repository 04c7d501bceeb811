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
 */
#include <string.h>

#include "dump.h"

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

/* Header h of the frame, or NULL. */
static const uint8_t *hdr(const struct dump_frame *fr, enum ibw_hdr h)
{
    return fr->pkt ? ibw_pkt_hdr(fr->pkt, h) : NULL;
}

/* An extended transport header, only where tshark would decode it. */
static const uint8_t *ext_hdr(const struct dump_frame *fr, enum ibw_hdr h)
{
    const uint8_t *p = hdr(fr, h);
    if (!p || tshark_view(fr->pkt->opcode) == TV_VENDOR)
        return NULL;
    return p;
}

/* A getter for one integer: `expr` over the header pointer h, which FIND
 * (hdr or ext_hdr) looks up; absent when the header is. */
#define INT_GETTER(fn, FIND, H, expr) DUMP_INT_GETTER(fn, h, FIND(fr, H), expr)

/* A getter for a byte field (address, GID) of n bytes at `expr`. */
#define BYTES_GETTER(fn, H, expr, n)                                          \
    DUMP_BYTES_GETTER(fn, h, hdr(fr, H), expr, n)

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

BYTES_GETTER(get_eth_dst, IBW_HDR_ETH, ibw_eth_get_dmac(h), 6)
BYTES_GETTER(get_eth_src, IBW_HDR_ETH, ibw_eth_get_smac(h), 6)
INT_GETTER(get_eth_type, hdr, IBW_HDR_ETH, ibw_eth_get_ethertype(h))

/* Wireshark's vlan.* are the 0x8100 tags; an 802.1ad (0x88A8) tag is
 * another protocol to it.  The TPID sits in the two bytes before a tag. */
static unsigned vlan_tags(const struct dump_frame *fr, const uint8_t **tags)
{
    static const enum ibw_hdr which[2] = {IBW_HDR_VLAN, IBW_HDR_VLAN2};
    unsigned n = 0;
    for (unsigned i = 0; i < 2; i++) {
        const uint8_t *t = hdr(fr, which[i]);
        if (t && ibw_load_be16(t - 2) == IBW_ETHERTYPE_VLAN)
            tags[n++] = t;
    }
    return n;
}

#define VLAN_GETTER(fn, expr)                                                 \
    static unsigned fn(const struct dump_frame *fr, struct dump_val *v)      \
    {                                                                         \
        const uint8_t *tags[2];                                               \
        unsigned n = vlan_tags(fr, tags);                                     \
        for (unsigned i = 0; i < n; i++) {                                    \
            const uint8_t *h = tags[i];                                       \
            v[i].u = (uint64_t)(expr);                                        \
        }                                                                     \
        return n;                                                             \
    }
VLAN_GETTER(get_vlan_priority, ibw_vlan_get_pcp(h))
VLAN_GETTER(get_vlan_dei, ibw_vlan_get_dei(h))
VLAN_GETTER(get_vlan_id, ibw_vlan_get_vid(h))
VLAN_GETTER(get_vlan_etype, ibw_vlan_get_ethertype(h))

/* ---- IPv4, IPv6, UDP ----------------------------------------------------- */

BYTES_GETTER(get_ip_src, IBW_HDR_IPV4, ibw_ipv4_get_saddr(h), 4)
BYTES_GETTER(get_ip_dst, IBW_HDR_IPV4, ibw_ipv4_get_daddr(h), 4)
INT_GETTER(get_ip_hdr_len, hdr, IBW_HDR_IPV4, ibw_ipv4_hdr_len(h))
INT_GETTER(get_ip_dsfield, hdr, IBW_HDR_IPV4, h[1])
INT_GETTER(get_ip_dscp, hdr, IBW_HDR_IPV4, ibw_ipv4_get_dscp(h))
INT_GETTER(get_ip_ecn, hdr, IBW_HDR_IPV4, ibw_ipv4_get_ecn(h))
INT_GETTER(get_ip_len, hdr, IBW_HDR_IPV4, ibw_ipv4_get_total_length(h))
INT_GETTER(get_ip_id, hdr, IBW_HDR_IPV4, ibw_ipv4_get_id(h))
INT_GETTER(get_ip_df, hdr, IBW_HDR_IPV4, ibw_ipv4_get_df(h))
INT_GETTER(get_ip_ttl, hdr, IBW_HDR_IPV4, ibw_ipv4_get_ttl(h))
INT_GETTER(get_ip_proto, hdr, IBW_HDR_IPV4, ibw_ipv4_get_protocol(h))
INT_GETTER(get_ip_checksum, hdr, IBW_HDR_IPV4, ibw_ipv4_get_checksum(h))

BYTES_GETTER(get_ipv6_src, IBW_HDR_IPV6, ibw_ipv6_get_saddr(h), 16)
BYTES_GETTER(get_ipv6_dst, IBW_HDR_IPV6, ibw_ipv6_get_daddr(h), 16)
INT_GETTER(get_ipv6_tclass, hdr, IBW_HDR_IPV6, ibw_ipv6_get_tclass(h))
INT_GETTER(get_ipv6_flow, hdr, IBW_HDR_IPV6, ibw_ipv6_get_flowlabel(h))
INT_GETTER(get_ipv6_plen, hdr, IBW_HDR_IPV6, ibw_ipv6_get_paylen(h))
INT_GETTER(get_ipv6_nxt, hdr, IBW_HDR_IPV6, ibw_ipv6_get_nexthdr(h))
INT_GETTER(get_ipv6_hlim, hdr, IBW_HDR_IPV6, ibw_ipv6_get_hoplimit(h))

INT_GETTER(get_udp_srcport, hdr, IBW_HDR_UDP, ibw_udp_get_sport(h))
INT_GETTER(get_udp_dstport, hdr, IBW_HDR_UDP, ibw_udp_get_dport(h))
INT_GETTER(get_udp_length, hdr, IBW_HDR_UDP, ibw_udp_get_length(h))
INT_GETTER(get_udp_checksum, hdr, IBW_HDR_UDP, ibw_udp_get_checksum(h))

/* ---- LRH, GRH, BTH ------------------------------------------------------- */

INT_GETTER(get_lrh_vl, hdr, IBW_HDR_LRH, ibw_lrh_get_vl(h))
INT_GETTER(get_lrh_lver, hdr, IBW_HDR_LRH, ibw_lrh_get_lver(h))
INT_GETTER(get_lrh_sl, hdr, IBW_HDR_LRH, ibw_lrh_get_sl(h))
INT_GETTER(get_lrh_lnh, hdr, IBW_HDR_LRH, ibw_lrh_get_lnh(h))
INT_GETTER(get_lrh_dlid, hdr, IBW_HDR_LRH, ibw_lrh_get_dlid(h))
INT_GETTER(get_lrh_pktlen, hdr, IBW_HDR_LRH, ibw_lrh_get_pktlen(h))
INT_GETTER(get_lrh_slid, hdr, IBW_HDR_LRH, ibw_lrh_get_slid(h))

INT_GETTER(get_grh_ipver, hdr, IBW_HDR_GRH, ibw_grh_get_ipver(h))
INT_GETTER(get_grh_tclass, hdr, IBW_HDR_GRH, ibw_grh_get_tclass(h))
INT_GETTER(get_grh_flowlabel, hdr, IBW_HDR_GRH, ibw_grh_get_flowlabel(h))
INT_GETTER(get_grh_paylen, hdr, IBW_HDR_GRH, ibw_grh_get_paylen(h))
INT_GETTER(get_grh_nxthdr, hdr, IBW_HDR_GRH, ibw_grh_get_nxthdr(h))
INT_GETTER(get_grh_hoplmt, hdr, IBW_HDR_GRH, ibw_grh_get_hoplmt(h))
BYTES_GETTER(get_grh_sgid, IBW_HDR_GRH, ibw_grh_get_sgid(h), 16)
BYTES_GETTER(get_grh_dgid, IBW_HDR_GRH, ibw_grh_get_dgid(h), 16)

INT_GETTER(get_bth_opcode, hdr, IBW_HDR_BTH, ibw_bth_get_opcode(h))
INT_GETTER(get_bth_se, hdr, IBW_HDR_BTH, ibw_bth_get_se(h))
INT_GETTER(get_bth_m, hdr, IBW_HDR_BTH, ibw_bth_get_m(h))
INT_GETTER(get_bth_padcnt, hdr, IBW_HDR_BTH, ibw_bth_get_padcnt(h))
INT_GETTER(get_bth_tver, hdr, IBW_HDR_BTH, ibw_bth_get_tver(h))
INT_GETTER(get_bth_pkey, hdr, IBW_HDR_BTH, ibw_bth_get_pkey(h))
INT_GETTER(get_bth_destqp, hdr, IBW_HDR_BTH, ibw_bth_get_destqp(h))
INT_GETTER(get_bth_a, hdr, IBW_HDR_BTH, ibw_bth_get_ackreq(h))
INT_GETTER(get_bth_psn, hdr, IBW_HDR_BTH, ibw_bth_get_psn(h))
INT_GETTER(get_bth_fecn, hdr, IBW_HDR_BTH, ibw_bth_get_fecn(h))
INT_GETTER(get_bth_becn, hdr, IBW_HDR_BTH, ibw_bth_get_becn(h))

/* ---- extended transport headers ------------------------------------------ */

INT_GETTER(get_rdeth_eecnxt, ext_hdr, IBW_HDR_RDETH, ibw_rdeth_get_eecnxt(h))
INT_GETTER(get_deth_qkey, ext_hdr, IBW_HDR_DETH, ibw_deth_get_qkey(h))
INT_GETTER(get_deth_srcqp, ext_hdr, IBW_HDR_DETH, ibw_deth_get_srcqp(h))
INT_GETTER(get_reth_dmalen, ext_hdr, IBW_HDR_RETH, ibw_reth_get_dmalen(h))

/* VA and R_Key of the RETH or, under the same names, of the AtomicETH. */
static unsigned get_reth_va(const struct dump_frame *fr, struct dump_val *v)
{
    const uint8_t *h = ext_hdr(fr, IBW_HDR_RETH);
    if (h)
        return dump_put_u(v, ibw_reth_get_va(h));
    h = ext_hdr(fr, IBW_HDR_ATOMICETH);
    return h ? dump_put_u(v, ibw_atomiceth_get_va(h)) : 0;
}
static unsigned get_reth_rkey(const struct dump_frame *fr, struct dump_val *v)
{
    const uint8_t *h = ext_hdr(fr, IBW_HDR_RETH);
    if (h)
        return dump_put_u(v, ibw_reth_get_rkey(h));
    h = ext_hdr(fr, IBW_HDR_ATOMICETH);
    return h ? dump_put_u(v, ibw_atomiceth_get_rkey(h)) : 0;
}

INT_GETTER(get_atomiceth_swapdt, ext_hdr, IBW_HDR_ATOMICETH,
           ibw_atomiceth_get_swapdt(h))
INT_GETTER(get_atomiceth_cmpdt, ext_hdr, IBW_HDR_ATOMICETH,
           ibw_atomiceth_get_cmpdt(h))
INT_GETTER(get_atomicacketh_origremdt, ext_hdr, IBW_HDR_ATOMICACKETH,
           ibw_atomicacketh_get_origremdt(h))

INT_GETTER(get_aeth_syndrome, ext_hdr, IBW_HDR_AETH, ibw_aeth_get_syndrome(h))
INT_GETTER(get_aeth_kind, ext_hdr, IBW_HDR_AETH,
           ibw_aeth_syndrome_kind(ibw_aeth_get_syndrome(h)))
INT_GETTER(get_aeth_msn, ext_hdr, IBW_HDR_AETH, ibw_aeth_get_msn(h))

/* The 5-bit syndrome value, under the name its kind gives it. */
static unsigned aeth_value(const struct dump_frame *fr, struct dump_val *v,
                           unsigned kind)
{
    const uint8_t *h = ext_hdr(fr, IBW_HDR_AETH);
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
    return twice(v, ext_hdr(fr, IBW_HDR_IMMDT));
}
static unsigned get_ieth(const struct dump_frame *fr, struct dump_val *v)
{
    return twice(v, ext_hdr(fr, IBW_HDR_IETH));
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
    return hdr(fr, IBW_HDR_BTH) && tshark_view(fr->pkt->opcode) == TV_VENDOR;
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
    dump_put_bytes(&v[0], p->data + start, n < 4 ? n : 4);
    dump_put_bytes(&v[1], p->data + start, n);
    return 2;
}

/* The ICRC as tshark prints it: its wire bytes as a big-endian number. */
static unsigned get_icrc(const struct dump_frame *fr, struct dump_val *v)
{
    const struct ibw_pkt *p = fr->pkt;
    if (!p || !hdr(fr, IBW_HDR_BTH) || p->icrc_status == IBW_CRC_ABSENT ||
        vendor_view(fr))
        return 0;
    return dump_put_u(v, ibw_load_be32(p->data + p->icrc_off));
}

static unsigned get_vcrc(const struct dump_frame *fr, struct dump_val *v)
{
    const struct ibw_pkt *p = fr->pkt;
    if (!p || p->vcrc_status == IBW_CRC_ABSENT || vendor_view(fr))
        return 0;
    v[0].u = ibw_load_be16(p->data + p->vcrc_off);
    if (p->transport != IBW_TK_IB_RAW)
        return 1;
    v[1].u = v[0].u; /* raw packets: tshark shows the VCRC twice */
    return 2;
}

/* Undissected bytes after the headers: payload and pad, or for a raw packet
 * what follows its 4-byte raw header, up to the VCRC. */
static unsigned get_data(const struct dump_frame *fr, struct dump_val *v)
{
    const struct ibw_pkt *p = fr->pkt;
    if (!p || p->err != IBW_OK)
        return 0;
    if (p->transport == IBW_TK_IB_RAW) {
        size_t start = ibw_lrh_SIZE + 4;
        if (p->vcrc_off <= start)
            return 0;
        return dump_put_bytes(v, p->data + start, p->vcrc_off - start);
    }
    if (!hdr(fr, IBW_HDR_BTH) || vendor_view(fr))
        return 0;
    /* UD to or from QP0/QP1 carries a MAD, which the MAD family decodes. */
    const uint8_t *deth = hdr(fr, IBW_HDR_DETH);
    if (deth && (ibw_bth_get_destqp(hdr(fr, IBW_HDR_BTH)) <= 1 ||
                 ibw_deth_get_srcqp(deth) <= 1))
        return 0;
    size_t n = (size_t)p->payload_len + p->pad;
    return n ? dump_put_bytes(v, p->data + p->payload_off, n) : 0;
}

/* ---- ibwire's own names --------------------------------------------------- */

const char *dump_crc_status_name(uint8_t s)
{
    return s == IBW_CRC_GOOD ? "good" : s == IBW_CRC_BAD ? "bad" : "absent";
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
        return p && p->status != IBW_CRC_ABSENT ? dump_put_u(v, p->wire) : 0;      \
    }                                                                         \
    static unsigned get_##name##_calc(const struct dump_frame *fr,           \
                                      struct dump_val *v)                    \
    {                                                                         \
        const struct ibw_pkt *p = fr->pkt;                                    \
        return p && p->status != IBW_CRC_ABSENT ? dump_put_u(v, p->calc) : 0;      \
    }
CRC_GETTERS(icrc, icrc_status, icrc_wire, icrc_calc)
CRC_GETTERS(vcrc, vcrc_status, vcrc_wire, vcrc_calc)

static unsigned get_ip_csum_status(const struct dump_frame *fr,
                                   struct dump_val *v)
{
    if (!hdr(fr, IBW_HDR_IPV4))
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
    if (!hdr(fr, IBW_HDR_BTH))
        return 0;
    return dump_put_str(v, ibw_opcode_info(fr->pkt->opcode)->name);
}
static unsigned get_payload_len(const struct dump_frame *fr,
                                struct dump_val *v)
{
    const struct ibw_pkt *p = fr->pkt;
    if (!hdr(fr, IBW_HDR_BTH) || p->err != IBW_OK)
        return 0;
    return dump_put_u(v, p->payload_len);
}
INT_GETTER(get_xrceth_srq, hdr, IBW_HDR_XRCETH, ibw_xrceth_get_xrcsrq(h))
INT_GETTER(get_feth_sel, hdr, IBW_HDR_FETH, ibw_feth_get_sel(h))
INT_GETTER(get_feth_plt, hdr, IBW_HDR_FETH, ibw_feth_get_plt(h))

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
    {"ibwire.payload.len", DT_DEC, get_payload_len, "payload bytes (no pad)"},
    {"ibwire.bth.fecn", DT_BOOL, get_bth_fecn, "BTH FECN"},
    {"ibwire.bth.becn", DT_BOOL, get_bth_becn, "BTH BECN"},
    {"ibwire.xrceth.xrcsrq", DT_HEX24, get_xrceth_srq, "XRCETH XRC SRQ"},
    {"ibwire.feth.sel", DT_DEC, get_feth_sel, "FETH selectivity level"},
    {"ibwire.feth.plt", DT_DEC, get_feth_plt, "FETH placement type"},
    {"ibwire.icrc.status", DT_STRING, get_icrc_status,
     "ICRC verdict: good, bad, absent"},
    {"ibwire.icrc.wire", DT_HEX32, get_icrc_wire, "ICRC value carried"},
    {"ibwire.icrc.calc", DT_HEX32, get_icrc_calc, "ICRC value computed"},
    {"ibwire.vcrc.status", DT_STRING, get_vcrc_status,
     "VCRC verdict: good, bad, absent"},
    {"ibwire.vcrc.wire", DT_HEX16, get_vcrc_wire, "VCRC value carried"},
    {"ibwire.vcrc.calc", DT_HEX16, get_vcrc_calc, "VCRC value computed"},
    {"ibwire.ip.checksum.status", DT_STRING, get_ip_csum_status,
     "IPv4 header checksum verdict: good, bad"},
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
