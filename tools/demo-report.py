#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""demo-report.py RESULTS - the end of "make demo", on the host: a summary
table of the mrc and TCP runs of tools/demo-guest.sh and a plot of
goodput over time (RESULTS/goodput.png; needs python3-matplotlib).

Input files in RESULTS (written by the guest):
  events.txt        "EPOCH_MS NAME": mrc-start fail heal mrc-end,
                    tcp-start tcp-fail tcp-heal tcp-end
  mrc.trace         "EPOCH_MS BYTES": bytes delivered to the receiving
  tcp.trace         application so far (mrcat -T, demo-tcp.py)
  planes.txt        "EPOCH_MS B0 B1 B2 B3": bytes host B received per rail
  mrc-send.out, mrc-recv.out, tcp-recv.out: the summaries
"""

import os
import re
import sys


def read_pairs(path):
    rows = []
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                w = line.split()
                if len(w) >= 2:
                    rows.append([int(x) for x in w])
    return rows


def summary(path):
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        lines = [x for x in f if "role=" in x]
    if not lines:
        return {}
    return dict(re.findall(r"(\w+)=(\w+)", lines[-1]))


def bytes_at(trace, t):
    """Bytes delivered by time t (the last trace point at or before t)."""
    b = 0
    for ts, n in trace:
        if ts > t:
            break
        b = n
    return b


def mbit(nbytes, ms):
    return nbytes * 8 / 1000 / ms if ms > 0 else 0.0


def phases(trace, start, fail, heal, end):
    out = []
    for a, b in ((start, fail), (fail, heal), (heal, end)):
        out.append(mbit(bytes_at(trace, b) - bytes_at(trace, a), b - a))
    return out


def main():
    res = sys.argv[1] if len(sys.argv) > 1 else "results/demo"
    ev = {}
    for row in open(os.path.join(res, "events.txt")).read().split("\n"):
        w = row.split()
        if len(w) == 2:
            ev[w[1]] = int(w[0])
    need = ("mrc-start", "fail", "heal", "mrc-end", "tcp-start", "tcp-fail",
            "tcp-heal", "tcp-end")
    if any(k not in ev for k in need):
        print("demo-report: the demo did not run to its end (events: "
              f"{' '.join(ev) or 'none'}); see {res}/output.log")
        return 1
    mrc = read_pairs(os.path.join(res, "mrc.trace"))
    tcp = read_pairs(os.path.join(res, "tcp.trace"))
    ms, mr = summary(os.path.join(res, "mrc-send.out")), \
        summary(os.path.join(res, "mrc-recv.out"))
    tr = summary(os.path.join(res, "tcp-recv.out"))

    mrc_ok = ms and mr and ms.get("hash") == mr.get("hash") and \
        ms.get("bytes") == mr.get("bytes") and mr.get("errors") == "0"
    tcp_ok = tr and tr.get("errors") == "0"
    mp = phases(mrc, ev["mrc-start"], ev["fail"], ev["heal"], ev["mrc-end"])
    tp = phases(tcp, ev["tcp-start"], ev["tcp-fail"], ev["tcp-heal"],
                ev["tcp-end"]) if tcp else [0.0, 0.0, 0.0]
    fail_s = (ev["fail"] - ev["mrc-start"]) / 1000
    heal_s = (ev["heal"] - ev["mrc-start"]) / 1000

    def mib(d):
        return f"{int(d.get('bytes', 0)) / 2**20:.1f} MiB"

    rows = [
        ("", "mrc, 4 planes", "TCP, plane 0"),
        ("bytes moved", mib(mr), mib(tr)),
        ("bytes moved, mrc / TCP",
         f"{int(mr.get('bytes', 0)) / max(int(tr.get('bytes', 0)), 1):.2f} x" if mr and tr
         else "?", ""),
        ("every byte verified", "yes" if mrc_ok else "NO",
         "yes" if tcp_ok else "NO"),
        ("longest stall", f"{mr.get('gap_ms', '?')} ms",
         f"{tr.get('gap_ms', '?')} ms"),
        (f"goodput before (0-{fail_s:.0f} s)", f"{mp[0]:.1f} Mbit/s",
         f"{tp[0]:.1f} Mbit/s"),
        (f"goodput during ({fail_s:.0f}-{heal_s:.0f} s)", f"{mp[1]:.1f} Mbit/s",
         f"{tp[1]:.1f} Mbit/s"),
        (f"goodput after ({heal_s:.0f} s-end)", f"{mp[2]:.1f} Mbit/s",
         f"{tp[2]:.1f} Mbit/s"),
    ]
    print("\n== summary: a silent spine link failure, mrc and TCP side by side")
    for a, b, c in rows:
        print(f"  {a:<28} {b:>16} {c:>16}")
    print("  mrc sprays over 4 planes, TCP uses one: compare each one's "
          "during/before ratio and\n  the stalls.  TCP moves to another "
          "path only after a retransmission timeout\n  (Linux re-hashes the "
          "flow, and these emulated leaves forward by that hash); on\n  a "
          "fabric that hashes the 5-tuple it would stall until the link heals.\n"
          "  Every rail is shaped to the same rate (MRC_DEMO_RATE, default 50 "
          "Mbit/s; MTU 9000):\n  TCP can fill its one rail, mrc four; what "
          "keeps mrc below 4x is the CPU of\n  the emulated fabric "
          "(Documentation/mrc/performance.rst).")

    png = os.path.join(res, "goodput.png")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("  (no plot: python3-matplotlib is not installed)")
        return 0 if mrc_ok else 1

    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(9, 6.5), sharex=True)
    t0 = ev["mrc-start"]
    planes = read_pairs(os.path.join(res, "planes.txt"))
    for p in range(4):
        xs, ys = [], []
        for a, b in zip(planes, planes[1:]):
            xs.append((b[0] - t0) / 1000)
            ys.append(mbit(b[1 + p] - a[1 + p], b[0] - a[0]))
        ax1.plot(xs, ys, marker=".", label=f"plane {p} (rail rx)")
    xs, ys = [], []
    for a, b in zip(mrc, mrc[1:]):
        if b[0] - a[0] >= 50:
            xs.append((b[0] - t0) / 1000)
            ys.append(mbit(b[1] - a[1], b[0] - a[0]))
    ax1.plot(xs, ys, color="black", linewidth=0.8, label="goodput (all planes)")
    ax1.axvspan(fail_s, heal_s, color="red", alpha=0.1,
                label="spine 0 / plane 0 black-holed")
    ax1.set_ylabel("Mbit/s")
    ax1.set_title("mrc: one connection over 4 planes")
    ax1.legend(fontsize=7, loc="lower left")
    t0 = ev["tcp-start"]
    xs, ys = [], []
    for a, b in zip(tcp, tcp[1:]):
        if b[0] - a[0] >= 50:
            xs.append((b[0] - t0) / 1000)
            ys.append(mbit(b[1] - a[1], b[0] - a[0]))
    ax2.plot(xs, ys, color="black", linewidth=0.8, label="goodput")
    ax2.axvspan((ev["tcp-fail"] - t0) / 1000, (ev["tcp-heal"] - t0) / 1000,
                color="red", alpha=0.1, label="its spine link black-holed")
    ax2.set_ylabel("Mbit/s")
    ax2.set_xlabel("seconds since the connection started")
    ax2.set_title("TCP: one connection on plane 0")
    ax2.legend(fontsize=7, loc="lower left")
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    print(f"  plot: {png}")
    return 0 if mrc_ok and tcp_ok else 1


if __name__ == "__main__":
    sys.exit(main())
