#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/check.sh stock|debug|debug-full - the test suite behind "make
# check", "make check-debug" and "make check-debug-full".  Runs every stage even when an earlier one failed
# (where it can), prints one TAP stream numbered across all stages, and
# ends with the line "N passed, N failed, N skipped".
#
#   stock: setup, module build (W=1, warning-free) against Debian's 6.1,
#          checkpatch --strict, sparse C=2, userspace unit tests
#          (ASan/UBSan), kernel-doc -Wall and docutils on the docs
#          (tools/doc-check.sh), dkms build from dkms.conf (tools/dkms-check.sh),
#          libFuzzer targets (20 s each), VM selftests on
#          Debian's 6.1 kernel in two VMs at once (STOCK_VM2 of
#          selftests/Makefile in the second), the two-VM test
#          (selftests/mrc_twovm.sh),
#          the harness self-test (tools/harness-selftest.sh: broken jobs
#          must fail).
#   debug: setup, debug kernel (6.12 + KASAN/lockdep/kmemleak; built once
#          per machine), make, make install and dkms in a bare Debian
#          12 chroot (tools/install-check.sh), module build (W=1)
#          against the debug kernel, dkms build from dkms.conf against
#          it, VM selftests on it
#          ending with a kmemleak scan: all but DEBUG_FULL_ONLY of
#          selftests/Makefile, mrc_sysfuzz.sh for 20 s, in two VMs at
#          once (each runs its TCG vCPUs on one host thread, so one VM
#          leaves a core of CI's two idle): DEBUG_VM2 in the second.
#   debug-full: every selftest at its debug size, sysfuzz 60 s (~45 min),
#          in the same two VMs; the rest as debug.
#
# A stage that prints TAP and exits non-zero without a "not ok", or that
# prints no result at all, gets a "not ok" naming it.
#
# Logs: results/check-<kind>/.

set -uo pipefail

kind=${1:-stock}
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/results/check-$kind
rm -rf "$out"
mkdir -p "$out"
tap=$out/check.tap
n=0

# emit and tap_stage: TAP of other programs into the combined stream
# shellcheck source=tools/tap-lib.sh disable=SC1091
. "$top/tools/tap-lib.sh"

# stage NAME LOG CMD...: one TAP line for CMD; its log tail on failure.
stage() {
	local name=$1 log=$2 rc
	shift 2
	"$@" >"$log" 2>&1
	rc=$?
	n=$((n + 1))
	if [ $rc = 0 ]; then
		echo "ok $n $name" | tee -a "$tap"
	else
		{
			echo "not ok $n $name"
			tail -25 "$log" | sed 's/^/#   /'
			echo "#   (full log: ${log#"$top"/})"
		} | tee -a "$tap"
	fi
	return $rc
}

# bg_vm DIR ARGS...: tools/vm/run ARGS --results DIR, its TAP into
# DIR.tap, its exit status into DIR.rc (two run at once; replay prints
# them after).
bg_vm() {
	local dir=$1

	shift
	"$top/tools/vm/run" --results "$dir" "$@" >"$dir.tap" 2>&1
	echo $? >"$dir.rc"
}

# two_vms NAME LIST1 LIST2 ARGS...: tools/vm/run ARGS --tests LIST1 and
# the same with LIST2, at once, into $out/vm and $out/vm-2; then their
# TAP, one after the other.  Each in a process group of its own (set -m),
# which an interrupted run kills.  An empty list (tools/vm/run would run
# every test) fails.
two_vms() {
	local name=$1 list1=$2 list2=$3 p1 p2

	shift 3
	if [ -z "$list1" ] || [ -z "$list2" ]; then
		n=$((n + 1))
		echo "not ok $n vm: selftests/Makefile gave an empty list of tests" | tee -a "$tap"
		return 1
	fi
	echo "# two VMs at once: $out/vm ($list1), $out/vm-2 ($list2)" | tee -a "$tap"
	set -m
	# shellcheck disable=SC2086 # the lists are words
	bg_vm "$out/vm" "$@" --tests $list1 &
	p1=$!
	# shellcheck disable=SC2086
	bg_vm "$out/vm-2" "$@" --tests $list2 &
	p2=$!
	set +m
	# shellcheck disable=SC2064 # the pids, now
	trap "kill -TERM -- -$p1 -$p2 2>/dev/null; exit 130" INT TERM
	wait "$p1" "$p2"
	trap - INT TERM
	tap_stage "vm: $name" "" replay "$out/vm.tap"
	tap_stage "vm-2: $name" "vm-2: " replay "$out/vm-2.tap"
}

# replay FILE: print what bg_vm saved; exit with its status.
replay() {
	cat "$1"
	return "$(cat "${1%.tap}.rc" 2>/dev/null || echo 1)"
}

# no_warnings LOG: fail if a compiler/sparse/checkpatch run warned.
no_warnings() {
	! grep -E '(warning|error):' "$1"
}

# sel TARGET: a list of tests from selftests/Makefile
sel() { make -s --no-print-directory -C "$top/selftests" "$1"; }

echo "TAP version 13" | tee "$tap"
stage "setup: Debian packages installed" "$out/setup.log" "$top/tools/setup.sh"

case $kind in
stock)
	stage "build: mrcctl and the C selftests" "$out/build-tools.log" make -C "$top" tools
	if stage "build: mrc.ko against Debian's $(make -s -C "$top" print-krel)" \
		"$out/build.log" make -C "$top" module; then
		stage "build: no compiler warnings (W=1)" "$out/build-warnings.log" \
			no_warnings "$out/build.log"
		build_ok=1
	else
		build_ok=0
	fi
	stage "style: checkpatch.pl --strict clean" "$out/style.log" make -C "$top" style
	stage "sparse: C=2 clean" "$out/sparse.log" make -C "$top" sparse
	stage "netlink spec: uapi header and netlink/mrc.rst match mrc.yaml (ynl-gen-c, -rst)" \
		"$out/nlspec.log" "$top/tools/nlspec.sh" check
	# kernel-doc -Wall on drivers/net/mrc and include, docutils on every rst
	tap_stage "docs: tools/doc-check.sh" "docs: " "$top/tools/doc-check.sh"
	# dkms.conf builds mrc.ko for the stock kernel; nothing is left behind
	tap_stage "dkms: tools/dkms-check.sh" "" "$top/tools/dkms-check.sh"
	tap_stage "unit: make unit" "unit: " make -s -C "$top" unit
	# (make fuzz runs them 60 s each; here briefly, on their seed corpora)
	tap_stage "fuzz: make -C selftests/fuzz run" "" make -s -C "$top/selftests/fuzz" run \
		FUZZ_SECS="${MRC_FUZZ_SECS:-20}" RESULTS="$out"
	if [ $build_ok = 1 ]; then
		# each VM runs its vCPUs on one TCG thread: two at once use
		# both of CI's cores, each about half of the suite
		two_vms "tools/vm/run --kernel stock --tests" "$(sel list-tests-stock)" \
			"$(sel list-tests-stock-vm2)" --kernel stock
		# two VMs linked by multiqueue virtio-net NICs (tools/vm/run2)
		tap_stage "mrc_twovm: tools/vm/run2" "mrc_twovm: " "$top/tools/vm/run2" --tap \
			--results "$out/vm2" "$top/selftests/mrc_twovm.sh" "$top/selftests/mrc_twovm_b.sh"
		# broken jobs the harness must fail (tools/harness-selftest.sh)
		tap_stage "harness: tools/harness-selftest.sh" "harness: " \
			"$top/tools/harness-selftest.sh" --results "$out/harness"
	else
		n=$((n + 1)); echo "not ok $n vm: selftests not run, the module did not build" | tee -a "$tap"
	fi
	;;
debug|debug-full)
	list2=$(sel list-tests-debug-vm2)
	if [ "$kind" = debug ]; then
		list1=$(sel list-tests-debug)
		env=(--env MRC_SYSFUZZ_SECS=20)
		echo "# on the debug kernel in make check-debug-full only:" \
			"$(sel list-debug-full-only); mrc_sysfuzz.sh for 20 s, not 60" | tee -a "$tap"
	else
		list1=$(sel list-tests-debug-full)
		env=(--env MRC_DEBUG_FULL=1)
	fi
	# The guest runs the host's mrcctl and C selftests: built here too,
	# so make check-debug works on a fresh clone without make check.
	stage "build: mrcctl and the C selftests" "$out/build-tools.log" make -C "$top" tools
	# make, make install and dkms in a bare Debian 12 chroot (issue 15's
	# "fresh Debian 12 image with only the headers"): 2 min cold, the
	# tarball included; 1.5 min warm
	tap_stage "install: tools/install-check.sh" "" "$top/tools/install-check.sh"
	if stage "debug kernel: built (or cached) from linux-source-6.12" \
		"$out/debug-kernel.log" "$top/tools/vm/debug-kernel.sh"; then
		kdir=$("$top/tools/vm/debug-kernel.sh" --print-dir)
		if stage "build: mrc.ko against the debug kernel ($(cat "$kdir/include/config/kernel.release"))" \
			"$out/build.log" make -C "$top" module-debug; then
			stage "build: no compiler warnings against 6.12 (W=1)" \
				"$out/build-warnings.log" no_warnings "$out/build.log"
			# dkms.conf builds mrc.ko for 6.12 as well (this tree
			# as the kernel's sources); nothing is left behind
			tap_stage "dkms: tools/dkms-check.sh on 6.12" "6.12: " \
				"$top/tools/dkms-check.sh" \
				"$(cat "$kdir/include/config/kernel.release")" "$kdir"
			# KASAN and lockdep under TCG: the suite takes ~50 min in
			# one VM; two VMs at once, each about half of it
			two_vms "tools/vm/run --kernel debug --tests" "$list1" "$list2" \
				--kernel debug --kmemleak --timeout 4500 \
				--module "$(make -s -C "$top" print-debug-ko)" "${env[@]}"
		else
			n=$((n + 1)); echo "not ok $n vm: selftests not run, the module did not build" | tee -a "$tap"
		fi
	else
		n=$((n + 1)); echo "not ok $n vm: selftests not run, no debug kernel" | tee -a "$tap"
	fi
	;;
*)
	echo "usage: $0 stock|debug|debug-full" >&2
	exit 2 ;;
esac

echo "1..$n" | tee -a "$tap"
"$top/tools/tap-summary" "$tap"
