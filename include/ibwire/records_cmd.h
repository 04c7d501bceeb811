/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ibwire/records_cmd.h - engine records E1-E11: the doorbell, and the
 * commands and responses between the RDMA engine and its service modules
 * (context manager, address translation, timers, scatter-entry manager,
 * receive-WQE manager).
 *
 * Bus order: bit 0 is bit 0 of 32-bit word 0 (see base.h).  Each record is
 * one field list expanded by IBW_RECORD_FORMAT into a struct, pack/unpack,
 * getters/setters on the word array and a descriptor.  Codes for the fields
 * are in records_codes.h.  Reserved bits are zero on pack.
 */
#ifndef IBWIRE_RECORDS_CMD_H
#define IBWIRE_RECORDS_CMD_H

#include "base.h"
#include "records_codes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* E1 SQ doorbell, 64 bits.  The host writes it as two 32-bit words which
 * are exactly words 1 and 0 of this record. */
#define IBW_SQ_DOORBELL_FIELDS(X, c)                                          \
    X(c, opcode, 4, 0, U8, "verbs opcode (enum ibw_rec_opcode), not the BTH opcode") \
    X(c, fence, 5, 5, U8, "F: wait until every earlier WQE has completed")    \
    X(c, offset, 31, 8, U32, "offset of the first WQE in the SQ, 16-byte units") \
    X(c, size, 39, 32, U8, "size of the first WQE, 16-byte units")           \
    X(c, qpn, 63, 40, U32, "QP number")
IBW_RECORD_FORMAT(ibw_sq_doorbell, IBW_SQ_DOORBELL_FIELDS, 64, "sq_doorbell",
                  "E1", "SQ doorbell (host -> DoorbellProcessing)",
                  "HanGu RDMA engine design T7.1, T7.2",
                  "RTL positions (the documents' picture is lost). It is the "
                  "Tavor/mthca send doorbell: host word 1 = qpn<<8 | size, "
                  "word 0 = offset<<8 | F<<5 | opcode. An older RTL revision "
                  "read the offset from [31:6].")

/* E2 context-management command, 128 bits. */
#define IBW_CXT_CMD_FIELDS(X, c)                                              \
    X(c, qpn, 119, 96, U32, "QPN/CQN/EQN index (the RTL indexes [108:96])")   \
    X(c, opcode, 123, 120, U8, "operation, per type (enum ibw_cxt_opcode)")   \
    X(c, type, 127, 124, U8, "object and direction (enum ibw_cxt_type)")
IBW_RECORD_FORMAT(ibw_cxt_cmd, IBW_CXT_CMD_FIELDS, 128, "cxt_cmd", "E2",
                  "context-management command (engine modules -> CxtMgt)",
                  "HanGu RDMA engine design T7.3, T7.37, T7.38; "
                  "context-management document "
                  "T2.1, T2.2",
                  "RTL (the context-management document's header agrees: "
                  "Type 4 bits, Opcode 4 bits, index 24 bits from the top); "
                  "[95:0] zero")
/* The response echoes the command word; the view follows as data. */
IBW_RECORD_FORMAT(ibw_cxt_resp, IBW_CXT_CMD_FIELDS, 128, "cxt_resp", "E2",
                  "context-management response header (CxtMgt -> module)",
                  "HanGu RDMA engine design T7.39",
                  "RTL: the command word echoed")

/* E2 context write data, 128 bits (after a WR_QP_CTX command). */
#define IBW_CXT_WR_DATA_FIELDS(X, c)                                          \
    X(c, state, 2, 0, U8, "QP state (enum ibw_cxt_qp_state)")                 \
    X(c, psn, 31, 8, U32, "NextPSN, UnAckedPSN or ExpectedPSN, by opcode")
IBW_RECORD_FORMAT(ibw_cxt_wr_data, IBW_CXT_WR_DATA_FIELDS, 128, "cxt_wr_data",
                  "E2", "context write data (module -> CxtMgt)",
                  "HanGu RDMA engine design T7.40",
                  "RTL; [127:32] and [7:3] zero")

/* E2 context view for DoorbellProcessing (RD_QP_CTX/SST), 256 bits. */
#define IBW_CXT_VIEW_SST_FIELDS(X, c)                                         \
    X(c, service_type, 7, 0, U8, "service type (enum ibw_service_type)")      \
    X(c, dst_qpn, 31, 8, U32, "destination QPN")                             \
    X(c, pkey, 47, 32, U16, "P_Key")                                          \
    X(c, msgmax, 52, 48, U8, "low bits of the context's mtu_msgmax byte")     \
    X(c, pmtu, 55, 53, U8, "PMTU, IBA enum 1..5 (top of mtu_msgmax)")        \
    X(c, sq_lkey, 95, 64, U32, "SQ L_Key")                                    \
    X(c, pd, 127, 96, U32, "QP protection domain")                            \
    X(c, sq_entry_sz_log, 135, 128, U8, "log2 of the SQ entry size")          \
    X(c, sq_length, 191, 160, U32, "SQ length in bytes")
IBW_RECORD_FORMAT(ibw_cxt_view_sst, IBW_CXT_VIEW_SST_FIELDS, 256,
                  "cxt_view_sst", "E2",
                  "QP context view for DoorbellProcessing (RD_QP_CTX SST)",
                  "HanGu RDMA engine design T7.37, T7.39; context-management "
                  "document T2.2",
                  "RTL")

/* E2 context view for WQEParser (RD_QP_CTX/STATE), 128 bits. */
#define IBW_CXT_VIEW_STATE_FIELDS(X, c)                                       \
    X(c, sq_entry_sz_log, 7, 0, U8, "log2 of the SQ entry size")              \
    X(c, state, 31, 29, U8, "QP state (enum ibw_cxt_qp_state)")               \
    X(c, sq_length, 63, 32, U32, "SQ length in bytes")
IBW_RECORD_FORMAT(ibw_cxt_view_state, IBW_CXT_VIEW_STATE_FIELDS, 128,
                  "cxt_view_state", "E2",
                  "QP context view for WQEParser (RD_QP_CTX STATE)",
                  "HanGu RDMA engine design T7.37", "RTL")

/* E2 context view for RequesterTransControl (RD_QP_CTX/NPST), 288 bits. */
#define IBW_CXT_VIEW_NPST_FIELDS(X, c)                                        \
    X(c, state, 2, 0, U8, "QP state (enum ibw_cxt_qp_state)")                 \
    X(c, next_psn, 31, 8, U32, "NextPSN")                                     \
    X(c, cq_lkey, 63, 32, U32, "CQ L_Key")                                    \
    X(c, cq_size_log, 71, 64, U8, "log2 of the CQ size")                      \
    X(c, cq_pd, 127, 96, U32, "CQ protection domain")                         \
    X(c, cqn, 151, 128, U32, "CQ number")                                     \
    X(c, eqn, 159, 152, U8, "EQ number")                                      \
    X(c, dmac_lo, 175, 160, U16, "destination MAC bits [15:0]")               \
    X(c, eq_size_log, 191, 184, U8, "log2 of the EQ size")                    \
    X(c, eq_lkey, 223, 192, U32, "EQ L_Key")                                  \
    X(c, eq_pd, 255, 224, U32, "EQ protection domain")                        \
    X(c, eq_intr, 271, 256, U16, "EQ interrupt vector")
IBW_RECORD_FORMAT(ibw_cxt_view_npst, IBW_CXT_VIEW_NPST_FIELDS, 288,
                  "cxt_view_npst", "E2",
                  "QP context view for RequesterTransControl (RD_QP_CTX NPST)",
                  "HanGu RDMA engine design T7.37; context-management "
                  "document T2.2", "RTL")

/* E2 context view for RequesterRecvControl (RD_CQ_CTX/CST), 256 bits. */
#define IBW_CXT_VIEW_CST_FIELDS(X, c)                                         \
    X(c, state, 2, 0, U8, "QP state (enum ibw_cxt_qp_state)")                 \
    X(c, unacked_psn, 31, 8, U32, "UnAckedPSN")                               \
    X(c, dmac_lo, 39, 32, U8, "destination MAC bits [7:0]")                   \
    X(c, next_psn, 63, 40, U32, "NextPSN")                                    \
    X(c, dmac_hi, 71, 64, U8, "destination MAC bits [15:8]")                  \
    X(c, remote_qpn, 95, 72, U32, "remote QPN")                               \
    X(c, cq_lkey, 127, 96, U32, "CQ L_Key")                                   \
    X(c, qp_pd, 159, 128, U32, "QP protection domain")                        \
    X(c, cq_pd, 191, 160, U32, "CQ protection domain")                        \
    X(c, cq_size_log, 199, 192, U8, "log2 of the CQ size")                    \
    X(c, cqn, 247, 224, U32, "CQ number")                                     \
    X(c, eqn, 255, 248, U8, "EQ number")
IBW_RECORD_FORMAT(ibw_cxt_view_cst, IBW_CXT_VIEW_CST_FIELDS, 256,
                  "cxt_view_cst", "E2",
                  "context view for RequesterRecvControl (RD_CQ_CTX CST)",
                  "HanGu RDMA engine design T7.37, T7.42",
                  "RTL (conflict found: documents T7.42 show a 96-bit view, "
                  "CQ L_Key in [95:64] where the RTL has the remote QPN: "
                  "cxt_view_cst_doc, converters ibw_cxt_view_cst_to_doc/"
                  "_from_doc)")

/* E2 the documents' RequesterRecvControl view (T7.42), 96 bits. */
#define IBW_CXT_VIEW_CST_DOC_FIELDS(X, c)                                     \
    X(c, state, 2, 0, U8, "QP state (enum ibw_cxt_qp_state)")                 \
    X(c, unacked_psn, 31, 8, U32, "UnAckedPSN")                               \
    X(c, next_psn, 63, 40, U32, "NextPSN")                                    \
    X(c, cq_lkey, 95, 64, U32, "CQ L_Key")
IBW_RECORD_FORMAT(ibw_cxt_view_cst_doc, IBW_CXT_VIEW_CST_DOC_FIELDS, 96,
                  "cxt_view_cst_doc", "E2",
                  "context view for RequesterRecvControl, documents' variant",
                  "HanGu RDMA engine design T7.42",
                  "documents' variant of cxt_view_cst")

/* ibw_cxt_view_cst_to_doc / _from_doc (see IBW__REC_DOC_CONVERTERS). */
IBW__REC_DOC_CONVERTERS(ibw_cxt_view_cst, IBW_CXT_VIEW_CST_DOC_FIELDS)

/* E2 context view for ExecutionEngine (RD_QP_CTX/RST), 320 bits. */
#define IBW_CXT_VIEW_RST_FIELDS(X, c)                                         \
    X(c, state, 2, 0, U8, "QP state (enum ibw_cxt_qp_state)")                 \
    X(c, rnr_timer, 7, 3, U8, "RNR NAK timer code")                           \
    X(c, expected_psn, 31, 8, U32, "ExpectedPSN")                             \
    X(c, pkey, 47, 32, U16, "P_Key")                                          \
    X(c, msgmax, 52, 48, U8, "low bits of the context's mtu_msgmax byte")     \
    X(c, pmtu, 55, 53, U8, "PMTU, IBA enum 1..5 (top of mtu_msgmax)")        \
    X(c, dmac_lo, 63, 56, U8, "destination MAC bits [7:0]")                   \
    X(c, remote_qpn, 87, 64, U32, "remote QPN")                               \
    X(c, rq_entry_sz_log, 95, 88, U8, "log2 of the RQ entry size")            \
    X(c, rq_lkey, 127, 96, U32, "RQ L_Key")                                   \
    X(c, cq_lkey, 159, 128, U32, "CQ L_Key")                                  \
    X(c, qp_pd, 191, 160, U32, "QP protection domain")                        \
    X(c, cq_pd, 223, 192, U32, "CQ protection domain")                        \
    X(c, rq_length, 255, 224, U32, "RQ length in bytes")                      \
    X(c, cq_size_log, 263, 256, U8, "log2 of the CQ size")                    \
    X(c, cqn, 311, 288, U32, "CQ number")                                     \
    X(c, dmac_hi, 319, 312, U8, "destination MAC bits [15:8]")
IBW_RECORD_FORMAT(ibw_cxt_view_rst, IBW_CXT_VIEW_RST_FIELDS, 320,
                  "cxt_view_rst", "E2",
                  "QP context view for ExecutionEngine (RD_QP_CTX RST)",
                  "HanGu RDMA engine design T7.37, T7.41",
                  "RTL (conflict found: documents T7.41 show a 128-bit view, "
                  "word 0 as here, then L_Key, PD, PMTU | P_Key: "
                  "cxt_view_rst_doc, converters ibw_cxt_view_rst_to_doc/"
                  "_from_doc)")

/* E2 the documents' ExecutionEngine view (T7.41), 128 bits. */
#define IBW_CXT_VIEW_RST_DOC_FIELDS(X, c)                                     \
    X(c, state, 2, 0, U8, "QP state (enum ibw_cxt_qp_state)")                 \
    X(c, rnr_timer, 7, 3, U8, "RNR NAK timer code")                           \
    X(c, expected_psn, 31, 8, U32, "ExpectedPSN")                             \
    X(c, lkey, 63, 32, U32, "L_Key (the RTL view's RQ L_Key)")                \
    X(c, pd, 95, 64, U32, "protection domain (the RTL view's QP PD)")         \
    X(c, pkey, 111, 96, U16, "P_Key")                                         \
    X(c, pmtu, 127, 112, U16, "PMTU, IBA enum 1..5")
IBW_RECORD_FORMAT(ibw_cxt_view_rst_doc, IBW_CXT_VIEW_RST_DOC_FIELDS, 128,
                  "cxt_view_rst_doc", "E2",
                  "QP context view for ExecutionEngine, documents' variant",
                  "HanGu RDMA engine design T7.41",
                  "documents' variant of cxt_view_rst")

/* RTL view -> documents' view (fields without a place are dropped). */
static inline void ibw_cxt_view_rst_to_doc(const struct ibw_cxt_view_rst *in,
                                           struct ibw_cxt_view_rst_doc *out)
{
    out->state = in->state;
    out->rnr_timer = in->rnr_timer;
    out->expected_psn = in->expected_psn;
    out->lkey = in->rq_lkey;
    out->pd = in->qp_pd;
    out->pkey = in->pkey;
    out->pmtu = in->pmtu;
}
/* Documents' view -> RTL view, the other fields 0.  IBW_E_RANGE when the
 * 16-bit PMTU does not fit the RTL's 3 bits. */
static inline int ibw_cxt_view_rst_from_doc(const struct ibw_cxt_view_rst_doc *in,
                                            struct ibw_cxt_view_rst *out)
{
    if (in->pmtu > 7)
        return IBW_E_RANGE;
    memset(out, 0, sizeof *out);
    out->state = in->state;
    out->rnr_timer = in->rnr_timer;
    out->expected_psn = in->expected_psn;
    out->rq_lkey = in->lkey;
    out->qp_pd = in->pd;
    out->pkey = in->pkey;
    out->pmtu = (uint8_t)in->pmtu;
    return IBW_OK;
}

/* E2 context view for frame encapsulation (RD_QP_CTX/ENCAP), 256 bits. */
#define IBW_CXT_VIEW_ENCAP_FIELDS(X, c)                                       \
    X(c, port, 2, 0, U8, "port")                                              \
    X(c, sl, 7, 4, U8, "service level")                                       \
    X(c, pkey, 31, 16, U16, "P_Key")                                          \
    X(c, src_ip, 63, 32, U32, "source IPv4 address")                          \
    X(c, dst_ip, 95, 64, U32, "destination IPv4 address")                     \
    X(c, src_mac, 143, 96, U64, "source MAC")                                 \
    X(c, dst_mac, 191, 144, U64, "destination MAC")
IBW_RECORD_FORMAT(ibw_cxt_view_encap, IBW_CXT_VIEW_ENCAP_FIELDS, 256,
                  "cxt_view_encap", "E2",
                  "QP context view for frame encapsulation (RD_QP_CTX ENCAP)",
                  "context-management document T2.2", "RTL")

/* E3 address-translation memory command, 256 bits. */
#define IBW_VTP_CMD_FIELDS(X, c)                                              \
    X(c, type, 3, 0, U8, "request type (enum ibw_vtp_type)")                  \
    X(c, opcode, 7, 4, U8, "operation, per type (enum ibw_vtp_opcode)")       \
    X(c, flags, 63, 32, U32, "access flags (IBW_VTP_FLAG_*)")                 \
    X(c, pd, 95, 64, U32, "protection domain")                                \
    X(c, key, 127, 96, U32, "L_Key or R_Key")                                 \
    X(c, va, 191, 128, U64, "virtual address")                                \
    X(c, length, 223, 192, U32, "length in bytes")
IBW_RECORD_FORMAT(ibw_vtp_cmd, IBW_VTP_CMD_FIELDS, 256, "vtp_cmd", "E3",
                  "address-translation memory command (engine -> VirtToPhys)",
                  "HanGu RDMA engine design T7.4, T7.5",
                  "RTL (T7.4 agrees on the word order: Reserved|OpCode|Type, "
                  "Flags, PD, Key, VA low, VA high, Length, Reserved; the "
                  "Type/OpCode/Flags codes are the RTL's)")

/* E4 address-translation response, 8 bits: canonical = documents. */
#define IBW_VTP_RESP_FIELDS(X, c)                                             \
    X(c, state, 3, 0, U8, "outcome code (enum ibw_vtp_state)")
IBW_RECORD_FORMAT(ibw_vtp_resp, IBW_VTP_RESP_FIELDS, 8, "vtp_resp", "E4",
                  "address-translation response state (VirtToPhys -> engine)",
                  "HanGu RDMA engine design T7.6, T7.7",
                  "documents (conflict): T7.7 gives one 4-bit code, SUCCESS "
                  "0, LENGTH_ERR 1, KEY_ERR 2, FLAGS_ERR 3, PD_ERR 4. The RTL "
                  "(and the address-translation document) set one bit per "
                  "outcome: vtp_resp_rtl. Converters "
                  "ibw_vtp_resp_from_rtl/_to_rtl; when several RTL bits are "
                  "set the first failed check wins: key, PD, flags, length")

/* E4 the RTL's response: one bit per outcome, several may be set. */
#define IBW_VTP_RESP_RTL_FIELDS(X, c)                                         \
    X(c, pd_err, 0, 0, U8, "PD mismatch")                                     \
    X(c, flags_err, 1, 1, U8, "access flags not allowed")                     \
    X(c, key_err, 2, 2, U8, "key invalid")                                    \
    X(c, length_err, 3, 3, U8, "access outside the region")                   \
    X(c, success, 4, 4, U8, "all checks passed")
IBW_RECORD_FORMAT(ibw_vtp_resp_rtl, IBW_VTP_RESP_RTL_FIELDS, 8,
                  "vtp_resp_rtl", "E4",
                  "address-translation response state, RTL variant",
                  "RTL; address-translation document §2.1 (State)",
                  "RTL variant of vtp_resp (one-hot 8'b000xxxxx)")

/* The documents' code for an RTL response (see ibw_vtp_state_from_rtl).
 * IBW_E_MALFORMED when no outcome bit is set. */
static inline int ibw_vtp_resp_from_rtl(const struct ibw_vtp_resp_rtl *in,
                                        struct ibw_vtp_resp *out)
{
    unsigned bits = (unsigned)((in->pd_err & 1u) | (in->flags_err & 1u) << 1 |
                               (in->key_err & 1u) << 2 |
                               (in->length_err & 1u) << 3 |
                               (in->success & 1u) << 4);
    unsigned code;
    int err = ibw_vtp_state_from_rtl(bits, &code);
    if (err)
        return err;
    out->state = (uint8_t)code;
    return IBW_OK;
}

/* The RTL response (one bit) for a documents' code; IBW_E_RANGE above 4. */
static inline int ibw_vtp_resp_to_rtl(const struct ibw_vtp_resp *in,
                                      struct ibw_vtp_resp_rtl *out)
{
    unsigned bit;
    int err = ibw_vtp_state_to_rtl(in->state, &bit);
    if (err)
        return err;
    out->pd_err = (uint8_t)((bit & IBW_VTP_RTL_PD_ERR) != 0);
    out->flags_err = (uint8_t)((bit & IBW_VTP_RTL_FLAGS_ERR) != 0);
    out->key_err = (uint8_t)((bit & IBW_VTP_RTL_KEY_ERR) != 0);
    out->length_err = (uint8_t)((bit & IBW_VTP_RTL_LENGTH_ERR) != 0);
    out->success = (uint8_t)((bit & IBW_VTP_RTL_SUCCESS) != 0);
    return IBW_OK;
}

/* E5 timer set event, 64 bits. */
#define IBW_TIMER_SET_EVENT_FIELDS(X, c)                                      \
    X(c, opcode, 7, 0, U8, "0x00 set, 0x01 restart, 0xFF stop (enum ibw_timer_opcode)") \
    X(c, qpn, 31, 8, U32, "QP whose timer this is")                           \
    X(c, counter_value, 34, 32, U8, "retry count to load")                    \
    X(c, timer_value, 42, 35, U8, "timer value to load")
IBW_RECORD_FORMAT(ibw_timer_set_event, IBW_TIMER_SET_EVENT_FIELDS, 64,
                  "timer_set_event", "E5",
                  "timer set event (RequesterTransControl/RecvControl -> "
                  "TimerControl)",
                  "HanGu RDMA engine design T7.8, T7.9; T3.7 (64-bit "
                  "interface)",
                  "RTL (the documents' picture is lost; T7.9 names the same "
                  "fields)")

/* E6 timer expire event, 32 bits. */
#define IBW_TIMER_EXPIRE_EVENT_FIELDS(X, c)                                   \
    X(c, event, 7, 0, U8, "0x00 timer expired, 0xFF counter expired (enum ibw_timer_event)") \
    X(c, qpn, 31, 8, U32, "QP whose timer expired")
IBW_RECORD_FORMAT(ibw_timer_expire_event, IBW_TIMER_EXPIRE_EVENT_FIELDS, 32,
                  "timer_expire_event", "E6",
                  "timer expire event (TimerControl -> RequesterRecvControl)",
                  "HanGu RDMA engine design T7.10, T7.11",
                  "documents T7.10 and RTL agree; corrected: T3.7 lists the "
                  "expire interface as 31 bits wide, but the fields need 32")

/* E7 loss-timer and RNR-timer RAM entry, 23 bits. */
#define IBW_TIMER_ENTRY_FIELDS(X, c)                                          \
    X(c, retry_threshold, 2, 0, U8, "retry threshold")                        \
    X(c, retry_count, 5, 3, U8, "retries left")                               \
    X(c, active, 6, 6, U8, "timer running")                                   \
    X(c, set_value, 14, 7, U8, "value the timer is (re)loaded with")          \
    X(c, current_value, 22, 15, U8, "current value")
IBW_RECORD_FORMAT(ibw_timer_entry, IBW_TIMER_ENTRY_FIELDS, 23, "timer_entry",
                  "E7", "loss-timer / RNR-timer RAM entry (16384 per table)",
                  "HanGu RDMA engine design T3.5, T3.6",
                  "documents (both tables alike)")

/* E8 scatter-entry-manager command, 160 bits (canonical = RTL). */
#define IBW_SEM_CMD_FIELDS(X, c)                                              \
    X(c, op, 2, 0, U8, "FETCH 0, UPDATE 1, RELEASE 2, FLUSH 4 (enum ibw_sem_op)") \
    X(c, number, 7, 3, U8, "entries to release")                              \
    X(c, qpn, 31, 8, U32, "QP number")                                        \
    X(c, length, 63, 32, U32, "entry length")                                 \
    X(c, key, 95, 64, U32, "entry key")                                       \
    X(c, va, 159, 96, U64, "entry virtual address")
IBW_RECORD_FORMAT(ibw_sem_cmd, IBW_SEM_CMD_FIELDS, 160, "sem_cmd", "E8",
                  "scatter-entry-manager command (RequesterRecvControl -> "
                  "ScatterEntryManager)",
                  "HanGu RDMA engine design T7.12, T7.13",
                  "RTL (conflict): 3-bit op with FLUSH = 4, Number [7:3], "
                  "then Length, Key, VA. Documents: 2-bit op without FLUSH, "
                  "Number [7:2], then VA, R_Key, Length: sem_cmd_doc, "
                  "converters ibw_sem_cmd_to_doc/_from_doc")

/* E8 the documents' layout (T7.12). */
#define IBW_SEM_CMD_DOC_FIELDS(X, c)                                          \
    X(c, op, 1, 0, U8, "Fetch 0, Update 1, Release 2")                        \
    X(c, number, 7, 2, U8, "entries to release")                              \
    X(c, qpn, 31, 8, U32, "QP number")                                        \
    X(c, va, 95, 32, U64, "entry virtual address")                            \
    X(c, key, 127, 96, U32, "entry R_Key")                                    \
    X(c, length, 159, 128, U32, "entry length")
IBW_RECORD_FORMAT(ibw_sem_cmd_doc, IBW_SEM_CMD_DOC_FIELDS, 160, "sem_cmd_doc",
                  "E8", "scatter-entry-manager command, documents' variant",
                  "HanGu RDMA engine design T7.12, T7.13",
                  "documents' variant of sem_cmd (corrected: T7.13's "
                  "\"2'h10\" for Release read as 2'b10)")

/* sem_cmd -> documents' layout.  IBW_E_RANGE for FLUSH (or any op above 3)
 * and for number above 63. */
static inline int ibw_sem_cmd_to_doc(const struct ibw_sem_cmd *in,
                                     struct ibw_sem_cmd_doc *out)
{
    if (in->op > 3 || in->number > 63)
        return IBW_E_RANGE;
    IBW_SEM_CMD_DOC_FIELDS(IBW__REC_COPY_FIELD, ~)
    return IBW_OK;
}

/* Documents' layout -> sem_cmd.  IBW_E_RANGE when number exceeds the RTL's
 * 5 bits. */
static inline int ibw_sem_cmd_from_doc(const struct ibw_sem_cmd_doc *in,
                                       struct ibw_sem_cmd *out)
{
    if (in->number > 31)
        return IBW_E_RANGE;
    IBW_SEM_CMD_DOC_FIELDS(IBW__REC_COPY_FIELD, ~)
    return IBW_OK;
}

/* E9 scatter-entry-manager response, 160 bits (canonical = RTL). */
#define IBW_SEM_RESP_FIELDS(X, c)                                             \
    X(c, code, 7, 0, U8, "0x00 valid entry, 0x01 invalid entry (enum ibw_entry_resp)") \
    X(c, qpn, 31, 8, U32, "QP number")                                        \
    X(c, length, 63, 32, U32, "entry length")                                 \
    X(c, key, 95, 64, U32, "entry key")                                       \
    X(c, va, 159, 96, U64, "entry virtual address")
IBW_RECORD_FORMAT(ibw_sem_resp, IBW_SEM_RESP_FIELDS, 160, "sem_resp", "E9",
                  "scatter-entry-manager response (ScatterEntryManager -> "
                  "RequesterRecvControl)",
                  "HanGu RDMA engine design T7.14, T7.15",
                  "RTL (conflict found: documents T7.14 order the words VA, "
                  "R_Key, Length: sem_resp_doc, converters "
                  "ibw_sem_resp_to_doc/_from_doc)")

/* E9 and E11 documents' layout: Resp|QPN, VA, Key, Length (T7.14, T7.18). */
#define IBW_ENTRY_RESP_DOC_FIELDS(X, c)                                       \
    X(c, code, 7, 0, U8, "response code (enum ibw_entry_resp)")               \
    X(c, qpn, 31, 8, U32, "QP number")                                        \
    X(c, va, 95, 32, U64, "entry virtual address")                            \
    X(c, key, 127, 96, U32, "entry key")                                      \
    X(c, length, 159, 128, U32, "entry length")
IBW_RECORD_FORMAT(ibw_sem_resp_doc, IBW_ENTRY_RESP_DOC_FIELDS, 160,
                  "sem_resp_doc", "E9",
                  "scatter-entry-manager response, documents' variant",
                  "HanGu RDMA engine design T7.14, T7.15",
                  "documents' variant of sem_resp")

/* ibw_sem_resp_to_doc / _from_doc: the same fields in another order. */
IBW__REC_DOC_CONVERTERS(ibw_sem_resp, IBW_ENTRY_RESP_DOC_FIELDS)

/* E10 receive-WQE-manager command, 256 bits.  Its layout depends on op:
 * rwm_cmd is the common head (all a RELEASE needs), rwm_cmd_fetch and
 * rwm_cmd_update the two full forms. */
#define IBW_RWM_CMD_FIELDS(X, c)                                               \
    X(c, op, 2, 0, U8, "FETCH_ENTRY 0, UPDATE_ENTRY 1, RELEASE_ENTRY 2, RELEASE_WQE 3, FLUSH 4") \
    X(c, qpn, 31, 8, U32, "QP number")
IBW_RECORD_FORMAT(ibw_rwm_cmd, IBW_RWM_CMD_FIELDS, 256, "rwm_cmd", "E10",
                  "receive-WQE-manager command head (ExecutionEngine -> "
                  "RQWQEManager)",
                  "HanGu RDMA engine design T7.16, T7.17",
                  "RTL (conflict found: documents T7.16 carry one 224-bit "
                  "layout with every field: rwm_cmd_doc). The head is what "
                  "RELEASE_ENTRY, RELEASE_WQE and FLUSH carry; FETCH and "
                  "UPDATE use rwm_cmd_fetch and rwm_cmd_update")

#define IBW_RWM_CMD_FETCH_FIELDS(X, c)                                        \
    IBW_RWM_CMD_FIELDS(X, c)                                                   \
    X(c, pd, 63, 32, U32, "RQ protection domain")                             \
    X(c, rq_lkey, 95, 64, U32, "RQ L_Key")                                    \
    X(c, rq_length, 127, 96, U32, "RQ length in bytes")                       \
    X(c, rq_entry_sz_log, 135, 128, U8, "log2 of the RQ entry size")
IBW_RECORD_FORMAT(ibw_rwm_cmd_fetch, IBW_RWM_CMD_FETCH_FIELDS, 256,
                  "rwm_cmd_fetch", "E10",
                  "receive-WQE-manager FETCH_ENTRY command",
                  "HanGu RDMA engine design T7.16, T7.17", "RTL")

#define IBW_RWM_CMD_UPDATE_FIELDS(X, c)                                       \
    IBW_RWM_CMD_FIELDS(X, c)                                                   \
    X(c, length, 63, 32, U32, "remaining entry length")                       \
    X(c, lkey, 95, 64, U32, "entry L_Key")                                    \
    X(c, va, 159, 96, U64, "next entry virtual address")
IBW_RECORD_FORMAT(ibw_rwm_cmd_update, IBW_RWM_CMD_UPDATE_FIELDS, 256,
                  "rwm_cmd_update", "E10",
                  "receive-WQE-manager UPDATE_ENTRY command",
                  "HanGu RDMA engine design T7.16, T7.17", "RTL")

/* E10 the documents' single layout (T7.16), 7 words. */
#define IBW_RWM_CMD_DOC_FIELDS(X, c)                                          \
    X(c, op, 1, 0, U8, "Fetch Entry 0, Update Entry 1, Release Entry 2, Release WQE 3") \
    X(c, qpn, 31, 8, U32, "QP number")                                        \
    X(c, pd, 63, 32, U32, "RQ protection domain (from EE)")                   \
    X(c, rq_lkey, 95, 64, U32, "RQ L_Key (from EE)")                          \
    X(c, entry_va, 159, 96, U64, "entry address (written back by EE)")        \
    X(c, entry_lkey, 191, 160, U32, "entry L_Key (written back by EE)")       \
    X(c, entry_length, 223, 192, U32, "entry length (written back by EE)")
IBW_RECORD_FORMAT(ibw_rwm_cmd_doc, IBW_RWM_CMD_DOC_FIELDS, 224, "rwm_cmd_doc",
                  "E10", "receive-WQE-manager command, documents' variant",
                  "HanGu RDMA engine design T7.16, T7.17",
                  "documents' variant of rwm_cmd_fetch/rwm_cmd_update "
                  "(2-bit op, no FLUSH, no RQ length or entry-size log)")

/* The head both full forms share, in the documents' layout (the rest 0):
 * the documents' op field has no FLUSH, so IBW_E_RANGE for op above 3. */
static inline int ibw__rwm_cmd_doc_head(unsigned op, uint32_t qpn,
                                        struct ibw_rwm_cmd_doc *out)
{
    if (op > 3)
        return IBW_E_RANGE;
    memset(out, 0, sizeof *out);
    out->op = (uint8_t)op;
    out->qpn = qpn;
    return IBW_OK;
}

/* FETCH command -> documents' layout (RQ length and entry-size log have no
 * place there and are dropped).  IBW_E_RANGE for op above 3. */
static inline int ibw_rwm_cmd_fetch_to_doc(const struct ibw_rwm_cmd_fetch *in,
                                           struct ibw_rwm_cmd_doc *out)
{
    if (ibw__rwm_cmd_doc_head(in->op, in->qpn, out) != IBW_OK)
        return IBW_E_RANGE;
    out->pd = in->pd;
    out->rq_lkey = in->rq_lkey;
    return IBW_OK;
}

/* UPDATE command -> documents' layout.  IBW_E_RANGE for op above 3. */
static inline int ibw_rwm_cmd_update_to_doc(const struct ibw_rwm_cmd_update *in,
                                            struct ibw_rwm_cmd_doc *out)
{
    if (ibw__rwm_cmd_doc_head(in->op, in->qpn, out) != IBW_OK)
        return IBW_E_RANGE;
    out->entry_va = in->va;
    out->entry_lkey = in->lkey;
    out->entry_length = in->length;
    return IBW_OK;
}

/* Documents' layout -> the RTL form its op selects: *fetch for Fetch
 * Entry, *update for Update Entry, and the head (in *fetch, other fields 0)
 * for the two releases.  Returns the op. */
static inline unsigned ibw_rwm_cmd_from_doc(const struct ibw_rwm_cmd_doc *in,
                                            struct ibw_rwm_cmd_fetch *fetch,
                                            struct ibw_rwm_cmd_update *update)
{
    memset(fetch, 0, sizeof *fetch);
    memset(update, 0, sizeof *update);
    fetch->op = update->op = in->op;
    fetch->qpn = update->qpn = in->qpn;
    if (in->op == IBW_RWM_FETCH_ENTRY) {
        fetch->pd = in->pd;
        fetch->rq_lkey = in->rq_lkey;
    } else if (in->op == IBW_RWM_UPDATE_ENTRY) {
        update->va = in->entry_va;
        update->lkey = in->entry_lkey;
        update->length = in->entry_length;
    }
    return in->op;
}

/* E11 receive-WQE-manager response, 192 bits (canonical = RTL). */
#define IBW_RWM_RESP_FIELDS(X, c)                                             \
    X(c, code, 7, 0, U8, "0x00 valid entry, 0x01 invalid entry, 0x20 invalid WQE (enum ibw_entry_resp)") \
    X(c, qpn, 31, 8, U32, "QP number")                                        \
    X(c, length, 63, 32, U32, "entry length")                                 \
    X(c, key, 95, 64, U32, "entry key")                                       \
    X(c, va, 159, 96, U64, "entry virtual address")                           \
    X(c, wqe_offset, 191, 160, U32, "offset of the WQE in the RQ")
IBW_RECORD_FORMAT(ibw_rwm_resp, IBW_RWM_RESP_FIELDS, 192, "rwm_resp", "E11",
                  "receive-WQE-manager response (RQWQEManager -> "
                  "ExecutionEngine)",
                  "HanGu RDMA engine design T7.18, T7.19",
                  "RTL (conflict found: documents T7.18 have 160 bits, words "
                  "Resp|QPN, VA, RKey, Length, no WQE offset: rwm_resp_doc, "
                  "converters ibw_rwm_resp_to_doc/_from_doc; T7.19's "
                  "\"8'h020\" read as 0x20)")

IBW_RECORD_FORMAT(ibw_rwm_resp_doc, IBW_ENTRY_RESP_DOC_FIELDS, 160,
                  "rwm_resp_doc", "E11",
                  "receive-WQE-manager response, documents' variant",
                  "HanGu RDMA engine design T7.18, T7.19",
                  "documents' variant of rwm_resp")

/* ibw_rwm_resp_to_doc / _from_doc: the WQE offset has no place in the
 * documents' layout (dropped; 0 coming back). */
IBW__REC_DOC_CONVERTERS(ibw_rwm_resp, IBW_ENTRY_RESP_DOC_FIELDS)

#ifdef __cplusplus
}
#endif

#endif /* IBWIRE_RECORDS_CMD_H */
