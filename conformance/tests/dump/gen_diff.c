/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gen_diff.c - captures for the tshark differential of `ibwire dump`.
 *
 *   gen_diff OUTDIR SEED PER_OPCODE
 *
 * For every opcode tshark 4.0 decodes (RC 0x00-0x14, 0x16, 0x17; UC
 * 0x20-0x2B; UD 0x64, 0x65) builds PER_OPCODE packets with ibw_build() and
 * random header values (a seeded xorshift, so runs repeat) and writes them
 * as
 *   roce4.pcap     RoCEv2/IPv4, 0-2 VLAN tags (802.1Q, 802.1ad outer),
 *                  some padded to 60 bytes
 *   roce6.pcapng   RoCEv2/IPv6, each packet commented "frame N opcode 0xXX"
 *   rocev1.pcap    RoCEv1 (EtherType 0x8915 + GRH), 0-1 tags
 *   ib-erf.pcap    native InfiniBand, LRH with and without GRH, in ERF (197)
 *   ib-exp.pcapng  native InfiniBand in exported PDUs (252)
 * Values avoid tshark's other decoders: UDP source ports above 4791 (tshark
 * tries the lower port first), destination QPs above 1 (QP0/QP1 mean MADs),
 * BTH TVer 0.  Which bytes the packets hold is up to ibw_build(); the test
 * compares what ibwire and tshark read from them.
 */
#include <stdlib.h>

#include "../gen_common.h"

static const uint8_t tshark_opcodes[] = {
    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A,
    0x0B, 0x0C, 0x0D, 0x0E, 0x0F, 0x10, 0x11, 0x12, 0x13, 0x14, 0x16,
    0x17, 0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28, 0x29,
    0x2A, 0x2B, 0x64, 0x65};

/* Random values for every header the opcode may carry, and a payload. */
static void fill_spec(struct ibw_build_spec *s, uint8_t op, uint8_t transport,
                      uint8_t *payload, size_t payload_cap)
{
    gen_outer_headers(s, transport, 1);
    if (rnd_bits(2) == 0) /* link-local GIDs: zero runs in the text form */
        memcpy(s->grh.sgid, "\xfe\x80\0\0\0\0\0\0", 8);

    s->bth.opcode = op;
    s->bth.se = (uint8_t)rnd_bits(1);
    s->bth.m = (uint8_t)rnd_bits(1);
    s->bth.pkey = (uint16_t)rnd();
    s->bth.fecn = (uint8_t)rnd_bits(1);
    s->bth.becn = (uint8_t)rnd_bits(1);
    s->bth.destqp = (uint32_t)(2 + rnd() % 0xFFFFFE);
    s->bth.ackreq = (uint8_t)rnd_bits(1);
    s->bth.psn = (uint32_t)rnd_bits(24);
    s->rdeth.eecnxt = (uint32_t)rnd_bits(24);
    s->deth.qkey = (uint32_t)rnd();
    s->deth.srcqp = (uint32_t)rnd_bits(24);
    s->reth.va = rnd();
    s->reth.rkey = (uint32_t)rnd();
    s->reth.dmalen = (uint32_t)rnd();
    s->atomiceth.va = rnd();
    s->atomiceth.rkey = (uint32_t)rnd();
    s->atomiceth.swapdt = rnd();
    s->atomiceth.cmpdt = rnd();
    s->aeth.syndrome = (uint8_t)rnd();
    s->aeth.msn = (uint32_t)rnd_bits(24);
    s->atomicacketh.origremdt = rnd();
    s->immdt.imm = (uint32_t)rnd();
    s->ieth.rkey = (uint32_t)rnd();

    const struct ibw_opcode_info *info = ibw_opcode_info(op);
    if (info->flags & IBW_OPF_PAYLOAD) {
        size_t n = rnd() % 72;
        if (n > payload_cap)
            n = payload_cap;
        rnd_fill(payload, n);
        s->payload = payload;
        s->payload_len = n;
    }
}

static void random_vlans(struct ibw_build_spec *s, unsigned max)
{
    s->nvlan = (uint8_t)(rnd() % (max + 1));
    for (unsigned i = 0; i < s->nvlan; i++) {
        /* an 802.1ad outer tag now and then: not vlan.* to Wireshark */
        s->vlan[i].tpid = i == 0 && s->nvlan == 2 && rnd_bits(1) ? 0x88A8
                                                                 : 0x8100;
        s->vlan[i].pcp = (uint8_t)rnd_bits(3);
        s->vlan[i].dei = (uint8_t)rnd_bits(1);
        s->vlan[i].vid = (uint16_t)rnd_bits(12);
    }
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: gen_diff OUTDIR SEED PER_OPCODE\n");
        return 2;
    }
    const char *dir = argv[1];
    rng_state = strtoull(argv[2], NULL, 0) | 1;
    unsigned per = (unsigned)strtoul(argv[3], NULL, 0);

    uint8_t payload[128];
    for (size_t f = 0; f < GEN_NFILES; f++) {
        struct gen_out o;
        if (gen_out_open(&o, "gen_diff", dir, &gen_files[f]) != 0)
            return 1;
        for (size_t i = 0; i < sizeof tshark_opcodes; i++) {
            for (unsigned k = 0; k < per; k++) {
                struct ibw_build_spec s;
                uint8_t tk = gen_transport(&gen_files[f], k);
                fill_spec(&s, tshark_opcodes[i], tk, payload, sizeof payload);
                if (tk == IBW_TK_ROCE_V2_IP4)
                    random_vlans(&s, 2);
                else if (tk == IBW_TK_ROCE_V1 || tk == IBW_TK_ROCE_V2_IP6)
                    random_vlans(&s, 1);
                if (tk == IBW_TK_ROCE_V2_IP4 && rnd_bits(1))
                    s.flags |= IBW_BUILD_ETH_PAD; /* trailer after the ICRC */
                char what[32];
                snprintf(what, sizeof what, "opcode 0x%02x", s.bth.opcode);
                if (gen_emit(&o, &s, what) != 0)
                    return 1;
            }
        }
        if (gen_out_close(&o) != 0)
            return 1;
    }
    return 0;
}
