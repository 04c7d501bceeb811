#!/usr/bin/env python3
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

HERE = os.path.dirname(os.path.abspath(__file__))


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


GENERATORS = {"wire": gen_wire}

if __name__ == "__main__":
    for n in sys.argv[1:] or GENERATORS:
        GENERATORS[n]()
