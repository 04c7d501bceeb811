/* SPDX-License-Identifier: Apache-2.0 */
/*
 * write_addr_table.c - WriteAddrTable (HanGu RDMA engine design §4.4.3): one
 * 96-bit entry per QP (E23: R_Key [95:64], VA [63:0]) holding where the next
 * RDMA Write Middle/Last packet goes.  Plain RAM: no logic.
 */
#include "eng.h"

#include "ibwire/records.h"

void wat_write(struct ibe_engine *e, uint32_t qpn, uint32_t rkey, uint64_t va)
{
    eng_rec_wat(e, M_EXEC, 1, qpn, rkey, va);
    uint32_t w[12];
    eng_pop(e, CH_WAT, w);
    struct ibw_write_addr_entry s;
    ibw_write_addr_entry_unpack(w, &s);
    e->wat[qpn % ENG_MAX_QP].rkey = s.rkey;
    e->wat[qpn % ENG_MAX_QP].va = s.va;
}

void wat_read(struct ibe_engine *e, uint32_t qpn, uint32_t *rkey, uint64_t *va)
{
    *rkey = e->wat[qpn % ENG_MAX_QP].rkey;
    *va = e->wat[qpn % ENG_MAX_QP].va;
    eng_rec_wat(e, M_WAT, 0, qpn, *rkey, *va);
    uint32_t w[12];
    eng_pop(e, CH_WAT, w);
    struct ibw_write_addr_entry s;
    ibw_write_addr_entry_unpack(w, &s);
    *rkey = s.rkey;
    *va = s.va;
}
