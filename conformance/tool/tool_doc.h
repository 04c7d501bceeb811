/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tool_doc.h - each subcommand's options and documentation, declared once.
 *
 * A subcommand's parser finds every option it accepts through its table
 * (tool_opt_find), `--help` prints the same table, and `ibwire man NAME`
 * writes the subcommand's man page ibwire-NAME(1) from it at build time:
 * an option cannot be accepted and undocumented, or documented and unknown
 * to the parser.  Adding an option is one line in the table and one case
 * in the command's switch.
 */
#ifndef IBWIRE_TOOL_DOC_H
#define IBWIRE_TOOL_DOC_H

#include <stdio.h>

/* One option.  A table ends with an entry whose name is NULL. */
struct tool_opt {
    int id;            /* the command's own code for it (its switch) */
    const char *name;  /* as typed: "--format", "-j" */
    const char *arg;   /* the value's placeholder, NULL for a flag */
    const char *help;  /* one sentence: --help and the man page; NULL: this
                        * name is an alias of the next entry ("-h", "--help") */
    const char *more;  /* further sentences for the man page only, or NULL */
    const char *const *choices; /* NULL-terminated values listed after help */
};

/* The table entries every command has: -h and --help, and the end. */
#define TOOL_OPT_HELP(id)                                                   \
    {0, "-h", NULL, NULL, NULL, NULL},                                      \
    {(id), "--help", NULL, "print the usage and the options, and exit",     \
     NULL, NULL}
#define TOOL_OPT_END {0, NULL, NULL, NULL, NULL, NULL}

/* Options under one heading (the man page's OPTIONS has one per group). */
struct tool_opt_group {
    const char *title; /* NULL: the plain OPTIONS section */
    const struct tool_opt *opts;
};

enum { TOOL_DOC_GROUPS = 3 };

/*
 * A subcommand's documentation.  Prose fields are plain text: paragraphs
 * separated by an empty line; a paragraph whose lines start with four
 * spaces is an example shown as typed; one starting "- " is a bullet;
 * `code` is set in bold in the man page.  Only the man page shows the
 * prose; --help shows the synopsis, the intro and the options.
 */
struct tool_doc {
    const char *name;     /* "check"; "" for ibwire(1) itself */
    const char *summary;  /* one line: the command list and NAME */
    const char *synopsis; /* lines after "ibwire NAME", '\n' between */
    const char *intro;    /* --help's paragraph under the synopsis, or NULL */
    struct tool_opt_group groups[TOOL_DOC_GROUPS];
    const char *const *description; /* paragraphs, NULL-terminated (C caps
                                     * a string literal at 4095 bytes) */
    const char *exit_status;
    const char *examples;
    const char *see_also; /* comma-separated names: "ibwire-dump(1), ..." */
};

/* The entry of opts named a (exact match; an alias gives its option), or
 * NULL. */
const struct tool_opt *tool_opt_find(const struct tool_opt *opts, const char *a);

/* The same over every group of d. */
const struct tool_opt *tool_doc_find(const struct tool_doc *d, const char *a);

/* The --help text: synopsis, intro, options. */
void tool_doc_help(const struct tool_doc *d, FILE *out);

/* The man page in roff (man(7) macros). */
void tool_doc_man(const struct tool_doc *d, FILE *out);

/* The documentation of every subcommand (tool_docs.c), NULL-terminated. */
extern const struct tool_doc *const tool_docs[];
extern const struct tool_doc tool_doc_ibwire;

extern const struct tool_doc doc_dump, doc_check, doc_record, doc_sim,
    doc_gen, doc_probe, doc_peer;

/* The option tables, each beside its parser (cmd_*.c, sim_opts.c). */
extern const struct tool_opt dump_opts[], check_opts[], check_live_opts[],
    record_actions[], sim_opts[], sim_cm_opts[], sim_list_opts[], gen_opts[],
    probe_opts[], probe_target_opts[], peer_opts[], ibwire_opts[];

#endif
