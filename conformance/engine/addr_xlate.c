/* SPDX-License-Identifier: Apache-2.0 */
/*
 * addr_xlate.c - the address-translation unit (VirtToPhys): memory regions
 * with PD, key, access rights and bounds.  Each check is an E3 command
 * answered by an E4 state (the documents' 4-bit codes).
 */
#include "eng.h"

#include "ibwire/records.h"

static struct eng_mr *mr_of(struct ibe_engine *e, uint32_t key)
{
    struct eng_mr *m = &e->xlate.mr[(key >> 8) % ENG_MAX_MR];
    return m->valid && m->key == key ? m : NULL;
}

int ibe_mr_reg(struct ibe_engine *e, uint32_t pd, uint64_t va, uint64_t len,
               uint32_t access, uint32_t *lkey, uint32_t *rkey)
{
    if (!eng_mem_ok(e, va, len))
        return -1;
    for (uint32_t i = 1; i < ENG_MAX_MR; i++) {
        struct eng_mr *m = &e->xlate.mr[i];
        if (m->valid)
            continue;
        /* key = index << 8 | an 8-bit tag that changes on each reuse */
        uint32_t tag = ((m->key & 0xFF) + 0x35u) & 0xFF;
        m->key = (i << 8) | tag;
        m->valid = 1;
        m->pd = pd;
        m->va = va;
        m->len = len;
        m->access = access;
        *lkey = *rkey = m->key;
        return 0;
    }
    return -1;
}

int ibe_mr_dereg(struct ibe_engine *e, uint32_t key)
{
    struct eng_mr *m = mr_of(e, key);
    if (!m)
        return -1;
    m->valid = 0;
    return 0;
}

/* The ExecutionEngine's Send with Invalidate: the host's deregistration,
 * asked for by the responder (no E3 operation invalidates). */
static int serve_eng_mr_invalidate(struct ibe_engine *e, uint32_t key)
{
    return ibe_mr_dereg(e, key);
}

static int serve_eng_xlate(struct ibe_engine *e, int mod_from, uint8_t type,
                           uint8_t op, uint32_t pd_out, uint32_t key_out,
                           uint64_t va_out, uint32_t len_out, uint32_t need_out)
{
    /* E3 in, unpacked on this side */
    uint32_t w[12];
    struct ibw_vtp_cmd c = {type, op, need_out, pd_out, key_out, va_out, len_out};
    ibw_vtp_cmd_pack(&c, w);
    eng_push(e, CH_VTP_CMD, mod_from, M_XLATE, 3, ibw_vtp_cmd_format()->name, w,
             ibw_vtp_cmd_WORDS);
    eng_pop(e, CH_VTP_CMD, w);
    ibw_vtp_cmd_unpack(w, &c);
    uint32_t pd = c.pd, key = c.key, len = c.length, need_access = c.flags;
    uint64_t va = c.va;
    struct eng_mr *m = mr_of(e, key);
    int st;
    if (!m)
        st = XL_KEY;
    else if (m->pd != pd)
        st = XL_PD;
    else if ((m->access & need_access) != need_access)
        st = XL_FLAGS;
    else if (va < m->va || len > m->len || va - m->va > m->len - len)
        st = XL_LENGTH;
    else
        st = XL_OK;
    /* E4 back, unpacked by the requesting module */
    struct ibw_vtp_resp r = {(uint8_t)st};
    ibw_vtp_resp_pack(&r, w);
    eng_push(e, CH_VTP_RESP, M_XLATE, mod_from, 4, ibw_vtp_resp_format()->name, w,
             ibw_vtp_resp_WORDS);
    eng_pop(e, CH_VTP_RESP, w);
    ibw_vtp_resp_unpack(w, &r);
    return r.state;
}

void xlate_step(struct ibe_engine *e, struct eng_msg *m)
{
    switch (m->port) {
    case PORT_ENG_XLATE:
        m->ret = (int64_t)serve_eng_xlate(e, (int)m->a[0], (uint8_t)m->a[1],
                                          (uint8_t)m->a[2], (uint32_t)m->a[3],
                                          (uint32_t)m->a[4], (uint64_t)m->a[5],
                                          (uint32_t)m->a[6], (uint32_t)m->a[7]);
        break;
    case PORT_XLATE_INVALIDATE_IN_PD: {
        const struct eng_mr *r = mr_of(e, (uint32_t)m->a[0]);
        m->ret = r && r->pd == (uint32_t)m->a[1]
                     ? serve_eng_mr_invalidate(e, (uint32_t)m->a[0]) : -1;
        break;
    }
    case PORT_ENG_MR_INVALIDATE:
        m->ret = (int64_t)serve_eng_mr_invalidate(e, (uint32_t)m->a[0]);
        break;
    default:
        abort(); /* a port this module does not have: a wiring bug */
    }
}
