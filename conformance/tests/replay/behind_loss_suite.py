#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`ibwire check --replay` behind a lossy, duplicating, reordering network.

  behind_loss_suite.py IBWIRE RXE_DIR WORK [VARIANTS]

The replay judges a responder by what the capture shows of it; what the
network did between the two (netem on an egress, before the tap on
either side) is not the responder's doing (docs/iba-statements.md, "The
replay behind loss").  Four readings, each from a Linux 6.12 Soft-RoCE run
(scripts/rxe-vm.sh --all --suite trixie) where `check` was clean and
`check --replay` was not; each is tested on random variants written by
rcgen (independent of ibwire's builder and engine), with a responder
fault planted next to it that the replay must still find at its frame:

  atomics-resent   a requester resends many atomics whose answers were lost
                   (Go-Back-N over all outstanding): the responder answers
                   each from its saved result with its current MSN, also
                   those older than the reference's cache of 16 atomics
                   (statement DUP-REQUEST; MSN).  Fault: a duplicate's
                   original value not the first answer's, or its MSN below
                   the first execution's.
  dup-responses    responses the network duplicated (READ responses of
                   multi-packet READs, atomic answers): no REPLAY finding.
                   Fault: the copy of an atomic answer with another value.
  start-reordered  the flow's first k requests delayed behind the next one:
                   the responder NAKs the flow's real first PSN, before the
                   first request recorded (statement NAK-SEQ), then answers
                   them in order; the NAK recorded before or after them,
                   READs of several PMTUs among them (the PMTU learnt after
                   the NAK).  Fault: an MSN one too high after it.
  nak-lost         a sequence NAK lost in the network, the requester going
                   back to its PSN at its timer (statement NAK-SEQ: the
                   NAK's absence is not provable).  Control: the NAK
                   missing and no request at its PSN again, an answer to a
                   later duplicate recorded: REPLAY-MISSING.

And the rxe recordings themselves, cut small (RXE_DIR: our own recordings
on the lead's bench, see RXE_DIR/README.md): no REPLAY finding.
"""
import os
import random
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, 'check'))
import rcgen  # noqa: E402
from lossy_sparse_suite import refix, run  # noqa: E402
from tally import check  # noqa: E402
import tally  # noqa: E402

PMTU = 1024


def replay(got):
    return [g for g in got if g[1].startswith("REPLAY-") and g[1] != "REPLAY-SKIPPED"]


def errors(out):
    return [l for l in out.splitlines() if l.startswith("frame ") and
            any(r in l for r in (": REPLAY-DIFF", ": REPLAY-EXTRA", ": REPLAY-MISSING"))]


def planted(ibwire, path, frames, k, edit):
    """The REPLAY findings with frame k (0-based) edited by edit()."""
    bad = [bytearray(f) for f in frames]
    edit(bad, k)
    refix(bad[k])
    rcgen.write_pcap(path, bad)
    return replay(run(ibwire, path)[1])


def other_value(bad, k):
    bad[k][-5] ^= 0x40      # the AtomicAckETH's last byte, before the ICRC


def set_msn(fr, msn):
    fr[55:58] = struct.pack("!I", msn & 0xFFFFFF)[1:]
    refix(fr)
    return fr


def msn_of(fr):
    return struct.unpack("!I", b"\0" + bytes(fr[55:58]))[0]


def read_multi(c, va, rkey, npkt):
    """An RDMA READ of npkt PMTUs and its responses FIRST, MIDDLE...,
    LAST, or ONLY (AETH on the first and last, the MSN counting the
    READ)."""
    req = rcgen.frame(True, c.sport, rcgen.bth(0x0C, c.sq, c.psn, True) +
                      rcgen.reth(va, rkey, npkt * PMTU))
    c.msn += 1
    out = [("req", req)]
    for i in range(npkt):
        op = (0x10 if npkt == 1 else 0x0D if i == 0 else
              0x0F if i == npkt - 1 else 0x0E)
        hdr = rcgen.bth(op, c.rq, (c.psn + i) & 0xFFFFFF)
        if op != 0x0E:
            hdr += rcgen.aeth(0x1F, c.msn)
        out.append(("resp", rcgen.frame(False, 49152, hdr + bytes([i & 0xFF]) * PMTU)))
    c.psn = (c.psn + npkt) & 0xFFFFFF
    return out


def atomics_resent(r, ibwire, work, v):
    """n FETCH & ADDs in flight, the answers of some lost before the
    capture point; Go-Back-N from the first lost one, every duplicate
    answered from the saved result with the current MSN."""
    n = r.randrange(20, 160)
    c = rcgen.Conn(0x101, 0x2001, r.randrange(1 << 24), 49152)
    pairs = [c.fetch_add(0x8000 + 8 * r.randrange(4), 0x77, r.randrange(1, 1000))
             for _ in range(n)]
    lost = sorted(r.sample(range(n), r.randrange(1, 4)))
    frames = [q for (_, q), _ in pairs]
    frames += [a for i, (_, (_, a)) in enumerate(pairs) if i not in lost]
    first_answer = len(frames)
    for i in range(lost[0], n):
        frames.append(pairs[i][0][1])              # the request again
        ans = bytearray(pairs[i][1][1])
        set_msn(ans, c.msn)                        # saved value, current MSN
        frames.append(ans)
    path = os.path.join(work, "atomics-resent.pcap")
    rcgen.write_pcap(path, frames)
    rc, got, out = run(ibwire, path)
    check(rc == 0 and replay(got) == [],
          "atomics-resent %d: %d F&A, answers %s lost, resent from %d: clean: %s"
          % (v, n, lost, lost[0], errors(out)[:3] or out[-300:]))
    # a duplicate answered with another value than its first answer's
    dups = [k for k in range(first_answer + 1, len(frames), 2)
            if (k - first_answer) // 2 + lost[0] not in lost]
    if not dups:
        return
    k = r.choice(dups)
    got = planted(ibwire, path, frames, k, other_value)
    check(got == [(k + 1, "REPLAY-DIFF")],
          "atomics-resent %d: a duplicate's other original value found at frame %d: %s"
          % (v, k + 1, got))
    # a duplicate answered with an MSN below the one after its first execution
    k = r.choice(dups)
    i = (k - first_answer) // 2 + lost[0]   # i + 1 after its execution
    got = planted(ibwire, path, frames, k, lambda b, j: set_msn(b[j], i))
    check((k + 1, "REPLAY-DIFF") in got,
          "atomics-resent %d: a duplicate's MSN below its first answer's found at frame %d: %s"
          % (v, k + 1, got))


def dup_responses(r, ibwire, work, v):
    """READs of 2-24 PMTUs and FETCH & ADDs, responses duplicated by the
    network after the responder (each copy recorded, at once or later)."""
    c = rcgen.Conn(0x101, 0x2001, r.randrange(1 << 24), 49152)
    frames, atomic_acks = [], []
    for m in range(r.randrange(3, 10)):
        if r.random() < 0.6:
            msg = read_multi(c, 0x100000 * (m + 1), 0x77, r.randrange(2, 25))
        else:
            msg = c.fetch_add(0x8000, 0x77, m + 1)
        resp = []
        for kind, f in msg:
            if kind == "req":
                frames.append(f)
                continue
            resp.append(f)
            if r.random() < 0.15:
                resp.insert(min(len(resp), len(resp) - 1 + r.randrange(0, 4)), f)
        for f in resp:
            if f[42] == 0x12:
                atomic_acks.append(len(frames))
            frames.append(f)
    path = os.path.join(work, "dup-responses.pcap")
    rcgen.write_pcap(path, frames)
    rc, got, out = run(ibwire, path)
    check(rc == 0 and replay(got) == [],
          "dup-responses %d: %d frames: clean: %s" % (v, len(frames), errors(out)[:3] or out[-300:]))
    if not atomic_acks:
        return
    # the network's copy of an atomic answer with another value: a device's
    k = atomic_acks[-1]
    got = planted(ibwire, path, frames[:k + 1] + [frames[k]] + frames[k + 1:], k + 1,
                  other_value)
    check((k + 2, "REPLAY-DIFF") in got,
          "dup-responses %d: an atomic answer again with another value found at frame %d: %s"
          % (v, k + 2, got))


def start_reordered(r, ibwire, work, v):
    """The flow's first k requests delayed (netem reorder before the tap)
    behind request k: the responder NAKs the first PSN on request k, takes
    0 .. k-1 as they come, and k when the requester resends it."""
    psn = r.choice((r.randrange(1 << 24), 0xFFFFFF - r.randrange(6)))
    c = rcgen.Conn(0x101, 0x2001, psn, 49152)
    msgs = []
    for m in range(r.randrange(4, 14)):
        kind = r.randrange(3)
        # (a READ of several PMTUs: the PMTU is learnt from its first
        # response, after the NAK, and the reference fed again from it)
        msgs.append(c.write(0x10000 + 64 * m, 0x77, 32) if kind == 0 else
                    read_multi(c, 0x200000 * (m + 1), 0x77, r.randrange(1, 5))
                    if kind == 1 else c.fetch_add(0x8000, 0x77, m + 1))
    k = r.randrange(1, min(6, len(msgs) - 1))
    nak = rcgen.frame(False, 49152, rcgen.bth(0x11, 0x101, psn) + rcgen.aeth(0x60, 0))
    # request k first; the answers of k and later count the k delayed
    # messages first: the MSNs rcgen gave (in PSN order) are the responder's
    late = r.random() < 0.5
    if not late:
        # at the responder's port: the NAK, then 0 .. k-1 with their answers
        frames = [msgs[k][0][1], nak]
        for m in range(k):
            frames += [f for _, f in msgs[m]]
    else:
        # at the requester's port: 0 .. k-1 recorded before the NAK comes
        # back, then their answers; the requester goes back to the NAK's
        # PSN and sends 0 .. k-1 again, each answered again (the current
        # MSN, an atomic's saved value)
        frames = [msgs[k][0][1]] + [msgs[m][0][1] for m in range(k)] + [nak]
        for m in range(k):
            frames += [f for kind_, f in msgs[m][1:]]
        for m in range(k):
            frames += [msgs[m][0][1]] + [set_msn(bytearray(f), k) if f[42] != 0x0E else f
                                         for _, f in msgs[m][1:]]
    for m in range(k, len(msgs)):
        frames += [f for _, f in msgs[m]]
    path = os.path.join(work, "start-reordered.pcap")
    rcgen.write_pcap(path, frames)
    rc, got, out = run(ibwire, path)
    # (one flow: the answers to the delayed requests are the flow's, not a
    # stream of their own, as the checker had them with the NAK recorded
    # after them)
    check(rc == 0 and replay(got) == [] and out.count("  flow RC") == 1,
          "start-reordered %d: PSN 0x%06x, %d messages, the first %d behind the next, "
          "NAK recorded %s them: one flow, clean: %s"
          % (v, psn, len(msgs), k, "after" if late else "before",
             errors(out)[:3] or out[-400:]))
    # an answer after it one message ahead
    # (not the NAK nor the first answer: with no CM, MSNs compare from the
    # first answer's)
    resp = [j for j, f in enumerate(frames) if f[42] in (0x0D, 0x0F, 0x10, 0x12) or
            (f[42] == 0x11 and f[54] != 0x60)][1:]
    j = r.choice(resp)
    got = planted(ibwire, path, frames, j, lambda b, k: set_msn(b[k], msn_of(b[k]) + 1))
    check((j + 1, "REPLAY-DIFF") in got,
          "start-reordered %d: an MSN one too high found at frame %d: %s" % (v, j + 1, got))


def write_packets(c, m, npkt, pmtu=256):
    """RDMA WRITE message m of npkt packets (FIRST, MIDDLE..., LAST, AckReq
    on the last, or ONLY): [(psn, frame, last)], the PSNs taken."""
    out, tail = [], 1 + (m * 37) % pmtu
    for i in range(npkt):
        op = (0x0A if npkt == 1 else 0x06 if i == 0 else
              0x08 if i == npkt - 1 else 0x07)
        last = i == npkt - 1
        n = tail if last else pmtu
        pl, pad = rcgen.padded(bytes([(m + i) & 0xFF]) * n)
        hdr = rcgen.bth(op, c.sq, c.psn, last, pad)
        if i == 0:
            hdr += rcgen.reth(0x100000 * (m + 1), 0x77, pmtu * (npkt - 1) + tail)
        out.append((c.psn, rcgen.frame(True, c.sport, hdr + pl), last))
        c.psn = (c.psn + 1) & 0xFFFFFF
    return out


def nak_lost(r, ibwire, work, v):
    """Multi-packet WRITEs recorded at the requester's port; in each lossy
    round one packet is lost after the capture point, the responder takes
    what came before it, NAKs its PSN on the next one, drops the rest; the
    NAK itself is lost in the network in some rounds, and the requester
    goes back at its timer to the first packet not acknowledged.  The last
    round gets through.  The responder ACKs each message's LAST (AckReq)
    it takes, the MSN counting the messages."""
    c = rcgen.Conn(0x101, 0x2001, r.randrange(1 << 24), 49152)
    pk = []
    for m in range(r.randrange(3, 9)):
        pk += [(m,) + p for p in write_packets(c, m, r.randrange(1, 5))]
    frames, start, done = [], 0, 0     # done: messages completed (the MSN)
    rounds = r.randrange(1, 4)
    dropped_naks = 0
    for rnd in range(rounds + 1):
        lossy = rnd < rounds and start < len(pk) - 1
        lost = r.randrange(start, len(pk) - 1) if lossy else len(pk)
        frames += [f for j, (_, _, f, _) in enumerate(pk[start:], start) if j != lost]
        acks = []
        for j in range(start, min(lost, len(pk))):
            m, psn, _, last = pk[j]
            if last and m >= done:
                done = m + 1
                acks.append(rcgen.frame(False, 49152, rcgen.bth(0x11, 0x101, psn) +
                                        rcgen.aeth(0x1F, done)))
        frames += acks
        if not lossy:
            break
        if r.random() < 0.6 or (rnd == rounds - 1 and not dropped_naks):
            dropped_naks += 1      # lost in the network before the tap
        else:
            frames.append(rcgen.frame(False, 49152, rcgen.bth(0x11, 0x101, pk[lost][1]) +
                                      rcgen.aeth(0x60, done)))
        start = next(j for j in range(len(pk)) if pk[j][0] == pk[lost][0])
    path = os.path.join(work, "nak-lost.pcap")
    rcgen.write_pcap(path, frames)
    rc, got, out = run(ibwire, path)
    check(rc == 0 and replay(got) == [],
          "nak-lost %d: %d packets, %d lossy round(s), %d NAK(s) lost in the network: "
          "clean: %s" % (v, len(pk), rounds, dropped_naks, errors(out)[:3] or out[-300:]))


def nak_missing_control(ibwire, work):
    """The responder never NAKs the gap, and the requester never goes back
    to it: an answer to a later duplicate shows the NAK is missing."""
    c = rcgen.Conn(0x101, 0x2001, 0x345678, 49152)
    w = [c.write(0x10000 + 64 * i, 0x77, 32) for i in range(6)]
    frames = [f for m in w[:3] for _, f in m]       # 0..2 answered
    frames += [w[4][0][1], w[5][0][1]]              # 3 lost: 4, 5 dropped
    frames += [w[2][0][1], w[2][1][1]]              # 2 again, ACKed again
    path = os.path.join(work, "nak-missing.pcap")
    rcgen.write_pcap(path, frames)
    rc, got, out = run(ibwire, path)
    check(rc == 1 and replay(got) == [(7, "REPLAY-MISSING")],
          "a NAK never sent, no request at its PSN again: REPLAY-MISSING at the request "
          "that draws it (frame 7): %s" % replay(got))


def main():
    ibwire, rxe_dir, work = sys.argv[1:4]
    variants = int(sys.argv[4]) if len(sys.argv) > 4 else 20
    os.makedirs(work, exist_ok=True)
    for name in sorted(os.listdir(rxe_dir)):
        if not name.endswith(".pcap"):
            continue
        rc, got, out = run(ibwire, os.path.join(rxe_dir, name))
        check(rc == 0 and replay(got) == [],
              "%s: no REPLAY finding: %s" % (name, errors(out)[:3]))
    nak_missing_control(ibwire, work)
    for v in range(variants):
        r = random.Random(1000 + v)
        atomics_resent(r, ibwire, work, v)
        dup_responses(r, ibwire, work, v)
        start_reordered(r, ibwire, work, v)
        nak_lost(r, ibwire, work, v)
    return tally.status()


if __name__ == "__main__":
    sys.exit(main())
