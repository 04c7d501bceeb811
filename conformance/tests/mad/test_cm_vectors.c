/* SPDX-License-Identifier: Apache-2.0 */
/*
 * M3: the eleven CM messages against data images written by hand from the
 * IBA message tables (cm-fields.md, data_off column).  Every image is the
 * 232-byte MAD data area; only non-zero bytes are written out, each with the
 * field it carries and how its bits were put together.  Each image is
 * decoded and compared field by field, re-encoded into a buffer full of
 * 0xAA and compared byte for byte (so every bit of the area is covered by
 * some field), and wrapped into a whole MAD for the _mad_decode/_mad_encode
 * entries and ibw_mad_decode().
 */
#include "ibwire/mad.h"
#include "testutil.h"

/* A CM Send MAD header for attribute `attr`, TID 0x00000010278648E9,
 * written out byte by byte (IBA 13.4.3), followed by the data image. */
static void cm_mad(uint8_t mad[256], uint16_t attr, const uint8_t data[232])
{
    const uint8_t hdr[24] = {
        0x01,                   /* BaseVersion 1 */
        0x07,                   /* MgmtClass CM */
        0x02,                   /* ClassVersion 2 */
        0x03,                   /* Method Send */
        0x00, 0x00,             /* Status */
        0x00, 0x00,             /* ClassSpecific */
        0x00, 0x00, 0x00, 0x10, 0x27, 0x86, 0x48, 0xE9, /* TransactionID */
        (uint8_t)(attr >> 8), (uint8_t)attr,            /* AttributeID */
        0x00, 0x00,             /* Reserved */
        0x00, 0x00, 0x00, 0x00  /* AttributeModifier */
    };
    memcpy(mad, hdr, 24);
    memcpy(mad + 24, data, 232);
}

#define CM_TID 0x00000010278648E9ULL

/* The image re-encodes to itself, every byte written. */
#define CHECK_REENCODE(pfx, s, img)                                          \
    do {                                                                     \
        uint8_t out_[232];                                                   \
        memset(out_, 0xAA, sizeof out_);                                     \
        TU_EQ(pfx##_encode(&(s), out_, sizeof out_), IBW_OK);                \
        TU_MEMEQ(out_, img, 232);                                            \
        TU_EQ(pfx##_decode(img, 231, &(s)), IBW_E_TRUNCATED);                \
        TU_EQ(pfx##_encode(&(s), out_, 231), IBW_E_NOSPACE);                 \
    } while (0)

/* Whole-MAD round trip through _mad_decode, _mad_encode and the dispatcher. */
#define CHECK_WHOLE_MAD(pfx, attr_id, img)                                      \
    do {                                                                     \
        uint8_t mad_[256], built_[256];                                      \
        struct pfx s_;                                                       \
        cm_mad(mad_, attr_id, img);                                             \
        TU_EQ(pfx##_mad_decode(mad_, sizeof mad_, &s_), IBW_OK);             \
        memset(built_, 0xAA, sizeof built_);                                 \
        TU_EQ(pfx##_mad_encode(&s_, CM_TID, built_, sizeof built_), IBW_OK);  \
        TU_MEMEQ(built_, mad_, 256);                                         \
        TU_EQ(pfx##_mad_decode(mad_, 255, &s_), IBW_E_TRUNCATED);            \
        TU_EQ(pfx##_mad_encode(&s_, CM_TID, built_, 255), IBW_E_NOSPACE);     \
        struct ibw_mad_view v_;                                              \
        TU_EQ(ibw_mad_decode(mad_, sizeof mad_, &v_), IBW_OK);               \
        TU_EQ(v_.kind, IBW_MAD_KIND_CM);                                     \
        TU_EQ(v_.hdr.attributeid, attr_id);                                     \
        TU_EQ(v_.attr.cm.attributeid, attr_id);                                 \
        TU_EQ(v_.attr_off, 24);                                              \
        TU_CHECK(v_.attr_fmt != NULL);                                       \
        TU_EQ(v_.nlayers, 2);                                                \
        TU_EQ(v_.layers[1].off, 24);                                         \
        uint8_t again_[232];                                                 \
        TU_EQ(ibw_cm_encode(&v_.attr.cm, again_, sizeof again_), IBW_OK);    \
        TU_MEMEQ(again_, img, 232);                                          \
    } while (0)

/* ------------------------------------------------------------------------ */

static const uint8_t req_img[232] = {
    /* 0: LocalCommID 0x11223344 */
    [0] = 0x11, [1] = 0x22, [2] = 0x33, [3] = 0x44,
    /* 8: ServiceID 0x000000000106115C = IP CM, TCP (6), port 4444 */
    [12] = 0x01, [13] = 0x06, [14] = 0x11, [15] = 0x5C,
    /* 16: LocalCAGUID 0x0002C90300A1B2C3 */
    [17] = 0x02, [18] = 0xC9, [19] = 0x03, [21] = 0xA1, [22] = 0xB2,
    [23] = 0xC3,
    /* 28: LocalQ_Key 0x12345678 */
    [28] = 0x12, [29] = 0x34, [30] = 0x56, [31] = 0x78,
    /* 32: LocalQPN 0xABCDEF, 35: ResponderResources 0x10 */
    [32] = 0xAB, [33] = 0xCD, [34] = 0xEF, [35] = 0x10,
    /* 36: LocalEECN 0x000102, 39: InitiatorDepth 8 */
    [37] = 0x01, [38] = 0x02, [39] = 0x08,
    /* 40: RemoteEECN 0x030405 */
    [40] = 0x03, [41] = 0x04, [42] = 0x05,
    /* 43: RemoteCMResponseTimeout 20 = 10100b in [7:3] -> 0xA0,
     *     TransportServiceType 3 in [2:1] -> 0x06, E2E flow control 1 */
    [43] = 0xA7,
    /* 44: StartingPSN 0x654321; 47: LocalCMResponseTimeout 18 = 10010b
     *     -> 0x90, RetryCount 7 -> 0x07 */
    [44] = 0x65, [45] = 0x43, [46] = 0x21, [47] = 0x97,
    /* 48: P_Key 0x8001 */
    [48] = 0x80, [49] = 0x01,
    /* 50: PathMTU 4 -> 0x40, RDCExists 1 -> 0x08, RNRRetryCount 6 -> 0x06 */
    [50] = 0x4E,
    /* 51: MaxCMRetries 15 -> 0xF0, SRQ 1 -> 0x08, ExtTransport 1 (XRC) */
    [51] = 0xF9,
    /* 52: PrimaryLocalLID 0x1234, 54: PrimaryRemoteLID 0x5678 */
    [52] = 0x12, [53] = 0x34, [54] = 0x56, [55] = 0x78,
    /* 56: PrimaryLocalGID fe80::2:c903:a1:b2c3 */
    [56] = 0xFE, [57] = 0x80, [65] = 0x02, [66] = 0xC9, [67] = 0x03,
    [69] = 0xA1, [70] = 0xB2, [71] = 0xC3,
    /* 72: PrimaryRemoteGID fe80::2:c903:d4:e5f6 */
    [72] = 0xFE, [73] = 0x80, [81] = 0x02, [82] = 0xC9, [83] = 0x03,
    [85] = 0xD4, [86] = 0xE5, [87] = 0xF6,
    /* 88: PrimaryFlowLabel 0xABCDE in the top 20 bits of 88..90 */
    [88] = 0xAB, [89] = 0xCD, [90] = 0xE0,
    /* 91: PrimaryPacketRate 0x2A in [5:0] */
    [91] = 0x2A,
    /* 92: PrimaryTrafficClass 0xB8, 93: PrimaryHopLimit 0x40 */
    [92] = 0xB8, [93] = 0x40,
    /* 94: PrimarySL 0xA -> 0xA0, PrimarySubnetLocal 1 -> 0x08 */
    [94] = 0xA8,
    /* 95: PrimaryLocalACKTimeout 19 = 10011b -> 0x98 */
    [95] = 0x98,
    /* 96: AlternateLocalLID 0x9ABC, 98: AlternateRemoteLID 0xDEF0 */
    [96] = 0x9A, [97] = 0xBC, [98] = 0xDE, [99] = 0xF0,
    /* 100: AlternateLocalGID fe80::1, 116: AlternateRemoteGID fe80::2 */
    [100] = 0xFE, [101] = 0x80, [115] = 0x01,
    [116] = 0xFE, [117] = 0x80, [131] = 0x02,
    /* 132: AlternateFlowLabel 0x12345 */
    [132] = 0x12, [133] = 0x34, [134] = 0x50,
    /* 135: AlternatePacketRate 0x15 */
    [135] = 0x15,
    /* 136: AlternateTrafficClass 0x07, 137: AlternateHopLimit 0xFF */
    [136] = 0x07, [137] = 0xFF,
    /* 138: AlternateSL 5 -> 0x50, AlternateSubnetLocal 1 -> 0x08 */
    [138] = 0x58,
    /* 139: AlternateLocalACKTimeout 31 -> 0xF8, SAP supported -> 0x04 */
    [139] = 0xFC,
    /* 140: private data, starting with the IP CM header (Annex A11):
     *  140 MajV 0 / MinV 0, 141 IPV 4 in [7:4] -> 0x40,
     *  142 source port 50000 = 0xC350,
     *  144..159 source IP: 12 zero bytes then 192.168.1.10,
     *  160..175 destination IP: 12 zero bytes then 192.168.1.20,
     *  176 first consumer byte 0x5A, 231 last private byte 0xA5 */
    [141] = 0x40, [142] = 0xC3, [143] = 0x50,
    [156] = 0xC0, [157] = 0xA8, [158] = 0x01, [159] = 0x0A,
    [172] = 0xC0, [173] = 0xA8, [174] = 0x01, [175] = 0x14,
    [176] = 0x5A, [231] = 0xA5,
};

static void test_req(void)
{
    struct ibw_cm_req r;
    TU_EQ(ibw_cm_req_decode(req_img, sizeof req_img, &r), IBW_OK);
    TU_EQ(r.localcommid, 0x11223344);
    TU_EQ(r.rsvd4, 0);
    TU_EQ(r.serviceid, 0x000000000106115CULL);
    TU_EQ(r.localcaguid, 0x0002C90300A1B2C3ULL);
    TU_EQ(r.rsvd24, 0);
    TU_EQ(r.localqkey, 0x12345678);
    TU_EQ(r.localqpn, 0xABCDEF);
    TU_EQ(r.responderres, 0x10);
    TU_EQ(r.localeecn, 0x000102);
    TU_EQ(r.initdepth, 8);
    TU_EQ(r.remoteeecn, 0x030405);
    TU_EQ(r.remoteresptout, 20);
    TU_EQ(r.transpsvctype, IBW_CM_TRANSPORT_EXTENDED);
    TU_EQ(r.e2eflowctrl, 1);
    TU_EQ(r.startpsn, 0x654321);
    TU_EQ(r.localresptout, 18);
    TU_EQ(r.retrcount, 7);
    TU_EQ(r.pkey, 0x8001);
    TU_EQ(r.pppmtu, 4);
    TU_EQ(r.rdcexist, 1);
    TU_EQ(r.rnrretrcount, 6);
    TU_EQ(r.maxcmretr, 15);
    TU_EQ(r.srq, 1);
    TU_EQ(r.ext_transport, IBW_CM_EXT_TRANSPORT_XRC);
    TU_EQ(r.prim_locallid, 0x1234);
    TU_EQ(r.prim_remotelid, 0x5678);
    TU_MEMEQ(r.prim_localgid, req_img + 56, 16);
    TU_EQ(r.prim_localgid[0], 0xFE);
    TU_EQ(r.prim_localgid[15], 0xC3);
    TU_EQ(r.prim_remotegid[15], 0xF6);
    TU_EQ(r.prim_flowlabel, 0xABCDE);
    TU_EQ(r.rsvd90, 0);
    TU_EQ(r.prim_pktrate, 0x2A);
    TU_EQ(r.prim_tfcclass, 0xB8);
    TU_EQ(r.prim_hoplim, 0x40);
    TU_EQ(r.prim_sl, 0xA);
    TU_EQ(r.prim_subnetlocal, 1);
    TU_EQ(r.prim_localacktout, 19);
    TU_EQ(r.alt_locallid, 0x9ABC);
    TU_EQ(r.alt_remotelid, 0xDEF0);
    TU_EQ(r.alt_localgid[15], 0x01);
    TU_EQ(r.alt_remotegid[15], 0x02);
    TU_EQ(r.alt_flowlabel, 0x12345);
    TU_EQ(r.alt_pktrate, 0x15);
    TU_EQ(r.alt_tfcclass, 0x07);
    TU_EQ(r.alt_hoplim, 0xFF);
    TU_EQ(r.alt_sl, 5);
    TU_EQ(r.alt_subnetlocal, 1);
    TU_EQ(r.alt_localacktout, 31);
    TU_EQ(r.sap_supported, 1);
    TU_EQ(r.rsvd139, 0);
    TU_EQ(r.private_data[0], 0x00);
    TU_EQ(r.private_data[36], 0x5A);
    TU_EQ(r.private_data[91], 0xA5);
    CHECK_REENCODE(ibw_cm_req, r, req_img);
    CHECK_WHOLE_MAD(ibw_cm_req, 0x0010, req_img);

    /* fast getters read the same bits */
    TU_EQ(ibw_cm_req_get_localqpn(req_img), 0xABCDEF);
    TU_EQ(ibw_cm_req_get_transpsvctype(req_img), 3);
    TU_EQ(ibw_cm_req_get_prim_flowlabel(req_img), 0xABCDE);

    /* the IP CM header in the private data */
    struct ibw_ip_cm ip;
    TU_EQ(ibw_cm_service_id_is_ip(r.serviceid), 1);
    TU_EQ(ibw_cm_service_id_protocol(r.serviceid), 6);
    TU_EQ(ibw_cm_service_id_port(r.serviceid), 4444);
    TU_EQ(ibw_cm_ip_service_id(6, 4444), 0x000000000106115CULL);
    TU_EQ(ibw_cm_req_ip_cm(&r, &ip), IBW_OK);
    TU_EQ(ip.majv, 0);
    TU_EQ(ip.minv, 0);
    TU_EQ(ip.ipv, 4);
    TU_EQ(ip.sport, 50000);
    TU_EQ(ibw_ip_cm_ipv4(ip.sip), 0xC0A8010A);
    TU_EQ(ibw_ip_cm_ipv4(ip.dip), 0xC0A80114);
    uint8_t a16[16];
    memset(a16, 0xEE, sizeof a16);
    ibw_ip_cm_set_ipv4(a16, 0xC0A8010A);
    TU_MEMEQ(a16, req_img + 144, 16);
    uint8_t hdr[36];
    TU_EQ(ibw_ip_cm_encode(&ip, hdr, sizeof hdr), IBW_OK);
    TU_MEMEQ(hdr, req_img + 140, 36);

    /* not an IP CM service ID, or a bad header version */
    struct ibw_cm_req r2 = r;
    r2.serviceid = 0x1000000000000404ULL; /* IPoIB-CM style */
    TU_EQ(ibw_cm_req_ip_cm(&r2, &ip), IBW_E_UNSUPPORTED);
    r2 = r;
    r2.private_data[0] = 0x10; /* MajV 1 */
    TU_EQ(ibw_cm_req_ip_cm(&r2, &ip), IBW_E_VERSION);
    r2 = r;
    r2.private_data[1] = 0x50; /* IPV 5 */
    TU_EQ(ibw_cm_req_ip_cm(&r2, &ip), IBW_E_VERSION);

    /* descriptor path */
    const struct ibw_format *f = ibw_cm_req_format();
    uint64_t val = 0;
    TU_EQ(ibw_field_get(f, ibw_format_field(f, "localqpn"), req_img, 232, &val),
          IBW_OK);
    TU_EQ(val, 0xABCDEF);
    TU_EQ(ibw_field_get(f, ibw_format_field(f, "remoteresptout"), req_img, 232,
                        &val), IBW_OK);
    TU_EQ(val, 20);
    TU_CHECK(ibw_field_bytes(ibw_format_field(f, "private_data"), req_img,
                             232) == req_img + 140);

    /* UESTC thesis (2017) T3-4 prints REQ fields at MAD-absolute Byte[Bit]:
     * our data offsets + 24 must land there (ServiceType's "27[5]" is
     * 67[5]). */
    static const struct {
        const char *field;
        unsigned abs_bit;
        unsigned width;
    } t34[] = {
        {"localcommid", 24 * 8, 32},    {"localcaguid", 40 * 8, 64},
        {"localqpn", 56 * 8, 24},       {"transpsvctype", 67 * 8 + 5, 2},
        {"localresptout", 71 * 8, 5},   {"maxcmretr", 75 * 8, 4},
        {"prim_remotelid", 78 * 8, 16}, {"private_data", 164 * 8, 736},
    };
    for (size_t i = 0; i < sizeof t34 / sizeof t34[0]; i++) {
        const struct ibw_field *fd = ibw_format_field(f, t34[i].field);
        TU_CHECK(fd != NULL);
        if (fd) {
            TU_EQ(fd->pos + IBW_CM_DATA_OFFSET * 8, t34[i].abs_bit);
            TU_EQ(fd->width, t34[i].width);
        }
    }
}

static const uint8_t mra_img[232] = {
    /* LocalCommID 0xA1A2A3A4, RemoteCommID 0xB1B2B3B4 */
    [0] = 0xA1, [1] = 0xA2, [2] = 0xA3, [3] = 0xA4,
    [4] = 0xB1, [5] = 0xB2, [6] = 0xB3, [7] = 0xB4,
    /* 8: MessageMRAed 1 (REP) in [7:6] -> 0x40 */
    [8] = 0x40,
    /* 9: ServiceTimeout 23 = 10111b in [7:3] -> 0xB8 */
    [9] = 0xB8,
    /* private data 10..231 */
    [10] = 0x01, [231] = 0xFF,
};

static void test_mra(void)
{
    struct ibw_cm_mra m;
    TU_EQ(ibw_cm_mra_decode(mra_img, sizeof mra_img, &m), IBW_OK);
    TU_EQ(m.localcommid, 0xA1A2A3A4);
    TU_EQ(m.remotecommid, 0xB1B2B3B4);
    TU_EQ(m.msgmraed, IBW_CM_MSG_REP);
    TU_EQ(m.rsvd8, 0);
    TU_EQ(m.servicetimeout, 23);
    TU_EQ(m.rsvd9, 0);
    TU_EQ(m.private_data[0], 0x01);
    TU_EQ(m.private_data[221], 0xFF);
    CHECK_REENCODE(ibw_cm_mra, m, mra_img);
    CHECK_WHOLE_MAD(ibw_cm_mra, 0x0011, mra_img);
}

static const uint8_t rej_img[232] = {
    /* LocalCommID 0x01020304, RemoteCommID 0x05060708 */
    [0] = 0x01, [1] = 0x02, [2] = 0x03, [3] = 0x04,
    [4] = 0x05, [5] = 0x06, [6] = 0x07, [7] = 0x08,
    /* 8: MessageRejected 2 (other) in [7:6] -> 0x80 */
    [8] = 0x80,
    /* 9: RejectedInfoLength 16 in [7:1] -> 0x20 */
    [9] = 0x20,
    /* 10: Reason 12 (invalid primary GID) */
    [11] = 0x0C,
    /* 12: ARI = the GID fe80::1, last ARI byte 83 = 0x77 */
    [12] = 0xFE, [13] = 0x80, [27] = 0x01, [83] = 0x77,
    /* 84: private data */
    [84] = 0x11, [231] = 0x22,
};

static void test_rej(void)
{
    struct ibw_cm_rej m;
    TU_EQ(ibw_cm_rej_decode(rej_img, sizeof rej_img, &m), IBW_OK);
    TU_EQ(m.localcommid, 0x01020304);
    TU_EQ(m.remotecommid, 0x05060708);
    TU_EQ(m.msgrej, IBW_CM_MSG_OTHER);
    TU_EQ(m.rejinfolen, 16);
    TU_EQ(m.rsvd9, 0);
    TU_EQ(m.reason, IBW_CM_REJ_INVALID_GID);
    TU_EQ(m.ari[0], 0xFE);
    TU_EQ(m.ari[15], 0x01);
    TU_EQ(m.ari[71], 0x77);
    TU_EQ(m.private_data[0], 0x11);
    TU_EQ(m.private_data[147], 0x22);
    CHECK_REENCODE(ibw_cm_rej, m, rej_img);
    CHECK_WHOLE_MAD(ibw_cm_rej, 0x0012, rej_img);
    TU_CHECK(strcmp(ibw_cm_rej_reason_name(m.reason), "invalid primary GID") ==
             0);
}

static const uint8_t rep_img[232] = {
    /* LocalCommID 0xF9024539, RemoteCommID 0xE9488627 */
    [0] = 0xF9, [1] = 0x02, [2] = 0x45, [3] = 0x39,
    [4] = 0xE9, [5] = 0x48, [6] = 0x86, [7] = 0x27,
    /* 8: LocalQ_Key 0xCAFEBABE */
    [8] = 0xCA, [9] = 0xFE, [10] = 0xBA, [11] = 0xBE,
    /* 12: LocalQPN 0xFC0407 */
    [12] = 0xFC, [13] = 0x04, [14] = 0x07,
    /* 16: LocalEECN 0x000A0B */
    [17] = 0x0A, [18] = 0x0B,
    /* 20: StartingPSN 0xD40A55 */
    [20] = 0xD4, [21] = 0x0A, [22] = 0x55,
    /* 24: ResponderResources 4, 25: InitiatorDepth 2 */
    [24] = 0x04, [25] = 0x02,
    /* 26: TargetACKDelay 15 = 01111b -> 0x78, FailoverAccepted 2 -> 0x04,
     *     E2E flow control 1 */
    [26] = 0x7D,
    /* 27: RNRRetryCount 7 in [7:5] -> 0xE0, SRQ 1 -> 0x10 */
    [27] = 0xF0,
    /* 28: LocalCAGUID 0x0002C9020020B4DC */
    [29] = 0x02, [30] = 0xC9, [31] = 0x02, [33] = 0x20, [34] = 0xB4,
    [35] = 0xDC,
    /* 36: private data */
    [36] = 0x33, [231] = 0x44,
};

static void test_rep(void)
{
    struct ibw_cm_rep m;
    TU_EQ(ibw_cm_rep_decode(rep_img, sizeof rep_img, &m), IBW_OK);
    TU_EQ(m.localcommid, 0xF9024539);
    TU_EQ(m.remotecommid, 0xE9488627);
    TU_EQ(m.localqkey, 0xCAFEBABE);
    TU_EQ(m.localqpn, 0xFC0407);
    TU_EQ(m.rsvd15, 0);
    TU_EQ(m.localeecn, 0x000A0B);
    TU_EQ(m.startpsn, 0xD40A55);
    TU_EQ(m.respres, 4);
    TU_EQ(m.initdepth, 2);
    TU_EQ(m.tgtackdelay, 15);
    TU_EQ(m.failoveracc, IBW_CM_FAILOVER_UNSUPPORTED);
    TU_EQ(m.e2eflowctrl, 1);
    TU_EQ(m.rnrretrcount, 7);
    TU_EQ(m.srq, 1);
    TU_EQ(m.rsvd27, 0);
    TU_EQ(m.localcaguid, 0x0002C9020020B4DCULL);
    TU_EQ(m.private_data[0], 0x33);
    TU_EQ(m.private_data[195], 0x44);
    CHECK_REENCODE(ibw_cm_rep, m, rep_img);
    CHECK_WHOLE_MAD(ibw_cm_rep, 0x0013, rep_img);
}

static const uint8_t rtu_img[232] = {
    /* LocalCommID 0xE9488627, RemoteCommID 0xF9024539 */
    [0] = 0xE9, [1] = 0x48, [2] = 0x86, [3] = 0x27,
    [4] = 0xF9, [5] = 0x02, [6] = 0x45, [7] = 0x39,
    /* 8: private data */
    [8] = 0x01, [231] = 0x02,
};

static void test_rtu(void)
{
    struct ibw_cm_rtu m;
    TU_EQ(ibw_cm_rtu_decode(rtu_img, sizeof rtu_img, &m), IBW_OK);
    TU_EQ(m.localcommid, 0xE9488627);
    TU_EQ(m.remotecommid, 0xF9024539);
    TU_EQ(m.private_data[0], 0x01);
    TU_EQ(m.private_data[223], 0x02);
    CHECK_REENCODE(ibw_cm_rtu, m, rtu_img);
    CHECK_WHOLE_MAD(ibw_cm_rtu, 0x0014, rtu_img);
}

static const uint8_t dreq_img[232] = {
    /* LocalCommID 0x0A0B0C0D, RemoteCommID 0x10203040 */
    [0] = 0x0A, [1] = 0x0B, [2] = 0x0C, [3] = 0x0D,
    [4] = 0x10, [5] = 0x20, [6] = 0x30, [7] = 0x40,
    /* 8: RemoteQPN/EECN 0x870408 */
    [8] = 0x87, [9] = 0x04, [10] = 0x08,
    /* 12: private data */
    [12] = 0x99, [231] = 0x98,
};

static void test_dreq(void)
{
    struct ibw_cm_dreq m;
    TU_EQ(ibw_cm_dreq_decode(dreq_img, sizeof dreq_img, &m), IBW_OK);
    TU_EQ(m.localcommid, 0x0A0B0C0D);
    TU_EQ(m.remotecommid, 0x10203040);
    TU_EQ(m.remoteqpneecn, 0x870408);
    TU_EQ(m.rsvd11, 0);
    TU_EQ(m.private_data[0], 0x99);
    TU_EQ(m.private_data[219], 0x98);
    CHECK_REENCODE(ibw_cm_dreq, m, dreq_img);
    CHECK_WHOLE_MAD(ibw_cm_dreq, 0x0015, dreq_img);
}

static const uint8_t drep_img[232] = {
    /* LocalCommID 0x10203040, RemoteCommID 0x0A0B0C0D */
    [0] = 0x10, [1] = 0x20, [2] = 0x30, [3] = 0x40,
    [4] = 0x0A, [5] = 0x0B, [6] = 0x0C, [7] = 0x0D,
    /* 8: private data */
    [8] = 0x55, [231] = 0x66,
};

static void test_drep(void)
{
    struct ibw_cm_drep m;
    TU_EQ(ibw_cm_drep_decode(drep_img, sizeof drep_img, &m), IBW_OK);
    TU_EQ(m.localcommid, 0x10203040);
    TU_EQ(m.remotecommid, 0x0A0B0C0D);
    TU_EQ(m.private_data[0], 0x55);
    TU_EQ(m.private_data[223], 0x66);
    CHECK_REENCODE(ibw_cm_drep, m, drep_img);
    CHECK_WHOLE_MAD(ibw_cm_drep, 0x0016, drep_img);
}

static const uint8_t sidr_req_img[232] = {
    /* 0: RequestID 0xDEADBEEF */
    [0] = 0xDE, [1] = 0xAD, [2] = 0xBE, [3] = 0xEF,
    /* 4: P_Key 0xFFFF */
    [4] = 0xFF, [5] = 0xFF,
    /* 8: ServiceID 0x0000000001110FA0 = IP CM, UDP (17), port 4000 */
    [12] = 0x01, [13] = 0x11, [14] = 0x0F, [15] = 0xA0,
    /* 16: private data: IP CM header, IPV 6 -> byte 17 = 0x60; source port
     * 0x1234; source IP fe80::1 at 20..35; destination fe80::2 at 36..51 */
    [17] = 0x60, [18] = 0x12, [19] = 0x34,
    [20] = 0xFE, [21] = 0x80, [35] = 0x01,
    [36] = 0xFE, [37] = 0x80, [51] = 0x02,
    [231] = 0x01,
};

static void test_sidr_req(void)
{
    struct ibw_cm_sidr_req m;
    TU_EQ(ibw_cm_sidr_req_decode(sidr_req_img, sizeof sidr_req_img, &m),
          IBW_OK);
    TU_EQ(m.requestid, 0xDEADBEEF);
    TU_EQ(m.pkey, 0xFFFF);
    TU_EQ(m.rsvd6, 0);
    TU_EQ(m.serviceid, 0x0000000001110FA0ULL);
    TU_EQ(ibw_cm_service_id_protocol(m.serviceid), 17);
    TU_EQ(ibw_cm_service_id_port(m.serviceid), 4000);
    TU_EQ(m.private_data[215], 0x01);
    struct ibw_ip_cm ip;
    TU_EQ(ibw_ip_cm_decode(m.private_data, sizeof m.private_data, &ip), IBW_OK);
    TU_EQ(ip.ipv, 6);
    TU_EQ(ip.sport, 0x1234);
    TU_EQ(ip.sip[0], 0xFE);
    TU_EQ(ip.sip[15], 0x01);
    TU_EQ(ip.dip[15], 0x02);
    CHECK_REENCODE(ibw_cm_sidr_req, m, sidr_req_img);
    CHECK_WHOLE_MAD(ibw_cm_sidr_req, 0x0017, sidr_req_img);
}

static const uint8_t sidr_rep_img[232] = {
    /* 0: RequestID 0xDEADBEEF */
    [0] = 0xDE, [1] = 0xAD, [2] = 0xBE, [3] = 0xEF,
    /* 4: Status 2 (rejected), 5: AdditionalInfoLength 72 */
    [4] = 0x02, [5] = 0x48,
    /* 8: QPN 0x000123 */
    [9] = 0x01, [10] = 0x23,
    /* 12: ServiceID 0x0000000001110FA0 */
    [16] = 0x01, [17] = 0x11, [18] = 0x0F, [19] = 0xA0,
    /* 20: Q_Key 0x80010000 */
    [20] = 0x80, [21] = 0x01,
    /* 24: additional information (72 bytes) */
    [24] = 0xC1, [95] = 0xC2,
    /* 96: private data (136 bytes) */
    [96] = 0xD1, [231] = 0xD2,
};

static void test_sidr_rep(void)
{
    struct ibw_cm_sidr_rep m;
    TU_EQ(ibw_cm_sidr_rep_decode(sidr_rep_img, sizeof sidr_rep_img, &m),
          IBW_OK);
    TU_EQ(m.requestid, 0xDEADBEEF);
    TU_EQ(m.status, IBW_CM_SIDR_REJECT);
    TU_EQ(m.addinfolen, 72);
    TU_EQ(m.qpn, 0x000123);
    TU_EQ(m.rsvd11, 0);
    TU_EQ(m.serviceid, 0x0000000001110FA0ULL);
    TU_EQ(m.qkey, IBW_QP1_QKEY);
    TU_EQ(m.addinfo[0], 0xC1);
    TU_EQ(m.addinfo[71], 0xC2);
    TU_EQ(m.private_data[0], 0xD1);
    TU_EQ(m.private_data[135], 0xD2);
    CHECK_REENCODE(ibw_cm_sidr_rep, m, sidr_rep_img);
    CHECK_WHOLE_MAD(ibw_cm_sidr_rep, 0x0018, sidr_rep_img);
}

static const uint8_t lap_img[232] = {
    /* LocalCommID 0x01234567, RemoteCommID 0x89ABCDEF */
    [0] = 0x01, [1] = 0x23, [2] = 0x45, [3] = 0x67,
    [4] = 0x89, [5] = 0xAB, [6] = 0xCD, [7] = 0xEF,
    /* 12: RemoteQPN/EECN 0x00ABCD */
    [13] = 0xAB, [14] = 0xCD,
    /* 15: RemoteCMResponseTimeout 17 = 10001b in [7:3] -> 0x88 */
    [15] = 0x88,
    /* 20: AlternateLocalLID 7, 22: AlternateRemoteLID 9 */
    [21] = 0x07, [23] = 0x09,
    /* 24: AlternateLocalGID fe80::7, 40: AlternateRemoteGID fe80::9 */
    [24] = 0xFE, [25] = 0x80, [39] = 0x07,
    [40] = 0xFE, [41] = 0x80, [55] = 0x09,
    /* 56: AlternateFlowLabel 0xFEDCB in the top 20 bits of 56..58 */
    [56] = 0xFE, [57] = 0xDC, [58] = 0xB0,
    /* 59: AlternateTrafficClass 0x20, 60: AlternateHopLimit 1 */
    [59] = 0x20, [60] = 0x01,
    /* 61: AlternatePacketRate 7 in [5:0] */
    [61] = 0x07,
    /* 62: AlternateSL 15 -> 0xF0, AlternateSubnetLocal 1 -> 0x08 */
    [62] = 0xF8,
    /* 63: AlternateLocalACKTimeout 14 = 01110b -> 0x70 */
    [63] = 0x70,
    /* 64: private data (168 bytes) */
    [64] = 0xE1, [231] = 0xE2,
};

static void test_lap(void)
{
    struct ibw_cm_lap m;
    TU_EQ(ibw_cm_lap_decode(lap_img, sizeof lap_img, &m), IBW_OK);
    TU_EQ(m.localcommid, 0x01234567);
    TU_EQ(m.remotecommid, 0x89ABCDEF);
    TU_EQ(m.rsvd8, 0);
    TU_EQ(m.remoteqpneecn, 0x00ABCD);
    TU_EQ(m.remoteresptout, 17);
    TU_EQ(m.rsvd15, 0);
    TU_EQ(m.alt_locallid, 7);
    TU_EQ(m.alt_remotelid, 9);
    TU_EQ(m.alt_localgid[0], 0xFE);
    TU_EQ(m.alt_localgid[15], 0x07);
    TU_EQ(m.alt_remotegid[15], 0x09);
    TU_EQ(m.alt_flowlabel, 0xFEDCB);
    TU_EQ(m.rsvd58, 0);
    TU_EQ(m.alt_tfcclass, 0x20);
    TU_EQ(m.alt_hoplim, 1);
    TU_EQ(m.rsvd61, 0);
    TU_EQ(m.alt_pktrate, 7);
    TU_EQ(m.alt_sl, 15);
    TU_EQ(m.alt_subnetlocal, 1);
    TU_EQ(m.alt_localacktout, 14);
    TU_EQ(m.private_data[0], 0xE1);
    TU_EQ(m.private_data[167], 0xE2);
    CHECK_REENCODE(ibw_cm_lap, m, lap_img);
    CHECK_WHOLE_MAD(ibw_cm_lap, 0x0019, lap_img);
}

static const uint8_t apr_img[232] = {
    /* LocalCommID 0x89ABCDEF, RemoteCommID 0x01234567 */
    [0] = 0x89, [1] = 0xAB, [2] = 0xCD, [3] = 0xEF,
    [4] = 0x01, [5] = 0x23, [6] = 0x45, [7] = 0x67,
    /* 8: AdditionalInfoLength 16, 9: APStatus 8 (invalid alternate GID) */
    [8] = 0x10, [9] = 0x08,
    /* 12: additional information (72 bytes) */
    [12] = 0xFE, [13] = 0x80, [83] = 0x0A,
    /* 84: private data (148 bytes) */
    [84] = 0xF1, [231] = 0xF2,
};

static void test_apr(void)
{
    struct ibw_cm_apr m;
    TU_EQ(ibw_cm_apr_decode(apr_img, sizeof apr_img, &m), IBW_OK);
    TU_EQ(m.localcommid, 0x89ABCDEF);
    TU_EQ(m.remotecommid, 0x01234567);
    TU_EQ(m.addinfolen, 16);
    TU_EQ(m.arstatus, IBW_CM_APR_INVALID_GID);
    TU_EQ(m.rsvd10, 0);
    TU_EQ(m.addinfo[0], 0xFE);
    TU_EQ(m.addinfo[71], 0x0A);
    TU_EQ(m.private_data[0], 0xF1);
    TU_EQ(m.private_data[147], 0xF2);
    CHECK_REENCODE(ibw_cm_apr, m, apr_img);
    CHECK_WHOLE_MAD(ibw_cm_apr, 0x001A, apr_img);
    TU_CHECK(strcmp(ibw_cm_apr_status_name(m.arstatus),
                    "invalid alternate GID") == 0);
}

/* Reserved bits are fields too: set in the image, they decode and
 * re-encode instead of being dropped. */
static void test_reserved_roundtrip(void)
{
    uint8_t img[232];
    memcpy(img, rep_img, sizeof img);
    img[15] = 0x5A; /* rsvd15 */
    img[27] = (uint8_t)(img[27] | 0x0F); /* rsvd27 = 1111b in [3:0] */
    struct ibw_cm_rep m;
    TU_EQ(ibw_cm_rep_decode(img, sizeof img, &m), IBW_OK);
    TU_EQ(m.rsvd15, 0x5A);
    TU_EQ(m.rsvd27, 0xF);
    TU_EQ(m.srq, 1);
    uint8_t out[232];
    TU_EQ(ibw_cm_rep_encode(&m, out, sizeof out), IBW_OK);
    TU_MEMEQ(out, img, sizeof img);
}

/* Every CM format covers bits [0, 1856) exactly once, in order. */
static void test_tiling(void)
{
    static const uint16_t attrs[] = {0x10, 0x11, 0x12, 0x13, 0x14, 0x15,
                                     0x16, 0x17, 0x18, 0x19, 0x1A};
    for (size_t a = 0; a < sizeof attrs / sizeof attrs[0]; a++) {
        const struct ibw_format *f = ibw_cm_format(attrs[a]);
        TU_CHECK(f != NULL);
        if (!f)
            continue;
        TU_EQ(f->width, 232 * 8);
        uint32_t next = 0;
        for (size_t i = 0; i < f->nfields; i++) {
            if (f->fields[i].pos != next)
                fprintf(stderr, "%s.%s starts at bit %u, expected %u\n",
                        f->name, f->fields[i].name, f->fields[i].pos, next);
            TU_EQ(f->fields[i].pos, next);
            next = f->fields[i].pos + f->fields[i].width;
        }
        TU_EQ(next, 232 * 8);
        TU_CHECK(ibw_cm_attr_name(attrs[a]) != NULL);
        TU_CHECK(ibw_cm_attr_label(attrs[a]) != NULL);
    }
    TU_CHECK(ibw_cm_format(0x0001) == NULL);
    TU_CHECK(ibw_cm_format(0x001B) == NULL);
    TU_CHECK(strcmp(ibw_cm_attr_name(0x0010), "REQ") == 0);
    TU_CHECK(strcmp(ibw_cm_attr_name(0x0018), "SIDR_REP") == 0);
    TU_CHECK(strcmp(ibw_cm_attr_label(0x0013), "ConnectReply") == 0);
    TU_CHECK(ibw_cm_attr_name(0x000F) == NULL);
}

/* The generic entry: ibw_cm_decode/encode by attribute ID. */
static void test_generic(void)
{
    struct ibw_cm_msg m;
    TU_EQ(ibw_cm_decode(dreq_img, sizeof dreq_img, 0x0015, &m), IBW_OK);
    TU_EQ(m.attributeid, 0x0015);
    TU_EQ(m.u.dreq.remoteqpneecn, 0x870408);
    uint8_t out[232];
    TU_EQ(ibw_cm_encode(&m, out, sizeof out), IBW_OK);
    TU_MEMEQ(out, dreq_img, sizeof out);
    TU_EQ(ibw_cm_decode(dreq_img, sizeof dreq_img, 0x0020, &m),
          IBW_E_UNSUPPORTED);
    TU_EQ(ibw_cm_encode(&m, out, sizeof out), IBW_E_UNSUPPORTED);
    TU_EQ(ibw_cm_decode(dreq_img, 100, 0x0015, &m), IBW_E_TRUNCATED);
    m.attributeid = 0x0015;
    TU_EQ(ibw_cm_encode(&m, out, 100), IBW_E_NOSPACE);

    /* a whole-MAD decode refuses another message or class */
    uint8_t mad[256];
    cm_mad(mad, 0x0013, rep_img);
    struct ibw_cm_req req;
    TU_EQ(ibw_cm_req_mad_decode(mad, sizeof mad, &req), IBW_E_UNSUPPORTED);
    mad[1] = 0x03; /* SubnAdm */
    struct ibw_cm_rep rep;
    TU_EQ(ibw_cm_rep_mad_decode(mad, sizeof mad, &rep), IBW_E_UNSUPPORTED);
    mad[1] = 0x07;
    mad[0] = 0x02; /* base version 2 */
    TU_EQ(ibw_cm_rep_mad_decode(mad, sizeof mad, &rep), IBW_E_VERSION);
}

static void test_names(void)
{
    for (unsigned r = 1; r <= 33; r++)
        TU_CHECK(ibw_cm_rej_reason_name(r) != NULL);
    TU_CHECK(ibw_cm_rej_reason_name(0) == NULL);
    TU_CHECK(ibw_cm_rej_reason_name(34) == NULL);
    TU_CHECK(ibw_cm_rej_reason_name(35) != NULL);
    TU_CHECK(ibw_cm_rej_reason_name(36) == NULL);
    TU_EQ(IBW_CM_REJ_CONSUMER_DEFINED, 28);
    TU_EQ(IBW_CM_REJ_STALE_CONN, 10);
    TU_EQ(IBW_CM_REJ_VENDOR_OPTION_NOT_SUPPORTED, 35);
    for (unsigned s = 0; s <= 13; s++)
        TU_CHECK(ibw_cm_apr_status_name(s) != NULL);
    TU_CHECK(ibw_cm_apr_status_name(14) == NULL);
    TU_EQ(IBW_CM_APR_INVALID_SL, 13);
    for (unsigned s = 0; s <= 5; s++)
        TU_CHECK(ibw_cm_sidr_status_name(s) != NULL);
    TU_CHECK(ibw_cm_sidr_status_name(6) == NULL);
    TU_EQ(IBW_CM_SIDR_UNSUPPORTED_VERSION, 5);
    TU_CHECK(strcmp(ibw_cm_msg_code_name(0), "REQ") == 0);
    TU_CHECK(strcmp(ibw_cm_msg_code_name(1), "REP") == 0);
    TU_CHECK(strcmp(ibw_cm_msg_code_name(2), "other") == 0);
    TU_CHECK(ibw_cm_msg_code_name(3) == NULL);
}

int main(void)
{
    test_req();
    test_mra();
    test_rej();
    test_rep();
    test_rtu();
    test_dreq();
    test_drep();
    test_sidr_req();
    test_sidr_rep();
    test_lap();
    test_apr();
    test_reserved_roundtrip();
    test_tiling();
    test_generic();
    test_names();
    return tu_done("cm_vectors");
}
