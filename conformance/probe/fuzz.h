/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz.h - differential fuzzing of a device (`ibwire probe --fuzz`,
 * README.md "Fuzzing"): random stateful episodes written as probe scripts
 * of moves only (frames the probe sends, receives and requests the device
 * posts, stretches of time whose frames are kept), run against the device
 * and against the reference engine in virtual time, judged where the IBA
 * leaves no choice by the engine's outcome and elsewhere by `ibwire
 * check`'s rules, and every divergence shrunk by delta debugging into a
 * probe script with expectations.
 *
 *   fuzz_gen.c    the grammar of moves, the random source, the statement hook
 *   fuzz_judge.c  observing an episode, the oracle, the script of a divergence
 *   fuzz.c        the driver: episodes, minimization, corpus, progress
 */
#ifndef IBW_PROBE_FUZZ_H
#define IBW_PROBE_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "probe.h"

/* ---- the random source: a seeded generator, or the bytes of a libFuzzer
 * input (then every draw takes the next bytes, 0 once they run out) ---- */
struct fz_rng {
    uint64_t s;
    const uint8_t *bytes;
    size_t n, pos;
};
/* Episode `index` of seed `seed`: always the same draws. */
void fz_rng_seed(struct fz_rng *g, uint64_t seed, uint64_t index);
void fz_rng_bytes(struct fz_rng *g, const uint8_t *b, size_t n);
/* 0 .. n-1 (0 when n is 0) */
uint32_t fz_below(struct fz_rng *g, uint32_t n);

/* ---- the statement hook ----
 * Every move of the grammar and every judgement of the oracle has a key
 * ("resp-dup", "judge-memory", ...) that names, by its ID, the IBA
 * statement it provokes or judges in the project's one table of statements
 * (conformance/check/statements.h): the statement's section and the rules
 * that judge it are read from there, never written here.  Only the
 * grammar's weights are the fuzzer's own (fuzz_gen.c); weight 0 never
 * draws the move.  The test statements_refs fails on a key whose statement
 * the table does not have. */
struct ibw_statement_info;
struct fz_key {
    const char *key;
    /* a statements.h ID; "" only for judge-check, whose statement is the
     * one listing the rule `ibwire check` found */
    const char *statement;
    unsigned weight;    /* moves: relative weight in the grammar */
};
/* The statement a key names; NULL for an unknown key and for "". */
const struct ibw_statement_info *fz_statement(const char *key);
/* The keys in table order, NULL past the last (for the tests). */
const struct fz_key *fz_key_at(size_t i);

/* An episode: a probe script of moves (README.md, "Fuzzing": setup and
 * needs, `>`, `recv`, `post`, `~ within=T`, never an expectation).  The
 * script's length, 0 when it did not fit.  `caps`: the PROBE_CAP_*s the
 * device has (moves needing others are not drawn). */
size_t fz_generate(struct fz_rng *g, uint32_t caps, char *out, size_t cap);

/* ---- what a device did in an episode ---- */
struct fz_frame {
    uint8_t dir;          /* 0 probe to device, 1 device to probe */
    int line;             /* the script line it belongs to */
    uint64_t at;          /* target clock, ns */
    size_t len;
    uint8_t *b;
};
#define FZ_MAXCQE 256
#define FZ_MAXLINES 512
struct fz_obs {
    int verdict;          /* the runner's: PASS, or FAIL/ERROR/NA with why */
    char why[512];
    struct fz_frame *fr;
    size_t nfr, capfr;
    struct probe_cqe cq[FZ_MAXCQE];
    int ncq;
    uint64_t step_at[FZ_MAXLINES]; /* when each script line started */
    uint8_t *mem[PR_COUNT];        /* the regions at the end (NULL: unread) */
    uint32_t memlen[PR_COUNT];
};
/* Run the episode (or any script) on tg and record it. */
void fz_observe(const char *script, struct probe_target *tg,
                const struct probe_opts *base, struct fz_obs *o);
void fz_obs_free(struct fz_obs *o);

/* The oracle's verdict on the device's observation against the engine's. */
struct fz_verdict {
    int diverged;         /* 1: the device fails where the engine passes */
    int skip;             /* the episode judges nothing (N/A, engine error) */
    const char *key;      /* the judgement (fz_statement key) */
    /* what it names, from statements.h: the statement's ID and section,
     * and its rules (judge-check: the one rule that found it) */
    const char *stmt, *section, *rule;
    char why[512];
};
void fz_judge(const char *script, const struct fz_obs *dev,
              const struct fz_obs *ref, struct fz_verdict *v);

/* `ibwire check` on an observation's frames: the first error finding on a
 * frame sent in direction dir (1: by the device, 0: by the probe, -1:
 * either): 1 with "RULE: frame N: message" in why, 0 when there is none
 * or when the checker reads the frames as a distorted capture (CAP-SKEW,
 * FLOW-ACK-UNSENT: answers recorded before their requests). */
int fz_check_dir(const struct fz_obs *o, int dir, char *why, size_t cap);

/* The script of a divergence: the moves, with every `~` window replaced by
 * the engine's frames as expectations, then its completions and the
 * memory it ended with where it or the device changed something.  Its
 * length, 0 when it did not fit. */
size_t fz_script_of(const char *moves, const struct fz_obs *ref,
                    const struct fz_obs *dev, char *out, size_t cap);

/* ---- the driver ---- */
struct fz_opts {
    uint64_t episodes, seed;
    const char *out_dir;      /* minimized scripts and the corpus; NULL: none */
    double time_limit;        /* seconds of real time; 0: none */
    uint64_t first;           /* the first episode of the seed to run */
    FILE *episode_log;        /* each episode's id, before it runs (NULL: none) */
    struct probe_target *dev; /* the device */
    const char *dev_name;     /* for the scripts' comments: how it was run */
    struct probe_target *ref; /* the reference engine, virtual time */
    const struct probe_opts *popts; /* within_scale etc. for the device */
    FILE *progress;           /* progress lines (NULL: none) */
    FILE *out;                /* divergences */
    int verbose;
};
/* Run the fuzzer: the number of divergences found, or -1 on an error. */
long fz_run(const struct fz_opts *o);
/* Shrink the moves of a divergence in place (delta debugging), keeping the
 * same judgement; the number of runs it took.  deadline: CLOCK_MONOTONIC
 * seconds after which it runs nothing more and keeps what it has (0: none;
 * the fuzzer's --time-limit). */
unsigned fz_minimize(char *moves, size_t cap, struct probe_target *dev,
                     struct probe_target *ref, const struct probe_opts *po,
                     const char *key, double deadline);

#endif
