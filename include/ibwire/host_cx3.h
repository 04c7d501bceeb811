/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ibwire/host_cx3.h - the ConnectX-3 host interface of the UESTC thesis
 * (2017): the GMP send WQE (catalog H3), the CQE (H4), the HCR command
 * register (H5) and the UAR doorbell registers (H6).  All big-endian 32-bit
 * words, so these are wire-order formats (IBA bit numbering: bit 0 = MSB of
 * byte 0).
 *
 * Which source decided what:
 *   - UESTC thesis (2017) fig. 4-15/4-16/4-17/4-19 and fig. 2-3 name the
 *     fields; the text extraction lost the column positions, so the bit
 *     positions are mlx4's (mthca-mlx4-layouts.md §4-§7: mlx4_wqe_mlx_seg
 *     overlays the control segment of an MLX send WQE, mlx4_wqe_data_seg,
 *     mlx4_cqe / mlx4_ts_cqe / mlx4_err_cqe, MLX4_SEND_DOORBELL /
 *     MLX4_CQ_DOORBELL, the HCR of cmd.c).
 *   - The HCR's op_modifier width [19:12] is the HanGu document's (table
 *     3-1-4); mlx4 shifts it by 12 too.
 *   - fig. 4-15's "F L" is read as FL, force loopback, bit 0 (mlx4's
 *     "[0] FL"); the figure's narrow 1-bit column split the label.
 *   - fig. 4-19 puts SMAC[31:0] at 0x10 and Timestamp[15:0] next to the
 *     owner byte: the RoCE union of mlx4_cqe with mlx4_ts_cqe's timestamp.
 *     0x0E-0x0F is the remote LID on IB, SMAC[47:32] on RoCE.
 */
#ifndef IBWIRE_HOST_CX3_H
#define IBWIRE_HOST_CX3_H

#include "base.h"
#include "host_cqe.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* H3 GMP send WQE                                                           */
/* ------------------------------------------------------------------------ */

/* Control segment of the MLX (QP0/QP1) send WQE, 16 bytes (fig. 4-15). */
#define IBW_CX3_GMP_CTRL_FIELDS(X, c)                                        \
    X(c, owner, 0, 0, 1, U8, "owner: toggles on every pass over the SQ")     \
    X(c, resv0, 0, 1, 26, U32, "reserved")                                   \
    X(c, opcode, 3, 3, 5, U8, "opcode, 01010 (SEND) for a GMP")              \
    X(c, resv1, 4, 0, 26, U32, "reserved")                                   \
    X(c, ds, 7, 2, 6, U8, "WQE size in 16-byte units (DS)")                  \
    X(c, resv2, 8, 0, 14, U16, "reserved")                                   \
    X(c, vl15, 9, 6, 1, U8, "V: send on VL15 (QP0)")                         \
    X(c, slr, 9, 7, 1, U8, "SLR: take the SLID from the port, not the LRH")  \
    X(c, max_stat_rate, 10, 0, 4, U8, "maximum static rate")                 \
    X(c, sl, 10, 4, 4, U8, "service level")                                  \
    X(c, resv3, 11, 0, 3, U8, "reserved")                                    \
    X(c, icrc, 11, 3, 1, U8, "icrc: hardware computes the ICRC")             \
    X(c, cq_update, 11, 4, 2, U8, "C: 3 = write a CQE on completion")        \
    X(c, resv4, 11, 6, 1, U8, "reserved")                                    \
    X(c, fl, 11, 7, 1, U8, "FL: force loopback")                             \
    X(c, rlid, 12, 0, 16, U16, "RLID: remote LID")                           \
    X(c, resv5, 14, 0, 16, U16, "reserved")
IBW_WIRE_FORMAT(ibw_cx3_gmp_ctrl, IBW_CX3_GMP_CTRL_FIELDS, 16, "cx3_gmp_ctrl",
                "H3", "ConnectX-3 GMP send WQE control segment",
                "UESTC thesis (2017) fig. 4-15",
                "mlx4_wqe_mlx_seg overlaying mlx4_wqe_ctrl_seg; FL at bit 0")

/* Data segment, 16 bytes (fig. 4-16). */
#define IBW_CX3_DATA_FIELDS(X, c)                                            \
    X(c, inline_flag, 0, 0, 1, U8, "0: pointer segment (1: inline)")         \
    X(c, byte_count, 0, 1, 31, U32, "bytes to send (256 for a GMP)")         \
    X(c, lkey, 4, 0, 32, U32, "L_Key of the buffer")                         \
    X(c, addr, 8, 0, 64, U64, "local address")
IBW_WIRE_FORMAT(ibw_cx3_data, IBW_CX3_DATA_FIELDS, 16, "cx3_data", "H3",
                "ConnectX-3 send WQE data segment",
                "UESTC thesis (2017) fig. 4-16",
                "mlx4_wqe_data_seg")

#define IBW_CX3_OPCODE_SEND 0x0Au /* fig. 4-15: 01010 */
/* UESTC thesis (2017) §2.3: a GMP is 256 bytes */
#define IBW_CX3_GMP_BYTES 256u

/* What a GMP send needs (UESTC thesis (2017) §4.3.1.4). */
struct ibw_cx3_gmp_req {
    uint8_t owner;         /* owner bit for this pass over the SQ */
    uint8_t vl15;          /* QP0 */
    uint8_t slr;
    uint8_t max_stat_rate;
    uint8_t sl;
    uint8_t icrc;
    uint8_t signaled;      /* request a CQE (C = 3) */
    uint16_t rlid;
    uint32_t lkey;
    uint64_t addr;         /* where the 256-byte MAD lies */
};

/* The 32-byte GMP send WQE (control + one data segment, DS = 2) for r.
 * IBW_E_NOSPACE when len < 32. */
static inline int ibw_cx3_gmp_wqe_build(const struct ibw_cx3_gmp_req *r,
                                        uint8_t *out, size_t len)
{
    struct ibw_cx3_gmp_ctrl ctl;
    struct ibw_cx3_data d;
    if (len < 32)
        return IBW_E_NOSPACE;
    memset(&ctl, 0, sizeof ctl);
    memset(&d, 0, sizeof d);
    ctl.owner = r->owner & 1u;
    ctl.opcode = IBW_CX3_OPCODE_SEND;
    ctl.ds = 2;
    ctl.vl15 = r->vl15 & 1u;
    ctl.slr = r->slr & 1u;
    ctl.max_stat_rate = r->max_stat_rate & 0xFu;
    ctl.sl = r->sl & 0xFu;
    ctl.icrc = r->icrc & 1u;
    ctl.cq_update = r->signaled ? 3u : 0u;
    ctl.rlid = r->rlid;
    d.byte_count = IBW_CX3_GMP_BYTES;
    d.lkey = r->lkey;
    d.addr = r->addr;
    ibw_cx3_gmp_ctrl_encode(&ctl, out, 16);
    return ibw_cx3_data_encode(&d, out + 16, 16);
}

/* ------------------------------------------------------------------------ */
/* H4 ConnectX-3 CQE                                                         */
/* ------------------------------------------------------------------------ */

#define IBW_CX3_CQE_FIELDS(X, c)                                             \
    X(c, vlan_flags, 0, 0, 8, U8,                                            \
      "[7] L2 tunnel IPOK, [6] SVLAN, [5] CVLAN, [3:1] tunnel flags")        \
    X(c, my_qpn, 1, 0, 24, U32, "local QP number")                           \
    X(c, immed, 4, 0, 32, U32, "immediate / invalidated R_Key / RSS hash")   \
    X(c, g, 8, 0, 1, U8, "GRH present")                                      \
    X(c, mlpath, 8, 1, 7, U8, "DLID path bits")                              \
    X(c, rqpn, 9, 0, 24, U32, "remote QP number")                            \
    X(c, sl, 12, 0, 4, U8, "service level (Ethernet: priority in [3:1])")    \
    X(c, vid, 12, 4, 12, U16, "VLAN ID (Ethernet)")                          \
    X(c, rlid, 14, 0, 16, U16, "remote LID (IB) / SMAC[47:32] (RoCE)")       \
    X(c, smac_lo, 16, 0, 32, U32, "SMAC[31:0] (RoCE; IB: status flags)")     \
    X(c, byte_cnt, 20, 0, 32, U32, "bytes transferred")                      \
    X(c, wqe_counter, 24, 0, 16, U16, "index of the completed WQE")          \
    X(c, checksum, 26, 0, 16, U16, "IP/TCP checksum")                        \
    X(c, resv, 28, 0, 8, U8, "reserved")                                     \
    X(c, timestamp, 29, 0, 16, U16, "Timestamp[15:0]")                       \
    X(c, owner, 31, 0, 1, U8, "owner: toggles on every pass over the CQ")    \
    X(c, sr, 31, 1, 1, U8, "S/R: 1 = send completion")                       \
    X(c, is, 31, 2, 1, U8, "inline scatter (fig. 4-19 'LS')")                \
    X(c, opcode, 31, 3, 5, U8, "opcode; 11110 = error CQE")
IBW_WIRE_FORMAT(ibw_cx3_cqe, IBW_CX3_CQE_FIELDS, 32, "cx3_cqe", "H4",
                "ConnectX-3 CQE", "UESTC thesis (2017) fig. 4-19",
                "rows 0x10-0x1C from fig. 4-19; rows 0x00-0x0C and bit "
                "positions from mlx4_cqe / mlx4_ts_cqe")

#define IBW_CX3_ERR_CQE_FIELDS(X, c)                                         \
    X(c, my_qpn, 0, 0, 32, U32, "local QP number")                           \
    X(c, resv1, 4, 0, 160, BYTES, "reserved")                                \
    X(c, wqe_counter, 24, 0, 16, U16, "index of the failed WQE")             \
    X(c, vendor_err, 26, 0, 8, U8, "vendor error syndrome")                  \
    X(c, syndrome, 27, 0, 8, U8, "completion code (enum ibw_cqe_syndrome)")  \
    X(c, resv2, 28, 0, 24, U32, "reserved")                                  \
    X(c, owner, 31, 0, 1, U8, "owner")                                       \
    X(c, sr, 31, 1, 1, U8, "S/R: 1 = send")                                  \
    X(c, is, 31, 2, 1, U8, "reserved in an error CQE")                       \
    X(c, opcode, 31, 3, 5, U8, "11110 (IBW_CX3_CQE_OPCODE_ERROR)")
IBW_WIRE_FORMAT(ibw_cx3_err_cqe, IBW_CX3_ERR_CQE_FIELDS, 32, "cx3_err_cqe",
                "H4", "ConnectX-3 error CQE",
                "UESTC thesis (2017) fig. 4-19 (11110)",
                "mlx4_err_cqe")

#define IBW_CX3_CQE_OPCODE_ERROR 0x1Eu  /* fig. 4-19: 11110 */
#define IBW_CX3_CQE_OPCODE_RESIZE 0x16u

/* Receive CQE opcodes (MLX4_RECV_OPCODE_*). */
enum ibw_cx3_recv_opcode {
    IBW_CX3_RECV_RDMA_WRITE_IMM = 0x00,
    IBW_CX3_RECV_SEND = 0x01,
    IBW_CX3_RECV_SEND_IMM = 0x02,
    IBW_CX3_RECV_SEND_INV = 0x03
};

/*
 * A ConnectX-3 CQE (32 bytes) as a work completion; the owner bit is not
 * looked at.  wr_id is left 0: look it up from wc->wqe (the WQE counter).
 * Returns IBW_E_TRUNCATED when len < 32, IBW_E_OPCODE for an opcode no
 * completion has.
 */
static inline int ibw_cx3_cqe_to_wc(const uint8_t *p, size_t len,
                                    struct ibw_wc *wc)
{
    struct ibw_cx3_cqe c;
    int err = ibw_cx3_cqe_decode(p, len, &c);
    if (err)
        return err;
    memset(wc, 0, sizeof *wc);
    wc->qp_num = c.my_qpn;
    wc->wqe = c.wqe_counter;
    if (c.opcode == IBW_CX3_CQE_OPCODE_ERROR) {
        struct ibw_cx3_err_cqe e;
        ibw_cx3_err_cqe_decode(p, len, &e);
        wc->qp_num = e.my_qpn & 0xFFFFFFu;
        return ibw__wc_fill_error(wc, e.syndrome, e.vendor_err, e.sr);
    }
    wc->status = IBW_WC_SUCCESS;
    wc->byte_len = c.byte_cnt;
    if (c.sr)
        return ibw_wc_opcode_from_wqe(c.opcode, &wc->opcode);
    ibw__wc_fill_source(wc, c.rqpn, c.rlid, c.sl, c.mlpath, c.g);
    switch (c.opcode) {
    case IBW_CX3_RECV_RDMA_WRITE_IMM:
        wc->opcode = IBW_WC_RECV_RDMA_WITH_IMM;
        wc->wc_flags |= IBW_WC_WITH_IMM;
        break;
    case IBW_CX3_RECV_SEND:
        wc->opcode = IBW_WC_RECV;
        break;
    case IBW_CX3_RECV_SEND_IMM:
        wc->opcode = IBW_WC_RECV;
        wc->wc_flags |= IBW_WC_WITH_IMM;
        break;
    case IBW_CX3_RECV_SEND_INV:
        wc->opcode = IBW_WC_RECV;
        wc->wc_flags |= IBW_WC_WITH_INV;
        break;
    default:
        return IBW_E_OPCODE;
    }
    if (wc->wc_flags & (IBW_WC_WITH_IMM | IBW_WC_WITH_INV))
        wc->imm_data = c.immed;
    else
        wc->pkey_index = (uint16_t)(c.immed & 0x7Fu); /* as mlx4 reads it */
    return IBW_OK;
}

/* ------------------------------------------------------------------------ */
/* H5 HCR command register                                                   */
/* ------------------------------------------------------------------------ */

/* Seven big-endian 32-bit words (fig. 2-3, T2-2), 28 bytes. */
#define IBW_HCR_FIELDS(X, c)                                                 \
    X(c, in_param, 0, 0, 64, U64, "input parameter or input mailbox address") \
    X(c, in_modifier, 8, 0, 32, U32, "input modifier (e.g. the QPN)")        \
    X(c, out_param, 12, 0, 64, U64,                                          \
      "output parameter or output mailbox address")                          \
    X(c, token, 20, 0, 16, U16, "token; 0xFFFF when polling")                \
    X(c, resv0, 22, 0, 16, U16, "reserved")                                  \
    X(c, status, 24, 0, 8, U8, "completion status (read)")                   \
    X(c, go, 25, 0, 1, U8, "go: 1 while the HCA executes the command")       \
    X(c, e, 25, 1, 1, U8, "e: report completion through an EQ")             \
    X(c, t, 25, 2, 1, U8, "t: toggles with every new command")              \
    X(c, resv1, 25, 3, 1, U8, "reserved")                                    \
    X(c, op_modifier, 25, 4, 8, U8, "opcode modifier")                       \
    X(c, opcode, 26, 4, 12, U16, "command opcode (enum ibw_hcr_opcode)")
IBW_WIRE_FORMAT(ibw_hcr, IBW_HCR_FIELDS, 28, "hcr", "H5",
                "HCA Command Register",
                "UESTC thesis (2017) fig. 2-3, table 2-2",
                "mlx4 cmd.c HCR (GO bit 23, E 22, T 21, op_modifier << 12); "
                "op_modifier width from hw/sw interface table 3-1-4")

/* Byte offsets inside the HCR (mlx4 HCR_*_OFFSET) and where it sits. */
enum {
    IBW_HCR_IN_PARAM_OFFSET = 0x00,
    IBW_HCR_IN_MODIFIER_OFFSET = 0x08,
    IBW_HCR_OUT_PARAM_OFFSET = 0x0C,
    IBW_HCR_TOKEN_OFFSET = 0x14,
    IBW_HCR_STATUS_OFFSET = 0x18
};
#define IBW_HCR_BASE_MLX4 0x80680u  /* BAR0 offset on ConnectX-3 */
#define IBW_HCR_BASE_HANGU 0x80000u /* BAR0 offset on HanGu (table 3-1-2) */
#define IBW_HCR_POLL_TOKEN 0xFFFFu

/* Command opcodes: mthca/mlx4 values; the HanGu document (table 3-2-1)
 * uses the same numbers for the commands it has. */
enum ibw_hcr_opcode {
    IBW_HCR_OP_QUERY_DEV_LIM = 0x003,
    IBW_HCR_OP_QUERY_ADAPTER = 0x006,
    IBW_HCR_OP_INIT_HCA = 0x007,
    IBW_HCR_OP_CLOSE_HCA = 0x008,
    IBW_HCR_OP_SET_PORT = 0x00C,
    IBW_HCR_OP_SW2HW_MPT = 0x00D,
    IBW_HCR_OP_QUERY_MPT = 0x00E,
    IBW_HCR_OP_HW2SW_MPT = 0x00F,
    IBW_HCR_OP_READ_MTT = 0x010,
    IBW_HCR_OP_WRITE_MTT = 0x011,
    IBW_HCR_OP_MAP_EQ = 0x012,
    IBW_HCR_OP_SW2HW_EQ = 0x013,
    IBW_HCR_OP_HW2SW_EQ = 0x014,
    IBW_HCR_OP_QUERY_EQ = 0x015,
    IBW_HCR_OP_SW2HW_CQ = 0x016,
    IBW_HCR_OP_HW2SW_CQ = 0x017,
    IBW_HCR_OP_QUERY_CQ = 0x018,
    IBW_HCR_OP_RST2INIT_QP = 0x019,
    IBW_HCR_OP_INIT2RTR_QP = 0x01A,
    IBW_HCR_OP_RTR2RTS_QP = 0x01B,
    IBW_HCR_OP_RTS2RTS_QP = 0x01C,
    IBW_HCR_OP_SQERR2RTS_QP = 0x01D,
    IBW_HCR_OP_2ERR_QP = 0x01E,
    IBW_HCR_OP_RTS2SQD_QP = 0x01F,
    IBW_HCR_OP_SQD2RTS_QP = 0x020,
    IBW_HCR_OP_2RST_QP = 0x021, /* HanGu: ERR2RST_QPEE */
    IBW_HCR_OP_QUERY_QP = 0x022,
    IBW_HCR_OP_CONF_SPECIAL_QP = 0x023,
    IBW_HCR_OP_MAD_IFC = 0x024,
    IBW_HCR_OP_READ_MCG = 0x025,
    IBW_HCR_OP_WRITE_MCG = 0x026,
    IBW_HCR_OP_MGID_HASH = 0x027,
    IBW_HCR_OP_RESIZE_CQ = 0x02C, /* mlx4: MODIFY_CQ */
    IBW_HCR_OP_INIT2INIT_QP = 0x02D,
    IBW_HCR_OP_SYNC_TPT = 0x02F,
    IBW_HCR_OP_DIAG_RPRT = 0x030,
    IBW_HCR_OP_NOP = 0x031,
    IBW_HCR_OP_SW2HW_SRQ = 0x035,
    IBW_HCR_OP_HW2SW_SRQ = 0x036,
    IBW_HCR_OP_QUERY_SRQ = 0x037,
    IBW_HCR_OP_SQD2SQD_QP = 0x038,
    IBW_HCR_OP_ARM_SRQ = 0x040,
    IBW_HCR_OP_QUERY_PORT = 0x043,
    IBW_HCR_OP_UNMAP_ICM = 0xFF9,
    IBW_HCR_OP_MAP_ICM = 0xFFA,
    IBW_HCR_OP_UNMAP_ICM_AUX = 0xFFB,
    IBW_HCR_OP_MAP_ICM_AUX = 0xFFC,
    IBW_HCR_OP_SET_ICM_SIZE = 0xFFD
};

/* Static name of a command opcode ("RST2INIT_QP", ...), or NULL if unknown. */
static inline const char *ibw_hcr_opcode_name(unsigned op)
{
    switch (op) {
    case IBW_HCR_OP_QUERY_DEV_LIM: return "QUERY_DEV_LIM";
    case IBW_HCR_OP_QUERY_ADAPTER: return "QUERY_ADAPTER";
    case IBW_HCR_OP_INIT_HCA: return "INIT_HCA";
    case IBW_HCR_OP_CLOSE_HCA: return "CLOSE_HCA";
    case IBW_HCR_OP_SET_PORT: return "SET_PORT";
    case IBW_HCR_OP_SW2HW_MPT: return "SW2HW_MPT";
    case IBW_HCR_OP_QUERY_MPT: return "QUERY_MPT";
    case IBW_HCR_OP_HW2SW_MPT: return "HW2SW_MPT";
    case IBW_HCR_OP_READ_MTT: return "READ_MTT";
    case IBW_HCR_OP_WRITE_MTT: return "WRITE_MTT";
    case IBW_HCR_OP_MAP_EQ: return "MAP_EQ";
    case IBW_HCR_OP_SW2HW_EQ: return "SW2HW_EQ";
    case IBW_HCR_OP_HW2SW_EQ: return "HW2SW_EQ";
    case IBW_HCR_OP_QUERY_EQ: return "QUERY_EQ";
    case IBW_HCR_OP_SW2HW_CQ: return "SW2HW_CQ";
    case IBW_HCR_OP_HW2SW_CQ: return "HW2SW_CQ";
    case IBW_HCR_OP_QUERY_CQ: return "QUERY_CQ";
    case IBW_HCR_OP_RST2INIT_QP: return "RST2INIT_QP";
    case IBW_HCR_OP_INIT2RTR_QP: return "INIT2RTR_QP";
    case IBW_HCR_OP_RTR2RTS_QP: return "RTR2RTS_QP";
    case IBW_HCR_OP_RTS2RTS_QP: return "RTS2RTS_QP";
    case IBW_HCR_OP_SQERR2RTS_QP: return "SQERR2RTS_QP";
    case IBW_HCR_OP_2ERR_QP: return "2ERR_QP";
    case IBW_HCR_OP_RTS2SQD_QP: return "RTS2SQD_QP";
    case IBW_HCR_OP_SQD2RTS_QP: return "SQD2RTS_QP";
    case IBW_HCR_OP_2RST_QP: return "2RST_QP";
    case IBW_HCR_OP_QUERY_QP: return "QUERY_QP";
    case IBW_HCR_OP_CONF_SPECIAL_QP: return "CONF_SPECIAL_QP";
    case IBW_HCR_OP_MAD_IFC: return "MAD_IFC";
    case IBW_HCR_OP_READ_MCG: return "READ_MCG";
    case IBW_HCR_OP_WRITE_MCG: return "WRITE_MCG";
    case IBW_HCR_OP_MGID_HASH: return "MGID_HASH";
    case IBW_HCR_OP_RESIZE_CQ: return "RESIZE_CQ";
    case IBW_HCR_OP_INIT2INIT_QP: return "INIT2INIT_QP";
    case IBW_HCR_OP_SYNC_TPT: return "SYNC_TPT";
    case IBW_HCR_OP_DIAG_RPRT: return "DIAG_RPRT";
    case IBW_HCR_OP_NOP: return "NOP";
    case IBW_HCR_OP_SW2HW_SRQ: return "SW2HW_SRQ";
    case IBW_HCR_OP_HW2SW_SRQ: return "HW2SW_SRQ";
    case IBW_HCR_OP_QUERY_SRQ: return "QUERY_SRQ";
    case IBW_HCR_OP_SQD2SQD_QP: return "SQD2SQD_QP";
    case IBW_HCR_OP_ARM_SRQ: return "ARM_SRQ";
    case IBW_HCR_OP_QUERY_PORT: return "QUERY_PORT";
    case IBW_HCR_OP_UNMAP_ICM: return "UNMAP_ICM";
    case IBW_HCR_OP_MAP_ICM: return "MAP_ICM";
    case IBW_HCR_OP_UNMAP_ICM_AUX: return "UNMAP_ICM_AUX";
    case IBW_HCR_OP_MAP_ICM_AUX: return "MAP_ICM_AUX";
    case IBW_HCR_OP_SET_ICM_SIZE: return "SET_ICM_SIZE";
    default: return NULL;
    }
}

/* QP states in verbs numbering (IBV_QPS_*).  The hardware codes differ:
 * mthca/mlx4 contexts use SQE 4, SQD 5; the HanGu RTL SQD 4, SQE 5. */
enum ibw_hcr_qp_state {
    IBW_HCR_QPS_RESET = 0,
    IBW_HCR_QPS_INIT = 1,
    IBW_HCR_QPS_RTR = 2,
    IBW_HCR_QPS_RTS = 3,
    IBW_HCR_QPS_SQD = 4,
    IBW_HCR_QPS_SQE = 5,
    IBW_HCR_QPS_ERR = 6
};

/*
 * The command that moves a QP from state `from` to `to` (enum
 * ibw_hcr_qp_state), per the transitions the HanGu document's table A1-2
 * and IBA allow (any state -> RESET or ERR).  *op = 0 for RESET -> RESET,
 * which needs no command.  IBW_E_RANGE for a transition IBA forbids.
 */
static inline int ibw_hcr_modify_qp_opcode(unsigned from, unsigned to,
                                           uint16_t *op)
{
    if (from > IBW_HCR_QPS_ERR || to > IBW_HCR_QPS_ERR)
        return IBW_E_RANGE;
    if (to == IBW_HCR_QPS_RESET) {
        *op = from == IBW_HCR_QPS_RESET ? 0 : IBW_HCR_OP_2RST_QP;
        return IBW_OK;
    }
    if (to == IBW_HCR_QPS_ERR) {
        *op = IBW_HCR_OP_2ERR_QP;
        return IBW_OK;
    }
    uint16_t r = 0;
    switch (from * 8 + to) {
    case IBW_HCR_QPS_RESET * 8 + IBW_HCR_QPS_INIT: r = IBW_HCR_OP_RST2INIT_QP; break;
    case IBW_HCR_QPS_INIT * 8 + IBW_HCR_QPS_INIT: r = IBW_HCR_OP_INIT2INIT_QP; break;
    case IBW_HCR_QPS_INIT * 8 + IBW_HCR_QPS_RTR: r = IBW_HCR_OP_INIT2RTR_QP; break;
    case IBW_HCR_QPS_RTR * 8 + IBW_HCR_QPS_RTS: r = IBW_HCR_OP_RTR2RTS_QP; break;
    case IBW_HCR_QPS_RTS * 8 + IBW_HCR_QPS_RTS: r = IBW_HCR_OP_RTS2RTS_QP; break;
    case IBW_HCR_QPS_RTS * 8 + IBW_HCR_QPS_SQD: r = IBW_HCR_OP_RTS2SQD_QP; break;
    case IBW_HCR_QPS_SQD * 8 + IBW_HCR_QPS_RTS: r = IBW_HCR_OP_SQD2RTS_QP; break;
    case IBW_HCR_QPS_SQD * 8 + IBW_HCR_QPS_SQD: r = IBW_HCR_OP_SQD2SQD_QP; break;
    case IBW_HCR_QPS_SQE * 8 + IBW_HCR_QPS_RTS: r = IBW_HCR_OP_SQERR2RTS_QP; break;
    default: return IBW_E_RANGE;
    }
    *op = r;
    return IBW_OK;
}

/* HCR status codes of ConnectX-3 (mlx4 CMD_STAT_*). */
enum ibw_hcr_status {
    IBW_HCR_STAT_OK = 0x00,
    IBW_HCR_STAT_INTERNAL_ERR = 0x01,
    IBW_HCR_STAT_BAD_OP = 0x02,
    IBW_HCR_STAT_BAD_PARAM = 0x03,
    IBW_HCR_STAT_BAD_SYS_STATE = 0x04,
    IBW_HCR_STAT_BAD_RESOURCE = 0x05,
    IBW_HCR_STAT_RESOURCE_BUSY = 0x06,
    IBW_HCR_STAT_EXCEED_LIM = 0x08,
    IBW_HCR_STAT_BAD_RES_STATE = 0x09,
    IBW_HCR_STAT_BAD_INDEX = 0x0A,
    IBW_HCR_STAT_BAD_NVMEM = 0x0B,
    IBW_HCR_STAT_ICM_ERROR = 0x0C,
    IBW_HCR_STAT_BAD_QP_STATE = 0x10,
    IBW_HCR_STAT_BAD_SEG_PARAM = 0x20,
    IBW_HCR_STAT_REG_BOUND = 0x21,
    IBW_HCR_STAT_LAM_NOT_PRE = 0x22,
    IBW_HCR_STAT_BAD_PKT = 0x30,
    IBW_HCR_STAT_BAD_SIZE = 0x40,
    IBW_HCR_STAT_MULTI_FUNC_REQ = 0x50
};

/* HanGu's HCR status codes (hw/sw interface table 3-1-5): 0x05 is
 * BAD_NVMEM here, BAD_RESOURCE on ConnectX-3. */
enum ibw_hg_hcr_status {
    IBW_HG_HCR_STAT_OK = 0x00,
    IBW_HG_HCR_STAT_BAD_OP = 0x02,
    IBW_HG_HCR_STAT_BAD_PARAM = 0x03,
    IBW_HG_HCR_STAT_BAD_SYS_STATE = 0x04,
    IBW_HG_HCR_STAT_BAD_NVMEM = 0x05
};

/* Static name of a ConnectX-3 HCR status, or NULL if unknown. */
static inline const char *ibw_hcr_status_name(unsigned s)
{
    switch (s) {
    case IBW_HCR_STAT_OK: return "OK";
    case IBW_HCR_STAT_INTERNAL_ERR: return "INTERNAL_ERR";
    case IBW_HCR_STAT_BAD_OP: return "BAD_OP";
    case IBW_HCR_STAT_BAD_PARAM: return "BAD_PARAM";
    case IBW_HCR_STAT_BAD_SYS_STATE: return "BAD_SYS_STATE";
    case IBW_HCR_STAT_BAD_RESOURCE: return "BAD_RESOURCE";
    case IBW_HCR_STAT_RESOURCE_BUSY: return "RESOURCE_BUSY";
    case IBW_HCR_STAT_EXCEED_LIM: return "EXCEED_LIM";
    case IBW_HCR_STAT_BAD_RES_STATE: return "BAD_RES_STATE";
    case IBW_HCR_STAT_BAD_INDEX: return "BAD_INDEX";
    case IBW_HCR_STAT_BAD_NVMEM: return "BAD_NVMEM";
    case IBW_HCR_STAT_ICM_ERROR: return "ICM_ERROR";
    case IBW_HCR_STAT_BAD_QP_STATE: return "BAD_QP_STATE";
    case IBW_HCR_STAT_BAD_SEG_PARAM: return "BAD_SEG_PARAM";
    case IBW_HCR_STAT_REG_BOUND: return "REG_BOUND";
    case IBW_HCR_STAT_LAM_NOT_PRE: return "LAM_NOT_PRE";
    case IBW_HCR_STAT_BAD_PKT: return "BAD_PKT";
    case IBW_HCR_STAT_BAD_SIZE: return "BAD_SIZE";
    case IBW_HCR_STAT_MULTI_FUNC_REQ: return "MULTI_FUNC_REQ";
    default: return NULL;
    }
}

/* Static name of a HanGu HCR status, or NULL if unknown. */
static inline const char *ibw_hg_hcr_status_name(unsigned s)
{
    switch (s) {
    case IBW_HG_HCR_STAT_OK: return "OK";
    case IBW_HG_HCR_STAT_BAD_OP: return "BAD_OP";
    case IBW_HG_HCR_STAT_BAD_PARAM: return "BAD_PARAM";
    case IBW_HG_HCR_STAT_BAD_SYS_STATE: return "BAD_SYS_STATE";
    case IBW_HG_HCR_STAT_BAD_NVMEM: return "BAD_NVMEM";
    default: return NULL;
    }
}

/* True while the HCR (28 bytes at p) may not take a command: go is set,
 * or t still equals the driver's toggle (mlx4 cmd_pending). */
static inline int ibw_hcr_busy(const uint8_t *p, unsigned toggle)
{
    return ibw_hcr_get_go(p) || ibw_hcr_get_t(p) == (toggle & 1u);
}

/* ------------------------------------------------------------------------ */
/* H6 UAR doorbell registers                                                 */
/* ------------------------------------------------------------------------ */

enum {
    IBW_UAR_SEND_DB_OFFSET = 0x14, /* fig. 4-17, MLX4_SEND_DOORBELL */
    IBW_UAR_CQ_DB_OFFSET = 0x20,   /* fig. 4-17, MLX4_CQ_DOORBELL */
    IBW_UAR_CQ_CI_OFFSET = 0x24
};

/* Send doorbell at UAR + 0x14, one 32-bit big-endian write. */
#define IBW_UAR_SEND_DB_FIELDS(X, c)                                         \
    X(c, qpn, 0, 0, 24, U32, "send queue (QP) number")                       \
    X(c, resv, 3, 0, 8, U8, "reserved")
IBW_WIRE_FORMAT(ibw_uar_send_db, IBW_UAR_SEND_DB_FIELDS, 4, "uar_send_db",
                "H6", "UAR send doorbell (offset 0x14)",
                "UESTC thesis (2017) fig. 4-17",
                "mlx4: BE32(qpn << 8)")

/* CQ doorbell at UAR + 0x20 (command word) and 0x24 (consumer index),
 * written as one 64-bit big-endian store. */
#define IBW_UAR_CQ_DB_FIELDS(X, c)                                           \
    X(c, resv0, 0, 0, 2, U8, "reserved")                                     \
    X(c, cmd_sn, 0, 2, 2, U8, "Cmdsn: arm sequence number")                  \
    X(c, resv1, 0, 4, 1, U8, "reserved")                                     \
    X(c, cmd, 0, 5, 3, U8, "Cmd (enum ibw_cx3_cq_db_cmd)")                   \
    X(c, cqn, 1, 0, 24, U32, "CQ number")                                    \
    X(c, resv2, 4, 0, 8, U8, "reserved")                                     \
    X(c, cq_ci, 5, 0, 24, U32, "cq_ci: consumer index")
IBW_WIRE_FORMAT(ibw_uar_cq_db, IBW_UAR_CQ_DB_FIELDS, 8, "uar_cq_db", "H6",
                "UAR CQ doorbell (offsets 0x20, 0x24)",
                "UESTC thesis (2017) fig. 4-17",
                "mlx4: [0] = sn << 28 | cmd | cqn, [1] = cons_index & 0xffffff")

/* CQ doorbell commands (MLX4_CQ_DB_REQ_NOT*, cmd field value). */
enum ibw_cx3_cq_db_cmd {
    IBW_CX3_CQ_DB_REQ_NOT_SOL = 1, /* arm: next solicited completion */
    IBW_CX3_CQ_DB_REQ_NOT = 2      /* arm: next completion */
};

#ifdef __cplusplus
}
#endif

#endif /* IBWIRE_HOST_CX3_H */
