/*
 * datapack.c - DataPack: gathers the payload of Send and Write requests from
 * host memory entry by entry (the hardware packs the 256-bit words and
 * removes the bubbles between entries; here the bytes land contiguously),
 * or takes the inline bytes from the WQE.  Requests in error pass through
 * without data so that RequesterTransControl can order them.
 */
#include "eng.h"

void datapack_take(struct ibe_engine *e, struct eng_qp *q, const struct rec_md *md)
{
    bool has_data = md->opcode == IBE_WR_SEND || md->opcode == IBE_WR_SEND_IMM ||
                    md->opcode == IBE_WR_SEND_INV || md->opcode == IBE_WR_RDMA_WRITE ||
                    md->opcode == IBE_WR_RDMA_WRITE_IMM;
    uint8_t *buf = NULL;
    if (has_data && md->reqstate == RS_NORMAL && md->msgsize) {
        buf = malloc(md->msgsize);
        if (!buf)
            abort();
        if (md->inl) {
            memcpy(buf, md->inline_data, md->msgsize);
        } else {
            uint32_t off = 0;
            for (unsigned i = 0; i < md->nent; i++) {
                eng_dma_read(e, M_DATAPACK, md->sg[i].addr, buf + off, md->sg[i].length);
                off += md->sg[i].length;
            }
        }
    }
    eng_rec_md(e, M_DATAPACK, M_REQTRANS, md);
    rtc_take(e, q, md, buf); /* takes ownership of buf */
}
