# SPDX-License-Identifier: Apache-2.0
"""Frames assembled by hand for the tests, with their CRCs computed here
from the definitions (zlib's CRC-32 for the ICRC, a bitwise CRC-16 with
polynomial 0x100B for the VCRC), independently of libibwire.

The ICRC covers the packet from the LRH (or, on RoCE, 8 bytes of ones in
its place) to the end of the payload, with the variant fields set to ones
(IBA Vol.1 7.8.1; RoCE annexes A16, A17): the LRH's VL, or the whole LRH
when a GRH follows (a router rewrites it); the GRH's traffic
class, flow label and hop limit; IPv4's DSCP/ECN, TTL and header checksum;
IPv6's traffic class, flow label and hop limit; the UDP checksum; the
BTH's FECN, BECN and reserved bits.  It is sent least significant byte
first; so is the VCRC, which covers everything from the LRH to the ICRC
(as the real captures of ../shared/captures carry both).
"""
import ipaddress
import struct
import zlib

ONES8 = b"\xff" * 8


def crc16_vcrc(data):
    reg = 0xFFFF
    for byte in data:
        reg ^= byte
        for _ in range(8):
            reg = (reg >> 1) ^ 0xD008 if reg & 1 else reg >> 1
    return reg ^ 0xFFFF


def icrc_bytes(masked):
    return struct.pack("<I", zlib.crc32(masked) & 0xFFFFFFFF)


def mac(text):
    return bytes(int(x, 16) for x in text.split(":"))


def bth(opcode, destqp, psn, pad=0, se=0, m=0, pkey=0xFFFF, a=0, fecn=0,
        becn=0):
    return struct.pack(">BBHBBHBBH", opcode, se << 7 | m << 6 | pad << 4,
                       pkey, fecn << 7 | becn << 6, destqp >> 16,
                       destqp & 0xFFFF, a << 7, psn >> 16, psn & 0xFFFF)


def bth_masked(b):
    return b[:4] + b"\xff" + b[5:]


def grh(tclass, flow, paylen, nxthdr, hoplmt, sgid, dgid):
    return struct.pack(">IHBB", 6 << 28 | tclass << 20 | flow, paylen,
                       nxthdr, hoplmt) + \
        ipaddress.IPv6Address(sgid).packed + \
        ipaddress.IPv6Address(dgid).packed


def grh_masked(g):
    """Version kept; traffic class, flow label and hop limit ones."""
    return bytes([g[0] | 0x0F]) + b"\xff\xff\xff" + g[4:7] + b"\xff" + g[8:]


ETH_DST = "02:00:00:00:00:02"
ETH_SRC = "02:00:00:00:00:01"


def ethernet(ethertype, dst=ETH_DST, src=ETH_SRC):
    return mac(dst) + mac(src) + struct.pack(">H", ethertype)


def rocev2_ipv6(src, dst, sport, tclass, flow, hlim, transport):
    """Ethernet / IPv6 / UDP / `transport` (BTH onwards, no ICRC)."""
    ulen = 8 + len(transport) + 4
    ip6 = struct.pack(">IHBB", 6 << 28 | tclass << 20 | flow, ulen, 17,
                      hlim) + ipaddress.IPv6Address(src).packed + \
        ipaddress.IPv6Address(dst).packed
    udp = struct.pack(">HHHH", sport, 4791, ulen, 0)
    masked = ONES8 + grh_masked(ip6) + udp[:6] + b"\xff\xff" + \
        bth_masked(transport[:12]) + transport[12:]
    return ethernet(0x86DD) + ip6 + udp + transport + icrc_bytes(masked)


def rocev1(grh_fields, transport, dst=ETH_DST, src=ETH_SRC):
    """Ethernet (0x8915) / GRH / `transport`."""
    g = grh(paylen=len(transport) + 4, nxthdr=0x1B, **grh_fields)
    masked = ONES8 + grh_masked(g) + bth_masked(transport[:12]) + \
        transport[12:]
    return ethernet(0x8915, dst, src) + g + transport + icrc_bytes(masked)


def native_ib(vl, sl, dlid, slid, transport, grh_fields=None):
    """LRH [/ GRH] / `transport` / ICRC / VCRC (link type 247)."""
    g = b""
    if grh_fields is not None:
        g = grh(paylen=len(transport) + 4, nxthdr=0x1B, **grh_fields)
    lnh = 3 if g else 2
    words = (8 + len(g) + len(transport) + 4) // 4
    lrh = struct.pack(">BBHHH", vl << 4, sl << 4 | lnh, dlid, words, slid)
    if g:
        masked = ONES8 + grh_masked(g)
    else:
        masked = bytes([lrh[0] | 0xF0]) + lrh[1:]
    masked += bth_masked(transport[:12]) + transport[12:]
    body = lrh + g + transport + icrc_bytes(masked)
    return body + struct.pack("<H", crc16_vcrc(body))
