# SPDX-License-Identifier: Apache-2.0
"""ibwire.Checker fed frame by frame through ibwire.read_capture() against
`ibwire check --format json` on the same files (findings and flow
summaries, member for member), and against the verdicts the bundled
captures' .expect files state."""
import json
import os
import subprocess
import unittest

import support
import ibwire


def check_with_python(path, **options):
    checker = ibwire.Checker(**options)
    for link, ts_ns, frame, orig_len in ibwire.read_capture(path):
        checker.feed(frame, link, ts_ns, orig_len)
    return checker.finish()


def check_with_tool(paths):
    """`ibwire check --format json` on paths: file name -> its object."""
    p = subprocess.run([support.TOOL, "check", "--format", "json"] + paths,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=support.program_env(), check=False)
    if p.returncode not in (0, 1):
        raise RuntimeError("ibwire check exited %d: %s" % (
            p.returncode, p.stderr.decode("utf-8", "replace")))
    return {f.pop("file"): f for f in json.loads(p.stdout)["files"]}


def read_expect(path):
    """(["finding N RULE", ...], exit status) of a .expect file."""
    findings, status = [], None
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("finding "):
                findings.append(line)
            elif line.startswith("exit "):
                status = int(line.split()[1])
    return findings, status


@support.needs_tool
class SameAsTool(unittest.TestCase):

    def compare(self, paths):
        self.assertTrue(paths)
        want = check_with_tool(paths)
        for path in paths:
            with self.subTest(capture=os.path.basename(path)):
                got = check_with_python(path).to_json()
                self.assertEqual(got["findings"], want[path]["findings"])
                self.assertEqual(got["flows"], want[path]["flows"])
                self.assertEqual(got, want[path])

    def test_bundled(self):
        self.compare(support.bundled_captures())

    def test_real(self):
        paths = support.real_captures()
        if not paths:
            self.skipTest("no real captures at %s" % support.CAPTURES)
        self.compare(paths)

    def test_pmtu_option(self):
        """pmtu= is --pmtu: a 4096-byte PMTU changes no verdict of a clean
        1024-byte capture, 256 makes its full-size packets too long."""
        path = os.path.join(support.PCAPS, "rocev2-rc-mixed.pcap")
        for pmtu in (256, 4096):
            with self.subTest(pmtu=pmtu):
                p = subprocess.run(
                    [support.TOOL, "check", "--format", "json", "--pmtu",
                     str(pmtu), path], stdout=subprocess.PIPE,
                    env=support.program_env(), check=False)
                want = json.loads(p.stdout)["files"][0]
                del want["file"]
                got = check_with_python(path, pmtu=pmtu).to_json()
                self.assertEqual(got, want)


class Expected(unittest.TestCase):
    """The verdicts written in pcaps/*.expect."""

    def test_bundled(self):
        checked = 0
        for path in support.bundled_captures():
            expect = path[:-len(".pcap")] + ".expect"
            if not os.path.exists(expect):
                continue
            with self.subTest(capture=os.path.basename(path)):
                want_findings, want_status = read_expect(expect)
                result = check_with_python(path)
                got = ["finding %d %s" % (f.frame, f.rule)
                       for f in result.findings
                       if f.severity in ("error", "warning")]
                self.assertEqual(got, want_findings)
                self.assertEqual(1 if result.errors else 0, want_status)
                checked += 1
        self.assertGreater(checked, 40)

    def test_finding_tuple(self):
        path = os.path.join(support.PCAPS, "bad-flow-gbn.pcap")
        result = check_with_python(path)
        f = result.findings[0]
        self.assertEqual((f.frame, f.rule, f.severity), (7, "FLOW-GBN",
                                                         "error"))
        self.assertIn("0x000001", f.message)
        flow_ids = {fl["id"] for fl in result.flows if "id" in fl}
        self.assertTrue(f.flow == 0 or not flow_ids or f.flow in flow_ids)
        self.assertEqual(result.frames, 8)


if __name__ == "__main__":
    unittest.main()
