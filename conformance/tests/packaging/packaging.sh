#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# ibwire as its users consume it.  Args: MODE SOURCE_ROOT CC
#   subproject: parent/ (a project of its own) builds ibwire as a meson
#     subproject: only the dependency is configured (no tool, tests,
#     fuzzers or examples), and `meson install --destdir` installs the
#     parent's program and nothing of ibwire.
#   installed: ibwire installed on its own, used through its pkg-config file.
#   installed-lib: libibwire as this build installs it (BUILD_ROOT, the
#     fourth argument), used through `pkg-config ibwire-lib` alone.
set -eu
mode=$1
src=$(cd "$2" && pwd)
cc=$3
here=$src/conformance/tests/packaging
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
# Run a step quietly; show its log when it fails.
step() {
    log=$1; shift
    "$@" >"$work/$log" 2>&1 || { cat "$work/$log"; fail "$*"; }
}

case $mode in
subproject)
    p=$work/parent
    cp -R "$here/parent" "$p"
    cp "$here/use_ibwire.c" "$p/"
    mkdir -p "$p/subprojects"
    ln -s "$src" "$p/subprojects/ibwire"
    # forced: an ibwire installed on this machine must not stand in for it
    step setup.log env CC="$cc" meson setup "$p/b" "$p" --prefix=/usr \
        --force-fallback-for=ibwire
    step build.log ninja -C "$p/b"
    "$p/b/use_ibwire"
    if find "$p/b/subprojects" -name 'ibwire' -type f -perm -u+x | grep -q .; then
        fail "the ibwire tool was built inside a subproject"
    fi
    [ ! -d "$p/b/subprojects/ibwire/conformance" ] ||
        fail "conformance/ was configured inside a subproject"
    step install.log meson install -C "$p/b" --destdir "$work/root" --no-rebuild
    installed=$(cd "$work/root" && find . ! -type d | sort)
    [ "$installed" = "./usr/bin/use_ibwire" ] ||
        fail "the parent installed more than its program:
$installed"
    echo "packaging: subproject builds only the dependency, installs nothing of ibwire"
    ;;
installed)
    step isetup.log env CC="$cc" meson setup "$work/inst-build" "$src" --prefix=/usr
    # Headers and the .pc file carry the 'devel' install tag: no build needed.
    step install.log env DESTDIR="$work/root" meson install -C "$work/inst-build" \
        --tags devel --no-rebuild
    pc=$(find "$work/root" -name ibwire.pc | head -n1)
    [ -n "$pc" ] || fail "no ibwire.pc installed"
    [ -f "$work/root/usr/include/ibwire.h" ] || fail "ibwire.h not installed"
    [ -f "$work/root/usr/include/ibwire/packet.h" ] || fail "ibwire/packet.h not installed"
    cflags=$(PKG_CONFIG_SYSROOT_DIR="$work/root" PKG_CONFIG_PATH=$(dirname "$pc") \
        pkg-config --cflags ibwire)
    version=$(PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --modversion ibwire)
    # shellcheck disable=SC2086
    $cc -std=c11 -Wall -Wextra -Wpedantic -Werror $cflags "$here/use_ibwire.c" \
        -o "$work/use_installed"
    out=$("$work/use_installed")
    # the header compiled in is the version the .pc file announces
    case $out in
    "ibwire $version:"*) ;;
    *) fail "pkg-config says $version, the installed header: $out" ;;
    esac
    echo "packaging: installed headers and pkg-config consumer OK ($version)"
    ;;
installed-lib)
    step install.log meson install -C "$4" --destdir "$work/root" --no-rebuild
    pc=$(find "$work/root" -name ibwire-lib.pc | head -n1)
    [ -n "$pc" ] || fail "no ibwire-lib.pc installed"
    # the build's own prefix (/usr/local unless it was set)
    find "$work/root" -name ibwire_lib.h | grep -q . || fail "ibwire_lib.h not installed"
    flags=$(PKG_CONFIG_SYSROOT_DIR="$work/root" PKG_CONFIG_PATH=$(dirname "$pc") \
        pkg-config --cflags --libs ibwire-lib)
    version=$(PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --modversion ibwire-lib)
    # shellcheck disable=SC2086
    $cc -std=c11 -Wall -Wextra -Wpedantic -Werror "$here/use_ibwire_lib.c" \
        $flags -o "$work/use_lib"
    # the soname the ABI promises, beside the .pc file's folder
    libdir=$(dirname "$(dirname "$pc")")
    [ -e "$libdir/libibwire.so.1" ] || fail "no libibwire.so.1 in $libdir"
    out=$(env -u LD_PRELOAD LD_LIBRARY_PATH="$libdir" "$work/use_lib") ||
        fail "use_ibwire_lib failed: $out"
    [ "$out" = "libibwire $version abi 1: psn 0x000102 destqp 0x000011 icrc good" ] ||
        fail "unexpected: $out"
    echo "packaging: installed libibwire through pkg-config ibwire-lib OK ($out)"
    ;;
*)
    fail "unknown mode $mode"
    ;;
esac
