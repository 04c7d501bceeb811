/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dump_fields_mad.c - the management datagrams in `ibwire dump`:
 * infiniband.mad.*, .rmpp.*, .sa.*, .smplid.*, .smpdirected.*, .sminfo.*,
 * .nodeinfo.*, .portinfo.*, .classportinfo.*, .pathrecord.* and .cm.* as
 * tshark 4.0 names and prints them,
 * ibwire.cm.* for the CM messages tshark only names (MRA, LAP, APR,
 * SIDR_REQ, SIDR_REP), ibwire.mad.* for ibwire's own verdict, and the MAD
 * layers of -T text and -T json.
 *
 * Where tshark finds a MAD and what it shows follow its dissector: the
 * payload of a UD SEND from or to QP0/QP1 holding 256 bytes, dispatched on
 * the management class byte alone (so the infiniband.* names appear for
 * MADs that ibw_mad_decode() rejects, e.g. a bad base version, as tshark
 * shows them).  The fields of each MAD layer are read through the
 * library's descriptors (dump_mad_layers[], with dump_fields.c's
 * differences table); this file finds the layers and computes the items
 * that span fields.  tshark 4.0's
 * own layout quirks are reproduced where they are only a matter of naming
 * or repetition:
 *   - infiniband.smplid.smpdata names the SMP attribute area (64 bytes at
 *     MAD byte 64, a second time when tshark gives the attribute its own
 *     item), the data of CM, PerfMgt, BM, DevMgt, SNMP, vendor and
 *     application MADs (232 bytes at 24), and SMP-style attributes in SA
 *     records;
 *   - infiniband.sa.drdlid names the whole SA MAD, its 200 data bytes and
 *     the record item of the attributes tshark decodes;
 *   - infiniband.smplid.mkey is also the directed-route M_Key;
 *   - portinfo.guid is the GID prefix; classportinfo.reserved is byte 32
 *     and again the trap hop limit;
 *   - a REQ over RoCEv2/IPv4 shows its primary GIDs as IPv4 addresses
 *     (prim_localgid_ipv4 ...), an IP CM REQ its service ID parts and the
 *     IP CM header (ip_cm.*; sip4/dip4 when the header says IPv4);
 *   - infiniband.cm.req.alt_reserved1 occurs twice (bytes 138 and 139);
 *   - DREQ's remote QPN is infiniband.cm.req.remoteqpneecn, DREP is
 *     infiniband.cm.drsp.*.
 * Where tshark 4.0 reads the wrong bits, ibwire prints the IBA value under
 * tshark's name (and conformance/tests/dump_mad checks those against values
 * worked out from the bytes instead of against tshark):
 *   - smpdirected.d (tshark: always 0) and smpdirected.smpstatus (tshark:
 *     the 16-bit word with the D bit);
 *   - rmpp.rresptime and rmpp.rmppflags (tshark: 4+4 bits, IBA 5+3);
 *   - cm.req.prim_/alt_flowlabel, _reserved0 and _pktrate (tshark reads
 *     them from the first bytes of the word, the IBA puts the flow label in
 *     the top 20 bits, 6 reserved bits, the rate in the low 6);
 *   - cm.rej.reserved0 (tshark: 2 bits, IBA: the 6 bits after MsgRej).
 * Not reproduced: tshark's reading of a reserved management class (a
 * 256-byte item from MAD byte 24) and of reserved RMPP types (the SA header
 * shifted by 8 bytes); ibwire keeps the IBA layout there.
 */
#include <string.h>

#include "dump.h"
#include "ibwire/mad.h"

/* ---- where tshark finds a MAD ------------------------------------------ */

/* The MAD of the frame: the payload of a UD SEND (only, or with immediate)
 * whose destination or source QP is 0 or 1, when it holds 256 bytes (in a
 * frame cut short, when tshark gets to dissect them: dump_tshark_tail()).
 * NULL otherwise. */
static const uint8_t *mad_of(const struct dump_frame *fr)
{
    const struct ibw_pkt *p = fr->pkt;
    struct dump_tail t;
    if (!p || (p->err != IBW_OK &&
               !(p->cut && dump_tshark_tail(fr, &t) && t.payload)))
        return NULL;
    const uint8_t *bth = ibw_pkt_hdr(p, IBW_HDR_BTH);
    const uint8_t *deth = ibw_pkt_hdr(p, IBW_HDR_DETH);
    const struct ibw_opcode_info *op = ibw_opcode_info(p->opcode);
    if (!bth || !deth || op->transport != IBW_TR_UD || op->kind != IBW_OPK_SEND)
        return NULL;
    if (ibw_bth_get_destqp(bth) > 1 && ibw_deth_get_srcqp(deth) > 1)
        return NULL;
    if (p->payload_len < IBW_MAD_SIZE)
        return NULL;
    return p->data + p->payload_off;
}

/* Bytes of the frame from MAD byte `off` to the end of the IBA packet
 * (tshark's items may run past the MAD into the CRCs). */
static size_t mad_avail(const struct dump_frame *fr, const uint8_t *m,
                        size_t off)
{
    const struct ibw_pkt *p = fr->pkt;
    size_t end = p->iba_end ? p->iba_end : p->len;
    size_t at = (size_t)(m - p->data) + off;
    return end > at ? end - at : 0;
}

/* How tshark 4.0 dissects a management class. */
enum ts_class {
    TC_SMP_LID,
    TC_SMP_DR,
    TC_SA,
    TC_PERF,
    TC_CM,
    TC_DATA,    /* BM, DevMgt, SNMP, vendor, application: 232 data bytes */
    TC_RESERVED /* a reserved class */
};

static enum ts_class ts_class(uint8_t c)
{
    if ((c >= IBW_MGMT_CLASS_VENDOR1_FIRST && c <= IBW_MGMT_CLASS_VENDOR1_LAST) ||
        (c >= IBW_MGMT_CLASS_VENDOR2_FIRST && c <= IBW_MGMT_CLASS_VENDOR2_LAST) ||
        (c >= IBW_MGMT_CLASS_APP_FIRST && c <= IBW_MGMT_CLASS_APP_LAST))
        return TC_DATA;
    switch (c) {
    case IBW_MGMT_CLASS_SUBN_LID_ROUTED: return TC_SMP_LID;
    case IBW_MGMT_CLASS_SUBN_DIRECTED_ROUTE: return TC_SMP_DR;
    case IBW_MGMT_CLASS_SUBN_ADM: return TC_SA;
    case IBW_MGMT_CLASS_PERF_MGMT: return TC_PERF;
    case IBW_MGMT_CLASS_CM: return TC_CM;
    case IBW_MGMT_CLASS_BM:
    case IBW_MGMT_CLASS_DEVICE_MGMT:
    case IBW_MGMT_CLASS_SNMP: return TC_DATA;
    default: return TC_RESERVED;
    }
}

/* The MAD when tshark dissects its class as `tc`. */
static const uint8_t *mad_class(const struct dump_frame *fr, enum ts_class tc)
{
    const uint8_t *m = mad_of(fr);
    return m && ts_class(ibw_mad_hdr_get_mgmtclass(m)) == tc ? m : NULL;
}

static const uint8_t *mad_any(const struct dump_frame *fr)
{
    return mad_of(fr);
}
static const uint8_t *smp_lid(const struct dump_frame *fr)
{
    return mad_class(fr, TC_SMP_LID);
}
static const uint8_t *smp_dr(const struct dump_frame *fr)
{
    return mad_class(fr, TC_SMP_DR);
}
static const uint8_t *smp_any(const struct dump_frame *fr)
{
    const uint8_t *m = smp_lid(fr);
    return m ? m : smp_dr(fr);
}
static const uint8_t *sa_mad(const struct dump_frame *fr)
{
    return mad_class(fr, TC_SA);
}

/* RMPP fields by RMPP type: tshark names bytes 28..35 after the type. */
static const uint8_t *rmpp_type(const struct dump_frame *fr, uint8_t type)
{
    const uint8_t *m = sa_mad(fr);
    return m && ibw_rmpp_get_rmpptype(m) == type ? m : NULL;
}
static const uint8_t *rmpp_none(const struct dump_frame *fr)
{
    return rmpp_type(fr, 0);
}
static const uint8_t *rmpp_data(const struct dump_frame *fr)
{
    return rmpp_type(fr, IBW_RMPP_TYPE_DATA);
}
static const uint8_t *rmpp_data_or_ack(const struct dump_frame *fr)
{
    const uint8_t *m = rmpp_data(fr);
    return m ? m : rmpp_type(fr, IBW_RMPP_TYPE_ACK);
}
static const uint8_t *rmpp_ack(const struct dump_frame *fr)
{
    return rmpp_type(fr, IBW_RMPP_TYPE_ACK);
}
static const uint8_t *rmpp_stop_abort(const struct dump_frame *fr)
{
    const uint8_t *m = rmpp_type(fr, IBW_RMPP_TYPE_STOP);
    return m ? m : rmpp_type(fr, IBW_RMPP_TYPE_ABORT);
}

/* Where the SMP attribute carried by SA record `sa_attr` starts in the
 * MAD as tshark reads it, 0 when tshark shows none: past the record ID
 * (the IBA's, unless dump_fields.c's table says tshark skips otherwise). */
static size_t sa_smp_attr_offset(uint16_t sa_attr)
{
    const struct dump_tshark_sa_place *pl = dump_tshark_sa_place(sa_attr);
    if (pl && pl->smp_skip >= 0)
        return IBW_SA_DATA_OFFSET + (size_t)pl->smp_skip;
    int rid = ibw_sa_record_rid_size(sa_attr);
    return rid >= 0 ? IBW_SA_DATA_OFFSET + (size_t)rid : 0;
}

/* The attribute `attr` of an SMP (at the SMP data) or the one SA record
 * `sa_attr` carries, or NULL. */
static const uint8_t *attr_at(const struct dump_frame *fr, uint16_t smp_attr,
                              uint16_t sa_attr)
{
    const uint8_t *m = smp_any(fr);
    if (m && ibw_mad_hdr_get_attributeid(m) == smp_attr)
        return m + IBW_SMP_DATA_OFFSET;
    m = sa_mad(fr);
    if (m && ibw_mad_hdr_get_attributeid(m) == sa_attr)
        return m + sa_smp_attr_offset(sa_attr);
    return NULL;
}
static const uint8_t *sminfo_attr(const struct dump_frame *fr)
{
    return attr_at(fr, IBW_SMP_ATTR_SMINFO, IBW_SA_ATTR_SMINFORECORD);
}
static const uint8_t *nodeinfo_attr(const struct dump_frame *fr)
{
    return attr_at(fr, IBW_SMP_ATTR_NODEINFO, IBW_SA_ATTR_NODERECORD);
}
static const uint8_t *portinfo_attr(const struct dump_frame *fr)
{
    return attr_at(fr, IBW_SMP_ATTR_PORTINFO, IBW_SA_ATTR_PORTINFORECORD);
}
/* ClassPortInfo as tshark dissects it: in SA MADs (at the SA data) and in
 * PerfMgt MADs (after their reserved bytes). */
static const uint8_t *perf_classportinfo(const struct dump_frame *fr)
{
    const uint8_t *m = mad_class(fr, TC_PERF);
    return m && ibw_mad_hdr_get_attributeid(m) == IBW_MAD_ATTR_CLASSPORTINFO
               ? m + IBW_PERF_DATA_OFFSET
               : NULL;
}
static const uint8_t *classportinfo_attr(const struct dump_frame *fr)
{
    const uint8_t *m = sa_mad(fr);
    if (m && ibw_mad_hdr_get_attributeid(m) == IBW_MAD_ATTR_CLASSPORTINFO)
        return m + IBW_SA_DATA_OFFSET;
    return perf_classportinfo(fr);
}
static const uint8_t *pathrecord_attr(const struct dump_frame *fr)
{
    const uint8_t *m = sa_mad(fr);
    return m && ibw_mad_hdr_get_attributeid(m) == IBW_SA_ATTR_PATHRECORD
               ? m + IBW_SA_DATA_OFFSET
               : NULL;
}

/* The data of CM message `attr` (MAD byte 24), or NULL. */
static const uint8_t *cm_msg(const struct dump_frame *fr, uint16_t attr)
{
    const uint8_t *m = mad_class(fr, TC_CM);
    return m && ibw_mad_hdr_get_attributeid(m) == attr ? m + IBW_CM_DATA_OFFSET
                                                       : NULL;
}
static const uint8_t *cm_req(const struct dump_frame *fr)
{
    return cm_msg(fr, IBW_CM_ATTR_REQ);
}

/* A REQ whose service ID is an RDMA IP CM one: tshark splits the ID and
 * reads the private data as the IP CM header. */
static const uint8_t *cm_req_ip(const struct dump_frame *fr)
{
    const uint8_t *d = cm_req(fr);
    return d && ibw_cm_service_id_is_ip(ibw_cm_req_get_serviceid(d)) ? d : NULL;
}
static const uint8_t *cm_req_not_ip(const struct dump_frame *fr)
{
    const uint8_t *d = cm_req(fr);
    return d && !ibw_cm_service_id_is_ip(ibw_cm_req_get_serviceid(d)) ? d
                                                                       : NULL;
}
/* The IP CM header of an IP CM REQ, by the IP version it declares. */
static const uint8_t *ip_cm_hdr(const struct dump_frame *fr)
{
    const uint8_t *d = cm_req_ip(fr);
    return d ? ibw_cm_req_get_private_data(d) : NULL;
}
static const uint8_t *ip_cm_v4(const struct dump_frame *fr)
{
    const uint8_t *h = ip_cm_hdr(fr);
    return h && ibw_ip_cm_get_ipv(h) == 4 ? h : NULL;
}
static const uint8_t *ip_cm_not_v4(const struct dump_frame *fr)
{
    const uint8_t *h = ip_cm_hdr(fr);
    return h && ibw_ip_cm_get_ipv(h) != 4 ? h : NULL;
}

/* tshark shows a REQ's primary GIDs as IPv4 addresses (their last 4 bytes)
 * when the packet's destination address is IPv4, i.e. RoCEv2 over IPv4. */
static int gids_as_ipv4(const struct dump_frame *fr)
{
    return fr->pkt->transport == IBW_TK_ROCE_V2_IP4;
}
static const uint8_t *cm_req_gid6(const struct dump_frame *fr)
{
    const uint8_t *d = cm_req(fr);
    return d && !gids_as_ipv4(fr) ? d : NULL;
}
static const uint8_t *cm_req_gid4(const struct dump_frame *fr)
{
    const uint8_t *d = cm_req(fr);
    return d && gids_as_ipv4(fr) ? d : NULL;
}

/* ---- the computed entries ------------------------------------------------ */

/* The record item tshark adds for an SA attribute it decodes: its offset
 * in the MAD and its length (which may run past the MAD), 0 when none. */
static size_t sa_record_item(uint16_t attr, size_t *off)
{
    const struct dump_tshark_sa_place *pl = dump_tshark_sa_place(attr);
    if (!pl)
        return 0;
    *off = IBW_SA_DATA_OFFSET + (size_t)pl->record_skip;
    return pl->record_len;
}

/* infiniband.sa.drdlid: the whole MAD, the 200 SA data bytes, the record. */
static unsigned get_sa_items(const struct dump_frame *fr, struct dump_val *v)
{
    const uint8_t *m = sa_mad(fr);
    if (!m)
        return 0;
    unsigned n = dump_put_bytes(&v[0], m, IBW_MAD_SIZE);
    n += dump_put_bytes(&v[n], m + IBW_SA_DATA_OFFSET, IBW_SA_DATA_SIZE);
    size_t off = 0;
    size_t len = sa_record_item(ibw_mad_hdr_get_attributeid(m), &off);
    if (len && mad_avail(fr, m, off) >= len)
        n += dump_put_bytes(&v[n], m + off, len);
    return n;
}

/* SMP attributes that tshark gives an item of their own (a second
 * smpdata occurrence); Notice adds its 54 data-detail bytes too. */
static int smp_attr_has_item(uint16_t attr)
{
    switch (attr) {
    case IBW_SMP_ATTR_NOTICE:
    case IBW_SMP_ATTR_SLTOVLMAPPINGTABLE:
    case IBW_SMP_ATTR_VLARBITRATIONTABLE:
    case IBW_SMP_ATTR_LINEARFORWARDINGTABLE:
    case IBW_SMP_ATTR_RANDOMFORWARDINGTABLE:
    case IBW_SMP_ATTR_MULTICASTFORWARDINGTABLE:
    case IBW_SMP_ATTR_LINKSPEEDWIDTHPAIRSTABLE:
    case IBW_SMP_ATTR_SMINFO:
    case IBW_SMP_ATTR_VENDORDIAG:
    case IBW_SMP_ATTR_LEDINFO: return 1;
    default: return 0;
    }
}

/* Where an SA record carries an SMP-style attribute that tshark shows as
 * smpdata: its offset in the MAD, 0 for none. */
static size_t sa_smp_item(uint16_t attr)
{
    switch (attr) {
    case IBW_SA_ATTR_SMINFORECORD:
    case IBW_SA_ATTR_SLTOVLMAPPINGTABLERECORD:
    case IBW_SA_ATTR_VLARBITRATIONTABLERECORD:
    case IBW_SA_ATTR_LINEARFORWARDINGTABLERECORD:
    case IBW_SA_ATTR_RANDOMFORWARDINGTABLERECORD:
    case IBW_SA_ATTR_MULTICASTFORWARDINGTABLERECORD:
    case IBW_MAD_ATTR_NOTICE:
    case IBW_SA_ATTR_LINKSPEEDWIDTHPAIRSTABLERECORD:
        return sa_smp_attr_offset(attr);
    default: return 0;
    }
}

/* A Notice's DataDetails as tshark's extra smpdata item. */
static unsigned put_notice_details(const uint8_t *notice, struct dump_val *v)
{
    const struct ibw_field *d =
        ibw_format_field(ibw_notice_format(), "datadetails");
    return dump_put_bytes(v, notice + d->pos / 8, d->width / 8);
}

/* infiniband.smplid.smpdata, wherever tshark uses the name. */
static unsigned get_smpdata(const struct dump_frame *fr, struct dump_val *v)
{
    const uint8_t *m = mad_of(fr);
    if (!m)
        return 0;
    uint16_t attr = ibw_mad_hdr_get_attributeid(m);
    unsigned n = 0;
    size_t off;
    switch (ts_class(ibw_mad_hdr_get_mgmtclass(m))) {
    case TC_SMP_LID:
    case TC_SMP_DR:
        n = dump_put_bytes(&v[0], m + IBW_SMP_DATA_OFFSET, IBW_SMP_DATA_SIZE);
        if (smp_attr_has_item(attr))
            n += dump_put_bytes(&v[n], m + IBW_SMP_DATA_OFFSET, IBW_SMP_DATA_SIZE);
        if (attr == IBW_SMP_ATTR_NOTICE)
            n += put_notice_details(m + IBW_SMP_DATA_OFFSET, &v[n]);
        return n;
    case TC_SA:
        off = sa_smp_item(attr);
        if (!off)
            return 0;
        n = dump_put_bytes(&v[0], m + off, IBW_SMP_DATA_SIZE);
        if (attr == IBW_MAD_ATTR_NOTICE)
            n += put_notice_details(m + off, &v[n]);
        return n;
    case TC_PERF:
        if (attr == IBW_MAD_ATTR_CLASSPORTINFO ||
            attr == IBW_PERF_ATTR_PORTCOUNTERS ||
            attr == IBW_PERF_ATTR_PORTCOUNTERSEXTENDED)
            return 0;
        return dump_put_bytes(v, m + IBW_MAD_HDR_SIZE, IBW_MAD_DATA_SIZE);
    case TC_CM:
    case TC_DATA: return dump_put_bytes(v, m + IBW_MAD_HDR_SIZE, IBW_MAD_DATA_SIZE);
    case TC_RESERVED: break;
    }
    return 0;
}


/* ---- tshark's items over more than one field ------------------------------ */

/* A whole format as one byte item, where `find` locates it. */
#define WHOLE_ITEM(fn, find, fmt)                                             \
    static unsigned fn(const struct dump_frame *fr, struct dump_val *v)      \
    {                                                                         \
        const uint8_t *a = find(fr);                                          \
        return a ? dump_put_bytes(v, a, ibw_format_bytes(fmt())) : 0;         \
    }
WHOLE_ITEM(get_mad, mad_any, ibw_gmp_format)
WHOLE_ITEM(get_smplid, smp_lid, ibw_smp_lid_format)
WHOLE_ITEM(get_smpdirected, smp_dr, ibw_smp_dr_format)

/* The RMPP header: its fields from the first to the end of the format. */
static unsigned get_rmpp(const struct dump_frame *fr, struct dump_val *v)
{
    const uint8_t *m = sa_mad(fr);
    const struct ibw_format *fmt = ibw_rmpp_format();
    size_t first = fmt->fields[0].pos / 8;
    return m ? dump_put_bytes(v, m + first, ibw_format_bytes(fmt) - first) : 0;
}

/* The MAD after the RMPP header, where `find` locates the MAD. */
static unsigned after_rmpp(const uint8_t *m, struct dump_val *v)
{
    size_t end = ibw_format_bytes(ibw_rmpp_format());
    return m ? dump_put_bytes(v, m + end, IBW_MAD_SIZE - end) : 0;
}
static unsigned get_rmpp_transferred(const struct dump_frame *fr,
                                     struct dump_val *v)
{
    return after_rmpp(rmpp_data(fr), v);
}
static unsigned get_rmpp_errordata(const struct dump_frame *fr,
                                   struct dump_val *v)
{
    return after_rmpp(rmpp_stop_abort(fr), v);
}

/* ClassPortInfo.  tshark's one "item" field of the PerfMgt attribute is of
 * no type (FT_NONE), which -T fields prints as 1. */
DUMP_INT_GETTER(get_cpi_item, a, perf_classportinfo(fr), 1)

/* The IP CM service ID of a REQ in tshark's three parts: the prefix bytes
 * (the service ID's first bytes, up to the protocol byte), the protocol,
 * the port. */
static unsigned get_req_sid_prefix(const struct dump_frame *fr,
                                   struct dump_val *v)
{
    const uint8_t *d = cm_req_ip(fr);
    const struct ibw_field *sid =
        ibw_format_field(ibw_cm_req_format(), "serviceid");
    size_t prefix = 0;
    for (uint64_t m = IBW_CM_IP_SERVICE_ID_MASK; m >> 56 == 0xFF; m <<= 8)
        prefix++;
    return d ? dump_put_bytes(v, d + sid->pos / 8, prefix) : 0;
}
DUMP_INT_GETTER(get_req_sid_protocol, a, cm_req_ip(fr),
                ibw_cm_service_id_protocol(ibw_cm_req_get_serviceid(a)))
DUMP_INT_GETTER(get_req_sid_dport, a, cm_req_ip(fr),
                ibw_cm_service_id_port(ibw_cm_req_get_serviceid(a)))

/* tshark's ip_cm item is the REQ's whole private data, its ip_cm.private
 * the part after the IP CM header. */
static unsigned ip_cm_part(const struct dump_frame *fr, struct dump_val *v,
                           size_t from)
{
    const uint8_t *h = ip_cm_hdr(fr);
    const struct ibw_field *pd =
        ibw_format_field(ibw_cm_req_format(), "private_data");
    return h ? dump_put_bytes(v, h + from, pd->width / 8 - from) : 0;
}
static unsigned get_ipcm(const struct dump_frame *fr, struct dump_val *v)
{
    return ip_cm_part(fr, v, 0);
}
static unsigned get_ipcm_private(const struct dump_frame *fr,
                                 struct dump_val *v)
{
    return ip_cm_part(fr, v, ibw_format_bytes(ibw_ip_cm_format()));
}

/* PortInfo: tshark shows each CapabilityMask bit (mad.h's list) as a
 * 32-bit field. */
#define PI_CAP_GETTER(name, bit, meaning)                                     \
    DUMP_INT_GETTER(get_pi_cap_##name, a, portinfo_attr(fr),                  \
                    ibw_portinfo_capability(                                  \
                        ibw_portinfo_get_capabilitymask(a),                   \
                        IBW_PI_CAP_BIT_##name))
IBW_PORTINFO_CAPABILITIES(PI_CAP_GETTER)

/* tshark calls both byte 32 (reserved) and byte 64 (the trap hop limit)
 * classportinfo.reserved. */
static unsigned get_cpi_reserved(const struct dump_frame *fr,
                                 struct dump_val *v)
{
    const uint8_t *a = classportinfo_attr(fr);
    if (!a)
        return 0;
    dump_put_u(&v[0], ibw_classportinfo_get_rsvd32(a));
    dump_put_u(&v[1], ibw_classportinfo_get_traphl(a));
    return 2;
}

/* tshark names both reserved bit groups of the alternate path's last two
 * bytes alt_reserved1: byte 138's and byte 139's three low bits (which the
 * IBA since 1.3 splits into SAP supported and 2 reserved bits). */
static unsigned get_req_alt_rsvd1(const struct dump_frame *fr,
                                  struct dump_val *v)
{
    const uint8_t *d = cm_req(fr);
    if (!d)
        return 0;
    dump_put_u(&v[0], ibw_cm_req_get_rsvd138(d));
    dump_put_u(&v[1], ((unsigned)ibw_cm_req_get_sap_supported(d) << 2) |
                     ibw_cm_req_get_rsvd139(d));
    return 2;
}

/* ---- ibwire's own view: ibw_mad_decode() -------------------------------- */

/* The last frame decoded: getters of one frame share one decode.  Per
 * thread, keyed by the frame's reading (libibwire's callers read frames
 * in several handles and threads). */
static _Thread_local struct {
    uint64_t serial;
    const uint8_t *mad;
    int rc;
    struct ibw_mad_view view;
} decoded;

/* ibw_mad_decode() of the frame's MAD (rc in *rc), or NULL when the frame
 * carries none. */
static const struct ibw_mad_view *mad_view(const struct dump_frame *fr,
                                           int *rc)
{
    const uint8_t *m = mad_of(fr);
    if (!m)
        return NULL;
    if (decoded.mad != m || decoded.serial != fr->serial || !fr->serial) {
        decoded.rc = ibw_mad_decode(m, fr->pkt->payload_len, &decoded.view);
        decoded.mad = m;
        decoded.serial = fr->serial;
    }
    *rc = decoded.rc;
    return &decoded.view;
}

/* ibwire.mad.class, .method, .attribute: the library's names for the MAD
 * ibw_mad_decode() read, absent where it has none. */
enum mad_name_kind { MAD_NAME_CLASS, MAD_NAME_METHOD, MAD_NAME_ATTRIBUTE };

static unsigned mad_name(const struct dump_frame *fr, struct dump_val *v,
                         enum mad_name_kind kind)
{
    int rc;
    const struct ibw_mad_view *mv = mad_view(fr, &rc);
    if (!mv)
        return 0;
    uint8_t c = mv->hdr.mgmtclass;
    const char *s = kind == MAD_NAME_CLASS ? ibw_mad_class_name(c)
                  : kind == MAD_NAME_METHOD
                      ? ibw_mad_method_name(c, mv->hdr.method)
                      : ibw_mad_attr_name(c, mv->hdr.attributeid);
    return s ? dump_put_str(v, s) : 0;
}
static unsigned get_ibw_mad_class(const struct dump_frame *fr,
                                  struct dump_val *v)
{
    return mad_name(fr, v, MAD_NAME_CLASS);
}
static unsigned get_ibw_mad_method(const struct dump_frame *fr,
                                   struct dump_val *v)
{
    return mad_name(fr, v, MAD_NAME_METHOD);
}
static unsigned get_ibw_mad_attribute(const struct dump_frame *fr,
                                      struct dump_val *v)
{
    return mad_name(fr, v, MAD_NAME_ATTRIBUTE);
}

static _Thread_local char mad_error_text[96];

static unsigned get_ibw_mad_error(const struct dump_frame *fr,
                                  struct dump_val *v)
{
    int rc;
    const struct ibw_mad_view *mv = mad_view(fr, &rc);
    if (!mv || rc == IBW_OK)
        return 0;
    snprintf(mad_error_text, sizeof mad_error_text, "mad.%s: %s",
             mv->err_field ? mv->err_field : "mad", ibw_strerror(rc));
    v->s = mad_error_text;
    return 1;
}

/* The data of CM message `attr` when ibw_mad_decode() accepts the MAD. */
static const uint8_t *ibw_cm_msg(const struct dump_frame *fr, uint16_t attr)
{
    int rc;
    const struct ibw_mad_view *mv = mad_view(fr, &rc);
    if (!mv || rc != IBW_OK || mv->kind != IBW_MAD_KIND_CM ||
        mv->hdr.attributeid != attr)
        return NULL;
    return decoded.mad + IBW_CM_DATA_OFFSET;
}


/* ---- the MAD layers ------------------------------------------------------ */

/* A layer's locator: the MAD part its finder (`find`, or for a CM message
 * cm_msg() of the attribute `arg`) returns. */
static unsigned at_found(const struct dump_frame *fr,
                         const struct dump_layer *l, size_t need,
                         const uint8_t **at)
{
    (void)need;
    at[0] = l->find ? l->find(fr) : cm_msg(fr, (uint16_t)l->arg);
    return at[0] != NULL;
}

/* The same for the CM messages tshark does not dissect, read only when
 * ibw_mad_decode() accepts the MAD. */
static unsigned at_ibw_cm(const struct dump_frame *fr,
                          const struct dump_layer *l, size_t need,
                          const uint8_t **at)
{
    (void)need;
    at[0] = ibw_cm_msg(fr, (uint16_t)l->arg);
    return at[0] != NULL;
}

static const uint8_t *nowhere(const struct dump_frame *fr)
{
    (void)fr;
    return NULL;
}

#define MAD_LAYER(fmt, found, attr)                                           \
    {.format = (fmt), .locate = at_found, .arg = (attr),                      \
     .naming = DUMP_NAMES_MAD, .find = (found)}
#define IBW_CM_LAYER(fmt, attr)                                               \
    {.format = (fmt), .locate = at_ibw_cm, .arg = (attr),                     \
     .naming = DUMP_NAMES_OWN}
const struct dump_layer dump_mad_layers[] = {
    MAD_LAYER(ibw_gmp_format, mad_any, 0),
    MAD_LAYER(ibw_rmpp_format, sa_mad, 0),
    MAD_LAYER(ibw_sa_format, sa_mad, 0),
    MAD_LAYER(ibw_smp_lid_format, smp_lid, 0),
    MAD_LAYER(ibw_smp_dr_format, smp_dr, 0),
    MAD_LAYER(ibw_sminfo_format, sminfo_attr, 0),
    MAD_LAYER(ibw_nodeinfo_format, nodeinfo_attr, 0),
    MAD_LAYER(ibw_pathrecord_format, pathrecord_attr, 0),
    MAD_LAYER(ibw_portinfo_format, portinfo_attr, 0),
    MAD_LAYER(ibw_classportinfo_format, classportinfo_attr, 0),
    MAD_LAYER(ibw_cm_req_format, NULL, IBW_CM_ATTR_REQ),
    MAD_LAYER(ibw_ip_cm_format, ip_cm_hdr, 0),
    MAD_LAYER(ibw_cm_rep_format, NULL, IBW_CM_ATTR_REP),
    MAD_LAYER(ibw_cm_rtu_format, NULL, IBW_CM_ATTR_RTU),
    MAD_LAYER(ibw_cm_rej_format, NULL, IBW_CM_ATTR_REJ),
    MAD_LAYER(ibw_cm_dreq_format, NULL, IBW_CM_ATTR_DREQ),
    MAD_LAYER(ibw_cm_drep_format, NULL, IBW_CM_ATTR_DREP),
    /* the CM messages tshark only names: every field, under ibwire.cm.* */
    IBW_CM_LAYER(ibw_cm_mra_format, IBW_CM_ATTR_MRA),
    IBW_CM_LAYER(ibw_cm_lap_format, IBW_CM_ATTR_LAP),
    IBW_CM_LAYER(ibw_cm_apr_format, IBW_CM_ATTR_APR),
    IBW_CM_LAYER(ibw_cm_sidr_req_format, IBW_CM_ATTR_SIDR_REQ),
    IBW_CM_LAYER(ibw_cm_sidr_rep_format, IBW_CM_ATTR_SIDR_REP),
    {.format = NULL}};

const struct dump_layer dump_mad_variants[DUMP_MV_COUNT] = {
    [DUMP_MV_NEVER] = MAD_LAYER(NULL, nowhere, 0),
    [DUMP_MV_RMPP_NONE] = MAD_LAYER(NULL, rmpp_none, 0),
    [DUMP_MV_RMPP_DATA] = MAD_LAYER(NULL, rmpp_data, 0),
    [DUMP_MV_RMPP_ACK] = MAD_LAYER(NULL, rmpp_ack, 0),
    [DUMP_MV_RMPP_DATA_OR_ACK] = MAD_LAYER(NULL, rmpp_data_or_ack, 0),
    [DUMP_MV_REQ_GID6] = MAD_LAYER(NULL, cm_req_gid6, 0),
    [DUMP_MV_REQ_GID4] = MAD_LAYER(NULL, cm_req_gid4, 0),
    [DUMP_MV_REQ_NOT_IP] = MAD_LAYER(NULL, cm_req_not_ip, 0),
    [DUMP_MV_IPCM_V4] = MAD_LAYER(NULL, ip_cm_v4, 0),
    [DUMP_MV_IPCM_NOT_V4] = MAD_LAYER(NULL, ip_cm_not_v4, 0),
};

/* ---- the entries no single descriptor field gives ------------------------- */

#define REQ "infiniband.cm.req."

const struct dump_field dump_fields_mad[] = {
    DUMP_COMPUTED("infiniband.mad", DT_BYTES, get_mad, "the whole MAD (256 bytes)"),
    DUMP_COMPUTED("infiniband.rmpp", DT_BYTES, get_rmpp, "SA RMPP header (12 bytes)"),
    DUMP_COMPUTED("infiniband.rmpp.transferreddata", DT_BYTES, get_rmpp_transferred,
     "RMPP DATA: MAD bytes 36..255"),
    DUMP_COMPUTED("infiniband.rmpp.extendederrordata", DT_BYTES, get_rmpp_errordata,
     "RMPP STOP/ABORT: MAD bytes 36..255"),
    DUMP_COMPUTED("infiniband.sa.drdlid", DT_BYTES, get_sa_items,
     "tshark's name for the SA MAD, its data and its record"),
    DUMP_COMPUTED("infiniband.smplid", DT_BYTES, get_smplid, "LID-routed SMP (256 bytes)"),
    DUMP_COMPUTED("infiniband.smplid.smpdata", DT_BYTES, get_smpdata,
     "SMP attribute area, or the data of CM and other classes"),
    DUMP_COMPUTED("infiniband.smpdirected", DT_BYTES, get_smpdirected,
     "directed-route SMP (256 bytes)"),
#define PI_CAP_ENTRY(name, bit, meaning)                                      \
    DUMP_COMPUTED("infiniband.portinfo.capabilitymask." #name, DT_HEX32,                   \
     get_pi_cap_##name, "PortInfo capability mask bit " #bit),
    IBW_PORTINFO_CAPABILITIES(PI_CAP_ENTRY)
    DUMP_COMPUTED("infiniband.classportinfo", DT_DEC, get_cpi_item,
     "PerfMgt ClassPortInfo item (tshark prints 1)"),
    DUMP_COMPUTED("infiniband.classportinfo.reserved", DT_HEX8, get_cpi_reserved,
     "ClassPortInfo byte 32 and the trap hop limit (tshark's name)"),
    DUMP_COMPUTED(REQ "serviceid.prefix", DT_BYTES, get_req_sid_prefix,
     "REQ IP CM service ID prefix"),
    DUMP_COMPUTED(REQ "serviceid.protocol", DT_HEX8, get_req_sid_protocol,
     "REQ IP CM service ID protocol"),
    DUMP_COMPUTED(REQ "serviceid.dport", DT_HEX16, get_req_sid_dport,
     "REQ IP CM service ID port"),
    DUMP_COMPUTED(REQ "alt_reserved1", DT_HEX8, get_req_alt_rsvd1,
     "REQ reserved bits of bytes 138 and 139 (twice)"),
    DUMP_COMPUTED(REQ "ip_cm", DT_BYTES, get_ipcm, "IP CM REQ private data (92 bytes)"),
    DUMP_COMPUTED(REQ "ip_cm.private", DT_BYTES, get_ipcm_private,
     "IP CM consumer private data (56 bytes)"),
    DUMP_COMPUTED("ibwire.mad.class", DT_STRING, get_ibw_mad_class,
     "management class name"),
    DUMP_COMPUTED("ibwire.mad.method", DT_STRING, get_ibw_mad_method,
     "method name (absent when not defined for the class)"),
    DUMP_COMPUTED("ibwire.mad.attribute", DT_STRING, get_ibw_mad_attribute,
     "attribute name (absent when unknown)"),
    DUMP_COMPUTED("ibwire.mad.error", DT_STRING, get_ibw_mad_error,
     "why ibw_mad_decode() rejects the MAD: mad.field: problem"),
    {.name = NULL}};
