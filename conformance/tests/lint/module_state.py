#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Fail when a module file touches another module's state.

The header (--header, a file of DIR) declares each module's state as a
struct whose comment starts with `owner: FILE.c`; a struct that holds
others (struct eng_qp, struct ibe_engine) names each of them by a member.
Every member whose type is an owned struct belongs to that struct's owner.
A module file (--modules) may write `->member` or `.member` only for the
members it owns, and name an owned struct type (`struct eng_qp_rtc`) only
if it owns it; the files not listed as modules (the top, the FIFO layer)
are not checked.  The ownership is read from the header alone, so moving a
struct to another module is one edit there.

The reading is lexical (comments and strings blanked first): a member name
that some unrelated struct also uses would be reported too, which is why
two owned members may not share a name unless one module owns both.

usage: module_state.py DIR --header eng.h --modules a.c,b.c,...
"""
import argparse
import os
import re
import sys

from c_source import blank_comments_and_strings

OWNED_STRUCT_RE = re.compile(
    r'/\*\s*owner:\s*([\w.]+)(?:(?!\*/).)*\*/\s*struct\s+(\w+)\s*\{', re.S)
MEMBER_RE = re.compile(r'^\s*struct\s+(\w+)\s+(\w+)\s*(?:\[[^\]]*\])?\s*;',
                       re.M)


def read_ownership(header_text):
    """{member name: owner file} for every member of an owned struct type,
    or raises ValueError when one name has two owners."""
    owner_of_struct = {name: owner for owner, name
                       in OWNED_STRUCT_RE.findall(header_text)}
    members = {}
    body = blank_comments_and_strings(header_text)
    for struct_type, member in MEMBER_RE.findall(body):
        owner = owner_of_struct.get(struct_type)
        if owner is None:
            continue
        if members.get(member, owner) != owner:
            raise ValueError(f'member {member} is owned by both '
                             f'{members[member]} and {owner}')
        members[member] = owner
    return owner_of_struct, members


def alternatives(names):
    return '|'.join(sorted(names, key=len, reverse=True))


def violations(path, name, structs, members):
    """(line, what, owner) for each access of another module's state."""
    with open(path, encoding='utf-8') as f:
        src = blank_comments_and_strings(f.read())
    member_re = re.compile(r'(?:->|\.)\s*(' + alternatives(members) + r')\b')
    type_re = re.compile(r'\bstruct\s+(' + alternatives(structs) + r')\b')
    found = []
    for number, line in enumerate(src.split('\n'), 1):
        for m in member_re.finditer(line):
            if members[m.group(1)] != name:
                found.append((number, m.group(1), members[m.group(1)]))
        for m in type_re.finditer(line):
            if structs[m.group(1)] != name:
                found.append((number, 'struct ' + m.group(1),
                              structs[m.group(1)]))
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('dir')
    ap.add_argument('--header', required=True,
                    help='the header of DIR that declares the owned structs')
    ap.add_argument('--modules', required=True,
                    help='module files (comma-separated): checked')
    args = ap.parse_args()

    with open(os.path.join(args.dir, args.header), encoding='utf-8') as f:
        try:
            structs, members = read_ownership(f.read())
        except ValueError as err:
            print(f'module_state: {args.header}: {err}')
            return 1
    if not members:
        print(f'module_state: {args.header} declares no owned state')
        return 1
    modules = sorted(m for m in args.modules.split(',') if m)
    bad = False
    for name in modules:
        path = os.path.join(args.dir, name)
        if not os.path.exists(path):
            print(f'module_state: {name}: no such file in {args.dir}')
            bad = True
            continue
        for number, what, owner in violations(path, name, structs, members):
            print(f'{name}:{number}: touches {what} (state of {owner})')
            bad = True
    if bad:
        return 1
    print(f'module_state: {len(modules)} modules of {args.dir} touch only '
          f'their own state ({len(structs)} owned structs)')
    return 0


if __name__ == '__main__':
    sys.exit(main())
