/* SPDX-License-Identifier: Apache-2.0 */
/*
 * walk_sq - build a small send queue from work requests and walk it.
 *
 * Four WRs (a signaled SEND with two buffers, an inline SEND with
 * immediate data, a fenced RDMA READ, an atomic CmpSwap) become WQEs in
 * the HanGu layout, are chained through their NextSegs, and the walker
 * then reads the queue back the way the engine would, printing each WQE.
 * A second walk corrupts one NextSeg to show how a broken chain is
 * reported.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ibwire.h"

enum { QUEUE_BYTES = 1024, MAX_WQES = 16 };

static void print_wqe(const uint8_t *q, size_t qlen,
                      const struct ibw_wqe_info *wi)
{
    const char *op_name = ibw_wqe_opcode_name(wi->opcode);
    printf("WQE %" PRIu32 " @0x%03" PRIx32 ": %-14s %2u units%s%s",
           wi->index, wi->offset, op_name ? op_name : "?", wi->size,
           wi->fence ? " fenced" : "", wi->next.cq_update ? " signaled" : "");
    if (wi->opcode == IBW_WQE_OP_SEND_IMM ||
        wi->opcode == IBW_WQE_OP_RDMA_WRITE_IMM)
        printf(" imm=0x%08" PRIx32, wi->next.imm);
    if (wi->has_raddr)
        printf(" raddr=0x%" PRIx64 " rkey=0x%" PRIx32, wi->raddr.raddr,
               wi->raddr.rkey);
    if (wi->has_atomic)
        printf(" swap/add=0x%" PRIx64 " compare=0x%" PRIx64,
               wi->atomic.swap_add, wi->atomic.compare);
    printf("\n");
    if (wi->has_inline)
        printf("    inline %" PRIu32 " bytes: \"%.*s\"\n", wi->inline_len,
               (int)wi->inline_len, (const char *)q + wi->inline_offset);
    for (uint32_t k = 0; k < wi->nsge; k++) {
        struct ibw_wqe_data d;
        if (ibw_wqe_info_sge(q, qlen, IBW_WQE_LAYOUT_HANGU, wi, k, &d) == 0)
            printf("    sge %" PRIu32 ": addr=0x%" PRIx64 " len=%" PRIu32
                   " lkey=0x%" PRIx32 "\n",
                   k, d.addr, d.byte_count, d.lkey);
    }
    if (wi->err) {
        printf("    error: %s: %s (%s", ibw_strerror(wi->err),
               wi->err_field, wi->err_why);
        if (wi->err_at == IBW_WQE_AT_DOORBELL)
            printf(", in the doorbell)\n");
        else
            printf(", field at 0x%03" PRIx32 ")\n", wi->err_at);
    }
}

static int walk_and_print(const uint8_t *q, size_t qlen,
                          const struct ibw_wqe_walk_cfg *cfg)
{
    struct ibw_wqe_info wqes[MAX_WQES];
    size_t n = 0;
    int err = ibw_wqe_walk(q, qlen, cfg, wqes, MAX_WQES, &n);
    for (size_t i = 0; i < n; i++)
        print_wqe(q, qlen, &wqes[i]);
    printf("walk: %zu WQE(s), %s\n\n", n, ibw_strerror(err));
    return err;
}

int main(void)
{
    static uint8_t sq[QUEUE_BYTES];
    static const struct ibw_sge bufs[2] = {{0x10000, 256, 0x1001},
                                           {0x20000, 64, 0x1002}};
    static const struct ibw_sge read_buf[1] = {{0x30000, 4096, 0x1003}};
    static const struct ibw_sge result[1] = {{0x40000, 8, 0x1004}};
    static const uint8_t greeting[] = "hi there";
    struct ibw_send_wr wr[4];
    memset(wr, 0, sizeof wr);

    wr[0].wr_id = 1;
    wr[0].opcode = IBW_WR_SEND;
    wr[0].send_flags = IBW_SEND_SIGNALED;
    wr[0].sg_list = bufs;
    wr[0].num_sge = 2;

    wr[1].wr_id = 2;
    wr[1].opcode = IBW_WR_SEND_WITH_IMM;
    wr[1].send_flags = IBW_SEND_INLINE;
    wr[1].inline_data = greeting;
    wr[1].inline_len = (uint32_t)strlen((const char *)greeting);
    wr[1].imm_data = 0xC0FFEE;

    wr[2].wr_id = 3;
    wr[2].opcode = IBW_WR_RDMA_READ;
    wr[2].send_flags = IBW_SEND_FENCE | IBW_SEND_SIGNALED;
    wr[2].sg_list = read_buf;
    wr[2].num_sge = 1;
    wr[2].rdma.remote_addr = 0x7F0000001000ull;
    wr[2].rdma.rkey = 0xBEEF;
    wr[2].rdma.length = 4096;

    wr[3].wr_id = 4;
    wr[3].opcode = IBW_WR_ATOMIC_CMP_AND_SWP;
    wr[3].send_flags = IBW_SEND_SIGNALED;
    wr[3].sg_list = result;
    wr[3].num_sge = 1;
    wr[3].atomic.remote_addr = 0x7F0000002000ull;
    wr[3].atomic.rkey = 0xBEEF;
    wr[3].atomic.compare_add = 0;
    wr[3].atomic.swap = 1;

    /* Post: each WQE goes where the previous one ended; the previous
     * NextSeg (or, for the first, the doorbell) learns its place. */
    struct ibw_wqe_desc first = {0, 0, 0};
    uint32_t at = 0, prev_at = 0;
    for (int i = 0; i < 4; i++) {
        struct ibw_wqe_desc d;
        int err = ibw_wqe_build_send(&wr[i], IBW_WQE_LAYOUT_HANGU, IBW_TR_RC,
                                     sq + at, sizeof sq - at, &d);
        if (err) {
            fprintf(stderr, "WR %d: %s\n", i, ibw_strerror(err));
            return 1;
        }
        if (i == 0)
            first = d;
        else
            ibw_wqe_link(sq + prev_at, IBW_WQE_UNIT, IBW_WQE_LAYOUT_HANGU,
                         &d, at);
        prev_at = at;
        at += (uint32_t)d.size * IBW_WQE_UNIT;
    }

    /* What the doorbell would say about the first WQE. */
    struct ibw_wqe_walk_cfg cfg = {IBW_WQE_LAYOUT_HANGU, IBW_WQ_SEND,
                                   IBW_TR_RC, first.opcode, first.size,
                                   first.fence, 0};
    printf("SQ of %u bytes, %" PRIu32 " in use\n", QUEUE_BYTES, at);
    if (walk_and_print(sq, sizeof sq, &cfg) != 0)
        return 1;

    /* Break the chain: the second WQE's NextSeg now points back at the
     * first one.  The walker stops there and names the field. */
    struct ibw_wqe_next nx;
    uint32_t second = (uint32_t)first.size * IBW_WQE_UNIT;
    ibw_wqe_next_decode_layout(sq + second, IBW_WQE_UNIT, IBW_WQE_LAYOUT_HANGU, &nx);
    nx.nda = 0;
    nx.nds = first.size;
    ibw_wqe_next_encode_layout(&nx, IBW_WQE_LAYOUT_HANGU, sq + second, IBW_WQE_UNIT);
    printf("after pointing WQE 1's NextSeg back at WQE 0:\n");
    return walk_and_print(sq, sizeof sq, &cfg) == IBW_E_MALFORMED ? 0 : 1;
}
