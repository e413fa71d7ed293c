#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mrc_lifecycle.sh - objects going away at awkward times, namespaces and
# permissions: a rail moved to another namespace, namespaces deleted with
# devices inside, rmmod with devices (cleans up) and with an open socket
# (refused), unprivileged users (may look, but see no connection ids and
# may not look a connection up by id; may not configure), user
# namespaces (their own root may configure its own namespace), and
# isolation between namespaces.

. "$(dirname "$0")/lib.sh"

mrc_load
ns_create mrc-la mrc-lb
A="ip netns exec mrc-la"
B="ip netns exec mrc-lb"
nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all "$@"; }

ip -n mrc-la -batch - <<'EOF2'
link add mrc0 type mrc
link add va0 type veth peer name va1
link add vb0 type veth peer name vb1
link set dev va0 master mrc0
link set dev vb0 master mrc0
EOF2
ip -n mrc-lb link add mrc9 type mrc

# ---- isolation -----------------------------------------------------------
# dev_names NS: the devices mrcctl dev show lists in NS (a device's line
# is "NAME: ifindex ...", its rails' lines are indented)
dev_names() {
	local l out=

	while IFS= read -r l; do
		[[ $l == [![:space:]]*:\ ifindex\ * ]] && out+="${out:+ }${l%%:*}"
	done < <(mrcctl -n "$1" dev show)
	echo "$out"
}
check_eq "namespace A sees only its device" "mrc0" "$(dev_names mrc-la)"
check_eq "namespace B sees only its device" "mrc9" "$(dev_names mrc-lb)"
check_output "namespace B sees none of A's rails" "[]" mrcctl -n mrc-lb -j rail show
check_output "the init namespace sees neither" "[]" mrcctl -j dev show
# Handles are per namespace: A's ifindexes sent from B reach nothing of A.
out=$(ip netns exec mrc-lb /usr/bin/python3 - 2>&1 <<PY
import sys
sys.path.insert(0, '$(linux_src)tools/net/ynl')
from lib import YnlFamily, NlError
y = YnlFamily('$MRC_TOP/Documentation/netlink/specs/mrc.yaml',
              '$(linux_src)Documentation/netlink/genetlink-legacy.yaml')
try:
    y.do('rail-add', {'dev-ifindex': $($A cat /sys/class/net/mrc0/ifindex),
                      'ifindex': $($A cat /sys/class/net/va1/ifindex)})
except NlError as e:
    print('refused:', e.nl_msg.extack.get('msg'))
    sys.exit(0)
print('accepted')
PY
)
check_match "B cannot attach A's veth to A's device by ifindex" \
	"^refused: (no device with ifindex|.* is not an mrc device)" "$out"
check_eq "A's device is unchanged" "va0 vb0" "$($A cat /sys/class/net/mrc0/mrc/rails)"

# ---- a rail leaving its namespace is detached --------------------------------
check "move rail vb0 to namespace B" ip -n mrc-la link set dev vb0 netns mrc-lb
check_eq "mrc0 lost the rail" "va0" "$($A cat /sys/class/net/mrc0/mrc/rails)"
check_fails "vb0 in B has no master" sh -c "ip -n mrc-lb link show dev vb0 | grep -q master"
check_fails "vb0 in B has no mrc_rail directory" $B test -e /sys/class/net/vb0/mrc_rail
check "vb0 can be a rail in B" mrcctl -n mrc-lb rail add vb0 dev mrc9

# ---- the mrc device itself cannot leave ----------------------------------------
check_fails "ip link set mrc0 netns B is refused" ip -n mrc-la link set dev mrc0 netns mrc-lb

# ---- permissions -------------------------------------------------------------------
check "unprivileged: dev show works" $A setpriv --reuid=65534 --regid=65534 \
	--clear-groups --inh-caps=-all mrcctl dev show
# Connection ids let a local user forge a RESET (mrc_ids.sh): a lookup by
# id is refused before the id is looked at, whether it exists or not.
MRC_RC=1 check_output "unprivileged: conn show id is EPERM, with the reason" \
	"Error: looking up a connection by id needs CAP_NET_ADMIN (ids are hidden from other users)." \
	$A setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
	mrcctl conn show id 1234
MRC_RC=1 check_output "unprivileged: path show conn is EPERM, with the reason" \
	"Error: looking up a connection by id needs CAP_NET_ADMIN (ids are hidden from other users)." \
	$A setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
	mrcctl path show conn 1234
MRC_RC=1 check_output "root: conn show id of no connection is ENOENT" \
	"Error: no connection with id 00001234." mrcctl -n mrc-la conn show id 1234
MRC_RC=1 check_output "unprivileged: rail add is EPERM" "Error: Operation not permitted." \
	$A setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
	mrcctl rail add va1 dev mrc0
MRC_RC=1 check_output "unprivileged: dev set is EPERM" "Error: Operation not permitted." \
	$A setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
	mrcctl dev set mrc0 udp-port 6000
check_fails "unprivileged: sysfs write refused" $A setpriv --reuid=65534 \
	--regid=65534 --clear-groups --inh-caps=-all sh -c "echo 9 > /sys/class/net/va0/mrc_rail/plane"
check_fails "root without CAP_NET_ADMIN: rail set refused" $A setpriv \
	--inh-caps=-net_admin --bounding-set=-net_admin mrcctl rail set va0 plane 9
check_eq "nothing changed" "0" "$($A cat /sys/class/net/va0/mrc_rail/plane)"
# The sockets are opened by a kworker (udp.c), so binding a port is
# checked against the caller's own capabilities.
MRC_RC=1 check_output "root without CAP_NET_BIND_SERVICE: udp-port 80 is EACCES, with the reason" \
	"Error: UDP port 80 needs CAP_NET_BIND_SERVICE." \
	$A setpriv --inh-caps=-net_bind_service --bounding-set=-net_bind_service \
	mrcctl dev set mrc0 udp-port 80
check_output "root: udp-port 80, then back" "" \
	sh -c "$A mrcctl dev set mrc0 udp-port 80 && $A mrcctl dev set mrc0 udp-port $(uapi_define MRC_UDP_PORT_DEFAULT)"

# A port's UDP sockets carry every device's traffic: they belong to the
# root cgroup (memory and BPF), not to whoever created the first device.
cg=/sys/fs/cgroup
[ -e $cg/cgroup.controllers ] || mount -t cgroup2 none $cg 2>/dev/null
if [ -e $cg/cgroup.controllers ] && mkdir -p $cg/mrc-lc; then
	echo +memory >$cg/cgroup.subtree_control 2>/dev/null
	sh -c "echo \$\$ >$cg/mrc-lc/cgroup.procs && ip -n mrc-la link add mrc6 type mrc &&
		ip netns exec mrc-la mrcctl dev set mrc6 udp-port 6006"
	# nsenter: ip netns exec mounts another /sys, without the cgroups
	if nsenter --net=/run/netns/mrc-la ss -uan --cgroup | grep -q "cgroup:"; then
		check_output "a port's sockets opened from a child cgroup belong to the root cgroup" \
			"0.0.0.0:6006 cgroup:/
[::]:6006 cgroup:/" \
			sh -c "nsenter --net=/run/netns/mrc-la ss -uan --cgroup |
			       sed -n 's/.* \\([^ ]*:6006\\) .*\\(cgroup:[^ ]*\\).*/\\1 \\2/p'"
	else
		# (the debug kernel's config: no CONFIG_SOCK_CGROUP_DATA)
		tap_skip "a port's sockets belong to the root cgroup" \
			"this kernel reports no socket's cgroup to ss (no socket cgroup data)"
	fi
	ip -n mrc-la link del mrc6
	rmdir $cg/mrc-lc
else
	tap_skip "a port's sockets belong to the root cgroup" "no cgroup2 hierarchy in this VM"
fi

# A user namespace's root owns its network namespace: it may configure it.
if nobody unshare --user --map-root-user --net true 2>/dev/null; then
	check_output "user namespace root: create, attach, show" \
"mrcu: ifindex N udp-port $(uapi_define MRC_UDP_PORT_DEFAULT) max-msg-size 1048576 evs-per-plane 32 spray mrc family $(mrc_family) version $(cat /sys/module/mrc/version)
    rail vu0 plane 0 admin up oper dev-down" \
		nobody unshare --user --map-root-user --net sh -c \
		'ip link add mrcu type mrc && ip link add vu0 type veth peer name vu1 &&
		 mrcctl rail add vu0 dev mrcu && mrcctl dev show | sed "s/ifindex [0-9]*/ifindex N/"'
else
	tap_skip "user namespace root may configure" "unprivileged user namespaces are disabled"
fi

# ---- namespaces and devices disappearing -------------------------------------------
ip -n mrc-lb link add mrc8 type mrc
check "delete namespace B with two devices and a rail" ip netns del mrc-lb
check_output "nothing of B is visible afterwards" "[]" mrcctl -j dev show

# ---- rmmod ----------------------------------------------------------------------------
fam=$(mrc_family)
python3 -c "
import socket, time, sys
s = socket.socket($fam, socket.SOCK_SEQPACKET)
print('open', flush=True)
time.sleep(60)" >/tmp/holder.out 2>&1 &
holder=$!
for _ in $(seq 50); do grep -q open /tmp/holder.out && break; sleep 0.1; done
check_match "a process holds an AF_MRC socket" "open" "$(cat /tmp/holder.out)"
check_fails "rmmod is refused while a socket is open" rmmod mrc
check "mrc is still loaded" test -d /sys/module/mrc
kill $holder; wait $holder 2>/dev/null

check "rmmod with devices and rails present" rmmod mrc
check_fails "the devices are gone" sh -c "ip -n mrc-la link show type mrc | grep -q mrc0"
check_fails "the former rail has no master" sh -c "ip -n mrc-la link show dev va0 | grep -q master"
check_fails "the former rail has no mrc_rail directory" $A test -e /sys/class/net/va0/mrc_rail
check "the former rail still works as a netdevice" ip -n mrc-la link set dev va0 up
mrc_load
check "mrc loads again" test -d /sys/module/mrc

tap_end
