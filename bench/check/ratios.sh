#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The whole speed table of `ibwire check` in one command (docs/performance.md):
#   bench/check/ratios.sh BUILD_DIR [RUNS]
# BUILD_DIR a release build (meson setup BUILD_DIR --buildtype=release).
# bench_check times, in the same runs on one 1,000,000-frame RoCEv2 file, a
# bare libpcap read loop, the checker in process, and as processes
# `ibwire check`, `check -j 2`, `check --replay` and tshark; bench_flows the
# per-frame rate of 200,000 short connections against one long flow.
# Medians of RUNS (default 5) runs; the figures are printed, and only a
# crash or wrong counts fail it.  BENCH_REPLAY=0 leaves `check --replay`
# out (on the 1M-frame file it takes minutes a run: docs/performance.md).
set -eu
build=${1:?usage: ratios.sh BUILD_DIR [RUNS]}
runs=${2:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "load: $(cat /proc/loadavg)  cores: $(nproc)"
"$build/bench/check/bench_check" "$tmp/bench_check.pcap" --runs "$runs" \
    --jobs 2 --replay "${BENCH_REPLAY:-1}" --tool "$build/conformance/tool/ibwire"
"$build/bench/check/bench_flows" "$tmp" --connections 200000 --runs "$runs"
echo "load after: $(cat /proc/loadavg)"
