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
PORT=18515
# the wire: one rxe device on veth_a, the probe on veth_b (one-device.sh)
. /rxe/one-device.sh
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
# Tests that crash a kernel (Linux 6.1's rxe: resp-len-write-zero-dmalen,
# docs/probe.md) run last, one at a time, each after /out is on the disk
# at block 2097152 (the host reads it there when the guest died before
# init's last archive): a crash then costs that test alone, and the
# console names it.
CRASHERS="resp-len-write-zero-dmalen"
last=""
if [ -z "$only" ]; then
    only=$(ibwire probe --list | cut -f1 | grep -vxF "$(echo $CRASHERS | tr ' ' '\n')" | tr '\n' ',')
    last=$CRASHERS
else
    for c in $CRASHERS; do # named in --only: last too
        case ",$only," in *",$c,"*)
            last="$last $c"
            only=$(echo ",$only," | sed "s/,$c,/,/; s/^,//; s/,$//") ;;
        esac
    done
fi
: >$d/table.txt
echo 0 >$d/rc
if [ -n "$only" ]; then
    ibwire probe -i veth_b --agent 127.0.0.1:$PORT --probe-ip $PROBE --pcap-dir $d/pcaps --within-scale 4 \
        --only "$only" >$d/table.txt 2>$d/probe.err
    echo $? >$d/rc
fi
for t in $last; do
    echo "rxe-vm: probe $t (a test that crashed a kernel)" >/dev/kmsg
    tar cf /tmp/snap.tar -C /out . && dd if=/tmp/snap.tar of=/dev/vda bs=512 seek=2097152 conv=notrunc 2>/dev/null
    sync
    ibwire probe -i veth_b --agent 127.0.0.1:$PORT --probe-ip $PROBE --pcap-dir $d/pcaps --within-scale 4 \
        --only "$t" >>$d/table.txt 2>>$d/probe.err
    rc=$?
    [ $rc -gt "$(cat $d/rc)" ] && echo $rc >$d/rc
done
kill $agent 2>/dev/null
wait $agent 2>/dev/null
cat $d/table.txt $d/probe.err
echo "rxe-vm: probe done (ibwire probe exit $(cat $d/rc))"
