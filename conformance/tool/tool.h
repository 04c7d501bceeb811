/* SPDX-License-Identifier: Apache-2.0 */
/* The `ibwire` command: one binary, one file per subcommand. */
#ifndef IBWIRE_TOOL_H
#define IBWIRE_TOOL_H

/* Exit codes shared by every subcommand. */
enum {
    TOOL_EXIT_OK = 0,       /* done, nothing wrong found */
    TOOL_EXIT_FINDINGS = 1, /* findings, failed invariants */
    TOOL_EXIT_USAGE = 2     /* bad arguments or unreadable input */
};

/* Each subcommand gets argv with argv[0] = its own name. */
int cmd_dump(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_sim(int argc, char **argv);
int cmd_sim_cm(int argc, char **argv); /* ibwire sim --cm (sim_cm.c) */
/* ibwire sim --fault F --variants N (sim_variants.c): fault k's N variants
 * of seed, each run with the fault and as its clean control and judged. */
int sim_variants_run(unsigned k, uint64_t seed, uint32_t n);
int cmd_gen(int argc, char **argv);
int cmd_probe(int argc, char **argv);
int cmd_peer(int argc, char **argv);
int cmd_man(int argc, char **argv); /* ibwire man NAME (tool_doc.c) */

#endif
