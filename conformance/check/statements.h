/* SPDX-License-Identifier: Apache-2.0 */
/*
 * statements.h - one reading of the IBA: the statements ibwire judges,
 * each declared once, and the parts that must agree on it.  The checker's
 * rules (rules.h), the reference engine behind `--replay` (its open
 * choices: conformance/engine/choices.h), the engine's fault modes
 * (conformance/engine/faults.h) and the probe's tests
 * (conformance/probe/tests.c) name what they judge, break or provoke here;
 * conformance/rules.md lists the table (rules_md), `ibwire probe --list`
 * names each test's statements, and the test `statements_agree`
 * (conformance/tests/statements) holds the references to the tables they
 * name and runs every open choice through the checker and the replay.
 *
 * X(ENUM, "ID", "section", "requires", "open", "rules", "engine",
 *   "choices", "faults", "probes")
 *   ID        stable, never reused;
 *   section   IBA Vol. 1 section(s) or annex A17 statements, "; "-separated
 *             (release 1.2.1 numbering, as the rules' spec column);
 *   requires  what a conforming device must do (the "shall"s);
 *   open      what the text leaves to the device: every behaviour listed
 *             there is accepted by the rules, the replay and the probe
 *             alike ("" when the statement leaves nothing open);
 *   rules     the rule IDs (rules.h) that judge it, "; "-separated;
 *   engine    what the reference engine does (the replay's reference);
 *   choices   the engine choices (choices.h) that take the other open
 *             behaviours, "; "-separated ("" when the open part has no
 *             switch: the engine row says why);
 *   faults    the fault modes (faults.h) that break it;
 *   probes    the probe tests (tests.c) that provoke it.
 * Every rule is named by at least one statement.
 */
#ifndef IBWIRE_CHECK_STATEMENTS_H
#define IBWIRE_CHECK_STATEMENTS_H

#define IBW_STATEMENTS(X)                                                      \
    /* ---- the statements issue 31 starts from ---- */                        \
    X(READ_DUP_OPCODE, "READ-DUP-OPCODE", "9.7.4; 9.7.5.1; 9.4",              \
      "A duplicate RDMA READ, and a READ re-issued from inside the span of "   \
      "one executed before (an exact remainder: READ-REISSUE), is executed "   \
      "again from its own PSN: a response at each PSN from it to the end of "  \
      "the span, each with the PSN and the payload bytes the original "        \
      "response at that PSN had (9.7.4: every potential duplicate response "   \
      "identical in PSN and data), the LAST (or ONLY) carrying the rest.",     \
      "The opcode of the responses to a re-issue that starts inside the "      \
      "span: FIRST ... LAST (ONLY for one packet) from the re-issued PSN, as " \
      "a READ of its own (rdmavt/hfi1, qib), or the opcodes the original "     \
      "span gives those PSNs, MIDDLE ... LAST (Linux rxe, duplicate_request() " \
      "replay state).  The text fixes PSNs and bytes, names no opcode for "    \
      "this case, and requesters take both (rxe's completer a MIDDLE in "      \
      "sequence and a FIRST at the re-issued WQE's first PSN; qib/hfi1 a "     \
      "MIDDLE or a FIRST at the next PSN expected, a FIRST restarting its "    \
      "buffer at that PSN's offset).",                                         \
      "FLOW-READ-RESP; REPLAY-DIFF",                                           \
      "FIRST ... LAST from the re-issued PSN (exec_engine.c, duplicate "       \
      "region); the replay accepts the original span's opcodes too",         \
      "dup-read-continue", "",                                                 \
      "resp-dup-read; resp-dup-read-inside; req-lost-read-response; "          \
      "req-lost-read-response-middle")                                         \
    X(READ_REISSUE, "READ-REISSUE", "9.7.4; 9.7.5.1",                          \
      "A READ sent again after some of its responses arrived asks for "       \
      "exactly the rest: the PSN of the first response missing, the VA "       \
      "advanced by the bytes received, the DMA length of the rest, the same " \
      "R_Key (a subset of the original, so that each possible duplicate "      \
      "response is identical).",                                               \
      "When to re-issue: at the response gap (a later response arrived) or "   \
      "only at the local ACK timeout (Linux rxe drops the responses after a "  \
      "gap): a quality figure, not a conformance one.",                        \
      "FLOW-RETRANS-DIFF",                                                     \
      "re-issues at the gap, from the missing PSN (req_recv.c)", "",          \
      "read-reissue-length; read-reissue-va; read-gap-dropped",                \
      "req-lost-read-response; req-lost-read-response-middle")                 \
    X(MSN, "MSN", "9.7.6; C9-148",                                             \
      "The AETH MSN counts the messages the responder completed: a SEND or "   \
      "WRITE at its last packet, a READ or atomic when executed (every "      \
      "response of a READ carries the MSN that counts it); per message, not " \
      "per packet, every RDMA WRITE included.",                                \
      "The MSN on a response replayed for a duplicate (an ACK again, READ "   \
      "responses again, an atomic's saved answer): any value from the one "    \
      "the original answer had to the responder's current one (Linux rxe "    \
      "sends its current MSN).",                                               \
      "FLOW-MSN; REPLAY-DIFF",                                                 \
      "the current MSN on every response, replayed ones included (the "       \
      "replay leaves a READ FIRST's MSN to FLOW-MSN, which also runs with "    \
      "--replay)", "dup-msn-original",                                         \
      "msn-per-packet; msn-no-write; msn-read-ahead",                          \
      "resp-msn-reads; resp-send-multi; resp-write-only; resp-dup-write")      \
    X(ACK_COALESCE, "ACK-COALESCE", "9.7.5.1; 9.7.6; C9-105",                 \
      "An ACK at PSN P acknowledges every request through P; it is never "    \
      "sent for a PSN whose request was not executed, nor before the "        \
      "responses of a READ or atomic it covers were all sent.",                \
      "Which requests get an ACK of their own: one ACK may cover several "     \
      "(coalescing), AckReq asks for one but the ACK may come later, a "      \
      "duplicate SEND/WRITE is answered with its own PSN or a later one "      \
      "already executed.",                                                     \
      "REPLAY-DIFF; REPLAY-MISSING; FLOW-ACK-UNSENT; FLOW-ACK-READ",           \
      "an ACK for every request with AckReq, at its PSN; a duplicate "        \
      "SEND/WRITE ACKed at ePSN - 1 (the replay accepts any later ACK as "    \
      "covering one it sends)",                                                \
      "ack-coalesce", "ack-covers-read; ack-beyond-accepted",                  \
      "req-coalesced-ack; req-dup-ack; req-ack-beyond; req-ack-beyond-read; "  \
      "resp-dup-write")                                                        \
    X(NAK_SEQ, "NAK-SEQ", "9.7.5.2",                                           \
      "A request ahead of the expected PSN is not executed.  The first one "  \
      "of a gap draws one PSN sequence error NAK naming the expected PSN, the " \
      "later ones of the same gap nothing; the requester then goes back to "   \
      "that PSN.  (The checker cannot tell a NAK sent twice from one the "     \
      "network duplicated: the probe, which makes the gap, judges the "        \
      "silence.)",                                                             \
      "When the NAK comes (it may be coalesced behind the gap's requests); "   \
      "a NAK lost on its way is recovered by the local ACK timeout.",          \
      "FLOW-NAK-PSN; FLOW-GBN; REPLAY-EXTRA; REPLAY-MISSING",                  \
      "one NAK per gap, later ones dropped silently", "",                      \
      "gbn-stops",                                                             \
      "resp-psn-ahead-nak; resp-psn-ahead-drop; resp-psn-ahead-again; "        \
      "req-nak-seq-gbn")                                                       \
    X(DUP_REQUEST, "DUP-REQUEST", "9.7.5.1; C9-105; 9.4.5",                    \
      "A duplicate request (PSN behind the expected one) is not executed "    \
      "again: a SEND or WRITE is acknowledged again, a READ executed again "   \
      "(READ-DUP-OPCODE), an atomic answered with the original value saved "   \
      "from its execution.  (The requester sends a duplicate only when a "   \
      "NAK, timer or gap asked for it: FLOW-RESEND-UNJUSTIFIED; "             \
      "resp-dup-write's probe sends one on purpose.)",                        \
      "The ACK's PSN for a duplicate SEND/WRITE (its own or a later one "      \
      "executed, ACK-COALESCE); a duplicate whose saved atomic result was "    \
      "already released may be dropped.",                                      \
      "FLOW-DUP-ATOMIC; REPLAY-DIFF; FLOW-RESEND-UNJUSTIFIED",                 \
      "re-ACK at ePSN - 1, READ re-executed, atomic answered from a cache "   \
      "of 16 (the replay takes an answer from an older saved result too, "     \
      "as optional: rxe keeps 128)", "",                                       \
      "atomic-dup-reexec; nak-after-dup-read",                                 \
      "resp-dup-send; resp-dup-write; resp-dup-read; resp-dup-atomic")         \
    X(RNR, "RNR", "9.7.5.2.8; 9.7.5.2",                                        \
      "A SEND or WRITE with immediate finding no receive WQE draws an RNR "   \
      "NAK naming its PSN and the QP's RNR timer; a request already sent "     \
      "behind it is dropped silently (no NAK but for a valid request at the "  \
      "expected PSN: Linux rxe's sequence NAK there is a finding, "           \
      "docs/probe.md); the requester waits at least the timer before it "     \
      "sends again from that PSN (a sequence NAK naming that PSN does not "    \
      "shorten the wait), and an RNR retry count of 7 means without limit.",   \
      "How much longer than the timer the requester waits.",                   \
      "FLOW-RNR-WAIT; REPLAY-DIFF",                                            \
      "waits exactly the timer; drops what follows the NAKed request",        \
      "rnr-wait-longer",                                                       \
      "rnr-ignore-timer; rnr-timer-fast; rnr-retry-finite; seq-nak-after-rnr", \
      "resp-rnr; resp-rnr-then-drop; resp-rnr-write-imm; req-rnr-wait; "       \
      "req-rnr-seq-nak; req-rnr-infinite; req-rnr-exceeded")                   \
    X(RETRY, "RETRY", "9.7.4; 9.7.5.1; 9.7.6",                                 \
      "A request is sent again only after a NAK, an RNR NAK's timer, a READ " \
      "response gap or the local ACK timeout (4.096 us x 2^timeout); what is " \
      "sent again is the request as first sent (same opcode, length and "      \
      "bytes at each PSN); after the retry count it completes with Retry "     \
      "Exceeded.",                                                             \
      "How long after the timeout the resend goes (timer granularity): a "     \
      "quality figure.",                                                       \
      "FLOW-RETRANS-DIFF; FLOW-GBN; FLOW-RESEND-UNJUSTIFIED",                  \
      "resends at the timeout, the same bytes", "",                           \
      "resend-payload; resend-short; ack-timer-tick; read-gap-dropped; "      \
      "resend-early",                                                          \
      "req-lost-ack; req-retry-exceeded; req-ack-beyond-read")                 \
    X(GO_BACK_N, "GO-BACK-N", "9.7.5.2",                                       \
      "After a PSN sequence NAK naming P the requester sends again every "    \
      "request from P that was outstanding, in order; what came before P is " \
      "complete.",                                                             \
      "", "FLOW-GBN; FLOW-GBN-QUIET", "Go-Back-N at once on the NAK", "",     \
      "gbn-stops",                                                             \
      "req-nak-seq-gbn")                                                       \
    /* ---- the statements the rules' spec column cites ---- */               \
    X(READ_RESPONSES, "READ-RESPONSES", "9.4; 9.7.5",                          \
      "A READ of L bytes consumes ceil(L/PMTU) PSNs (at least 1), answered "  \
      "FIRST, MIDDLE..., LAST or ONLY, the LAST with the rest of L; an "      \
      "atomic by one ATOMIC ACKNOWLEDGE at its PSN; a response answers a "     \
      "request of its kind at its PSN.",                                       \
      "", "FLOW-READ-RESP; FLOW-RESP-MATCH; FLOW-ACK-READ; REPLAY-DIFF; "      \
      "REPLAY-MISSING; "                                                       \
      "REPLAY-EXTRA",                                                          \
      "responses cut by the PMTU", "", "ack-covers-read",                      \
      "resp-read-only; resp-read-multi; resp-psn-wrap-read; req-read; "        \
      "req-stale-read-response")                                               \
    X(SEND_WRITE, "SEND-WRITE", "9.4; 9.3.3; 9.7.5",                           \
      "A requester sends a message from its next PSN cut into PMTU packets "   \
      "(FIRST, MIDDLE..., LAST or ONLY), a WRITE's VA, R_Key and DMA length "  \
      "in its first packet's RETH; a responder places a SEND in the next "     \
      "posted receive and a WRITE at its VA, exactly its bytes, a WRITE with " \
      "immediate consuming a receive, and completes the receive with the "     \
      "immediate data.",                                                       \
      "", "FLOW-WRITE-LEN; PKT-LEN-FULL; FLOW-OPSEQ; REPLAY-DIFF",             \
      "as stated (exec_engine.c, req_pktgen.c)", "", "",                       \
      "resp-send-imm; resp-send-last-imm; resp-write-multi; resp-write-imm; "  \
      "resp-write-last-imm; req-send; req-send-multi; req-send-imm; req-write") \
    X(OPCODE_SEQ, "OPCODE-SEQ", "9.6; 9.7.4; 9.2.1",                            \
      "Packets of a message follow FIRST, MIDDLE..., LAST (or ONLY) of one "   \
      "operation, no message inside another; a responder NAKs an opcode "     \
      "out of sequence with Invalid Request; opcodes are those the "          \
      "transport defines.",                                                    \
      "Whether the QP also goes to the error state after the NAK.",           \
      "FLOW-OPSEQ; FLOW-TRANSPORT; FLOW-NAK-INVALID; REPLAY-DIFF",             \
      "NAK Invalid Request, QP to Error", "",                                  \
      "send-inv-not-start; nak-after-dup-read",                                \
      "resp-opseq-middle; resp-opseq-last; resp-opseq-interleave; "            \
      "resp-opseq-mixed; resp-send-multi")                                     \
    X(LENGTHS, "LENGTHS", "C9-92; C9-94; 9.3.3",                               \
      "FIRST and MIDDLE packets carry exactly the PMTU, LAST 1..PMTU, ONLY "   \
      "0..PMTU; a WRITE's payloads add up to its RETH DMA length; a "          \
      "responder NAKs a request breaking these (Invalid Request) and "         \
      "executes nothing of it.",                                               \
      "", "PKT-LEN-FULL; PKT-LEN-LAST; FLOW-WRITE-LEN; FLOW-INVALID-ACCEPTED", \
      "NAK Invalid Request", "",                                               \
      "len-check-off; va-wrap-accept; zero-dmalen-data",                       \
      "resp-len-first-short; resp-len-middle-short; resp-len-last-over; "      \
      "resp-len-only-over; resp-len-write-only-over; resp-len-write-short; "   \
      "resp-len-write-long; resp-len-write-multi; resp-len-write-zero-dmalen; " \
      "resp-reth-2g-write; "                                                   \
      "resp-reth-2g-read; resp-send-pmtu1024; req-write-pmtu1024")             \
    X(ZERO_LEN, "ZERO-LEN", "C9-88",                                           \
      "An RDMA operation of DMA length 0 needs no valid VA or R_Key: it is "   \
      "executed (a zero-length READ answered by one empty READ RESPONSE "      \
      "ONLY), never NAKed for its key.",                                       \
      "", "FLOW-ZERO-LEN; FLOW-READ-RESP", "answers without checking the key", "",           \
      "zero-read-rkey; zero-read-silent",                                      \
      "resp-zero-write-any-rkey; resp-zero-read-any-rkey; "                    \
      "resp-zero-write-valid")                                                 \
    X(NAK_CODES, "NAK-CODES", "9.7.5.2; 9.3.5; 10.6",                          \
      "A request the responder cannot execute is NAKed with the code of its " \
      "fault (Invalid Request, Remote Access Error, Remote Operational "       \
      "Error), at its PSN; the AETH syndrome is a defined one.",               \
      "Which NAK when several faults hold at once (a length over 2^31 past "   \
      "its region: Invalid Request or Remote Access); a receive too small: "   \
      "Invalid Request or Remote Operational Error.",                          \
      "FLOW-NAK-INVALID; PKT-AETH; REPLAY-DIFF",                               \
      "the first fault found in the ExecutionEngine's order", "",             \
      "no-nak; zero-read-rkey",                                                \
      "resp-rkey-bad-write; resp-rkey-bad-read; resp-va-out-of-range; "        \
      "resp-va-wrap; resp-va-wrap-write; resp-write-no-access; "               \
      "resp-read-no-access; resp-atomic-no-access; "                           \
      "resp-rd-limit; resp-send-inv")                                          \
    X(COMPLETIONS, "COMPLETIONS", "11.6.2; 9.9",                               \
      "Every work request completes once, in the order of its queue, with "   \
      "the status of what happened to it: a receive with the bytes and the "   \
      "immediate data of the message it took; a receive too small for the "    \
      "SEND that took it with Local Length Error (the SEND itself NAKed: "     \
      "NAK-CODES); a request the responder NAKed with the error its NAK "      \
      "names; after the QP went to Error, the rest as flushed.",               \
      "Whether a receive taken by a message the responder then NAKed for "     \
      "another reason completes in error or is kept for the next message.",    \
      "REPLAY-DIFF",                                                           \
      "a CQE for every WQE, signalled or not; a SEND longer than its receive " \
      "completes the receive with Local Length Error and draws a Remote "      \
      "Operational Error NAK (exec_engine.c).  No capture shows a "            \
      "completion: the probe judges them (its fuzzer's judge-cqe, read as "    \
      "REPLAY-DIFF: the device's completion differs from the engine's)",       \
      "", "long-send-qp-op-err",                                               \
      "resp-send-too-long")                                                    \
    X(PSN_SPACE, "PSN-SPACE", "9.7.1",                                         \
      "PSNs are 24 bits and wrap from 0xFFFFFF to 0; each request packet "     \
      "takes the next one (a READ as many as its responses).",                \
      "", "FLOW-PSN-GAP", "24-bit PSN arithmetic", "", "start-psn-stale",     \
      "resp-psn-wrap; resp-psn-wrap-read; req-psn-wrap")                       \
    X(ATOMICS, "ATOMICS", "9.4.5",                                             \
      "An atomic's VA is 8-byte aligned (else NAK Invalid Request); it is "    \
      "executed once and answered with the original value.",                  \
      "", "PKT-ATOMIC-ALIGN; FLOW-DUP-ATOMIC", "executes once, caches the "   \
      "answer", "", "atomic-dup-reexec",                                       \
      "resp-cmp-swap; resp-cmp-swap-miss; resp-fetch-add; "                    \
      "resp-atomic-misaligned; req-atomic")                                    \
    X(ICRC, "ICRC", "7.8.1; 7.8.2; CA17-22; CA17-24",                          \
      "The ICRC (and on native IB the VCRC) covers the invariant fields, "    \
      "the pad included; a receiver drops a packet with a bad one silently.", \
      "", "PKT-ICRC; PKT-VCRC", "computes and checks both", "",               \
      "icrc-no-pad; icrc-pad-offset; icrc-mask; icrc-small-unchecked",         \
      "resp-drop-icrc; resp-drop-icrc-small; req-send-padded; "                \
      "resp-send-only")                                                        \
    X(HEADERS, "HEADERS", "7.7; 8.3; 9.2; 9.3; 9.4; CA17-6; CA17-15; "        \
      "CA17-21; CA17-27; CA17-28",                                             \
      "Every header an IBA packet announces fits it, with defined versions, " \
      "opcodes and AETH syndromes, reserved fields zero, PadCnt padding the " \
      "payload to 4 bytes, no payload on opcodes that carry none; a "         \
      "receiver drops a malformed packet silently.",                           \
      "", "PKT-MALFORMED; PKT-VERSION; PKT-OPCODE; PKT-RESERVED; PKT-PAD; "    \
      "PKT-NO-PAYLOAD", "builds them so; drops what its parser refuses", "",  \
      "read-req-payload; runt-accept",                                         \
      "resp-drop-ipver; resp-drop-iplen; resp-drop-udplen")                    \
    X(ROCEV2_IP, "ROCEV2-IP", "A17.3; CA17-2; CA17-3; CA17-4; CA17-5; "       \
      "CA17-7; CA17-8; CA17-9; CA17-10; CA17-13; CA17-14; CA17-16; CA17-17; "  \
      "CA17-20; CA17-29",                                                      \
      "RoCEv2's Ethernet, IP and UDP headers as annex A17 sets them: a "      \
      "correct IPv4 checksum, IHL 5, DF, no fragments, protocol/next header "  \
      "17, UDP port 4791, a UDP checksum 0 or correct, a unicast source MAC, " \
      "DSCP and ECN kept per connection, FECN/BECN not set and ignored.",      \
      "The UDP source port (should be fixed per connection); TTL (routers "    \
      "change it); the UDP checksum 0 or a correct one.",                      \
      "PKT-IP-CSUM; PKT-UDP-CSUM; PKT-IP-HDR; PKT-ETH-SRC; PKT-FECN-BECN; "    \
      "FLOW-UDP-SPORT; FLOW-DSCP; FLOW-TTL; FLOW-ECN",                         \
      "fixed per connection, UDP checksum 0", "", "",                          \
      "resp-fecn-becn; resp-drop-udpport")                                     \
    X(CNP, "CNP", "A17.9.2", "A CNP has PadCnt 0, AckReq 0, its reserved "     \
      "bytes zero, and travels over RoCEv2.", "", "PKT-CNP",                   \
      "one CNP per FECN-marked request", "", "", "")                           \
    X(PKEY, "PKEY", "10.9.1.2; 10.9.3",                                        \
      "A P_Key's low 15 bits are not all zero; a packet whose P_Key does not " \
      "match the QP's is dropped silently; a connection keeps one P_Key.",     \
      "", "PKT-PKEY; FLOW-PKEY", "checks it on receipt", "", "",             \
      "resp-drop-pkey")                                                        \
    X(SPECIAL_QP, "SPECIAL-QP", "10.2.4.1; 14.2.1; 13.4; 13.5.1",              \
      "QP0 and QP1 are UD: connected traffic targets a QP above 1, QP0's "     \
      "packets travel on VL15, QP1's carry the well-known Q_Key, MADs are "    \
      "well formed.",                                                          \
      "", "PKT-QP01-UD; PKT-QP0-VL15; PKT-QP1-QKEY; PKT-MAD",                  \
      "numbers its QPs from 2", "", "qpn-01", "resp-drop-qp; resp-drop-qkey")  \
    X(CM, "CM", "12.6; 12.9",                                                  \
      "The connection exchange follows the CM state machine (REQ, REP, RTU, " \
      "DREQ, DREP, REJ, MRA) with defined fields; the connection's QPNs and "  \
      "start PSNs are those it negotiated.",                                   \
      "How long to wait before a message is sent again (within the CM "       \
      "timeouts).",                                                            \
      "CM-SEQ; CM-FIELD; CM-TIMEOUT; CM-QPN",                                  \
      "conformance/engine/cm", "", "start-psn-stale", "")                      \
    X(MIGREQ, "MIGREQ", "9.2",                                                 \
      "BTH MigReq is the same in both directions of a connection (1 with no " \
      "path migration).",                                                      \
      "", "FLOW-MIGREQ", "MigReq 1 both ways", "", "migreq-set", "")           \
    X(VANTAGE, "VANTAGE", "vantage point",                                     \
      "Not a device statement: what the capture point may explain (frames "   \
      "cut or lost at the capture, one direction recorded late, a capture "    \
      "starting mid-flow, responses without their requests, timestamps out " \
      "of order, the reference's own limits) is said once as a note, never "  \
      "judged as an error.",                                                   \
      "", "CAP-TRUNCATED; FLOW-START-MID; FLOW-ACK-UNSENT; CAP-SKEW; "         \
      "CAP-LOSS; CAP-CRC; CAP-TS-ORDER; CAP-TS-CLOCKS; CAP-ETH-SRC; "        \
      "CAP-MIRROR-DUP; "                                                       \
      "CM-UNMATCHED; "                                                         \
      "REPLAY-SKIPPED",                                                        \
      "-", "", "", "")

#define IBW_STMT_ENUM(e, id, sec, req, open, rules, eng, ch, flt, pr)         \
    IBW_STMT_##e,
enum ibw_statement { IBW_STATEMENTS(IBW_STMT_ENUM) IBW_STMT_COUNT };
#undef IBW_STMT_ENUM

struct ibw_statement_info {
    const char *id, *section, *requires, *open, *rules, *engine, *choices,
        *faults, *probes;
};

/* The table, in declaration order (statements.c). */
extern const struct ibw_statement_info ibw_statement_table[IBW_STMT_COUNT];

/* Whether the "; "-separated list has the item `name` (whole items only). */
int ibw_list_has(const char *list, const char *name);

/* The statements whose `probes` list has test `id`, "; "-separated into
 * buf (empty when none); buf. */
const char *ibw_statements_of_probe(const char *id, char *buf, unsigned len);

#endif
