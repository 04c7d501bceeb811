/* SPDX-License-Identifier: Apache-2.0 */
/*
 * capture_vantage.c - the vantage points inside one file's interfaces.
 *
 * A collector port records what several switch mirror sessions (ERSPAN
 * session IDs) or tunnels (VXLAN and Geneve VNIs) send it, and `tcpdump -i
 * any` what several host interfaces see (the SLL2 interface index).  Each
 * of those is a place the frames were seen from, as a pcapng interface is:
 * findings name it.  The table is kept per reader; an entry, once written,
 * never changes and the count is published after it, so that a thread
 * printing findings may read names while the reader adds entries.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture_int.h"

/* (file interface, SLL2 interface index, mirror session or VNI) */
struct cap_vantage {
    uint32_t iface;
    uint32_t ifindex;
    uint32_t id;
    uint8_t has_ifindex;
    uint8_t kind; /* enum ibw_encap_kind of the session or VNI, 0: none */
};

struct cap_vantages {
    pthread_mutex_t mu;
    _Atomic uint32_t n;
    struct cap_vantage v[CAP_VANTAGE_MAX];
};

static int same(const struct cap_vantage *a, const struct cap_vantage *b)
{
    return a->iface == b->iface && a->has_ifindex == b->has_ifindex &&
           a->ifindex == b->ifindex && a->kind == b->kind && a->id == b->id;
}

uint32_t cap_vantage_of(struct cap_reader *r, const struct cap_frame *fr)
{
    const struct ibw_encap *e = &fr->encap;
    struct cap_vantage key = {0};
    key.iface = fr->interface;
    if (e->n && e->layer[0].kind == IBW_ENC_SLL2 && !fr->encap.err) {
        key.has_ifindex = 1;
        key.ifindex = ibw_sll2_get_ifindex(fr->raw + fr->outer_at +
                                          e->layer[0].off);
    }
    key.kind = e->vantage_kind;
    key.id = e->vantage_id;
    if (!key.has_ifindex && !key.kind)
        return 0;
    if (!r->vantages) {
        r->vantages = calloc(1, sizeof *r->vantages);
        if (!r->vantages)
            return 0;
        pthread_mutex_init(&r->vantages->mu, NULL);
    }
    struct cap_vantages *t = r->vantages;
    /* the last one found first: frames of one session come in runs */
    uint32_t n = atomic_load_explicit(&t->n, memory_order_acquire);
    if (r->vantage_last && same(&t->v[r->vantage_last - 1], &key))
        return r->vantage_last;
    for (uint32_t i = 0; i < n; i++)
        if (same(&t->v[i], &key))
            return r->vantage_last = i + 1;
    if (n == CAP_VANTAGE_MAX)
        return 0; /* more than any collector has: left unnamed */
    pthread_mutex_lock(&t->mu);
    t->v[n] = key;
    atomic_store_explicit(&t->n, n + 1, memory_order_release);
    pthread_mutex_unlock(&t->mu);
    return r->vantage_last = n + 1;
}

uint32_t cap_vantages(const struct cap_reader *r)
{
    return r->vantages ? atomic_load_explicit(&r->vantages->n,
                                              memory_order_acquire)
                       : 0;
}

const char *cap_vantage_name(const struct cap_reader *r, uint32_t v,
                             char *buf, size_t len)
{
    if (!v || v > cap_vantages(r)) {
        snprintf(buf, len, "?");
        return buf;
    }
    const struct cap_vantage *p = &r->vantages->v[v - 1];
    size_t at = 0;
    buf[0] = '\0';
    if (cap_interfaces(r) > 1) {
        cap_interface_name(r, p->iface, buf, len);
        at = strlen(buf);
    }
    if (p->has_ifindex && at < len)
        at += (size_t)snprintf(buf + at, len - at, "%sifindex %u",
                               at ? ", " : "", (unsigned)p->ifindex);
    if (p->kind && at < len) {
        const char *what = p->kind == IBW_ENC_VXLAN    ? "vxlan vni"
                           : p->kind == IBW_ENC_GENEVE ? "geneve vni"
                                                       : "erspan session";
        snprintf(buf + at, len - at, "%s%s %u", at ? ", " : "", what,
                 (unsigned)p->id);
    }
    return buf;
}

void cap_vantage_free(struct cap_reader *r)
{
    if (!r->vantages)
        return;
    pthread_mutex_destroy(&r->vantages->mu);
    free(r->vantages);
    r->vantages = NULL;
}
