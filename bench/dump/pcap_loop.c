/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pcap_loop.c - the baseline of the dump benchmark: libpcap reading every
 * record of a capture and touching nothing, the least any reader pays.
 *
 *   pcap_loop [--tuned] FILE      prints the number of records
 *
 * Plain: pcap_open_offline() as it comes.  --tuned: the file opened the way
 * ibwire's reader opens it (1 MiB stdio buffer, no stdio locking), so the
 * stricter ratio can be reported too.
 */
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__has_include)
#if __has_include(<stdio_ext.h>)
#include <stdio_ext.h>
#define HAVE_FSETLOCKING 1
#endif
#endif

int main(int argc, char **argv)
{
    char err[PCAP_ERRBUF_SIZE];
    int tuned = argc == 3 && strcmp(argv[1], "--tuned") == 0;
    if (argc != 2 && !tuned) {
        fprintf(stderr, "usage: pcap_loop [--tuned] FILE\n");
        return 2;
    }
    const char *path = argv[argc - 1];
    pcap_t *p;
    static char iobuf[1 << 20];
    if (tuned) {
        FILE *f = fopen(path, "rb");
        if (!f) {
            perror(path);
            return 2;
        }
        setvbuf(f, iobuf, _IOFBF, sizeof iobuf);
#ifdef HAVE_FSETLOCKING
        __fsetlocking(f, FSETLOCKING_BYCALLER);
#endif
        p = pcap_fopen_offline(f, err);
    } else {
        p = pcap_open_offline(path, err);
    }
    if (!p) {
        fprintf(stderr, "pcap_loop: %s\n", err);
        return 2;
    }
    struct pcap_pkthdr *h;
    const u_char *d;
    unsigned long n = 0;
    while (pcap_next_ex(p, &h, &d) == 1)
        n++;
    pcap_close(p);
    printf("%lu\n", n);
    return 0;
}
