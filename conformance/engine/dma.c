/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dma.c - the DMA engine of the HanGu DMA engine design v1.5: a request is
 * split into sub-requests of at most 256 bytes (max payload / max read
 * request), each takes one of 64 tags, completions come back in a shuffled
 * order and are put back in order by tag before the requester sees them.  Host
 * memory is the engine's byte array; time is not charged here (the link
 * dominates).
 */
#include "eng.h"

#include "ibwire/records.h"

enum { DMA_MPS = 256, DMA_TAGS = 64 };

static void dma_do(struct ibe_engine *e, int from, int is_write, uint64_t addr,
                   uint8_t *buf, uint32_t len)
{
    if (!len)
        return;
    if (!eng_mem_ok(e, addr, len))
        abort(); /* callers check translation first: a bug if reached */
    e->st.dma_reqs++;
    if (is_write) {
        eng_mem_will_write(e, addr, len);
        if (addr + len > e->mem_hw)
            e->mem_hw = addr + len;
    }
    /* Split at 256-byte boundaries, up to 64 tags in flight per batch. */
    uint32_t done = 0;
    while (done < len) {
        uint32_t off[DMA_TAGS], n[DMA_TAGS], order[DMA_TAGS];
        unsigned k = 0;
        while (done < len && k < DMA_TAGS) {
            uint64_t a = addr + done;
            uint32_t chunk = DMA_MPS - (uint32_t)(a % DMA_MPS);
            if (chunk > len - done)
                chunk = len - done;
            off[k] = done;
            n[k] = chunk;
            order[k] = k;
            eng_rec_dma(e, from, is_write, a, chunk, (uint8_t)k);
            uint32_t hw[12];
            eng_pop(e, CH_DMA, hw);
            struct ibw_dma_head head;
            ibw_dma_head_unpack(hw, &head);
            if (head.addr != a || head.length != chunk || head.chnl_num != k)
                abort(); /* the head is all the DMA engine knows */
            done += chunk;
            k++;
        }
        e->st.dma_subreqs += k;
        /* completions arrive out of order ... */
        for (unsigned i = k; i > 1; i--) {
            unsigned j = (unsigned)(ibe_rand(e->w) % i);
            uint32_t t = order[i - 1];
            order[i - 1] = order[j];
            order[j] = t;
        }
        /* ... and the reorder buffer releases them by tag. */
        uint8_t seen[DMA_TAGS] = {0};
        for (unsigned i = 0; i < k; i++)
            seen[order[i]] = 1;
        for (unsigned t = 0; t < k; t++) {
            if (!seen[t])
                abort();
            if (is_write)
                memcpy(e->mem + addr + off[t], buf + off[t], n[t]);
            else
                memcpy(buf + off[t], e->mem + addr + off[t], n[t]);
        }
    }
}

static void serve_eng_dma_read(struct ibe_engine *e, int from, uint64_t addr,
                               void *dst, uint32_t len)
{
    dma_do(e, from, 0, addr, dst, len);
}

static void serve_eng_dma_write(struct ibe_engine *e, int from, uint64_t addr,
                                const void *src, uint32_t len)
{
    dma_do(e, from, 1, addr, (uint8_t *)(uintptr_t)src, len);
}

void dma_step(struct ibe_engine *e, struct eng_msg *m)
{
    switch (m->port) {
    case PORT_ENG_DMA_READ:
        serve_eng_dma_read(e, (int)m->a[0], (uint64_t)m->a[1], (void *)m->p[0],
                           (uint32_t)m->a[2]);
        break;
    case PORT_ENG_DMA_WRITE:
        serve_eng_dma_write(e, (int)m->a[0], (uint64_t)m->a[1],
                            (const void *)m->cp[0], (uint32_t)m->a[2]);
        break;
    default:
        abort(); /* a port this module does not have: a wiring bug */
    }
}
