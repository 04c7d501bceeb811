/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ibwire/host_cqe.h - completions: the HanGu CQE and error CQE (catalog H4),
 * the verbs-level work completion (H7) and the mapping between them.
 *
 * Which source decided what:
 *   - HanGu CQE: 32 bytes, the mthca CQE's fields at the mthca byte offsets
 *     but every 32-bit word little-endian ("收到的数据格式为小端模式",
 *     软硬件接口设计文档 3.3.1 tables 3-3-1/3-3-2; the RTL positions in
 *     hangu-rtl-layouts.md "H4" agree bit for bit).
 *   - HanGu error CQE: the document and the RTL disagree.  The RTL (the
 *     source records.md names for H4) puts vendor_err at [151:144] and the
 *     syndrome at [159:152]; the document puts the syndrome at [135:128],
 *     vendor_err at [143:136] and db_cnt at [159:144].  The RTL layout is
 *     canonical (ibw_hg_err_cqe); the document's is ibw_hg_err_cqe_doc, with
 *     converters both ways.  (The RTL's positions are mthca's big-endian
 *     word positions -- mthca's syndrome byte 0x10 is bits [31:24] of a
 *     big-endian word 4 -- so in HanGu's little-endian words they land on
 *     byte 0x13, while the good CQE keeps mthca's byte offsets.)
 *   - Completion (syndrome) codes: identical in mthca, the HanGu RTL
 *     (sw_hw_interface_const_def_h.vh) and the HanGu document (table 3-3-3).
 *   - Work-completion status and opcode numbers mirror libibverbs
 *     (IBV_WC_*), so they can be passed through unchanged.
 *   - Which CQE says error: mthca's rule, (opcode & 0xFE) == 0xFE with bit 0
 *     = send; HanGu writes 0xFF (HGHCA_OPCODE_INVALID), which the rule
 *     covers.
 */
#ifndef IBWIRE_HOST_CQE_H
#define IBWIRE_HOST_CQE_H

#include "base.h"
#include "host_wqe.h"
#include "opcode.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Work completion (H7), values of libibverbs                                */
/* ------------------------------------------------------------------------ */

/* Completion status (IBV_WC_*; checked against libibverbs verbs.h). */
enum ibw_wc_status {
    IBW_WC_SUCCESS = 0,
    IBW_WC_LOC_LEN_ERR = 1,
    IBW_WC_LOC_QP_OP_ERR = 2,
    IBW_WC_LOC_EEC_OP_ERR = 3,
    IBW_WC_LOC_PROT_ERR = 4,
    IBW_WC_WR_FLUSH_ERR = 5,
    IBW_WC_MW_BIND_ERR = 6,
    IBW_WC_BAD_RESP_ERR = 7,
    IBW_WC_LOC_ACCESS_ERR = 8,
    IBW_WC_REM_INV_REQ_ERR = 9,
    IBW_WC_REM_ACCESS_ERR = 10,
    IBW_WC_REM_OP_ERR = 11,
    IBW_WC_RETRY_EXC_ERR = 12,
    IBW_WC_RNR_RETRY_EXC_ERR = 13,
    IBW_WC_LOC_RDD_VIOL_ERR = 14,
    IBW_WC_REM_INV_RD_REQ_ERR = 15,
    IBW_WC_REM_ABORT_ERR = 16,
    IBW_WC_INV_EECN_ERR = 17,
    IBW_WC_INV_EEC_STATE_ERR = 18,
    IBW_WC_FATAL_ERR = 19,
    IBW_WC_RESP_TIMEOUT_ERR = 20,
    IBW_WC_GENERAL_ERR = 21
};

/* Static name of a completion status ("SUCCESS", "WR_FLUSH_ERR", ...), or
 * NULL for an unknown status. */
static inline const char *ibw_wc_status_name(unsigned s)
{
    static const char *const names[] = {
        "SUCCESS",          "LOC_LEN_ERR",        "LOC_QP_OP_ERR",
        "LOC_EEC_OP_ERR",   "LOC_PROT_ERR",       "WR_FLUSH_ERR",
        "MW_BIND_ERR",      "BAD_RESP_ERR",       "LOC_ACCESS_ERR",
        "REM_INV_REQ_ERR",  "REM_ACCESS_ERR",     "REM_OP_ERR",
        "RETRY_EXC_ERR",    "RNR_RETRY_EXC_ERR",  "LOC_RDD_VIOL_ERR",
        "REM_INV_RD_REQ_ERR", "REM_ABORT_ERR",    "INV_EECN_ERR",
        "INV_EEC_STATE_ERR", "FATAL_ERR",         "RESP_TIMEOUT_ERR",
        "GENERAL_ERR"};
    return s < sizeof names / sizeof names[0] ? names[s] : NULL;
}

/* Completed operation (IBV_WC_*). */
enum ibw_wc_opcode {
    IBW_WC_SEND = 0,
    IBW_WC_RDMA_WRITE = 1,
    IBW_WC_RDMA_READ = 2,
    IBW_WC_COMP_SWAP = 3,
    IBW_WC_FETCH_ADD = 4,
    IBW_WC_BIND_MW = 5,
    IBW_WC_RECV = 128, /* opcode & IBW_WC_RECV tells a receive */
    IBW_WC_RECV_RDMA_WITH_IMM = 129
};

/* ibw_wc.wc_flags (IBV_WC_* flag values). */
enum ibw_wc_flags {
    IBW_WC_GRH = 1u << 0,      /* first 40 bytes of the buffer hold a GRH */
    IBW_WC_WITH_IMM = 1u << 1, /* imm_data is valid */
    IBW_WC_WITH_INV = 1u << 3  /* imm_data is the invalidated R_Key */
};

/*
 * A completion: every element the WR/WQE/CQE article §4.5 lists.  wr_id is not
 * in any CQE: a CQE names its WQE (wqe), and the consumer maps that to the WR
 * ID it kept when posting.  Elements marked "RD" have no field in the HanGu or
 * mthca CQE and stay 0.
 */
struct ibw_wc {
    uint64_t wr_id;          /* the WR's 64-bit ID (filled by the consumer) */
    uint32_t status;         /* enum ibw_wc_status */
    uint32_t opcode;         /* enum ibw_wc_opcode; for errors only the
                                send/receive direction is meaningful */
    uint32_t vendor_err;     /* vendor syndrome of an error CQE */
    uint32_t byte_len;       /* bytes transferred */
    uint32_t imm_data;       /* immediate data (IBW_WC_WITH_IMM) */
    uint32_t qp_num;         /* local QP */
    uint32_t src_qp;         /* remote QP (UD, RD: DETH SrcQP) */
    uint32_t wc_flags;       /* enum ibw_wc_flags */
    uint16_t pkey_index;     /* GSI QPs */
    uint16_t slid;           /* remote port's LID (UD, RD) */
    uint8_t sl;              /* service level of the message (UD, RD) */
    uint8_t dlid_path_bits;  /* which of our LIDs it arrived on (UD) */
    uint32_t eecn;           /* local EE context (RD) */
    uint32_t freed;          /* freed resource count (RD receive queues) */
    uint32_t wqe;            /* WQE offset/index the CQE names */
};

/* ------------------------------------------------------------------------ */
/* Completion codes (CQE syndromes)                                          */
/* ------------------------------------------------------------------------ */

/* Syndrome of an error CQE: mthca MTHCA_CQ_ENTRY_SYNDROME_*, HanGu RTL
 * completion codes, mlx4 MLX4_CQE_SYNDROME_* (a subset). */
enum ibw_cqe_syndrome {
    IBW_CQE_SYN_LOCAL_LENGTH_ERR = 0x01,
    IBW_CQE_SYN_LOCAL_QP_OP_ERR = 0x02,
    IBW_CQE_SYN_LOCAL_EEC_OP_ERR = 0x03,
    IBW_CQE_SYN_LOCAL_PROT_ERR = 0x04,
    IBW_CQE_SYN_WR_FLUSH_ERR = 0x05,
    IBW_CQE_SYN_MW_BIND_ERR = 0x06,
    IBW_CQE_SYN_BAD_RESP_ERR = 0x10,
    IBW_CQE_SYN_LOCAL_ACCESS_ERR = 0x11,
    IBW_CQE_SYN_REMOTE_INVAL_REQ_ERR = 0x12,
    IBW_CQE_SYN_REMOTE_ACCESS_ERR = 0x13,
    IBW_CQE_SYN_REMOTE_OP_ERR = 0x14,
    IBW_CQE_SYN_RETRY_EXC_ERR = 0x15,
    IBW_CQE_SYN_RNR_RETRY_EXC_ERR = 0x16,
    IBW_CQE_SYN_LOCAL_RDD_VIOL_ERR = 0x20,
    IBW_CQE_SYN_REMOTE_INVAL_RD_REQ_ERR = 0x21,
    IBW_CQE_SYN_REMOTE_ABORTED_ERR = 0x22,
    IBW_CQE_SYN_INVAL_EECN_ERR = 0x23,
    IBW_CQE_SYN_INVAL_EEC_STATE_ERR = 0x24
};

/* The status a CQE syndrome reports; IBW_WC_GENERAL_ERR for a syndrome no
 * table defines (as mthca's driver does). */
static inline enum ibw_wc_status ibw_cqe_syndrome_to_status(unsigned syn)
{
    switch (syn) {
    case IBW_CQE_SYN_LOCAL_LENGTH_ERR: return IBW_WC_LOC_LEN_ERR;
    case IBW_CQE_SYN_LOCAL_QP_OP_ERR: return IBW_WC_LOC_QP_OP_ERR;
    case IBW_CQE_SYN_LOCAL_EEC_OP_ERR: return IBW_WC_LOC_EEC_OP_ERR;
    case IBW_CQE_SYN_LOCAL_PROT_ERR: return IBW_WC_LOC_PROT_ERR;
    case IBW_CQE_SYN_WR_FLUSH_ERR: return IBW_WC_WR_FLUSH_ERR;
    case IBW_CQE_SYN_MW_BIND_ERR: return IBW_WC_MW_BIND_ERR;
    case IBW_CQE_SYN_BAD_RESP_ERR: return IBW_WC_BAD_RESP_ERR;
    case IBW_CQE_SYN_LOCAL_ACCESS_ERR: return IBW_WC_LOC_ACCESS_ERR;
    case IBW_CQE_SYN_REMOTE_INVAL_REQ_ERR: return IBW_WC_REM_INV_REQ_ERR;
    case IBW_CQE_SYN_REMOTE_ACCESS_ERR: return IBW_WC_REM_ACCESS_ERR;
    case IBW_CQE_SYN_REMOTE_OP_ERR: return IBW_WC_REM_OP_ERR;
    case IBW_CQE_SYN_RETRY_EXC_ERR: return IBW_WC_RETRY_EXC_ERR;
    case IBW_CQE_SYN_RNR_RETRY_EXC_ERR: return IBW_WC_RNR_RETRY_EXC_ERR;
    case IBW_CQE_SYN_LOCAL_RDD_VIOL_ERR: return IBW_WC_LOC_RDD_VIOL_ERR;
    case IBW_CQE_SYN_REMOTE_INVAL_RD_REQ_ERR: return IBW_WC_REM_INV_RD_REQ_ERR;
    case IBW_CQE_SYN_REMOTE_ABORTED_ERR: return IBW_WC_REM_ABORT_ERR;
    case IBW_CQE_SYN_INVAL_EECN_ERR: return IBW_WC_INV_EECN_ERR;
    case IBW_CQE_SYN_INVAL_EEC_STATE_ERR: return IBW_WC_INV_EEC_STATE_ERR;
    default: return IBW_WC_GENERAL_ERR;
    }
}

/* The syndrome an engine writes for an error status; IBW_E_RANGE for
 * SUCCESS and for FATAL/RESP_TIMEOUT/GENERAL, which have no syndrome. */
static inline int ibw_cqe_status_to_syndrome(unsigned status, uint8_t *syn)
{
    static const uint8_t code[19] = {
        0,    0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x10, 0x11, 0x12,
        0x13, 0x14, 0x15, 0x16, 0x20, 0x21, 0x22, 0x23, 0x24};
    if (status == IBW_WC_SUCCESS || status >= sizeof code)
        return IBW_E_RANGE;
    *syn = code[status];
    return IBW_OK;
}

/* True when a CQE opcode byte marks an error CQE (mthca
 * MTHCA_ERROR_CQE_OPCODE_MASK; HanGu writes 0xFF). */
static inline int ibw_cqe_opcode_is_error(unsigned opcode)
{
    return (opcode & 0xFEu) == 0xFEu;
}

/* The completed operation of a send CQE whose opcode byte is a WQE opcode;
 * IBW_E_OPCODE for anything else. */
static inline int ibw_wc_opcode_from_wqe(unsigned op, uint32_t *out)
{
    switch (op) {
    case IBW_WQE_OP_SEND:
    case IBW_WQE_OP_SEND_INV:
    case IBW_WQE_OP_SEND_IMM: *out = IBW_WC_SEND; return IBW_OK;
    case IBW_WQE_OP_RDMA_WRITE:
    case IBW_WQE_OP_RDMA_WRITE_IMM: *out = IBW_WC_RDMA_WRITE; return IBW_OK;
    case IBW_WQE_OP_RDMA_READ: *out = IBW_WC_RDMA_READ; return IBW_OK;
    case IBW_WQE_OP_ATOMIC_CS: *out = IBW_WC_COMP_SWAP; return IBW_OK;
    case IBW_WQE_OP_ATOMIC_FA: *out = IBW_WC_FETCH_ADD; return IBW_OK;
    case IBW_WQE_OP_BIND_MW: *out = IBW_WC_BIND_MW; return IBW_OK;
    default: return IBW_E_OPCODE;
    }
}

/* Opcode and flags of a receive CQE whose opcode byte is the BTH opcode of
 * the message's last packet (mthca, HanGu: only the low 5 bits count);
 * IBW_E_OPCODE for opcodes that complete no receive WQE. */
static inline int ibw_wc_from_recv_bth(unsigned bth_op, uint32_t *opcode,
                                       uint32_t *flags)
{
    switch (ibw_opcode_in_transport((uint8_t)bth_op, IBW_TR_RC)) {
    case IBW_OP_RC_SEND_LAST:
    case IBW_OP_RC_SEND_ONLY:
        *opcode = IBW_WC_RECV;
        *flags = 0;
        return IBW_OK;
    case IBW_OP_RC_SEND_LAST_WITH_IMMEDIATE:
    case IBW_OP_RC_SEND_ONLY_WITH_IMMEDIATE:
        *opcode = IBW_WC_RECV;
        *flags = IBW_WC_WITH_IMM;
        return IBW_OK;
    case IBW_OP_RC_RDMA_WRITE_LAST_WITH_IMMEDIATE:
    case IBW_OP_RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE:
        *opcode = IBW_WC_RECV_RDMA_WITH_IMM;
        *flags = IBW_WC_WITH_IMM;
        return IBW_OK;
    case IBW_OP_RC_SEND_LAST_WITH_INVALIDATE:
    case IBW_OP_RC_SEND_ONLY_WITH_INVALIDATE:
        *opcode = IBW_WC_RECV;
        *flags = IBW_WC_WITH_INV;
        return IBW_OK;
    default:
        return IBW_E_OPCODE;
    }
}

/* ------------------------------------------------------------------------ */
/* HanGu CQE                                                                 */
/* ------------------------------------------------------------------------ */

#define IBW_HG_CQE_FIELDS(X, c)                                              \
    X(c, my_qpn, 31, 0, U32, "local QP number")                              \
    X(c, my_ee, 63, 32, U32, "local EE context (unused)")                    \
    X(c, rqpn, 95, 64, U32, "remote QP number")                              \
    X(c, sl_ipok, 103, 96, U8, "[7:4] service level, [0] IP checksum OK")    \
    X(c, g_mlpath, 111, 104, U8, "[7] GRH present, [6:0] DLID path bits")    \
    X(c, rlid, 127, 112, U16, "remote LID")                                  \
    X(c, imm, 159, 128, U32, "immediate data / P_Key index in [31:16]")      \
    X(c, byte_cnt, 191, 160, U32, "bytes sent or received")                  \
    X(c, wqe, 223, 192, U32, "offset of the completed WQE in its queue")     \
    X(c, opcode, 231, 224, U8,                                               \
      "send: WQE opcode; receive: BTH opcode of the last packet")            \
    X(c, is_send, 239, 232, U8, "1 = send completion")                       \
    X(c, owner, 255, 248, U8, "[7]: 1 = owned by hardware, 0 = software")
IBW_RECORD_FORMAT(ibw_hg_cqe, IBW_HG_CQE_FIELDS, 256, "hg_cqe", "H4",
                  "HanGu CQE", "hw/sw interface 3.3.1.1 tables 3-3-1/3-3-2",
                  "mthca_cqe byte offsets, little-endian 32-bit words "
                  "(document and RTL agree)")

/* RTL error CQE (canonical). */
#define IBW_HG_ERR_CQE_FIELDS(X, c)                                          \
    X(c, my_qpn, 31, 0, U32, "local QP number")                              \
    X(c, vendor_err, 151, 144, U8, "vendor error (unused)")                  \
    X(c, syndrome, 159, 152, U8, "completion code (enum ibw_cqe_syndrome)")  \
    X(c, wqe, 223, 192, U32, "offset of the failed WQE in its queue")        \
    X(c, opcode, 231, 224, U8, "0xFF (error); mthca: 0xFE recv, 0xFF send")  \
    X(c, owner, 255, 248, U8, "[7]: 1 = owned by hardware, 0 = software")
IBW_RECORD_FORMAT(ibw_hg_err_cqe, IBW_HG_ERR_CQE_FIELDS, 256, "hg_err_cqe",
                  "H4", "HanGu error CQE",
                  "hangu-rtl-layouts.md H4; hw/sw interface 3.3.1.2",
                  "RTL: syndrome [159:152], vendor_err [151:144] (conflicts "
                  "with the document, see hg_err_cqe_doc)")

/* Document error CQE (hw/sw interface table 3-3-4). */
#define IBW_HG_ERR_CQE_DOC_FIELDS(X, c)                                      \
    X(c, my_qpn, 31, 0, U32, "local QP number")                              \
    X(c, syndrome, 135, 128, U8, "completion code (enum ibw_cqe_syndrome)")  \
    X(c, vendor_err, 143, 136, U8, "vendor error (unused)")                  \
    X(c, db_cnt, 159, 144, U16, "doorbell count (unused)")                   \
    X(c, wqe, 223, 192, U32, "offset of the failed WQE in its queue")        \
    X(c, opcode, 231, 224, U8, "0xFF (error)")                               \
    X(c, owner, 255, 248, U8, "[7]: 1 = owned by hardware, 0 = software")
IBW_RECORD_FORMAT(ibw_hg_err_cqe_doc, IBW_HG_ERR_CQE_DOC_FIELDS, 256,
                  "hg_err_cqe_doc", "H4", "HanGu error CQE, document layout",
                  "hw/sw interface 3.3.1.2 table 3-3-4",
                  "document: syndrome [135:128], vendor_err [143:136], "
                  "db_cnt [159:144] (the mthca byte offsets)")

enum { IBW_HG_CQE_BYTES = 32 };
#define IBW_HG_CQE_OWNER_HW 0x80u

/* Record <-> CQE bytes (little-endian words): pfx_decode_layout/pfx_encode_layout as for
 * the WQE segments, and pfx_decode/pfx_encode fixed to the HanGu byte
 * order.  _decode: IBW_E_TRUNCATED when len < 32; _encode: IBW_E_NOSPACE
 * when len < 32. */
#define IBW__HG_CQE_IO(pfx)                                                   \
    IBW__WQE_SEG_IO(pfx)                                                      \
    static inline int pfx##_decode(const uint8_t *p, size_t len,             \
                                   struct pfx *out)                           \
    {                                                                         \
        return pfx##_decode_layout(p, len, IBW_WQE_LAYOUT_HANGU, out);                 \
    }                                                                         \
    static inline int pfx##_encode(const struct pfx *in, uint8_t *p,         \
                                   size_t len)                                \
    {                                                                         \
        return pfx##_encode_layout(in, IBW_WQE_LAYOUT_HANGU, p, len);                 \
    }
IBW__HG_CQE_IO(ibw_hg_cqe)
IBW__HG_CQE_IO(ibw_hg_err_cqe)
IBW__HG_CQE_IO(ibw_hg_err_cqe_doc)

/* Error CQE, RTL layout -> document layout (db_cnt becomes 0). */
static inline void ibw_hg_err_cqe_to_doc(const struct ibw_hg_err_cqe *in,
                                         struct ibw_hg_err_cqe_doc *out)
{
    memset(out, 0, sizeof *out);
    out->my_qpn = in->my_qpn;
    out->syndrome = in->syndrome;
    out->vendor_err = in->vendor_err;
    out->wqe = in->wqe;
    out->opcode = in->opcode;
    out->owner = in->owner;
}

/* Error CQE, document layout -> RTL layout (db_cnt has no place). */
static inline void ibw_hg_err_cqe_from_doc(const struct ibw_hg_err_cqe_doc *in,
                                           struct ibw_hg_err_cqe *out)
{
    memset(out, 0, sizeof *out);
    out->my_qpn = in->my_qpn;
    out->syndrome = in->syndrome;
    out->vendor_err = in->vendor_err;
    out->wqe = in->wqe;
    out->opcode = in->opcode;
    out->owner = in->owner;
}

/* True when the 32 CQE bytes at p belong to software (owner bit clear). */
static inline int ibw_hg_cqe_sw_owned(const uint8_t *p)
{
    return (p[31] & IBW_HG_CQE_OWNER_HW) == 0;
}

/* What an error CQE tells, in both CQE layouts: the status its syndrome
 * reports, the vendor byte, and whether it completed a send or a receive
 * (the only meaning of the opcode in a failed completion). */
static inline int ibw__wc_fill_error(struct ibw_wc *wc, unsigned syndrome,
                                     uint32_t vendor_err, int is_send)
{
    wc->status = ibw_cqe_syndrome_to_status(syndrome);
    wc->vendor_err = vendor_err;
    wc->opcode = is_send ? IBW_WC_SEND : IBW_WC_RECV;
    return IBW_OK;
}

/* Where a received message came from, in both CQE layouts (UD and RD
 * fields; the others carry zeros). */
static inline void ibw__wc_fill_source(struct ibw_wc *wc, uint32_t src_qp,
                                       uint16_t slid, uint8_t sl,
                                       uint8_t dlid_path_bits, int grh)
{
    wc->src_qp = src_qp;
    wc->slid = slid;
    wc->sl = sl;
    wc->dlid_path_bits = dlid_path_bits;
    if (grh)
        wc->wc_flags |= IBW_WC_GRH;
}

/*
 * A HanGu CQE (32 bytes, RTL error layout) as a work completion.  The
 * owner bit is not looked at (see ibw_hg_cqe_sw_owned).  wr_id is left 0:
 * look it up from wc->wqe.  For receive completions without immediate data
 * the P_Key index is imm[31:16], as mthca reads it.
 * Returns IBW_E_TRUNCATED when len < 32, IBW_E_OPCODE when a good CQE
 * carries an opcode no completion has (wc is then filled as far as known).
 */
static inline int ibw_hg_cqe_to_wc(const uint8_t *p, size_t len,
                                   struct ibw_wc *wc)
{
    struct ibw_hg_cqe c;
    int err = ibw_hg_cqe_decode(p, len, &c);
    if (err)
        return err;
    memset(wc, 0, sizeof *wc);
    wc->qp_num = c.my_qpn & 0xFFFFFFu;
    wc->wqe = c.wqe;
    if (ibw_cqe_opcode_is_error(c.opcode)) {
        struct ibw_hg_err_cqe e;
        ibw_hg_err_cqe_decode(p, len, &e);
        /* HanGu always writes 0xFF, so mthca's "bit 0 = send" says
         * nothing; the is_send byte stays where the good CQE has it. */
        return ibw__wc_fill_error(wc, e.syndrome, e.vendor_err, c.is_send);
    }
    wc->status = IBW_WC_SUCCESS;
    wc->byte_len = c.byte_cnt;
    if (c.is_send)
        return ibw_wc_opcode_from_wqe(c.opcode, &wc->opcode);
    ibw__wc_fill_source(wc, c.rqpn & 0xFFFFFFu, c.rlid,
                        (uint8_t)(c.sl_ipok >> 4),
                        (uint8_t)(c.g_mlpath & 0x7Fu), c.g_mlpath & 0x80u);
    uint32_t flags = 0;
    err = ibw_wc_from_recv_bth(c.opcode, &wc->opcode, &flags);
    wc->wc_flags |= flags;
    if (flags & (IBW_WC_WITH_IMM | IBW_WC_WITH_INV))
        wc->imm_data = c.imm;
    else
        wc->pkey_index = (uint16_t)(c.imm >> 16);
    return err;
}

#ifdef __cplusplus
}
#endif

#endif /* IBWIRE_HOST_CQE_H */
