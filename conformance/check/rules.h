/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rules.h - the conformance rule table: one X-macro list, the single source
 * of every rule's ID, severity, statement, origin and evidence.  The checker
 * reports by enum value; conformance/rules.md is generated from this list by
 * rules_md (a test keeps the two identical).
 *
 * X(ENUM, "ID", SEVERITY, SCOPE, "spec", "statement", "source", "evidence")
 *   SEVERITY: ERROR (the traffic breaks the specification) or WARNING
 *             (something the capture's vantage point may explain).
 *   SCOPE:    PACKET (one frame on its own), FLOW (a requester/responder QP
 *             pair), CM (a communication ID's connection exchange).
 *   spec:     the IBA statements the rule enforces, "; "-separated: RoCEv2
 *             annex A17 compliance statements (CA17-n), the chapter 9
 *             statement IDs public sources cite (C9-n), else the Vol. 1
 *             section; "vantage point" for notes on the capture itself.
 * IDs are stable: never renumber or reuse one; retire a rule by leaving it
 * in the list with a statement saying so.
 */
#ifndef IBWIRE_CHECK_RULES_H
#define IBWIRE_CHECK_RULES_H

#define CHK_RULES(X)                                                           \
    /* ---- per packet ---- */                                                 \
    X(CAP_TRUNCATED, "CAP-TRUNCATED", WARNING, PACKET,                         \
      "vantage point",                                                         \
      "Frames cut short by the capture's snap length keep their flows (every " \
      "header that fits is judged); the rules needing the bytes cut off "      \
      "(ICRC, VCRC, UDP checksum, MAD fields) are skipped on them, and a CM "  \
      "message is judged on the fields it kept and hands its flows what "      \
      "those negotiated (a REQ cut before its service type: the first "        \
      "response, which only RC/RD/XRC send, tells the transport).  Said "      \
      "once per capture, with the count and the snap length.  A capture "      \
      "tool that records the cut length as the original length too is "       \
      "recognised by many frames ending at one length short of their length "  \
      "fields, or by no frame of the capture being longer than the cut.",      \
      "pcap caplen < origlen, or a common cut length (vantage point)",         \
      "frames cut and snap length")                                            \
    X(PKT_MALFORMED, "PKT-MALFORMED", ERROR, PACKET,                           \
      "7.7.8; 8.3; CA17-6; CA17-15; CA17-21",                                  \
      "The headers an IBA packet announces fit in it and their length "        \
      "fields agree (LRH PktLen, GRH PayLen, IPv4 Total Length, UDP Length); " \
      "a frame shorter than its length fields, in a capture where no snap "    \
      "length explains it, is malformed (reported at the end of the capture).", \
      "IBA Vol.1 7.7.8 (PktLen), 8.3 (PayLen); RoCEv2 A17.4.3",                \
      "header and field named by the parser")                                  \
    X(PKT_ICRC, "PKT-ICRC", ERROR, PACKET,                                     \
      "7.8.1; CA17-22",                                                        \
      "The ICRC equals the CRC-32 of the packet's invariant fields.  A frame "  \
      "with a bad ICRC or VCRC is judged by that alone and kept out of its "   \
      "flow (its receiver drops it).",                                         \
      "IBA Vol.1 7.8.1; RoCEv2 A17.4.4", "ICRC carried vs computed")           \
    X(PKT_VCRC, "PKT-VCRC", ERROR, PACKET,                                     \
      "7.8.2",                                                                 \
      "The VCRC equals the CRC-16 of the packet from LRH through ICRC.",       \
      "IBA Vol.1 7.8.2", "VCRC carried vs computed")                           \
    X(PKT_IP_CSUM, "PKT-IP-CSUM", ERROR, PACKET,                               \
      "CA17-2 (RFC 791)",                                                      \
      "The IPv4 header checksum of a RoCEv2 packet is correct (also of an "   \
      "IP fragment whose UDP header says 4791, left otherwise undecoded).",    \
      "RFC 791; RoCEv2 A17.4.2", "checksum carried vs computed")               \
    X(PKT_UDP_CSUM, "PKT-UDP-CSUM", ERROR, PACKET,                             \
      "A17.3.2.4 (RFC 768)",                                                   \
      "A RoCEv2 UDP checksum is zero or correct.",                             \
      "RoCEv2 A17.4.3 (UDP checksum); RFC 768",                                \
      "checksum carried vs computed")                                          \
    X(PKT_VERSION, "PKT-VERSION", ERROR, PACKET,                               \
      "7.7.2; 8.3.1; 9.2; CA17-27",                                            \
      "LRH LVer is 0, GRH IPVer is 6 with NxtHdr 0x1B, BTH TVer is 0; the "   \
      "IP header of a RoCEv2 packet has the version its EtherType names "      \
      "(4 or 6).",                                                             \
      "IBA Vol.1 7.7.2 (LVer), 8.3.1 (IPVer, NxtHdr), 9.2 (TVer); RFC 791, "   \
      "RFC 8200 (Version); RoCEv2 A17.4.2",                                    \
      "field and its value")                                                   \
    X(PKT_OPCODE, "PKT-OPCODE", ERROR, PACKET,                                 \
      "9.2.1; CA17-28",                                                        \
      "The BTH opcode is a defined one (UD: SEND ONLY, SEND ONLY WITH "        \
      "IMMEDIATE only).",                                                      \
      "IBA Vol.1 9.2.1 table 38; RoCEv2 A17.9.2 (CNP)", "opcode value")        \
    X(PKT_RESERVED, "PKT-RESERVED", ERROR, PACKET,                             \
      "9.2; 9.3",                                                              \
      "Reserved header fields are zero (LRH Resv, BTH Resv7, DETH, RDETH, "    \
      "XRCETH reserved byte, AETH syndrome bit 7, FETH reserved bits).",       \
      "IBA Vol.1 7.7, 9.2, 9.3 (reserved fields set to 0 by the sender)",      \
      "header, field and value")                                               \
    X(PKT_PAD, "PKT-PAD", ERROR, PACKET,                                       \
      "9.2",                                                                   \
      "PadCnt pads the payload to a multiple of 4 bytes, and only a packet "   \
      "with payload carries pad.",                                             \
      "IBA Vol.1 9.2 (PadCnt)", "payload length, PadCnt and expected PadCnt")  \
    X(PKT_NO_PAYLOAD, "PKT-NO-PAYLOAD", ERROR, PACKET,                         \
      "9.4",                                                                   \
      "Opcodes without payload (RDMA READ request, atomics, ACK, CNP) carry "  \
      "none; ATOMIC WRITE carries exactly 8 bytes.",                           \
      "IBA Vol.1 9.2.1 table 38, 9.4 (read, atomic)", "payload length")       \
    X(PKT_LEN_FULL, "PKT-LEN-FULL", ERROR, PACKET,                             \
      "C9-92",                                                                 \
      "FIRST and MIDDLE packets carry exactly PMTU bytes (a valid PMTU: "      \
      "256, 512, 1024, 2048 or 4096; the --pmtu value or the flow's).",        \
      "IBA Vol.1 9.4 (segmentation into PMTU packets); UniVista RoCEv2 notes " \
      "§2.5.2 RC_CHK Length",                                                  \
      "payload length vs PMTU")                                                \
    X(PKT_LEN_LAST, "PKT-LEN-LAST", ERROR, PACKET,                             \
      "C9-92",                                                                 \
      "LAST packets carry 1..PMTU bytes, ONLY packets 0..PMTU (at most 4096 "  \
      "when the PMTU is unknown).",                                            \
      "IBA Vol.1 9.4; UniVista RoCEv2 notes §2.5.2 RC_CHK Length",             \
      "payload length vs PMTU")                                                \
    X(PKT_ATOMIC_ALIGN, "PKT-ATOMIC-ALIGN", ERROR, PACKET,                     \
      "9.4.5",                                                                 \
      "The virtual address of an atomic request is 8-byte aligned.",           \
      "IBA Vol.1 9.3.4, 9.4 (atomic operations)", "AtomicETH VA")                                       \
    X(PKT_PKEY, "PKT-PKEY", ERROR, PACKET,                                     \
      "10.9.1.2",                                                              \
      "The P_Key is valid: its low 15 bits are not all zero.",                 \
      "IBA Vol.1 10.9.1.2 (invalid P_Key 0x0000/0x8000)", "BTH P_Key")         \
    X(PKT_QP01_UD, "PKT-QP01-UD", ERROR, PACKET,                               \
      "10.2.4.1",                                                              \
      "Packets to QP0 or QP1 use UD opcodes (QP0/QP1 are UD special QPs); "    \
      "connected traffic targets a QP above 1.",                               \
      "IBA Vol.1 10.2.4.1 (special QPs); UniVista RoCEv2 notes §2.5.2 RC_CHK " \
      "DestQP",                                                                \
      "opcode and DestQP")                                                     \
    X(PKT_QP0_VL15, "PKT-QP0-VL15", ERROR, PACKET,                             \
      "14.2.1",                                                                \
      "Native IB packets to QP0 (subnet management) travel on VL15.",          \
      "IBA Vol.1 14.2.1 (SMPs use VL15)", "LRH VL")                            \
    X(PKT_AETH, "PKT-AETH", ERROR, PACKET,                                     \
      "9.3.5",                                                                 \
      "The AETH syndrome is defined: not the reserved kind, a NAK code 0..4 "  \
      "(4 only on RD), and NAK/RNR NAK only on an ACKNOWLEDGE packet.",        \
      "IBA Vol.1 9.3.5 tables 43-45", "syndrome byte")                         \
    X(PKT_CNP, "PKT-CNP", ERROR, PACKET,                                       \
      "A17.9.2",                                                               \
      "A CNP has PadCnt 0, AckReq 0 and its 16 reserved bytes zero, and "      \
      "travels over RoCEv2.",                                                  \
      "RoCEv2 A17.9.2 (CNP format)", "field and value")                        \
    X(PKT_MAD, "PKT-MAD", ERROR, PACKET,                                       \
      "13.4",                                                                  \
      "A MAD to QP0/QP1 is 256 bytes with base version 1, a defined class, "   \
      "the class's version (SMP 1, SA 2, PerfMgt 1, CM 2), a method defined "  \
      "for the class and, for CM, a CM attribute.",                            \
      "IBA Vol.1 13.4.3-13.4.5, 16.7 (class versions)",                        \
      "MAD field and value")                                                   \
    X(PKT_QP1_QKEY, "PKT-QP1-QKEY", ERROR, PACKET,                             \
      "13.5.1",                                                                \
      "Datagrams to QP1 carry the well-known GSI Q_Key 0x80010000.",           \
      "IBA Vol.1 13.5.1 (QP1 Q_Key)", "DETH Q_Key")                            \
    /* ---- per flow ---- */                                                   \
    X(FLOW_START_MID, "FLOW-START-MID", WARNING, FLOW,                         \
      "vantage point",                                                         \
      "A flow first seen in the middle of a message: state is learnt from "    \
      "here (the capture started mid-flow).",                                  \
      "vantage point", "opcode of the first packet seen")                      \
    X(FLOW_PSN_GAP, "FLOW-PSN-GAP", WARNING, FLOW,                             \
      "9.7.1",                                                                 \
      "Request PSNs advance by one per packet (a READ by the PSNs it "         \
      "consumes).  PSNs never seen that were not resent (network loss) nor "   \
      "acknowledged (capture loss, CAP-LOSS), and resends of PSNs before the " \
      "flow's first, are said once per flow with their ranges.",               \
      "IBA Vol.1 9.7 (PSN sequencing); vantage point", "PSN ranges not seen")  \
    X(FLOW_OPSEQ, "FLOW-OPSEQ", ERROR, FLOW,                                   \
      "9.6; 9.7.4",                                                            \
      "Messages go FIRST, MIDDLE*, LAST of one operation, and are not "        \
      "interleaved on an RC/UC QP.",                                           \
      "IBA Vol.1 9.6 (opcode sequence check), 9.8 (UC)",                    \
      "opcode vs the message open")                                            \
    X(FLOW_PKEY, "FLOW-PKEY", ERROR, FLOW,                                     \
      "10.9.3",                                                                \
      "All packets of a connection carry the same P_Key, and the two sides "   \
      "are not both limited members.",                                         \
      "IBA Vol.1 10.9.3 (P_Key matching); UniVista RoCEv2 notes §2.5.2 "       \
      "RC_CHK PKEY",                                                           \
      "P_Key seen vs the flow's")                                              \
    X(FLOW_RETRANS_DIFF, "FLOW-RETRANS-DIFF", ERROR, FLOW,                     \
      "9.7.5.1",                                                               \
      "A retransmitted packet carries the opcode and payload length of the "   \
      "original at that PSN; an RDMA READ re-issued from inside the "          \
      "original's response PSNs asks for the rest of its length.",             \
      "IBA Vol.1 9.7.4 (requester retry)",                  \
      "opcode/length now vs first sent")                                       \
    X(FLOW_GBN, "FLOW-GBN", ERROR, FLOW,                                       \
      "9.7.5.2",                                                               \
      "After a PSN sequence error NAK or an RNR NAK naming PSN E, the "        \
      "requester resends from E (Go-Back-N); never from a later PSN, which "   \
      "would skip PSNs the responder did not acknowledge.  A resend from an "  \
      "earlier PSN is no error: the NAK may have been lost after the capture " \
      "point, and a timeout resends from the oldest unacknowledged PSN.",      \
      "IBA Vol.1 9.7.4 (requester retry); HanGu RDMA engine design "           \
      "§3.4.5.1.3", "first resent PSN vs E")                                   \
    X(FLOW_RNR_WAIT, "FLOW-RNR-WAIT", ERROR, FLOW,                             \
      "9.7.5.2.8",                                                             \
      "After an RNR NAK the requester waits the RNR timer before resending.",  \
      "IBA Vol.1 9.7.5 (RNR NAK), table 46; HanGu RDMA engine design "         \
      "§3.4.5.1.3.1.1",                                                        \
      "time waited vs timer")                                                  \
    X(FLOW_NAK_PSN, "FLOW-NAK-PSN", ERROR, FLOW,                               \
      "9.7.5.2",                                                               \
      "A PSN sequence error NAK names the responder's expected PSN: one that " \
      "was sent and not yet acknowledged.",                                    \
      "IBA Vol.1 9.7.5 (responder NAK); HanGu RDMA engine design "             \
      "§3.4.5.1.3.2",                                                          \
      "NAK PSN vs last ACKed PSN")                                             \
    X(FLOW_ACK_UNSENT, "FLOW-ACK-UNSENT", WARNING, FLOW,                       \
      "vantage point",                                                         \
      "A response names a PSN the capture saw its flow's requester send.  "   \
      "A response recorded before its request (within the skew window) "      \
      "waits for it; the rest are said once per flow with their count, also " \
      "for responses no request flow could be paired with (no CM in the "      \
      "capture, or several flows between the endpoints fit: left unpaired).", \
      "IBA Vol.1 9.7.5 (vantage: requests may be missing)",                  \
      "count of responses")                                                    \
    X(FLOW_MSN, "FLOW-MSN", ERROR, FLOW,                                       \
      "9.7.6; C9-148",                                                         \
      "The AETH MSN never decreases, and grows by at most the messages "       \
      "the requests seen have completed (judged only while the capture saw "   \
      "every request PSN).",                                                   \
      "IBA Vol.1 9.7.5 (MSN)", "MSN now vs before")                        \
    X(FLOW_RESP_MATCH, "FLOW-RESP-MATCH", ERROR, FLOW,                         \
      "9.7.5",                                                                 \
      "A read response answers a READ request's PSN range, an atomic ACK an "  \
      "atomic request's PSN.",                                                 \
      "IBA Vol.1 9.7.5 (read responses, atomic ACK)",          \
      "response PSN vs the request at that PSN")                               \
    X(FLOW_READ_RESP, "FLOW-READ-RESP", ERROR, FLOW,                           \
      "9.4; 9.7.5",                                                            \
      "A READ of L bytes consumes ceil(L/PMTU) PSNs (at least 1); each of "    \
      "its responses has the opcode its place in that span takes (FIRST, "    \
      "MIDDLE, LAST, or ONLY) and the LAST carries the rest of L; a READ "     \
      "re-issued from inside the span is answered from its own PSN.  Judged "  \
      "packet by packet, so responses lost, duplicated or reordered on the "   \
      "way do not matter.",                                                    \
      "IBA Vol.1 9.4 (RDMA READ), 9.7.5", "response PSN/opcode/bytes vs expected")   \
    X(FLOW_WRITE_LEN, "FLOW-WRITE-LEN", ERROR, FLOW,                         \
      "9.3.3; C9-92",                                                          \
      "An RDMA WRITE message carries exactly its RETH DMA Length: a WRITE "    \
      "ONLY packet's payload, or the payloads of WRITE FIRST..LAST together " \
      "(when the capture saw all of them).",                                   \
      "IBA Vol.1 9.3.3 (RETH DMA Length: the whole operation's length), "      \
      "9.7.5 (responder: a length mismatch is an Invalid Request NAK)",        \
      "bytes carried vs DMA Length")                                           \
    X(FLOW_TRANSPORT, "FLOW-TRANSPORT", ERROR, FLOW,                         \
      "9.2.1; 9.6",                                                            \
      "Every packet to or from a connected QP uses that QP's transport "       \
      "service (RC, UC, RD, UD or XRC, the opcode's top three bits; CNPs "     \
      "aside): requests and responses of a QP pair carry one transport (the "  \
      "one a CM REQ named, when seen), a datagram (UD, RD) never reaches a "   \
      "connected QP.",                                                         \
      "IBA Vol.1 9.2.1 table 38 (opcode bits 7-5: transport), 9.6 (header "   \
      "validation: the opcode must suit the destination QP's service type, "   \
      "a QP attribute fixed at creation)",                                     \
      "opcode's transport vs the flow's")                                      \
    X(REPLAY_MISSING, "REPLAY-MISSING", ERROR, FLOW,                         \
      "9.7.5",                                                                 \
      "--replay: a response the reference responder sends for a request "      \
      "(ACK for AckReq, NAK, read response, atomic ACK) is in the capture; "   \
      "an ACK may be coalesced into any later response covering its PSN. "     \
      "Judged only when the capture has a response the reference sends "       \
      "after it, or one at its PSN or a later one after the request (a "      \
      "response recorded late may have been sent before the request), and "    \
      "not on a flow where the capture lost requests the responder "           \
      "acknowledged (CAP-LOSS: that capture point drops frames, so a "         \
      "response missing from it proves nothing of the responder).",            \
      "IBA Vol.1 9.7.5 (responder); reference engine (conformance/engine)",    \
      "request frame, the reference's response")                               \
    X(REPLAY_EXTRA, "REPLAY-EXTRA", ERROR, FLOW,                             \
      "9.7.5",                                                                 \
      "--replay: every captured NAK, read response and atomic ACK is one the " \
      "reference responder sends for the requests seen.  Not judged: RNR "     \
      "NAKs (receive WQEs posted are not on the wire), ACKs without AckReq "   \
      "(coalescing policy) whose MSN the reference had, and responses to "     \
      "requests the capture lost (their PSNs acknowledged, never in the "      \
      "file: the reference moves past them and compares nothing there).",      \
      "IBA Vol.1 9.7.5; reference engine (conformance/engine)",               \
      "captured response")                                                     \
    X(REPLAY_DIFF, "REPLAY-DIFF", ERROR, FLOW,                               \
      "9.7.5; 9.4",                                                            \
      "--replay: a captured response carries the reference's opcode, AETH "    \
      "kind and NAK code, MSN (relative to the flow's first response unless "  \
      "CM set the flow up), payload length, and atomic original value when "   \
      "the reference knows the word.  Not compared: read payload bytes "       \
      "(memory contents), ACK credits, RNR timer values.  After requests "     \
      "the capture lost, the reference takes the MSN of the ACK or atomic "    \
      "ACK that shows the hole (else the next difference up to the number "   \
      "of PSNs lost moves the origin), and forgets every word it knew (the "  \
      "lost requests may have written it): differences after the hole are "    \
      "judged as before it.",                                                  \
      "IBA Vol.1 9.7.5, 9.4; reference engine (conformance/engine)",          \
      "field captured vs reference")                                           \
    X(REPLAY_SKIPPED, "REPLAY-SKIPPED", WARNING, FLOW,                       \
      "reference engine limits",                                               \
      "--replay: a flow the reference cannot model from here on is not "       \
      "replayed further, said once with the reason: a message larger than "    \
      "the 64 MiB page pool of a flow (addresses themselves are free: 4 KiB "  \
      "pages of any R_Key and VA, 1 GiB over all flows, a flow's pages "       \
      "forgotten when it needs more than its share), more than 2048 flows, "   \
      "a request cut inside its headers, requests the capture lost older "     \
      "than the reference's request ring, a READ split before the PMTU was "  \
      "learnt that left the ring.",                                            \
      "reference engine limits", "what could not be modelled")                 \
    /* ---- connection management ---- */                                     \
    X(CM_UNMATCHED, "CM-UNMATCHED", WARNING, CM,                               \
      "vantage point",                                                         \
      "A CM reply (REP, RTU, DREP, MRA, REJ) refers to a message not seen "    \
      "(the capture started mid-exchange).",                                   \
      "IBA Vol.1 12.9 (vantage point)", "communication IDs")                   \
    X(CM_SEQ, "CM-SEQ", ERROR, CM,                                             \
      "12.6; 12.9",                                                            \
      "REQ -> REP -> RTU (or REJ, MRA) and DREQ -> DREP per communication "    \
      "ID, with the IDs of the messages answered.",                            \
      "IBA Vol.1 12.6, 12.9 (CM state machine)", "message and IDs vs state")   \
    X(CM_FIELD, "CM-FIELD", ERROR, CM,                                         \
      "12.6.5",                                                                \
      "CM fields hold defined values: REQ path MTU 1..5 and transport type, "  \
      "REJ reason, MRA/REJ message code.",                                     \
      "IBA Vol.1 12.6.5 table 106, 12.6.7 table 109", "field and value")       \
    X(CM_TIMEOUT, "CM-TIMEOUT", WARNING, CM,                                   \
      "12.6.5",                                                                \
      "The REP (or MRA) answers a REQ within the REQ's remote CM response "    \
      "timeout.",                                                              \
      "IBA Vol.1 12.6.5 (timeout 4.096 us * 2^t)", "time taken vs timeout")    \
    X(CM_QPN, "CM-QPN", ERROR, CM,                                             \
      "12.6.5; 12.6.8; 12.6.10",                                               \
      "Traffic after a connection uses the QPNs and starting PSNs negotiated " \
      "in REQ/REP; DREQ names the peer's QPN.",                                \
      "IBA Vol.1 12.6.5, 12.6.8, 12.6.10", "QPN/PSN seen vs negotiated")     \
    /* ---- the capture point (vantage notes, once per flow) ---- */           \
    X(CAP_SKEW, "CAP-SKEW", WARNING, FLOW,                                     \
      "vantage point",                                                         \
      "Responses recorded before the requests they answer (within the skew "   \
      "window, --skew, default 1 ms): one direction reached the capture "      \
      "late (host-side capture).  Each response is judged when its request "   \
      "arrives; said once per flow with the largest skew.",                    \
      "vantage point (host-side capture records TX and RX by different paths)", \
      "largest skew")                                                          \
    X(CAP_LOSS, "CAP-LOSS", WARNING, FLOW,                                     \
      "vantage point",                                                         \
      "Request PSNs missing from the capture that the responder acknowledged " \
      "with no NAK and no resend were lost by the capture point, not the "     \
      "network; said once per flow with the count and PSN ranges.",            \
      "vantage point (ibdump and host sniffers drop bursts)",                  \
      "count and PSN ranges")                                                  \
    X(CAP_CRC, "CAP-CRC", WARNING, PACKET,                                     \
      "vantage point",                                                         \
      "A capture in which no whole IBA frame carries a valid ICRC/VCRC (of at " \
      "least four IBA frames, none good) was taken where the wire CRCs are not " \
      "recorded (a NIC-side sniffer copies frames before the ICRC is "         \
      "inserted or after it is stripped): said once, and PKT-ICRC/PKT-VCRC "   \
      "are not judged.  One frame with a good CRC makes every bad one count.", \
      "vantage point", "count of frames")

enum chk_severity { CHK_ERROR = 0, CHK_WARNING = 1 };
enum chk_scope { CHK_SCOPE_PACKET = 0, CHK_SCOPE_FLOW = 1, CHK_SCOPE_CM = 2 };

#define CHK__RULE_ENUM(e, id, sev, scope, spec, stmt, src, ev) CHK_R_##e,
enum chk_rule { CHK_RULES(CHK__RULE_ENUM) CHK_RULE_COUNT };
#undef CHK__RULE_ENUM

struct chk_rule_info {
    const char *id;
    int severity;  /* enum chk_severity */
    int scope;     /* enum chk_scope */
    const char *spec; /* IBA statement IDs, "; "-separated */
    const char *statement;
    const char *source;
    const char *evidence;
};

/* The table entry of rule r (r < CHK_RULE_COUNT). */
const struct chk_rule_info *chk_rule(unsigned r);

/* Severity name: "error" or "warning". */
const char *chk_severity_name(int severity);

#endif
