#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mrc_trace.sh - every mrc tracepoint, read through tracefs while traffic
# flows, against the counters operators read.
#
# Every event under /sys/kernel/tracing/events/mrc is enabled; one
# connection A -> B over two planes (veth, A's a1 delayed 20 ms, 5 % of
# A's packets on a0 duplicated) sends for 6 s while A's rail a1 goes down
# and up (failover), plane 1 then drops everything A sends for 1.5 s
# (losses, retransmissions, failed probes, EV replacement) and plane 0 too
# for the last 0.7 s of that (RTO); longer on the debug kernel, with
# bigger messages; then both close, and one malformed
# (1-byte) datagram goes to A's mrc port.  Asserted:
#  - each of the 8 events fired (the scenario makes each one happen), and
#    the ring lost none (so counts are exact);
#  - mrc_drop, by reason, equals ethtool -S drop_<reason> of A + B for
#    every reason; B counted duplicates; rx_dropped is the sum of the
#    drop_<reason> counters but duplicate and trimmed (protocol events);
#  - the malformed datagram: one mrc_drop "short" (type none, conn 0) and
#    one skb:kfree_skb with reason PKT_TOO_SMALL, freed in mrc.ko (its
#    location on 6.12; on 6.1, which prints a pointer, its stack's first
#    frame past kfree_skb_reason(), among mrc's symbols in /proc/kallsyms);
#  - mrc_conn_state: exactly two connections, the client closed ->
#    req-sent -> established -> time-wait -> closed, the server's child
#    closed -> req-rcvd -> established -> time-wait -> closed, err 0;
#  - mrc_cwnd: only those two connections, planes 0 and 1 only (the rails'
#    planes) and both, each a change, growth among the causes;
#    mrc_failover on plane 1 only.

. "$(dirname "$0")/lib.sh"

NA=mrc-tra
NB=mrc-trb
PORT=7200
T=/sys/kernel/tracing
PY=/usr/bin/python3
tmp=$(mktemp -d)

buf0=$(cat $T/buffer_size_kb 2>/dev/null)
tr_off() {
	[ -e $T/options/stacktrace ] && echo 0 >$T/options/stacktrace
	[ -d $T/events/mrc ] && echo 0 >$T/events/mrc/enable
	[ -d $T/events/skb/kfree_skb ] && echo 0 >$T/events/skb/kfree_skb/enable
}
# At exit, whatever happened: tracing off, the ring's size as it was
# (resizing empties it: only here), no transfer left running.
tr_exit() {
	tr_off
	[ -n "${cli:-}" ] && kill -9 "$cli" 2>/dev/null
	[ -n "${srv:-}" ] && kill -9 "$srv" 2>/dev/null
	[ -n "$buf0" ] && echo "${buf0%% *}" >$T/buffer_size_kb 2>/dev/null
}
trap 'tr_exit; rm -rf "$tmp"; _ns_cleanup' EXIT

mrc_load || { tap_fail "load mrc.ko"; tap_end; }
[ -d $T/events ] || mount -t tracefs nodev $T 2>/dev/null
if [ ! -d $T/events/mrc ] || [ ! -d $T/events/skb/kfree_skb ]; then
	tap_fail "tracefs has events/mrc and events/skb/kfree_skb"
	tap_end
fi
mrc_pair $NA $NB 2 || { tap_fail "two hosts, two planes"; tap_end; }
A="ip netns exec $NA"
B="ip netns exec $NB"
$A tc qdisc add dev a0 root netem duplicate 5%
$A tc qdisc add dev a1 root netem delay 20ms

# ---- tracing on -------------------------------------------------------------

tr_off
echo 4096 >$T/buffer_size_kb
echo >$T/trace
events=$(cd $T/events/mrc && echo mrc_*)
check_eq "tracefs lists the 8 mrc events" \
	"mrc_conn_state mrc_cwnd mrc_drop mrc_ev_replace mrc_ev_state mrc_failover mrc_retransmit mrc_rto" \
	"$events"
for e in $events; do
	echo 1 >"$T/events/mrc/$e/enable"
done

# ---- traffic, failures, close -----------------------------------------------

# The debug kernel (KASAN, lockdep under TCG) is 10-20x slower: its
# timers and RTTs too.  Bigger messages (the windows must fill to grow).
# Each fault lasts until the event it must cause is in the ring (at most
# 30 s), and the sender stops (SIGUSR1) when the faults are over.
if [ "${MRC_KERNEL:-stock}" = debug ]; then
	size=60000
else
	size=6000
fi
# until_event PATTERN: wait until a line of the ring matches (30 s at most)
until_event() {
	local i

	for i in $(seq 150); do
		grep -qE "$1" $T/trace && return 0
		sleep 0.2
	done
	return 1
}
$B mrcat -l -p $PORT -m 0 -s $size -t 90 -r "$tmp/ready" >"$tmp/srv" 2>&1 &
srv=$!
for _ in $(seq 100); do [ -e "$tmp/ready" ] && break; sleep 0.1; done
$A mrcat -c 10.0.0.2 -p $PORT -D 150 -d 3000 -s $size -t 180 -r "$tmp/conn" >"$tmp/cli" 2>&1 &
cli=$!
for _ in $(seq 100); do [ -e "$tmp/conn" ] && break; sleep 0.1; done
sleep 1
t0=$SECONDS
$A ip link set dev a1 down		# failover: plane 1's packets in flight move
until_event " mrc_failover: "
$A ip link set dev a1 up
sleep 1
$A tc qdisc change dev a1 root netem delay 20ms loss 100%	# plane 1 silent
until_event " mrc_ev_replace: .*plane=1"
$A tc qdisc change dev a0 root netem duplicate 5% loss 100%	# both dark
until_event " mrc_rto: "
$A tc qdisc change dev a0 root netem duplicate 5%
$A tc qdisc change dev a1 root netem delay 20ms
sleep 1
kill -USR1 $cli
dur=$((SECONDS - t0 + 2))
wait $cli
crc=$?
wait $srv
src=$?
check_match "A sent to B for $dur s, every byte verified, both closed (exit $crc/$src)" \
	"^0 0 role=[a-z]+ msgs=[1-9][0-9]* bytes=[1-9][0-9]* .*errors=0" "$crc $src $(tail -1 "$tmp/srv")"

# The connections end (TIME_WAIT) and the traffic stops: at most 10 s.
for _ in $(seq 50); do
	[ -z "$(mrcctl -n $NA conn show)$(mrcctl -n $NB conn show)" ] && break
	sleep 0.2
done
check_eq "both connections are gone" "" "$(mrcctl -n $NA conn show)$(mrcctl -n $NB conn show)"

# One malformed datagram (1 byte: shorter than any header) to A's port,
# with skb:kfree_skb on: the drop monitors' view of it.
# 6.1 prints the event's location as a (hashed) pointer, 6.12 as a
# symbol: the events' stacks name the function (options/stacktrace), looked
# up among mrc's symbols.
grep '\[mrc\]$' /proc/kallsyms >"$tmp/kallsyms"
echo 1 >$T/options/stacktrace
echo 1 >$T/events/skb/kfree_skb/enable
# shellcheck disable=SC2016
$B bash -c 'printf x >/dev/udp/10.0.0.1/$1' - "$($A cat /sys/class/net/mrc0/mrc/udp_port)"
for _ in $(seq 20); do
	[ "$($A cat /sys/class/net/mrc0/mrc_drops/short)" = 1 ] && break
	sleep 0.1
done
# Counters and events agree only once no packet is dropped any more: the
# drop counters read before and after tracing stops must be the same (a
# straggler between them: tracing on again, and another try).  Only the
# drop_* lines: other counters move with the rails' other traffic.
for _ in $(seq 20); do
	$A ethtool -S mrc0 >"$tmp/ethA"
	$B ethtool -S mrc0 >"$tmp/ethB"
	tr_off
	[ "$($A ethtool -S mrc0 | grep drop_)" = "$(grep drop_ "$tmp/ethA")" ] &&
		[ "$($B ethtool -S mrc0 | grep drop_)" = "$(grep drop_ "$tmp/ethB")" ] && break
	for e in $events; do
		echo 1 >"$T/events/mrc/$e/enable"
	done
	sleep 0.5
done
echo 0 >$T/options/stacktrace

cat $T/trace >"$tmp/trace"
cat $T/per_cpu/cpu*/stats >"$tmp/stats"
# The trace, for a failure's reader, with the VM's other logs.
[ -d "${MRC_RESULTS:-}" ] && cp "$tmp/trace" "$MRC_RESULTS/mrc_trace.trace"
echo >$T/trace

cat >"$tmp/check.py" <<'PY'
import collections, re, sys
d = sys.argv[1]
out = []
def chk(desc, exp, act):
    out.append("\x1f".join((desc, str(exp), str(act))))
ev = collections.defaultdict(list)	# event -> [fields]
kfree = []	# [line, [stack frames]]
last = None
for line in open(d + "/trace"):
    m = re.search(r" (mrc_\w+): (.*)$", line)
    if m:
        ev[m.group(1)].append(m.group(2))
        last = None
    elif " kfree_skb: " in line:
        kfree.append([line.strip(), []])
        last = kfree[-1]
    elif line.startswith(" => ") and last is not None:
        last[1].append(line[4:].strip())
overrun = sum(int(x) for x in re.findall(r"^overrun: (\d+)", open(d + "/stats").read(), re.M))
names = ["mrc_conn_state", "mrc_cwnd", "mrc_drop", "mrc_ev_replace", "mrc_ev_state",
         "mrc_failover", "mrc_retransmit", "mrc_rto"]
chk("the trace ring lost no event (overrun 0)", 0, overrun)
chk("every mrc event fired",
    " ".join(n + "=yes" for n in names),
    " ".join("%s=%s" % (n, "yes" if ev[n] else "no") for n in names))
print("# events: " + " ".join("%s=%d" % (n, len(ev[n])) for n in names), file=sys.stderr)

def eth(f):
    r = {}
    for line in open(f):
        if ":" in line and not line.startswith("NIC"):
            k, v = line.split(":")
            r[k.strip()] = int(v)
    return r
ea, eb = eth(d + "/ethA"), eth(d + "/ethB")
reasons = sorted(k[5:].replace("_", "-") for k in ea if k.startswith("drop_"))
drops = collections.Counter()
for f in ev["mrc_drop"]:
    drops[re.search(r"reason=(\S+)", f).group(1)] += 1
cnt = {r: ea["drop_" + r.replace("-", "_")] + eb["drop_" + r.replace("-", "_")] for r in reasons}
chk("mrc_drop by reason = ethtool -S drop_<reason> of A + B, every reason (%d events)" %
    len(ev["mrc_drop"]),
    " ".join("%s=%d" % (r, cnt[r]) for r in reasons),
    " ".join("%s=%d" % (r, drops.get(r, 0)) for r in reasons) +
    "".join(" unknown:%s=%d" % (r, n) for r, n in drops.items() if r not in cnt))
chk("B received duplicates (netem duplicate on a0): drop_duplicate > 0", True, eb["drop_duplicate"] > 0)
for n, e in (("A", ea), ("B", eb)):
    s = sum(v for k, v in e.items() if k.startswith("drop_") and k not in ("drop_duplicate", "drop_trimmed"))
    chk("%s: rx_dropped = the drop_<reason> counters but duplicate and trimmed" % n, s, e["rx_dropped"])
short = [f for f in ev["mrc_drop"] if "reason=short " in f]
chk("the malformed datagram: one mrc_drop short, no type, no conn, on A's rail a0",
    "1 type=none conn=00000000", "%d %s" % (len(short), " ".join(
        re.search(r"(type=\S+ conn=\S+)", f).group(1) for f in short)))
syms = set(line.split()[2] for line in open(d + "/kallsyms"))
def where(loc, stack):
    """The mrc function that freed it: its location (%pS, 6.12), or the
    first frame of its stack past the freeing functions (6.1)."""
    if loc.endswith("[mrc]"):
        return loc.split("+")[0]
    for f in stack:
        n = f.split("+")[0].split()[0]
        if re.match(r"(__)?(kfree_skb|sk_skb_reason_drop|trace|ftrace|__traceiter)", n):
            continue
        return n if n in syms else "not mrc: " + n
    return "not mrc: " + loc
too_small = []
for line, stack in kfree:
    m = re.search(r"location=(.*) reason: (\S+)$", line)
    if m and m.group(2) == "PKT_TOO_SMALL":
        too_small.append(where(m.group(1), stack))
chk("... and one skb:kfree_skb with reason PKT_TOO_SMALL, at an mrc location (%s)" %
    " ".join(too_small), "1 mrc", "%d %s" % (len(too_small),
    "mrc" if too_small and all(not w.startswith("not mrc") for w in too_small) else "not mrc"))

conns = collections.OrderedDict()
for f in ev["mrc_conn_state"]:
    m = re.match(r"conn=(\w+) (\S+) -> (\S+) err=(-?\d+)", f)
    conns.setdefault(m.group(1), []).append("%s>%s/%s" % (m.group(2), m.group(3), m.group(4)))
seqs = sorted(" ".join(s) for s in conns.values())
chk("mrc_conn_state: two connections, each through its states in order",
    "closed>req-rcvd/0 req-rcvd>established/0 established>time-wait/0 time-wait>closed/0 | "
    "closed>req-sent/0 req-sent>established/0 established>time-wait/0 time-wait>closed/0",
    " | ".join(seqs))
planes = collections.Counter()
causes = collections.Counter()
bad = []
for f in ev["mrc_cwnd"]:
    m = re.match(r"conn=(\w+) plane=(\d+) cwnd (\d+) -> (\d+) cause=(\S+)", f)
    if not m or m.group(1) not in conns or m.group(3) == m.group(4) or \
            m.group(5) not in ("ecn", "delay", "growth", "bound"):
        bad.append(f)
        continue
    planes[m.group(2)] += 1
    causes[m.group(5)] += 1
print("# cwnd causes: %s" % dict(causes), file=sys.stderr)
chk("mrc_cwnd: every event a change of one of the two connections, with a known cause",
    "", "; ".join(bad[:3]))
chk("mrc_cwnd: the planes are the rails' planes, 0 and 1", "0 1", " ".join(sorted(planes)))
chk("mrc_cwnd: the windows grew", True, causes["growth"] > 0)
fo = sorted(set(re.search(r"plane=(\d+)", f).group(1) for f in ev["mrc_failover"]))
chk("mrc_failover: plane 1 (rail a1 went down)", "1", " ".join(fo))
rp = set(re.search(r"plane=(\d+)", f).group(1) for f in ev["mrc_ev_replace"])
chk("mrc_ev_replace: on plane 1 (the silent one longest), only on planes 0 and 1",
    "True True", "%s %s" % ("1" in rp, rp <= {"0", "1"}))
print("\n".join(out))
PY

while IFS=$'\x1f' read -r desc exp act; do
	check_eq "$desc" "$exp" "$act"
done < <($PY "$tmp/check.py" "$tmp" 2>"$tmp/diag" || printf 'check.py failed\x1f0\x1f1\n')
sed 's/^# //; s/^/# /' "$tmp/diag"

tap_end
