#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`ibwire check -i IFACE` gives the verdict `ibwire check FILE` gives.

  live_suite.py IBWIRE PCAPS_DIR WORK

In a private network namespace (unshare -n; exit 77, skipped, when that is
not permitted), `ibwire check -i lo` runs while this script writes bundled
captures onto lo frame by frame with their timing, through a raw AF_PACKET
socket (its own pcap reader below, not ibwire's).  The live findings (rule
and frame) and exit code must equal those of `ibwire check` on the file,
and the -w copy must give that verdict again.  Runs end with SIGINT once
a finding was printed (each is flushed as it happens) or with --duration;
an interface that does not exist, and capturing as an unprivileged user,
give exit 2 naming the interface.
"""
import os
import re
import select
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time

SKIP = 77

# Ethernet captures whose verdict does not hang on sub-millisecond timing
# (lo adds tens of microseconds between frames): a clean one with loss and
# a NAK, RoCEv1 (the default filter's ether proto 0x8915), errors of the
# flow and of the packet.
# "sigint": stopped by SIGINT once the first finding was printed (a packet
# rule's finding is printed as its frame comes); "sigterm": by SIGTERM;
# "duration": --duration 3 --interval 1.
# (A flow finding may wait for the next frame: the checker holds a frame
# until capture time passes the skew window, and idle time on the
# interface does not reach it.)
CASES = [
    ("engine-rc-loss-nak.pcap", "sigint"),
    ("bad-pkt-icrc.pcap", "sigint"),
    ("bad-flow-gbn.pcap", "duration"),
    ("crafted-rocev1-clean.pcap", "sigterm"),
]

fails = 0


def check(cond, what, how=""):
    global fails
    if not cond:
        fails += 1
        print("FAIL:", what)
        if how:
            print("  reproduce:", how)


def read_pcap(path):
    """Classic pcap records: [(time in s, frame bytes)]."""
    with open(path, "rb") as f:
        data = f.read()
    magic = struct.unpack("<I", data[:4])[0]
    if magic in (0xA1B2C3D4, 0xA1B23C4D):
        end = "<"
    else:
        end = ">"
        magic = struct.unpack(">I", data[:4])[0]
    scale = 1e-9 if magic == 0xA1B23C4D else 1e-6
    linktype = struct.unpack(end + "I", data[20:24])[0] & 0x0FFFFFFF
    assert linktype == 1, path + ": not Ethernet"
    out, off = [], 24
    while off + 16 <= len(data):
        sec, frac, caplen, _ = struct.unpack(end + "IIII", data[off:off + 16])
        off += 16
        out.append((sec + frac * scale, data[off:off + caplen]))
        off += caplen
    return out


def send_capture(path, iface="lo"):
    """Write each frame onto iface at its time (gaps over 0.2 s shortened)."""
    frames = read_pcap(path)
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind((iface, 0))
    t0 = frames[0][0] if frames else 0
    start = time.monotonic()
    shift = 0.0
    prev = t0
    for ts, frame in frames:
        shift += max(0.0, (ts - prev) - 0.2)
        prev = ts
        due = start + (ts - t0) - shift
        wait = due - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        s.send(frame)
    s.close()
    return len(frames)


FINDING = re.compile(r"^frame (\d+): ([A-Z0-9-]+): ")


def verdict(text):
    return sorted((int(m.group(1)), m.group(2))
                  for m in map(FINDING.match, text.splitlines()) if m)


def read_until(proc, pattern, timeout):
    """Lines of proc's stdout up to one matching pattern (or timeout)."""
    got = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        r, _, _ = select.select([proc.stdout], [], [], 0.1)
        if not r:
            continue
        line = proc.stdout.readline()
        if not line:
            break
        got.append(line)
        if re.search(pattern, line):
            return got, True
    return got, False


def one(ibwire, pcaps, work, name, how):
    path = os.path.join(pcaps, name)
    rc_file = subprocess.run([ibwire, "check", path], capture_output=True,
                             text=True)
    want = verdict(rc_file.stdout)
    out = os.path.join(work, name + ".live.pcapng")
    cmd = [ibwire, "check", "-i", "lo", "-w", out]
    if how == "duration":
        cmd += ["--duration", "3", "--interval", "1"]
    repro = ("unshare -n sh -c 'ip link set lo up; %s & sleep 0.5; "
             "python3 %s send %s; wait'" % (" ".join(cmd),
                                             os.path.abspath(__file__), path))
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    head, ready = read_until(proc, r"^== lo$", 10)
    check(ready, name + ": ibwire check -i lo did not start: " +
          "".join(head), repro)
    if not ready:
        proc.kill()
        proc.communicate()
        return
    sent = send_capture(path)
    early = []
    if how == "sigint":
        if want:
            # findings come as they happen, before the capture ends
            early, seen = read_until(proc, r"^frame \d+: ", 10)
            check(seen, name + ": no finding printed while capturing",
                  repro)
    if how in ("sigint", "sigterm"):
        time.sleep(0.5)
        proc.send_signal(signal.SIGINT if how == "sigint" else
                         signal.SIGTERM)
    try:
        rest, err = proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        rest, err = proc.communicate()
        check(False, name + ": ibwire check -i did not stop (%s)" % how,
              repro)
        return
    text = "".join(head + early) + rest
    got = verdict(text)
    check(got == want, "%s: live findings %r, the file gives %r" %
          (name, got, want), repro)
    check(proc.returncode == rc_file.returncode,
          "%s: live exit %d, the file gives %d (stderr %s)" %
          (name, proc.returncode, rc_file.returncode, err.strip()), repro)
    if how == "duration":
        # the per-flow summary every --interval: after the frames were sent
        # (within the first second), the 2 s one shows the flow
        m = re.search(r"^-- lo after 2\.\d s: (\d+) frames.*\n  flow ", text,
                      re.M)
        check(m and int(m.group(1)) == sent,
              "%s: no --interval summary with %d frames and the flow" %
              (name, sent), repro)
    m = re.search(r"^lo: (\d+) frames", text, re.M)
    check(m and int(m.group(1)) == sent,
          "%s: %d frames sent, summary %r" % (name, sent,
                                              m.group(0) if m else None),
          repro)
    again = subprocess.run([ibwire, "check", out], capture_output=True,
                           text=True)
    check(verdict(again.stdout) == want and
          again.returncode == rc_file.returncode,
          "%s: the -w copy gives %r exit %d" %
          (name, verdict(again.stdout), again.returncode),
          "%s check %s" % (ibwire, out))
    print("%-32s %s: %d frames, %d findings, exit %d as from the file" %
          (name, how, sent, len(got), proc.returncode))


def inside(ibwire, pcaps, work):
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    os.makedirs(work, exist_ok=True)
    r = subprocess.run([ibwire, "check", "-i", "nosuch-if0", "--duration",
                        "1"], capture_output=True, text=True)
    check(r.returncode == 2 and "nosuch-if0" in r.stderr,
          "a missing interface: exit %d, %r" % (r.returncode, r.stderr))
    if shutil.which("setpriv"):
        # capture not permitted: the same binary run as nobody
        tmp = tempfile.mkdtemp()
        os.chmod(tmp, 0o755)
        exe = os.path.join(tmp, "ibwire")
        shutil.copy(ibwire, exe)
        os.chmod(exe, 0o755)
        r = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534",
                            "--clear-groups", exe, "check", "-i", "lo",
                            "--duration", "1"], capture_output=True,
                           text=True)
        shutil.rmtree(tmp)
        check(r.returncode == 2 and "interface lo" in r.stderr and
              "not permitted" in r.stderr,
              "capture not permitted: exit %d, %r" % (r.returncode, r.stderr))
    for name, how in CASES:
        one(ibwire, pcaps, work, name, how)
    return 1 if fails else 0


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "send":
        send_capture(sys.argv[2])
        return 0
    if len(sys.argv) == 5 and sys.argv[1] == "--inside":
        return inside(*sys.argv[2:])
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    ibwire, pcaps, work = (os.path.abspath(a) for a in sys.argv[1:])
    try:
        probe = subprocess.run(["unshare", "-n", "true"], capture_output=True)
    except OSError:
        probe = None
    if probe is None or probe.returncode != 0:
        print("skip: unshare -n is not permitted here")
        return SKIP
    r = subprocess.run(["unshare", "-n", sys.executable,
                        os.path.abspath(__file__), "--inside", ibwire, pcaps,
                        work])
    return r.returncode


if __name__ == "__main__":
    sys.exit(main())
