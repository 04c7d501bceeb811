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
version 4 and both addresses.  Runs: a clean wire (and again, IPv4 and
IPv6, with the server taking its address from its interface, which the
kernel owns too), then 10 % of each
engine's frames lost (`--loss`: this host has no sch_netem; the guest's
runs use netem), which the engine's retransmissions must carry; then
ucmatose's exchange (ten SENDs each way, the server disconnects); then
rping over IPv6 (RoCEv2 with next header UDP, neighbours found by ND:
tshark must decode the client's Neighbor Solicitation and the server's
Advertisement, the RoCEv2/IPv6 frames with hop limit 64 and flow label 0,
and the REQ's CMA header as IP version 6 with both IPv6 addresses, the
GIDs being those addresses); then MRA: the server accepts 6 s late (longer
than the client's REQ wait of 4.3 s, CM response timeout 20) and the
client's REQ goes out twice: the server must send MRA(REQ), the client
must not resend its REQ (it waits the MRA's service timeout instead), and
the connection must carry its pings.
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from netns_pair import Runs, skip_without_netns  # noqa: E402

ibwire, tshark = sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else ""
R = Runs(ibwire)
fail = R.fail


# Bad arguments: exit 2 and a message naming the option.
for args, want in ((["--ip", "fd00:77::1", "-c", "10.77.0.2"], "both IPv4 or both IPv6"),
                   (["--ip", "fd00:77::zz", "-s"], "--ip fd00:77::zz: not an IPv4 or IPv6"),
                   (["--ip", "10.77.0.1", "-s", "--accept-delay", "soon"],
                    "--accept-delay soon")):
    b = subprocess.run([ibwire, "peer", "-i", "lo"] + args, capture_output=True,
                       text=True)
    if b.returncode != 2 or want not in b.stderr:
        fail(f"peer {' '.join(args)}: exit {b.returncode}, {b.stderr.strip()!r}")

skip_without_netns()
tmp = tempfile.mkdtemp(prefix="peer_netns.")


def run(name, loss, count, size, port, app="rping", v6=False, srv_args="",
        cli_args="", kernel_addr=False):
    cap_c = os.path.join(tmp, name + "-client.pcap")
    cap_s = os.path.join(tmp, name + "-server.pcap")
    lo = (f"--loss {loss} " if loss else "") + f"--app {app}"
    a_cli, a_srv = ("fd00:77::1", "fd00:77::2") if v6 else ("10.77.0.1", "10.77.0.2")
    # kernel_addr: the server's interface owns its address and the server
    # takes it from there (no --ip: the interface's GID table)
    setup = ""
    srv_ip = f"--ip {a_srv}"
    if kernel_addr:
        setup = (f"ip -6 addr add {a_srv}/64 dev pb nodad && " if v6 else
                 f"ip addr add {a_srv}/24 dev pb && ")
        srv_ip = "-6" if v6 else ""
    out, serr, src = R.pair(
        tmp, name,
        f"{srv_ip} -s -p {port} -S {size} {lo} {srv_args} --timeout 60 "
        f"--pcap {cap_s}",
        f"--ip {a_cli} -c {a_srv} -p {port} -C {count} -S {size} {lo} {cli_args} "
        f"-V --timeout 60 --pcap {cap_c}", setup)
    want = (f"{count} pings, {count * size} bytes verified" if app == "rping"
            else f"{count} messages each way, {count * size} bytes received")
    if want not in out:
        fail(f"{name}: the client did not report '{want}'")
    result = {"client": out, "server": serr, "cap_c": cap_c, "cap_s": cap_s}
    R.clean(name, (cap_c, cap_s))
    if tshark:
        t = subprocess.run(
            [tshark, "-r", cap_s, "-Y", "infiniband.mad.attributeid == 0x0010",
             "-V"], capture_output=True, text=True)
        want = ["Prefix: 0000000001", "Protocol: 0x06",
                f"Destination Port: 0x{port:04x}",
                f"IP CM IP Version: 0x{6 if v6 else 4}",
                f"IP CM Source IP: {a_cli}", f"IP CM Destination IP: {a_srv}",
                f"Primary Local Port GID: {a_cli}",
                f"Primary Remote Port GID: {a_srv}"]
        for w in want:
            if w not in t.stdout:
                fail(f"{name}: tshark's decode of the REQ lacks '{w}'")
        # Linux's reading of the Starting PSNs (the real capture
        # rxe-rping-cm-send-read-write.pcap: the client's first SEND has the
        # REP's PSN, the server's first READ the REQ's): each side starts
        # sending at the PSN the other side's message named.
        t = subprocess.run(
            [tshark, "-r", cap_s, "-Y", "infiniband", "-T", "fields",
             "-e", "ipv6.src" if v6 else "ip.src", "-e", "infiniband.bth.opcode",
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
        if first.get(a_cli) != rep or first.get(a_srv) != req:
            fail(f"{name}: first PSNs {first}, REQ's {req}, REP's {rep}: the client "
                 "must start at the REP's, the server at the REQ's")
    return result


def tshark_fields(cap, flt, *fields):
    args = [tshark, "-r", cap, "-Y", flt, "-T", "fields"]
    for f in fields:
        args += ["-e", f]
    t = subprocess.run(args, capture_output=True, text=True)
    return [l.split("\t") for l in t.stdout.splitlines() if l.strip()]


def cm_counts(log):
    m = re.search(r"peer: CM: (\d+) MRA sent, (\d+) MRA received, (\d+) MADs resent", log)
    return tuple(int(x) for x in m.groups()) if m else (0, 0, 0)


run("clean", "", 5, 64, 7174)
run("loss", 0.1, 20, 2000, 7175)
# without loss: ucmatose sends its SENDs back to back, and the loss --loss
# injects is before the peer's own capture, so a lost first SEND leaves the
# capture starting at the next PSN (CM-QPN) while the resend may be lost
# again; loss is the rping run's part
run("ucmatose", "", 10, 100, 7471, "ucmatose")
r6 = run("ipv6", "", 5, 64, 7176, v6=True)
# The server's address from its interface (the kernel owns it too).
run("iface-addr", "", 5, 64, 7178, kernel_addr=True)
run("iface-addr6", "", 5, 64, 7179, v6=True, kernel_addr=True)
if tshark:
    # ND: the client's solicitation for the server's address, to its
    # solicited-node group, and the server's solicited advertisement.
    ns = tshark_fields(r6["cap_c"], "icmpv6.type == 135", "ipv6.dst",
                       "icmpv6.nd.ns.target_address", "ipv6.hlim")
    na = tshark_fields(r6["cap_c"], "icmpv6.type == 136",
                       "icmpv6.nd.na.target_address", "icmpv6.nd.na.flag.s",
                       "icmpv6.opt.linkaddr")
    print("ipv6: NS", ns[:1], "NA", na[:1])
    if not ns or ns[0][:3] != ["ff02::1:ff00:2", "fd00:77::2", "255"]:
        fail(f"ipv6: no Neighbor Solicitation for fd00:77::2 to ff02::1:ff00:2: {ns}")
    if not na or na[0][0] != "fd00:77::2" or na[0][1] not in ("1", "True"):
        fail(f"ipv6: no solicited Neighbor Advertisement for fd00:77::2: {na}")
    ro = tshark_fields(r6["cap_c"], "infiniband", "ipv6.nxt", "ipv6.hlim",
                       "ipv6.flow", "udp.dstport")
    bad = [r for r in ro if r[0] != "17" or r[1] != "64" or
           int(r[2], 0) != 0 or r[3] != "4791"]
    print(f"ipv6: {len(ro)} RoCEv2/IPv6 frames, {len(bad)} not next header 17, "
          "hop limit 64, flow label 0, UDP 4791")
    if len(ro) < 20 or bad:
        fail(f"ipv6: RoCEv2/IPv6 frames: {len(ro)}, wrong ones {bad[:3]}")
mra = run("mra", "", 5, 64, 7177, srv_args="--accept-delay 6000",
          cli_args="--dup-req")
c_sent, c_rcvd, c_resent = cm_counts(mra["client"])
s_sent, s_rcvd, s_resent = cm_counts(mra["server"])
print(f"mra: client {c_rcvd} MRA received, {c_resent} resent; server {s_sent} MRA sent")
if c_rcvd < 1 or s_sent < 1 or c_resent != 0:
    fail("mra: the server did not send MRA, or the client resent its REQ anyway")
if tshark:
    reqs = tshark_fields(mra["cap_c"], "infiniband.mad.attributeid == 0x0010",
                         "frame.time_relative")
    mras = tshark_fields(mra["cap_c"], "infiniband.mad.attributeid == 0x0011",
                         "frame.time_relative")
    reps = tshark_fields(mra["cap_c"], "infiniband.mad.attributeid == 0x0013",
                         "frame.time_relative")
    print(f"mra: REQs at {[r[0] for r in reqs]}, MRAs {mras}, REP at {reps[:1]}")
    if len(reqs) != 2 or float(reqs[1][0]) - float(reqs[0][0]) > 0.5:
        fail(f"mra: the REQ and its duplicate only, at once: {reqs}")
    if len(mras) < 1 or float(mras[0][0]) > 1 or not reps or \
            float(reps[0][0]) - float(reqs[0][0]) < 5.5:
        fail(f"mra: MRA(REQ) first, the REP after the 6 s delay: {mras} {reps}")
# REJ: a REQ for a port nobody listens on is rejected with reason 8
# (invalid service ID, IBA Table 112), and the client says so and ends 1.
rej = subprocess.run(["unshare", "-n", "sh", "-c",
    "ip link add pa type veth peer name pb && ip link set pa up && "
    "ip link set pb up && "
    f"({ibwire} peer -i pb --ip 10.77.0.2 -s --timeout 10 >/dev/null 2>&1 &) ; "
    f"sleep 0.3; {ibwire} peer -i pa --ip 10.77.0.1 -c 10.77.0.2 -p 7000 "
    "--timeout 8; echo client=$?"], capture_output=True, text=True, timeout=60)
out = rej.stdout + rej.stderr
print("--- rej\n" + out.strip())
if "client=1" not in out or "rejected: invalid service ID (8)" not in out:
    fail("rej: a REQ for an unlistened port was not rejected as invalid service ID")
print(f"{len(R.failures)} problems")
sys.exit(1 if R.failures else 0)
