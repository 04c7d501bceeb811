#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Benchmark `ibwire dump` against a bare libpcap loop and tshark.

usage: bench_dump.py --gen GEN --loop LOOP --ibwire IBWIRE [--tshark T]
                     --dir DIR [--packets N] [--tshark-packets M] [--enforce]

Generates an N-packet RoCEv2 capture in DIR (kept for the next run) and an
M-packet one of the same mix, then times, in this one run:
  loop    libpcap pcap_next_ex over every record, touching nothing (also
          "tuned": the FILE opened as ibwire's reader opens it, with a
          1 MiB buffer and no stdio locking);
  dump    ibwire dump -T fields -e frame.number (every frame parsed, every
          ICRC computed and compared), output to /dev/null;
  tshark  tshark -T fields -e frame.number on the M-packet capture (tshark
          is slow), scaled per packet; also on a 1000-packet one, to show
          how much of that is tshark's start-up.
Each program's time is the CPU time (user + system) of its process, best of
3 runs (1 for tshark): on a shared machine wall-clock time mostly measures
the other processes.  Wall-clock times are printed too.  Targets: dump at
least 1/3 of the loop's packet rate and at least 100x tshark's (start-up
included, as a per-packet scaling of the M-packet run).  --enforce makes a
missed target fail (meaningful only in an optimised, unsanitised build).
"""
import argparse
import os
import resource
import shutil
import subprocess
import sys
import time


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(cmd, runs):
    """(CPU seconds, wall seconds) of the fastest of `runs` runs."""
    best = None
    for _ in range(runs):
        c0, t0 = children_cpu(), time.perf_counter()
        with open(os.devnull, "wb") as null:
            subprocess.run(cmd, stdout=null, stderr=subprocess.DEVNULL,
                           check=True)
        t = (children_cpu() - c0, time.perf_counter() - t0)
        best = t if best is None or t[0] < best[0] else best
    return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gen", required=True)
    ap.add_argument("--loop", required=True)
    ap.add_argument("--ibwire", required=True)
    ap.add_argument("--tshark", default=shutil.which("tshark"))
    ap.add_argument("--dir", required=True)
    ap.add_argument("--packets", type=int, default=1000000)
    ap.add_argument("--tshark-packets", type=int, default=200000)
    ap.add_argument("--enforce", action="store_true")
    a = ap.parse_args()

    caps = {}
    for n in (a.packets, a.tshark_packets, 1000):
        caps[n] = os.path.join(a.dir, f"bench-rocev2-{n}.pcap")
        if not os.path.exists(caps[n]):
            subprocess.run([a.gen, caps[n] + ".tmp", str(n)], check=True)
            os.replace(caps[n] + ".tmp", caps[n])
    big = caps[a.packets]
    size = os.path.getsize(big)
    print(f"capture: {a.packets} RoCEv2 packets, {size / a.packets:.0f} "
          f"bytes per record on average, {size / 1e6:.0f} MB")

    def report(name, t, n):
        print(f"{name:13}: {t[0]:7.3f} s CPU ({t[1]:7.3f} s wall) "
              f"{n / t[0] / 1e6:8.3f} Mpkt/s  {t[0] / n * 1e9:8.0f} ns/pkt")
        return n / t[0]

    loop_rate = report("libpcap loop", timed([a.loop, big], 3), a.packets)
    tuned_rate = report("tuned loop", timed([a.loop, "--tuned", big], 3),
                        a.packets)
    dump_rate = report("ibwire dump", timed(
        [a.ibwire, "dump", "-T", "fields", "-e", "frame.number", big], 3),
        a.packets)
    ok = dump_rate >= loop_rate / 3
    print(f"dump / loop  : {dump_rate / loop_rate:.2f} (target >= 0.33); "
          f"{dump_rate / tuned_rate:.2f} against the loop with ibwire's "
          f"file settings")
    if a.tshark and os.path.exists(a.tshark):
        cmd = [a.tshark, "-n", "-T", "fields", "-e", "frame.number", "-r"]
        tm = timed(cmd + [caps[a.tshark_packets]], 1)
        ts_rate = report(f"tshark {a.tshark_packets // 1000}k", tm,
                         a.tshark_packets)
        t1 = timed(cmd + [caps[1000]], 1)
        report("tshark 1k", t1, 1000)
        steady = (a.tshark_packets - 1000) / max(tm[0] - t1[0], 1e-9)
        print(f"dump / tshark: {dump_rate / ts_rate:.0f} (target >= 100); "
              f"{dump_rate / steady:.0f} against tshark without its "
              f"start-up")
        ok = ok and dump_rate >= 100 * ts_rate
    else:
        print("tshark       : not installed, not compared")
    print("targets " + ("met" if ok else "MISSED"))
    return 1 if (a.enforce and not ok) else 0


if __name__ == "__main__":
    sys.exit(main())
