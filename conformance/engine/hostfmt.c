/*
 * hostfmt.c - the host-side bytes the engine reads and writes: send WQEs
 * (H1: NextSeg, UDSeg, RaddrSeg, AtomicSeg, DataSeg/InlineSeg), receive
 * WQEs (H2: NextSeg, DataSegs, 16-byte zero terminator) and CQEs (H4, the
 * HanGu 32-byte CQE).  NextSeg and CQE are record-order words as the RTL
 * reads them; the data segments are the mthca big-endian layouts.
 */
#include "eng.h"

#include "ibwire/base.h"

enum { SEG = 16 };

static void put_dseg(uint8_t *p, const struct ibe_sge *s)
{
    ibw_store_be32(p, s->length & 0x7FFFFFFFu);
    ibw_store_be32(p + 4, s->lkey);
    ibw_store_be64(p + 8, s->addr);
}

uint32_t hf_write_send_wqe(uint8_t *slot, const struct ibe_send_wr *wr,
                           const uint8_t *inl)
{
    memset(slot, 0, ENG_SQ_SLOT);
    uint32_t off = SEG;
    if (wr->remote_qkey || wr->remote_qpn) { /* UDSeg */
        ibw_store_be32(slot + off, wr->remote_qpn);
        ibw_store_be32(slot + off + 4, wr->remote_qkey);
        off += SEG;
    }
    uint8_t op = wr->opcode;
    if (op == IBE_WR_RDMA_WRITE || op == IBE_WR_RDMA_WRITE_IMM ||
        op == IBE_WR_RDMA_READ || op == IBE_WR_ATOMIC_CS ||
        op == IBE_WR_ATOMIC_FA) { /* RaddrSeg */
        ibw_store_be64(slot + off, wr->remote_addr);
        ibw_store_be32(slot + off + 8, wr->rkey);
        off += SEG;
    }
    if (op == IBE_WR_ATOMIC_CS || op == IBE_WR_ATOMIC_FA) { /* AtomicSeg */
        ibw_store_be64(slot + off, op == IBE_WR_ATOMIC_CS ? wr->swap : wr->compare_add);
        ibw_store_be64(slot + off + 8, op == IBE_WR_ATOMIC_CS ? wr->compare_add : 0);
        off += SEG;
    }
    if (wr->flags & IBE_SEND_INLINE) {
        uint32_t n = 0;
        for (unsigned i = 0; i < wr->num_sge; i++)
            n += wr->sg[i].length;
        ibw_store_be32(slot + off, 0x80000000u | n);
        off += 4;
        memcpy(slot + off, inl, n);
        off += n;
        off = (off + SEG - 1) / SEG * SEG;
    } else {
        for (unsigned i = 0; i < wr->num_sge; i++, off += SEG)
            put_dseg(slot + off, &wr->sg[i]);
    }
    uint32_t w[4] = {0, 0, 0, 0};
    ibw_rec_set(w, 0, 5, op == IBE_WR_SEND_INV ? 0x0C : op);
    ibw_rec_set(w, 32, 6, off / SEG);
    ibw_rec_set(w, 38, 1, (wr->flags & IBE_SEND_FENCE) != 0);
    ibw_rec_set(w, 64 + 3, 1, (wr->flags & IBE_SEND_SIGNALED) != 0);
    ibw_rec_set(w, 64 + 1, 1, (wr->flags & IBE_SEND_SOLICITED) != 0);
    ibw_rec_set(w, 64 + 4, 1, op == IBE_WR_SEND_INV); /* engine-local flag */
    ibw_rec_set(w, 64 + 5, 1, (wr->remote_qkey || wr->remote_qpn) != 0);
    ibw_rec_set(w, 96, 32, wr->imm);
    ibw_rec_to_bytes(w, 4, slot);
    return off;
}

int hf_read_send_wqe(const uint8_t *slot, size_t len, struct rec_md *md,
                     uint32_t *remote_qpn, uint32_t *remote_qkey)
{
    if (len < SEG)
        return IBW_E_TRUNCATED;
    uint32_t w[4];
    ibw_rec_from_bytes(slot, 4, w);
    uint8_t op = (uint8_t)ibw_rec_get(w, 0, 5);
    uint32_t size = (uint32_t)ibw_rec_get(w, 32, 6) * SEG;
    if (size < SEG || size > len)
        return IBW_E_MALFORMED;
    md->opcode = ibw_rec_get(w, 64 + 4, 1) ? IBE_WR_SEND_INV : op;
    md->fence = (uint8_t)ibw_rec_get(w, 38, 1);
    md->signaled = (uint8_t)ibw_rec_get(w, 64 + 3, 1);
    md->solicited = (uint8_t)ibw_rec_get(w, 64 + 1, 1);
    md->imm = (uint32_t)ibw_rec_get(w, 96, 32);
    uint32_t off = SEG;
    *remote_qpn = *remote_qkey = 0;
    if (ibw_rec_get(w, 64 + 5, 1)) {
        *remote_qpn = ibw_load_be32(slot + off) & 0xFFFFFFu;
        *remote_qkey = ibw_load_be32(slot + off + 4);
        off += SEG;
    }
    op = md->opcode;
    if (op == IBE_WR_RDMA_WRITE || op == IBE_WR_RDMA_WRITE_IMM ||
        op == IBE_WR_RDMA_READ || op == IBE_WR_ATOMIC_CS ||
        op == IBE_WR_ATOMIC_FA) {
        if (off + SEG > size)
            return IBW_E_MALFORMED;
        md->raddr = ibw_load_be64(slot + off);
        md->rkey = ibw_load_be32(slot + off + 8);
        off += SEG;
    }
    if (op == IBE_WR_ATOMIC_CS || op == IBE_WR_ATOMIC_FA) {
        if (off + SEG > size)
            return IBW_E_MALFORMED;
        md->swap = ibw_load_be64(slot + off);
        md->cmp = ibw_load_be64(slot + off + 8);
        off += SEG;
    }
    md->nent = 0;
    md->msgsize = 0;
    md->inl = 0;
    if (off < size && (ibw_load_be32(slot + off) & 0x80000000u)) {
        uint32_t n = ibw_load_be32(slot + off) & 0x7FFFFFFFu;
        if (n > IBE_MAX_INLINE || off + 4 + n > size)
            return IBW_E_MALFORMED;
        md->inl = 1;
        memcpy(md->inline_data, slot + off + 4, n);
        md->msgsize = n;
        return IBW_OK;
    }
    for (; off + SEG <= size && md->nent < IBE_MAX_SGE; off += SEG) {
        struct ibe_sge *s = &md->sg[md->nent++];
        s->length = ibw_load_be32(slot + off);
        s->lkey = ibw_load_be32(slot + off + 4);
        s->addr = ibw_load_be64(slot + off + 8);
        md->msgsize += s->length;
    }
    return IBW_OK;
}

void hf_write_recv_wqe(uint8_t *slot, const struct ibe_recv_wr *wr)
{
    memset(slot, 0, ENG_RQ_SLOT);
    uint32_t w[4] = {0, 0, 0, 0};
    /* NextSeg: size of this WQE (NextSeg + segments + terminator), nonzero
     * so that a posted WQE never reads as a terminator. */
    ibw_rec_set(w, 32, 6, (uint64_t)(wr->num_sge + 2));
    ibw_rec_set(w, 39, 1, 1); /* DBD: marks the slot as posted */
    ibw_rec_to_bytes(w, 4, slot);
    for (unsigned i = 0; i < wr->num_sge; i++)
        put_dseg(slot + SEG * (1 + i), &wr->sg[i]);
    /* the 16-byte all-zero terminator follows (memset above) */
}

int hf_split_recv_wqe(const uint8_t *win, size_t len, struct ibe_sge *sg,
                      uint8_t *n, uint32_t *wqe_bytes)
{
    static const uint8_t zero[SEG];
    if (len < SEG || !memcmp(win, zero, SEG))
        return IBW_E_MALFORMED; /* no WQE posted here */
    *n = 0;
    size_t off = SEG;
    for (; off + SEG <= len; off += SEG) {
        if (!memcmp(win + off, zero, SEG)) {
            *wqe_bytes = (uint32_t)(off + SEG);
            return IBW_OK;
        }
        if (*n < IBE_MAX_SGE) {
            sg[*n].length = ibw_load_be32(win + off);
            sg[*n].lkey = ibw_load_be32(win + off + 4);
            sg[*n].addr = ibw_load_be64(win + off + 8);
            (*n)++;
        }
    }
    return IBW_E_TRUNCATED; /* terminator beyond the fetch window */
}

void hf_write_cqe(uint8_t *cqe, const struct ibe_wc *wc, uint32_t wqe_index,
                  uint8_t owner)
{
    uint32_t w[8] = {0};
    ibw_rec_set(w, 0, 32, wc->qpn);
    ibw_rec_set(w, 64, 32, wc->src_qp);
    ibw_rec_set(w, 96, 1, wc->has_imm);
    ibw_rec_set(w, 97, 1, wc->solicited);
    ibw_rec_set(w, 128, 32, wc->imm);
    ibw_rec_set(w, 160, 32, wc->byte_len);
    ibw_rec_set(w, 192, 32, wqe_index);
    if (wc->status != IBE_WC_SUCCESS) {
        ibw_rec_set(w, 152, 8, wc->status); /* error CQE syndrome */
        ibw_rec_set(w, 128, 24, 0);
        ibw_rec_set(w, 224, 8, 0xFE);
    } else {
        ibw_rec_set(w, 224, 8, wc->opcode);
    }
    ibw_rec_set(w, 232, 8, wc->is_send);
    ibw_rec_set(w, 248, 8, owner);
    ibw_rec_to_bytes(w, 8, cqe);
}

int hf_read_cqe(const uint8_t *cqe, struct ibe_wc *wc, uint32_t *wqe_index,
                uint8_t *owner)
{
    uint32_t w[8];
    ibw_rec_from_bytes(cqe, 8, w);
    memset(wc, 0, sizeof *wc);
    *owner = (uint8_t)ibw_rec_get(w, 248, 8);
    wc->qpn = (uint32_t)ibw_rec_get(w, 0, 32);
    wc->src_qp = (uint32_t)ibw_rec_get(w, 64, 32);
    wc->has_imm = (uint8_t)ibw_rec_get(w, 96, 1);
    wc->solicited = (uint8_t)ibw_rec_get(w, 97, 1);
    wc->byte_len = (uint32_t)ibw_rec_get(w, 160, 32);
    *wqe_index = (uint32_t)ibw_rec_get(w, 192, 32);
    wc->is_send = (uint8_t)ibw_rec_get(w, 232, 8);
    uint8_t op = (uint8_t)ibw_rec_get(w, 224, 8);
    if (op == 0xFE) {
        wc->status = (uint8_t)ibw_rec_get(w, 152, 8);
    } else {
        wc->opcode = op;
        wc->imm = (uint32_t)ibw_rec_get(w, 128, 32);
    }
    return IBW_OK;
}
