/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ibwire/packet.h - one-call packet parser and builder, ICRC/VCRC.
 *
 * ibw_parse(): bytes + link kind -> struct ibw_pkt, a view holding the offset
 * of every header present, the payload, pad, ICRC and VCRC with verdicts, or
 * the first error with the header and field it concerns.  The view never
 * points outside the input.
 *
 * ibw_build(): headers + payload -> bytes, with lengths, pad, IPv4 checksum,
 * ICRC and VCRC filled in.  ibw_build_spec_from_pkt() turns a view back into
 * a spec (parse, edit, rebuild).
 *
 * ibw_icrc_compute() / ibw_vcrc_compute(): the CRCs of a view, for every
 * carriage (W13); ibw_pkt_store_crcs() writes them after in-place edits.
 *
 * Verdicts versus errors: CRC and IPv4 checksum mismatches are reported in
 * icrc_status / vcrc_status / ip_csum_status and never stop the parse, so a
 * checker sees every field of a corrupted packet; structural problems
 * (lengths, versions, reserved opcodes) are errors.
 */
#ifndef IBWIRE_PACKET_H
#define IBWIRE_PACKET_H

#include "base.h"
#include "crc.h"
#include "framing.h"
#include "opcode.h"
#include "wire.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where the bytes handed to ibw_parse() start. */
enum ibw_link {
    IBW_LINK_ETHERNET = 1, /* Ethernet II (RoCEv1, RoCEv2, VLAN tags) */
    IBW_LINK_ETHERTYPE = 2,/* Ethernet without its addresses: the bytes
                              start at the EtherType (a Linux cooked
                              capture's protocol field, encap.h) */
    IBW_LINK_ROCEV1 = 3,   /* a RoCEv1 packet from its GRH: what follows
                              EtherType 0x8915 (a Linux cooked v2 capture
                              keeps the EtherType apart, encap.h) */
    IBW_LINK_IP = 101,     /* an IP packet, IPv4 or IPv6 by its version
                              (pcap's LINKTYPE_RAW; IP carried by a tunnel
                              without an Ethernet header, encap.h) */
    IBW_LINK_IB = 247      /* native InfiniBand, starting at the LRH */
};

/* How the IBA transport was carried. */
enum ibw_transport_kind {
    IBW_TK_NONE = 0,   /* not an IBA packet (e.g. plain Ethernet/IP) */
    IBW_TK_IB_LOCAL,   /* native IB, LRH + BTH */
    IBW_TK_IB_GLOBAL,  /* native IB, LRH + GRH + BTH */
    IBW_TK_IB_RAW,     /* native IB, LNH raw or IP (no BTH) */
    IBW_TK_ROCE_V1,    /* Ethernet 0x8915 + GRH + BTH */
    IBW_TK_ROCE_V2_IP4,/* IPv4 + UDP 4791 + BTH */
    IBW_TK_ROCE_V2_IP6 /* IPv6 + UDP 4791 + BTH */
};

/* enum ibw_hdr (header indices into ibw_pkt.off[], bits of ibw_pkt.present)
 * is declared in opcode.h, which names the headers in its table. */

/* Bytes of the invariant CRC (after the payload and pad of every IBA
 * packet) and of the variant CRC (after the ICRC, native IB only). */
enum { IBW_ICRC_BYTES = 4, IBW_VCRC_BYTES = 2 };

enum ibw_crc_status {
    IBW_CRC_ABSENT = 0,   /* not carried by this packet */
    IBW_CRC_GOOD = 1,
    IBW_CRC_BAD = 2,
    IBW_CRC_UNCHECKED = 3 /* carried, but the frame was cut before it (or
                             before the bytes it covers end): not verified */
};

/*
 * The parse view.  All offsets are from `data`; a header is present when
 * its bit is set in `present`.  When err != IBW_OK the fields before the
 * failing header are valid and err_hdr/err_field name what was wrong
 * (static strings, e.g. "bth", "padcnt").
 */
struct ibw_pkt {
    const uint8_t *data;
    size_t len;
    uint8_t link;           /* enum ibw_link */
    uint8_t transport;      /* enum ibw_transport_kind */
    uint32_t present;       /* bit set of enum ibw_hdr */
    uint16_t off[IBW_HDR_COUNT];
    uint8_t opcode;         /* BTH opcode, valid when BTH present */
    uint32_t payload_off;   /* IBA payload (after the last transport header);
                               in a cut frame set only when every header
                               was captured (0 otherwise) */
    uint32_t payload_len;   /* without pad; in a cut frame the payload bytes
                               captured */
    uint8_t pad;            /* BTH PadCnt bytes after the payload */
    uint32_t icrc_off;      /* valid when icrc_status is GOOD or BAD; in a
                               cut frame where the ICRC starts if it was
                               captured whole (native IB cut in the VCRC),
                               else 0 */
    uint32_t icrc_wire;     /* as carried: the CRC value (wire bytes LSB first) */
    uint32_t icrc_calc;     /* as computed over the masked invariant fields */
    uint8_t icrc_status;    /* enum ibw_crc_status */
    uint32_t vcrc_off;      /* native IB only; 0 in a cut frame */
    uint16_t vcrc_wire;
    uint16_t vcrc_calc;
    uint8_t vcrc_status;
    uint32_t trailer_len;   /* bytes after ICRC/VCRC (e.g. Ethernet padding/FCS) */
    uint32_t iba_end;       /* offset just past the IBA packet (ICRC, or VCRC
                               on native IB), i.e. len - trailer_len; for
                               IP without IBA, just past the IP packet; len
                               in a cut frame (see wire_len) */
    uint16_t ethertype;     /* Ethernet: the EtherType after any VLAN tags */
    uint8_t nvlan;          /* Ethernet: VLAN tags seen (0..2) */
    uint8_t ip_csum_status; /* IPv4: enum ibw_crc_status of the header
                               checksum (ABSENT otherwise; UNCHECKED when
                               cut inside the options).  A bad checksum
                               does not fail the parse. */
    uint8_t cut;            /* 1: the bytes end before the packet does, as its
                               length fields tell (a capture's snap length).
                               Every header that fits is in the view;
                               payload_len counts the captured payload bytes
                               only, payload_wire_len what the packet carried;
                               ICRC/VCRC are IBW_CRC_UNCHECKED (the ICRC once
                               the carriage is known to hold a BTH, the VCRC
                               on link IB).  ibw_parse() returns
                               IBW_E_TRUNCATED, or the structural error found
                               in the captured headers. */
    uint8_t cut_hdr;        /* when cut: the first header (enum ibw_hdr) not
                               wholly captured (not in `present`; off[cut_hdr]
                               is where it starts, at most len: its captured
                               part is [off, len)), or IBW_HDR_COUNT when every
                               header fits and the cut falls in the payload,
                               pad or CRCs (or the headers after the cut are
                               not known: not RoCE, IPv6 extension headers,
                               or an error stopped the parse first) */
    uint32_t wire_len;      /* bytes from data[0] to the end of the IBA packet
                               (ICRC, or VCRC on native IB) as the length
                               fields say: iba_end for a whole frame, more
                               than len for a cut one; 0 when the cut falls
                               before the length field.  Without IBA, the end
                               of the IP packet (as iba_end) */
    uint32_t payload_wire_len; /* payload bytes the packet carried (without
                               pad); equals payload_len unless cut */
    int err;                /* enum ibw_err */
    const char *err_hdr;    /* header the error concerns, or NULL */
    const char *err_field;  /* field the error concerns, or NULL */
};

/* Is header h present in the view? */
static inline int ibw_pkt_has(const struct ibw_pkt *pkt, enum ibw_hdr h)
{
    return (pkt->present >> (unsigned)h) & 1u;
}

/* Pointer to header h, or NULL when it is absent. */
static inline const uint8_t *ibw_pkt_hdr(const struct ibw_pkt *pkt,
                                         enum ibw_hdr h)
{
    return ibw_pkt_has(pkt, h) ? pkt->data + pkt->off[h] : NULL;
}


/* The field descriptor of header h (for tools that walk a view), or NULL
 * when h is out of range.  Headers with variable length (IPv4 options) are
 * described by their fixed part. */
static inline const struct ibw_format *ibw_hdr_format(unsigned h)
{
    switch (h) {
    case IBW_HDR_ETH: return ibw_eth_format();
    case IBW_HDR_VLAN:
    case IBW_HDR_VLAN2: return ibw_vlan_format();
    case IBW_HDR_IPV4: return ibw_ipv4_format();
    case IBW_HDR_IPV6: return ibw_ipv6_format();
    case IBW_HDR_UDP: return ibw_udp_format();
    case IBW_HDR_LRH: return ibw_lrh_format();
    case IBW_HDR_GRH: return ibw_grh_format();
    case IBW_HDR_BTH: return ibw_bth_format();
    case IBW_HDR_RDETH: return ibw_rdeth_format();
    case IBW_HDR_DETH: return ibw_deth_format();
    case IBW_HDR_XRCETH: return ibw_xrceth_format();
    case IBW_HDR_RETH: return ibw_reth_format();
    case IBW_HDR_FETH: return ibw_feth_format();
    case IBW_HDR_ATOMICETH: return ibw_atomiceth_format();
    case IBW_HDR_AETH: return ibw_aeth_format();
    case IBW_HDR_ATOMICACKETH: return ibw_atomicacketh_format();
    case IBW_HDR_IMMDT: return ibw_immdt_format();
    case IBW_HDR_IETH: return ibw_ieth_format();
    case IBW_HDR_CNP: return ibw_cnp_format();
    default: return NULL;
    }
}

/* A short name for a transport kind: "RoCEv2/IPv4", "IB local", ..., or
 * NULL for an unknown kind. */
static inline const char *ibw_transport_kind_name(unsigned tk)
{
    switch (tk) {
    case IBW_TK_NONE: return "none";
    case IBW_TK_IB_LOCAL: return "IB local";
    case IBW_TK_IB_GLOBAL: return "IB global";
    case IBW_TK_IB_RAW: return "IB raw";
    case IBW_TK_ROCE_V1: return "RoCEv1";
    case IBW_TK_ROCE_V2_IP4: return "RoCEv2/IPv4";
    case IBW_TK_ROCE_V2_IP6: return "RoCEv2/IPv6";
    default: return NULL;
    }
}

/* ------------------------------------------------------------------------ */
/* ICRC and VCRC                                                             */
/* ------------------------------------------------------------------------ */

/*
 * The ICRC of a parsed packet: zlib's CRC-32 over the invariant fields, i.e.
 *   native IB, no GRH:  LRH with VL set to ones, BTH with byte 4 ones, rest;
 *   native IB + GRH, RoCEv1:  8 bytes of ones instead of the LRH, GRH with
 *       traffic class, flow label and hop limit ones, BTH byte 4 ones, rest;
 *   RoCEv2/IPv4:  8 bytes of ones, IPv4 header with TOS, TTL and checksum
 *       ones, UDP header with checksum ones, BTH byte 4 ones, rest;
 *   RoCEv2/IPv6:  8 bytes of ones, IPv6 header with traffic class, flow label
 *       and hop limit ones, UDP checksum ones, BTH byte 4 ones, rest;
 * where "rest" is every byte after the BTH up to the ICRC (extended headers,
 * payload, pad).  Only the headers up to the BTH are copied (at most 88
 * bytes); the rest is read in place.  Needs the BTH and icrc_off of a view
 * that ibw_parse() filled; returns 0 when the view has no BTH.
 */
static inline uint32_t ibw_icrc_compute(const struct ibw_pkt *pkt)
{
    uint8_t buf[8 + 60 + 8 + 12 + 16];
    size_t n = 0, start;
    const uint8_t *d = pkt->data;

    if (!ibw_pkt_has(pkt, IBW_HDR_BTH) || pkt->icrc_off < pkt->off[IBW_HDR_BTH] +
                                                           (size_t)ibw_bth_SIZE)
        return 0;
    switch (pkt->transport) {
    case IBW_TK_IB_LOCAL:
        start = pkt->off[IBW_HDR_LRH];
        break;
    case IBW_TK_IB_GLOBAL:
    case IBW_TK_ROCE_V1:
        start = pkt->off[IBW_HDR_GRH];
        break;
    case IBW_TK_ROCE_V2_IP4:
        start = pkt->off[IBW_HDR_IPV4];
        break;
    case IBW_TK_ROCE_V2_IP6:
        start = pkt->off[IBW_HDR_IPV6];
        break;
    default:
        return 0;
    }
    if (pkt->transport != IBW_TK_IB_LOCAL) {
        memset(buf, 0xFF, 8); /* the LRH, present or not, counts as ones */
        n = 8;
    }
    size_t bth = pkt->off[IBW_HDR_BTH];
    size_t hl = bth + ibw_bth_SIZE - start;
    if (bth < start || hl > sizeof buf - n)
        return 0;
    memcpy(buf + n, d + start, hl);
    uint8_t *h = buf + n;
    switch (pkt->transport) {
    case IBW_TK_IB_LOCAL:
        h[0] |= 0xF0; /* VL */
        break;
    case IBW_TK_ROCE_V2_IP4:
        h[1] = 0xFF;               /* TOS */
        h[8] = 0xFF;               /* TTL */
        h[10] = h[11] = 0xFF;      /* header checksum */
        break;
    default:                       /* IPv6 header or GRH: same first 8 bytes */
        h[0] |= 0x0F;              /* traffic class, flow label */
        h[1] = h[2] = h[3] = 0xFF;
        h[7] = 0xFF;               /* hop limit */
        break;
    }
    if (pkt->transport == IBW_TK_ROCE_V2_IP4 ||
        pkt->transport == IBW_TK_ROCE_V2_IP6) {
        size_t udp = pkt->off[IBW_HDR_UDP] - start;
        h[udp + 6] = h[udp + 7] = 0xFF; /* UDP checksum */
    }
    h[bth - start + 4] = 0xFF; /* FECN, BECN, resv6 */
    /* The first bytes after the BTH join the copy, up to a multiple of 16
     * of at least 64: then the whole copy takes the four-lane carry-less
     * multiply path of ibw_crc32() too, not only the rest (headers alone
     * are 20 to 88 bytes, under the 64 bytes that path starts at). */
    const uint8_t *rest = d + bth + ibw_bth_SIZE;
    size_t nrest = pkt->icrc_off - (bth + ibw_bth_SIZE), got = n + hl;
    size_t want = got < 64 ? 64 : (got + 15) & ~(size_t)15;
    size_t extra = want - got < nrest ? want - got : nrest;
    if (extra <= sizeof buf - got) {
        memcpy(buf + got, rest, extra);
        got += extra;
        rest += extra;
        nrest -= extra;
    }
    uint32_t crc = ibw_crc32(0, buf, got);
    return ibw_crc32(crc, rest, nrest);
}

/* The VCRC of a parsed native-IB packet: CRC-16 over LRH through ICRC
 * (vcrc_off bytes from the LRH).  0 when the view has no LRH. */
static inline uint16_t ibw_vcrc_compute(const struct ibw_pkt *pkt)
{
    if (!ibw_pkt_has(pkt, IBW_HDR_LRH) ||
        pkt->vcrc_off < pkt->off[IBW_HDR_LRH] + (size_t)ibw_lrh_SIZE)
        return 0; /* also a cut frame: vcrc_off 0 */
    return ibw_vcrc(pkt->data + pkt->off[IBW_HDR_LRH],
                    pkt->vcrc_off - pkt->off[IBW_HDR_LRH]);
}

/* ------------------------------------------------------------------------ */
/* Parser                                                                    */
/* ------------------------------------------------------------------------ */

/* ibw_parse_flags() options. */
enum ibw_parse_flag {
    IBW_PARSE_NO_CRC = 1u << 0 /* skip ICRC/VCRC (statuses stay ABSENT) */
};

static inline int ibw__fail(struct ibw_pkt *pkt, int err, unsigned hdr,
                            const char *field)
{
    pkt->err = err;
    pkt->err_hdr = hdr < IBW_HDR_COUNT ? ibw_hdr_name(hdr) : "frame";
    pkt->err_field = field;
    return err;
}

static inline void ibw__mark(struct ibw_pkt *pkt, unsigned hdr, size_t off)
{
    pkt->present |= 1u << hdr;
    pkt->off[hdr] = (uint16_t)off;
}

/*
 * Length field hdr.field says the packet runs to wire_len, past the captured
 * bytes: the frame is cut.  Parsing goes on over what was captured; the
 * field is named now (err stays IBW_OK) so that ibw_parse_flags() can report
 * IBW_E_TRUNCATED at the end, unless a structural error overwrites it.
 */
static inline void ibw__cut_len(struct ibw_pkt *pkt, size_t wire_len,
                                unsigned hdr, const char *field)
{
    pkt->cut = 1;
    pkt->cut_hdr = IBW_HDR_COUNT;
    pkt->wire_len = (uint32_t)wire_len;
    pkt->err_hdr = ibw_hdr_name(hdr);
    pkt->err_field = field;
}

/*
 * Header hdr, starting at `off`, does not wholly fit in the captured bytes:
 * it is not in the view (a fixed part already marked is taken back) and
 * nothing after it is decoded; off[hdr] keeps where it starts, so that a
 * tool can show the part that was captured.  When no length field has been
 * read yet the cut is in a fixed header: wire_len stays 0 and the error
 * names the header alone.
 */
static inline int ibw__cut_hdr(struct ibw_pkt *pkt, unsigned hdr, size_t off)
{
    pkt->present &= ~(1u << hdr);
    pkt->off[hdr] = (uint16_t)off;
    if (!pkt->cut) {
        pkt->cut = 1;
        pkt->cut_hdr = (uint8_t)hdr;
        pkt->wire_len = 0;
        pkt->err_hdr = ibw_hdr_name(hdr);
        pkt->err_field = NULL;
    } else if (pkt->cut_hdr == IBW_HDR_COUNT) {
        pkt->cut_hdr = (uint8_t)hdr;
    }
    pkt->err = IBW_E_TRUNCATED;
    return pkt->err;
}

/* The opcode table entry of the BTH at `bth` (already in the view), or
 * NULL after failing the parse on its TVer or a reserved opcode. */
static inline const struct ibw_opcode_info *ibw__bth_opcode(struct ibw_pkt *pkt,
                                                           size_t bth)
{
    if (ibw_bth_get_tver(pkt->data + bth) != 0) {
        ibw__fail(pkt, IBW_E_VERSION, IBW_HDR_BTH, "tver");
        return NULL;
    }
    const struct ibw_opcode_info *op = ibw_opcode_info(pkt->opcode);
    if (!(op->flags & IBW_OPF_VALID)) {
        ibw__fail(pkt, IBW_E_OPCODE, IBW_HDR_BTH, "opcode");
        return NULL;
    }
    return op;
}

/*
 * Place the extended headers `op` takes, the first at `pos`, all of them
 * before `end`.  Those captured whole enter the view; from the first that
 * was not, none does (*whole becomes 0, cut_hdr names it).  Returns where
 * the payload starts, or 0 after failing with `short_err` on the first
 * header that does not end by `end`.
 */
static inline size_t ibw__place_ext(struct ibw_pkt *pkt,
                                    const struct ibw_opcode_info *op,
                                    size_t pos, size_t end, int short_err,
                                    int *whole)
{
    for (unsigned i = 0; i < op->nseq; i++) {
        unsigned h = op->seq[i];
        size_t sz = ibw_hdr_size(h);
        if (pos + sz > end) {
            ibw__fail(pkt, short_err, h, NULL);
            return 0;
        }
        if (*whole && pos + sz <= pkt->len) {
            ibw__mark(pkt, h, pos);
        } else if (*whole) {
            *whole = 0;
            pkt->cut_hdr = (uint8_t)h;
            pkt->off[h] = (uint16_t)pos; /* at most len */
        }
        pos += sz;
    }
    return pos;
}

/*
 * The IBA transport part, from the BTH at `bth` to the end of the ICRC at
 * `end`, as the length fields say.  `len_hdr`/`len_field` name the length
 * field that fixed `end`, for the error when the BTH does not fit.  On a cut
 * frame `end` lies past the captured bytes: the headers are still placed by
 * the wire lengths (so PadCnt and the payload rules are judged as on a whole
 * frame) but only those captured whole enter the view, and the ICRC is left
 * unchecked.
 */
static inline int ibw__parse_transport(struct ibw_pkt *pkt, size_t bth,
                                       size_t end, unsigned flags,
                                       unsigned len_hdr, const char *len_field)
{
    const uint8_t *d = pkt->data;
    if (end < bth + ibw_bth_SIZE + IBW_ICRC_BYTES)
        return ibw__fail(pkt, IBW_E_LENGTH, len_hdr, len_field);
    if (bth + ibw_bth_SIZE > pkt->len)
        return ibw__cut_hdr(pkt, IBW_HDR_BTH, bth);
    ibw__mark(pkt, IBW_HDR_BTH, bth);
    pkt->opcode = ibw_bth_get_opcode(d + bth);
    size_t icrc = end - IBW_ICRC_BYTES; /* where the ICRC is on the wire */
    if (!pkt->cut) {
        pkt->icrc_off = (uint32_t)icrc;
        if (!(flags & IBW_PARSE_NO_CRC)) {
            pkt->icrc_wire = ibw_load_le32(d + icrc);
            pkt->icrc_calc = ibw_icrc_compute(pkt);
            pkt->icrc_status = pkt->icrc_calc == pkt->icrc_wire ? IBW_CRC_GOOD
                                                                : IBW_CRC_BAD;
        }
    } else {
        /* Native IB cut inside the VCRC still holds the whole ICRC: locate
         * it for display; it is not verified (the frame is cut). */
        if (icrc + IBW_ICRC_BYTES <= pkt->len) {
            pkt->icrc_off = (uint32_t)icrc;
            pkt->icrc_wire = ibw_load_le32(d + icrc);
        }
    }
    const struct ibw_opcode_info *op = ibw__bth_opcode(pkt, bth);
    if (!op)
        return pkt->err;
    int whole = 1; /* every header so far was captured whole */
    size_t pos = ibw__place_ext(pkt, op, bth + ibw_bth_SIZE, icrc,
                                IBW_E_LENGTH, &whole);
    if (!pos)
        return pkt->err;
    size_t avail = icrc - pos; /* payload and pad, on the wire */
    unsigned pad = ibw_bth_get_padcnt(d + bth);
    if (whole)
        pkt->payload_off = (uint32_t)pos;
    if (pad > avail)
        return ibw__fail(pkt, IBW_E_PAD, IBW_HDR_BTH, "padcnt");
    pkt->pad = (uint8_t)pad;
    pkt->payload_wire_len = (uint32_t)(avail - pad);
    if (whole) {
        size_t got = pkt->len - pos; /* pos <= len: the headers fit */
        pkt->payload_len = (uint32_t)(got < pkt->payload_wire_len
                                          ? got
                                          : pkt->payload_wire_len);
    }
    /* Bytes where the opcode allows none, or ATOMIC WRITE not carrying
     * exactly 8: the payload is what is wrong, not a header.  Judged by the
     * wire lengths, so a cut frame gets the same verdict as a whole one. */
    if ((!(op->flags & IBW_OPF_PAYLOAD) && avail != 0) ||
        (op->kind == IBW_OPK_ATOMIC_WRITE &&
         pkt->payload_wire_len != IBW_ATOMIC_WRITE_PAYLOAD)) {
        pkt->err = IBW_E_LENGTH;
        pkt->err_hdr = "payload";
        pkt->err_field = "length";
    }
    return pkt->err;
}

/* Native InfiniBand from the LRH at data[0]. */
static inline int ibw__parse_ib(struct ibw_pkt *pkt, unsigned flags)
{
    const uint8_t *d = pkt->data;
    if (pkt->len < ibw_lrh_SIZE)
        return ibw__cut_hdr(pkt, IBW_HDR_LRH, 0);
    ibw__mark(pkt, IBW_HDR_LRH, 0);
    if (ibw_lrh_get_lver(d) != 0)
        return ibw__fail(pkt, IBW_E_VERSION, IBW_HDR_LRH, "lver");
    size_t end = (size_t)ibw_lrh_get_pktlen(d) * 4; /* where the VCRC is */
    unsigned lnh = ibw_lrh_get_lnh(d);
    if (end < ibw_lrh_SIZE)
        return ibw__fail(pkt, IBW_E_LENGTH, IBW_HDR_LRH, "pktlen");
    if (end + IBW_VCRC_BYTES > pkt->len) {
        ibw__cut_len(pkt, end + IBW_VCRC_BYTES, IBW_HDR_LRH, "pktlen");
    } else {
        pkt->vcrc_off = (uint32_t)end;
        pkt->iba_end = (uint32_t)(end + IBW_VCRC_BYTES);
        pkt->trailer_len = (uint32_t)(pkt->len - end - IBW_VCRC_BYTES);
        if (!(flags & IBW_PARSE_NO_CRC)) {
            pkt->vcrc_wire = (uint16_t)(d[end] | (d[end + 1] << 8));
            pkt->vcrc_calc = ibw_vcrc_compute(pkt);
            pkt->vcrc_status = pkt->vcrc_calc == pkt->vcrc_wire ? IBW_CRC_GOOD
                                                                : IBW_CRC_BAD;
        }
    }
    if (lnh == IBW_LNH_RAW || lnh == IBW_LNH_IP) {
        pkt->transport = IBW_TK_IB_RAW; /* no BTH, no ICRC */
        pkt->payload_off = ibw_lrh_SIZE;
        pkt->payload_wire_len = (uint32_t)(end - ibw_lrh_SIZE);
        pkt->payload_len = (uint32_t)((end < pkt->len ? end : pkt->len) -
                                      ibw_lrh_SIZE);
        return IBW_OK;
    }
    size_t bth = ibw_lrh_SIZE;
    pkt->transport = IBW_TK_IB_LOCAL;
    if (lnh == IBW_LNH_IBA_GLOBAL) {
        pkt->transport = IBW_TK_IB_GLOBAL;
        if (end < (size_t)ibw_lrh_SIZE + ibw_grh_SIZE)
            return ibw__fail(pkt, IBW_E_LENGTH, IBW_HDR_LRH, "pktlen");
        if (bth + ibw_grh_SIZE > pkt->len)
            return ibw__cut_hdr(pkt, IBW_HDR_GRH, bth);
        ibw__mark(pkt, IBW_HDR_GRH, bth);
        const uint8_t *g = d + bth;
        if (ibw_grh_get_ipver(g) != 6)
            return ibw__fail(pkt, IBW_E_VERSION, IBW_HDR_GRH, "ipver");
        if (ibw_grh_get_nxthdr(g) != IBW_GRH_NXTHDR_IBA)
            return ibw__fail(pkt, IBW_E_HDRSEQ, IBW_HDR_GRH, "nxthdr");
        if (ibw_grh_get_paylen(g) != end - ibw_lrh_SIZE - ibw_grh_SIZE)
            return ibw__fail(pkt, IBW_E_LENGTH, IBW_HDR_GRH, "paylen");
        bth += ibw_grh_SIZE;
    }
    return ibw__parse_transport(pkt, bth, end, flags, IBW_HDR_LRH, "pktlen");
}

/* RoCEv1: the GRH at `off`, its PayLen fixing the end. */
static inline int ibw__parse_rocev1(struct ibw_pkt *pkt, size_t off,
                                    unsigned flags)
{
    const uint8_t *g = pkt->data + off;
    if (off + ibw_grh_SIZE > pkt->len)
        return ibw__cut_hdr(pkt, IBW_HDR_GRH, off);
    ibw__mark(pkt, IBW_HDR_GRH, off);
    pkt->transport = IBW_TK_ROCE_V1;
    if (ibw_grh_get_ipver(g) != 6)
        return ibw__fail(pkt, IBW_E_VERSION, IBW_HDR_GRH, "ipver");
    if (ibw_grh_get_nxthdr(g) != IBW_GRH_NXTHDR_IBA)
        return ibw__fail(pkt, IBW_E_HDRSEQ, IBW_HDR_GRH, "nxthdr");
    size_t end = off + ibw_grh_SIZE + ibw_grh_get_paylen(g);
    if (end > pkt->len) {
        ibw__cut_len(pkt, end, IBW_HDR_GRH, "paylen");
    } else {
        pkt->iba_end = (uint32_t)end;
        pkt->trailer_len = (uint32_t)(pkt->len - end);
    }
    return ibw__parse_transport(pkt, off + ibw_grh_SIZE, end, flags,
                                IBW_HDR_GRH, "paylen");
}

/* UDP at `l4` ending at `l4end` (as the IP header says); `ip` names the IP
 * header for errors.  Not RoCEv2 (other port) is no error. */
static inline int ibw__parse_udp(struct ibw_pkt *pkt, size_t l4, size_t l4end,
                                 unsigned ip, unsigned tk, unsigned flags)
{
    const uint8_t *d = pkt->data;
    if (l4 + ibw_udp_SIZE > l4end)
        return ibw__fail(pkt, IBW_E_LENGTH, ip,
                         ip == IBW_HDR_IPV4 ? "total_length" : "paylen");
    if (l4 + ibw_udp_SIZE > pkt->len)
        return ibw__cut_hdr(pkt, IBW_HDR_UDP, l4);
    ibw__mark(pkt, IBW_HDR_UDP, l4);
    if (ibw_udp_get_length(d + l4) != l4end - l4)
        return ibw__fail(pkt, IBW_E_LENGTH, IBW_HDR_UDP, "length");
    if (ibw_udp_get_dport(d + l4) != IBW_ROCEV2_UDP_PORT)
        return IBW_OK;
    pkt->transport = (uint8_t)tk;
    return ibw__parse_transport(pkt, l4 + ibw_udp_SIZE, l4end, flags,
                                IBW_HDR_UDP, "length");
}

static inline int ibw__parse_ipv4(struct ibw_pkt *pkt, size_t off,
                                  unsigned flags)
{
    const uint8_t *ip = pkt->data + off;
    if (off + ibw_ipv4_SIZE > pkt->len)
        return ibw__cut_hdr(pkt, IBW_HDR_IPV4, off);
    ibw__mark(pkt, IBW_HDR_IPV4, off);
    if (ibw_ipv4_get_version(ip) != 4)
        return ibw__fail(pkt, IBW_E_VERSION, IBW_HDR_IPV4, "version");
    size_t hl = ibw_ipv4_hdr_len(ip);
    if (hl < ibw_ipv4_SIZE)
        return ibw__fail(pkt, IBW_E_LENGTH, IBW_HDR_IPV4, "ihl");
    size_t tl = ibw_ipv4_get_total_length(ip);
    if (tl < hl) {
        /* the view holds headers whole: not one whose options are cut */
        if (off + hl > pkt->len) {
            pkt->present &= ~(1u << IBW_HDR_IPV4);
            pkt->off[IBW_HDR_IPV4] = 0;
        }
        return ibw__fail(pkt, IBW_E_LENGTH, IBW_HDR_IPV4, "total_length");
    }
    if (off + tl > pkt->len) {
        /* cut inside the options: IHL is the first field promising more */
        ibw__cut_len(pkt, off + tl, IBW_HDR_IPV4,
                     off + hl > pkt->len ? "ihl" : "total_length");
    } else {
        pkt->iba_end = (uint32_t)(off + tl);
        pkt->trailer_len = (uint32_t)(pkt->len - off - tl);
    }
    if (off + hl > pkt->len) {
        pkt->ip_csum_status = IBW_CRC_UNCHECKED; /* its options are cut */
        return ibw__cut_hdr(pkt, IBW_HDR_IPV4, off);
    }
    pkt->ip_csum_status = ibw_ipv4_checksum_ok(ip, hl) ? IBW_CRC_GOOD
                                                       : IBW_CRC_BAD;
    /* A fragment cannot be decoded on its own; not UDP is not RoCE. */
    if (ibw_ipv4_get_mf(ip) || ibw_ipv4_get_frag_offset(ip) ||
        ibw_ipv4_get_protocol(ip) != IBW_IPPROTO_UDP)
        return IBW_OK;
    return ibw__parse_udp(pkt, off + hl, off + tl, IBW_HDR_IPV4,
                          IBW_TK_ROCE_V2_IP4, flags);
}

static inline int ibw__parse_ipv6(struct ibw_pkt *pkt, size_t off,
                                  unsigned flags)
{
    const uint8_t *ip = pkt->data + off;
    if (off + ibw_ipv6_SIZE > pkt->len)
        return ibw__cut_hdr(pkt, IBW_HDR_IPV6, off);
    ibw__mark(pkt, IBW_HDR_IPV6, off);
    if (ibw_ipv6_get_version(ip) != 6)
        return ibw__fail(pkt, IBW_E_VERSION, IBW_HDR_IPV6, "version");
    size_t end = off + ibw_ipv6_SIZE + ibw_ipv6_get_paylen(ip);
    if (end > pkt->len) {
        ibw__cut_len(pkt, end, IBW_HDR_IPV6, "paylen");
    } else {
        pkt->iba_end = (uint32_t)end;
        pkt->trailer_len = (uint32_t)(pkt->len - end);
    }
    if (ibw_ipv6_get_nexthdr(ip) != IBW_IPPROTO_UDP)
        return IBW_OK; /* extension headers are not followed */
    return ibw__parse_udp(pkt, off + ibw_ipv6_SIZE, end, IBW_HDR_IPV6,
                          IBW_TK_ROCE_V2_IP6, flags);
}

/* Ethernet II (or, on link ETHERTYPE, its EtherType alone), up to two
 * VLAN tags, then IPv4 / IPv6 / RoCEv1. */
static inline int ibw__parse_eth(struct ibw_pkt *pkt, unsigned flags)
{
    const uint8_t *d = pkt->data;
    size_t off;
    uint16_t et;
    if (pkt->link == IBW_LINK_ETHERTYPE) {
        if (pkt->len < 2)
            return ibw__fail(pkt, IBW_E_TRUNCATED, IBW_HDR_COUNT,
                             "ethertype");
        et = ibw_load_be16(d);
        off = 2;
    } else {
        if (pkt->len < ibw_eth_SIZE)
            return ibw__cut_hdr(pkt, IBW_HDR_ETH, 0);
        ibw__mark(pkt, IBW_HDR_ETH, 0);
        off = ibw_eth_SIZE;
        et = ibw_eth_get_ethertype(d);
    }
    while ((et == IBW_ETHERTYPE_VLAN || et == IBW_ETHERTYPE_QINQ) &&
           pkt->nvlan < 2) {
        unsigned h = pkt->nvlan ? IBW_HDR_VLAN2 : IBW_HDR_VLAN;
        if (off + ibw_vlan_SIZE > pkt->len)
            return ibw__cut_hdr(pkt, h, off);
        ibw__mark(pkt, h, off);
        et = ibw_vlan_get_ethertype(d + off);
        off += ibw_vlan_SIZE;
        pkt->nvlan++;
    }
    pkt->ethertype = et;
    pkt->iba_end = (uint32_t)pkt->len;
    switch (et) {
    case IBW_ETHERTYPE_IPV4:
        return ibw__parse_ipv4(pkt, off, flags);
    case IBW_ETHERTYPE_IPV6:
        return ibw__parse_ipv6(pkt, off, flags);
    case IBW_ETHERTYPE_ROCEV1:
        return ibw__parse_rocev1(pkt, off, flags);
    default:
        return IBW_OK; /* not IBA: transport stays IBW_TK_NONE */
    }
}

/*
 * Parse one frame of `len` bytes starting with the link header named by
 * `link`.  Fills *pkt (fully reset first) and returns pkt->err: IBW_OK for a
 * well-formed frame (pkt->transport IBW_TK_NONE when it carries no IBA
 * packet), else the first error, with pkt->err_hdr / err_field naming the
 * header and field (static strings; err_field may be NULL):
 *   IBW_E_TRUNCATED  the frame is cut (pkt->cut): the bytes end before a
 *                    fixed header (err_hdr that header, no field), or before
 *                    the length a length field announces (the first such
 *                    field: ipv4.total_length, ipv6.paylen, grh.paylen,
 *                    lrh.pktlen; ipv4.ihl when cut inside IPv4 options)
 *   IBW_E_LENGTH     length fields disagree with each other or leave no room
 *                    for a header the opcode needs (err_hdr is that header),
 *                    or bytes follow an opcode that takes no payload
 *                    (err_hdr "payload")
 *   IBW_E_PAD        bth.padcnt larger than what follows the headers
 *   IBW_E_OPCODE     reserved opcode; the BTH is in the view
 *   IBW_E_VERSION    ipv4/ipv6.version, grh.ipver, lrh.lver, bth.tver
 *   IBW_E_HDRSEQ     grh.nxthdr is not 0x1B
 *   IBW_E_LINKTYPE   unknown link
 * A cut frame still gets a view: every header captured whole is in it, at
 * the offset it has in the whole frame; lengths are judged from the length
 * fields, so a structural error in what was captured is returned instead of
 * IBW_E_TRUNCATED (pkt->cut still set).  CRC mismatches are verdicts
 * (icrc_status, vcrc_status, ip_csum_status), not errors; the ICRC is
 * checked whenever the BTH and ICRC are located in a whole frame, even if a
 * later check fails.  Offsets in the view never point outside
 * [data, data + len), and every header in `present` lies wholly inside it
 * (the header an error concerns included).
 */
static inline int ibw_parse_flags(const uint8_t *data, size_t len,
                                  enum ibw_link link, unsigned flags,
                                  struct ibw_pkt *pkt)
{
    memset(pkt, 0, sizeof *pkt);
    pkt->data = data;
    pkt->len = len;
    pkt->link = (uint8_t)link;
    if (len > 0xFFFFFFu) /* no link carries frames this large */
        return ibw__fail(pkt, IBW_E_RANGE, IBW_HDR_COUNT, "len");
    switch (link) {
    case IBW_LINK_ETHERNET:
    case IBW_LINK_ETHERTYPE:
        ibw__parse_eth(pkt, flags);
        break;
    case IBW_LINK_ROCEV1:
        pkt->iba_end = (uint32_t)len;
        ibw__parse_rocev1(pkt, 0, flags);
        break;
    case IBW_LINK_IP:
        /* by the version nibble; neither 4 nor 6 is no IP packet */
        pkt->iba_end = (uint32_t)len;
        if (len > 0 && (data[0] >> 4) == 4)
            ibw__parse_ipv4(pkt, 0, flags);
        else if (len > 0 && (data[0] >> 4) == 6)
            ibw__parse_ipv6(pkt, 0, flags);
        break;
    case IBW_LINK_IB:
        ibw__parse_ib(pkt, flags);
        break;
    default:
        return ibw__fail(pkt, IBW_E_LINKTYPE, IBW_HDR_COUNT, NULL);
    }
    if (pkt->cut) {
        /* the IBA packet (or IP packet) ends past the bytes: nothing of it
         * is trailer; the field named by ibw__cut_len() is the error unless
         * a structural one came first */
        pkt->iba_end = (uint32_t)len;
        pkt->trailer_len = 0;
        if (pkt->err == IBW_OK)
            pkt->err = IBW_E_TRUNCATED;
        /* the CRCs the carriage implies are there, beyond the bytes */
        if (!(flags & IBW_PARSE_NO_CRC)) {
            if (link == IBW_LINK_IB)
                pkt->vcrc_status = IBW_CRC_UNCHECKED;
            if (pkt->transport != IBW_TK_NONE &&
                pkt->transport != IBW_TK_IB_RAW)
                pkt->icrc_status = IBW_CRC_UNCHECKED;
        }
    } else {
        pkt->wire_len = pkt->iba_end;
    }
    return pkt->err;
}

/* ibw_parse_flags() with CRC checking on (see there). */
static inline int ibw_parse(const uint8_t *data, size_t len,
                            enum ibw_link link, struct ibw_pkt *pkt)
{
    return ibw_parse_flags(data, len, link, 0, pkt);
}

/*
 * A view of bytes that start with a BTH and go on with the extended headers
 * its opcode takes, with no routing headers before nor ICRC after: the
 * transport headers as HanGu's header records (E18/E19) carry them on the
 * bus.  Whatever follows the headers is the payload.  No CRC is checked
 * (statuses stay ABSENT), transport stays IBW_TK_NONE.  Returns pkt->err:
 *   IBW_E_TRUNCATED  the bytes end inside the BTH or an extended header
 *                    (err_hdr names it)
 *   IBW_E_VERSION    bth.tver
 *   IBW_E_OPCODE     reserved opcode; the BTH is in the view
 */
static inline int ibw_parse_headers(const uint8_t *data, size_t len,
                                    struct ibw_pkt *pkt)
{
    memset(pkt, 0, sizeof *pkt);
    pkt->data = data;
    pkt->len = len;
    if (len < ibw_bth_SIZE)
        return ibw__fail(pkt, IBW_E_TRUNCATED, IBW_HDR_BTH, NULL);
    ibw__mark(pkt, IBW_HDR_BTH, 0);
    pkt->opcode = ibw_bth_get_opcode(data);
    const struct ibw_opcode_info *op = ibw__bth_opcode(pkt, 0);
    if (!op)
        return pkt->err;
    int whole = 1;
    size_t pos = ibw__place_ext(pkt, op, ibw_bth_SIZE, len, IBW_E_TRUNCATED,
                                &whole);
    if (!pos)
        return pkt->err;
    pkt->payload_off = (uint32_t)pos;
    pkt->payload_len = pkt->payload_wire_len = (uint32_t)(len - pos);
    pkt->iba_end = pkt->wire_len = (uint32_t)len;
    return IBW_OK;
}

/* The opcode table entry of a parsed packet (reserved entry without BTH). */
static inline const struct ibw_opcode_info *
ibw_pkt_opcode_info(const struct ibw_pkt *pkt)
{
    return ibw_opcode_info(ibw_pkt_has(pkt, IBW_HDR_BTH) ? pkt->opcode : 0xFF);
}

/* Pointer to the payload (never NULL; payload_len may be 0). */
static inline const uint8_t *ibw_pkt_payload(const struct ibw_pkt *pkt)
{
    return pkt->data + pkt->payload_off;
}

/* ------------------------------------------------------------------------ */
/* Builder                                                                   */
/* ------------------------------------------------------------------------ */

/* One 802.1Q tag for the builder. */
struct ibw_build_vlan {
    uint16_t tpid; /* 0 means 0x8100 */
    uint8_t pcp, dei;
    uint16_t vid;
};

/* ibw_build_spec.flags */
enum ibw_build_flag {
    IBW_BUILD_KEEP_PADCNT = 1u << 0, /* emit bth.padcnt as given, with that
                                        many pad bytes, not the computed one */
    IBW_BUILD_BAD_ICRC = 1u << 1,    /* store the ICRC with all bits flipped */
    IBW_BUILD_BAD_VCRC = 1u << 2,    /* store the VCRC with all bits flipped */
    IBW_BUILD_ETH_PAD = 1u << 3,     /* zero-pad Ethernet frames to 60 bytes */
    IBW_BUILD_ANY_OPCODE = 1u << 4   /* allow a reserved opcode (no extended
                                        headers) instead of IBW_E_OPCODE */
};

/*
 * Everything ibw_build() needs.  Zero-initialise, set what matters; the
 * builder fills the derived fields itself: lrh.lnh and pktlen, grh.paylen
 * (and nxthdr 0x1B, ipver 6), bth.padcnt (unless KEEP_PADCNT), IPv4
 * version/IHL/total length/protocol/checksum, IPv6 version/payload length/
 * next header, UDP length (checksum 0) and destination port (4791 unless
 * udp_dport is set), the ICRC and the VCRC.  The extended headers emitted are
 * those the opcode table lists for bth.opcode; the other structs are ignored.
 */
struct ibw_build_spec {
    uint8_t transport;   /* enum ibw_transport_kind: IB_LOCAL, IB_GLOBAL,
                            ROCE_V1, ROCE_V2_IP4 or ROCE_V2_IP6 */
    uint32_t flags;      /* enum ibw_build_flag */
    /* Ethernet (RoCE) */
    uint8_t dmac[6], smac[6];
    uint8_t nvlan;       /* 0..2 tags, outer first */
    struct ibw_build_vlan vlan[2];
    /* IP (RoCEv2); IPv4 uses the first 4 bytes of each address */
    uint8_t ip_src[16], ip_dst[16];
    uint8_t tos;         /* IPv4 TOS byte (DSCP << 2 | ECN) / IPv6 traffic class */
    uint8_t ttl;         /* IPv4 TTL / IPv6 hop limit */
    uint32_t flowlabel;  /* IPv6 */
    uint16_t ip_id;      /* IPv4 identification */
    uint8_t ip_df;       /* IPv4 don't-fragment flag */
    uint16_t udp_sport;
    uint16_t udp_dport;  /* 0 means 4791 */
    uint16_t udp_csum;   /* stored as given; RoCEv2 senders use 0 */
    /* InfiniBand routing (LRH native only; GRH native global and RoCEv1) */
    struct ibw_lrh lrh;
    struct ibw_grh grh;
    /* transport */
    struct ibw_bth bth;
    struct ibw_rdeth rdeth;
    struct ibw_deth deth;
    struct ibw_xrceth xrceth;
    struct ibw_reth reth;
    struct ibw_feth feth;
    struct ibw_atomiceth atomiceth;
    struct ibw_aeth aeth;
    struct ibw_atomicacketh atomicacketh;
    struct ibw_immdt immdt;
    struct ibw_ieth ieth;
    /* CNP body: the 16 reserved bytes, written as given (zero in a fresh
     * spec, as senders send them; kept so that a rebuilt frame keeps them) */
    struct ibw_cnp cnp;
    const uint8_t *payload; /* may be NULL when payload_len is 0 */
    size_t payload_len;
};

/* Encode extended header h from the spec at p (room checked by caller). */
static inline void ibw__build_ext(const struct ibw_build_spec *s, unsigned h,
                                  uint8_t *p)
{
    size_t n = ibw_hdr_size(h);
    switch (h) {
    case IBW_HDR_RDETH: ibw_rdeth_encode(&s->rdeth, p, n); break;
    case IBW_HDR_DETH: ibw_deth_encode(&s->deth, p, n); break;
    case IBW_HDR_XRCETH: ibw_xrceth_encode(&s->xrceth, p, n); break;
    case IBW_HDR_RETH: ibw_reth_encode(&s->reth, p, n); break;
    case IBW_HDR_FETH: ibw_feth_encode(&s->feth, p, n); break;
    case IBW_HDR_ATOMICETH: ibw_atomiceth_encode(&s->atomiceth, p, n); break;
    case IBW_HDR_AETH: ibw_aeth_encode(&s->aeth, p, n); break;
    case IBW_HDR_ATOMICACKETH:
        ibw_atomicacketh_encode(&s->atomicacketh, p, n);
        break;
    case IBW_HDR_IMMDT: ibw_immdt_encode(&s->immdt, p, n); break;
    case IBW_HDR_IETH: ibw_ieth_encode(&s->ieth, p, n); break;
    case IBW_HDR_CNP: ibw_cnp_encode(&s->cnp, p, n); break;
    default: memset(p, 0, n); break; /* none left: each ext header is above */
    }
}

/* The BTH (PadCnt `pad`) and the extended headers `op` takes, at out
 * (zeroed, room checked by the caller); returns the bytes written. */
static inline size_t ibw__build_transport_hdrs(const struct ibw_build_spec *s,
                                               const struct ibw_opcode_info *op,
                                               uint8_t pad, uint8_t *out)
{
    struct ibw_bth bth = s->bth;
    bth.padcnt = pad;
    ibw_bth_encode(&bth, out, ibw_bth_SIZE);
    size_t off = ibw_bth_SIZE;
    for (unsigned i = 0; i < op->nseq; i++) {
        ibw__build_ext(s, op->seq[i], out + off);
        off += ibw_hdr_size(op->seq[i]);
    }
    return off;
}

/*
 * The transport headers alone, the counterpart of ibw_parse_headers(): the
 * BTH from spec->bth (PadCnt as given) and the extended headers its opcode
 * takes, from the spec's header structs, into out[0..cap); nothing before
 * or after them.  Stores their length in *out_len.  IBW_E_NOSPACE when cap
 * is too small, IBW_E_OPCODE for a reserved opcode (unless
 * IBW_BUILD_ANY_OPCODE: the BTH alone).
 */
static inline int ibw_build_headers(const struct ibw_build_spec *spec,
                                    uint8_t *out, size_t cap, size_t *out_len)
{
    const struct ibw_opcode_info *op = ibw_opcode_info(spec->bth.opcode);
    if (!(op->flags & IBW_OPF_VALID) && !(spec->flags & IBW_BUILD_ANY_OPCODE))
        return IBW_E_OPCODE;
    size_t n = ibw_bth_SIZE + op->hdr_bytes;
    if (n > cap)
        return IBW_E_NOSPACE;
    memset(out, 0, n);
    *out_len = ibw__build_transport_hdrs(spec, op, spec->bth.padcnt, out);
    return IBW_OK;
}

/* Record header h at offset off in a view being built (ibw_build). */
static inline void ibw__pkt_mark(struct ibw_pkt *pkt, enum ibw_hdr h, size_t off)
{
    pkt->present |= 1u << (unsigned)h;
    pkt->off[h] = (uint16_t)off;
}

/*
 * Build one frame from *spec into out[0..cap).  On success stores the frame
 * length in *out_len and returns IBW_OK.  Errors (nothing useful in out):
 * IBW_E_NOSPACE when cap is too small, IBW_E_OPCODE for a reserved opcode
 * (unless IBW_BUILD_ANY_OPCODE), IBW_E_UNSUPPORTED for a transport kind it
 * cannot build, IBW_E_RANGE when the payload is too large for the length
 * fields or nvlan > 2, IBW_E_MALFORMED when a pad count kept by
 * IBW_BUILD_KEEP_PADCNT makes a native IB packet that is not whole 4-byte
 * words (the LRH counts words).  Header fields are emitted as given, so a
 * frame the parser reads otherwise (an LRH LVer other than 0, a UDP port
 * other than 4791) is still built, with the CRCs its layout calls for.
 */
static inline int ibw_build(const struct ibw_build_spec *spec, uint8_t *out,
                            size_t cap, size_t *out_len)
{
    const struct ibw_opcode_info *op = ibw_opcode_info(spec->bth.opcode);
    if (!(op->flags & IBW_OPF_VALID) && !(spec->flags & IBW_BUILD_ANY_OPCODE))
        return IBW_E_OPCODE;
    if (spec->nvlan > 2)
        return IBW_E_RANGE;
    if (spec->payload_len > 0xFFFFu)
        return IBW_E_RANGE;
    unsigned tk = spec->transport;
    int eth = tk == IBW_TK_ROCE_V1 || tk == IBW_TK_ROCE_V2_IP4 ||
              tk == IBW_TK_ROCE_V2_IP6;
    if (!eth && tk != IBW_TK_IB_LOCAL && tk != IBW_TK_IB_GLOBAL)
        return IBW_E_UNSUPPORTED;

    /* Sizes, inside out. */
    size_t pad = (4 - (spec->payload_len & 3)) & 3;
    if (spec->flags & IBW_BUILD_KEEP_PADCNT)
        pad = spec->bth.padcnt;
    if (pad > 3)
        return IBW_E_RANGE; /* BTH PadCnt is 2 bits */
    size_t transport = ibw_bth_SIZE + op->hdr_bytes + spec->payload_len + pad +
                       4; /* BTH .. ICRC */
    size_t l2 = eth ? ibw_eth_SIZE + (size_t)spec->nvlan * ibw_vlan_SIZE : 0;
    size_t route; /* from the end of L2 to the BTH */
    switch (tk) {
    case IBW_TK_IB_LOCAL: route = ibw_lrh_SIZE; break;
    case IBW_TK_IB_GLOBAL: route = (size_t)ibw_lrh_SIZE + ibw_grh_SIZE; break;
    case IBW_TK_ROCE_V1: route = ibw_grh_SIZE; break;
    case IBW_TK_ROCE_V2_IP4: route = (size_t)ibw_ipv4_SIZE + ibw_udp_SIZE; break;
    default: route = (size_t)ibw_ipv6_SIZE + ibw_udp_SIZE; break;
    }
    size_t frame = l2 + route + transport + (eth ? 0 : 2);
    if (tk == IBW_TK_IB_LOCAL || tk == IBW_TK_IB_GLOBAL) {
        if ((route + transport) / 4 > 0x7FF)
            return IBW_E_RANGE; /* LRH PktLen is 11 bits of words */
        if ((route + transport) % 4)
            return IBW_E_MALFORMED; /* a kept pad count off by bytes: the
                                       LRH cannot say where the ICRC is */
    } else if ((tk == IBW_TK_ROCE_V2_IP4   ? route
                : tk == IBW_TK_ROCE_V2_IP6 ? (size_t)ibw_udp_SIZE
                                           : 0) + transport > 0xFFFF) {
        return IBW_E_RANGE; /* IPv4 total length; IPv6, GRH payload length */
    }
    size_t total = frame;
    if (eth && (spec->flags & IBW_BUILD_ETH_PAD) && total < IBW_ETH_MIN_FRAME)
        total = IBW_ETH_MIN_FRAME;
    if (total > cap)
        return IBW_E_NOSPACE;
    /* The setters below write into zeroed header bytes; the payload is
     * copied over its place, so only what surrounds it is cleared. */
    size_t hdr_end = l2 + route + ibw_bth_SIZE + op->hdr_bytes;
    memset(out, 0, hdr_end);
    /* The view ibw_icrc_compute() needs, filled in as the headers are
     * laid out (the one masking routine, without parsing the frame back). */
    struct ibw_pkt pkt;
    memset(&pkt, 0, sizeof pkt);
    pkt.data = out;
    pkt.len = total;
    pkt.link = (uint8_t)(eth ? IBW_LINK_ETHERNET : IBW_LINK_IB);
    pkt.transport = (uint8_t)tk;

    /* Link and routing headers. */
    size_t off = 0;
    if (eth) {
        ibw_eth_set_dmac(out, spec->dmac);
        ibw_eth_set_smac(out, spec->smac);
        off = ibw_eth_SIZE;
        uint8_t *et = out + 12; /* where the next EtherType goes */
        for (unsigned i = 0; i < spec->nvlan; i++) {
            const struct ibw_build_vlan *v = &spec->vlan[i];
            ibw_store_be16(et, v->tpid ? v->tpid : (uint16_t)IBW_ETHERTYPE_VLAN);
            ibw_vlan_set_pcp(out + off, v->pcp);
            ibw_vlan_set_dei(out + off, v->dei);
            ibw_vlan_set_vid(out + off, v->vid);
            et = out + off + 2;
            off += ibw_vlan_SIZE;
        }
        ibw_store_be16(et, (uint16_t)(tk == IBW_TK_ROCE_V1
                                          ? IBW_ETHERTYPE_ROCEV1
                                          : tk == IBW_TK_ROCE_V2_IP4
                                                ? IBW_ETHERTYPE_IPV4
                                                : IBW_ETHERTYPE_IPV6));
    }
    if (tk == IBW_TK_IB_LOCAL || tk == IBW_TK_IB_GLOBAL) {
        struct ibw_lrh lrh = spec->lrh;
        lrh.lnh = tk == IBW_TK_IB_LOCAL ? IBW_LNH_IBA_LOCAL : IBW_LNH_IBA_GLOBAL;
        lrh.pktlen = (uint16_t)((route + transport) / 4);
        ibw_lrh_encode(&lrh, out + off, ibw_lrh_SIZE);
        ibw__pkt_mark(&pkt, IBW_HDR_LRH, off);
        off += ibw_lrh_SIZE;
    }
    if (tk == IBW_TK_IB_GLOBAL || tk == IBW_TK_ROCE_V1) {
        struct ibw_grh grh = spec->grh;
        grh.ipver = 6;
        grh.nxthdr = IBW_GRH_NXTHDR_IBA;
        grh.paylen = (uint16_t)transport;
        ibw_grh_encode(&grh, out + off, ibw_grh_SIZE);
        ibw__pkt_mark(&pkt, IBW_HDR_GRH, off);
        off += ibw_grh_SIZE;
    }
    if (tk == IBW_TK_ROCE_V2_IP4) {
        uint8_t *ip = out + off;
        ibw_ipv4_set_version(ip, 4);
        ibw_ipv4_set_ihl(ip, 5);
        ip[1] = spec->tos;
        ibw_ipv4_set_total_length(ip, (uint16_t)(route + transport));
        ibw_ipv4_set_id(ip, spec->ip_id);
        ibw_ipv4_set_df(ip, (uint8_t)(spec->ip_df != 0));
        ibw_ipv4_set_ttl(ip, spec->ttl);
        ibw_ipv4_set_protocol(ip, IBW_IPPROTO_UDP);
        ibw_ipv4_set_saddr(ip, spec->ip_src);
        ibw_ipv4_set_daddr(ip, spec->ip_dst);
        ibw_ipv4_set_checksum(ip, ibw_ipv4_checksum(ip, ibw_ipv4_SIZE));
        ibw__pkt_mark(&pkt, IBW_HDR_IPV4, off);
        off += ibw_ipv4_SIZE;
    } else if (tk == IBW_TK_ROCE_V2_IP6) {
        uint8_t *ip = out + off;
        ibw_ipv6_set_version(ip, 6);
        ibw_ipv6_set_tclass(ip, spec->tos);
        ibw_ipv6_set_flowlabel(ip, spec->flowlabel);
        ibw_ipv6_set_paylen(ip, (uint16_t)(ibw_udp_SIZE + transport));
        ibw_ipv6_set_nexthdr(ip, IBW_IPPROTO_UDP);
        ibw_ipv6_set_hoplimit(ip, spec->ttl);
        ibw_ipv6_set_saddr(ip, spec->ip_src);
        ibw_ipv6_set_daddr(ip, spec->ip_dst);
        ibw__pkt_mark(&pkt, IBW_HDR_IPV6, off);
        off += ibw_ipv6_SIZE;
    }
    if (tk == IBW_TK_ROCE_V2_IP4 || tk == IBW_TK_ROCE_V2_IP6) {
        uint8_t *u = out + off;
        ibw_udp_set_sport(u, spec->udp_sport);
        ibw_udp_set_dport(u, spec->udp_dport ? spec->udp_dport
                                             : (uint16_t)IBW_ROCEV2_UDP_PORT);
        ibw_udp_set_length(u, (uint16_t)(ibw_udp_SIZE + transport));
        ibw_udp_set_checksum(u, spec->udp_csum);
        ibw__pkt_mark(&pkt, IBW_HDR_UDP, off);
        off += ibw_udp_SIZE;
    }

    /* Transport headers, payload, pad. */
    ibw__pkt_mark(&pkt, IBW_HDR_BTH, off);
    off += ibw__build_transport_hdrs(spec, op, (uint8_t)pad, out + off);
    if (off != hdr_end)
        return IBW_E_MALFORMED; /* cannot happen for a spec accepted above */
    if (spec->payload_len)
        memcpy(out + off, spec->payload, spec->payload_len);
    off += spec->payload_len;
    memset(out + off, 0, total - off); /* pad, CRCs, Ethernet padding */
    off += pad;

    /* CRCs. */
    pkt.icrc_off = (uint32_t)off;
    uint32_t icrc = ibw_icrc_compute(&pkt);
    if (spec->flags & IBW_BUILD_BAD_ICRC)
        icrc = ~icrc;
    ibw_store_le32(out + off, icrc);
    off += 4;
    if (!eth) {
        uint16_t vcrc = ibw_vcrc(out, off);
        if (spec->flags & IBW_BUILD_BAD_VCRC)
            vcrc = (uint16_t)~vcrc;
        out[off] = (uint8_t)vcrc;
        out[off + 1] = (uint8_t)(vcrc >> 8);
    }
    *out_len = total;
    return IBW_OK;
}

/*
 * The build spec that reproduces a parsed frame: every header field copied
 * from the view, payload pointing into pkt->data (so the view's bytes must
 * outlive the spec).  ibw_build() of the result gives back bytes
 * [0, pkt->iba_end) when the CRCs and lengths were right.  Needs a view
 * without error that has a BTH; IBW_E_UNSUPPORTED for what the builder
 * cannot express (IPv4 options or fragments, a non-4791 UDP port is kept),
 * IBW_E_FIELD for a view without BTH or with an error.
 */
static inline int ibw_build_spec_from_pkt(const struct ibw_pkt *pkt,
                                          struct ibw_build_spec *s)
{
    const uint8_t *d = pkt->data;
    memset(s, 0, sizeof *s);
    if (pkt->err != IBW_OK || !ibw_pkt_has(pkt, IBW_HDR_BTH))
        return IBW_E_FIELD;
    s->transport = pkt->transport;
    if (ibw_pkt_has(pkt, IBW_HDR_ETH)) {
        memcpy(s->dmac, ibw_eth_get_dmac(d), 6);
        memcpy(s->smac, ibw_eth_get_smac(d), 6);
        const uint8_t *tpid = d + 12;
        for (unsigned i = 0; i < pkt->nvlan; i++) {
            const uint8_t *t = d + pkt->off[i ? IBW_HDR_VLAN2 : IBW_HDR_VLAN];
            s->vlan[i].tpid = ibw_load_be16(tpid);
            s->vlan[i].pcp = ibw_vlan_get_pcp(t);
            s->vlan[i].dei = ibw_vlan_get_dei(t);
            s->vlan[i].vid = ibw_vlan_get_vid(t);
            tpid = t + 2;
        }
        s->nvlan = pkt->nvlan;
    }
    if (ibw_pkt_has(pkt, IBW_HDR_IPV4)) {
        const uint8_t *ip = d + pkt->off[IBW_HDR_IPV4];
        if (ibw_ipv4_get_ihl(ip) != 5 || ibw_ipv4_get_mf(ip) ||
            ibw_ipv4_get_frag_offset(ip) || ibw_ipv4_get_resv(ip))
            return IBW_E_UNSUPPORTED;
        s->tos = ip[1];
        s->ttl = ibw_ipv4_get_ttl(ip);
        s->ip_id = ibw_ipv4_get_id(ip);
        s->ip_df = ibw_ipv4_get_df(ip);
        memcpy(s->ip_src, ibw_ipv4_get_saddr(ip), 4);
        memcpy(s->ip_dst, ibw_ipv4_get_daddr(ip), 4);
    }
    if (ibw_pkt_has(pkt, IBW_HDR_IPV6)) {
        const uint8_t *ip = d + pkt->off[IBW_HDR_IPV6];
        s->tos = ibw_ipv6_get_tclass(ip);
        s->flowlabel = ibw_ipv6_get_flowlabel(ip);
        s->ttl = ibw_ipv6_get_hoplimit(ip);
        memcpy(s->ip_src, ibw_ipv6_get_saddr(ip), 16);
        memcpy(s->ip_dst, ibw_ipv6_get_daddr(ip), 16);
    }
    if (ibw_pkt_has(pkt, IBW_HDR_UDP)) {
        const uint8_t *u = d + pkt->off[IBW_HDR_UDP];
        s->udp_sport = ibw_udp_get_sport(u);
        s->udp_dport = ibw_udp_get_dport(u);
        s->udp_csum = ibw_udp_get_checksum(u);
    }
    if (ibw_pkt_has(pkt, IBW_HDR_LRH))
        ibw_lrh_decode(d + pkt->off[IBW_HDR_LRH], ibw_lrh_SIZE, &s->lrh);
    if (ibw_pkt_has(pkt, IBW_HDR_GRH))
        ibw_grh_decode(d + pkt->off[IBW_HDR_GRH], ibw_grh_SIZE, &s->grh);
    ibw_bth_decode(d + pkt->off[IBW_HDR_BTH], ibw_bth_SIZE, &s->bth);
#define IBW__FROM(H, pfx, member)                                          \
    if (ibw_pkt_has(pkt, IBW_HDR_##H))                                     \
        pfx##_decode(d + pkt->off[IBW_HDR_##H], pfx##_SIZE, &s->member);
    IBW__FROM(RDETH, ibw_rdeth, rdeth)
    IBW__FROM(DETH, ibw_deth, deth)
    IBW__FROM(XRCETH, ibw_xrceth, xrceth)
    IBW__FROM(RETH, ibw_reth, reth)
    IBW__FROM(FETH, ibw_feth, feth)
    IBW__FROM(ATOMICETH, ibw_atomiceth, atomiceth)
    IBW__FROM(AETH, ibw_aeth, aeth)
    IBW__FROM(ATOMICACKETH, ibw_atomicacketh, atomicacketh)
    IBW__FROM(IMMDT, ibw_immdt, immdt)
    IBW__FROM(IETH, ibw_ieth, ieth)
    IBW__FROM(CNP, ibw_cnp, cnp)
#undef IBW__FROM
    s->payload = d + pkt->payload_off;
    s->payload_len = pkt->payload_len;
    /* Pad bytes are rebuilt as zeros; keep a nonstandard PadCnt as is. */
    if (pkt->pad != ((4 - (pkt->payload_len & 3)) & 3))
        s->flags |= IBW_BUILD_KEEP_PADCNT;
    return IBW_OK;
}

/*
 * Recompute and store the ICRC (and the VCRC on native IB) of a frame that
 * ibw_parse() located, e.g. after editing a header in place.  `frame` must
 * be the same bytes as pkt->data (writable).  IBW_E_FIELD when the view has
 * no ICRC position (no BTH, or a cut frame: its CRCs are not in the bytes).
 */
static inline int ibw_pkt_store_crcs(uint8_t *frame, const struct ibw_pkt *pkt)
{
    if (!ibw_pkt_has(pkt, IBW_HDR_BTH) || frame != pkt->data || pkt->cut)
        return IBW_E_FIELD;
    ibw_store_le32(frame + pkt->icrc_off, ibw_icrc_compute(pkt));
    if (ibw_pkt_has(pkt, IBW_HDR_LRH)) {
        uint16_t v = ibw_vcrc_compute(pkt);
        frame[pkt->vcrc_off] = (uint8_t)v;
        frame[pkt->vcrc_off + 1] = (uint8_t)(v >> 8);
    }
    return IBW_OK;
}

#ifdef __cplusplus
}
#endif

#endif /* IBWIRE_PACKET_H */
