#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A fault mode as a family: its random variants against the checker.

usage: variants_suite.py IBWIRE NAME VARIANTS SEED[,SEED...]

Runs `ibwire sim --fault NAME --variants VARIANTS --seed S` for every seed.
Each variant (operations, sizes, PMTU, transport, where the fault strikes,
loss around it) runs with the fault and as its clean control, and `ibwire
check` judges both (conformance/tool/sim_variants.c).  Required, for every
seed:
  - no variant could not be run or judged;
  - every clean control is clean (no error but what its traffic carries by
    design);
  - a fault with a rule (ibwire sim --list-faults): the rule caught every
    variant the fault changed, and the fault changed at least one (a
    family none of whose variants fires tests nothing).
A fault "not decidable from a capture" says so in the output and is held to
its clean controls only.  The independent side: the rule IDs come from the
fault table, the verdicts from the checker, which knows nothing of faults.
"""
import re
import subprocess
import sys

SUMMARY = re.compile(r"^summary (\S+): (\d+) variants, (\d+) caught, (\d+) missed, "
                     r"(\d+) unchanged by the fault, (\d+) controls clean, "
                     r"(\d+) not clean, (\d+) not run( \(not decidable\))?$", re.M)


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    ibwire, name, n, seeds = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
    failures = []
    for seed in seeds.split(","):
        p = subprocess.run([ibwire, "sim", "--fault", name, "--variants", n,
                            "--seed", seed], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
        m = SUMMARY.search(p.stdout)
        if not m or p.returncode not in (0, 1):
            failures.append("seed %s: no summary (exit %d) %s" % (
                seed, p.returncode, p.stderr.strip()))
            continue
        (_, total, caught, missed, unchanged, clean, dirty, notrun,
         undecidable) = m.groups()
        total, caught, missed, unchanged, clean, dirty, notrun = map(
            int, (total, caught, missed, unchanged, clean, dirty, notrun))
        print(m.group(0))
        for block in re.split(r"(?=^variant \d+:)", p.stdout, flags=re.M):
            if "MISSED" in block or "NOT CLEAN" in block or "error: could not" in block:
                print(block.rstrip())
        if notrun:
            failures.append("seed %s: %d variants not run or judged" % (seed, notrun))
        if dirty:
            failures.append("seed %s: %d clean controls not clean" % (seed, dirty))
        if not undecidable:
            if missed:
                failures.append("seed %s: %d of %d variants missed" % (
                    seed, missed, total))
            if caught + missed == 0:
                failures.append("seed %s: the fault changed none of its variants"
                                % seed)
        elif p.returncode != 0 and not (dirty or notrun):
            failures.append("seed %s: exit %d" % (seed, p.returncode))
        if not undecidable and not (missed or dirty or notrun) and p.returncode != 0:
            failures.append("seed %s: exit %d with nothing missed" % (seed, p.returncode))
    for f in failures:
        print("FAIL:", f)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
