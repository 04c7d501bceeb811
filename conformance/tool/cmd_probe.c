/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ibwire probe: run the active conformance suite (conformance/probe)
 * against a device; --self: against ibwire's own reference engine in this
 * process.  Exit 0 when every test run passed (or is not applicable), 1
 * when one failed, 2 on bad arguments or a script error.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "choices.h"
#include "faults.h"
#include "fuzz.h"
#include "probe.h"
#include "statements.h"
#include "tool.h"
#include "tool_doc.h"

/* The options (tool_doc.h): cmd_probe's loop, --help and ibwire-probe(1). */
enum {
    PO_HELP = 1, PO_LIST, PO_MARKDOWN, PO_SELF, PO_VERBOSE, PO_PCAP_ALL,
    PO_ONLY, PO_PCAP_DIR, PO_SELF_BREAK, PO_FAULT, PO_IFACE, PO_ENGINE_ON,
    PO_AGENT, PO_PROBE_IP, PO_WITHIN_SCALE, PO_CHOICE, PO_SCRIPT, PO_FUZZ,
    PO_SEED, PO_OUT, PO_TIME_LIMIT, PO_FIRST, PO_LOG_EPISODES
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
    {PO_SCRIPT, "--script", "FILE",
     "run one script file (conformance/probe/README.md's format; a fuzzer's "
     "minimized DIR/ID.probe) against the target instead of the suite",
     NULL, NULL},
    {PO_FUZZ, "--fuzz", "N",
     "N random episodes, each run on the device and on the reference engine "
     "in virtual time and judged; each divergence shrunk to a script",
     "Where the IBA leaves no choice (memory, completions and their status, "
     "response opcodes, PSNs, MSN, NAK codes) the device must match the "
     "engine; where it allows several behaviours the device's frames are "
     "judged by `ibwire check`'s rules. A divergence (the device fails, the "
     "engine passes) is minimized by delta debugging and written to "
     "DIR/ID.probe (conformance/probe/README.md, \"Fuzzing\").", NULL},
    {PO_SEED, "--seed", "S",
     "the fuzzer's seed (0): episode i of seed S is always the same", NULL,
     NULL},
    {PO_OUT, "--out", "DIR",
     "the fuzzer's minimized scripts (DIR/ID.probe) and corpus (DIR/corpus, "
     "run first the next time)", NULL, NULL},
    {PO_TIME_LIMIT, "--time-limit", "SECS", "stop fuzzing after SECS seconds",
     NULL, NULL},
    {PO_FIRST, "--first", "I",
     "start at episode I of the seed (0): go on after a run that stopped "
     "(a device that crashed its host at episode I - 1)", NULL, NULL},
    {PO_LOG_EPISODES, "--log-episodes", "FILE",
     "write each episode's id to FILE before it runs (one line each, "
     "flushed): the last one names the episode a crash of the device's "
     "host came in (/dev/kmsg puts it in the kernel's log)", NULL, NULL},
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

/* A script file's text, or NULL with the reason said; it must parse (the
 * error names the line). */
static char *probe_read_script(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return NULL;
    }
    size_t cap = 1 << 20, n;
    char *b = malloc(cap);
    n = b ? fread(b, 1, cap - 1, f) : 0;
    int big = b && n == cap - 1 && fgetc(f) != EOF;
    fclose(f);
    if (!b || big) {
        fprintf(stderr, "ibwire probe: %s: %s\n", path, b ? "too long" : "out of memory");
        free(b);
        return NULL;
    }
    b[n] = 0;
    char err[512];
    if (probe_script_check(b, err, sizeof err)) {
        fprintf(stderr, "ibwire probe: %s: %s\n", path, err);
        free(b);
        return NULL;
    }
    return b;
}

static int run_script(const char *path, const char *text, struct probe_target *tg,
                      const struct probe_opts *o)
{
    static const char *const vname[] = {"PASS", "FAIL", "N/A ", "ERROR",
                                        "QUALITY"};
    const char *id = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    struct probe_test t = {id, PROBE_RESPONDER, "", "", "", text};
    struct probe_result r;
    probe_run(&t, tg, o, &r);
    printf("%s  %s%s%s\n", vname[r.verdict], id, r.why[0] ? "  " : "", r.why);
    return r.verdict == PROBE_FAIL || r.verdict == PROBE_ERROR ? TOOL_EXIT_FINDINGS
                                                              : TOOL_EXIT_OK;
}

static int run_fuzz(unsigned long long n, unsigned long long seed, const char *out,
                    double time_limit, unsigned long long first, const char *log_path,
                    const char *fault, const char *where, struct probe_target *tg,
                    const struct probe_opts *po)
{
    FILE *log = NULL;
    if (log_path && !(log = fopen(log_path, "a"))) {
        fprintf(stderr, "ibwire probe: --log-episodes %s: %s\n", log_path, strerror(errno));
        return TOOL_EXIT_USAGE;
    }
    struct probe_target *ref = probe_self_target(NULL);
    if (!ref)
        return TOOL_EXIT_USAGE;
    char name[256];
    snprintf(name, sizeof name, "%s%s%s", where, fault ? " --fault " : "",
             fault ? fault : "");
    struct fz_opts fo;
    memset(&fo, 0, sizeof fo);
    fo.episodes = n;
    fo.seed = seed;
    fo.out_dir = out;
    fo.time_limit = time_limit;
    fo.first = first;
    fo.episode_log = log;
    fo.dev = tg;
    fo.dev_name = name;
    fo.ref = ref;
    fo.popts = po;
    fo.progress = stderr;
    fo.out = stdout;
    fo.verbose = po->verbose;
    long d = fz_run(&fo);
    probe_self_target_free(ref);
    if (log)
        fclose(log);
    return d < 0 ? TOOL_EXIT_USAGE : d ? TOOL_EXIT_FINDINGS : TOOL_EXIT_OK;
}

static void free_target(int self, int agent, struct probe_target *tg,
                        struct probe_agent *ag)
{
    if (self) {
        probe_self_target_free(tg);
    } else {
        probe_raw_target_free(tg);
        if (agent)
            probe_agent_client_free(ag);
        else
            probe_engine_raw_agent_free(ag);
    }
}

int cmd_probe(int argc, char **argv)
{
    int list = 0, self = 0, markdown = 0;
    const char *only = NULL, *brk = NULL, *iface = NULL, *engine_on = NULL;
    const char *fault = NULL, *agent = NULL, *probe_ip = NULL, *choice = NULL;
    uint64_t faults = 0, choices = 0;
    const char *script = NULL, *fuzz_out = NULL, *episode_log = NULL;
    unsigned long long fuzz_n = 0, fuzz_seed = 0, fuzz_first = 0;
    double time_limit = 0;
    int fuzz = 0;
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
        case PO_SCRIPT: script = v; break;
        case PO_OUT: fuzz_out = v; break;
        case PO_LOG_EPISODES: episode_log = v; break;
        case PO_FUZZ:
        case PO_FIRST:
        case PO_SEED:
        case PO_TIME_LIMIT: {
            char *end;
            double d = strtod(v, &end);
            if (*end || d < 0 ||
                (opt->id != PO_TIME_LIMIT && d != (double)(unsigned long long)d)) {
                fprintf(stderr, "ibwire probe: %s %s: not a number\n", a, v);
                return TOOL_EXIT_USAGE;
            }
            if (opt->id == PO_FUZZ) {
                fuzz = 1;
                fuzz_n = (unsigned long long)d;
            } else if (opt->id == PO_SEED) {
                fuzz_seed = (unsigned long long)d;
            } else if (opt->id == PO_FIRST) {
                fuzz_first = (unsigned long long)d;
            } else {
                time_limit = d;
            }
            break;
        }
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
    if (script && fuzz) {
        fprintf(stderr, "ibwire probe: --script and --fuzz do not go together\n");
        return TOOL_EXIT_USAGE;
    }
    if ((fuzz_out || time_limit > 0 || fuzz_seed || fuzz_first || episode_log) && !fuzz) {
        fprintf(stderr, "ibwire probe: --seed, --out, --time-limit, --first and "
                        "--log-episodes go with --fuzz\n");
        return TOOL_EXIT_USAGE;
    }
    char *script_text = NULL;
    if (script && !(script_text = probe_read_script(script)))
        return TOOL_EXIT_USAGE;
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
    if (script_text || fuzz) {
        int rc = script_text ? run_script(script, script_text, tg, &o)
                             : run_fuzz(fuzz_n, fuzz_seed, fuzz_out, time_limit,
                                        fuzz_first, episode_log, fault,
                                        self ? "self" : agent ? agent : engine_on,
                                        tg, &o);
        free(script_text);
        free_target(self, agent != NULL, tg, ag);
        return rc;
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
    free_target(self, agent != NULL, tg, ag);
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
