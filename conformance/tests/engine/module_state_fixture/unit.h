/* SPDX-License-Identifier: Apache-2.0 */
/*
 * unit.h - a fixture for the engine_module_state lint: two modules, each
 * owning one struct of the unit's state; reader.c also writes the
 * counter's state, which the lint must report.
 */
#ifndef FIXTURE_UNIT_H
#define FIXTURE_UNIT_H

/* owner: counter.c - what the counter has counted */
struct counter_state {
    unsigned count;
};
/* owner: reader.c - what the reader has taken */
struct reader_state {
    unsigned seen;
};

struct unit {
    struct counter_state counter;
    struct reader_state reader;
};

void counter_step(struct unit *u);
void reader_step(struct unit *u);

#endif
