/*
 * req_pktgen.c - ReqPktGen: request header metadata (E18) plus payload ->
 * a framed packet with ICRC, handed to the wire.
 */
#include "eng.h"

void reqpkt_send(struct ibe_engine *e, int from, const struct eng_hdr *h,
                 const uint8_t *payload)
{
    eng_rec_hdr(e, from, M_REQPKTGEN, 18, h);
    size_t n = eng_wire_build(e, h, payload, e->pktbuf, sizeof e->pktbuf);
    if (!n)
        abort(); /* the engine built an impossible header: a bug */
    e->st.pkts_tx++;
    e->st.bytes_tx += n;
    if (e->tx)
        e->tx(e->tx_ctx, e, e->pktbuf, n);
}
