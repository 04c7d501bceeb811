#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Cost per frame of the testbench's DPI checks.

  dpi_cost.py SIM [FRAMES]

Runs the ICRC inserter testbench twice on the same frames (same seed):
with its per-frame DPI checks (parse, opcode/PSN/QP reads, ICRC verdict,
checker feed) and with +nodpi, which only skips them.  The difference in
CPU time, divided by the frames, is what the DPI path costs a frame; the
best of three runs each is taken, the machine being shared.  The budget is
2 us a frame.
"""
import os
import resource
import subprocess
import sys

BUDGET_US = 2.0


def cpu_seconds(argv):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if run.returncode != 0:
        sys.stdout.write(run.stdout)
        raise SystemExit(f"dpi_cost: {' '.join(argv)} failed")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    sim = argv[1]
    frames = int(argv[2]) if len(argv) == 3 else 100000
    base = [sim, f"+frames={frames}", "+seed=7"]
    with_dpi = min(cpu_seconds(base) for _ in range(3))
    without = min(cpu_seconds(base + ["+nodpi"]) for _ in range(3))
    per_frame_us = (with_dpi - without) / frames * 1e6
    print(f"DPI checks: {per_frame_us:.2f} us/frame over {frames} frames "
          f"(CPU {with_dpi:.3f} s with, {without:.3f} s without; "
          f"budget {BUDGET_US:.1f} us: "
          f"{'within' if per_frame_us < BUDGET_US else 'OVER'})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
