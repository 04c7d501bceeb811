#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Run a Verilator simulation for a meson test.

  run_sim.py [--expect-fail TEXT] SIM [PLUSARG...]

Without --expect-fail the simulation must exit 0.  With it, the simulation
must exit non-zero AND print TEXT: a testbench run against a DUT with an
injected bug passes only when it fails for the reason it should, not for
any other (a crash, a build problem, a different check).
"""
import subprocess
import sys


def main(argv):
    expect = None
    if len(argv) > 2 and argv[1] == "--expect-fail":
        expect = argv[2]
        argv = argv[2:]
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    run = subprocess.run(argv[1:], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    sys.stdout.write(run.stdout)
    if expect is None:
        return run.returncode
    if run.returncode == 0:
        print(f"run_sim: expected a failure ({expect!r}), the run passed")
        return 1
    if expect not in run.stdout:
        print(f"run_sim: the run failed (exit {run.returncode}) but without "
              f"{expect!r}")
        return 1
    print(f"run_sim: failed as expected (exit {run.returncode}, {expect!r})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
