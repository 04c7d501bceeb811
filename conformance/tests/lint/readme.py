#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""README.md stays the short page with the two set-up commands.

- it reads on a screen and a half (at most 75 lines);
- its "Set-up" section has two commands: the main job (ending in an
  `ibwire check` of a bundled capture that exists) and the test suite;
- .ci/run runs exactly that test command;
- every relative link in it names a file of the tree.

usage: readme.py ROOT
"""
import os
import re
import sys

MAX_LINES = 75
# Linked before it exists: another branch writes it (drop once merged).
WRITTEN_ELSEWHERE = set()


def main():
    root = sys.argv[1]
    with open(os.path.join(root, 'README.md'), encoding='utf-8') as f:
        text = f.read()
    bad = []
    lines = text.count('\n')
    if lines > MAX_LINES:
        bad.append('README.md has %d lines, more than %d' % (lines, MAX_LINES))
    setup = text.split('\n## Set-up', 1)
    setup = setup[1].split('\n## ', 1)[0] if len(setup) == 2 else ''
    commands = [l[4:] for l in setup.splitlines() if l.startswith('    ')]
    if len(commands) != 2:
        bad.append('the Set-up section has %d commands, not 2: %s'
                   % (len(commands), commands))
    else:
        main_job, suite = commands
        m = re.search(r'ibwire check (\S+)$', main_job)
        if not m or not os.path.isfile(os.path.join(root, m.group(1))):
            bad.append('the main job does not check a bundled capture: %s'
                       % main_job)
        with open(os.path.join(root, '.ci', 'run'), encoding='utf-8') as f:
            ci = [l.strip() for l in f if l.strip().startswith('exec ')]
        if ci != ['exec ' + suite]:
            bad.append('.ci/run runs %s, the README says %s' % (ci, suite))
    for target in re.findall(r'\]\(([^)#:]+)\)', text):
        if (target not in WRITTEN_ELSEWHERE and
                not os.path.exists(os.path.join(root, target))):
            bad.append('README.md links to %s, which is not in the tree'
                       % target)
    for b in bad:
        print('FAIL: ' + b)
    print('README.md: %d lines, %d problems' % (lines, len(bad)))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
