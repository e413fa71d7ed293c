#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/demo.sh - "make demo": boot a VM on Debian's stock kernel, load the
# freshly built mrc.ko, build two hosts with 4 rails each on a leaf/spine
# fabric, fail a spine link under one mrc connection and then under one
# TCP connection (tools/demo-guest.sh), and end with a summary table and a
# plot of goodput over time (tools/demo-report.py).  Output is kept in
# results/demo/ (goodput.png, the time series, the VM's logs).

set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)

# --clock tsc: an HPET read is an emulated MMIO access under TCG; mrc
# and TCP are compared with a real machine's clock costs.
"$top/tools/vm/run" --clock tsc --results "$top/results/demo" -- "$top/tools/demo-guest.sh"
rc=$?
[ -s "$top/results/demo/events.txt" ] || exit $rc
/usr/bin/python3 "$top/tools/demo-report.py" "$top/results/demo" || rc=1
exit $rc
