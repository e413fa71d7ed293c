#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mrc_live.sh - configuration that live connections cannot survive is
# refused, and nothing of a refused request is applied:
#   - udp-port of a device with connections: they receive on the old port
#     and their peers keep sending there.  EBUSY with the exact extack
#     message, through mrcctl (dev-set) and sysfs; a valid max-msg-size in
#     the same dev-set is not applied either (all or nothing);
#   - a rail's MTU lowered below what the connections' segments need
#     (seg_size is fixed at the handshake: their DATA would be dropped
#     while small probes pass).  "ip link set mtu" fails with EBUSY, the
#     reason (connections, segment size, rail, bound) is in the kernel
#     log, the MTU is unchanged.  The bound comes from the segments, not
#     from the current MTU: after a raise to 2000, 1600 is accepted, 1499
#     is not.  IPv4 (20-byte header) and IPv6 (40) rails;
#   - the connections keep working: each transfer completes, every byte
#     verified at both ends;
#   - once the connections are gone, both changes are accepted;
#   - a port left behind (another device of the namespace keeps it open)
#     is not the device's any more: the peer's REQs to it are no-rail
#     drops of the device and rail (sysfs, ethtool -S, each one counted),
#     no half-open connection holds the device, it moves back at once.
# Before this, the udp-port change was accepted and wedged the connection
# (no test caught it), and the MTU went down under it.

. "$(dirname "$0")/lib.sh"

mrc_load
PORT=$(uapi_define MRC_UDP_PORT_DEFAULT)
tmp=$(mktemp -d)
HDP=/sys/module/mrc/parameters/cc_host_delay
hd0=$(cat $HDP)
trap '_ns_cleanup; kill -CONT $spid 2>/dev/null; kill $spid $rpid 2>/dev/null; rm -rf "$tmp"; echo "$hd0" >$HDP' EXIT
# the first pair's ports open with receive timestamps (HOST_DELAY)
echo Y >$HDP
# A held connection: MSGS messages of 8000 bytes (16 MB), more than the
# receiver's credit (about 7 MB at the default max-msg-size) and the
# sender's buffer can take, so the sender is still sending when it is
# stopped, however late that happens; the receiver (5 ms per message)
# drains what was sent, then the connection idles, established.
MSGS=2000

# hold TAG NA NB ADDR SVCPORT: a receiver in NB, a sender in NA, the sender
# stopped (SIGSTOP) once connected, until "release".  Sets spid, rpid.
hold() {
	local tag=$1 na=$2 nb=$3 addr=$4 svc=$5 i

	rm -f "$tmp/$tag.ready" "$tmp/$tag.conn"
	ip netns exec "$nb" mrcat -l -p "$svc" -m $MSGS -s 8000 -d 5000 -t 300 \
		-r "$tmp/$tag.ready" >"$tmp/$tag.recv" 2>&1 &
	rpid=$!
	for ((i = 0; i < 200; i++)); do [ -e "$tmp/$tag.ready" ] && break; sleep 0.05; done
	ip netns exec "$na" mrcat -c "$addr" -p "$svc" -m $MSGS -s 8000 -t 300 \
		-r "$tmp/$tag.conn" >"$tmp/$tag.send" 2>&1 &
	spid=$!
	for ((i = 0; i < 400; i++)); do [ -e "$tmp/$tag.conn" ] && break; sleep 0.05; done
	kill -STOP $spid
	for ((i = 0; i < 100; i++)); do
		[ "$(states "$nb")" = established ] && break
		sleep 0.1
	done
}

# held DESC NA NB: the held connection is still there, and its sender
# still stopped (a test that ran after the transfer had ended proves
# nothing).
held() {
	check_eq "$1" "established established T" \
		"$(states "$2") $(states "$3") $(pstate "$spid")"
}

# release TAG DESC: let the sender go on; the transfer must complete.
release() {
	local tag=$1 s r

	kill -CONT $spid
	wait $spid
	wait $rpid
	spid= rpid=
	s=$(sed -n 's/.*\(msgs=[0-9]* bytes=[0-9]* hash=[0-9a-f]*\) errors=0.*/\1/p' "$tmp/$tag.send" | tail -1)
	r=$(sed -n 's/.*\(msgs=[0-9]* bytes=[0-9]* hash=[0-9a-f]*\) errors=0.*/\1/p' "$tmp/$tag.recv" | tail -1)
	if [ -n "$s" ] && [ "$s" = "$r" ] && [ "${s%% *}" = msgs=$MSGS ] &&
	   [ "$(sed 's/.*bytes=\([0-9]*\).*/\1/' <<<"$s")" = $((MSGS * 8000)) ]; then
		tap_ok "$2: $s identical at both ends"
	else
		tap_fail "$2" "sender:   $(cat "$tmp/$tag.send")" "receiver: $(cat "$tmp/$tag.recv")"
	fi
}

# Builtins only around mrcctl: on the debug kernel under TCG a python3 or
# ps start costs seconds (python3 took 119 of this test's 423 s).

states() {	# states NS: the states of the connections in NS
	local w out=

	while read -r -a w; do
		[[ ${w[1]} == *: ]] && out+="${out:+ }${w[2]}"
	done < <(mrcctl -n "$1" conn show)
	echo "$out"
}

caps_of() {	# caps_of NS: the capabilities of NS's first connection
	local w i

	while read -r -a w; do
		[[ ${w[1]} == *: ]] || continue
		for ((i = 2; i < ${#w[@]}; i++)); do
			case ${w[i]} in ack-data | host-delay) echo -n "${w[i]} " ;; esac
		done
		echo
		return
	done < <(mrcctl -n "$1" conn show)
}

seg_of() {	# seg_of NS: the segment size of NS's first connection
	local w

	while read -r -a w; do
		[ "${w[0]}" = seg ] && echo "${w[1]}" && return
	done < <(mrcctl -n "$1" conn show)
}

pstate() {	# pstate PID: its state letter (T: stopped)
	local st

	read -r _ _ st _ <"/proc/$1/stat"
	echo "$st"
}

no_conns() {	# no_conns NS...: wait (10 s at most) until NS have no connection
	local ns i left

	for ((i = 0; i < 100; i++)); do
		left=
		for ns in "$@"; do [ -n "$(states "$ns")" ] && left=1; done
		[ -z "$left" ] && return 0
		sleep 0.1
	done
	return 1
}

mtu() {		# mtu NS DEV
	ip netns exec "$1" cat "/sys/class/net/$2/mtu"
}

# set_mtu DESC NS DEV MTU WANT_RC WANT_OUT [DMESG]: ip link set mtu; its
# exit status and output, and (DMESG) the kernel's explanation, exactly.
set_mtu() {
	local desc=$1 ns=$2 dev=$3 m=$4 want_rc=$5 want=$6 log=${7:-} out rc got

	dmesg_mark
	out=$(ip -n "$ns" link set dev "$dev" mtu "$m" 2>&1)
	rc=$?
	got=$(dmesg_since | sed -n 's/^\[[^]]*\] //; s/^mrc: //p')
	if [ "$rc" = "$want_rc" ] && [ "$out" = "$want" ] && [ "$got" = "$log" ]; then
		tap_ok "$desc"
	else
		tap_fail "$desc" "exit $rc (expected $want_rc)" "output: $out" \
			"expected: $want" "kernel log: $got" "expected: $log" \
			"connections in $ns: $(mrcctl -n "$ns" conn show | grep -v '^ ')"
	fi
}

# ---- IPv4 rails ---------------------------------------------------------------------
check "IPv4 pair lva/lvb, one rail" mrc_pair lva lvb 1
hold v4 lva lvb 10.0.0.2 7400
held "a connection lva -> lvb is established, its sender stopped" lva lvb

# udp-port
MRC_RC=1 check_output "udp-port under a live connection is refused with the count" \
	"Error: mrc0 has 1 connection on udp-port $PORT: close it before changing the port." \
	mrcctl -n lva dev set mrc0 udp-port 5000
MRC_RC=1 check_output "dev-set of max-msg-size and udp-port: refused as a whole" \
	"Error: mrc0 has 1 connection on udp-port $PORT: close it before changing the port." \
	mrcctl -n lva dev set mrc0 max-msg-size 2097152 udp-port 5000
check_match "nothing changed: udp-port $PORT, max-msg-size 1048576" \
	"^mrc0: ifindex [0-9]+ udp-port $PORT max-msg-size 1048576 " \
	"$(mrcctl -n lva dev show mrc0 | head -1)"
check_output "sysfs udp_port write on the other end: EBUSY as well, unchanged" \
	"write error: Device or resource busy
$PORT" ip netns exec lvb bash -c \
	"{ echo 5000 >/sys/class/net/mrc0/mrc/udp_port; } 2>&1 | sed 's/.*echo: //'; cat /sys/class/net/mrc0/mrc/udp_port"
check_output "setting the same udp-port is no change, and allowed" "" \
	mrcctl -n lva dev set mrc0 udp-port "$PORT"

# MTU: the segments are 1500 - 20 - 8 - 36 = 1436 bytes
check_eq "lva's connection uses 1436-byte segments" "1436" \
	"$(seg_of lva)"
check_eq "its port was opened with cc_host_delay on: HOST_DELAY settled" \
	"ack-data host-delay " "$(caps_of lva)"
set_mtu "MTU 1280 under the connection: refused, reason in the kernel log" lva a0 1280 2 \
	"RTNETLINK answers: Device or resource busy" \
	"mrc0: 1 connection uses 1436-byte segments on rail a0: MTU must stay >= 1500"
check_eq "a0's MTU is still 1500" 1500 "$(mtu lva a0)"
set_mtu "the peer's rail alike (the accepted connection)" lvb b0 1499 2 \
	"RTNETLINK answers: Device or resource busy" \
	"mrc0: 1 connection uses 1436-byte segments on rail b0: MTU must stay >= 1500"
check_eq "b0's MTU is still 1500" 1500 "$(mtu lvb b0)"
set_mtu "raising the MTU is allowed (2000)" lva a0 2000 0 ""
set_mtu "lowering to 1600, still above what the segments need, is allowed" lva a0 1600 0 ""
set_mtu "lowering to 1499 is refused: the bound is the segments', not the old MTU" \
	lva a0 1499 2 "RTNETLINK answers: Device or resource busy" \
	"mrc0: 1 connection uses 1436-byte segments on rail a0: MTU must stay >= 1500"
set_mtu "exactly 1500 is allowed" lva a0 1500 0 ""
check_eq "MTUs now: a0 1500, b0 1500" "1500 1500" "$(mtu lva a0) $(mtu lvb b0)"
held "IPv4: all of this happened under the held connection" lva lvb
release v4 "IPv4: the connection kept working"

check "IPv4: the connections end" no_conns lva lvb
# HOST_DELAY needs the device's UDP sockets to have asked for receive
# timestamps, which they do when opened while cc_host_delay is on.  The
# client's new port opens with it on, the server's with it off: the
# client offers HOST_DELAY, the server (cc_host_delay on again by then)
# does not accept it.
check_output "no connection: udp-port changes on both ends (B's with cc_host_delay off)" "" \
	sh -c "mrcctl -n lva dev set mrc0 udp-port 5000 && echo 0 >$HDP &&
	       mrcctl -n lvb dev set mrc0 udp-port 5000 && echo Y >$HDP"
set_mtu "no connection: MTU 1280 is accepted" lva a0 1280 0 ""
hold v4b lva lvb 10.0.0.2 7401
check_eq "a new connection on the new port and MTU: 1216-byte segments" "1216" \
	"$(seg_of lva)"
check_eq "the server's port unstamped: it refuses HOST_DELAY (ack-data at both ends)" \
	"ack-data ;ack-data " "$(caps_of lva);$(caps_of lvb)"
release v4b "IPv4, udp-port 5000, MTU 1280: a transfer"
# And the other way: the client's port unstamped, the server's stamped.
check "IPv4: the connections end" no_conns lva lvb
check_output "no connection: udp-port changes on both ends (A's with cc_host_delay off)" "" \
	sh -c "echo 0 >$HDP && mrcctl -n lva dev set mrc0 udp-port 5001 && echo Y >$HDP &&
	       mrcctl -n lvb dev set mrc0 udp-port 5001"
hold v4c lva lvb 10.0.0.2 7403
check_eq "the client's port unstamped: it does not offer HOST_DELAY (ack-data at both ends)" \
	"ack-data ;ack-data " "$(caps_of lva);$(caps_of lvb)"
release v4c "IPv4, udp-port 5001: a transfer"

# A port left behind: lva's mrc0 moves from 5001 to 5002 while another
# device of lva (mrcx) keeps 5001 open.  lvb, still on 5001, connects:
# its REQs reach lva's 5001 socket on rail a0.  They are not mrc0's
# (another port): dropped as no-rail on mrc0 and a0, no half-open
# connection, and mrc0 can move back at once.  Before, mrc0 took them: a
# half-open connection answered from 5002, never completed, and held
# mrc0 busy (the move back refused, EBUSY) while the peer retried; a
# fuzzer connecting once a second held it so for a whole minute.
check "IPv4: the connections end" no_conns lva lvb
check_output "a second device of lva keeps udp-port 5001; mrc0 moves to 5002" "" \
	sh -c "ip -n lva link add mrcx type mrc && mrcctl -n lva dev set mrcx udp-port 5001 &&
	       mrcctl -n lva dev set mrc0 udp-port 5002"
# no_rail: lva's no-rail drops on mrc0 (sysfs), rail a0 (sysfs), mrc0
# (ethtool -S); lvb's mrc0 tx-packets
no_rail() {
	ip netns exec lva cat /sys/class/net/mrc0/mrc_drops/no-rail \
		/sys/class/net/a0/mrc_rail/drops/no-rail
	ip netns exec lva ethtool -S mrc0 | awk '$1 == "drop_no_rail:" { print $2 }'
	ip netns exec lvb cat /sys/class/net/mrc0/mrc/tx_packets
}
read -r -d '' d0 r0 e0 t0 < <(no_rail)
ip netns exec lvb mrcat -c 10.0.0.1 -p 7404 -m 1 -s 100 -t 2 >"$tmp/left.send" 2>&1
check_eq "lvb's connect to lva's old port times out (mrcat exit 3), no connection in lva" \
	"3 " "$? $(states lva)"
# A REQ sent just before mrcat gave up may still be on its way: read
# until the counts agree (at most 2 s).
for _ in $(seq 20); do
	read -r -d '' d1 r1 e1 t1 < <(no_rail)
	[ $((d1 - d0)) = $((t1 - t0)) ] && [ $((r1 - r0)) = $((t1 - t0)) ] &&
		[ $((e1 - e0)) = $((t1 - t0)) ] && break
	sleep 0.1
done
tx=$((t1 - t0))
check_eq "every REQ lvb sent ($tx) is a no-rail drop on lva's mrc0, its rail a0, and in ethtool -S" \
	"yes $tx $tx $tx" \
	"$([ "$tx" -gt 0 ] && echo yes || echo no) $((d1 - d0)) $((r1 - r0)) $((e1 - e0))"
check_output "mrc0 moves back to 5001 at once (no connection holds it)" "" \
	mrcctl -n lva dev set mrc0 udp-port 5001
check "mrcx deleted" ip -n lva link del mrcx

# ---- IPv6 rails: 40-byte IP header ---------------------------------------------------
check "IPv6 pair lsa/lsb, one rail" mrc_pair lsa lsb 1 6
hold v6 lsa lsb fd00:0::2 7402
check_eq "IPv6: 1416-byte segments" "1416" \
	"$(seg_of lsa)"
set_mtu "IPv6: MTU 1499 refused, the bound counts the IPv6 header" lsa a0 1499 2 \
	"RTNETLINK answers: Device or resource busy" \
	"mrc0: 1 connection uses 1416-byte segments on rail a0: MTU must stay >= 1500"
check_eq "IPv6: a0's MTU is still 1500" 1500 "$(mtu lsa a0)"
held "IPv6: under the held connection" lsa lsb
release v6 "IPv6: the connection kept working"

rm -rf "$tmp"
tap_end
