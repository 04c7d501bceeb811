/* SPDX-License-Identifier: Apache-2.0 */
/*
 * faults.h - fault modes of the reference engine: each makes ONE side (the
 * requester, engine A of `ibwire sim`, or the responder, engine B) behave as
 * a buggy implementation of the bug zoo (../shared/reference/bug-zoo.md)
 * did, in otherwise normal traffic.  Declared once here:
 *
 *   X(ENUM, "name", "zoo row(s)", side, "rule", needs, traffic, "what it does")
 *
 *   side     IBE_FS_REQ / IBE_FS_RESP: the engine the fault is set on
 *   rule     the checker rule that catches it (conformance/rules.md); "-"
 *            when no rule (planned or existing) decides it yet
 *   needs    IBE_FN_CHECK: plain `ibwire check`; IBE_FN_REPLAY: `check --replay`
 *   traffic  IBE_FT_* bits: what `ibwire sim` does to the traffic so that
 *            the capture shows the bug (the same with or without the fault,
 *            so the clean run of the same seed is the control)
 *
 * The module that owns the behaviour tests its bit of e->faults at the
 * point of the bug (ibe_engine_set_faults()); with no fault set every
 * test is false and the engine's traces and captures are unchanged.
 * IBE_FAULT_GAPS lists the zoo rows no fault reproduces, with the reason.
 */
#ifndef IBW_ENGINE_FAULTS_H
#define IBW_ENGINE_FAULTS_H

#include <stdint.h>
#include <stdio.h>

enum ibe_fault_side { IBE_FS_REQ, IBE_FS_RESP };
enum ibe_fault_needs { IBE_FN_CHECK, IBE_FN_REPLAY };

/* Traffic a fault needs to show (ibwire sim applies them). */
enum {
    IBE_FT_LOSS = 1u << 0,     /* the first Send/Write MIDDLE request packet lost */
    IBE_FT_RNR = 1u << 1,      /* one receive WQE kept posted (with CM: the
                                  server's posted 1 ms late): RNR NAKs happen */
    IBE_FT_ZLREAD = 1u << 2,   /* a zero-length RDMA READ among the first messages */
    IBE_FT_ZLBADKEY = 1u << 3, /* ... whose (don't care) R_Key is not a region's */
    IBE_FT_SHORT = 1u << 4,    /* the first Send/Write FIRST cut 8 bytes short
                                  of the PMTU on the link (C9-92), once */
    IBE_FT_VAWRAP = 1u << 5,   /* an RDMA WRITE whose VA + length wraps 2^64 */
    IBE_FT_SENDINV = 1u << 6,  /* Sends with Invalidate (of no region) */
    IBE_FT_CORRUPT = 1u << 7,  /* a payload bit of every 8th request flipped */
    IBE_FT_CM = 1u << 8,       /* connections through CM (ibwire sim --cm) */
    IBE_FT_READS = 1u << 9,    /* multi-packet READs among the operations */
    IBE_FT_SMALL = 1u << 10,   /* messages of at most 4 bytes: frames under 65 */
    IBE_FT_LOSS_READ = 1u << 11, /* the first READ RESPONSE MIDDLE/LAST lost */
    IBE_FT_LOSS_ATOMIC = 1u << 12, /* the first ATOMIC ACKNOWLEDGE lost */
    IBE_FT_RUNT = 1u << 13,    /* every 8th Send ONLY's UDP length cut short
                                  of its BTH (RoCEv2; the ICRC kept valid) */
};

#define IBE_FAULTS(X)                                                          \
    X(ICRC_NO_PAD, "icrc-no-pad", "1", IBE_FS_REQ, "PKT-ICRC", IBE_FN_CHECK, 0, \
      "ICRC computed without the pad bytes (padded frames only)")              \
    X(ICRC_PAD_OFFSET, "icrc-pad-offset", "2", IBE_FS_REQ, "PKT-ICRC",         \
      IBE_FN_CHECK, 0,                                                         \
      "ICRC written right after the payload, the pad bytes after it")          \
    X(ICRC_MASK, "icrc-mask", "3", IBE_FS_RESP, "PKT-ICRC", IBE_FN_CHECK, 0,   \
      "RoCEv2 ICRC masks the IPv4 identification as well (wrong field mask)")  \
    X(MSN_PER_PACKET, "msn-per-packet", "4", IBE_FS_RESP, "FLOW-MSN",          \
      IBE_FN_CHECK, 0, "MSN advanced for every request packet, not per message") \
    X(MSN_NO_WRITE, "msn-no-write", "5", IBE_FS_RESP, "REPLAY-DIFF",         \
      IBE_FN_REPLAY, 0, "MSN not advanced for an RDMA WRITE without immediate")               \
    X(ACK_COVERS_READ, "ack-covers-read", "6a", IBE_FS_RESP, "FLOW-ACK-READ",  \
      IBE_FN_CHECK, IBE_FT_READS,                                               \
      "an ACK carrying a PSN of a multi-packet READ's span (drawn at random) "  \
      "sent before its responses")                                             \
    X(NAK_AFTER_DUP_READ, "nak-after-dup-read", "6b", IBE_FS_RESP,             \
      "REPLAY-DIFF", IBE_FN_REPLAY, IBE_FT_LOSS_READ | IBE_FT_READS,            \
      "after a duplicate READ, the next Send/Write packet NAKed Invalid Request") \
    X(READ_REISSUE_LEN, "read-reissue-length", "7", IBE_FS_REQ,                \
      "FLOW-RETRANS-DIFF", IBE_FN_CHECK, IBE_FT_LOSS_READ | IBE_FT_READS,           \
      "a READ re-issued after partial responses keeps the original RETH length") \
    X(READ_REISSUE_VA, "read-reissue-va", "7", IBE_FS_REQ, "FLOW-RETRANS-DIFF", \
      IBE_FN_CHECK, IBE_FT_LOSS_READ | IBE_FT_READS,                           \
      "a READ re-issued after partial responses keeps the original RETH VA")   \
    X(RNR_NO_WAIT, "rnr-ignore-timer", "8", IBE_FS_REQ, "FLOW-RNR-WAIT",       \
      IBE_FN_CHECK, IBE_FT_RNR,                                                \
      "after an RNR NAK the request is resent at once, ignoring the RNR timer") \
    X(ATOMIC_DUP_EXEC, "atomic-dup-reexec", "9", IBE_FS_RESP,                  \
      "FLOW-DUP-ATOMIC", IBE_FN_CHECK, IBE_FT_LOSS_ATOMIC,                            \
      "a duplicate atomic is executed again, answered with a new original value") \
    X(LEN_CHECK_OFF, "len-check-off", "10", IBE_FS_RESP,                       \
      "FLOW-INVALID-ACCEPTED", IBE_FN_CHECK, IBE_FT_SHORT,                     \
      "C9-92 length checks off: a FIRST shorter than the PMTU accepted, ACKed") \
    X(RUNT_ACCEPT, "runt-accept", "12", IBE_FS_RESP, "-", IBE_FN_CHECK,         \
      IBE_FT_RUNT,                                                             \
      "a frame whose UDP length is short of its headers is taken (by its "    \
      "IPv4 length) and answered (no rule: the answer is told from one to a " \
      "good copy the capture missed only by assuming a lossless capture; "    \
      "check draws CAP-LOSS, and the reference drops runts as the capture's " \
      "parser does, so --replay sees no request either)")                                             \
    X(ZERO_READ_SILENT, "zero-read-silent", "13", IBE_FS_RESP, "-",             \
      IBE_FN_CHECK, IBE_FT_ZLREAD,                                             \
      "a zero-length RDMA READ is never answered (no rule: the responder "    \
      "falls silent from that READ on, every resend unanswered; loss of the " \
      "responses' direction or a dead link show the same, as in zoo row 11)") \
    X(ZERO_READ_RKEY, "zero-read-rkey", "14", IBE_FS_RESP, "FLOW-ZERO-LEN",    \
      IBE_FN_CHECK, IBE_FT_ZLREAD | IBE_FT_ZLBADKEY,                           \
      "a zero-length RDMA READ's R_Key checked: NAK Remote Access Error")      \
    X(RESEND_PAYLOAD, "resend-payload", "15", IBE_FS_REQ, "FLOW-RETRANS-DIFF", \
      IBE_FN_CHECK, IBE_FT_LOSS,                                               \
      "a resent Send/Write packet carries other payload bytes (same length)")  \
    X(NO_NAK, "no-nak", "16", IBE_FS_RESP, "-", IBE_FN_CHECK, IBE_FT_VAWRAP,   \
      "a request with a bad R_Key or range is neither ACKed nor NAKed (no "    \
      "planned rule: the replay's model knows no regions, so it answers too)") \
    X(VA_WRAP, "va-wrap-accept", "19", IBE_FS_RESP, "FLOW-INVALID-ACCEPTED",   \
      IBE_FN_CHECK, IBE_FT_VAWRAP,                                             \
      "a WRITE whose RETH VA + length wraps 2^64 passes the range check: ACKed") \
    X(SEND_INV_NOT_START, "send-inv-not-start", "20", IBE_FS_RESP,             \
      "REPLAY-DIFF", IBE_FN_REPLAY, IBE_FT_SENDINV,                        \
      "SEND ONLY WITH INVALIDATE not taken as a message start: NAK Invalid Request") \
    X(RNR_TIMER_FAST, "rnr-timer-fast", "23", IBE_FS_REQ, "FLOW-RNR-WAIT",     \
      IBE_FN_CHECK, IBE_FT_RNR, "the RNR timer runs 500 times too fast")      \
    X(ICRC_SMALL_UNCHECKED, "icrc-small-unchecked", "24", IBE_FS_RESP, "-",  \
      IBE_FN_CHECK, IBE_FT_CORRUPT | IBE_FT_SMALL,                             \
      "frames under 65 bytes are not ICRC-checked: a corrupted one is "       \
      "answered (no rule: as for runt-accept, a good copy the capture missed " \
      "answers the same way; the damaged frame is PKT-ICRC)") \
    X(RNR_RETRY_FINITE, "rnr-retry-finite", "26", IBE_FS_REQ, "-",             \
      IBE_FN_CHECK, IBE_FT_CM | IBE_FT_RNR,                                    \
      "RNR retry count 7 taken as 7 tries, not infinite: gives up after 8 "   \
      "RNR NAKs (no rule: giving up shows as no resend and a DREQ or "        \
      "silence, which an application that disconnects or stops with work "   \
      "outstanding also shows (its WRs flush); the count of RNR NAKs before " \
      "it is no evidence)")                                                              \
    X(START_PSN_STALE, "start-psn-stale", "25", IBE_FS_REQ, "CM-QPN",          \
      IBE_FN_CHECK, IBE_FT_CM,                                                 \
      "a new connection keeps the previous transmit PSN, not the CM's")        \
    X(RESEND_SHORT, "resend-short", "27", IBE_FS_REQ, "FLOW-RETRANS-DIFF",     \
      IBE_FN_CHECK, IBE_FT_LOSS,                                               \
      "a resent packet is cut short (its tail taken from another command)")    \
    X(GBN_STOPS, "gbn-stops", "28", IBE_FS_REQ, "FLOW-GBN", IBE_FN_CHECK,      \
      IBE_FT_LOSS, "Go-Back-N resends the first packet only and stops")       \
    X(MIGREQ_SET, "migreq-set", "29", IBE_FS_RESP, "FLOW-MIGREQ", IBE_FN_CHECK, \
      0, "BTH MigReq 1 on the responder's packets, 0 on the requester's")      \
    X(READ_REQ_PAYLOAD, "read-req-payload", "31a", IBE_FS_REQ,                 \
      "PKT-NO-PAYLOAD", IBE_FN_CHECK, IBE_FT_READS,                            \
      "RDMA READ requests carry 48 bytes after the RETH")                      \
    X(MSN_READ_AHEAD, "msn-read-ahead", "31b", IBE_FS_RESP, "FLOW-MSN",        \
      IBE_FN_CHECK, IBE_FT_READS,                                              \
      "a READ RESPONSE LAST carries the MSN of the next message")              \
    X(QPN_01, "qpn-01", "31c", IBE_FS_RESP, "PKT-QP01-UD", IBE_FN_CHECK, 0,    \
      "the responder numbers its RC QP 1 (QPs from 0) and takes RC there")     \
    X(SEQ_NAK_AFTER_RNR, "seq-nak-after-rnr", "-", IBE_FS_RESP, "-",           \
      IBE_FN_CHECK, IBE_FT_RNR,                                                \
      "after an RNR NAK the responder answers the next request ahead of "      \
      "the NAKed PSN with a PSN sequence NAK (Linux 6.1 rxe; found by "        \
      "ibwire probe, docs/probe.md)")                                         \
    X(READ_GAP_DROPPED, "read-gap-dropped", "-", IBE_FS_REQ, "-", IBE_FN_CHECK, \
      IBE_FT_LOSS_READ,                                                        \
      "a READ response after a lost one is dropped; the READ is issued again " \
      "only at the local ACK timeout (Linux 6.1 rxe; docs/probe.md)")          \
    X(ACK_BEYOND_ACCEPTED, "ack-beyond-accepted", "-", IBE_FS_REQ, "-",        \
      IBE_FN_CHECK, 0,                                                         \
      "an ACK naming a PSN past the last one sent completes every request "    \
      "outstanding (Linux 6.1 rxe; docs/probe.md)")                            \
    X(LONG_SEND_QP_OP_ERR, "long-send-qp-op-err", "-", IBE_FS_RESP, "-",       \
      IBE_FN_CHECK, 0,                                                         \
      "a SEND longer than the posted receive completes it with Local QP "      \
      "Operation Error, not Local Length Error (Linux 6.1 rxe; docs/probe.md)") \
    X(RESEND_EARLY, "resend-early", "-", IBE_FS_REQ,                          \
      "FLOW-RESEND-UNJUSTIFIED", IBE_FN_CHECK, 0,                              \
      "once, after a new Send/Write packet sent with three PSNs or more "     \
      "before it unacknowledged, everything outstanding is resent at once "   \
      "(Go-Back-N from the oldest): no NAK, no timeout (issue 31: a "         \
      "requester-side resend misbehaviour outside the zoo)")                  \
    X(ACK_TIMER_TICK, "ack-timer-tick", "-", IBE_FS_REQ, "-", IBE_FN_CHECK,    \
      IBE_FT_LOSS,                                                             \
      "the local ACK timer counts 4 ms ticks (jiffies at HZ 250) and fires "   \
      "up to one tick before the timeout (Linux 6.1 rxe; docs/probe.md)")       \
    X(ZERO_DMALEN_DATA, "zero-dmalen-data", "-", IBE_FS_RESP, "-",             \
      IBE_FN_CHECK, 0,                                                         \
      "an RDMA WRITE whose RETH DMA length is 0 is not length-checked: its "   \
      "payload bytes are taken (written nowhere) and ACKed (Linux 6.1 rxe "    \
      "copies them through a NULL region and crashes; found by ibwire probe " \
      "--fuzz, docs/probe.md)")

/* Zoo rows no fault mode reproduces: Y("row", "rule", "why"), rule the
 * one that would decide it or "not decidable". */
#define IBE_FAULT_GAPS(Y)                                                      \
    Y("11", "not decidable", "an oversized UD datagram moving the QP to "     \
            "Error shows only as silence afterwards, which loss also explains") \
    Y("17", "not decidable", "a duplicate READ after the region was "         \
            "invalidated: the invalidation is in the host, not on the wire "   \
            "(SEND WITH INVALIDATE names a key, not the region a later READ "  \
            "uses)")                                                           \
    Y("18", "not decidable", "R_Keys are advertised out of band: a capture "  \
            "cannot tell a valid R_Key from an invalid one")                   \
    Y("21", "not decidable", "inline payload from the wrong address: needs "  \
            "the posted data (the sim's exactly-once data check catches it, "  \
            "a capture cannot)")                                               \
    Y("22", "not decidable", "an empty receive queue taken as full: whether " \
            "the queue was empty is not on the wire (RNR NAK or not); credits " \
            "too high need the posted receives")                               \
    Y("30", "not decidable", "more than 2^23 PSNs outstanding: 24-bit PSN " \
            "arithmetic cannot tell a window that wide from one behind, and " \
            "ACKs the capture missed explain a wide one (and no fault mode: " \
            "over 8 million frames in flight)")

enum ibe_fault {
#define IBE_FAULT_ENUM(E, n, z, s, r, nd, t, d) IBE_FAULT_##E,
    IBE_FAULTS(IBE_FAULT_ENUM)
#undef IBE_FAULT_ENUM
    IBE_FAULT_COUNT
};

#define IBE_FAULT_BIT(E) (1ull << IBE_FAULT_##E)

struct ibe_fault_info {
    const char *name, *zoo;
    uint8_t side;      /* enum ibe_fault_side */
    const char *rule;
    uint8_t needs;     /* enum ibe_fault_needs */
    uint32_t traffic;  /* IBE_FT_* */
    const char *what;
};

struct ibe_fault_gap { const char *zoo, *rule, *why; };

extern const struct ibe_fault_info ibe_fault_table[IBE_FAULT_COUNT];
extern const struct ibe_fault_gap ibe_fault_gaps[];
extern const unsigned ibe_fault_ngaps;

/* Parses "name[,name...]" into a mask of IBE_FAULT_BIT()s: 0, or -1 with
 * *bad pointing at the unknown name. */
int ibe_fault_parse(const char *list, uint64_t *mask, const char **bad);
/* The faults of mask on one side. */
uint64_t ibe_fault_side_mask(uint64_t mask, int side);
/* The union of the traffic bits of the faults in mask. */
uint32_t ibe_fault_traffic(uint64_t mask);
/* The side's name: "requester" / "responder". */
const char *ibe_fault_side_name(int side);

/* Writes the zoo row -> fault mode -> rule table as Markdown, rows in the
 * bug zoo's order ("6a" after "6"), the rows no fault reproduces with
 * their reason (`ibwire sim --list-faults --markdown`, conformance/rules.md). */
void ibe_fault_write_markdown(FILE *out);

#endif
