# SPDX-License-Identifier: Apache-2.0
"""rcgen: RoCEv2 RC traffic written by hand from the IBA rules, for the
replay tests and bench (independent of ibwire's builder and engine).

A correct responder, as IBA Vol.1 9.7.5 has it: the MSN counts the
messages completed, an RDMA WRITE ONLY with AckReq is answered by an ACK
at its PSN carrying the MSN after it, an RDMA READ of at most one PMTU by a
READ RESPONSE ONLY at its PSN (AETH: the MSN after it, counted at once),
a FETCH & ADD by an ATOMIC ACKNOWLEDGE carrying the word's value before
it.  Frames: Ethernet / IPv4 (checksum computed) / UDP 4791 / BTH ...,
ICRC as IBA A17.4.4 says (CRC-32 over the masked IP/UDP/BTH and the rest).
"""
import random
import struct
import zlib

A_MAC, B_MAC = b"\x02\x00\x0a\x00\x00\x01", b"\x02\x00\x0a\x00\x00\x02"
A_IP, B_IP = bytes([10, 0, 0, 1]), bytes([10, 0, 0, 2])


def ip_csum(h):
    s = sum(struct.unpack("!10H", h))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return (~s) & 0xFFFF


def icrc(ip, udp, rest):
    ip = bytearray(ip)
    ip[1] = 0xFF
    ip[8] = 0xFF
    ip[10:12] = b"\xff\xff"
    udp = bytearray(udp)
    udp[6:8] = b"\xff\xff"
    rest = bytearray(rest)
    rest[4] = 0xFF
    return struct.pack("<I", zlib.crc32(b"\xff" * 8 + bytes(ip) + bytes(udp) + bytes(rest)))


def frame(from_a, sport, bth_rest):
    """bth_rest: BTH and everything after it (padded to 4 bytes)."""
    src, dst = (A_IP, B_IP) if from_a else (B_IP, A_IP)
    smac, dmac = (A_MAC, B_MAC) if from_a else (B_MAC, A_MAC)
    ulen = 8 + len(bth_rest) + 4
    ip = bytearray(struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + ulen, 0, 0x4000,
                               64, 17, 0, src, dst))
    ip[10:12] = struct.pack("!H", ip_csum(bytes(ip)))
    udp = struct.pack("!HHHH", sport, 4791, ulen, 0)
    return dmac + smac + b"\x08\x00" + bytes(ip) + udp + bth_rest + icrc(ip, udp, bth_rest)


def bth(opcode, destqp, psn, ackreq=False, pad=0):
    return struct.pack("!BBHII", opcode, pad << 4, 0xFFFF, destqp & 0xFFFFFF,
                       (0x80000000 if ackreq else 0) | (psn & 0xFFFFFF))


def aeth(syn, msn):
    return struct.pack("!I", (syn << 24) | (msn & 0xFFFFFF))


def reth(va, rkey, length):
    return struct.pack("!QII", va, rkey, length)


def padded(payload):
    pad = (4 - len(payload) % 4) % 4
    return payload + b"\0" * pad, pad


class Conn:
    """One RC connection: requester QP rq on A, responder QP sq on B."""

    def __init__(self, rq, sq, psn, sport):
        self.rq, self.sq, self.psn, self.sport = rq, sq, psn, sport
        self.msn = 0
        self.words = {}

    def write(self, va, rkey, n):
        """RDMA WRITE ONLY with AckReq, and its ACK: two frames."""
        pl, pad = padded(bytes((self.psn + i) & 0xFF for i in range(n)))
        req = frame(True, self.sport, bth(0x0A, self.sq, self.psn, True, pad) +
                    reth(va, rkey, n) + pl)
        self.msn += 1
        ack = frame(False, 49152, bth(0x11, self.rq, self.psn) + aeth(0x1F, self.msn))
        self.psn = (self.psn + 1) & 0xFFFFFF
        return [("req", req), ("resp", ack)]

    def read(self, va, rkey, n):
        """RDMA READ of n <= PMTU bytes and its READ RESPONSE ONLY."""
        req = frame(True, self.sport, bth(0x0C, self.sq, self.psn, True) + reth(va, rkey, n))
        self.msn += 1
        pl, pad = padded(b"\0" * n)
        resp = frame(False, 49152, bth(0x10, self.rq, self.psn, False, pad) +
                     aeth(0x1F, self.msn) + pl)
        self.psn = (self.psn + 1) & 0xFFFFFF
        return [("req", req), ("resp", resp)]

    def fetch_add(self, va, rkey, add):
        """FETCH & ADD and its ATOMIC ACKNOWLEDGE (original value)."""
        orig = self.words.get((rkey, va), 0)
        self.words[(rkey, va)] = (orig + add) & (2**64 - 1)
        req = frame(True, self.sport, bth(0x14, self.sq, self.psn, True) +
                    struct.pack("!QIQQ", va, rkey, add, 0))
        self.msn += 1
        resp = frame(False, 49152, bth(0x12, self.rq, self.psn) +
                     aeth(0x1F, self.msn) + struct.pack("!Q", orig))
        self.psn = (self.psn + 1) & 0xFFFFFF
        return [("req", req), ("resp", resp)]


def write_pcap(path, frames, t0=1_700_000_000):
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        for i, fr in enumerate(frames):
            us = i * 2
            f.write(struct.pack("<IIII", t0 + us // 1_000_000, us % 1_000_000,
                                len(fr), len(fr)) + fr)


def sparse(nconn, nmsg, nkeys=4, span_bits=40, seed=1, first_word=True):
    """nconn connections, nmsg messages each (WRITE, READ, FETCH & ADD in
    turn), addresses drawn uniformly over 2**span_bits bytes under nkeys
    R_Keys; the messages of the connections interleaved.  Returns
    (conns, list of (conn index, kind, frame))."""
    r = random.Random(seed)
    conns = [Conn(0x100 + i, 0x2000 + i, r.randrange(1 << 24), 49152 + (i % 1000))
             for i in range(nconn)]
    keys = [0x1000 + 0x111 * k for k in range(nkeys)]
    out = []
    for m in range(nmsg):
        for i, c in enumerate(conns):
            key = keys[r.randrange(nkeys)]
            va = r.randrange(1 << span_bits) & ~7
            kind = m % 3
            if kind == 0:
                fr = c.write(va, key, r.choice((8, 100, 1024)))
            elif kind == 1:
                fr = c.read(va, key, r.choice((8, 512, 1024)))
            else:
                # the same word twice per connection: the second original
                # value is known to the reference (learnt from the first)
                word = (keys[0], (1 << span_bits) - 4096 + 8 * (i % 4))
                fr = c.fetch_add(word[1], word[0], m + 1)
            out += [(i, k, f) for k, f in fr]
    return conns, out


def lost_after_capture(n, lost, rounds, at_requester, psn=0x123456):
    """n RDMA WRITE ONLYs (AckReq) on one connection, request `lost` lost
    after the capture point in `rounds` resend rounds (the first send
    included), then a round that gets through.  The responder (IBA 9.7.5.1:
    ePSN, sequence NAK on a later PSN, out-of-sequence requests dropped)
    NAKs `lost` in each lossy round on the request after it and ACKs every
    request of the last round.  at_requester: recorded at the requester's
    port (each round sent whole before the responses to it come back);
    else at the responder's (each response right after its request).
    Returns the frames."""
    c = Conn(0x101, 0x2001, psn, 49152)
    reqs, acks = [], []
    for i in range(n):
        (_, rq), (_, ack) = c.write(0x10000 + 64 * i, 0x1000, 32)
        reqs.append(rq)
        acks.append(ack)
    nak = frame(False, 49152, bth(0x11, 0x101, psn + lost) + aeth(0x60, lost))
    out = []
    for r in range(rounds + 1):
        first = 0 if r == 0 else lost
        if at_requester:
            out += reqs[first:n]
            if r == 0:
                out += acks[:lost]
            out += [nak] if r < rounds else acks[lost:]
            continue
        for i in range(first, n):
            out.append(reqs[i])
            if r == rounds or i < lost:
                out.append(acks[i])   # in sequence
            elif i == lost + 1:
                out.append(nak)       # the first request after the loss
    return out
