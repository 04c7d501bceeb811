#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`ibwire check --replay` on capture loss and on sparse addresses.

  lossy_sparse_suite.py IBWIRE WORK

Captures written by hand (rcgen.py, a correct responder from the IBA
rules), then edited as a capture point would (requests and responses
removed) or as a faulty responder would (a field changed, ICRC
recomputed):

- sparse: buffers drawn over 2**40 bytes under 4 R_Keys on 8 connections,
  and 100 connections (more than the 64 flows the reference once had):
  replayed (no REPLAY-SKIPPED), clean; an atomic original value changed on
  a word the reference knows is found (so replay did compare them).
- capture loss: requests removed that the responder acknowledged (CAP-LOSS),
  with and without their responses, several holes: no REPLAY-* finding;
  a responder fault right after a hole (an ACK's MSN one too high, a READ
  response one word short) is still found, at its frame, once.
- requests lost after the capture point (recorded, never received), once
  or again in resend rounds, at the requester's and the responder's port:
  the responder's sequence NAKs are no REPLAY finding; one sent too long
  before its NAK for the reference to go back stops the flow
  (REPLAY-SKIPPED), not an error.
- a READ or atomic sent two or three times and answered once (the
  requester sent it again because a copy or its answer was lost): no
  REPLAY-MISSING; sent twice and never answered: REPLAY-MISSING on both.
  A READ answered only after it was sent again, with the MSN of then (a
  WRITE between): the answer is the copy's, no REPLAY-DIFF.
- capture loss on `ibwire sim` traffic (the reference engine both ends,
  every operation, pipelined): bursts of frames removed, both directions,
  and then one side recorded 10 or 100 us late: no REPLAY-* finding.
"""
import os
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, os.pardir, "check"))
import rcgen  # noqa: E402
from tally import check  # noqa: E402
import tally  # noqa: E402


def run(ibwire, path):
    p = subprocess.run([ibwire, "check", "--replay", path], capture_output=True, text=True)
    got = []
    for line in p.stdout.splitlines():
        if line.startswith("frame ") and ": " in line:
            num, rule = line.split(":")[0:2]
            got.append((int(num.split()[1]), rule.strip()))
    return p.returncode, got, p.stdout


def refix(fr):
    """fr (bytearray) with its ICRC recomputed."""
    fr[-4:] = rcgen.icrc(fr[14:34], fr[34:42], fr[42:-4])
    return fr


def replay_findings(got):
    return [g for g in got if g[1].startswith("REPLAY-")]


def main():
    ibwire, work = sys.argv[1:3]
    os.makedirs(work, exist_ok=True)

    # ---- sparse addresses ----
    conns, tagged = rcgen.sparse(8, 30, nkeys=4, span_bits=40, seed=7)
    frames = [bytearray(f) for _, _, f in tagged]
    path = os.path.join(work, "sparse.pcap")
    rcgen.write_pcap(path, frames)
    rc, got, out = run(ibwire, path)
    check(rc == 0 and got == [], "sparse VAs over 2^40, 4 R_Keys: clean: %s" % out[-600:])

    # the second FETCH & ADD on conn 0's word (messages 2 and 5 of conn 0):
    # the reference learnt the word from the first, so it knows this one
    atomic_acks = [k for k, (ci, kind, f) in enumerate(tagged)
                   if ci == 0 and kind == "resp" and f[42] == 0x12]
    check(len(atomic_acks) >= 2, "conn 0 has two atomic ACKs")
    bad = [bytearray(f) for f in frames]
    k = atomic_acks[1]
    bad[k][-5] ^= 0x01   # last byte of the AtomicAckETH, before the ICRC
    refix(bad[k])
    rcgen.write_pcap(path, bad)
    rc, got, out = run(ibwire, path)
    check(rc == 1 and replay_findings(got) == [(k + 1, "REPLAY-DIFF")],
          "sparse: wrong original value found at frame %d: %s" % (k + 1, got))

    conns, tagged = rcgen.sparse(100, 3, nkeys=4, span_bits=40, seed=8)
    rcgen.write_pcap(path, [f for _, _, f in tagged])
    rc, got, out = run(ibwire, path)
    check(rc == 0 and got == [] and out.count("flow RC") == 100,
          "100 connections, sparse VAs: replayed clean (rc %d): %s" % (rc, out[:600]))

    # ---- capture loss ----
    # one connection, WRITE / READ / FETCH & ADD in turn, every request
    # answered; sparse VAs too
    conns, tagged = rcgen.sparse(1, 60, nkeys=2, span_bits=40, seed=9)
    frames = [bytearray(f) for _, _, f in tagged]
    reqs = [k for k, t in enumerate(tagged) if t[1] == "req"]
    # holes: requests 10-12 alone (responses kept), requests 20-21 with
    # their responses but the last one's (which shows the hole), request 33
    # and response 30's, request 45 (a FETCH & ADD) with its ACK kept
    gone = set(reqs[10:13]) | set(reqs[20:22]) | {reqs[20] + 1} | {reqs[33], reqs[30] + 1} \
        | {reqs[44]}
    lossy = [f for k, f in enumerate(frames) if k not in gone]
    path = os.path.join(work, "lossy.pcap")
    rcgen.write_pcap(path, lossy)
    rc, got, out = run(ibwire, path)
    rules = [r for _, r in got]
    check("CAP-LOSS" in rules, "the checker says the capture lost requests: %s" % got)
    check(replay_findings(got) == [], "capture loss: no REPLAY finding: %s" % out[-800:])

    def renumber(k):
        return k + 1 - sum(1 for g in gone if g < k)

    # a faulty responder right after the first hole: the first response
    # after it claims one message more than it completed
    after = reqs[13] + 1
    bad = [bytearray(f) for f in frames]
    msn = struct.unpack("!I", b"\0" + bytes(bad[after][55:58]))[0]
    bad[after][55:58] = struct.pack("!I", msn + 1)[1:]
    refix(bad[after])
    rcgen.write_pcap(path, [f for k, f in enumerate(bad) if k not in gone])
    rc, got, out = run(ibwire, path)
    check(rc == 1 and replay_findings(got) == [(renumber(after), "REPLAY-DIFF")],
          "wrong MSN after a hole: found at frame %d, no cascade: %s" % (renumber(after), got))

    # a READ response one word short right after the third hole (message
    # 34 is a READ: 34 % 3 == 1)
    k = reqs[34] + 1
    check(tagged[k][2][42] == 0x10, "message 34 is answered by a READ RESPONSE ONLY")
    bad = [bytearray(f) for f in frames]
    fr = bad[k]
    ulen = struct.unpack("!H", fr[38:40])[0]
    if ulen - 8 - 12 - 4 - 4 >= 8:
        del fr[-8:-4]
        fr[16:18] = struct.pack("!H", struct.unpack("!H", fr[16:18])[0] - 4)
        fr[38:40] = struct.pack("!H", ulen - 4)
        fr[24:26] = b"\0\0"
        fr[24:26] = struct.pack("!H", rcgen.ip_csum(bytes(fr[14:34])))
        refix(fr)
    rcgen.write_pcap(path, [f for j, f in enumerate(bad) if j not in gone])
    rc, got, out = run(ibwire, path)
    check(rc == 1 and (renumber(k), "REPLAY-DIFF") in replay_findings(got) and
          len(replay_findings(got)) == 1,
          "short READ response after a hole: found at frame %d: %s" % (renumber(k), got))

    # ---- requests lost after the capture point ----
    # The capture recorded a request the responder never got (dropped
    # after the capture point: netem on the egress after tcpdump, a full
    # backlog): the responder's sequence NAK is right, and so is its NAK
    # again when the resend is lost the same way; at either port.  Replay
    # follows it (no REPLAY finding); when the request was sent more
    # requests before the NAK than the reference can go back over, the
    # flow is not replayed further (REPLAY-SKIPPED), not an error.
    for at_req in (True, False):
        port = "requester" if at_req else "responder"
        for n, rounds, skipped in ((10, 1, False), (10, 2, False),
                                   (40, 3, False), (1200, 1, at_req)):
            path = os.path.join(work, "lost-after.pcap")
            rcgen.write_pcap(path, rcgen.lost_after_capture(n, 3, rounds, at_req))
            rc, got, out = run(ibwire, path)
            errs = [g for g in replay_findings(got) if g[1] != "REPLAY-SKIPPED"]
            check(rc == 0 and errs == [] and
                  ("REPLAY-SKIPPED" in [r_ for _, r_ in got]) == skipped,
                  "at the %s's port, %d WRITEs, PSN 3 lost after the capture "
                  "point in %d round(s): %s: %s" % (
                      port, n, rounds,
                      "REPLAY-SKIPPED, no error" if skipped else "no finding",
                      out[-700:]))

    # ---- a request sent again with its answer lost in the network ----
    # The requester sends a READ or an atomic again when no answer reached
    # it: one copy (or its answer) was lost where the capture may not see
    # it.  One answer for the copies is no REPLAY-MISSING; no answer to any
    # copy still is.
    for kind in ("read", "fetch_add"):
        for copies, answered in ((2, True), (3, True), (2, False)):
            c = rcgen.Conn(0x101, 0x2001, 0x654321, 49152)
            first = c.write(0x1000, 0x77, 64)
            (_, req), (_, resp) = (c.read(0x2000, 0x77, 512) if kind == "read"
                                   else c.fetch_add(0x3000, 0x77, 5))
            after = c.write(0x4000, 0x77, 64)
            frames = ([f for _, f in first] + [req] * copies +
                      ([resp] if answered else []) + [f for _, f in after])
            path = os.path.join(work, "sent-again.pcap")
            rcgen.write_pcap(path, frames)
            rc, got, out = run(ibwire, path)
            want = [] if answered else [(3 + i, "REPLAY-MISSING")
                                        for i in range(copies)]
            check(replay_findings(got) == want and rc == (0 if answered else 1),
                  "%s sent %d times, %s: %s expected: %s" % (
                      kind, copies, "one answer" if answered else "no answer",
                      want or "no finding", out[-600:]))

    # A READ whose response netem dropped before the capture, then a
    # WRITE, then the READ sent again: the responder answers the duplicate
    # with its current MSN (the WRITE counted).  The captured response
    # answers the copy, not the original: no REPLAY finding.
    c = rcgen.Conn(0x101, 0x2001, 0x345678, 49152)
    w0 = c.write(0x1000, 0x77, 64)
    read_psn = c.psn
    (_, rreq), _lost = c.read(0x2000, 0x77, 512)
    w1 = c.write(0x3000, 0x77, 64)
    pl, pad = rcgen.padded(b"\0" * 512)
    again = rcgen.frame(False, 49152, rcgen.bth(0x10, 0x101, read_psn, False, pad) +
                        rcgen.aeth(0x1F, c.msn) + pl)
    frames = [f for _, f in w0] + [rreq] + [f for _, f in w1] + [rreq, again]
    path = os.path.join(work, "read-again.pcap")
    rcgen.write_pcap(path, frames)
    rc, got, out = run(ibwire, path)
    check(rc == 0 and replay_findings(got) == [],
          "READ answer lost, a WRITE, the READ sent again and answered with "
          "the current MSN: no finding: %s" % out[-600:])

    # ---- capture loss on the reference engines' own traffic ----
    # `ibwire sim` (both ends the reference engine, a link that loses
    # nothing: every message checked delivered by sim itself) with every
    # operation, pipelined, multi-packet messages; then bursts of frames of
    # both directions removed from the file (a seeded choice, capedit):
    # capture loss only.  No REPLAY-* finding, none skipped.
    import random
    sys.path.insert(0, os.path.join(HERE, os.pardir, "check"))
    import capedit
    for seed, pmtu, p, burst in ((1, 1024, 0.02, 5), (3, 2048, 0.03, 10),
                                 (4, 4096, 0.1, 2), (7, 256, 0.01, 40)):
        src = os.path.join(work, "sim%d.pcap" % seed)
        subprocess.run([ibwire, "sim", "--seed", str(seed), "--messages", "150",
                        "--max-size", "12000", "--pmtu", str(pmtu), "-w", src],
                       check=True, capture_output=True)
        cap = capedit.read(src)
        r = random.Random(seed)
        gone, i, n = set(), 0, len(cap.frames)
        while i < n:
            if r.random() < p:
                k = r.randint(1, burst)
                gone.update(range(i + 1, min(n, i + k) + 1))
                i += k
            else:
                i += 1
        dst = os.path.join(work, "sim%d-lossy.pcap" % seed)
        capedit.write(capedit.remove(cap, sorted(gone)), dst)
        rc, got, out = run(ibwire, dst)
        check("CAP-LOSS" in [r_ for _, r_ in got] and replay_findings(got) == [],
              "sim seed %d PMTU %d, %d of %d frames lost by the capture: no "
              "REPLAY finding: %s (capedit.py remove %s %s X.pcap)"
              % (seed, pmtu, len(gone), n, replay_findings(got)[:5],
                 ",".join(map(str, sorted(gone))), src))
        # and one direction recorded late too (a host-side capture): the
        # hole's ACK comes after many requests the reference holds
        for who, us in (("10.0.0.0", 100), ("10.0.0.1", 10)):
            late = os.path.join(work, "sim%d-lossy-late.pcap" % seed)
            capedit.write(capedit.delay(capedit.read(dst), capedit._parse_src(who), us), late)
            rc, got, out = run(ibwire, late)
            check(replay_findings(got) == [],
                  "sim seed %d lossy, %s recorded %d us late: no REPLAY finding: %s"
                  % (seed, who, us, replay_findings(got)[:5]))
    return tally.status()


if __name__ == "__main__":
    sys.exit(main())
