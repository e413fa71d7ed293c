#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write the seed corpus of the fuzz targets (corpus/<target>/).

Deterministic: the same files every time.  The inputs follow each
target's format (see the comment at the top of fuzz_<target>.c); they
only have to start the fuzzer in interesting places.

usage: mkcorpus.py [DIR]   (default: corpus/ next to this script)
"""
import os
import random
import struct
import sys

rng = random.Random(1)


def be16(v):
    return struct.pack(">H", v & 0xffff)


def be32(v):
    return struct.pack(">I", v & 0xffffffff)


def le16(v):
    return struct.pack("<H", v & 0xffff)


def le32(v):
    return struct.pack("<I", v & 0xffffffff)


# ---- fuzz_wire: one UDP payload each ----

WIRE_VERSION = 2
REQ_BYTES = 676     # every REQ is padded to the largest ACCEPT (32 rails)


def hdr(typ, flags=0, dst=0x1234, src=0x5678, version=WIRE_VERSION):
    return bytes([version, typ]) + be16(flags) + be32(dst) + be32(src)


def data(typ=5, payload=b"hello", msg_len=100, off=10, ev=0x123, tx=0):
    if typ == 4:
        msg_len, off, payload = 0, 0, b""
    return (hdr(typ, 1) + be32(0xfffffff0) + be32(7) + be32(msg_len) +
            be32(off) + be16(ev) + bytes([tx, 0]) + be32(0) + payload)


def ack_part(reason=0):
    sack = b"".join(struct.pack(">Q", v) for v in
                    (0x8000000000000001, 0, 0xffffffffffffffff, 3))
    return (be32(1000) + be32(1001) + sack + be32(1100) + be16(0x3fff) +
            bytes([2, reason]) + be32(5) + be32(3000) + be32(40) + be32(0))


def ack(typ=6, reason=0):
    return hdr(typ, 1) + ack_part(reason)


def data_ack(flags=0x0007, payload=b"reply"):
    """DATA with an ACK part (0x0002) and its CE flag (0x0004)."""
    d = data(payload=b"")
    return hdr(5, flags) + d[12:36] + ack_part() + payload


def req(typ=1, rails=((0, 4), (1, 6)), echo=0x0badcafe, pad=True):
    """A REQ (echo 0, zero-padded to REQ_BYTES) or an ACCEPT (echo set)."""
    out = hdr(typ, 0, 0 if typ == 1 else 0x99) + be16(7000) + be16(7001)
    out += be32(0xffffff00) + be32(512) + be16(1400) + bytes([len(rails), 0])
    out += be32(1 << 20) + be32(0 if typ == 1 else echo)
    for plane, fam in rails:
        addr = bytes([10, 0, plane, 1]) + bytes(12) if fam == 4 else \
            bytes(range(16))
        out += bytes([plane, fam, 0, 0]) + addr
    if typ == 1 and pad:
        out += bytes(REQ_BYTES - len(out))
    return out


def wire_seeds():
    return {
        "data": data(),
        "data-last-byte": data(payload=b"x", msg_len=11, off=10),
        "close": data(4),
        "data-ack": data_ack(),
        "data-ack-trimmed": data_ack(0x0002, b""),
        "ack": ack(),
        "nack": ack(7, 1),
        "req": req(),
        "req-caps": hdr(1, 0xffff, 0) + req()[12:],
        "accept-caps": hdr(2, 0x0001, 0x99) + req(2, ((3, 6),))[12:],
        "accept": req(2, ((3, 6),)),
        "req-32-rails": req(1, tuple((i, 4 + 2 * (i & 1)) for i in range(32))),
        "accept-32-rails": req(2, tuple((i, 4) for i in range(32))),
        "req-unpadded": req(1, ((0, 4),), pad=False),
        "req-v1": hdr(1, version=1) + be16(7000) + be16(7001) +
        be32(5) + be32(512) + be16(1400) + bytes([1, 0]) + be32(1 << 20) +
        bytes([0, 4, 0, 0, 10, 0, 0, 1]) + bytes(12),
        "reset": hdr(3) + be32(4),
        "reset-answering-req": hdr(3, dst=0x5678, src=0xffffff00) + be32(2),
        "probe": hdr(8) + be32(77) + be16(0x3ffe) + be16(0) + be32(123456),
        "probe-ack": hdr(9) + be32(78) + be16(1) + be16(0) + be32(99),
        "probe-challenge": hdr(8, 1) + be32(0x9e3779b9) + be16(5) + be16(0) +
        be32(0x7f4a7c15),
        "probe-ack-challenge": hdr(9, 1) + be32(0x9e3779b9) + be16(5) +
        be16(0) + be32(0x7f4a7c15),
        "short": hdr(5)[:7],
    }


# ---- fuzz_rxwin: ISN, then opcode + arguments ----

def rx_isn(sel, v):
    return bytes([sel]) + le32(v)


def rx_seeds():
    seeds = {}
    # In order across the 2^32 wrap, a SACK after each step.
    ops = b""
    for _ in range(12):
        ops += bytes([10, rng.randrange(4)]) + bytes([11])
    seeds["in-order-wrap"] = rx_isn(1, 0x40) + ops
    # Holes filled out of order, bursts both ways.
    ops = b""
    for _ in range(60):
        ops += bytes([0, rng.randrange(256)])
    ops += bytes([9]) + le16(300) + bytes([200, 0x81])
    ops += bytes([3, 11, 9]) + le16(0) + bytes([255, 0x00, 11])
    seeds["holes"] = rx_isn(0, 0x12345678) + ops
    # Edges: end of the window, 2^31 away, raw PSNs, blind marks, drops.
    ops = b""
    for k in range(8):
        ops += bytes([5, k, 6, k * 31, 2]) + le32(rng.getrandbits(32))
        ops += bytes([8]) + le16(rng.randrange(-3000, 3000))
        ops += bytes([7]) + le16(rng.randrange(0, 2048))
        ops += bytes([4, (k * 37) & 0xff, 1]) + le16(rng.randrange(-40000, 40000))
        ops += bytes([11])
    seeds["edges"] = rx_isn(2, 0x10) + ops
    # Sliding: a full window, then every other PSN far ahead.
    ops = bytes([9]) + le16(1) + bytes([255, 0x01])
    ops += bytes([9]) + le16(2047) + bytes([255, 0x81])
    ops += bytes([10, 7, 10, 7, 10, 7, 10, 7, 11, 9]) + le16(0) + bytes([128, 0x02, 11])
    seeds["slide"] = rx_isn(3, 0) + ops
    return seeds


# ---- fuzz_txwin: size, paths, ISN, clock, EVs, then opcode + b + args ----

def tx_head(size_log, npaths, isn_sel, isn, now_sel, now):
    out = bytes([size_log, npaths - 1]) + bytes([isn_sel]) + le32(isn)
    out += bytes([now_sel]) + le32(now)
    for i in range(npaths):
        out += le16(0x100 + 7 * i)
    return out


def op(code, b, args=b""):
    return bytes([code, b]) + args


def tx_seeds():
    seeds = {}
    # A transfer: bursts, the network, honest ACKs, loss detection,
    # retransmissions.
    ops = b""
    for k in range(20):
        ops += op(2, k, bytes([rng.randrange(64)]) + le16(1000))
        ops += op(16, rng.randrange(1, 60))
        ops += op(7, 0, le16(rng.getrandbits(16)))
        ops += op(6, 0x80, bytes([rng.randrange(64)]))
        ops += op(8, 1)
        ops += op(12, 0, le16(200) + le16(50))
        ops += op(3, k, bytes([0]) + le16(1000))
    seeds["transfer"] = tx_head(6, 4, 1, 100, 1, 50) + ops
    # Timeouts, failed paths, resizes, a late ACK.
    ops = op(2, 0, bytes([40]) + le16(1))
    ops += op(6, 2, bytes([10])) + op(8, 0) + op(16, 0x40, le32(5000000))
    ops += op(13, 0) + op(3, 1, bytes([0]) + le16(2)) + op(14, 0x02)
    ops += op(15, 11) + op(15, 3) + op(15, 6) + op(6, 0x80, bytes([63]))
    ops += op(8, 1) + op(9, 1) + op(12, 2, le32(100) + le16(10))
    seeds["timeout-resize"] = tx_head(7, 3, 0, 0xfffffff0, 0, 0x7ffffff0) + ops
    # Hostile and mutated ACKs around una and nxt.
    ops = op(2, 0, bytes([30]) + le16(100)) + op(5, 0, le16(7))
    ops += op(8, 0)
    for k in range(6):
        ops += op(10, 0, bytes([k, rng.randrange(256), 3]))
        ops += op(11, 0, bytes([0x40 | (k & 0xf), 1, rng.randrange(256), 0,
                                rng.randrange(256), 3]))
        ops += op(4, k, bytes([1, 0]) + le16(5))
    seeds["hostile"] = tx_head(5, 2, 2, 0, 3, 0) + ops
    # Regression: a window that is empty (everything acked), then an
    # ACK whose cum is nxt + 2^31 (its trigger one behind una).
    # hostile_ack(): sel 0x02 (sparse bits: none; trigger from the input;
    # its EV/tx from the window; delay a byte); cum: raw; base: una + 0;
    # trigger: una - 1.
    ops = op(0, 0, le16(100)) + op(5, 0, le16(0)) + op(8, 0)
    ops += op(11, 0, bytes([0x02, 3]) + le32(1001 + 0x80000000) +
              bytes([0, 0, 0, 0xff, 0]))
    seeds["bug-empty-window-cum-nxt-plus-2e31"] = \
        tx_head(6, 1, 0, 1000, 0, 5000) + ops
    return seeds


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else \
        os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
    for target, seeds in (("fuzz_wire", wire_seeds()),
                          ("fuzz_rxwin", rx_seeds()),
                          ("fuzz_txwin", tx_seeds())):
        d = os.path.join(top, target)
        os.makedirs(d, exist_ok=True)
        for name, blob in seeds.items():
            with open(os.path.join(d, name), "wb") as fh:
                fh.write(blob)


if __name__ == "__main__":
    main()
