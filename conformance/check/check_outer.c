/* SPDX-License-Identifier: Apache-2.0 */
/*
 * check_outer.c - a frame whose outer headers (Linux cooked, GRE, ERSPAN,
 * VXLAN, Geneve, MPLS: include/ibwire/encap.h) are in error.
 *
 * The carried frame cannot be taken out as its tunnel endpoint or mirror
 * collector would, so nothing of it joins a flow.  What is said depends
 * on whether the frame was meant to carry RoCE:
 *
 *  - the header in error keeps a known layout (a wrong GRE or ERSPAN
 *    version, a VXLAN header without its I flag, a UDP length that does
 *    not fit, Geneve options that do not fill their length): encap.h read
 *    on past it, and the frame found there decides, by the checker's own
 *    test for a frame meant as IBA (EtherType 0x8915, UDP to 4791).  RoCE
 *    inside: PKT-MALFORMED naming the outer field; anything else is other
 *    traffic in a broken tunnel, not this checker's business.  A UDP 4789
 *    datagram whose VXLAN header has the I flag clear is VXLAN in error,
 *    not another protocol: the port is VXLAN's (RFC 7348 5, where the I
 *    flag MUST be set and a VTEP drops a frame without it).
 *  - what it carries cannot be read (the header is cut, a Geneve version
 *    or ERSPAN frame type of unknown layout, GRE source routing): the
 *    numbers that announced the header decide, and every one this reads
 *    names a tunnel or mirror of frames (GRE protocol 0x88BE, 0x22EB,
 *    0x6558, IP or MPLS; UDP destination port 4789 or 6081; EtherType
 *    0x8847/0x8848): PKT-MALFORMED.  A UDP header counts once its
 *    destination port is there.  A GRE header cut before its protocol
 *    field and a Linux cooked header shorter than itself name nothing:
 *    other traffic, as an Ethernet frame too short for its header is; so
 *    is a carried frame cut in its own Ethernet or IP header (the frame's
 *    headers are judged as a plain frame's, and that says nothing yet).
 *  - an MPLS payload that is neither IP nor an Ethernet pseudowire, or
 *    layers nested deeper than encap.h follows, are not malformed, only
 *    not read: other.
 *
 * A header cut by the end of the record, not by an outer length field, is
 * a cut frame like any other (chk_cut_record): counted in CAP-TRUNCATED
 * when the capture recorded the cut or when many frames end at one length
 * (a snap length recorded as the original length), PKT-MALFORMED at the
 * end of the capture otherwise.  A header cut by an outer length field
 * (the IP or UDP length ends the packet inside it) is the sender's:
 * PKT-MALFORMED.
 */
#include <stdio.h>
#include <string.h>

#include "check_int.h"

/* The name a network engineer knows the header by. */
static const char *outer_name(const char *hdr)
{
    static const char *const names[][2] = {
        {"gre", "GRE"},       {"erspan", "ERSPAN"},
        {"vxlan", "VXLAN"},   {"geneve", "Geneve"},
        {"geneve_opt", "Geneve option"},
        {"udp", "UDP"},       {"mpls", "MPLS label stack entry"},
        {"sll", "Linux cooked (SLL)"}, {"sll2", "Linux cooked v2 (SLL2)"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (hdr && !strcmp(hdr, names[i][0]))
            return names[i][1];
    return hdr ? hdr : "outer";
}

/* The protocol of the GRE header before the header in error. */
static unsigned gre_protocol_before(const struct ibw_encap *e,
                                    const uint8_t *rec)
{
    unsigned proto = 0;
    for (unsigned i = 0; i < e->n; i++)
        if (e->layer[i].kind == IBW_ENC_GRE && e->layer[i].off < e->err_off)
            proto = ibw_gre_get_protocol(rec + e->layer[i].off);
    return proto;
}

/* Words the error of a header whose fields are wrong. */
static void field_message(const struct ibw_encap *e, const uint8_t *rec,
                          char *m, size_t n)
{
    const char *h = e->err_hdr ? e->err_hdr : "frame";
    const char *f = e->err_field ? e->err_field : "";
    unsigned v = e->err_value;
    if (!strcmp(h, "gre") && !strcmp(f, "version"))
        snprintf(m, n, "gre.version %u, expected 0: GRE carrying protocol "
                 "0x%04x is RFC 2784's (version 1 is PPTP's, for PPP "
                 "alone); its receiver drops it", v,
                 ibw_gre_get_protocol(rec + e->err_off));
    else if (!strcmp(h, "gre") && !strcmp(f, "routing_present"))
        snprintf(m, n, "gre.routing_present set under protocol 0x%04x: "
                 "RFC 2784 has no routing and its receivers drop it",
                 ibw_gre_get_protocol(rec + e->err_off));
    else if (!strcmp(h, "erspan") && !strcmp(f, "version"))
        snprintf(m, n, "erspan.version %u, expected %s", v,
                 gre_protocol_before(e, rec) == IBW_ETHERTYPE_ERSPAN3
                     ? "2 (type III, GRE protocol 0x22EB)"
                     : "1 (type II, GRE protocol 0x88BE)");
    else if (!strcmp(h, "erspan") && !strcmp(f, "ft"))
        snprintf(m, n, "erspan.ft %u: neither Ethernet (0) nor IP (2), the "
                 "mirrored frame cannot be read", v);
    else if (!strcmp(h, "vxlan"))
        snprintf(m, n, "vxlan.flags 0x%02x: the I flag (0x08) is clear "
                 "(RFC 7348 5: it MUST be set; a VTEP drops the frame)", v);
    else if (!strcmp(h, "geneve") && !strcmp(f, "version"))
        snprintf(m, n, "geneve.version %u, expected 0 (RFC 8926: a tunnel "
                 "endpoint drops a version it does not know)", v);
    else if (!strcmp(h, "geneve"))
        snprintf(m, n, "geneve.optlen %u words: the options do not fill "
                 "it exactly", v);
    else if (!strcmp(h, "geneve_opt"))
        snprintf(m, n, "geneve_opt.length %u words runs past geneve.optlen",
                 v);
    else if (!strcmp(h, "udp"))
        snprintf(m, n, "udp.length %u under UDP port %u: not 8 up to the "
                 "IP payload's length", v,
                 ibw_udp_get_dport(rec + e->err_off));
    else
        snprintf(m, n, "%s%s%s: %s (outer header)", h, *f ? "." : "", f,
                 ibw_strerror(e->err));
}

/* What a record of outer headers in error is. */
enum outer_verdict { OUTER_OTHER, OUTER_MALFORMED, OUTER_CUT };

static enum outer_verdict outer_judge(const struct ibw_encap *e,
                                      const uint8_t *rec, size_t len,
                                      char *m, size_t n)
{
    if (e->err == IBW_E_TRUNCATED) {
        const char *h = e->err_hdr ? e->err_hdr : "";
        /* a header that would name the payload, cut before it does */
        if (!strcmp(h, "sll") || !strcmp(h, "sll2") ||
            (!strcmp(h, "gre") && e->err_have < ibw_gre_SIZE))
            return OUTER_OTHER;
        /* the carried frame's own Ethernet header: judged as a plain
         * frame's would be (too short for it: other traffic) */
        if (!strcmp(h, "eth"))
            return OUTER_OTHER;
        int k = snprintf(m, n, "%s header cut at %u of %u bytes",
                         outer_name(h), e->err_have, e->err_need);
        if (k > 0 && (size_t)k < n)
            snprintf(m + k, n - (size_t)k, "%s",
                     e->err_by_length
                         ? ": an outer length field (IP or UDP) ends the "
                           "packet there"
                         : " (the record ends there, and the capture "
                           "recorded no cut)");
        return e->err_by_length ? OUTER_MALFORMED : OUTER_CUT;
    }
    if (e->err == IBW_E_UNSUPPORTED &&
        !(e->err_hdr && !strcmp(e->err_hdr, "erspan")))
        return OUTER_OTHER; /* MPLS payload unknown, nesting too deep */
    field_message(e, rec, m, n);
    if (!e->err_read_on)
        return OUTER_MALFORMED;
    /* the frame the header carries, read past it, tells */
    struct ibw_pkt p;
    if (e->inner_off > len)
        return OUTER_OTHER;
    size_t il = e->inner_len;
    if (il > len - e->inner_off)
        il = len - e->inner_off;
    ibw_parse(rec + e->inner_off, il, (enum ibw_link)e->inner_link, &p);
    return chk_meant_as_iba(&p) ? OUTER_MALFORMED : OUTER_OTHER;
}

void chk_outer_frame(struct chk *c, uint64_t frame, uint64_t ts_ns,
                     const uint8_t *rec, size_t len, unsigned link,
                     int truncated, uint32_t caplen)
{
    c->frame = frame;
    c->ts_ns = ts_ns;
    c->cur_flow = NULL;
    if (ts_ns >= c->expire_at)
        chk_flows_expire(c, ts_ns);
    c->st.frames++;
    enum ibw_outer_link ol = link == CHK_LINK_OUTER_SLL    ? IBW_OUTER_SLL
                             : link == CHK_LINK_OUTER_SLL2 ? IBW_OUTER_SLL2
                                                           : IBW_OUTER_ETHERNET;
    struct ibw_encap e;
    ibw_decap(rec, len, ol, &e);
    char m[320];
    m[0] = 0;
    enum outer_verdict v = e.err ? outer_judge(&e, rec, len, m, sizeof m)
                                 : OUTER_OTHER;
    if (v == OUTER_OTHER) {
        c->st.not_iba++;
        return;
    }
    c->st.iba++;
    if (v == OUTER_CUT) {
        c->caplen = caplen ? caplen : (uint32_t)len;
        if (c->caplen > c->max_caplen)
            c->max_caplen = c->caplen;
        chk_cut_record(c, truncated, m);
        c->caplen = 0;
    } else {
        chk_report(c, CHK_R_PKT_MALFORMED, "%s", m);
    }
    chk_report_flush(c, NULL);
}
