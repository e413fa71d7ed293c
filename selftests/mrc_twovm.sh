#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mrc_twovm.sh - mrc between two VMs over real NIC drivers: VM A's job of
# tools/vm/run2 (VM B runs mrc_twovm_b.sh).  Not in TEST_PROGS: it needs
# two VMs.  Run it with "make check-twovm", or:
#
#   tools/vm/run2 --tap selftests/mrc_twovm.sh selftests/mrc_twovm_b.sh
#
# Each VM has P (4) virtio-net NICs with Q (4) queue pairs; NIC i of A is
# linked to NIC i of B (multiqueue taps, see tools/vm/run2) and is the rail
# of plane i: 10.i.0.1 in A, 10.i.0.2 in B.  B listens and writes "b.ready"
# into the shared folder; A sends for MRC_TWOVM_SECS (10) seconds, takes
# rail 1 down at 3 s and up again at 6.5 s.  Checked:
#  - the transfer is intact (messages, bytes, hash equal at both ends);
#  - A transmitted on every TX queue of every NIC (ethtool -S deltas);
#  - B received on at least 2 RX queues of every NIC;
#  - the downed rail sent nothing while down, and carries data once up;
#  - mrc's rail counters (sysfs and mrcctl) agree with each other and with
#    the NIC's, in total and per queue.
# MRC_TWOVM_SECS: transfer time; MRC_TWOVM_XPS=keep|clear|onequeue: leave
# virtio_net's XPS maps in A, empty them, or map CPU c to TX queue c only.

. "$(dirname "$0")/mrc_twovm_lib.sh"

SECS=${MRC_TWOVM_SECS:-10}
tmp=$(mktemp -d)

# at MS: sleep until MS milliseconds after the transfer started.
at() {
	local d=$((T0 + $1 - $(now_ms))) ms

	[ $d -gt 0 ] || return 0
	printf -v ms %03d $((d % 1000))
	nap "$((d / 1000)).$ms"
}

# ctr I FILE: a counter of NIC I's netdevice (statistics/FILE), no fork.
ctr() {
	local v

	read -r v <"/sys/class/net/${NIC[$1]}/statistics/$2"
	echo "$v"
}

# mrctx I: mrc's tx_packets of rail I.
mrctx() {
	local v

	read -r v <"/sys/class/net/${NIC[$1]}/mrc_rail/tx_packets"
	echo "$v"
}

# near A B: A and B within 1 % + 10 of each other.
near() {
	local d=$(($1 - $2))

	[ $d -lt 0 ] && d=$((-d))
	[ $d -le $(($2 / 100 + 10)) ]
}

twovm_setup
check_eq "A: $P NICs with $Q queues each are the rails of mrc0 (${NIC[*]})" "" "$SETUP_ERR"
for ((i = 0; i < P; i++)); do
	tap_diag "A NIC $i: ${NIC[i]} $(ethtool -l "${NIC[i]}" 2>/dev/null |
		awk '/^Current/ { c = 1 } c && /^Combined/ { print "combined " $2 }'), ${RSS[i]}"
done

if ! wait_file "$SHARE/b.ready" 240; then
	tap_fail "B is listening" "$(cat "$SHARE/b.info" "$SHARE/b.out" 2>&1)"
	tap_end
fi
declare -A BI
load_snap "$SHARE/b.info" BI
check_eq "B: its NICs are the rails of mrc0" "" "${BI[setup_err]:-}"
for ((i = 0; i < P; i++)); do
	tap_diag "B NIC $i: ${BI[nic.$i]:-?}, ${BI[rss.$i]:-?}"
done
# The wiring: NIC i of A resolves 10.i.0.2 to the MAC of NIC i of B (no ping
# on the host; a datagram to the discard port starts ARP).
for ((i = 0; i < P; i++)); do
	echo x 2>/dev/null >"/dev/udp/10.$i.0.2/9"
done
bad=""
for ((i = 0; i < P; i++)); do
	for ((t = 0; t < 25; t++)); do
		mac=$(ip neigh show 10.$i.0.2 dev "${NIC[i]}" | awk '{ print $3 }')
		[ "$mac" = "52:54:00:0b:00:0$i" ] && break
		nap 0.2
	done
	[ "$mac" = "52:54:00:0b:00:0$i" ] || bad+=" ${NIC[i]}: 10.$i.0.2 is at '$mac';"
done
check_eq "NIC i of A reaches NIC i of B (ARP: the peer's MAC)" "" "$bad"
# The transmit packet steering maps (CPU -> TX queues) virtio_net set.
# MRC_TWOVM_XPS=clear empties them: the stack then picks the TX queue from
# the skb hash alone, as on a device without XPS.  MRC_TWOVM_XPS=onequeue
# maps CPU c to queue c only, as virtio_net does with as many CPUs as queues.
xps=""
for ((q = 0; q < Q; q++)); do
	read -r v 2>/dev/null <"/sys/class/net/${NIC[0]}/queues/tx-$q/xps_cpus" || v=none
	xps+=" tx-$q=$v"
done
tap_diag "A ${NIC[0]} XPS (queue=CPU mask):$xps; MRC_TWOVM_XPS=${MRC_TWOVM_XPS:-keep}"
case ${MRC_TWOVM_XPS:-keep} in
clear|onequeue)
	for ((i = 0; i < P; i++)); do
		for ((q = 0; q < Q; q++)); do
			v=0
			[ "$MRC_TWOVM_XPS" = onequeue ] && [ $q -lt "$(nproc)" ] && printf -v v %x $((1 << q))
			echo "$v" >"/sys/class/net/${NIC[i]}/queues/tx-$q/xps_cpus"
		done
	done ;;
esac

# ---- the transfer, rail $DOWN down and up in the middle -------------------------
f=${NIC[DOWN]}
snapshot >"$tmp/a.before"
mrcat -c 10.0.0.2 -p "$PORT" -D "$SECS" -s 16384 -t 120 -r "$tmp/connected" \
	>"$tmp/send.out" 2>"$tmp/send.err" &
spid=$!
for ((i = 0; i < 1000; i++)); do [ -e "$tmp/connected" ] && break; nap 0.02; done
T0=$(now_ms)
at 3000
ip link set dev "$f" down
at 3500
d0=$(ctr $DOWN tx_packets); m0=$(mrctx $DOWN)
at 6500
d1=$(ctr $DOWN tx_packets); m1=$(mrctx $DOWN)
ip link set dev "$f" up
at $((SECS * 1000 - 2500))
u0=$(ctr $DOWN tx_packets); o0=$(ctr 0 tx_packets)
at $((SECS * 1000 - 500))
u1=$(ctr $DOWN tx_packets); o1=$(ctr 0 tx_packets)
wait $spid
snapshot >"$tmp/a.after"
wait_file "$SHARE/b.done" 120 || tap_diag "B did not finish"

# ---- checks ----------------------------------------------------------------------------
send=$(tail -1 "$tmp/send.out")
recv=$(grep '^role=recv' "$SHARE/b.out" | tail -1)
sum='s/.*msgs=\([0-9]*\) bytes=\([0-9]*\) hash=\([0-9a-f]*\) errors=0.*/\1 \2 \3/p'
hs=$(sed -n "$sum" <<<"$send")
hr=$(sed -n "$sum" <<<"$recv")
if [ -n "$hs" ] && [ "$hs" = "$hr" ] && [ "${hs%% *}" -gt 0 ]; then
	tap_ok "transfer A -> B, ${SECS} s: ${hs#* } (messages, bytes, hash) identical at both ends"
	tap_diag "transfer: $(sed -n 's/.*\(elapsed_ms=.*\)/\1/p' <<<"$recv"); $(grep 'sender:' "$tmp/send.err")"
else
	tap_fail "transfer A -> B, ${SECS} s" "sender:   $send" "receiver: $recv" \
		"$(cat "$tmp/send.err" "$SHARE/b.out")"
fi

declare -A A0 A1 B0 B1
load_snap "$tmp/a.before" A0
load_snap "$tmp/a.after" A1
load_snap "$SHARE/b.before" B0
load_snap "$SHARE/b.after" B1
# d ARRAY0 ARRAY1 KEY: the delta of a counter.
d() {
	local -n _x=$1 _y=$2

	echo $((${_y[$3]:-0} - ${_x[$3]:-0}))
}

for ((i = 0; i < P; i++)); do
	# A: every TX queue of NIC i; B: how many RX queues of NIC i.
	txq="" zero=0 rxq="" used=0
	for ((q = 0; q < Q; q++)); do
		v=$(d A0 A1 nic.$i.tx.$q)
		txq+=" $v"
		[ "$v" -gt 0 ] || zero=$((zero + 1))
		[ -n "${A1[nic.$i.tx.$q]:-}" ] || zero=$((zero + 1))
		v=$(d B0 B1 nic.$i.rx.$q)
		rxq+=" $v"
		[ "$v" -gt 0 ] && used=$((used + 1))
	done
	check_eq "A ${NIC[i]}: every TX queue sent (packets per queue:$txq)" 0 "$zero"
	if [ "$Q" -ge 2 ]; then
		check "B ${BI[nic.$i]:-?}: received on >= 2 RX queues (packets per queue:$rxq)" \
			test "$used" -ge 2
	else
		tap_skip "B ${BI[nic.$i]:-?}: received on >= 2 RX queues" "one queue per NIC ($MRC_LINK link)"
	fi
done

check_eq "rail $DOWN ($f) down: it sent nothing (NIC $((d1 - d0)) packets, mrc $((m1 - m0)))" \
	"0 0" "$((d1 - d0)) $((m1 - m0))"
check "rail $DOWN back up: it carries data again ($((u1 - u0)) packets in 2 s, rail 0 $((o1 - o0)))" \
	test $((u1 - u0)) -gt 0 -a $(((u1 - u0) * 8)) -gt $((o1 - o0))

# mrc's counters against each other and against the driver's.
ctl="" tot="" perq_A="" perq_B=""
for ((i = 0; i < P; i++)); do
	for s in A B; do
		[ $s = A ] && dir=tx || dir=rx
		if [ $s = A ]; then
			m=$(d A0 A1 mrc.$i.$dir); c=$(d A0 A1 ctl.$i.$dir); n=$(d A0 A1 dev.$i.$dir)
		else
			m=$(d B0 B1 mrc.$i.$dir); c=$(d B0 B1 ctl.$i.$dir); n=$(d B0 B1 dev.$i.$dir)
		fi
		[ "$m" = "$c" ] || ctl+=" $s:$i:$dir sysfs $m mrcctl $c;"
		near "$m" "$n" || tot+=" $s:$i:$dir mrc $m NIC $n;"
		for ((q = 0; q < Q; q++)); do
			if [ $s = A ]; then
				m=$(d A0 A1 mrcq.$i.$dir.$q); n=$(d A0 A1 nic.$i.$dir.$q)
			else
				m=$(d B0 B1 mrcq.$i.$dir.$q); n=$(d B0 B1 nic.$i.$dir.$q)
			fi
			near "$m" "$n" || eval "perq_$s+=\" $i:q$q mrc $m NIC $n;\""
		done
	done
done
check_eq "mrc rail counters: sysfs and mrcctl agree (A tx, B rx)" "" "$ctl"
check_eq "mrc rail counters match the NICs' packet counts (A tx, B rx; 1 % + 10)" "" "$tot"
check_eq "B: mrc's per-RX-queue counters match the driver's (ethtool -S)" "" "$perq_B"
# mrc counts the queue its hash would pick (xmit.c); the stack picks the
# queue in netdev_pick_tx(), from the XPS map of the sending CPU first.
check_eq "A: mrc's per-TX-queue counters match the driver's (ethtool -S; XPS ${MRC_TWOVM_XPS:-keep})" \
	"" "$perq_A"
for s in A B; do
	line=""
	for ((i = 0; i < P; i++)); do
		[ $s = A ] && dir=tx || dir=rx
		line+=" | $i:"
		for ((q = 0; q < Q; q++)); do
			if [ $s = A ]; then
				line+=" $(d A0 A1 nic.$i.$dir.$q)/$(d A0 A1 mrcq.$i.$dir.$q)"
			else
				line+=" $(d B0 B1 nic.$i.$dir.$q)/$(d B0 B1 mrcq.$i.$dir.$q)"
			fi
		done
	done
	tap_diag "$s $dir packets per queue, NIC/mrc, per rail$line"
done

rm -rf "$tmp"
tap_end
