# SPDX-License-Identifier: Apache-2.0
"""The failure count the Python suites share: check() prints each failed
expectation and counts it, so a suite runs every check before it exits
with status 1 when any failed."""

fails = 0


def check(cond, what):
    global fails
    if not cond:
        fails += 1
        print("FAIL:", what)


def status():
    """The suite's exit status: 1 when a check failed."""
    return 1 if fails else 0
