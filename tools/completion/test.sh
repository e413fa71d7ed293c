#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/completion/test.sh - what the bash completion of mrcctl offers for
# command lines, against stand-ins for ip and mrcctl (two namespaces:
# the default one with mrc devices mrc0 and mrc1, mrc0's rails a0 and a1,
# one more netdevice eth0, a connection 1a2b3c4d; "ns2" with mrc9 only).
# Run by "make -C tools/mrcctl test" (make unit).

set -u
. "$(dirname "$0")/mrcctl"

ip() {
	local ns=
	[ "$1" = -n ] && { ns=$2; shift 2; }
	case "$ns:$*" in
	":-o link show type mrc") printf '5: mrc0: <UP>\n6: mrc1: <UP>\n' ;;
	"ns2:-o link show type mrc") printf '3: mrc9: <UP>\n' ;;
	":-o link show") printf '1: lo: <UP>\n2: eth0: <UP>\n3: a0@b0: <UP>\n4: a1@b1: <UP>\n5: mrc0: <UP>\n6: mrc1: <UP>\n' ;;
	":-o link show master mrc0") printf '3: a0@b0: <UP>\n4: a1@b1: <UP>\n' ;;
	":netns list") printf 'ns2 (id: 0)\nns3\n' ;;
	esac
}
loaded=1
_mrcctl_loaded() { [ $loaded = 1 ]; }
mrcctl() {
	[ "$*" = "conn show" ] && printf 'mrc0 1a2b3c4d: established 10.0.0.1:49152 -> 10.0.0.2:7000 peer-id 9f8e7d6c planes 1 paths 32\n    seg 1436\n'
}

fail=0
n=0
# expect "COMMAND LINE (cursor at its end)" "SORTED OFFERS"
expect() {
	local line=$1 want=$2 got

	read -ra COMP_WORDS <<<"$line"
	[[ $line == *" " ]] && COMP_WORDS+=("")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	_mrcctl
	got=$(printf '%s\n' "${COMPREPLY[@]}" | sort | xargs)
	n=$((n + 1))
	if [ "$got" = "$want" ]; then
		echo "ok $n - completion: '$line' -> $want"
	else
		echo "not ok $n - completion: '$line' -> '$got', want '$want'"
		fail=1
	fi
}

expect "mrcctl " "conn dev help monitor path rail"
expect "mrcctl -" "--help --json --netns --pretty --stats --version -V -h -j -n -p -s"
expect "mrcctl -j r" "rail"
expect "mrcctl -n " "ns2 ns3"
expect "mrcctl -n ns2 dev show " "mrc9"
expect "mrcctl dev " "help set show"
expect "mrcctl dev show " "mrc0 mrc1"
expect "mrcctl dev set mrc0 " "evs-per-plane max-msg-size spray udp-port"
expect "mrcctl dev set mrc0 spray " "mrc rr"
expect "mrcctl dev set mrc0 spray rr udp-port 5000 " "evs-per-plane max-msg-size"
expect "mrcctl dev set mrc0 udp-port " ""
expect "mrcctl rail " "add del help set show"
expect "mrcctl rail add " "a0 a1 eth0"
expect "mrcctl rail add eth0 " "dev plane state"
expect "mrcctl rail add eth0 dev " "mrc0 mrc1"
expect "mrcctl rail add eth0 dev mrc0 state " "down up"
expect "mrcctl rail del " "a0 a1"
expect "mrcctl rail set a0 " "plane state"
expect "mrcctl rail show " "a0 a1 dev"
expect "mrcctl conn " "help show"
expect "mrcctl conn show " "dev id"
expect "mrcctl conn show id " "1a2b3c4d"
# without the module no id is offered: mrcctl, which would offer one,
# does not run (its genl lookup would load the module)
loaded=0
expect "mrcctl conn show id " ""
loaded=1
expect "mrcctl conn show dev mrc0 " "id"
expect "mrcctl path set " "conn ev"
expect "mrcctl path set conn 1a2b3c4d ev 7 " "allow deny"
expect "mrcctl path set conn 1a2b3c4d ev 7 deny " ""
expect "mrcctl path show " "conn"
expect "mrcctl help " "conn dev monitor path rail"
expect "mrcctl monitor " "help"
exit $fail
