# SPDX-License-Identifier: Apache-2.0
"""What peer_netns.py and perftest_netns.py share: two `ibwire peer`s on
the ends of a veth pair (pa, pb) in a network namespace of their own
(unshare -n), the server on pb started first, and the verdicts every run
needs (both sides' exits, both captures clean under `ibwire check`)."""
import os
import subprocess
import sys


class Runs:
    def __init__(self, ibwire):
        self.ibwire = ibwire
        self.failures = []

    def fail(self, msg):
        self.failures.append(msg)
        print("FAIL:", msg)

    def finish(self, name):
        if self.failures:
            print(f"{len(self.failures)} failures")
            sys.exit(1)
        print(f"{name}: all runs passed")

    def pair(self, tmp, name, server, client, setup=""):
        """Run `ibwire peer` SERVER on pb, then CLIENT on pa (argument
        strings after `ibwire peer -i IF`); SETUP runs first in the
        namespace (e.g. a qdisc).  Returns (client output, server stderr,
        server exit status as a string)."""
        script = (
            "ip link add pa type veth peer name pb && ip link set pa up && "
            "ip link set pb up && " + setup +
            f"({self.ibwire} peer -i pb {server} 2>{tmp}/{name}-server.err; "
            f"echo $? >{tmp}/{name}-server.rc) & "
            "sleep 0.3; "
            f"{self.ibwire} peer -i pa {client}; "
            "echo client=$?; wait")
        p = subprocess.run(["unshare", "-n", "sh", "-c", script],
                           capture_output=True, text=True, timeout=180)
        out = p.stdout + p.stderr
        with open(f"{tmp}/{name}-server.err") as f:
            serr = f.read()
        with open(f"{tmp}/{name}-server.rc") as f:
            src = f.read().strip()
        print(f"--- {name}: client\n{out.strip()}\n--- {name}: server (rc {src})\n"
              f"{serr.strip()}")
        if "client=0" not in out:
            self.fail(f"{name}: the client did not end 0")
        if src != "0":
            self.fail(f"{name}: the server ended {src}")
        return out, serr, src

    def clean(self, name, caps):
        """Every capture in CAPS without an error under `ibwire check`."""
        for cap in caps:
            c = subprocess.run([self.ibwire, "check", cap], capture_output=True,
                               text=True)
            lines = c.stdout.splitlines()
            first = lines[1] if len(lines) > 1 else c.stdout
            print(f"check {os.path.basename(cap)}: {first.strip()}")
            if c.returncode != 0 or " 0 errors" not in c.stdout:
                self.fail(f"{name}: ibwire check {cap}: {c.stdout.strip()} "
                          f"{c.stderr.strip()}")


def skip_without_netns():
    """Exit 77 (skipped) when a veth pair cannot be made in a namespace."""
    p = subprocess.run(["unshare", "-n", "sh", "-c",
                        "ip link add pa type veth peer name pb"],
                       capture_output=True, text=True)
    if p.returncode != 0:
        print("skipped: cannot make a veth pair in a namespace:", p.stderr.strip())
        sys.exit(77)
