#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""peer_netns.py IBWIRE TSHARK: `ibwire peer -s` against `ibwire peer -c`
over a veth pair in a network namespace of its own (unshare -n); exit 77
(skipped) when the namespace or the pair cannot be made.

Each run must: end 0 on both sides with every ping's data verified (-V:
the client compares what the server READ and wrote back with what it
sent), give a capture `ibwire check` finds clean, and carry a REQ that
tshark (an independent decoder, Wireshark's infiniband dissector)
decodes as annex A11's IP CM service: service ID prefix 0000000001,
protocol 0x06 (RDMA_PS_TCP), the port given, and the CMA header's IP
version 4 and both addresses.  Runs: a clean wire, then 10 % of each
engine's frames lost (`--loss`: this host has no sch_netem; the guest's
runs use netem), which the engine's retransmissions must carry; then
ucmatose's exchange (ten SENDs each way, the server disconnects).
"""
import os
import subprocess
import sys
import tempfile

ibwire, tshark = sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else ""
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

tmp = tempfile.mkdtemp(prefix="peer_netns.")


def run(name, loss, count, size, port, app="rping"):
    cap_c = os.path.join(tmp, name + "-client.pcap")
    cap_s = os.path.join(tmp, name + "-server.pcap")
    qd = ""
    lo = (f"--loss {loss} " if loss else "") + f"--app {app}"
    script = (
        "ip link add pa type veth peer name pb && ip link set pa up && "
        "ip link set pb up && " + qd +
        f"({ibwire} peer -i pb --ip 10.77.0.2 -s -p {port} -S {size} {lo} "
        f"--timeout 60 --pcap {cap_s} 2>{tmp}/{name}-server.err; "
        f"echo $? >{tmp}/{name}-server.rc) & "
        "sleep 0.3; "
        f"{ibwire} peer -i pa --ip 10.77.0.1 -c 10.77.0.2 -p {port} -C {count} "
        f"-S {size} {lo} -V --timeout 60 --pcap {cap_c}; echo client=$?; wait")
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
    want = (f"{count} pings, {count * size} bytes verified" if app == "rping"
            else f"{count} messages each way, {count * size} bytes received")
    if want not in out:
        fail(f"{name}: the client did not report '{want}'")
    if src != "0":
        fail(f"{name}: the server ended {src}")
    for cap in (cap_c, cap_s):
        c = subprocess.run([ibwire, "check", cap], capture_output=True, text=True)
        first = c.stdout.splitlines()[1] if len(c.stdout.splitlines()) > 1 else c.stdout
        print(f"check {os.path.basename(cap)}: {first.strip()}")
        if c.returncode != 0 or " 0 errors" not in c.stdout:
            fail(f"{name}: ibwire check {cap}: {c.stdout.strip()} {c.stderr.strip()}")
    if tshark:
        t = subprocess.run(
            [tshark, "-r", cap_s, "-Y", "infiniband.mad.attributeid == 0x0010",
             "-V"], capture_output=True, text=True)
        want = ["Prefix: 0000000001", "Protocol: 0x06",
                f"Destination Port: 0x{port:04x}", "IP CM IP Version: 0x4",
                "IP CM Source IP: 10.77.0.1", "IP CM Destination IP: 10.77.0.2",
                "Primary Local Port GID: 10.77.0.1",
                "Primary Remote Port GID: 10.77.0.2"]
        for w in want:
            if w not in t.stdout:
                fail(f"{name}: tshark's decode of the REQ lacks '{w}'")
        # Linux's reading of the Starting PSNs (the real capture
        # rxe-rping-cm-send-read-write.pcap: the client's first SEND has the
        # REP's PSN, the server's first READ the REQ's): each side starts
        # sending at the PSN the other side's message named.
        t = subprocess.run(
            [tshark, "-r", cap_s, "-Y", "infiniband", "-T", "fields",
             "-e", "ip.src", "-e", "infiniband.bth.opcode",
             "-e", "infiniband.bth.psn", "-e", "infiniband.cm.req.startpsn",
             "-e", "infiniband.cm.rep.startpsn"], capture_output=True, text=True)
        req = rep = None
        first = {}
        for line in t.stdout.splitlines():
            f = (line.split("\t") + [""] * 5)[:5]
            if f[3]:
                req = int(f[3], 16)
            if f[4]:
                rep = int(f[4], 16)
            if f[1] and int(f[1]) < 100 and not 13 <= int(f[1]) <= 18 \
                    and f[0] not in first:  # requests, not responses
                first[f[0]] = int(f[2])
        if first.get("10.77.0.1") != rep or first.get("10.77.0.2") != req:
            fail(f"{name}: first PSNs {first}, REQ's {req}, REP's {rep}: the client "
                 "must start at the REP's, the server at the REQ's")


run("clean", "", 5, 64, 7174)
run("loss", 0.1, 20, 2000, 7175)
# without loss: ucmatose sends its SENDs back to back, and the loss --loss
# injects is before the peer's own capture, so a lost first SEND leaves the
# capture starting at the next PSN (CM-QPN) while the resend may be lost
# again; loss is the rping run's part
run("ucmatose", "", 10, 100, 7471, "ucmatose")
# REJ: a REQ for a port nobody listens on is rejected with reason 8
# (invalid service ID, IBA Table 112), and the client says so and ends 1.
rej = subprocess.run(["unshare", "-n", "sh", "-c",
    "ip link add pa type veth peer name pb && ip link set pa up && "
    "ip link set pb up && "
    f"({ibwire} peer -i pb --ip 10.77.0.2 -s --timeout 3 >/dev/null 2>&1 &) ; "
    f"sleep 0.3; {ibwire} peer -i pa --ip 10.77.0.1 -c 10.77.0.2 -p 7000 "
    "--timeout 5; echo client=$?"], capture_output=True, text=True, timeout=60)
out = rej.stdout + rej.stderr
print("--- rej\n" + out.strip())
if "client=1" not in out or "rejected: invalid service ID (8)" not in out:
    fail("rej: a REQ for an unlistened port was not rejected as invalid service ID")
print(f"{len(failures)} problems")
sys.exit(1 if failures else 0)
