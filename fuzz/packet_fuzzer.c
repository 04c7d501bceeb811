/* SPDX-License-Identifier: Apache-2.0 */
/*
 * packet_fuzzer.c - ibw_parse / ibw_build on arbitrary frames.
 *
 * Input byte 0 chooses:
 *   bit 0  the link: 0 Ethernet (RoCEv1/v2, VLAN), 1 native InfiniBand;
 *   bit 1  the mode: 0 parse the rest of the input as a frame,
 *                    1 build a frame from a spec drawn from the input.
 *
 * Parse mode, on every input:
 *   - the view never points outside the input: every present header, the
 *     payload and pad, the ICRC and VCRC lie inside [data, data + len);
 *   - the view is coherent: headers in wire order, the transport headers
 *     are exactly those the opcode table lists, CRC verdicts agree with the
 *     carried and computed values, an error names its header;
 *   - parsing without CRC checks gives the same structure;
 *   - ibw_pkt_store_crcs makes both CRCs good and changes nothing else
 *     (and refuses a cut frame, whose CRCs are not in the bytes);
 *   - a cut frame (bytes ending before its length fields say) is never
 *     IBW_OK, has its CRCs unchecked, its wire lengths beyond the bytes,
 *     and every header in its view wholly inside the bytes;
 * and on a well-formed IBA frame:
 *   - every cut of it (at each header boundary, inside each header, the
 *     payload, the ICRC and the VCRC) parses to the whole frame's view
 *     restricted to the headers that fit, at the same offsets, with the
 *     whole frame's wire lengths, opcode and pad;
 *   - parse -> ibw_build_spec_from_pkt -> build -> parse keeps every
 *     header, the payload and the pad count, with good CRCs, and build is a
 *     fixed point from there on (build(parse(b)) == b byte for byte);
 *   - where every bit of the frame is modelled (zero pad bytes, good CRCs
 *     and IPv4 checksum) the rebuilt frame equals the input byte for byte
 *     up to the end of the IBA packet; IPv4 the builder cannot express
 *     (options, fragments, reserved flag) is refused with
 *     IBW_E_UNSUPPORTED.
 * Build mode: whatever spec the input describes, a successful build parses
 * back with the spec's header values, payload, pad and the CRC verdicts
 * the BAD_ICRC / BAD_VCRC flags ask for.
 */
#include <ibwire/packet.h>

#include "format_check.h"
#include "fuzz_common.h"

/* The framing formats (W15) are in no family harness: decode/encode and
 * descriptor checks on the headers the parser found. */
WIRE_TYPED_DEFINE(ibw_eth)
WIRE_TYPED_DEFINE(ibw_vlan)
WIRE_TYPED_DEFINE(ibw_ipv4)
WIRE_TYPED_DEFINE(ibw_ipv6)
WIRE_TYPED_DEFINE(ibw_udp)
WIRE_TYPED_DEFINE(ibw_cnp)

static void check_framing_header(const struct ibw_pkt *v, unsigned h)
{
    const uint8_t *p = v->data + v->off[h];
    size_t left = v->len - v->off[h];
    struct fuzz_in none = {NULL, 0}; /* write checks with value 0 */
    switch (h) {
    case IBW_HDR_ETH: typed_ibw_eth(p, left); break;
    case IBW_HDR_VLAN:
    case IBW_HDR_VLAN2: typed_ibw_vlan(p, left); break;
    case IBW_HDR_IPV4: typed_ibw_ipv4(p, left); break;
    case IBW_HDR_IPV6: typed_ibw_ipv6(p, left); break;
    case IBW_HDR_UDP: typed_ibw_udp(p, left); break;
    case IBW_HDR_CNP: typed_ibw_cnp(p, left); break;
    default: return;
    }
    check_wire_descriptors(ibw_hdr_format(h), p, &none);
}

/* Largest frame the harness builds: headers, 64 KiB payload, pad, CRCs. */
#define FRAME_CAP (0x10000u + 512u)
static uint8_t frame0[FRAME_CAP], frame1[FRAME_CAP], frame2[FRAME_CAP];

/* The view stays inside the input and is coherent with itself. */
static void check_view(const struct ibw_pkt *v, const uint8_t *data,
                       size_t len)
{
    FUZZ_CHECK(v->data == data && v->len == len);
    FUZZ_CHECK((v->present >> IBW_HDR_COUNT) == 0);
    /* Every header in the view is wholly inside the bytes, IPv4 options
     * included once its version and IHL are sane (before that the fixed
     * 20 bytes are what the error concerns). */
    for (unsigned h = 0; h < IBW_HDR_COUNT; h++)
        if (v->present & (1u << h)) {
            FUZZ_CHECK_AT((size_t)v->off[h] + ibw_hdr_size(h) <= len,
                          ibw_hdr_name(h));
            const uint8_t *ip = data + v->off[h];
            if (h == IBW_HDR_IPV4 && ibw_ipv4_get_version(ip) == 4 &&
                ibw_ipv4_get_ihl(ip) >= 5)
                FUZZ_CHECK((size_t)v->off[h] + ibw_ipv4_hdr_len(ip) <= len);
            const struct ibw_format *f = ibw_hdr_format(h);
            FUZZ_CHECK_AT(f && ibw_format_bytes(f) == ibw_hdr_size(h),
                          ibw_hdr_name(h));
            check_framing_header(v, h);
        }
    FUZZ_CHECK(ibw_transport_kind_name(v->transport) != NULL);
    if (v->err != IBW_OK) {
        FUZZ_CHECK(v->err_hdr != NULL);
        FUZZ_CHECK(v->err <= IBW_E_TRUNCATED && v->err >= IBW_E_LINKTYPE);
    } else {
        FUZZ_CHECK(v->err_hdr == NULL && v->err_field == NULL);
    }
    int bth = ibw_pkt_has(v, IBW_HDR_BTH);
    if (bth && !(v->cut && v->icrc_off == 0)) { /* 0: ICRC not captured */
        FUZZ_CHECK((size_t)v->icrc_off + 4 <= len);
        FUZZ_CHECK(v->icrc_off >= (size_t)v->off[IBW_HDR_BTH] + ibw_bth_SIZE);
    }
    if (bth)
        FUZZ_CHECK(v->opcode == data[v->off[IBW_HDR_BTH]]);
    /* A cut frame: never clean, CRCs unchecked, nothing of it trailer. */
    FUZZ_CHECK(v->cut == 0 || v->cut == 1);
    FUZZ_CHECK(v->err != IBW_E_TRUNCATED || v->cut);
    FUZZ_CHECK((v->icrc_status == IBW_CRC_UNCHECKED ||
                v->vcrc_status == IBW_CRC_UNCHECKED) <= v->cut);
    if (v->cut) {
        FUZZ_CHECK(v->err != IBW_OK);
        FUZZ_CHECK(v->wire_len == 0 || v->wire_len > len);
        FUZZ_CHECK(v->iba_end == len && v->trailer_len == 0);
        FUZZ_CHECK(v->icrc_status == IBW_CRC_ABSENT ||
                   v->icrc_status == IBW_CRC_UNCHECKED);
        FUZZ_CHECK(v->vcrc_status == IBW_CRC_ABSENT ||
                   v->vcrc_status == IBW_CRC_UNCHECKED);
        FUZZ_CHECK(v->vcrc_off == 0);
        FUZZ_CHECK(v->cut_hdr <= IBW_HDR_COUNT);
        if (v->cut_hdr < IBW_HDR_COUNT)
            FUZZ_CHECK(!ibw_pkt_has(v, (enum ibw_hdr)v->cut_hdr) &&
                       v->off[v->cut_hdr] <= len);
        FUZZ_CHECK((size_t)v->payload_off + v->payload_len <= len);
        FUZZ_CHECK(v->payload_len <= v->payload_wire_len);
        return;
    }
    FUZZ_CHECK(v->cut_hdr == 0 && v->wire_len == v->iba_end);
    if (v->icrc_status != IBW_CRC_ABSENT) {
        FUZZ_CHECK(bth);
        FUZZ_CHECK(v->icrc_wire == ibw_load_le32(data + v->icrc_off));
        FUZZ_CHECK((v->icrc_status == IBW_CRC_GOOD) ==
                   (v->icrc_wire == v->icrc_calc));
        FUZZ_CHECK(v->icrc_calc == ibw_icrc_compute(v));
    }
    if (v->vcrc_status != IBW_CRC_ABSENT) {
        FUZZ_CHECK(ibw_pkt_has(v, IBW_HDR_LRH));
        FUZZ_CHECK((size_t)v->vcrc_off + 2 <= len);
        FUZZ_CHECK(v->vcrc_wire ==
                   (uint16_t)(data[v->vcrc_off] | data[v->vcrc_off + 1] << 8));
        FUZZ_CHECK((v->vcrc_status == IBW_CRC_GOOD) ==
                   (v->vcrc_wire == v->vcrc_calc));
    }
    if (v->err != IBW_OK)
        return;

    /* A well-formed frame. */
    FUZZ_CHECK(v->payload_wire_len == v->payload_len);
    FUZZ_CHECK((size_t)v->iba_end + v->trailer_len == len);
    FUZZ_CHECK((size_t)v->payload_off + v->payload_len + v->pad <= len);
    if (ibw_pkt_has(v, IBW_HDR_IPV4))
        FUZZ_CHECK(v->off[IBW_HDR_IPV4] +
                       (size_t)ibw_ipv4_hdr_len(data + v->off[IBW_HDR_IPV4]) <=
                   len);
    /* Headers in wire order: each present one after the previous one. */
    size_t prev_end = 0;
    for (unsigned h = 0; h < IBW_HDR_BTH; h++) {
        if (!(v->present & (1u << h)))
            continue;
        FUZZ_CHECK_AT(v->off[h] >= prev_end, ibw_hdr_name(h));
        prev_end = v->off[h] + (h == IBW_HDR_IPV4
                                    ? ibw_ipv4_hdr_len(data + v->off[h])
                                    : ibw_hdr_size(h));
    }
    switch (v->transport) {
    case IBW_TK_NONE:
        FUZZ_CHECK(!bth && v->link == IBW_LINK_ETHERNET);
        return;
    case IBW_TK_IB_RAW:
        FUZZ_CHECK(!bth && ibw_pkt_has(v, IBW_HDR_LRH));
        FUZZ_CHECK(v->payload_off == ibw_lrh_SIZE &&
                   v->payload_off + v->payload_len == v->vcrc_off);
        return;
    case IBW_TK_IB_LOCAL:
        FUZZ_CHECK(ibw_pkt_has(v, IBW_HDR_LRH) && !ibw_pkt_has(v, IBW_HDR_GRH));
        break;
    case IBW_TK_IB_GLOBAL:
        FUZZ_CHECK(ibw_pkt_has(v, IBW_HDR_LRH) && ibw_pkt_has(v, IBW_HDR_GRH));
        break;
    case IBW_TK_ROCE_V1:
        FUZZ_CHECK(ibw_pkt_has(v, IBW_HDR_ETH) && ibw_pkt_has(v, IBW_HDR_GRH));
        break;
    case IBW_TK_ROCE_V2_IP4:
        FUZZ_CHECK(ibw_pkt_has(v, IBW_HDR_IPV4) && ibw_pkt_has(v, IBW_HDR_UDP));
        break;
    case IBW_TK_ROCE_V2_IP6:
        FUZZ_CHECK(ibw_pkt_has(v, IBW_HDR_IPV6) && ibw_pkt_has(v, IBW_HDR_UDP));
        break;
    default:
        FUZZ_FAIL("unknown transport kind");
    }
    FUZZ_CHECK(bth && v->off[IBW_HDR_BTH] >= prev_end);
    const struct ibw_opcode_info *op = ibw_pkt_opcode_info(v);
    FUZZ_CHECK(op->flags & IBW_OPF_VALID);
    uint32_t routing = v->present & ((1u << (IBW_HDR_BTH + 1)) - 1);
    FUZZ_CHECK((v->present & ~routing) == op->hdrs);
    size_t pos = v->off[IBW_HDR_BTH] + ibw_bth_SIZE;
    for (unsigned i = 0; i < op->nseq; i++) {
        FUZZ_CHECK_AT(v->off[op->seq[i]] == pos, ibw_hdr_name(op->seq[i]));
        pos += ibw_hdr_size(op->seq[i]);
    }
    FUZZ_CHECK(v->payload_off == pos);
    FUZZ_CHECK(v->payload_off + v->payload_len + v->pad == v->icrc_off);
    FUZZ_CHECK(v->pad == ibw_bth_get_padcnt(data + v->off[IBW_HDR_BTH]));
    FUZZ_CHECK(v->payload_len == 0 || (op->flags & IBW_OPF_PAYLOAD));
    if (ibw_pkt_has(v, IBW_HDR_LRH))
        FUZZ_CHECK(v->vcrc_off == v->icrc_off + 4 &&
                   v->iba_end == v->vcrc_off + 2);
    else
        FUZZ_CHECK(v->iba_end == v->icrc_off + 4);
}

/* The same structure, whatever the CRC flag. */
static void check_same_structure(const struct ibw_pkt *a,
                                 const struct ibw_pkt *b)
{
    FUZZ_CHECK(a->err == b->err && a->present == b->present &&
               a->transport == b->transport && a->cut == b->cut &&
               a->cut_hdr == b->cut_hdr && a->wire_len == b->wire_len &&
               a->payload_wire_len == b->payload_wire_len);
    for (unsigned h = 0; h < IBW_HDR_COUNT; h++)
        if (a->present & (1u << h))
            FUZZ_CHECK_AT(a->off[h] == b->off[h], ibw_hdr_name(h));
    if (a->err == IBW_OK)
        FUZZ_CHECK(a->payload_off == b->payload_off &&
                   a->payload_len == b->payload_len && a->pad == b->pad &&
                   a->iba_end == b->iba_end);
}

/* Is every bit of this well-formed frame something the builder re-creates
 * from the spec, so that the rebuild must equal it byte for byte? */
static int fully_modelled(const struct ibw_pkt *v)
{
    const uint8_t *d = v->data;
    if (v->icrc_status != IBW_CRC_GOOD)
        return 0;
    if (ibw_pkt_has(v, IBW_HDR_LRH) && v->vcrc_status != IBW_CRC_GOOD)
        return 0;
    for (uint32_t i = 0; i < v->pad; i++)
        if (d[v->payload_off + v->payload_len + i])
            return 0;
    return !ibw_pkt_has(v, IBW_HDR_IPV4) || v->ip_csum_status == IBW_CRC_GOOD;
}

/* IPv4 that ibw_build cannot express (options, fragments, reserved flag). */
static int ipv4_unbuildable(const struct ibw_pkt *v)
{
    if (!ibw_pkt_has(v, IBW_HDR_IPV4))
        return 0;
    const uint8_t *ip = v->data + v->off[IBW_HDR_IPV4];
    return ibw_ipv4_get_ihl(ip) != 5 || ibw_ipv4_get_resv(ip) ||
           ibw_ipv4_get_mf(ip) || ibw_ipv4_get_frag_offset(ip);
}

static void check_rebuild(const struct ibw_pkt *v)
{
    struct ibw_build_spec s1, s2;
    struct ibw_pkt p1, p2;
    size_t n1 = 0, n2 = 0;
    int rc = ibw_build_spec_from_pkt(v, &s1);
    if (ipv4_unbuildable(v)) {
        FUZZ_CHECK(rc == IBW_E_UNSUPPORTED);
        return;
    }
    FUZZ_CHECK(rc == IBW_OK);
    FUZZ_CHECK(ibw_build(&s1, frame1, sizeof frame1, &n1) == IBW_OK);
    FUZZ_CHECK(ibw_parse(frame1, n1, (enum ibw_link)v->link, &p1) == IBW_OK);
    check_view(&p1, frame1, n1);
    FUZZ_CHECK(p1.transport == v->transport && p1.present == v->present &&
               p1.opcode == v->opcode && p1.pad == v->pad &&
               p1.payload_len == v->payload_len);
    FUZZ_CHECK(p1.icrc_status == IBW_CRC_GOOD);
    FUZZ_CHECK(!ibw_pkt_has(&p1, IBW_HDR_LRH) || p1.vcrc_status == IBW_CRC_GOOD);
    FUZZ_CHECK(p1.trailer_len == 0);
    /* The transport part, BTH through payload, is carried over exactly. */
    size_t from = v->off[IBW_HDR_BTH];
    FUZZ_CHECK(memcmp(frame1 + p1.off[IBW_HDR_BTH], v->data + from,
                      v->payload_off + v->payload_len - from) == 0);
    /* The routing headers keep every field the builder does not derive. */
    if (ibw_pkt_has(v, IBW_HDR_LRH)) {
        struct ibw_lrh a, b;
        ibw_lrh_decode(v->data + v->off[IBW_HDR_LRH], ibw_lrh_SIZE, &a);
        ibw_lrh_decode(frame1 + p1.off[IBW_HDR_LRH], ibw_lrh_SIZE, &b);
        FUZZ_CHECK(a.vl == b.vl && a.sl == b.sl && a.resv2 == b.resv2 &&
                   a.dlid == b.dlid && a.resv5 == b.resv5 &&
                   a.slid == b.slid && a.lnh == b.lnh && a.pktlen == b.pktlen);
    }
    if (ibw_pkt_has(v, IBW_HDR_GRH))
        FUZZ_CHECK(memcmp(frame1 + p1.off[IBW_HDR_GRH],
                          v->data + v->off[IBW_HDR_GRH], ibw_grh_SIZE) == 0);
    if (ibw_pkt_has(v, IBW_HDR_IPV6))
        FUZZ_CHECK(memcmp(frame1 + p1.off[IBW_HDR_IPV6],
                          v->data + v->off[IBW_HDR_IPV6], ibw_ipv6_SIZE) == 0);
    if (ibw_pkt_has(v, IBW_HDR_IPV4))
        FUZZ_CHECK(memcmp(frame1 + p1.off[IBW_HDR_IPV4] + 12,
                          v->data + v->off[IBW_HDR_IPV4] + 12, 8) == 0);
    if (ibw_pkt_has(v, IBW_HDR_UDP))
        FUZZ_CHECK(memcmp(frame1 + p1.off[IBW_HDR_UDP],
                          v->data + v->off[IBW_HDR_UDP], ibw_udp_SIZE) == 0);
    /* Where every bit is modelled, the rebuild is the input up to the end
     * of the IBA packet (a trailer such as an FCS is not part of it). */
    if (fully_modelled(v))
        FUZZ_CHECK(n1 == v->iba_end && memcmp(frame1, v->data, n1) == 0);

    /* From there on build is a fixed point. */
    FUZZ_CHECK(ibw_build_spec_from_pkt(&p1, &s2) == IBW_OK);
    FUZZ_CHECK(ibw_build(&s2, frame2, sizeof frame2, &n2) == IBW_OK);
    FUZZ_CHECK(n2 == n1 && memcmp(frame1, frame2, n1) == 0);
    FUZZ_CHECK(ibw_parse(frame2, n2, (enum ibw_link)v->link, &p2) == IBW_OK);
}

/* Bytes header h of a view takes (IPv4 with its options). */
static size_t hdr_bytes(const struct ibw_pkt *v, unsigned h)
{
    if (h == IBW_HDR_IPV4)
        return ibw_ipv4_hdr_len(v->data + v->off[h]);
    return ibw_hdr_size(h);
}

/* The first `cut` bytes of the well-formed frame of view w (cut below its
 * end): the whole view restricted to the headers that fit. */
static void check_cut_of(const struct ibw_pkt *w, size_t cut)
{
    struct ibw_pkt p;
    int rc = ibw_parse(w->data, cut, (enum ibw_link)w->link, &p);
    check_view(&p, w->data, cut);
    FUZZ_CHECK(rc == IBW_E_TRUNCATED && p.cut);
    /* the first header (in wire order) that does not fit */
    unsigned out = IBW_HDR_COUNT;
    size_t out_off = SIZE_MAX;
    for (unsigned h = 0; h < IBW_HDR_COUNT; h++)
        if (ibw_pkt_has(w, (enum ibw_hdr)h) &&
            w->off[h] + hdr_bytes(w, h) > cut && w->off[h] < out_off) {
            out_off = w->off[h];
            out = h;
        }
    for (unsigned h = 0; h < IBW_HDR_COUNT; h++) {
        int want = ibw_pkt_has(w, (enum ibw_hdr)h) && w->off[h] < out_off;
        FUZZ_CHECK_AT(ibw_pkt_has(&p, (enum ibw_hdr)h) == want,
                      ibw_hdr_name(h));
        if (want)
            FUZZ_CHECK_AT(p.off[h] == w->off[h], ibw_hdr_name(h));
    }
    FUZZ_CHECK(p.cut_hdr == out);
    if (out < IBW_HDR_COUNT) /* where the cut header starts */
        FUZZ_CHECK(p.off[out] == w->off[out]);
    /* the wire length is known once the fixed header holding it is */
    unsigned lh = ibw_pkt_has(w, IBW_HDR_LRH)    ? IBW_HDR_LRH
                  : ibw_pkt_has(w, IBW_HDR_IPV4) ? IBW_HDR_IPV4
                  : ibw_pkt_has(w, IBW_HDR_IPV6) ? IBW_HDR_IPV6
                                                 : IBW_HDR_GRH;
    int known = w->off[lh] + ibw_hdr_size(lh) <= cut;
    FUZZ_CHECK(p.wire_len == (known ? w->iba_end : 0));
    if (ibw_pkt_has(&p, IBW_HDR_BTH)) {
        FUZZ_CHECK(p.opcode == w->opcode && p.pad == w->pad);
        FUZZ_CHECK(p.payload_wire_len == w->payload_len);
        FUZZ_CHECK(p.icrc_status == IBW_CRC_UNCHECKED);
    }
    if (out == IBW_HDR_COUNT) {
        size_t got = cut - w->payload_off;
        FUZZ_CHECK(p.payload_off == w->payload_off);
        FUZZ_CHECK(p.payload_len ==
                   (got < w->payload_len ? got : w->payload_len));
    } else {
        FUZZ_CHECK(p.payload_len == 0);
    }
    if (w->link == IBW_LINK_IB)
        FUZZ_CHECK(p.vcrc_status == IBW_CRC_UNCHECKED);
}

/* Cuts of a well-formed IBA frame: at each header's start, inside it and
 * at its end, in the middle of the payload, inside the ICRC, the VCRC. */
static void check_cuts(const struct ibw_pkt *w)
{
    size_t end = w->iba_end;
    for (unsigned h = 0; h < IBW_HDR_COUNT; h++)
        if (ibw_pkt_has(w, (enum ibw_hdr)h)) {
            size_t o = w->off[h], n = hdr_bytes(w, h);
            check_cut_of(w, o);
            check_cut_of(w, o + n / 2);
            if (o + n < end)
                check_cut_of(w, o + n);
        }
    if (w->payload_len)
        check_cut_of(w, w->payload_off + w->payload_len / 2);
    if (w->icrc_status != IBW_CRC_ABSENT)
        check_cut_of(w, w->icrc_off + 2);
    check_cut_of(w, end - 1);
}

static void check_parse(const uint8_t *data, size_t len, enum ibw_link link)
{
    struct ibw_pkt v, nocrc;
    int rc = ibw_parse(data, len, link, &v);
    FUZZ_CHECK(rc == v.err);
    check_view(&v, data, len);
    ibw_parse_flags(data, len, link, IBW_PARSE_NO_CRC, &nocrc);
    check_view(&nocrc, data, len);
    check_same_structure(&v, &nocrc);
    FUZZ_CHECK(nocrc.icrc_status == IBW_CRC_ABSENT &&
               nocrc.vcrc_status == IBW_CRC_ABSENT);

    /* Storing the CRCs fixes the verdicts and nothing else; a cut frame
     * has no CRCs to store. */
    if (v.cut && len <= sizeof frame1) {
        memcpy(frame1, data, len);
        struct ibw_pkt v1 = v;
        v1.data = frame1;
        FUZZ_CHECK(ibw_pkt_store_crcs(frame1, &v1) == IBW_E_FIELD);
        FUZZ_CHECK(memcmp(frame1, data, len) == 0);
    } else if (ibw_pkt_has(&v, IBW_HDR_BTH) &&
               v.icrc_status != IBW_CRC_ABSENT && len <= sizeof frame1) {
        struct ibw_pkt fixed;
        memcpy(frame1, data, len);
        struct ibw_pkt v1 = v;
        v1.data = frame1;
        FUZZ_CHECK(ibw_pkt_store_crcs(frame1, &v1) == IBW_OK);
        ibw_parse(frame1, len, link, &fixed);
        v1.data = data;
        fixed.data = data;
        check_same_structure(&v, &fixed);
        FUZZ_CHECK(fixed.icrc_status == IBW_CRC_GOOD);
        FUZZ_CHECK(fixed.vcrc_status != IBW_CRC_BAD);
    }

    if (rc == IBW_OK && v.transport != IBW_TK_NONE) {
        check_cuts(&v);
        if (v.transport != IBW_TK_IB_RAW)
            check_rebuild(&v);
    }
}

/* Build mode: a spec drawn from the input. */
static void check_build(struct fuzz_in *in, int native)
{
    static const uint8_t kinds[] = {IBW_TK_ROCE_V1, IBW_TK_ROCE_V2_IP4,
                                    IBW_TK_ROCE_V2_IP6};
    struct ibw_build_spec s;
    memset(&s, 0, sizeof s);
    uint8_t sel = fuzz_u8(in);
    s.transport = native ? (sel & 1 ? IBW_TK_IB_GLOBAL : IBW_TK_IB_LOCAL)
                         : kinds[sel % 3];
    s.flags = fuzz_u8(in) & 0x1Fu;
    /* Raw bytes into the header structs; the builder masks each value. */
#define FILL(x)                                                              \
    for (size_t i_ = 0; i_ < sizeof(x); i_++)                                \
        ((uint8_t *)&(x))[i_] = fuzz_u8(in);
    FILL(s.dmac) FILL(s.smac) FILL(s.ip_src) FILL(s.ip_dst) FILL(s.lrh)
    FILL(s.grh) FILL(s.bth) FILL(s.rdeth) FILL(s.deth) FILL(s.xrceth)
    FILL(s.reth) FILL(s.feth) FILL(s.atomiceth) FILL(s.aeth)
    FILL(s.atomicacketh) FILL(s.immdt) FILL(s.ieth)
#undef FILL
    s.nvlan = fuzz_u8(in) % 4; /* 3 must be refused */
    for (unsigned i = 0; i < 2; i++) {
        s.vlan[i].tpid = (uint16_t)(fuzz_u8(in) & 1 ? IBW_ETHERTYPE_QINQ : 0);
        s.vlan[i].pcp = fuzz_u8(in) & 7;
        s.vlan[i].dei = fuzz_u8(in) & 1;
        s.vlan[i].vid = (uint16_t)(fuzz_u64(in) & 0xFFF);
    }
    s.tos = fuzz_u8(in);
    s.ttl = fuzz_u8(in);
    s.flowlabel = (uint32_t)fuzz_u64(in) & 0xFFFFF;
    s.ip_id = (uint16_t)fuzz_u64(in);
    s.ip_df = fuzz_u8(in) & 1;
    s.udp_sport = (uint16_t)fuzz_u64(in);
    s.udp_csum = (uint16_t)fuzz_u64(in);
    s.payload = in->p;
    s.payload_len = in->left;

    size_t n = 0;
    int rc = ibw_build(&s, frame0, sizeof frame0, &n);
    const struct ibw_opcode_info *op = ibw_opcode_info(s.bth.opcode);
    if (s.nvlan > 2 ||
        ((s.flags & IBW_BUILD_KEEP_PADCNT) && s.bth.padcnt > 3))
        FUZZ_CHECK(rc == IBW_E_RANGE || rc == IBW_E_OPCODE);
    if (!(op->flags & IBW_OPF_VALID) && !(s.flags & IBW_BUILD_ANY_OPCODE))
        FUZZ_CHECK(rc == IBW_E_OPCODE);
    if (rc != IBW_OK)
        return;
    FUZZ_CHECK(n <= sizeof frame0);
    /* One byte less room is refused, and so is a carriage it cannot build. */
    size_t m = 0;
    FUZZ_CHECK(ibw_build(&s, frame1, n - 1, &m) == IBW_E_NOSPACE);
    uint8_t tk = s.transport;
    s.transport = sel & 0x80 ? IBW_TK_IB_RAW : IBW_TK_NONE;
    FUZZ_CHECK(ibw_build(&s, frame1, sizeof frame1, &m) == IBW_E_UNSUPPORTED);
    s.transport = tk;
    struct ibw_pkt v;
    enum ibw_link link = native ? IBW_LINK_IB : IBW_LINK_ETHERNET;
    int prc = ibw_parse(frame0, n, link, &v);
    check_view(&v, frame0, n);
    if (native && (s.lrh.lver & 0xF) != 0) {
        FUZZ_CHECK(prc == IBW_E_VERSION); /* the LRH says so, not the BTH */
        return;
    }
    FUZZ_CHECK(ibw_pkt_has(&v, IBW_HDR_BTH) && v.transport == s.transport);
    FUZZ_CHECK(v.icrc_status ==
               (s.flags & IBW_BUILD_BAD_ICRC ? IBW_CRC_BAD : IBW_CRC_GOOD));
    if (native)
        FUZZ_CHECK(v.vcrc_status == (s.flags & IBW_BUILD_BAD_VCRC
                                         ? IBW_CRC_BAD : IBW_CRC_GOOD));
    /* BTH as given except the pad count the builder owns. */
    uint8_t want[ibw_atomiceth_SIZE] = {0}; /* the encoders keep unlisted bits */
    struct ibw_bth bth = s.bth;
    size_t pad = s.flags & IBW_BUILD_KEEP_PADCNT
                     ? (size_t)s.bth.padcnt
                     : (4 - (s.payload_len & 3)) & 3;
    bth.padcnt = (uint8_t)pad;
    ibw_bth_encode(&bth, want, sizeof want);
    FUZZ_CHECK(memcmp(frame0 + v.off[IBW_HDR_BTH], want, ibw_bth_SIZE) == 0);
    int sane = (op->flags & IBW_OPF_VALID) &&
               (s.payload_len + pad == 0 || (op->flags & IBW_OPF_PAYLOAD)) &&
               (op->kind != IBW_OPK_ATOMIC_WRITE ||
                s.payload_len == IBW_ATOMIC_WRITE_PAYLOAD) &&
               (s.bth.tver & 0xF) == 0;
    if (!sane)
        return;
    FUZZ_CHECK(prc == IBW_OK);
    FUZZ_CHECK(v.pad == pad);
    FUZZ_CHECK(v.payload_len == s.payload_len &&
               memcmp(ibw_pkt_payload(&v), s.payload, s.payload_len) == 0);
    for (unsigned i = 0; i < op->nseq; i++) {
        unsigned h = op->seq[i];
        ibw__build_ext(&s, h, want);
        FUZZ_CHECK_AT(memcmp(frame0 + v.off[h], want, ibw_hdr_size(h)) == 0,
                      ibw_hdr_name(h));
    }
    if (native) {
        struct ibw_lrh lrh;
        ibw_lrh_decode(frame0 + v.off[IBW_HDR_LRH], ibw_lrh_SIZE, &lrh);
        FUZZ_CHECK(lrh.vl == (s.lrh.vl & 0xF) && lrh.sl == (s.lrh.sl & 0xF) &&
                   lrh.dlid == s.lrh.dlid && lrh.slid == s.lrh.slid &&
                   lrh.lver == (s.lrh.lver & 0xF));
    }
    /* A built frame rebuilds to itself. */
    check_rebuild(&v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    int native = data[0] & 1;
    if (data[0] & 2) {
        struct fuzz_in in = {data + 1, size - 1};
        check_build(&in, native);
        return 0;
    }
    check_parse(data + 1, size - 1,
                native ? IBW_LINK_IB : IBW_LINK_ETHERNET);
    return 0;
}
