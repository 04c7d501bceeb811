/* SPDX-License-Identifier: Apache-2.0 */
/* rules.c - the rule table expanded from CHK_RULES. */
#include "rules.h"

#define CHK__RULE_INFO(e, id, sev, scope, spec, stmt, src, ev) \
    {id, CHK_##sev, CHK_SCOPE_##scope, spec, stmt, src, ev},

static const struct chk_rule_info rule_table[CHK_RULE_COUNT] = {
    CHK_RULES(CHK__RULE_INFO)};

const struct chk_rule_info *chk_rule(unsigned r)
{
    return r < CHK_RULE_COUNT ? &rule_table[r] : &rule_table[0];
}

const char *chk_severity_name(int severity)
{
    return severity == CHK_ERROR ? "error" : "warning";
}
