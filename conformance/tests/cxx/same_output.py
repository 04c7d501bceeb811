#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Run a program's C build and its C++ build; fail unless both exit 0 and
print the same bytes on stdout and stderr.

The examples decode, build and pack with the header library; compiled as
C++ they must compute what the C build computes, bit for bit.

usage: same_output.py C_PROGRAM CXX_PROGRAM
"""
import subprocess
import sys


def main():
    runs = [subprocess.run([p], capture_output=True) for p in sys.argv[1:3]]
    bad = 0
    for p, r in zip(sys.argv[1:3], runs):
        if r.returncode:
            print(f'{p} exited {r.returncode}:\n{r.stderr.decode(errors="replace")}')
            bad = 1
    for stream in ('stdout', 'stderr'):
        a, b = (getattr(r, stream) for r in runs)
        if a != b:
            print(f'{stream} differs:\n--- C\n{a.decode(errors="replace")}'
                  f'--- C++\n{b.decode(errors="replace")}')
            bad = 1
    if not runs[0].stdout:
        print('the C program printed nothing: nothing was compared')
        bad = 1
    return bad


if __name__ == '__main__':
    sys.exit(main())
