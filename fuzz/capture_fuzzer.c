/* SPDX-License-Identifier: Apache-2.0 */
/*
 * capture_fuzzer.c - the capture reader (libpcap underneath, then the
 * per-link framing of conformance/capture) on a whole file, and the writer
 * fed back what was read.
 *
 * Input: the bytes of a capture file (classic pcap or pcapng, any link
 * type).  The only harness that links libpcap.
 *
 * Properties:
 *   - opening either works or fails with a message; frames are numbered
 *     1, 2, ... and a damaged file ends with -1 and a message;
 *   - each frame's IBA bytes lie inside its record (iba + iba_len is the
 *     record's end, or before it for ERF padding), exactly one of iba and
 *     not_iba is set, and ibw_parse's view of them stays inside them;
 *   - writing the IBA frames back (pcap or pcapng, the file's link type)
 *     and reading that file gives the same frames, bytes and timestamps.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1 /* memfd_create, open_memstream */
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <ibwire/packet.h>

#include "capture.h"
#include "fuzz_common.h"

#define MAX_FRAMES 256

/* A path that reads back `data`: an anonymous in-memory file. */
static int mem_file(const uint8_t *data, size_t size, char *path, size_t n)
{
    int fd = memfd_create("capture_fuzzer", 0);
    FUZZ_CHECK(fd >= 0);
    size_t done = 0;
    while (done < size) {
        ssize_t w = write(fd, data + done, size - done);
        FUZZ_CHECK(w > 0);
        done += (size_t)w;
    }
    snprintf(path, n, "/proc/self/fd/%d", fd);
    return fd;
}

struct kept {
    uint64_t ts_ns;
    size_t len;
    uint8_t *bytes;
};

/* The view of a frame's IBA bytes stays inside them. */
static void check_parse(const uint8_t *iba, size_t len, enum ibw_link link)
{
    struct ibw_pkt v;
    ibw_parse(iba, len, link, &v);
    for (unsigned h = 0; h < IBW_HDR_COUNT; h++)
        if (v.present & (1u << h))
            FUZZ_CHECK((size_t)v.off[h] + ibw_hdr_size(h) <= len);
    if (v.err == IBW_OK)
        FUZZ_CHECK((size_t)v.payload_off + v.payload_len + v.pad <= len &&
                   (size_t)v.iba_end + v.trailer_len == len);
}

/* Can the file being written hold this time?  Classic pcap and ERF keep
 * seconds in 32 unsigned bits (cap_write refuses later times). */
static int time_fits(uint64_t ts_ns, enum cap_file_format format,
                     int linktype)
{
    return (format != CAP_FORMAT_PCAP && linktype != CAP_LINKTYPE_ERF) ||
           ts_ns / 1000000000u <= UINT32_MAX;
}

/* Does the writer take this frame's IBA bytes as they are for the file's
 * link type (ERF and exported PDU are re-wrapped around an IB frame)? */
static int writable(const struct cap_frame *fr)
{
    if (!fr->iba)
        return 0;
    if (fr->linktype == CAP_LINKTYPE_ETHERNET)
        return fr->link == IBW_LINK_ETHERNET;
    /* the writer has no Linux cooked-capture header to put back */
    if (fr->linktype == CAP_LINKTYPE_LINUX_SLL ||
        fr->linktype == CAP_LINKTYPE_LINUX_SLL2)
        return 0;
    return fr->link == IBW_LINK_IB;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64], err[1024] = "";
    int fd = mem_file(data, size, path, sizeof path);
    struct cap_reader *r = cap_open(path, err, sizeof err);
    if (!r) {
        FUZZ_CHECK(err[0] != '\0');
        close(fd);
        return 0;
    }
    int linktype = cap_linktype(r);
    FUZZ_CHECK(linktype == CAP_LINKTYPE_ETHERNET ||
               linktype == CAP_LINKTYPE_ERF ||
               linktype == CAP_LINKTYPE_INFINIBAND ||
               linktype == CAP_LINKTYPE_EXPORTED_PDU ||
               linktype == CAP_LINKTYPE_LINUX_SLL ||
               linktype == CAP_LINKTYPE_LINUX_SLL2);
    FUZZ_CHECK(strcmp(cap_linktype_name(linktype), "unknown") != 0);

    enum cap_file_format format = size & 1 ? CAP_FORMAT_PCAPNG : CAP_FORMAT_PCAP;
    static struct kept kept[MAX_FRAMES];
    size_t nkept = 0;
    struct cap_frame fr;
    uint64_t expect = 1;
    int rc;
    while ((rc = cap_next(r, &fr)) == 1) {
        FUZZ_CHECK(fr.number == expect++);
        /* a pcapng's frames take their own interface's link type (one
         * file may mix them); every other file has the one */
        FUZZ_CHECK(fr.raw != NULL && fr.interface < cap_interfaces(r) &&
                   fr.linktype == cap_interface_linktype(r, fr.interface));
        FUZZ_CHECK(cap_interfaces(r) > 1 || fr.linktype == linktype);
        FUZZ_CHECK((fr.iba == NULL) != (fr.not_iba == NULL));
        if (fr.iba) {
            FUZZ_CHECK(fr.iba >= fr.raw &&
                       fr.iba + fr.iba_len <= fr.raw + fr.caplen);
            /* a cooked capture or a tunnel (encap.h) hands over what
             * follows its own header: any of ibw_link's starts */
            FUZZ_CHECK(fr.link == IBW_LINK_ETHERNET ||
                       fr.link == IBW_LINK_ETHERTYPE ||
                       fr.link == IBW_LINK_ROCEV1 ||
                       fr.link == IBW_LINK_IP || fr.link == IBW_LINK_IB);
            check_parse(fr.iba, fr.iba_len, fr.link);
        }
        if (fr.linktype != CAP_LINKTYPE_ERF)
            FUZZ_CHECK(fr.erf_type == -1);
        /* (written back under the file's link type: frames of another
         * interface's type are not) */
        if (fr.linktype == linktype && writable(&fr) && fr.ts_sec >= 0 &&
            nkept < MAX_FRAMES &&
            fr.ts_sec < (int64_t)(UINT64_MAX / 1000000000u) - 1 &&
            time_fits((uint64_t)fr.ts_sec * 1000000000u + fr.ts_nsec, format,
                      linktype)) {
            struct kept *k = &kept[nkept++];
            k->ts_ns = (uint64_t)fr.ts_sec * 1000000000u + fr.ts_nsec;
            k->len = fr.iba_len;
            k->bytes = malloc(fr.iba_len ? fr.iba_len : 1);
            FUZZ_CHECK(k->bytes != NULL);
            memcpy(k->bytes, fr.iba, fr.iba_len);
        }
    }
    FUZZ_CHECK(rc == 0 || (rc == -1 && cap_error(r)[0] != '\0'));
    cap_close(r);
    close(fd);
    if (linktype == CAP_LINKTYPE_LINUX_SLL ||
        linktype == CAP_LINKTYPE_LINUX_SLL2)
        return 0; /* nothing kept (writable()): the writer has no such type */

    /* Write what was read, read it back. */
    char *buf = NULL;
    size_t buflen = 0;
    FILE *mem = open_memstream(&buf, &buflen);
    FUZZ_CHECK(mem != NULL);
    struct cap_writer *w =
        cap_writer_open_stream(mem, format, linktype, err, sizeof err);
    FUZZ_CHECK(w != NULL);
    for (size_t i = 0; i < nkept; i++)
        FUZZ_CHECK(cap_write(w, kept[i].ts_ns, kept[i].bytes, kept[i].len,
                             i & 1 ? "a comment" : NULL) == 0);
    FUZZ_CHECK(cap_writer_close(w) == 0);
    fclose(mem);

    fd = mem_file((const uint8_t *)buf, buflen, path, sizeof path);
    r = cap_open(path, err, sizeof err);
    if (!r)
        fprintf(stderr, "re-read: %s\n", err);
    FUZZ_CHECK(r != NULL && cap_linktype(r) == linktype);
    size_t got = 0;
    while ((rc = cap_next(r, &fr)) == 1) {
        FUZZ_CHECK(got < nkept);
        const struct kept *k = &kept[got++];
        FUZZ_CHECK(fr.iba != NULL && fr.iba_len == k->len &&
                   memcmp(fr.iba, k->bytes, k->len) == 0);
        FUZZ_CHECK((uint64_t)fr.ts_sec * 1000000000u + fr.ts_nsec ==
                   k->ts_ns);
    }
    FUZZ_CHECK(rc == 0 && got == nkept);
    cap_close(r);
    close(fd);
    free(buf);
    for (size_t i = 0; i < nkept; i++)
        free(kept[i].bytes);
    return 0;
}
