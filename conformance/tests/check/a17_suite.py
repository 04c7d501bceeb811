#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The RoCEv2 header rules of annex A17, against independent oracles.

  icrc IBWIRE WORK     RoCEv2 frames built here, byte by byte, with their
                       ICRCs computed by zlib.crc32 as A17.3.3 says (and the
                       known wrong ways: bug zoo rows 1, 2, 3, 31a): the
                       right one draws no finding, each wrong one a PKT-ICRC
                       whose message names the wrong computation
  tshark IBWIRE PCAPS  tshark decodes the fields the bundled a17 scenarios
                       bend: each frame the .expect names carries the bad
                       value in tshark's reading, and every other RoCEv2
                       frame of the capture the good one (skipped without
                       tshark)
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tally import check  # noqa: E402
import tally  # noqa: E402

SKIP = 77


def run(*args):
    p = subprocess.run(list(args), capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


# ---- frames by hand --------------------------------------------------------

def csum16(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def bth(opcode, pad, psn, destqp=0x22, fecn=0):
    return (bytes([opcode, (pad & 3) << 4]) + struct.pack("!H", 0xFFFF) +
            bytes([fecn << 7]) + destqp.to_bytes(3, "big") +
            bytes([0x80]) + psn.to_bytes(3, "big"))


def ipv4(l4len, tos=0x68, ttl=64):
    h = bytearray(struct.pack("!BBHHHBBH4s4s", 0x45, tos, 20 + l4len, 0,
                              0x4000, ttl, 17, 0, bytes([10, 0, 0, 1]),
                              bytes([10, 0, 0, 2])))
    h[10:12] = struct.pack("!H", csum16(bytes(h)))
    return bytes(h)


def ipv6(l4len, tc=0x68, flow=0x12345, hop=64):
    first = (6 << 28) | (tc << 20) | flow
    return (struct.pack("!IHBB", first, l4len, 17, hop) +
            bytes(15) + b"\1" + bytes(15) + b"\2")


def udp(l4len, csum=0, sport=0xC000):
    return struct.pack("!HHHH", sport, 4791, l4len, csum)


# What A17.3.3 masks: TOS (IPv4) / traffic class and flow label (IPv6), TTL /
# hop limit, the IPv4 checksum, the UDP checksum, BTH byte 4; 8 bytes of
# ones stand first for the LRH RoCEv2 has not.
def icrc(dgram, v6, bth_off, skip=(), pad_zero=0):
    b = bytearray(dgram)
    if v6:
        if "tos" not in skip:
            b[0] |= 0x0F
            b[1] = b[2] = b[3] = 0xFF
        if "ttl" not in skip:
            b[7] = 0xFF
        udp_off = 40
    elif "grh" in skip:
        b[0] |= 0x0F
        b[1] = b[2] = b[3] = b[7] = 0xFF
        udp_off = 20
    else:
        if "tos" not in skip:
            b[1] = 0xFF
        if "ttl" not in skip:
            b[8] = 0xFF
        if "ipcsum" not in skip:
            b[10] = b[11] = 0xFF
        udp_off = 20
    if "udpcsum" not in skip:
        b[udp_off + 6] = b[udp_off + 7] = 0xFF
    if "bth" not in skip:
        b[bth_off + 4] = 0xFF
    if pad_zero:
        b[len(b) - pad_zero:] = bytes(pad_zero)
    crc = 0 if "ones" in skip else zlib.crc32(b"\xff" * 8)
    return zlib.crc32(bytes(b), crc) & 0xFFFFFFFF


def frame(payload_len, psn, v6=False, opcode=0x04, icrc_fn=None, pad_bytes=None,
          udp_csum=0, extra=0):
    """A SEND ONLY (or opcode) of payload_len bytes at psn; icrc_fn(dgram,
    bth_off, pad) gives the ICRC to carry (default: the right one);
    extra bytes are appended after the datagram with the ICRC of all."""
    pad = (4 - payload_len % 4) % 4
    payload = bytes((i * 7 + 1) & 0xFF for i in range(payload_len))
    padb = pad_bytes if pad_bytes is not None else bytes(pad)
    body = bth(opcode, pad, psn) + payload + padb
    l4len = 8 + len(body) + 4
    ip = ipv6(l4len) if v6 else ipv4(l4len)
    dgram = ip + udp(l4len, udp_csum) + body
    bth_off = len(ip) + 8
    eth = bytes([2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1]) + \
        struct.pack("!H", 0x86DD if v6 else 0x0800)
    if extra:
        more = bytes(range(extra))
        whole = dgram + more
        return eth + whole + struct.pack("<I", icrc(whole, v6, bth_off))
    c = (icrc_fn or (lambda d, o, p: icrc(d, v6, o)))(dgram, bth_off, pad)
    return eth + dgram + struct.pack("<I", c)


def write_pcap(path, frames):
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        for i, fr in enumerate(frames):
            f.write(struct.pack("<IIII", 1700000000, i * 10, len(fr), len(fr)))
            f.write(fr)


def findings(ibwire, path):
    rc, out, err = run(ibwire, "check", "--format", "json", path)
    check(rc in (0, 1), "check %s: exit %d %s" % (path, rc, err))
    try:
        return json.loads(out)["files"][0]["findings"]
    except (ValueError, KeyError, IndexError):
        check(False, "json of " + path)
        return []


def mode_icrc(ibwire, work):
    os.makedirs(work, exist_ok=True)
    cases = []  # (frame bytes, rule -> phrase its message must hold, or None)

    def add(fr, want):
        cases.append((fr, want))
    # the right ICRC over IPv4 and IPv6, padded: the checker agrees
    add(frame(62, 0), None)
    add(frame(61, 1, v6=True), None)
    # zoo 1: the pad left out of the CRC
    add(frame(62, 2, icrc_fn=lambda d, o, p: icrc(d[:len(d) - p], False, o),
              pad_bytes=b"\xaa\xbb"),
        {"PKT-ICRC": "without its 2 pad bytes"})
    add(frame(61, 3, v6=True, icrc_fn=lambda d, o, p: icrc(d[:len(d) - p], True, o)),
        {"PKT-ICRC": "without its 3 pad bytes"})
    # zoo 2: the ICRC written at the payload's end, over the pad
    fr = bytearray(frame(62, 4))
    right = icrc(bytes(fr[14:-4]), False, 28, pad_zero=2)
    fr[-6:-2] = struct.pack("<I", right)
    fr[-2:] = b"\0\0"
    add(bytes(fr), {"PKT-ICRC": "stands 2 bytes earlier"})
    # zoo 31a: 48 bytes after a READ request's headers beyond the length
    # fields, the ICRC of all at the frame's end
    add(frame(0, 5, opcode=0x0C, extra=48),
        {"PKT-ICRC": "the frame's last 4 bytes",
         "PKT-NO-PAYLOAD": "carries 48 bytes after its headers"})
    # zoo 3: the variant fields masked wrongly
    for skip, phrase in ((("udpcsum",), "the UDP checksum not masked"),
                         (("ttl",), "the IPv4 TTL not masked"),
                         (("tos",), "the IPv4 TOS not masked"),
                         (("ipcsum",), "the IPv4 header checksum not masked"),
                         (("tos", "ttl", "ipcsum", "udpcsum"),
                          "no IP or UDP field masked"),
                         (("grh", "udpcsum"), "masked as an IB GRH"),
                         (("bth",), "BTH byte 4 (FECN, BECN) not masked"),
                         (("ones",), "no 8 bytes of ones")):
        add(frame(64, 6, icrc_fn=lambda d, o, p, s=skip: icrc(d, False, o, s)),
            {"PKT-ICRC": phrase})
    for skip, phrase in ((("tos",), "traffic class and flow label not masked"),
                         (("ttl",), "the IPv6 hop limit not masked")):
        add(frame(64, 7, v6=True,
                  icrc_fn=lambda d, o, p, s=skip: icrc(d, True, o, s)),
            {"PKT-ICRC": phrase})
    # a plain corruption: a bad ICRC, none of the known causes named
    fr = bytearray(frame(64, 8))
    fr[-5] ^= 0x10
    add(bytes(fr), {"PKT-ICRC": None})
    path = os.path.join(work, "icrc-vectors.pcap")
    write_pcap(path, [c[0] for c in cases])
    got = findings(ibwire, path)
    for i, (_, want) in enumerate(cases):
        n = i + 1
        here = {f["rule"]: f["message"] for f in got if f["frame"] == n}
        if want is None:
            check(not here, "frame %d (right ICRC): findings %s" % (n, here))
            continue
        check(set(here) == set(want), "frame %d: rules %s, expected %s"
              % (n, sorted(here), sorted(want)))
        for rule, phrase in want.items():
            msg = here.get(rule, "")
            if phrase is None:
                check(msg and ": " not in msg.split("computed", 1)[-1],
                      "frame %d: %s names a cause: %r" % (n, rule, msg))
            else:
                check(phrase in msg, "frame %d: %s message %r lacks %r"
                      % (n, rule, msg, phrase))
    check(len(cases) >= 15, "cases")
    return 0


# ---- tshark as the oracle --------------------------------------------------

DISSECT = ["--disable-protocol", "rpcordma", "--disable-protocol", "smb_direct",
           "--disable-protocol", "nvme-rdma", "--disable-protocol", "iser"]

# scenario -> (tshark fields, good(row) for a frame that breaks nothing)
ORACLE = {
    "bad-pkt-ip-hdr": (["ip.hdr_len", "ip.flags.df", "ip.proto", "ipv6.nxt",
                        "ip.flags.rb"],
                       lambda r: r[0] in ("20", "") and r[1] in ("1", "True", "")
                       and r[2] in ("17", "") and r[3] in ("17", "") and
                       r[4] in ("0", "False", "")),
    "bad-pkt-eth-src": (["eth.src"],
                        lambda r: r[0] not in ("00:00:00:00:00:00",) and
                        int(r[0].split(":")[0], 16) & 1 == 0),
    # tshark 4.0 shows BTH byte 4 (FECN, BECN, resv6) as an unnamed
    # "Reserved": read it from the BTH bytes tshark located
    "bad-pkt-fecn-becn": (["infiniband.bth"],
                          lambda r: int(r[0][8:10], 16) & 0xC0 == 0),
    "bad-a17-udp-sport": (["udp.srcport", "ip.src"], None),
    "bad-a17-dscp": (["ip.dsfield.dscp", "ip.src"], None),
    "bad-a17-ttl": (["ip.ttl", "ip.src"], None),
    "bad-a17-ecn": (["ip.dsfield.ecn", "ip.src"], None),
}


def mode_tshark(ibwire, pcaps):
    tshark = os.environ.get("IBW_TSHARK", shutil.which("tshark"))
    if not tshark:
        print("no tshark - skipped")
        return SKIP
    for name, (fields, good) in ORACLE.items():
        path = os.path.join(pcaps, name + ".pcap")
        with open(os.path.join(pcaps, name + ".expect")) as f:
            bad = {int(l.split()[1]) for l in f if l.startswith("finding")}
        args = [tshark, "-r", path, "-T", "fields", "-e", "frame.number"]
        for fl in fields:
            args += ["-e", fl]
        rc, out, err = run(*(args + DISSECT))
        check(rc == 0, "tshark %s: %s" % (name, err))
        rows = {int(l.split("\t")[0]): l.split("\t")[1:]
                for l in out.splitlines() if l}
        check(bad and bad <= set(rows), "%s: frames %s" % (name, bad))
        if good:
            for n, r in rows.items():
                check(good(r) == (n not in bad), "%s frame %d: tshark reads %s "
                      "(%s)" % (name, n, r, "a violation" if n in bad else "clean"))
        else:
            # a field a connection keeps per direction: the rule is said at
            # the first frame that holds another value than the first of its
            # direction (once per direction), in tshark's reading
            first, named = {}, set()
            for n in sorted(rows):
                val, src = rows[n][0], rows[n][1]
                first.setdefault(src, val)
                if val != first[src] and src not in {rows[m][1] for m in named}:
                    named.add(n)
            check(named == bad, "%s: tshark's first differing frame per "
                  "direction %s, the .expect names %s" % (name, named, bad))
        # and the checker names the same frames
        got = {f["frame"] for f in findings(ibwire, path)}
        check(got == bad, "%s: checker frames %s, tshark's %s" % (name, got, bad))
    return 0


def main():
    mode = sys.argv[1]
    if mode == "icrc":
        rc = mode_icrc(sys.argv[2], sys.argv[3])
    elif mode == "tshark":
        rc = mode_tshark(sys.argv[2], sys.argv[3])
    else:
        print("unknown mode", mode)
        return 2
    if tally.fails:
        return 1
    return rc


if __name__ == "__main__":
    sys.exit(main())
