#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Re-encapsulate every frame of an Ethernet capture the way a capture
point in the field records it.

The outer headers are written here byte by byte from their specifications
(not with ibwire, not with scapy), so that a test reading the result with
ibwire checks ibwire's decapsulation against these RFC layouts, and with
tshark against Wireshark's:

  sll      Linux cooked capture v1 (link type 113): pkttype, ARPHRD_ETHER,
           address length 6, source MAC padded to 8, the frame's EtherType,
           the bytes after it (VLAN tags kept)
  sll2     Linux cooked capture v2 (link type 276): EtherType, reserved,
           interface index (2 or 3 by direction), ARPHRD_ETHER, pkttype,
           6, source MAC; VLAN tags taken off as the kernel does
  erspan2  Ethernet / IPv4 / GRE with sequence number (RFC 2890) / ERSPAN
           type II (draft-foschiano-erspan-03 4.1), session 7 / the frame
           with an 802.1Q tag added inside
  erspan3  Ethernet / IPv6 / GRE with key and sequence number / ERSPAN
           type III (4.2) with the frame's time in 100 ns units (gra 1) /
           the frame
  gre      Ethernet with an 802.1ad + 802.1Q stack / IPv4 / GRE with key /
           0x6558 transparent Ethernet bridging / the frame
  greip    Ethernet / IPv6 / GRE / the frame's IP packet (0x0800/0x86DD)
  vxlan    Ethernet / IPv4 / UDP 4789 / VXLAN VNI 5001 (RFC 7348) / the
           frame with an 802.1ad + 802.1Q stack added inside
  geneve   Ethernet / IPv6 / UDP 6081 / Geneve VNI 77 with two options
           (RFC 8926) / the frame
  mpls     Ethernet 0x8847 / two labels (RFC 3032) / the frame's IP packet
  mplsip   Ethernet / IPv4 / GRE 0x8847 / one label / the IP packet
  erspan3coarse  erspan3 from a collector whose clock counts whole
           microseconds: the record's time is the µs floor of the time
           precise_time() gives the frame (within 1 µs of the original, on
           a 100 ns grid), the ERSPAN timestamp that time in 100 ns units
  erspan3fine  erspan3 with the record at precise_time() to the ns and an
           ERSPAN timestamp 5 µs off: the finer record clock is kept
  erspan2x2  erspan2 from two mirror sessions, one a direction: session
           7 + direction() (by the MAC addresses' order)
  vxlanx2  vxlan with VNI 5001 + direction()
  eompls   Ethernet 0x8847 / one label / the Ethernet pseudowire control
           word (RFC 4448 4.6, sequence number 1, 2, ...) / the frame
  eomplsnocw  Ethernet 0x8847 / two labels / the frame, no control word
           (RFC 4448 allows either)

Frames that are not IP stay as they are in the forms that carry IP alone
(greip, mpls, mplsip, sll2 for non-IP frames): a tunnel of IP carries no
ARP.  A frame the original capture cut keeps its cut: the outer lengths say
the whole frame, the record holds what was captured of it.

--mirror writes the mirror capture of the CAP tests instead: ERSPAN II, each
frame mirrored twice (two mirrored ports, 2 us apart), every frame longer
than 200 bytes cut to 128 bytes by the mirror (ERSPAN T bit, outer lengths
of the cut frame).

--any writes what `tcpdump -i any` records on a host whose RoCE port is in
a bridge: SLL2, each frame twice, on the port (interface index 4) and 1 us
later on the bridge (index 5).  --any-same: the same with both copies on
index 4 (a device sending each packet twice, not a capture artefact).

usage: encap_gen.py FORM IN.pcap OUT.pcap
       encap_gen.py --mirror IN.pcap OUT.pcap
       encap_gen.py --any IN.pcap OUT.pcap
       encap_gen.py --any-same IN.pcap OUT.pcap
"""
import struct
import sys


def read_pcap(path):
    with open(path, "rb") as f:
        data = f.read()
    magic = data[:4]
    if magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1"):
        end = "<"
    elif magic in (b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d"):
        end = ">"
    else:
        raise SystemExit(f"{path}: not a classic pcap file")
    nano = magic in (b"\x4d\x3c\xb2\xa1", b"\xa1\xb2\x3c\x4d")
    linktype = struct.unpack(end + "I", data[20:24])[0]
    recs = []
    off = 24
    while off + 16 <= len(data):
        sec, frac, incl, orig = struct.unpack(end + "IIII", data[off:off + 16])
        off += 16
        ns = frac if nano else frac * 1000
        recs.append((sec, ns, data[off:off + incl], orig))
        off += incl
    return linktype, recs


def write_pcap(path, linktype, recs):
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B23C4D, 2, 4, 0, 0, 262144,
                            linktype))
        for sec, ns, data, orig in recs:
            f.write(struct.pack("<IIII", sec, ns, len(data), orig))
            f.write(data)


def csum(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


OUT_SRC = bytes.fromhex("02aa00000001")
OUT_DST = bytes.fromhex("02aa00000002")


def ipv4(proto, payload_len, ident):
    """RFC 791 header, 20 bytes, checksum filled (collector 192.0.2.x)."""
    h = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + payload_len, ident & 0xFFFF,
                    0x4000, 64, proto, 0, bytes([192, 0, 2, 1]),
                    bytes([192, 0, 2, 99]))
    return h[:10] + struct.pack("!H", csum(h)) + h[12:]


def ipv6(nxt, payload_len):
    """RFC 8200 header (documentation prefix 2001:db8::/32)."""
    src = bytes.fromhex("20010db8000000000000000000000001")
    dst = bytes.fromhex("20010db8000000000000000000000063")
    return struct.pack("!IHBB16s16s", 0x60000000, payload_len, nxt, 64, src,
                       dst)


def udp(sport, dport, payload_len):
    return struct.pack("!HHHH", sport, dport, 8 + payload_len, 0)


def gre(proto, key=None, seq=None):
    """RFC 2784 / 2890: flags K (0x2000) and S (0x1000), version 0."""
    flags = (0x2000 if key is not None else 0) | \
        (0x1000 if seq is not None else 0)
    h = struct.pack("!HH", flags, proto)
    if key is not None:
        h += struct.pack("!I", key)
    if seq is not None:
        h += struct.pack("!I", seq)
    return h


def erspan2(session, truncated=False, vlan=0):
    """Ver 1, VLAN, COS 0, En 0, T, session ID; reserved, index."""
    w0 = (1 << 28) | (vlan << 16) | ((1 if truncated else 0) << 10) | session
    return struct.pack("!II", w0, 3)


def erspan3(session, ts100ns):
    """Ver 2, VLAN 0, COS 0, BSO 0, T 0, session; timestamp; SGT 0,
    P 0, FT 0 (Ethernet), HW ID 1, D 0, Gra 1 (100 ns), O 0."""
    w0 = (2 << 28) | session
    w2 = (1 << 4) | (1 << 1)
    return struct.pack("!IIHH", w0, ts100ns & 0xFFFFFFFF, 0, w2)


def vxlan(vni):
    return struct.pack("!II", 0x08000000, vni << 8)


def geneve(vni, proto):
    """Two options: class 0x0103 type 0x01 one word; class 0xffff type
    0x02, two words (RFC 8926 3.5); opt len in 4-byte words."""
    opts = struct.pack("!HBB", 0x0103, 0x01, 1) + b"\x11\x22\x33\x44"
    opts += struct.pack("!HBB", 0xFFFF, 0x02, 2) + bytes(range(8))
    ver_optlen = len(opts) // 4
    return struct.pack("!BBHI", ver_optlen, 0, proto, vni << 8) + opts


def mpls(labels):
    out = b""
    for i, lab in enumerate(labels):
        bottom = 1 if i == len(labels) - 1 else 0
        out += struct.pack("!I", (lab << 12) | (bottom << 8) | 63)
    return out


def eth(ethertype, tags=()):
    h = OUT_DST + OUT_SRC
    for tpid, vid in tags:
        h += struct.pack("!HH", tpid, vid)
    return h + struct.pack("!H", ethertype)


def ethertype_and_tags(frame):
    """The frame's VLAN tags (TPID, TCI) and the EtherType after them."""
    off, tags = 12, []
    while off + 4 <= len(frame):
        et = struct.unpack("!H", frame[off:off + 2])[0]
        if et in (0x8100, 0x88A8) and off + 6 <= len(frame):
            tags.append(frame[off:off + 4])
            off += 4
            continue
        return et, off + 2
    return None, len(frame)


def add_tags(frame, tags):
    h = b"".join(struct.pack("!HH", tpid, vid) for tpid, vid in tags)
    return frame[:12] + h + frame[12:]


def precise_time(idx, sec, ns):
    """The time, in ns since the epoch, the erspan3coarse and erspan3fine
    forms give frame idx: its original time to the whole microsecond, plus
    idx * 300 ns modulo 1 us (a 100 ns grid, as ERSPAN's gra 1)."""
    return (sec * 1000000000 + ns) // 1000 * 1000 + (idx * 300) % 1000


def direction(frame):
    return 0 if frame[6:12] < frame[0:6] else 1


def encap(form, idx, sec, ns, frame, orig):
    """(record bytes, original length) of one frame in `form`."""
    cut = orig - len(frame)           # bytes the capture did not keep
    et, l3 = ethertype_and_tags(frame)
    is_ip = et in (0x0800, 0x86DD)
    if form == "sll":
        pkttype = 4 if direction(frame) else 0
        h = struct.pack("!HHH", pkttype, 1, 6) + frame[6:12] + b"\0\0"
        return h + frame[12:], orig - 12 + 16
    if form == "sll2":
        if et is None:
            return None
        pkttype = 4 if direction(frame) else 0
        h = struct.pack("!HHIHBB", et, 0, 2 + direction(frame), 1, pkttype,
                        6) + frame[6:12] + b"\0\0"
        return h + frame[l3:], orig - l3 + 20
    if form in ("greip", "mpls", "mplsip") and not is_ip:
        return frame, orig                    # a tunnel of IP carries no ARP
    if form in ("erspan2", "erspan2x2"):
        inner = add_tags(frame, [(0x8100, 0x2000 | 100)])
        session = 7 + (direction(frame) if form == "erspan2x2" else 0)
        g = gre(0x88BE, seq=idx) + erspan2(session)
        ip = ipv4(47, len(g) + len(inner) + cut, idx)
        return eth(0x0800) + ip + g + inner, None
    if form in ("erspan3", "erspan3coarse", "erspan3fine"):
        ts = (sec * 1000000000 + ns) // 100
        if form != "erspan3":
            ts = precise_time(idx, sec, ns) // 100
        if form == "erspan3fine":
            ts += 50
        g = gre(0x22EB, key=0x1234, seq=idx) + erspan3(9, ts)
        ip = ipv6(47, len(g) + len(frame) + cut)
        return eth(0x86DD) + ip + g + frame, None
    if form == "gre":
        g = gre(0x6558, key=42)
        ip = ipv4(47, len(g) + len(frame) + cut, idx)
        return eth(0x0800, [(0x88A8, 10), (0x8100, 20)]) + ip + g + frame, None
    if form == "greip":
        payload = frame[l3:]
        g = gre(et)
        ip = ipv6(47, len(g) + len(payload) + cut)
        return eth(0x86DD) + ip + g + payload, None
    if form in ("vxlan", "vxlanx2"):
        inner = add_tags(frame, [(0x88A8, 0x0005), (0x8100, 0x6007)])
        vni = 5001 + (direction(frame) if form == "vxlanx2" else 0)
        body = vxlan(vni) + inner
        u = udp(49152 + idx % 1000, 4789, len(body) + cut)
        ip = ipv4(17, len(u) + len(body) + cut, idx)
        return eth(0x0800) + ip + u + body, None
    if form == "geneve":
        body = geneve(77, 0x6558) + frame
        u = udp(50000 + idx % 1000, 6081, len(body) + cut)
        ip = ipv6(17, len(u) + len(body) + cut)
        return eth(0x86DD) + ip + u + body, None
    if form == "mpls":
        return eth(0x8847) + mpls([16001, 24005]) + frame[l3:], None
    if form == "eompls":
        cw = struct.pack("!HH", 0, idx % 0xFFFF + 1)
        return eth(0x8847) + mpls([299776]) + cw + frame, None
    if form == "eomplsnocw":
        return eth(0x8847) + mpls([16002, 24006]) + frame, None
    if form == "mplsip":
        payload = mpls([30000]) + frame[l3:]
        g = gre(0x8847)
        ip = ipv4(47, len(g) + len(payload) + cut, idx)
        return eth(0x0800) + ip + g + payload, None
    raise SystemExit(f"unknown form {form}")


LINKTYPES = {"sll": 113, "sll2": 276}


def main():
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    form, src, dst = sys.argv[1:]
    linktype, recs = read_pcap(src)
    if linktype != 1:
        raise SystemExit(f"{src}: link type {linktype}, not Ethernet")
    out = []
    if form == "--mirror":
        for i, (sec, ns, frame, orig) in enumerate(recs):
            trunc = len(frame) > 200
            if trunc:
                frame = frame[:128]
            for port, delay in ((0, 0), (1, 2000)):
                g = gre(0x88BE, seq=2 * i + port) + erspan2(7, trunc)
                ip = ipv4(47, len(g) + len(frame), 2 * i + port)
                rec = eth(0x0800) + ip + g + frame
                t = ns + delay
                out.append((sec + t // 1000000000, t % 1000000000, rec,
                            len(rec)))
        # a collector stamps on arrival: its file is in time order
        out.sort(key=lambda r: (r[0], r[1]))
        write_pcap(dst, 1, out)
        return
    if form in ("--any", "--any-same"):
        for i, (sec, ns, frame, orig) in enumerate(recs):
            r = encap("sll2", i, sec, ns, frame, orig)
            if r is None:
                continue
            rec, rorig = r
            for ifindex, delay in ((4, 0), (5 if form == "--any" else 4,
                                             1000)):
                rec = rec[:4] + struct.pack("!I", ifindex) + rec[8:]
                t = ns + delay
                out.append((sec + t // 1000000000, t % 1000000000, rec,
                            rorig))
        out.sort(key=lambda r: (r[0], r[1]))
        write_pcap(dst, 276, out)
        return
    for i, (sec, ns, frame, orig) in enumerate(recs):
        r = encap(form, i, sec, ns, frame, orig)
        if r is None:
            continue
        rec, rorig = r
        if rorig is None:
            rorig = len(rec) + (orig - len(frame))
        if form in ("erspan3coarse", "erspan3fine"):
            t = precise_time(i, sec, ns)
            if form == "erspan3coarse":
                t -= t % 1000
            sec, ns = divmod(t, 1000000000)
        out.append((sec, ns, rec, rorig))
    write_pcap(dst, LINKTYPES.get(form, 1), out)


if __name__ == "__main__":
    main()
