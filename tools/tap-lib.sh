# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/tap-lib.sh - copy the TAP of other programs into one combined TAP
# stream (source it; tools/check.sh and tools/harness-selftest.sh do).
# The caller sets n (results so far) and tap (a file every line is also
# appended to).

# The last command of a pipeline runs in the calling shell, so that emit
# at the end of one keeps its counts.
shopt -s lastpipe
: "${n:=0}" "${tap:=/dev/null}"

# emit PREFIX: copy TAP from stdin, renumbered into the combined stream;
# counts the results (emitted) and failures (emitted_fail) it copied.
emit() {
	local prefix=$1 line
	emitted=0
	emitted_fail=0
	while IFS= read -r line; do
		if [[ $line =~ ^(not\ ok|ok)(\ [0-9]+)?(\ -)?\ (.*)$ ]]; then
			n=$((n + 1))
			emitted=$((emitted + 1))
			[ "${BASH_REMATCH[1]}" = "not ok" ] && emitted_fail=$((emitted_fail + 1))
			line="${BASH_REMATCH[1]} $n $prefix${BASH_REMATCH[4]}"
		elif [[ $line =~ ^(TAP\ version|[0-9]+\.\.[0-9]+$|[0-9]+\ passed,\ [0-9]+\ failed) ]]; then
			continue
		elif [[ ! $line =~ ^# ]]; then
			line="# $line"
		fi
		echo "$line" | tee -a "$tap"
	done
}

# tap_stage NAME PREFIX CMD...: run CMD, which prints TAP, into the
# combined stream (each result line prefixed with PREFIX).  Its exit status
# counts too: a CMD that exits non-zero without a "not ok", or that prints
# no result at all, gets a "not ok" line naming it.
tap_stage() {
	local name=$1 prefix=$2 rc
	shift 2
	"$@" 2>&1 | emit "$prefix"
	rc=${PIPESTATUS[0]}
	if [ "$emitted" = 0 ]; then
		n=$((n + 1))
		echo "not ok $n $name: printed no TAP results (exit $rc)" | tee -a "$tap"
	elif [ "$rc" != 0 ] && [ "$emitted_fail" = 0 ]; then
		n=$((n + 1))
		echo "not ok $n $name: exited $rc without reporting a failure" | tee -a "$tap"
	fi
	return "$rc"
}
