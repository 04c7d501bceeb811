#!/bin/busybox sh
# shellcheck shell=dash
# SPDX-License-Identifier: Apache-2.0
# Guest side of `scripts/rxe-vm.sh --probe`: `ibwire probe` against Linux
# 6.1 rxe through its agent (conformance/probe/agent.c).  It runs instead of
# run-workloads.sh.
#
# The wire: ONE rxe device, rxe_a on veth_a (10.9.0.1/24); the probe's raw
# socket on veth_b, which has no address: the probe is 10.9.0.3 at veth_b's
# MAC, a static neighbour of veth_a, so rxe resolves the probe's GID
# (::ffff:10.9.0.3) without ARP, and the kernel delivers the probe's frames
# to rxe_a as coming from its own connected subnet.  With one rxe device
# and one address nothing needs the policy routing of the two-device bench.
# ibwire-agent makes each test's QP with plain verbs (its `qp` command) and
# answers on its side channel, 127.0.0.1:18515.
#
# /out/probe/: table.txt (the probe's output: test, statements, verdict and
# why), pcaps/ID.pcapng (each failing test's frames), agent.log, rc.
# /rxe/probe-only, when there: the tests to run (the host's --only).
IP=/bin/ip
RDMA=/usr/bin/rdma
ME=10.9.0.1
PROBE=10.9.0.3
PORT=18515

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
echo "rxe_a gids: $(cat /sys/class/infiniband/rxe_a/ports/1/gids/[0-3] | tr '\n' ' ')"

d=/out/probe
only=$(cat /rxe/probe-only 2>/dev/null)
mkdir -p $d/pcaps
ibwire-agent -a $ME -p $PORT -d rxe_a >$d/agent.log 2>&1 &
agent=$!
n=0
while ! grep -q "side channel" $d/agent.log && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
cat $d/agent.log
# the guest is emulated (TCG) on a shared host: the scripts' default 50 ms
# for a frame or completion, four times over (docs/probe.md)
ibwire probe -i veth_b --agent 127.0.0.1:$PORT --probe-ip $PROBE --pcap-dir $d/pcaps --within-scale 4 \
    ${only:+--only "$only"} >$d/table.txt 2>$d/probe.err
echo $? >$d/rc
kill $agent 2>/dev/null
wait $agent 2>/dev/null
cat $d/table.txt $d/probe.err
echo "rxe-vm: probe done (ibwire probe exit $(cat $d/rc))"
