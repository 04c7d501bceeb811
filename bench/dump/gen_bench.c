/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gen_bench.c - the benchmark capture: COUNT RoCEv2/IPv4 packets of one RC
 * connection, cycling through a mix of opcodes and payload sizes
 *   ACK (0), SEND ONLY (64), WRITE FIRST/MIDDLE (256 each), WRITE LAST (64),
 *   READ REQUEST (0), READ RESPONSE ONLY (128), SEND ONLY WITH IMM (32),
 * i.e. 100 payload bytes and 166-byte frames on average, every ICRC good.
 *
 *   gen_bench OUT.pcap COUNT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "ibwire/packet.h"

static const struct {
    uint8_t opcode;
    uint16_t payload;
} mix[] = {{0x11, 0},   {0x04, 64}, {0x06, 256}, {0x07, 256},
           {0x08, 64},  {0x0C, 0},  {0x10, 128}, {0x05, 32}};

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: gen_bench OUT.pcap COUNT\n");
        return 2;
    }
    unsigned long count = strtoul(argv[2], NULL, 10);
    char err[512];
    struct cap_writer *w = cap_writer_open(argv[1], CAP_FORMAT_PCAP,
                                           CAP_LINKTYPE_ETHERNET, err,
                                           sizeof err);
    if (!w) {
        fprintf(stderr, "gen_bench: %s\n", err);
        return 1;
    }
    static uint8_t payload[256];
    for (size_t i = 0; i < sizeof payload; i++)
        payload[i] = (uint8_t)(i * 13 + 1);
    struct ibw_build_spec s;
    memset(&s, 0, sizeof s);
    s.transport = IBW_TK_ROCE_V2_IP4;
    memcpy(s.dmac, "\x02\0\0\0\0\x02", 6);
    memcpy(s.smac, "\x02\0\0\0\0\x01", 6);
    memcpy(s.ip_src, "\xc0\xa8\x01\x01", 4);
    memcpy(s.ip_dst, "\xc0\xa8\x01\x02", 4);
    s.ttl = 64;
    s.udp_sport = 0xC123;
    s.bth.pkey = 0xFFFF;
    s.bth.destqp = 0x1234;
    s.reth.va = 0x7f0000001000ull;
    s.reth.rkey = 0x4321;
    s.reth.dmalen = 576;
    s.aeth.msn = 1;
    s.immdt.imm = 0xdeadbeef;
    uint8_t frame[512];
    size_t len;
    int rc = 0;
    for (unsigned long i = 0; i < count && rc == 0; i++) {
        s.bth.opcode = mix[i % 8].opcode;
        s.payload = payload;
        s.payload_len = mix[i % 8].payload;
        s.bth.psn = (uint32_t)i & 0xFFFFFF;
        if (ibw_build(&s, frame, sizeof frame, &len) != IBW_OK) {
            fprintf(stderr, "gen_bench: build failed\n");
            rc = 1;
            break;
        }
        rc = cap_write(w, 1700000000000000000ull + i * 1000, frame, len, NULL);
    }
    if (cap_writer_close(w) != 0 || rc != 0) {
        fprintf(stderr, "gen_bench: %s: write failed\n", argv[1]);
        return 1;
    }
    return 0;
}
