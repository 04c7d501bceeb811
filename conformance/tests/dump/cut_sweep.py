#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`ibwire dump -T fields` against tshark on frames cut short, as header-only
capture leaves them.

usage: cut_sweep.py --ibwire BIN [--tshark BIN] --workdir DIR
                    [--sizes 96,128,256] [--max-left-out N] CAPTURE_DIR...

Every classic pcap in the CAPTURE_DIRs (a missing folder is skipped) is cut
to each size two ways:
  a  caplen = the size, the original length kept (a snap length, as
     tcpdump -s and editcap -s write it; tshark sees "N bytes on wire, M
     captured");
  b  the original length rewritten to the size too (as the tool that made
     mlx-uccl-uc-write-imm-snapped.pcap did): the frame looks whole and
     only the IP / GRH / LRH length fields say otherwise; for ERF records
     the ERF record and wire lengths are rewritten the same way.
To keep to one tshark run per cut file, the frames of every capture of one
link type (Ethernet, ERF) go into one file per size and way, in DIR.
tshark_diff.compare() then holds every key field (tshark_diff.KEY_FIELDS
and the MAD/CM names of tshark-ib-key-fields.txt that ibwire prints) of
ibwire against tshark, line by line.  Link type 247 is left out: tshark
does not read it.

Not compared, and counted in the summary:
  - frames whose whole (uncut) form already differs from tshark: the
    malformed frames of pcaps/bad-*.pcap, where ibwire's decode departs
    from tshark's on purpose or tshark has its own quirks; cutting them
    is not what this test is about (at most --max-left-out of them, so
    that a regression on whole frames cannot hide here);
  - IPv4 fragments: tshark does not reassemble a first fragment that is
    cut short and decodes the UDP and InfiniBand in it, where ibwire
    (like tshark on the whole fragment) leaves a fragment undecoded.

Exit 0 when all agree, 1 when not, 77 (skip) when tshark or every capture
is missing.
"""
import argparse
import os
import shutil
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tshark_diff  # noqa: E402  (the differential machinery)

# The MAD and CM names of tshark-ib-key-fields.txt (MAD fields are absent
# from a cut MAD in both programs; they are here to keep it so).  The CM
# REQ words tshark reads from the wrong bits are not among them.
MAD_KEY_FIELDS = """
infiniband.mad.baseversion infiniband.mad.mgmtclass
infiniband.mad.classversion infiniband.mad.method infiniband.mad.status
infiniband.mad.classspecific infiniband.mad.transactionid
infiniband.mad.attributeid infiniband.mad.attributemodifier
infiniband.mad.data
infiniband.cm.req infiniband.cm.req.serviceid infiniband.cm.req.localqpn
infiniband.cm.req.startpsn infiniband.cm.req.pkey infiniband.cm.req.pppmtu
infiniband.cm.rep infiniband.cm.rep.remotecommid infiniband.cm.rep.localqpn
infiniband.cm.rep.startpsn infiniband.cm.rtu.localcommid
infiniband.cm.rtu.remotecommid infiniband.cm.rej.localcommid
infiniband.cm.rej.reason infiniband.cm.dreq.localcommid
infiniband.cm.dreq.remotecommid infiniband.cm.drsp.localcommid
infiniband.cm.drsp.remotecommid
""".split()

# rocev2-hw-rnic.pcap sends RoCEv2 from UDP port 69 (tshark-oracle.md).
TSHARK_ARGS = ["-d", "udp.port==69,infiniband"]

# Captures tshark misreads as a whole, left out of the sweep: the
# hls-roce-csim stack runs RC on QP numbers 0 and 1 (bug zoo 31c), and
# tshark decodes every payload sent to QP 0/1 as a MAD, so nearly all of
# their frames differ from ibwire whole, where the cut is not the question.
TSHARK_MISREADS = ("hls-roce-csim-",)

LINKTYPE_ETHERNET = 1
LINKTYPE_ERF = 197
ERF_HDR = 16


def read_pcap(path):
    """(linktype, [(sec, nsec, caplen-bytes, origlen)]) of a classic pcap,
    or None for anything else (pcapng)."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 24:
        return None
    magic = data[:4]
    for end in "<>":
        m = struct.unpack(end + "I", magic)[0]
        if m in (0xA1B2C3D4, 0xA1B23C4D):
            break
    else:
        return None
    nano = m == 0xA1B23C4D
    linktype = struct.unpack_from(end + "I", data, 20)[0] & 0xFFFF
    recs = []
    off = 24
    while off + 16 <= len(data):
        sec, frac, incl, orig = struct.unpack_from(end + "IIII", data, off)
        off += 16
        recs.append((sec, frac if nano else frac * 1000,
                     data[off:off + incl], orig))
        off += incl
    return linktype, recs


def cut_record(linktype, rec, size, way):
    """The record cut to `size` bytes (unchanged when it is not longer)."""
    sec, nsec, b, orig = rec
    if len(b) <= size:
        return rec
    c = bytearray(b[:size])
    if way == "a":
        return sec, nsec, bytes(c), orig
    if linktype == LINKTYPE_ERF and size >= ERF_HDR:
        # ERF: rlen (bytes 10-11) the record as written, wlen (14-15) the
        # frame as if nothing was missing (no extension headers here: the
        # type byte's top bit is clear in these captures)
        struct.pack_into(">H", c, 10, size)
        struct.pack_into(">H", c, 14, size - ERF_HDR)
    return sec, nsec, bytes(c), size


def ipv4_fragment(linktype, rec):
    """An Ethernet frame holding an IPv4 fragment (MF set or an offset)."""
    b = rec[2]
    if linktype != LINKTYPE_ETHERNET:
        return False
    off, et = 14, b[12:14]
    while et in (b"\x81\x00", b"\x88\xa8") and len(b) >= off + 4:
        et, off = b[off + 2:off + 4], off + 4
    if et != b"\x08\x00" or len(b) < off + 8:
        return False
    return (struct.unpack_from(">H", b, off + 6)[0] & 0x3FFF) != 0


def write_pcap(path, linktype, recs):
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B23C4D, 2, 4, 0, 0, 262144,
                            linktype))
        for sec, nsec, b, orig in recs:
            f.write(struct.pack("<IIII", sec, nsec, len(b), orig))
            f.write(b)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ibwire", required=True)
    ap.add_argument("--tshark", default=shutil.which("tshark"))
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--sizes", default="96,128,256")
    ap.add_argument("--max-left-out", type=int, default=None)
    ap.add_argument("dirs", nargs="+")
    a = ap.parse_args()
    if not a.tshark or not os.path.exists(a.tshark):
        print("tshark not installed: skipped")
        return 77

    by_link = {LINKTYPE_ETHERNET: [], LINKTYPE_ERF: []}
    files = 0
    for d in a.dirs:
        if not os.path.isdir(d):
            print(f"{d} absent: its captures skipped")
            continue
        for fn in sorted(os.listdir(d)):
            if not fn.endswith(".pcap"):
                continue
            if fn.startswith(TSHARK_MISREADS):
                print(f"{fn}: left out (tshark decodes RC payload to QP 0/1 "
                      f"as MADs)")
                continue
            r = read_pcap(os.path.join(d, fn))
            if r is None or r[0] not in by_link:
                continue
            by_link[r[0]] += r[1]
            files += 1
    if files == 0:
        print("no captures: skipped")
        return 77

    listed = set()
    rc, out, _ = tshark_diff.run([a.ibwire, "dump", "--list-fields"])
    for line in out.splitlines():
        if line.split():
            listed.add(line.split()[0])
    fields = [f for f in tshark_diff.KEY_FIELDS + MAD_KEY_FIELDS
              if f in listed]
    missing = [f for f in MAD_KEY_FIELDS if f not in listed]
    if missing:
        print("not printed by ibwire, not compared: " + " ".join(missing))

    os.makedirs(a.workdir, exist_ok=True)
    t0 = time.time()
    bad = 0
    total = 0
    # the frames left out (numbered from 1 in each link type's file)
    skip = {}
    left_out = 0
    for lt, recs in by_link.items():
        if not recs:
            continue
        path = os.path.join(a.workdir, f"whole-{lt}.pcap")
        write_pcap(path, lt, recs)
        differing = set()
        tshark_diff.compare(a.ibwire, a.tshark, path, fields, ["data.data"],
                            TSHARK_ARGS, show=0, differing=differing)
        frags = {n for n, r in enumerate(recs, 1) if ipv4_fragment(lt, r)}
        skip[lt] = differing | frags
        left_out += len(differing)
        print(f"{os.path.basename(path)}: {len(recs)} frames; left out: "
              f"{len(differing)} that differ from tshark whole, "
              f"{len(frags - differing)} IPv4 fragments")
    for size in [int(s) for s in a.sizes.split(",")]:
        for way in "ab":
            for lt, recs in by_link.items():
                if not recs:
                    continue
                cut = [cut_record(lt, r, size, way) for r in recs]
                ncut = sum(1 for n, (r, c) in enumerate(zip(recs, cut), 1)
                           if r is not c and n not in skip[lt])
                path = os.path.join(a.workdir, f"cut-{lt}-{size}{way}.pcap")
                write_pcap(path, lt, cut)
                lines, compared, diffs = tshark_diff.compare(
                    a.ibwire, a.tshark, path, fields, ["data.data"],
                    TSHARK_ARGS, show=20, skip=skip[lt])
                print(f"{os.path.basename(path)}: {lines} frames ({ncut} "
                      f"cut and compared), {compared} values compared, "
                      f"{diffs} differ")
                total += compared
                bad += diffs
    print(f"{files} captures, {total} values compared, {bad} differ, "
          f"{time.time() - t0:.1f} s")
    if a.max_left_out is not None and left_out > a.max_left_out:
        print(f"{left_out} whole frames differ from tshark, more than the "
              f"{a.max_left_out} known")
        bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
