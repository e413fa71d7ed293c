#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# selftests/run.sh [TEST...] - run mrc selftests (inside the test VM) and
# print one flat TAP stream: every test case of every program gets a line
# "ok N program: case" numbered across the whole run, then the plan.
# A program that exits non-zero without reporting a failure, that reports
# nothing, or that runs past the timeout in ./settings becomes a failed
# case of its own.  Exit status 4 with no cases (KSFT_SKIP) is a skip.
# Default: every test in the Makefile's TEST_PROGS and TEST_GEN_PROGS.

dir=$(cd "$(dirname "$0")" && pwd)
cd "$dir" || exit 1
timeout_s=$(sed -n 's/^timeout=//p' settings)
: "${timeout_s:=600}"

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
	started=$SECONDS
	exec 3< <(exec timeout -k 5 "$timeout_s" "./$t" 2>&1)
	pid=$!
	while IFS= read -r line <&3; do
		if [[ $line =~ ^(not\ ok|ok)(\ [0-9]+)?(\ -)?\ (.*)$ ]]; then
			cases=$((cases + 1))
			if [ "${BASH_REMATCH[1]}" = "not ok" ]; then
				fails=$((fails + 1))
				result fail "$name: ${BASH_REMATCH[4]}"
			else
				result ok "$name: ${BASH_REMATCH[4]}"
			fi
		elif [[ $line =~ ^(TAP\ version|[0-9]+\.\.[0-9]+) ]]; then
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
	echo "# --- $name: exit $rc after $((SECONDS - started))s"
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		result fail "$name: timed out after ${timeout_s}s"
	elif [ "$rc" = 4 ] && [ $cases = 0 ]; then
		result skip "$name # SKIP the program skipped itself"
	elif [ "$rc" != 0 ] && [ $fails = 0 ]; then
		result fail "$name: exited with status $rc"
	elif [ $cases = 0 ]; then
		result fail "$name: reported no results"
	fi
done
echo "1..$n"
[ $total_fail = 0 ]
