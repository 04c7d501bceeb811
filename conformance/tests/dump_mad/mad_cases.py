#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Literal expectations for `ibwire dump`'s MAD output on the real capture.

usage: mad_cases.py IBWIRE CAPTURE

The values tshark 4.0 gets wrong, worked out by hand from the bytes of
ib-native-erf-2008.pcap (tshark's -V shows the same bytes), plus the text
and JSON views of the CM REQ.  Exit 77 when the capture is missing.
"""
import json
import os
import subprocess
import sys


def dump(ibwire, capture, *args):
    p = subprocess.run([ibwire, "dump"] + list(args) + [capture],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       check=False)
    if p.returncode != 0:
        sys.exit(f"ibwire dump {args} exited {p.returncode}: "
                 f"{p.stderr.decode()}")
    return p.stdout.decode().splitlines()


# (frame, field, value).  The derivations:
#  frame 1, SubnGet(SMInfo), directed route: MAD bytes 4..5 = 00 00, so the
#    D bit is 0 and the 15-bit status 0;
#  frame 2, its SubnGetResp: bytes 4..5 = 80 00, D = 1 (returning), status
#    0 (tshark shows d 0 and status 0x8000);
#  frame 7, CM REQ: data bytes 88..91 = 00 00 00 03: flow label 0 (top 20
#    bits), 6 reserved bits 0, packet rate 3 (low 6 bits of byte 91; tshark
#    reads byte 88 and shows 0); bytes 132..135 = 00 00 00 00; byte 94 = 08:
#    SL 0, subnet local 1; byte 95 = 98: local ACK timeout 0x13, reserved 0;
#  frame 33, SA GetResp(PathRecord): MAD byte 26 = 00: RRespTime 0, flags 0.
LITERALS = [
    (1, "infiniband.smpdirected.d", "0x0000000000000000"),
    (1, "infiniband.smpdirected.smpstatus", "0x0000"),
    (2, "infiniband.smpdirected.d", "0x0000000000000001"),
    (2, "infiniband.smpdirected.smpstatus", "0x0000"),
    (7, "infiniband.cm.req.prim_flowlabel", "0x00000000"),
    (7, "infiniband.cm.req.prim_reserved0", "0x00000000"),
    (7, "infiniband.cm.req.prim_pktrate", "0x00000003"),
    (7, "infiniband.cm.req.alt_pktrate", "0x00000000"),
    (7, "infiniband.cm.req.prim_subnetlocal", "0x01"),
    (7, "infiniband.cm.req.prim_localacktout", "0x13"),
    (7, "ibwire.mad.class", "CM"),
    (7, "ibwire.mad.method", "Send"),
    (7, "ibwire.mad.attribute", "REQ"),
    (7, "ibwire.mad.error", ""),
    (33, "infiniband.rmpp.rresptime", "0x00"),
    (33, "infiniband.rmpp.rmppflags", "0x00"),
    (33, "ibwire.mad.attribute", "PathRecord"),
]


def main():
    ibwire, capture = sys.argv[1], sys.argv[2]
    if not os.path.exists(capture):
        print(f"{capture} not present: skipped")
        return 77
    bad = 0
    names = sorted({f for _, f, _ in LITERALS})
    rows = dump(ibwire, capture, "-T", "fields",
                *[x for f in names for x in ("-e", f)])
    for frame, field, want in LITERALS:
        got = rows[frame - 1].split("\t")[names.index(field)]
        if got != want:
            bad += 1
            print(f"frame {frame} {field}: '{got}', want '{want}'")

    # The REQ of frame 7 in the JSON view: its layers and hand-read values
    # (local communication ID at data byte 0: e9 48 86 27; primary local
    # LID at data 52: 00 04).
    fr = json.loads(dump(ibwire, capture, "-T", "json", "-c", "7")[6])
    layers = [lay["name"] for lay in fr["mad"]["layers"]]
    req = fr["mad"]["layers"][1]["fields"]
    for what, got, want in [
            ("layers", layers, ["mad", "cm_req"]),
            ("offsets", [lay["offset"] for lay in fr["mad"]["layers"]],
             [0, 24]),
            ("localcommid", req["localcommid"], 0xe9488627),
            ("prim_locallid", req["prim_locallid"], 4),
            ("prim_pktrate", req["prim_pktrate"], 3),
            ("error", fr["mad"]["error"], None)]:
        if got != want:
            bad += 1
            print(f"frame 7 JSON {what}: {got!r}, want {want!r}")

    # The text view of the same frame: one line per layer.
    text = "\n".join(dump(ibwire, capture, "-T", "text", "-c", "7"))
    block = text.split("\n\n")[6]
    for needle in ("\n  mad          baseversion=1 mgmtclass=7",
                   "\n  cm_req       localcommid=0xe9488627",
                   " prim_pktrate=3 ", "\n  mad names    CM Send REQ"):
        if needle not in block:
            bad += 1
            print(f"frame 7 text view lacks {needle!r}")
    # Frames without a MAD have no MAD lines or key.
    if "\n  mad " in text.split("\n\n")[2] or "mad" in json.loads(
            dump(ibwire, capture, "-T", "json", "-c", "3")[2]):
        bad += 1
        print("frame 3 (IPoIB) shows MAD layers")
    print(f"{capture}: {len(LITERALS)} literal fields, {bad} wrong")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
