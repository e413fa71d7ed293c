#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the demo VM (tools/demo.sh): two hosts on a 4-plane
# leaf/spine fabric (2 spines per plane, ECMP by UDP source port), one mrc
# connection sprayed over every plane and spine, then one spine link of
# plane 0 black-holed silently (carrier up, every packet dropped): the
# connection's paths through it fail, get fresh entropy values, and the
# transfer continues; every byte is verified at the end.

. "$MRC_TOP/selftests/lib.sh"
set -u
mrc_load || exit 1	# loaded already; applies the emulation tuning (lib.sh)

SECS=${MRC_DEMO_SECS:-12}
F=demo HA=demo-hA HB=demo-hB
tmp=$(mktemp -d)

now_ms() { echo $((${EPOCHREALTIME/./} / 1000)); }
at() {
	local d=$((T0 + $1 - $(now_ms)))

	[ $d -gt 0 ] && sleep "$((d / 1000)).$(printf %03d $((d % 1000)))"
	return 0
}
conn_id() {
	mrcctl -n "$HA" conn show | awk '$3 == "established" { sub(":", "", $2); print $2; exit }'
}
# Per plane: window, in flight, and how many of its 32 paths are in each state.
planes() {
	mrcctl -n "$HA" conn show | awk '$1 == "plane" {
		printf "  plane %s  cwnd %7s  in-flight %7s  srtt %7s  paths: %s %s %s %s %s %s %s %s\n",
			$2, $4, $6, $8, $14, $15, $16, $17, $18, $19, $20, $21 }'
}
# Host A -> B bytes per plane and spine, as the spines count them.
spines() {
	local s p line

	for s in 0 1; do
		line="  spine $s:"
		for p in 0 1 2 3; do
			line+=$(printf "  plane %d %6d KiB" $p \
				$(($(ip netns exec $F-s$s cat /sys/class/net/a$p/statistics/rx_bytes) / 1024)))
		done
		echo "$line"
	done
}
# The paths of plane 0: EV, UDP source port, state, packets, losses, probes.
ev_table() {
	mrcctl -n "$HA" path show conn "$ID" | awk '
		NR == 1 { next }
		$4 == 0 { printf "  %5s %5s %-12s %7s pkts %3s lost %3s probes", $3, $5, $6, $8, $12, $14
			  if (++n % 2 == 0) printf "\n"; else printf "   |" }
		END { if (n % 2) printf "\n" }'
}

echo "== a 4-plane leaf/spine fabric: host A and host B, 4 rails each, 2 spines per plane"
mrc_fabric $F 4 2 || exit 1
mrcctl -n "$HA" dev show
echo
echo "== host A sends to host B for $SECS s: messages of 1 B .. 64 KiB, every byte verified"
ip netns exec "$HB" mrcat -l -p 5000 -m 0 -s 1-65536 -t 120 -r "$tmp/ready" \
	>"$tmp/recv.out" 2>"$tmp/recv.err" &
rpid=$!
for _ in $(seq 100); do [ -e "$tmp/ready" ] && break; sleep 0.05; done
ip netns exec "$HA" mrcat -c 10.0.2.1 -p 5000 -D "$SECS" -s 1-65536 -t 120 \
	-r "$tmp/connected" >"$tmp/send.out" 2>"$tmp/send.err" &
spid=$!
for _ in $(seq 200); do [ -e "$tmp/connected" ] && break; sleep 0.05; done
T0=$(now_ms)
at 2000
ID=$(conn_id)
echo
echo "== t=2s: connection $ID sprays over every plane (128 paths, 32 per plane)"
planes
echo "  bytes through each spine so far:"
spines
echo "  paths of plane 0 (EV, UDP source port, state):"
ev_table
at 3000
ip netns exec $F-s0 tc qdisc add dev b0 root netem loss 100%
echo
echo "== t=3s: spine 0's link towards host B on plane 0 now drops everything (carrier up)"
at 3400
echo
echo "== t=3.4s: the paths hashed onto the dead link were lost and are ASSUMED_BAD"
planes
ev_table
at 7000
echo
echo "== t=7s: every failing path got a fresh entropy value; plane 0 now avoids spine 0"
planes
ev_table
b0=$(ip netns exec $F-s0 cat /sys/class/net/a0/statistics/rx_bytes)
b1=$(ip netns exec $F-s1 cat /sys/class/net/a0/statistics/rx_bytes)
sleep 1
d0=$(($(ip netns exec $F-s0 cat /sys/class/net/a0/statistics/rx_bytes) - b0))
d1=$(($(ip netns exec $F-s1 cat /sys/class/net/a0/statistics/rx_bytes) - b1))
echo "  plane 0 in one second: $((d0 / 1024)) KiB into spine 0, $((d1 / 1024)) KiB into spine 1"
ip netns exec $F-s0 tc qdisc del dev b0 root
echo "  (spine 0's link healed)"
wait $spid
wait $rpid
echo
echo "== path state changes on host A's mrc0"
d=/sys/class/net/mrc0/mrc
ip netns exec "$HA" sh -c "cd $d && echo \"  to-bad \$(cat ev_to_bad)  replaced \$(cat ev_replaced)  to-skip \$(cat ev_to_skip)  to-good \$(cat ev_to_good)\""
echo
echo "== result"
echo "sender:   $(tail -1 "$tmp/send.out")"
echo "receiver: $(tail -1 "$tmp/recv.out")"
grep -h "mrcat: " "$tmp/send.err" "$tmp/recv.err"
s=$(sed -n 's/.*msgs=\([0-9]*\) bytes=\([0-9]*\) hash=\([0-9a-f]*\) errors=0.*/\1 \2 \3/p' "$tmp/send.out")
r=$(sed -n 's/.*msgs=\([0-9]*\) bytes=\([0-9]*\) hash=\([0-9a-f]*\) errors=0.*/\1 \2 \3/p' "$tmp/recv.out")
gap=$(sed -n 's/.*gap_ms=\([0-9]*\).*/\1/p' "$tmp/recv.out")
if [ -n "$s" ] && [ "$s" = "$r" ]; then
	s=${s#* }
	echo "OK: ${s% *} bytes over 4 planes and 8 spines, every message verified;"
	echo "    a silent spine failure bypassed, longest delivery gap ${gap} ms"
	exit 0
fi
echo "FAILED: the two ends disagree"
exit 1
