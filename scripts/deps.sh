#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Install the Debian 12 packages ibwire builds and tests with, only those missing.
set -eu
pkgs="meson ninja-build clang libclang-rt-14-dev gcc libpcap-dev zlib1g-dev tshark g++ pkg-config chromium verilator python3-scapy iproute2 qemu-system-x86 cpio kmod libibverbs-dev librdmacm-dev man-db groff-base"
missing=""
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "deps.sh: installing$missing" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >/dev/null
