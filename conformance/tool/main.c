/* SPDX-License-Identifier: Apache-2.0 */
/* ibwire: dispatch to a subcommand. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "ibwire/base.h"
#include "tool.h"

static const struct {
    const char *name;
    int (*run)(int, char **);
    const char *summary;
} commands[] = {
    {"dump", cmd_dump, "decode a capture field by field (tshark-compatible names)"},
    {"check", cmd_check, "judge a capture against the InfiniBand rules"},
    {"record", cmd_record, "list, describe, pack and unpack engine records"},
    {"sim", cmd_sim, "run two reference engines over a lossy link"},
    {"gen", cmd_gen, "generate a scenario capture from the reference engine"},
    {"probe", cmd_probe, "drive a device with the active conformance suite"},
    {"peer", cmd_peer, "the reference engine on an interface, against Linux's RDMA CM"},
};

static void usage(FILE *out)
{
    fprintf(out, "usage: ibwire COMMAND [ARGS...]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\n'ibwire COMMAND --help' for a command's options.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return TOOL_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(stdout);
        return TOOL_EXIT_OK;
    }
    if (!strcmp(argv[1], "--version")) {
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
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "ibwire: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return TOOL_EXIT_USAGE;
}
