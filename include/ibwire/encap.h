/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ibwire/encap.h - the layers a capture point wraps around a frame
 * (catalog W15): Linux cooked capture headers, GRE, ERSPAN, VXLAN, Geneve,
 * MPLS, and the outer Ethernet/VLAN/IP/UDP that carry them.
 *
 * A RoCE frame recorded at a switch mirror, on a tunnel endpoint or with
 * `tcpdump -i any` arrives inside such layers.  ibw_decap() finds them by
 * their headers, outermost first, and says where the frame that travelled
 * on the wire starts (an Ethernet frame, or an IP packet when the tunnel
 * carries IP directly) and which link ibw_parse() reads it as; that frame
 * is then judged exactly as if it had been captured on the wire.  The outer
 * layers stay in the view (struct ibw_encap) for tools that show them.
 *
 * Each header is a field list (IBW_WIRE_FORMAT), as in framing.h.
 *
 * Sources: Linux cooked capture v1/v2 (tcpdump.org LINKTYPE_LINUX_SLL 113,
 * LINKTYPE_LINUX_SLL2 276), RFC 2784 / RFC 2890 (GRE, key and sequence
 * number), draft-foschiano-erspan-03 (ERSPAN type II and III), RFC 7348
 * (VXLAN), RFC 8926 (Geneve), RFC 3032 (MPLS label stack entry), RFC 4448
 * and RFC 4385 (Ethernet pseudowire over MPLS and its control word), RFC
 * 1701 (EtherType 0x6558, transparent Ethernet bridging).
 */
#ifndef IBWIRE_ENCAP_H
#define IBWIRE_ENCAP_H

#include "base.h"
#include "framing.h"
#include "packet.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Numbers that announce an encapsulation. */
#define IBW_IPPROTO_GRE 47u
#define IBW_ETHERTYPE_TEB 0x6558u      /* transparent Ethernet bridging */
#define IBW_ETHERTYPE_ERSPAN2 0x88BEu  /* ERSPAN type II (type I without
                                          the GRE sequence number) */
#define IBW_ETHERTYPE_ERSPAN3 0x22EBu  /* ERSPAN type III */
#define IBW_ETHERTYPE_MPLS 0x8847u
#define IBW_ETHERTYPE_MPLS_MC 0x8848u
#define IBW_VXLAN_UDP_PORT 4789u
#define IBW_GENEVE_UDP_PORT 6081u

/* Linux cooked capture v1 (link type 113), 16 bytes before the payload. */
#define IBW_SLL_FIELDS(X, c)                                              \
    X(c, pkttype, 0, 0, 16, U16, "packet type (0 to us, 4 outgoing, ...)") \
    X(c, hatype, 2, 0, 16, U16, "ARPHRD_ link-layer address type")        \
    X(c, halen, 4, 0, 16, U16, "link-layer address length")               \
    X(c, addr, 6, 0, 64, BYTES, "link-layer source address, padded")      \
    X(c, protocol, 14, 0, 16, U16, "EtherType of the payload")
IBW_WIRE_FORMAT(ibw_sll, IBW_SLL_FIELDS, 16, "sll", "W15",
                "Linux cooked capture header (v1)",
                "tcpdump.org LINKTYPE_LINUX_SLL", "Linux")

/* Linux cooked capture v2 (link type 276), 20 bytes before the payload. */
#define IBW_SLL2_FIELDS(X, c)                                             \
    X(c, protocol, 0, 0, 16, U16, "EtherType of the payload")            \
    X(c, resv, 2, 0, 16, U16, "reserved (zero)")                          \
    X(c, ifindex, 4, 0, 32, U32, "interface index the packet was seen on") \
    X(c, hatype, 8, 0, 16, U16, "ARPHRD_ link-layer address type")        \
    X(c, pkttype, 10, 0, 8, U8, "packet type (0 to us, 4 outgoing, ...)") \
    X(c, halen, 11, 0, 8, U8, "link-layer address length")                \
    X(c, addr, 12, 0, 64, BYTES, "link-layer source address, padded")
IBW_WIRE_FORMAT(ibw_sll2, IBW_SLL2_FIELDS, 20, "sll2", "W15",
                "Linux cooked capture header (v2)",
                "tcpdump.org LINKTYPE_LINUX_SLL2", "Linux")

/* GRE base header; checksum+offset, key and sequence number words follow
 * when their flags are set, in that order. */
#define IBW_GRE_FIELDS(X, c)                                              \
    X(c, csum_present, 0, 0, 1, U8, "checksum present")                              \
    X(c, routing_present, 0, 1, 1, U8, "routing present (RFC 1701; 0 in RFC 2784)")    \
    X(c, key_present, 0, 2, 1, U8, "key present (RFC 2890)")                        \
    X(c, seq_present, 0, 3, 1, U8, "sequence number present (RFC 2890)")           \
    X(c, resv0, 0, 4, 9, U16, "reserved (zero)")                          \
    X(c, version, 1, 5, 3, U8, "version (0)")                             \
    X(c, protocol, 2, 0, 16, U16, "EtherType of the payload")
IBW_WIRE_FORMAT(ibw_gre, IBW_GRE_FIELDS, 4, "gre", "W15", "GRE header",
                "RFC 2784 2.1; RFC 2890 2", "IETF")

/* ERSPAN type II header (after GRE 0x88BE with a sequence number). */
#define IBW_ERSPAN2_FIELDS(X, c)                                          \
    X(c, ver, 0, 0, 4, U8, "version (1)")                                 \
    X(c, vlan, 0, 4, 12, U16, "VLAN of the mirrored frame")               \
    X(c, cos, 2, 0, 3, U8, "class of service")                            \
    X(c, en, 2, 3, 2, U8, "encapsulation of the frame as mirrored")       \
    X(c, t, 2, 5, 1, U8, "truncated: the mirror cut the frame")          \
    X(c, session, 2, 6, 10, U16, "mirror session ID")                     \
    X(c, resv, 4, 0, 12, U16, "reserved")                                 \
    X(c, index, 5, 4, 20, U32, "port index")
IBW_WIRE_FORMAT(ibw_erspan2, IBW_ERSPAN2_FIELDS, 8, "erspan2", "W15",
                "ERSPAN type II header", "draft-foschiano-erspan-03 4.1",
                "IETF")

/* ERSPAN type III header (after GRE 0x22EB); an 8-byte platform
 * subheader follows when o is set. */
#define IBW_ERSPAN3_FIELDS(X, c)                                          \
    X(c, ver, 0, 0, 4, U8, "version (2)")                                 \
    X(c, vlan, 0, 4, 12, U16, "VLAN of the mirrored frame")               \
    X(c, cos, 2, 0, 3, U8, "class of service")                            \
    X(c, bso, 2, 3, 2, U8, "bad/short/oversized frame")                   \
    X(c, t, 2, 5, 1, U8, "truncated: the mirror cut the frame")          \
    X(c, session, 2, 6, 10, U16, "mirror session ID")                     \
    X(c, timestamp, 4, 0, 32, U32, "time the frame was mirrored (gra)")  \
    X(c, sgt, 8, 0, 16, U16, "security group tag")                        \
    X(c, p, 10, 0, 1, U8, "frame type protocol (1: not Ethernet)")        \
    X(c, ft, 10, 1, 5, U8, "frame type (0 Ethernet, 2 IP)")               \
    X(c, hw, 10, 6, 6, U8, "hardware ID")                                 \
    X(c, d, 11, 4, 1, U8, "direction (0 ingress, 1 egress)")              \
    X(c, gra, 11, 5, 2, U8, "timestamp unit (0 100us, 1 100ns, 2 1588)") \
    X(c, o, 11, 7, 1, U8, "platform subheader follows")
IBW_WIRE_FORMAT(ibw_erspan3, IBW_ERSPAN3_FIELDS, 12, "erspan3", "W15",
                "ERSPAN type III header", "draft-foschiano-erspan-03 4.2",
                "IETF")

/* VXLAN header (UDP port 4789); an Ethernet frame follows. */
#define IBW_VXLAN_FIELDS(X, c)                                            \
    X(c, flags, 0, 0, 8, U8, "flags (I, 0x08: the VNI is valid)")         \
    X(c, resv1, 1, 0, 24, U32, "reserved")                                \
    X(c, vni, 4, 0, 24, U32, "VXLAN network identifier")                  \
    X(c, resv2, 7, 0, 8, U8, "reserved")
IBW_WIRE_FORMAT(ibw_vxlan, IBW_VXLAN_FIELDS, 8, "vxlan", "W15",
                "VXLAN header", "RFC 7348 5", "IETF")

/* Geneve header (UDP port 6081); optlen 4-byte words of options follow. */
#define IBW_GENEVE_FIELDS(X, c)                                           \
    X(c, ver, 0, 0, 2, U8, "version (0)")                                 \
    X(c, optlen, 0, 2, 6, U8, "options length in 4-byte words")           \
    X(c, oam, 1, 0, 1, U8, "OAM packet")                                    \
    X(c, critical, 1, 1, 1, U8, "critical options present")                      \
    X(c, resv1, 1, 2, 6, U8, "reserved")                                  \
    X(c, protocol, 2, 0, 16, U16, "EtherType of the payload")             \
    X(c, vni, 4, 0, 24, U32, "virtual network identifier")                \
    X(c, resv2, 7, 0, 8, U8, "reserved")
IBW_WIRE_FORMAT(ibw_geneve, IBW_GENEVE_FIELDS, 8, "geneve", "W15",
                "Geneve header", "RFC 8926 3.4", "IETF")

/* One Geneve option's header; length 4-byte words of data follow. */
#define IBW_GENEVE_OPT_FIELDS(X, c)                                       \
    X(c, opt_class, 0, 0, 16, U16, "option class")                            \
    X(c, type, 2, 0, 8, U8, "type (top bit: critical)")                   \
    X(c, resv, 3, 0, 3, U8, "reserved")                                   \
    X(c, length, 3, 3, 5, U8, "data length in 4-byte words")
IBW_WIRE_FORMAT(ibw_geneve_opt, IBW_GENEVE_OPT_FIELDS, 4, "geneve_opt",
                "W15", "Geneve option header", "RFC 8926 3.5", "IETF")

/* One MPLS label stack entry. */
#define IBW_MPLS_FIELDS(X, c)                                             \
    X(c, label, 0, 0, 20, U32, "label")                                   \
    X(c, tc, 2, 4, 3, U8, "traffic class (EXP)")                          \
    X(c, s, 2, 7, 1, U8, "bottom of stack")                               \
    X(c, ttl, 3, 0, 8, U8, "time to live")
IBW_WIRE_FORMAT(ibw_mpls, IBW_MPLS_FIELDS, 4, "mpls", "W15",
                "MPLS label stack entry", "RFC 3032 2.1", "IETF")

/* The control word an Ethernet pseudowire may put between the bottom label
 * and the frame (its first nibble 0 tells it from IP). */
#define IBW_PWETHCW_FIELDS(X, c)                                          \
    X(c, zero, 0, 0, 4, U8, "0000 (not IP, not an associated channel)")   \
    X(c, flags, 0, 4, 4, U8, "flags (reserved for Ethernet)")             \
    X(c, frg, 1, 0, 2, U8, "fragmentation (reserved for Ethernet)")       \
    X(c, length, 1, 2, 6, U8, "length of a padded short payload")         \
    X(c, seq, 2, 0, 16, U16, "sequence number (0: not used)")
IBW_WIRE_FORMAT(ibw_pwethcw, IBW_PWETHCW_FIELDS, 4, "pwethcw", "W15",
                "Ethernet pseudowire control word", "RFC 4448 4.6, RFC 4385 3",
                "IETF")

/* What a layer of struct ibw_encap is. */
enum ibw_encap_kind {
    IBW_ENC_SLL = 1,  /* Linux cooked v1 */
    IBW_ENC_SLL2,     /* Linux cooked v2 */
    IBW_ENC_ETH,      /* an outer Ethernet header */
    IBW_ENC_VLAN,     /* an outer 802.1Q/802.1ad tag (TCI + EtherType) */
    IBW_ENC_IPV4,     /* outer IPv4 (with options) */
    IBW_ENC_IPV6,
    IBW_ENC_UDP,      /* the UDP under VXLAN or Geneve */
    IBW_ENC_GRE,      /* with its optional words */
    IBW_ENC_ERSPAN2,
    IBW_ENC_ERSPAN3,  /* with its platform subheader */
    IBW_ENC_VXLAN,
    IBW_ENC_GENEVE,   /* with its options */
    IBW_ENC_MPLS,     /* one label stack entry */
    IBW_ENC_PWETHCW   /* an Ethernet pseudowire's control word */
};

/* The most outer layers kept; deeper nesting is an error (no real capture
 * point stacks this many). */
#define IBW_ENCAP_MAX 24

struct ibw_encap_layer {
    uint8_t kind;   /* enum ibw_encap_kind */
    uint16_t off;   /* from the start of the record */
    uint16_t len;   /* bytes of the header (options included) */
};

/*
 * The outer layers of one record and where the frame inside starts.  With
 * no encapsulation n is 0 and the frame is the record (inner_off 0).
 */
struct ibw_encap {
    uint8_t n;                /* layers in layer[], outermost first */
    struct ibw_encap_layer layer[IBW_ENCAP_MAX];
    uint32_t inner_off;       /* where the carried frame starts */
    uint32_t inner_len;       /* its bytes in the record (the outer IP or
                                 UDP length bounds it; outer padding and
                                 bytes past it are not the frame's) */
    uint8_t inner_link;       /* enum ibw_link to parse it with */
    uint8_t mirror_cut;       /* an ERSPAN T bit: the mirror truncated it */
    uint8_t outer_cut;        /* the record ends before the outer lengths */
    uint8_t vantage_kind;     /* enum ibw_encap_kind of the layer naming the
                                 vantage point (ERSPAN session, VXLAN or
                                 Geneve VNI), 0 when none */
    uint32_t vantage_id;      /* that session ID or VNI */
    uint8_t has_ts;           /* an ERSPAN III timestamp was carried */
    uint8_t ts_gra;           /* its unit (erspan3.gra) */
    uint32_t ts;              /* its value */
    int err;                  /* enum ibw_err; IBW_OK when every layer read */
    const char *err_hdr;      /* the format the error concerns ("gre", ...) */
    const char *err_field;    /* and its field, or NULL */
    /* What the checker needs to word and weigh an error: */
    uint32_t err_off;         /* where the header in error starts */
    uint32_t err_have;        /* IBW_E_TRUNCATED: its bytes present */
    uint32_t err_need;        /* and the bytes it needs */
    uint32_t err_value;       /* the value of err_field */
    uint8_t err_by_length;    /* IBW_E_TRUNCATED: an outer length field
                                 (IP total length, UDP length) ends the
                                 packet inside the header, not the record */
    uint8_t err_read_on;      /* the header in error still has a known
                                 layout: the walk read on past it, and
                                 inner_off/inner_len/inner_link locate the
                                 frame it carries (n: every layer read) */
};

/* The format of an outer layer of kind k (enum ibw_encap_kind; IPv4 and
 * Geneve by their fixed part, GRE and ERSPAN III without their optional
 * words), or NULL for an unknown kind. */
static inline const struct ibw_format *ibw_encap_format(unsigned k)
{
    switch (k) {
    case IBW_ENC_SLL: return ibw_sll_format();
    case IBW_ENC_SLL2: return ibw_sll2_format();
    case IBW_ENC_ETH: return ibw_eth_format();
    case IBW_ENC_VLAN: return ibw_vlan_format();
    case IBW_ENC_IPV4: return ibw_ipv4_format();
    case IBW_ENC_IPV6: return ibw_ipv6_format();
    case IBW_ENC_UDP: return ibw_udp_format();
    case IBW_ENC_GRE: return ibw_gre_format();
    case IBW_ENC_ERSPAN2: return ibw_erspan2_format();
    case IBW_ENC_ERSPAN3: return ibw_erspan3_format();
    case IBW_ENC_VXLAN: return ibw_vxlan_format();
    case IBW_ENC_GENEVE: return ibw_geneve_format();
    case IBW_ENC_MPLS: return ibw_mpls_format();
    case IBW_ENC_PWETHCW: return ibw_pwethcw_format();
    default: return NULL;
    }
}

/* Where ibw_decap() starts (pcap link types). */
enum ibw_outer_link {
    IBW_OUTER_ETHERNET = 1,
    IBW_OUTER_SLL = 113,
    IBW_OUTER_SLL2 = 276
};

/* Record an error; the first one found stays (the walk may read on past
 * a header whose layout is still known, ibw_encap.err_read_on). */
static inline int ibw__decap_fail(struct ibw_encap *e, int err,
                                  const char *hdr, const char *field)
{
    if (!e->err) {
        e->err = err;
        e->err_hdr = hdr;
        e->err_field = field;
    }
    return e->err;
}

/* The same with the offset of the header and the field's value. */
static inline int ibw__decap_bad(struct ibw_encap *e, int err, const char *hdr,
                                 const char *field, size_t off, uint32_t value)
{
    if (!e->err) {
        e->err_off = (uint32_t)off;
        e->err_value = value;
    }
    return ibw__decap_fail(e, err, hdr, field);
}

static inline int ibw__decap_add(struct ibw_encap *e, unsigned kind,
                                 size_t off, size_t len)
{
    if (e->n >= IBW_ENCAP_MAX || off + len > 0xFFFFu)
        return ibw__decap_fail(e, IBW_E_UNSUPPORTED, "frame",
                               "encapsulation depth");
    e->layer[e->n].kind = (uint8_t)kind;
    e->layer[e->n].off = (uint16_t)off;
    e->layer[e->n].len = (uint16_t)len;
    e->n++;
    return IBW_OK;
}

/* State of the walk: the candidate inner frame is the last tunnel payload
 * entered; layers found after it belong to that frame, not to the
 * encapsulation. */
struct ibw__decap_walk {
    const uint8_t *d;
    size_t len;        /* bytes of the record */
    size_t end;        /* bytes that belong to the current packet */
    size_t decl_end;   /* where its length fields end it (may be past
                          the record when the capture cut it) */
    size_t cand_off;   /* start of the candidate inner frame */
    size_t cand_end;
    unsigned cand_link;
    unsigned cand_n;   /* layers before it */
};

static inline void ibw__decap_enter(struct ibw_encap *e,
                                    struct ibw__decap_walk *w, size_t off,
                                    unsigned link)
{
    if (e->err)
        e->err_read_on = 1; /* past a header in error */
    w->cand_off = off;
    w->cand_end = w->end;
    w->cand_link = link;
    w->cand_n = e->n;
}

static inline int ibw__decap_ethertype(struct ibw_encap *e,
                                       struct ibw__decap_walk *w, size_t off,
                                       unsigned et, unsigned depth);

/* Header `name` needs `need` bytes at off and its packet ends before: cut
 * by the record's end (the capture), or by an outer length field. */
static inline int ibw__decap_cut(struct ibw_encap *e,
                                 const struct ibw__decap_walk *w,
                                 const char *name, size_t off, size_t need)
{
    if (!e->err) {
        e->err_off = (uint32_t)off;
        e->err_have = (uint32_t)(w->end > off ? w->end - off : 0);
        e->err_need = (uint32_t)need;
        e->err_by_length = w->end < w->len;
        if (!e->err_by_length)
            e->outer_cut = 1;
    }
    return ibw__decap_fail(e, IBW_E_TRUNCATED, name, NULL);
}

/* Is the payload at off (IP, after an MPLS stack or a GRE/Geneve header
 * announcing IP) IPv4 or IPv6 by its version nibble? */
static inline unsigned ibw__decap_ip_version(const struct ibw__decap_walk *w,
                                             size_t off)
{
    return off < w->end ? (unsigned)(w->d[off] >> 4) : 0u;
}

/* GRE at off (inside an IP packet ending at w->end). */
static inline int ibw__decap_gre(struct ibw_encap *e, struct ibw__decap_walk *w,
                                 size_t off, unsigned depth)
{
    const uint8_t *g = w->d + off;
    if (off + ibw_gre_SIZE > w->end)
        return ibw__decap_cut(e, w, "gre", off, ibw_gre_SIZE);
    unsigned proto = ibw_gre_get_protocol(g);
    if (ibw_gre_get_version(g) != 0 || ibw_gre_get_routing_present(g)) {
        /* PPTP's enhanced GRE (version 1, PPP) or RFC 1701 source routing
         * of another protocol: not a tunnel a capture point uses, the
         * frame is the candidate before it.  A protocol this follows
         * (ERSPAN, bridged Ethernet, IP, MPLS) under them is a GRE header
         * in error: RFC 2784 has version 0 and no routing, and its
         * receivers drop the rest; with a version the walk reads on as
         * version 0 (the layout the flags give) */
        if (proto != IBW_ETHERTYPE_ERSPAN2 && proto != IBW_ETHERTYPE_ERSPAN3 &&
            proto != IBW_ETHERTYPE_TEB && proto != IBW_ETHERTYPE_IPV4 &&
            proto != IBW_ETHERTYPE_IPV6 && proto != IBW_ETHERTYPE_MPLS &&
            proto != IBW_ETHERTYPE_MPLS_MC)
            return IBW_OK;
        if (ibw_gre_get_routing_present(g))
            return ibw__decap_bad(e, IBW_E_MALFORMED, "gre", "routing_present",
                                  off, 1);
        ibw__decap_bad(e, IBW_E_VERSION, "gre", "version", off,
                       ibw_gre_get_version(g));
    }
    size_t hl = ibw_gre_SIZE + 4u * ((unsigned)ibw_gre_get_csum_present(g) +
                                     ibw_gre_get_key_present(g) + ibw_gre_get_seq_present(g));
    if (off + hl > w->end)
        return ibw__decap_cut(e, w, "gre", off, hl);
    int rc = ibw__decap_add(e, IBW_ENC_GRE, off, hl);
    if (rc)
        return rc;
    size_t p = off + hl;
    switch (proto) {
    case IBW_ETHERTYPE_ERSPAN2:
        if (!ibw_gre_get_seq_present(g)) { /* type I: the frame follows the GRE */
            ibw__decap_enter(e, w, p, IBW_LINK_ETHERNET);
            return ibw__decap_ethertype(e, w, p, 0, depth + 1);
        }
        if (p + ibw_erspan2_SIZE > w->end)
            return ibw__decap_cut(e, w, "erspan", p, ibw_erspan2_SIZE);
        if (ibw_erspan2_get_ver(w->d + p) != 1) /* read on as type II */
            ibw__decap_bad(e, IBW_E_VERSION, "erspan", "version", p,
                           ibw_erspan2_get_ver(w->d + p));
        if ((rc = ibw__decap_add(e, IBW_ENC_ERSPAN2, p, ibw_erspan2_SIZE)))
            return rc;
        if (!e->vantage_kind) {
            e->vantage_kind = IBW_ENC_ERSPAN2;
            e->vantage_id = ibw_erspan2_get_session(w->d + p);
        }
        e->mirror_cut |= ibw_erspan2_get_t(w->d + p);
        p += ibw_erspan2_SIZE;
        ibw__decap_enter(e, w, p, IBW_LINK_ETHERNET);
        return ibw__decap_ethertype(e, w, p, 0, depth + 1);
    case IBW_ETHERTYPE_ERSPAN3: {
        const uint8_t *h = w->d + p;
        if (p + ibw_erspan3_SIZE > w->end)
            return ibw__decap_cut(e, w, "erspan", p, ibw_erspan3_SIZE);
        if (ibw_erspan3_get_ver(h) != 2) /* read on as type III */
            ibw__decap_bad(e, IBW_E_VERSION, "erspan", "version", p,
                           ibw_erspan3_get_ver(h));
        size_t el = ibw_erspan3_SIZE + (ibw_erspan3_get_o(h) ? 8u : 0u);
        if (p + el > w->end)
            return ibw__decap_cut(e, w, "erspan", p, el);
        if ((rc = ibw__decap_add(e, IBW_ENC_ERSPAN3, p, el)))
            return rc;
        if (!e->vantage_kind) {
            e->vantage_kind = IBW_ENC_ERSPAN3;
            e->vantage_id = ibw_erspan3_get_session(h);
        }
        e->mirror_cut |= ibw_erspan3_get_t(h);
        if (!e->has_ts) {
            e->has_ts = 1;
            e->ts = ibw_erspan3_get_timestamp(h);
            e->ts_gra = ibw_erspan3_get_gra(h);
        }
        p += el;
        if (ibw_erspan3_get_ft(h) == 0) {
            ibw__decap_enter(e, w, p, IBW_LINK_ETHERNET);
            return ibw__decap_ethertype(e, w, p, 0, depth + 1);
        }
        if (ibw_erspan3_get_ft(h) == 2) {
            unsigned v = ibw__decap_ip_version(w, p);
            ibw__decap_enter(e, w, p, IBW_LINK_IP);
            return ibw__decap_ethertype(e, w, p,
                                        v == 6 ? IBW_ETHERTYPE_IPV6
                                               : IBW_ETHERTYPE_IPV4,
                                        depth + 1);
        }
        return ibw__decap_bad(e, IBW_E_UNSUPPORTED, "erspan", "ft", p - el,
                              ibw_erspan3_get_ft(h));
    }
    case IBW_ETHERTYPE_TEB:
        ibw__decap_enter(e, w, p, IBW_LINK_ETHERNET);
        return ibw__decap_ethertype(e, w, p, 0, depth + 1);
    default:
        if (proto == IBW_ETHERTYPE_IPV4 || proto == IBW_ETHERTYPE_IPV6)
            ibw__decap_enter(e, w, p, IBW_LINK_IP);
        return ibw__decap_ethertype(e, w, p, proto, depth + 1);
    }
}

/* UDP at off: VXLAN and Geneve are followed, other ports end the walk. */
static inline int ibw__decap_udp(struct ibw_encap *e, struct ibw__decap_walk *w,
                                 size_t off, unsigned depth)
{
    if (off + ibw_udp_SIZE > w->end)
        return IBW_OK; /* the inner parse names the cut UDP */
    const uint8_t *u = w->d + off;
    unsigned port = ibw_udp_get_dport(u);
    if (port != IBW_VXLAN_UDP_PORT && port != IBW_GENEVE_UDP_PORT)
        return IBW_OK;
    size_t ul = ibw_udp_get_length(u);
    /* the UDP length within the IP packet's (a record the capture cut
     * may end before both); a wrong one is read past, the IP packet
     * bounding the datagram */
    if (ul < ibw_udp_SIZE || off + ul > w->decl_end)
        ibw__decap_bad(e, IBW_E_LENGTH, "udp", "length", off, (uint32_t)ul);
    else {
        w->decl_end = off + ul;
        if (w->decl_end < w->end)
            w->end = w->decl_end;
    }
    int rc = ibw__decap_add(e, IBW_ENC_UDP, off, ibw_udp_SIZE);
    if (rc)
        return rc;
    size_t p = off + ibw_udp_SIZE;
    const uint8_t *h = w->d + p;
    if (port == IBW_VXLAN_UDP_PORT) {
        if (p + ibw_vxlan_SIZE > w->end)
            return ibw__decap_cut(e, w, "vxlan", p, ibw_vxlan_SIZE);
        /* RFC 7348 5: the I flag MUST be set and a VTEP drops a frame
         * without it; port 4789 is VXLAN's, so this is VXLAN in error,
         * not another protocol: read on, the frame inside tells whether
         * it was RoCE */
        if (!(ibw_vxlan_get_flags(h) & 0x08u))
            ibw__decap_bad(e, IBW_E_MALFORMED, "vxlan", "flags", p,
                           ibw_vxlan_get_flags(h));
        if ((rc = ibw__decap_add(e, IBW_ENC_VXLAN, p, ibw_vxlan_SIZE)))
            return rc;
        if (!e->vantage_kind) {
            e->vantage_kind = IBW_ENC_VXLAN;
            e->vantage_id = ibw_vxlan_get_vni(h);
        }
        p += ibw_vxlan_SIZE;
        ibw__decap_enter(e, w, p, IBW_LINK_ETHERNET);
        return ibw__decap_ethertype(e, w, p, 0, depth + 1);
    }
    if (p + ibw_geneve_SIZE > w->end)
        return ibw__decap_cut(e, w, "geneve", p, ibw_geneve_SIZE);
    if (ibw_geneve_get_ver(h) != 0) /* another layout: nothing to read on */
        return ibw__decap_bad(e, IBW_E_VERSION, "geneve", "version", p,
                              ibw_geneve_get_ver(h));
    size_t gl = ibw_geneve_SIZE + 4u * ibw_geneve_get_optlen(h);
    if (p + gl > w->end) /* the options cut */
        return ibw__decap_cut(e, w, "geneve", p, gl);
    /* the options must tile the options length exactly; when they do
     * not, the options length still says where the frame starts */
    for (size_t o = p + ibw_geneve_SIZE; o < p + gl;) {
        if (o + ibw_geneve_opt_SIZE > p + gl) {
            ibw__decap_bad(e, IBW_E_LENGTH, "geneve", "optlen", p,
                           ibw_geneve_get_optlen(h));
            break;
        }
        size_t ol = 4u * ibw_geneve_opt_get_length(w->d + o);
        if (o + ibw_geneve_opt_SIZE + ol > p + gl) {
            ibw__decap_bad(e, IBW_E_LENGTH, "geneve_opt", "length", o,
                           (uint32_t)(ol / 4u));
            break;
        }
        o += ibw_geneve_opt_SIZE + ol;
    }
    if ((rc = ibw__decap_add(e, IBW_ENC_GENEVE, p, gl)))
        return rc;
    if (!e->vantage_kind) {
        e->vantage_kind = IBW_ENC_GENEVE;
        e->vantage_id = ibw_geneve_get_vni(h);
    }
    unsigned proto = ibw_geneve_get_protocol(h);
    p += gl;
    if (proto == IBW_ETHERTYPE_TEB) {
        ibw__decap_enter(e, w, p, IBW_LINK_ETHERNET);
        return ibw__decap_ethertype(e, w, p, 0, depth + 1);
    }
    if (proto == IBW_ETHERTYPE_IPV4 || proto == IBW_ETHERTYPE_IPV6)
        ibw__decap_enter(e, w, p, IBW_LINK_IP);
    return ibw__decap_ethertype(e, w, p, proto, depth + 1);
}

/* IPv4 or IPv6 at off: GRE and UDP to a tunnel port are followed; the
 * IP lengths bound what follows. */
static inline int ibw__decap_ip(struct ibw_encap *e, struct ibw__decap_walk *w,
                                size_t off, unsigned v6, unsigned depth)
{
    const uint8_t *ip = w->d + off;
    size_t hl, total;
    unsigned proto;
    if (!v6) {
        if (off + ibw_ipv4_SIZE > w->end || ibw_ipv4_get_version(ip) != 4)
            return IBW_OK; /* the inner parse judges it */
        hl = ibw_ipv4_hdr_len(ip);
        total = ibw_ipv4_get_total_length(ip);
        proto = ibw_ipv4_get_protocol(ip);
        if (ibw_ipv4_get_mf(ip) || ibw_ipv4_get_frag_offset(ip))
            return IBW_OK; /* a fragment carries no whole tunnel header */
    } else {
        if (off + ibw_ipv6_SIZE > w->end || ibw_ipv6_get_version(ip) != 6)
            return IBW_OK;
        hl = ibw_ipv6_SIZE;
        total = hl + ibw_ipv6_get_paylen(ip);
        proto = ibw_ipv6_get_nexthdr(ip);
    }
    if (proto != IBW_IPPROTO_GRE && proto != IBW_IPPROTO_UDP)
        return IBW_OK;
    if (hl < ibw_ipv4_SIZE || total < hl || off + hl > w->end)
        return IBW_OK; /* malformed IP: the inner parse names the field */
    int udp_cut = 0;
    if (proto == IBW_IPPROTO_UDP) {
        /* the destination port is what names the tunnel: a UDP header cut
         * after it is a tunnel's header cut */
        if (off + hl + 4u > w->end)
            return IBW_OK;
        unsigned port = ibw_udp_get_dport(w->d + off + hl);
        if (port != IBW_VXLAN_UDP_PORT && port != IBW_GENEVE_UDP_PORT)
            return IBW_OK;
    }
    int rc = ibw__decap_add(e, v6 ? IBW_ENC_IPV6 : IBW_ENC_IPV4, off, hl);
    if (rc)
        return rc;
    w->decl_end = off + total;
    if (off + total > w->end)
        e->outer_cut = 1; /* the record ends inside the outer packet */
    else
        w->end = off + total;
    if (proto == IBW_IPPROTO_UDP) {
        if (off + hl + 4u > w->end)
            return IBW_OK; /* the IP length ends it before its port */
        udp_cut = off + hl + ibw_udp_SIZE > w->end;
    }
    if (proto == IBW_IPPROTO_GRE)
        return ibw__decap_gre(e, w, off + hl, depth);
    if (udp_cut)
        return ibw__decap_cut(e, w, "udp", off + hl, ibw_udp_SIZE);
    return ibw__decap_udp(e, w, off + hl, depth);
}

/* How well an Ethernet frame reads at off: 2 when its EtherType (after at
 * most two VLAN tags) is IPv4, IPv6 or RoCEv1 with the version nibble that
 * goes with it, or MPLS; 1 when it is ARP, RARP or LLDP (what else a
 * pseudowire between two Ethernet ports carries); 0 otherwise.  Reads only
 * bytes the record holds. */
static inline int ibw__decap_pw_eth(const struct ibw__decap_walk *w,
                                    size_t off)
{
    size_t p = off + 12;
    for (unsigned tags = 0;; tags++) {
        if (p + 2 > w->end)
            return 0;
        unsigned et = ibw_load_be16(w->d + p);
        p += 2;
        if ((et == IBW_ETHERTYPE_VLAN || et == IBW_ETHERTYPE_QINQ) &&
            tags < 2) {
            p += 2;
            continue;
        }
        if (et == IBW_ETHERTYPE_MPLS || et == IBW_ETHERTYPE_MPLS_MC)
            return 2;
        if (et == 0x0806u || et == 0x8035u || et == 0x88CCu)
            return 1;
        if (p >= w->end)
            return 0;
        unsigned v = w->d[p] >> 4;
        return ((et == IBW_ETHERTYPE_IPV4 && v == 4) ||
                ((et == IBW_ETHERTYPE_IPV6 || et == IBW_ETHERTYPE_ROCEV1) &&
                 v == 6)) ? 2 : 0;
    }
}

/* MPLS label stack entries at off, to the bottom of the stack; IP or an
 * Ethernet pseudowire after. */
static inline int ibw__decap_mpls(struct ibw_encap *e,
                                  struct ibw__decap_walk *w, size_t off,
                                  unsigned depth)
{
    for (;;) {
        if (off + ibw_mpls_SIZE > w->end)
            return ibw__decap_cut(e, w, "mpls", off, ibw_mpls_SIZE);
        int rc = ibw__decap_add(e, IBW_ENC_MPLS, off, ibw_mpls_SIZE);
        if (rc)
            return rc;
        unsigned bottom = ibw_mpls_get_s(w->d + off);
        off += ibw_mpls_SIZE;
        if (bottom)
            break;
    }
    /* RFC 3032 leaves the payload to the label, which only the label's
     * owner knows; by its first nibble, as tshark reads it: IP versions 4
     * and 6; else an Ethernet pseudowire (RFC 4448), whose control word,
     * when there is one, starts with nibble 0.  A destination MAC may
     * start with 0 too, so with nibble 0 the frame is taken where an
     * Ethernet header reads best (ibw__decap_pw_eth): with the control
     * word the reading without it takes the source MAC's middle for the
     * EtherType, without it the reading with it an IP length or an ARP
     * field.  Where both read as well, the frame without the word is
     * taken, as the word is optional. */
    unsigned v = ibw__decap_ip_version(w, off);
    if (v == 4 || v == 6) {
        ibw__decap_enter(e, w, off, IBW_LINK_IP);
        return ibw__decap_ip(e, w, off, v == 6, depth + 1);
    }
    int bare = v ? 2 : ibw__decap_pw_eth(w, off);
    int word = v || off + ibw_pwethcw_SIZE > w->end
                   ? 0 : ibw__decap_pw_eth(w, off + ibw_pwethcw_SIZE);
    if (bare || word) {
        if (word > bare) {
            int rc = ibw__decap_add(e, IBW_ENC_PWETHCW, off,
                                    ibw_pwethcw_SIZE);
            if (rc)
                return rc;
            off += ibw_pwethcw_SIZE;
        }
        ibw__decap_enter(e, w, off, IBW_LINK_ETHERNET);
        return ibw__decap_ethertype(e, w, off, 0, depth + 1);
    }
    return ibw__decap_fail(e, IBW_E_UNSUPPORTED, "mpls", "payload");
}

/*
 * What follows at off: with et 0 an Ethernet header (tags and all), else
 * the payload of EtherType et (tags first when et announces one).
 */
static inline int ibw__decap_ethertype(struct ibw_encap *e,
                                       struct ibw__decap_walk *w, size_t off,
                                       unsigned et, unsigned depth)
{
    int rc;
    if (depth > 8)
        return ibw__decap_fail(e, IBW_E_UNSUPPORTED, "frame",
                               "encapsulation depth");
    if (et == 0) {
        if (off + ibw_eth_SIZE > w->end)
            /* the record's own Ethernet header cut: ibw_parse names it */
            return off == 0 ? IBW_OK
                            : ibw__decap_cut(e, w, "eth", off, ibw_eth_SIZE);
        if ((rc = ibw__decap_add(e, IBW_ENC_ETH, off, ibw_eth_SIZE)))
            return rc;
        et = ibw_eth_get_ethertype(w->d + off);
        off += ibw_eth_SIZE;
    }
    while (et == IBW_ETHERTYPE_VLAN || et == IBW_ETHERTYPE_QINQ) {
        if (off + ibw_vlan_SIZE > w->end)
            return IBW_OK; /* the inner parse names the cut tag */
        if ((rc = ibw__decap_add(e, IBW_ENC_VLAN, off, ibw_vlan_SIZE)))
            return rc;
        et = ibw_vlan_get_ethertype(w->d + off);
        off += ibw_vlan_SIZE;
    }
    switch (et) {
    case IBW_ETHERTYPE_IPV4:
    case IBW_ETHERTYPE_IPV6:
        return ibw__decap_ip(e, w, off, et == IBW_ETHERTYPE_IPV6, depth);
    case IBW_ETHERTYPE_MPLS:
    case IBW_ETHERTYPE_MPLS_MC:
        return ibw__decap_mpls(e, w, off, depth);
    default:
        return IBW_OK;
    }
}

/*
 * Find the outer layers of one record of `len` bytes at `data`, captured
 * on link `link` (Ethernet, Linux cooked v1 or v2), and the frame they
 * carry.  Fills *e (reset first) and returns e->err:
 *   IBW_OK           e->layer[0..n) the outer layers, outermost first;
 *                    the carried frame is data[inner_off .. +inner_len),
 *                    to parse with ibw_parse(link e->inner_link): the
 *                    record itself (n 0) when nothing encapsulates it
 *   IBW_E_TRUNCATED  the record, or an outer length field
 *                    (err_by_length), ends inside an outer header
 *                    (err_hdr; err_have of its err_need bytes there)
 *   IBW_E_VERSION    erspan.version, geneve.version, or gre.version of a
 *                    GRE header carrying a protocol this follows
 *   IBW_E_LENGTH     an outer length field leaves no room for what it
 *                    announces (udp.length, geneve.optlen, ...)
 *   IBW_E_MALFORMED  vxlan.flags without the I flag, gre.routing_present
 *   IBW_E_UNSUPPORTED an ERSPAN frame type or MPLS payload that is
 *                    neither Ethernet nor IP, or layers nested too deep
 *   IBW_E_LINKTYPE   a link this does not read
 * On an error the layers read so far stay in *e, with err_off and
 * err_value; where the header in error keeps a known layout (a version,
 * the VXLAN I flag, a UDP length, Geneve options that do not fill their
 * length) the walk reads on and err_read_on says that inner_* locate the
 * frame it carries, so that a caller can tell what it was meant to carry
 * (ibwire check reports it when that frame is RoCE).  Encapsulation is known
 * by its numbers alone: IP protocol 47 (GRE, version 0), UDP destination
 * ports 4789 (VXLAN) and 6081 (Geneve), EtherTypes 0x8847/0x8848 (MPLS);
 * GRE carries ERSPAN II/III, Ethernet (0x6558), IP or MPLS; MPLS carries IP
 * or an Ethernet pseudowire, with or without its control word.
 */
static inline int ibw_decap(const uint8_t *data, size_t len,
                            enum ibw_outer_link link, struct ibw_encap *e)
{
    struct ibw__decap_walk w;
    /* every field but the layer array (filled up to n): this runs on
     * every frame of a capture */
    e->n = 0;
    e->inner_off = e->inner_len = 0;
    e->inner_link = 0;
    e->mirror_cut = e->outer_cut = 0;
    e->vantage_kind = 0;
    e->vantage_id = 0;
    e->has_ts = e->ts_gra = 0;
    e->ts = 0;
    e->err = IBW_OK;
    e->err_hdr = e->err_field = NULL;
    e->err_off = e->err_have = e->err_need = e->err_value = 0;
    e->err_by_length = e->err_read_on = 0;
    memset(&w, 0, sizeof w);
    w.d = data;
    w.len = w.end = w.decl_end = len;
    int rc;
    switch (link) {
    case IBW_OUTER_ETHERNET:
        ibw__decap_enter(e, &w, 0, IBW_LINK_ETHERNET);
        rc = ibw__decap_ethertype(e, &w, 0, 0, 0);
        break;
    case IBW_OUTER_SLL:
        if (len < ibw_sll_SIZE) {
            rc = ibw__decap_cut(e, &w, "sll", 0, ibw_sll_SIZE);
            break;
        }
        ibw__decap_add(e, IBW_ENC_SLL, 0, ibw_sll_SIZE);
        /* the payload is what followed the EtherType: read from it */
        ibw__decap_enter(e, &w, ibw_sll_SIZE - 2u, IBW_LINK_ETHERTYPE);
        rc = ibw__decap_ethertype(e, &w, ibw_sll_SIZE,
                                  ibw_sll_get_protocol(data), 0);
        break;
    case IBW_OUTER_SLL2:
        if (len < ibw_sll2_SIZE) {
            rc = ibw__decap_cut(e, &w, "sll2", 0, ibw_sll2_SIZE);
            break;
        }
        ibw__decap_add(e, IBW_ENC_SLL2, 0, ibw_sll2_SIZE);
        /* the payload starts after the header, without its EtherType:
         * RoCEv1 from its GRH, IP as IP; the kernel has taken VLAN tags
         * off, and anything else is no IBA packet */
        ibw__decap_enter(e, &w, ibw_sll2_SIZE,
                         ibw_sll2_get_protocol(data) == IBW_ETHERTYPE_ROCEV1
                             ? IBW_LINK_ROCEV1
                             : IBW_LINK_IP);
        rc = ibw__decap_ethertype(e, &w, ibw_sll2_SIZE,
                                  ibw_sll2_get_protocol(data), 0);
        break;
    default:
        return ibw__decap_fail(e, IBW_E_LINKTYPE, "frame", NULL);
    }
    (void)rc;
    e->n = (uint8_t)(e->err ? e->n : w.cand_n);
    e->inner_off = (uint32_t)w.cand_off;
    e->inner_len = (uint32_t)(w.cand_end - w.cand_off);
    e->inner_link = (uint8_t)w.cand_link;
    return e->err;
}

#ifdef __cplusplus
}
#endif

#endif /* IBWIRE_ENCAP_H */
