/* SPDX-License-Identifier: Apache-2.0 */
/* check_addr.c - endpoint addresses: read from a packet's headers (the
 * flow keys) and written as text.  Calls no other file of the checker. */
#include <stdio.h>
#include <string.h>

#include <arpa/inet.h>

#include "check_int.h"

/* A GID or IPv6 address: an IPv4-mapped one (::ffff:a.b.c.d) names the
 * same endpoint as IPv4 a.b.c.d (RoCEv1 one way and RoCEv2 the other on
 * one connection is seen on real hosts), and a RoCEv1 GID the same one as
 * the equal RoCEv2 IPv6 address. */
static void addr_gid(struct chk_addr *a, const uint8_t *gid)
{
    static const uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF};
    if (!memcmp(gid, mapped, sizeof mapped)) {
        a->kind = CHK_ADDR_IP4;
        memcpy(a->a, gid + 12, 4);
    } else {
        a->kind = CHK_ADDR_IP6;
        memcpy(a->a, gid, 16);
    }
}
void chk_pkt_addrs(const struct ibw_pkt *p, struct chk_addr *src,
                   struct chk_addr *dst)
{
    const uint8_t *d = p->data;
    memset(src, 0, sizeof *src);
    memset(dst, 0, sizeof *dst);
    if (ibw_pkt_has(p, IBW_HDR_IPV4)) {
        const uint8_t *ip = d + p->off[IBW_HDR_IPV4];
        src->kind = dst->kind = CHK_ADDR_IP4;
        memcpy(src->a, ibw_ipv4_get_saddr(ip), 4);
        memcpy(dst->a, ibw_ipv4_get_daddr(ip), 4);
    } else if (ibw_pkt_has(p, IBW_HDR_IPV6)) {
        const uint8_t *ip = d + p->off[IBW_HDR_IPV6];
        addr_gid(src, ibw_ipv6_get_saddr(ip));
        addr_gid(dst, ibw_ipv6_get_daddr(ip));
    } else if (ibw_pkt_has(p, IBW_HDR_LRH)) {
        const uint8_t *l = d + p->off[IBW_HDR_LRH];
        src->kind = dst->kind = CHK_ADDR_LID;
        ibw_store_be16(src->a + 14, ibw_lrh_get_slid(l));
        ibw_store_be16(dst->a + 14, ibw_lrh_get_dlid(l));
    } else if (ibw_pkt_has(p, IBW_HDR_GRH)) {
        const uint8_t *g = d + p->off[IBW_HDR_GRH];
        addr_gid(src, ibw_grh_get_sgid(g));
        addr_gid(dst, ibw_grh_get_dgid(g));
    }
}

void chk_addr_str(const struct chk_addr *a, char *buf, size_t len)
{
    const uint8_t *b = a->a;
    switch (a->kind) {
    case CHK_ADDR_IP4:
        snprintf(buf, len, "%u.%u.%u.%u", b[0], b[1], b[2], b[3]);
        break;
    case CHK_ADDR_LID:
        snprintf(buf, len, "lid 0x%04x", (unsigned)(b[14] << 8 | b[15]));
        break;
    default: {
        /* RFC 5952: the longest run of zero groups (two or more) as "::",
         * an IPv4-mapped address with its IPv4 part dotted */
        char tmp[64];
        if (!inet_ntop(AF_INET6, b, tmp, sizeof tmp))
            tmp[0] = 0;
        snprintf(buf, len, "%s", tmp);
        break;
    }
    }
}
