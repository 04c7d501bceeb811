#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Local emulation of an OSS-Fuzz / ClusterFuzzLite build: runs
# fuzz/oss-fuzz/build.sh with OSS-Fuzz's ASan + libFuzzer flags and clang,
# then checks that every fuzz/NAME_fuzzer.c came out as $OUT/NAME_fuzzer
# and that each one runs over its seed zip once (-runs=0), the way
# OSS-Fuzz's check_build does.  A source list or harness that the build
# lost fails here, not first on OSS-Fuzz.
#
#   fuzz/oss-fuzz/local.sh [OUT]     OUT kept when given, else a temp dir
#
# Exit 77 (meson: skip) when clang or its libFuzzer is not installed.
set -eu
cd "$(dirname "$0")/../.."
CC=${OSS_FUZZ_CC:-clang}
CXX=${OSS_FUZZ_CXX:-clang++}
command -v "$CC" >/dev/null 2>&1 || { echo "local.sh: no $CC" >&2; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n)
{ (void)d; (void)n; return 0; }' >"$tmp/probe.c"
"$CC" -fsanitize=address,fuzzer "$tmp/probe.c" -o "$tmp/probe" 2>/dev/null ||
    { echo "local.sh: $CC cannot link -fsanitize=fuzzer" >&2; exit 77; }

mkdir -p "$tmp/src"
ln -s "$PWD" "$tmp/src/ibwire"
OUT=${1:-$tmp/out}
mkdir -p "$OUT"
# OSS-Fuzz's flags for SANITIZER=address, FUZZING_ENGINE=libfuzzer
SRC="$tmp/src" OUT="$OUT" WORK="$tmp" CC="$CC" CXX="$CXX" \
CFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only \
-DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION -fsanitize=address \
-fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link" \
CXXFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only \
-DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION -fsanitize=address \
-fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link" \
LIB_FUZZING_ENGINE=-fsanitize=fuzzer SANITIZER=address \
    bash fuzz/oss-fuzz/build.sh

failed=0
export ASAN_OPTIONS=detect_leaks=1
for src in fuzz/*_fuzzer.c; do
    fuzzer=$(basename "$src" .c)
    if [ ! -x "$OUT/$fuzzer" ]; then
        echo "local.sh: $fuzzer: build.sh wrote no $OUT/$fuzzer" >&2
        failed=1
        continue
    fi
    seeds="$tmp/seeds/$fuzzer"
    mkdir -p "$seeds"
    if [ -f "$OUT/${fuzzer}_seed_corpus.zip" ]; then
        unzip -q -o "$OUT/${fuzzer}_seed_corpus.zip" -d "$seeds"
    fi
    n=$(find "$seeds" -type f | wc -l)
    if "$OUT/$fuzzer" -runs=0 -error_exitcode=1 "$seeds" \
            >"$tmp/$fuzzer.log" 2>&1; then
        echo "local.sh: $fuzzer: built, ran its $n seed inputs"
    else
        echo "local.sh: $fuzzer: failed on its $n seed inputs" >&2
        tail -n 30 "$tmp/$fuzzer.log" >&2
        failed=1
    fi
done
exit "$failed"
