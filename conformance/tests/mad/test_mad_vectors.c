/* SPDX-License-Identifier: Apache-2.0 */
/*
 * M1, M2, M5: the common MAD header, GMP, RMPP header, SA header with a
 * PathRecord, vendor MAD, LID-routed SMP with PortInfo and NodeInfo,
 * directed-route SMP with SMInfo, ClassPortInfo, Notice in an SMP Trap and
 * an SA Report, SA records behind their record IDs and the PerfMgt data,
 * against 256-byte MAD images written by hand from the IBA figures
 * (13.4.3, 13.6.2.1, 14.2.1, 15.2.1.1, 13.4.9, 16.1.3) and attribute tables
 * (14.2.5, 15.2.5, 13.4.8.1, 13.4.8.2).
 * Only non-zero bytes are written; each carries a comment deriving it.
 */
#include "ibwire/mad.h"
#include "testutil.h"

/* Every format tiles [from, to) in bits, in order, without gaps. */
static void check_tiling(const struct ibw_format *f, uint32_t from,
                         uint32_t to)
{
    uint32_t next = from;
    for (size_t i = 0; i < f->nfields; i++) {
        if (f->fields[i].pos != next)
            fprintf(stderr, "%s.%s at bit %u, expected %u\n", f->name,
                    f->fields[i].name, f->fields[i].pos, next);
        TU_EQ(f->fields[i].pos, next);
        next = f->fields[i].pos + f->fields[i].width;
    }
    TU_EQ(next, to);
    TU_EQ(f->width, to);
}

/* A MAD-level format re-encodes its part of `img`: bytes [from, from + n)
 * of a copy are overwritten with 0xAA, encoded over, and must come back. */
#define CHECK_REENCODE_MAD(pfx, s, img, from, n)                             \
    do {                                                                     \
        uint8_t o_[256];                                                     \
        memcpy(o_, img, sizeof o_);                                          \
        memset(o_ + (from), 0xAA, n);                                        \
        TU_EQ(pfx##_encode(&(s), o_, sizeof o_), IBW_OK);                    \
        TU_MEMEQ(o_, img, 256);                                              \
    } while (0)

/* ------------------------------------------------------------------------ */
/* SA GetTableResp, RMPP DATA first segment, PathRecord                      */
/* ------------------------------------------------------------------------ */

static const uint8_t sa_mad[256] = {
    /* 0: BaseVersion 1, MgmtClass 0x03 (SubnAdm), ClassVersion 2,
     *    Method 0x92 (GetTableResp) */
    [0] = 0x01, [1] = 0x03, [2] = 0x02, [3] = 0x92,
    /* 4: Status 0x001C (invalid field), 6: ClassSpecific 0x0102 */
    [5] = 0x1C, [6] = 0x01, [7] = 0x02,
    /* 8: TransactionID 0x0123456789ABCDEF */
    [8] = 0x01, [9] = 0x23, [10] = 0x45, [11] = 0x67,
    [12] = 0x89, [13] = 0xAB, [14] = 0xCD, [15] = 0xEF,
    /* 16: AttributeID 0x0035 (PathRecord); 20: AttributeModifier
     *     0xDEADBEEF */
    [17] = 0x35, [20] = 0xDE, [21] = 0xAD, [22] = 0xBE, [23] = 0xEF,
    /* 24: RMPPVersion 1, RMPPType 1 (DATA) */
    [24] = 0x01, [25] = 0x01,
    /* 26: RRespTime 16 = 10000b in [7:3] -> 0x80, flags ACTIVE|FIRST = 3 */
    [26] = 0x83,
    /* 28: segment number 1; 32: payload length 712 = 0x2C8 */
    [31] = 0x01, [34] = 0x02, [35] = 0xC8,
    /* 36: SM_Key 0x1122334455667788 */
    [36] = 0x11, [37] = 0x22, [38] = 0x33, [39] = 0x44,
    [40] = 0x55, [41] = 0x66, [42] = 0x77, [43] = 0x88,
    /* 44: AttributeOffset 8 (64-byte records) */
    [45] = 0x08,
    /* 48: ComponentMask 0x340C */
    [54] = 0x34, [55] = 0x0C,
    /* 56 + 0: PathRecord ServiceID 0x0000000001060CB6 */
    [60] = 0x01, [61] = 0x06, [62] = 0x0C, [63] = 0xB6,
    /* 56 + 8: DGID fe80::2:c903:0:1895 */
    [64] = 0xFE, [65] = 0x80, [73] = 0x02, [74] = 0xC9, [75] = 0x03,
    [78] = 0x18, [79] = 0x95,
    /* 56 + 24: SGID fe80::2:c902:24:f636 */
    [80] = 0xFE, [81] = 0x80, [89] = 0x02, [90] = 0xC9, [91] = 0x02,
    [93] = 0x24, [94] = 0xF6, [95] = 0x36,
    /* 56 + 40: DLID 2, SLID 4 */
    [97] = 0x02, [99] = 0x04,
    /* 56 + 44: RawTraffic 1 -> 0x80, FlowLabel 0x54321 from bit 4:
     *          low nibble 5, then 0x43, 0x21; 56 + 47: HopLimit 0x40 */
    [100] = 0x85, [101] = 0x43, [102] = 0x21, [103] = 0x40,
    /* 56 + 48: TClass 0x88; 56 + 49: Reversible 1 -> 0x80, NumbPath 3 */
    [104] = 0x88, [105] = 0x83,
    /* 56 + 50: P_Key 0x7FFF */
    [106] = 0x7F, [107] = 0xFF,
    /* 56 + 52: QoSClass 0xABC (12 bits), SL 0xD */
    [108] = 0xAB, [109] = 0xCD,
    /* 56 + 54: MTUSelector 2 -> 0x80, MTU 4; 56 + 55: RateSelector 2,
     *          Rate 6 */
    [110] = 0x84, [111] = 0x86,
    /* 56 + 56: PacketLifeTimeSelector 3 -> 0xC0, PacketLifeTime 0x12;
     * 56 + 57: Preference 1 */
    [112] = 0xD2, [113] = 0x01,
    /* last SA data byte */
    [255] = 0x5E,
};

static void test_sa(void)
{
    struct ibw_mad_hdr h;
    TU_EQ(ibw_mad_hdr_decode(sa_mad, sizeof sa_mad, &h), IBW_OK);
    TU_EQ(h.baseversion, 1);
    TU_EQ(h.mgmtclass, IBW_MGMT_CLASS_SUBN_ADM);
    TU_EQ(h.classversion, 2);
    TU_EQ(h.method, IBW_MAD_METHOD_GET_TABLE_RESP);
    TU_EQ(h.status, IBW_MAD_STATUS_INVALID_FIELD);
    TU_EQ(h.classspecific, 0x0102);
    TU_EQ(h.transactionid, 0x0123456789ABCDEFULL);
    TU_EQ(h.attributeid, IBW_SA_ATTR_PATHRECORD);
    TU_EQ(h.rsvd18, 0);
    TU_EQ(h.attributemodifier, 0xDEADBEEF);
    TU_EQ(ibw_mad_method_is_response(h.method), 1);
    TU_EQ(ibw_mad_status_code(h.status), 7);
    uint8_t out[256];
    memset(out, 0xAA, sizeof out);
    TU_EQ(ibw_mad_hdr_encode(&h, out, sizeof out), IBW_OK);
    TU_MEMEQ(out, sa_mad, 24);
    TU_EQ(out[24], 0xAA); /* the header encoder stops at byte 24 */
    TU_EQ(ibw_mad_hdr_decode(sa_mad, 23, &h), IBW_E_TRUNCATED);

    /* the whole GMP */
    struct ibw_gmp g;
    TU_EQ(ibw_gmp_decode(sa_mad, sizeof sa_mad, &g), IBW_OK);
    TU_EQ(g.attributeid, 0x0035);
    TU_MEMEQ(g.data, sa_mad + 24, 232);
    memset(out, 0xAA, sizeof out);
    TU_EQ(ibw_gmp_encode(&g, out, sizeof out), IBW_OK);
    TU_MEMEQ(out, sa_mad, 256);
    TU_EQ(ibw_gmp_decode(sa_mad, 255, &g), IBW_E_TRUNCATED);

    /* RMPP */
    struct ibw_rmpp r;
    TU_EQ(ibw_rmpp_decode(sa_mad, sizeof sa_mad, &r), IBW_OK);
    TU_EQ(r.rmppversion, 1);
    TU_EQ(r.rmpptype, IBW_RMPP_TYPE_DATA);
    TU_EQ(r.rresptime, 16);
    TU_EQ(r.rmppflags, IBW_RMPP_FLAG_ACTIVE | IBW_RMPP_FLAG_FIRST);
    TU_EQ(r.rmppstatus, IBW_RMPP_STATUS_SUCCESS);
    TU_EQ(r.data1, 1);
    TU_EQ(r.data2, 712);
    CHECK_REENCODE_MAD(ibw_rmpp, r, sa_mad, 24, 12);
    TU_EQ(ibw_rmpp_decode(sa_mad, 35, &r), IBW_E_TRUNCATED);

    /* SA header */
    struct ibw_sa s;
    TU_EQ(ibw_sa_decode(sa_mad, sizeof sa_mad, &s), IBW_OK);
    TU_EQ(s.smkey, 0x1122334455667788ULL);
    TU_EQ(s.attributeoffset, 8);
    TU_EQ(s.rsvd46, 0);
    TU_EQ(s.componentmask, 0x340C);
    TU_EQ(s.componentmask, IBW_PR_COMP_DGID | IBW_PR_COMP_SGID |
                               IBW_PR_COMP_TCLASS | IBW_PR_COMP_NUMBPATH |
                               IBW_PR_COMP_PKEY);
    TU_EQ(s.subnetadmindata[0], 0x00);
    TU_EQ(s.subnetadmindata[199], 0x5E);
    CHECK_REENCODE_MAD(ibw_sa, s, sa_mad, 36, 220);

    /* PathRecord at SA data */
    struct ibw_pathrecord p;
    TU_EQ(ibw_pathrecord_decode(sa_mad + 56, 200, &p), IBW_OK);
    TU_EQ(p.serviceid, 0x0000000001060CB6ULL);
    TU_EQ(p.dgid[0], 0xFE);
    TU_EQ(p.dgid[15], 0x95);
    TU_EQ(p.sgid[15], 0x36);
    TU_EQ(p.dlid, 2);
    TU_EQ(p.slid, 4);
    TU_EQ(p.rawtraffic, 1);
    TU_EQ(p.rsvd44, 0);
    TU_EQ(p.flowlabel, 0x54321);
    TU_EQ(p.hoplimit, 0x40);
    TU_EQ(p.tclass, 0x88);
    TU_EQ(p.reversible, 1);
    TU_EQ(p.numbpath, 3);
    TU_EQ(p.p_key, 0x7FFF);
    TU_EQ(p.qosclass, 0xABC);
    TU_EQ(p.sl, 0xD);
    TU_EQ(p.mtuselector, 2);
    TU_EQ(p.mtu, 4);
    TU_EQ(p.rateselector, 2);
    TU_EQ(p.rate, 6);
    TU_EQ(p.packetlifetimeselector, 3);
    TU_EQ(p.packetlifetime, 0x12);
    TU_EQ(p.preference, 1);
    TU_EQ(p.rsvd58, 0);
    uint8_t rec[64];
    memset(rec, 0xAA, sizeof rec);
    TU_EQ(ibw_pathrecord_encode(&p, rec, sizeof rec), IBW_OK);
    TU_MEMEQ(rec, sa_mad + 56, 64);
    TU_EQ(ibw_pathrecord_decode(sa_mad + 56, 63, &p), IBW_E_TRUNCATED);

    /* the dispatcher: GMP, RMPP, SA, then the first record */
    struct ibw_mad_view v;
    TU_EQ(ibw_mad_decode(sa_mad, sizeof sa_mad, &v), IBW_OK);
    TU_CHECK(v.err_field == NULL);
    TU_EQ(v.kind, IBW_MAD_KIND_SA);
    TU_EQ(v.nlayers, 4);
    TU_CHECK(strcmp(v.layers[0].fmt->name, "mad") == 0);
    TU_CHECK(strcmp(v.layers[1].fmt->name, "rmpp") == 0);
    TU_CHECK(strcmp(v.layers[2].fmt->name, "sa") == 0);
    TU_CHECK(strcmp(v.layers[3].fmt->name, "pathrecord") == 0);
    TU_EQ(v.layers[3].off, 56);
    TU_EQ(v.attr.pathrecord.packetlifetime, 0x12);
    TU_EQ(v.attr.pathrecord.qosclass, 0xABC);

    /* a later RMPP segment carries no record start */
    uint8_t seg2[256];
    memcpy(seg2, sa_mad, sizeof seg2);
    seg2[26] = 0x81; /* ACTIVE only */
    seg2[31] = 0x02; /* segment 2 */
    TU_EQ(ibw_mad_decode(seg2, sizeof seg2, &v), IBW_OK);
    TU_EQ(v.nlayers, 3);
    TU_CHECK(v.attr_fmt == NULL);
    /* an ACK carries none either */
    seg2[25] = IBW_RMPP_TYPE_ACK;
    seg2[31] = 0x01;
    TU_EQ(ibw_mad_decode(seg2, sizeof seg2, &v), IBW_OK);
    TU_CHECK(v.attr_fmt == NULL);

    check_tiling(ibw_mad_hdr_format(), 0, 24 * 8);
    check_tiling(ibw_gmp_format(), 0, 256 * 8);
    check_tiling(ibw_rmpp_format(), 24 * 8, 36 * 8);
    check_tiling(ibw_sa_format(), 36 * 8, 256 * 8);
    check_tiling(ibw_pathrecord_format(), 0, 64 * 8);
}

/* ------------------------------------------------------------------------ */
/* LID-routed SMP GetResp(PortInfo), NodeInfo                                */
/* ------------------------------------------------------------------------ */

static const uint8_t smp_portinfo[256] = {
    /* 0: BaseVersion 1, class 0x01 (LID routed), ClassVersion 1,
     *    Method 0x81 (GetResp) */
    [0] = 0x01, [1] = 0x01, [2] = 0x01, [3] = 0x81,
    /* 8: TransactionID 0x00000000000000A5 */
    [15] = 0xA5,
    /* 16: AttributeID 0x0015 (PortInfo); 20: AttributeModifier 1 (port) */
    [17] = 0x15, [23] = 0x01,
    /* 24: M_Key 0x0102030405060708 */
    [24] = 0x01, [25] = 0x02, [26] = 0x03, [27] = 0x04,
    [28] = 0x05, [29] = 0x06, [30] = 0x07, [31] = 0x08,
    /* 64 + 0: PortInfo M_Key 0xAAAABBBBCCCCDDDD */
    [64] = 0xAA, [65] = 0xAA, [66] = 0xBB, [67] = 0xBB,
    [68] = 0xCC, [69] = 0xCC, [70] = 0xDD, [71] = 0xDD,
    /* 64 + 8: GidPrefix 0xFE80000000000000 */
    [72] = 0xFE, [73] = 0x80,
    /* 64 + 16: LID 4, MasterSMLID 1 */
    [81] = 0x04, [83] = 0x01,
    /* 64 + 20: CapabilityMask 0x0251086A */
    [84] = 0x02, [85] = 0x51, [86] = 0x08, [87] = 0x6A,
    /* 64 + 24: DiagCode 0x1234, M_KeyLeasePeriod 15 */
    [88] = 0x12, [89] = 0x34, [91] = 0x0F,
    /* 64 + 28: LocalPortNum 1, LinkWidthEnabled 3, Supported 3, Active 2 */
    [92] = 0x01, [93] = 0x03, [94] = 0x03, [95] = 0x02,
    /* 64 + 32: LinkSpeedSupported 7 -> 0x70, PortState 4 (active) */
    [96] = 0x74,
    /* 64 + 33: PortPhysicalState 5 -> 0x50, LinkDownDefaultState 2 */
    [97] = 0x52,
    /* 64 + 34: M_KeyProtectBits 1 in [7:6] -> 0x40, LMC 3 in [2:0] */
    [98] = 0x43,
    /* 64 + 35: LinkSpeedActive 4 -> 0x40, LinkSpeedEnabled 7 */
    [99] = 0x47,
    /* 64 + 36: NeighborMTU 5 -> 0x50, MasterSMSL 1 */
    [100] = 0x51,
    /* 64 + 37: VLCap 4 -> 0x40, InitType 2 */
    [101] = 0x42,
    /* 64 + 38: VLHighLimit 8, VLArbHighCap 0x10, VLArbLowCap 0x20 */
    [102] = 0x08, [103] = 0x10, [104] = 0x20,
    /* 64 + 41: InitTypeReply 3 -> 0x30, MTUCap 5 */
    [105] = 0x35,
    /* 64 + 42: VLStallCount 7 in [7:5] -> 0xE0, HOQLife 0x13 */
    [106] = 0xF3,
    /* 64 + 43: OperationalVLs 4 -> 0x40, PartEnfIn 1 -> 0x08,
     *          PartEnfOut 1 -> 0x04, FilterRawIn 0, FilterRawOut 1 */
    [107] = 0x4D,
    /* 64 + 44: M_KeyViolations 0x0102, P_KeyViolations 0x0304,
     *          Q_KeyViolations 0x0506 */
    [108] = 0x01, [109] = 0x02, [110] = 0x03, [111] = 0x04,
    [112] = 0x05, [113] = 0x06,
    /* 64 + 50: GUIDCap 0x20 */
    [114] = 0x20,
    /* 64 + 51: ClientReregister 1 -> 0x80, McastPKeyTrapSuppress 2 in
     *          [6:5] -> 0x40, SubnetTimeOut 0x12 in [4:0] */
    [115] = 0xD2,
    /* 64 + 52: RespTimeValue 0x10 in [4:0]; 64 + 53: LocalPhyErrors 8,
     *          OverrunErrors 8 */
    [116] = 0x10, [117] = 0x88,
    /* 64 + 54: MaxCreditHint 0x0100 */
    [118] = 0x01,
    /* 64 + 57: LinkRoundTripLatency 0x00ABCD */
    [122] = 0xAB, [123] = 0xCD,
    /* 64 + 60: CapabilityMask2 0x8421 */
    [124] = 0x84, [125] = 0x21,
    /* 64 + 62: LinkSpeedExtActive 1 -> 0x10, Supported 3;
     * 64 + 63: LinkSpeedExtEnabled 0x1E in [4:0] */
    [126] = 0x13, [127] = 0x1E,
};

static void test_smp_lid(void)
{
    struct ibw_smp_lid s;
    TU_EQ(ibw_smp_lid_decode(smp_portinfo, sizeof smp_portinfo, &s), IBW_OK);
    TU_EQ(s.mkey, 0x0102030405060708ULL);
    TU_EQ(s.rsvd32[0], 0);
    TU_EQ(s.smpdata[0], 0xAA);
    TU_EQ(s.smpdata[63], 0x1E);
    CHECK_REENCODE_MAD(ibw_smp_lid, s, smp_portinfo, 24, 232);

    struct ibw_portinfo p;
    TU_EQ(ibw_portinfo_decode(smp_portinfo + 64, 64, &p), IBW_OK);
    TU_EQ(p.m_key, 0xAAAABBBBCCCCDDDDULL);
    TU_EQ(p.gidprefix, 0xFE80000000000000ULL);
    TU_EQ(p.lid, 4);
    TU_EQ(p.mastersmlid, 1);
    TU_EQ(p.capabilitymask, 0x0251086A);
    TU_EQ(p.diagcode, 0x1234);
    TU_EQ(p.m_keyleaseperiod, 15);
    TU_EQ(p.localportnum, 1);
    TU_EQ(p.linkwidthenabled, 3);
    TU_EQ(p.linkwidthsupported, 3);
    TU_EQ(p.linkwidthactive, 2);
    TU_EQ(p.linkspeedsupported, 7);
    TU_EQ(p.portstate, 4);
    TU_EQ(p.portphysicalstate, 5);
    TU_EQ(p.linkdowndefaultstate, 2);
    TU_EQ(p.m_keyprotectbits, 1);
    TU_EQ(p.rsvd34, 0);
    TU_EQ(p.lmc, 3);
    TU_EQ(p.linkspeedactive, 4);
    TU_EQ(p.linkspeedenabled, 7);
    TU_EQ(p.neighbormtu, 5);
    TU_EQ(p.mastersmsl, 1);
    TU_EQ(p.vlcap, 4);
    TU_EQ(p.inittype, 2);
    TU_EQ(p.vlhighlimit, 8);
    TU_EQ(p.vlarbitrationhighcap, 0x10);
    TU_EQ(p.vlarbitrationlowcap, 0x20);
    TU_EQ(p.inittypereply, 3);
    TU_EQ(p.mtucap, 5);
    TU_EQ(p.vlstallcount, 7);
    TU_EQ(p.hoqlife, 0x13);
    TU_EQ(p.operationalvls, 4);
    TU_EQ(p.partitionenforcementinbound, 1);
    TU_EQ(p.partitionenforcementoutbound, 1);
    TU_EQ(p.filterrawinbound, 0);
    TU_EQ(p.filterrawoutbound, 1);
    TU_EQ(p.m_keyviolations, 0x0102);
    TU_EQ(p.p_keyviolations, 0x0304);
    TU_EQ(p.q_keyviolations, 0x0506);
    TU_EQ(p.guidcap, 0x20);
    TU_EQ(p.clientreregister, 1);
    TU_EQ(p.mcastpkeytrapsuppress, 2);
    TU_EQ(p.subnettimeout, 0x12);
    TU_EQ(p.resptimevalue, 0x10);
    TU_EQ(p.localphyerrors, 8);
    TU_EQ(p.overrunerrors, 8);
    TU_EQ(p.maxcredithint, 0x0100);
    TU_EQ(p.linkroundtriplatency, 0x00ABCD);
    TU_EQ(p.capabilitymask2, 0x8421);
    TU_EQ(p.linkspeedextactive, 1);
    TU_EQ(p.linkspeedextsupported, 3);
    TU_EQ(p.linkspeedextenabled, 0x1E);
    uint8_t rec[64];
    memset(rec, 0xAA, sizeof rec);
    TU_EQ(ibw_portinfo_encode(&p, rec, sizeof rec), IBW_OK);
    TU_MEMEQ(rec, smp_portinfo + 64, 64);

    struct ibw_mad_view v;
    TU_EQ(ibw_mad_decode(smp_portinfo, sizeof smp_portinfo, &v), IBW_OK);
    TU_EQ(v.kind, IBW_MAD_KIND_SMP_LID);
    TU_EQ(v.nlayers, 3);
    TU_CHECK(strcmp(v.layers[1].fmt->name, "smplid") == 0);
    TU_CHECK(strcmp(v.layers[2].fmt->name, "portinfo") == 0);
    TU_EQ(v.layers[2].off, 64);
    TU_EQ(v.attr.portinfo.hoqlife, 0x13);

    check_tiling(ibw_smp_lid_format(), 24 * 8, 256 * 8);
    check_tiling(ibw_portinfo_format(), 0, 64 * 8);

    /* NodeInfo of a CA, written out: */
    static const uint8_t nodeinfo[40] = {
        0x01, 0x01, 0x01, 0x02, /* BaseVersion 1, ClassVersion 1,
                                   NodeType 1 (CA), NumPorts 2 */
        0x00, 0x02, 0xC9, 0x03, 0x00, 0xA1, 0xB2, 0xC3, /* SystemImageGUID */
        0x00, 0x02, 0xC9, 0x03, 0x00, 0xA1, 0xB2, 0xC0, /* NodeGUID */
        0x00, 0x02, 0xC9, 0x03, 0x00, 0xA1, 0xB2, 0xC1, /* PortGUID */
        0x00, 0x80,             /* PartitionCap 128 */
        0x10, 0x03,             /* DeviceID 0x1003 */
        0x00, 0x00, 0x00, 0xB0, /* Revision 0xB0 */
        0x01,                   /* LocalPortNum 1 */
        0x00, 0x02, 0xC9        /* VendorID 0x0002C9 */
    };
    struct ibw_nodeinfo n;
    TU_EQ(ibw_nodeinfo_decode(nodeinfo, sizeof nodeinfo, &n), IBW_OK);
    TU_EQ(n.baseversion, 1);
    TU_EQ(n.classversion, 1);
    TU_EQ(n.nodetype, 1);
    TU_EQ(n.numports, 2);
    TU_EQ(n.systemimageguid, 0x0002C90300A1B2C3ULL);
    TU_EQ(n.nodeguid, 0x0002C90300A1B2C0ULL);
    TU_EQ(n.portguid, 0x0002C90300A1B2C1ULL);
    TU_EQ(n.partitioncap, 128);
    TU_EQ(n.deviceid, 0x1003);
    TU_EQ(n.revision, 0xB0);
    TU_EQ(n.localportnum, 1);
    TU_EQ(n.vendorid, 0x0002C9);
    uint8_t nout[40];
    TU_EQ(ibw_nodeinfo_encode(&n, nout, sizeof nout), IBW_OK);
    TU_MEMEQ(nout, nodeinfo, 40);
    check_tiling(ibw_nodeinfo_format(), 0, 40 * 8);

    /* the dispatcher finds NodeInfo in a LID-routed SMP too */
    uint8_t mad[256];
    memcpy(mad, smp_portinfo, sizeof mad);
    mad[17] = 0x11;
    memcpy(mad + 64, nodeinfo, sizeof nodeinfo);
    memset(mad + 104, 0, 24);
    TU_EQ(ibw_mad_decode(mad, sizeof mad, &v), IBW_OK);
    TU_CHECK(strcmp(v.attr_fmt->name, "nodeinfo") == 0);
    TU_EQ(v.attr.nodeinfo.vendorid, 0x0002C9);
}

/* ------------------------------------------------------------------------ */
/* Directed-route SMP GetResp(SMInfo)                                        */
/* ------------------------------------------------------------------------ */

static const uint8_t smp_dr[256] = {
    /* 0: BaseVersion 1, class 0x81 (directed route), ClassVersion 1,
     *    Method 0x81 (GetResp) */
    [0] = 0x01, [1] = 0x81, [2] = 0x01, [3] = 0x81,
    /* 4: D 1 (returning) in bit 15, Status 0x001C in the low 15 bits
     *    -> 0x801C; 6: HopPointer 2, 7: HopCount 3 */
    [4] = 0x80, [5] = 0x1C, [6] = 0x02, [7] = 0x03,
    /* 8: TransactionID 0x0001509C000125C8 */
    [9] = 0x01, [10] = 0x50, [11] = 0x9C, [13] = 0x01, [14] = 0x25,
    [15] = 0xC8,
    /* 16: AttributeID 0x0020 (SMInfo) */
    [17] = 0x20,
    /* 24: M_Key 0xFFFFFFFFFFFFFFFE */
    [24] = 0xFF, [25] = 0xFF, [26] = 0xFF, [27] = 0xFF,
    [28] = 0xFF, [29] = 0xFF, [30] = 0xFF, [31] = 0xFE,
    /* 32: DrSLID 0xFFFF (permissive), 34: DrDLID 0x0005 */
    [32] = 0xFF, [33] = 0xFF, [35] = 0x05,
    /* 64: SMInfo GUID 0x0002C9020020B4DD */
    [65] = 0x02, [66] = 0xC9, [67] = 0x02, [69] = 0x20, [70] = 0xB4,
    [71] = 0xDD,
    /* 72: SM_Key 0x0102030405060708 */
    [72] = 0x01, [73] = 0x02, [74] = 0x03, [75] = 0x04,
    [76] = 0x05, [77] = 0x06, [78] = 0x07, [79] = 0x08,
    /* 80: ActCount 0x0000923A; 84: Priority 0xA -> 0xA0, SMState 3 */
    [82] = 0x92, [83] = 0x3A, [84] = 0xA3,
    /* 128: InitialPath: entry 0 unused, hops out of ports 2, 3, 4 */
    [129] = 0x02, [130] = 0x03, [131] = 0x04,
    /* 192: ReturnPath: hops back in through ports 6, 1, 5 */
    [193] = 0x06, [194] = 0x01, [195] = 0x05,
};

static void test_smp_dr(void)
{
    struct ibw_smp_dr s;
    TU_EQ(ibw_smp_dr_decode(smp_dr, sizeof smp_dr, &s), IBW_OK);
    TU_EQ(s.d, 1);
    TU_EQ(s.smpstatus, 0x001C);
    TU_EQ(s.hoppointer, 2);
    TU_EQ(s.hopcount, 3);
    TU_EQ(s.mkey, 0xFFFFFFFFFFFFFFFEULL);
    TU_EQ(s.drslid, IBW_SMP_DR_PERMISSIVE_LID);
    TU_EQ(s.drdlid, 5);
    TU_EQ(s.rsvd36[27], 0);
    TU_EQ(s.smpdata[0], 0x00);
    TU_EQ(s.smpdata[20], 0xA3);
    TU_EQ(s.initialpath[0], 0);
    TU_EQ(s.initialpath[1], 2);
    TU_EQ(s.initialpath[3], 4);
    TU_EQ(s.returnpath[1], 6);
    TU_EQ(s.returnpath[3], 5);
    /* the same bytes through the common header */
    TU_EQ(ibw_mad_hdr_get_status(smp_dr), 0x801C);
    TU_EQ(ibw_mad_hdr_get_classspecific(smp_dr), 0x0203);
    uint8_t out[256];
    memcpy(out, smp_dr, sizeof out);
    memset(out + 4, 0xAA, 4);
    memset(out + 24, 0xAA, 232);
    TU_EQ(ibw_smp_dr_encode(&s, out, sizeof out), IBW_OK);
    TU_MEMEQ(out, smp_dr, 256);

    struct ibw_sminfo i;
    TU_EQ(ibw_sminfo_decode(smp_dr + 64, 64, &i), IBW_OK);
    TU_EQ(i.guid, 0x0002C9020020B4DDULL);
    TU_EQ(i.sm_key, 0x0102030405060708ULL);
    TU_EQ(i.actcount, 0x923A);
    TU_EQ(i.priority, 0xA);
    TU_EQ(i.smstate, 3);
    uint8_t rec[21];
    TU_EQ(ibw_sminfo_encode(&i, rec, sizeof rec), IBW_OK);
    TU_MEMEQ(rec, smp_dr + 64, 21);
    TU_EQ(ibw_sminfo_decode(smp_dr + 64, 20, &i), IBW_E_TRUNCATED);

    struct ibw_mad_view v;
    TU_EQ(ibw_mad_decode(smp_dr, sizeof smp_dr, &v), IBW_OK);
    TU_EQ(v.kind, IBW_MAD_KIND_SMP_DR);
    TU_EQ(v.nlayers, 3);
    TU_CHECK(strcmp(v.layers[1].fmt->name, "smpdirected") == 0);
    TU_CHECK(strcmp(v.layers[2].fmt->name, "sminfo") == 0);
    TU_EQ(v.attr.sminfo.actcount, 0x923A);

    /* D bit and status tile bytes 4..7 with the hop fields; 24..255 the
     * rest */
    const struct ibw_format *f = ibw_smp_dr_format();
    TU_EQ(f->fields[0].pos, 32);
    TU_EQ(f->fields[3].pos + f->fields[3].width, 64);
    TU_EQ(f->fields[4].pos, 24 * 8);
    check_tiling(ibw_sminfo_format(), 0, 21 * 8);
}

/* ------------------------------------------------------------------------ */
/* Vendor range 2, ClassPortInfo on the CM class                             */
/* ------------------------------------------------------------------------ */

static void test_vendor(void)
{
    static const uint8_t mad[256] = {
        /* class 0x30 (vendor range 2), class version 1, method 0x7F
         * (vendor-defined) */
        [0] = 0x01, [1] = 0x30, [2] = 0x01, [3] = 0x7F,
        [17] = 0x10, /* AttributeID 0x0010 */
        /* 37: OUI 0x001405 (OpenIB) */
        [38] = 0x14, [39] = 0x05,
        /* 40: data */
        [40] = 0x42, [255] = 0x24,
    };
    struct ibw_vendor_mad m;
    TU_EQ(ibw_vendor_mad_decode(mad, sizeof mad, &m), IBW_OK);
    TU_EQ(m.rsvd36, 0);
    TU_EQ(m.oui, 0x001405);
    TU_EQ(m.data[0], 0x42);
    TU_EQ(m.data[215], 0x24);
    CHECK_REENCODE_MAD(ibw_vendor_mad, m, mad, 36, 220);
    struct ibw_mad_view v;
    TU_EQ(ibw_mad_decode(mad, sizeof mad, &v), IBW_OK);
    TU_EQ(v.kind, IBW_MAD_KIND_VENDOR2);
    TU_EQ(v.nlayers, 3);
    TU_CHECK(strcmp(v.layers[2].fmt->name, "vendor") == 0);
    TU_CHECK(strcmp(ibw_mad_method_name(0x30, 0x7F), "vendor-defined") == 0);
    check_tiling(ibw_vendor_mad_format(), 36 * 8, 256 * 8);
}

static void test_classportinfo(void)
{
    static const uint8_t mad[256] = {
        /* CM class, GetResp, attribute ClassPortInfo */
        [0] = 0x01, [1] = 0x07, [2] = 0x02, [3] = 0x81, [17] = 0x01,
        /* 24 + 0: BaseVersion 1, ClassVersion 2, CapabilityMask 0x0602 */
        [24] = 0x01, [25] = 0x02, [26] = 0x06, [27] = 0x02,
        /* 24 + 4: CapabilityMask2 0x123 (27 bits) << 5 | RespTimeValue
         *         0x12 = 0x00002472 */
        [30] = 0x24, [31] = 0x72,
        /* 24 + 8: RedirectGID fe80::33 */
        [32] = 0xFE, [33] = 0x80, [47] = 0x33,
        /* 24 + 24: RedirectTC 0x11; 24 + 25: RedirectSL 0xA and
         *          RedirectFL 0x12345 = 0xA12345 */
        [48] = 0x11, [49] = 0xA1, [50] = 0x23, [51] = 0x45,
        /* 24 + 28: RedirectLID 7, RedirectP_Key 0xFFFF */
        [53] = 0x07, [54] = 0xFF, [55] = 0xFF,
        /* 24 + 33: RedirectQP 1; 24 + 36: RedirectQ_Key 0x80010000 */
        [59] = 0x01, [60] = 0x80, [61] = 0x01,
        /* 24 + 40: TrapGID fe80::44 */
        [64] = 0xFE, [65] = 0x80, [79] = 0x44,
        /* 24 + 56: TrapTC 0x22; TrapSL 5 and TrapFL 0xABCDE = 0x5ABCDE */
        [80] = 0x22, [81] = 0x5A, [82] = 0xBC, [83] = 0xDE,
        /* 24 + 60: TrapLID 9, TrapP_Key 0x7FFF */
        [85] = 0x09, [86] = 0x7F, [87] = 0xFF,
        /* 24 + 64: TrapHL 0x40, TrapQP 1, TrapQ_Key 0x80010000 */
        [88] = 0x40, [91] = 0x01, [92] = 0x80, [93] = 0x01,
    };
    struct ibw_classportinfo c;
    TU_EQ(ibw_classportinfo_decode(mad + 24, 232, &c), IBW_OK);
    TU_EQ(c.baseversion, 1);
    TU_EQ(c.classversion, 2);
    TU_EQ(c.capabilitymask, 0x0602);
    TU_EQ(c.capabilitymask2, 0x123);
    TU_EQ(c.resptimevalue, 0x12);
    TU_EQ(c.redirectgid[15], 0x33);
    TU_EQ(c.redirecttc, 0x11);
    TU_EQ(c.redirectsl, 0xA);
    TU_EQ(c.redirectfl, 0x12345);
    TU_EQ(c.redirectlid, 7);
    TU_EQ(c.redirectpkey, 0xFFFF);
    TU_EQ(c.rsvd32, 0);
    TU_EQ(c.redirectqp, 1);
    TU_EQ(c.redirectqkey, IBW_QP1_QKEY);
    TU_EQ(c.trapgid[15], 0x44);
    TU_EQ(c.traptc, 0x22);
    TU_EQ(c.trapsl, 5);
    TU_EQ(c.trapfl, 0xABCDE);
    TU_EQ(c.traplid, 9);
    TU_EQ(c.trappkey, 0x7FFF);
    TU_EQ(c.traphl, 0x40);
    TU_EQ(c.trapqp, 1);
    TU_EQ(c.trapqkey, IBW_QP1_QKEY);
    uint8_t rec[72] = {0};
    TU_EQ(ibw_classportinfo_encode(&c, rec, sizeof rec), IBW_OK);
    TU_MEMEQ(rec, mad + 24, 72);
    check_tiling(ibw_classportinfo_format(), 0, 72 * 8);

    struct ibw_mad_view v;
    TU_EQ(ibw_mad_decode(mad, sizeof mad, &v), IBW_OK);
    TU_EQ(v.kind, IBW_MAD_KIND_CM);
    TU_CHECK(strcmp(v.attr_fmt->name, "classportinfo") == 0);
    TU_EQ(v.attr.classportinfo.trapfl, 0xABCDE);
}

/* ------------------------------------------------------------------------ */
/* Notice: an SMP Trap and an SA Report                                      */
/* ------------------------------------------------------------------------ */

/* Trap 128 (link state change) from switch LID 5, written at `at`:
 * 0: IsGeneric 1, Type 1 (urgent) = 0x81; 1: ProducerType 2 (switch);
 * 4: TrapNumber 128; 6: IssuerLID 5; 8: NoticeToggle 1, NoticeCount 0x123
 * = 0x8123; 10: DataDetails, whose first 16 bits are trap 128's LIDADDR
 * (7 here), its last byte 0x5A to mark the end. */
static void put_trap128(uint8_t *at)
{
    at[0] = 0x81;
    at[3] = 0x02;
    at[5] = 0x80;
    at[7] = 0x05;
    at[8] = 0x81;
    at[9] = 0x23;
    at[11] = 0x07;
    at[63] = 0x5A;
}

static void test_notice(void)
{
    uint8_t smp[256] = {
        /* LID-routed SMP, Trap (0x05), attribute Notice */
        [0] = 0x01, [1] = 0x01, [2] = 0x01, [3] = 0x05, [17] = 0x02,
    };
    put_trap128(smp + 64);
    const uint8_t *n = smp + IBW_SMP_DATA_OFFSET;
    TU_EQ(ibw_notice_get_isgeneric(n), 1);
    TU_EQ(ibw_notice_get_type(n), 1);
    TU_EQ(ibw_notice_get_producertypevendorid(n), 2);
    TU_EQ(ibw_notice_get_trapnumberdeviceid(n), 128);
    TU_EQ(ibw_notice_get_issuerlid(n), 5);
    TU_EQ(ibw_notice_get_noticetoggle(n), 1);
    TU_EQ(ibw_notice_get_noticecount(n), 0x123);
    const struct ibw_field *d =
        ibw_format_field(ibw_notice_format(), "datadetails");
    TU_EQ(d->pos, 10 * 8);
    TU_EQ(d->width, 54 * 8);
    /* the details run to the SMP data's last byte */
    TU_EQ(smp[64 + d->pos / 8 + 1], 0x07);
    TU_EQ(d->pos / 8 + d->width / 8, IBW_SMP_DATA_SIZE);
    check_tiling(ibw_notice_format(), 0, 80 * 8);
    /* all 80 bytes do not fit an SMP */
    struct ibw_notice nt;
    TU_EQ(ibw_notice_decode(n, IBW_SMP_DATA_SIZE, &nt), IBW_E_TRUNCATED);

    uint8_t sa[256] = {
        /* SubnAdm Report (0x06), attribute Notice; no RMPP */
        [0] = 0x01, [1] = 0x03, [2] = 0x02, [3] = 0x06, [17] = 0x02,
        /* 56 + 64: IssuerGID fe80::5 */
        [120] = 0xFE, [121] = 0x80, [135] = 0x05,
    };
    put_trap128(sa + 56);
    TU_EQ(ibw_sa_record_rid_size(IBW_MAD_ATTR_NOTICE), 0);
    TU_EQ(ibw_notice_decode(sa + IBW_SA_DATA_OFFSET, IBW_SA_DATA_SIZE, &nt),
          IBW_OK);
    TU_EQ(nt.isgeneric, 1);
    TU_EQ(nt.type, 1);
    TU_EQ(nt.producertypevendorid, 2);
    TU_EQ(nt.trapnumberdeviceid, 128);
    TU_EQ(nt.issuerlid, 5);
    TU_EQ(nt.noticetoggle, 1);
    TU_EQ(nt.noticecount, 0x123);
    TU_EQ(nt.datadetails[1], 0x07);
    TU_EQ(nt.datadetails[53], 0x5A);
    TU_EQ(nt.issuergid[0], 0xFE);
    TU_EQ(nt.issuergid[15], 0x05);
    uint8_t back[80] = {0};
    TU_EQ(ibw_notice_encode(&nt, back, sizeof back), IBW_OK);
    TU_MEMEQ(back, sa + 56, 80);
    TU_CHECK(strcmp(ibw_mad_attr_name(0x01, IBW_SMP_ATTR_NOTICE), "Notice") == 0);
}

/* SA records: the SMP attribute behind the record ID (IBA 15.2.5), the
 * PerfMgt attribute behind the 40 reserved bytes (16.1.3). */
static void test_record_ids(void)
{
    uint8_t mad[256] = {
        /* SMInfoRecord: 56: LID 0x0012, 2 reserved bytes; 60: SMInfo GUID
         * 0x0002C90300001234 */
        [57] = 0x12, [61] = 0x02, [62] = 0xC9, [63] = 0x03, [66] = 0x12,
        [67] = 0x34,
    };
    int rid = ibw_sa_record_rid_size(IBW_SA_ATTR_SMINFORECORD);
    TU_EQ(rid, 4);
    TU_EQ(ibw_sminfo_get_guid(mad + IBW_SA_DATA_OFFSET + rid),
          0x0002C90300001234ULL);
    /* NodeRecord, PortInfoRecord: the same 4-byte record ID */
    TU_EQ(ibw_sa_record_rid_size(IBW_SA_ATTR_NODERECORD), 4);
    TU_EQ(ibw_sa_record_rid_size(IBW_SA_ATTR_PORTINFORECORD), 4);

    /* LinearForwardingTableRecord: 56: LID 0x0012, 58: BlockNum 3,
     * 60: 4 reserved bytes; 64: the block, port 9 for its first LID */
    memset(mad, 0, sizeof mad);
    mad[57] = 0x12;
    mad[59] = 0x03;
    mad[64] = 0x09;
    rid = ibw_sa_record_rid_size(IBW_SA_ATTR_LINEARFORWARDINGTABLERECORD);
    TU_EQ(rid, 8);
    TU_EQ(mad[IBW_SA_DATA_OFFSET + rid], 0x09);
    TU_EQ(ibw_sa_record_rid_size(IBW_SA_ATTR_SLTOVLMAPPINGTABLERECORD), 8);
    TU_EQ(ibw_sa_record_rid_size(IBW_SA_ATTR_VLARBITRATIONTABLERECORD), 8);
    TU_EQ(ibw_sa_record_rid_size(IBW_SA_ATTR_RANDOMFORWARDINGTABLERECORD), 8);
    TU_EQ(ibw_sa_record_rid_size(IBW_SA_ATTR_MULTICASTFORWARDINGTABLERECORD),
          8);
    TU_EQ(ibw_sa_record_rid_size(IBW_SA_ATTR_PATHRECORD), -1);

    /* PerfMgt: the 24-byte common header, then 40 reserved bytes */
    TU_EQ(IBW_PERF_DATA_OFFSET, 64);

    /* sizes summed from the IBA tables: InformInfo GID 16, LIDRangeBegin
     * and End 4, reserved 2, IsGeneric 1, Subscribe 1, Type 2, TrapNumber 2,
     * QPN/RespTimeValue 4, reserved and ProducerType 4; ServiceRecord
     * ServiceID 8, GID 16, P_Key 2, reserved 2, Lease 4, Key 16, Name 64,
     * Data 64; ServiceAssociationRecord Key 16, Name 64 */
    TU_EQ(IBW_INFORMINFO_SIZE, 16 + 4 + 2 + 1 + 1 + 2 + 2 + 4 + 4);
    TU_EQ(IBW_SERVICERECORD_SIZE, 8 + 16 + 2 + 2 + 4 + 16 + 64 + 64);
    TU_EQ(IBW_SERVICEASSOCIATIONRECORD_SIZE, 16 + 64);
}

/* PortInfo CapabilityMask 0x02010008 (IsTrapSupported 2^3,
 * IsCommunicationManagementSupported 2^16, IsClientReregistrationSupported
 * 2^25, IBA 14.2.5.6). */
static void test_capability_bits(void)
{
    uint32_t mask = 0x02010008u;
    TU_EQ(ibw_portinfo_capability(mask, IBW_PI_CAP_BIT_trapsupported), 1);
    TU_EQ(ibw_portinfo_capability(
              mask, IBW_PI_CAP_BIT_communicationmanagementsupported), 1);
    TU_EQ(ibw_portinfo_capability(
              mask, IBW_PI_CAP_BIT_clientregistrationsupported), 1);
    unsigned set = 0;
#define COUNT_SET(name, bit, meaning)                                        \
    set += ibw_portinfo_capability(mask, IBW_PI_CAP_BIT_##name);
    IBW_PORTINFO_CAPABILITIES(COUNT_SET)
#undef COUNT_SET
    TU_EQ(set, 3);
    TU_EQ(IBW_PI_CAP_BIT_issm, 1);
    TU_EQ(IBW_PI_CAP_BIT_linkspeedwidthpairstablesupported, 27);
}

/* ------------------------------------------------------------------------ */
/* Builders                                                                 */
/* ------------------------------------------------------------------------ */

static void test_builders(void)
{
    /* SubnAdmGet(PathRecord), TID 0xBB9647F9E, written by hand: */
    static const uint8_t want[24] = {
        0x01, 0x03, 0x02, 0x01,                         /* SA Get */
        0x00, 0x00, 0x00, 0x00,                         /* status, cs */
        0x00, 0x00, 0x00, 0x0B, 0xB9, 0x64, 0x7F, 0x9E, /* TID */
        0x00, 0x35, 0x00, 0x00,                         /* PathRecord */
        0x00, 0x00, 0x00, 0x00};
    uint8_t mad[256];
    memset(mad, 0xAA, sizeof mad);
    TU_EQ(ibw_mad_hdr_fill(mad, sizeof mad, IBW_MGMT_CLASS_SUBN_ADM, 2,
                           IBW_MAD_METHOD_GET, 0x0000000BB9647F9EULL,
                           IBW_SA_ATTR_PATHRECORD, 0), IBW_OK);
    TU_MEMEQ(mad, want, 24);
    for (size_t i = 24; i < 256; i++)
        TU_EQ(mad[i], 0);
    TU_EQ(ibw_mad_hdr_fill(mad, 255, 3, 2, 1, 0, 0x35, 0), IBW_E_NOSPACE);

    TU_EQ(ibw_mad_make_response(mad, sizeof mad, 0), IBW_OK);
    TU_EQ(mad[3], 0x81);
    TU_EQ(ibw_mad_make_response(mad, 23, 0), IBW_E_TRUNCATED);
    TU_EQ(ibw_mad_response_method(IBW_MAD_METHOD_SET), 0x81);
    TU_EQ(ibw_mad_response_method(IBW_MAD_METHOD_GET_TABLE), 0x92);
    TU_EQ(ibw_mad_response_method(IBW_MAD_METHOD_TRAP), 0x07);
    TU_EQ(ibw_mad_response_method(IBW_MAD_METHOD_GET_TRACE_TABLE), 0x92);
    TU_EQ(ibw_mad_response_method(IBW_MAD_METHOD_REPORT), 0x86);

    /* a directed-route SubnGet becomes a returning GetResp: D bit set,
     * status 0x0004 in the low 15 bits -> bytes 4..5 = 80 04 */
    TU_EQ(ibw_mad_hdr_fill(mad, sizeof mad, IBW_MGMT_CLASS_SUBN_DIRECTED_ROUTE,
                           1, IBW_MAD_METHOD_GET, 1, IBW_SMP_ATTR_NODEINFO, 0),
          IBW_OK);
    TU_EQ(ibw_mad_make_response(mad, sizeof mad, IBW_MAD_STATUS_BAD_VERSION),
          IBW_OK);
    TU_EQ(mad[3], 0x81);
    TU_EQ(mad[4], 0x80);
    TU_EQ(mad[5], 0x04);
}

/* ------------------------------------------------------------------------ */
/* Names                                                                    */
/* ------------------------------------------------------------------------ */

static int streq(const char *a, const char *b)
{
    return a && b && strcmp(a, b) == 0;
}

static void test_names(void)
{
    TU_CHECK(streq(ibw_mad_class_name(0x01), "SubnMgt (LID routed)"));
    TU_CHECK(streq(ibw_mad_class_name(0x81), "SubnMgt (directed route)"));
    TU_CHECK(streq(ibw_mad_class_name(0x03), "SubnAdm"));
    TU_CHECK(streq(ibw_mad_class_name(0x07), "CM"));
    TU_CHECK(streq(ibw_mad_class_name(0x21), "CongMgt"));
    TU_CHECK(streq(ibw_mad_class_name(0x0A), "Vendor (range 1)"));
    TU_CHECK(streq(ibw_mad_class_name(0x4F), "Vendor (range 2)"));
    TU_CHECK(streq(ibw_mad_class_name(0x2F), "Application"));
    TU_CHECK(ibw_mad_class_name(0x00) == NULL);
    TU_CHECK(ibw_mad_class_name(0x02) == NULL);
    TU_CHECK(ibw_mad_class_name(0x50) == NULL);
    TU_CHECK(ibw_mad_class_name(0x80) == NULL);
    TU_CHECK(ibw_mad_class_name(0x82) == NULL);

    TU_CHECK(streq(ibw_mad_method_name(0x07, 0x03), "Send"));
    TU_CHECK(streq(ibw_mad_method_name(0x03, 0x92), "GetTableResp"));
    TU_CHECK(streq(ibw_mad_method_name(0x03, 0x14), "GetMulti"));
    TU_CHECK(streq(ibw_mad_method_name(0x81, 0x07), "TrapRepress"));
    TU_CHECK(ibw_mad_method_name(0x07, 0x92) == NULL); /* CM has no tables */
    TU_CHECK(ibw_mad_method_name(0x01, 0x03) == NULL); /* SMPs never Send */
    TU_CHECK(ibw_mad_method_name(0x03, 0x03) == NULL);
    TU_CHECK(ibw_mad_method_name(0x04, 0x00) == NULL);

    TU_CHECK(streq(ibw_mad_attr_name(0x81, 0x0020), "SMInfo"));
    TU_CHECK(streq(ibw_mad_attr_name(0x01, 0x0015), "PortInfo"));
    TU_CHECK(streq(ibw_mad_attr_name(0x03, 0x0035), "PathRecord"));
    TU_CHECK(streq(ibw_mad_attr_name(0x03, 0x0001), "ClassPortInfo"));
    TU_CHECK(streq(ibw_mad_attr_name(0x03, 0x00F3), "InformInfoRecord"));
    TU_CHECK(streq(ibw_mad_attr_name(0x07, 0x0010), "REQ"));
    TU_CHECK(streq(ibw_mad_attr_name(0x07, 0x0001), "ClassPortInfo"));
    TU_CHECK(streq(ibw_mad_attr_name(0x04, 0x0012), "PortCounters"));
    TU_CHECK(ibw_mad_attr_name(0x07, 0x0035) == NULL);
    TU_CHECK(ibw_mad_attr_name(0x01, 0x0035) == NULL);
    TU_CHECK(streq(ibw_mad_attr_name(0x01, 0x001C), "LinkSpeedWidthPairsTable"));
    TU_CHECK(streq(ibw_mad_attr_name(0x03, 0x0019),
                   "LinkSpeedWidthPairsTableRecord"));
    TU_CHECK(ibw_mad_attr_name(0x03, 0x001C) == NULL);

    TU_CHECK(streq(ibw_mad_status_name(0x0000), "success"));
    TU_CHECK(streq(ibw_mad_status_name(0x0001), "busy"));
    TU_CHECK(streq(ibw_mad_status_name(0x0002), "redirect required"));
    TU_CHECK(streq(ibw_mad_status_name(0x0004), "bad base or class version"));
    TU_CHECK(streq(ibw_mad_status_name(0x0008), "method not supported"));
    TU_CHECK(streq(ibw_mad_status_name(0x000C),
                   "method/attribute combination not supported"));
    TU_CHECK(streq(ibw_mad_status_name(0x001C),
                   "invalid attribute or attribute modifier value"));
    TU_CHECK(streq(ibw_mad_status_name(0x0010), "reserved status code"));
    TU_CHECK(streq(ibw_mad_status_name(0x0500), "success"));

    TU_CHECK(streq(ibw_rmpp_type_name(1), "DATA"));
    TU_CHECK(streq(ibw_rmpp_type_name(4), "ABORT"));
    TU_CHECK(ibw_rmpp_type_name(0) == NULL);
    TU_CHECK(streq(ibw_rmpp_status_name(0), "normal"));
    TU_CHECK(streq(ibw_rmpp_status_name(118), "total time too long"));
    TU_CHECK(streq(ibw_rmpp_status_name(127), "unspecified error"));
    TU_CHECK(ibw_rmpp_status_name(2) == NULL);
    TU_EQ(IBW_RMPP_STATUS_BAD_LEN, 119);
    TU_EQ(IBW_RMPP_STATUS_TMR, 126);
}

int main(void)
{
    test_sa();
    test_smp_lid();
    test_smp_dr();
    test_vendor();
    test_classportinfo();
    test_notice();
    test_record_ids();
    test_capability_bits();
    test_builders();
    test_names();
    return tu_done("mad_vectors");
}
