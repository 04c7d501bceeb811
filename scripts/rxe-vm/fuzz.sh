#!/bin/busybox sh
# shellcheck shell=dash
# SPDX-License-Identifier: Apache-2.0
# Guest side of `scripts/rxe-vm.sh --fuzz`: `ibwire probe --fuzz` (the
# differential fuzzer, conformance/probe/README.md "Fuzzing") against the
# guest kernel's rxe through its agent.  It runs instead of
# run-workloads.sh, on the wire of `--probe` (probe.sh): one rxe device,
# rxe_a on veth_a (10.9.0.1/24), the probe's raw socket on veth_b (no
# address; the probe is 10.9.0.3 at veth_b's MAC, a static neighbour of
# veth_a), ibwire-agent on 127.0.0.1:18515 as the device's side channel.
#
# The kernel command line's ibwfuzz=SEED,EPISODES,TIME_LIMIT,FIRST (the
# host's options; FIRST: the episode to start at, after a crash).
# Each episode's id goes to the kernel's log before it runs (--log-episodes
# /dev/kmsg), so a crash of the guest kernel names it on the console; /out
# is written to the disk image every 30 s at SNAP_AT (512-byte blocks), for
# the host to read when the guest died before init's last archive.
# /out/fuzz/: fuzz.txt (the fuzzer's stdout: each divergence and its
# minimized script's file, the summary), progress.txt (its progress lines),
# ID.probe (the minimized scripts), pcaps/ID.pcapng (each script's frames
# on the device, where it failed there), corpus/, agent.log, rc, kernel.
PORT=18515
# the wire: one rxe device on veth_a, the probe on veth_b (one-device.sh)
. /rxe/one-device.sh

d=/out/fuzz
mkdir -p $d/pcaps
uname -r >$d/kernel
args=$(sed -n 's/.*ibwfuzz=\([0-9,]*\).*/\1/p' /proc/cmdline)
seed=$(echo "$args" | cut -d, -f1)
episodes=$(echo "$args" | cut -d, -f2)
limit=$(echo "$args" | cut -d, -f3)
first=$(echo "$args" | cut -d, -f4)
SNAP_AT=2097152
ibwire-agent -a $ME -p $PORT -d rxe_a >$d/agent.log 2>&1 &
agent=$!
n=0
while ! grep -q "side channel" $d/agent.log && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
cat $d/agent.log
# the guest is emulated (TCG) on a shared host: the scripts' default limits
# four times over, as for the suite (docs/probe.md)
echo "ibwire probe --fuzz $episodes --seed $seed --first $first --time-limit $limit (kernel $(uname -r))"
# every 30 s: the latest progress line on the console, /out on the disk
(while sleep 30; do
    tail -n 1 $d/progress.txt 2>/dev/null
    tar cf /tmp/snap.tar -C /out . 2>/dev/null && dd if=/tmp/snap.tar of=/dev/vda bs=512 seek=$SNAP_AT conv=notrunc 2>/dev/null
done) &
ticker=$!
ibwire probe -i veth_b --agent 127.0.0.1:$PORT --probe-ip $PROBE --within-scale 4 \
    --fuzz "$episodes" --seed "$seed" --first "$first" --time-limit "$limit" --out $d \
    --pcap-dir $d/pcaps --log-episodes /dev/kmsg \
    >$d/fuzz.txt 2>$d/progress.txt
echo $? >$d/rc
kill $ticker $agent 2>/dev/null
wait $agent 2>/dev/null
tail -n 3 $d/progress.txt
cat $d/fuzz.txt
echo "rxe-vm: fuzz done (ibwire probe exit $(cat $d/rc))"
