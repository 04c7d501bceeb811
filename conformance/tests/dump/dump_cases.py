#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`ibwire dump` on packets tshark cannot judge, and on bad input.

usage: dump_cases.py IBWIRE_BINARY

The packets are spelled out byte by byte below (header by header, with the
field values in the comments); the CRCs come from this file's own model of
the IBA rules (zlib's CRC-32 over the masked invariant fields, the VCRC as a
bitwise CRC-16), written from tshark-oracle.md, not from ibwire's code.  The
captures are written by this file too, so ibwire's reader meets a writer
other than its own.  The expected `-T fields` lines are literal.

Also: missing, empty, garbage and truncated files, an unsupported link type,
frames cut short at capture: the message names the file (and frame), the
exit status is 2 for unreadable files and 0 when the file was read.
"""
import json
import os
import struct
import subprocess
import sys
import tempfile
import zlib

IBWIRE = sys.argv[1]
failures = 0


def fail(msg):
    global failures
    failures += 1
    print("FAIL:", msg)


# ---- CRC model (tshark-oracle.md, "ICRC facts") -------------------------

def icrc_rocev2_ipv4(ip_to_end):
    """ICRC of a RoCEv2/IPv4 packet given from the IP header to the byte
    before the ICRC: 8 bytes of ones for the missing LRH, IP TOS, TTL and
    checksum as ones, UDP checksum as ones, BTH byte 4 as ones."""
    b = bytearray(ip_to_end)
    b[1] = 0xFF
    b[8] = 0xFF
    b[10:12] = b"\xff\xff"
    b[20 + 6:20 + 8] = b"\xff\xff"
    b[28 + 4] = 0xFF
    return struct.pack("<I", zlib.crc32(b"\xff" * 8 + bytes(b)))


def icrc_ib_local(lrh_to_end):
    """ICRC of a native packet without GRH: LRH VL as ones, BTH byte 4 as
    ones."""
    b = bytearray(lrh_to_end)
    b[0] |= 0xF0
    b[8 + 4] = 0xFF
    return struct.pack("<I", zlib.crc32(bytes(b)))


def vcrc(lrh_to_icrc):
    """CRC-16, polynomial 0x100B reflected (0xD008), initial 0xFFFF, final
    XOR 0xFFFF, least significant byte first."""
    c = 0xFFFF
    for byte in lrh_to_icrc:
        c ^= byte
        for _ in range(8):
            c = (c >> 1) ^ 0xD008 if c & 1 else c >> 1
    return struct.pack("<H", c ^ 0xFFFF)


def ipv4_checksum(h):
    s = sum(struct.unpack(">10H", h[:10] + b"\0\0" + h[12:20]))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return struct.pack(">H", ~s & 0xFFFF)


# ---- packets ------------------------------------------------------------

ETH = bytes.fromhex("020000000002" "020000000001" "0800")


def rocev2(transport, bad_icrc=False, dport=4791):
    """Ethernet + IPv4 (192.0.2.1 -> 192.0.2.2, id 1, DF, TTL 64) + UDP
    (49152 -> dport, checksum 0) + the transport bytes + ICRC."""
    udp_len = 8 + len(transport) + (4 if dport == 4791 else 0)
    ip = bytearray(bytes.fromhex("4500") + struct.pack(">H", 20 + udp_len) +
                   bytes.fromhex("00014000" "4011" "0000" "c0000201"
                                 "c0000202"))
    ip[10:12] = ipv4_checksum(bytes(ip))
    udp = struct.pack(">HHHH", 49152, dport, udp_len, 0)
    body = bytes(ip) + udp + transport
    if dport != 4791:
        return ETH + body
    crc = icrc_rocev2_ipv4(body)
    if bad_icrc:
        crc = bytes(x ^ 0xFF for x in crc)
    return ETH + body + crc


def native(lrh_bth_rest, bad_vcrc=False):
    """LRH .. last byte before the ICRC, then ICRC and VCRC."""
    pkt = lrh_bth_rest + icrc_ib_local(lrh_bth_rest)
    v = vcrc(pkt)
    if bad_vcrc:
        v = bytes(x ^ 0xFF for x in v)
    return pkt + v


def bth(opcode, byte1, destqp, byte8, psn, byte4=0):
    return (bytes([opcode, byte1]) + b"\xff\xff" + bytes([byte4]) +
            destqp.to_bytes(3, "big") + bytes([byte8]) + psn.to_bytes(3, "big"))


ETH_PACKETS = [
    # 1 CNP: BTH opcode 0x81, BECN set (byte 4 = 0x40), DestQP 0x11, then 16
    #   reserved zero bytes.
    rocev2(bth(0x81, 0x00, 0x11, 0x00, 0, byte4=0x40) + bytes(16)),
    # 2 XRC SEND ONLY: AckReq, PSN 5; XRCETH SRQ 0x000123; payload "abcd".
    rocev2(bth(0xA4, 0x00, 0x12, 0x80, 5) + bytes.fromhex("00000123") +
           b"abcd"),
    # 3 RD SEND ONLY: PadCnt 2 (byte 1 = 0x20); RDETH EEcnxt 0x456; DETH
    #   Q_Key 0x11223344 SrcQP 0x789; payload "hi" + 2 pad bytes.
    rocev2(bth(0x44, 0x20, 0x13, 0x00, 7) + bytes.fromhex("00000456") +
           bytes.fromhex("1122334400000789") + b"hi\0\0"),
    # 4 RC FLUSH: FETH byte 3 = 0x12 (SEL 1, PLT 2); RETH VA 0x1000,
    #   R_Key 0x55, length 0.
    rocev2(bth(0x1C, 0x00, 0x14, 0x80, 8) + bytes.fromhex("00000012") +
           bytes.fromhex("0000000000001000" "00000055" "00000000")),
    # 5 RC SEND ONLY "wxyz" with every ICRC bit flipped.
    rocev2(bth(0x04, 0x00, 0x15, 0x00, 9) + b"wxyz", bad_icrc=True),
    # 6 RC ACKNOWLEDGE with PadCnt 3 (byte 1 = 0x30) but no payload; AETH
    #   syndrome 0 MSN 1.
    rocev2(bth(0x11, 0x30, 0x16, 0x00, 10) + bytes.fromhex("00000001")),
    # 7 the SEND ONLY of 5 with a good ICRC, cut to 40 bytes at capture.
    rocev2(bth(0x04, 0x00, 0x15, 0x00, 9) + b"wxyz"),
    # 8 RC ATOMIC WRITE: RETH VA 0x2000, R_Key 0x66, length 8; 8 bytes.
    rocev2(bth(0x1D, 0x00, 0x17, 0x80, 11) +
           bytes.fromhex("0000000000002000" "00000066" "00000008") +
           bytes(range(1, 9))),
    # 9 plain UDP to port 53: no IBA transport.
    rocev2(b"dns?", dport=53),
    # 10 opcode 0x1E, reserved in the RC range.
    rocev2(bth(0x1E, 0x00, 0x18, 0x00, 12)),
]
CUT_FRAME = 7
CUT_TO = 40

# LRH: VL 0, LVer 0 | SL 0, LNH 2 (BTH) | DLID 1 | PktLen 7 words | SLID 2.
# 7 words = LRH 8 + BTH 12 + payload 4 + ICRC 4.
LRH7 = bytes.fromhex("0002" "0001" "0007" "0002")
IB_PACKETS = [
    # 11 RC SEND ONLY "ABCD", good ICRC and VCRC.
    native(LRH7 + bth(0x04, 0x00, 0x20, 0x00, 1) + b"ABCD"),
    # 12 the same with every VCRC bit flipped.
    native(LRH7 + bth(0x04, 0x00, 0x20, 0x00, 1) + b"ABCD", bad_vcrc=True),
    # 13 opcode 0xC0 (reserved range) with 4 bytes after the BTH.
    native(LRH7 + bth(0xC0, 0x00, 0x21, 0x00, 2) + b"WXYZ"),
]

FIELDS = ["frame.number", "ibwire.transport", "infiniband.bth.opcode",
          "ibwire.opcode.name", "infiniband.vendor",
          "infiniband.rdeth.eecnxt", "infiniband.deth.q_key",
          "infiniband.deth.srcqp", "data.data", "infiniband.invariant.crc",
          "infiniband.variant.crc", "ibwire.xrceth.xrcsrq", "ibwire.feth.sel",
          "ibwire.feth.plt", "ibwire.bth.becn", "ibwire.icrc.status",
          "ibwire.vcrc.status", "ibwire.error"]

# What ibwire must print, column by column in FIELDS order.  Opcodes tshark
# does not know (CNP, XRC, FLUSH, ATOMIC WRITE, reserved) show their bytes
# after the BTH as infiniband.vendor: the first 4, then all of them (ICRC
# and VCRC included), and no CRC column; RD shows ibwire's own decode.
EXPECT_ETH = """\
1	rocev2-ipv4	129	CNP	00000000,000000000000000000000000000000006ab8637f										1	good	absent	
2	rocev2-ipv4	164	XRC SEND ONLY	00000123,0000012361626364cf38fb39							0x000123			0	good	absent	
3	rocev2-ipv4	68	RD SEND ONLY		1110	0x0000000011223344	0x00000789	68690000	0x45056c56					0	good	absent	
4	rocev2-ipv4	28	RC FLUSH	00000012,00000012000000000000100000000055000000003b8061c7								1	2	0	good	absent	
5	rocev2-ipv4	4	RC SEND ONLY					7778797a	0xfb074140					0	bad	absent	
6	rocev2-ipv4	17	RC ACKNOWLEDGE						0x8e376a04					0	good	absent	bth.padcnt: pad count exceeds payload
7	none														absent	absent	
8	rocev2-ipv4	29	RC ATOMIC WRITE	00000000,000000000000200000000066000000080102030405060708653e639f										0	good	absent	
9	none														absent	absent	
10	rocev2-ipv4	30	RC reserved	1646582b,1646582b										0	good	absent	bth.opcode: reserved or unknown opcode
"""
EXPECT_IB = """\
1	ib-local	4	RC SEND ONLY					41424344	0xfc02db00	0x6f0f				0	good	good	
2	ib-local	4	RC SEND ONLY					41424344	0xfc02db00	0x90f0				0	good	bad	
3	ib-local	192	reserved	5758595a,5758595abbd253d83f50										0	good	good	bth.opcode: reserved or unknown opcode
"""


def pcap(path, linktype, frames, cut=None):
    """Classic microsecond pcap, little-endian; frame `cut` (1-based) is
    stored with only CUT_TO bytes."""
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535,
                            linktype))
        for i, p in enumerate(frames, 1):
            data = p[:CUT_TO] if i == cut else p
            f.write(struct.pack("<IIII", 1000 + i, 0, len(data), len(p)))
            f.write(data)


def dump(args):
    p = subprocess.run([IBWIRE, "dump"] + args, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, check=False)
    return (p.returncode, p.stdout.decode("utf-8", "replace"),
            p.stderr.decode("utf-8", "replace"))


def compare(name, got, want):
    g, w = got.splitlines(), want.splitlines()
    if len(g) != len(w):
        fail(f"{name}: {len(g)} lines, want {len(w)}")
    for n, (x, y) in enumerate(zip(g, w), 1):
        if x != y:
            xs, ys = x.split("\t"), y.split("\t")
            for fname, a, b in zip(FIELDS, xs, ys):
                if a != b:
                    fail(f"{name} frame {n} {fname}: got '{a}' want '{b}'")
            if len(xs) != len(ys):
                fail(f"{name} frame {n}: {len(xs)} columns, want {len(ys)}")


def field_cases(tmp):
    eth = os.path.join(tmp, "cases-eth.pcap")
    ib = os.path.join(tmp, "cases-ib.pcap")
    pcap(eth, 1, ETH_PACKETS, cut=CUT_FRAME)
    pcap(ib, 247, IB_PACKETS)
    eargs = [x for f in FIELDS for x in ("-e", f)]
    for path, want, bad_frames in ((eth, EXPECT_ETH, [6, 10]),
                                   (ib, EXPECT_IB, [3])):
        rc, out, err = dump(["-T", "fields"] + eargs + [path])
        if rc != 0:
            fail(f"{path}: exit {rc}, want 0 (frame errors are no reason)")
        compare(os.path.basename(path), out, want)
        # each undecodable frame reported on stderr with file and number
        lines = err.splitlines()
        if len(lines) != len(bad_frames):
            fail(f"{path}: stderr has {len(lines)} lines, want "
                 f"{len(bad_frames)}: {err}")
        for line, n in zip(lines, bad_frames):
            if not line.startswith(f"ibwire dump: {path}: frame {n}: "):
                fail(f"stderr line '{line}' does not name frame {n}")
    return eth, ib


def view_cases(eth, ib):
    # -T json: one valid JSON object per frame, with the headers found.
    rc, out, _ = dump(["-T", "json", eth])
    objs = [json.loads(line) for line in out.splitlines()]
    if rc != 0 or len(objs) != len(ETH_PACKETS):
        fail(f"json: exit {rc}, {len(objs)} objects")
    else:
        names = [h["name"] for h in objs[1]["headers"]]
        if names != ["eth", "ipv4", "udp", "bth", "xrceth"]:
            fail(f"json frame 2 headers {names}")
        if objs[1]["headers"][4]["fields"]["xrcsrq"] != 0x123:
            fail("json frame 2 xrcsrq")
        if objs[4]["icrc"]["status"] != "bad":
            fail("json frame 5 icrc")
        if objs[5]["error"] != {"header": "bth", "field": "padcnt",
                                "message": "bth.padcnt: pad count exceeds "
                                           "payload"}:
            fail(f"json frame 6 error {objs[5].get('error')}")
    # -T json -e: the fields as strings
    rc, out, _ = dump(["-T", "json", "-e", "frame.number", "-e",
                       "infiniband.vendor", "-e", "ibwire.error", "-c", "1",
                       eth])
    if json.loads(out) != {"frame.number": "1", "infiniband.vendor": [
            "00000000", "000000000000000000000000000000006ab8637f"]}:
        fail(f"json -e: {out}")
    # -T text: the FLUSH frame shows every FETH and RETH field.
    rc, out, _ = dump(["-T", "text", ib])
    if rc != 0 or "vcrc         bad (carried 0xf090" not in out:
        fail(f"text: vcrc verdict missing: {out}")
    rc, out, _ = dump([eth])
    for want in ("  feth         resv=0x0000000 sel=1 plt=2\n",
                 "  reth         va=0x0000000000001000 rkey=0x00000055 "
                 "dmalen=0\n",
                 "  rdeth        resv=0 eecnxt=1110\n",
                 "  error        bth.padcnt: pad count exceeds payload\n",
                 "  cut short at capture: 40 of 62 bytes\n",
                 # 14 Ethernet + IPv4 Total Length 48 = 62
                 "  cut          40 of the 62 bytes the length fields say\n",
                 "  not IBA: no RoCE or InfiniBand transport\n"):
        if want not in out:
            fail(f"text view lacks {want!r}")
    if "  error        ipv4" in out:
        fail("text view: a frame cut at capture shown as an error")
    # The SEND ONLY cut after its BTH: payload "wxyz" is 4 bytes on the
    # wire, 2 of them captured (14 + 20 + 8 + 12 = 54 bytes of headers).
    cut56 = os.path.join(os.path.dirname(eth), "cut56.pcap")
    with open(cut56, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 56, 1))
        p7 = ETH_PACKETS[6]
        f.write(struct.pack("<IIII", 1, 0, 56, len(p7)) + p7[:56])
        # the same cut, the original length written as the cut one
        f.write(struct.pack("<IIII", 2, 0, 56, 56) + p7[:56])
    rc, out, err = dump([cut56])
    for want in ("  payload      2 of 4 bytes at offset 54\n",
                 "  icrc         unchecked (the frame is cut before its end)\n",
                 "  cut          56 of the 62 bytes the length fields say "
                 "(the file records no cut)\n"):
        if want not in out:
            fail(f"cut56 text view lacks {want!r}: {out}")
    if rc != 0 or err.count("\n") != 1 or \
            "1 frame (the first: frame 2) ends before its length fields" not in err:
        fail(f"cut56: exit {rc}, stderr {err!r}: want one line on frame 2")
    rc, out, _ = dump(["-T", "json", cut56])
    objs = [json.loads(line) for line in out.splitlines()]
    if [o.get("cut") for o in objs] != [
            {"captured": 56, "wire_len": 62, "recorded": True},
            {"captured": 56, "wire_len": 62, "recorded": False}] or \
            objs[0].get("payload") != {"offset": 54, "len": 4, "captured": 2} or \
            objs[0]["icrc"] != {"status": "unchecked"}:
        fail(f"cut56 json: {out}")


def bad_input_cases(tmp):
    def expect(args, code, *words):
        rc, out, err = dump(args)
        if rc != code:
            fail(f"{args}: exit {rc}, want {code}")
        for w in words:
            if w not in err:
                fail(f"{args}: stderr lacks '{w}': {err}")
        return out

    missing = os.path.join(tmp, "no-such.pcap")
    expect([missing], 2, "no-such.pcap", "No such file")
    empty = os.path.join(tmp, "empty.pcap")
    open(empty, "wb").close()
    expect([empty], 2, "empty.pcap", "empty")
    garbage = os.path.join(tmp, "garbage.pcap")
    with open(garbage, "wb") as f:
        f.write(b"\x7fELF" + bytes(range(200)))
    expect([garbage], 2, "garbage.pcap", "not a readable")
    wifi = os.path.join(tmp, "wifi.pcap")
    pcap(wifi, 105, [b"\x80\x00" + bytes(30)])
    expect([wifi], 2, "wifi.pcap", "link type 105")
    # damaged: the last record's data is cut off in the file itself
    damaged = os.path.join(tmp, "damaged.pcap")
    pcap(damaged, 1, ETH_PACKETS[:2])
    with open(damaged, "r+b") as f:
        f.truncate(os.path.getsize(damaged) - 10)
    out = expect(["-T", "fields", "-e", "frame.number", damaged], 2,
                 "damaged.pcap", "after frame 1")
    if out != "1\n":
        fail(f"damaged: printed {out!r}, want the one whole frame")
    # every frame cut short at capture: decoded as far as it goes, exit 0
    snap = os.path.join(tmp, "snap.pcap")
    with open(snap, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 40, 1))
        for i, p in enumerate(ETH_PACKETS, 1):
            f.write(struct.pack("<IIII", i, 0, min(40, len(p)), len(p)))
            f.write(p[:40])
    # (a cut is no error: nothing on stderr, the error column empty)
    rc, out, err = dump(["-T", "fields", "-e", "ibwire.truncated", "-e",
                         "ibwire.error", snap])
    if rc != 0 or err or out.splitlines() != ["1\t"] * len(ETH_PACKETS):
        fail(f"snap: exit {rc}, stderr {err!r}, out {out!r}")
    # bad arguments
    expect(["-T", "fields", missing], 2, "-e")
    expect(["-e", "no.such.field", missing], 2, "no.such.field")
    expect(["-T", "yaml", missing], 2, "yaml")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        eth, ib = field_cases(tmp)
        view_cases(eth, ib)
        bad_input_cases(tmp)
    print(f"dump_cases: {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
