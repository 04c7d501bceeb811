#!/bin/bash -eu
# SPDX-License-Identifier: Apache-2.0
# Build the ibwire fuzzers for OSS-Fuzz and ClusterFuzzLite.
#
# Uses only $CC $CFLAGS $LIB_FUZZING_ENGINE $OUT $SRC (and $SANITIZER, to
# leave the libpcap-based capture harness out of an MSan build when libpcap
# was not built from source with the same flags).  For every fuzz/NAME_fuzzer.c
# it writes $OUT/NAME_fuzzer, NAME_fuzzer_seed_corpus.zip (fuzz/corpus/NAME,
# fuzz/regressions/NAME and frames cut from the repository's pcaps/),
# NAME_fuzzer.dict and NAME_fuzzer.options.
#
# Local emulation (what scripts and the report use):
#   SRC=$(mktemp -d) && ln -s "$PWD" "$SRC/ibwire" && OUT=$(mktemp -d) \
#   CC=clang CFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only \
#     -fsanitize=address -fsanitize-address-use-after-scope \
#     -fsanitize=fuzzer-no-link" LIB_FUZZING_ENGINE=-fsanitize=fuzzer \
#   fuzz/oss-fuzz/build.sh
IBW="$SRC/ibwire"
cd "$IBW"

BASE_FLAGS="-std=c11 -D_DEFAULT_SOURCE -I$IBW/include -I$IBW/fuzz"

# libpcap for the harnesses of the capture reader and libibwire: built from $SRC/libpcap
# with the sanitizer's own flags when the Dockerfile fetched it (needed for
# MSan), else the system's.
PCAP_CFLAGS=""
PCAP_LIBS=""
have_pcap=0
if [ -d "$SRC/libpcap" ]; then
    PCAP_PREFIX="$SRC/libpcap-install"
    if [ ! -f "$PCAP_PREFIX/lib/libpcap.a" ]; then
        mkdir -p "$SRC/libpcap/build-fuzz"
        (cd "$SRC/libpcap/build-fuzz" &&
         CC="$CC" CFLAGS="$CFLAGS" cmake .. -DCMAKE_INSTALL_PREFIX="$PCAP_PREFIX" \
             -DBUILD_SHARED_LIBS=OFF -DDISABLE_DBUS=ON -DDISABLE_RDMA=ON \
             -DDISABLE_BLUETOOTH=ON -DDISABLE_USB=ON -DDISABLE_NETMAP=ON \
             -DDISABLE_DPDK=ON -DDISABLE_LINUX_USBMON=ON -DENABLE_REMOTE=OFF \
             -DPCAP_TYPE=null -DBUILD_WITH_LIBNL=OFF >/dev/null &&
         make -j"$(nproc)" pcap_static >/dev/null &&
         mkdir -p "$PCAP_PREFIX/lib" "$PCAP_PREFIX/include" &&
         cp libpcap.a "$PCAP_PREFIX/lib/" &&
         cp -r ../pcap ../pcap.h "$PCAP_PREFIX/include/")
    fi
    PCAP_CFLAGS="-I$PCAP_PREFIX/include"
    PCAP_LIBS="$PCAP_PREFIX/lib/libpcap.a"
    have_pcap=1
elif [ "${SANITIZER:-}" != "memory" ]; then
    PCAP_LIBS="-lpcap"
    have_pcap=1
fi

# Per harness: extra compile flags, extra sources, extra libraries (the
# harnesses not named here need only include/).
cflags_for() {
    case "$1" in
    capture) echo "-I$IBW/conformance/capture $PCAP_CFLAGS" ;;
    check) echo "-I$IBW/conformance/check -I$IBW/conformance/capture" ;;
    engine) echo "-I$IBW/conformance/engine" ;;
    probe_episode) echo "-I$IBW/conformance/probe -I$IBW/conformance/engine" \
                        "-I$IBW/conformance/check -I$IBW/conformance/capture" ;;
    lib) echo "-I$IBW/lib -I$IBW/conformance/fields -I$IBW/conformance/check" \
              "-I$IBW/conformance/capture $PCAP_CFLAGS -DIBWIRE_LIB_VERSION=\"fuzz\"" ;;
    esac
}
sources_for() {
    case "$1" in
    capture) echo "conformance/capture/capture_read.c conformance/capture/capture_write.c" ;;
    check) echo "conformance/check/rules.c conformance/check/check.c" \
                "conformance/check/check_pkt.c conformance/check/check_flow.c" \
                "conformance/check/check_cm.c conformance/check/check_expire.c" \
                "conformance/check/check_table.c conformance/check/check_report.c" \
                "conformance/check/check_addr.c" ;;
    engine) echo conformance/engine/*.c ;;
    # the probe's runner, self target and fuzzer; the engine; the checker
    probe_episode) echo conformance/probe/tests.c conformance/probe/runner.c \
                        conformance/probe/craft.c conformance/probe/engdev.c \
                        conformance/probe/target_self.c conformance/probe/fuzz*.c \
                        conformance/engine/*.c conformance/check/rules.c \
                        conformance/check/check*.c conformance/check/replay.c \
                        conformance/capture/*.c ;;
    # libibwire whole: its own files and the libraries it links
    lib) echo lib/*.c conformance/fields/*.c conformance/capture/*.c \
              conformance/check/rules.c conformance/check/check*.c ;;
    esac
}
libs_for() {
    case "$1" in
    capture) echo "$PCAP_LIBS" ;;
    lib|probe_episode) echo "$PCAP_LIBS -lpthread" ;;
    esac
}

SEEDS=$(mktemp -d)
trap 'rm -rf "$SEEDS"' EXIT
python3 fuzz/pcap_seeds.py "$SEEDS" pcaps >/dev/null

for src in fuzz/*_fuzzer.c; do
    fuzzer=$(basename "$src" .c)
    name=${fuzzer%_fuzzer}
    if { [ "$name" = capture ] || [ "$name" = lib ] || [ "$name" = probe_episode ]; } &&
        [ "$have_pcap" = 0 ]; then
        echo "build.sh: skipping $fuzzer (no libpcap built with $SANITIZER)" >&2
        continue
    fi
    # shellcheck disable=SC2046,SC2086
    $CC $CFLAGS $BASE_FLAGS $(cflags_for "$name") "$src" $(sources_for "$name") \
        $LIB_FUZZING_ENGINE $(libs_for "$name") -o "$OUT/$fuzzer"
    rm -f "$OUT/${fuzzer}_seed_corpus.zip"
    seed_dirs=""
    for d in "fuzz/corpus/$name" "fuzz/regressions/$name" "$SEEDS/$name"; do
        [ -d "$d" ] && seed_dirs="$seed_dirs $d"
    done
    if [ -n "$seed_dirs" ]; then
        # shellcheck disable=SC2086
        find $seed_dirs -type f ! -name '.*' -print |
            zip -q -j "$OUT/${fuzzer}_seed_corpus.zip" -@ || true
    fi
    for ext in dict options; do
        if [ -f "fuzz/$fuzzer.$ext" ]; then
            cp "fuzz/$fuzzer.$ext" "$OUT/"
        fi
    done
done
