#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Fail when a meson.build names a source file of another directory.

Each directory builds its own sources and hands the result on as a
library or dependency; a meson.build that compiles ../x/y.c builds the
same object twice and hides who depends on whom.  Every meson.build under
ROOT (build directories and subprojects left out) is read, comments
dropped, and any quoted string naming a C source through a path ('a/b.c',
'../x.c') is reported with its line.  (Headers are not compiled: the root
installs include/ibwire.h by its path.)

usage: meson_sources.py ROOT
"""
import os
import re
import sys

SOURCE_PATH = re.compile(r"'([^'\n]*/[^'\n]*\.(?:c|cc|cpp))'")
SKIP_DIRS = {'build', 'subprojects', '.git'}


def main():
    root = sys.argv[1]
    bad = 0
    seen = 0
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames
                             if d not in SKIP_DIRS and not d.startswith('build'))
        if 'meson.build' not in filenames:
            continue
        seen += 1
        path = os.path.join(dirpath, 'meson.build')
        with open(path, encoding='utf-8') as f:
            for n, line in enumerate(f, 1):
                code = re.sub(r"#.*", "", line)  # no '#' in the quoted names here
                for name in SOURCE_PATH.findall(code):
                    print(f'{os.path.relpath(path, root)}:{n}: {name} is '
                          f'another directory\'s source')
                    bad += 1
    if not seen:
        print(f'meson_sources: no meson.build under {root}')
        return 1
    if bad:
        return 1
    print(f'meson_sources: {seen} meson.build files, each builds its own sources')
    return 0


if __name__ == '__main__':
    sys.exit(main())
