/*
 * resp_pktgen.c - RespPktGen: ExecutionEngine's response metadata (E20: the
 * BTH, PMTU, message size and AETH) plus read data -> ACK, NAK, read
 * response, atomic acknowledge or CNP packets.
 */
#include "eng.h"

void resppkt_send(struct ibe_engine *e, const struct rec_resp *r,
                  const uint8_t *payload)
{
    eng_rec_resp(e, M_EXEC, M_RESPPKTGEN, r);
    size_t n = eng_wire_build(e, &r->h, payload, e->pktbuf, sizeof e->pktbuf);
    if (!n)
        abort();
    e->st.pkts_tx++;
    e->st.bytes_tx += n;
    if (e->tx)
        e->tx(e->tx_ctx, e, e->pktbuf, n);
}
