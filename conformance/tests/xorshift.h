/* SPDX-License-Identifier: Apache-2.0 */
/*
 * xorshift.h - the one pseudo-random step the tests and generators use
 * (Marsaglia's xorshift64, shifts 13, 7, 17).  Each caller keeps its own
 * seeded state, so a failure reproduces from the seed alone and one
 * program's draws never shift another's.
 */
#ifndef IBWIRE_TESTS_XORSHIFT_H
#define IBWIRE_TESTS_XORSHIFT_H

#include <stdint.h>

/* Advance *state (never 0) and return the new value. */
static inline uint64_t xorshift64_next(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *state = x;
    return x;
}

#endif
