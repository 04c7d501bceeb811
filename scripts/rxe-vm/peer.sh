#!/bin/busybox sh
# SPDX-License-Identifier: Apache-2.0
# Guest side of `scripts/rxe-vm.sh --interop`: `ibwire peer` (the reference
# engine on a raw socket) against Linux 6.1 rxe and its RDMA CM, with
# stock rping, ucmatose and perftest.  It runs instead of run-workloads.sh
# (--interop), or after it (--quick: the matrix's veth pair and rxe devices
# are taken down first).
#
# The wire: rxe_a on veth_a (10.9.0.1), as run-workloads.sh makes it; the
# engine on a raw socket on veth_b with an address of its own, 10.9.0.3,
# that no kernel interface owns (the engine answers ARP for it; the
# kernel's rxe_a finds it by ARP).  rxe_b stays on veth_b (10.9.0.2) as in
# the other runs.  Routing (docs: /work/shared/reference/rxe-vm.md): both
# kernel addresses are local, so the policy rules of run-workloads.sh send
# traffic over the wire, and table 100 gets 10.9.0.3 via veth_a: the RDMA
# CM resolves its path to the engine there, and its passive side's check
# (validate_ipv4_net_dev: a FIB lookup of its own address from the
# client's, out of veth_a) meets the local route of 10.9.0.1 on veth_a.
#
# IPv6 (the runs after MRA's): veth_a gets fd00:9::1 (rxe_a's GID table takes it
# from the interface), the engine fd00:9::3 with ND answered by itself, and
# a route to it on veth_a.
#
# Each run: NAME|NETEM (veth_a and veth_b egress, '-': none)|RXE side|ENGINE
# side[|what the engine's log must show, an ERE ('' for nothing)[|veth_b's
# NETEM apart]]; rping -s runs before the engine client, the engine server
# before rping -c.  tcpdump on veth_a;
# /out/peer/NAME/; /out/peer/summary.txt has one line per run: NAME rc_rxe
# rc_engine check-verdict (engine=3 when its log lacks what it must show).
IP=/bin/ip
TC=/sbin/tc
RDMA=/usr/bin/rdma
FILTER="udp port 4791 or arp or icmp6"
E=10.9.0.3
E6=fd00:9::3

$IP link set lo up
if [ -e /sys/class/net/veth_a ]; then   # after run-workloads.sh (--quick)
    $RDMA link del rxe_a 2>/dev/null
    $RDMA link del rxe_b 2>/dev/null
    $IP link del veth_a
fi
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
# (the rules stay from run-workloads.sh in --quick: "File exists")
$IP rule add pref 1000 lookup local 2>/dev/null
$IP rule del pref 0 2>/dev/null
$IP rule add pref 10 iif lo lookup 100 2>/dev/null
$IP rule add pref 11 oif veth_a lookup 100 2>/dev/null
$IP rule add pref 12 oif veth_b lookup 100 2>/dev/null
$IP route add 10.9.0.2/32 dev veth_a src 10.9.0.1 table 100
$IP route add 10.9.0.1/32 dev veth_b src 10.9.0.2 table 100
$IP route add $E/32 dev veth_a src 10.9.0.1 table 100
mac_a=$(cat /sys/class/net/veth_a/address)
mac_b=$(cat /sys/class/net/veth_b/address)
$IP neigh replace 10.9.0.2 lladdr "$mac_b" dev veth_a nud permanent
$IP neigh replace 10.9.0.1 lladdr "$mac_a" dev veth_b nud permanent
$RDMA link add rxe_a type rxe netdev veth_a
$RDMA link add rxe_b type rxe netdev veth_b
$RDMA link show
echo "rxe_a gid 1 $(cat /sys/class/infiniband/rxe_a/ports/1/gids/1)"

netem() {   # DEV SETTING
    $TC qdisc del dev "$1" root 2>/dev/null
    [ "$2" = "-" ] || $TC qdisc add dev "$1" root netem $2
}

# rping's client writes its next {addr, rkey, len} into the buffer of a
# SEND whose ACK may still be outstanding: rping_test_client() waits for the
# server's go-ahead (a receive), not for the SEND's completion, before
# rping_format_send() refills cb->send_buf.  When netem drops that ACK, rxe
# resends the PSN from the buffer as it is now, and FLOW-RETRANS-DIFF is
# right about what the wire shows.  The rule stays; the run counts as
# clean when that is all: every error a 16-byte RC SEND ONLY resent by
# the rxe side (10.9.0.1 / fd00:9::1), the engine's flows without errors.
rping_resend_only() {   # CHECK_TXT
    grep -q '^frame [0-9]*: FLOW-RETRANS-DIFF: PSN 0x[0-9a-f]* resent as RC SEND ONLY with 16 payload bytes' "$1" || return 1
    ! grep '^frame [0-9]*: ' "$1" | grep -qv 'FLOW-RETRANS-DIFF: PSN 0x[0-9a-f]* resent as RC SEND ONLY with 16 payload bytes' || return 1
    ! grep '^  flow ' "$1" | grep -v ' 0 errors, ' | grep -Eqv '^  flow RC (10\.9\.0\.1|fd00:9::1) '
}

mkdir -p /out/peer
: >/out/peer/summary.txt
run() {   # NAME NETEM ORDER(rxe-first|engine-first) RXE_CMD ENGINE_CMD [MUST] [NETEM_B]
    name=$1 ne=$2 order=$3 rxe=$4 eng=$5 must=${6:-} ne_b=${7:-$2}
    d=/out/peer/$name
    mkdir -p "$d"
    echo "== $name: netem [$ne] [$ne_b] $order"
    netem veth_a "$ne"; netem veth_b "$ne_b"
    tcpdump -Z root -i veth_a -s 0 -w "$d/a.pcap" $FILTER 2>"$d/tcpdump.log" &
    td=$!
    sleep 1
    if [ "$order" = rxe-first ]; then
        sh -c "exec timeout 40 $rxe" >"$d/rxe.log" 2>&1 &
        bg=$!
        sleep 1
        sh -c "exec timeout 40 $eng --pcap $d/engine.pcap" >"$d/engine.log" 2>&1
        re=$?
        wait $bg; rr=$?
    else
        sh -c "exec timeout 40 $eng --pcap $d/engine.pcap" >"$d/engine.log" 2>&1 &
        bg=$!
        sleep 1
        sh -c "exec timeout 40 $rxe" >"$d/rxe.log" 2>&1
        rr=$?
        wait $bg; re=$?
    fi
    sleep 1.5
    kill -TERM $td; wait $td
    netem veth_a -; netem veth_b -
    if [ "$re" = 0 ] && [ -n "$must" ] && ! grep -Eq "$must" "$d/engine.log"; then
        echo "$name: the engine's log lacks /$must/" >>"$d/engine.log"
        re=3
    fi
    ibwire check "$d/a.pcap" >"$d/check.txt" 2>&1
    rc=$?
    v=$(sed -n '2p' "$d/check.txt" | sed 's/^[^:]*: //')
    if [ $rc = 1 ] && rping_resend_only "$d/check.txt"; then
        v="$v [known: rping rewrote the buffer of a SEND not yet completed]"
        rc=0
    fi
    echo "$name rxe=$rr engine=$re check=$rc $v" | tee -a /out/peer/summary.txt
    tail -3 "$d/rxe.log" "$d/engine.log"
}

# The engine as rping's client against rping -s on rxe_a, data verified.
run rping-engine-client - rxe-first \
    "rping -s -a 10.9.0.1 -v -C 5" \
    "ibwire peer -i veth_b --ip $E -c 10.9.0.1 -C 5 -V -v --timeout 30"
# rping -c on rxe_a against the engine as server (-V: rping checks the data).
run rping-engine-server - engine-first \
    "rping -c -a $E -I 10.9.0.1 -v -V -C 5" \
    "ibwire peer -i veth_b --ip $E -s -v --timeout 30"
# The same with netem loss both ways.
run rping-engine-client-loss "loss 3%" rxe-first \
    "rping -s -a 10.9.0.1 -C 50 -S 4000" \
    "ibwire peer -i veth_b --ip $E -c 10.9.0.1 -C 50 -S 4000 -V --timeout 30"
run rping-engine-server-loss "loss 3%" engine-first \
    "rping -c -a $E -I 10.9.0.1 -V -C 50 -S 4000" \
    "ibwire peer -i veth_b --ip $E -s -S 4000 --timeout 30"
# ucmatose (rdma-core's cmatose): ten 100-byte SENDs each way, then the
# server disconnects.
run ucmatose-engine-server - engine-first \
    "ucmatose -s $E -b 10.9.0.1" \
    "ibwire peer -i veth_b --ip $E -s --app ucmatose --timeout 30"
run ucmatose-engine-client - rxe-first \
    "ucmatose -b 10.9.0.1" \
    "ibwire peer -i veth_b --ip $E -c 10.9.0.1 --app ucmatose --timeout 30"
# The device agent (conformance/probe/agent.c) on rxe_a: the engine reads
# region A (its known bytes), writes region R and reads it back on the
# agent's side channel.
if command -v ibwire-agent >/dev/null; then
    run agent-engine-client - rxe-first \
        "ibwire-agent -a 10.9.0.1 -n 1" \
        "ibwire peer -i veth_b --ip $E -c 10.9.0.1 --app agent -v --timeout 30"
fi
# MRA.  Linux's RDMA CM answers a REQ it gets twice with MRA(REQ) while its
# application has not accepted (cma_ib_req_handler leaves the cm_id in
# MRA_REQ_SENT with IB_CM_MRA_FLAG_DELAY; cm_dup_req_handler then sends
# it).  A duplicate sent at once (--dup-req) may reach the kernel before
# that state or after rping's accept (seen: REQ, its duplicate 4 ms later,
# REP, no MRA), so rping is stopped (SIGSTOP) once it listens and let go
# 12 s later: the engine's REQ times out (4.3 s, CM response timeout 20)
# and is resent, Linux answers the resend with MRA, and the engine must
# then wait for the REP instead of resending again at 8.6 s: one resend,
# an MRA received, the pings done.
cat >/tmp/app-stopped.sh <<'EOF'
"$@" &
p=$!
n=0
while [ $n -lt 50 ] && ! /usr/bin/rdma res show cm_id 2>/dev/null | grep -q LISTEN; do
    sleep 0.1; n=$((n + 1))
done
kill -STOP $p; sleep 12; kill -CONT $p
wait $p
EOF
run mra-engine-client-app-stopped - rxe-first \
    "sh /tmp/app-stopped.sh rping -s -a 10.9.0.1 -v -C 5" \
    "ibwire peer -i veth_b --ip $E -c 10.9.0.1 -C 5 -V --timeout 35" \
    " [1-9][0-9]* MRA received, 1 MADs resent"
# The engine's server accepts 6 s late, after an MRA(REQ) asking for 8.6 s
# (service timeout 21): rping -c's CM would resend its REQ after about
# 4.8 s (response timeout 20, packet lifetime 16) had it not honoured the
# MRA; the engine counts the REQs it got again.
run mra-engine-server-late-accept - engine-first \
    "rping -c -a $E -I 10.9.0.1 -v -V -C 5" \
    "ibwire peer -i veth_b --ip $E -s --accept-delay 6000 --timeout 30" \
    " 1 MRA sent, 0 MRA received, 0 MADs resent, 0 duplicates received"
# RoCEv2 over IPv6, neighbours by ND.
echo 0 >/proc/sys/net/ipv6/conf/veth_a/disable_ipv6
$IP -6 addr add fd00:9::1/128 dev veth_a nodad
$IP -6 route add $E6/128 dev veth_a
sleep 1
echo "rxe_a gids: $(cat /sys/class/infiniband/rxe_a/ports/1/gids/* | grep -v '^0000:0000:0000:0000:0000:0000:0000:0000$' | tr '\n' ' ')"
run rping6-engine-client - rxe-first \
    "rping -s -a fd00:9::1 -v -C 5" \
    "ibwire peer -i veth_b --ip $E6 -c fd00:9::1 -C 5 -V -v --timeout 30"
run rping6-engine-server - engine-first \
    "rping -c -a $E6 -I fd00:9::1 -v -V -C 5" \
    "ibwire peer -i veth_b --ip $E6 -s -v --timeout 30"
# perftest -R (Debian 12's perftest 4.5) against the engine as server
# (conformance/peer/perftest.c): the client on rxe_a makes perftest's two
# RDMA CM connections to the engine (the comm QP for its exchange, then the
# test QP), -n 200 messages of 4 KB, and tears both down; the engine checks
# the iterations (-C: the client's BW report for write and read, the
# SENDs it received for send).  Clean; with netem loss 3 % on rxe's side
# (veth_a: its requests lost and resent; write and send); and with the
# engine losing 3 % of its own frames on the test QP (--loss: ACKs, NAKs,
# READ responses; write, read and send).  The loss stays off two places,
# each for a finding that is right and not the engine's (README.md):
# - the engine's frames of perftest's exchange: perftest posts the receive
#   of its exchange into the buffer of the SEND it has just made
#   (post_one_recv_wqe() and rdma_write_data() both use buf[0]); a lost
#   ACK of that SEND lets the engine's answer overwrite what rxe resends
#   (FLOW-RETRANS-DIFF; the engine's --loss spares its comm QP);
# - netem under a READ client: tcpdump on veth_a sees what netem let
#   through, so a resent READ request that netem drops again is missing and
#   the next new PSN reads as Go-Back-N cut short (FLOW-GBN, 1 of 2 runs).
perftest_runs() {
    for t in write read send; do
        run "perftest-$t-engine-server" - engine-first \
            "ib_${t}_bw -d rxe_a -F -s 4096 -n 200 -R $E" \
            "ibwire peer -i veth_b --ip $E -s --app perftest -C 200 -S 4096 -v --timeout 35"
    done
    for t in write send; do
        run "perftest-$t-engine-server-loss" "loss 3%" engine-first \
            "ib_${t}_bw -d rxe_a -F -s 4096 -n 200 -R $E" \
            "ibwire peer -i veth_b --ip $E -s --app perftest -C 200 -S 4096 -v --timeout 35" "" -
    done
    for t in write read send; do
        run "perftest-$t-engine-server-engloss" - engine-first \
            "ib_${t}_bw -d rxe_a -F -s 4096 -n 200 -R $E" \
            "ibwire peer -i veth_b --ip $E -s --app perftest -C 200 -S 4096 --loss 0.03 -v --timeout 35"
    done
    # The engine as perftest's client against perftest's own server.
    for t in write read send; do
        run "perftest-$t-engine-client" - rxe-first \
            "ib_${t}_bw -d rxe_a -F -s 4096 -n 200 -R" \
            "ibwire peer -i veth_b --ip $E -c 10.9.0.1 --app perftest --perftest $t -C 200 -S 4096 -v --timeout 35"
    done
}
perftest_runs
echo "rxe-vm: interop done"
