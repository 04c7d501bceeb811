#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Hold `ibwire dump`'s MAD and CM fields against tshark 4.0 and the IBA.

usage: mad_tshark_diff.py --ibwire BIN [--tshark BIN] [--min-mad-frames N]
                          [--require-all-checks] CAPTURE

1. Every infiniband.* MAD/CM name ibwire lists (ibwire dump --list-fields)
   is printed by ibwire and by tshark -T fields for every frame of CAPTURE;
   the lines must be identical, except for the fields in TSHARK_BUGS.
2. The TSHARK_BUGS fields are those tshark 4.0 reads from the wrong bits.
   For each frame that has one, ibwire's value must equal the IBA value
   worked out below from the MAD's bytes (taken from tshark's
   infiniband.mad, not from ibwire), and tshark's value must equal the
   documented mistake (so the exclusion stays honest: if a tshark fixes a
   field, this fails and the field goes back to the plain comparison).
3. The ibwire.cm.* fields of the messages tshark does not dissect (MRA,
   LAP, APR, SIDR_REQ, SIDR_REP) must equal values extracted from the same
   bytes with the IBA message tables written out below, and ibwire.mad.error
   must name the header field a rejected MAD is wrong in.

Exit 0 when all agree, 1 when not, 77 (skip) when tshark or CAPTURE is
missing.
"""
import argparse
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "dump"))
from tshark_diff import TSHARK_QUIET  # noqa: E402  (shared tshark options)

MAD_PREFIXES = ("infiniband.mad", "infiniband.rmpp", "infiniband.sa.",
                "infiniband.smplid", "infiniband.smpdirected",
                "infiniband.sminfo.", "infiniband.nodeinfo.",
                "infiniband.pathrecord.", "infiniband.portinfo.",
                "infiniband.classportinfo", "infiniband.cm.")


def be(b, off, n):
    return int.from_bytes(b[off:off + n], "big")


def bits(b, byte, bit, width):
    """IBA bit order: bit 0 is the most significant bit of byte 0."""
    first = byte * 8 + bit
    total = int.from_bytes(b, "big")
    return (total >> (len(b) * 8 - first - width)) & ((1 << width) - 1)


def hx(v, digits):
    return f"0x{v:0{digits}x}"


def cm(mad):
    return mad[24:]


# name: (IBA value, tshark 4.0's value), each a function of the 256 MAD
# bytes returning the -T fields text.  The IBA layouts: directed-route SMP
# (IBA 14.2.1.2: D bit, then a 15-bit status), RMPP header (13.6.2.1: 5-bit
# RRespTime, 3-bit flags), CM REQ (Table 106: flow label 20 bits, 6
# reserved, packet rate 6 bits, at data bytes 88 and 132), CM REJ (Table
# 108: MsgRej 2 bits then 6 reserved).  tshark 4.0 instead reads the D bit
# through a mask its 1-byte read never reaches, the status as the whole
# word, byte 26 as 4+4 bits, the REQ words from their first byte (a 24-bit
# read masked 0xfffff000, then 0xfc0 and 0x3f of the first byte), and REJ's
# reserved bits with mask 0x03.
def _req_word(base):
    return {
        "flowlabel": (lambda m: hx(be(cm(m), base, 3) >> 4, 8),
                      lambda m: hx(be(cm(m), base, 3) >> 12, 8)),
        "reserved0": (lambda m: hx((be(cm(m), base + 2, 2) >> 6) & 0x3F, 8),
                      lambda m: hx((cm(m)[base] >> 6) & 0x3, 8)),
        "pktrate": (lambda m: hx(cm(m)[base + 3] & 0x3F, 8),
                    lambda m: hx(cm(m)[base] & 0x3F, 8)),
    }


TSHARK_BUGS = {
    "infiniband.smpdirected.d": (lambda m: hx(m[4] >> 7, 16),
                                 lambda m: hx(0, 16)),
    "infiniband.smpdirected.smpstatus": (lambda m: hx(be(m, 4, 2) & 0x7FFF, 4),
                                         lambda m: hx(be(m, 4, 2), 4)),
    "infiniband.rmpp.rresptime": (lambda m: hx(m[26] >> 3, 2),
                                  lambda m: hx(m[26] >> 4, 2)),
    "infiniband.rmpp.rmppflags": (lambda m: hx(m[26] & 0x7, 2),
                                  lambda m: hx(m[26] & 0xF, 2)),
    "infiniband.cm.rej.reserved0": (lambda m: hx(cm(m)[8] & 0x3F, 2),
                                    lambda m: hx(cm(m)[8] & 0x3, 2)),
}
for _path, _base in (("prim", 88), ("alt", 132)):
    for _name, _pair in _req_word(_base).items():
        TSHARK_BUGS[f"infiniband.cm.req.{_path}_{_name}"] = _pair

# The CM messages tshark 4.0 only names, from the IBA message tables
# (Vol. 1: MRA Table 107, LAP 115, APR 116, SIDR_REQ 119, SIDR_REP 120):
# field, data byte, first bit, width in bits.
IBA_CM = {
    "mra": (0x0011, [
        ("localcommid", 0, 0, 32), ("remotecommid", 4, 0, 32),
        ("msgmraed", 8, 0, 2), ("rsvd8", 8, 2, 6),
        ("servicetimeout", 9, 0, 5), ("rsvd9", 9, 5, 3),
        ("private_data", 10, 0, 222 * 8)]),
    "lap": (0x0019, [
        ("localcommid", 0, 0, 32), ("remotecommid", 4, 0, 32),
        ("rsvd8", 8, 0, 32), ("remoteqpneecn", 12, 0, 24),
        ("remoteresptout", 15, 0, 5), ("rsvd15", 15, 5, 3),
        ("rsvd16", 16, 0, 32), ("alt_locallid", 20, 0, 16),
        ("alt_remotelid", 22, 0, 16), ("alt_localgid", 24, 0, 128),
        ("alt_remotegid", 40, 0, 128), ("alt_flowlabel", 56, 0, 20),
        ("rsvd58", 58, 4, 4), ("alt_tfcclass", 59, 0, 8),
        ("alt_hoplim", 60, 0, 8), ("rsvd61", 61, 0, 2),
        ("alt_pktrate", 61, 2, 6), ("alt_sl", 62, 0, 4),
        ("alt_subnetlocal", 62, 4, 1), ("rsvd62", 62, 5, 3),
        ("alt_localacktout", 63, 0, 5), ("rsvd63", 63, 5, 3),
        ("private_data", 64, 0, 168 * 8)]),
    "apr": (0x001A, [
        ("localcommid", 0, 0, 32), ("remotecommid", 4, 0, 32),
        ("addinfolen", 8, 0, 8), ("arstatus", 9, 0, 8),
        ("rsvd10", 10, 0, 16), ("addinfo", 12, 0, 72 * 8),
        ("private_data", 84, 0, 148 * 8)]),
    "sidr_req": (0x0017, [
        ("requestid", 0, 0, 32), ("pkey", 4, 0, 16), ("rsvd6", 6, 0, 16),
        ("serviceid", 8, 0, 64), ("private_data", 16, 0, 216 * 8)]),
    "sidr_rep": (0x0018, [
        ("requestid", 0, 0, 32), ("status", 4, 0, 8),
        ("addinfolen", 5, 0, 8), ("rsvd6", 6, 0, 16), ("qpn", 8, 0, 24),
        ("rsvd11", 11, 0, 8), ("serviceid", 12, 0, 64),
        ("qkey", 20, 0, 32), ("addinfo", 24, 0, 72 * 8),
        ("private_data", 96, 0, 136 * 8)]),
}
CM_METHODS = (0x01, 0x02, 0x03, 0x81)  # Get, Set, Send, GetResp


def iba_cm_text(data, byte, bit, width):
    if width > 64:
        return data[byte:byte + width // 8].hex()
    digits = 2 if width <= 8 else 4 if width <= 16 else 6 if width <= 24 \
        else 8 if width <= 32 else 16
    return hx(bits(data, byte, bit, width), digits)


def expected_error_field(mad):
    """The header field ibw_mad_decode names for a CM MAD, or None."""
    if mad[0] != 1:
        return "baseversion"
    if mad[3] not in CM_METHODS:
        return "method"
    attr = be(mad, 16, 2)
    if attr != 0x0001 and not 0x0010 <= attr <= 0x001A:  # ClassPortInfo, 11 messages
        return "attributeid"
    return None


def skip_reason(tshark, capture):
    """Why the comparison cannot run here, or None."""
    if not os.path.exists(capture):
        return f"{capture} not present"
    if not tshark or not os.path.exists(tshark):
        return "tshark not installed"
    return None


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       check=False)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def fields_of(ibwire):
    rc, out, err = run([ibwire, "dump", "--list-fields"])
    if rc != 0:
        sys.exit(f"ibwire dump --list-fields exited {rc}: {err}")
    return [line.split()[0] for line in out.splitlines() if line.strip()]


def table(cmd, n):
    rc, out, err = run(cmd)
    if rc != 0:
        sys.exit(f"{cmd[0]} exited {rc}: {err}")
    rows = [line.split("\t") for line in out.splitlines()]
    for i, r in enumerate(rows, 1):
        if len(r) != n:
            sys.exit(f"{cmd[0]} line {i}: {len(r)} columns, want {n}")
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ibwire", required=True)
    ap.add_argument("--tshark", default=shutil.which("tshark"))
    ap.add_argument("--min-mad-frames", type=int, default=1)
    ap.add_argument("--require-all-checks", action="store_true",
                    help="every TSHARK_BUGS field and every IBA_CM message "
                    "must occur in the capture")
    ap.add_argument("capture")
    a = ap.parse_args()
    why = skip_reason(a.tshark, a.capture)
    if why:
        print(f"{why}: skipped")
        return 77

    names = fields_of(a.ibwire)
    ts_fields = [f for f in names if f.startswith(MAD_PREFIXES)]
    missing = [f for f in TSHARK_BUGS if f not in ts_fields]
    if missing:
        print(f"TSHARK_BUGS names ibwire does not list: {missing}")
        return 1
    ibw_cm = [f for f in names if f.startswith("ibwire.cm.")]
    eargs = [x for f in ts_fields for x in ("-e", f)]
    ours = table([a.ibwire, "dump", "-T", "fields"] + eargs +
                 [x for f in ibw_cm + ["ibwire.mad.error"]
                  for x in ("-e", f)] + [a.capture],
                 len(ts_fields) + len(ibw_cm) + 1)
    theirs = table([a.tshark, "-n", "-r", a.capture] + TSHARK_QUIET +
                   ["-T", "fields"] + eargs, len(ts_fields))
    if len(ours) != len(theirs):
        print(f"ibwire printed {len(ours)} lines, tshark {len(theirs)}")
        return 1

    col = {f: i for i, f in enumerate(ts_fields)}
    ocol = {f: len(ts_fields) + i for i, f in enumerate(ibw_cm)}
    err_col = len(ts_fields) + len(ibw_cm)
    diffs = compared = nonempty = mad_frames = 0
    bug_checks = {f: 0 for f in TSHARK_BUGS}
    cm_checks = {m: 0 for m in IBA_CM}
    errors_checked = 0

    def bad(msg):
        nonlocal diffs
        diffs += 1
        if diffs <= 40:
            print(msg)

    for n, (o, t) in enumerate(zip(ours, theirs), 1):
        mad_hex = t[col["infiniband.mad"]]
        mad = bytes.fromhex(mad_hex) if mad_hex else None
        if mad:
            mad_frames += 1
        for f in ts_fields:
            x, y = o[col[f]], t[col[f]]
            if f in TSHARK_BUGS:
                if not x and not y:
                    continue
                iba, wrong = TSHARK_BUGS[f]
                bug_checks[f] += 1
                if not mad or x != iba(mad) or y != wrong(mad):
                    bad(f"frame {n} {f}: ibwire '{x}' (IBA "
                        f"'{iba(mad) if mad else '?'}'), tshark '{y}' "
                        f"(documented '{wrong(mad) if mad else '?'}')")
                continue
            compared += 1
            nonempty += bool(x or y)
            if x != y:
                bad(f"frame {n} {f}: ibwire '{x[:80]}' tshark '{y[:80]}'")
        # ibwire-only names: from the bytes with the IBA tables.
        cm_ok = mad and mad[1] == 0x07 and expected_error_field(mad) is None
        attr = be(mad, 16, 2) if mad else None
        for msg, (msg_attr, layout) in IBA_CM.items():
            present = cm_ok and attr == msg_attr
            if present:
                cm_checks[msg] += 1
            for fname, byte, bit, width in layout:
                name = f"ibwire.cm.{msg}.{fname}"
                got = o[ocol[name]]
                want = iba_cm_text(mad[24:], byte, bit, width) if present \
                    else ""
                compared += 1
                nonempty += bool(got or want)
                if got != want:
                    bad(f"frame {n} {name}: ibwire '{got[:60]}' IBA "
                        f"'{want[:60]}'")
        if mad and mad[1] == 0x07:
            field = expected_error_field(mad)
            got = o[err_col]
            errors_checked += 1
            ok = got.startswith(f"mad.{field}: ") if field else got == ""
            if not ok:
                bad(f"frame {n} ibwire.mad.error: '{got}', want field "
                    f"{field}")

    print(f"{a.capture}: {len(ours)} frames, {mad_frames} MADs, {compared} "
          f"values compared ({nonempty} not empty), tshark-bug fields checked against the IBA: "
          f"{sum(bug_checks.values())} values, ibwire.cm messages: "
          f"{sum(cm_checks.values())}, CM verdicts: {errors_checked}; "
          f"{diffs} differ")
    if mad_frames < a.min_mad_frames:
        print(f"only {mad_frames} frames carry a MAD to tshark, want >= "
              f"{a.min_mad_frames}")
        return 1
    if a.require_all_checks:
        unseen = [f for f, k in bug_checks.items() if not k] + \
            [m for m, k in cm_checks.items() if not k]
        if unseen:
            print(f"never exercised: {unseen}")
            return 1
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
