# SPDX-License-Identifier: Apache-2.0
"""Frames assembled by hand for the tests, byte by byte, with their CRCs
filled in by conformance/tests/packet/icrc_ref.py: the packet suite's
reference ICRC (zlib's CRC-32 over the masked pseudo-packet) and VCRC
(a bitwise CRC-16), written from the IBA masking rules and checked there
against the real captures, independently of libibwire's C."""
import ipaddress
import os
import struct
import sys

import support

sys.path.insert(0, os.path.join(support.SOURCE_ROOT, "conformance", "tests",
                                "packet"))
import icrc_ref  # noqa: E402

ETH_DST = "02:00:00:00:00:02"
ETH_SRC = "02:00:00:00:00:01"
ICRC_SLOT = bytes(4)


def mac(text):
    return bytes(int(x, 16) for x in text.split(":"))


def ethernet(ethertype, dst=ETH_DST, src=ETH_SRC):
    return mac(dst) + mac(src) + struct.pack(">H", ethertype)


def bth(opcode, destqp, psn, pad=0, se=0, m=0, pkey=0xFFFF, a=0, fecn=0,
        becn=0):
    return struct.pack(">BBHBBHBBH", opcode, se << 7 | m << 6 | pad << 4,
                       pkey, fecn << 7 | becn << 6, destqp >> 16,
                       destqp & 0xFFFF, a << 7, psn >> 16, psn & 0xFFFF)


def grh(tclass, flow, paylen, nxthdr, hoplmt, sgid, dgid):
    return struct.pack(">IHBB", 6 << 28 | tclass << 20 | flow, paylen,
                       nxthdr, hoplmt) + \
        ipaddress.IPv6Address(sgid).packed + \
        ipaddress.IPv6Address(dgid).packed


def with_crcs(frame, link):
    """frame with its ICRC slot (and VCRC slot on link 'ib') filled."""
    loc = icrc_ref.locate(frame, link)
    out = bytearray(frame)
    struct.pack_into("<I", out, loc["icrc_off"], icrc_ref.icrc(frame, loc))
    if "vcrc_off" in loc:
        v = loc["vcrc_off"]
        struct.pack_into("<H", out, v, icrc_ref.crc16_vcrc(out[:v]))
    return bytes(out)


def rocev2_ipv6(src, dst, sport, tclass, flow, hlim, transport):
    """Ethernet / IPv6 / UDP / `transport` (BTH onwards) / ICRC."""
    ulen = 8 + len(transport) + 4
    ip6 = struct.pack(">IHBB", 6 << 28 | tclass << 20 | flow, ulen, 17,
                      hlim) + ipaddress.IPv6Address(src).packed + \
        ipaddress.IPv6Address(dst).packed
    udp = struct.pack(">HHHH", sport, 4791, ulen, 0)
    return with_crcs(ethernet(0x86DD) + ip6 + udp + transport + ICRC_SLOT,
                     "eth")


def rocev1(grh_fields, transport, dst=ETH_DST, src=ETH_SRC):
    """Ethernet (0x8915) / GRH / `transport` / ICRC."""
    g = grh(paylen=len(transport) + 4, nxthdr=0x1B, **grh_fields)
    return with_crcs(ethernet(0x8915, dst, src) + g + transport + ICRC_SLOT,
                     "eth")


def native_ib(vl, sl, dlid, slid, transport, grh_fields=None):
    """LRH [/ GRH] / `transport` / ICRC / VCRC (link type 247)."""
    g = b""
    if grh_fields is not None:
        g = grh(paylen=len(transport) + 4, nxthdr=0x1B, **grh_fields)
    lnh = 3 if g else 2
    words = (8 + len(g) + len(transport) + 4) // 4
    lrh = struct.pack(">BBHHH", vl << 4, sl << 4 | lnh, dlid, words, slid)
    return with_crcs(lrh + g + transport + ICRC_SLOT + bytes(2), "ib")
