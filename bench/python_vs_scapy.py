#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The Python package against scapy 2.5 on the same RoCEv2 capture.

usage: python_vs_scapy.py [--workdir DIR] [--frames N] [--min-ratio R]

Writes (once, in DIR) a pcap of N RoCEv2/IPv4 frames built by ibwire.build
(RC SEND, WRITE, READ, ACK and UD SEND, payloads 0-1024 bytes), then times
in one run:
  a  ibwire.read_capture + ibwire.parse + the BTH fields of every frame
     (opcode, se, padcnt, p_key, destqp, a, psn);
  b  scapy's rdpcap + the same fields through its RoCE layer (pkt[BTH]);
and prints both, frames per second, and the ratio.  Both must read the
same values (their sums are compared).  Exit 1 when the ratio is below R
(default 20), 77 when scapy is missing.
"""
import argparse
import os
import random
import struct
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
import ibwire  # noqa: E402

BTH_NAMES = ["infiniband.bth.opcode", "infiniband.bth.se",
             "infiniband.bth.padcnt", "infiniband.bth.p_key",
             "infiniband.bth.destqp", "infiniband.bth.a",
             "infiniband.bth.psn"]
# (opcode, fields beyond the BTH, payload sizes)
SHAPES = [
    (0x04, {}, (0, 16, 64, 1024)),
    (0x0A, {"infiniband.reth.va": 0x7F0000001000,
            "infiniband.reth.r_key": 0x1234, "infiniband.reth.dmalen": 512},
     (512,)),
    (0x0C, {"infiniband.reth.va": 0x7F0000002000,
            "infiniband.reth.r_key": 0x4321, "infiniband.reth.dmalen": 4096},
     (None,)),
    (0x11, {"infiniband.aeth.syndrome": 0x1F, "infiniband.aeth.msn": 3},
     (None,)),
    (0x64, {"infiniband.deth.q_key": 0x11111111,
            "infiniband.deth.srcqp": 0x55}, (0, 100)),
]


def write_capture(path, count):
    rng = random.Random(4791)
    tmp = path + ".part"
    with open(tmp, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B23C4D, 2, 4, 0, 0, 65535, 1))
        for n in range(count):
            opcode, extra, sizes = rng.choice(SHAPES)
            size = rng.choice(sizes)
            fields = dict(extra)
            fields.update({"infiniband.bth.opcode": opcode,
                           "infiniband.bth.destqp": rng.randrange(1, 64),
                           "infiniband.bth.psn": n & 0xFFFFFF,
                           "infiniband.bth.a": n & 1,
                           "infiniband.bth.se": (n >> 1) & 1})
            if size is not None:
                fields["data.data"] = bytes(size)
            frame = ibwire.build(fields)
            f.write(struct.pack("<IIII", 1700000000 + n // 1000000,
                                n % 1000000 * 1000, len(frame), len(frame)))
            f.write(frame)
    os.replace(tmp, path)


def run_ibwire(path):
    fields = BTH_NAMES
    total = frames = 0
    t0 = time.perf_counter()
    for link, ts_ns, frame, orig_len in ibwire.read_capture(path):
        pkt = ibwire.parse(frame, link, ts_ns, orig_len)
        for name in fields:
            total += pkt[name]
        frames += 1
    return time.perf_counter() - t0, frames, total


def run_scapy(path):
    from scapy.contrib.roce import BTH  # binds UDP port 4791
    from scapy.utils import rdpcap
    total = frames = 0
    t0 = time.perf_counter()
    for p in rdpcap(path):
        b = p[BTH]
        total += b.opcode + b.solicited + b.padcount + b.pkey + b.dqpn + \
            b.ackreq + b.psn
        frames += 1
    return time.perf_counter() - t0, frames, total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--workdir", default=".")
    ap.add_argument("--frames", type=int, default=100000)
    ap.add_argument("--min-ratio", type=float, default=20.0)
    a = ap.parse_args()
    try:
        import scapy.contrib.roce  # noqa: F401
    except ImportError:
        print("scapy not importable: skipped")
        return 77
    os.makedirs(a.workdir, exist_ok=True)
    path = os.path.join(a.workdir, "rocev2-%d.pcap" % a.frames)
    if not os.path.exists(path):
        t0 = time.perf_counter()
        write_capture(path, a.frames)
        print("wrote %s in %.1f s" % (path, time.perf_counter() - t0))
    ti, ni, si = run_ibwire(path)
    ts, ns, ss = run_scapy(path)
    print("ibwire: %d frames in %.3f s (%.0f frames/s)" % (ni, ti, ni / ti))
    print("scapy:  %d frames in %.3f s (%.0f frames/s)" % (ns, ts, ns / ts))
    ratio = ts / ti
    print("ratio:  %.1fx (at least %.0fx wanted)" % (ratio, a.min_ratio))
    if (ni, si) != (ns, ss):
        print("the two read different values: ibwire %d frames sum %d, "
              "scapy %d frames sum %d" % (ni, si, ns, ss))
        return 1
    return 0 if ratio >= a.min_ratio else 1


if __name__ == "__main__":
    sys.exit(main())
