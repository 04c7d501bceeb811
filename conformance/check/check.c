/* SPDX-License-Identifier: Apache-2.0 */
/* check.c - the checker's core: frames in, parse, dispatch to the packet,
 * flow and CM rules, findings out; the flow hash table. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>

#include "check_int.h"

void chk_report(struct chk *c, unsigned rule, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->msg, sizeof c->msg, fmt, ap);
    va_end(ap);
    const struct chk_rule_info *ri = chk_rule(rule);
    struct chk_finding f = {c->frame, rule, ri->severity, c->msg,
                            c->cur_flow ? &c->cur_flow->s : NULL};
    c->st.per_rule[rule]++;
    if (ri->severity == CHK_ERROR)
        c->st.errors++;
    else
        c->st.warnings++;
    if (c->cur_flow) {
        if (ri->severity == CHK_ERROR)
            c->cur_flow->s.errors++;
        else
            c->cur_flow->s.warnings++;
    }
    if (c->o.report)
        c->o.report(c->o.user, &f);
}

struct chk *chk_new(const struct chk_opts *opts)
{
    struct chk *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->o = *opts;
    c->nslots = 1024;
    c->slots = calloc(c->nslots, sizeof *c->slots);
    c->keys = malloc(c->nslots * sizeof *c->keys);
    if (!c->slots || !c->keys) {
        free(c->keys);
        free(c->slots);
        free(c);
        return NULL;
    }
    return c;
}

void chk_free(struct chk *c)
{
    if (!c)
        return;
    chk_flows_free(c);
    free(c->crc_held);
    for (unsigned i = 0; i < c->ncrc_wait; i++)
        free(c->crc_wait[i].bytes);
    for (unsigned i = 0; i < c->ncutlen; i++)
        for (unsigned k = 0; k < CHK_CUT_PATTERN; k++)
            free(c->cutlen[i].msgs[k]);
    free(c->flows);
    free(c->slots);
    free(c->keys);
    chk_cm_free(c);
    free(c);
}

const struct chk_stats *chk_stats(const struct chk *c) { return &c->st; }

/* ---- flow table: open addressing over (src, dst, qpn, role) ---- */

static uint32_t key_hash(const struct chk_key *k)
{
    uint64_t h = 0;
    for (size_t i = 0; i < sizeof k->w / sizeof k->w[0]; i++)
        h = (h ^ k->w[i]) * 0x9E3779B97F4A7C15u;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9u;
    return (uint32_t)(h >> 32); /* the high half: it depends on every bit */
}

static int key_eq(const struct chk_key *a, const struct chk_key *b)
{
    return ((a->w[0] ^ b->w[0]) | (a->w[1] ^ b->w[1]) | (a->w[2] ^ b->w[2]) |
            (a->w[3] ^ b->w[3]) | (a->w[4] ^ b->w[4])) == 0;
}

/* Where key k is (its slot's flow not 0), or the empty slot it would go. */
static uint32_t slot_find(const struct chk *c, const struct chk_key *k,
                          uint32_t hash)
{
    uint32_t mask = c->nslots - 1, i = hash & mask;
    while (c->slots[i].flow) {
        if (c->slots[i].hash == hash && key_eq(&c->keys[i], k))
            return i;
        i = (i + 1) & mask;
    }
    return i;
}

static int slots_grow(struct chk *c)
{
    struct chk_slot *old = c->slots;
    struct chk_key *oldk = c->keys;
    uint32_t n = c->nslots;
    struct chk_slot *ns = calloc((size_t)n * 2, sizeof *ns);
    struct chk_key *nk = malloc((size_t)n * 2 * sizeof *nk);
    if (!ns || !nk) {
        free(ns);
        free(nk);
        return -1;
    }
    c->slots = ns;
    c->keys = nk;
    c->nslots = n * 2;
    for (uint32_t i = 0; i < n; i++)
        if (old[i].flow) {
            uint32_t j = slot_find(c, &oldk[i], old[i].hash);
            ns[j] = old[i];
            nk[j] = oldk[i];
        }
    free(old);
    free(oldk);
    return 0;
}

static inline void make_key(struct chk_key *k, const struct chk_addr *src,
                            const struct chk_addr *dst, uint32_t qpn,
                            uint8_t role)
{
    memcpy(&k->w[0], src->a, 16);
    memcpy(&k->w[2], dst->a, 16);
    k->w[4] = (uint64_t)src->kind | (uint64_t)dst->kind << 8 |
              (uint64_t)role << 16 | (uint64_t)qpn << 32;
}

void chk_make_key(struct chk_key *k, const struct chk_addr *src,
                  const struct chk_addr *dst, uint32_t qpn, uint8_t role)
{
    make_key(k, src, dst, qpn, role);
}

uint32_t chk_key_get(struct chk *c, const struct chk_key *k)
{
    return c->slots[slot_find(c, k, key_hash(k))].flow;
}

int chk_key_put(struct chk *c, const struct chk_key *k, uint32_t value)
{
    if ((c->used + 1) * 2 > c->nslots && slots_grow(c))
        return -1;
    uint32_t h = key_hash(k);
    uint32_t i = slot_find(c, k, h);
    if (!c->slots[i].flow) {
        c->keys[i] = *k;
        c->slots[i].hash = h;
        c->used++;
    }
    c->slots[i].flow = value;
    return 0;
}

/* Empty slot `hole`.  Linear probing without tombstones: the entries
 * after the hole that would no longer be found are moved back into it, so
 * a table with many flows ending stays as fast as a new one. */
static void slot_clear(struct chk *c, uint32_t hole)
{
    uint32_t mask = c->nslots - 1, i = hole;
    for (;;) {
        i = (i + 1) & mask;
        if (!c->slots[i].flow)
            break;
        uint32_t home = c->slots[i].hash & mask;
        /* stays when its home lies cyclically in (hole, i] */
        if (hole <= i ? (home > hole && home <= i) : (home > hole || home <= i))
            continue;
        c->slots[hole] = c->slots[i];
        c->keys[hole] = c->keys[i];
        hole = i;
    }
    memset(&c->slots[hole], 0, sizeof c->slots[hole]);
    c->used--;
}

/* Remove key k if it holds value (0: whatever it holds). */
void chk_key_del(struct chk *c, const struct chk_key *k, uint32_t value)
{
    uint32_t i = slot_find(c, k, key_hash(k));
    if (c->slots[i].flow && (!value || c->slots[i].flow == value))
        slot_clear(c, i);
}

/* Remove the key of hash h that holds flow + 1 = value, found by the slots
 * alone: every key of an ending flow goes, so which of two with one hash
 * goes first does not matter, and its key (cold by then) is not read. */
static void key_del_ending(struct chk *c, const struct chk_key *k,
                           uint32_t value)
{
    uint32_t h = key_hash(k), mask = c->nslots - 1;
    for (uint32_t i = h & mask; c->slots[i].flow; i = (i + 1) & mask)
        if (c->slots[i].hash == h && c->slots[i].flow == value) {
            slot_clear(c, i);
            return;
        }
}

static uint32_t fidx(const struct chk *c, const struct chk_flow *f)
{
    return (uint32_t)(f - c->flows);
}

/* ---- the live and closing lists: flows by last activity / closing time,
 * doubly linked through lru_prev/lru_next (index + 1) ---- */

static void list_unlink(struct chk *c, uint32_t *head, uint32_t *tail,
                        struct chk_flow *f)
{
    c->tail_flow = NULL;
    if (f->lru_prev)
        c->flows[f->lru_prev - 1].lru_next = f->lru_next;
    else
        *head = f->lru_next;
    if (f->lru_next)
        c->flows[f->lru_next - 1].lru_prev = f->lru_prev;
    else
        *tail = f->lru_prev;
    f->lru_prev = f->lru_next = 0;
}

static void list_append(struct chk *c, uint32_t *head, uint32_t *tail,
                        struct chk_flow *f)
{
    c->tail_flow = NULL;
    uint32_t me = fidx(c, f) + 1;
    f->lru_prev = *tail;
    f->lru_next = 0;
    if (*tail)
        c->flows[*tail - 1].lru_next = me;
    else
        *head = me;
    *tail = me;
}

static void lru_unlink(struct chk *c, struct chk_flow *f)
{
    list_unlink(c, &c->lru_head, &c->lru_tail, f);
}

static void lru_append(struct chk *c, struct chk_flow *f)
{
    list_append(c, &c->lru_head, &c->lru_tail, f);
}

void chk_flow_close(struct chk *c, struct chk_flow *f)
{
    if (!f->live || f->closing)
        return;
    lru_unlink(c, f);
    f->closing = 1;
    f->close_at = c->ts_ns + chk_skew_window(c);
    list_append(c, &c->close_head, &c->close_tail, f);
}

void chk_flow_touch_move(struct chk *c, struct chk_flow *f)
{
    if (c->lru_tail != fidx(c, f) + 1) {
        lru_unlink(c, f);
        lru_append(c, f);
    }
    c->tail_flow = f;
}

static uint64_t idle_ns(const struct chk *c)
{
    return c->o.flow_idle_ns ? c->o.flow_idle_ns : 60000000000ull;
}

/* The flows idle longer than the idle time at capture time `now` end.  A
 * frame with an earlier time (out of order in the file) ends none. */
void chk_flows_expire(struct chk *c, uint64_t now)
{
    uint64_t idle = idle_ns(c);
    /* the next look at most a millisecond of capture time later: flows
     * end that much after their time at most */
    c->expire_at = now + CHK_EXPIRE_STEP_NS;
    while (c->close_head) {
        struct chk_flow *f = &c->flows[c->close_head - 1];
        if (now < f->close_at)
            break;
        chk_flow_settle(c, f);
        chk_flow_end(c, f);
    }
    if (c->cm_head)
        chk_cm_idle(c, now, idle);
    while (c->lru_head) {
        struct chk_flow *f = &c->flows[c->lru_head - 1];
        if (now < f->last_ts || now - f->last_ts <= idle)
            break;
        chk_flow_settle(c, f);
        chk_flow_end(c, f);
    }
}

void chk_flow_end(struct chk *c, struct chk_flow *f)
{
    if (!f->live)
        return;
    uint32_t me = fidx(c, f) + 1;
    if (c->o.flow_end && !f->dead && (f->s.requests || f->s.responses))
        c->o.flow_end(c->o.user, &f->s);
    chk_flow_unpair(c, f);
    struct chk_key k;
    make_key(&k, &f->s.req, &f->s.resp, f->key_qpn, CHK_KEY_REQUEST);
    key_del_ending(c, &k, me);
    if (f->s.req_qpn_known) {
        make_key(&k, &f->s.resp, &f->s.req, f->s.req_qpn, CHK_KEY_RESPONSE);
        key_del_ending(c, &k, me);
    }
    for (unsigned i = 0; i < f->nheld; i++)
        free(f->held[i].bytes);
    free(f->held);
    free(f->hist_big);
    free(f->out_big);
    if (f->closing)
        list_unlink(c, &c->close_head, &c->close_tail, f);
    else
        lru_unlink(c, f);
    if (c->cur_flow == f)
        c->cur_flow = NULL;
    f->live = 0;
    f->lru_next = c->free_head;
    c->free_head = me;
    c->ended_flows++;
}

struct chk_flow *chk_flow_get(struct chk *c, const struct chk_addr *src,
                              const struct chk_addr *dst, uint32_t qpn,
                              int create)
{
    struct chk_key k;
    make_key(&k, src, dst, qpn, CHK_KEY_REQUEST);
    uint32_t h = key_hash(&k);
    uint32_t si = slot_find(c, &k, h);
    if (c->slots[si].flow)
        return &c->flows[c->slots[si].flow - 1];
    if (!create)
        return NULL;
    if ((c->used + 1) * 2 > c->nslots) {
        if (slots_grow(c))
            return NULL;
        si = slot_find(c, &k, h);
    }
    uint32_t idx;
    if (c->free_head) {
        idx = c->free_head - 1;
        c->free_head = c->flows[idx].lru_next;
    } else {
        if (c->nflows == c->capflows) {
            uint32_t n = c->capflows ? c->capflows * 2 : 16;
            struct chk_flow *nf = realloc(c->flows, (size_t)n * sizeof *nf);
            if (!nf)
                return NULL;
            if (c->cur_flow) /* the same flow at its new place */
                c->cur_flow = nf + (c->cur_flow - c->flows);
            c->flows = nf;
            c->tail_flow = NULL;
            c->capflows = n;
        }
        idx = c->nflows++;
    }
    c->keys[si] = k;
    c->slots[si].hash = h;
    c->slots[si].flow = idx + 1;
    c->used++;
    struct chk_flow *f = &c->flows[idx];
    /* all but the tables at the end, which their counts (0) make empty: a
     * new flow is set up once per connection, and with many short ones
     * this counts */
    memset(f, 0, offsetof(struct chk_flow, gaps));
    f->live = 1;
    f->key_qpn = qpn;
    f->s.req = *src;
    f->s.resp = *dst;
    f->s.resp_qpn = qpn;
    f->s.resp_qpn_known = 1;
    f->s.first_frame = c->frame;
    f->s.id = ++c->next_id;
    if (c->o.pmtu) {
        f->s.pmtu = c->o.pmtu;
        f->pmtu_src = CHK_PMTU_OPTION;
        f->s.pmtu_source = "option";
    }
    f->last_ts = c->ts_ns;
    lru_append(c, f);
    return f;
}

void chk_flow_bind(struct chk *c, struct chk_flow *f, uint32_t req_qpn)
{
    struct chk_key k;
    chk_make_key(&k, &f->s.resp, &f->s.req, req_qpn, CHK_KEY_RESPONSE);
    f->s.req_qpn = req_qpn;
    f->s.req_qpn_known = 1;
    chk_key_put(c, &k, fidx(c, f) + 1);
    if (!f->s.responses_only)
        chk_flow_unpair(c, f); /* paired: no longer waiting in its pair */
}

struct chk_pair *chk_pair_get(struct chk *c, const struct chk_addr *a,
                              const struct chk_addr *b, int create)
{
    if (c->last_pair) { /* most frames of a capture are between few hosts */
        struct chk_pair *pr = &c->pairs[c->last_pair - 1];
        if (chk_addr_eq(&pr->a, a) && chk_addr_eq(&pr->b, b))
            return pr;
    }
    struct chk_key k;
    chk_make_key(&k, a, b, 0, CHK_KEY_PAIR);
    uint32_t v = chk_key_get(c, &k);
    if (v) {
        c->last_pair = v;
        return &c->pairs[v - 1];
    }
    if (!create)
        return NULL;
    if (c->npairs == c->cappairs) {
        uint32_t n = c->cappairs ? c->cappairs * 2 : 16;
        struct chk_pair *np = realloc(c->pairs, (size_t)n * sizeof *np);
        if (!np)
            return NULL;
        c->pairs = np;
        c->cappairs = n;
    }
    struct chk_pair *pr = &c->pairs[c->npairs];
    memset(pr, 0, sizeof *pr);
    pr->a = *a;
    pr->b = *b;
    if (chk_key_put(c, &k, c->npairs + 1))
        return NULL;
    c->npairs++;
    return pr;
}

struct chk_flow *chk_flow_of_response(struct chk *c, const struct chk_addr *src,
                                      const struct chk_addr *dst, uint32_t qpn)
{
    struct chk_key k;
    make_key(&k, src, dst, qpn, CHK_KEY_RESPONSE);
    uint32_t v = c->slots[slot_find(c, &k, key_hash(&k))].flow;
    return v ? &c->flows[v - 1] : NULL;
}

static int flow_id_cmp(const void *a, const void *b)
{
    const struct chk_flow *x = *(const struct chk_flow *const *)a,
                          *y = *(const struct chk_flow *const *)b;
    return (x->s.id > y->s.id) - (x->s.id < y->s.id);
}

/* Flows only announced by CM, with no packet, and response streams that
 * were merged into their flow are left out. */
void chk_flows(const struct chk *c,
               void (*fn)(void *user, const struct chk_flow_summary *s),
               void *user)
{
    /* live flows in id order: slots are reused, so index order is not it */
    uint32_t n = 0;
    for (uint32_t i = 0; i < c->nflows; i++)
        n += c->flows[i].live;
    const struct chk_flow **v = malloc((n ? n : 1) * sizeof *v);
    n = 0;
    for (uint32_t i = 0; i < c->nflows; i++) {
        const struct chk_flow *f = &c->flows[i];
        if (!f->live || f->dead || !(f->s.requests || f->s.responses))
            continue;
        if (v)
            v[n++] = f;
        else
            fn(user, &f->s); /* no memory to sort: index order */
    }
    if (!v)
        return;
    qsort(v, n, sizeof *v, flow_id_cmp);
    for (uint32_t i = 0; i < n; i++)
        fn(user, &v[i]->s);
    free(v);
}

void chk_addr_str(const struct chk_addr *a, char *buf, size_t len)
{
    const uint8_t *b = a->a;
    switch (a->kind) {
    case CHK_ADDR_IP4:
        snprintf(buf, len, "%u.%u.%u.%u", b[0], b[1], b[2], b[3]);
        break;
    case CHK_ADDR_LID:
        snprintf(buf, len, "lid 0x%04x", (unsigned)(b[14] << 8 | b[15]));
        break;
    default: {
        /* RFC 5952: the longest run of zero groups (two or more) as "::",
         * an IPv4-mapped address with its IPv4 part dotted */
        char tmp[64];
        if (!inet_ntop(AF_INET6, b, tmp, sizeof tmp))
            tmp[0] = 0;
        snprintf(buf, len, "%s", tmp);
        break;
    }
    }
}

/* ---- frames ---- */

static void judge_parsed(struct chk *c, uint64_t frame, uint64_t ts_ns,
                         const struct ibw_pkt *pp, size_t len, int truncated);

void chk_bytes(struct chk *c, uint64_t frame, uint64_t ts_ns,
               const uint8_t *data, size_t len, enum ibw_link link,
               int truncated)
{
    struct ibw_pkt p;
    ibw_parse(data, len, link, &p);
    judge_parsed(c, frame, ts_ns, &p, len, truncated);
}

static void judge_parsed(struct chk *c, uint64_t frame, uint64_t ts_ns,
                         const struct ibw_pkt *pp, size_t len, int truncated)
{
    c->frame = frame;
    c->ts_ns = ts_ns;
    c->cur_flow = NULL;
    if (ts_ns >= c->expire_at) /* (a check per frame would cost) */
        chk_flows_expire(c, ts_ns);
    c->st.frames++;
    if (!c->caplen)
        c->caplen = (uint32_t)len;
    if (c->caplen > c->max_caplen)
        c->max_caplen = c->caplen;
    /* what waited for a CM message that did not come in time */
    if (c->cm_hold)
        chk_cm_expire(c);
    int go = chk_packet(c, pp, truncated);
    c->caplen = 0;
    if (go && !(c->ncm && chk_cm_hold_frame(c, pp, truncated)))
        chk_flow_packet(c, pp, truncated);
    else if (c->o.rc_hook && c->crc_good && ibw_pkt_has(pp, IBW_HDR_BTH) &&
             (pp->icrc_status == IBW_CRC_BAD || pp->vcrc_status == IBW_CRC_BAD))
        c->o.rc_hook(c->o.rc_hook_user, NULL, pp, frame,
                     (ibw_opcode_info(pp->opcode)->flags & IBW_OPF_REQUEST) != 0);
}

void chk_frame(struct chk *c, const struct cap_frame *fr)
{
    uint64_t ts = (uint64_t)fr->ts_sec * 1000000000u + fr->ts_nsec;
    if (fr->caplen > c->max_caplen)
        c->max_caplen = fr->caplen;
    if (!fr->iba) {
        c->frame = fr->number;
        c->ts_ns = ts;
        c->st.frames++;
        c->st.not_iba++;
        if (ts >= c->expire_at)
            chk_flows_expire(c, ts);
        return;
    }
    c->caplen = fr->caplen;
    chk_bytes(c, fr->number, ts, fr->iba, fr->iba_len, fr->link, fr->truncated);
}

void chk_frame_parsed(struct chk *c, const struct cap_frame *fr,
                      const struct ibw_pkt *p)
{
    if (!fr->iba || !p) {
        chk_frame(c, fr);
        return;
    }
    uint64_t ts = (uint64_t)fr->ts_sec * 1000000000u + fr->ts_nsec;
    if (fr->caplen > c->max_caplen)
        c->max_caplen = fr->caplen;
    c->caplen = fr->caplen;
    judge_parsed(c, fr->number, ts, p, fr->iba_len, fr->truncated);
}

void chk_finish(struct chk *c)
{
    if (c->finished)
        return;
    c->finished = 1;
    chk_crc_wait_finish(c);
    chk_cm_finish(c);
    chk_flows_finish(c);
    chk_crc_finish(c);
    chk_cut_finish(c);
}
