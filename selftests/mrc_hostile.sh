#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mrc_hostile.sh - a hostile peer and an off-path attacker against host B
# while legitimate timed transfers A -> B run.  Every kind of
# tools/mrcinject is fired and must be dropped and counted under its own
# reason, exactly once per packet, on mrc0 and on the rail it came in on,
# with no reply (or one small RESET where the protocol answers), and
# without touching the transfer (same connection id, identical hashes).
# A RESET with both ids from the peer's rail does kill a connection (the
# guard is precise, not blind).  The REQ flood's half-open connections
# are bounded (per listener: its backlog; per device: 1024), expire, and
# leave the device accepting connections again.  Replies stay at most one
# small packet per packet received; memory is flat across a large flood.
#
#   attacker 10.99.0.2 --x0--xa-- A (forwards) 10.0.0.1 a0 ==== b0 10.0.0.2 B
#                                              10.1.0.1 a1 ==== b1 10.1.0.2
#
# The attacker's packets reach B on its plane-0 rail b0 from a non-peer
# address; the hostile peer's (window, huge, bad-ack, and variants of
# reset-other and bad-source) leave A from its rail address 10.0.0.1
# through a plain UDP socket, with the real connection ids (mrcctl conn
# show).  B's replies to the attacker go to its UDP port 4796, where
# nothing listens: the attacker's UdpNoPorts counts every reply that
# reaches it.
#
# Process creation costs 0.1-0.5 s under TCG, so one shell per namespace
# runs the commands (nsh) and counters are read with shell builtins.
#
# Environment: MRC_HOSTILE_XFER_S (transfer seconds, 20), MRC_HOSTILE_N
# (packets per kind, 100), MRC_HOSTILE_FLOOD (garbage flood, 100000).

. "$(dirname "$0")/lib.sh"

PATH=$MRC_TOP/tools/mrcinject:$PATH
if [ ! -x "$MRC_TOP/tools/mrcinject/mrcinject" ]; then
	tap_skip "mrc_hostile" "tools/mrcinject/mrcinject is not built (make tools)"
	tap_end
fi
mrc_load
tmp=$(mktemp -d)
NA=mh-a
NB=mh-b
NX=mh-attacker
PORT=7000	# the transfer (mrcat: backlog 16)
CPORT=7001	# the control transfer, reset by a genuine RESET
BIGPORT=7100	# a listener with backlog 4096 that never accepts
XFER_S=${MRC_HOSTILE_XFER_S:-20}
N=${MRC_HOSTILE_N:-100}
FLOOD=${MRC_HOSTILE_FLOOD:-100000}
t_start=$SECONDS

# ---- one shell per namespace ---------------------------------------------------
# nsh_start NAME NS: a bash in NS reading commands from a FIFO
# nsh NAME CMD: run CMD there; its output (stdout and stderr) in OUT
declare -A NSH_IN NSH_OUT NSH_PID
nsh_start() {
	local in out

	mkfifo "$tmp/$1.in" "$tmp/$1.out"
	ip netns exec "$2" bash <"$tmp/$1.in" >"$tmp/$1.out" 2>&1 &
	NSH_PID[$1]=$!
	exec {in}>"$tmp/$1.in" {out}<"$tmp/$1.out"
	NSH_IN[$1]=$in
	NSH_OUT[$1]=$out
}
nsh() {
	local line

	printf '%s\necho "__nsh_end__ $?"\n' "$2" >&"${NSH_IN[$1]}"
	OUT=
	while IFS= read -r line <&"${NSH_OUT[$1]}"; do
		if [[ $line == __nsh_end__* ]]; then
			RC=${line#__nsh_end__ }
			return "$RC"
		fi
		OUT+=$line$'\n'
	done
	RC=255
	return 255
}

# nap SECONDS: sleep without a process
mkfifo "$tmp/nap"
exec {NAPFD}<>"$tmp/nap"
nap() {
	read -r -t "$1" -u "$NAPFD"
}

cleanup() {
	local p

	for p in "${NSH_PID[@]}" "$RPID" "$SPID" "$CRPID" "$CSPID" "$BIGPID"; do
		[ -n "$p" ] && kill "$p" 2>/dev/null
	done
	wait 2>/dev/null
	rm -rf "$tmp"
	_ns_cleanup
}
trap cleanup EXIT

# ---- topology ------------------------------------------------------------------
if ! mrc_pair $NA $NB 2 || ! ns_create $NX; then
	tap_fail "topology: mrc_pair and the attacker's namespace"
	tap_end
fi
ip link add xa netns $NA type veth peer name x0 netns $NX
printf '%s\n' "addr add 10.99.0.1/24 dev xa" "link set xa up" | ip -n $NA -batch -
printf '%s\n' "addr add 10.99.0.2/24 dev x0" "link set x0 up" \
	"route add default via 10.99.0.1" | ip -n $NX -batch -
ip -n $NB route add 10.99.0.0/24 via 10.0.0.1 dev b0
nsh_start A $NA
nsh_start B $NB
nsh_start X $NX
nsh A 'echo 1 >/proc/sys/net/ipv4/ip_forward'
APID=${NSH_PID[X]}	# its /proc/PID/net/snmp: the attacker's UDP counters

# snap (in B): B's drop counters (mrc0 and rail b0), b0's traffic and the
# attacker's UdpNoPorts as "key:value" lines, keys relative to
# /sys/class/net ("mrc0/mrc_drops/no-conn", "b0/mrc_rail/tx_packets") and
# "atk/noports".  Builtins only.
snapfn() {
	local f v w hdr=() i

	for f in /sys/class/net/mrc0/mrc_drops/* /sys/class/net/b0/mrc_rail/drops/* \
		 /sys/class/net/mrc0/mrc/rx_dropped /sys/class/net/mrc0/mrc/rx_packets \
		 /sys/class/net/b0/mrc_rail/tx_packets /sys/class/net/b0/mrc_rail/tx_bytes \
		 /sys/class/net/b0/mrc_rail/rx_packets /sys/class/net/b0/mrc_rail/rx_bytes; do
		read -r v <"$f"
		echo "${f#/sys/class/net/}:$v"
	done
	while read -r -a w; do
		[ "${w[0]}" = Udp: ] || continue
		if [ ${#hdr[@]} = 0 ]; then
			hdr=("${w[@]}")
			continue
		fi
		for i in "${!hdr[@]}"; do
			[ "${hdr[$i]}" = NoPorts ] && echo "atk/noports:${w[$i]}"
		done
	done <"/proc/$1/net/snmp"
}
nsh B "$(declare -f snapfn)"

# ---- counters --------------------------------------------------------------------
declare -A S P

snap() {
	local line

	S=()
	nsh B "snapfn $APID"
	while IFS= read -r line; do
		[ -n "$line" ] && S[${line%:*}]=${line##*:}
	done <<<"$OUT"
}

# keep: the current snapshot becomes the base of the deltas
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
		t=$((t + ${S[mrc0/mrc_drops/$r]:-0} - ${P[mrc0/mrc_drops/$r]:-0}))
	done
	echo $t
}

# settle "REASON..." N: re-read until those mrc0 drops grew by N (packets
# may still be on their way through A), at most ~3 s.
settle() {
	for _ in $(seq 30); do
		snap
		# shellcheck disable=SC2086 # $1: one or more reasons
		[ "$(sum_drops $1)" -ge "$2" ] && return 0
		nap 0.1
	done
	return 1
}

# inject NSH ARGS: mrcinject in that namespace's shell; SENT is what it sent.
inject() {
	nsh "$1" "mrcinject $2"
	SENT=$(sed -n 's/^kind=.* sent=\([0-9]*\) .*/\1/p' <<<"$OUT")
	SENT=${SENT:-0}
	if [ "$RC" != 0 ] || [ "$SENT" = 0 ]; then
		tap_diag "mrcinject $2: exit $RC: $OUT"
	elif [ -n "$MRC_HOSTILE_VERBOSE" ]; then
		tap_diag "[$((SECONDS - t_start)) s] mrcinject $2: $OUT"
	fi
}

# kind DESC REASON NSH REPLIES ARGS: inject; mrc0's and b0's REASON
# counters must each have grown by exactly what was sent.  REPLIES: what
# the attacker must have got back: 0, N (one per packet), or - (the
# replies go to the peer A: not counted here).
kind() {
	local desc=$1 reason=$2 sh=$3 replies=$4 dev rail got

	keep
	inject "$sh" "$5"
	settle "$reason" "$SENT"
	dev=$(d "mrc0/mrc_drops/$reason")
	rail=$(d "b0/mrc_rail/drops/$reason")
	check_eq "$desc: $SENT sent -> drop '$reason' +$dev on mrc0, +$rail on rail b0" \
		"$N $N $N" "$SENT $dev $rail"
	[ "$replies" = - ] && return
	[ "$replies" = N ] && replies=$SENT
	got=$(d atk/noports)
	check_eq "$desc: replies reaching the attacker: $got (expected $replies)" "$replies" "$got"
}

# conns NSH: mrcctl conn show there, in CONNS
conns() {
	nsh "$1" "mrcctl conn show"
	CONNS=$OUT
}

# conn_line PORT: the established connection on mrc port PORT in CONNS
conn_line() {
	grep ' established ' <<<"$CONNS" | grep -m1 ":$1 "
}

conn_id() {
	sed -n 's/^[^ ]* \([0-9a-f]*\): .*/\1/p' <<<"$1"
}

peer_id() {
	sed -n 's/.* peer-id \([0-9a-f]*\).*/\1/p' <<<"$1"
}

# half_open [PORT]: connections in req-rcvd (on mrc port PORT) in CONNS
half_open() {
	grep ' req-rcvd ' <<<"$CONNS" | grep -c "${1:+:$1 }"
}

# summary FILE: "msgs bytes hash" of an mrcat summary with errors=0
summary() {
	sed -n 's/.*msgs=\([0-9]*\) bytes=\([0-9]*\) hash=\([0-9a-f]*\) errors=0.*/\1 \2 \3/p' "$1"
}

# meminfo: Slab, SUnreclaim, MemAvailable (kB); MEM_SUNRECLAIM set
meminfo() {
	local k v

	MEM=
	while read -r k v _; do
		case $k in
		Slab: | SUnreclaim: | MemAvailable:)
			MEM+="${k%:} ${v} kB, "
			[ "$k" = SUnreclaim: ] && MEM_SUNRECLAIM=$v
			;;
		esac
	done </proc/meminfo
	MEM=${MEM%, }
}

# wait_file FILE: at most 10 s
wait_file() {
	for _ in $(seq 100); do
		[ -e "$1" ] && return 0
		nap 0.1
	done
	return 1
}

# ---- the legitimate transfers ------------------------------------------------------
# The transfer checked end to end, and a control transfer that a genuine
# RESET will end.
ip netns exec $NB mrcat -l -p $PORT -m 0 -s 1000-30000 -t 180 -r "$tmp/ready" \
	>"$tmp/recv.out" 2>"$tmp/recv.err" &
RPID=$!
ip netns exec $NB mrcat -l -p $CPORT -m 0 -s 1000 -t 120 -r "$tmp/cready" \
	>"$tmp/crecv.out" 2>"$tmp/crecv.err" &
CRPID=$!
wait_file "$tmp/ready"
wait_file "$tmp/cready"
ip netns exec $NA mrcat -c 10.0.0.2 -p $PORT -D "$XFER_S" -s 1000-30000 -t 180 \
	>"$tmp/send.out" 2>"$tmp/send.err" &
SPID=$!
ip netns exec $NA mrcat -c 10.0.0.2 -p $CPORT -D $((XFER_S * 3)) -s 1000 -t 120 \
	>"$tmp/csend.out" 2>"$tmp/csend.err" &
CSPID=$!
nsh B "mrcinject -l -D $BIGPORT -B 4096 -w 600 -r $tmp/bigready >$tmp/big.out 2>&1 & echo \$!"
BIGPID=$OUT
for _ in $(seq 50); do
	conns B
	bline=$(conn_line $PORT)
	cline=$(conn_line $CPORT)
	[ -n "$bline" ] && [ -n "$cline" ] && break
	nap 0.1
done
BID=$(conn_id "$bline")
AID=$(peer_id "$bline")
conns A
aline=$(conn_line $PORT)
check_eq "transfer: established; B's connection $BID has peer-id $AID, A's $(conn_id "$aline") has peer-id $(peer_id "$aline")" \
	"$AID $BID" "$(conn_id "$aline") $(peer_id "$aline")"
wait_file "$tmp/bigready"
xfer_at=$SECONDS

snap

# ---- malformed packets from the attacker: dropped, never answered ----------------
for k in short version type reserved length; do
	kind "$k (attacker)" $k X 0 "-d 10.0.0.2 -k $k -n $N"
done

# Random bytes: whatever reason each gets, all dropped while parsing (or,
# should one parse, as no-conn).
P_REASONS="short version type reserved length bad-field no-conn"
keep
inject X "-d 10.0.0.2 -k garbage -n $((N * 10))"
settle "$P_REASONS" "$SENT"
# shellcheck disable=SC2086
all=$(sum_drops $P_REASONS)
check_eq "garbage (attacker): $SENT random packets -> parse drops + no-conn +$all on mrc0 (short $(d mrc0/mrc_drops/short), version $(d mrc0/mrc_drops/version), type $(d mrc0/mrc_drops/type), reserved $(d mrc0/mrc_drops/reserved), length $(d mrc0/mrc_drops/length), no-conn $(d mrc0/mrc_drops/no-conn))" \
	"$SENT" "$all"
check_eq "garbage (attacker): replies: one per no-conn drop at most ($(d atk/noports))" \
	"$(d mrc0/mrc_drops/no-conn)" "$(d atk/noports)"

# ---- well-formed packets that are not the peer's ----------------------------------
kind "no-conn (attacker): DATA to random ids, one RESET each" no-conn X N \
	"-d 10.0.0.2 -k no-conn -n $N"
kind "bad-source (attacker): DATA with both real ids from 10.99.0.2" bad-source X 0 \
	"-d 10.0.0.2 -k bad-source -c $BID -C $AID -n $N"
kind "bad-source (peer's address): DATA to B's id with a guessed src id" bad-source A - \
	"-d 10.0.0.2 -s 10.0.0.1 -k bad-source -c $BID -n $N"
kind "reset-other (attacker): RESET with guessed ids, never answered" no-conn X 0 \
	"-d 10.0.0.2 -k reset-other -n $N"
kind "reset-other (attacker): RESET with both real ids from 10.99.0.2" bad-source X 0 \
	"-d 10.0.0.2 -k reset-other -c $BID -C $AID -n $N"
kind "reset-other (peer's address): RESET to B's id, guessed src id" bad-source A - \
	"-d 10.0.0.2 -s 10.0.0.1 -k reset-other -c $BID -R 3 -n $N"
kind "reset-other (peer's address): RESET from A's id to a guessed id" no-conn A - \
	"-d 10.0.0.2 -s 10.0.0.1 -k reset-other -C $AID -n $N"
kind "reset-other (peer's plane-1 address, arriving on plane 0): both real ids" bad-source A - \
	"-d 10.0.0.2 -s 10.1.0.1 -k reset-other -c $BID -C $AID -n $N"
conns B
check_eq "reset-other: B's connection survived $((7 * N)) RESETs (established, same id)" \
	"$BID" "$(conn_id "$(conn_line $PORT)")"

# ---- the hostile peer: real ids, from A's rail address ---------------------------
kind "window (peer): DATA 2^30 PSNs beyond the cumulative PSN learned from B's ACKs" \
	out-of-window A - "-d 10.0.0.2 -s 10.0.0.1 -k window -L -c $BID -C $AID -n $N"
kind "huge (peer): DATA of a 4 GiB message at an unsent PSN in the window" msg-too-big A - \
	"-d 10.0.0.2 -s 10.0.0.1 -k huge -L -c $BID -C $AID -n $N"
kind "huge (peer): DATA at offset 1 of a 1000-byte message (not segment-aligned)" bad-data A - \
	"-d 10.0.0.2 -s 10.0.0.1 -k huge -L -M 1000 -O 1 -z 10 -c $BID -C $AID -n $N"
kind "bad-ack (peer): ACK of PSNs never sent, to the receiving side" bad-ack A - \
	"-d 10.0.0.2 -s 10.0.0.1 -k bad-ack -c $BID -C $AID -n $N"
# The sending side has packets in flight: its scoreboard must refuse too.
nsh A 'read -r v </sys/class/net/mrc0/mrc_drops/bad-ack; echo $v'
a0=$OUT
inject B "-d 10.0.0.1 -s 10.0.0.2 -k bad-ack -c $AID -C $BID -n $N"
nap 0.2
nsh A 'read -r v </sys/class/net/mrc0/mrc_drops/bad-ack; echo $v'
check_eq "bad-ack (peer B to the sender A): $SENT sent -> drop 'bad-ack' +$((OUT - a0)) on A's mrc0" \
	"$SENT" "$((OUT - a0))"

# ---- control: both ids, from the peer's rail: that RESET does end it -------------
inject A "-d 10.0.0.2 -s 10.0.0.1 -k reset-other -c $(conn_id "$cline") -C $(peer_id "$cline") -n 1"
start=$SECONDS
wait $CRPID
CRPID=
check_match "control: one RESET with both ids from the peer's rail resets connection $(conn_id "$cline") ($((SECONDS - start)) s)" \
	"Connection reset" "$(cat "$tmp/crecv.err")"
wait $CSPID
CSPID=

# ---- REQ flood ------------------------------------------------------------------------
snap
keep
atk0=${S[atk/noports]}
# To the transfer's listener (backlog 16, its connection accepted): 16
# half-open at most, the rest dropped as backlog.
inject X "-d 10.0.0.2 -k req-flood -D $PORT -n $((N / 2 + 16))"
settle backlog $((SENT - 16))
conns B
ho=$(half_open $PORT)
check_eq "req-flood (port $PORT, backlog 16): $SENT REQs -> $ho half-open, drop 'backlog' +$(d mrc0/mrc_drops/backlog)" \
	"16 $((SENT - 16))" "$ho $(d mrc0/mrc_drops/backlog)"
# To a listener with backlog 4096: the device's cap, 1024 half-open in all.
keep
flood_at=$SECONDS
inject X "-d 10.0.0.2 -k req-flood -D $BIGPORT -n 1200"
settle backlog $((SENT - 1024 + ho))
conns B
hall=$(half_open)
hbig=$(half_open $BIGPORT)
check_eq "req-flood (port $BIGPORT, backlog 4096): $SENT REQs -> $hall half-open on the device (cap 1024; $hbig on this port), drop 'backlog' +$(d mrc0/mrc_drops/backlog)" \
	"1024 $((SENT - 1024 + ho))" "$hall $(d mrc0/mrc_drops/backlog)"
created=$((ho + hbig))
check_eq "every kind was fired while the transfer ran (B's connection $BID established, $((SECONDS - xfer_at)) s of ${XFER_S} s)" \
	"$BID" "$(conn_id "$(conn_line $PORT)")"

# ---- the transfer is intact ------------------------------------------------------------
wait $SPID
src=$?
SPID=
wait $RPID
rrc=$?
RPID=
hs=$(summary "$tmp/send.out")
hr=$(summary "$tmp/recv.out")
if [ $src = 0 ] && [ $rrc = 0 ] && [ -n "$hs" ] && [ "$hs" = "$hr" ]; then
	tap_ok "transfer: ${XFER_S} s A -> B under attack intact: $hs (messages, bytes, hash) identical at both ends"
else
	tap_fail "transfer: ${XFER_S} s A -> B under attack intact" \
		"sender (exit $src): $(cat "$tmp/send.out")" \
		"receiver (exit $rrc): $(cat "$tmp/recv.out")" \
		"$(cat "$tmp/send.err" "$tmp/recv.err")"
fi
tap_diag "transfer: $(sed -n 's/.*\(elapsed_ms=.*\)/\1/p' "$tmp/send.out"); $(grep -o 'retrans=[0-9]*' "$tmp/send.err")"

# ---- the half-open connections expire, and leave no trace -----------------------------
for _ in $(seq 40); do
	conns B
	hall=$(half_open)
	[ "$hall" = 0 ] && break
	nap 0.5
done
check_eq "req-flood: half-open connections expired ($((SECONDS - flood_at)) s after the flood; dead-peer time 10 s)" \
	0 "$hall"
snap
atk1=${S[atk/noports]}
per=$(((atk1 - atk0) * 100 / (created ? created : 1)))
tap_diag "req-flood: $((atk1 - atk0)) packets (ACCEPTs, their retransmissions, a RESET at the end) reached the attacker for $created half-open connections: $((per / 100)).$(printf %02d $((per % 100))) per REQ"
check "req-flood: replies per REQ bounded by the handshake's retransmissions within the dead-peer time ($((per / 100)).$(printf %02d $((per % 100))) <= 10)" \
	test "$per" -le 1000
# A fresh REQ must be answered again, not dropped as backlog: the
# half-open counts must have come down with the connections.
keep
inject X "-d 10.0.0.2 -k req-flood -D $BIGPORT -n 1"
nap 0.5
snap
check_eq "req-flood: after expiry a new REQ is accepted again (drop 'backlog' +$(d mrc0/mrc_drops/backlog), ACCEPT replies $(d atk/noports))" \
	"0 1" "$(d mrc0/mrc_drops/backlog) $(d atk/noports)"

# ---- reflection: a REQ naming another host's address as its rail -------------------------
nsh A 'read -r v </sys/class/net/mrc0/mrc_drops/no-conn; echo $v'
a0=$OUT
keep
inject X "-d 10.0.0.2 -k req-flood -D $BIGPORT -A 0:10.0.0.1 -n 8"
nap 1
nsh A 'read -r v </sys/class/net/mrc0/mrc_drops/no-conn; echo $v'
a1=$OUT
snap
tap_diag "reflection: 8 REQs from 10.99.0.2 naming 10.0.0.1 as their plane-0 rail -> 10.0.0.1 (A) received $((a1 - a0)) ACCEPTs (no-conn there), the attacker $(d atk/noports), B dropped $(d mrc0/mrc_drops/backlog) as backlog"

# ---- amplification: replies to a flood for unknown connections -------------------------
snap
keep
inject X "-d 10.0.0.2 -k no-conn -z 1000 -n $((N * 50))"
settle no-conn "$SENT"
rx=$(d mrc0/mrc_drops/no-conn)
txp=$(d b0/mrc_rail/tx_packets)
txb=$(d b0/mrc_rail/tx_bytes)
rxb=$(d b0/mrc_rail/rx_bytes)
tap_diag "amplification: $SENT no-conn DATA of 1036 bytes -> B received $rx ($rxb bytes), sent $txp packets ($txb bytes of mrc headers); the attacker got $(d atk/noports)"
check "amplification: at most one reply per packet received ($txp replies for $rx)" \
	test "$txp" -le "$rx"
check "amplification: replies are small ($txb bytes out for $rxb in: at most 2 %)" \
	test $((txb * 50)) -le "$rxb"
[ "$txp" = "$rx" ] && tap_diag "amplification: RESET replies are not rate-limited (one per packet)"

# ---- memory: flat across a large flood -----------------------------------------------------
nsh B "kill $BIGPID"	# the listener of port $BIGPORT
for _ in $(seq 40); do
	conns B
	[ "$(grep -vc ' listen ' <<<"$CONNS")" = 0 ] && break
	nap 0.25
done
inject X "-d 10.0.0.2 -k garbage -n $((FLOOD / 5))"	# warm the caches
nap 0.5
snap
keep
meminfo
m0=$MEM
u0=$MEM_SUNRECLAIM
fs=$SECONDS
inject X "-d 10.0.0.2 -k garbage -n $FLOOD"
settle "$P_REASONS" "$SENT"
fs=$((SECONDS - fs))
nap 1
meminfo
# shellcheck disable=SC2086
all=$(sum_drops $P_REASONS)
tap_diag "memory: before the flood: $m0"
tap_diag "memory: after the flood:  $MEM"
check_eq "flood: $SENT garbage packets in ${fs} s -> all received and dropped (mrc0 rx_packets +$(d mrc0/mrc/rx_packets), drops +$all)" \
	"$SENT $SENT" "$(d mrc0/mrc/rx_packets) $all"
check "memory: SUnreclaim grew $((MEM_SUNRECLAIM - u0)) kB over $SENT packets (tolerance 2048 kB: 20 bytes a packet)" \
	test $((MEM_SUNRECLAIM - u0)) -le 2048

tap_diag "mrc_hostile: $((SECONDS - t_start)) s"
tap_end
