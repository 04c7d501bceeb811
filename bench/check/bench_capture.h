/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench_capture.h - the start both check benchmarks make on the synthetic
 * capture they time: the pcap writer and the payload bytes.
 */
#ifndef BENCH_CAPTURE_H
#define BENCH_CAPTURE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "capture.h"
#include "ibwire/packet.h"

/* An Ethernet pcap writer for path; NULL, the reason said on stderr, when
 * it cannot be opened. */
static inline struct cap_writer *bench_capture_open(const char *path)
{
    char err[256];
    struct cap_writer *w = cap_writer_open(path, CAP_FORMAT_PCAP,
                                           CAP_LINKTYPE_ETHERNET, err, sizeof err);
    if (!w)
        fprintf(stderr, "%s\n", err);
    return w;
}

/* A payload whose bytes count up (mod 256), so a cut shows where it fell. */
static inline void bench_payload_fill(uint8_t *payload, size_t len)
{
    for (size_t i = 0; i < len; i++)
        payload[i] = (uint8_t)i;
}

/* The Ethernet and IPv4 fields of a RoCEv2 frame the packet rules hold to
 * (PKT-ETH-SRC: a source MAC that is not zero; PKT-IP-HDR: DF set), one
 * locally administered MAC per IPv4 host, so that the timed capture draws
 * no finding and the checker's cost is that of a clean capture. */
static inline void bench_spec_l2l3(struct ibw_build_spec *s)
{
    s->ip_df = 1;
    s->smac[0] = s->dmac[0] = 0x02;
    memcpy(s->smac + 2, s->ip_src, 4);
    memcpy(s->dmac + 2, s->ip_dst, 4);
}

#endif
