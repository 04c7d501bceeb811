/* SPDX-License-Identifier: Apache-2.0 */
/*
 * multiqueue.c - the MultiQueue of the HanGu RDMA engine design §3.4.3: three
 * buffers (RPB read packets, REB read scatter entries, SWPB send/write
 * packets) shared by all QPs.  Each has the three tables of the documents,
 * held as E21 records packed with records.h: a list table
 * (rpb/reb/swpb_list_entry: head, tail, empty per QP), an element table
 * (*_element: the payload and the next element's address) and a free FIFO of
 * element addresses (*_free_entry).  List and free entries and REB elements
 * are read and written with their pack/unpack functions; the next address of
 * an RPB / SWPB element with the record's field accessors (the 256-bit packet
 * part is not stored as bits: the model keeps that packet in struct rpb_elem /
 * swpb_elem, indexed by the same element address).
 */
#include "eng.h"

#include "ibwire/records.h"

ENG_OUT_OF_LINE static void serve_mq_list_init(struct ibe_engine *e, int b, uint32_t qpn);

/* One list-table entry, unpacked (the three buffers differ in widths). */
struct mq_le { uint32_t head, tail; uint8_t empty; };

static struct mq_le list_get(const struct ibe_engine *e, int b, uint32_t qpn)
{
    const uint32_t *w = &e->mq.buf[b].list[qpn];
    struct mq_le l;
    if (b == MQ_RPB) {
        struct ibw_rpb_list_entry s;
        ibw_rpb_list_entry_unpack(w, &s);
        l = (struct mq_le){s.head, s.tail, s.empty};
    } else if (b == MQ_REB) {
        struct ibw_reb_list_entry s;
        ibw_reb_list_entry_unpack(w, &s);
        l = (struct mq_le){s.head, s.tail, s.empty};
    } else {
        struct ibw_swpb_list_entry s;
        ibw_swpb_list_entry_unpack(w, &s);
        l = (struct mq_le){s.head, s.tail, s.empty};
    }
    return l;
}

static void list_set(struct ibe_engine *e, int b, uint32_t qpn, struct mq_le l)
{
    uint32_t *w = &e->mq.buf[b].list[qpn];
    if (b == MQ_RPB) {
        struct ibw_rpb_list_entry s = {(uint16_t)l.head, (uint16_t)l.tail, l.empty};
        ibw_rpb_list_entry_pack(&s, w);
    } else if (b == MQ_REB) {
        struct ibw_reb_list_entry s = {(uint16_t)l.head, (uint16_t)l.tail, l.empty};
        ibw_reb_list_entry_pack(&s, w);
    } else {
        struct ibw_swpb_list_entry s = {(uint16_t)l.head, (uint16_t)l.tail, l.empty};
        ibw_swpb_list_entry_pack(&s, w);
    }
}

static uint32_t *elem(const struct ibe_engine *e, int b, uint32_t i)
{
    return e->mq.buf[b].elem + (size_t)i * e->mq.buf[b].elem_words;
}

static uint32_t next_get(const struct ibe_engine *e, int b, uint32_t i)
{
    const uint32_t *w = elem(e, b, i);
    if (b == MQ_RPB)
        return (uint32_t)ibw_rpb_element_get_next_addr(w);
    if (b == MQ_SWPB)
        return (uint32_t)ibw_swpb_element_get_next_addr(w);
    struct ibw_reb_element s;
    ibw_reb_element_unpack(w, &s);
    return s.next_addr;
}

static void next_set(struct ibe_engine *e, int b, uint32_t i, uint32_t next)
{
    uint32_t *w = elem(e, b, i);
    if (b == MQ_RPB) {
        ibw_rpb_element_set_next_addr(w, (uint16_t)next);
    } else if (b == MQ_SWPB) {
        ibw_swpb_element_set_next_addr(w, (uint16_t)next);
    } else {
        struct ibw_reb_element s;
        ibw_reb_element_unpack(w, &s);
        s.next_addr = (uint16_t)next;
        ibw_reb_element_pack(&s, w);
    }
}

static uint32_t free_get(const struct mq_buf *m, int b, uint32_t pos)
{
    const uint32_t *w = &m->free_fifo[pos];
    if (b == MQ_RPB) {
        struct ibw_rpb_free_entry s;
        ibw_rpb_free_entry_unpack(w, &s);
        return s.addr;
    }
    if (b == MQ_REB) {
        struct ibw_reb_free_entry s;
        ibw_reb_free_entry_unpack(w, &s);
        return s.addr;
    }
    struct ibw_swpb_free_entry s;
    ibw_swpb_free_entry_unpack(w, &s);
    return s.addr;
}

static void free_put(struct mq_buf *m, int b, uint32_t addr)
{
    uint32_t *w = &m->free_fifo[(m->fhead + m->nfree) % m->cap];
    m->nfree++;
    if (b == MQ_RPB) {
        struct ibw_rpb_free_entry s = {(uint16_t)addr};
        ibw_rpb_free_entry_pack(&s, w);
    } else if (b == MQ_REB) {
        struct ibw_reb_free_entry s = {(uint16_t)addr};
        ibw_reb_free_entry_pack(&s, w);
    } else {
        struct ibw_swpb_free_entry s = {(uint16_t)addr};
        ibw_swpb_free_entry_pack(&s, w);
    }
}

int mq_init(struct ibe_engine *e, int b, uint32_t cap)
{
    static const uint32_t words[3] = {ibw_rpb_element_WORDS, ibw_reb_element_WORDS,
                                      ibw_swpb_element_WORDS};
    struct mq_buf *m = &e->mq.buf[b];
    m->cap = cap;
    m->elem_words = words[b];
    m->free_fifo = calloc(cap, sizeof *m->free_fifo);
    m->elem = calloc((size_t)cap * m->elem_words, sizeof *m->elem);
    if (!m->free_fifo || !m->elem)
        return -1;
    m->fhead = m->nfree = 0;
    for (uint32_t i = 0; i < cap; i++)
        free_put(m, b, i);
    for (uint32_t q = 0; q < ENG_MAX_QP; q++)
        serve_mq_list_init(e, b, q);
    return 0;
}

void mq_fini(struct ibe_engine *e, int b)
{
    free(e->mq.buf[b].free_fifo);
    free(e->mq.buf[b].elem);
    e->mq.buf[b].free_fifo = NULL;
    e->mq.buf[b].elem = NULL;
}

ENG_OUT_OF_LINE static void serve_mq_list_init(struct ibe_engine *e, int b, uint32_t qpn)
{
    list_set(e, b, qpn, (struct mq_le){0, 0, 1});
}

/* The two hottest questions read single fields with the records' field
 * accessors rather than unpacking the whole entry. */
static bool serve_mq_empty(const struct ibe_engine *e, int b, uint32_t qpn)
{
    const uint32_t *w = &e->mq.buf[b].list[qpn];
    if (b == MQ_RPB)
        return ibw_rpb_list_entry_get_empty(w) != 0;
    if (b == MQ_REB)
        return ibw_reb_list_entry_get_empty(w) != 0;
    return ibw_swpb_list_entry_get_empty(w) != 0;
}

static uint32_t serve_mq_head(const struct ibe_engine *e, int b, uint32_t qpn)
{
    const uint32_t *w = &e->mq.buf[b].list[qpn];
    if (serve_mq_empty(e, b, qpn))
        return MQ_NIL;
    if (b == MQ_RPB)
        return (uint32_t)ibw_rpb_list_entry_get_head(w);
    if (b == MQ_REB)
        return (uint32_t)ibw_reb_list_entry_get_head(w);
    return (uint32_t)ibw_swpb_list_entry_get_head(w);
}

static uint32_t serve_mq_next(const struct ibe_engine *e, int b, uint32_t qpn,
                              uint32_t i)
{
    return list_get(e, b, qpn).tail == i ? MQ_NIL : next_get(e, b, i);
}

static uint32_t serve_mq_nfree(const struct ibe_engine *e, int b)
{
    return e->mq.buf[b].nfree;
}

ENG_OUT_OF_LINE static uint32_t serve_mq_alloc(struct ibe_engine *e, int b, uint32_t qpn)
{
    struct mq_buf *m = &e->mq.buf[b];
    if (!m->nfree)
        return MQ_NIL;
    uint32_t i = free_get(m, b, m->fhead);
    m->fhead = (m->fhead + 1) % m->cap;
    m->nfree--;
    if (b == MQ_SWPB && i >= e->mq.swpb_hw)
        e->mq.swpb_hw = i + 1; /* a snapshot copies the payload slots below */
    if (i >= m->hw)
        m->hw = i + 1;
    struct mq_le l = list_get(e, b, qpn);
    if (l.empty)
        l.head = i;
    else
        next_set(e, b, l.tail, i);
    l.tail = i;
    l.empty = 0;
    list_set(e, b, qpn, l);
    return i;
}

ENG_OUT_OF_LINE static void serve_mq_pop(struct ibe_engine *e, int b, uint32_t qpn)
{
    struct mq_le l = list_get(e, b, qpn);
    if (l.empty)
        return;
    uint32_t i = l.head;
    if (l.head == l.tail)
        l.empty = 1;
    else
        l.head = next_get(e, b, i);
    list_set(e, b, qpn, l);
    free_put(&e->mq.buf[b], b, i);
}

ENG_OUT_OF_LINE static void serve_mq_reb_write(struct ibe_engine *e, uint32_t i,
                               const struct ibe_sge *g)
{
    uint32_t *w = elem(e, MQ_REB, i);
    struct ibw_reb_element s;
    ibw_reb_element_unpack(w, &s);
    s.length = g->length;
    s.lkey = g->lkey;
    s.va = g->addr;
    ibw_reb_element_pack(&s, w);
}

ENG_OUT_OF_LINE static void serve_mq_reb_read(const struct ibe_engine *e, uint32_t i,
                              struct ibe_sge *g)
{
    struct ibw_reb_element s;
    ibw_reb_element_unpack(elem(e, MQ_REB, i), &s);
    g->length = s.length;
    g->lkey = s.lkey;
    g->addr = s.va;
}

/* The buffered packets: whole elements copied out and in.  A SWPB
 * element keeps its payload slot; the writer's bytes are copied into it. */
static void serve_mq_head_psns(const struct ibe_engine *e, uint32_t qpn,
                               struct mq_heads *out)
{
    out->swpb = serve_mq_head(e, MQ_SWPB, qpn);
    out->rpb = serve_mq_head(e, MQ_RPB, qpn);
    out->swpb_psn = out->swpb == MQ_NIL ? 0 : e->mq.swpb[out->swpb].h.psn;
    out->rpb_psn = out->rpb == MQ_NIL ? 0 : e->mq.rpb[out->rpb].h.psn;
}

static const uint8_t *serve_mq_swpb_write(struct ibe_engine *e, uint32_t i,
                                          const struct swpb_elem *in,
                                          const uint8_t *payload, uint32_t len)
{
    struct swpb_elem *s = &e->mq.swpb[i];
    uint8_t *slot = s->payload;
    *s = *in;
    s->payload = slot;
    if (len)
        memcpy(slot, payload, len);
    return slot;
}

void mq_step(struct ibe_engine *e, struct eng_msg *m)
{
    switch (m->port) {
    case PORT_MQ_LIST_INIT:
        serve_mq_list_init(e, (int)m->a[0], (uint32_t)m->a[1]);
        break;
    case PORT_MQ_EMPTY:
        m->ret = (int64_t)serve_mq_empty(e, (int)m->a[0], (uint32_t)m->a[1]);
        break;
    case PORT_MQ_HEAD:
        m->ret = (int64_t)serve_mq_head(e, (int)m->a[0], (uint32_t)m->a[1]);
        break;
    case PORT_MQ_HEADS:
        m->ret = (int64_t)((uint64_t)serve_mq_head(e, MQ_RPB, (uint32_t)m->a[0]) << 32 |
                           serve_mq_head(e, MQ_SWPB, (uint32_t)m->a[0]));
        break;
    case PORT_MQ_NEXT:
        m->ret = (int64_t)serve_mq_next(e, (int)m->a[0], (uint32_t)m->a[1],
                                        (uint32_t)m->a[2]);
        break;
    case PORT_MQ_NFREE:
        m->ret = (int64_t)serve_mq_nfree(e, (int)m->a[0]);
        break;
    case PORT_MQ_ALLOC:
        m->ret = (int64_t)serve_mq_alloc(e, (int)m->a[0], (uint32_t)m->a[1]);
        break;
    case PORT_MQ_POP:
        serve_mq_pop(e, (int)m->a[0], (uint32_t)m->a[1]);
        break;
    case PORT_MQ_REB_WRITE:
        serve_mq_reb_write(e, (uint32_t)m->a[0],
                           (const struct ibe_sge *)m->cp[0]);
        break;
    case PORT_MQ_REB_READ:
        serve_mq_reb_read(e, (uint32_t)m->a[0], (struct ibe_sge *)m->p[0]);
        break;
    case PORT_MQ_HEAD_PSNS:
        serve_mq_head_psns(e, (uint32_t)m->a[0], (struct mq_heads *)m->p[0]);
        break;
    case PORT_MQ_NEXT_PSN: {
        int b = (int)m->a[0];
        uint32_t n = serve_mq_next(e, b, (uint32_t)m->a[1], (uint32_t)m->a[2]);
        if (n != MQ_NIL)
            *(uint32_t *)m->p[0] = b == MQ_SWPB ? e->mq.swpb[n].h.psn
                                                : e->mq.rpb[n].h.psn;
        m->ret = (int64_t)n;
        break;
    }
    case PORT_MQ_SWPB_MSG: {
        const struct swpb_elem *s = &e->mq.swpb[m->a[0]];
        *(struct mq_swpb_msg *)m->p[0] =
            (struct mq_swpb_msg){s->last, s->wr_opcode, s->wqe_slot, s->msg_len};
        break;
    }
    case PORT_MQ_SWPB_READ:
        *(struct swpb_elem *)m->p[0] = e->mq.swpb[m->a[0]];
        break;
    case PORT_MQ_SWPB_WRITE:
        *(const uint8_t **)m->p[0] =
            serve_mq_swpb_write(e, (uint32_t)m->a[0],
                                (const struct swpb_elem *)m->cp[0],
                                (const uint8_t *)m->cp[1], (uint32_t)m->a[1]);
        break;
    case PORT_MQ_RPB_READ:
        *(struct rpb_elem *)m->p[0] = e->mq.rpb[m->a[0]];
        break;
    case PORT_MQ_RPB_WRITE:
        e->mq.rpb[m->a[0]] = *(const struct rpb_elem *)m->cp[0];
        break;
    default:
        abort(); /* a port this module does not have: a wiring bug */
    }
}
