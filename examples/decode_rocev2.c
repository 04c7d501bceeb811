/* SPDX-License-Identifier: Apache-2.0 */
/*
 * decode_rocev2 - parse one RoCEv2 frame and print what is in it.
 *
 * Usage: decode_rocev2 [HEX]   (no argument: a built-in RDMA WRITE ONLY)
 *
 * One call, ibw_parse(), locates every header and checks the lengths and
 * the ICRC; the typed getters (ibw_bth_get_psn, ...) then read fields in
 * place.  Nothing is copied or allocated.
 */
#include <ibwire.h>

#include <stdio.h>
#include <stdlib.h>

/* RoCEv2/IPv4 RC RDMA WRITE ONLY, 8 bytes to VA 0x10000 with R_Key 0x1234. */
static const char sample[] =
    "020000000002" "020000000001" "0800"                 /* Ethernet */
    "45000044000040004011" "26a7" "0a0000010a000002"   /* IPv4 */
    "c00012b700300000"                                   /* UDP 4791 */
    "0a00ffff0000001180000001"                           /* BTH */
    "00000000000100000000123400000008"                   /* RETH */
    "0001020304050607"                                   /* payload */
    "00000000";                                          /* ICRC */

static size_t from_hex(const char *hex, uint8_t *out, size_t cap)
{
    size_t n = 0;
    while (hex[0] && hex[1] && n < cap) {
        unsigned v;
        if (sscanf(hex, "%2x", &v) != 1)
            break;
        out[n++] = (uint8_t)v;
        hex += 2;
    }
    return n;
}

int main(int argc, char **argv)
{
    uint8_t frame[2048];
    size_t len = from_hex(argc > 1 ? argv[1] : sample, frame, sizeof frame);

    struct ibw_pkt pkt;
    if (argc < 2) {
        /* The built-in sample carries a zero ICRC: fill in the right one
         * (ibw_pkt_store_crcs needs a parsed view to know where it goes). */
        ibw_parse(frame, len, IBW_LINK_ETHERNET, &pkt);
        ibw_pkt_store_crcs(frame, &pkt);
    }

    int err = ibw_parse(frame, len, IBW_LINK_ETHERNET, &pkt);
    if (err != IBW_OK) {
        /* The error names the header and field that were wrong. */
        fprintf(stderr, "bad frame: %s in %s.%s\n", ibw_strerror(err),
                pkt.err_hdr, pkt.err_field ? pkt.err_field : "-");
        return 1;
    }
    if (!ibw_pkt_has(&pkt, IBW_HDR_BTH)) {
        printf("not an IBA packet (EtherType 0x%04x)\n", pkt.ethertype);
        return 0;
    }

    const struct ibw_opcode_info *op = ibw_pkt_opcode_info(&pkt);
    const uint8_t *bth = ibw_pkt_hdr(&pkt, IBW_HDR_BTH);
    printf("%s (0x%02x)  QP 0x%06x  PSN %u  P_Key 0x%04x%s\n", op->name,
           pkt.opcode, ibw_bth_get_destqp(bth), ibw_bth_get_psn(bth),
           ibw_bth_get_pkey(bth), ibw_bth_get_ackreq(bth) ? "  AckReq" : "");

    /* Extended headers: present exactly when the opcode table says so. */
    const uint8_t *reth = ibw_pkt_hdr(&pkt, IBW_HDR_RETH);
    if (reth)
        printf("  RETH VA 0x%llx  R_Key 0x%08x  length %u\n",
               (unsigned long long)ibw_reth_get_va(reth),
               ibw_reth_get_rkey(reth), ibw_reth_get_dmalen(reth));
    const uint8_t *aeth = ibw_pkt_hdr(&pkt, IBW_HDR_AETH);
    if (aeth)
        printf("  AETH syndrome 0x%02x  MSN %u\n", ibw_aeth_get_syndrome(aeth),
               ibw_aeth_get_msn(aeth));
    const uint8_t *imm = ibw_pkt_hdr(&pkt, IBW_HDR_IMMDT);
    if (imm)
        printf("  ImmDt 0x%08x\n", ibw_immdt_get_imm(imm));

    printf("  payload %u bytes + %u pad\n", pkt.payload_len, pkt.pad);
    /* A wrong ICRC is a verdict, not a parse error. */
    printf("  ICRC 0x%08x %s\n", pkt.icrc_wire,
           pkt.icrc_status == IBW_CRC_GOOD ? "good" : "BAD");
    if (pkt.ip_csum_status == IBW_CRC_BAD)
        printf("  IPv4 header checksum BAD\n");
    return 0;
}
