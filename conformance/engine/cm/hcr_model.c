/* SPDX-License-Identifier: Apache-2.0 */
/*
 * hcr_model.c - the HCA Command Register of the UESTC thesis (2017) fig. 2-3
 * as the host sees it (seven big-endian 32-bit words; go, e, t and status in
 * the last) and a device behind it that runs the modify-QP commands through
 * the QP state machine IBA allows (ibw_hcr_modify_qp_opcode).
 *
 * Protocol (mlx4 cmd.c, UESTC thesis (2017) §2.2.2): the driver waits while go
 * is set or t still equals its toggle, writes in_param (mailbox address),
 * in_modifier (QPN), out_param and token, then the last word with go = 1,
 * t = toggle and the opcode, and flips its toggle.  The device clears go and
 * writes the status when done.
 */
#include <string.h>

#include "cmx.h"

void cmx_hcr_init(struct cmx_hcr *h, cmx_hcr_apply_fn apply, void *ctx)
{
    memset(h, 0, sizeof *h);
    h->apply = apply;
    h->apply_ctx = ctx;
    /* Power-up: t = 1 and the driver starts with toggle 0, so the first
     * command is not mistaken for one still pending. */
    ibw_hcr_set_t(h->regs, 1);
}

void cmx_hcr_add_qp(struct cmx_hcr *h, uint32_t qpn)
{
    if (qpn < CMX_HCR_MAX_QP) {
        h->qp_valid[qpn] = 1;
        h->qp_state[qpn] = IBW_HCR_QPS_RESET;
        memset(&h->qp_attr[qpn], 0, sizeof h->qp_attr[qpn]);
    }
}

uint32_t cmx_hcr_read32(const struct cmx_hcr *h, unsigned off)
{
    if (off > IBW_HCR_STATUS_OFFSET || (off & 3u))
        return 0xFFFFFFFFu;
    return ibw_load_be32(h->regs + off);
}

void cmx_hcr_write32(struct cmx_hcr *h, unsigned off, uint32_t v)
{
    if (off > IBW_HCR_STATUS_OFFSET || (off & 3u))
        return;
    if (off == IBW_HCR_STATUS_OFFSET && ibw_hcr_get_go(h->regs))
        return; /* a command is running: the register is the device's */
    ibw_store_be32(h->regs + off, v);
    if (off == IBW_HCR_STATUS_OFFSET && ibw_hcr_get_go(h->regs))
        h->pending = 1;
}

static unsigned target_state(unsigned op)
{
    switch (op) {
    case IBW_HCR_OP_RST2INIT_QP: return IBW_HCR_QPS_INIT;
    case IBW_HCR_OP_INIT2INIT_QP: return IBW_HCR_QPS_INIT;
    case IBW_HCR_OP_INIT2RTR_QP: return IBW_HCR_QPS_RTR;
    case IBW_HCR_OP_RTR2RTS_QP: return IBW_HCR_QPS_RTS;
    case IBW_HCR_OP_RTS2RTS_QP: return IBW_HCR_QPS_RTS;
    case IBW_HCR_OP_2ERR_QP: return IBW_HCR_QPS_ERR;
    case IBW_HCR_OP_2RST_QP: return IBW_HCR_QPS_RESET;
    default: return 0xFF;
    }
}

static uint8_t execute(struct cmx_hcr *h)
{
    unsigned op = ibw_hcr_get_opcode(h->regs);
    uint32_t qpn = ibw_hcr_get_in_modifier(h->regs) & 0xFFFFFFu;
    unsigned to = target_state(op);
    if (to == 0xFF)
        return IBW_HCR_STAT_BAD_OP;
    if (qpn >= CMX_HCR_MAX_QP || !h->qp_valid[qpn])
        return IBW_HCR_STAT_BAD_INDEX;
    unsigned from = h->qp_state[qpn];
    uint16_t want = 0;
    if (ibw_hcr_modify_qp_opcode(from, to, &want) != IBW_OK || want != op)
        return IBW_HCR_STAT_BAD_QP_STATE;
    struct cmx_mbox mb;
    memset(&mb, 0, sizeof mb);
    if (op != IBW_HCR_OP_2ERR_QP && op != IBW_HCR_OP_2RST_QP) {
        if (ibw_hcr_get_in_param(h->regs) != CMX_HCR_MBOX_ADDR)
            return IBW_HCR_STAT_BAD_PARAM;
        cmx_mbox_decode(h->mbox, sizeof h->mbox, &mb);
        if (op == IBW_HCR_OP_INIT2RTR_QP &&
            (mb.pmtu < 1 || mb.pmtu > 5 || mb.remote_qpn == 0))
            return IBW_HCR_STAT_BAD_PARAM;
    }
    if (h->apply && h->apply(h->apply_ctx, qpn, from, to, &mb))
        return IBW_HCR_STAT_INTERNAL_ERR;
    h->qp_state[qpn] = (uint8_t)to;
    if (op == IBW_HCR_OP_RST2INIT_QP || op == IBW_HCR_OP_INIT2RTR_QP ||
        op == IBW_HCR_OP_RTR2RTS_QP)
        h->qp_attr[qpn] = mb;
    return IBW_HCR_STAT_OK;
}

void cmx_hcr_device_step(struct cmx_hcr *h)
{
    if (!h->pending)
        return;
    h->pending = 0;
    uint8_t st = execute(h);
    h->commands++;
    if (st)
        h->failures++;
    ibw_hcr_set_status(h->regs, st);
    ibw_hcr_set_go(h->regs, 0);
}

int cmx_hcr_modify_qp(struct cmx_hcr *h, uint16_t opcode, uint32_t qpn,
                      const struct cmx_mbox *mb)
{
    /* The device runs synchronously in this model; a busy register here
     * would be a protocol error of the driver. */
    if (ibw_hcr_busy(h->regs, h->toggle))
        return IBW_HCR_STAT_RESOURCE_BUSY;
    if (mb)
        cmx_mbox_encode(mb, h->mbox, sizeof h->mbox);
    struct ibw_hcr w;
    memset(&w, 0, sizeof w);
    w.in_param = CMX_HCR_MBOX_ADDR;
    w.in_modifier = qpn;
    w.token = IBW_HCR_POLL_TOKEN;
    w.go = 1;
    w.t = h->toggle;
    w.opcode = opcode;
    /* The encoder sets each field by read-modify-write of the bytes it
     * spans: they must hold a value before it reads them (gcc -O3 sees the
     * read of uninitialised bytes, -Wmaybe-uninitialized). */
    uint8_t img[ibw_hcr_SIZE] = {0};
    ibw_hcr_encode(&w, img, sizeof img);
    for (unsigned off = 0; off < ibw_hcr_SIZE; off += 4)
        cmx_hcr_write32(h, off, ibw_load_be32(img + off));
    h->toggle ^= 1u;
    cmx_hcr_device_step(h);
    uint32_t last = cmx_hcr_read32(h, IBW_HCR_STATUS_OFFSET);
    if (ibw_hcr_get_go(h->regs))
        return IBW_HCR_STAT_INTERNAL_ERR;
    return (int)(last >> 24);
}

int cmx_hcr_qp_state(const struct cmx_hcr *h, uint32_t qpn)
{
    if (qpn >= CMX_HCR_MAX_QP || !h->qp_valid[qpn])
        return -1;
    return h->qp_state[qpn];
}
