/* SPDX-License-Identifier: Apache-2.0 */
/*
 * use_ibwire_lib - a program built against an installed libibwire through
 * `pkg-config ibwire-lib` alone: parses a RoCEv2 RC SEND ONLY frame written
 * by hand (PSN 0x000102, DestQP 0x11; the frame of
 * conformance/tests/packet/test_packet_vectors.c) and prints what the
 * library says of it.
 */
#include <ibwire_lib.h>
#include <stdio.h>

static const uint8_t frame[] = {
    0x02, 0x00, 0x00, 0x00, 0x00, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01,
    0x08, 0x00, 0x45, 0x6A, 0x00, 0x34, 0x12, 0x34, 0x40, 0x00, 0x40, 0x11,
    0xA4, 0xC7, 0xC0, 0xA8, 0x01, 0x01, 0xC0, 0xA8, 0x01, 0x02, 0xC0, 0x00,
    0x12, 0xB7, 0x00, 0x20, 0x00, 0x00, 0x04, 0xB0, 0xFF, 0xFF, 0x00, 0x00,
    0x00, 0x11, 0x80, 0x00, 0x01, 0x02, 'h',  'e',  'l',  'l',  'o',  0x00,
    0x00, 0x00, 0xDA, 0x8A, 0xE1, 0xF4};

int main(void)
{
    ibwire_packet *p = ibwire_packet_new();
    uint64_t psn = 0, qp = 0;
    if (!p || ibwire_packet_parse(p, frame, sizeof frame, 0, 1, 0) != 0)
        return 1;
    int got = ibwire_packet_uint(p, ibwire_field_lookup("infiniband.bth.psn"),
                                 0, &psn) == 1 &&
              ibwire_packet_uint(p, ibwire_field_lookup("infiniband.bth.destqp"),
                                 0, &qp) == 1;
    printf("libibwire %s abi %d: psn 0x%06llx destqp 0x%06llx icrc %s\n",
           ibwire_version(), ibwire_abi(), (unsigned long long)psn,
           (unsigned long long)qp,
           ibwire_packet_icrc_status(p) == IBWIRE_CRC_GOOD ? "good" : "not good");
    ibwire_packet_free(p);
    return got ? 0 : 1;
}
