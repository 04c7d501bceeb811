/* SPDX-License-Identifier: Apache-2.0 */
/* check_pkt.c - the rules one frame can be judged by on its own. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_int.h"
#include "ibwire/cm.h"
#include "ibwire/mad.h"

/* Is the frame meant to be IBA at all (so that a parse error is a finding
 * and not just foreign traffic)? */
static int meant_as_iba(const struct ibw_pkt *p);
int chk_meant_as_iba(const struct ibw_pkt *p) { return meant_as_iba(p); }

static int meant_as_iba(const struct ibw_pkt *p)
{
    if (p->link == IBW_LINK_IB || p->transport != IBW_TK_NONE ||
        ibw_pkt_has(p, IBW_HDR_BTH))
        return 1;
    if (p->ethertype == IBW_ETHERTYPE_ROCEV1)
        return 1;
    /* An IP header that failed to parse may still say "UDP to 4791". */
    const uint8_t *d = p->data;
    size_t l4 = 0;
    if (ibw_pkt_has(p, IBW_HDR_IPV4) && p->off[IBW_HDR_IPV4] + 20u <= p->len &&
        d[p->off[IBW_HDR_IPV4] + 9] == IBW_IPPROTO_UDP)
        l4 = p->off[IBW_HDR_IPV4] + 4u * (d[p->off[IBW_HDR_IPV4]] & 15u);
    else if (ibw_pkt_has(p, IBW_HDR_IPV6) && p->off[IBW_HDR_IPV6] + 40u <= p->len &&
             d[p->off[IBW_HDR_IPV6] + 6] == IBW_IPPROTO_UDP)
        l4 = p->off[IBW_HDR_IPV6] + 40u;
    if (l4 && l4 + 4 <= p->len && ibw_load_be16(d + l4 + 2) == IBW_ROCEV2_UDP_PORT)
        return 1;
    if (ibw_pkt_has(p, IBW_HDR_UDP) &&
        p->off[IBW_HDR_UDP] + (size_t)ibw_udp_SIZE <= p->len &&
        ibw_udp_get_dport(p->data + p->off[IBW_HDR_UDP]) == IBW_ROCEV2_UDP_PORT)
        return 1;
    return 0;
}

static uint32_t sum16(uint32_t s, const uint8_t *b, size_t n)
{
    for (size_t i = 0; i + 1 < n; i += 2)
        s += (uint32_t)(b[i] << 8 | b[i + 1]);
    if (n & 1)
        s += (uint32_t)b[n - 1] << 8;
    return s;
}

/* The UDP checksum the datagram should carry (RFC 768 / RFC 8200). */
static uint16_t udp_checksum(const struct ibw_pkt *p)
{
    const uint8_t *d = p->data;
    size_t u = p->off[IBW_HDR_UDP];
    uint32_t ulen = ibw_udp_get_length(d + u);
    uint32_t s = 0;
    if (ibw_pkt_has(p, IBW_HDR_IPV4)) {
        s = sum16(s, d + p->off[IBW_HDR_IPV4] + 12, 8);
    } else {
        s = sum16(s, d + p->off[IBW_HDR_IPV6] + 8, 32);
        s += ulen >> 16;
    }
    s += IBW_IPPROTO_UDP + (ulen & 0xFFFFu);
    s = sum16(s, d + u, 6); /* ports and length, not the checksum */
    if (u + ulen <= p->len)
        s = sum16(s, d + u + 8, ulen - 8);
    while (s >> 16)
        s = (s & 0xFFFFu) + (s >> 16);
    uint16_t r = (uint16_t)~s;
    return r ? r : 0xFFFF;
}

/* Rules that follow from a parse error. */
static void parse_error(struct chk *c, const struct ibw_pkt *p)
{
    const char *h = p->err_hdr ? p->err_hdr : "frame";
    const char *fld = p->err_field ? p->err_field : "";
    const char *dot = p->err_field ? "." : "";
    switch (p->err) {
    case IBW_E_OPCODE: {
        const struct ibw_opcode_info *oi = ibw_opcode_info(p->opcode);
        chk_report(c, CHK_R_PKT_OPCODE, "bth.opcode 0x%02x is %s%s", p->opcode,
                   oi->name,
                   oi->transport == IBW_TR_UD
                       ? " (UD allows only SEND ONLY [WITH IMMEDIATE])"
                       : "");
        break;
    }
    case IBW_E_VERSION:
    case IBW_E_HDRSEQ:
        /* The frame is meant as IBA (its UDP says 4791), so an IP header
         * of the wrong version is a RoCEv2 packet no receiver will take. */
        chk_report(c, CHK_R_PKT_VERSION, "%s%s%s has a value other than %s",
                   h, dot, fld,
                   !strcmp(h, "ipv4")     ? "4"
                   : !strcmp(fld, "ipver") || !strcmp(h, "ipv6") ? "6"
                   : !strcmp(fld, "nxthdr") ? "0x1B" : "0");
        break;
    case IBW_E_PAD:
        chk_report(c, CHK_R_PKT_PAD,
                   "bth.padcnt %u exceeds the %u bytes after the headers",
                   ibw_bth_get_padcnt(p->data + p->off[IBW_HDR_BTH]),
                   (unsigned)(p->icrc_off - p->payload_off));
        break;
    case IBW_E_LENGTH:
        if (!strcmp(h, "payload")) {
            chk_report(c, CHK_R_PKT_NO_PAYLOAD,
                       "%s carries %u payload bytes, expected %s",
                       ibw_opcode_info(p->opcode)->name,
                       (unsigned)(p->icrc_off - p->payload_off),
                       ibw_opcode_info(p->opcode)->kind ==
                               IBW_OPK_ATOMIC_WRITE
                           ? "8"
                           : "none");
            break;
        }
        /* fall through */
    default:
        chk_report(c, CHK_R_PKT_MALFORMED, "%s%s%s: %s", h, dot, fld,
                   ibw_strerror(p->err));
        break;
    }
}

/* Reserved fields of the headers present. */
static void reserved_fields(struct chk *c, const struct ibw_pkt *p)
{
    const uint8_t *d = p->data;
    if (ibw_pkt_has(p, IBW_HDR_LRH)) {
        const uint8_t *l = d + p->off[IBW_HDR_LRH];
        if (ibw_lrh_get_resv2(l) || ibw_lrh_get_resv5(l))
            chk_report(c, CHK_R_PKT_RESERVED,
                       "lrh reserved bits: resv2 %u, resv5 %u, expected 0",
                       ibw_lrh_get_resv2(l), ibw_lrh_get_resv5(l));
    }
    const uint8_t *b = d + p->off[IBW_HDR_BTH];
    if (ibw_bth_get_resv7(b))
        chk_report(c, CHK_R_PKT_RESERVED, "bth.resv7 0x%02x, expected 0",
                   ibw_bth_get_resv7(b));
    if (ibw_pkt_has(p, IBW_HDR_DETH) &&
        ibw_deth_get_resv(d + p->off[IBW_HDR_DETH]))
        chk_report(c, CHK_R_PKT_RESERVED, "deth.resv 0x%02x, expected 0",
                   ibw_deth_get_resv(d + p->off[IBW_HDR_DETH]));
    if (ibw_pkt_has(p, IBW_HDR_RDETH) &&
        ibw_rdeth_get_resv(d + p->off[IBW_HDR_RDETH]))
        chk_report(c, CHK_R_PKT_RESERVED, "rdeth.resv 0x%02x, expected 0",
                   ibw_rdeth_get_resv(d + p->off[IBW_HDR_RDETH]));
    if (ibw_pkt_has(p, IBW_HDR_XRCETH) &&
        ibw_xrceth_get_resv(d + p->off[IBW_HDR_XRCETH]))
        chk_report(c, CHK_R_PKT_RESERVED, "xrceth.resv 0x%02x, expected 0",
                   ibw_xrceth_get_resv(d + p->off[IBW_HDR_XRCETH]));
    if (ibw_pkt_has(p, IBW_HDR_FETH) &&
        ibw_feth_get_resv(d + p->off[IBW_HDR_FETH]))
        chk_report(c, CHK_R_PKT_RESERVED, "feth.resv 0x%x, expected 0",
                   (unsigned)ibw_feth_get_resv(d + p->off[IBW_HDR_FETH]));
}

static void aeth_rules(struct chk *c, const struct ibw_pkt *p,
                       const struct ibw_opcode_info *oi)
{
    uint8_t syn = ibw_aeth_get_syndrome(p->data + p->off[IBW_HDR_AETH]);
    unsigned kind = ibw_aeth_syndrome_kind(syn), val = ibw_aeth_syndrome_value(syn);
    if (syn & 0x80)
        chk_report(c, CHK_R_PKT_RESERVED,
                   "aeth.syndrome 0x%02x has reserved bit 7 set", syn);
    if (kind == IBW_AETH_RESERVED)
        chk_report(c, CHK_R_PKT_AETH,
                   "aeth.syndrome 0x%02x is of the reserved kind (bits 6:5 = 2)",
                   syn);
    else if (kind == IBW_AETH_NAK &&
             (val > IBW_NAK_INVALID_RD_REQUEST ||
              (val == IBW_NAK_INVALID_RD_REQUEST && oi->transport != IBW_TR_RD)))
        chk_report(c, CHK_R_PKT_AETH,
                   "aeth.syndrome 0x%02x: NAK code %u is reserved%s", syn, val,
                   val == IBW_NAK_INVALID_RD_REQUEST ? " outside RD" : "");
    if (kind != IBW_AETH_ACK && oi->kind != IBW_OPK_ACK)
        chk_report(c, CHK_R_PKT_AETH,
                   "aeth.syndrome 0x%02x (%s) on %s; only ACKNOWLEDGE may NAK",
                   syn, kind == IBW_AETH_NAK ? "NAK" : "RNR NAK", oi->name);
}

static void length_rules(struct chk *c, const struct ibw_pkt *p,
                         const struct ibw_opcode_info *oi)
{
    uint32_t pl = p->payload_wire_len, pmtu = c->o.pmtu;
    if (oi->kind == IBW_OPK_ATOMIC_WRITE)
        return;
    if ((oi->flags & IBW_OPF_PAYLOAD) &&
        ((pl + p->pad) % 4 != 0 || (pl == 0 && p->pad)))
        chk_report(c, CHK_R_PKT_PAD,
                   "bth.padcnt %u with %u payload bytes, expected %u",
                   p->pad, pl, (4 - (pl & 3)) & 3);
    if (!(oi->flags & IBW_OPF_PAYLOAD))
        return;
    unsigned pos = oi->flags & (IBW_OPF_FIRST | IBW_OPF_MIDDLE | IBW_OPF_LAST);
    if (pos == IBW_OPF_FIRST || pos == IBW_OPF_MIDDLE) {
        if (pmtu && pl != pmtu)
            chk_report(c, CHK_R_PKT_LEN_FULL,
                       "%s payload %u bytes, expected PMTU %u", oi->name, pl,
                       pmtu);
        else if (!pmtu && !ibw_mtu_bytes_to_enum(pl))
            chk_report(c, CHK_R_PKT_LEN_FULL,
                       "%s payload %u bytes is no valid PMTU (256..4096)",
                       oi->name, pl);
        return;
    }
    uint32_t lim = pmtu ? pmtu : 4096;
    if (pl > lim || (pos == IBW_OPF_LAST && pl == 0))
        chk_report(c, CHK_R_PKT_LEN_LAST,
                   "%s payload %u bytes, expected %u..%u%s", oi->name, pl,
                   pos == IBW_OPF_LAST ? 1u : 0u, lim,
                   pmtu ? " (PMTU)" : " (largest PMTU)");
}

/* feed_cm: 0 for a frame its receiver drops (a bad IP or UDP checksum, an
 * A17 header fault): judged as a MAD, but it moves no CM exchange. */
static void mad_rules(struct chk *c, const struct ibw_pkt *p, uint32_t dqp,
                      int feed_cm)
{
    const uint8_t *d = p->data;
    if (ibw_pkt_has(p, IBW_HDR_DETH) && dqp == 1 &&
        ibw_deth_get_qkey(d + p->off[IBW_HDR_DETH]) != 0x80010000u)
        chk_report(c, CHK_R_PKT_QP1_QKEY,
                   "deth.qkey 0x%08x to QP1, expected 0x80010000",
                   ibw_deth_get_qkey(d + p->off[IBW_HDR_DETH]));
    if (p->payload_wire_len != IBW_MAD_SIZE) {
        chk_report(c, CHK_R_PKT_MAD,
                   "datagram to QP%u carries %u bytes, a MAD is %u", dqp,
                   p->payload_wire_len, (unsigned)IBW_MAD_SIZE);
        return;
    }
    /* A MAD cut by the capture: its header is judged when it is all
     * there (the decoder reads no further for its verdict, so the missing
     * bytes stand as zeros), its CM message as far as it was captured. */
    uint8_t whole[IBW_MAD_SIZE];
    const uint8_t *mad = ibw_pkt_payload(p);
    if (p->payload_len != IBW_MAD_SIZE) {
        if (p->payload_len < IBW_MAD_HDR_SIZE)
            return;
        memset(whole, 0, sizeof whole);
        memcpy(whole, mad, p->payload_len);
        mad = whole;
    }
    struct ibw_mad_view v;
    int e = ibw_mad_decode(mad, IBW_MAD_SIZE, &v);
    if (e != IBW_OK) {
        chk_report(c, CHK_R_PKT_MAD, "mad.%s: %s (class 0x%02x method 0x%02x "
                   "attribute 0x%04x)", v.err_field ? v.err_field : "?",
                   ibw_strerror(e), v.hdr.mgmtclass, v.hdr.method,
                   v.hdr.attributeid);
        return;
    }
    unsigned want = 0;
    switch (v.hdr.mgmtclass) {
    case IBW_MGMT_CLASS_SUBN_LID_ROUTED:
    case IBW_MGMT_CLASS_SUBN_DIRECTED_ROUTE:
    case IBW_MGMT_CLASS_PERF_MGMT:
        want = 1;
        break;
    case IBW_MGMT_CLASS_SUBN_ADM:
    case IBW_MGMT_CLASS_CM:
        want = 2;
        break;
    default: break;
    }
    if (want && v.hdr.classversion != want)
        chk_report(c, CHK_R_PKT_MAD,
                   "mad.classversion %u for class 0x%02x, expected %u",
                   v.hdr.classversion, v.hdr.mgmtclass, want);
    int smp = v.hdr.mgmtclass == IBW_MGMT_CLASS_SUBN_LID_ROUTED ||
              v.hdr.mgmtclass == IBW_MGMT_CLASS_SUBN_DIRECTED_ROUTE;
    if ((dqp == 0) != smp)
        chk_report(c, CHK_R_PKT_MAD,
                   "class 0x%02x MAD sent to QP%u; SMPs go to QP0, GMPs to QP1",
                   v.hdr.mgmtclass, dqp);
    c->st.cm_messages += v.kind == IBW_MAD_KIND_CM;
    if (feed_cm && v.kind == IBW_MAD_KIND_CM &&
        v.hdr.attributeid != IBW_CM_ATTR_CLASSPORTINFO)
        chk_cm_mad(c, p, ibw_pkt_payload(p), p->payload_len);
}

/* 1 when the IPv4 header checksum is bad: the receiver's IP layer drops
 * the frame, so it joins no flow or CM exchange. */
static int ip_csum_rule(struct chk *c, const struct ibw_pkt *p)
{
    if (p->ip_csum_status != IBW_CRC_BAD)
        return 0;
    const uint8_t *ip = p->data + p->off[IBW_HDR_IPV4];
    chk_report(c, CHK_R_PKT_IP_CSUM, "ipv4.checksum 0x%04x, computed 0x%04x",
               ibw_ipv4_get_checksum(ip),
               ibw_ipv4_checksum(ip, ibw_ipv4_hdr_len(ip)));
    return 1;
}

/* An IPv4 fragment is left undecoded by the parser; one whose UDP header
 * (or what stands where it would be) says 4791 is RoCEv2 traffic, and its
 * IPv4 header is still checkable on its own. */
static int roce_fragment(const struct ibw_pkt *p)
{
    if (!ibw_pkt_has(p, IBW_HDR_IPV4))
        return 0;
    const uint8_t *ip = p->data + p->off[IBW_HDR_IPV4];
    return (ibw_ipv4_get_mf(ip) || ibw_ipv4_get_frag_offset(ip)) &&
           meant_as_iba(p);
}

/* A frame cut short: the capture recorded the cut (a snap length), or it
 * did not (caplen = len) and then only a pattern (many frames ending at one
 * length) tells a cut from a malformed frame; the first frames of a length
 * wait for that verdict, which chk_finish() gives to the ones left. */
static void cut_frame(struct chk *c, const struct ibw_pkt *p, int truncated)
{
    char m[256];
    const char *h = p->err_hdr ? p->err_hdr : "frame";
    snprintf(m, sizeof m, "%s%s%s says %u bytes, the frame ends at %zu "
             "(and the capture recorded no cut)", h, p->err_field ? "." : "",
             p->err_field ? p->err_field : "", (unsigned)p->wire_len, p->len);
    chk_cut_record(c, truncated, m);
}

void chk_cut_record(struct chk *c, int truncated, const char *m)
{
    if (truncated) {
        if (!c->cut_recorded++)
            c->cut_first_frame = c->frame;
        if (!c->snap_min || c->caplen < c->snap_min)
            c->snap_min = c->caplen;
        if (c->caplen > c->snap_max)
            c->snap_max = c->caplen;
        return;
    }
    struct chk_cutlen *cl = NULL;
    for (unsigned i = 0; i < c->ncutlen; i++)
        if (c->cutlen[i].len == c->caplen)
            cl = &c->cutlen[i];
    if (!cl && c->ncutlen < CHK_CUT_LENGTHS) {
        cl = &c->cutlen[c->ncutlen++];
        memset(cl, 0, sizeof *cl);
        cl->len = c->caplen;
    }
    if (!cl) { /* too many lengths: no snap length, each one malformed */
        chk_report(c, CHK_R_PKT_MALFORMED, "%s", m);
        return;
    }
    if (cl->count < CHK_CUT_PATTERN) {
        cl->frames[cl->count] = c->frame;
        cl->msgs[cl->count] = strdup(m);
    }
    cl->count++;
    if (cl->count == CHK_CUT_PATTERN)
        for (unsigned i = 0; i < CHK_CUT_PATTERN; i++) {
            free(cl->msgs[i]);
            cl->msgs[i] = NULL;
        }
}

void chk_cut_finish(struct chk *c)
{
    uint64_t unrec = 0, first = 0;
    uint32_t ulen = 0;
    for (unsigned i = 0; i < c->ncutlen; i++) {
        struct chk_cutlen *cl = &c->cutlen[i];
        /* many frames ending there, or no frame of the capture longer:
         * the capture tool's snap length */
        if (cl->count >= CHK_CUT_PATTERN || cl->len >= c->max_caplen) {
            if (!unrec || cl->frames[0] < first)
                first = cl->frames[0];
            if (cl->count > unrec)
                ulen = cl->len;
            unrec += cl->count;
            continue;
        }
        for (unsigned k = 0; k < cl->count; k++) {
            uint64_t saved = c->frame;
            c->frame = cl->frames[k];
            c->cur_flow = NULL;
            chk_report(c, CHK_R_PKT_MALFORMED, "%s", cl->msgs[k]);
            c->frame = saved;
            free(cl->msgs[k]);
            cl->msgs[k] = NULL;
        }
    }
    uint64_t saved = c->frame;
    c->cur_flow = NULL;
    if (c->cut_recorded) {
        c->frame = c->cut_first_frame;
        if (c->snap_min == c->snap_max)
            chk_report(c, CHK_R_CAP_TRUNCATED,
                       "%llu frames cut by the capture at %u bytes (snap "
                       "length): payload and ICRC not checked on them",
                       (unsigned long long)c->cut_recorded, c->snap_max);
        else
            chk_report(c, CHK_R_CAP_TRUNCATED,
                       "%llu frames cut by the capture at %u..%u bytes: "
                       "payload and ICRC not checked on them",
                       (unsigned long long)c->cut_recorded, c->snap_min,
                       c->snap_max);
    }
    if (unrec) {
        c->frame = first;
        chk_report(c, CHK_R_CAP_TRUNCATED,
                   "%llu frames end at %u bytes, short of what their length "
                   "fields say, with the cut length recorded as their "
                   "original length: cut by the capture tool (snap length "
                   "%u); payload and ICRC not checked on them",
                   (unsigned long long)unrec, ulen, ulen);
    }
    c->frame = saved;
}


/* ---- what a wrong ICRC was computed as (bug zoo rows 1-3, 31a) ---- */

enum {
    ICRC_NO_TOS = 1,       /* IPv4 TOS / IPv6 traffic class and flow label */
    ICRC_NO_TTL = 2,       /* TTL / hop limit */
    ICRC_NO_IPCSUM = 4,    /* IPv4 header checksum */
    ICRC_NO_UDPCSUM = 8,   /* UDP checksum */
    ICRC_NO_BTH = 16,      /* BTH byte 4 (FECN, BECN, resv6) */
    ICRC_NO_ONES = 32,     /* the 8 bytes of ones standing for the LRH */
    ICRC_GRH = 64,         /* IPv4 masked where an IB GRH has its variant
                              fields (bytes 0-3 but the version, byte 7) */
    ICRC_PAD_ZERO = 128,   /* the pad bytes taken as zeros */
};

/* The ICRC of bytes [ip, end) of a RoCEv2 packet, masked as A17.3.3 says
 * except for what `skip` names; tmp has room for end - ip bytes. */
static uint32_t icrc_variant(const struct ibw_pkt *p, size_t ip, size_t end,
                             unsigned skip, uint8_t *tmp)
{
    static const uint8_t ones[8] = {0xFF, 0xFF, 0xFF, 0xFF,
                                    0xFF, 0xFF, 0xFF, 0xFF};
    size_t n = end - ip, udp = p->off[IBW_HDR_UDP] - ip,
           bth = p->off[IBW_HDR_BTH] - ip;
    memcpy(tmp, p->data + ip, n);
    if (ibw_pkt_has(p, IBW_HDR_IPV4)) {
        if (skip & ICRC_GRH) {
            tmp[0] |= 0x0F;
            tmp[1] = tmp[2] = tmp[3] = tmp[7] = 0xFF;
        } else {
            if (!(skip & ICRC_NO_TOS))
                tmp[1] = 0xFF;
            if (!(skip & ICRC_NO_TTL))
                tmp[8] = 0xFF;
            if (!(skip & ICRC_NO_IPCSUM))
                tmp[10] = tmp[11] = 0xFF;
        }
    } else {
        if (!(skip & ICRC_NO_TOS)) {
            tmp[0] |= 0x0F;
            tmp[1] = tmp[2] = tmp[3] = 0xFF;
        }
        if (!(skip & ICRC_NO_TTL))
            tmp[7] = 0xFF;
    }
    if (!(skip & ICRC_NO_UDPCSUM) && udp + 8 <= n)
        tmp[udp + 6] = tmp[udp + 7] = 0xFF;
    if (!(skip & ICRC_NO_BTH) && bth + 5 <= n)
        tmp[bth + 4] = 0xFF;
    if ((skip & ICRC_PAD_ZERO) && p->pad <= n)
        memset(tmp + n - p->pad, 0, p->pad);
    uint32_t crc = skip & ICRC_NO_ONES ? 0 : ibw_crc32(0, ones, sizeof ones);
    return ibw_crc32(crc, tmp, n);
}

/* Why a RoCEv2 frame's carried ICRC is wrong, when it is one of the known
 * wrong computations: appended to buf (empty when none fits).  *extra: the
 * bytes a sender put after the headers beyond what its length fields
 * count, when the frame's last 4 bytes are the ICRC of all before them. */
static void icrc_diag(const struct ibw_pkt *p, char *buf, size_t n,
                      uint32_t *extra)
{
    buf[0] = 0;
    *extra = 0;
    int v4 = ibw_pkt_has(p, IBW_HDR_IPV4);
    if ((!v4 && !ibw_pkt_has(p, IBW_HDR_IPV6)) ||
        !ibw_pkt_has(p, IBW_HDR_UDP) || !ibw_pkt_has(p, IBW_HDR_BTH) ||
        p->icrc_off + 4u > p->len || p->payload_off > p->icrc_off)
        return;
    size_t ip = p->off[v4 ? IBW_HDR_IPV4 : IBW_HDR_IPV6], ic = p->icrc_off;
    uint8_t *tmp = malloc(p->len);
    if (!tmp)
        return;
    uint32_t got = p->icrc_wire;
    if (icrc_variant(p, ip, ic, 0, tmp) != p->icrc_calc)
        goto out; /* not the masking the parser used: say nothing */
    /* zoo 1: the pad bytes left out of the CRC */
    if (p->pad && icrc_variant(p, ip, ic - p->pad, 0, tmp) == got) {
        snprintf(buf, n, ": the CRC of the packet without its %u pad bytes "
                 "(the pad left out, as Linux rxe did before 2030abddec68)",
                 p->pad);
        goto out;
    }
    /* zoo 2: the ICRC where the packet does not end */
    if (p->pad) {
        uint32_t early = ibw_load_le32(p->data + ic - p->pad);
        if (early == p->icrc_calc ||
            early == icrc_variant(p, ip, ic, ICRC_PAD_ZERO, tmp) ||
            early == icrc_variant(p, ip, ic - p->pad, 0, tmp)) {
            snprintf(buf, n, ": the packet's ICRC stands %u bytes earlier, "
                     "over the pad (written at the payload's end, not the "
                     "packet's)", p->pad);
            goto out;
        }
    }
    if (p->len >= ic + 8) {
        size_t e = p->len - 4;
        if (ibw_load_le32(p->data + e) == icrc_variant(p, ip, e, 0, tmp)) {
            *extra = (uint32_t)(e - ic);
            snprintf(buf, n, ": the frame's last 4 bytes, %u bytes past where "
                     "the length fields end the packet, are the ICRC of all "
                     "before them: %u bytes after the headers that the "
                     "length fields do not count", (unsigned)(e - ic),
                     (unsigned)(e - p->payload_off));
            goto out;
        }
        if (ibw_load_le32(p->data + e) == p->icrc_calc) {
            snprintf(buf, n, ": the right ICRC is the frame's last 4 bytes, "
                     "%u bytes past where the length fields end the packet",
                     (unsigned)(e - ic));
            goto out;
        }
    }
    /* zoo 3: the variant fields masked wrongly */
    static const struct {
        unsigned skip;
        const char *v4, *v6;
    } masks[] = {
        {ICRC_NO_UDPCSUM, "the UDP checksum not masked",
         "the UDP checksum not masked"},
        {ICRC_NO_TTL, "the IPv4 TTL not masked", "the IPv6 hop limit not masked"},
        {ICRC_NO_TOS, "the IPv4 TOS not masked",
         "the IPv6 traffic class and flow label not masked"},
        {ICRC_NO_IPCSUM, "the IPv4 header checksum not masked", NULL},
        {ICRC_NO_TOS | ICRC_NO_TTL | ICRC_NO_IPCSUM | ICRC_NO_UDPCSUM,
         "no IP or UDP field masked", "no IP or UDP field masked"},
        {ICRC_GRH | ICRC_NO_UDPCSUM,
         "the IPv4 header masked as an IB GRH (bytes 0-3 and 7)", NULL},
        {ICRC_NO_BTH, "BTH byte 4 (FECN, BECN) not masked",
         "BTH byte 4 (FECN, BECN) not masked"},
        {ICRC_NO_ONES, "no 8 bytes of ones for the LRH",
         "no 8 bytes of ones for the LRH"},
    };
    for (size_t i = 0; i < sizeof masks / sizeof masks[0]; i++) {
        const char *what = v4 ? masks[i].v4 : masks[i].v6;
        if (what && icrc_variant(p, ip, ic, masks[i].skip, tmp) == got) {
            snprintf(buf, n, ": the CRC with %s (RoCEv2 masks TOS, TTL and "
                     "checksum of IPv4, traffic class, flow label and hop "
                     "limit of IPv6, the UDP checksum, BTH byte 4)", what);
            goto out;
        }
    }
out:
    free(tmp);
}

/* The flow a frame its receiver dropped (bad CRC) would have joined, by
 * the addresses and QPN it carries, or NULL: it is judged by its CRC alone
 * and joins none, but its findings are said once per flow like any
 * per-packet rule's. */
static struct chk_flow *dropped_flow(struct chk *c, const struct ibw_pkt *p)
{
    const uint8_t *b = ibw_pkt_hdr(p, IBW_HDR_BTH);
    if (!b)
        return NULL;
    const struct ibw_opcode_info *oi = ibw_opcode_info(p->opcode);
    struct chk_addr src, dst;
    chk_pkt_addrs(p, &src, &dst);
    uint32_t dqp = ibw_bth_get_destqp(b);
    struct chk_flow *f = oi->flags & IBW_OPF_REQUEST
                             ? chk_flow_get(c, &src, &dst, dqp, 0)
                         : oi->flags & IBW_OPF_RESPONSE
                             ? chk_flow_of_response(c, &src, &dst, dqp)
                             : NULL;
    return f && !f->dead ? f : NULL;
}

/* Report the CRC findings of a frame (now, or later for a held one). */
static void crc_report(struct chk *c, const struct ibw_pkt *p)
{
    if (p->icrc_status == IBW_CRC_BAD) {
        char why[320];
        uint32_t extra;
        icrc_diag(p, why, sizeof why, &extra);
        chk_report(c, CHK_R_PKT_ICRC, "icrc 0x%08x, computed 0x%08x%s",
                   p->icrc_wire, p->icrc_calc, why);
        if (extra && !(ibw_opcode_info(p->opcode)->flags & IBW_OPF_PAYLOAD))
            chk_report(c, CHK_R_PKT_NO_PAYLOAD,
                       "%s carries %u bytes after its headers, expected none "
                       "(beyond its length fields; the ICRC at the frame's "
                       "end covers them)", ibw_opcode_info(p->opcode)->name,
                       extra + p->payload_wire_len + p->pad);
    }
    if (p->vcrc_status == IBW_CRC_BAD)
        chk_report(c, CHK_R_PKT_VCRC, "vcrc 0x%04x, computed 0x%04x",
                   p->vcrc_wire, p->vcrc_calc);
}

/* Until a frame with a good ICRC/VCRC shows that the capture records the
 * CRCs as they were on the wire, bad ones are held: a capture point that
 * copies frames before the NIC inserts the ICRC (or after it strips it)
 * makes every frame's ICRC "bad" while the traffic flows normally. */
static void crc_held_release(struct chk *c)
{
    uint64_t saved = c->frame;
    uint8_t defer = c->defer; /* earlier frames': said now, in order */
    c->defer = 0;
    for (unsigned i = 0; i < c->ncrc_held; i++) {
        c->frame = c->crc_held[i].frame;
        c->cur_flow = NULL;
        chk_report(c, c->crc_held[i].rule, "%s", c->crc_held[i].msg);
    }
    c->ncrc_held = 0;
    c->frame = saved;
    c->defer = defer;
}

/* Hold the bad-CRC findings of frame p (said now when there is no room). */
static void crc_hold(struct chk *c, const struct ibw_pkt *p)
{
    for (unsigned k = 0; k < 2; k++) {
        int icrc = k == 0;
        if ((icrc ? p->icrc_status : p->vcrc_status) != IBW_CRC_BAD)
            continue;
        if (c->ncrc_held == c->capcrc_held && c->capcrc_held < 65536) {
            unsigned n = c->capcrc_held ? c->capcrc_held * 2 : 16;
            struct chk_crc_held *nh = realloc(c->crc_held, n * sizeof *nh);
            if (nh) {
                c->crc_held = nh;
                c->capcrc_held = n;
            }
        }
        if (c->ncrc_held == c->capcrc_held) {
            crc_report(c, p); /* no room to hold it: say it now */
            return;
        }
        struct chk_crc_held *h = &c->crc_held[c->ncrc_held++];
        h->frame = c->frame;
        h->rule = icrc ? CHK_R_PKT_ICRC : CHK_R_PKT_VCRC;
        if (icrc) {
            /* A capture without wire CRCs holds every frame: the causes are
             * looked for on its first frames only (CAP-CRC drops them all) */
            char why[320] = "";
            uint32_t extra;
            if (c->ncrc_held <= 64)
                icrc_diag(p, why, sizeof why, &extra);
            snprintf(h->msg, sizeof h->msg, "icrc 0x%08x, computed 0x%08x%s",
                     p->icrc_wire, p->icrc_calc, why);
        } else
            snprintf(h->msg, sizeof h->msg, "vcrc 0x%04x, computed 0x%04x",
                     p->vcrc_wire, p->vcrc_calc);
    }
}

/* A bad-CRC frame before any good one: keep a copy until the capture shows
 * whether it records wire CRCs.  0 when there is no room (judge it now). */
static int crc_wait_add(struct chk *c, const struct ibw_pkt *p, int truncated)
{
    if (c->ncrc_wait == CHK_CRC_PATTERN)
        return 0;
    struct chk_crc_wait *w = &c->crc_wait[c->ncrc_wait];
    w->bytes = malloc(p->len ? p->len : 1);
    if (!w->bytes)
        return 0;
    memcpy(w->bytes, p->data, p->len);
    w->len = (uint32_t)p->len;
    w->caplen = c->caplen;
    w->link = p->link;
    w->truncated = (uint8_t)truncated;
    w->frame = c->frame;
    w->ts_ns = c->ts_ns;
    c->ncrc_wait++;
    return 1;
}

/* The waiting bad-CRC frames, in their order: wire CRCs (a good one came)
 * judge each by its CRC alone, like any bad-CRC frame; else (no good one
 * among CHK_CRC_PATTERN frames, a frame with no CRC verdict, the end of the
 * capture) they are judged whole, their CRC findings held, and so is every
 * bad-CRC frame after them. */
static void crc_wait_end(struct chk *c, int wire_crcs)
{
    struct chk_crc_wait w[CHK_CRC_PATTERN];
    unsigned n = c->ncrc_wait;
    memcpy(w, c->crc_wait, n * sizeof *w);
    c->ncrc_wait = 0;
    if (!wire_crcs)
        c->crc_nowait = 1;
    uint64_t frame = c->frame, ts = c->ts_ns;
    uint32_t caplen = c->caplen;
    struct chk_flow *cur = c->cur_flow;
    for (unsigned i = 0; i < n; i++) {
        struct ibw_pkt p;
        ibw_parse(w[i].bytes, w[i].len, (enum ibw_link)w[i].link, &p);
        c->frame = w[i].frame;
        c->ts_ns = w[i].ts_ns;
        c->caplen = w[i].caplen;
        c->cur_flow = NULL;
        if (wire_crcs) {
            c->st.iba++;
            chk_flow_corrupt(c, &p);
            crc_report(c, &p);
            chk_report_flush(c, dropped_flow(c, &p));
        } else {
            /* judged at its own time: flows idle by then end first */
            chk_flows_expire(c, w[i].ts_ns);
            if (chk_packet(c, &p, w[i].truncated))
                chk_flow_packet(c, &p, w[i].truncated);
        }
        chk_report_flush(c, NULL); /* what joined no flow, before the next */
        free(w[i].bytes);
    }
    c->frame = frame;
    c->ts_ns = ts;
    c->caplen = caplen;
    c->cur_flow = cur;
}

void chk_crc_wait_finish(struct chk *c)
{
    if (c->ncrc_wait)
        crc_wait_end(c, 0);
}

void chk_crc_finish(struct chk *c)
{
    if (!c->crc_good && c->crc_bad && c->st.iba >= CHK_CRC_PATTERN) {
        uint64_t saved = c->frame;
        c->frame = c->crc_held[0].frame;
        c->cur_flow = NULL;
        chk_report(c, CHK_R_CAP_CRC,
                   "none of the %llu whole IBA frames carries a valid "
                   "ICRC/VCRC: the capture point records frames without the "
                   "CRCs the wire carried (a NIC-side sniffer); CRCs not "
                   "judged, the rest of each frame is", (unsigned long long)c->crc_bad);
        c->frame = saved;
        c->ncrc_held = 0;
        return;
    }
    crc_held_release(c);
}


/* ---- RoCEv2 headers: annex A17's fixed fields, the Ethernet source ---- */

/* IPv4 options, DF clear, a fragment (CA17-3, -7, -8); 1 when said. */
static int ip4_fields(struct chk *c, const struct ibw_pkt *p)
{
    if (!ibw_pkt_has(p, IBW_HDR_IPV4))
        return 0;
    const uint8_t *ip = p->data + p->off[IBW_HDR_IPV4];
    unsigned ihl = ibw_ipv4_get_ihl(ip), df = ibw_ipv4_get_df(ip),
             mf = ibw_ipv4_get_mf(ip), fo = ibw_ipv4_get_frag_offset(ip),
             rs = ibw_ipv4_get_resv(ip);
    if (ihl == 5 && !rs && df && !mf && !fo)
        return 0;
    chk_report(c, CHK_R_PKT_IP_HDR,
               "ipv4 ihl %u, flags %u%u%u, frag_offset %u; RoCEv2 has ihl 5, "
               "flags 010 (reserved 0, DF 1, MF 0), frag_offset 0", ihl, rs,
               df, mf, fo);
    return 1;
}

/* An IP datagram whose protocol / next header is not UDP but whose next
 * bytes read as a UDP header to 4791 exactly as long as the datagram, then
 * a BTH: a RoCEv2 packet with the wrong protocol (CA17-10, CA17-16). */
static int ip_proto(struct chk *c, const struct ibw_pkt *p)
{
    const uint8_t *d = p->data;
    size_t l4, end;
    unsigned proto;
    const char *fld;
    if (ibw_pkt_has(p, IBW_HDR_IPV4)) {
        const uint8_t *ip = d + p->off[IBW_HDR_IPV4];
        if (p->off[IBW_HDR_IPV4] + 20u > p->len ||
            ibw_ipv4_get_mf(ip) || ibw_ipv4_get_frag_offset(ip))
            return 0;
        proto = ibw_ipv4_get_protocol(ip);
        l4 = p->off[IBW_HDR_IPV4] + ibw_ipv4_hdr_len(ip);
        end = p->off[IBW_HDR_IPV4] + (size_t)ibw_ipv4_get_total_length(ip);
        fld = "ipv4.protocol";
    } else if (ibw_pkt_has(p, IBW_HDR_IPV6)) {
        const uint8_t *ip = d + p->off[IBW_HDR_IPV6];
        if (p->off[IBW_HDR_IPV6] + 40u > p->len)
            return 0;
        proto = ibw_ipv6_get_nexthdr(ip);
        l4 = p->off[IBW_HDR_IPV6] + 40u;
        end = l4 + ibw_ipv6_get_paylen(ip);
        fld = "ipv6.next_header";
    } else {
        return 0;
    }
    /* ... and a BTH after it: TVer 0, a defined opcode (a TCP segment to
     * port 4791 would need its sequence number to fit besides) */
    if (proto == IBW_IPPROTO_UDP || l4 + 8 + ibw_bth_SIZE > end ||
        l4 + 8 + ibw_bth_SIZE > p->len ||
        ibw_load_be16(d + l4 + 2) != IBW_ROCEV2_UDP_PORT ||
        ibw_load_be16(d + l4 + 4) != end - l4 || (d[l4 + 9] & 15) != 0 ||
        ibw_opcode_info(d[l4 + 8])->transport == IBW_TR_RESERVED)
        return 0;
    chk_report(c, CHK_R_PKT_IP_HDR, "%s %u, expected 17 (UDP): a UDP header "
               "to port 4791 follows it", fld, proto);
    return 1;
}

/* An Ethernet source no receiver takes: zero, group or broadcast. */
static int eth_src(struct chk *c, const struct ibw_pkt *p)
{
    if (p->link != IBW_LINK_ETHERNET || !ibw_pkt_has(p, IBW_HDR_ETH) ||
        p->off[IBW_HDR_ETH] + 12u > p->len)
        return 0;
    const uint8_t *m = p->data + p->off[IBW_HDR_ETH] + 6;
    uint64_t mac = 0;
    for (unsigned i = 0; i < 6; i++)
        mac = mac << 8 | m[i];
    /* (a capture point that writes timestamps there: check_l2.c) */
    if (!chk_l2_src_refused(mac) || chk_l2_src_excused(c, mac))
        return 0;
    int isz = mac == 0;
    chk_report(c, CHK_R_PKT_ETH_SRC,
               "eth.src %02x:%02x:%02x:%02x:%02x:%02x is %s", m[0], m[1], m[2],
               m[3], m[4], m[5],
               isz ? "all zeros" : m[0] == 0xFF && !memcmp(m, m + 1, 5) &&
                                           m[5] == 0xFF
                                     ? "the broadcast address"
                                     : "a group (multicast) address");
    return 1;
}

int chk_packet(struct chk *c, const struct ibw_pkt *p, int truncated)
{
    int iba = meant_as_iba(p);
    int cut = p->cut && iba;
    int bad = p->icrc_status == IBW_CRC_BAD || p->vcrc_status == IBW_CRC_BAD;
    int good = !bad && (p->icrc_status == IBW_CRC_GOOD ||
                        p->vcrc_status == IBW_CRC_GOOD);
    /* Bad-CRC frames waiting for the capture's verdict on CRCs get it
     * before this frame is judged. */
    if (iba && !bad && c->ncrc_wait)
        crc_wait_end(c, good);
    if (iba && bad && !c->crc_good && !c->crc_nowait) {
        /* The first bad-CRC frames of the capture: a corrupted frame (its
         * receiver dropped it: judged by its CRC alone, like any later
         * one) or a capture without wire CRCs (judged whole)?  Frames to
         * come tell; CHK_CRC_PATTERN bad ones with no good one make it the
         * latter. */
        if (c->ncrc_wait + 1 < CHK_CRC_PATTERN && crc_wait_add(c, p, truncated))
            return 0;
        crc_wait_end(c, 0);
    }
    if (cut)
        cut_frame(c, p, truncated);
    if (iba && good && !c->crc_good++)
        crc_held_release(c);
    if (iba && bad && !c->crc_good) {
        /* no frame has shown the capture keeps wire CRCs yet: hold the
         * finding, judge the rest of the frame */
        c->crc_bad++;
        crc_hold(c, p);
        bad = 0;
    }
    /* A frame whose ICRC or VCRC is wrong is dropped by its receiver: none
     * of its other bytes can be trusted, so it is judged by that alone. */
    if (iba && bad) {
        c->st.iba++;
        chk_flow_corrupt(c, p);
        crc_report(c, p);
        chk_report_flush(c, dropped_flow(c, p));
        return 0;
    }
    /* Bytes after the headers of an opcode without payload: the headers
     * are whole and the CRC good, so the frame is judged (PKT-NO-PAYLOAD)
     * and joins its flow like any other. */
    int payload_err = p->err == IBW_E_LENGTH && p->err_hdr &&
                      !strcmp(p->err_hdr, "payload");
    if (p->err != IBW_OK && !(cut && p->err == IBW_E_TRUNCATED) &&
        !payload_err) {
        if (!iba) {
            c->st.not_iba++;
            return 0;
        }
        c->st.iba++;
        parse_error(c, p);
        ip_csum_rule(c, p);
        /* its receiver drops it as it drops one with a bad CRC: a copy
         * of some request (or response) that went nowhere */
        chk_flow_corrupt(c, p);
        return 0;
    }
    if (!ibw_pkt_has(p, IBW_HDR_BTH)) {
        if (cut) {
            c->st.iba++; /* cut before its BTH ends: nothing to follow */
            ip_csum_rule(c, p);
            return 0;
        }
        c->st.not_iba++;
        if (roce_fragment(p)) {
            ip_csum_rule(c, p);
            ip4_fields(c, p);
        } else if (ip_proto(c, p)) {
            c->st.not_iba--; /* RoCEv2 with the wrong protocol */
            c->st.iba++;
        }
        return 0;
    }
    c->st.iba++;
    const uint8_t *d = p->data;
    const uint8_t *b = d + p->off[IBW_HDR_BTH];
    const struct ibw_opcode_info *oi = ibw_opcode_info(p->opcode);
    int drop = ip_csum_rule(c, p);
    if (payload_err)
        parse_error(c, p);
    /* A17's fixed IP fields and the Ethernet source: a receiver drops the
     * packet (CA17-24), so it joins no flow. */
    drop |= ip4_fields(c, p);
    drop |= eth_src(c, p);
    if ((p->transport == IBW_TK_ROCE_V2_IP4 ||
         p->transport == IBW_TK_ROCE_V2_IP6) && p->opcode != IBW_OP_CNP &&
        (ibw_bth_get_fecn(b) || ibw_bth_get_becn(b)))
        chk_report(c, CHK_R_PKT_FECN_BECN,
                   "bth.fecn %u, bth.becn %u on RoCEv2, expected 0, 0",
                   ibw_bth_get_fecn(b), ibw_bth_get_becn(b));
    if (ibw_pkt_has(p, IBW_HDR_UDP) && !p->cut) {
        uint16_t got = ibw_udp_get_checksum(d + p->off[IBW_HDR_UDP]);
        if (got) {
            uint16_t want = udp_checksum(p);
            /* the receiver's UDP layer drops it before the RoCE stack
             * sees it (Linux checks it before a tunnel socket's encap_rcv,
             * where rxe takes its frames): it joins no flow or CM */
            if (got != want) {
                chk_report(c, CHK_R_PKT_UDP_CSUM,
                           "udp.checksum 0x%04x, computed 0x%04x (or 0)", got,
                           want);
                drop = 1;
            }
        }
    }
    reserved_fields(c, p);
    uint16_t pkey = ibw_bth_get_pkey(b);
    if ((pkey & 0x7FFFu) == 0)
        chk_report(c, CHK_R_PKT_PKEY, "bth.pkey 0x%04x is invalid", pkey);
    uint32_t dqp = ibw_bth_get_destqp(b);
    if (p->opcode == IBW_OP_CNP) {
        if (p->transport != IBW_TK_ROCE_V2_IP4 &&
            p->transport != IBW_TK_ROCE_V2_IP6)
            chk_report(c, CHK_R_PKT_CNP, "CNP outside RoCEv2");
        if (ibw_bth_get_padcnt(b) || ibw_bth_get_ackreq(b))
            chk_report(c, CHK_R_PKT_CNP, "bth.padcnt %u, bth.ackreq %u, "
                       "expected 0, 0", ibw_bth_get_padcnt(b),
                       ibw_bth_get_ackreq(b));
        const uint8_t *r = ibw_pkt_hdr(p, IBW_HDR_CNP);
        for (unsigned i = 0; r && i < 16; i++)
            if (r[i]) {
                chk_report(c, CHK_R_PKT_CNP,
                           "reserved byte %u after the BTH is 0x%02x, "
                           "expected 0", i, r[i]);
                break;
            }
        return !drop;
    }
    if (dqp <= 1 && oi->transport != IBW_TR_UD)
        chk_report(c, CHK_R_PKT_QP01_UD, "%s to QP%u; QP0/QP1 are UD",
                   oi->name, dqp);
    if (dqp == 0 && oi->transport == IBW_TR_UD && ibw_pkt_has(p, IBW_HDR_LRH) &&
        ibw_lrh_get_vl(d + p->off[IBW_HDR_LRH]) != 15)
        chk_report(c, CHK_R_PKT_QP0_VL15, "lrh.vl %u for QP0, expected 15",
                   ibw_lrh_get_vl(d + p->off[IBW_HDR_LRH]));
    if (ibw_pkt_has(p, IBW_HDR_AETH))
        aeth_rules(c, p, oi);
    length_rules(c, p, oi);
    if (ibw_pkt_has(p, IBW_HDR_ATOMICETH)) {
        uint64_t va = ibw_atomiceth_get_va(d + p->off[IBW_HDR_ATOMICETH]);
        if (va & 7)
            chk_report(c, CHK_R_PKT_ATOMIC_ALIGN,
                       "atomiceth.va 0x%016llx is not 8-byte aligned",
                       (unsigned long long)va);
    }
    if (oi->transport == IBW_TR_UD && dqp <= 1)
        mad_rules(c, p, dqp, !drop);
    return !drop;
}
