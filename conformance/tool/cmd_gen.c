/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ibwire gen: write a scenario's capture.
 *
 *   ibwire gen --list
 *   ibwire gen SCENARIO -w FILE        (pcap; pcapng when FILE ends .pcapng)
 *   ibwire gen --expect SCENARIO       (print its expected check verdict)
 *   ibwire gen --all DIR               (every scenario to DIR/NAME.pcap and,
 *                                       where declared, DIR/NAME.expect;
 *                                       not the fault modes' bug-NAME: they
 *                                       are not bundled in pcaps/)
 *
 * Scenarios come from families, one file each (gen.h); output is
 * byte-for-byte reproducible.  Exit 0 done, 2 bad arguments or I/O error.
 */
#include <stdio.h>
#include <string.h>

#include "gen.h"
#include "tool.h"
#include "tool_doc.h"

/* The scenario families; each adds one line here. */
static const struct gen_family *const families[] = {
    &gen_violation_family,
    &gen_engine_family,
    &gen_vantage_family,
    &gen_a17_family,
    &gen_fault_family,
};

#define NFAMILIES (sizeof families / sizeof families[0])

void gen_put_raw(struct gen_out *o, const uint8_t *frame, size_t len)
{
    if (cap_write(o->w, o->ts_ns, frame, len, NULL))
        o->err = 1;
    o->frames++;
    o->ts_ns += o->step_ns;
}

void gen_put(struct gen_out *o, const struct ibw_build_spec *s)
{
    static uint8_t buf[16384];
    size_t len = 0;
    int e = ibw_build(s, buf, sizeof buf, &len);
    if (e != IBW_OK) {
        fprintf(stderr, "ibwire gen: frame %llu: %s\n",
                (unsigned long long)o->frames + 1, ibw_strerror(e));
        o->err = 1;
        return;
    }
    gen_put_raw(o, buf, len);
}

static const struct gen_scenario *find(const char *name)
{
    for (unsigned f = 0; f < NFAMILIES; f++)
        for (unsigned i = 0; i < families[f]->n; i++)
            if (!strcmp(families[f]->list[i].name, name))
                return &families[f]->list[i];
    return NULL;
}

static int has_suffix(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && !strcmp(s + a - b, suf);
}

static int write_one(const struct gen_scenario *sc, const char *path)
{
    char err[512];
    enum cap_file_format fmt =
        has_suffix(path, ".pcapng") ? CAP_FORMAT_PCAPNG : CAP_FORMAT_PCAP;
    struct gen_out o = {NULL, GEN_START_NS, 10000, 0, 0};
    o.w = cap_writer_open(path, fmt, sc->linktype, err, sizeof err);
    if (!o.w) {
        fprintf(stderr, "ibwire gen: %s\n", err);
        return TOOL_EXIT_USAGE;
    }
    sc->run(&o);
    if (cap_writer_close(o.w) || o.err) {
        fprintf(stderr, "ibwire gen: %s: could not write every frame\n", path);
        return TOOL_EXIT_USAGE;
    }
    return TOOL_EXIT_OK;
}

/* The options (tool_doc.h): cmd_gen, --help and ibwire-gen(1). */
enum { GO_HELP = 1, GO_LIST, GO_EXPECT, GO_ALL, GO_WRITE };

const struct tool_opt gen_opts[] = {
    {GO_WRITE, "-w", "FILE",
     "after SCENARIO: write its capture to FILE (pcap)", NULL, NULL},
    {GO_LIST, "--list", NULL, "list the scenarios, each with a line on what "
     "it shows", NULL, NULL},
    {GO_EXPECT, "--expect", "SCENARIO",
     "print the verdict `ibwire check` must give on the scenario's capture",
     NULL, NULL},
    {GO_ALL, "--all", "DIR",
     "write every scenario's capture and expected verdict to DIR (as "
     "pcaps/ holds them), the bug-NAME captures excepted", NULL, NULL},
    TOOL_OPT_HELP(GO_HELP),
    TOOL_OPT_END};

static void usage(FILE *f)
{
    tool_doc_help(&doc_gen, f);
}

/* The option argv[k] names when argc is what it takes, else 0. */
static int gen_opt(int argc, char **argv, int k)
{
    const struct tool_opt *o = k < argc ? tool_opt_find(gen_opts, argv[k]) : NULL;
    return o && argc == k + (o->arg ? 2 : 1) ? o->id : 0;
}

int cmd_gen(int argc, char **argv)
{
    int opt = gen_opt(argc, argv, 1);
    if (opt == GO_LIST) {
        for (unsigned f = 0; f < NFAMILIES; f++)
            for (unsigned i = 0; i < families[f]->n; i++)
                printf("%-28s %s\n", families[f]->list[i].name,
                       families[f]->list[i].summary);
        return TOOL_EXIT_OK;
    }
    if (opt == GO_HELP) {
        usage(stdout);
        return TOOL_EXIT_OK;
    }
    if (opt == GO_EXPECT) {
        const struct gen_scenario *sc = find(argv[2]);
        if (!sc || !sc->expect) {
            fprintf(stderr, "ibwire gen: no expected verdict for '%s'\n",
                    argv[2]);
            return TOOL_EXIT_USAGE;
        }
        fputs(sc->expect, stdout);
        return TOOL_EXIT_OK;
    }
    if (opt == GO_ALL) {
        int st = TOOL_EXIT_OK;
        for (unsigned f = 0; f < NFAMILIES; f++)
            for (unsigned i = 0; families[f] != &gen_fault_family &&
                                 i < families[f]->n; i++) {
                const struct gen_scenario *sc = &families[f]->list[i];
                char path[4096];
                snprintf(path, sizeof path, "%s/%s.pcap", argv[2], sc->name);
                if (write_one(sc, path))
                    st = TOOL_EXIT_USAGE;
                if (!sc->expect)
                    continue;
                snprintf(path, sizeof path, "%s/%s.expect", argv[2], sc->name);
                FILE *e = fopen(path, "w");
                if (!e || fprintf(e, "# expected verdict of ibwire check on "
                                     "%s.pcap (ibwire gen --expect)\n%s",
                                  sc->name, sc->expect) < 0 ||
                    fclose(e)) {
                    fprintf(stderr, "ibwire gen: cannot write %s\n", path);
                    st = TOOL_EXIT_USAGE;
                }
            }
        return st;
    }
    if (gen_opt(argc, argv, 2) == GO_WRITE) {
        const struct gen_scenario *sc = find(argv[1]);
        if (!sc) {
            fprintf(stderr, "ibwire gen: unknown scenario '%s' (see --list)\n",
                    argv[1]);
            return TOOL_EXIT_USAGE;
        }
        return write_one(sc, argv[3]);
    }
    usage(stderr);
    return TOOL_EXIT_USAGE;
}
