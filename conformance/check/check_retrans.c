/* SPDX-License-Identifier: Apache-2.0 */
/* check_retrans.c - FLOW-RETRANS-DIFF: a retransmission repeats its
 * original (IBA 9.7.5.1: the requester retries the request it sent), and
 * a READ re-issued from inside its original's response PSNs asks for
 * exactly the rest.
 *
 * The history keeps, per request PSN, what was first sent there: opcode,
 * payload length and two 32-bit digests (CRC-32), one of the extension
 * headers after the BTH (RETH, AtomicETH, ImmDt, IETH, DETH) and one of
 * the payload, so that a resend is compared byte for byte without keeping
 * its bytes.  Frames the capture cut are compared by opcode and length
 * only; frames with a bad CRC never reach the history nor this rule (their
 * receiver dropped them, and any byte of them may be the one hit).
 *
 * Why CRC-32: every request's digest is taken (the first copy cannot know
 * it will be resent), so its cost per byte is the checker's: the library's
 * CRC-32 folds 64 bytes a step with PCLMULQDQ, the same pass the ICRC
 * costs, where a byte-at-a-time hash (FNV-1a, before) was over half of
 * `check`'s time.  It also tells apart every pair of copies that differ in
 * one burst of up to 32 bits, which a multiplicative hash does not
 * promise; other differences go unseen with odds of 2^-32. */
#include <stdio.h>

#include "check_int.h"
#include "ibwire/crc.h"

#define BTH_BYTES 12u

_Thread_local struct chk_digest_ahead chk_digest_ahead;

int chk_req_digest(const struct ibw_pkt *p, uint32_t *hdr, uint32_t *payload)
{
    if (p == chk_digest_ahead.p) { /* the same packet, taken ahead */
        *hdr = chk_digest_ahead.hdr;
        *payload = chk_digest_ahead.payload;
        return chk_digest_ahead.ok;
    }
    const uint8_t *bth = ibw_pkt_hdr(p, IBW_HDR_BTH);
    *hdr = *payload = 0;
    if (!bth || p->cut || !p->payload_off)
        return 0;
    const uint8_t *ext = bth + BTH_BYTES;
    const uint8_t *pl = p->data + p->payload_off;
    if (pl < ext || p->payload_off + p->payload_len > p->len)
        return 0;
    *hdr = ibw_crc32(0, ext, (size_t)(pl - ext));
    *payload = ibw_crc32(0, pl, p->payload_len);
    return 1;
}

void chk_retrans_resend(struct chk *c, struct chk_flow *f, const struct ibw_pkt *p,
                        const struct ibw_opcode_info *oi, uint32_t psn)
{
    struct chk_hist *h = chk_hist_get_mut(f, psn);
    if (!h)
        return;
    uint32_t pl = p->payload_wire_len > 0xFFFF ? 0xFFFF : p->payload_wire_len;
    if (h->opcode != p->opcode || h->paylen != pl) {
        /* The responder may have taken this copy, not the first: a NAK
         * Invalid Request at the PSN can no longer be held against the
         * first copy's fitness (FLOW-NAK-INVALID). */
        h->flags &= (uint8_t)~CHK_HIST_WF;
        chk_report(c, CHK_R_FLOW_RETRANS_DIFF,
                   "PSN 0x%06x resent as %s with %u bytes, first sent as "
                   "%s with %u bytes", psn, oi->name, pl,
                   ibw_opcode_info(h->opcode)->name, h->paylen);
        return;
    }
    uint32_t hd, pd;
    if (!(h->flags & CHK_HIST_DIGEST) || !chk_req_digest(p, &hd, &pd))
        return;
    if (hd != h->hdr_digest)
        chk_report(c, CHK_R_FLOW_RETRANS_DIFF,
                   "PSN 0x%06x resent as %s with other header fields after the "
                   "BTH (RETH/AtomicETH/ImmDt/IETH) than first sent", psn,
                   oi->name);
    else if (pd != h->digest)
        chk_report(c, CHK_R_FLOW_RETRANS_DIFF,
                   "PSN 0x%06x resent as %s with %u payload bytes that differ "
                   "from the original's", psn, oi->name, pl);
}

void chk_retrans_read_reissue(struct chk *c, struct chk_flow *f,
                              const struct ibw_pkt *p, const struct chk_outst *o,
                              uint32_t psn, int32_t k)
{
    uint32_t pmtu = chk_flow_pmtu(c, f);
    const uint8_t *reth = ibw_pkt_hdr(p, IBW_HDR_RETH);
    if (k < 0 || !reth || (k > 0 && (!o->span || !pmtu)))
        return;
    uint64_t done = (uint64_t)k * pmtu;
    if (done >= o->len)
        return;
    uint32_t len = ibw_reth_get_dmalen(reth);
    uint64_t va = ibw_reth_get_va(reth);
    if (len != o->len - done)
        chk_report(c, CHK_R_FLOW_RETRANS_DIFF,
                   "RDMA READ re-issued at PSN 0x%06x, %d PSNs into the one at "
                   "0x%06x, asks for %u bytes, the rest is %u", psn, k, o->psn,
                   len, (unsigned)(o->len - done));
    else if (o->have_va && va != o->va + done)
        chk_report(c, CHK_R_FLOW_RETRANS_DIFF,
                   "RDMA READ re-issued at PSN 0x%06x, %d PSNs into the one at "
                   "0x%06x, asks from VA 0x%llx, the rest starts at 0x%llx",
                   psn, k, o->psn, (unsigned long long)va,
                   (unsigned long long)(o->va + done));
    else if (o->have_va && ibw_reth_get_rkey(reth) != o->rkey)
        chk_report(c, CHK_R_FLOW_RETRANS_DIFF,
                   "RDMA READ re-issued at PSN 0x%06x with R_Key 0x%08x, the "
                   "one at 0x%06x had 0x%08x", psn, ibw_reth_get_rkey(reth),
                   o->psn, o->rkey);
}
