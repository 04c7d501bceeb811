/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lib_dump - `ibwire dump -T fields` rebuilt on libibwire's public calls
 * alone (ibwire_capture_*, ibwire_packet_*), so that the tool's tshark
 * differential (conformance/tests/dump/tshark_diff.py --ibwire lib_dump)
 * holds the library against tshark.
 *
 *   lib_dump dump -T fields -e FIELD... CAPTURE
 *   lib_dump dump --list-fields
 *
 * (--list-fields from ibwire_field_name/_description, for the MAD
 * differential conformance/tests/dump_mad/mad_tshark_diff.py, which asks
 * for every name listed.)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibwire_lib.h"

/* Field occurrence `occ` as text into *buf (grown as needed): its length,
 * 0 when absent, -1 on failure. */
static int field_text(const ibwire_packet *p, int id, int occ, char **buf,
                      size_t *cap)
{
    for (;;) {
        int n = ibwire_packet_text(p, id, occ, *buf, *cap);
        if (n != IBWIRE_E_NOSPACE)
            return n < 0 ? -1 : n;
        char *b = realloc(*buf, *cap * 2);
        if (!b)
            return -1;
        *buf = b;
        *cap *= 2;
    }
}

int main(int argc, char **argv)
{
    int ids[1024];
    int nids = 0;
    const char *path = NULL;
    if (argc < 2 || strcmp(argv[1], "dump") != 0) {
        fprintf(stderr, "usage: lib_dump dump -T fields -e FIELD... FILE\n");
        return 2;
    }
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--list-fields")) {
            for (int id = 0; id < ibwire_field_count(); id++)
                printf("%-40s %s\n", ibwire_field_name(id),
                       ibwire_field_description(id));
            return 0;
        }
        if (!strcmp(argv[i], "-T") && i + 1 < argc) {
            i++;
        } else if (!strcmp(argv[i], "-e") && i + 1 < argc && nids < 1024) {
            int id = ibwire_field_lookup(argv[++i]);
            if (id < 0) {
                fprintf(stderr, "lib_dump: %s: %s\n", argv[i],
                        ibwire_strerror(id));
                return 2;
            }
            ids[nids++] = id;
        } else {
            path = argv[i];
        }
    }
    char err[512];
    ibwire_capture *cap = path ? ibwire_capture_open(path, err, sizeof err)
                               : NULL;
    ibwire_packet *p = ibwire_packet_new();
    size_t tcap = 64;
    char *text = malloc(tcap);
    if (!cap || !p || !text) {
        fprintf(stderr, "lib_dump: %s\n", cap ? "out of memory" : err);
        return 2;
    }
    const uint8_t *frame;
    size_t caplen, origlen;
    int link, rc;
    uint64_t ts;
    while ((rc = ibwire_capture_next(cap, &frame, &caplen, &origlen, &link,
                                     &ts)) == 1) {
        if (ibwire_packet_parse(p, frame, caplen, origlen, link, ts) != 0) {
            fprintf(stderr, "lib_dump: a frame the library refused\n");
            return 1;
        }
        for (int f = 0; f < nids; f++) {
            if (f)
                putchar('\t');
            int n = ibwire_packet_count(p, ids[f]);
            for (int o = 0; o < n; o++) {
                if (field_text(p, ids[f], o, &text, &tcap) < 0)
                    return 1;
                printf("%s%s", o ? "," : "", text);
            }
        }
        putchar('\n');
    }
    if (rc < 0) {
        fprintf(stderr, "lib_dump: %s\n", ibwire_capture_error(cap));
        return 2;
    }
    free(text);
    ibwire_packet_free(p);
    ibwire_capture_close(cap);
    return 0;
}
