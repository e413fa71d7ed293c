#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# selftests/lib.sh - shared helpers of the mrc selftests (source it).
#
# TAP: every check prints one "ok N desc" / "not ok N desc" line, with the
# evidence of a failure as "# " comment lines below it.  End a test with
# tap_end, which exits 1 if anything failed.  selftests/run.sh renumbers
# the cases of all programs into one stream.
#
# Environment (set by tools/vm/run in the VM):
#   MRC_TOP  the checkout     MRC_KO  path of the mrc.ko under test

MRC_TOP=${MRC_TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
KSFT_SKIP=4

_tap_n=0
_tap_fail=0

# tap_ok DESC
tap_ok() {
	_tap_n=$((_tap_n + 1))
	echo "ok $_tap_n $*"
}

# tap_fail DESC [EVIDENCE...]: EVIDENCE lines are printed as diagnostics.
tap_fail() {
	local desc=$1
	shift
	_tap_n=$((_tap_n + 1))
	_tap_fail=$((_tap_fail + 1))
	echo "not ok $_tap_n $desc"
	[ $# -gt 0 ] && printf '%s\n' "$@" | sed 's/^/#   /'
	return 0
}

# tap_skip DESC REASON: a skip always says why.
tap_skip() {
	_tap_n=$((_tap_n + 1))
	echo "ok $_tap_n $1 # SKIP $2"
}

# tap_diag TEXT...: a comment line.
tap_diag() {
	echo "# $*"
}

# check DESC CMD...: passes when CMD succeeds; its output is the evidence.
check() {
	local desc=$1 out
	shift
	if out=$("$@" 2>&1); then
		tap_ok "$desc"
	else
		tap_fail "$desc" "command: $*" "exit: $?" "$out"
	fi
}

# check_fails DESC CMD...: passes when CMD fails.
check_fails() {
	local desc=$1 out
	shift
	if out=$("$@" 2>&1); then
		tap_fail "$desc" "command: $*" "unexpectedly succeeded" "$out"
	else
		tap_ok "$desc"
	fi
}

# check_eq DESC EXPECTED ACTUAL
check_eq() {
	if [ "$2" = "$3" ]; then
		tap_ok "$1"
	else
		tap_fail "$1" "expected: $2" "actual:   $3"
	fi
}

# check_match DESC REGEX TEXT: passes when TEXT matches the extended REGEX.
check_match() {
	if printf '%s\n' "$3" | grep -qE -- "$2"; then
		tap_ok "$1"
	else
		tap_fail "$1" "expected to match: $2" "actual: $3"
	fi
}

# check_output DESC EXPECTED CMD...: CMD's stdout+stderr must equal EXPECTED
# exactly (golden output), and its exit status must be 0, or the status
# given as MRC_RC=N in the environment of the call.
check_output() {
	local desc=$1 expected=$2 out rc want=${MRC_RC:-0}
	shift 2
	out=$("$@" 2>&1)
	rc=$?
	if [ "$out" = "$expected" ] && [ "$rc" = "$want" ]; then
		tap_ok "$desc"
	else
		tap_fail "$desc" "command: $*" "exit: $rc (expected $want)" \
			"--- expected" "$expected" "--- actual" "$out"
	fi
}

# tap_end: finish the test; the exit status says whether all passed.
tap_end() {
	echo "1..$_tap_n"
	[ $_tap_fail = 0 ]
	exit $?
}

# ---- network namespaces ------------------------------------------------------

_ns_list=()
_ns_cleanup() {
	local ns
	for ns in "${_ns_list[@]}"; do
		ip netns del "$ns" 2>/dev/null
	done
}
trap _ns_cleanup EXIT

# ns_create NAME...: fresh named namespaces (lo up), deleted at exit.
ns_create() {
	local ns
	for ns in "$@"; do
		ip netns del "$ns" 2>/dev/null
		ip netns add "$ns" || return 1
		ip -n "$ns" link set dev lo up
		_ns_list+=("$ns")
	done
}

# ---- two hosts, multi-plane --------------------------------------------------

# mrc_pair NA NB PLANES [4|6] [MTU]: two namespaces ("hosts"), each with an
# mrc device mrc0 and one rail per plane, plane P being a veth pair
# aP (in NA) <-> bP (in NB) with addresses 10.P.0.1/24 and 10.P.0.2/24
# (or fd00:P::1/64 and fd00:P::2/64).  Everything up.
mrc_pair() {
	local na=$1 nb=$2 n=$3 fam=${4:-4} mtu=${5:-1500} p side ns

	ns_create "$na" "$nb" || return 1
	for p in $(seq 0 $((n - 1))); do
		echo "link add a$p netns $na mtu $mtu type veth peer name b$p netns $nb mtu $mtu"
	done | ip -batch - || return 1
	for side in a b; do
		[ $side = a ] && ns=$na || ns=$nb
		{
			echo "link add mrc0 type mrc"
			for p in $(seq 0 $((n - 1))); do
				if [ "$fam" = 6 ]; then
					echo "link set dev $side$p addrgenmode none"
					echo "addr add $(mrc_pair_addr $side $p 6)/64 dev $side$p nodad"
				else
					echo "addr add $(mrc_pair_addr $side $p 4)/24 dev $side$p"
				fi
				echo "link set dev $side$p master mrc0"
				echo "link set dev $side$p up"
			done
			echo "link set dev mrc0 up"
		} | ip -n "$ns" -batch - || return 1
	done
}

# mrc_pair_addr a|b PLANE [4|6]: the address of that side's rail on PLANE.
mrc_pair_addr() {
	local host=1

	[ "$1" = b ] && host=2
	if [ "${3:-4}" = 6 ]; then
		echo "fd00:$2::$host"
	else
		echo "10.$2.0.$host"
	fi
}

# ---- tools -------------------------------------------------------------------

# mrcctl and mrcat of this checkout, also for "sh -c" and other programs.
PATH=$MRC_TOP/tools/mrcctl:$MRC_TOP/tools/mrcat:$PATH

# linux_src: Linux 6.12's sources (kselftest harness, ynl), or "".
linux_src() {
	ls -d "${MRC_CACHE:-/var/cache/mrc}"/linux-source-6.12-*/ 2>/dev/null | head -1
}

# ---- module ----------------------------------------------------------------

# mrc_ko: path of the module under test.
mrc_ko() {
	echo "${MRC_KO:-$MRC_TOP/drivers/net/mrc/mrc.ko}"
}

# mrc_load [ARGS...]: load mrc.ko unless it is loaded already.
mrc_load() {
	local dep

	[ -d /sys/module/mrc ] && return 0
	for dep in $(modinfo -F depends "$(mrc_ko)" | tr , ' '); do
		modprobe -q "$dep" 2>/dev/null
	done
	insmod "$(mrc_ko)" "$@"
}

# mrc_unload: rmmod, waiting for lingering connections (TIME_WAIT) to end.
mrc_unload() {
	local i

	for i in $(seq 75); do
		rmmod mrc 2>/dev/null && return 0
		sleep 0.2
	done
	rmmod mrc
}

# mrc_family: the address family number of the loaded module (never assumed).
mrc_family() {
	cat /sys/module/mrc/parameters/family
}

# uapi_define NAME: value of a #define in include/uapi/linux/mrc.h.
uapi_define() {
	sed -n "s/^#define[[:space:]]\+$1[[:space:]]\+\([^[:space:]]*\).*/\1/p" \
		"$MRC_TOP/include/uapi/linux/mrc.h"
}

# dmesg_mark / dmesg_since: kernel messages printed after the mark.
dmesg_mark() {
	_dmesg_lines=$(dmesg | wc -l)
}
dmesg_since() {
	dmesg | tail -n +"$((_dmesg_lines + 1))"
}
