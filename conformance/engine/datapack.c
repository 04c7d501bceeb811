/* SPDX-License-Identifier: Apache-2.0 */
/*
 * datapack.c - DataPack: gathers the payload of Send and Write requests from
 * host memory entry by entry (the hardware packs the 256-bit words and
 * removes the bubbles between entries; here the bytes land contiguously),
 * or takes the inline bytes from the WQE.  Requests in error pass through
 * without data so that RequesterTransControl can order them.
 */
#include "eng.h"

static void serve_datapack_take(struct ibe_engine *e,
                                const struct eng_wqe_side *side,
                                const uint8_t *inline_data)
{
    struct rec_md in, *md = &in;
    rec_md_get(e, CH_DATAPACK_IN, md);
    bool has_data = md->opcode == IBE_WR_SEND || md->opcode == IBE_WR_SEND_IMM ||
                    md->opcode == IBE_WR_SEND_INV || md->opcode == IBE_WR_RDMA_WRITE ||
                    md->opcode == IBE_WR_RDMA_WRITE_IMM;
    uint8_t *buf = NULL;
    if (has_data && md->reqstate == RS_NORMAL && md->msgsize) {
        buf = malloc(md->msgsize);
        if (!buf)
            abort();
        if (md->inl && inline_data && md->msgsize <= IBE_MAX_INLINE) {
            memcpy(buf, inline_data, md->msgsize);
        } else {
            uint32_t off = 0;
            for (unsigned i = 0; i < md->nent; i++) {
                eng_dma_read(e, M_DATAPACK, md->sg[i].addr, buf + off, md->sg[i].length);
                off += md->sg[i].length;
            }
        }
    }
    rec_md_put(e, CH_RTC_IN, M_DATAPACK, M_REQTRANS, md);
    rtc_take(e, side, buf); /* takes ownership of buf */
}

void datapack_step(struct ibe_engine *e, struct eng_msg *m)
{
    switch (m->port) {
    case PORT_DATAPACK_TAKE:
        serve_datapack_take(e, (const struct eng_wqe_side *)m->cp[0],
                            (const uint8_t *)m->cp[1]);
        break;
    default:
        abort(); /* a port this module does not have: a wiring bug */
    }
}
