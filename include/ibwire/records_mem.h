/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ibwire/records_mem.h - engine records E21-E26: table and buffer entries
 * (MultiQueue, WQE indicator table, write-address table), the link-layer
 * and internal stream words, and the DMA engine's request head.
 *
 * Wide data slices (a stream word's 256 data bits, a buffered packet) are
 * WIDE fields (base.h): uint32_t arrays in bus order, so a testbench copies
 * the bus slice in word by word.
 */
#ifndef IBWIRE_RECORDS_MEM_H
#define IBWIRE_RECORDS_MEM_H

#include "base.h"
#include "records_codes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* E21 MultiQueue: read packet, read entry and send/write packet buffers     */
/* ------------------------------------------------------------------------ */
/* Each buffer has a per-QP list table (head, tail, empty), an element table
 * (payload + next address) and a free FIFO of element addresses. */

#define IBW_RPB_LIST_ENTRY_FIELDS(X, c)                                       \
    X(c, head, 8, 0, U16, "first element of the QP's queue")                  \
    X(c, tail, 17, 9, U16, "last element")                                    \
    X(c, empty, 18, 18, U8, "queue empty (head == tail is ambiguous)")
IBW_RECORD_FORMAT(ibw_rpb_list_entry, IBW_RPB_LIST_ENTRY_FIELDS, 19,
                  "rpb_list_entry", "E21",
                  "read packet buffer list-table entry (16384 entries)",
                  "HanGu RDMA engine design T3.8, T3.19", "documents")

#define IBW_RPB_ELEMENT_FIELDS(X, c)                                          \
    X(c, packet, 255, 0, WIDE, "256 bits of an RDMA read request packet")     \
    X(c, next_addr, 264, 256, U16, "next element")
IBW_WIDE_RECORD_FORMAT(ibw_rpb_element, IBW_RPB_ELEMENT_FIELDS, 265,
                       "rpb_element", "E21",
                       "read packet buffer element (512 entries)",
                       "HanGu RDMA engine design T3.9, T3.19", "documents")

#define IBW_RPB_FREE_ENTRY_FIELDS(X, c)                                       \
    X(c, addr, 8, 0, U16, "free element address")
IBW_RECORD_FORMAT(ibw_rpb_free_entry, IBW_RPB_FREE_ENTRY_FIELDS, 9,
                  "rpb_free_entry", "E21",
                  "read packet buffer free-FIFO entry (512 deep)",
                  "HanGu RDMA engine design T3.10, T3.19", "documents")

#define IBW_REB_LIST_ENTRY_FIELDS(X, c)                                       \
    X(c, head, 13, 0, U16, "first element of the QP's queue")                 \
    X(c, tail, 27, 14, U16, "last element")                                   \
    X(c, empty, 28, 28, U8, "queue empty")
IBW_RECORD_FORMAT(ibw_reb_list_entry, IBW_REB_LIST_ENTRY_FIELDS, 29,
                  "reb_list_entry", "E21",
                  "read entry buffer list-table entry (16384 entries)",
                  "HanGu RDMA engine design T3.11, T3.19",
                  "documents, corrected: T3.11 prints Tail 27~13 and Head "
                  "13~0, which overlap; 29 bits = 1 + 14 + 14 and the "
                  "element table has 16384 (2^14) entries, so Tail is "
                  "[27:14]")

/* The element's 128-bit payload is a scatter entry: the E14 layout. */
#define IBW_REB_ELEMENT_FIELDS(X, c)                                          \
    X(c, length, 31, 0, U32, "scatter entry: length")                         \
    X(c, lkey, 63, 32, U32, "scatter entry: L_Key")                           \
    X(c, va, 127, 64, U64, "scatter entry: virtual address")                  \
    X(c, next_addr, 141, 128, U16, "next element")
IBW_RECORD_FORMAT(ibw_reb_element, IBW_REB_ELEMENT_FIELDS, 142, "reb_element",
                  "E21", "read entry buffer element (16384 entries)",
                  "HanGu RDMA engine design T3.12, T3.19",
                  "documents; the 128-bit scatter entry split as sg_entry "
                  "(E14)")

#define IBW_REB_FREE_ENTRY_FIELDS(X, c)                                       \
    X(c, addr, 13, 0, U16, "free element address")
IBW_RECORD_FORMAT(ibw_reb_free_entry, IBW_REB_FREE_ENTRY_FIELDS, 14,
                  "reb_free_entry", "E21",
                  "read entry buffer free-FIFO entry (16384 deep)",
                  "HanGu RDMA engine design T3.13, T3.19", "documents")

#define IBW_SWPB_LIST_ENTRY_FIELDS(X, c)                                      \
    X(c, head, 11, 0, U16, "first element of the QP's queue")                 \
    X(c, tail, 23, 12, U16, "last element")                                   \
    X(c, empty, 24, 24, U8, "queue empty")
IBW_RECORD_FORMAT(ibw_swpb_list_entry, IBW_SWPB_LIST_ENTRY_FIELDS, 25,
                  "swpb_list_entry", "E21",
                  "send/write packet buffer list-table entry (16384 entries)",
                  "HanGu RDMA engine design T3.14, T3.19",
                  "documents (corrected: T3.19 also lists SWPB rows copied "
                  "from RPB, 19/265/9 bits; T3.14-T3.16 decide)")

#define IBW_SWPB_ELEMENT_FIELDS(X, c)                                         \
    X(c, packet, 255, 0, WIDE, "256 bits of a send/write packet (header or payload)") \
    X(c, next_addr, 267, 256, U16, "next element")
IBW_WIDE_RECORD_FORMAT(ibw_swpb_element, IBW_SWPB_ELEMENT_FIELDS, 268,
                       "swpb_element", "E21",
                       "send/write packet buffer element (4096 entries)",
                       "HanGu RDMA engine design T3.15, T3.19", "documents")

#define IBW_SWPB_FREE_ENTRY_FIELDS(X, c)                                      \
    X(c, addr, 11, 0, U16, "free element address")
IBW_RECORD_FORMAT(ibw_swpb_free_entry, IBW_SWPB_FREE_ENTRY_FIELDS, 12,
                  "swpb_free_entry", "E21",
                  "send/write packet buffer free-FIFO entry (4096 deep)",
                  "HanGu RDMA engine design T3.16, T3.19",
                  "documents (corrected: T3.16's interface rows say 14 bits, "
                  "copied from REB; its header says width 12)")

/* E22 WQE indicator table entry, 1 bit (16384 entries). */
#define IBW_WQE_INDICATOR_FIELDS(X, c)                                        \
    X(c, flag, 0, 0, U8, "ordering flag shared by WQEScheduler and WQEParser")
IBW_RECORD_FORMAT(ibw_wqe_indicator, IBW_WQE_INDICATOR_FIELDS, 1,
                  "wqe_indicator", "E22",
                  "WQE indicator table entry (16384 x 1 bit)",
                  "HanGu RDMA engine design T2.7, T2.8", "documents")

/* E23 write-address table entry, 96 bits. */
#define IBW_WRITE_ADDR_ENTRY_FIELDS(X, c)                                     \
    X(c, va, 63, 0, U64, "virtual address of the next write byte")            \
    X(c, rkey, 95, 64, U32, "R_Key")
IBW_RECORD_FORMAT(ibw_write_addr_entry, IBW_WRITE_ADDR_ENTRY_FIELDS, 96,
                  "write_addr_entry", "E23",
                  "write-address table entry (16384 entries, per QP)",
                  "HanGu RDMA engine design T4.6, T4.7",
                  "documents (the RAM port is 128 bits wide, T4.7; the entry "
                  "uses [95:0])")

/*
 * E24 link-layer word, 72 bits: 8 data bytes and 1 control byte.  The
 * documents give only the contents (S, T, E, ValidByte, VL 0..3), so ibwire
 * defines the positions:
 *   [63:0]  data: wire bytes 0..3 in [31:0] and 4..7 in [63:32], each dword
 *           big-endian, the stream word's convention (E25), so that a
 *           256-bit stream word is four link words' data, low slice first;
 *   [64] S start of packet, [65] T end of packet, [66] E end with error
 *           (start below end, as in the stream word's bits 256/257);
 *   [69:67] ValidByte: valid data bytes modulo 8, 0 = all eight (3 bits
 *           cannot hold 8; the documents say the field is unused);
 *   [71:70] VL, 0..3.
 */
#define IBW_LINK_WORD_FIELDS(X, c)                                            \
    X(c, data, 63, 0, U64, "8 data bytes (dword-big-endian, bytes 0..3 in [31:0])") \
    X(c, sop, 64, 64, U8, "S: first word of a packet")                        \
    X(c, eop, 65, 65, U8, "T: last word of a packet")                         \
    X(c, err, 66, 66, U8, "E: last word, packet in error")                    \
    X(c, valid_bytes, 69, 67, U8, "ValidByte: valid bytes mod 8, 0 = 8")      \
    X(c, vl, 71, 70, U8, "virtual lane 0..3")
IBW_RECORD_FORMAT(ibw_link_word, IBW_LINK_WORD_FIELDS, 72, "link_word", "E24",
                  "link-layer word (BitWidthTrans <-> link layer)",
                  "HanGu RDMA engine design §6.4, T6.1, T6.2",
                  "ibwire's choice: the documents name the contents but no "
                  "positions and the public RTL replaced this interface. "
                  "Data [63:0] in the stream word's byte order, control "
                  "byte on top: S 64, T 65, E 66, ValidByte [69:67] (count "
                  "mod 8, 0 = 8), VL [71:70]")

/* E25 internal stream word, 258 bits. */
#define IBW_STREAM_WORD_FIELDS(X, c)                                          \
    X(c, data, 255, 0, WIDE, "32 packet bytes, dword-big-endian from bit 0")  \
    X(c, sop, 256, 256, U8, "first word of a packet")                         \
    X(c, eop, 257, 257, U8, "last word of a packet")
IBW_WIDE_RECORD_FORMAT(ibw_stream_word, IBW_STREAM_WORD_FIELDS, 258,
                       "stream_word", "E25",
                       "internal stream word (ReqPktGen/RespPktGen -> "
                       "256To64Trans, 64To256Trans -> HeaderParser)",
                       "HanGu RDMA engine design §3.4.4.2, §4.4.4.2, §5.3, "
                       "T6.1, T6.2",
                       "documents: bit 256 start, bit 257 end (first word "
                       "2'b01, last 2'b10). Data byte order from the RTL's "
                       "header buses: packet byte k in dword k/4, first byte "
                       "of each dword on top")

/* Stream word data -> 64-bit link data slice i (0..3): the link word that
 * carries stream bytes 8i..8i+7. */
static inline uint64_t ibw_stream_data_slice(const struct ibw_stream_word *s,
                                             unsigned i)
{
    return (uint64_t)s->data[2 * (i & 3u) + 1] << 32 | s->data[2 * (i & 3u)];
}

/* E26 DMA head, 128 bits: canonical = DMA engine document v1.5. */
#define IBW_DMA_HEAD_FIELDS(X, c)                                             \
    X(c, length, 31, 0, U32, "request length in bytes (00h)")                 \
    X(c, addr, 95, 32, U64, "start address (04h, 08h)")                       \
    X(c, type, 103, 96, U8, "request type (0Ch [7:0])")                       \
    X(c, chnl_num, 127, 120, U8, "channel number, added by the DMA engine (0Ch [31:24])")
IBW_RECORD_FORMAT(ibw_dma_head, IBW_DMA_HEAD_FIELDS, 128, "dma_head", "E26",
                  "DMA engine request/response head (HCA <-> DMA engine)",
                  "HanGu DMA engine design v1.5 T1-2, T1-3",
                  "documents (conflict): Length [31:0], Addr [95:32], Type "
                  "[103:96], chnl_num [127:120]. The RTL's head has a 13-bit "
                  "length [12:0] and no type/channel: dma_head_rtl, "
                  "converters ibw_dma_head_to_rtl/_from_rtl")

#define IBW_DMA_HEAD_RTL_FIELDS(X, c)                                         \
    X(c, length, 12, 0, U16, "request length in bytes")                       \
    X(c, addr, 95, 32, U64, "start address")
IBW_RECORD_FORMAT(ibw_dma_head_rtl, IBW_DMA_HEAD_RTL_FIELDS, 128,
                  "dma_head_rtl", "E26", "DMA head, RTL variant",
                  "RTL (hangu-rtl-layouts.md E26)",
                  "RTL variant of dma_head")

/* Documents' head -> RTL head.  IBW_E_RANGE when the length needs more
 * than 13 bits; type and channel have no place and are dropped. */
static inline int ibw_dma_head_to_rtl(const struct ibw_dma_head *in,
                                      struct ibw_dma_head_rtl *out)
{
    if (in->length > 0x1FFF)
        return IBW_E_RANGE;
    out->length = (uint16_t)in->length;
    out->addr = in->addr;
    return IBW_OK;
}

/* RTL head -> documents' head, type and channel 0. */
static inline void ibw_dma_head_from_rtl(const struct ibw_dma_head_rtl *in,
                                         struct ibw_dma_head *out)
{
    out->length = in->length;
    out->addr = in->addr;
    out->type = 0;
    out->chnl_num = 0;
}

#ifdef __cplusplus
}
#endif

#endif /* IBWIRE_RECORDS_MEM_H */
