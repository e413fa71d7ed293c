#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""demo-tcp.py - the TCP side of "make demo": one TCP connection carrying
a known byte pattern, with the same measurements mrcat makes.

  demo-tcp.py recv PORT TRACE SECONDS [READY]
                                accept one connection, verify every byte,
                                append "EPOCH_MS BYTES" to TRACE at most
                                every 100 ms, print a summary at EOF or
                                SECONDS after the connection (a stalled
                                TCP may take that long); creates the file
                                READY once it listens
  demo-tcp.py send ADDR PORT SECONDS
                                send the pattern for SECONDS, then close

Summary (the receiver's last line), as mrcat prints it:
  role=recv bytes=N errors=N elapsed_ms=N mbit=N gap_ms=N
gap_ms is the longest time between two reads that returned data.
"""

import random
import socket
import sys
import time

BLOCK = 65536
PATTERN = random.Random(1).randbytes(BLOCK)


def now_ms():
    return int(time.time() * 1000)


def recv(port, trace_path, secs, ready=None):
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("0.0.0.0", port))
    srv.listen(1)
    if ready:
        open(ready, "w").close()
    conn, _ = srv.accept()
    trace = open(trace_path, "a")
    total = errors = gap = 0
    start = last = traced = now_ms()
    conn.settimeout(0.1)
    buf = bytearray(BLOCK)
    view = memoryview(buf)
    while now_ms() - start < secs * 1000:
        try:
            n = conn.recv_into(view)
        except socket.timeout:
            continue
        if not n:
            break
        t = now_ms()
        gap = max(gap, t - last)
        last = t
        off = total % BLOCK
        first = min(n, BLOCK - off)
        if view[:first] != PATTERN[off:off + first] or \
           view[first:n] != PATTERN[:n - first]:
            errors += 1
        total += n
        if t - traced >= 100:
            traced = t
            trace.write(f"{t} {total}\n")
            trace.flush()
    elapsed = max(now_ms() - start, 1)
    print(f"role=recv bytes={total} errors={errors} elapsed_ms={elapsed} "
          f"mbit={total * 8 // 1000 // elapsed} gap_ms={gap}", flush=True)
    return 1 if errors else 0


def send(addr, port, secs):
    s = socket.create_connection((addr, port))
    end = time.time() + secs
    data = PATTERN * 2
    off = 0
    s.settimeout(0.2)
    while time.time() < end:
        try:
            n = s.send(data[off:off + BLOCK])
        except socket.timeout:
            continue
        off = (off + n) % BLOCK
    s.close()
    return 0


def main():
    if len(sys.argv) in (5, 6) and sys.argv[1] == "recv":
        return recv(int(sys.argv[2]), sys.argv[3], float(sys.argv[4]),
                    sys.argv[5] if len(sys.argv) == 6 else None)
    if len(sys.argv) == 5 and sys.argv[1] == "send":
        return send(sys.argv[2], int(sys.argv[3]), float(sys.argv[4]))
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
