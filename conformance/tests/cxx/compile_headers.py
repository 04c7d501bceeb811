#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Compile every public header alone as C++11, 14, 17 and 20.

C++ models and Verilator harnesses include the headers one by one, and g++
and clang++ disagree on what they accept (g++ 12 rejects out-of-order
designated initializers, C++20 deprecates arithmetic between enumerations),
so each header is compiled as the only include of a translation unit with
each C++ compiler on PATH (g++, clang++) under -Wall -Wextra -Wpedantic
-Werror.  The headers are globbed, so a new one is covered without editing
this test.  Each family header must also wrap its declarations in an
`extern "C"` block, so that a C++ program linking C code built from the
same header (a DPI file, a model) sees one linkage.  Fails when no C++
compiler is found.

usage: compile_headers.py INCLUDE_DIR
"""
import concurrent.futures
import os
import shutil
import subprocess
import sys
import tempfile

STANDARDS = ['c++11', 'c++14', 'c++17', 'c++20']
FLAGS = ['-Wall', '-Wextra', '-Wpedantic', '-Werror', '-fsyntax-only']


def main():
    inc = sys.argv[1]
    headers = ['ibwire.h'] + sorted(
        'ibwire/' + h for h in os.listdir(os.path.join(inc, 'ibwire'))
        if h.endswith('.h'))
    unguarded = [h for h in headers[1:] if 'extern "C" {' not in open(
        os.path.join(inc, h), encoding='utf-8').read()]
    for h in unguarded:
        print(f'FAIL {h}: no extern "C" block under __cplusplus')
    compilers = [c for c in ('g++', 'clang++') if shutil.which(c)]
    if not compilers:
        print('no C++ compiler (g++, clang++) on PATH')
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        jobs = []
        for n, h in enumerate(headers):
            src = os.path.join(tmp, f'h{n}.cc')
            with open(src, 'w', encoding='utf-8') as f:
                # a use of the header: it must also be linkable as C++
                f.write(f'#include <{h}>\nint main() {{ return 0; }}\n')
            for cxx in compilers:
                for std in STANDARDS:
                    jobs.append((h, cxx, std,
                                 [cxx, '-std=' + std, *FLAGS, '-I', inc, src]))
        failed = 0
        with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as ex:
            runs = ex.map(lambda j: (j, subprocess.run(
                j[3], capture_output=True, text=True)), jobs)
            for (h, cxx, std, _), r in runs:
                if r.returncode:
                    failed += 1
                    print(f'FAIL {h} with {cxx} -std={std}:\n{r.stderr}')
    print(f'{len(jobs) - failed} of {len(jobs)} compiles clean '
          f'({len(headers)} headers, {", ".join(compilers)}, '
          f'{", ".join(STANDARDS)})')
    return 1 if failed or unguarded else 0


if __name__ == '__main__':
    sys.exit(main())
