#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the test VM (in the host root shared read-only over 9p),
# started by the initramfs /init.  Prepares the kernel for testing, loads
# mrc.ko, runs the job that tools/vm/run wrote into the results folder,
# unloads the module, scans for leaks and saves the kernel log.
# Results: $results/{rc,dmesg.txt,kmemleak.txt}.

results=$1
stty -onlcr 2>/dev/null
# shellcheck source=/dev/null
. "$results/env.sh"

export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/tmp TERM=${TERM:-dumb}
hostname mrc-vm
ip link set dev lo up
sysctl -qw kernel.panic_on_warn=1 kernel.panic_on_oops=1 kernel.panic=-1
sysctl -qw kernel.printk_ratelimit=0 2>/dev/null

kmemleak=/sys/kernel/debug/kmemleak
if [ "$MRC_KMEMLEAK" = 1 ]; then
	if [ -w $kmemleak ]; then
		# Forget what boot itself leaked: only our run counts.
		echo scan >$kmemleak
		echo clear >$kmemleak
	else
		echo "# kmemleak requested but $kmemleak is missing" >&2
	fi
fi

rc=0
if [ -n "$MRC_KO" ]; then
	# insmod does not resolve dependencies (udp_tunnel, ...): load them.
	for dep in $(modinfo -F depends "$MRC_KO" | tr , ' '); do
		modprobe -q "$dep" 2>/dev/null
	done
	if ! insmod "$MRC_KO" $MRC_KO_ARGS; then
		echo "# insmod $MRC_KO failed" >&2
		rc=1
	fi
fi

if [ $rc = 0 ]; then
	if [ "$MRC_SHELL" = 1 ]; then
		echo "# interactive shell; mrc.ko ${MRC_KO:+loaded from $MRC_KO}; exit to power off"
		setsid -c bash -i
	else
		cd "$MRC_TOP" || exit 1
		bash "$results/job.sh"
		rc=$?
	fi
fi

# Closed connections linger (TIME_WAIT, orphans finishing their CLOSE) for
# at most the dead-peer time: give them that long to go.
if [ -d /sys/module/mrc ]; then
	for _ in $(seq 75); do
		rmmod mrc 2>/dev/null && break
		sleep 0.2
	done
	if [ -d /sys/module/mrc ]; then
		echo "# rmmod mrc failed at the end of the run: $(rmmod mrc 2>&1)" >&2
		[ $rc = 0 ] && rc=1
	fi
fi

if [ "$MRC_KMEMLEAK" = 1 ] && [ -w $kmemleak ]; then
	# Objects younger than 5 s are never reported: wait, then scan twice.
	sleep 6
	echo scan >$kmemleak
	echo scan >$kmemleak
	cat $kmemleak >"$results/kmemleak.txt"
fi
dmesg >"$results/dmesg.txt"
echo $rc >"$results/rc"
sync
# PID 1 must not exit (that is a panic): power off, or reset if that fails.
echo o >/proc/sysrq-trigger
sleep 10
echo b >/proc/sysrq-trigger
