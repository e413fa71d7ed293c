#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mrc_ctl.sh - the control plane through mrcctl and iproute2: golden
# output of every command and of every error (with the kernel's exact
# extack message), JSON parsed back, sysfs agreeing with netlink, rail
# states following their netdevice, events, and the 32-rail limit.
# Everything runs in a private network namespace.

. "$(dirname "$0")/lib.sh"

mrc_load
NS=mrc-ctl
ns_create $NS
x() { ip netns exec $NS "$@"; }
m() { mrcctl -n $NS "$@"; }
idx() { x cat /sys/class/net/"$1"/ifindex; }
nq() { x ls /sys/class/net/"$1"/queues | grep -c "^$2-"; }	# nq DEV rx|tx
qlines() {	# the expected per-queue lines of mrcctl -s rail show
	x ls /sys/class/net/"$1"/queues | grep "^$2-" | sort -t- -k2 -n |
		sed "s/$2-\(.*\)/    $2-queue \1 packets 0 bytes 0/"
}

FAM=$(mrc_family)
VER=$(cat /sys/module/mrc/version)
PORT=$(uapi_define MRC_UDP_PORT_DEFAULT)

# ---- devices -------------------------------------------------------------
check_output "dev show: nothing in a new namespace" "" m dev show
check_output "dev show -j: empty array" "[]" m -j dev show
check "ip link add mrc0 type mrc" x ip link add mrc0 type mrc
x ip -batch - <<'B'
link add mrc1 type mrc
link add va0 numtxqueues 4 numrxqueues 2 type veth peer name va1
link add vb0 type veth peer name vb1
link add vc0 type veth peer name vc1
link add vd0 type veth peer name vd1
link set dev va0 addrgenmode none
link set dev vb0 addrgenmode none
link add br0 type bridge
link set dev vc1 master br0
addr add 10.1.0.1/24 dev va0
addr add fd00:1::1/64 dev va0 nodad
B
check_output "dev show: two devices, no rails" \
"mrc0: ifindex $(idx mrc0) udp-port $PORT max-msg-size 1048576 evs-per-plane 32 spray mrc family $FAM version $VER
mrc1: ifindex $(idx mrc1) udp-port $PORT max-msg-size 1048576 evs-per-plane 32 spray mrc family $FAM version $VER" \
	m dev show
check_match "ip -d link show names the kind" "^ +mrc " "$(x ip -d link show dev mrc0)"

# ---- rails through mrcctl ---------------------------------------------------
check_output "rail add va0 (lowest free plane)" "" m rail add va0 dev mrc0
check_output "rail add vb0 plane 3, admin down" "" m rail add vb0 dev mrc0 plane 3 state down
check_output "rail show va0: addresses and queues" \
"va0: dev mrc0 plane 0 admin up oper dev-down mtu 1500 tx-queues 4 rx-queues 2
    inet 10.1.0.1
    inet6 fd00:1::1" m rail show va0
check_output "rail show -s vb0: counters and one line per queue" \
"vb0: dev mrc0 plane 3 admin down oper admin-down mtu 1500 tx-queues $(nq vb0 tx) rx-queues $(nq vb0 rx)
    stats tx-packets 0 tx-bytes 0 rx-packets 0 rx-bytes 0 tx-dropped 0 rx-dropped 0
$(qlines vb0 rx)
$(qlines vb0 tx)" \
	m -s rail show vb0
check_output "dev show: rails in plane order" \
"mrc0: ifindex $(idx mrc0) udp-port $PORT max-msg-size 1048576 evs-per-plane 32 spray mrc family $FAM version $VER
    rail va0 plane 0 admin up oper dev-down
    rail vb0 plane 3 admin down oper admin-down" m dev show mrc0
check_output "rail show dev mrc1: no rails" "" m rail show dev mrc1

# Every refusal carries the kernel's message naming the objects.
MRC_RC=1 check_output "attach twice: refused" \
	"Error: rail va0 is already attached to mrc0." m rail add va0 dev mrc1
MRC_RC=1 check_output "plane in use: refused" \
	"Error: plane 3 in use by vb0." m rail add vd0 dev mrc0 plane 3
MRC_RC=1 check_output "netdevice with another master: refused" \
	"Error: vc1 already has a master (br0)." m rail add vc1 dev mrc0
MRC_RC=1 check_output "mrc device as a rail: refused" \
	"Error: mrc1 is an mrc device and cannot be a rail." m rail add mrc1 dev mrc0
MRC_RC=1 check_output "loopback as a rail: refused" \
	"Error: lo is a loopback device and cannot be a rail." m rail add lo dev mrc0
MRC_RC=1 check_output "rail add to a non-mrc device: refused" \
	"Error: vd0 is not an mrc device." m rail add vc0 dev vd0
MRC_RC=1 check_output "rail del of a non-rail: refused" \
	"Error: vd0 is not a rail of any mrc device." m rail del vd0
MRC_RC=1 check_output "rail set plane in use: refused" \
	"Error: plane 3 in use by vb0." m rail set va0 plane 3
MRC_RC=1 check_output "unknown device: refused by mrcctl" \
	'Error: device "eth9" does not exist.' m rail add eth9 dev mrc0
out=$(m rail add vd0 dev mrc0 plane 32 2>&1); rc=$?
check_eq "plane 32: usage error (exit 2)" 2 "$rc"
out=$(m rail set va0 2>&1); rc=$?
check_eq "rail set without changes: usage error (exit 2)" 2 "$rc"
out=$(m dev set mrc0 2>&1); rc=$?
check_eq "dev set without changes: usage error (exit 2)" 2 "$rc"

check_output "rail set: move va0 to plane 5 and back down" "" m rail set va0 plane 5 state down
check_output "rail show: new plane and state" \
	"va0: dev mrc0 plane 5 admin down oper admin-down mtu 1500 tx-queues 4 rx-queues 2" \
	sh -c "mrcctl -n $NS rail show va0 | head -1"
check_output "rail set: back to plane 0, admin up" "" m rail set va0 plane 0 state up

check_output "dev set: udp-port and max-msg-size" "" m dev set mrc0 udp-port 5000 max-msg-size 16777216
check_output "dev set: evs-per-plane and spray" "" m dev set mrc0 evs-per-plane 64 spray rr
check_output "dev show: new tunables" \
	"mrc0: ifindex $(idx mrc0) udp-port 5000 max-msg-size 16777216 evs-per-plane 64 spray rr family $FAM version $VER" \
	sh -c "mrcctl -n $NS dev show mrc0 | head -1"
check_output "sysfs shows the path tunables" "64 rr" \
	ip netns exec "$NS" sh -c 'echo $(cat /sys/class/net/mrc0/mrc/evs_per_plane /sys/class/net/mrc0/mrc/spray)'
check_output "evs-per-plane 257 is refused" \
	'mrcctl: invalid evs-per-plane "257", expected 1..256 (try "mrcctl dev help")' \
	sh -c "mrcctl -n $NS dev set mrc0 evs-per-plane 257 2>&1 | head -1"
check_output "spray via sysfs, and an unknown policy refused" "mrc EINVAL" \
	ip netns exec "$NS" sh -c 'echo mrc >/sys/class/net/mrc0/mrc/spray &&
		{ echo bogus >/sys/class/net/mrc0/mrc/spray 2>/dev/null || printf "%s " $(cat /sys/class/net/mrc0/mrc/spray); echo EINVAL; }'
check_output "ev transition totals start at zero" "0 0 0 0 0" \
	ip netns exec "$NS" sh -c 'cd /sys/class/net/mrc0/mrc && echo $(cat ev_to_good ev_to_skip ev_to_bad ev_to_denied ev_replaced)'
m dev set mrc0 evs-per-plane 32 >/dev/null

# ---- iproute2 and mrcctl see the same rails ------------------------------------
check "ip link set vd0 master mrc0" x ip link set dev vd0 master mrc0
check_output "the iproute2-attached rail gets the lowest free plane" \
	"vd0: dev mrc0 plane 1 admin up oper dev-down mtu 1500 tx-queues $(nq vd0 tx) rx-queues $(nq vd0 rx)" \
	sh -c "mrcctl -n $NS rail show vd0 | head -1"
check_match "ip link shows mrc0 as vd0's master" "master mrc0" "$(x ip link show dev vd0)"
check "ip link set vd0 nomaster" x ip link set dev vd0 nomaster
MRC_RC=1 check_output "after nomaster vd0 is no rail" \
	"Error: vd0 is not a rail of any mrc device." m rail show vd0
check "mrcctl rail add vd0, ip sees the master" \
	sh -c "mrcctl -n $NS rail add vd0 dev mrc1 && ip -n $NS link show dev vd0 | grep -q 'master mrc1'"
check "ip link set vd0 master mrc0 moves it between devices" \
	sh -c "ip -n $NS link set dev vd0 master mrc0 && mrcctl -n $NS rail show vd0 | grep -q 'dev mrc0'"

# ---- JSON ----------------------------------------------------------------------
json=$(m -j -s dev show mrc0)
check_eq "JSON dev: parsed back" "mrc0 $(idx mrc0) 5000 16777216 $FAM va0:0:up vb0:3:down vd0:1:up 0" \
	"$(python3 -c 'import json,sys; d=json.load(sys.stdin)[0]; print(d["ifname"], d["ifindex"], d["udp_port"], d["max_msg_size"], d["family"], " ".join("%s:%d:%s" % (r["ifname"], r["plane"], r["admin_state"]) for r in sorted(d["rails"], key=lambda r: r["ifname"])), d["stats"]["tx_packets"])' <<<"$json" 2>&1)"
json=$(m -j -s rail show va0)
check_eq "JSON rail: addresses, queues" "va0 mrc0 ['10.1.0.1'] ['fd00:1::1'] 6" \
	"$(python3 -c 'import json,sys; r=json.load(sys.stdin)[0]; print(r["ifname"], r["dev"], r["ipv4"], r["ipv6"], len(r["queues"]))' <<<"$json" 2>&1)"

# ---- sysfs agrees with netlink ---------------------------------------------------
sys=/sys/class/net
check_eq "sysfs: device tunables and rails" "$FAM 5000 16777216 va0 vd0 vb0" \
	"$(x sh -c "cat $sys/mrc0/mrc/family $sys/mrc0/mrc/udp_port $sys/mrc0/mrc/max_msg_size $sys/mrc0/mrc/rails" | xargs)"
check_eq "sysfs: rail files" "mrc0 3 down admin-down 0 0" \
	"$(x sh -c "cat $sys/vb0/mrc_rail/device $sys/vb0/mrc_rail/plane $sys/vb0/mrc_rail/admin_state $sys/vb0/mrc_rail/oper_state $sys/vb0/mrc_rail/tx_packets $sys/vb0/mrc_rail/rx_dropped" | xargs)"
check "sysfs: write plane 7" x sh -c "echo 7 > $sys/vb0/mrc_rail/plane"
check "sysfs: write admin_state up" x sh -c "echo up > $sys/vb0/mrc_rail/admin_state"
check_output "netlink sees the sysfs writes" \
	"    rail vb0 plane 7 admin up oper dev-down" \
	sh -c "mrcctl -n $NS dev show mrc0 | grep vb0"
check_fails "sysfs: junk plane is refused" x sh -c "echo seven > $sys/vb0/mrc_rail/plane"
check_fails "sysfs: plane in use is refused" x sh -c "echo 0 > $sys/vb0/mrc_rail/plane"
check_fails "sysfs: plane 32 is refused" x sh -c "echo 32 > $sys/vb0/mrc_rail/plane"
check_fails "sysfs: junk admin_state is refused" x sh -c "echo sideways > $sys/vb0/mrc_rail/admin_state"
check_fails "sysfs: junk udp_port is refused" x sh -c "echo 70000 > $sys/mrc0/mrc/udp_port"
check "sysfs: udp_port write" x sh -c "echo 4796 > $sys/mrc0/mrc/udp_port"
check_match "netlink sees the sysfs udp_port" "udp-port 4796 " "$(m dev show mrc0)"

# ---- rail state follows the netdevice --------------------------------------------
x ip link set dev mrc0 up
check_eq "mrc0 has no carrier while no rail is up" 0 "$(x cat $sys/mrc0/carrier 2>&1)"
x ip link set dev va1 up
x ip link set dev va0 up
check_match "rail up: oper up" "rail va0 plane 0 admin up oper up" "$(m dev show mrc0)"
check_eq "mrc0 has carrier once a rail is up" 1 "$(x cat $sys/mrc0/carrier)"
x ip link set dev va1 down
check_match "peer down: oper no-carrier" "rail va0 plane 0 admin up oper no-carrier" "$(m dev show mrc0)"
check_eq "mrc0 loses carrier with its last usable rail" 0 "$(x cat $sys/mrc0/carrier)"
x ip link set dev va1 up
m rail set va0 state down
check_match "admin down: oper admin-down" "rail va0 plane 0 admin down oper admin-down" "$(m dev show mrc0)"
m rail set va0 state up
x ip link set dev va0 mtu 9000
check_match "MTU change is seen" "mtu 9000" "$(m rail show va0)"

# ---- events ------------------------------------------------------------------------
mon=$(mktemp)
mrcctl -n $NS monitor >"$mon" 2>&1 &
monpid=$!
sleep 1
m rail set vb0 state down
x ip addr add 10.9.0.1/24 dev va0
x ip link set dev vd0 nomaster
x ip link del vb0
x ip link add mrc2 type mrc
x ip link del mrc2
sleep 1
kill $monpid
wait $monpid 2>/dev/null
events=$(cut -d' ' -f1,2 "$mon" | tr '\n' ' ')
check_match "events: rail-change on admin state" "\[rail-change\] vb0: .*admin down" "$(cat "$mon")"
check_match "events: rail-change on an address" "\[rail-change\] va0: " "$(cat "$mon")"
check_match "events: rail-del on nomaster and on deletion" "\[rail-del\] vd0: .*\[rail-del\] vb0: " "$events"
check_match "events: dev-add and dev-del" "\[dev-add\] mrc2: .*\[dev-del\] mrc2: " "$events"
rm -f "$mon"

# ---- lifecycle ------------------------------------------------------------------
check_eq "deleted rail netdevice left the device" "va0" "$(x cat $sys/mrc0/mrc/rails)"
check "ip link del mrc0 with rails attached" x ip link del mrc0
check_fails "its rail has no master any more" sh -c "ip -n $NS link show dev va0 | grep -q master"
check_fails "its rail's sysfs directory is gone" x test -e $sys/va0/mrc_rail
check_output "mrcctl shows the remaining device only" \
	"mrc1: ifindex $(idx mrc1) udp-port $PORT max-msg-size 1048576 evs-per-plane 32 spray mrc family $FAM version $VER" m dev show

# ---- 32 rails per device -------------------------------------------------------------
{
	echo "link add mrcbig type mrc"
	for i in $(seq 0 32); do echo "link add r$i type veth peer name p$i"; done
	for i in $(seq 0 31); do echo "link set dev r$i master mrcbig"; done
} | x ip -batch - >/dev/null
check_eq "32 rails attached (planes 0..31)" "32 31" \
	"$(m -j rail show dev mrcbig | python3 -c 'import json,sys; r=json.load(sys.stdin); print(len(r), max(x["plane"] for x in r))')"
MRC_RC=1 check_output "the 33rd rail is refused" \
	"Error: mrcbig already has 32 rails, the maximum." m rail add r32 dev mrcbig
check "deleting a device with 32 rails" x ip link del mrcbig

tap_end
