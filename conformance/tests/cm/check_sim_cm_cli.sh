#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# ibwire sim --cm: JSON counters, and the capture it writes read back by
# tshark as CM REQ/REP/RTU/DREQ/DREP carrying the values the run used:
# client communication IDs from 0xaaaabbbb, server IDs from 0x11112222,
# client QPNs 2, 3, 4 (the engine's first QPNs); connection 1 (odd) is
# torn down by the server, 0 and 2 by the client.  tshark missing: skip (77).
set -eu
ibwire=$1
tshark=${2:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$("$ibwire" sim --cm --conns 3 --size 64 -w "$tmp/cm.pcap")
for kv in '"connections_established": 3' '"connections_failed": 0' \
          '"disconnects": 3' '"cm_retries": 0' '"rej_sent": 0' \
          '"bytes_verified": 384' '"qps_wrong_state": 0' '"invariants_ok": true'; do
    case $out in *"$kv"*) ;; *) echo "missing $kv in: $out"; exit 1 ;; esac
done
"$ibwire" sim --cm --conns 20 --drop 0.2 --seed 5 >"$tmp/lossy.json" ||
    { cat "$tmp/lossy.json"; exit 1; }
grep -q '"connections_established": 20' "$tmp/lossy.json"
if "$ibwire" sim --cm --cm-retries 16 >/dev/null 2>&1; then
    echo "--cm-retries 16 accepted"; exit 1
fi
[ -n "$tshark" ] || exit 77
"$tshark" -r "$tmp/cm.pcap" -T fields -e _ws.col.Info -e infiniband.cm.req \
    -e infiniband.cm.req.localqpn -e infiniband.cm.rep \
    -e infiniband.cm.rep.remotecommid -e infiniband.cm.dreq.localcommid \
    2>/dev/null | grep 'CM:' | sort >"$tmp/got"
cat >"$tmp/want" <<'W'
CM: ConnectReply			0x11112222	0xaaaabbbb	
CM: ConnectReply			0x11112223	0xaaaabbbc	
CM: ConnectReply			0x11112224	0xaaaabbbd	
CM: ConnectRequest	0xaaaabbbb	0x000002			
CM: ConnectRequest	0xaaaabbbc	0x000003			
CM: ConnectRequest	0xaaaabbbd	0x000004			
CM: DisconnectReply					
CM: DisconnectReply					
CM: DisconnectReply					
CM: DisconnectRequest					0x11112223
CM: DisconnectRequest					0xaaaabbbb
CM: DisconnectRequest					0xaaaabbbd
CM: ReadyToUse					
CM: ReadyToUse					
CM: ReadyToUse					
W
diff "$tmp/want" "$tmp/got"
