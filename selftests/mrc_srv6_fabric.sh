#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mrc_srv6_fabric.sh - the SRv6 uSID fabric of lib.sh (mrc_fabric_srv6;
# here 2 planes x 4 spines) carries every packet along the path its
# carrier names, and along no other:
#
#  - every switch has only static routes: no multipath route, no IPv4
#    route, and a spine's and a leaf's SID tables are as documented;
#  - from host A, datagrams along an explicit path through every spine of
#    every plane, a distinct number on each path (IPv6 inside; IPv4 inside
#    on one more path per plane; one more path in the short form, which
#    starts with the spine's uSID): the carrier counters of every spine port
#    (tc, both directions) and the counters of every SID route of every
#    switch show each path's packets at the spine it names and nowhere
#    else; host B receives each datagram once, decapsulated;
#  - a carrier naming a spine or a leaf that does not exist, or ending
#    without a decapsulating uSID, is counted up to the switch where the
#    path breaks and by nothing after it: no other port, switch or host.
# The datagrams come from mrc_srv6.py (a raw IPv6 socket: the kernel writes
# the outer header, as mrc will); no mrc connection is involved.

. "$(dirname "$0")/lib.sh"

mrc_load
F=ms NP=2 NSP=4
HA=$F-hA HB=$F-hB
HELPER=$MRC_TOP/selftests/mrc_srv6.py
PORT=7300
tmp=$(mktemp -d)
RPID=
SPINES=$(seq 0 $((NSP - 1)))
PLANES=$(seq 0 $((NP - 1)))
SWITCHES="lA lB $(printf 's%s ' $SPINES)"


mrc_fabric_srv6 $F $NP $NSP || { tap_fail "build a $NP-plane, $NSP-spine SRv6 fabric"; tap_end; }
tap_ok "built a $NP-plane, $NSP-spine SRv6 uSID fabric"

# (Set by "mrc_srv6_... -v".)
a='' b='' c='' u='' short='' LA='' LB='' X6=''
# The SID routes, as counter keys: UN[SW.P] the uN of switch SW (lA, lB,
# s0 ...) in plane P, DX[P.F] leaf B's End.DX6 (F 6) or End.DX4 (F 4).
declare -A UN DX
for p in $PLANES; do
	for sw in $SWITCHES; do
		case $sw in
		lA) mrc_srv6_usid -v u leaf A ;;
		lB) mrc_srv6_usid -v u leaf B ;;
		*) mrc_srv6_usid -v u spine "${sw#s}" ;;
		esac
		mrc_srv6_sid -v a "$p" "$u"
		UN[$sw.$p]=$sw:$a/48
	done
	mrc_srv6_usid -v b leaf B
	for f in 6 4; do
		mrc_srv6_usid -v u "dx$f"
		mrc_srv6_sid -v a "$p" "$b" "$u"
		DX[$p.$f]=lB:$a/64
	done
done

# ---- the tables: static, one route per SID ---------------------------------------

check_eq "no switch has a multipath, default or IPv4 route" "" "$(
	for sw in $SWITCHES; do
		echo "@ $sw"
		ip -n "$F-$sw" -6 route show
		ip -n "$F-$sw" -4 route show
	done | awk '/^@/ { sw = $2; next }
		/nexthop|^default/ || ($1 ~ /\./ && !/proto kernel scope link/) { print sw ": " $0 }')"

UN_TXT="encap seg6local action End flavors next-csid lblen 32 nflen 16 dev sids metric 1024 pref medium"
check_output "spine 2's SID table: its uN and one route per leaf, per plane" \
"fcbb:0:1000::/48 via fd10:0:102::1 dev a0 metric 1024 pref medium
fcbb:0:1001::/48 via fd10:0:202::1 dev b0 metric 1024 pref medium
fcbb:0:2002::/48  $UN_TXT
fcbb:1:1000::/48 via fd10:1:102::1 dev a1 metric 1024 pref medium
fcbb:1:1001::/48 via fd10:1:202::1 dev b1 metric 1024 pref medium
fcbb:1:2002::/48  $UN_TXT" \
	ip -n $F-s2 -6 route show root fcbb::/16
check_output "leaf B's SID table, plane 1: End.DX4 and End.DX6 to host B, its uN, one route per spine" \
"fcbb:1:1001:d4::/64  encap seg6local action End.DX4 nh4 10.1.2.1 dev sids metric 1024 pref medium
fcbb:1:1001:d6::/64  encap seg6local action End.DX6 nh6 fd10:1:2::1 dev sids metric 1024 pref medium
fcbb:1:1001::/48  $UN_TXT
fcbb:1:2000::/48 via fd10:1:200::2 dev u0p1 metric 1024 pref medium
fcbb:1:2001::/48 via fd10:1:201::2 dev u1p1 metric 1024 pref medium
fcbb:1:2002::/48 via fd10:1:202::2 dev u2p1 metric 1024 pref medium
fcbb:1:2003::/48 via fd10:1:203::2 dev u3p1 metric 1024 pref medium" \
	ip -n $F-lB -6 route show root fcbb:1::/32
check_output "host A routes each plane's locator block to its leaf, and nothing else beyond its rails" \
"fcbb::/32 via fd10:0:1::fe dev r0 metric 1024 pref medium
fcbb:1::/32 via fd10:1:1::fe dev r1 metric 1024 pref medium" \
	sh -c "ip -n $HA -6 route show | grep -v 'proto kernel'; ip -n $HA -4 route show | grep -v 'proto kernel' || true"

# ---- counters -------------------------------------------------------------------

# Every spine port counts the carriers (outer destination in fcbb::/16)
# it receives and sends: flower filters on clsact, ingress and egress.
for s in $SPINES; do
	for p in $PLANES; do
		for d in a b; do
			echo "qdisc add dev $d$p clsact"
			for dir in ingress egress; do
				echo "filter add dev $d$p $dir protocol ipv6 pref 1 flower dst_ip fcbb::/16 action pass"
			done
		done
	done | tc -n "$F-s$s" -batch - || { tap_fail "carrier counters on spine $s"; tap_end; }
done

# snap: every counter of the fabric's switches, "KEY VALUE" a line:
#   sS/aP>  sS/aP<   carriers into / out of spine S's port aP (towards
#                    leaf A), sS/bP> sS/bP< alike (towards leaf B)
#   SW:SID  SW:SID!  packets / errors of SID route SID of switch SW
snap() {
	local s p d sw keys cmds

	{
		for s in $SPINES; do
			keys='' cmds=''
			for p in $PLANES; do
				for d in a b; do
					keys+=" s$s/$d$p> s$s/$d$p<"
					cmds+="filter show dev $d$p ingress"$'\n'"filter show dev $d$p egress"$'\n'
				done
			done
			echo "@tc$keys"
			printf %s "$cmds" | tc -n "$F-s$s" -s -batch - || echo "@fail"
		done
		for sw in $SWITCHES; do
			echo "@sw $sw"
			ip -n "$F-$sw" -s -6 route show root fcbb::/16 || echo "@fail"
		done
	} | awk '
		/^@fail/ { exit 1 }
		/^@tc/ { n = split($0, k); i = 1; next }
		/^@sw/ { sw = $2; next }
		/^[ \t]*Sent / { print k[++i], $4 }
		/seg6local/ {
			for (j = 2; j < NF; j++) {
				if ($j == "packets") p = $(j + 1)
				if ($j == "errors") e = $(j + 1)
			}
			print sw ":" $1, p
			print sw ":" $1 "!", e
		}'
}

# Expected changes of a round, by key (unset: none).
declare -A E
# expect KEY N: KEY counts N more.
expect() { E[$1]=$((${E[$1]:-0} + $2)); }

# path_expect PLANE SPINE FAMILY N [short]: N packets from host A along
# the path through SPINE of PLANE: into the spine from leaf A, out towards
# leaf B, through the uN of leaf A (not when the carrier starts with the
# spine's uSID: short) and of the spine, leaf B's End.DX6/DX4.
path_expect() {
	expect "s$2/a$1>" "$4"
	expect "s$2/b$1<" "$4"
	[ "$5" = short ] || expect "${UN[lA.$1]}" "$4"
	expect "${UN[s$2.$1]}" "$4"
	expect "${DX[$1.$3]}" "$4"
}

# One sender for every round (mrc_srv6.py send, reading its flows a line
# at a time), one receiver on host B writing what arrives to $tmp/recv.
coproc SENDER { exec ip netns exec $HA python3 -u "$HELPER" send $PORT - 2>&1; }
SPID=$SENDER_PID
: >"$tmp/recv"
ip netns exec $HB python3 -u "$HELPER" recv $PORT "$tmp/ready" >>"$tmp/recv" 2>"$tmp/recv.err" &
RPID=$!
trap 'kill $RPID $SPID 2>/dev/null; _ns_cleanup; rm -rf "$tmp"' EXIT
for ((i = 0; i < 200; i++)); do [ -e "$tmp/ready" ] && break; nap 0.05; done
[ -e "$tmp/ready" ] || { tap_fail "receiver on host B" "$(cat "$tmp/recv.err")"; tap_end; }

declare -A D
# round WANT FLOW...: send the flows, wait until host B has received WANT
# datagrams of them (at most 10 s), and snapshot the counters; D holds
# every counter's change since the last round (or since "snap
# >$tmp/snap"), WRONG every counter that changed other than E says, GOT
# what host B received ("TAG COUNT" lines).
round() {
	local want=$1 k v n i ack

	shift
	n=$(wc -l <"$tmp/recv")
	echo "$*" >&"${SENDER[1]}"
	read -r -t 30 ack <&"${SENDER[0]}"
	[ "$ack" = sent ] || tap_diag "sender: $ack"
	# Drops happen on the way, within a few milliseconds.
	[ "$want" = 0 ] && nap 0.2
	for ((i = 0; i < 100 && want > 0; i++)); do
		[ $(($(wc -l <"$tmp/recv") - n)) -ge "$want" ] && break
		nap 0.1
	done
	mv "$tmp/snap" "$tmp/before"
	snap >"$tmp/snap" || return 1
	GOT=$(tail -n +$((n + 1)) "$tmp/recv" | sort | uniq -c | awk '{ print $2, $1 }')
	D=()
	while read -r k v; do D[$k]=-$v; done <"$tmp/before"
	while read -r k v; do D[$k]=$((${D[$k]:-0} + v)); done <"$tmp/snap"
	WRONG=
	for k in $(printf '%s\n' "${!D[@]}" "${!E[@]}" | sort -u); do
		[ "${D[$k]:-missing}" = "${E[$k]:-0}" ] ||
			WRONG+="$k: ${D[$k]:-missing} (expected ${E[$k]:-0}) "
	done
	NKEYS=${#D[@]}
}

# ---- every spine of every plane, each by its own path ------------------------------

E=()
flows=()
want_recv=
want_n=0
for p in $PLANES; do
	for s in $SPINES; do
		n=$((2 + NSP * p + s))
		mrc_srv6_carrier -v c "$p" "$s"
		flows+=("p${p}s$s,$c,fd10:$p:1::1,fd10:$p:2::1,$n")
		path_expect "$p" "$s" 6 "$n"
		want_recv+="p${p}s$s $n"$'\n' want_n=$((want_n + n))
	done
	# IPv4 inside, through the spine after the plane's number.
	s=$(((p + 1) % NSP)) n=$((20 + p))
	mrc_srv6_carrier -v c "$p" "$s" A 4
	flows+=("p${p}s${s}v4,$c,10.$p.1.1,10.$p.2.1,$n")
	path_expect "$p" "$s" 4 "$n"
	want_recv+="p${p}s${s}v4 $n"$'\n' want_n=$((want_n + n))
done
# The short form: the carrier starts with the spine; leaf A only forwards.
p=1 s=$((NSP - 1)) n=30
mrc_srv6_usid -v a spine $s
mrc_srv6_usid -v b leaf B
mrc_srv6_usid -v u dx6
mrc_srv6_sid -v short $p "$a" "$b" "$u"
flows+=("p${p}s${s}short,$short,fd10:$p:1::1,fd10:$p:2::1,$n")
path_expect $p $s 6 $n short
want_recv+="p${p}s${s}short $n"$'\n' want_n=$((want_n + n))

snap >"$tmp/snap" || { tap_fail "counters of the fabric"; tap_end; }
round $want_n "${flows[@]}" ||
	{ tap_fail "counters of the fabric"; tap_end; }
tap_diag "carriers: $(mrc_srv6_carrier 0 0) ... $(mrc_srv6_carrier 1 $((NSP - 1))) (IPv4 inside: ...:d4::; short form: $short)"
for p in $PLANES; do
	for s in $SPINES; do
		k=${UN[s$s.$p]}
		check_eq "plane $p spine $s: its paths' packets in from leaf A, through its uN, out to leaf B" \
			"${E[s$s/a$p>]} ${E[$k]} ${E[s$s/b$p<]}" "${D[s$s/a$p>]} ${D[$k]} ${D[s$s/b$p<]}"
	done
	check_eq "plane $p: leaf A's uN, leaf B's End.DX6 and End.DX4 counted every packet of the plane" \
		"${E[${UN[lA.$p]}]} ${E[${DX[$p.6]}]} ${E[${DX[$p.4]}]}" \
		"${D[${UN[lA.$p]}]} ${D[${DX[$p.6]}]} ${D[${DX[$p.4]}]}"
done
check_eq "all $NKEYS counters of the fabric as expected: no packet on any other spine, port or SID" \
	"" "$WRONG"
check_eq "host B received every datagram once, decapsulated, by path" \
	"$(sort <<<"${want_recv%$'\n'}")" "$GOT"

# ---- broken paths: dropped where they break ---------------------------------------

# broken DESC PLANE N USID... -- KEY=N...: N datagrams along the carrier of
# the USIDs in PLANE are counted by the KEYs and by nothing else; host B
# receives none.
broken() {
	local desc=$1 p=$2 n=$3 carrier usids=() kv

	shift 3
	while [ $# -gt 0 ] && [ "$1" != -- ]; do usids+=("$1"); shift; done
	shift
	mrc_srv6_sid -v carrier "$p" "${usids[@]}"
	E=()
	for kv; do expect "${kv%=*}" "${kv##*=}"; done
	round 0 "broken,$carrier,fd10:$p:1::1,fd10:$p:2::1,$n" ||
		{ tap_fail "$desc: counters of the fabric"; return; }
	check_eq "$desc ($carrier): dropped there, nothing else counted them, host B got none" \
		"" "$WRONG$GOT"
}

mrc_srv6_usid -v LA leaf A
mrc_srv6_usid -v LB leaf B
mrc_srv6_usid -v X6 dx6
p=0 s=$NSP
mrc_srv6_usid -v u spine $s
broken "a spine that does not exist: leaf A's uN shifts, no route" $p 5 \
	"$LA" "$u" "$LB" "$X6" -- "${UN[lA.$p]}=5"
p=1 s=1
mrc_srv6_usid -v u spine $s
broken "a leaf that does not exist: spine $s's uN shifts, no route" $p 6 \
	"$LA" "$u" 1002 "$X6" -- "${UN[lA.$p]}=6" "s$s/a$p>=6" "${UN[s$s.$p]}=6"
p=0 s=3
mrc_srv6_usid -v u spine $s
broken "no decapsulating uSID: leaf B's End with a zero argument, no SRH (an error)" $p 7 \
	"$LA" "$u" "$LB" -- "${UN[lA.$p]}=7" "s$s/a$p>=7" "${UN[s$s.$p]}=7" "s$s/b$p<=7" \
	"${UN[lB.$p]}!=7"

tap_end
