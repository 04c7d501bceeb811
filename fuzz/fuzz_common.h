/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_common.h - what every harness shares: the libFuzzer entry points and
 * the property check.
 *
 * Properties are checked with FUZZ_CHECK, never assert(): release builds
 * (b_ndebug) drop assert(), and a fuzzer that cannot fail finds nothing.
 */
#ifndef IBWIRE_FUZZ_COMMON_H
#define IBWIRE_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* Report the broken property with its place and stop (libFuzzer saves the
 * input as a crash). */
#define FUZZ_CHECK(cond)                                                    \
    do {                                                                    \
        if (!(cond)) {                                                      \
            fprintf(stderr, "%s:%d: property failed: %s\n", __FILE__,       \
                    __LINE__, #cond);                                       \
            abort();                                                        \
        }                                                                   \
    } while (0)

/* Same, with the format or field the check was about. */
#define FUZZ_CHECK_AT(cond, what)                                           \
    do {                                                                    \
        if (!(cond)) {                                                      \
            fprintf(stderr, "%s:%d: property failed for %s: %s\n",          \
                    __FILE__, __LINE__, (what), #cond);                     \
            abort();                                                        \
        }                                                                   \
    } while (0)

/* A state the code under test must never reach. */
#define FUZZ_FAIL(why)                                                      \
    do {                                                                    \
        fprintf(stderr, "%s:%d: property failed: %s\n", __FILE__,           \
                __LINE__, (why));                                           \
        abort();                                                            \
    } while (0)

/*
 * Known bugs: a property the code under test still breaks, reported to its
 * owner, with the input that shows it kept in fuzz/pending/NAME/.  Fuzzing
 * tolerates it (so that it can find other bugs); the pending tests run with
 * FUZZ_STRICT set, where it is checked and must fail until it is fixed.
 * `what` names the bug in the message.
 */
static inline int fuzz_tolerate_known_bug(const char *what)
{
    static int strict = -1;
    if (strict < 0)
        strict = getenv("FUZZ_STRICT") != NULL;
    if (strict)
        fprintf(stderr, "checking known bug: %s\n", what);
    return !strict;
}

/* A little-endian reader over the fuzz input, for harnesses that take
 * choices (a format index, a value) from the first bytes.  Reading past
 * the end yields zeros, so every input is valid. */
struct fuzz_in {
    const uint8_t *p;
    size_t left;
};

static inline uint8_t fuzz_u8(struct fuzz_in *in)
{
    if (!in->left)
        return 0;
    in->left--;
    return *in->p++;
}

static inline uint64_t fuzz_u64(struct fuzz_in *in)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < 8; i++)
        v |= (uint64_t)fuzz_u8(in) << (8 * i);
    return v;
}

/* A stream of frames, as check_fuzzer and lib_fuzzer read their input
 * after byte 0: each a 2-byte little-endian length, a flags byte and the
 * bytes (a length past the end is cut to what is left).  The next frame
 * from data[*pos..size): 1 with it, 0 at the end. */
static inline int fuzz_next_frame(const uint8_t *data, size_t size,
                                  size_t *pos, const uint8_t **frame,
                                  size_t *len, uint8_t *flags)
{
    if (*pos + 3 > size)
        return 0;
    size_t n = (size_t)(data[*pos] | data[*pos + 1] << 8);
    *flags = data[*pos + 2];
    *pos += 3;
    if (n > size - *pos)
        n = size - *pos;
    *frame = data + *pos;
    *len = n;
    *pos += n;
    return 1;
}

/* Time to the frame: 1 us, or the flags' upper bits in units of 2^24 ns
 * (up to about a second, to reach the checker's timeouts). */
static inline uint64_t fuzz_frame_gap_ns(uint8_t flags)
{
    return flags >> 2 ? (uint64_t)(flags >> 2) << 24 : 1000u;
}

#endif /* IBWIRE_FUZZ_COMMON_H */
