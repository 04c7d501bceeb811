/* SPDX-License-Identifier: Apache-2.0 */
/*
 * check_l2.c - capture points that rewrite the Ethernet header.
 *
 * Some capture points do not record the source address the device sent:
 * a ConnectX sniffer writes its hardware timestamp into the Ethernet
 * source address of every frame it records (shared/captures
 * mlx-sniffer-rc-write-tsmac.pcap, mlx-uccl-uc-write-imm-snapped.pcap).
 * Each frame then carries a different address, in both directions, whose
 * value grows with the frame's time, and some of them have the group bit
 * set.  PKT-ETH-SRC, judged per frame, would blame the devices once per
 * frame and drop every frame from its flow.
 *
 * The capture is recognised by what a timestamp does and a device's own
 * address does not: per source endpoint (IP address or GID), the source
 * MAC of consecutive frames is never the same and grows (a clock); and
 * this on both directions.  A device's address is fixed: two frames of
 * one endpoint with the same source MAC make the capture one that records
 * the devices' addresses, and PKT-ETH-SRC judges every frame (a device's
 * multicast or zero source on traffic whose other frames are sane is
 * still an error).  CHK_L2_PAIRS consecutive-frame pairs, at least one of
 * them on a second endpoint, of which at least 9 in 10 grow, decide the
 * other way: CAP-ETH-SRC says it once, and eth.src is not judged.
 *
 * Until the capture has shown which it is, a frame whose source address
 * PKT-ETH-SRC would refuse waits here, and so does every frame after it
 * (the order the rules see stays the capture's); at most CHK_L2_HOLD
 * frames: a capture that has not decided by then, or by its end, is
 * judged as one that records the devices' addresses.
 *
 * Calls only check_addr.c and check_report.c; check_order.c feeds it
 * and takes back the frames it released (check_int.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_int.h"

/* The Ethernet source address of p as a 48-bit number; 0 when p has no
 * Ethernet header it can be read from. */
static int eth_src_of(const struct ibw_pkt *p, uint64_t *mac)
{
    if (p->link != IBW_LINK_ETHERNET || !ibw_pkt_has(p, IBW_HDR_ETH) ||
        p->off[IBW_HDR_ETH] + 12u > p->len)
        return 0;
    const uint8_t *m = p->data + p->off[IBW_HDR_ETH] + 6;
    *mac = 0;
    for (unsigned i = 0; i < 6; i++)
        *mac = *mac << 8 | m[i];
    return 1;
}

int chk_l2_src_refused(uint64_t mac)
{
    /* zero, or the I/G bit (the first octet's least significant bit):
     * group and broadcast addresses */
    return mac == 0 || (mac >> 40 & 1u);
}

/* Count frame p's source address against its endpoint's previous one and
 * decide when the pattern is plain. */
static void observe(struct chk_l2 *l, const struct ibw_pkt *p, uint64_t frame)
{
    uint64_t mac;
    if (!eth_src_of(p, &mac))
        return;
    struct chk_addr src, dst;
    if (!ibw_pkt_has(p, IBW_HDR_BTH))
        return; /* (its headers up to the BTH are whole) */
    chk_pkt_addrs(p, &src, &dst);
    if (!src.kind)
        return;
    struct chk_l2_src *s = NULL;
    for (unsigned i = 0; i < l->nsrc && !s; i++)
        if (chk_addr_eq(&l->src[i].addr, &src))
            s = &l->src[i];
    if (!s) {
        if (l->nsrc == CHK_L2_SOURCES)
            return; /* (enough endpoints to decide on) */
        if (!l->nsrc)
            l->first_frame = frame;
        s = &l->src[l->nsrc++];
        s->addr = src;
        s->mac = mac;
        s->pairs = 0;
        return;
    }
    if (mac == s->mac) {
        l->state = CHK_L2_DEVICE; /* a device's own address, fixed */
        return;
    }
    if (!s->pairs++)
        l->sources++;
    l->pairs++;
    /* a clock in the low bytes (its high ones may be a port's or wrap) */
    uint32_t step = (uint32_t)mac - (uint32_t)s->mac;
    l->rising += step && step < 0x80000000u;
    s->mac = mac;
    if (l->pairs < CHK_L2_PAIRS)
        return;
    if (l->rising * 10 < l->pairs * 9)
        l->state = CHK_L2_DEVICE; /* addresses that change but keep no time */
    else if (l->sources >= 2)
        l->state = CHK_L2_STAMPED;
}

/* The source address of the frame being judged: 1 when PKT-ETH-SRC is not
 * judged on it (the capture point wrote it), counted for the note. */
int chk_l2_src_excused(struct chk *c, uint64_t mac)
{
    struct chk_l2 *l = &c->l2;
    if (l->state != CHK_L2_STAMPED)
        return 0;
    l->excused++;
    l->excused_zero += mac == 0;
    return 1;
}

/* A copy of a frame that waits for the capture's verdict. */
static int l2_hold(struct chk_l2 *l, const struct chk_order_frame *fr,
                const uint8_t *iba)
{
    if (l->nheld == CHK_L2_HOLD)
        return 0;
    if (l->nheld == l->capheld) {
        unsigned n = l->capheld ? l->capheld * 2 : 16;
        struct chk_order_frame *nh = realloc(l->held, n * sizeof *nh);
        if (!nh)
            return 0;
        memset(nh + l->capheld, 0, (n - l->capheld) * sizeof *nh);
        l->held = nh;
        l->capheld = n;
    }
    struct chk_order_frame *h = &l->held[l->nheld];
    uint8_t *keep = h->bytes;
    size_t cap = h->bytes_cap;
    if (fr->has_iba && fr->iba_len > cap) {
        uint8_t *nb = realloc(keep, fr->iba_len);
        if (!nb)
            return 0;
        keep = nb;
        cap = fr->iba_len;
    }
    *h = *fr;
    h->bytes = keep;
    h->bytes_cap = cap;
    h->parsed = 0; /* parsed again from the copy when released */
    if (fr->has_iba && fr->iba_len)
        memcpy(h->bytes, iba, fr->iba_len);
    l->nheld++;
    return 1;
}

int chk_l2_feed(struct chk *c, const struct chk_order_frame *fr,
                const uint8_t *iba, const struct ibw_pkt *p)
{
    struct chk_l2 *l = &c->l2;
    if (l->state == CHK_L2_UNDECIDED && p) {
        observe(l, p, fr->frame);
        uint64_t mac;
        if (l->state == CHK_L2_UNDECIDED && !l->nheld &&
            eth_src_of(p, &mac) && chk_l2_src_refused(mac))
            return l2_hold(l, fr, iba); /* the first frame that waits */
    }
    if (!l->nheld)
        return 0;
    if (l->state == CHK_L2_UNDECIDED && l2_hold(l, fr, iba))
        return 1;
    /* decided (or no room to wait longer): the held frames go first, then
     * this one */
    if (l->state == CHK_L2_UNDECIDED)
        l->state = CHK_L2_DEVICE;
    return l2_hold(l, fr, iba) ? 1 : -1;
}

const struct chk_order_frame *chk_l2_release(struct chk *c)
{
    struct chk_l2 *l = &c->l2;
    if (l->state == CHK_L2_UNDECIDED || l->taken == l->nheld) {
        if (l->taken == l->nheld)
            l->taken = l->nheld = 0;
        return NULL;
    }
    return &l->held[l->taken++];
}

void chk_l2_end(struct chk *c)
{
    if (c->l2.state == CHK_L2_UNDECIDED)
        c->l2.state = CHK_L2_DEVICE; /* not shown: judged as recorded */
}

void chk_l2_note(struct chk *c)
{
    const struct chk_l2 *l = &c->l2;
    if (l->state != CHK_L2_STAMPED)
        return;
    uint64_t saved = c->frame;
    c->frame = l->first_frame;
    c->cur_flow = NULL;
    char excused[200] = "";
    if (l->excused)
        snprintf(excused, sizeof excused, " (%llu frame%s with a group%s "
                 "source address not judged)", (unsigned long long)l->excused,
                 l->excused == 1 ? "" : "s",
                 l->excused_zero ? " or zero" : "");
    chk_report(c, CHK_R_CAP_ETH_SRC,
               "the Ethernet source address differs on every frame and grows "
               "with its time, in both directions (%u of %u pairs of "
               "consecutive frames of one endpoint, on %u endpoints): the "
               "capture point writes a timestamp there, not the devices' "
               "addresses; eth.src not judged%s",
               l->rising, l->pairs, l->sources, excused);
    c->frame = saved;
}

void chk_l2_free(struct chk *c)
{
    struct chk_l2 *l = &c->l2;
    for (unsigned i = 0; i < l->capheld; i++)
        free(l->held[i].bytes);
    free(l->held);
    memset(l, 0, sizeof *l);
}
