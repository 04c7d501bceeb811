/* SPDX-License-Identifier: Apache-2.0 */
/* check_report.c - findings and flow summaries out to the caller's
 * callbacks.  The bottom of the checker's files: it calls none of them
 * (only the rule table), so every rule file can report. */
#include <stdio.h>
#include <stdlib.h>

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
