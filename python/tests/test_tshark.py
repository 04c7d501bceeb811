# SPDX-License-Identifier: Apache-2.0
"""ibwire.parse() and read_capture() against tshark's reading of the same
frames: every frame of the bundled captures and of the real captures
(when present), the key fields of the dump differential, value by value.

tshark prints a field's occurrences joined by ','; numbers in decimal or
0x-hex as the field's base says, byte fields as hex digits, addresses in
their text form, times as seconds.nanoseconds.  Each tshark token is read
back into the type the package returns and compared with pkt.all(name).
"""
import os
import unittest

import support
import ibwire
from ibwire import _fields, _lib

import cut_sweep
import tshark_diff

# frame.number is the position in a file, which a frame parsed on its own
# cannot know.
FIELDS = [f for f in tshark_diff.KEY_FIELDS + cut_sweep.MAD_KEY_FIELDS
          if f != "frame.number"]
# tshark fills data.data for the payload of any protocol it does not know;
# ibwire only for IBA packets (as the dump differential compares it).
IBA_ONLY = {"data.data"}
# The malformed frames of pcaps/bad-*.pcap where ibwire's decode departs
# from tshark's on purpose (the dump cut sweep leaves the same 7 out).
MAX_KNOWN_DIFFERENT = 7
LINK_ERF = 197
LINK_INFINIBAND = 247


def from_tshark(token, ftype):
    if ftype == _lib.FT_BOOL and token in ("True", "False"):
        return int(token == "True")
    if ftype in (_lib.FT_UINT, _lib.FT_BOOL):
        return int(token, 0)
    if ftype == _lib.FT_TIME:
        sec, _, frac = token.partition(".")
        return int(sec) * 10**9 + int((frac + "000000000")[:9])
    if ftype == _lib.FT_BYTES:
        return bytes.fromhex(token.replace(":", ""))
    return token


def differences(pkt, row):
    """[(field, ours, tshark's)] where the frame's fields differ."""
    out = []
    iba = pkt["ibwire.transport"] not in (None, "none")
    for name, token in zip(FIELDS, row):
        if name in IBA_ONLY and not iba:
            continue
        ftype = _fields.field(name)[1]
        ours = pkt.all(name)
        theirs = [from_tshark(t, ftype) for t in token.split(",")] \
            if token != "" else []
        if ours != theirs:
            out.append((name, ours, token))
    return out


def tshark_cannot_read(path):
    """tshark 4.0 reads no pcap of link type 247."""
    first = next(iter(ibwire.read_capture(path)), None)
    return first is not None and first[0] == LINK_INFINIBAND


def erf_header_len(frame):
    """The ERF record header: 16 bytes, and 8 more for each extension
    header (the type byte's top bit says another follows)."""
    n = 16
    more = frame[8] & 0x80
    while more:
        more = frame[n] & 0x80
        n += 8
    return n


# Real captures tshark misreads as a whole: the hls-roce-csim stack runs RC
# on QP numbers 0 and 1 (bug zoo 31c), and tshark decodes every payload to
# QP 0/1 as a MAD.
TSHARK_MISREADS = ("hls-roce-csim-",)


@support.needs_tshark
class ParseVsTshark(unittest.TestCase):

    def compare_capture(self, path):
        """(frames compared, numbers of the frames that differ)."""
        if tshark_cannot_read(path):
            return 0, []
        rows = support.tshark_fields(path, FIELDS, cut_sweep.TSHARK_ARGS)
        frames = support.frames(path)
        self.assertEqual(len(frames), len(rows), "%s: frame count" % path)
        differing = []
        for n, ((link, ts, frame, orig), row) in enumerate(
                zip(frames, rows), 1):
            self.assertEqual(len(row), len(FIELDS))
            pkt = ibwire.parse(frame, link, ts, orig)
            diffs = differences(pkt, row)
            if diffs:
                differing.append(n)
                for name, ours, token in diffs[:5]:
                    print("%s frame %d %s: ibwire %r tshark %r" % (
                        os.path.basename(path), n, name, ours, token))
        return len(frames), differing

    def test_bundled(self):
        known = 0
        total = 0
        for path in support.bundled_captures():
            with self.subTest(capture=os.path.basename(path)):
                n, differing = self.compare_capture(path)
                total += n
                if os.path.basename(path).startswith("bad-"):
                    known += len(differing)
                else:
                    self.assertEqual(differing, [])
        self.assertGreater(total, 0)
        self.assertLessEqual(known, MAX_KNOWN_DIFFERENT,
                             "more malformed frames differ than known")

    def test_real(self):
        paths = support.real_captures()
        if not paths:
            self.skipTest("no real captures at %s" % support.CAPTURES)
        for path in paths:
            if os.path.basename(path).startswith(TSHARK_MISREADS):
                continue
            with self.subTest(capture=os.path.basename(path)):
                n, differing = self.compare_capture(path)
                self.assertEqual(differing, [])


@support.needs_tshark
class CaptureVsTshark(unittest.TestCase):
    """read_capture(): the same frames, lengths and times as tshark."""

    def test_lengths_and_times(self):
        """Frame count, captured and original lengths, times.  An ERF
        record comes as libpcap gives it, ERF header included and timed by
        the pcap record; tshark counts the packet after the header and
        times it by the ERF header: the two agree to the microsecond."""
        paths = [p for p in support.bundled_captures() +
                 support.real_captures() if not tshark_cannot_read(p)]
        for path in paths:
            with self.subTest(capture=os.path.basename(path)):
                rows = support.tshark_fields(
                    path, ["frame.cap_len", "frame.len", "frame.time_epoch"])
                got = []
                want = []
                for (link, ts, frame, orig), (c, w, t) in zip(
                        ibwire.read_capture(path), rows):
                    ns = from_tshark(t, _lib.FT_TIME)
                    if link == LINK_ERF:
                        hdr = erf_header_len(frame)
                        got.append((len(frame) - hdr, orig - hdr, ts // 1000))
                        want.append((int(c), int(w), ns // 1000))
                    else:
                        got.append((len(frame), orig, ts))
                        want.append((int(c), int(w), ns))
                self.assertEqual(len(got), len(rows))
                self.assertEqual(got, want)


if __name__ == "__main__":
    unittest.main()
