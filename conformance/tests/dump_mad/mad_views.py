#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The MAD layers of `ibwire dump -T json` and `-T text`, held against tshark.

usage: mad_views.py --ibwire BIN [--tshark BIN] [--min-layers N] CAPTURE

For every frame: the JSON object has a "mad" key exactly when tshark finds
a MAD in the frame; each layer tshark also dissects (the MAD header, SMP
and SA headers, SMInfo, NodeInfo, PathRecord, the CM messages, the IP CM
header) is there whenever ibw_mad_decode() accepts the MAD, and its key
fields equal tshark's values; the text view shows the same layers, one
line each, and the error line exactly when the JSON has an error.
Exit 0 / 1, 77 when tshark or CAPTURE is missing.
"""
import argparse
import ipaddress
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "dump"))
from tshark_diff import TSHARK_QUIET  # noqa: E402
from mad_tshark_diff import skip_reason  # noqa: E402


def num(s):
    return int(s, 0)


def gid(s):
    """tshark's IPv6 text of a GID -> the hex string the JSON holds."""
    return ipaddress.IPv6Address(s).packed.hex()


# layer: [(JSON field, tshark field, tshark text -> JSON value)].  Fields
# wider than 32 bits are hex strings in the JSON.
KEYS = {
    "mad": [("transactionid", "infiniband.mad.transactionid",
             lambda s: "0x%016x" % num(s)),
            ("attributeid", "infiniband.mad.attributeid", num),
            ("mgmtclass", "infiniband.mad.mgmtclass", num)],
    "smplid": [("mkey", "infiniband.smplid.mkey",
                lambda s: "0x%016x" % num(s))],
    "smpdirected": [("hopcount", "infiniband.smpdirected.hopcount", num),
                    ("drslid", "infiniband.smpdirected.drslid", num)],
    "rmpp": [("rmpptype", "infiniband.rmpp.rmpptype", num)],
    "sa": [("attributeoffset", "infiniband.sa.attributeoffset", num)],
    "sminfo": [("guid", "infiniband.sminfo.guid",
                lambda s: "0x%016x" % num(s)),
               ("smstate", "infiniband.sminfo.smstate", num)],
    "nodeinfo": [("vendorid", "infiniband.nodeinfo.vendorid", num)],
    "portinfo": [("lid", "infiniband.portinfo.lid", num),
                 ("capabilitymask", "infiniband.portinfo.capabilitymask",
                  num)],
    "classportinfo": [("redirectqp", "infiniband.classportinfo.redirectqp",
                       num),
                      ("trapgid", "infiniband.classportinfo.trapgid", gid)],
    "pathrecord": [("dlid", "infiniband.pathrecord.dlid", num),
                   ("sgid", "infiniband.pathrecord.sgid", gid)],
    "cm_req": [("localcommid", "infiniband.cm.req", num),
               ("prim_locallid", "infiniband.cm.req.prim_locallid", int)],
    "cm_rep": [("localqpn", "infiniband.cm.rep.localqpn", num)],
    "cm_rtu": [("remotecommid", "infiniband.cm.rtu.remotecommid", num)],
    "cm_rej": [("reason", "infiniband.cm.rej.reason", num)],
    "cm_dreq": [("remoteqpneecn", "infiniband.cm.req.remoteqpneecn", num)],
    "cm_drep": [("localcommid", "infiniband.cm.drsp.localcommid", num)],
    "ip_cm": [("sport", "infiniband.cm.req.ip_cm.sport", num)],
}
# The tshark field whose presence says ibwire must show the layer too (when
# ibw_mad_decode() accepts the MAD); wanted() adds ibwire's own limits.
PRESENT_IF = {layer: keys[0][1] for layer, keys in KEYS.items()}
PRESENT_IF["smplid"] = "infiniband.smplid"  # smplid.mkey is in DR SMPs too
EXTRA = ["infiniband.smplid", "infiniband.cm.req.ip_cm.majv",
         "infiniband.cm.req.ip_cm.ipv", "infiniband.rmpp.rmppflags",
         "infiniband.rmpp.segmentnumber"]


def wanted(layer, t):
    if not t[PRESENT_IF[layer]]:
        return False
    cls = num(t["infiniband.mad.mgmtclass"])
    if layer in ("sminfo", "nodeinfo", "portinfo"):  # tshark: SA records too
        return cls in (0x01, 0x81)
    if layer == "classportinfo" and cls != 0x03:  # tshark: PerfMgt too
        return False
    if layer in ("pathrecord", "classportinfo"):  # not a later RMPP segment
        active = num(t["infiniband.rmpp.rmppflags"]) & 1
        first = num(t["infiniband.rmpp.rmpptype"]) == 1 and \
            t["infiniband.rmpp.segmentnumber"] != "" and \
            num(t["infiniband.rmpp.segmentnumber"]) == 1
        return not active or first
    if layer == "ip_cm":  # ibwire: a known IP CM version
        return num(t["infiniband.cm.req.ip_cm.majv"]) == 0 and \
            num(t["infiniband.cm.req.ip_cm.ipv"]) in (4, 6)
    return True


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       check=False)
    if p.returncode != 0:
        sys.exit(f"{cmd[0]} exited {p.returncode}: {p.stderr.decode()}")
    return p.stdout.decode()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ibwire", required=True)
    ap.add_argument("--tshark", default=shutil.which("tshark"))
    ap.add_argument("--min-layers", type=int, default=1)
    ap.add_argument("capture")
    a = ap.parse_args()
    why = skip_reason(a.tshark, a.capture)
    if why:
        print(f"{why}: skipped")
        return 77

    tfields = ["infiniband.mad"] + EXTRA + \
        sorted({t for keys in KEYS.values() for _, t, _ in keys})
    out = run([a.tshark, "-n", "-r", a.capture] + TSHARK_QUIET +
              ["-T", "fields"] + [x for f in tfields for x in ("-e", f)])
    ts = [dict(zip(tfields, line.split("\t"))) for line in out.splitlines()]
    frames = [json.loads(line) for line in
              run([a.ibwire, "dump", "-T", "json", a.capture]).splitlines()]
    blocks = run([a.ibwire, "dump", "-T", "text", a.capture]).split("\n\n")
    if len(frames) != len(ts):
        print(f"ibwire {len(frames)} JSON frames, tshark {len(ts)}")
        return 1

    bad = checked = layers_seen = 0
    for n, (fr, t) in enumerate(zip(frames, ts), 1):
        mad = fr.get("mad")
        if bool(mad) != bool(t["infiniband.mad"]):
            bad += 1
            print(f"frame {n}: JSON mad {'present' if mad else 'absent'}, "
                  f"tshark MAD {'present' if t['infiniband.mad'] else 'absent'}")
            continue
        if not mad:
            continue
        layers = {lay["name"]: lay["fields"] for lay in mad["layers"]}
        ok_decode = mad["error"] is None
        for layer, keys in KEYS.items():
            want = wanted(layer, t)
            if layer not in layers:
                if want and ok_decode:
                    bad += 1
                    print(f"frame {n}: layer {layer} missing from JSON")
                continue
            layers_seen += 1
            for jf, tf, conv in keys:
                if not t[tf]:
                    continue
                checked += 1
                tv = t[tf].split(",")[0]
                if layers[layer][jf] != conv(tv):
                    bad += 1
                    print(f"frame {n} {layer}.{jf}: JSON "
                          f"{layers[layer][jf]!r}, tshark {tv}")
        # The text view: one line per JSON layer, the error line with it.
        block = next((b for b in blocks
                      if b.lstrip("\n").startswith(f"frame {n}:")), "")
        names = [ln.split()[0] for ln in block.splitlines()[1:]
                 if ln.startswith("  ") and not ln.startswith("   ")]
        for lay in mad["layers"]:
            if lay["name"] not in names:
                bad += 1
                print(f"frame {n}: text view lacks layer {lay['name']}")
        has_err_line = any(ln.startswith("  mad error") for ln in
                           block.splitlines())
        if has_err_line != (not ok_decode):
            bad += 1
            print(f"frame {n}: text error line {has_err_line}, JSON error "
                  f"{mad['error']}")

    print(f"{a.capture}: {len(frames)} frames, {layers_seen} MAD layers, "
          f"{checked} values checked against tshark, {bad} problems")
    if layers_seen < a.min_layers:
        print(f"only {layers_seen} layers seen, want >= {a.min_layers}")
        return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
