#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`ibwire check --replay` against the reference responder.

  replay_suite.py IBWIRE PCAPS_DIR WORK

Every bundled capture of correct traffic (engine-*, crafted-*, the sample)
replays with no REPLAY-* finding; captures edited here by hand (a wrong NAK
code, a wrong MSN, a read response removed, a wrong atomic original value,
each with its ICRC recomputed) get the finding naming the edited frame.
"""
import os
import struct
import subprocess
import sys
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, 'check'))
from tally import check  # noqa: E402
import tally  # noqa: E402


def read_pcap(path):
    with open(path, "rb") as f:
        data = f.read()
    hdr, off, frames = data[:24], 24, []
    while off < len(data):
        ts_s, ts_u, incl, orig = struct.unpack("<IIII", data[off:off + 16])
        frames.append([data[off:off + 16], bytearray(data[off + 16:off + 16 + incl])])
        off += 16 + incl
    return hdr, frames


def write_pcap(path, hdr, frames):
    with open(path, "wb") as f:
        f.write(hdr)
        for rec, fr in frames:
            ts_s, ts_u, _, _ = struct.unpack("<IIII", rec)
            f.write(struct.pack("<IIII", ts_s, ts_u, len(fr), len(fr)) + fr)


def roce2_icrc(fr):
    """RoCEv2 over IPv4 ICRC (IBA A17.4.4): CRC-32 over 8 bytes of ones,
    the IP header with TOS, TTL and checksum as ones, the UDP header with
    the checksum as ones, the BTH with its resv8a byte as ones, and the
    rest up to the ICRC; stored least significant byte first."""
    ip = bytearray(fr[14:34])
    ip[1] = 0xFF
    ip[8] = 0xFF
    ip[10:12] = b"\xff\xff"
    udp = bytearray(fr[34:42])
    udp[6:8] = b"\xff\xff"
    rest = bytearray(fr[42:-4])
    rest[4] = 0xFF
    crc = zlib.crc32(b"\xff" * 8 + bytes(ip) + bytes(udp) + bytes(rest))
    return struct.pack("<I", crc)


def findings(ibwire, path):
    p = subprocess.run([ibwire, "check", "--replay", path],
                       capture_output=True, text=True)
    out = []
    for line in p.stdout.splitlines():
        if line.startswith("frame ") and ": REPLAY-" in line:
            num, rule = line.split(":")[0:2]
            out.append((int(num.split()[1]), rule.strip()))
    return p.returncode, out, p.stdout


def main():
    ibwire, pcaps, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    clean = sorted(n for n in os.listdir(pcaps) if n.endswith(".pcap") and
                   (n.startswith(("engine-", "crafted-")) or n == "rocev2-rc-mixed.pcap"))
    check(len(clean) >= 15, "clean captures found: %d" % len(clean))
    for n in clean:
        rc, got, out = findings(ibwire, os.path.join(pcaps, n))
        check(rc == 0 and got == [], "%s replays clean: rc %d %s" % (n, rc, got))

    # the ICRC helper agrees with the bytes the engine wrote
    hdr, fr = read_pcap(os.path.join(pcaps, "engine-rc-ops.pcap"))
    check(all(roce2_icrc(f) == bytes(f[-4:]) for _, f in fr), "ICRC helper")

    def mutate(src, dst, frame, fn, drop=False):
        hdr, fr = read_pcap(os.path.join(pcaps, src))
        if drop:
            del fr[frame - 1]
        else:
            fn(fr[frame - 1][1])
            fr[frame - 1][1][-4:] = roce2_icrc(fr[frame - 1][1])
        path = os.path.join(work, dst)
        write_pcap(path, hdr, fr)
        return findings(ibwire, path)

    # engine-rc-loss-nak frame 6 is the PSN sequence NAK (AETH syndrome
    # 0x60 at byte 54 = 14 eth + 20 ip + 8 udp + 12 bth): make it NAK
    # invalid request (0x61)
    def nak_code(f):
        check(f[54] == 0x60, "frame 6 is the PSN sequence NAK")
        f[54] = 0x61
    rc, got, out = mutate("engine-rc-loss-nak.pcap", "wrong-nak.pcap", 6, nak_code)
    check(rc == 1 and (6, "REPLAY-DIFF") in got, "wrong NAK code: %s" % out)

    # engine-rc-ops frame 8: ACK of the SEND WITH IMMEDIATE, MSN 2 (AETH
    # bytes 55..57); claim MSN 6.  (The first response fixes the MSN
    # origin, so an edit there would not be seen.)
    def msn(f):
        check(f[55:58] == b"\x00\x00\x02", "frame 8 carries MSN 2")
        f[55:58] = b"\x00\x00\x06"
    rc, got, out = mutate("engine-rc-ops.pcap", "wrong-msn.pcap", 8, msn)
    check(rc == 1 and got == [(8, "REPLAY-DIFF")], "wrong MSN: %s" % out)

    # a read response removed: the 3500-byte READ (frames 25..29: request,
    # First, Middle, Middle, Last at PMTU 1024)
    hdr, fr = read_pcap(os.path.join(pcaps, "engine-rc-ops.pcap"))
    ops = [f[42] for _, f in fr]
    i = ops.index(0x0C, ops.index(0x0C) + 1)  # the second READ request
    check(ops[i + 1:i + 5] == [0x0D, 0x0E, 0x0E, 0x0F], "READ responses: %s" % ops[i:i + 5])
    rc, got, out = mutate("engine-rc-ops.pcap", "no-read-resp.pcap", i + 3,
                          None, drop=True)
    check(rc == 1 and (i + 1, "REPLAY-MISSING") in got,
          "missing read response: %s" % out)

    # the second COMPARE&SWAP's original value (AtomicAckETH after the
    # AETH, bytes 58..65): the reference knows the word from the first
    # CAS and the FETCH&ADD, so a changed value is a difference
    acks = [k for k, o in enumerate(ops) if o == 0x12]
    check(len(acks) == 3, "three atomic ACKs")
    last = acks[-1]

    def orig(f):
        f[65] ^= 0x01
    rc, got, out = mutate("engine-rc-ops.pcap", "wrong-orig.pcap", last + 1, orig)
    check(rc == 1 and (last + 1, "REPLAY-DIFF") in got, "wrong original: %s" % out)

    # the same edit on the first CAS is not judged (the word was unknown,
    # its value is learnt from it), only the later atomics that then
    # disagree with what was learnt
    rc, got, out = mutate("engine-rc-ops.pcap", "first-orig.pcap", acks[0] + 1, orig)
    check(got and all(fn > acks[0] + 1 for fn, _ in got),
          "unknown word: original learnt, not judged: %s" % got)

    # a rewind keeps what the capture taught: the COMPARE&SWAP's word is
    # learnt from its ACK, recorded here after the two RDMA WRITEs behind
    # it; the first WRITE was lost after the capture point, so the
    # responder NAKs its PSN (sequence error, at the second one) and both
    # are sent again.  The reference goes back to before the first WRITE,
    # after the CAS: the word stays the learnt one, so its answer to the
    # FETCH&ADD after them (the original value) agrees with the capture.
    # The word is X, which the reference cannot compute itself (from the
    # zeros of its memory the CAS makes its swap value).
    hdr, fr = read_pcap(os.path.join(pcaps, "engine-rc-ops.pcap"))
    cas_ack, fa_ack = acks[0], acks[1]
    cas_req, fa_req = fr[cas_ack - 1], fr[fa_ack - 1]
    write = fr[ops.index(0x0A)]            # an RDMA WRITE Only
    ack = fr[1]
    check(cas_req[1][42] == 0x13 and fa_req[1][42] == 0x14 and
          ack[1][42] == 0x11, "COMPARE&SWAP, FETCH&ADD, ACK")
    x = 0x0123456789ABCDEF
    cmp1 = struct.unpack(">Q", cas_req[1][74:82])[0]   # AtomicETH compare
    swap1 = struct.unpack(">Q", cas_req[1][66:74])[0]  # ... swap
    check(cmp1 != x and swap1 != x, "X is neither the CAS's compare nor its swap")
    psn = struct.unpack(">I", b"\0" + bytes(cas_req[1][51:54]))[0]
    msn = struct.unpack(">I", b"\0" + bytes(fr[cas_ack][1][55:58]))[0]

    def frame(src, psn_, syn=None, msn_=None, orig=None):
        f = bytearray(src[1])
        f[51:54] = struct.pack(">I", psn_)[1:]
        if syn is not None:
            f[54] = syn
        if msn_ is not None:
            f[55:58] = struct.pack(">I", msn_)[1:]
        if orig is not None:
            f[58:66] = struct.pack(">Q", orig)  # AtomicAckETH
        f[-4:] = roce2_icrc(f)
        return [fa_req[0], f]
    w1, w2 = frame(write, psn + 1), frame(write, psn + 2)
    order = fr[:cas_ack] + [
        w1, w2, frame(fr[cas_ack], psn, orig=x),
        frame(ack, psn + 1, syn=0x60, msn_=msn),   # PSN sequence NAK
        w1, w2, frame(ack, psn + 2, msn_=msn + 2),
        frame(fa_req, psn + 3), frame(fr[fa_ack], psn + 3, msn_=msn + 3, orig=x)]
    path = os.path.join(work, "learnt-rewind.pcap")
    write_pcap(path, hdr, order)
    rc, got, out = findings(ibwire, path)
    check(got == [] and "1 NAK" in out and "2 retransmitted" in out,
          "learnt word kept over a rewind: %s" % out)

    # engine-rc-rnr with the requester recorded 10/100/500 us late: its RNR
    # NAKs are recorded before the resends they refuse.  Frame 7 is the
    # ACK of the resent second SEND at PSN 0xf001, MSN 2 (AETH bytes
    # 55..57): claim MSN 6; frame 9 is an RNR NAK of the WRITE at 0xf002
    # (syndrome 0x21, byte 54): make it NAK invalid request.  (The
    # responder sends no PSN sequence NAK after an RNR NAK: IBA 9.7.5.2,
    # conformance/engine/exec_engine.c rnr_nak().)  The edited frame keeps
    # its place among the responses (capedit moves only 10.0.0.1's frames),
    # so it is found where tshark numbers it in the delayed file (WANT_AT).
    WANT_AT = {"rnr-msn": [(10, 6), (100, 3), (500, 3)],
               "rnr-nak": [(10, 7), (100, 4), (500, 4)]}
    capedit = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                           "..", "check", "capedit.py")
    def rnr_skewed(name, frame, fn, want):
        for us, at in want:
            mutate("engine-rc-rnr.pcap", name, frame, fn)
            path = os.path.join(work, name)
            late = os.path.join(work, "late-" + name)
            subprocess.run([sys.executable, capedit, "delay", "10.0.0.1",
                            str(us), path, late], check=True)
            rc, got, out = findings(ibwire, late)
            check(rc == 1 and got == [(at, "REPLAY-DIFF")],
                  "%s, requester %d us late: %s" % (name, us, out))
    def rnr_msn(f):
        check(f[54] == 0x00 and f[55:58] == b"\x00\x00\x02",
              "frame 7 is an ACK carrying MSN 2")
        f[55:58] = b"\x00\x00\x06"
    rnr_skewed("rnr-msn.pcap", 7, rnr_msn, WANT_AT["rnr-msn"])
    def rnr_nak(f):
        check(f[54] >> 5 == 1, "frame 9 is an RNR NAK")
        f[54] = 0x61
    rnr_skewed("rnr-nak.pcap", 9, rnr_nak, WANT_AT["rnr-nak"])
    return tally.status()


if __name__ == "__main__":
    sys.exit(main())
