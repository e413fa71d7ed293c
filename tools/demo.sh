#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/demo.sh - "make demo": boot a VM on Debian's stock kernel, load
# the freshly built mrc.ko and show that it is alive: its version, its
# parameters in sysfs and what it logged.  (Later milestones turn this into
# the full multipath demonstration.)

set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)

exec "$top/tools/vm/run" --results "$top/results/demo" -- bash -c '
	echo "== mrc.ko is loaded in a QEMU VM running $(uname -r)"
	lsmod | grep -E "^(Module|mrc) "
	echo
	echo "== /sys/module/mrc"
	echo "version: $(cat /sys/module/mrc/version)"
	for p in /sys/module/mrc/parameters/*; do
		printf "parameter %-10s = %s\n" "${p##*/}" "$(cat "$p")"
	done
	echo
	echo "== kernel log"
	dmesg | grep -E "mrc: " | sed "s/^/  /"
	echo
	echo "== unloading"
	rmmod mrc && echo "mrc unloaded cleanly"
	dmesg | grep -E "mrc: .*unloaded" | sed "s/^/  /"
'
