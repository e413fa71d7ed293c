#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/bench/twovm.sh - the Soft-RoCE comparison of make bench, run in
# each of two VMs by tools/vm/run2 (tools/bench/run.sh starts it after the
# one-VM metrics).  Linux 6.1's rdma_rxe sends and receives in the initial
# network namespace only, so between two namespaces of one VM it cannot
# work (guest.sh's "rxe" row says so); between two VMs it is what it was
# made for.  One virtio-net NIC per VM, shaped like a bench rail (netem
# rate BENCH_RATE, BENCH_DELAY_MS, 400 packets), carries in turn:
#   rxe   ib_send_bw (perftest, RC SEND, 16 KiB messages) over rxe0
#   tcp   one TCP connection (mrcpp -M stream, 16 KiB writes)
#   mrc   one mrc connection over mrc0 with this NIC as its only rail
# for BENCH_TWOVM_SECS each.  B is the server side.  A writes one JSON
# line per measurement to $MRC_SHARE/raw.jsonl; run.sh copies it to
# results/bench/vm/raw/twovm.jsonl for report.py.
#
# Environment (tools/vm/run2 and run.sh): MRC_ROLE, MRC_SHARE, BENCH_RATE,
# BENCH_DELAY_MS, BENCH_TWOVM_SECS.

. "$MRC_TOP/selftests/mrc_twovm_lib.sh"
set -u

RATE=${BENCH_RATE:-5}
DELAY=${BENCH_DELAY_MS:-1}
SECS=${BENCH_TWOVM_SECS:-5}
PP=$MRC_TOP/tools/bench/mrcpp
PEER=10.0.0.2
RAW=$SHARE/raw.jsonl

twovm_setup
dev=${NIC[0]:-}
[ -n "$dev" ] || { echo "# twovm: no NIC: $SETUP_ERR" >&2; exit 1; }
# The rail's shaping, as guest.sh's shape(): tbf only splits GSO packets.
tc -batch - <<TC
qdisc replace dev $dev root handle 1: tbf rate 10gbit burst 1600 latency 100ms
qdisc replace dev $dev parent 1:1 handle 10: netem rate ${RATE}mbit delay ${DELAY}ms limit 400
TC
rxe_err=""
if ! modprobe rdma_rxe 2>"$SHARE/$ROLE.rxe.err"; then
	rxe_err="modprobe rdma_rxe: $(cat "$SHARE/$ROLE.rxe.err")"
elif ! rdma link add rxe0 type rxe netdev "$dev" 2>"$SHARE/$ROLE.rxe.err"; then
	rxe_err="rdma link add: $(cat "$SHARE/$ROLE.rxe.err")"
elif ! command -v ib_send_bw >/dev/null; then
	rxe_err="perftest (ib_send_bw) not installed"
fi

# ib_send_bw: 16 KiB messages, at most 2 outstanding (32 KiB, ~50 ms of
# the shaped rail: more would queue seconds and trip RC's retransmission
# timer), timeout exponent 18 (about 1 s).
IBOPT=(-d rxe0 -s 16384 -t 2 -u 18 -F -D "$SECS")

if [ "$ROLE" = b ]; then
	echo "$rxe_err" >"$SHARE/b.rxe"
	if [ -z "$rxe_err" ]; then
		timeout $((SECS + 60)) ib_send_bw "${IBOPT[@]}" >"$SHARE/b.ib.out" 2>&1 &
	fi
	"$PP" -T tcp -l -p 7401 -M stream -t $((3 * SECS + 90)) >"$SHARE/b.tcp.out" 2>&1 &
	"$PP" -T mrc -l -p 7402 -M stream -t $((3 * SECS + 90)) >"$SHARE/b.mrc.out" 2>&1 &
	nap 1
	touch "$SHARE/b.ready"
	wait
	touch "$SHARE/b.done"
	exit 0
fi

rec() {	# rec PEER KEY=VALUE...: a JSON line (numbers bare, the rest quoted)
	local p=$1 kv k v line
	shift
	line="{\"metric\": \"twovm\", \"peer\": \"$p\", \"run\": 1, \"rate_mbit\": $RATE"
	for kv in "$@"; do
		k=${kv%%=*} v=${kv#*=}
		if [[ $v =~ ^-?[0-9]+(\.[0-9]+)?$ ]]; then
			line+=", \"$k\": $v"
		else
			v=${v//\\/\\\\}; v=${v//\"/\\\"}
			line+=", \"$k\": \"$v\""
		fi
	done
	echo "$line}" >>"$RAW"
}

: >"$RAW"
wait_file "$SHARE/b.ready" 120 || { echo "# twovm: B never got ready" >&2; exit 1; }
[ -z "$rxe_err" ] && rxe_err=$(cat "$SHARE/b.rxe")
if [ -n "$rxe_err" ]; then
	rec rxe status=n/a "reason=$rxe_err"
else
	timeout $((SECS + 60)) ib_send_bw "${IBOPT[@]}" "$PEER" >"$SHARE/a.ib.out" 2>&1
	# "#bytes #iterations BW peak[MB/sec] BW average[MB/sec] MsgRate"; MB = 2^20
	bw=$(awk '$1 == 16384 && NF >= 5 { print $4 }' "$SHARE/a.ib.out" | tail -1)
	if [ -n "$bw" ]; then
		rec rxe status=ok bw_mbit="$(awk -v b="$bw" 'BEGIN { printf "%.2f", b * 8 * 1.048576 }')"
	else
		rec rxe status=n/a "reason=ib_send_bw: $(grep -iE 'error|fail|unable|couldn' "$SHARE/a.ib.out" "$SHARE/b.ib.out" | head -3 | tr '\n' ' ')"
	fi
fi
for p in tcp mrc; do
	port=7401
	[ $p = mrc ] && port=7402
	"$PP" -T $p -c $PEER -p $port -M stream -s 16384 -D "$SECS" -t $((SECS + 60)) \
		>"$SHARE/a.$p.out" 2>&1
done
wait_file "$SHARE/b.done" $((SECS + 90))
for p in tcp mrc; do
	# the receiver's summary: bytes=N elapsed_ms=N mbit=N ...
	line=$(grep -h 'mbit=' "$SHARE/b.$p.out" | tail -1)
	if [ -n "$line" ]; then
		rec $p status=ok $line
	else
		rec $p status=n/a "reason=$(head -c 200 "$SHARE/b.$p.out" "$SHARE/a.$p.out" | tr '\n' ' ')"
	fi
done
cat "$RAW"
