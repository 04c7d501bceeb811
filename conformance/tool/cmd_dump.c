/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ibwire dump: decode a capture frame by frame.
 *
 *   ibwire dump [-T text|fields|json] [-e FIELD]... [-E header=y|n]
 *               [-E separator=C] [-E aggregator=C] [-c COUNT] FILE
 *   ibwire dump --list-fields
 *
 * -T fields prints one line per frame, the -e fields separated by tabs,
 * each formatted as tshark 4.0 prints it (see dump_fields.c).  Every frame
 * is parsed in full and its ICRC/VCRC verified, whatever fields are asked.
 * A frame that does not decode is reported on stderr (frame number, header,
 * field) and the dump goes on.  Exit 0 when the file was read through, 2
 * when it could not be opened or is damaged, or on bad arguments.
 */
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "dump.h"
#include "dump_view.h"
#include "tool.h"
#include "tool_doc.h"

enum dump_mode { MODE_TEXT, MODE_FIELDS, MODE_JSON };

#define MAX_FIELDS 1024 /* --list-fields has over 300 names */

struct dump_opts {
    enum dump_mode mode;
    const struct dump_field *fields[MAX_FIELDS];
    size_t nfields;
    int header;
    char separator;
    char aggregator;
    uint64_t max_frames; /* 0: all */
    const char *path;
};

/* The options (tool_doc.h): parse_args, --help and ibwire-dump(1). */
enum { DO_HELP = 1, DO_LIST, DO_MODE, DO_FIELD, DO_E, DO_COUNT, DO_READ };

const struct tool_opt dump_opts[] = {
    {DO_MODE, "-T", "text|fields|json",
     "text (default): every header field; fields: the -e fields one line per "
     "frame, as tshark prints them; json: one object per frame (with -e: "
     "just those fields)", NULL, NULL},
    {DO_FIELD, "-e", "FIELD",
     "a field to print, by its Wireshark name (repeat for more; "
     "--list-fields lists them)",
     "A field a frame lacks prints as nothing; several occurrences (stacked "
     "VLAN tags) are joined by the aggregator.", NULL},
    {DO_E, "-E", "header=y|n|separator=C|aggregator=C",
     "as tshark's -E: a header line of field names, the character between "
     "fields (default tab), the one between occurrences (default ',')",
     "`/t` and `/s` spell a tab and a space.", NULL},
    {DO_COUNT, "-c", "COUNT", "stop after COUNT frames", NULL, NULL},
    {DO_READ, "-r", "FILE", "the capture (as tshark's -r; or just FILE)",
     NULL, NULL},
    {DO_LIST, "--list-fields", NULL,
     "list every field name with its description, and exit", NULL, NULL},
    TOOL_OPT_HELP(DO_HELP),
    TOOL_OPT_END};

static void usage(FILE *f)
{
    tool_doc_help(&doc_dump, f);
}

static void list_one(const struct dump_field *f, void *arg)
{
    fprintf((FILE *)arg, "%-40s %s\n", f->name, f->desc);
}

/* "/t" and "/s" as tshark spells tab and space. */
static int parse_char(const char *s, char *out)
{
    if (!strcmp(s, "/t")) {
        *out = '\t';
        return 0;
    }
    if (!strcmp(s, "/s")) {
        *out = ' ';
        return 0;
    }
    if (strlen(s) != 1)
        return -1;
    *out = s[0];
    return 0;
}

static int parse_E(struct dump_opts *o, const char *arg)
{
    const char *eq = strchr(arg, '=');
    if (!eq)
        return -1;
    size_t kl = (size_t)(eq - arg);
    const char *v = eq + 1;
    if (kl == 6 && !strncmp(arg, "header", 6)) {
        if (strcmp(v, "y") && strcmp(v, "n"))
            return -1;
        o->header = v[0] == 'y';
        return 0;
    }
    if (kl == 9 && !strncmp(arg, "separator", 9))
        return parse_char(v, &o->separator);
    if (kl == 10 && !strncmp(arg, "aggregator", 10))
        return parse_char(v, &o->aggregator);
    return -1;
}

/* 0 ok, 1 done (--help, --list-fields), -1 bad arguments (reported). */
static int parse_args(int argc, char **argv, struct dump_opts *o)
{
    o->mode = MODE_TEXT;
    o->separator = '\t';
    o->aggregator = ',';
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        const struct tool_opt *opt = tool_opt_find(dump_opts, a);
        if (!opt && a[0] == '-' && a[1]) {
            fprintf(stderr, "ibwire dump: unknown option %s\n", a);
            usage(stderr);
            return -1;
        }
        if (!opt) {
            if (o->path) {
                fprintf(stderr, "ibwire dump: one capture file at a time\n");
                return -1;
            }
            o->path = a;
            continue;
        }
        if (opt->arg && !v) {
            fprintf(stderr, "ibwire dump: %s needs a value\n", a);
            return -1;
        }
        switch (opt->id) {
        case DO_HELP:
            usage(stdout);
            return 1;
        case DO_LIST:
            dump_field_each(list_one, stdout);
            return 1;
        case DO_MODE:
            if (!strcmp(v, "text"))
                o->mode = MODE_TEXT;
            else if (!strcmp(v, "fields"))
                o->mode = MODE_FIELDS;
            else if (!strcmp(v, "json"))
                o->mode = MODE_JSON;
            else {
                fprintf(stderr, "ibwire dump: -T %s: use text, fields or json\n",
                        v);
                return -1;
            }
            break;
        case DO_FIELD: {
            const struct dump_field *f = dump_field_find(v);
            if (!f) {
                fprintf(stderr,
                        "ibwire dump: -e %s: no such field "
                        "(ibwire dump --list-fields)\n",
                        v);
                return -1;
            }
            if (o->nfields == MAX_FIELDS) {
                fprintf(stderr, "ibwire dump: more than %d -e fields\n",
                        MAX_FIELDS);
                return -1;
            }
            o->fields[o->nfields++] = f;
            break;
        }
        case DO_E:
            if (parse_E(o, v) != 0) {
                fprintf(stderr,
                        "ibwire dump: -E %s: use header=y|n, separator=C or "
                        "aggregator=C\n",
                        v);
                return -1;
            }
            break;
        case DO_COUNT: {
            char *end;
            o->max_frames = strtoull(v, &end, 10);
            if (*end || !*v) {
                fprintf(stderr, "ibwire dump: -c %s: not a number\n", v);
                return -1;
            }
            break;
        }
        case DO_READ:
            o->path = v;
            break;
        }
        if (opt->arg)
            i++; /* the option's value */
    }
    if (!o->path) {
        usage(stderr);
        return -1;
    }
    if (o->mode == MODE_FIELDS && o->nfields == 0) {
        fprintf(stderr, "ibwire dump: -T fields needs at least one -e FIELD\n");
        return -1;
    }
    return 0;
}

static void print_fields_header(struct dump_out *out, const struct dump_opts *o)
{
    for (size_t i = 0; i < o->nfields; i++) {
        if (i)
            dump_out_char(out, o->separator);
        dump_out_str(out, o->fields[i]->name);
    }
    dump_out_char(out, '\n');
}

static void print_fields(struct dump_out *out, const struct dump_opts *o,
                         const struct dump_frame *fr)
{
    struct dump_val v[DUMP_MAX_OCC];
    for (size_t i = 0; i < o->nfields; i++) {
        if (i)
            dump_out_char(out, o->separator);
        const struct dump_field *f = o->fields[i];
        unsigned n = dump_field_get(f, fr, v);
        for (unsigned j = 0; j < n; j++) {
            if (j)
                dump_out_char(out, o->aggregator);
            dump_out_value(out, (enum dump_type)f->type, &v[j]);
        }
    }
    dump_out_char(out, '\n');
}

/* -T json with -e: {"name": "value" or ["v1", "v2"], ...}, absent fields
 * left out, values as strings like tshark -T json. */
static void print_json_fields(struct dump_out *out, const struct dump_opts *o,
                              const struct dump_frame *fr)
{
    struct dump_val v[DUMP_MAX_OCC];
    int first = 1;
    dump_out_char(out, '{');
    for (size_t i = 0; i < o->nfields; i++) {
        const struct dump_field *f = o->fields[i];
        unsigned n = dump_field_get(f, fr, v);
        if (!n)
            continue;
        if (!first)
            dump_out_char(out, ',');
        first = 0;
        dump_out_json_str(out, f->name);
        dump_out_char(out, ':');
        if (n > 1)
            dump_out_char(out, '[');
        for (unsigned j = 0; j < n; j++) {
            if (j)
                dump_out_char(out, ',');
            if (f->type == DT_STRING) {
                dump_out_json_str(out, v[j].s ? v[j].s : "");
            } else {
                dump_out_char(out, '"');
                dump_out_value(out, (enum dump_type)f->type, &v[j]);
                dump_out_char(out, '"');
            }
        }
        if (n > 1)
            dump_out_char(out, ']');
    }
    dump_out_str(out, "}\n");
}

int cmd_dump(int argc, char **argv)
{
    struct dump_opts o;
    memset(&o, 0, sizeof o);
    int pr = parse_args(argc, argv, &o);
    if (pr)
        return pr > 0 ? TOOL_EXIT_OK : TOOL_EXIT_USAGE;

    char err[1024];
    struct cap_reader *r = cap_open(o.path, err, sizeof err);
    if (!r) {
        fprintf(stderr, "ibwire dump: %s\n", err);
        return TOOL_EXIT_USAGE;
    }
    struct dump_out *out = malloc(sizeof *out);
    if (!out) {
        cap_close(r);
        fprintf(stderr, "ibwire dump: out of memory\n");
        return TOOL_EXIT_USAGE;
    }
    out->f = stdout;
    out->n = 0;
    out->failed = 0;
    if (o.mode == MODE_FIELDS && o.header)
        print_fields_header(out, &o);

    struct cap_frame cf;
    struct ibw_pkt pkt;
    struct dump_frame fr;
    int rc = 0;
    uint64_t seen = 0, unrecorded_cuts = 0, first_unrecorded = 0;
    while ((o.max_frames == 0 || seen < o.max_frames) &&
           (rc = cap_next(r, &cf)) == 1) {
        seen++;
        switch (dump_frame_read(&fr, &cf, &pkt)) {
        case DUMP_FRAME_OK: break;
        case DUMP_FRAME_CUT_UNRECORDED:
            /* cuts the file does not record are said once, at the end */
            if (!unrecorded_cuts++)
                first_unrecorded = cf.number;
            break;
        case DUMP_FRAME_ERROR:
            dump_out_flush(out); /* keep stdout and stderr in order */
            fflush(stdout);
            fprintf(stderr, "ibwire dump: %s: frame %llu: %s\n", o.path,
                    (unsigned long long)cf.number, fr.err);
            break;
        }
        switch (o.mode) {
        case MODE_FIELDS: print_fields(out, &o, &fr); break;
        case MODE_JSON:
            if (o.nfields)
                print_json_fields(out, &o, &fr);
            else
                dump_view_json(out, &fr);
            break;
        case MODE_TEXT: dump_view_text(out, &fr); break;
        }
    }
    dump_out_flush(out);
    int write_failed = out->failed || fflush(stdout) != 0;
    if (unrecorded_cuts)
        fprintf(stderr,
                "ibwire dump: %s: %llu frame%s (the first: frame %llu) end%s "
                "before %s length fields say, although the file records %s "
                "whole: cut by a capture tool that wrote the cut length as "
                "the original length\n",
                o.path, (unsigned long long)unrecorded_cuts,
                unrecorded_cuts == 1 ? "" : "s",
                (unsigned long long)first_unrecorded,
                unrecorded_cuts == 1 ? "s" : "",
                unrecorded_cuts == 1 ? "its" : "their",
                unrecorded_cuts == 1 ? "it" : "them");
    free(out);
    int status = TOOL_EXIT_OK;
    if (rc < 0) {
        fprintf(stderr, "ibwire dump: %s\n", cap_error(r));
        status = TOOL_EXIT_USAGE;
    }
    if (write_failed) {
        fprintf(stderr, "ibwire dump: write error on standard output\n");
        status = TOOL_EXIT_USAGE;
    }
    cap_close(r);
    return status;
}
