#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mrc_handshake.sh - the handshake guards of wire format version 2
# (Documentation/mrc/wire.rst), against host B with 32 rails:
#
# 1. Amplification in bytes (review S7): N REQs whose source is forged to a
#    victim's address.  Each half-open connection sends the victim an
#    ACCEPT and at most MRC_ACCEPT_RETRIES (3) retransmissions, each no
#    larger than its REQ (a REQ is padded to the largest ACCEPT), so the
#    victim receives at most 4x the bytes B received from the REQs.  B's
#    32 rails make its ACCEPT as large as an ACCEPT can be: the bound is
#    met with equality.  Counted by tc on B's rail (REQs in) and on the
#    victim's interface (ACCEPTs in), both at ingress.
# 2. A short (unpadded) REQ is dropped as "length" and answered with
#    nothing; a padded one from the same sender is answered.
# 3. 64 bits in REQ_SENT (review S5): a client whose ACCEPTs B's rail
#    drops (tc) stays in REQ_SENT.  Its id is read through netlink
#    (mrcctl -j conn show, root); its isn by sniffing its REQ on B
#    (mrcinject -Q).  From B's address, with the right dst_conn: an ACCEPT
#    with a wrong echo, a RESET with a wrong src_conn, and a RESET with
#    the right src_conn from B's other address are each dropped as
#    bad-source (+1 exactly) and the client stays in REQ_SENT (the last of
#    them to a fresh client, 1b; dead_peer_ms and half_open_timeout_ms are
#    raised to 2 min for S5, beyond the clients' own 60 s (mrcat -t), so
#    that no step races the kernel's timeouts).  Controls:
#    the RESET with src_conn = isn fails connect() with ECONNREFUSED; for a
#    second client, the ACCEPT with echo = isn (and src_conn = B's
#    half-open child) completes the handshake at both ends.  A third
#    client hears the RESET of its half-open child, aborted as B's device
#    is deleted: that RESET echoes the isn, and connect() is refused.
# 4. A REQ forged from a subnet broadcast address (review S8) is dropped as
#    bad-source and never answered (an answer would be a broadcast).
#
#   attacker 10.99.0.2 --x0--xa--+
#                                A (forwards) 10.P.0.1 aP ==== bP 10.P.0.2 B
#   victim   10.98.0.2 --v0--va--+                  (P = 0..31)
#
# Environment: MRC_HANDSHAKE_N (spoofed REQs, 50).

. "$(dirname "$0")/lib.sh"

INJ=$MRC_TOP/tools/mrcinject/mrcinject
if [ ! -x "$INJ" ]; then
	tap_fail "mrc_handshake: tools/mrcinject/mrcinject is not built (make tools)"
	tap_end
fi
mrc_load
tmp=$(mktemp -d)
NA="hs-a"
NB="hs-b"
NX="hs-attacker"
NV="hs-victim"
PLANES=32		# MRC_WIRE_MAX_RAILS: B's ACCEPT is 676 bytes, as a REQ
S7PORT=7400		# listeners that never accept
SHORTPORT=7500
S5PORT=7600
N=${MRC_HANDSHAKE_N:-50}
REQ_LEN=676		# MRC_REQ_WIRE_LEN
ACCEPT_RETRIES=3	# MRC_ACCEPT_RETRIES
t_start=$SECONDS

# ---- long-lived processes in the namespaces (as in mrc_hostile.sh) -------------
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
	while IFS= read -r -t 120 line <&"${CO_OUT[$1]}"; do
		if [[ $line == "$3"* ]]; then
			RC=${line#"$3"}
			return 0
		fi
		OUT+=$line$'\n'
	done
	RC=255
}

# nsh A|B|X|V CMD: CMD in that namespace's shell; its output in OUT
nsh() {
	co "sh$1" "$2"$'\necho "__nsh_end__ $?"' "__nsh_end__ "
	OUT=${OUT%$'\n'}
}

# inject A|B|X ARGS: mrcinject ARGS in that namespace; SENT: what it sent
inject() {
	co "inj$1" "$2" "end rc="
	SENT=0
	[[ $OUT =~ sent=([0-9]+) ]] && SENT=${BASH_REMATCH[1]}
	[ "$RC" != 0 ] && tap_diag "mrcinject $2: exit $RC: ${OUT//$'\n'/ }"
}


BGPIDS=
PARAMS=/sys/module/mrc/parameters
DP0= HO0=	# dead_peer_ms and half_open_timeout_ms before S5
cleanup() {
	local p

	[ -n "$DP0" ] && echo "$DP0" >$PARAMS/dead_peer_ms
	[ -n "$HO0" ] && echo "$HO0" >$PARAMS/half_open_timeout_ms
	for p in "${CO_PID[@]}" $BGPIDS; do
		kill "$p" 2>/dev/null
	done
	wait 2>/dev/null
	rm -rf "$tmp"
	_ns_cleanup
}
trap cleanup EXIT

# rd NS FILE...: the values of sysfs/proc files in NS, space-separated (builtins)
rd() {
	local ns=$1 f cmd=

	shift
	for f in "$@"; do
		cmd+="read -r v <$f; printf '%s ' \"\$v\"; "
	done
	nsh "$ns" "${cmd}echo"
	OUT=${OUT% }
}

# tc_count NS DEV HOOK: "BYTES PACKETS" counted by the one tc filter there
tc_count() {
	nsh "$1" "tc -s filter show dev $2 $3"
	if [[ $OUT =~ Sent\ ([0-9]+)\ bytes\ ([0-9]+)\ pkt ]]; then
		OUT="${BASH_REMATCH[1]} ${BASH_REMATCH[2]}"
	else
		tap_diag "no tc counter on $1 $2 $3: ${OUT//$'\n'/ }"
		OUT="0 0"
	fi
}

# conn_json NS: the connections of NS as mrcctl -j prints them, in JSON
conn_json() {
	nsh "$1" "mrcctl -j conn show"
	JSON=$OUT
}

# conn_to PORT STATE: ID of the first connection in JSON in STATE whose
# peer has mrc port PORT (a client's)
conn_to() {
	local re="\"id\":\"([0-9a-f]{8})\",\"peer_id\":\"[0-9a-f]{8}\",\"state\":\"$2\",\"local\":\\{[^}]*\\},\"peer\":\\{[^}]*\"port\":$1\\}"

	ID=
	[[ $JSON =~ $re ]] && ID=${BASH_REMATCH[1]}
}

# child_of PEERID STATE: ID of the connection in JSON in STATE whose peer
# has id PEERID
child_of() {
	local re="\"id\":\"([0-9a-f]{8})\",\"peer_id\":\"$1\",\"state\":\"$2\""

	ID=
	[[ $JSON =~ $re ]] && ID=${BASH_REMATCH[1]}
}

# count_state NS PORT STATE: how many of the connections of NS are in STATE
# on local mrc port PORT (in OUT)
count_state() {
	nsh "$1" "mrcctl conn show | grep -c -E '^[^ ]+ [0-9a-f]+: $3 [^ ]+:$2 '"
}

# wait_file [-s] FILE: until FILE exists (-s: and is not empty), at most 10 s
wait_file() {
	local i full=0

	[ "$1" = -s ] && full=1 && shift
	for ((i = 0; i < 100; i++)); do
		if [ $full = 1 ]; then
			[ -s "$1" ] && return 0
		else
			[ -e "$1" ] && return 0
		fi
		nap 0.1
	done
	return 1
}

# ---- topology --------------------------------------------------------------------
if ! mrc_pair $NA $NB $PLANES || ! ns_create $NX $NV; then
	tap_fail "topology: mrc_pair with $PLANES planes, the attacker's and victim's namespaces"
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
for ns in A B X V; do
	co_start "sh$ns" "hs-$(case $ns in X) echo attacker ;; V) echo victim ;; *) echo "${ns,}" ;; esac)" bash
done
for ns in B X; do
	co_start "inj$ns" "hs-$([ $ns = X ] && echo attacker || echo "${ns,}")" "$INJ" -f -
done
# The forgery: the attacker has the victim's address on its loopback and
# sends from it; A forwards that (no reverse-path filter), but routes the
# replies to the victim.
nsh A 'echo 1 >/proc/sys/net/ipv4/ip_forward; for f in all default xa va a0; do echo 0 >/proc/sys/net/ipv4/conf/$f/rp_filter; done'
ip -n $NX addr add 10.98.0.2/32 dev lo
for l in $S7PORT:4096 $SHORTPORT:16 $S5PORT:16; do
	nsh B "$INJ -l -D ${l%:*} -B ${l#*:} -w 600 -r $tmp/ready.${l%:*} >/dev/null 2>&1 & echo \$!"
	BGPIDS+=" $OUT"
	wait_file "$tmp/ready.${l%:*}" || tap_diag "listener on port ${l%:*} not ready"
done
# Counters, all at ingress (the same bytes per packet on both sides):
# REQs from the victim's address reaching B's rail b0, B's packets reaching
# the victim and the attacker.
nsh B "tc qdisc add dev b0 clsact && tc filter add dev b0 ingress protocol ip prio 1 flower ip_proto udp src_ip 10.98.0.2 dst_ip 10.0.0.2 dst_port 4796 action pass"
tcb=$RC
nsh V "tc qdisc add dev v0 clsact && tc filter add dev v0 ingress protocol ip prio 1 flower ip_proto udp src_ip 10.0.0.2 action pass"
tcv=$RC
nsh X "tc qdisc add dev x0 clsact && tc filter add dev x0 ingress protocol ip prio 1 flower ip_proto udp src_ip 10.0.0.2 action pass"
check_eq "topology: $PLANES rails each on A and B, tc counters on B's b0, the victim's v0 and the attacker's x0" \
	"0 0 0" "$tcb $tcv $RC"

# ---- 1. S7: bytes sent toward a forged source ---------------------------------
tc_count B b0 ingress
read -r rq0 rqp0 <<<"$OUT"
tc_count V v0 ingress
read -r vb0 vp0 <<<"$OUT"
inject X "-d 10.0.0.2 -s 10.98.0.2 -k req-flood -D $S7PORT -A 0:10.98.0.2 -n $N"
sent=$SENT
# Every ACCEPT and retransmission there will ever be: the half-open
# connections retransmit for 0.2 + 0.4 + 0.8 s and expire after the
# dead-peer time (10 s) without a RESET.
ho=
for ((i = 0; i < 80; i++)); do
	count_state B $S7PORT req-rcvd
	ho=$OUT
	[ "$ho" = 0 ] && [ $i -gt 0 ] && break
	[ $i = 0 ] && tap_diag "S7: $ho half-open connections on port $S7PORT after the flood"
	nap 0.25
done
tc_count B b0 ingress
read -r rq rqp <<<"$OUT"
tc_count V v0 ingress
read -r vb vp <<<"$OUT"
rq=$((rq - rq0)) rqp=$((rqp - rqp0)) vb=$((vb - vb0)) vp=$((vp - vp0))
ratio=$((vb * 1000 / (rq ? rq : 1)))
ratio=$((ratio / 1000)).$(printf %03d $((ratio % 1000)))
tap_diag "S7: $sent forged REQs -> B received $rqp ($rq bytes, $((rq / (rqp ? rqp : 1))) a packet); the victim received $vp packets from B ($vb bytes, $((vb / (vp ? vp : 1))) a packet): ratio $ratio"
check_eq "S7: $N forged REQs reached B, and the half-open connections expired" \
	"$N $N 0" "$sent $rqp $ho"
check_eq "S7: the victim received an ACCEPT and $ACCEPT_RETRIES retransmissions per REQ ($vp packets for $rqp REQs)" \
	"$((4 * N))" "$vp"
check "S7: bytes toward the forged source <= 4 x bytes of the REQs ($vb <= 4 x $rq: ratio $ratio)" \
	test "$rq" -gt 0 -a "$vb" -le $((4 * rq))

# ---- S8: a REQ forged from a subnet's broadcast address ------------------------
# B's rail subnet is 10.0.0.0/24; the attacker sends from 10.0.0.255, which
# A forwards and B (no reverse-path filter) accepts: an answer would go out
# as a broadcast.  It is dropped as bad-source; nothing leaves b0 to it.
nsh B 'for f in all default b0; do echo 0 >/proc/sys/net/ipv4/conf/$f/rp_filter; done; tc filter add dev b0 egress protocol ip prio 2 flower dst_ip 10.0.0.255 action pass'
ip -n $NX addr add 10.0.0.255/32 dev lo
rd B /sys/class/net/mrc0/mrc_drops/bad-source
bs0=$OUT
inject X "-d 10.0.0.2 -s 10.0.0.255 -k req-flood -D $S7PORT -A 0:10.0.0.255 -n 5"
nap 1
rd B /sys/class/net/mrc0/mrc_drops/bad-source
bs=$((OUT - bs0))
tc_count B b0 egress
check_eq "S8: 5 REQs from the broadcast address 10.0.0.255 -> drop 'bad-source' +5 on B, nothing sent to it" \
	"5 5 0" "$SENT $bs ${OUT#* }"
ip -n $NX addr del 10.0.0.255/32 dev lo

# ---- 2. a short (unpadded) REQ: dropped as length, never answered ------------
tc_count X x0 ingress
read -r xb0 xp0 <<<"$OUT"
rd B /sys/class/net/mrc0/mrc_drops/length /sys/class/net/b0/mrc_rail/drops/length
read -r dl0 rl0 <<<"$OUT"
inject X "-d 10.0.0.2 -k req-flood -U -D $SHORTPORT -n 5"
short=$SENT
for ((i = 0; i < 20; i++)); do
	rd B /sys/class/net/mrc0/mrc_drops/length /sys/class/net/b0/mrc_rail/drops/length
	read -r dl rl <<<"$OUT"
	[ $((dl - dl0)) -ge 5 ] && break
	nap 0.1
done
nap 0.5
count_state B $SHORTPORT req-rcvd
hs=$OUT
tc_count X x0 ingress
read -r xb xp <<<"$OUT"
check_eq "short REQ: $short REQs of 56 bytes (one rail, unpadded) -> drop 'length' +$((dl - dl0)) on mrc0, +$((rl - rl0)) on b0; half-open $hs; packets back to the sender $((xp - xp0))" \
	"5 5 5 0 0" "$short $((dl - dl0)) $((rl - rl0)) $hs $((xp - xp0))"
# Control: the same sender, a padded REQ: a half-open connection and an ACCEPT.
inject X "-d 10.0.0.2 -k req-flood -D $SHORTPORT -n 1"
for ((i = 0; i < 20; i++)); do
	tc_count X x0 ingress
	read -r xb xp <<<"$OUT"
	[ $((xp - xp0)) -ge 1 ] && break
	nap 0.1
done
count_state B $SHORTPORT req-rcvd
hs=$OUT
check_eq "short REQ, control: a padded REQ from the same sender makes a half-open connection and comes back as an ACCEPT ($((xp - xp0)) packets, $((xb - xb0)) bytes so far)" \
	"1 1" "$hs $((xp - xp0 > 0))"

# ---- 3. S5: 64 bits checked in REQ_SENT ------------------------------------------
# A keeps the rails of planes 0 and 1: its REQs carry 2 rails (116 bytes)
# and must come padded to 676.
for ((p = 2; p < PLANES; p++)); do
	echo "link set dev a$p nomaster"
done | ip -n $NA -batch -
# B's rail b0 drops the ACCEPTs B's kernel sends to A's plane-0 rail (UDP
# source port 0xC000 | ev, mrc type 2 at byte 1 of the UDP payload);
# mrcinject's (source port 4000) pass.
nsh B "tc filter add dev b0 egress protocol ip prio 1 u32 match ip protocol 17 0xff match ip dst 10.0.0.1/32 match u16 0xc000 0xc000 at 20 match u8 2 0xff at 29 action drop"
check_eq "S5: tc on B's b0 drops B's ACCEPTs to A" 0 "$RC"
BINJ="-d 10.0.0.1 -s 10.0.0.2 -P 4000"

# bad_source: A's bad-source drops (mrc0 and rail a0) in BS
bad_source() {
	rd A /sys/class/net/mrc0/mrc_drops/bad-source /sys/class/net/a0/mrc_rail/drops/bad-source
	BS=$OUT
}

# s5_client NAME: connect() from A to B's S5PORT in the background (mrcat);
# the REQ sniffed on B (REQ_SRC, ISN, REQ_LEN_SEEN, REQ_RAILS) and the
# client's connection read through netlink (CID, CSTATE)
s5_client() {
	local i

	rm -f "$tmp/req" "$tmp/$1.ready"
	nsh B "$INJ -Q -d 10.0.0.1 -w 8 >$tmp/req 2>&1 & echo \$!"
	BGPIDS+=" $OUT"
	nap 0.3
	ip netns exec $NA mrcat -c 10.0.0.2 -p $S5PORT -m 1 -s 100 -t 60 -r "$tmp/$1.ready" \
		>"$tmp/$1.out" 2>"$tmp/$1.err" &
	CPID=$!
	BGPIDS+=" $CPID"
	wait_file -s "$tmp/req"
	REQ_SRC='' ISN='' REQ_LEN_SEEN='' REQ_RAILS=
	if [[ $(cat "$tmp/req") =~ src_conn=([0-9a-f]+)\ isn=([0-9a-f]+)\ len=([0-9]+)\ n_rails=([0-9]+) ]]; then
		REQ_SRC=${BASH_REMATCH[1]} ISN=${BASH_REMATCH[2]}
		REQ_LEN_SEEN=${BASH_REMATCH[3]} REQ_RAILS=${BASH_REMATCH[4]}
	else
		tap_diag "$1: no REQ sniffed: $(cat "$tmp/req")"
	fi
	for ((i = 0; i < 20; i++)); do
		conn_json A
		conn_to $S5PORT req-sent
		[ -n "$ID" ] && break
		nap 0.1
	done
	CID=$ID
}

# still_req_sent: CSTATE = the state of A's connection CID ("" if gone)
still_req_sent() {
	conn_json A
	CSTATE=
	[[ $JSON =~ \"id\":\"$CID\",\"peer_id\":\"[0-9a-f]*\",\"state\":\"([a-z-]+)\" ]] &&
		CSTATE=${BASH_REMATCH[1]}
}

# expect_bad_source DESC ARGS: inject ARGS from B; A's bad-source must grow
# by exactly 1 (on mrc0 and a0) and CID stay in REQ_SENT.
expect_bad_source() {
	local b0 i m0 r0 m r

	bad_source
	b0=$BS
	inject B "$BINJ $2"
	for ((i = 0; i < 20; i++)); do
		bad_source
		[ "$BS" != "$b0" ] && break
		nap 0.1
	done
	nap 0.2
	bad_source
	read -r m0 r0 <<<"$b0"
	read -r m r <<<"$BS"
	still_req_sent
	check_eq "S5: $1 -> drop 'bad-source' +$((m - m0)) on A's mrc0, +$((r - r0)) on a0; the client is $CSTATE" \
		"1 1 1 req-sent" "$SENT $((m - m0)) $((r - r0)) $CSTATE"
}

# A client in REQ_SENT gives up after the dead-peer time and B's half-open
# child expires after half_open_timeout_ms (10 s each): a loaded debug
# kernel takes longer than that for some of the steps below, so S5 raises
# both (cleanup puts them back).
DP0=$(cat $PARAMS/dead_peer_ms) HO0=$(cat $PARAMS/half_open_timeout_ms)
echo 120000 >$PARAMS/dead_peer_ms
echo 120000 >$PARAMS/half_open_timeout_ms

# Client 1: wrong echo, wrong src_conn, wrong address; then the RESET that
# is right.
s5_client c1
check_eq "S5: client 1 in req-sent (id $CID, read with mrcctl -j conn show); its REQ on B: src_conn $REQ_SRC, $REQ_LEN_SEEN bytes, $REQ_RAILS rails" \
	"$CID $REQ_LEN 2" "$REQ_SRC $REQ_LEN_SEEN $REQ_RAILS"
[ -z "$ISN" ] && ISN=0
WRONG=$(printf %08x $((0x$ISN ^ 0x00010000)))
expect_bad_source "ACCEPT to $CID with echo $WRONG (isn $ISN)" \
	"-k accept -c $CID -C 5eed0001 -e $WRONG -A 0:10.0.0.2"
expect_bad_source "RESET to $CID with src_conn $WRONG (isn $ISN)" \
	"-k reset-other -c $CID -C $WRONG -R 2"
# A fresh client takes the last two steps.
kill $CPID 2>/dev/null
wait $CPID 2>/dev/null
s5_client c1b
check_eq "S5: client 1b in req-sent (id $CID); its REQ on B: src_conn $REQ_SRC, $REQ_LEN_SEEN bytes, $REQ_RAILS rails" \
	"$CID $REQ_LEN 2" "$REQ_SRC $REQ_LEN_SEEN $REQ_RAILS"
[ -z "$ISN" ] && ISN=0
bad_source
b0=$BS
inject B "-d 10.0.0.1 -s 10.1.0.2 -P 4000 -k reset-other -c $CID -C $ISN -R 2"
nap 0.3
bad_source
read -r m0 r0 <<<"$b0"
read -r m r <<<"$BS"
still_req_sent
check_eq "S5: RESET to $CID with src_conn = isn from B's plane-1 address (not the one connect() named) -> drop 'bad-source' +$((m - m0)) on A's mrc0; the client is $CSTATE" \
	"1 1 req-sent" "$SENT $((m - m0)) $CSTATE"
tc_count B b0 egress
read -r _ dropped <<<"$OUT"
tap_diag "S5: B's ACCEPTs to clients 1 and 1b dropped by tc so far: $dropped"
bad_source
b0=$BS
t0=$SECONDS
inject B "$BINJ -k reset-other -c $CID -C $ISN -R 2"
wait $CPID
crc=$?
bad_source
check_eq "S5 control: RESET to $CID with src_conn = isn $ISN from B -> connect() fails at once with ECONNREFUSED (mrcat exit $crc after $((SECONDS - t0)) s; bad-source $b0 -> $BS)" \
	"1 mrcat: connect: Connection refused $b0" "$crc $(cat "$tmp/c1b.err") $BS"
check "S5: B's kernel answered clients 1 and 1b with ACCEPTs (tc dropped $dropped)" test "$dropped" -ge 1

# Client 2: the ACCEPT that is right completes the handshake, as B's child.
s5_client c2
conn_json B
child_of "$CID" req-rcvd
SID=$ID
check "S5: client 2 in req-sent (id $CID, its REQ's src_conn $REQ_SRC), B's half-open child $SID has it as its peer" \
	test -n "$CID" -a "$CID" = "$REQ_SRC" -a -n "$SID"
bad_source
b0=$BS
# (B's rails on both planes A kept, as B's own ACCEPT would list them: B's
# child then speaks from either, and A must take it.)
inject B "$BINJ -k accept -c $CID -C $SID -e $ISN -A 0:10.0.0.2 -A 1:10.1.0.2"
wait_file "$tmp/c2.ready"
for ((i = 0; i < 20; i++)); do
	conn_json B
	child_of "$CID" established
	[ -n "$ID" ] && break
	nap 0.1
done
still_req_sent
bad_source
check_eq "S5 control: ACCEPT to $CID with echo = isn $ISN and B's child's id -> connect() returns, A's connection $CSTATE, B's child $ID established, bad-source $b0 -> $BS" \
	"ready established $SID $b0" \
	"$([ -e "$tmp/c2.ready" ] && echo ready) $CSTATE $ID $BS"
[ "$CSTATE" = established ] || tap_diag "client 2: $(cat "$tmp/c2.err")"
kill $CPID 2>/dev/null

# Client 3: B's half-open child is aborted (its device deleted) while the
# client is in REQ_SENT: its RESET carries the REQ's isn as src_conn, so
# connect() fails with ECONNREFUSED at once (not ETIMEDOUT after 10 s).
s5_client c3
conn_json B
child_of "$CID" req-rcvd
SID=$ID
bad_source
b0=$BS
t0=$SECONDS
ip -n $NB link del mrc0
exits=0
for ((i = 0; i < 50; i++)); do
	kill -0 $CPID 2>/dev/null || { exits=1; break; }
	nap 0.1
done
wait $CPID
crc=$?
bad_source
check_eq "S5: B's device deleted under its half-open child $SID of client 3 ($CID): the child's RESET carries the isn, connect() fails with ECONNREFUSED (mrcat exit $crc within $((SECONDS - t0)) s; bad-source $b0 -> $BS)" \
	"1 1 mrcat: connect: Connection refused $b0" "$exits $crc $(cat "$tmp/c3.err") $BS"
echo "$DP0" >$PARAMS/dead_peer_ms
echo "$HO0" >$PARAMS/half_open_timeout_ms
DP0= HO0=

tap_diag "mrc_handshake: $((SECONDS - t_start)) s"
tap_end
