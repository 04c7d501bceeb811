/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ibw_parse() against real captures made by others (../shared/captures):
 * every IBA frame must parse without error and carry a good ICRC (and a
 * good VCRC on native IB).  The captures' own CRCs were computed by the
 * hardware that sent them, so this is independent of our CRC code.
 *
 * The pcap files are read here with plain stdio (classic pcap: a 24-byte
 * global header, then per record a 16-byte header and the bytes), so that
 * this test does not depend on the capture library under test elsewhere.
 * Exit code 77 (meson: skipped) when the captures are not there.
 */
#include "ibwire/packet.h"
#include "testutil.h"

#include <stdlib.h>

#define LINKTYPE_ETHERNET 1u
#define LINKTYPE_ERF 197u
#define ERF_TYPE_INFINIBAND 21u
#define ERF_HDR_LEN 16u

struct tally {
    unsigned frames;    /* records in the file */
    unsigned iba;       /* frames carrying an IBA packet */
    unsigned icrc_good;
    unsigned vcrc_good;
    unsigned errors;
    unsigned rebuilt;   /* IBA frames that ibw_build() reproduced */
    unsigned opcodes[256];
};

static uint32_t rd32(const uint8_t *p, int swap)
{
    return swap ? ibw_load_be32(p) : ibw_load_le32(p);
}

static void check_frame(const uint8_t *d, size_t n, enum ibw_link link,
                        struct tally *t, unsigned recno)
{
    struct ibw_pkt pkt;
    int err = ibw_parse(d, n, link, &pkt);
    if (err != IBW_OK) {
        t->errors++;
        fprintf(stderr, "record %u: %s (%s.%s)\n", recno, ibw_strerror(err),
                pkt.err_hdr ? pkt.err_hdr : "-",
                pkt.err_field ? pkt.err_field : "-");
        return;
    }
    if (!ibw_pkt_has(&pkt, IBW_HDR_BTH))
        return;
    t->iba++;
    t->opcodes[pkt.opcode]++;
    if (pkt.icrc_status == IBW_CRC_GOOD)
        t->icrc_good++;
    else
        fprintf(stderr, "record %u: ICRC wire %08x calc %08x\n", recno,
                pkt.icrc_wire, pkt.icrc_calc);
    if (pkt.vcrc_status == IBW_CRC_GOOD)
        t->vcrc_good++;
    else if (link == IBW_LINK_IB)
        fprintf(stderr, "record %u: VCRC wire %04x calc %04x\n", recno,
                pkt.vcrc_wire, pkt.vcrc_calc);
    /* The view stays inside the frame. */
    TU_CHECK(pkt.payload_off + pkt.payload_len + pkt.pad <= n);
    TU_CHECK(pkt.iba_end + pkt.trailer_len == n);

    /* Rebuilding the frame from its fields gives back the same bytes,
     * lengths, checksum and CRCs included (the trailer is not rebuilt). */
    struct ibw_build_spec spec;
    static uint8_t out[70000];
    size_t out_len = 0;
    TU_EQ(ibw_build_spec_from_pkt(&pkt, &spec), IBW_OK);
    TU_EQ(ibw_build(&spec, out, sizeof out, &out_len), IBW_OK);
    TU_EQ(out_len, pkt.iba_end);
    if (out_len == pkt.iba_end && memcmp(out, d, out_len) != 0) {
        fprintf(stderr, "record %u: rebuilt frame differs\n", recno);
        TU_MEMEQ(out, d, out_len);
    }
    t->rebuilt++;
}

/* Read a whole pcap file; 0 when it cannot be opened. */
static int read_pcap(const char *path, struct tally *t)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    memset(t, 0, sizeof *t);
    uint8_t gh[24];
    TU_EQ(fread(gh, 1, sizeof gh, f), sizeof gh);
    int swap = ibw_load_be32(gh) == 0xA1B2C3D4u; /* else d4c3b2a1: LE */
    uint32_t linktype = rd32(gh + 20, swap);
    static uint8_t buf[70000];
    uint8_t rh[16];
    while (fread(rh, 1, sizeof rh, f) == sizeof rh) {
        uint32_t incl = rd32(rh + 8, swap);
        int whole = incl <= sizeof buf && fread(buf, 1, incl, f) == incl;
        TU_CHECK(whole);
        if (!whole)
            break;
        t->frames++;
        if (linktype == LINKTYPE_ETHERNET) {
            check_frame(buf, incl, IBW_LINK_ETHERNET, t, t->frames);
        } else if (linktype == LINKTYPE_ERF) {
            /* ERF header: type at byte 8, record length (BE) at 10. */
            TU_CHECK(incl >= ERF_HDR_LEN);
            if (incl < ERF_HDR_LEN)
                continue;
            TU_EQ(buf[8] & 0x7F, ERF_TYPE_INFINIBAND);
            check_frame(buf + ERF_HDR_LEN, incl - ERF_HDR_LEN, IBW_LINK_IB, t,
                        t->frames);
        } else {
            TU_EQ(linktype, LINKTYPE_ETHERNET); /* i.e. fail: unexpected */
        }
    }
    fclose(f);
    return 1;
}

/* What each capture holds, from PROVENANCE.md and tshark's reading. */
struct expect {
    const char *file;
    unsigned frames, iba, vcrc_good;
    struct { uint8_t op; unsigned count; } ops[4];
};

static const struct expect captures[] = {
    /* 123 frames, 105 RoCEv2: SEND FIRST x33, SEND LAST WITH IMMEDIATE x33,
     * ACK x37, SEND ONLY WITH IMMEDIATE x2 */
    {"rocev2-hw-rnic.pcap", 123, 105, 0,
     {{0x00, 33}, {0x03, 33}, {0x11, 37}, {0x05, 2}}},
    /* a CNP (RoCEv2), a RoCEv1 RDMA WRITE ONLY, a RoCEv1 ACK */
    {"roce-vectors-cx4.pcap", 3, 3, 0, {{0x81, 1}, {0x0A, 1}, {0x11, 1}}},
    /* 43 native IB frames, LNH 2 (37) or 3 (6), all with a BTH: UD SEND
     * ONLY x24 (MADs and IPoIB), RC SEND ONLY x10, RC ACK x9 */
    {"ib-native-erf-2008.pcap", 43, 43, 43,
     {{0x64, 24}, {0x04, 10}, {0x11, 9}}},
};

int main(void)
{
    const char *dir = getenv("IBW_CAPTURES");
    if (!dir)
        dir = "../shared/captures";
    for (size_t i = 0; i < sizeof captures / sizeof captures[0]; i++) {
        const struct expect *e = &captures[i];
        char path[512];
        struct tally t;
        snprintf(path, sizeof path, "%s/%s", dir, e->file);
        if (!read_pcap(path, &t)) {
            printf("%s not found: skipped\n", path);
            return 77;
        }
        TU_EQ(t.frames, e->frames);
        TU_EQ(t.errors, 0);
        TU_EQ(t.iba, e->iba);
        TU_EQ(t.icrc_good, e->iba); /* "ICRC valid on all" */
        TU_EQ(t.vcrc_good, e->vcrc_good);
        TU_EQ(t.rebuilt, e->iba);
        for (size_t k = 0; k < 4 && e->ops[k].count; k++)
            TU_EQ(t.opcodes[e->ops[k].op], e->ops[k].count);
    }
    return tu_done("packet_captures");
}
