#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Tests of `ibwire check` and `ibwire gen` that drive the binary.

  rules-md RULES_MD_EXE RULES_MD     the catalog equals the generator's output
  bundled IBWIRE PCAPS_DIR WORK      every scenario regenerates byte for byte
                                     with its .expect; the bundled-verdict mode
                                     passes; every error rule of the catalog has
                                     a capture breaking it; clean captures have
                                     no finding at all
  real IBWIRE CAPTURES_DIR           the real captures: no error, and exactly
                                     the warnings explained below
  formats IBWIRE PCAPS_DIR WORK      json parses with the documented shape,
                                     junit is XML with a testcase per rule,
                                     text lines read `frame N: RULE-ID: msg`,
                                     exit codes 0/1/2, --annotate comments
                                     as tshark shows them (skipped w/o tshark)
  idle IBWIRE PCAPS_DIR CAPTURES_DIR WORK
                                     each capture followed by itself again
                                     two minutes later: every flow of the
                                     first copy ends (idle) before the second
                                     starts, so the verdict is the original's
                                     twice: each flow twice with the same
                                     counts, each flow and CM finding twice
  jobs IBWIRE PCAPS_DIR CAPTURES_DIR WORK
                                     `-j 2` and `-j 3` print byte for byte
                                     what `-j 1` prints (text and json), on
                                     every bundled and shared capture, on a
                                     damaged one and on several files
  late IBWIRE PCAPS_DIR WORK         a frame recorded late with its own older
                                     timestamp (capedit.late, keep): judged in
                                     timestamp order it draws only
                                     CAP-TS-ORDER (also -j 2/3, --replay),
                                     in file order (--reorder 0) the order
                                     rule's false error; the same move with
                                     the timestamps kept in order (restamp,
                                     reordering before the capture point)
                                     still draws the order rule; a frame
                                     later than the window is judged where
                                     it is
  cm-reuse IBWIRE WORK               `ibwire sim --cm` connects many QP pairs
                                     in turn, reusing QP numbers: each
                                     connection is its own pair of flows,
                                     negotiated by CM, with no finding
"""
import filecmp
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import capedit  # noqa: E402
from tally import check  # noqa: E402
import tally  # noqa: E402

SKIP = 77


def run(*args, env=None):
    p = subprocess.run(list(args), capture_output=True, text=True, env=env)
    return p.returncode, p.stdout, p.stderr


def rules_md(exe, md):
    rc, out, err = run(exe)
    check(rc == 0, "rules_md runs")
    with open(md) as f:
        want = f.read()
    check(out == want, "conformance/rules.md is what rules_md prints "
          "(regenerate: rules_md > conformance/rules.md)")


def error_rule_ids(md):
    ids = []
    with open(md) as f:
        for line in f:
            m = re.match(r"\| ([A-Z0-9-]+) \| error \|", line)
            if m:
                ids.append(m.group(1))
    return ids


def bundled(ibwire, pcaps, work, md):
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    rc, out, err = run(ibwire, "gen", "--all", work)
    check(rc == 0, "ibwire gen --all: " + err)
    names = sorted(n for n in os.listdir(work) if n.endswith(".pcap"))
    check(len(names) > 0, "scenarios generated")
    for n in names:
        for ext in (".pcap", ".expect"):
            a = os.path.join(work, n[:-5] + ext)
            b = os.path.join(pcaps, n[:-5] + ext)
            check(os.path.exists(b), b + " is bundled")
            if os.path.exists(b):
                check(filecmp.cmp(a, b, shallow=False),
                      b + " is byte-identical to a fresh `ibwire gen`")
    # single-scenario form gives the same bytes as --all
    one = os.path.join(work, "one.pcap")
    rc, _, err = run(ibwire, "gen", "crafted-rc-clean", "-w", one)
    check(rc == 0 and filecmp.cmp(one, os.path.join(work, "crafted-rc-clean.pcap"),
                                  shallow=False), "gen SCENARIO -w FILE")
    os.remove(one)
    env = dict(os.environ, IBWIRE_PCAPS=work)
    rc, out, err = run(ibwire, "check", env=env)
    check(rc == 0, "bundled verdicts all as expected:\n" + out + err)
    covered = set()
    for n in names:
        with open(os.path.join(work, n[:-5] + ".expect")) as f:
            lines = [l.split() for l in f if not l.startswith("#")]
        found = [l[2] for l in lines if l[0] == "finding"]
        if n.startswith("crafted-"):
            check(found == [] and ["exit", "0"] in lines,
                  n + " (clean) has no finding")
        elif n.startswith(("engine-", "vantage-")):
            # reference traffic (vantage-: seen from an imperfect capture
            # point): no error, vantage-point notes allowed
            check(["exit", "0"] in lines, n + " (reference engine) is clean")
        else:
            check(len(found) >= 1, n + " breaks a rule")
        covered.update(found)
    for rid in error_rule_ids(md):
        if rid.startswith("REPLAY-"):
            continue  # only --replay reports these: tests/replay covers them
        check(rid in covered, "error rule %s has a violating capture" % rid)


# Every capture of ../shared/captures has its verdict here: the findings
# (frame, rule) ibwire check must give, each with the reason an RDMA
# engineer would give, and the per-flow facts that show the capture was
# understood.  A capture in the folder without an entry fails the suite.
REAL = {
    "hls-roce-csim-nodrop.pcap": {
        "why": "the HLS RoCE stack's C simulation, one RC connection on QP "
               "numbers 0 and 1: PKT-QP01-UD said once for the flow (frame "
               "1, an ACK stamped 23 us, is recorded before the request "
               "stamped 12 us that it answers (frame 2): judged in "
               "timestamp order it follows it and joins its flow; the "
               "simulation writes frames out of timestamp order throughout "
               "(7 frames, up to 61 us back): CAP-TS-ORDER once, at frame "
               "2), and the flow is still judged (one flow, paired by "
               "PSN, PMTU from the payloads); its READ requests (frames 4, "
               "11, 23) carry 48 bytes after the RETH that the IPv4/UDP "
               "lengths leave out, with the ICRC of all of them at the "
               "frame's end (zoo 31a): PKT-ICRC naming that, and "
               "PKT-NO-PAYLOAD.  The stack's MSN bug (zoo 31b): each READ "
               "RESPONSE LAST (frames 14, 27, 34) carries the next message's "
               "MSN, not its FIRST's (frames 8, 22, 32): FLOW-MSN (C9-148), "
               "judged from the responses though the READ requests are "
               "dropped frames (bad ICRC where the lengths put it)",
        "findings": [(2, "PKT-QP01-UD"), (4, "PKT-ICRC"),
                     (4, "PKT-NO-PAYLOAD"), (14, "FLOW-MSN"), (27, "FLOW-MSN"),
                     (34, "FLOW-MSN"), (2, "CAP-TS-ORDER")],
        "repeats": {"PKT-QP01-UD": 32, "PKT-ICRC": 2, "PKT-NO-PAYLOAD": 2},
        # --replay: since the replay merge the reference follows the READ
        # requests the capture dropped (their responses are no longer
        # EXTRA); the MSNs of the ACKs after each READ are not its own
        # (the stack's READ LAST carried the next MSN, zoo 31b)
        "replay": [(17, "REPLAY-DIFF"), (18, "REPLAY-DIFF"),
                   (19, "REPLAY-DIFF"), (29, "REPLAY-DIFF"),
                   (30, "REPLAY-DIFF"), (31, "REPLAY-DIFF"),
                   (36, "REPLAY-DIFF")],
        "errors": True, "flows": 1, "paired": {"psn"}},
    "hls-roce-csim-drop5.pcap": {
        "why": "the same run with every fifth packet dropped after the "
               "capture point: as nodrop (QP 0/1 said once, at frame 2 with "
               "frame 1's ACK judged after its request, CAP-TS-ORDER for 14 "
               "frames up to 35 us back, 9 READ requests with 48 uncounted "
               "bytes), and the resends, NAKs and READ "
               "re-issue judged without a finding; FLOW-MSN (zoo 31b) on the "
               "first READ's LAST (frame 14), the later READs' responses "
               "follow resends (a replay may carry the current MSN: not "
               "judged)",
        "findings": [(2, "PKT-QP01-UD"), (4, "PKT-ICRC"),
                     (4, "PKT-NO-PAYLOAD"), (14, "FLOW-MSN"),
                     (2, "CAP-TS-ORDER")],
        "repeats": {"PKT-QP01-UD": 70, "PKT-ICRC": 8, "PKT-NO-PAYLOAD": 8},
        # --replay: as main's replay gives since the replay merge (it
        # follows the dropped READ requests)
        "replay": [(62, "REPLAY-EXTRA"), (67, "REPLAY-EXTRA"),
                   (68, "REPLAY-EXTRA"), (71, "REPLAY-DIFF"),
                   (72, "REPLAY-DIFF")],
        "errors": True, "flows": 1, "paired": {"psn"}},
    "ib-native-erf-2008.pcap": {
        "why": "Wireshark's sample: CM-negotiated RC flows, MADs, IPoIB; "
               "all CRCs valid: nothing to say",
        "findings": [], "pmtu": {"cm"}},
    "mlx-ibdump-erf-ib-rping-cm.pcap": {
        "why": "ibdump of rping over native IB with CM: clean",
        "findings": [], "pmtu": {"cm"}},
    "mlx-nvmeof-rdma-discover.pcap": {
        "why": "host-side capture: one host's transmissions recorded "
               "20-30 us late, so ACKs precede the requests they answer "
               "(frame 14 acks PSN 0xdc37b0 sent in frame 18; frame 45 "
               "acks 0x017c39 sent in frame 46): one skew note per flow, "
               "no FLOW-ACK-UNSENT or FLOW-MSN",
        "findings": [(14, "CAP-SKEW"), (45, "CAP-SKEW")], "pmtu": {"cm"}},
    "mlx-sniffer-rc-write-tsmac.pcap": {
        "why": "a ConnectX sniffer that writes its timestamp into every "
               "frame's Ethernet source address (all 21 with the group bit "
               "set, growing with time on each of the two endpoints): said "
               "once (CAP-ETH-SRC), not 21 PKT-ETH-SRC, and the frames join "
               "their flow; no wire ICRCs (CAP-CRC); the ACKs are recorded "
               "up to 1 us before their WRITEs (CAP-SKEW), and the last ACK "
               "(frame 21, PSN 0xa6af78), 1 us after the last WRITE, names "
               "two WRITEs the capture ended before recording: counted in "
               "that note, no FLOW-ACK-UNSENT",
        "findings": [(1, "CAP-ETH-SRC"), (1, "CAP-CRC"), (19, "CAP-SKEW")],
        "flows": 1, "paired": {"psn"}},
    "mlx-uccl-uc-write-imm-snapped.pcap": {
        "why": "489 frames cut to 243 bytes with the cut recorded as the "
               "original length (said once); the 20 whole RoCE frames all "
               "carry ICRCs that do not match although the RC WRITE was "
               "ACKed: the sniffer does not record wire ICRCs (said once); "
               "the ACK of frame 12 precedes its WRITE (frame 19) by 22 us; "
               "21 UC QPs tracked through the cut frames; the source MAC "
               "is the sniffer's timestamp (none with the group bit): said "
               "once (CAP-ETH-SRC)",
        "findings": [(12, "CAP-SKEW"), (12, "CAP-CRC"), (13, "CAP-TRUNCATED"),
                     (12, "CAP-ETH-SRC")],
        "flows": 22},
    "roce-vectors-cx4.pcap": {
        "why": "three unrelated scapy vectors: the RoCEv1 ACK (PSN "
               "0xa788c0) answers no request in the file (the WRITE is "
               "0xa788bc); the IPv4-mapped GIDs name 15.0.0.2",
        "findings": [(3, "FLOW-ACK-UNSENT")]},
    "rocev2-hw-rnic.pcap": {
        "why": "HiSilicon RNIC, QPs exchanged without CM: responses paired "
               "by PSN, PMTU 1024 learnt from SEND FIRST payloads; frame 67 "
               "(a non-IBA frame stamped .671271) is recorded after frame "
               "66 (.671272): 1 us back, CAP-TS-ORDER says the file order "
               "is not the wire order (true of the file, whatever its size)",
        "findings": [(67, "CAP-TS-ORDER")], "paired": {"psn"}},
    "rxe-ibv-ud-pingpong.pcap": {
        "why": "UD datagrams only: no connection state, nothing to say",
        "findings": []},
    "rxe-perftest-atomic-fetchadd.pcap": {
        "why": "perftest exchanges QPNs over TCP (no CM): the atomic ACKs "
               "are paired with their FETCH & ADDs by PSN",
        "findings": [], "paired": {"psn"}},
    "rxe-perftest-rdmacm-write-bw.pcap": {
        "why": "rdma_cm write_bw: two CM exchanges, WRITEs at PMTU 1024, "
               "SENDs before the second RTU: clean",
        "findings": [], "pmtu": {"cm"}},
    "rxe-rping-cm-send-read-write.pcap": {
        "why": "rping: SEND, READ, WRITE over CM: clean",
        "findings": [], "pmtu": {"cm"}},
    "rxe-vm-rdmacm-write-read-dreq.pcap": {
        "why": "a 4096-byte READ at PMTU 1024 (from the CM REQ): its four "
               "responses are inside its span, no FLOW-ACK-UNSENT",
        "findings": [], "pmtu": {"cm"}},
}


def real(ibwire, caps):
    if not os.path.isdir(caps):
        print("no", caps, "- skipped")
        return SKIP
    names = sorted(n for n in os.listdir(caps)
                   if n.endswith((".pcap", ".pcapng")))
    check(len(names) > 0, "captures in " + caps)
    for name in names:
        want = REAL.get(name)
        check(want is not None, name + " has no expected verdict in "
              "check_suite.py REAL")
        if want is None:
            continue
        path = os.path.join(caps, name)
        for extra in ([], ["--replay"]):
            rc, out, err = run(ibwire, "check", "--format", "json", *extra,
                               path)
            what = name + (" --replay" if extra else "")
            errors = want.get("errors", False)
            check(rc == (1 if errors else 0),
                  what + ": exit %d\n%s%s" % (rc, out, err))
            try:
                doc = json.loads(out)
            except ValueError:
                check(False, what + ": json")
                continue
            fi = doc["files"][0]
            # a per-packet rule is said once per flow: its findings on more
            # frames of the flow carry "repeat" (counted below)
            got = [(f["frame"], f["rule"]) for f in fi["findings"]
                   if not f.get("repeat")]
            reps = {}
            for f in fi["findings"]:
                if f.get("repeat"):
                    reps[f["rule"]] = reps.get(f["rule"], 0) + 1
            check(reps == want.get("repeats", {}), "%s: repeats %s, expected "
                  "%s" % (what, reps, want.get("repeats", {})))
            check((doc["errors"] > 0) == errors, what + ": errors")
            expect = want["findings"] + (want.get("replay", []) if extra
                                         else [])
            # the verdict is which findings, not the order they were said in
            # (a rule that waits out the skew window says its finding late)
            check(sorted(got) == sorted(expect), "%s: findings %s, expected %s (%s)"
                  % (what, got, expect, want["why"]))
            flows = fi["flows"]
            if "flows" in want:
                check(len(flows) == want["flows"], "%s: %d flows, expected %d"
                      % (what, len(flows), want["flows"]))
            if "pmtu" in want:
                check({f["pmtu_source"] for f in flows} == want["pmtu"],
                      what + ": PMTU sources %r" % [f["pmtu_source"] for f in flows])
            if "paired" in want:
                check({f["paired_by"] for f in flows} == want["paired"],
                      what + ": pairing %r" % [f["paired_by"] for f in flows])
    return 0


def formats(ibwire, pcaps, work):
    os.makedirs(work, exist_ok=True)
    bad = os.path.join(pcaps, "bad-flow-gbn.pcap")
    clean = os.path.join(pcaps, "crafted-rc-clean.pcap")
    rc, out, _ = run(ibwire, "check", bad)
    check(rc == 1, "exit 1 on errors")
    lines = [l for l in out.splitlines() if l.startswith("frame ")]
    check(lines == ["frame 7: FLOW-GBN: resent from PSN 0x000002, the NAK "
                    "named 0x000001"], "text finding line: %r" % lines)
    rc, out, _ = run(ibwire, "check", clean)
    check(rc == 0, "exit 0 on a clean capture")
    rc, _, _ = run(ibwire, "check", os.path.join(work, "missing.pcap"))
    check(rc == 2, "exit 2 on an unreadable input")
    rc, _, _ = run(ibwire, "check", "--pmtu", "1000", clean)
    check(rc == 2, "exit 2 on a bad --pmtu")
    rc, _, _ = run(ibwire, "check", "--replay", clean)
    check(rc == 0, "--replay: a clean capture replays clean")
    rc, out, _ = run(ibwire, "check", "--format", "json", clean, bad)
    check(rc == 1, "json: exit 1")
    doc = json.loads(out)
    check(set(doc) == {"files", "errors", "warnings"}, "json top level")
    check(doc["errors"] == 1 and doc["warnings"] == 0, "json totals")
    check([f["file"] for f in doc["files"]] == [clean, bad], "json files")
    check(doc["files"][0]["frames"] == 22, "json frames")
    f = doc["files"][1]["findings"][0]
    check(f == {"frame": 7, "rule": "FLOW-GBN", "severity": "error",
                "spec": "9.7.5.2",
                "message": "resent from PSN 0x000002, the NAK named 0x000001"},
          "json finding %r" % f)
    fl = doc["files"][0]["flows"]
    check(len(fl) == 2 and fl[0]["requests"] == 8 and
          fl[0]["messages"] == 5 and fl[0]["responses"] == 7 and
          fl[0]["cm_negotiated"] is True, "json flows %r" % fl)
    # a per-packet rule is said once per flow: the text counts the rest, the
    # json keeps them flagged as repeats
    fb = os.path.join(pcaps, "bad-pkt-fecn-becn.pcap")
    rc, out, _ = run(ibwire, "check", fb)
    lines = [l for l in out.splitlines() if l.startswith(("frame ", "..."))]
    check(rc == 1 and lines == [
        "frame 3: PKT-FECN-BECN: bth.fecn 1, bth.becn 0 on RoCEv2, expected "
        "0, 0",
        "... and 1 more frames of flow 10.0.0.1 -> 10.0.0.2 QP 0x000022 with "
        "PKT-FECN-BECN"], "text: once per flow %r" % lines)
    rc, out, _ = run(ibwire, "check", "--format", "json", fb)
    got = [(f["frame"], f.get("repeat", False))
           for f in json.loads(out)["files"][0]["findings"]]
    check(got == [(3, False), (4, True)], "json repeats %r" % got)
    rc, out, _ = run(ibwire, "check", "--format", "junit", bad)
    root = ET.fromstring(out)
    cases = root.findall("./testsuite/testcase")
    rules = len([l for l in open(os.path.join(os.path.dirname(pcaps),
                 "conformance", "rules.md"))
                 if re.match(r"\| [A-Z0-9-]+ \| (error|warning) \|", l)])
    check(len(cases) == rules, "junit: one testcase per rule")
    failed = [c.get("name") for c in cases if c.find("failure") is not None]
    check(failed == ["FLOW-GBN"], "junit failures %r" % failed)
    ann = os.path.join(work, "annotated.pcapng")
    rc, _, _ = run(ibwire, "check", "--annotate", ann, bad)
    check(rc == 1 and os.path.exists(ann), "--annotate writes")
    # meson passes the tshark -Dtshark_tests allows ('' for none)
    tshark = os.environ.get("IBW_TSHARK", shutil.which("tshark"))
    if not tshark:
        print("no tshark: annotate comments not read back")
        return 0
    rc, out, err = run(tshark, "-r", ann, "-T", "fields", "-e", "frame.number",
                       "-e", "frame.comment")
    check(rc == 0, "tshark reads the annotated capture: " + err)
    rows = [l.split("\t") for l in out.splitlines()]
    check(len(rows) == 8, "annotated capture keeps every frame")
    commented = [(r[0], r[1]) for r in rows if len(r) > 1 and r[1]]
    check(commented == [("7", "FLOW-GBN: resent from PSN 0x000002, the NAK "
                              "named 0x000001")],
          "frame.comment as tshark shows it: %r" % commented)
    return 0


# Per-capture notes are said once per file, whatever its length.
ONCE_PER_FILE = ("CAP-TRUNCATED", "CAP-CRC", "CAP-TS-ORDER", "CAP-ETH-SRC")
FLOW_KEYS = ("transport", "requester", "requester_qpn", "responder",
             "responder_qpn", "requests", "responses", "messages",
             "retransmissions", "gaps", "naks", "rnr_naks", "pmtu",
             "pmtu_source", "paired_by", "errors", "warnings")


def twice(cap, gap_ns):
    """cap, then cap again gap_ns after its last frame (ERF records keep
    their own time in step)."""
    first, last = cap.frames[0].ts_ns, cap.frames[-1].ts_ns
    shift = last - first + gap_ns
    again = []
    for fr in cap.frames:
        data = fr.data
        if cap.linktype == capedit.LT_ERF and len(data) >= 16:
            data = capedit._shift_erf_ts(data, shift)
        again.append(capedit.Frame(fr.ts_ns + shift, data, fr.origlen))
    return cap.copy(cap.frames + again)


def capture_paths(pcaps, caps, exts=(".pcap",)):
    """The bundled captures, then those of caps when it exists."""
    paths = [os.path.join(pcaps, n) for n in sorted(os.listdir(pcaps))
             if n.endswith(".pcap")]
    if os.path.isdir(caps):
        paths += [os.path.join(caps, n) for n in sorted(os.listdir(caps))
                  if n.endswith(exts)]
    return paths


# Captures that end within the skew window after a response whose request
# was not recorded yet (CAP-SKEW counts it): in the first copy the capture
# goes on past that window, so the response names a request that never
# came (FLOW-ACK-UNSENT, one more warning on its flow).
IDLE_END_WINDOW = {"mlx-sniffer-rc-write-tsmac.pcap": {"FLOW-ACK-UNSENT": 1}}


def idle(ibwire, pcaps, caps, work):
    os.makedirs(work, exist_ok=True)
    paths = capture_paths(pcaps, caps)
    out = os.path.join(work, "twice.pcap")
    for path in paths:
        name = os.path.basename(path)
        cap = capedit.read(path)
        if not cap.frames:
            continue
        capedit.write(twice(cap, 120 * 10**9), out)
        docs = []
        for p in (path, out):
            rc, text, err = run(ibwire, "check", "--format", "json", p)
            try:
                docs.append((rc, json.loads(text)["files"][0]))
            except (ValueError, KeyError, IndexError):
                check(False, "%s: json (%s)" % (p, err[:300]))
        if len(docs) != 2:
            continue
        (rc1, one), (rc2, two) = docs
        check(rc1 == rc2, "%s twice: exit %d, once %d" % (name, rc2, rc1))
        def rules(doc, once):
            c = {}
            for f in doc["findings"]:
                if (f["rule"] in ONCE_PER_FILE) == once:
                    c[f["rule"]] = c.get(f["rule"], 0) + 1
            return c
        extra = IDLE_END_WINDOW.get(name, {})
        want = {k: 2 * v for k, v in rules(one, False).items()}
        for k, v in extra.items():
            want[k] = want.get(k, 0) + v
        check(rules(two, False) == want,
              "%s twice: findings %s, once %s" % (name, rules(two, False),
                                                  rules(one, False)))
        check(rules(two, True) == rules(one, True),
              "%s twice: per-file notes %s, once %s" % (name, rules(two, True),
                                                        rules(one, True)))
        def flows(doc):
            keys = [k for k in FLOW_KEYS if not (extra and k == "warnings")]
            return sorted(tuple(str(fl.get(k)) for k in keys)
                          for fl in doc["flows"])
        check(flows(two) == sorted(flows(one) * 2),
              "%s twice: flows\n  %s\nonce\n  %s" % (name, flows(two), flows(one)))
    return 0


# Frames moved the way a veth receiver's capture records a frame delivered
# late (docs/rxe-vm.md F2, F6), each built from a bundled capture: (source,
# frame moved, the frame it is recorded after, the order rule that judging
# in file order draws on it, what the false error says; None: no rule does,
# the frame itself shows it was sent before).
LATE = [
    # a DREQ collision: 10.9.0.2's DREQ (473) recorded after its own DREP
    # (476), as tcpdump recorded F2's
    ("rxe-atomic-bw-R.pcap", 473, 476, "CM-SEQ", "DREQ in state closed"),
    # a PSN sequence NAK (6) recorded after the ACKs of the resent PSNs
    # (9, 11), as F6's: its MSN is older than theirs, so even in file order
    # it was sent before them (FLOW-NAK-PSN judges it so; test_check_flow_
    # rules holds a NAK with the current MSN to the rule)
    ("engine-rc-loss-nak.pcap", 6, 11, None, None),
]


def late(ibwire, pcaps, work):
    os.makedirs(work, exist_ok=True)

    def findings(*args):
        rc, out, err = run(ibwire, "check", "--format", "json", *args)
        try:
            doc = json.loads(out)["files"][0]
        except (ValueError, KeyError, IndexError):
            check(False, "json of %s: %s" % (args, err[:300]))
            return rc, []
        return rc, [(f["frame"], f["rule"], f["message"])
                    for f in doc["findings"]]

    for src, n, after, rule, says in LATE:
        cap = capedit.read(os.path.join(pcaps, src))
        _, base = findings(os.path.join(pcaps, src))
        check(base == [], src + " is clean as bundled")
        keep = os.path.join(work, "late-keep-" + src)
        restamp = os.path.join(work, "late-restamp-" + src)
        capedit.write(capedit.late(cap, n, after, True), keep)
        capedit.write(capedit.late(cap, n, after, False), restamp)
        step_us = (cap.frames[after - 1].ts_ns - cap.frames[n - 1].ts_ns) // 1000
        what = "%s frame %d after %d" % (src, n, after)
        # judged in timestamp order: only the note, naming the moved frame
        # (now numbered `after`) and how far back its stamp is
        for extra in ([], ["-j", "2"], ["-j", "3"], ["--replay"]):
            rc, got = findings(*extra, keep)
            check(rc == 0 and [(f, r) for f, r, _ in got] ==
                  [(after, "CAP-TS-ORDER")],
                  "%s %s: only CAP-TS-ORDER, got exit %d %s"
                  % (what, extra, rc, got))
            if got:
                m = got[0][2]
                check(m.startswith("1 frame recorded after") and
                      "step back %d.%03d ms, frame %d" %
                      (step_us // 1000, step_us % 1000, after) in m and
                      m.endswith("judged in timestamp order"),
                      "%s: the note's figures: %s" % (what, m))
        # in file order: the false error on the late frame
        rc, got = findings("--reorder", "0", keep)
        fr_rules = [(f, r) for f, r, _ in got]
        check(rc == (1 if rule else 0) and
              (not rule or (after, rule) in fr_rules and
               any(says in m for _, r, m in got if r == rule)) and
              (after, "CAP-TS-ORDER") in fr_rules and
              len(fr_rules) == (2 if rule else 1),
              "%s --reorder 0: %s and CAP-TS-ORDER, got %s"
              % (what, rule, got))
        # later than the window (1 us here): judged where it is, and the
        # note says how many were
        rc, got = findings("--reorder", "0.001", keep)
        check(rc == (1 if rule else 0) and
              (not rule or (after, rule) in [(f, r) for f, r, _ in got]) and
              any(r == "CAP-TS-ORDER" and "1 came more than the reorder "
                  "window late" in m for _, r, m in got),
              "%s --reorder 0.001: judged where it is, got %s" % (what, got))
        # the same move with timestamps that never go back: the order on
        # the file is the only account of the wire there is, the rule
        # judges it (it keeps its teeth) and there is no note
        rc, got = findings(restamp)
        want = [(after, rule)] if rule else []
        check(rc == (1 if rule else 0) and [(f, r) for f, r, _ in got] == want,
              "%s restamped: %s only, got %s" % (what, rule, got))
    # reordering before the capture point (timestamps in order): the first
    # SEND of a CM connection (PSN 0x1b7cbe, frame 4) and its ACK recorded
    # after the second SEND, as netem reorder left ucmatose_reorder_b: the
    # first request recorded is past the CM's starting PSN, which comes
    # next; the requester did start there, so no CM-QPN (bad-cm-qpn.pcap,
    # whose starting PSN never comes, keeps it)
    src = "rxe-write-bw-R-255.pcap"
    cap = capedit.read(os.path.join(pcaps, src))
    moved = capedit.late(capedit.late(cap, 4, 8, False), 4, 8, False)
    path = os.path.join(work, "late-cm-first-" + src)
    capedit.write(moved, path)
    rc, got = findings(path)
    check(rc == 0 and got == [], "%s first SEND reordered after the second: "
          "clean, got %s" % (src, got))
    # a Go-Back-N round whose own resends netem let through first: after
    # the NAK of PSN 1 (frame 6) the requester resends 1, 2, 3; the copies
    # of 2 and 3 are recorded before the one of 1, so the round recorded
    # from 1 goes on to the new PSN 4 "without" 2 and 3, and the responder
    # NAKs 2 again: no FLOW-GBN (bad-flow-gbn-stop.pcap, where 2 and 3
    # are never resent, keeps it)
    src = "bad-flow-gbn-stop.pcap"
    cap = capedit.read(os.path.join(pcaps, src))
    fr = cap.frames
    t = fr[5].ts_ns
    early = [capedit.Frame(t + 1000 * (k + 1), fr[i].data, fr[i].origlen)
             for k, i in enumerate((2, 3))]
    shift = [capedit.Frame(x.ts_ns + 3000, x.data, x.origlen) for x in fr[6:]]
    path = os.path.join(work, "late-gbn-round-" + src)
    capedit.write(cap.copy(fr[:6] + early + shift), path)
    rc, got = findings(path)
    check(rc == 0 and "FLOW-GBN" not in [r for _, r, _ in got],
          "%s with the round's resends of 2 and 3 recorded first: no "
          "FLOW-GBN, got %s" % (src, got))
    rc, got = findings(os.path.join(pcaps, src))
    check(rc == 1 and [(f, r) for f, r, _ in got] == [(8, "FLOW-GBN")],
          "%s: FLOW-GBN at frame 8, got %s" % (src, got))
    # the DREP lost after the capture point: the DREQ's sender resends its
    # DREQ at its CM timeout, after the DREP the capture recorded, and the
    # peer in TimeWait answers it with a DREP again (engine-cm.pcap: DREQ
    # frame 12, DREP 13; both copied 268 ms later, as a lossy ibwire sim
    # --cm with CM timeout 16 recorded them): clean, no CM-SEQ
    src = "engine-cm.pcap"
    cap = capedit.read(os.path.join(pcaps, src))
    fr = cap.frames
    check(capedit.cm(cap, 11) and capedit.cm(cap, 11)["attr"] == 0x15 and
          capedit.cm(cap, 12)["attr"] == 0x16, src + ": DREQ 12, DREP 13")
    again = [capedit.Frame(fr[i].ts_ns + 268435456, fr[i].data, fr[i].origlen)
             for i in (11, 12)]
    path = os.path.join(work, "late-dreq-again-" + src)
    capedit.write(cap.copy(fr + again), path)
    rc, got = findings(path)
    check(rc == 0 and got == [], "%s with the DREQ resent after the DREP "
          "(and answered again): clean, got %s" % (src, got))
    rc, got = findings(os.path.join(pcaps, "bad-cm-qpn.pcap"))
    check(rc == 1 and [(f, r) for f, r, _ in got] == [(4, "CM-QPN")] and
          "no request at 0x000200 followed" in got[0][2],
          "bad-cm-qpn.pcap: CM-QPN once the starting PSN never came, got %s"
          % got)
    return 0


def jobs(ibwire, pcaps, caps, work):
    os.makedirs(work, exist_ok=True)
    paths = capture_paths(pcaps, caps, (".pcap", ".pcapng"))
    # a file damaged after its ninth frame: the frames before it are judged
    damaged = os.path.join(work, "damaged.pcap")
    with open(os.path.join(pcaps, "engine-rc-loss-nak.pcap"), "rb") as f:
        data = f.read()
    with open(damaged, "wb") as f:
        f.write(data[:5000])
    runs = [[p] for p in paths] + [[damaged], paths[:6]]
    compared = 0
    for files in runs:
        for fmt in ("text", "json"):
            one = run(ibwire, "check", "--format", fmt, *files)
            for j in ("2", "3"):
                other = run(ibwire, "check", "-j", j, "--format", fmt, *files)
                compared += 1
                check(other == one, "-j %s %s %s differs from -j 1:\n%s\n---\n%s"
                      % (j, fmt, " ".join(files), other[1][:600], one[1][:600]))
    check(compared > 100, "jobs: only %d comparisons" % compared)
    return 0


def cm_reuse(ibwire, work):
    os.makedirs(work, exist_ok=True)
    out = os.path.join(work, "cm-reuse.pcap")
    conns = 300
    rc, text, err = run(ibwire, "sim", "--cm", "--conns", str(conns), "-w", out)
    check(rc == 0, "sim --cm --conns %d: exit %d %s" % (conns, rc, err[:300]))
    rc, text, err = run(ibwire, "check", "--format", "json", out)
    doc = json.loads(text)["files"][0]
    check(rc == 0 and not doc["findings"],
          "cm-reuse: exit %d, findings %s" % (rc, doc["findings"][:5]))
    flows = doc["flows"]
    check(len(flows) == 2 * conns, "cm-reuse: %d flows, want %d (two per "
          "connection)" % (len(flows), 2 * conns))
    check(all(f["cm_negotiated"] and f["pmtu_source"] == "cm" for f in flows),
          "cm-reuse: a flow not negotiated by CM")
    qpns = {f["requester_qpn"] for f in flows}
    check(len(qpns) < conns, "cm-reuse: the sim no longer reuses QP numbers "
          "(%d QPNs for %d connections): the test tests nothing" % (len(qpns), conns))
    return 0


def main():
    mode = sys.argv[1]
    if mode == "rules-md":
        rules_md(sys.argv[2], sys.argv[3])
        rc = 0
    elif mode == "bundled":
        bundled(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5])
        rc = 0
    elif mode == "real":
        rc = real(sys.argv[2], sys.argv[3])
    elif mode == "formats":
        rc = formats(sys.argv[2], sys.argv[3], sys.argv[4])
    elif mode == "jobs":
        rc = jobs(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5])
    elif mode == "cm-reuse":
        rc = cm_reuse(sys.argv[2], sys.argv[3])
    elif mode == "late":
        rc = late(sys.argv[2], sys.argv[3], sys.argv[4])
    elif mode == "idle":
        rc = idle(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5])
    else:
        print("unknown mode", mode)
        return 2
    if tally.fails:
        return 1
    return rc


if __name__ == "__main__":
    sys.exit(main())
