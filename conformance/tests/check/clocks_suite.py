#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""CAP-TS-CLOCKS: a capture whose two directions were stamped by two clocks.

Every classic Ethernet pcap given (the bundled captures, the real ones) is
written again with the frames of one direction (the frame whose source
MAC sorts after its destination's) moved by OFFSET, as Linux 7.2 with netem
on a veth stamps one side with the time since boot and the other with the
time of day.  `ibwire check` must then give the same findings (rule and
frame) as on the file it came from, and CAP-TS-CLOCKS once when both
directions are in it.  Captures whose timestamps the plain verdict rests
on are left out: those the checker reorders by time (CAP-TS-ORDER; between
two clocks only the file order is left) and those whose two vantage points
it finds skewed (CAP-SKEW).

usage: clocks_suite.py IBWIRE SCRATCH DIR...
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import capedit  # noqa: E402

OFFSET_NS = 56 * 365 * 86400 * 10**9 + 123456789


def restamp(src, dst, offset_ns):
    """0 when src is not a classic Ethernet pcap; else the number of
    frames moved."""
    try:
        cap = capedit.read(src)
    except ValueError:
        return 0
    if cap.linktype != 1:
        return 0
    moved = 0
    for fr in cap.frames:
        if len(fr.data) >= 12 and fr.data[6:12] > fr.data[0:6]:
            fr.ts_ns += offset_ns
            moved += 1
    capedit.write(cap, dst)
    return moved


def findings(ibwire, path):
    p = subprocess.run([ibwire, "check", "--format", "json", path],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       check=False)
    if p.returncode not in (0, 1):
        raise SystemExit(f"ibwire check {path}: exit {p.returncode}: "
                         f"{p.stderr.decode()[-500:]}")
    doc = json.loads(p.stdout)["files"][0]
    return sorted((f["rule"], f.get("frame", 0)) for f in doc["findings"])


def main():
    ibwire, scratch, dirs = sys.argv[1], sys.argv[2], sys.argv[3:]
    os.makedirs(scratch, exist_ok=True)
    caps = sorted(os.path.join(d, f) for d in dirs if os.path.isdir(d)
                  for f in os.listdir(d) if f.endswith(".pcap"))
    bad = tried = said = 0
    for cap in caps:
        name = os.path.basename(cap)
        out = os.path.join(scratch, name)
        moved = restamp(cap, out, OFFSET_NS)
        if not moved:
            continue
        plain = findings(ibwire, cap)
        if any(r in ("CAP-TS-ORDER", "CAP-SKEW") for r, _ in plain):
            continue
        got = findings(ibwire, out)
        two = moved < len(capedit.read(cap).frames)
        want = plain + ([("CAP-TS-CLOCKS", None)] if two else [])
        norm = [(r, None if r == "CAP-TS-CLOCKS" else n) for r, n in got]
        tried += 1
        said += two
        if sorted(norm, key=str) != sorted(want, key=str):
            bad += 1
            extra = [x for x in norm if x not in want][:8]
            gone = [x for x in want if x not in norm][:8]
            print(f"FAIL {name}: new {extra}, gone {gone}")
    print(f"{tried} restamped captures ({said} with two clocks), "
          f"{bad} failures")
    return 1 if bad or (caps and not said) else 0


if __name__ == "__main__":
    sys.exit(main())
