#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The version is written once by hand, in meson.build's project(); the
IBW_VERSION_MAJOR/MINOR/PATCH macros of include/ibwire/base.h must say
the same, or the header and ibwire.pc disagree about what was installed.

usage: version_sync.py BASE_H PROJECT_VERSION
Exit 0 when they agree, 1 (saying which part differs) when not.
"""
import re
import sys


def header_version(path):
    found = {}
    with open(path, encoding='utf-8') as f:
        for line in f:
            m = re.match(r'\s*#\s*define\s+IBW_VERSION_(MAJOR|MINOR|PATCH)\s+'
                         r'(\d+)\s*$', line)
            if m:
                if m.group(1) in found:
                    sys.exit(f'{path}: IBW_VERSION_{m.group(1)} defined twice')
                found[m.group(1)] = int(m.group(2))
    missing = [k for k in ('MAJOR', 'MINOR', 'PATCH') if k not in found]
    if missing:
        sys.exit(f'{path}: no numeric IBW_VERSION_{missing[0]}')
    return found['MAJOR'], found['MINOR'], found['PATCH']


def main():
    base_h, project_version = sys.argv[1], sys.argv[2]
    parts = project_version.split('.')
    if len(parts) != 3 or not all(p.isdigit() for p in parts):
        print(f'meson project version {project_version!r} is not MAJOR.MINOR.PATCH')
        return 1
    want = tuple(int(p) for p in parts)
    have = header_version(base_h)
    if have != want:
        for name, h, w in zip(('MAJOR', 'MINOR', 'PATCH'), have, want):
            if h != w:
                print(f'IBW_VERSION_{name} is {h} in {base_h}, '
                      f'meson.build project() says {w}')
        return 1
    print(f'version {project_version}: meson.build and base.h agree')
    return 0


if __name__ == '__main__':
    sys.exit(main())
