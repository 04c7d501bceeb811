#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The man pages agree with the commands, and render.

Every command `ibwire --help` lists has a page.  For every page `ibwire
man --list` names (the build writes them next to the ibwire binary):
- the built page is what `ibwire man NAME` prints now;
- `man -l --warnings` renders it with no warning at 80 columns;
- its OPTIONS are the options of the command's tables
  (`ibwire man --options NAME`) and the ones `ibwire NAME --help` lists;
- every option-like string literal in the command's C sources (what the
  parser can compare an argument with) is on the page;
- every option on the page is accepted by the parser: followed by an
  unknown option, it is not the one reported unknown.

usage: man_pages.py IBWIRE PAGE_DIR TOOL_SOURCE_DIR
"""
import os
import re
import shutil
import subprocess
import sys

SOURCES = {
    'ibwire': ['main.c'],
    'ibwire-check': ['cmd_check.c'],
    'ibwire-dump': ['cmd_dump.c'],
    'ibwire-probe': ['cmd_probe.c'],
    'ibwire-sim': ['cmd_sim.c', 'sim_cm.c', 'sim_opts.c'],
    'ibwire-gen': ['cmd_gen.c'],
    'ibwire-record': ['cmd_record.c'],
    'ibwire-peer': ['cmd_peer.c'],
}
# Options that only parse after another (sim's --markdown needs
# --list-faults); what goes before them in the acceptance run.
BEFORE = {('ibwire-sim', '--markdown'): ['--list-faults'],
          ('ibwire-sim', '--conns'): ['--cm'],
          ('ibwire-sim', '--size'): ['--cm'],
          ('ibwire-sim', '--cm-retries'): ['--cm'],
          ('ibwire-sim', '--cm-timeout'): ['--cm']}
# Commands whose options are modes matched by argument count (gen,
# record): their record_cli/gen tests run them; no acceptance run here.
NO_ACCEPT_RUN = {'ibwire', 'ibwire-gen', 'ibwire-record'}
UNKNOWN = '--no-such-option-zz'
OPTION_LITERAL = re.compile(r'"(--?[A-Za-z0-9][A-Za-z0-9-]*)"')

failures = []


def fail(msg):
    failures.append(msg)
    print('FAIL: ' + msg)


def run(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, timeout=60, **kw)


def page_options(roff):
    """Option names under .SH OPTIONS: the bold words of each .TP tag."""
    names, in_opts, tag = set(), False, False
    for line in roff.splitlines():
        if line.startswith('.SH '):
            in_opts = line == '.SH OPTIONS'
            continue
        if not in_opts:
            continue
        if line == '.TP':
            tag = True
            continue
        if tag:
            for word in re.findall(r'\\fB(.*?)\\fR', line):
                names.add(word.replace('\\-', '-'))
            tag = False
    return names


def help_options(text):
    names = set()
    for line in text.splitlines():
        m = re.match(r'  ([^\s,]+(?:, [^\s,]+)*)', line)
        if m:
            names.update(m.group(1).split(', '))
    return names


def renders(path):
    env = dict(os.environ, MANWIDTH='80', LANG='C.UTF-8')
    if shutil.which('man'):
        r = run(['man', '-l', '--warnings', path], env=env)
    elif shutil.which('groff'):
        r = run(['groff', '-ww', '-man', '-Tutf8', '-z', path], env=env)
    else:
        return None
    return r


def unknown_reported(stderr, opt):
    return re.search(r"unknown (?:or incomplete )?option '?%s'?(?:\s|$)"
                     % re.escape(opt), stderr) is not None


def main():
    ibwire, page_dir, src_dir = sys.argv[1:4]
    names = run([ibwire, 'man', '--list']).stdout.split()
    if sorted(names) != sorted(SOURCES):
        fail('ibwire man --list: %s, expected %s' % (names, sorted(SOURCES)))
    # every command `ibwire --help` lists has its page
    usage = run([ibwire, '--help']).stdout
    listed = usage.split('commands:\n', 1)[-1].split('\n\n', 1)[0]
    commands = sorted('ibwire-' + l.split()[0] for l in listed.splitlines()
                      if l.strip())
    if commands != sorted(n for n in names if n != 'ibwire'):
        fail('ibwire --help lists %s, the pages are %s' % (commands, names))
    # the control: the check below can see an unknown option
    r = run([ibwire, 'check', UNKNOWN])
    if r.returncode != 2 or not unknown_reported(r.stderr, UNKNOWN):
        fail('ibwire check %s: not reported unknown (%r)' % (UNKNOWN, r.stderr))
    rendered = 0
    for name in names:
        cmd = [] if name == 'ibwire' else [name[len('ibwire-'):]]
        path = os.path.join(page_dir, name + '.1')
        with open(path, encoding='utf-8') as f:
            roff = f.read()
        now = run([ibwire, 'man'] + (cmd or ['ibwire'])).stdout
        if roff != now:
            fail('%s: the built page is not `ibwire man %s`' % (path, name))
        r = renders(path)
        if r is not None:
            rendered += 1
            if r.returncode != 0 or r.stderr.strip():
                fail('%s: man -l --warnings: rc %d, %s' % (path, r.returncode,
                                                            r.stderr.strip()))
            if name.upper() not in (r.stdout or name.upper()):
                fail('%s: the rendered page lacks its title' % path)
        on_page = page_options(roff)
        table = set(run([ibwire, 'man', '--options'] + (cmd or ['ibwire']))
                    .stdout.split())
        if on_page != table:
            fail('%s: page options %s, table options %s'
                 % (name, sorted(on_page), sorted(table)))
        if cmd:
            helped = help_options(run([ibwire] + cmd + ['--help']).stdout)
            if helped != on_page:
                fail('%s --help lists %s, the page %s'
                     % (name, sorted(helped), sorted(on_page)))
        literals = set()
        for src in SOURCES.get(name, []):
            with open(os.path.join(src_dir, src), encoding='utf-8') as f:
                literals |= set(OPTION_LITERAL.findall(f.read()))
        missing = literals - on_page
        if missing:
            fail('%s: the sources compare arguments with %s, not on the page'
                 % (name, sorted(missing)))
        if name in NO_ACCEPT_RUN:
            continue
        takes = {}
        for line in roff.splitlines():
            m = re.match(r'\\fB(.*?)\\fR(?: \\fI(.*?)\\fR)?$', line)
            if m:
                takes[m.group(1).replace('\\-', '-')] = m.group(2) is not None
        for opt in sorted(on_page):
            args = cmd + BEFORE.get((name, opt), []) + [opt]
            if takes.get(opt):
                args.append('1')
            r = run([ibwire] + args + [UNKNOWN])
            if unknown_reported(r.stderr, opt):
                fail('ibwire %s: the parser does not know %s (%s)'
                     % (' '.join(args), opt, r.stderr.splitlines()[0]))
    print('%d pages, %d rendered, %d failures' % (len(names), rendered,
                                                   len(failures)))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
