/* SPDX-License-Identifier: Apache-2.0 */
/* counter.c - the module that owns struct counter_state. */
#include "unit.h"

void counter_step(struct unit *u)
{
    u->counter.count++;
}
