/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ibwire_lib.h - libibwire, the stable C ABI for callers outside C: Python
 * (ctypes), SystemVerilog (DPI-C), C++ models, other languages' FFIs.
 *
 * The header-only library (<ibwire.h>) is for C and C++ code that compiles
 * ibwire in; this library is for code that links it.  Everything here is an
 * exported, non-inline function over opaque handles and plain scalars, so
 * that a caller never depends on a structure layout: a new release adds
 * functions and keeps these.  IBWIRE_LIB_ABI is raised only when a function
 * here changes meaning; the soname carries it.
 *
 * Conventions, the same in every function:
 *   - link: the pcap link type of a frame (1 Ethernet, 197 ERF, 247
 *     InfiniBand from the LRH, 252 Wireshark exported PDU, 113 and 276
 *     Linux cooked v1 and v2); a frame inside ERSPAN, GRE, VXLAN, Geneve
 *     or MPLS (ibwire/encap.h) is parsed as the frame it carries, its
 *     outer layers readable by their names too ("erspan.spanid",
 *     "vxlan.vni", "mpls.label", "sll.ifindex");
 *   - names: a frame's fields are named as `ibwire dump -T fields` names
 *     them (Wireshark's names, "infiniband.bth.psn", "ip.src", and ibwire.*
 *     for what Wireshark lacks); a record is named by its registry name
 *     ("sq_doorbell") or catalog ID ("E2"), its fields by the registry's;
 *   - results: 0 or a count on success, a negative IBWIRE_E_* on failure;
 *     a pointer result is NULL on failure;
 *   - strings handed back stay valid as long as their handle, unless said;
 *   - no function keeps a pointer it was given beyond the call, except the
 *     `user` pointers of callbacks;
 *   - handles are not thread-safe; different handles may be used from
 *     different threads at once.
 */
#ifndef IBWIRE_LIB_H
#define IBWIRE_LIB_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define IBWIRE_API
#elif defined(__GNUC__)
#define IBWIRE_API __attribute__((visibility("default")))
#else
#define IBWIRE_API
#endif

/* The ABI generation; the shared object is libibwire.so.IBWIRE_LIB_ABI. */
#define IBWIRE_LIB_ABI 1

/* ------------------------------------------------------------------------ */
/* Version and errors                                                       */
/* ------------------------------------------------------------------------ */

/* The library's version, "MAJOR.MINOR.PATCH" (the project's version). */
IBWIRE_API const char *ibwire_version(void);

/* The ABI generation the library was built with (IBWIRE_LIB_ABI). */
IBWIRE_API int ibwire_abi(void);

/* Errors.  -1 .. -14 are the header library's IBW_E_* with the same
 * meaning; the rest are the ABI's own. */
enum ibwire_error {
    IBWIRE_OK = 0,
    IBWIRE_E_TRUNCATED = -1,   /* bytes shorter than the format needs */
    IBWIRE_E_LENGTH = -2,      /* a length field disagrees with the bytes */
    IBWIRE_E_RANGE = -7,       /* a value does not fit its field */
    IBWIRE_E_FIELD = -8,       /* the field cannot be used this way */
    IBWIRE_E_CRC = -9,         /* ICRC or VCRC mismatch */
    IBWIRE_E_UNSUPPORTED = -10,
    IBWIRE_E_NOSPACE = -11,    /* the output buffer is too small */
    IBWIRE_E_LINKTYPE = -14,   /* link type not handled */
    IBWIRE_E_NOMEM = -20,      /* out of memory */
    IBWIRE_E_NAME = -21,       /* no field or record of that name */
    IBWIRE_E_ARG = -22,        /* a NULL handle or an invalid argument */
    IBWIRE_E_IO = -23,         /* a file could not be read */
    IBWIRE_E_STATE = -24       /* not allowed now (feeding a finished checker) */
};

/* One line for any result code (never NULL). */
IBWIRE_API const char *ibwire_strerror(int err);

/* ------------------------------------------------------------------------ */
/* Fields by name                                                           */
/* ------------------------------------------------------------------------ */

/* How a field's value is given back (the Wireshark type it reproduces). */
enum ibwire_field_type {
    IBWIRE_FT_UINT = 1,   /* an unsigned integer: ibwire_packet_uint() */
    IBWIRE_FT_BOOL = 2,   /* 0 or 1: ibwire_packet_uint() */
    IBWIRE_FT_BYTES = 3,  /* bytes: ibwire_packet_bytes() */
    IBWIRE_FT_ETHER = 4,  /* a MAC address: bytes, or text aa:bb:cc:dd:ee:ff */
    IBWIRE_FT_IPV4 = 5,   /* bytes, or text a.b.c.d */
    IBWIRE_FT_IPV6 = 6,   /* bytes (also GIDs), or RFC 5952 text */
    IBWIRE_FT_STRING = 7, /* text only */
    IBWIRE_FT_TIME = 8    /* nanoseconds since the epoch: ibwire_packet_uint() */
};

/* Number of named fields; they are numbered 0 .. count-1 in a fixed order
 * for the life of the process. */
IBWIRE_API int ibwire_field_count(void);

/* The number of the field called `name`, or IBWIRE_E_NAME. */
IBWIRE_API int ibwire_field_lookup(const char *name);

/* Field id's name, type (enum ibwire_field_type) and one-line description;
 * NULL / IBWIRE_E_ARG for an id out of range. */
IBWIRE_API const char *ibwire_field_name(int id);
IBWIRE_API int ibwire_field_type(int id);
IBWIRE_API const char *ibwire_field_description(int id);

/* ------------------------------------------------------------------------ */
/* Parsing a frame                                                          */
/* ------------------------------------------------------------------------ */

typedef struct ibwire_packet ibwire_packet;

/* A packet handle, reused by every ibwire_packet_parse(); NULL without
 * memory.  Free with ibwire_packet_free() (NULL is fine). */
IBWIRE_API ibwire_packet *ibwire_packet_new(void);
IBWIRE_API void ibwire_packet_free(ibwire_packet *p);

/* Parse one frame: `caplen` bytes at `frame` starting at the link header of
 * `link`, `origlen` bytes on the wire (0: the same as caplen; more: the
 * capture cut the frame, and the headers that fit are still read), taken at
 * ts_ns nanoseconds since the epoch.  The bytes are copied.  Returns 0 when
 * the frame was read, whether or not it is a valid IBA packet (see
 * ibwire_packet_error()); IBWIRE_E_LINKTYPE, IBWIRE_E_ARG otherwise
 * (caplen over 16 MiB, origlen below caplen).  frame.number counts the
 * frames parsed with this handle, from 1. */
IBWIRE_API int ibwire_packet_parse(ibwire_packet *p, const uint8_t *frame,
                                   size_t caplen, size_t origlen, int link,
                                   uint64_t ts_ns);

/* Why the frame is not a valid IBA packet, naming the header and field
 * ("bth.opcode: reserved or unknown opcode", "frame: not IBA: IPv4 UDP
 * port 53"), or NULL when it is valid (a frame cut short by the capture
 * after its last header is valid). */
IBWIRE_API const char *ibwire_packet_error(const ibwire_packet *p);

/* ICRC and VCRC verdicts. */
enum ibwire_crc_status {
    IBWIRE_CRC_GOOD = 0,
    IBWIRE_CRC_BAD = 1,
    IBWIRE_CRC_ABSENT = 2,    /* the frame has none (VCRC on RoCE, non-IBA) */
    IBWIRE_CRC_UNCHECKED = 3  /* it has one the capture cut off, or the
                                 packet did not parse far enough */
};
IBWIRE_API int ibwire_packet_icrc_status(const ibwire_packet *p);
IBWIRE_API int ibwire_packet_vcrc_status(const ibwire_packet *p);

/* Occurrences of field id in the frame (most fields 0 or 1; a few, such as
 * the VLAN tags, more); 0 when absent or id is out of range. */
IBWIRE_API int ibwire_packet_count(const ibwire_packet *p, int id);

/* Occurrence `occ` of an integer field (UINT, BOOL, TIME) into *out.
 * 1 when present, 0 when absent, IBWIRE_E_FIELD when the field is not an
 * integer, IBWIRE_E_ARG for a bad handle or id. */
IBWIRE_API int ibwire_packet_uint(const ibwire_packet *p, int id, int occ,
                                  uint64_t *out);

/* Occurrence `occ` of a BYTES, ETHER, IPV4 or IPV6 field: its length in
 * *len and, when cap is large enough, its bytes in buf.  1 when present
 * (IBWIRE_E_NOSPACE, *len set, when cap is too small), 0 when absent. */
IBWIRE_API int ibwire_packet_bytes(const ibwire_packet *p, int id, int occ,
                                   uint8_t *buf, size_t cap, size_t *len);

/* Occurrence `occ` of any field as `ibwire dump -T fields` prints it,
 * NUL-terminated in buf.  The text's length (without the NUL) when present
 * (IBWIRE_E_NOSPACE when cap cannot hold it), 0 when absent (buf gets ""). */
IBWIRE_API int ibwire_packet_text(const ibwire_packet *p, int id, int occ,
                                  char *buf, size_t cap);

/* ------------------------------------------------------------------------ */
/* Building a frame                                                         */
/* ------------------------------------------------------------------------ */

typedef struct ibwire_builder ibwire_builder;

/* A builder with every field unset; NULL without memory. */
IBWIRE_API ibwire_builder *ibwire_builder_new(void);
IBWIRE_API void ibwire_builder_free(ibwire_builder *b);
/* Unset every field. */
IBWIRE_API void ibwire_builder_reset(ibwire_builder *b);

/* Set a field by its dump name.  Integers through _uint; addresses, GIDs
 * and byte fields through _bytes or _text (the text form dump prints);
 * the payload is "data.data".  IBWIRE_E_NAME for a name build does not
 * take, IBWIRE_E_RANGE when the value does not fit.  Taken: every field
 * dump reads from the Ethernet, 802.1Q, IPv4, IPv6, UDP, LRH, GRH, BTH and
 * extended-header descriptors (a value as dump shows it: ip.hdr_len in
 * bytes), "data.data", and "infiniband.invariant.crc" /
 * "infiniband.variant.crc" as dump prints them (the wire bytes read
 * big-endian), which are then stored as given. */
IBWIRE_API int ibwire_builder_uint(ibwire_builder *b, const char *name,
                                   uint64_t v);
IBWIRE_API int ibwire_builder_bytes(ibwire_builder *b, const char *name,
                                    const uint8_t *v, size_t n);
IBWIRE_API int ibwire_builder_text(ibwire_builder *b, const char *name,
                                   const char *text);

/* Build the frame for `link` (1: Ethernet, RoCEv2 over IPv4 unless an
 * ipv6.* field or RoCEv1 (eth.type or vlan.etype 0x8915) is set, with an
 * 802.1Q tag when a vlan.* field is; 247: LRH onwards, with a GRH when an
 * infiniband.grh.* field is set) into out: what is unset takes its
 * default (MACs 02:00:00:00:00:01 -> :02, IPs 10.0.0.1 -> 10.0.0.2 or
 * ::ffff:10.0.0.1 -> ::ffff:10.0.0.2, DF set, TTL / hop limit 64, UDP
 * 49152 -> 4791, LIDs 1 -> 2, GIDs fe80::1 -> fe80::2, opcode RC SEND
 * ONLY, DestQP 0x11, P_Key 0xFFFF, everything else 0), and the lengths,
 * pad count, IPv4 checksum, ICRC and VCRC are computed unless set.  The
 * frame's length on success; with out NULL and cap 0, the length it
 * would have; IBWIRE_E_NOSPACE when cap is too small (the error saying
 * the length); IBWIRE_E_FIELD when the fields do not make a packet (an
 * opcode whose headers were given no value is fine, they are zero; a
 * field of a header the opcode does not carry is not), with
 * ibwire_builder_error() saying which. */
IBWIRE_API long ibwire_build(ibwire_builder *b, int link, uint8_t *out,
                             size_t cap);

/* What the last failing call on b found wrong, naming the field, or NULL. */
IBWIRE_API const char *ibwire_builder_error(const ibwire_builder *b);

/* ------------------------------------------------------------------------ */
/* ICRC and VCRC                                                            */
/* ------------------------------------------------------------------------ */

/* The ICRC a frame of `link` should carry (its last 4 bytes are the ICRC
 * slot, and the VCRC's 2 after them on link 247), into *icrc as the 32-bit
 * value in the wire's byte order read as little-endian (the value
 * Wireshark shows).  IBWIRE_E_* when the frame does not parse that far. */
IBWIRE_API int ibwire_icrc_compute(const uint8_t *frame, size_t len, int link,
                                   uint32_t *icrc);
/* 1 when the frame's ICRC is right, 0 when wrong, IBWIRE_E_* as above. */
IBWIRE_API int ibwire_icrc_verify(const uint8_t *frame, size_t len, int link);
/* The same for the VCRC of a link 247/197/252 frame (LRH onwards). */
IBWIRE_API int ibwire_vcrc_compute(const uint8_t *frame, size_t len, int link,
                                   uint16_t *vcrc);
IBWIRE_API int ibwire_vcrc_verify(const uint8_t *frame, size_t len, int link);

/* ------------------------------------------------------------------------ */
/* Records by name                                                          */
/* ------------------------------------------------------------------------ */

/*
 * Every registry format (engine records E*, host formats H*, wire headers
 * W*, MADs M*) as one bus value: nwords little-endian 32-bit words, bit 0
 * of the value in bit 0 of word 0, the value `bits` wide.  For an engine
 * record this is the record's own bus order; for a byte format (wire
 * headers, host structures) byte 0 is the most significant byte, as a
 * SystemVerilog `struct packed` declared in field order lays it out.  So
 * the value is what `ibwire_pkg`'s struct of the same name holds.
 */
IBWIRE_API int ibwire_record_count(void);
/* The number of the format called `name` (registry name or catalog ID;
 * an ID several formats share, such as E2, names the first of them), or
 * IBWIRE_E_NAME. */
IBWIRE_API int ibwire_record_lookup(const char *name);
IBWIRE_API const char *ibwire_record_name(int rec);
IBWIRE_API const char *ibwire_record_id(int rec);    /* catalog ID, "E2" */
IBWIRE_API const char *ibwire_record_title(int rec);
IBWIRE_API int ibwire_record_bits(int rec);
IBWIRE_API int ibwire_record_words(int rec);         /* (bits + 31) / 32 */
IBWIRE_API int ibwire_record_field_count(int rec);
IBWIRE_API const char *ibwire_record_field_name(int rec, int field);
/* The field's lowest bit in the bus value and its width in bits. */
IBWIRE_API int ibwire_record_field_lsb(int rec, int field);
IBWIRE_API int ibwire_record_field_width(int rec, int field);
/* The number of rec's field called `name`, or IBWIRE_E_NAME. */
IBWIRE_API int ibwire_record_field_lookup(int rec, const char *name);

/* Write field `field` of value words[nwords] (nwords >= the record's
 * words) from v[nv] (bit 0 of the field's value in bit 0 of v[0]).
 * IBWIRE_E_RANGE, nothing written, when v has a bit set at or above the
 * field's width. */
IBWIRE_API int ibwire_record_set(int rec, int field, uint32_t *words,
                                 size_t nwords, const uint32_t *v, size_t nv);
/* Read it into v[nv] (nv >= (width + 31) / 32). */
IBWIRE_API int ibwire_record_get(int rec, int field, const uint32_t *words,
                                 size_t nwords, uint32_t *v, size_t nv);
/* Both for a field of at most 64 bits, by names. */
IBWIRE_API int ibwire_record_set_u64(const char *rec, const char *field,
                                     uint32_t *words, size_t nwords,
                                     uint64_t v);
IBWIRE_API int ibwire_record_get_u64(const char *rec, const char *field,
                                     const uint32_t *words, size_t nwords,
                                     uint64_t *v);

/* ------------------------------------------------------------------------ */
/* The streaming checker                                                    */
/* ------------------------------------------------------------------------ */

typedef struct ibwire_checker ibwire_checker;
typedef struct ibwire_flow ibwire_flow;

/* A finding, as `ibwire check` prints it: the 1-based frame, the rule's
 * name ("BTH-PSN-ORDER"), severity (2 error, 1 warning, 0 note), the
 * evidence, and the flow it concerns (0 for none, else the id of
 * ibwire_flow_uint(f, "id")).  Strings valid during the call. */
typedef void (*ibwire_finding_fn)(void *user, uint64_t frame,
                                  const char *rule, int severity,
                                  const char *message, uint64_t flow_id);

/* A flow's summary: at its end (idle, closed by CM) and, for the flows
 * still live, at ibwire_checker_finish().  The handle is valid during the
 * call. */
typedef void (*ibwire_flow_fn)(void *user, const ibwire_flow *flow);

/* A checker with default options; NULL without memory.  Set options and
 * callbacks before the first frame (IBWIRE_E_STATE after). */
IBWIRE_API ibwire_checker *ibwire_checker_new(void);
IBWIRE_API void ibwire_checker_free(ibwire_checker *c);

/* The path MTU in bytes (256, 512, 1024, 2048 or 4096; IBWIRE_E_RANGE
 * otherwise) when known for every flow; 0 (the default) learns it per
 * flow from CM or payloads. */
IBWIRE_API int ibwire_checker_set_pmtu(ibwire_checker *c, uint32_t pmtu);
/* How long a response recorded before its request waits (default 1 ms). */
IBWIRE_API int ibwire_checker_set_skew_ns(ibwire_checker *c, uint64_t ns);
/* A flow with no frame for this long ends (default 60 s; UINT64_MAX never). */
IBWIRE_API int ibwire_checker_set_flow_idle_ns(ibwire_checker *c, uint64_t ns);
IBWIRE_API int ibwire_checker_on_finding(ibwire_checker *c, ibwire_finding_fn fn,
                                         void *user);
IBWIRE_API int ibwire_checker_on_flow(ibwire_checker *c, ibwire_flow_fn fn,
                                      void *user);

/* The IBA statements rule enforces ("7.8.1; CA17-22": RoCEv2 annex A17
 * statements, public C9-n ids, else Vol. 1 sections), as conformance/
 * rules.md and `ibwire check --format json` name them; NULL for a name
 * that is no rule.  The string is static. */
IBWIRE_API const char *ibwire_rule_spec(const char *rule);

/* Inside the finding callback only: 1 when the finding being reported
 * repeats a per-packet rule already said on its flow (text output counts
 * it; JSON marks it "repeat"), 0 when not, IBWIRE_E_STATE outside the
 * callback. */
IBWIRE_API int ibwire_checker_finding_repeat(const ibwire_checker *c);

/* Judge the next frame of the capture, as ibwire_packet_parse() takes it.
 * Frames are numbered 1, 2, ... in the order fed.  0, or IBWIRE_E_STATE
 * after finish, IBWIRE_E_LINKTYPE, IBWIRE_E_ARG. */
IBWIRE_API int ibwire_checker_feed(ibwire_checker *c, const uint8_t *frame,
                                   size_t caplen, size_t origlen, int link,
                                   uint64_t ts_ns);

/* Judge every frame of a capture file (pcap or pcapng), as if each were fed
 * in turn.  0, or IBWIRE_E_IO with ibwire_checker_error() naming the file
 * and what is wrong with it. */
IBWIRE_API int ibwire_checker_feed_file(ibwire_checker *c, const char *path);

/* End of capture: settle what is open, report the notes said once per flow
 * or capture, and summarize the live flows through the flow callback. */
IBWIRE_API int ibwire_checker_finish(ibwire_checker *c);

/* Counts so far: "frames", "iba", "errors", "warnings", "cm_messages",
 * "flows" (summaries given); 0 for another name. */
IBWIRE_API uint64_t ibwire_checker_count(const ibwire_checker *c,
                                         const char *what);
/* The last I/O error, or NULL. */
IBWIRE_API const char *ibwire_checker_error(const ibwire_checker *c);

/* A flow summary's members, named as `ibwire check --format json` names
 * them: numbers and booleans (1/0) through _uint (1 present, 0 absent or
 * null), strings ("transport", "requester", "responder", "pmtu_source",
 * "paired_by") through _text (NULL when absent or null).  "id", the
 * number findings name the flow by, is a member too (not in the JSON). */
IBWIRE_API int ibwire_flow_uint(const ibwire_flow *f, const char *member,
                                uint64_t *out);
IBWIRE_API const char *ibwire_flow_text(const ibwire_flow *f,
                                        const char *member);
/* The whole summary as the JSON object `ibwire check --format json` prints
 * for it, NUL-terminated in buf; its length, IBWIRE_E_NOSPACE when cap is
 * too small. */
IBWIRE_API int ibwire_flow_json(const ibwire_flow *f, char *buf, size_t cap);

/* ------------------------------------------------------------------------ */
/* Reading captures                                                         */
/* ------------------------------------------------------------------------ */

typedef struct ibwire_capture ibwire_capture;

/* Open a pcap or pcapng file (libpcap); NULL with a message in err (errlen
 * bytes) naming the file and the reason. */
IBWIRE_API ibwire_capture *ibwire_capture_open(const char *path, char *err,
                                               size_t errlen);
IBWIRE_API void ibwire_capture_close(ibwire_capture *cap);

/* The next frame: its bytes (valid until the next call), captured and
 * original lengths, link type and time.  1 for a frame, 0 at the end,
 * IBWIRE_E_IO when the file is damaged (ibwire_capture_error()). */
IBWIRE_API int ibwire_capture_next(ibwire_capture *cap, const uint8_t **frame,
                                   size_t *caplen, size_t *origlen, int *link,
                                   uint64_t *ts_ns);
IBWIRE_API const char *ibwire_capture_error(const ibwire_capture *cap);

#ifdef __cplusplus
}
#endif

#endif /* IBWIRE_LIB_H */
