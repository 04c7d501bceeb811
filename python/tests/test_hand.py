# SPDX-License-Identifier: Apache-2.0
"""Hand vectors: the formats scapy does not get right (RoCEv2 over IPv6,
RoCEv1, native InfiniBand with and without GRH) assembled byte by byte in
frames.py, and registry records whose values were worked out by hand from
the bit positions of the shared records catalog (shared/reference/
records.md and hangu-rtl-layouts.md beside it)."""
import os
import unittest

import support
import frames
import ibwire

PAYLOAD6 = bytes(range(0x41, 0x47))          # 6 bytes, then 2 of pad


def send_only_rc(psn, destqp, pad_to=4, a=1):
    """RC SEND ONLY (opcode 0x04) carrying PAYLOAD6 and its pad."""
    pad = -len(PAYLOAD6) % pad_to
    return frames.bth(0x04, destqp, psn, pad=pad, a=a) + PAYLOAD6 + \
        b"\0" * pad


IPV6_FIELDS = {
    "eth.dst": frames.ETH_DST, "eth.src": frames.ETH_SRC,
    "ipv6.src": "fd00::1", "ipv6.dst": "fd00::2", "ipv6.tclass": 0x68,
    "ipv6.flow": 0x12345, "ipv6.hlim": 64, "udp.srcport": 0xC001,
    "infiniband.bth.opcode": 4, "infiniband.bth.destqp": 0x22,
    "infiniband.bth.psn": 0x100, "infiniband.bth.a": 1,
    "infiniband.bth.p_key": 0xFFFF,
    "data.data": PAYLOAD6,
}
GRH_FIELDS = dict(tclass=0x20, flow=0x000AB, hoplmt=64,
                  sgid="fe80::211:22ff:fe33:4455",
                  dgid="fe80::211:22ff:fe33:6677")


def ipv6_frame():
    return frames.rocev2_ipv6("fd00::1", "fd00::2", 0xC001, 0x68, 0x12345,
                              64, send_only_rc(0x100, 0x22))


class Ipv6(unittest.TestCase):

    def test_parse(self):
        frame = ipv6_frame()
        pkt = ibwire.parse(frame)
        self.assertIsNone(pkt.error)
        self.assertEqual(pkt.icrc_status, "good")
        self.assertEqual(pkt["ibwire.transport"], "rocev2-ipv6")
        self.assertEqual(pkt["ipv6.plen"], 8 + 12 + 8 + 4)
        self.assertEqual(pkt["udp.length"], 8 + 12 + 8 + 4)
        self.assertEqual(pkt["infiniband.bth.padcnt"], 2)
        for name, want in IPV6_FIELDS.items():
            with self.subTest(field=name):
                got = pkt[name]
                if name == "data.data":
                    want = PAYLOAD6 + b"\0\0"    # dump shows the pad too
                self.assertEqual(got, want)

    def test_build(self):
        self.assertEqual(ibwire.build(IPV6_FIELDS).hex(), ipv6_frame().hex())

    def test_bad_icrc(self):
        frame = bytearray(ipv6_frame())
        frame[-1] ^= 0x01
        self.assertEqual(ibwire.parse(bytes(frame)).icrc_status, "bad")

    def test_icrc_ignores_variant_fields(self):
        """Traffic class, flow label and hop limit change on the way; the
        ICRC stays right."""
        frame = bytearray(ipv6_frame())
        frame[14] = 0x6F
        frame[15:18] = b"\xfa\xbc\xde"
        frame[21] = 3
        self.assertEqual(ibwire.parse(bytes(frame)).icrc_status, "good")


def rocev1_frame():
    return frames.rocev1(GRH_FIELDS, send_only_rc(0x7FFFFF, 0x10A, a=0))


class RoceV1(unittest.TestCase):

    FIELDS = {"eth.type": 0x8915, "infiniband.grh.tclass": 0x20,
              "infiniband.grh.flowlabel": 0xAB,
              "infiniband.grh.hoplmt": 64,
              "infiniband.grh.sgid": GRH_FIELDS["sgid"],
              "infiniband.grh.dgid": GRH_FIELDS["dgid"],
              "infiniband.bth.opcode": 4,
              "infiniband.bth.destqp": 0x10A,
              "infiniband.bth.psn": 0x7FFFFF, "data.data": PAYLOAD6}

    def test_parse(self):
        pkt = ibwire.parse(rocev1_frame())
        self.assertIsNone(pkt.error)
        self.assertEqual(pkt.icrc_status, "good")
        self.assertEqual(pkt["ibwire.transport"], "rocev1")
        self.assertEqual(pkt["infiniband.grh.paylen"], 12 + 8 + 4)
        self.assertEqual(pkt["infiniband.grh.nxthdr"], 0x1B)
        for name, want in self.FIELDS.items():
            with self.subTest(field=name):
                if name == "data.data":
                    want = PAYLOAD6 + b"\0\0"
                self.assertEqual(pkt[name], want)

    def test_build(self):
        fields = dict(self.FIELDS, **{"eth.dst": frames.ETH_DST,
                                      "eth.src": frames.ETH_SRC})
        self.assertEqual(ibwire.build(fields).hex(), rocev1_frame().hex())

    def test_helper_on_real_frames(self):
        """frames.rocev1() gives the real RoCEv1 frames of the ConnectX-4
        vectors their own bytes, ICRC included (when present)."""
        path = os.path.join(support.CAPTURES, "roce-vectors-cx4.pcap")
        if not os.path.exists(path):
            self.skipTest(path + " absent")
        for link, _, frame, _ in ibwire.read_capture(path):
            pkt = ibwire.parse(frame, link)
            if pkt["ibwire.transport"] != "rocev1":
                continue
            g = {"tclass": pkt["infiniband.grh.tclass"],
                 "flow": pkt["infiniband.grh.flowlabel"],
                 "hoplmt": pkt["infiniband.grh.hoplmt"],
                 "sgid": pkt["infiniband.grh.sgid"],
                 "dgid": pkt["infiniband.grh.dgid"]}
            again = frames.rocev1(g, frame[54:-4], pkt["eth.dst"],
                                  pkt["eth.src"])
            self.assertEqual(again.hex(), frame.hex())
            self.assertEqual(pkt.icrc_status, "good")


def native_frame(with_grh):
    return frames.native_ib(vl=2, sl=5, dlid=0x0012, slid=0x000C,
                            transport=send_only_rc(0x000123, 0x0000AB),
                            grh_fields=GRH_FIELDS if with_grh else None)


class NativeIb(unittest.TestCase):
    LINK = 247

    def fields(self, with_grh):
        f = {"infiniband.lrh.vl": 2, "infiniband.lrh.sl": 5,
             "infiniband.lrh.lnh": 3 if with_grh else 2,
             "infiniband.lrh.dlid": 0x12, "infiniband.lrh.slid": 0x0C,
             "infiniband.bth.opcode": 4, "infiniband.bth.destqp": 0xAB,
             "infiniband.bth.psn": 0x123, "infiniband.bth.a": 1,
             "data.data": PAYLOAD6}
        if with_grh:
            f.update({"infiniband.grh.tclass": 0x20,
                      "infiniband.grh.flowlabel": 0xAB,
                      "infiniband.grh.hoplmt": 64,
                      "infiniband.grh.sgid": GRH_FIELDS["sgid"],
                      "infiniband.grh.dgid": GRH_FIELDS["dgid"]})
        return f

    def test_parse(self):
        for with_grh in (False, True):
            with self.subTest(grh=with_grh):
                frame = native_frame(with_grh)
                pkt = ibwire.parse(frame, self.LINK)
                self.assertIsNone(pkt.error)
                self.assertEqual(pkt.icrc_status, "good")
                self.assertEqual(pkt.vcrc_status, "good")
                self.assertEqual(pkt["infiniband.lrh.pktlen"],
                                 (len(frame) - 2) // 4)
                for name, want in self.fields(with_grh).items():
                    if name == "data.data":
                        want = PAYLOAD6 + b"\0\0"
                    self.assertEqual(pkt[name], want, name)

    def test_build(self):
        for with_grh in (False, True):
            with self.subTest(grh=with_grh):
                built = ibwire.build(self.fields(with_grh), link=self.LINK)
                self.assertEqual(built.hex(), native_frame(with_grh).hex())

    def test_bad_vcrc(self):
        frame = bytearray(native_frame(False))
        frame[-2] ^= 0x80
        pkt = ibwire.parse(bytes(frame), self.LINK)
        self.assertEqual((pkt.icrc_status, pkt.vcrc_status), ("good", "bad"))

    def test_helper_on_real_frames(self):
        """frames.native_ib()'s CRCs are the real ones: on the native IB
        captures (when present), each IBA frame re-assembled from its
        fields is the frame."""
        checked = 0
        for name in ("mlx-ibdump-erf-ib-rping-cm.pcap",
                     "ib-native-erf-2008.pcap"):
            path = os.path.join(support.CAPTURES, name)
            if not os.path.exists(path):
                continue
            for link, _, frame, _ in ibwire.read_capture(path):
                pkt = ibwire.parse(frame, link)
                lnh = pkt["infiniband.lrh.lnh"]
                if lnh not in (2, 3):
                    continue
                # Past the 16-byte ERF header, the packet ends at its VCRC.
                packet = frame[16:16 + pkt["infiniband.lrh.pktlen"] * 4 + 2]
                g = None
                if lnh == 3:
                    g = {"tclass": pkt["infiniband.grh.tclass"],
                         "flow": pkt["infiniband.grh.flowlabel"],
                         "hoplmt": pkt["infiniband.grh.hoplmt"],
                         "sgid": pkt["infiniband.grh.sgid"],
                         "dgid": pkt["infiniband.grh.dgid"]}
                again = frames.native_ib(
                    vl=pkt["infiniband.lrh.vl"], sl=pkt["infiniband.lrh.sl"],
                    dlid=pkt["infiniband.lrh.dlid"],
                    slid=pkt["infiniband.lrh.slid"],
                    transport=packet[8 + (40 if g else 0):-6], grh_fields=g)
                self.assertEqual(again.hex(), packet.hex(), name)
                checked += 1
        if not checked:
            self.skipTest("no native IB capture at " + support.CAPTURES)


class Records(unittest.TestCase):
    """Values worked out by hand from the catalog's bit ranges."""

    def test_timer_entry(self):
        # E7: [2:0] retry threshold, [5:3] retry count, [6] active,
        # [14:7] set value, [22:15] current value.
        # 5 | 3<<3 | 1<<6 = 0x5D; 0xA5<<7 = 0x5280; 0x3C<<15 = 0x1E0000.
        fields = {"retry_threshold": 5, "retry_count": 3, "active": 1,
                  "set_value": 0xA5, "current_value": 0x3C}
        self.assertEqual(ibwire.records.pack("timer_entry", **fields),
                         0x1E52DD)
        self.assertEqual(ibwire.records.unpack("E7", 0x1E52DD), fields)

    def test_sq_doorbell(self):
        # E1 (RTL): [4:0] opcode, [5] fence, [31:8] offset, [39:32] size,
        # [63:40] qpn.  Word 0 = 0x123<<8 | 1<<5 | 0x0A = 0x0001232A,
        # word 1 = 0xABCD<<8 | 0x04 = 0x00ABCD04.
        fields = {"opcode": 0x0A, "fence": 1, "offset": 0x123, "size": 4,
                  "qpn": 0xABCD}
        self.assertEqual(ibwire.records.pack("sq_doorbell", fields),
                         0x00ABCD04_0001232A)
        self.assertEqual(ibwire.records.unpack("sq_doorbell",
                                               0x00ABCD04_0001232A), fields)

    def test_cxt_cmd_wide(self):
        # E2 command (128): [127:124] Type, [123:120] OpCode, [119:96] QPN,
        # [95:0] zero: the top word is 0x2 3 000456.
        v = ibwire.records.pack("cxt_cmd", type=2, opcode=3, qpn=0x456)
        self.assertEqual(v, 0x23000456 << 96)
        self.assertEqual(ibwire.records.unpack("cxt_cmd", v),
                         {"type": 2, "opcode": 3, "qpn": 0x456})

    def test_bth_wire_order(self):
        # W3 in wire order, byte 0 the most significant: opcode 0A,
        # SE set (80), P_Key FFFF, DestQP 000011, AckReq set (80),
        # PSN 123456.
        v = ibwire.records.pack("bth", opcode=0x0A, se=1, pkey=0xFFFF,
                                destqp=0x11, ackreq=1, psn=0x123456)
        self.assertEqual(v, 0x0A80FFFF_00000011_80123456)
        got = ibwire.records.unpack("W3", v)
        self.assertEqual((got["opcode"], got["se"], got["destqp"],
                          got["psn"], got["m"]), (0x0A, 1, 0x11, 0x123456, 0))

    def test_describe(self):
        fmt = ibwire.records.info("E7")
        self.assertEqual((fmt.name, fmt.bits), ("timer_entry", 23))
        self.assertIn(("active", 6, 1), fmt.fields)
        self.assertIn("sq_doorbell", ibwire.records.names())

    def test_errors(self):
        with self.assertRaisesRegex(ValueError, "active.*1 bits"):
            ibwire.records.pack("timer_entry", active=2)
        with self.assertRaisesRegex(KeyError, "no field 'bogus'"):
            ibwire.records.pack("timer_entry", bogus=1)
        with self.assertRaisesRegex(KeyError, "no_such_record"):
            ibwire.records.pack("no_such_record")
        with self.assertRaisesRegex(ValueError, "wider than its 23 bits"):
            ibwire.records.unpack("timer_entry", 1 << 23)


if __name__ == "__main__":
    unittest.main()
