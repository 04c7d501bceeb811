#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`ibwire check --report`: the page's markers against the checker's counts.

For the bundled captures (lossy, RNR, CM and the rest), a CNP/ECN scenario
made with `ibwire sim --ecn` and the real captures (when the folder exists),
the HTML report is parsed with html.parser and compared with what
`ibwire check --format json` prints for the same files, which the report
writer has no part in: one chart per flow, in the same order, and per flow
exactly as many markers of each kind as the flow summary counts (findings:
the flow's errors + warnings).

usage: test_report.py IBWIRE PCAPS_DIR SHARED_CAPTURES WORKDIR
"""
import glob
import html.parser
import json
import os
import shutil
import subprocess
import sys
import unittest

IBWIRE = PCAPS = SHARED = WORK = None

# marker kind on the page -> flow summary field(s) in the JSON output
KINDS = {
    "retransmission": ("retransmissions",),
    "nak": ("naks",),
    "rnr": ("rnr_naks",),
    "cnp": ("cnps",),
    "ecn": ("ecn_marks",),
    "finding": ("errors", "warnings"),
}


class Page(html.parser.HTMLParser):
    """Files (sections), their charts and the markers inside each chart."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.files = []       # [{"title": str, "charts": [...], "loose": n}]
        self.stack = []       # open tags
        self.chart = None
        self.chart_depth = 0
        self.in_h2 = False
        self.want_title = False
        self.markers_outside = []
        self.external = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.stack.append(tag)
        for k in ("src", "href"):
            v = a.get(k)
            if v is not None and not v.startswith("#"):
                self.external.append((tag, k, v))
        if tag in ("script", "link", "img", "iframe", "object"):
            self.external.append((tag, "tag", ""))
        if tag == "section" and a.get("class") == "file":
            self.files.append({"title": "", "charts": [], "loose": 0,
                               "finding_frames": []})
            self.want_title = True
        if tag == "h2":
            self.in_h2 = self.want_title
            self.want_title = False
        if tag == "svg" and a.get("class") == "chart":
            self.chart = {"flow": int(a["data-flow"]),
                          "first": int(a["data-first-frame"]),
                          "last": int(a["data-last-frame"]),
                          "kinds": {k: 0 for k in KINDS}, "frames": []}
            self.files[-1]["charts"].append(self.chart)
            self.chart_depth = len(self.stack)
        if "data-kind" in a:
            kind = a["data-kind"]
            if kind not in KINDS:
                raise AssertionError("unknown data-kind %r" % kind)
            frame = int(a["data-frame"])
            if kind == "finding" and self.files:
                self.files[-1]["finding_frames"].append(frame)
            if self.chart is not None:
                self.chart["kinds"][kind] += 1
                self.chart["frames"].append(frame)
            elif tag == "li" and kind == "finding":
                self.files[-1]["loose"] += 1
            else:
                self.markers_outside.append((tag, kind))

    def handle_endtag(self, tag):
        while self.stack:
            t = self.stack.pop()
            if t == "svg" and self.chart is not None and \
                    len(self.stack) < self.chart_depth:
                self.chart = None
            if t == "h2":
                self.in_h2 = False
            if t == tag:
                break

    def handle_data(self, data):
        if self.in_h2 and self.files:
            self.files[-1]["title"] += data


def run(args, **kw):
    return subprocess.run([IBWIRE] + args, capture_output=True, text=True,
                          timeout=600, **kw)


def report_and_json(paths, name):
    out = os.path.join(WORK, name + ".html")
    r = run(["check", "--report", out] + paths)
    if r.returncode not in (0, 1):
        raise AssertionError("check --report failed: %s" % r.stderr)
    j = run(["check", "--format", "json"] + paths)
    if j.returncode not in (0, 1):
        raise AssertionError("check --format json failed: %s" % j.stderr)
    with open(out, encoding="utf-8") as f:
        text = f.read()
    page = Page()
    page.feed(text)
    page.close()
    return text, page, json.loads(j.stdout)


class ReportTest(unittest.TestCase):
    def compare(self, paths, name):
        text, page, js = report_and_json(paths, name)
        self.assertEqual(page.external, [], "the page loads nothing")
        self.assertEqual(page.markers_outside, [])
        self.assertEqual(len(page.files), len(js["files"]))
        totals = {k: 0 for k in KINDS}
        for pf, jf in zip(page.files, js["files"]):
            self.assertEqual(pf["title"], jf["file"])
            flows = jf["flows"]
            self.assertEqual(len(pf["charts"]), len(flows),
                             "%s: one chart per flow" % jf["file"])
            for ch, fl in zip(pf["charts"], flows):
                where = "%s flow %d" % (jf["file"], ch["flow"])
                self.assertEqual((ch["first"], ch["last"]),
                                 (fl["first_frame"], fl["last_frame"]), where)
                for kind, fields in KINDS.items():
                    want = sum(fl[f] for f in fields)
                    self.assertEqual(ch["kinds"][kind], want,
                                     "%s: %s markers" % (where, kind))
                    totals[kind] += want
                for fr in ch["frames"]:
                    self.assertTrue(1 <= fr <= jf["frames"], where)
            # every finding is drawn on its flow or listed outside flows
            drawn = sum(c["kinds"]["finding"] for c in pf["charts"])
            self.assertEqual(drawn + pf["loose"], len(jf["findings"]),
                             jf["file"])
            self.assertEqual(sorted(pf["finding_frames"]),
                             sorted(x["frame"] for x in jf["findings"]),
                             "%s: the frames findings name" % jf["file"])
        return totals, text

    def test_bundled(self):
        paths = sorted(glob.glob(os.path.join(PCAPS, "*.pcap")))
        self.assertTrue(paths)
        totals, _ = self.compare(paths, "bundled")
        # the lossy and RNR scenarios are among them: the test has markers
        for k in ("retransmission", "nak", "rnr", "finding"):
            self.assertGreater(totals[k], 0, k)

    def test_lossy_rnr_cm_each(self):
        for name in ("engine-rc-loss-nak", "engine-rc-rnr",
                     "crafted-loss-clean", "engine-cm"):
            totals, text = self.compare(
                [os.path.join(PCAPS, name + ".pcap")], name)
            if name == "engine-cm":
                self.assertIn('class="ladder"', text)
                self.assertIn(">REQ<", text)
                self.assertIn(">REP<", text)
                self.assertIn(">RTU<", text)
            else:
                self.assertGreater(totals["retransmission"], 0, name)

    def test_cnp_ecn_sim(self):
        cap = os.path.join(WORK, "sim-ecn.pcap")
        r = run(["sim", "--seed", "7", "--messages", "300", "--ecn", "0.05",
                 "--drop", "0.02", "-w", cap])
        self.assertEqual(r.returncode, 0, r.stderr)
        totals, _ = self.compare([cap], "sim-ecn")
        for k in ("cnp", "ecn", "retransmission", "nak"):
            self.assertGreater(totals[k], 0, k)

    def test_real_captures(self):
        paths = sorted(glob.glob(os.path.join(SHARED, "*.pcap")) +
                       glob.glob(os.path.join(SHARED, "*.pcapng")))
        if not paths:
            self.skipTest("no real captures in %s" % SHARED)
        self.compare(paths, "real")

    def test_escaped_path(self):
        odd = os.path.join(WORK, "a<b>&\"q'.pcap")
        shutil.copy(os.path.join(PCAPS, "bad-flow-gbn.pcap"), odd)
        _, text = self.compare([odd], "escaped")
        self.assertNotIn("a<b>", text)
        self.assertIn("a&lt;b&gt;&amp;&quot;q&#39;.pcap", text)


def main():
    global IBWIRE, PCAPS, SHARED, WORK
    IBWIRE, PCAPS, SHARED, WORK = sys.argv[1:5]
    os.makedirs(WORK, exist_ok=True)
    unittest.main(argv=sys.argv[:1], verbosity=2)


if __name__ == "__main__":
    main()
