#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mrc_dissect.sh - the Wireshark dissector (tools/wireshark/mrc.lua) on a
# real capture: two hosts with two rails, tcpdump on the client's rails
# while a ping-pong (mrc_dissect.py peer) moves data both ways, a switch
# port trims a quarter of the client's DATA (mrc_trim.bpf.o: NACKs and
# retransmissions), plane 1 is challenged (PROBE/PROBE_ACK) and a connect()
# to a closed port is refused (RESET).  Then one tshark run decodes the
# capture (which must have lost nothing: tcpdump's "0 packets dropped by
# kernel"), followed by crafted packets (mrc_dissect.py craft), and
# mrc_dissect.py check compares what it decoded with the connections'
# counters (mrcctl -j conn show, read while they were open) and the
# mrc_retransmit tracepoint: every packet type present, no expert info on
# real traffic, DATA packets == tx pkts, retransmissions == retrans and ==
# the tracepoint's (psn, tx, ev), piggybacked ACKs == acks-on-data, PSNs
# isn + 0..n-1 without a gap, message ids 0..n-1 and CLOSE's count; on
# the crafted packets, the module parser's drop reason of each (the table
# CRAFTED of mrc_dissect.py, which the unit test test_crafted.c checks
# against core/wire.c's parser) and expert info on each malformed one.
# Real traffic reaches the dissector on its default port (4796), the
# crafted packets (port 5000) through "Decode As".

. "$(dirname "$0")/lib.sh"

HELPER=$MRC_TOP/selftests/mrc_dissect.py
LUA=$MRC_TOP/tools/wireshark/mrc.lua
TRIM=$MRC_TOP/selftests/mrc_trim.bpf.o
MSGS=30
for t in tshark tcpdump; do
	if ! command -v $t >/dev/null; then
		tap_skip "dissector" "$t is not installed (tools/setup.sh installs it)"
		tap_end
	fi
done
if [ ! -e "$TRIM" ]; then
	tap_fail "dissector: selftests/mrc_trim.bpf.o is not built (make tools; needs clang-14)"
	tap_end
fi

mrc_load
tmp=$(mktemp -d)
params=/sys/module/mrc/parameters
tracing=/sys/kernel/tracing
burst0=$(cat $params/tx_burst_max)
cleanup() {
	echo "$burst0" >$params/tx_burst_max
	echo 0 >$tracing/events/mrc/mrc_retransmit/enable
	[ -n "${dump:-}" ] && kill "$dump" 2>/dev/null
	_ns_cleanup
	rm -rf "$tmp"
}
trap cleanup EXIT

# One packet per skb, so that tcpdump and the trimming port see packets,
# not bursts (a UDP GSO burst would be captured as one datagram).
echo 1 >$params/tx_burst_max
mrc_pair md-a md-b 2
for p in 0 1; do
	ip netns exec md-a ethtool -K a$p tx-udp-segmentation off >/dev/null
	ip netns exec md-b ethtool -K b$p tx-udp-segmentation off >/dev/null
	tc -n md-a qdisc add dev a$p clsact
	tc -n md-a filter add dev a$p egress bpf da obj "$TRIM" sec trim/quarter
done
echo >$tracing/trace
echo 1 >$tracing/events/mrc/mrc_retransmit/enable

# (--immediate-mode: packets are written as they come, none is left in a
# half-filled capture block when tcpdump is stopped.)  The capture
# socket's ring must hold a burst: the retransmissions a NACK releases
# leave in one softirq, faster than tcpdump (slow under TCG) reads them.
# With the default snapshot length (262144) libpcap sizes every ring
# frame for it, so the default 2 MiB buffer held a handful of packets
# and the kernel dropped 5-7 of them ("packets dropped by kernel": the
# "missing retransmissions").  2048 bytes hold any packet of these
# 1500-byte rails whole; 32 MiB hold thousands.
ip netns exec md-a tcpdump -i any -n --immediate-mode -U -s 2048 -B 32768 \
	-w "$tmp/cap.pcap" 2>"$tmp/tcpdump.err" &
dump=$!
for _ in $(seq 100); do grep -q listening "$tmp/tcpdump.err" && break; sleep 0.1; done

# A REQ to a port nobody listens on: a RESET answers it.
out=$(ip netns exec md-a mrcat -c 10.0.0.2 -p 6999 -m 1 -s 1 -t 10 2>&1)
check_match "closed port: connect() refused" "Connection refused" "$out"

ip netns exec md-b timeout 120 python3 "$HELPER" peer server 7000 "$tmp/rs" >"$tmp/server.out" 2>&1 &
spid=$!
for _ in $(seq 100); do [ -e "$tmp/rs" ] && break; sleep 0.1; done
ip netns exec md-a timeout 120 python3 "$HELPER" peer client 10.0.0.2 7000 $MSGS "$tmp/rc" "$tmp/go" \
	>"$tmp/client.out" 2>&1 &
cpid=$!
for _ in $(seq 600); do [ -e "$tmp/rc" ] && break; sleep 0.1; done
# All answered; the counters once nothing is in flight either way, while
# the connections are open (they end 400 ms after both closed).
for _ in $(seq 50); do
	mrcctl -n md-a -j conn show >"$tmp/conn_a.json"
	mrcctl -n md-b -j conn show >"$tmp/conn_b.json"
	python3 -c '
import json, sys
c = [c for f in sys.argv[1:] for c in json.load(open(f)) if c.get("state") == "established"]
sys.exit(0 if len(c) == 2 and all(x["in_flight"] == 0 for x in c) else 1)' \
		"$tmp/conn_a.json" "$tmp/conn_b.json" && break
	sleep 0.1
done
touch "$tmp/go"
wait $cpid
crc=$?
wait $spid
src=$?
check_eq "ping-pong: $MSGS requests answered, every byte checked (client, server)" "0 0" \
	"$crc $src"
[ "$crc$src" = 00 ] || tap_diag "$(cat "$tmp/client.out" "$tmp/server.out")"
# the CLOSEs and their ACKs: until both connections have ended
for _ in $(seq 50); do
	[ "$(mrcctl -n md-a -j conn show)$(mrcctl -n md-b -j conn show)" = "[][]" ] && break
	sleep 0.1
done
sleep 0.2
kill -INT $dump
wait $dump
dump=
check_match "tcpdump captured every packet (none dropped by the kernel)" \
	"^0 packets dropped by kernel$" "$(grep 'dropped by kernel' "$tmp/tcpdump.err")"
echo 0 >$tracing/events/mrc/mrc_retransmit/enable
cat $tracing/trace >"$tmp/trace"

python3 "$HELPER" craft "$tmp/all.pcap" "$tmp/cap.pcap"
# shellcheck disable=SC2046
HOME=$tmp tshark -X lua_script:"$LUA" -d udp.port==5000,mrc \
	-r "$tmp/all.pcap" -T fields -E separator='|' -E occurrence=a \
	$(python3 "$HELPER" columns) >"$tmp/fields" 2>"$tmp/tshark.err"
check "tshark decodes the capture" test -s "$tmp/fields"
grep -v 'Running as user' "$tmp/tshark.err" | head -5 | while read -r l; do tap_diag "tshark: $l"; done

python3 "$HELPER" check "$tmp/fields" "$tmp/conn_a.json" "$tmp/conn_b.json" \
	"$tmp/trace" $MSGS >"$tmp/checks" 2>&1 || tap_fail "mrc_dissect.py check" "$(cat "$tmp/checks")"
while IFS=$'\t' read -r res what evidence; do
	if [ "$res" = ok ]; then
		tap_ok "$what"
	else
		tap_fail "$what" "$evidence"
	fi
done <"$tmp/checks"
# On a failure the evidence goes to the results (tools/vm/run --results).
if [ "$_tap_fail" != 0 ] && [ -d "${MRC_RESULTS:-}" ]; then
	mkdir -p "$MRC_RESULTS/mrc_dissect"
	cp "$tmp"/* "$MRC_RESULTS/mrc_dissect/"
	tap_diag "capture, tshark fields, counters, trace in $MRC_RESULTS/mrc_dissect"
fi
tap_end
