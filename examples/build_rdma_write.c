/* SPDX-License-Identifier: Apache-2.0 */
/*
 * build_rdma_write - build a RoCEv2 RDMA WRITE ONLY frame and print it.
 *
 * Fill a struct ibw_build_spec with the fields you choose; ibw_build() adds
 * the extended headers the opcode needs (here the RETH), the pad, the IPv4
 * length and checksum, the UDP length and port, and the ICRC.
 */
#include <ibwire.h>

#include <stdio.h>

int main(void)
{
    static const uint8_t data[] = "hello, RDMA";  /* 12 bytes with the NUL */

    static const uint8_t dmac[6] = {0x02, 0, 0, 0, 0, 0x02};
    static const uint8_t smac[6] = {0x02, 0, 0, 0, 0, 0x01};
    static const uint8_t ip_src[4] = {10, 0, 0, 1}, ip_dst[4] = {10, 0, 0, 2};

    struct ibw_build_spec spec;
    memset(&spec, 0, sizeof spec);    /* zero: defaults for the rest */
    spec.transport = IBW_TK_ROCE_V2_IP4;
    memcpy(spec.dmac, dmac, 6);
    memcpy(spec.smac, smac, 6);
    memcpy(spec.ip_src, ip_src, 4);
    memcpy(spec.ip_dst, ip_dst, 4);
    spec.ttl = 64;
    spec.ip_df = 1;
    spec.udp_sport = 0xC000;          /* flow entropy; the port is 4791 */

    spec.bth.opcode = (uint8_t)ibw_opcode_by_name("RC RDMA WRITE ONLY");
    spec.bth.pkey = 0xFFFF;
    spec.bth.destqp = 0x000011;
    spec.bth.ackreq = 1;
    spec.bth.psn = 100;

    spec.reth.va = 0x10000;           /* where the data lands remotely */
    spec.reth.rkey = 0x1234;
    spec.reth.dmalen = sizeof data;

    spec.payload = data;
    spec.payload_len = sizeof data;

    uint8_t frame[256];
    size_t len;
    int err = ibw_build(&spec, frame, sizeof frame, &len);
    if (err != IBW_OK) {
        fprintf(stderr, "build: %s\n", ibw_strerror(err));
        return 1;
    }

    /* Print the frame as hex (e.g. for `decode_rocev2 HEX` or text2pcap). */
    for (size_t i = 0; i < len; i++)
        printf("%02x", frame[i]);
    printf("\n");

    /* Parsing it back is the quickest self-check. */
    struct ibw_pkt pkt;
    err = ibw_parse(frame, len, IBW_LINK_ETHERNET, &pkt);
    fprintf(stderr, "%zu bytes, %s, ICRC %s\n", len, ibw_strerror(err),
            pkt.icrc_status == IBW_CRC_GOOD ? "good" : "bad");
    return err == IBW_OK && pkt.icrc_status == IBW_CRC_GOOD ? 0 : 1;
}
