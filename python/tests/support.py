# SPDX-License-Identifier: Apache-2.0
"""What the Python tests share: where things are, and running tshark.

The meson test sets, in the environment:
  IBWIRE_LIBRARY        the build's libibwire.so (read by the package)
  IBWIRE_TOOL           the build's `ibwire` program
  IBWIRE_TSHARK         tshark's path, or "" when it is not installed
  IBWIRE_PCAPS          the bundled captures (pcaps/)
  IBWIRE_CAPTURES       the real third-party captures (may be absent)
  IBWIRE_SOURCE_ROOT    the source tree, for the conformance test helpers
"""
import glob
import os
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_ROOT = os.environ.get("IBWIRE_SOURCE_ROOT",
                             os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(HERE, ".."))
# The dump tests' tshark machinery (its quieting flags and key field list).
sys.path.insert(0, os.path.join(SOURCE_ROOT, "conformance", "tests", "dump"))

import ibwire  # noqa: E402

TOOL = os.environ.get("IBWIRE_TOOL", "")
TSHARK = os.environ.get("IBWIRE_TSHARK", "")
PCAPS = os.environ.get("IBWIRE_PCAPS", os.path.join(SOURCE_ROOT, "pcaps"))
CAPTURES = os.environ.get("IBWIRE_CAPTURES",
                          os.path.join(SOURCE_ROOT, "..", "shared",
                                       "captures"))

needs_tshark = unittest.skipUnless(TSHARK and os.access(TSHARK, os.X_OK),
                                   "tshark not installed")
needs_tool = unittest.skipUnless(TOOL and os.access(TOOL, os.X_OK),
                                 "IBWIRE_TOOL not set")


def program_env():
    """The environment for the programs the tests run (the ibwire tool,
    tshark): without the sanitizer runtime a sanitized build preloads into
    this interpreter for libibwire, which a program linked with its own
    runtime refuses."""
    env = dict(os.environ)
    env.pop("LD_PRELOAD", None)
    return env


def bundled_captures():
    return sorted(glob.glob(os.path.join(PCAPS, "*.pcap")))


def real_captures():
    """The third-party captures, [] when the folder is absent."""
    return sorted(glob.glob(os.path.join(CAPTURES, "*.pcap")))


def frames(path):
    return list(ibwire.read_capture(path))


def tshark_fields(path, fields, extra=()):
    """tshark -T fields on `path`: one list of column strings per frame."""
    import tshark_diff
    cmd = [TSHARK, "-n", "-r", path] + tshark_diff.TSHARK_QUIET + \
        list(extra) + ["-T", "fields"]
    for f in fields:
        cmd += ["-e", f]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=program_env(), check=False)
    if p.returncode != 0:
        raise RuntimeError("%s: tshark exited %d: %s" % (
            path, p.returncode, p.stderr.decode("utf-8", "replace")))
    return [line.split("\t") for line in
            p.stdout.decode("utf-8", "replace").splitlines()]
