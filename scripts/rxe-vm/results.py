#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The results table of scripts/rxe-vm.sh from its output directory.

For each workload (DIR/NAME/): the frames on each vantage point (tcpdump on
veth_a and on veth_b), the tools' own exit codes, `ibwire check`'s verdict
on each file, and the live verdict (`ibwire check -i veth_a` in the guest,
DIR/NAME/live.json) against the file of veth_a written at the same time
(tcpdump's a.pcap) and against the frames the live check itself saved
(live.pcapng).  Writes DIR/results.md and DIR/results.json; prints the
table.  Each file is also checked with `--replay` (the reference responder
behind that vantage point).  Exit 0 when every workload's tools succeeded,
no vantage point has an error finding of the rules that is not a known
one, and the live verdict equals the file's; else 1.  The replay's own
findings are listed apart and do not fail the run yet.
"""
import argparse
import json
import os
import re
import struct
import subprocess
import sys


def check(ibwire, path, replay=False):
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return None
    p = subprocess.run([ibwire, "check", "--format", "json"]
                       + (["--replay"] if replay else []) + [path],
                       capture_output=True, text=True)
    try:
        return json.loads(p.stdout)["files"][0]
    except (ValueError, KeyError, IndexError):
        return {"unreadable": p.stderr.strip()[:200]}


def load_live(path):
    try:
        with open(path) as f:
            return json.load(f)["files"][0]
    except (OSError, ValueError, KeyError, IndexError):
        return None


def frame_bytes(path):
    """The frames' bytes of a classic pcap or a pcapng (EPB/SPB), in file
    order; None when unreadable."""
    out = []
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    if len(data) < 24:
        return out
    magic = struct.unpack("<I", data[:4])[0]
    if magic == 0x0A0D0D0A:
        e = "<" if data[8:12] == b"\x4d\x3c\x2b\x1a" else ">"
        off = 0
        while off + 12 <= len(data):
            btype, blen = struct.unpack(e + "II", data[off:off + 8])
            if blen < 12:
                return None
            if btype == 6:
                incl = struct.unpack(e + "I", data[off + 20:off + 24])[0]
                out.append(data[off + 28:off + 28 + incl])
            off += blen
        return out
    e = "<" if magic in (0xa1b2c3d4, 0xa1b23c4d) else ">"
    off = 24
    while off + 16 <= len(data):
        incl = struct.unpack(e + "I", data[off + 8:off + 12])[0]
        out.append(data[off + 16:off + 16 + incl])
        off += 16 + incl
    return out


# Error findings judged already (docs/rxe-vm.md, "Findings"), recognised by
# the workload's netem and the rule: reported as known; every other error
# finding makes the run not clean.
#
# L (F1, F2, F3, F6: a rule judging the file order on a frame the veth
# recorded late, its own timestamp older) and R (F5 and the rest: the same
# rules on netem reordering before the capture points) are no longer
# excused: the checker judges frames in timestamp order and says
# CAP-TS-ORDER once, and its order rules take a reordering network
# (FLOW-MSN, CM-QPN, FLOW-GBN), so an error there is a finding like any
# other.
#
# N: frames netem corrupted, judged as what they are (rxe drops them on its
# ICRC/checksum check): the packet rules are right to flag them.
#
# P: perftest -R's own exchange (its comm QP, messages of at most 64 bytes)
# resent with other bytes after an ACK came too late (netem lost or
# corrupted it, or, without netem, a TCG guest stalled past rxe's retry
# timer: seen on 7.2's write_bw_R): perftest
# posts the receive of the answer into the buffer of the SEND it has just
# posted (post_one_recv_wqe() and rdma_write_data() both use buf[0]), so
# the answer lands there before rxe's retry reads it again.  FLOW-RETRANS-
# DIFF is right about the wire; the application broke the verbs contract
# (a buffer of an outstanding SEND is not to be touched), not rxe.
CORRUPTED = {"PKT-ICRC", "PKT-IP-CSUM", "PKT-UDP-CSUM", "PKT-VERSION",
             "PKT-MALFORMED", "PKT-OPCODE", "PKT-RESERVED", "PKT-PAD",
             "PKT-LEN-FULL", "PKT-LEN-LAST", "PKT-AETH", "PKT-PKEY",
             # a flipped BTH FECN/BECN bit: the ICRC masks it, so rxe takes
             # the frame and only the packet rule can tell
             "PKT-FECN-BECN",
             # a flipped bit in the Ethernet source address (no CRC covers
             # it: the receiving MAC does not check it, rxe takes the frame;
             # 6.12's send_bw_4096_corrupt_a: the group bit)
             "PKT-ETH-SRC"}


# T: perftest (25.01, -R) sets its QPs' local ACK timeout to 14 (67 ms)
# with rdma_set_option(RDMA_OPTION_ID_ACK_TIMEOUT), which changes the QP
# attribute but not the CM REQ's Local ACK Timeout field (16, 268 ms here).
# A resend after rxe's own timer (67 ms and more, a TCG stall behind it)
# is then sooner than the REQ states: FLOW-RESEND-UNJUSTIFIED reports the
# REQ's misstatement (docs/iba-statements.md, "Which local ACK timeout
# bounds a resend"), not an rxe fault.  Taken as T only on a perftest -R
# workload and only when the resend came at least 15/16 of 2^14 x 4.096 us
# after its copy: sooner is still an error.
PERFTEST_ACK_TIMEOUT_NS = (4096 << 14) * 15 // 16
RESEND_AFTER = re.compile(r"resent ([0-9.]+) us after its copy before.*\(the CM REQ's")


def perftest_timer(f, workload):
    m = RESEND_AFTER.search(f.get("message", ""))
    return (f["rule"] == "FLOW-RESEND-UNJUSTIFIED" and m is not None
            and float(m.group(1)) * 1000 >= PERFTEST_ACK_TIMEOUT_NS
            and re.search(r"_R(_|$)", workload) is not None)


PERFTEST_EXCHANGE = re.compile(r"resent as RC SEND ONLY with (\d+) payload bytes "
                               r"that differ from the original's")


def perftest_exchange(f, workload):
    m = PERFTEST_EXCHANGE.search(f.get("message", ""))
    return (f["rule"] == "FLOW-RETRANS-DIFF" and m is not None and
            int(m.group(1)) <= 64 and re.search(r"_R(_|$)", workload) is not None)


def classify(doc, netem="", workload=""):
    """(unexplained error findings, {known id: count}) of a file's verdict."""
    if doc is None or "unreadable" in doc:
        return [], {}
    unexplained, known = [], {}
    for f in doc.get("findings", []):
        if f.get("severity") != "error":
            continue
        if "corrupt" in netem and f["rule"] in CORRUPTED:
            known["N"] = known.get("N", 0) + 1
        elif perftest_exchange(f, workload):
            known["P"] = known.get("P", 0) + 1
        elif perftest_timer(f, workload):
            known["T"] = known.get("T", 0) + 1
        else:
            unexplained.append((f["frame"], f["rule"]))
    return unexplained, known


def rules(doc):
    c = {}
    for f in doc.get("findings", []):
        c[f["rule"]] = c.get(f["rule"], 0) + 1
    return c


def verdict(doc):
    if doc is None:
        return "no capture"
    if "unreadable" in doc:
        return "unreadable: " + doc["unreadable"]
    r = rules(doc)
    if not r:
        return "clean"
    return ("errors %d" % doc["errors"] if doc["errors"] else "ok") + " (" + \
        ", ".join("%s %d" % kv for kv in sorted(r.items())) + ")"


def signature(doc):
    """What a live verdict must share with the file's."""
    if doc is None or "unreadable" in doc:
        return None
    return {"frames": doc.get("frames"), "errors": doc.get("errors"),
            "warnings": doc.get("warnings"),
            "findings": sorted((f["frame"], f["rule"]) for f in doc.get("findings", [])),
            "flows": len(doc.get("flows", []))}


def read_kv(path):
    kv = {}
    try:
        with open(path) as f:
            for line in f:
                k, _, v = line.rstrip("\n").partition("=")
                kv[k] = v
    except OSError:
        pass
    return kv


def read_rc(path):
    try:
        with open(path) as f:
            return int(f.read().strip())
    except (OSError, ValueError):
        return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ibwire", required=True)
    ap.add_argument("--seed", default="?")
    ap.add_argument("--mode", default="?")
    ap.add_argument("dir")
    a = ap.parse_args()
    names = []
    wl = os.path.join(a.dir, "workloads")
    if os.path.exists(wl):
        with open(wl) as f:
            names = [l.split("|")[0] for l in f if l.strip() and not l.startswith("#")]
    rows, bad, replay_notes = [], [], []
    for n in names:
        d = os.path.join(a.dir, n)
        w = read_kv(os.path.join(d, "workload.txt"))
        if not w:
            rows.append({"workload": n, "ran": False})
            bad.append("%s: did not run" % n)
            continue
        fa = check(a.ibwire, os.path.join(d, "a.pcap"))
        fb = check(a.ibwire, os.path.join(d, "b.pcap"))
        fl = check(a.ibwire, os.path.join(d, "live.pcapng"))
        # the reference responder behind each vantage point (issue 31: under
        # loss it must find nothing the rules do not, from either side)
        ra = check(a.ibwire, os.path.join(d, "a.pcap"), replay=True)
        rb = check(a.ibwire, os.path.join(d, "b.pcap"), replay=True)
        live = load_live(os.path.join(d, "live.json"))
        crc, src = read_rc(os.path.join(d, "client.rc")), read_rc(os.path.join(d, "server.rc"))
        sl, sa, sw = signature(live), signature(fa), signature(fl)
        live_eq_file = sl is not None and sl == sa
        reordered = False
        if sl is not None and not live_eq_file and sl == sw:
            # the two sockets on veth_a (tcpdump's, the live check's) may get
            # the same frames in another order when two CPUs deliver them
            # at once: then the live verdict is that of its own frames
            ba = frame_bytes(os.path.join(d, "a.pcap"))
            bl = frame_bytes(os.path.join(d, "live.pcapng"))
            reordered = (ba is not None and bl is not None and ba != bl
                         and sorted(ba) == sorted(bl))
        live_eq_own = sl is not None and sl == sw
        netem = []
        if w.get("netem_a", "-") != "-":
            netem.append("a: " + w["netem_a"])
        if w.get("netem_b", "-") != "-":
            netem.append("b: " + w["netem_b"])
        row = {"workload": n, "ran": True, "netem": "; ".join(netem) or "-",
               "mtu": w.get("mtu"), "client_rc": crc, "server_rc": src,
               "frames_a": fa.get("frames") if fa else 0,
               "frames_b": fb.get("frames") if fb else 0,
               "frames_live": live.get("frames") if live else None,
               "verdict_a": verdict(fa), "verdict_b": verdict(fb),
               "verdict_live": verdict(live),
               "live_eq_file": live_eq_file, "live_eq_own": live_eq_own,
               "live_reordered": reordered,
               "rules_a": rules(fa) if fa else {}, "rules_b": rules(fb) if fb else {},
               "replay_a": verdict(ra), "replay_b": verdict(rb),
               "errors": (fa or {}).get("errors", 0) + (fb or {}).get("errors", 0)
                         + (live or {}).get("errors", 0)}
        nm = w.get("netem_a", "") + " " + w.get("netem_b", "")
        ua, ka = classify(fa, nm, n)
        ub, kb = classify(fb, nm, n)
        row["unexplained_a"], row["unexplained_b"] = ua, ub
        row["known_a"], row["known_b"] = ka, kb
        # what --replay adds to the rules' findings on the same file
        def replay_only(rdoc, fdoc):
            u, k = classify(rdoc, nm, n)
            same = set(classify(fdoc, nm, n)[0])
            return [x for x in u if x not in same], k
        (rua, rka), (rub, rkb) = replay_only(ra, fa), replay_only(rb, fb)
        row["replay_unexplained_a"], row["replay_unexplained_b"] = rua, rub
        row["replay_known_a"], row["replay_known_b"] = rka, rkb
        rows.append(row)
        if crc != 0 or src != 0:
            bad.append("%s: tool exit client %s server %s" % (n, crc, src))
        for side, u in (("veth_a", ua), ("veth_b", ub)):
            if u:
                bad.append("%s: %d error findings on %s not explained (first: frame %d %s)"
                           % (n, len(u), side, u[0][0], u[0][1]))
        # the replay's own findings are listed, not (yet) a failure: it still
        # misreads some losses behind the capture point (docs/rxe-vm.md,
        # write_bw_4096_q8_loss_b_x; 6.1's read_bw_4096_loss_a in one CI run)
        for side, u in (("veth_a", rua), ("veth_b", rub)):
            if u:
                replay_notes.append("%s: %d --replay error findings on %s the rules "
                                    "do not have (first: frame %d %s)"
                                    % (n, len(u), side, u[0][0], u[0][1]))
        if reordered:
            pass
        elif not live_eq_file:
            bad.append("%s: live verdict %s differs from the file's %s"
                       % (n, sl, sa) if sl else "%s: no live verdict" % n)
        elif not live_eq_own:
            bad.append("%s: live verdict differs from its own -w file" % n)
    def words(name, first_line=False):
        """DIR/name's words ([] when it is not there)."""
        try:
            with open(os.path.join(a.dir, name)) as f:
                return (f.readline() if first_line else f.read()).split()
        except OSError:
            return []
    accel = " ".join(words("accel"))
    # the guest kernel as the guest itself said it (init's first log line),
    # else as rxe-vm.sh unpacked it (DIR/kernel: the Debian suite, the version)
    first, host_side = words("guest.log", True), words("kernel") + ["", ""]
    suite = host_side[0]
    kernel = first[1] if first[:1] == ["kernel"] and len(first) > 1 else host_side[1]
    out = ["# rxe-vm results: mode %s, seed %s, %s, Debian %s, Linux %s"
           % (a.mode, a.seed, accel, suite or "?", kernel or "?"), "",
           "| workload | netem | MTU | frames a / b | tool rc (client, server) "
           "| ibwire veth_a (file) | ibwire veth_b (file) | live veth_a | live = file "
           "| --replay a / b |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        if not r["ran"]:
            out.append("| %s | | | | did not run | | | | | |" % r["workload"])
            continue
        eq = "yes" if r["live_eq_file"] else "same frames, another order" \
            if r.get("live_reordered") else (
            "no (live %s frames, file %s)" % (r["frames_live"], r["frames_a"]))
        def known(k):
            return "".join(" [known %s: %d]" % kv for kv in sorted(k.items()))
        # --replay: "same" when it finds what the rules found, no more
        rep = ["same" if r["replay_" + s] == r["verdict_" + s] else
               r["replay_" + s] + known(r["replay_known_" + s]) for s in "ab"]
        out.append("| %s | %s | %s | %s / %s | %s, %s | %s | %s | %s | %s | %s |" % (
            r["workload"], r["netem"], r["mtu"], r["frames_a"], r["frames_b"],
            r["client_rc"], r["server_rc"], r["verdict_a"] + known(r["known_a"]),
            r["verdict_b"] + known(r["known_b"]), r["verdict_live"], eq,
            " / ".join(rep)))
    out.append("")
    out.append("%d workloads, %d not clean" % (len(rows), len(bad)))
    for b in bad:
        out.append("- " + b)
    if replay_notes:
        out.append("")
        out.append("--replay beyond the rules (listed, not counted as not clean):")
        for b in replay_notes:
            out.append("- " + b)
    text = "\n".join(out) + "\n"
    with open(os.path.join(a.dir, "results.md"), "w") as f:
        f.write(text)
    with open(os.path.join(a.dir, "results.json"), "w") as f:
        json.dump({"mode": a.mode, "seed": a.seed, "accel": accel, "suite": suite,
                   "kernel": kernel, "rows": rows,
                   "not_clean": bad, "replay_only": replay_notes}, f, indent=1)
    sys.stdout.write(text)
    return 1 if bad or not rows else 0


if __name__ == "__main__":
    sys.exit(main())
