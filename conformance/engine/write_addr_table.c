/* SPDX-License-Identifier: Apache-2.0 */
/*
 * write_addr_table.c - WriteAddrTable (HanGu RDMA engine design §4.4.3): one
 * 96-bit entry per QP (E23: R_Key [95:64], VA [63:0]) holding where the next
 * RDMA Write Middle/Last packet goes.  Plain RAM: no logic.
 */
#include "eng.h"

#include "ibwire/records.h"

static void serve_wat_write(struct ibe_engine *e, uint32_t qpn, uint32_t rkey,
                            uint64_t va)
{
    eng_rec_wat(e, M_EXEC, 1, qpn, rkey, va);
    uint32_t w[12];
    eng_pop(e, CH_WAT, w);
    struct ibw_write_addr_entry s;
    ibw_write_addr_entry_unpack(w, &s);
    e->wat.ent[qpn % ENG_MAX_QP].rkey = s.rkey;
    e->wat.ent[qpn % ENG_MAX_QP].va = s.va;
}

static void serve_wat_read(struct ibe_engine *e, uint32_t qpn, uint32_t *rkey,
                           uint64_t *va)
{
    *rkey = e->wat.ent[qpn % ENG_MAX_QP].rkey;
    *va = e->wat.ent[qpn % ENG_MAX_QP].va;
    eng_rec_wat(e, M_WAT, 0, qpn, *rkey, *va);
    uint32_t w[12];
    eng_pop(e, CH_WAT, w);
    struct ibw_write_addr_entry s;
    ibw_write_addr_entry_unpack(w, &s);
    *rkey = s.rkey;
    *va = s.va;
}

void wat_step(struct ibe_engine *e, struct eng_msg *m)
{
    switch (m->port) {
    case PORT_WAT_WRITE:
        serve_wat_write(e, (uint32_t)m->a[0], (uint32_t)m->a[1],
                        (uint64_t)m->a[2]);
        break;
    case PORT_WAT_READ:
        serve_wat_read(e, (uint32_t)m->a[0], (uint32_t *)m->p[0],
                       (uint64_t *)m->p[1]);
        break;
    default:
        abort(); /* a port this module does not have: a wiring bug */
    }
}
