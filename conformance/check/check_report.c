/* SPDX-License-Identifier: Apache-2.0 */
/* check_report.c - findings and flow summaries out to the caller's
 * callbacks.  The bottom of the checker's files: it calls none of them
 * (only the rule table), so every rule file can report. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_int.h"

/* Queue the finding in c->msg for the frame's flow; 0 when there is no
 * room (it is said at once, of no flow). */
static int pend_add(struct chk *c, unsigned rule)
{
    if (c->npend == c->cappend) {
        unsigned n = c->cappend ? c->cappend * 2 : 4;
        struct chk_pend *np = n <= 1024 ? realloc(c->pend, n * sizeof *np)
                                        : NULL;
        if (!np)
            return 0;
        c->pend = np;
        c->cappend = n;
    }
    struct chk_pend *e = &c->pend[c->npend++];
    e->frame = c->frame;
    e->rule = rule;
    memcpy(e->msg, c->msg, sizeof e->msg);
    return 1;
}

static void emit(struct chk *c, unsigned rule)
{
    const struct chk_rule_info *ri = chk_rule(rule);
    int repeat = 0;
    struct chk_flow *fl = c->cur_flow;
    if (fl && ri->scope == CHK_SCOPE_PACKET) {
        uint8_t bit = (uint8_t)(1u << (rule & 7));
        repeat = (fl->pkt_said[rule >> 3] & bit) != 0;
        fl->pkt_said[rule >> 3] |= bit;
    }
    struct chk_finding f = {c->frame, rule, ri->severity, c->msg,
                            fl ? &fl->s : NULL, repeat};
    c->st.per_rule[rule]++;
    if (ri->severity == CHK_ERROR)
        c->st.errors++;
    else
        c->st.warnings++;
    if (fl) {
        if (ri->severity == CHK_ERROR)
            fl->s.errors++;
        else
            fl->s.warnings++;
    }
    if (c->o.report)
        c->o.report(c->o.user, &f);
}

void chk_report(struct chk *c, unsigned rule, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->msg, sizeof c->msg, fmt, ap);
    va_end(ap);
    if (c->defer && !c->cur_flow &&
        chk_rule(rule)->scope == CHK_SCOPE_PACKET && pend_add(c, rule))
        return;
    emit(c, rule);
}

void chk_report_flush(struct chk *c, struct chk_flow *f)
{
    if (!c->npend)
        return;
    struct chk_flow *cur = c->cur_flow;
    uint64_t frame = c->frame;
    unsigned k = 0;
    for (unsigned i = 0; i < c->npend; i++) {
        struct chk_pend *e = &c->pend[i];
        if (f && e->frame != frame) { /* another frame's: it waits on */
            c->pend[k++] = *e;
            continue;
        }
        c->cur_flow = f;
        c->frame = e->frame;
        memcpy(c->msg, e->msg, sizeof c->msg);
        emit(c, e->rule);
    }
    c->npend = k;
    c->cur_flow = cur;
    c->frame = frame;
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
