#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""ibwire probe: the list, the self run against its expected verdicts, and
the suite seen failing against a deliberately broken device.

usage: probe_suite.py IBWIRE SELF_EXPECT PROBE_README
       probe_suite.py IBWIRE SELF_EXPECT --veth

--veth: the suite over a veth pair in a network namespace of its own
(unshare -n), the raw target on one end and the reference engine on a raw
socket on the other, in real time; the verdicts must be self.expect's.  A
test whose verdict differs is run again, twice at most (real time on a
shared machine: a late frame is the machine's, not the device's).  Exit 77
(skipped) when a namespace with a veth pair cannot be made.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ibwire, expect_path, readme_path = sys.argv[1], sys.argv[2], sys.argv[3]
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg)


def verdicts(out):
    v = {}
    for line in out.splitlines():
        m = re.match(r"^(PASS|FAIL|N/A |ERROR|QUALITY)\s+(\S+)\s", line)
        if m:
            v[m.group(2)] = m.group(1).strip()
    return v


def run(args):
    p = subprocess.run([ibwire, "probe"] + args, capture_output=True, text=True,
                       timeout=600)
    return p.returncode, p.stdout, p.stderr


def read_expect():
    expected = {}
    with open(expect_path) as f:
        for line in f:
            line = line.split("#", 1)[0].split()
            if line:
                expected[line[0]] = line[1]
    return expected


if readme_path == "--veth":
    import shlex
    setup = ("sysctl -qw net.ipv6.conf.all.disable_ipv6=1; "
             "sysctl -qw net.ipv6.conf.default.disable_ipv6=1; "
             "ip link add pa type veth peer name pb && ip link set pa up && "
             "ip link set pb up")
    try:
        p = subprocess.run(["unshare", "-n", "sh", "-c", setup],
                           capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        print("skipped: no network namespace:", e)
        sys.exit(77)
    if p.returncode != 0:
        print("skipped: cannot make a veth pair in a namespace:", p.stderr.strip())
        sys.exit(77)

    def veth(only=None):
        cmd = [ibwire, "probe", "-i", "pa", "--engine-on", "pb"]
        if only:
            cmd += ["--only", ",".join(only)]
        p = subprocess.run(["unshare", "-n", "sh", "-c",
                            setup + " && " + " ".join(map(shlex.quote, cmd))],
                           capture_output=True, text=True, timeout=600)
        return verdicts(p.stdout), p.stdout

    expected = read_expect()
    got, out = veth()
    if len(got) < 50:
        print(out)
        fail(f"the veth run reported {len(got)} tests")
    wrong = [t for t in got if got[t] != expected.get(t, "PASS")]
    for attempt in range(2):
        if not wrong:
            break
        for t in wrong:
            print("again:", next((l for l in out.splitlines() if f" {t} " in l), t))
        again, out = veth(wrong)
        wrong = [t for t in wrong if again.get(t) != expected.get(t, "PASS")]
    for t in wrong:
        line = next((l for l in out.splitlines() if f" {t} " in l), "")
        fail(f"veth: {t}: {line}")
    print(f"{len(got)} tests over veth; {len(failures)} problems")
    sys.exit(1 if failures else 0)


# --list: at least 50 tests, both roles, each keyed to an IBA statement
rc, out, err = run(["--list"])
if rc != 0:
    fail(f"--list exits {rc}: {err}")
ids = []
statement = re.compile(r"^(CA17-\d+|C9-\d+|\d+(\.\d+)+)$")
for line in out.splitlines():
    f = line.split("\t")
    if len(f) < 4:
        fail(f"--list line without id, role, statement, summary: {line!r}")
        continue
    tid, role, spec = f[0], f[1], f[2]
    ids.append(tid)
    parts = [s.strip() for s in spec.split(";")]
    if not all(statement.match(s) for s in parts):
        fail(f"{tid}: statement column {spec!r} is not CA17-n / C9-n / section")
    if role not in ("responder", "requester"):
        fail(f"{tid}: role {role!r}")
if len(ids) < 50:
    fail(f"--list has {len(ids)} tests, fewer than 50")
if len(set(ids)) != len(ids):
    fail("--list has duplicate ids")
if not any(i.startswith("req-") for i in ids) or not any(i.startswith("resp-") for i in ids):
    fail("--list lacks requester or responder tests")

# the README's table is the list's (regenerate: ibwire probe --list --markdown)
rc, md, err = run(["--list", "--markdown"])
with open(readme_path) as f:
    text = f.read()
m = re.search(r"<!-- BEGIN ibwire probe --list --markdown -->\n(.*)<!-- END", text, re.S)
if not m:
    fail("conformance/probe/README.md has no generated test table")
elif m.group(1) != md:
    fail("conformance/probe/README.md's test table is not `ibwire probe --list "
         "--markdown`: regenerate it")

# --self: every verdict as self.expect says (PASS unless listed)
expected = read_expect()
for tid in expected:
    if tid not in ids:
        fail(f"self.expect names {tid}, which is not a test")
with tempfile.TemporaryDirectory() as tmp:
    rc, out, err = run(["--self", "--pcap-dir", tmp])
    got = verdicts(out)
    if set(got) != set(ids):
        fail(f"--self reported {len(got)} tests of {len(ids)}")
    for tid in ids:
        want = expected.get(tid, "PASS")
        if got.get(tid) != want:
            line = next((l for l in out.splitlines() if f" {tid} " in l), "")
            fail(f"--self: {tid} is {got.get(tid)}, expected {want}: {line}")
    want_rc = 1 if "FAIL" in expected.values() else 0
    if rc != want_rc:
        fail(f"--self exits {rc}, expected {want_rc}")
    # each failing test left its frames; they read back as RoCEv2 frames
    for tid, v in got.items():
        if v == "FAIL":
            pcap = os.path.join(tmp, tid + ".pcapng")
            if not os.path.exists(pcap):
                fail(f"--self: no frames written for failing {tid}")
                continue
            p = subprocess.run([ibwire, "dump", pcap], capture_output=True,
                               text=True)
            if p.returncode != 0 or "bth " not in p.stdout or "icrc         good" not in p.stdout:
                fail(f"{pcap} does not dump as IBA frames (exit {p.returncode})")

# every frame of every test, read by tshark (an independent decoder): the
# probe's frames decode as RoCEv2 with a BTH unless the probe broke them on
# purpose, and then as the fault says; tshark's BTH opcode and PSN are
# `ibwire dump`'s for every frame
tshark = os.environ.get("IBW_TSHARK", "")
mergecap = shutil.which("mergecap") or (
    os.path.join(os.path.dirname(tshark), "mergecap") if tshark else "")
if not tshark or not os.path.exists(mergecap):
    print("tshark or mergecap missing: the frames are not read by tshark")
else:
    with tempfile.TemporaryDirectory() as tmp:
        rc, out, err = run(["--self", "--pcap-dir", tmp, "--pcap-all"])
        files = sorted(f for f in os.listdir(tmp) if f.endswith(".pcapng"))
        if len(files) < len(ids) - 2:
            fail(f"--pcap-all wrote {len(files)} files for {len(ids)} tests")
        allf = os.path.join(tmp, "all.pcapng.merged")
        subprocess.run([mergecap, "-a", "-F", "pcapng", "-w", allf] +
                       [os.path.join(tmp, f) for f in files], check=True)
        # tshark's payload heuristics claim random RDMA payloads
        # (tshark-oracle.md; the list of tests/dump/tshark_diff.py)
        quiet = []
        for proto in ("rpcordma", "smb_direct", "nvme-rdma", "iser", "lnet",
                      "smc", "infiniband_sdp", "fcoib", "infiniband.eoib"):
            quiet += ["--disable-protocol", proto]
        quiet += ["--disable-heuristic", "eth_over_ib"]
        ts = subprocess.run(
            [tshark] + quiet +
            ["-r", allf, "-T", "fields", "-E", "separator=|", "-e",
             "frame.comment", "-e", "infiniband.bth.opcode", "-e",
             "infiniband.bth.psn", "-e", "_ws.malformed", "-e",
             "_ws.expert.message"],
            capture_output=True, text=True).stdout.splitlines()
        dump = subprocess.run([ibwire, "dump", "-T", "fields", "-E",
                               "separator=|", "-e", "infiniband.bth.opcode",
                               "-e", "infiniband.bth.psn", allf],
                              capture_output=True, text=True).stdout.splitlines()
        if len(ts) != len(dump) or len(ts) < 200:
            fail(f"tshark read {len(ts)} frames, ibwire dump {len(dump)}")
        faults = {}
        for i, (t, d) in enumerate(zip(ts, dump)):
            f = t.split("|")
            comment, op, psn, malformed, expert = (f + [""] * 5)[:5]
            m = re.search(r"fault=(\w+)", comment)
            fault = m.group(1) if m else None
            if fault:
                faults[fault] = faults.get(fault, 0) + 1
            if fault in ("ipver", "udpport"):
                if op:
                    fail(f"frame {i + 1} ({comment}): tshark decodes a BTH")
                continue
            if not op or malformed:
                fail(f"frame {i + 1} ({comment}): tshark: opcode {op!r}, "
                     f"malformed {malformed!r}")
                continue
            if fault == "iplen" and "total length" not in expert:
                fail(f"frame {i + 1} ({comment}): tshark sees no IP length fault")
            if not fault and "Malformed" in expert:
                fail(f"frame {i + 1} ({comment}): tshark: {expert}")
            # ibwire dump refuses a frame whose IP or UDP length is wrong
            if fault not in ("iplen", "udplen") and d != f"{op}|{psn}":
                fail(f"frame {i + 1} ({comment}): tshark {op}|{psn}, dump {d}")
        for k in ("icrc", "ipver", "iplen", "udplen", "udpport"):
            if not faults.get(k):
                fail(f"no frame with fault={k} in the frames of the run")
        print(f"tshark read {len(ts)} frames of {len(files)} tests "
              f"({sum(faults.values())} broken on purpose)")

# `ibwire check` on every test's frames: the only errors it finds are the
# ones the test commits on purpose, the rule its list entry names (the probe
# misbehaves where that is the test, nowhere else)
rules_of = {}
rc, out, err = run(["--list"])
for line in out.splitlines():
    f = line.split("\t")
    m = re.search(r"\[([A-Z0-9-]+)\]$", f[3]) if len(f) > 3 else None
    rules_of[f[0]] = m.group(1) if m else None
with tempfile.TemporaryDirectory() as tmp:
    run(["--self", "--pcap-dir", tmp, "--pcap-all"])
    files = sorted(os.path.join(tmp, f) for f in os.listdir(tmp))
    p = subprocess.run([ibwire, "check", "--format", "json"] + files,
                       capture_output=True, text=True)
    try:
        report = json.loads(p.stdout)
    except ValueError:
        report = {"files": []}
        fail(f"ibwire check on the frames: no JSON (exit {p.returncode})")
    provoked = 0
    for f in report["files"]:
        tid = os.path.basename(f["file"])[:-len(".pcapng")]
        errs = {x["rule"] for x in f["findings"] if x["severity"] == "error"}
        extra = errs - {rules_of.get(tid)}
        if extra:
            fail(f"{tid}: ibwire check finds {sorted(extra)} in its frames")
        provoked += bool(errs)
    if provoked < 10:
        fail(f"ibwire check finds the provoked rule in {provoked} tests only")
    print(f"ibwire check: {len(report['files'])} tests' frames, "
          f"{provoked} with the rule they provoke, nothing else")

# the suite fails when the device misbehaves: each breakage must make the
# tests that judge that behaviour fail, with their frames written
breaks = {
    "drop-seq-nak": ["resp-psn-ahead-nak", "resp-psn-ahead-drop",
                     "resp-psn-ahead-again"],
    "msn-zero": ["resp-send-only", "resp-msn-reads", "resp-read-multi"],
    "drop-rnr-nak": ["resp-rnr", "resp-rnr-write-imm"],
}
for brk, must_fail in breaks.items():
    with tempfile.TemporaryDirectory() as tmp:
        rc, out, err = run(["--self", "--self-break", brk, "--pcap-dir", tmp])
        got = verdicts(out)
        if rc != 1:
            fail(f"--self-break {brk} exits {rc}, expected 1")
        for tid in must_fail:
            if got.get(tid) != "FAIL":
                fail(f"--self-break {brk}: {tid} is {got.get(tid)}, expected FAIL")
            elif not os.path.exists(os.path.join(tmp, tid + ".pcapng")):
                fail(f"--self-break {brk}: no frames written for {tid}")
        # the requester tests do not see the device's NAKs: they still pass
        for tid in ("req-send", "req-nak-seq-gbn"):
            if got.get(tid) != "PASS":
                fail(f"--self-break {brk}: {tid} is {got.get(tid)}, expected PASS")

# bad arguments
for args in (["--self", "--self-break", "no-such"], ["--bogus"], []):
    rc, out, err = run(args)
    if rc != 2:
        fail(f"probe {' '.join(args)} exits {rc}, expected 2")
rc, out, err = run(["--self", "--only", "no-such-test"])
if rc != 2:
    fail(f"--only no-such-test exits {rc}, expected 2")

print(f"{len(ids)} tests listed; {len(failures)} problems")
sys.exit(1 if failures else 0)
