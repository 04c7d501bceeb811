/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_gen.c - the grammar of the fuzzer's episodes (README.md, "Fuzzing"):
 * moves legal and illegal, as probe script lines, drawn with weights that
 * favour the corner cases, and the statement hook: the statement of
 * statements.h each move provokes, and its weight.
 *
 * The device as responder: the probe sends request streams of every
 * opcode (SEND, WRITE with and without immediate, READ, atomics), with
 * lengths valid and not (zero, PMTU edges, short FIRSTs, long LASTs, RETH
 * lengths against the bytes, over 2^31), keys and ranges valid and not,
 * PSNs ahead and duplicates of earlier messages, opcode sequences broken,
 * frames the device must drop, receives posted or not (RNR), and loss,
 * duplication and reordering of its own packets.  The device as
 * requester: it posts requests; the probe answers as a responder that
 * loses, delays, coalesces, duplicates, NAKs (sequence, RNR, errors), sends
 * stale or impossible ACKs and loses READ responses.
 */
#include <stdarg.h>
#include <string.h>

#include "fuzz.h"
#include "statements.h"

/* ---- the random source ---- */

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void fz_rng_seed(struct fz_rng *g, uint64_t seed, uint64_t index)
{
    memset(g, 0, sizeof *g);
    uint64_t x = seed * 0x2545F4914F6CDD1Dull ^ index;
    g->s = splitmix(&x) ^ splitmix(&x);
}

void fz_rng_bytes(struct fz_rng *g, const uint8_t *b, size_t n)
{
    memset(g, 0, sizeof *g);
    g->bytes = b;
    g->n = n;
}

uint32_t fz_below(struct fz_rng *g, uint32_t n)
{
    if (n <= 1)
        return 0;
    uint32_t v;
    if (g->bytes) { /* libFuzzer: the input's bytes decide */
        v = 0;
        for (int i = 0; i < (n > 256 ? 2 : 1); i++)
            v = v << 8 | (g->pos < g->n ? g->bytes[g->pos++] : 0);
    } else {
        v = (uint32_t)(splitmix(&g->s) >> 32);
    }
    return v % n;
}

/* ---- the statement hook ----
 * Each key of the grammar's moves and of the oracle's judgements, the
 * statement it provokes or judges (its ID in statements.h) and, for a
 * move, its weight: how often the grammar draws it, relative to the other
 * moves of its draw (or per `in` of its chance()).  fz_statement() reads
 * the rest from the table of statements. */
static const struct fz_key fuzz_keys[] = {
    /* responder moves */
    {"resp-recv", "RNR", 6},
    {"resp-send", "SEND-WRITE", 8},
    {"resp-write", "SEND-WRITE", 8},
    {"resp-read", "READ-RESPONSES", 7},
    {"resp-atomic", "ATOMICS", 4},
    {"resp-dup", "DUP-REQUEST", 6},
    {"resp-dup-packet", "DUP-REQUEST", 2},
    {"resp-ahead", "NAK-SEQ", 3},
    {"resp-orphan", "OPCODE-SEQ", 2},
    /* bad ICRC, IP, UDP, P_Key or QP: each dropped silently */
    {"resp-badframe", "HEADERS", 2},
    {"resp-wait", "ACK-COALESCE", 4},
    /* responder variations */
    {"resp-loss", "NAK-SEQ", 3},
    {"resp-reorder", "NAK-SEQ", 2},
    {"resp-badlen", "LENGTHS", 2},
    {"resp-dmalen", "LENGTHS", 2},
    {"resp-2g", "LENGTHS", 1},
    {"resp-badkey", "NAK-CODES", 2},
    {"resp-range", "NAK-CODES", 3},
    {"resp-vawrap", "LENGTHS", 1},
    {"resp-zero", "ZERO-LEN", 3},
    {"resp-imm", "SEND-WRITE", 3},
    {"resp-inv", "OPCODE-SEQ", 1},
    {"resp-wrap", "PSN-SPACE", 2},
    {"resp-pmtu", "LENGTHS", 3},
    /* requester: the probe's answers */
    {"req-ack", "ACK-COALESCE", 10},
    {"req-coalesce", "ACK-COALESCE", 3},
    {"req-lose", "RETRY", 4},
    {"req-seq-nak", "GO-BACK-N", 3},
    {"req-rnr", "RNR", 3},
    {"req-rnr-repeat", "RNR", 2},
    {"req-err-nak", "NAK-CODES", 1},
    {"req-dup-ack", "ACK-COALESCE", 2},
    {"req-stale-ack", "ACK-COALESCE", 2},
    {"req-ack-beyond", "ACK-COALESCE", 2},
    {"req-read-gap", "READ-REISSUE", 4},
    {"req-read-dup", "READ-RESPONSES", 2},
    {"req-slow", "RETRY", 2},
    {"req-wrap", "PSN-SPACE", 2},
    /* the oracle's judgements (fuzz_judge.c) */
    {"judge-frame", "ICRC", 0},
    {"judge-runner", "SPECIAL-QP", 0},
    {"judge-cqe", "COMPLETIONS", 0},
    {"judge-memory", "SEND-WRITE", 0},
    {"judge-nak-seq", "NAK-SEQ", 0},
    {"judge-nak-rnr", "RNR", 0},
    {"judge-nak-error", "NAK-CODES", 0},
    {"judge-rnr-timer", "RNR", 0},
    {"judge-read", "READ-RESPONSES", 0},
    {"judge-atomic", "ATOMICS", 0},
    {"judge-msn", "MSN", 0},
    {"judge-ack-kind", "READ-RESPONSES", 0},
    {"judge-ack-unsent", "ACK-COALESCE", 0},
    {"judge-progress", "ACK-COALESCE", 0},
    {"judge-request", "SEND-WRITE", 0},
    {"judge-request-set", "PSN-SPACE", 0},
    {"judge-resend", "RETRY", 0},
    {"judge-gbn", "GO-BACK-N", 0},
    {"judge-timer", "RETRY", 0},
    {"judge-check", "", 0},
};

static const struct fz_key *key_of(const char *key)
{
    for (size_t i = 0; i < sizeof fuzz_keys / sizeof fuzz_keys[0]; i++)
        if (!strcmp(fuzz_keys[i].key, key))
            return &fuzz_keys[i];
    return NULL;
}

const struct fz_key *fz_key_at(size_t i)
{
    return i < sizeof fuzz_keys / sizeof fuzz_keys[0] ? &fuzz_keys[i] : NULL;
}

const struct ibw_statement_info *fz_statement(const char *key)
{
    const struct fz_key *k = key_of(key);
    for (unsigned s = 0; k && s < IBW_STMT_COUNT; s++)
        if (!strcmp(ibw_statement_table[s].id, k->statement))
            return &ibw_statement_table[s];
    return NULL;
}

static unsigned weight(const char *key)
{
    const struct fz_key *k = key_of(key);
    return k ? k->weight : 0;
}

/* ---- the episode being written ---- */

#define MAXMSG 24
#define MAXPKT 40

struct gen {
    struct fz_rng *g;
    char *body;
    size_t n, cap;
    int over;
    uint32_t caps, needs;
    uint32_t pmtu;
    uint32_t cur;         /* the next PSN, as an offset from E or S */
    uint32_t data;        /* the next payload pattern offset */
    int recvs;            /* receives posted */
    struct { size_t at, len; } msg[MAXMSG];
    int nmsg;
    unsigned timeout;     /* requester: local ACK timeout code */
    uint32_t msn;
    int dead;             /* requester: an error NAK ended the episode */
};

static void put(struct gen *G, const char *fmt, ...)
{
    if (G->over)
        return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(G->body + G->n, G->cap - G->n, fmt, ap);
    va_end(ap);
    if (k < 0 || (size_t)k >= G->cap - G->n)
        G->over = 1;
    else
        G->n += (size_t)k;
}

static int chance(struct gen *G, const char *key, unsigned in)
{
    unsigned w = weight(key);
    return w && fz_below(G->g, in) < w;
}

static uint32_t pick_of(struct gen *G, const uint32_t *v, size_t n)
{
    return v[fz_below(G->g, (uint32_t)n)];
}

/* Message lengths: the edges (0, 1, PMTU - 1, PMTU, PMTU + 1, 2 PMTU ...)
 * more often than the rest. */
static uint32_t pick_len(struct gen *G, uint32_t max)
{
    uint32_t P = G->pmtu, len;
    switch (fz_below(G->g, 10)) {
    case 0: len = chance(G, "resp-zero", 4) ? 0 : 1; break;
    case 1: len = 8; break;
    case 2: len = 1 + fz_below(G->g, 64); break;
    case 3: len = P - 1; break;
    case 4: len = P; break;
    case 5: len = P + 1; break;
    case 6: len = 2 * P; break;
    case 7: len = 2 * P + 1 + fz_below(G->g, P - 1); break;
    default: len = fz_below(G->g, 3 * P + 1); break;
    }
    return len > max ? max : len;
}

static uint32_t npkts(uint32_t len, uint32_t pmtu)
{
    return len ? (len + pmtu - 1) / pmtu : 1;
}

/* The 8 bytes of region A at off as they are when a test starts
 * (probe_init_byte), little-endian as an atomic reads them. */
static uint64_t init_u64(int region, uint32_t off)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | probe_init_byte(region, off + (uint32_t)i);
    return v;
}

/* ---- the device as responder ---- */

struct pkt {
    char s[200];
};

/* p has room for np + 1 packets (a duplicate) and at most MAXPKT */
static void emit_pkts(struct gen *G, struct pkt *p, int np)
{
    /* the probe's own loss, duplication and reordering */
    if (np > 1 && chance(G, "resp-loss", 16)) {
        int k = (int)fz_below(G->g, (uint32_t)np);
        memmove(&p[k], &p[k + 1], (size_t)(np - k - 1) * sizeof p[0]);
        np--;
    }
    if (np > 1 && chance(G, "resp-reorder", 16)) {
        int k = (int)fz_below(G->g, (uint32_t)np - 1);
        struct pkt t = p[k];
        p[k] = p[k + 1];
        p[k + 1] = t;
    }
    if (np < MAXPKT && chance(G, "resp-dup-packet", 16)) {
        int k = (int)fz_below(G->g, (uint32_t)np);
        memmove(&p[k + 1], &p[k], (size_t)(np - k) * sizeof p[0]);
        np++;
    }
    size_t at = G->n;
    for (int i = 0; i < np; i++)
        put(G, "> %s\n", p[i].s);
    if (G->nmsg < MAXMSG && !G->over) {
        G->msg[G->nmsg].at = at;
        G->msg[G->nmsg].len = G->n - at;
        G->nmsg++;
    }
}

/* a VA and R_Key for `len` bytes: mostly inside A, else the corner cases */
static void pick_target(struct gen *G, uint32_t len, int atomic, char *va,
                        char *rkey, size_t cap)
{
    static const char regs[] = "ARN";
    static const uint32_t size[] = {65536, 4096, 4096};
    int r = 0;
    if (chance(G, "resp-badkey", 12))
        r = 1 + (int)fz_below(G->g, 2);
    uint32_t room = size[r] > len ? size[r] - len : 0;
    uint32_t off = fz_below(G->g, room + 1);
    if (atomic)
        off &= ~7u;
    else if (fz_below(G->g, 2))
        off &= ~63u;
    if (chance(G, "resp-range", 16)) /* at or past the end */
        off = room + fz_below(G->g, 3) * (1 + fz_below(G->g, 64));
    if (atomic && chance(G, "resp-range", 24))
        off |= 1 + fz_below(G->g, 7); /* misaligned */
    snprintf(va, cap, "%c+%u", regs[r], off);
    if (chance(G, "resp-vawrap", 24))
        snprintf(va, cap, "0xFFFFFFFFFFFFFF%02X", 0x80 + fz_below(G->g, 0x80));
    snprintf(rkey, cap, "%c", regs[r]);
    if (chance(G, "resp-badkey", 16))
        snprintf(rkey, cap, fz_below(G->g, 2) ? "bad" : "%c",
                 regs[fz_below(G->g, 3)]);
}

static void resp_send_write(struct gen *G, int write)
{
    uint32_t P = G->pmtu;
    uint32_t len = pick_len(G, 3 * P + 17);
    uint32_t n = npkts(len, P);
    int imm = chance(G, "resp-imm", 12);
    int inv = !write && !imm && (G->caps & PROBE_CAP_SEND_INV) &&
              chance(G, "resp-inv", 16);
    char va[48], rkey[16], extra[96] = "";
    if (write) {
        pick_target(G, len, 0, va, rkey, sizeof va);
        uint32_t dmalen = len;
        if (chance(G, "resp-dmalen", 12))
            dmalen = fz_below(G->g, 2) ? len + 1 + fz_below(G->g, P)
                                       : (len ? fz_below(G->g, len) : 1);
        if (chance(G, "resp-2g", 32))
            dmalen = 0x80000000u + fz_below(G->g, 4096);
        snprintf(extra, sizeof extra, " va=%s rkey=%s dmalen=%u", va, rkey, dmalen);
    }
    if (inv)
        G->needs |= PROBE_CAP_SEND_INV;
    struct pkt p[MAXPKT];
    int np = 0;
    const char *base = write ? "WRITE" : "SEND";
    for (uint32_t i = 0; i < n && np < MAXPKT - 1; i++) {
        uint32_t plen = len - i * P < P ? len - i * P : P;
        const char *pos = n == 1 ? "ONLY" : i == 0 ? "FIRST"
                        : i == n - 1 ? "LAST" : "MIDDLE";
        int last = i == n - 1;
        if (chance(G, "resp-badlen", 32)) /* C9-92: a short FIRST/MIDDLE, a long LAST */
            plen = last ? plen + 1 + fz_below(G->g, 8)
                        : plen - 1 - fz_below(G->g, 8);
        char op[32];
        snprintf(op, sizeof op, "%s_%s%s", base, pos,
                 last && imm ? "_IMM" : last && inv ? "_INV" : "");
        snprintf(p[np].s, sizeof p[np].s, "%s psn=E+%u len=%u data=%u%s%s%s",
                 op, G->cur + i, plen, G->data + i * P, i == 0 ? extra : "",
                 last && imm ? " imm=0x1A2B3C4D" : "",
                 last && inv ? " ieth=R" : "");
        np++;
    }
    G->cur += n;
    G->data += len + 1;
    emit_pkts(G, p, np);
}

static void resp_read(struct gen *G)
{
    uint32_t len = pick_len(G, 3 * G->pmtu + 5);
    char va[48], rkey[16];
    pick_target(G, len, 0, va, rkey, sizeof va);
    if (!len && chance(G, "resp-zero", 4))
        snprintf(rkey, sizeof rkey, "bad");
    uint32_t dmalen = chance(G, "resp-2g", 32) ? 0x80000000u + fz_below(G->g, 64) : len;
    struct pkt p[2]; /* room for the packet sent twice */
    snprintf(p[0].s, sizeof p[0].s, "READ_REQUEST psn=E+%u va=%s rkey=%s dmalen=%u",
             G->cur, va, rkey, dmalen);
    G->cur += npkts(dmalen > 0x10000 ? 1 : dmalen, G->pmtu);
    emit_pkts(G, p, 1);
}

static void resp_atomic(struct gen *G)
{
    char va[48], rkey[16];
    pick_target(G, 8, 1, va, rkey, sizeof va);
    struct pkt p[2]; /* room for the packet sent twice */
    if (fz_below(G->g, 2)) {
        /* compare with what is there (when A+off is known) or not */
        uint64_t cmp = 0x1122334455667788ull;
        unsigned off;
        if (va[0] == 'A' && sscanf(va + 2, "%u", &off) == 1 && fz_below(G->g, 2))
            cmp = init_u64(PR_A, off);
        snprintf(p[0].s, sizeof p[0].s,
                 "CMP_SWAP psn=E+%u va=%s rkey=%s cmp=0x%llx swap=0x%llx", G->cur,
                 va, rkey, (unsigned long long)cmp,
                 (unsigned long long)(0xC0FFEE00ull + G->cur));
    } else {
        snprintf(p[0].s, sizeof p[0].s, "FETCH_ADD psn=E+%u va=%s rkey=%s add=%u",
                 G->cur, va, rkey, 1 + fz_below(G->g, 1000));
    }
    G->cur++;
    G->needs |= PROBE_CAP_ATOMIC;
    emit_pkts(G, p, 1);
}

static void wait_move(struct gen *G)
{
    static const uint32_t us[] = {5, 20, 100, 1000, 3000};
    put(G, "~ within=%uus\n", pick_of(G, us, 5));
}

static const char *const resp_moves[] = {
    "resp-recv", "resp-send", "resp-write", "resp-read", "resp-atomic",
    "resp-dup", "resp-ahead", "resp-orphan", "resp-badframe", "resp-wait"};
#define NRESP (sizeof resp_moves / sizeof resp_moves[0])

static int draw(struct gen *G, const char *const *keys, size_t n)
{
    unsigned total = 0;
    for (size_t i = 0; i < n; i++)
        total += weight(keys[i]);
    unsigned x = fz_below(G->g, total);
    for (size_t i = 0; i < n; i++) {
        unsigned w = weight(keys[i]);
        if (x < w)
            return (int)i;
        x -= w;
    }
    return 0;
}

static void responder(struct gen *G, char *setup, size_t scap)
{
    static const uint32_t pmtus[] = {256, 256, 512, 1024};
    G->pmtu = chance(G, "resp-pmtu", 8) ? pick_of(G, pmtus, 4) : 256;
    uint32_t epsn = 0x1000;
    if (chance(G, "resp-wrap", 12))
        epsn = 0xFFFFFFu - fz_below(G->g, 6);
    snprintf(setup, scap, "setup pmtu=%u epsn=0x%x\n", G->pmtu, epsn);
    if (fz_below(G->g, 4))
        put(G, "recv len=%u\n", pick_of(G, (const uint32_t[]){64, 1024, 4096}, 3));
    G->recvs = 1;
    int moves = 1 + (int)fz_below(G->g, 4) + (int)fz_below(G->g, 5);
    for (int m = 0; m < moves && !G->over; m++) {
        int k = draw(G, resp_moves, NRESP);
        const char *key = resp_moves[k];
        if (!strcmp(key, "resp-recv")) {
            if (G->recvs < 14) {
                static const uint32_t lens[] = {0, 16, 64, 256, 1024, 4096};
                put(G, "recv len=%u\n", pick_of(G, lens, 6));
                G->recvs++;
            }
        } else if (!strcmp(key, "resp-send")) {
            resp_send_write(G, 0);
        } else if (!strcmp(key, "resp-write")) {
            resp_send_write(G, 1);
        } else if (!strcmp(key, "resp-read")) {
            resp_read(G);
        } else if (!strcmp(key, "resp-atomic")) {
            if (G->caps & PROBE_CAP_ATOMIC)
                resp_atomic(G);
        } else if (!strcmp(key, "resp-dup")) {
            if (G->nmsg) { /* an earlier message again, as it was */
                int i = (int)fz_below(G->g, (uint32_t)G->nmsg);
                char tmp[4096];
                size_t len = G->msg[i].len < sizeof tmp ? G->msg[i].len : 0;
                memcpy(tmp, G->body + G->msg[i].at, len);
                tmp[len] = 0;
                put(G, "%s", tmp);
            }
        } else if (!strcmp(key, "resp-ahead")) {
            G->cur += 1 + fz_below(G->g, 3);
        } else if (!strcmp(key, "resp-orphan")) {
            static const char *const orphans[] = {"SEND_MIDDLE", "SEND_LAST",
                "WRITE_MIDDLE", "WRITE_LAST"};
            put(G, "> %s psn=E+%u len=%u data=%u\n", orphans[fz_below(G->g, 4)],
                G->cur, G->pmtu, G->data);
            G->cur++;
        } else if (!strcmp(key, "resp-badframe")) {
            static const char *const bad[] = {"fault=icrc", "fault=ipver",
                "fault=iplen", "fault=udplen", "fault=udpport", "pkey=0x1234",
                "dqp=dev+1"};
            uint32_t len = fz_below(G->g, 2) ? 4 : 64;
            put(G, "> SEND_ONLY psn=E+%u len=%u data=%u %s\n", G->cur, len,
                G->data, bad[fz_below(G->g, 7)]);
        } else {
            wait_move(G);
        }
        if (fz_below(G->g, 3))
            wait_move(G);
    }
    put(G, "~ within=5ms\n");
}

/* ---- the device as requester ---- */

struct post {
    int op;               /* enum probe_wr_op */
    uint32_t len, first, n, data;
};

/* The probe's READ responses for PSNs first+from .. first+n-1 of a READ
 * of len bytes: what a responder sends for the READ (re)issued there. */
static void read_responses(struct gen *G, const struct post *p, uint32_t from,
                           int skip)
{
    uint32_t P = G->pmtu, n = p->n - from;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t k = from + i;
        if ((int)k == skip)
            continue;
        uint32_t plen = p->len - k * P < P ? p->len - k * P : P;
        const char *pos = n == 1 ? "ONLY" : i == 0 ? "FIRST" : i == n - 1 ? "LAST"
                                                                     : "MIDDLE";
        put(G, "> READ_RESPONSE_%s psn=S+%u len=%u data=%u%s", pos,
            p->first + k, plen, p->data + k * P,
            i == 0 || i == n - 1 ? "" : "\n");
        if (i == 0 || i == n - 1)
            put(G, " msn=%u\n", G->msn);
    }
}

static void answer(struct gen *G, const struct post *p, int coalesced)
{
    if (p->op == PROBE_WR_READ)
        read_responses(G, p, 0, -1);
    else if (p->op == PROBE_WR_CAS || p->op == PROBE_WR_FAA)
        put(G, "> ATOMIC_ACK psn=S+%u orig=0x%llx msn=%u\n", p->first,
            (unsigned long long)(0xA0A0A0A000000000ull + p->first), G->msn);
    else if (!coalesced)
        put(G, "> ACK psn=S+%u msn=%u\n", p->first + p->n - 1, G->msn);
}

static const char *const req_moves[] = {
    "req-ack", "req-coalesce", "req-lose", "req-seq-nak", "req-rnr",
    "req-rnr-repeat",
    "req-err-nak", "req-dup-ack", "req-stale-ack", "req-ack-beyond",
    "req-read-gap", "req-read-dup", "req-slow"};
#define NREQ (sizeof req_moves / sizeof req_moves[0])

/* IBA table 45: the RNR NAK timer's codes 1..16 in microseconds */
static const uint32_t rnr_us[17] = {0, 10, 20, 30, 40, 60, 80, 120, 160, 240,
                                    320, 480, 640, 960, 1280, 1920, 2560};

static void requester(struct gen *G, char *setup, size_t scap)
{
    static const uint32_t pmtus[] = {256, 256, 512, 1024};
    static const uint32_t timeouts[] = {8, 9, 10, 12};
    G->pmtu = chance(G, "resp-pmtu", 8) ? pick_of(G, pmtus, 4) : 256;
    G->timeout = pick_of(G, timeouts, 4);
    uint32_t spsn = 0x2000;
    if (chance(G, "req-wrap", 12))
        spsn = 0xFFFFFFu - fz_below(G->g, 6);
    unsigned retry = fz_below(G->g, 2) ? 7 : fz_below(G->g, 8);
    unsigned rnr_retry = fz_below(G->g, 2) ? 7 : fz_below(G->g, 8);
    snprintf(setup, scap, "setup pmtu=%u spsn=0x%x timeout=%u retry=%u rnr_retry=%u\n",
             G->pmtu, spsn, G->timeout, retry, rnr_retry);
    uint64_t tmo_us = (4096ull << G->timeout) / 1000;
    int groups = 1 + (int)fz_below(G->g, 3);
    for (int gi = 0; gi < groups && !G->over && !G->dead; gi++) {
        struct post ps[4];
        int np = 1 + (int)fz_below(G->g, 3);
        for (int i = 0; i < np; i++) {
            struct post *p = &ps[i];
            static const int ops[] = {PROBE_WR_SEND, PROBE_WR_SEND_IMM,
                PROBE_WR_WRITE, PROBE_WR_WRITE_IMM, PROBE_WR_READ, PROBE_WR_READ,
                PROBE_WR_CAS, PROBE_WR_FAA};
            p->op = ops[fz_below(G->g, 8)];
            if ((p->op == PROBE_WR_CAS || p->op == PROBE_WR_FAA) &&
                !(G->caps & PROBE_CAP_ATOMIC))
                p->op = PROBE_WR_WRITE;
            int atomic = p->op == PROBE_WR_CAS || p->op == PROBE_WR_FAA;
            p->len = atomic ? 8 : pick_len(G, 3 * G->pmtu + 9);
            p->first = G->cur;
            p->n = atomic ? 1 : npkts(p->len, G->pmtu);
            p->data = G->data;
            G->data += p->len + 3;
            G->cur += p->n;
            uint32_t off = (uint32_t)(G->nmsg++ % 15) * 4096;
            static const char *const names[] = {"send", "send-imm", "write",
                "write-imm", "read", "cas", "faa"};
            put(G, "post %s len=%u off=%u", names[p->op], p->len, off);
            if (p->op >= PROBE_WR_WRITE)
                put(G, " va=0x%x rkey=0x%x", 0x100000 + off, 0x77 + gi);
            if (p->op == PROBE_WR_SEND_IMM || p->op == PROBE_WR_WRITE_IMM)
                put(G, " imm=0x%x", 0x5000 + i);
            if (p->op == PROBE_WR_CAS)
                put(G, " cmp=0x%x swap=0x%x", 0x10 + i, 0x20 + i);
            if (p->op == PROBE_WR_FAA)
                put(G, " add=%u", 3 + i);
            put(G, "\n");
            if (atomic)
                G->needs |= PROBE_CAP_ATOMIC;
        }
        put(G, "~ within=100us\n");
        for (int i = 0; i < np && !G->over && !G->dead; i++) {
            const struct post *p = &ps[i];
            const char *key = req_moves[draw(G, req_moves, NREQ)];
            G->msn++;
            int plain = p->op <= PROBE_WR_WRITE_IMM;
            if (!strcmp(key, "req-coalesce") && plain && i + 1 < np &&
                ps[i + 1].op <= PROBE_WR_WRITE_IMM) {
                continue; /* the next message's ACK covers this one */
            } else if (!strcmp(key, "req-lose")) {
                put(G, "~ within=%lluus\n", (unsigned long long)(tmo_us * 3 / 2 + 50));
            } else if (!strcmp(key, "req-seq-nak")) {
                put(G, "> ACK psn=S+%u aeth=nak-seq msn=%u\n~ within=100us\n",
                    p->first, G->msn - 1);
            } else if (!strcmp(key, "req-rnr")) {
                uint32_t code = 1 + fz_below(G->g, 16);
                put(G, "> ACK psn=S+%u aeth=rnr timer=%u msn=%u\n~ within=%uus\n",
                    p->first, code, G->msn - 1, rnr_us[code] * 2 + 100);
            } else if (!strcmp(key, "req-rnr-repeat")) {
                /* RNR NAKs again and again: past a finite RNR retry count
                 * (7 is infinite, 9.7.5.2.8) */
                uint32_t code = 1 + fz_below(G->g, 4), times = 2 + fz_below(G->g, 9);
                for (uint32_t t = 0; t < times; t++)
                    put(G, "> ACK psn=S+%u aeth=rnr timer=%u msn=%u\n~ within=%uus\n",
                        p->first, code, G->msn - 1, rnr_us[code] * 2 + 100);
            } else if (!strcmp(key, "req-err-nak")) {
                static const char *const e[] = {"nak-inv", "nak-acc", "nak-op"};
                put(G, "> ACK psn=S+%u aeth=%s msn=%u\n~ within=200us\n", p->first,
                    e[fz_below(G->g, 3)], G->msn - 1);
                G->dead = 1;
                break;
            } else if (!strcmp(key, "req-stale-ack") && p->first > 0) {
                put(G, "> ACK psn=S+%u msn=%u\n", p->first - 1, G->msn - 1);
            } else if (!strcmp(key, "req-ack-beyond")) {
                put(G, "> ACK psn=S+%u msn=%u\n", G->cur + 2 + fz_below(G->g, 8),
                    G->msn + 3);
            } else if (!strcmp(key, "req-slow")) {
                put(G, "~ within=%lluus\n", (unsigned long long)(tmo_us / 2));
            } else if (!strcmp(key, "req-read-gap") && p->op == PROBE_WR_READ &&
                       p->n >= 2) {
                /* one response lost: the device issues the READ again from
                 * there; the probe answers the re-issue */
                uint32_t gap = 1 + fz_below(G->g, p->n - 1);
                read_responses(G, p, 0, (int)gap);
                put(G, "~ within=%lluus\n", (unsigned long long)(tmo_us * 3 / 2 + 50));
                read_responses(G, p, gap, -1);
                put(G, "~ within=20us\n");
                continue;
            }
            answer(G, p, 0);
            if (!strcmp(key, "req-dup-ack") || (!strcmp(key, "req-read-dup") &&
                                                p->op == PROBE_WR_READ))
                answer(G, p, 0);
            put(G, "~ within=20us\n");
        }
    }
    put(G, "~ within=%lluus\n", (unsigned long long)(tmo_us * 2 + 100));
}

size_t fz_generate(struct fz_rng *g, uint32_t caps, char *out, size_t cap)
{
    char body[16384], setup[160];
    struct gen G;
    memset(&G, 0, sizeof G);
    G.g = g;
    G.body = body;
    G.cap = sizeof body;
    G.caps = caps;
    body[0] = 0;
    if (fz_below(g, 2))
        responder(&G, setup, sizeof setup);
    else
        requester(&G, setup, sizeof setup);
    if (G.over)
        return 0;
    char needs[64] = "";
    if (G.needs)
        snprintf(needs, sizeof needs, "needs%s%s\n",
                 G.needs & PROBE_CAP_ATOMIC ? " atomic" : "",
                 G.needs & PROBE_CAP_SEND_INV ? " send-inv" : "");
    int k = snprintf(out, cap, "%s%s%s", setup, needs, body);
    return k < 0 || (size_t)k >= cap ? 0 : (size_t)k;
}
