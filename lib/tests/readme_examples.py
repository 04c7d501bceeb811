#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Write every ```c block of a Markdown file to OUTDIR/readme_example_N.c
(N from 1) and print their names, one a line, for meson to compile: the
README's examples are then built and run as tests, so they stay right.

usage: readme_examples.py README OUTDIR
"""
import os
import re
import sys


def main(argv):
    if len(argv) != 3:
        print(__doc__)
        return 2
    blocks = re.findall(r"^```c\n(.*?)^```", open(argv[1]).read(),
                        flags=re.S | re.M)
    os.makedirs(argv[2], exist_ok=True)
    for i, body in enumerate(blocks, 1):
        path = os.path.join(argv[2], "readme_example_%d.c" % i)
        text = "/* SPDX-License-Identifier: Apache-2.0 */\n" + body
        # rewritten only when it changed, so nothing rebuilds needlessly
        if not os.path.exists(path) or open(path).read() != text:
            with open(path, "w") as f:
                f.write(text)
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
