#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`pip install ./python` works offline, and what it installs works.

usage: pip_install.py PYTHON_DIR WORKDIR

In a fresh venv (which also keeps Debian's EXTERNALLY-MANAGED pip out of
it) under WORKDIR, with --no-index so that nothing can come from PyPI:
  1. pip install PYTHON_DIR: the wheel of the in-tree backend installs;
     imported from elsewhere, ibwire comes from the venv, loads the
     library of IBWIRE_LIBRARY and packs a record;  pip uninstall removes
     every file (its RECORD is right);
  2. the sdist the backend writes installs the same way;
  3. pip install -e PYTHON_DIR: the editable install imports the sources.
Exit 0 when all hold, 1 otherwise.
"""
import os
import shutil
import subprocess
import sys
import tempfile

# E7 timer_entry with active=1 and current_value=0x80: bits [6] and
# [22:15] of the shared records catalog, 1 << 6 | 0x80 << 15.
PROBE = r"""
import os, sys, ibwire
print(os.path.dirname(ibwire.__file__))
assert ibwire.records.pack("timer_entry", active=1, current_value=0x80) \
    == 0x400040, "record"
assert ibwire.library_path == os.environ["IBWIRE_LIBRARY"]
"""


def run(*cmd, cwd=None):
    p = subprocess.run(list(cmd), cwd=cwd, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, check=False)
    return p.returncode, p.stdout


def main():
    pydir, work = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    venv = os.path.join(work, "venv")
    rc, out = run(sys.executable, "-m", "venv", "--system-site-packages",
                  venv)
    if rc != 0:
        print("venv failed:\n" + out)
        return 1
    py = os.path.join(venv, "bin", "python")
    pip = [py, "-m", "pip", "--disable-pip-version-check", "--no-input"]
    failures = []

    def check(ok, what, detail=""):
        print(("ok   " if ok else "FAIL ") + what)
        if not ok:
            print(detail)
            failures.append(what)

    def installed_from(expected_prefix, what):
        rc, out = run(py, "-c", PROBE, cwd=work)
        where = out.strip().splitlines()[-1] if out.strip() else ""
        check(rc == 0 and where.startswith(expected_prefix),
              what + " imports from " + expected_prefix, out)

    site = os.path.join(venv, "lib")
    rc, out = run(*pip, "install", "--no-index", "--no-cache-dir", pydir)
    check(rc == 0, "pip install --no-index " + pydir, out)
    installed_from(site, "the wheel")
    rc, out = run(*pip, "show", "-f", "ibwire")
    check(rc == 0 and "ibwire/packet.py" in out, "pip show lists the files",
          out)
    rc, out = run(*pip, "uninstall", "-y", "ibwire")
    check(rc == 0, "pip uninstall", out)
    rc, out = run(py, "-c", "import ibwire", cwd=work)
    check(rc != 0, "nothing is left after uninstalling", out)

    # The sdist: built by the backend's own hook, installed by pip.
    sys.path.insert(0, pydir)
    import ibwire_build
    dist = tempfile.mkdtemp(dir=work)
    sdist = os.path.join(dist, ibwire_build.build_sdist(dist))
    rc, out = run(*pip, "install", "--no-index", "--no-cache-dir", sdist)
    check(rc == 0, "pip install the sdist", out)
    installed_from(site, "the sdist's wheel")
    run(*pip, "uninstall", "-y", "ibwire")

    rc, out = run(*pip, "install", "--no-index", "--no-cache-dir", "-e",
                  pydir)
    check(rc == 0, "pip install -e", out)
    installed_from(os.path.join(pydir, "ibwire"), "the editable install")
    run(*pip, "uninstall", "-y", "ibwire")

    print("%d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
