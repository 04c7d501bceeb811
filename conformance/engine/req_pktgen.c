/* SPDX-License-Identifier: Apache-2.0 */
/*
 * req_pktgen.c - ReqPktGen: request header metadata (E18, from
 * RequesterTransControl or, for re-sends, RequesterRecvControl) plus the
 * payload -> a framed packet with ICRC, handed to the 256To64 converter.
 */
#include "eng.h"

static void serve_reqpkt_send(struct ibe_engine *e, int from,
                              const struct eng_hdr *out, const uint8_t *payload)
{
    rec_hdr_put(e, CH_REQPKT_IN, from, M_REQPKTGEN, 18, out);
    struct eng_hdr h;
    rec_hdr_get(e, CH_REQPKT_IN, &h);
    size_t n = eng_wire_build(e, &h, payload, e->reqpkt.buf, sizeof e->reqpkt.buf);
    if (!n)
        abort(); /* the engine built an impossible header: a bug */
    if (e->faults) { /* faults.h: the bug zoo's ICRC mistakes (rows 1, 2) */
        if (ENG_FAULT(e, ICRC_NO_PAD))
            eng_wire_fault(e, e->reqpkt.buf, n, ENG_WF_ICRC_NO_PAD);
        if (ENG_FAULT(e, ICRC_PAD_OFFSET))
            eng_wire_fault(e, e->reqpkt.buf, n, ENG_WF_ICRC_PAD_OFFSET);
    }
    e->st.pkts_tx++;
    e->st.bytes_tx += n;
    bw_transmit(e, M_REQPKTGEN, e->reqpkt.buf, n);
}

void reqpkt_step(struct ibe_engine *e, struct eng_msg *m)
{
    switch (m->port) {
    case PORT_REQPKT_SEND:
        serve_reqpkt_send(e, (int)m->a[0], (const struct eng_hdr *)m->cp[0],
                          (const uint8_t *)m->cp[1]);
        break;
    default:
        abort(); /* a port this module does not have: a wiring bug */
    }
}
