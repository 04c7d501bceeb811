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
 *     timer can have run (it restarts, never starts earlier, at a send; and
 *     at an acknowledgement of new PSNs, below);
 *   - an RDMA READ or atomic request resent: a gap in its responses (a
 *     later response or ACK while its own is missing, lost before the
 *     capture or after) is reason enough;
 *   - the copy right after the same PSN's (no other request between): the
 *     network may duplicate a frame (netem duplicate on a path before the
 *     capture point);
 *   - during a recovery (from a NAK, an RNR NAK or a resend round until the
 *     responder has acknowledged every PSN sent by then, and answered every
 *     READ and atomic before them) a requester may resend again for what
 *     the capture cannot show, but only from where the recovery resends:
 *     the PSN its latest NAK named, or the oldest READ or atomic before it
 *     still unanswered (the NAK is an implied NAK for that one), after an
 *     RNR NAK's timer (a copy of that NAK the network duplicated after the
 *     capture point sends the requester there again), else the PSN of the
 *     round that began it; or from where a walk begun since the latest NAK
 *     stopped short of what was sent (its Go-Back-N resumed: a requester
 *     whose window of outstanding requests filled goes on later, after
 *     other rounds, also when the capture shows everything acknowledged
 *     meanwhile: the responses may have been lost after the capture
 *     point, and a requester that completes in order holds the requests
 *     after a READ it re-issued).  A round from anywhere else is judged
 *     as any other.  Before, every round
 *     inside a recovery was exempt, whatever PSN it started from, and a
 *     resend-early round from before or past the PSN of the NAK that began
 *     the recovery went unsaid (fault_variants: 3 to 7 of 50 under loss);
 *   - a timeout is judged by the time since the PSN's copy before and
 *     since the last response that acknowledged new PSNs, recorded before
 *     the round (plus the skew the flow allows): requesters restart the
 *     timer there (Linux rxe's completer re-arms retrans_timer on every
 *     response it takes while requests are outstanding; hfi1's do_rc_ack()
 *     while more ACKs are expected; the engine's after_progress());
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
    int quiet = f->rj_quiet_ns != UINT64_MAX;
    uint64_t since = quiet ? f->rj_quiet_ns : f->rj_gap_ns;
    if (since == UINT64_MAX)
        chk_report(c, CHK_R_FLOW_RESEND_UNJUSTIFIED,
                   "PSN 0x%06x resent with no NAK, no RNR NAK and no READ "
                   "response gap before it", f->rj_psn);
    else
        chk_report(c, CHK_R_FLOW_RESEND_UNJUSTIFIED,
                   "PSN 0x%06x resent %s%llu.%03llu us after %s, with no NAK, no "
                   "RNR NAK and no READ response gap before it; the shortest "
                   "local ACK timeout is %llu.%03llu us%s",
                   f->rj_psn, quiet ? "at most " : "",
                   (unsigned long long)(since / 1000),
                   (unsigned long long)(since % 1000),
                   quiet ? "an acknowledgement of new PSNs (which restarts the "
                           "local ACK timer)"
                         : "its copy before",
                   (unsigned long long)(chk_ack_timeout_min(f) / 1000),
                   (unsigned long long)(chk_ack_timeout_min(f) % 1000),
                   f->ack_to_ns ? " (the CM REQ's, less 1/32)" : " (4.096 us x 2^1)");
    c->frame = saved;
}

/* The recovery under way (its from and due set) lasts until the
 * responder has acknowledged every PSN the flow has sent by now. */
static void recovery_extend(struct chk_flow *f)
{
    f->rj_recovering = 1;
    f->rj_recover_end = f->next_psn;
}

/* Where walks stopped: the last CHK_RJ_STOPS points, forgotten when a
 * NAK sends the requester back elsewhere (its walk restarts there). */
void chk_resend_stop(struct chk_flow *f, uint32_t end)
{
    if (f->rj_round_ts < f->rj_from_ts ||
        chk_psn_diff(end, f->next_psn) >= 0)
        return; /* a walk a later NAK restarted, or nothing left behind */
    f->rj_stops[f->rj_stop_next] = end;
    f->rj_stop_next = (uint8_t)((f->rj_stop_next + 1) % CHK_RJ_STOPS);
    if (f->rj_nstops < CHK_RJ_STOPS)
        f->rj_nstops++;
}

/* Where the requester goes back to after a NAK naming nak_psn: that PSN,
 * or the oldest RDMA READ or atomic before it whose response it has not
 * had (the NAK acknowledges the requests before it, and is an implied
 * NAK for those: 9.7.5.1.x).  A scan of the READ/atomic ring, once per
 * NAK (the ring is in PSN order). */
static uint32_t nak_resend_from(const struct chk_flow *f, uint32_t nak_psn)
{
    for (unsigned k = 0; k < f->nout; k++) {
        const struct chk_outst *o = chk_outst_at(f, k);
        if (chk_psn_diff(o->psn, nak_psn) >= 0)
            break;
        if (!o->answered)
            return o->psn;
    }
    return nak_psn;
}

/* Does a round from psn go on where a walk begun since the latest NAK
 * stopped? */
static int resumes(const struct chk_flow *f, uint32_t psn)
{
    for (unsigned k = 0; k < f->rj_nstops; k++)
        if (f->rj_stops[k] == psn)
            return 1;
    return 0;
}

/* May the NAK naming nak_psn, recorded at nak_ts (its timer over at due),
 * be the reason of a round from psn recorded now?  Within the shortest
 * local ACK timeout after the NAK, or after an RNR NAK's timer ran out. */
static int nak_answered(const struct chk *c, const struct chk_flow *f,
                        uint32_t nak_psn, uint64_t nak_ts, uint64_t due,
                        uint32_t psn)
{
    return nak_ts && psn == nak_psn && c->ts_ns >= due &&
           c->ts_ns - due < chk_ack_timeout_min(f);
}

void chk_resend_round(struct chk *c, struct chk_flow *f, uint32_t psn,
                      uint64_t gap_ns, uint64_t quiet_ns, int nak_pending,
                      int dup_of_last, uint8_t opcode)
{
    if (f->rj_open)
        chk_resend_due(c, f, 1); /* a round before: judged now */
    /* The checker pairs a NAK with the first round recorded after it; when
     * rounds follow each other closely that one may have had another
     * cause and a later one answered the NAK: a NAK recorded less than the
     * shortest local ACK timeout before the round may be its reason, when
     * the round starts at its PSN.  So may the NAKs before the last one
     * (the last CHK_RJ_NAKS): the later ones may not have reached the
     * requester yet (a sequence NAK and an RNR NAK for the next PSN
     * recorded 0.1 us apart, the round from the first's PSN 0.9 us after
     * the second: rnr-ignore-timer seed 2 variant 26's control; three
     * sequence NAKs 0.3 us apart, the round from the first's PSN 1.1 us
     * after it: engine_latency_scenarios). */
    int after_nak = 0;
    for (unsigned k = 0; k < CHK_RJ_NAKS && !after_nak; k++)
        after_nak = nak_answered(c, f, f->rj_naks[k].psn, f->rj_naks[k].ts,
                                 f->rj_naks[k].due, psn);
    int resumed = resumes(f, psn);
    int recovering = after_nak || resumed ||
                     (f->rj_recovering && c->ts_ns >= f->rj_recover_due &&
                      psn == f->rj_recover_from);
    if (!f->rj_recovering) {
        f->rj_recover_from = psn;
        f->rj_recover_due = 0;
    }
    /* a walk resumed is that walk going on: where it stops next is a
     * point it may resume from again */
    if (!resumed)
        f->rj_round_ts = c->ts_ns;
    recovery_extend(f);
    if (f->tr != IBW_TR_RC || f->any_gap || nak_pending || dup_of_last ||
        recovering)
        return;
    uint8_t op = opcode & 0x1F;
    if (op == (IBW_OP_RC_RDMA_READ_REQUEST & 0x1F) ||
        op == (IBW_OP_RC_COMPARE_SWAP & 0x1F) || op == (IBW_OP_RC_FETCH_ADD & 0x1F))
        return; /* a gap in its responses: a later response or ACK came
                   while its own did not (9.7.5.1.x: an implied NAK) */
    uint64_t tmo = chk_ack_timeout_min(f);
    if (gap_ns != UINT64_MAX && gap_ns >= tmo && quiet_ns >= tmo)
        return; /* the local ACK timer may have run out */
    f->rj_open = 1;
    f->rj_quiet_ns = gap_ns != UINT64_MAX && gap_ns >= tmo ? quiet_ns : UINT64_MAX;
    f->rj_psn = psn;
    f->rj_ts = c->ts_ns;
    f->rj_frame = c->frame;
    f->rj_gap_ns = gap_ns;
}

/* A NAK (or RNR NAK, its timer rnr_us) naming nak_psn recorded at ts_ns.
 * It may explain the round open when it may have reached the requester
 * first and the round starts at the PSN it names or past it (past it,
 * FLOW-GBN judges the skip): a requester goes back to the PSN a NAK
 * names, so a round from before it is none of its doing (a timeout's, if
 * anything).  Before, any NAK within the window did, and a resend-early
 * round from an older PSN went unsaid whenever a sequence NAK for a later
 * loss followed.  The recovery it begins (or moves on) resends from that
 * PSN, not before the timer; a NAK older than the PSN the recovery under
 * way resends from is one the requester drops as stale (9.7.5.1.2). */
void chk_resend_nak(struct chk_flow *f, uint64_t ts_ns, uint64_t window_ns,
                    uint32_t nak_psn, uint32_t rnr_us)
{
    /* an RNR NAK's timer, less the tenth FLOW-RNR-WAIT allows */
    uint64_t due = ts_ns + (uint64_t)rnr_us * 900u;
    struct chk_rj_nak *n = &f->rj_naks[f->rj_nak_next];
    f->rj_nak_next = (uint8_t)((f->rj_nak_next + 1) % CHK_RJ_NAKS);
    n->psn = nak_psn;
    n->ts = ts_ns ? ts_ns : 1; /* 0: the slot is empty */
    n->due = due;
    if (f->rj_open && ts_ns >= f->rj_ts && ts_ns - f->rj_ts <= window_ns &&
        chk_psn_diff(f->rj_psn, nak_psn) >= 0)
        f->rj_open = 0; /* the NAK may have come first */
    uint32_t from = nak_resend_from(f, nak_psn);
    if (!f->rj_recovering || chk_psn_diff(from, f->rj_recover_from) > 0 ||
        (from == f->rj_recover_from && due > f->rj_recover_due)) {
        f->rj_recover_from = from;
        f->rj_from_ts = ts_ns;
        f->rj_recover_due = due;
        f->rj_nstops = f->rj_stop_next = 0; /* a walk from there begins */
    }
    recovery_extend(f);
}

void chk_resend_due(struct chk *c, struct chk_flow *f, int force)
{
    if (!f->rj_open)
        return;
    if (!force && c->ts_ns <= f->rj_ts + chk_skew_window(c))
        return;
    resend_report(c, f);
}


/* Is an RDMA READ or atomic before PSN end still without its response?
 * An acknowledgement past it is no acknowledgement of it. */
static int unanswered_before(const struct chk_flow *f, uint32_t end)
{
    return nak_resend_from(f, end) != end;
}

void chk_resend_acked(struct chk_flow *f, uint32_t r)
{
    if (f->rj_recovering &&
        chk_psn_diff(r, chk_psn_add(f->rj_recover_end, CHK_PSN_MASK)) >= 0 &&
        !unanswered_before(f, f->rj_recover_end)) {
        f->rj_recovering = 0;
    }
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
