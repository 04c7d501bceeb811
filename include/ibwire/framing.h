/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ibwire/framing.h - how IBA packets travel over Ethernet (catalog W15).
 *
 * Ethernet II, the 802.1Q tag, IPv4, IPv6 and UDP as field lists (the same
 * IBW_WIRE_FORMAT machinery as the IBA headers), the constants that select
 * RoCEv1 (EtherType 0x8915, a GRH follows) and RoCEv2 (UDP destination port
 * 4791, a BTH follows), the IPv4 header checksum, and the CNP body.
 *
 * Sources: IEEE 802.3 / 802.1Q, RFC 791 (IPv4), RFC 8200 (IPv6), RFC 768
 * (UDP), RFC 1071 (checksum), IBA Vol. 1 annex A16 (RoCE) and A17 (RoCEv2,
 * CNP).
 */
#ifndef IBWIRE_FRAMING_H
#define IBWIRE_FRAMING_H

#include "base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* EtherTypes and the IP/UDP numbers RoCE uses. */
#define IBW_ETHERTYPE_IPV4 0x0800u
#define IBW_ETHERTYPE_IPV6 0x86DDu
#define IBW_ETHERTYPE_VLAN 0x8100u  /* 802.1Q customer tag */
#define IBW_ETHERTYPE_QINQ 0x88A8u  /* 802.1ad service tag */
#define IBW_ETHERTYPE_ROCEV1 0x8915u
#define IBW_IPPROTO_UDP 17u
#define IBW_ROCEV2_UDP_PORT 4791u

/* Ethernet frames shorter than this (without FCS) are padded by the MAC. */
#define IBW_ETH_MIN_FRAME 60u
#define IBW_ETH_FCS_LEN 4u

/* Ethernet II header, 14 bytes. */
#define IBW_ETH_FIELDS(X, c)                                              \
    X(c, dmac, 0, 0, 48, BYTES, "destination MAC address")                \
    X(c, smac, 6, 0, 48, BYTES, "source MAC address")                     \
    X(c, ethertype, 12, 0, 16, U16, "EtherType of what follows")
IBW_WIRE_FORMAT(ibw_eth, IBW_ETH_FIELDS, 14, "eth", "W15",
                "Ethernet II header", "IEEE 802.3 3.1.1", "IEEE")

/*
 * 802.1Q tag as it sits after the EtherType 0x8100 / 0x88A8 that announced
 * it: the tag control information and the EtherType of what follows.  The
 * TPID itself is the ethertype field of the header before.
 */
#define IBW_VLAN_FIELDS(X, c)                                             \
    X(c, pcp, 0, 0, 3, U8, "priority code point")                         \
    X(c, dei, 0, 3, 1, U8, "drop eligible indicator")                     \
    X(c, vid, 0, 4, 12, U16, "VLAN identifier")                           \
    X(c, ethertype, 2, 0, 16, U16, "EtherType of what follows")
IBW_WIRE_FORMAT(ibw_vlan, IBW_VLAN_FIELDS, 4, "vlan", "W15",
                "802.1Q VLAN tag (TCI and inner EtherType)", "IEEE 802.1Q 9.6",
                "IEEE")

/* IPv4 header without options, 20 bytes; options (IHL > 5) follow it. */
#define IBW_IPV4_FIELDS(X, c)                                             \
    X(c, version, 0, 0, 4, U8, "IP version (4)")                          \
    X(c, ihl, 0, 4, 4, U8, "header length in 4-byte words (5..15)")       \
    X(c, dscp, 1, 0, 6, U8, "differentiated services code point")         \
    X(c, ecn, 1, 6, 2, U8, "explicit congestion notification")            \
    X(c, total_length, 2, 0, 16, U16, "header + payload bytes")           \
    X(c, id, 4, 0, 16, U16, "identification")                             \
    X(c, resv, 6, 0, 1, U8, "reserved flag (0)")                          \
    X(c, df, 6, 1, 1, U8, "don't fragment")                               \
    X(c, mf, 6, 2, 1, U8, "more fragments")                               \
    X(c, frag_offset, 6, 3, 13, U16, "fragment offset, 8-byte units")     \
    X(c, ttl, 8, 0, 8, U8, "time to live")                                \
    X(c, protocol, 9, 0, 8, U8, "protocol of the payload (17 UDP)")       \
    X(c, checksum, 10, 0, 16, U16, "header checksum")                     \
    X(c, saddr, 12, 0, 32, BYTES, "source address")                       \
    X(c, daddr, 16, 0, 32, BYTES, "destination address")
IBW_WIRE_FORMAT(ibw_ipv4, IBW_IPV4_FIELDS, 20, "ipv4", "W15", "IPv4 header",
                "RFC 791 3.1", "IETF")

/* IPv4 header length in bytes from its first byte (IHL * 4). */
static inline unsigned ibw_ipv4_hdr_len(const uint8_t *hdr)
{
    return (unsigned)ibw_ipv4_get_ihl(hdr) * 4u;
}

/* IPv6 fixed header, 40 bytes. */
#define IBW_IPV6_FIELDS(X, c)                                             \
    X(c, version, 0, 0, 4, U8, "IP version (6)")                          \
    X(c, tclass, 0, 4, 8, U8, "traffic class (DSCP and ECN)")             \
    X(c, flowlabel, 1, 4, 20, U32, "flow label")                          \
    X(c, paylen, 4, 0, 16, U16, "bytes after this header")                \
    X(c, nexthdr, 6, 0, 8, U8, "next header (17 UDP)")                    \
    X(c, hoplimit, 7, 0, 8, U8, "hop limit")                              \
    X(c, saddr, 8, 0, 128, BYTES, "source address")                       \
    X(c, daddr, 24, 0, 128, BYTES, "destination address")
IBW_WIRE_FORMAT(ibw_ipv6, IBW_IPV6_FIELDS, 40, "ipv6", "W15", "IPv6 header",
                "RFC 8200 3", "IETF")

/* UDP header, 8 bytes. */
#define IBW_UDP_FIELDS(X, c)                                              \
    X(c, sport, 0, 0, 16, U16, "source port (RoCEv2: flow entropy)")      \
    X(c, dport, 2, 0, 16, U16, "destination port (4791 RoCEv2)")          \
    X(c, length, 4, 0, 16, U16, "header + payload bytes")                 \
    X(c, checksum, 6, 0, 16, U16, "checksum (RoCEv2 usually 0)")
IBW_WIRE_FORMAT(ibw_udp, IBW_UDP_FIELDS, 8, "udp", "W15", "UDP header",
                "RFC 768", "IETF")

/*
 * The body of a RoCEv2 Congestion Notification Packet: after a BTH with
 * opcode IBW_OP_CNP, 0x81 (FECN 0, BECN 1, DestQP the QP to slow down), 16 reserved
 * bytes, then the ICRC.  No payload.
 */
#define IBW_CNP_FIELDS(X, c) X(c, resv, 0, 0, 128, BYTES, "reserved (zero)")
IBW_WIRE_FORMAT(ibw_cnp, IBW_CNP_FIELDS, 16, "cnp", "W15",
                "CNP reserved bytes after the BTH", "IBA Vol.1 A17.9.3",
                "IBA")

/*
 * IPv4 header checksum (RFC 1071) of the `hlen`-byte header at hdr, with
 * the checksum field taken as zero: the value to store.  hlen must be even
 * (IHL*4 always is); the caller guarantees the bytes exist.
 */
static inline uint16_t ibw_ipv4_checksum(const uint8_t *hdr, size_t hlen)
{
    /* Big-endian 32-bit words: 2^16 is 1 modulo 2^16 - 1, so a word adds
     * what its two halves add to the folded sum (RFC 1071, 2.(B)), at half
     * the loads of a 16-bit loop (this runs on every IPv4 frame).  The
     * checksum field is taken out of the plain sum afterwards. */
    uint64_t sum = 0;
    size_t i = 0;
    for (; i + 4 <= hlen; i += 4)
        sum += ibw_load_be32(hdr + i);
    if (i + 1 < hlen)
        sum += ibw_load_be16(hdr + i);
    if (hlen >= 12)
        sum -= ibw_load_be16(hdr + 10);
    while (sum >> 16)
        sum = (sum & 0xFFFFu) + (sum >> 16);
    return (uint16_t)~sum;
}

/* 1 when the checksum carried in the hlen-byte header at hdr is right. */
static inline int ibw_ipv4_checksum_ok(const uint8_t *hdr, size_t hlen)
{
    return ibw_ipv4_checksum(hdr, hlen) == ibw_ipv4_get_checksum(hdr);
}

#ifdef __cplusplus
}
#endif

#endif /* IBWIRE_FRAMING_H */
