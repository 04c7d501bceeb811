/* SPDX-License-Identifier: Apache-2.0 */
/* check_table.c - the flow table: one open-addressing hash over every key
 * (request flows, response aliases, endpoint pairs, the PSN index, CM
 * exchanges), the flows' live and closing lists, and a flow's creation
 * and end.  Below the rule files: it calls none of them, so a flow ends
 * the same way whichever rule ends it. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "check_int.h"

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

/* ---- the pairing bookkeeping a flow leaves when it ends ---- */

void chk_pair_remove(uint32_t *v, uint32_t *n, uint32_t x)
{
    for (uint32_t i = 0; i < *n; i++)
        if (v[i] == x) {
            v[i] = v[--*n];
            return;
        }
}

/* The pairing index: (requester, responder, request PSN) -> the one flow
 * not paired yet that sent it (CHK_SLOT_AMBIGUOUS when several did), for
 * the first CHK_PAIR_INDEXED request PSNs of each such flow.  An ACK names
 * a PSN its flow sent, so most responses find their flow in one look-up
 * however many QPs two hosts share. */
void chk_psn_key(struct chk_key *k, const struct chk_addr *a,
                 const struct chk_addr *b, uint32_t psn)
{
    chk_make_key(k, a, b, psn, CHK_KEY_PSN);
}

void chk_flow_unpair(struct chk *c, struct chk_flow *f)
{
    uint32_t me = fidx(c, f) + 1;
    if (!f->pair) {
        f->nindexed = 0;
        return;
    }
    struct chk_pair *pr = &c->pairs[f->pair - 1];
    for (unsigned i = 0; pr->indexed && i < f->nindexed; i++) {
        struct chk_key k;
        chk_psn_key(&k, &f->s.req, &f->s.resp, f->indexed[i]);
        chk_key_del(c, &k, me);
    }
    f->nindexed = 0;
    chk_pair_remove(pr->req, &pr->nreq, me - 1);
    chk_pair_remove(pr->resp, &pr->nresp, me - 1);
    f->pair = 0;
}
