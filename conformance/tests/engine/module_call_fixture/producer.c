/* SPDX-License-Identifier: Apache-2.0 */
/* A module that hands its work over by calling the consumer module's
 * function: the engine's module lint must reject this directory. */
int layer_push(int v);
int consumer_take(int v);

int producer_step(int v)
{
    layer_push(v);
    return consumer_take(v);
}
