#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Lint the git-tracked files of the tree.

  lint_sources.py ROOT [FILE...]

Two rules:
- every source file (C, headers, Python, shell, meson files, CI and fuzzing
  build files, anything with a shebang) names its licence with an SPDX line
  near its top;
- no text file cites a design document by the number it had in the folder
  the project started from: a reader cannot follow such a citation.
  docs/sources.md lists the documents and the citation forms to use.

Without FILE arguments the files are `git ls-files` of ROOT; exit 77 (a
skipped test) when ROOT is not a git checkout.  Captures and fuzzing corpora
are data, not text, and are not read.
"""
import os
import re
import subprocess
import sys

SPDX = "SPDX-License-Identifier: Apache-2.0"
SPDX_LINES = 5          # the licence line sits in the first comment

DATA_DIRS = ("pcaps/", "fuzz/corpus/", "fuzz/regressions/")
HASH_NAMES = {"meson.build", "meson_options.txt", "Dockerfile"}
SOURCE_EXTS = (".c", ".h", ".py", ".sh", ".yml", ".yaml")
BUILD_DIRS = (".github/workflows/", ".ci/", ".clusterfuzzlite/",
              "fuzz/oss-fuzz/")

# Citations by the old folder numbers: "[s]eed 000 T7.1", a number split
# across a comment line break, "[s]eeds 000/001", "[s]eed000", the thesis's
# bare "[s]eed T3-4", and paths into that folder.  The brackets keep this
# file from matching itself.
NUMBER_CITES = [
    re.compile(r"\b[Ss]eeds?[ \t]*(?:\n[ \t]*(?:\*|#|//)?[ \t]*)?0\d\d\b"),
    re.compile(r"\b[Ss]eed0\d"),
    re.compile(r"\b[Ss]eeds?[ \t]+T\d+[-.]\d+"),
    re.compile(r"shared/[s]eeds\b"),
    re.compile(r"\b[s]eeds/(?:0\d\d|INDEX)"),
    re.compile(r"\b[Ss]eed (?:document|table|text)s?\b"),
]


def is_source(path, head):
    base = os.path.basename(path)
    if base in HASH_NAMES or path.endswith(SOURCE_EXTS):
        return True
    if path.startswith(BUILD_DIRS) and not path.endswith(
            (".md", ".txt", ".options", ".dict")):
        return True
    return head.startswith("#!")


def tracked(root):
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z"],
                             check=True, capture_output=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    return [f for f in out.decode().split("\0") if f]


def read_text(path):
    with open(path, "rb") as f:
        raw = f.read()
    if b"\0" in raw:
        return None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return None


def lint(root, files):
    problems = []
    for rel in files:
        if rel.startswith(DATA_DIRS):
            continue
        path = os.path.join(root, rel)
        if not os.path.isfile(path) or os.path.islink(path):
            continue
        text = read_text(path)
        if text is None:
            continue
        head = "\n".join(text.split("\n")[:SPDX_LINES])
        if is_source(rel, text[:2]) and SPDX not in head:
            problems.append("%s: no '%s' in its first %d lines"
                            % (rel, SPDX, SPDX_LINES))
        for pattern in NUMBER_CITES:
            for m in pattern.finditer(text):
                line = text.count("\n", 0, m.start()) + 1
                problems.append("%s:%d: cites a document by number (%r); "
                                "cite it by title and section "
                                "(docs/sources.md)"
                                % (rel, line, m.group(0)))
    return problems


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    root = argv[1]
    files = argv[2:] or tracked(root)
    if files is None:
        print("lint_sources: %s is not a git checkout; skipped" % root)
        return 77
    problems = lint(root, files)
    for p in problems:
        print(p)
    print("lint_sources: %d files, %d problems" % (len(files), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
