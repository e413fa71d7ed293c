#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/harness-selftest.sh [--results DIR] - does the test harness fail a
# broken run?  Runs deliberately broken jobs (selftests/harness/, in no
# test list) through tools/vm/run --tests on the stock kernel and checks
# each verdict: the run exits non-zero AND its TAP has a "not ok" naming
# the defect (and, where the broken job shares the run with others, the
# others keep their own verdicts).  Three VM boots:
#
#   1. leak_socket.sh leaves an AF_MRC socket open in a background process:
#      "not ok ... vm: mrc.ko unloaded at the end";
#   2. netdev_leak.sh puts the kernel's line for a netdev reference leak,
#      "unregister_netdevice: waiting for mrc0 to become free", into the
#      kernel log: "not ok ... vm: kernel log clean: unregister_netdevice...";
#   3. no_tap.sh (exits 0, no TAP), out_of_sequence.sh (ok 1, 3, 2),
#      over_plan.sh (3 cases, plan 1..2) and good.sh (a correct test):
#      a "not ok" for each broken one, good.sh passes.
#
# Then, without a VM, tools/check.sh's stage runner (tools/tap-lib.sh):
# a stage that dies before printing TAP (tools/vm/run with a kernel that
# does not exist) and one that exits non-zero after only "ok" lines each
# get a "not ok".  Prints TAP, one line per expectation; exit 1 if any
# expectation failed.  Logs: DIR (default results/harness/<time>).

set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
results=
while [ $# -gt 0 ]; do
	case "$1" in
	--results) results=$2; shift 2 ;;
	*) echo "usage: $0 [--results DIR]" >&2; exit 2 ;;
	esac
done
: "${results:=$top/results/harness/$(date +%Y%m%d-%H%M%S)-$$}"
mkdir -p "$results"
results=$(cd "$results" && pwd)

echo "TAP version 13"
n=0
failed=0

# expect DESC OUT RC REGEX...: the run whose output is OUT exited RC (for
# the stage runner: its tools/tap-summary); the expectation holds when RC
# is non-zero and each REGEX matches a line of OUT (a REGEX starting with
# "!" must match none).
expect() {
	local desc=$1 out=$2 rc=$3 re why=
	shift 3
	[ "$rc" != 0 ] || why="the run exited 0"
	for re in "$@"; do
		if [ "${re:0:1}" = "!" ]; then
			grep -qE -- "${re:1}" "$out" && why+="${why:+; }a line matches ${re:1}"
		else
			grep -qE -- "$re" "$out" || why+="${why:+; }no line matches $re"
		fi
	done
	n=$((n + 1))
	if [ -z "$why" ]; then
		echo "ok $n $desc"
	else
		failed=$((failed + 1))
		echo "not ok $n $desc"
		echo "#   $why"
		grep -E '^(not )?ok [0-9]+' "$out" | sed 's/^/#   run: /'
		echo "#   (log: ${out#"$top"/})"
	fi
}

# vm NAME TEST...: tools/vm/run --tests TEST... into $results/NAME; sets
# OUT (its output) and RC.
vm() {
	local name=$1 t0=$SECONDS
	shift
	OUT=$results/$name.out
	"$top/tools/vm/run" --kernel stock --timeout 600 --results "$results/$name" \
		--tests "$@" >"$OUT" 2>&1
	RC=$?
	echo "# $name: tools/vm/run --tests $* exited $RC after $((SECONDS - t0)) s"
}

vm leak harness/leak_socket.sh
expect "a socket left open in a background process fails the run (vm: mrc.ko unloaded at the end)" \
	"$OUT" "$RC" \
	'^ok [0-9]+ harness/leak_socket: a background process holds an AF_MRC socket' \
	'^not ok [0-9]+ vm: mrc\.ko unloaded at the end: still in use' \
	'^#   process [0-9]+ with sockets still runs: python3' \
	'^ok [0-9]+ vm: kernel log clean$'

vm netdev harness/netdev_leak.sh
expect "an \"unregister_netdevice: waiting for\" line in the kernel log fails the run" \
	"$OUT" "$RC" \
	'^ok [0-9]+ harness/netdev_leak: ' \
	'^not ok [0-9]+ vm: kernel log clean: unregister_netdevice: waiting for mrc0 to become free' \
	'^ok [0-9]+ vm: mrc\.ko unloaded at the end$'

vm tap harness/no_tap.sh harness/out_of_sequence.sh harness/over_plan.sh harness/good.sh
expect "a test that exits 0 and prints no TAP is a failure" "$OUT" "$RC" \
	'^not ok [0-9]+ harness/no_tap: reported no results$'
expect "a test whose results are numbered out of sequence is a failure" "$OUT" "$RC" \
	'^not ok [0-9]+ harness/out_of_sequence: TAP results out of sequence \(case 2 is numbered 3\)$' \
	'!^not ok [0-9]+ harness/out_of_sequence: its plan'
expect "a test with more cases than its plan is a failure" "$OUT" "$RC" \
	'^not ok [0-9]+ harness/over_plan: its plan is 1\.\.2 but it reported 3 cases$' \
	'!^not ok [0-9]+ harness/over_plan: TAP results out of sequence'
expect "a correct test in the same run passes, and the run is otherwise clean" "$OUT" "$RC" \
	'^ok [0-9]+ harness/good: a correct test passes$' \
	'!^not ok [0-9]+ harness/good' \
	'!^ok [0-9]+ harness/good: an indented line' \
	'^ok [0-9]+ vm: the job.s TAP is complete' \
	'^ok [0-9]+ vm: kernel log clean$' \
	'^ok [0-9]+ vm: mrc\.ko unloaded at the end$'

# stages CMD...: tools/check.sh's stage runner on a scratch stream of its
# own (n and tap are local: tap-lib.sh's functions use the caller's).
stages() {
	local n=0 tap=$results/stage.tap

	: >"$tap"
	# shellcheck source=tools/tap-lib.sh disable=SC1091
	. "$top/tools/tap-lib.sh"
	tap_stage "vm: tools/vm/run --tests" "" "$top/tools/vm/run" --kernel /nonexistent --tests
	echo "# stage exit $?"
	tap_stage "stage: ok, then exit 3" "" sh -c 'echo "ok 1 all is well"; echo "1..1"; exit 3'
	echo "# stage exit $?"
	"$top/tools/tap-summary" "$tap"
}
stages >"$results/stage.out" 2>&1
RC=$?
expect "check.sh: a stage that dies before printing TAP gets a \"not ok\"" "$results/stage.out" \
	"$RC" '^not ok 1 vm: tools/vm/run --tests: printed no TAP results \(exit 2\)$' \
	'^# stage exit 2$'
expect "check.sh: a stage that exits non-zero after only \"ok\" lines gets a \"not ok\"" \
	"$results/stage.out" "$RC" '^ok 2 all is well$' \
	'^not ok 3 stage: ok, then exit 3: exited 3 without reporting a failure$' \
	'^# stage exit 3$'

echo "1..$n"
[ $failed = 0 ]
