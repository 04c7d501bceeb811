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
 * shows them).  The values come from the library's accessors.  tshark 4.0's
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
#include "dump_mad.h"
#include "ibwire/mad.h"

#define UD_SEND_ONLY 0x64
#define UD_SEND_ONLY_IMM 0x65

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
    if (!bth || !deth ||
        (p->opcode != UD_SEND_ONLY && p->opcode != UD_SEND_ONLY_IMM))
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

/* The attribute `attr` of an SMP (at MAD byte 64) or of an SA MAD (at
 * `sa_off`, after the record ID tshark skips), or NULL. */
static const uint8_t *attr_at(const struct dump_frame *fr, uint16_t smp_attr,
                              uint16_t sa_attr, size_t sa_off)
{
    const uint8_t *m = smp_any(fr);
    if (m && ibw_mad_hdr_get_attributeid(m) == smp_attr)
        return m + IBW_SMP_DATA_OFFSET;
    m = sa_mad(fr);
    if (m && sa_attr && ibw_mad_hdr_get_attributeid(m) == sa_attr)
        return m + sa_off;
    return NULL;
}
static const uint8_t *sminfo_attr(const struct dump_frame *fr)
{
    return attr_at(fr, IBW_SMP_ATTR_SMINFO, IBW_SA_ATTR_SMINFORECORD, 60);
}
static const uint8_t *nodeinfo_attr(const struct dump_frame *fr)
{
    return attr_at(fr, IBW_SMP_ATTR_NODEINFO, IBW_SA_ATTR_NODERECORD, 60);
}
static const uint8_t *portinfo_attr(const struct dump_frame *fr)
{
    return attr_at(fr, IBW_SMP_ATTR_PORTINFO, IBW_SA_ATTR_PORTINFORECORD, 60);
}
/* ClassPortInfo as tshark dissects it: in SA MADs (at the SA data) and in
 * PerfMgt MADs (after their 40 reserved bytes). */
static const uint8_t *perf_classportinfo(const struct dump_frame *fr)
{
    const uint8_t *m = mad_class(fr, TC_PERF);
    return m && ibw_mad_hdr_get_attributeid(m) == IBW_MAD_ATTR_CLASSPORTINFO
               ? m + 64
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
static const uint8_t *cm_rep(const struct dump_frame *fr)
{
    return cm_msg(fr, IBW_CM_ATTR_REP);
}
static const uint8_t *cm_rtu(const struct dump_frame *fr)
{
    return cm_msg(fr, IBW_CM_ATTR_RTU);
}
static const uint8_t *cm_rej(const struct dump_frame *fr)
{
    return cm_msg(fr, IBW_CM_ATTR_REJ);
}
static const uint8_t *cm_dreq(const struct dump_frame *fr)
{
    return cm_msg(fr, IBW_CM_ATTR_DREQ);
}
static const uint8_t *cm_drep(const struct dump_frame *fr)
{
    return cm_msg(fr, IBW_CM_ATTR_DREP);
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

/* ---- getters ----------------------------------------------------------- */

/* An integer `expr` over `a`, the pointer FIND returns (absent when NULL). */
#define MAD_INT(fn, FIND, expr) DUMP_INT_GETTER(fn, a, FIND(fr), expr)

/* `n` bytes at a + off. */
#define MAD_BYTES(fn, FIND, off, n)                                           \
    DUMP_BYTES_GETTER(fn, a, FIND(fr), a + (off), n)

/* Common header and GMP. */
MAD_BYTES(get_mad, mad_any, 0, IBW_MAD_SIZE)
MAD_INT(get_mad_baseversion, mad_any, ibw_mad_hdr_get_baseversion(a))
MAD_INT(get_mad_mgmtclass, mad_any, ibw_mad_hdr_get_mgmtclass(a))
MAD_INT(get_mad_classversion, mad_any, ibw_mad_hdr_get_classversion(a))
MAD_INT(get_mad_method, mad_any, ibw_mad_hdr_get_method(a))
MAD_INT(get_mad_status, mad_any, ibw_mad_hdr_get_status(a))
MAD_INT(get_mad_classspecific, mad_any, ibw_mad_hdr_get_classspecific(a))
MAD_INT(get_mad_transactionid, mad_any, ibw_mad_hdr_get_transactionid(a))
MAD_INT(get_mad_attributeid, mad_any, ibw_mad_hdr_get_attributeid(a))
MAD_INT(get_mad_attributemodifier, mad_any,
        ibw_mad_hdr_get_attributemodifier(a))
MAD_BYTES(get_mad_data, mad_any, IBW_MAD_HDR_SIZE, IBW_MAD_DATA_SIZE)

/* RMPP (SA MADs only, as tshark dissects it). */
MAD_BYTES(get_rmpp, sa_mad, 24, 12)
MAD_INT(get_rmpp_version, sa_mad, ibw_rmpp_get_rmppversion(a))
MAD_INT(get_rmpp_type, sa_mad, ibw_rmpp_get_rmpptype(a))
MAD_INT(get_rmpp_rresptime, sa_mad, ibw_rmpp_get_rresptime(a))
MAD_INT(get_rmpp_flags, sa_mad, ibw_rmpp_get_rmppflags(a))
MAD_INT(get_rmpp_status, sa_mad, ibw_rmpp_get_rmppstatus(a))
MAD_INT(get_rmpp_data1, rmpp_none, ibw_rmpp_get_data1(a))
MAD_INT(get_rmpp_data2, rmpp_none, ibw_rmpp_get_data2(a))
MAD_INT(get_rmpp_segment, rmpp_data_or_ack, ibw_rmpp_get_data1(a))
MAD_INT(get_rmpp_paylen, rmpp_data, ibw_rmpp_get_data2(a))
MAD_INT(get_rmpp_newwindowlast, rmpp_ack, ibw_rmpp_get_data2(a))
MAD_BYTES(get_rmpp_transferred, rmpp_data, 36, 220)
MAD_BYTES(get_rmpp_errordata, rmpp_stop_abort, 36, 220)

/* SA header. */
MAD_INT(get_sa_smkey, sa_mad, ibw_sa_get_smkey(a))
MAD_INT(get_sa_attributeoffset, sa_mad, ibw_sa_get_attributeoffset(a))
MAD_INT(get_sa_componentmask, sa_mad, ibw_sa_get_componentmask(a))

/* The record item tshark adds for an SA attribute it decodes: its offset
 * in the MAD and its length (which may run past the MAD), 0 when none. */
static size_t sa_record_item(uint16_t attr, size_t *off)
{
    static const struct {
        uint16_t attr;
        uint8_t off;
        uint8_t len;
    } items[] = {
        {IBW_MAD_ATTR_INFORMINFO, 56, 36},
        {IBW_SA_ATTR_LINKRECORD, 59, 3},
        {IBW_SA_ATTR_SERVICERECORD, 84, 176},
        {IBW_SA_ATTR_PATHRECORD, 56, 64},
        {IBW_SA_ATTR_MCMEMBERRECORD, 88, 64},
        {IBW_SA_ATTR_TRACERECORD, 56, 46},
        {IBW_SA_ATTR_MULTIPATHRECORD, 56, 200},
        {IBW_SA_ATTR_SERVICEASSOCIATIONRECORD, 56, 80},
    };
    for (size_t i = 0; i < sizeof items / sizeof items[0]; i++)
        if (items[i].attr == attr) {
            *off = items[i].off;
            return items[i].len;
        }
    return 0;
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

/* SMP headers. */
MAD_BYTES(get_smplid, smp_lid, 0, IBW_MAD_SIZE)
MAD_INT(get_smp_mkey, smp_any, ibw_smp_lid_get_mkey(a))
MAD_BYTES(get_smpdirected, smp_dr, 0, IBW_MAD_SIZE)
MAD_INT(get_dr_d, smp_dr, ibw_smp_dr_get_d(a))
MAD_INT(get_dr_smpstatus, smp_dr, ibw_smp_dr_get_smpstatus(a))
MAD_INT(get_dr_hoppointer, smp_dr, ibw_smp_dr_get_hoppointer(a))
MAD_INT(get_dr_hopcount, smp_dr, ibw_smp_dr_get_hopcount(a))
MAD_INT(get_dr_drslid, smp_dr, ibw_smp_dr_get_drslid(a))
MAD_INT(get_dr_drdlid, smp_dr, ibw_smp_dr_get_drdlid(a))
MAD_BYTES(get_dr_initialpath, smp_dr, 128, 64)
MAD_BYTES(get_dr_returnpath, smp_dr, 192, 64)

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
    case 0x001C: /* LinkSpeedWidthPairsTable */
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
    case IBW_SA_ATTR_SMINFORECORD: return 60;
    case IBW_SA_ATTR_SLTOVLMAPPINGTABLERECORD:
    case IBW_SA_ATTR_VLARBITRATIONTABLERECORD:
    case IBW_SA_ATTR_LINEARFORWARDINGTABLERECORD:
    case IBW_SA_ATTR_RANDOMFORWARDINGTABLERECORD:
    case IBW_SA_ATTR_MULTICASTFORWARDINGTABLERECORD: return 64;
    case IBW_MAD_ATTR_NOTICE:
    case 0x0019: /* LinkSpeedWidthPairsTableRecord */ return 56;
    default: return 0;
    }
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
            n += dump_put_bytes(&v[n], m + IBW_SMP_DATA_OFFSET + 10, 54);
        return n;
    case TC_SA:
        off = sa_smp_item(attr);
        if (!off)
            return 0;
        n = dump_put_bytes(&v[0], m + off, IBW_SMP_DATA_SIZE);
        if (attr == IBW_MAD_ATTR_NOTICE)
            n += dump_put_bytes(&v[n], m + off + 10, 54);
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

/* Never shown by tshark 4.0: its SA attribute parse never fails, so the
 * fallback item that would carry these does not appear. */
static unsigned get_never(const struct dump_frame *fr, struct dump_val *v)
{
    (void)fr;
    (void)v;
    return 0;
}

/* SMInfo, NodeInfo, PathRecord. */
MAD_INT(get_sminfo_guid, sminfo_attr, ibw_sminfo_get_guid(a))
MAD_INT(get_sminfo_sm_key, sminfo_attr, ibw_sminfo_get_sm_key(a))
MAD_INT(get_sminfo_actcount, sminfo_attr, ibw_sminfo_get_actcount(a))
MAD_INT(get_sminfo_priority, sminfo_attr, ibw_sminfo_get_priority(a))
MAD_INT(get_sminfo_smstate, sminfo_attr, ibw_sminfo_get_smstate(a))

MAD_INT(get_ni_baseversion, nodeinfo_attr, ibw_nodeinfo_get_baseversion(a))
MAD_INT(get_ni_classversion, nodeinfo_attr, ibw_nodeinfo_get_classversion(a))
MAD_INT(get_ni_nodetype, nodeinfo_attr, ibw_nodeinfo_get_nodetype(a))
MAD_INT(get_ni_numports, nodeinfo_attr, ibw_nodeinfo_get_numports(a))
MAD_INT(get_ni_sysguid, nodeinfo_attr, ibw_nodeinfo_get_systemimageguid(a))
MAD_INT(get_ni_nodeguid, nodeinfo_attr, ibw_nodeinfo_get_nodeguid(a))
MAD_INT(get_ni_portguid, nodeinfo_attr, ibw_nodeinfo_get_portguid(a))
MAD_INT(get_ni_partitioncap, nodeinfo_attr, ibw_nodeinfo_get_partitioncap(a))
MAD_INT(get_ni_deviceid, nodeinfo_attr, ibw_nodeinfo_get_deviceid(a))
MAD_INT(get_ni_revision, nodeinfo_attr, ibw_nodeinfo_get_revision(a))
MAD_INT(get_ni_localportnum, nodeinfo_attr, ibw_nodeinfo_get_localportnum(a))
MAD_INT(get_ni_vendorid, nodeinfo_attr, ibw_nodeinfo_get_vendorid(a))

MAD_BYTES(get_pr_dgid, pathrecord_attr, 8, 16)
MAD_BYTES(get_pr_sgid, pathrecord_attr, 24, 16)
MAD_INT(get_pr_dlid, pathrecord_attr, ibw_pathrecord_get_dlid(a))
MAD_INT(get_pr_slid, pathrecord_attr, ibw_pathrecord_get_slid(a))
MAD_INT(get_pr_rawtraffic, pathrecord_attr, ibw_pathrecord_get_rawtraffic(a))
MAD_INT(get_pr_flowlabel, pathrecord_attr, ibw_pathrecord_get_flowlabel(a))
MAD_INT(get_pr_hoplimit, pathrecord_attr, ibw_pathrecord_get_hoplimit(a))
MAD_INT(get_pr_tclass, pathrecord_attr, ibw_pathrecord_get_tclass(a))
MAD_INT(get_pr_reversible, pathrecord_attr, ibw_pathrecord_get_reversible(a))
MAD_INT(get_pr_numbpath, pathrecord_attr, ibw_pathrecord_get_numbpath(a))
MAD_INT(get_pr_p_key, pathrecord_attr, ibw_pathrecord_get_p_key(a))
MAD_INT(get_pr_sl, pathrecord_attr, ibw_pathrecord_get_sl(a))
MAD_INT(get_pr_mtuselector, pathrecord_attr, ibw_pathrecord_get_mtuselector(a))
MAD_INT(get_pr_mtu, pathrecord_attr, ibw_pathrecord_get_mtu(a))
MAD_INT(get_pr_rateselector, pathrecord_attr,
        ibw_pathrecord_get_rateselector(a))
MAD_INT(get_pr_rate, pathrecord_attr, ibw_pathrecord_get_rate(a))
MAD_INT(get_pr_pltselector, pathrecord_attr,
        ibw_pathrecord_get_packetlifetimeselector(a))
MAD_INT(get_pr_plt, pathrecord_attr, ibw_pathrecord_get_packetlifetime(a))
MAD_INT(get_pr_preference, pathrecord_attr, ibw_pathrecord_get_preference(a))

/* PortInfo; tshark shows each CapabilityMask bit as a 32-bit field. */
MAD_INT(get_pi_m_key, portinfo_attr, ibw_portinfo_get_m_key(a))
MAD_INT(get_pi_gidprefix, portinfo_attr, ibw_portinfo_get_gidprefix(a))
MAD_INT(get_pi_lid, portinfo_attr, ibw_portinfo_get_lid(a))
MAD_INT(get_pi_mastersmlid, portinfo_attr, ibw_portinfo_get_mastersmlid(a))
MAD_INT(get_pi_capmask, portinfo_attr, ibw_portinfo_get_capabilitymask(a))
#define PI_CAPABILITY_BITS(X)                                                 \
    X(issm, 1) X(noticesupported, 2) X(trapsupported, 3)                      \
    X(optionalipdsupported, 4) X(automaticmigrationsupported, 5)              \
    X(slmappingsupported, 6) X(mkeynvram, 7) X(pkeynvram, 8)                  \
    X(ledinfosupported, 9) X(smdisabled, 10) X(systemimageguidsupported, 11)  \
    X(pkeyswitchexternalporttrapsupported, 12)                                \
    X(communicationmanagementsupported, 16) X(snmptunnelingsupported, 17)     \
    X(reinitsupported, 18) X(devicemanagementsupported, 19)                   \
    X(vendorclasssupported, 20) X(drnoticesupported, 21)                      \
    X(capabilitymasknoticesupported, 22) X(bootmanagementsupported, 23)       \
    X(linkroundtriplatencysupported, 24) X(clientregistrationsupported, 25)   \
    X(otherlocalchangesnoticesupported, 26)                                   \
    X(linkspeedwidthpairstablesupported, 27)
#define PI_CAP_GETTER(name, bit)                                              \
    MAD_INT(get_pi_cap_##name, portinfo_attr,                                 \
            (ibw_portinfo_get_capabilitymask(a) >> (bit)) & 1u)
PI_CAPABILITY_BITS(PI_CAP_GETTER)
/* The PortInfo fields tshark shows under their own (lower-case) names. */
#define PI_FIELDS(X)                                                          \
    X(diagcode, DT_HEX16) X(m_keyleaseperiod, DT_HEX16)                       \
    X(localportnum, DT_HEX8) X(linkwidthenabled, DT_HEX8)                     \
    X(linkwidthsupported, DT_HEX8) X(linkwidthactive, DT_HEX8)                \
    X(linkspeedsupported, DT_HEX8) X(portstate, DT_HEX8)                      \
    X(portphysicalstate, DT_HEX8) X(linkdowndefaultstate, DT_HEX8)            \
    X(m_keyprotectbits, DT_HEX8) X(lmc, DT_HEX8) X(linkspeedactive, DT_HEX8)  \
    X(linkspeedenabled, DT_HEX8) X(neighbormtu, DT_HEX8)                      \
    X(mastersmsl, DT_HEX8) X(vlcap, DT_HEX8) X(inittype, DT_HEX8)             \
    X(vlhighlimit, DT_HEX8) X(vlarbitrationhighcap, DT_HEX8)                  \
    X(vlarbitrationlowcap, DT_HEX8) X(inittypereply, DT_HEX8)                 \
    X(mtucap, DT_HEX8) X(vlstallcount, DT_HEX8) X(hoqlife, DT_HEX8)           \
    X(operationalvls, DT_HEX8) X(partitionenforcementinbound, DT_HEX8)        \
    X(partitionenforcementoutbound, DT_HEX8) X(filterrawinbound, DT_HEX8)     \
    X(filterrawoutbound, DT_HEX8) X(m_keyviolations, DT_HEX16)                \
    X(p_keyviolations, DT_HEX16) X(q_keyviolations, DT_HEX16)                 \
    X(guidcap, DT_HEX8) X(clientreregister, DT_HEX8)                          \
    X(subnettimeout, DT_HEX8) X(resptimevalue, DT_HEX8)                       \
    X(localphyerrors, DT_HEX8) X(overrunerrors, DT_HEX8)                      \
    X(maxcredithint, DT_HEX16) X(linkroundtriplatency, DT_HEX24)
#define PI_GETTER(name, type)                                                 \
    MAD_INT(get_pi_##name, portinfo_attr, ibw_portinfo_get_##name(a))
PI_FIELDS(PI_GETTER)

/* ClassPortInfo.  tshark's one "item" field of the PerfMgt attribute is of
 * no type (FT_NONE), which -T fields prints as 1. */
MAD_INT(get_cpi_item, perf_classportinfo, 1)
MAD_INT(get_cpi_baseversion, classportinfo_attr,
        ibw_classportinfo_get_baseversion(a))
MAD_INT(get_cpi_classversion, classportinfo_attr,
        ibw_classportinfo_get_classversion(a))
MAD_INT(get_cpi_capmask, classportinfo_attr,
        ibw_classportinfo_get_capabilitymask(a))
MAD_INT(get_cpi_capmask2, classportinfo_attr,
        ibw_classportinfo_get_capabilitymask2(a))
MAD_INT(get_cpi_resptimevalue, classportinfo_attr,
        ibw_classportinfo_get_resptimevalue(a))
MAD_BYTES(get_cpi_redirectgid, classportinfo_attr, 8, 16)
MAD_INT(get_cpi_redirecttc, classportinfo_attr,
        ibw_classportinfo_get_redirecttc(a))
MAD_INT(get_cpi_redirectsl, classportinfo_attr,
        ibw_classportinfo_get_redirectsl(a))
MAD_INT(get_cpi_redirectfl, classportinfo_attr,
        ibw_classportinfo_get_redirectfl(a))
MAD_INT(get_cpi_redirectlid, classportinfo_attr,
        ibw_classportinfo_get_redirectlid(a))
MAD_INT(get_cpi_redirectpkey, classportinfo_attr,
        ibw_classportinfo_get_redirectpkey(a))
MAD_INT(get_cpi_redirectqp, classportinfo_attr,
        ibw_classportinfo_get_redirectqp(a))
MAD_INT(get_cpi_redirectqkey, classportinfo_attr,
        ibw_classportinfo_get_redirectqkey(a))
MAD_BYTES(get_cpi_trapgid, classportinfo_attr, 40, 16)
MAD_INT(get_cpi_traptc, classportinfo_attr, ibw_classportinfo_get_traptc(a))
MAD_INT(get_cpi_trapsl, classportinfo_attr, ibw_classportinfo_get_trapsl(a))
MAD_INT(get_cpi_trapfl, classportinfo_attr, ibw_classportinfo_get_trapfl(a))
MAD_INT(get_cpi_traplid, classportinfo_attr,
        ibw_classportinfo_get_traplid(a))
MAD_INT(get_cpi_trappkey, classportinfo_attr,
        ibw_classportinfo_get_trappkey(a))
MAD_INT(get_cpi_trapqp, classportinfo_attr, ibw_classportinfo_get_trapqp(a))
MAD_INT(get_cpi_trapqkey, classportinfo_attr,
        ibw_classportinfo_get_trapqkey(a))

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

/* CM REQ. */
MAD_INT(get_req_localcommid, cm_req, ibw_cm_req_get_localcommid(a))
MAD_INT(get_req_serviceid, cm_req, ibw_cm_req_get_serviceid(a))
MAD_BYTES(get_req_sid_prefix, cm_req_ip, 8, 5)
MAD_INT(get_req_sid_protocol, cm_req_ip,
        ibw_cm_service_id_protocol(ibw_cm_req_get_serviceid(a)))
MAD_INT(get_req_sid_dport, cm_req_ip,
        ibw_cm_service_id_port(ibw_cm_req_get_serviceid(a)))
MAD_INT(get_req_localcaguid, cm_req, ibw_cm_req_get_localcaguid(a))
MAD_INT(get_req_localqkey, cm_req, ibw_cm_req_get_localqkey(a))
MAD_INT(get_req_localqpn, cm_req, ibw_cm_req_get_localqpn(a))
MAD_INT(get_req_responderres, cm_req, ibw_cm_req_get_responderres(a))
MAD_INT(get_req_localeecn, cm_req, ibw_cm_req_get_localeecn(a))
MAD_INT(get_req_initdepth, cm_req, ibw_cm_req_get_initdepth(a))
MAD_INT(get_req_remoteeecn, cm_req, ibw_cm_req_get_remoteeecn(a))
MAD_INT(get_req_remoteresptout, cm_req, ibw_cm_req_get_remoteresptout(a))
MAD_INT(get_req_transpsvctype, cm_req, ibw_cm_req_get_transpsvctype(a))
MAD_INT(get_req_e2eflowctrl, cm_req, ibw_cm_req_get_e2eflowctrl(a))
MAD_INT(get_req_startpsn, cm_req, ibw_cm_req_get_startpsn(a))
MAD_INT(get_req_localresptout, cm_req, ibw_cm_req_get_localresptout(a))
MAD_INT(get_req_retrcount, cm_req, ibw_cm_req_get_retrcount(a))
MAD_INT(get_req_pkey, cm_req, ibw_cm_req_get_pkey(a))
MAD_INT(get_req_pppmtu, cm_req, ibw_cm_req_get_pppmtu(a))
MAD_INT(get_req_rdcexist, cm_req, ibw_cm_req_get_rdcexist(a))
MAD_INT(get_req_rnrretrcount, cm_req, ibw_cm_req_get_rnrretrcount(a))
MAD_INT(get_req_maxcmretr, cm_req, ibw_cm_req_get_maxcmretr(a))
MAD_INT(get_req_srq, cm_req, ibw_cm_req_get_srq(a))
MAD_INT(get_req_ext_transport, cm_req, ibw_cm_req_get_ext_transport(a))
MAD_INT(get_req_prim_locallid, cm_req, ibw_cm_req_get_prim_locallid(a))
MAD_INT(get_req_prim_remotelid, cm_req, ibw_cm_req_get_prim_remotelid(a))
MAD_BYTES(get_req_prim_localgid, cm_req_gid6, 56, 16)
MAD_BYTES(get_req_prim_remotegid, cm_req_gid6, 72, 16)
MAD_BYTES(get_req_prim_localgid4, cm_req_gid4, 56 + 12, 4)
MAD_BYTES(get_req_prim_remotegid4, cm_req_gid4, 72 + 12, 4)
MAD_INT(get_req_prim_flowlabel, cm_req, ibw_cm_req_get_prim_flowlabel(a))
MAD_INT(get_req_prim_rsvd0, cm_req, ibw_cm_req_get_rsvd90(a))
MAD_INT(get_req_prim_pktrate, cm_req, ibw_cm_req_get_prim_pktrate(a))
MAD_INT(get_req_prim_tfcclass, cm_req, ibw_cm_req_get_prim_tfcclass(a))
MAD_INT(get_req_prim_hoplim, cm_req, ibw_cm_req_get_prim_hoplim(a))
MAD_INT(get_req_prim_sl, cm_req, ibw_cm_req_get_prim_sl(a))
MAD_INT(get_req_prim_subnetlocal, cm_req, ibw_cm_req_get_prim_subnetlocal(a))
MAD_INT(get_req_prim_rsvd1, cm_req, ibw_cm_req_get_rsvd94(a))
MAD_INT(get_req_prim_localacktout, cm_req,
        ibw_cm_req_get_prim_localacktout(a))
MAD_INT(get_req_prim_rsvd2, cm_req, ibw_cm_req_get_rsvd95(a))
MAD_INT(get_req_alt_locallid, cm_req, ibw_cm_req_get_alt_locallid(a))
MAD_INT(get_req_alt_remotelid, cm_req, ibw_cm_req_get_alt_remotelid(a))
MAD_BYTES(get_req_alt_localgid, cm_req, 100, 16)
MAD_BYTES(get_req_alt_remotegid, cm_req, 116, 16)
MAD_INT(get_req_alt_flowlabel, cm_req, ibw_cm_req_get_alt_flowlabel(a))
MAD_INT(get_req_alt_rsvd0, cm_req, ibw_cm_req_get_rsvd134(a))
MAD_INT(get_req_alt_pktrate, cm_req, ibw_cm_req_get_alt_pktrate(a))
MAD_INT(get_req_alt_tfcclass, cm_req, ibw_cm_req_get_alt_tfcclass(a))
MAD_INT(get_req_alt_hoplim, cm_req, ibw_cm_req_get_alt_hoplim(a))
MAD_INT(get_req_alt_sl, cm_req, ibw_cm_req_get_alt_sl(a))
MAD_INT(get_req_alt_subnetlocal, cm_req, ibw_cm_req_get_alt_subnetlocal(a))
MAD_INT(get_req_alt_localacktout, cm_req, ibw_cm_req_get_alt_localacktout(a))
MAD_BYTES(get_req_private, cm_req_not_ip, 140, 92)

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

/* The IP CM header of an IP CM REQ. */
MAD_BYTES(get_ipcm, ip_cm_hdr, 0, 92)
MAD_INT(get_ipcm_majv, ip_cm_hdr, ibw_ip_cm_get_majv(a))
MAD_INT(get_ipcm_minv, ip_cm_hdr, ibw_ip_cm_get_minv(a))
MAD_INT(get_ipcm_ipv, ip_cm_hdr, ibw_ip_cm_get_ipv(a))
MAD_INT(get_ipcm_rsvd, ip_cm_hdr, ibw_ip_cm_get_rsvd1(a))
MAD_INT(get_ipcm_sport, ip_cm_hdr, ibw_ip_cm_get_sport(a))
MAD_BYTES(get_ipcm_sip6, ip_cm_not_v4, 4, 16)
MAD_BYTES(get_ipcm_dip6, ip_cm_not_v4, 20, 16)
MAD_BYTES(get_ipcm_sip4, ip_cm_v4, 4 + 12, 4)
MAD_BYTES(get_ipcm_dip4, ip_cm_v4, 20 + 12, 4)
MAD_BYTES(get_ipcm_private, ip_cm_hdr, IBW_CM_IP_HDR_SIZE,
          92 - IBW_CM_IP_HDR_SIZE)

/* CM REP, RTU, REJ, DREQ, DREP. */
MAD_INT(get_rep_localcommid, cm_rep, ibw_cm_rep_get_localcommid(a))
MAD_INT(get_rep_remotecommid, cm_rep, ibw_cm_rep_get_remotecommid(a))
MAD_INT(get_rep_localqkey, cm_rep, ibw_cm_rep_get_localqkey(a))
MAD_INT(get_rep_localqpn, cm_rep, ibw_cm_rep_get_localqpn(a))
MAD_INT(get_rep_localeecn, cm_rep, ibw_cm_rep_get_localeecn(a))
MAD_INT(get_rep_startpsn, cm_rep, ibw_cm_rep_get_startpsn(a))
MAD_INT(get_rep_respres, cm_rep, ibw_cm_rep_get_respres(a))
MAD_INT(get_rep_initdepth, cm_rep, ibw_cm_rep_get_initdepth(a))
MAD_INT(get_rep_tgtackdelay, cm_rep, ibw_cm_rep_get_tgtackdelay(a))
MAD_INT(get_rep_failoveracc, cm_rep, ibw_cm_rep_get_failoveracc(a))
MAD_INT(get_rep_e2eflowctrl, cm_rep, ibw_cm_rep_get_e2eflowctrl(a))
MAD_INT(get_rep_rnrretrcount, cm_rep, ibw_cm_rep_get_rnrretrcount(a))
MAD_INT(get_rep_srq, cm_rep, ibw_cm_rep_get_srq(a))
MAD_INT(get_rep_rsvd, cm_rep, ibw_cm_rep_get_rsvd27(a))
MAD_INT(get_rep_localcaguid, cm_rep, ibw_cm_rep_get_localcaguid(a))
MAD_BYTES(get_rep_private, cm_rep, 36, 196)

MAD_INT(get_rtu_localcommid, cm_rtu, ibw_cm_rtu_get_localcommid(a))
MAD_INT(get_rtu_remotecommid, cm_rtu, ibw_cm_rtu_get_remotecommid(a))
MAD_BYTES(get_rtu_private, cm_rtu, 8, 224)

MAD_INT(get_rej_localcommid, cm_rej, ibw_cm_rej_get_localcommid(a))
MAD_INT(get_rej_remotecommid, cm_rej, ibw_cm_rej_get_remotecommid(a))
MAD_INT(get_rej_msgrej, cm_rej, ibw_cm_rej_get_msgrej(a))
MAD_INT(get_rej_rsvd0, cm_rej, ibw_cm_rej_get_rsvd8(a))
MAD_INT(get_rej_rejinfolen, cm_rej, ibw_cm_rej_get_rejinfolen(a))
MAD_INT(get_rej_rsvd1, cm_rej, ibw_cm_rej_get_rsvd9(a))
MAD_INT(get_rej_reason, cm_rej, ibw_cm_rej_get_reason(a))
MAD_BYTES(get_rej_ari, cm_rej, 12, 72)
MAD_BYTES(get_rej_private, cm_rej, 84, 148)

MAD_INT(get_dreq_localcommid, cm_dreq, ibw_cm_dreq_get_localcommid(a))
MAD_INT(get_dreq_remotecommid, cm_dreq, ibw_cm_dreq_get_remotecommid(a))
MAD_INT(get_dreq_remoteqpneecn, cm_dreq, ibw_cm_dreq_get_remoteqpneecn(a))
MAD_BYTES(get_dreq_private, cm_dreq, 12, 220)

MAD_INT(get_drep_localcommid, cm_drep, ibw_cm_drep_get_localcommid(a))
MAD_INT(get_drep_remotecommid, cm_drep, ibw_cm_drep_get_remotecommid(a))
MAD_BYTES(get_drep_private, cm_drep, 8, 224)

/* ---- ibwire's own view: ibw_mad_decode() -------------------------------- */

/* The last frame decoded: getters of one frame share one decode. */
static struct {
    const uint8_t *mad;
    uint64_t number;
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
    if (decoded.mad != m || decoded.number != fr->cap->number) {
        decoded.rc = ibw_mad_decode(m, fr->pkt->payload_len, &decoded.view);
        decoded.mad = m;
        decoded.number = fr->cap->number;
    }
    *rc = decoded.rc;
    return &decoded.view;
}

static unsigned get_ibw_mad_class(const struct dump_frame *fr,
                                  struct dump_val *v)
{
    int rc;
    const struct ibw_mad_view *mv = mad_view(fr, &rc);
    const char *s = mv ? ibw_mad_class_name(mv->hdr.mgmtclass) : NULL;
    return s ? (v->s = s, 1u) : 0u;
}
static unsigned get_ibw_mad_method(const struct dump_frame *fr,
                                   struct dump_val *v)
{
    int rc;
    const struct ibw_mad_view *mv = mad_view(fr, &rc);
    const char *s =
        mv ? ibw_mad_method_name(mv->hdr.mgmtclass, mv->hdr.method) : NULL;
    return s ? (v->s = s, 1u) : 0u;
}
static unsigned get_ibw_mad_attribute(const struct dump_frame *fr,
                                      struct dump_val *v)
{
    int rc;
    const struct ibw_mad_view *mv = mad_view(fr, &rc);
    const char *s =
        mv ? ibw_mad_attr_name(mv->hdr.mgmtclass, mv->hdr.attributeid) : NULL;
    return s ? (v->s = s, 1u) : 0u;
}

static char mad_error_text[96];

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

/* ibwire.cm.<msg>.<field> for every field of the messages tshark does not
 * dissect, straight from their field lists. */
#define IBWCM_GETTER_INT(c, name)                                             \
    DUMP_INT_GETTER(get_ibwcm_##c##_##name, a, ibw_cm_msg(fr, IBWCM_ATTR_##c), \
                    ibw_cm_##c##_get_##name(a))
#define IBWCM_GETTER_U8 IBWCM_GETTER_INT
#define IBWCM_GETTER_U16 IBWCM_GETTER_INT
#define IBWCM_GETTER_U32 IBWCM_GETTER_INT
#define IBWCM_GETTER_U64 IBWCM_GETTER_INT
#define IBWCM_GETTER_BYTES(c, name)                                           \
    static unsigned get_ibwcm_##c##_##name(const struct dump_frame *fr,      \
                                           struct dump_val *v)                \
    {                                                                         \
        const uint8_t *a = ibw_cm_msg(fr, IBWCM_ATTR_##c);                    \
        if (!a)                                                               \
            return 0;                                                         \
        const struct ibw_field *f =                                           \
            ibw_format_field(ibw_cm_##c##_format(), #name);                   \
        return dump_put_bytes(v, ibw_cm_##c##_get_##name(a), f->width / 8);        \
    }
#define IBWCM_GETTER(c, name, off, bit, w, kind, desc)                        \
    IBWCM_GETTER_##kind(c, name)

#define IBWCM_ATTR_mra IBW_CM_ATTR_MRA
#define IBWCM_ATTR_lap IBW_CM_ATTR_LAP
#define IBWCM_ATTR_apr IBW_CM_ATTR_APR
#define IBWCM_ATTR_sidr_req IBW_CM_ATTR_SIDR_REQ
#define IBWCM_ATTR_sidr_rep IBW_CM_ATTR_SIDR_REP

/* The messages tshark only names; one list so getters and table agree. */
#define IBWCM_MESSAGES(M, X)                                                  \
    M(IBW_CM_MRA_FIELDS, X, mra)                                              \
    M(IBW_CM_LAP_FIELDS, X, lap)                                              \
    M(IBW_CM_APR_FIELDS, X, apr)                                              \
    M(IBW_CM_SIDR_REQ_FIELDS, X, sidr_req)                                    \
    M(IBW_CM_SIDR_REP_FIELDS, X, sidr_rep)
#define IBWCM_EXPAND(LIST, X, c) LIST(X, c)

IBWCM_MESSAGES(IBWCM_EXPAND, IBWCM_GETTER)

/* Hex as wide as the field, bytes as hex. */
#define IBWCM_TYPE_INT(w)                                                     \
    ((w) <= 8 ? DT_HEX8 : (w) <= 16 ? DT_HEX16 : (w) <= 24 ? DT_HEX24         \
                                      : (w) <= 32 ? DT_HEX32 : DT_HEX64)
#define IBWCM_TYPE_U8 IBWCM_TYPE_INT
#define IBWCM_TYPE_U16 IBWCM_TYPE_INT
#define IBWCM_TYPE_U32 IBWCM_TYPE_INT
#define IBWCM_TYPE_U64 IBWCM_TYPE_INT
#define IBWCM_TYPE_BYTES(w) DT_BYTES
#define IBWCM_ENTRY(c, name, off, bit, w, kind, desc)                         \
    {"ibwire.cm." #c "." #name, (uint8_t)(IBWCM_TYPE_##kind(w)),              \
     get_ibwcm_##c##_##name, desc},

/* ---- the table ------------------------------------------------------------ */

#define REQ "infiniband.cm.req."
#define REP "infiniband.cm.rep."
#define REJ "infiniband.cm.rej."
#define IPCM "infiniband.cm.req.ip_cm."
#define PR "infiniband.pathrecord."
#define NI "infiniband.nodeinfo."
#define CPI "infiniband.classportinfo."

const struct dump_field dump_fields_mad[] = {
    {"infiniband.mad", DT_BYTES, get_mad, "the whole MAD (256 bytes)"},
    {"infiniband.mad.baseversion", DT_HEX8, get_mad_baseversion,
     "MAD base version"},
    {"infiniband.mad.mgmtclass", DT_HEX8, get_mad_mgmtclass,
     "management class"},
    {"infiniband.mad.classversion", DT_HEX8, get_mad_classversion,
     "class version"},
    {"infiniband.mad.method", DT_HEX8, get_mad_method, "method (bit 7: R)"},
    {"infiniband.mad.status", DT_HEX16, get_mad_status, "status"},
    {"infiniband.mad.classspecific", DT_HEX16, get_mad_classspecific,
     "class specific"},
    {"infiniband.mad.transactionid", DT_HEX64, get_mad_transactionid,
     "transaction ID"},
    {"infiniband.mad.attributeid", DT_HEX16, get_mad_attributeid,
     "attribute ID"},
    {"infiniband.mad.attributemodifier", DT_HEX32, get_mad_attributemodifier,
     "attribute modifier"},
    {"infiniband.mad.data", DT_BYTES, get_mad_data, "MAD data (232 bytes)"},

    {"infiniband.rmpp", DT_BYTES, get_rmpp, "SA RMPP header (12 bytes)"},
    {"infiniband.rmpp.rmppversion", DT_HEX8, get_rmpp_version, "RMPP version"},
    {"infiniband.rmpp.rmpptype", DT_HEX8, get_rmpp_type, "RMPP type"},
    {"infiniband.rmpp.rresptime", DT_HEX8, get_rmpp_rresptime,
     "RMPP response time (IBA 5 bits; tshark 4.0 reads 4)"},
    {"infiniband.rmpp.rmppflags", DT_HEX8, get_rmpp_flags,
     "RMPP flags (IBA 3 bits; tshark 4.0 reads 4)"},
    {"infiniband.rmpp.rmppstatus", DT_HEX8, get_rmpp_status, "RMPP status"},
    {"infiniband.rmpp.data1", DT_HEX32, get_rmpp_data1,
     "RMPP data 1 (type 0)"},
    {"infiniband.rmpp.data2", DT_HEX32, get_rmpp_data2,
     "RMPP data 2 (type 0)"},
    {"infiniband.rmpp.segmentnumber", DT_HEX32, get_rmpp_segment,
     "RMPP segment number (DATA, ACK)"},
    {"infiniband.rmpp.payloadlength", DT_HEX32, get_rmpp_paylen,
     "RMPP payload length (DATA)"},
    {"infiniband.rmpp.newwindowlast", DT_HEX32, get_rmpp_newwindowlast,
     "RMPP new window last (ACK)"},
    {"infiniband.rmpp.transferreddata", DT_BYTES, get_rmpp_transferred,
     "RMPP DATA: MAD bytes 36..255"},
    {"infiniband.rmpp.extendederrordata", DT_BYTES, get_rmpp_errordata,
     "RMPP STOP/ABORT: MAD bytes 36..255"},

    {"infiniband.sa.drdlid", DT_BYTES, get_sa_items,
     "tshark's name for the SA MAD, its data and its record"},
    {"infiniband.sa.smkey", DT_HEX64, get_sa_smkey, "SA SM_Key"},
    {"infiniband.sa.attributeoffset", DT_HEX16, get_sa_attributeoffset,
     "SA attribute offset"},
    {"infiniband.sa.componentmask", DT_HEX64, get_sa_componentmask,
     "SA component mask"},
    {"infiniband.sa.subnetadmindata", DT_BYTES, get_never,
     "never shown by tshark 4.0"},

    {"infiniband.smplid", DT_BYTES, get_smplid, "LID-routed SMP (256 bytes)"},
    {"infiniband.smplid.mkey", DT_HEX64, get_smp_mkey, "SMP M_Key"},
    {"infiniband.smplid.smpdata", DT_BYTES, get_smpdata,
     "SMP attribute area, or the data of CM and other classes"},
    {"infiniband.smpdirected", DT_BYTES, get_smpdirected,
     "directed-route SMP (256 bytes)"},
    {"infiniband.smpdirected.d", DT_HEX64, get_dr_d,
     "direction bit (IBA; tshark 4.0 always shows 0)"},
    {"infiniband.smpdirected.smpstatus", DT_HEX16, get_dr_smpstatus,
     "15-bit status (IBA; tshark 4.0 includes the D bit)"},
    {"infiniband.smpdirected.hoppointer", DT_HEX8, get_dr_hoppointer,
     "hop pointer"},
    {"infiniband.smpdirected.hopcount", DT_HEX8, get_dr_hopcount, "hop count"},
    {"infiniband.smpdirected.drslid", DT_HEX16, get_dr_drslid,
     "directed-route SLID"},
    {"infiniband.smpdirected.drdlid", DT_HEX16, get_dr_drdlid,
     "directed-route DLID"},
    {"infiniband.smpdirected.initialpath", DT_BYTES, get_dr_initialpath,
     "initial path"},
    {"infiniband.smpdirected.returnpath", DT_BYTES, get_dr_returnpath,
     "return path"},

    {"infiniband.sminfo.guid", DT_HEX64, get_sminfo_guid, "SMInfo GUID"},
    {"infiniband.sminfo.sm_key", DT_HEX64, get_sminfo_sm_key, "SMInfo SM_Key"},
    {"infiniband.sminfo.actcount", DT_HEX32, get_sminfo_actcount,
     "SMInfo activity count"},
    {"infiniband.sminfo.priority", DT_HEX8, get_sminfo_priority,
     "SMInfo priority"},
    {"infiniband.sminfo.smstate", DT_HEX8, get_sminfo_smstate,
     "SMInfo SM state"},

    {NI "baseversion", DT_HEX8, get_ni_baseversion, "NodeInfo base version"},
    {NI "classversion", DT_HEX8, get_ni_classversion,
     "NodeInfo class version"},
    {NI "nodetype", DT_HEX8, get_ni_nodetype, "NodeInfo node type"},
    {NI "numports", DT_HEX8, get_ni_numports, "NodeInfo number of ports"},
    {NI "systemimageguid", DT_HEX64, get_ni_sysguid,
     "NodeInfo system image GUID"},
    {NI "nodeguid", DT_HEX64, get_ni_nodeguid, "NodeInfo node GUID"},
    {NI "portguid", DT_HEX64, get_ni_portguid, "NodeInfo port GUID"},
    {NI "partitioncap", DT_HEX16, get_ni_partitioncap,
     "NodeInfo partition capacity"},
    {NI "deviceid", DT_HEX16, get_ni_deviceid, "NodeInfo device ID"},
    {NI "revision", DT_HEX32, get_ni_revision, "NodeInfo revision"},
    {NI "localportnum", DT_HEX8, get_ni_localportnum,
     "NodeInfo local port number"},
    {NI "vendorid", DT_HEX24, get_ni_vendorid, "NodeInfo vendor ID"},

    {PR "dgid", DT_IPV6, get_pr_dgid, "PathRecord DGID"},
    {PR "sgid", DT_IPV6, get_pr_sgid, "PathRecord SGID"},
    {PR "dlid", DT_HEX16, get_pr_dlid, "PathRecord DLID"},
    {PR "slid", DT_HEX16, get_pr_slid, "PathRecord SLID"},
    {PR "rawtraffic", DT_HEX8, get_pr_rawtraffic, "PathRecord raw traffic"},
    {PR "flowlabel", DT_HEX24, get_pr_flowlabel, "PathRecord flow label"},
    {PR "hoplimit", DT_HEX8, get_pr_hoplimit, "PathRecord hop limit"},
    {PR "tclass", DT_HEX8, get_pr_tclass, "PathRecord traffic class"},
    {PR "reversible", DT_HEX8, get_pr_reversible, "PathRecord reversible"},
    {PR "numbpath", DT_HEX8, get_pr_numbpath, "PathRecord number of paths"},
    {PR "p_key", DT_HEX16, get_pr_p_key, "PathRecord P_Key"},
    {PR "sl", DT_HEX16, get_pr_sl, "PathRecord SL"},
    {PR "mtuselector", DT_HEX8, get_pr_mtuselector, "PathRecord MTU selector"},
    {PR "mtu", DT_HEX8, get_pr_mtu, "PathRecord MTU"},
    {PR "rateselector", DT_HEX8, get_pr_rateselector,
     "PathRecord rate selector"},
    {PR "rate", DT_HEX8, get_pr_rate, "PathRecord rate"},
    {PR "packetlifetimeselector", DT_HEX8, get_pr_pltselector,
     "PathRecord packet life time selector"},
    {PR "packetlifetime", DT_HEX8, get_pr_plt, "PathRecord packet life time"},
    {PR "preference", DT_HEX8, get_pr_preference, "PathRecord preference"},

    {"infiniband.portinfo.m_key", DT_HEX64, get_pi_m_key, "PortInfo M_Key"},
    {"infiniband.portinfo.guid", DT_HEX64, get_pi_gidprefix,
     "PortInfo GID prefix (tshark's name)"},
    {"infiniband.portinfo.lid", DT_HEX16, get_pi_lid, "PortInfo LID"},
    {"infiniband.portinfo.mastersmlid", DT_HEX16, get_pi_mastersmlid,
     "PortInfo master SM LID"},
    {"infiniband.portinfo.capabilitymask", DT_HEX32, get_pi_capmask,
     "PortInfo capability mask"},
#define PI_CAP_ENTRY(name, bit)                                               \
    {"infiniband.portinfo.capabilitymask." #name, DT_HEX32,                   \
     get_pi_cap_##name, "PortInfo capability mask bit " #bit},
    PI_CAPABILITY_BITS(PI_CAP_ENTRY)
#define PI_ENTRY(name, type)                                                  \
    {"infiniband.portinfo." #name, type, get_pi_##name, "PortInfo " #name},
    PI_FIELDS(PI_ENTRY)

    {"infiniband.classportinfo", DT_DEC, get_cpi_item,
     "PerfMgt ClassPortInfo item (tshark prints 1)"},
    {CPI "baseversion", DT_HEX8, get_cpi_baseversion,
     "ClassPortInfo base version"},
    {CPI "classversion", DT_HEX8, get_cpi_classversion,
     "ClassPortInfo class version"},
    {CPI "capabilitymask", DT_HEX16, get_cpi_capmask,
     "ClassPortInfo capability mask"},
    {CPI "capabilitymask2", DT_HEX32, get_cpi_capmask2,
     "ClassPortInfo capability mask 2"},
    {CPI "resptimevalue", DT_HEX8, get_cpi_resptimevalue,
     "ClassPortInfo response time value"},
    {CPI "redirectgid", DT_IPV6, get_cpi_redirectgid,
     "ClassPortInfo redirect GID"},
    {CPI "redirecttc", DT_HEX8, get_cpi_redirecttc,
     "ClassPortInfo redirect traffic class"},
    {CPI "redirectsl", DT_HEX8, get_cpi_redirectsl,
     "ClassPortInfo redirect SL"},
    {CPI "redirectfl", DT_HEX24, get_cpi_redirectfl,
     "ClassPortInfo redirect flow label"},
    {CPI "redirectlid", DT_HEX16, get_cpi_redirectlid,
     "ClassPortInfo redirect LID"},
    {CPI "redirectpkey", DT_HEX16, get_cpi_redirectpkey,
     "ClassPortInfo redirect P_Key"},
    {CPI "reserved", DT_HEX8, get_cpi_reserved,
     "ClassPortInfo byte 32 and the trap hop limit (tshark's name)"},
    {CPI "redirectqp", DT_HEX24, get_cpi_redirectqp,
     "ClassPortInfo redirect QP"},
    {CPI "redirectqkey", DT_HEX32, get_cpi_redirectqkey,
     "ClassPortInfo redirect Q_Key"},
    {CPI "trapgid", DT_IPV6, get_cpi_trapgid, "ClassPortInfo trap GID"},
    {CPI "traptc", DT_HEX8, get_cpi_traptc,
     "ClassPortInfo trap traffic class"},
    {CPI "trapsl", DT_HEX8, get_cpi_trapsl, "ClassPortInfo trap SL"},
    {CPI "trapfl", DT_HEX24, get_cpi_trapfl, "ClassPortInfo trap flow label"},
    {CPI "traplid", DT_HEX16, get_cpi_traplid, "ClassPortInfo trap LID"},
    {CPI "trappkey", DT_HEX16, get_cpi_trappkey, "ClassPortInfo trap P_Key"},
    {CPI "trapqp", DT_HEX24, get_cpi_trapqp, "ClassPortInfo trap QP"},
    {CPI "trapqkey", DT_HEX32, get_cpi_trapqkey,
     "ClassPortInfo trap Q_Key"},

    {"infiniband.cm.req", DT_HEX32, get_req_localcommid,
     "REQ local communication ID"},
    {REQ "serviceid", DT_HEX64, get_req_serviceid, "REQ service ID"},
    {REQ "serviceid.prefix", DT_BYTES, get_req_sid_prefix,
     "REQ IP CM service ID prefix"},
    {REQ "serviceid.protocol", DT_HEX8, get_req_sid_protocol,
     "REQ IP CM service ID protocol"},
    {REQ "serviceid.dport", DT_HEX16, get_req_sid_dport,
     "REQ IP CM service ID port"},
    {REQ "localcaguid", DT_HEX64, get_req_localcaguid, "REQ local CA GUID"},
    {REQ "localqkey", DT_HEX32, get_req_localqkey, "REQ local Q_Key"},
    {REQ "localqpn", DT_HEX24, get_req_localqpn, "REQ local QPN"},
    {REQ "responderres", DT_HEX8, get_req_responderres,
     "REQ responder resources"},
    {REQ "localeecn", DT_HEX24, get_req_localeecn, "REQ local EECN"},
    {REQ "initdepth", DT_HEX8, get_req_initdepth, "REQ initiator depth"},
    {REQ "remoteeecn", DT_HEX24, get_req_remoteeecn, "REQ remote EECN"},
    {REQ "remoteresptout", DT_HEX8, get_req_remoteresptout,
     "REQ remote CM response timeout"},
    {REQ "transpsvctype", DT_HEX8, get_req_transpsvctype,
     "REQ transport service type"},
    {REQ "e2eflowctrl", DT_HEX8, get_req_e2eflowctrl,
     "REQ end-to-end flow control"},
    {REQ "startpsn", DT_HEX24, get_req_startpsn, "REQ starting PSN"},
    {REQ "localresptout", DT_HEX8, get_req_localresptout,
     "REQ local CM response timeout"},
    {REQ "retrcount", DT_HEX8, get_req_retrcount, "REQ retry count"},
    {REQ "pkey", DT_HEX16, get_req_pkey, "REQ partition key"},
    {REQ "pppmtu", DT_HEX8, get_req_pppmtu, "REQ path packet payload MTU"},
    {REQ "rdcexist", DT_HEX8, get_req_rdcexist, "REQ RDC exists"},
    {REQ "rnrretrcount", DT_HEX8, get_req_rnrretrcount,
     "REQ RNR retry count"},
    {REQ "maxcmretr", DT_HEX8, get_req_maxcmretr, "REQ max CM retries"},
    {REQ "srq", DT_HEX8, get_req_srq, "REQ SRQ"},
    {REQ "ext_transport", DT_HEX8, get_req_ext_transport,
     "REQ extended transport"},
    {REQ "prim_locallid", DT_DEC, get_req_prim_locallid,
     "REQ primary local LID"},
    {REQ "prim_remotelid", DT_DEC, get_req_prim_remotelid,
     "REQ primary remote LID"},
    {REQ "prim_localgid", DT_IPV6, get_req_prim_localgid,
     "REQ primary local GID"},
    {REQ "prim_remotegid", DT_IPV6, get_req_prim_remotegid,
     "REQ primary remote GID"},
    {REQ "prim_localgid_ipv4", DT_IPV4, get_req_prim_localgid4,
     "REQ primary local GID as IPv4 (RoCEv2/IPv4)"},
    {REQ "prim_remotegid_ipv4", DT_IPV4, get_req_prim_remotegid4,
     "REQ primary remote GID as IPv4 (RoCEv2/IPv4)"},
    {REQ "prim_flowlabel", DT_HEX32, get_req_prim_flowlabel,
     "REQ primary flow label (IBA; tshark 4.0 reads other bits)"},
    {REQ "prim_reserved0", DT_HEX32, get_req_prim_rsvd0,
     "REQ reserved bits before the primary packet rate (IBA)"},
    {REQ "prim_pktrate", DT_HEX32, get_req_prim_pktrate,
     "REQ primary packet rate (IBA; tshark 4.0 reads other bits)"},
    {REQ "prim_tfcclass", DT_HEX8, get_req_prim_tfcclass,
     "REQ primary traffic class"},
    {REQ "prim_hoplim", DT_HEX8, get_req_prim_hoplim, "REQ primary hop limit"},
    {REQ "prim_sl", DT_HEX8, get_req_prim_sl, "REQ primary SL"},
    {REQ "prim_subnetlocal", DT_HEX8, get_req_prim_subnetlocal,
     "REQ primary subnet local"},
    {REQ "prim_reserved1", DT_HEX8, get_req_prim_rsvd1, "REQ reserved"},
    {REQ "prim_localacktout", DT_HEX8, get_req_prim_localacktout,
     "REQ primary local ACK timeout"},
    {REQ "prim_reserved2", DT_HEX8, get_req_prim_rsvd2, "REQ reserved"},
    {REQ "alt_locallid", DT_DEC, get_req_alt_locallid,
     "REQ alternate local LID"},
    {REQ "alt_remotelid", DT_DEC, get_req_alt_remotelid,
     "REQ alternate remote LID"},
    {REQ "alt_localgid", DT_BYTES, get_req_alt_localgid,
     "REQ alternate local GID"},
    {REQ "alt_remotegid", DT_BYTES, get_req_alt_remotegid,
     "REQ alternate remote GID"},
    {REQ "alt_flowlabel", DT_HEX32, get_req_alt_flowlabel,
     "REQ alternate flow label (IBA; tshark 4.0 reads other bits)"},
    {REQ "alt_reserved0", DT_HEX32, get_req_alt_rsvd0,
     "REQ reserved bits before the alternate packet rate (IBA)"},
    {REQ "alt_pktrate", DT_HEX32, get_req_alt_pktrate,
     "REQ alternate packet rate (IBA; tshark 4.0 reads other bits)"},
    {REQ "alt_tfcclass", DT_HEX8, get_req_alt_tfcclass,
     "REQ alternate traffic class"},
    {REQ "alt_hoplim", DT_HEX8, get_req_alt_hoplim, "REQ alternate hop limit"},
    {REQ "alt_sl", DT_HEX8, get_req_alt_sl, "REQ alternate SL"},
    {REQ "alt_subnetlocal", DT_HEX8, get_req_alt_subnetlocal,
     "REQ alternate subnet local"},
    {REQ "alt_reserved1", DT_HEX8, get_req_alt_rsvd1,
     "REQ reserved bits of bytes 138 and 139 (twice)"},
    {REQ "alt_localacktout", DT_HEX8, get_req_alt_localacktout,
     "REQ alternate local ACK timeout"},
    {REQ "private", DT_BYTES, get_req_private,
     "REQ private data (not IP CM)"},
    {REQ "remoteqpneecn", DT_HEX24, get_dreq_remoteqpneecn,
     "DREQ remote QPN/EECN (tshark's name)"},
    {"infiniband.cm.req.ip_cm", DT_BYTES, get_ipcm,
     "IP CM REQ private data (92 bytes)"},
    {IPCM "majv", DT_HEX8, get_ipcm_majv, "IP CM major version"},
    {IPCM "minv", DT_HEX8, get_ipcm_minv, "IP CM minor version"},
    {IPCM "ipv", DT_HEX8, get_ipcm_ipv, "IP CM IP version"},
    {IPCM "reserved", DT_HEX8, get_ipcm_rsvd, "IP CM reserved"},
    {IPCM "sport", DT_HEX16, get_ipcm_sport, "IP CM source port"},
    {IPCM "sip6", DT_IPV6, get_ipcm_sip6, "IP CM source IP (not IPv4)"},
    {IPCM "dip6", DT_IPV6, get_ipcm_dip6, "IP CM destination IP (not IPv4)"},
    {IPCM "sip4", DT_IPV4, get_ipcm_sip4, "IP CM source IPv4"},
    {IPCM "dip4", DT_IPV4, get_ipcm_dip4, "IP CM destination IPv4"},
    {IPCM "private", DT_BYTES, get_ipcm_private,
     "IP CM consumer private data (56 bytes)"},

    {"infiniband.cm.rep", DT_HEX32, get_rep_localcommid,
     "REP local communication ID"},
    {REP "remotecommid", DT_HEX32, get_rep_remotecommid,
     "REP remote communication ID"},
    {REP "localqkey", DT_HEX32, get_rep_localqkey, "REP local Q_Key"},
    {REP "localqpn", DT_HEX24, get_rep_localqpn, "REP local QPN"},
    {REP "localeecn", DT_HEX24, get_rep_localeecn, "REP local EECN"},
    {REP "startpsn", DT_HEX24, get_rep_startpsn, "REP starting PSN"},
    {REP "respres", DT_HEX8, get_rep_respres, "REP responder resources"},
    {REP "initdepth", DT_HEX8, get_rep_initdepth, "REP initiator depth"},
    {REP "tgtackdelay", DT_HEX8, get_rep_tgtackdelay, "REP target ACK delay"},
    {REP "failoveracc", DT_HEX8, get_rep_failoveracc,
     "REP failover accepted"},
    {REP "e2eflowctrl", DT_HEX8, get_rep_e2eflowctrl,
     "REP end-to-end flow control"},
    {REP "rnrretrcount", DT_HEX8, get_rep_rnrretrcount,
     "REP RNR retry count"},
    {REP "srq", DT_HEX8, get_rep_srq, "REP SRQ"},
    {REP "reserved", DT_HEX8, get_rep_rsvd, "REP reserved"},
    {REP "localcaguid", DT_HEX64, get_rep_localcaguid, "REP local CA GUID"},
    {REP "private", DT_BYTES, get_rep_private, "REP private data"},

    {"infiniband.cm.rtu.localcommid", DT_HEX32, get_rtu_localcommid,
     "RTU local communication ID"},
    {"infiniband.cm.rtu.remotecommid", DT_HEX32, get_rtu_remotecommid,
     "RTU remote communication ID"},
    {"infiniband.cm.rtu.private", DT_BYTES, get_rtu_private,
     "RTU private data"},

    {REJ "localcommid", DT_HEX32, get_rej_localcommid,
     "REJ local communication ID"},
    {REJ "remotecommid", DT_HEX32, get_rej_remotecommid,
     "REJ remote communication ID"},
    {REJ "msgrej", DT_HEX8, get_rej_msgrej, "REJ message rejected"},
    {REJ "reserved0", DT_HEX8, get_rej_rsvd0,
     "REJ reserved (IBA 6 bits; tshark 4.0 reads 2)"},
    {REJ "rejinfolen", DT_HEX8, get_rej_rejinfolen,
     "REJ reject info length"},
    {REJ "reserved1", DT_HEX8, get_rej_rsvd1, "REJ reserved"},
    {REJ "reason", DT_HEX16, get_rej_reason, "REJ reason"},
    {REJ "ari", DT_BYTES, get_rej_ari, "REJ additional reject information"},
    {REJ "private", DT_BYTES, get_rej_private, "REJ private data"},

    {"infiniband.cm.dreq.localcommid", DT_HEX32, get_dreq_localcommid,
     "DREQ local communication ID"},
    {"infiniband.cm.dreq.remotecommid", DT_HEX32, get_dreq_remotecommid,
     "DREQ remote communication ID"},
    {"infiniband.cm.dreq.private", DT_BYTES, get_dreq_private,
     "DREQ private data"},
    {"infiniband.cm.drsp.localcommid", DT_HEX32, get_drep_localcommid,
     "DREP local communication ID"},
    {"infiniband.cm.drsp.remotecommid", DT_HEX32, get_drep_remotecommid,
     "DREP remote communication ID"},
    {"infiniband.cm.drsp.private", DT_BYTES, get_drep_private,
     "DREP private data"},

    {"ibwire.mad.class", DT_STRING, get_ibw_mad_class,
     "management class name"},
    {"ibwire.mad.method", DT_STRING, get_ibw_mad_method,
     "method name (absent when not defined for the class)"},
    {"ibwire.mad.attribute", DT_STRING, get_ibw_mad_attribute,
     "attribute name (absent when unknown)"},
    {"ibwire.mad.error", DT_STRING, get_ibw_mad_error,
     "why ibw_mad_decode() rejects the MAD: mad.field: problem"},
    IBWCM_MESSAGES(IBWCM_EXPAND, IBWCM_ENTRY)
    {NULL, 0, NULL, NULL}};
