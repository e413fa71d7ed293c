#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mrc_module.sh - the module itself: metadata and parameters in sysfs,
# parameter validation at load time, repeated load/unload.

. "$(dirname "$0")/lib.sh"

ko=$(mrc_ko)
params=/sys/module/mrc/parameters

mrc_load
check "mrc is loaded" test -d /sys/module/mrc
check_eq "sysfs version is the module's version" \
	"$(modinfo -F version "$ko")" "$(cat /sys/module/mrc/version 2>&1)"
check_match "module has license, author and description" \
	"^GPL .+ .+$" "$(modinfo -F license "$ko") $(modinfo -F author "$ko" | head -1) $(modinfo -F description "$ko")"
check_eq "family parameter shows the uapi default" \
	"$(uapi_define MRC_FAMILY_DEFAULT)" "$(cat $params/family 2>&1)"
check_eq "udp_port parameter shows the uapi default" \
	"$(uapi_define MRC_UDP_PORT_DEFAULT)" "$(cat $params/udp_port 2>&1)"
check_eq "family and udp_port are read-only (0444)" "444 444" \
	"$(stat -c %a $params/family $params/udp_port 2>&1 | xargs)"
tun="cc_max_cwnd cc_target_qdelay_us cc_burst_segs ev_skip_hold_us
	ev_probe_interval_us ev_probe_successes ev_replace_after"
check_eq "path and congestion tunables are writable by root (0644)" \
	"644 644 644 644 644 644 644" "$(cd $params && stat -c %a $tun 2>&1 | xargs)"
check_eq "tunables show the documented defaults (qdelay: the VM's, see lib.sh)" \
	"1048576 ${MRC_QDELAY_US:-10000} 16 1000 10000 3 8" "$(cd $params && cat $tun 2>&1 | xargs)"
check_eq "spray_two_choices is writable by root (0644) and on by default" \
	"644 Y" "$(stat -c %a $params/spray_two_choices 2>&1) $(cat $params/spray_two_choices 2>&1)"
loss="loss_per_plane loss_path_wait reo_adapt"
check_eq "loss detection's rules are writable by root (0644) and show their documented defaults" \
	"644 644 644 Y Y N" "$(cd $params && stat -c %a $loss 2>&1 | xargs) $(cd $params && cat $loss 2>&1 | xargs)"
bounds="min_seg_size dev_rmem_max orphan_fin_timeout_ms max_orphans half_open_timeout_ms dead_peer_ms"
check_eq "bounds are writable by root (0644) and show their documented defaults" \
	"644 644 644 644 644 644 512 268435456 10000 4096 10000 10000" \
	"$(cd $params && stat -c %a $bounds 2>&1 | xargs) $(cd $params && cat $bounds 2>&1 | xargs)"
acks="ack_every lazy_fill_ack lazy_end_ack lazy_ack ack_piggyback ack_pingpong_us cc_host_delay"
check_eq "ACK mechanisms are writable by root (0644) and show their documented defaults" \
	"644 644 644 644 644 644 644 16 Y Y Y Y 4000 Y" \
	"$(cd $params && stat -c %a $acks 2>&1 | xargs) $(cd $params && cat $acks 2>&1 | xargs)"
# 16 is the protocol's bound: senders rely on an ACK every 16 segments
ae=()
for v in 17 0 1 16; do
	if { echo $v >$params/ack_every; } 2>/dev/null; then
		ae+=("$v:$(cat $params/ack_every)")
	else
		ae+=("$v:refused")
	fi
done
check_eq "ack_every takes 1-16 only (17 and 0 refused)" \
	"17:refused 0:refused 1:1 16:16" "${ae[*]}"
IFS=, read -r m0 m1 m2 <"$params/mem"
check "the protocol's memory limits (mem) are set and ordered: $m0 $m1 $m2 pages" \
	test "$m0" -gt 0 -a "$m0" -le "$m1" -a "$m1" -le "$m2"
dp=()
dp0=$(cat $params/dead_peer_ms)
for v in 999 3600001 1000 3600000 10000; do
	if { echo $v >$params/dead_peer_ms; } 2>/dev/null; then
		dp+=("$(cat $params/dead_peer_ms)")
	else
		dp+=("refused:$(cat $params/dead_peer_ms)")
	fi
done
check_eq "dead_peer_ms: 999 and 3600001 refused (unchanged), 1000 and 3600000 taken, 10000 back" \
	"refused:10000 refused:10000 1000 3600000 10000" "${dp[*]}"
echo "$dp0" >$params/dead_peer_ms
check_fails "writing a read-only parameter is refused" \
	sh -c "echo 25 > $params/family"
check_eq "family is unchanged after the refused write" \
	"$(uapi_define MRC_FAMILY_DEFAULT)" "$(cat $params/family)"

# /proc/net/protocols counts the sockets of each namespace (its "sockets"
# column, sock_prot_inuse_add() at creation and destruction): 7 sockets
# opened in a fresh namespace show as 7 there and not in the initial one
# (/proc/1/net), and the count is 0 again once they are closed (a socket
# is destroyed after an RCU grace period: waited for, up to 2 s).
ns_create mp
out=$(ip netns exec mp python3 -c '
import socket, sys, time
def count(pid):
    for line in open("/proc/%s/net/protocols" % pid):
        f = line.split()
        if f[0] == "MRC":
            return f[2]
    return "none"
res = [count("self"), count(1)]
socks = [socket.socket(int(sys.argv[1]), socket.SOCK_SEQPACKET) for _ in range(7)]
res += [count("self"), count(1)]
for s in socks:
    s.close()
for _ in range(100):
    if count("self") == "0":
        break
    time.sleep(0.02)
res += [count("self"), count(1)]
print("netns %s -> %s -> %s, initial netns %s -> %s -> %s" % tuple(res[0::2] + res[1::2]))
' "$(mrc_family)" 2>&1)
init=$(awk '$1 == "MRC" { print $3 }' /proc/net/protocols)
check_eq "/proc/net/protocols counts MRC sockets per namespace: 0, 7 open, 0 after close" \
	"netns 0 -> 7 -> 0, initial netns $init -> $init -> $init" "$out"
ip netns del mp

check "rmmod mrc" rmmod mrc
check_fails "unloaded: /sys/module/mrc is gone" test -e /sys/module/mrc

# Invalid parameters are refused at load time with a message naming them.
for bad in family=0 family=-1 family=4096 udp_port=0 udp_port=65536; do
	dmesg_mark
	check_fails "insmod $bad is refused" insmod "$ko" "$bad"
	check_match "the refusal of $bad is explained in the kernel log" \
		"mrc: ${bad%%=*}=.* out of range" "$(dmesg_since)"
	[ -d /sys/module/mrc ] && rmmod mrc
done

check "insmod with family=25 udp_port=5000" insmod "$ko" family=25 udp_port=5000
check_eq "non-default parameters are shown" "25 5000" \
	"$(cat $params/family $params/udp_port 2>&1 | xargs)"
check "rmmod after non-default load" rmmod mrc

# Load/unload 20 times (5 on the debug kernel, where an insmod of its
# KASAN build takes seconds under TCG; kmemleak checks what each leaves);
# every cycle must leave nothing behind.
cycles=20
[ "${MRC_KERNEL:-stock}" = debug ] && cycles=5
dmesg_mark
ok=0
for ((i = 0; i < cycles; i++)); do
	insmod "$ko" || break
	[ -r $params/family ] || break
	rmmod mrc || break
	[ ! -e /sys/module/mrc ] || break
	ok=$((ok + 1))
done
check_eq "$cycles load/unload cycles" $cycles "$ok"
check_eq "each cycle logged one load and one unload" "$cycles $cycles" \
	"$(dmesg_since | grep -c 'mrc: version .* loaded') $(dmesg_since | grep -c 'mrc: version .* unloaded')"

mrc_load
check "mrc is loaded again at the end" test -d /sys/module/mrc
tap_end
