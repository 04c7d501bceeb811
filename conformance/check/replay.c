/* SPDX-License-Identifier: Apache-2.0 */
/*
 * replay.c - the reference responder behind `ibwire check --replay`.
 *
 * Each RC flow gets its own engine with one QP: ePSN = the PSN of the
 * flow's first request, PMTU = the flow's (learnt by the checker, or
 * --pmtu), P_Key = the flow's.  Its memory is one permissive region: a
 * receive window, and a pool the 4 KiB pages of every (R_Key, VA) seen are
 * mapped to (a hash table: buffers anywhere in 64 bits, see "memory"
 * below), so RETH/AtomicETH addresses are rewritten into the pool and
 * valid traffic is accepted.  Its receive queue is kept full.  Flows are
 * found by hash; up to RP_MAXFLOWS (2048) are replayed.
 *
 * Memory, bounded: per flow the engine and its first snapshot (1.37 MiB
 * measured with 2000 flows, conformance/tests/replay/bench_replay.py: so
 * about 2.8 GiB at RP_MAXFLOWS), the page pool (all flows: 1 GiB, "memory"
 * below), the request rings (all flows: RP_SNAP_TOTAL entries, each a
 * rebuilt request of at most 8 KiB and its incremental snapshot).  A
 * frame costs the same with 1 or 1000 flows (the bench's marginal cost).
 *
 * What the reference cannot know, and so is not judged:
 * - receive WQEs posted: a captured RNR NAK is accepted;
 * - memory contents: read payload bytes are not compared; an atomic's
 *   original value only when the word was written or atomically updated
 *   earlier in the capture (otherwise the captured value is learnt);
 * - ACK coalescing: an ACK the reference sends may be covered by any later
 *   response, and an ACK the reference does not send is accepted when its
 *   MSN is one the reference had;
 * - MSN origin: MSNs compare relative to the flow's first response to a
 *   request the reference took, unless CM negotiated the flow (then from
 *   0);
 * - responses after the end of the capture: an answer is only reported
 *   missing when the capture has one the reference sends after it, or a
 *   response at its PSN or a later one judged after it.
 *
 * It follows the capture point like the checker (capture-points.md):
 * - cut frames: the headers kept are fed, the payload as long as the
 *   length fields say; a READ split before the PMTU was learnt is fed again;
 * - one direction recorded late: a response the reference does not answer
 *   yet waits (the checker's skew window) for the request that causes it,
 *   and the responses recorded after it wait behind it;
 * - requests the capture lost (a response shows the responder got PSNs
 *   the reference never did: acknowledged, never resent): the reference
 *   jumps over the hole (every hole below that response, where requests
 *   it was fed again meet them) and resumes at the next message start; a
 *   MIDDLE or LAST it then sees completes the message the hole began.  The
 *   response that showed the hole, when an ACK or atomic ACK, gives the
 *   responder's MSN after it, which the reference takes; otherwise the
 *   MSNs of the messages in the hole are unknown (msn_slack: the next
 *   difference within it moves the origin).  What depends on the lost
 *   requests is not compared: the responses to them (nothing to compare
 *   with), the memory they may have written (every word is unknown
 *   again: atomics learn), and a response missing from the capture
 *   (REPLAY-MISSING is not reported on a flow whose capture point is thus
 *   shown to lose frames).  When the responder had NAKed where the
 *   reference waits (the sequence NAK is in the capture), it dropped the
 *   requests after it as the reference did: the hole is only the resends
 *   the capture lost.  A hole older than the request ring (1024 requests,
 *   8192 while the reference waits at a hole) stops the flow
 *   (REPLAY-SKIPPED, once);
 * - lossy links: requests lost after the capture point are rewound over
 *   (NAK, RNR NAK; a NAK again at a resend lost the same way, as the
 *   checker's FLOW-GBN reads it; one too far back for the ring stops the
 *   flow), duplicates it did not see are fed when their answer
 *   shows, corrupted frames are not fed and stand for the answer at their
 *   PSN; the answers to copies of a request the requester sent again are
 *   not missing while one copy was answered (answered_again()).  A rewind restores the reference's whole world (QP, host memory,
 *   CQs, time) from the incremental snapshot taken before the request it
 *   goes back to (engine.h); each request fed keeps one in the ring.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_int.h"
#include "eng.h"
#include "replay.h"

/* The reference's memory (see "memory" below): per flow, a receive
 * window and a pool of 4 KiB pages the R_Key pages seen are mapped to. */
#define RP_PAGE 4096u
#define RP_RECV (16ull << 20)        /* receive buffers (SEND payloads) */
#define RP_POOL (64ull << 20)        /* a flow's pool: its largest message */
#define RP_POOL_PAGES ((uint32_t)(RP_POOL / RP_PAGE))
#define RP_BUDGET_PAGES ((uint32_t)((1ull << 30) / RP_PAGE)) /* all flows */
#define RP_SHARE_MIN 64u             /* pages a flow may always hold */
#define RP_MEM (RP_RECV + RP_POOL + (1ull << 20)) /* + CQ, SQ, RQ rings */
#define RP_MAXFLOWS 2048u
#define RP_SNAP_TOTAL (64u * 1024u)  /* ring entries, all flows together */
#define RP_HIST 4096u
#define RP_KNOWN 64u
#define RP_LEARNT 64u
#define RP_SAVED 256u      /* atomics' first captured answers, by PSN: the
                              most responder resources (8 bits) allow */
#define RP_RQ 64u
#define RP_SKEW_DEFAULT_NS 1000000ull /* the checker's default skew window */
#define RP_SNAP 32u        /* requests the reference can be rewound over: */
#define RP_SNAP_MAX 1024u  /* ... the ring grows to this many, */
#define RP_SNAP_WAIT_MAX 8192u /* ... or this many while the reference waits
                                  (requests out of sequence: a hole the
                                  capture lost, its ACK still to come) */
#define RP_NONE (~0u)

struct rp_exp {
    uint64_t req_frame;
    uint64_t tick;      /* rp_flow.clock when it was produced */
    uint32_t psn, msn, paylen;
    uint8_t opcode, syn, has_aeth;
    uint8_t matched;    /* 1 by a captured response, 2 void (fed again),
                           3 by a corrupted one */
    uint8_t was_matched; /* void, and matched 1 before (refeed_rematch()) */
    uint8_t passed;     /* a captured response judged after it names its
                           PSN or a later one */
    uint8_t orig_known, atom_op;
    uint8_t optional;   /* a responder may or may not send it */
    uint8_t went_back;  /* a PSN sequence NAK: a request at its PSN was
                           recorded after the one that drew it (naks_went_back()) */
    uint8_t any_msn;    /* answers a duplicate the capture did not see: its
                           MSN is the one when the duplicate arrived */
    uint8_t dup_fed;    /* answers a request fed below the reference's ePSN
                           (a duplicate): its MSN is the reference's current
                           one then, which a later jump over a hole the
                           capture lost may show to be stale (jump_to()) */
    uint8_t msn_range;  /* a READ response to a duplicate: statement MSN
                           allows any MSN from msn_lo (the READ's first
                           answer had it) to msn (the reference's now) */
    uint32_t msn_lo;
    uint64_t orig, atom_addr, swap, cmp;
    uint64_t frame_max; /* the largest req_frame of this one and those
                           before it (refeed() finds the answers to void) */
};

/* What the comparison needs of a captured response (it may be held). */
struct rp_resp {
    uint64_t frame, ts_ns;
    uint32_t psn, msn, paylen;
    uint8_t opcode, has_aeth, syn, paylen_known, has_orig;
    uint64_t orig;
};

/* The reference before a request (its world, incremental snapshots in
 * ring order), and that request as fed. */
struct rp_snap {
    uint32_t psn;
    uint64_t frame, ts_ns;
    uint8_t opcode;
    uint8_t resync;      /* rp_flow.resync before it */
    uint32_t msn_slack;  /* rp_flow.msn_slack before it */
    uint8_t pmtu_guess;  /* a READ fed before the flow's PMTU was known */
    uint32_t read_len;   /* its DMA length */
    uint32_t epsn;       /* the reference's ePSN before it */
    struct ibe_snapshot *world; /* NULL in the slots outside the ring */
    uint64_t order;      /* rp_flow.order when the world was taken */
    uint8_t atom_valid;  /* an atomic, on the word at atom_addr */
    uint64_t atom_addr;
    /* the atomic as fed (rp_flow.cur_atom...), for its answers when it is
     * fed again (a rewind, a duplicate the capture did not see) */
    uint8_t atom_op, atom_known;
    uint64_t atom_swap, atom_cmp;
    /* a PSN sequence NAK named it: taken as lost after the capture point,
     * not fed again, unless the responder shows it took it after all
     * (delivered late: capture_lost()) */
    uint8_t refused;
    size_t len, cap;
    uint8_t *pkt;       /* owned by the slot */
};

struct rp_flow {
    struct rp_snap *snap;
    unsigned nsnap, snap_head, capsnap; /* ring, oldest at snap_head */
    uint8_t snap_dropped;    /* requests left the ring */
    struct chk_addr req, resp;
    uint32_t resp_qpn;
    uint32_t req_qpn;        /* the requester QP, responses go to */
    uint8_t req_qpn_known;
    int skipped;
    struct ibe_world *w;
    struct ibe_engine *e;
    uint32_t qpn, cq, lkey, rkey, pmtu;
    uint8_t pmtu_known;  /* pmtu is the flow's, not the default */
    uint32_t start_psn;  /* the PSN the reference started at (rebase()) */
    uint8_t guess_lost;  /* such a READ left the ring before it was known */
    /* requests the capture lost: the responder acknowledged PSNs the
     * reference never got, so it resumes at the next message start */
    uint8_t resync;      /* waiting for that message start */
    uint32_t msn_slack;  /* messages the lost requests may have completed:
                            the next MSN compared may be ahead by that much */
    uint8_t lossy;       /* the capture lost requests of this flow */
    uint8_t jmsn_valid;  /* a jump to jmsn_to lands at MSN jmsn (relative) */
    uint32_t jmsn_to, jmsn;
    uint64_t base;           /* receive window, then the page pool */
    /* R_Key pages -> pool pages (open addressing, vpage + 1, 0 = free) */
    struct rp_page { uint64_t vpage; uint32_t rkey, lpage; } *pt;
    uint32_t ptcap, ptn;
    uint32_t pool_next;      /* pool pages handed out since the last reset */
    uint32_t hnext, hnext2;  /* hash chains (rp->bk, rp->bk2), index + 1 */
    uint32_t idx;            /* in rp->flows */
    struct { uint64_t lo, hi; } known[RP_KNOWN];
    unsigned nknown, known_next;
    /* atomic words learnt from the capture: knowledge, not the reference's
     * doing, so a rewind to after their atomic keeps them */
    struct { uint64_t addr, value, req_frame, order; } learnt[RP_LEARNT];
    unsigned nlearnt, learnt_next;
    /* The original value the capture's first answer at an atomic's PSN
     * returned: the result the responder saved, which every answer to a
     * duplicate of that atomic returns (statement DUP-REQUEST).  A fact of
     * the capture, kept across rewinds. */
    struct rp_saved { uint32_t psn; uint8_t valid; uint64_t orig; } saved[RP_SAVED];
    unsigned saved_next;
    uint64_t order;          /* orders world snapshots and learnt words */
    struct rp_exp *exp;
    size_t nexp, cap;
    /* Indices into exp, ascending: every answer not matched yet, and some
     * matched since (live_prune() drops those).  The searches for
     * unmatched answers walk this, not the flow's whole history: a long
     * flow's answers are almost all matched. */
    size_t *live, nlive, caplive, live_kept;
    /* Indices into exp, ascending, of the PSN sequence NAKs (capture_lost()) */
    size_t *naks, nnaks, capnaks;
    size_t naks_open;        /* naks before this one are settled */
    struct { uint32_t psn, msn; uint8_t valid; } hist[RP_HIST];
    int have_off;
    uint32_t msn_off;
    /* the highest MSN (relative) a recorded response carried: the
     * responder's MSN is at least that from then on */
    uint32_t rec_msn_max;
    uint8_t have_rec_msn;
    uint64_t clock;          /* counts requests fed and responses judged */
    uint8_t cm;              /* CM negotiated the flow (MSNs from 0) */
    uint8_t skewed;          /* the checker found responses recorded early */
    struct rp_resp *held;    /* captured responses the reference does not
                                answer yet: their request may come late */
    size_t nheld, capheld;
    /* the request being fed, for the expectations it produces */
    uint64_t cur_frame, cur_tick;
    uint8_t cur_dup;      /* feeding a duplicate the capture did not see */
    uint8_t cur_below;    /* feeding a request below the reference's ePSN */
    uint8_t rnr;          /* the reference was rewound by an RNR NAK at */
    uint32_t rnr_psn;     /* ... this PSN and has not taken it since */
    uint8_t cur_atom, cur_atom_known;
    uint64_t cur_atom_addr, cur_swap, cur_cmp;
};

struct replay {
    struct chk *c;
    uint32_t pmtu;
    struct rp_flow **flows;
    uint32_t nflows, capflows;
    /* flows by (responder QPN, requester, responder) in bk, and by
     * (requester QPN, responder, requester) in bk2 once the requester QPN
     * is known: index + 1 of the first, chained through hnext/hnext2 */
    uint32_t *bk, *bk2, nbk;
    uint32_t pages_used;     /* pool pages held by all flows */
    unsigned snap_total;     /* ring entries of all flows */
    int overflow_reported;
};

void replay_bind(struct replay *rp, struct chk *c) { rp->c = c; }

/* Report through the checker, naming `frame` (the frame being fed unless
 * a missing response is reported at the end). */
static void rp_report(struct replay *rp, uint64_t frame, unsigned rule,
                      const char *msg)
{
    uint64_t saved = rp->c->frame;
    rp->c->frame = frame;
    chk_report(rp->c, rule, "%s", msg);
    rp->c->frame = saved;
}

/* ---- flows: found by hash, so a frame costs the same with 10 or 4000 ---- */

static uint32_t hash_key(uint32_t qpn, const struct chk_addr *a,
                         const struct chk_addr *b)
{
    uint64_t h = 1469598103934665603ull ^ qpn; /* FNV-1a */
    h *= 1099511628211ull;
    const struct chk_addr *ab[2] = {a, b};
    for (int k = 0; k < 2; k++) {
        h = (h ^ ab[k]->kind) * 1099511628211ull;
        for (size_t i = 0; i < sizeof ab[k]->a; i++)
            h = (h ^ ab[k]->a[i]) * 1099511628211ull;
    }
    return (uint32_t)(h ^ h >> 32);
}

static void link1(struct replay *rp, struct rp_flow *f)
{
    uint32_t b = hash_key(f->resp_qpn, &f->req, &f->resp) & (rp->nbk - 1);
    f->hnext = rp->bk[b];
    rp->bk[b] = f->idx + 1;
}

static void link2(struct replay *rp, struct rp_flow *f)
{
    uint32_t b = hash_key(f->req_qpn, &f->resp, &f->req) & (rp->nbk - 1);
    f->hnext2 = rp->bk2[b];
    rp->bk2[b] = f->idx + 1;
}

static void unlink2(struct replay *rp, struct rp_flow *f)
{
    uint32_t *at = &rp->bk2[hash_key(f->req_qpn, &f->resp, &f->req) &
                            (rp->nbk - 1)];
    while (*at && *at != f->idx + 1)
        at = &rp->flows[*at - 1]->hnext2;
    if (*at)
        *at = f->hnext2;
}

/* Room for one more flow in the array and the tables (rebuilt at twice
 * the size when they hold as many flows as buckets).  -1: out of memory. */
static int flows_room(struct replay *rp)
{
    if (rp->nflows == rp->capflows) {
        uint32_t nc = rp->capflows ? rp->capflows * 2 : 16;
        struct rp_flow **nf = realloc(rp->flows, nc * sizeof *nf);
        if (!nf)
            return -1;
        rp->flows = nf;
        rp->capflows = nc;
    }
    if (rp->nflows + 1 > rp->nbk) {
        uint32_t nb = rp->nbk ? rp->nbk * 2 : 64;
        uint32_t *b1 = calloc(nb, sizeof *b1), *b2 = calloc(nb, sizeof *b2);
        if (!b1 || !b2) {
            free(b1);
            free(b2);
            return -1;
        }
        free(rp->bk);
        free(rp->bk2);
        rp->bk = b1;
        rp->bk2 = b2;
        rp->nbk = nb;
        for (uint32_t i = 0; i < rp->nflows; i++) {
            link1(rp, rp->flows[i]);
            if (rp->flows[i]->req_qpn_known)
                link2(rp, rp->flows[i]);
        }
    }
    return 0;
}

static struct rp_flow *flow_find(struct replay *rp,
                                 const struct chk_flow_summary *s)
{
    if (!rp->nbk)
        return NULL;
    for (uint32_t i = rp->bk[hash_key(s->resp_qpn, &s->req, &s->resp) &
                            (rp->nbk - 1)];
         i; i = rp->flows[i - 1]->hnext) {
        struct rp_flow *f = rp->flows[i - 1];
        if (f->resp_qpn == s->resp_qpn && chk_addr_eq(&f->req, &s->req) &&
            chk_addr_eq(&f->resp, &s->resp))
            return f;
    }
    return NULL;
}

/* The flow whose responses go from `resp` to QP req_qpn at `req`. */
static struct rp_flow *flow_find_resp(struct replay *rp, uint32_t req_qpn,
                                      const struct chk_addr *resp,
                                      const struct chk_addr *req)
{
    if (!rp->nbk)
        return NULL;
    for (uint32_t i = rp->bk2[hash_key(req_qpn, resp, req) & (rp->nbk - 1)];
         i; i = rp->flows[i - 1]->hnext2) {
        struct rp_flow *f = rp->flows[i - 1];
        if (f->req_qpn_known && f->req_qpn == req_qpn &&
            chk_addr_eq(&f->resp, resp) && chk_addr_eq(&f->req, req))
            return f;
    }
    return NULL;
}

static void skip_flow(struct replay *rp, struct rp_flow *f, uint64_t frame,
                      const char *why)
{
    char m[256];
    snprintf(m, sizeof m, "the reference stops replaying this flow: %s", why);
    f->skipped = 1;
    rp_report(rp, frame, CHK_R_REPLAY_SKIPPED, m);
}

/*
 * ---- memory: R_Key pages and the words whose contents are known ----
 *
 * The responder's memory is a sparse space per R_Key (buffers anywhere in
 * 64 bits of VA: NCCL spreads them over terabytes).  The reference maps
 * each 4 KiB page of an (R_Key, VA) a request touches to a page of its
 * flow's pool, found through a hash table, and rewrites the RETH or
 * AtomicETH into the pool.  A request's pages must be consecutive in the
 * pool (the engine's DMA is): when they are not already, a fresh run is
 * handed out and its pages remapped; the contents the old pages held
 * are then not known any more (dropped from `known`), which only means an
 * atomic on them learns its word from the capture instead of being
 * compared.  Contents matter nowhere else (read payloads are not
 * compared).
 *
 * Bounds: a flow's pool is RP_POOL (64 MiB, its largest message); all
 * flows together hold at most RP_BUDGET_PAGES (1 GiB), but a flow may
 * always hold its share of it (and at least RP_SHARE_MIN pages).  A flow
 * needing more than it may hold starts its pool again (every page
 * forgotten, as above).  Only a message larger than the pool stops the
 * flow (REPLAY-SKIPPED).
 */

static void pool_reset(struct replay *rp, struct rp_flow *f)
{
    rp->pages_used -= f->pool_next;
    f->pool_next = 0;
    if (f->pt)
        memset(f->pt, 0, (size_t)f->ptcap * sizeof *f->pt);
    f->ptn = 0;
    f->nknown = f->known_next = 0; /* local addresses, reused now */
    f->nlearnt = f->learnt_next = 0;
}

static struct rp_page *page_slot(const struct rp_flow *f, uint32_t rkey,
                                 uint64_t vpage)
{
    uint64_t h = (vpage ^ (uint64_t)rkey << 40) * 0x9E3779B97F4A7C15ull;
    uint32_t i = (uint32_t)(h >> 32) & (f->ptcap - 1);
    while (f->pt[i].vpage && !(f->pt[i].vpage == vpage + 1 &&
                                f->pt[i].rkey == rkey))
        i = (i + 1) & (f->ptcap - 1);
    return &f->pt[i];
}

/* The table with room for `more` entries (kept at most half full).  A flow
 * holds at most RP_POOL_PAGES entries: a reset empties it first. */
static int pt_room(struct rp_flow *f, uint32_t more)
{
    if ((uint64_t)(f->ptn + more) * 2 <= f->ptcap)
        return 0;
    uint32_t nc = f->ptcap ? f->ptcap : 256;
    while ((uint64_t)(f->ptn + more) * 2 > nc)
        nc *= 2;
    struct rp_page *old = f->pt;
    uint32_t oc = f->ptcap;
    f->pt = calloc(nc, sizeof *f->pt);
    if (!f->pt) {
        f->pt = old;
        return -1;
    }
    f->ptcap = nc;
    for (uint32_t i = 0; i < oc; i++)
        if (old[i].vpage)
            *page_slot(f, old[i].rkey, old[i].vpage - 1) = old[i];
    free(old);
    return 0;
}

/* Drop the known ranges that overlap [lo, hi): its pages move. */
static void known_drop(struct rp_flow *f, uint64_t lo, uint64_t hi)
{
    for (unsigned i = 0; i < f->nknown; i++)
        if (f->known[i].lo < hi && lo < f->known[i].hi)
            f->known[i].lo = f->known[i].hi = 0;
}

/* Local address of [va, va + len) under rkey: 0, or -1 when the range is
 * larger than the pool, -2 out of memory. */
static int map_addr(struct replay *rp, struct rp_flow *f, uint32_t rkey,
                    uint64_t va, uint64_t len, uint64_t *local)
{
    if (!len)
        len = 1;
    if (len > RP_POOL || va + (len - 1) < va)
        return -1;
    uint64_t p0 = va / RP_PAGE;
    uint32_t np = (uint32_t)((va + len - 1) / RP_PAGE - p0 + 1);
    if (np > RP_POOL_PAGES)
        return -1;
    if (f->ptcap) {
        struct rp_page *e = page_slot(f, rkey, p0);
        uint32_t i = 1;
        for (; e->vpage && i < np; i++) {
            const struct rp_page *n = page_slot(f, rkey, p0 + i);
            if (!n->vpage || n->lpage != e->lpage + i)
                break;
        }
        if (e->vpage && i == np) {
            *local = f->base + RP_RECV + (uint64_t)e->lpage * RP_PAGE +
                     va % RP_PAGE;
            return 0;
        }
    }
    /* a fresh run of np pages: within the flow's pool and its share */
    uint32_t share = RP_BUDGET_PAGES / (rp->nflows ? rp->nflows : 1);
    if (share < RP_SHARE_MIN)
        share = RP_SHARE_MIN;
    if (f->pool_next + np > RP_POOL_PAGES ||
        (rp->pages_used + np > RP_BUDGET_PAGES && f->pool_next + np > share))
        pool_reset(rp, f);
    if (pt_room(f, np))
        return -2;
    uint32_t run = f->pool_next;
    f->pool_next += np;
    rp->pages_used += np;
    for (uint32_t i = 0; i < np; i++) {
        struct rp_page *e = page_slot(f, rkey, p0 + i);
        if (e->vpage) { /* moves: what its old page held is not known */
            uint64_t at = f->base + RP_RECV + (uint64_t)e->lpage * RP_PAGE;
            known_drop(f, at, at + RP_PAGE);
        } else {
            f->ptn++;
        }
        e->vpage = p0 + i + 1;
        e->rkey = rkey;
        e->lpage = run + i;
    }
    *local = f->base + RP_RECV + (uint64_t)run * RP_PAGE + va % RP_PAGE;
    return 0;
}

static void known_add(struct rp_flow *f, uint64_t lo, uint64_t hi)
{
    unsigned i = f->nknown < RP_KNOWN ? f->nknown++ : f->known_next++ % RP_KNOWN;
    f->known[i].lo = lo;
    f->known[i].hi = hi;
}

static int known_has(const struct rp_flow *f, uint64_t lo, uint64_t hi)
{
    for (unsigned i = 0; i < f->nknown; i++)
        if (f->known[i].lo <= lo && hi <= f->known[i].hi)
            return 1;
    return 0;
}

/* ---- the reference's responses ---- */

/* Whether opcode op is RC opcode rc_op or its counterpart in the flow's
 * transport (UC, XRC): the reference models the operation, not the service. */
static int rc_op_is(uint8_t op, uint8_t rc_op)
{
    return ibw_opcode_in_transport(op, IBW_TR_RC) == rc_op;
}

/* The highest MSN a response to duplicate READ x may carry (statement
 * MSN): the responder's current one, at least the reference's when it
 * answered and what the device already sent (rec_hi); the reference may
 * lag, a READ the device finished before the duplicate came still being
 * in the reference's queue. */
static uint32_t dup_msn_hi(const struct rp_exp *x, int have_rec_hi,
                           uint32_t rec_hi)
{
    return have_rec_hi && chk_psn_diff(rec_hi, x->msn) > 0 ? rec_hi : x->msn;
}

/* Whether captured MSN rel (relative) is one answer x to a duplicate may
 * carry (statement MSN: from x->msn_lo to dup_msn_hi()). */
static int msn_in_range(const struct rp_exp *x, uint32_t rel, int have_rec_hi,
                        uint32_t rec_hi)
{
    return x->msn_range &&
           ((rel - x->msn_lo) & CHK_PSN_MASK) <=
               ((dup_msn_hi(x, have_rec_hi, rec_hi) - x->msn_lo) & CHK_PSN_MASK);
}

/* Drop the matched answers from f->live (a match is never undone). */
static void live_prune(struct rp_flow *f)
{
    size_t k = 0;
    for (size_t j = 0; j < f->nlive; j++)
        if (!f->exp[f->live[j]].matched)
            f->live[k++] = f->live[j];
    f->nlive = k;
    f->live_kept = k;
}

/* Room in f->live for one more answer: pruned once it has doubled since
 * the last prune (or holds 64), so that its length stays within twice the
 * unmatched answers (or 64) at a constant cost per answer.  -1 when out
 * of memory. */
static int live_room(struct rp_flow *f)
{
    if (f->nlive >= 64 && f->nlive >= 2 * f->live_kept)
        live_prune(f);
    size_t *nl = chk_grow(f->live, f->nlive, &f->caplive, sizeof *nl, 64);
    if (!nl)
        return -1;
    f->live = nl;
    return 0;
}

/* Position in f->live of the first answer at index `from` or after. */
static size_t live_from(const struct rp_flow *f, size_t from)
{
    size_t lo = 0, hi = f->nlive;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (f->live[mid] < from)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* A new answer of the reference's to the request being fed, zeroed but
 * for what that request says (rp_flow.cur_*); NULL when out of memory. */
static struct rp_exp *exp_new(struct rp_flow *f)
{
    struct rp_exp *ne = chk_grow(f->exp, f->nexp, &f->cap, sizeof *ne, 64);
    if (!ne)
        return NULL;
    f->exp = ne;
    if (live_room(f))
        return NULL;
    struct rp_exp *x = &f->exp[f->nexp++];
    memset(x, 0, sizeof *x);
    f->live[f->nlive++] = f->nexp - 1;
    x->req_frame = f->cur_frame;
    x->frame_max = f->nexp > 1 && f->exp[f->nexp - 2].frame_max > x->req_frame
                       ? f->exp[f->nexp - 2].frame_max
                       : x->req_frame;
    x->any_msn = f->cur_dup;
    /* a duplicate the capture did not see was fed for a captured answer
     * at one PSN: what else it draws (a READ's other responses) answers
     * a request nobody saw, not missing when not recorded (a response
     * the network duplicated after the responder looks the same) */
    x->optional = f->cur_dup;
    x->dup_fed = f->cur_below;
    x->tick = f->cur_tick;
    return x;
}

static void on_ref_tx(void *ctx, struct ibe_engine *from, const uint8_t *pkt,
                      size_t len)
{
    (void)from;
    struct rp_flow *f = ctx;
    struct eng_hdr h;
    const uint8_t *pl;
    const char *why;
    if (eng_wire_parse(pkt, len, IBE_FRAME_ROCEV2, &h, &pl, &why) ||
        h.opcode == IBW_OP_CNP)
        return;
    struct rp_exp *x = exp_new(f);
    if (!x)
        return;
    x->psn = h.psn;
    x->msn = h.msn;
    x->paylen = h.paylen;
    x->opcode = h.opcode;
    x->syn = h.syndrome;
    x->has_aeth = (uint8_t)ibw_opcode_has_hdr(h.opcode, IBW_HDR_AETH);
    if (x->has_aeth && (h.syndrome >> 5 & 3) == 3 &&
        ibw_aeth_syndrome_value(h.syndrome) == IBW_NAK_PSN_SEQ_ERROR) {
        size_t *nn = chk_grow(f->naks, f->nnaks, &f->capnaks, sizeof *nn, 8);
        if (nn) {
            f->naks = nn;
            f->naks[f->nnaks++] = f->nexp - 1;
        } else {
            f->nexp--; /* as when the answer itself finds no room */
            f->nlive--;
            return;
        }
    }
    if (f->cur_below && ibw_opcode_kind(h.opcode) == IBW_OPK_READ_RESP) {
        /* the MSN the READ's first answer had: the engine's READ cache */
        const struct eng_qp *q = eng_qp(f->e, f->qpn);
        for (unsigned i = 0; i < ENG_READ_CACHE; i++) {
            int32_t d = chk_psn_diff(h.psn, q->ee.rcache[i].psn);
            if (q->ee.rcache[i].valid && d >= 0 && (uint32_t)d < q->ee.rcache[i].npsn) {
                x->msn_range = 1;
                x->msn_lo = q->ee.rcache[i].msn & CHK_PSN_MASK;
            }
        }
    }
    if (f->cur_below && !x->msn_range && x->has_aeth &&
        (rc_op_is(h.opcode, IBW_OP_RC_ATOMIC_ACKNOWLEDGE) ||
         ibw_opcode_kind(h.opcode) == IBW_OPK_READ_RESP) &&
        f->hist[h.psn % RP_HIST].psn == h.psn && f->hist[h.psn % RP_HIST].valid) {
        /* An atomic's saved answer to a duplicate, or a READ response to
         * one whose first execution left the engine's READ cache (16
         * READs): statement MSN allows any MSN from the one after the
         * first execution (the history's) to the responder's current
         * one.  The responder may answer the duplicate much later than
         * the reference does (a queue in the network), with every request
         * it took meanwhile counted; or earlier than the reference would,
         * with fewer (a request the network delayed after the capture
         * point). */
        x->msn_range = 1;
        x->msn_lo = f->hist[h.psn % RP_HIST].msn;
    }
    /* After an RNR NAK, whether the requests behind it also get a PSN
     * sequence NAK differs between responders (the reference sends one),
     * whether they were fed again by the rewind or recorded after it. */
    if (f->rnr && chk_psn_diff(eng_qp(f->e, f->qpn)->cxt.epsn, f->rnr_psn) > 0)
        f->rnr = 0;
    if (f->rnr && h.psn == f->rnr_psn && x->has_aeth &&
        (h.syndrome >> 5 & 3) == 3 &&
        ibw_aeth_syndrome_value(h.syndrome) == IBW_NAK_PSN_SEQ_ERROR)
        x->optional = 1;
    x->orig = h.orig;
    if (rc_op_is(h.opcode, IBW_OP_RC_ATOMIC_ACKNOWLEDGE) && f->cur_atom) {
        x->atom_op = f->cur_atom;
        x->orig_known = f->cur_atom_known;
        x->atom_addr = f->cur_atom_addr;
        x->swap = f->cur_swap;
        x->cmp = f->cur_cmp;
    }
}

static struct rp_flow *flow_new(struct replay *rp,
                                const struct chk_flow_summary *s,
                                const struct ibw_pkt *p, uint64_t frame)
{
    struct rp_flow *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->req = s->req;
    f->resp = s->resp;
    f->resp_qpn = s->resp_qpn;
    if (rp->nflows == RP_MAXFLOWS || flows_room(rp)) {
        free(f);
        if (!rp->overflow_reported) {
            char m[160];
            rp->overflow_reported = 1;
            snprintf(m, sizeof m, "more RC flows than the reference replays "
                     "(%u); the rest are not replayed", RP_MAXFLOWS);
            rp_report(rp, frame, CHK_R_REPLAY_SKIPPED, m);
        }
        return NULL;
    }
    f->idx = rp->nflows;
    rp->flows[rp->nflows++] = f;
    link1(rp, f);
    f->w = ibe_world_create(1);
    struct ibe_config cfg = {RP_MEM, IBE_FRAME_ROCEV2, 0, 0x0A000000u,
                             {2, 0, 0, 0, 0, 0}};
    f->e = f->w ? ibe_engine_create(f->w, &cfg) : NULL;
    if (!f->e) {
        skip_flow(rp, f, frame, "out of memory");
        return f;
    }
    ibe_engine_set_tx(f->e, on_ref_tx, f);
    f->cq = ibe_cq_create(f->e, 256);
    uint16_t pkey = ibw_bth_get_pkey(ibw_pkt_hdr(p, IBW_HDR_BTH));
    struct ibe_qp_attr qa = {IBE_RC, 1, f->cq, f->cq, 64, RP_RQ, 0,
                             (uint16_t)(pkey | 0x8000u)};
    f->qpn = ibe_qp_create(f->e, &qa);
    f->base = ibe_mem_alloc(f->e, RP_RECV + RP_POOL, 4096);
    f->pmtu = s->pmtu ? s->pmtu : rp->pmtu ? rp->pmtu : 4096;
    f->pmtu_known = s->pmtu || rp->pmtu;
    f->start_psn = ibw_bth_get_psn(ibw_pkt_hdr(p, IBW_HDR_BTH));
    struct ibe_qp_conn c = {s->req_qpn_known ? s->req_qpn : 1, 0, f->start_psn,
                            f->pmtu, 7, 7, 14, 1, 16};
    if (!f->qpn || !f->base ||
        ibe_mr_reg(f->e, 1, f->base, RP_RECV + RP_POOL,
                   IBE_ACC_LOCAL_WRITE | IBE_ACC_REMOTE_WRITE |
                       IBE_ACC_REMOTE_READ | IBE_ACC_REMOTE_ATOMIC,
                   &f->lkey, &f->rkey) ||
        ibe_qp_connect(f->e, f->qpn, &c)) {
        skip_flow(rp, f, frame, "the reference QP could not be set up");
        return f;
    }
    return f;
}

/* Keep the reference's receive queue full: receive WQEs are not seen. */
static void fill_rq(struct rp_flow *f)
{
    struct eng_qp *q = eng_qp(f->e, f->qpn);
    while (q && q->rqm.rq_pi - q->rqm.rq_ci < RP_RQ - 1) {
        struct ibe_recv_wr r;
        memset(&r, 0, sizeof r);
        r.num_sge = 1;
        r.sg[0].addr = f->base; /* the receive window */
        r.sg[0].length = (uint32_t)RP_RECV;
        r.sg[0].lkey = f->lkey;
        if (ibe_post_recv(f->e, f->qpn, &r))
            break;
    }
}

static void retry_held(struct replay *rp, struct rp_flow *f, int force,
                       uint64_t now);

/*
 * The reference dropped duplicate atomic `psn` (being fed): its saved result
 * left the engine's cache of ENG_ATOMIC_CACHE atomics.  A responder keeps
 * as many as its responder resources (CM's or the QP's max_dest_rd_atomic,
 * up to 255: Linux rxe 128), and a requester has no more atomics
 * outstanding than that, so the captured responder may still hold it.
 * Statement DUP-REQUEST leaves both open (a duplicate whose result was
 * released may be dropped): the answer it would give is added as an
 * optional one, compared as an answer to a duplicate (the original value
 * the capture's first answer at psn returned, an MSN from the one after
 * the first execution to the responder's current one).  Only where the
 * reference took that PSN (its history knows the MSN after it).
 */
static void dup_atomic_released(struct rp_flow *f, uint32_t psn)
{
    const struct eng_qp *q = eng_qp(f->e, f->qpn);
    if (f->hist[psn % RP_HIST].psn != psn || !f->hist[psn % RP_HIST].valid)
        return;
    struct rp_exp *x = exp_new(f);
    if (!x)
        return;
    x->psn = psn;
    x->msn = q->ee.msn & CHK_PSN_MASK;
    x->opcode = IBW_OP_RC_ATOMIC_ACKNOWLEDGE;
    x->has_aeth = 1;
    x->optional = 1;
    x->msn_range = 1;
    x->msn_lo = f->hist[psn % RP_HIST].msn;
    x->atom_op = f->cur_atom;
    x->atom_addr = f->cur_atom_addr;
    x->swap = f->cur_swap;
    x->cmp = f->cur_cmp;
}

/*
 * Feed one rebuilt request to the reference.  After requests the capture
 * lost (resync), the message in progress is not known: a MIDDLE or LAST at
 * the expected PSN is taken as received without feeding it (the message
 * it continues was not seen whole), until a message starts there.
 */
static void feed(struct rp_flow *f, const uint8_t *pkt, size_t len,
                 uint32_t psn, uint8_t opcode)
{
    struct eng_qp *q = eng_qp(f->e, f->qpn);
    unsigned fl = ibw_opcode_info(opcode)->flags;
    /* A request below the reference's ePSN (a duplicate, a READ re-issued
     * from inside the span of one taken) leaves the history alone: it
     * holds the MSN after the original's taking, which an ACK of it may
     * carry as well as the current one (judge_resp()), and which a
     * duplicate's current MSN would overwrite with a later one (a READ
     * re-issued at its span's last PSN gave that PSN the MSN of every
     * request the reference had taken since). */
    int below = chk_psn_diff(psn, q->cxt.epsn) < 0;
    if (!below)
        f->hist[psn % RP_HIST].psn = psn;
    if (f->resync && psn == q->cxt.epsn) {
        if (!(fl & IBW_OPF_FIRST)) {
            f->hist[psn % RP_HIST].valid = !f->msn_slack;
            q->cxt.epsn = chk_psn_add(psn, 1);
            q->ee.nak_armed = 1;
            if (fl & IBW_OPF_LAST)
                q->ee.msn++; /* completes the message the hole began */
            f->hist[psn % RP_HIST].msn = q->ee.msn & CHK_PSN_MASK;
            return;
        }
        q->ee.recv_active = 0; /* the message the hole ended is abandoned */
        q->ee.ent.valid = 0;
        f->resync = 0;
    }
    fill_rq(f); /* (fed again in a row after a rewind, too) */
    f->cur_below = (uint8_t)below;
    size_t nexp = f->nexp;
    ibe_engine_receive(f->e, pkt, len);
    ibe_world_run(f->w, 100000);
    if (below && f->nexp == nexp && f->cur_atom)
        dup_atomic_released(f, psn);
    f->cur_below = 0;
    if (below)
        return;
    /* known only when the reference took it (a request out of sequence
     * is dropped: no MSN after it, and nothing to rewind over); a READ
     * takes its whole span, each PSN of it answered with that MSN */
    f->hist[psn % RP_HIST].msn = q->ee.msn & CHK_PSN_MASK;
    f->hist[psn % RP_HIST].valid = chk_psn_diff(q->cxt.epsn, psn) > 0;
    for (uint32_t p = chk_psn_add(psn, 1), n = 1;
         n < RP_HIST && chk_psn_diff(q->cxt.epsn, p) > 0; p = chk_psn_add(p, 1), n++) {
        f->hist[p % RP_HIST].psn = p;
        f->hist[p % RP_HIST].msn = q->ee.msn & CHK_PSN_MASK;
        f->hist[p % RP_HIST].valid = 1;
    }
}

/* The responder got every request before PSN `to` (the capture lost some
 * of them): the reference skips there, message state unknown (feed()). */
static void jump_to(struct rp_flow *f, uint32_t to)
{
    struct eng_qp *q = eng_qp(f->e, f->qpn);
    int32_t d = chk_psn_diff(to, q->cxt.epsn);
    if (d <= 0)
        return;
    /* PSNs no request in the capture had (the history holds RP_HIST) */
    int unseen = d >= (int32_t)RP_HIST;
    for (uint32_t p = q->cxt.epsn, n = 0; p != to && n < RP_HIST;
         p = chk_psn_add(p, 1), n++) {
        unseen |= f->hist[p % RP_HIST].psn != p;
        f->hist[p % RP_HIST].valid = 0;
    }
    /* the requests jumped over (lost, or refused by the reference and
     * taken by the responder) may have written or atomically changed any
     * word: what the reference knew of its memory is not known any more */
    f->nknown = f->known_next = 0;
    if (unseen)
        f->lossy = 1;
    if (f->jmsn_valid && f->jmsn_to == to) {
        /* the response that showed the hole says the responder's MSN at
         * its end: the messages in it are counted, none is in doubt */
        uint32_t was = q->ee.msn & CHK_PSN_MASK;
        /* A duplicate the reference answered while it waited at the hole
         * (the response showing the hole was held: its request may come
         * late) got the MSN before the hole; the responder, which answers
         * in order, answers it after that response, so with its current
         * MSN then - the one after the hole (rxe replays a duplicate
         * READ's responses, and ACKs a duplicate, with its current MSN) */
        for (size_t j = 0; j < f->nlive; j++) {
            struct rp_exp *x = &f->exp[f->live[j]];
            if (!x->matched && x->dup_fed && x->has_aeth && x->msn == was)
                x->msn = f->jmsn;
        }
        q->ee.msn = (q->ee.msn & ~(uint32_t)CHK_PSN_MASK) | f->jmsn;
        f->msn_slack = 0;
        uint32_t last = chk_psn_add(to, CHK_PSN_MASK); /* to - 1 */
        f->hist[last % RP_HIST].psn = last;
        f->hist[last % RP_HIST].msn = f->jmsn;
        f->hist[last % RP_HIST].valid = 1;
    } else {
        f->msn_slack += (uint32_t)d;
    }
    q->cxt.epsn = to;
    q->ee.nak_armed = 1;
    f->resync = 1;
}

/* The reference as it is now, before the request of ring entry sn is
 * fed: NULL when out of memory. */
static struct ibe_snapshot *snap_world(struct rp_flow *f, struct rp_snap *sn)
{
    struct ibe_snapshot *s = ibe_world_snapshot_incremental(f->w);
    if (s) {
        sn->order = ++f->order;
        sn->epsn = eng_qp(f->e, f->qpn)->cxt.epsn;
        sn->resync = f->resync;
        sn->msn_slack = f->msn_slack;
    }
    return s;
}

/* Write the reference's memory word at addr (little-endian). */
static void put_word(struct rp_flow *f, uint64_t addr, uint64_t v)
{
    uint8_t *w = ibe_mem_ptr(f->e, addr, 8);
    for (int i = 0; w && i < 8; i++)
        w[i] = (uint8_t)(v >> (8 * i));
}

static struct rp_snap *snap_at(const struct rp_flow *f, unsigned i);

/* After the world of ring entry `at` is restored: the words learnt since
 * it was taken, for atomics fed before it, are written again (oldest
 * first) - unless a request fed again from there is an atomic on that
 * word that was fed before the word was learnt: the word is then as that
 * atomic found it. */
static void relearn(struct rp_flow *f, unsigned at)
{
    const struct rp_snap *s0 = snap_at(f, at);
    unsigned first = f->nlearnt < RP_LEARNT ? 0 : f->learnt_next % RP_LEARNT;
    for (unsigned k = 0; k < f->nlearnt; k++) {
        unsigned i = (first + k) % RP_LEARNT;
        int keep = f->learnt[i].order > s0->order &&
                   f->learnt[i].req_frame < s0->frame;
        for (unsigned e = at; keep && e < f->nsnap; e++) {
            const struct rp_snap *sn = snap_at(f, e);
            keep = !(sn->atom_valid && sn->atom_addr == f->learnt[i].addr &&
                     sn->order < f->learnt[i].order);
        }
        if (keep)
            put_word(f, f->learnt[i].addr, f->learnt[i].value);
    }
}

/* The atomic of ring request sn (none when it is not one) is the one
 * being fed again: its answers are judged as when it was first fed.  Its
 * word is known when it was then (a word learnt since, from an answer
 * the re-fed atomic's own effect is part of, is not written back before
 * it: relearn()) and still is (a jump over requests the capture lost
 * forgets every word: jump_to()). */
static void cur_atom_of(struct rp_flow *f, const struct rp_snap *sn)
{
    f->cur_atom = sn->atom_op;
    f->cur_atom_known = (uint8_t)(sn->atom_known &&
                                  known_has(f, sn->atom_addr, sn->atom_addr + 8));
    f->cur_atom_addr = sn->atom_addr;
    f->cur_swap = sn->atom_swap;
    f->cur_cmp = sn->atom_cmp;
}

/* Ring entry i (0 = oldest). */
static struct rp_snap *snap_at(const struct rp_flow *f, unsigned i)
{
    return &f->snap[(f->snap_head + i) % f->capsnap];
}

/* Ring position (0 = oldest) of the request fed at `psn`, or RP_NONE: the
 * last one the reference took in sequence, else the last one.  (A response
 * recorded late may come after the request was sent again.) */
static unsigned snap_find(const struct rp_flow *f, uint32_t psn)
{
    unsigned any = RP_NONE;
    for (unsigned i = f->nsnap; i-- > 0;) {
        const struct rp_snap *sn = snap_at(f, i);
        if (sn->refused)
            continue;
        if (sn->psn == psn && sn->epsn == psn)
            return i;
        if (sn->psn == psn && any == RP_NONE)
            any = i;
    }
    return any;
}

/*
 * The answers the requests fed again produced (from index first_new) that
 * are one a captured response already matched before the rewind voided it
 * (among [lo, first_new): the same request frame, PSN, opcode and AETH
 * kind, a NAK's code too): matched again, since that response was judged against it and
 * will not come again.  (A rewind to before a NAK the capture had matched
 * - a PMTU learnt later, a rebase() - re-made that NAK, and it was then
 * compared with the next response at its PSN.)  Both are in feeding
 * order; a few old answers ahead are searched for each new one.
 */
static void refeed_rematch(struct rp_flow *f, size_t lo, size_t first_new)
{
    size_t p = lo;
    for (size_t k = first_new; k < f->nexp; k++) {
        struct rp_exp *y = &f->exp[k];
        while (p < first_new && (!f->exp[p].was_matched ||
                                 f->exp[p].req_frame < y->req_frame))
            p++;
        for (size_t i = p; i < first_new && i < p + 8; i++) {
            struct rp_exp *x = &f->exp[i];
            if (x->was_matched && x->req_frame == y->req_frame &&
                x->psn == y->psn && x->opcode == y->opcode &&
                (x->syn >> 5 & 3) == (y->syn >> 5 & 3) &&
                ((x->syn >> 5 & 3) != 3 || x->syn == y->syn)) {
                x->was_matched = 0;
                y->matched = 1;
                if (i == p)
                    p++;
                break;
            }
        }
    }
}

/*
 * Put the reference back in its state before ring request `at` and feed
 * it the requests from there again (`skip`: all but `at` itself, which
 * leaves the ring (1) or stays in it refused (2), fed no more).  The
 * answers it gave them are void; `nak_armed` forces the sequence-NAK arm,
 * `pmtu` (non-zero) the PMTU of the restored state, and `lost` says the
 * responder got every request before PSN `lost_to`: each hole the capture
 * left below it is jumped over (jump_to()) where the re-fed requests meet
 * it, and the last one up to lost_to; `epsn` (not RP_NONE) is the PSN the
 * restored reference expects instead of the one it did (rebase()).  Returns
 * the index of the first expectation the re-fed requests produced.
 */
static size_t refeed(struct rp_flow *f, unsigned at, int skip, int nak_armed,
                     uint32_t pmtu, int lost, uint32_t lost_to, uint32_t epsn)
{
    struct eng_qp *q = eng_qp(f->e, f->qpn);
    struct rp_snap *s0 = snap_at(f, at);
    uint64_t from = s0->frame;
    /* the world as it was (host memory too); the snapshots after it are
     * stale now, and it is taken again below when its request is fed */
    if (ibe_world_restore(f->w, s0->world))
        abort(); /* every ring entry holds a snapshot of the chain */
    relearn(f, at);
    ibe_snapshot_free(s0->world);
    s0->world = NULL;
    f->resync = s0->resync;
    f->msn_slack = s0->msn_slack;
    if (epsn != RP_NONE)
        q->cxt.epsn = epsn;
    if (nak_armed)
        q->ee.nak_armed = 1;
    /* The PMTU is the connection's, not a state of the reference's: a
     * world taken before the checker learnt it has the default, and the
     * requests fed again would be judged by that (a FIRST shorter than it
     * NAKed Invalid Request, a READ answered in too few responses). */
    if (pmtu)
        q->cxt.c.pmtu = pmtu;
    else if (f->pmtu_known)
        q->cxt.c.pmtu = f->pmtu;
    /* those answers are void now: they follow the first whose running
     * maximum of req_frame reaches `from` */
    size_t lo = 0, hi = f->nexp;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (f->exp[mid].frame_max < from)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; i < f->nexp; i++)
        if (f->exp[i].req_frame >= from) {
            f->exp[i].was_matched = f->exp[i].matched == 1;
            f->exp[i].matched = 2;
        }
    size_t first_new = f->nexp;
    if (skip == 2)
        s0->refused = 1;
    for (unsigned i = skip == 1 ? at + 1 : at; i < f->nsnap; i++) {
        struct rp_snap *sn = snap_at(f, i);
        if (sn->pmtu_guess)
            sn->pmtu_guess = !f->pmtu_known;
        ibe_snapshot_free(sn->world);
        sn->world = snap_world(f, sn);
        if (!sn->world)
            abort(); /* as the engine does when out of memory */
        if (sn->refused)
            continue; /* (its world kept: the chain stays in ring order) */
        if (lost && chk_psn_diff(sn->psn, q->cxt.epsn) > 0 &&
            chk_psn_diff(q->cxt.epsn, lost_to) < 0) {
            /* a hole the responder had filled: skip it, and take the
             * snapshot again after the jump */
            jump_to(f, chk_psn_diff(sn->psn, lost_to) < 0 ? sn->psn : lost_to);
            ibe_snapshot_free(sn->world);
            sn->world = snap_world(f, sn);
            if (!sn->world)
                abort();
        }
        f->cur_frame = sn->frame;
        f->cur_tick = f->clock; /* judged by the responses after this */
        cur_atom_of(f, sn);
        feed(f, sn->pkt, sn->len, sn->psn, sn->opcode);
    }
    if (lost && chk_psn_diff(q->cxt.epsn, lost_to) < 0)
        jump_to(f, lost_to);
    refeed_rematch(f, lo, first_new);
    if (skip == 1) {
        /* the refused request is not in the ring any more */
        struct rp_snap gone = *snap_at(f, at); /* its buffer moves last */
        for (unsigned i = at; i + 1 < f->nsnap; i++)
            *snap_at(f, i) = *snap_at(f, i + 1);
        *snap_at(f, f->nsnap - 1) = gone;
        f->nsnap--;
    }
    return first_new;
}

/*
 * The captured responder refused the request at `psn` that the reference
 * accepted: an RNR NAK (no receive WQE, which the wire does not show), or
 * a PSN sequence NAK naming it (it was lost after the capture point).
 * Rewind the reference to its state before that request and feed it the
 * requests that came after again (`arrived`: the request did reach the
 * responder, so it re-armed the sequence NAK).  The sequence NAK is armed
 * either way: after an RNR NAK the responder takes requests again; and a
 * sequence NAK naming a request the reference took shows the responder
 * NAKed on the requests after it, also when the reference, at a resend
 * the capture recorded and the responder never got (lost after the
 * capture point again), had NAKed that PSN once already.  0 when rewound.
 */
static int rewind_to(struct rp_flow *f, uint32_t psn, int arrived,
                     uint64_t nak_ts, uint64_t skew_win)
{
    unsigned at = snap_find(f, psn);
    struct eng_qp *q = eng_qp(f->e, f->qpn);
    if (at == RP_NONE || chk_psn_diff(q->cxt.epsn, psn) <= 0)
        return -1;
    f->rnr = (uint8_t)(arrived != 0); /* see on_ref_tx() */
    f->rnr_psn = psn;
    /* (a copy a sequence NAK names stays in the ring, refused: it may
     * have been delayed rather than lost, capture_lost()) */
    refeed(f, at, arrived ? 1 : 2, 1, 0, 0, 0, RP_NONE);
    /* A sequence NAK names the PSN the responder still expects: a later
     * copy of that request recorded before the NAK (the requester resent
     * it) was lost as well, or the responder would have moved past it
     * (rxe read_bw under loss: a READ and its timeout resend both lost
     * after the capture point).  Only a copy recorded more than the
     * checker's skew window before the NAK: one closer may be the resend
     * the NAK asked for, the NAK recorded late.  One more copy is
     * refused each round. */
    while (!arrived && chk_psn_diff(q->cxt.epsn, psn) > 0) {
        at = snap_find(f, psn);
        if (at == RP_NONE || snap_at(f, at)->ts_ns + skew_win >= nak_ts)
            break;
        refeed(f, at, 2, 1, 0, 0, 0, RP_NONE);
    }
    return 0;
}

/*
 * A PSN sequence NAK naming `psn`, a PSN before the one the reference
 * started at (the first message start the capture had of the flow): the
 * responder still expected psn when the requests the reference took first
 * came.  The requests before them were lost or delayed ahead of the
 * capture point (netem drops and reorders on the requester's egress
 * before the tap: the flow seems to start at the first one that got
 * through), or the capture began after them.  The reference's start was
 * a guess the NAK corrects (statement NAK-SEQ: the NAK names the expected
 * PSN): it is started again at psn and fed every request of the ring
 * again, so that it answers them as the responder did (this NAK, at the
 * first of them, and nothing for those beyond psn until psn comes).  0
 * when rebased; -1 when the flow's first request left the ring.
 */
static int rebase(struct rp_flow *f, uint32_t psn)
{
    if (!f->nsnap || f->snap_dropped || chk_psn_diff(psn, f->start_psn) >= 0 ||
        snap_at(f, 0)->epsn != f->start_psn)
        return -1;
    f->start_psn = psn;
    refeed(f, 0, 0, 1, 0, 0, 0, psn);
    return 0;
}

/*
 * The checker settles a flow's PMTU when it sees a FIRST or MIDDLE payload
 * (or CM's REQ): a READ fed before that was answered with the default
 * PMTU, so the reference is fed again from the first READ the PMTU learnt
 * splits differently.  When it is no longer in the ring, the flow stops
 * (one note).
 */
static void pmtu_learnt(struct replay *rp, struct rp_flow *f,
                        const struct chk_flow_summary *s, uint64_t frame)
{
    uint32_t pm = s->pmtu ? s->pmtu : rp->pmtu;
    if (!pm)
        return;
    f->pmtu_known = 1;
    if (pm == f->pmtu)
        return;
    uint32_t least = pm < f->pmtu ? pm : f->pmtu;
    f->pmtu = pm;
    for (unsigned i = 0; i < f->nsnap; i++) {
        const struct rp_snap *sn = snap_at(f, i);
        if (sn->pmtu_guess && sn->read_len > least) {
            refeed(f, i, 0, 0, pm, 0, 0, RP_NONE);
            return;
        }
    }
    eng_qp(f->e, f->qpn)->cxt.c.pmtu = pm;
    if (f->guess_lost)
        skip_flow(rp, f, frame, "the PMTU was learnt after a READ the "
                  "reference had to split without it");
}

/*
 * The build spec of packet p as the responder received it.  A frame the
 * capture cut keeps its headers; the payload it lost is as long as the
 * length fields say, its bytes unknown (zeros: read payloads and written
 * data are not compared).  -1 when a header is missing (cut inside the
 * headers) or the packet cannot be rebuilt.
 */
static int spec_of(const struct ibw_pkt *p, struct ibw_build_spec *b)
{
    static uint8_t payload[8192];
    if (!p->cut)
        return ibw_build_spec_from_pkt(p, b) == IBW_OK ? 0 : -1;
    if (p->err != IBW_E_TRUNCATED || p->cut_hdr != IBW_HDR_COUNT ||
        !p->payload_off || p->payload_wire_len > sizeof payload ||
        p->payload_len > p->payload_wire_len)
        return -1;
    struct ibw_pkt whole = *p;
    whole.err = IBW_OK;
    whole.pad = (uint8_t)((4 - (p->payload_wire_len & 3)) & 3);
    if (ibw_build_spec_from_pkt(&whole, b) != IBW_OK)
        return -1;
    memset(payload, 0, p->payload_wire_len);
    memcpy(payload, p->data + p->payload_off, p->payload_len);
    b->payload = payload;
    b->payload_len = p->payload_wire_len;
    return 0;
}

/*
 * A request at `psn` recorded at `frame`: the reference's PSN sequence NAKs
 * at psn not matched yet, drawn by an earlier request, are marked
 * went_back.  The requester went back to the PSN the NAK names, as the
 * NAK asks: it got the NAK, or the NAK was lost between the responder and
 * the capture point and its local ACK timer sent it back (netem on the
 * responder's egress, before a tap on either side).  The capture cannot
 * tell the two apart, so such a NAK is not missing (replay_finish()), as
 * an answer to a request the requester sent again is not
 * (answered_again()).  The NAKs still open are searched, the last 64 at
 * most.
 */
static void naks_went_back(struct rp_flow *f, uint32_t psn, uint64_t frame)
{
    while (f->naks_open < f->nnaks) {
        const struct rp_exp *x = &f->exp[f->naks[f->naks_open]];
        if (!x->matched && !x->went_back)
            break;
        f->naks_open++;
    }
    size_t from = f->nnaks - f->naks_open > 64 ? f->nnaks - 64 : f->naks_open;
    for (size_t k = from; k < f->nnaks; k++) {
        struct rp_exp *x = &f->exp[f->naks[k]];
        if (!x->matched && x->psn == psn && x->req_frame < frame)
            x->went_back = 1;
    }
}

static void on_request(struct replay *rp, const struct chk_flow_summary *s,
                       const struct ibw_pkt *p, uint64_t frame)
{
    struct rp_flow *f = flow_find(rp, s);
    const struct ibw_opcode_info *oi = ibw_opcode_info(p->opcode);
    if (!f) {
        /* start at a message boundary: a flow caught mid-message would
         * look like an opcode-sequence error to the reference */
        if (!(oi->flags & IBW_OPF_FIRST) || !(f = flow_new(rp, s, p, frame)))
            return;
    }
    if (f->skipped)
        return;
    pmtu_learnt(rp, f, s, frame);
    if (f->skipped)
        return;
    struct ibw_build_spec b;
    char m[200];
    if (spec_of(p, &b)) {
        if (p->cut) {
            /* without a header the request cannot be rebuilt */
            snprintf(m, sizeof m, "%s PSN 0x%06x is cut inside its headers "
                     "by the capture", oi->name,
                     ibw_bth_get_psn(ibw_pkt_hdr(p, IBW_HDR_BTH)));
            skip_flow(rp, f, frame, m);
        }
        return;
    }
    uint64_t local;
    if (ibw_pkt_has(p, IBW_HDR_RETH)) {
        uint64_t len = b.reth.dmalen ? b.reth.dmalen : 1;
        int r = map_addr(rp, f, b.reth.rkey, b.reth.va, len, &local);
        if (r) {
            if (r == -2)
                snprintf(m, sizeof m, "out of memory");
            else
                snprintf(m, sizeof m, "RETH VA 0x%016llx length %u with R_Key "
                         "0x%08x: larger than the reference's %llu MiB of "
                         "memory per flow, or past the end of the VA space",
                         (unsigned long long)b.reth.va, b.reth.dmalen,
                         b.reth.rkey, (unsigned long long)(RP_POOL >> 20));
            skip_flow(rp, f, frame, m);
            return;
        }
        if (oi->kind == IBW_OPK_WRITE)
            known_add(f, local, local + b.reth.dmalen);
        b.reth.va = local;
        b.reth.rkey = f->rkey;
    }
    f->cur_atom = 0;
    if (ibw_pkt_has(p, IBW_HDR_ATOMICETH)) {
        int r = map_addr(rp, f, b.atomiceth.rkey, b.atomiceth.va, 8, &local);
        if (r) {
            if (r == -2)
                snprintf(m, sizeof m, "out of memory");
            else
                snprintf(m, sizeof m, "AtomicETH VA 0x%016llx with R_Key "
                         "0x%08x is past the end of the VA space",
                         (unsigned long long)b.atomiceth.va, b.atomiceth.rkey);
            skip_flow(rp, f, frame, m);
            return;
        }
        f->cur_atom = (uint8_t)ibw_opcode_in_transport(p->opcode, IBW_TR_RC);
        f->cur_atom_addr = local;
        f->cur_atom_known = (uint8_t)known_has(f, local, local + 8);
        f->cur_swap = b.atomiceth.swapdt;
        f->cur_cmp = b.atomiceth.cmpdt;
        b.atomiceth.va = local;
        b.atomiceth.rkey = f->rkey;
    }
    if (ibw_pkt_has(p, IBW_HDR_IETH))
        b.ieth.rkey = 0xFFFFFFFFu; /* none of the reference's keys */
    b.transport = IBW_TK_ROCE_V2_IP4;
    b.flags = 0;
    b.nvlan = 0;
    b.udp_dport = 0;
    b.bth.destqp = f->qpn;
    b.bth.fecn = 0;
    static uint8_t buf[8192];
    size_t n = 0;
    if (ibw_build(&b, buf, sizeof buf, &n) != IBW_OK)
        return;
    uint32_t psn = ibw_bth_get_psn(ibw_pkt_hdr(p, IBW_HDR_BTH));
    int waiting = chk_psn_diff(psn, eng_qp(f->e, f->qpn)->cxt.epsn) > 0;
    if (f->nsnap == f->capsnap &&
        f->capsnap < (waiting ? RP_SNAP_WAIT_MAX : RP_SNAP_MAX) &&
        rp->snap_total + (f->capsnap ? f->capsnap : RP_SNAP) <= RP_SNAP_TOTAL) {
        /* grow the ring, oldest first (within all flows' bound) */
        unsigned nc = f->capsnap ? f->capsnap * 2 : RP_SNAP;
        struct rp_snap *ns = calloc(nc, sizeof *ns);
        if (ns) {
            rp->snap_total += nc - f->capsnap;
            for (unsigned i = 0; i < f->capsnap; i++)
                ns[i] = *snap_at(f, i);
            free(f->snap);
            f->snap = ns;
            f->snap_head = 0;
            f->capsnap = nc;
        }
    }
    struct rp_snap *sn = NULL;
    struct ibe_snapshot *world = NULL;
    if (f->capsnap) {
        unsigned k = (f->snap_head + f->nsnap) % f->capsnap;
        sn = &f->snap[k];
        if (sn->cap < n) {
            uint8_t *np = realloc(sn->pkt, n);
            if (np) {
                sn->pkt = np;
                sn->cap = n;
            }
        }
        if (sn->cap < n || !(world = snap_world(f, sn)))
            sn = NULL;
    }
    if (sn) {
        if (f->nsnap == f->capsnap) {
            if (sn->pmtu_guess && sn->read_len > 256)
                f->guess_lost = 1;
            f->snap_head = (f->snap_head + 1) % f->capsnap;
            f->snap_dropped = 1;
        } else
            f->nsnap++;
        unsigned k = (unsigned)(sn - f->snap);
        f->snap[k].psn = psn;
        f->snap[k].frame = frame;
        f->snap[k].ts_ns = rp->c->ts_ns;
        f->snap[k].read_len = oi->kind == IBW_OPK_READ ? b.reth.dmalen : 0;
        f->snap[k].pmtu_guess = !f->pmtu_known && f->snap[k].read_len;
        ibe_snapshot_free(f->snap[k].world); /* the oldest, when evicted */
        f->snap[k].world = world;
        f->snap[k].opcode = p->opcode;
        f->snap[k].atom_valid = f->cur_atom != 0;
        f->snap[k].atom_addr = f->cur_atom_addr;
        f->snap[k].refused = 0;
        f->snap[k].atom_op = f->cur_atom;
        f->snap[k].atom_known = f->cur_atom_known;
        f->snap[k].atom_swap = f->cur_swap;
        f->snap[k].atom_cmp = f->cur_cmp;
        f->snap[k].len = n;
        memcpy(f->snap[k].pkt, buf, n);
    } else {
        f->snap_dropped = 1; /* out of memory: it cannot be fed again */
    }
    naks_went_back(f, psn, frame);
    f->cur_frame = frame;
    f->cur_tick = ++f->clock;
    feed(f, buf, n, psn, p->opcode);
    if (f->nheld)
        retry_held(rp, f, 0, ++f->clock);
}

static const char *aeth_kind(uint8_t syn)
{
    switch (syn >> 5 & 3) {
    case 0: return "ACK";
    case 1: return "RNR NAK";
    case 3: return "NAK";
    default: return "reserved";
    }
}

/* Captured response p answers up to PSN psn: earlier reference ACKs are
 * covered by it (coalescing); a NAK covers those before its PSN. */
static void cover_acks(struct rp_flow *f, uint32_t psn, int inclusive)
{
    for (size_t j = 0; j < f->nlive; j++) {
        struct rp_exp *x = &f->exp[f->live[j]];
        int32_t d = chk_psn_diff(x->psn, psn);
        if (!x->matched && rc_op_is(x->opcode, IBW_OP_RC_ACKNOWLEDGE) && !(x->syn >> 5 & 3) &&
            (d < 0 || (inclusive && d == 0)))
            x->matched = 1;
    }
}

static uint64_t atomic_result(uint8_t op, uint64_t orig, uint64_t swap,
                              uint64_t cmp)
{
    return op == IBW_OP_RC_FETCH_ADD ? orig + swap : orig == cmp ? swap : orig;
}

/* The saved answer of the atomic at psn (among the last RP_SAVED atomics
 * answered), or NULL. */
static struct rp_saved *saved_at(struct rp_flow *f, uint32_t psn)
{
    for (unsigned i = 0; i < RP_SAVED; i++)
        if (f->saved[i].valid && f->saved[i].psn == psn)
            return &f->saved[i];
    return NULL;
}

/* The capture's answer at atomic PSN psn returned orig: the result the
 * responder saved there (`replace`: a fresh execution at that PSN, which
 * an older entry at the same PSN, 2^24 PSNs back, must not stand for). */
static void saved_put(struct rp_flow *f, uint32_t psn, uint64_t orig,
                      int replace)
{
    struct rp_saved *s = saved_at(f, psn);
    if (s && !replace)
        return;
    if (!s)
        s = &f->saved[f->saved_next++ % RP_SAVED];
    s->psn = psn;
    s->orig = orig;
    s->valid = 1;
}

/* The responder's word at addr is not the reference's any more (it
 * executed a duplicate atomic again, which was reported): the next
 * atomic on it learns the word from the capture instead of comparing,
 * so that one such execution is one finding, not one per later atomic.
 * The unmatched answers already made on the word learn in turn. */
static void word_unknown(struct rp_flow *f, uint64_t addr)
{
    known_drop(f, addr, addr + 8);
    for (size_t j = 0; j < f->nlive; j++) {
        struct rp_exp *y = &f->exp[f->live[j]];
        if (!y->matched && y->atom_op && !y->dup_fed && y->atom_addr == addr)
            y->orig_known = 0;
    }
}

/*
 * The captured responder acknowledged PSN `psn`, which the reference has
 * not accepted: it got requests the capture lost (acknowledged, never
 * resent: capture-points.md).  When the reference already had requests
 * after the hole, it is fed them again from the first, skipping the hole
 * up to that request or to after `psn`, whichever comes first (jump_to());
 * else it skips to after `psn`.  When that first request has
 * left the ring, the flow stops (one note).
 */
static void capture_lost(struct replay *rp, struct rp_flow *f, uint32_t psn,
                         const struct rp_resp *r)
{
    struct eng_qp *q = eng_qp(f->e, f->qpn);
    uint64_t frame = r->frame;
    /* An ACK or atomic ACK tells the responder's MSN after psn: taken at
     * a jump to psn + 1 (jump_to()).  A READ response's does not count
     * reliably (some responders count the READ at its first response). */
    f->jmsn_valid = 0;
    if (r->has_aeth && (r->syn >> 5 & 3) == 0 &&
        (rc_op_is(r->opcode, IBW_OP_RC_ACKNOWLEDGE) ||
         rc_op_is(r->opcode, IBW_OP_RC_ATOMIC_ACKNOWLEDGE))) {
        if (!f->have_off && f->cm) {
            f->have_off = 1;
            f->msn_off = 0;
        }
        /* (with no origin yet, this response sets it: lost_answer()) */
        f->jmsn_valid = (uint8_t)f->have_off;
        f->jmsn_to = chk_psn_add(psn, 1);
        f->jmsn = (r->msn - f->msn_off) & CHK_PSN_MASK;
    }
    /* The responder sent the sequence NAK the reference sent where it
     * waits, and the capture never had a request at some PSN up to psn:
     * the responder dropped the requests after the NAK's PSN as the
     * reference did, and got their resends (the capture lost those up to
     * psn).  Nothing to feed again.  (When the capture had them all, the
     * responder took a late copy - reordered - and what followed it.) */
    int unseen = chk_psn_diff(psn, q->cxt.epsn) >= (int32_t)RP_HIST;
    for (uint32_t p = q->cxt.epsn; !unseen && chk_psn_diff(p, psn) <= 0;
         p = chk_psn_add(p, 1))
        unseen = f->hist[p % RP_HIST].psn != p;
    for (size_t k = unseen ? f->nnaks : 0; k-- > 0;) {
        const struct rp_exp *x = &f->exp[f->naks[k]];
        if (x->psn != q->cxt.epsn)
            continue;
        if (x->matched == 1) {
            jump_to(f, chk_psn_add(psn, 1));
            f->jmsn_valid = 0;
            return;
        }
        break;
    }
    /* A copy of the request at the reference's ePSN recorded before this
     * response, which a sequence NAK had the reference refuse as lost
     * after the capture point: the responder took it after all.  It was
     * delayed, not lost (the network reordered it behind the requests
     * that drew the NAK: statement NAK-SEQ, the responder takes the PSN
     * it waits for whenever it comes).  Fed again from it, rather than
     * jumped over as a hole: what the reference knows of the request (an
     * atomic's saved answer, a READ's span and MSN) then answers its
     * duplicates. */
    for (unsigned i = f->nsnap; i-- > 0;) {
        struct rp_snap *sn = snap_at(f, i);
        if (sn->refused && sn->psn == q->cxt.epsn && sn->frame < r->frame) {
            sn->refused = 0;
            refeed(f, i, 0, 0, 0, 1, chk_psn_add(psn, 1), RP_NONE);
            f->jmsn_valid = 0;
            return;
        }
    }
    /* the first request fed while the reference waited where it waits */
    for (unsigned i = 0; i < f->nsnap; i++) {
        const struct rp_snap *sn = snap_at(f, i);
        if (sn->epsn == q->cxt.epsn && chk_psn_diff(sn->psn, q->cxt.epsn) > 0) {
            if (i == 0 && f->snap_dropped)
                break; /* the hole may be older than the ring */
            refeed(f, i, 0, 0, 0, 1, chk_psn_add(psn, 1), RP_NONE);
            f->jmsn_valid = 0;
            return;
        }
        if (i == 0 && f->snap_dropped &&
            chk_psn_diff(sn->psn, q->cxt.epsn) > 0) {
            char m[160];
            snprintf(m, sizeof m, "requests before PSN 0x%06x the capture "
                     "lost, too far back to feed the reference again", psn);
            skip_flow(rp, f, frame, m);
            return;
        }
    }
    jump_to(f, chk_psn_add(psn, 1));
    f->jmsn_valid = 0;
}

/* Captured MSN `rel` against the reference's `ref`: after requests the
 * capture lost, the first difference within what they may have completed
 * moves the origin instead. */
static int msn_match(struct rp_flow *f, uint32_t rel, uint32_t ref)
{
    uint32_t d = (rel - ref) & CHK_PSN_MASK;
    if (!d)
        return 1;
    if (!f->msn_slack || d > f->msn_slack)
        return 0;
    f->msn_off = (f->msn_off + d) & CHK_PSN_MASK;
    f->msn_slack = 0;
    return 1;
}

/* An unmatched PSN sequence NAK the reference sent at psn? */
static int nak_expected(const struct rp_flow *f, uint32_t psn)
{
    for (size_t j = 0; j < f->nlive; j++) {
        const struct rp_exp *x = &f->exp[f->live[j]];
        if (!x->matched && x->psn == psn && (x->syn >> 5 & 3) == 3 &&
            ibw_aeth_syndrome_value(x->syn) == IBW_NAK_PSN_SEQ_ERROR)
            return 1;
    }
    return 0;
}

/* Which answers exp_at() takes. */
enum {
    /* only an ACK/NAK (a plain ACK may acknowledge duplicates, or coalesce,
     * ahead of the atomic or READ answer at the same PSN) */
    EXP_ACK_ONLY = 1,
    /* not a sequence NAK the requester went back from (naks_went_back()):
     * the responses to the copy it sent again answer that copy, whether
     * the NAK was lost in the network or never sent (the captured
     * response is no NAK) */
    EXP_NOT_GONE = 2,
    /* not a plain ACK: the captured response is a READ response or an
     * atomic's answer, and the reference's ACK at its PSN acknowledged a
     * duplicate SEND/WRITE at ePSN - 1 (ACK-COALESCE: the later answer
     * covers it, cover_acks()) */
    EXP_NO_ACK = 4
};

/* The first answer at psn the capture has not matched yet that `how`
 * (EXP_*) takes, or NULL. */
static struct rp_exp *exp_at(struct rp_flow *f, uint32_t psn, unsigned how)
{
    for (size_t j = 0; j < f->nlive; j++) {
        struct rp_exp *x = &f->exp[f->live[j]];
        int ack = rc_op_is(x->opcode, IBW_OP_RC_ACKNOWLEDGE);
        if (!x->matched && x->psn == psn &&
            !((how & EXP_NOT_GONE) && x->went_back) &&
            !((how & EXP_NO_ACK) && ack && !(x->syn >> 5 & 3)) &&
            (!(how & EXP_ACK_ONLY) || (ack && !x->optional)))
            return x;
    }
    return NULL;
}

/* The reference's answer captured response r is compared with (exp_at()
 * with `how`): for a READ response or an atomic's answer one of its kind
 * before a plain ACK at the same PSN. */
static struct rp_exp *exp_for(struct rp_flow *f, const struct rp_resp *r,
                              unsigned how)
{
    struct rp_exp *x = NULL;
    if (!r->has_aeth ||
        (!(r->syn >> 5 & 3) && !rc_op_is(r->opcode, IBW_OP_RC_ACKNOWLEDGE)))
        x = exp_at(f, r->psn, how | EXP_NO_ACK);
    return x ? x : exp_at(f, r->psn, how);
}

/*
 * The captured response r (MSN rel) compared with x, the reference's first
 * unmatched answer at its PSN; when the requester sent that request again
 * (a later copy the reference also answered) and r's MSN is not x's but
 * that copy's answer's, r answers the copy: x's answer, or x's copy, was
 * lost in the network where the capture may not see it (netem on an
 * egress before the capture), which is why the requester sent it again.
 * x then stays unanswered as the lost one (answered_again()).
 */
static struct rp_exp *copy_answered(struct rp_flow *f, struct rp_exp *x,
                                    const struct rp_resp *r, uint32_t rel,
                                    int have_rec_hi, uint32_t rec_hi)
{
    int read_first = rc_op_is(x->opcode, IBW_OP_RC_RDMA_READ_RESPONSE_FIRST);
    if (!x->has_aeth || x->any_msn || x->msn == rel ||
        msn_in_range(x, rel, have_rec_hi, rec_hi) ||
        (read_first && rel == ((x->msn - 1) & CHK_PSN_MASK)))
        return x;
    for (size_t j = live_from(f, (size_t)(x - f->exp) + 1); j < f->nlive; j++) {
        struct rp_exp *y = &f->exp[f->live[j]];
        if (y->matched || y->psn != x->psn || y->opcode != r->opcode ||
            y->req_frame == x->req_frame || !y->has_aeth)
            continue;
        if (y->any_msn || y->msn == rel ||
            msn_in_range(y, rel, have_rec_hi, rec_hi) ||
            (read_first && rel == ((y->msn - 1) & CHK_PSN_MASK)))
            return y;
    }
    return x;
}

/*
 * A captured response at a PSN the reference took, which it did not
 * answer: the responder got the request again, a duplicate the capture did
 * not see (it was duplicated after the capture point, or it missed the
 * resend: capture-points.md).  Feed the reference that duplicate (the
 * request at psn, or the READ whose responses span it); its answers are
 * then compared as usual.  0 when no such request is in the ring.
 */
static int feed_duplicate(struct rp_flow *f, uint32_t psn)
{
    struct eng_qp *q = eng_qp(f->e, f->qpn);
    if (chk_psn_diff(psn, q->cxt.epsn) >= 0)
        return 0;
    for (unsigned i = f->nsnap; i-- > 0;) {
        const struct rp_snap *sn = snap_at(f, i);
        int32_t d = chk_psn_diff(psn, sn->psn);
        uint32_t span = sn->read_len ? (sn->read_len + f->pmtu - 1) / f->pmtu : 1;
        if (d < 0 || (uint32_t)d >= (span ? span : 1) ||
            chk_psn_diff(sn->psn, q->cxt.epsn) >= 0)
            continue;
        struct { uint32_t psn, msn; uint8_t valid; } keep;
        keep.psn = f->hist[sn->psn % RP_HIST].psn;
        keep.msn = f->hist[sn->psn % RP_HIST].msn;
        keep.valid = f->hist[sn->psn % RP_HIST].valid;
        f->cur_frame = sn->frame;
        f->cur_tick = f->clock;
        cur_atom_of(f, sn);
        int resync = f->resync;
        f->resync = 0;
        f->cur_dup = 1;
        feed(f, sn->pkt, sn->len, sn->psn, sn->opcode);
        f->cur_dup = 0;
        f->resync = (uint8_t)resync;
        f->hist[sn->psn % RP_HIST].psn = keep.psn;
        f->hist[sn->psn % RP_HIST].msn = keep.msn;
        f->hist[sn->psn % RP_HIST].valid = keep.valid;
        return 1;
    }
    return 0;
}


/* The reference's unmatched answers produced before `now` at psn or
 * before it: a captured response judged after them names a later PSN. */
static void mark_passed(struct rp_flow *f, uint32_t psn, uint64_t now)
{
    for (size_t j = 0; j < f->nlive; j++) {
        struct rp_exp *x = &f->exp[f->live[j]];
        if (!x->matched && x->tick < now && chk_psn_diff(psn, x->psn) >= 0)
            x->passed = 1;
    }
}

/*
 * Captured response r answers a request the capture lost (judge_resp()
 * moved the reference past it): there is nothing of the reference's to
 * compare it with.  It still covers the reference's ACKs before it (its
 * MSN was taken by the jump: capture_lost()).
 */
static void lost_answer(struct rp_flow *f, const struct rp_resp *r,
                        uint32_t psn, uint64_t now)
{
    struct eng_qp *q = eng_qp(f->e, f->qpn);
    if (!f->have_off && r->has_aeth && (r->syn >> 5 & 3) == 0 &&
        (rc_op_is(r->opcode, IBW_OP_RC_ACKNOWLEDGE) ||
         rc_op_is(r->opcode, IBW_OP_RC_ATOMIC_ACKNOWLEDGE))) {
        /* the MSN origin (no CM): the reference's MSN after psn is the
         * responder's, whatever the messages in the hole were */
        int here = q->cxt.epsn == chk_psn_add(psn, 1);
        if (here || (f->hist[psn % RP_HIST].valid &&
                     f->hist[psn % RP_HIST].psn == psn)) {
            uint32_t ref = here ? q->ee.msn : f->hist[psn % RP_HIST].msn;
            f->have_off = 1;
            f->msn_off = (r->msn - ref) & CHK_PSN_MASK;
            if (here)
                f->msn_slack = 0;
        }
    }
    cover_acks(f, psn, 1);
    mark_passed(f, psn, now);
}

/*
 * Statement READ-DUP-OPCODE (conformance/check/statements.h): a READ
 * re-issued from inside the span of an earlier one may be answered with
 * FIRST ... LAST from its own PSN (what the reference sends) or with the
 * opcodes the earlier READ's span gives those PSNs (Linux rxe); the IBA
 * fixes the PSNs and bytes, not the opcodes.  Whether captured opcode
 * `got` at psn is the second choice for the reference's `ref`: a READ in
 * the ring spans psn from before it and gives psn that opcode.
 */
static int read_reissue_opcode(const struct rp_flow *f, uint32_t psn,
                               uint8_t ref, uint8_t got)
{
    if (ibw_opcode_kind(ref) != IBW_OPK_READ_RESP ||
        ibw_opcode_kind(got) != IBW_OPK_READ_RESP || !f->pmtu)
        return 0;
    for (unsigned i = 0; i < f->nsnap; i++) {
        const struct rp_snap *sn = snap_at(f, i);
        if (!sn->read_len || !rc_op_is(sn->opcode, IBW_OP_RC_RDMA_READ_REQUEST))
            continue;
        uint32_t span = (sn->read_len + f->pmtu - 1) / f->pmtu;
        int32_t at = chk_psn_diff(psn, sn->psn);
        if (at <= 0 || (uint32_t)at >= span)
            continue;
        uint8_t want = (uint32_t)at + 1 == span ? IBW_OP_RC_RDMA_READ_RESPONSE_LAST
                                                : IBW_OP_RC_RDMA_READ_RESPONSE_MIDDLE;
        if (rc_op_is(got, want))
            return 1;
    }
    return 0;
}

/*
 * The reference's READ response that captured READ response r answers,
 * among its unmatched answers at r's PSN to requests recorded before r
 * (the original READ and the READs re-issued over that PSN): the oldest
 * whose opcode is r's or the other one READ-DUP-OPCODE allows, else the
 * oldest.  `from`: the oldest unmatched answer at that PSN (exp_at()), so
 * that the search costs what follows it, not the flow's whole history.
 * NULL when none.
 */
static struct rp_exp *read_exp_for(struct rp_flow *f, const struct rp_resp *r,
                                   size_t from)
{
    struct rp_exp *any = NULL;
    for (size_t j = live_from(f, from); j < f->nlive; j++) {
        struct rp_exp *x = &f->exp[f->live[j]];
        if (x->matched || x->psn != r->psn || x->req_frame >= r->frame ||
            ibw_opcode_kind(x->opcode) != IBW_OPK_READ_RESP)
            continue;
        if (x->opcode == r->opcode ||
            read_reissue_opcode(f, r->psn, x->opcode, r->opcode))
            return x;
        if (!any)
            any = x;
    }
    return any;
}

/* Captured READ response r matched x: the reference's other answers at
 * that PSN to requests recorded before r are answered by it too (one READ
 * re-issued over the PSN because the requester did not get the earlier
 * answer, lost before the capture point): void, never missing. */
static void read_exp_supersede(struct rp_flow *f, const struct rp_exp *x,
                               const struct rp_resp *r, size_t from)
{
    for (size_t j = live_from(f, from); j < f->nlive; j++) {
        struct rp_exp *y = &f->exp[f->live[j]];
        if (!y->matched && y->psn == x->psn && y->req_frame < r->frame &&
            ibw_opcode_kind(y->opcode) == IBW_OPK_READ_RESP)
            y->matched = 2;
    }
}

/*
 * Compare captured response r with the reference's answer at its PSN.
 * With none, and `final` 0, it returns 0 and the caller holds r: its
 * request may be recorded after it (one direction recorded late), and the
 * reference answers once it is fed.  1 when judged.
 */
static int judge_resp(struct replay *rp, struct rp_flow *f,
                      const struct rp_resp *r, int final, uint64_t now)
{
    uint32_t psn = r->psn;
    unsigned kind = r->has_aeth ? r->syn >> 5 & 3u : 0;
    int lost = 0;
    char m[300];
    int32_t ahead = chk_psn_diff(psn, eng_qp(f->e, f->qpn)->cxt.epsn);
    if (kind == 0 && ahead >= 0) {
        /* the responder has PSNs the reference never got: the checker
         * holds responses recorded before their requests, so the capture
         * lost them.  Unless the reference was rewound over that PSN (an
         * RNR NAK): the checker has seen it, and with one direction
         * recorded late the resend it answers may still come. */
        if (!final && f->skewed && f->hist[psn % RP_HIST].valid &&
            f->hist[psn % RP_HIST].psn == psn)
            return 0;
        capture_lost(rp, f, psn, r);
        if (f->skipped)
            return 1;
        lost = 1;
    }
    if (kind == 1) {
        /* RNR NAK: receive WQEs posted are not on the wire.  It refuses a
         * request the reference took, or one not fed yet (recorded late) */
        if (ahead >= 0 && !final)
            return 0;
        rewind_to(f, psn, 1, 0, 0);
        return 1;
    }
    if (kind == 3 && ibw_aeth_syndrome_value(r->syn) == IBW_NAK_PSN_SEQ_ERROR &&
        ahead < 0 && !nak_expected(f, psn) && !rebase(f, psn))
        ahead = chk_psn_diff(psn, eng_qp(f->e, f->qpn)->cxt.epsn);
    if (kind == 3 && ibw_aeth_syndrome_value(r->syn) == IBW_NAK_PSN_SEQ_ERROR &&
        !nak_expected(f, psn)) {
        /* The NAK names the PSN the reference itself expects, or expected
         * until a copy of that request recorded after the NAK: it is the
         * NAK the reference would send at the first request beyond that
         * PSN.  The responder got such a request where the capture does
         * not show it before the NAK: a copy the network duplicated or
         * delayed after the capture point (the link's duplicate comes
         * later than the original), or one the capture missed.  Both
         * wait for that PSN from here (statement NAK-SEQ: the requester
         * goes back to it); the reference's own NAK is disarmed as the
         * responder's is, for the requests beyond it still to come.  Not
         * with one direction recorded late: the request that caused the
         * NAK may be recorded after it, and the copy the NAK names as
         * lost too (the rewind below). */
        unsigned at = snap_find(f, psn);
        if (!f->skewed &&
            (ahead == 0 || (ahead < 0 && at != RP_NONE &&
                            snap_at(f, at)->epsn == psn &&
                            snap_at(f, at)->frame > r->frame))) {
            if (ahead == 0)
                eng_qp(f->e, f->qpn)->ee.nak_armed = 0;
            cover_acks(f, psn, 0);
            mark_passed(f, psn, now);
            return 1;
        }
        /* the request it names was lost after the capture point (rewound:
         * the NAK the reference now sends is the captured one), or the
         * request out of sequence that caused it is not fed yet */
        if (ahead >= 0 && !final)
            return 0;
        uint64_t win = rp->c->o.skew_ns ? rp->c->o.skew_ns : RP_SKEW_DEFAULT_NS;
        if (rewind_to(f, psn, 0, r->ts_ns, win) && ahead < 0 &&
            ((f->hist[psn % RP_HIST].valid && f->hist[psn % RP_HIST].psn == psn) ||
             exp_at(f, psn, 0))) {
            /* The responder missed a request the capture recorded and the
             * reference took: lost after the capture point (the vantage
             * case FLOW-GBN knows, capture-points.md), but sent too long
             * before this NAK for the reference to go back to it (it left
             * the request ring).  Not the responder's doing: the
             * reference stops here rather than answer what the responder
             * never got. */
            char why[200];
            snprintf(why, sizeof why, "a PSN sequence NAK at 0x%06x shows "
                     "the responder missed a request the capture recorded "
                     "(lost after the capture point), sent too long before "
                     "it to feed the reference again", psn);
            skip_flow(rp, f, r->frame, why);
            return 1;
        }
    }
    int plain_ack = r->has_aeth && kind == 0 &&
                    rc_op_is(r->opcode, IBW_OP_RC_ACKNOWLEDGE);
    unsigned how = (plain_ack ? EXP_ACK_ONLY : 0) | (kind != 3 ? EXP_NOT_GONE : 0);
    struct rp_exp *x = exp_for(f, r, how);
    size_t oldest = x ? (size_t)(x - f->exp) : 0;
    if (x && ibw_opcode_kind(r->opcode) == IBW_OPK_READ_RESP) {
        struct rp_exp *y = read_exp_for(f, r, oldest);
        if (y)
            x = y;
    }
    /* with one direction recorded late (the checker saw skew), the request
     * it answers may still come: a duplicate only once that wait is over */
    if (!x && !plain_ack &&
        (final || !f->skewed) && feed_duplicate(f, psn))
        x = exp_for(f, r, how);
    if (!x && lost) {
        lost_answer(f, r, psn, now);
        return 1;
    }
    if (!x && !final &&
        !plain_ack)
        return 0;
    /* The MSN origin: from the first response to a request the reference
     * took (one to a request before the flow's first one the reference
     * saw - the capture began inside a message - counts messages it
     * never had) */
    int took = x || (f->hist[psn % RP_HIST].valid &&
                     f->hist[psn % RP_HIST].psn == psn);
    if (r->has_aeth && !f->have_off && (took || f->cm)) {
        f->have_off = 1;
        uint32_t ref = x ? (x->has_aeth ? x->msn : 0)
                         : f->hist[psn % RP_HIST].msn;
        f->msn_off = f->cm ? 0 : (r->msn - ref) & CHK_PSN_MASK;
    }
    uint32_t rel = (r->msn - f->msn_off) & CHK_PSN_MASK;
    uint32_t rec_hi = f->rec_msn_max;
    int have_rec_hi = f->have_rec_msn;
    if (r->has_aeth && f->have_off &&
        (!f->have_rec_msn || chk_psn_diff(rel, f->rec_msn_max) > 0)) {
        f->rec_msn_max = rel;
        f->have_rec_msn = 1;
    }
    if (x && r->has_aeth && f->have_off)
        x = copy_answered(f, x, r, rel, have_rec_hi, rec_hi);
    cover_acks(f, psn, kind != 3);
    mark_passed(f, psn, now);
    if (!x) {
        if (plain_ack) {
            /* an ACK the reference did not send (coalescing policy) */
            struct eng_qp *q = eng_qp(f->e, f->qpn);
            if (f->hist[psn % RP_HIST].valid && f->hist[psn % RP_HIST].psn == psn &&
                (q->ee.msn & CHK_PSN_MASK) != rel &&
                !msn_match(f, rel, f->hist[psn % RP_HIST].msn)) {
                snprintf(m, sizeof m, "ACK PSN 0x%06x MSN %u, the reference's "
                         "MSN after that PSN is %u", psn, rel,
                         f->hist[psn % RP_HIST].msn);
                rp_report(rp, r->frame, CHK_R_REPLAY_DIFF, m);
            }
            return 1;
        }
        snprintf(m, sizeof m, "%s PSN 0x%06x%s%s: the reference sends no such "
                 "response", ibw_opcode_info(r->opcode)->name, psn,
                 r->has_aeth ? ", AETH " : "",
                 r->has_aeth ? aeth_kind(r->syn) : "");
        rp_report(rp, r->frame, CHK_R_REPLAY_EXTRA, m);
        return 1;
    }
    x->matched = 1;
    if (ibw_opcode_kind(x->opcode) == IBW_OPK_READ_RESP)
        read_exp_supersede(f, x, r, oldest <= (size_t)(x - f->exp) ? oldest : 0);
    int n = 0;
    m[0] = 0;
#define RP_DIFF(...)                                                          \
    do {                                                                       \
        if (n >= 0 && (size_t)n < sizeof m)                                    \
            n += snprintf(m + n, sizeof m - (size_t)n, __VA_ARGS__);           \
    } while (0)
    if (x->opcode != r->opcode && !read_reissue_opcode(f, psn, x->opcode, r->opcode))
        RP_DIFF("%sopcode %s, reference %s", n ? "; " : "",
                ibw_opcode_info(r->opcode)->name,
                ibw_opcode_info(x->opcode)->name);
    if (r->has_aeth && x->has_aeth) {
        unsigned xk = x->syn >> 5 & 3;
        unsigned rcode = ibw_aeth_syndrome_value(r->syn);
        unsigned xcode = ibw_aeth_syndrome_value(x->syn);
        if (xk != kind || (kind == 3 && xcode != rcode))
            RP_DIFF("%sAETH %s code %u, reference %s code %u", n ? "; " : "",
                    aeth_kind(r->syn), rcode, aeth_kind(x->syn), xcode);
        /* a READ's first response may carry the MSN before the READ
         * counts (the reference counts it at once) */
        int read_first = rc_op_is(x->opcode, IBW_OP_RC_RDMA_READ_RESPONSE_FIRST) &&
                         rel == ((x->msn - 1) & CHK_PSN_MASK);
        int in_range = msn_in_range(x, rel, have_rec_hi, rec_hi);
        /* the reference's answer to a READ re-issued over this PSN (void
         * now, read_exp_supersede()), when the original response was lost
         * before the capture point: the recorded one answers the re-issue */
        for (size_t k = 0; !in_range && k < f->nexp; k++) {
            struct rp_exp *y = &f->exp[k];
            if (y != x && (!y->matched || y->matched == 2) && y->msn_range &&
                y->psn == psn &&
                ibw_opcode_kind(y->opcode) == IBW_OPK_READ_RESP &&
                y->req_frame > x->req_frame &&
                msn_in_range(y, rel, have_rec_hi, rec_hi)) {
                in_range = 1; /* (y stays void: read_exp_supersede()) */
            }
        }
        if (!read_first && !x->any_msn && !in_range && !msn_match(f, rel, x->msn))
            RP_DIFF("%sMSN %u, reference %u", n ? "; " : "", rel, x->msn);
    }
    if (r->paylen_known && x->paylen != r->paylen)
        RP_DIFF("%spayload %u bytes, reference %u", n ? "; " : "", r->paylen,
                x->paylen);
    if (r->has_orig && x->atom_op && x->dup_fed) {
        /* Statement DUP-REQUEST (IBA 9.7.5.1.2, the checker's
         * FLOW-DUP-ATOMIC): a duplicate atomic is not executed again; it
         * is answered with the original value saved when it was, which is
         * what the capture's first answer at its PSN returned (the
         * reference's own saved value may be one it computed before it
         * knew the word).  Its value says what the word was then, not
         * now: nothing is learnt from it. */
        const struct rp_saved *sv = saved_at(f, psn);
        if (sv && sv->orig != r->orig) {
            RP_DIFF("%soriginal value 0x%016llx of a duplicate atomic, the "
                    "one its first answer returned 0x%016llx (a duplicate "
                    "returns the saved result, it is not executed again)",
                    n ? "; " : "", (unsigned long long)r->orig,
                    (unsigned long long)sv->orig);
            word_unknown(f, x->atom_addr);
        } else if (!sv) {
            saved_put(f, psn, r->orig, 0);
        }
    } else if (r->has_orig && x->atom_op) {
        saved_put(f, psn, r->orig, 1);
        if (x->orig_known && r->orig != x->orig)
            RP_DIFF("%soriginal value 0x%016llx, reference 0x%016llx",
                    n ? "; " : "", (unsigned long long)r->orig,
                    (unsigned long long)x->orig);
        if (!x->orig_known) {
            /* learn the word from the capture, and what the atomic made it */
            uint64_t v = atomic_result(x->atom_op, r->orig, x->swap, x->cmp);
            /* atomics on the word the reference took after this one (in
             * flight together) apply to it too: they learn in turn.  Not
             * its answers to duplicates: those it did not execute */
            for (size_t k = (size_t)(x - f->exp) + 1; k < f->nexp; k++) {
                const struct rp_exp *y = &f->exp[k];
                if (y->atom_op && y->matched != 2 && !y->dup_fed &&
                    y->atom_addr == x->atom_addr)
                    v = atomic_result(y->atom_op, v, y->swap, y->cmp);
            }
            put_word(f, x->atom_addr, v);
            known_add(f, x->atom_addr, x->atom_addr + 8);
            unsigned li = f->nlearnt < RP_LEARNT ? f->nlearnt++
                                                 : f->learnt_next++ % RP_LEARNT;
            f->learnt[li].addr = x->atom_addr;
            f->learnt[li].value = v;
            f->learnt[li].req_frame = x->req_frame;
            f->learnt[li].order = ++f->order;
        }
    }
#undef RP_DIFF
    if (n) {
        char full[400];
        snprintf(full, sizeof full, "PSN 0x%06x (request frame %llu): %s", psn,
                 (unsigned long long)x->req_frame, m);
        rp_report(rp, r->frame, CHK_R_REPLAY_DIFF, full);
    }
    return 1;
}

/* Judge the held responses the reference now answers; with `force`, or
 * once held longer than the checker's skew window, the rest as they are.
 * In the order recorded: the responder answers in order, so a response
 * behind one still waiting for its request waits too (a retry round's
 * ACK must not be judged before the RNR NAKs of the rounds before it). */
static void retry_held(struct replay *rp, struct rp_flow *f, int force,
                       uint64_t now)
{
    uint64_t ts = rp->c->ts_ns;
    uint64_t win = rp->c->o.skew_ns ? rp->c->o.skew_ns : RP_SKEW_DEFAULT_NS;
    size_t k = 0;
    for (size_t i = 0; i < f->nheld; i++) {
        struct rp_resp *r = &f->held[i];
        int expired = force || (ts >= r->ts_ns && ts - r->ts_ns > win);
        if (k && !expired)
            f->held[k++] = *r;
        else if (!f->skipped && !judge_resp(rp, f, r, expired, now))
            f->held[k++] = *r;
    }
    f->nheld = k;
}

static void hold_resp(struct rp_flow *f, const struct rp_resp *r)
{
    struct rp_resp *nh =
        chk_grow(f->held, f->nheld, &f->capheld, sizeof *nh, 8);
    if (!nh)
        return;
    f->held = nh;
    f->held[f->nheld++] = *r;
}

static void on_response(struct replay *rp, const struct chk_flow_summary *s,
                        const struct ibw_pkt *p, uint64_t frame)
{
    struct rp_flow *f = flow_find(rp, s);
    if (!f || f->skipped)
        return;
    f->cm = (uint8_t)(s->cm_negotiated != 0);
    f->skewed = s->skew_ns != 0;
    /* what the reference produces from here on (fed again) is judged by
     * the responses after this one */
    uint64_t now = ++f->clock;
    pmtu_learnt(rp, f, s, frame);
    if (f->skipped)
        return;
    struct rp_resp r;
    memset(&r, 0, sizeof r);
    r.frame = frame;
    r.ts_ns = rp->c->ts_ns;
    r.psn = ibw_bth_get_psn(ibw_pkt_hdr(p, IBW_HDR_BTH));
    r.opcode = p->opcode;
    const struct ibw_opcode_info *oi = ibw_opcode_info(p->opcode);
    if (p->cut && (oi->hdrs & (1u << IBW_HDR_AETH)) &&
        !ibw_pkt_has(p, IBW_HDR_AETH))
        return; /* cut before its AETH: ACK or NAK, the capture cannot tell */
    const uint8_t *a = ibw_pkt_hdr(p, IBW_HDR_AETH);
    r.has_aeth = a != NULL;
    r.syn = a ? ibw_aeth_get_syndrome(a) : 0;
    r.msn = a ? ibw_aeth_get_msn(a) : 0;
    /* a cut frame's length fields tell what it carried */
    r.paylen = p->cut ? p->payload_wire_len : p->payload_len;
    r.paylen_known = !p->cut || p->cut_hdr == IBW_HDR_COUNT;
    const uint8_t *aa = ibw_pkt_hdr(p, IBW_HDR_ATOMICACKETH);
    r.has_orig = aa != NULL;
    r.orig = aa ? ibw_atomicacketh_get_origremdt(aa) : 0;
    retry_held(rp, f, 0, now);
    if (f->nheld || !judge_resp(rp, f, &r, 0, now))
        hold_resp(f, &r); /* in order behind the ones held */
}

/*
 * A corrupted response (the checker keeps it out of the flows: its bytes
 * cannot be trusted) stands for the reference's answer at its PSN, so
 * that no answer is reported missing for it; its fields are not compared.
 * Its flow: the one whose responses go src -> dst, to its requester QP.
 */
static void on_corrupt(struct replay *rp, const struct ibw_pkt *p)
{
    if (!(ibw_opcode_info(p->opcode)->flags & IBW_OPF_RESPONSE))
        return; /* a request: not fed, the responder never got it either */
    struct chk_addr src, dst;
    chk_pkt_addrs(p, &src, &dst);
    const uint8_t *b = ibw_pkt_hdr(p, IBW_HDR_BTH);
    struct rp_flow *f = flow_find_resp(rp, ibw_bth_get_destqp(b), &src, &dst);
    if (f && !f->skipped) {
        /* an ACK stands only for an ACK at its PSN (any other may be
         * coalesced); a READ response or atomic ACK whose PSN names none
         * for the next one of its opcode */
        int ack = rc_op_is(p->opcode, IBW_OP_RC_ACKNOWLEDGE);
        struct rp_exp *x = exp_at(f, ibw_bth_get_psn(b), ack ? EXP_ACK_ONLY : 0);
        for (size_t j = 0; !x && !ack && j < f->nlive; j++) {
            struct rp_exp *y = &f->exp[f->live[j]];
            if (!y->matched && !y->optional && y->opcode == p->opcode)
                x = y;
        }
        if (x)
            x->matched = 3;
    }
}

static void on_rc(void *user, const struct chk_flow_summary *s,
                  const struct ibw_pkt *p, uint64_t frame, int is_request)
{
    struct replay *rp = user;
    if (rp->c && !s) {
        on_corrupt(rp, p);
        return;
    }
    if (!rp->c || !ibw_pkt_has(p, IBW_HDR_BTH) || !s->resp_qpn_known)
        return;
    struct rp_flow *f = flow_find(rp, s);
    if (f && s->req_qpn_known &&
        (!f->req_qpn_known || f->req_qpn != s->req_qpn)) {
        if (f->req_qpn_known)
            unlink2(rp, f);
        f->req_qpn = s->req_qpn;
        f->req_qpn_known = 1;
        link2(rp, f);
    }
    if (is_request)
        on_request(rp, s, p, frame);
    else
        on_response(rp, s, p, frame);
}

struct replay *replay_new(struct chk_opts *o)
{
    struct replay *rp = calloc(1, sizeof *rp);
    if (!rp)
        return NULL;
    rp->pmtu = o->pmtu;
    o->rc_hook = on_rc;
    o->rc_hook_user = rp;
    return rp;
}

/*
 * An answer to a request the requester sent more than once (the capture
 * recorded copies at its PSN from other frames) while the capture has the
 * responder's answer to one of them: a requester sends a request again
 * only when no answer reached it, so a copy or an answer was lost in the
 * network, where a capture point on either side may not see it (netem on
 * an egress before the capture, a drop after it; a copy lost on the way,
 * an answer lost on the way back): that an answer to one copy is missing
 * says nothing of the responder.  (One that answers no copy at all still
 * misses its answer.)  again[k] is set for each such expectation k: the
 * expectations grouped by PSN (sorted, so a long flow costs n log n).
 */
struct rp_copy {
    uint32_t psn;
    uint32_t k;
};

static int copy_cmp(const void *a, const void *b)
{
    const struct rp_copy *x = a, *y = b;
    if (x->psn != y->psn)
        return x->psn < y->psn ? -1 : 1;
    return (x->k > y->k) - (x->k < y->k);
}

static uint8_t *answered_again(const struct rp_flow *f)
{
    struct rp_copy *v = malloc((f->nexp ? f->nexp : 1) * sizeof *v);
    uint8_t *again = calloc(f->nexp ? f->nexp : 1, 1);
    if (!v || !again) {
        free(v);
        free(again);
        return NULL;
    }
    for (size_t k = 0; k < f->nexp; k++) {
        v[k].psn = f->exp[k].psn;
        v[k].k = (uint32_t)k;
    }
    qsort(v, f->nexp, sizeof *v, copy_cmp);
    for (size_t i = 0; i < f->nexp;) {
        size_t j = i;
        int copies = 0, answered = 0;
        for (; j < f->nexp && v[j].psn == v[i].psn; j++) {
            const struct rp_exp *y = &f->exp[v[j].k];
            copies |= y->req_frame != f->exp[v[i].k].req_frame;
            answered |= y->matched == 1;
        }
        for (size_t m = i; m < j; m++)
            again[v[m].k] = (uint8_t)(copies && answered);
        i = j;
    }
    free(v);
    return again;
}

void replay_finish(struct replay *rp)
{
    if (!rp || !rp->c)
        return;
    for (unsigned i = 0; i < rp->nflows; i++) {
        struct rp_flow *f = rp->flows[i];
        if (f->skipped)
            continue;
        rp->c->cur_flow = chk_flow_get(rp->c, &f->req, &f->resp, f->resp_qpn, 0);
        retry_held(rp, f, 1, ++f->clock);
        /* The responder answers in order: a response the reference sends is
         * missing when the capture has one the reference sends after it,
         * or one at its PSN or a later one judged after it.  (Not merely
         * any response after it: with the responder's direction recorded
         * late, responses sent before a request are recorded after it.) */
        size_t last_matched = 0;
        for (size_t k = 0; k < f->nexp; k++)
            if (f->exp[k].matched == 1)
                last_matched = k + 1;
        uint8_t *again = f->lossy ? NULL : answered_again(f);
        for (size_t k = 0; k < f->nexp; k++) {
            struct rp_exp *x = &f->exp[k];
            if (x->matched || x->optional || (!x->passed && k + 1 >= last_matched))
                continue;
            /* the capture point is shown to lose frames on this flow: a
             * response missing from it was as likely lost there */
            if (f->lossy || (again && again[k]) || x->went_back)
                continue;
            char m[200];
            snprintf(m, sizeof m, "no captured %s PSN 0x%06x%s%s, which the "
                     "reference sends for this request",
                     ibw_opcode_info(x->opcode)->name, x->psn,
                     x->has_aeth ? ", AETH " : "",
                     x->has_aeth ? aeth_kind(x->syn) : "");
            rp_report(rp, x->req_frame, CHK_R_REPLAY_MISSING, m);
        }
        free(again);
        rp->c->cur_flow = NULL;
    }
}

void replay_free(struct replay *rp)
{
    if (!rp)
        return;
    for (unsigned i = 0; i < rp->nflows; i++) {
        struct rp_flow *f = rp->flows[i];
        /* oldest first: a snapshot freed with none older drops its undo
         * logs, where one freed in the middle of the chain hands them to
         * the one before it */
        for (unsigned k = 0; k < f->nsnap; k++) {
            ibe_snapshot_free(snap_at(f, k)->world);
            snap_at(f, k)->world = NULL;
        }
        for (unsigned k = 0; k < f->capsnap; k++)
            ibe_snapshot_free(f->snap[k].world);
        if (f->e)
            ibe_engine_destroy(f->e);
        if (f->w)
            ibe_world_destroy(f->w);
        free(f->exp);
        free(f->live);
        free(f->naks);
        free(f->held);
        for (unsigned k = 0; k < f->capsnap; k++)
            free(f->snap[k].pkt);
        free(f->snap);
        free(f->pt);
        free(f);
    }
    free(rp->flows);
    free(rp->bk);
    free(rp->bk2);
    free(rp);
}
