#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""ibwire probe --self --fault: each test fails with the engine fault modes
its --list entry names, is a QUALITY result (a bound the IBA does not set
missed, no "shall" broken) with those its QUALITY column names, and passes
without them.

  probe_faults.py IBWIRE

A test that fails against a real device must also fail against the
reference engine with the fault mode of the same bug (issue 27, Proof), so
that a failure is the device's, not the probe's own mistake.  The fault
modes are the engine's (conformance/engine/faults.h, `ibwire sim
--list-faults`), not breakages the probe knows about: a probe test that
passed a faulty engine would be a test that cannot fail.
"""
import subprocess
import sys

sys_failures = []


def fail(msg):
    sys_failures.append(msg)
    print("FAIL:", msg)


def run(ibwire, args):
    p = subprocess.run([ibwire, "probe"] + args, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def verdicts(out):
    v = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) >= 2 and f[0] in ("PASS", "FAIL", "N/A", "ERROR", "QUALITY"):
            v[f[1]] = f[0]
    return v


def main():
    ibwire = sys.argv[1]
    # the engine's fault modes
    p = subprocess.run([ibwire, "sim", "--list-faults"], capture_output=True, text=True)
    known = set()
    for line in p.stdout.splitlines()[1:]:
        f = line.split()
        if f and f[0] != "fault" and "-" in f[0] and f[0].islower():
            known.add(f[0])
    if len(known) < 20:
        fail(f"ibwire sim --list-faults: only {len(known)} fault modes read")

    # the list's fifth column: the fault modes each test must fail with
    rc, out, err = run(ibwire, ["--list"])
    if rc != 0:
        fail(f"--list exits {rc}: {err}")
    by_fault, by_quality = {}, {}
    mapped = []
    for line in out.splitlines():
        f = line.split("\t")
        if len(f) != 7:
            fail(f"--list line without its fault, quality and statement columns: {line!r}")
            continue
        if f[4] == "-" and f[5] == "-":
            continue
        mapped.append(f[0])
        for col, into in ((f[4], by_fault), (f[5], by_quality)):
            if col == "-":
                continue
            for name in col.split(","):
                if name not in known:
                    fail(f"{f[0]}: fault mode {name!r} is not the engine's")
                into.setdefault(name, []).append(f[0])
    if len(by_fault) < 20:
        fail(f"only {len(by_fault)} fault modes have a probe test that they fail")

    # an unknown fault mode is refused
    rc, _, err = run(ibwire, ["--self", "--fault", "no-such-fault", "--only", "resp-send-only"])
    if rc != 2 or "no-such-fault" not in err:
        fail(f"--fault no-such-fault: exit {rc}, {err.strip()!r}")

    # without a fault every mapped test passes (the control)
    rc, out, err = run(ibwire, ["--self", "--only", ",".join(mapped)])
    v = verdicts(out)
    for t in mapped:
        if v.get(t) != "PASS":
            fail(f"{t}: {v.get(t)} without a fault (the control must pass)")

    # with each fault, every test that names it fails (FAIL, not a target
    # ERROR), and the run says so in its exit status
    for name in sorted(by_fault):
        tests = by_fault[name]
        rc, out, err = run(ibwire, ["--self", "--fault", name, "--only", ",".join(tests)])
        v = verdicts(out)
        bad = [t for t in tests if v.get(t) != "FAIL"]
        if bad or rc != 1:
            fail(f"--fault {name}: exit {rc}; not failed: "
                 + ", ".join(f"{t} ({v.get(t)})" for t in bad))
        else:
            print(f"ok: --fault {name} fails {', '.join(tests)}")
    # with each quality fault, the tests naming it are QUALITY (every
    # "shall" held: the run exits 0) and say the figure they measured
    for name in sorted(by_quality):
        tests = by_quality[name]
        rc, out, err = run(ibwire, ["--self", "--fault", name, "--only", ",".join(tests)])
        v = verdicts(out)
        bad = [t for t in tests if v.get(t) != "QUALITY"]
        if bad or rc != 0 or " ms " not in out:
            fail(f"--fault {name}: exit {rc}; not QUALITY with a figure: "
                 + ", ".join(f"{t} ({v.get(t)})" for t in bad))
        else:
            print(f"ok: --fault {name} makes {', '.join(tests)} QUALITY")
    print(f"{len(by_fault)} fault modes, {len(by_quality)} quality, {len(mapped)} tests; "
          f"{len(sys_failures)} problems")
    return 1 if sys_failures else 0


if __name__ == "__main__":
    sys.exit(main())
