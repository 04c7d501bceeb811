/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ibwire/wire.h - the InfiniBand transport headers (catalog W1-W12).
 *
 * LRH, GRH, BTH and every extended transport header, declared once each as a
 * field list (IBA Vol. 1 ch. 7 and 9; FETH from IBA 1.5).  Offsets are
 * (byte, bit from the MSB of that byte, width), the IBA "Byte[Bit]" notation.
 * Each list expands through IBW_WIRE_FORMAT into getters/setters, a struct,
 * decode/encode and a descriptor table; see base.h.
 *
 * Also: the AETH syndrome helpers with the credit and RNR timer tables.
 */
#ifndef IBWIRE_WIRE_H
#define IBWIRE_WIRE_H

#include "base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* W1 Local Route Header, 8 bytes. */
#define IBW_LRH_FIELDS(X, c)                                              \
    X(c, vl, 0, 0, 4, U8, "virtual lane")                                 \
    X(c, lver, 0, 4, 4, U8, "link version (0)")                           \
    X(c, sl, 1, 0, 4, U8, "service level")                                \
    X(c, resv2, 1, 4, 2, U8, "reserved")                                  \
    X(c, lnh, 1, 6, 2, U8, "link next header: 0 raw, 1 IP, 2 BTH, 3 GRH") \
    X(c, dlid, 2, 0, 16, U16, "destination LID")                          \
    X(c, resv5, 4, 0, 5, U8, "reserved")                                  \
    X(c, pktlen, 4, 5, 11, U16,                                           \
      "packet length in 4-byte words, LRH through ICRC, without VCRC")    \
    X(c, slid, 6, 0, 16, U16, "source LID")
IBW_WIRE_FORMAT(ibw_lrh, IBW_LRH_FIELDS, 8, "lrh", "W1", "Local Route Header",
                "IBA Vol.1 7.7", "IBA")

enum ibw_lnh {
    IBW_LNH_RAW = 0,
    IBW_LNH_IP = 1,
    IBW_LNH_IBA_LOCAL = 2,  /* BTH follows */
    IBW_LNH_IBA_GLOBAL = 3  /* GRH follows */
};

/* W2 Global Route Header, 40 bytes. */
#define IBW_GRH_FIELDS(X, c)                                              \
    X(c, ipver, 0, 0, 4, U8, "IP version (6)")                            \
    X(c, tclass, 0, 4, 8, U8, "traffic class")                            \
    X(c, flowlabel, 1, 4, 20, U32, "flow label")                          \
    X(c, paylen, 4, 0, 16, U16, "payload length: BTH through ICRC")       \
    X(c, nxthdr, 6, 0, 8, U8, "next header (0x1B = IBA transport)")       \
    X(c, hoplmt, 7, 0, 8, U8, "hop limit")                                \
    X(c, sgid, 8, 0, 128, BYTES, "source GID")                            \
    X(c, dgid, 24, 0, 128, BYTES, "destination GID")
IBW_WIRE_FORMAT(ibw_grh, IBW_GRH_FIELDS, 40, "grh", "W2", "Global Route Header",
                "IBA Vol.1 8.3", "IBA")

#define IBW_GRH_NXTHDR_IBA 0x1B

/* W3 Base Transport Header, 12 bytes. */
#define IBW_BTH_FIELDS(X, c)                                              \
    X(c, opcode, 0, 0, 8, U8, "operation code")                           \
    X(c, se, 1, 0, 1, U8, "solicited event")                              \
    X(c, m, 1, 1, 1, U8, "migration request")                             \
    X(c, padcnt, 1, 2, 2, U8, "pad count")                                \
    X(c, tver, 1, 4, 4, U8, "transport header version (0)")               \
    X(c, pkey, 2, 0, 16, U16, "partition key")                            \
    X(c, fecn, 4, 0, 1, U8, "forward explicit congestion notification")   \
    X(c, becn, 4, 1, 1, U8, "backward explicit congestion notification")  \
    X(c, resv6, 4, 2, 6, U8, "reserved (variant)")                        \
    X(c, destqp, 5, 0, 24, U32, "destination QP")                         \
    X(c, ackreq, 8, 0, 1, U8, "acknowledge request")                      \
    X(c, resv7, 8, 1, 7, U8, "reserved")                                  \
    X(c, psn, 9, 0, 24, U32, "packet sequence number")
IBW_WIRE_FORMAT(ibw_bth, IBW_BTH_FIELDS, 12, "bth", "W3",
                "Base Transport Header", "IBA Vol.1 9.2", "IBA")

/* W4 Reliable Datagram Extended Transport Header, 4 bytes. */
#define IBW_RDETH_FIELDS(X, c)                                            \
    X(c, resv, 0, 0, 8, U8, "reserved")                                   \
    X(c, eecnxt, 1, 0, 24, U32, "EE context")
IBW_WIRE_FORMAT(ibw_rdeth, IBW_RDETH_FIELDS, 4, "rdeth", "W4",
                "Reliable Datagram Extended Transport Header",
                "IBA Vol.1 9.3.1", "IBA")

/* W5 Datagram Extended Transport Header, 8 bytes. */
#define IBW_DETH_FIELDS(X, c)                                             \
    X(c, qkey, 0, 0, 32, U32, "queue key")                                \
    X(c, resv, 4, 0, 8, U8, "reserved")                                   \
    X(c, srcqp, 5, 0, 24, U32, "source QP")
IBW_WIRE_FORMAT(ibw_deth, IBW_DETH_FIELDS, 8, "deth", "W5",
                "Datagram Extended Transport Header", "IBA Vol.1 9.3.2",
                "IBA")

/* W6 RDMA Extended Transport Header, 16 bytes. */
#define IBW_RETH_FIELDS(X, c)                                             \
    X(c, va, 0, 0, 64, U64, "virtual address")                            \
    X(c, rkey, 8, 0, 32, U32, "remote key")                               \
    X(c, dmalen, 12, 0, 32, U32, "DMA length")
IBW_WIRE_FORMAT(ibw_reth, IBW_RETH_FIELDS, 16, "reth", "W6",
                "RDMA Extended Transport Header", "IBA Vol.1 9.3.3", "IBA")

/* W7 Atomic Extended Transport Header, 28 bytes. */
#define IBW_ATOMICETH_FIELDS(X, c)                                        \
    X(c, va, 0, 0, 64, U64, "virtual address (8-byte aligned)")           \
    X(c, rkey, 8, 0, 32, U32, "remote key")                               \
    X(c, swapdt, 12, 0, 64, U64, "swap (CmpSwap) or add (FetchAdd) data") \
    X(c, cmpdt, 20, 0, 64, U64, "compare data")
IBW_WIRE_FORMAT(ibw_atomiceth, IBW_ATOMICETH_FIELDS, 28, "atomiceth", "W7",
                "Atomic Extended Transport Header", "IBA Vol.1 9.3.4", "IBA")

/* W8 ACK Extended Transport Header, 4 bytes. */
#define IBW_AETH_FIELDS(X, c)                                             \
    X(c, syndrome, 0, 0, 8, U8, "syndrome: ACK/RNR NAK/NAK and value")    \
    X(c, msn, 1, 0, 24, U32, "message sequence number")
IBW_WIRE_FORMAT(ibw_aeth, IBW_AETH_FIELDS, 4, "aeth", "W8",
                "ACK Extended Transport Header", "IBA Vol.1 9.3.5", "IBA")

/* W9 Atomic ACK Extended Transport Header, 8 bytes. */
#define IBW_ATOMICACKETH_FIELDS(X, c)                                     \
    X(c, origremdt, 0, 0, 64, U64, "original remote data")
IBW_WIRE_FORMAT(ibw_atomicacketh, IBW_ATOMICACKETH_FIELDS, 8, "atomicacketh",
                "W9", "Atomic ACK Extended Transport Header",
                "IBA Vol.1 9.3.6", "IBA")

/* W10 Immediate Data Extended Transport Header, 4 bytes. */
#define IBW_IMMDT_FIELDS(X, c) X(c, imm, 0, 0, 32, U32, "immediate data")
IBW_WIRE_FORMAT(ibw_immdt, IBW_IMMDT_FIELDS, 4, "immdt", "W10",
                "Immediate Data Extended Transport Header", "IBA Vol.1 9.3.7",
                "IBA")

/* W11 Invalidate Extended Transport Header, 4 bytes. */
#define IBW_IETH_FIELDS(X, c) X(c, rkey, 0, 0, 32, U32, "R_Key to invalidate")
IBW_WIRE_FORMAT(ibw_ieth, IBW_IETH_FIELDS, 4, "ieth", "W11",
                "Invalidate Extended Transport Header", "IBA Vol.1 9.3.8",
                "IBA")

/* W12a XRC Extended Transport Header, 4 bytes. */
#define IBW_XRCETH_FIELDS(X, c)                                           \
    X(c, resv, 0, 0, 8, U8, "reserved")                                   \
    X(c, xrcsrq, 1, 0, 24, U32, "XRC shared receive queue number")
IBW_WIRE_FORMAT(ibw_xrceth, IBW_XRCETH_FIELDS, 4, "xrceth", "W12",
                "XRC Extended Transport Header", "IBA Vol.1 A14", "IBA")

/* W12b FLUSH Extended Transport Header, 4 bytes (IBA 1.5). */
#define IBW_FETH_FIELDS(X, c)                                             \
    X(c, resv, 0, 0, 26, U32, "reserved")                                 \
    X(c, sel, 3, 2, 2, U8, "selectivity level")                           \
    X(c, plt, 3, 4, 4, U8, "placement type")
IBW_WIRE_FORMAT(ibw_feth, IBW_FETH_FIELDS, 4, "feth", "W12",
                "FLUSH Extended Transport Header", "IBA Vol.1 1.5 9.3.9",
                "IBA")

/* ------------------------------------------------------------------------ */
/* AETH syndrome                                                            */
/* ------------------------------------------------------------------------ */

/* Syndrome bits [6:5] (bit 7 reserved). */
enum ibw_aeth_kind {
    IBW_AETH_ACK = 0,
    IBW_AETH_RNR_NAK = 1,
    IBW_AETH_RESERVED = 2,
    IBW_AETH_NAK = 3
};

/* NAK codes, syndrome bits [4:0] when the kind is IBW_AETH_NAK. */
enum ibw_nak_code {
    IBW_NAK_PSN_SEQ_ERROR = 0,
    IBW_NAK_INVALID_REQUEST = 1,
    IBW_NAK_REMOTE_ACCESS_ERROR = 2,
    IBW_NAK_REMOTE_OP_ERROR = 3,
    IBW_NAK_INVALID_RD_REQUEST = 4
};

#define IBW_AETH_CREDIT_INVALID 0x1F

/* The kind (enum ibw_aeth_kind) of a syndrome byte. */
static inline unsigned ibw_aeth_syndrome_kind(uint8_t syndrome)
{
    return (unsigned)(syndrome >> 5) & 3u;
}
/* The 5-bit value of a syndrome: credit code, RNR timer code or NAK code. */
static inline unsigned ibw_aeth_syndrome_value(uint8_t syndrome)
{
    return syndrome & 0x1Fu;
}
/* A syndrome byte from a kind and a 5-bit value (extra bits dropped). */
static inline uint8_t ibw_aeth_syndrome(unsigned kind, unsigned value)
{
    return (uint8_t)(((kind & 3u) << 5) | (value & 0x1Fu));
}

/* Credits that a credit code 0..30 advertises (IBA table 45); -1 for the
 * invalid/unlimited code 31 or anything out of range. */
static inline int32_t ibw_aeth_credits(unsigned code)
{
    static const int32_t credits[31] = {
        0,    1,    2,    3,    4,    6,    8,     12,    16,    24,   32,
        48,   64,   96,   128,  192,  256,  384,   512,   768,   1024, 1536,
        2048, 3072, 4096, 6144, 8192, 12288, 16384, 24576, 32768};
    return code < 31 ? credits[code] : -1;
}

/* The largest credit code whose credit count does not exceed `available`
 * receive WQEs (what a responder advertises). */
static inline unsigned ibw_aeth_credit_code(uint32_t available)
{
    unsigned code = 0;
    while (code + 1 < 31 && (uint32_t)ibw_aeth_credits(code + 1) <= available)
        code++;
    return code;
}

/* Microseconds an RNR NAK timer code 0..31 asks the requester to wait
 * (IBA table 46; code 0 is the longest, 655.36 ms).  0 if out of range. */
static inline uint32_t ibw_rnr_timer_usec(unsigned code)
{
    static const uint32_t usec[32] = {
        655360, 10,    20,    30,    40,     60,     80,     120,
        160,    240,   320,   480,   640,    960,    1280,   1920,
        2560,   3840,  5120,  7680,  10240,  15360,  20480,  30720,
        40960,  61440, 81920, 122880, 163840, 245760, 327680, 491520};
    return code < 32 ? usec[code] : 0;
}

/* PMTU: the IBA enum (1..5) <-> bytes (256..4096).  0 when invalid. */
static inline uint32_t ibw_mtu_enum_to_bytes(unsigned e)
{
    return (e >= 1 && e <= 5) ? (128u << e) : 0;
}
static inline unsigned ibw_mtu_bytes_to_enum(uint32_t bytes)
{
    for (unsigned e = 1; e <= 5; e++)
        if ((128u << e) == bytes)
            return e;
    return 0;
}

#ifdef __cplusplus
}
#endif

#endif /* IBWIRE_WIRE_H */
