#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`ibwire dump` on damaged captures: no crash, no sanitizer report.

usage: dump_mutated.py IBWIRE CAPTURE...

Each capture is copied with random bytes overwritten (seeded, so runs
repeat): record headers, ERF headers, exported-PDU tags, IBA headers and
lengths all get hit.  Every copy is dumped as text, as JSON and as fields
(all of them).  ibwire must exit 0 (file read) or 2 (file damaged), say
nothing on stderr but its own "ibwire dump:" lines, and print valid JSON.
"""
import json
import os
import random
import subprocess
import sys
import tempfile

MUTANTS = 12


def main():
    ibwire, caps = sys.argv[1], sys.argv[2:]
    fields = subprocess.run([ibwire, "dump", "--list-fields"],
                            stdout=subprocess.PIPE, check=True)
    eargs = []
    for line in fields.stdout.decode().splitlines():
        eargs += ["-e", line.split()[0]]
    rng = random.Random(0x1b3)
    bad = 0
    runs = 0
    with tempfile.TemporaryDirectory() as tmp:
        for cap in caps:
            data = open(cap, "rb").read()
            head = 24 if data[:4] != b"\x0a\x0d\x0d\x0a" else 60
            for m in range(MUTANTS):
                b = bytearray(data[:4000])  # the first few dozen frames
                for _ in range(rng.choice((1, 4, 16))):
                    pos = rng.randrange(head, len(b))
                    b[pos] = rng.randrange(256)
                if m % 4 == 3:  # and cut somewhere
                    del b[rng.randrange(head, len(b)):]
                path = os.path.join(tmp, f"m{m}-{os.path.basename(cap)}")
                with open(path, "wb") as f:
                    f.write(b)
                for mode in (["-T", "text"], ["-T", "json"],
                             ["-T", "fields"] + eargs):
                    runs += 1
                    p = subprocess.run([ibwire, "dump"] + mode + [path],
                                       stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, check=False)
                    err = p.stderr.decode("utf-8", "replace")
                    foreign = [l for l in err.splitlines()
                               if not l.startswith("ibwire dump: ")]
                    if p.returncode not in (0, 2) or foreign:
                        bad += 1
                        print(f"{path} {mode[1]}: exit {p.returncode}")
                        print("\n".join(foreign[:20]))
                        continue
                    if mode[1] == "json":
                        for line in p.stdout.decode().splitlines():
                            try:
                                json.loads(line)
                            except ValueError as e:
                                bad += 1
                                print(f"{path}: invalid JSON {e}: {line}")
                                break
    print(f"dump_mutated: {runs} runs, {bad} bad")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
