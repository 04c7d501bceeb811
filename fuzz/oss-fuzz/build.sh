#!/bin/bash -eu
# SPDX-License-Identifier: Apache-2.0
# Build the ibwire fuzzers for OSS-Fuzz and ClusterFuzzLite.
#
# The harnesses are built by the project's own meson files, as every other
# build is: fuzz/meson.build's fuzz_harnesses says what each one links, so
# there is no second list of sources here to fall behind the tree.  meson
# takes $CC $CFLAGS $CXX $CXXFLAGS from the environment (CFLAGS also at link
# time) and $LIB_FUZZING_ENGINE as -Dfuzzer_ldflags.  For every
# fuzz/NAME_fuzzer.c it writes $OUT/NAME_fuzzer,
# NAME_fuzzer_seed_corpus.zip (fuzz/corpus/NAME, fuzz/regressions/NAME and
# frames cut from the repository's pcaps/), NAME_fuzzer.dict and
# NAME_fuzzer.options.  A harness file that fuzz/meson.build does not build
# is an error, not a silent omission.
#
# Needs meson (>= 0.63) and ninja (the Dockerfiles install them with pip),
# python3, pkg-config, zip, and libpcap: built from $SRC/libpcap with the
# sanitizer's own flags when the Dockerfile fetched it (MSan needs every
# library instrumented), else the system's (not for SANITIZER=memory, and
# meson needs libpcap to configure at all).  Intermediate
# files go to a fresh directory under $WORK (OSS-Fuzz's scratch space; /tmp
# when unset), removed at exit.
#
# Local emulation: fuzz/oss-fuzz/local.sh (clang, ASan, libFuzzer) runs this
# script as OSS-Fuzz would and then every fuzzer over its seed zip once; it is
# the meson test oss_fuzz_build (suite fuzz) of a build without sanitizers.
# -eu also when run as `bash build.sh` (which ignores the #! line's flags)
set -eu
IBW="$SRC/ibwire"
cd "$IBW"

SCRATCH=$(mktemp -d "${WORK:-/tmp}/ibwire-oss-fuzz.XXXXXX")
trap 'rm -rf "$SCRATCH"' EXIT
BUILD="$SCRATCH/build"

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
    # meson finds libpcap through pkg-config: a .pc file for the static
    # library just built (only libpcap.a is in its lib/, so -lpcap is it)
    mkdir -p "$SCRATCH/pkgconfig"
    cat >"$SCRATCH/pkgconfig/libpcap.pc" <<PC
Name: libpcap
Description: libpcap built with the fuzzing sanitizer's flags
Version: 1.10.4
Cflags: -I$PCAP_PREFIX/include
Libs: -L$PCAP_PREFIX/lib -lpcap
PC
    export PKG_CONFIG_PATH="$SCRATCH/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
elif [ "${SANITIZER:-}" = "memory" ]; then
    echo "build.sh: MSan needs libpcap built with its flags: clone it into" \
         "\$SRC/libpcap (see Dockerfile)" >&2
    exit 1
fi

# plain: only OSS-Fuzz's CFLAGS choose optimisation and debug info;
# b_lundef=false: the sanitizer runtimes are linked into executables only.
# tshark and Verilator are for tests and the RTL engine, not the harnesses.
meson setup "$BUILD" --buildtype=plain -Ddefault_library=static \
    -Db_lundef=false -Dtshark_tests=disabled -Dengine_rtl=disabled \
    -Dfuzzer_ldflags="$LIB_FUZZING_ENGINE" >"$SCRATCH/setup.log" 2>&1 ||
    { tail -n 40 "$SCRATCH/setup.log" >&2; exit 1; }

# The harnesses are the fuzz/*_fuzzer.c files; meson says where it writes
# each one's executable.
names=$(for f in fuzz/*_fuzzer.c; do basename "$f" .c; done)
# shellcheck disable=SC2086
targets=$(meson introspect --targets "$BUILD" | python3 -c '
import json, sys
wanted = sys.argv[1:]
built = {t["name"]: t["filename"][0] for t in json.load(sys.stdin)
         if t["type"] == "executable" and t["subproject"] is None
         and t["defined_in"].endswith("fuzz/meson.build")}
missing = [n for n in wanted if n not in built]
if missing:
    sys.exit("build.sh: fuzz/meson.build builds no " + ", ".join(missing) +
             ": add it to fuzz_harnesses")
for n in wanted:
    print(n, built[n])' $names)

# shellcheck disable=SC2046
meson compile -C "$BUILD" $(for n in $names; do echo "fuzz/$n"; done) \
    >"$SCRATCH/compile.log" 2>&1 ||
    { tail -n 40 "$SCRATCH/compile.log" >&2; exit 1; }

SEEDS="$SCRATCH/seeds"
python3 fuzz/pcap_seeds.py "$SEEDS" pcaps >/dev/null

echo "$targets" | while read -r fuzzer exe; do
    name=${fuzzer%_fuzzer}
    cp "$exe" "$OUT/$fuzzer"
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
