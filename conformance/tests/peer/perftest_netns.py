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
And write and send with each connection's first RTU of the client lost
(--lose-rtu): the server must announce its test QP in the pingpong_dests
although its test connection is established only later.
"""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from netns_pair import Runs, skip_without_netns  # noqa: E402

R = Runs(sys.argv[1])
skip_without_netns()
tmp = tempfile.mkdtemp(prefix="perftest_netns.")
COUNT, SIZE = 40, 4096


def run(verb, loss, lose_rtu=False, await_dreq=False):
    name = (verb + ("-loss" if loss else "") + ("-lost-rtu" if lose_rtu else "")
            + ("-server-closes" if await_dreq else ""))
    cap_c = os.path.join(tmp, name + "-client.pcap")
    cap_s = os.path.join(tmp, name + "-server.pcap")
    lo = f"--loss {loss} " if loss else ""  # the server only
    out, serr, src = R.pair(
        tmp, name,
        f"--ip 10.77.0.2 -s --app perftest -C {COUNT} -S {SIZE} {lo}--timeout 60 "
        f"--pcap {cap_s}",
        f"--ip 10.77.0.1 -c 10.77.0.2 --app perftest --perftest {verb} -C {COUNT} "
        f"-S {SIZE} -V --timeout 60 --pcap {cap_c}"
        + (" --lose-rtu" if lose_rtu else "")
        + (" --await-dreq" if await_dreq else ""))
    what = {"write": "WRITEs", "read": "READs", "send": "SENDs"}[verb]
    verified = COUNT * SIZE if verb == "read" else 0
    want = f"{COUNT} {what} of {SIZE} bytes ({verified} bytes verified)"
    if want not in out:
        R.fail(f"{name}: the client did not report '{want}'")
    swant = (f"{COUNT} SENDs received ({COUNT * SIZE} bytes)" if verb == "send"
             else f"the client's report: {COUNT} x {SIZE} bytes")
    if swant not in serr:
        R.fail(f"{name}: the server did not report '{swant}'")
    R.clean(name, (cap_c, cap_s))


for verb in ("write", "read", "send"):
    run(verb, 0)
    run(verb, 0.05)
# the client's first RTU lost (netem on the client's side can do it): the
# client, established on the REP, goes on with the exchange at once, while
# the server's test connection waits for the REP's resend to draw the RTU
# again; the server's pingpong_dests must name the test QP all the same
for verb in ("write", "send"):
    run(verb, 0, lose_rtu=True)
# perftest 25.01's client sends no DREQ after the closing handshake: it
# waits for the server's (rdma_cm_disconnect_nodes()); the engine server
# must end both connections itself, or the client waits until its timeout
for verb in ("write", "read", "send"):
    run(verb, 0, await_dreq=True)
R.finish("perftest_netns")
