#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mrc_sysfuzz.sh - fuzz the AF_MRC socket API and the "mrc" generic
# netlink family from userspace with tools/mrcfuzz (random sequences of
# socket calls, options, sizes, flags and cmsgs from several threads that
# share their descriptors and close them under each other; random genl
# messages; rtnetlink churn of mrc devices and rails).
#
#   1. as root: one mrcfuzz in each namespace of a 2-plane pair, each
#      listening on the service ports and connecting to the other (once
#      a second for sure, and whenever a random connect finds them), for
#      MRC_SYSFUZZ_SECS (default 60) seconds; mrcfuzz puts the pair's
#      rails and settings back every second (-r), so data keeps flowing
#      while the random requests detach and reconfigure them; afterwards
#      a repair-only run (mrcfuzz -R), after a foreign rail is attached
#      on plane 3 and a0 moved to plane 2, puts back exactly a0 and a1;
#   2. as nobody (setpriv, no capabilities), a shorter pass
#      (MRC_SYSFUZZ_UNPRIV_SECS, default a quarter, 10..60 s): every genl
#      configuration request and rtnetlink link request must fail with
#      EPERM (mrcfuzz -U counts one that succeeds as a violation; here the
#      histogram must show EPERM and no success); so must every lookup by
#      connection id (conn-get do, path-get with conn-id; the ids tried
#      are the fuzzer's own, from MRC_INFO), and no genl reply may carry
#      a connection id (a violation in mrcfuzz -U); conn and path dumps
#      still answer, without ids; the sockets still connect and carry
#      messages;
#   3. afterwards: no fuzzer violation (mrcfuzz exits 1 on an impossible
#      result, a corrupted message, a malformed netlink reply or a call
#      stuck for 30 s although it had a timeout), every fuzz socket gone
#      (mrcctl conn show empty within 20 s: TIME_WAIT and orphans last at
#      most the dead-peer time), and a clean, byte-checked mrcat transfer
#      both in a fresh pair and in the fuzzed one.
# Kernel reports (WARN, BUG, KASAN, lockdep, hung tasks, kmemleak) fail
# the VM run (tools/vm/run).  MRC_SYSFUZZ_SEED fixes the seed (default:
# the clock; it is printed).  mrcfuzz's summaries are printed as
# diagnostics.

source "$(dirname "$0")/lib.sh"

SECS=${MRC_SYSFUZZ_SECS:-60}
USECS=${MRC_SYSFUZZ_UNPRIV_SECS:-$((SECS / 4))}
[ "$USECS" -lt 10 ] && USECS=10
[ "$USECS" -gt 60 ] && USECS=60
THREADS=${MRC_SYSFUZZ_THREADS:-6}
SEED=${MRC_SYSFUZZ_SEED:-$(date +%s)}
FUZZ=$MRC_TOP/tools/mrcfuzz/mrcfuzz
NA=sf-a
NB=sf-b
tmp=$(mktemp -d)
chmod 755 "$tmp"
trap '_ns_cleanup; rm -rf "$tmp"' EXIT

if [ ! -x "$FUZZ" ]; then
	tap_fail "mrcfuzz: tools/mrcfuzz/mrcfuzz is not built (make tools)"
	tap_end
fi
mrc_load || { tap_fail "load mrc"; tap_end; }
check "2-plane pair $NA/$NB" mrc_pair $NA $NB 2
tap_diag "seed $SEED, $SECS s as root, $USECS s unprivileged, $THREADS threads" \
	"per side, kernel ${MRC_KERNEL:-stock}"

# fuzz_pair TAG SECS [mrcfuzz args...]: one mrcfuzz per side, concurrently.
# Output in $tmp/TAG-{a,b}.{out,err}, exit status in $tmp/TAG-{a,b}.rc.
fuzz_pair() {
	local tag=$1 secs=$2 side ns me peer seed pids=() rails
	shift 2

	for side in a b; do
		if [ $side = a ]; then
			ns=$NA me=1 peer=2 seed=$SEED
		else
			ns=$NB me=2 peer=1 seed=$((SEED + 1))
		fi
		rails="-r ${side}0:0 -r ${side}1:1"
		[ "$tag" = unpriv ] && rails=-U
		# shellcheck disable=SC2086
		ip netns exec $ns "$@" "$FUZZ" -S "$seed" -t "$secs" -j "$THREADS" \
			-a 10.0.0.$peer -a 10.1.0.$peer -l 10.0.0.$me -l 10.1.0.$me \
			-d mrc0 $rails >"$tmp/$tag-$side.out" 2>"$tmp/$tag-$side.err" &
		pids+=($!)
	done
	for side in a b; do
		# A fuzzer that outlives its time by far is stuck in the kernel:
		# its own watchdog would have ended it after 30 s.
		timeout_wait "${pids[0]}" $((secs + 120))
		echo $? >"$tmp/$tag-$side.rc"
		pids=("${pids[@]:1}")
	done
}

# timeout_wait PID SECS: wait for PID, killing it after SECS; its status.
timeout_wait() {
	local pid=$1 i

	for i in $(seq $(($2 * 5))); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.2
	done
	if kill -0 "$pid" 2>/dev/null; then
		kill -9 "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		return 124
	fi
	wait "$pid"
}

# op_field TAG OP FIELD: FIELD (ok, n, EPERM, ...) of op OP summed over
# both sides' summaries.
op_field() {
	cat "$tmp/$1-a.out" "$tmp/$1-b.out" 2>/dev/null |
		awk -v op="$2" -v f="$3" '$1 == "op" && $2 == op {
			for (i = 3; i <= NF; i++) { split($i, kv, "="); if (kv[1] == f) s += kv[2] } }
			END { print s + 0 }'
}

# report TAG DESC: the fuzzers' verdicts, summaries as diagnostics.
report() {
	local tag=$1 desc=$2 side rc

	for side in a b; do
		rc=$(cat "$tmp/$tag-$side.rc")
		while IFS= read -r line; do
			tap_diag "$tag-$side: $line"
		done <"$tmp/$tag-$side.out"
		if [ "$rc" = 0 ]; then
			tap_ok "$desc ($side side): no violation"
		else
			tap_fail "$desc ($side side): mrcfuzz exit $rc" \
				"$(grep -m 30 . "$tmp/$tag-$side.err")"
		fi
	done
}

# no_conns DESC NS...: no connection left in the namespaces within 20 s.
no_conns() {
	local desc=$1 ns out i left
	shift

	for i in $(seq 100); do
		left=
		for ns in "$@"; do
			out=$(mrcctl -n "$ns" -j conn show 2>&1)
			[ "$out" = "[]" ] || left+="$ns: $out"$'\n'
		done
		[ -z "$left" ] && break
		sleep 0.2
	done
	if [ -z "$left" ]; then
		tap_ok "$desc (after $((i / 5)).$((i % 5 * 2)) s)"
	else
		tap_fail "$desc" "$(head -c 3000 <<<"$left")"
	fi
}

# transfer DESC NA NB ADDR PORT: a clean byte-checked mrcat transfer.
transfer() {
	local desc=$1 na=$2 nb=$3 addr=$4 port=$5 rpid send recv

	rm -f "$tmp/ready"
	ip netns exec "$nb" mrcat -l -p "$port" -m 200 -s 1-65536 -S "$SEED" -t 120 \
		-r "$tmp/ready" >"$tmp/recv.out" 2>&1 &
	rpid=$!
	for _ in $(seq 200); do [ -e "$tmp/ready" ] && break; sleep 0.05; done
	ip netns exec "$na" mrcat -c "$addr" -p "$port" -m 200 -s 1-65536 -S "$SEED" \
		-t 120 >"$tmp/send.out" 2>&1
	wait $rpid
	send=$(tail -1 "$tmp/send.out" | sed -n 's/.*\(msgs=[0-9]* bytes=[0-9]* hash=[0-9a-f]*\) errors=0.*/\1/p')
	recv=$(tail -1 "$tmp/recv.out" | sed -n 's/.*\(msgs=[0-9]* bytes=[0-9]* hash=[0-9a-f]*\) errors=0.*/\1/p')
	if [ -n "$send" ] && [ "$send" = "$recv" ] && [ "${send%% *}" = msgs=200 ]; then
		tap_ok "$desc: $send at both ends"
	else
		tap_fail "$desc" "sender:   $(cat "$tmp/send.out")" \
			"receiver: $(cat "$tmp/recv.out")"
		pair_state "$na" "$nb"
	fi
}

# pair_state [NS...]: what a pair looks like (after a failed check);
# default the fuzzed one
pair_state() {
	local ns

	[ $# -gt 0 ] || set -- $NA $NB
	for ns in "$@"; do
		tap_diag "$ns: $(ip -n "$ns" -d -br addr 2>&1 | tr '\n' ';')"
		tap_diag "$ns: $(ip -n "$ns" -4 route 2>&1 | tr '\n' ';')"
		tap_diag "$ns: $(mrcctl -n "$ns" -s dev show 2>&1 | tr '\n' ';')"
		tap_diag "$ns: $(mrcctl -n "$ns" rail show 2>&1 | tr '\n' ';')"
		tap_diag "$ns: $(mrcctl -n "$ns" conn show 2>&1 | head -20 | tr '\n' ';')"
		tap_diag "$ns: $(ip netns exec "$ns" cat /proc/net/snmp 2>&1 | grep '^Udp' | tr '\n' ';')"
	done
}

# ---- 1. as root ------------------------------------------------------------
dmesg_mark
fuzz_pair root "$SECS"
report root "fuzz as root, $SECS s"
# sent: by the fuzzing threads' send calls (on any socket: the service
# threads' connections to the peer, once a second, are in their table);
# received: by their receive calls that returned data (recv-data: not an
# error, not end-of-file).
sent() {
	echo $(($(op_field "$1" send ok) + $(op_field "$1" sendmsg ok) +
		$(op_field "$1" sendmmsg ok)))
}
received() {
	op_field "$1" recv-data ok
}
sr="$(sent root) $(received root)"
check_match "as root: messages were sent and received" '^[1-9][0-9]* [1-9]' "$sr"
[[ $sr =~ ^[1-9][0-9]*\ [1-9] ]] || pair_state
tap_diag "as root: connect ok $(op_field root connect ok), svc-connect ok" \
	"$(op_field root svc-connect ok), accepted $(op_field root svc-accept ok)," \
	"sent $(sent root), received with data $(received root)," \
	"genl ok $(op_field root genl ok), genl-admin ok $(op_field root genl-admin ok)," \
	"genl-id ok $(op_field root genl-id ok)," \
	"rtnl ok $(op_field root rtnl ok)"
no_conns "as root: every fuzz socket gone" $NA $NB
# Each fuzzer's last repair put its side back as mrc_pair made it (a
# random rail-set can swap the two rails' planes; a repair that moved
# the rails one by one once left a0 out, and a transfer to 10.0.0.2
# found no route: ENETUNREACH), and detached every other rail.
rails_of() {
	mrcctl -n "$1" dev show mrc0 |
		awk '$1 == "rail" { printf "%s:%s:%s ", $2, $4, $8 }'
}
check_eq "as root: the fuzzers put the rails back (name:plane:oper)" \
	"a0:0:up a1:1:up b0:0:up b1:1:up " "$(rails_of $NA)$(rails_of $NB)"
# The same repair without the threads' dice: a rail that is not the
# fuzzer's (as the threads attach one: sit0, which the debug kernel has
# in every namespace, once stayed on plane 3) and a0 moved to plane 2
# are put right by a repair-only run (-R).  Not before the fuzz: a
# foreign rail that is down on a third plane there took the threads'
# connections (and the udp-port's repair) hostage in two runs.
check "as root: a foreign rail (a veth) on plane 3, a0 moved to plane 2" eval \
	"ip -n $NA link add sfx0 type veth peer name sfx1 &&
	 mrcctl -n $NA rail add sfx0 dev mrc0 plane 3 && mrcctl -n $NA rail set a0 plane 2"
check_eq "as root: the rails before the repair-only run (name:plane)" \
	"a0:2 a1:1 sfx0:3 " "$(mrcctl -n $NA dev show mrc0 |
		awk '$1 == "rail" { print $2 ":" $4 }' | sort | tr '\n' ' ')"
out=$(ip netns exec $NA "$FUZZ" -R -d mrc0 -r a0:0 -r a1:1 2>&1)
rc=$?
check_eq "as root: a repair-only run detaches the foreign rail and moves a0 back (exit $rc)" \
	"a0:0:up a1:1:up " "$(rails_of $NA)"
check_eq "as root: the repair-only run exits 0 and prints nothing" "0 " "$rc $out"

# ---- 2. unprivileged -------------------------------------------------------
fuzz_pair unpriv "$USECS" setpriv --reuid=65534 --regid=65534 --clear-groups \
	--inh-caps=-all --bounding-set=-all --
report unpriv "fuzz unprivileged, $USECS s"
adm_ok=$(op_field unpriv genl-admin ok)
adm_perm=$(op_field unpriv genl-admin EPERM)
rt_ok=$(op_field unpriv rtnl ok)
rt_perm=$(op_field unpriv rtnl EPERM)
check_eq "unprivileged: genl configuration requests refused (ok=0, EPERM=$adm_perm)" \
	"0 yes" "$adm_ok $([ "$adm_perm" -gt 0 ] && echo yes || echo no)"
check_eq "unprivileged: rtnetlink link requests refused (ok=0, EPERM=$rt_perm)" \
	"0 yes" "$rt_ok $([ "$rt_perm" -gt 0 ] && echo yes || echo no)"
id_ok=$(op_field unpriv genl-id ok)
id_perm=$(op_field unpriv genl-id EPERM)
# One lookup by id outside the fuzzers too: their dice may make none in a
# short pass (the debug kernel's 10 s once made 0).
direct=$(ip netns exec $NA setpriv --reuid=65534 --regid=65534 --clear-groups \
	--inh-caps=-all --bounding-set=-all -- "$MRC_TOP/tools/mrcctl/mrcctl" \
	conn show id 1 2>&1)
d_perm=no
[[ $direct == *"by id needs CAP_NET_ADMIN"* ]] && d_perm=yes
check_eq "unprivileged: lookups by connection id refused (fuzzers: ok=0, EPERM=$id_perm; mrcctl conn show id: refused)" \
	"0 yes" "$id_ok $d_perm"
check_match "unprivileged: genl queries still answered" '^[1-9]' "$(op_field unpriv genl ok)"
check_match "unprivileged: sockets connect and carry messages" '^[1-9][0-9]* [1-9][0-9]* [1-9]' \
	"$(op_field unpriv svc-accept ok) $(sent unpriv) $(received unpriv)"
no_conns "unprivileged: every fuzz socket gone" $NA $NB

# ---- 3. the module still works ---------------------------------------------
check "fresh 2-plane pair sf-c/sf-d" mrc_pair sf-c sf-d 2
transfer "after fuzzing: fresh pair" sf-c sf-d 10.1.0.2 7100
transfer "after fuzzing: the fuzzed pair" $NA $NB 10.0.0.2 7101
no_conns "after the transfers: no connection left" $NA $NB sf-c sf-d
out=$(dmesg_since | grep -E "WARNING:|BUG:|KASAN|Oops|possible (recursive|circular)|unregister_netdevice: waiting for" | head -20)
check_eq "no kernel report in dmesg during the test" "" "$out"

tap_end
