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

int main(void)
{
    const char *dir = getenv("IBW_CAPTURES");
    if (!dir)
        dir = "../shared/captures";
    char path[512];
    struct tally t;

    snprintf(path, sizeof path, "%s/rocev2-hw-rnic.pcap", dir);
    if (!read_pcap(path, &t)) {
        printf("captures not found at %s: skipped\n", dir);
        return 77;
    }
    /* PROVENANCE.md: 123 frames, 105 RoCEv2: SEND FIRST x33 (0x00), SEND
     * LAST WITH IMMEDIATE x33 (0x03), ACK x37 (0x11), SEND ONLY WITH
     * IMMEDIATE x2 (0x05). */
    TU_EQ(t.frames, 123);
    TU_EQ(t.errors, 0);
    TU_EQ(t.iba, 105);
    TU_EQ(t.icrc_good, 105);
    TU_EQ(t.opcodes[0x00], 33);
    TU_EQ(t.opcodes[0x03], 33);
    TU_EQ(t.opcodes[0x11], 37);
    TU_EQ(t.opcodes[0x05], 2);
    TU_EQ(t.rebuilt, 105);

    snprintf(path, sizeof path, "%s/roce-vectors-cx4.pcap", dir);
    TU_CHECK(read_pcap(path, &t));
    /* a CNP (RoCEv2), a RoCEv1 RDMA WRITE ONLY, a RoCEv1 ACK */
    TU_EQ(t.frames, 3);
    TU_EQ(t.errors, 0);
    TU_EQ(t.iba, 3);
    TU_EQ(t.icrc_good, 3);
    TU_EQ(t.opcodes[0x81], 1);
    TU_EQ(t.opcodes[0x0A], 1);
    TU_EQ(t.opcodes[0x11], 1);
    TU_EQ(t.rebuilt, 3);

    snprintf(path, sizeof path, "%s/ib-native-erf-2008.pcap", dir);
    TU_CHECK(read_pcap(path, &t));
    /* 43 native IB frames, all LNH 2 or 3 with a BTH (tshark: UD SEND ONLY
     * 0x64, RC SEND ONLY 0x04, RC ACK 0x11); ICRC and VCRC valid on all. */
    TU_EQ(t.frames, 43);
    TU_EQ(t.errors, 0);
    TU_EQ(t.iba, 43);
    TU_EQ(t.icrc_good, 43);
    TU_EQ(t.vcrc_good, 43);
    TU_EQ(t.opcodes[0x64] + t.opcodes[0x04] + t.opcodes[0x11], 43);
    TU_EQ(t.rebuilt, 43);
    return tu_done("packet_captures");
}
