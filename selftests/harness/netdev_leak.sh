#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A deliberately broken job for tools/harness-selftest.sh (in no test
# list): a netdev reference leak cannot be made from userspace, so it
# writes the line the kernel prints for one (every 10 s, while
# unregister_netdevice waits) into the kernel log.  Its one case passes;
# tools/vm/run must fail the run ("vm: kernel log clean").

# shellcheck source=selftests/lib.sh disable=SC1091
. "$(dirname "$0")/../lib.sh"

line="unregister_netdevice: waiting for mrc0 to become free. Usage count = 2"
dmesg_mark
echo "$line" >/dev/kmsg
check_match "the kernel log has the line of a netdev reference leak" "$line" "$(dmesg_since)"
tap_end
