#!/bin/busybox sh
# shellcheck shell=dash
# SPDX-License-Identifier: Apache-2.0
# Guest side of scripts/rxe-vm.sh: two rxe devices over a veth pair in the
# root namespace, then every workload of /rxe/workloads, one at a time:
#   NAME|NETEM_A|NETEM_B|MTU|TIMEOUT|SERVER|CLIENT
# NETEM_x is the netem setting for veth_x's egress ('-': none).  For each,
# tcpdump on veth_a and veth_b at once (two vantage points) and
# `ibwire check -i veth_a` live, all started before the traffic and stopped
# (SIGTERM) 1.5 s after it; files under /out/NAME/.
IP=/bin/ip
TC=/sbin/tc
RDMA=/usr/bin/rdma
FILTER="udp port 4791 or ether proto 0x8915"

$IP link set lo up
$IP link add veth_a type veth peer name veth_b
for i in a b; do
    echo 1 >/proc/sys/net/ipv6/conf/veth_$i/disable_ipv6 2>/dev/null
    echo 1 >/proc/sys/net/ipv4/conf/veth_$i/accept_local
    echo 0 >/proc/sys/net/ipv4/conf/veth_$i/rp_filter
done
echo 0 >/proc/sys/net/ipv4/conf/all/rp_filter
$IP addr add 10.9.0.1/32 dev veth_a
$IP addr add 10.9.0.2/32 dev veth_b
$IP link set veth_a up
$IP link set veth_b up
# no segmentation offloads: libpcap then sizes its ring slots by the MTU,
# not 64 KiB, and the live check's immediate-mode ring holds thousands of
# frames instead of 256 (rxe sends one skb per packet either way)
for i in a b; do
    /sbin/ethtool -K veth_$i tso off gso off gro off tx off rx off sg off 2>&1 | grep -v "^Actual changes\|^tx-\|^rx-\|^generic-\|^scatter"
done
# both addresses are local: policy routing sends the traffic over the wire
$IP rule add pref 1000 lookup local
$IP rule del pref 0
$IP rule add pref 10 iif lo lookup 100
$IP rule add pref 11 oif veth_a lookup 100
$IP rule add pref 12 oif veth_b lookup 100
$IP route add 10.9.0.2/32 dev veth_a src 10.9.0.1 table 100
$IP route add 10.9.0.1/32 dev veth_b src 10.9.0.2 table 100
mac_a=$(cat /sys/class/net/veth_a/address)
mac_b=$(cat /sys/class/net/veth_b/address)
$IP neigh replace 10.9.0.2 lladdr "$mac_b" dev veth_a nud permanent
$IP neigh replace 10.9.0.1 lladdr "$mac_a" dev veth_b nud permanent
$RDMA link add rxe_a type rxe netdev veth_a
$RDMA link add rxe_b type rxe netdev veth_b
$RDMA link show
for d in rxe_a rxe_b; do
    for g in 0 1; do
        echo "$d gid $g $(cat /sys/class/infiniband/$d/ports/1/gids/$g)"
    done
done
ibwire --version 2>&1 | head -1

npackets() { wc -l </proc/net/packet; }

netem() {   # DEV SETTING
    $TC qdisc del dev "$1" root 2>/dev/null
    [ "$2" = "-" ] || $TC qdisc add dev "$1" root netem $2
}

run_one() {
    name=$1 na=$2 nb=$3 mtu=$4 tmo=$5 srv=$6 cli=$7
    d=/out/$name
    mkdir -p "$d"
    echo "== $name: netem a[$na] b[$nb] mtu $mtu"
    $IP link set veth_a mtu "$mtu"
    $IP link set veth_b mtu "$mtu"
    netem veth_a "$na" || echo "$name: netem on veth_a failed"
    netem veth_b "$nb" || echo "$name: netem on veth_b failed"
    base=$(npackets)
    tcpdump -Z root -B 65536 -i veth_a -s 0 -w "$d/a.pcap" $FILTER 2>"$d/tcpdump_a.log" &
    ta=$!
    tcpdump -Z root -B 65536 -i veth_b -s 0 -w "$d/b.pcap" $FILTER 2>"$d/tcpdump_b.log" &
    tb=$!
    ibwire check -i veth_a --format json -w "$d/live.pcapng" >"$d/live.json" 2>"$d/live.err" &
    tl=$!
    n=0
    while [ "$(npackets)" -lt $((base + 3)) ] && [ $n -lt 50 ]; do
        sleep 0.1; n=$((n + 1))
    done
    sleep 0.3
    t0=$(cut -d' ' -f1 /proc/uptime)
    sh -c "exec timeout $tmo $srv" >"$d/server.log" 2>&1 &
    ts=$!
    sleep 1
    sh -c "exec timeout $tmo $cli" >"$d/client.log" 2>&1
    echo $? >"$d/client.rc"
    wait $ts
    echo $? >"$d/server.rc"
    t1=$(cut -d' ' -f1 /proc/uptime)
    # libpcap hands over its last block on its 1 s timeout: wait, then stop
    sleep 1.5
    kill -TERM $ta $tb $tl
    wait $ta; wait $tb; wait $tl
    echo $? >"$d/live.rc"
    # netem's counters (its drops, duplicates) before it goes
    { $TC -s qdisc show dev veth_a; $TC -s qdisc show dev veth_b; } >"$d/qdisc.txt" 2>&1
    netem veth_a -; netem veth_b -
    echo "$name: client rc $(cat "$d/client.rc") server rc $(cat "$d/server.rc") $t0..$t1 s"
    { echo "netem_a=$na"; echo "netem_b=$nb"; echo "mtu=$mtu"; echo "server=$srv"; echo "client=$cli"
      echo "start=$t0"; echo "end=$t1"; } >"$d/workload.txt"
    for dev in rxe_a rxe_b; do
        for c in /sys/class/infiniband/$dev/ports/1/hw_counters/*; do
            echo "$dev $(basename "$c") $(cat "$c")"
        done
    done >"$d/rxe_counters.txt" 2>/dev/null
}

# the disk: tar archives one after the other, from block 0
disk_blocks=0
save() {
    tar cf /tmp/save.tar -C /out "$@" 2>/dev/null || { echo "rxe-vm: tar of $* failed"; return; }
    n=$(( ($(wc -c </tmp/save.tar) + 511) / 512 ))
    dd if=/tmp/save.tar of=/dev/vda bs=512 seek=$disk_blocks 2>/dev/null \
        || echo "rxe-vm: writing $* to the disk failed"
    disk_blocks=$((disk_blocks + n))
    rm -f /tmp/save.tar
    for f in "$@"; do rm -rf "/out/$f"; done
}

while IFS='|' read -r name na nb mtu tmo srv cli; do
    case "$name" in ''|'#'*) continue ;; esac
    run_one "$name" "$na" "$nb" "$mtu" "$tmo" "$srv" "$cli" </dev/null
    # each workload's files onto the disk as one more tar archive after the
    # last (the host reads them with tar --ignore-zeros), then out of RAM:
    # the root file system is the guest's memory, and a 64 KiB x 1000 run
    # alone writes 200 MB
    save "$name"
done </rxe/workloads
cp /rxe/workloads /out/workloads
echo "rxe-vm: workloads done"
# (init then writes guest.log after the last archive, through save_log)
echo $disk_blocks >/tmp/disk_blocks
