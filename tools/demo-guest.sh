#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the demo VM (tools/demo.sh): two hosts (network namespaces)
# with an mrc device and 4 rails each, one connection carrying 64 MiB of
# messages of random sizes over all 4 planes, checked byte for byte.

. "$MRC_TOP/selftests/lib.sh"
set -u

MIB=${MRC_DEMO_MIB:-64}
echo "== two hosts, 4 planes: host A rails a0..a3, host B rails b0..b3"
mrc_pair demo-a demo-b 4 >/dev/null || exit 1
mrcctl -n demo-a dev show
echo
echo "== host B listens; host A sends $MIB MiB as messages of 1 B .. 64 KiB"
count=$((MIB * 1024 / 32))
ip netns exec demo-b mrcat -l -p 5000 -m $count -s 1-65536 -t 300 -r /tmp/ready \
	>/tmp/recv.out 2>/tmp/recv.err &
rpid=$!
for _ in $(seq 100); do [ -e /tmp/ready ] && break; sleep 0.05; done
ip netns exec demo-a mrcat -c 10.2.0.2 -p 5000 -m $count -s 1-65536 -t 300 \
	>/tmp/send.out 2>/tmp/send.err &
spid=$!
sleep 2
echo
echo "== the connection, as mrcctl sees it mid-transfer"
mrcctl -n demo-a conn show
echo
wait $spid
wait $rpid
echo "== per-rail counters of host A after the transfer"
mrcctl -n demo-a -s rail show | grep -E '^a|stats'
echo
echo "== result"
echo "sender:   $(tail -1 /tmp/send.out)"
echo "receiver: $(tail -1 /tmp/recv.out)"
grep -h "mrcat: " /tmp/send.err /tmp/recv.err
s=$(sed -n 's/.*bytes=\([0-9]*\) hash=\([0-9a-f]*\) errors=0.*/\1 \2/p' /tmp/send.out)
r=$(sed -n 's/.*bytes=\([0-9]*\) hash=\([0-9a-f]*\) errors=0.*/\1 \2/p' /tmp/recv.out)
if [ -n "$s" ] && [ "$s" = "$r" ]; then
	echo "OK: ${s% *} bytes delivered over 4 planes, every message verified, hashes equal"
	exit 0
fi
echo "FAILED: the two ends disagree"
exit 1
