#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Bench `ibwire check --replay`: time and peak memory per capture shape.

  bench_replay.py IBWIRE [BASELINE_IBWIRE] [--quick]

Captures from rcgen.py (hand-written correct RC traffic: WRITE, READ,
FETCH & ADD in turn, interleaved over the connections, 4 R_Keys):
  dense-1     1 QP x 3840 messages, buffers within 1 MiB per R_Key (what
              the 4 MiB windows of the old reference modelled)
  dense-64    64 QPs x 60 messages, the same
  sparse-64   64 QPs x 60 messages, buffers over 2^40 bytes
  many-2000   2000 QPs x 3 messages, buffers over 2^40 bytes
For each: the best of 3 CPU times (user + system: the machine is shared)
and the peak RSS of `check --replay`, and of plain `check`; with a
baseline binary, the same for it and the ratio new/baseline, measured in
this run.  The baseline may skip flows (REPLAY-SKIPPED): its time is then
for less work, which the `skipped` column says.  Then the marginal cost of
a frame: the same QPs with twice the messages, (t2 - t1) / (n2 - n1),
which leaves out the set-up of each flow (an engine and its first
snapshot).  --quick: an eighth of the QPs or messages.
"""
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import rcgen  # noqa: E402


def measure(binary, args, path, runs=3):
    """Best CPU time (user + system: the machine is shared, wall time is
    noise) and peak RSS over `runs` runs, and the REPLAY-SKIPPED count."""
    best, rss, out = None, 0, ""
    for _ in range(runs):
        p = subprocess.Popen([binary, "check"] + args + [path],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        out = p.stdout.read()
        _, _, ru = os.wait4(p.pid, 0)
        t = ru.ru_utime + ru.ru_stime
        best = t if best is None else min(best, t)
        rss = max(rss, ru.ru_maxrss)
    return best, rss, out.count("REPLAY-SKIPPED")


def row(label, name, n, b, path, args=("--replay",)):
    t, rss, sk = measure(b, list(args), path)
    print("%-10s %7d | %-8s %9.2f %8.1f %7d" % (name, n, label, t / n * 1e6,
                                                rss / 1024, sk))
    return t, rss


def capture(tmp, name, nq, nm, span):
    _, tagged = rcgen.sparse(nq, nm, nkeys=4, span_bits=span, seed=3)
    path = os.path.join(tmp, name + ".pcap")
    rcgen.write_pcap(path, [f for _, _, f in tagged])
    return path, len(tagged)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    quick = "--quick" in sys.argv
    new = args[0]
    base = args[1] if len(args) > 1 else None
    q = 8 if quick else 1
    tmp = tempfile.mkdtemp(prefix="bench_replay.")
    print("Whole runs (flow set-up included); baseline = the binary given second")
    print("%-10s %7s | %-8s %9s %8s %7s" % ("shape", "frames", "binary", "cpu us/f",
                                           "RSS MiB", "skipped"))
    shapes = [("dense-1", 1, 3840 // q, 20), ("dense-64", 64 // q, 60, 20),
              ("sparse-64", 64 // q, 60, 40), ("many-%d" % (2000 // q), 2000 // q, 3, 40)]
    for name, nq, nm, span in shapes:
        path, n = capture(tmp, name, nq, nm, span)
        r = {"new": row("new", name, n, new, path)}
        if base:
            r["baseline"] = row("baseline", name, n, base, path)
            print("%-10s %7s | ratio new/baseline: cpu %.2f, RSS %.2f" % (
                "", "", r["new"][0] / r["baseline"][0], r["new"][1] / r["baseline"][1]))
        row("check", name, n, new, path, ())
        os.remove(path)
    # the cost of one more frame, flow set-up aside: twice the messages on
    # the same QPs, (t2 - t1) / (n2 - n1)
    print()
    print("Marginal cost of a frame (twice the messages on the same QPs)")
    print("%-22s | %-8s %9s" % ("shape", "binary", "cpu us/f"))
    for nq, nm, span in ((1, 1000 // q, 20), (64 // q, 16, 20), (64 // q, 16, 40),
                         (1000 // q, 6, 40)):
        p1, n1 = capture(tmp, "a", nq, nm, span)
        p2, n2 = capture(tmp, "b", nq, 2 * nm, span)
        for label, b in (("new", new), ("baseline", base)):
            if not b:
                continue
            t1, _, s1 = measure(b, ["--replay"], p1)
            t2, _, s2 = measure(b, ["--replay"], p2)
            print("%-22s | %-8s %9.2f%s" % (
                "%d QPs, VA span 2^%d" % (nq, span), label, (t2 - t1) / (n2 - n1) * 1e6,
                "  (%d flows skipped)" % s2 if s2 else ""))
        os.remove(p1)
        os.remove(p2)
    os.rmdir(tmp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
