/* SPDX-License-Identifier: Apache-2.0 */
/*
 * testutil.h - the few assertions the unit tests share.
 *
 * Each failed check prints file:line and what differed, and the test
 * program's exit status is the number of failures (capped), so meson
 * reports the program as failed.
 */
#ifndef IBWIRE_TESTUTIL_H
#define IBWIRE_TESTUTIL_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int tu_failures;
static int tu_checks;

#define TU_CHECK(cond)                                                       \
    do {                                                                     \
        tu_checks++;                                                         \
        if (!(cond)) {                                                       \
            tu_failures++;                                                   \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, \
                    #cond);                                                  \
        }                                                                    \
    } while (0)

#define TU_EQ(a, b)                                                          \
    do {                                                                     \
        uint64_t tu_a_ = (uint64_t)(a), tu_b_ = (uint64_t)(b);               \
        tu_checks++;                                                         \
        if (tu_a_ != tu_b_) {                                                \
            tu_failures++;                                                   \
            fprintf(stderr, "%s:%d: %s == 0x%" PRIx64 ", expected %s == 0x%" \
                    PRIx64 "\n", __FILE__, __LINE__, #a, tu_a_, #b, tu_b_);  \
        }                                                                    \
    } while (0)

#define TU_MEMEQ(a, b, n)                                                    \
    do {                                                                     \
        tu_checks++;                                                         \
        if (memcmp((a), (b), (n)) != 0) {                                    \
            tu_failures++;                                                   \
            fprintf(stderr, "%s:%d: bytes differ: %s vs %s\n", __FILE__,     \
                    __LINE__, #a, #b);                                       \
            tu_hexdiff((const unsigned char *)(a),                           \
                       (const unsigned char *)(b), (n));                     \
        }                                                                    \
    } while (0)

static inline void tu_hexdiff(const unsigned char *a, const unsigned char *b,
                              size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i])
            fprintf(stderr, "  [%zu] got %02x want %02x\n", i, a[i], b[i]);
}

/* Print the tally and turn it into an exit status. */
static inline int tu_done(const char *name)
{
    printf("%s: %d checks, %d failed\n", name, tu_checks, tu_failures);
    return tu_failures > 100 ? 100 : tu_failures;
}

#endif
