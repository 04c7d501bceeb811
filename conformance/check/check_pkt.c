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

static void mad_rules(struct chk *c, const struct ibw_pkt *p, uint32_t dqp)
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
    if (v.kind == IBW_MAD_KIND_CM && v.hdr.attributeid != IBW_CM_ATTR_CLASSPORTINFO)
        chk_cm_mad(c, p, ibw_pkt_payload(p), p->payload_len);
}

static void ip_csum_rule(struct chk *c, const struct ibw_pkt *p)
{
    if (p->ip_csum_status != IBW_CRC_BAD)
        return;
    const uint8_t *ip = p->data + p->off[IBW_HDR_IPV4];
    chk_report(c, CHK_R_PKT_IP_CSUM, "ipv4.checksum 0x%04x, computed 0x%04x",
               ibw_ipv4_get_checksum(ip),
               ibw_ipv4_checksum(ip, ibw_ipv4_hdr_len(ip)));
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
    char m[256];
    const char *h = p->err_hdr ? p->err_hdr : "frame";
    snprintf(m, sizeof m, "%s%s%s says %u bytes, the frame ends at %zu "
             "(and the capture recorded no cut)", h, p->err_field ? "." : "",
             p->err_field ? p->err_field : "", (unsigned)p->wire_len, p->len);
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

/* Report the CRC findings of a frame (now, or later for a held one). */
static void crc_report(struct chk *c, const struct ibw_pkt *p)
{
    if (p->icrc_status == IBW_CRC_BAD)
        chk_report(c, CHK_R_PKT_ICRC, "icrc 0x%08x, computed 0x%08x",
                   p->icrc_wire, p->icrc_calc);
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
    for (unsigned i = 0; i < c->ncrc_held; i++) {
        c->frame = c->crc_held[i].frame;
        c->cur_flow = NULL;
        chk_report(c, c->crc_held[i].rule, "%s", c->crc_held[i].msg);
    }
    c->ncrc_held = 0;
    c->frame = saved;
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
        if (icrc)
            snprintf(h->msg, sizeof h->msg, "icrc 0x%08x, computed 0x%08x",
                     p->icrc_wire, p->icrc_calc);
        else
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
        } else {
            /* judged at its own time: flows idle by then end first */
            chk_flows_expire(c, w[i].ts_ns);
            if (chk_packet(c, &p, w[i].truncated))
                chk_flow_packet(c, &p, w[i].truncated);
        }
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
        return 0;
    }
    if (p->err != IBW_OK && !(cut && p->err == IBW_E_TRUNCATED)) {
        if (!iba) {
            c->st.not_iba++;
            return 0;
        }
        c->st.iba++;
        parse_error(c, p);
        ip_csum_rule(c, p);
        return 0;
    }
    if (!ibw_pkt_has(p, IBW_HDR_BTH)) {
        if (cut) {
            c->st.iba++; /* cut before its BTH ends: nothing to follow */
            ip_csum_rule(c, p);
            return 0;
        }
        c->st.not_iba++;
        if (roce_fragment(p))
            ip_csum_rule(c, p);
        return 0;
    }
    c->st.iba++;
    const uint8_t *d = p->data;
    const uint8_t *b = d + p->off[IBW_HDR_BTH];
    const struct ibw_opcode_info *oi = ibw_opcode_info(p->opcode);
    ip_csum_rule(c, p);
    if (ibw_pkt_has(p, IBW_HDR_UDP) && !p->cut) {
        uint16_t got = ibw_udp_get_checksum(d + p->off[IBW_HDR_UDP]);
        if (got) {
            uint16_t want = udp_checksum(p);
            if (got != want)
                chk_report(c, CHK_R_PKT_UDP_CSUM,
                           "udp.checksum 0x%04x, computed 0x%04x (or 0)", got,
                           want);
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
        return 1;
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
        mad_rules(c, p, dqp);
    return 1;
}
