/* SPDX-License-Identifier: Apache-2.0 */
/*
 * records_demo: build three engine records the way a C model or testbench
 * would -- an SQ doorbell, a timer set event and a DMA head -- and print
 * each as the Verilog literal of its bus and as the FIFO word's bytes.
 */
#include <inttypes.h>
#include <stdio.h>

#include "ibwire.h"

/* Print w (nwords words, `width` bits) as width'hXXXX, MSB first. */
static void print_bus(const char *name, const uint32_t *w, size_t nwords,
                      unsigned width)
{
    printf("%-16s %u'h", name, width);
    for (size_t i = nwords; i-- > 0;) {
        unsigned bits = i + 1 == nwords ? width - 32 * (unsigned)i : 32;
        printf("%0*" PRIx32, (int)((bits + 3) / 4), w[i]);
    }
    printf("\n%-16s bytes:", "");
    uint8_t b[16];
    ibw_rec_to_bytes(w, nwords, b);
    for (size_t i = 0; i < 4 * nwords; i++)
        printf(" %02x", b[i]);
    printf("\n");
}

int main(void)
{
    /* A SEND on QP 0x11, first WQE at offset 4 (16-byte units), 3 units
     * long, fenced. */
    struct ibw_sq_doorbell db;
    memset(&db, 0, sizeof db);
    db.opcode = IBW_REC_OP_SEND;
    db.fence = 1;
    db.offset = 4;
    db.size = 3;
    db.qpn = 0x11;
    uint32_t wdb[ibw_sq_doorbell_WORDS];
    ibw_sq_doorbell_pack(&db, wdb);
    print_bus("sq_doorbell", wdb, ibw_sq_doorbell_WORDS, ibw_sq_doorbell_WIDTH);

    /* RequesterTransControl arms the loss timer of QP 0x11. */
    struct ibw_timer_set_event te;
    memset(&te, 0, sizeof te);
    te.opcode = IBW_TIMER_SET;
    te.qpn = 0x11;
    te.counter_value = IBW_TIMER_RTC_COUNTER_VALUE;
    te.timer_value = IBW_TIMER_RTC_TIMER_VALUE;
    uint32_t wte[ibw_timer_set_event_WORDS];
    ibw_timer_set_event_pack(&te, wte);
    print_bus("timer_set_event", wte, ibw_timer_set_event_WORDS,
              ibw_timer_set_event_WIDTH);

    /* A 4 KB DMA read of host address 0x12345000 on channel 2. */
    struct ibw_dma_head dh;
    memset(&dh, 0, sizeof dh);
    dh.length = 4096;
    dh.addr = 0x12345000;
    dh.type = 0;
    dh.chnl_num = 2;
    uint32_t wdh[ibw_dma_head_WORDS];
    ibw_dma_head_pack(&dh, wdh);
    print_bus("dma_head", wdh, ibw_dma_head_WORDS, ibw_dma_head_WIDTH);

    /* Reading back through a getter, and the RTL's 13-bit-length head. */
    printf("doorbell qpn = 0x%" PRIx32 "\n", ibw_sq_doorbell_get_qpn(wdb));
    struct ibw_dma_head_rtl rtl;
    if (ibw_dma_head_to_rtl(&dh, &rtl) == IBW_OK) {
        uint32_t wr[ibw_dma_head_rtl_WORDS];
        ibw_dma_head_rtl_pack(&rtl, wr);
        print_bus("dma_head_rtl", wr, ibw_dma_head_rtl_WORDS,
                  ibw_dma_head_rtl_WIDTH);
    }
    return 0;
}
