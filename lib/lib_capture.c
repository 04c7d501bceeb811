/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lib_capture.c - reading capture files through conformance/capture (pcap
 * through libpcap, pcapng through its own block reader, link types 1, 197,
 * 247 and 252), each frame handed back as the link's bytes.
 */
#include <stdio.h>
#include <stdlib.h>

#include "lib_int.h"

struct ibwire_capture {
    struct cap_reader *rd;
    int failed;
};

IBWIRE_API ibwire_capture *ibwire_capture_open(const char *path, char *err,
                                               size_t errlen)
{
    char msg[512];
    if (!path) {
        if (err && errlen)
            snprintf(err, errlen, "no file named");
        return NULL;
    }
    ibwire_capture *c = calloc(1, sizeof *c);
    if (!c) {
        if (err && errlen)
            snprintf(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    c->rd = cap_open(path, msg, sizeof msg);
    if (!c->rd) {
        if (err && errlen)
            snprintf(err, errlen, "%s", msg);
        free(c);
        return NULL;
    }
    return c;
}

IBWIRE_API void ibwire_capture_close(ibwire_capture *cap)
{
    if (!cap)
        return;
    cap_close(cap->rd);
    free(cap);
}

IBWIRE_API int ibwire_capture_next(ibwire_capture *cap, const uint8_t **frame,
                                   size_t *caplen, size_t *origlen, int *link,
                                   uint64_t *ts_ns)
{
    if (!cap || !frame || !caplen || !origlen || !link || !ts_ns)
        return IBWIRE_E_ARG;
    struct cap_frame fr;
    int rc = cap_next(cap->rd, &fr);
    if (rc < 0) {
        cap->failed = 1;
        return IBWIRE_E_IO;
    }
    if (rc != 1)
        return 0;
    *frame = fr.raw;
    *caplen = fr.caplen;
    *origlen = fr.origlen;
    *link = fr.linktype;
    *ts_ns = (uint64_t)fr.ts_sec * 1000000000u + fr.ts_nsec;
    return 1;
}

IBWIRE_API const char *ibwire_capture_error(const ibwire_capture *cap)
{
    if (!cap || !cap->failed)
        return NULL;
    return cap_error(cap->rd);
}
