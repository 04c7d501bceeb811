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

static void usage(FILE *f)
{
    fprintf(f, "usage: ibwire gen SCENARIO -w FILE\n"
               "       ibwire gen --list | --expect SCENARIO | --all DIR\n");
}

int cmd_gen(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "--list")) {
        for (unsigned f = 0; f < NFAMILIES; f++)
            for (unsigned i = 0; i < families[f]->n; i++)
                printf("%-28s %s\n", families[f]->list[i].name,
                       families[f]->list[i].summary);
        return TOOL_EXIT_OK;
    }
    if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        usage(stdout);
        return TOOL_EXIT_OK;
    }
    if (argc == 3 && !strcmp(argv[1], "--expect")) {
        const struct gen_scenario *sc = find(argv[2]);
        if (!sc || !sc->expect) {
            fprintf(stderr, "ibwire gen: no expected verdict for '%s'\n",
                    argv[2]);
            return TOOL_EXIT_USAGE;
        }
        fputs(sc->expect, stdout);
        return TOOL_EXIT_OK;
    }
    if (argc == 3 && !strcmp(argv[1], "--all")) {
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
    if (argc == 4 && !strcmp(argv[2], "-w")) {
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
