# SPDX-License-Identifier: Apache-2.0
"""Bad input: link types, frames cut short, garbage, unknown names, files
that are not captures."""
import os
import struct
import tempfile
import unittest

import support
import frames
import ibwire
import test_hand

# RoCEv2/IPv4, RC SEND ONLY with 8 payload bytes: Ethernet 14, IPv4 20,
# UDP 8, BTH 12 (ending at byte 54), payload 8, ICRC 4 = 66 bytes.  The
# ICRC slot holds zeros: these tests are about the headers.
IP_HEADER = struct.pack(">BBHHHBBH4s4s", 0x45, 0, 20 + 8 + 12 + 8 + 4, 0,
                        0x4000, 64, 17, 0, bytes([10, 0, 0, 1]),
                        bytes([10, 0, 0, 2]))
ROCEV2 = frames.ethernet(0x0800) + IP_HEADER + \
    struct.pack(">HHHH", 0xC000, 4791, 8 + 12 + 8 + 4, 0) + \
    frames.bth(0x04, 0x000033, 0x000444) + bytes(8) + bytes(4)


class LinkType(unittest.TestCase):

    def test_unknown_link_type_is_named(self):
        with self.assertRaisesRegex(ValueError, r"link type 999\b"):
            ibwire.parse(ROCEV2, 999)
        with self.assertRaisesRegex(ValueError, r"link type 12345\b"):
            ibwire.Checker().feed(ROCEV2, link=12345)

    def test_not_a_number(self):
        for bad in ("1", -1, 1.0, None):
            with self.subTest(link=bad), \
                    self.assertRaisesRegex(ValueError, "link type"):
                ibwire.parse(ROCEV2, bad)


class CutShort(unittest.TestCase):

    def test_cut_after_the_bth(self):
        """Cut by the capture at 56 bytes (orig_len says 66): valid, with
        every header field that was captured and no payload."""
        pkt = ibwire.parse(ROCEV2[:56], 1, 0, len(ROCEV2))
        self.assertIsNone(pkt.error)
        self.assertEqual(pkt["frame.len"], 66)
        self.assertEqual(pkt["frame.cap_len"], 56)
        self.assertEqual(pkt["ip.src"], "10.0.0.1")
        self.assertEqual(pkt["udp.dstport"], 4791)
        self.assertEqual(pkt["infiniband.bth.destqp"], 0x33)
        self.assertEqual(pkt["infiniband.bth.psn"], 0x444)
        self.assertIsNone(pkt["data.data"])
        self.assertNotIn("data.data", pkt)
        self.assertEqual(pkt.icrc_status, "unchecked")

    def test_cut_inside_the_bth(self):
        """Cut at 50 bytes, 8 bytes into the BTH: the UDP header is there,
        the BTH is not decoded at all (as tshark 4.0 shows such a frame:
        cap_len 50, no infiniband.bth field)."""
        pkt = ibwire.parse(ROCEV2[:50], 1, 0, len(ROCEV2))
        self.assertIsNone(pkt.error)
        self.assertEqual(pkt["udp.length"], 32)
        self.assertIsNone(pkt["infiniband.bth.opcode"])
        self.assertIsNone(pkt["infiniband.bth.psn"])


class Garbage(unittest.TestCase):

    def test_reserved_opcode_names_the_field(self):
        frame = bytearray(ROCEV2)
        frame[42] = 0x1F                    # a reserved RC opcode
        pkt = ibwire.parse(bytes(frame))
        self.assertRegex(pkt.error or "", r"^bth\.opcode: ")

    def test_bad_ip_version_names_the_field(self):
        frame = bytearray(ROCEV2)
        frame[14] = 0x55
        self.assertRegex(ibwire.parse(bytes(frame)).error or "",
                         r"ip\w*\.version")

    def test_random_bytes_do_not_raise(self):
        seed = 0x2545F491
        for n in range(200):
            seed = (seed * 6364136223846793005 + 1442695040888963407) \
                % (1 << 64)
            blob = seed.to_bytes(8, "little") * (n % 20 + 1)
            pkt = ibwire.parse(frames.ethernet(0x0800) + blob)
            self.assertIn(pkt.icrc_status,
                          ("good", "bad", "absent", "unchecked"))
            pkt.fields()

    def test_unknown_field_names(self):
        pkt = ibwire.parse(ROCEV2)
        with self.assertRaisesRegex(KeyError, "infiniband.bth.nope"):
            pkt["infiniband.bth.nope"]
        self.assertEqual(pkt.get("infiniband.bth.nope", 7), 7)
        self.assertNotIn("infiniband.bth.nope", pkt)
        self.assertEqual(pkt.get("infiniband.reth.va", "absent"), "absent")
        self.assertIn("infiniband.bth.psn", pkt)


class Files(unittest.TestCase):

    def test_missing_file(self):
        path = os.path.join(tempfile.gettempdir(), "ibwire-no-such.pcap")
        with self.assertRaisesRegex(OSError, "ibwire-no-such.pcap"):
            list(ibwire.read_capture(path))

    def test_not_a_capture(self):
        with tempfile.NamedTemporaryFile(suffix=".pcap") as f:
            f.write(b"this is not a capture file at all" * 4)
            f.flush()
            with self.assertRaises(OSError):
                list(ibwire.read_capture(f.name))

    def test_damaged_capture(self):
        """A record whose length runs past the end of the file."""
        with tempfile.NamedTemporaryFile(suffix=".pcap") as f:
            f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535,
                                1))
            f.write(struct.pack("<IIII", 0, 0, len(ROCEV2), len(ROCEV2)))
            f.write(ROCEV2)
            f.write(struct.pack("<IIII", 0, 0, 500, 500) + b"\0" * 20)
            f.flush()
            frames_read = []
            with self.assertRaises(OSError):
                for record in ibwire.read_capture(f.name):
                    frames_read.append(record)
            self.assertEqual(frames_read, [(1, 0, ROCEV2, len(ROCEV2))])


class Build(unittest.TestCase):

    def test_unknown_name(self):
        with self.assertRaisesRegex(KeyError, "infiniband.bth.nope"):
            ibwire.build({"infiniband.bth.nope": 1})

    def test_value_too_wide_names_the_field(self):
        with self.assertRaisesRegex(ValueError, "infiniband.bth.psn"):
            ibwire.build(infiniband_bth_psn=1 << 24)

    def test_wrong_type(self):
        with self.assertRaisesRegex(TypeError, "infiniband.bth.psn"):
            ibwire.build(infiniband_bth_psn=1.5)

    def test_header_the_opcode_lacks(self):
        """RETH on a SEND ONLY: no such packet."""
        with self.assertRaisesRegex(ValueError, "reth"):
            ibwire.build({"infiniband.bth.opcode": 4,
                          "infiniband.reth.va": 0x1000})


class Checker(unittest.TestCase):

    def test_feed_after_finish(self):
        c = ibwire.Checker()
        c.feed(ROCEV2)
        c.finish()
        with self.assertRaises(RuntimeError):
            c.feed(ROCEV2)

    def test_bad_pmtu(self):
        with self.assertRaisesRegex(ValueError, "pmtu"):
            ibwire.Checker(pmtu=100)


if __name__ == "__main__":
    unittest.main()
