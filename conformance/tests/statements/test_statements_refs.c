/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The statement table's references, held to the tables they name: every
 * rule, fault mode, engine choice and probe test a statement names exists
 * (rules.h, faults.h, choices.h, probe/tests.c); every rule is named by a
 * statement, every fault mode breaks one and every probe test provokes
 * one; every choice names a statement that lists it; and the parts
 * agree on who judges what: the rule a fault mode is caught by is a rule of
 * a statement the fault breaks, and the rule a probe test names is a rule
 * of a statement it provokes.  The same holds for `ibwire probe --fuzz`:
 * every key of its grammar and oracle (fuzz_gen.c) names a statement of the
 * table, and fz_statement() answers that row.  A name spelt wrong, or a new
 * rule, fault, test or fuzz key nobody placed in the table, fails here.
 */
#include <stdio.h>
#include <string.h>

#include "choices.h"
#include "faults.h"
#include "fuzz.h"
#include "probe.h"
#include "rules.h"
#include "statements.h"
#include "testutil.h"

static int rule_exists(const char *id)
{
    for (unsigned r = 0; r < CHK_RULE_COUNT; r++)
        if (!strcmp(chk_rule(r)->id, id))
            return 1;
    return 0;
}

static int fault_exists(const char *name)
{
    for (unsigned k = 0; k < IBE_FAULT_COUNT; k++)
        if (!strcmp(ibe_fault_table[k].name, name))
            return 1;
    return 0;
}

static int choice_exists(const char *name)
{
    for (unsigned k = 0; k < IBE_CHOICE_COUNT; k++)
        if (!strcmp(ibe_choice_table[k].name, name))
            return 1;
    return 0;
}

static int probe_exists(const char *id)
{
    for (size_t i = 0; i < probe_ntests; i++)
        if (!strcmp(probe_tests[i].id, id))
            return 1;
    return 0;
}

/* Each item of a "; "-separated list through exists(); says the missing. */
static void items_exist(const char *stmt, const char *what, const char *list,
                        int (*exists)(const char *))
{
    for (const char *p = list; *p;) {
        p += strspn(p, "; ");
        size_t n = strcspn(p, ";");
        while (n && p[n - 1] == ' ')
            n--;
        if (!n)
            break;
        char item[80];
        snprintf(item, sizeof item, "%.*s", (int)n, p);
        int ok = exists(item);
        TU_CHECK(ok);
        if (!ok)
            fprintf(stderr, "statement %s names %s '%s', which does not exist\n",
                    stmt, what, item);
        p += strcspn(p, ";");
    }
}

/* Whether a statement listing `name` in the column picked by which also
 * lists rule `rule`. */
static int rule_beside(const char *name, int which, const char *rule)
{
    for (unsigned s = 0; s < IBW_STMT_COUNT; s++) {
        const struct ibw_statement_info *st = &ibw_statement_table[s];
        const char *col = which ? st->probes : st->faults;
        if (ibw_list_has(col, name) && ibw_list_has(st->rules, rule))
            return 1;
    }
    return 0;
}

int main(void)
{
    TU_CHECK(ibw_list_has("A; BC; D", "BC"));
    TU_CHECK(!ibw_list_has("A; BC; D", "B"));
    TU_CHECK(!ibw_list_has("", "A"));
    for (unsigned s = 0; s < IBW_STMT_COUNT; s++) {
        const struct ibw_statement_info *st = &ibw_statement_table[s];
        for (unsigned t = 0; t < s; t++)
            TU_CHECK(strcmp(st->id, ibw_statement_table[t].id) != 0);
        TU_CHECK(*st->section && *st->requires && *st->rules && *st->engine);
        items_exist(st->id, "rule", st->rules, rule_exists);
        items_exist(st->id, "fault mode", st->faults, fault_exists);
        items_exist(st->id, "choice", st->choices, choice_exists);
        items_exist(st->id, "probe test", st->probes, probe_exists);
        /* an open part with a switch is an open part */
        TU_CHECK(!*st->choices || *st->open);
    }
    /* every rule judges a statement */
    for (unsigned r = 0; r < CHK_RULE_COUNT; r++) {
        int named = 0;
        for (unsigned s = 0; s < IBW_STMT_COUNT; s++)
            named |= ibw_list_has(ibw_statement_table[s].rules, chk_rule(r)->id);
        TU_CHECK(named);
        if (!named)
            fprintf(stderr, "rule %s is in no statement\n", chk_rule(r)->id);
    }
    /* every choice belongs to the statement that lists it */
    for (unsigned k = 0; k < IBE_CHOICE_COUNT; k++) {
        int ok = 0;
        for (unsigned s = 0; s < IBW_STMT_COUNT; s++)
            ok |= !strcmp(ibw_statement_table[s].id, ibe_choice_table[k].statement) &&
                  ibw_list_has(ibw_statement_table[s].choices, ibe_choice_table[k].name);
        TU_CHECK(ok);
        if (!ok)
            fprintf(stderr, "choice %s: statement %s does not list it\n",
                    ibe_choice_table[k].name, ibe_choice_table[k].statement);
    }
    /* a fault mode breaks a statement, and the rule it is caught by is
     * one of that statement's */
    for (unsigned k = 0; k < IBE_FAULT_COUNT; k++) {
        const struct ibe_fault_info *fi = &ibe_fault_table[k];
        int placed = 0;
        for (unsigned s = 0; s < IBW_STMT_COUNT; s++)
            placed |= ibw_list_has(ibw_statement_table[s].faults, fi->name);
        TU_CHECK(placed);
        if (!placed)
            fprintf(stderr, "fault mode %s breaks no statement\n", fi->name);
        int ok = !strcmp(fi->rule, "-") || rule_beside(fi->name, 0, fi->rule);
        TU_CHECK(ok);
        if (!ok)
            fprintf(stderr, "fault mode %s is caught by %s, which judges no "
                    "statement it breaks\n", fi->name, fi->rule);
    }
    /* the rule a probe test names judges a statement it provokes */
    unsigned placed_tests = 0;
    for (size_t i = 0; i < probe_ntests; i++) {
        const struct probe_test *t = &probe_tests[i];
        int placed = 0;
        for (unsigned s = 0; s < IBW_STMT_COUNT; s++)
            placed |= ibw_list_has(ibw_statement_table[s].probes, t->id);
        placed_tests += (unsigned)placed;
        TU_CHECK(placed);
        if (!placed)
            fprintf(stderr, "probe test %s provokes no statement\n", t->id);
        if (!*t->rule || !placed)
            continue;
        int ok = rule_beside(t->id, 1, t->rule);
        TU_CHECK(ok);
        if (!ok)
            fprintf(stderr, "probe test %s provokes %s, which judges no "
                    "statement it names\n", t->id, t->rule);
    }
    /* the fuzzer's moves and judgements: each names a statement of the
     * table (only judge-check, whose statement is the one listing the rule
     * `ibwire check` found, names none itself), once */
    size_t nkeys = 0;
    for (const struct fz_key *k; (k = fz_key_at(nkeys)) != NULL; nkeys++) {
        for (size_t j = 0; j < nkeys; j++)
            TU_CHECK(strcmp(fz_key_at(j)->key, k->key) != 0);
        const struct ibw_statement_info *st = fz_statement(k->key);
        int ok = !strcmp(k->key, "judge-check")
                     ? !*k->statement && !st
                     : st != NULL && !strcmp(st->id, k->statement);
        TU_CHECK(ok);
        if (!ok)
            fprintf(stderr, "fuzz key %s names statement '%s', which is not "
                    "in statements.h\n", k->key, k->statement);
    }
    TU_CHECK(nkeys > 0);
    TU_CHECK(fz_statement("no-such-key") == NULL);
    printf("%u statements; %u of %zu probe tests placed in one; %zu fuzz "
           "keys, each naming one\n", (unsigned)IBW_STMT_COUNT, placed_tests,
           probe_ntests, nkeys);
    return tu_done("statements_refs");
}
