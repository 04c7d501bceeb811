#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Bounded libFuzzer run of every harness in fuzz/ (clang, ASan+UBSan), for CI
# and for the longer proof runs.
#
#   scripts/fuzz.sh                 every harness, FUZZ_SECONDS (30) each
#   FUZZ_SECONDS=600 FUZZ_ONLY="wire packet" scripts/fuzz.sh
#   FUZZ_BIN=/path/to/out scripts/fuzz.sh   run harnesses built elsewhere
#                                   (e.g. by fuzz/oss-fuzz/build.sh)
#
# Builds in build/fuzz (FUZZ_BUILD), runs harnesses one after another with
# -error_exitcode=1 -timeout=10 -rss_limit_mb=2048 plus the harness's .dict
# and .options.  New corpus entries accumulate in build/fuzz/run/NAME/corpus;
# fuzz/corpus/NAME, fuzz/regressions/NAME and the frames cut from pcaps/ and
# the real captures (-Dcaptures_dir, default ../shared/captures;
# build/fuzz/seeds/NAME) are only read.  A crash, leak,
# timeout or out-of-memory input is copied to fuzz/regressions/NAME/ (so it
# becomes a replay test once committed) and the script exits 1 after the
# other harnesses have run.  One summary line per harness: exec/s, coverage
# (cov: edges, ft: features), corpus size; and one meson-style JSON result
# line per harness in build/fuzz/fuzzlog.json, which scripts/test.sh tallies.
set -eu
cd "$(dirname "$0")/.."
BUILD=${FUZZ_BUILD:-build/fuzz}
SECS=${FUZZ_SECONDS:-30}

names=${FUZZ_ONLY:-$(for f in fuzz/*_fuzzer.c; do basename "$f" _fuzzer.c; done)}

mkdir -p "$BUILD"
LOG="$BUILD/fuzzlog.json"
: >"$LOG"
if [ -z "${FUZZ_BIN:-}" ]; then
    if [ ! -f "$BUILD/build.ninja" ]; then
        CC=clang CXX=clang++ meson setup "$BUILD" --werror \
            -Db_sanitize=address,undefined -Db_lundef=false \
            -Dfuzzer_ldflags=-fsanitize=fuzzer >"$BUILD/setup.log" 2>&1 ||
            { tail -n 30 "$BUILD/setup.log" >&2; exit 1; }
    fi
    targets=""
    for n in $names; do targets="$targets fuzz/${n}_fuzzer"; done
    # shellcheck disable=SC2086
    meson compile -C "$BUILD" $targets >"$BUILD/compile.log" 2>&1 ||
        { tail -n 30 "$BUILD/compile.log" >&2; exit 1; }
fi
BIN=${FUZZ_BIN:-$BUILD/fuzz}
# the real captures where the build's -Dcaptures_dir says (empty, or no
# meson build: ../shared/captures, as meson.build)
captures=$(meson introspect --buildoptions "$BUILD" 2>/dev/null | python3 -c '
import json, sys
try:
    print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "captures_dir"))
except Exception:
    pass' || true)
python3 fuzz/pcap_seeds.py "$BUILD/seeds" pcaps "${captures:-../shared/captures}" >/dev/null

# "key = value" lines of the [libfuzzer] section -> -key=value
options_of() {
    [ -f "$1" ] || return 0
    sed -n '/^\[libfuzzer\]/,/^\[/{s/^[[:space:]]*\([a-z_]*\)[[:space:]]*=[[:space:]]*\(.*[^[:space:]]\)[[:space:]]*$/-\1=\2/p}' "$1"
}

failed=""
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export ASAN_OPTIONS=detect_leaks=1
for n in $names; do
    run="$BUILD/run/$n"
    mkdir -p "$run/corpus" "$run/artifacts"
    rm -f "$run/artifacts/"*
    dict=""
    [ -f "fuzz/${n}_fuzzer.dict" ] && dict="-dict=fuzz/${n}_fuzzer.dict"
    mkdir -p "fuzz/regressions/$n"
    rc=0
    seeds=""
    [ -d "$BUILD/seeds/$n" ] && seeds="$BUILD/seeds/$n"
    # shellcheck disable=SC2046,SC2086
    "$BIN/${n}_fuzzer" -max_total_time="$SECS" -error_exitcode=1 \
        -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$run/artifacts/" $dict \
        $(options_of "fuzz/${n}_fuzzer.options") \
        "$run/corpus" "fuzz/corpus/$n" "fuzz/regressions/$n" $seeds \
        >"$run/log" 2>&1 || rc=$?
    execs=$(sed -n 's/^stat::average_exec_per_sec:[[:space:]]*//p' "$run/log")
    cov=$(grep -E '^#[0-9]+' "$run/log" | tail -n 1 |
          sed -n 's/.*\(cov: [0-9]* ft: [0-9]*\).*/\1/p')
    units=$(find "$run/corpus" -type f | wc -l)
    echo "fuzz.sh: $n: ${SECS}s, ${execs:-?} exec/s, ${cov:-cov: ?}, corpus +$units, exit $rc"
    result=OK
    [ "$rc" -eq 0 ] || result=FAIL
    echo "{\"name\": \"fuzz $n (${SECS}s libFuzzer)\", \"result\": \"$result\"}" >>"$LOG"
    if [ "$rc" -ne 0 ]; then
        tail -n 40 "$run/log" >&2
        for a in "$run/artifacts/"*; do
            [ -f "$a" ] || continue
            cp "$a" "fuzz/regressions/$n/"
            echo "fuzz.sh: $n: saved fuzz/regressions/$n/$(basename "$a")" >&2
        done
        failed="$failed $n"
    fi
done
if [ -n "$failed" ]; then
    echo "fuzz.sh: FAILED:$failed (log: $BUILD/run/NAME/log)" >&2
    exit 1
fi
