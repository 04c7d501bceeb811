/* check.c - the checker's core: frames in, parse, dispatch to the packet,
 * flow and CM rules, findings out; the flow hash table. */
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
    if (!c->slots) {
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
    for (unsigned i = 0; i < c->ncutlen; i++)
        for (unsigned k = 0; k < CHK_CUT_PATTERN; k++)
            free(c->cutlen[i].msgs[k]);
    free(c->flows);
    free(c->slots);
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

static struct chk_slot *slot_find(struct chk *c, const struct chk_key *k,
                                  uint32_t hash)
{
    uint32_t mask = c->nslots - 1, i = hash & mask;
    while (c->slots[i].flow) {
        if (c->slots[i].hash == hash && key_eq(&c->slots[i].key, k))
            return &c->slots[i];
        i = (i + 1) & mask;
    }
    return &c->slots[i];
}

static int slots_grow(struct chk *c)
{
    struct chk_slot *old = c->slots;
    uint32_t n = c->nslots;
    struct chk_slot *ns = calloc((size_t)n * 2, sizeof *ns);
    if (!ns)
        return -1;
    c->slots = ns;
    c->nslots = n * 2;
    for (uint32_t i = 0; i < n; i++)
        if (old[i].flow)
            *slot_find(c, &old[i].key, old[i].hash) = old[i];
    free(old);
    return 0;
}

static void make_key(struct chk_key *k, const struct chk_addr *src,
                     const struct chk_addr *dst, uint32_t qpn, uint8_t role)
{
    memcpy(&k->w[0], src->a, 16);
    memcpy(&k->w[2], dst->a, 16);
    k->w[4] = (uint64_t)src->kind | (uint64_t)dst->kind << 8 |
              (uint64_t)role << 16 | (uint64_t)qpn << 32;
}

static int slot_put(struct chk *c, const struct chk_key *k, uint32_t flow)
{
    if ((c->used + 1) * 2 > c->nslots && slots_grow(c))
        return -1;
    uint32_t h = key_hash(k);
    struct chk_slot *s = slot_find(c, k, h);
    if (!s->flow) {
        s->key = *k;
        s->hash = h;
        c->used++;
    }
    s->flow = flow;
    return 0;
}

struct chk_flow *chk_flow_get(struct chk *c, const struct chk_addr *src,
                              const struct chk_addr *dst, uint32_t qpn,
                              int create)
{
    struct chk_key k;
    make_key(&k, src, dst, qpn, 1);
    struct chk_slot *s = slot_find(c, &k, key_hash(&k));
    if (s->flow)
        return &c->flows[s->flow - 1];
    if (!create)
        return NULL;
    if (c->nflows == c->capflows) {
        uint32_t n = c->capflows ? c->capflows * 2 : 16;
        struct chk_flow *nf = realloc(c->flows, (size_t)n * sizeof *nf);
        if (!nf)
            return NULL;
        c->flows = nf;
        c->capflows = n;
        c->cur_flow = NULL; /* may have moved */
    }
    struct chk_flow *f = &c->flows[c->nflows];
    memset(f, 0, sizeof *f);
    f->s.req = *src;
    f->s.resp = *dst;
    f->s.resp_qpn = qpn;
    f->s.resp_qpn_known = 1;
    f->s.first_frame = c->frame;
    f->s.id = (uint64_t)c->nflows + 1;
    if (c->o.pmtu) {
        f->s.pmtu = c->o.pmtu;
        f->pmtu_src = CHK_PMTU_OPTION;
        f->s.pmtu_source = "option";
    }
    if (slot_put(c, &k, c->nflows + 1))
        return NULL;
    c->nflows++;
    return f;
}

void chk_flow_bind(struct chk *c, struct chk_flow *f, uint32_t req_qpn)
{
    struct chk_key k;
    make_key(&k, &f->s.resp, &f->s.req, req_qpn, 2);
    f->s.req_qpn = req_qpn;
    f->s.req_qpn_known = 1;
    slot_put(c, &k, (uint32_t)(f - c->flows) + 1);
    if (f->pair && !f->s.responses_only) {
        /* paired: no longer waiting in its endpoint pair */
        struct chk_pair *pr = &c->pairs[f->pair - 1];
        uint32_t me = (uint32_t)(f - c->flows);
        for (uint32_t i = 0; i < pr->nreq; i++)
            if (pr->req[i] == me) {
                pr->req[i] = pr->req[--pr->nreq];
                break;
            }
        f->pair = 0;
    }
}

struct chk_pair *chk_pair_get(struct chk *c, const struct chk_addr *a,
                              const struct chk_addr *b, int create)
{
    struct chk_key k;
    make_key(&k, a, b, 0, 3);
    struct chk_slot *s = slot_find(c, &k, key_hash(&k));
    if (s->flow)
        return &c->pairs[s->flow - 1];
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
    if (slot_put(c, &k, c->npairs + 1))
        return NULL;
    c->npairs++;
    return pr;
}

struct chk_flow *chk_flow_of_response(struct chk *c, const struct chk_addr *src,
                                      const struct chk_addr *dst, uint32_t qpn)
{
    struct chk_key k;
    make_key(&k, src, dst, qpn, 2);
    struct chk_slot *s = slot_find(c, &k, key_hash(&k));
    return s->flow ? &c->flows[s->flow - 1] : NULL;
}

/* Flows only announced by CM, with no packet, and response streams that
 * were merged into their flow are left out. */
void chk_flows(const struct chk *c,
               void (*fn)(void *user, const struct chk_flow_summary *s),
               void *user)
{
    for (uint32_t i = 0; i < c->nflows; i++)
        if (!c->flows[i].dead &&
            (c->flows[i].s.requests || c->flows[i].s.responses))
            fn(user, &c->flows[i].s);
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

void chk_bytes(struct chk *c, uint64_t frame, uint64_t ts_ns,
               const uint8_t *data, size_t len, enum ibw_link link,
               int truncated)
{
    struct ibw_pkt p;
    c->frame = frame;
    c->ts_ns = ts_ns;
    c->cur_flow = NULL;
    c->st.frames++;
    if (!c->caplen)
        c->caplen = (uint32_t)len;
    if (c->caplen > c->max_caplen)
        c->max_caplen = c->caplen;
    ibw_parse(data, len, link, &p);
    int go = chk_packet(c, &p, truncated);
    c->caplen = 0;
    if (go)
        chk_flow_packet(c, &p, truncated);
    else if (c->o.rc_hook && c->crc_good && ibw_pkt_has(&p, IBW_HDR_BTH) &&
             (p.icrc_status == IBW_CRC_BAD || p.vcrc_status == IBW_CRC_BAD))
        c->o.rc_hook(c->o.rc_hook_user, NULL, &p, frame,
                     (ibw_opcode_info(p.opcode)->flags & IBW_OPF_REQUEST) != 0);
}

void chk_frame(struct chk *c, const struct cap_frame *fr)
{
    uint64_t ts = (uint64_t)fr->ts_sec * 1000000000u + fr->ts_nsec;
    if (fr->caplen > c->max_caplen)
        c->max_caplen = fr->caplen;
    if (!fr->iba) {
        c->frame = fr->number;
        c->st.frames++;
        c->st.not_iba++;
        return;
    }
    c->caplen = fr->caplen;
    chk_bytes(c, fr->number, ts, fr->iba, fr->iba_len, fr->link, fr->truncated);
}

void chk_finish(struct chk *c)
{
    if (c->finished)
        return;
    c->finished = 1;
    chk_flows_finish(c);
    chk_crc_finish(c);
    chk_cut_finish(c);
}
