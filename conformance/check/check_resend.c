/* SPDX-License-Identifier: Apache-2.0 */
/*
 * check_resend.c - the requester's resends, each justified (rule
 * FLOW-RESEND-UNJUSTIFIED).  An RC requester goes back to a PSN it sent
 * for one of four reasons (IBA 9.7.5.1, 9.7.5.2, 9.7.6.1.1): a PSN sequence
 * error NAK, an RNR NAK whose timer ran out, READ responses with a gap, or
 * its local ACK timer.  A resend round (check_flow.c: a resend from a PSN
 * before the one resent last, or the first after new PSNs) that none of
 * them explains is an error.  What the capture point may hide keeps it
 * from being one:
 *   - a NAK recorded after the round, within the skew the flow leaves
 *     possible, may have reached the requester first: the round waits that
 *     long for one (rj_open) before it is judged;
 *   - a timeout is any time from the PSN's copy before to the round at
 *     least the shortest timeout the requester may use: the CM REQ's local
 *     ACK timeout when the capture holds it, else IBA's shortest nonzero
 *     one, 4.096 us x 2^1 (chk_ack_timeout_min).  That is the longest the
 *     timer can have run (it restarts, never starts earlier, at a send);
 *   - an RDMA READ or atomic request resent: a gap in its responses (a
 *     later response or ACK while its own is missing, lost before the
 *     capture or after) is reason enough;
 *   - the copy right after the same PSN's (no other request between): the
 *     network may duplicate a frame (netem duplicate on a path before the
 *     capture point);
 *   - during a recovery (from a NAK, an RNR NAK or a resend round until the
 *     responder has acknowledged every PSN sent by then) a requester may
 *     resend again for what the capture cannot show: a response the
 *     network duplicated or delayed after the capture point, an implied
 *     NAK (an ACK past a READ or atomic whose response it lacks), its own
 *     Go-Back-N resumed after new PSNs: only the round that begins one is
 *     judged;
 *   - a flow whose capture missed requests (FLOW-GBN's condition: a PSN it
 *     never saw while later ones came) may have missed its NAKs as well:
 *     not judged; nor is anything but RC.
 * The statement and its sources are in rules.h (FLOW_RESEND_UNJUSTIFIED).
 */
#include "check_int.h"

/* The round open on f, judged (whether the capture misses requests was
 * asked when it opened: what the flow shows later may be the checker's
 * reading of the resends themselves, a READ's span among them). */
static void resend_report(struct chk *c, struct chk_flow *f)
{
    f->rj_open = 0;
    uint64_t saved = c->frame;
    c->frame = f->rj_frame;
    if (f->rj_gap_ns == UINT64_MAX)
        chk_report(c, CHK_R_FLOW_RESEND_UNJUSTIFIED,
                   "PSN 0x%06x resent with no NAK, no RNR NAK and no READ "
                   "response gap before it", f->rj_psn);
    else
        chk_report(c, CHK_R_FLOW_RESEND_UNJUSTIFIED,
                   "PSN 0x%06x resent %llu.%03llu us after its copy before, with "
                   "no NAK, no RNR NAK and no READ response gap before it; the "
                   "shortest local ACK timeout is %llu.%03llu us%s",
                   f->rj_psn, (unsigned long long)(f->rj_gap_ns / 1000),
                   (unsigned long long)(f->rj_gap_ns % 1000),
                   (unsigned long long)(chk_ack_timeout_min(f) / 1000),
                   (unsigned long long)(chk_ack_timeout_min(f) % 1000),
                   f->ack_to_ns ? " (the CM REQ's, less 1/32)" : " (4.096 us x 2^1)");
    c->frame = saved;
}

void chk_resend_round(struct chk *c, struct chk_flow *f, uint32_t psn,
                      uint64_t gap_ns, int nak_pending, int dup_of_last,
                      uint8_t opcode)
{
    if (f->rj_open)
        chk_resend_due(c, f, 1); /* a round before: judged now */
    /* The checker pairs a NAK with the first round recorded after it; when
     * rounds follow each other closely that one may have had another
     * cause and a later one answered the NAK: a NAK recorded less than the
     * shortest local ACK timeout before the round may be its reason. */
    int after_nak = f->rj_have_nak && c->ts_ns >= f->rj_nak_ts &&
                    c->ts_ns - f->rj_nak_ts < chk_ack_timeout_min(f);
    int recovering = f->rj_recovering || after_nak;
    chk_resend_recovery(f, f->next_psn);
    if (f->tr != IBW_TR_RC || f->any_gap || nak_pending || dup_of_last || recovering)
        return;
    uint8_t op = opcode & 0x1F;
    if (op == (IBW_OP_RC_RDMA_READ_REQUEST & 0x1F) ||
        op == (IBW_OP_RC_COMPARE_SWAP & 0x1F) || op == (IBW_OP_RC_FETCH_ADD & 0x1F))
        return; /* a gap in its responses: a later response or ACK came
                   while its own did not (9.7.5.1.x: an implied NAK) */
    if (gap_ns != UINT64_MAX && gap_ns >= chk_ack_timeout_min(f))
        return; /* the local ACK timer may have run out */
    f->rj_open = 1;
    f->rj_psn = psn;
    f->rj_ts = c->ts_ns;
    f->rj_frame = c->frame;
    f->rj_gap_ns = gap_ns;
}

/* A NAK (or RNR NAK) naming nak_psn recorded at ts_ns.  It may explain
 * the round open when it may have reached the requester first and the
 * round starts at the PSN it names or past it (past it, FLOW-GBN judges
 * the skip): a requester goes back to the PSN a NAK names, so a round
 * from before it is none of its doing (a timeout's, if anything).  Before,
 * any NAK within the window did, and a resend-early round from an older
 * PSN went unsaid whenever a sequence NAK for a later loss followed. */
void chk_resend_nak(struct chk_flow *f, uint64_t ts_ns, uint64_t window_ns,
                    uint32_t nak_psn)
{
    f->rj_have_nak = 1;
    f->rj_nak_ts = ts_ns;
    if (f->rj_open && ts_ns >= f->rj_ts && ts_ns - f->rj_ts <= window_ns &&
        chk_psn_diff(f->rj_psn, nak_psn) >= 0)
        f->rj_open = 0; /* the NAK may have come first */
}

void chk_resend_due(struct chk *c, struct chk_flow *f, int force)
{
    if (!f->rj_open)
        return;
    if (!force && c->ts_ns <= f->rj_ts + chk_skew_window(c))
        return;
    resend_report(c, f);
}

void chk_resend_recovery(struct chk_flow *f, uint32_t next_psn)
{
    f->rj_recovering = 1;
    f->rj_recover_end = next_psn;
}

void chk_resend_acked(struct chk_flow *f, uint32_t r)
{
    if (f->rj_recovering &&
        chk_psn_diff(r, chk_psn_add(f->rj_recover_end, CHK_PSN_MASK)) >= 0)
        f->rj_recovering = 0;
}

/* ---- FLOW-GBN-QUIET: a Go-Back-N that stops short and goes quiet ----
 * A resend round resends from where it starts up to the last PSN sent
 * (9.7.5.2: Go-Back-N).  One that stops before that, after which the
 * requester sends nothing while the capture goes on, leaves requests
 * neither acknowledged nor resent: the requester's transport timer would
 * resend them, so it is said once the capture has run past the longest
 * local ACK timeout it may use after its last request (the CM REQ's when
 * the capture holds it, else IBA's longest, 4.096 us x 2^31), plus an RNR
 * NAK's timer if one is pending.  Not judged on a flow closed through CM
 * (the application may destroy a QP with work outstanding: its WRs flush),
 * nor where the capture missed requests, nor while a READ's span is not
 * known (where the round ends is then not known). */
#define CHK_MAX_ACK_TIMEOUT_NS (4096ull << 31)

void chk_resend_quiet(struct chk *c, struct chk_flow *f, uint64_t then_ns)
{
    if (f->tr != IBW_TR_RC || f->any_gap || f->closing || f->span_unknown ||
        !f->in_retrans || !f->s.requests || f->dead ||
        chk_psn_diff(f->next_psn, f->prev_end) <= 0)
        return;
    uint32_t last = chk_psn_add(f->next_psn, CHK_PSN_MASK);
    if (f->have_ack && chk_psn_diff(f->last_ack, last) >= 0)
        return; /* everything acknowledged after all */
    uint64_t bound = f->ack_to_ns && f->ack_to_ns != UINT64_MAX
                         ? f->ack_to_ns : CHK_MAX_ACK_TIMEOUT_NS;
    if (f->ack_to_ns == UINT64_MAX)
        return; /* no transport timer: nothing would resend */
    if (f->pending == CHK_PEND_RNR)
        bound += (uint64_t)f->pend_rnr_us * 1000u;
    if (then_ns <= f->last_req_ts || then_ns - f->last_req_ts <= bound)
        return;
    uint32_t from = f->prev_end;
    if (f->have_ack && chk_psn_diff(f->last_ack, from) >= 0)
        from = chk_psn_add(f->last_ack, 1);
    uint64_t saved = c->frame, quiet = then_ns - f->last_req_ts;
    c->frame = f->last_req_frame;
    chk_report(c, CHK_R_FLOW_GBN_QUIET,
               "resend round from 0x%06x stopped at 0x%06x with 0x%06x-0x%06x "
               "sent and not acknowledged; no request for %llu.%03llu ms while "
               "the capture went on, past the longest local ACK timeout "
               "(%llu.%03llu ms%s)", f->round_start,
               chk_psn_add(f->prev_end, CHK_PSN_MASK), from, last,
               (unsigned long long)(quiet / 1000000),
               (unsigned long long)(quiet / 1000 % 1000),
               (unsigned long long)(bound / 1000000),
               (unsigned long long)(bound / 1000 % 1000),
               f->ack_to_ns ? ", the CM REQ's" : ", 4.096 us x 2^31");
    c->frame = saved;
}
