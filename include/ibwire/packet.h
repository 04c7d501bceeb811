/*
 * ibwire/packet.h - one-call packet parser and builder, ICRC/VCRC.
 *
 * ibw_parse(): bytes + link kind -> struct ibw_pkt, a view holding the offset
 * of every header present, the payload, pad, ICRC and VCRC with verdicts, or
 * the first error with the header and field it concerns.  The view never
 * points outside the input.
 *
 * ibw_build(): headers + payload -> bytes, with lengths, pad, IPv4 checksum,
 * ICRC and VCRC filled in.
 */
#ifndef IBWIRE_PACKET_H
#define IBWIRE_PACKET_H

#include "base.h"
#include "crc.h"
#include "framing.h"
#include "opcode.h"
#include "wire.h"

/* Where the bytes handed to ibw_parse() start. */
enum ibw_link {
    IBW_LINK_ETHERNET = 1, /* Ethernet II (RoCEv1, RoCEv2, VLAN tags) */
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

/* Header indices into ibw_pkt.off[]; bit (1u << h) of ibw_pkt.present. */
enum ibw_hdr {
    IBW_HDR_ETH = 0,
    IBW_HDR_VLAN,  /* the first 802.1Q tag (outer) */
    IBW_HDR_VLAN2, /* a second tag (QinQ) */
    IBW_HDR_IPV4,
    IBW_HDR_IPV6,
    IBW_HDR_UDP,
    IBW_HDR_LRH,
    IBW_HDR_GRH,
    IBW_HDR_BTH,
    IBW_HDR_RDETH,
    IBW_HDR_DETH,
    IBW_HDR_XRCETH,
    IBW_HDR_RETH,
    IBW_HDR_FETH,
    IBW_HDR_ATOMICETH,
    IBW_HDR_AETH,
    IBW_HDR_ATOMICACKETH,
    IBW_HDR_IMMDT,
    IBW_HDR_IETH,
    IBW_HDR_COUNT
};

enum ibw_crc_status {
    IBW_CRC_ABSENT = 0, /* not carried (or packet too short to hold it) */
    IBW_CRC_GOOD = 1,
    IBW_CRC_BAD = 2
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
    uint32_t payload_off;   /* IBA payload (after the last transport header) */
    uint32_t payload_len;   /* without pad */
    uint8_t pad;            /* BTH PadCnt bytes after the payload */
    uint32_t icrc_off;      /* valid when icrc_status != ABSENT */
    uint32_t icrc_wire;     /* as carried: the CRC value (wire bytes LSB first) */
    uint32_t icrc_calc;     /* as computed over the masked invariant fields */
    uint8_t icrc_status;    /* enum ibw_crc_status */
    uint32_t vcrc_off;      /* native IB only */
    uint16_t vcrc_wire;
    uint16_t vcrc_calc;
    uint8_t vcrc_status;
    uint32_t trailer_len;   /* bytes after ICRC/VCRC (e.g. Ethernet padding/FCS) */
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

#endif /* IBWIRE_PACKET_H */
