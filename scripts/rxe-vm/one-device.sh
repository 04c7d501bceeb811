#!/bin/busybox sh
# shellcheck shell=dash
# SPDX-License-Identifier: Apache-2.0
# The wire of `scripts/rxe-vm.sh --probe` and `--fuzz` (sourced by
# rxe-vm/probe.sh and rxe-vm/fuzz.sh): ONE rxe device, rxe_a on veth_a
# ($ME, 10.9.0.1/24); the probe's raw socket on veth_b, which has no
# address: the probe is $PROBE (10.9.0.3) at veth_b's MAC, a permanent
# neighbour of veth_a, so rxe resolves the probe's GID (::ffff:10.9.0.3)
# without ARP, and the kernel delivers the probe's frames to rxe_a as
# coming from its own connected subnet.
IP=/bin/ip
RDMA=/usr/bin/rdma
ME=10.9.0.1
PROBE=10.9.0.3

# the console shows the kernel's warnings (level 4) and what the scripts
# write to /dev/kmsg: the bench reads them there when the guest dies
dmesg -n 5
$IP link set lo up
$IP link add veth_a type veth peer name veth_b
for i in a b; do
    echo 1 >/proc/sys/net/ipv6/conf/veth_$i/disable_ipv6 2>/dev/null
    echo 0 >/proc/sys/net/ipv4/conf/veth_$i/rp_filter
done
echo 0 >/proc/sys/net/ipv4/conf/all/rp_filter
$IP addr add $ME/24 dev veth_a
$IP link set veth_a up
$IP link set veth_b up
for i in a b; do
    /sbin/ethtool -K veth_$i tso off gso off gro off 2>/dev/null >/dev/null
done
mac_b=$(cat /sys/class/net/veth_b/address)
$IP neigh replace $PROBE lladdr "$mac_b" dev veth_a nud permanent
$RDMA link add rxe_a type rxe netdev veth_a
$RDMA link show
