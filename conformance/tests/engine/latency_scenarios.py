#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The bundled `ibwire sim` scenarios with module latencies: the documents'
profile and random per-module latencies (fixed seeds).  Each run must keep
the sim's own invariants (every message completes once and in order, every
byte verified where it lands), and `ibwire check`, which knows nothing of
the engine's timing, must find nothing in its capture but the ICRC errors
of the frames the link corrupted (--corrupt).

usage: latency_scenarios.py IBWIRE [RANDOM_RUNS]
"""
import json
import os
import random
import subprocess
import sys
import tempfile

SCENARIOS = [
    "--messages 200",
    "--messages 300 --max-size 20000 --drop 0.05 --dup 0.02 --reorder 0.02 --corrupt 0.01",
    "--messages 200 --transport uc --drop 0.05 --reorder 0.02",
    "--messages 200 --transport ud --drop 0.02",
    "--messages 150 --ecn 0.2 --drop 0.02",
    "--messages 100 --ib --max-size 9000 --drop 0.05",
    "--messages 200 --ops read,cas,faa --drop 0.05 --dup 0.05 --pmtu 256",
    "--messages 200 --seed 7 --ops send,send_imm,write_imm --drop 0.1 --reorder 0.1 --pmtu 4096 --max-size 65536",
    "--messages 300 --seed 3 --transport uc --ops write,write_imm --drop 0.1 --corrupt 0.05",
]
MODULES = ("ReqPktGen RespPktGen ExecutionEngine RequesterRecvControl "
           "RequesterTransControl HeaderParser DMAEngine ContextManager DataPack "
           "WQEParser MultiQueue TimerControl DoorbellProcessing WQEScheduler "
           "256To64Trans 64To256Trans AddressTranslation RQWQEManager "
           "ScatterEntryManager WriteAddrTable").split()


def findings(report):
    """(rule, severity) of every finding in a `check --format json` report."""
    out = []
    def walk(o):
        if isinstance(o, dict):
            if "rule" in o:
                out.append((o["rule"], o.get("severity")))
            for v in o.values():
                walk(v)
        elif isinstance(o, list):
            for v in o:
                walk(v)
    walk(report)
    return out


def ecn_marks(pcap):
    """tshark's reading of an --ecn run: the link marks IP ECN CE (annex
    A17.9), never the BTH FECN bit (CA17-29), and the marked requests draw
    CNPs (BTH opcode 0x81).  "" when so, else what is wrong."""
    try:
        p = subprocess.run(["tshark", "-r", pcap, "-d", "udp.port==4791,infiniband",
                            "-T", "fields", "-e", "ip.dsfield.ecn",
                            "-e", "infiniband.reserved", "-e", "infiniband.bth.opcode"],
                           capture_output=True, text=True, timeout=300)
    except FileNotFoundError:
        return ""  # no oracle here: the check findings above still judge
    ce = fecn = cnp = 0
    for line in p.stdout.splitlines():
        f = (line.split("\t") + ["", "", ""])[:3]
        ce += f[0] == "3"
        # tshark names no FECN field: the first "reserved" is BTH byte 4,
        # FECN its top bit (BECN 0x40 is the CNP's own)
        first = f[1].split(",")[0]
        fecn += bool(first) and int(first, 16) & 0x80 != 0
        cnp += f[2] == "129"
    if p.returncode != 0 or not ce or fecn or not cnp:
        return "tshark: %d CE-marked, %d with BTH FECN, %d CNPs" % (ce, fecn, cnp)
    return ""


def run(ibwire, args, lat, pcap):
    cmd = [ibwire, "sim"] + args.split() + ["-w", pcap]
    if lat:
        cmd += ["--latency", lat]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    try:
        return p.returncode, json.loads(p.stdout)
    except ValueError:
        return p.returncode, {"failure": p.stdout[-300:] + p.stderr[-300:]}


def main():
    ibwire = sys.argv[1]
    nrandom = int(sys.argv[2]) if len(sys.argv) > 2 else 12
    runs = [(s, "documents") for s in SCENARIOS]
    rnd = random.Random(2026)
    for _ in range(nrandom):
        lat = ",".join("%s=%d" % (m, rnd.choice([0, 1, 2, 5, 20, 100, 1000]))
                       for m in MODULES if rnd.random() < 0.6)
        runs.append((rnd.choice(SCENARIOS) + " --seed %d" % rnd.randint(1, 999),
                     lat or "documents"))
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        pcap = os.path.join(tmp, "run.pcap")
        for args, lat in runs:
            rc, res = run(ibwire, args, lat, pcap)
            chk = subprocess.run([ibwire, "check", "--format", "json", pcap],
                                 capture_output=True, text=True)
            try:
                found = findings(json.loads(chk.stdout))
            except ValueError:
                found = [("unreadable report", chk.stderr[-200:])]
            allowed = {("PKT-ICRC", "error")} if "--corrupt" in args else set()
            unexplained = sorted(set(found) - allowed)
            ok = rc == 0 and res.get("invariants_ok") is True and not unexplained
            if "--ecn" in args and "--ib" not in args:
                ecn = ecn_marks(pcap)
                if ecn:
                    unexplained.append(ecn)
                    ok = False
            print("%s  %s --latency %s: %s; %d findings%s" % (
                "ok  " if ok else "FAIL", args, lat,
                "invariants hold" if res.get("invariants_ok") else res.get("failure"),
                len(found), ", unexplained: %s" % unexplained if unexplained else ""))
            failed += not ok
        # the timing shows: the documents' profile moves the first request
        rc0, base = run(ibwire, SCENARIOS[0], None, pcap)
        rc1, timed = run(ibwire, SCENARIOS[0], "documents", pcap)
        if not (rc0 == 0 and rc1 == 0 and timed["sim_time_ns"] != base["sim_time_ns"]):
            print("FAIL  the documents' latencies did not change the run's time")
            failed += 1
    # a bad list is named, with exit 2, from the option and from the environment
    bad = subprocess.run([ibwire, "sim", "--latency", "ReqPktGen=5,Bogus=3"],
                         capture_output=True, text=True)
    env = dict(os.environ, IBWIRE_ENGINE_LATENCY="DMAEngine=x")
    bad_env = subprocess.run([ibwire, "sim", "--messages", "3"], env=env,
                             capture_output=True, text=True)
    for p, entry in ((bad, "'Bogus=3'"), (bad_env, "'DMAEngine=x'")):
        if p.returncode != 2 or entry not in p.stderr:
            print("FAIL  a bad latency list: exit %d, %r" % (p.returncode, p.stderr[:200]))
            failed += 1
    print("%d of %d runs failed" % (failed, len(runs)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
