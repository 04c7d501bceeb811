/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_judge.c - the fuzzer's oracle (README.md, "Fuzzing").  An episode
 * is run on the device and on the reference engine (virtual time) and
 * each run observed: every frame both ways, the completions, the memory of
 * the four regions at the end.  Two kinds of judgement:
 *
 *  - where the IBA leaves the device no choice, the device must end as the
 *    engine did: its memory, its completions and their status, which PSNs
 *    draw which NAK (sequence, RNR with its timer, an error: Invalid
 *    Request, Remote Access and Remote Operational Error are one class,
 *    the device may find either first), READ response opcodes, lengths and
 *    bytes, atomic original values, the MSN wherever both acknowledge the
 *    same PSN, how far it acknowledges, the requests it sends (opcode,
 *    length, bytes, RETH, immediate) at each PSN, and resends that equal
 *    the first transmission;
 *  - where the IBA allows several behaviours (ACK coalescing: an ACK may be
 *    missing wherever a later one covers it; when a timer fires, within
 *    its range), the device is judged by `ibwire check`'s rules on the
 *    episode's frames: an error rule the device's frames break and the
 *    engine's do not.  Timers have one fixed side: a resend the engine
 *    made on a timer (20 us or more after the frame before) may not come
 *    earlier on the device than 15/16 of it (the IBA's lower bound).
 *
 * A divergence is an episode the device fails and the engine passes.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fuzz.h"
#include "ibwire/packet.h"
#include "probe_int.h"
#include "statements.h"

static const uint32_t region_len[PR_COUNT] = {65536, 4096, 4096, 65536};

/* ---- observing ---- */

static void ob_frame(void *user, int dir, int line, uint64_t at,
                     const uint8_t *f, size_t len)
{
    struct fz_obs *o = user;
    if (o->nfr == o->capfr) {
        size_t n = o->capfr ? 2 * o->capfr : 64;
        struct fz_frame *m = realloc(o->fr, n * sizeof *m);
        if (!m)
            return;
        o->fr = m;
        o->capfr = n;
    }
    uint8_t *c = malloc(len ? len : 1);
    if (!c)
        return;
    memcpy(c, f, len);
    o->fr[o->nfr++] = (struct fz_frame){(uint8_t)dir, line, at, len, c};
}

static void ob_step(void *user, int line, uint64_t now)
{
    struct fz_obs *o = user;
    if (line >= 0 && line < FZ_MAXLINES)
        o->step_at[line] = now;
}

static void ob_end(void *user, struct probe_target *tg)
{
    struct fz_obs *o = user;
    for (;;) {
        int n = tg->poll(tg->ctx, o->cq + o->ncq, FZ_MAXCQE - o->ncq);
        if (n <= 0)
            break;
        o->ncq += n;
    }
    for (int r = 0; r < PR_COUNT; r++) {
        o->mem[r] = malloc(region_len[r]);
        if (o->mem[r] && tg->mem_read(tg->ctx, r, 0, o->mem[r], region_len[r])) {
            free(o->mem[r]);
            o->mem[r] = NULL;
        }
        o->memlen[r] = o->mem[r] ? region_len[r] : 0;
    }
}

void fz_observe(const char *script, struct probe_target *tg,
                const struct probe_opts *base, struct fz_obs *o)
{
    memset(o, 0, sizeof *o);
    struct probe_opts po;
    if (base)
        po = *base;
    else
        memset(&po, 0, sizeof po);
    po.pcap_dir = NULL;
    po.pcap_all = 0;
    po.on_frame = ob_frame;
    po.on_step = ob_step;
    po.at_end = ob_end;
    po.user = o;
    struct probe_test t = {"fuzz", PROBE_RESPONDER, "", "", "", script};
    struct probe_result r;
    probe_run(&t, tg, &po, &r);
    o->verdict = r.verdict;
    snprintf(o->why, sizeof o->why, "%s", r.why);
}

void fz_obs_free(struct fz_obs *o)
{
    for (size_t i = 0; i < o->nfr; i++)
        free(o->fr[i].b);
    free(o->fr);
    for (int r = 0; r < PR_COUNT; r++)
        free(o->mem[r]);
    memset(o, 0, sizeof *o);
}

/* ---- helpers ---- */

/* A setup key's value in the script's setup lines, or def. */
static uint32_t setup_val(const char *script, const char *key, uint32_t def)
{
    size_t kl = strlen(key);
    for (const char *s = script; s && *s;) {
        const char *e = strchr(s, '\n');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        if (!strncmp(s, "setup ", 6)) {
            for (const char *p = s; p < s + n; p++)
                if (!strncmp(p, key, kl) && p[kl] == '=' && p[-1] == ' ')
                    return (uint32_t)strtoul(p + kl + 1, NULL, 0);
        }
        s = e ? e + 1 : NULL;
    }
    return def;
}

static int is_requester(const char *script)
{
    return strstr(script, "post ") != NULL;
}

static uint64_t fnv(const uint8_t *b, size_t n)
{
    uint64_t h = 0xCBF29CE484222325ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001B3ull;
    return h;
}

#define SPAN 1024 /* PSN offsets -SPAN/2 .. SPAN/2-1 from E or S are judged */

static int psn_index(uint32_t psn, uint32_t base)
{
    int32_t off = (int32_t)(((psn - base) & 0xFFFFFFu) << 8) >> 8;
    return off >= -SPAN / 2 && off < SPAN / 2 ? off + SPAN / 2 : -1;
}

static int verdict(struct fz_verdict *v, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int verdict(struct fz_verdict *v, const char *key, const char *fmt, ...)
{
    v->diverged = 1;
    v->key = key;
    const struct ibw_statement_info *s = fz_statement(key);
    v->stmt = s ? s->id : "";
    v->section = s ? s->section : "";
    v->rule = s ? s->rules : "";
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->why, sizeof v->why, fmt, ap);
    va_end(ap);
    return 1;
}

/* ---- the device as responder: what it answered at each PSN ---- */

enum { K_ACK = 1, K_READ = 2, K_ATOMIC = 4, K_NAKS = 8, K_NAKR = 16, K_NAKE = 32 };

struct resp_at {
    uint8_t kinds;
    uint8_t has_msn, read_op, rnr_timer, read_has_msn;
    uint32_t msn, read_len, read_msn;
    uint64_t read_hash, orig;
};

/* Frame i decoded into rx when the device sent it and it is a transport
 * packet (it parses, and it is not a CNP: congestion control's). */
static int device_packet(const struct fz_obs *o, size_t i, struct probe_rx *rx)
{
    if (o->fr[i].dir != 1)
        return 0;
    probe_decode(o->fr[i].b, o->fr[i].len, rx);
    return rx->ok && rx->opcode != IBW_OP_CNP;
}

static void responses(const struct fz_obs *o, uint32_t base, struct resp_at *t,
                      int *maxack)
{
    memset(t, 0, SPAN * sizeof *t);
    *maxack = -1;
    for (size_t i = 0; i < o->nfr; i++) {
        struct probe_rx rx;
        if (!device_packet(o, i, &rx))
            continue;
        int k = psn_index(rx.psn, base);
        if (k < 0)
            continue;
        struct resp_at *a = &t[k];
        if (rx.opcode == IBW_OP_RC_ACKNOWLEDGE && rx.has_aeth) {
            unsigned cls = rx.syndrome >> 5;
            if (cls == 0) {
                if (!(a->kinds & K_ACK)) {
                    a->msn = rx.msn;
                    a->has_msn = 1;
                }
                a->kinds |= K_ACK;
                if (k > *maxack)
                    *maxack = k;
            } else if (cls == 1) {
                a->kinds |= K_NAKR;
                a->rnr_timer = rx.syndrome & 0x1F;
            } else if (rx.syndrome == 0x60) {
                a->kinds |= K_NAKS;
            } else {
                a->kinds |= K_NAKE;
            }
        } else if (rx.opcode >= IBW_OP_RC_RDMA_READ_RESPONSE_FIRST &&
                   rx.opcode <= IBW_OP_RC_RDMA_READ_RESPONSE_ONLY) {
            if (!(a->kinds & K_READ)) {
                a->read_op = rx.opcode;
                a->read_len = rx.paylen;
                a->read_hash = fnv(rx.payload, rx.paylen);
                a->read_has_msn = rx.has_aeth;
                a->read_msn = rx.msn;
            }
            a->kinds |= K_READ;
            if (k > *maxack)
                *maxack = k;
        } else if (rx.opcode == IBW_OP_RC_ATOMIC_ACKNOWLEDGE) {
            if (!(a->kinds & K_ATOMIC))
                a->orig = rx.orig;
            a->kinds |= K_ATOMIC;
            if (k > *maxack)
                *maxack = k;
        }
    }
}

static const char *kind_name(uint8_t k)
{
    return k & K_NAKS ? "a PSN sequence error NAK" : k & K_NAKR ? "an RNR NAK"
         : k & K_NAKE ? "an error NAK" : "nothing of that kind";
}

/* The PSN index of the device's last response when it is a NAK after which
 * the device answered nothing, -1 otherwise:
 *  - an error NAK (Invalid Request, Remote Access, Remote Operational
 *    Error): its responder QP went to the Error state, as IBA 9.9.3 has a
 *    responder do on these errors (Linux rxe does; the reference engine
 *    stays in RTS, which the tests allow too: `cqe none-ok`);
 *  - an RNR NAK (*rnr set) where the engine sent an error NAK: a request
 *    that needs a receive WQE when none is posted and is invalid too (a
 *    LAST whose bytes fall short of the RETH DMA length, C9-92): both are
 *    true, and the IBA does not order the receive-WQE check before the
 *    length check (Linux rxe's check_resource() comes before
 *    check_length()); the requester's resend meets the error then.
 * Either way the device waits for what does not come, and what the engine
 * did after that PSN is not the device's to match. */
static int final_nak_at(const struct fz_obs *o, uint32_t base, int *rnr)
{
    int at = -1;
    *rnr = 0;
    for (size_t i = 0; i < o->nfr; i++) {
        struct probe_rx rx;
        if (!device_packet(o, i, &rx))
            continue;
        at = -1;
        *rnr = 0;
        if (rx.opcode == IBW_OP_RC_ACKNOWLEDGE && rx.has_aeth &&
            ((rx.syndrome >> 5 == 3 && rx.syndrome != 0x60) || rx.syndrome >> 5 == 1)) {
            at = psn_index(rx.psn, base);
            *rnr = rx.syndrome >> 5 == 1;
        }
    }
    return at;
}

static int judge_responder(uint32_t E, const struct fz_obs *dev,
                           const struct fz_obs *ref, int *stop, struct fz_verdict *v)
{
    struct resp_at *d = calloc(2 * SPAN, sizeof *d), *r = d + SPAN;
    if (!d)
        return 0;
    int dmax, rmax, found = 1, rnr;
    responses(dev, E, d, &dmax);
    responses(ref, E, r, &rmax);
    /* the device's last answer a NAK the engine also sent there (an error
     * NAK; for an RNR NAK, an RNR or an error NAK): judged up to it */
    int err_at = final_nak_at(dev, E, &rnr);
    if (err_at >= 0 && !(r[err_at].kinds & (rnr ? K_NAKR | K_NAKE : K_NAKE)))
        err_at = -1;
    *stop = err_at;
    for (int k = 0; k < SPAN; k++) {
        int off = k - SPAN / 2;
        /* past the error NAK after which the device's QP is in Error,
         * nothing the engine answered is due (its error NAK is judged at
         * err_at: the engine must have sent one there too) */
        if (err_at >= 0 && k > err_at)
            break;
        if (k == err_at) /* the NAK itself (the engine sent it too); what the
                          * engine sent at that PSN after it (a sequence NAK
                          * for the requests behind) is not due */
            break;
        struct resp_at *a = &d[k];
        const struct resp_at *b = &r[k];
        /* an RNR NAK where the engine NAKs an error: the device checked
         * for a receive WQE first (final_nak_at); it waits for the resend
         * from that PSN as the engine does after its NAK */
        if ((a->kinds & (K_NAKR | K_NAKE)) == K_NAKR &&
            (b->kinds & (K_NAKR | K_NAKE)) == K_NAKE)
            a->kinds = (uint8_t)((a->kinds & ~K_NAKR) | K_NAKE);
        static const uint8_t naks[] = {K_NAKS, K_NAKR, K_NAKE};
        for (int j = 0; j < 3; j++)
            if ((a->kinds & naks[j]) != (b->kinds & naks[j]))
                goto nak;
        if ((a->kinds & K_NAKR) && a->rnr_timer != b->rnr_timer) {
            verdict(v, "judge-rnr-timer", "E%+d: RNR NAK timer %u, the engine's %u "
                    "(the setup's rnr_timer)", off, a->rnr_timer, b->rnr_timer);
            goto out;
        }
        if ((a->kinds ^ b->kinds) & K_READ) {
            verdict(v, "judge-read", "E%+d: the device %s READ response, the "
                    "engine %s", off, a->kinds & K_READ ? "sent a" : "sent no",
                    b->kinds & K_READ ? "did" : "did not");
            goto out;
        }
        if ((a->kinds & K_READ) && (a->read_op != b->read_op ||
                                    a->read_len != b->read_len ||
                                    a->read_hash != b->read_hash)) {
            verdict(v, "judge-read", "E%+d: READ response %s of %u bytes, the "
                    "engine's %s of %u%s", off, probe_opcode_name(a->read_op),
                    a->read_len, probe_opcode_name(b->read_op), b->read_len,
                    a->read_hash != b->read_hash ? " (other bytes)" : "");
            goto out;
        }
        if ((a->kinds ^ b->kinds) & K_ATOMIC) {
            verdict(v, "judge-atomic", "E%+d: the device %s ATOMIC ACKNOWLEDGE, "
                    "the engine %s", off, a->kinds & K_ATOMIC ? "sent an" : "sent no",
                    b->kinds & K_ATOMIC ? "did" : "did not");
            goto out;
        }
        if ((a->kinds & K_ATOMIC) && a->orig != b->orig) {
            verdict(v, "judge-atomic", "E%+d: original value 0x%llx, the engine's "
                    "0x%llx", off, (unsigned long long)a->orig,
                    (unsigned long long)b->orig);
            goto out;
        }
        if ((a->kinds & K_ACK) && !(b->kinds & K_ACK) &&
            (b->kinds & (K_READ | K_ATOMIC))) {
            verdict(v, "judge-ack-kind", "E%+d: the device sent an ACK for a PSN "
                    "the engine answers with %s", off,
                    b->kinds & K_READ ? "READ responses" : "an ATOMIC ACKNOWLEDGE");
            goto out;
        }
        if ((a->kinds & K_ACK) && (b->kinds & K_ACK) && a->msn != b->msn) {
            verdict(v, "judge-msn", "E%+d: ACK with MSN %u, the engine's %u", off,
                    a->msn, b->msn);
            goto out;
        }
        if (a->read_has_msn && b->read_has_msn && a->read_msn != b->read_msn) {
            verdict(v, "judge-msn", "E%+d: READ response with MSN %u, the engine's %u",
                    off, a->read_msn, b->read_msn);
            goto out;
        }
        continue;
nak: {
        /* the statement is that of the NAK one side sent and the other
         * did not: an error NAK's code, else the RNR NAK, else the
         * sequence NAK */
        unsigned differ = (unsigned)(a->kinds ^ b->kinds);
        verdict(v, differ & K_NAKE ? "judge-nak-error"
                   : differ & K_NAKR ? "judge-nak-rnr" : "judge-nak-seq",
                "E%+d: the device sent %s, the engine %s", off,
                kind_name(a->kinds & ~b->kinds & (K_NAKS | K_NAKR | K_NAKE)),
                kind_name(b->kinds & ~a->kinds & (K_NAKS | K_NAKR | K_NAKE)));
        goto out;
    }
    }
    if (dmax < rmax && err_at < 0) {
        verdict(v, "judge-progress", "the device acknowledged up to E%+d, the "
                "engine up to E%+d", dmax < 0 ? -SPAN : dmax - SPAN / 2,
                rmax - SPAN / 2);
        goto out;
    }
    if (dmax > rmax) {
        verdict(v, "judge-ack-unsent", "the device acknowledged E%+d, which the "
                "engine never did (it acknowledged up to E%+d)", dmax - SPAN / 2,
                rmax < 0 ? -SPAN : rmax - SPAN / 2);
        goto out;
    }
    found = 0;
out:
    free(d);
    return found;
}

/* ---- the device as requester: what it sent at each PSN ---- */

struct req_at {
    uint8_t have, op;
    uint32_t len, rkey, dmalen, imm;
    uint64_t va, hash;
};

static void req_of(const struct probe_rx *rx, struct req_at *q)
{
    q->have = 1;
    q->op = rx->opcode;
    q->len = rx->paylen;
    q->hash = fnv(rx->payload, rx->paylen);
    q->va = rx->va;
    q->rkey = rx->rkey;
    q->dmalen = rx->dmalen;
    q->imm = rx->imm;
}

static int req_same(const struct req_at *a, const struct req_at *b, char *diff,
                    size_t cap)
{
    if (a->op != b->op)
        snprintf(diff, cap, "%s, not %s", probe_opcode_name(a->op),
                 probe_opcode_name(b->op));
    else if (a->len != b->len)
        snprintf(diff, cap, "%u payload bytes, not %u", a->len, b->len);
    else if (a->hash != b->hash)
        snprintf(diff, cap, "other payload bytes");
    else if (a->va != b->va)
        snprintf(diff, cap, "RETH VA 0x%llx, not 0x%llx", (unsigned long long)a->va,
                 (unsigned long long)b->va);
    else if (a->dmalen != b->dmalen)
        snprintf(diff, cap, "RETH DMA length %u, not %u", a->dmalen, b->dmalen);
    else if (a->rkey != b->rkey)
        snprintf(diff, cap, "R_Key 0x%x, not 0x%x", a->rkey, b->rkey);
    else if (a->imm != b->imm)
        snprintf(diff, cap, "immediate 0x%x, not 0x%x", a->imm, b->imm);
    else
        return 1;
    return 0;
}

/* The requests at each PSN (first transmissions); a resend that differs
 * from the first is reported in *bad (-1: none).  Timer resends: the gaps
 * before each burst of resends, in order. */
static void requests(const struct fz_obs *o, uint32_t base, struct req_at *t,
                     int *bad, char *why, size_t cap, uint64_t *gaps, int *ngaps)
{
    memset(t, 0, SPAN * sizeof *t);
    *bad = -1;
    *ngaps = 0;
    int prev_resend = 0;
    for (size_t i = 0; i < o->nfr; i++) {
        if (o->fr[i].dir != 1) {
            prev_resend = 0;
            continue;
        }
        struct probe_rx rx;
        probe_decode(o->fr[i].b, o->fr[i].len, &rx);
        if (!rx.ok || !ibw_opcode_is_request(rx.opcode))
            continue;
        int k = psn_index(rx.psn, base);
        if (k < 0)
            continue;
        struct req_at q;
        memset(&q, 0, sizeof q);
        req_of(&rx, &q);
        if (!t[k].have) {
            t[k] = q;
            prev_resend = 0;
            continue;
        }
        if (*bad < 0 && !req_same(&q, &t[k], why, cap))
            *bad = k;
        if (!prev_resend && *ngaps < 64)
            gaps[(*ngaps)++] = i ? o->fr[i].at - o->fr[i - 1].at : 0;
        prev_resend = 1;
    }
}

/* The PSNs of the requests the device sent after the probe's n-th PSN
 * sequence error NAK, up to the probe's next frame (0: there is no n-th). */
static int after_seq_nak(const struct fz_obs *o, int n, uint32_t *psns, int cap,
                         int *count)
{
    int seen = 0;
    *count = 0;
    for (size_t i = 0; i < o->nfr; i++) {
        struct probe_rx rx;
        if (o->fr[i].dir != 0)
            continue;
        probe_decode(o->fr[i].b, o->fr[i].len, &rx);
        if (!rx.ok || !rx.has_aeth || rx.syndrome != 0x60 || seen++ != n)
            continue;
        for (size_t j = i + 1; j < o->nfr && o->fr[j].dir == 1; j++) {
            probe_decode(o->fr[j].b, o->fr[j].len, &rx);
            if (rx.ok && ibw_opcode_is_request(rx.opcode) && *count < cap)
                psns[(*count)++] = rx.psn;
        }
        return 1;
    }
    return 0;
}

/* Go-Back-N (9.7.5.2, 9.7.4): after a PSN sequence error NAK the requester
 * sends again from the PSN it names, every request after it in order. */
static int judge_gbn(uint32_t S, const struct fz_obs *dev, const struct fz_obs *ref,
                     struct fz_verdict *v)
{
    for (int n = 0;; n++) {
        uint32_t a[64], b[64];
        int na, nb;
        if (!after_seq_nak(dev, n, a, 64, &na) || !after_seq_nak(ref, n, b, 64, &nb))
            return 0;
        for (int i = 0; i < na || i < nb; i++)
            if (i >= na || i >= nb || a[i] != b[i])
                return verdict(v, "judge-gbn", "after the probe's PSN sequence "
                               "NAK %d the device sent %d requests%s, the engine %d "
                               "(from S%+d)", n + 1, na,
                               i < na && i < nb ? " in another order" : "", nb,
                               nb ? (int32_t)(((b[0] - S) & 0xFFFFFFu) << 8) >> 8 : 0);
    }
}

static int judge_requester(uint32_t S, const struct fz_obs *dev,
                           const struct fz_obs *ref, struct fz_verdict *v)
{
    if (judge_gbn(S, dev, ref, v))
        return 1;
    struct req_at *d = calloc(2 * SPAN, sizeof *d), *r = d + SPAN;
    if (!d)
        return 0;
    int dbad, rbad, dn, rn, found = 1;
    uint64_t dg[64], rg[64];
    char dwhy[160], rwhy[160], diff[160];
    requests(dev, S, d, &dbad, dwhy, sizeof dwhy, dg, &dn);
    requests(ref, S, r, &rbad, rwhy, sizeof rwhy, rg, &rn);
    for (int k = 0; k < SPAN; k++) {
        int off = k - SPAN / 2;
        if (d[k].have != r[k].have) {
            verdict(v, "judge-request-set", "S%+d: the device %s a request there, "
                    "the engine %s", off, d[k].have ? "sent" : "never sent",
                    r[k].have ? "did" : "did not");
            goto out;
        }
        if (d[k].have && !req_same(&d[k], &r[k], diff, sizeof diff)) {
            verdict(v, "judge-request", "S%+d: the device's request is %s (the "
                    "engine's)", off, diff);
            goto out;
        }
    }
    if (dbad >= 0 && rbad < 0) {
        verdict(v, "judge-resend", "S%+d: a resend differs from the first "
                "transmission: %s", dbad - SPAN / 2, dwhy);
        goto out;
    }
    for (int i = 0; i < dn && i < rn; i++)
        if (rg[i] >= 20000 && dg[i] * 16 + 4000 * 16 < rg[i] * 15) {
            verdict(v, "judge-timer", "resend %d came %.1f us after the frame "
                    "before it; the engine's timer waited %.1f us (at least 15/16 "
                    "of it is due)", i + 1, (double)dg[i] / 1000.0,
                    (double)rg[i] / 1000.0);
            goto out;
        }
    found = 0;
out:
    free(d);
    return found;
}

/* ---- completions and memory ---- */

static int status_class(int s)
{
    return s == PROBE_ST_REM_ACCESS || s == PROBE_ST_REM_OP ? PROBE_ST_REM_INV_REQ : s;
}

static const char *const status_names[] = {"ok", "loc-len", "rem-inv",
    "rem-acc", "rem-op", "retry-exc", "rnr-exc", "flush", "other"};

/* qp_error: the device's last answer was an error NAK after which its QP
 * may be in the Error state, or an RNR NAK it waits on (final_nak_at):
 * from its first completion in error on, its queue is flushed (any error
 * status), and what the engine completed later the device need not have. */
static int judge_cqes(const struct fz_obs *dev, const struct fz_obs *ref, int qp_error,
                      struct fz_verdict *v)
{
    for (int recv = 0; recv < 2; recv++) {
        int i = 0, j = 0;
        for (;;) {
            while (i < dev->ncq && dev->cq[i].recv != recv)
                i++;
            while (j < ref->ncq && ref->cq[j].recv != recv)
                j++;
            if (i == dev->ncq && j == ref->ncq)
                break;
            if (qp_error && (i == dev->ncq || dev->cq[i].status != PROBE_ST_OK)) {
                /* the completion of the request the device NAKed has the
                 * engine's status class (a flushed one is any error's) */
                if (i < dev->ncq && dev->cq[i].status != PROBE_ST_FLUSH && j < ref->ncq &&
                    ref->cq[j].status != PROBE_ST_OK &&
                    status_class(dev->cq[i].status) != status_class(ref->cq[j].status))
                    return verdict(v, "judge-cqe", "a %s completion with status %s, "
                                   "the engine's %s", recv ? "receive" : "send",
                                   status_names[dev->cq[i].status],
                                   status_names[ref->cq[j].status]);
                /* flushed or never executed: the rest must be errors */
                for (; i < dev->ncq; i++)
                    if (dev->cq[i].recv == recv && dev->cq[i].status == PROBE_ST_OK)
                        return verdict(v, "judge-cqe", "a %s completion with status "
                                       "ok after the device's QP went to the Error "
                                       "state", recv ? "receive" : "send");
                break;
            }
            const char *kind = recv ? "receive" : "send";
            if (i == dev->ncq || j == ref->ncq)
                return verdict(v, "judge-cqe", "the device has %s %s completion "
                               "the engine %s (%s)", i == dev->ncq ? "no" : "a",
                               kind, i == dev->ncq ? "has" : "does not have",
                               status_names[(i == dev->ncq ? ref->cq[j]
                                                           : dev->cq[i]).status]);
            const struct probe_cqe *a = &dev->cq[i], *b = &ref->cq[j];
            if (status_class(a->status) != status_class(b->status))
                return verdict(v, "judge-cqe", "a %s completion with status %s, "
                               "the engine's %s", kind, status_names[a->status],
                               status_names[b->status]);
            if (a->status == PROBE_ST_OK && recv && a->len != b->len)
                return verdict(v, "judge-cqe", "a receive completion of %u bytes, "
                               "the engine's %u", a->len, b->len);
            if (a->status == PROBE_ST_OK && (a->has_imm != b->has_imm ||
                                             (a->has_imm && a->imm != b->imm)))
                return verdict(v, "judge-cqe", "a %s completion's immediate "
                               "differs from the engine's", kind);
            i++;
            j++;
        }
    }
    return 0;
}

static int judge_memory(const struct fz_obs *dev, const struct fz_obs *ref,
                        struct fz_verdict *v)
{
    for (int r = 0; r < PR_COUNT; r++) {
        if (!dev->mem[r] || !ref->mem[r])
            continue;
        for (uint32_t i = 0; i < region_len[r]; i++)
            if (dev->mem[r][i] != ref->mem[r][i])
                return verdict(v, "judge-memory", "%c+0x%x holds 0x%02x, the "
                               "engine's 0x%02x", PROBE_REGION_NAMES[r], i,
                               dev->mem[r][i], ref->mem[r][i]);
    }
    return 0;
}

/* ---- `ibwire check` on the episode's frames ---- */

struct rules_seen {
    uint8_t hit[CHK_RULE_COUNT];
    char first[CHK_RULE_COUNT][160];
    const struct fz_obs *o;
    int dir; /* only findings on frames of this direction; -1: all */
    int distorted; /* the checker read the frames as a distorted capture */
};

static void on_finding(void *user, const struct chk_finding *f)
{
    struct rules_seen *s = user;
    /* answers before their requests (the probe acknowledging a PSN the
     * device has not sent): the checker takes one direction for recorded
     * late and reads the timing and order through that */
    if (f->rule == CHK_R_CAP_SKEW || f->rule == CHK_R_FLOW_ACK_UNSENT)
        s->distorted = 1;
    if (f->severity != CHK_ERROR || f->rule >= CHK_RULE_COUNT || s->hit[f->rule])
        return;
    if (s->dir >= 0 && (f->frame < 1 || f->frame > s->o->nfr ||
                        s->o->fr[f->frame - 1].dir != s->dir))
        return;
    s->hit[f->rule] = 1;
    snprintf(s->first[f->rule], sizeof s->first[0], "frame %llu: %s",
             (unsigned long long)f->frame, f->message);
}

static void check_frames(const struct fz_obs *o, struct rules_seen *s, int dir)
{
    memset(s, 0, sizeof *s);
    s->o = o;
    s->dir = dir;
    struct chk_opts co;
    memset(&co, 0, sizeof co);
    co.report = on_finding;
    co.user = s;
    co.reorder_ns = CHK_REORDER_NONE;
    co.flow_idle_ns = UINT64_MAX;
    struct chk *c = chk_new(&co);
    if (!c)
        return;
    for (size_t i = 0; i < o->nfr; i++)
        chk_bytes(c, i + 1, o->fr[i].at, o->fr[i].b, o->fr[i].len,
                  IBW_LINK_ETHERNET, 0);
    chk_finish(c);
    chk_free(c);
}

static int judge_check(const struct fz_obs *dev, const struct fz_obs *ref,
                       struct fz_verdict *v)
{
    struct rules_seen *s = malloc(2 * sizeof *s);
    if (!s)
        return 0;
    /* findings on the device's frames only: one on the probe's own frame
     * (the same bytes in both runs) says how the checker reads the device's
     * answers around it, which the device may choose otherwise (after an
     * error NAK rxe's QP is in Error and sends no sequence NAK, so the
     * probe's next request reads as a resend with no NAK before it) */
    check_frames(dev, &s[0], 1);
    check_frames(ref, &s[1], 1);
    int found = 0;
    for (unsigned r = 0; r < CHK_RULE_COUNT && !found; r++)
        if (s[0].hit[r] && !s[1].hit[r]) {
            verdict(v, "judge-check", "ibwire check: %s: %s", chk_rule(r)->id,
                    s[0].first[r]);
            /* the statement is the one whose rules have this rule
             * (statements_refs: every rule has one) */
            v->rule = chk_rule(r)->id;
            v->section = chk_rule(r)->spec;
            for (unsigned st = 0; st < IBW_STMT_COUNT; st++)
                if (ibw_list_has(ibw_statement_table[st].rules, v->rule)) {
                    v->stmt = ibw_statement_table[st].id;
                    v->section = ibw_statement_table[st].section;
                    break;
                }
            found = 1;
        }
    free(s);
    return found;
}

int fz_check_dir(const struct fz_obs *o, int dir, char *why, size_t cap)
{
    struct rules_seen *s = malloc(sizeof *s);
    if (!s)
        return 0;
    check_frames(o, s, dir);
    int found = 0;
    /* on frames the checker reads as a distorted capture (the probe's
     * answers before the device's requests) its timing and attribution
     * are the capture point's guess: nothing to hold the device to */
    for (unsigned r = 0; r < CHK_RULE_COUNT && !found && !s->distorted; r++)
        if (s->hit[r]) {
            snprintf(why, cap, "%s: %s", chk_rule(r)->id, s->first[r]);
            found = 1;
        }
    free(s);
    return found;
}

void fz_judge(const char *script, const struct fz_obs *dev,
              const struct fz_obs *ref, struct fz_verdict *v)
{
    memset(v, 0, sizeof *v);
    if (ref->verdict != PROBE_PASS || dev->verdict == PROBE_NA) {
        v->skip = 1;
        snprintf(v->why, sizeof v->why, "%s: %.400s",
                 ref->verdict != PROBE_PASS ? "the engine" : "the device",
                 ref->verdict != PROBE_PASS ? ref->why : dev->why);
        return;
    }
    if (dev->verdict != PROBE_PASS) {
        verdict(v, "judge-runner", "%.480s", dev->why);
        return;
    }
    /* a frame from the device that does not parse or has a bad ICRC: the
     * other judgements cannot see it */
    for (size_t i = 0; i < dev->nfr; i++) {
        struct probe_rx rx;
        if (dev->fr[i].dir != 1)
            continue;
        probe_decode(dev->fr[i].b, dev->fr[i].len, &rx);
        if (!rx.ok) {
            char desc[256];
            probe_describe(&rx, desc, sizeof desc);
            verdict(v, "judge-frame", "frame %zu from the device is broken (it "
                    "does not parse, or its ICRC is wrong): %s", i + 1, desc);
            return;
        }
    }
    int req = is_requester(script), err_at = -1;
    if (req ? judge_requester(setup_val(script, "spsn", 0x2000), dev, ref, v)
            : judge_responder(setup_val(script, "epsn", 0x1000), dev, ref, &err_at, v))
        return;
    /* a QP in Error executes nothing more: the engine's later writes are
     * not the device's to match */
    if (judge_cqes(dev, ref, err_at >= 0, v) || (err_at < 0 && judge_memory(dev, ref, v)))
        return;
    judge_check(dev, ref, v);
}

/* ---- the script of a divergence ---- */

struct sb {
    char *p;
    size_t n, cap;
    int over;
};

static void sbf(struct sb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sbf(struct sb *b, const char *fmt, ...)
{
    if (b->over)
        return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(b->p + b->n, b->cap - b->n, fmt, ap);
    va_end(ap);
    if (k < 0 || (size_t)k >= b->cap - b->n)
        b->over = 1;
    else
        b->n += (size_t)k;
}

/* The payload as a script names it: data=K (the probe's pattern) or
 * from=X+OFF (a region's initial bytes); 0 when it is neither. */
static int payload_name(const uint8_t *p, uint32_t n, int requester, char *out,
                        size_t cap)
{
    if (!n)
        return 0;
    uint32_t k = (uint32_t)((uint8_t)(p[0] - 0x5A) * 197u) & 0xFF; /* 13^-1 */
    uint32_t i = 0;
    while (i < n && p[i] == probe_data_byte(k + i))
        i++;
    if (i == n) {
        snprintf(out, cap, " data=%u", k);
        return 1;
    }
    /* the region the bytes come from: L for a requester's data, A or R for
     * a READ's (the patterns repeat every 256 bytes: the first that fits) */
    const int regs[3] = {requester ? PR_L : PR_A, requester ? PR_A : PR_R,
                         requester ? PR_R : PR_L};
    for (int r = 0; r < 3; r++) {
        uint32_t off = ((uint32_t)(p[0] ^ 0xA5u ^ ((unsigned)regs[r] << 6)) * 183u) & 0xFF;
        for (i = 0; i < n && p[i] == probe_init_byte(regs[r], off + i); i++)
            ;
        if (i == n) {
            snprintf(out, cap, " from=%c+%u", PROBE_REGION_NAMES[regs[r]], off);
            return 1;
        }
    }
    return 0;
}

static void expect_frame(struct sb *b, const struct probe_rx *rx, char base,
                         uint32_t basepsn, uint64_t gap)
{
    int32_t off = (int32_t)(((rx->psn - basepsn) & 0xFFFFFFu) << 8) >> 8;
    sbf(b, "< %s psn=%c%+d", probe_opcode_name(rx->opcode), base, off);
    if (rx->opcode == IBW_OP_RC_ACKNOWLEDGE && rx->has_aeth) {
        unsigned cls = rx->syndrome >> 5;
        if (cls == 0)
            sbf(b, " aeth=ack msn=%u", rx->msn);
        else if (cls == 1)
            sbf(b, " aeth=rnr timer=%u", rx->syndrome & 0x1F);
        else if (rx->syndrome == 0x60)
            sbf(b, " aeth=nak-seq");
        else
            sbf(b, " aeth=nak-inv|nak-acc|nak-op");
    } else {
        if (rx->has_aeth)
            sbf(b, " msn=%u", rx->msn);
        if (rx->opcode == IBW_OP_RC_ATOMIC_ACKNOWLEDGE)
            sbf(b, " orig=0x%llx", (unsigned long long)rx->orig);
        if (ibw_opcode_has_payload(rx->opcode) || rx->paylen) {
            char pay[48];
            sbf(b, " len=%u", rx->paylen);
            if (payload_name(rx->payload, rx->paylen, base == 'S', pay, sizeof pay))
                sbf(b, "%s", pay);
        }
        if (ibw_opcode_has_hdr(rx->opcode, IBW_HDR_RETH))
            sbf(b, " va=0x%llx rkey=0x%x dmalen=%u", (unsigned long long)rx->va,
                rx->rkey, rx->dmalen);
        if (ibw_opcode_has_hdr(rx->opcode, IBW_HDR_IMMDT))
            sbf(b, " imm=0x%x", rx->imm);
    }
    if (gap > 40000000ull)
        sbf(b, " within=%lluus", (unsigned long long)(gap / 1000 * 5 / 4 + 1000));
    if (gap >= 20000)
        sbf(b, " after=%lluus", (unsigned long long)((gap * 15 / 16 - 4000) / 1000));
    sbf(b, "\n");
}

/* Memory lines for the bytes where the device and the engine differ,
 * as the engine has them. */
static void expect_memory(struct sb *b, const struct fz_obs *ref,
                          const struct fz_obs *dev)
{
    int lines = 0;
    for (int r = 0; r < PR_COUNT && lines < 6; r++) {
        if (!ref->mem[r] || !dev || !dev->mem[r])
            continue;
        const uint8_t *m = ref->mem[r];
        uint32_t i = 0, n = region_len[r];
        while (i < n && lines < 6) {
            if (m[i] == dev->mem[r][i]) {
                i++;
                continue;
            }
            /* a span of differences, gaps under 32 bytes joined */
            uint32_t e = i + 1, last = i;
            while (e < n && e - last < 32) {
                if (m[e] != dev->mem[r][e])
                    last = e;
                e++;
            }
            e = last + 1;
            /* describe the engine's bytes: its initial bytes, the probe's
             * pattern, or 64-bit values */
            uint32_t j = i;
            while (j < e && m[j] == probe_init_byte(r, j))
                j++;
            char pay[48];
            if (j == e) {
                sbf(b, "mem %c+%u len=%u init\n", PROBE_REGION_NAMES[r], i, e - i);
            } else if (payload_name(m + i, e - i, 0, pay, sizeof pay) && pay[1] == 'd') {
                sbf(b, "mem %c+%u len=%u%s\n", PROBE_REGION_NAMES[r], i, e - i, pay);
            } else {
                uint32_t a = i & ~7u;
                for (; a < e && a + 8 <= n && lines < 6; a += 8, lines++) {
                    uint64_t v = 0;
                    for (int q = 7; q >= 0; q--)
                        v = v << 8 | m[a + (uint32_t)q];
                    sbf(b, "mem %c+%u u64=0x%llx\n", PROBE_REGION_NAMES[r], a,
                        (unsigned long long)v);
                }
                lines--;
            }
            lines++;
            i = e;
        }
    }
}

size_t fz_script_of(const char *moves, const struct fz_obs *ref,
                    const struct fz_obs *dev, char *out, size_t cap)
{
    struct sb b = {out, 0, cap, 0};
    int req = is_requester(moves);
    uint32_t basepsn = req ? setup_val(moves, "spsn", 0x2000)
                           : setup_val(moves, "epsn", 0x1000);
    char base = req ? 'S' : 'E';
    uint64_t mark = 0;
    int line = 1;
    for (const char *s = moves; *s; line++) {
        const char *e = strchr(s, '\n');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        uint64_t t0 = line < FZ_MAXLINES ? ref->step_at[line] : 0;
        if (n && s[0] == '~') {
            uint64_t within = 0;
            const char *w = strstr(s, "within=");
            if (w && w < s + n) {
                char *u;
                within = strtoull(w + 7, &u, 10);
                within *= !strncmp(u, "us", 2) ? 1000 : !strncmp(u, "ms", 2) ? 1000000
                                                                            : 1;
            }
            uint64_t last = t0;
            for (size_t i = 0; i < ref->nfr; i++) {
                const struct fz_frame *f = &ref->fr[i];
                if (f->line != line)
                    continue;
                if (f->dir == 0)
                    continue;
                struct probe_rx rx;
                probe_decode(f->b, f->len, &rx);
                if (!rx.ok || rx.opcode == IBW_OP_CNP)
                    continue;
                expect_frame(&b, &rx, base, basepsn, f->at > mark ? f->at - mark : 0);
                mark = last = f->at;
            }
            if (t0 + within > last)
                sbf(&b, ". within=%lluus\n",
                    (unsigned long long)((t0 + within - last) / 1000));
        } else {
            sbf(&b, "%.*s\n", (int)n, s);
            if (!strncmp(s, "post ", 5) && t0 > mark)
                mark = t0;
            for (size_t i = 0; i < ref->nfr; i++)
                if (ref->fr[i].line == line && ref->fr[i].dir == 0)
                    mark = ref->fr[i].at;
        }
        s += n + (e ? 1 : 0);
    }
    /* the completions, where the device's differ */
    struct fz_verdict v;
    if (dev && judge_cqes(dev, ref, 0, &v)) {
        for (int i = 0; i < ref->ncq; i++) {
            const struct probe_cqe *c = &ref->cq[i];
            sbf(&b, "cqe %s %s", c->recv ? "recv" : "send", status_names[c->status]);
            if (c->status == PROBE_ST_OK && c->recv)
                sbf(&b, " len=%u", c->len);
            if (c->has_imm && c->status == PROBE_ST_OK)
                sbf(&b, " imm=0x%x", c->imm);
            sbf(&b, "\n");
        }
        sbf(&b, "cqe none\n");
    }
    expect_memory(&b, ref, dev);
    return b.over ? 0 : b.n;
}
