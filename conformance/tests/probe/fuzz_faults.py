#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The fuzzer's self-check (conformance/probe/README.md, "Fuzzing"):
`ibwire probe --self --fault F --fuzz N` for each fault mode F of `ibwire
sim --list-faults`, measuring whether the fuzzer finds F on its own, after
how many episodes and seconds, and how short the minimized script is.

  fuzz_faults.py IBWIRE [--episodes N] [--time-limit S] [--seed S]
                 [--only F,F...] [--markdown] [--require F,F...]
                 [--clean N]

--markdown prints the README's table.  --require: each fault named must be
found with a verified script (fails on the faulty engine, passes on the
clean one) of at most 15 lines, and the script, run again with `--script`,
must fail with the fault and pass without it; --clean N: N episodes with
no fault must find nothing.  Exit 1 when a requirement fails.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

MAX_LINES = 15


def faults(ibwire):
    out = subprocess.run([ibwire, "sim", "--list-faults"], capture_output=True,
                         text=True, check=True).stdout
    names = []
    for line in out.splitlines()[1:]:
        f = line.split()
        if f and f[0] != "-":
            names.append((f[0], f[2]))
    return names


def run(ibwire, fault, episodes, seed, limit, outdir):
    cmd = [ibwire, "probe", "--self", "--fuzz", str(episodes), "--seed",
           str(seed), "--out", outdir]
    if limit:
        cmd += ["--time-limit", str(limit)]
    if fault:
        cmd += ["--fault", fault]
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True)
    secs = time.monotonic() - t0
    res = {"rc": p.returncode, "secs": secs, "out": p.stdout + p.stderr,
           "divergences": 0, "first_ep": None, "first_s": None, "scripts": []}
    m = re.search(r"fuzz: (\d+) episodes .* in ([\d.]+) s \((\d+)/s\), seed \d+: "
                  r"(\d+) divergences(?:, the first at episode (\d+) after "
                  r"([\d.]+) s)?", p.stdout)
    if m:
        res["episodes"] = int(m.group(1))
        res["rate"] = int(m.group(3))
        res["divergences"] = int(m.group(4))
        if m.group(5):
            res["first_ep"] = int(m.group(5))
            res["first_s"] = float(m.group(6))
    key = None
    for line in p.stdout.splitlines():
        d = re.match(r"DIVERGENCE (\S+) \[(\S+)\] (.*)", line)
        if d:
            key = (d.group(1), d.group(2), d.group(3))
        s = re.match(r"  (\S+\.probe): (\d+) lines, (.*)", line)
        if s and key:
            res["scripts"].append({"id": key[0], "judgement": key[1],
                                   "what": key[2], "path": s.group(1),
                                   "lines": int(s.group(2)),
                                   "verified": s.group(3).startswith("fails")})
    return res


def replay(ibwire, fault, path):
    """The script fails with the fault and passes without it."""
    with_f = subprocess.run([ibwire, "probe", "--self", "--fault", fault,
                             "--script", path], capture_output=True, text=True)
    without = subprocess.run([ibwire, "probe", "--self", "--script", path],
                             capture_output=True, text=True)
    return with_f.returncode == 1 and without.returncode == 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ibwire")
    ap.add_argument("--episodes", type=int, default=20000)
    ap.add_argument("--time-limit", type=float, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--require")
    ap.add_argument("--clean", type=int, default=0)
    a = ap.parse_args()
    bad = []
    with tempfile.TemporaryDirectory() as tmp:
        if a.clean:
            r = run(a.ibwire, None, a.clean, a.seed, 0, os.path.join(tmp, "clean"))
            print(f"no fault: {r.get('episodes')} episodes, {r['divergences']} "
                  f"divergences, {r.get('rate')} episodes/s")
            if r["rc"] != 0 or r["divergences"]:
                bad.append("the clean engine diverged:\n" + r["out"][-3000:])
        names = faults(a.ibwire)
        only = set((a.only or a.require or "").split(",")) - {""}
        if only:
            unknown = only - {n for n, _ in names}
            if unknown:
                sys.exit(f"unknown fault modes: {sorted(unknown)}")
            names = [(n, s) for n, s in names if n in only]
        rows = []
        if a.episodes == 0:
            names = []
        for name, side in names:
            r = run(a.ibwire, name, a.episodes, a.seed, a.time_limit,
                    os.path.join(tmp, name))
            ok = [s for s in r["scripts"] if s["verified"]]
            best = min(ok, key=lambda s: s["lines"]) if ok else None
            rows.append((name, side, r, best))
            if a.require:
                if not best or best["lines"] > MAX_LINES:
                    bad.append(f"{name}: not found with a verified script of at "
                               f"most {MAX_LINES} lines:\n" + r["out"][-2000:])
                elif not replay(a.ibwire, name, best["path"]):
                    bad.append(f"{name}: {best['path']} does not fail with the "
                               f"fault and pass without it")
            if not a.markdown:
                print(f"{name:22} {side:9} " + (
                    f"found at episode {r['first_ep']} after {r['first_s']:.2f} s, "
                    f"{best['lines'] if best else '-'} lines ({best['judgement'] if best else '-'})"
                    if r["first_ep"] else "not found"), flush=True)
        if a.markdown:
            found = sum(1 for _, _, r, b in rows if b and b["lines"] <= MAX_LINES)
            print(f"{found} of {len(rows)} fault modes found and minimized to at most "
                  f"{MAX_LINES} lines ({a.episodes} episodes or {a.time_limit:g} s "
                  f"each, seed {a.seed}):\n")
            print("| fault mode | side | found at episode | after | script lines "
                  "| judgement | the divergence |")
            print("|---|---|---|---|---|---|---|")
            for name, side, r, best in rows:
                if best:
                    what = best["what"].replace("|", "\\|")
                    print(f"| `{name}` | {side} | {r['first_ep']} | "
                          f"{r['first_s']:.2f} s | {best['lines']} | "
                          f"`{best['judgement']}` | {what} |")
                elif r["first_ep"]:
                    print(f"| `{name}` | {side} | {r['first_ep']} | "
                          f"{r['first_s']:.2f} s | not verified | | |")
                else:
                    print(f"| `{name}` | {side} | not found in "
                          f"{r.get('episodes', '?')} | | | | |")
    for b in bad:
        print("FAIL:", b, file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
