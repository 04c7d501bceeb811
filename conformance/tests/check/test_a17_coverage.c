/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_a17_coverage: the coverage table of annex A17 (CHK_A17_COVERAGE in
 * rules.h, printed at the end of conformance/rules.md) and the rules' IBA
 * statement column tell the same story: every CA17 id a rule's spec names
 * has a row listing that rule, every rule a row lists exists and names the
 * row's id (or, for a "should" row, its section) in its spec, and every
 * statement of the annex, CA17-1 to CA17-31, has exactly one row.
 */
#include <stdio.h>
#include <string.h>

#include "rules.h"

static int fails;

#define FAIL(...)                                                              \
    do {                                                                       \
        fails++;                                                               \
        printf("FAIL: " __VA_ARGS__);                                          \
        printf("\n");                                                          \
    } while (0)

struct row {
    const char *id, *sec, *rules, *how;
};

#define ROW(id, sec, rules, how) {id, sec, rules, how},
static const struct row rows[] = {CHK_A17_COVERAGE(ROW)};
#undef ROW
#define NROWS (sizeof rows / sizeof rows[0])

/* Does the "; "-separated list (or free text) `list` hold token `tok` as a
 * whole word ("CA17-2" is not in "CA17-22")? */
static int has_token(const char *list, const char *tok)
{
    size_t n = strlen(tok);
    for (const char *p = strstr(list, tok); p; p = strstr(p + 1, tok)) {
        int before = p == list || !(p[-1] == '-' || (p[-1] >= '0' && p[-1] <= '9') ||
                                    (p[-1] >= 'A' && p[-1] <= 'Z'));
        char a = p[n];
        int after = !(a == '-' || a == '.' || (a >= '0' && a <= '9') ||
                      (a >= 'A' && a <= 'Z'));
        if (before && after)
            return 1;
    }
    return 0;
}

static int rule_by_id(const char *id, size_t n)
{
    for (unsigned r = 0; r < CHK_RULE_COUNT; r++)
        if (strlen(chk_rule(r)->id) == n && !strncmp(chk_rule(r)->id, id, n))
            return (int)r;
    return -1;
}

int main(void)
{
    /* every statement once */
    for (unsigned k = 1; k <= 31; k++) {
        char id[16];
        snprintf(id, sizeof id, "CA17-%u", k);
        unsigned seen = 0;
        for (size_t i = 0; i < NROWS; i++)
            seen += !strcmp(rows[i].id, id);
        if (seen != 1)
            FAIL("%s has %u rows in CHK_A17_COVERAGE, expected 1", id, seen);
    }
    size_t shoulds = 0;
    for (size_t i = 0; i < NROWS; i++) {
        shoulds += !strcmp(rows[i].id, "should");
        if (strcmp(rows[i].id, "should") && strncmp(rows[i].id, "CA17-", 5))
            FAIL("row %zu: id %s is neither CA17-n nor should", i, rows[i].id);
        if (!*rows[i].how)
            FAIL("%s: no word on what a capture decides", rows[i].id);
    }
    if (shoulds != 2)
        FAIL("%zu \"should\" rows, expected 2 (A17.3.2.1, A17.3.2.4)", shoulds);
    /* rows -> rules: each rule listed exists and names the statement */
    for (size_t i = 0; i < NROWS; i++) {
        const char *p = rows[i].rules;
        while (*p) {
            size_t n = strcspn(p, ";");
            int r = rule_by_id(p, n);
            const char *key = strcmp(rows[i].id, "should") ? rows[i].id
                                                           : rows[i].sec;
            if (r < 0)
                FAIL("%s lists %.*s, which is no rule", rows[i].id, (int)n, p);
            else if (!has_token(chk_rule((unsigned)r)->spec, key))
                FAIL("%s lists %s, whose spec \"%s\" does not name %s",
                     rows[i].id, chk_rule((unsigned)r)->id,
                     chk_rule((unsigned)r)->spec, key);
            p += n;
            while (*p == ';' || *p == ' ')
                p++;
        }
    }
    /* rules -> rows: each CA17 id of a spec has a row listing the rule */
    unsigned named = 0;
    for (unsigned r = 0; r < CHK_RULE_COUNT; r++) {
        const char *spec = chk_rule(r)->spec;
        for (const char *p = strstr(spec, "CA17-"); p; p = strstr(p + 1, "CA17-")) {
            char id[16];
            size_t n = 5 + strspn(p + 5, "0123456789");
            snprintf(id, sizeof id, "%.*s", (int)n, p);
            named++;
            int listed = 0;
            for (size_t i = 0; i < NROWS; i++)
                if (!strcmp(rows[i].id, id) &&
                    has_token(rows[i].rules, chk_rule(r)->id))
                    listed = 1;
            if (!listed)
                FAIL("rule %s names %s, whose coverage row does not list it",
                     chk_rule(r)->id, id);
        }
        /* the shoulds by their section */
        for (size_t i = 0; i < NROWS; i++)
            if (!strcmp(rows[i].id, "should") && has_token(spec, rows[i].sec) &&
                strstr(spec, "should") && !has_token(rows[i].rules, chk_rule(r)->id))
                FAIL("rule %s names the should of %s, whose row does not list it",
                     chk_rule(r)->id, rows[i].sec);
    }
    if (named < 10)
        FAIL("only %u CA17 ids named by the rules: the test tests little", named);
    printf("%zu coverage rows, %u CA17 ids named by rules, %d failures\n",
           NROWS, named, fails);
    return fails ? 1 : 0;
}
