#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""perftest_netns.py IBWIRE: `ibwire peer -s --app perftest` (the server of
perftest's -R exchange, conformance/peer/perftest.c) against the engine's
own perftest client (`-c --app perftest --perftest VERB`) over a veth pair
in a network namespace of its own (unshare -n); exit 77 (skipped) when
the namespace or the pair cannot be made.

This is the run without a VM: both ends are the engine, so it proves the
two sides agree with each other and that the server's verdict holds
(test_peer_perftest holds the exchange against perftest's real bytes;
scripts/rxe-vm/peer.sh runs perftest itself).  Each run must end 0 on both
sides, with the client reporting its -C operations done (READs: every
byte equal to the server region's), the server reporting the client's
BW report (write, read) or the -C SENDs it received (send), and both
captures clean under `ibwire check`.  write, read and send, on a clean
wire and with 5 % of the server's frames lost (--loss; this host has no
sch_netem): its ACKs, NAKs, READ responses and answers, which the client
must recover by resending.  Not the client's: both captures are taken
after --loss drops a frame, so a resend that --loss drops in turn is
missing from them, and `check` then reads the next new PSN as Go-Back-N
cut short (FLOW-GBN, seen once in six runs with loss on both sides).
"""
import os
import subprocess
import sys
import tempfile

ibwire = sys.argv[1]
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg)


probe = subprocess.run(["unshare", "-n", "sh", "-c",
                        "ip link add pa type veth peer name pb"],
                       capture_output=True, text=True)
if probe.returncode != 0:
    print("skipped: cannot make a veth pair in a namespace:", probe.stderr.strip())
    sys.exit(77)

tmp = tempfile.mkdtemp(prefix="perftest_netns.")
COUNT, SIZE = 40, 4096


def run(verb, loss):
    name = verb + ("-loss" if loss else "")
    cap_c = os.path.join(tmp, name + "-client.pcap")
    cap_s = os.path.join(tmp, name + "-server.pcap")
    lo = f"--loss {loss} " if loss else ""  # the server only
    script = (
        "ip link add pa type veth peer name pb && ip link set pa up && "
        "ip link set pb up && "
        f"({ibwire} peer -i pb --ip 10.77.0.2 -s --app perftest -C {COUNT} "
        f"-S {SIZE} {lo}--timeout 60 --pcap {cap_s} 2>{tmp}/{name}-server.err; "
        f"echo $? >{tmp}/{name}-server.rc) & "
        "sleep 0.3; "
        f"{ibwire} peer -i pa --ip 10.77.0.1 -c 10.77.0.2 --app perftest "
        f"--perftest {verb} -C {COUNT} -S {SIZE} -V --timeout 60 --pcap {cap_c}; "
        "echo client=$?; wait")
    p = subprocess.run(["unshare", "-n", "sh", "-c", script],
                       capture_output=True, text=True, timeout=180)
    out = p.stdout + p.stderr
    with open(f"{tmp}/{name}-server.err") as f:
        serr = f.read()
    with open(f"{tmp}/{name}-server.rc") as f:
        src = f.read().strip()
    print(f"--- {name}: client\n{out.strip()}\n--- {name}: server (rc {src})\n{serr.strip()}")
    if "client=0" not in out:
        fail(f"{name}: the client did not end 0")
    what = {"write": "WRITEs", "read": "READs", "send": "SENDs"}[verb]
    verified = COUNT * SIZE if verb == "read" else 0
    want = f"{COUNT} {what} of {SIZE} bytes ({verified} bytes verified)"
    if want not in out:
        fail(f"{name}: the client did not report '{want}'")
    if src != "0":
        fail(f"{name}: the server ended {src}")
    swant = (f"{COUNT} SENDs received ({COUNT * SIZE} bytes)" if verb == "send"
             else f"the client's report: {COUNT} x {SIZE} bytes")
    if swant not in serr:
        fail(f"{name}: the server did not report '{swant}'")
    for cap in (cap_c, cap_s):
        c = subprocess.run([ibwire, "check", cap], capture_output=True, text=True)
        first = c.stdout.splitlines()[1] if len(c.stdout.splitlines()) > 1 else c.stdout
        print(f"check {os.path.basename(cap)}: {first.strip()}")
        if c.returncode != 0 or " 0 errors" not in c.stdout:
            fail(f"{name}: ibwire check {cap}: {c.stdout.strip()} {c.stderr.strip()}")


for verb in ("write", "read", "send"):
    run(verb, 0)
    run(verb, 0.05)

if failures:
    print(f"{len(failures)} failures")
    sys.exit(1)
print("perftest_netns: all runs passed")
