#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Fail when the engine holds BTH opcode facts of its own.

The opcode values and what they mean live in include/ibwire/opcode.h
(IBW_OP_* and the ibw_opcode_*() queries).  This scans every .c/.h file
under the directories given and reports lines that compare, assign, mask
or switch on an opcode with a number, or that define opcode-like
constants or tables (the engine's former OP_*/OPF_* names included).

Comments and string literals are blanked first, so prose may still quote
a value.  Before scanning, the rules are run over sample lines that must
and must not be reported, so a rule that stops matching fails the test.

usage: opcode_literals.py DIR...
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "lint"))
from c_source import blank_comments_and_strings  # noqa: E402

NUM = r"(?:0[xX][0-9A-Fa-f]+|\d+)[uUlL]*\b"
OPC = r"\w*opcode\w*"  # an expression naming an opcode: h->opcode, bth_opcode
# A constant named like an opcode: an operation with its place in the
# message (SEND_ONLY, RDMA_WRITE_FIRST, READ_RESP_LAST), or an operation
# that is its own message (ACK, ATOMIC_ACKNOWLEDGE, FETCH_ADD, READ_REQ).
OPNAME = (r"[A-Z0-9_]*(?:(?:SEND|WRITE|READ_RESP|READ_RESPONSE)_"
          r"(?:FIRST|MIDDLE|LAST|ONLY)|ACK|ACKNOWLEDGE|READ_REQ|"
          r"READ_REQUEST|CMP_SWAP|COMPARE_SWAP|FETCH_ADD)(?![A-Z0-9])"
          r"[A-Z0-9_]*")

RULES = [
    ("the engine's former private opcode names",
     re.compile(r"(?<![A-Za-z0-9_])OPF?_[A-Z0-9_]+")),
    ("an opcode compared with a number",
     re.compile(r"\b" + OPC + r"\s*[!=]=\s*\(?\s*" + NUM)),
    ("a number compared with an opcode",
     re.compile(NUM + r"\s*[!=]=\s*" + r"[\w.>()-]*opcode")),
    ("an opcode given a number",
     re.compile(r"\b" + OPC + r"\s*=(?!=)\s*(?:\(\s*\w+\s*\)\s*)?" + NUM)),
    ("an opcode masked or shifted by a number (transport/operation bits)",
     re.compile(r"\b" + OPC + r"\)?\s*(?:&|>>|\|)\s*" + NUM)),
    ("a numeric case label",
     re.compile(r"\bcase\s+\(?\s*" + NUM + r"\s*\)?\s*:")),
    ("a #define of an opcode-like name with a number",
     re.compile(r"#\s*define\s+(?:(?:[A-Z0-9]+_)*OP(?:_[A-Z0-9_]*)?|"
                + OPNAME + r"|[A-Z0-9_]*_CNP)\s+\(?\s*" + NUM)),
    ("an enumerator of an opcode-like name with a number",
     re.compile(r"(?<![A-Za-z0-9_])(?!IBE_WR_|IBW_)(?:" + OPNAME +
                r")\s*=\s*" + NUM)),
    ("a table named after opcodes",
     re.compile(r"\b\w*(?:opcode|opflag|op_info|op_table)\w*\s*\[[^\]]*\]\s*"
                r"=\s*\{")),
]

MUST_FLAG = [
    "if (h.opcode == 0x64)",
    "if (0x11 == h->opcode)",
    "    case 0x0C:",
    "    case 12: return 1;",
    "#define OP_ACK 0x11",
    "#define UD_SEND_ONLY 0x64",
    "    OP_SEND_FIRST = 0x00, OP_SEND_MIDDLE = 0x01,",
    "    s.bth.opcode = 0x81;",
    "    r.h.opcode = (uint8_t)0x12;",
    "uint8_t svc = (uint8_t)(h->opcode & 0xE0);",
    "unsigned svc = h.opcode >> 5;",
    "    if (f & OPF_RETH) {",
    "    MY_RC_SEND_ONLY = 4,",
    "    FETCH_ADD_OP = 0x14,",
    "#define ROCE_CNP 0x81",
    "#define XRC_OP_BASE 0xA0",
    "static const uint8_t rc_opcodes[4] = {",
]
MUST_PASS = [
    "if (h.opcode == IBW_OP_UD_SEND_ONLY)",
    "    case IBW_OP_RC_ACKNOWLEDGE:",
    "    case IBE_WR_SEND:",
    "    IBE_WR_SEND = 0x0A,",
    "    r.h.opcode = IBW_OP_CNP;",
    "    resp->op = 0x01;",
    "    if (ibw_opcode_kind(op) == IBW_OPK_ACK)",
    "    q->msn = 0;",
    "enum { TM_LOSS = 0, TM_RNR = 1, TM_CNP = 2 };",
    "#define BACKLOG 1024u",
    "#define ENG_ATOMIC_CACHE 16u",
    "    IBE_ACC_REMOTE_WRITE = 2, IBE_SEND_SIGNALED = 8,",
    "    IBE_OPM_SEND = 1, IBE_OPM_WRITE_IMM = 8,",
    '    "0x64 is UD SEND ONLY"',  # strings are blanked before matching
]


def findings(text):
    """(line number, rule description, line) for each rule hit in text."""
    hits = []
    clean = blank_comments_and_strings(text).split("\n")
    raw = text.split("\n")
    for no, line in enumerate(clean, 1):
        for why, rx in RULES:
            if rx.search(line):
                hits.append((no, why, raw[no - 1].strip()))
                break
    return hits


def self_test():
    bad = 0
    for line in MUST_FLAG:
        if not findings(line):
            print("self-test: not reported: %r" % line)
            bad += 1
    for line in MUST_PASS:
        if findings(line):
            print("self-test: reported: %r" % line)
            bad += 1
    return bad


def main(dirs):
    bad = self_test()
    nfiles = 0
    for d in dirs:
        for root, _, files in os.walk(d):
            for name in sorted(files):
                if not name.endswith((".c", ".h")):
                    continue
                path = os.path.join(root, name)
                nfiles += 1
                with open(path, encoding="utf-8") as f:
                    for no, why, line in findings(f.read()):
                        print("%s:%d: %s: %s" % (path, no, why, line))
                        bad += 1
    if nfiles == 0:
        print("no C files under %s" % " ".join(dirs))
        return 1
    print("%d files, %d findings" % (nfiles, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
