/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ibwire/records_meta.h - engine records E12-E20: the metadata that travels
 * along the send path (DoorbellProcessing -> WQEScheduler -> WQEParser ->
 * DataPack -> RequesterTransControl -> ReqPktGen) and the receive path
 * (HeaderParser -> RequesterRecvControl / ExecutionEngine -> RespPktGen).
 *
 * Header metadata (E18, E19) holds packet headers the way the RTL's header
 * buses do: header dword i (wire bytes 4i..4i+3) in bits [32i+31:32i], the
 * first wire byte of each dword in its top byte.  So the BTH opcode is bits
 * [31:24].  ibw_bus_from_wire_bytes()/ibw_bus_to_wire_bytes() convert
 * between wire bytes and such a bus.
 */
#ifndef IBWIRE_RECORDS_META_H
#define IBWIRE_RECORDS_META_H

#include "base.h"
#include "records_codes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* E12 DoorbellProcessing -> WQEScheduler -> WQEParser metadata, 256 bits. */
#define IBW_DB_META_FIELDS(X, c)                                              \
    X(c, opcode, 4, 0, U8, "verbs opcode (enum ibw_rec_opcode)")              \
    X(c, fence, 5, 5, U8, "F, as in the doorbell")                            \
    X(c, service_type, 7, 6, U8, "RC 0, UC 1, RD 2, UD 3 (enum ibw_service_type)") \
    X(c, src_qpn, 31, 8, U32, "source QPN")                                   \
    X(c, dst_qpn, 63, 40, U32, "destination QPN (context for RC/UC, WQE for UD)") \
    X(c, pd, 95, 64, U32, "protection domain")                                \
    X(c, lkey, 127, 96, U32, "SQ L_Key")                                      \
    X(c, pkey, 143, 128, U16, "P_Key")                                        \
    X(c, wqe_size, 175, 160, U16, "WQE size, 16-byte units")                  \
    X(c, pmtu, 191, 176, U16, "PMTU in bytes 256..4096")                      \
    X(c, sq_length, 223, 192, U32, "SQ length in bytes")                      \
    X(c, wqe_offset, 255, 224, U32, "WQE byte offset in the SQ")
IBW_RECORD_FORMAT(ibw_db_meta, IBW_DB_META_FIELDS, 256, "db_meta", "E12",
                  "DoorbellProcessing -> WQEScheduler (-> WQEParser) metadata",
                  "HanGu RDMA engine design T7.20, T7.21, §7.2.2",
                  "RTL: the documents' 96 bits cannot hold their own field "
                  "list. Conflicts: PMTU is in bytes here, an internal code "
                  "0..4 in T7.21 (ibw_pmtu_bytes_to_code); service-type codes "
                  "are the RTL's, the documents' are ibw_service_type_doc "
                  "(ibw_service_type_to_doc)")

/* E13 WQEParser -> DataPack -> RequesterTransControl common metadata,
 * 368 bits. */
#define IBW_COMMON_META_FIELDS(X, c)                                          \
    X(c, opcode, 4, 0, U8, "verbs opcode (enum ibw_rec_opcode)")              \
    X(c, service_type, 7, 5, U8, "service type (enum ibw_service_type)")      \
    X(c, fence, 8, 8, U8, "Flags[0]: fence")                                  \
    X(c, inline_flag, 9, 9, U8, "Flags[1]: data is inline in the WQE")        \
    X(c, req_state, 15, 12, U8, "ReqState (enum ibw_req_state)")              \
    X(c, legal_entry_num, 23, 16, U8, "valid scatter/gather entries")         \
    X(c, pmtu, 39, 24, U16, "PMTU in bytes 256..4096")                        \
    X(c, src_qpn, 63, 40, U32, "source QPN")                                  \
    X(c, dst_qpn, 87, 64, U32, "destination QPN")                             \
    X(c, msg_size, 127, 96, U32, "message size in bytes (up to 2 GB)")        \
    X(c, qkey, 159, 128, U32, "Q_Key (UD)")                                   \
    X(c, pd, 191, 160, U32, "protection domain")                              \
    X(c, pkey, 223, 192, U32, "P_Key (low 16 bits used)")                     \
    X(c, imm, 255, 224, U32, "immediate data")                                \
    X(c, wqe_offset, 287, 256, U32, "WQE byte offset in the SQ")              \
    X(c, dst_ip, 319, 288, U32, "destination IPv4 address (RoCE)")            \
    X(c, dst_mac_lid, 367, 320, U64, "destination MAC (RoCE) or LID (IB)")
IBW_RECORD_FORMAT(ibw_common_meta, IBW_COMMON_META_FIELDS, 368, "common_meta",
                  "E13",
                  "WQEParser -> DataPack (-> RequesterTransControl) common "
                  "metadata",
                  "HanGu RDMA engine design T7.22, T7.23, §7.2.4",
                  "RTL. Conflict on service-type codes: documents RC 0, UC 1, "
                  "UD 2 (enum ibw_service_type_doc), RTL RC 0, UC 1, RD 2, "
                  "UD 3, CNP 4, XRC 5; canonical RTL, converters "
                  "ibw_service_type_to_doc/_from_doc. PMTU in bytes (T7.23: "
                  "code 0..4)")

/* E14 scatter/gather entry, 128 bits. */
#define IBW_SG_ENTRY_FIELDS(X, c)                                             \
    X(c, length, 31, 0, U32, "length in bytes (inline segment: bit 31 set, count in [30:0])") \
    X(c, lkey, 63, 32, U32, "L_Key")                                          \
    X(c, va, 127, 64, U64, "virtual address")
IBW_RECORD_FORMAT(ibw_sg_entry, IBW_SG_ENTRY_FIELDS, 128, "sg_entry", "E14",
                  "scatter/gather entry (WQEParser -> DataPack)",
                  "HanGu RDMA engine design T7.24, T7.25",
                  "RTL (T7.25 names the fields)")

/* Bit 31 of the first word of a data segment marks an inline segment. */
#define IBW_SG_INLINE_FLAG 0x80000000u

/* E15 RDMA remote-address metadata, 128 bits. */
#define IBW_RADDR_META_FIELDS(X, c)                                           \
    X(c, va, 63, 0, U64, "remote virtual address")                            \
    X(c, rkey, 95, 64, U32, "R_Key")
IBW_RECORD_FORMAT(ibw_raddr_meta, IBW_RADDR_META_FIELDS, 128, "raddr_meta",
                  "E15", "RDMA remote-address metadata (WQEParser -> DataPack)",
                  "HanGu RDMA engine design T7.26, T7.27",
                  "documents T7.26 and RTL agree: VA, VA, RKey, Reserved")

/* E16 atomic metadata, 128 bits. */
#define IBW_ATOMIC_META_FIELDS(X, c)                                          \
    X(c, swap_add, 63, 0, U64, "swap (CmpSwap) or add (FetchAdd) operand")    \
    X(c, compare, 127, 64, U64, "compare operand (CmpSwap)")
IBW_RECORD_FORMAT(ibw_atomic_meta, IBW_ATOMIC_META_FIELDS, 128, "atomic_meta",
                  "E16", "atomic operation metadata (WQEParser -> DataPack)",
                  "HanGu RDMA engine design T7.28, T7.29",
                  "RTL (T7.29 names the fields)")

/* E17 bad-request metadata, 128 bits (canonical = RTL). */
#define IBW_BAD_REQ_META_FIELDS(X, c)                                         \
    X(c, qpn, 23, 0, U32, "QP the failed request belongs to")                 \
    X(c, err_type, 31, 24, U8, "error type: ReqState code (enum ibw_req_state)") \
    X(c, opcode, 36, 32, U8, "verbs opcode (readers may take [39:32])")       \
    X(c, wqe_offset, 95, 64, U32, "WQE byte offset in the SQ")
IBW_RECORD_FORMAT(ibw_bad_req_meta, IBW_BAD_REQ_META_FIELDS, 128,
                  "bad_req_meta", "E17",
                  "bad-request metadata (RequesterTransControl -> "
                  "RequesterRecvControl)",
                  "HanGu RDMA engine design T7.30, T7.31",
                  "RTL (conflict found: documents T7.30 are 32 bits, ErrType "
                  "| QPN only: bad_req_meta_doc, converters "
                  "ibw_bad_req_meta_to_doc/_from_doc). The RTL writes the "
                  "opcode into [36:32] and its reader takes [39:32]; [39:37] "
                  "are zero so both see the same value")

#define IBW_BAD_REQ_META_DOC_FIELDS(X, c)                                     \
    X(c, qpn, 23, 0, U32, "QP the failed request belongs to")                 \
    X(c, err_type, 31, 24, U8, "error type")
IBW_RECORD_FORMAT(ibw_bad_req_meta_doc, IBW_BAD_REQ_META_DOC_FIELDS, 32,
                  "bad_req_meta_doc", "E17",
                  "bad-request metadata, documents' variant",
                  "HanGu RDMA engine design T7.30, T7.31",
                  "documents' variant of bad_req_meta")

/* ibw_bad_req_meta_to_doc / _from_doc: opcode and WQE offset have no place
 * in the documents' layout (dropped; 0 coming back). */
IBW__REC_DOC_CONVERTERS(ibw_bad_req_meta, IBW_BAD_REQ_META_DOC_FIELDS)

/*
 * The BTH as header metadata holds it: dword 0 bits [31:0], dword 1
 * [63:32], dword 2 [95:64], each dword's first wire byte on top.  The
 * engine reuses the BTH's reserved bits for the packet's payload length in
 * bytes: len[5:0] in resv6 ([61:56]) and len[12:6] in resv7 ([94:88]).
 */
#define IBW__BUS_BTH_DW0(X, c)                                                \
    X(c, pkey, 15, 0, U16, "BTH P_Key")                                       \
    X(c, tver, 19, 16, U8, "BTH TVer")                                        \
    X(c, padcnt, 21, 20, U8, "BTH PadCnt")                                    \
    X(c, m, 22, 22, U8, "BTH MigReq")                                         \
    X(c, se, 23, 23, U8, "BTH SE")                                            \
    X(c, opcode, 31, 24, U8, "BTH OpCode")
#define IBW__BUS_BTH_LEN(X, c)                                                \
    IBW__BUS_BTH_DW0(X, c)                                                    \
    X(c, destqp, 55, 32, U32, "BTH DestQP")                                   \
    X(c, len_lo, 61, 56, U8, "payload length [5:0] (BTH resv6)")              \
    X(c, becn, 62, 62, U8, "BTH BECN")                                        \
    X(c, fecn, 63, 63, U8, "BTH FECN")                                        \
    X(c, psn, 87, 64, U32, "BTH PSN")                                         \
    X(c, len_hi, 94, 88, U8, "payload length [12:6] (BTH resv7)")             \
    X(c, ackreq, 95, 95, U8, "BTH AckReq")

/* E18 request header metadata, 320 bits: BTH and up to 28 bytes of
 * extended headers (RETH, DETH, ImmDt, AtomicETH) as dwords 3..9. */
#define IBW_REQ_HDR_META_FIELDS(X, c)                                         \
    IBW__BUS_BTH_LEN(X, c)                                                    \
    X(c, dw3, 127, 96, U32, "header dword 3 (first extended-header dword)")   \
    X(c, dw4, 159, 128, U32, "header dword 4")                                \
    X(c, dw5, 191, 160, U32, "header dword 5")                                \
    X(c, dw6, 223, 192, U32, "header dword 6")                                \
    X(c, dw7, 255, 224, U32, "header dword 7")                                \
    X(c, dw8, 287, 256, U32, "header dword 8")                                \
    X(c, dw9, 319, 288, U32, "header dword 9 (atomic requests only)")
IBW_RECORD_FORMAT(ibw_req_hdr_meta, IBW_REQ_HDR_META_FIELDS, 320,
                  "req_hdr_meta", "E18",
                  "request header metadata (RequesterTransControl / "
                  "RequesterRecvControl -> ReqPktGen; HeaderParser -> "
                  "ExecutionEngine)",
                  "HanGu RDMA engine design T7.32, T7.33, §7.2.9",
                  "RTL: header dwords from bit 0 up, each dword's first wire "
                  "byte on top, sized for the longest header (BTH + "
                  "AtomicETH, 40 bytes); payload length in the BTH reserved "
                  "bits. Compositions: BTH 12, +ImmDt 16, +RETH 28, "
                  "+RETH+ImmDt 32, +AtomicETH 40, +DETH 20, +DETH+ImmDt 24 "
                  "bytes. records.md mentions a 336-bit bus; ReqPktGen's "
                  "input is 320 bits")

/* E19 response header metadata, 240 bits: BTH, AETH, AtomicAckETH. */
#define IBW_RESP_HDR_META_FIELDS(X, c)                                        \
    IBW__BUS_BTH_LEN(X, c)                                                    \
    X(c, dw3, 127, 96, U32, "header dword 3 (AETH)")                          \
    X(c, dw4, 159, 128, U32, "header dword 4 (AtomicAckETH [63:32])")         \
    X(c, dw5, 191, 160, U32, "header dword 5 (AtomicAckETH [31:0])")          \
    X(c, dw6, 223, 192, U32, "header dword 6 (no composition uses it)")       \
    X(c, len_doc, 239, 224, U16, "the documents' 2-byte length slot")
IBW_RECORD_FORMAT(ibw_resp_hdr_meta, IBW_RESP_HDR_META_FIELDS, 240,
                  "resp_hdr_meta", "E19",
                  "response header metadata (HeaderParser -> "
                  "RequesterRecvControl)",
                  "HanGu RDMA engine design T7.34",
                  "RTL header convention (as E18; HeaderParser copies the "
                  "first 30 bytes of the stream, the payload length in the "
                  "BTH reserved bits). Compositions: ACK and read response "
                  "first/last/only BTH+AETH 20, read response middle BTH 12, "
                  "atomic response BTH+AETH+AtomicAckETH 24 bytes (the "
                  "documents say 28). The documents add a 2-byte length, "
                  "here len_doc [239:224]; the RTL does not fill it")

/* Payload length carried in the BTH reserved bits of a header bus w (E18,
 * E19, and the first stream word of a packet). */
static inline unsigned ibw_bus_bth_pkt_len(const uint32_t *w)
{
    return (unsigned)(ibw_rec_get(w, 88, 7) << 6 | ibw_rec_get(w, 56, 6));
}

/* Store a payload length in the BTH reserved bits of a header bus w.
 * IBW_E_RANGE (nothing written) when len does not fit 13 bits. */
static inline int ibw_bus_bth_set_pkt_len(uint32_t *w, unsigned len)
{
    if (len > 0x1FFF)
        return IBW_E_RANGE;
    ibw_rec_set(w, 56, 6, len & 0x3Fu);
    ibw_rec_set(w, 88, 7, len >> 6);
    return IBW_OK;
}

/*
 * Wire bytes -> bus words: byte k goes to bits [32(k/4) + 31 - 8(k%4) -:8],
 * i.e. each dword big-endian, dwords ascending from bit 0.  Words not
 * reached are zeroed.  IBW_E_NOSPACE when n > 4 * nwords.
 */
static inline int ibw_bus_from_wire_bytes(const uint8_t *bytes, size_t n,
                                          uint32_t *w, size_t nwords)
{
    if (n > 4 * nwords)
        return IBW_E_NOSPACE;
    /* a word at a time: every header record of the engine passes here */
    size_t k = 0;
    for (; 4 * k + 4 <= n; k++)
        w[k] = ibw_load_be32(bytes + 4 * k);
    if (4 * k < n) {
        uint32_t v = 0;
        for (size_t i = 0; 4 * k + i < n; i++)
            v |= (uint32_t)bytes[4 * k + i] << (24 - 8 * i);
        w[k++] = v;
    }
    for (; k < nwords; k++)
        w[k] = 0;
    return IBW_OK;
}

/* Bus words -> the first n wire bytes (inverse of ibw_bus_from_wire_bytes).
 * IBW_E_TRUNCATED when n > 4 * nwords. */
static inline int ibw_bus_to_wire_bytes(const uint32_t *w, size_t nwords,
                                        uint8_t *bytes, size_t n)
{
    if (n > 4 * nwords)
        return IBW_E_TRUNCATED;
    size_t k = 0;
    for (; 4 * k + 4 <= n; k++)
        ibw_store_be32(bytes + 4 * k, w[k]);
    for (size_t i = 0; 4 * k + i < n; i++)
        bytes[4 * k + i] = (uint8_t)(w[k] >> (24 - 8 * i));
    return IBW_OK;
}

/* E20 ExecutionEngine -> RespPktGen metadata, 192 bits: a BTH in [95:0]
 * (bus convention, reserved bits zero), PMTU, MsgSize, an AETH in
 * [191:160]. */
#define IBW_RESP_GEN_META_FIELDS(X, c)                                        \
    IBW__BUS_BTH_DW0(X, c)                                                    \
    X(c, destqp, 55, 32, U32, "BTH DestQP")                                   \
    X(c, becn, 62, 62, U8, "BTH BECN")                                        \
    X(c, fecn, 63, 63, U8, "BTH FECN")                                        \
    X(c, psn, 87, 64, U32, "BTH PSN")                                         \
    X(c, ackreq, 95, 95, U8, "BTH AckReq")                                    \
    X(c, pmtu, 111, 96, U16, "PMTU, IBA enum 1 (256) .. 5 (4096)")           \
    X(c, msg_size, 159, 128, U32, "RDMA read: message length to return")      \
    X(c, msn, 183, 160, U32, "AETH MSN")                                      \
    X(c, syndrome, 191, 184, U8, "AETH syndrome (ACK/NAK kind)")
IBW_RECORD_FORMAT(ibw_resp_gen_meta, IBW_RESP_GEN_META_FIELDS, 192,
                  "resp_gen_meta", "E20",
                  "ExecutionEngine -> RespPktGen metadata",
                  "HanGu RDMA engine design T7.35, T7.36",
                  "RTL (T7.35 agrees on the positions). Conflict found: the "
                  "opcode field selects the response, RTL ACK 0x11, read "
                  "0x00; T7.36 calls it Type with ACK 0x01, Read 0x02 "
                  "(ibw_resp_gen_type_to_doc/_from_doc). PMTU is the IBA "
                  "enum here")

#ifdef __cplusplus
}
#endif

#endif /* IBWIRE_RECORDS_META_H */
