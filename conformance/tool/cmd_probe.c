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
#include "tool_doc.h"

/* The options (tool_doc.h): cmd_probe's loop, --help and ibwire-probe(1). */
enum {
    PO_HELP = 1, PO_LIST, PO_MARKDOWN, PO_SELF, PO_VERBOSE, PO_PCAP_ALL,
    PO_ONLY, PO_PCAP_DIR, PO_SELF_BREAK, PO_FAULT, PO_IFACE, PO_ENGINE_ON,
    PO_AGENT, PO_PROBE_IP, PO_WITHIN_SCALE, PO_CHOICE
};

const struct tool_opt probe_opts[] = {
    {PO_LIST, "--list", NULL,
     "the tests, each with the IBA statements it checks (tab-separated: id, "
     "role, statements, summary [rule], the engine fault modes that must "
     "make it fail or -)", NULL, NULL},
    {PO_MARKDOWN, "--markdown", NULL,
     "--list as the table of conformance/probe/README.md", NULL, NULL},
    {PO_SELF, "--self", NULL,
     "run the suite against ibwire's reference engine, in this process and "
     "in virtual time (under a second)", NULL, NULL},
    {PO_ONLY, "--only", "IDS",
     "run only these tests (comma-separated; an ID ending in '*' is a prefix)",
     NULL, NULL},
    {PO_PCAP_DIR, "--pcap-dir", "DIR",
     "write each failing test's frames to DIR/ID.pcapng", NULL, NULL},
    {PO_PCAP_ALL, "--pcap-all", NULL, "... and every other test's too",
     NULL, NULL},
    {PO_SELF_BREAK, "--self-break", "NAME",
     "break the engine's frames on purpose (the suite must then fail)",
     NULL, probe_self_breaks},
    {PO_FAULT, "--fault", "NAMES",
     "run the engine with these fault modes (`ibwire sim --list-faults`): it "
     "behaves as the buggy implementation did, and the tests --list names "
     "the fault for must fail", NULL, NULL},
    {PO_CHOICE, "--choice", "NAMES",
     "with --self: the engine takes these open choices (`ibwire sim "
     "--list-choices`, conformance/engine/choices.h); every test must still "
     "pass", NULL, NULL},
    {PO_VERBOSE, "-v", NULL, "print every frame as it passes", NULL, NULL},
    TOOL_OPT_HELP(PO_HELP),
    TOOL_OPT_END};

const struct tool_opt probe_target_opts[] = {
    {PO_IFACE, "-i", "IFACE",
     "the device is on the wire at IFACE (AF_PACKET; root or CAP_NET_RAW), "
     "in real time", NULL, NULL},
    {PO_ENGINE_ON, "--engine-on", "IFACE2",
     "... and it is the reference engine, on a raw socket on IFACE2 (the "
     "other end of a veth pair), standing in for a device and its agent",
     NULL, NULL},
    {PO_AGENT, "--agent", "HOST:PORT",
     "... and it is a real device, driven by ibwire-agent (its side channel "
     "at HOST:PORT): a fresh QP per test", NULL, NULL},
    {PO_PROBE_IP, "--probe-ip", "ADDR",
     "with --agent: the probe's IPv4 address, the one the device sends to",
     "Its host must reach it through IFACE's wire; the probe's MAC is "
     "IFACE's.", NULL},
    {PO_WITHIN_SCALE, "--within-scale", "N",
     "the scripts' default time limits (50 ms for a frame or a completion) "
     "times N (1 to 100), for a device on a slow (emulated) machine",
     "Explicit limits stay; a default local ACK timeout (14) goes log2(N) "
     "codes up.", NULL},
    TOOL_OPT_END};

static void usage(FILE *out)
{
    tool_doc_help(&doc_probe, out);
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
        const struct tool_opt *opt = tool_doc_find(&doc_probe, a);
        if (!opt || (opt->arg && i + 1 >= argc)) {
            fprintf(stderr, "ibwire probe: unknown or incomplete option '%s'\n", a);
            usage(stderr);
            return TOOL_EXIT_USAGE;
        }
        const char *v = opt->arg ? argv[++i] : NULL;
        switch (opt->id) {
        case PO_LIST: list = 1; break;
        case PO_MARKDOWN: markdown = list = 1; break;
        case PO_SELF: self = 1; break;
        case PO_VERBOSE: o.verbose = 1; break;
        case PO_PCAP_ALL: o.pcap_all = 1; break;
        case PO_HELP:
            usage(stdout);
            return TOOL_EXIT_OK;
        case PO_ONLY: only = v; break;
        case PO_PCAP_DIR: o.pcap_dir = v; break;
        case PO_SELF_BREAK: brk = v; break;
        case PO_FAULT: fault = v; break;
        case PO_CHOICE: choice = v; break;
        case PO_IFACE: iface = v; break;
        case PO_ENGINE_ON: engine_on = v; break;
        case PO_AGENT: agent = v; break;
        case PO_PROBE_IP: probe_ip = v; break;
        case PO_WITHIN_SCALE: {
            char *end;
            unsigned long n = strtoul(v, &end, 10);
            if (*end || n < 1 || n > 100) {
                fprintf(stderr, "ibwire probe: --within-scale %s: 1 ... 100\n", v);
                return TOOL_EXIT_USAGE;
            }
            o.within_scale = (unsigned)n;
            break;
        }
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
