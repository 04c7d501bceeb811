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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "ibwire/packet.h"

static uint64_t rng_state;

static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static uint64_t rnd_bits(unsigned bits)
{
    return bits >= 64 ? rnd() : rnd() & ((1ull << bits) - 1);
}

static void rnd_fill(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)rnd();
}

static const uint8_t tshark_opcodes[] = {
    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A,
    0x0B, 0x0C, 0x0D, 0x0E, 0x0F, 0x10, 0x11, 0x12, 0x13, 0x14, 0x16,
    0x17, 0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28, 0x29,
    0x2A, 0x2B, 0x64, 0x65};

/* Random values for every header the opcode may carry, and a payload. */
static void fill_spec(struct ibw_build_spec *s, uint8_t op, uint8_t transport,
                      uint8_t *payload, size_t payload_cap)
{
    memset(s, 0, sizeof *s);
    s->transport = transport;
    rnd_fill(s->dmac, 6);
    rnd_fill(s->smac, 6);
    rnd_fill(s->ip_src, 16);
    rnd_fill(s->ip_dst, 16);
    s->tos = (uint8_t)rnd();
    s->ttl = (uint8_t)rnd();
    s->flowlabel = (uint32_t)rnd_bits(20);
    s->ip_id = (uint16_t)rnd();
    s->ip_df = (uint8_t)rnd_bits(1);
    s->udp_sport = (uint16_t)(4792 + rnd() % (65536 - 4792));

    s->lrh.vl = (uint8_t)rnd_bits(4);
    s->lrh.sl = (uint8_t)rnd_bits(4);
    s->lrh.dlid = (uint16_t)rnd();
    s->lrh.slid = (uint16_t)rnd();
    s->grh.tclass = (uint8_t)rnd();
    s->grh.flowlabel = (uint32_t)rnd_bits(20);
    s->grh.hoplmt = (uint8_t)rnd();
    rnd_fill(s->grh.sgid, 16);
    rnd_fill(s->grh.dgid, 16);
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

struct out {
    struct cap_writer *w;
    uint64_t frames;
    const char *path;
};

static int out_open(struct out *o, const char *dir, const char *name,
                    enum cap_file_format fmt, int linktype, char *path,
                    size_t pathcap)
{
    char err[512];
    snprintf(path, pathcap, "%s/%s", dir, name);
    o->path = path;
    o->frames = 0;
    o->w = cap_writer_open(path, fmt, linktype, err, sizeof err);
    if (!o->w) {
        fprintf(stderr, "gen_diff: %s\n", err);
        return -1;
    }
    return 0;
}

static int emit(struct out *o, const struct ibw_build_spec *s)
{
    uint8_t frame[2048];
    size_t len;
    int rc = ibw_build(s, frame, sizeof frame, &len);
    if (rc != IBW_OK) {
        fprintf(stderr, "gen_diff: ibw_build opcode 0x%02x: %s\n",
                s->bth.opcode, ibw_strerror(rc));
        return -1;
    }
    o->frames++;
    char comment[64];
    snprintf(comment, sizeof comment, "frame %llu opcode 0x%02x",
             (unsigned long long)o->frames, s->bth.opcode);
    /* 1 ms apart, from a fixed start, so frame.time_epoch is checked too. */
    uint64_t ts = 1700000000ull * 1000000000ull + o->frames * 1000123ull;
    if (cap_write(o->w, ts, frame, len, comment) != 0) {
        fprintf(stderr, "gen_diff: %s: write failed\n", o->path);
        return -1;
    }
    return 0;
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

    static const struct {
        const char *name;
        enum cap_file_format fmt;
        int linktype;
        uint8_t transport;
    } files[] = {
        {"roce4.pcap", CAP_FORMAT_PCAP, CAP_LINKTYPE_ETHERNET,
         IBW_TK_ROCE_V2_IP4},
        {"roce6.pcapng", CAP_FORMAT_PCAPNG, CAP_LINKTYPE_ETHERNET,
         IBW_TK_ROCE_V2_IP6},
        {"rocev1.pcap", CAP_FORMAT_PCAP, CAP_LINKTYPE_ETHERNET, IBW_TK_ROCE_V1},
        {"ib-erf.pcap", CAP_FORMAT_PCAP, CAP_LINKTYPE_ERF, IBW_TK_IB_LOCAL},
        {"ib-exp.pcapng", CAP_FORMAT_PCAPNG, CAP_LINKTYPE_EXPORTED_PDU,
         IBW_TK_IB_LOCAL},
    };
    uint8_t payload[128];
    char path[1024];
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        struct out o;
        if (out_open(&o, dir, files[f].name, files[f].fmt, files[f].linktype,
                     path, sizeof path) != 0)
            return 1;
        for (size_t i = 0; i < sizeof tshark_opcodes; i++) {
            for (unsigned k = 0; k < per; k++) {
                struct ibw_build_spec s;
                uint8_t tk = files[f].transport;
                if (tk == IBW_TK_IB_LOCAL && (k & 1))
                    tk = IBW_TK_IB_GLOBAL;
                fill_spec(&s, tshark_opcodes[i], tk, payload, sizeof payload);
                if (tk == IBW_TK_ROCE_V2_IP4)
                    random_vlans(&s, 2);
                else if (tk == IBW_TK_ROCE_V1 || tk == IBW_TK_ROCE_V2_IP6)
                    random_vlans(&s, 1);
                if (tk == IBW_TK_ROCE_V2_IP4 && rnd_bits(1))
                    s.flags |= IBW_BUILD_ETH_PAD; /* trailer after the ICRC */
                if (emit(&o, &s) != 0)
                    return 1;
            }
        }
        if (cap_writer_close(o.w) != 0) {
            fprintf(stderr, "gen_diff: %s: close failed\n", path);
            return 1;
        }
    }
    return 0;
}
