/* SPDX-License-Identifier: Apache-2.0 */
/*
 * req_pktgen.c - ReqPktGen: request header metadata (E18, from
 * RequesterTransControl or, for re-sends, RequesterRecvControl) plus the
 * payload -> a framed packet with ICRC, handed to the 256To64 converter.
 */
#include "eng.h"

void reqpkt_send(struct ibe_engine *e, int from, const struct eng_hdr *out,
                 const uint8_t *payload)
{
    rec_hdr_put(e, CH_REQPKT_IN, from, M_REQPKTGEN, 18, out);
    struct eng_hdr h;
    rec_hdr_get(e, CH_REQPKT_IN, &h);
    size_t n = eng_wire_build(e, &h, payload, e->pktbuf, sizeof e->pktbuf);
    if (!n)
        abort(); /* the engine built an impossible header: a bug */
    e->st.pkts_tx++;
    e->st.bytes_tx += n;
    bw_transmit(e, M_REQPKTGEN, e->pktbuf, n);
}
