/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ibwire/records_codes.h - the codes the HanGu RDMA engine's internal
 * records carry (catalog E27, E28 and the code fields of E1-E26).
 *
 * Sources: the HanGu RDMA engine design appendix 7 and chapters 2-4, the
 * HanGu design documents in shared/reference/hangu-docs and the RTL layouts
 * of shared/reference/hangu-rtl-layouts.md.  Where the documents and the RTL
 * give different codes for one thing, both sets are here: the canonical one
 * (named in shared/reference/records.md) under the plain name, the other
 * with _DOC or _RTL in its name, and a converter between them.
 */
#ifndef IBWIRE_RECORDS_CODES_H
#define IBWIRE_RECORDS_CODES_H

#include "base.h"
#include "wire.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Converters between two layouts of one record copy the fields they share
 * by expanding the smaller layout's field list with this (in, out: the two
 * structs). */
#define IBW__REC_COPY_FIELD(c, name, hi, lo, kind, desc) out->name = in->name;

/* For a record pfx whose documents' variant pfx##_doc holds a subset of its
 * fields under the same names (LIST, the variant's field list), defines
 *   void pfx##_to_doc(const struct pfx *in, struct pfx##_doc *out)
 *       the shared fields; the others have no place and are dropped;
 *   void pfx##_from_doc(const struct pfx##_doc *in, struct pfx *out)
 *       the shared fields, every other field 0. */
#define IBW__REC_DOC_CONVERTERS(pfx, LIST)                                    \
    static inline void pfx##_to_doc(const struct pfx *in,                     \
                                    struct pfx##_doc *out)                    \
    {                                                                         \
        LIST(IBW__REC_COPY_FIELD, ~)                                          \
    }                                                                         \
    static inline void pfx##_from_doc(const struct pfx##_doc *in,             \
                                      struct pfx *out)                        \
    {                                                                         \
        memset(out, 0, sizeof *out);                                          \
        LIST(IBW__REC_COPY_FIELD, ~)                                          \
    }

/* ------------------------------------------------------------------------ */
/* Verbs opcodes (E1, E12, E13, E17): the user's opcode, not the BTH's      */
/* ------------------------------------------------------------------------ */

/* The 5-bit operation code software writes into a doorbell and a WQE's
 * next segment; the engine derives the BTH opcode from it and the
 * segmentation (HanGu RDMA engine design T7.2). */
enum ibw_rec_opcode {
    IBW_REC_OP_RDMA_WRITE = 0x08,
    IBW_REC_OP_RDMA_WRITE_IMM = 0x09,
    IBW_REC_OP_SEND = 0x0A,
    IBW_REC_OP_SEND_IMM = 0x0B,
    IBW_REC_OP_RDMA_READ = 0x10,
    IBW_REC_OP_ATOMIC_CS = 0x11,
    IBW_REC_OP_ATOMIC_FA = 0x12
};

/* ------------------------------------------------------------------------ */
/* Service types (E12, E13): conflict between RTL and documents              */
/* ------------------------------------------------------------------------ */

/* Canonical (RTL) service-type codes.  They equal the top three bits of a
 * BTH opcode for the same transport. */
enum ibw_service_type {
    IBW_ST_RC = 0,
    IBW_ST_UC = 1,
    IBW_ST_RD = 2,
    IBW_ST_UD = 3,
    IBW_ST_CNP = 4,
    IBW_ST_XRC = 5
};

/* The documents' codes (HanGu RDMA engine design T7.23): only RC, UC and UD
 * exist. */
enum ibw_service_type_doc {
    IBW_ST_DOC_RC = 0,
    IBW_ST_DOC_UC = 1,
    IBW_ST_DOC_UD = 2
};

/* Canonical service type -> documents' code in *out.  IBW_E_RANGE for a
 * transport the documents have no code for (RD, CNP, XRC, unknown). */
static inline int ibw_service_type_to_doc(unsigned st, unsigned *out)
{
    switch (st) {
    case IBW_ST_RC: *out = IBW_ST_DOC_RC; return IBW_OK;
    case IBW_ST_UC: *out = IBW_ST_DOC_UC; return IBW_OK;
    case IBW_ST_UD: *out = IBW_ST_DOC_UD; return IBW_OK;
    default: return IBW_E_RANGE;
    }
}

/* Documents' service-type code -> canonical code in *out; IBW_E_RANGE for
 * a code above 2. */
static inline int ibw_service_type_from_doc(unsigned doc, unsigned *out)
{
    switch (doc) {
    case IBW_ST_DOC_RC: *out = IBW_ST_RC; return IBW_OK;
    case IBW_ST_DOC_UC: *out = IBW_ST_UC; return IBW_OK;
    case IBW_ST_DOC_UD: *out = IBW_ST_UD; return IBW_OK;
    default: return IBW_E_RANGE;
    }
}

/* ------------------------------------------------------------------------ */
/* E27 PMTU: three encodings meet in the engine                              */
/* ------------------------------------------------------------------------ */
/*
 *   internal code 0..4   T7.21/T7.23: MTU_256 0 ... MTU_4096 4
 *   bytes 256..4096      E12 db_meta.pmtu, E13 common_meta.pmtu (RTL)
 *   IBA enum 1..5        E20 resp_gen_meta.pmtu, the QP context (and IBA)
 * The IBA enum <-> bytes pair is ibw_mtu_enum_to_bytes/_bytes_to_enum in
 * wire.h; the functions below add the internal code.
 */
enum ibw_pmtu_code {
    IBW_PMTU_256 = 0,
    IBW_PMTU_512 = 1,
    IBW_PMTU_1024 = 2,
    IBW_PMTU_2048 = 3,
    IBW_PMTU_4096 = 4
};

/* Internal code 0..4 -> bytes in *out; IBW_E_RANGE for a code above 4. */
static inline int ibw_pmtu_code_to_bytes(unsigned code, uint32_t *out)
{
    if (code > IBW_PMTU_4096)
        return IBW_E_RANGE;
    *out = 256u << code;
    return IBW_OK;
}

/* Bytes (a power of two 256..4096) -> internal code in *out; IBW_E_RANGE
 * for anything else. */
static inline int ibw_pmtu_bytes_to_code(uint32_t bytes, unsigned *out)
{
    for (unsigned c = IBW_PMTU_256; c <= IBW_PMTU_4096; c++)
        if ((256u << c) == bytes) {
            *out = c;
            return IBW_OK;
        }
    return IBW_E_RANGE;
}

/* Internal code 0..4 -> IBA enum 1..5 in *out; IBW_E_RANGE above 4. */
static inline int ibw_pmtu_code_to_iba(unsigned code, unsigned *out)
{
    if (code > IBW_PMTU_4096)
        return IBW_E_RANGE;
    *out = code + 1;
    return IBW_OK;
}

/* IBA enum 1..5 -> internal code 0..4 in *out; IBW_E_RANGE otherwise. */
static inline int ibw_pmtu_iba_to_code(unsigned iba, unsigned *out)
{
    if (iba < 1 || iba > 5)
        return IBW_E_RANGE;
    *out = iba - 1;
    return IBW_OK;
}

/* ------------------------------------------------------------------------ */
/* E2 context management                                                     */
/* ------------------------------------------------------------------------ */

/* cxt_cmd.type */
enum ibw_cxt_type {
    IBW_CXT_RD_QP_CTX = 1,
    IBW_CXT_WR_QP_CTX = 2,
    IBW_CXT_WR_CQ_CTX = 3,
    IBW_CXT_WR_EQ_CTX = 4,
    IBW_CXT_WR_ICMMAP_CTX = 5,
    IBW_CXT_MAP_ICM_CTX = 6,
    IBW_CXT_RD_CQ_CTX = 7,
    IBW_CXT_RD_EQ_CTX = 8
};

/* cxt_cmd.opcode, per type; the comment names the module that sends it and
 * the view (record) it gets back. */
enum ibw_cxt_opcode {
    /* RD_QP_CTX */
    IBW_CXT_RD_QP_ALL = 1,   /* whole entry (CEU) */
    IBW_CXT_RD_QP_NPST = 2,  /* RequesterTransControl: cxt_view_npst */
    IBW_CXT_RD_QP_SST = 3,   /* DoorbellProcessing: cxt_view_sst */
    IBW_CXT_RD_QP_RST = 4,   /* ExecutionEngine: cxt_view_rst */
    IBW_CXT_RD_QP_STATE = 5, /* WQEParser: cxt_view_state */
    IBW_CXT_RD_QP_ENCAP = 6, /* frame encapsulation: cxt_view_encap */
    /* WR_QP_CTX: cxt_wr_data follows */
    IBW_CXT_WR_QP_ALL = 1,
    IBW_CXT_WR_QP_UAPST = 2, /* RequesterRecvControl: UnAckedPSN */
    IBW_CXT_WR_QP_NPST = 3,  /* RequesterTransControl: NextPSN */
    IBW_CXT_WR_QP_EPST = 4,  /* ExecutionEngine: ExpectedPSN */
    IBW_CXT_WR_QP_STATE = 5,
    /* WR_CQ_CTX / WR_EQ_CTX */
    IBW_CXT_WR_CQEQ_ALL = 1,
    IBW_CXT_WR_CQ_MODIFY = 2,
    IBW_CXT_WR_EQ_FUNC = 2,
    IBW_CXT_WR_CQEQ_INVALID = 3,
    /* WR_ICMMAP_CTX / MAP_ICM_CTX */
    IBW_CXT_ICM_EN = 1,
    IBW_CXT_ICM_DIS = 2,
    /* RD_CQ_CTX */
    IBW_CXT_RD_CQ_K = 1,
    IBW_CXT_RD_CQ_CST = 2,   /* RequesterRecvControl: cxt_view_cst */
    /* RD_EQ_CTX */
    IBW_CXT_RD_EQ_K = 1,
    IBW_CXT_RD_EQ_ALL = 2
};

/* QP states as the context and cxt_wr_data.state carry them.  (The HanGu
 * host driver swaps SQD and SQE; these are the engine's values.) */
enum ibw_cxt_qp_state {
    IBW_CXT_QPS_RST = 0,
    IBW_CXT_QPS_INIT = 1,
    IBW_CXT_QPS_RTR = 2,
    IBW_CXT_QPS_RTS = 3,
    IBW_CXT_QPS_SQD = 4,
    IBW_CXT_QPS_SQE = 5,
    IBW_CXT_QPS_ERR = 6
};

/* ------------------------------------------------------------------------ */
/* E3, E4 address translation (VirtToPhys)                                   */
/* ------------------------------------------------------------------------ */

/* vtp_cmd.type */
enum ibw_vtp_type {
    IBW_VTP_RD_REQ_WQE = 1,
    IBW_VTP_RD_REQ_DATA = 2,
    IBW_VTP_WR_REQ_DATA = 3
};

/* vtp_cmd.opcode, per type. */
enum ibw_vtp_opcode {
    /* RD_REQ_WQE */
    IBW_VTP_SQ_FWQE = 1, /* first WQE of a doorbell */
    IBW_VTP_SQ_TWQE = 2, /* a following WQE */
    IBW_VTP_RQ_WQE = 3,
    /* RD_REQ_DATA */
    IBW_VTP_RD_L_NET = 1,
    IBW_VTP_RD_R_NET = 2,
    /* WR_REQ_DATA */
    IBW_VTP_WR_L_NET = 1,
    IBW_VTP_WR_R_NET = 2,
    IBW_VTP_WR_CQE = 3,
    IBW_VTP_WR_EQE = 4
};

/* vtp_cmd.flags bits (masks). */
#define IBW_VTP_FLAG_L_WRITE (1u << 0)
#define IBW_VTP_FLAG_R_WRITE (1u << 1)
#define IBW_VTP_FLAG_R_READ (1u << 2)
#define IBW_VTP_FLAG_R_ATOMIC (1u << 3)
#define IBW_VTP_FLAG_MW_BIND (1u << 4)
#define IBW_VTP_FLAG_ZERO_BASED (1u << 5)
#define IBW_VTP_FLAG_ON_DEMAND (1u << 6)
#define IBW_VTP_FLAG_REGION (1u << 8)
#define IBW_VTP_FLAG_PHYS (1u << 9)
#define IBW_VTP_FLAG_BIND_EN (1u << 15)
#define IBW_VTP_FLAG_MIO (1u << 17)
#define IBW_VTP_FLAG_REL (1u << 26)
#define IBW_VTP_FLAG_ABS (1u << 27)
#define IBW_VTP_FLAG_SW_OWNS_MASK (0xFu << 28)

/* vtp_resp.state (canonical, documents T7.7): one 4-bit code. */
enum ibw_vtp_state {
    IBW_VTP_SUCCESS = 0,
    IBW_VTP_LENGTH_ERR = 1,
    IBW_VTP_KEY_ERR = 2,
    IBW_VTP_FLAGS_ERR = 3,
    IBW_VTP_PD_ERR = 4
};

/* vtp_resp_rtl: one bit per outcome (masks of the 8-bit response). */
#define IBW_VTP_RTL_PD_ERR 0x01u
#define IBW_VTP_RTL_FLAGS_ERR 0x02u
#define IBW_VTP_RTL_KEY_ERR 0x04u
#define IBW_VTP_RTL_LENGTH_ERR 0x08u
#define IBW_VTP_RTL_SUCCESS 0x10u

/*
 * RTL response bits -> documents' code in *out.  Several RTL bits may be
 * set; the code reported is the first check that failed in the order the
 * address-translation document runs them: key lookup, PD, flags, length.
 * IBW_E_MALFORMED when no bit (or only unknown bits) is set.
 */
static inline int ibw_vtp_state_from_rtl(unsigned bits, unsigned *out)
{
    if (bits & IBW_VTP_RTL_KEY_ERR)
        *out = IBW_VTP_KEY_ERR;
    else if (bits & IBW_VTP_RTL_PD_ERR)
        *out = IBW_VTP_PD_ERR;
    else if (bits & IBW_VTP_RTL_FLAGS_ERR)
        *out = IBW_VTP_FLAGS_ERR;
    else if (bits & IBW_VTP_RTL_LENGTH_ERR)
        *out = IBW_VTP_LENGTH_ERR;
    else if (bits & IBW_VTP_RTL_SUCCESS)
        *out = IBW_VTP_SUCCESS;
    else
        return IBW_E_MALFORMED;
    return IBW_OK;
}

/* Documents' code -> the single RTL bit in *out; IBW_E_RANGE above 4. */
static inline int ibw_vtp_state_to_rtl(unsigned code, unsigned *out)
{
    static const uint8_t bit[5] = {IBW_VTP_RTL_SUCCESS, IBW_VTP_RTL_LENGTH_ERR,
                                   IBW_VTP_RTL_KEY_ERR, IBW_VTP_RTL_FLAGS_ERR,
                                   IBW_VTP_RTL_PD_ERR};
    if (code > IBW_VTP_PD_ERR)
        return IBW_E_RANGE;
    *out = bit[code];
    return IBW_OK;
}

/* ------------------------------------------------------------------------ */
/* E5, E6 timers                                                             */
/* ------------------------------------------------------------------------ */

/* timer_set_event.opcode */
enum ibw_timer_opcode {
    IBW_TIMER_SET = 0x00,     /* load the value and start */
    IBW_TIMER_RESTART = 0x01, /* back to the set value, retry count reset */
    IBW_TIMER_STOP = 0xFF
};

/* timer_expire_event.event */
enum ibw_timer_event {
    IBW_TIMER_EXPIRED = 0x00,         /* retries left: retransmit */
    IBW_TIMER_COUNTER_EXPIRED = 0xFF  /* retries used up: QP to error */
};

/* What RequesterTransControl puts in a set event (RTL). */
#define IBW_TIMER_RTC_COUNTER_VALUE 3
#define IBW_TIMER_RTC_TIMER_VALUE 7

/* ------------------------------------------------------------------------ */
/* E8-E11 scatter-entry and receive-WQE managers                             */
/* ------------------------------------------------------------------------ */

/* sem_cmd.op (RTL, 3 bits; the documents' 2-bit op has no FLUSH). */
enum ibw_sem_op {
    IBW_SEM_FETCH = 0,
    IBW_SEM_UPDATE = 1,
    IBW_SEM_RELEASE = 2,
    IBW_SEM_FLUSH = 4
};

/* sem_resp.code and rwm_resp.code */
enum ibw_entry_resp {
    IBW_ENTRY_VALID = 0x00,
    IBW_ENTRY_INVALID = 0x01,   /* not enough entries for the packet */
    IBW_ENTRY_INVALID_WQE = 0x20 /* rwm only: no WQE, receiver not ready */
};

/* rwm_cmd.op */
enum ibw_rwm_op {
    IBW_RWM_FETCH_ENTRY = 0,
    IBW_RWM_UPDATE_ENTRY = 1,
    IBW_RWM_RELEASE_ENTRY = 2,
    IBW_RWM_RELEASE_WQE = 3,
    IBW_RWM_FLUSH = 4 /* RTL only */
};

/* ------------------------------------------------------------------------ */
/* E20 ExecutionEngine -> RespPktGen response type: conflict                 */
/* ------------------------------------------------------------------------ */

/* Canonical (RTL): the opcode field says which response to build. */
#define IBW_RESP_GEN_ACK 0x11  /* ACK or NAK, the syndrome tells which */
#define IBW_RESP_GEN_READ 0x00 /* RDMA read response(s) */
/* Documents T7.36: a type code instead. */
#define IBW_RESP_GEN_DOC_ACK 0x01
#define IBW_RESP_GEN_DOC_READ 0x02

/* RTL response opcode -> documents' type in *out; IBW_E_RANGE otherwise. */
static inline int ibw_resp_gen_type_to_doc(unsigned opcode, unsigned *out)
{
    if (opcode == IBW_RESP_GEN_ACK)
        *out = IBW_RESP_GEN_DOC_ACK;
    else if (opcode == IBW_RESP_GEN_READ)
        *out = IBW_RESP_GEN_DOC_READ;
    else
        return IBW_E_RANGE;
    return IBW_OK;
}

/* Documents' type -> RTL response opcode in *out; IBW_E_RANGE otherwise. */
static inline int ibw_resp_gen_type_from_doc(unsigned type, unsigned *out)
{
    if (type == IBW_RESP_GEN_DOC_ACK)
        *out = IBW_RESP_GEN_ACK;
    else if (type == IBW_RESP_GEN_DOC_READ)
        *out = IBW_RESP_GEN_READ;
    else
        return IBW_E_RANGE;
    return IBW_OK;
}

/* ------------------------------------------------------------------------ */
/* E28 error and status codes                                                */
/* ------------------------------------------------------------------------ */

/* ReqState (E13 common_meta.req_state, E17 bad_req_meta.err_type): what
 * the WQE checks of the HanGu RDMA engine design §2.4.3.1.2 found. */
enum ibw_req_state {
    IBW_REQ_NORMAL = 0,
    IBW_REQ_QP_STATE_ERR = 1,     /* QP in Error: "Flush in Error" */
    IBW_REQ_OPCODE_ERR = 2,       /* "Unsupported OpCode" for the service */
    IBW_REQ_LOCAL_ACCESS_ERR = 4  /* a gather entry failed the VTP check */
};

/* Completion codes (the CQE syndrome of the software/hardware interface
 * document, the mthca set). */
enum ibw_cpl_code {
    IBW_CPL_SUCCESS = 0x00,
    IBW_CPL_LOCAL_LENGTH_ERR = 0x01,
    IBW_CPL_LOCAL_QP_OP_ERR = 0x02,
    IBW_CPL_LOCAL_EEC_OP_ERR = 0x03,
    IBW_CPL_LOCAL_PROT_ERR = 0x04,
    IBW_CPL_WR_FLUSH_ERR = 0x05,
    IBW_CPL_MW_BIND_ERR = 0x06,
    IBW_CPL_BAD_RESP_ERR = 0x10,
    IBW_CPL_LOCAL_ACCESS_ERR = 0x11,
    IBW_CPL_REMOTE_INVAL_REQ_ERR = 0x12,
    IBW_CPL_REMOTE_ACCESS_ERR = 0x13,
    IBW_CPL_REMOTE_OP_ERR = 0x14,
    IBW_CPL_RETRY_EXC_ERR = 0x15,
    IBW_CPL_RNR_RETRY_EXC_ERR = 0x16,
    IBW_CPL_LOCAL_RDD_VIOL_ERR = 0x20,
    IBW_CPL_REMOTE_INVAL_RD_REQ_ERR = 0x21,
    IBW_CPL_REMOTE_ABORTED_ERR = 0x22,
    IBW_CPL_INVAL_EECN_ERR = 0x23,
    IBW_CPL_INVAL_EEC_STATE_ERR = 0x24
};

/*
 * The completion code a ReqState becomes (HanGu RDMA engine design
 * §2.4.3.1.2): a QP in Error flushes, an opcode the service does not allow is
 * a local QP operation error, and a gather entry that fails the L_Key check is
 * a local protection error (IBA's name for "the WR's data segments do not
 * reference a valid memory region").  IBW_E_RANGE for an unknown ReqState.
 */
static inline int ibw_req_state_to_cpl(unsigned req_state, unsigned *out)
{
    switch (req_state) {
    case IBW_REQ_NORMAL: *out = IBW_CPL_SUCCESS; return IBW_OK;
    case IBW_REQ_QP_STATE_ERR: *out = IBW_CPL_WR_FLUSH_ERR; return IBW_OK;
    case IBW_REQ_OPCODE_ERR: *out = IBW_CPL_LOCAL_QP_OP_ERR; return IBW_OK;
    case IBW_REQ_LOCAL_ACCESS_ERR: *out = IBW_CPL_LOCAL_PROT_ERR; return IBW_OK;
    default: return IBW_E_RANGE;
    }
}

/*
 * The completion code a NAK code (enum ibw_nak_code, wire.h) ends the
 * request with (HanGu RDMA engine design §3.4.5.1.3).  A PSN sequence error is
 * retried, so it only ends a request once the retries are used up (RETRY_EXC).
 * IBW_E_RANGE for a reserved NAK code.
 */
static inline int ibw_nak_to_cpl(unsigned nak, unsigned *out)
{
    switch (nak) {
    case IBW_NAK_PSN_SEQ_ERROR: *out = IBW_CPL_RETRY_EXC_ERR; return IBW_OK;
    case IBW_NAK_INVALID_REQUEST: *out = IBW_CPL_REMOTE_INVAL_REQ_ERR; return IBW_OK;
    case IBW_NAK_REMOTE_ACCESS_ERROR: *out = IBW_CPL_REMOTE_ACCESS_ERR; return IBW_OK;
    case IBW_NAK_REMOTE_OP_ERROR: *out = IBW_CPL_REMOTE_OP_ERR; return IBW_OK;
    case IBW_NAK_INVALID_RD_REQUEST: *out = IBW_CPL_REMOTE_INVAL_RD_REQ_ERR; return IBW_OK;
    default: return IBW_E_RANGE;
    }
}

/* The completion code a timer's counter-expired event ends the requests
 * with: retries exhausted for the loss timer, RNR retries for the RNR
 * timer (HanGu RDMA engine design §3.4.5.1.4). */
static inline unsigned ibw_timer_expiry_cpl(int rnr_timer)
{
    return rnr_timer ? IBW_CPL_RNR_RETRY_EXC_ERR : IBW_CPL_RETRY_EXC_ERR;
}

/* ------------------------------------------------------------------------ */
/* E24 link word control bits, E25 stream word markers                       */
/* ------------------------------------------------------------------------ */

/* A link word's valid_bytes field holds the count of valid data bytes
 * modulo 8: 0 means all eight.  Count (1..8) -> field value. */
static inline unsigned ibw_link_valid_bytes_code(unsigned count)
{
    return count & 7u;
}
/* Field value -> count of valid bytes 1..8. */
static inline unsigned ibw_link_valid_bytes_count(unsigned code)
{
    return (code & 7u) ? (code & 7u) : 8u;
}

#ifdef __cplusplus
}
#endif

#endif /* IBWIRE_RECORDS_CODES_H */
