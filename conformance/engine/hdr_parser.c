/* SPDX-License-Identifier: Apache-2.0 */
/*
 * hdr_parser.c - HeaderParser: parses every received packet (ibw_parse),
 * drops what fails the ICRC or does not parse, applies the RoCE receive
 * checks that need no QP state beyond existence (DestQP > 1 and enabled,
 * P_Key match, the opcode of the QP's service type) and routes: requests
 * to the ExecutionEngine (E18), responses to RequesterRecvControl (E19),
 * CNPs to the requester.
 */
#include "eng.h"

static bool pkey_ok(uint16_t a, uint16_t b)
{
    /* low 15 bits equal and at least one full member (UniVista RoCEv2 notes
     * §2.5.2 RC_CHK) */
    return (a & 0x7FFF) == (b & 0x7FFF) && ((a | b) & 0x8000);
}

static void serve_hp_receive(struct ibe_engine *e, const uint8_t *pkt,
                             size_t len)
{
    struct eng_hdr h;
    const uint8_t *payload;
    const char *why;
    e->st.pkts_rx++;
    /* faults.h, zoo row 24: frames under 65 bytes not ICRC-checked */
    int err = eng_wire_parse_ex(pkt, len, e->cfg.framing, &h, &payload, &why,
                                len < 65 && ENG_FAULT(e, ICRC_SMALL_UNCHECKED));
    uint8_t fixed[4096 + 256];
    if (err && err != IBW_E_CRC && ENG_FAULT(e, RUNT_ACCEPT) &&
        eng_wire_fault_runt(pkt, len, fixed, sizeof fixed)) {
        /* faults.h, zoo row 12: the UDP length not checked, the frame
         * taken by its IPv4 length (and the ICRC not checked either) */
        err = eng_wire_parse_ex(fixed, len, e->cfg.framing, &h, &payload, &why, 1);
    }
    if (err == IBW_E_CRC) {
        e->st.icrc_drops++;
        return;
    }
    if (err) {
        e->st.malformed_drops++;
        return;
    }
    struct eng_qp *q = eng_qp(e, h.destqp);
    struct eng_view v;
    /* faults.h, zoo row 31c: RC QPs numbered from 1 */
    uint32_t lowest = ENG_FAULT(e, QPN_01) ? 1 : 2;
    if (q && h.destqp >= lowest) /* the P_Key: the frame-encapsulation view */
        cxt_read(e, M_HDRPARSER, CXT_RD_QP, CXR_ENCAP, q->qpn, &v);
    if (!q || h.destqp < lowest || !pkey_ok(h.pkey, v.pkey)) {
        e->st.malformed_drops++;
        return;
    }
    if (h.opcode == IBW_OP_CNP) {
        rrc_cnp(e, q);
        return;
    }
    /* An opcode of another service type than the QP's (RD, XRC or any
     * other to an RC/UC/UD QP) is dropped, as by any receiver; its headers
     * would not fit the QP's records either. */
    if (!ibw_opcode_valid(h.opcode) ||
        ibw_opcode_transport(h.opcode) != eng_transport_of(v.type)) {
        e->st.malformed_drops++;
        return;
    }
    if (ibw_opcode_is_response(h.opcode)) {
        rec_hdr_put(e, CH_RRC_IN, M_HDRPARSER, M_REQRECV, 19, &h);
        rrc_response(e, payload, h.paylen);
    } else {
        rec_hdr_put(e, CH_EXEC_IN, M_HDRPARSER, M_EXEC, 18, &h);
        ee_request(e, payload, h.paylen);
    }
}

void hp_step(struct ibe_engine *e, struct eng_msg *m)
{
    switch (m->port) {
    case PORT_HP_RECEIVE:
        serve_hp_receive(e, (const uint8_t *)m->cp[0], (size_t)m->a[0]);
        break;
    default:
        abort(); /* a port this module does not have: a wiring bug */
    }
}
