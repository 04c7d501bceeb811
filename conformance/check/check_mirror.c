/* SPDX-License-Identifier: Apache-2.0 */
/*
 * check_mirror.c - CAP-MIRROR-DUP: what a switch mirror does to a capture.
 *
 * A mirror session that copies several ports sends a frame once per
 * mirrored port it crosses: the collector records the same frame twice, a
 * few microseconds apart.  Judged as traffic, the copy would be a resend
 * of every packet.  Frames that came through an encapsulation (the only
 * way a capture gets a mirror's copies) are compared with the carried
 * frames just before them, from the IP header (or the RoCEv1 GRH) on, as
 * the hop that may lie between two mirrored ports changes only the MACs,
 * the VLAN, the TTL / hop limit and the IPv4 checksum.  The cost is one
 * hash of the frame and a look at 16 slots: constant per frame.
 *
 * A Linux cooked capture (`tcpdump -i any`) is no mirror, but sees a frame
 * once on every interface it crosses: a bridge and its port, a bond and
 * its slave, a VLAN device and its parent.  Under SLL2 the copies carry
 * different interface indexes, and only such a pair is a copy; under SLL
 * v1, which does not say the interface, nothing is taken for a copy (a
 * resend on a loopback may follow its original within microseconds).
 */
#include <string.h>

#include "check_int.h"

/* Copies arrive within this much capture time of the original. */
#define CHK_MIRROR_WINDOW_NS 50000u

/* FNV-1a over the frame from its network header, the fields a routing hop
 * rewrites read as zero, and the length. */
static uint64_t frame_hash(const struct ibw_pkt *p)
{
    size_t from = 0, ttl = SIZE_MAX, csum = SIZE_MAX;
    if (ibw_pkt_has(p, IBW_HDR_IPV4)) {
        from = p->off[IBW_HDR_IPV4];
        ttl = from + 8;
        csum = from + 10;
    } else if (ibw_pkt_has(p, IBW_HDR_IPV6)) {
        from = p->off[IBW_HDR_IPV6];
        ttl = from + 7;
    } else if (ibw_pkt_has(p, IBW_HDR_GRH)) {
        from = p->off[IBW_HDR_GRH];
        ttl = from + 7;
    }
    uint64_t h = 0xcbf29ce484222325u ^ (uint64_t)(p->len - from);
    for (size_t i = from; i < p->len; i++) {
        uint8_t b = p->data[i];
        if (i == ttl || i == csum || i == csum + 1)
            b = 0;
        h = (h ^ b) * 0x100000001b3u;
    }
    return h;
}

static void mirror_keep(struct chk_mirror *m, const struct cap_frame *fr,
                        uint64_t h, uint64_t ts)
{
    m->hash[m->next] = h;
    m->ts[m->next] = ts;
    m->frame[m->next] = fr->number;
    m->vantage[m->next] = fr->vantage;
    m->next = (m->next + 1) % CHK_MIRROR_RING;
}

int chk_mirror_dup(struct chk *c, const struct cap_frame *fr,
                   const struct ibw_pkt *p)
{
    struct chk_mirror *m = &c->mirror;
    struct ibw_pkt parsed;
    if (!p) {
        ibw_parse_flags(fr->iba, fr->iba_len, fr->link, IBW_PARSE_NO_CRC,
                        &parsed);
        p = &parsed;
    }
    if (p->transport == IBW_TK_NONE)
        return 0; /* copies of other traffic are no concern of the rules */
    int tunnelled = 0;
    for (unsigned i = 0; i < fr->encap.n; i++)
        tunnelled |= fr->encap.layer[i].kind != IBW_ENC_SLL &&
                     fr->encap.layer[i].kind != IBW_ENC_SLL2;
    if (!tunnelled && fr->outer_link != IBW_OUTER_SLL2)
        return 0;
    uint64_t ts = (uint64_t)fr->ts_sec * 1000000000u + fr->ts_nsec;
    uint64_t h = frame_hash(p);
    for (unsigned i = 0; i < CHK_MIRROR_RING; i++) {
        if (!m->frame[i] || m->hash[i] != h ||
            (!tunnelled && m->vantage[i] == fr->vantage))
            continue;
        uint64_t d = ts > m->ts[i] ? ts - m->ts[i] : m->ts[i] - ts;
        if (d > CHK_MIRROR_WINDOW_NS)
            continue;
        if (!m->dups++) {
            m->first_dup = fr->number;
            m->first_of = m->frame[i];
        }
        m->frame[i] = 0; /* a third copy is matched by the second */
        mirror_keep(m, fr, h, ts);
        return 1;
    }
    mirror_keep(m, fr, h, ts);
    if (fr->mirror_cut && !m->cut++) /* the copies' cuts not counted */
        m->first_cut = fr->number;
    return 0;
}

void chk_mirror_finish(struct chk *c)
{
    struct chk_mirror *m = &c->mirror;
    if (!m->dups && !m->cut)
        return;
    uint64_t saved = c->frame;
    c->frame = m->dups ? m->first_dup : m->first_cut;
    c->cur_flow = NULL;
    chk_report(c, CHK_R_CAP_MIRROR_DUP,
               "%llu frame%s recorded twice by the mirror or on two interfaces "
               "(the first, frame "
               "%llu, a copy of frame %llu): copies counted, not judged; "
               "%llu frame%s cut by the mirror (ERSPAN T bit)",
               (unsigned long long)m->dups, m->dups == 1 ? "" : "s",
               (unsigned long long)m->first_dup,
               (unsigned long long)m->first_of, (unsigned long long)m->cut,
               m->cut == 1 ? "" : "s");
    c->frame = saved;
}
