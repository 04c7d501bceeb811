#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Seed inputs from capture files, written at build/run time, never committed
(the bundled captures are not ours to copy into the repository).

    fuzz/pcap_seeds.py OUTDIR CAPTURE_OR_DIR...
    fuzz/pcap_seeds.py --run HARNESS NAME OUTDIR CAPTURE_OR_DIR...

writes OUTDIR/packet/ (one input per frame: the packet harness's link
selector byte, then the frame from where ibw_parse starts), OUTDIR/mad/
(the MAD of each native-IB UD SEND ONLY frame), OUTDIR/check/ (each
capture's frames as one checker stream) and OUTDIR/capture/ (each capture
file whole).  Reads classic pcap (either byte
order, micro- or nanosecond magic) and pcapng (EPB, SPB).  Link types: 1
Ethernet, 247 InfiniBand from the LRH, 197 ERF records of type 21
(InfiniBand); frames of other links are skipped.  Missing paths are skipped,
so the same command works with or without ../shared/captures.

With --run, the harness (a replay build) then runs over OUTDIR/NAME: the
meson test that replays every captured frame.  Exit 77 (skip) when no
capture gave an input for NAME.
"""
import hashlib
import os
import shutil
import struct
import subprocess
import sys

# packet_fuzzer.c: bit 0 of the first byte picks the link.
SELECT_ETHERNET = 0x00
SELECT_IB = 0x01


def frames_pcap(data):
    magic = data[:4]
    if magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1"):
        e = "<"
    elif magic in (b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d"):
        e = ">"
    else:
        return
    linktype = struct.unpack(e + "I", data[20:24])[0] & 0x0FFFFFFF
    off = 24
    while off + 16 <= len(data):
        caplen = struct.unpack(e + "I", data[off + 8:off + 12])[0]
        off += 16
        yield linktype, data[off:off + caplen]
        off += caplen


def frames_pcapng(data):
    off = 0
    e = "<"
    links = []
    while off + 12 <= len(data):
        btype = struct.unpack(e + "I", data[off:off + 4])[0]
        if btype == 0x0A0D0D0A:
            e = "<" if data[off + 8:off + 12] == b"\x4d\x3c\x2b\x1a" else ">"
            btype = 0x0A0D0D0A
            links = []
        blen = struct.unpack(e + "I", data[off + 4:off + 8])[0]
        if blen < 12 or off + blen > len(data):
            return
        body = data[off + 8:off + blen - 4]
        if btype == 1:
            links.append(struct.unpack(e + "H", body[:2])[0])
        elif btype == 6 and len(body) >= 20:
            ifc, _, _, caplen = struct.unpack(e + "IIII", body[:16])
            if ifc < len(links):
                yield links[ifc], body[20:20 + caplen]
        elif btype == 3 and links:
            yield links[0], body[4:]
        off += blen


def iba_start(linktype, frame):
    """(selector, bytes from where ibw_parse starts) or None."""
    if linktype == 1:
        return SELECT_ETHERNET, frame
    if linktype == 247:
        return SELECT_IB, frame
    if linktype == 197 and len(frame) >= 16 and frame[8] & 0x7F == 21:
        off = 16
        ext = frame[8] & 0x80
        while ext and off + 8 <= len(frame):
            ext = frame[off] & 0x80
            off += 8
        return SELECT_IB, frame[off:]
    return None


def mad_of(selector, frame):
    """The 256-byte MAD a native-IB UD SEND ONLY frame carries, or None."""
    if selector != SELECT_IB or len(frame) < 8:
        return None
    lnh = frame[1] & 3
    bth = 8 if lnh == 2 else 48 if lnh == 3 else None
    if bth is None or len(frame) < bth + 12 + 8 + 256:
        return None
    if frame[bth] != 0x64:  # UD SEND ONLY: BTH, DETH, payload
        return None
    start = bth + 12 + 8
    return frame[start:start + 256]


def put(d, data):
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, hashlib.sha1(data).hexdigest()), "wb") as f:
        f.write(data)


def main(out, paths):
    files = []
    for p in paths:
        if os.path.isdir(p):
            files += [os.path.join(p, n) for n in sorted(os.listdir(p))
                      if n.endswith((".pcap", ".pcapng"))]
        elif os.path.isfile(p):
            files.append(p)
    nframes = 0
    for path in files:
        stream = bytearray([0])  # check_fuzzer: PMTU "learn", then frames
        with open(path, "rb") as f:
            data = f.read()
        reader = frames_pcapng if data[:4] == b"\x0a\x0d\x0d\x0a" else frames_pcap
        put(os.path.join(out, "capture"), data)
        for linktype, frame in reader(data):
            found = iba_start(linktype, frame)
            if found:
                put(os.path.join(out, "packet"), bytes([found[0]]) + found[1])
                nframes += 1
                if len(found[1]) < 0x10000:
                    stream += struct.pack("<HB", len(found[1]), found[0])
                    stream += found[1]
                mad = mad_of(*found)
                if mad:
                    # mad_fuzzer: selector 0x80 = whole-MAD decode
                    put(os.path.join(out, "mad"), b"\x80" + mad)
        if len(stream) > 1:
            put(os.path.join(out, "check"), bytes(stream))
    print(f"pcap_seeds: {len(files)} captures, {nframes} frames -> {out}")


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["--run"]:
        if len(args) < 5:
            sys.exit(__doc__)
        harness, name, out = args[1], args[2], args[3]
        shutil.rmtree(out, ignore_errors=True)
        main(out, args[4:])
        if not os.path.isdir(os.path.join(out, name)):
            print(f"pcap_seeds: no {name} inputs in these captures")
            sys.exit(77)
        sys.exit(subprocess.call([harness, os.path.join(out, name)]))
    if len(args) < 2:
        sys.exit(__doc__)
    main(args[0], args[1:])
