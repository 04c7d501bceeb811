/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dump_fields.c - the field table of `ibwire dump -T fields`, built from
 * the library's descriptors: frame, Ethernet, 802.1Q, IPv4, IPv6, UDP, ERF,
 * the InfiniBand transport headers, ibwire's own names, and the MAD layers
 * of dump_fields_mad.c.  No field position is written here: each comes
 * from its format's descriptor; what tshark does otherwise than the
 * naming rules say is in tshark_diffs[].
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
 * tshark mis-decodes RD as a vendor transport; there ibwire prints its
 * own decode under the same names (rdeth.eecnxt, deth.*, ...).
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
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "dump.h"
#include "ibwire/mad.h"
#include "ibwire/registry.h"

/* How tshark 4.0 treats an opcode: it decodes the RC, UC and UD opcodes of
 * IBA 1.2 (not FLUSH or ATOMIC WRITE, which came later), mis-decodes RD
 * (there ibwire decodes), and shows every other one as "Unknown OpCode". */
enum tshark_view {
    TV_KNOWN,
    TV_RD,
    TV_VENDOR
};

static enum tshark_view tshark_view(uint8_t op)
{
    const struct ibw_opcode_info *info = ibw_opcode_info(op);
    if (!(info->flags & IBW_OPF_VALID) || info->kind == IBW_OPK_FLUSH ||
        info->kind == IBW_OPK_ATOMIC_WRITE)
        return TV_VENDOR;
    switch (info->transport) {
    case IBW_TR_RC:
    case IBW_TR_UC:
    case IBW_TR_UD: return TV_KNOWN;
    case IBW_TR_RD: return TV_RD;
    default: return TV_VENDOR;
    }
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

/* ---- locating the headers ---------------------------------------------- */

static unsigned at_hdr(const struct dump_frame *fr, const struct dump_layer *l,
                       size_t need, const uint8_t **at)
{
    at[0] = hdr(fr, (enum ibw_hdr)l->arg, need);
    return at[0] != NULL;
}

static unsigned at_ext(const struct dump_frame *fr, const struct dump_layer *l,
                       size_t need, const uint8_t **at)
{
    at[0] = ext_hdr(fr, (enum ibw_hdr)l->arg, need);
    return at[0] != NULL;
}

/* Wireshark's vlan.* are the 0x8100 tags; an 802.1ad (0x88A8) tag is
 * another protocol to it.  The TPID is the EtherType field of the header
 * before the tag, whose last two bytes it is. */
static unsigned at_vlan(const struct dump_frame *fr, const struct dump_layer *l,
                        size_t need, const uint8_t **at)
{
    static const enum ibw_hdr which[2] = {IBW_HDR_VLAN, IBW_HDR_VLAN2};
    size_t tpid = ibw_format_field(ibw_vlan_format(), "ethertype")->width / 8;
    unsigned n = 0;
    (void)l;
    for (unsigned i = 0; i < 2; i++) {
        const uint8_t *t = hdr(fr, which[i], need);
        if (t && ibw_load_be16(t - tpid) == IBW_ETHERTYPE_VLAN)
            at[n++] = t;
    }
    return n;
}

/* The outer layers (encap.h) the frame came in, from the capture reader's
 * view: every layer of kind l->arg, outermost first.  Their offsets count
 * from where the decapsulation started, inner_off before the frame. */
static unsigned at_outer(const struct dump_frame *fr,
                         const struct dump_layer *l, size_t need,
                         const uint8_t **at)
{
    const struct cap_frame *c = fr->cap;
    unsigned n = 0;
    if (!c->iba || !c->encap.n)
        return 0;
    const uint8_t *base = c->iba - c->encap.inner_off;
    for (unsigned i = 0; i < c->encap.n && n < DUMP_MAX_OCC; i++)
        if (c->encap.layer[i].kind == l->arg && need <= c->encap.layer[i].len)
            at[n++] = base + c->encap.layer[i].off;
    return n;
}

/* Ethernet, 802.1Q, IP and UDP as tshark lists them: the occurrences of
 * the outer layers (a tunnel's or a mirror's, encap.h) first, outermost
 * first, then the carried frame's own; tshark prints them all,
 * comma-separated, in that order.  Without encapsulation this is the
 * frame's header alone. */
static unsigned at_wire(const struct dump_frame *fr, const struct dump_layer *l,
                        size_t need, const uint8_t **at)
{
    unsigned kind = l->arg == IBW_HDR_ETH    ? IBW_ENC_ETH
                    : l->arg == IBW_HDR_VLAN ? IBW_ENC_VLAN
                    : l->arg == IBW_HDR_IPV4 ? IBW_ENC_IPV4
                    : l->arg == IBW_HDR_IPV6 ? IBW_ENC_IPV6
                                             : IBW_ENC_UDP;
    const struct cap_frame *c = fr->cap;
    unsigned n = 0;
    if (c->iba && c->encap.n) {
        const uint8_t *base = c->iba - c->encap.inner_off;
        for (unsigned i = 0; i < c->encap.n && n < DUMP_MAX_OCC; i++) {
            const struct ibw_encap_layer *e = &c->encap.layer[i];
            if (e->kind != kind || need > e->len)
                continue;
            /* a tag's TPID is the EtherType before it: vlan.* are 0x8100's
             * (at_vlan) */
            if (kind == IBW_ENC_VLAN &&
                (e->off < 2 ||
                 ibw_load_be16(base + e->off - 2) != IBW_ETHERTYPE_VLAN))
                continue;
            at[n++] = base + e->off;
        }
    }
    const uint8_t *inner[DUMP_MAX_OCC];
    unsigned ni = l->arg == IBW_HDR_VLAN ? at_vlan(fr, l, need, inner)
                                         : at_hdr(fr, l, need, inner);
    for (unsigned k = 0; k < ni && n < DUMP_MAX_OCC; k++)
        at[n++] = inner[k];
    return n;
}

/* The options of every Geneve header, in order. */
static unsigned at_geneve_opt(const struct dump_frame *fr,
                              const struct dump_layer *l, size_t need,
                              const uint8_t **at)
{
    const uint8_t *g[DUMP_MAX_OCC];
    struct dump_layer gl = *l;
    gl.arg = IBW_ENC_GENEVE;
    unsigned ng = at_outer(fr, &gl, ibw_geneve_SIZE, g), n = 0;
    (void)need;
    for (unsigned k = 0; k < ng; k++) {
        size_t end = ibw_geneve_SIZE + 4u * ibw_geneve_get_optlen(g[k]);
        for (size_t o = ibw_geneve_SIZE; o < end && n < DUMP_MAX_OCC;
             o += ibw_geneve_opt_SIZE +
                  4u * ibw_geneve_opt_get_length(g[k] + o))
            at[n++] = g[k] + o; /* ibw_decap checked that they tile */
    }
    return n;
}

/* The framing and transport headers tshark dissects, in its order. */
#define WIRE_LAYER(fmt, at, h)                                                \
    {.format = (fmt), .locate = (at), .arg = (h), .naming = DUMP_NAMES_WIRE}
static const struct dump_layer wire_layers[] = {
    WIRE_LAYER(ibw_sll_format, at_outer, IBW_ENC_SLL),
    WIRE_LAYER(ibw_sll2_format, at_outer, IBW_ENC_SLL2),
    WIRE_LAYER(ibw_mpls_format, at_outer, IBW_ENC_MPLS),
    WIRE_LAYER(ibw_pwethcw_format, at_outer, IBW_ENC_PWETHCW),
    WIRE_LAYER(ibw_gre_format, at_outer, IBW_ENC_GRE),
    WIRE_LAYER(ibw_erspan2_format, at_outer, IBW_ENC_ERSPAN2),
    WIRE_LAYER(ibw_erspan3_format, at_outer, IBW_ENC_ERSPAN3),
    WIRE_LAYER(ibw_vxlan_format, at_outer, IBW_ENC_VXLAN),
    WIRE_LAYER(ibw_geneve_format, at_outer, IBW_ENC_GENEVE),
    WIRE_LAYER(ibw_geneve_opt_format, at_geneve_opt, 0),
    WIRE_LAYER(ibw_eth_format, at_wire, IBW_HDR_ETH),
    WIRE_LAYER(ibw_vlan_format, at_wire, IBW_HDR_VLAN),
    WIRE_LAYER(ibw_ipv4_format, at_wire, IBW_HDR_IPV4),
    WIRE_LAYER(ibw_ipv6_format, at_wire, IBW_HDR_IPV6),
    WIRE_LAYER(ibw_udp_format, at_wire, IBW_HDR_UDP),
    WIRE_LAYER(ibw_lrh_format, at_hdr, IBW_HDR_LRH),
    WIRE_LAYER(ibw_grh_format, at_hdr, IBW_HDR_GRH),
    WIRE_LAYER(ibw_bth_format, at_hdr, IBW_HDR_BTH),
    WIRE_LAYER(ibw_rdeth_format, at_ext, IBW_HDR_RDETH),
    WIRE_LAYER(ibw_deth_format, at_ext, IBW_HDR_DETH),
    WIRE_LAYER(ibw_reth_format, at_ext, IBW_HDR_RETH),
    WIRE_LAYER(ibw_atomiceth_format, at_ext, IBW_HDR_ATOMICETH),
    WIRE_LAYER(ibw_aeth_format, at_ext, IBW_HDR_AETH),
    WIRE_LAYER(ibw_atomicacketh_format, at_ext, IBW_HDR_ATOMICACKETH),
    WIRE_LAYER(ibw_immdt_format, at_ext, IBW_HDR_IMMDT),
    WIRE_LAYER(ibw_ieth_format, at_ext, IBW_HDR_IETH),
    WIRE_LAYER(ibw_xrceth_format, at_hdr, IBW_HDR_XRCETH),
    WIRE_LAYER(ibw_feth_format, at_hdr, IBW_HDR_FETH),
    {.format = NULL}};

/* tshark reads a header of the IP layers field by field (a field of a cut
 * header shows when its own bytes were captured) and every IBA header as
 * one block. */
static int read_by_field(const struct dump_layer *l)
{
    return l->arg == IBW_HDR_VLAN || l->arg == IBW_HDR_IPV4 ||
           l->arg == IBW_HDR_IPV6 || l->arg == IBW_HDR_UDP;
}

/* ---- what tshark does differently ---------------------------------------- */

/* A field tshark shows otherwise than its family's rule (dump.h,
 * enum dump_naming) says: under another name or none, printed another way,
 * found under another condition.  A descriptor field with entries here
 * yields one table entry per entry, none of its own. */
struct tshark_diff {
    const char *format, *field;
    const char *name;   /* NULL: the family's name for it; "": not shown */
    uint8_t as;         /* AS(enum dump_type); 0: the family's default */
    const struct dump_layer *layer; /* NULL: the family's */
    uint8_t need;       /* bytes tshark reads for it; 0: its own */
    uint8_t span;       /* one item over this many following fields too */
    uint8_t twice;      /* the header item and its field share the name */
    uint8_t scale;      /* shown times this */
};
#define AS(t) ((uint8_t)((t) + 1))
#define MV(variant) (&dump_mad_variants[variant])

static const struct tshark_diff tshark_diffs[] = {
    /* Wireshark prints these in hex (BASE_HEX), its wire default being
     * decimal; DETH's Q_Key and SrcQP as wider fields than they are */
    {"eth", "ethertype", .as = AS(DT_HEX16)},
    {"vlan", "ethertype", .as = AS(DT_HEX16)},
    {"ipv4", "id", .as = AS(DT_HEX16)},
    {"ipv4", "checksum", .as = AS(DT_HEX16)},
    {"ipv6", "flowlabel", .as = AS(DT_HEX24)},
    {"udp", "checksum", .as = AS(DT_HEX16)},
    {"lrh", "vl", .as = AS(DT_HEX8)},
    {"lrh", "lnh", .as = AS(DT_HEX8)},
    {"bth", "destqp", .as = AS(DT_HEX24)},
    {"deth", "qkey", .as = AS(DT_HEX64)},
    {"deth", "srcqp", .as = AS(DT_HEX32)},
    {"reth", "va", .as = AS(DT_HEX64)},
    {"reth", "rkey", .as = AS(DT_HEX32)},
    /* IPv4: the header length in bytes, not words; the DS byte is an item
     * of its own beside its two fields; the flags and the fragment offset
     * are read as one 16-bit word */
    {"ipv4", "ihl", .scale = 4},
    {"ipv4", "dscp", .name = "ip.dsfield", .as = AS(DT_HEX8), .span = 1},
    {"ipv4", "dscp", .name = NULL},
    {"ipv4", "resv", .need = 8},
    {"ipv4", "df", .need = 8},
    {"ipv4", "mf", .need = 8},
    {"ipv4", "frag_offset", .need = 8},
    /* IPv6: the traffic class is read from the 4-byte first word (and
     * printed as it), the payload length only with the next header */
    {"ipv6", "tclass", .as = AS(DT_HEX32), .need = 4},
    {"ipv6", "paylen", .need = 7},
    /* Wireshark's IPv6 dissector adds the version under IPv4's name too */
    {"ipv6", "version", .name = NULL},
    {"ipv6", "version", .name = "ip.version"},
    /* UDP: the two ports are read together */
    {"udp", "sport", .need = 4},
    /* ImmDt and IETH: tshark's header item and its field are one name,
     * bytes, shown twice */
    {"immdt", "imm", .as = AS(DT_BYTES), .twice = 1},
    {"ieth", "rkey", .as = AS(DT_BYTES), .twice = 1},
    /* the outer layers (encap.h): Wireshark's names are its dissectors',
     * so every field is listed; SLL v1 and v2 share theirs */
    {"sll", "pkttype", .name = "sll.pkttype"},
    {"sll", "hatype", .name = "sll.hatype"},
    {"sll", "halen", .name = "sll.halen"},
    {"sll", "protocol", .name = "sll.etype", .as = AS(DT_HEX16)},
    {"sll2", "protocol", .name = "sll.etype", .as = AS(DT_HEX16)},
    {"sll2", "ifindex", .name = "sll.ifindex"},
    {"sll2", "hatype", .name = "sll.hatype"},
    {"sll2", "pkttype", .name = "sll.pkttype", .as = AS(DT_DEC)},
    {"sll2", "halen", .name = "sll.halen", .as = AS(DT_DEC)},
    {"mpls", "label", .name = "mpls.label"},
    {"mpls", "tc", .name = "mpls.exp"},
    {"mpls", "s", .name = "mpls.bottom", .as = AS(DT_DEC)},
    {"mpls", "ttl", .name = "mpls.ttl"},
    /* the pseudowire's control word: tshark names only its sequence */
    {"pwethcw", "zero", .name = ""},
    {"pwethcw", "flags", .name = ""},
    {"pwethcw", "frg", .name = ""},
    {"pwethcw", "length", .name = ""},
    {"pwethcw", "seq", .name = "pweth.cw.sequence_number"},
    {"gre", "csum_present", .name = "gre.flags.checksum"},
    {"gre", "routing_present", .name = "gre.flags.routing"},
    {"gre", "key_present", .name = "gre.flags.key"},
    {"gre", "seq_present", .name = "gre.flags.sequence_number"},
    {"gre", "version", .name = "gre.flags.version"},
    {"gre", "protocol", .name = "gre.proto", .as = AS(DT_HEX16)},
    {"erspan2", "ver", .name = "erspan.version"},
    {"erspan2", "vlan", .name = "erspan.vlan"},
    {"erspan2", "cos", .name = "erspan.cos"},
    {"erspan2", "en", .name = "erspan.encap"},
    {"erspan2", "t", .name = "erspan.truncated", .as = AS(DT_DEC)},
    {"erspan2", "session", .name = "erspan.spanid"},
    {"erspan2", "index", .name = "erspan.index"},
    {"erspan3", "ver", .name = "erspan.version"},
    {"erspan3", "vlan", .name = "erspan.vlan"},
    {"erspan3", "cos", .name = "erspan.cos"},
    {"erspan3", "bso", .name = "erspan.bso"},
    {"erspan3", "t", .name = "erspan.truncated", .as = AS(DT_DEC)},
    {"erspan3", "session", .name = "erspan.spanid"},
    {"erspan3", "timestamp", .name = "erspan.timestamp"},
    {"erspan3", "sgt", .name = "erspan.sgt"},
    {"erspan3", "p", .name = "erspan.p", .as = AS(DT_DEC)},
    {"erspan3", "ft", .name = "erspan.ft"},
    {"erspan3", "hw", .name = "erspan.hw"},
    {"erspan3", "d", .name = "erspan.direction"},
    {"erspan3", "gra", .name = "erspan.gra"},
    {"erspan3", "o", .name = "erspan.o", .as = AS(DT_DEC)},
    {"vxlan", "vni", .name = "vxlan.vni"},
    {"geneve", "ver", .name = "geneve.version"},
    {"geneve", "oam", .name = "geneve.flags.oam"},
    {"geneve", "critical", .name = "geneve.flags.critical"},
    {"geneve", "protocol", .name = "geneve.proto_type", .as = AS(DT_HEX16)},
    {"geneve", "vni", .name = "geneve.vni", .as = AS(DT_HEX24)},
    {"geneve_opt", "opt_class", .name = "geneve.option.class",
     .as = AS(DT_HEX16)},
    {"geneve_opt", "type", .name = "geneve.option.type", .as = AS(DT_HEX8)},
    /* what tshark 4.0 does not dissect, under ibwire's names */
    {"bth", "fecn", .name = "ibwire.bth.fecn"},
    {"bth", "becn", .name = "ibwire.bth.becn"},
    {"xrceth", "xrcsrq", .name = "ibwire.xrceth.xrcsrq", .as = AS(DT_HEX24)},
    {"feth", "sel", .name = "ibwire.feth.sel"},
    {"feth", "plt", .name = "ibwire.feth.plt"},

    /* RMPP data words take their names from the RMPP type */
    {"rmpp", "data1", .layer = MV(DUMP_MV_RMPP_NONE)},
    {"rmpp", "data1", .name = "infiniband.rmpp.segmentnumber",
     .layer = MV(DUMP_MV_RMPP_DATA_OR_ACK)},
    {"rmpp", "data2", .layer = MV(DUMP_MV_RMPP_NONE)},
    {"rmpp", "data2", .name = "infiniband.rmpp.payloadlength",
     .layer = MV(DUMP_MV_RMPP_DATA)},
    {"rmpp", "data2", .name = "infiniband.rmpp.newwindowlast",
     .layer = MV(DUMP_MV_RMPP_ACK)},
    /* its SA attribute parse never fails, so the fallback item does not
     * appear */
    {"sa", "subnetadmindata", .layer = MV(DUMP_MV_NEVER)},
    /* tshark's D is a 64-bit field (reading the wrong bits: dump_mad
     * checks the IBA value) */
    {"smpdirected", "d", .as = AS(DT_HEX64)},
    /* not in tshark 4.0's PortInfo, PathRecord */
    {"portinfo", "mcastpkeytrapsuppress", .name = ""},
    {"portinfo", "capabilitymask2", .name = ""},
    {"portinfo", "linkspeedextactive", .name = ""},
    {"portinfo", "linkspeedextsupported", .name = ""},
    {"portinfo", "linkspeedextenabled", .name = ""},
    {"pathrecord", "serviceid", .name = ""},
    {"pathrecord", "qosclass", .name = ""},
    {"pathrecord", "sl", .as = AS(DT_HEX16)},
    /* the trap hop limit is the second classportinfo.reserved (computed
     * in dump_fields_mad.c with byte 32) */
    {"classportinfo", "traphl", .name = ""},
    /* REQ: LIDs in decimal; the flow label, reserved bits and rate of a
     * path as 32-bit words; the primary GIDs as IPv4 addresses over
     * RoCEv2/IPv4; the alternate GIDs as bytes; SAP supported inside
     * alt_reserved1 (dump_fields_mad.c); the private data only when it is
     * no IP CM header */
    {"cm_req", "prim_locallid", .as = AS(DT_DEC)},
    {"cm_req", "prim_remotelid", .as = AS(DT_DEC)},
    {"cm_req", "alt_locallid", .as = AS(DT_DEC)},
    {"cm_req", "alt_remotelid", .as = AS(DT_DEC)},
    {"cm_req", "prim_localgid", .layer = MV(DUMP_MV_REQ_GID6)},
    {"cm_req", "prim_localgid", .name = "infiniband.cm.req.prim_localgid_ipv4",
     .as = AS(DT_IPV4), .layer = MV(DUMP_MV_REQ_GID4)},
    {"cm_req", "prim_remotegid", .layer = MV(DUMP_MV_REQ_GID6)},
    {"cm_req", "prim_remotegid",
     .name = "infiniband.cm.req.prim_remotegid_ipv4", .as = AS(DT_IPV4),
     .layer = MV(DUMP_MV_REQ_GID4)},
    {"cm_req", "prim_flowlabel", .as = AS(DT_HEX32)},
    {"cm_req", "rsvd90", .name = "infiniband.cm.req.prim_reserved0",
     .as = AS(DT_HEX32)},
    {"cm_req", "prim_pktrate", .as = AS(DT_HEX32)},
    {"cm_req", "rsvd94", .name = "infiniband.cm.req.prim_reserved1"},
    {"cm_req", "rsvd95", .name = "infiniband.cm.req.prim_reserved2"},
    {"cm_req", "alt_localgid", .as = AS(DT_BYTES)},
    {"cm_req", "alt_remotegid", .as = AS(DT_BYTES)},
    {"cm_req", "alt_flowlabel", .as = AS(DT_HEX32)},
    {"cm_req", "rsvd134", .name = "infiniband.cm.req.alt_reserved0",
     .as = AS(DT_HEX32)},
    {"cm_req", "alt_pktrate", .as = AS(DT_HEX32)},
    {"cm_req", "sap_supported", .name = ""},
    {"cm_req", "private_data", .layer = MV(DUMP_MV_REQ_NOT_IP)},
    /* reserved bits tshark names */
    {"cm_rep", "rsvd27", .name = "infiniband.cm.rep.reserved"},
    {"cm_rej", "rsvd8", .name = "infiniband.cm.rej.reserved0"},
    {"cm_rej", "rsvd9", .name = "infiniband.cm.rej.reserved1"},
    {"ip_cm", "rsvd1", .name = NULL},
    /* IP CM addresses: IPv6 unless the header says IPv4 */
    {"ip_cm", "sip", .layer = MV(DUMP_MV_IPCM_NOT_V4)},
    {"ip_cm", "sip", .name = "infiniband.cm.req.ip_cm.sip4",
     .as = AS(DT_IPV4), .layer = MV(DUMP_MV_IPCM_V4)},
    {"ip_cm", "dip", .layer = MV(DUMP_MV_IPCM_NOT_V4)},
    {"ip_cm", "dip", .name = "infiniband.cm.req.ip_cm.dip4",
     .as = AS(DT_IPV4), .layer = MV(DUMP_MV_IPCM_V4)},
};

/* Where tshark 4.0 shows an SA attribute, counted from the SA data: its
 * record item (one of the infiniband.sa.drdlid values) and, for records of
 * an SMP attribute, its smpdata item.  Sizes named after mad.h constants
 * are the IBA's; the figures are tshark's: its record parsers step over
 * the fields they take for the record ID and then show a length of their
 * own, which may run past the record and even past the MAD. */
static const struct dump_tshark_sa_place tshark_sa_places[] = {
    {IBW_MAD_ATTR_INFORMINFO, 0, IBW_INFORMINFO_SIZE, -1},
    /* after FromLID and FromPort: ToPort and ToLID, 3 bytes */
    {IBW_SA_ATTR_LINKRECORD, 3, 3, -1},
    /* after ServiceID, ServiceGID and the P_Key word (28 bytes), the
     * record's whole length */
    {IBW_SA_ATTR_SERVICERECORD, 28, IBW_SERVICERECORD_SIZE, -1},
    {IBW_SA_ATTR_PATHRECORD, 0, ibw_pathrecord_SIZE, -1},
    /* after MGID and PortGID (32 bytes), 64 bytes */
    {IBW_SA_ATTR_MCMEMBERRECORD, 32, 64, -1},
    /* 46 bytes, tshark's length for the record */
    {IBW_SA_ATTR_TRACERECORD, 0, 46, -1},
    /* the whole SA data (the record's length follows its GID counts) */
    {IBW_SA_ATTR_MULTIPATHRECORD, 0, IBW_SA_DATA_SIZE, -1},
    {IBW_SA_ATTR_SERVICEASSOCIATIONRECORD, 0,
     IBW_SERVICEASSOCIATIONRECORD_SIZE, -1},
    /* the table as smpdata from the SA data's first byte: tshark skips no
     * record ID here */
    {IBW_SA_ATTR_LINKSPEEDWIDTHPAIRSTABLERECORD, 0, 0, 0},
};

const struct dump_tshark_sa_place *dump_tshark_sa_place(uint16_t attr)
{
    for (size_t i = 0; i < sizeof tshark_sa_places / sizeof tshark_sa_places[0];
         i++)
        if (tshark_sa_places[i].attr == attr)
            return &tshark_sa_places[i];
    return NULL;
}

/* ---- reading a descriptor field ------------------------------------------ */

uint32_t dump_span_width(const struct ibw_field *f, unsigned span)
{
    const struct ibw_field *last = f + span;
    return last->pos + last->width - f->pos;
}

static void read_value(const struct dump_field *f, const struct ibw_field *fld,
                       const uint8_t *at, struct dump_val *v)
{
    uint32_t width = dump_span_width(fld, f->span);
    switch (f->type) {
    case DT_BYTES:
    case DT_ETHER:
    case DT_IPV4:
    case DT_IPV6: {
        size_t len = width / 8;
        const uint8_t *p = at + fld->pos / 8;
        /* an IPv4 address in a GID or IP CM address: its last bytes */
        if (f->type == DT_IPV4) {
            size_t v4 = ibw_format_field(ibw_ipv4_format(), "saddr")->width / 8;
            if (len > v4) {
                p += len - v4;
                len = v4;
            }
        }
        dump_put_bytes(v, p, len);
        break;
    }
    default:
        dump_put_u(v, ibw_wire_get(at, fld->pos, width) *
                          (f->scale ? f->scale : 1u));
    }
}

unsigned dump_field_get(const struct dump_field *f,
                        const struct dump_frame *fr, struct dump_val *v)
{
    if (f->get)
        return f->get(fr, v);
    const uint8_t *at[DUMP_MAX_OCC];
    const struct ibw_field *fld = f->fld;
    unsigned n = f->layer->locate(fr, f->layer, f->need, at);
    if (f->layer2 && n && fr->cap->encap.n &&
        f->layer->naming == DUMP_NAMES_WIRE &&
        f->layer2->naming == DUMP_NAMES_WIRE) {
        /* a name two headers share (ip.version of IPv4 and IPv6) in a
         * frame with outer layers: both headers' occurrences, in the
         * order of the bytes (outer IPv6 over inner IPv4: "6,4") */
        const uint8_t *at2[DUMP_MAX_OCC];
        unsigned n2 = f->layer2->locate(fr, f->layer2, f->need, at2);
        unsigned i = 0, j = 0, k = 0;
        while (k < DUMP_MAX_OCC && (i < n || j < n2)) {
            if (j >= n2 || (i < n && at[i] < at2[j]))
                read_value(f, f->fld, at[i++], &v[k++]);
            else
                read_value(f, f->fld2, at2[j++], &v[k++]);
        }
        return k;
    }
    if (n == 0 && f->layer2) {
        fld = f->fld2;
        n = f->layer2->locate(fr, f->layer2, f->need, at);
    }
    for (unsigned i = 0; i < n; i++)
        read_value(f, fld, at[i], &v[i]);
    if (f->twice && n == 1)
        v[n++] = v[0];
    return n;
}

/* ---- building the table -------------------------------------------------- */

#define TABLE_MAX 640

static struct dump_field table[TABLE_MAX];
static char table_names[TABLE_MAX][80];
static char table_descs[TABLE_MAX][128];
static size_t table_len;

static struct dump_field *table_find(const char *name)
{
    for (size_t i = 0; i < table_len; i++)
        if (strcmp(table[i].name, name) == 0)
            return &table[i];
    return NULL;
}

/* Adds e unless its name is taken: a computed entry (added first) keeps
 * the name; a descriptor field of another format under a name already
 * read from a descriptor becomes that entry's fallback. */
static void table_add(const struct dump_field *e, const char *name,
                      const char *desc)
{
    struct dump_field *old = table_find(name);
    if (old) {
        if (!old->get && e->layer && !old->layer2 && old->layer != e->layer) {
            old->layer2 = e->layer;
            old->fld2 = e->fld;
        }
        return;
    }
    if (table_len == TABLE_MAX)
        return; /* about 440 names today; a family that outgrows the room
                   loses its last names from --list-fields, which the dump
                   tests read */
    struct dump_field *t = &table[table_len];
    *t = *e;
    snprintf(table_names[table_len], sizeof table_names[0], "%s", name);
    snprintf(table_descs[table_len], sizeof table_descs[0], "%s", desc);
    t->name = table_names[table_len];
    t->desc = table_descs[table_len];
    table_len++;
}

static uint8_t hex_by_width(uint32_t width)
{
    return width <= 8 ? DT_HEX8 : width <= 16 ? DT_HEX16
         : width <= 24 ? DT_HEX24 : width <= 32 ? DT_HEX32 : DT_HEX64;
}

/* The family's default print type (dump.h, enum dump_naming). */
static uint8_t default_type(const struct dump_layer *l,
                            const struct ibw_field *f)
{
    int bytes = f->kind == IBW_FK_BYTES;
    switch (l->naming) {
    case DUMP_NAMES_WIRE:
        if (bytes)
            return f->width == 128 ? DT_IPV6 : f->width == 48 ? DT_ETHER
                 : f->width == 32 ? DT_IPV4 : DT_BYTES;
        return f->width == 1 ? DT_BOOL : DT_DEC;
    case DUMP_NAMES_MAD:
        if (bytes)
            return f->width == 128 ? DT_IPV6 : DT_BYTES;
        return hex_by_width(f->width);
    default: return bytes ? DT_BYTES : hex_by_width(f->width);
    }
}

/* The family's name for a field; 0 when it shows none.  Reserved MAD bits
 * have tshark names only where the differences table lists them
 * (`listed`). */
static int family_name(const struct dump_layer *l, const struct ibw_format *fmt,
                       const struct ibw_field *f, int listed, char *buf,
                       size_t n)
{
    static const char own[] = "ibwire.", theirs[] = "infiniband.";
    int reserved = !listed && strncmp(f->name, "rsvd", 4) == 0;
    switch (l->naming) {
    case DUMP_NAMES_WIRE:
        return ibw_wire_tshark_name(fmt->name, f->name, buf, n) == IBW_OK;
    case DUMP_NAMES_MAD:
        return !reserved &&
               ibw_mad_tshark_name(fmt->name, f->name, buf, n) == IBW_OK;
    default: {
        /* the MAD name's prefix, then the field as the descriptor names it */
        char tshark[80];
        if (ibw_mad_tshark_name(fmt->name, f->name, tshark, sizeof tshark) !=
                IBW_OK ||
            strncmp(tshark, theirs, sizeof theirs - 1) != 0)
            return 0;
        char *dot = strrchr(tshark, '.');
        *dot = '\0';
        snprintf(buf, n, "%s%s.%s", own, tshark + sizeof theirs - 1, f->name);
        return 1;
    }
    }
}

static void add_field(const struct dump_layer *l, const struct ibw_format *fmt,
                      const struct ibw_field *f, const struct tshark_diff *d)
{
    char name[80], desc[128];
    if (d && d->name) {
        if (!d->name[0])
            return;
        snprintf(name, sizeof name, "%s", d->name);
    } else if (!family_name(l, fmt, f, d != NULL, name, sizeof name)) {
        return;
    }
    struct dump_field e = {0};
    e.layer = d && d->layer ? d->layer : l;
    e.fld = f;
    e.type = d && d->as ? (uint8_t)(d->as - 1) : default_type(l, f);
    e.span = d ? d->span : 0;
    e.twice = d ? d->twice : 0;
    e.scale = d ? d->scale : 0;
    if (d && d->need)
        e.need = d->need;
    else if (l->naming == DUMP_NAMES_WIRE && read_by_field(l))
        e.need = (uint16_t)((f->pos + dump_span_width(f, e.span) + 7) / 8);
    else
        e.need = (uint16_t)ibw_format_bytes(fmt);
    snprintf(desc, sizeof desc, "%s %s", fmt->name, f->desc);
    table_add(&e, name, desc);
}

static void add_layers(const struct dump_layer *layers)
{
    for (const struct dump_layer *l = layers; l->format; l++) {
        const struct ibw_format *fmt = l->format();
        for (size_t i = 0; i < fmt->nfields; i++) {
            const struct ibw_field *f = &fmt->fields[i];
            int diffs = 0;
            for (size_t j = 0; j < sizeof tshark_diffs / sizeof tshark_diffs[0];
                 j++) {
                const struct tshark_diff *d = &tshark_diffs[j];
                if (strcmp(d->format, fmt->name) == 0 &&
                    strcmp(d->field, f->name) == 0) {
                    add_field(l, fmt, f, d);
                    diffs++;
                }
            }
            if (!diffs)
                add_field(l, fmt, f, NULL);
        }
    }
}

static void add_computed(const struct dump_field *list)
{
    for (const struct dump_field *f = list; f->name; f++)
        table_add(f, f->name, f->desc);
}

/* ---- frame ------------------------------------------------------------- */
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


/* ---- AETH syndrome ------------------------------------------------------- */

static unsigned get_aeth_kind(const struct dump_frame *fr, struct dump_val *v)
{
    const uint8_t *h = ext_hdr(fr, IBW_HDR_AETH, ibw_aeth_SIZE);
    return h ? dump_put_u(v, ibw_aeth_syndrome_kind(ibw_aeth_get_syndrome(h)))
             : 0;
}

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


/* ---- after the headers --------------------------------------------------- */

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
 * code: those with a payload, and the RC RDMA READ REQUEST (none per the
 * IBA). */
static int tshark_has_payload(uint8_t op)
{
    const struct ibw_opcode_info *info = ibw_opcode_info(op);
    return (info->flags & IBW_OPF_PAYLOAD) ||
           (info->transport == IBW_TR_RC && info->kind == IBW_OPK_READ);
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
    size_t rep = fr->rep_len, need, crcs = IBW_ICRC_BYTES;
    if (p->transport == IBW_TK_ROCE_V2_IP4 ||
        p->transport == IBW_TK_ROCE_V2_IP6) {
        if (p->wire_len < rep)
            rep = p->wire_len;
        need = rep;
    } else if (p->transport == IBW_TK_ROCE_V1) {
        need = rep;
    } else { /* native IB */
        need = p->wire_len - IBW_VCRC_BYTES;
        crcs = IBW_ICRC_BYTES + IBW_VCRC_BYTES;
    }
    size_t rest = rep - pay; /* rep >= cap >= pay */
    size_t off = pay;        /* where tshark's offset stands after that */
    if (mad) {
        /* its MAD dissector reads all 256 bytes or gives up quietly */
        if (need <= cap && rest >= IBW_MAD_SIZE + crcs - IBW_ICRC_BYTES) {
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
    const size_t both = IBW_ICRC_BYTES + IBW_VCRC_BYTES;
    if ((left == IBW_ICRC_BYTES || left == both) &&
        off + IBW_ICRC_BYTES <= cap) {
        t->icrc = 1;
        t->icrc_off = off;
        if (left == both && off + both <= cap) {
            t->vcrc = 1;
            t->vcrc_off = off + IBW_ICRC_BYTES;
        }
    } else if (left == IBW_VCRC_BYTES && off + IBW_VCRC_BYTES <= cap) {
        t->vcrc = 1;
        t->vcrc_off = off;
    }
    return 1;
}

/* tshark's first infiniband.vendor item: the bytes after the BTH up to
 * this many. */
#define TSHARK_VENDOR_ITEM 4u

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
    if (p->cut && n < TSHARK_VENDOR_ITEM)
        return 0; /* tshark's first vendor item cannot be read */
    dump_put_bytes(&v[0], p->data + start,
                   n < TSHARK_VENDOR_ITEM ? n : TSHARK_VENDOR_ITEM);
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

/* What tshark takes for the header of a raw packet (LNH raw or IP) after
 * the LRH and leaves out of its data. */
#define TSHARK_RAW_HEADER 4u

/* Undissected bytes after the headers: payload and pad, or for a raw packet
 * what follows tshark's raw header, up to the VCRC. */
static unsigned get_data(const struct dump_frame *fr, struct dump_val *v)
{
    const struct ibw_pkt *p = fr->pkt;
    if (!p)
        return 0;
    if (p->transport == IBW_TK_IB_RAW) {
        size_t start = ibw_lrh_SIZE + TSHARK_RAW_HEADER;
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

/* ---- the table ------------------------------------------------------------ */

/* What no descriptor holds: the capture's own fields, tshark's items after
 * the headers, the AETH syndrome's parts, ibwire's verdicts. */
/* GRE's optional words (RFC 2890): the key, then the sequence number,
 * after the checksum word when there is one; of every GRE layer. */
static unsigned gre_word(const struct dump_frame *fr, struct dump_val *v,
                         int seq)
{
    static const struct dump_layer gl = {.arg = IBW_ENC_GRE};
    const uint8_t *g[DUMP_MAX_OCC];
    unsigned n = at_outer(fr, &gl, ibw_gre_SIZE, g), k = 0;
    for (unsigned i = 0; i < n; i++) {
        if (!(seq ? ibw_gre_get_seq_present(g[i])
                  : ibw_gre_get_key_present(g[i])))
            continue;
        size_t at = ibw_gre_SIZE + 4u * ibw_gre_get_csum_present(g[i]) +
                    (seq ? 4u * ibw_gre_get_key_present(g[i]) : 0u);
        dump_put_u(&v[k++], ibw_load_be32(g[i] + at));
    }
    return k;
}

static unsigned get_gre_key(const struct dump_frame *fr, struct dump_val *v)
{
    return gre_word(fr, v, 0);
}

static unsigned get_gre_seq(const struct dump_frame *fr, struct dump_val *v)
{
    return gre_word(fr, v, 1);
}

static const struct dump_field computed[] = {
    DUMP_COMPUTED("gre.key", DT_HEX32, get_gre_key, "GRE key (RFC 2890)"),
    DUMP_COMPUTED("gre.sequence_number", DT_DEC, get_gre_seq,
                  "GRE sequence number (RFC 2890)"),
    DUMP_COMPUTED("frame.number", DT_DEC, get_frame_number, "frame number, from 1"),
    DUMP_COMPUTED("frame.len", DT_DEC, get_frame_len, "frame length on the wire"),
    DUMP_COMPUTED("frame.cap_len", DT_DEC, get_frame_cap_len, "bytes captured"),
    DUMP_COMPUTED("frame.time_epoch", DT_TIME, get_frame_time_epoch,
     "capture time, seconds since 1970"),
    DUMP_COMPUTED("erf.types", DT_HEX8, get_erf_types, "ERF record type byte"),
    DUMP_COMPUTED("infiniband.aeth.syndrome.opcode", DT_DEC, get_aeth_kind,
     "AETH syndrome kind: 0 ACK, 1 RNR NAK, 2 reserved, 3 NAK"),
    DUMP_COMPUTED("infiniband.aeth.syndrome.credit_count", DT_DEC, get_aeth_credit,
     "AETH credit code (ACK)"),
    DUMP_COMPUTED("infiniband.aeth.syndrome.timer", DT_DEC, get_aeth_timer,
     "AETH RNR timer code (RNR NAK)"),
    DUMP_COMPUTED("infiniband.aeth.syndrome.error_code", DT_DEC, get_aeth_error,
     "AETH NAK code"),
    DUMP_COMPUTED("infiniband.payload", DT_BYTES, get_none,
     "never set (tshark uses data.data)"),
    DUMP_COMPUTED("infiniband.vendor", DT_BYTES, get_vendor,
     "bytes after the BTH of an opcode tshark does not know"),
    DUMP_COMPUTED("infiniband.invariant.crc", DT_HEX32, get_icrc,
     "ICRC wire bytes as a big-endian number"),
    DUMP_COMPUTED("infiniband.variant.crc", DT_HEX16, get_vcrc,
     "VCRC wire bytes as a big-endian number"),
    DUMP_COMPUTED("data.data", DT_BYTES, get_data, "payload and pad bytes"),

    DUMP_COMPUTED("ibwire.error", DT_STRING, get_error,
     "why the frame does not decode: header.field: problem"),
    DUMP_COMPUTED("ibwire.not_iba", DT_STRING, get_not_iba,
     "why the frame holds no IBA bytes (link framing)"),
    DUMP_COMPUTED("ibwire.truncated", DT_BOOL, get_truncated, "cut short at capture"),
    DUMP_COMPUTED("ibwire.transport", DT_STRING, get_transport,
     "ib-local, ib-global, ib-raw, rocev1, rocev2-ipv4, rocev2-ipv6, none"),
    DUMP_COMPUTED("ibwire.opcode.name", DT_STRING, get_opcode_name, "IBA opcode name"),
    DUMP_COMPUTED("ibwire.payload.len", DT_DEC, get_payload_len,
     "payload bytes (no pad); of a cut frame, those captured"),
    DUMP_COMPUTED("ibwire.payload.wire_len", DT_DEC, get_payload_wire_len,
     "payload bytes the packet carried (no pad), cut or not"),
    DUMP_COMPUTED("ibwire.cut", DT_BOOL, get_cut,
     "the bytes end before the length fields say (snap length)"),
    DUMP_COMPUTED("ibwire.cut.header", DT_STRING, get_cut_header,
     "of a cut frame: the first header not wholly captured, or payload"),
    DUMP_COMPUTED("ibwire.wire_len", DT_DEC, get_wire_len,
     "bytes to the end of the IBA (or IP) packet, as its length fields "
     "say"),
    DUMP_COMPUTED("ibwire.icrc.status", DT_STRING, get_icrc_status,
     "ICRC verdict: good, bad, unchecked (frame cut), absent"),
    DUMP_COMPUTED("ibwire.icrc.wire", DT_HEX32, get_icrc_wire, "ICRC value carried"),
    DUMP_COMPUTED("ibwire.icrc.calc", DT_HEX32, get_icrc_calc, "ICRC value computed"),
    DUMP_COMPUTED("ibwire.vcrc.status", DT_STRING, get_vcrc_status,
     "VCRC verdict: good, bad, unchecked (frame cut), absent"),
    DUMP_COMPUTED("ibwire.vcrc.wire", DT_HEX16, get_vcrc_wire, "VCRC value carried"),
    DUMP_COMPUTED("ibwire.vcrc.calc", DT_HEX16, get_vcrc_calc, "VCRC value computed"),
    DUMP_COMPUTED("ibwire.ip.checksum.status", DT_STRING, get_ip_csum_status,
     "IPv4 header checksum verdict: good, bad, unchecked (options cut)"),
    {.name = NULL}};

/* The entries' numbers in name order, for dump_field_find(): libibwire
 * looks names up per frame. */
static uint16_t by_name[TABLE_MAX];

static int cmp_by_name(const void *a, const void *b)
{
    return strcmp(table[*(const uint16_t *)a].name,
                  table[*(const uint16_t *)b].name);
}

static void table_build(void)
{
    add_computed(computed);
    add_layers(wire_layers);
    add_computed(dump_fields_mad);
    add_layers(dump_mad_layers);
    for (size_t i = 0; i < table_len; i++)
        by_name[i] = (uint16_t)i;
    qsort(by_name, table_len, sizeof by_name[0], cmp_by_name);
}

/* Built once, whichever thread of a library's caller comes first. */
static void table_init(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, table_build);
}

int dump_field_id(const char *name)
{
    table_init();
    size_t lo = 0, hi = table_len;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(name, table[by_name[mid]].name);
        if (c == 0)
            return by_name[mid];
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return -1;
}

const struct dump_field *dump_field_find(const char *name)
{
    int id = dump_field_id(name);
    return id < 0 ? NULL : &table[id];
}

size_t dump_field_count(void)
{
    table_init();
    return table_len;
}

const struct dump_field *dump_field_at(size_t i)
{
    table_init();
    return i < table_len ? &table[i] : NULL;
}

void dump_field_each(void (*fn)(const struct dump_field *, void *), void *arg)
{
    table_init();
    for (size_t i = 0; i < table_len; i++)
        fn(&table[i], arg);
}
