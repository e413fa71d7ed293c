#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/bench/fncount.sh - where a transport's kernel work goes, counted:
# kernel function calls (ftrace's function tracer) per ping-pong round
# trip or per MB of a stream, for mrc and its peers, on P5/P6's pair (one
# veth rail, tools/bench/mrcpp).  Under TCG there is no PMU and sampled
# profiles land in the idle loop; the tracer counts every call of a
# traceable function on every CPU (not inlined or notrace ones), and the
# difference between two transports names the functions one of them
# calls more.  Times do not count here: the tracer slows every call.
# Ping-pong: two traced runs, N and 2N round trips, and the difference
# divided by N, so that what a run pays once (exec, connect, close,
# exit) cancels; what grows with time (ticks, RCU) stays, and grows with
# the tracer's slowdown.  A stream is counted in a window of its middle;
# traced, it runs about ten times slower and batches differently (TCP's
# skbs shrink: 208 k calls per MB traced against mrc's 97 k, where
# untraced TCP costs far less CPU per MB): compare streams with care.
#
# Run in a VM, as root:
#   tools/vm/run --clock tsc --results DIR [--env FNCOUNT_MODE=stream] \
#       -- tools/bench/fncount.sh
# Environment: FNCOUNT_MODE pp (default: 64-byte ping-pong, per round
# trip) or stream (16 KiB writes, per MB received, a FNCOUNT_WIN-second
# window, default 0.4), FNCOUNT_PEERS (default "mrc udp tcp"; stream:
# "mrc tcp"), FNCOUNT_N (round trips, default 300), FNCOUNT_PARAMS
# ("name=value ..." module parameters of mrc).
# Output in DIR: fn-PEER.txt ("calls per unit, function", most first) and
# fn-diff-A-B.txt (the first peer against each other one: the functions
# with the largest difference, either way, first); a summary on stdout.

set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
export MRC_TOP=$top
# shellcheck source=selftests/lib.sh disable=SC1091
. "$top/selftests/lib.sh"
PP=$top/tools/bench/mrcpp
out=${MRC_RESULTS:?run in a VM by tools/vm/run}
mode=${FNCOUNT_MODE:-pp}
n=${FNCOUNT_N:-300}
win=${FNCOUNT_WIN:-0.4}
if [ "$mode" = pp ]; then
	peers=${FNCOUNT_PEERS:-mrc udp tcp}
else
	peers=${FNCOUNT_PEERS:-mrc tcp}
fi
T=/sys/kernel/tracing
tmp=$(mktemp -d)
SRV='' CLI=''
cleanup() {
	echo 0 >$T/tracing_on
	echo nop >$T/current_tracer
	[ -n "${bufsize:-}" ] && echo "$bufsize" >$T/buffer_size_kb
	# shellcheck disable=SC2086 # empty ones vanish
	[ -n "$SRV$CLI" ] && kill $SRV $CLI 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

[ -x "$PP" ] || { echo "fncount: build tools/bench first (make -C tools/bench)" >&2; exit 1; }
[ -d $T/events ] || mount -t tracefs nodev $T || exit 1
grep -qw function $T/available_tracers ||
	{ echo "fncount: this kernel has no function tracer" >&2; exit 1; }
bufsize=$(cat $T/buffer_size_kb)
bufsize=${bufsize%% *}
for kv in ${FNCOUNT_PARAMS:-}; do
	echo "${kv#*=}" >"/sys/module/mrc/parameters/${kv%%=*}" || exit 1
done
mrc_pair cp-a cp-b 1 >/dev/null || { echo "fncount: no pair" >&2; exit 1; }

port=9500
waitready() {
	local _
	for _ in $(seq 200); do [ -e "$tmp/ready" ] && return 0; sleep 0.05; done
	echo "fncount: the server did not start" >&2
	return 1
}
server() {	# server PEER MODE
	port=$((port + 1))
	rm -f "$tmp/ready"
	ip netns exec cp-b "$PP" -T "$1" -l -p $port -M "$2" -s 64 -t 120 \
		-r "$tmp/ready" >"$tmp/srv.out" 2>&1 &
	SRV=$!
	waitready
}
# The tracer is set up (its call sites patched: seconds under TCG) with
# tracing off, before the load starts; then only switched on.
trace_setup() {
	if ! { echo 0 >$T/tracing_on && echo function >$T/current_tracer &&
	       echo 150000 >$T/buffer_size_kb && echo >$T/trace; }; then
		echo "fncount: cannot set up the function tracer" >&2
		exit 1
	fi
}
# count FILE: calls of each function of the trace, "count function"
count() {
	echo 0 >$T/tracing_on
	if grep -q 'overrun: [1-9]' $T/per_cpu/cpu*/stats; then
		echo "fncount: the trace buffer overran: use a smaller FNCOUNT_N or FNCOUNT_WIN" >&2
		exit 1
	fi
	grep -v '^#' $T/trace |
		awk '{ for (i = 1; i < NF; i++) if ($(i + 1) ~ /^<-/) { print $i; break } }' |
		sort | uniq -c | awk '{ print $1, $2 }' >"$1"
	echo nop >$T/current_tracer
}
# per_unit A [B] UNITS FILE: (calls of A minus calls of B) per unit,
# "calls function", most first
per_unit() {
	local a=$1 b=/dev/null

	shift
	[ $# = 3 ] && { b=$1; shift; }
	awk -v u="$1" 'FNR == NR { a[$2] = $1; next } { a[$2] -= $1 }
		END { for (f in a) printf "%9.2f %s\n", a[f] / u, f }' "$a" "$b" |
		sort -rn >"$2"
}
# pp_run N FILE: one traced ping-pong of N round trips, its counts
pp_run() {
	server "$peer" pp || exit 1
	trace_setup
	echo 1 >$T/tracing_on
	ip netns exec cp-a "$PP" -T "$peer" -c 10.0.0.2 -p $port -M pp -s 64 -n "$1" \
		-t 60 >"$tmp/cli.out" 2>&1
	rc=$?
	count "$2"
	wait $SRV
	SRV=
	[ $rc = 0 ] || { echo "fncount: $peer: the client failed: $(cat "$tmp/cli.out")" >&2; exit 1; }
}
rxbytes() { ip netns exec cp-b cat /sys/class/net/b0/statistics/rx_bytes; }

for peer in $peers; do
	if [ "$mode" = pp ]; then
		# a warm-up connection first: the first one pays for lookups
		server "$peer" pp || exit 1
		ip netns exec cp-a "$PP" -T "$peer" -c 10.0.0.2 -p $port -M pp -s 64 -n 50 \
			-t 60 >/dev/null 2>&1
		wait $SRV
		pp_run "$n" "$tmp/c1"
		pp_run $((2 * n)) "$tmp/c2"
		per_unit "$tmp/c2" "$tmp/c1" "$n" "$out/fn-$peer.txt"
		unit="round trip"
	else
		server "$peer" stream || exit 1
		trace_setup
		ip netns exec cp-a "$PP" -T "$peer" -c 10.0.0.2 -p $port -M stream -s 16384 \
			-D 4 -t 60 >"$tmp/cli.out" 2>&1 &
		CLI=$!
		sleep 1.5
		mkfifo "$tmp/never"
		b0=$(rxbytes)
		echo 1 >$T/tracing_on
		# a builtin wait: no process of ours starts in the window
		read -r -t "$win" <>"$tmp/never"
		echo 0 >$T/tracing_on
		b1=$(rxbytes)
		count "$tmp/c1"
		wait $CLI $SRV || { echo "fncount: $peer: the transfer failed" >&2; exit 1; }
		CLI='' SRV=''
		[ $((b1 - b0)) -gt 0 ] || { echo "fncount: $peer: no bytes in the window" >&2; exit 1; }
		per_unit "$tmp/c1" "$(awk -v b=$((b1 - b0)) 'BEGIN { print b / 1e6 }')" \
			"$out/fn-$peer.txt"
		rm -f "$tmp/never"
		unit="MB"
	fi
	echo "fncount: $peer: $(awk '{ s += $1 } END { printf "%.0f", s }' "$out/fn-$peer.txt")" \
		"calls per $unit ($(tail -1 "$tmp/cli.out"))"
done

# the first peer against each other one
# shellcheck disable=SC2086 # a list of words
set -- $peers
first=$1
shift
for other in "$@"; do
	awk -v a="$first" -v b="$other" '
		FNR == NR { x[$2] = $1; next }
		{ y[$2] = $1 }
		END {
			for (f in x) d[f] = x[f] - y[f]
			for (f in y) if (!(f in x)) d[f] = -y[f]
			for (f in d) printf "%9.2f %9.2f %-40s %s %9.2f %s %9.2f\n",
				d[f] < 0 ? -d[f] : d[f], d[f], f, a, x[f], b, y[f]
		}' "$out/fn-$first.txt" "$out/fn-$other.txt" | sort -rn | cut -c11- \
		>"$out/fn-diff-$first-$other.txt"
	echo "fncount: $first - $other, the largest differences per $unit:"
	head -15 "$out/fn-diff-$first-$other.txt"
done
