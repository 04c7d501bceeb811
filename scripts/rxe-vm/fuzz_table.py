#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The table of `scripts/rxe-vm.sh --fuzz` (docs/probe.md, "Fuzzing rxe").

Reads DIR (the guest's /out/fuzz: fuzz.txt, progress.txt, ID.probe,
pcaps/ID.pcapng) and prints, in markdown, the run's figures and one row per
divergence: its minimized script, the statement and judgement, and whether
it is a known rxe failure.

Known or new is decided by running the script on the reference engine, not
by its text: each known failure of docs/probe.md has an engine fault mode
that makes the engine fail the same way (conformance/engine/faults.h).  A
script that passes on the clean engine and fails with fault F is the known
failure F stands for; one that no such fault fails is "new?" and has to be
read (F8 and F9 of docs/rxe-vm.md have no fault mode: they need an ACK
racing a half-done resend, or a send that fails, which an episode does not
make).  The frames are listed with `ibwire dump`.
"""
import argparse
import glob
import os
import re
import subprocess
import sys

# docs/probe.md "The failures" (and "Fuzzing rxe"): the engine fault mode of
# each known one
KNOWN = [
    ("len-check-off", "C9-92 lengths unchecked (resp-len-first-short, -last-over, -only-over; "
                      "fixed in v6.2)"),
    ("seq-nak-after-rnr", "sequence NAK after an RNR NAK (resp-rnr-then-drop)"),
    ("long-send-qp-op-err", "receive too small: Local QP Operation Error (resp-send-too-long)"),
    ("read-gap-dropped", "READ gap recovered only at the timeout (req-lost-read-response)"),
    ("ack-beyond-accepted", "ACK beyond the last PSN sent accepted (req-ack-beyond)"),
    ("ack-timer-tick", "ACK timer in jiffies fires early (req-lost-ack)"),
    # found by this bench (docs/probe.md "Fuzzing rxe")
    ("zero-dmalen-data", "WRITE of DMA length 0 carrying bytes: 6.1 crashes "
                         "(resp-len-write-zero-dmalen)"),
]

HEAD = re.compile(r"^DIVERGENCE (\S+) \[(\S+)\] (\S+) \((.*?)\)(?: ([^:]*))?: (.*)$")
FILE = re.compile(r"^  (\S+\.probe): (\d+) lines, (.*)$")
STEP = re.compile(r"line \d+ `([^`]*)`")
NUM = re.compile(r"0x[0-9a-fA-F]+|\d+(\.\d+)?")
PROBE_IP = "10.9.0.3"  # rxe-vm/fuzz.sh


def outcome(text):
    """the failing line and what came there, numbers left out (addresses,
    keys and times differ between the device and the engine)"""
    m = STEP.search(text)
    if not m:
        return None
    rest = text[m.end():].split(" (frames:")[0].split(")\n")[0].split("\n")[0]
    return m[1], NUM.sub("#", rest)


def verdict(ibwire, script, fault=None):
    """PASS/FAIL/... of the script on the engine, and its outcome()"""
    cmd = [ibwire, "probe", "--self", "--script", script]
    if fault:
        cmd[3:3] = ["--fault", fault]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    return (p.stdout.split() or ["?"])[0], outcome(p.stdout)


def classify(ibwire, script):
    """known (the fault modes that fail the script on the line the device
    failed it, with what the device sent there) or new?"""
    if not os.path.exists(script):
        return "no script"
    clean, _ = verdict(ibwire, script)
    if clean != "PASS":
        return f"engine {clean} without a fault: not a divergence of the device"
    dev = outcome(open(script).read().split("\n# shrunk")[0])
    hits = []
    for f, what in KNOWN:
        v, out = verdict(ibwire, script, f)
        if v == "FAIL" and (dev is None or out == dev):
            hits.append(f"`{f}` ({what})")
    if hits:
        return "known: " + "; ".join(hits)
    return "new? (no known fault mode fails it where and as the device does)"


def frames(ibwire, pcap, n=12):
    """one line a frame: time, direction, opcode, PSN, AETH, payload bytes"""
    if not os.path.exists(pcap):
        return []
    p = subprocess.run([ibwire, "dump", "-T", "fields", "-e", "frame.number", "-e",
                        "frame.time_epoch", "-e", "ip.src", "-e", "ibwire.opcode.name", "-e",
                        "infiniband.bth.psn", "-e", "infiniband.aeth.syndrome", "-e",
                        "infiniband.aeth.msn", "-e", "ibwire.payload.len", pcap],
                       capture_output=True, text=True, timeout=60)
    out = []
    for ln in p.stdout.splitlines():
        f = ln.split("\t")
        if len(f) < 8:
            continue
        who = "probe > rxe" if f[2] == PROBE_IP else "rxe > probe"
        aeth = f" syndrome=0x{int(f[5]):02x} msn={f[6]}" if f[5] else ""
        psn = f"0x{int(f[4]):06x}" if f[4] else "?"
        out.append(f"{f[0]:>3} {float(f[1]) * 1000:9.3f} ms  {who}  {f[3]} psn={psn}{aeth}"
                   f" len={f[7]}")
    return out[:n] + ([f"... ({len(out) - n} more frames)"] if len(out) > n else [])


def run_rows(d):
    """the divergences of one guest (from its scripts' comments: fuzz.txt is
    complete only when the fuzzer ended), its figures"""
    out = open(os.path.join(d, "fuzz.txt")).read().splitlines() if os.path.exists(
        os.path.join(d, "fuzz.txt")) else []
    rows = []
    for f in glob.glob(os.path.join(d, "*.probe")):
        text = open(f).read()
        head = dict(re.findall(r"^# (statement|divergence): (.*)$", text, re.M))
        m = re.match(r"(\S+) \((.*?)\)\s+rules: (.*?)\s+\(judgement (\S+)\)",
                     head.get("statement", ""))
        if not m:
            continue
        body = [ln for ln in text.splitlines() if ln and not ln.startswith("#")]
        ok = "# the device fails this script" in text and "engine passes it" in text
        ident = os.path.basename(f)[:-len(".probe")]
        num = [int(x) for x in re.findall(r"\d+", ident)]
        rows.append(dict(id=ident, key=m[4], stmt=m[1], section=m[2], rules=m[3],
                         why=head.get("divergence", ""), file=f, lines=str(len(body)),
                         checked="fails on the device and passes" if ok else "", dir=d,
                         order=num))
    rows.sort(key=lambda r: r["order"])
    summary = [ln[6:] for ln in out if ln.startswith("fuzz: ") and "by judgement" not in ln]
    by = [ln[6:] for ln in out if ln.startswith("fuzz: divergences by judgement")]
    prog = os.path.join(d, "progress.txt")
    pl = [ln for ln in open(prog).read().splitlines()
          if ln.startswith("fuzz: ")] if os.path.exists(prog) else []
    return rows, summary, by, pl


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ibwire", required=True)
    ap.add_argument("--frames", type=int, default=12, help="frame lines per divergence")
    ap.add_argument("runs", nargs="+", help="each guest's directory (runN) or its fuzz/")
    a = ap.parse_args()
    rows = []
    for run in a.runs:
        d = os.path.join(run, "fuzz") if os.path.isdir(os.path.join(run, "fuzz")) else run
        r, summary, by, pl = run_rows(d)
        rows += r
        kf = os.path.join(d, "kernel")
        kernel = open(kf).read().strip() if os.path.exists(kf) else "?"
        print(f"- {run}: Linux {kernel}; " + (summary[-1] if summary else
              "no summary (the guest stopped before the fuzzer did)"))
        if by:
            print(f"  {by[-1]}")
        if pl and not summary:
            print(f"  its last progress line (the last snapshot): {pl[-1]}")
        warn = os.path.join(run, "warnings.txt")
        seen = {}
        for ln in (open(warn).read().splitlines() if os.path.exists(warn) else []):
            ep, _, text = ln.partition(": ")
            m = re.search(r"(\S+\.c:\d+)", text)
            k = (ep, m[1] if m else text)
            seen[k] = seen.get(k, 0) + 1
        for (ep, where), n in seen.items():
            print(f"  kernel warning at {where} in {ep or '?'}" + (f" ({n} times)" if n > 1 else ""))
        crash = os.path.join(run, "crash.txt")
        if os.path.exists(crash):
            c = open(crash).read().splitlines()
            print(f"  **{c[0]}**: " + "; ".join(ln.split("] ", 1)[-1].strip() for ln in c[1:6]))
    print()
    print("| divergence | script (lines) | statement | judgement | what differed | known or new |")
    print("|---|---|---|---|---|---|")
    details = []
    for r in rows:
        d = r["dir"]
        script = os.path.join(d, os.path.basename(r["file"])) if r["file"] else ""
        cls = classify(a.ibwire, script) if script else "no script written"
        name = os.path.basename(script) if script else "-"
        ver = "" if "fails on the device and passes" in r["checked"] else " (not verified)"
        why = r["why"].replace("|", "\\|")
        print(f"| {r['id']} | `{name}` ({r['lines']}){ver} | {r['stmt']} ({r['section']}) | "
              f"`{r['key']}` | {why[:160]} | {cls} |")
        fr = frames(a.ibwire, os.path.join(d, "pcaps", r["id"] + ".pcapng"), a.frames)
        if fr:
            details.append((r["id"], fr))
    if not rows:
        print("| (none) | | | | | |")
    for i, fr in details:
        print(f"\n{i}: the device's run of the minimized script (pcaps/{i}.pcapng; times from the "
              "run's first frame)\n")
        print("```")
        print("\n".join(fr))
        print("```")
    return 0


if __name__ == "__main__":
    sys.exit(main())
