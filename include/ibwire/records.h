/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ibwire/records.h - the HanGu RDMA engine's internal records (catalog
 * E1-E28 of shared/reference/records.md).
 *
 * A C model or testbench packs and unpacks exactly the bits that travel
 * between the engine's modules.  A record is a little-endian array of
 * 32-bit words, the way a Verilog bus of that width is laid out: bit 0 of
 * the record is bit 0 of word 0, bit 32 is bit 0 of word 1.  For each record
 * `ibw_NAME` there are
 *   struct ibw_NAME, ibw_NAME_WIDTH, ibw_NAME_WORDS,
 *   ibw_NAME_pack(const struct *, uint32_t *w), ibw_NAME_unpack(w, struct *),
 *   ibw_NAME_get_FIELD(w) / ibw_NAME_set_FIELD(w, v),
 *   ibw_NAME_format() (the descriptor the registry lists),
 * and ibw_rec_to_bytes()/ibw_rec_from_bytes() (base.h) give the byte image
 * of the FIFO word (word 0 first, each word little-endian).
 *
 * Where the design documents and the RTL disagree, the canonical layout has
 * the plain name and the other one a _doc or _rtl suffix, with converters;
 * docs/records.md lists every conflict and its resolution.
 *
 * The parts:
 *   records_codes.h  the codes (opcodes, types, states, PMTU encodings,
 *                    ReqState and completion codes) and their converters
 *   records_cmd.h    E1-E11 doorbell, commands and responses
 *   records_meta.h   E12-E20 send- and receive-path metadata
 *   records_mem.h    E21-E26 table entries, link/stream words, DMA head
 */
#ifndef IBWIRE_RECORDS_H
#define IBWIRE_RECORDS_H

#include "records_codes.h"
#include "records_cmd.h"
#include "records_meta.h"
#include "records_mem.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Every record, in catalog order: X(prefix) for each, e.g. to build tables
 * of ibw_NAME_format, ibw_NAME_pack, ... (the registry does). */
#define IBW_RECORD_FORMATS(X)                                                 \
    X(ibw_sq_doorbell)                                                        \
    X(ibw_cxt_cmd)                                                            \
    X(ibw_cxt_resp)                                                           \
    X(ibw_cxt_wr_data)                                                        \
    X(ibw_cxt_view_sst)                                                       \
    X(ibw_cxt_view_state)                                                     \
    X(ibw_cxt_view_npst)                                                      \
    X(ibw_cxt_view_cst)                                                       \
    X(ibw_cxt_view_cst_doc)                                                   \
    X(ibw_cxt_view_rst)                                                       \
    X(ibw_cxt_view_rst_doc)                                                   \
    X(ibw_cxt_view_encap)                                                     \
    X(ibw_vtp_cmd)                                                            \
    X(ibw_vtp_resp)                                                           \
    X(ibw_vtp_resp_rtl)                                                       \
    X(ibw_timer_set_event)                                                    \
    X(ibw_timer_expire_event)                                                 \
    X(ibw_timer_entry)                                                        \
    X(ibw_sem_cmd)                                                            \
    X(ibw_sem_cmd_doc)                                                        \
    X(ibw_sem_resp)                                                           \
    X(ibw_sem_resp_doc)                                                       \
    X(ibw_rwm_cmd)                                                            \
    X(ibw_rwm_cmd_fetch)                                                      \
    X(ibw_rwm_cmd_update)                                                     \
    X(ibw_rwm_cmd_doc)                                                        \
    X(ibw_rwm_resp)                                                           \
    X(ibw_rwm_resp_doc)                                                       \
    X(ibw_db_meta)                                                            \
    X(ibw_common_meta)                                                        \
    X(ibw_sg_entry)                                                           \
    X(ibw_raddr_meta)                                                         \
    X(ibw_atomic_meta)                                                        \
    X(ibw_bad_req_meta)                                                       \
    X(ibw_bad_req_meta_doc)                                                   \
    X(ibw_req_hdr_meta)                                                       \
    X(ibw_resp_hdr_meta)                                                      \
    X(ibw_resp_gen_meta)                                                      \
    X(ibw_rpb_list_entry)                                                     \
    X(ibw_rpb_element)                                                        \
    X(ibw_rpb_free_entry)                                                     \
    X(ibw_reb_list_entry)                                                     \
    X(ibw_reb_element)                                                        \
    X(ibw_reb_free_entry)                                                     \
    X(ibw_swpb_list_entry)                                                    \
    X(ibw_swpb_element)                                                       \
    X(ibw_swpb_free_entry)                                                    \
    X(ibw_wqe_indicator)                                                      \
    X(ibw_write_addr_entry)                                                   \
    X(ibw_link_word)                                                          \
    X(ibw_stream_word)                                                        \
    X(ibw_dma_head)                                                           \
    X(ibw_dma_head_rtl)

/* The widest record in 32-bit words (common_meta, 368 bits): a buffer of
 * this many words holds any record. */
#define IBW_RECORD_MAX_WORDS 12

#ifdef __cplusplus
}
#endif

#endif /* IBWIRE_RECORDS_H */
