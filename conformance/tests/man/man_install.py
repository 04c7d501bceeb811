#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`meson install --destdir DEST`, then `man -M DEST/.../share/man
ibwire-check` shows the page: what a user types after installing.

usage: man_install.py MESON BUILD_DIR DEST
"""
import os
import shutil
import subprocess
import sys


def main():
    meson, build, dest = sys.argv[1:4]
    if not shutil.which('man'):
        print('man is not installed (scripts/deps.sh installs man-db)')
        return 77
    shutil.rmtree(dest, ignore_errors=True)
    r = subprocess.run([meson, 'install', '-C', build, '--no-rebuild',
                        '--destdir', dest, '--quiet'],
                       capture_output=True, text=True, timeout=600)
    if r.returncode:
        print('meson install failed:\n' + r.stdout + r.stderr)
        return 1
    man1 = [d for d, _, files in os.walk(dest) if 'ibwire-check.1' in files]
    if len(man1) != 1 or os.path.basename(man1[0]) != 'man1':
        print('ibwire-check.1 installed in %s, expected one man1' % man1)
        return 1
    mandir = os.path.dirname(man1[0])
    env = dict(os.environ, MANWIDTH='80', MANPAGER='cat', PAGER='cat',
               LANG='C.UTF-8')
    bad = 0
    for page in sorted(os.listdir(man1[0])):
        name = page[:-2]
        r = subprocess.run(['man', '-M', mandir, name], capture_output=True,
                           text=True, env=env, timeout=60)
        title = name.upper() + '(1)'
        if r.returncode or title not in r.stdout:
            print('man -M %s %s: rc %d, %s' % (mandir, name, r.returncode,
                                               r.stderr.strip()))
            bad = 1
    r = subprocess.run(['man', '-M', mandir, 'ibwire-check'],
                       capture_output=True, text=True, env=env, timeout=60)
    for want in ('IBWIRE-CHECK(1)', '--format', '--reorder', 'EXIT STATUS'):
        if want not in r.stdout:
            print('man ibwire-check lacks %r' % want)
            bad = 1
    pages = len(os.listdir(man1[0]))
    shutil.rmtree(dest, ignore_errors=True)
    print('%d pages, each shown by man -M %s%s' % (pages, mandir,
                                                  '' if not bad else ' (not all)'))
    return bad


if __name__ == '__main__':
    sys.exit(main())
