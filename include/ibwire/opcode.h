/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ibwire/opcode.h - the BTH opcode table (catalog W14).
 *
 * One entry for each of the 256 opcode values: its IBA name, transport,
 * the extended headers that follow the BTH (in wire order and as a bit set
 * of enum ibw_hdr), whether a payload may/must follow, its place in a
 * message (first/middle/last/only), request or response, and the operation
 * kind.  The parser walks `seq` to find the headers; the builder uses it to
 * decide which header structs to emit.  enum ibw_opcode names every
 * defined opcode; the ibw_opcode_*() queries answer per-packet questions.
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

#ifdef __cplusplus
extern "C" {
#endif

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

/* Short lower-case name of a header ("bth", "reth", ...), or NULL when h is
 * out of range.  These are also the err_hdr strings of ibw_parse(). */
static inline const char *ibw_hdr_name(unsigned h)
{
    static const char *const names[IBW_HDR_COUNT] = {
        "eth",  "vlan",  "vlan2",  "ipv4",      "ipv6",
        "udp",  "lrh",   "grh",    "bth",       "rdeth",
        "deth", "xrceth", "reth",  "feth",      "atomiceth",
        "aeth", "atomicacketh",    "immdt",     "ieth",
        "cnp"};
    return h < IBW_HDR_COUNT ? names[h] : NULL;
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

/*
 * Every defined opcode by name.  The names are Linux's ib_pack.h
 * IB_OPCODE_<transport>_<operation> with the library prefix, so
 * IBW_OP_X is the opcode whose ibw_opcode_info() cname is "X" (the table
 * below takes its C names from these identifiers).  Values are the BTH
 * OpCode byte.
 */
enum ibw_opcode {
    /* reliable connected (IBA Vol. 1 table 38; FLUSH and ATOMIC WRITE from
     * IBA 1.5) */
    IBW_OP_RC_SEND_FIRST = 0x00,
    IBW_OP_RC_SEND_MIDDLE = 0x01,
    IBW_OP_RC_SEND_LAST = 0x02,
    IBW_OP_RC_SEND_LAST_WITH_IMMEDIATE = 0x03,
    IBW_OP_RC_SEND_ONLY = 0x04,
    IBW_OP_RC_SEND_ONLY_WITH_IMMEDIATE = 0x05,
    IBW_OP_RC_RDMA_WRITE_FIRST = 0x06,
    IBW_OP_RC_RDMA_WRITE_MIDDLE = 0x07,
    IBW_OP_RC_RDMA_WRITE_LAST = 0x08,
    IBW_OP_RC_RDMA_WRITE_LAST_WITH_IMMEDIATE = 0x09,
    IBW_OP_RC_RDMA_WRITE_ONLY = 0x0A,
    IBW_OP_RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE = 0x0B,
    IBW_OP_RC_RDMA_READ_REQUEST = 0x0C,
    IBW_OP_RC_RDMA_READ_RESPONSE_FIRST = 0x0D,
    IBW_OP_RC_RDMA_READ_RESPONSE_MIDDLE = 0x0E,
    IBW_OP_RC_RDMA_READ_RESPONSE_LAST = 0x0F,
    IBW_OP_RC_RDMA_READ_RESPONSE_ONLY = 0x10,
    IBW_OP_RC_ACKNOWLEDGE = 0x11,
    IBW_OP_RC_ATOMIC_ACKNOWLEDGE = 0x12,
    IBW_OP_RC_COMPARE_SWAP = 0x13,
    IBW_OP_RC_FETCH_ADD = 0x14,
    IBW_OP_RC_SEND_LAST_WITH_INVALIDATE = 0x16,
    IBW_OP_RC_SEND_ONLY_WITH_INVALIDATE = 0x17,
    IBW_OP_RC_FLUSH = 0x1C,
    IBW_OP_RC_ATOMIC_WRITE = 0x1D,

    /* unreliable connected */
    IBW_OP_UC_SEND_FIRST = 0x20,
    IBW_OP_UC_SEND_MIDDLE = 0x21,
    IBW_OP_UC_SEND_LAST = 0x22,
    IBW_OP_UC_SEND_LAST_WITH_IMMEDIATE = 0x23,
    IBW_OP_UC_SEND_ONLY = 0x24,
    IBW_OP_UC_SEND_ONLY_WITH_IMMEDIATE = 0x25,
    IBW_OP_UC_RDMA_WRITE_FIRST = 0x26,
    IBW_OP_UC_RDMA_WRITE_MIDDLE = 0x27,
    IBW_OP_UC_RDMA_WRITE_LAST = 0x28,
    IBW_OP_UC_RDMA_WRITE_LAST_WITH_IMMEDIATE = 0x29,
    IBW_OP_UC_RDMA_WRITE_ONLY = 0x2A,
    IBW_OP_UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE = 0x2B,

    /* reliable datagram (RD FLUSH: Linux ib_pack.h) */
    IBW_OP_RD_SEND_FIRST = 0x40,
    IBW_OP_RD_SEND_MIDDLE = 0x41,
    IBW_OP_RD_SEND_LAST = 0x42,
    IBW_OP_RD_SEND_LAST_WITH_IMMEDIATE = 0x43,
    IBW_OP_RD_SEND_ONLY = 0x44,
    IBW_OP_RD_SEND_ONLY_WITH_IMMEDIATE = 0x45,
    IBW_OP_RD_RDMA_WRITE_FIRST = 0x46,
    IBW_OP_RD_RDMA_WRITE_MIDDLE = 0x47,
    IBW_OP_RD_RDMA_WRITE_LAST = 0x48,
    IBW_OP_RD_RDMA_WRITE_LAST_WITH_IMMEDIATE = 0x49,
    IBW_OP_RD_RDMA_WRITE_ONLY = 0x4A,
    IBW_OP_RD_RDMA_WRITE_ONLY_WITH_IMMEDIATE = 0x4B,
    IBW_OP_RD_RDMA_READ_REQUEST = 0x4C,
    IBW_OP_RD_RDMA_READ_RESPONSE_FIRST = 0x4D,
    IBW_OP_RD_RDMA_READ_RESPONSE_MIDDLE = 0x4E,
    IBW_OP_RD_RDMA_READ_RESPONSE_LAST = 0x4F,
    IBW_OP_RD_RDMA_READ_RESPONSE_ONLY = 0x50,
    IBW_OP_RD_ACKNOWLEDGE = 0x51,
    IBW_OP_RD_ATOMIC_ACKNOWLEDGE = 0x52,
    IBW_OP_RD_COMPARE_SWAP = 0x53,
    IBW_OP_RD_FETCH_ADD = 0x54,
    IBW_OP_RD_RESYNC = 0x55,
    IBW_OP_RD_FLUSH = 0x5C,

    /* unreliable datagram */
    IBW_OP_UD_SEND_ONLY = 0x64,
    IBW_OP_UD_SEND_ONLY_WITH_IMMEDIATE = 0x65,

    /* RoCEv2 congestion notification (annex A17) */
    IBW_OP_CNP = 0x81,

    /* extended reliable connected (annex A14) */
    IBW_OP_XRC_SEND_FIRST = 0xA0,
    IBW_OP_XRC_SEND_MIDDLE = 0xA1,
    IBW_OP_XRC_SEND_LAST = 0xA2,
    IBW_OP_XRC_SEND_LAST_WITH_IMMEDIATE = 0xA3,
    IBW_OP_XRC_SEND_ONLY = 0xA4,
    IBW_OP_XRC_SEND_ONLY_WITH_IMMEDIATE = 0xA5,
    IBW_OP_XRC_RDMA_WRITE_FIRST = 0xA6,
    IBW_OP_XRC_RDMA_WRITE_MIDDLE = 0xA7,
    IBW_OP_XRC_RDMA_WRITE_LAST = 0xA8,
    IBW_OP_XRC_RDMA_WRITE_LAST_WITH_IMMEDIATE = 0xA9,
    IBW_OP_XRC_RDMA_WRITE_ONLY = 0xAA,
    IBW_OP_XRC_RDMA_WRITE_ONLY_WITH_IMMEDIATE = 0xAB,
    IBW_OP_XRC_RDMA_READ_REQUEST = 0xAC,
    IBW_OP_XRC_RDMA_READ_RESPONSE_FIRST = 0xAD,
    IBW_OP_XRC_RDMA_READ_RESPONSE_MIDDLE = 0xAE,
    IBW_OP_XRC_RDMA_READ_RESPONSE_LAST = 0xAF,
    IBW_OP_XRC_RDMA_READ_RESPONSE_ONLY = 0xB0,
    IBW_OP_XRC_ACKNOWLEDGE = 0xB1,
    IBW_OP_XRC_ATOMIC_ACKNOWLEDGE = 0xB2,
    IBW_OP_XRC_COMPARE_SWAP = 0xB3,
    IBW_OP_XRC_FETCH_ADD = 0xB4,
    IBW_OP_XRC_SEND_LAST_WITH_INVALIDATE = 0xB6,
    IBW_OP_XRC_SEND_ONLY_WITH_INVALIDATE = 0xB7,
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
#define IBW__OP(cn, tr, iname, kd, fl, seq)                   \
    {iname, #cn, IBW_TR_##tr, IBW_OPK_##kd,                      \
     (uint16_t)((fl) | IBW_OPF_VALID), seq},
/* Runs of reserved values: 1, 2, 4, ... zero entries. */
#define IBW__R1 {NULL, NULL, 0, 0, 0, 0, {0}, 0u, 0},
#define IBW__R2 IBW__R1 IBW__R1
#define IBW__R4 IBW__R2 IBW__R2
#define IBW__R8 IBW__R4 IBW__R4
#define IBW__R16 IBW__R8 IBW__R8

/* The 256 opcodes in order, reserved ones as zero entries.  Positional,
 * not designated ([op] = ...), so that the header also compiles as C++;
 * test_packet_opcodes checks every defined slot's name and the reserved
 * ones against the spec, so an entry out of place fails there. */
static inline const struct ibw_opcode_info *ibw__opcode_table(void)
{
    static const struct ibw_opcode_info table[256] = {
    IBW__OP(RC_SEND_FIRST, RC, "RC SEND FIRST", SEND,
            IBW__F_PL|IBW__F_PLREQ|IBW__F_REQ|IBW__F_RWR|IBW__F_FIRST,
            IBW__SEQ0())
    IBW__OP(RC_SEND_MIDDLE, RC, "RC SEND MIDDLE", SEND,
            IBW__F_PL|IBW__F_PLREQ|IBW__F_REQ|IBW__F_MIDDLE,
            IBW__SEQ0())
    IBW__OP(RC_SEND_LAST, RC, "RC SEND LAST", SEND,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_LAST,
            IBW__SEQ0())
    IBW__OP(RC_SEND_LAST_WITH_IMMEDIATE, RC, "RC SEND LAST WITH IMMEDIATE", SEND,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_LAST|IBW__F_IMM,
            IBW__SEQ1(IMMDT))
    IBW__OP(RC_SEND_ONLY, RC, "RC SEND ONLY", SEND,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_RWR|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ0())
    IBW__OP(RC_SEND_ONLY_WITH_IMMEDIATE, RC, "RC SEND ONLY WITH IMMEDIATE", SEND,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_RWR|IBW__F_FIRST|IBW__F_LAST|IBW__F_IMM,
            IBW__SEQ1(IMMDT))
    IBW__OP(RC_RDMA_WRITE_FIRST, RC, "RC RDMA WRITE FIRST", WRITE,
            IBW__F_PL|IBW__F_PLREQ|IBW__F_REQ|IBW__F_FIRST,
            IBW__SEQ1(RETH))
    IBW__OP(RC_RDMA_WRITE_MIDDLE, RC, "RC RDMA WRITE MIDDLE", WRITE,
            IBW__F_PL|IBW__F_PLREQ|IBW__F_REQ|IBW__F_MIDDLE,
            IBW__SEQ0())
    IBW__OP(RC_RDMA_WRITE_LAST, RC, "RC RDMA WRITE LAST", WRITE,
            IBW__F_PL|IBW__F_REQ|IBW__F_LAST,
            IBW__SEQ0())
    IBW__OP(RC_RDMA_WRITE_LAST_WITH_IMMEDIATE, RC, "RC RDMA WRITE LAST WITH IMMEDIATE", WRITE,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_RWR|IBW__F_LAST|IBW__F_IMM,
            IBW__SEQ1(IMMDT))
    IBW__OP(RC_RDMA_WRITE_ONLY, RC, "RC RDMA WRITE ONLY", WRITE,
            IBW__F_PL|IBW__F_REQ|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ1(RETH))
    IBW__OP(RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE, RC, "RC RDMA WRITE ONLY WITH IMMEDIATE", WRITE,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_RWR|IBW__F_FIRST|IBW__F_LAST|IBW__F_IMM,
            IBW__SEQ2(RETH, IMMDT))
    IBW__OP(RC_RDMA_READ_REQUEST, RC, "RC RDMA READ REQUEST", READ,
            IBW__F_REQ|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ1(RETH))
    IBW__OP(RC_RDMA_READ_RESPONSE_FIRST, RC, "RC RDMA READ RESPONSE FIRST", READ_RESP,
            IBW__F_PL|IBW__F_PLREQ|IBW__F_RESP|IBW__F_FIRST,
            IBW__SEQ1(AETH))
    IBW__OP(RC_RDMA_READ_RESPONSE_MIDDLE, RC, "RC RDMA READ RESPONSE MIDDLE", READ_RESP,
            IBW__F_PL|IBW__F_PLREQ|IBW__F_RESP|IBW__F_MIDDLE,
            IBW__SEQ0())
    IBW__OP(RC_RDMA_READ_RESPONSE_LAST, RC, "RC RDMA READ RESPONSE LAST", READ_RESP,
            IBW__F_PL|IBW__F_RESP|IBW__F_LAST,
            IBW__SEQ1(AETH))
    IBW__OP(RC_RDMA_READ_RESPONSE_ONLY, RC, "RC RDMA READ RESPONSE ONLY", READ_RESP,
            IBW__F_PL|IBW__F_RESP|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ1(AETH))
    IBW__OP(RC_ACKNOWLEDGE, RC, "RC ACKNOWLEDGE", ACK,
            IBW__F_RESP|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ1(AETH))
    IBW__OP(RC_ATOMIC_ACKNOWLEDGE, RC, "RC ATOMIC ACKNOWLEDGE", ATOMIC_ACK,
            IBW__F_RESP|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ2(AETH, ATOMICACKETH))
    IBW__OP(RC_COMPARE_SWAP, RC, "RC COMPARE SWAP", ATOMIC,
            IBW__F_REQ|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ1(ATOMICETH))
    IBW__OP(RC_FETCH_ADD, RC, "RC FETCH ADD", ATOMIC,
            IBW__F_REQ|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ1(ATOMICETH))
    /* 0x15 */ IBW__R1
    IBW__OP(RC_SEND_LAST_WITH_INVALIDATE, RC, "RC SEND LAST WITH INVALIDATE", SEND,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_LAST|IBW__F_INV,
            IBW__SEQ1(IETH))
    IBW__OP(RC_SEND_ONLY_WITH_INVALIDATE, RC, "RC SEND ONLY WITH INVALIDATE", SEND,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_RWR|IBW__F_FIRST|IBW__F_LAST|IBW__F_INV,
            IBW__SEQ1(IETH))
    /* 0x18-0x1B */ IBW__R4
    IBW__OP(RC_FLUSH, RC, "RC FLUSH", FLUSH,
            IBW__F_REQ|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ2(FETH, RETH))
    IBW__OP(RC_ATOMIC_WRITE, RC, "RC ATOMIC WRITE", ATOMIC_WRITE,
            IBW__F_PL|IBW__F_PLREQ|IBW__F_REQ|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ1(RETH))
    /* 0x1E-0x1F */ IBW__R2
    IBW__OP(UC_SEND_FIRST, UC, "UC SEND FIRST", SEND,
            IBW__F_PL|IBW__F_PLREQ|IBW__F_REQ|IBW__F_RWR|IBW__F_FIRST,
            IBW__SEQ0())
    IBW__OP(UC_SEND_MIDDLE, UC, "UC SEND MIDDLE", SEND,
            IBW__F_PL|IBW__F_PLREQ|IBW__F_REQ|IBW__F_MIDDLE,
            IBW__SEQ0())
    IBW__OP(UC_SEND_LAST, UC, "UC SEND LAST", SEND,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_LAST,
            IBW__SEQ0())
    IBW__OP(UC_SEND_LAST_WITH_IMMEDIATE, UC, "UC SEND LAST WITH IMMEDIATE", SEND,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_LAST|IBW__F_IMM,
            IBW__SEQ1(IMMDT))
    IBW__OP(UC_SEND_ONLY, UC, "UC SEND ONLY", SEND,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_RWR|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ0())
    IBW__OP(UC_SEND_ONLY_WITH_IMMEDIATE, UC, "UC SEND ONLY WITH IMMEDIATE", SEND,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_RWR|IBW__F_FIRST|IBW__F_LAST|IBW__F_IMM,
            IBW__SEQ1(IMMDT))
    IBW__OP(UC_RDMA_WRITE_FIRST, UC, "UC RDMA WRITE FIRST", WRITE,
            IBW__F_PL|IBW__F_PLREQ|IBW__F_REQ|IBW__F_FIRST,
            IBW__SEQ1(RETH))
    IBW__OP(UC_RDMA_WRITE_MIDDLE, UC, "UC RDMA WRITE MIDDLE", WRITE,
            IBW__F_PL|IBW__F_PLREQ|IBW__F_REQ|IBW__F_MIDDLE,
            IBW__SEQ0())
    IBW__OP(UC_RDMA_WRITE_LAST, UC, "UC RDMA WRITE LAST", WRITE,
            IBW__F_PL|IBW__F_REQ|IBW__F_LAST,
            IBW__SEQ0())
    IBW__OP(UC_RDMA_WRITE_LAST_WITH_IMMEDIATE, UC, "UC RDMA WRITE LAST WITH IMMEDIATE", WRITE,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_RWR|IBW__F_LAST|IBW__F_IMM,
            IBW__SEQ1(IMMDT))
    IBW__OP(UC_RDMA_WRITE_ONLY, UC, "UC RDMA WRITE ONLY", WRITE,
            IBW__F_PL|IBW__F_REQ|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ1(RETH))
    IBW__OP(UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE, UC, "UC RDMA WRITE ONLY WITH IMMEDIATE", WRITE,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_RWR|IBW__F_FIRST|IBW__F_LAST|IBW__F_IMM,
            IBW__SEQ2(RETH, IMMDT))
    /* 0x2C-0x3F */ IBW__R16 IBW__R4
    IBW__OP(RD_SEND_FIRST, RD, "RD SEND FIRST", SEND,
            IBW__F_PL|IBW__F_PLREQ|IBW__F_REQ|IBW__F_RWR|IBW__F_FIRST,
            IBW__SEQ2(RDETH, DETH))
    IBW__OP(RD_SEND_MIDDLE, RD, "RD SEND MIDDLE", SEND,
            IBW__F_PL|IBW__F_PLREQ|IBW__F_REQ|IBW__F_MIDDLE,
            IBW__SEQ2(RDETH, DETH))
    IBW__OP(RD_SEND_LAST, RD, "RD SEND LAST", SEND,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_LAST,
            IBW__SEQ2(RDETH, DETH))
    IBW__OP(RD_SEND_LAST_WITH_IMMEDIATE, RD, "RD SEND LAST WITH IMMEDIATE", SEND,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_LAST|IBW__F_IMM,
            IBW__SEQ3(RDETH, DETH, IMMDT))
    IBW__OP(RD_SEND_ONLY, RD, "RD SEND ONLY", SEND,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_RWR|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ2(RDETH, DETH))
    IBW__OP(RD_SEND_ONLY_WITH_IMMEDIATE, RD, "RD SEND ONLY WITH IMMEDIATE", SEND,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_RWR|IBW__F_FIRST|IBW__F_LAST|IBW__F_IMM,
            IBW__SEQ3(RDETH, DETH, IMMDT))
    IBW__OP(RD_RDMA_WRITE_FIRST, RD, "RD RDMA WRITE FIRST", WRITE,
            IBW__F_PL|IBW__F_PLREQ|IBW__F_REQ|IBW__F_FIRST,
            IBW__SEQ3(RDETH, DETH, RETH))
    IBW__OP(RD_RDMA_WRITE_MIDDLE, RD, "RD RDMA WRITE MIDDLE", WRITE,
            IBW__F_PL|IBW__F_PLREQ|IBW__F_REQ|IBW__F_MIDDLE,
            IBW__SEQ2(RDETH, DETH))
    IBW__OP(RD_RDMA_WRITE_LAST, RD, "RD RDMA WRITE LAST", WRITE,
            IBW__F_PL|IBW__F_REQ|IBW__F_LAST,
            IBW__SEQ2(RDETH, DETH))
    IBW__OP(RD_RDMA_WRITE_LAST_WITH_IMMEDIATE, RD, "RD RDMA WRITE LAST WITH IMMEDIATE", WRITE,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_RWR|IBW__F_LAST|IBW__F_IMM,
            IBW__SEQ3(RDETH, DETH, IMMDT))
    IBW__OP(RD_RDMA_WRITE_ONLY, RD, "RD RDMA WRITE ONLY", WRITE,
            IBW__F_PL|IBW__F_REQ|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ3(RDETH, DETH, RETH))
    IBW__OP(RD_RDMA_WRITE_ONLY_WITH_IMMEDIATE, RD, "RD RDMA WRITE ONLY WITH IMMEDIATE", WRITE,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_RWR|IBW__F_FIRST|IBW__F_LAST|IBW__F_IMM,
            IBW__SEQ4(RDETH, DETH, RETH, IMMDT))
    IBW__OP(RD_RDMA_READ_REQUEST, RD, "RD RDMA READ REQUEST", READ,
            IBW__F_REQ|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ3(RDETH, DETH, RETH))
    IBW__OP(RD_RDMA_READ_RESPONSE_FIRST, RD, "RD RDMA READ RESPONSE FIRST", READ_RESP,
            IBW__F_PL|IBW__F_PLREQ|IBW__F_RESP|IBW__F_FIRST,
            IBW__SEQ2(RDETH, AETH))
    IBW__OP(RD_RDMA_READ_RESPONSE_MIDDLE, RD, "RD RDMA READ RESPONSE MIDDLE", READ_RESP,
            IBW__F_PL|IBW__F_PLREQ|IBW__F_RESP|IBW__F_MIDDLE,
            IBW__SEQ1(RDETH))
    IBW__OP(RD_RDMA_READ_RESPONSE_LAST, RD, "RD RDMA READ RESPONSE LAST", READ_RESP,
            IBW__F_PL|IBW__F_RESP|IBW__F_LAST,
            IBW__SEQ2(RDETH, AETH))
    IBW__OP(RD_RDMA_READ_RESPONSE_ONLY, RD, "RD RDMA READ RESPONSE ONLY", READ_RESP,
            IBW__F_PL|IBW__F_RESP|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ2(RDETH, AETH))
    IBW__OP(RD_ACKNOWLEDGE, RD, "RD ACKNOWLEDGE", ACK,
            IBW__F_RESP|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ2(RDETH, AETH))
    IBW__OP(RD_ATOMIC_ACKNOWLEDGE, RD, "RD ATOMIC ACKNOWLEDGE", ATOMIC_ACK,
            IBW__F_RESP|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ3(RDETH, AETH, ATOMICACKETH))
    IBW__OP(RD_COMPARE_SWAP, RD, "RD COMPARE SWAP", ATOMIC,
            IBW__F_REQ|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ3(RDETH, DETH, ATOMICETH))
    IBW__OP(RD_FETCH_ADD, RD, "RD FETCH ADD", ATOMIC,
            IBW__F_REQ|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ3(RDETH, DETH, ATOMICETH))
    IBW__OP(RD_RESYNC, RD, "RD RESYNC", RESYNC,
            IBW__F_REQ|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ2(RDETH, DETH))
    /* 0x56-0x5B */ IBW__R4 IBW__R2
    IBW__OP(RD_FLUSH, RD, "RD FLUSH", FLUSH,
            IBW__F_REQ|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ4(RDETH, DETH, FETH, RETH))
    /* 0x5D-0x63 */ IBW__R4 IBW__R2 IBW__R1
    IBW__OP(UD_SEND_ONLY, UD, "UD SEND ONLY", SEND,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_RWR|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ1(DETH))
    IBW__OP(UD_SEND_ONLY_WITH_IMMEDIATE, UD, "UD SEND ONLY WITH IMMEDIATE", SEND,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_RWR|IBW__F_FIRST|IBW__F_LAST|IBW__F_IMM,
            IBW__SEQ2(DETH, IMMDT))
    /* 0x66-0x80 */ IBW__R16 IBW__R8 IBW__R2 IBW__R1
    IBW__OP(CNP, CNP, "CNP", CNP,
            0,
            IBW__SEQ1(CNP))
    /* 0x82-0x9F */ IBW__R16 IBW__R8 IBW__R4 IBW__R2
    IBW__OP(XRC_SEND_FIRST, XRC, "XRC SEND FIRST", SEND,
            IBW__F_PL|IBW__F_PLREQ|IBW__F_REQ|IBW__F_RWR|IBW__F_FIRST,
            IBW__SEQ1(XRCETH))
    IBW__OP(XRC_SEND_MIDDLE, XRC, "XRC SEND MIDDLE", SEND,
            IBW__F_PL|IBW__F_PLREQ|IBW__F_REQ|IBW__F_MIDDLE,
            IBW__SEQ1(XRCETH))
    IBW__OP(XRC_SEND_LAST, XRC, "XRC SEND LAST", SEND,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_LAST,
            IBW__SEQ1(XRCETH))
    IBW__OP(XRC_SEND_LAST_WITH_IMMEDIATE, XRC, "XRC SEND LAST WITH IMMEDIATE", SEND,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_LAST|IBW__F_IMM,
            IBW__SEQ2(XRCETH, IMMDT))
    IBW__OP(XRC_SEND_ONLY, XRC, "XRC SEND ONLY", SEND,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_RWR|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ1(XRCETH))
    IBW__OP(XRC_SEND_ONLY_WITH_IMMEDIATE, XRC, "XRC SEND ONLY WITH IMMEDIATE", SEND,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_RWR|IBW__F_FIRST|IBW__F_LAST|IBW__F_IMM,
            IBW__SEQ2(XRCETH, IMMDT))
    IBW__OP(XRC_RDMA_WRITE_FIRST, XRC, "XRC RDMA WRITE FIRST", WRITE,
            IBW__F_PL|IBW__F_PLREQ|IBW__F_REQ|IBW__F_FIRST,
            IBW__SEQ2(XRCETH, RETH))
    IBW__OP(XRC_RDMA_WRITE_MIDDLE, XRC, "XRC RDMA WRITE MIDDLE", WRITE,
            IBW__F_PL|IBW__F_PLREQ|IBW__F_REQ|IBW__F_MIDDLE,
            IBW__SEQ1(XRCETH))
    IBW__OP(XRC_RDMA_WRITE_LAST, XRC, "XRC RDMA WRITE LAST", WRITE,
            IBW__F_PL|IBW__F_REQ|IBW__F_LAST,
            IBW__SEQ1(XRCETH))
    IBW__OP(XRC_RDMA_WRITE_LAST_WITH_IMMEDIATE, XRC, "XRC RDMA WRITE LAST WITH IMMEDIATE", WRITE,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_RWR|IBW__F_LAST|IBW__F_IMM,
            IBW__SEQ2(XRCETH, IMMDT))
    IBW__OP(XRC_RDMA_WRITE_ONLY, XRC, "XRC RDMA WRITE ONLY", WRITE,
            IBW__F_PL|IBW__F_REQ|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ2(XRCETH, RETH))
    IBW__OP(XRC_RDMA_WRITE_ONLY_WITH_IMMEDIATE, XRC, "XRC RDMA WRITE ONLY WITH IMMEDIATE", WRITE,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_RWR|IBW__F_FIRST|IBW__F_LAST|IBW__F_IMM,
            IBW__SEQ3(XRCETH, RETH, IMMDT))
    IBW__OP(XRC_RDMA_READ_REQUEST, XRC, "XRC RDMA READ REQUEST", READ,
            IBW__F_REQ|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ2(XRCETH, RETH))
    IBW__OP(XRC_RDMA_READ_RESPONSE_FIRST, XRC, "XRC RDMA READ RESPONSE FIRST", READ_RESP,
            IBW__F_PL|IBW__F_PLREQ|IBW__F_RESP|IBW__F_FIRST,
            IBW__SEQ1(AETH))
    IBW__OP(XRC_RDMA_READ_RESPONSE_MIDDLE, XRC, "XRC RDMA READ RESPONSE MIDDLE", READ_RESP,
            IBW__F_PL|IBW__F_PLREQ|IBW__F_RESP|IBW__F_MIDDLE,
            IBW__SEQ0())
    IBW__OP(XRC_RDMA_READ_RESPONSE_LAST, XRC, "XRC RDMA READ RESPONSE LAST", READ_RESP,
            IBW__F_PL|IBW__F_RESP|IBW__F_LAST,
            IBW__SEQ1(AETH))
    IBW__OP(XRC_RDMA_READ_RESPONSE_ONLY, XRC, "XRC RDMA READ RESPONSE ONLY", READ_RESP,
            IBW__F_PL|IBW__F_RESP|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ1(AETH))
    IBW__OP(XRC_ACKNOWLEDGE, XRC, "XRC ACKNOWLEDGE", ACK,
            IBW__F_RESP|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ1(AETH))
    IBW__OP(XRC_ATOMIC_ACKNOWLEDGE, XRC, "XRC ATOMIC ACKNOWLEDGE", ATOMIC_ACK,
            IBW__F_RESP|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ2(AETH, ATOMICACKETH))
    IBW__OP(XRC_COMPARE_SWAP, XRC, "XRC COMPARE SWAP", ATOMIC,
            IBW__F_REQ|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ2(XRCETH, ATOMICETH))
    IBW__OP(XRC_FETCH_ADD, XRC, "XRC FETCH ADD", ATOMIC,
            IBW__F_REQ|IBW__F_FIRST|IBW__F_LAST,
            IBW__SEQ2(XRCETH, ATOMICETH))
    /* 0xB5 */ IBW__R1
    IBW__OP(XRC_SEND_LAST_WITH_INVALIDATE, XRC, "XRC SEND LAST WITH INVALIDATE", SEND,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_LAST|IBW__F_INV,
            IBW__SEQ2(XRCETH, IETH))
    IBW__OP(XRC_SEND_ONLY_WITH_INVALIDATE, XRC, "XRC SEND ONLY WITH INVALIDATE", SEND,
            IBW__F_PL|IBW__F_REQ|IBW__F_COMP|IBW__F_RWR|IBW__F_FIRST|IBW__F_LAST|IBW__F_INV,
            IBW__SEQ2(XRCETH, IETH))
    /* 0xB8-0xFF: reserved and manufacturer specific, zero */
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

/*
 * Per-packet questions about an opcode, for code that branches on it (the
 * engine, the checker) instead of keeping its own opcode facts.  All read
 * the table above; a reserved opcode answers 0 to each, except that its
 * transport is still its range's.
 */
static inline enum ibw_transport ibw_opcode_transport(uint8_t op)
{
    return (enum ibw_transport)ibw_opcode_info(op)->transport;
}

static inline enum ibw_op_kind ibw_opcode_kind(uint8_t op)
{
    return (enum ibw_op_kind)ibw__opcode_table()[op].kind;
}

/* The headers after the BTH as a bit set of (1u << enum ibw_hdr). */
static inline uint32_t ibw_opcode_hdrs(uint8_t op)
{
    return ibw__opcode_table()[op].hdrs;
}

static inline int ibw_opcode_has_hdr(uint8_t op, enum ibw_hdr h)
{
    return (unsigned)h < IBW_HDR_COUNT && ((ibw_opcode_hdrs(op) >> h) & 1u);
}

/* Bytes of the headers after the BTH, up to the payload. */
static inline unsigned ibw_opcode_hdr_bytes(uint8_t op)
{
    return ibw__opcode_table()[op].hdr_bytes;
}

static inline int ibw__opcode_flag(uint8_t op, unsigned flag)
{
    return (ibw__opcode_table()[op].flags & flag) != 0;
}

/* Place in a message.  An ONLY opcode is both first and last, so "first
 * of several packets" is ibw_opcode_is_first() && !ibw_opcode_is_last(). */
static inline int ibw_opcode_is_first(uint8_t op)
{
    return ibw__opcode_flag(op, IBW_OPF_FIRST);
}

static inline int ibw_opcode_is_middle(uint8_t op)
{
    return ibw__opcode_flag(op, IBW_OPF_MIDDLE);
}

static inline int ibw_opcode_is_last(uint8_t op)
{
    return ibw__opcode_flag(op, IBW_OPF_LAST);
}

static inline int ibw_opcode_is_only(uint8_t op)
{
    return (ibw__opcode_table()[op].flags & IBW_OPF_ONLY) == IBW_OPF_ONLY;
}

/* Sent by the requester / by the responder.  A CNP is neither. */
static inline int ibw_opcode_is_request(uint8_t op)
{
    return ibw__opcode_flag(op, IBW_OPF_REQUEST);
}

static inline int ibw_opcode_is_response(uint8_t op)
{
    return ibw__opcode_flag(op, IBW_OPF_RESPONSE);
}

/* May a payload follow the headers? */
static inline int ibw_opcode_has_payload(uint8_t op)
{
    return ibw__opcode_flag(op, IBW_OPF_PAYLOAD);
}

/* The opcode of op's operation in transport tr: IBA 9.2 gives each
 * operation the same low five bits in every transport (RC SEND FIRST
 * 0x00, UD SEND ONLY 0x64 like RC SEND ONLY 0x04).  The result need not be
 * defined (an RDMA READ REQUEST has no UC opcode): see ibw_opcode_valid(). */
static inline uint8_t ibw_opcode_in_transport(uint8_t op, enum ibw_transport tr)
{
    return (uint8_t)(((unsigned)tr << 5) | (op & 0x1Fu));
}

/* Short name of a transport ("RC", ..., "reserved", "MSP"), or NULL when
 * tr is not a 3-bit transport code. */
static inline const char *ibw_transport_name(unsigned tr)
{
    static const char *const names[8] = {"RC",  "UC",  "RD",       "UD",
                                         "CNP", "XRC", "reserved", "MSP"};
    return tr < 8 ? names[tr] : NULL;
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

#ifdef __cplusplus
}
#endif

#endif /* IBWIRE_OPCODE_H */
