#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Headless Chromium opens the report of a bundled lossy capture.

The page must load without a console message of level warning or error
(Chromium logs them as CONSOLE lines with --enable-logging=stderr), its DOM
must hold the flow's chart, and the screenshot must be a real PNG of the
asked size with more than a blank page in it.  Exit 77 (skipped) when no
Chromium is installed.

usage: test_report_chromium.py IBWIRE PCAPS_DIR WORKDIR
"""
import os
import re
import shutil
import struct
import subprocess
import sys
import zlib

WIDTH, HEIGHT = 1100, 1250


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def browse(exe, work, extra, url):
    cmd = [exe, "--headless", "--disable-gpu", "--no-first-run",
           "--user-data-dir=" + os.path.join(work, "profile"),
           "--enable-logging=stderr", "--v=0"] + extra + [url]
    if os.geteuid() == 0:
        cmd.insert(1, "--no-sandbox")
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, HOME=work))


def png_info(path):
    """(width, height, distinct bytes in the pixel data) of a PNG."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, size = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            size = struct.unpack(">II", body[:8])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    return size[0], size[1], len(set(zlib.decompress(idat)))


def main():
    ibwire, pcaps, work = sys.argv[1:4]
    exe = chromium()
    if not exe:
        print("no chromium: skipped")
        return 77
    os.makedirs(work, exist_ok=True)
    page = os.path.join(work, "lossy.html")
    shot = os.path.join(work, "lossy.png")
    if os.path.exists(shot):
        os.remove(shot)
    r = subprocess.run([ibwire, "check", "--report", page,
                        os.path.join(pcaps, "crafted-loss-clean.pcap")],
                       capture_output=True, text=True, timeout=60)
    if r.returncode not in (0, 1):
        print("check --report failed:", r.stderr)
        return 1
    url = "file://" + os.path.abspath(page)
    dom = browse(exe, work, ["--dump-dom"], url)
    shot_run = browse(exe, work, ["--screenshot=" + shot,
                                  "--window-size=%d,%d" % (WIDTH, HEIGHT),
                                  "--hide-scrollbars"], url)
    bad = 0
    console = [ln for run in (dom, shot_run) for ln in run.stderr.splitlines()
               if "CONSOLE" in ln or "Uncaught" in ln]
    for ln in console:
        print("console:", ln)
        bad = 1
    if 'class="chart"' not in dom.stdout or "data-kind=\"nak\"" not in dom.stdout:
        print("the DOM Chromium built has no chart with a NAK marker")
        bad = 1
    if not os.path.exists(shot):
        print("no screenshot; chromium said:", shot_run.stderr[-2000:])
        return 1
    w, h, distinct = png_info(shot)
    print("screenshot %dx%d, %d bytes, %d distinct pixel-data bytes" %
          (w, h, os.path.getsize(shot), distinct))
    if (w, h) != (WIDTH, HEIGHT):
        print("screenshot size differs from the window's")
        bad = 1
    if os.path.getsize(shot) < 20000 or distinct < 32:
        print("the screenshot is (nearly) blank")
        bad = 1
    return bad


if __name__ == "__main__":
    sys.exit(main())
