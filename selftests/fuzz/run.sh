#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh OUT SECS TARGET... - run each libFuzzer target (built in OUT) for
# SECS seconds over a fresh copy of its seed corpus (corpus/TARGET/ is
# never written), and print one TAP line per target:
#
#   ok N fuzz: TARGET: X runs in S s, corpus C
#   not ok N fuzz: TARGET: ... crash file, then the report's first lines
#
# Work files and logs: OUT/work/TARGET/ (corpus/, artifacts/, log).
# Exit status: non-zero if any target failed.

set -uo pipefail

out=$1
secs=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)

symbolizer=/usr/lib/llvm-14/bin/llvm-symbolizer
[ -x "$symbolizer" ] && export ASAN_SYMBOLIZER_PATH=$symbolizer
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# Longest input per target: a packet; a sequence of operations.
max_len() {
	case $1 in
	fuzz_wire) echo 1024 ;;
	*) echo 4096 ;;
	esac
}

rc=0
n=0
echo "TAP version 13"
echo "1..$#"
for t in "$@"; do
	n=$((n + 1))
	work=$out/work/$t
	log=$work/log
	rm -rf "$work"
	mkdir -p "$work/corpus" "$work/artifacts"
	cp "$here/corpus/$t/"* "$work/corpus/"
	start=$(date +%s)
	"$out/$t" -max_total_time="$secs" -timeout=25 -rss_limit_mb=2048 \
		-max_len="$(max_len "$t")" -print_final_stats=1 \
		-artifact_prefix="$work/artifacts/" "$work/corpus" >"$log" 2>&1
	status=$?
	secs_taken=$(($(date +%s) - start))
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	corpus=$(find "$work/corpus" -type f | wc -l)
	last=$(grep -E '^#[0-9]+' "$log" | tail -1)
	cov=$(sed -n 's/.* cov: \([0-9]*\) ft: \([0-9]*\).*/\1 edges, \2 features/p' <<<"$last")
	crash=$(find "$work/artifacts" -type f | head -1)
	if [ $status = 0 ] && [ -z "$crash" ]; then
		echo "ok $n fuzz: $t: ${runs:-?} runs in $secs_taken s, corpus $corpus"
		echo "#   coverage: ${cov:-?}; $(( ${runs:-0} / (secs_taken ? secs_taken : 1) )) runs/s"
		continue
	fi
	rc=1
	# A committed seed?  libFuzzer names artifacts by their SHA-1.
	seed=
	if [ -n "$crash" ]; then
		sum=$(sha1sum <"$crash" | cut -d' ' -f1)
		for f in "$here/corpus/$t/"*; do
			[ "$(sha1sum <"$f" | cut -d' ' -f1)" = "$sum" ] &&
				seed=" (= seed corpus/$t/${f##*/})"
		done
	fi
	echo "not ok $n fuzz: $t: failed after ${runs:-?} runs in $secs_taken s (exit $status): ${crash:-no crash file}$seed"
	# The report (our check, a sanitizer or libFuzzer): its first lines,
	# without the frames of libFuzzer and libc.
	grep -A40 -m1 -E 'FUZZ CHECK FAILED|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:|==[0-9]+== ?ERROR' "$log" |
		grep -vE '__sanitizer_print_stack_trace|fuzzer::|libc\.so|nptl/|signal/|stdlib/|csu/|in _start|^$|NOTE: libFuzzer|Combine libFuzzer' |
		sed -e 's/ (BuildId: [0-9a-f]*)//' -e 's/^/#   /' | head -12
	echo "#   reproduce: $out/$t ${crash:-<input>}   (log: $log)"
done
exit $rc
