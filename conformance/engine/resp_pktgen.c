/* SPDX-License-Identifier: Apache-2.0 */
/*
 * resp_pktgen.c - RespPktGen: ExecutionEngine's response metadata (E20: the
 * BTH, PMTU, message size and AETH) plus the data path (read data; for an
 * Atomic Acknowledge the original value, 8 bytes big-endian) -> ACK, NAK,
 * read response, atomic acknowledge or CNP packets, handed to the 256To64
 * converter.
 */
#include "eng.h"

#include "ibwire/base.h"

static void serve_resppkt_send(struct ibe_engine *e, const struct rec_resp *out,
                               const uint8_t *payload)
{
    /* the data path: payload bytes, or the atomic's original value */
    uint8_t orig[8];
    const uint8_t *data = payload;
    uint32_t len = out->h.paylen;
    if (ibw_opcode_kind(out->h.opcode) == IBW_OPK_ATOMIC_ACK) {
        ibw_store_be64(orig, out->h.orig);
        data = orig;
        len = 8;
    }
    rec_resp_put(e, out);
    struct rec_resp r;
    rec_resp_get(e, &r);
    if (ibw_opcode_kind(r.h.opcode) == IBW_OPK_ATOMIC_ACK) {
        r.h.orig = ibw_load_be64(data);
        data = NULL;
        len = 0;
    }
    r.h.paylen = len;
    size_t n = eng_wire_build(e, &r.h, data, e->resppkt.buf, sizeof e->resppkt.buf);
    if (!n)
        abort();
    if (ENG_FAULT(e, MIGREQ_SET)) /* faults.h: zoo row 29 */
        eng_wire_fault(e, e->resppkt.buf, n, ENG_WF_MIGREQ);
    if (ENG_FAULT(e, ICRC_MASK)) /* row 3 */
        eng_wire_fault(e, e->resppkt.buf, n, ENG_WF_ICRC_MASK);
    e->st.pkts_tx++;
    e->st.bytes_tx += n;
    bw_transmit(e, M_RESPPKTGEN, e->resppkt.buf, n);
}

void resppkt_step(struct ibe_engine *e, struct eng_msg *m)
{
    switch (m->port) {
    case PORT_RESPPKT_SEND:
        serve_resppkt_send(e, (const struct rec_resp *)m->cp[0],
                           (const uint8_t *)m->cp[1]);
        break;
    default:
        abort(); /* a port this module does not have: a wiring bug */
    }
}
