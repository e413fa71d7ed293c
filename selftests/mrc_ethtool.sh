#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mrc_ethtool.sh - mrc as the operators' own tools show it.
#
#  - ethtool -i mrc0: driver mrc, the version mrcctl reports, no bus.
#  - ethtool -S mrc0 after a transfer over two planes and five malformed
#    datagrams: every counter equal to mrcctl -s (dev show, rail show) and
#    to sysfs, read after the traffic stopped (two ethtool reads around
#    the others must be equal); the names exactly the documented set;
#    rx_dropped the sum of the drop_* counters but duplicate and trimmed;
#    device = sum of its planes; planes without a rail 0; a rail moved to
#    another plane shows up there.
#  - ip -d link show (text and JSON, through tools/iproute2/link_mrc.so):
#    a device's udp-port, max-msg-size, evs-per-plane and spray, a rail's
#    plane and states, equal to what was configured, also after changes
#    by mrcctl; ip link add/set ... type mrc with settings, and a refusal
#    that changes nothing.

. "$(dirname "$0")/lib.sh"

NA=mrc-eta
NB=mrc-etb
PORT=7100
export IP_LIB_DIR=$MRC_TOP/tools/iproute2
PY=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; _ns_cleanup' EXIT

mrc_load || { tap_fail "load mrc.ko"; tap_end; }
if [ ! -e "$IP_LIB_DIR/link_mrc.so" ] || [ ! -e "$IP_LIB_DIR/link_mrc_slave.so" ]; then
	tap_fail "tools/iproute2/link_mrc.so is built (make tools)"
	tap_end
fi
mrc_pair $NA $NB 2 || { tap_fail "two hosts, two planes"; tap_end; }
A="ip netns exec $NA"

# The JSON of mrcctl and ip -j is saved here as the test goes and read by
# one python at the end (each python start costs seconds on the debug
# kernel); snap NAME CMD... saves CMD's output as $tmp/NAME.json.
snap() {
	local f=$1

	shift
	"$@" >"$tmp/$f.json" 2>&1
}

# ---- ethtool -i ---------------------------------------------------------------

$A ethtool -i mrc0 >"$tmp/ethi" 2>&1
mrcctl -n $NA -j dev show mrc0 >"$tmp/ver.json" 2>&1

# ---- traffic, then a snapshot of all three views --------------------------

ip netns exec $NB mrcat -l -p $PORT -m 40 -s 6000 -t 60 -r "$tmp/ready" >"$tmp/srv" 2>&1 &
srv=$!
for _ in $(seq 100); do [ -e "$tmp/ready" ] && break; sleep 0.1; done
$A mrcat -c 10.0.0.2 -p $PORT -m 40 -s 6000 -t 60 >"$tmp/cli" 2>&1
crc=$?
wait $srv
src=$?
check_match "40 messages of 6000 bytes went from A to B (exit $crc/$src)" \
	"^0 0 role=[a-z]+ msgs=40 bytes=240000 .*errors=0" "$crc $src $(tail -1 "$tmp/srv")"

# Malformed datagrams to A's mrc port: 3 on plane 0, 2 on plane 1 (short).
short0=$($A cat /sys/class/net/mrc0/mrc_drops/short)
# shellcheck disable=SC2016
ip netns exec $NB bash -c 'for a in 10.0.0.1 10.0.0.1 10.0.0.1 10.1.0.1 10.1.0.1; do
	printf x >/dev/udp/$a/$1; done' - "$($A cat /sys/class/net/mrc0/mrc/udp_port)"

# Traffic has stopped when neither host has a connection left: mrcctl
# lists every state, closing and TIME_WAIT included, and without one no
# mrc packet is sent; the malformed datagrams were received when A counts
# all five as short (other drops, stragglers of the transfer, may come
# with them).  At most 15 s.
conns() { echo "$(mrcctl -n $NA -j conn show)$(mrcctl -n $NB -j conn show)"; }
for _ in $(seq 150); do
	[ "$(conns)" = "[][]" ] &&
		[ "$($A cat /sys/class/net/mrc0/mrc_drops/short)" -ge $((short0 + 5)) ] && break
	sleep 0.1
done
check_eq "the transfer's connections are gone at both ends (mrcctl conn show)" "[][]" "$(conns)"

$A ethtool -S mrc0 >"$tmp/eth1"
mrcctl -n $NA -j -s dev show mrc0 >"$tmp/dev.json"
mrcctl -n $NA -j -s rail show a0 >"$tmp/a0.json"
mrcctl -n $NA -j -s rail show a1 >"$tmp/a1.json"
$A sh -c 'cd /sys/class/net && grep -r . mrc0/mrc mrc0/mrc_drops a0/mrc_rail a1/mrc_rail' \
	>"$tmp/sysfs" 2>&1
$A ethtool -S mrc0 >"$tmp/eth2"
check_output "traffic had stopped: two ethtool -S reads around the others agree" \
	"$(cat "$tmp/eth1")" cat "$tmp/eth2"

# compare.py: desc, expected, actual per check, separated by US (0x1f:
# values hold '|'); ethtool's names are the sysfs/mrcctl names with '-'
# as '_'; planes 2.. have no rail.
cat >"$tmp/compare.py" <<'PY'
import json, re, sys
d = sys.argv[1]
eth = {}
names = []
for line in open(d + "/eth1"):
    if ":" in line and not line.startswith("NIC"):
        k, v = line.split(":")
        names.append(k.strip())
        eth[k.strip()] = int(v)
sysfs = {}
for line in open(d + "/sysfs"):
    k, v = line.strip().split(":", 1)
    sysfs[k] = v
dev = json.load(open(d + "/dev.json"))[0]
rail = {p: json.load(open("%s/a%d.json" % (d, p)))[0] for p in (0, 1)}
F = ["tx_packets", "tx_bytes", "rx_packets", "rx_bytes", "tx_dropped", "rx_dropped"]
EV = {"ev_to_good": "to_good", "ev_to_skip": "to_skip", "ev_to_bad": "to_bad",
      "ev_to_denied": "to_denied", "ev_replaced": "replaced"}
reasons = sorted(k.split("/")[-1] for k in sysfs if k.startswith("mrc0/mrc_drops/"))
want = F + ["drop_" + r.replace("-", "_") for r in reasons] + list(EV) + \
    ["plane%d_%s" % (p, f) for p in range(32) for f in F]
out = []
def chk(desc, exp, act):
    out.append("\x1f".join((desc, exp, act)))
chk("ethtool -S: %d names, each once, exactly the documented set" % len(want),
    " ".join(sorted(want)), " ".join(sorted(names)) + (" (dup)" if len(set(names)) != len(names) else ""))
chk("ethtool -S: the device's traffic first, in sysfs order", " ".join(F), " ".join(names[:6]))
bad = []
for f in F:
    a = (sysfs["mrc0/mrc/" + f], str(dev["stats"][f]), str(eth.get(f)))
    if len(set(a)) != 1:
        bad.append("%s sysfs/mrcctl/ethtool %s" % (f, "/".join(a)))
chk("device counters: ethtool -S = mrcctl -s dev show = sysfs mrc/ (%s)" %
    " ".join("%s=%s" % (f, eth.get(f)) for f in F), "", "; ".join(bad))
bad = []
drops = dev["stats"].get("drops", {})
for r in reasons:
    a = (sysfs["mrc0/mrc_drops/" + r], str(drops.get(r, 0)), str(eth.get("drop_" + r.replace("-", "_"))))
    if len(set(a)) != 1:
        bad.append("%s sysfs/mrcctl/ethtool %s" % (r, "/".join(a)))
chk("%d drop reasons: ethtool -S = mrcctl -s dev show = sysfs mrc_drops/" % len(reasons),
    "", "; ".join(bad))
bad = []
for e, j in EV.items():
    a = (sysfs["mrc0/mrc/" + e], str(dev["ev_transitions"][j]), str(eth.get(e)))
    if len(set(a)) != 1:
        bad.append("%s sysfs/mrcctl/ethtool %s" % (e, "/".join(a)))
chk("rx_dropped = the sum of the drop_* counters but duplicate and trimmed (protocol events)",
    str(eth["rx_dropped"]),
    str(sum(v for k, v in eth.items() if k.startswith("drop_") and
            k not in ("drop_duplicate", "drop_trimmed"))))
chk("path changes: ethtool -S = mrcctl dev show = sysfs mrc/ev_*", "", "; ".join(bad))
for p in (0, 1):
    bad = []
    for f in F:
        a = (sysfs["a%d/mrc_rail/%s" % (p, f)], str(rail[p]["stats"][f]), str(eth.get("plane%d_%s" % (p, f))))
        if len(set(a)) != 1:
            bad.append("%s sysfs/mrcctl/ethtool %s" % (f, "/".join(a)))
    chk("plane %d (rail a%d): ethtool -S plane%d_* = mrcctl -s rail show = sysfs mrc_rail/ (tx %s rx %s)" %
        (p, p, p, eth.get("plane%d_tx_packets" % p), eth.get("plane%d_rx_packets" % p)), "", "; ".join(bad))
# DATA out, ACKs in, on each plane: each plane sent at least 5 % of A's
# packets (the sprayer weighs planes by their windows; bursts on one
# plane leave the other as few as 11 of 206), and got some ACKs back
# (coalesced: how many is not fixed; a plane once had 8)
tx = eth["plane0_tx_packets"] + eth["plane1_tx_packets"]
chk("both planes carried data both ways (tx %d/%d, rx %d/%d)" %
    (eth["plane0_tx_packets"], eth["plane1_tx_packets"], eth["plane0_rx_packets"], eth["plane1_rx_packets"]),
    "True", str(all(20 * eth["plane%d_tx_packets" % p] >= tx and eth["plane%d_rx_packets" % p] > 0
                    for p in (0, 1))))
chk("planes 2..31 (no rail) read 0", "0",
    str(sum(eth["plane%d_%s" % (p, f)] for p in range(2, 32) for f in F)))
chk("device tx/rx packets and bytes = sum of its two planes'",
    " ".join(str(eth[f]) for f in F[:4]),
    " ".join(str(eth["plane0_" + f] + eth["plane1_" + f]) for f in F[:4]))
chk("5 short datagrams: drop_short 5, rail a0 3, rail a1 2", "5 3 2",
    "%s %s %s" % (eth["drop_short"], sysfs["a0/mrc_rail/drops/short"], sysfs["a1/mrc_rail/drops/short"]))

# ethtool -i against mrcctl's version
ver = json.load(open(d + "/ver.json"))[0]["version"]
ethi = dict(l.split(":", 1) for l in open(d + "/ethi") if ":" in l)
chk("ethtool -i: driver mrc, mrcctl's version (%s), no bus" % ver, "mrc|%s|" % ver,
    "|".join(ethi.get(k, "?").strip() for k in ("driver", "version", "bus-info")))
# (both read MRC_VERSION: it must be a release or git describe, as modinfo's)
chk("the version is a release or git describe (%s)" % ver, "yes",
    "yes" if re.match(r"^[0-9]+\.[0-9]+\.[0-9]+(-[0-9]+-g[0-9a-f]+|-g[0-9a-f]+)?(-dirty)?$", ver)
    else "no")

def ipj(name, slave=False):
    try:
        li = json.load(open("%s/%s.json" % (d, name)))[0]["linkinfo"]
    except Exception as e:
        return "unreadable: %s: %s" % (e, open("%s/%s.json" % (d, name)).read()[:200])
    p = "info_slave_" if slave else "info_"
    return "%s %s" % (li.get(p + "kind"), " ".join("%s=%s" % kv for kv in li.get(p + "data", {}).items()))
def devj(name):
    try:
        x = json.load(open("%s/%s.json" % (d, name)))[0]
    except Exception as e:
        return "unreadable: %s: %s" % (e, open("%s/%s.json" % (d, name)).read()[:200])
    return "mrc udp_port=%(udp_port)s max_msg_size=%(max_msg_size)s evs_per_plane=%(evs_per_plane)s spray=%(spray)s" % x
def railj(name):
    x = json.load(open("%s/%s.json" % (d, name)))[0]
    return "%(ifname)s %(plane)s %(admin_state)s %(oper_state)s" % x
chk("ip -d -j link show mrc0 = mrcctl dev show", devj("ver"), ipj("ip0"))
chk("after mrcctl dev set: ip -d -j link show mrc0",
    "mrc udp_port=4796 max_msg_size=70000 evs_per_plane=3 spray=rr", ipj("ip1"))
chk("mrcctl dev show mrc1: the settings ip link add gave",
    "mrc udp_port=5001 max_msg_size=4096 evs_per_plane=2 spray=rr", devj("m1a"))
chk("after ip link set mrc1 type mrc udp-port 5002 spray mrc: ip -d -j link show mrc1",
    "mrc udp_port=5002 max_msg_size=4096 evs_per_plane=2 spray=mrc", ipj("ipm1"))
chk("after the refused ip link set: nothing changed (mrcctl: max-msg-size still 4096)",
    "mrc udp_port=5002 max_msg_size=4096 evs_per_plane=2 spray=mrc", devj("m1b"))
chk("ip -d -j link show a0: slave kind mrc, plane 0, up, up",
    "mrc plane=0 admin_state=up oper_state=up", ipj("ipa0", True))
chk("ip -d -j link show a1 (moved by mrcctl): plane 5",
    "mrc plane=5 admin_state=up oper_state=up", ipj("ipa1", True))
chk("mrcctl rail show agrees with ip -d link (a1 state down, a0 link down)",
    "a1 5 down admin-down|a0 0 up dev-down", railj("ra1") + "|" + railj("ra0"))
print("\n".join(out))
PY

# A rail moved to another plane: its counters follow it.
mrcctl -n $NA rail set a1 plane 5
out=$($A ethtool -S mrc0 | awk '$1 ~ /^plane[15]_tx_packets:$/ { printf "%s%s", s, $2; s = " " }')
check_eq "rail a1 moved to plane 5: ethtool -S plane1_tx_packets 0, plane5_tx_packets = its sysfs tx_packets" \
	"0 $($A cat /sys/class/net/a1/mrc_rail/tx_packets)" "$out"

# ---- ip -d link: a device ----------------------------------------------------

# ipt NS DEV: the mrc part of ip -d link show's text
ipt() {
	ip -n "$1" -d link show dev "$2" | grep -oE '(mrc|mrc_slave) (udp-port|plane) .*' |
		sed -E 's/ (addrgenmode|numtxqueues) .*//; s/ *$//'
}

snap ip0 ip -n $NA -d -j link show dev mrc0
mrcctl -n $NA dev set mrc0 evs-per-plane 3 spray rr max-msg-size 70000
snap ip1 ip -n $NA -d -j link show dev mrc0
check_output "after mrcctl dev set: ip -d link show mrc0" \
	"mrc udp-port 4796 max-msg-size 70000 evs-per-plane 3 spray rr" ipt $NA mrc0

check "ip link add mrc1 type mrc with every setting" \
	ip -n $NA link add mrc1 type mrc udp-port 5001 max-msg-size 4096 evs-per-plane 2 spray rr
snap m1a mrcctl -n $NA -j dev show mrc1
check "ip link set mrc1 type mrc udp-port 5002 spray mrc" \
	ip -n $NA link set dev mrc1 type mrc udp-port 5002 spray mrc
check_eq "sysfs shows the change" "5002 mrc" \
	"$($A cat /sys/class/net/mrc1/mrc/udp_port /sys/class/net/mrc1/mrc/spray | paste -sd ' ')"
snap ipm1 ip -n $NA -d -j link show dev mrc1
out=$(ip -n $NA link set dev mrc1 type mrc max-msg-size 100 evs-per-plane 0 2>&1)
check_eq "ip link set with one bad value: refused with the kernel's reason" \
	"Error: integer out of range." "$out"
# (The same value through generic netlink, same errno and extack:
# mrc_tunables.py; mrcctl refuses it before asking.)
snap m1b mrcctl -n $NA -j dev show mrc1
out=$(ip -n $NA link add mrc2 type mrc spray fastest 2>&1; ip -n $NA link show dev mrc2 2>&1 | head -1)
check_eq "ip link add with an unknown spray policy: refused, no device" \
	"Error: unknown spray policy \"fastest\" (mrc, rr).|Device \"mrc2\" does not exist." \
	"$(echo "$out" | paste -sd '|')"

# ---- ip -d link: a rail -------------------------------------------------------

snap ipa0 ip -n $NA -d -j link show dev a0
snap ipa1 ip -n $NA -d -j link show dev a1
mrcctl -n $NA rail set a1 state down
$A ip link set dev a0 down
check_eq "after mrcctl rail set a1 state down and a0 down: ip -d link show a1, a0" \
	"mrc_slave plane 5 admin-state down oper-state admin-down|mrc_slave plane 0 admin-state up oper-state dev-down" \
	"$(ipt $NA a1)|$(ipt $NA a0)"
snap ra1 mrcctl -n $NA -j rail show a1
snap ra0 mrcctl -n $NA -j rail show a0

# ---- every JSON comparison --------------------------------------------------

while IFS=$'\x1f' read -r desc exp act; do
	check_eq "$desc" "$exp" "$act"
done < <($PY "$tmp/compare.py" "$tmp" 2>&1 || printf 'compare.py failed\x1f0\x1f1\n')

tap_end
