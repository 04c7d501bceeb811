/* SPDX-License-Identifier: Apache-2.0 */
/* ibwire: dispatch to a subcommand. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "ibwire/base.h"
#include "tool.h"
#include "tool_doc.h"

static const struct {
    const char *name;
    int (*run)(int, char **);
    const struct tool_doc *doc;
} commands[] = {
    {"dump", cmd_dump, &doc_dump},
    {"check", cmd_check, &doc_check},
    {"record", cmd_record, &doc_record},
    {"sim", cmd_sim, &doc_sim},
    {"gen", cmd_gen, &doc_gen},
    {"probe", cmd_probe, &doc_probe},
    {"peer", cmd_peer, &doc_peer},
};

const struct tool_doc *const tool_docs[] = {
    &doc_check, &doc_dump, &doc_probe, &doc_sim, &doc_gen, &doc_record,
    &doc_peer, NULL};

enum { MO_HELP = 1, MO_VERSION };

/* ibwire's own options (tool_doc.h): main, --help and ibwire(1). */
const struct tool_opt ibwire_opts[] = {
    {0, "-h", NULL, NULL, NULL, NULL},
    {MO_HELP, "--help", NULL, "print the commands, and exit", NULL, NULL},
    {MO_VERSION, "--version", NULL, "print the version, and exit", NULL, NULL},
    TOOL_OPT_END};

static void usage(FILE *out)
{
    fprintf(out, "usage: ibwire COMMAND [ARGS...]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].doc->summary);
    fprintf(out, "\n'ibwire COMMAND --help' for a command's options; "
                 "'man ibwire-COMMAND' for the whole story.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return TOOL_EXIT_USAGE;
    }
    const struct tool_opt *opt = tool_opt_find(ibwire_opts, argv[1]);
    if (opt && opt->id == MO_HELP) {
        usage(stdout);
        return TOOL_EXIT_OK;
    }
    if (opt && opt->id == MO_VERSION) {
        printf("ibwire %s\n", IBW_VERSION_STRING);
        return TOOL_EXIT_OK;
    }
    /* every engine a command creates takes these latencies: a bad list
     * would only show as engines that cannot be created */
    const char *lat = getenv("IBWIRE_ENGINE_LATENCY"), *at = NULL;
    if (lat && *lat && ibe_engine_apply_latency(NULL, lat, &at)) {
        fprintf(stderr, "ibwire: IBWIRE_ENGINE_LATENCY: '%s' is not documents, "
                        "none or Module=ns\n", at);
        return TOOL_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "man")) /* the man pages; not in the list */
        return cmd_man(argc - 1, argv + 1);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "ibwire: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return TOOL_EXIT_USAGE;
}
