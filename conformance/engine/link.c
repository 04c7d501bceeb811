/* SPDX-License-Identifier: Apache-2.0 */
/*
 * link.c - the simulated wire between two engines: latency, serialization,
 * and per-packet drop / duplicate / reorder / corrupt / ECN-mark draws.
 * A corrupted packet has one payload-area bit flipped, so the receiver's
 * ICRC check must reject it.
 */
#include "eng.h"

#include "ibwire/framing.h"

struct link_pkt {
    struct ibe_link *l;
    struct ibe_engine *to;
    size_t len;
    uint8_t bytes[];
};

struct ibe_link {
    struct ibe_world *w;
    struct ibe_engine *end[2];
    struct ibe_link_params p;
    uint64_t busy_until[2];
    ibe_tap_fn tap;
    void *tap_ctx;
    ibe_drop_fn dropfn;
    void *drop_ctx;
    struct ibe_link_stats st;
};

static void deliver(void *ctx, uint64_t arg)
{
    (void)arg;
    struct link_pkt *lp = ctx;
    lp->l->st.delivered++;
    ibe_engine_receive(lp->to, lp->bytes, lp->len);
    free(lp);
}

static void put(struct ibe_link *l, int dir, const uint8_t *pkt, size_t len,
                uint64_t extra)
{
    struct link_pkt *lp = malloc(sizeof *lp + len);
    if (!lp)
        abort();
    lp->l = l;
    lp->to = l->end[1 - dir];
    lp->len = len;
    memcpy(lp->bytes, pkt, len);
    uint64_t now = l->w->now;
    uint64_t ser = l->p.gbps > 0 ? (uint64_t)((double)len * 8.0 / l->p.gbps) : 0;
    uint64_t start = l->busy_until[dir] > now ? l->busy_until[dir] : now;
    l->busy_until[dir] = start + ser;
    eng_at_owned(l->w, start + ser - now + l->p.latency_ns + extra, deliver, lp,
                 sizeof *lp + len);
}

/* A congested router's mark on RoCEv2: IP ECN Congestion Experienced on an
 * ECN-capable packet, the IPv4 header checksum redone (annex A17.9: RoCEv2
 * signals congestion in the IP header; CA17-29 keeps the BTH FECN/BECN bits
 * 0).  The ICRC masks both fields.  Native IB frames are left alone: a
 * switch's FECN would need the VCRC redone and the IB congestion control of
 * annex A10, which the engine does not model. */
static void mark_congestion(int framing, uint8_t *buf, size_t len)
{
    uint8_t *ip = buf + 14;
    if (framing != IBE_FRAME_ROCEV2 || len < 14 + 20 || buf[12] != 0x08 ||
        buf[13] != 0x00 || ibw_ipv4_get_ecn(ip) == 0) /* Not-ECT: dropped, not marked */
        return;
    ibw_ipv4_set_ecn(ip, 3);
    ibw_ipv4_set_checksum(ip, ibw_ipv4_checksum(ip, ibw_ipv4_hdr_len(ip)));
}

static void on_tx(void *ctx, struct ibe_engine *from, const uint8_t *pkt,
                  size_t len)
{
    struct ibe_link *l = ctx;
    int dir = from == l->end[0] ? 0 : 1;
    struct ibe_world *w = l->w;
    l->st.sent++;
    uint8_t buf[4096 + 256];
    if (len > sizeof buf)
        return;
    memcpy(buf, pkt, len);
    if (l->p.ecn > 0 && eng_uniform(w) < l->p.ecn)
        mark_congestion(l->end[0]->cfg.framing, buf, len);
    int corrupt = l->p.corrupt > 0 && eng_uniform(w) < l->p.corrupt;
    size_t bth = l->end[0]->cfg.framing == IBE_FRAME_ROCEV2 ? 42 : 8;
    if (corrupt && len > bth + 16) {
        /* From the BTH on, never the FECN/BECN byte the ICRC masks. */
        size_t at = bth + (size_t)(ibe_rand(w) % (len - bth));
        if (at == bth + 4)
            at++;
        buf[at] ^= (uint8_t)(1u << (ibe_rand(w) % 8));
        l->st.corrupted++;
    }
    int chosen = l->dropfn && l->dropfn(l->drop_ctx, dir, buf, &len);
    if (l->tap)
        l->tap(l->tap_ctx, w->now, buf, len);
    if (l->p.drop > 0 && eng_uniform(w) < l->p.drop) {
        l->st.dropped++;
        return;
    }
    if (chosen) {
        l->st.dropped++;
        return;
    }
    uint64_t extra = 0;
    if (l->p.reorder > 0 && eng_uniform(w) < l->p.reorder) {
        l->st.reordered++;
        extra = l->p.latency_ns * 2 + 3000;
    }
    put(l, dir, buf, len, extra);
    if (l->p.dup > 0 && eng_uniform(w) < l->p.dup) {
        l->st.duplicated++;
        put(l, dir, buf, len, extra + 500);
    }
}

struct ibe_link *ibe_link_create(struct ibe_world *w, struct ibe_engine *a,
                                 struct ibe_engine *b,
                                 const struct ibe_link_params *p)
{
    struct ibe_link *l = calloc(1, sizeof *l);
    if (!l)
        return NULL;
    l->w = w;
    l->end[0] = a;
    l->end[1] = b;
    l->p = *p;
    if (eng_world_attach(w, l, sizeof *l)) {
        free(l);
        return NULL;
    }
    ibe_engine_set_tx(a, on_tx, l);
    ibe_engine_set_tx(b, on_tx, l);
    return l;
}

void ibe_link_destroy(struct ibe_link *l)
{
    if (!l)
        return;
    eng_world_detach(l->w, l);
    free(l);
}

void ibe_link_set_tap(struct ibe_link *l, ibe_tap_fn fn, void *ctx)
{
    l->tap = fn;
    l->tap_ctx = ctx;
}

void ibe_link_set_drop(struct ibe_link *l, ibe_drop_fn fn, void *ctx)
{
    l->dropfn = fn;
    l->drop_ctx = ctx;
}

const struct ibe_link_stats *ibe_link_stats(const struct ibe_link *l)
{
    return &l->st;
}
