/*
 * multiqueue.c - the MultiQueue of seed 000 §3.4.3: fixed element pools
 * (RPB, REB, SWPB) shared by all QPs, a free list per pool, and per-QP
 * linked lists (the list table holds head/tail/count, the element table
 * holds the next pointers).
 */
#include "eng.h"

void mq_pool_init(struct mq_pool *p, uint32_t cap)
{
    p->cap = cap;
    p->next = malloc(sizeof *p->next * cap);
    if (!p->next)
        abort();
    for (uint32_t i = 0; i < cap; i++)
        p->next[i] = i + 1 < cap ? i + 1 : MQ_NIL;
    p->free_head = 0;
    p->nfree = cap;
}

void mq_pool_free(struct mq_pool *p)
{
    free(p->next);
    p->next = NULL;
}

void mq_list_init(struct mq_list *l)
{
    l->head = l->tail = MQ_NIL;
    l->count = 0;
}

uint32_t mq_alloc(struct mq_pool *p, struct mq_list *l)
{
    if (p->free_head == MQ_NIL)
        return MQ_NIL;
    uint32_t i = p->free_head;
    p->free_head = p->next[i];
    p->nfree--;
    p->next[i] = MQ_NIL;
    if (l->tail == MQ_NIL)
        l->head = i;
    else
        p->next[l->tail] = i;
    l->tail = i;
    l->count++;
    return i;
}

void mq_pop(struct mq_pool *p, struct mq_list *l)
{
    uint32_t i = l->head;
    if (i == MQ_NIL)
        return;
    l->head = p->next[i];
    if (l->head == MQ_NIL)
        l->tail = MQ_NIL;
    l->count--;
    p->next[i] = p->free_head;
    p->free_head = i;
    p->nfree++;
}
