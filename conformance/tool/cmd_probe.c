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

#include "faults.h"
#include "fuzz.h"
#include "probe.h"
#include "tool.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: ibwire probe --list [--markdown]\n"
            "       ibwire probe --self [--only ID[,ID...]] [--pcap-dir DIR] [-v]\n"
            "                    [--self-break NAME] [--fault NAME[,NAME...]]\n"
            "       ibwire probe -i IFACE --engine-on IFACE2 [--only ...] [--pcap-dir DIR] [-v]\n"
            "       ibwire probe -i IFACE --agent HOST:PORT --probe-ip ADDR [--only ...]\n"
            "                    [--pcap-dir DIR] [-v] [--within-scale N]\n"
            "       ibwire probe TARGET --script FILE\n"
            "       ibwire probe TARGET --fuzz N [--seed S] [--out DIR] [--time-limit SECS]\n"
            "\n"
            "  --list            the tests, each with the IBA statements it checks\n"
            "                    (tab-separated: id, role, statements, summary [rule],\n"
            "                    the engine fault modes that must make it fail or -);\n"
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
    fprintf(out, "  --script FILE     run one script file (README.md's format; a fuzzer's\n"
                 "                    minimized DIR/ID.probe) instead of the suite\n"
                 "  --fuzz N          N random episodes, each on the device and on the\n"
                 "                    reference engine, judged; each divergence shrunk to\n"
                 "                    a script (README.md, \"Fuzzing\")\n"
                 "  --seed S          the fuzzer's seed (0): episode i of seed S is always\n"
                 "                    the same\n"
                 "  --out DIR         the fuzzer's scripts (DIR/ID.probe) and corpus\n"
                 "                    (DIR/corpus, run first the next time)\n"
                 "  --time-limit SECS stop fuzzing after SECS seconds\n");
    fprintf(out, "  -v                every frame, as it passes\n");
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
    static const char *const vname[] = {"PASS", "FAIL", "N/A ", "ERROR"};
    const char *id = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    struct probe_test t = {id, PROBE_RESPONDER, "", "", "", text};
    struct probe_result r;
    probe_run(&t, tg, o, &r);
    printf("%s  %s%s%s\n", vname[r.verdict], id, r.why[0] ? "  " : "", r.why);
    return r.verdict == PROBE_FAIL || r.verdict == PROBE_ERROR ? TOOL_EXIT_FINDINGS
                                                              : TOOL_EXIT_OK;
}

static int run_fuzz(unsigned long long n, unsigned long long seed, const char *out,
                    double time_limit, const char *fault, const char *where,
                    struct probe_target *tg, const struct probe_opts *po)
{
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
    fo.dev = tg;
    fo.dev_name = name;
    fo.ref = ref;
    fo.popts = po;
    fo.progress = stderr;
    fo.out = stdout;
    fo.verbose = po->verbose;
    long d = fz_run(&fo);
    probe_self_target_free(ref);
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
    const char *fault = NULL, *agent = NULL, *probe_ip = NULL;
    const char *script = NULL, *fuzz_out = NULL;
    unsigned long long fuzz_n = 0, fuzz_seed = 0;
    double time_limit = 0;
    int fuzz = 0;
    uint64_t faults = 0;
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
        else if (i + 1 < argc && !strcmp(a, "-i")) iface = argv[++i];
        else if (i + 1 < argc && !strcmp(a, "--engine-on")) engine_on = argv[++i];
        else if (i + 1 < argc && !strcmp(a, "--agent")) agent = argv[++i];
        else if (i + 1 < argc && !strcmp(a, "--probe-ip")) probe_ip = argv[++i];
        else if (i + 1 < argc && !strcmp(a, "--script")) script = argv[++i];
        else if (i + 1 < argc && !strcmp(a, "--out")) fuzz_out = argv[++i];
        else if (i + 1 < argc && (!strcmp(a, "--fuzz") || !strcmp(a, "--seed") ||
                                  !strcmp(a, "--time-limit"))) {
            char *end;
            const char *v = argv[++i];
            double d = strtod(v, &end);
            if (*end || d < 0 || (a[2] != 't' && d != (double)(unsigned long long)d)) {
                fprintf(stderr, "ibwire probe: %s %s: not a number\n", a, v);
                return TOOL_EXIT_USAGE;
            }
            if (a[2] == 'f') { fuzz = 1; fuzz_n = (unsigned long long)d; }
            else if (a[2] == 's') fuzz_seed = (unsigned long long)d;
            else time_limit = d;
        }
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
        printf("| test | device as | IBA statements | `check` rule | engine fault that "
               "fails it | a conforming device |\n"
               "|---|---|---|---|---|---|\n");
        for (size_t i = 0; i < probe_ntests; i++) {
            const struct probe_test *t = &probe_tests[i];
            const char *f = probe_test_faults(t->id);
            printf("| `%s` | %s | %s | %s%s%s | %s%s%s | %s |\n", t->id,
                   t->side == PROBE_RESPONDER ? "responder" : "requester", t->spec,
                   *t->rule ? "`" : "", t->rule, *t->rule ? "`" : "",
                   f ? "`" : "", f ? f : "", f ? "`" : "", t->summary);
        }
        return TOOL_EXIT_OK;
    }
    if (list) {
        for (size_t i = 0; i < probe_ntests; i++) {
            const struct probe_test *t = &probe_tests[i];
            const char *f = probe_test_faults(t->id);
            printf("%s\t%s\t%s\t%s%s%s%s\t%s\n", t->id,
                   t->side == PROBE_RESPONDER ? "responder" : "requester",
                   t->spec, t->summary, *t->rule ? " [" : "", t->rule,
                   *t->rule ? "]" : "", f ? f : "-");
        }
        return TOOL_EXIT_OK;
    }
    if (script && fuzz) {
        fprintf(stderr, "ibwire probe: --script and --fuzz do not go together\n");
        return TOOL_EXIT_USAGE;
    }
    if ((fuzz_out || time_limit > 0 || fuzz_seed) && !fuzz) {
        fprintf(stderr, "ibwire probe: --seed, --out and --time-limit go with --fuzz\n");
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
                             : run_fuzz(fuzz_n, fuzz_seed, fuzz_out, time_limit, fault,
                                        self ? "self" : agent ? agent : engine_on,
                                        tg, &o);
        free(script_text);
        free_target(self, agent != NULL, tg, ag);
        return rc;
    }
    size_t n[4] = {0, 0, 0, 0}, ran = 0;
    static const char *const vname[] = {"PASS", "FAIL", "N/A ", "ERROR"};
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
    printf("%zu tests against %s%s%s%s%s: %zu pass, %zu fail, %zu not applicable%s\n",
           ran, self ? "self" : agent ? "the device of the agent" : "the engine on a raw socket",
           brk ? " broken as " : "", brk ? brk : "",
           fault ? " with fault " : "", fault ? fault : "", n[PROBE_PASS],
           n[PROBE_FAIL] + n[PROBE_ERROR], n[PROBE_NA],
           n[PROBE_ERROR] ? " (errors count as failures)" : "");
    return n[PROBE_FAIL] || n[PROBE_ERROR] ? TOOL_EXIT_FINDINGS : TOOL_EXIT_OK;
}
