#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mrc_ids.sh - connection ids are the secret of a connection: whoever
# knows both can forge the peer's RESET from a plain UDP socket bound to
# the peer's rail address.  So only CAP_NET_ADMIN sees them
# (Documentation/mrc/security.rst, "Local users").
#
# Two hosts (namespaces) ia (10.0.0.1) and ib (10.0.0.2), one rail.  A
# root-owned connection from ia to ib is held idle (its sender stopped)
# while, as nobody on ia (the peer host of the victim ib):
#   - mrcctl conn show / path show (text and JSON) and the raw genl dumps
#     (tools/net/ynl) show the connection, its state and counters, and no
#     id; root sees both ids in the same dump;
#   - a lookup by id (conn-get do, path-get with conn-id) is refused with
#     EPERM and the same message for an existing and a made-up id;
#   - the group "conns" (path-change-ntf, which carries ids) cannot be
#     joined, "events" can; mrcctl monitor says why;
#   - the RESET nobody can forge (the ids it could obtain: none, so it
#     guesses) is dropped by ib as no-conn, and the connection then
#     completes, every byte verified.
# Connections tie to processes: conn show gives each socket's owner (uid)
# and inode, the same as /proc/PID/fd of the process holding it: root's
# sender in ia; at the end, nobody's receiver in ia accepts a connection
# from root's sender in ib, whose orphan, once it is killed, has neither.
# Control (the test can fail): the same forging program run as root reads
# the real ids from the dump, and its RESET resets ib's connection
# (ECONNRESET at the application).  Before the ids were hidden, nobody's
# run was exactly this one.

. "$(dirname "$0")/lib.sh"

mrc_load
NA=ia
NB=ib
PORT=$(uapi_define MRC_UDP_PORT_DEFAULT)
HELPER=$MRC_TOP/selftests/mrc_ids.py
NOBODY="setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all"
tmp=$(mktemp -d)
chmod 755 "$tmp"
trap '_ns_cleanup; kill -9 $spid $rpid $npid $n2pid 2>/dev/null; rm -rf "$tmp"' EXIT
# MSGS messages of 8000 bytes (16 MB): more than the receiver's credit
# (about 7 MB) and the sender's buffer, so the sender is still sending
# when it is stopped, however late that happens.
MSGS=2000

drops() {	# drops NS REASON: that drop counter of mrc0 in NS
	ip netns exec "$1" cat "/sys/class/net/mrc0/mrc_drops/$2"
}

# start TAG SVCPORT: a receiver in ib (5 ms per message) and a sender in
# ia, the sender stopped (SIGSTOP) once connected; the receiver drains what
# was sent, then the connection idles, established, for as long as the
# test needs.  Sets spid, rpid.
start() {
	local tag=$1 svc=$2 i

	rm -f "$tmp/$tag.ready" "$tmp/$tag.conn"
	ip netns exec $NB mrcat -l -p "$svc" -m $MSGS -s 8000 -d 5000 -t 300 \
		-r "$tmp/$tag.ready" >"$tmp/$tag.recv" 2>&1 &
	rpid=$!
	for i in $(seq 200); do [ -e "$tmp/$tag.ready" ] && break; sleep 0.05; done
	ip netns exec $NA mrcat -c 10.0.0.2 -p "$svc" -m $MSGS -s 8000 -t 300 \
		-r "$tmp/$tag.conn" >"$tmp/$tag.send" 2>&1 &
	spid=$!
	for i in $(seq 400); do [ -e "$tmp/$tag.conn" ] && break; sleep 0.05; done
	kill -STOP $spid
	# established on both sides
	for i in $(seq 100); do
		[ "$(mrcctl -n $NB -j conn show | python3 -c 'import json,sys; print(sum(c.get("state") == "established" for c in json.load(sys.stdin)))')" = 1 ] &&
			break
		sleep 0.1
	done
}

# summary FILE: "msgs=N bytes=N hash=H" of an mrcat summary without errors
summary() {
	sed -n 's/.*\(msgs=[0-9]* bytes=[0-9]* hash=[0-9a-f]*\) errors=0.*/\1/p' "$1" | tail -1
}

check "pair $NA/$NB, one rail" mrc_pair $NA $NB 1
start held 7300
check_eq "a root-owned connection ia -> ib is established (ib's view)" "established" \
	"$(mrcctl -n $NB -j conn show | python3 -c 'import json,sys; print(" ".join(c["state"] for c in json.load(sys.stdin)))')"
ID=$(mrcctl -n $NA -j conn show | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["id"])')
PEER_ID=$(mrcctl -n $NA -j conn show | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["peer_id"])')
check_match "root sees both ids ($ID, $PEER_ID)" "^[0-9a-f]{8} [0-9a-f]{8}$" "$ID $PEER_ID"

# ---- owners and inodes (root's; nobody's at the end) -----------------------------
sock_inodes() {	# sock_inodes PID: the inodes of the sockets PID holds
	local l
	for l in $(readlink /proc/"$1"/fd/*); do
		[[ $l =~ ^socket:\[([0-9]+)\]$ ]] && echo "${BASH_REMATCH[1]}"
	done | sort -n | xargs
}
# the uid and inode of the connections in NS with an end at PORT
owners() {	# owners NS PORT
	mrcctl -n "$1" -j conn show | python3 -c 'import json,sys
port = int(sys.argv[1])
print("; ".join("uid=%s inode=%s" % (c.get("uid"), c.get("inode"))
                for c in json.load(sys.stdin)
                if port in (c["local"]["port"], c["peer"]["port"])))' "$2" 2>&1
}
SINO=$(sock_inodes $spid)
check_eq "ia: conn show -j gives root's sender ($spid) uid 0 and the inode /proc/$spid/fd has" \
	"uid=0 inode=$SINO" "$(owners $NA 7300)"

# ---- what nobody sees ------------------------------------------------------------
out=$(ip netns exec $NA $NOBODY mrcctl conn show 2>&1)
check_match "nobody: conn show says the id is hidden" \
	"^mrc0 \(id hidden: needs CAP_NET_ADMIN\): established 10\.0\.0\.1:[0-9]+ -> 10\.0\.0\.2:7300 planes 1 paths 32 ack-data host-delay uid 0 ino $SINO$" \
	"$(head -1 <<<"$out")"
check_eq "nobody: conn show has no id anywhere" "" "$(grep -iE "$ID|$PEER_ID|peer-id" <<<"$out")"
out=$(ip netns exec $NA $NOBODY mrcctl -j -s conn show 2>&1)
check_eq "nobody: conn show -j: no id or peer_id key, ids_hidden, counters present" \
	"established ids_hidden=True id=False peer_id=False tx_pkts=True" \
	"$(python3 -c 'import json,sys
for c in json.load(sys.stdin):
    print(c["state"], "ids_hidden=%s" % c.get("ids_hidden"), "id=%s" % ("id" in c),
          "peer_id=%s" % ("peer_id" in c), "tx_pkts=%s" % ("pkts" in c["tx"]))' <<<"$out" 2>&1)"
check_eq "nobody: the JSON holds neither id as a value" "" "$(grep -iE "$ID|$PEER_ID" <<<"$out")"
out=$(ip netns exec $NA $NOBODY mrcctl -j path show 2>&1)
check_eq "nobody: path show -j: 32 paths, none with conn_id, all conn_id_hidden" "32 0 32" \
	"$(python3 -c 'import json,sys
p = json.load(sys.stdin)
print(len(p), sum("conn_id" in x for x in p), sum(x.get("conn_id_hidden") is True for x in p))' <<<"$out" 2>&1)"
out=$(ip netns exec $NA $NOBODY mrcctl path show 2>&1)
check_eq "nobody: path show: 32 rows, CONN column 'hidden'" "32" \
	"$(grep -c '^hidden ' <<<"$out")"

MSG="Error: looking up a connection by id needs CAP_NET_ADMIN (ids are hidden from other users)."
MRC_RC=1 check_output "nobody: conn show id (existing) is refused" "$MSG" \
	ip netns exec $NA $NOBODY mrcctl conn show id "$ID"
MRC_RC=1 check_output "nobody: conn show id (made-up) gets the same answer" "$MSG" \
	ip netns exec $NA $NOBODY mrcctl conn show id 0badc0de
MRC_RC=1 check_output "nobody: path show conn (existing) is refused" "$MSG" \
	ip netns exec $NA $NOBODY mrcctl path show conn "$ID"
check_match "root: conn show id works" "^mrc0 $ID: established " \
	"$(mrcctl -n $NA conn show id "$ID" | head -1)"

# The kernel's own answers, through the generic YNL library.
if [ -n "$(linux_src)" ]; then
	out=$(ip netns exec $NA $NOBODY python3 "$HELPER" ynl "$ID" 2>&1)
	check_output "nobody, raw genl: dumps without ids, lookups refused alike, no 'conns' group" \
"conn-get dump: state established, id False, peer-id False, tx-msgs True
path-get dump: 32 paths, 0 with conn-id
conn-get id existing: error -1 \"looking up a connection by id needs CAP_NET_ADMIN (ids are hidden from other users)\"
conn-get id made-up: error -1 \"looking up a connection by id needs CAP_NET_ADMIN (ids are hidden from other users)\"
path-get conn-id existing: error -1 \"looking up a connection by id needs CAP_NET_ADMIN (ids are hidden from other users)\"
path-get conn-id made-up: error -1 \"looking up a connection by id needs CAP_NET_ADMIN (ids are hidden from other users)\"
join events: ok
join conns: Operation not permitted" echo "$out"
	out=$(ip netns exec $NA python3 "$HELPER" ynl "$ID" 2>&1)
	check_output "root, raw genl: the same dumps carry both ids, lookups answer" \
"conn-get dump: state established, id True, peer-id True, tx-msgs True
path-get dump: 32 paths, 32 with conn-id
conn-get id existing: answered (1)
conn-get id made-up: error -2 \"no connection with id $(printf %08x $((0x$ID ^ 0x5a5a5a5a)))\"
path-get conn-id existing: answered (32)
path-get conn-id made-up: error -2 \"no connection with id $(printf %08x $((0x$ID ^ 0x5a5a5a5a)))\"
join events: ok
join conns: ok" echo "$out"
else
	tap_skip "raw genl views" "linux-source-6.12 is not extracted (tools/net/ynl missing)"
fi
timeout 3 ip netns exec $NA $NOBODY mrcctl monitor >"$tmp/mon" 2>&1
check_output "nobody: mrcctl monitor explains the missing path-change events" \
	"Note: no path-change events: they carry connection ids and need CAP_NET_ADMIN." cat "$tmp/mon"

# ---- nobody's RESET --------------------------------------------------------------
nc0=$(drops $NB no-conn)
bs0=$(drops $NB bad-source)
out=$(ip netns exec $NA $NOBODY python3 "$HELPER" forge 10.0.0.1 10.0.0.2 "$PORT" 2>&1)
check_output "nobody: forges a RESET from ia's rail address with the ids it has (none)" \
	"ids 00000001 00000001 (guessed)
sent 16 bytes" echo "$out"
for _ in $(seq 50); do [ "$(drops $NB no-conn)" != "$nc0" ] && break; sleep 0.1; done
check_eq "ib dropped it as no-conn (+1), nothing as bad-source" "1 0" \
	"$(($(drops $NB no-conn) - nc0)) $(($(drops $NB bad-source) - bs0))"
check_eq "ib's connection is still established, its sender still stopped" "established T" \
	"$(mrcctl -n $NB -j conn show | python3 -c 'import json,sys; print(" ".join(c["state"] for c in json.load(sys.stdin)))') $(ps -o stat= -p $spid | cut -c1)"
kill -CONT $spid
wait $spid
wait $rpid
spid= rpid=
s=$(summary "$tmp/held.send")
r=$(summary "$tmp/held.recv")
if [ -n "$s" ] && [ "$s" = "$r" ] && [ "${s%% *}" = msgs=$MSGS ] &&
   [ "$(sed 's/.*bytes=\([0-9]*\).*/\1/' <<<"$s")" = $((MSGS * 8000)) ]; then
	tap_ok "the connection survived: $s identical at both ends"
else
	tap_fail "the connection survived" "sender:   $(cat "$tmp/held.send")" \
		"receiver: $(cat "$tmp/held.recv")"
fi

# ---- control: the same program as root -------------------------------------------
start ctl 7301
out=$(ip netns exec $NA python3 "$HELPER" forge 10.0.0.1 10.0.0.2 "$PORT" 2>&1)
ids=$(mrcctl -n $NA -j conn show | python3 -c 'import json,sys; c=json.load(sys.stdin)[0]; print(c["id"], c["peer_id"])')
check_output "control: root forges the same RESET with the real ids" \
	"ids $ids (from the dump)
sent 16 bytes" echo "$out"
for _ in $(seq 100); do kill -0 $rpid 2>/dev/null || break; sleep 0.1; done
check_match "control: ib's application gets ECONNRESET" "Connection reset by peer" \
	"$(cat "$tmp/ctl.recv")"
kill -9 $spid 2>/dev/null
wait $spid $rpid 2>/dev/null
spid= rpid=

# ---- nobody's connection: uid and inode --------------------------------------------
# nobody's receiver in ia; root's sender in ib connects to it through ib's
# mrc0, named by -i (bound to the device, then connect()), and is stopped.
mkdir -m 777 "$tmp/nobody"
ip netns exec $NA $NOBODY mrcat -l -p 7399 -m 0 -t 300 -r "$tmp/nobody/ready" \
	>"$tmp/nobody/recv" 2>&1 &
npid=$!
for _ in $(seq 200); do [ -e "$tmp/nobody/ready" ] && break; sleep 0.05; done
LINO=$(sock_inodes $npid)	# its listener's
ip netns exec $NB mrcat -c 10.0.0.1 -p 7399 -m 1000000 -t 300 -r "$tmp/nobody/conn" \
	-i "$(ip netns exec $NB cat /sys/class/net/mrc0/ifindex)" >"$tmp/nobody/send" 2>&1 &
n2pid=$!
for _ in $(seq 400); do [ -e "$tmp/nobody/conn" ] && break; sleep 0.05; done
kill -STOP $n2pid
for _ in $(seq 100); do	# accepted: the receiver's second socket
	AINO=$(sock_inodes $npid | tr ' ' '\n' | grep -vx "$LINO" | xargs)
	[ -n "$AINO" ] && break
	sleep 0.05
done
check_eq "ia: the connection nobody's receiver ($npid) accepted: uid 65534 and the inode /proc/$npid/fd has" \
	"uid=65534 inode=$AINO" "$(owners $NA 7399)"
check_match "ia: conn show (text, as nobody) ends its head with that uid and inode" \
	"^mrc0 \(id hidden: needs CAP_NET_ADMIN\): established 10\.0\.0\.1:7399 -> 10\.0\.0\.2:[0-9]+ planes 1 paths 32 ack-data host-delay uid 65534 ino $AINO$" \
	"$(ip netns exec $NA $NOBODY mrcctl conn show | grep ' uid 65534 ')"
check_eq "ib: root's sender ($n2pid, connected with -i): uid 0 and the inode /proc/$n2pid/fd has" \
	"uid=0 inode=$(sock_inodes $n2pid)" "$(owners $NB 7399)"
# An orphan has neither: the sender killed, its socket closed, while the
# receiver (stopped) does not close its end; the orphan waits for that
# for orphan_fin_timeout_ms or the dead-peer time (10 s each).
kill -STOP $npid
kill -9 $n2pid
wait $n2pid 2>/dev/null
check_eq "ib: the killed sender's connection is an orphan without uid and inode" \
	"orphan=True uid=False inode=False" \
	"$(mrcctl -n $NB -j conn show | python3 -c 'import json,sys
for c in json.load(sys.stdin):
    if c["peer"]["port"] == 7399:
        print("orphan=%s uid=%s inode=%s" % (c["orphan"], "uid" in c, "inode" in c))' 2>&1)"
kill -9 $npid
wait $npid 2>/dev/null
npid= n2pid=

rm -rf "$tmp"
tap_end
