# SPDX-License-Identifier: Apache-2.0
"""RoCEv2 over IPv4 against scapy 2.5 (scapy.contrib.roce), the one
carriage whose ICRC scapy computes right: frames scapy builds are parsed
by ibwire, frames ibwire builds are parsed and re-built by scapy.

scapy knows the BTH and, for ACKNOWLEDGE, the AETH; every other extended
header goes through it as raw bytes, packed and unpacked here with struct
in IBA Vol.1 9.3's layouts.  Skipped without scapy."""
import random
import struct
import unittest

import support
import ibwire

try:
    from scapy.contrib.roce import AETH, BTH
    from scapy.layers.inet import IP, UDP
    from scapy.layers.l2 import Ether
    from scapy.packet import Raw
except ImportError:
    BTH = None

# The opcodes scapy names, with the extended headers between the BTH and
# the payload (IBA Vol.1 table 38) and whether a payload may follow.
RETH, AETH_HDR, IMM, DETH, ATOMIC, ATOMIC_ACK = \
    "reth", "aeth", "imm", "deth", "atomic", "atomicack"
OPCODES = {
    0x00: ((), True), 0x01: ((), True), 0x02: ((), True),
    0x03: ((IMM,), True), 0x04: ((), True), 0x05: ((IMM,), True),
    0x06: ((RETH,), True), 0x07: ((), True), 0x08: ((), True),
    0x09: ((IMM,), True), 0x0A: ((RETH,), True),
    0x0B: ((RETH, IMM), True), 0x0C: ((RETH,), False),
    0x0D: ((AETH_HDR,), True), 0x0E: ((), True), 0x0F: ((AETH_HDR,), True),
    0x10: ((AETH_HDR,), True), 0x11: ((AETH_HDR,), False),
    0x12: ((AETH_HDR, ATOMIC_ACK), False), 0x13: ((ATOMIC,), False),
    0x14: ((ATOMIC,), False),
    0x20: ((), True), 0x21: ((), True), 0x22: ((), True),
    0x23: ((IMM,), True), 0x24: ((), True), 0x25: ((IMM,), True),
    0x26: ((RETH,), True), 0x27: ((), True), 0x28: ((), True),
    0x29: ((IMM,), True), 0x2A: ((RETH,), True), 0x2B: ((RETH, IMM), True),
    0x64: ((DETH,), True), 0x65: ((DETH, IMM), True),
}


def random_headers(rng, headers):
    """(bytes of the extended headers, {dump name: value}) at random."""
    raw, fields = b"", {}
    for h in headers:
        if h == RETH:
            va, rkey, dmalen = rng.getrandbits(64), rng.getrandbits(32), \
                rng.getrandbits(31)
            raw += struct.pack(">QII", va, rkey, dmalen)
            fields.update({"infiniband.reth.va": va,
                           "infiniband.reth.r_key": rkey,
                           "infiniband.reth.dmalen": dmalen})
        elif h == AETH_HDR:
            syndrome, msn = rng.choice((0x00, 0x1F, 0x61, 0x20)), \
                rng.getrandbits(24)
            raw += struct.pack(">I", syndrome << 24 | msn)
            fields.update({"infiniband.aeth.syndrome": syndrome,
                           "infiniband.aeth.msn": msn})
        elif h == IMM:
            imm = bytes(rng.getrandbits(8) for _ in range(4))
            raw += imm
            fields["infiniband.immdt"] = imm
        elif h == DETH:
            qkey, srcqp = rng.getrandbits(32), rng.getrandbits(24)
            raw += struct.pack(">II", qkey, srcqp)
            fields.update({"infiniband.deth.q_key": qkey,
                           "infiniband.deth.srcqp": srcqp})
        elif h == ATOMIC:
            # AtomicETH's VA and R_Key are Wireshark's reth.* names.
            va, rkey, swap, cmp = rng.getrandbits(64), rng.getrandbits(32), \
                rng.getrandbits(64), rng.getrandbits(64)
            raw += struct.pack(">QIQQ", va, rkey, swap, cmp)
            fields.update({"infiniband.reth.va": va,
                           "infiniband.reth.r_key": rkey,
                           "infiniband.atomiceth.swapdt": swap,
                           "infiniband.atomiceth.cmpdt": cmp})
        elif h == ATOMIC_ACK:
            orig = rng.getrandbits(64)
            raw += struct.pack(">Q", orig)
            fields["infiniband.atomicacketh.origremdt"] = orig
    return raw, fields


def random_case(rng):
    """One frame's worth of random values: (opcode, common fields, header
    bytes, header fields, payload)."""
    opcode = rng.choice(sorted(OPCODES))
    headers, has_payload = OPCODES[opcode]
    raw, ext = random_headers(rng, headers)
    payload = bytes(rng.getrandbits(8) for _ in range(
        rng.randrange(0, 300))) if has_payload else b""
    common = {
        "eth.dst": "02:%02x:%02x:%02x:%02x:%02x" % tuple(
            rng.getrandbits(8) for _ in range(5)),
        "eth.src": "02:00:5e:%02x:%02x:%02x" % tuple(
            rng.getrandbits(8) for _ in range(3)),
        "ip.src": "10.%d.%d.%d" % tuple(rng.randrange(256)
                                        for _ in range(3)),
        "ip.dst": "192.168.%d.%d" % (rng.randrange(256), rng.randrange(256)),
        "ip.dsfield": rng.getrandbits(8), "ip.ttl": rng.randrange(1, 256),
        "ip.id": rng.getrandbits(16), "udp.srcport": rng.getrandbits(16),
        "infiniband.bth.opcode": opcode,
        "infiniband.bth.se": rng.getrandbits(1),
        "infiniband.bth.m": rng.getrandbits(1),
        "infiniband.bth.p_key": rng.getrandbits(16),
        "infiniband.bth.destqp": rng.getrandbits(24),
        "infiniband.bth.a": rng.getrandbits(1),
        "infiniband.bth.psn": rng.getrandbits(24),
        "ibwire.bth.fecn": rng.getrandbits(1),
        "ibwire.bth.becn": rng.getrandbits(1),
    }
    return opcode, common, raw, ext, payload


def scapy_frame(common, raw, payload):
    """The frame scapy builds (IPv4 checksum, lengths and ICRC its own)."""
    pad = -len(payload) % 4
    bth = BTH(opcode=common["infiniband.bth.opcode"],
              solicited=common["infiniband.bth.se"],
              migreq=common["infiniband.bth.m"], padcount=pad,
              pkey=common["infiniband.bth.p_key"],
              fecn=common["ibwire.bth.fecn"],
              becn=common["ibwire.bth.becn"],
              dqpn=common["infiniband.bth.destqp"],
              ackreq=common["infiniband.bth.a"],
              psn=common["infiniband.bth.psn"])
    if common["infiniband.bth.opcode"] == 0x11:
        syndrome, msn = struct.unpack(">B3s", raw)
        bth = bth / AETH(syndrome=syndrome, msn=int.from_bytes(msn, "big"))
    else:
        bth = bth / Raw(raw + payload + b"\0" * pad)
    p = Ether(dst=common["eth.dst"], src=common["eth.src"]) / \
        IP(src=common["ip.src"], dst=common["ip.dst"],
           tos=common["ip.dsfield"], ttl=common["ip.ttl"],
           id=common["ip.id"]) / \
        UDP(sport=common["udp.srcport"], dport=4791, chksum=0) / bth
    return bytes(p)


@unittest.skipIf(BTH is None, "scapy 2.5 not importable")
class ScapyToIbwire(unittest.TestCase):
    """scapy builds, ibwire parses: every field, and the ICRC is good."""

    def test_random_frames(self):
        rng = random.Random(0x5CA9)
        for n in range(300):
            opcode, common, raw, ext, payload = random_case(rng)
            frame = scapy_frame(common, raw, payload)
            dissected = Ether(frame)
            pkt = ibwire.parse(frame)
            with self.subTest(case=n, opcode=hex(opcode)):
                self.assertIsNone(pkt.error)
                self.assertEqual(pkt.icrc_status, "good")
                want = dict(common, **ext)
                want["infiniband.bth.padcnt"] = -len(payload) % 4
                want["ip.len"] = dissected[IP].len
                want["ip.checksum"] = dissected[IP].chksum
                want["udp.length"] = dissected[UDP].len
                got = {name: pkt[name] for name in want}
                self.assertEqual(got, want)
                if payload:
                    self.assertEqual(pkt["data.data"],
                                     payload + b"\0" * (-len(payload) % 4))


@unittest.skipIf(BTH is None, "scapy 2.5 not importable")
class IbwireToScapy(unittest.TestCase):
    """ibwire builds, scapy parses: every field it knows, and re-built by
    scapy with its own lengths, IPv4 checksum and ICRC, the frame is the
    same bytes."""

    def test_random_frames(self):
        rng = random.Random(0x1B5E)
        for n in range(300):
            opcode, common, raw, ext, payload = random_case(rng)
            fields = dict(common, **ext)
            if payload:
                fields["data.data"] = payload
            frame = ibwire.build(fields)
            p = Ether(frame)
            with self.subTest(case=n, opcode=hex(opcode)):
                self.assertEqual(
                    (p.dst, p.src, p[IP].src, p[IP].dst, p[IP].tos,
                     p[IP].ttl, p[IP].id, p[UDP].sport, p[UDP].dport),
                    (common["eth.dst"], common["eth.src"], common["ip.src"],
                     common["ip.dst"], common["ip.dsfield"],
                     common["ip.ttl"], common["ip.id"],
                     common["udp.srcport"], 4791))
                b = p[BTH]
                self.assertEqual(
                    (b.opcode, b.solicited, b.migreq, b.padcount, b.pkey,
                     b.fecn, b.becn, b.dqpn, b.ackreq, b.psn),
                    (opcode, common["infiniband.bth.se"],
                     common["infiniband.bth.m"], -len(payload) % 4,
                     common["infiniband.bth.p_key"],
                     common["ibwire.bth.fecn"], common["ibwire.bth.becn"],
                     common["infiniband.bth.destqp"],
                     common["infiniband.bth.a"],
                     common["infiniband.bth.psn"]))
                after_bth = bytes(b.payload)
                self.assertEqual(after_bth,
                                 raw + payload + b"\0" * (-len(payload) % 4))
                again = Ether(frame)
                again[BTH].icrc = None
                del again[IP].chksum
                del again[IP].len
                del again[UDP].len
                self.assertEqual(bytes(again).hex(), frame.hex())

    def test_keyword_aliases(self):
        """build(infiniband_bth_psn=5) is build(**{"infiniband.bth.psn": 5})
        and scapy reads the PSN back."""
        by_alias = ibwire.build(infiniband_bth_psn=5, infiniband_bth_p_key=7,
                                udp_srcport=0xC123)
        by_name = ibwire.build(**{"infiniband.bth.psn": 5,
                                  "infiniband.bth.p_key": 7,
                                  "udp.srcport": 0xC123})
        self.assertEqual(by_alias, by_name)
        p = Ether(by_alias)
        self.assertEqual((p[BTH].psn, p[BTH].pkey, p[UDP].sport),
                         (5, 7, 0xC123))


if __name__ == "__main__":
    unittest.main()
