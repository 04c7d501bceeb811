/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sim_variants.c - `ibwire sim --fault F --variants N [--seed S]`: the fault
 * mode F as a family of bugs rather than one shape.  Variant i draws, from
 * seed S and i alone, everything the fault's statement leaves free: the
 * operation mix (the operations the fault applies to always among them),
 * single- and multi-packet messages (max size and PMTU), the transport
 * when the fault is not RC-only, the number of messages, where the fault's
 * special message and chosen loss fall in the flow (so the PSN it strikes
 * is a message's first, a middle or its last), and loss, duplication and
 * reordering around it or none.  Each variant runs twice: with the fault
 * and as its clean control (the same options with --traffic-of), and
 * `ibwire check` (--replay for the faults the table judges by replay)
 * judges both captures.  A variant is caught when the fault's capture
 * draws the table's rule; its control is clean when it draws nothing but
 * what the traffic carries by design.  Every variant is printed as the
 * `ibwire sim` command that reproduces it.  Exit 0 when every variant the
 * fault changed was caught and every control is clean, 1 otherwise.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cm_sim.h"
#include "gen.h"
#include "sim.h"
#include "sim_opts.h"
#include "tool.h"

/* Rules the clean control may draw because its traffic breaks them by
 * design, fault or not (the link corrupts, cuts or shortens frames). */
static const struct { const char *fault, *rules; } clean_allowed[] = {
    {"icrc-small-unchecked", " PKT-ICRC "},
    {"runt-accept", " PKT-MALFORMED "},
    {"len-check-off", " PKT-LEN-FULL FLOW-WRITE-LEN FLOW-RETRANS-DIFF "},
};

static const char *allowed_for(const char *fault)
{
    for (size_t i = 0; i < sizeof clean_allowed / sizeof clean_allowed[0]; i++)
        if (!strcmp(clean_allowed[i].fault, fault))
            return clean_allowed[i].rules;
    return " ";
}

/* splitmix64: variant i's own stream, from (seed, i) only */
static uint64_t mix(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* The operations (IBE_OPM_*) the fault's traffic must contain to show it. */
static uint32_t needed_ops(uint32_t t)
{
    uint32_t m = 0;
    if (t & (IBE_FT_READS | IBE_FT_LOSS_READ | IBE_FT_ZLREAD))
        m |= IBE_OPM_READ;
    if (t & IBE_FT_LOSS_ATOMIC)
        m |= IBE_OPM_CAS | IBE_OPM_FAA;
    if (t & (IBE_FT_RNR | IBE_FT_RUNT | IBE_FT_CORRUPT))
        m |= IBE_OPM_SEND;
    if (t & (IBE_FT_LOSS | IBE_FT_SHORT))
        m |= IBE_OPM_SEND | IBE_OPM_WRITE;
    return m;
}

/* A fault judged per packet (PKT-*: framing, CRCs) applies to every
 * transport; the rest are statements of RC's reliable protocol. */
static int rc_only(const struct ibe_fault_info *f)
{
    return strncmp(f->rule, "PKT-", 4) != 0 || f->traffic != 0 ||
           f->side == IBE_FS_RESP; /* UC and UD send no responses */
}

static void ops_str(uint32_t m, char *buf, size_t len)
{
    static const char *n[7] = {"send", "send_imm", "write", "write_imm",
                               "read", "cas", "faa"};
    size_t o = 0;
    buf[0] = 0;
    for (int k = 0; k < 7; k++)
        if (m >> k & 1)
            o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? "," : "", n[k]);
}

/* Variant i of fault k: sim options (or CM options for IBE_FT_CM faults),
 * and the command line that reproduces it in cmd. */
static void make_variant(unsigned k, uint64_t seed, uint32_t i,
                         struct ibe_sim_opts *so, struct cmx_sim_opts *co,
                         char *cmd, size_t clen)
{
    const struct ibe_fault_info *f = &ibe_fault_table[k];
    uint64_t x = seed * 0xD1B54A32D192ED03ull + i;
    uint64_t vseed = mix(&x) & 0xFFFFFFFFull;
    int lossy = (int)(mix(&x) % 3) == 0; /* a third with loss around the fault */
    double drop = lossy ? 0.002 * (double)(1 + mix(&x) % 5) : 0;
    double dup = lossy && mix(&x) % 2 ? 0.005 : 0;
    double reorder = lossy && mix(&x) % 2 ? 0.005 : 0;
    if (f->traffic & IBE_FT_CM) {
        gen_fault_cm_opts(k, co);
        co->seed = vseed;
        co->msg_size = 256u << (mix(&x) % 6); /* 256 .. 8192 */
        co->drop = drop;
        co->dup = dup;
        co->reorder = reorder;
        snprintf(cmd, clen, "ibwire sim --cm --fault %s --seed %" PRIu64
                 " --conns 1 --size %" PRIu32 " --cm-retries 3 --cm-timeout 16"
                 " --drop %g --dup %g --reorder %g", f->name, vseed,
                 co->msg_size, drop, dup, reorder);
        return;
    }
    gen_fault_sim_opts(k, so);
    so->seed = vseed;
    so->messages = 40 + (uint32_t)(mix(&x) % 200);
    so->pmtu = 256u << (mix(&x) % 5);
    /* single-packet messages only, or up to 1..4 PMTUs */
    uint32_t span = (uint32_t)(mix(&x) % 5);
    /* a lost or cut MIDDLE needs messages of three packets at least */
    if ((f->traffic & (IBE_FT_LOSS | IBE_FT_SHORT)) && span < 3)
        span = 3 + span % 2;
    so->max_size = span ? so->pmtu * span : so->pmtu / 2;
    if (!rc_only(f))
        so->transport = (uint8_t)(mix(&x) % 3); /* IBE_RC, IBE_UC, IBE_UD */
    uint32_t all = so->transport == IBE_RC ? 0x7F : so->transport == IBE_UC ? 0x0F : 0x03;
    uint32_t need = needed_ops(f->traffic) & all;
    uint32_t pick = (uint32_t)mix(&x) & all;
    /* an operation it needs, at random, and a random rest */
    if (need) {
        uint32_t nn = (uint32_t)__builtin_popcount(need), j = (uint32_t)(mix(&x) % nn);
        for (uint32_t b = need; b; b &= b - 1)
            if (!j--)
                pick |= b & -b;
    }
    so->ops = pick ? pick : all;
    if (so->ops == all)
        so->ops = 0;
    if (so->transport == IBE_RC && so->ops && !(so->ops & (IBE_OPM_SEND | IBE_OPM_SEND_IMM |
                                                         IBE_OPM_WRITE | IBE_OPM_WRITE_IMM)))
        so->ops |= IBE_OPM_WRITE; /* something a READ can be told apart from */
    if ((f->traffic & (IBE_FT_READS | IBE_FT_LOSS_READ)) && so->max_size < 2 * so->pmtu)
        so->max_size = so->pmtu * (2 + (uint32_t)(mix(&x) % 3)); /* multi-packet READs */
    if (so->max_size > 16384)
        so->max_size = 16384;
    so->fault_at = so->messages / 8 + (uint32_t)(mix(&x) % (so->messages * 3 / 4));
    so->loss_nth = 1 + (uint32_t)(mix(&x) % 4);
    so->drop = drop;
    so->dup = dup;
    so->reorder = reorder;
    char ops[80];
    ops_str(so->ops ? so->ops : all, ops, sizeof ops);
    snprintf(cmd, clen, "ibwire sim --fault %s --seed %" PRIu64 " --messages %" PRIu32
             " --transport %s --ops %s --pmtu %" PRIu32 " --max-size %" PRIu32
             " --fault-at %" PRIu32 " --loss-nth %" PRIu32
             " --drop %g --dup %g --reorder %g",
             f->name, vseed, so->messages,
             so->transport == IBE_RC ? "rc" : so->transport == IBE_UC ? "uc" : "ud",
             ops, so->pmtu, so->max_size, so->fault_at, so->loss_nth, drop, dup, reorder);
}

struct vtap { struct sim_tap t; };

/* Runs the variant with the fault (faulty) or as its control into path:
 * 0, or -1 when the run could not be made or written. */
static int run_one(unsigned k, int faulty, const struct ibe_sim_opts *so0,
                   const struct cmx_sim_opts *co0, const char *path)
{
    const struct ibe_fault_info *f = &ibe_fault_table[k];
    struct sim_tap tp = {NULL, 0};
    int rc;
    if (f->traffic & IBE_FT_CM) {
        struct cmx_sim_opts co = *co0;
        struct cmx_sim_result r;
        if (!faulty)
            co.faults[0] = co.faults[1] = 0;
        if (sim_tap_open(&tp, path, co.framing, "ibwire sim"))
            return -1;
        co.tap = sim_tap_frame;
        co.tap_ctx = &tp;
        rc = cmx_sim_run(&co, &r) < 0 ? -1 : 0;
    } else {
        struct ibe_sim_opts so = *so0;
        struct ibe_sim_result r;
        if (!faulty) {
            so.traffic_of = so.faults;
            so.faults = 0;
        }
        if (sim_tap_open(&tp, path, so.framing, "ibwire sim"))
            return -1;
        so.tap = sim_tap_frame;
        so.tap_ctx = &tp;
        rc = ibe_sim_run(&so, &r) < 0 ? -1 : 0;
    }
    if (sim_tap_close(&tp, path, "ibwire sim"))
        rc = -1;
    return rc;
}

/* Adds id (n bytes) to the set " ID ID ... " in set (room len), once. */
static void set_add(char *set, size_t len, const char *id, size_t n)
{
    char key[70];
    if (n + 3 > sizeof key)
        return;
    snprintf(key, sizeof key, " %.*s ", (int)n, id);
    size_t o = strlen(set);
    if (!strstr(set, key) && o + n + 2 < len)
        snprintf(set + o, len - o, "%.*s ", (int)n, id);
}

/* The rule IDs `ibwire check` reports on path, as " ID ID ... " (each
 * once): every one in all, those of severity error in errs.  0, or -1
 * when the checker could not judge it. */
static int judge(const char *path, int replay, char *all, char *errs, size_t len)
{
    char self[400], cmd[1000];
    ssize_t sl = readlink("/proc/self/exe", self, sizeof self - 1);
    if (sl <= 0)
        return -1;
    self[sl] = 0;
    if (strchr(self, '\'') || strchr(path, '\''))
        return -1;
    snprintf(cmd, sizeof cmd, "'%s' check --format json%s '%s'", self,
             replay ? " --replay" : "", path);
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    char line[4096];
    strcpy(all, " ");
    strcpy(errs, " ");
    while (fgets(line, sizeof line, p)) {
        const char *r = strstr(line, "\"rule\": \"");
        if (!r)
            continue;
        r += 9;
        size_t n = strcspn(r, "\"");
        set_add(all, len, r, n);
        if (strstr(line, "\"severity\": \"error\""))
            set_add(errs, len, r, n);
    }
    int st = pclose(p);
    return st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) > 1 ? -1 : 0;
}

static int same_file(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    int same = fa && fb;
    while (same) {
        int ca = getc(fa), cb = getc(fb);
        if (ca != cb)
            same = 0;
        if (ca == EOF || cb == EOF)
            break;
    }
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    return same;
}

/* The rules of have not in allowed, as "A B" (empty when none). */
static void extra_rules(const char *have, const char *allowed, char *out, size_t len)
{
    size_t o = 0;
    out[0] = 0;
    const char *p = have;
    while (*p) {
        while (*p == ' ')
            p++;
        size_t n = strcspn(p, " ");
        if (!n)
            break;
        char key[70];
        snprintf(key, sizeof key, " %.*s ", (int)n, p);
        if (!strstr(allowed, key) && o + n + 2 < len)
            o += (size_t)snprintf(out + o, len - o, "%s%.*s", o ? " " : "", (int)n, p);
        p += n;
    }
}

int sim_variants_run(unsigned k, uint64_t seed, uint32_t n)
{
    const struct ibe_fault_info *f = &ibe_fault_table[k];
    int decided = strcmp(f->rule, "-") != 0, replay = f->needs == IBE_FN_REPLAY;
    char dir[] = "/tmp/ibwire-variants-XXXXXX";
    if (!mkdtemp(dir)) {
        fprintf(stderr, "ibwire sim: cannot make a temporary directory\n");
        return TOOL_EXIT_USAGE;
    }
    char fpath[64], cpath[64];
    snprintf(fpath, sizeof fpath, "%s/fault.pcap", dir);
    snprintf(cpath, sizeof cpath, "%s/clean.pcap", dir);
    printf("fault %s (zoo row %s, %s): rule %s%s, %" PRIu32 " variants of seed %" PRIu64 "\n",
           f->name, f->zoo, ibe_fault_side_name(f->side), decided ? f->rule : "none",
           decided && replay ? " (judged by check --replay)" : "", n, seed);
    if (!decided)
        printf("  not decidable from a capture (faults.h says why): the variants "
               "are run and their clean controls judged; no rule is expected\n");
    uint32_t caught = 0, missed = 0, unchanged = 0, clean = 0, dirty = 0, failed = 0;
    for (uint32_t i = 0; i < n; i++) {
        struct ibe_sim_opts so;
        struct cmx_sim_opts co;
        char cmd[400], fr[2048], fe[2048], cr[2048], ce[2048], extra[2048];
        make_variant(k, seed, i, &so, &co, cmd, sizeof cmd);
        printf("variant %" PRIu32 ": %s\n", i, cmd);
        const char *step = run_one(k, 1, &so, &co, fpath) ? "run with the fault"
                           : run_one(k, 0, &so, &co, cpath) ? "run as the control"
                           : judge(fpath, replay, fr, fe, sizeof fr) ? "judge the fault's capture"
                           : judge(cpath, replay, cr, ce, sizeof cr) ? "judge the control's capture"
                                                                 : NULL;
        if (step) {
            printf("  error: could not %s\n", step);
            failed++;
            continue;
        }
        const char *verdict;
        char key[70];
        snprintf(key, sizeof key, " %s ", f->rule);
        if (same_file(fpath, cpath)) {
            verdict = "the fault did not fire (capture identical to the control)";
            unchanged++;
        } else if (!decided) {
            verdict = "not decidable";
        } else if (strstr(fr, key)) {
            verdict = "caught";
            caught++;
        } else {
            verdict = "MISSED";
            missed++;
        }
        /* clean: no error but those the traffic carries by design (the
         * vantage notes loss around the variant draws are warnings) */
        extra_rules(ce, allowed_for(f->name), extra, sizeof extra);
        if (extra[0])
            dirty++;
        else
            clean++;
        printf("  fault: %s (drew%s)\n  control: %s%s (drew%s)\n", verdict,
               fr[1] ? fr : " nothing", extra[0] ? "NOT CLEAN: " : "clean", extra,
               cr[1] ? cr : " nothing");
    }
    remove(fpath);
    remove(cpath);
    rmdir(dir);
    printf("summary %s: %" PRIu32 " variants, %" PRIu32 " caught, %" PRIu32
           " missed, %" PRIu32 " unchanged by the fault, %" PRIu32 " controls clean, %"
           PRIu32 " not clean, %" PRIu32 " not run%s\n", f->name, n, caught, missed,
           unchanged, clean, dirty, failed, decided ? "" : " (not decidable)");
    return missed || dirty || failed ? TOOL_EXIT_FINDINGS : TOOL_EXIT_OK;
}
