#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""capedit: edit captures the way capture points distort them.

A small pure-Python toolkit for the vantage-point tests (vantage_suite.py).
It reads classic pcap (either byte order, microsecond or nanosecond
timestamps, any link type; ERF (197) records are understood, link types 1,
247 and 252 are looked into for addresses) and writes classic pcap.  pcapng
input is refused: no bundled or shared capture is pcapng, so a reader for
it would be untested code.

It is deliberately independent of ibwire: the tests must compare ibwire's
verdicts with what was done to the file, so nothing here uses ibwire's
reader, parser or writer.

Operations (each returns a new Capture; frames keep their bytes unless said):
  cut(cap, n, keep_len)   every frame longer than n wire bytes keeps its first
                          n bytes.  keep_len=True: the record still says the
                          original length (caplen < len, as tcpdump -s n
                          writes).  keep_len=False: the original length is
                          rewritten to n as well (caplen = len, as the tool
                          that wrote mlx-uccl-uc-write-imm-snapped did); only
                          the packet's own length fields then tell.
  delay(cap, src, us)     every frame whose source address is src (see
                          source()) is recorded `us` microseconds later, and
                          the frames are stably re-sorted by time: what a
                          host-side capture does to one direction.
  remove(cap, numbers)    the frames numbered (from 1) are not in the file:
                          capture loss.
  late(cap, n, after, keep_ts)
                          frame n is recorded after frame `after` (n <
                          after).  keep_ts=True: it keeps its timestamp,
                          older than the frames now before it (what a veth
                          receiver's capture does to a frame delivered
                          late); keep_ts=False: it takes the timestamp of
                          frame `after`, so the file's timestamps still never
                          go back (reordering before the capture point).
  set_eth_src(cap, fn)    Ethernet frames (link type 1) whose fn(i, frame)
                          returns 6 bytes get them as their source address
                          (what a sniffer that writes a timestamp there
                          does, or a device with a bad source); None keeps
                          it.
  rdma(cap, i)            a light view of frame i's BTH (and AETH) for the
                          tests to choose frames with: source, destination,
                          opcode, PSN, dest QP, AckReq, AETH syndrome.
  cm(cap, i)              the CM message frame i carries (a MAD of class
                          0x07 to QP1): its attribute ID and where its data
                          starts, in wire bytes (for what a cut keeps).

Command line, for reproducing a failure by hand:
  capedit.py cut N keep|rewrite IN OUT
  capedit.py delay SRC US IN OUT          (SRC as printed by `sources`)
  capedit.py remove N[,N...] IN OUT
  capedit.py late N AFTER keep|restamp IN OUT
  capedit.py sources IN
"""
import struct
import sys

LT_ETHERNET, LT_ERF, LT_INFINIBAND, LT_EXPORTED_PDU = 1, 197, 247, 252
ERF_TYPE_INFINIBAND = 21
ERF_ETH_TYPES = (2, 10, 16, 19)

PCAP_MAGIC_USEC = 0xA1B2C3D4
PCAP_MAGIC_NSEC = 0xA1B23C4D


class Frame:
    __slots__ = ("ts_ns", "data", "origlen")

    def __init__(self, ts_ns, data, origlen):
        self.ts_ns = ts_ns      # capture time, ns since the epoch
        self.data = bytes(data)  # the record as stored (caplen bytes)
        self.origlen = origlen  # the record's original length field


class Capture:
    def __init__(self, endian, nsec, version, thiszone, sigfigs, snaplen,
                 linktype, frames):
        self.endian = endian      # "<" or ">", kept on write
        self.nsec = nsec          # timestamp resolution, kept on write
        self.version = version
        self.thiszone = thiszone
        self.sigfigs = sigfigs
        self.snaplen = snaplen
        self.linktype = linktype
        self.frames = frames

    def copy(self, frames):
        return Capture(self.endian, self.nsec, self.version, self.thiszone,
                       self.sigfigs, self.snaplen, self.linktype, frames)


def read(path):
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 24:
        raise ValueError("%s: too short for a pcap header" % path)
    if data[:4] == b"\x0a\x0d\x0d\x0a":
        raise ValueError("%s: pcapng is not read here" % path)
    for endian in "<>":
        magic = struct.unpack(endian + "I", data[:4])[0]
        if magic in (PCAP_MAGIC_USEC, PCAP_MAGIC_NSEC):
            break
    else:
        raise ValueError("%s: not a classic pcap file" % path)
    nsec = magic == PCAP_MAGIC_NSEC
    vmaj, vmin, zone, sig, snap, lt = struct.unpack(endian + "HHiIII", data[4:24])
    frames, off = [], 24
    while off < len(data):
        if off + 16 > len(data):
            raise ValueError("%s: record header cut at byte %d" % (path, off))
        sec, frac, incl, orig = struct.unpack(endian + "IIII", data[off:off + 16])
        if off + 16 + incl > len(data):
            raise ValueError("%s: record cut at byte %d" % (path, off))
        ts = sec * 1000000000 + (frac if nsec else frac * 1000)
        frames.append(Frame(ts, data[off + 16:off + 16 + incl], orig))
        off += 16 + incl
    return Capture(endian, nsec, (vmaj, vmin), zone, sig, snap, lt & 0xFFFF,
                   frames)


def write(cap, path):
    e = cap.endian
    out = [struct.pack(e + "IHHiIII", PCAP_MAGIC_NSEC if cap.nsec else PCAP_MAGIC_USEC,
                       cap.version[0], cap.version[1], cap.thiszone,
                       cap.sigfigs, cap.snaplen, cap.linktype)]
    for fr in cap.frames:
        sec, ns = divmod(fr.ts_ns, 1000000000)
        out.append(struct.pack(e + "IIII", sec, ns if cap.nsec else ns // 1000,
                               len(fr.data), fr.origlen))
        out.append(fr.data)
    with open(path, "wb") as f:
        f.write(b"".join(out))


# ---------------------------------------------------------------------------
# Where the wire frame starts in a record

def erf_header_len(rec):
    """ERF: 16 bytes, plus 8 per extension header (type bit 7 chains them)."""
    n = 16
    t = rec[8] if len(rec) > 8 else 0
    while t & 0x80 and n + 8 <= len(rec):
        t = rec[n]
        n += 8
    return n


def exported_pdu_len(rec):
    """Exported PDU: big-endian tag/length/value options up to tag 0."""
    off = 0
    while off + 4 <= len(rec):
        tag, ln = struct.unpack(">HH", rec[off:off + 4])
        off += 4
        if tag == 0:
            return off
        off += ln
    return len(rec)


def wrapper_len(linktype, rec):
    """Bytes in front of the wire frame in a record of this link type."""
    if linktype == LT_ERF:
        n = erf_header_len(rec)
        if len(rec) > 8 and (rec[8] & 0x7F) in ERF_ETH_TYPES:
            n += 2  # the Ethernet ERF types pad the frame by 2 bytes
        return n
    if linktype == LT_EXPORTED_PDU:
        return exported_pdu_len(rec)
    return 0


# ---------------------------------------------------------------------------
# Cut

def cut(cap, n, keep_len=True):
    """Every frame with more than n wire bytes keeps n.  The snap length
    counts wire bytes (from the Ethernet header or the LRH): an ERF header in
    front is kept whole and its lengths follow the cut (rlen the record, wlen
    the wire length kept or rewritten to n like the pcap original length)."""
    out = []
    for fr in cap.frames:
        w = wrapper_len(cap.linktype, fr.data)
        if len(fr.data) - w <= n:
            out.append(Frame(fr.ts_ns, fr.data, fr.origlen))
            continue
        rec = bytearray(fr.data[:w + n])
        orig = fr.origlen if keep_len else len(rec)
        if cap.linktype == LT_ERF:
            struct.pack_into(">H", rec, 10, len(rec))       # rlen
            if not keep_len:
                struct.pack_into(">H", rec, 14, n)          # wlen
        out.append(Frame(fr.ts_ns, rec, orig))
    return cap.copy(out)


# ---------------------------------------------------------------------------
# Addresses and the RDMA headers

def ntoa(kind, b):
    if kind == "ip4":
        return ".".join(str(x) for x in b)
    if kind == "lid":
        return "lid%d" % b
    return b.hex()


def _eth_l3(frame):
    """(ethertype, offset of the L3 header) past any VLAN tags."""
    if len(frame) < 14:
        return None, 0
    et, off = struct.unpack(">H", frame[12:14])[0], 14
    while et in (0x8100, 0x88A8) and off + 4 <= len(frame):
        et, off = struct.unpack(">H", frame[off + 2:off + 4])[0], off + 4
    return et, off


def _gid_addr(gid):
    """An IPv4-mapped GID ::ffff:a.b.c.d is the IPv4 endpoint a.b.c.d."""
    if gid[:10] == b"\0" * 10 and gid[10:12] == b"\xff\xff":
        return ("ip4", gid[12:16])
    return ("gid", gid)


def _locate(linktype, rec):
    """(src, dst, offset of BTH or None) of a record; src/dst are
    (kind, bytes-or-int) pairs, None when the frame has no address."""
    w = wrapper_len(linktype, rec)
    f = rec[w:]
    ib = linktype in (LT_INFINIBAND, LT_EXPORTED_PDU) or (
        linktype == LT_ERF and len(rec) > 8 and (rec[8] & 0x7F) == ERF_TYPE_INFINIBAND)
    if linktype == LT_ERF and not ib and not (
            len(rec) > 8 and (rec[8] & 0x7F) in ERF_ETH_TYPES):
        return None, None, None
    if ib:
        if len(f) < 8:
            return None, None, None
        dlid, slid = struct.unpack(">H", f[2:4])[0], struct.unpack(">H", f[6:8])[0]
        lnh = f[1] & 3
        if lnh == 2:
            bth = 8
        elif lnh == 3 and len(f) >= 48 and f[8 + 6] == 0x1B:
            bth = 48
        else:
            bth = None
        return ("lid", slid), ("lid", dlid), None if bth is None else w + bth
    et, off = _eth_l3(f)
    if et == 0x0800 and len(f) >= off + 20:
        ihl = (f[off] & 0x0F) * 4
        src, dst = ("ip4", f[off + 12:off + 16]), ("ip4", f[off + 16:off + 20])
        udp = off + ihl
        if (f[off + 9] == 17 and len(f) >= udp + 8 and
                struct.unpack(">H", f[udp + 2:udp + 4])[0] == 4791):
            return src, dst, w + udp + 8
        return src, dst, None
    if et == 0x86DD and len(f) >= off + 40:
        src, dst = _gid_addr(f[off + 8:off + 24]), _gid_addr(f[off + 24:off + 40])
        udp = off + 40
        if (f[off + 6] == 17 and len(f) >= udp + 8 and
                struct.unpack(">H", f[udp + 2:udp + 4])[0] == 4791):
            return src, dst, w + udp + 8
        return src, dst, None
    if et == 0x8915 and len(f) >= off + 40:  # RoCEv1: GRH
        return _gid_addr(f[off + 8:off + 24]), _gid_addr(f[off + 24:off + 40]), w + off + 40
    return None, None, None


def source(cap, fr):
    """The frame's source endpoint: ("ip4", bytes), ("gid", bytes) or
    ("lid", int); None for frames without one (ARP, ...)."""
    return _locate(cap.linktype, fr.data)[0]


def sources(cap):
    """Distinct source endpoints of frames that carry BTH, in order of
    first appearance."""
    seen = []
    for fr in cap.frames:
        s, _, bth = _locate(cap.linktype, fr.data)
        if s is not None and bth is not None and s not in seen:
            seen.append(s)
    return seen


# Opcodes (low five bits) that carry an AETH on RC.
AETH_OPS = {0x0D, 0x0F, 0x10, 0x11, 0x12}


def rdma(cap, i):
    """A dict view of frame i (0-based) or None if it has no BTH."""
    fr = cap.frames[i]
    src, dst, b = _locate(cap.linktype, fr.data)
    d = fr.data
    if b is None or len(d) < b + 12:
        return None
    v = {"src": src, "dst": dst, "opcode": d[b], "ackreq": d[b + 8] >> 7,
         "destqp": struct.unpack(">I", b"\0" + d[b + 5:b + 8])[0],
         "psn": struct.unpack(">I", b"\0" + d[b + 9:b + 12])[0],
         "syndrome": None, "msn": None}
    if d[b] >> 5 == 0 and (d[b] & 0x1F) in AETH_OPS and len(d) >= b + 16:
        v["syndrome"] = d[b + 12]
        v["msn"] = struct.unpack(">I", b"\0" + d[b + 13:b + 16])[0]
    return v


# The CM MAD (IBA Vol. 1 13.4.3, 12.6): after BTH (12 bytes), DETH (8)
# and, for SEND ONLY WITH IMMEDIATE, ImmDt (4); class at MAD byte 1,
# attribute ID at bytes 16-17, the message data from byte 24.
UD_SEND_ONLY, UD_SEND_ONLY_IMM = 0x64, 0x65
CM_CLASS = 0x07


def cm(cap, i):
    """A view of the CM message frame i (0-based) carries, or None: src,
    dst, attr (attribute ID), data (wire offset of the message data, byte 0
    of IBA's tables), d (the record) and w (its wrapper length)."""
    fr = cap.frames[i]
    src, dst, b = _locate(cap.linktype, fr.data)
    d = fr.data
    if b is None or len(d) < b + 12 or d[b] not in (UD_SEND_ONLY, UD_SEND_ONLY_IMM):
        return None
    if struct.unpack(">I", b"\0" + d[b + 5:b + 8])[0] != 1:
        return None
    mad = b + 12 + 8 + (4 if d[b] == UD_SEND_ONLY_IMM else 0)
    if len(d) < mad + 24 or d[mad + 1] != CM_CLASS:
        return None
    w = wrapper_len(cap.linktype, d)
    return {"src": src, "dst": dst, "attr": struct.unpack(">H", d[mad + 16:mad + 18])[0],
            "data": mad + 24 - w, "d": d, "w": w}


# ---------------------------------------------------------------------------
# Delay and removal

def _shift_erf_ts(rec, ns):
    """ERF records carry their own time (little-endian 32.32 seconds): move
    it with the pcap record time so both say the same."""
    rec = bytearray(rec)
    t = struct.unpack("<Q", rec[:8])[0]
    t += (ns << 32) // 1000000000
    struct.pack_into("<Q", rec, 0, t)
    return bytes(rec)


def delay(cap, src, us):
    ns = int(us * 1000)
    out = []
    for fr in cap.frames:
        if source(cap, fr) == src:
            data = fr.data
            if cap.linktype == LT_ERF and len(data) >= 16:
                data = _shift_erf_ts(data, ns)
            out.append(Frame(fr.ts_ns + ns, data, fr.origlen))
        else:
            out.append(Frame(fr.ts_ns, fr.data, fr.origlen))
    out.sort(key=lambda f: f.ts_ns)  # stable: equal times keep file order
    return cap.copy(out)


def remove(cap, numbers):
    gone = set(numbers)
    return cap.copy([fr for k, fr in enumerate(cap.frames) if k + 1 not in gone])


def late(cap, n, after, keep_ts=True):
    if not 1 <= n < after <= len(cap.frames):
        raise ValueError("late: need 1 <= n < after <= %d" % len(cap.frames))
    frames = list(cap.frames)
    moved = frames.pop(n - 1)
    if not keep_ts:
        ns = frames[after - 2].ts_ns - moved.ts_ns
        data = moved.data
        if cap.linktype == LT_ERF:
            data = _shift_erf_ts(data, ns)
        moved = Frame(frames[after - 2].ts_ns, data, moved.origlen)
    frames.insert(after - 1, moved)
    return cap.copy(frames)


def set_eth_src(cap, fn):
    if cap.linktype != LT_ETHERNET:
        raise ValueError("set_eth_src: link type %d is not Ethernet" % cap.linktype)
    out = []
    for i, fr in enumerate(cap.frames):
        mac = fn(i, fr) if len(fr.data) >= 12 else None
        data = fr.data if mac is None else fr.data[:6] + bytes(mac) + fr.data[12:]
        out.append(Frame(fr.ts_ns, data, fr.origlen))
    return cap.copy(out)


def _parse_src(text):
    if text.startswith("lid"):
        return ("lid", int(text[3:]))
    if text.count(".") == 3:
        return ("ip4", bytes(int(x) for x in text.split(".")))
    return ("gid", bytes.fromhex(text))


def main(argv):
    if len(argv) == 3 and argv[1] == "sources":
        for s in sources(read(argv[2])):
            print(ntoa(*s))
        return 0
    if len(argv) == 6 and argv[1] == "cut":
        write(cut(read(argv[4]), int(argv[2]), argv[3] == "keep"), argv[5])
        return 0
    if len(argv) == 6 and argv[1] == "delay":
        write(delay(read(argv[4]), _parse_src(argv[2]), float(argv[3])), argv[5])
        return 0
    if len(argv) == 7 and argv[1] == "late":
        write(late(read(argv[5]), int(argv[2]), int(argv[3]),
                   argv[4] == "keep"), argv[6])
        return 0
    if len(argv) == 5 and argv[1] == "remove":
        write(remove(read(argv[3]), [int(x) for x in argv[2].split(",")]), argv[4])
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
