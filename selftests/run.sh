#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# selftests/run.sh [TEST...] - run mrc selftests (inside the test VM) and
# print one flat TAP stream: every test case of every program gets a line
# "ok N program: case" numbered across the whole run, then the plan.
#
# A program's cases are its own top-level result lines, "ok N ..." and
# "not ok N ...", numbered 1, 2, 3 ... in order; it prints exactly one
# plan "1..N" (first or last), and N is the number of cases.  Indented
# lines (nested TAP, logs) and "#" lines are diagnostics, as is any other
# output.  Each of these is a failed case of its own: a program that
# exits non-zero without reporting a failure, that reports nothing, that
# numbers its cases out of sequence, that prints no plan, several plans or
# a plan the cases do not match, that bails out, or that runs past the
# timeout in ./settings (x 1.5 on the debug kernel).  Exit status 4
# (KSFT_SKIP) with no cases and the plan "1..0 # SKIP reason" is a skip;
# without a reason it is a failure.
# Default: every test in the Makefile's TEST_PROGS and TEST_GEN_PROGS.

dir=$(cd "$(dirname "$0")" && pwd)
cd "$dir" || exit 1
timeout_s=$(sed -n 's/^timeout=//p' settings)
: "${timeout_s:=600}"
# KASAN, lockdep and kmemleak under TCG: mrc_hostile alone takes 310-440 s
# of the 600 there on an idle host, and timed out on a loaded one.
[ "${MRC_KERNEL:-stock}" = debug ] && timeout_s=$((timeout_s * 3 / 2))

if [ $# -eq 0 ]; then
	# shellcheck disable=SC2046
	set -- $(make -s --no-print-directory -C "$dir" list-tests)
fi

echo "TAP version 13"
n=0
total_fail=0
result() {	# result ok|fail|skip TEXT
	n=$((n + 1))
	case $1 in
	ok) echo "ok $n $2" ;;
	skip) echo "ok $n $2" ;;
	*) echo "not ok $n $2"; total_fail=$((total_fail + 1)) ;;
	esac
}

for t in "$@"; do
	t=${t#"$dir"/}
	name=${t%.sh}
	if [ ! -x "$dir/$t" ]; then
		result fail "$name: not found or not executable (build with make -C selftests)"
		continue
	fi
	echo "# === $name"
	fails=0
	cases=0
	plans=0
	plan=
	skip_reason=
	misnumbered=
	bailed=
	started=$SECONDS
	last=$SECONDS
	times=
	exec 3< <(exec timeout -k 5 "$timeout_s" "./$t" 2>&1)
	pid=$!
	while IFS= read -r line <&3; do
		if [[ $line =~ ^(not\ ok|ok)\ ([0-9]+)(\ -)?(\ (.*))?$ ]]; then
			cases=$((cases + 1))
			if [ "${BASH_REMATCH[2]}" != "$cases" ] && [ -z "$misnumbered" ]; then
				misnumbered="case $cases is numbered ${BASH_REMATCH[2]}"
			fi
			times+="$((SECONDS - last)) ${BASH_REMATCH[5]}"$'\n'
			last=$SECONDS
			if [ "${BASH_REMATCH[1]}" = "not ok" ]; then
				fails=$((fails + 1))
				result fail "$name: ${BASH_REMATCH[5]}"
			else
				result ok "$name: ${BASH_REMATCH[5]}"
			fi
		elif [[ $line =~ ^1\.\.([0-9]+)(\ *#\ *[Ss][Kk][Ii][Pp]\ *(.*))?$ ]]; then
			plans=$((plans + 1))
			plan=${BASH_REMATCH[1]}
			skip_reason=${BASH_REMATCH[3]}
			echo "# $name: plan $line"
		elif [[ $line =~ ^Bail\ out! ]]; then
			bailed=$line
			echo "# $line"
		elif [[ $line =~ ^TAP\ version ]]; then
			:
		elif [[ $line =~ ^# ]]; then
			echo "$line"
		else
			echo "# $line"
		fi
	done
	wait "$pid"
	rc=$?
	exec 3<&-
	echo "# --- $name: exit $rc after $((SECONDS - started))s, $cases cases, plan ${plan:-none}"
	# where the time went (CI's budget): the slowest cases, seconds each
	[ -n "$times" ] && echo "# --- $name: slowest:" \
		"$(sort -rn <<<"$times" | head -4 | sed 's/^\([0-9]*\) /\1s /' | paste -sd ';')"
	# and every case's, then the program's, for budget work:
	# $MRC_RESULTS/times.txt, "PROGRAM SECONDS CASE" lines
	if [ -d "${MRC_RESULTS:-}" ]; then
		{
			awk -v n="$name" 'NF { print n, $0 }' <<<"$times"
			echo "$name $((SECONDS - started)) (whole program, exit $rc)"
		} >>"$MRC_RESULTS/times.txt"
	fi
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		result fail "$name: timed out after ${timeout_s}s"
		continue
	fi
	if [ "$rc" = 4 ] && [ $cases = 0 ] && [ "$plan" = 0 ] && [ -n "$skip_reason" ]; then
		result skip "$name # SKIP $skip_reason"
		continue
	fi
	[ -n "$bailed" ] && result fail "$name: $bailed"
	if [ "$rc" = 4 ] && [ $cases = 0 ]; then
		result fail "$name: skipped itself (exit 4) without a plan \"1..0 # SKIP reason\""
	elif [ "$rc" != 0 ] && [ $fails = 0 ]; then
		result fail "$name: exited with status $rc without reporting a failure"
	fi
	[ $cases = 0 ] && [ "$rc" != 4 ] && result fail "$name: reported no results"
	[ -n "$misnumbered" ] && result fail "$name: TAP results out of sequence ($misnumbered)"
	if [ $plans = 0 ]; then
		[ $cases -gt 0 ] && result fail "$name: printed no plan (1..N) for its $cases cases"
	elif [ $plans -gt 1 ]; then
		result fail "$name: printed $plans plans"
	elif [ "$plan" != $cases ]; then
		result fail "$name: its plan is 1..$plan but it reported $cases cases"
	fi
done
echo "1..$n"
[ $total_fail = 0 ]
