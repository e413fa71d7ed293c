#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/bench/run.sh - make bench: one VM boot runs every metric for every
# peer (tools/bench/guest.sh), then the host writes the report
# (tools/bench/report.py) into results/bench/: bench.md, bench.json, *.png.
#
# usage: tools/bench/run.sh [--quick] [--only "p1 p2 ..."] [--keep]
#   QUICK=1 in the environment is the same as --quick.  Other knobs go to
#   the guest as BENCH_* variables (see guest.sh), e.g. BENCH_RATE=100.

set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/results/bench
quick=${QUICK:-0}
only=
while [ $# -gt 0 ]; do
	case "$1" in
	--quick) quick=1; shift ;;
	--only) only=$2; shift 2 ;;
	*) echo "usage: $0 [--quick] [--only METRICS]" >&2; exit 2 ;;
	esac
done
[ "$quick" = 1 ] || quick=0

make -s -C "$top/tools/bench" || exit 1
envs=(--env "BENCH_QUICK=$quick")
[ -n "$only" ] && envs+=(--env "BENCH_ONLY=$only")
for v in BENCH_RATE BENCH_MTU BENCH_DELAY_MS BENCH_RUNS BENCH_PAIRS BENCH_P3_RATE BENCH_P3_ROUNDS BENCH_P3_BYTES \
	BENCH_AB BENCH_PARAMS; do
	[ -n "${!v:-}" ] && envs+=(--env "$v=${!v}")
done
# QUICK: under 5 minutes in all; full: under 30.
limit=1680
[ $quick = 1 ] && limit=280
rm -rf "$out/vm"
mkdir -p "$out/vm"
start=$(date +%s)
# --clock tsc: under TCG an HPET read is an emulated MMIO access, and
# both mrc (ktime_get) and TCP (tcp_clock_ns() is ktime_get_ns()) read
# the clock per packet: the costs compared are those of a real machine's
# TSC.
"$top/tools/vm/run" --clock tsc --results "$out/vm" --timeout $limit "${envs[@]}" -- \
	bash "$top/tools/bench/guest.sh"
rc=$?
echo "# bench: VM finished in $(($(date +%s) - start)) s (exit $rc)" >&2
# Soft-RoCE needs two VMs (6.1's rxe works in the initial namespace only):
# tools/bench/twovm.sh in each, one shaped virtio-net link between them.
if [ -z "$only" ] || [[ " $only " == *" rxe "* ]]; then
	rm -rf "$out/vm2"
	t2=$(date +%s)
	secs=5
	[ $quick = 1 ] && secs=3
	"$top/tools/vm/run2" --clock tsc --nics 1 --link dgram --results "$out/vm2" --timeout 300 \
		--env "BENCH_TWOVM_SECS=$secs" \
		--env "BENCH_RATE=${BENCH_RATE:-5}" --env "BENCH_DELAY_MS=${BENCH_DELAY_MS:-1}" \
		"$top/tools/bench/twovm.sh" "$top/tools/bench/twovm.sh" >"$out/vm2.log" 2>&1 || rc=1
	cp "$out/vm2/share/raw.jsonl" "$out/vm/raw/twovm.jsonl" 2>/dev/null
	echo "# bench: two VMs (Soft-RoCE) finished in $(($(date +%s) - t2)) s" >&2
fi
# Debian's python3 has matplotlib (tools/setup.sh); a pyenv one may not.
py=/usr/bin/python3
[ -x $py ] || py=python3
commit=$(git -C "$top" rev-parse --short HEAD 2>/dev/null)
# pgrep -c prints 0 and exits 1 when nothing matches.
vms=$(pgrep -c qemu-system 2>/dev/null)
dirty=$(git -C "$top" status --porcelain 2>/dev/null | grep -qv '^??' && echo "+changes")
$py "$top/tools/bench/report.py" --raw "$out/vm/raw" --out "$out" --quick $quick \
	--commit "${commit:-unknown}${dirty:-}" --concurrent-vms "${vms:-0}" ||
	rc=1
exit $rc
