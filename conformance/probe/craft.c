/* SPDX-License-Identifier: Apache-2.0 */
/*
 * craft.c - the probe's frames: built with the library's ibw_build() from
 * what a script line says, faults applied to the bytes afterwards; the
 * device's frames decoded with ibw_parse() and described for reports.
 */
#include <stdio.h>
#include <string.h>

#include "ibwire/crc.h"
#include "ibwire/packet.h"
#include "probe_int.h"

static const struct {
    const char *name;
    uint8_t op;
} opnames[] = {
    {"SEND_FIRST", IBW_OP_RC_SEND_FIRST},
    {"SEND_MIDDLE", IBW_OP_RC_SEND_MIDDLE},
    {"SEND_LAST", IBW_OP_RC_SEND_LAST},
    {"SEND_LAST_IMM", IBW_OP_RC_SEND_LAST_WITH_IMMEDIATE},
    {"SEND_ONLY", IBW_OP_RC_SEND_ONLY},
    {"SEND_ONLY_IMM", IBW_OP_RC_SEND_ONLY_WITH_IMMEDIATE},
    {"WRITE_FIRST", IBW_OP_RC_RDMA_WRITE_FIRST},
    {"WRITE_MIDDLE", IBW_OP_RC_RDMA_WRITE_MIDDLE},
    {"WRITE_LAST", IBW_OP_RC_RDMA_WRITE_LAST},
    {"WRITE_LAST_IMM", IBW_OP_RC_RDMA_WRITE_LAST_WITH_IMMEDIATE},
    {"WRITE_ONLY", IBW_OP_RC_RDMA_WRITE_ONLY},
    {"WRITE_ONLY_IMM", IBW_OP_RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE},
    {"READ_REQUEST", IBW_OP_RC_RDMA_READ_REQUEST},
    {"READ_RESPONSE_FIRST", IBW_OP_RC_RDMA_READ_RESPONSE_FIRST},
    {"READ_RESPONSE_MIDDLE", IBW_OP_RC_RDMA_READ_RESPONSE_MIDDLE},
    {"READ_RESPONSE_LAST", IBW_OP_RC_RDMA_READ_RESPONSE_LAST},
    {"READ_RESPONSE_ONLY", IBW_OP_RC_RDMA_READ_RESPONSE_ONLY},
    {"ACK", IBW_OP_RC_ACKNOWLEDGE},
    {"ATOMIC_ACK", IBW_OP_RC_ATOMIC_ACKNOWLEDGE},
    {"CMP_SWAP", IBW_OP_RC_COMPARE_SWAP},
    {"FETCH_ADD", IBW_OP_RC_FETCH_ADD},
    {"SEND_LAST_INV", IBW_OP_RC_SEND_LAST_WITH_INVALIDATE},
    {"SEND_ONLY_INV", IBW_OP_RC_SEND_ONLY_WITH_INVALIDATE},
    {"UD_SEND_ONLY", IBW_OP_UD_SEND_ONLY},
    {"UD_SEND_ONLY_IMM", IBW_OP_UD_SEND_ONLY_WITH_IMMEDIATE},
    {"CNP", IBW_OP_CNP},
};

int probe_opcode_by_name(const char *name)
{
    for (size_t i = 0; i < sizeof opnames / sizeof opnames[0]; i++)
        if (!strcmp(name, opnames[i].name))
            return opnames[i].op;
    return -1;
}

const char *probe_opcode_name(uint8_t op)
{
    for (size_t i = 0; i < sizeof opnames / sizeof opnames[0]; i++)
        if (opnames[i].op == op)
            return opnames[i].name;
    return NULL;
}

void probe_frame_fix(uint8_t *f, size_t len)
{
    if (len < 14 + 20 + 8 + 12 + 4)
        return;
    uint8_t *ip = f + 14;
    ip[10] = ip[11] = 0;
    uint32_t sum = 0;
    for (int i = 0; i < 20; i += 2)
        sum += (uint32_t)ip[i] << 8 | ip[i + 1];
    while (sum >> 16)
        sum = (sum & 0xFFFF) + (sum >> 16);
    ip[10] = (uint8_t)(~sum >> 8);
    ip[11] = (uint8_t)~sum;
    uint8_t hdr[8 + 20 + 8 + 12];
    memset(hdr, 0xFF, 8);
    memcpy(hdr + 8, ip, 40);
    uint8_t *h = hdr + 8;
    h[1] = 0xFF;            /* TOS */
    h[8] = 0xFF;            /* TTL */
    h[10] = h[11] = 0xFF;   /* header checksum */
    h[20 + 6] = h[20 + 7] = 0xFF; /* UDP checksum */
    h[28 + 4] = 0xFF;       /* BTH FECN, BECN, resv6 */
    uint32_t crc = ibw_crc32(0, hdr, sizeof hdr);
    crc = ibw_crc32(crc, f + 14 + 40, len - 4 - (14 + 40));
    f[len - 4] = (uint8_t)crc;
    f[len - 3] = (uint8_t)(crc >> 8);
    f[len - 2] = (uint8_t)(crc >> 16);
    f[len - 1] = (uint8_t)(crc >> 24);
}

size_t probe_craft(const struct probe_frame_spec *fs, const struct probe_dev *d,
                   uint8_t *out, size_t cap)
{
    struct ibw_build_spec s;
    uint8_t payload[4096 + 64];
    if (fs->len > sizeof payload)
        return 0;
    for (uint32_t i = 0; i < fs->len; i++)
        payload[i] = probe_data_byte(fs->data + i);
    memset(&s, 0, sizeof s);
    s.transport = IBW_TK_ROCE_V2_IP4;
    memcpy(s.dmac, d->dev_mac, 6);
    memcpy(s.smac, d->probe_mac, 6);
    ibw_store_be32(s.ip_src, d->probe_ip4);
    ibw_store_be32(s.ip_dst, d->dev_ip4);
    s.ttl = 64;
    s.ip_df = 1;
    s.udp_sport = (uint16_t)(0xC000u | (fs->srcqp & 0x3FFFu));
    if (fs->fault == PF_UDPPORT)
        s.udp_dport = 4792;
    s.bth.opcode = fs->opcode;
    s.bth.se = fs->se;
    s.bth.pkey = fs->pkey;
    s.bth.fecn = fs->fecn;
    s.bth.becn = fs->becn;
    s.bth.destqp = fs->destqp;
    s.bth.ackreq = fs->ackreq;
    s.bth.psn = fs->psn & 0xFFFFFFu;
    s.reth.va = fs->va;
    s.reth.rkey = fs->rkey;
    s.reth.dmalen = fs->dmalen;
    s.atomiceth.va = fs->va;
    s.atomiceth.rkey = fs->rkey;
    s.atomiceth.swapdt = fs->swap;
    s.atomiceth.cmpdt = fs->cmp;
    s.aeth.syndrome = fs->syndrome;
    s.aeth.msn = fs->msn & 0xFFFFFFu;
    s.atomicacketh.origremdt = fs->orig;
    s.immdt.imm = fs->imm;
    s.ieth.rkey = fs->ieth;
    s.deth.qkey = fs->qkey;
    s.deth.srcqp = fs->srcqp;
    s.payload = payload;
    s.payload_len = fs->len;
    size_t n = 0;
    if (ibw_build(&s, out, cap, &n) != IBW_OK)
        return 0;
    switch (fs->fault) {
    case PF_ICRC:
        out[n - 1] ^= 0xFF;
        break;
    case PF_IPVER: /* version 6 in an IPv4 header (CA17-27) */
        out[14] = (uint8_t)(0x60 | (out[14] & 0x0F));
        probe_frame_fix(out, n);
        break;
    case PF_IPLEN: { /* Total Length 4 more than the datagram (CA17-6) */
        uint16_t tl = (uint16_t)(out[16] << 8 | out[17]);
        tl = (uint16_t)(tl + 4);
        out[16] = (uint8_t)(tl >> 8);
        out[17] = (uint8_t)tl;
        probe_frame_fix(out, n);
        break;
    }
    case PF_UDPLEN: { /* UDP Length 4 less than the datagram (CA17-21) */
        uint16_t ul = (uint16_t)(out[38] << 8 | out[39]);
        ul = (uint16_t)(ul - 4);
        out[38] = (uint8_t)(ul >> 8);
        out[39] = (uint8_t)ul;
        probe_frame_fix(out, n);
        break;
    }
    default:
        break;
    }
    return n;
}

void probe_decode(const uint8_t *f, size_t len, struct probe_rx *rx)
{
    memset(rx, 0, sizeof *rx);
    struct ibw_pkt v;
    if (ibw_parse(f, len, IBW_LINK_ETHERNET, &v) != IBW_OK ||
        !ibw_pkt_has(&v, IBW_HDR_BTH) || v.icrc_status != IBW_CRC_GOOD)
        return;
    rx->ok = 1;
    const uint8_t *b = ibw_pkt_hdr(&v, IBW_HDR_BTH), *x;
    rx->opcode = ibw_bth_get_opcode(b);
    rx->ackreq = ibw_bth_get_ackreq(b);
    rx->se = ibw_bth_get_se(b);
    rx->psn = ibw_bth_get_psn(b);
    rx->destqp = ibw_bth_get_destqp(b);
    rx->paylen = (uint32_t)v.payload_len;
    rx->payload = ibw_pkt_payload(&v);
    if ((x = ibw_pkt_hdr(&v, IBW_HDR_AETH))) {
        rx->has_aeth = 1;
        rx->syndrome = ibw_aeth_get_syndrome(x);
        rx->msn = ibw_aeth_get_msn(x);
    }
    if ((x = ibw_pkt_hdr(&v, IBW_HDR_RETH))) {
        rx->va = ibw_reth_get_va(x);
        rx->rkey = ibw_reth_get_rkey(x);
        rx->dmalen = ibw_reth_get_dmalen(x);
    }
    if ((x = ibw_pkt_hdr(&v, IBW_HDR_ATOMICETH))) {
        rx->va = ibw_atomiceth_get_va(x);
        rx->rkey = ibw_atomiceth_get_rkey(x);
    }
    if ((x = ibw_pkt_hdr(&v, IBW_HDR_ATOMICACKETH)))
        rx->orig = ibw_atomicacketh_get_origremdt(x);
    if ((x = ibw_pkt_hdr(&v, IBW_HDR_IMMDT)))
        rx->imm = ibw_immdt_get_imm(x);
}

static const char *aeth_name(uint8_t syn)
{
    switch (syn >> 5) {
    case 0: return "ack";
    case 1: return "rnr";
    case 3:
        switch (syn & 0x1F) {
        case 0: return "nak-seq";
        case 1: return "nak-inv";
        case 2: return "nak-acc";
        case 3: return "nak-op";
        case 4: return "nak-inv-rd";
        default: return "nak-reserved";
        }
    default: return "reserved";
    }
}

void probe_describe(const struct probe_rx *rx, char *out, size_t cap)
{
    if (!rx->ok) {
        snprintf(out, cap, "a frame that does not parse or has a bad ICRC");
        return;
    }
    const char *n = probe_opcode_name(rx->opcode);
    char opb[16];
    if (!n) {
        snprintf(opb, sizeof opb, "opcode-0x%02x", rx->opcode);
        n = opb;
    }
    int k = snprintf(out, cap, "%s psn=0x%06x dqp=0x%x", n, rx->psn, rx->destqp);
    if (k < 0 || (size_t)k >= cap)
        return;
    if (rx->has_aeth)
        k += snprintf(out + k, cap - (size_t)k, " aeth=%s/0x%02x msn=%u",
                      aeth_name(rx->syndrome), rx->syndrome, rx->msn);
    if (ibw_opcode_has_hdr(rx->opcode, IBW_HDR_RETH) && (size_t)k < cap)
        k += snprintf(out + k, cap - (size_t)k, " va=0x%llx rkey=0x%x dmalen=%u",
                      (unsigned long long)rx->va, rx->rkey, rx->dmalen);
    if (ibw_opcode_has_hdr(rx->opcode, IBW_HDR_ATOMICACKETH) && (size_t)k < cap)
        k += snprintf(out + k, cap - (size_t)k, " orig=0x%llx",
                      (unsigned long long)rx->orig);
    if ((size_t)k < cap)
        snprintf(out + k, cap - (size_t)k, " len=%u", rx->paylen);
}
