#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`ibwire record` against hand-written expectations.

Usage: test_record_cli.py PATH_TO_IBWIRE

The hex values below are derived by hand from the layout tables (see the
comments), not produced by the tool.  Bad input must exit 2 with a message
that names the record, field or value.
"""
import subprocess
import sys

IBWIRE = sys.argv[1]
failures = 0


def run(*args):
    p = subprocess.run([IBWIRE, "record", *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def check(cond, what):
    global failures
    if not cond:
        failures += 1
        print("FAIL:", what)


def expect_out(args, want):
    rc, out, err = run(*args)
    check(rc == 0, f"{args}: exit {rc}, stderr {err!r}")
    check(out == want, f"{args}: got {out!r}, want {want!r}")


def expect_err(args, *names):
    rc, out, err = run(*args)
    check(rc == 2, f"{args}: exit {rc}, want 2")
    check(out == "", f"{args}: printed {out!r} on error")
    for n in names:
        check(n in err, f"{args}: message {err!r} does not name {n!r}")


# list: one "name width" line per record
rc, out, err = run("list")
check(rc == 0, "list exit")
lines = out.splitlines()
# 53 engine records; other families may add bus-order formats later
check(len(lines) >= 53, f"list has {len(lines)} lines, want at least 53")
check(len(set(lines)) == len(lines), "list repeats a line")
for want in ["sq_doorbell 64", "timer_entry 23", "link_word 72",
             "stream_word 258", "common_meta 368", "dma_head 128",
             "rpb_element 265", "swpb_element 268", "wqe_indicator 1"]:
    check(want in lines, f"list lacks {want!r}")
check("bth 96" not in lines, "list shows a wire format")

# describe: "field hi lo" (T7.1 / RTL E1)
expect_out(["describe", "sq_doorbell"],
           "opcode 4 0\nfence 5 5\noffset 31 8\nsize 39 32\nqpn 63 40\n")
expect_out(["describe", "timer_expire_event"], "event 7 0\nqpn 31 8\n")

# pack: SEND, F, offset 0xFEDCBA, size 3, QPN 0xABCDEF:
# word 1 = 0xABCDEF03, word 0 = 0xFEDCBA<<8 | 1<<5 | 0x0A = 0xFEDCBA2A
expect_out(["pack", "sq_doorbell", "opcode=0x0a", "fence=1", "offset=0xFEDCBA",
            "size=3", "qpn=0xABCDEF"], "abcdef03fedcba2a\n")
# decimal values: qpn 16 -> bits [63:40] = 0x10 -> word 1 = 0x00001000
expect_out(["pack", "sq_doorbell", "qpn=16"], "0000100000000000\n")
# no fields: all zero, still ceil(64/4) digits
expect_out(["pack", "sq_doorbell"], "0000000000000000\n")
# timer set: restart, QPN 0xABCD, counter 5 [34:32], timer 0x81 [42:35]:
# word 1 = 0x81<<3 | 5 = 0x40D, word 0 = 0x00ABCD01
expect_out(["pack", "timer_set_event", "opcode=1", "qpn=0xabcd",
            "counter_value=5", "timer_value=0x81"], "0000040d00abcd01\n")
# timer RAM row 0 of T3.5: 56<<15 | 80<<7 | 1<<6 | 2<<3 | 5 = 0x1C2855,
# 23 bits -> 6 digits
expect_out(["pack", "timer_entry", "current_value=56", "set_value=80",
            "active=1", "retry_count=2", "retry_threshold=5"], "1c2855\n")
# DMA head (HanGu DMA engine design v1.5 T1-2): length 00h, addr 04h-0Bh, type
# 0Ch[7:0], chnl 0Ch[31:24] -> words 3..0 = 05000002 0000000f edcba000 00001000
expect_out(["pack", "dma_head", "length=4096", "addr=0xFEDCBA000", "type=2",
            "chnl_num=5"], "050000020000000fedcba00000001000\n")
# 1-bit record: one digit
expect_out(["pack", "wqe_indicator", "flag=1"], "1\n")
# 258-bit stream word, sop (bit 256) and data bit 0: 65 digits
expect_out(["pack", "stream_word", "data=0x1", "sop=1"],
           "1" + "0" * 63 + "1\n")
# WIDE value in decimal: 2^64 = 18446744073709551616 -> bit 64 of data
expect_out(["pack", "stream_word", "data=18446744073709551616"],
           "0" * 48 + "10000000000000000\n")
# link word (ibwire's layout): control byte S=1, VL=2 -> 0x81 on top
expect_out(["pack", "link_word", "data=0x0506070801020304", "sop=1", "vl=2"],
           "810506070801020304\n")
# '_' between hex digits
expect_out(["pack", "wqe_indicator", "flag=0x0_1"], "1\n")

# unpack: field=0xVALUE lines in field order
expect_out(["unpack", "sq_doorbell", "abcdef03fedcba2a"],
           "opcode=0xa\nfence=0x1\noffset=0xfedcba\nsize=0x3\nqpn=0xabcdef\n")
expect_out(["unpack", "sq_doorbell", "0xABCDEF03_FEDCBA2A"],
           "opcode=0xa\nfence=0x1\noffset=0xfedcba\nsize=0x3\nqpn=0xabcdef\n")
# short input is zero-extended
expect_out(["unpack", "timer_expire_event", "ff"], "event=0xff\nqpn=0x0\n")
expect_out(["unpack", "stream_word", "2" + "0" * 56 + "deadbeef"],
           "data=0xdeadbeef\nsop=0x0\neop=0x1\n")
expect_out(["unpack", "timer_entry", "1c2855"],
           "retry_threshold=0x5\nretry_count=0x2\nactive=0x1\n"
           "set_value=0x50\ncurrent_value=0x38\n")

# pack | unpack round trip on a wide record
rc, out, _ = run("pack", "common_meta", "opcode=0x11", "dst_mac_lid=0x0002C9A1B2C3",
                 "pmtu=4096", "imm=0xDEADBEEF")
check(rc == 0 and len(out.strip()) == 92, f"common_meta pack {out!r}")
rc, out2, _ = run("unpack", "common_meta", out.strip())
check(rc == 0 and "dst_mac_lid=0x2c9a1b2c3\n" in out2 and "pmtu=0x1000\n" in out2
      and "imm=0xdeadbeef\n" in out2 and "opcode=0x11\n" in out2,
      f"common_meta round trip {out2!r}")

# bad input
expect_err([])
expect_err(["frob"], "frob")
expect_err(["list", "extra"])
expect_err(["describe"])
expect_err(["describe", "nope"], "nope")
expect_err(["describe", "bth"], "bth")
expect_err(["pack", "nope", "a=1"], "nope")
expect_err(["pack", "sq_doorbell", "bogus=1"], "sq_doorbell", "bogus")
expect_err(["pack", "sq_doorbell", "opcode=32"], "sq_doorbell", "opcode", "32")
expect_err(["pack", "sq_doorbell", "qpn=0x1000000"], "qpn", "0x1000000")
expect_err(["pack", "sq_doorbell", "opcode=zz"], "opcode", "zz")
expect_err(["pack", "sq_doorbell", "opcode="], "opcode")
expect_err(["pack", "sq_doorbell", "opcode=0x"], "opcode")
expect_err(["pack", "sq_doorbell", "opcode=-1"], "opcode", "-1")
expect_err(["pack", "sq_doorbell", "opcode"], "opcode")
expect_err(["pack", "sq_doorbell", "=5"], "=5")
expect_err(["pack", "sq_doorbell", "opcode=1", "opcode=2"], "opcode")
expect_err(["pack", "wqe_indicator", "flag=2"], "flag")
expect_err(["pack", "stream_word", "data=0x1" + "0" * 64], "data")
expect_err(["pack", "stream_word", "data=" + "9" * 200], "data")
expect_err(["unpack", "sq_doorbell"])
expect_err(["unpack", "sq_doorbell", "1abcdef03fedcba2a"], "sq_doorbell")
expect_err(["unpack", "sq_doorbell", "xyz"], "xyz")
expect_err(["unpack", "sq_doorbell", "12", "34"])
expect_err(["unpack", "timer_entry", "800000"], "timer_entry")
expect_err(["unpack", "sq_doorbell", "f" * 300], "sq_doorbell")

rc, out, _ = run("--help")
check(rc == 0 and "pack" in out, "--help")

print(f"record_cli: {failures} failed")
sys.exit(1 if failures else 0)
