#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The shared library exports the ABI and nothing else.

Reads `nm -D --defined-only` of libibwire.so and the functions
ibwire_lib.h declares (each `IBWIRE_API ... name(`): fails on an exported
symbol not starting with ibwire_ (the checker's chk_*, the capture
reader's cap_*, the field table's dump_* must stay inside), on one the
header does not declare, and on a declared function the object lacks.
The version node (IBWIRE_1, an absolute symbol) is the version script's.

usage: check_exports.py NM LIBRARY HEADER
"""
import re
import subprocess
import sys


def main(argv):
    if len(argv) != 4:
        print(__doc__)
        return 2
    nm, lib, header = argv[1:]
    out = subprocess.run([nm, "-D", "--defined-only", lib], check=True,
                         stdout=subprocess.PIPE, text=True).stdout
    exported = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 3:
            continue
        kind, name = parts[1], parts[2].split("@")[0]
        if kind == "A" and name.startswith("IBWIRE_"):
            continue
        exported.add(name)
    text = re.sub(r"/\*.*?\*/", "", open(header).read(), flags=re.S)
    text = re.sub(r"^\s*#.*$", "", text, flags=re.M)  # the macro itself
    declared = set(re.findall(r"IBWIRE_API\s[^;(]*?\b(\w+)\s*\(", text))
    problems = []
    for name in sorted(exported):
        if not name.startswith("ibwire_"):
            problems.append("exported, not ibwire_*: " + name)
        elif name not in declared:
            problems.append("exported, not declared in the header: " + name)
    for name in sorted(declared - exported):
        problems.append("declared, not exported: " + name)
    for p in problems:
        print(p)
    print("%d exported, %d declared, %d problems" %
          (len(exported), len(declared), len(problems)))
    return 1 if problems or not declared else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
