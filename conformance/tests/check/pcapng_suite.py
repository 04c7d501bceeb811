#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""pcapng files libpcap does not read: several link types, over 4 GiB.

  pcapng_suite.py MODE IBWIRE PCAPS_DIR WORK

MODE multi: bundled captures of three link types (Ethernet, InfiniBand
247, ERF 197) merged by time into one pcapng with one Interface
Description Block each (named by if_name), written here (not by ibwire),
little- and big-endian.  `ibwire check` must give the union of the three
files' findings (frames renumbered in the merged order) and the worst exit
code, and name each finding's interface (text and JSON).

MODE big: a bundled capture split around a 4 GiB block of another type
(sparse on disk), so that the last frames start past byte 2^32: the same
findings and frame count as the capture itself.
"""
import json
import os
import re
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tally import check  # noqa: E402
import tally  # noqa: E402


def read_pcap(path):
    """(link type, [(ns, record)]) of a classic pcap."""
    with open(path, "rb") as f:
        data = f.read()
    magic = struct.unpack("<I", data[:4])[0]
    end = "<" if magic in (0xA1B2C3D4, 0xA1B23C4D) else ">"
    magic = struct.unpack(end + "I", data[:4])[0]
    mul = 1 if magic == 0xA1B23C4D else 1000
    lt = struct.unpack(end + "I", data[20:24])[0] & 0x0FFFFFFF
    out, off = [], 24
    while off + 16 <= len(data):
        sec, frac, caplen, origlen = struct.unpack(end + "IIII",
                                                   data[off:off + 16])
        off += 16
        out.append((sec * 10**9 + frac * mul, data[off:off + caplen],
                    origlen))
        off += caplen
    return lt, out


class NG:
    """A minimal pcapng writer (byte order e: '<' or '>')."""

    def __init__(self, f, e):
        self.f, self.e = f, e

    def block(self, btype, body):
        body += b"\0" * (-len(body) % 4)
        n = len(body) + 12
        self.f.write(struct.pack(self.e + "II", btype, n) + body +
                     struct.pack(self.e + "I", n))

    def opt(self, code, val):
        return (struct.pack(self.e + "HH", code, len(val)) + val +
                b"\0" * (-len(val) % 4))

    def shb(self):
        self.block(0x0A0D0D0A, struct.pack(self.e + "IHHq", 0x1A2B3C4D, 1, 0,
                                           -1))

    def idb(self, lt, name, tsresol=9):
        body = struct.pack(self.e + "HHI", lt, 0, 0)
        body += self.opt(2, name.encode()) + self.opt(9, bytes([tsresol]))
        body += self.opt(0, b"")
        self.block(1, body)

    def epb(self, ifid, ts, rec, origlen):
        body = struct.pack(self.e + "IIIII", ifid, ts >> 32, ts & 0xFFFFFFFF,
                           len(rec), origlen) + rec
        self.block(6, body)


def findings_json(ibwire, path):
    r = subprocess.run([ibwire, "check", "--format", "json", path],
                       capture_output=True, text=True)
    doc = json.loads(r.stdout)
    return r.returncode, doc["files"][0]


def multi(ibwire, pcaps, work):
    names = ["bad-flow-gbn.pcap", "engine-rc-ops-ib.pcap", "bad-pkt-vcrc.pcap"]
    ifnames = ["eth1", "ib0", "dag0"]
    srcs = [read_pcap(os.path.join(pcaps, n)) for n in names]
    check([s[0] for s in srcs] == [1, 247, 197], "source link types")
    # one timeline: each capture moved to start 3 us after the previous
    # one's start, then all frames sorted by time (stable)
    base = 1700000000 * 10**9
    merged = []
    for k, (_, frames) in enumerate(srcs):
        t0 = frames[0][0]
        for i, (ts, rec, olen) in enumerate(frames):
            merged.append((base + k * 3000 + (ts - t0), k, i + 1, rec, olen))
    merged.sort(key=lambda m: m[0])
    number = {(m[1], m[2]): n + 1 for n, m in enumerate(merged)}
    want, want_rc = set(), 0
    for k, n in enumerate(names):
        rc, f = findings_json(ibwire, os.path.join(pcaps, n))
        want_rc = max(want_rc, rc)
        for x in f["findings"]:
            want.add((number[(k, x["frame"])], ifnames[k], x["rule"]))
    check(len(want) >= 2, "the sources have findings to find: %r" % want)
    for e in "<>":
        path = os.path.join(work, "multi-%s.pcapng" %
                            ("le" if e == "<" else "be"))
        with open(path, "wb") as f:
            w = NG(f, e)
            w.shb()
            for k, (lt, _) in enumerate(srcs):
                w.idb(lt, ifnames[k])
            for ts, k, _, rec, olen in merged:
                w.epb(k, ts, rec, olen)
        rc, f = findings_json(ibwire, path)
        got = {(x["frame"], x.get("interface"), x["rule"])
               for x in f["findings"]}
        check(got == want, "%s: findings %r, the three files give %r" %
              (path, sorted(got), sorted(want)))
        check(rc == want_rc, "%s: exit %d, expected %d" % (path, rc, want_rc))
        check(f["frames"] == len(merged), "%s: %d frames of %d" %
              (path, f["frames"], len(merged)))
        check(f.get("interfaces") == [{"name": n, "linktype": lt}
                                      for n, (lt, _) in zip(ifnames, srcs)],
              "%s: interfaces %r" % (path, f.get("interfaces")))
        t = subprocess.run([ibwire, "check", path], capture_output=True,
                           text=True)
        lines = {(int(m.group(1)), m.group(2), m.group(3))
                 for m in re.finditer(r"^frame (\d+) \[(\w+)\]: ([A-Z0-9-]+):",
                                      t.stdout, re.M)}
        check(lines == want, "%s: text findings %r" % (path, sorted(lines)))
        check("interfaces: eth1 (Ethernet), ib0 (InfiniBand), dag0 (ERF)"
              in t.stdout, "%s: text names the interfaces" % path)
        print("%s: %d frames, %d findings on their interfaces, exit %d" %
              (os.path.basename(path), len(merged), len(got), rc))
    # a pcapng of one interface names none
    one = os.path.join(work, "one.pcapng")
    with open(one, "wb") as f:
        w = NG(f, "<")
        w.shb()
        w.idb(1, "eth1")
        for ts, rec, olen in srcs[0][1]:
            w.epb(0, ts, rec, olen)
    rc, f = findings_json(ibwire, one)
    check(all("interface" not in x for x in f["findings"]) and
          "interfaces" not in f, "one interface: no interface named")


def big(ibwire, pcaps, work):
    name = "bad-flow-gbn.pcap"
    lt, frames = read_pcap(os.path.join(pcaps, name))
    rc_want, f_want = findings_json(ibwire, os.path.join(pcaps, name))
    path = os.path.join(work, "big.pcapng")
    half = len(frames) // 2
    body = 0xFFFFFFF0 - 12          # the longest block a 32-bit length allows
    with open(path, "wb") as f:
        w = NG(f, "<")
        w.shb()
        w.idb(lt, "eth0")
        for ts, rec, olen in frames[:half]:
            w.epb(0, ts, rec, olen)
        # a block of an unknown type, its body a hole in the file
        f.write(struct.pack("<II", 0x40000BAD, body + 12))
        f.seek(body, os.SEEK_CUR)
        f.write(struct.pack("<I", body + 12))
        check(f.tell() > 1 << 32, "past 4 GiB")
        for ts, rec, olen in frames[half:]:
            w.epb(0, ts, rec, olen)
    try:
        rc, f_got = findings_json(ibwire, path)
    finally:
        size = os.path.getsize(path)
        os.unlink(path)
    check(size > 1 << 32, "file size %d" % size)
    check(rc == rc_want, "big: exit %d, expected %d" % (rc, rc_want))
    check(f_got["findings"] == f_want["findings"] and
          f_got["frames"] == f_want["frames"],
          "big: %r vs %r" % (f_got["findings"], f_want["findings"]))
    print("big.pcapng (%d bytes): %d frames, findings as %s" %
          (size, f_got["frames"], name))


def main():
    if len(sys.argv) != 5:
        print(__doc__)
        return 2
    mode, ibwire, pcaps, work = sys.argv[1:]
    os.makedirs(work, exist_ok=True)
    {"multi": multi, "big": big}[mode](ibwire, pcaps, work)
    return tally.status()


if __name__ == "__main__":
    sys.exit(main())
