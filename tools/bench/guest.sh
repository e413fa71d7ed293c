#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/bench/guest.sh - runs inside the VM (tools/bench/run.sh): every
# metric of make bench, every peer, in one boot.  Raw numbers go to
# $MRC_RESULTS/raw/raw.jsonl (one JSON object per measurement) plus
# per-run files (receiver timelines *.tl, P3 round lines *.ct); the host
# turns them into the report (tools/bench/report.py).
#
# Environment: BENCH_QUICK=1 (fewer, shorter runs), BENCH_ONLY="p1 p2 ..."
# (a subset: calib p1 p2 p3 p4 p5 p6 ab p7 rxe), BENCH_AB (module parameters
# to A/B: "name=v1,v2 ..."), BENCH_RATE (Mbit/s per rail, default 50),
# BENCH_MTU (of the 4-plane fabric's links, default 9000), BENCH_DELAY_MS
# (per hop), BENCH_RUNS, BENCH_PAIRS (P3 host pairs),
# BENCH_P3_RATE (P3 host links, Mbit/s), BENCH_P3_ROUNDS, BENCH_P3_BYTES (per
# flow and round), BENCH_PARAMS (module parameters for the whole run,
# "name=value ...": what ab cannot A/B, P1-P4, measured in two runs).

. "$MRC_TOP/selftests/lib.sh"
set -u
mrc_load || exit 1
for kv in ${BENCH_PARAMS:-}; do
	echo "${kv#*=}" >"/sys/module/mrc/parameters/${kv%%=*}" || exit 1
	echo "# bench: ${kv%%=*}=$(cat "/sys/module/mrc/parameters/${kv%%=*}")" >&2
done

B=$MRC_TOP/tools/bench
PP=$B/mrcpp
OUT=$MRC_RESULTS/raw
mkdir -p "$OUT"
RAW=$OUT/raw.jsonl
: >"$RAW"
tmp=$(mktemp -d)
QUICK=${BENCH_QUICK:-0}
ONLY=" ${BENCH_ONLY:-p1 p2 p4 p3 p5 p6 ab p7 rxe} "
# Module parameters A/B-measured by "ab": name=value1,value2 ...
AB=${BENCH_AB:-lazy_fill_ack=0,1 lazy_end_ack=0,1 rx_coalesce=0,1 lazy_rto=0,1 tx_chunk_segs=1,16 rx_msg_spare=0,1}
RATE=${BENCH_RATE:-50}
MTU=${BENCH_MTU:-9000}
DELAY=${BENCH_DELAY_MS:-1}
if [ "$QUICK" = 1 ]; then
	RUNS=${BENCH_RUNS:-1} SECS=3 FSECS=4 OUTAGE=1000 FAILAT=1800 PAIRS=${BENCH_PAIRS:-4}
	P3ROUNDS=${BENCH_P3_ROUNDS:-10} PPN=1000 IDLE=200 P5SECS=2
else
	RUNS=${BENCH_RUNS:-3} SECS=6 FSECS=9 OUTAGE=3000 FAILAT=3000 PAIRS=${BENCH_PAIRS:-4}
	P3ROUNDS=${BENCH_P3_ROUNDS:-20} PPN=1000 IDLE=200 P5SECS=4
fi
port=6000

# ---- helpers ---------------------------------------------------------------------

log() { echo "# bench [$(( ($(now_ms) - ${tstart:-0}) / 1000 ))s]: $*" >&2; }
want() { [[ $ONLY == *" $1 "* ]]; }

# rec METRIC PEER RUN KEY=VALUE...: one JSON line of raw numbers.
rec() {
	local m=$1 p=$2 r=$3 kv k v line
	shift 3
	line="{\"metric\": \"$m\", \"peer\": \"$p\", \"run\": $r"
	for kv in "$@"; do
		k=${kv%%=*} v=${kv#*=}
		if [[ $v =~ ^-?[0-9]+(\.[0-9]+)?$ ]]; then
			line+=", \"$k\": $v"
		else
			v=${v//\\/\\\\}; v=${v//\"/\\\"}; v=${v//$'\n'/ }
			line+=", \"$k\": \"$v\""
		fi
	done
	echo "$line}" >>"$RAW"
}

mkfifo "$tmp/nap"
exec {NAPFD}<>"$tmp/nap"
nap() { read -r -t "$1" -u "$NAPFD"; return 0; }
now_ms() { echo $((${EPOCHREALTIME/./} / 1000)); }
at() {
	local d=$((T0 + $1 - ${EPOCHREALTIME/./} / 1000)) ms
	[ $d -gt 0 ] || return 0
	printf -v ms %03d $((d % 1000))
	nap "$((d / 1000)).$ms"
}
waitfile() {
	local i
	for ((i = 0; i < 400; i++)); do [ -e "$1" ] && return 0; nap 0.025; done
	return 1
}

# kv FILE KEY: value of KEY=... in the last line of FILE.
kv() { tail -1 "$1" 2>/dev/null | tr ' ' '\n' | sed -n "s/^$2=//p"; }

# shape NS DEV RATE_MBIT DELAY_MS [netem extra...]: per-packet shaping
# (mrc_shape of lib.sh) at the fabric's MTU; NS is for the reader (the
# caller pipes the lines to "tc -n NS -batch").
shape() {
	mrc_shape "$2" "$3" "$4" "$MTU" "${@:5}"
}
# netem_change NS DEV RATE DELAY [extra]: change the netem of a shaped link.
netem_change() {
	local ns=$1 dev=$2 rate=$3 delay=$4 r=()
	shift 4
	[ "$rate" = 0 ] || r=(rate "${rate}mbit")
	tc -n "$ns" qdisc change dev "$dev" parent 1:1 handle 10: netem "${r[@]}" \
		delay "${delay}ms" limit 400 "$@"
}

cpu_busy() {	# jiffies busy (all but idle+iowait) and softirq, all CPUs
	awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8, $8 }' /proc/stat
}
# Events per GB (P5) and per round trip (P6): system-wide tracepoint counts
# of "perf stat" (counting, not sampling: exact under TCG, where sampled
# profiles land in the idle loop).  ev_NAME=COUNT for each of EVENTS.
# perf starts with its counters disabled; the client (mrcpp -W $EVW)
# enables them for the measured part only, so process start and connect
# are not counted.
EVENTS="packets=net:net_dev_xmit kmalloc=kmem:kmalloc cache_alloc=kmem:kmem_cache_alloc
	page_alloc=kmem:mm_page_alloc timer=timer:timer_start hrtimer=timer:hrtimer_start
	switch=sched:sched_switch softirq=irq:softirq_entry skb_drop=skb:kfree_skb"
# Without perf (ev_status=n/a), or when it fails (ev_status=failed), the
# client still measures the CPU of the same window (mrcpp -W -).
EVPID= EVW= EVFAIL=
# evstat_reap: perf ends when its workload does; wait at most 5 s, then
# SIGKILL (a perf stuck in the kernel must not hang the bench).
evstat_reap() {
	local i
	pkill -P $EVPID sleep 2>/dev/null
	for ((i = 0; i < 200; i++)); do
		kill -0 $EVPID 2>/dev/null || break
		nap 0.025
	done
	kill -0 $EVPID 2>/dev/null && kill -KILL $EVPID 2>/dev/null
	wait $EVPID 2>/dev/null
	EVPID=
}
evstat_start() {
	local e list= i
	EVPID= EVW="-W -" EVFAIL=
	if ! command -v perf >/dev/null; then
		log "perf not installed: no event counts"
		return 0
	fi
	for e in $EVENTS; do list+=${list:+,}${e#*=}; done
	rm -f "$tmp/evstat" "$tmp/everr" "$tmp/evctl" "$tmp/evack"
	mkfifo "$tmp/evctl" "$tmp/evack"
	perf stat -a -x, -D -1 --control fifo:"$tmp/evctl","$tmp/evack" -e "$list" \
		-o "$tmp/evstat" -- sleep 3600 2>"$tmp/everr" &
	EVPID=$!
	# the events are open once perf says so (on stderr)
	for ((i = 0; i < 400; i++)); do
		grep -q 'Events disabled' "$tmp/everr" 2>/dev/null && break
		kill -0 $EVPID 2>/dev/null || break
		nap 0.025
	done
	if ! grep -q 'Events disabled' "$tmp/everr" 2>/dev/null; then
		log "perf stat failed, no event counts: $(head -2 "$tmp/everr" | tr '\n' ' ')"
		kill $EVPID 2>/dev/null
		evstat_reap
		EVFAIL=1
		return 0
	fi
	EVW="-W $tmp/evctl,$tmp/evack"
}
# evstat_end: EVREC="ev_NAME=COUNT ..." ("ev_status=n/a" without perf).
# Not in a subshell: only the shell that started perf can wait for it.
EVREC=
evstat_end() {
	local e n
	EVREC="ev_status=n/a"
	[ -z "$EVFAIL" ] || EVREC="ev_status=failed"
	[ -n "$EVPID" ] || return 0
	EVREC=
	# perf prints its counts when its workload ends (a background job
	# ignores SIGINT, and SIGTERM would lose them)
	evstat_reap
	# the client could not reach perf (mrcpp warned): counts of no window
	if cat "$@" 2>/dev/null | grep -q 'events not counted'; then
		EVREC="ev_status=failed"
		return 0
	fi
	for e in $EVENTS; do
		n=$(awk -F, -v ev="${e#*=}" '$3 == ev { print $1 }' "$tmp/evstat" 2>/dev/null)
		[[ $n =~ ^[0-9]+$ ]] && EVREC+=" ev_${e%%=*}=$n"
	done
	return 0
}
meminfo() { awk '$1 == "MemFree:" { f = $2 } $1 == "Slab:" { s = $2 } END { print f, s }' /proc/meminfo; }

# slab_bytes: bytes of the slab objects in use, exactly: every cache is
# shrunk first (its per-CPU slabs flushed, so /proc/slabinfo's active_objs
# no longer counts their free objects), then active_objs x objsize summed.
# "Slab:" of /proc/meminfo counts pages: a run that reuses the pages an
# earlier one freed grows it by nothing.
slab_bytes() {
	local c
	for c in /sys/kernel/slab/*/shrink; do echo 1 >"$c"; done 2>/dev/null
	awk 'NR > 2 { s += $2 * $4 } END { printf "%d\n", s }' /proc/slabinfo
}

# stream_start NSSRV NSCLI PROTO DST TAG SECS [client args]: a timed
# transfer; the receiver's timeline goes to $OUT/TAG.tl.
stream_start() {
	local ns=$1 nc=$2 proto=$3 dst=$4 tag=$5 secs=$6
	shift 6
	port=$((port + 1))
	rm -f "$tmp/ready" "$tmp/conn"
	ip netns exec "$ns" "$PP" -T "$proto" -l -p $port -M stream -o "$OUT/$tag.tl" \
		-t $((secs + 60)) -r "$tmp/ready" >"$tmp/srv.out" 2>"$tmp/srv.err" &
	SRV=$!
	waitfile "$tmp/ready"
	ip netns exec "$nc" "$PP" -T "$proto" -c "$dst" -p $port -M stream -s 16384 -D "$secs" \
		-t $((secs + 60)) -r "$tmp/conn" "$@" >"$tmp/cli.out" 2>"$tmp/cli.err" &
	CLI=$!
	waitfile "$tmp/conn"
	T0=$(now_ms)
}
stream_end() {
	wait $CLI
	wait $SRV
	cat "$tmp/srv.err" "$tmp/cli.err" | head -5 >&2
}

# ---- the 4-plane leaf/spine fabric (P1, P2, P4, Soft-RoCE) -------------------------

F=bf HA=bf-hA HB=bf-hB
fabric_up() {
	local p s ns
	mrc_fabric $F 4 2 || { log "fabric failed"; exit 1; }
	[ "$MTU" = 1500 ] || mrc_fabric_mtu $F "$MTU" || { log "fabric MTU failed"; exit 1; }
	for p in 0 1 2 3; do
		for ns in $HA $HB; do shape $ns r$p $RATE $DELAY | tc -n $ns -batch -; done
		for ns in $F-lA $F-lB; do
			{ shape $ns h$p $RATE $DELAY
			  for s in 0 1; do shape $ns u${s}p$p 0 $DELAY; done; } | tc -n $ns -batch -
		done
	done
	for s in 0 1; do
		for p in 0 1 2 3; do shape $F-s$s a$p 0 $DELAY; shape $F-s$s b$p 0 $DELAY; done |
			tc -n $F-s$s -batch -
	done
	# MPTCP: the in-kernel path manager; B announces its other rails'
	# addresses (a subflow endpoint at A would go to B's plane-0 address
	# only, crossing planes at the leaves), A opens one subflow to each.
	for ns in $HA $HB; do
		ip -n $ns mptcp limits set subflow 8 add_addr_accepted 8
		ip netns exec $ns sysctl -qw net.mptcp.add_addr_timeout=1 net.mptcp.enabled=1
	done
	for p in 1 2 3; do ip -n $HB mptcp endpoint add 10.$p.2.1 dev r$p signal; done
	# base RTT: 64 B TCP ping-pong over rail 0, nothing else running
	port=$((port + 1))
	rm -f "$tmp/ready"
	ip netns exec $HB "$PP" -T tcp -l -p $port -M pp -s 64 -t 60 -r "$tmp/ready" >/dev/null 2>&1 &
	waitfile "$tmp/ready"
	ip netns exec $HA "$PP" -T tcp -c 10.0.2.1 -p $port -M pp -s 64 -n 50 -t 60 >"$tmp/ping" 2>&1
	wait
	RTT_US=$(kv "$tmp/ping" p50_us)
	rec rtt tcp 1 $(tail -1 "$tmp/ping") avg_ms=$(awk -v u="${RTT_US:-0}" 'BEGIN { print u / 1000 }')
	log "fabric: 4 planes x 2 spines, rails ${RATE} Mbit/s, ${DELAY} ms per hop; base RTT ${RTT_US:-?} us"
}
rail_bytes() {
	local p out=""
	for p in 0 1 2 3; do out+="$(ip netns exec $HA cat /sys/class/net/r$p/statistics/tx_bytes) "; done
	echo "$out"
}
spine_rx() { ip netns exec "$F-s$1" cat "/sys/class/net/$2/statistics/rx_bytes"; }

# fab_stream PEER TAG SECS: one transfer A -> B over the fabric (mrc over
# every rail, MPTCP one subflow per rail, TCP over rail 0).
fab_stream_start() {
	local peer=$1 tag=$2 secs=$3
	R0=($(rail_bytes))
	read -r FC0 _ < <(cpu_busy)
	stream_start $HB $HA "$peer" 10.0.2.1 "$tag" "$secs"
}
fab_stream_end() {
	local m=$1 peer=$2 run=$3
	shift 3
	local r1 i d=() sub="" c1
	stream_end
	read -r c1 _ < <(cpu_busy)
	r1=($(rail_bytes))
	for i in 0 1 2 3; do d[i]=$((r1[i] - R0[i])); done
	[ "$peer" = mptcp ] && sub=$(ip netns exec $HA nstat -az MPTcpExtMPJoinSynAckRx 2>/dev/null |
		awk '/MPJoinSynAckRx/ { print $2 }')
	rec "$m" "$peer" "$run" $(cat "$tmp/srv.out") rail0=${d[0]} rail1=${d[1]} \
		rail2=${d[2]} rail3=${d[3]} rate_mbit=$RATE rails=4 ${sub:+mptcp_joins_total=$sub} \
		cpu_jiffies=$((c1 - FC0)) hz=$(getconf CLK_TCK) \
		$(grep -o 'mrc_[a-z_]*=[0-9]*' "$tmp/cli.out") "$@"
	log "$m $peer run $run: $(cat "$tmp/srv.out") rails: ${d[*]}"
}

calib() {
	local peer
	for peer in mrc tcp mptcp; do
		fab_stream_start $peer calib-$peer 4
		fab_stream_end calib $peer 1
	done
}

p1() {
	local run peer
	for run in $(seq $RUNS); do
		for peer in mrc mptcp tcp; do
			fab_stream_start $peer p1-$peer-$run $SECS
			fab_stream_end p1 $peer $run
		done
	done
}

# P2: a silent black hole (netem loss 100 % on the spine link towards B
# that plane 0's traffic uses most) or rail 0 taken down, for OUTAGE ms.
p2() {
	local run peer kind s a0 a1 tf th
	for kind in blackhole linkdown; do
		for run in $(seq $RUNS); do
			for peer in mrc mptcp tcp; do
				fab_stream_start $peer p2-$kind-$peer-$run $FSECS
				at $((FAILAT - 1000))
				a0=$(spine_rx 0 a0) a1=$(spine_rx 1 a0)
				at $((FAILAT - 400))
				a0=$(($(spine_rx 0 a0) - a0)) a1=$(($(spine_rx 1 a0) - a1))
				s=0; [ $a1 -gt $a0 ] && s=1
				at $FAILAT
				tf=$(now_ms)
				if [ $kind = blackhole ]; then
					netem_change $F-s$s b0 0 $DELAY loss 100%
				else
					ip -n $HA link set dev r0 down
				fi
				at $((FAILAT + OUTAGE))
				th=$(now_ms)
				if [ $kind = blackhole ]; then
					netem_change $F-s$s b0 0 $DELAY
				else
					ip -n $HA -batch - <<<"link set dev r0 up
route replace 10.0.2.0/24 via 10.0.1.254 dev r0"
				fi
				fab_stream_end p2-$kind $peer $run fail_ms=$tf heal_ms=$th spine=$s \
					spine0_bytes=$a0 spine1_bytes=$a1
			done
		done
	done
}

# P4: 1 % random loss on rail 0 of A (data direction).
p4() {
	local run peer
	for ns in $HA; do netem_change $ns r0 $RATE $DELAY loss 1%; done
	for run in $(seq $RUNS); do
		for peer in mrc mptcp tcp; do
			fab_stream_start $peer p4-$peer-$run $SECS
			fab_stream_end p4 $peer $run loss_pct=1
		done
	done
	netem_change $HA r0 $RATE $DELAY
}

# Soft-RoCE: rdma_rxe on rail 0 of both hosts, perftest's ib_send_bw.
rxe() {
	local out why
	if ! modprobe rdma_rxe 2>"$tmp/rxe.err"; then
		rec rxe rxe 1 status=n/a "reason=modprobe rdma_rxe: $(cat "$tmp/rxe.err")"
		return
	fi
	if ! command -v ib_send_bw >/dev/null; then
		rec rxe rxe 1 status=n/a "reason=perftest (ib_send_bw) not installed"
		return
	fi
	ip netns exec $HA rdma link add rxeA type rxe netdev r0 2>"$tmp/rxe.err" &&
		ip netns exec $HB rdma link add rxeB type rxe netdev r0 2>>"$tmp/rxe.err" || {
		rec rxe rxe 1 status=n/a "reason=rdma link add: $(cat "$tmp/rxe.err")"
		return
	}
	ip netns exec $HB timeout 14 ib_send_bw -d rxeB -D 1 -F >"$OUT/rxe-server.out" 2>&1 &
	nap 1.5
	ip netns exec $HA timeout 10 ib_send_bw -d rxeA -D 1 -F 10.0.2.1 >"$OUT/rxe-client.out" 2>&1
	wait
	out=$(awk '/^ *65536 / { print $4 }' "$OUT/rxe-client.out" | tail -1)
	if [ -n "$out" ]; then
		rec rxe rxe 1 status=ok bw_mbit=$(awk -v b="$out" 'BEGIN { print b * 8 * 1.048576 }') \
			rate_mbit=$RATE
	else
		why=$(cat "$OUT/rxe-client.out" "$OUT/rxe-server.out" | grep -iE 'error|fail|unable|couldn' | head -3 | tr '\n' ' ')
		why=${why:-no bandwidth line (see raw/rxe-client.out)}
		rec rxe rxe 1 status=n/a "reason=ib_send_bw over rxe between two namespaces failed: $why"
	fi
	ip netns exec $HA rdma link del rxeA 2>/dev/null
	ip netns exec $HB rdma link del rxeB 2>/dev/null
}

# ---- P3: 2-tier fabric, PAIRS host pairs, 2 spines, permutation traffic --------------
# Host i of leaf A (c-ai, 10.1.i.1) sends to host pi(i) of leaf B (c-bj,
# 10.2.j.1); host links R3, spine links PAIRS*R3/2 (non-blocking if
# balanced).  Synchronous rounds: in each all flows start together (a
# barrier), each on a new connection, and send P3BYTES; the round ends
# with the slowest flow's one-byte reply.
R3=${BENCH_P3_RATE:-5}
P3BYTES=${BENCH_P3_BYTES:-262144}
# Bound of a round (mrcpp -R, ms): 20 x the ideal P3BYTES * 8 / R3, at least
# 5 s.  A round that takes longer fails; a client waits at the barrier at
# most 2 x that + 5 s, then the run's remaining rounds fail.
P3LIM=$((P3BYTES * 8 / R3 / 1000 * 20))
[ $P3LIM -ge 5000 ] || P3LIM=5000
clos_up() {
	local i s side l n=$PAIRS nsp=2 nh v MTU=1500	# shape(): P3's links
	local -a nss=()
	for i in $(seq 0 $((n - 1))); do nss+=(c-a$i c-b$i); done
	ns_create c-lA c-lB c-s0 c-s1 "${nss[@]}" || exit 1
	for l in c-lA c-lB c-s0 c-s1; do
		ip netns exec $l sh -c 'echo 1 >/proc/sys/net/ipv4/ip_forward; echo 1 >/proc/sys/net/ipv4/fib_multipath_hash_policy'
	done
	{
		for i in $(seq 0 $((n - 1))); do
			echo "link add r0 netns c-a$i type veth peer name h$i netns c-lA"
			echo "link add r0 netns c-b$i type veth peer name h$i netns c-lB"
		done
		for s in 0 1; do
			echo "link add u$s netns c-lA type veth peer name a netns c-s$s"
			echo "link add u$s netns c-lB type veth peer name b netns c-s$s"
		done
	} | ip -batch - || exit 1
	for side in a b; do
		local oct=1 oth=2 L=c-lA
		[ $side = b ] && oct=2 oth=1 L=c-lB
		for i in $(seq 0 $((n - 1))); do
			ip -n c-$side$i -batch - <<EOF
link add mrc0 type mrc
addr add 10.$oct.$i.1/24 dev r0
link set dev r0 master mrc0
link set dev r0 up
link set dev mrc0 up
route add 10.$oth.0.0/16 via 10.$oct.$i.254 dev r0
EOF
			shape c-$side$i r0 $R3 $DELAY | tc -n c-$side$i -batch -
			ip -n c-$side$i mptcp limits set subflow 8 add_addr_accepted 8
			if [ $side = a ]; then
				# MPTCP: 3 more source addresses on the one rail, one
				# subflow each (different 5-tuples, so different spines)
				for v in 2 3 4; do
					ip -n c-a$i addr add 10.1.$i.$v/24 dev r0
					ip -n c-a$i mptcp endpoint add 10.1.$i.$v dev r0 subflow
				done
			fi
		done
		{
			for i in $(seq 0 $((n - 1))); do
				echo "addr add 10.$oct.$i.254/24 dev h$i"
				echo "link set dev h$i up"
			done
			nh="route add 10.$oth.0.0/16"
			for s in 0 1; do
				echo "addr add 10.$((oct + 2)).$s.1/24 dev u$s"
				echo "link set dev u$s up"
				nh+=" nexthop via 10.$((oct + 2)).$s.2 dev u$s"
			done
			echo "$nh"
		} | ip -n $L -batch - || exit 1
		{
			for i in $(seq 0 $((n - 1))); do shape $L h$i $R3 $DELAY; done
			for s in 0 1; do shape $L u$s $((R3 * n / nsp)) $DELAY; done
		} | tc -n $L -batch -
	done
	for s in 0 1; do
		ip -n c-s$s -batch - <<EOF
addr add 10.3.$s.2/24 dev a
addr add 10.4.$s.2/24 dev b
link set dev a up
link set dev b up
route add 10.1.0.0/16 via 10.3.$s.1
route add 10.2.0.0/16 via 10.4.$s.1
EOF
		{ shape c-s$s a $((R3 * n / nsp)) $DELAY; shape c-s$s b $((R3 * n / nsp)) $DELAY; } |
			tc -n c-s$s -batch -
	done
	log "P3 fabric: $n host pairs, 2 spines, host links $R3 Mbit/s, spine links $((R3 * n / nsp)) Mbit/s"
}

# p3_rounds CT...: "round time / ideal" of each round of the clients'
# per-round files (mrcpp -M rounds -o): the last reply from the first start;
# "fail" if a flow failed the round or has no line for it (its client died).
p3_rounds() {
	awk -v ideal=$((P3BYTES * 8 / R3)) -v n=$P3ROUNDS -v flows=$PAIRS '
		{ cnt[$1]++ }
		$3 == 0 { bad[$1] = 1; next }
		!($1 in s) || $2 < s[$1] { s[$1] = $2 }
		$3 > e[$1] { e[$1] = $3 }
		END {
			for (r = 0; r < n; r++) {
				v = sprintf("%.2f", (e[r] - s[r]) / ideal)
				if ((r in bad) || cnt[r] < flows)
					v = "fail"
				printf "%s ", v
			}
		}' "$@"
}

# p3_joins: MPTCP subflows joined so far by the clients (MP_JOIN SYN/ACKs).
p3_joins() {
	local i n=0 v
	for i in $(seq 0 $((PAIRS - 1))); do
		v=$(ip netns exec c-a$i nstat -az MPTcpExtMPJoinSynAckRx 2>/dev/null |
			awk '/MPJoinSynAckRx/ { print $2 }')
		n=$((n + ${v:-0}))
	done
	echo $n
}

# One permutation per run (every permutation loads this fabric alike);
# the hashes change every round with the connections.
p3() {
	local run peer i j perm srv=() cli=() st=() sp0 sp1 c0 c1 j0 jn tmo=$((P3ROUNDS * (3 * P3LIM + 5000) / 1000 + 60))
	clos_up
	for run in $(seq $RUNS); do
		perm=($(shuf -i 0-$((PAIRS - 1))))
		for peer in mrc mptcp tcp; do
			port=$((port + 1))
			srv=() cli=()
			for i in $(seq 0 $((PAIRS - 1))); do
				j=${perm[i]}
				rm -f "$tmp/r$i"
				ip netns exec c-b$j "$PP" -T $peer -l -p $port -M rounds -s $P3BYTES \
					-n $P3ROUNDS -R $P3LIM -t $tmo -r "$tmp/r$i" >/dev/null 2>&1 &
				srv+=($!)
			done
			for i in $(seq 0 $((PAIRS - 1))); do waitfile "$tmp/r$i"; done
			"$PP" -M barrier -k $PAIRS -P "$tmp/p3bar"
			[ $peer = mptcp ] && j0=$(p3_joins)
			sp0=$(ip netns exec c-s0 cat /sys/class/net/a/statistics/rx_bytes)
			sp1=$(ip netns exec c-s1 cat /sys/class/net/a/statistics/rx_bytes)
			read -r c0 _ < <(cpu_busy)
			for i in $(seq 0 $((PAIRS - 1))); do
				j=${perm[i]}
				ip netns exec c-a$i "$PP" -T $peer -c 10.2.$j.1 -p $port -M rounds \
					-s $P3BYTES -n $P3ROUNDS -R $P3LIM -P "$tmp/p3bar" -t $tmo \
					-o "$OUT/p3-$peer-$run-$i.ct" >"$tmp/p3c$i.out" 2>&1 &
				cli+=($!)
			done
			# exit: 0 all rounds done, 1 some failed, 3 -t ran out
			st=()
			for i in $(seq 0 $((PAIRS - 1))); do
				wait ${cli[i]}
				st+=($?)
			done
			read -r c1 _ < <(cpu_busy)
			sp0=$(($(ip netns exec c-s0 cat /sys/class/net/a/statistics/rx_bytes) - sp0))
			sp1=$(($(ip netns exec c-s1 cat /sys/class/net/a/statistics/rx_bytes) - sp1))
			jn=
			[ $peer = mptcp ] && jn=$(($(p3_joins) - j0))
			# the servers are done once every round was (a failed one may wait)
			kill "${srv[@]}" 2>/dev/null
			wait "${srv[@]}" 2>/dev/null
			# the client's summary line, if it got that far (stderr is
			# in the same file); p3_rounds/p3_flows: what was asked for
			for i in $(seq 0 $((PAIRS - 1))); do
				rec p3 $peer $run flow=$i dst=${perm[i]} exit=${st[i]} \
					$(grep '^rounds=' "$tmp/p3c$i.out" | tail -1) \
					p3_rounds=$P3ROUNDS p3_flows=$PAIRS round_limit_ms=$P3LIM \
					pairs=$PAIRS host_mbit=$R3 round_bytes=$P3BYTES \
					spine0_bytes=$sp0 spine1_bytes=$sp1 ${jn:+mptcp_joins=$jn} \
					run_cpu_jiffies=$((c1 - c0)) hz=$(getconf CLK_TCK)
			done
			grep -h 'mrcpp:' "$tmp"/p3c*.out | sort | uniq -c | head -5 >&2
			log "p3 $peer run $run: spines $((sp0 / 1024))k/$((sp1 / 1024))k;" \
				"${jn:+MPTCP subflows joined $jn;}" \
				"retransmitted $(cat "$tmp"/p3c*.out | grep -o 'retrans=[0-9]*' |
					awk -F= '{ s += $2 } END { print NR ? s : "n/a" }');" \
				"round time / ideal: $(p3_rounds "$OUT"/p3-$peer-$run-*.ct)"
		done
	done
}

# ---- P5-P7: one rail, no shaping (mrc_pair: veth a0 10.0.0.1 <-> b0 10.0.0.2) ------

pair_up() { mrc_pair cp-a cp-b 1 || exit 1; }

# p5_one METRIC PEER RUN TAG [KEY=VALUE...]: one unshaped transfer, its CPU.
p5_one() {
	local m=$1 peer=$2 run=$3 tag=$4 c0 c1 s0 s1 cpu scope
	shift 4
	evstat_start
	read -r c0 s0 < <(cpu_busy)
	stream_start cp-b cp-a $peer 10.0.0.2 $tag $P5SECS $EVW
	stream_end
	read -r c1 s1 < <(cpu_busy)
	evstat_end "$tmp/cli.err"
	# CPU of the measured part (mrcpp -W); of the whole run if missing
	cpu=$(kv "$tmp/cli.out" cpu_jiffies) scope=inner
	[ -n "$cpu" ] || cpu=$((c1 - c0)) scope=outer
	rec $m $peer $run $(cat "$tmp/srv.out") cpu_jiffies=$cpu cpu_scope=$scope \
		cpu_jiffies_outer=$((c1 - c0)) softirq_jiffies=$((s1 - s0)) \
		hz=$(getconf CLK_TCK) tag=$tag $(grep -o 'mrc_[a-z_]*=[0-9]*' "$tmp/cli.out") \
		$EVREC "$@"
	log "$m $peer run $run $*: $(cat "$tmp/srv.out") cpu $((c1 - c0)) jiffies"
}

p5() {
	local run peer
	for run in $(seq $RUNS); do
		for peer in mrc tcp; do
			p5_one p5 $peer $run p5-$peer-$run
		done
	done
}

# p6_one METRIC PEER RUN LATFILE [KEY=VALUE...]: 64 B ping-pong.
p6_one() {
	local m=$1 peer=$2 run=$3 lat=$4
	shift 4
	port=$((port + 1))
	rm -f "$tmp/ready"
	ip netns exec cp-b "$PP" -T $peer -l -p $port -M pp -s 64 -t 120 -r "$tmp/ready" \
		>/dev/null 2>&1 &
	SRV=$!
	waitfile "$tmp/ready"
	evstat_start
	ip netns exec cp-a "$PP" -T $peer -c 10.0.0.2 -p $port -M pp -s 64 -n $PPN -t 120 \
		-o "$lat" $EVW >"$tmp/pp.out" 2>&1
	wait $SRV
	evstat_end "$tmp/pp.out"
	# cpu_jiffies: of the round trips only (mrcpp -W)
	rec $m $peer $run $(tail -1 "$tmp/pp.out") hz=$(getconf CLK_TCK) $EVREC "$@"
	log "$m $peer run $run $*: $(tail -1 "$tmp/pp.out")"
}

p6() {
	local run peer
	for run in $(seq $RUNS); do
		for peer in mrc tcp udp; do
			p6_one p6 $peer $run "$OUT/p6-$peer-$run.lat"
		done
	done
}

# A/B of the performance mechanisms, in this boot: for each module
# parameter of BENCH_AB ("name=before,after ..."), P5 and P6 of mrc with
# each value (the TCP and UDP numbers of P5/P6 are the reference).
ab() {
	local spec p v vals old run order
	for spec in $AB; do
		p=${spec%%=*} vals=${spec#*=}
		if ! old=$(cat /sys/module/mrc/parameters/$p); then
			rec ab-error mrc 0 param=$p error="no such parameter"
			continue
		fi
		# Runs outermost, the values' order alternating: the host's
		# drift falls on every value alike.
		for run in $(seq $RUNS); do
			order=${vals//,/ }
			[ $((run % 2)) = 0 ] && order=$(echo $order | tr ' ' '\n' | tac | tr '\n' ' ')
			for v in $order; do
				if ! echo $v >/sys/module/mrc/parameters/$p; then
					rec ab-error mrc $run param=$p value=$v error="write refused"
					continue
				fi
				p5_one ab-p5 mrc $run ab-p5-$p-$v-$run param=$p value=$v
				p6_one ab-p6 mrc $run "$OUT/ab-p6-$p-$v-$run.lat" param=$p value=$v
			done
		done
		echo $old >/sys/module/mrc/parameters/$p
	done
}

p7() {
	local run peer m0 s0 m1 s1 b o0 o1
	for run in $(seq $RUNS); do
		for peer in mrc tcp; do
			# idle connections
			port=$((port + 1))
			sync; echo 2 >/proc/sys/vm/drop_caches; nap 0.5
			read -r m0 s0 < <(meminfo)
			o0=$(slab_bytes)
			rm -f "$tmp/ready" "$tmp/conn"
			ip netns exec cp-b "$PP" -T $peer -l -p $port -M hold -k $IDLE -t 120 \
				-r "$tmp/ready" >/dev/null 2>&1 &
			SRV=$!
			waitfile "$tmp/ready"
			ip netns exec cp-a "$PP" -T $peer -c 10.0.0.2 -p $port -M hold -k $IDLE -t 120 \
				-r "$tmp/conn" >/dev/null 2>&1 &
			CLI=$!
			waitfile "$tmp/conn"
			nap 1
			read -r m1 s1 < <(meminfo)
			o1=$(slab_bytes)
			kill $CLI $SRV; wait $CLI $SRV 2>/dev/null
			rec p7-idle $peer $run conns=$IDLE memfree_kb=$((m0 - m1)) slab_kb=$((s1 - s0)) \
				slab_obj_b=$((o1 - o0))
			log "p7 idle $peer: $IDLE conns: MemFree -$((m0 - m1)) kB, Slab +$((s1 - s0)) kB," \
				"slab objects +$(((o1 - o0) / 1024)) kB"
			# one connection filled: the receiver never reads
			port=$((port + 1))
			nap 1
			read -r m0 s0 < <(meminfo)
			rm -f "$tmp/ready" "$tmp/conn"
			rm -f "$tmp/rmem"
			ip netns exec cp-b "$PP" -T $peer -l -p $port -M hold -k 1 -t 120 \
				-o "$tmp/rmem" -r "$tmp/ready" >/dev/null 2>&1 &
			SRV=$!
			waitfile "$tmp/ready"
			ip netns exec cp-a "$PP" -T $peer -c 10.0.0.2 -p $port -M hold -k 0 -F -s 65536 \
				-t 120 -r "$tmp/conn" >"$tmp/fill.out" 2>&1 &
			CLI=$!
			for ((i = 0; i < 600; i++)); do [ -e "$tmp/conn" ] && break; nap 0.05; done
			read -r m1 s1 < <(meminfo)
			nap 0.3	# the server's rmem file is rewritten every 100 ms
			b=$(kv "$tmp/fill.out" bytes) w=$(kv "$tmp/fill.out" wmem) r=$(kv "$tmp/rmem" rmem)
			kill $CLI $SRV; wait $CLI $SRV 2>/dev/null
			rec p7-fill $peer $run bytes=${b:-0} memfree_kb=$((m0 - m1)) slab_kb=$((s1 - s0)) \
				wmem=${w:-0} rmem=${r:-0}
			log "p7 fill $peer: ${b:-?} bytes buffered: sockets charged wmem ${w:-?} + rmem ${r:-?} B; MemFree -$((m0 - m1)) kB, Slab +$((s1 - s0)) kB"
		done
	done
}

# ---- run ---------------------------------------------------------------------------

rec meta all 0 quick=$QUICK runs=$RUNS secs=$SECS rate_mbit=$RATE delay_ms=$DELAY \
	outage_ms=$OUTAGE pairs=$PAIRS p3_rate_mbit=$R3 p3_rounds=$P3ROUNDS \
	p3_bytes=$P3BYTES p3_round_limit_ms=$P3LIM only="$ONLY" kernel="$(uname -r)" \
	nproc=$(nproc) start_ms=$(now_ms)
tstart=$(now_ms)
if want calib || want p1 || want p2 || want p4 || want rxe; then
	fabric_up
	want calib && calib
	want p1 && p1
	want p4 && p4
	want p2 && p2
	want rxe && rxe
	for n in hA hB lA lB s0 s1; do ip netns del $F-$n; done
	log "fabric metrics done at $((($(now_ms) - tstart) / 1000)) s"
fi
if want p3; then
	p3
	log "p3 done at $((($(now_ms) - tstart) / 1000)) s"
fi
if want p5 || want p6 || want p7 || want ab; then
	pair_up
	want p5 && p5
	want p6 && p6
	want ab && ab
	want p7 && p7
fi
rec meta all 0 end_ms=$(now_ms) guest_secs=$((($(now_ms) - tstart) / 1000))
log "done in $((($(now_ms) - tstart) / 1000)) s"
exit 0
