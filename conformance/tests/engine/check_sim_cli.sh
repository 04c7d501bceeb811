#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# ibwire sim from the command line: exit codes 0 / 1 / 2, the JSON keys the
# issue names, and a capture that tshark decodes with no malformed packet
# (skipped when tshark is absent).  Usage: check_sim_cli.sh IBWIRE [TSHARK]
set -u
ibw=$1
tshark=${2:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
checks=0
ok() { checks=$((checks + 1)); }
bad() { checks=$((checks + 1)); fail=$((fail + 1)); echo "FAIL: $*" >&2; }

"$ibw" sim --messages 300 --max-size 20000 --drop 0.05 --dup 0.02 --reorder 0.02 \
    --corrupt 0.01 -w "$tmp/rc.pcap" --trace "$tmp/rc.trace" > "$tmp/out.json"
[ $? -eq 0 ] && ok || bad "lossy RC sim did not exit 0"
for k in messages_posted completed_ok completed_error bytes_posted bytes_verified \
         data_mismatches duplicates_delivered retransmissions timeouts rnr_naks \
         seq_naks packets_on_wire qp_state; do
    grep -q "\"$k\":" "$tmp/out.json" && ok || bad "key $k missing"
done
grep -q '"completed_ok": 300,' "$tmp/out.json" && ok || bad "not all 300 completed"
grep -q '"qp_state": "RTS"' "$tmp/out.json" && ok || bad "QP not in RTS"
grep -q 'E18 req_hdr_meta RequesterTransControl -> ReqPktGen' "$tmp/rc.trace" && ok \
    || bad "trace lacks E18 records"

"$ibw" sim --messages 50 --drop 1 > "$tmp/drop.json"
[ $? -eq 0 ] && ok || bad "100% drop sim did not exit 0"
grep -q '"qp_state": "ERR"' "$tmp/drop.json" && ok || bad "100% drop: QP not in ERR"

"$ibw" sim --pmtu 1000 > /dev/null 2>&1
[ $? -eq 2 ] && ok || bad "bad --pmtu must exit 2"
"$ibw" sim --transport ud --ops read > /dev/null 2>&1
[ $? -eq 2 ] && ok || bad "UD read must exit 2"
"$ibw" sim --drop 1.5 > /dev/null 2>&1
[ $? -eq 2 ] && ok || bad "drop 1.5 must exit 2"

if [ -n "$tshark" ]; then
    for f in rc; do
        "$tshark" -r "$tmp/$f.pcap" -Y '_ws.malformed || _ws.expert.severity >= error' \
            > "$tmp/bad.txt" 2>"$tmp/err.txt"
        [ $? -eq 0 ] && ok || bad "tshark failed: $(cat "$tmp/err.txt")"
        n=$(wc -l < "$tmp/bad.txt")
        [ "$n" -eq 0 ] && ok || bad "tshark: $n malformed/error packets in $f.pcap"
        total=$("$tshark" -r "$tmp/$f.pcap" -Y infiniband 2>/dev/null | wc -l)
        [ "$total" -gt 300 ] && ok || bad "tshark sees only $total IB packets"
    done
    "$ibw" sim --ib --messages 100 --max-size 9000 --drop 0.05 -w "$tmp/ib.pcap" > /dev/null
    "$tshark" -r "$tmp/ib.pcap" -Y '_ws.malformed' > "$tmp/bad.txt" 2>/dev/null
    [ $? -eq 0 ] && ok || bad "tshark failed on ib.pcap"
    n=$(wc -l < "$tmp/bad.txt")
    [ "$n" -eq 0 ] && ok || bad "tshark: $n malformed packets in ib.pcap"
    total=$("$tshark" -r "$tmp/ib.pcap" -Y infiniband 2>/dev/null | wc -l)
    [ "$total" -gt 100 ] && ok || bad "tshark sees only $total packets in ib.pcap"
else
    echo "tshark absent: capture decode check skipped"
fi
echo "engine_sim_cli: $checks checks, $fail failed"
[ $fail -eq 0 ]
