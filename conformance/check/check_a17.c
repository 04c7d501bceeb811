/* SPDX-License-Identifier: Apache-2.0 */
/*
 * check_a17.c - RoCEv2 (IBA annex A17) header fields that a connection
 * keeps: per direction of a flow (its requests, its responses), the UDP
 * source port (A17.3.2.1, a "should"), the DSCP (CA17-4, CA17-13), the
 * TTL / hop limit (CA17-9, CA17-17) and the use of ECN (CA17-5, CA17-14).
 * Each side of a connection has its own address vector, so the two
 * directions are held apart.  Each rule is said once per flow and
 * direction, at the first packet that differs from the direction's first.
 *
 * The flow tracker calls chk_a17_frame() once per frame that joins a flow,
 * before judging it: the frame's per-packet findings, which waited for the
 * flow (check_report.c), are said first, as findings of that flow.
 */
#include "check_int.h"

enum {
    CHK_A17_SAID_SPORT = 1,
    CHK_A17_SAID_DSCP = 2,
    CHK_A17_SAID_TTL = 4,
    CHK_A17_SAID_ECN = 8,
};

/* Say rule r on direction d once. */
static int first_time(struct chk_a17_dir *d, unsigned bit)
{
    if (d->said & bit)
        return 0;
    d->said = (uint8_t)(d->said | bit);
    return 1;
}

void chk_a17_frame(struct chk *c, struct chk_flow *f, const struct ibw_pkt *p,
                   int is_req)
{
    chk_report_flush(c, f);
    const uint8_t *ip4 = ibw_pkt_hdr(p, IBW_HDR_IPV4);
    const uint8_t *ip6 = ibw_pkt_hdr(p, IBW_HDR_IPV6);
    const uint8_t *udp = ibw_pkt_hdr(p, IBW_HDR_UDP);
    if (!udp || (!ip4 && !ip6))
        return; /* RoCEv1, native IB: no IP or UDP header of its own */
    uint8_t tc = ip4 ? ip4[1] : (uint8_t)(ip6[0] << 4 | ip6[1] >> 4);
    uint8_t dscp = (uint8_t)(tc >> 2), ecn = tc & 3u;
    uint8_t ttl = ip4 ? ip4[8] : ip6[7];
    uint16_t sport = ibw_udp_get_sport(udp);
    const char *dir = is_req ? "request" : "response";
    const char *ttl_name = ip4 ? "ipv4.ttl" : "ipv6.hop_limit";
    const char *ver = ip4 ? "ipv4" : "ipv6";
    struct chk_a17_dir *d = &f->a17[is_req ? 0 : 1];
    /* Acknowledgements apart from the packets carrying data: a sender may
     * send them Not-ECT as TCP does its pure ACKs (RFC 3168 6.1.4). */
    int ack = ibw_opcode_info(p->opcode)->kind == IBW_OPK_ACK ||
              ibw_opcode_info(p->opcode)->kind == IBW_OPK_ATOMIC_ACK;
    uint8_t ect = (uint8_t)((ecn ? 2 : 1) << (ack ? 2 : 0));
    if (!d->have) {
        d->have = 1;
        d->sport = sport;
        d->dscp = dscp;
        d->ttl = ttl;
        d->ecn = ect;
        return;
    }
    if (sport != d->sport && first_time(d, CHK_A17_SAID_SPORT))
        chk_report(c, CHK_R_FLOW_UDP_SPORT,
                   "udp.sport %u on a %s, the direction's first was %u", sport,
                   dir, d->sport);
    if (dscp != d->dscp && first_time(d, CHK_A17_SAID_DSCP))
        chk_report(c, CHK_R_FLOW_DSCP,
                   "%s.dscp %u on a %s, the direction's first was %u", ver,
                   dscp, dir, d->dscp);
    if (ttl != d->ttl && first_time(d, CHK_A17_SAID_TTL))
        chk_report(c, CHK_R_FLOW_TTL,
                   "%s %u on a %s, the direction's first was %u", ttl_name,
                   ttl, dir, d->ttl);
    uint8_t both = (uint8_t)(3u << (ack ? 2 : 0));
    if (((d->ecn | ect) & both) == both && first_time(d, CHK_A17_SAID_ECN))
        chk_report(c, CHK_R_FLOW_ECN,
                   "%s.ecn %u (%s) on a%s %s, earlier ones were %s", ver, ecn,
                   ecn ? "ECN-capable" : "Not-ECT", ack ? "n" : "",
                   ack ? "acknowledgement" : dir,
                   ecn ? "Not-ECT (00)" : "ECN-capable");
    d->ecn = (uint8_t)(d->ecn | ect);
}
