/* SPDX-License-Identifier: Apache-2.0 */
/*
 * hostfmt.c - the host-side bytes, through the library's host formats
 * (include/ibwire/host.h): the driver builds send and receive WQEs in the
 * HanGu layout (H1, H2) and links each to its predecessor; the WQEParser
 * and the RQWQEManager read them back with the WQE walker; CQEs are the
 * HanGu CQE and error CQE (H4).
 */
#include "eng.h"

#include "ibwire/host.h"

static int wr_opcode(uint8_t op, uint32_t *out)
{
    switch (op) {
    case IBE_WR_RDMA_WRITE: *out = IBW_WR_RDMA_WRITE; return 0;
    case IBE_WR_RDMA_WRITE_IMM: *out = IBW_WR_RDMA_WRITE_WITH_IMM; return 0;
    case IBE_WR_SEND: *out = IBW_WR_SEND; return 0;
    case IBE_WR_SEND_IMM: *out = IBW_WR_SEND_WITH_IMM; return 0;
    case IBE_WR_RDMA_READ: *out = IBW_WR_RDMA_READ; return 0;
    case IBE_WR_ATOMIC_CS: *out = IBW_WR_ATOMIC_CMP_AND_SWP; return 0;
    case IBE_WR_ATOMIC_FA: *out = IBW_WR_ATOMIC_FETCH_AND_ADD; return 0;
    case IBE_WR_SEND_INV: *out = IBW_WR_SEND_WITH_INV; return 0; /* extension */
    default: return -1; /* the HanGu WQE has no other opcode */
    }
}

int hf_build_send_wqe(uint8_t type, uint8_t *slot, const struct ibe_send_wr *wr,
                      const uint8_t *inl, uint32_t inl_len, struct rec_db *db)
{
    struct ibw_send_wr w;
    struct ibw_sge sg[IBE_MAX_SGE];
    memset(&w, 0, sizeof w);
    if (wr_opcode(wr->opcode, &w.opcode))
        return -1;
    uint64_t total = 0;
    for (unsigned i = 0; i < wr->num_sge; i++) {
        sg[i].addr = wr->sg[i].addr;
        sg[i].length = wr->sg[i].length;
        sg[i].lkey = wr->sg[i].lkey;
        total += wr->sg[i].length;
    }
    w.wr_id = wr->wr_id;
    w.sg_list = sg;
    w.num_sge = wr->num_sge;
    if (wr->flags & IBE_SEND_INLINE) {
        w.send_flags |= IBW_SEND_INLINE;
        w.inline_data = inl;
        w.inline_len = inl_len;
    }
    if (wr->flags & IBE_SEND_FENCE) w.send_flags |= IBW_SEND_FENCE;
    if (wr->flags & IBE_SEND_SIGNALED) w.send_flags |= IBW_SEND_SIGNALED;
    if (wr->flags & IBE_SEND_SOLICITED) w.send_flags |= IBW_SEND_SOLICITED;
    w.imm_data = wr->imm;
    w.remote_qpn = wr->remote_qpn;
    w.remote_qkey = wr->remote_qkey;
    w.rdma.remote_addr = wr->remote_addr;
    w.rdma.rkey = wr->rkey;
    w.rdma.length = (uint32_t)total;
    w.atomic.remote_addr = wr->remote_addr;
    w.atomic.rkey = wr->rkey;
    w.atomic.compare_add = wr->compare_add;
    w.atomic.swap = wr->swap;
    /* Build RC/UC WQEs as RC: whether the operation suits the service is
     * the WQEParser's check (Unsupported OpCode), not the driver's. */
    struct ibw_wqe_desc d;
    if (ibw_wqe_build_send(&w, IBW_WQE_LAYOUT_HANGU,
                           type == IBE_UD ? IBW_TR_UD : IBW_TR_RC, slot,
                           ENG_SQ_SLOT, &d))
        return -1;
    db->opcode = d.opcode;
    db->size = d.size;
    db->fence = d.fence;
    return 0;
}

void hf_link(uint8_t *prev, const struct rec_db *db, uint32_t offset)
{
    struct ibw_wqe_desc d = {db->opcode, db->size, db->fence};
    ibw_wqe_link(prev, ENG_SQ_SLOT, IBW_WQE_LAYOUT_HANGU, &d, offset);
}

int hf_read_send_wqe(const uint8_t *slot, size_t len, uint8_t type,
                     uint8_t opcode, uint8_t size, uint8_t fence,
                     struct rec_md *md, uint32_t *remote_qpn, uint32_t *remote_qkey)
{
    struct ibw_wqe_walk_cfg cfg = {IBW_WQE_LAYOUT_HANGU, IBW_WQ_SEND,
                                   (uint8_t)(type == IBE_UD ? IBW_TR_UD : IBW_TR_RC),
                                   opcode, size, fence, 0};
    struct ibw_wqe_info wi;
    size_t n = 0;
    memset(&wi, 0, sizeof wi);
    ibw_wqe_walk(slot, len, &cfg, &wi, 1, &n);
    if (n < 1 || wi.err)
        return IBW_E_MALFORMED;
    md->opcode = wi.opcode;
    md->fence = wi.fence;
    md->signaled = wi.next.cq_update;
    md->solicited = wi.next.solicit;
    md->imm = wi.next.imm;
    md->raddr = wi.raddr.raddr;
    md->rkey = wi.raddr.rkey;
    md->swap = wi.atomic.swap_add;
    md->cmp = wi.atomic.compare;
    *remote_qpn = wi.has_ud ? wi.ud.dqpn & 0xFFFFFFu : 0;
    *remote_qkey = wi.has_ud ? wi.ud.qkey : 0;
    md->nent = 0;
    md->msgsize = (uint32_t)wi.total_len;
    md->inl = wi.has_inline;
    if (wi.has_inline) {
        if (wi.inline_len > IBE_MAX_INLINE || wi.inline_offset + wi.inline_len > len)
            return IBW_E_MALFORMED;
        memcpy(md->inline_data, slot + wi.inline_offset, wi.inline_len);
        return IBW_OK;
    }
    if (wi.nsge > IBE_MAX_SGE)
        return IBW_E_MALFORMED;
    for (uint32_t k = 0; k < wi.nsge; k++) {
        struct ibw_wqe_data d;
        if (ibw_wqe_info_sge(slot, len, IBW_WQE_LAYOUT_HANGU, &wi, k, &d))
            return IBW_E_MALFORMED;
        md->sg[k].addr = d.addr;
        md->sg[k].length = d.byte_count;
        md->sg[k].lkey = d.lkey;
        md->nent++;
    }
    return IBW_OK;
}

int hf_write_recv_wqe(uint8_t *slot, const struct ibe_recv_wr *wr)
{
    struct ibw_sge sg[IBE_MAX_SGE];
    for (unsigned i = 0; i < wr->num_sge; i++) {
        sg[i].addr = wr->sg[i].addr;
        sg[i].length = wr->sg[i].length;
        sg[i].lkey = wr->sg[i].lkey;
    }
    struct ibw_recv_wr w;
    memset(&w, 0, sizeof w);
    w.wr_id = wr->wr_id;
    w.sg_list = sg;
    w.num_sge = wr->num_sge;
    struct ibw_wqe_desc d;
    memset(slot, 0, ENG_RQ_SLOT);
    return ibw_wqe_build_recv(&w, IBW_WQE_LAYOUT_HANGU, slot, ENG_RQ_SLOT, &d) ? -1 : 0;
}

int hf_split_recv_wqe(const uint8_t *win, size_t len, uint8_t type,
                      struct ibe_sge *sg, uint8_t *n)
{
    struct ibw_wqe_walk_cfg cfg = {IBW_WQE_LAYOUT_HANGU, IBW_WQ_RECV,
                                   (uint8_t)eng_transport_of(type), 0, 0, 0, 0};
    struct ibw_wqe_info wi;
    size_t cnt = 0;
    memset(&wi, 0, sizeof wi);
    ibw_wqe_walk(win, len, &cfg, &wi, 1, &cnt);
    if (cnt < 1 || wi.err || wi.nsge > IBE_MAX_SGE)
        return IBW_E_MALFORMED;
    *n = 0;
    for (uint32_t k = 0; k < wi.nsge; k++) {
        struct ibw_wqe_data d;
        if (ibw_wqe_info_sge(win, len, IBW_WQE_LAYOUT_HANGU, &wi, k, &d))
            return IBW_E_MALFORMED;
        sg[k].addr = d.addr;
        sg[k].length = d.byte_count;
        sg[k].lkey = d.lkey;
        (*n)++;
    }
    return IBW_OK;
}

void hf_write_cqe(uint8_t *cqe, const struct ibe_wc *wc, uint32_t wqe_offset,
                  uint8_t bth_or_wqe_opcode)
{
    if (wc->status != IBE_WC_SUCCESS) {
        struct ibw_hg_err_cqe c;
        memset(&c, 0, sizeof c);
        c.my_qpn = wc->qpn;
        c.syndrome = wc->status;
        c.wqe = wqe_offset;
        c.opcode = IBW_WQE_OP_INVALID;
        c.owner = 0; /* software owns it now */
        ibw_hg_err_cqe_encode(&c, cqe, ENG_CQE);
        /* the is_send byte stays where a good CQE has it */
        struct ibw_hg_cqe g;
        ibw_hg_cqe_decode(cqe, ENG_CQE, &g);
        g.is_send = wc->is_send;
        ibw_hg_cqe_encode(&g, cqe, ENG_CQE);
        return;
    }
    struct ibw_hg_cqe c;
    memset(&c, 0, sizeof c);
    c.my_qpn = wc->qpn;
    c.rqpn = wc->src_qp;
    c.imm = wc->imm;
    c.byte_cnt = wc->byte_len;
    c.wqe = wqe_offset;
    c.opcode = bth_or_wqe_opcode;
    c.is_send = wc->is_send;
    c.owner = 0;
    ibw_hg_cqe_encode(&c, cqe, ENG_CQE);
}

void hf_cqe_give_to_hw(uint8_t *cqe)
{
    struct ibw_hg_cqe g;
    memset(&g, 0, sizeof g);
    g.owner = IBW_HG_CQE_OWNER_HW;
    ibw_hg_cqe_encode(&g, cqe, ENG_CQE);
}

int hf_read_cqe(const uint8_t *cqe, struct ibe_wc *wc, uint32_t *wqe_offset)
{
    if (!ibw_hg_cqe_sw_owned(cqe))
        return 0;
    struct ibw_wc w;
    int err = ibw_hg_cqe_to_wc(cqe, ENG_CQE, &w);
    memset(wc, 0, sizeof *wc);
    struct ibw_hg_cqe raw;
    ibw_hg_cqe_decode(cqe, ENG_CQE, &raw);
    wc->qpn = w.qp_num;
    wc->is_send = raw.is_send;
    *wqe_offset = w.wqe;
    if (ibw_cqe_opcode_is_error(raw.opcode)) {
        struct ibw_hg_err_cqe e;
        ibw_hg_err_cqe_decode(cqe, ENG_CQE, &e);
        wc->status = e.syndrome;
        return 1;
    }
    if (err)
        return -1;
    wc->status = IBE_WC_SUCCESS;
    wc->byte_len = w.byte_len;
    wc->src_qp = w.src_qp;
    wc->has_imm = (w.wc_flags & IBW_WC_WITH_IMM) != 0;
    wc->imm = w.imm_data;
    wc->opcode = w.opcode == IBW_WC_RECV_RDMA_WITH_IMM ? IBE_WR_RDMA_WRITE_IMM
                                                       : IBE_WR_RECV;
    return 1;
}
