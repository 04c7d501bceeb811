#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Compare `ibwire dump -T fields` with `tshark -T fields`, field by field.

Both programs read the same capture with the same -e list; every frame's
line must be identical.  tshark is the independent decoder here: ibwire's
field code never sees tshark's output except in this comparison.

usage: tshark_diff.py --ibwire BIN [--tshark BIN] [--fields a,b,...]
                      [--iba-only FIELD]... [--tshark-arg ARG]...
                      [--expect-frames N] CAPTURE

--iba-only FIELD compares FIELD only on frames ibwire finds an IBA transport
in (for data.data, which tshark also fills for TCP payloads).  Exit 0 when
all lines agree, 1 when not (the differences are listed), 77 (skip) when
tshark is not installed.
"""
import argparse
import os
import shutil
import subprocess
import sys

# tshark's payload heuristics would claim random RDMA payloads
# (tshark-oracle.md); with them off the payload is plain data.
TSHARK_QUIET = [
    "--disable-protocol", "rpcordma", "--disable-protocol", "smb_direct",
    "--disable-protocol", "nvme-rdma", "--disable-protocol", "iser",
    "--disable-protocol", "lnet", "--disable-protocol", "smc",
    "--disable-protocol", "infiniband_sdp", "--disable-protocol", "fcoib",
    "--disable-protocol", "infiniband.eoib",
    "--disable-heuristic", "eth_over_ib",
]

# The fields of tshark-ib-key-fields.txt that ibwire prints (MAD and CM
# names belong to the MAD family), plus the framing around them.
KEY_FIELDS = """
frame.number frame.len frame.cap_len frame.time_epoch erf.types
eth.dst eth.src eth.type vlan.priority vlan.dei vlan.id vlan.etype
ip.src ip.dst ip.hdr_len ip.dsfield ip.dsfield.dscp ip.dsfield.ecn ip.len
ip.id ip.flags.df ip.ttl ip.proto ip.checksum
ip.version ip.flags.rb ip.flags.mf ip.frag_offset ipv6.version
ipv6.src ipv6.dst ipv6.tclass ipv6.flow ipv6.plen ipv6.nxt ipv6.hlim
udp.srcport udp.dstport udp.length udp.checksum
infiniband.lrh.vl infiniband.lrh.lver infiniband.lrh.sl infiniband.lrh.lnh
infiniband.lrh.dlid infiniband.lrh.pktlen infiniband.lrh.slid
infiniband.grh.ipver infiniband.grh.tclass infiniband.grh.flowlabel
infiniband.grh.paylen infiniband.grh.nxthdr infiniband.grh.hoplmt
infiniband.grh.sgid infiniband.grh.dgid
infiniband.bth.opcode infiniband.bth.se infiniband.bth.m infiniband.bth.padcnt
infiniband.bth.tver infiniband.bth.p_key infiniband.bth.destqp infiniband.bth.a
infiniband.bth.psn
infiniband.rdeth.eecnxt infiniband.deth.q_key infiniband.deth.srcqp
infiniband.reth.va infiniband.reth.r_key infiniband.reth.dmalen
infiniband.atomiceth.swapdt infiniband.atomiceth.cmpdt
infiniband.atomicacketh.origremdt
infiniband.aeth.syndrome infiniband.aeth.syndrome.opcode
infiniband.aeth.syndrome.credit_count infiniband.aeth.syndrome.timer
infiniband.aeth.syndrome.error_code infiniband.aeth.msn
infiniband.immdt infiniband.ieth infiniband.payload infiniband.vendor
infiniband.invariant.crc infiniband.variant.crc data.data
""".split()


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       check=False)
    return p.returncode, p.stdout.decode("utf-8", "replace"), \
        p.stderr.decode("utf-8", "replace")


def check_comments(a):
    """The writer's opt_comment must reach tshark intact, one per frame."""
    rc, out, err = run([a.tshark, "-n", "-r", a.capture] + TSHARK_QUIET +
                       ["-T", "fields", "-e", "frame.comment", "-e",
                        "infiniband.bth.opcode"])
    if rc != 0:
        print(f"tshark exited {rc}: {err}")
        return 1
    bad = 0
    for n, line in enumerate(out.splitlines(), 1):
        comment, opcode = line.split("\t")
        want = f"frame {n} opcode 0x{int(opcode):02x}"
        if comment != want:
            bad += 1
            if bad <= 10:
                print(f"frame {n}: comment '{comment}', want '{want}'")
    return bad


def compare(ibwire, tshark, capture, fields, iba_only=(), tshark_args=(),
            show=40, skip=(), differing=None):
    """Run both programs on capture with the -e list `fields` and compare
    line by line.  Returns (lines, values compared, differences); the
    differences are printed (the first `show`), a failure to run either
    program or a line or column count mismatch counts as one.  Fields in
    iba_only are compared only where ibwire found an IBA transport; frames
    (numbered from 1) in `skip` are not compared; the numbers of the frames
    that differ are added to the set `differing` when one is given."""
    eargs = [x for f in fields for x in ("-e", f)]
    rc, ours, err = run([ibwire, "dump", "-T", "fields", "-e",
                         "ibwire.transport"] + eargs + [capture])
    if rc != 0:
        print(f"{capture}: ibwire dump exited {rc}: {err}")
        return 0, 0, 1
    rc, theirs, err = run([tshark, "-n", "-r", capture] + TSHARK_QUIET +
                          list(tshark_args) + ["-T", "fields"] + eargs)
    if rc != 0:
        print(f"{capture}: tshark exited {rc}: {err}")
        return 0, 0, 1
    ours_l = ours.splitlines()
    theirs_l = theirs.splitlines()
    if len(ours_l) != len(theirs_l):
        print(f"{capture}: ibwire printed {len(ours_l)} lines, tshark "
              f"{len(theirs_l)}")
        return len(ours_l), 0, 1
    diffs = 0
    compared = 0
    for n, (o, t) in enumerate(zip(ours_l, theirs_l), 1):
        if n in skip:
            continue
        ov = o.split("\t")
        transport, ov = ov[0], ov[1:]
        tv = t.split("\t")
        if len(ov) != len(fields) or len(tv) != len(fields):
            print(f"line {n}: column count ibwire {len(ov)} tshark "
                  f"{len(tv)} (want {len(fields)})")
            diffs += 1
            continue
        for name, x, y in zip(fields, ov, tv):
            if name in iba_only and transport == "none":
                continue
            compared += 1
            if x != y:
                diffs += 1
                if differing is not None:
                    differing.add(n)
                if diffs <= show:
                    print(f"frame {n} {name}: ibwire '{x}' tshark '{y}'")
    return len(ours_l), compared, diffs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ibwire", required=True)
    ap.add_argument("--tshark", default=shutil.which("tshark"))
    ap.add_argument("--fields", default=",".join(KEY_FIELDS))
    ap.add_argument("--iba-only", action="append", default=[])
    ap.add_argument("--tshark-arg", action="append", default=[])
    ap.add_argument("--expect-frames", type=int)
    ap.add_argument("--check-comments", action="store_true",
                    help="also check tshark reads each pcapng comment as "
                    "'frame N opcode 0xXX' (gen_diff's)")
    ap.add_argument("capture")
    a = ap.parse_args()

    if not os.path.exists(a.capture):
        print(f"{a.capture} not present: skipped")
        return 77
    if not a.tshark or not os.path.exists(a.tshark):
        print("tshark not installed: skipped")
        return 77
    fields = [f for f in a.fields.split(",") if f]
    lines, compared, diffs = compare(a.ibwire, a.tshark, a.capture, fields,
                                     a.iba_only, a.tshark_arg)
    if a.expect_frames is not None and lines != a.expect_frames:
        print(f"ibwire printed {lines} lines, expected {a.expect_frames}")
        return 1
    if a.check_comments:
        diffs += check_comments(a)
    print(f"{a.capture}: {lines} frames, {compared} values compared, "
          f"{diffs} differ")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
