#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mrc_churn.sh - teardown while traffic flows.  Every scenario runs a
# timed mrcat transfer between two namespaces (hosts) and pulls something
# out from under it:
#
#   1. the namespaces: "ip netns del" of the receiver's namespace (the
#      transfer goes on, the namespace is dismantled when its last socket
#      is gone), then with its receiver killed (the sender fails, does not
#      hang), then both namespaces with both processes killed, and again
#      with the rails black-holed so that an orphan connection outlives
#      the deletion (until the dead-peer time ends it);
#   2. rails: "ip link del" of a rail on each side of a 3-rail pair; the
#      transfer finishes on the last rail, byte for byte identical;
#   3. the mrc device: "ip link del mrc0" on the sender's side (its socket
#      fails with ENETDOWN at once, and the device RESETs the peer as it
#      goes: the receiver fails with ECONNRESET), then on the receiver's
#      side (ENETDOWN there, ECONNRESET at the sender);
#   4. the module: rmmod during the transfer is refused (rmmod says "in
#      use", delete_module(2) fails with EWOULDBLOCK), the transfer is
#      untouched, and rmmod works once everything is closed.
#
# After each scenario nothing of the module is left: no connection in
# the surviving namespaces (mrcctl conn show), /sys/module/mrc/refcnt back
# to its value before (every socket file and every sock hold a module
# reference; a sock's is dropped when it is freed, after an RCU grace
# period), the active objects of the module's sock slab "MRC" in
# /proc/slabinfo back to theirs (read after /sys/kernel/slab/MRC/shrink:
# SLUB counts its per-CPU slabs as fully in use), and no kernel report
# in dmesg.  close() racing with recvmsg/poll/send and 10,000 connect/
# accept/close cycles are in the C half, mrc_churn.c.
#
# The timed transfers last MRC_CHURN_XFER_S seconds (default 4; 15 on the
# debug kernel, where starting a process takes seconds under TCG and the
# events must still fall inside the transfer).

. "$(dirname "$0")/lib.sh"

mrc_load
tmp=$(mktemp -d)
XFER_S=4
DEBUG=0
[ "${MRC_KERNEL:-stock}" = debug ] && DEBUG=1 && XFER_S=15
XFER_S=${MRC_CHURN_XFER_S:-$XFER_S}
# How long a socket may take to report a local error (process start-up
# included, which takes seconds on the debug kernel under TCG).
PROMPT_S=3
[ $DEBUG = 1 ] && PROMPT_S=10
port=7300

# ---- counters ------------------------------------------------------------------

refcnt() {
	cat /sys/module/mrc/refcnt 2>/dev/null || echo gone
}

# slab NAME: active objects of a slab cache after a shrink ("" if unlisted).
slab() {
	[ -w "/sys/kernel/slab/$1/shrink" ] && echo 1 >"/sys/kernel/slab/$1/shrink"
	awk -v n="$1" '$1 == n { print $2 }' /proc/slabinfo
}

# conns NS: the connections of NS's mrc devices (mrcctl), one word each.
conns() {
	local out

	out=$(mrcctl -n "$1" -j conn show 2>&1)
	[ "$out" = "[]" ] && return
	grep -oE '"id": *[0-9]+' <<<"$out" | tr -d '" ' | tr '\n' ' '
	grep -qE '"id": *[0-9]+' <<<"$out" || echo "$out"
}

REF0=$(refcnt)
SLAB0=$(slab MRC)
tap_diag "before: module refcnt $REF0, MRC slab active objects ${SLAB0:-(not listed)}"
[ -n "$SLAB0" ] || tap_diag "no MRC line in /proc/slabinfo (merged cache): the refcnt stands alone"

# all_gone DESC [NS...]: wait (up to GONE_S, 20 s: TIME_WAIT, the dead-peer time of
# an orphan, RCU) until no connection is left in the NS and the module's
# objects are back to where they were before the test; then no report.
all_gone() {
	local desc=$1 t0=$SECONDS ns c ref s left
	shift
	while :; do
		left=
		for ns in "$@"; do
			c=$(conns "$ns")
			[ -n "$c" ] && left+=" $ns: $c;"
		done
		ref=$(refcnt)
		s=$(slab MRC)
		[ -z "$left" ] && [ "$ref" = "$REF0" ] && [ "$s" = "$SLAB0" ] && break
		[ $((SECONDS - t0)) -ge "${GONE_S:-20}" ] && break
		sleep 0.2
	done
	if [ -z "$left" ] && [ "$ref" = "$REF0" ] && [ "$s" = "$SLAB0" ]; then
		tap_ok "$desc: everything freed after $((SECONDS - t0)) s" \
			"(connections none, refcnt $ref, MRC slab $s)"
	else
		tap_fail "$desc: objects left after $((SECONDS - t0)) s" \
			"connections:${left:- none}" "module refcnt $ref (before $REF0)" \
			"MRC slab active objects $s (before $SLAB0)"
	fi
	no_report "$desc"
}

# no_report DESC: nothing alarming in the kernel log since the last mark.
no_report() {
	local bad

	bad=$(dmesg_since | grep -E 'WARNING:|BUG:|KASAN|UBSAN|Oops|INFO: |circular locking|kmemleak|refcount_t|use-after-free|unregister_netdevice: waiting for')
	if [ -z "$bad" ]; then
		tap_ok "$1: no kernel report"
	else
		tap_fail "$1: kernel report" "$(head -20 <<<"$bad")"
	fi
	dmesg_mark
}

# ---- transfers -----------------------------------------------------------------

# xfer_start NA NB ADDR [SENDER ARGS...]: a receiver in NB (any number of
# messages), a timed sender in NA (XFER_S seconds unless -D is given);
# returns once connected.  Sets RPID, SPID, X (file prefix).
xfer_start() {
	local na=$1 nb=$2 addr=$3
	shift 3
	port=$((port + 1))
	X=$tmp/$port
	ip netns exec "$nb" mrcat -l -p $port -m 0 -s 1-65536 -t 120 -r "$X.rready" \
		>"$X.recv.out" 2>"$X.recv.err" &
	RPID=$!
	for _ in $(seq 200); do [ -e "$X.rready" ] && break; sleep 0.05; done
	ip netns exec "$na" mrcat -c "$addr" -p $port -s 1-65536 -t 120 \
		-r "$X.sready" -D "$XFER_S" "$@" >"$X.send.out" 2>"$X.send.err" &
	SPID=$!
	for _ in $(seq 200); do [ -e "$X.sready" ] && break; sleep 0.05; done
}

# exits_within PID SECONDS: does PID end in time?  Sets RC (its status).
exits_within() {
	local pid=$1 lim=$2 t0=$SECONDS

	RC=
	while kill -0 "$pid" 2>/dev/null; do
		if [ $((SECONDS - t0)) -ge "$lim" ]; then
			return 1
		fi
		sleep 0.1
	done
	wait "$pid"
	RC=$?
	return 0
}

# summary FILE: "msgs bytes hash" of an error-free mrcat summary.
summary() {
	sed -n 's/.*msgs=\([0-9]*\) bytes=\([0-9]*\) hash=\([0-9a-f]*\) errors=0.*/\1 \2 \3/p' "$1"
}

# field NAME FILE: a "name=value" field of the last mrcat line.
field() {
	tail -1 "$2" | sed -n "s/.*\\b$1=\\([0-9]*\\).*/\\1/p"
}

# xfer_intact DESC: both ends finished; same messages, bytes and hash.
xfer_intact() {
	local hs hr

	exits_within $SPID 60 || kill -9 $SPID
	exits_within $RPID 30 || kill -9 $RPID
	hs=$(summary "$X.send.out")
	hr=$(summary "$X.recv.out")
	if [ -n "$hs" ] && [ "$hs" = "$hr" ] && [ "${hs%% *}" -gt 0 ]; then
		tap_ok "$1: ${hs% *} (messages, bytes) and hash identical at both ends"
	else
		tap_fail "$1: transfer damaged" "sender:   $(cat "$X.send.out")" \
			"receiver: $(cat "$X.recv.out")" "$(cat "$X.send.err" "$X.recv.err")"
	fi
}

# fails_with DESC PID FILE REGEX SECONDS: PID exits non-zero within
# SECONDS and FILE (its stderr) matches REGEX.
fails_with() {
	local desc=$1 pid=$2 file=$3 re=$4 lim=$5 t0=$SECONDS

	if ! exits_within "$pid" "$lim"; then
		tap_fail "$desc: still running after $lim s (hangs)" "$(cat "$file")"
		kill -9 "$pid"
		wait "$pid"
		return
	fi
	if [ "$RC" != 0 ] && grep -qE "$re" "$file"; then
		tap_ok "$desc ($(grep -oE "$re" "$file" | head -1), after $((SECONDS - t0)) s)"
	else
		tap_fail "$desc" "exit $RC, expected an error matching: $re" "$(cat "$file")"
	fi
}

# witness NS...: a veth pair per namespace, one end in NS, the other
# (chw-NS) here: it vanishes when NS is dismantled.
witness() {
	local ns

	for ns in "$@"; do
		ip link add "chw-$ns" type veth peer name w netns "$ns" || return 1
	done
}

# ns_freed DESC NS...: every NS is dismantled within 20 s (a work item
# frees a namespace after its last reference goes).
ns_freed() {
	local desc=$1 t0=$SECONDS ns left
	shift
	while :; do
		left=
		for ns in "$@"; do
			ip link show dev "chw-$ns" >/dev/null 2>&1 && left+=" $ns"
		done
		[ -z "$left" ] || [ $((SECONDS - t0)) -ge 20 ] && break
		sleep 0.2
	done
	check_eq "$desc: the namespaces are dismantled (after $((SECONDS - t0)) s)" "" "$left"
}

# stage NAME: say how long the previous stage took.
stage_t=$SECONDS
stage() {
	tap_diag "$1 (previous stage: $((SECONDS - stage_t)) s)"
	stage_t=$SECONDS
}

dmesg_mark

# ==== 1. namespaces deleted under live connections ===============================

# 1a. The receiver's namespace loses its name mid-transfer: its processes
# and sockets keep it alive, the transfer completes; once the last socket
# is gone the namespace is dismantled, veths included (a0 and a1, A's
# ends, vanish with their peers).
stage "1a"
mrc_pair ch-1a ch-1b 2
xfer_start ch-1a ch-1b 10.0.0.2
sleep 1
check "1a: ip netns del of the receiver's namespace mid-transfer" ip netns del ch-1b
check "1a: the transfer still ran after it" kill -0 $SPID
xfer_intact "1a: the transfer goes on in the unnamed namespace"
t0=$SECONDS
while ip -n ch-1a link show dev a0 >/dev/null 2>&1 && [ $((SECONDS - t0)) -lt 20 ]; do
	sleep 0.2
done
check_fails "1a: the namespace is dismantled once its last socket is gone (a0 gone after $((SECONDS - t0)) s)" \
	ip -n ch-1a link show dev a0
check_eq "1a: A's mrc0 has no rails left" "" "$(ip netns exec ch-1a cat /sys/class/net/mrc0/mrc/rails)"
all_gone "1a" ch-1a

# 1b. Same, but the receiver is killed: its socket aborts (unread data) or
# closes; either way the sender must fail soon, not hang.
stage "1b"
mrc_pair ch-1c ch-1d 2
xfer_start ch-1c ch-1d 10.1.0.2 -D 60
sleep 1
ip netns del ch-1d
{ kill -9 $RPID; wait $RPID; } 2>/dev/null
fails_with "1b: receiver killed in a deleted namespace: the sender fails" $SPID "$X.send.err" \
	"Connection reset by peer|Broken pipe|Network is down|Connection timed out" 15
check "1b: the sender had sent messages ($(field msgs "$X.send.out"))" \
	test "$(field msgs "$X.send.out")" -gt 0
all_gone "1b" ch-1c

# 1c. Both namespaces deleted and both processes killed mid-transfer: the
# sockets are the namespaces' last users; namespaces and objects go (a
# witness veth into each namespace shows when it is dismantled).
ip netns del ch-1a
ip netns del ch-1c
stage "1c"
mrc_pair ch-1e ch-1f 2
witness ch-1e ch-1f
xfer_start ch-1e ch-1f 10.0.0.2 -D 60
sleep 1
check "1c: ip netns del of both namespaces mid-transfer" ip netns del ch-1e
ip netns del ch-1f
{ kill -9 $SPID $RPID; wait $SPID $RPID; } 2>/dev/null
all_gone "1c"
ns_freed "1c" ch-1e ch-1f

# 1d. As 1c, but the rails black-hole everything first (netem loss 100%):
# the sender's socket becomes an orphan with data in flight that nobody
# will ever acknowledge, a live connection in a deleted namespace, which
# keeps it alive until the dead-peer time ends the orphan; then the
# namespaces go too.  The dead-peer time is 20 s here, not 10: on a busy
# debug kernel killing two processes and deleting two namespaces took
# longer than 10 s once, and the orphan was gone before it was looked for.
stage "1d"
DP0=$(cat /sys/module/mrc/parameters/dead_peer_ms)
# (put back at exit too, should the stage not end)
trap 'echo "$DP0" >/sys/module/mrc/parameters/dead_peer_ms; _ns_cleanup' EXIT
echo 20000 >/sys/module/mrc/parameters/dead_peer_ms
mrc_pair ch-1g ch-1h 2
witness ch-1g ch-1h
xfer_start ch-1g ch-1h 10.0.0.2 -D 60
sleep 1
printf 'qdisc add dev a%d root netem loss 100%%\n' 0 1 | tc -n ch-1g -batch -
printf 'qdisc add dev b%d root netem loss 100%%\n' 0 1 | tc -n ch-1h -batch -
{ kill -9 $SPID $RPID; wait $SPID $RPID; } 2>/dev/null
ip netns del ch-1g
ip netns del ch-1h
sleep 1
ref=$(refcnt)
check "1d: an orphan connection outlives the deleted namespaces (module refcnt $ref)" \
	test "$ref" -gt "$REF0"
check "1d: ... and keeps the sender's namespace alive" ip link show dev chw-ch-1g
GONE_S=40 all_gone "1d"
echo "$DP0" >/sys/module/mrc/parameters/dead_peer_ms
trap _ns_cleanup EXIT
ns_freed "1d" ch-1g ch-1h

# ==== 2. rails deleted mid-transfer =================================================

# Three rails; a0 (sender's side) goes after 1 s, b1 (receiver's side)
# after 2 s: each "ip link del" of a veth removes the pair.  The last
# rail carries the rest; not a byte may be lost or changed.
stage "2"
mrc_pair ch-2a ch-2b 3
# (each "ip link del" takes seconds on the debug kernel: a longer transfer)
XFER_S=$((DEBUG ? 45 : XFER_S + 2)) xfer_start ch-2a ch-2b 10.2.0.2
sleep 1
check "2: ip link del a0 (sender's rail) mid-transfer" ip -n ch-2a link del a0
sleep 1
tx0=$(ip netns exec ch-2a cat /sys/class/net/a2/mrc_rail/tx_bytes)
check "2: ip link del b1 (receiver's rail) mid-transfer" ip -n ch-2b link del b1
check "2: the transfer still ran after both" kill -0 $SPID
check_eq "2: the sender's mrc0 keeps one rail" "a2" \
	"$(ip netns exec ch-2a cat /sys/class/net/mrc0/mrc/rails)"
check_eq "2: the receiver's mrc0 keeps one rail" "b2" \
	"$(ip netns exec ch-2b cat /sys/class/net/mrc0/mrc/rails)"
xfer_intact "2: rails deleted on both sides"
tx1=$(ip netns exec ch-2a cat /sys/class/net/a2/mrc_rail/tx_bytes)
check "2: the last rail carried the rest ($((tx1 - tx0)) bytes after the deletions)" \
	test $((tx1 - tx0)) -gt 0
all_gone "2" ch-2a ch-2b

# ==== 3. the mrc device deleted mid-transfer ==========================================

# 3a. The sender's device: its socket fails with ENETDOWN at once, and
# the device RESETs the peer of each of its connections as it goes
# (mrc_dev_abort_conns(), while the rails are still attached; as
# mrc_conn's device_gone_resets_peer checks): the receiver, which has
# nothing in flight, fails with ECONNRESET while its own device is still
# there, and nothing else.
stage "3a"
mrc_pair ch-3a ch-3b 2
xfer_start ch-3a ch-3b 10.0.0.2 -D 60
sleep 1
check "3a: ip link del mrc0 on the sender's side mid-transfer" ip -n ch-3a link del mrc0
fails_with "3a: the sender's socket fails" $SPID "$X.send.err" "Network is down" $PROMPT_S
fails_with "3a: the receiver hears the RESET" $RPID "$X.recv.err" \
	"^mrcat: recv [0-9]+: Connection reset by peer$" $PROMPT_S
check "3a: ip link del mrc0 on the receiver's side" ip -n ch-3b link del mrc0
all_gone "3a" ch-3a ch-3b

# 3b. The receiver's device: ENETDOWN there, and its RESET reaches the
# sender, which fails with ECONNRESET (not after the dead-peer time).
stage "3b"
mrc_pair ch-3c ch-3d 2
xfer_start ch-3c ch-3d 10.1.0.2 -D 60
sleep 1
check "3b: ip link del mrc0 on the receiver's side mid-transfer" ip -n ch-3d link del mrc0
fails_with "3b: the receiver's socket fails" $RPID "$X.recv.err" "Network is down" $PROMPT_S
fails_with "3b: the sender hears the RESET" $SPID "$X.send.err" \
	"^mrcat: send [0-9]+: Connection reset by peer$" $PROMPT_S
all_gone "3b" ch-3c ch-3d

# ==== 4. rmmod while traffic flows ===================================================

# The sender runs until it is told to stop (SIGTERM: its socket closes in
# order, what it queued is delivered, then the end of file), so nothing
# can turn the refused rmmod into an unload by finishing early; the
# receiver checks every message it gets (length and seeded contents).
# rmmod(8) reads the refcount and gives up by itself, so the kernel's own
# answer comes from delete_module(2), called by a python started before
# the transfer (a process start can take seconds while it runs).
stage "4"
mrc_pair ch-4a ch-4b 2
python3 -c '
import ctypes, os, sys, time
libc = ctypes.CDLL(None, use_errno=True)
while not os.path.exists(sys.argv[1]):
    time.sleep(0.02)
ref = int(open("/sys/module/mrc/refcnt").read())
if ref == 0:
    print("idle: not called")
    sys.exit()
r = libc.syscall(176, b"mrc", os.O_NONBLOCK)	# delete_module, x86_64
print(r, os.strerror(ctypes.get_errno()) if r else "unloaded", "refcnt", ref)
' "$tmp/rmmod.go" >"$tmp/rmmod.out" 2>&1 &
py=$!
xfer_start ch-4a ch-4b 10.0.0.2 -D 600
sleep 1
touch "$tmp/rmmod.go"
wait $py
check_match "4: delete_module(2) during the transfer fails with EWOULDBLOCK" \
	"^-1 $(python3 -c 'import os; print(os.strerror(11))') refcnt [1-9]" \
	"$(cat "$tmp/rmmod.out")"
if kill -0 $SPID 2>/dev/null; then
	out=$(rmmod mrc 2>&1)
	rc=$?
	check_match "4: rmmod(8) during the transfer is refused (exit $rc): in use" "in use" "$out"
else
	tap_fail "4: the transfer ended by itself" "$(cat "$X.send.err")"
fi
check "4: mrc is still loaded" test -d /sys/module/mrc
check "4: the transfer still runs" kill -0 $SPID
kill -TERM $SPID
wait $SPID 2>/dev/null
if exits_within $RPID 60 && [ "$RC" = 0 ] && [ "$(field errors "$X.recv.out")" = 0 ] &&
   [ "$(field msgs "$X.recv.out")" -gt 0 ]; then
	tap_ok "4: the transfer is untouched by the refused rmmod" \
		"($(field msgs "$X.recv.out") messages verified, then the end of file)"
else
	kill -9 $RPID 2>/dev/null
	tap_fail "4: the transfer is damaged" "receiver (exit $RC): $(cat "$X.recv.out")" \
		"$(cat "$X.recv.err")"
fi
all_gone "4" ch-4a ch-4b
check "4: rmmod once everything is closed" mrc_unload
check_fails "4: the module is gone" test -d /sys/module/mrc
check_fails "4: its devices went with it" ip -n ch-4a link show dev mrc0
check "4: a0 is a plain veth again" ip -n ch-4a link set dev a0 down
mrc_load
check "4: mrc loads again" test -d /sys/module/mrc
no_report "4: reload"

stage "end"
rm -rf "$tmp"
tap_end
