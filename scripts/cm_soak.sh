#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# cm_soak.sh - run `ibwire sim --cm` over many seeds on a lossy link and
# count the runs whose invariants fail.  Prints each failing
# seed with its JSON, then one summary line; exit 1 if any run failed.
#
#   scripts/cm_soak.sh [-b IBWIRE] [-n SEEDS] [-s FIRST] [-- SIM OPTIONS...]
#
# Defaults: build/plain/conformance/tool/ibwire, 10000 seeds from 20000,
# --conns 50 --drop 0.2 --dup 0.05 --reorder 0.05 with the default CM
# retries.  Options after -- replace the link options.
set -eu
ibwire=build/plain/conformance/tool/ibwire
n=10000
first=20000
while [ $# -gt 0 ]; do
    case $1 in
    -b) ibwire=$2; shift 2 ;;
    -n) n=$2; shift 2 ;;
    -s) first=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "usage: $0 [-b IBWIRE] [-n SEEDS] [-s FIRST] [-- SIM OPTIONS...]" >&2
       exit 2 ;;
    esac
done
[ $# -gt 0 ] || set -- --conns 50 --drop 0.2 --dup 0.05 --reorder 0.05
[ -x "$ibwire" ] || { echo "$0: no $ibwire (build it first)" >&2; exit 2; }
start=$(date +%s)
fail=0 broken=0 failed=0
seed=$first
last=$((first + n))
while [ "$seed" -lt "$last" ]; do
    if out=$("$ibwire" sim --cm --seed "$seed" "$@"); then
        :
    else
        fail=$((fail + 1))
        echo "seed $seed: $out"
    fi
    b=${out#*\"connections_broken\": }; b=${b%%,*}
    f=${out#*\"connections_failed\": }; f=${f%%,*}
    broken=$((broken + b)) failed=$((failed + f))
    seed=$((seed + 1))
done
echo "cm soak: $n seeds from $first ($*): $fail failed runs," \
     "$broken broken and $failed failed connections, $(( $(date +%s) - start )) s"
[ "$fail" -eq 0 ]
