#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The reference engine's fault modes against the checker.

usage: faults_suite.py IBWIRE ZOO.md NAME     one fault mode (conformance/engine/faults.h)
       faults_suite.py IBWIRE ZOO.md --table NAME,NAME,...
                                              the table covers the bug zoo

For a fault NAME, `ibwire sim --list-faults` gives its zoo row, side and the
rule that catches it.  Then:
  - `ibwire gen bug-NAME` writes the fault's capture; it holds the same
    frames as `ibwire sim --fault NAME --seed 1 --messages 200` (or the CM
    run), so the capture is the fault's traffic at that fixed seed;
  - the clean control run, `ibwire sim --traffic-of NAME` with the same
    seed (the same traffic, every engine correct), differs from it: the
    fault changed what went on the wire;
  - `ibwire check` (--replay where the table says so) reports the table's
    rule on the fault's capture, and nothing on the clean run but what the
    traffic itself carries by design (CLEAN_ALLOWED: frames the link
    corrupted on purpose are PKT-ICRC, runts it cut PKT-MALFORMED, a FIRST
    it cut short of the PMTU PKT-LEN-FULL, whichever engine answers them).
The independent side: the rule IDs come from the table, the verdicts from
the checker, which knows nothing of the fault modes.

--table: every row of the bug zoo (the reference file's table) is either a
fault mode or a gap with its reason, no fault names a row the zoo lacks, and
the fault modes are the list given (the meson file's, one test each).  The
zoo lives outside the repository (../shared/reference): skipped (77) when
it is absent.
"""
import json
import os
import re
import struct
import subprocess
import sys
import tempfile

SEED, MESSAGES = "1", "200"
CM_ARGS = ["--cm", "--seed", "7", "--conns", "1", "--size", "2048",
           "--cm-retries", "3", "--cm-timeout", "16"]
# the faults whose traffic is a CM connection (IBE_FT_CM)
CM_FAULTS = {"start-psn-stale", "rnr-retry-finite"}
# traffic whose frames break a rule by design, fault or not
CLEAN_ALLOWED = {"icrc-small-unchecked": {"PKT-ICRC"},
                 "runt-accept": {"PKT-MALFORMED"},
                 # a FIRST the link cut short of the PMTU: the cut frame,
                 # its message's length, and its full resend after the NAK
                 "len-check-off": {"PKT-LEN-FULL", "FLOW-WRITE-LEN",
                                   "FLOW-RETRANS-DIFF"}}

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)
    else:
        print("ok:", what)


def run(*args):
    p = subprocess.run(list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stdout, p.stderr


def fault_table(ibwire):
    rc, out, err = run(ibwire, "sim", "--list-faults")
    if rc != 0:
        sys.exit("ibwire sim --list-faults: " + err)
    faults, gaps = {}, {}
    for line in out.splitlines()[1:]:
        parts = line.split(None, 4)
        if len(parts) < 5:
            continue
        name, zoo, side, rule, what = parts
        if name == "-":
            gaps[zoo] = what
        else:
            faults[name] = {"zoo": zoo, "side": side, "rule": rule,
                            "replay": what.startswith("(check --replay)"),
                            "what": what}
    return faults, gaps


def frames(path):
    """The frames' bytes of a pcap file, timestamps left out."""
    with open(path, "rb") as f:
        data = f.read()
    magic = struct.unpack("<I", data[:4])[0]
    end = "<" if magic in (0xa1b2c3d4, 0xa1b23c4d) else ">"
    out, off = [], 24
    while off + 16 <= len(data):
        incl = struct.unpack(end + "I", data[off + 8:off + 12])[0]
        out.append(data[off + 16:off + 16 + incl])
        off += 16 + incl
    return out


def findings(ibwire, path, replay):
    args = [ibwire, "check", "--format", "json"]
    if replay:
        args.append("--replay")
    rc, out, err = run(*(args + [path]))
    check(rc in (0, 1), "ibwire check %s runs (exit %d) %s" % (
        os.path.basename(path), rc, err.strip()))
    try:
        doc = json.loads(out)
    except ValueError:
        return []
    return [(f["rule"], f.get("severity"), f.get("message", ""))
            for file in doc.get("files", []) for f in file.get("findings", [])]


def one_fault(ibwire, name):
    faults, _ = fault_table(ibwire)
    if name not in faults:
        sys.exit("no fault mode %s in ibwire sim --list-faults" % name)
    f = faults[name]
    cm = name in CM_FAULTS
    with tempfile.TemporaryDirectory() as d:
        gen = os.path.join(d, "bug.pcap")
        sim = os.path.join(d, "sim.pcap")
        clean = os.path.join(d, "clean.pcap")
        rc, _, err = run(ibwire, "gen", "bug-" + name, "-w", gen)
        check(rc == 0, "ibwire gen bug-%s %s" % (name, err.strip()))
        if cm:
            rc, out, err = run(ibwire, "sim", *CM_ARGS, "--fault", name, "-w", sim)
        else:
            rc, out, err = run(ibwire, "sim", "--fault", name, "--seed", SEED,
                               "--messages", MESSAGES, "-w", sim)
        check(rc == 0, "ibwire sim --fault %s exits 0 (broken invariants are "
              "reported, not failed) %s" % (name, err.strip()))
        check('"faults": "%s"' % name in out, "the sim reports the fault")
        if cm:
            rc, _, err = run(ibwire, "sim", *CM_ARGS, "--traffic-of", name,
                             "-w", clean)
        else:
            rc, _, err = run(ibwire, "sim", "--traffic-of", name, "--seed", SEED,
                             "--messages", MESSAGES, "-w", clean)
        check(rc == 0, "the clean run of the same traffic keeps every "
              "invariant %s" % err.strip())
        g, s, c = frames(gen), frames(sim), frames(clean)
        check(len(g) > 0 and g == s, "gen bug-%s holds the sim's frames "
              "(%d and %d)" % (name, len(g), len(s)))
        check(g != c, "the fault changed the traffic (%d frames, clean %d)"
              % (len(g), len(c)))
        bad = findings(ibwire, gen, f["replay"])
        good = findings(ibwire, clean, f["replay"])
        rules = sorted({r for r, _, _ in bad})
        print("fault %s (zoo row %s, %s): %s" % (name, f["zoo"], f["side"],
                                                 ", ".join(rules) or "nothing"))
        if f["rule"] == "-":
            print("no rule decides this fault yet (the table says why)")
        else:
            check(f["rule"] in rules, "the fault's capture draws %s%s" % (
                f["rule"], " (check --replay)" if f["replay"] else ""))
        allowed = CLEAN_ALLOWED.get(name, set())
        extra = sorted({r for r, _, _ in good if r not in allowed})
        check(not extra, "the clean run draws nothing%s: %s" % (
            " but " + ", ".join(sorted(allowed)) if allowed else "",
            ", ".join(extra) or "nothing"))
        check(f["rule"] not in {r for r, _, _ in good},
              "the clean run draws no %s" % f["rule"])


def zoo_rows(zoo_md):
    rows = []
    with open(zoo_md) as fh:
        for line in fh:
            m = re.match(r"\|\s*(\d+)\s*\|", line)
            if m:
                rows.append(m.group(1))
    return rows


def table(ibwire, zoo_md, listed):
    faults, gaps = fault_table(ibwire)
    # zoo row "-": a device's bug `ibwire probe` found, outside the zoo; its
    # proof is the probe test it fails (probe_faults), not a sim capture
    faults = {n: f for n, f in faults.items() if f["zoo"] != "-"}
    check(sorted(faults) == sorted(listed), "the meson file's fault list is "
          "the table's: %s" % ", ".join(sorted(set(faults) ^ set(listed))))
    rows = zoo_rows(zoo_md)
    check(len(rows) >= 31, "the bug zoo lists %d rows" % len(rows))
    covered = set(gaps)
    for name, f in faults.items():
        base = re.match(r"\d+", f["zoo"]).group(0)
        check(base in rows, "fault %s names zoo row %s, which exists" % (name, f["zoo"]))
        covered.add(base)
        check(f["side"] in ("requester", "responder"), "fault %s has a side" % name)
        check(f["rule"] == "-" or re.match(r"^[A-Z]+(-[A-Z0-9]+)+$", f["rule"]),
              "fault %s names a rule ID" % name)
    for r in rows:
        check(r in covered, "zoo row %s is a fault mode or a stated gap" % r)
    rc, out, _ = run(ibwire, "gen", "--list")
    for name in faults:
        check(rc == 0 and re.search(r"^bug-%s\s" % re.escape(name), out, re.M),
              "gen --list shows bug-%s" % name)


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    ibwire, zoo_md, what = sys.argv[1:4]
    if what == "--table":
        if not os.path.exists(zoo_md):
            print("skip: no bug zoo at " + zoo_md)
            sys.exit(77)
        table(ibwire, zoo_md, sys.argv[4].split(",") if len(sys.argv) == 5 else [])
    else:
        one_fault(ibwire, what)
    if failures:
        print("%d check(s) failed" % len(failures))
        sys.exit(1)


if __name__ == "__main__":
    main()
