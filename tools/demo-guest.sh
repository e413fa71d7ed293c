#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the demo VM (tools/demo.sh): two hosts on a 4-plane
# leaf/spine fabric (2 spines per plane, ECMP by UDP source port; every
# rail shaped to MRC_DEMO_RATE Mbit/s, default 50, per packet; links of
# MTU MRC_DEMO_MTU, default 9000, as AI back-end fabrics run; RPS on every
# hop unless MRC_DEMO_RPS=0).  One
# mrc connection sprays over every plane and spine; once a second a table
# shows each plane's goodput, window and path states.  At t=4 s one spine
# link of plane 0 is black-holed silently (carrier up, every packet
# dropped): the paths through it fail, get fresh entropy values, and the
# transfer goes on; at t=10 s the link heals.  Then the same scenario for
# one TCP connection on plane 0 (its link is the one that fails).  Every
# byte is verified.  Time series go to $MRC_RESULTS for tools/demo-report.py
# (summary table and plot, run on the host).

. "$MRC_TOP/selftests/lib.sh"
set -u
mrc_load || exit 1	# loaded already; applies the emulation tuning (lib.sh)

SECS=${MRC_DEMO_SECS:-16}
RATE=${MRC_DEMO_RATE:-50}	# Mbit/s per rail
MTU=${MRC_DEMO_MTU:-9000}
FAIL_AT=4000 HEAL_AT=10000
F=demo HA=demo-hA HB=demo-hB
out=$MRC_RESULTS
tmp=$(mktemp -d)
rm -f "$out"/{mrc.trace,tcp.trace,planes.txt,events.txt}

# nap SECONDS: sleep without starting a process (each costs 0.1-0.5 s here).
mkfifo "$tmp/nap"
exec {NAPFD}<>"$tmp/nap"
nap() { read -r -t "$1" -u "$NAPFD"; return 0; }
now() { echo $((${EPOCHREALTIME/./} / 1000)); }
# at MS: wait until MS milliseconds after T0.
at() {
	local d=$((T0 + $1 - ${EPOCHREALTIME/./} / 1000)) ms

	[ $d -gt 0 ] || return 0
	printf -v ms %03d $((d % 1000))
	nap "$((d / 1000)).$ms"
}
event() { echo "$(now) $1" >>"$out/events.txt"; }
wait_file() {
	local i

	for ((i = 0; i < 400; i++)); do [ -e "$1" ] && return 0; nap 0.025; done
	return 1
}

conn_id() {
	mrcctl -n "$HA" conn show | awk '$3 == "established" { sub(":", "", $2); print $2; exit }'
}

# The paths of plane 0: EV, UDP source port, state, packets, losses, probes.
ev_table() {
	mrcctl -n "$HA" path show conn "$ID" | awk '
		NR == 1 { next }
		$4 == 0 { printf "  %5s %5s %-12s %7s pkts %3s lost %3s probes", $3, $5, $6, $8, $12, $14
			  if (++n % 2 == 0) printf "\n"; else printf "   |" }
		END { if (n % 2) printf "\n" }'
}

# last_line FILE: its last line, read with builtins
last_line() {
	local l line=

	[ -s "$1" ] && while IFS= read -r l; do line=$l; done <"$1"
	echo "$line"
}

# last_bytes FILE: the byte count of a trace's last line (0 if none).
last_bytes() {
	local line

	line=$(last_line "$1")
	echo "${line#* }"
}

# sampler: in host B, every 0.25 s, "EPOCH_MS B0 B1 B2 B3": bytes received
# per rail (mrc's own rail counters), appended to planes.txt.  One
# long-lived shell, builtins only.
sampler() {
	ip netns exec "$HB" bash -c '
		exec {fd}<>"$1"
		while :; do
			l=$((${EPOCHREALTIME/./} / 1000))
			for p in 0 1 2 3; do
				read -r v </sys/class/net/r$p/mrc_rail/rx_bytes
				l+=" $v"
			done
			echo "$l" >>"$2"
			read -r -t 0.25 -u $fd
		done' sampler "$tmp/nap2" "$out/planes.txt" &
	SAMPLER=$!
}
mkfifo "$tmp/nap2"

# scheduler PREFIX SPINE: fail spine SPINE's link to host B on plane 0 at
# FAIL_AT and heal it at HEAL_AT (ms after T0), in the background.
scheduler() {
	(
		at $FAIL_AT
		ip netns exec $F-s$2 tc qdisc add dev b0 root netem loss 100%
		event "$1fail"
		at $HEAL_AT
		ip netns exec $F-s$2 tc qdisc del dev b0 root
		event "$1heal"
	) &
	SCHED=$!
}

# has_event NAME: events.txt has it (builtins only)
has_event() {
	local t n

	while read -r t n; do [ "$n" = "$1" ] && return 0; done <"$out/events.txt"
	return 1
}

# ---- the live table ----------------------------------------------------------
# One row a second: total goodput (bytes delivered to the receiving
# application), then per plane the bytes host B received on that rail, its
# congestion window at host A and its paths good/skip/bad.
declare -A PREV
table_header() {
	printf '\n   t   goodput |'
	for p in 0 1 2 3; do printf '       plane %d        |' "$p"; done
	printf '\n   s    Mbit/s |'
	for p in 0 1 2 3; do printf ' Mbit/s  cwnd  G/ S/ B|'; done
	printf '\n'
}
table_row() {
	local w k v p plane line rx=() cwnd=() g=() s=() b=() bytes ms row

	while read -r -a w; do
		[ "${w[0]}" = plane ] || continue
		plane=${w[1]}
		for ((k = 2; k + 1 < ${#w[@]}; k++)); do
			v=${w[k + 1]}
			case ${w[k]} in
			cwnd) cwnd[plane]=$((v / 1024))k ;;
			good) g[plane]=$v ;;
			skip) s[plane]=$v ;;
			bad) b[plane]=$v ;;
			esac
		done
	done < <(mrcctl -n "$HA" conn show id "$ID" 2>/dev/null)
	line=$(last_line "$out/planes.txt")
	[ -n "$line" ] || return 0	# the sampler has not started yet
	read -r ms rx[0] rx[1] rx[2] rx[3] <<<"$line"
	bytes=$(last_bytes "$out/mrc.trace")
	printf -v row '%6.1f %7s |' "$(((ms - T0) / 1000)).$(((ms - T0) / 100 % 10))" \
		"$(mbit $((bytes - ${PREV[total]:-0})) $((ms - ${PREV[ms]:-$((ms - 1000))})))"
	for p in 0 1 2 3; do
		printf -v row '%s %6s %5s %2s/%2s/%2s|' "$row" \
			"$(mbit $((rx[p] - ${PREV[$p]:-${rx[p]}})) $((ms - ${PREV[ms]:-$((ms - 1000))})))" \
			"${cwnd[p]:--}" "${g[p]:--}" "${s[p]:--}" "${b[p]:--}"
		PREV[$p]=${rx[p]}
	done
	PREV[total]=$bytes
	PREV[ms]=$ms
	echo "$row"
}
# mbit BYTES MS: megabits per second, one decimal
mbit() {
	local ms=$2

	[ "$ms" -gt 0 ] || ms=1
	echo "$(($1 * 8 / ms / 1000)).$(($1 * 8 / ms / 100 % 10))"
}

# ---- mrc ---------------------------------------------------------------------
echo "== a 4-plane leaf/spine fabric: host A and host B, 4 rails each, 2 spines per plane"
mrc_fabric $F 4 2 || exit 1
mrc_fabric_mtu $F "$MTU" || exit 1
# RPS: every hop's receive work may run on either vCPU (by flow hash, so
# a flow's packets stay in order), as a router's cores share its ports;
# without it the sender's CPU forwards every hop of every packet.
if [ "${MRC_DEMO_RPS:-1}" = 1 ]; then
	for ns in $(mrc_fabric_ns $F); do
		# shellcheck disable=SC2016
		ip netns exec "$ns" sh -c 'for q in /sys/class/net/*/queues/rx-*/rps_cpus; do
			echo 3 >"$q"; done' 2>/dev/null
	done
fi
for ns in $HA $HB; do
	for p in 0 1 2 3; do mrc_shape r$p "$RATE" 0 "$MTU"; done | tc -n $ns -batch - || exit 1
done
mrcctl -n "$HA" dev show
ip netns exec "$HB" mrcat -l -p 5000 -m 0 -s 1-65536 -t 120 -r "$tmp/ready" \
	-T "$out/mrc.trace" >"$tmp/recv.out" 2>"$tmp/recv.err" &
rpid=$!
wait_file "$tmp/ready"
ip netns exec "$HA" mrcat -c 10.0.2.1 -p 5000 -D "$SECS" -s 1-65536 -t 120 \
	-r "$tmp/connected" >"$tmp/send.out" 2>"$tmp/send.err" &
spid=$!
wait_file "$tmp/connected"
T0=$(now)
event mrc-start
ID=$(conn_id)
echo
echo "== host A sends to host B for $SECS s over connection $ID: messages of"
echo "   1 B .. 64 KiB, every byte verified.  At t=$((FAIL_AT / 1000)) s spine 0's link to host B"
echo "   on plane 0 starts dropping everything (carrier up); at t=$((HEAL_AT / 1000)) s it heals."
echo "   Per plane: what host B received on that rail, host A's window and its"
echo "   32 paths good/skip/bad."
sampler
scheduler "" 0
table_header
failed= healed= before= after=
for ((t = 1000; ; t += 1000)); do
	at $t
	kill -0 $spid 2>/dev/null || break
	[ -n "$ID" ] || ID=$(conn_id)
	if [ -z "$failed" ] && has_event fail; then
		failed=1
		echo "  -- t=$((FAIL_AT / 1000)) s: spine 0's link to host B on plane 0 drops everything (silently)"
	fi
	if [ -z "$healed" ] && has_event heal; then
		healed=1
		echo "  -- t=$((HEAL_AT / 1000)) s: the link heals"
	fi
	table_row
	if [ -z "$before" ] && [ $t -ge $((FAIL_AT - 1500)) ]; then
		before=1
		echo "   paths of plane 0 before the failure (EV, UDP source port, state):"
		ev_table
		table_header
	fi
	if [ -n "$failed" ] && [ -z "$after" ] && [ $t -ge $((FAIL_AT + 3000)) ]; then
		after=1
		echo "   paths of plane 0 after the bypass: the failed ones have fresh EVs"
		ev_table
		table_header
	fi
done
wait $spid
wait $rpid
event mrc-end
kill $SAMPLER 2>/dev/null
wait $SCHED
echo
echo "== path state changes on host A's mrc0"
d=/sys/class/net/mrc0/mrc
ip netns exec "$HA" sh -c "cd $d && echo \"  to-bad \$(cat ev_to_bad)  replaced \$(cat ev_replaced)  to-skip \$(cat ev_to_skip)  to-good \$(cat ev_to_good)\""
echo "sender:   $(tail -1 "$tmp/send.out")"
echo "receiver: $(tail -1 "$tmp/recv.out")"
grep -h "mrcat: .*er:" "$tmp/send.err" "$tmp/recv.err"
cp "$tmp/send.out" "$out/mrc-send.out"
cp "$tmp/recv.out" "$out/mrc-recv.out"

# ---- TCP, the same scenario ---------------------------------------------------
# One TCP connection on plane 0 (host A's rail r0 to host B's r0).  The
# leaves hash it onto one spine; that spine's link fails as above.
echo
echo "== the same for one TCP connection on plane 0 ($SECS s; its spine link fails"
echo "   at t=$((FAIL_AT / 1000)) s and heals at t=$((HEAL_AT / 1000)) s)"
ip netns exec "$HB" python3 "$MRC_TOP/tools/demo-tcp.py" recv 5001 "$out/tcp.trace" \
	$((SECS + 20)) "$tmp/tcp-ready" >"$out/tcp-recv.out" 2>&1 &
rpid=$!
# Python starts in 1-3 s under TCG: connect once it listens.
wait_file "$tmp/tcp-ready" || { echo "FAILED: the TCP receiver did not start"; exit 1; }
s0=$(ip netns exec $F-s0 cat /sys/class/net/a0/statistics/rx_packets)
s1=$(ip netns exec $F-s1 cat /sys/class/net/a0/statistics/rx_packets)
ip netns exec "$HA" python3 "$MRC_TOP/tools/demo-tcp.py" send 10.0.2.1 5001 "$SECS" &
spid=$!
T0=$(now)
event tcp-start
at 2000
s0=$(($(ip netns exec $F-s0 cat /sys/class/net/a0/statistics/rx_packets) - s0))
s1=$(($(ip netns exec $F-s1 cat /sys/class/net/a0/statistics/rx_packets) - s1))
spine=0
[ $s1 -gt $s0 ] && spine=1
echo "  the leaves hashed it onto spine $spine ($s0 / $s1 packets via spine 0 / 1)"
scheduler tcp- $spine
wait $spid
wait $rpid
event tcp-end
wait $SCHED
echo "receiver: $(tail -1 "$out/tcp-recv.out")"

s=$(sed -n 's/.*msgs=\([0-9]*\) bytes=\([0-9]*\) hash=\([0-9a-f]*\) errors=0.*/\1 \2 \3/p' "$out/mrc-send.out")
r=$(sed -n 's/.*msgs=\([0-9]*\) bytes=\([0-9]*\) hash=\([0-9a-f]*\) errors=0.*/\1 \2 \3/p' "$out/mrc-recv.out")
if [ -n "$s" ] && [ "$s" = "$r" ]; then
	echo "mrc: both ends agree (messages, bytes, hash): $s"
	exit 0
fi
echo "FAILED: the two ends of the mrc connection disagree"
exit 1
