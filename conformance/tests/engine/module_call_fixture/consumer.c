/* SPDX-License-Identifier: Apache-2.0 */
/* The consumer module of the fixture (see producer.c). */
int layer_pop(void);
int consumer_take(int v);

int consumer_take(int v)
{
    return v + layer_pop();
}
