#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mrc_fabric.sh - multipath on a leaf/spine fabric where paths really
# differ (lib.sh mrc_fabric: 2 hosts, P planes, 2 spines per plane, ECMP
# with L4 hashing at the leaves).
#
#  - the fabric itself spreads UDP flows by source port (IPv4 and IPv6);
#  - P = 2 and P = 4: one connection sprays over every plane and every
#    spine (spine link counters) and uses every one of its EVs;
#  - a spine link black-holed silently (netem loss 100 %, carrier up)
#    mid-transfer: EVs become ASSUMED_BAD, the link carries (almost)
#    nothing, the transfer goes on intact; healed, the EVs return by probes;
#  - a whole plane black-holed silently: its packets are declared lost
#    (not left to the retransmission timeout), its EVs ASSUMED_BAD;
#  - a spine link marking CE: EVs go SKIP, the link carries less than its
#    twin, nothing is dropped;
#  - a spine link trimming packets (tc BPF, mrc_trim.bpf.c): the receiver
#    NACKs each, the sender resends each at once, the EVs go SKIP;
#  - a rail taken down, and a rail detached, mid-transfer: traffic moves
#    to the other planes, nothing is lost; back up / re-attached, the rail
#    carries data again.
# Every transfer is checked end to end by mrcat (count, bytes, hash).

. "$(dirname "$0")/lib.sh"

mrc_load
tmp=$(mktemp -d)
# Volume thresholds assume the stock kernel's speed; KASAN under TCG is
# about ten times slower.
DIV=1
[ "${MRC_KERNEL:-stock}" = debug ] && DIV=10
port=7100
F=mf
HA=$F-hA HB=$F-hB

# ---- helpers -------------------------------------------------------------------

# spine_ctr S IF FIELD: a counter of interface IF of spine S.
spine_ctr() {
	ip netns exec "$F-s$1" cat "/sys/class/net/$2/statistics/$3"
}

# rail_tx NAME: tx_packets of host A's rail NAME.
rail_tx() {
	ip netns exec "$HA" cat "/sys/class/net/$1/statistics/tx_packets"
}

# evtrans NAME: a path transition total of host A's mrc0.
evtrans() {
	ip netns exec "$HA" cat "/sys/class/net/mrc0/mrc/$1"
}

# start_xfer SECONDS [-6]: a timed transfer A -> B in the background.
start_xfer() {
	local secs=$1 addr=10.0.2.1 i

	[ "$2" = -6 ] && addr=fd10:0:2::1
	port=$((port + 1))
	rm -f "$tmp/ready"
	ip netns exec "$HB" mrcat -l -p $port -m 0 -s 16384 -t 60 -r "$tmp/ready" \
		>"$tmp/recv.out" 2>"$tmp/recv.err" &
	RPID=$!
	for ((i = 0; i < 200; i++)); do [ -e "$tmp/ready" ] && break; nap 0.05; done
	rm -f "$tmp/connected"
	ip netns exec "$HA" mrcat -c $addr -p $port -D "$secs" -s 16384 -t 60 \
		-r "$tmp/connected" >"$tmp/send.out" 2>"$tmp/send.err" &
	SPID=$!
	# The clock starts at the connection (process start-up is slow).
	for ((i = 0; i < 1000; i++)); do [ -e "$tmp/connected" ] && break; nap 0.02; done
	T0=$((${EPOCHREALTIME/./} / 1000))
}


# at MS: sleep until MS milliseconds after the transfer started.
at() {
	local d=$((T0 + $1 - ${EPOCHREALTIME/./} / 1000)) ms

	[ $d -gt 0 ] || return 0
	printf -v ms %03d $((d % 1000))
	nap "$((d / 1000)).$ms"
	return 0
}

# end_xfer NAME: wait; both ends must agree on count, bytes and hash.
end_xfer() {
	local name=$1 send recv hs hr

	wait $SPID
	wait $RPID
	send=$(tail -1 "$tmp/send.out")
	recv=$(tail -1 "$tmp/recv.out")
	hs=$(sed -n 's/.*msgs=\([0-9]*\) bytes=\([0-9]*\) hash=\([0-9a-f]*\) errors=0.*/\1 \2 \3/p' <<<"$send")
	hr=$(sed -n 's/.*msgs=\([0-9]*\) bytes=\([0-9]*\) hash=\([0-9a-f]*\) errors=0.*/\1 \2 \3/p' <<<"$recv")
	if [ -n "$hs" ] && [ "$hs" = "$hr" ] && [ "${hs%% *}" -gt 0 ]; then
		tap_ok "$name: ${hs#* } (messages, bytes, hash) identical at both ends"
		tap_diag "$name: $(sed -n 's/.*\(elapsed_ms=.*\)/\1/p' <<<"$recv")"
	else
		tap_fail "$name" "sender:   $send" "receiver: $recv" \
			"$(cat "$tmp/send.err" "$tmp/recv.err")"
	fi
	RECV=$recv
}

# paths: the paths of host A's established connection,
# "plane state pkts ecn-echoes nacks".
paths() {
	local id

	id=$(mrcctl -n "$HA" conn show | awk '$3 == "established" { sub(":", "", $2); print $2; exit }')
	[ -n "$id" ] || { echo "no established connection" >&2; return 1; }
	mrcctl -n "$HA" path show conn "$id" | awk 'NR > 1 && NF >= 14 { print $4, $6, $8, $11, $13 }'
}

# spread P: UDP datagrams with 64 source ports from A to B on plane P must
# cross every spine (both families).
spread() {
	local p=$1 fam=$2 dst=10.$1.2.1 s before=() d ok=1 out=""

	[ "$fam" = 6 ] && dst=fd10:$p:2::1
	for s in "${SPINES[@]}"; do before[s]=$(spine_ctr "$s" "a$p" rx_packets); done
	ip netns exec "$HA" bash -c "for i in {1..64}; do echo x >/dev/udp/$dst/9; done" 2>/dev/null
	for s in "${SPINES[@]}"; do
		d=$(($(spine_ctr "$s" "a$p" rx_packets) - before[s]))
		out+="spine $s: $d "
		[ "$d" -ge 8 ] || ok=0
	done
	check_eq "fabric: IPv$fam UDP flows of plane $p spread over the spines ($out)" 1 $ok
}

# bytes_via S IF: a spine link's rx_bytes (aP: data A->B; the ECMP hash is
# symmetric, so bP receives the ACKs of the same EVs).
bytes_via() { spine_ctr "$1" "$2" rx_bytes; }

# ---- the debug kernel: failover paths under KASAN/lockdep/kmemleak --------------
# Process start-up takes seconds there, so the timed measurements below
# would miss their windows: it runs each failure once during a verified
# transfer and checks that the paths reacted and nothing was lost.
if [ "${MRC_KERNEL:-stock}" = debug ]; then
	SPINES=(0 1)
	mrc_fabric $F 4 2 || { tap_fail "build a 4-plane fabric"; tap_end; }
	tap_ok "built a 4-plane, 2-spine fabric"
	spread 0 4
	bad0=$(evtrans ev_to_bad)
	start_xfer 12
	at 2000
	ip netns exec $F-s0 tc qdisc add dev b0 root netem loss 100%
	at 5000
	ip netns exec $F-s0 tc qdisc del dev b0 root
	ip -n "$HA" link set r1 down
	at 7000
	ip -n "$HA" -batch - <<<"link set r1 up
route replace 10.1.2.0/24 via 10.1.1.254 dev r1"
	ip -n "$HA" link set r2 nomaster
	at 9000
	ip -n "$HA" link set r2 master mrc0
	end_xfer "black hole, rail down/up, detach/attach: 12 s transfer"
	check "paths went assumed-bad ($(($(evtrans ev_to_bad) - bad0)))" \
		test "$(evtrans ev_to_bad)" -gt "$bad0"
	tap_skip "timed per-path and per-spine measurements" "they measure time: make check runs them on the stock kernel; the debug kernel checks memory and locking"
	tap_end
fi

# ---- P = 2 -------------------------------------------------------------------------

SPINES=(0 1)
mrc_fabric $F 2 2 || { tap_fail "build a 2-plane fabric"; tap_end; }
tap_ok "built a 2-plane, 2-spine fabric"
spread 0 4
spread 1 4
spread 0 6

declare -A b0
for p in 0 1; do for s in 0 1; do b0[$s.$p]=$(bytes_via $s a$p); done; done
start_xfer 4
end_xfer "2 planes: 4 s transfer"
out=""; ok=1
for p in 0 1; do for s in 0 1; do
	d=$(($(bytes_via $s a$p) - b0[$s.$p]))
	out+="p$p/s$s $((d / 1024))k "
	[ $d -gt $((1000000 / DIV)) ] || ok=0
done; done
check_eq "2 planes: every plane and spine carried data ($out)" 1 $ok

start_xfer 3 -6
end_xfer "2 planes, IPv6: 3 s transfer"

# Device tunables reach new connections at both ends: 8 paths per plane,
# round-robin spraying.
for h in "$HA" "$HB"; do mrcctl -n "$h" dev set mrc0 evs-per-plane 8 spray rr; done
start_xfer 3
at 2000
paths >"$tmp/paths"
end_xfer "2 planes, 8 paths each, round-robin: 3 s transfer"
for h in "$HA" "$HB"; do mrcctl -n "$h" dev set mrc0 evs-per-plane 32 spray mrc; done
check_eq "evs-per-plane 8: both ends have 16 paths" "paths=16 paths=16" \
	"$(grep -ho 'paths=[0-9]*' "$tmp/send.err" "$tmp/recv.err" | xargs)"
read -r n lo hi < <(awk '{ n++; if (!lo || $3 < lo) lo = $3; if ($3 > hi) hi = $3 }
	END { print n + 0, lo + 0, hi + 0 }' "$tmp/paths")
check "round-robin: all 16 paths carried packets ($lo..$hi per path)" \
	test "$n" -eq 16 -a "$lo" -gt 0

ip netns del $HA; ip netns del $HB
for n in lA lB s0 s1; do ip netns del $F-$n; done

# ---- P = 4 -------------------------------------------------------------------------

mrc_fabric $F 4 2 || { tap_fail "build a 4-plane fabric"; tap_end; }
tap_ok "built a 4-plane, 2-spine fabric"
spread 3 4

# Spraying: every plane, every spine, every EV.
for p in 0 1 2 3; do for s in 0 1; do b0[$s.$p]=$(bytes_via $s a$p); done; done
start_xfer 5
at 3500
paths >"$tmp/paths"
end_xfer "4 planes: 5 s transfer"
out=""; ok=1
for p in 0 1 2 3; do for s in 0 1; do
	d=$(($(bytes_via $s a$p) - b0[$s.$p]))
	out+="p$p/s$s $((d / 1024))k "
	[ $d -gt $((500000 / DIV)) ] || ok=0
done; done
check_eq "4 planes: every plane and spine carried data ($out)" 1 $ok
n=$(wc -l <"$tmp/paths")
used=$(awk '$3 > 0' "$tmp/paths" | wc -l)
planes=$(awk '{ print $1 }' "$tmp/paths" | sort -u | wc -l)
check_eq "4 planes: 128 paths, 32 per plane" "128 4" "$n $planes"
check_eq "4 planes: every path carried packets" "$n" "$used"

# Black hole: spine 0's link to leaf B on plane 0 drops everything silently.
# With the default replacement, failing EVs are given fresh EVs until all
# of plane 0 hashes onto spine 1.
bad0=$(evtrans ev_to_bad); rep0=$(evtrans ev_replaced)
start_xfer 8
at 2000
ip netns exec $F-s0 tc qdisc add dev b0 root netem loss 100%
at 4000
h0=$(bytes_via 0 a0); h1=$(bytes_via 1 a0)
at 6000
d0=$(($(bytes_via 0 a0) - h0)); d1=$(($(bytes_via 1 a0) - h1))
paths >"$tmp/paths"
ip netns exec $F-s0 tc qdisc del dev b0 root
end_xfer "black hole: 8 s transfer"
tap_diag "black hole: longest delivery gap $(sed -n 's/.*gap_ms=\([0-9]*\).*/\1/p' <<<"$RECV") ms"
check "black hole: paths went assumed-bad ($(($(evtrans ev_to_bad) - bad0))) and were replaced ($(($(evtrans ev_replaced) - rep0)))" \
	test "$(evtrans ev_to_bad)" -gt "$bad0" -a "$(evtrans ev_replaced)" -gt "$rep0"
check "black hole: the dead link is bypassed (plane 0, 2 s: $((d0 / 1024))k via spine 0, $((d1 / 1024))k via spine 1)" \
	test $((d0 * 20)) -lt "$d1"
# (a replaced EV hashes onto the dead link again with probability 1/2 and
# needs another round of failed probes: a few may still be on their way)
good=$(awk '$1 == 0 && $2 == "good"' "$tmp/paths" | wc -l)
check "black hole: plane 0 is good again 4 s after the failure ($good of 32 paths good, at least 24)" \
	test "$good" -ge 24

# The same without replacement: the EVs on the dead link stay assumed-bad,
# and come back by probes when it heals.
echo 0 >/sys/module/mrc/parameters/ev_replace_after
good0=$(evtrans ev_to_good)
start_xfer 11
at 1500
ip netns exec $F-s0 tc qdisc add dev b0 root netem loss 100%
at 3500
paths >"$tmp/paths1"
mrcctl -n "$HA" -j conn show >"$tmp/conn1.json"
h0=$(bytes_via 0 a0)
at 5000
d0=$(($(bytes_via 0 a0) - h0))
ip netns exec $F-s0 tc qdisc del dev b0 root
# The path dump after the window: under load a dump can take longer than
# the window, which then measured nothing on either spine (seen once).
at 7000
h2=$(bytes_via 0 a0); h3=$(bytes_via 1 a0)
at 8500
d2=$(($(bytes_via 0 a0) - h2)); d3=$(($(bytes_via 1 a0) - h3))
paths >"$tmp/paths2"
end_xfer "black hole, no replacement: 11 s transfer"
echo 8 >/sys/module/mrc/parameters/ev_replace_after
bad=$(awk '$1 == 0 && $2 == "assumed-bad"' "$tmp/paths1" | wc -l)
good=$(awk '$1 == 0 && $2 == "good"' "$tmp/paths1" | wc -l)
check "black hole: plane 0 paths on the dead link assumed-bad ($bad), the others good ($good)" \
	test "$bad" -gt 0 -a "$good" -gt 0 -a $((bad + good)) -eq 32
check "black hole: the dead link carries (almost) nothing ($((d0 / 1024))k in 1.5 s)" \
	test "$d0" -lt 200000
# conn show's per-plane losses: plane 0 (the black hole) lost more than
# the other planes together (a busy host may still make loss detection
# take a late packet for a lost one now and then).
losses=$(python3 -c '
import json, sys
c = [c for c in json.load(open(sys.argv[1])) if c.get("state") == "established"][0]
p = {x["plane"]: x["losses"] for x in c["per_plane"]}
ok = sorted(p) == [0, 1, 2, 3] and p[0] > sum(v for k, v in p.items() if k)
print("ok" if ok else "bad", " ".join("%d:%d" % x for x in sorted(p.items())))
' "$tmp/conn1.json" 2>&1)
check_eq "black hole: conn show counts plane 0's losses above the others' (plane:losses ${losses#* })" \
	ok "${losses%% *}"
check_eq "healed: no assumed-bad path left on plane 0" 0 \
	"$(awk '$1 == 0 && $2 == "assumed-bad"' "$tmp/paths2" | wc -l)"
check "healed: paths came back to good by probes ($(($(evtrans ev_to_good) - good0)))" \
	test "$(evtrans ev_to_good)" -ge $((good0 + bad))
# (relative to spine 1 in the same 1.5 s: a busy host moves less in all)
check "healed: spine 0 carries plane 0 again ($((d2 / 1024))k in 1.5 s against $((d3 / 1024))k via spine 1, $((d0 / 1024))k while dead)" \
	test "$d2" -gt 0 -a $((d2 * 8)) -gt "$d3" -a "$d2" -gt $((4 * d0))

# A whole plane dies silently: leaf B's port towards host B on plane 2
# drops everything (one command: both spines at once), the rail's carrier
# stays up and the ACKs of plane 2 still come back.  Nothing of plane 2
# arrives, so its packets are not late against plane 2's newest delivery
# (loss detection compares with the packet's own plane): the rule for a
# plane that delivered before and has gone silent must declare them lost,
# before the retransmission timeout (the other planes keep re-arming it
# until the window is full behind plane 2's packets).  Without
# replacement, its paths stay assumed-bad.  A timeout assumes bad only
# the path of the oldest packet; so paths assumed bad beyond the number
# of timeouts are loss detection's work.  (The timeouts themselves are
# not bounded: with two VMs on two cores, a guest descheduled for tens
# of ms fires its timer before it reads the ACKs that came meanwhile:
# 0-1 in one VM, 1-19 in two, including runs where detection had the
# whole plane by itself.)
echo 0 >/sys/module/mrc/parameters/ev_replace_after
start_xfer 6
at 1400
mrcctl -n "$HA" -j conn show >"$tmp/conn2.json"
ip netns exec $F-lB tc qdisc add dev h2 root netem loss 100%
at 3500
paths >"$tmp/paths3"
mrcctl -n "$HA" -j conn show >"$tmp/conn3.json"
ip netns exec $F-lB tc qdisc del dev h2 root
end_xfer "plane 2 dead: 6 s transfer"
echo 8 >/sys/module/mrc/parameters/ev_replace_after
read -r lost rtos spur < <(python3 -c '
import json, sys
def get(f):
    c = [c for c in json.load(open(f)) if c.get("state") == "established"][0]
    return ({x["plane"]: x["losses"] for x in c["per_plane"]}.get(2, 0), c["tx"]["rto"],
            c["tx"]["spurious"])
(l0, r0, s0), (l1, r1, s1) = get(sys.argv[1]), get(sys.argv[2])
print(l1 - l0, r1 - r0, s1 - s0)
' "$tmp/conn2.json" "$tmp/conn3.json" 2>&1)
[[ "$lost $rtos $spur" =~ ^[0-9]+\ [0-9]+\ [0-9]+$ ]] || { lost=0 rtos=99; }
check "plane 2 dead: its packets declared lost (2 s: $lost of plane 2, at least 10; $rtos timeouts, $spur spurious)" \
	test "$lost" -ge 10
bad=$(awk '$1 == 2 && $2 == "assumed-bad"' "$tmp/paths3" | wc -l)
check "plane 2 dead: loss detection, not the timeout, assumed its paths bad ($bad of 32 bad, $rtos timeouts; at least 16 beyond them)" \
	test $((bad - rtos)) -ge 16

# ECN: spine 0's link to leaf B on plane 1 marks CE instead of dropping
# (netem counts marks as "dropped"; a loss would show as retransmissions).
# The EVs that saw echoes are the ones through spine 0; with a hold much
# longer than the time between two uses of one EV, SKIP shows. One EV of
# 32 per plane carries a packet every 100-150 ms here (40-60 in the 6 s),
# a marked one about 5 between two echoes: a 200 ms hold left it 0.71-0.81
# of an unmarked one's share, against the 0.8 bound (CI failed at 0.81 of
# the totals, 38 against 48 packets per path).  A 1 s hold: 0.2-0.5.
skip0=$(evtrans ev_to_skip)
echo 1000000 >/sys/module/mrc/parameters/ev_skip_hold_us
ip netns exec $F-s0 tc qdisc add dev b1 root netem loss 20% ecn
start_xfer 7
at 5000
paths >"$tmp/paths"
mrcctl -n "$HA" -j conn show >"$tmp/conn.json"
end_xfer "ECN: 7 s transfer"
echo 1000 >/sys/module/mrc/parameters/ev_skip_hold_us
marks=$(ip netns exec $F-s0 tc -s qdisc show dev b1 | sed -n 's/.*dropped \([0-9]*\).*/\1/p' | head -1)
ip netns exec $F-s0 tc qdisc del dev b1 root
check "ECN: paths went skip ($(($(evtrans ev_to_skip) - skip0)) times, $marks packets marked)" \
	test "$(evtrans ev_to_skip)" -gt "$skip0" -a "${marks:-0}" -gt 0
read -r nm pm nu pu < <(awk '$1 == 1 { if ($4 > 0) { nm++; pm += $3 } else { nu++; pu += $3 } }
	END { print nm + 0, pm + 0, nu + 0, pu + 0 }' "$tmp/paths")
check "ECN: marked paths carried less ($nm paths: $((pm / (nm ? nm : 1))) pkts each; unmarked $nu: $((pu / (nu ? nu : 1))))" \
	test "$nm" -gt 0 -a "$nu" -gt 0 -a $((pm * nu * 10)) -lt $((pu * nm * 8))
# The per-plane counters of conn-get: every plane completed rounds, and
# plane 1 (the marking link) cut its window for ECN more than twice as
# often as the others together.  (Not "only plane 1": the ACKs carry the
# connection's CE count, and an ACK of another plane that overtakes the
# marked trigger's ACK brings the increase to its own plane.)
cuts=$(python3 -c '
import json, sys
c = [c for c in json.load(open(sys.argv[1])) if c.get("state") == "established"][0]
p = [(x["plane"], x["rounds"], x["ecn_cuts"]) for x in c["per_plane"]]
e1 = sum(e for n, r, e in p if n == 1)
ok = sorted(x[0] for x in p) == [0, 1, 2, 3] and e1 > 0 and \
     all(r > 0 and e <= r for n, r, e in p) and \
     e1 > 2 * sum(e for n, r, e in p if n != 1)
print("ok" if ok else "bad", " ".join("%d:%d:%d" % x for x in p))
' "$tmp/conn.json" 2>&1)
check_eq "ECN: conn show counts ECN cuts on plane 1 above all, rounds on every plane (plane:rounds:ecn-cuts ${cuts#* })" \
	ok "${cuts%% *}"
tx=$(sed -n 's/.*sender:.* tx_pkts=\([0-9]*\) retrans=\([0-9]*\).*/\1 \2/p' "$tmp/send.err")
spur=$(sed -n 's/.*sender:.* spurious=\([0-9]*\).*/\1/p' "$tmp/send.err")
# (RTT jitter makes timer-based loss detection fire spuriously now and
# then: 0.2-0.6 % of packets on a busy host, more on the debug kernel;
# 20 % of the packets through that link are marked).  Losses, not
# retransmissions, are counted: a stall of the VM (172 ms once) made
# loss detection resend whole windows whose first copies arrived after
# all (10650 retransmissions of 90307 packets), which the sender counts
# as spurious.
lim=100
[ "${MRC_KERNEL:-stock}" = debug ] && lim=10
check "ECN: no loss (retransmissions/packets: ${tx#* }/${tx% *}, ${spur:-0} of them spurious; the others at most 1/$lim)" \
	test $((${tx#* } - ${spur:-0})) -le $((${tx% *} / lim))

# Trimming: spine 0's link to leaf B on plane 3 cuts the payload of one
# DATA packet in four and forwards the headers, as a congested Ultra
# Ethernet switch does (tc BPF program selftests/mrc_trim.bpf.c).
trim=$(dirname "$0")/mrc_trim.bpf.o
if [ ! -e "$trim" ]; then
	tap_fail "trimming: selftests/mrc_trim.bpf.o is not built (make tools; needs clang-14)"
else
	skip0=$(evtrans ev_to_skip)
	trim0=$(ip netns exec "$HB" cat /sys/class/net/mrc0/mrc_drops/trimmed)
	# (the same 1 s hold as for ECN above: a NACK comes about one packet
	# in four, so 200 ms would leave these paths near the 0.8 bound too)
	echo 1000000 >/sys/module/mrc/parameters/ev_skip_hold_us
	ip netns exec $F-s0 tc qdisc add dev b3 clsact
	ip netns exec $F-s0 tc filter add dev b3 egress bpf da obj "$trim" sec trim/quarter
	start_xfer 6
	at 5000
	paths >"$tmp/paths"
	end_xfer "trimming: 6 s transfer"
	echo 1000 >/sys/module/mrc/parameters/ev_skip_hold_us
	ip netns exec $F-s0 tc qdisc del dev b3 clsact
	trimmed=$(($(ip netns exec "$HB" cat /sys/class/net/mrc0/mrc_drops/trimmed) - trim0))
	read -r nn pn nu pu nacks < <(awk '$1 == 3 { if ($5 > 0) { nn++; pn += $3; k += $5 } else { nu++; pu += $3 } }
		END { print nn + 0, pn + 0, nu + 0, pu + 0, k + 0 }' "$tmp/paths")
	retrans=$(sed -n 's/.*sender:.* retrans=\([0-9]*\).*/\1/p' "$tmp/send.err")
	check "trimming: B dropped trimmed packets and NACKed them ($trimmed trimmed; $nacks NACKs on A's plane-3 paths)" \
		test "$trimmed" -gt 0 -a "$nacks" -gt 0
	check "trimming: every trimmed packet was sent again ($retrans retransmissions for $trimmed)" \
		test "${retrans:-0}" -ge "$trimmed"
	check "trimming: NACKed paths went skip ($(($(evtrans ev_to_skip) - skip0)) times)" \
		test "$(evtrans ev_to_skip)" -gt "$skip0"
	check "trimming: NACKed paths carried less ($nn paths: $((pn / (nn ? nn : 1))) pkts each; the others $nu: $((pu / (nu ? nu : 1))))" \
		test "$nn" -gt 0 -a "$nu" -gt 0 -a $((pn * nu * 10)) -lt $((pu * nn * 8))
fi

# Rail down and up.
start_xfer 8
at 2000
ip -n "$HA" link set r1 down
at 2500
t0=$(rail_tx r1)
at 4000
t1=$(rail_tx r1)
# (down removed the static route; the fabric's "routing daemon" puts it back)
ip -n "$HA" -batch - <<<"link set r1 up
route replace 10.1.2.0/24 via 10.1.1.254 dev r1"
at 6000
t2=$(rail_tx r1); u2=$(rail_tx r0)
at 7500
t3=$(rail_tx r1); u3=$(rail_tx r0)
end_xfer "rail down: 8 s transfer"
check_eq "rail down: r1 sent nothing while down" 0 $((t1 - t0))
check "rail up: r1 carries data again ($((t3 - t2)) packets in 1.5 s, r0 $((u3 - u2)))" \
	test $((t3 - t2)) -gt 0 -a $(((t3 - t2) * 8)) -gt $((u3 - u2))

# Rail detach and re-attach.
start_xfer 10
at 2000
ip -n "$HA" link set r2 nomaster
at 2500
t0=$(rail_tx r2)
at 4000
t1=$(rail_tx r2)
ip -n "$HA" link set r2 master mrc0
plane=$(mrcctl -n "$HA" rail show r2 | sed -n 's/.* plane \([0-9]*\) .*/\1/p' | head -1)
at 6000
t2=$(rail_tx r2); u2=$(rail_tx r0)
at 7500
t3=$(rail_tx r2); u3=$(rail_tx r0)
end_xfer "rail detach: 10 s transfer"
check "rail detach: r2 sent (almost) nothing while detached ($((t1 - t0)))" test $((t1 - t0)) -lt 5
check_eq "re-attached on its plane" 2 "$plane"
check "re-attached: r2 carries data again ($((t3 - t2)) packets in 1.5 s, r0 $((u3 - u2)))" \
	test $((t3 - t2)) -gt 0 -a $(((t3 - t2) * 8)) -gt $((u3 - u2))

tap_end
