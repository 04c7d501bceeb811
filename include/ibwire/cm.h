/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ibwire/cm.h - the Communication Management messages (catalog M3) and the
 * CM timing rules (M4).
 *
 * The eleven CM messages of IBA Vol. 1 ch. 12 (REQ, MRA, REJ, REP, RTU, DREQ,
 * DREP, LAP, APR, SIDR_REQ, SIDR_REP) are the attributes of management class
 * 0x07.  Each is declared once as a field list and expanded by
 * IBW_WIRE_FORMAT (base.h).
 *
 * Offsets.  Every CM format is positioned from the first byte of the MAD
 * data, i.e. MAD byte 24 (the `data_off` column of cm-fields.md and the IBA
 * message tables).  MAD-absolute offsets, as UESTC thesis (2017) T3-4 prints
 * them, are data offset + 24.  A format covers the whole 232-byte data area,
 * reserved bits included (named rsvd<byte>), so decode/encode round-trip every
 * bit.  mad.h adds the whole-MAD entries: ibw_cm_<msg>_mad_decode() and
 * ibw_cm_<msg>_mad_encode(), and ibw_mad_decode() which dispatches here.
 *
 * Field names follow the last component of Wireshark's infiniband.cm.<msg>.*
 * names where tshark has the field (REQ, REP, RTU, REJ, DREQ, DREP), and the
 * same style elsewhere; ibw_mad_tshark_name() in mad.h lists the exceptions.
 *
 * Also: REJ reasons, APR and SIDR status, MessageMRAed/Rejected codes, the
 * RDMA IP CM service ID and private-data header (IBA Annex A11), and the CM
 * timeout arithmetic of the UESTC thesis (2017) eq. 3-1 ... 3-5.
 */
#ifndef IBWIRE_CM_H
#define IBWIRE_CM_H

#include "base.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IBW_CM_DATA_SIZE 232   /* every CM message fills the MAD data area */
#define IBW_CM_DATA_OFFSET 24  /* MAD byte where CM data offset 0 lies */
#define IBW_CM_CLASS_VERSION 2

/* The CM messages: M(prefix, NAME, attribute ID, Wireshark's name). */
#define IBW_CM_MESSAGES(M)                                            \
    M(req, REQ, 0x0010, "ConnectRequest")                             \
    M(mra, MRA, 0x0011, "MsgRcptAck")                                 \
    M(rej, REJ, 0x0012, "ConnectReject")                              \
    M(rep, REP, 0x0013, "ConnectReply")                               \
    M(rtu, RTU, 0x0014, "ReadyToUse")                                 \
    M(dreq, DREQ, 0x0015, "DisconnectRequest")                        \
    M(drep, DREP, 0x0016, "DisconnectReply")                          \
    M(sidr_req, SIDR_REQ, 0x0017, "ServiceIDResReq")                  \
    M(sidr_rep, SIDR_REP, 0x0018, "ServiceIDResReqResp")              \
    M(lap, LAP, 0x0019, "LoadAlternatePath")                          \
    M(apr, APR, 0x001A, "AlternatePathResponse")

#define IBW__CM_ATTR_ENUM(n, N, attr, label) IBW_CM_ATTR_##N = attr,
enum ibw_cm_attr {
    IBW_CM_ATTR_CLASSPORTINFO = 0x0001,
    IBW_CM_MESSAGES(IBW__CM_ATTR_ENUM)
};

/* ------------------------------------------------------------------------ */
/* M3: the messages (offsets from MAD data byte 0)                          */
/* ------------------------------------------------------------------------ */

/* REQ, IBA Table 106; UESTC thesis (2017) T3-4 (MAD-absolute offsets). */
#define IBW_CM_REQ_FIELDS(X, c)                                                \
    X(c, localcommid, 0, 0, 32, U32, "local communication ID")                 \
    X(c, rsvd4, 4, 0, 32, U32, "reserved")                                     \
    X(c, serviceid, 8, 0, 64, U64, "service ID")                               \
    X(c, localcaguid, 16, 0, 64, U64, "local CA GUID")                         \
    X(c, rsvd24, 24, 0, 32, U32, "reserved")                                   \
    X(c, localqkey, 28, 0, 32, U32, "local Q_Key (RD, UD-like)")               \
    X(c, localqpn, 32, 0, 24, U32, "local QPN")                                \
    X(c, responderres, 35, 0, 8, U8, "responder resources (RDMA read/atomic)") \
    X(c, localeecn, 36, 0, 24, U32, "local EE context number")                 \
    X(c, initdepth, 39, 0, 8, U8, "initiator depth")                           \
    X(c, remoteeecn, 40, 0, 24, U32, "remote EE context number")               \
    X(c, remoteresptout, 43, 0, 5, U8,                                         \
      "remote CM response timeout (4.096 us * 2^x)")                           \
    X(c, transpsvctype, 43, 5, 2, U8, "transport service type: 0 RC 1 UC 3 ext")\
    X(c, e2eflowctrl, 43, 7, 1, U8, "end-to-end flow control")                 \
    X(c, startpsn, 44, 0, 24, U32, "starting PSN")                             \
    X(c, localresptout, 47, 0, 5, U8,                                          \
      "local CM response timeout (4.096 us * 2^x)")                            \
    X(c, retrcount, 47, 5, 3, U8, "transport retry count")                     \
    X(c, pkey, 48, 0, 16, U16, "partition key")                                \
    X(c, pppmtu, 50, 0, 4, U8, "path packet payload MTU (1 = 256 ... 5 = 4096)")\
    X(c, rdcexist, 50, 4, 1, U8, "RDC exists")                                 \
    X(c, rnrretrcount, 50, 5, 3, U8, "RNR retry count")                        \
    X(c, maxcmretr, 51, 0, 4, U8, "max CM retries")                            \
    X(c, srq, 51, 4, 1, U8, "SRQ")                                             \
    X(c, ext_transport, 51, 5, 3, U8, "extended transport type (1 = XRC)")     \
    X(c, prim_locallid, 52, 0, 16, U16, "primary local port LID")              \
    X(c, prim_remotelid, 54, 0, 16, U16, "primary remote port LID")            \
    X(c, prim_localgid, 56, 0, 128, BYTES, "primary local port GID")           \
    X(c, prim_remotegid, 72, 0, 128, BYTES, "primary remote port GID")         \
    X(c, prim_flowlabel, 88, 0, 20, U32, "primary flow label")                 \
    X(c, rsvd90, 90, 4, 6, U8, "reserved")                                     \
    X(c, prim_pktrate, 91, 2, 6, U8, "primary packet rate")                    \
    X(c, prim_tfcclass, 92, 0, 8, U8, "primary traffic class")                 \
    X(c, prim_hoplim, 93, 0, 8, U8, "primary hop limit")                       \
    X(c, prim_sl, 94, 0, 4, U8, "primary SL")                                  \
    X(c, prim_subnetlocal, 94, 4, 1, U8, "primary subnet local")               \
    X(c, rsvd94, 94, 5, 3, U8, "reserved")                                     \
    X(c, prim_localacktout, 95, 0, 5, U8, "primary local ACK timeout")         \
    X(c, rsvd95, 95, 5, 3, U8, "reserved")                                     \
    X(c, alt_locallid, 96, 0, 16, U16, "alternate local port LID")             \
    X(c, alt_remotelid, 98, 0, 16, U16, "alternate remote port LID")           \
    X(c, alt_localgid, 100, 0, 128, BYTES, "alternate local port GID")         \
    X(c, alt_remotegid, 116, 0, 128, BYTES, "alternate remote port GID")       \
    X(c, alt_flowlabel, 132, 0, 20, U32, "alternate flow label")               \
    X(c, rsvd134, 134, 4, 6, U8, "reserved")                                   \
    X(c, alt_pktrate, 135, 2, 6, U8, "alternate packet rate")                  \
    X(c, alt_tfcclass, 136, 0, 8, U8, "alternate traffic class")               \
    X(c, alt_hoplim, 137, 0, 8, U8, "alternate hop limit")                     \
    X(c, alt_sl, 138, 0, 4, U8, "alternate SL")                                \
    X(c, alt_subnetlocal, 138, 4, 1, U8, "alternate subnet local")             \
    X(c, rsvd138, 138, 5, 3, U8, "reserved")                                   \
    X(c, alt_localacktout, 139, 0, 5, U8, "alternate local ACK timeout")       \
    X(c, sap_supported, 139, 5, 1, U8, "SAP supported")                        \
    X(c, rsvd139, 139, 6, 2, U8, "reserved")                                   \
    X(c, private_data, 140, 0, 736, BYTES, "private data (92 bytes)")
IBW_WIRE_FORMAT(ibw_cm_req, IBW_CM_REQ_FIELDS, 232, "cm_req", "M3",
                "CM REQ: connect request (attribute 0x0010)",
                "IBA Vol.1 12.6.5 Table 106; UESTC thesis (2017) T3-4",
                "IBA; offsets from MAD data byte 0 (UESTC thesis (2017) T3-4 "
                "prints MAD "
                "offsets, data+24, and ServiceType as 27[5] for 67[5])")

/* MRA, IBA Table 107. */
#define IBW_CM_MRA_FIELDS(X, c)                                                \
    X(c, localcommid, 0, 0, 32, U32, "local communication ID")                 \
    X(c, remotecommid, 4, 0, 32, U32, "remote communication ID")               \
    X(c, msgmraed, 8, 0, 2, U8, "message MRAed: 0 REQ, 1 REP, 2 LAP")          \
    X(c, rsvd8, 8, 2, 6, U8, "reserved")                                       \
    X(c, servicetimeout, 9, 0, 5, U8, "service timeout (4.096 us * 2^x)")      \
    X(c, rsvd9, 9, 5, 3, U8, "reserved")                                       \
    X(c, private_data, 10, 0, 1776, BYTES, "private data (222 bytes)")
IBW_WIRE_FORMAT(ibw_cm_mra, IBW_CM_MRA_FIELDS, 232, "cm_mra", "M3",
                "CM MRA: message receipt acknowledgement (attribute 0x0011)",
                "IBA Vol.1 12.6.6 Table 107", "IBA; offsets from MAD data")

/* REJ, IBA Table 108. */
#define IBW_CM_REJ_FIELDS(X, c)                                                \
    X(c, localcommid, 0, 0, 32, U32, "local communication ID")                 \
    X(c, remotecommid, 4, 0, 32, U32, "remote communication ID")               \
    X(c, msgrej, 8, 0, 2, U8, "message rejected: 0 REQ, 1 REP, 2 other")       \
    X(c, rsvd8, 8, 2, 6, U8, "reserved")                                       \
    X(c, rejinfolen, 9, 0, 7, U8, "reject info (ARI) length in bytes")         \
    X(c, rsvd9, 9, 7, 1, U8, "reserved")                                       \
    X(c, reason, 10, 0, 16, U16, "reject reason (enum ibw_cm_rej_reason)")     \
    X(c, ari, 12, 0, 576, BYTES, "additional reject information (72 bytes)")   \
    X(c, private_data, 84, 0, 1184, BYTES, "private data (148 bytes)")
IBW_WIRE_FORMAT(ibw_cm_rej, IBW_CM_REJ_FIELDS, 232, "cm_rej", "M3",
                "CM REJ: reject (attribute 0x0012)",
                "IBA Vol.1 12.6.7 Table 108", "IBA; offsets from MAD data")

/* REP, IBA Table 110. */
#define IBW_CM_REP_FIELDS(X, c)                                                \
    X(c, localcommid, 0, 0, 32, U32, "local communication ID")                 \
    X(c, remotecommid, 4, 0, 32, U32, "remote communication ID")               \
    X(c, localqkey, 8, 0, 32, U32, "local Q_Key")                              \
    X(c, localqpn, 12, 0, 24, U32, "local QPN")                                \
    X(c, rsvd15, 15, 0, 8, U8, "reserved")                                     \
    X(c, localeecn, 16, 0, 24, U32, "local EE context number")                 \
    X(c, rsvd19, 19, 0, 8, U8, "reserved")                                     \
    X(c, startpsn, 20, 0, 24, U32, "starting PSN")                             \
    X(c, rsvd23, 23, 0, 8, U8, "reserved")                                     \
    X(c, respres, 24, 0, 8, U8, "responder resources")                         \
    X(c, initdepth, 25, 0, 8, U8, "initiator depth")                           \
    X(c, tgtackdelay, 26, 0, 5, U8, "target ACK delay (4.096 us * 2^x)")       \
    X(c, failoveracc, 26, 5, 2, U8,                                            \
      "failover accepted: 0 accepted, 1 rejected, 2 unsupported")              \
    X(c, e2eflowctrl, 26, 7, 1, U8, "end-to-end flow control")                 \
    X(c, rnrretrcount, 27, 0, 3, U8, "RNR retry count")                        \
    X(c, srq, 27, 3, 1, U8, "SRQ")                                             \
    X(c, rsvd27, 27, 4, 4, U8, "reserved")                                     \
    X(c, localcaguid, 28, 0, 64, U64, "local CA GUID")                         \
    X(c, private_data, 36, 0, 1568, BYTES, "private data (196 bytes)")
IBW_WIRE_FORMAT(ibw_cm_rep, IBW_CM_REP_FIELDS, 232, "cm_rep", "M3",
                "CM REP: connect reply (attribute 0x0013)",
                "IBA Vol.1 12.6.8 Table 110", "IBA; offsets from MAD data")

/* RTU, IBA Table 111. */
#define IBW_CM_RTU_FIELDS(X, c)                                                \
    X(c, localcommid, 0, 0, 32, U32, "local communication ID")                 \
    X(c, remotecommid, 4, 0, 32, U32, "remote communication ID")               \
    X(c, private_data, 8, 0, 1792, BYTES, "private data (224 bytes)")
IBW_WIRE_FORMAT(ibw_cm_rtu, IBW_CM_RTU_FIELDS, 232, "cm_rtu", "M3",
                "CM RTU: ready to use (attribute 0x0014)",
                "IBA Vol.1 12.6.9 Table 111", "IBA; offsets from MAD data")

/* DREQ, IBA Table 112. */
#define IBW_CM_DREQ_FIELDS(X, c)                                               \
    X(c, localcommid, 0, 0, 32, U32, "local communication ID")                 \
    X(c, remotecommid, 4, 0, 32, U32, "remote communication ID")               \
    X(c, remoteqpneecn, 8, 0, 24, U32, "remote QPN/EECN")                      \
    X(c, rsvd11, 11, 0, 8, U8, "reserved")                                     \
    X(c, private_data, 12, 0, 1760, BYTES, "private data (220 bytes)")
IBW_WIRE_FORMAT(ibw_cm_dreq, IBW_CM_DREQ_FIELDS, 232, "cm_dreq", "M3",
                "CM DREQ: disconnect request (attribute 0x0015)",
                "IBA Vol.1 12.6.10 Table 112", "IBA; offsets from MAD data")

/* DREP, IBA Table 113: the same fields as RTU. */
#define IBW_CM_DREP_FIELDS IBW_CM_RTU_FIELDS
IBW_WIRE_FORMAT(ibw_cm_drep, IBW_CM_DREP_FIELDS, 232, "cm_drep", "M3",
                "CM DREP: disconnect reply (attribute 0x0016)",
                "IBA Vol.1 12.6.11 Table 113", "IBA; offsets from MAD data")

/* SIDR_REQ, IBA Table 119. */
#define IBW_CM_SIDR_REQ_FIELDS(X, c)                                           \
    X(c, requestid, 0, 0, 32, U32, "request ID")                               \
    X(c, pkey, 4, 0, 16, U16, "partition key")                                 \
    X(c, rsvd6, 6, 0, 16, U16, "reserved")                                     \
    X(c, serviceid, 8, 0, 64, U64, "service ID")                               \
    X(c, private_data, 16, 0, 1728, BYTES, "private data (216 bytes)")
IBW_WIRE_FORMAT(ibw_cm_sidr_req, IBW_CM_SIDR_REQ_FIELDS, 232, "cm_sidr_req",
                "M3", "CM SIDR_REQ: service ID resolution request "
                "(attribute 0x0017)",
                "IBA Vol.1 12.11.1 Table 119", "IBA; offsets from MAD data")

/* SIDR_REP, IBA Table 120. */
#define IBW_CM_SIDR_REP_FIELDS(X, c)                                           \
    X(c, requestid, 0, 0, 32, U32, "request ID")                               \
    X(c, status, 4, 0, 8, U8, "status (enum ibw_cm_sidr_status)")              \
    X(c, addinfolen, 5, 0, 8, U8, "additional information length")            \
    X(c, rsvd6, 6, 0, 16, U16, "reserved")                                     \
    X(c, qpn, 8, 0, 24, U32, "QPN")                                            \
    X(c, rsvd11, 11, 0, 8, U8, "reserved")                                     \
    X(c, serviceid, 12, 0, 64, U64, "service ID")                              \
    X(c, qkey, 20, 0, 32, U32, "Q_Key")                                        \
    X(c, addinfo, 24, 0, 576, BYTES, "additional information (72 bytes)")      \
    X(c, private_data, 96, 0, 1088, BYTES, "private data (136 bytes)")
IBW_WIRE_FORMAT(ibw_cm_sidr_rep, IBW_CM_SIDR_REP_FIELDS, 232, "cm_sidr_rep",
                "M3", "CM SIDR_REP: service ID resolution response "
                "(attribute 0x0018)",
                "IBA Vol.1 12.11.2 Table 120", "IBA; offsets from MAD data")

/* LAP, IBA Table 115. */
#define IBW_CM_LAP_FIELDS(X, c)                                                \
    X(c, localcommid, 0, 0, 32, U32, "local communication ID")                 \
    X(c, remotecommid, 4, 0, 32, U32, "remote communication ID")               \
    X(c, rsvd8, 8, 0, 32, U32, "reserved")                                     \
    X(c, remoteqpneecn, 12, 0, 24, U32, "remote QPN/EECN")                     \
    X(c, remoteresptout, 15, 0, 5, U8,                                         \
      "remote CM response timeout (4.096 us * 2^x)")                           \
    X(c, rsvd15, 15, 5, 3, U8, "reserved")                                     \
    X(c, rsvd16, 16, 0, 32, U32, "reserved")                                   \
    X(c, alt_locallid, 20, 0, 16, U16, "alternate local port LID")             \
    X(c, alt_remotelid, 22, 0, 16, U16, "alternate remote port LID")           \
    X(c, alt_localgid, 24, 0, 128, BYTES, "alternate local port GID")          \
    X(c, alt_remotegid, 40, 0, 128, BYTES, "alternate remote port GID")        \
    X(c, alt_flowlabel, 56, 0, 20, U32, "alternate flow label")                \
    X(c, rsvd58, 58, 4, 4, U8, "reserved")                                     \
    X(c, alt_tfcclass, 59, 0, 8, U8, "alternate traffic class")                \
    X(c, alt_hoplim, 60, 0, 8, U8, "alternate hop limit")                      \
    X(c, rsvd61, 61, 0, 2, U8, "reserved")                                     \
    X(c, alt_pktrate, 61, 2, 6, U8, "alternate packet rate")                   \
    X(c, alt_sl, 62, 0, 4, U8, "alternate SL")                                 \
    X(c, alt_subnetlocal, 62, 4, 1, U8, "alternate subnet local")              \
    X(c, rsvd62, 62, 5, 3, U8, "reserved")                                     \
    X(c, alt_localacktout, 63, 0, 5, U8, "alternate local ACK timeout")        \
    X(c, rsvd63, 63, 5, 3, U8, "reserved")                                     \
    X(c, private_data, 64, 0, 1344, BYTES, "private data (168 bytes)")
IBW_WIRE_FORMAT(ibw_cm_lap, IBW_CM_LAP_FIELDS, 232, "cm_lap", "M3",
                "CM LAP: load alternate path (attribute 0x0019)",
                "IBA Vol.1 12.8.1 Table 115", "IBA; offsets from MAD data")

/* APR, IBA Table 116. */
#define IBW_CM_APR_FIELDS(X, c)                                                \
    X(c, localcommid, 0, 0, 32, U32, "local communication ID")                 \
    X(c, remotecommid, 4, 0, 32, U32, "remote communication ID")               \
    X(c, addinfolen, 8, 0, 8, U8, "additional information length")            \
    X(c, arstatus, 9, 0, 8, U8, "AP status (enum ibw_cm_apr_status)")          \
    X(c, rsvd10, 10, 0, 16, U16, "reserved")                                   \
    X(c, addinfo, 12, 0, 576, BYTES, "additional information (72 bytes)")      \
    X(c, private_data, 84, 0, 1184, BYTES, "private data (148 bytes)")
IBW_WIRE_FORMAT(ibw_cm_apr, IBW_CM_APR_FIELDS, 232, "cm_apr", "M3",
                "CM APR: alternate path response (attribute 0x001A)",
                "IBA Vol.1 12.8.2 Table 116", "IBA; offsets from MAD data")

/* Every format of this header, catalog order, for the registry. */
#define IBW_CM_FORMATS(X)                                                      \
    X(ibw_cm_req)                                                              \
    X(ibw_cm_mra)                                                              \
    X(ibw_cm_rej)                                                              \
    X(ibw_cm_rep)                                                              \
    X(ibw_cm_rtu)                                                              \
    X(ibw_cm_dreq)                                                             \
    X(ibw_cm_drep)                                                             \
    X(ibw_cm_sidr_req)                                                         \
    X(ibw_cm_sidr_rep)                                                         \
    X(ibw_cm_lap)                                                              \
    X(ibw_cm_apr)                                                              \
    X(ibw_ip_cm)

/* ------------------------------------------------------------------------ */
/* Any CM message                                                           */
/* ------------------------------------------------------------------------ */

#define IBW__CM_UNION_MEMBER(n, N, attr, label) struct ibw_cm_##n n;

/* One decoded CM message; `attributeid` says which member of `u` is valid. */
struct ibw_cm_msg {
    uint16_t attributeid;
    union {
        IBW_CM_MESSAGES(IBW__CM_UNION_MEMBER)
    } u;
};

#define IBW__CM_DECODE_CASE(n, N, attr, label) \
    case attr: return ibw_cm_##n##_decode(data, len, &out->u.n);
#define IBW__CM_ENCODE_CASE(n, N, attr, label) \
    case attr: return ibw_cm_##n##_encode(&in->u.n, data, len);
#define IBW__CM_FORMAT_CASE(n, N, attr, label) \
    case attr: return ibw_cm_##n##_format();
#define IBW__CM_NAME_CASE(n, N, attr, label) case attr: return #N;
#define IBW__CM_LABEL_CASE(n, N, attr, label) case attr: return label;

/* Decode the CM message `attributeid` from MAD data (`data` = MAD byte 24,
 * len >= 232).  IBW_E_UNSUPPORTED for an attribute that is no CM message,
 * IBW_E_TRUNCATED for short data. */
static inline int ibw_cm_decode(const uint8_t *data, size_t len,
                                uint16_t attributeid, struct ibw_cm_msg *out)
{
    out->attributeid = attributeid;
    switch (attributeid) {
        IBW_CM_MESSAGES(IBW__CM_DECODE_CASE)
    default: return IBW_E_UNSUPPORTED;
    }
}

/* Encode in->u.<msg> (selected by in->attributeid) into 232 bytes of MAD
 * data.  IBW_E_UNSUPPORTED for an unknown attribute, IBW_E_NOSPACE when
 * len < 232. */
static inline int ibw_cm_encode(const struct ibw_cm_msg *in, uint8_t *data,
                                size_t len)
{
    switch (in->attributeid) {
        IBW_CM_MESSAGES(IBW__CM_ENCODE_CASE)
    default: return IBW_E_UNSUPPORTED;
    }
}

/* The descriptor table of CM message `attributeid`, or NULL. */
static inline const struct ibw_format *ibw_cm_format(uint16_t attributeid)
{
    switch (attributeid) {
        IBW_CM_MESSAGES(IBW__CM_FORMAT_CASE)
    default: return NULL;
    }
}

/* Short name of a CM attribute ("REQ", "SIDR_REP", "ClassPortInfo"), or
 * NULL when it is none. */
static inline const char *ibw_cm_attr_name(uint16_t attributeid)
{
    switch (attributeid) {
    case IBW_CM_ATTR_CLASSPORTINFO: return "ClassPortInfo";
        IBW_CM_MESSAGES(IBW__CM_NAME_CASE)
    default: return NULL;
    }
}

/* Wireshark's name of a CM message ("ConnectRequest"), or NULL. */
static inline const char *ibw_cm_attr_label(uint16_t attributeid)
{
    switch (attributeid) {
        IBW_CM_MESSAGES(IBW__CM_LABEL_CASE)
    default: return NULL;
    }
}

/* ------------------------------------------------------------------------ */
/* Codes carried by the messages                                            */
/* ------------------------------------------------------------------------ */

/* MRA MessageMRAed and REJ MessageRejected (2 bits). */
enum ibw_cm_msg_code {
    IBW_CM_MSG_REQ = 0,
    IBW_CM_MSG_REP = 1,
    IBW_CM_MSG_OTHER = 2 /* LAP for MRA; LAP or others for REJ */
};

/* REQ TransportServiceType (2 bits); 3 defers to ExtendedTransportType. */
enum ibw_cm_transport {
    IBW_CM_TRANSPORT_RC = 0,
    IBW_CM_TRANSPORT_UC = 1,
    IBW_CM_TRANSPORT_RD = 2,
    IBW_CM_TRANSPORT_EXTENDED = 3
};
#define IBW_CM_EXT_TRANSPORT_XRC 1

/* REP FailoverAccepted (2 bits). */
enum ibw_cm_failover {
    IBW_CM_FAILOVER_ACCEPTED = 0,
    IBW_CM_FAILOVER_REJECTED = 1,
    IBW_CM_FAILOVER_UNSUPPORTED = 2
};

/* REJ Reason (16 bits), IBA Table 109. */
#define IBW_CM_REJ_REASONS(R)                                         \
    R(NO_QP, 1, "no QP available")                                    \
    R(NO_EEC, 2, "no EEC available")                                  \
    R(NO_RESOURCES, 3, "no resources available")                      \
    R(TIMEOUT, 4, "timeout")                                          \
    R(UNSUPPORTED, 5, "unsupported request")                          \
    R(INVALID_COMM_ID, 6, "invalid communication ID")                 \
    R(INVALID_COMM_INSTANCE, 7, "invalid communication instance")     \
    R(INVALID_SERVICE_ID, 8, "invalid service ID")                    \
    R(INVALID_TRANSPORT_TYPE, 9, "invalid transport service type")    \
    R(STALE_CONN, 10, "stale connection")                             \
    R(RDC_NOT_EXIST, 11, "RDC does not exist")                        \
    R(INVALID_GID, 12, "invalid primary GID")                         \
    R(INVALID_LID, 13, "invalid primary LID")                         \
    R(INVALID_SL, 14, "invalid primary SL")                           \
    R(INVALID_TRAFFIC_CLASS, 15, "invalid primary traffic class")     \
    R(INVALID_HOP_LIMIT, 16, "invalid primary hop limit")             \
    R(INVALID_PACKET_RATE, 17, "invalid primary packet rate")         \
    R(INVALID_ALT_GID, 18, "invalid alternate GID")                   \
    R(INVALID_ALT_LID, 19, "invalid alternate LID")                   \
    R(INVALID_ALT_SL, 20, "invalid alternate SL")                     \
    R(INVALID_ALT_TRAFFIC_CLASS, 21, "invalid alternate traffic class")\
    R(INVALID_ALT_HOP_LIMIT, 22, "invalid alternate hop limit")       \
    R(INVALID_ALT_PACKET_RATE, 23, "invalid alternate packet rate")   \
    R(PORT_CM_REDIRECT, 24, "port and CM redirection")                \
    R(PORT_REDIRECT, 25, "port redirection")                          \
    R(INVALID_MTU, 26, "invalid path MTU")                            \
    R(INSUFFICIENT_RESP_RESOURCES, 27, "insufficient responder resources")\
    R(CONSUMER_DEFINED, 28, "consumer-defined")                       \
    R(INVALID_RNR_RETRY, 29, "invalid RNR NAK retry count")           \
    R(DUPLICATE_LOCAL_COMM_ID, 30, "duplicate local communication ID")\
    R(INVALID_CLASS_VERSION, 31, "invalid class version")             \
    R(INVALID_FLOW_LABEL, 32, "invalid primary flow label")           \
    R(INVALID_ALT_FLOW_LABEL, 33, "invalid alternate flow label")     \
    R(VENDOR_OPTION_NOT_SUPPORTED, 35, "vendor option not supported")

#define IBW__CM_ENUM(N, v, s) IBW_CM_REJ_##N = v,
enum ibw_cm_rej_reason { IBW_CM_REJ_REASONS(IBW__CM_ENUM) };
#undef IBW__CM_ENUM

#define IBW__CM_NAME(N, v, s) case v: return s;
/* Meaning of a REJ reason code, or NULL for an unassigned code. */
static inline const char *ibw_cm_rej_reason_name(unsigned reason)
{
    switch (reason) {
        IBW_CM_REJ_REASONS(IBW__CM_NAME)
    default: return NULL;
    }
}

/* APR AP status (8 bits), IBA Table 117. */
#define IBW_CM_APR_STATUSES(R)                                        \
    R(SUCCESS, 0, "path loaded")                                      \
    R(INVALID_COMM_ID, 1, "invalid communication ID")                 \
    R(UNSUPPORTED, 2, "unsupported request")                          \
    R(REJECT, 3, "rejected")                                          \
    R(REDIRECT, 4, "port redirection")                                \
    R(IS_CURRENT, 5, "duplicate of the current path")                 \
    R(INVALID_QPN_EECN, 6, "invalid QPN/EECN")                        \
    R(INVALID_LID, 7, "invalid alternate LID")                        \
    R(INVALID_GID, 8, "invalid alternate GID")                        \
    R(INVALID_FLOW_LABEL, 9, "invalid alternate flow label")          \
    R(INVALID_TCLASS, 10, "invalid alternate traffic class")          \
    R(INVALID_HOP_LIMIT, 11, "invalid alternate hop limit")           \
    R(INVALID_PACKET_RATE, 12, "invalid alternate packet rate")       \
    R(INVALID_SL, 13, "invalid alternate SL")

#define IBW__CM_ENUM(N, v, s) IBW_CM_APR_##N = v,
enum ibw_cm_apr_status { IBW_CM_APR_STATUSES(IBW__CM_ENUM) };
#undef IBW__CM_ENUM

/* Meaning of an APR AP status, or NULL for an unassigned code. */
static inline const char *ibw_cm_apr_status_name(unsigned status)
{
    switch (status) {
        IBW_CM_APR_STATUSES(IBW__CM_NAME)
    default: return NULL;
    }
}

/* SIDR_REP status (8 bits), IBA Table 121. */
#define IBW_CM_SIDR_STATUSES(R)                                       \
    R(SUCCESS, 0, "QP information valid")                             \
    R(UNSUPPORTED, 1, "service ID not supported")                     \
    R(REJECT, 2, "rejected by the service provider")                  \
    R(NO_QP, 3, "no QP available")                                    \
    R(REDIRECT, 4, "redirect: see ClassPortInfo in additional info")  \
    R(UNSUPPORTED_VERSION, 5, "unsupported version (A11 header)")

#define IBW__CM_ENUM(N, v, s) IBW_CM_SIDR_##N = v,
enum ibw_cm_sidr_status { IBW_CM_SIDR_STATUSES(IBW__CM_ENUM) };
#undef IBW__CM_ENUM

/* Meaning of a SIDR_REP status, or NULL for an unassigned code. */
static inline const char *ibw_cm_sidr_status_name(unsigned status)
{
    switch (status) {
        IBW_CM_SIDR_STATUSES(IBW__CM_NAME)
    default: return NULL;
    }
}
#undef IBW__CM_NAME

/* Name of a MessageMRAed/MessageRejected code ("REQ", "REP", "other"),
 * NULL for the reserved code 3. */
static inline const char *ibw_cm_msg_code_name(unsigned code)
{
    switch (code) {
    case IBW_CM_MSG_REQ: return "REQ";
    case IBW_CM_MSG_REP: return "REP";
    case IBW_CM_MSG_OTHER: return "other";
    default: return NULL;
    }
}

/* ------------------------------------------------------------------------ */
/* RDMA IP CM (IBA Annex A11): service ID and private-data header           */
/* ------------------------------------------------------------------------ */
/*
 * A service ID 0x0000000001PPDDDD names an IP-addressed service: PP the IP
 * protocol (6 TCP, 17 UDP, 132 SCTP), DDDD the destination port.  The REQ
 * (and SIDR_REQ) private data then starts with the 36-byte IP CM header
 * below; the consumer's own private data follows it.
 */
#define IBW_CM_IP_SERVICE_ID_PREFIX 0x0000000001000000ULL
#define IBW_CM_IP_SERVICE_ID_MASK 0xFFFFFFFFFF000000ULL
#define IBW_CM_IP_HDR_SIZE 36

/* Non-zero when a service ID lies in the RDMA IP CM range. */
static inline int ibw_cm_service_id_is_ip(uint64_t sid)
{
    return (sid & IBW_CM_IP_SERVICE_ID_MASK) == IBW_CM_IP_SERVICE_ID_PREFIX;
}
/* The IP CM service ID for an IP protocol number and a port. */
static inline uint64_t ibw_cm_ip_service_id(uint8_t protocol, uint16_t port)
{
    return IBW_CM_IP_SERVICE_ID_PREFIX | ((uint64_t)protocol << 16) | port;
}
/* The IP protocol byte of an IP CM service ID. */
static inline uint8_t ibw_cm_service_id_protocol(uint64_t sid)
{
    return (uint8_t)(sid >> 16);
}
/* The destination port of an IP CM service ID. */
static inline uint16_t ibw_cm_service_id_port(uint64_t sid)
{
    return (uint16_t)sid;
}

/* IP CM private-data header, offsets from the first private-data byte.
 * IPv4 addresses sit in the last 4 bytes of sip/dip, the rest zero. */
#define IBW_IP_CM_FIELDS(X, c)                                                 \
    X(c, majv, 0, 0, 4, U8, "IP CM major version (0)")                         \
    X(c, minv, 0, 4, 4, U8, "IP CM minor version (0)")                         \
    X(c, ipv, 1, 0, 4, U8, "IP version of the addresses: 4 or 6")             \
    X(c, rsvd1, 1, 4, 4, U8, "reserved")                                    \
    X(c, sport, 2, 0, 16, U16, "source port")                                  \
    X(c, sip, 4, 0, 128, BYTES, "source IP address")                           \
    X(c, dip, 20, 0, 128, BYTES, "destination IP address")
IBW_WIRE_FORMAT(ibw_ip_cm, IBW_IP_CM_FIELDS, 36, "ip_cm", "M3",
                "RDMA IP CM private-data header (REQ, SIDR_REQ)",
                "IBA Vol.1 Annex A11", "IBA")

/* Decode the IP CM header at the start of a REQ's private data.
 * IBW_E_UNSUPPORTED when the service ID is not an IP CM one, IBW_E_VERSION
 * when the header's major version is not 0 or its IP version not 4/6. */
static inline int ibw_cm_req_ip_cm(const struct ibw_cm_req *req,
                                   struct ibw_ip_cm *out)
{
    if (!ibw_cm_service_id_is_ip(req->serviceid))
        return IBW_E_UNSUPPORTED;
    ibw_ip_cm_decode(req->private_data, sizeof req->private_data, out);
    if (out->majv != 0 || (out->ipv != 4 && out->ipv != 6))
        return IBW_E_VERSION;
    return IBW_OK;
}

/* The IPv4 address held in a 16-byte IP CM address field. */
static inline uint32_t ibw_ip_cm_ipv4(const uint8_t addr[16])
{
    return ibw_load_be32(addr + 12);
}
/* Store an IPv4 address into a 16-byte IP CM address field (12 zero bytes,
 * then the address). */
static inline void ibw_ip_cm_set_ipv4(uint8_t addr[16], uint32_t ipv4)
{
    memset(addr, 0, 12);
    ibw_store_be32(addr + 12, ipv4);
}

/* ------------------------------------------------------------------------ */
/* M4: CM timing (UESTC thesis (2017) eq. 3-1 ... 3-5; IBA 12.7.2)           */
/* ------------------------------------------------------------------------ */
/*
 * Every CM (and IBA) timeout field x stands for t = 4.096 us * 2^x (3-1).
 * In nanoseconds that is exactly 4096 << x, so the functions work in integer
 * nanoseconds; x is 5 bits (0..31, at most 8796093022208 ns, about 2.4 h).
 * t_max is the largest packet transit time on the path, in nanoseconds.
 * All sums saturate at UINT64_MAX instead of wrapping; an out-of-range code
 * gives UINT64_MAX (never a real time).
 */
#define IBW_CM_TIMEOUT_UNIT_NS 4096u

static inline uint64_t ibw__sat_add(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* t = 4.096 us * 2^code in nanoseconds (eq. 3-1); UINT64_MAX if code > 31. */
static inline uint64_t ibw_cm_timeout_ns(unsigned code)
{
    return code > 31 ? UINT64_MAX : (uint64_t)IBW_CM_TIMEOUT_UNIT_NS << code;
}

/* t = 4.096 us * 2^code in whole microseconds, rounded down (code 0 gives 4);
 * UINT64_MAX if code > 31. */
static inline uint64_t ibw_cm_timeout_us(unsigned code)
{
    return code > 31 ? UINT64_MAX : ibw_cm_timeout_ns(code) / 1000u;
}

/* The smallest timeout code whose time is at least `ns` (31 when even code
 * 31 is shorter): what a sender puts in a field to wait at least `ns`. */
static inline unsigned ibw_cm_timeout_code(uint64_t ns)
{
    unsigned code = 0;
    while (code < 31 && ibw_cm_timeout_ns(code) < ns)
        code++;
    return code;
}

/* Eq. 3-2: how long the client waits for REP (or MRA) after sending REQ:
 * 4.096 us * 2^RemoteCMResponseTimeout + 2 * t_max, in ns. */
static inline uint64_t ibw_cm_client_wait_ns(unsigned remote_cm_response_timeout,
                                             uint64_t t_max_ns)
{
    return ibw__sat_add(ibw_cm_timeout_ns(remote_cm_response_timeout),
                        ibw__sat_add(t_max_ns, t_max_ns));
}

/* Eq. 3-3: after an MRA(REQ) the client restarts its timer with the MRA's
 * ServiceTimeout (the remote CM service timeout): 4.096 us * 2^x + t_max. */
static inline uint64_t ibw_cm_client_mra_wait_ns(unsigned remote_cm_service_timeout,
                                                 uint64_t t_max_ns)
{
    return ibw__sat_add(ibw_cm_timeout_ns(remote_cm_service_timeout), t_max_ns);
}

/* Eq. 3-4: how long the server waits for RTU after sending REP:
 * 4.096 us * 2^LocalCMResponseTimeout (from the REQ) + 2 * t_max, in ns. */
static inline uint64_t ibw_cm_server_wait_ns(unsigned local_cm_response_timeout,
                                             uint64_t t_max_ns)
{
    return ibw__sat_add(ibw_cm_timeout_ns(local_cm_response_timeout),
                        ibw__sat_add(t_max_ns, t_max_ns));
}

/* Eq. 3-5: after an MRA(REP) the server restarts its timer with the
 * client's service timeout: 4.096 us * 2^x + t_max, in ns. */
static inline uint64_t ibw_cm_server_mra_wait_ns(unsigned local_cm_service_timeout,
                                                 uint64_t t_max_ns)
{
    return ibw__sat_add(ibw_cm_timeout_ns(local_cm_service_timeout), t_max_ns);
}

/* Eq. 3-2 read off a REQ: the client's REP wait in ns. */
static inline uint64_t ibw_cm_req_client_wait_ns(const struct ibw_cm_req *req,
                                                 uint64_t t_max_ns)
{
    return ibw_cm_client_wait_ns(req->remoteresptout, t_max_ns);
}

/* Eq. 3-4 read off a REQ: the server's RTU wait in ns. */
static inline uint64_t ibw_cm_req_server_wait_ns(const struct ibw_cm_req *req,
                                                 uint64_t t_max_ns)
{
    return ibw_cm_server_wait_ns(req->localresptout, t_max_ns);
}

/* Eq. 3-3/3-5 read off an MRA: the restarted wait of whoever receives it. */
static inline uint64_t ibw_cm_mra_wait_ns(const struct ibw_cm_mra *mra,
                                          uint64_t t_max_ns)
{
    return ibw_cm_client_mra_wait_ns(mra->servicetimeout, t_max_ns);
}

#ifdef __cplusplus
}
#endif

/* The whole-MAD entries (ibw_cm_<msg>_mad_decode/_mad_encode) and the MAD
 * decoder live in mad.h; included last, so either header gives both. */
#include "mad.h"

#endif /* IBWIRE_CM_H */
