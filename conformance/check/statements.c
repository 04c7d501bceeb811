/* SPDX-License-Identifier: Apache-2.0 */
/* statements.c - the statement table expanded from IBW_STATEMENTS, and the
 * look-ups the tools make in it. */
#include "statements.h"

#include <stdio.h>
#include <string.h>

#define IBW__STMT_INFO(e, id, sec, req, open, rules, eng, ch, flt, pr)        \
    {id, sec, req, open, rules, eng, ch, flt, pr},

const struct ibw_statement_info ibw_statement_table[IBW_STMT_COUNT] = {
    IBW_STATEMENTS(IBW__STMT_INFO)};

int ibw_list_has(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; p && *p;) {
        p += strspn(p, "; ");
        size_t k = strcspn(p, ";");
        while (k && p[k - 1] == ' ')
            k--;
        if (k == n && !strncmp(p, name, n))
            return 1;
        p += strcspn(p, ";");
    }
    return 0;
}

const char *ibw_statements_of_probe(const char *id, char *buf, unsigned len)
{
    size_t at = 0;
    if (len)
        buf[0] = 0;
    for (unsigned s = 0; s < IBW_STMT_COUNT; s++) {
        if (!ibw_list_has(ibw_statement_table[s].probes, id))
            continue;
        int k = snprintf(buf + at, len - at, "%s%s", at ? "; " : "",
                         ibw_statement_table[s].id);
        if (k < 0 || (size_t)k >= len - at)
            break;
        at += (size_t)k;
    }
    return buf;
}
