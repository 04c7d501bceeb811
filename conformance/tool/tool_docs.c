/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The prose of every ibwire man page and --help (struct tool_doc); the
 * options are in the tables beside each parser.  `ibwire man NAME` and
 * the build (conformance/tool/meson.build) turn them into ibwire-NAME(1).
 */
#include "tool_doc.h"

static const char *const tool_doc_ibwire_description[] = {
    "`ibwire` is the command of the ibwire project: a header-only C11 "
    "library for the InfiniBand and RoCE wire formats, a conformance "
    "checker, a reference RDMA engine, an active probe and fuzzers. One"
    " binary; each COMMAND has its own page:",
    "- `ibwire check` judges a capture (or live traffic) against the "
    "InfiniBand rules: ibwire-check(1).",
    "- `ibwire dump` decodes a capture field by field under Wireshark's"
    " field names, and verifies ICRC/VCRC: ibwire-dump(1).",
    "- `ibwire probe` drives a device with the active conformance "
    "suite: ibwire-probe(1).",
    "- `ibwire sim` runs two reference engines over a lossy link in "
    "virtual time: ibwire-sim(1).",
    "- `ibwire gen` writes the scenario captures the suite and pcaps/ "
    "are made of: ibwire-gen(1).",
    "- `ibwire record` packs and unpacks the engine's internal records:"
    " ibwire-record(1).",
    "- `ibwire peer` runs the reference engine on an interface against "
    "Linux's RDMA CM: ibwire-peer(1).",
    "`ibwire COMMAND --help` prints a command's options; they are the "
    "ones its page lists, from the same table.",
    "Environment: `IBWIRE_ENGINE_LATENCY` gives every reference engine "
    "a command creates these module latencies, as `ibwire sim "
    "--latency` takes them: \"documents\", \"none\" or Module=ns,... A "
    "value it cannot read is exit 2.",
    NULL};

const struct tool_doc tool_doc_ibwire = {
    "",
    "InfiniBand and RoCE captures judged, decoded, simulated and probed",
    "COMMAND [ARGS...]\n"
    "--help | --version",
    NULL,
    {{NULL, ibwire_opts}, {NULL, NULL}, {NULL, NULL}},
    tool_doc_ibwire_description,
    "0: done, nothing wrong found. 1: findings (errors, failed "
    "invariants, failed tests). 2: bad arguments or unreadable input. "
    "Each page says what its command means by them.",
    "    ibwire check pcaps/rocev2-rc-mixed.pcap\n"
    "    ibwire dump -T fields -e infiniband.bth.psn capture.pcapng\n"
    "    ibwire sim --seed 7 --drop 0.01 -w lossy.pcap",
    "ibwire-check(1), ibwire-dump(1), ibwire-probe(1), ibwire-sim(1), "
    "ibwire-gen(1), ibwire-record(1), ibwire-peer(1); in the source "
    "tree: README.md, docs/, conformance/rules.md"
};

static const char *const doc_check_description[] = {
    "`ibwire check` reads pcap and pcapng files (Ethernet, ERF, link "
    "type 247 InfiniBand, exported PDU) and reports `frame N: RULE-ID: "
    "message` per finding, then a summary per flow. The rules are "
    "listed in conformance/rules.md. Options may stand before or after "
    "the files; after `--` every argument is a file. With no FILE it "
    "checks every bundled capture in pcaps/ against its .expect "
    "verdict.",
    "A frame with a per-packet fault still joins its flow (connected "
    "traffic to QP 0/1 included) unless its receiver drops it: bad "
    "ICRC/VCRC, malformed, or an IP header or Ethernet source that "
    "annex A17 forbids.",
    "It judges the devices, not the capture point. Frames cut by a snap"
    " length (recorded, or written with the cut length as the original "
    "length) keep their flows and are reported once (CAP-TRUNCATED). A "
    "CM message cut short is judged on the fields it kept and gives its"
    " flows the QPNs, PSNs, PMTU and transport among them (a REQ cut "
    "before its service type: the first response tells, as only "
    "RC/RD/XRC answer). Responses recorded before their requests by a "
    "host-side capture are judged when the request arrives (CAP-SKEW, "
    "window `--skew`). Requests the capture dropped but the responder "
    "acknowledged are capture loss (CAP-LOSS), not errors, and a PSN "
    "the capture saw in any copy (the original, a resend, a frame with "
    "a bad CRC) is none. A capture with no valid ICRC anywhere was "
    "taken where the wire CRCs are not recorded (CAP-CRC). A capture "
    "point that writes a timestamp into every frame's Ethernet source "
    "address (a source that differs on every frame of an endpoint and "
    "grows with time, in both directions) is said once (CAP-ETH-SRC) "
    "instead of a PKT-ETH-SRC per frame; a device's own bad source among "
    "sane frames stays an error. Responses "
    "are paired with their requests by PSN when no CM exchange is in "
    "the capture. The PMTU comes from the CM REQ, full packets or "
    "`--pmtu` (the flow summary says which). An IPv4-mapped GID and the"
    " IPv4 address are one endpoint (RoCEv1 one way, RoCEv2 the other)."
    " Such notes come once per flow or capture, at the end.",
    "Many connections and long captures: the per-frame cost does not "
    "grow with the number of flows (a response finds its flow, paired "
    "by PSN or not, in constant time on average), and memory follows "
    "the flows live at once, not the capture: a flow idle for "
    "`--flow-idle` seconds of capture time, or a skew window after its "
    "connection's DREP, is settled, summarized and freed, and so is an "
    "idle CM exchange whose flows ended. A REP on QP numbers an earlier"
    " connection used starts a new flow. bench/check/bench_flows times "
    "1,000,000 short connections against one flow of as many frames, "
    "and their peak RSS.",
    "Frames are judged in the order of their timestamps, not of the "
    "file: each frame waits up to `--reorder` ms of capture time for an"
    " older one; a capture whose timestamps go back gets one "
    "CAP-TS-ORDER warning. With `-i` the same hold delays each finding "
    "by up to that much (held frames are judged on every poll once the "
    "window has passed).",
    "`-i IFACE` checks live traffic (libpcap; root or CAP_NET_RAW): by "
    "default only RoCEv2 and RoCEv1 on Ethernet, everything on the "
    "InfiniBand link types; `-f` sets another BPF filter. Findings "
    "print as they happen (a flow finding may wait for the flow's next "
    "frame), the per-flow summary every `--interval` seconds, the full "
    "summary and the usual exit status at `--duration`, SIGINT or "
    "SIGTERM. An interface that cannot be opened, or capture not "
    "permitted, is exit 2 with libpcap's reason.",
    "A pcapng with several interfaces (say an Ethernet and an "
    "InfiniBand port) is read as one timeline in file order; its "
    "findings then name the interface (`frame N [IF]:`, JSON "
    "`\"interface\"`). So do several vantage points inside one "
    "interface: the ERSPAN sessions or VXLAN/Geneve VNIs a collector "
    "receives, the interface indexes of a `tcpdump -i any` (SLL2) "
    "capture (`frame N [erspan session 7]:`; the summary lists them, "
    "JSON `\"vantage_points\"`). Files over 4 GiB and counts past 2^32 "
    "frames are read (64-bit throughout).",
    "`--report OUT.html` writes one self-contained page (inline SVG and"
    " CSS, no script, nothing fetched): per file the verdict and "
    "findings by rule (their statements copied from "
    "conformance/rules.md), a table of flows (endpoints, QPNs, PMTU and"
    " its source, bytes, goodput, retransmissions, NAKs by code, RNR "
    "NAKs, CNPs, ECN marks, capture-point notes, findings), and per "
    "flow a time-sequence chart in the manner of tcptrace's for TCP: "
    "request PSNs against capture time, the acknowledged PSN, READ "
    "spans, and a marker for every retransmission, NAK, RNR NAK, CNP, "
    "ECN mark and finding (hover: frame and message; "
    "`data-kind`/`data-frame` attributes for scripts), a throughput "
    "strip below; CM exchanges as ladders. Plain packets are thinned to"
    " a few thousand per chart, markers never; at most 1000 flows per "
    "file are drawn. On the 1,000,000-frame capture of bench/report (64"
    " lossy connections) the page is 3.7 MB and `check --report` took "
    "1.28 times as long as `check`. docs/report-lossy.png shows the "
    "page of pcaps/crafted-loss-clean.pcap.",
    NULL};

const struct tool_doc doc_check = {
    "check",
    "judge a capture against the InfiniBand rules",
    "[OPTIONS] [FILE...]\n"
    "-i IFACE [-f BPF] [--duration S] [--interval S] [-w OUT.pcapng]\n"
    " [OPTIONS]",
    "Check pcap/pcapng captures against the InfiniBand/RoCE rules "
    "(conformance/rules.md).\n"
    "Without FILE, check the bundled captures of pcaps/ against their "
    "expected verdicts.",
    {{NULL, check_opts}, {"Live capture", check_live_opts}, {NULL, NULL}},
    doc_check_description,
    "0: no errors (vantage-point warnings only). 1: errors found. 2: "
    "unreadable input, an interface that cannot be opened, or bad "
    "arguments.",
    "    ibwire check pcaps/rocev2-rc-mixed.pcap\n"
    "    ibwire check --format json --report out.html capture.pcapng\n"
    "    ibwire check -i eth0 --duration 60 -w seen.pcapng",
    "ibwire(1), ibwire-dump(1), ibwire-probe(1), tshark(1); "
    "conformance/rules.md"
};

static const char *const doc_dump_description[] = {
    "`ibwire dump` decodes every frame of a capture: the Ethernet, "
    "VLAN, IP and UDP carriage, LRH, GRH, BTH and every extended "
    "transport header, the MADs and CM messages, and verifies ICRC and "
    "VCRC, which tshark never does. It knows CNP, XRC, RD, FLUSH and "
    "link type 247.",
    "`-T fields -e NAME` takes Wireshark's field names and prints them "
    "exactly as tshark 4.0 does (`--list-fields` lists them), plus "
    "`ibwire.icrc.status`, `ibwire.vcrc.status`, `ibwire.error` and "
    "`ibwire.cm.*` for the CM messages tshark does not decode. The "
    "suite compares this output with tshark's on every bundled and real"
    " capture.",
    NULL};

const struct tool_doc doc_dump = {
    "dump",
    "decode a capture field by field (tshark-compatible names)",
    "[-T text|fields|json] [-e FIELD]... [-E header=y|n]\n"
    " [-E separator=C] [-E aggregator=C] [-c COUNT] FILE\n"
    "--list-fields",
    "Decode a pcap/pcapng capture (link types 1 Ethernet, 197 ERF, 247 "
    "InfiniBand,\n"
    "252 exported PDU).",
    {{NULL, dump_opts}, {NULL, NULL}, {NULL, NULL}},
    doc_dump_description,
    "0: decoded. 2: bad arguments or an unreadable capture.",
    "    ibwire dump capture.pcap\n"
    "    ibwire dump -T fields -E header=y -e frame.number -e "
    "infiniband.bth.opcode -e infiniband.bth.psn capture.pcap\n"
    "    ibwire dump -T json -c 10 capture.pcapng",
    "ibwire(1), ibwire-check(1), tshark(1)"
};

static const char *const doc_probe_description[] = {
    "`ibwire probe` drives a device with an active conformance suite "
    "(conformance/probe/README.md): scripted tests (`--list` prints "
    "them), each keyed to the IBA statement it checks (CA17-n, C9-n, "
    "else the section) and the `check` rule the same misbehaviour "
    "breaks. The device is tested as responder to crafted requests "
    "(every opcode, duplicates, PSN ahead, opcode sequence and length "
    "violations, bad keys and bounds, zero-length operations, RNR, "
    "atomics, Send with Invalidate, PSN wrap, MSN after READs, packets "
    "that must be dropped silently) and as requester toward a "
    "misbehaving responder (lost ACK, Go-Back-N, RNR wait, lost READ "
    "response, coalesced, duplicate, stale and impossible responses).",
    "Each test passes (PASS), fails (FAIL: a \"shall\" of its statements "
    "broken; the script line, what came instead, and with `--pcap-dir` the "
    "frames in DIR/ID.pcapng), keeps every \"shall\" but misses a bound "
    "the IBA does not set (QUALITY, with the figure measured), or is not "
    "applicable (N/A). `--self` runs the suite against the reference engine "
    "in one process, in virtual time (under a second); `-i IFACE "
    "--engine-on IFACE2` over a wire in real time (a raw socket each "
    "end, such as a veth pair; root or CAP_NET_RAW), the engine "
    "standing in for a device and its agent; `-i IFACE --agent "
    "HOST:PORT` against a real device driven by `ibwire-agent` (a fresh"
    " QP per test, made with libibverbs). `scripts/rxe-vm.sh --probe` "
    "runs that against Linux rxe; docs/probe.md has the table and every"
    " failure explained.",
    "`ibwire-agent` (conformance/probe/agent.c, built where "
    "libibverbs-dev and librdmacm-dev are found) is the device agent: "
    "it accepts an RDMA CM connection, exposes the probe's regions with"
    " known contents (their VA, R_Key and rights in the REP's private "
    "data) and takes commands (post receives and requests, poll "
    "completions, read memory) on a TCP side channel.",
    NULL};

const struct tool_doc doc_probe = {
    "probe",
    "drive a device with the active conformance suite",
    "--list [--markdown]\n"
    "--self [--only IDS] [--pcap-dir DIR [--pcap-all]] [-v]\n"
    " [--self-break NAME] [--fault NAMES] [--choice NAMES]\n"
    "-i IFACE --engine-on IFACE2 [--only IDS] [--pcap-dir DIR] [-v]\n"
    "-i IFACE --agent HOST:PORT --probe-ip ADDR [--within-scale N]\n"
    " [--only IDS] [--pcap-dir DIR] [-v]\n"
    "TARGET --script FILE\n"
    "TARGET --fuzz N [--seed S] [--out DIR] [--time-limit SECS] [--first I]\n"
    " [--log-episodes FILE]",
    NULL,
    {{NULL, probe_opts}, {"The device on a wire", probe_target_opts}, {NULL, NULL}},
    doc_probe_description,
    "0: nothing failed (or not applicable). 1: a test failed. 2: bad "
    "arguments or a script error.",
    "    ibwire probe --self\n"
    "    ibwire probe --self --fault msn-per-packet --only 'resp-*'\n"
    "    ibwire probe -i veth0 --engine-on veth1 --pcap-dir out",
    "ibwire(1), ibwire-check(1), ibwire-sim(1); "
    "conformance/probe/README.md, docs/probe.md"
};

static const char *const doc_sim_description[] = {
    "`ibwire sim` runs two reference engines (requester, responder, "
    "timers, MultiQueue, DMA; conformance/engine) over a simulated "
    "lossy link in virtual time, with a random mix of operations, and "
    "prints one JSON object of counters on stdout. Every invariant is "
    "checked: exactly-once, in-order, every byte verified.",
    "`--latency documents` gives the engine's modules the latencies of "
    "the HanGu documents (500 MHz cycles), `--latency "
    "ReqPktGen=40,DMAEngine=300,...` any per-module latency in ns (the "
    "modules step on their input FIFOs in virtual time; "
    "conformance/engine/README.md); the default is the untimed model. "
    "The environment variable `IBWIRE_ENGINE_LATENCY` does the same for"
    " every engine of a program.",
    "`--fault NAME` makes one side of the simulated connection behave "
    "as a real implementation's shipped bug did (the bug zoo: "
    "`--list-faults` gives each fault's row, side and the rule that "
    "catches it; conformance/rules.md has the table), in otherwise "
    "normal traffic; `--traffic-of NAME` is the same traffic without "
    "the fault, and `ibwire gen bug-NAME` writes the fault's capture.",
    "`--choice NAME` makes the engines take one of the behaviours the IBA "
    "leaves open (a READ re-issued inside its original answered from "
    "MIDDLE, the MSN on replayed responses; `--list-choices`, "
    "docs/iba-statements.md): traffic with any choice is clean to `ibwire "
    "check` and to `check --replay`.",
    "`--cm` connects QP pairs of the two engines through CM MADs over "
    "QP1, carries verified traffic over them and disconnects.",
    NULL};

const struct tool_doc doc_sim = {
    "sim",
    "run two reference engines over a lossy link",
    "[--seed N] [--messages N] [--max-size B] [--transport rc|uc|ud]\n"
    " [--ops LIST] [--drop P] [--dup P] [--reorder P] [--corrupt P]\n"
    " [--ecn P] [--pmtu 256..4096] [--ib] [--latency LAT] [-w OUT.pcap]\n"
    " [--trace OUT] [--fault NAME[,NAME...]] [--traffic-of "
    "NAME[,NAME...]]\n"
    " [--choice NAME[,NAME...]] [--fault-at I] [--loss-nth K]\n"
    "--fault NAME --variants N [--seed S]\n"
    "--cm [--conns N] [--size B] [--cm-retries 0..15] [--cm-timeout "
    "0..31]\n"
    " [...]\n"
    "--list-faults [--markdown]\n"
    "--list-choices",
    "P: a probability 0..1.",
    {{NULL, sim_opts}, {"Connections through the CM", sim_cm_opts}, {"The fault modes", sim_list_opts}},
    doc_sim_description,
    "0: every invariant held (or a `--fault` run broke the ones it "
    "should). 1: an invariant failed. 2: bad arguments.",
    "    ibwire sim --seed 3 --drop 0.02 --reorder 0.01 -w lossy.pcap\n"
    "    ibwire sim --cm --conns 10 --drop 0.05\n"
    "    ibwire sim --list-faults",
    "ibwire(1), ibwire-gen(1), ibwire-check(1); "
    "conformance/engine/README.md, conformance/rules.md"
};

static const char *const doc_gen_description[] = {
    "`ibwire gen` writes the captures the suite and pcaps/ are made of:"
    " clean traffic of each transport, crafted violations of the rules,"
    " vantage-point cases, and bug-NAME: the capture of a bug zoo fault"
    " mode (`ibwire sim --list-faults`). Each scenario with an expected"
    " verdict has it beside its capture in pcaps/ (NAME.expect), and "
    "`ibwire check` without FILE compares the two.",
    NULL};

const struct tool_doc doc_gen = {
    "gen",
    "generate a scenario capture from the reference engine",
    "SCENARIO -w FILE\n"
    "--list | --expect SCENARIO | --all DIR",
    NULL,
    {{NULL, gen_opts}, {NULL, NULL}, {NULL, NULL}},
    doc_gen_description,
    "0: written. 2: an unknown scenario, a file that cannot be written,"
    " or bad arguments.",
    "    ibwire gen --list\n"
    "    ibwire gen crafted-rc-clean -w rc.pcap\n"
    "    ibwire gen --all pcaps",
    "ibwire(1), ibwire-sim(1), ibwire-check(1)"
};

static const char *const doc_record_description[] = {
    "`ibwire record` reaches the internal records of the HanGu RDMA "
    "engine (E1 to E28: doorbells, context and translation commands, "
    "timers, ...) through the registry's descriptors, for C models and "
    "RTL testbenches. A record is a little-endian array of 32-bit words"
    " with bit 0 = bit 0 of word 0, as a Verilog bus. Values are "
    "decimal or 0x-hex, of any width (wide fields too); '_' may "
    "separate digits. docs/records.md lists every record and field.",
    NULL};

const struct tool_doc doc_record = {
    "record",
    "list, describe, pack and unpack engine records",
    "list\n"
    "describe NAME\n"
    "pack NAME FIELD=VALUE...\n"
    "unpack NAME HEX",
    "Records are little-endian arrays of 32-bit words, bit 0 = bit 0\n"
    "of word 0 (a Verilog bus).  VALUE and HEX accept decimal or\n"
    "0x-hex, '_' between digits allowed.",
    {{"Actions", record_actions}, {NULL, NULL}, {NULL, NULL}},
    doc_record_description,
    "0: done. 2: a bad argument, with a message naming the record, "
    "field or value.",
    "    ibwire record pack sq_doorbell opcode=0x0a fence=1 offset=4 "
    "size=3 qpn=0x11\n"
    "\n"
    "prints 000011030000042a, the bus value, most significant digit "
    "first.\n"
    "\n"
    "    ibwire record unpack sq_doorbell 000011030000042a",
    "ibwire(1); docs/records.md, docs/testbench.md"
};

static const char *const doc_peer_description[] = {
    "`ibwire peer` runs the reference engine and its CM "
    "(conformance/engine/cm) on a real interface, in real time, on a "
    "raw socket (root or CAP_NET_RAW): RoCEv2 over IPv4 or IPv6 with an"
    " address of its own (ARP or Neighbor Solicitation for it is "
    "answered, the other side is found by ARP/ND or `--peer-mac`), or "
    "without `--ip` the interface's own first IPv4 (`-6`: IPv6) "
    "address, its GID table.",
    "CM MADs go over QP1 as Linux's RDMA CM sends them (annex A11's IP "
    "CM service: the CMA header in the REQ's private data, service ID "
    "0x0000000001PPpppp from RDMA_PS_TCP and the port; REQ with "
    "IPv4-mapped or IPv6 GIDs; REP/RTU, MRA, REJ, DREQ/DREP; "
    "`--accept-delay` answers a REQ with MRA first, `--dup-req` sends "
    "the REQ twice, `--lose-rtu` loses each connection's first RTU), and rdma-core's rping protocol runs on the "
    "connection (`--app` ucmatose, perftest's -R exchange as server or "
    "`--perftest` client, or the agent's): `-c` as rping's client "
    "against `rping -s`, `-s` as its server for `rping -c` (`-V` "
    "compares the data, as `rping -v`). `--pcap` records every RoCE "
    "frame in and out; `--loss P` drops a share of the engine's frames "
    "(a lossy wire where netem is not to be had).",
    "It is tested engine against engine on a veth pair in a namespace "
    "(the `peer_netns` test), and against Linux 6.1 rxe in the QEMU "
    "guest with `scripts/rxe-vm.sh --interop` (scripts/rxe-vm/peer.sh).",
    NULL};

const struct tool_doc doc_peer = {
    "peer",
    "the reference engine on an interface, against Linux's RDMA CM",
    "-i IFACE [--ip ADDR | -6] (-c SERVER_ADDR | -s) [OPTIONS]",
    "The reference engine and its CM on a raw socket (root or "
    "CAP_NET_RAW),\n"
    "RoCEv2 over IPv4 or IPv6, talking rping's protocol through Linux's"
    " RDMA CM\n"
    "(annex A11's IP CM service).",
    {{NULL, peer_opts}, {NULL, NULL}, {NULL, NULL}},
    doc_peer_description,
    "0: the exchange completed and the connection was torn down. 1: it "
    "failed (the reason on stderr). 2: bad arguments.",
    "    ibwire peer -i veth0 --ip 10.0.0.2 -c 10.0.0.1 -C 20 -V\n"
    "    ibwire peer -i veth0 -s --app ucmatose",
    "ibwire(1), ibwire-probe(1), rping(1), ucmatose(1); "
    "conformance/peer/README.md, docs/rxe-vm.md"
};
