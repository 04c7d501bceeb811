/* SPDX-License-Identifier: Apache-2.0 */
/*
 * capture.h - reading and writing capture files that carry InfiniBand or
 * RoCE packets (catalog W16).
 *
 * Reader: libpcap for classic pcap and live interfaces, its own block
 * reader for pcapng (several interfaces, of mixed link types, as one
 * timeline; 64-bit offsets: files over 4 GiB), link types
 *   1   Ethernet                    -> bytes for ibw_parse(IBW_LINK_ETHERNET)
 *   197 ERF                         -> ERF type 21 (InfiniBand): from the LRH;
 *                                      ERF Ethernet types: after the 2-byte pad;
 *                                      other ERF types: "not IBA"
 *   247 LINKTYPE_INFINIBAND         -> from the LRH
 *   252 exported PDU (Wireshark)    -> when the PROTO_NAME (or heuristic
 *                                      name) tag says "infiniband": from the
 *                                      LRH; otherwise "not IBA"
 *   113 Linux cooked (SLL)          -> from the protocol field (link
 *                                      IBW_LINK_ETHERTYPE)
 *   276 Linux cooked v2 (SLL2)      -> the IP packet after the header
 * On Ethernet, SLL and SLL2 (and ERF Ethernet records) the frame carried by
 * a tunnel or mirror (ERSPAN, GRE, VXLAN, Geneve, MPLS: ibwire/encap.h) is
 * the one returned, its outer layers in cap_frame.encap.
 * Each frame comes back with its number (from 1), time, lengths and a
 * pointer to where ibw_parse() should start, or the reason it is not IBA.
 *
 * Writer: plain stdio, no libpcap, so that it can emit what libpcap's dumper
 * cannot: pcapng with a comment per packet (opt_comment).  Classic pcap or
 * pcapng, link types 1, 197 (ERF records of type 21), 247 and 252 (exported
 * PDU tagged "infiniband").  The caller hands over the IBA frame (an Ethernet
 * frame for link type 1, LRH onwards otherwise); the writer adds the ERF
 * header or the exported-PDU tags.
 *
 * These are conformance helpers: they allocate and do I/O, unlike include/.
 */
#ifndef IBWIRE_CAPTURE_H
#define IBWIRE_CAPTURE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ibwire/encap.h"
#include "ibwire/packet.h"

/* pcap link types this code knows. */
enum {
    CAP_LINKTYPE_ETHERNET = 1,
    CAP_LINKTYPE_LINUX_SLL = 113,
    CAP_LINKTYPE_ERF = 197,
    CAP_LINKTYPE_INFINIBAND = 247,
    CAP_LINKTYPE_EXPORTED_PDU = 252,
    CAP_LINKTYPE_LINUX_SLL2 = 276
};

/* ERF record types looked at (the low 7 bits of the ERF type byte). */
enum {
    CAP_ERF_TYPE_ETH = 2,
    CAP_ERF_TYPE_COLOR_ETH = 10,
    CAP_ERF_TYPE_DSM_COLOR_ETH = 16,
    CAP_ERF_TYPE_COLOR_HASH_ETH = 19,
    CAP_ERF_TYPE_INFINIBAND = 21
};

enum { CAP_ERF_HEADER_LEN = 16, CAP_ERF_EXT_LEN = 8, CAP_ERF_ETH_PAD = 2 };

/* Exported-PDU tags (Wireshark's EXP_PDU_TAG_*). */
enum {
    CAP_EXP_PDU_END_OF_OPT = 0,
    CAP_EXP_PDU_PROTO_NAME = 12,
    CAP_EXP_PDU_HEUR_PROTO_NAME = 13
};

/* One frame as the reader returns it; valid until the next cap_next(). */
struct cap_frame {
    uint64_t number;       /* 1, 2, ... in file order */
    int64_t ts_sec;        /* capture time, seconds since the epoch */
    uint32_t ts_nsec;      /* and nanoseconds */
    uint32_t caplen;       /* bytes in the file record */
    uint32_t origlen;      /* bytes the record had on capture */
    uint32_t wire_len;     /* what tshark calls frame.len: origlen, or the
                              ERF wire length for link type 197 */
    int linktype;          /* pcap link type of the frame's interface */
    uint32_t interface;    /* pcapng: the interface (0, 1, ... over all
                              sections of the file); 0 otherwise */
    int truncated;         /* the record was cut at capture (caplen < origlen,
                              or ERF payload shorter than its wire length) */
    const uint8_t *raw;    /* the record, caplen bytes */
    int erf_type;          /* ERF type byte (197 only), else -1 */
    const uint8_t *iba;    /* where ibw_parse() starts, NULL if not IBA */
    size_t iba_len;        /* bytes from iba to the end of the record */
    enum ibw_link link;    /* how to parse iba */
    const char *not_iba;   /* why iba is NULL (static string) */
    uint32_t outer_len;    /* bytes of the record before iba that are
                              link or encapsulation headers (SLL, ERSPAN,
                              ...); caplen - outer_len is the carried
                              frame's captured length */
    int mirror_cut;        /* an ERSPAN mirror truncated the frame (also
                              sets truncated) */
    struct ibw_encap encap;/* the outer layers (encap.n 0: none); when
                              encap.err is set the record's outer headers
                              are malformed: iba is NULL and not_iba says
                              "malformed encapsulation" */
    uint32_t outer_at;     /* where ibw_decap() read the record from (an
                              offset in raw) */
    uint32_t outer_bytes;  /* and how many bytes */
    uint16_t outer_link;   /* as enum ibw_outer_link; 0 when not read:
                              with encap.err the checker reads them again
                              to judge the outer header (check_outer.c) */
    uint32_t vantage;      /* the vantage point inside the interface (a
                              mirror session, a VNI, an SLL2 interface
                              index), 1-based (cap_vantage_name); 0: none */
};

struct cap_reader;

/* Open a capture for reading.  On failure returns NULL and writes a
 * message naming the file into err (errlen bytes): missing file, not a
 * capture, or a link type outside 1, 197, 247, 252. */
struct cap_reader *cap_open(const char *path, char *err, size_t errlen);

/* The next frame: 1 and *fr filled, 0 at the end of the file, -1 when the
 * file is damaged (message in cap_error()); live captures also return
 * CAP_TIMEOUT (below). */
int cap_next(struct cap_reader *r, struct cap_frame *fr);

/* The last error message ("" when none). */
const char *cap_error(const struct cap_reader *r);

/* The file's link type. */
int cap_linktype(const struct cap_reader *r);

/* Interfaces seen so far (pcapng: Interface Description Blocks read up to
 * the last frame returned; 1 for classic pcap and live captures). */
uint32_t cap_interfaces(const struct cap_reader *r);

/* 1 when the reader's interface list cannot grow while it reads (classic
 * pcap, live capture): then another thread may ask for interface names
 * while this one reads. */
int cap_interfaces_fixed(const struct cap_reader *r);

/* Interface i's name (pcapng if_name, the live interface) or "ifI";
 * written into buf and returned. */
const char *cap_interface_name(const struct cap_reader *r, uint32_t i,
                               char *buf, size_t len);

/* Interface i's link type, -1 when there is no such interface. */
int cap_interface_linktype(const struct cap_reader *r, uint32_t i);

/* Vantage points inside the interfaces seen so far: each distinct ERSPAN
 * session, VXLAN or Geneve VNI, and SLL2 interface index (cap_frame's
 * vantage).  Another thread may call these two while this one reads. */
uint32_t cap_vantages(const struct cap_reader *r);

/* Vantage point v's name ("erspan session 7", "vxlan vni 5001", "ifindex
 * 3", with the interface's name first when the file has several), written
 * into buf and returned. */
const char *cap_vantage_name(const struct cap_reader *r, uint32_t v,
                             char *buf, size_t len);

/* ------------------------------------------------------------------------ */
/* Live capture                                                             */
/* ------------------------------------------------------------------------ */

/* What a live capture keeps on Ethernet when no filter is given: RoCEv2
 * and RoCEv1, and what may carry them to a collector: GRE (ERSPAN, GRE
 * bridging, IP in GRE), VXLAN, Geneve, MPLS.  (BPF cannot look inside a
 * tunnel cheaply; ibwire decapsulates and counts the rest "other".)
 * The tunnels are looked for behind up to two VLAN tags too (a collector
 * port is often a trunk).  libpcap's `vlan` moves the offsets of what
 * follows it, so it comes last; MPLS is kept by its EtherTypes (BPF reads
 * no IP behind a label stack of unknown depth).
 * Link types 247 and 252 are not filtered (IBA only). */
#define CAP_LIVE_TUNNELS                                                     \
    "udp port 4791 or ip proto 47 or ip6 proto 47 or udp dst port 4789 "    \
    "or udp dst port 6081"
#define CAP_LIVE_FILTER                                                      \
    CAP_LIVE_TUNNELS " or ether proto 0x8915 or ether proto 0x8847 or "     \
    "ether proto 0x8848 or (vlan and (" CAP_LIVE_TUNNELS " or (vlan and ("   \
    CAP_LIVE_TUNNELS "))))"

/* cap_next() on a live reader: nothing arrived within the timeout (or a
 * signal came); call again. */
enum { CAP_TIMEOUT = 2 };

/* Capture on a network interface (libpcap: promiscuous, immediate, full
 * frames, nanosecond time where the system gives it).  filter: a BPF
 * expression, NULL for CAP_LIVE_FILTER on Ethernet and none on other link
 * types.  cap_next() then waits at most timeout_ms (0: 100 ms) before
 * returning CAP_TIMEOUT.  NULL with a message naming the interface and
 * libpcap's reason when it cannot be opened, capture is not permitted,
 * the link type is not IBA's or the filter does not compile. */
struct cap_reader *cap_open_live(const char *iface, const char *filter,
                                 int timeout_ms, char *err, size_t errlen);

/* Frames the system received and dropped (kernel and interface) for a
 * live capture; -1 for a file. */
int cap_live_stats(const struct cap_reader *r, uint64_t *received,
                   uint64_t *dropped);

/* Close and free; NULL is fine. */
void cap_close(struct cap_reader *r);

/* Human name of a link type ("Ethernet", "ERF", ...) or "unknown". */
const char *cap_linktype_name(int linktype);

/* Locate the IBA bytes of one record of the given link type: fills iba,
 * iba_len, link, not_iba, erf_type, wire_len and truncated of *fr from
 * fr->raw, fr->caplen, fr->origlen.  Exposed for tests and fuzzers. */
void cap_locate_iba(struct cap_frame *fr);

/* Whether frame fr, just returned by cap_next(r), keeps its bytes until
 * cap_close(r) (a mapped classic pcap file), so that a consumer may hold
 * it without a copy; 0: valid until the next cap_next only. */
int cap_frame_stable(const struct cap_reader *r, const struct cap_frame *fr);

/* 1 when no frame cap_next() is to return has an earlier timestamp than a
 * frame it returns before it: a classic pcap file on Ethernet read through
 * its map, not read from yet, whose records all come in the walk and in
 * time order (the first call walks the record headers, and the outer
 * headers of records that could be tunnels, whose ERSPAN III timestamp may
 * refine the time); 0 when not, or when that cannot be told. */
int cap_ts_ordered(struct cap_reader *r);

/* ------------------------------------------------------------------------ */
/* Writer                                                                   */
/* ------------------------------------------------------------------------ */

enum cap_file_format { CAP_FORMAT_PCAP = 0, CAP_FORMAT_PCAPNG = 1 };

struct cap_writer;

/* Create (truncate) path, or write to stdout when path is "-", and write
 * the file header for linktype (1, 197, 247 or 252).  NULL on failure with
 * a message in err. */
struct cap_writer *cap_writer_open(const char *path,
                                   enum cap_file_format format, int linktype,
                                   char *err, size_t errlen);

/* Same, on a stream the caller owns (not closed by cap_writer_close). */
struct cap_writer *cap_writer_open_stream(FILE *f, enum cap_file_format format,
                                          int linktype, char *err,
                                          size_t errlen);

/* Append one frame: the IBA frame of len bytes (Ethernet frame for link
 * type 1, LRH onwards otherwise), time in ns since the epoch.  comment (may
 * be NULL) is stored as the packet's opt_comment in pcapng and dropped in
 * classic pcap.  0 on success, -1 on an I/O error, a record too long for
 * the file, or a time past 2^32 - 1 s (2106) in classic pcap or ERF, whose
 * 32-bit unsigned seconds cannot hold it. */
int cap_write(struct cap_writer *w, uint64_t ts_ns, const uint8_t *frame,
              size_t len, const char *comment);

/* Append a frame that the capture cut: the first len bytes of an IBA frame
 * whose length was origlen (origlen >= len), as a capture with a snap length
 * records it: the record holds len bytes and says origlen (plus the link
 * type's wrapper, which is never cut); ERF's wlen says origlen.  An
 * origlen of len is a frame the capture did not cut, or one whose cut the
 * capture tool did not record (only the packet's own length fields then
 * say it is short).  Fails like cap_write, and when origlen < len or
 * origlen does not fit the record's length field. */
int cap_write_cut(struct cap_writer *w, uint64_t ts_ns, const uint8_t *frame,
                  size_t len, size_t origlen, const char *comment);

/* Flush, close and free.  0 on success, -1 if anything failed to write. */
int cap_writer_close(struct cap_writer *w);

#endif
