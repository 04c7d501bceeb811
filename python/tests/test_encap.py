# SPDX-License-Identifier: Apache-2.0
"""Frames carried by mirrors and tunnels, read through read_capture() and
parse(): the frame inside reads as the plain capture's frame, the outer
headers under tshark's names, with the values the generator wrote
(conformance/tests/encap/encap_gen.py, from the RFC layouts)."""
import os
import subprocess
import sys
import tempfile
import unittest

import support  # noqa: F401 (puts the package on the path)
import ibwire

ROOT = os.environ.get("IBWIRE_SOURCE_ROOT",
                      os.path.join(os.path.dirname(__file__), "..", ".."))
GEN = os.path.join(ROOT, "conformance", "tests", "encap", "encap_gen.py")
CAPTURES = os.environ.get("IBWIRE_CAPTURES",
                          os.path.join(ROOT, "..", "shared", "captures"))
PLAIN = os.path.join(CAPTURES, "rxe-rping-cm-send-read-write.pcap")
FIELDS = ["infiniband.bth.opcode", "infiniband.bth.psn",
          "infiniband.bth.destqp", "ip.src", "ip.dst"]
# the forms whose outer header is IPv4 (encap_gen.py)
OUTER_IPV4 = {"erspan2", "gre", "vxlan", "mplsip"}
# the outer fields each form carries and what encap_gen.py put there
OUTER = {"erspan2": {"erspan.spanid": 7, "erspan.version": 1},
         "erspan3": {"erspan.spanid": 9, "erspan.version": 2,
                     "gre.key": 0x1234},
         "vxlan": {"vxlan.vni": 5001},
         "geneve": {"geneve.vni": 77, "geneve.option.class": 0x0103},
         "mpls": {"mpls.label": 16001},
         "eompls": {"mpls.label": 299776},
         "eomplsnocw": {"mpls.label": 16002},
         "sll": {"sll.hatype": 1, "sll.halen": 6},
         "sll2": {"sll.hatype": 1}}


@unittest.skipUnless(os.path.exists(PLAIN), "no shared captures")
class Encapsulated(unittest.TestCase):
    def frames(self, path):
        return [ibwire.parse(f, link, ts, orig)
                for link, ts, f, orig in ibwire.read_capture(path)]

    def test_forms(self):
        plain = self.frames(PLAIN)
        with tempfile.TemporaryDirectory() as d:
            for form, outer in OUTER.items():
                path = os.path.join(d, form + ".pcap")
                subprocess.run([sys.executable, GEN, form, PLAIN, path],
                               check=True)
                got = self.frames(path)
                self.assertEqual(len(got), len(plain), form)
                for a, b in zip(plain, got):
                    # as tshark lists them, the outer IPv4 header's
                    # addresses come first (the collector's, 192.0.2.x);
                    # the carried frame's are the last occurrence
                    for name in FIELDS:
                        self.assertEqual(a[name], b.all(name)[-1],
                                         (form, name))
                    if form in OUTER_IPV4 and a.get("ip.src") is not None:
                        self.assertEqual(b.all("ip.src"),
                                         ["192.0.2.1", a["ip.src"]], form)
                    for name, want in outer.items():
                        self.assertEqual(b[name], want, (form, name))
                    self.assertIsNone(b.error, form)


class BadOuter(unittest.TestCase):
    """A RoCE frame under a VXLAN header whose I flag is clear, and the
    same under GRE of version 1: the Checker reports each as PKT-MALFORMED
    naming the outer field (as `ibwire check` does), the same frames to a
    DNS port as other traffic."""

    def test_checker(self):
        sys.path.insert(0, os.path.dirname(GEN))
        import encap_gen as g
        roce = bytes.fromhex(
            "0200000000010200000000020800450000340000400040110000c0a80001"
            "c0a8000212b712b700200000040000000000000000000000000000000000"
            "000000000000")
        dns = roce[:36] + bytes([0, 53]) + roce[38:]
        recs = []
        for inner in (roce, dns):
            v, _ = g.encap("vxlan", 0, 1, 0, inner, len(inner))
            v = bytearray(v)
            v[14 + 20 + 8] = 0           # VXLAN flags: I clear
            e, _ = g.encap("erspan2", 0, 1, 0, inner, len(inner))
            e = bytearray(e)
            e[14 + 20 + 1] |= 1          # GRE version 1
            recs += [bytes(v), bytes(e)]
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "bad.pcap")
            g.write_pcap(path, 1, [(1, i, r, len(r))
                                   for i, r in enumerate(recs)])
            c = ibwire.Checker()
            c.feed_file(path)
            res = c.finish()
        got = sorted((f.frame, f.rule, f.message.split(" ")[0])
                     for f in res.findings)
        self.assertEqual(got, [(1, "PKT-MALFORMED", "vxlan.flags"),
                               (2, "PKT-MALFORMED", "gre.version")])


if __name__ == "__main__":
    unittest.main()
