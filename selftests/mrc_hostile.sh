#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mrc_hostile.sh - a hostile peer and an off-path attacker against host B
# while legitimate timed transfers A -> B run.  Every kind of
# tools/mrcinject is fired and must be dropped and counted under its own
# reason, exactly once per packet, on mrc0 and on the rail it came in on,
# with no reply (or one small RESET where the protocol answers), and
# without touching the transfer (same connection id, identical hashes).
# A RESET with both ids from the peer's rail does end a connection (the
# guard is precise, not blind).  The REQ flood's half-open connections
# are bounded (per listener: its backlog; per device: 1024), expire, and
# leave the device accepting connections again.  Replies stay at most one
# small packet per packet received, RESETs to strays at most 200 a second
# per device; memory is flat across a large flood.
#
#   attacker 10.99.0.2 --x0--xa--+
#                                A (forwards) 10.0.0.1 a0 ==== b0 10.0.0.2 B
#   victim   10.98.0.2 --v0--va--+            10.1.0.1 a1 ==== b1 10.1.0.2
#
# The attacker's packets reach B on its plane-0 rail b0 from a non-peer
# address; the hostile peer's (window, huge, bad-ack, and variants of
# reset-other and bad-source) leave A from its rail address 10.0.0.1
# through a plain UDP socket, with the real connection ids (mrcctl conn
# show).  B's replies to the attacker go to its UDP port 4796, where
# nothing listens: the attacker's UdpNoPorts counts every reply that
# reaches it.  The victim is a bystander whose address the attacker writes
# into REQs as its rail (reflection): it must receive nothing, as
# ACCEPTs go to the REQ's source.
#
# A process costs 0.1-0.5 s under TCG (more while a transfer loads the
# CPU): one shell per namespace runs the commands, one "mrcinject -f -"
# per namespace injects, and counters are read with shell builtins.
#
# The transfer runs until every kind was fired (then the test stops its
# sender, SIGUSR1: an orderly end), not for a time that a slow machine
# could outlast; MRC_HOSTILE_XFER_S (240 s; debug kernel 600, within the
# harness's 900 s there with the 200 s that follow the kinds) only bounds it.
# On the debug kernel both senders pause MRC_HOSTILE_GAP_US (200 ms) after
# each message: at full speed they took both CPUs (10 messages a second
# under KASAN), and firing the kinds took 380 s of CI's hour.
# Environment: MRC_HOSTILE_XFER_S, MRC_HOSTILE_GAP_US,
# MRC_HOSTILE_N (packets per kind, 100), MRC_HOSTILE_FLOOD (garbage flood,
# 100000; debug kernel 3000: 84 s for 10000 there, and its bound, 2 MB in
# all, is then 699 bytes a packet: a per-packet leak of a whole skb still
# fails, a smaller one only on the stock kernel), MRC_HOSTILE_AMP (the
# amplification test's packets, 50 N; debug kernel 10 N: 70 s for 50 N;
# there the 200-a-second bound cannot fail, as B takes longer than that
# to receive them), MRC_HOSTILE_VERBOSE (print every injection).

. "$(dirname "$0")/lib.sh"

INJ=$MRC_TOP/tools/mrcinject/mrcinject
if [ ! -x "$INJ" ]; then
	tap_fail "mrc_hostile: tools/mrcinject/mrcinject is not built (make tools)"
	tap_end
fi
mrc_load
tmp=$(mktemp -d)
NA=mh-a
NB=mh-b
NX=mh-attacker
NV=mh-victim
PORT=7000	# the transfer
CPORT=7001	# the control transfer, ended by a genuine RESET
SMALLPORT=7050	# listeners that never accept: backlog 16,
BIGPORT=7100	# backlog 4096,
NEWPORT=7200	# and one nobody floods
XFER_S=240
FLOOD=100000
GAP_US=0
AMP=50
# The debug kernel (KASAN, lockdep) is ~10x slower under TCG.
[ "${MRC_KERNEL:-stock}" = debug ] && XFER_S=600 && FLOOD=3000 && GAP_US=200000 && AMP=10
XFER_S=${MRC_HOSTILE_XFER_S:-$XFER_S}
GAP_US=${MRC_HOSTILE_GAP_US:-$GAP_US}
N=${MRC_HOSTILE_N:-100}
AMP=${MRC_HOSTILE_AMP:-$((AMP * N))}
FLOOD=${MRC_HOSTILE_FLOOD:-$FLOOD}
t_start=$SECONDS

# ---- long-lived processes in the namespaces ------------------------------------
# co_start NAME NS CMD...: CMD in NS, reading lines from a FIFO
# co NAME LINES END: send LINES, collect the output up to a line starting
#	with END into OUT; the rest of that line in RC
declare -A CO_IN CO_OUT CO_PID
co_start() {
	local in out name=$1 ns=$2

	shift 2
	mkfifo "$tmp/$name.in" "$tmp/$name.out"
	ip netns exec "$ns" "$@" <"$tmp/$name.in" >"$tmp/$name.out" 2>&1 &
	CO_PID[$name]=$!
	exec {in}>"$tmp/$name.in" {out}<"$tmp/$name.out"
	CO_IN[$name]=$in
	CO_OUT[$name]=$out
}
co() {
	local line

	printf '%s\n' "$2" >&"${CO_IN[$1]}"
	OUT=
	while IFS= read -r line <&"${CO_OUT[$1]}"; do
		if [[ $line == "$3"* ]]; then
			RC=${line#"$3"}
			return 0
		fi
		OUT+=$line$'\n'
	done
	RC=255
}

# nsh NAME CMD: CMD in that namespace's shell
nsh() {
	co "sh$1" "$2"$'\necho "__nsh_end__ $?"' "__nsh_end__ "
}


cleanup() {
	local p

	# a sender sender_pause stopped (SIGTERM would kill it anyway)
	[ -n "$SPID" ] && kill -CONT "$SPID" 2>/dev/null
	for p in "${CO_PID[@]}" "$RPID" "$SPID" "$CRPID" "$CSPID" $LPIDS "$VPID"; do
		[ -n "$p" ] && kill "$p" 2>/dev/null
	done
	wait 2>/dev/null
	# a parameter the half-open flood raised, if it ended early
	[ -n "$hoto0" ] && echo "$hoto0" >/sys/module/mrc/parameters/half_open_timeout_ms
	[ -n "$rxb0" ] && echo "$rxb0" >/sys/module/mrc/parameters/rx_burst
	[ -n "$hd0" ] && echo "$hd0" >/sys/module/mrc/parameters/cc_host_delay
	rm -rf "$tmp"
	_ns_cleanup
}
hoto0=
rxb0=
hd0=
trap cleanup EXIT

# ---- topology ------------------------------------------------------------------
if ! mrc_pair $NA $NB 2 || ! ns_create $NX $NV; then
	tap_fail "topology: mrc_pair and the attacker's and victim's namespaces"
	tap_end
fi
printf '%s\n' "link add xa netns $NA type veth peer name x0 netns $NX" \
	"link add va netns $NA type veth peer name v0 netns $NV" | ip -batch -
printf '%s\n' "addr add 10.99.0.1/24 dev xa" "link set xa up" \
	"addr add 10.98.0.1/24 dev va" "link set va up" | ip -n $NA -batch -
printf '%s\n' "addr add 10.99.0.2/24 dev x0" "link set x0 up" \
	"route add default via 10.99.0.1" | ip -n $NX -batch -
printf '%s\n' "addr add 10.98.0.2/24 dev v0" "link set v0 up" \
	"route add default via 10.98.0.1" | ip -n $NV -batch -
printf '%s\n' "route add 10.99.0.0/24 via 10.0.0.1 dev b0" \
	"route add 10.98.0.0/24 via 10.0.0.1 dev b0" | ip -n $NB -batch -
ip netns exec $NV sleep 1000 &
VPID=$!		# its /proc/PID/net/snmp: the victim's UDP counters
for ns in A B; do
	co_start "sh$ns" "mh-${ns,}" bash
done
for ns in A B X; do
	co_start "inj$ns" "mh-$([ $ns = X ] && echo attacker || echo "${ns,}")" "$INJ" -f -
done
nsh A 'echo 1 >/proc/sys/net/ipv4/ip_forward'
APID=${CO_PID[injX]}	# its /proc/PID/net/snmp: the attacker's UDP counters

# snapfn NAME:PID... (in B): B's drop counters (mrc0 and rail b0), b0's
# traffic and the UdpNoPorts of each PID's namespace as "key:value" lines,
# keys relative to /sys/class/net ("mrc0/mrc_drops/no-conn",
# "b0/mrc_rail/tx_packets") and "NAME/noports".  Builtins only.
snapfn() {
	local f v w hdr i np

	for f in /sys/class/net/mrc0/mrc_drops/* /sys/class/net/b0/mrc_rail/drops/* \
		 /sys/class/net/mrc0/mrc/rx_dropped /sys/class/net/mrc0/mrc/rx_packets \
		 /sys/class/net/b0/mrc_rail/tx_packets /sys/class/net/b0/mrc_rail/tx_bytes \
		 /sys/class/net/b0/mrc_rail/rx_packets /sys/class/net/b0/mrc_rail/rx_bytes; do
		read -r v <"$f"
		echo "${f#/sys/class/net/}:$v"
	done
	for np in "$@"; do
		hdr=()
		while read -r -a w; do
			[ "${w[0]}" = Udp: ] || continue
			if [ ${#hdr[@]} = 0 ]; then
				hdr=("${w[@]}")
				continue
			fi
			for i in "${!hdr[@]}"; do
				[ "${hdr[$i]}" = NoPorts ] && echo "${np%:*}/noports:${w[$i]}"
			done
		done <"/proc/${np#*:}/net/snmp"
	done
}
nsh B "$(declare -f snapfn)"

# ---- counters ------------------------------------------------------------------
declare -A S P
all=0 rx=0 rxb=0 txp=0 txb=0	# set by dl and sumd

snap() {
	local line

	S=()
	nsh B "snapfn atk:$APID vic:$VPID"
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

# dl VAR KEY: VAR = how much a counter grew since keep
dl() {
	printf -v "$1" %d $((${S[$2]:-0} - ${P[$2]:-0}))
}

# d KEY: the same, printed
d() {
	echo $((${S[$1]:-0} - ${P[$1]:-0}))
}

# sumd VAR REASON...: VAR = sum of the deltas of these mrc0 drop reasons
# (VAR may be a local of the caller: bash's dynamic scope)
sumd() {
	local _sv=$1 _sr _st=0

	shift
	for _sr in "$@"; do
		_st=$((_st + ${S[mrc0/mrc_drops/$_sr]:-0} - ${P[mrc0/mrc_drops/$_sr]:-0}))
	done
	printf -v "$_sv" %d $_st
}

# settle "REASON..." N: re-read until those mrc0 drops grew by N (packets
# may still be on their way through A), at most ~3 s.
settle() {
	local i t

	for ((i = 0; i < 30; i++)); do
		snap
		# shellcheck disable=SC2086 # $1: one or more reasons
		sumd t $1
		[ "$t" -ge "$2" ] && return 0
		nap 0.1
	done
	return 1
}

# inject A|B|X ARGS: mrcinject ARGS in that namespace; SENT: what it sent
inject() {
	co "inj$1" "$2" "end rc="
	INJ_OUT=$OUT
	SENT=0
	[[ $OUT =~ sent=([0-9]+) ]] && SENT=${BASH_REMATCH[1]}
	if [ "$RC" != 0 ] || [ "$SENT" = 0 ]; then
		tap_diag "mrcinject $2: exit $RC: ${OUT//$'\n'/ }"
	elif [ -n "$MRC_HOSTILE_VERBOSE" ]; then
		tap_diag "[$((SECONDS - t_start)) s] mrcinject $2: ${OUT//$'\n'/ }"
	fi
}

# kind DESC REASON A|B|X REPLIES ARGS: inject N packets; mrc0's and b0's
# REASON counters must each have grown by exactly N.  REPLIES: what the
# attacker must have got back: 0, N (one each), or - (the replies go to
# the peer A: not counted here).
kind() {
	local desc=$1 reason=$2 replies=$4 dev rail got i

	keep
	inject "$3" "$5"
	settle "$reason" "$SENT"
	dl dev "mrc0/mrc_drops/$reason"
	dl rail "b0/mrc_rail/drops/$reason"
	check_eq "$desc: $SENT sent -> drop '$reason' +$dev on mrc0, +$rail on rail b0" \
		"$N $N $N" "$SENT $dev $rail"
	[ "$replies" = - ] && return
	[ "$replies" = N ] && replies=$SENT
	# B counts a drop after it sent the reply, which A still forwards
	# (from a softirq that a loaded machine may defer to ksoftirqd)
	dl got atk/noports
	for ((i = 0; i < 50 && got < replies; i++)); do
		nap 0.1
		snap
		dl got atk/noports
	done
	check_eq "$desc: replies reaching the attacker: $got (expected $replies)" "$replies" "$got"
}

# conns A|B: the first line of each of that host's connections (mrcctl
# conn show) in CONNS[].  Through a file: a slow reader of the dump would
# stretch it over seconds, while half-open connections come and go.
conns() {
	nsh "$1" "mrcctl conn show | grep '^[^ ]' >$tmp/conns"
	mapfile -t CONNS <"$tmp/conns"
}

# sender_pause: stop A's transfer sender (SIGSTOP) and wait until A's
# connection $AID has nothing in flight, lost or queued and B's credit is
# open, at most 10 s: then the PSNs of B's credit are all fresh, and what
# the injector sends at one of them cannot be a duplicate of A's.
sender_pause() {
	local i re='in-flight 0 lost 0 window [1-9][0-9]* snd-queue 0'

	kill -STOP "$SPID"
	for ((i = 0; i < 100; i++)); do
		nsh A "mrcctl conn show id $AID"
		[[ $OUT =~ $re ]] && return 0
		nap 0.1
	done
	tap_diag "sender_pause: A's connection did not drain: ${OUT//$'\n'/ }"
	return 1
}

# conn_find PORT: CID and CPEER of the established connection to or from
# mrc port PORT in CONNS
conn_find() {
	local l re="^[^ ]+ ([0-9a-f]+): established .*:$1 .*peer-id ([0-9a-f]+)"

	CID=
	CPEER=
	for l in "${CONNS[@]}"; do
		if [[ $l =~ $re ]]; then
			CID=${BASH_REMATCH[1]}
			CPEER=${BASH_REMATCH[2]}
			return 0
		fi
	done
	return 1
}

# count_conns STATE [PORT]: connections in STATE (on mrc port PORT) in CONNS
count_conns() {
	local l n=0 re=" $1 .*:${2:-[0-9]+} "

	for l in "${CONNS[@]}"; do
		[[ $l =~ $re ]] && n=$((n + 1))
	done
	echo $n
}

# half_open_ids: the ids of the half-open connections in CONNS, sorted
half_open_ids() {
	local l re="^[^ ]+ ([0-9a-f]+): req-rcvd "

	for l in "${CONNS[@]}"; do
		[[ $l =~ $re ]] && echo "${BASH_REMATCH[1]}"
	done | LC_ALL=C sort
}

# summary FILE: "msgs bytes hash" of an mrcat summary with errors=0
summary() {
	sed -n 's/.*msgs=\([0-9]*\) bytes=\([0-9]*\) hash=\([0-9a-f]*\) errors=0.*/\1 \2 \3/p' "$1"
}

# meminfo: Slab, SUnreclaim, MemAvailable in MEM; SUnreclaim (kB) in MEM_SU
meminfo() {
	local k v

	MEM=
	while read -r k v _; do
		case $k in
		Slab: | SUnreclaim: | MemAvailable:)
			MEM+="${k%:} $v kB, "
			[ "$k" = SUnreclaim: ] && MEM_SU=$v
			;;
		esac
	done </proc/meminfo
	MEM=${MEM%, }
}

# drain_slabs: every slab cache flushes its per-CPU slabs and frees its
# empty ones, and under KASAN also the freed objects its quarantine still
# holds (kmem_cache_shrink() drains them): SUnreclaim then counts objects
# in use, not memory kept for reuse.  Builtins only.
drain_slabs() {
	local c

	for c in /sys/kernel/slab/*; do
		[ -L "$c" ] || echo 1 >"$c/shrink"
	done 2>/dev/null
}

# wait_file FILE: at most 10 s
wait_file() {
	local i

	for ((i = 0; i < 100; i++)); do
		[ -e "$1" ] && return 0
		nap 0.1
	done
	return 1
}

# ---- the legitimate transfers ----------------------------------------------------
# The transfer checked end to end, and a control transfer that a genuine
# RESET will end.  Both without the HOST_DELAY capability (cc_host_delay
# off while they connect): an ACK's host_delay_us is then reserved.
hd0=$(cat /sys/module/mrc/parameters/cc_host_delay)
echo 0 >/sys/module/mrc/parameters/cc_host_delay
ip netns exec $NB mrcat -l -p $PORT -m 0 -s 1000-30000 -t $((XFER_S + 120)) -r "$tmp/ready" \
	>"$tmp/recv.out" 2>"$tmp/recv.err" &
RPID=$!
ip netns exec $NB mrcat -l -p $CPORT -m 0 -s 1000 -t $((XFER_S * 2 + 60)) -r "$tmp/cready" \
	>"$tmp/crecv.out" 2>"$tmp/crecv.err" &
CRPID=$!
LPIDS=
for l in $SMALLPORT:16 $BIGPORT:4096 $NEWPORT:16; do
	nsh B "$INJ -l -D ${l%:*} -B ${l#*:} -w 900 -r $tmp/ready.${l%:*} >/dev/null 2>&1 & echo \$!"
	LPIDS+=" ${OUT%$'\n'}"
done
wait_file "$tmp/ready"
wait_file "$tmp/cready"
for l in $SMALLPORT $BIGPORT $NEWPORT; do
	wait_file "$tmp/ready.$l"
done
ip netns exec $NA mrcat -c 10.0.0.2 -p $PORT -D "$XFER_S" -s 1000-30000 -t $((XFER_S + 120)) -d $GAP_US \
	>"$tmp/send.out" 2>"$tmp/send.err" &
SPID=$!
ip netns exec $NA mrcat -c 10.0.0.2 -p $CPORT -D $((XFER_S * 2)) -s 1000 -t $((XFER_S * 2 + 60)) -d $GAP_US \
	>"$tmp/csend.out" 2>"$tmp/csend.err" &
CSPID=$!
for ((i = 0; i < 50; i++)); do
	conns B
	conn_find $CPORT && CTL="-c $CID -C $CPEER" && conn_find $PORT && break
	nap 0.1
done
xfer_at=$SECONDS
BID=$CID
AID=$CPEER
conns A
conn_find $PORT
check_eq "transfer: established; B's connection $BID has peer-id $AID, A's $CID has peer-id $CPEER" \
	"$AID $BID" "$CID $CPEER"
echo "$hd0" >/sys/module/mrc/parameters/cc_host_delay

snap

# ---- the hostile peer: real ids, from A's rail address ------------------------------
kind "window (peer): DATA 2^30 PSNs beyond the cumulative PSN learned from B's ACKs" \
	out-of-window A - "-d 10.0.0.2 -s 10.0.0.1 -k window -L -v -c $BID -C $AID -n $N"
[[ $INJ_OUT =~ learned\ ([^$'\n']*) ]] && tap_diag "window: B's receive window at the first packet: ${BASH_REMATCH[1]}"
# At the last PSN of the credit: A's sender must not fill it first (the
# injected DATA would then be a duplicate).
if sender_pause; then
	kind "huge (peer): DATA of a 4 GiB message at the last PSN of the credit" msg-too-big A - \
		"-d 10.0.0.2 -s 10.0.0.1 -k huge -L -c $BID -C $AID -n $N"
	kind "huge (peer): DATA at offset 1 of a 1000-byte message (not segment-aligned)" bad-data A - \
		"-d 10.0.0.2 -s 10.0.0.1 -k huge -L -M 1000 -O 1 -z 10 -c $BID -C $AID -n $N"
else
	tap_fail "huge (peer): A's connection did not drain with its sender stopped"
	tap_fail "huge (peer): (the second case, not run)"
fi
kill -CONT "$SPID"
kind "bad-ack (peer): ACK of PSNs never sent, to the receiving side" bad-ack A - \
	"-d 10.0.0.2 -s 10.0.0.1 -k bad-ack -c $BID -C $AID -n $N"
kind "bad-ack-data (peer): DATA whose ACK part acknowledges PSNs never sent" bad-ack A - \
	"-d 10.0.0.2 -s 10.0.0.1 -k bad-ack-data -c $BID -C $AID -n $N"
kind "host-delay (peer): ACK with host_delay_us set, to a connection without HOST_DELAY" \
	reserved A - "-d 10.0.0.2 -s 10.0.0.1 -k host-delay -c $BID -C $AID -n $N"
# The sending side has packets in flight (most of the time on the debug
# kernel, where it pauses between messages): its scoreboard must refuse
# too.
nsh A 'read -r v </sys/class/net/mrc0/mrc_drops/bad-ack; echo $v'
a0=$OUT
inject B "-d 10.0.0.1 -s 10.0.0.2 -k bad-ack -c $AID -C $BID -n $N"
nap 0.2
nsh A 'read -r v </sys/class/net/mrc0/mrc_drops/bad-ack; echo $v'
check_eq "bad-ack (peer B to the sender A): $SENT sent -> drop 'bad-ack' +$((OUT - a0)) on A's mrc0" \
	"$N $N" "$SENT $((OUT - a0))"

# ---- well-formed packets that are not the peer's ------------------------------------
kind "no-conn (attacker): DATA to random ids, one RESET each" no-conn X N \
	"-d 10.0.0.2 -k no-conn -n $N"

# The same as UDP GSO bursts of 8 (mrcinject -G), which reach B whole (A
# forwards them as they are) and are taken whole (rx_burst 1): a burst of
# DATA of one connection id costs one lookup, and one RESET if there is
# no such connection; any other burst is cut and each packet judged alone.
# (RESETs to strays: at most 200 a second per device, so a second apart)
rxb0=$(cat /sys/module/mrc/parameters/rx_burst)
echo 1 >/sys/module/mrc/parameters/rx_burst
sleep 1.1
kind "no-conn bursts (attacker): DATA to random ids, 8 per GSO skb, cut: one RESET each" \
	no-conn X N "-d 10.0.0.2 -k no-conn -n $N -G 8"
sleep 1.1
kind "no-conn bursts (attacker): DATA to one absent id, 8 per GSO skb: one RESET per burst" \
	no-conn X $(((N + 7) / 8)) "-d 10.0.0.2 -k no-conn -c 0badf00d -C 1234 -n $N -G 8"
# (whole, as the RESETs per burst above show for no-conn; cut, the drops
# and replies would be the same)
kind "bad-source bursts (attacker): DATA with both real ids, 8 per GSO skb" bad-source X 0 \
	"-d 10.0.0.2 -k bad-source -c $BID -C $AID -n $N -G 8"
keep
inject X "-d 10.0.0.2 -k garbage -n $((N * 10)) -G 8"
settle "short version type reserved length bad-field no-conn" "$SENT"
sumd all short version type reserved length bad-field no-conn
check_eq "garbage bursts (attacker): $SENT random packets in GSO skbs -> parse drops + no-conn +$all on mrc0" \
	"$((N * 10))" "$all"
echo "$rxb0" >/sys/module/mrc/parameters/rx_burst
rxb0=
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
conn_find $PORT
check_eq "reset-other: B's connection survived $((5 * N)) RESETs, $((3 * N)) of them naming it (established, same id)" \
	"$BID" "$CID"

# ---- malformed packets from the attacker: dropped, never answered ------------------
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
sumd all $P_REASONS
check_eq "garbage (attacker): $SENT random packets -> parse drops + no-conn +$all on mrc0 (short $(d mrc0/mrc_drops/short), version $(d mrc0/mrc_drops/version), type $(d mrc0/mrc_drops/type), reserved $(d mrc0/mrc_drops/reserved), length $(d mrc0/mrc_drops/length), no-conn $(d mrc0/mrc_drops/no-conn))" \
	"$((N * 10))" "$all"
check "garbage (attacker): replies: one per no-conn drop at most ($(d atk/noports) for $(d mrc0/mrc_drops/no-conn))" \
	test "$(d atk/noports)" -le "$(d mrc0/mrc_drops/no-conn)"

# ---- control: both ids, from the peer's rail: that RESET does end it ---------------
inject A "-d 10.0.0.2 -s 10.0.0.1 -k reset-other $CTL -n 1"
start=$SECONDS
wait $CRPID
CRPID=
check_match "control: one RESET with both ids from the peer's rail resets that connection ($CTL, $((SECONDS - start)) s)" \
	"Connection reset" "$(cat "$tmp/crecv.err")"

# ---- REQ flood ------------------------------------------------------------------------
snap
keep
atk0=${S[atk/noports]}
# To a listener with backlog 16: 17 half-open at most (as TCP, listen(fd,
# N) takes N + 1), the rest dropped as backlog.
inject X "-d 10.0.0.2 -k req-flood -D $SMALLPORT -n $((N / 2 + 16))"
settle backlog $((SENT - 17))
conns B
ho=$(count_conns req-rcvd $SMALLPORT)
check_eq "req-flood (port $SMALLPORT, backlog 16): $SENT REQs -> $ho half-open, drop 'backlog' +$(d mrc0/mrc_drops/backlog)" \
	"17 $((SENT - 17))" "$ho $(d mrc0/mrc_drops/backlog)"
created=$((SENT - $(d mrc0/mrc_drops/backlog)))	# connections answering the attacker
# Reflection: REQs from the attacker naming the victim's address as their
# rail: the ACCEPTs go to the victim.
keep
inject X "-d 10.0.0.2 -k req-flood -D $BIGPORT -A 0:10.98.0.2 -n 8"
refl=$SENT
created=$((created + refl))	# their ACCEPTs go to the attacker too
nap 0.3
snap
# (the attacker also gets the retransmitted ACCEPTs of the flood before)
check "reflection: $refl REQs from 10.99.0.2 naming 10.98.0.2 as their plane-0 rail -> within 0.3 s the victim 10.98.0.2 received $(d vic/noports) packets, the attacker $(d atk/noports) (ACCEPTs)" \
	test "$(d vic/noports)" = 0 -a "$(d atk/noports)" -ge "$refl"
vic0=${P[vic/noports]}
# To a listener with backlog 4096: the device's cap, 1024 half-open in all.
# A half-open connection expires 10 s (the dead-peer time) after its REQ,
# which frees its place: the count is exact only if none expired before
# the flood was counted.  Whether one did is read from the kernel, not
# guessed from the clock: the ids of the device's half-open connections
# before and after the flood.  If some did (a slow or busy machine), the
# flood is fired again once none is left, so that only its own could
# expire; if they still do, the device could not be filled within their
# lifetime and the check fails.
# big_flood N: N REQs to port $BIGPORT.  Sets H0 (half-open before), ACC
# (REQs that made one), BIG and NOBUF (drops 'backlog' and 'no-buffer'),
# HALL and HBIG (half-open after: on the device, on $BIGPORT), GONE (of
# the H0, gone after) and EXP (of its own ACC, gone after).
big_flood() {
	local newc

	conns B
	half_open_ids >"$tmp/ho.0"
	mapfile -t HO0 <"$tmp/ho.0"
	H0=${#HO0[@]}
	keep
	flood_at=$SECONDS
	inject X "-d 10.0.0.2 -k req-flood -D $BIGPORT -n $1"
	settle backlog $((SENT - (1024 - H0)))
	conns B
	snap
	half_open_ids >"$tmp/ho.1"
	HALL=$(count_conns req-rcvd)
	HBIG=$(count_conns req-rcvd $BIGPORT)
	dl BIG mrc0/mrc_drops/backlog
	dl NOBUF mrc0/mrc_drops/no-buffer
	ACC=$((SENT - BIG - NOBUF))
	GONE=$(LC_ALL=C comm -23 "$tmp/ho.0" "$tmp/ho.1" | grep -c .)
	newc=$(LC_ALL=C comm -13 "$tmp/ho.0" "$tmp/ho.1" | grep -c .)
	EXP=$((ACC - newc))
	tap_diag "req-flood: $SENT REQs to port $BIGPORT in $((SECONDS - flood_at)) s: $H0 half-open before, $ACC more, $HALL after ($HBIG on port $BIGPORT); expired meanwhile: $GONE of those before, $EXP of its own"
}
# A slow kernel (the debug one: 6-25 ms a REQ) cannot fill the device
# within 10 s: the flood's half-open connections live 2 minutes here, and
# 10 s again (the default) once it was counted.
HOTO=/sys/module/mrc/parameters/half_open_timeout_ms
hoto0=$(cat $HOTO)
echo 120000 >$HOTO
big_flood 1200
if [ "$GONE" != 0 ] || [ "$EXP" != 0 ]; then
	created=$((created + ACC))
	tap_diag "req-flood: half-open connections expired during the flood: again once none is left"
	for ((i = 0; i < 60; i++)); do
		conns B
		[ "$(count_conns req-rcvd)" = 0 ] && break
		nap 0.5
	done
	big_flood 1200
fi
created=$((created + ACC))	# connections answering the attacker
if [ "$GONE" = 0 ] && [ "$EXP" = 0 ]; then
	check_eq "req-flood (port $BIGPORT, backlog 4096): $SENT REQs on $H0 half-open -> $ACC more, drop 'backlog' +$BIG, 'no-buffer' +$NOBUF; $HALL half-open after (none expired: same ids before and after): the device's 1024" \
		"$((1024 - H0)) $((SENT - (1024 - H0))) 0 1024" "$ACC $BIG $NOBUF $HALL"
else
	tap_fail "req-flood (port $BIGPORT): the device never held 1024 half-open connections" \
		"$EXP of the $ACC half-open connections of a flood of $SENT REQs expired before it was counted" \
		"(their lifetime was half_open_timeout_ms: $(cat $HOTO) ms)"
fi
echo "$hoto0" >$HOTO
conn_find $PORT
check_eq "every kind was fired while the transfer ran (B's connection established after $((SECONDS - xfer_at)) s; at most ${XFER_S} s)" \
	"$BID" "$CID"
kill -USR1 $SPID	# the sender ends the transfer in order

# ---- the transfer is intact -------------------------------------------------------------
wait $SPID
src=$?
SPID=
wait $RPID
rrc=$?
RPID=
hs=$(summary "$tmp/send.out")
hr=$(summary "$tmp/recv.out")
if [ $src = 0 ] && [ $rrc = 0 ] && [ -n "$hs" ] && [ "$hs" = "$hr" ]; then
	tap_ok "transfer: $((SECONDS - xfer_at)) s A -> B under attack intact: $hs (messages, bytes, hash) identical at both ends"
else
	tap_fail "transfer: A -> B under attack intact" \
		"sender (exit $src): $(cat "$tmp/send.out")" \
		"receiver (exit $rrc): $(cat "$tmp/recv.out")" \
		"$(cat "$tmp/send.err" "$tmp/recv.err")"
fi
tap_diag "transfer: $(sed -n 's/.*\(elapsed_ms=.*\)/\1/p' "$tmp/send.out"); $(grep -o 'retrans=[0-9]*' "$tmp/send.err")"
wait $CSPID
CSPID=

# ---- the half-open connections expire, and leave no trace ----------------------------
for ((i = 0; i < 40; i++)); do
	conns B
	hall=$(count_conns req-rcvd)
	[ "$hall" = 0 ] && break
	nap 0.5
done
check_eq "req-flood: no half-open connection left $((SECONDS - flood_at)) s after the flood (dead-peer time 10 s)" \
	0 "$hall"
snap
atk1=${S[atk/noports]}
per=$(((atk1 - atk0) * 100 / (created ? created : 1)))
per=$((per / 100)).$((per % 100 / 10))$((per % 10))
tap_diag "req-flood: $((atk1 - atk0)) packets (ACCEPTs and their retransmissions) reached the attacker for $created half-open connections: $per per REQ"
check "req-flood: replies per REQ: an ACCEPT and at most 3 retransmissions ($per <= 4)" \
	test "$((atk1 - atk0))" -le $((4 * created))
vic=$((${S[vic/noports]} - vic0))
check_eq "reflection: in all the victim received $vic packets for the attacker's $refl REQs (ACCEPTs, their retransmissions and RESETs go to the REQ's source)" \
	0 "$vic"
# A REQ must be answered again, not dropped as backlog: the half-open
# counts must have come down with the connections.  Port $NEWPORT's
# listener never had a child: only the device's count can refuse it.
keep
inject X "-d 10.0.0.2 -k req-flood -D $NEWPORT -n 1"
nap 0.5
snap
check "req-flood: after the expiry a REQ to a listener never flooded (port $NEWPORT) is accepted (drop 'backlog' +$(d mrc0/mrc_drops/backlog), ACCEPT and its retransmissions: $(d atk/noports))" \
	test "$(d mrc0/mrc_drops/backlog)" = 0 -a "$(d atk/noports)" -ge 1

# ---- amplification: replies to a flood for unknown connections -------------------------
snap
keep
amp_at=$SECONDS
inject X "-d 10.0.0.2 -k no-conn -z 1000 -n $AMP"
settle no-conn "$SENT"
amp_s=$((SECONDS - amp_at + 1))
dl rx mrc0/mrc_drops/no-conn
dl txp b0/mrc_rail/tx_packets
dl txb b0/mrc_rail/tx_bytes
dl rxb b0/mrc_rail/rx_bytes
tap_diag "amplification: $SENT no-conn DATA of 1036 bytes -> B received $rx ($rxb bytes), sent $txp packets ($txb bytes of mrc headers); the attacker got $(d atk/noports)"
check "amplification: at most one reply per packet received ($txp replies for $rx)" \
	test "$txp" -le "$rx"
check "amplification: RESET replies rate-limited to 200 a second ($txp in at most $amp_s s)" \
	test "$txp" -le $((200 * (amp_s + 1)))
check "amplification: replies are small ($txb bytes out for $rxb in: at most 2 %)" \
	test $((txb * 50)) -le "$rxb"

# ---- memory: flat across a large flood -----------------------------------------------------
nsh B "kill $LPIDS"	# the listeners of ports $SMALLPORT, $BIGPORT, $NEWPORT
LPIDS=
for ((i = 0; i < 40; i++)); do
	conns B
	[ ${#CONNS[@]} = 0 ] && break
	nap 0.25
done
inject X "-d 10.0.0.2 -k garbage -n $((FLOOD / 5))"	# warm the caches
nap 0.5
snap
keep
ds=$SECONDS
drain_slabs
ds=$((SECONDS - ds))
meminfo
m0=$MEM
su0=$MEM_SU
fs=$SECONDS
inject X "-d 10.0.0.2 -k garbage -n $FLOOD"
settle "$P_REASONS" "$SENT"
fs=$((SECONDS - fs))
nap 1
drain_slabs
meminfo
# shellcheck disable=SC2086
sumd all $P_REASONS
tap_diag "memory: before the flood: $m0 (slab caches drained in $ds s)"
tap_diag "memory: after the flood:  $MEM"
check_eq "flood: $SENT garbage packets in ${fs} s -> all received and dropped (mrc0 rx_packets +$(d mrc0/mrc/rx_packets), drops +$all)" \
	"$FLOOD $FLOOD $FLOOD" "$SENT $(d mrc0/mrc/rx_packets) $all"
check "memory: SUnreclaim grew $((MEM_SU - su0)) kB over $SENT packets, slab caches drained before both readings (tolerance 2048 kB: $((2048 * 1024 / FLOOD)) bytes a packet)" \
	test $((MEM_SU - su0)) -le 2048

tap_diag "mrc_hostile: $((SECONDS - t_start)) s"
tap_end
