#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A deliberately broken job for tools/harness-selftest.sh, not a test of
# the module (it is in no test list): its one case passes, but it leaves
# an AF_MRC socket open in a background process, so mrc.ko cannot be
# removed at the end of the run and tools/vm/run must fail the run
# ("vm: mrc.ko unloaded at the end").

# shellcheck source=selftests/lib.sh disable=SC1091
. "$(dirname "$0")/../lib.sh"

# shellcheck disable=SC2119 # no insmod arguments
mrc_load
ready=$(mktemp)
# setsid and no inherited output: it outlives this script and run.sh.
setsid python3 -c "
import socket, sys, time
s = socket.socket($(mrc_family), socket.SOCK_SEQPACKET)
open(sys.argv[1], 'w').write('open')
time.sleep(100000)" "$ready" </dev/null >/dev/null 2>&1 &
for _ in $(seq 100); do [ -s "$ready" ] && break; sleep 0.1; done
check_eq "a background process holds an AF_MRC socket (mrc refcnt $(cat /sys/module/mrc/refcnt))" \
	open "$(cat "$ready")"
tap_end
