#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`ibwire dump` on MADs with random bytes: no crash, no sanitizer report.

usage: mad_mutated.py IBWIRE CAPTURE...   (classic pcap files)

Each frame of each capture gets bytes of its MAD area overwritten (seeded,
so runs repeat): management class, attribute, method, RMPP type, lengths,
service IDs all get hit while the packet framing stays intact, so every
frame still reaches the MAD code.  Every copy is dumped as text, as JSON
and with every MAD/CM field; ibwire must exit 0, print nothing on stderr
but its own lines, and print valid JSON.
"""
import json
import os
import random
import struct
import subprocess
import sys
import tempfile

ROUNDS = 8
MAD = 256


def mutate(data, rng):
    out = bytearray(data)
    # the MAD ends before the ICRC, and natively (ERF, 197) the VCRC
    crcs = 6 if struct.unpack_from("<I", out, 20)[0] == 197 else 4
    pos = 24  # classic pcap file header
    while pos + 16 <= len(out):
        caplen = struct.unpack_from("<I", out, pos + 8)[0]
        start = pos + 16
        end = start + caplen
        lo = max(start, end - crcs - MAD - 4)  # the MAD, the ImmDt too
        for _ in range(rng.choice((1, 3, 8, 32))):
            out[rng.randrange(lo, end)] = rng.randrange(256)
        # now and then a class/attribute pair that tshark dissects
        if rng.randrange(4) == 0 and end - crcs - MAD >= start:
            out[end - crcs - MAD + 1] = rng.choice((0x01, 0x81, 0x03, 0x07,
                                                    0x04))
        pos = end
    return bytes(out)


def main():
    ibwire, caps = sys.argv[1], sys.argv[2:]
    names = subprocess.run([ibwire, "dump", "--list-fields"],
                           stdout=subprocess.PIPE, check=True)
    eargs = []
    for line in names.stdout.decode().splitlines():
        name = line.split()[0]
        if name.startswith(("infiniband.", "ibwire.mad", "ibwire.cm")):
            eargs += ["-e", name]
    rng = random.Random(0x3ad)
    bad = runs = 0
    with tempfile.TemporaryDirectory() as tmp:
        for cap in caps:
            data = open(cap, "rb").read()
            for r in range(ROUNDS):
                path = os.path.join(tmp, f"r{r}-{os.path.basename(cap)}")
                with open(path, "wb") as f:
                    f.write(mutate(data, rng))
                for mode in (["-T", "text"], ["-T", "json"],
                             ["-T", "fields"] + eargs):
                    runs += 1
                    p = subprocess.run([ibwire, "dump"] + mode + [path],
                                       stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, check=False)
                    err = p.stderr.decode("utf-8", "replace")
                    foreign = [ln for ln in err.splitlines()
                               if not ln.startswith("ibwire dump: ")]
                    if p.returncode != 0 or foreign:
                        bad += 1
                        print(f"{path} {mode[1]}: exit {p.returncode}")
                        print("\n".join((foreign or err.splitlines())[:20]))
                        continue
                    if mode[1] == "json":
                        for line in p.stdout.decode().splitlines():
                            try:
                                json.loads(line)
                            except ValueError as e:
                                bad += 1
                                print(f"{path}: invalid JSON {e}: {line}")
                                break
    print(f"mad_mutated: {runs} runs, {bad} bad")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
