/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The probe's frame crafting against the library, independently:
 * - probe_frame_fix() recomputes the IPv4 checksum and the ICRC by fixed
 *   offsets and its own masking (A17.3.3); on frames ibw_build() laid out
 *   (which computes its CRCs through its own view) it must change nothing;
 * - each fault breaks what it says and only that: ibw_parse() sees the
 *   fault, the IPv4 checksum still adds up, and the ICRC is good where the
 *   fault is not the ICRC (the frame is wrong in one way only).
 */
#include <string.h>

#include "ibwire/packet.h"
#include "probe_int.h"
#include "testutil.h"

static struct probe_dev dev(void)
{
    struct probe_dev d;
    memset(&d, 0, sizeof d);
    d.qpn = 0x123;
    uint8_t dm[6] = {2, 0, 10, 0, 0, 2}, pm[6] = {2, 0, 10, 0, 0, 3};
    memcpy(d.dev_mac, dm, 6);
    memcpy(d.probe_mac, pm, 6);
    d.dev_ip4 = 0x0A000002;
    d.probe_ip4 = 0x0A000003;
    return d;
}

static int ip_csum_ok(const uint8_t *f)
{
    uint32_t s = 0;
    for (int i = 0; i < 20; i += 2)
        s += (uint32_t)f[14 + i] << 8 | f[14 + i + 1];
    while (s >> 16)
        s = (s & 0xFFFF) + (s >> 16);
    return s == 0xFFFF;
}

int main(void)
{
    struct probe_dev d = dev();
    static const uint8_t ops[] = {IBW_OP_RC_SEND_ONLY, IBW_OP_RC_RDMA_WRITE_FIRST,
                                  IBW_OP_RC_RDMA_READ_REQUEST, IBW_OP_RC_FETCH_ADD,
                                  IBW_OP_RC_ACKNOWLEDGE, IBW_OP_RC_SEND_ONLY_WITH_INVALIDATE,
                                  IBW_OP_UD_SEND_ONLY};
    static const uint32_t lens[] = {0, 1, 3, 16, 255, 256, 4096};
    int frames = 0;
    for (size_t o = 0; o < sizeof ops; o++)
        for (size_t l = 0; l < sizeof lens / sizeof lens[0]; l++) {
            struct probe_frame_spec fs;
            memset(&fs, 0, sizeof fs);
            fs.opcode = ops[o];
            fs.psn = 0xFFFFFE;
            fs.destqp = d.qpn;
            fs.pkey = 0xFFFF;
            fs.fecn = (uint8_t)(l & 1); /* masked out of the ICRC */
            fs.ackreq = 1;
            fs.va = 0x1122334455667788ull;
            fs.rkey = 0xABCD;
            fs.dmalen = 4096;
            fs.len = ibw_opcode_info(ops[o])->flags & IBW_OPF_PAYLOAD ? lens[l] : 0;
            fs.data = (uint32_t)l;
            uint8_t f[PROBE_MAX_FRAME], g[PROBE_MAX_FRAME];
            size_t n = probe_craft(&fs, &d, f, sizeof f);
            TU_CHECK(n > 0 && n <= sizeof f);
            if (n == 0 || n > sizeof f)
                continue;
            memcpy(g, f, n);
            probe_frame_fix(g, n);
            TU_CHECK(memcmp(f, g, n) == 0);
            struct ibw_pkt v;
            TU_CHECK(ibw_parse(f, n, IBW_LINK_ETHERNET, &v) == IBW_OK);
            TU_CHECK(v.icrc_status == IBW_CRC_GOOD);
            TU_CHECK(v.payload_len == fs.len);
            TU_CHECK(ip_csum_ok(f));
            frames++;

            /* the faults */
            fs.fault = PF_ICRC;
            n = probe_craft(&fs, &d, f, sizeof f);
            TU_CHECK(n > 0 && n <= sizeof f);
            if (n == 0 || n > sizeof f)
                continue;
            TU_CHECK(ibw_parse(f, n, IBW_LINK_ETHERNET, &v) != IBW_OK ||
                  v.icrc_status == IBW_CRC_BAD);
            memcpy(g, f, n);
            probe_frame_fix(g, n); /* repaired: only the ICRC was wrong */
            TU_CHECK(ibw_parse(g, n, IBW_LINK_ETHERNET, &v) == IBW_OK &&
                  v.icrc_status == IBW_CRC_GOOD);

            fs.fault = PF_IPVER;
            n = probe_craft(&fs, &d, f, sizeof f);
            TU_CHECK(f[14] >> 4 == 6 && ip_csum_ok(f));
            TU_CHECK(ibw_parse(f, n, IBW_LINK_ETHERNET, &v) != IBW_OK ||
                  !ibw_pkt_has(&v, IBW_HDR_BTH));

            fs.fault = PF_IPLEN;
            n = probe_craft(&fs, &d, f, sizeof f);
            TU_CHECK((size_t)(f[16] << 8 | f[17]) == n - 14 + 4 && ip_csum_ok(f));
            TU_CHECK(ibw_parse(f, n, IBW_LINK_ETHERNET, &v) != IBW_OK ||
                  v.icrc_status != IBW_CRC_GOOD);

            fs.fault = PF_UDPLEN;
            n = probe_craft(&fs, &d, f, sizeof f);
            TU_CHECK((size_t)(f[38] << 8 | f[39]) == n - 34 - 4 && ip_csum_ok(f));

            fs.fault = PF_UDPPORT;
            n = probe_craft(&fs, &d, f, sizeof f);
            TU_CHECK((f[36] << 8 | f[37]) == 4792);
            TU_CHECK(ibw_parse(f, n, IBW_LINK_ETHERNET, &v) != IBW_OK ||
                  !ibw_pkt_has(&v, IBW_HDR_BTH));
        }
    TU_CHECK(frames == 49);
    /* names both ways */
    TU_CHECK(probe_opcode_by_name("READ_RESPONSE_MIDDLE") ==
          IBW_OP_RC_RDMA_READ_RESPONSE_MIDDLE);
    TU_CHECK(probe_opcode_by_name("nope") == -1);
    return tu_done("probe_craft");
}
