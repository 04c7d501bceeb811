#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Write the seed corpora of fuzz/corpus/NAME/ (deterministic).

Seeds are plausible inputs, not expected values: they only give the fuzzer
a start inside each format.  Files are named by the SHA-1 of their content,
as libFuzzer names what it finds, so re-running adds nothing twice.

    fuzz/gen_corpus.py [NAME...]      (default: every harness below)
"""
import hashlib
import os
import struct
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, os.pardir, "conformance", "tests",
                                "packet"))
import icrc_ref  # noqa: E402


def put(name, data):
    d = os.path.join(HERE, "corpus", name)
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, hashlib.sha1(data).hexdigest())
    with open(path, "wb") as f:
        f.write(data)


# Selector order of wire_fuzzer.c's table.
WIRE = ["lrh", "grh", "bth", "rdeth", "deth", "reth", "atomiceth", "aeth",
        "atomicacketh", "immdt", "ieth", "xrceth", "feth"]


def wire_headers():
    """One typical header per W format (IBA field meanings in comments)."""
    gid_a = bytes.fromhex("fe800000000000000002c90300001234")
    gid_b = bytes.fromhex("fe800000000000000002c90300005678")
    return {
        # VL0 LVer0 SL0 LNH=2 (BTH), DLID 1, PktLen 9 words, SLID 2
        "lrh": bytes([0x00, 0x02, 0x00, 0x01, 0x00, 0x09, 0x00, 0x02]),
        # IPVer 6, TClass 0, FlowLabel 0, PayLen 24, NxtHdr 0x1B, HopLmt 64
        "grh": bytes([0x60, 0, 0, 0]) + struct.pack(">HBB", 24, 0x1B, 64)
        + gid_a + gid_b,
        # RC SEND ONLY, SE, PKey 0xFFFF, DestQP 0x12, AckReq, PSN 0x123456
        "bth": bytes([0x04, 0x80, 0xFF, 0xFF, 0, 0, 0, 0x12, 0x80, 0x12,
                      0x34, 0x56]),
        "rdeth": bytes([0, 0, 0, 5]),
        "deth": struct.pack(">II", 0x80010000, 0x000001),
        "reth": struct.pack(">QII", 0x7f0000001000, 0x1234, 4096),
        "atomiceth": struct.pack(">QIQQ", 0x1000, 0x55, 1, 0),
        # ACK, credit code 31 (invalid), MSN 7
        "aeth": bytes([0x1F, 0, 0, 7]),
        "atomicacketh": struct.pack(">Q", 42),
        "immdt": struct.pack(">I", 0xdeadbeef),
        "ieth": struct.pack(">I", 0x1234),
        "xrceth": bytes([0, 0, 0, 9]),
        # selectivity 1, placement type 1
        "feth": bytes([0, 0, 0, 0x11]),
    }


def gen_wire():
    hdrs = wire_headers()
    values = bytes(range(1, 200))
    for i, name in enumerate(WIRE):
        h = hdrs[name]
        put("wire", bytes([i]) + h)                 # decode/encode only
        put("wire", bytes([i]) + h + values)        # with setter values
        put("wire", bytes([i]) + h[:-1])            # one byte short
        put("wire", bytes([i]) + b"\xff" * len(h) + b"\xff" * 64)
    # helpers slot: ACK credit code, RNR NAK timer, NAK code
    n = len(WIRE)
    for syn in (0x1F, 0x3F, 0x60, 0x64, 0x80):
        put("wire", bytes([n, syn]) + struct.pack("<QQ", 1000, 2048))


# The VCRC of the packet tests' Python reference (checked there against
# real captures), so the seeds carry the CRC the tests trust.
vcrc = icrc_ref.crc16_vcrc


def bth(opcode, pad, qp, psn, ackreq=1):
    return bytes([opcode, pad << 4, 0xFF, 0xFF, 0, qp >> 16 & 0xFF,
                  qp >> 8 & 0xFF, qp & 0xFF, ackreq << 7, psn >> 16 & 0xFF,
                  psn >> 8 & 0xFF, psn & 0xFF])


def transport(opcode, ext, payload, qp=0x11, psn=0x100):
    pad = (4 - len(payload) % 4) % 4
    return bth(opcode, pad, qp, psn) + ext + payload + bytes(pad)


def icrc(masked_prefix, rest):
    return struct.pack("<I", zlib.crc32(masked_prefix + rest))


def ib_local(tp):
    """Native IB, LRH + BTH..., ICRC and VCRC."""
    n = 8 + len(tp) + 4
    lrh = bytes([0x00, 0x02, 0x00, 0x01, (n // 4) >> 8, (n // 4) & 0xFF,
                 0x00, 0x02])
    masked = bytes([lrh[0] | 0xF0]) + lrh[1:] + tp[:4] + b"\xff" + tp[5:12]
    pkt = lrh + tp + icrc(masked, tp[12:])
    return pkt + struct.pack("<H", vcrc(pkt))


def grh(paylen):
    return (bytes([0x60, 0, 0, 0]) + struct.pack(">HBB", paylen, 0x1B, 64)
            + bytes(range(16)) + bytes(range(16, 32)))


def ib_global(tp):
    g = grh(len(tp) + 4)
    n = 8 + 40 + len(tp) + 4
    lrh = bytes([0x00, 0x03, 0x00, 0x01, (n // 4) >> 8, (n // 4) & 0xFF,
                 0x00, 0x02])
    mg = bytes([g[0] | 0x0F, 0xFF, 0xFF, 0xFF]) + g[4:7] + b"\xff" + g[8:]
    masked = b"\xff" * 8 + mg + tp[:4] + b"\xff" + tp[5:12]
    pkt = lrh + g + tp + icrc(masked, tp[12:])
    return pkt + struct.pack("<H", vcrc(pkt))


ETH = bytes.fromhex("b8599f000001" "b8599f000002")


def roce_v1(tp, vlan=False):
    g = grh(len(tp) + 4)
    mg = bytes([g[0] | 0x0F, 0xFF, 0xFF, 0xFF]) + g[4:7] + b"\xff" + g[8:]
    masked = b"\xff" * 8 + mg + tp[:4] + b"\xff" + tp[5:12]
    tag = bytes.fromhex("81000064") if vlan else b""
    return ETH + tag + b"\x89\x15" + g + tp + icrc(masked, tp[12:])


def roce_v2_ip4(tp, sport=0xC000):
    udp = struct.pack(">HHHH", sport, 4791, 8 + len(tp) + 4, 0)
    ip = bytearray(struct.pack(">BBHHHBBH4s4s", 0x45, 0x02, 20 + len(udp) +
                               len(tp) + 4, 0x1234, 0x4000, 64, 17, 0,
                               bytes([192, 168, 0, 1]), bytes([192, 168, 0, 2])))
    csum = sum(struct.unpack(">10H", bytes(ip)))
    while csum >> 16:
        csum = (csum & 0xFFFF) + (csum >> 16)
    ip[10:12] = struct.pack(">H", ~csum & 0xFFFF)
    mip = bytearray(ip)
    mip[1] = 0xFF
    mip[8] = 0xFF
    mip[10:12] = b"\xff\xff"
    masked = b"\xff" * 8 + bytes(mip) + udp[:6] + b"\xff\xff" + tp[:4] + \
        b"\xff" + tp[5:12]
    return ETH + b"\x08\x00" + bytes(ip) + udp + tp + icrc(masked, tp[12:])


def roce_v2_ip6(tp):
    udp = struct.pack(">HHHH", 0xC001, 4791, 8 + len(tp) + 4, 0)
    ip = (bytes([0x60, 0x20, 0x00, 0x01]) + struct.pack(">HBB", len(udp) +
          len(tp) + 4, 17, 64) + bytes(range(16)) + bytes(range(16, 32)))
    mip = bytes([ip[0] | 0x0F, 0xFF, 0xFF, 0xFF]) + ip[4:7] + b"\xff" + ip[8:]
    masked = b"\xff" * 8 + mip + udp[:6] + b"\xff\xff" + tp[:4] + \
        b"\xff" + tp[5:12]
    return ETH + b"\x86\xdd" + ip + udp + tp + icrc(masked, tp[12:])


def gen_packet():
    reth = struct.pack(">QII", 0x7f0000001000, 0x1234, 24)
    deth = struct.pack(">II", 0x80010000, 0x000001)
    aeth = bytes([0x1F, 0, 0, 7])
    atomic = struct.pack(">QIQQ", 0x1000, 0x55, 1, 0)
    msgs = [
        transport(0x04, b"", b"hello, RDMA world"),          # RC SEND ONLY
        transport(0x0A, reth, bytes(range(24))),               # RC WRITE ONLY
        transport(0x0C, reth, b""),                           # RC READ REQUEST
        transport(0x10, b"", b"", psn=7)[:12] + aeth,          # RC ACK
        transport(0x13, atomic, b""),                         # RC CMP&SWAP
        transport(0x64, deth, b"ud payload"),                  # UD SEND ONLY
        transport(0x05, struct.pack(">I", 0xCAFE), b"imm"),    # SEND ONLY IMM
        transport(0x1C, bytes([0, 0, 0, 0x11]) + reth, b""),   # FLUSH
        transport(0x81, bytes(16), b""),                     # CNP
    ]
    for tp in msgs:
        put("packet", b"\x01" + ib_local(tp))
        put("packet", b"\x01" + ib_global(tp))
        put("packet", b"\x00" + roce_v1(tp))
        put("packet", b"\x00" + roce_v1(tp, vlan=True))
        put("packet", b"\x00" + roce_v2_ip4(tp))
        put("packet", b"\x00" + roce_v2_ip6(tp))
    # Ethernet that is not RoCE; IPv4 with options; a frame with FCS trailer
    put("packet", b"\x00" + ETH + b"\x08\x06" + bytes(28))
    put("packet", b"\x00" + roce_v2_ip4(msgs[0]) + b"\xde\xad\xbe\xef")
    # Build mode: selector byte, then raw spec bytes and a payload
    for sel in (0x02, 0x03):
        for kind in range(3):
            put("packet", bytes([sel, kind, 0x00]) + bytes(220) + b"payload")
        put("packet", bytes([sel, 0, 0x01]) + b"\x0a" * 240)


def mad(mgmtclass, method, attr, data, classver=1, tid=0x1234, mod=0,
        status=0):
    """A 256-byte MAD: common header (IBA 13.4.3) then data."""
    hdr = struct.pack(">BBBBHHQHHI", 1, mgmtclass, classver, method, status,
                      0, tid, attr, 0, mod)
    return (hdr + data + bytes(256))[:256]


def gen_mad():
    n_formats = 24  # IBW_MAD_FORMATS: 3 MAD-level, 12 CM, 9 others
    # CM REQ: local comm ID, service ID (IP CM: 0x0000000001060000 | port),
    # then the IP CM private-data header
    req = (struct.pack(">IIQ", 0x11223344, 0, 0x0000000001064E21) +
           bytes(range(8)) + bytes(80) +
           bytes([0x00, 0x40]) + bytes(2) + bytes(12) +
           bytes([10, 0, 0, 1]) + bytes(12) + bytes([10, 0, 0, 2]))
    mads = [
        mad(0x07, 0x03, 0x0010, req, classver=2),                 # CM REQ
        mad(0x07, 0x03, 0x0013, struct.pack(">II", 5, 6), 2),     # CM REP
        mad(0x07, 0x03, 0x0014, struct.pack(">II", 5, 6), 2),     # CM RTU
        mad(0x07, 0x03, 0x0012, struct.pack(">IIBB", 5, 6, 0, 0), 2),  # REJ
        mad(0x07, 0x03, 0x0015, struct.pack(">III", 5, 6, 7), 2),  # DREQ
        mad(0x07, 0x01, 0x0001, b"", 2),                          # CM CPI
        # SA PathRecord GetTable with RMPP active DATA segment 1
        mad(0x03, 0x12, 0x0035, bytes([1, 1, 0x30, 0]) + bytes(8) +
            bytes(8) + bytes(8) + bytes(64), classver=2),
        mad(0x81, 0x01, 0x0011, bytes(40), mod=0),                # DR NodeInfo
        mad(0x01, 0x01, 0x0015, bytes(40) + bytes(64)),           # PortInfo
        mad(0x01, 0x81, 0x0020, bytes(40) + bytes(21)),           # SMInfo resp
        mad(0x04, 0x01, 0x0012, bytes(40)),                       # PerfMgt
        mad(0x30, 0x01, 0x0010, bytes(12) + b"\x00\x14\x05"),    # vendor 2
        mad(0x09, 0x01, 0x0010, b""),                             # vendor 1
        mad(0x02, 0x01, 0x0010, b""),                             # reserved
    ]
    for m in mads:
        put("mad", b"\x80" + m)
        put("mad", b"\x80" + m + bytes(range(64)))
    put("mad", b"\x80" + mads[0][:100])
    for i in range(n_formats):
        put("mad", bytes([i]) + mads[i % len(mads)] + bytes(range(200)))


def gen_records():
    """Registry index (LE16) then a format image; the harness takes the
    index modulo the registry's count, so 0..79 reaches every format while
    the registry has fewer than 80."""
    rnd = hashlib.sha256(b"ibwire records seed").digest() * 32
    for i in range(80):
        idx = struct.pack("<H", i)
        put("records", idx + rnd[i:i + 64] + bytes(range(48)))
        put("records", idx + b"\xff" * 64 + rnd[:64])
    put("records", struct.pack("<H", 0))


def hg_words(*words):
    """HanGu WQE bytes: 32-bit words, each little-endian."""
    return b"".join(struct.pack("<I", w & 0xFFFFFFFF) for w in words)


def gen_host():
    # Walk mode: byte 0 = 0, then cfg: layout|queue<<1|service<<2 (service
    # index 0 RC, 1 UC, 2 UD), first opcode, size, fence, offset/16 (LE16),
    # entry cap, one spare byte; then the queue.
    def walk(cfgb, op, size, q, off=0, cap=16):
        put("host", bytes([0, cfgb, op, size, 0, off & 0xFF, off >> 8, cap, 0])
            + q)
    nxt_end = hg_words(0, 0, 0, 0)
    data = hg_words(100, 0x1234, 0x1000, 0)
    walk(0, 0x0A, 2, nxt_end + data)                             # SEND
    raddr = hg_words(0x2000, 0, 0x55, 0)
    walk(0, 0x08, 3, nxt_end + raddr + data)                     # WRITE
    inline = hg_words(0x80000000 | 5) + b"hello" + bytes(7)
    walk(0, 0x0A, 2, nxt_end + inline)                           # inline
    # two WQEs: first NextSeg -> SEND at offset 32 (nda 2), size 2
    nxt = hg_words(0x0A | (2 << 6), 2, 0, 0)
    walk(0, 0x0A, 2, nxt + data + nxt_end + data)
    walk(0, 0x0A, 2, nxt + data, cap=1)                          # loops
    atomic = hg_words(0x3000, 0, 0x77, 0) + hg_words(1, 0, 2, 0)
    walk(0, 0x11, 4, nxt_end + atomic + hg_words(8, 1, 0x4000, 0))
    ud = hg_words(*([0] * 8), 0x11, 0x80010000, 0, 0)
    walk(2 << 2, 0x0A, 5, nxt_end + ud + data)                  # UD SEND
    walk(2, 0, 0, nxt_end + data + bytes(16))                    # RQ, scan
    walk(2, 0, 3, nxt_end + data + bytes(16))                    # RQ, sized
    # mthca layout (big-endian words), RQ terminator L_Key 0x100
    walk(3, 0, 3, bytes(16) + struct.pack(">IIQ", 64, 9, 0x5000) +
         struct.pack(">IIQ", 0, 0x100, 0))
    walk(1, 0x0A, 2, bytes(16) + struct.pack(">IIQ", 64, 9, 0x5000))
    walk(4 << 2, 0x0A, 2, nxt_end + data)                        # RD: refused
    # Build mode: byte 0 = 1, then a config byte and WR material
    rnd = hashlib.sha256(b"ibwire host seed").digest() * 20
    for c in range(0, 64, 3):
        put("host", bytes([1, c, 0]) + rnd[c:c + 300])
    for c in (0x00, 0x10, 0x20, 0x30, 0x02, 0x12):
        put("host", bytes([1, c, 0, 2, 0, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                           16]) + bytes(120))
    # Formats mode: byte 0 = 2, then the host format index and bytes
    for i in range(17):
        put("host", bytes([2, i]) + rnd[i:i + 64] + bytes(range(64)))
        put("host", bytes([2, i]) + b"\xff" * 48)


def pcap_file(linktype, frames, big=False, nsec=False):
    e = ">" if big else "<"
    magic = 0xA1B23C4D if nsec else 0xA1B2C3D4
    out = struct.pack(e + "IHHiIII", magic, 2, 4, 0, 0, 262144, linktype)
    for i, f in enumerate(frames):
        out += struct.pack(e + "IIII", 1700000000 + i, 1000 * i, len(f),
                           len(f)) + f
    return out


def pcapng_file(linktype, frames):
    def block(btype, body):
        body += bytes((4 - len(body) % 4) % 4)
        n = len(body) + 12
        return struct.pack("<II", btype, n) + body + struct.pack("<I", n)
    out = block(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1))
    out += block(1, struct.pack("<HHI", linktype, 0, 262144))
    for i, f in enumerate(frames):
        out += block(6, struct.pack("<IIIII", 0, 0, i * 1000, len(f),
                                    len(f)) + f)
    return out


def erf_ib(frame):
    """ERF record type 21 (InfiniBand): 16-byte header then the frame."""
    rlen = 16 + len(frame)
    return struct.pack("<Q", 0) + struct.pack(">BBHHH", 21, 0x04, rlen, 0,
                                              len(frame)) + frame


def exported_pdu_ib(frame):
    name = b"infiniband\x00\x00"
    return struct.pack(">HH", 12, len(name)) + name + bytes(4) + frame


def gen_capture():
    tp = transport(0x04, b"", b"hello, RDMA world")
    eth = [roce_v2_ip4(tp), roce_v1(tp), roce_v2_ip6(tp), ETH + bytes(50)]
    ib = [ib_local(tp), ib_global(tp)]
    put("capture", pcap_file(1, eth))
    put("capture", pcap_file(1, eth, big=True, nsec=True))
    put("capture", pcap_file(247, ib))
    put("capture", pcap_file(197, [erf_ib(f) for f in ib]))
    put("capture", pcap_file(252, [exported_pdu_ib(f) for f in ib]))
    put("capture", pcapng_file(1, eth))
    put("capture", pcapng_file(247, ib))
    put("capture", pcap_file(1, eth)[:-7])          # cut in the last record
    put("capture", pcap_file(105, eth))             # unsupported link type


def gen_check():
    """Streams for the checker: byte 0 PMTU choice, then (LE16 length,
    flags, frame) per frame.  A RoCEv2 RC conversation: SEND FIRST/MIDDLE/
    LAST, ACKs, an RDMA READ and its responses, then a PSN gap and a NAK."""
    def frame(tp, sport=0xC000):
        f = roce_v2_ip4(tp, sport)
        return struct.pack("<HB", len(f), 0) + f

    def rc(op, psn, ext=b"", payload=b"", qp=0x11):
        pad = (4 - len(payload) % 4) % 4
        return bth(op, pad, qp, psn) + ext + payload + bytes(pad)

    mtu = bytes(256)
    aeth = lambda msn: bytes([0x1F, 0, 0, msn])
    reth = struct.pack(">QII", 0x1000, 0x55, 600)
    convo = [
        rc(0x00, 0, payload=mtu), rc(0x01, 1, payload=mtu),
        rc(0x02, 2, payload=b"tail"), rc(0x11, 2, aeth(1), qp=0x22),
        rc(0x0C, 3, reth),
        rc(0x0D, 3, aeth(2), mtu, qp=0x22), rc(0x0E, 4, b"", mtu, qp=0x22),
        rc(0x0F, 5, aeth(2), bytes(88), qp=0x22),
        rc(0x04, 7, payload=b"gap"), rc(0x11, 6, bytes([0x60, 0, 0, 2]),
                                       qp=0x22),
    ]
    stream = b"".join(frame(tp) for tp in convo)
    for pmtu in range(6):
        put("check", bytes([pmtu]) + stream)
    put("check", bytes([0]) + stream[: len(stream) // 2])
    # native IB: the same requests with LRH
    ib = b"".join(struct.pack("<HB", len(f), 1) + f
                  for f in (ib_local(tp) for tp in convo))
    put("check", bytes([1]) + ib)


def gen_engine():
    """engine_fuzzer: config byte (bit 0 IB framing, bits 1-2 QP type, 3-5
    receive PSN, 6-7 PMTU), four receives (wr_id, SGE count - 1, offset /
    16), then records: kind 1 = a built request (see build_request)."""
    recvs = bytes([0, 0, 0]) * 4

    def req(pick, payload=b"", dmalen=0, where=0, delta=0):
        return (bytes([1, pick, 0, delta & 0xFF, 1, 0, where, 0, dmalen]) +
                bytes(32) + bytes([len(payload) // 4]) + payload)
    SEND_ONLY, WRITE_ONLY, READ, CS, FA = 4, 10, 12, 13, 14
    FIRST, MIDDLE, LAST = 0, 1, 2
    convo = (req(SEND_ONLY, b"ping" * 4) + req(WRITE_ONLY, bytes(64), 8) +
             req(READ, b"", 16) + req(CS, b"", 8) + req(FA, b"", 8) +
             req(FIRST, bytes(256)) + req(MIDDLE, bytes(256)) +
             req(LAST, b"end!") + bytes([2, 0xFF]))
    for cfg in (0x00, 0x01, 0x02, 0x04, 0x06, 0x40, 0x41, 0x80):
        put("engine", bytes([cfg]) + recvs + convo)
    # out-of-sequence PSN, bad R_Key, raw bytes aimed at the QP
    put("engine", bytes([0]) + recvs + req(SEND_ONLY, b"abcd", 0, 0, 0x40))
    put("engine", bytes([0]) + recvs + req(WRITE_ONLY, bytes(8), 8, 0x40))
    tp = transport(0x04, b"", b"raw!")
    raw = roce_v2_ip4(tp)
    raw += bytes(-len(raw) % 4)  # whole words; the excess is a trailer
    put("engine", bytes([0]) + recvs + bytes([0, len(raw) // 4]) + raw)


def gen_probe_episode():
    """probe_episode_fuzzer: every draw of the episode grammar takes the
    next byte (two for draws over 256), so an input is a path through
    fuzz_gen.c.  Byte 0 even: the device as responder, odd: as requester;
    the seeds are pseudo-random streams of a few lengths, both sides."""
    x = 0x9E3779B9
    for side in (0, 1):
        for n in (16, 64, 256, 1024):
            for _ in range(3):
                out = bytearray([side])
                for _ in range(n):
                    x = (x * 1103515245 + 12345) & 0xFFFFFFFF
                    out.append(x >> 24)
                put("probe_episode", bytes(out))


GENERATORS = {"wire": gen_wire, "packet": gen_packet, "mad": gen_mad,
              "records": gen_records, "host": gen_host,
              "capture": gen_capture, "check": gen_check,
              "engine": gen_engine, "probe_episode": gen_probe_episode}

if __name__ == "__main__":
    for n in sys.argv[1:] or GENERATORS:
        GENERATORS[n]()
