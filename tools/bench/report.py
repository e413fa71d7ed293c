#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""tools/bench/report.py - turn the raw numbers of tools/bench/guest.sh into
results/bench/bench.md (the table), bench.json (every raw number and every
derived one) and PNG plots (goodput over time across each failure, CDF of
P3 round times).  Runs on the host (Debian's python3-matplotlib)."""

import argparse
import datetime
import glob
import json
import os
import statistics

p = argparse.ArgumentParser()
p.add_argument("--raw", required=True)
p.add_argument("--out", required=True)
p.add_argument("--quick", default="0")
p.add_argument("--commit", default="unknown")
p.add_argument("--concurrent-vms", default="0")
a = p.parse_args()

recs = []
for name in ("raw.jsonl", "twovm.jsonl"):  # twovm: tools/bench/twovm.sh (two VMs)
    try:
        with open(os.path.join(a.raw, name)) as f:
            for line in f:
                line = line.strip()
                if line:
                    try:
                        recs.append(json.loads(line))
                    except ValueError:
                        pass
    except OSError:
        pass

meta = {}
for r in recs:
    if r["metric"] == "meta":
        meta.update({k: v for k, v in r.items() if k not in ("metric", "peer", "run")})
RATE = float(meta.get("rate_mbit", 0) or 0)
PEERS3 = ["mrc", "mptcp", "tcp"]


def sel(metric, peer=None):
    return [r for r in recs if r["metric"] == metric and (peer is None or r["peer"] == peer)]


def timeline(tag):
    """[(ms, bytes)] of a receiver timeline, 10 ms bins."""
    try:
        with open(os.path.join(a.raw, tag + ".tl")) as f:
            return [tuple(int(x) for x in l.split()) for l in f if l.strip()]
    except OSError:
        return []


def goodput(tl, skip_ms=1000, tail_ms=200, lo=None, hi=None):
    """Mbit/s over the steady part of a timeline (or [lo, hi))."""
    if not tl:
        return None
    lo = tl[0][0] + skip_ms if lo is None else lo
    hi = tl[-1][0] - tail_ms if hi is None else hi
    if hi <= lo:
        return None
    b = sum(x for t, x in tl if lo <= t < hi)
    return b * 8 / ((hi - lo) / 1000) / 1e6


def mm(vals):
    """(min, median) of the numbers in vals, or None."""
    v = [x for x in vals if x is not None]
    if not v:
        return None
    return (min(v), statistics.median(v))


def fmt(x, nd=2, unit=""):
    if x is None:
        return "n/a"
    if isinstance(x, tuple):
        return "%s / %s%s" % (fmt(x[0], nd), fmt(x[1], nd), unit)
    if isinstance(x, float):
        return ("%%.%df" % nd) % x + unit
    return str(x) + unit


def div(a, b):
    return a / b if a is not None and b else None


derived = {}
rows = []


def row(metric, mrc, mptcp, tcp, other, ratio, goal, result, note=""):
    rows.append((metric, mrc, mptcp, tcp, other, ratio, goal, result, note))


def verdict(ok):
    if ok is None:
        return "n/a"
    return "pass" if ok else "**FAIL**"


# ---- P1 aggregation --------------------------------------------------------
p1 = {}
for peer in PEERS3:
    g = []
    for r in sel("p1", peer):
        g.append(goodput(timeline("p1-%s-%d" % (peer, r["run"]))))
        r["goodput_mbit"] = g[-1]
    p1[peer] = g
derived["p1_goodput_mbit"] = p1
if RATE and any(p1.values()):
    agg = {k: mm([x / (4 * RATE) for x in v if x is not None]) for k, v in p1.items()}
    tcp1 = mm([x / RATE for x in p1["tcp"] if x is not None])
    derived["p1_ratio_of_4_rails"] = agg
    ok = None
    if agg["mrc"] and agg["mptcp"]:
        ok = agg["mrc"][1] >= 0.95 and agg["mrc"][1] > agg["mptcp"][1]
    rat = (agg["mrc"][1] / agg["mptcp"][1]) if agg["mrc"] and agg["mptcp"] and agg["mptcp"][1] else None
    row("P1 aggregation: goodput / (4 x %g Mbit/s)" % RATE, fmt(agg["mrc"]), fmt(agg["mptcp"]),
        fmt(tcp1) + " (1 rail, / %g)" % RATE, "", fmt(rat) + " (mrc/MPTCP)",
        ">= 0.95 and > MPTCP", verdict(ok),
        "goodput Mbit/s median: " + ", ".join("%s %s" % (k, fmt(mm(v) and mm(v)[1], 1))
                                             for k, v in p1.items()))

# ---- P2 failures -------------------------------------------------------------
rtt = None
for r in sel("rtt"):
    rtt = r.get("avg_ms")  # the p50 of 50 TCP ping-pongs
derived["base_rtt_ms"] = rtt


def failure_numbers(tl, fail, heal, frac):
    if not tl:
        return None, None, None
    d = dict(tl)
    t0 = tl[0][0]
    # longest stall: run of empty 10 ms bins from 50 ms before the failure
    stall = run = 0
    t = fail - fail % 10 - 50
    end = tl[-1][0]
    while t <= end:
        if d.get(t, 0) == 0:
            run += 10
            stall = max(stall, run)
        else:
            run = 0
        t += 10
    pre = goodput(tl, lo=max(t0 + 500, fail - 1500), hi=fail)
    rec_ms = None
    if pre:
        target = 0.9 * frac * pre
        t = fail - fail % 10 + 10
        while t + 200 <= end:
            if goodput(tl, lo=t, hi=t + 200) >= target:
                rec_ms = t - fail
                break
            t += 10
    return stall, rec_ms, pre


for kind in ("blackhole", "linkdown"):
    res = {}
    for peer in PEERS3:
        st, rc = [], []
        for r in sel("p2-" + kind, peer):
            tl = timeline("p2-%s-%s-%d" % (kind, peer, r["run"]))
            frac = 0.75 if kind == "linkdown" and peer != "tcp" else 1.0
            s, rcv, pre = failure_numbers(tl, r["fail_ms"], r["heal_ms"], frac)
            r.update(stall_ms=s, recovery_ms=rcv, pre_failure_mbit=pre)
            st.append(s)
            rc.append(rcv)
        res[peer] = {"stall_ms": st, "recovery_ms": rc}
    derived["p2_" + kind] = res
    if not any(res[p]["stall_ms"] for p in PEERS3):
        continue
    s = {p: mm(res[p]["stall_ms"]) for p in PEERS3}
    rcv = {p: mm(res[p]["recovery_ms"]) for p in PEERS3}
    ok = None
    if s["mrc"] and rtt:
        ok = s["mrc"][1] <= 3 * rtt
    ratio = (s["tcp"][1] / s["mrc"][1]) if s["mrc"] and s["tcp"] and s["mrc"][1] else None
    what = "silent black hole of one spine link" if kind == "blackhole" else "`ip link set down` of rail 0"
    row("P2 %s: longest stall, ms" % what, fmt(s["mrc"], 0), fmt(s["mptcp"], 0), fmt(s["tcp"], 0),
        "base RTT %s ms" % fmt(rtt, 1), fmt(ratio, 1) + " (TCP/mrc)",
        "<= 3 x RTT = %s ms" % fmt(rtt and 3 * rtt, 0), verdict(ok))
    unrec = {p: sum(1 for x in res[p]["recovery_ms"] if x is None) for p in PEERS3}
    row("P2 %s: time to >= 0.9 x surviving goodput, ms" % what, fmt(rcv["mrc"], 0),
        fmt(rcv["mptcp"], 0), fmt(rcv["tcp"], 0), "", "", "(reported)", "info",
        "runs never recovered: %s" % unrec if any(unrec.values()) else "")

# ---- P3 ECMP collisions: synchronous rounds -------------------------------------
# tools/bench/guest.sh p3: per peer and run, one file per flow (client),
# p3-PEER-RUN-FLOW.ct: "round start_us end_us connect_us retrans status" per
# round (CLOCK_MONOTONIC of the one VM; end 0: the round failed for that
# flow; status "ok" or what failed, e.g. recv-timeout, barrier-timeout,
# aborted).  Round time: from the first flow's start (the barrier's release,
# with the connections open) to the last flow's reply; ideal: the bytes of
# one flow at the host link's rate.  Every round asked for counts (runs x
# p3_rounds, p3_flows flows each): a round failed if a flow failed it or
# has no line for it (its client died or was killed, or the run never came).
def p3_files(peer):
    """{run: {flow: {round: (start_us, end_us, status)}}} of one peer."""
    runs = {}
    for f in sorted(glob.glob(os.path.join(a.raw, "p3-%s-*.ct" % peer))):
        x = os.path.basename(f)[:-len(".ct")].split("-")
        d = runs.setdefault(int(x[2]), {}).setdefault(int(x[3]), {})
        with open(f) as fh:
            for line in fh:
                x = line.split()
                if len(x) >= 3:
                    st = x[5] if len(x) >= 6 else ("ok" if int(x[2]) else "failed")
                    d[int(x[0])] = (int(x[1]), int(x[2]), st)
    return runs


def pct(v, q):
    """The q-th percentile of the sorted list v, as elsewhere (index n*q//100)."""
    return v[min(len(v) - 1, len(v) * q // 100)] if v else None


def p3_conf(key, reckey, default=None):
    """A P3 setting: from the meta record, else the p3 records."""
    if meta.get(key) not in (None, ""):
        return meta[key]
    for r in sel("p3"):
        if r.get(reckey) not in (None, ""):
            return r[reckey]
    return default


p3files = {peer: p3_files(peer) for peer in PEERS3}
# P3 was asked for (meta "only", from guest.sh), or (older raw) left data
p3want = ("p3" in str(meta["only"]).split() if "only" in meta else
          bool(sel("p3")) or any(p3files.values()))
P3BYTES = int(p3_conf("p3_bytes", "round_bytes", 262144))
P3RATE = float(p3_conf("p3_rate_mbit", "host_mbit", 5))
P3FLOWS = int(p3_conf("pairs", "p3_flows", 0) or 0) or max(
    [len(fl) for runs in p3files.values() for fl in runs.values()] or [0])
P3ROUNDS = int(p3_conf("p3_rounds", "p3_rounds", 0) or 0) or max(
    [r.get("rounds", 0) for r in sel("p3")] +
    [rnd + 1 for runs in p3files.values() for fl in runs.values() for d in fl.values()
     for rnd in d] or [0])
P3RUNS = int(meta.get("runs") or 0)
ideal_ms = P3BYTES * 8 / (P3RATE * 1e6) * 1000
p3 = {}
for peer in PEERS3:
    per_run, pooled, failed, why = {}, [], 0, {}
    for run in sorted(set(range(1, P3RUNS + 1)) | set(p3files[peer])):
        flows = p3files[peer].get(run, {})
        t, nf = [], 0
        for rnd in range(P3ROUNDS):
            ls = [flows.get(fl, {}).get(rnd) for fl in range(P3FLOWS)]
            bad = ["missing" if x is None else x[2] for x in ls if x is None or not x[1]]
            if bad:
                nf += 1
                for st in bad:
                    why[st] = why.get(st, 0) + 1
                continue
            t.append((max(x[1] for x in ls) - min(x[0] for x in ls)) / 1000 / ideal_ms)
        pooled += t
        t.sort()
        # values over the completed rounds; a run with failed ones fails the verdicts
        per_run[run] = {"round_over_ideal": t, "failed": nf, "p50": pct(t, 50),
                        "slowest": t[-1] if t else None}
        failed += nf
    pooled.sort()
    p3[peer] = {"per_run": per_run, "pooled": pooled, "rounds": len(per_run) * P3ROUNDS,
                "failed": failed, "failed_flow_rounds_by_status": why}
derived["p3"] = dict(p3, ideal_ms=ideal_ms, round_bytes=P3BYTES, host_mbit=P3RATE,
                     rounds_per_run=P3ROUNDS, flows=P3FLOWS)
if p3want and P3ROUNDS and P3FLOWS:
    def q(peer, k):
        return mm([x[k] for x in p3[peer]["per_run"].values()])
    p50 = {p: q(p, "p50") for p in PEERS3}
    slow = {p: q(p, "slowest") for p in PEERS3}
    ratio = slow["tcp"][1] / slow["mrc"][1] if slow["tcp"] and slow["mrc"] else None
    ratio_mp = slow["mptcp"][1] / slow["mrc"][1] if slow["mptcp"] and slow["mrc"] else None
    failed = {p: p3[p]["failed"] for p in PEERS3}
    what = "P3 rounds (%s pairs, 2 spines)" % P3FLOWS
    fnote = fshort = ""
    if any(failed.values()):
        name = {"mrc": "mrc", "mptcp": "MPTCP", "tcp": "TCP"}
        fshort = "failed rounds: " + ", ".join(
            "%s %d of %d" % (name[p], failed[p], p3[p]["rounds"]) for p in PEERS3)
        fnote = ("failed rounds (a flow failed the round or has no line for it: its client "
                 "died, or the run never came; left out of the values; any of mrc fails "
                 "every verdict, any of TCP the TCP/mrc one): %s" % ", ".join(
                     "%s %d of %d%s" % (name[p], failed[p], p3[p]["rounds"],
                                        " (flow-rounds: %s)" % ", ".join(
                                            "%s %d" % kv for kv in sorted(
                                                p3[p]["failed_flow_rounds_by_status"].items()))
                                        if failed[p] else "") for p in PEERS3))
    note = ("%d rounds per run, each flow %g KiB on a new connection; round time = the "
            "slowest flow's reply from the first flow's start (at a barrier, with every "
            "connection open: the handshakes are out, except MPTCP's extra subflows, which "
            "join after connect(), during the round: the client's path manager opens them "
            "once the connection is fully established, after the server acknowledged data, "
            "so their handshakes and slow start count against MPTCP); ideal = %g KiB x 8 / "
            "%g Mbit/s = %.0f ms (payload only: headers, the reply's one-way delay and "
            "queueing count against the peer); p50 = each run's median round (of %d)" % (
                P3ROUNDS, P3BYTES / 1024, P3BYTES / 1024, P3RATE, ideal_ms, P3ROUNDS))

    def goal(v, ok, fail):
        return False if fail else (ok(v[1]) if v else None)
    ok50 = goal(p50["mrc"], lambda x: x <= 1.2, failed["mrc"])
    okslow = goal(slow["mrc"], lambda x: x <= 1.2, failed["mrc"])
    okratio = False if failed["mrc"] or failed["tcp"] else (ratio >= 1.5 if ratio else None)
    row(what + ": p50 round time / ideal", fmt(p50["mrc"]), fmt(p50["mptcp"]), fmt(p50["tcp"]),
        "ideal %.0f ms" % ideal_ms, "", "mrc <= 1.2", verdict(ok50),
        "; ".join(x for x in (note, fnote) if x))
    rtx = {}
    for peer in ("mrc", "tcp"):
        rs = [r for r in sel("p3", peer) if "retrans" in r and r.get("rounds")]
        if rs:
            rtx[peer] = sum(r["retrans"] for r in rs) / sum(r["rounds"] for r in rs)
    derived["p3"]["retrans_per_flow_round"] = rtx
    # mptcp_joins: one record per flow, each with the run's total
    joins = {r["run"]: r["mptcp_joins"] for r in sel("p3", "mptcp") if "mptcp_joins" in r}
    conns = sum(r.get("rounds", 0) for r in sel("p3", "mptcp") if r["run"] in joins)
    jpc = sum(joins.values()) / conns if conns else None
    derived["p3"]["mptcp_joins_per_connection"] = jpc
    notes99 = ["each run's slowest round of its %d, then min / median over the runs" % P3ROUNDS]
    if rtx:
        notes99.append("packets retransmitted per flow and round: %s" % ", ".join(
            "%s %.1f" % ("TCP" if k == "tcp" else k, v) for k, v in rtx.items()))
    if jpc is not None:
        notes99.append("MPTCP subflows joined per connection: %.1f (of 3 possible)" % jpc)
    if fshort:
        notes99.append(fshort)
    row(what + ": slowest of %d rounds / ideal" % P3ROUNDS, fmt(slow["mrc"]),
        fmt(slow["mptcp"]), fmt(slow["tcp"]), "", "", "mrc <= 1.2", verdict(okslow),
        "; ".join(notes99))
    row(what + ": slowest of %d rounds, TCP / mrc" % P3ROUNDS, "", "", "",
        "MPTCP/mrc " + fmt(ratio_mp), fmt(ratio) + " (TCP/mrc)", ">= 1.5", verdict(okratio),
        "medians over the runs of each run's slowest round" + ("; " + fshort if fshort else ""))

# ---- P4 loss ------------------------------------------------------------------
p4 = {}
for peer in PEERS3:
    g = []
    for r in sel("p4", peer):
        g.append(goodput(timeline("p4-%s-%d" % (peer, r["run"]))))
        r["goodput_mbit"] = g[-1]
    p4[peer] = g
derived["p4_goodput_mbit"] = p4
if any(p4.values()):
    rel = {}
    for peer in PEERS3:
        a4, a1 = mm(p4[peer]), mm(p1.get(peer, []))
        rel[peer] = (a4[0] / a1[1], a4[1] / a1[1]) if a4 and a1 else None
    derived["p4_relative"] = rel
    row("P4 1 % loss on 1 of 4 rails: goodput / no-loss goodput", fmt(rel["mrc"]), fmt(rel["mptcp"]),
        fmt(rel["tcp"]) + " (on the lossy rail)", "", "", ">= 0.9",
        verdict(rel["mrc"][1] >= 0.9 if rel["mrc"] else None))

# ---- P5 CPU ---------------------------------------------------------------------
p5 = {}
for peer in ("mrc", "tcp"):
    g, c = [], []
    for r in sel("p5", peer):
        tl = timeline("p5-%s-%d" % (peer, r["run"]))
        gp = goodput(tl, skip_ms=500)
        g.append(gp)
        if r.get("bytes") and r.get("cpu_scope", "inner") == "inner":
            c.append(r["cpu_jiffies"] / r.get("hz", 100) / (r["bytes"] / 1e9))
            r["cpu_s_per_gb"] = c[-1]
    p5[peer] = {"goodput_mbit": g, "cpu_s_per_gb": c}
derived["p5"] = p5
if p5["mrc"]["goodput_mbit"] and p5["tcp"]["goodput_mbit"]:
    gm, gt = mm(p5["mrc"]["goodput_mbit"]), mm(p5["tcp"]["goodput_mbit"])
    cm, ct = mm(p5["mrc"]["cpu_s_per_gb"]), mm(p5["tcp"]["cpu_s_per_gb"])
    row("P5 one unshaped rail: goodput, Mbit/s", fmt(gm, 0), "", fmt(gt, 0), "",
        fmt(gm and gt and div(gm[1], gt[1])) + " (mrc/TCP)", "(reported)", "info")
    row("P5 one unshaped rail: CPU s per GB (whole VM)", fmt(cm, 1), "", fmt(ct, 1), "",
        fmt(cm and ct and div(cm[1], ct[1])) + " (mrc/TCP)", "(reported)", "info")


# ---- how mrc sent (mrcpp: the sender's MRC_INFO) ----------------------------------
def burst_share(recs):
    """[% of each run's packets that left in bursts] of mrc records."""
    return [100.0 * r["mrc_tx_burst_pkts"] / r["mrc_tx_pkts"] for r in recs
            if r.get("mrc_tx_pkts")]


bursts = {m: burst_share(sel(m, "mrc")) for m in ("p1", "p5")}
derived["mrc_burst_pct"] = bursts
if any(bursts.values()):
    row("mrc packets sent in UDP GSO bursts, %: P1 (shaped rails) ; P5 (unshaped)",
        fmt(mm(bursts["p1"]), 1) + " ; " + fmt(mm(bursts["p5"]), 1), "", "", "", "",
        "(reported)", "info", "P1 at %g Mbit/s per rail must stay per packet (0)" % RATE
        if RATE else "")

# ---- P6 latency ---------------------------------------------------------------------
p6 = {}
for peer in ("mrc", "tcp", "udp"):
    p6[peer] = {"p50_us": [r.get("p50_us") for r in sel("p6", peer)],
                "p99_us": [r.get("p99_us") for r in sel("p6", peer)]}
derived["p6"] = p6
if any(p6[p]["p50_us"] for p in p6):
    m50, t50, u50 = (mm(p6[p]["p50_us"]) for p in ("mrc", "tcp", "udp"))
    m99, t99, u99 = (mm(p6[p]["p99_us"]) for p in ("mrc", "tcp", "udp"))
    row("P6 64 B ping-pong: median RTT, us", fmt(m50, 0), "", fmt(t50, 0), "UDP " + fmt(u50, 0),
        fmt(m50 and t50 and div(m50[1], t50[1])) + " (mrc/TCP)", "(reported)", "info")
    row("P6 64 B ping-pong: p99 RTT, us", fmt(m99, 0), "", fmt(t99, 0), "UDP " + fmt(u99, 0),
        fmt(m99 and t99 and div(m99[1], t99[1])) + " (mrc/TCP)", "(reported)", "info")

# ---- cost: CPU of every peer in every metric, events per GB and per round trip -------
def cpu_s(r):
    return r["cpu_jiffies"] / r.get("hz", 100) if "cpu_jiffies" in r else None



def per_gb(metrics, peers):
    """{peer: [CPU s per GB of each run]} over the records of metrics."""
    out = {}
    for peer in peers:
        out[peer] = [cpu_s(r) / (r["bytes"] / 1e9) for m in metrics for r in sel(m, peer)
                     if r.get("bytes") and cpu_s(r) is not None]
    return out


def cpu_row(label, d, peers, ref="tcp"):
    v = {p: mm(d.get(p, [])) for p in peers}
    if not any(v.values()):
        return
    rt = fmt(v["mrc"] and v.get(ref) and div(v["mrc"][1], v[ref][1])) + " (mrc/%s)" % ref.upper()
    row(label, fmt(v["mrc"], 1), fmt(v.get("mptcp"), 1) if "mptcp" in peers else "",
        fmt(v.get("tcp"), 1), ("UDP " + fmt(v.get("udp"), 1)) if "udp" in peers else "", rt,
        "(reported)", "info")


cost = {}
for m, label in (("p1", "P1"), ("p4", "P4")):
    cost[m] = per_gb([m], PEERS3)
    cpu_row("%s CPU s per GB delivered (whole VM)" % label, cost[m], PEERS3)
cost["p2"] = per_gb(["p2-blackhole", "p2-linkdown"], PEERS3)
cpu_row("P2 CPU s per GB delivered, both failures (whole VM)", cost["p2"], PEERS3)
# P3: one CPU reading per run and peer (all rounds, handshakes included);
# bytes = what the flows' completed rounds sent
cost["p3"] = {}
for peer in PEERS3:
    runs = {}
    for r in sel("p3", peer):
        k = runs.setdefault(r["run"], {"cpu": None, "bytes": 0})
        if "run_cpu_jiffies" in r:
            k["cpu"] = r["run_cpu_jiffies"] / r.get("hz", 100)
        k["bytes"] += r.get("bytes", 0)
    cost["p3"][peer] = [k["cpu"] / (k["bytes"] / 1e9) for k in runs.values()
                        if k["cpu"] is not None and k["bytes"]]
cpu_row("P3 CPU s per GB of rounds (whole VM, handshakes included)", cost["p3"], PEERS3)
cost["p6"] = {p: [cpu_s(r) * 1e6 / r["n"] for r in sel("p6", p)
                  if r.get("n") and cpu_s(r) is not None] for p in ("mrc", "tcp", "udp")}
v = {p: mm(cost["p6"][p]) for p in cost["p6"]}
if any(v.values()):
    row("P6 CPU us per round trip (whole VM)", fmt(v["mrc"], 0), "", fmt(v["tcp"], 0),
        "UDP " + fmt(v["udp"], 0), fmt(v["mrc"] and v["udp"] and div(v["mrc"][1], v["udp"][1])) +
        " (mrc/UDP)", "(reported)", "info")

# Events (tools/bench/guest.sh evstat_*): counts of the whole VM during the
# run, per GB delivered (P5) and per round trip (P6).
EVROWS = (("packets sent (net_dev_xmit)", ("packets",)),
          ("slab allocations (kmalloc + kmem_cache_alloc)", ("kmalloc", "cache_alloc")),
          ("page allocations", ("page_alloc",)),
          ("timer starts (timer + hrtimer)", ("timer", "hrtimer")),
          ("context switches", ("switch",)),
          ("softirqs", ("softirq",)),
          ("skbs freed as drops (kfree_skb)", ("skb_drop",)))


def ev_count(r, keys):
    if any("ev_" + k not in r for k in keys):
        return None
    return sum(r["ev_" + k] for k in keys)


ev = {"p5": {}, "p6": {}}
for label, keys in EVROWS:
    d5 = {p: [ev_count(r, keys) / (r["bytes"] / 1e9) for r in sel("p5", p)
              if r.get("bytes") and ev_count(r, keys) is not None] for p in ("mrc", "tcp")}
    d6 = {p: [ev_count(r, keys) / r["n"] for r in sel("p6", p)
              if r.get("n") and ev_count(r, keys) is not None] for p in ("mrc", "tcp", "udp")}
    ev["p5"][label], ev["p6"][label] = d5, d6
    v5 = {p: mm(d5[p]) for p in d5}
    if v5["mrc"] or v5["tcp"]:
        f5 = {p: v5[p] and (v5[p][0] / 1000, v5[p][1] / 1000) for p in v5}
        row("P5 per GB delivered, thousands: %s" % label, fmt(f5["mrc"], 1), "", fmt(f5["tcp"], 1),
            "", fmt(v5["mrc"] and v5["tcp"] and v5["tcp"][1] and v5["mrc"][1] / v5["tcp"][1]) +
            " (mrc/TCP)", "(reported)", "info")
for label, keys in EVROWS:
    d6 = ev["p6"][label]
    v6 = {p: mm(d6[p]) for p in d6}
    if v6["mrc"] or v6["udp"]:
        row("P6 per round trip: %s" % label, fmt(v6["mrc"], 2), "", fmt(v6["tcp"], 2),
            "UDP " + fmt(v6["udp"], 2), fmt(v6["mrc"] and v6["udp"] and v6["udp"][1] and
                                           v6["mrc"][1] / v6["udp"][1]) + " (mrc/UDP)",
            "(reported)", "info")
derived["cost"] = {"cpu": cost, "events": ev}

# ---- A/B of the mechanisms' module parameters (same boot) ----------------------------
ab = {}
for r in sel("ab-p5", "mrc"):
    if r.get("bytes"):
        k = ab.setdefault((r["param"], str(r["value"])), {"gp": [], "cpu": [], "p50": [], "p99": []})
        if r.get("cpu_scope", "inner") == "inner":
            k["cpu"].append(r["cpu_jiffies"] / r.get("hz", 100) / (r["bytes"] / 1e9))
        k["gp"].append(goodput(timeline(r["tag"]), skip_ms=500))
for r in sel("ab-p6", "mrc"):
    k = ab.setdefault((r["param"], str(r["value"])), {"gp": [], "cpu": [], "p50": [], "p99": []})
    k["p50"].append(r.get("p50_us"))
    k["p99"].append(r.get("p99_us"))
derived["ab"] = {"%s=%s" % k: v for k, v in ab.items()}
for (param, value), k in ab.items():
    cm, gm = mm(k["cpu"]), mm(k["gp"])
    m50, m99 = mm([x for x in k["p50"] if x]), mm([x for x in k["p99"] if x])
    ct = mm(p5["tcp"]["cpu_s_per_gb"]) if p5.get("tcp") else None
    gt = mm(p5["tcp"]["goodput_mbit"]) if p5.get("tcp") else None
    u50 = mm(p6["udp"]["p50_us"]) if p6.get("udp") else None
    t99 = mm(p6["tcp"]["p99_us"]) if p6.get("tcp") else None
    row("A/B %s=%s: P5 CPU s per GB ; goodput Mbit/s ; P6 p50 ; p99 us" % (param, value),
        "%s ; %s ; %s ; %s" % (fmt(cm, 1), fmt(gm, 0), fmt(m50, 0), fmt(m99, 0)), "", "", "",
        "CPU %s, goodput %s (mrc/TCP); p50 %s (mrc/UDP); p99 %s (mrc/TCP)" % (
            fmt(cm and ct and div(cm[1], ct[1])), fmt(gm and gt and div(gm[1], gt[1])),
            fmt(m50 and u50 and div(m50[1], u50[1])), fmt(m99 and t99 and div(m99[1], t99[1]))),
        "(reported)", "info")

# ---- P7 memory ---------------------------------------------------------------------
p7 = {}
for peer in ("mrc", "tcp"):
    idle = sel("p7-idle", peer)
    fill = sel("p7-fill", peer)
    p7[peer] = {
        "idle_kb_per_conn": [r["memfree_kb"] / r["conns"] for r in idle],
        "idle_slab_kb_per_conn": [r["slab_kb"] / r["conns"] for r in idle],
        "idle_obj_kb_per_conn": [r["slab_obj_b"] / 1024 / r["conns"] for r in idle
                                 if "slab_obj_b" in r],
        "fill_kb_per_mb": [r["memfree_kb"] / (r["bytes"] / 2**20) for r in fill if r.get("bytes")],
        # SO_MEMINFO: what the sender's and the receiver's socket are charged
        "fill_charged_kb_per_mb": [(r.get("wmem", 0) + r.get("rmem", 0)) / 1024 / (r["bytes"] / 2**20)
                                   for r in fill if r.get("bytes") and "wmem" in r],
        "fill_mb": [r["bytes"] / 2**20 for r in fill],
    }
derived["p7"] = p7
if p7["mrc"]["idle_kb_per_conn"]:
    d = {p: {k: mm(v) for k, v in p7[p].items()} for p in p7}
    row("P7 kernel memory per idle connection (both ends), kB: MemFree drop / Slab growth",
        fmt(d["mrc"]["idle_kb_per_conn"], 1) + " ; " + fmt(d["mrc"]["idle_slab_kb_per_conn"], 1), "",
        fmt(d["tcp"]["idle_kb_per_conn"], 1) + " ; " + fmt(d["tcp"]["idle_slab_kb_per_conn"], 1), "",
        "", "(reported)", "info")
    om, ot = d["mrc"]["idle_obj_kb_per_conn"], d["tcp"]["idle_obj_kb_per_conn"]
    if om and ot:
        row("P7 slab objects per idle connection (both ends; caches shrunk, "
            "active objects x size), kB", fmt(om, 2), "", fmt(ot, 2), "",
            fmt(om[1] / ot[1]) + " (mrc/TCP)", "(reported)", "info")
    row("P7 memory charged to the two sockets per MB buffered (receiver not reading; "
        "SO_MEMINFO wmem + rmem), kB/MB",
        fmt(d["mrc"]["fill_charged_kb_per_mb"], 0), "", fmt(d["tcp"]["fill_charged_kb_per_mb"], 0),
        "buffered MB: mrc %s, TCP %s" % (fmt(d["mrc"]["fill_mb"], 1), fmt(d["tcp"]["fill_mb"], 1)),
        fmt(d["mrc"]["fill_charged_kb_per_mb"] and d["tcp"]["fill_charged_kb_per_mb"] and
            d["mrc"]["fill_charged_kb_per_mb"][1] / d["tcp"]["fill_charged_kb_per_mb"][1]) + " (mrc/TCP)",
        "(reported)", "info")
    row("P7 MemFree drop per MB buffered (receiver not reading; noisy), kB/MB",
        fmt(d["mrc"]["fill_kb_per_mb"], 0), "", fmt(d["tcp"]["fill_kb_per_mb"], 0),
        "buffered MB: mrc %s, TCP %s" % (fmt(d["mrc"]["fill_mb"], 1), fmt(d["tcp"]["fill_mb"], 1)),
        "", "(reported)", "info")

# ---- Soft-RoCE -----------------------------------------------------------------------
# In the one-VM fabric (two namespaces) rxe cannot work on 6.1; the note
# says why.  The comparison itself runs in two VMs (tools/bench/twovm.sh).
for r in sel("rxe"):
    if r.get("status") == "ok":
        row("Soft-RoCE in the fabric (rdma_rxe, ib_send_bw, rail 0): Mbit/s", "", "", "",
            fmt(r["bw_mbit"], 1), "", "(reported)", "info")
    else:
        row("Soft-RoCE in the one-VM fabric (rdma_rxe + perftest)", "", "", "", "n/a", "", "",
            "n/a", str(r.get("reason", ""))[:300])
tv = {r["peer"]: r for r in sel("twovm")}
derived["twovm"] = tv
if tv:
    rate2 = float(tv[next(iter(tv))].get("rate_mbit", RATE) or RATE)

    def tvr(peer):
        r = tv.get(peer)
        if not r or r.get("status") != "ok":
            return None
        return (r["bw_mbit"] if peer == "rxe" else r["mbit"]) / rate2

    m, t, x = tvr("mrc"), tvr("tcp"), tvr("rxe")
    why = "; ".join("%s: %s" % (p, str(tv[p].get("reason", ""))[:200])
                    for p in tv if tv[p].get("status") != "ok")
    row("Soft-RoCE vs mrc vs TCP, two VMs, one virtio-net link at %g Mbit/s: goodput / link rate"
        % rate2, fmt(m), "", fmt(t), ("rxe " + fmt(x)) if x is not None else "rxe n/a",
        fmt(m / x) + " (mrc/rxe)" if m and x else "", "(reported)", "info", why)

# ---- output ------------------------------------------------------------------------
os.makedirs(a.out, exist_ok=True)
when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
kind = "QUICK" if a.quick == "1" else "full"
head = ("make bench (%s run), %s, commit %s, kernel %s; rails %s Mbit/s, %s ms per hop, "
        "%s runs each; %s other QEMU VMs running on the host at the end of the run; "
        "values are min / median over the runs." % (
            kind, when, a.commit, meta.get("kernel"), meta.get("rate_mbit"), meta.get("delay_ms"),
            meta.get("runs"), a.concurrent_vms))
lines = [head, "",
         "| metric | mrc | MPTCP | TCP | other | ratio | goal | result |",
         "|---|---|---|---|---|---|---|---|"]
notes = []
for m, x1, x2, x3, x4, rt, g, res, note in rows:
    lines.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (m, x1, x2, x3, x4, rt, g, res))
    if note:
        notes.append("- %s: %s" % (m, note))
if notes:
    lines += ["", "Notes:"] + notes
with open(os.path.join(a.out, "bench.md"), "w") as f:
    f.write("\n".join(lines) + "\n")
with open(os.path.join(a.out, "bench.json"), "w") as f:
    json.dump({"header": head, "meta": meta, "commit": a.commit, "quick": a.quick == "1",
               "date": when, "records": recs,
               "derived": {k: v for k, v in derived.items()}}, f, indent=1, default=str)
print("\n".join(lines))

# ---- plots ---------------------------------------------------------------------------
try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("report: matplotlib missing, no plots")
    raise SystemExit(0)

for kind in ("blackhole", "linkdown"):
    rs = [r for r in sel("p2-" + kind) if r["run"] == 1]
    if not rs:
        continue
    fig, ax = plt.subplots(figsize=(9, 4.5))
    for r in rs:
        tl = timeline("p2-%s-%s-1" % (kind, r["peer"]))
        if not tl:
            continue
        f0 = r["fail_ms"]
        xs, ys = [], []
        for i in range(0, len(tl) - 10, 5):   # 100 ms windows, 50 ms steps
            w = tl[i:i + 10]
            xs.append((w[0][0] - f0) / 1000)
            ys.append(sum(b for _, b in w) * 8 / 0.1 / 1e6)
        ax.plot(xs, ys, label=r["peer"])
    ax.axvline(0, color="red", ls="--", label="failure")
    ax.axvline((rs[0]["heal_ms"] - rs[0]["fail_ms"]) / 1000, color="green", ls="--", label="healed")
    ax.set_xlabel("seconds since the failure")
    ax.set_ylabel("goodput, Mbit/s (100 ms windows)")
    ax.set_title("P2 %s, run 1 (%s)" % (kind, kind == "blackhole" and
                                        "netem loss 100% on one spine link" or "rail 0 down"))
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(a.out, "p2-%s.png" % kind), dpi=90)
    plt.close(fig)

if any(p3[p]["pooled"] for p in PEERS3):
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for peer in PEERS3:
        v = p3[peer]["pooled"]
        if v:
            ax.step(v, [(i + 1) / len(v) for i in range(len(v))], where="post",
                    label="%s (%d rounds%s)" % (peer, len(v), ", %d failed: not shown" %
                                                p3[peer]["failed"] if p3[peer]["failed"] else ""))
    ax.axvline(1.2, color="grey", ls="--", label="goal for mrc: 1.2")
    ax.set_xlabel("round time / ideal (%.0f ms: %g KiB per flow at %g Mbit/s)" % (
        ideal_ms, P3BYTES / 1024, P3RATE))
    ax.set_ylabel("CDF")
    ax.set_title("P3 rounds of permutation traffic, %s pairs, 2 spines" % meta.get("pairs"))
    ax.legend()
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(os.path.join(a.out, "p3-cdf.png"), dpi=90)
    plt.close(fig)
