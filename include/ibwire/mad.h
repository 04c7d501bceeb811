/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ibwire/mad.h - management datagrams (catalog M1, M2, M5) and the MAD
 * decoder that dispatches to the CM messages of cm.h (M3).
 *
 * Two kinds of format live here, each declared once as a field list:
 *
 *   MAD-level formats, positioned from MAD byte 0 exactly as the IBA MAD
 *   figures draw them: the common header (mad_hdr, 24 B), the whole GMP
 *   (mad, 256 B: header + 232 data bytes), the RMPP header (rmpp, bytes
 *   24..35), the SA header (sa, 36..255), the vendor range-2 header
 *   (vendor, 36..255), and the LID-routed and directed-route SMP layouts
 *   (smplid, smpdirected, 24..255; the directed-route one also re-reads
 *   header bytes 4..7 as D bit, status, hop pointer and hop count).  A
 *   format that starts past byte 0 simply has no fields before its start:
 *   its decode takes the whole MAD.
 *
 *   Attribute formats, positioned from the attribute's first byte as the
 *   IBA attribute tables are: SMInfo, NodeInfo, PortInfo (SMP data at MAD
 *   byte 64), PathRecord (SA data at byte 56), ClassPortInfo, Notice, and
 *   the CM messages of cm.h (MAD data at byte 24).  An SA record puts a
 *   record ID before the SMP attribute it carries
 *   (ibw_sa_record_rid_size()); a PerfMgt attribute starts at
 *   IBW_PERF_DATA_OFFSET.
 *
 * ibw_mad_decode() checks a 256-byte MAD (base version, class, method, for
 * CM the attribute), and returns the list of (format, offset) layers a tool
 * walks through the descriptor tables, plus the decoded attribute.
 *
 * Field names are the last component of Wireshark's names
 * (infiniband.mad.*, infiniband.rmpp.*, infiniband.sa.*, ...), reserved
 * fields are rsvd<byte>; ibw_mad_tshark_name() gives the full name.
 */
#ifndef IBWIRE_MAD_H
#define IBWIRE_MAD_H

#include "base.h"
#include "cm.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IBW_MAD_SIZE 256
#define IBW_MAD_HDR_SIZE 24
#define IBW_MAD_DATA_SIZE 232
#define IBW_MAD_BASE_VERSION 1
#define IBW_SMP_DATA_OFFSET 64
#define IBW_SMP_DATA_SIZE 64
#define IBW_SA_DATA_OFFSET 56
#define IBW_SA_DATA_SIZE 200
#define IBW_VENDOR_DATA_OFFSET 40

/* ------------------------------------------------------------------------ */
/* M1: common MAD header and GMP                                            */
/* ------------------------------------------------------------------------ */

/* Common MAD header, 24 bytes.  `method` is the whole byte: bit 7 is the R
 * (response) bit that the UESTC thesis (2017) T3-1 and the IBA draw as a
 * separate 1-bit field; keeping one byte matches Wireshark and the method
 * constants below. */
#define IBW_MAD_HDR_FIELDS(X, c)                                               \
    X(c, baseversion, 0, 0, 8, U8, "MAD base version (1)")                     \
    X(c, mgmtclass, 1, 0, 8, U8, "management class")                           \
    X(c, classversion, 2, 0, 8, U8, "class version")                           \
    X(c, method, 3, 0, 8, U8, "method; bit 7 (R) marks a response")            \
    X(c, status, 4, 0, 16, U16, "status")                                      \
    X(c, classspecific, 6, 0, 16, U16, "class specific")                       \
    X(c, transactionid, 8, 0, 64, U64, "transaction ID")                       \
    X(c, attributeid, 16, 0, 16, U16, "attribute ID")                          \
    X(c, rsvd18, 18, 0, 16, U16, "reserved")                                   \
    X(c, attributemodifier, 20, 0, 32, U32, "attribute modifier")
IBW_WIRE_FORMAT(ibw_mad_hdr, IBW_MAD_HDR_FIELDS, 24, "mad_hdr", "M1",
                "Common MAD header",
                "IBA Vol.1 13.4.3; UESTC thesis (2017) T3-1, T3-2",
                "IBA (UESTC thesis (2017) T3-2 says TransactionID is 32 bits; "
                "its own T3-1 "
                "and the IBA give 64)")

/* The whole GMP: header and 232 data bytes (M1, UESTC thesis (2017) T3-1). */
#define IBW_GMP_FIELDS(X, c)                                                   \
    IBW_MAD_HDR_FIELDS(X, c)                                                   \
    X(c, data, 24, 0, 1856, BYTES, "class-specific data (232 bytes)")
IBW_WIRE_FORMAT(ibw_gmp, IBW_GMP_FIELDS, 256, "mad", "M1",
                "MAD (GMP): common header and 232 data bytes",
                "IBA Vol.1 13.4.3; UESTC thesis (2017) T3-1", "IBA")

/* Management classes (IBA 13.4.4). */
enum ibw_mgmt_class {
    IBW_MGMT_CLASS_SUBN_LID_ROUTED = 0x01,
    IBW_MGMT_CLASS_SUBN_ADM = 0x03,
    IBW_MGMT_CLASS_PERF_MGMT = 0x04,
    IBW_MGMT_CLASS_BM = 0x05,
    IBW_MGMT_CLASS_DEVICE_MGMT = 0x06,
    IBW_MGMT_CLASS_CM = 0x07,
    IBW_MGMT_CLASS_SNMP = 0x08,
    IBW_MGMT_CLASS_VENDOR1_FIRST = 0x09,
    IBW_MGMT_CLASS_VENDOR1_LAST = 0x0F,
    IBW_MGMT_CLASS_APP_FIRST = 0x10,
    IBW_MGMT_CLASS_DEVICE_ADM = 0x10,
    IBW_MGMT_CLASS_BOOT_MGMT = 0x11,
    IBW_MGMT_CLASS_BIS = 0x12,
    IBW_MGMT_CLASS_CONG_MGMT = 0x21,
    IBW_MGMT_CLASS_APP_LAST = 0x2F,
    IBW_MGMT_CLASS_VENDOR2_FIRST = 0x30,
    IBW_MGMT_CLASS_VENDOR2_LAST = 0x4F,
    IBW_MGMT_CLASS_SUBN_DIRECTED_ROUTE = 0x81
};

/* Methods (IBA 13.4.5; SubnAdm 15.2.2). */
enum ibw_mad_method {
    IBW_MAD_METHOD_GET = 0x01,
    IBW_MAD_METHOD_SET = 0x02,
    IBW_MAD_METHOD_SEND = 0x03,
    IBW_MAD_METHOD_TRAP = 0x05,
    IBW_MAD_METHOD_REPORT = 0x06,
    IBW_MAD_METHOD_TRAP_REPRESS = 0x07,
    IBW_MAD_METHOD_GET_TABLE = 0x12,
    IBW_MAD_METHOD_GET_TRACE_TABLE = 0x13,
    IBW_MAD_METHOD_GET_MULTI = 0x14,
    IBW_MAD_METHOD_DELETE = 0x15,
    IBW_MAD_METHOD_GET_RESP = 0x81,
    IBW_MAD_METHOD_REPORT_RESP = 0x86,
    IBW_MAD_METHOD_GET_TABLE_RESP = 0x92,
    IBW_MAD_METHOD_GET_MULTI_RESP = 0x94,
    IBW_MAD_METHOD_DELETE_RESP = 0x95
};
#define IBW_MAD_METHOD_RESP_BIT 0x80

/* Non-zero when a method byte has the R (response) bit. */
static inline int ibw_mad_method_is_response(uint8_t method)
{
    return (method & IBW_MAD_METHOD_RESP_BIT) != 0;
}

/* Status bits (IBA 13.4.7): busy, redirect, a 3-bit code in [4:2], and the
 * class-specific byte [15:8].  In a directed-route SMP bit 15 is the D bit
 * instead, see smpdirected. */
#define IBW_MAD_STATUS_BUSY 0x0001
#define IBW_MAD_STATUS_REDIRECT 0x0002
#define IBW_MAD_STATUS_BAD_VERSION 0x0004
#define IBW_MAD_STATUS_UNSUPPORTED_METHOD 0x0008
#define IBW_MAD_STATUS_UNSUPPORTED_METHOD_ATTR 0x000C
#define IBW_MAD_STATUS_INVALID_FIELD 0x001C

/* The 3-bit invalid-field code of a status word, bits [4:2]. */
static inline unsigned ibw_mad_status_code(uint16_t status)
{
    return (status >> 2) & 7u;
}

/* Common attribute IDs (IBA 13.4.8). */
#define IBW_MAD_ATTR_CLASSPORTINFO 0x0001
#define IBW_MAD_ATTR_NOTICE 0x0002
#define IBW_MAD_ATTR_INFORMINFO 0x0003

/* SMP attribute IDs (IBA 14.2.5). */
enum ibw_smp_attr {
    IBW_SMP_ATTR_NOTICE = 0x0002,
    IBW_SMP_ATTR_NODEDESCRIPTION = 0x0010,
    IBW_SMP_ATTR_NODEINFO = 0x0011,
    IBW_SMP_ATTR_SWITCHINFO = 0x0012,
    IBW_SMP_ATTR_GUIDINFO = 0x0014,
    IBW_SMP_ATTR_PORTINFO = 0x0015,
    IBW_SMP_ATTR_PKEYTABLE = 0x0016,
    IBW_SMP_ATTR_SLTOVLMAPPINGTABLE = 0x0017,
    IBW_SMP_ATTR_VLARBITRATIONTABLE = 0x0018,
    IBW_SMP_ATTR_LINEARFORWARDINGTABLE = 0x0019,
    IBW_SMP_ATTR_RANDOMFORWARDINGTABLE = 0x001A,
    IBW_SMP_ATTR_MULTICASTFORWARDINGTABLE = 0x001B,
    IBW_SMP_ATTR_LINKSPEEDWIDTHPAIRSTABLE = 0x001C, /* IBA 1.2.1 on */
    IBW_SMP_ATTR_SMINFO = 0x0020,
    IBW_SMP_ATTR_VENDORDIAG = 0x0030,
    IBW_SMP_ATTR_LEDINFO = 0x0031
};

/* SubnAdm attribute IDs (IBA 15.2.5). */
enum ibw_sa_attr {
    IBW_SA_ATTR_NODERECORD = 0x0011,
    IBW_SA_ATTR_PORTINFORECORD = 0x0012,
    IBW_SA_ATTR_SLTOVLMAPPINGTABLERECORD = 0x0013,
    IBW_SA_ATTR_SWITCHINFORECORD = 0x0014,
    IBW_SA_ATTR_LINEARFORWARDINGTABLERECORD = 0x0015,
    IBW_SA_ATTR_RANDOMFORWARDINGTABLERECORD = 0x0016,
    IBW_SA_ATTR_MULTICASTFORWARDINGTABLERECORD = 0x0017,
    IBW_SA_ATTR_SMINFORECORD = 0x0018,
    IBW_SA_ATTR_LINKSPEEDWIDTHPAIRSTABLERECORD = 0x0019, /* IBA 1.2.1 on */
    IBW_SA_ATTR_LINKRECORD = 0x0020,
    IBW_SA_ATTR_GUIDINFORECORD = 0x0030,
    IBW_SA_ATTR_SERVICERECORD = 0x0031,
    IBW_SA_ATTR_PKEYTABLERECORD = 0x0033,
    IBW_SA_ATTR_PATHRECORD = 0x0035,
    IBW_SA_ATTR_VLARBITRATIONTABLERECORD = 0x0036,
    IBW_SA_ATTR_MCMEMBERRECORD = 0x0038,
    IBW_SA_ATTR_TRACERECORD = 0x0039,
    IBW_SA_ATTR_MULTIPATHRECORD = 0x003A,
    IBW_SA_ATTR_SERVICEASSOCIATIONRECORD = 0x003B,
    IBW_SA_ATTR_INFORMINFORECORD = 0x00F3
};

/* PerfMgt attribute IDs (IBA 16.1.3). */
enum ibw_perf_attr {
    IBW_PERF_ATTR_PORTSAMPLESCONTROL = 0x0010,
    IBW_PERF_ATTR_PORTSAMPLESRESULT = 0x0011,
    IBW_PERF_ATTR_PORTCOUNTERS = 0x0012,
    IBW_PERF_ATTR_PORTCOUNTERSEXTENDED = 0x001D
};

/* A PerfMgt MAD keeps 40 reserved bytes after the common header, so its
 * attribute starts at MAD byte 64 (IBA Vol.1 16.1.3 figure of the PerfMgt
 * MAD format). */
#define IBW_PERF_RSVD_SIZE 40
#define IBW_PERF_DATA_OFFSET (IBW_MAD_HDR_SIZE + IBW_PERF_RSVD_SIZE)

/* Sizes of attributes and SA records this file has no field list for, as
 * their IBA tables add up: InformInfo (IBA Vol.1 13.4.8.3), ServiceRecord
 * (15.2.5.14) and ServiceAssociationRecord (15.2.5.15: ServiceKey and
 * ServiceName). */
#define IBW_INFORMINFO_SIZE 36
#define IBW_SERVICERECORD_SIZE 176
#define IBW_SERVICEASSOCIATIONRECORD_SIZE 80

/*
 * The record ID an SA record puts before the SMP attribute it carries, in
 * bytes (IBA Vol.1 15.2.5): what a reader skips from the SA data to reach
 * the attribute.  A LID and 16 reserved bits (NodeRecord, SwitchInfoRecord,
 * SMInfoRecord), a LID and a port number with 8 reserved bits
 * (PortInfoRecord); a LID, 16 bits of port or block numbers and 32
 * reserved bits for the table records (SLtoVLMappingTable,
 * VLArbitrationTable, Linear/Random/MulticastForwardingTable).  A Notice
 * that an SA Report carries is no record and has none: 0.  -1 for an
 * attribute that is no record of an SMP attribute.
 */
#define IBW_SA_RID_LID_ONLY 4
#define IBW_SA_RID_TABLE 8
static inline int ibw_sa_record_rid_size(uint16_t attributeid)
{
    switch (attributeid) {
    case IBW_MAD_ATTR_NOTICE: return 0;
    case IBW_SA_ATTR_NODERECORD:
    case IBW_SA_ATTR_PORTINFORECORD:
    case IBW_SA_ATTR_SWITCHINFORECORD:
    case IBW_SA_ATTR_SMINFORECORD: return IBW_SA_RID_LID_ONLY;
    case IBW_SA_ATTR_SLTOVLMAPPINGTABLERECORD:
    case IBW_SA_ATTR_VLARBITRATIONTABLERECORD:
    case IBW_SA_ATTR_LINEARFORWARDINGTABLERECORD:
    case IBW_SA_ATTR_RANDOMFORWARDINGTABLERECORD:
    case IBW_SA_ATTR_MULTICASTFORWARDINGTABLERECORD: return IBW_SA_RID_TABLE;
    default: return -1;
    }
}

/* The well-known QP1 Q_Key (IBA 10.2.4.2.1). */
#define IBW_QP1_QKEY 0x80010000u

/* ------------------------------------------------------------------------ */
/* M2: RMPP header (MAD bytes 24..35)                                        */
/* ------------------------------------------------------------------------ */

#define IBW_RMPP_FIELDS(X, c)                                                  \
    X(c, rmppversion, 24, 0, 8, U8, "RMPP version (1; 0 = not RMPP)")          \
    X(c, rmpptype, 25, 0, 8, U8, "RMPP type: 1 DATA 2 ACK 3 STOP 4 ABORT")     \
    X(c, rresptime, 26, 0, 5, U8, "response time (4.096 us * 2^x; 31 none)")   \
    X(c, rmppflags, 26, 5, 3, U8, "flags: 1 active, 2 first, 4 last")          \
    X(c, rmppstatus, 27, 0, 8, U8, "RMPP status")                              \
    X(c, data1, 28, 0, 32, U32, "DATA/ACK: segment number")                    \
    X(c, data2, 32, 0, 32, U32,                                                \
      "DATA: payload length (first, last); ACK: new window last")
IBW_WIRE_FORMAT(ibw_rmpp, IBW_RMPP_FIELDS, 36, "rmpp", "M2",
                "RMPP header (MAD bytes 24..35)", "IBA Vol.1 13.6.2.1",
                "IBA; offsets from MAD byte 0 (Wireshark 4.0 splits byte 26 "
                "as 4+4 bits, the IBA as 5+3)")

enum ibw_rmpp_type {
    IBW_RMPP_TYPE_DATA = 1,
    IBW_RMPP_TYPE_ACK = 2,
    IBW_RMPP_TYPE_STOP = 3,
    IBW_RMPP_TYPE_ABORT = 4
};
#define IBW_RMPP_FLAG_ACTIVE 1
#define IBW_RMPP_FLAG_FIRST 2
#define IBW_RMPP_FLAG_LAST 4
#define IBW_RMPP_RRESPTIME_NONE 0x1F

/* RMPP status codes (IBA 13.6.2.1 table 172). */
#define IBW_RMPP_STATUSES(R)                                          \
    R(SUCCESS, 0, "normal")                                           \
    R(RESX, 1, "resources exhausted")                                 \
    R(T2L, 118, "total time too long")                                \
    R(BAD_LEN, 119, "inconsistent last and payload length")           \
    R(BAD_SEG, 120, "inconsistent first and segment number")          \
    R(BADT, 121, "bad RMPP type")                                     \
    R(W2S, 122, "new window last too small")                          \
    R(S2B, 123, "segment number too big")                             \
    R(BAD_STATUS, 124, "illegal status")                              \
    R(UNV, 125, "unsupported version")                                \
    R(TMR, 126, "too many retries")                                   \
    R(UNSPEC, 127, "unspecified error")

#define IBW__RMPP_ENUM(N, v, s) IBW_RMPP_STATUS_##N = v,
enum ibw_rmpp_status { IBW_RMPP_STATUSES(IBW__RMPP_ENUM) };
#undef IBW__RMPP_ENUM

/* ------------------------------------------------------------------------ */
/* M5: SA, vendor and SMP MAD layouts (offsets from MAD byte 0)             */
/* ------------------------------------------------------------------------ */

/* SubnAdm MAD after the RMPP header (IBA 15.2.1.1). */
#define IBW_SA_FIELDS(X, c)                                                    \
    X(c, smkey, 36, 0, 64, U64, "SM_Key")                                      \
    X(c, attributeoffset, 44, 0, 16, U16,                                      \
      "record size in 8-byte words (GetTable responses)")                     \
    X(c, rsvd46, 46, 0, 16, U16, "reserved")                                   \
    X(c, componentmask, 48, 0, 64, U64, "which record fields a query sets")    \
    X(c, subnetadmindata, 56, 0, 1600, BYTES, "SA data (200 bytes)")
IBW_WIRE_FORMAT(ibw_sa, IBW_SA_FIELDS, 256, "sa", "M5",
                "SubnAdm MAD header and data (MAD bytes 36..255)",
                "IBA Vol.1 15.2.1.1; UESTC thesis (2017) §2.3.3",
                "IBA; offsets from MAD byte 0")

/* Vendor MAD of classes 0x30..0x4F after the RMPP header (IBA 13.4.9). */
#define IBW_VENDOR_FIELDS(X, c)                                                \
    X(c, rsvd36, 36, 0, 8, U8, "reserved")                                     \
    X(c, oui, 37, 0, 24, U32, "vendor OUI")                                    \
    X(c, data, 40, 0, 1728, BYTES, "vendor data (216 bytes)")
IBW_WIRE_FORMAT(ibw_vendor_mad, IBW_VENDOR_FIELDS, 256, "vendor", "M5",
                "Vendor MAD, range 2 (MAD bytes 36..255)",
                "IBA Vol.1 13.4.9", "IBA; offsets from MAD byte 0")

/* LID-routed SMP (class 0x01) after the common header (IBA 14.2.1.1). */
#define IBW_SMP_LID_FIELDS(X, c)                                               \
    X(c, mkey, 24, 0, 64, U64, "M_Key")                                        \
    X(c, rsvd32, 32, 0, 256, BYTES, "reserved (32 bytes)")                     \
    X(c, smpdata, 64, 0, 512, BYTES, "SMP data (64 bytes)")                    \
    X(c, rsvd128, 128, 0, 1024, BYTES, "reserved (128 bytes)")
IBW_WIRE_FORMAT(ibw_smp_lid, IBW_SMP_LID_FIELDS, 256, "smplid", "M5",
                "LID-routed SMP (MAD bytes 24..255)", "IBA Vol.1 14.2.1.1",
                "IBA; offsets from MAD byte 0")

/* Directed-route SMP (class 0x81, IBA 14.2.1.2): bytes 4..7 of the common
 * header are D bit, status, hop pointer and hop count here. */
#define IBW_SMP_DR_FIELDS(X, c)                                                \
    X(c, d, 4, 0, 1, U8, "direction: 0 outbound, 1 returning")                 \
    X(c, smpstatus, 4, 1, 15, U16, "status")                                   \
    X(c, hoppointer, 6, 0, 8, U8, "hop pointer")                               \
    X(c, hopcount, 7, 0, 8, U8, "hop count")                                   \
    X(c, mkey, 24, 0, 64, U64, "M_Key")                                        \
    X(c, drslid, 32, 0, 16, U16, "directed-route SLID")                        \
    X(c, drdlid, 34, 0, 16, U16, "directed-route DLID")                        \
    X(c, rsvd36, 36, 0, 224, BYTES, "reserved (28 bytes)")                     \
    X(c, smpdata, 64, 0, 512, BYTES, "SMP data (64 bytes)")                    \
    X(c, initialpath, 128, 0, 512, BYTES,                                      \
      "initial path: output port per hop, entry 0 unused")                    \
    X(c, returnpath, 192, 0, 512, BYTES, "return path: input port per hop")
IBW_WIRE_FORMAT(ibw_smp_dr, IBW_SMP_DR_FIELDS, 256, "smpdirected", "M5",
                "Directed-route SMP (MAD bytes 4..7 and 24..255)",
                "IBA Vol.1 14.2.1.2", "IBA; offsets from MAD byte 0")

#define IBW_SMP_DR_PERMISSIVE_LID 0xFFFF

/* ------------------------------------------------------------------------ */
/* M5: attributes (offsets from the attribute's first byte)                 */
/* ------------------------------------------------------------------------ */

/* SMInfo (IBA 14.2.5.13), 21 bytes at SMP data. */
#define IBW_SMINFO_FIELDS(X, c)                                                \
    X(c, guid, 0, 0, 64, U64, "port GUID of the SM")                           \
    X(c, sm_key, 8, 0, 64, U64, "SM_Key")                                      \
    X(c, actcount, 16, 0, 32, U32, "activity counter")                         \
    X(c, priority, 20, 0, 4, U8, "priority")                                   \
    X(c, smstate, 20, 4, 4, U8,                                                \
      "state: 0 not active, 1 discovering, 2 standby, 3 master")
IBW_WIRE_FORMAT(ibw_sminfo, IBW_SMINFO_FIELDS, 21, "sminfo", "M5",
                "SMInfo attribute (0x0020)", "IBA Vol.1 14.2.5.13", "IBA")

/* NodeInfo (IBA 14.2.5.3), 40 bytes at SMP data. */
#define IBW_NODEINFO_FIELDS(X, c)                                              \
    X(c, baseversion, 0, 0, 8, U8, "MAD base version supported")               \
    X(c, classversion, 1, 0, 8, U8, "SMP class version supported")            \
    X(c, nodetype, 2, 0, 8, U8, "node type: 1 CA, 2 switch, 3 router")        \
    X(c, numports, 3, 0, 8, U8, "number of physical ports")                    \
    X(c, systemimageguid, 4, 0, 64, U64, "system image GUID")                  \
    X(c, nodeguid, 12, 0, 64, U64, "node GUID")                                \
    X(c, portguid, 20, 0, 64, U64, "port GUID")                                \
    X(c, partitioncap, 28, 0, 16, U16, "partition table entries per port")    \
    X(c, deviceid, 30, 0, 16, U16, "device ID")                                \
    X(c, revision, 32, 0, 32, U32, "device revision")                          \
    X(c, localportnum, 36, 0, 8, U8, "port the SMP arrived on")                \
    X(c, vendorid, 37, 0, 24, U32, "vendor OUI")
IBW_WIRE_FORMAT(ibw_nodeinfo, IBW_NODEINFO_FIELDS, 40, "nodeinfo", "M5",
                "NodeInfo attribute (0x0011)", "IBA Vol.1 14.2.5.3", "IBA")

/* PortInfo (IBA 14.2.5.6; bytes 60..63 from IBA 1.3), 64 bytes. */
#define IBW_PORTINFO_FIELDS(X, c)                                              \
    X(c, m_key, 0, 0, 64, U64, "M_Key")                                        \
    X(c, gidprefix, 8, 0, 64, U64, "GID prefix")                               \
    X(c, lid, 16, 0, 16, U16, "base LID")                                      \
    X(c, mastersmlid, 18, 0, 16, U16, "master SM LID")                         \
    X(c, capabilitymask, 20, 0, 32, U32, "capability mask")                    \
    X(c, diagcode, 24, 0, 16, U16, "diagnostic code")                          \
    X(c, m_keyleaseperiod, 26, 0, 16, U16, "M_Key lease period")               \
    X(c, localportnum, 28, 0, 8, U8, "local port number")                      \
    X(c, linkwidthenabled, 29, 0, 8, U8, "link width enabled")                 \
    X(c, linkwidthsupported, 30, 0, 8, U8, "link width supported")             \
    X(c, linkwidthactive, 31, 0, 8, U8, "link width active")                   \
    X(c, linkspeedsupported, 32, 0, 4, U8, "link speed supported")             \
    X(c, portstate, 32, 4, 4, U8, "port state: 1 down 2 init 3 armed 4 active")\
    X(c, portphysicalstate, 33, 0, 4, U8, "port physical state")               \
    X(c, linkdowndefaultstate, 33, 4, 4, U8, "link down default state")        \
    X(c, m_keyprotectbits, 34, 0, 2, U8, "M_Key protect bits")                 \
    X(c, rsvd34, 34, 2, 3, U8, "reserved")                                     \
    X(c, lmc, 34, 5, 3, U8, "LID mask control")                                \
    X(c, linkspeedactive, 35, 0, 4, U8, "link speed active")                   \
    X(c, linkspeedenabled, 35, 4, 4, U8, "link speed enabled")                 \
    X(c, neighbormtu, 36, 0, 4, U8, "neighbor MTU")                            \
    X(c, mastersmsl, 36, 4, 4, U8, "master SM SL")                             \
    X(c, vlcap, 37, 0, 4, U8, "VL capability")                                 \
    X(c, inittype, 37, 4, 4, U8, "init type")                                  \
    X(c, vlhighlimit, 38, 0, 8, U8, "VL high limit")                           \
    X(c, vlarbitrationhighcap, 39, 0, 8, U8, "VL arbitration high cap")        \
    X(c, vlarbitrationlowcap, 40, 0, 8, U8, "VL arbitration low cap")          \
    X(c, inittypereply, 41, 0, 4, U8, "init type reply")                       \
    X(c, mtucap, 41, 4, 4, U8, "MTU capability")                               \
    X(c, vlstallcount, 42, 0, 3, U8, "VL stall count")                         \
    X(c, hoqlife, 42, 3, 5, U8, "head-of-queue life")                          \
    X(c, operationalvls, 43, 0, 4, U8, "operational VLs")                      \
    X(c, partitionenforcementinbound, 43, 4, 1, U8, "P_Key check inbound")     \
    X(c, partitionenforcementoutbound, 43, 5, 1, U8, "P_Key check outbound")   \
    X(c, filterrawinbound, 43, 6, 1, U8, "filter raw inbound")                 \
    X(c, filterrawoutbound, 43, 7, 1, U8, "filter raw outbound")               \
    X(c, m_keyviolations, 44, 0, 16, U16, "M_Key violations")                  \
    X(c, p_keyviolations, 46, 0, 16, U16, "P_Key violations")                  \
    X(c, q_keyviolations, 48, 0, 16, U16, "Q_Key violations")                  \
    X(c, guidcap, 50, 0, 8, U8, "GUID capability")                             \
    X(c, clientreregister, 51, 0, 1, U8, "client reregister")                  \
    X(c, mcastpkeytrapsuppress, 51, 1, 2, U8,                                  \
      "multicast P_Key trap suppression enabled")                             \
    X(c, subnettimeout, 51, 3, 5, U8, "subnet timeout (4.096 us * 2^x)")       \
    X(c, rsvd52, 52, 0, 3, U8, "reserved")                                     \
    X(c, resptimevalue, 52, 3, 5, U8, "response time value")                   \
    X(c, localphyerrors, 53, 0, 4, U8, "local physical error threshold")      \
    X(c, overrunerrors, 53, 4, 4, U8, "overrun error threshold")               \
    X(c, maxcredithint, 54, 0, 16, U16, "max credit hint")                     \
    X(c, rsvd56, 56, 0, 8, U8, "reserved")                                     \
    X(c, linkroundtriplatency, 57, 0, 24, U32, "link round-trip latency")      \
    X(c, capabilitymask2, 60, 0, 16, U16, "capability mask 2")                 \
    X(c, linkspeedextactive, 62, 0, 4, U8, "extended link speed active")       \
    X(c, linkspeedextsupported, 62, 4, 4, U8, "extended link speed supported") \
    X(c, rsvd63, 63, 0, 3, U8, "reserved")                                     \
    X(c, linkspeedextenabled, 63, 3, 5, U8, "extended link speed enabled")
IBW_WIRE_FORMAT(ibw_portinfo, IBW_PORTINFO_FIELDS, 64, "portinfo", "M5",
                "PortInfo attribute (0x0015)", "IBA Vol.1 14.2.5.6",
                "IBA 1.3 (bytes 60..63 reserved before 1.3)")

/* PortInfo CapabilityMask bits (IBA Vol.1 14.2.5.6, CapabilityMask
 * table): X(name, bit, meaning), bit n being the mask's 2^n.  The names are
 * the last component of Wireshark's infiniband.portinfo.capabilitymask.*,
 * the list the bits tshark 4.0 shows: IBA 1.2.1 and later define bits 14,
 * 15 and 28..31 too (IsExtendedSpeedsSupported, IsCapabilityMask2Supported,
 * ...), which a tool reads from the mask itself. */
#define IBW_PORTINFO_CAPABILITIES(X)                                           \
    X(issm, 1, "IsSM: an SM runs on the port")                                 \
    X(noticesupported, 2, "IsNoticeSupported")                                 \
    X(trapsupported, 3, "IsTrapSupported")                                     \
    X(optionalipdsupported, 4, "IsOptionalIPDSupported")                       \
    X(automaticmigrationsupported, 5, "IsAutomaticMigrationSupported")         \
    X(slmappingsupported, 6, "IsSLMappingSupported")                           \
    X(mkeynvram, 7, "IsM_KeyNVRAM")                                            \
    X(pkeynvram, 8, "IsP_KeyNVRAM")                                            \
    X(ledinfosupported, 9, "IsLEDInfoSupported")                               \
    X(smdisabled, 10, "IsSMdisabled")                                          \
    X(systemimageguidsupported, 11, "IsSystemImageGUIDSupported")              \
    X(pkeyswitchexternalporttrapsupported, 12,                                 \
      "IsPKeySwitchExternalPortTrapSupported")                                \
    X(communicationmanagementsupported, 16,                                    \
      "IsCommunicationManagementSupported")                                   \
    X(snmptunnelingsupported, 17, "IsSNMPTunnelingSupported")                  \
    X(reinitsupported, 18, "IsReinitSupported")                                \
    X(devicemanagementsupported, 19, "IsDeviceManagementSupported")            \
    X(vendorclasssupported, 20, "IsVendorClassSupported")                      \
    X(drnoticesupported, 21, "IsDRNoticeSupported")                            \
    X(capabilitymasknoticesupported, 22, "IsCapabilityMaskNoticeSupported")    \
    X(bootmanagementsupported, 23, "IsBootManagementSupported")                \
    X(linkroundtriplatencysupported, 24, "IsLinkRoundTripLatencySupported")    \
    X(clientregistrationsupported, 25, "IsClientReregistrationSupported")      \
    X(otherlocalchangesnoticesupported, 26,                                    \
      "IsOtherLocalChangesNoticeSupported")                                   \
    X(linkspeedwidthpairstablesupported, 27,                                   \
      "IsLinkSpeedWidthPairsTableSupported")

#define IBW__PI_CAP_ENUM(name, bit, meaning) IBW_PI_CAP_BIT_##name = bit,
enum ibw_portinfo_capability_bit { IBW_PORTINFO_CAPABILITIES(IBW__PI_CAP_ENUM) };
#undef IBW__PI_CAP_ENUM

/* Capability bit `bit` (enum ibw_portinfo_capability_bit) of a PortInfo
 * CapabilityMask: 0 or 1. */
static inline unsigned ibw_portinfo_capability(uint32_t capabilitymask,
                                               unsigned bit)
{
    return (unsigned)(capabilitymask >> bit) & 1u;
}

/* Notice (IBA Vol.1 13.4.8.2, the common attribute that SMP Traps and SA
 * Reports carry; 14.2.5.1 lists it among the SMP attributes), 80 bytes.
 * IsGeneric picks the meaning of the two shared fields: ProducerType or
 * VendorID, TrapNumber or DeviceID (one name each, as Wireshark's).  An
 * SMP holds the first 64 bytes: the IssuerGID only fits an SA MAD. */
#define IBW_NOTICE_FIELDS(X, c)                                                \
    X(c, isgeneric, 0, 0, 1, U8, "1: generic notice, 0: vendor-specific")      \
    X(c, type, 0, 1, 7, U8, "type: 0 fatal 1 urgent 2 security 3 SM 4 info")   \
    X(c, producertypevendorid, 1, 0, 24, U32,                                  \
      "generic: producer node type; vendor-specific: vendor ID")              \
    X(c, trapnumberdeviceid, 4, 0, 16, U16,                                    \
      "generic: trap number; vendor-specific: device ID")                     \
    X(c, issuerlid, 6, 0, 16, U16, "LID of the issuer")                        \
    X(c, noticetoggle, 8, 0, 1, U8, "alternates with each new notice")         \
    X(c, noticecount, 8, 1, 15, U16, "notices issued, when queued")            \
    X(c, datadetails, 10, 0, 432, BYTES, "trap details (54 bytes)")            \
    X(c, issuergid, 64, 0, 128, BYTES, "GID of the issuer")
IBW_WIRE_FORMAT(ibw_notice, IBW_NOTICE_FIELDS, 80, "notice", "M5",
                "Notice attribute (0x0002)", "IBA Vol.1 13.4.8.2, 14.2.5.1",
                "IBA")

/* ClassPortInfo (IBA 13.4.8.1), 72 bytes, common to all classes. */
#define IBW_CLASSPORTINFO_FIELDS(X, c)                                         \
    X(c, baseversion, 0, 0, 8, U8, "MAD base version supported")               \
    X(c, classversion, 1, 0, 8, U8, "class version supported")                 \
    X(c, capabilitymask, 2, 0, 16, U16, "capability mask")                     \
    X(c, capabilitymask2, 4, 0, 27, U32, "capability mask 2")                  \
    X(c, resptimevalue, 7, 3, 5, U8, "response time value")                    \
    X(c, redirectgid, 8, 0, 128, BYTES, "redirect GID")                        \
    X(c, redirecttc, 24, 0, 8, U8, "redirect traffic class")                   \
    X(c, redirectsl, 25, 0, 4, U8, "redirect SL")                              \
    X(c, redirectfl, 25, 4, 20, U32, "redirect flow label")                    \
    X(c, redirectlid, 28, 0, 16, U16, "redirect LID")                          \
    X(c, redirectpkey, 30, 0, 16, U16, "redirect P_Key")                       \
    X(c, rsvd32, 32, 0, 8, U8, "reserved")                                     \
    X(c, redirectqp, 33, 0, 24, U32, "redirect QP")                            \
    X(c, redirectqkey, 36, 0, 32, U32, "redirect Q_Key")                       \
    X(c, trapgid, 40, 0, 128, BYTES, "trap GID")                               \
    X(c, traptc, 56, 0, 8, U8, "trap traffic class")                           \
    X(c, trapsl, 57, 0, 4, U8, "trap SL")                                      \
    X(c, trapfl, 57, 4, 20, U32, "trap flow label")                            \
    X(c, traplid, 60, 0, 16, U16, "trap LID")                                  \
    X(c, trappkey, 62, 0, 16, U16, "trap P_Key")                               \
    X(c, traphl, 64, 0, 8, U8, "trap hop limit")                               \
    X(c, trapqp, 65, 0, 24, U32, "trap QP")                                    \
    X(c, trapqkey, 68, 0, 32, U32, "trap Q_Key")
IBW_WIRE_FORMAT(ibw_classportinfo, IBW_CLASSPORTINFO_FIELDS, 72,
                "classportinfo", "M5", "ClassPortInfo attribute (0x0001)",
                "IBA Vol.1 13.4.8.1", "IBA")

/* PathRecord (IBA 15.2.5.16), 64 bytes at SA data. */
#define IBW_PATHRECORD_FIELDS(X, c)                                            \
    X(c, serviceid, 0, 0, 64, U64, "service ID (reserved before IBA 1.2.1)")  \
    X(c, dgid, 8, 0, 128, BYTES, "destination GID")                            \
    X(c, sgid, 24, 0, 128, BYTES, "source GID")                                \
    X(c, dlid, 40, 0, 16, U16, "destination LID")                              \
    X(c, slid, 42, 0, 16, U16, "source LID")                                   \
    X(c, rawtraffic, 44, 0, 1, U8, "raw traffic")                              \
    X(c, rsvd44, 44, 1, 3, U8, "reserved")                                     \
    X(c, flowlabel, 44, 4, 20, U32, "flow label")                              \
    X(c, hoplimit, 47, 0, 8, U8, "hop limit")                                  \
    X(c, tclass, 48, 0, 8, U8, "traffic class")                                \
    X(c, reversible, 49, 0, 1, U8, "reversible")                               \
    X(c, numbpath, 49, 1, 7, U8, "number of paths wanted")                     \
    X(c, p_key, 50, 0, 16, U16, "partition key")                               \
    X(c, qosclass, 52, 0, 12, U16, "QoS class")                                \
    X(c, sl, 53, 4, 4, U8, "service level")                                    \
    X(c, mtuselector, 54, 0, 2, U8, "MTU selector: 0 >, 1 <, 2 =, 3 best")     \
    X(c, mtu, 54, 2, 6, U8, "MTU (1 = 256 ... 5 = 4096)")                      \
    X(c, rateselector, 55, 0, 2, U8, "rate selector")                          \
    X(c, rate, 55, 2, 6, U8, "static rate")                                    \
    X(c, packetlifetimeselector, 56, 0, 2, U8, "packet life time selector")   \
    X(c, packetlifetime, 56, 2, 6, U8, "packet life time (4.096 us * 2^x)")    \
    X(c, preference, 57, 0, 8, U8, "preference")                               \
    X(c, rsvd58, 58, 0, 48, U64, "reserved")
IBW_WIRE_FORMAT(ibw_pathrecord, IBW_PATHRECORD_FIELDS, 64, "pathrecord", "M5",
                "SA PathRecord attribute (0x0035)", "IBA Vol.1 15.2.5.16",
                "IBA")

/* PathRecord component-mask bits (bit n selects the n-th 'field' of the IBA
 * table, reserved ones counted). */
#define IBW_PR_COMP_SERVICEID 0x3ULL
#define IBW_PR_COMP_DGID (1ULL << 2)
#define IBW_PR_COMP_SGID (1ULL << 3)
#define IBW_PR_COMP_DLID (1ULL << 4)
#define IBW_PR_COMP_SLID (1ULL << 5)
#define IBW_PR_COMP_RAWTRAFFIC (1ULL << 6)
#define IBW_PR_COMP_FLOWLABEL (1ULL << 8)
#define IBW_PR_COMP_HOPLIMIT (1ULL << 9)
#define IBW_PR_COMP_TCLASS (1ULL << 10)
#define IBW_PR_COMP_REVERSIBLE (1ULL << 11)
#define IBW_PR_COMP_NUMBPATH (1ULL << 12)
#define IBW_PR_COMP_PKEY (1ULL << 13)
#define IBW_PR_COMP_QOSCLASS (1ULL << 14)
#define IBW_PR_COMP_SL (1ULL << 15)
#define IBW_PR_COMP_MTUSELECTOR (1ULL << 16)
#define IBW_PR_COMP_MTU (1ULL << 17)
#define IBW_PR_COMP_RATESELECTOR (1ULL << 18)
#define IBW_PR_COMP_RATE (1ULL << 19)
#define IBW_PR_COMP_PKTLIFETIMESELECTOR (1ULL << 20)
#define IBW_PR_COMP_PKTLIFETIME (1ULL << 21)
#define IBW_PR_COMP_PREFERENCE (1ULL << 22)

/* Every format of mad.h and cm.h, catalog order: one line for the
 * registry (IBW__REGISTRY_FAMILIES in registry.h). */
#define IBW_MAD_FORMATS(X)                                                     \
    X(ibw_mad_hdr)                                                             \
    X(ibw_gmp)                                                                 \
    X(ibw_rmpp)                                                                \
    IBW_CM_FORMATS(X)                                                          \
    X(ibw_sa)                                                                  \
    X(ibw_vendor_mad)                                                          \
    X(ibw_smp_lid)                                                             \
    X(ibw_smp_dr)                                                              \
    X(ibw_sminfo)                                                              \
    X(ibw_nodeinfo)                                                            \
    X(ibw_portinfo)                                                            \
    X(ibw_classportinfo)                                                       \
    X(ibw_pathrecord)

/* ------------------------------------------------------------------------ */
/* Builders                                                                 */
/* ------------------------------------------------------------------------ */

/* Start a MAD: zero 256 bytes at `mad` and write the common header with
 * base version 1, status 0, class-specific 0.  IBW_E_NOSPACE when
 * len < 256. */
static inline int ibw_mad_hdr_fill(uint8_t *mad, size_t len,
                                   uint8_t mgmtclass, uint8_t classversion,
                                   uint8_t method, uint64_t tid,
                                   uint16_t attributeid, uint32_t attrmod)
{
    if (len < IBW_MAD_SIZE)
        return IBW_E_NOSPACE;
    memset(mad, 0, IBW_MAD_SIZE);
    ibw_mad_hdr_set_baseversion(mad, IBW_MAD_BASE_VERSION);
    ibw_mad_hdr_set_mgmtclass(mad, mgmtclass);
    ibw_mad_hdr_set_classversion(mad, classversion);
    ibw_mad_hdr_set_method(mad, method);
    ibw_mad_hdr_set_transactionid(mad, tid);
    ibw_mad_hdr_set_attributeid(mad, attributeid);
    ibw_mad_hdr_set_attributemodifier(mad, attrmod);
    return IBW_OK;
}

/* The response method for a request method (IBA 13.4.5, 15.2.2): Get and
 * Set -> GetResp, Trap -> TrapRepress, GetTraceTable -> GetTableResp,
 * others gain the R bit. */
static inline uint8_t ibw_mad_response_method(uint8_t method)
{
    switch (method) {
    case IBW_MAD_METHOD_SET: return IBW_MAD_METHOD_GET_RESP;
    case IBW_MAD_METHOD_TRAP: return IBW_MAD_METHOD_TRAP_REPRESS;
    case IBW_MAD_METHOD_GET_TRACE_TABLE: return IBW_MAD_METHOD_GET_TABLE_RESP;
    default: return (uint8_t)(method | IBW_MAD_METHOD_RESP_BIT);
    }
}

/* Turn a request MAD in place into its response: response method and
 * status; for a directed-route SMP the 15-bit status and the D bit.
 * IBW_E_TRUNCATED when len < 24. */
static inline int ibw_mad_make_response(uint8_t *mad, size_t len,
                                        uint16_t status)
{
    if (len < IBW_MAD_HDR_SIZE)
        return IBW_E_TRUNCATED;
    ibw_mad_hdr_set_method(mad,
                           ibw_mad_response_method(ibw_mad_hdr_get_method(mad)));
    if (ibw_mad_hdr_get_mgmtclass(mad) == IBW_MGMT_CLASS_SUBN_DIRECTED_ROUTE) {
        ibw_smp_dr_set_smpstatus(mad, status);
        ibw_smp_dr_set_d(mad, 1);
    } else {
        ibw_mad_hdr_set_status(mad, status);
    }
    return IBW_OK;
}

/*
 * Whole-MAD entries for every CM message <msg> (req, mra, rej, rep, rtu,
 * dreq, drep, sidr_req, sidr_rep, lap, apr):
 *
 *   int ibw_cm_<msg>_mad_decode(const uint8_t *mad, size_t len,
 *                               struct ibw_cm_<msg> *out)
 *       Decode from a whole MAD (len >= 256).  IBW_E_TRUNCATED when short,
 *       IBW_E_VERSION for a base version other than 1, IBW_E_UNSUPPORTED
 *       when the MAD is not class CM with this message's attribute ID.
 *
 *   int ibw_cm_<msg>_mad_encode(const struct ibw_cm_<msg> *in, uint64_t tid,
 *                              uint8_t *mad, size_t len)
 *       Write a whole MAD: CM class, class version 2, method Send, the
 *       message's attribute ID, modifier 0, then the message.  IBW_E_NOSPACE
 *       when len < 256.
 */
static inline int ibw__cm_check_mad(const uint8_t *mad, size_t len,
                                    uint16_t attributeid)
{
    if (len < IBW_MAD_SIZE)
        return IBW_E_TRUNCATED;
    if (ibw_mad_hdr_get_baseversion(mad) != IBW_MAD_BASE_VERSION)
        return IBW_E_VERSION;
    if (ibw_mad_hdr_get_mgmtclass(mad) != IBW_MGMT_CLASS_CM ||
        ibw_mad_hdr_get_attributeid(mad) != attributeid)
        return IBW_E_UNSUPPORTED;
    return IBW_OK;
}

#define IBW__CM_MAD_FUNCS(n, N, attr, label)                                   \
    static inline int ibw_cm_##n##_mad_decode(                                 \
        const uint8_t *mad, size_t len, struct ibw_cm_##n *out)                \
    {                                                                          \
        int e = ibw__cm_check_mad(mad, len, attr);                             \
        if (e != IBW_OK)                                                       \
            return e;                                                          \
        return ibw_cm_##n##_decode(mad + IBW_CM_DATA_OFFSET,                   \
                                   IBW_CM_DATA_SIZE, out);                     \
    }                                                                          \
    static inline int ibw_cm_##n##_mad_encode(                                  \
        const struct ibw_cm_##n *in, uint64_t tid, uint8_t *mad, size_t len)   \
    {                                                                          \
        int e = ibw_mad_hdr_fill(mad, len, IBW_MGMT_CLASS_CM,                  \
                                 IBW_CM_CLASS_VERSION, IBW_MAD_METHOD_SEND,    \
                                 tid, attr, 0);                                \
        if (e != IBW_OK)                                                       \
            return e;                                                          \
        return ibw_cm_##n##_encode(in, mad + IBW_CM_DATA_OFFSET,               \
                                   IBW_CM_DATA_SIZE);                          \
    }
IBW_CM_MESSAGES(IBW__CM_MAD_FUNCS)
#undef IBW__CM_MAD_FUNCS

/* ------------------------------------------------------------------------ */
/* The MAD decoder                                                          */
/* ------------------------------------------------------------------------ */

/* What a class's MAD looks like past the common header. */
enum ibw_mad_kind {
    IBW_MAD_KIND_GENERIC = 0,  /* known class, data not broken down further */
    IBW_MAD_KIND_SMP_LID = 1,  /* class 0x01 */
    IBW_MAD_KIND_SMP_DR = 2,   /* class 0x81 */
    IBW_MAD_KIND_SA = 3,       /* class 0x03: RMPP + SA header */
    IBW_MAD_KIND_CM = 4,       /* class 0x07: one CM message */
    IBW_MAD_KIND_VENDOR1 = 5,  /* classes 0x09..0x0F: vendor data at 24 */
    IBW_MAD_KIND_VENDOR2 = 6   /* classes 0x30..0x4F: RMPP + OUI */
};

/* A format found in the MAD: its byte 0 lies at MAD byte `off`. */
struct ibw_mad_layer {
    const struct ibw_format *fmt;
    uint16_t off;
};

#define IBW_MAD_MAX_LAYERS 4

/* The result of ibw_mad_decode(). */
struct ibw_mad_view {
    struct ibw_mad_hdr hdr;       /* the common header */
    uint8_t kind;                 /* enum ibw_mad_kind */
    uint8_t nlayers;              /* layers[0] is always the GMP ("mad") */
    struct ibw_mad_layer layers[IBW_MAD_MAX_LAYERS];
    const char *err_field;        /* on error: the field at fault, else NULL */
    /* The decoded attribute, when attr_fmt is not NULL; which member is
     * valid follows from kind and hdr.attributeid. */
    const struct ibw_format *attr_fmt;
    uint16_t attr_off;
    union {
        struct ibw_cm_msg cm;
        struct ibw_classportinfo classportinfo;
        struct ibw_sminfo sminfo;
        struct ibw_nodeinfo nodeinfo;
        struct ibw_portinfo portinfo;
        struct ibw_pathrecord pathrecord;
    } attr;
};

/* The kind of a management class, or -1 for a reserved/unknown class. */
static inline int ibw_mad_class_kind(uint8_t mgmtclass)
{
    switch (mgmtclass) {
    case IBW_MGMT_CLASS_SUBN_LID_ROUTED: return IBW_MAD_KIND_SMP_LID;
    case IBW_MGMT_CLASS_SUBN_DIRECTED_ROUTE: return IBW_MAD_KIND_SMP_DR;
    case IBW_MGMT_CLASS_SUBN_ADM: return IBW_MAD_KIND_SA;
    case IBW_MGMT_CLASS_CM: return IBW_MAD_KIND_CM;
    case IBW_MGMT_CLASS_PERF_MGMT:
    case IBW_MGMT_CLASS_BM:
    case IBW_MGMT_CLASS_DEVICE_MGMT:
    case IBW_MGMT_CLASS_SNMP: return IBW_MAD_KIND_GENERIC;
    default: break;
    }
    if (mgmtclass >= IBW_MGMT_CLASS_VENDOR1_FIRST &&
        mgmtclass <= IBW_MGMT_CLASS_VENDOR1_LAST)
        return IBW_MAD_KIND_VENDOR1;
    if (mgmtclass >= IBW_MGMT_CLASS_APP_FIRST &&
        mgmtclass <= IBW_MGMT_CLASS_APP_LAST)
        return IBW_MAD_KIND_GENERIC;
    if (mgmtclass >= IBW_MGMT_CLASS_VENDOR2_FIRST &&
        mgmtclass <= IBW_MGMT_CLASS_VENDOR2_LAST)
        return IBW_MAD_KIND_VENDOR2;
    return -1;
}

/* Non-zero when `method` is defined for `mgmtclass` (IBA 13.4.5, 14.2.2,
 * 15.2.2, 16.7.2): SMPs Get/Set/GetResp/Trap/TrapRepress; SubnAdm adds the
 * table, multi, delete and report methods; CM Get/Set/GetResp/Send; vendor
 * and application classes anything; other classes the common methods. */
static inline int ibw_mad_method_valid(uint8_t mgmtclass, uint8_t method)
{
    int kind = ibw_mad_class_kind(mgmtclass);
    if (kind == IBW_MAD_KIND_VENDOR1 || kind == IBW_MAD_KIND_VENDOR2 ||
        (mgmtclass >= IBW_MGMT_CLASS_APP_FIRST &&
         mgmtclass <= IBW_MGMT_CLASS_APP_LAST))
        return 1;
    switch (method) {
    case IBW_MAD_METHOD_GET:
    case IBW_MAD_METHOD_SET:
    case IBW_MAD_METHOD_GET_RESP: return kind >= 0;
    case IBW_MAD_METHOD_TRAP:
    case IBW_MAD_METHOD_TRAP_REPRESS:
        return kind == IBW_MAD_KIND_SMP_LID || kind == IBW_MAD_KIND_SMP_DR ||
               kind == IBW_MAD_KIND_GENERIC;
    case IBW_MAD_METHOD_SEND:
        return kind == IBW_MAD_KIND_CM || kind == IBW_MAD_KIND_GENERIC;
    case IBW_MAD_METHOD_REPORT:
    case IBW_MAD_METHOD_REPORT_RESP:
        return kind == IBW_MAD_KIND_SA || kind == IBW_MAD_KIND_GENERIC;
    case IBW_MAD_METHOD_GET_TABLE:
    case IBW_MAD_METHOD_GET_TABLE_RESP:
    case IBW_MAD_METHOD_GET_TRACE_TABLE:
    case IBW_MAD_METHOD_GET_MULTI:
    case IBW_MAD_METHOD_GET_MULTI_RESP:
    case IBW_MAD_METHOD_DELETE:
    case IBW_MAD_METHOD_DELETE_RESP: return kind == IBW_MAD_KIND_SA;
    default: return 0;
    }
}

static inline void ibw__mad_add_layer(struct ibw_mad_view *v,
                                      const struct ibw_format *fmt,
                                      uint16_t off)
{
    if (v->nlayers < IBW_MAD_MAX_LAYERS) {
        v->layers[v->nlayers].fmt = fmt;
        v->layers[v->nlayers].off = off;
        v->nlayers++;
    }
}

/* Decode the SMP attribute at MAD byte 64 when this build knows it. */
static inline void ibw__mad_smp_attr(const uint8_t *p, struct ibw_mad_view *v)
{
    const uint8_t *a = p + IBW_SMP_DATA_OFFSET;
    switch (v->hdr.attributeid) {
    case IBW_SMP_ATTR_SMINFO:
        ibw_sminfo_decode(a, IBW_SMP_DATA_SIZE, &v->attr.sminfo);
        v->attr_fmt = ibw_sminfo_format();
        break;
    case IBW_SMP_ATTR_NODEINFO:
        ibw_nodeinfo_decode(a, IBW_SMP_DATA_SIZE, &v->attr.nodeinfo);
        v->attr_fmt = ibw_nodeinfo_format();
        break;
    case IBW_SMP_ATTR_PORTINFO:
        ibw_portinfo_decode(a, IBW_SMP_DATA_SIZE, &v->attr.portinfo);
        v->attr_fmt = ibw_portinfo_format();
        break;
    default: return;
    }
    v->attr_off = IBW_SMP_DATA_OFFSET;
}

/* Decode the first SA record at MAD byte 56 when this build knows it and
 * the MAD is not a later RMPP segment (whose data continues a record). */
static inline void ibw__mad_sa_attr(const uint8_t *p, struct ibw_mad_view *v)
{
    const uint8_t *a = p + IBW_SA_DATA_OFFSET;
    if ((ibw_rmpp_get_rmppflags(p) & IBW_RMPP_FLAG_ACTIVE) &&
        (ibw_rmpp_get_rmpptype(p) != IBW_RMPP_TYPE_DATA ||
         ibw_rmpp_get_data1(p) != 1))
        return;
    switch (v->hdr.attributeid) {
    case IBW_SA_ATTR_PATHRECORD:
        ibw_pathrecord_decode(a, IBW_SA_DATA_SIZE, &v->attr.pathrecord);
        v->attr_fmt = ibw_pathrecord_format();
        break;
    case IBW_MAD_ATTR_CLASSPORTINFO:
        ibw_classportinfo_decode(a, IBW_SA_DATA_SIZE, &v->attr.classportinfo);
        v->attr_fmt = ibw_classportinfo_format();
        break;
    default: return;
    }
    v->attr_off = IBW_SA_DATA_OFFSET;
}

/*
 * Decode a MAD: p/len is the UD payload (len >= 256; bytes past 256 are not
 * MAD and are ignored).  On success fills v: the header, the kind, the
 * layers (always the GMP at 0, then the class headers, then the attribute)
 * and, for SMInfo/NodeInfo/PortInfo, PathRecord, ClassPortInfo and every CM
 * message, the decoded attribute.  Errors, with v->err_field naming the
 * field at fault:
 *   IBW_E_TRUNCATED   len < 256 ("mad"; the header is decoded if len >= 24)
 *   IBW_E_VERSION     base version not 1 ("baseversion")
 *   IBW_E_UNSUPPORTED reserved/unknown class ("mgmtclass"), method not
 *                     defined for the class ("method"), attribute that is no
 *                     CM message in a CM MAD ("attributeid")
 */
static inline int ibw_mad_decode(const uint8_t *p, size_t len,
                                 struct ibw_mad_view *v)
{
    memset(v, 0, sizeof *v);
    if (len < IBW_MAD_HDR_SIZE) {
        v->err_field = "mad";
        return IBW_E_TRUNCATED;
    }
    ibw_mad_hdr_decode(p, len, &v->hdr);
    if (len < IBW_MAD_SIZE) {
        v->err_field = "mad";
        return IBW_E_TRUNCATED;
    }
    if (v->hdr.baseversion != IBW_MAD_BASE_VERSION) {
        v->err_field = "baseversion";
        return IBW_E_VERSION;
    }
    int kind = ibw_mad_class_kind(v->hdr.mgmtclass);
    if (kind < 0) {
        v->err_field = "mgmtclass";
        return IBW_E_UNSUPPORTED;
    }
    if (!ibw_mad_method_valid(v->hdr.mgmtclass, v->hdr.method)) {
        v->err_field = "method";
        return IBW_E_UNSUPPORTED;
    }
    v->kind = (uint8_t)kind;
    ibw__mad_add_layer(v, ibw_gmp_format(), 0);
    switch (kind) {
    case IBW_MAD_KIND_SMP_LID:
        ibw__mad_add_layer(v, ibw_smp_lid_format(), 0);
        ibw__mad_smp_attr(p, v);
        break;
    case IBW_MAD_KIND_SMP_DR:
        ibw__mad_add_layer(v, ibw_smp_dr_format(), 0);
        ibw__mad_smp_attr(p, v);
        break;
    case IBW_MAD_KIND_SA:
        ibw__mad_add_layer(v, ibw_rmpp_format(), 0);
        ibw__mad_add_layer(v, ibw_sa_format(), 0);
        ibw__mad_sa_attr(p, v);
        break;
    case IBW_MAD_KIND_CM:
        if (v->hdr.attributeid == IBW_CM_ATTR_CLASSPORTINFO) {
            ibw_classportinfo_decode(p + IBW_CM_DATA_OFFSET, IBW_CM_DATA_SIZE,
                                     &v->attr.classportinfo);
            v->attr_fmt = ibw_classportinfo_format();
        } else if (ibw_cm_decode(p + IBW_CM_DATA_OFFSET, IBW_CM_DATA_SIZE,
                                 v->hdr.attributeid, &v->attr.cm) == IBW_OK) {
            v->attr_fmt = ibw_cm_format(v->hdr.attributeid);
        } else {
            v->err_field = "attributeid";
            return IBW_E_UNSUPPORTED;
        }
        v->attr_off = IBW_CM_DATA_OFFSET;
        break;
    case IBW_MAD_KIND_VENDOR2:
        ibw__mad_add_layer(v, ibw_rmpp_format(), 0);
        ibw__mad_add_layer(v, ibw_vendor_mad_format(), 0);
        break;
    default: break;
    }
    if (v->attr_fmt)
        ibw__mad_add_layer(v, v->attr_fmt, v->attr_off);
    return IBW_OK;
}

/* ------------------------------------------------------------------------ */
/* Names for tools (static strings)                                         */
/* ------------------------------------------------------------------------ */

/* Name of a management class, or NULL for a reserved/unknown one. */
static inline const char *ibw_mad_class_name(uint8_t mgmtclass)
{
    switch (mgmtclass) {
    case IBW_MGMT_CLASS_SUBN_LID_ROUTED: return "SubnMgt (LID routed)";
    case IBW_MGMT_CLASS_SUBN_DIRECTED_ROUTE: return "SubnMgt (directed route)";
    case IBW_MGMT_CLASS_SUBN_ADM: return "SubnAdm";
    case IBW_MGMT_CLASS_PERF_MGMT: return "PerfMgt";
    case IBW_MGMT_CLASS_BM: return "BM";
    case IBW_MGMT_CLASS_DEVICE_MGMT: return "DevMgt";
    case IBW_MGMT_CLASS_CM: return "CM";
    case IBW_MGMT_CLASS_SNMP: return "SNMP";
    case IBW_MGMT_CLASS_DEVICE_ADM: return "DevAdm";
    case IBW_MGMT_CLASS_BOOT_MGMT: return "BootMgt";
    case IBW_MGMT_CLASS_BIS: return "BIS";
    case IBW_MGMT_CLASS_CONG_MGMT: return "CongMgt";
    default: break;
    }
    switch (ibw_mad_class_kind(mgmtclass)) {
    case IBW_MAD_KIND_VENDOR1: return "Vendor (range 1)";
    case IBW_MAD_KIND_VENDOR2: return "Vendor (range 2)";
    case IBW_MAD_KIND_GENERIC: return "Application";
    default: return NULL;
    }
}

/* Name of a method ("Get", "GetTableResp", ...), or NULL when the method
 * is not defined for the class (see ibw_mad_method_valid). */
static inline const char *ibw_mad_method_name(uint8_t mgmtclass,
                                              uint8_t method)
{
    if (!ibw_mad_method_valid(mgmtclass, method))
        return NULL;
    switch (method) {
    case IBW_MAD_METHOD_GET: return "Get";
    case IBW_MAD_METHOD_SET: return "Set";
    case IBW_MAD_METHOD_SEND: return "Send";
    case IBW_MAD_METHOD_TRAP: return "Trap";
    case IBW_MAD_METHOD_REPORT: return "Report";
    case IBW_MAD_METHOD_TRAP_REPRESS: return "TrapRepress";
    case IBW_MAD_METHOD_GET_RESP: return "GetResp";
    case IBW_MAD_METHOD_REPORT_RESP: return "ReportResp";
    case IBW_MAD_METHOD_GET_TABLE: return "GetTable";
    case IBW_MAD_METHOD_GET_TABLE_RESP: return "GetTableResp";
    case IBW_MAD_METHOD_GET_TRACE_TABLE: return "GetTraceTable";
    case IBW_MAD_METHOD_GET_MULTI: return "GetMulti";
    case IBW_MAD_METHOD_GET_MULTI_RESP: return "GetMultiResp";
    case IBW_MAD_METHOD_DELETE: return "Delete";
    case IBW_MAD_METHOD_DELETE_RESP: return "DeleteResp";
    default: return "vendor-defined";
    }
}

/* Name of attribute `attributeid` of class `mgmtclass`, or NULL when this
 * build does not know it. */
static inline const char *ibw_mad_attr_name(uint8_t mgmtclass,
                                            uint16_t attributeid)
{
    int kind = ibw_mad_class_kind(mgmtclass);
    if (kind == IBW_MAD_KIND_CM)
        return ibw_cm_attr_name(attributeid);
    if (kind == IBW_MAD_KIND_SMP_LID || kind == IBW_MAD_KIND_SMP_DR) {
        switch (attributeid) {
        case IBW_SMP_ATTR_NOTICE: return "Notice";
        case IBW_SMP_ATTR_NODEDESCRIPTION: return "NodeDescription";
        case IBW_SMP_ATTR_NODEINFO: return "NodeInfo";
        case IBW_SMP_ATTR_SWITCHINFO: return "SwitchInfo";
        case IBW_SMP_ATTR_GUIDINFO: return "GUIDInfo";
        case IBW_SMP_ATTR_PORTINFO: return "PortInfo";
        case IBW_SMP_ATTR_PKEYTABLE: return "P_KeyTable";
        case IBW_SMP_ATTR_SLTOVLMAPPINGTABLE: return "SLtoVLMappingTable";
        case IBW_SMP_ATTR_VLARBITRATIONTABLE: return "VLArbitrationTable";
        case IBW_SMP_ATTR_LINEARFORWARDINGTABLE: return "LinearForwardingTable";
        case IBW_SMP_ATTR_RANDOMFORWARDINGTABLE: return "RandomForwardingTable";
        case IBW_SMP_ATTR_MULTICASTFORWARDINGTABLE:
            return "MulticastForwardingTable";
        case IBW_SMP_ATTR_LINKSPEEDWIDTHPAIRSTABLE:
            return "LinkSpeedWidthPairsTable";
        case IBW_SMP_ATTR_SMINFO: return "SMInfo";
        case IBW_SMP_ATTR_VENDORDIAG: return "VendorDiag";
        case IBW_SMP_ATTR_LEDINFO: return "LedInfo";
        default: return NULL;
        }
    }
    switch (attributeid) {
    case IBW_MAD_ATTR_CLASSPORTINFO: return "ClassPortInfo";
    case IBW_MAD_ATTR_NOTICE: return "Notice";
    case IBW_MAD_ATTR_INFORMINFO: return "InformInfo";
    default: break;
    }
    if (kind == IBW_MAD_KIND_SA) {
        switch (attributeid) {
        case IBW_SA_ATTR_NODERECORD: return "NodeRecord";
        case IBW_SA_ATTR_PORTINFORECORD: return "PortInfoRecord";
        case IBW_SA_ATTR_SLTOVLMAPPINGTABLERECORD:
            return "SLtoVLMappingTableRecord";
        case IBW_SA_ATTR_SWITCHINFORECORD: return "SwitchInfoRecord";
        case IBW_SA_ATTR_LINEARFORWARDINGTABLERECORD:
            return "LinearForwardingTableRecord";
        case IBW_SA_ATTR_RANDOMFORWARDINGTABLERECORD:
            return "RandomForwardingTableRecord";
        case IBW_SA_ATTR_MULTICASTFORWARDINGTABLERECORD:
            return "MulticastForwardingTableRecord";
        case IBW_SA_ATTR_SMINFORECORD: return "SMInfoRecord";
        case IBW_SA_ATTR_LINKSPEEDWIDTHPAIRSTABLERECORD:
            return "LinkSpeedWidthPairsTableRecord";
        case IBW_SA_ATTR_LINKRECORD: return "LinkRecord";
        case IBW_SA_ATTR_GUIDINFORECORD: return "GuidInfoRecord";
        case IBW_SA_ATTR_SERVICERECORD: return "ServiceRecord";
        case IBW_SA_ATTR_PKEYTABLERECORD: return "P_KeyTableRecord";
        case IBW_SA_ATTR_PATHRECORD: return "PathRecord";
        case IBW_SA_ATTR_VLARBITRATIONTABLERECORD:
            return "VLArbitrationTableRecord";
        case IBW_SA_ATTR_MCMEMBERRECORD: return "MCMemberRecord";
        case IBW_SA_ATTR_TRACERECORD: return "TraceRecord";
        case IBW_SA_ATTR_MULTIPATHRECORD: return "MultiPathRecord";
        case IBW_SA_ATTR_SERVICEASSOCIATIONRECORD:
            return "ServiceAssociationRecord";
        case IBW_SA_ATTR_INFORMINFORECORD: return "InformInfoRecord";
        default: return NULL;
        }
    }
    if (mgmtclass == IBW_MGMT_CLASS_PERF_MGMT) {
        switch (attributeid) {
        case IBW_PERF_ATTR_PORTSAMPLESCONTROL: return "PortSamplesControl";
        case IBW_PERF_ATTR_PORTSAMPLESRESULT: return "PortSamplesResult";
        case IBW_PERF_ATTR_PORTCOUNTERS: return "PortCounters";
        case IBW_PERF_ATTR_PORTCOUNTERSEXTENDED: return "PortCountersExtended";
        default: return NULL;
        }
    }
    return NULL;
}

/* Meaning of a MAD status word's common part (busy, redirect, the [4:2]
 * code); the class-specific byte [15:8] is not interpreted.  Never NULL. */
static inline const char *ibw_mad_status_name(uint16_t status)
{
    switch (ibw_mad_status_code(status)) {
    case 0:
        if (status & IBW_MAD_STATUS_BUSY)
            return "busy";
        if (status & IBW_MAD_STATUS_REDIRECT)
            return "redirect required";
        return "success";
    case 1: return "bad base or class version";
    case 2: return "method not supported";
    case 3: return "method/attribute combination not supported";
    case 7: return "invalid attribute or attribute modifier value";
    default: return "reserved status code";
    }
}

/* Name of an RMPP type, or NULL (0 means "not an RMPP packet"). */
static inline const char *ibw_rmpp_type_name(uint8_t type)
{
    switch (type) {
    case IBW_RMPP_TYPE_DATA: return "DATA";
    case IBW_RMPP_TYPE_ACK: return "ACK";
    case IBW_RMPP_TYPE_STOP: return "STOP";
    case IBW_RMPP_TYPE_ABORT: return "ABORT";
    default: return NULL;
    }
}

#define IBW__RMPP_NAME(N, v, s) case v: return s;
/* Meaning of an RMPP status code, or NULL for an unassigned one. */
static inline const char *ibw_rmpp_status_name(uint8_t status)
{
    switch (status) {
        IBW_RMPP_STATUSES(IBW__RMPP_NAME)
    default: return NULL;
    }
}
#undef IBW__RMPP_NAME

/*
 * The Wireshark (tshark 4.0) display-filter name of field `field` of
 * format `format`, written to buf (n bytes).  The rule is
 * "infiniband." + prefix + "." + field, the prefix being the format name
 * (mad_hdr -> mad, cm_<msg> -> cm.<msg>, cm_drep -> cm.drsp, ip_cm ->
 * cm.req.ip_cm), with the exceptions tabled below.  The name may not exist
 * in tshark (MRA, LAP, APR, SIDR and reserved fields are not dissected).
 * Known tshark 4.0 disagreements a comparison must allow for: its
 * smpdirected.smpstatus is the whole 16-bit word (D bit included) and its
 * smpdirected.d reads the wrong bits; rmpp.rresptime/rmppflags split byte
 * 26 as 4+4 bits instead of 5+3; cm.req.prim_/alt_flowlabel and _pktrate
 * come out wrong (the IBA puts them in data bytes 88..91 and 132..135,
 * tshark reads elsewhere); ip_cm.sip6/dip6 become sip4/dip4 (the last 4
 * bytes) when ipv is 4.
 * IBW_E_FIELD for a format that is no MAD format, IBW_E_NOSPACE when the
 * name does not fit.
 */
static inline int ibw_mad_tshark_name(const char *format, const char *field,
                                      char *buf, size_t n)
{
    static const struct {
        const char *format, *field, *name;
    } except[] = {
        {"cm_req", "localcommid", "infiniband.cm.req"},
        {"cm_rep", "localcommid", "infiniband.cm.rep"},
        {"cm_dreq", "remoteqpneecn", "infiniband.cm.req.remoteqpneecn"},
        {"portinfo", "gidprefix", "infiniband.portinfo.guid"},
        {"smpdirected", "mkey", "infiniband.smplid.mkey"},
        {"smpdirected", "smpdata", "infiniband.smplid.smpdata"},
        {"vendor", "data", "infiniband.vendor"},
        {"ip_cm", "sip", "infiniband.cm.req.ip_cm.sip6"},
        {"ip_cm", "dip", "infiniband.cm.req.ip_cm.dip6"},
        {"ip_cm", "rsvd1", "infiniband.cm.req.ip_cm.reserved"},
    };
    static const struct {
        const char *format, *prefix;
    } prefixes[] = {
        {"mad_hdr", "mad"},        {"mad", "mad"},
        {"rmpp", "rmpp"},          {"sa", "sa"},
        {"vendor", "vendor"},      {"smplid", "smplid"},
        {"smpdirected", "smpdirected"},
        {"sminfo", "sminfo"},      {"nodeinfo", "nodeinfo"},
        {"portinfo", "portinfo"},  {"classportinfo", "classportinfo"},
        {"pathrecord", "pathrecord"}, {"notice", "notice"},
        {"cm_req", "cm.req"},      {"cm_mra", "cm.mra"},
        {"cm_rej", "cm.rej"},      {"cm_rep", "cm.rep"},
        {"cm_rtu", "cm.rtu"},      {"cm_dreq", "cm.dreq"},
        {"cm_drep", "cm.drsp"},    {"cm_sidr_req", "cm.sidr_req"},
        {"cm_sidr_rep", "cm.sidr_rep"},
        {"cm_lap", "cm.lap"},      {"cm_apr", "cm.apr"},
        {"ip_cm", "cm.req.ip_cm"},
    };
    const char *name = NULL;
    const char *prefix = NULL;
    for (size_t i = 0; i < sizeof except / sizeof except[0]; i++)
        if (strcmp(except[i].format, format) == 0 &&
            strcmp(except[i].field, field) == 0)
            name = except[i].name;
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (strcmp(prefixes[i].format, format) == 0)
            prefix = prefixes[i].prefix;
    if (!prefix)
        return IBW_E_FIELD;
    if (strcmp(field, "private_data") == 0)
        field = "private";
    size_t need;
    if (name) {
        need = strlen(name) + 1;
        if (need > n)
            return IBW_E_NOSPACE;
        memcpy(buf, name, need);
        return IBW_OK;
    }
    size_t lp = strlen(prefix), lf = strlen(field);
    need = 11 + lp + 1 + lf + 1; /* "infiniband." prefix "." field NUL */
    if (need > n)
        return IBW_E_NOSPACE;
    memcpy(buf, "infiniband.", 11);
    memcpy(buf + 11, prefix, lp);
    buf[11 + lp] = '.';
    memcpy(buf + 12 + lp, field, lf + 1);
    return IBW_OK;
}

#ifdef __cplusplus
}
#endif

#endif /* IBWIRE_MAD_H */
