/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ibwire sim: two reference engines over a simulated lossy link, a random
 * mix of operations, one JSON object of counters on stdout.  Exit 0 when
 * every invariant held, 1 otherwise, 2 on bad arguments.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "choices.h"
#include "sim.h"
#include "sim_opts.h"
#include "tool.h"
#include "tool_doc.h"

/* The options (tool_doc.h): sim_cli_parse, --help and ibwire-sim(1).
 * The ids are not used: sim_opts.c and the own-option handlers below
 * match by name, and the tables say which names exist. */
const struct tool_opt sim_opts[] = {
    {1, "--seed", "N", "the random seed (default 1): the same seed, the same run",
     NULL, NULL},
    {1, "--messages", "N", "how many messages (default 1000)", NULL, NULL},
    {1, "--max-size", "B", "the largest message in bytes (default 4096)",
     NULL, NULL},
    {1, "--transport", "rc|uc|ud", "the transport (default rc)", NULL, NULL},
    {1, "--ops", "LIST",
     "the operations: send,send_imm,write,write_imm,read,cas,faa (default: "
     "all the transport allows)", NULL, NULL},
    {1, "--drop", "P", "the link drops a frame with probability P (0 to 1)",
     NULL, NULL},
    {1, "--dup", "P", "... duplicates one", NULL, NULL},
    {1, "--reorder", "P", "... delivers one out of order", NULL, NULL},
    {1, "--corrupt", "P", "... corrupts one (its CRC then fails)", NULL, NULL},
    {1, "--ecn", "P",
     "the link marks IP ECN CE (RoCEv2 only; the responder answers with "
     "CNPs)", NULL, NULL},
    {1, "--pmtu", "256..4096", "the path MTU (default 1024)", NULL, NULL},
    {1, "--ib", NULL, "native InfiniBand framing (LRH) instead of RoCEv2",
     NULL, NULL},
    {1, "--latency", "LAT",
     "module latencies in virtual time: \"documents\" (the cycles the HanGu "
     "documents give, 2 ns each), \"none\" (the default) or Module=ns,... "
     "with the trace's module names", NULL, NULL},
    {1, "-w", "OUT.pcap", "write every frame on the link to a pcap", NULL,
     NULL},
    {1, "--trace", "OUT",
     "write every engine record passed between modules, one a line", NULL,
     NULL},
    {1, "--fault", "NAME[,NAME...]",
     "the side the fault names (requester or responder) behaves as the bug "
     "zoo's implementation did, and the traffic is shaped to show it",
     "The invariants it breaks are reported, and the exit status is 0. "
     "`--list-faults` gives each fault's row, side and the rule that catches "
     "it; `ibwire gen bug-NAME` writes the fault's capture.", NULL},
    {1, "--traffic-of", "NAME[,NAME...]",
     "the same traffic as --fault NAME, without the fault (the clean control "
     "run)", NULL, NULL},
    {1, "--fault-at", "I",
     "the fault's special message (a zero-length READ, a VA wrap, a Send "
     "with Invalidate) is message I (default: the middle one)", NULL, NULL},
    {1, "--loss-nth", "K",
     "the fault's chosen loss strikes the K-th frame of its kind (default: "
     "the first)", NULL, NULL},
    {1, "--variants", "N",
     "with --fault NAME: N random variants of the fault, each run with the "
     "fault and as its clean control and judged by ibwire check",
     "A variant is drawn from the seed and its index: operations, single- "
     "and multi-packet sizes, PMTU, transport where the fault is not "
     "RC-only, where its special message and chosen loss fall, and loss, "
     "duplication or reordering around it or none. Each is printed as the "
     "`ibwire sim` command that reproduces it, and judged by `ibwire check` "
     "(`--replay` where the fault is judged by replay): whether the rule "
     "caught it, whether the control is clean. Exit 0 when every variant "
     "was caught and every control clean; a fault no capture can decide "
     "says so and is held to its controls only.", NULL},
    {1, "--choice", "NAME[,NAME...]",
     "the engines take these open choices, where the IBA allows several "
     "behaviours (--list-choices; conformance/engine/choices.h)", NULL, NULL},
    TOOL_OPT_HELP(1),
    TOOL_OPT_END};

const struct tool_opt sim_cm_opts[] = {
    {1, "--cm", NULL,
     "connect QP pairs through CM MADs over QP1, carry verified traffic over "
     "them and disconnect",
     "Takes --seed, --drop, --dup, --reorder, --corrupt, --ib, -w, --fault "
     "and --traffic-of as above, and the options below.", NULL},
    {1, "--conns", "N", "how many connections (default 100)", NULL, NULL},
    {1, "--size", "B", "the message size (default 4096)", NULL, NULL},
    {1, "--cm-retries", "0..15", "the CM's Max CM Retries (default 15)", NULL,
     NULL},
    {1, "--cm-timeout", "0..31",
     "the CM's Remote CM Response Timeout (default 8)", NULL, NULL},
    TOOL_OPT_END};

const struct tool_opt sim_list_opts[] = {
    {1, "--list-faults", NULL,
     "list the fault modes: name, bug zoo row, side, rule, what it does; "
     "then the zoo rows no fault reproduces", NULL, NULL},
    {1, "--markdown", NULL,
     "with --list-faults: the zoo row, fault and rule table that "
     "conformance/rules.md ends with", NULL, NULL},
    {1, "--list-choices", NULL,
     "list the engines' open choices: name, statement, side, traffic, what "
     "the engine then does", NULL, NULL},
    TOOL_OPT_END};

static void usage(FILE *f)
{
    tool_doc_help(&doc_sim, f);
}

/* The options only `ibwire sim` has; see struct sim_cli. */
struct sim_own { struct ibe_sim_opts *o; const char **tpath; uint32_t *variants; };

static int sim_own_opt(void *ctx, const char *a, const char *v, int *bad)
{
    struct sim_own *so = ctx;
    struct ibe_sim_opts *o = so->o;
    uint64_t u = 0;
    if (!strcmp(a, "--messages")) {
        *bad = sim_parse_num(v, 10000000, &u);
        o->messages = (uint32_t)u;
    } else if (!strcmp(a, "--max-size")) {
        *bad = sim_parse_num(v, 1u << 24, &u);
        o->max_size = (uint32_t)u;
    } else if (!strcmp(a, "--pmtu")) {
        *bad = sim_parse_num(v, UINT64_MAX, &u) ||
               (u != 256 && u != 512 && u != 1024 && u != 2048 && u != 4096);
        o->pmtu = (uint32_t)u;
    } else if (!strcmp(a, "--transport")) {
        if (!strcmp(v, "rc")) o->transport = IBE_RC;
        else if (!strcmp(v, "uc")) o->transport = IBE_UC;
        else if (!strcmp(v, "ud")) o->transport = IBE_UD;
        else *bad = 1;
    } else if (!strcmp(a, "--ops")) {
        o->ops = ibe_sim_parse_ops(v);
        *bad = !o->ops;
    } else if (!strcmp(a, "--ecn")) {
        *bad = sim_parse_prob(v, &o->ecn);
    } else if (!strcmp(a, "--latency")) {
        const char *at = v;
        *bad = ibe_engine_apply_latency(NULL, v, &at) != 0;
        if (*bad)
            fprintf(stderr, "ibwire sim: --latency: '%s' is not documents, none "
                            "or Module=ns\n", at);
        o->latency = v;
    } else if (!strcmp(a, "--fault") || !strcmp(a, "--traffic-of")) {
        const char *at = v;
        *bad = ibe_fault_parse(v, !strcmp(a, "--fault") ? &o->faults : &o->traffic_of,
                               &at) != 0;
        if (*bad)
            fprintf(stderr, "ibwire sim: %s: unknown fault at '%s' (see "
                            "--list-faults)\n", a, at);
    } else if (!strcmp(a, "--choice")) {
        const char *at = v;
        *bad = ibe_choice_parse(v, &o->choices, &at) != 0;
        if (*bad)
            fprintf(stderr, "ibwire sim: --choice: unknown choice at '%s' "
                            "(see --help)\n", at);
    } else if (!strcmp(a, "--fault-at")) {
        *bad = sim_parse_num(v, 10000000, &u);
        o->fault_at = (uint32_t)u;
    } else if (!strcmp(a, "--loss-nth")) {
        *bad = sim_parse_num(v, 1000000, &u);
        o->loss_nth = (uint32_t)u;
    } else if (!strcmp(a, "--variants")) {
        *bad = sim_parse_num(v, 100000, &u) || !u;
        *so->variants = (uint32_t)u;
    } else if (!strcmp(a, "--trace")) {
        *so->tpath = v;
    } else {
        return 0;
    }
    return 1;
}

/* --list-faults --markdown: the zoo row -> fault -> rule table (the one
 * conformance/rules.md ends with). */
static int list_faults_md(void)
{
    ibe_fault_write_markdown(stdout);
    return TOOL_EXIT_OK;
}

/* The fault table (faults.h): name, zoo row, side, rule, description;
 * then the zoo rows no fault reproduces. */
static int list_faults(void)
{
    printf("%-22s %-4s %-9s %-22s %s\n", "fault", "zoo", "side", "rule",
           "what it does");
    for (unsigned k = 0; k < IBE_FAULT_COUNT; k++) {
        const struct ibe_fault_info *f = &ibe_fault_table[k];
        printf("%-22s %-4s %-9s %-22s %s%s\n", f->name, f->zoo,
               ibe_fault_side_name(f->side), f->rule,
               f->needs == IBE_FN_REPLAY ? "(check --replay) " : "", f->what);
    }
    for (unsigned k = 0; k < ibe_fault_ngaps; k++)
        printf("%-22s %-4s %-9s %-22s %s\n", "-", ibe_fault_gaps[k].zoo, "-",
               strcmp(ibe_fault_gaps[k].rule, "not decidable") ? ibe_fault_gaps[k].rule
                                                                : "-",
               ibe_fault_gaps[k].why);
    return TOOL_EXIT_OK;
}

static void on_trace(void *ctx, struct ibe_engine *e, const struct ibe_trace_rec *r)
{
    (void)e;
    FILE *f = ctx;
    fprintf(f, "%" PRIu64 " E%u %s %s -> %s", r->time, r->rec_id, r->rec, r->from, r->to);
    for (uint32_t i = 0; i < r->nwords; i++)
        fprintf(f, " %08x", r->words[r->nwords - 1 - i]);
    fputc('\n', f);
}

int cmd_sim(int argc, char **argv)
{
    struct ibe_sim_opts o;
    memset(&o, 0, sizeof o);
    o.seed = 1;
    o.messages = 1000;
    o.max_size = 4096;
    o.transport = IBE_RC;
    o.pmtu = 1024;
    const char *wpath = NULL, *tpath = NULL;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--list-faults")) {
            for (int j = 1; j < argc; j++)
                if (!strcmp(argv[j], "--markdown"))
                    return list_faults_md();
            return list_faults();
        }
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--list-choices")) {
            /* the open choices (choices.h): name, statement, side, the
             * fault whose traffic shows it, what it does; tab-separated */
            for (unsigned k = 0; k < IBE_CHOICE_COUNT; k++)
                printf("%s\t%s\t%s\t%s\t%s\n", ibe_choice_table[k].name,
                       ibe_choice_table[k].statement,
                       ibe_fault_side_name(ibe_choice_table[k].side),
                       ibe_choice_table[k].traffic, ibe_choice_table[k].what);
            return TOOL_EXIT_OK;
        }
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--cm"))
            return cmd_sim_cm(argc, argv);
    uint32_t variants = 0;
    struct sim_own so = {&o, &tpath, &variants};
    const struct sim_cli cli = {
        "ibwire sim", usage, NULL,
        {&o.seed, &o.drop, &o.dup, &o.reorder, &o.corrupt, &o.framing, &wpath},
        sim_own_opt, &so, sim_opts, NULL};
    int done = sim_cli_parse(&cli, argc, argv);
    if (done >= 0)
        return done;
    if (variants) {
        if (!o.faults || (o.faults & (o.faults - 1)) || o.traffic_of || wpath || tpath) {
            fprintf(stderr, "ibwire sim: --variants takes one --fault and no "
                            "--traffic-of, -w or --trace\n");
            return TOOL_EXIT_USAGE;
        }
        return sim_variants_run((unsigned)__builtin_ctzll(o.faults), o.seed, variants);
    }
    uint32_t allowed = o.transport == IBE_RC ? 0x7F : o.transport == IBE_UC ? 0x0F : 0x03;
    if (o.ops && (o.ops & ~allowed)) {
        fprintf(stderr, "ibwire sim: --ops names an operation the transport lacks\n");
        return TOOL_EXIT_USAGE;
    }
    struct sim_tap tp = {NULL, 0};
    FILE *tf = NULL;
    if (wpath) {
        if (sim_tap_open(&tp, wpath, o.framing, "ibwire sim"))
            return TOOL_EXIT_USAGE;
        o.tap = sim_tap_frame;
        o.tap_ctx = &tp;
    }
    if (tpath) {
        tf = fopen(tpath, "w");
        if (!tf) {
            fprintf(stderr, "ibwire sim: cannot write %s\n", tpath);
            if (tp.w)
                cap_writer_close(tp.w);
            return TOOL_EXIT_USAGE;
        }
        o.trace = on_trace;
        o.trace_ctx = tf;
    }
    struct ibe_sim_result r;
    int rc = ibe_sim_run(&o, &r);
    if (sim_tap_close(&tp, wpath, "ibwire sim"))
        rc = 1;
    if (tf)
        fclose(tf);
    if (rc < 0) {
        fprintf(stderr, "ibwire sim: unusable options\n");
        return TOOL_EXIT_USAGE;
    }
    printf("{\"messages_posted\": %" PRIu64 ", \"completed_ok\": %" PRIu64
           ", \"completed_error\": %" PRIu64 ", \"bytes_posted\": %" PRIu64
           ", \"bytes_verified\": %" PRIu64 ", \"data_mismatches\": %" PRIu64
           ", \"duplicates_delivered\": %" PRIu64 ", \"order_violations\": %" PRIu64
           ", \"lost_messages\": %" PRIu64 ", \"retransmissions\": %" PRIu64
           ", \"timeouts\": %" PRIu64 ", \"rnr_naks\": %" PRIu64
           ", \"seq_naks\": %" PRIu64 ", \"packets_on_wire\": %" PRIu64
           ", \"icrc_drops\": %" PRIu64 ", \"flushed\": %" PRIu64
           ", \"retry_exceeded\": %" PRIu64 ", \"sim_time_ns\": %" PRIu64
           ", \"qp_state\": \"%s\", \"invariants_ok\": %s",
           r.messages_posted, r.completed_ok, r.completed_error, r.bytes_posted,
           r.bytes_verified, r.data_mismatches, r.duplicates_delivered,
           r.order_violations, r.lost_messages, r.retransmissions, r.timeouts,
           r.rnr_naks, r.seq_naks, r.packets_on_wire, r.icrc_drops, r.flushed,
           r.retry_exceeded, r.sim_time_ns, ibe_qp_state_name(r.qp_state),
           r.invariants_ok ? "true" : "false");
    if (r.failure[0])
        printf(", \"failure\": \"%s\"", r.failure);
    if (o.faults) {
        printf(", \"faults\": \"");
        for (unsigned k = 0, n = 0; k < IBE_FAULT_COUNT; k++)
            if (o.faults >> k & 1)
                printf("%s%s", n++ ? "," : "", ibe_fault_table[k].name);
        printf("\", \"fault_stopped\": %s", r.fault_stopped ? "true" : "false");
    }
    printf("}\n");
    /* a fault breaks invariants by design: reported above, not a failure */
    if (o.faults && rc == 1)
        rc = 0;
    return rc ? TOOL_EXIT_FINDINGS : TOOL_EXIT_OK;
}
