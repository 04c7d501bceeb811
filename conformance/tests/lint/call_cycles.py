#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Fail when the C files of a directory call each other in a circle.

For each .c file of DIR: the functions it defines with external linkage
and the identifiers it calls.  File A depends on file B when A calls a
function B defines.  The dependency graph must have no cycle; a cycle is
printed as the chain of files with, for each step, a function called.

The reading is lexical (comments, strings and preprocessor lines are
dropped first), which is enough for code that defines one function per
top-level brace and does not hide calls behind macros.

With --modules, --layer and --top (comma-separated file names, every .c
file of DIR in exactly one of them) two rules more hold: a module file
calls no function that another module file or a top file defines (modules
reach each other only through the layer), and a layer file calls no
function defined outside the layer (the layer depends on nothing above
it).  Top files (the wiring, the host side) may call anything.

usage: call_cycles.py DIR [--exclude FILE.c ...] [--show]
                      [--modules A.c,... --layer B.c,... --top C.c,...]
"""
import argparse
import os
import re
import sys

from c_source import blank_comments_and_strings

KEYWORDS = {'if', 'for', 'while', 'switch', 'return', 'sizeof', 'do',
            'else', '_Alignof', '_Static_assert', '_Generic', 'defined',
            '__attribute__', 'offsetof', 'case', 'goto'}


def strip_source(text):
    """Source without comments, string and character literals, or
    preprocessor lines (continued lines included)."""
    lines = []
    continued = False
    for line in blank_comments_and_strings(text).split('\n'):
        directive = continued or line.lstrip().startswith('#')
        continued = directive and line.rstrip().endswith('\\')
        lines.append('' if directive else line)
    return '\n'.join(lines)


def top_level_chunks(src):
    """(head, body) for each top-level brace block: head is the text since
    the previous top-level ';' or '}', body the text inside the braces."""
    depth = 0
    head_start = 0
    body_start = None
    for i, ch in enumerate(src):
        if ch == '{':
            if depth == 0:
                body_start = i + 1
            depth += 1
        elif ch == '}':
            depth -= 1
            if depth == 0:
                yield src[head_start:body_start - 1], src[body_start:i]
                head_start = i + 1
        elif ch == ';' and depth == 0:
            head_start = i + 1


DEF_RE = re.compile(r'([A-Za-z_]\w*)\s*\(([^()]|\([^()]*\))*\)\s*'
                    r'(__attribute__\s*\(\(.*?\)\)\s*)*$', re.S)
CALL_RE = re.compile(r'\b([A-Za-z_]\w*)\s*\(')


def read_file(path):
    """(functions defined with external linkage, identifiers called)."""
    with open(path, encoding='utf-8') as f:
        src = strip_source(f.read())
    defined, called = set(), set()
    for head, body in top_level_chunks(src):
        m = DEF_RE.search(head.strip())
        if m and '=' not in head:
            words = head[:m.start()].split()
            if 'static' not in words:
                defined.add(m.group(1))
        called.update(name for name in CALL_RE.findall(body)
                      if name not in KEYWORDS)
    return defined, called


def find_cycle(graph):
    """One cycle as a list of nodes (first repeated last), or None."""
    WHITE, GREY, BLACK = 0, 1, 2
    colour = {node: WHITE for node in graph}
    stack = []

    def visit(node):
        colour[node] = GREY
        stack.append(node)
        for nxt in sorted(graph[node]):
            if colour[nxt] == GREY:
                return stack[stack.index(nxt):] + [nxt]
            if colour[nxt] == WHITE:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        colour[node] = BLACK
        return None

    for node in sorted(graph):
        if colour[node] == WHITE:
            found = visit(node)
            if found:
                return found
    return None


def split_list(text):
    return {name for name in text.split(',') if name}


def layer_violations(args, files, graph):
    """Print every call that breaks the module / layer rules; True if any
    (or if a file is in no list or in two)."""
    modules, layer, top = (split_list(args.modules), split_list(args.layer),
                           split_list(args.top))
    bad = False
    for name in files:
        kinds = [k for k, group in (('module', modules), ('layer', layer),
                                    ('top', top)) if name in group]
        if len(kinds) != 1:
            print(f'call_cycles: {name} must be in exactly one of --modules, '
                  f'--layer, --top (it is in {kinds or "none"})')
            bad = True
    for name in sorted(modules | layer):
        for target, fns in sorted(graph.get(name, {}).items()):
            if target in layer:
                continue
            what = 'module' if name in modules else 'layer file'
            print(f'call_cycles: {what} {name} calls {", ".join(sorted(fns))} '
                  f'of {target}')
            bad = True
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('dir')
    ap.add_argument('--exclude', action='append', default=[],
                    help='a .c file of DIR left out (e.g. a separate program)')
    ap.add_argument('--show', action='store_true',
                    help='print every dependency with the functions behind it')
    ap.add_argument('--modules', default='',
                    help='module files: call only their own and layer functions')
    ap.add_argument('--layer', default='',
                    help='layer files: call only layer functions')
    ap.add_argument('--top', default='',
                    help='top files: may call any file')
    args = ap.parse_args()

    files = sorted(f for f in os.listdir(args.dir)
                   if f.endswith('.c') and f not in args.exclude)
    if not files:
        print(f'call_cycles: no .c file in {args.dir}', file=sys.stderr)
        return 1
    defined, called = {}, {}
    for name in files:
        defined[name], called[name] = read_file(os.path.join(args.dir, name))
    owner = {}
    for name in files:
        for fn in defined[name]:
            if fn in owner:
                print(f'call_cycles: {fn} defined in {owner[fn]} and {name}',
                      file=sys.stderr)
                return 1
            owner[fn] = name
    graph = {name: {} for name in files}
    for name in files:
        for fn in called[name]:
            target = owner.get(fn)
            if target and target != name:
                graph[name].setdefault(target, set()).add(fn)
    if args.show:
        for name in files:
            for target, fns in sorted(graph[name].items()):
                print(f'{name} -> {target}: {", ".join(sorted(fns))}')
    if args.modules and layer_violations(args, files, graph):
        return 1
    cycle = find_cycle(graph)
    if cycle:
        print(f'call_cycles: {args.dir}: the files call each other in a circle:')
        for a, b in zip(cycle, cycle[1:]):
            print(f'  {a} -> {b} ({", ".join(sorted(graph[a][b]))})')
        return 1
    print(f'call_cycles: {len(files)} files of {args.dir}, no cycle')
    return 0


if __name__ == '__main__':
    sys.exit(main())
