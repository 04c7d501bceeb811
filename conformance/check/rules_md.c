/* SPDX-License-Identifier: Apache-2.0 */
/* rules_md: print conformance/rules.md from the rule table (CHK_RULES), so
 * that the catalog cannot drift from the code; a test compares the two. */
#include <stdio.h>

#include "faults.h"
#include "rules.h"
#include "statements.h"

static const char *scope_name(int s)
{
    return s == CHK_SCOPE_PACKET ? "packet" : s == CHK_SCOPE_FLOW ? "flow" : "CM";
}

int main(void)
{
    printf("# Conformance rules\n\n"
           "Generated from `conformance/check/rules.h` by `rules_md`; do not "
           "edit by hand\n(the test `check_rules_md` fails when this file and "
           "the table differ).\n\n"
           "Each finding of `ibwire check` names the frame (numbered from 1, "
           "as tshark does),\nthe rule ID below and its evidence. Errors are "
           "breaches of the specification by the\ntraffic; warnings are what "
           "the capture's vantage point can explain (a capture that\nstarts "
           "mid-flow, packets missing at the capture point). Retransmissions "
           "are not\nfindings: they are counted in each flow's summary.\n\n"
           "A per-packet rule is said once per flow: its findings on more "
           "frames of the flow\nare repeats (JSON: `\"repeat\": true`; the "
           "text output counts them: \"... and N more\nframes of flow F with "
           "RULE\"); the frame still joins its flow unless its receiver\n"
           "drops it (bad ICRC/VCRC, malformed, PKT-IP-HDR, PKT-ETH-SRC).\n\n"
           "The IBA statement column names what each rule enforces: a RoCEv2 "
           "annex A17\ncompliance statement (CA17-n), a chapter 9 statement ID "
           "that public sources\ncite (C9-n), else the Vol. 1 section.\n\n"
           "Sources name the IBA Vol. 1 section (release 1.2.1 numbering; "
           "RoCEv2 = annex A17),\nor a design-document section "
           "(docs/sources.md), that the rule "
           "comes from.\n");
    int last_scope = -1;
    for (unsigned r = 0; r < CHK_RULE_COUNT; r++) {
        const struct chk_rule_info *ri = chk_rule(r);
        if (ri->scope != last_scope) {
            last_scope = ri->scope;
            printf("\n## Per %s\n\n| ID | severity | IBA statement | rule | source | "
                   "evidence |\n|---|---|---|---|---|---|\n",
                   scope_name(ri->scope));
        }
        printf("| %s | %s | %s | %s | %s | %s |\n", ri->id,
               chk_severity_name(ri->severity), ri->spec, ri->statement,
               ri->source, ri->evidence);
    }
    printf("\n## The statements the rules judge\n\n"
           "One reading of the IBA (`conformance/check/statements.h`): per "
           "statement, what a\nconforming device must do, what the text "
           "leaves to it (every behaviour listed\nthere is accepted by the "
           "rules, by `--replay` and by the probe alike), the rules\nthat "
           "judge it, what the reference engine does and the switches "
           "(`ibwire sim\n--choice`) that make it take the other open "
           "behaviours, the fault modes that\nbreak it and the probe tests "
           "that provoke it.  The test `statements_agree` holds\nevery name "
           "here to its table and runs each choice through `check` and\n"
           "`check --replay`; docs/iba-statements.md gives the reasoning of "
           "the open\nchoices.\n\n"
           "| statement | IBA | requires | left open | rules | reference "
           "engine | choices | faults | probe tests |\n"
           "|---|---|---|---|---|---|---|---|---|\n");
    for (unsigned k = 0; k < IBW_STMT_COUNT; k++) {
        const struct ibw_statement_info *st = &ibw_statement_table[k];
        printf("| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", st->id,
               st->section, st->requires, *st->open ? st->open : "-",
               st->rules, st->engine, *st->choices ? st->choices : "-",
               *st->faults ? st->faults : "-", *st->probes ? st->probes : "-");
    }
    printf("\n## The bug zoo: fault modes and the rules that catch them\n\n"
           "Each bug that real implementations shipped "
           "(`../shared/reference/bug-zoo.md`,\nrows by number), the "
           "reference engine's fault mode that reproduces it in otherwise\n"
           "normal traffic (`ibwire sim --fault NAME`, `ibwire gen bug-NAME`), "
           "and the rule whose\nerror its capture draws (the `faults` test "
           "suite runs each one, and the clean\nrun of the same seed). "
           "Rows come from `conformance/engine/faults.h`.\n\n");
    ibe_fault_write_markdown(stdout);
    printf("\n## Coverage of RoCEv2 annex A17\n\n"
           "Each compliance statement of annex A17 (and its two \"should\"s): "
           "the rules that\ncheck it, or why a capture cannot decide it. "
           "Rows come from `CHK_A17_COVERAGE`\nin `rules.h`; the test "
           "`check_a17_coverage` holds them to the rules' IBA statement\n"
           "column.\n\n"
           "| statement | section | rules | what a capture decides |\n"
           "|---|---|---|---|\n");
#define ROW(id, sec, rules, how)                                               \
    printf("| %s | %s | %s | %s |\n", id, sec, *rules ? rules : "-", how);
    CHK_A17_COVERAGE(ROW)
#undef ROW
    return 0;
}
