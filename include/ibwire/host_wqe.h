/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ibwire/host_wqe.h - send and receive WQEs in host memory (catalog H1, H2)
 * and a walker that checks a whole SQ or RQ.
 *
 * Which source decided what:
 *   - The segments and their order are the mthca ones (HanGu RDMA engine
 *     design §2.4.3.1 names mthca_raddr_seg, mthca_inline_seg, mthca_data_seg;
 *     its text lost the figures, so records.md points at
 *     mthca-mlx4-layouts.md).
 *   - The NextSeg is read the way the HanGu RTL reads it (WQEParser.v,
 *     hangu-rtl-layouts.md "H1"): [4:0] opcode of the NEXT WQE, [31:6] the
 *     next WQE's offset in 16-byte units, [37:32] its size in 16-byte units
 *     (0 = end of chain), [38] fence, [39] DBD, [127:96] immediate data.
 *   - The UD segment is the HanGu "hghca_ud_unit" (软硬件接口设计文档
 *     3.4.4, confirmed by WQEParser.v reading dqpn/qkey from the third
 *     16-byte word): 48 bytes, addressing first, dqpn at 0x20, qkey at 0x24.
 *   - The receive WQE is the HanGu RDMA engine design fig. 4.8: NextSeg,
 *     DataSegs, and a 16-byte all-zero terminator.
 *   - HanGu stores every 32-bit word little-endian (the RTL takes the
 *     inline flag from bus bit 31 and the host document draws each word
 *     +3..+0); mthca stores the same words big-endian.  The field lists
 *     below are therefore record (bus-order) lists, and one layout switch
 *     (enum ibw_wqe_layout) selects the byte order of the 32-bit words.  A
 *     64-bit field is one 64-bit value in that byte order (mthca: high word
 *     first; HanGu: low word first).
 *
 * Nothing here allocates.  The walker writes into a caller-provided array.
 */
#ifndef IBWIRE_HOST_WQE_H
#define IBWIRE_HOST_WQE_H

#include "base.h"
#include "opcode.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Opcodes and constants                                                     */
/* ------------------------------------------------------------------------ */

/* Verbs opcodes as the WQE chain, the doorbell and send CQEs carry them
 * (mthca MTHCA_OPCODE_*, HanGu HGHCA_OPCODE_*: the same values). */
enum ibw_wqe_opcode {
    IBW_WQE_OP_NOP = 0x00,
    /* Send with Invalidate: neither mthca nor HanGu has one; this is the
     * mlx4 value (MLX4_OPCODE_SEND_INVAL), the R_Key in NextSeg.imm as
     * mlx4 puts it in ctrl.imm.  An extension of the HanGu WQE. */
    IBW_WQE_OP_SEND_INV = 0x01,
    IBW_WQE_OP_RDMA_WRITE = 0x08,
    IBW_WQE_OP_RDMA_WRITE_IMM = 0x09,
    IBW_WQE_OP_SEND = 0x0A,
    IBW_WQE_OP_SEND_IMM = 0x0B,
    IBW_WQE_OP_RDMA_READ = 0x10,
    IBW_WQE_OP_ATOMIC_CS = 0x11,
    IBW_WQE_OP_ATOMIC_FA = 0x12,
    IBW_WQE_OP_BIND_MW = 0x18
};

/* HanGu's "invalid opcode", written in error CQEs (软硬件接口 表3-3-3). */
#define IBW_WQE_OP_INVALID 0xFFu

/* Byte order of the 32-bit words of a WQE. */
enum ibw_wqe_layout {
    IBW_WQE_LAYOUT_HANGU = 0, /* little-endian words; NextSeg.nda in 16-B units */
    IBW_WQE_LAYOUT_MTHCA = 1  /* big-endian words; NextSeg.nda = address[31:6] */
};

/* Which queue a WQE lives in. */
enum ibw_wq_kind { IBW_WQ_SEND = 0, IBW_WQ_RECV = 1 };

enum {
    IBW_WQE_UNIT = 16,       /* every WQE and segment is a multiple of this */
    IBW_WQE_MAX_UNITS = 63,  /* NextSeg.nds is 6 bits */
    /* HanGu RDMA engine design §4.4.2: one read of 512 B holds a whole
     * receive WQE */
    IBW_RQ_FETCH_WINDOW = 512
};

/* mthca marks the end of a receive scatter list with this L_Key
 * (MTHCA_INVAL_LKEY); HanGu uses 16 zero bytes. */
#define IBW_MTHCA_INVAL_LKEY 0x100u

/* 2 GiB: HanGu RDMA engine design §2.4.3.1.2 refuses RC/UC messages of this
 * size or more. */
#define IBW_WQE_MAX_MSG 0x80000000u

/* True for the opcodes a send WQE may carry. */
static inline int ibw_wqe_opcode_valid(unsigned op)
{
    switch (op) {
    case IBW_WQE_OP_NOP:
    case IBW_WQE_OP_SEND_INV:
    case IBW_WQE_OP_RDMA_WRITE:
    case IBW_WQE_OP_RDMA_WRITE_IMM:
    case IBW_WQE_OP_SEND:
    case IBW_WQE_OP_SEND_IMM:
    case IBW_WQE_OP_RDMA_READ:
    case IBW_WQE_OP_ATOMIC_CS:
    case IBW_WQE_OP_ATOMIC_FA:
    case IBW_WQE_OP_BIND_MW:
        return 1;
    default:
        return 0;
    }
}

/* Static name of a WQE opcode ("SEND", ...), or NULL if unknown. */
static inline const char *ibw_wqe_opcode_name(unsigned op)
{
    switch (op) {
    case IBW_WQE_OP_NOP: return "NOP";
    case IBW_WQE_OP_SEND_INV: return "SEND_INV";
    case IBW_WQE_OP_RDMA_WRITE: return "RDMA_WRITE";
    case IBW_WQE_OP_RDMA_WRITE_IMM: return "RDMA_WRITE_IMM";
    case IBW_WQE_OP_SEND: return "SEND";
    case IBW_WQE_OP_SEND_IMM: return "SEND_IMM";
    case IBW_WQE_OP_RDMA_READ: return "RDMA_READ";
    case IBW_WQE_OP_ATOMIC_CS: return "ATOMIC_CS";
    case IBW_WQE_OP_ATOMIC_FA: return "ATOMIC_FA";
    case IBW_WQE_OP_BIND_MW: return "BIND_MW";
    default: return NULL;
    }
}

/* True when `op` may be posted on a QP of `service` (enum ibw_transport,
 * RC/UC/UD only); WR/WQE/CQE article §1.1 lists which service allows what. */
static inline int ibw_wqe_opcode_allowed(unsigned op, unsigned service)
{
    switch (op) {
    case IBW_WQE_OP_NOP:
    case IBW_WQE_OP_SEND:
    case IBW_WQE_OP_SEND_IMM:
        return service == IBW_TR_RC || service == IBW_TR_UC ||
               service == IBW_TR_UD;
    case IBW_WQE_OP_RDMA_WRITE:
    case IBW_WQE_OP_RDMA_WRITE_IMM:
    case IBW_WQE_OP_BIND_MW:
        return service == IBW_TR_RC || service == IBW_TR_UC;
    case IBW_WQE_OP_SEND_INV: /* IBA table 35: RC (and XRC) only */
    case IBW_WQE_OP_RDMA_READ:
    case IBW_WQE_OP_ATOMIC_CS:
    case IBW_WQE_OP_ATOMIC_FA:
        return service == IBW_TR_RC;
    default:
        return 0;
    }
}

/* ------------------------------------------------------------------------ */
/* H1 segments (record order: bit 0 = bit 0 of 32-bit word 0)               */
/* ------------------------------------------------------------------------ */

/* NextSeg, 16 bytes, first in every WQE: describes the NEXT WQE. */
#define IBW_WQE_NEXT_FIELDS(X, c)                                            \
    X(c, nopcode, 4, 0, U8, "opcode of the next WQE (enum ibw_wqe_opcode)")  \
    X(c, nda, 31, 6, U32,                                                    \
      "next WQE offset: HanGu 16-byte units, mthca address bits [31:6]")     \
    X(c, nds, 37, 32, U8, "next WQE size in 16-byte units; 0 = last WQE")    \
    X(c, fence, 38, 38, U8, "F: fence the next WQE")                         \
    X(c, dbd, 39, 39, U8, "DBD: doorbell delimiter (unused by HanGu)")       \
    X(c, nee, 63, 40, U32, "next EE context (RD; unused)")                   \
    X(c, solicit, 65, 65, U8, "S: solicited event")                          \
    X(c, event, 66, 66, U8, "E: event generate")                             \
    X(c, cq_update, 67, 67, U8, "C: write a CQE when this WQE completes")    \
    X(c, imm, 127, 96, U32, "immediate data of this WQE")
IBW_RECORD_FORMAT(ibw_wqe_next, IBW_WQE_NEXT_FIELDS, 128, "wqe_next", "H1",
                  "WQE NextSeg",
                  "HanGu RDMA engine design §2.4.3.1; hw/sw interface 3.4.1",
                  "HanGu RTL WQEParser.v (nda in 16-byte units, nds [37:32]); "
                  "flags/imm at the mthca_next_seg positions")

/* RaddrSeg, 16 bytes: RDMA WRITE/READ and atomics. */
#define IBW_WQE_RADDR_FIELDS(X, c)                                           \
    X(c, raddr, 63, 0, U64, "remote virtual address")                        \
    X(c, rkey, 95, 64, U32, "remote key")
IBW_RECORD_FORMAT(ibw_wqe_raddr, IBW_WQE_RADDR_FIELDS, 128, "wqe_raddr", "H1",
                  "WQE RaddrSeg",
                  "HanGu RDMA engine design §2.4.3.1; hw/sw interface 3.4.2",
                  "mthca_raddr_seg; [127:96] reserved")

/* AtomicSeg, 16 bytes: CmpSwap and FetchAdd operands. */
#define IBW_WQE_ATOMIC_FIELDS(X, c)                                          \
    X(c, swap_add, 63, 0, U64, "CmpSwap: swap data; FetchAdd: add data")     \
    X(c, compare, 127, 64, U64, "CmpSwap: compare data; FetchAdd: 0")
IBW_RECORD_FORMAT(ibw_wqe_atomic, IBW_WQE_ATOMIC_FIELDS, 128, "wqe_atomic",
                  "H1", "WQE AtomicSeg",
                  "HanGu RDMA engine design §2.4.3.1; hw/sw interface 3.4.3",
                  "mthca_atomic_seg")

/* UDSeg, 48 bytes (HanGu hghca_ud_unit). */
#define IBW_WQE_UD_FIELDS(X, c)                                              \
    X(c, port, 31, 0, U32, "port to send from")                              \
    X(c, slid, 47, 32, U16, "source LID, or SMAC[15:0] on Ethernet")         \
    X(c, dlid, 63, 48, U16, "destination LID, or DMAC[15:0] on Ethernet")    \
    X(c, smac_hi, 95, 64, U32, "SMAC[47:16]")                                \
    X(c, dmac_hi, 127, 96, U32, "DMAC[47:16]")                               \
    X(c, sip, 159, 128, U32, "source IPv4 address")                          \
    X(c, dip, 191, 160, U32, "destination IPv4 address")                     \
    X(c, dqpn, 287, 256, U32, "destination QP number")                       \
    X(c, qkey, 319, 288, U32, "Q_Key")
IBW_RECORD_FORMAT(ibw_wqe_ud, IBW_WQE_UD_FIELDS, 384, "wqe_ud", "H1",
                  "WQE UDSeg",
                  "HanGu RDMA engine design §2.4.3.1; hw/sw interface 3.4.4",
                  "HanGu hghca_ud_unit (hw/sw interface table 3-4-8, "
                  "WQEParser.v); dqpn/qkey sit where mthca's UD seg has them")

/* DataSeg, 16 bytes: one gather/scatter entry. */
#define IBW_WQE_DATA_FIELDS(X, c)                                            \
    X(c, byte_count, 30, 0, U32, "length in bytes")                          \
    X(c, inline_flag, 31, 31, U8, "1 = this is an InlineSeg (HanGu RDMA "    \
                                  "engine design)")                          \
    X(c, lkey, 63, 32, U32, "local key")                                     \
    X(c, addr, 127, 64, U64, "local virtual address")
IBW_RECORD_FORMAT(ibw_wqe_data, IBW_WQE_DATA_FIELDS, 128, "wqe_data", "H1",
                  "WQE DataSeg",
                  "HanGu RDMA engine design §2.4.3.1; hw/sw interface 3.4.6",
                  "mthca_data_seg; bit 31 is the inline flag")

/* InlineSeg header, 4 bytes; the data follows, the segment is padded to a
 * multiple of 16 bytes. */
#define IBW_WQE_INLINE_FIELDS(X, c)                                          \
    X(c, byte_count, 30, 0, U32, "inline data length in bytes")              \
    X(c, inline_flag, 31, 31, U8, "1 (MTHCA_INLINE_SEG)")
IBW_RECORD_FORMAT(ibw_wqe_inline, IBW_WQE_INLINE_FIELDS, 32, "wqe_inline",
                  "H1", "WQE InlineSeg header",
                  "HanGu RDMA engine design §2.4.3.1; hw/sw interface 3.4.5",
                  "rdma-core mthca_inline_seg: 4-byte header, data, pad to 16")

/* BindSeg, 32 bytes: memory-window bind (mthca only; HanGu lists the
 * opcode but its RTL rejects it). */
#define IBW_WQE_BIND_FIELDS(X, c)                                            \
    X(c, remote_read, 29, 29, U8, "window allows remote read")               \
    X(c, remote_write, 30, 30, U8, "window allows remote write")             \
    X(c, remote_atomic, 31, 31, U8, "window allows remote atomics")          \
    X(c, new_rkey, 95, 64, U32, "R_Key the window gets")                     \
    X(c, lkey, 127, 96, U32, "L_Key of the region the window binds to")      \
    X(c, addr, 191, 128, U64, "start of the bound range")                    \
    X(c, length, 255, 192, U64, "length of the bound range")
IBW_RECORD_FORMAT(ibw_wqe_bind, IBW_WQE_BIND_FIELDS, 256, "wqe_bind", "H1",
                  "WQE BindSeg", "WR/WQE/CQE article §1.3.1 (bind WR)",
                  "mthca_bind_seg")

enum {
    IBW_WQE_NEXT_BYTES = 16,
    IBW_WQE_RADDR_BYTES = 16,
    IBW_WQE_ATOMIC_BYTES = 16,
    IBW_WQE_UD_BYTES = 48,
    IBW_WQE_DATA_BYTES = 16,
    IBW_WQE_INLINE_HDR_BYTES = 4,
    IBW_WQE_BIND_BYTES = 32,
    /* the same in IBW_WQE_UNIT units, as the WQE walkers count (and so no
     * arithmetic between two enumerations, which C++20 deprecates) */
    IBW_WQE_UD_UNITS = IBW_WQE_UD_BYTES / IBW_WQE_UNIT,
    IBW_WQE_BIND_UNITS = IBW_WQE_BIND_BYTES / IBW_WQE_UNIT
};

/* ------------------------------------------------------------------------ */
/* Segment bytes <-> record words, in either byte order                      */
/* ------------------------------------------------------------------------ */

/* After loading the 32-bit words of an mthca (big-endian) image, each
 * 64-bit field has its high word first; record order wants it second. */
static inline void ibw__wqe_swap64(const struct ibw_format *fmt, uint32_t *w)
{
    for (size_t i = 0; i < fmt->nfields; i++) {
        const struct ibw_field *f = &fmt->fields[i];
        if (f->width == 64 && f->pos % 32 == 0) {
            uint32_t t = w[f->pos / 32];
            w[f->pos / 32] = w[f->pos / 32 + 1];
            w[f->pos / 32 + 1] = t;
        }
    }
}

/* The record words of a segment image `src` (ibw_format_bytes(fmt) bytes)
 * stored in `layout` byte order.  The caller guarantees the bytes. */
static inline void ibw_wqe_seg_load(const struct ibw_format *fmt,
                                    unsigned layout, const uint8_t *src,
                                    uint32_t *w)
{
    size_t nwords = ibw_format_bytes(fmt) / 4;
    for (size_t i = 0; i < nwords; i++)
        w[i] = layout == IBW_WQE_LAYOUT_MTHCA ? ibw_load_be32(src + 4 * i)
                                              : ibw_load_le32(src + 4 * i);
    if (layout == IBW_WQE_LAYOUT_MTHCA)
        ibw__wqe_swap64(fmt, w);
}

/* Store record words as a segment image in `layout` byte order. */
static inline void ibw_wqe_seg_store(const struct ibw_format *fmt,
                                     unsigned layout, const uint32_t *w,
                                     uint8_t *dst)
{
    size_t nwords = ibw_format_bytes(fmt) / 4;
    for (size_t i = 0; i < nwords; i++) {
        if (layout == IBW_WQE_LAYOUT_MTHCA)
            ibw_store_be32(dst + 4 * i, w[i]);
        else
            ibw_store_le32(dst + 4 * i, w[i]);
    }
    if (layout != IBW_WQE_LAYOUT_MTHCA)
        return;
    /* a big-endian 64-bit field stores its high word first */
    for (size_t i = 0; i < fmt->nfields; i++) {
        const struct ibw_field *f = &fmt->fields[i];
        if (f->width == 64 && f->pos % 32 == 0) {
            uint8_t t[4];
            uint8_t *lo = dst + f->pos / 8;
            memcpy(t, lo, 4);
            memmove(lo, lo + 4, 4);
            memcpy(lo + 4, t, 4);
        }
    }
}

/*
 * Per segment:
 *   int  pfx_decode_layout(const uint8_t *p, size_t len, unsigned layout, struct pfx *)
 *        IBW_E_TRUNCATED when len is short;
 *   int  pfx_encode_layout(const struct pfx *, unsigned layout, uint8_t *p, size_t len)
 *        IBW_E_NOSPACE when len is short; every byte of the segment written.
 */
#define IBW__WQE_SEG_IO(pfx)                                                  \
    static inline int pfx##_decode_layout(const uint8_t *p, size_t len,                \
                                 unsigned layout, struct pfx *out)            \
    {                                                                         \
        uint32_t w[pfx##_WORDS];                                              \
        if (len < (size_t)pfx##_WORDS * 4)                                    \
            return IBW_E_TRUNCATED;                                           \
        ibw_wqe_seg_load(pfx##_format(), layout, p, w);                       \
        pfx##_unpack(w, out);                                                 \
        return IBW_OK;                                                        \
    }                                                                         \
    static inline int pfx##_encode_layout(const struct pfx *in, unsigned layout,      \
                                  uint8_t *p, size_t len)                     \
    {                                                                         \
        uint32_t w[pfx##_WORDS];                                              \
        if (len < (size_t)pfx##_WORDS * 4)                                    \
            return IBW_E_NOSPACE;                                             \
        pfx##_pack(in, w);                                                    \
        ibw_wqe_seg_store(pfx##_format(), layout, w, p);                      \
        return IBW_OK;                                                        \
    }
IBW__WQE_SEG_IO(ibw_wqe_next)
IBW__WQE_SEG_IO(ibw_wqe_raddr)
IBW__WQE_SEG_IO(ibw_wqe_atomic)
IBW__WQE_SEG_IO(ibw_wqe_ud)
IBW__WQE_SEG_IO(ibw_wqe_data)
IBW__WQE_SEG_IO(ibw_wqe_inline)
IBW__WQE_SEG_IO(ibw_wqe_bind)

/* Bits NextSeg.nda is shifted by to give a byte offset. */
static inline unsigned ibw_wqe_nda_shift(unsigned layout)
{
    return layout == IBW_WQE_LAYOUT_MTHCA ? 6u : 4u;
}

/* Byte offset of the next WQE that a NextSeg points at. */
static inline uint64_t ibw_wqe_next_offset(const struct ibw_wqe_next *n,
                                           unsigned layout)
{
    return (uint64_t)n->nda << ibw_wqe_nda_shift(layout);
}

/* True when the 16 bytes at p end a receive scatter list: all zero for
 * HanGu (HanGu RDMA engine design fig. 4.8), byte_count 0 / L_Key 0x100 /
 * address 0 for mthca. */
static inline int ibw_wqe_is_terminator(const uint8_t *p, unsigned layout)
{
    struct ibw_wqe_data d;
    if (layout != IBW_WQE_LAYOUT_MTHCA) {
        for (unsigned i = 0; i < IBW_WQE_UNIT; i++)
            if (p[i])
                return 0;
        return 1;
    }
    ibw_wqe_data_decode_layout(p, IBW_WQE_UNIT, layout, &d);
    return d.byte_count == 0 && d.inline_flag == 0 &&
           d.lkey == IBW_MTHCA_INVAL_LKEY && d.addr == 0;
}

/* ------------------------------------------------------------------------ */
/* The walker                                                                */
/* ------------------------------------------------------------------------ */

/* Where the walk starts: what the doorbell says about the first WQE. */
struct ibw_wqe_walk_cfg {
    uint8_t layout;        /* enum ibw_wqe_layout */
    uint8_t queue;         /* enum ibw_wq_kind */
    uint8_t service;       /* enum ibw_transport: RC, UC or UD */
    uint8_t first_opcode;  /* SQ: opcode of the first WQE (doorbell) */
    uint8_t first_size;    /* 16-byte units; RQ: 0 = up to the terminator */
    uint8_t first_fence;   /* doorbell F bit */
    uint32_t first_offset; /* byte offset of the first WQE in the queue */
};

/* An error's location when the bad field is the doorbell, not the queue. */
#define IBW_WQE_AT_DOORBELL 0xFFFFFFFFu

/* One WQE of a walk. */
struct ibw_wqe_info {
    uint32_t index;        /* position in the chain, 0 = first */
    uint32_t offset;       /* byte offset in the queue */
    uint8_t size;          /* 16-byte units */
    uint8_t opcode;        /* enum ibw_wqe_opcode (SQ; 0 for RQ) */
    uint8_t fence;         /* fenced by the previous NextSeg or doorbell */
    uint8_t has_raddr, has_atomic, has_ud, has_bind, has_inline;
    struct ibw_wqe_next next; /* this WQE's own NextSeg */
    struct ibw_wqe_raddr raddr;
    struct ibw_wqe_atomic atomic;
    struct ibw_wqe_ud ud;     /* mthca layout: only dqpn and qkey (the
                                 first 32 bytes are its address vector) */
    struct ibw_wqe_bind bind;
    uint32_t nsge;            /* DataSegs (gather or scatter entries) */
    uint32_t sge_offset;      /* byte offset of the first DataSeg */
    uint32_t inline_len;      /* inline payload bytes */
    uint32_t inline_offset;   /* byte offset of the inline payload */
    uint64_t total_len;       /* sum of DataSeg lengths, or inline_len */
    int err;                  /* IBW_OK, IBW_E_OPCODE, IBW_E_LENGTH,
                                 IBW_E_MALFORMED */
    const char *err_field;    /* e.g. "NextSeg.nds", "DataSeg.byte_count" */
    const char *err_why;      /* one static sentence */
    uint32_t err_at;          /* byte offset of the bad segment in the
                                 queue (< qlen), or IBW_WQE_AT_DOORBELL */
    uint32_t err_ref;         /* for loops/overlaps: index of the WQE hit */
};

/* Record the first error of a WQE; later ones are dropped so the report
 * names the root cause. */
static inline void ibw__wqe_fail(struct ibw_wqe_info *wi, int err,
                                 const char *field, const char *why,
                                 uint32_t at)
{
    if (wi->err)
        return;
    wi->err = err;
    wi->err_field = field;
    wi->err_why = why;
    wi->err_at = at;
}

/* The DataSegs (or the InlineSeg) that start at unit u of a send WQE. */
static inline void ibw__wqe_walk_data(const uint8_t *q, unsigned layout,
                                      struct ibw_wqe_info *wi, unsigned u)
{
    const uint8_t *base = q + wi->offset;
    unsigned left = wi->size - u;
    unsigned op = wi->opcode;
    uint32_t at = wi->offset + u * IBW_WQE_UNIT;
    if (left == 0)
        return;
    if (op == IBW_WQE_OP_NOP || op == IBW_WQE_OP_BIND_MW) {
        ibw__wqe_fail(wi, IBW_E_MALFORMED, "DataSeg",
                      "NOP and BIND_MW WQEs carry no data segments", at);
        return;
    }
    struct ibw_wqe_data d;
    ibw_wqe_data_decode_layout(base + u * IBW_WQE_UNIT, IBW_WQE_UNIT, layout, &d);
    if (d.inline_flag) {
        if (op != IBW_WQE_OP_SEND && op != IBW_WQE_OP_SEND_IMM &&
            op != IBW_WQE_OP_SEND_INV && op != IBW_WQE_OP_RDMA_WRITE &&
            op != IBW_WQE_OP_RDMA_WRITE_IMM) {
            ibw__wqe_fail(wi, IBW_E_MALFORMED, "InlineSeg",
                          "inline data is allowed only for SEND and RDMA "
                          "WRITE",
                          at);
            return;
        }
        wi->has_inline = 1;
        wi->inline_len = d.byte_count;
        wi->inline_offset = at + IBW_WQE_INLINE_HDR_BYTES;
        wi->total_len = d.byte_count;
        uint64_t need = (uint64_t)d.byte_count + IBW_WQE_INLINE_HDR_BYTES;
        if (need > (uint64_t)left * IBW_WQE_UNIT) {
            ibw__wqe_fail(wi, IBW_E_LENGTH, "InlineSeg.byte_count",
                          "inline length runs past the end of the WQE", at);
            return;
        }
        if ((need + IBW_WQE_UNIT - 1) / IBW_WQE_UNIT < left)
            ibw__wqe_fail(wi, IBW_E_MALFORMED, "InlineSeg",
                          "16-byte units left over after the inline data",
                          at);
        return;
    }
    wi->nsge = left;
    wi->sge_offset = at;
    for (unsigned k = 0; k < left; k++) {
        const uint8_t *s = base + (u + k) * IBW_WQE_UNIT;
        uint32_t sat = at + k * IBW_WQE_UNIT;
        ibw_wqe_data_decode_layout(s, IBW_WQE_UNIT, layout, &d);
        if (d.inline_flag)
            ibw__wqe_fail(wi, IBW_E_MALFORMED, "DataSeg.byte_count",
                          "inline flag (bit 31) set in a DataSeg that is "
                          "not the first",
                          sat);
        wi->total_len += d.byte_count;
        if ((op == IBW_WQE_OP_ATOMIC_CS || op == IBW_WQE_OP_ATOMIC_FA) &&
            d.byte_count != 8)
            ibw__wqe_fail(wi, IBW_E_MALFORMED, "DataSeg.byte_count",
                          "an atomic's result buffer is 8 bytes", sat);
    }
    if ((op == IBW_WQE_OP_ATOMIC_CS || op == IBW_WQE_OP_ATOMIC_FA) &&
        left > 1)
        ibw__wqe_fail(wi, IBW_E_MALFORMED, "DataSeg",
                      "an atomic has at most one scatter entry",
                      at + IBW_WQE_UNIT);
}

/* The segments of a send WQE after its NextSeg. */
static inline void ibw__wqe_walk_send(const uint8_t *q, unsigned layout,
                                      unsigned service,
                                      struct ibw_wqe_info *wi,
                                      const char *op_field, uint32_t op_at)
{
    const uint8_t *base = q + wi->offset;
    unsigned op = wi->opcode;
    unsigned u = 1;
    if (!ibw_wqe_opcode_valid(op)) {
        ibw__wqe_fail(wi, IBW_E_OPCODE, op_field,
                      "not a WQE opcode (enum ibw_wqe_opcode)", op_at);
        return;
    }
    if (!ibw_wqe_opcode_allowed(op, service)) {
        ibw__wqe_fail(wi, IBW_E_MALFORMED, op_field,
                      "opcode not allowed on this QP's service type", op_at);
        return;
    }
    if (service == IBW_TR_UD &&
        (op == IBW_WQE_OP_SEND || op == IBW_WQE_OP_SEND_IMM)) {
        if (wi->size < u + IBW_WQE_UD_UNITS) {
            ibw__wqe_fail(wi, IBW_E_MALFORMED, "UDSeg",
                          "WQE too short for its 48-byte UDSeg", wi->offset);
            return;
        }
        ibw_wqe_ud_decode_layout(base + u * IBW_WQE_UNIT, IBW_WQE_UD_BYTES, layout,
                        &wi->ud);
        if (layout == IBW_WQE_LAYOUT_MTHCA) {
            /* the first 32 bytes are an mthca address vector */
            uint32_t dqpn = wi->ud.dqpn, qkey = wi->ud.qkey;
            memset(&wi->ud, 0, sizeof wi->ud);
            wi->ud.dqpn = dqpn;
            wi->ud.qkey = qkey;
        }
        wi->has_ud = 1;
        u += IBW_WQE_UD_UNITS;
    }
    if (op == IBW_WQE_OP_RDMA_WRITE || op == IBW_WQE_OP_RDMA_WRITE_IMM ||
        op == IBW_WQE_OP_RDMA_READ || op == IBW_WQE_OP_ATOMIC_CS ||
        op == IBW_WQE_OP_ATOMIC_FA) {
        if (wi->size < u + 1) {
            ibw__wqe_fail(wi, IBW_E_MALFORMED, "RaddrSeg",
                          "WQE ends before the RaddrSeg its opcode needs",
                          wi->offset);
            return;
        }
        ibw_wqe_raddr_decode_layout(base + u * IBW_WQE_UNIT, IBW_WQE_UNIT, layout,
                           &wi->raddr);
        wi->has_raddr = 1;
        u++;
    }
    if (op == IBW_WQE_OP_ATOMIC_CS || op == IBW_WQE_OP_ATOMIC_FA) {
        if (wi->size < u + 1) {
            ibw__wqe_fail(wi, IBW_E_MALFORMED, "AtomicSeg",
                          "WQE ends before the AtomicSeg its opcode needs",
                          wi->offset);
            return;
        }
        ibw_wqe_atomic_decode_layout(base + u * IBW_WQE_UNIT, IBW_WQE_UNIT, layout,
                            &wi->atomic);
        wi->has_atomic = 1;
        u++;
    }
    if (op == IBW_WQE_OP_BIND_MW) {
        if (wi->size < u + IBW_WQE_BIND_UNITS) {
            ibw__wqe_fail(wi, IBW_E_MALFORMED, "BindSeg",
                          "WQE too short for its 32-byte BindSeg",
                          wi->offset);
            return;
        }
        ibw_wqe_bind_decode_layout(base + u * IBW_WQE_UNIT, IBW_WQE_BIND_BYTES, layout,
                          &wi->bind);
        wi->has_bind = 1;
        u += IBW_WQE_BIND_UNITS;
    }
    ibw__wqe_walk_data(q, layout, wi, u);
    if (service != IBW_TR_UD && wi->total_len >= IBW_WQE_MAX_MSG)
        ibw__wqe_fail(wi, IBW_E_LENGTH, "DataSeg.byte_count",
                      "message length reaches 2 GiB (HanGu RDMA engine design "
                      "§2.4.3.1.2)",
                      wi->sge_offset ? wi->sge_offset : wi->offset);
}

/* The scatter entries and terminator of a receive WQE. */
static inline void ibw__wqe_walk_recv(const uint8_t *q, unsigned layout,
                                      struct ibw_wqe_info *wi)
{
    const uint8_t *base = q + wi->offset;
    unsigned n = wi->size;
    unsigned end = n; /* units before the terminator */
    if (n >= 2 && ibw_wqe_is_terminator(base + (n - 1) * IBW_WQE_UNIT,
                                        layout))
        end = n - 1;
    else if (layout == IBW_WQE_LAYOUT_HANGU)
        ibw__wqe_fail(wi, IBW_E_MALFORMED, "terminator",
                      "receive WQE does not end with 16 zero bytes",
                      wi->offset + (n - 1) * IBW_WQE_UNIT);
    wi->nsge = end - 1;
    wi->sge_offset = end > 1 ? wi->offset + IBW_WQE_UNIT : 0;
    for (unsigned k = 1; k < end; k++) {
        const uint8_t *s = base + k * IBW_WQE_UNIT;
        uint32_t at = wi->offset + k * IBW_WQE_UNIT;
        struct ibw_wqe_data d;
        if (ibw_wqe_is_terminator(s, layout)) {
            ibw__wqe_fail(wi, IBW_E_MALFORMED, "terminator",
                          "terminator before the end of the receive WQE "
                          "(the engine stops there)",
                          at);
            continue;
        }
        ibw_wqe_data_decode_layout(s, IBW_WQE_UNIT, layout, &d);
        if (d.inline_flag)
            ibw__wqe_fail(wi, IBW_E_MALFORMED, "DataSeg.byte_count",
                          "inline flag set in a receive WQE", at);
        wi->total_len += d.byte_count;
    }
}

/* Units of the receive WQE at `off`, found by its terminator the way the
 * RQ WQE manager does (one 512-byte fetch); 0 when none is found. */
static inline unsigned ibw__wqe_rq_size(const uint8_t *q, size_t qlen,
                                        uint32_t off, unsigned layout)
{
    for (unsigned k = 1; k < IBW_RQ_FETCH_WINDOW / IBW_WQE_UNIT &&
                         k <= IBW_WQE_MAX_UNITS;
         k++) {
        size_t at = (size_t)off + (size_t)k * IBW_WQE_UNIT;
        if (at + IBW_WQE_UNIT > qlen)
            return 0;
        if (ibw_wqe_is_terminator(q + at, layout))
            return k + 1;
    }
    return 0;
}

/*
 * Walk the WQE chain of a send or receive queue.
 *
 * q/qlen is the queue memory; offsets in the chain are relative to q.  The
 * walk starts at cfg->first_offset with the doorbell's opcode and size and
 * follows each NextSeg until one has nds == 0.  Each WQE is parsed into
 * out[0..cap-1]; *count gets the number written.
 *
 * A WQE whose contents are wrong (bad opcode, a segment its opcode may not
 * carry, inline length past the WQE, a missing terminator...) gets err,
 * err_field, err_why and err_at set, and the walk continues with its
 * NextSeg.  A broken chain (a size that runs past the queue, a pointer
 * outside the queue, a loop or an overlap) ends the walk; the entry for the
 * bad target carries the error, naming the previous NextSeg's field.
 * err_at is always a byte inside the queue (< qlen) or IBW_WQE_AT_DOORBELL:
 * a segment of the WQE itself; the WQE's own offset when a segment its
 * opcode needs is missing (it would lie past the WQE, perhaps past the
 * queue); for a broken link, the offset of the WQE whose NextSeg holds it
 * (IBW_WQE_AT_DOORBELL for the first WQE).
 *
 * Returns IBW_OK when every WQE is good and the chain ends; otherwise the
 * first WQE's error (IBW_E_OPCODE, IBW_E_LENGTH, IBW_E_MALFORMED);
 * IBW_E_NOSPACE when the chain goes on past cap entries; IBW_E_UNSUPPORTED
 * for a service other than RC/UC/UD or an unknown layout/queue.
 */
static inline int ibw_wqe_walk(const uint8_t *q, size_t qlen,
                               const struct ibw_wqe_walk_cfg *cfg,
                               struct ibw_wqe_info *out, size_t cap,
                               size_t *count)
{
    unsigned layout = cfg->layout;
    int ret = IBW_OK;
    size_t n = 0;
    uint64_t off = cfg->first_offset;
    unsigned size = cfg->first_size;
    unsigned op = cfg->queue == IBW_WQ_RECV ? 0u : cfg->first_opcode;
    unsigned fence = cfg->first_fence;
    const char *off_field = "doorbell.offset";
    const char *size_field = "doorbell.size";
    const char *op_field = "doorbell.opcode";
    uint32_t link_at = IBW_WQE_AT_DOORBELL;

    *count = 0;
    if (layout > IBW_WQE_LAYOUT_MTHCA || cfg->queue > IBW_WQ_RECV ||
        (cfg->service != IBW_TR_RC && cfg->service != IBW_TR_UC &&
         cfg->service != IBW_TR_UD))
        return IBW_E_UNSUPPORTED;
    for (;;) {
        if (n == cap)
            return ret == IBW_OK ? IBW_E_NOSPACE : ret;
        struct ibw_wqe_info *wi = &out[n];
        memset(wi, 0, sizeof *wi);
        wi->index = (uint32_t)n;
        wi->offset = off < UINT32_MAX ? (uint32_t)off : UINT32_MAX;
        wi->opcode = (uint8_t)op;
        wi->fence = (uint8_t)fence;
        n++;
        *count = n;

        /* Is the link to this WQE sound? */
        int broken = 0;
        if (off + IBW_WQE_UNIT > qlen) {
            ibw__wqe_fail(wi, IBW_E_MALFORMED, off_field,
                          "WQE offset points outside the queue", link_at);
            broken = 1;
        } else if (off % IBW_WQE_UNIT) {
            ibw__wqe_fail(wi, IBW_E_MALFORMED, off_field,
                          "WQE offset is not 16-byte aligned", link_at);
            broken = 1;
        }
        if (!broken && cfg->queue == IBW_WQ_RECV && size == 0) {
            size = ibw__wqe_rq_size(q, qlen, (uint32_t)off, layout);
            if (size == 0) {
                ibw__wqe_fail(wi, IBW_E_MALFORMED, "terminator",
                              "no receive-WQE terminator within one "
                              "512-byte fetch",
                              (uint32_t)off);
                broken = 1;
            }
        }
        wi->size = (uint8_t)size;
        if (!broken && size == 0) {
            ibw__wqe_fail(wi, IBW_E_LENGTH, size_field, "WQE size is zero",
                          link_at);
            broken = 1;
        }
        if (!broken && off + (uint64_t)size * IBW_WQE_UNIT > qlen) {
            ibw__wqe_fail(wi, IBW_E_LENGTH, size_field,
                          "WQE size runs past the end of the queue", link_at);
            broken = 1;
        }
        for (size_t k = 0; !broken && k + 1 < n; k++) {
            uint64_t a0 = out[k].offset;
            uint64_t a1 = a0 + (uint64_t)out[k].size * IBW_WQE_UNIT;
            uint64_t b1 = off + (uint64_t)size * IBW_WQE_UNIT;
            if (off == a0 || (off < a1 && a0 < b1)) {
                ibw__wqe_fail(wi, IBW_E_MALFORMED, off_field,
                              off == a0 ? "chain loops back to an earlier WQE"
                                        : "WQE overlaps an earlier WQE",
                              link_at);
                wi->err_ref = (uint32_t)k;
                broken = 1;
            }
        }
        if (broken) {
            if (ret == IBW_OK)
                ret = wi->err;
            return ret;
        }

        ibw_wqe_next_decode_layout(q + off, IBW_WQE_UNIT, layout, &wi->next);
        if (cfg->queue == IBW_WQ_RECV)
            ibw__wqe_walk_recv(q, layout, wi);
        else
            ibw__wqe_walk_send(q, layout, cfg->service, wi, op_field, link_at);
        if (wi->err && ret == IBW_OK)
            ret = wi->err;

        if (wi->next.nds == 0)
            return ret;
        link_at = wi->offset;
        off = ibw_wqe_next_offset(&wi->next, layout);
        size = wi->next.nds;
        op = cfg->queue == IBW_WQ_RECV ? 0u : wi->next.nopcode;
        fence = wi->next.fence;
        off_field = "NextSeg.nda";
        size_field = "NextSeg.nds";
        op_field = "NextSeg.nopcode";
    }
}

/* DataSeg k of a walked WQE; IBW_E_RANGE when k >= nsge. */
static inline int ibw_wqe_info_sge(const uint8_t *q, size_t qlen,
                                   unsigned layout,
                                   const struct ibw_wqe_info *wi, uint32_t k,
                                   struct ibw_wqe_data *out)
{
    if (k >= wi->nsge)
        return IBW_E_RANGE;
    size_t at = (size_t)wi->sge_offset + (size_t)k * IBW_WQE_UNIT;
    if (at + IBW_WQE_UNIT > qlen)
        return IBW_E_TRUNCATED;
    return ibw_wqe_data_decode_layout(q + at, IBW_WQE_UNIT, layout, out);
}

#ifdef __cplusplus
}
#endif

#endif /* IBWIRE_HOST_WQE_H */
