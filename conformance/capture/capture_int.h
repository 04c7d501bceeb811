/* SPDX-License-Identifier: Apache-2.0 */
/*
 * capture_int.h - what the capture reader's parts share (not for callers):
 * the reader itself, whose frames come from libpcap (classic pcap files and
 * live interfaces) or from the pcapng block reader (capture_pcapng.c).
 */
#ifndef IBWIRE_CAPTURE_INT_H
#define IBWIRE_CAPTURE_INT_H

#include <pcap/pcap.h>
#include <stdint.h>
#include <stdio.h>

#include "capture.h"

/* One pcapng Interface Description Block (or the one interface of a
 * classic file or a live capture). */
struct cap_iface {
    int linktype;
    uint32_t snaplen;       /* 0: none given */
    uint64_t units;         /* timestamp units per second (if_tsresol) */
    int64_t tsoffset;       /* if_tsoffset, seconds */
    char name[64];          /* if_name, or "" */
};

struct cap_reader {
    pcap_t *pcap;           /* classic pcap or live; NULL for pcapng */
    FILE *f;                /* pcapng: the file read block by block */
    int own_file;           /* fclose(f) on close (not stdin) */
    char *iobuf;
    int linktype;           /* the first interface's link type */
    int classic;            /* classic pcap (32-bit unsigned seconds) */
    int live;               /* a live interface: cap_next may time out */
    int live_timeout_ms;
    int micro;              /* live: libpcap gave microseconds */
    uint64_t count;         /* frames returned so far */
    uint64_t offset;        /* pcapng: bytes consumed (64-bit: > 4 GiB) */
    /* pcapng */
    int swap;               /* the section's byte order is not ours */
    uint32_t section_base;  /* global index of the section's interface 0 */
    struct cap_iface *ifs;  /* every interface seen, all sections */
    uint32_t nifs, capifs;
    uint8_t *buf;           /* the current block's body */
    size_t bufcap;
    /* classic pcap from a regular file: the file mapped, records walked
     * here (libpcap only opened it); map NULL when not (map_next in
     * capture_read.c) */
    const uint8_t *map;
    size_t map_len, map_off;
    size_t map_dropped;     /* pages before it given back (map_forget) */
    int map_swap, map_nano;
    int map_tail;           /* libpcap reads the rest (the map stays) */
    uint32_t map_snap;
    int map_scanned;        /* cap_ts_ordered walked the records: */
    int map_ordered;        /* its answer */
    char path[512];
    char err[PCAP_ERRBUF_SIZE + 600];
    /* the vantage points inside the interfaces (capture_vantage.c) */
    struct cap_vantages *vantages;
    uint32_t vantage_last;  /* the last one a frame had (1-based), 0 */
};

/* Vantage points a reader names; frames of more are left unnamed. */
#define CAP_VANTAGE_MAX 256

/* The vantage point of frame fr, just read and decapsulated (1-based; 0
 * when it has none: no SLL2 header, mirror session or VNI), added to the
 * reader's table the first time. */
uint32_t cap_vantage_of(struct cap_reader *r, const struct cap_frame *fr);
/* Free the table (cap_close). */
void cap_vantage_free(struct cap_reader *r);

/* Whether the checker reads this link type. */
int cap_linktype_supported(int linktype);

/* pcapng (capture_pcapng.c): r->f is positioned after the 4-byte block
 * type of the Section Header Block.  Reads up to the first Interface
 * Description Block; 0 on success, -1 with r->err set. */
int cap_pcapng_open(struct cap_reader *r);
/* Like cap_next(). */
int cap_pcapng_next(struct cap_reader *r, struct cap_frame *fr);

/* Live, after pcap_next_ex found nothing: wait up to the timeout for the
 * interface to become readable; returns CAP_TIMEOUT. */
int cap_live_wait(struct cap_reader *r);

/* Append an interface (all formats); -1 when out of memory. */
int cap_add_iface(struct cap_reader *r, const struct cap_iface *ifc);

/* A new reader of libpcap handle p with its one interface (link type lt,
 * name or NULL, nanosecond times); NULL when out of memory (p untouched). */
struct cap_reader *cap_new_pcap_reader(pcap_t *p, int lt, const char *name);

#endif
