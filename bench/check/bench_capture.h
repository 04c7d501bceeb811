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

#include "capture.h"

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

#endif
