/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gen_common.h - what the capture generators of the tshark differentials
 * (dump/gen_diff.c, dump_mad/gen_mad_diff.c) share: the seeded xorshift,
 * the random outer headers of a build spec, the five capture files and
 * writing one built packet, commented, into one of them.
 */
#ifndef IBWIRE_TESTS_GEN_COMMON_H
#define IBWIRE_TESTS_GEN_COMMON_H

#include <stdio.h>
#include <string.h>

#include "capture.h"
#include "ibwire/packet.h"
#include "xorshift.h"

/* The generator's seeded state; never 0 (callers seed it with `| 1`). */
static uint64_t rng_state;

/* The next xorshift64 value. */
static inline uint64_t rnd(void)
{
    return xorshift64_next(&rng_state);
}

/* A random value of `bits` bits (1..64). */
static inline uint64_t rnd_bits(unsigned bits)
{
    return bits >= 64 ? rnd() : rnd() & ((1ull << bits) - 1);
}

/* n random bytes into p. */
static inline void rnd_fill(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)rnd();
}

/* Clears s and gives it `transport` and random Ethernet, IP, UDP, LRH and
 * GRH values (a random IPv4 DF bit only when ip_df is set, so that each
 * generator keeps its own sequence of draws).  The UDP source port stays
 * above 4791: tshark tries the lower port first. */
static inline void gen_outer_headers(struct ibw_build_spec *s, uint8_t transport,
                                     int ip_df)
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
    if (ip_df)
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
}

/* The five captures each generator writes. */
struct gen_file {
    const char *name;
    enum cap_file_format fmt;
    int linktype;
    uint8_t transport;
};

static const struct gen_file gen_files[] = {
    {"roce4.pcap", CAP_FORMAT_PCAP, CAP_LINKTYPE_ETHERNET, IBW_TK_ROCE_V2_IP4},
    {"roce6.pcapng", CAP_FORMAT_PCAPNG, CAP_LINKTYPE_ETHERNET,
     IBW_TK_ROCE_V2_IP6},
    {"rocev1.pcap", CAP_FORMAT_PCAP, CAP_LINKTYPE_ETHERNET, IBW_TK_ROCE_V1},
    {"ib-erf.pcap", CAP_FORMAT_PCAP, CAP_LINKTYPE_ERF, IBW_TK_IB_LOCAL},
    {"ib-exp.pcapng", CAP_FORMAT_PCAPNG, CAP_LINKTYPE_EXPORTED_PDU,
     IBW_TK_IB_LOCAL},
};
#define GEN_NFILES (sizeof gen_files / sizeof gen_files[0])

/* The transport of packet k of a file: native IB files alternate between
 * LRH only (even k) and LRH + GRH (odd k). */
static inline uint8_t gen_transport(const struct gen_file *f, unsigned k)
{
    return f->transport == IBW_TK_IB_LOCAL && (k & 1) ? IBW_TK_IB_GLOBAL
                                                      : f->transport;
}

/* One capture being written; prog names the generator in messages. */
struct gen_out {
    const char *prog;
    struct cap_writer *w;
    uint64_t frames;
    char path[1024];
};

/* Opens DIR/f->name: 0, or -1 after a message on stderr. */
static inline int gen_out_open(struct gen_out *o, const char *prog,
                               const char *dir, const struct gen_file *f)
{
    char err[512];
    o->prog = prog;
    o->frames = 0;
    snprintf(o->path, sizeof o->path, "%s/%s", dir, f->name);
    o->w = cap_writer_open(o->path, f->fmt, f->linktype, err, sizeof err);
    if (!o->w) {
        fprintf(stderr, "%s: %s\n", prog, err);
        return -1;
    }
    return 0;
}

/* Builds s and appends it commented "frame N <what>", 1 ms apart from a
 * fixed start (so frame.time_epoch is checked too): 0, or -1 after a
 * message naming `what` on stderr. */
static inline int gen_emit(struct gen_out *o, const struct ibw_build_spec *s,
                           const char *what)
{
    uint8_t frame[2048];
    size_t len;
    int rc = ibw_build(s, frame, sizeof frame, &len);
    if (rc != IBW_OK) {
        fprintf(stderr, "%s: ibw_build %s: %s\n", o->prog, what,
                ibw_strerror(rc));
        return -1;
    }
    o->frames++;
    char comment[96];
    snprintf(comment, sizeof comment, "frame %llu %s",
             (unsigned long long)o->frames, what);
    uint64_t ts = 1700000000ull * 1000000000ull + o->frames * 1000123ull;
    if (cap_write(o->w, ts, frame, len, comment) != 0) {
        fprintf(stderr, "%s: %s: write failed\n", o->prog, o->path);
        return -1;
    }
    return 0;
}

/* Closes the capture: 0, or -1 after a message on stderr. */
static inline int gen_out_close(struct gen_out *o)
{
    if (cap_writer_close(o->w) != 0) {
        fprintf(stderr, "%s: %s: close failed\n", o->prog, o->path);
        return -1;
    }
    return 0;
}

#endif
