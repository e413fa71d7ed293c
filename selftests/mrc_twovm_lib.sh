#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# selftests/mrc_twovm_lib.sh - what both VMs of mrc_twovm.sh do (source
# it): find the NICs tools/vm/run2 gave this VM, enable their queues, make
# them the rails of mrc0, and snapshot counters.
#
# Environment (tools/vm/run2): MRC_ROLE a|b, MRC_NICS, MRC_QUEUES, MRC_SHARE.

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

ROLE=${MRC_ROLE:?run by tools/vm/run2}
P=${MRC_NICS:-4}
Q=${MRC_QUEUES:-4}
SHARE=${MRC_SHARE:?run by tools/vm/run2}
PORT=7300
DOWN=1			# the rail A takes down mid-transfer
NIC=()			# NIC[i]: the interface of NIC i (rail on plane i)
RSS=()			# RSS[i]: what "ethtool -N rx-flow-hash udp4 sdfn" said
SETUP_ERR=""


# now_ms: milliseconds (monotonic enough for a test).
now_ms() {
	echo $((${EPOCHREALTIME/./} / 1000))
}

# wait_file FILE SECONDS: wait for a file the other VM writes.
wait_file() {
	local i

	for ((i = 0; i < $2 * 5; i++)); do
		[ -e "$1" ] && return 0
		nap 0.2
	done
	return 1
}

# twovm_setup: NICs found by MAC, Q queues each, 10.i.0.1 (A) / 10.i.0.2 (B),
# rails of mrc0.  Errors are collected in SETUP_ERR; RSS[i] tells whether
# NIC i hashes UDP on ports.
twovm_setup() {
	local side=a host=1 i d f mac want cur batch="" hash

	[ "$ROLE" = b ] && side=b host=2
	mrc_load || SETUP_ERR+="mrc_load failed; "
	modprobe virtio_net 2>/dev/null	# a module of Debian's kernel
	# No IPv6: no router/neighbour solicitations in the counters.
	sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
	for ((i = 0; i < P; i++)); do
		want=52:54:00:0$side:00:0$i
		NIC[i]=""
		for _ in $(seq 50); do
			for d in /sys/class/net/*; do
				read -r mac <"$d/address" 2>/dev/null || continue
				[ "$mac" = "$want" ] && NIC[i]=${d##*/}
			done
			[ -n "${NIC[i]}" ] && break
			nap 0.2
		done
		if [ -z "${NIC[i]}" ]; then
			SETUP_ERR+="no NIC with MAC $want; "
			continue
		fi
		f=${NIC[i]}
		# The driver opens min(queues, CPUs) queue pairs: ask for all.
		cur=$(ethtool -l "$f" 2>/dev/null |
			awk '/^Current/ { c = 1 } c && /^Combined/ { print $2; exit }')
		if [ "${cur:-0}" != "$Q" ]; then
			ethtool -L "$f" combined "$Q" 2>/dev/null ||
				SETUP_ERR+="ethtool -L $f combined $Q failed (current ${cur:-?}); "
		fi
		# RSS on UDP ports, where the device does RSS (QEMU rss=on).
		RSS[i]=$(ethtool -N "$f" rx-flow-hash udp4 sdfn 2>&1)
		hash=$(ethtool -n "$f" rx-flow-hash udp4 2>&1 | tr '\n' ' ')
		if [[ $hash == *"L4 bytes 0 & 1"* ]]; then
			RSS[i]="udp4 hashed on ports"
		else
			RSS[i]="udp4 not hashed on ports (ethtool -N: ${RSS[i]:-ok}; -n: $hash)"
		fi
		batch+="addr add 10.$i.0.$host/24 dev $f"$'\n'
		batch+="link set dev $f up"$'\n'
		batch+="link set dev $f master mrc0"$'\n'
	done
	ip -batch - <<<"link add mrc0 type mrc
$batch
link set dev mrc0 up" || SETUP_ERR+="mrc0 setup failed; "
}

# snapshot: counters of every NIC, as "key value" lines:
#   nic.I.tx.Q nic.I.rx.Q    the driver's per-queue packets (ethtool -S)
#   dev.I.tx dev.I.rx        the netdevice's packets
#   mrc.I.tx mrc.I.rx        mrc's rail counters (sysfs mrc_rail/)
#   ctl.I.tx ctl.I.rx        the same from mrcctl -s rail show
#   mrcq.I.tx.Q mrcq.I.rx.Q  mrc's per-queue counters (mrcctl)
snapshot() {
	local i f v

	for ((i = 0; i < P; i++)); do
		f=${NIC[i]}
		[ -n "$f" ] || continue
		ethtool -S "$f" | sed -n "s/^ *\(tx\|rx\)_queue_\([0-9]*\)_packets: \([0-9]*\)/nic.$i.\1.\2 \3/p"
		read -r v <"/sys/class/net/$f/statistics/tx_packets"; echo "dev.$i.tx $v"
		read -r v <"/sys/class/net/$f/statistics/rx_packets"; echo "dev.$i.rx $v"
		read -r v <"/sys/class/net/$f/mrc_rail/tx_packets"; echo "mrc.$i.tx $v"
		read -r v <"/sys/class/net/$f/mrc_rail/rx_packets"; echo "mrc.$i.rx $v"
		mrcctl -s rail show "$f" | awk -v i="$i" '
			$1 == "stats" { print "ctl." i ".tx", $3; print "ctl." i ".rx", $7 }
			$1 ~ /^(tx|rx)-queue$/ { sub("-queue", "", $1); print "mrcq." i "." $1 "." $2, $4 }'
	done
}

# load_snap FILE ARRAY: read a snapshot into an associative array.
load_snap() {
	local -n _a=$2
	local k v

	while read -r k v; do _a[$k]=$v; done <"$1"
}
