/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ibwire probe: run the active conformance suite (conformance/probe)
 * against a device; --self: against ibwire's own reference engine in this
 * process.  Exit 0 when every test run passed (or is not applicable), 1
 * when one failed, 2 on bad arguments or a script error.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "choices.h"
#include "faults.h"
#include "probe.h"
#include "statements.h"
#include "tool.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: ibwire probe --list [--markdown]\n"
            "       ibwire probe --self [--only ID[,ID...]] [--pcap-dir DIR] [-v]\n"
            "                    [--self-break NAME] [--fault NAME[,NAME...]]\n"
            "                    [--choice NAME[,NAME...]]\n"
            "       ibwire probe -i IFACE --engine-on IFACE2 [--only ...] [--pcap-dir DIR] [-v]\n"
            "       ibwire probe -i IFACE --agent HOST:PORT --probe-ip ADDR [--only ...]\n"
            "                    [--pcap-dir DIR] [-v] [--within-scale N]\n"
            "\n"
            "  --list            the tests, each with the IBA statements it checks\n"
            "                    (tab-separated: id, role, IBA sections, summary [rule],\n"
            "                    the engine fault modes that must make it FAIL or -,\n"
            "                    those that must make it QUALITY or -, the statements\n"
            "                    of conformance/check/statements.h it provokes or -);\n"
            "                    --markdown: as the table of conformance/probe/README.md\n"
            "  --self            run the suite against ibwire's reference engine\n"
            "  -i IFACE          the device is on the wire at IFACE (AF_PACKET; root or\n"
            "                    CAP_NET_RAW), in real time\n"
            "  --engine-on IF2   ... and it is the reference engine, on a raw socket on IF2\n"
            "                    (the other end of a veth pair)\n"
            "  --agent HOST:PORT ... and it is a real device, driven by ibwire-agent\n"
            "                    (its side channel at HOST:PORT): a fresh QP per test\n"
            "  --probe-ip ADDR   with --agent: the probe's IPv4 address, the one the\n"
            "                    device sends to (its host must reach it through IFACE's\n"
            "                    wire; the probe's MAC is IFACE's)\n"
            "  --within-scale N  the default time limits of the scripts (50 ms for a\n"
            "                    frame or a completion) times N, for a device on a slow\n"
            "                    (emulated) machine; explicit limits stay; a default\n"
            "                    local ACK timeout (14) goes log2(N) codes up\n"
            "  --only IDS        run only these tests (an ID ending in '*' is a prefix)\n"
            "  --pcap-dir DIR    write each failing test's frames to DIR/ID.pcapng\n"
            "  --pcap-all        ... and every other test's too\n"
            "  --self-break NAME break the engine's frames on purpose (the suite\n"
            "                    must then fail); names:\n");
    for (const char *const *b = probe_self_breaks; *b; b++)
        fprintf(out, "                      %s\n", *b);
    fprintf(out, "  --fault NAMES     run the engine with these fault modes (`ibwire sim\n"
                 "                    --list-faults`): it behaves as the buggy implementation\n"
                 "                    did, and the tests the --list names the fault for must\n"
                 "                    fail\n");
    fprintf(out, "  --choice NAMES    with --self: the engine takes these open choices\n"
                 "                    (conformance/engine/choices.h); every test must\n"
                 "                    still pass:");
    for (unsigned k = 0; k < IBE_CHOICE_COUNT; k++)
        fprintf(out, " %s", ibe_choice_table[k].name);
    fprintf(out, "\n  -v                every frame, as it passes\n"
                 "Verdicts: PASS; FAIL (a \"shall\" of the test's statements broken);\n"
                 "QUALITY (every \"shall\" held, a bound the IBA does not set was\n"
                 "missed: the figure measured); N/A; ERROR (the target's or script's).\n");
}

static int selected(const char *id, const char *only)
{
    if (!only)
        return 1;
    const char *p = only;
    while (*p) {
        size_t n = strcspn(p, ",");
        if (n && p[n - 1] == '*' ? !strncmp(id, p, n - 1)
                                 : strlen(id) == n && !strncmp(id, p, n))
            return 1;
        p += n + (p[n] == ',');
    }
    return 0;
}

int cmd_probe(int argc, char **argv)
{
    int list = 0, self = 0, markdown = 0;
    const char *only = NULL, *brk = NULL, *iface = NULL, *engine_on = NULL;
    const char *fault = NULL, *agent = NULL, *probe_ip = NULL, *choice = NULL;
    uint64_t faults = 0, choices = 0;
    struct probe_opts o;
    memset(&o, 0, sizeof o);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--list")) list = 1;
        else if (!strcmp(a, "--markdown")) markdown = list = 1;
        else if (!strcmp(a, "--self")) self = 1;
        else if (!strcmp(a, "-v")) o.verbose = 1;
        else if (!strcmp(a, "--pcap-all")) o.pcap_all = 1;
        else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return TOOL_EXIT_OK;
        } else if (i + 1 < argc && !strcmp(a, "--only")) only = argv[++i];
        else if (i + 1 < argc && !strcmp(a, "--pcap-dir")) o.pcap_dir = argv[++i];
        else if (i + 1 < argc && !strcmp(a, "--self-break")) brk = argv[++i];
        else if (i + 1 < argc && !strcmp(a, "--fault")) fault = argv[++i];
        else if (i + 1 < argc && !strcmp(a, "--choice")) choice = argv[++i];
        else if (i + 1 < argc && !strcmp(a, "-i")) iface = argv[++i];
        else if (i + 1 < argc && !strcmp(a, "--engine-on")) engine_on = argv[++i];
        else if (i + 1 < argc && !strcmp(a, "--agent")) agent = argv[++i];
        else if (i + 1 < argc && !strcmp(a, "--probe-ip")) probe_ip = argv[++i];
        else if (i + 1 < argc && !strcmp(a, "--within-scale")) {
            char *end;
            unsigned long v = strtoul(argv[++i], &end, 10);
            if (*end || v < 1 || v > 100) {
                fprintf(stderr, "ibwire probe: --within-scale %s: 1 ... 100\n", argv[i]);
                return TOOL_EXIT_USAGE;
            }
            o.within_scale = (unsigned)v;
        }
        else {
            fprintf(stderr, "ibwire probe: unknown or incomplete option '%s'\n", a);
            usage(stderr);
            return TOOL_EXIT_USAGE;
        }
    }
    /* every script must parse, whatever runs */
    int bad = 0;
    for (size_t i = 0; i < probe_ntests; i++) {
        char err[512];
        if (probe_script_check(probe_tests[i].script, err, sizeof err)) {
            fprintf(stderr, "ibwire probe: test %s: %s\n", probe_tests[i].id, err);
            bad = 1;
        }
    }
    if (bad)
        return TOOL_EXIT_USAGE;
    if (o.pcap_all && !o.pcap_dir) {
        fprintf(stderr, "ibwire probe: --pcap-all needs --pcap-dir DIR\n");
        return TOOL_EXIT_USAGE;
    }
    if (markdown) { /* the table of conformance/probe/README.md */
        printf("| test | device as | IBA statements | statement (rules.md) | `check` "
               "rule | engine fault that fails it | a conforming device |\n"
               "|---|---|---|---|---|---|---|\n");
        for (size_t i = 0; i < probe_ntests; i++) {
            const struct probe_test *t = &probe_tests[i];
            const char *f = probe_test_faults(t->id);
            const char *q = probe_test_quality_faults(t->id);
            char st[256];
            ibw_statements_of_probe(t->id, st, sizeof st);
            printf("| `%s` | %s | %s | %s | %s%s%s | %s%s%s%s%s%s | %s |\n", t->id,
                   t->side == PROBE_RESPONDER ? "responder" : "requester", t->spec,
                   *st ? st : "-", *t->rule ? "`" : "", t->rule,
                   *t->rule ? "`" : "", f ? "`" : "", f ? f : "", f ? "`" : "",
                   q ? (f ? "; QUALITY with `" : "QUALITY with `") : "",
                   q ? q : "", q ? "`" : "", t->summary);
        }
        return TOOL_EXIT_OK;
    }
    if (list) {
        for (size_t i = 0; i < probe_ntests; i++) {
            const struct probe_test *t = &probe_tests[i];
            const char *f = probe_test_faults(t->id);
            const char *q = probe_test_quality_faults(t->id);
            char st[256];
            ibw_statements_of_probe(t->id, st, sizeof st);
            printf("%s\t%s\t%s\t%s%s%s%s\t%s\t%s\t%s\n", t->id,
                   t->side == PROBE_RESPONDER ? "responder" : "requester",
                   t->spec, t->summary, *t->rule ? " [" : "", t->rule,
                   *t->rule ? "]" : "", f ? f : "-", q ? q : "-",
                   *st ? st : "-");
        }
        return TOOL_EXIT_OK;
    }
    if (self == !!iface) {
        fprintf(stderr, "ibwire probe: say --self or -i IFACE (or --list)\n");
        usage(stderr);
        return TOOL_EXIT_USAGE;
    }
    if (iface && !engine_on == !agent) {
        fprintf(stderr, "ibwire probe: -i needs --engine-on IFACE2 or --agent HOST:PORT "
                        "(one of them)\n");
        return TOOL_EXIT_USAGE;
    }
    if (!agent != !probe_ip) {
        fprintf(stderr, "ibwire probe: --agent and --probe-ip go together\n");
        return TOOL_EXIT_USAGE;
    }
    struct in_addr pip;
    if (probe_ip && inet_pton(AF_INET, probe_ip, &pip) != 1) {
        fprintf(stderr, "ibwire probe: --probe-ip %s: not an IPv4 address\n", probe_ip);
        return TOOL_EXIT_USAGE;
    }
    if (brk && !self) {
        fprintf(stderr, "ibwire probe: --self-break goes with --self\n");
        return TOOL_EXIT_USAGE;
    }
    if (choice) {
        const char *badc;
        if (!self) {
            fprintf(stderr, "ibwire probe: --choice goes with --self\n");
            return TOOL_EXIT_USAGE;
        }
        if (ibe_choice_parse(choice, &choices, &badc)) {
            fprintf(stderr, "ibwire probe: --choice: unknown choice '%.*s' "
                            "(ibwire probe --help)\n",
                    (int)strcspn(badc, ","), badc);
            return TOOL_EXIT_USAGE;
        }
    }
    if (fault) {
        const char *badf;
        if (!self) {
            fprintf(stderr, "ibwire probe: --fault goes with --self\n");
            return TOOL_EXIT_USAGE;
        }
        if (ibe_fault_parse(fault, &faults, &badf)) {
            fprintf(stderr, "ibwire probe: --fault: unknown fault mode '%.*s' "
                            "(ibwire sim --list-faults)\n",
                    (int)strcspn(badf, ","), badf);
            return TOOL_EXIT_USAGE;
        }
    }
    struct probe_target *tg = NULL;
    struct probe_agent *ag = NULL;
    char err[256];
    if (self) {
        tg = probe_self_target(brk);
        if (!tg) {
            fprintf(stderr, "ibwire probe: unknown --self-break '%s'\n", brk ? brk : "");
            return TOOL_EXIT_USAGE;
        }
        probe_self_target_set_faults(tg, faults);
        probe_self_target_set_choices(tg, choices);
    } else if (agent) {
        uint8_t mac[6];
        if (!probe_rawsock_mac(iface, mac, err, sizeof err))
            ag = probe_agent_client(agent, ntohl(pip.s_addr), mac, err, sizeof err);
        tg = ag ? probe_raw_target(iface, ag, err, sizeof err) : NULL;
        if (!tg) {
            fprintf(stderr, "ibwire probe: %s\n", err);
            probe_agent_client_free(ag);
            return TOOL_EXIT_USAGE;
        }
    } else {
        ag = probe_engine_raw_agent(engine_on, err, sizeof err);
        tg = ag ? probe_raw_target(iface, ag, err, sizeof err) : NULL;
        if (!tg) {
            fprintf(stderr, "ibwire probe: %s\n", err);
            probe_engine_raw_agent_free(ag);
            return TOOL_EXIT_USAGE;
        }
    }
    size_t n[5] = {0, 0, 0, 0, 0}, ran = 0;
    static const char *const vname[] = {"PASS", "FAIL", "N/A ", "ERROR", "QUALITY"};
    for (size_t i = 0; i < probe_ntests; i++) {
        const struct probe_test *t = &probe_tests[i];
        if (!selected(t->id, only))
            continue;
        if (o.verbose)
            fprintf(stderr, "%s\n", t->id);
        struct probe_result r;
        probe_run(t, tg, &o, &r);
        n[r.verdict]++;
        ran++;
        const char *aerr = agent ? probe_agent_client_error(ag) : "";
        int say_agent = r.verdict != PROBE_PASS && r.verdict != PROBE_NA && *aerr;
        printf("%s  %-26s %-20s%s%s%s%s\n", vname[r.verdict], t->id, t->spec,
               r.why[0] ? "  " : "", r.why, say_agent ? " -- " : "",
               say_agent ? aerr : "");
    }
    if (self) {
        probe_self_target_free(tg);
    } else {
        probe_raw_target_free(tg);
        if (agent)
            probe_agent_client_free(ag);
        else
            probe_engine_raw_agent_free(ag);
    }
    if (!ran) {
        fprintf(stderr, "ibwire probe: --only '%s' selects no test\n", only);
        return TOOL_EXIT_USAGE;
    }
    printf("%zu tests against %s%s%s%s%s%s%s: %zu pass, %zu quality, %zu fail, "
           "%zu not applicable%s\n",
           ran, self ? "self" : agent ? "the device of the agent" : "the engine on a raw socket",
           brk ? " broken as " : "", brk ? brk : "",
           fault ? " with fault " : "", fault ? fault : "",
           choice ? " with choice " : "", choice ? choice : "", n[PROBE_PASS],
           n[PROBE_QUALITY], n[PROBE_FAIL] + n[PROBE_ERROR], n[PROBE_NA],
           n[PROBE_ERROR] ? " (errors count as failures)" : "");
    return n[PROBE_FAIL] || n[PROBE_ERROR] ? TOOL_EXIT_FINDINGS : TOOL_EXIT_OK;
}
