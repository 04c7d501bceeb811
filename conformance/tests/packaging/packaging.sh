#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# ibwire as its users consume it: (1) as a meson subproject, where only the
# dependency is built (no tool, tests, fuzzers or examples), and (2) installed,
# through its pkg-config file.  Args: SOURCE_ROOT CC
set -eu
src=$(cd "$1" && pwd)
cc=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# (1) subproject
mkdir -p "$work/consumer/subprojects"
ln -s "$src" "$work/consumer/subprojects/ibwire"
cp "$src/conformance/tests/packaging/use_ibwire.c" "$work/consumer/"
cat > "$work/consumer/meson.build" <<'MESON'
project('consumer', 'c', default_options : ['c_std=c11', 'warning_level=3', 'werror=true'])
ibwire = dependency('ibwire', fallback : ['ibwire', 'ibwire_dep'])
test('use', executable('use_ibwire', 'use_ibwire.c', dependencies : ibwire))
MESON
(cd "$work/consumer" && CC=$cc meson setup b >"$work/setup.log" 2>&1) || { cat "$work/setup.log"; exit 1; }
ninja -C "$work/consumer/b" >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
"$work/consumer/b/use_ibwire"
if find "$work/consumer/b/subprojects" -name 'ibwire' -type f -perm -u+x | grep -q .; then
    echo "FAIL: the ibwire tool was built inside a subproject" >&2
    exit 1
fi
if [ -d "$work/consumer/b/subprojects/ibwire/conformance" ]; then
    echo "FAIL: conformance/ was configured inside a subproject" >&2
    exit 1
fi

# (2) installed, used through pkg-config
(cd "$src" && CC=$cc meson setup "$work/inst-build" --prefix=/usr >"$work/isetup.log" 2>&1) || { cat "$work/isetup.log"; exit 1; }
# Headers and the .pc file carry the 'devel' install tag: no build needed.
DESTDIR="$work/root" meson install -C "$work/inst-build" --tags devel --no-rebuild \
    >"$work/install.log" 2>&1 || { cat "$work/install.log"; exit 1; }
pc=$(find "$work/root" -name ibwire.pc | head -n1)
[ -n "$pc" ] || { echo "FAIL: no ibwire.pc installed" >&2; exit 1; }
[ -f "$work/root/usr/include/ibwire.h" ] || { echo "FAIL: ibwire.h not installed" >&2; exit 1; }
[ -f "$work/root/usr/include/ibwire/packet.h" ] || { echo "FAIL: ibwire/packet.h not installed" >&2; exit 1; }
cflags=$(PKG_CONFIG_SYSROOT_DIR="$work/root" PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --cflags ibwire)
$cc -std=c11 -Wall -Wextra -Wpedantic -Werror $cflags "$src/conformance/tests/packaging/use_ibwire.c" -o "$work/use_installed"
"$work/use_installed"
echo "packaging: subproject and pkg-config consumers OK"
