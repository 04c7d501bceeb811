/* SPDX-License-Identifier: Apache-2.0 */
/*
 * live_filter.c - how many frames of each capture file the live capture's
 * default BPF filter (CAP_LIVE_FILTER) keeps, as libpcap compiles and runs
 * it: "PATH KEPT TOTAL" per file.  encap_suite.py's `bpf` mode compares the
 * count with the frames ibwire finds IBA in.
 */
#include <pcap/pcap.h>
#include <stdio.h>

#include "capture.h"

int main(int argc, char **argv)
{
    pcap_t *dead = pcap_open_dead(DLT_EN10MB, 65535);
    struct bpf_program prog;
    if (!dead || pcap_compile(dead, &prog, CAP_LIVE_FILTER, 1,
                              PCAP_NETMASK_UNKNOWN) != 0) {
        fprintf(stderr, "CAP_LIVE_FILTER does not compile: %s\n",
                dead ? pcap_geterr(dead) : "no pcap handle");
        return 1;
    }
    for (int i = 1; i < argc; i++) {
        char err[PCAP_ERRBUF_SIZE];
        pcap_t *r = pcap_open_offline(argv[i], err);
        if (!r) {
            fprintf(stderr, "%s: %s\n", argv[i], err);
            return 1;
        }
        struct pcap_pkthdr *h;
        const u_char *d;
        unsigned long kept = 0, total = 0;
        while (pcap_next_ex(r, &h, &d) == 1) {
            total++;
            kept += pcap_offline_filter(&prog, h, d) != 0;
        }
        printf("%s %lu %lu\n", argv[i], kept, total);
        pcap_close(r);
    }
    pcap_freecode(&prog);
    pcap_close(dead);
    return 0;
}
