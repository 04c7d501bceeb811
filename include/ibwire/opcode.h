/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ibwire/opcode.h - the BTH opcode table (catalog W14).
 *
 * One entry for each of the 256 opcode values: its IBA name, transport,
 * the extended headers that follow the BTH (in wire order and as a bit set
 * of enum ibw_hdr), whether a payload may/must follow, its place in a
 * message (first/middle/last/only), request or response, and the operation
 * kind.  The parser walks `seq` to find the headers; the builder uses it to
 * decide which header structs to emit.
 *
 * Sources: IBA Vol. 1 table 38 (9.2.1) for RC/UC/RD/UD, annex A14 for XRC,
 * IBA 1.5 for FLUSH (0x1C, BTH FETH RETH) and ATOMIC WRITE (0x1D, BTH RETH,
 * 8-byte payload), RoCEv2 annex A17 for CNP (0x81, BTH + 16 reserved bytes).
 * RD FLUSH (0x5C) is in Linux's ib_pack.h but no public header sequence was
 * found; it is given RD's request prefix (RDETH DETH) followed by FLUSH's
 * FETH RETH, by analogy with every other RD request.
 */
#ifndef IBWIRE_OPCODE_H
#define IBWIRE_OPCODE_H

#include "base.h"

/*
 * Header indices: into ibw_pkt.off[] (packet.h) and bit (1u << h) of
 * ibw_pkt.present and ibw_opcode_info.hdrs.  Declared here because the
 * opcode table names the headers; packet.h re-exports it.
 */
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
    IBW_HDR_CNP,   /* the 16 reserved bytes after a CNP's BTH */
    IBW_HDR_COUNT
};

/* Short lower-case name of a header ("bth", "reth", ...), or "?" when h is
 * out of range.  These are also the err_hdr strings of ibw_parse(). */
static inline const char *ibw_hdr_name(unsigned h)
{
    static const char *const names[IBW_HDR_COUNT] = {
        "eth",  "vlan",  "vlan2",  "ipv4",      "ipv6",
        "udp",  "lrh",   "grh",    "bth",       "rdeth",
        "deth", "xrceth", "reth",  "feth",      "atomiceth",
        "aeth", "atomicacketh",    "immdt",     "ieth",
        "cnp"};
    return h < IBW_HDR_COUNT ? names[h] : "?";
}

/* Bytes each header occupies on the wire (Ethernet without tags, IPv4
 * without options); 0 when h is out of range. */
static inline unsigned ibw_hdr_size(unsigned h)
{
    static const uint8_t size[IBW_HDR_COUNT] = {
        14, 4, 4, 20, 40, 8, 8, 40, 12, 4, 8, 4, 16, 4, 28, 4, 8, 4, 4, 16};
    return h < IBW_HDR_COUNT ? size[h] : 0;
}

/* Transport service: the opcode's top three bits, in this order. */
enum ibw_transport {
    IBW_TR_RC = 0,       /* 0x00-0x1F reliable connected */
    IBW_TR_UC = 1,       /* 0x20-0x3F unreliable connected */
    IBW_TR_RD = 2,       /* 0x40-0x5F reliable datagram */
    IBW_TR_UD = 3,       /* 0x60-0x7F unreliable datagram */
    IBW_TR_CNP = 4,      /* 0x80-0x9F congestion notification (RoCEv2) */
    IBW_TR_XRC = 5,      /* 0xA0-0xBF extended reliable connected */
    IBW_TR_RESERVED = 6, /* 0xC0-0xDF */
    IBW_TR_MSP = 7       /* 0xE0-0xFF manufacturer specific */
};

/* What the operation does. */
enum ibw_op_kind {
    IBW_OPK_NONE = 0,     /* reserved opcode */
    IBW_OPK_SEND,
    IBW_OPK_WRITE,
    IBW_OPK_READ,         /* RDMA READ request */
    IBW_OPK_READ_RESP,
    IBW_OPK_ATOMIC,       /* CmpSwap / FetchAdd request */
    IBW_OPK_ACK,
    IBW_OPK_ATOMIC_ACK,
    IBW_OPK_FLUSH,
    IBW_OPK_ATOMIC_WRITE,
    IBW_OPK_RESYNC,       /* RD only */
    IBW_OPK_CNP
};

/* ibw_opcode_info.flags */
enum ibw_op_flag {
    IBW_OPF_VALID = 1u << 0,       /* a defined opcode (not reserved) */
    IBW_OPF_PAYLOAD = 1u << 1,     /* payload allowed */
    IBW_OPF_PAYLOAD_REQ = 1u << 2, /* payload required (FIRST/MIDDLE carry a
                                      full PMTU; ATOMIC WRITE exactly 8) */
    IBW_OPF_FIRST = 1u << 3,       /* first packet of a message */
    IBW_OPF_MIDDLE = 1u << 4,
    IBW_OPF_LAST = 1u << 5,        /* ONLY = FIRST | LAST */
    IBW_OPF_REQUEST = 1u << 6,     /* sent by the requester */
    IBW_OPF_RESPONSE = 1u << 7,    /* sent by the responder */
    IBW_OPF_RWR = 1u << 8,         /* consumes a receive WQE */
    IBW_OPF_COMP = 1u << 9,        /* completes a receive WQE */
    IBW_OPF_IMM = 1u << 10,        /* carries ImmDt */
    IBW_OPF_INV = 1u << 11         /* carries IETH (send with invalidate) */
};
#define IBW_OPF_ONLY (IBW_OPF_FIRST | IBW_OPF_LAST)

/* The payload of ATOMIC WRITE is exactly this many bytes. */
#define IBW_ATOMIC_WRITE_PAYLOAD 8u

/* The most extended headers any opcode has after the BTH. */
#define IBW_OPCODE_MAX_SEQ 5

struct ibw_opcode_info {
    const char *name;     /* IBA style: "RC RDMA WRITE ONLY" */
    const char *cname;    /* C style: "RC_RDMA_WRITE_ONLY" */
    uint8_t transport;    /* enum ibw_transport */
    uint8_t kind;         /* enum ibw_op_kind */
    uint16_t flags;       /* enum ibw_op_flag bits */
    uint8_t nseq;         /* headers after BTH */
    uint8_t seq[IBW_OPCODE_MAX_SEQ]; /* enum ibw_hdr, wire order */
    uint32_t hdrs;        /* the same headers as a bit set (1u << ibw_hdr) */
    uint8_t hdr_bytes;    /* bytes of headers after the BTH */
};

#define IBW__HB(h) (1u << IBW_HDR_##h)
#define IBW__HS(h) ((unsigned)IBW__HS_##h)
#define IBW__HS_RDETH 4
#define IBW__HS_DETH 8
#define IBW__HS_XRCETH 4
#define IBW__HS_RETH 16
#define IBW__HS_FETH 4
#define IBW__HS_ATOMICETH 28
#define IBW__HS_AETH 4
#define IBW__HS_ATOMICACKETH 8
#define IBW__HS_IMMDT 4
#define IBW__HS_IETH 4
#define IBW__HS_CNP 16
#define IBW__SEQ0() 0, {0}, 0u, 0
#define IBW__SEQ1(a) 1, {IBW_HDR_##a}, IBW__HB(a), IBW__HS(a)
#define IBW__SEQ2(a, b) \
    2, {IBW_HDR_##a, IBW_HDR_##b}, IBW__HB(a) | IBW__HB(b), \
        IBW__HS(a) + IBW__HS(b)
#define IBW__SEQ3(a, b, c)                                          \
    3, {IBW_HDR_##a, IBW_HDR_##b, IBW_HDR_##c},                     \
        IBW__HB(a) | IBW__HB(b) | IBW__HB(c),                       \
        IBW__HS(a) + IBW__HS(b) + IBW__HS(c)
#define IBW__SEQ4(a, b, c, d)                                       \
    4, {IBW_HDR_##a, IBW_HDR_##b, IBW_HDR_##c, IBW_HDR_##d},        \
        IBW__HB(a) | IBW__HB(b) | IBW__HB(c) | IBW__HB(d),          \
        IBW__HS(a) + IBW__HS(b) + IBW__HS(c) + IBW__HS(d)
#define IBW__SEQ5(a, b, c, d, e)                                    \
    5, {IBW_HDR_##a, IBW_HDR_##b, IBW_HDR_##c, IBW_HDR_##d,         \
        IBW_HDR_##e},                                               \
        IBW__HB(a) | IBW__HB(b) | IBW__HB(c) | IBW__HB(d) |         \
            IBW__HB(e),                                             \
        IBW__HS(a) + IBW__HS(b) + IBW__HS(c) + IBW__HS(d) + IBW__HS(e)
#define IBW__F_PL IBW_OPF_PAYLOAD
#define IBW__F_PLREQ IBW_OPF_PAYLOAD_REQ
#define IBW__F_REQ IBW_OPF_REQUEST
#define IBW__F_RESP IBW_OPF_RESPONSE
#define IBW__F_FIRST IBW_OPF_FIRST
#define IBW__F_MIDDLE IBW_OPF_MIDDLE
#define IBW__F_LAST IBW_OPF_LAST
#define IBW__F_RWR IBW_OPF_RWR
#define IBW__F_COMP IBW_OPF_COMP
#define IBW__F_IMM IBW_OPF_IMM
#define IBW__F_INV IBW_OPF_INV
#define IBW__OP(code, tr, iname, cn, kd, fl, seq) \
    [code] = {iname, cn, IBW_TR_##tr, IBW_OPK_##kd,  \
              (uint16_t)((fl) | IBW_OPF_VALID), seq},

/* The defined opcodes; entries left zero are reserved. */
static inline const struct ibw_opcode_info *ibw__opcode_table(void)
{
    static const struct ibw_opcode_info table[256] = {
    IBW__OP(0x00, RC, "RC SEND FIRST", "RC_SEND_FIRST", SEND,
            IBW__F_PL|IBW__F_PLREQ|IBW__F_REQ|IBW__F_RWR|IBW__F_FIRST,
            IBW__SEQ0())
    IBW__OP(0x01, RC, "RC SEND MIDDLE", "RC_SEND_MIDDLE", SEND,
            IBW__F_PL|IBW__F_PLREQ|IBW__F_REQ|IBW__F_MIDDLE,
            IBW__SEQ0())
    IBW__OP(0x02, RC, "RC SEND LAST", "RC_SEND_LAST", SEND,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_LAST,
            IBW__SEQ0())
    IBW__OP(0x03, RC, "RC SEND LAST WITH IMMEDIATE", "RC_SEND_LAST_WITH_IMMEDIATE", SEND,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_LAST|IBW__F_IMM,
            IBW__SEQ1(IMMDT))
    IBW__OP(0x04, RC, "RC SEND ONLY", "RC_SEND_ONLY", SEND,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_RWR|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ0())
    IBW__OP(0x05, RC, "RC SEND ONLY WITH IMMEDIATE", "RC_SEND_ONLY_WITH_IMMEDIATE", SEND,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_RWR|IBW__F_FIRST|IBW__F_LAST|IBW__F_IMM,
            IBW__SEQ1(IMMDT))
    IBW__OP(0x06, RC, "RC RDMA WRITE FIRST", "RC_RDMA_WRITE_FIRST", WRITE,
            IBW__F_PL|IBW__F_PLREQ|IBW__F_REQ|IBW__F_FIRST,
            IBW__SEQ1(RETH))
    IBW__OP(0x07, RC, "RC RDMA WRITE MIDDLE", "RC_RDMA_WRITE_MIDDLE", WRITE,
            IBW__F_PL|IBW__F_PLREQ|IBW__F_REQ|IBW__F_MIDDLE,
            IBW__SEQ0())
    IBW__OP(0x08, RC, "RC RDMA WRITE LAST", "RC_RDMA_WRITE_LAST", WRITE,
            IBW__F_PL|IBW__F_REQ|IBW__F_LAST,
            IBW__SEQ0())
    IBW__OP(0x09, RC, "RC RDMA WRITE LAST WITH IMMEDIATE", "RC_RDMA_WRITE_LAST_WITH_IMMEDIATE", WRITE,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_RWR|IBW__F_LAST|IBW__F_IMM,
            IBW__SEQ1(IMMDT))
    IBW__OP(0x0A, RC, "RC RDMA WRITE ONLY", "RC_RDMA_WRITE_ONLY", WRITE,
            IBW__F_PL|IBW__F_REQ|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ1(RETH))
    IBW__OP(0x0B, RC, "RC RDMA WRITE ONLY WITH IMMEDIATE", "RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE", WRITE,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_RWR|IBW__F_FIRST|IBW__F_LAST|IBW__F_IMM,
            IBW__SEQ2(RETH, IMMDT))
    IBW__OP(0x0C, RC, "RC RDMA READ REQUEST", "RC_RDMA_READ_REQUEST", READ,
            IBW__F_REQ|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ1(RETH))
    IBW__OP(0x0D, RC, "RC RDMA READ RESPONSE FIRST", "RC_RDMA_READ_RESPONSE_FIRST", READ_RESP,
            IBW__F_PL|IBW__F_PLREQ|IBW__F_RESP|IBW__F_FIRST,
            IBW__SEQ1(AETH))
    IBW__OP(0x0E, RC, "RC RDMA READ RESPONSE MIDDLE", "RC_RDMA_READ_RESPONSE_MIDDLE", READ_RESP,
            IBW__F_PL|IBW__F_PLREQ|IBW__F_RESP|IBW__F_MIDDLE,
            IBW__SEQ0())
    IBW__OP(0x0F, RC, "RC RDMA READ RESPONSE LAST", "RC_RDMA_READ_RESPONSE_LAST", READ_RESP,
            IBW__F_PL|IBW__F_RESP|IBW__F_LAST,
            IBW__SEQ1(AETH))
    IBW__OP(0x10, RC, "RC RDMA READ RESPONSE ONLY", "RC_RDMA_READ_RESPONSE_ONLY", READ_RESP,
            IBW__F_PL|IBW__F_RESP|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ1(AETH))
    IBW__OP(0x11, RC, "RC ACKNOWLEDGE", "RC_ACKNOWLEDGE", ACK,
            IBW__F_RESP|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ1(AETH))
    IBW__OP(0x12, RC, "RC ATOMIC ACKNOWLEDGE", "RC_ATOMIC_ACKNOWLEDGE", ATOMIC_ACK,
            IBW__F_RESP|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ2(AETH, ATOMICACKETH))
    IBW__OP(0x13, RC, "RC COMPARE SWAP", "RC_COMPARE_SWAP", ATOMIC,
            IBW__F_REQ|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ1(ATOMICETH))
    IBW__OP(0x14, RC, "RC FETCH ADD", "RC_FETCH_ADD", ATOMIC,
            IBW__F_REQ|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ1(ATOMICETH))
    IBW__OP(0x16, RC, "RC SEND LAST WITH INVALIDATE", "RC_SEND_LAST_WITH_INVALIDATE", SEND,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_LAST|IBW__F_INV,
            IBW__SEQ1(IETH))
    IBW__OP(0x17, RC, "RC SEND ONLY WITH INVALIDATE", "RC_SEND_ONLY_WITH_INVALIDATE", SEND,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_RWR|IBW__F_FIRST|IBW__F_LAST|IBW__F_INV,
            IBW__SEQ1(IETH))
    IBW__OP(0x1C, RC, "RC FLUSH", "RC_FLUSH", FLUSH,
            IBW__F_REQ|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ2(FETH, RETH))
    IBW__OP(0x1D, RC, "RC ATOMIC WRITE", "RC_ATOMIC_WRITE", ATOMIC_WRITE,
            IBW__F_PL|IBW__F_PLREQ|IBW__F_REQ|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ1(RETH))
    IBW__OP(0x20, UC, "UC SEND FIRST", "UC_SEND_FIRST", SEND,
            IBW__F_PL|IBW__F_PLREQ|IBW__F_REQ|IBW__F_RWR|IBW__F_FIRST,
            IBW__SEQ0())
    IBW__OP(0x21, UC, "UC SEND MIDDLE", "UC_SEND_MIDDLE", SEND,
            IBW__F_PL|IBW__F_PLREQ|IBW__F_REQ|IBW__F_MIDDLE,
            IBW__SEQ0())
    IBW__OP(0x22, UC, "UC SEND LAST", "UC_SEND_LAST", SEND,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_LAST,
            IBW__SEQ0())
    IBW__OP(0x23, UC, "UC SEND LAST WITH IMMEDIATE", "UC_SEND_LAST_WITH_IMMEDIATE", SEND,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_LAST|IBW__F_IMM,
            IBW__SEQ1(IMMDT))
    IBW__OP(0x24, UC, "UC SEND ONLY", "UC_SEND_ONLY", SEND,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_RWR|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ0())
    IBW__OP(0x25, UC, "UC SEND ONLY WITH IMMEDIATE", "UC_SEND_ONLY_WITH_IMMEDIATE", SEND,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_RWR|IBW__F_FIRST|IBW__F_LAST|IBW__F_IMM,
            IBW__SEQ1(IMMDT))
    IBW__OP(0x26, UC, "UC RDMA WRITE FIRST", "UC_RDMA_WRITE_FIRST", WRITE,
            IBW__F_PL|IBW__F_PLREQ|IBW__F_REQ|IBW__F_FIRST,
            IBW__SEQ1(RETH))
    IBW__OP(0x27, UC, "UC RDMA WRITE MIDDLE", "UC_RDMA_WRITE_MIDDLE", WRITE,
            IBW__F_PL|IBW__F_PLREQ|IBW__F_REQ|IBW__F_MIDDLE,
            IBW__SEQ0())
    IBW__OP(0x28, UC, "UC RDMA WRITE LAST", "UC_RDMA_WRITE_LAST", WRITE,
            IBW__F_PL|IBW__F_REQ|IBW__F_LAST,
            IBW__SEQ0())
    IBW__OP(0x29, UC, "UC RDMA WRITE LAST WITH IMMEDIATE", "UC_RDMA_WRITE_LAST_WITH_IMMEDIATE", WRITE,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_RWR|IBW__F_LAST|IBW__F_IMM,
            IBW__SEQ1(IMMDT))
    IBW__OP(0x2A, UC, "UC RDMA WRITE ONLY", "UC_RDMA_WRITE_ONLY", WRITE,
            IBW__F_PL|IBW__F_REQ|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ1(RETH))
    IBW__OP(0x2B, UC, "UC RDMA WRITE ONLY WITH IMMEDIATE", "UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE", WRITE,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_RWR|IBW__F_FIRST|IBW__F_LAST|IBW__F_IMM,
            IBW__SEQ2(RETH, IMMDT))
    IBW__OP(0x40, RD, "RD SEND FIRST", "RD_SEND_FIRST", SEND,
            IBW__F_PL|IBW__F_PLREQ|IBW__F_REQ|IBW__F_RWR|IBW__F_FIRST,
            IBW__SEQ2(RDETH, DETH))
    IBW__OP(0x41, RD, "RD SEND MIDDLE", "RD_SEND_MIDDLE", SEND,
            IBW__F_PL|IBW__F_PLREQ|IBW__F_REQ|IBW__F_MIDDLE,
            IBW__SEQ2(RDETH, DETH))
    IBW__OP(0x42, RD, "RD SEND LAST", "RD_SEND_LAST", SEND,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_LAST,
            IBW__SEQ2(RDETH, DETH))
    IBW__OP(0x43, RD, "RD SEND LAST WITH IMMEDIATE", "RD_SEND_LAST_WITH_IMMEDIATE", SEND,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_LAST|IBW__F_IMM,
            IBW__SEQ3(RDETH, DETH, IMMDT))
    IBW__OP(0x44, RD, "RD SEND ONLY", "RD_SEND_ONLY", SEND,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_RWR|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ2(RDETH, DETH))
    IBW__OP(0x45, RD, "RD SEND ONLY WITH IMMEDIATE", "RD_SEND_ONLY_WITH_IMMEDIATE", SEND,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_RWR|IBW__F_FIRST|IBW__F_LAST|IBW__F_IMM,
            IBW__SEQ3(RDETH, DETH, IMMDT))
    IBW__OP(0x46, RD, "RD RDMA WRITE FIRST", "RD_RDMA_WRITE_FIRST", WRITE,
            IBW__F_PL|IBW__F_PLREQ|IBW__F_REQ|IBW__F_FIRST,
            IBW__SEQ3(RDETH, DETH, RETH))
    IBW__OP(0x47, RD, "RD RDMA WRITE MIDDLE", "RD_RDMA_WRITE_MIDDLE", WRITE,
            IBW__F_PL|IBW__F_PLREQ|IBW__F_REQ|IBW__F_MIDDLE,
            IBW__SEQ2(RDETH, DETH))
    IBW__OP(0x48, RD, "RD RDMA WRITE LAST", "RD_RDMA_WRITE_LAST", WRITE,
            IBW__F_PL|IBW__F_REQ|IBW__F_LAST,
            IBW__SEQ2(RDETH, DETH))
    IBW__OP(0x49, RD, "RD RDMA WRITE LAST WITH IMMEDIATE", "RD_RDMA_WRITE_LAST_WITH_IMMEDIATE", WRITE,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_RWR|IBW__F_LAST|IBW__F_IMM,
            IBW__SEQ3(RDETH, DETH, IMMDT))
    IBW__OP(0x4A, RD, "RD RDMA WRITE ONLY", "RD_RDMA_WRITE_ONLY", WRITE,
            IBW__F_PL|IBW__F_REQ|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ3(RDETH, DETH, RETH))
    IBW__OP(0x4B, RD, "RD RDMA WRITE ONLY WITH IMMEDIATE", "RD_RDMA_WRITE_ONLY_WITH_IMMEDIATE", WRITE,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_RWR|IBW__F_FIRST|IBW__F_LAST|IBW__F_IMM,
            IBW__SEQ4(RDETH, DETH, RETH, IMMDT))
    IBW__OP(0x4C, RD, "RD RDMA READ REQUEST", "RD_RDMA_READ_REQUEST", READ,
            IBW__F_REQ|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ3(RDETH, DETH, RETH))
    IBW__OP(0x4D, RD, "RD RDMA READ RESPONSE FIRST", "RD_RDMA_READ_RESPONSE_FIRST", READ_RESP,
            IBW__F_PL|IBW__F_PLREQ|IBW__F_RESP|IBW__F_FIRST,
            IBW__SEQ2(RDETH, AETH))
    IBW__OP(0x4E, RD, "RD RDMA READ RESPONSE MIDDLE", "RD_RDMA_READ_RESPONSE_MIDDLE", READ_RESP,
            IBW__F_PL|IBW__F_PLREQ|IBW__F_RESP|IBW__F_MIDDLE,
            IBW__SEQ1(RDETH))
    IBW__OP(0x4F, RD, "RD RDMA READ RESPONSE LAST", "RD_RDMA_READ_RESPONSE_LAST", READ_RESP,
            IBW__F_PL|IBW__F_RESP|IBW__F_LAST,
            IBW__SEQ2(RDETH, AETH))
    IBW__OP(0x50, RD, "RD RDMA READ RESPONSE ONLY", "RD_RDMA_READ_RESPONSE_ONLY", READ_RESP,
            IBW__F_PL|IBW__F_RESP|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ2(RDETH, AETH))
    IBW__OP(0x51, RD, "RD ACKNOWLEDGE", "RD_ACKNOWLEDGE", ACK,
            IBW__F_RESP|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ2(RDETH, AETH))
    IBW__OP(0x52, RD, "RD ATOMIC ACKNOWLEDGE", "RD_ATOMIC_ACKNOWLEDGE", ATOMIC_ACK,
            IBW__F_RESP|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ3(RDETH, AETH, ATOMICACKETH))
    IBW__OP(0x53, RD, "RD COMPARE SWAP", "RD_COMPARE_SWAP", ATOMIC,
            IBW__F_REQ|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ3(RDETH, DETH, ATOMICETH))
    IBW__OP(0x54, RD, "RD FETCH ADD", "RD_FETCH_ADD", ATOMIC,
            IBW__F_REQ|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ3(RDETH, DETH, ATOMICETH))
    IBW__OP(0x55, RD, "RD RESYNC", "RD_RESYNC", RESYNC,
            IBW__F_REQ|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ2(RDETH, DETH))
    IBW__OP(0x5C, RD, "RD FLUSH", "RD_FLUSH", FLUSH,
            IBW__F_REQ|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ4(RDETH, DETH, FETH, RETH))
    IBW__OP(0x64, UD, "UD SEND ONLY", "UD_SEND_ONLY", SEND,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_RWR|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ1(DETH))
    IBW__OP(0x65, UD, "UD SEND ONLY WITH IMMEDIATE", "UD_SEND_ONLY_WITH_IMMEDIATE", SEND,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_RWR|IBW__F_FIRST|IBW__F_LAST|IBW__F_IMM,
            IBW__SEQ2(DETH, IMMDT))
    IBW__OP(0x81, CNP, "CNP", "CNP", CNP,
            0,
            IBW__SEQ1(CNP))
    IBW__OP(0xA0, XRC, "XRC SEND FIRST", "XRC_SEND_FIRST", SEND,
            IBW__F_PL|IBW__F_PLREQ|IBW__F_REQ|IBW__F_RWR|IBW__F_FIRST,
            IBW__SEQ1(XRCETH))
    IBW__OP(0xA1, XRC, "XRC SEND MIDDLE", "XRC_SEND_MIDDLE", SEND,
            IBW__F_PL|IBW__F_PLREQ|IBW__F_REQ|IBW__F_MIDDLE,
            IBW__SEQ1(XRCETH))
    IBW__OP(0xA2, XRC, "XRC SEND LAST", "XRC_SEND_LAST", SEND,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_LAST,
            IBW__SEQ1(XRCETH))
    IBW__OP(0xA3, XRC, "XRC SEND LAST WITH IMMEDIATE", "XRC_SEND_LAST_WITH_IMMEDIATE", SEND,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_LAST|IBW__F_IMM,
            IBW__SEQ2(XRCETH, IMMDT))
    IBW__OP(0xA4, XRC, "XRC SEND ONLY", "XRC_SEND_ONLY", SEND,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_RWR|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ1(XRCETH))
    IBW__OP(0xA5, XRC, "XRC SEND ONLY WITH IMMEDIATE", "XRC_SEND_ONLY_WITH_IMMEDIATE", SEND,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_RWR|IBW__F_FIRST|IBW__F_LAST|IBW__F_IMM,
            IBW__SEQ2(XRCETH, IMMDT))
    IBW__OP(0xA6, XRC, "XRC RDMA WRITE FIRST", "XRC_RDMA_WRITE_FIRST", WRITE,
            IBW__F_PL|IBW__F_PLREQ|IBW__F_REQ|IBW__F_FIRST,
            IBW__SEQ2(XRCETH, RETH))
    IBW__OP(0xA7, XRC, "XRC RDMA WRITE MIDDLE", "XRC_RDMA_WRITE_MIDDLE", WRITE,
            IBW__F_PL|IBW__F_PLREQ|IBW__F_REQ|IBW__F_MIDDLE,
            IBW__SEQ1(XRCETH))
    IBW__OP(0xA8, XRC, "XRC RDMA WRITE LAST", "XRC_RDMA_WRITE_LAST", WRITE,
            IBW__F_PL|IBW__F_REQ|IBW__F_LAST,
            IBW__SEQ1(XRCETH))
    IBW__OP(0xA9, XRC, "XRC RDMA WRITE LAST WITH IMMEDIATE", "XRC_RDMA_WRITE_LAST_WITH_IMMEDIATE", WRITE,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_RWR|IBW__F_LAST|IBW__F_IMM,
            IBW__SEQ2(XRCETH, IMMDT))
    IBW__OP(0xAA, XRC, "XRC RDMA WRITE ONLY", "XRC_RDMA_WRITE_ONLY", WRITE,
            IBW__F_PL|IBW__F_REQ|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ2(XRCETH, RETH))
    IBW__OP(0xAB, XRC, "XRC RDMA WRITE ONLY WITH IMMEDIATE", "XRC_RDMA_WRITE_ONLY_WITH_IMMEDIATE", WRITE,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_RWR|IBW__F_FIRST|IBW__F_LAST|IBW__F_IMM,
            IBW__SEQ3(XRCETH, RETH, IMMDT))
    IBW__OP(0xAC, XRC, "XRC RDMA READ REQUEST", "XRC_RDMA_READ_REQUEST", READ,
            IBW__F_REQ|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ2(XRCETH, RETH))
    IBW__OP(0xAD, XRC, "XRC RDMA READ RESPONSE FIRST", "XRC_RDMA_READ_RESPONSE_FIRST", READ_RESP,
            IBW__F_PL|IBW__F_PLREQ|IBW__F_RESP|IBW__F_FIRST,
            IBW__SEQ1(AETH))
    IBW__OP(0xAE, XRC, "XRC RDMA READ RESPONSE MIDDLE", "XRC_RDMA_READ_RESPONSE_MIDDLE", READ_RESP,
            IBW__F_PL|IBW__F_PLREQ|IBW__F_RESP|IBW__F_MIDDLE,
            IBW__SEQ0())
    IBW__OP(0xAF, XRC, "XRC RDMA READ RESPONSE LAST", "XRC_RDMA_READ_RESPONSE_LAST", READ_RESP,
            IBW__F_PL|IBW__F_RESP|IBW__F_LAST,
            IBW__SEQ1(AETH))
    IBW__OP(0xB0, XRC, "XRC RDMA READ RESPONSE ONLY", "XRC_RDMA_READ_RESPONSE_ONLY", READ_RESP,
            IBW__F_PL|IBW__F_RESP|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ1(AETH))
    IBW__OP(0xB1, XRC, "XRC ACKNOWLEDGE", "XRC_ACKNOWLEDGE", ACK,
            IBW__F_RESP|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ1(AETH))
    IBW__OP(0xB2, XRC, "XRC ATOMIC ACKNOWLEDGE", "XRC_ATOMIC_ACKNOWLEDGE", ATOMIC_ACK,
            IBW__F_RESP|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ2(AETH, ATOMICACKETH))
    IBW__OP(0xB3, XRC, "XRC COMPARE SWAP", "XRC_COMPARE_SWAP", ATOMIC,
            IBW__F_REQ|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ2(XRCETH, ATOMICETH))
    IBW__OP(0xB4, XRC, "XRC FETCH ADD", "XRC_FETCH_ADD", ATOMIC,
            IBW__F_REQ|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ2(XRCETH, ATOMICETH))
    IBW__OP(0xB6, XRC, "XRC SEND LAST WITH INVALIDATE", "XRC_SEND_LAST_WITH_INVALIDATE", SEND,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_LAST|IBW__F_INV,
            IBW__SEQ2(XRCETH, IETH))
    IBW__OP(0xB7, XRC, "XRC SEND ONLY WITH INVALIDATE", "XRC_SEND_ONLY_WITH_INVALIDATE", SEND,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_RWR|IBW__F_FIRST|IBW__F_LAST|IBW__F_INV,
            IBW__SEQ2(XRCETH, IETH))

    };
    return table;
}

/* Info for opcode `op`; never NULL.  A reserved value gets an entry with
 * IBW_OPF_VALID clear, kind IBW_OPK_NONE, its range's transport and a name
 * saying it is reserved ("RC reserved", "manufacturer specific"). */
static inline const struct ibw_opcode_info *ibw_opcode_info(uint8_t op)
{
    static const struct ibw_opcode_info reserved[8] = {
        {"RC reserved", "RC_RESERVED", IBW_TR_RC, 0, 0, 0, {0}, 0, 0},
        {"UC reserved", "UC_RESERVED", IBW_TR_UC, 0, 0, 0, {0}, 0, 0},
        {"RD reserved", "RD_RESERVED", IBW_TR_RD, 0, 0, 0, {0}, 0, 0},
        {"UD reserved", "UD_RESERVED", IBW_TR_UD, 0, 0, 0, {0}, 0, 0},
        {"CNP reserved", "CNP_RESERVED", IBW_TR_CNP, 0, 0, 0, {0}, 0, 0},
        {"XRC reserved", "XRC_RESERVED", IBW_TR_XRC, 0, 0, 0, {0}, 0, 0},
        {"reserved", "RESERVED", IBW_TR_RESERVED, 0, 0, 0, {0}, 0, 0},
        {"manufacturer specific", "MANUFACTURER_SPECIFIC", IBW_TR_MSP, 0, 0,
         0, {0}, 0, 0}};
    const struct ibw_opcode_info *e = &ibw__opcode_table()[op];
    return (e->flags & IBW_OPF_VALID) ? e : &reserved[op >> 5];
}

/* Is `op` a defined opcode? */
static inline int ibw_opcode_valid(uint8_t op)
{
    return (ibw_opcode_info(op)->flags & IBW_OPF_VALID) != 0;
}

/* Short name of a transport ("RC", ..., "reserved", "MSP"); never NULL. */
static inline const char *ibw_transport_name(unsigned tr)
{
    static const char *const names[8] = {"RC",  "UC",  "RD",       "UD",
                                         "CNP", "XRC", "reserved", "MSP"};
    return tr < 8 ? names[tr] : "?";
}

/* The opcode whose IBA name ("RC SEND ONLY") or C name ("RC_SEND_ONLY")
 * equals `name` (case-sensitive), or -1.  For tools; linear search. */
static inline int ibw_opcode_by_name(const char *name)
{
    for (unsigned op = 0; op < 256; op++) {
        const struct ibw_opcode_info *e = &ibw__opcode_table()[op];
        if ((e->flags & IBW_OPF_VALID) &&
            (strcmp(e->name, name) == 0 || strcmp(e->cname, name) == 0))
            return (int)op;
    }
    return -1;
}

#endif /* IBWIRE_OPCODE_H */
