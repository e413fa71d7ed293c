#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the test VM (in the host root shared read-only over 9p),
# started by the initramfs /init.  Prepares the kernel for testing, loads
# mrc.ko, runs the job that tools/vm/run wrote into the results folder,
# unloads the module, scans for leaks and saves the kernel log.
# Results: $results/{rc,load,unload,dmesg.txt,kmemleak.txt}: rc is the
# job's exit status, load and unload say "ok" if mrc.ko went in at the
# start and came out at the end, or else why not.

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
	if insmod "$MRC_KO" $MRC_KO_ARGS 2>"$results/load"; then
		echo ok >"$results/load"
	else
		echo "# insmod $MRC_KO failed: $(cat "$results/load")" >&2
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

# The module must come out at the end; if it cannot, something still holds
# it (a socket, a connection, a device), which is a leak: $results/unload
# says "ok" or why not, and tools/vm/run makes that a result of its own.
# Closed connections linger (TIME_WAIT, orphans finishing their CLOSE) for
# at most the dead-peer time: give them 15 s by the clock (with builtins:
# a process start takes a good part of a second on a busy host).  rmmod
# itself can hang (a leaked netdev reference: the kernel waits in
# unregister_netdevice and says so every 10 s): after 60 s it is left
# hanging and the VM powers off.
# nap SECONDS: sleep without starting a process
nap() {
	read -r -t "$1" -u "$napfd"
	return 0
}
# unload_evidence: who may still hold the module.
unload_evidence() {
	local p ns cmd holders

	holders=$(ls /sys/module/mrc/holders 2>&1)
	echo "module refcnt $(cat /sys/module/mrc/refcnt 2>&1), holders: ${holders:-none}"
	for p in $(find /proc/[0-9]*/fd -maxdepth 1 -lname 'socket:*' 2>/dev/null |
		   cut -d/ -f3 | sort -un); do
		[ "$p" = 1 ] && continue
		cmd=$(tr '\0\n' '  ' <"/proc/$p/cmdline" 2>/dev/null)
		[ -n "$cmd" ] && echo "process $p with sockets still runs: $cmd"
	done
	for ns in "" $(ip netns list 2>/dev/null | cut -d' ' -f1); do
		"$MRC_TOP/tools/mrcctl/mrcctl" ${ns:+-n "$ns"} conn show 2>&1 |
			sed "s/^/connection in namespace ${ns:-init}: /"
	done
}
if [ -n "$MRC_KO" ] && [ "$MRC_SHELL" != 1 ] && [ "$(cat "$results/load")" = ok ]; then
	if [ ! -d /sys/module/mrc ]; then
		echo "ok (the job had unloaded it)" >"$results/unload"
	else
		mkfifo /tmp/.guest-nap && exec {napfd}<>/tmp/.guest-nap
		: >"$results/rmmod.err"
		unload=
		t0=$SECONDS
		while [ -z "$unload" ]; do
			ref=
			read -r ref </sys/module/mrc/refcnt
			if [ "$ref" = 0 ]; then
				rmmod mrc >"$results/rmmod.err" 2>&1 &
				pid=$!
				t1=$SECONDS
				while kill -0 $pid 2>/dev/null && [ $((SECONDS - t1)) -lt 60 ]; do
					nap 0.1
				done
				if kill -0 $pid 2>/dev/null; then
					unload="rmmod hangs ($((SECONDS - t1)) s)"
				elif wait $pid; then
					unload=ok
				fi
			fi
			if [ -z "$unload" ] && [ $((SECONDS - t0)) -ge 15 ]; then
				unload="still in use after $((SECONDS - t0)) s"
			fi
			[ -n "$unload" ] || nap 0.2
		done
		if [ "$unload" = ok ]; then
			echo ok >"$results/unload"
		else
			{
				echo "$unload" "$(cat "$results/rmmod.err")" | sed 's/ *$//'
				unload_evidence
			} >"$results/unload" 2>&1
			echo "# rmmod mrc failed at the end of the run: $(head -1 "$results/unload")" >&2
		fi
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
