#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mrc_hostile.sh - a hostile peer and an off-path attacker against host B
# while a legitimate timed transfer A -> B runs: every kind of
# tools/mrcinject is fired, and each must be dropped and counted under
# its own reason (mrc0 and the rail it came in on, exactly one per
# packet), without touching the transfer (identical hashes, same
# connection id).  Then: the REQ flood's half-open connections are
# bounded (per listener: its backlog; per device: 1024) and expire; a
# RESET with both ids from the peer does kill (the guard is precise);
# replies are at most one small packet per packet received; memory is
# flat across a 100k-packet garbage flood.
#
#   attacker 10.99.0.2 --x0--xa-- A (forwards) 10.0.0.1 a0 ==== b0 10.0.0.2 B
#                                              10.1.0.1 a1 ==== b1 10.1.0.2
#
# The attacker's packets reach B on its plane-0 rail b0 from a non-peer
# address; the hostile peer's (window, huge, bad-ack, some reset-other
# and bad-source variants) are sent from A's own rail address 10.0.0.1 by
# a plain UDP socket, with the real connection ids (mrcctl conn show).
# B's replies to the attacker go to its UDP port 4796, which is closed:
# the attacker's UdpNoPorts counts every reply that reaches it.

. "$(dirname "$0")/lib.sh"

PATH=$MRC_TOP/tools/mrcinject:$PATH
mrc_load
tmp=$(mktemp -d)
NA=mh-a
NB=mh-b
NX=mh-attacker
PORT=7000	# the transfer's mrc port (mrcat, backlog 16)
BIGPORT=7100	# a listener with backlog 4096 that never accepts
XFER_S=${MRC_HOSTILE_XFER_S:-24}
N=${MRC_HOSTILE_N:-100}
FLOOD=${MRC_HOSTILE_FLOOD:-100000}

if ! command -v mrcinject >/dev/null; then
	tap_skip "mrc_hostile" "tools/mrcinject/mrcinject not built (make tools)"
	tap_end
fi

# ---- topology ----------------------------------------------------------------
mrc_pair $NA $NB 2 || { tap_fail "topology: mrc_pair"; tap_end; }
ns_create $NX
ip link add xa netns $NA type veth peer name x0 netns $NX
ip -n $NA addr add 10.99.0.1/24 dev xa
ip -n $NA link set xa up
ip netns exec $NA sh -c 'echo 1 >/proc/sys/net/ipv4/ip_forward'
ip -n $NX addr add 10.99.0.2/24 dev x0
ip -n $NX link set x0 up
ip -n $NX route add default via 10.99.0.1
ip -n $NB route add 10.99.0.0/24 via 10.0.0.1 dev b0
# A process living in the attacker's namespace: its /proc/PID/net/snmp
# gives the attacker's UDP counters without entering the namespace.
ip netns exec $NX sleep 1000 &
APID=$!

cleanup() {
	local p

	for p in "$APID" "$BIGPID" "$RPID" "$SPID"; do
		[ -n "$p" ] && kill "$p" 2>/dev/null
	done
	wait 2>/dev/null
	rm -rf "$tmp"
	_ns_cleanup
}
trap cleanup EXIT

# ---- counters ----------------------------------------------------------------
declare -A S P

# snap: B's drop counters (mrc0 and rail b0), b0's traffic and the
# attacker's UdpNoPorts into S[], keyed "mrc0/mrc_drops/no-conn",
# "b0/mrc_rail/tx_packets", "atk/noports", ...
snap() {
	local line key

	S=()
	while IFS= read -r line; do
		key=${line%:*}
		S[${key#/sys/class/net/}]=${line##*:}
	done < <(ip netns exec $NB sh -c "
		grep -H . /sys/class/net/mrc0/mrc_drops/* /sys/class/net/b0/mrc_rail/drops/* \
			/sys/class/net/mrc0/mrc/rx_dropped /sys/class/net/mrc0/mrc/rx_packets \
			/sys/class/net/b0/mrc_rail/tx_packets /sys/class/net/b0/mrc_rail/tx_bytes \
			/sys/class/net/b0/mrc_rail/rx_packets /sys/class/net/b0/mrc_rail/rx_bytes
		awk '/^Udp:/ { if (i) print \"atk/noports:\" \$i; else
			for (j = 1; j <= NF; j++) if (\$j == \"NoPorts\") i = j }' /proc/$APID/net/snmp")
}

# keep: remember the current snapshot as the base of the next deltas
keep() {
	local k

	P=()
	for k in "${!S[@]}"; do
		P[$k]=${S[$k]}
	done
}

# d KEY: how much a counter grew since keep
d() {
	echo $((${S[$1]:-0} - ${P[$1]:-0}))
}

# sum_drops REASON...: sum of the deltas of these mrc0 drop reasons
sum_drops() {
	local r t=0

	for r in "$@"; do
		t=$((t + $(d "mrc0/mrc_drops/$r")))
	done
	echo $t
}

# settle "REASON..." N: re-read until mrc0's REASONs grew by N (packets may still
# be on their way through A), at most ~3 s.
settle() {
	for _ in $(seq 15); do
		snap
		# shellcheck disable=SC2086 # $1: one or more reasons
		[ "$(sum_drops $1)" -ge "$2" ] && return 0
		sleep 0.2
	done
	return 1
}

# inject NS ARGS...: mrcinject in NS; SENT is what it sent.
inject() {
	local ns=$1 out

	shift
	out=$(ip netns exec "$ns" mrcinject "$@" 2>&1)
	SENT=$(sed -n 's/^kind=.* sent=\([0-9]*\) .*/\1/p' <<<"$out")
	SENT=${SENT:-0}
	[ -n "$MRC_HOSTILE_VERBOSE" ] && tap_diag "mrcinject $*: $out"
	if [ "$SENT" = 0 ] || grep -q 'errors=[1-9]' <<<"$out"; then
		tap_diag "mrcinject $* failed: $out"
	fi
}

# kind DESC REASON NS REPLIES ARGS...: inject, then mrc0's and b0's REASON
# counters must each have grown by exactly what was sent; REPLIES ("0",
# "N" for one per packet, or "-" when the replies go to the peer, not the
# attacker) is what the attacker must have received back.
kind() {
	local desc=$1 reason=$2 ns=$3 replies=$4 dev rail got

	shift 4
	keep
	inject "$ns" "$@"
	settle "$reason" "$SENT"
	dev=$(d "mrc0/mrc_drops/$reason")
	rail=$(d "b0/mrc_rail/drops/$reason")
	check_eq "$desc: $SENT sent -> drop '$reason' +$dev on mrc0, +$rail on rail b0" \
		"$SENT $SENT" "$dev $rail"
	[ "$replies" = - ] && return
	[ "$replies" = N ] && replies=$SENT
	got=$(d atk/noports)
	check_eq "$desc: replies reaching the attacker: $got (expected $replies)" "$replies" "$got"
}

# conn_line NS PORT: the established connection on mrc port PORT
conn_line() {
	mrcctl -n "$1" conn show | grep ' established ' | grep -m1 ":$2 "
}

# conn_id LINE / peer_id LINE
conn_id() {
	sed -n 's/^[^ ]* \([0-9a-f]*\): .*/\1/p' <<<"$1"
}
peer_id() {
	sed -n 's/.* peer-id \([0-9a-f]*\).*/\1/p' <<<"$1"
}

# half_open NS [PORT]: connections in req-rcvd (on mrc port PORT)
half_open() {
	mrcctl -n "$1" conn show | grep ' req-rcvd ' | grep -c "${2:+:$2 }"
}

# summary FILE: "msgs bytes hash" of an mrcat summary with errors=0
summary() {
	sed -n 's/.*msgs=\([0-9]*\) bytes=\([0-9]*\) hash=\([0-9a-f]*\) errors=0.*/\1 \2 \3/p' "$1"
}

meminfo() {
	awk '/^(Slab|SUnreclaim|MemAvailable):/ { printf "%s=%d ", $1, $2 }' /proc/meminfo
}
sunreclaim() {
	awk '/^SUnreclaim:/ { print $2 }' /proc/meminfo
}

t_start=$SECONDS

# ---- the legitimate transfer -------------------------------------------------
rm -f "$tmp/ready"
ip netns exec $NB mrcat -l -p $PORT -m 0 -s 1000-30000 -t 180 -r "$tmp/ready" \
	>"$tmp/recv.out" 2>"$tmp/recv.err" &
RPID=$!
for _ in $(seq 200); do [ -e "$tmp/ready" ] && break; sleep 0.05; done
ip netns exec $NA mrcat -c 10.0.0.2 -p $PORT -D "$XFER_S" -s 1000-30000 -t 180 \
	>"$tmp/send.out" 2>"$tmp/send.err" &
SPID=$!
for _ in $(seq 50); do
	bline=$(conn_line $NB $PORT)
	[ -n "$bline" ] && break
	sleep 0.1
done
BID=$(conn_id "$bline")
AID=$(peer_id "$bline")
aline=$(conn_line $NA $PORT)
check_eq "transfer: established, B's connection $BID has peer-id $AID, A's $(conn_id "$aline") peer-id $(peer_id "$aline")" \
	"$AID $BID" "$(conn_id "$aline") $(peer_id "$aline")"

snap

# ---- malformed packets from the attacker: no reply at all --------------------
for k in short:short version:version type:type reserved:reserved length:length; do
	kind "${k%%:*} (attacker)" "${k#*:}" $NX 0 -d 10.0.0.2 -k "${k%%:*}" -n "$N"
done

# garbage: random bytes, whatever reason each gets; all dropped by parsing
# or, should one parse, as no-conn.
keep
inject $NX -d 10.0.0.2 -k garbage -n $((N * 10))
settle "short version type reserved length bad-field no-conn" "$SENT"
all=$(sum_drops short version type reserved length bad-field no-conn)
check_eq "garbage (attacker): $SENT random packets -> parse drops + no-conn +$all on mrc0 (short $(d mrc0/mrc_drops/short), version $(d mrc0/mrc_drops/version), type $(d mrc0/mrc_drops/type), length $(d mrc0/mrc_drops/length), no-conn $(d mrc0/mrc_drops/no-conn))" \
	"$SENT" "$all"
replies=$(d atk/noports)
check "garbage (attacker): at most one reply per packet ($replies replies)" \
	test "$replies" -le "$(d mrc0/mrc_drops/no-conn)"

# ---- well-formed packets for connections that are not the sender's ----------
kind "no-conn (attacker): DATA to random ids, one RESET each" no-conn $NX N \
	-d 10.0.0.2 -k no-conn -n "$N"
kind "bad-source (attacker): DATA with both real ids from 10.99.0.2" bad-source $NX 0 \
	-d 10.0.0.2 -k bad-source -c "$BID" -C "$AID" -n "$N"
kind "bad-source (peer address): DATA with B's id but a wrong src id" bad-source $NA - \
	-d 10.0.0.2 -s 10.0.0.1 -k bad-source -c "$BID" -n "$N"
kind "reset-other (attacker): RESET with guessed ids (never answered)" no-conn $NX 0 \
	-d 10.0.0.2 -k reset-other -n "$N"
kind "reset-other (attacker): RESET with both real ids from 10.99.0.2" bad-source $NX 0 \
	-d 10.0.0.2 -k reset-other -c "$BID" -C "$AID" -n "$N"
kind "reset-other (peer address): RESET with B's id, guessed src id" bad-source $NA - \
	-d 10.0.0.2 -s 10.0.0.1 -k reset-other -c "$BID" -R 3 -n "$N"
kind "reset-other (peer address): RESET with A's id, guessed dst id" no-conn $NA - \
	-d 10.0.0.2 -s 10.0.0.1 -k reset-other -C "$AID" -n "$N"
kind "reset-other (peer's plane-1 address on plane 0): both real ids" bad-source $NA - \
	-d 10.0.0.2 -s 10.1.0.1 -k reset-other -c "$BID" -C "$AID" -n "$N"
bline=$(conn_line $NB $PORT)
check_eq "reset-other: B's connection survived (still established, same id)" \
	"$BID" "$(conn_id "$bline")"

# ---- the hostile peer: real ids, from A's rail address -----------------------
kind "window (peer): DATA 2^30 PSNs beyond the learned cumulative PSN" out-of-window $NA - \
	-d 10.0.0.2 -s 10.0.0.1 -k window -L -c "$BID" -C "$AID" -n "$N"
kind "huge (peer): DATA of a 4 GiB message at an unsent PSN in the window" msg-too-big $NA - \
	-d 10.0.0.2 -s 10.0.0.1 -k huge -L -c "$BID" -C "$AID" -n "$N"
kind "huge (peer): DATA at offset 1 of a 1000-byte message (not segment-aligned)" bad-data $NA - \
	-d 10.0.0.2 -s 10.0.0.1 -k huge -L -M 1000 -O 1 -z 10 -c "$BID" -C "$AID" -n "$N"
kind "bad-ack (peer): ACK of PSNs never sent, to the receiving side" bad-ack $NA - \
	-d 10.0.0.2 -s 10.0.0.1 -k bad-ack -c "$BID" -C "$AID" -n "$N"
# The sender's side has packets in flight: its scoreboard must refuse too.
a0=$(ip netns exec $NA cat /sys/class/net/mrc0/mrc_drops/bad-ack)
inject $NB -d 10.0.0.1 -s 10.0.0.2 -k bad-ack -c "$AID" -C "$BID" -n "$N"
sleep 0.2
a1=$(ip netns exec $NA cat /sys/class/net/mrc0/mrc_drops/bad-ack)
check_eq "bad-ack (peer B -> sender A): $SENT sent -> drop 'bad-ack' +$((a1 - a0)) on A's mrc0" \
	"$SENT" "$((a1 - a0))"

# ---- REQ flood ----------------------------------------------------------------
# To the transfer's listener (mrcat: backlog 16, its one connection
# accepted): at most 16 half-open, the rest dropped as backlog.
keep
atk0=${S[atk/noports]}
inject $NX -d 10.0.0.2 -k req-flood -D $PORT -n $((N / 2 + 16))
settle backlog $((SENT - 16))
ho=$(half_open $NB $PORT)
check_eq "req-flood (port $PORT, backlog 16): $SENT REQs -> $ho half-open, drop 'backlog' +$(d mrc0/mrc_drops/backlog)" \
	"16 $((SENT - 16))" "$ho $(d mrc0/mrc_drops/backlog)"

# To a listener with backlog 4096: the device's cap, 1024 half-open in all.
rm -f "$tmp/bigready"
ip netns exec $NB mrcinject -l -D $BIGPORT -B 4096 -w 600 -r "$tmp/bigready" >/dev/null &
BIGPID=$!
for _ in $(seq 100); do [ -e "$tmp/bigready" ] && break; sleep 0.05; done
keep
flood_at=$SECONDS
inject $NX -d 10.0.0.2 -k req-flood -D $BIGPORT -n 1200
settle backlog $((SENT - 1024 + ho))
hall=$(half_open $NB)
hbig=$(half_open $NB $BIGPORT)
check_eq "req-flood (port $BIGPORT, backlog 4096): $SENT REQs -> $hall half-open on the device (cap 1024; $hbig on this port), drop 'backlog' +$(d mrc0/mrc_drops/backlog)" \
	"1024 $((SENT - 1024 + ho))" "$hall $(d mrc0/mrc_drops/backlog)"
created=$((ho + hbig))

# ---- the transfer is intact --------------------------------------------------
bline=$(conn_line $NB $PORT)
check_eq "after every kind: B's connection still established with the same id" \
	"$BID" "$(conn_id "$bline")"
wait $SPID
src=$?
SPID=
wait $RPID
rrc=$?
RPID=
hs=$(summary "$tmp/send.out")
hr=$(summary "$tmp/recv.out")
if [ $src = 0 ] && [ $rrc = 0 ] && [ -n "$hs" ] && [ "$hs" = "$hr" ]; then
	tap_ok "transfer: ${XFER_S}s A -> B intact under attack: $hs (messages, bytes, hash) identical at both ends"
else
	tap_fail "transfer: intact under attack" "sender (exit $src): $(cat "$tmp/send.out")" \
		"receiver (exit $rrc): $(cat "$tmp/recv.out")" "$(cat "$tmp/send.err" "$tmp/recv.err")"
fi
tap_diag "transfer: $(sed -n 's/.*\(elapsed_ms=.*\)/\1/p' "$tmp/send.out"); $(grep -o 'retrans=[0-9]*' "$tmp/send.err")"

# ---- half-open connections expire --------------------------------------------
for _ in $(seq 60); do
	hall=$(half_open $NB)
	[ "$hall" = 0 ] && break
	sleep 0.5
done
check_eq "req-flood: half-open connections expired ($((SECONDS - flood_at)) s after the flood; dead-peer time 10 s)" \
	0 "$hall"
snap
atk1=${S[atk/noports]}
per=$(((atk1 - atk0 + created - 1) / (created ? created : 1)))
tap_diag "req-flood: $((atk1 - atk0)) ACCEPTs (first and retransmitted) and RESETs reached the attacker for $created half-open connections (~$per per REQ)"
check "req-flood: replies per REQ bounded by the handshake retransmissions ($per <= 10)" \
	test "$per" -le 10

# ---- reflection: a REQ naming someone else's address as its rail --------------
a0=$(ip netns exec $NA cat /sys/class/net/mrc0/mrc_drops/no-conn)
keep
inject $NX -d 10.0.0.2 -k req-flood -D $BIGPORT -A 0:10.0.0.1 -n 8
sleep 1
a1=$(ip netns exec $NA cat /sys/class/net/mrc0/mrc_drops/no-conn)
snap
tap_diag "reflection: 8 REQs from 10.99.0.2 naming 10.0.0.1 as their plane-0 rail -> A (10.0.0.1) received $((a1 - a0)) unsolicited packets (ACCEPTs, dropped as no-conn there; A's RESET replies end those half-open connections); the attacker got $(d atk/noports)"
kill $BIGPID 2>/dev/null
wait $BIGPID 2>/dev/null
BIGPID=

# ---- the guard is precise: a RESET with both ids from the peer does kill -------
rm -f "$tmp/ready"
ip netns exec $NB mrcat -l -p $((PORT + 1)) -m 0 -s 1000 -t 60 -r "$tmp/ready" \
	>"$tmp/recv2.out" 2>"$tmp/recv2.err" &
RPID=$!
for _ in $(seq 200); do [ -e "$tmp/ready" ] && break; sleep 0.05; done
ip netns exec $NA mrcat -c 10.0.0.2 -p $((PORT + 1)) -D 20 -s 1000 -t 60 \
	>"$tmp/send2.out" 2>"$tmp/send2.err" &
SPID=$!
for _ in $(seq 50); do
	line=$(conn_line $NB $((PORT + 1)))
	[ -n "$line" ] && break
	sleep 0.1
done
inject $NA -d 10.0.0.2 -s 10.0.0.1 -k reset-other -c "$(conn_id "$line")" \
	-C "$(peer_id "$line")" -n 1
start=$SECONDS
wait $RPID
RPID=
check_match "control: one RESET with both ids from the peer's rail resets B's connection ($((SECONDS - start)) s)" \
	"Connection reset" "$(cat "$tmp/recv2.err")"
wait $SPID
SPID=

# ---- amplification: replies to a flood of packets for unknown connections ----
sleep 0.5
snap
keep
inject $NX -d 10.0.0.2 -k no-conn -z 1000 -n $((N * 50))
settle no-conn "$SENT"
rx=$(d mrc0/mrc_drops/no-conn)
txp=$(d b0/mrc_rail/tx_packets)
txb=$(d b0/mrc_rail/tx_bytes)
rxb=$(d b0/mrc_rail/rx_bytes)
got=$(d atk/noports)
tap_diag "amplification: $SENT no-conn DATA of 1036 bytes -> B sent $txp packets ($txb bytes of mrc headers) for $rx received ($rxb bytes); the attacker got $got"
check "amplification: at most one reply per packet received ($txp <= $rx)" test "$txp" -le "$rx"
check "amplification: replies are small ($txb bytes out for $rxb in: <= 2%)" \
	test $((txb * 50)) -le "$rxb"
if [ "$txp" -ge "$rx" ]; then
	tap_diag "amplification: RESET replies are not rate-limited (one per packet)"
fi

# ---- memory: flat across a large flood ----------------------------------------
for _ in $(seq 40); do
	[ "$(mrcctl -n $NB conn show | grep -vc ' listen ')" = 0 ] && break
	sleep 0.25
done
inject $NX -d 10.0.0.2 -k garbage -n $((FLOOD / 5))	# warm the caches
sleep 0.5
snap
keep
m0=$(meminfo)
u0=$(sunreclaim)
fs=$SECONDS
inject $NX -d 10.0.0.2 -k garbage -n "$FLOOD"
settle "short version type reserved length bad-field no-conn" "$SENT"
fs=$((SECONDS - fs))
sleep 1
u1=$(sunreclaim)
m1=$(meminfo)
all=$(sum_drops short version type reserved length bad-field no-conn)
tap_diag "memory: before $m0"
tap_diag "memory: after  $m1"
check_eq "flood: $SENT garbage packets in ${fs} s -> all dropped and counted (mrc0 rx_packets +$(d mrc0/mrc/rx_packets), drops +$all)" \
	"$SENT $SENT" "$(d mrc0/mrc/rx_packets) $all"
check "memory: SUnreclaim after $SENT garbage packets: $((u1 - u0)) kB (tolerance 2048 kB, 20 bytes per packet)" \
	test $((u1 - u0)) -le 2048

tap_diag "mrc_hostile: $((SECONDS - t_start)) s"
tap_end
