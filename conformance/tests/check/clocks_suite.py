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
import struct
import subprocess
import sys

OFFSET_NS = 56 * 365 * 86400 * 10**9 + 123456789


def restamp(src, dst, offset_ns):
    """0 when src is not a classic Ethernet pcap; else the number of
    frames moved."""
    with open(src, "rb") as f:
        data = f.read()
    magic = data[:4]
    if magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1"):
        end = "<"
    elif magic in (b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d"):
        end = ">"
    else:
        return 0
    nano = magic in (b"\x4d\x3c\xb2\xa1", b"\xa1\xb2\x3c\x4d")
    if struct.unpack(end + "I", data[20:24])[0] != 1:
        return 0
    unit = 1 if nano else 1000
    out = bytearray(data[:24])
    off, moved = 24, 0
    while off + 16 <= len(data):
        sec, frac, incl, orig = struct.unpack(end + "IIII",
                                              data[off:off + 16])
        frame = data[off + 16:off + 16 + incl]
        t = sec * 10**9 + frac * unit
        if len(frame) >= 12 and frame[6:12] > frame[0:6]:
            t += offset_ns
            moved += 1
        sec, ns = divmod(t, 10**9)
        out += struct.pack(end + "IIII", sec, ns // unit, incl, orig)
        out += frame
        off += 16 + incl
    with open(dst, "wb") as f:
        f.write(out)
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
        two = moved < sum(1 for _ in frames_of(cap))
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


def frames_of(path):
    """Every record of a classic pcap (bytes)."""
    with open(path, "rb") as f:
        data = f.read()
    end = "<" if data[:4] in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1") \
        else ">"
    off = 24
    while off + 16 <= len(data):
        incl = struct.unpack(end + "I", data[off + 8:off + 12])[0]
        yield data[off + 16:off + 16 + incl]
        off += 16 + incl


if __name__ == "__main__":
    sys.exit(main())
