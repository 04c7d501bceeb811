/* SPDX-License-Identifier: Apache-2.0 */
/* The FIFO layer of the fixture (see producer.c). */
int layer_push(int v);
int layer_pop(void);

static int slot;

int layer_push(int v)
{
    slot = v;
    return 0;
}

int layer_pop(void)
{
    return slot;
}
