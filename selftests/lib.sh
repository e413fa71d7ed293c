#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# selftests/lib.sh - shared helpers of the mrc selftests (source it).
#
# TAP: every check prints one "ok N desc" / "not ok N desc" line, with the
# evidence of a failure as "# " comment lines below it.  End a test with
# tap_end, which prints the plan "1..N" (selftests/run.sh fails a program
# without one, or whose cases do not match it) and exits 1 if anything
# failed.  run.sh renumbers the cases of all programs into one stream.
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

# nap SECONDS: sleep without starting a process (one costs 0.1-0.5 s under
# TCG, more on a busy host: a timed test's clock must not lag).  A read
# with a timeout on a FIFO nobody writes, opened on first use.
nap() {
	if [ -z "${_NAPFD:-}" ]; then
		local f

		f=$(mktemp -u)
		mkfifo "$f" && exec {_NAPFD}<>"$f"
		rm -f "$f"
	fi
	read -r -t "$1" -u "$_NAPFD"
	return 0
}

# ---- a multi-plane leaf/spine fabric -----------------------------------------

# Two hosts PREFIX-hA and PREFIX-hB, each with mrc0 and one rail rP per
# plane P, connected through one leaf per host (PREFIX-lA, PREFIX-lB) and
# SPINES spines (PREFIX-s0 ...).  Planes are separate networks that share
# the leaf and spine namespaces (a namespace per switch role keeps the
# topology cheap to build under emulation):
#
#   hA rP 10.P.1.1 -- hP lA uSpP 10.P.(100+S).1 -- aP sS bP -- uSpP lB hP -- rP hB
#                                  10.P.(100+S).2    10.P.(200+S).2/.1    10.P.2.1
#
# IPv6 alike (fd10:P:1::1, fd10:P:2::1, links fd10:P:1S::/64 and fd10:P:2S::/64
# with S in 00..).  Per-spine counters: interface aP of sS carries plane P's
# A->B traffic.  Two ways to route it, one function each: mrc_fabric (ECMP,
# what a routed fabric does today) and mrc_fabric_srv6 (static SRv6 uSID
# source routes, the MRC paper's fabric).
# The rails cut mrc's UDP GSO bursts into packets as they leave the host
# (no tx-udp-segmentation: a NIC without USO), so that the fabric carries
# packets, as a real one does, and not whole bursts that veth would
# otherwise pass from hop to hop (a spine's netem or trimming would then
# drop or trim a whole burst as one packet).

# mrc_fabric PREFIX PLANES SPINES: the fabric, routed by ECMP.  The leaves
# route the other host's subnet over every spine with L4 hashing
# (fib_multipath_hash_policy=1), so UDP flows, and mrc's entropy values
# (source ports), spread over the spines.
mrc_fabric() {
	_mrc_fabric "$1" "$2" "$3" _mrc_fabric_ecmp
}

# mrc_fabric_srv6 PREFIX PLANES SPINES: the fabric, source-routed by SRv6
# uSIDs: every switch has only static routes (its own uSID, its
# decapsulating functions, one route per neighbour's uSID: no ECMP, no
# multipath route, nothing the switch decides), and a host sends a packet
# along the path its outer IPv6 destination names (mrc_srv6_carrier).
# Plain traffic between the hosts has no route: IPv6 rails are needed.
#
# Numbering (Documentation/mrc/srv6.rst, "The fabric recipe"):
#   locator block of plane P   fcbb:P::/32        (P in decimal digits, as
#                                                  in the rail addresses)
#   uSID of leaf A, leaf B     1000, 1001
#   uSID of spine S            2000 + S (hex: 2000, 2001 ...)
#   functions of a leaf        d6: End.DX6 to its host's rail (fd10:P:N::1)
#                              d4: End.DX4 to its host's rail (10.P.N.1)
# Each switch of plane P (its namespace's plane-P ports) has:
#   fcbb:P:U::/48      End, flavour NEXT-C-SID (uN; lblen 32, nflen 16):
#                      shift the next uSID in, forward by the static table
#   fcbb:P:U:d6::/64, fcbb:P:U:d4::/64 (leaves only): decapsulate, to the host
#   fcbb:P:V::/48      via the neighbour whose uSID is V (a leaf: each
#                      spine; a spine: both leaves)
# and every one of these counts its packets ("ip -s -6 route").  The SID
# routes go through a dummy device "sids" (a route via lo is a reject
# route).  A host routes its planes' blocks to its leaf, fcbb:P::/32.
# The path from host A to host B through spine S of plane P is the carrier
# fcbb:P:1000:<2000+S>:1001:d6:: (d4 for IPv4 inside): leaf A's uN shifts
# in the spine's uSID, the spine's uN leaf B's, and leaf B's d6 (the
# longer prefix) decapsulates.  A carrier may also start at the spine
# (fcbb:P:<2000+S>:1001:d6::): leaf A forwards it without a shift.  The
# last uSID must decapsulate: an End whose remaining argument is zero
# falls back to classic End, which drops a packet without an SRH.
mrc_fabric_srv6() {
	_mrc_fabric "$1" "$2" "$3" _mrc_fabric_sids
}

# _mrc_fabric PREFIX PLANES SPINES ROUTES: build the fabric: namespaces,
# links, addresses, the hosts' mrc0 and rails.  ROUTES prints its mode's
# part: "ROUTES sysctl" more path:value settings of the switches (under
# /proc/sys/net), "ROUTES host|leaf A|B PLANES SPINES" and "ROUTES spine S
# PLANES SPINES" the "ip -batch" lines of that node, after its links are
# up.
_mrc_fabric() {
	local pre=$1 np=$2 nsp=$3 routes=$4 p s side
	local ha=$pre-hA hb=$pre-hB la=$pre-lA lb=$pre-lB sp=()

	for s in $(seq 0 $((nsp - 1))); do sp+=("$pre-s$s"); done
	ns_create "$ha" "$hb" "$la" "$lb" "${sp[@]}" || return 1
	# Before any link exists: no DAD (addresses usable at once; routers
	# need their link-local address for neighbour solicitations), no
	# reverse path filter (the SRv6 mode has no route back to the
	# sources of what it decapsulates).
	for s in "$ha" "$hb"; do
		ip netns exec "$s" sh -c 'for f in ipv6/conf/default/accept_dad:0 \
			ipv4/conf/all/rp_filter:0 ipv4/conf/default/rp_filter:0; do
			echo ${f#*:} >/proc/sys/net/${f%:*}; done' || return 1
	done
	for s in "$la" "$lb" "${sp[@]}"; do
		ip netns exec "$s" sh -c 'for f in ipv6/conf/default/accept_dad:0 \
			ipv4/conf/all/rp_filter:0 ipv4/conf/default/rp_filter:0 \
			ipv4/ip_forward:1 ipv6/conf/all/forwarding:1 $1; do
			echo ${f#*:} >/proc/sys/net/${f%:*}; done' - "$($routes sysctl)" ||
			return 1
	done
	{
		for p in $(seq 0 $((np - 1))); do
			echo "link add r$p netns $ha type veth peer name h$p netns $la"
			echo "link add r$p netns $hb type veth peer name h$p netns $lb"
			for s in $(seq 0 $((nsp - 1))); do
				echo "link add u${s}p$p netns $la type veth peer name a$p netns $pre-s$s"
				echo "link add u${s}p$p netns $lb type veth peer name b$p netns $pre-s$s"
			done
		done
	} | ip -batch - || return 1
	# _fab_if NS IF V4 V6: addresses, up.
	_fab_if() {
		echo "addr add $3/24 dev $2"
		echo "addr add $4/64 dev $2 nodad"
		echo "link set dev $2 up"
	}
	for side in A B; do
		local h=$pre-h$side l=$pre-l$side n=1
		[ $side = B ] && n=2
		{
			echo "link add mrc0 type mrc"
			for p in $(seq 0 $((np - 1))); do
				_fab_if "$h" r$p 10.$p.$n.1 fd10:$p:$n::1
				echo "link set dev r$p master mrc0"
			done
			echo "link set dev mrc0 up"
			$routes host $side "$np" "$nsp"
		} | ip -n "$h" -batch - || return 1
		# shellcheck disable=SC2016
		ip netns exec "$h" sh -c 'for p in $(seq 0 $(($1 - 1))); do
			ethtool -K r$p tx-udp-segmentation off || exit 1; done' - "$np" \
			>/dev/null || return 1
		{
			local s0=100
			[ $side = B ] && s0=200
			for p in $(seq 0 $((np - 1))); do
				_fab_if "$l" h$p 10.$p.$n.254 fd10:$p:$n::fe
				for s in $(seq 0 $((nsp - 1))); do
					_fab_if "$l" u${s}p$p 10.$p.$((s0 + s)).1 \
						fd10:$p:$((s0 + s))::1
				done
			done
			$routes leaf $side "$np" "$nsp"
		} | ip -n "$l" -batch - || return 1
	done
	for s in $(seq 0 $((nsp - 1))); do
		{
			for p in $(seq 0 $((np - 1))); do
				_fab_if "$pre-s$s" a$p 10.$p.$((100 + s)).2 fd10:$p:$((100 + s))::2
				_fab_if "$pre-s$s" b$p 10.$p.$((200 + s)).2 fd10:$p:$((200 + s))::2
			done
			$routes spine "$s" "$np" "$nsp"
		} | ip -n "$pre-s$s" -batch - || return 1
	done
}

# _mrc_fabric_ecmp: mrc_fabric's routes (_mrc_fabric ROUTES): each host
# routes the other's subnet to its leaf, each leaf over every spine
# (multipath, L4 hash), each spine to the leaf of each host.
_mrc_fabric_ecmp() {
	local role=$1 id=$2 np=$3 nsp=$4 p s n=1 o=2 s0=100 v4 v6

	if [ "$role" = sysctl ]; then
		echo ipv4/fib_multipath_hash_policy:1 ipv6/fib_multipath_hash_policy:1
		return 0
	fi
	[ "$id" = B ] && n=2 && o=1 && s0=200
	for p in $(seq 0 $((np - 1))); do
		case $role in
		host)
			echo "route add 10.$p.$o.0/24 via 10.$p.$n.254 dev r$p"
			echo "route add fd10:$p:$o::/64 via fd10:$p:$n::fe dev r$p"
			;;
		leaf)
			v4="route add 10.$p.$o.0/24"
			v6="route add fd10:$p:$o::/64"
			for s in $(seq 0 $((nsp - 1))); do
				v4+=" nexthop via 10.$p.$((s0 + s)).2 dev u${s}p$p"
				v6+=" nexthop via fd10:$p:$((s0 + s))::2 dev u${s}p$p"
			done
			echo "$v4"
			echo "$v6"
			;;
		spine)
			s=$id
			echo "route add 10.$p.1.0/24 via 10.$p.$((100 + s)).1"
			echo "route add 10.$p.2.0/24 via 10.$p.$((200 + s)).1"
			echo "route add fd10:$p:1::/64 via fd10:$p:$((100 + s))::1"
			echo "route add fd10:$p:2::/64 via fd10:$p:$((200 + s))::1"
			;;
		esac
	done
}

# _mrc_fabric_sids: mrc_fabric_srv6's routes (_mrc_fabric ROUTES), by the
# numbering above mrc_fabric_srv6.
_mrc_fabric_sids() {
	local role=$1 id=$2 np=$3 nsp=$4 p s n=1 s0=100 me u a b
	local un="encap seg6local action End flavors next-csid lblen 32 nflen 16 count dev sids"

	case $role in
	sysctl) return 0 ;;
	leaf|spine)
		echo "link add sids type dummy"
		echo "link set dev sids up"
		;;
	esac
	[ "$id" = B ] && n=2 && s0=200
	for p in $(seq 0 $((np - 1))); do
		case $role in
		host)
			mrc_srv6_sid -v a "$p"
			echo "route add $a/32 via fd10:$p:$n::fe dev r$p"
			;;
		leaf)
			mrc_srv6_usid -v me leaf "$id"
			mrc_srv6_sid -v a "$p" "$me"
			echo "route add $a/48 $un"
			mrc_srv6_usid -v u dx6
			mrc_srv6_sid -v a "$p" "$me" "$u"
			echo "route add $a/64 encap seg6local action End.DX6" \
				"nh6 fd10:$p:$n::1 count dev sids"
			mrc_srv6_usid -v u dx4
			mrc_srv6_sid -v a "$p" "$me" "$u"
			echo "route add $a/64 encap seg6local action End.DX4" \
				"nh4 10.$p.$n.1 count dev sids"
			for s in $(seq 0 $((nsp - 1))); do
				mrc_srv6_usid -v u spine "$s"
				mrc_srv6_sid -v a "$p" "$u"
				echo "route add $a/48 via fd10:$p:$((s0 + s))::2 dev u${s}p$p"
			done
			;;
		spine)
			mrc_srv6_usid -v u spine "$id"
			mrc_srv6_sid -v a "$p" "$u"
			echo "route add $a/48 $un"
			mrc_srv6_usid -v u leaf A
			mrc_srv6_sid -v a "$p" "$u"
			mrc_srv6_usid -v u leaf B
			mrc_srv6_sid -v b "$p" "$u"
			echo "route add $a/48 via fd10:$p:$((100 + id))::1 dev a$p"
			echo "route add $b/48 via fd10:$p:$((200 + id))::1 dev b$p"
			;;
		esac
	done
}

# The uSIDs and addresses of mrc_fabric_srv6.  Each prints its result, or
# with -v VAR stores it in VAR (no subshell: building a fabric computes
# hundreds of them).

# _mrc_srv6_ret VAR VALUE: VALUE into VAR, or printed if VAR is "".
_mrc_srv6_ret() {
	if [ -n "$1" ]; then
		printf -v "$1" %s "$2"
	else
		echo "$2"
	fi
}

# mrc_srv6_usid [-v VAR] leaf A|B | spine S | dx6 | dx4: a uSID (hex,
# without leading zeros, as in an IPv6 address).
mrc_srv6_usid() {
	local _var='' _u

	[ "$1" = -v ] && _var=$2 && shift 2
	case $1 in
	leaf) [ "$2" = A ] && _u=1000 || _u=1001 ;;
	spine) printf -v _u %x $((0x2000 + $2)) ;;
	dx6) _u=d6 ;;
	dx4) _u=d4 ;;
	*) return 1 ;;
	esac
	_mrc_srv6_ret "$_var" "$_u"
}

# mrc_srv6_sid [-v VAR] PLANE [USID...]: the address made of PLANE's
# locator block and up to six uSIDs (the rest zero), e.g.
# "mrc_srv6_sid 1 1000" is fcbb:1:1000::.
mrc_srv6_sid() {
	local _var='' _a _u

	[ "$1" = -v ] && _var=$2 && shift 2
	_a=fcbb:$1
	shift
	[ $# -le 6 ] || return 1
	for _u; do _a+=:$_u; done
	[ $# -lt 6 ] && _a+=::
	_mrc_srv6_ret "$_var" "$_a"
}

# mrc_srv6_carrier [-v VAR] PLANE SPINE [FROM [6|4]]: the outer
# destination of the path from host FROM (A, the default, or B) to the
# other host through spine SPINE of PLANE, decapsulated by the other
# leaf's End.DX6 (IPv6 inside, the default) or End.DX4 (IPv4 inside).
mrc_srv6_carrier() {
	local _var='' _from _to=B _s _t _x

	[ "$1" = -v ] && _var=$2 && shift 2
	_from=${3:-A}
	[ "$_from" = B ] && _to=A
	mrc_srv6_usid -v _from leaf "$_from"
	mrc_srv6_usid -v _s spine "$2"
	mrc_srv6_usid -v _t leaf "$_to"
	mrc_srv6_usid -v _x "dx${4:-6}" || return 1
	mrc_srv6_sid -v "${_var:-_x}" "$1" "$_from" "$_s" "$_t" "$_x"
	[ -n "$_var" ] || echo "$_x"
}

# mrc_fabric_ns PREFIX: the namespaces of fabric PREFIX (hosts, leaves,
# spines), one per line.
mrc_fabric_ns() {
	ip netns list | awk -v p="$1-" 'index($1, p) == 1 { print $1 }'
}

# mrc_fabric_mtu PREFIX MTU: every link of fabric PREFIX gets MTU; mrc's
# segments size to it on the next connection.
mrc_fabric_mtu() {
	local ns

	for ns in $(mrc_fabric_ns "$1"); do
		# shellcheck disable=SC2016
		ip netns exec "$ns" sh -c 'for d in /sys/class/net/*; do d=${d##*/}
			[ "$d" = lo ] || [ "$d" = mrc0 ] || [ ! -e "/sys/class/net/$d/mtu" ] ||
				ip link set dev "$d" mtu "$1" || exit 1
			done' - "$2" || return 1
	done
}

# mrc_shape DEV RATE_MBIT DELAY_MS MTU [netem args...]: "tc -batch" lines
# that shape DEV's egress per packet, as a link of that rate: a tbf that
# only cuts GSO skbs into packets of DEV's MTU, then netem with the rate
# (0: none), the delay and a 400-packet queue.
mrc_shape() {
	local dev=$1 rate=$2 delay=$3 mtu=$4 r=

	shift 4
	[ "$rate" = 0 ] || r="rate ${rate}mbit"
	echo "qdisc replace dev $dev root handle 1: tbf rate 10gbit burst $((mtu + 100)) latency 100ms"
	echo "qdisc replace dev $dev parent 1:1 handle 10: netem $r delay ${delay}ms limit 400 $*"
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
	local dep p=/sys/module/mrc/parameters/cc_target_qdelay_us

	if [ ! -d /sys/module/mrc ]; then
		for dep in $(modinfo -F depends "$(mrc_ko)" | tr , ' '); do
			modprobe -q "$dep" 2>/dev/null
		done
		insmod "$(mrc_ko)" "$@" || return 1
	fi
	# Under emulation the RTT jitters by milliseconds with no queue at
	# all; the automatic delay target (the base RTT) would read that as
	# congestion and keep every window at its minimum.  ECN and losses
	# still drive the windows.  MRC_QDELAY_US=0 restores the default.
	[ -w $p ] && echo "${MRC_QDELAY_US:-10000}" >$p
	return 0
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

# dmesg_mark / dmesg_since: kernel messages printed after the mark.  The
# mark is a unique line of its own in the kernel log (written to
# /dev/kmsg at KERN_INFO, below the console's level), not a count of
# lines, which goes wrong once the log ring wraps.  Should the mark itself
# have been overwritten, everything still in the ring came after it.
_dmesg_seq=0
_dmesg_marker=
dmesg_mark() {
	_dmesg_seq=$((_dmesg_seq + 1))
	_dmesg_marker="mrc-selftest: mark $$.$_dmesg_seq.$EPOCHREALTIME"
	echo "<6>$_dmesg_marker" >/dev/kmsg
}
dmesg_since() {
	dmesg | awk -v m="$_dmesg_marker" '
		{ line[NR] = $0 }
		m != "" && index($0, m) { from = NR }
		END { for (i = from + 1; i <= NR; i++) print line[i] }'
}
