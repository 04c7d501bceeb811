/*
 * write_addr_table.c - WriteAddrTable (seed 000 §4.4.3): one 96-bit entry
 * per QP (E23: R_Key [95:64], VA [63:0]) holding where the next RDMA Write
 * Middle/Last packet goes.  Plain RAM: no logic.
 */
#include "eng.h"

void wat_write(struct ibe_engine *e, uint32_t qpn, uint32_t rkey, uint64_t va)
{
    eng_rec_wat(e, M_EXEC, 1, qpn, rkey, va);
    e->wat[qpn % ENG_MAX_QP].rkey = rkey;
    e->wat[qpn % ENG_MAX_QP].va = va;
}

void wat_read(struct ibe_engine *e, uint32_t qpn, uint32_t *rkey, uint64_t *va)
{
    *rkey = e->wat[qpn % ENG_MAX_QP].rkey;
    *va = e->wat[qpn % ENG_MAX_QP].va;
    eng_rec_wat(e, M_EXEC, 0, qpn, *rkey, *va);
}
