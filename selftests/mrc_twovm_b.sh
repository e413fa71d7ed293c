#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mrc_twovm_b.sh - VM B's job of mrc_twovm.sh (tools/vm/run2): set up mrc0
# on the NICs, receive one transfer from A, and leave everything A checks
# in the shared folder:
#   b.info    NIC names, RSS state, setup errors
#   b.before  counters before listening (then b.ready: listening)
#   b.after   counters after the transfer
#   b.out     mrcat's summary and log
#   b.done    written last

. "$(dirname "$0")/mrc_twovm_lib.sh"

twovm_setup
{
	echo "setup_err $SETUP_ERR"
	for ((i = 0; i < P; i++)); do
		echo "nic.$i ${NIC[i]}"
		echo "rss.$i ${RSS[i]}"
	done
} >"$SHARE/b.info"
snapshot >"$SHARE/b.before"
rc=0
mrcat -l -p "$PORT" -m 0 -s 16384 -t 240 -r "$SHARE/b.ready" >"$SHARE/b.out" 2>&1 || rc=$?
snapshot >"$SHARE/b.after"
echo "$rc" >"$SHARE/b.done"
cat "$SHARE/b.info" "$SHARE/b.out"
[ -z "$SETUP_ERR" ] && [ $rc = 0 ]
