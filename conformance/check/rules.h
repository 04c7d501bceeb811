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
      "length explains it, is malformed (reported at the end of the capture).  " \
      "The same of the outer headers a tunnel or mirror puts around a frame "  \
      "meant to carry RoCE (ERSPAN, GRE, VXLAN, Geneve, MPLS): a header cut "  \
      "short, a version, a VXLAN header without its I flag (UDP 4789 is "      \
      "VXLAN's: VXLAN in error), a length that does not fit.  Meant to carry " \
      "RoCE: where the header keeps its layout, the frame read past it is "    \
      "RoCE (else it is other traffic); where it does not (cut, unknown "      \
      "version or frame type), the number that announced it names a tunnel "  \
      "of frames (GRE protocol 0x88BE, 0x22EB, 0x6558, IP, MPLS; UDP port "    \
      "4789, 6081; EtherType 0x8847/0x8848).  A GRE header cut before its "    \
      "protocol, a Linux cooked header shorter than itself and an MPLS "       \
      "payload that is not IP name nothing: other traffic.", \
      "IBA Vol.1 7.7.8 (PktLen), 8.3 (PayLen); RoCEv2 A17.4.3; RFC 2784, "     \
      "RFC 7348 5, RFC 8926, draft-foschiano-erspan-03",                       \
      "header and field named by the parser or the decapsulation")            \
    X(PKT_ICRC, "PKT-ICRC", ERROR, PACKET,                                     \
      "7.8.1; CA17-22",                                                        \
      "The ICRC equals the CRC-32 of the packet's invariant fields.  A frame "  \
      "with a bad ICRC or VCRC is judged by that alone and kept out of its "   \
      "flow (its receiver drops it).  The message names the known wrong "      \
      "computations a RoCEv2 ICRC matches: the pad bytes left out, the ICRC "  \
      "over the pad or at the frame's end past the length fields (then "       \
      "PKT-NO-PAYLOAD too for an opcode without payload), a variant field "    \
      "not masked (UDP checksum, TTL, TOS, IPv4 checksum, BTH byte 4, all), "  \
      "the IPv4 header masked as a GRH, no LRH ones.",                         \
      "IBA Vol.1 7.8.1; RoCEv2 A17.4.4", "ICRC carried vs computed")           \
    X(PKT_VCRC, "PKT-VCRC", ERROR, PACKET,                                     \
      "7.8.2",                                                                 \
      "The VCRC equals the CRC-16 of the packet from LRH through ICRC.",       \
      "IBA Vol.1 7.8.2", "VCRC carried vs computed")                           \
    X(PKT_IP_CSUM, "PKT-IP-CSUM", ERROR, PACKET,                               \
      "CA17-2 (RFC 791)",                                                      \
      "The IPv4 header checksum of a RoCEv2 packet is correct (also of an "   \
      "IP fragment whose UDP header says 4791, left otherwise undecoded).  "  \
      "The receiver's IP layer drops a frame with a bad one: it joins no "    \
      "flow or CM exchange.",                                                  \
      "RFC 791; RoCEv2 A17.4.2", "checksum carried vs computed")               \
    X(PKT_UDP_CSUM, "PKT-UDP-CSUM", ERROR, PACKET,                             \
      "A17.3.2.4 (RFC 768)",                                                   \
      "A RoCEv2 UDP checksum is zero or correct.  The receiver's UDP layer "  \
      "drops a frame with a wrong one before the RoCE transport sees it "     \
      "(Linux verifies it before handing the frame to rxe's tunnel socket): " \
      "it joins no flow or CM exchange.",                                      \
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
      "none; ATOMIC WRITE carries exactly 8 bytes.  With a good CRC its "      \
      "headers are whole: the packet still joins its flow.",                  \
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
      "connected traffic targets a QP above 1.  Connected traffic to QP0/1 "   \
      "is still followed as a flow, so its other faults are found.",           \
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
    X(PKT_IP_HDR, "PKT-IP-HDR", ERROR, PACKET,                               \
      "CA17-3; CA17-7; CA17-8; CA17-10; CA17-16",                              \
      "The IP header of a RoCEv2 packet is the plain one annex A17 fixes: "   \
      "IPv4 with IHL 5 (no options), flags 010 (reserved bit clear, Don't "    \
      "Fragment set, More Fragments clear), fragment offset 0, protocol 17; "  \
      "IPv6 with next header 17 "                                              \
      "(no extension header).  A protocol or next header other than 17 is "    \
      "judged only where the bytes after the IP header still read as a UDP "   \
      "header to 4791 whose length fits the datagram exactly and a BTH (TVer " \
      "0, a defined opcode): else the frame is foreign traffic.  A receiver "  \
      "does not take such a packet "                                           \
      "(CA17-24): it joins no flow.",                                          \
      "RoCEv2 A17.3.1.1.1, A17.3.1.1.5, A17.3.1.1.6, A17.3.1.1.8, "            \
      "A17.3.1.2.4",                                                           \
      "field and value")                                                       \
    X(PKT_ETH_SRC, "PKT-ETH-SRC", ERROR, PACKET,                               \
      "CA17-2 (IEEE 802.3 3.2.3)",                                             \
      "The Ethernet source address of a RoCE frame is an individual address: " \
      "not all zeros, not a group (multicast, I/G bit set) and not the "       \
      "broadcast address; NICs and bridges drop a frame with such a source.  " \
      "Not judged on a capture whose source addresses are a capture "          \
      "point's timestamps (CAP-ETH-SRC).",                                     \
      "IEEE 802.3 3.2.3 (source address: individual); RoCEv2 A17.3.1 "        \
      "(Ethernet framing)",                                                    \
      "eth.src")                                                               \
    X(PKT_FECN_BECN, "PKT-FECN-BECN", ERROR, PACKET,                           \
      "CA17-29",                                                               \
      "BTH FECN and BECN are not set on RoCEv2 (RoCE v1 and native IB use "    \
      "them for IB congestion control, annex A10; RoCEv2 signals congestion "  \
      "with IP ECN and CNPs, so a sender sets them 0 and receivers ignore "    \
      "them).  CNPs aside: their format is PKT-CNP's (A17.9.2).",             \
      "RoCEv2 A17.4.8 (FECN/BECN not used)", "bth.fecn, bth.becn")            \
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
      "A retransmitted packet repeats the original at its PSN: the opcode, "   \
      "the payload length, the extension headers after the BTH (RETH, "        \
      "AtomicETH, ImmDt, IETH) and the payload bytes (a digest of each is "    \
      "kept per PSN; frames the capture cut are held to opcode and length "    \
      "only, frames with a bad CRC are never compared: their receiver "        \
      "dropped them).  An RDMA READ re-issued from inside the original's "     \
      "response PSNs asks for exactly the rest: the length left after the "    \
      "k PMTUs before its PSN, from the original VA + k * PMTU, with the "     \
      "original R_Key.  IBA 9.7.5.1: the requester retries the request it "    \
      "sent; rxe (rxe_req.c req_retry) re-issues a READ from the first "       \
      "response not received with VA and length advanced by what was; "       \
      "zoo rows 7, 15, 27.",                                                   \
      "IBA Vol.1 9.7.5.1 (requester retry); bug zoo rows 7, 15, 27",           \
      "opcode/length/header and payload digests now vs first sent")            \
    X(FLOW_GBN, "FLOW-GBN", ERROR, FLOW,                                       \
      "9.7.5.2",                                                               \
      "After a PSN sequence error NAK or an RNR NAK naming PSN E, the "        \
      "requester resends from E (Go-Back-N); never from a later PSN, which "   \
      "would skip PSNs the responder did not acknowledge.  A resend from an "  \
      "earlier PSN is no error: the NAK may have been lost after the capture " \
      "point, and a timeout resends from the oldest unacknowledged PSN.  "     \
      "Nor does a resend round (from a request PSN: a READ re-issued from "    \
      "inside its span alone is no round) go on with new PSNs before "         \
      "resending every PSN up to the last sent (zoo row 28): judged when the " \
      "responder NAKs the "                                                    \
      "first one skipped again (a response covering it shows the capture "     \
      "missed its resend; nothing by the end of the capture, nothing said).  " \
      "A PSN whose copy was recorded after the NAK is not skipped, whatever "  \
      "its place in the round: the network may deliver a round's resends "     \
      "before its first one (on a flow with CAP-SKEW, a copy more than the "   \
      "skew window after the NAK: one within it may have been sent before).  " \
      "Not judged on a flow whose capture has already shown it misses "        \
      "requests (a request PSN it never saw while later ones came: lost "      \
      "before or at the capture point, resent or not): a tap behind the loss " \
      "(tcpdump after a netem qdisc on the requester's egress) does not see "  \
      "a resend the network dropped, and the NAK again is what that loss "     \
      "looks like.",                                                           \
      "IBA Vol.1 9.7.4 (requester retry); HanGu RDMA engine design "           \
      "§3.4.5.1.3", "first resent PSN vs E")                                   \
    X(FLOW_ACK_READ, "FLOW-ACK-READ", ERROR, FLOW,                             \
      "9.7.5.1.2; C9-105; C9-148",                                              \
      "An ACK acknowledges every request up to its PSN, so one covering an "    \
      "RDMA READ (any PSN from the READ's own on) is sent only after the "      \
      "READ's responses.  Responses of that READ recorded after such an ACK "   \
      "prove it was sent before them when the capture cannot have swapped "     \
      "them: a response with a higher MSN (the MSN never goes back, C9-148); " \
      "the ACK's PSN inside the READ's span, before its last PSN (an ACK "     \
      "after the responses names the last or later); or, on a flow whose "     \
      "responses were not seen reordered, two responses or more of a READ "    \
      "none of whose responses came before the ACK.  A READ re-issued after "  \
      "the ACK is answered again: its responses then prove nothing.  Zoo "     \
      "row 6a (rxe, fixed by 4e4c53df5677).",                                  \
      "IBA Vol.1 9.7.5.1.2 (coalesced acknowledges), 9.7.6 (MSN); bug zoo "     \
      "row 6a", "ACK PSN and MSN vs the READ's responses after it")            \
    X(FLOW_RESEND_UNJUSTIFIED, "FLOW-RESEND-UNJUSTIFIED", ERROR, FLOW,         \
      "9.7.5.1; 9.7.5.2; 9.7.6.1.1",                                            \
      "An RC requester resends a PSN only for a reason: a PSN sequence error "  \
      "NAK, an RNR NAK (after its timer: FLOW-RNR-WAIT), a gap in an RDMA "     \
      "READ's responses, or its local ACK timer running out.  A resend round " \
      "with none of them before it is an error: no NAK or RNR NAK naming its " \
      "first PSN or one before it recorded before it or within the skew "      \
      "window after it (the responses' direction may be recorded late), not a " \
      "READ or atomic request, and sooner than the shortest local ACK timeout " \
      "the requester may use (the CM REQ's primary local ACK timeout when the " \
      "capture holds it, else 4.096 us x 2^1, IBA's shortest nonzero one) "    \
      "after the PSN's copy before or after the last response acknowledging "  \
      "new PSNs (the timer restarts there: Linux rxe, hfi1).  A copy right "   \
      "after the same PSN's is a duplicate the network may have made, and a "  \
      "flow whose capture has shown it misses requests may miss NAKs too: "     \
      "neither is judged.  During a recovery (from a NAK, an RNR NAK or a "     \
      "resend round until the responder has acknowledged every PSN sent by "   \
      "then) a round is not judged when it starts where the recovery resends " \
      "from (the latest NAK's PSN, or the oldest READ or atomic before it "    \
      "still unanswered, after an RNR NAK's timer; else the first round's "    \
      "PSN: a NAK the network duplicated after the capture point) or where "   \
      "a walk begun since the latest NAK stopped short (its Go-Back-N "        \
      "resumed); a round from anywhere else is judged as any other "           \
      "(check_resend.c).",                                                      \
      "IBA Vol.1 9.7.5.1 (requester retry on NAK), 9.7.5.2.8 (RNR), "           \
      "9.7.6.1.1 (local ACK timeout), 12.7.34 (CM REQ local ACK timeout)",      \
      "time since the PSN's copy before and since the last acknowledgement "   \
      "of new PSNs vs the shortest timeout")                                    \
    X(FLOW_GBN_QUIET, "FLOW-GBN-QUIET", ERROR, FLOW,                           \
      "9.7.5.2; 9.7.6.1.1",                                                     \
      "A Go-Back-N resend round resends every PSN from where it starts up to "  \
      "the last one sent.  A round that stops short, with PSNs after it sent "  \
      "and not acknowledged, after which the requester sends nothing while "    \
      "the capture goes on, is an error once the capture has run past the "     \
      "longest local ACK timeout the requester may use after its last request " \
      "(the CM REQ's when the capture holds it, else 4.096 us x 2^31; plus a "  \
      "pending RNR NAK's timer): its transport timer would have resent them "   \
      "(zoo row 28's kind).  Not judged on a flow closed through CM (an "       \
      "application may destroy a QP with work outstanding), one whose capture " \
      "missed requests, or with a READ whose span is not known.",               \
      "IBA Vol.1 9.7.5.2 (Go-Back-N), 9.7.6.1.1 (local ACK timeout); bug zoo "  \
      "row 28", "the round's end vs the last PSN sent, and the quiet time")    \
    X(FLOW_RNR_WAIT, "FLOW-RNR-WAIT", ERROR, FLOW,                             \
      "9.7.5.2.8",                                                             \
      "After an RNR NAK the requester waits the RNR timer before resending.",  \
      "IBA Vol.1 9.7.5 (RNR NAK), table 46; HanGu RDMA engine design "         \
      "§3.4.5.1.3.1.1",                                                        \
      "time waited vs timer")                                                  \
    X(FLOW_NAK_PSN, "FLOW-NAK-PSN", ERROR, FLOW,                               \
      "9.7.5.2; C9-148",                                                               \
      "A PSN sequence error NAK names the responder's expected PSN: one that " \
      "was sent and not yet acknowledged.  A NAK whose MSN is older than "     \
      "that of the response that acknowledged past its PSN was sent before "   \
      "that response (the responder's MSN never goes back, C9-148): the "      \
      "network swapped the two (RoCEv2 over IP; netem reorder before the "     \
      "capture point), and the requester drops it as stale: no finding.  "     \
      "With the same MSN (an ACK naming a packet inside a message) the two "   \
      "are ordered only on a path that keeps the responder's order: not "      \
      "judged once a response with a lower MSN came after a higher one.",      \
      "IBA Vol.1 9.7.5 (responder NAK); HanGu RDMA engine design "             \
      "§3.4.5.1.3.2",                                                          \
      "NAK PSN vs last ACKed PSN")                                             \
    X(FLOW_ACK_UNSENT, "FLOW-ACK-UNSENT", WARNING, FLOW,                       \
      "vantage point",                                                         \
      "A response names a PSN the capture saw its flow's requester send.  "   \
      "A response recorded before its request (within the skew window) "      \
      "waits for it; the rest are said once per flow with their count, also " \
      "for responses no request flow could be paired with (no CM in the "      \
      "capture, or several flows between the endpoints fit: left unpaired).  " \
      "Not said beside CAP-LOSS (a flow whose capture point is shown to "      \
      "lose requests: counted there), nor for responses recorded within the "  \
      "skew window before the capture ended on a flow with CAP-SKEW (their "   \
      "requests may come after the last frame: counted there).",              \
      "IBA Vol.1 9.7.5 (vantage: requests may be missing)",                  \
      "count of responses")                                                    \
    X(FLOW_MSN, "FLOW-MSN", ERROR, FLOW,                                       \
      "9.7.6; C9-148",                                                         \
      "The AETH MSN counts the messages the responder completed: a SEND or "   \
      "RDMA WRITE at its last packet, an RDMA READ or atomic when executed, "  \
      "so every response of a READ carries the MSN that counts it (C9-148).  " \
      "With O the responder's MSN before the first request seen and msgs(r) " \
      "the messages the requests seen complete through PSN r, a response at "  \
      "r carries O + msgs(r) up to O + the messages sent by then (a NAK or "   \
      "RNR NAK: through r - 1), \"by then\" being the requests recorded up to " \
      "the skew window after the response (--skew: either direction may "     \
      "reach the capture that late).  The upper end is for responses replayed " \
      "for "                                                                   \
      "duplicates: Linux rxe sends them, READ responses replayed from its "    \
      "responder resources and the ACK of a duplicate SEND/WRITE alike, with " \
      "its current MSN (rxe_resp.c prepare_ack_packet), and a duplicate READ " \
      "is not counted again; responses may also be reordered or duplicated "  \
      "on their way, so MSNs recorded out of order are no error.  O is not "   \
      "known, so the error is responses that no single O explains.  Judged "   \
      "only while the capture saw every request PSN and knew each READ's "     \
      "span when the next READ came (else a re-issue may have been counted); " \
      "zoo rows 4, 5, 31b.  Responses wait out the skew window a few at a "  \
      "time; when more wait, a new one takes the newest one's place, so the " \
      "latest MSN is always judged (a responder counting packets, zoo 4, "    \
      "drifts above every O the first responses allow).  And the READ "      \
      "RESPONSE FIRST and LAST of one READ carry one MSN (C9-148): judged on " \
      "a FIRST, MIDDLEs and a LAST at consecutive PSNs with no other "         \
      "response of the flow between, when no request was resent from the "    \
      "skew window before the FIRST to the skew window after the LAST (only " \
      "a resent READ is replayed, with the current MSN); the READ request "   \
      "itself need not be in the capture (one dropped for a bad ICRC was "    \
      "executed all the same, zoo 31b's FPGA stack).  An MSN too low for "    \
      "its PSN late (zoo 5: WRITEs not counted) still fits an O when the "    \
      "requester had sent that many more messages by then (the upper end, "  \
      "which replayed responses need): on pipelined traffic --replay "        \
      "decides it (REPLAY-DIFF), its reference knowing the MSN at each PSN.", \
      "IBA Vol.1 9.7.6 (MSN), C9-148; Linux rxe_resp.c; bug zoo rows 4, 5, "   \
      "31b", "MSN vs the messages completed at its PSN")                       \
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
      "re-issued from inside the span is answered from its own PSN, FIRST "    \
      "... LAST from it or the original span's MIDDLE ... LAST (both allowed: " \
      "statement READ-DUP-OPCODE, docs/iba-statements.md).  Judged "          \
      "packet by packet, so responses lost, duplicated or reordered on the "   \
      "way do not matter.  (A READ of DMA Length 0: FLOW-ZERO-LEN.)",          \
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
    X(FLOW_DUP_ATOMIC, "FLOW-DUP-ATOMIC", ERROR, FLOW,                       \
      "9.4.5; 9.7.5.1",                                                        \
      "Every ATOMIC ACKNOWLEDGE at one atomic request's PSN returns the same " \
      "original remote data: a duplicate atomic (its ACK lost) is answered "   \
      "from the saved result, never executed again.  Two values at one PSN "   \
      "cannot come from a capture point (a damaged copy fails its ICRC).  "    \
      "Zoo row 9.",                                                            \
      "IBA Vol.1 9.4.5, 9.7.5.1 (duplicate atomics); bug zoo row 9",           \
      "AtomicAckETH original data vs the first answer")                        \
    X(FLOW_ZERO_LEN, "FLOW-ZERO-LEN", ERROR, FLOW,                           \
      "C9-88",                                                                 \
      "A zero-length RDMA READ or WRITE needs no valid VA or R_Key (C9-88): "  \
      "a READ of DMA Length 0 is answered by one READ RESPONSE ONLY of 0 "     \
      "bytes, and neither is NAKed Remote Access Error on a QP that already "  \
      "served the same kind of operation (a QP without remote read/write "     \
      "access may NAK it; the capture shows the access only by a success).  " \
      "A zero-length READ never answered is not judged: capture loss of its " \
      "response would explain it.  Zoo rows 13, 14.",                          \
      "IBA Vol.1 C9-88; bug zoo rows 13, 14",                                  \
      "response to a DMA Length 0 request")                                    \
    X(FLOW_NAK_INVALID, "FLOW-NAK-INVALID", ERROR, FLOW,                     \
      "9.7.4; 9.7.5.2",                                                        \
      "A NAK Invalid Request names a request the capture cannot show valid.  " \
      "Judged where the capture shows everything the responder checks: an "    \
      "RDMA WRITE MIDDLE or LAST that continues the WRITE whose FIRST the "    \
      "capture saw (its R_Key/VA range was checked at the FIRST, 9.7.5.1), "   \
      "in the open sequence, of the PMTU's length (LAST: up to it) and "       \
      "within the DMA Length.  SEND packets are not judged (a receive WQE "    \
      "too short is invalid too and not on the wire), nor FIRST/ONLY "         \
      "packets (QP access rights, R_Keys).  Zoo row 6b.  A NAK after a "     \
      "duplicate READ on a Send/Write packet, and a NAK of a SEND ONLY WITH " \
      "INVALIDATE after a completed message (zoo 20), are Send/ONLY packets " \
      "this rule leaves unjudged (a receive WQE too short is not on the "      \
      "wire): --replay decides them (REPLAY-DIFF: the reference, whose "      \
      "receive WQEs fit, ACKs).  A PSN resent as another opcode or length "   \
      "(FLOW-RETRANS-DIFF) is not judged: the NAK may answer that copy.",     \
      "IBA Vol.1 9.7.4 (opcode sequence), 9.7.5.2 (NAK codes); bug zoo "       \
      "row 6b", "NAK code vs the request at its PSN")                         \
    X(FLOW_INVALID_ACCEPTED, "FLOW-INVALID-ACCEPTED", ERROR, FLOW,           \
      "C9-92; C9-94; 9.4",                                                     \
      "A request the responder must reject is not accepted: no ACK, READ "     \
      "response or atomic ACK at or past its PSN (responses go in PSN "        \
      "order, so one past it shows it executed) unless a NAK at its PSN "      \
      "came first, or a copy of that PSN valid in itself was recorded "      \
      "again (the answer may be that copy's).  Such requests: a FIRST/MIDDLE " \
      "payload other than the PMTU or a LAST/ONLY above it (C9-92; only "      \
      "with the PMTU from CM or --pmtu, never one learnt from the payloads, " \
      "except a FIRST/MIDDLE payload that is no PMTU at all: not 256, 512, "   \
      "1024, 2048 or 4096 bytes), RDMA WRITE bytes other "                     \
      "than the RETH DMA Length (C9-92), a DMA Length above 2^31 (C9-94), a " \
      "VA + DMA Length past 2^64 (9.4), an atomic VA not 8-byte aligned "      \
      "(9.4.5).  The requester's side of these is PKT-LEN-FULL, "              \
      "PKT-LEN-LAST, FLOW-WRITE-LEN, PKT-ATOMIC-ALIGN.  Zoo rows 10, 19.",     \
      "IBA Vol.1 C9-92, C9-94, 9.4, 9.7.5.2; bug zoo rows 10, 19",             \
      "response PSN vs the invalid request's")                                 \
    X(FLOW_MIGREQ, "FLOW-MIGREQ", WARNING, FLOW,                             \
      "9.2 (MigReq)",                                                          \
      "BTH MigReq carries the sender's path migration state (1 Migrated, 0 "   \
      "Armed/Rearm).  Both QPs of one connection are armed and migrate "       \
      "together (a migration seen by the responder moves it too), so their "   \
      "values may differ only while a change is under way.  Judged at the "    \
      "flow's end: every request of the flow carried one value and every "     \
      "response the other, no change in either direction from first to "       \
      "last packet -- the two sides never agreed.  A warning: a capture "      \
      "cannot show the QP state itself.  Zoo row 29.",                         \
      "IBA Vol.1 9.2 (BTH MigReq), 17.2.8 (path migration); bug zoo row 29",   \
      "BTH MigReq of the flow's requests vs its responses")                    \
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
      "response missing from it proves nothing of the responder), nor on "     \
      "the copies of a request the requester sent more than once when the "    \
      "capture has the answer to one copy (it sends again only when no "       \
      "answer reached it: a copy or an answer was lost in the network, where " \
      "a capture point on either side may not see it).",                      \
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
      "the reference knows the word; where a statement leaves the answer "    \
      "open (conformance/check/statements.h: the opcodes of a READ re-issued " \
      "from inside its span) every allowed one is accepted.  Not compared: "   \
      "read payload bytes "                                                    \
      "(memory contents), ACK credits, RNR timer values.  After requests "     \
      "the capture lost, the reference takes the MSN of the ACK or atomic "    \
      "ACK that shows the hole (else the next difference up to the number "   \
      "of PSNs lost moves the origin), and forgets every word it knew (the "  \
      "lost requests may have written it): differences after the hole are "    \
      "judged as before it.  Decides zoo rows 5 (MSN), 6b and 20 "           \
      "(NAK Invalid Request where the reference ACKs) and 6a (an ACK sent "   \
      "at a multi-packet READ's last PSN before its responses: the "          \
      "requester takes the READ as done early and the later responses "       \
      "differ from the reference's).",                                        \
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
      "learnt that left the ring, a PSN sequence NAK naming a request the "    \
      "capture recorded (lost after the capture point) sent more requests "    \
      "before it than the ring holds.",                                        \
      "reference engine limits", "what could not be modelled")                 \
    X(FLOW_UDP_SPORT, "FLOW-UDP-SPORT", WARNING, FLOW,                       \
      "A17.3.2.1 (should)",                                                    \
      "The UDP source port of a RoCEv2 connection's packets stays fixed per "  \
      "direction (requests, responses): A17 says it should, as the packets' " \
      "order matters and switches spread flows over paths by it.  A "          \
      "\"should\": a warning, said once per flow and direction.",             \
      "RoCEv2 A17.3.2.1 (UDP source port)", "port now vs the direction's")    \
    X(FLOW_DSCP, "FLOW-DSCP", ERROR, FLOW,                                     \
      "CA17-4; CA17-13",                                                       \
      "The IP DSCP of a RoCEv2 connection's packets is the traffic class of "  \
      "the sender's address vector, a QP attribute: constant per direction "   \
      "(requests, responses; each side has its own).  The value itself is "    \
      "not judged (the path record is not on the wire).  CNPs are not part "   \
      "of a flow.  Said once per flow and direction.",                         \
      "RoCEv2 A17.3.1.1.2, A17.3.1.2.1 (DSCP = the AV's traffic class)",       \
      "DSCP now vs the direction's")                                           \
    X(FLOW_TTL, "FLOW-TTL", WARNING, FLOW,                                     \
      "CA17-9; CA17-17",                                                       \
      "The IPv4 TTL / IPv6 hop limit of a RoCEv2 connection's packets is the " \
      "address vector's hop limit: constant per direction.  A capture after "  \
      "routers sees it decremented, still by the same count while the path "   \
      "stays; a route change between sender and capture point also changes "  \
      "it, so a warning, said once per flow and direction.",                   \
      "RoCEv2 A17.3.1.1.7, A17.3.1.2.5 (TTL/hop limit = the AV's)",            \
      "TTL now vs the direction's")                                            \
    X(FLOW_ECN, "FLOW-ECN", ERROR, FLOW,                                       \
      "CA17-5; CA17-14",                                                       \
      "ECN use is consistent per direction of a RoCEv2 connection: a sender "  \
      "without RoCEv2 congestion management sends ECN 00, one with it 01 or "  \
      "10 (the network may mark those 11, CE); so Not-ECT (00) and ECN-"      \
      "capable (01, 10, 11) packets are not mixed in one direction, since "    \
      "a switch never turns 00 into 11.  Acknowledgements (ACKNOWLEDGE, "      \
      "ATOMIC ACKNOWLEDGE) are judged apart from the packets carrying data: "  \
      "a sender may send them Not-ECT, as TCP sends its pure ACKs (RFC 3168 "  \
      "6.1.4).  Which applies, and whether a 11 was set by the network or "    \
      "the sender, a capture cannot tell.  Said once per flow and direction.", \
      "RoCEv2 A17.3.1.1.3, A17.3.1.2.2 (ECN); RFC 3168 5 (CE only on ECT)",    \
      "ECN now vs the direction's")                                            \
    /* ---- connection management ---- */                                     \
    X(CM_UNMATCHED, "CM-UNMATCHED", WARNING, CM,                               \
      "vantage point",                                                         \
      "A CM reply (REP, RTU, DREP, MRA, REJ) refers to a message not seen "    \
      "(the capture started mid-exchange).",                                   \
      "IBA Vol.1 12.9 (vantage point)", "communication IDs")                   \
    X(CM_SEQ, "CM-SEQ", ERROR, CM,                                             \
      "12.6; 12.9",                                                            \
      "REQ -> REP -> RTU (or REJ, MRA) and DREQ -> DREP per communication "    \
      "ID, with the IDs of the messages answered.  The same REP again, also "  \
      "after an RTU, is the passive side resending it: the RTU may be lost "   \
      "beyond the capture point or dropped for a bad checksum.",              \
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
      "in REQ/REP; DREQ names the peer's QPN.  A flow whose first recorded "   \
      "request is up to 4096 PSNs past its starting PSN is tracked from the "  \
      "starting PSN and judged at its end: the network (RoCEv2 runs over IP) " \
      "may deliver the first requests after later ones, so only a flow with " \
      "no request at the starting PSN at all breaks the rule.",               \
      "IBA Vol.1 12.6.5, 12.6.8, 12.6.10", "QPN/PSN seen vs negotiated")     \
    /* ---- the capture point (vantage notes, once per flow) ---- */           \
    X(CAP_SKEW, "CAP-SKEW", WARNING, FLOW,                                     \
      "vantage point",                                                         \
      "Responses recorded before the requests they answer (within the skew "   \
      "window, --skew, default 1 ms): one direction reached the capture "      \
      "late (host-side capture).  Each response is judged when its request "   \
      "arrives; said once per flow with the largest skew, and the count of "   \
      "responses still waiting when the capture ended (their requests may "    \
      "have come after its last frame).",                                      \
      "vantage point (host-side capture records TX and RX by different paths)", \
      "largest skew")                                                          \
    X(CAP_LOSS, "CAP-LOSS", WARNING, FLOW,                                     \
      "vantage point",                                                         \
      "Request PSNs missing from the capture that the responder acknowledged " \
      "with no NAK and no resend were lost by the capture point, not the "     \
      "network; said once per flow with the count and PSN ranges, and the "    \
      "count of responses naming PSNs the capture never saw sent (the same "   \
      "loss: no FLOW-ACK-UNSENT beside it).",                                  \
      "vantage point (ibdump and host sniffers drop bursts)",                  \
      "count and PSN ranges")                                                  \
    X(CAP_CRC, "CAP-CRC", WARNING, PACKET,                                     \
      "vantage point",                                                         \
      "A capture in which no whole IBA frame carries a valid ICRC/VCRC (of at " \
      "least four IBA frames, none good) was taken where the wire CRCs are not " \
      "recorded (a NIC-side sniffer copies frames before the ICRC is "         \
      "inserted or after it is stripped): said once, and PKT-ICRC/PKT-VCRC "   \
      "are not judged.  One frame with a good CRC makes every bad one count.", \
      "vantage point", "count of frames")                                     \
    X(CAP_MIRROR_DUP, "CAP-MIRROR-DUP", WARNING, PACKET,                       \
      "vantage point",                                                         \
      "A frame carried by a mirror or tunnel (ERSPAN, GRE, VXLAN, Geneve, "    \
      "MPLS) whose bytes from its IP header (or GRH) on, hop count and IPv4 "  \
      "checksum aside, equal those of one of the 16 carried frames before "    \
      "it, within 50 us, is a second copy: a switch mirroring two ports "      \
      "copies a frame on each port it crosses.  The copy is counted, not "     \
      "judged (it is no resend: a device's resend comes after a timeout or "   \
      "a NAK, not microseconds after the original with nothing between).  "    \
      "A Linux cooked v2 capture (tcpdump -i any) sees a frame once on each "  \
      "interface it crosses (a bridge and its port): there only two copies "   \
      "with different interface indexes are a pair (SLL v1 names no "          \
      "interface: none is).  "                                                 \
      "Said once per capture with the count, the first copy and the frames "   \
      "an ERSPAN mirror truncated (its T bit; those are judged as cut "        \
      "frames, CAP-TRUNCATED).",                                               \
      "vantage point (switch port mirror, ERSPAN)",                            \
      "copies, first copy, frames the mirror cut")                             \
    X(CAP_TS_ORDER, "CAP-TS-ORDER", WARNING, PACKET,                           \
      "vantage point",                                                         \
      "Frames recorded after a frame with a later timestamp: the capture "     \
      "point recorded them late (a veth stamps a frame when it is sent and "   \
      "may deliver it after frames sent later; a host-side capture; "          \
      "interfaces merged out of order), so the file order is not the order "   \
      "on the wire.  The rules judge frames in timestamp order: each frame "   \
      "is held until one the reorder window newer comes (--reorder, default "  \
      "250 ms; at most 65536 frames and 64 MiB held), and a frame later than " \
      "that is judged where it is.  Said once per capture with the count, "    \
      "the largest step back and the first such frame.  Reordering the "       \
      "network did before the capture point shows in no timestamp and is "     \
      "not this note.",                                                        \
      "vantage point (pcap timestamps)",                                       \
      "frames out of order, largest step back, first frame")                  \
    X(CAP_TS_CLOCKS, "CAP-TS-CLOCKS", WARNING, PACKET,                         \
      "vantage point",                                                         \
      "Frames stamped by different clocks in one capture: a frame more than " \
      "a day away from every clock seen so far (seen on Linux 7.2 with "       \
      "netem on a veth: one direction's frames stamped with the time since "   \
      "boot, the other's with the time of day).  Each later clock is moved "   \
      "onto the first by the step where it appeared, the file order is kept " \
      "between them (a frame's time never goes back), and the gaps of the "    \
      "first clock stay as recorded.  Said once per capture with the number "  \
      "of clocks, the step and the first frame of the second clock.",         \
      "vantage point (pcap timestamps)",                                       \
      "clocks, step, frames of the later clocks")                             \
    X(CAP_ETH_SRC, "CAP-ETH-SRC", WARNING, PACKET,                             \
      "vantage point",                                                         \
      "A capture point that writes a timestamp into the Ethernet source "      \
      "address of every frame it records (ConnectX sniffers): per source "     \
      "endpoint, consecutive frames never carry the same source address and "  \
      "it grows with time (9 in 10 of at least 8 such pairs, on both "         \
      "directions).  Said once per capture, and PKT-ETH-SRC is not judged: "   \
      "the devices' addresses are not in the file.  Two frames of one "        \
      "endpoint with the same source address show a capture that records "     \
      "them (every frame judged, a device's group or zero source an error); "  \
      "until one or the other shows (at most 64 frames, else the end of the " \
      "capture: judged as recorded), frames from the first with a source "     \
      "PKT-ETH-SRC refuses wait.",                                             \
      "vantage point (capture-points.md: sniffers rewrite the source MAC)",    \
      "pairs growing, endpoints, frames excused")

/*
 * RoCEv2 annex A17's statements and how a capture decides each: the
 * coverage table at the end of conformance/rules.md.
 * Y("id", "section", "rules", "how")
 *   id:    CA17-n, or "should" for the annex's two recommendations;
 *   rules: the rule IDs checking it, "; "-separated ("" for none); every
 *          rule listed names the id in its spec column and every rule whose
 *          spec names a CA17 id is listed on its row (test_a17_coverage);
 *   how:   what a capture decides, or why it cannot.
 */
#define CHK_A17_COVERAGE(Y)                                                    \
    Y("CA17-1", "A17.3.1.1", "",                                               \
      "not decidable: that a port supports both IPv4 and IPv6 is a property "  \
      "of the port, not of any packet")                                        \
    Y("CA17-2", "A17.3.1.1", "PKT-ETH-SRC; PKT-IP-CSUM",                       \
      "the format as a whole: each header's own rules (the rows below, "       \
      "PKT-VERSION, PKT-MALFORMED), a source MAC a receiver accepts, a "       \
      "correct IPv4 header checksum")                                          \
    Y("CA17-3", "A17.3.1.1.1", "PKT-IP-HDR", "IHL 5 on every packet")          \
    Y("CA17-4", "A17.3.1.1.2", "FLOW-DSCP",                                    \
      "constant per direction of a connection; the value itself needs the "   \
      "path record, which is not on the wire")                                 \
    Y("CA17-5", "A17.3.1.1.3", "FLOW-ECN",                                     \
      "Not-ECT and ECN-capable packets not mixed in one direction "            \
      "(acknowledgements judged apart); whether "                              \
      "congestion management is on, and who set a CE mark, is not on the "    \
      "wire")                                                                  \
    Y("CA17-6", "A17.3.1.1.4", "PKT-MALFORMED",                                \
      "Total Length against the frame")                                        \
    Y("CA17-7", "A17.3.1.1.5", "PKT-IP-HDR", "DF set, MF clear")               \
    Y("CA17-8", "A17.3.1.1.6", "PKT-IP-HDR", "fragment offset 0")              \
    Y("CA17-9", "A17.3.1.1.7", "FLOW-TTL",                                     \
      "constant per direction of a connection (a warning: routers before "     \
      "the capture point decrement it, a route change changes it)")            \
    Y("CA17-10", "A17.3.1.1.8", "PKT-IP-HDR",                                  \
      "protocol 17, judged where the bytes after the IP header still read "    \
      "as UDP to 4791")                                                        \
    Y("CA17-11", "A17.3.1.1.9", "",                                            \
      "not judged yet: decidable only with a CM REQ/REP in the capture, "      \
      "whose path GIDs must be the IPv4-mapped addresses of the flow")        \
    Y("CA17-12", "A17.3.1.1.9", "", "as CA17-11")                              \
    Y("CA17-13", "A17.3.1.2.1", "FLOW-DSCP", "as CA17-4")                      \
    Y("CA17-14", "A17.3.1.2.2", "FLOW-ECN", "as CA17-5")                       \
    Y("CA17-15", "A17.3.1.2.3", "PKT-MALFORMED",                               \
      "Payload Length against the frame")                                      \
    Y("CA17-16", "A17.3.1.2.4", "PKT-IP-HDR",                                  \
      "next header 17, judged as CA17-10")                                     \
    Y("CA17-17", "A17.3.1.2.5", "FLOW-TTL", "as CA17-9")                       \
    Y("CA17-18", "A17.3.1.2.6", "", "as CA17-11, with the IPv6 GIDs")          \
    Y("CA17-19", "A17.3.1.2.6", "", "as CA17-18")                              \
    Y("should", "A17.3.2.1", "FLOW-UDP-SPORT",                                 \
      "the UDP source port fixed per direction of a connection (a warning)")   \
    Y("CA17-20", "A17.3.2.2", "",                                              \
      "not decidable: port 4791 is what makes a UDP datagram RoCEv2 to a "     \
      "receiver and to the checker; one sent elsewhere is not recognised")     \
    Y("CA17-21", "A17.3.2.3", "PKT-MALFORMED", "UDP Length against the frame") \
    Y("should", "A17.3.2.4", "PKT-UDP-CSUM",                                   \
      "a checksum of 0 recommended; a correct non-zero one is allowed, a "     \
      "wrong one is an error")                                                 \
    Y("CA17-22", "A17.3.3", "PKT-ICRC",                                        \
      "the ICRC recomputed; the message names the known wrong computations "   \
      "(pad left out, ICRC at another offset, IB-style or missing masking)")   \
    Y("CA17-23", "A17.3.4", "",                                                \
      "through the responder's answers: the chapter 9 rules (FLOW-*, and "     \
      "REPLAY-* with --replay)")                                               \
    Y("CA17-24", "A17.3.4", "",                                                \
      "a response to a frame its receiver had to drop (bad ICRC, runt, bad "   \
      "length fields): the flow rule for dropped frames answered (issue 26)")  \
    Y("CA17-25", "A17.4.1.1", "",                                              \
      "chapter 9 as a whole: the PKT-* and FLOW-* rules citing its sections")  \
    Y("CA17-26", "A17.4.3", "",                                                \
      "not decidable: GID table entry types are local state")                  \
    Y("CA17-27", "A17.4.4.1", "PKT-VERSION",                                   \
      "an IP version other than the EtherType's; a response to such a "       \
      "packet as CA17-24")                                                     \
    Y("CA17-28", "A17.4.6", "PKT-OPCODE",                                      \
      "raw datagram opcodes are undefined on RoCEv2")                          \
    Y("CA17-29", "A17.4.8", "PKT-FECN-BECN", "a sender that sets them")        \
    Y("CA17-30", "A17.5", "", "not decidable: verbs (host interface)")         \
    Y("CA17-31", "A17.5.10", "",                                               \
      "not decidable: no client reregistration event is a host event")

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
