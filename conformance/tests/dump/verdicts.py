#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Check `ibwire dump`'s verdicts on a real capture made by others.

usage: verdicts.py --ibwire BIN --iba N [--vcrc] CAPTURE

The capture's provenance says how many frames are IBA and that their CRCs
are valid: ibwire must find exactly N IBA frames, decode each without error,
find each ICRC good (and each VCRC good with --vcrc), print nothing on
stderr and exit 0.  Exit 77 (skip) when the capture is not there.
"""
import argparse
import os
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ibwire", required=True)
    ap.add_argument("--iba", type=int, required=True)
    ap.add_argument("--vcrc", action="store_true")
    ap.add_argument("capture")
    a = ap.parse_args()
    if not os.path.exists(a.capture):
        print(f"{a.capture} not present: skipped")
        return 77
    p = subprocess.run([a.ibwire, "dump", "-T", "fields",
                        "-e", "frame.number", "-e", "ibwire.transport",
                        "-e", "ibwire.error", "-e", "ibwire.icrc.status",
                        "-e", "ibwire.vcrc.status", a.capture],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       check=False)
    bad = 0
    if p.returncode != 0 or p.stderr:
        print(f"ibwire exited {p.returncode}, stderr: {p.stderr.decode()}")
        bad += 1
    iba = 0
    for line in p.stdout.decode().splitlines():
        num, transport, err, icrc, vcrc = line.split("\t")
        if transport == "none":
            continue
        iba += 1
        want_vcrc = "good" if a.vcrc else "absent"
        if err or icrc != "good" or vcrc != want_vcrc:
            bad += 1
            print(f"frame {num}: {transport} error '{err}' icrc {icrc} "
                  f"vcrc {vcrc}")
    if iba != a.iba:
        print(f"{iba} IBA frames, expected {a.iba}")
        bad += 1
    print(f"{a.capture}: {iba} IBA frames checked, {bad} problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
