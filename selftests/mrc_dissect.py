#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
#
# mrc_dissect.py - helper of mrc_dissect.sh (the Wireshark dissector,
# tools/wireshark/mrc.lua, on a real capture and on crafted packets):
#
#   mrc_dissect.py peer server PORT READY | client ADDR PORT N READY GO
#       A ping-pong over AF_MRC (ctypes: Python's socket module knows no
#       AF_MRC addresses): the client sends N requests of 3000 bytes, the
#       server answers each with 500 bytes; both check every byte.  Data
#       both ways makes ACKs ride on DATA (ACK_DATA).  The client touches
#       READY after the last answer, then waits for GO to exist before it
#       closes (the script reads the counters of the open connection in
#       between); the server closes when the client has.
#
#   mrc_dissect.py craft OUT [IN]
#       Writes the pcap OUT: IN's packets (its link type), then the
#       crafted mrc packets of CRAFTED (from 192.0.2.1 to 192.0.2.2), each
#       with the drop reason the module's parser gives it.
#
#   mrc_dissect.py crafted-hex
#       Prints CRAFTED, one packet a line: "REASON HEX WHAT" (the drop
#       reason, the UDP payload in hex, the description).  The unit tests
#       (selftests/unit/test_crafted.c) parse each payload with
#       core/wire.c and check it gets REASON: CRAFTED is the single
#       source of the expectations this script checks the dissector with.
#
#   mrc_dissect.py check FIELDS CONN_A CONN_B TRACE MSGS
#       Compares tshark's fields (FIELDS, "tshark -T fields" with the
#       columns of COLUMNS, separator "|") with the connections' counters
#       (CONN_A, CONN_B: "mrcctl -j conn show" of the client's and the
#       server's namespace while open), the mrc_retransmit tracepoint
#       (TRACE, tracefs) and MSGS requests.  Prints one line per check:
#       "ok<TAB>what" or "fail<TAB>what<TAB>evidence".

import ctypes
import json
import os
import re
import socket
import struct
import sys
import time

COLUMNS = ['frame.number', 'ip.src', 'udp.srcport', 'udp.dstport', 'mrc.type', 'mrc.flags',
           'mrc.dst_conn', 'mrc.src_conn', 'mrc.psn', 'mrc.msg_id', 'mrc.msg_len',
           'mrc.offset', 'mrc.ev', 'mrc.tx_count', 'mrc.payload_len', 'mrc.cum_psn',
           'mrc.trig_psn', 'mrc.trig_ev', 'mrc.trig_tx', 'mrc.nack_reason', 'mrc.isn',
           'mrc.echo', 'mrc.n_rails', 'mrc.rail.plane', 'mrc.reason', 'mrc.seq',
           'mrc.challenge', 'mrc.flags.challenge', 'mrc.drop', '_ws.expert.message',
           '_ws.malformed', '_ws.lua.text']
TYPES = {1: 'REQ', 2: 'ACCEPT', 3: 'RESET', 4: 'CLOSE', 5: 'DATA', 6: 'ACK', 7: 'NACK',
         8: 'PROBE', 9: 'PROBE_ACK'}

# ---- the ping-pong ---------------------------------------------------------------

libc = ctypes.CDLL(None, use_errno=True)
REQ_SIZE, REPLY_SIZE = 3000, 500


def mrc_family():
    with open('/sys/module/mrc/parameters/family') as f:
        return int(f.read())


def sockaddr(addr, port):
    a = socket.inet_pton(socket.AF_INET6, '::ffff:' + addr if ':' not in addr else addr)
    return struct.pack('=HHI16s8x', mrc_family(), socket.htons(port), 0, a)


def call(name, *args):
    r = getattr(libc, name)(*args)
    if r < 0:
        e = ctypes.get_errno()
        raise OSError(e, '%s: %s' % (name, os.strerror(e)))
    return r


def send_all(fd, data):
    buf = ctypes.create_string_buffer(data, len(data))
    if call('send', fd, buf, len(data), 0) != len(data):
        raise SystemExit('short send')


def recv_msg(fd, size):
    buf = ctypes.create_string_buffer(size + 1)
    n = call('recv', fd, buf, size + 1, 0)
    return buf.raw[:n]


def pattern(i, size):
    return bytes((i * 7 + j) & 0xff for j in range(size))


def peer(argv):
    fam = mrc_family()
    fd = call('socket', fam, socket.SOCK_SEQPACKET, 0)
    if argv[0] == 'server':
        port, ready = int(argv[1]), argv[2]
        a = sockaddr('::', port)
        call('bind', fd, a, len(a))
        call('listen', fd, 1)
        open(ready, 'w').close()
        c = call('accept', fd, None, None)
        i = 0
        while True:
            m = recv_msg(c, REQ_SIZE)
            if not m:
                break
            if m != pattern(i, REQ_SIZE):
                raise SystemExit('request %d: wrong bytes' % i)
            send_all(c, pattern(i, REPLY_SIZE))
            i += 1
        os.close(c)
        print('server: %d requests' % i)
    else:
        addr, port, n, ready, go = argv[1], int(argv[2]), int(argv[3]), argv[4], argv[5]
        a = sockaddr(addr, port)
        call('connect', fd, a, len(a))
        for i in range(n):
            send_all(fd, pattern(i, REQ_SIZE))
            if recv_msg(fd, REPLY_SIZE) != pattern(i, REPLY_SIZE):
                raise SystemExit('answer %d: wrong bytes' % i)
        open(ready, 'w').close()
        for _ in range(600):
            if os.path.exists(go):
                break
            time.sleep(0.05)
        print('client: %d requests answered' % n)
    os.close(fd)


# ---- crafted packets -------------------------------------------------------------------

def hdr(typ, flags=0, dst=0x11111111, src=0x22222222, version=2):
    return struct.pack('!BBHII', version, typ, flags, dst, src)


def data(psn=5, msg_id=1, msg_len=100, offset=0, ev=3, tx=0, res=0, res2=0):
    return struct.pack('!IIIIHBBI', psn, msg_id, msg_len, offset, ev, tx, res, res2)


def ack(cum=5, base=5, sack=(1, 0, 0, 0), trig_psn=6, trig_ev=3, trig_tx=0, reason=0,
        ce=0, rwnd=300, delay=7, host=0):
    return struct.pack('!II4QIHBBIIII', cum, base, *sack, trig_psn, trig_ev, trig_tx, reason,
                       ce, rwnd, delay, host)


def req(isn=1000, n=1, echo=0, res=0, max_payload=1400, max_msg=65536, plane=0, fam=4,
        rail_res=0, addr=b'\x0a\x00\x00\x01' + bytes(12)):
    part = struct.pack('!HHIIHBBII', 7001, 7002, isn, 256, max_payload, n, res, max_msg, echo)
    for i in range(n):
        part += struct.pack('!BBH16s', plane + i, fam, rail_res, addr)
    return part


def padded(pkt, pad=0):
    return pkt + bytes([pad]) * (676 - len(pkt))


def probe(seq=1, ev=9, res=0, stamp=12345):
    return struct.pack('!IHHI', seq, ev, res, stamp)


# (what, the parser's drop reason, UDP payload).  The reasons are
# mrc_wire_parse()'s: selftests/unit/test_crafted.c checks each (make unit).
CRAFTED = [
    ('DATA with an ACK part', 'none',
     hdr(5, 0x0002) + data() + ack(cum=40, trig_psn=41) + bytes(100)),
    ('DATA with an ACK part, ACK_CE', 'none',
     hdr(5, 0x0007) + data(msg_len=10, offset=5) + ack() + bytes(5)),
    ('NACK no buffer', 'none', hdr(7) + ack(reason=1)),
    ('NACK bad data', 'none', hdr(7, 1) + ack(reason=2)),
    ('ACK with host delay', 'none', hdr(6) + ack(host=55)),
    ('RESET timeout', 'none', hdr(3) + struct.pack('!I', 6)),
    ('window PROBE', 'none', hdr(8) + probe(seq=0)),
    ('ACCEPT, 2 IPv6 rails', 'none',
     hdr(2, 0x0003) + req(n=2, echo=77, fam=6, addr=socket.inet_pton(socket.AF_INET6,
                                                                      'fd00::1'))),
    ('REQ, unknown capability (ignored)', 'none', padded(hdr(1, 0x8003, dst=0) + req())),
    ('1 byte', 'short', b'\x02'),
    ('11 bytes', 'short', hdr(5)[:11]),
    ('version 1', 'version', hdr(5, version=1) + data() + bytes(100)),
    ('version 3', 'version', hdr(6, version=3) + ack()),
    ('type 0', 'type', hdr(0) + bytes(20)),
    ('type 10', 'type', hdr(10) + bytes(20)),
    ('DATA, 20 bytes', 'length', hdr(5) + bytes(8)),
    ('DATA flag ACK, ACK part cut', 'length', hdr(5, 0x0002) + data() + ack()[:40]),
    ('CLOSE with payload', 'length', hdr(4) + data(msg_len=0) + b'x'),
    ('ACK, 75 bytes', 'length', (hdr(6) + ack())[:75]),
    ('ACK, 77 bytes', 'length', hdr(6) + ack() + b'\0'),
    ('REQ, 675 bytes', 'length', padded(hdr(1, dst=0) + req())[:675]),
    ('REQ, 30 bytes', 'length', hdr(1, dst=0) + bytes(18)),
    ('ACCEPT, n_rails past the packet', 'length', hdr(2) + req(n=2, echo=5)[:44]),
    ('RESET, 15 bytes', 'length', hdr(3) + b'\0\0\0'),
    ('PROBE, 28 bytes', 'length', hdr(8) + probe() + bytes(4)),
    ('DATA, undefined flag', 'reserved', hdr(5, 0x0010) + data() + bytes(100)),
    ('DATA, ACK_CE without ACK', 'reserved', hdr(5, 0x0004) + data() + bytes(100)),
    ('DATA, reserved byte', 'reserved', hdr(5) + data(res=1) + bytes(100)),
    ('ACK, undefined flag', 'reserved', hdr(6, 0x0002) + ack()),
    ('REQ, padding not zero', 'reserved', padded(hdr(1, dst=0) + req(), 1)),
    ('REQ, echo set', 'reserved', padded(hdr(1, dst=0) + req(echo=9))),
    ('ACCEPT, unknown capability', 'reserved', hdr(2, 0x0004) + req(echo=9)),
    ('rail, IPv4 with bytes past 4', 'reserved', hdr(2) + req(echo=9, addr=bytes(15) + b'\1')),
    ('RESET with a flag', 'reserved', hdr(3, 1) + struct.pack('!I', 1)),
    ('PROBE, reserved', 'reserved', hdr(8) + probe(res=1)),
    ('DATA beyond its message', 'bad-field', hdr(5) + data(msg_len=100, offset=50) +
     bytes(51)),
    ('DATA, ev 2^14', 'bad-field', hdr(5) + data(ev=0x4000) + bytes(100)),
    ('CLOSE, msg_len set', 'bad-field', hdr(4) + data(msg_len=1)),
    ('ACK with a NACK reason', 'bad-field', hdr(6) + ack(reason=3)),
    ('NACK, reason 0', 'bad-field', hdr(7) + ack()),
    ('NACK, reason 4', 'bad-field', hdr(7) + ack(reason=4)),
    ('DATA, ACK part with a NACK reason', 'bad-field',
     hdr(5, 0x0002) + data() + ack(reason=1) + bytes(100)),
    ('REQ, 0 rails', 'bad-field', padded(hdr(1, dst=0) + req(n=0))),
    ('REQ, 33 rails', 'bad-field', padded(hdr(1, dst=0) + req(n=0)[:14] + b'\x21' +
                                          req(n=0)[15:])),
    ('REQ, isn 0', 'bad-field', padded(hdr(1, dst=0) + req(isn=0))),
    ('REQ, dst_conn set', 'bad-field', padded(hdr(1) + req())),
    ('REQ, max_payload 63', 'bad-field', padded(hdr(1, dst=0) + req(max_payload=63))),
    ('ACCEPT, echo 0', 'bad-field', hdr(2) + req()),
    ('rail, family 5', 'bad-field', hdr(2) + req(echo=9, fam=5)),
    ('rail, plane 32', 'bad-field', hdr(2) + req(echo=9, plane=32)),
    ('RESET, reason 7', 'bad-field', hdr(3) + struct.pack('!I', 7)),
    ('PROBE_ACK, ev 2^14', 'bad-field', hdr(9, 1) + probe(ev=0x4000)),
    ('ACK, dst_conn 0', 'bad-field', hdr(6, dst=0) + ack()),
    ('DATA, src_conn 0', 'bad-field', hdr(5, src=0) + data() + bytes(100)),
    # Two faults each: the parser's order of checks decides which counts.
    ('1 byte, version 1', 'short', b'\x01'),
    ('version 1, type 0', 'version', hdr(0, version=1) + bytes(20)),
    ('type 10, header only', 'type', hdr(10)),
    ('DATA, 20 bytes, undefined flag', 'length', hdr(5, 0x0010) + bytes(8)),
    ('CLOSE with payload, undefined flag', 'length',
     hdr(4, 0x0010) + data(msg_len=0) + b'x'),
    ('DATA, reserved byte, ev 2^14', 'reserved',
     hdr(5) + data(res=1, ev=0x4000) + bytes(100)),
    ('DATA, reserved byte, ACK part with a NACK reason', 'reserved',
     hdr(5, 0x0002) + data(res2=1) + ack(reason=1) + bytes(100)),
    ('DATA, reserved byte, src_conn 0', 'reserved',
     hdr(5, src=0) + data(res=1) + bytes(100)),
    ('ACK, 75 bytes, undefined flag', 'length', (hdr(6, 0x0002) + ack())[:75]),
    ('NACK, reason 0, undefined flag', 'reserved', hdr(7, 0x0002) + ack()),
    ('REQ, 675 bytes, echo set', 'length', padded(hdr(1, dst=0) + req(echo=9))[:675]),
    ('REQ, echo set, dst_conn set', 'reserved', padded(hdr(1) + req(echo=9))),
    ('REQ, 0 rails, padding not zero', 'bad-field', padded(hdr(1, dst=0) + req(n=0), 1)),
    ('REQ, padding not zero, max_payload 63', 'reserved',
     padded(hdr(1, dst=0) + req(max_payload=63), 1)),
    ('ACCEPT, unknown capability, 0 rails', 'reserved', hdr(2, 0x0004) + req(n=0, echo=9)),
    ('ACCEPT, echo 0, rail reserved', 'bad-field', hdr(2) + req(rail_res=1)),
    ('rail, reserved, family 5', 'reserved', hdr(2) + req(echo=9, fam=5, rail_res=1)),
    ('rail, IPv4 with bytes past 4, plane 32', 'reserved',
     hdr(2) + req(echo=9, plane=32, addr=bytes(15) + b'\1')),
    ('RESET, 15 bytes, a flag', 'length', hdr(3, 1) + b'\0\0\0'),
    ('RESET with a flag, reason 7', 'reserved', hdr(3, 1) + struct.pack('!I', 7)),
    ('PROBE, reserved, ev 2^14', 'reserved', hdr(8) + probe(res=1, ev=0x4000)),
]
# to a port mrc_dissect.sh has tshark decode as mrc ("Decode As")
CRAFT_SRC, CRAFT_DST, CRAFT_PORT = '192.0.2.1', '192.0.2.2', 5000


def ipv4_udp(payload, sport=0xC000 | 1):
    udp = struct.pack('!HHHH', sport, CRAFT_PORT, 8 + len(payload), 0) + payload
    ip = struct.pack('!BBHHHBBH4s4s', 0x45, 0, 20 + len(udp), 0, 0x4000, 64, 17, 0,
                     socket.inet_aton(CRAFT_SRC), socket.inet_aton(CRAFT_DST))
    s = sum(struct.unpack('!10H', ip))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    ip = ip[:10] + struct.pack('!H', ~s & 0xffff) + ip[12:]
    return ip + udp


def crafted_hex():
    for what, why, p in CRAFTED:
        print('%s %s %s' % (why, p.hex(), what))


def craft(argv):
    out = argv[0]
    linktype, recs, ts = 1, [], int(time.time())
    if len(argv) > 1 and os.path.getsize(argv[1]) >= 24:
        with open(argv[1], 'rb') as f:
            head = f.read(24)
            magic = struct.unpack('<I', head[:4])[0]
            if magic not in (0xa1b2c3d4, 0xa1b23c4d):
                raise SystemExit('%s: not a little-endian pcap' % argv[1])
            linktype = struct.unpack('<I', head[20:24])[0]
            while True:
                h = f.read(16)
                if len(h) < 16:
                    break
                sec, frac, incl, orig = struct.unpack('<IIII', h)
                recs.append((h, f.read(incl)))
                ts = sec + 1
            nsec = magic == 0xa1b23c4d
    else:
        nsec = False
    for _, _, p in CRAFTED:
        pkt = ipv4_udp(p)
        if linktype == 276:	# Linux cooked capture v2 (tcpdump -i any)
            frame = struct.pack('!HHIHBB8s', 0x0800, 0, 1, 1, 0, 6, bytes(8)) + pkt
        elif linktype == 113:	# Linux cooked capture
            frame = struct.pack('!HHH8sH', 0, 1, 6, bytes(8), 0x0800) + pkt
        elif linktype == 1:	# Ethernet
            frame = bytes(6) + b'\x02' + bytes(5) + b'\x08\x00' + pkt
        else:
            raise SystemExit('link type %d: cannot add packets' % linktype)
        recs.append((struct.pack('<IIII', ts, 0, len(frame), len(frame)), frame))
    with open(out, 'wb') as f:
        f.write(struct.pack('<IHHiIII', 0xa1b23c4d if nsec else 0xa1b2c3d4, 2, 4, 0, 0,
                            262144, linktype))
        for h, d in recs:
            f.write(h + d)


# ---- checks -----------------------------------------------------------------------------

results = []


def check(what, ok, evidence=''):
    results.append('ok\t' + what if ok else 'fail\t%s\t%s' % (what, evidence))


def ints(v):
    return [int(x, 0) for x in v.split(',')] if v else []


def first(v, base=10):
    return int(v.split(',')[0], base) if v else None


def analyse(argv):
    fields, conn_a, conn_b, trace, msgs = argv[0], argv[1], argv[2], argv[3], int(argv[4])
    rows = []
    with open(fields) as f:
        for line in f:
            v = line.rstrip('\n').split('|')
            if len(v) != len(COLUMNS):
                check('tshark output has %d columns' % len(COLUMNS), False, line)
                continue
            rows.append(dict(zip(COLUMNS, v)))
    # the capture's mrc packets (it has ARP and IPv6 neighbour discovery too)
    real = [r for r in rows if r['ip.src'] != CRAFT_SRC and r['udp.dstport'] == '4796']
    crafted = [r for r in rows if r['ip.src'] == CRAFT_SRC]

    # Every packet of the capture is mrc, decoded, accepted by the parser's rules.
    undecoded = [r['frame.number'] for r in real if not r['mrc.type']]
    check('every captured packet decoded as mrc (%d)' % len(real), real and not undecoded,
          'frames without mrc.type: %s' % undecoded[:20])
    noisy = [(r['frame.number'], r['mrc.drop'], r['_ws.expert.message'], r['_ws.malformed'],
              r['_ws.lua.text']) for r in real
             if r['mrc.drop'] != 'none' or r['_ws.expert.message'] or r['_ws.malformed'] or
             r['_ws.lua.text']]
    check('no expert info, no malformed packet, no Lua error on real traffic', not noisy,
          '%s' % noisy[:10])
    for r in real:
        r['t'] = int(r['mrc.type'] or 0)
    seen = sorted({TYPES.get(r['t'], str(r['t'])) for r in real})
    want = sorted(TYPES.values())
    check('the capture has every packet type: %s' % ' '.join(seen), seen == want,
          'missing: %s' % sorted(set(want) - set(seen)))

    # The connections: ids from the dumps (client A, server B).
    ca, cb = json.load(open(conn_a)), json.load(open(conn_b))
    ca = [c for c in ca if c.get('state') == 'established']
    cb = [c for c in cb if c.get('state') == 'established']
    if len(ca) != 1 or len(cb) != 1:
        check('one established connection on each side', False, '%s %s' % (ca, cb))
        return
    ca, cb = ca[0], cb[0]
    ida, idb = int(ca['id'], 16), int(cb['id'], 16)
    check('the ids match across the two dumps (%08x, %08x)' % (ida, idb),
          int(ca['peer_id'], 16) == idb and int(cb['peer_id'], 16) == ida,
          '%s %s' % (ca, cb))
    reqs = [r for r in real if r['t'] == 1 and first(r['mrc.src_conn'], 16) == ida]
    accs = [r for r in real if r['t'] == 2 and first(r['mrc.src_conn'], 16) == idb and
            first(r['mrc.dst_conn'], 16) == ida]
    if not reqs or not accs:
        check('the handshake of the connection decoded', False, '%d REQ %d ACCEPT' %
              (len(reqs), len(accs)))
        return
    isn = {ida: first(reqs[0]['mrc.isn']), idb: first(accs[0]['mrc.isn'])}
    check('ACCEPT echoes the REQ\'s isn (%d)' % isn[ida],
          all(first(a['mrc.echo']) == isn[ida] for a in accs) and
          all(first(r['mrc.isn']) == isn[ida] for r in reqs),
          '%s' % [(a['mrc.echo'], a['mrc.isn']) for a in accs])
    check('REQ and ACCEPT each announce 2 rails, planes 0 and 1',
          all(r['mrc.n_rails'] == '2' and r['mrc.rail.plane'] == '0,1' for r in reqs + accs),
          '%s' % [(r['mrc.n_rails'], r['mrc.rail.plane']) for r in reqs + accs])

    for side, me, peer_, conn, nmsg in (('client', ida, idb, ca, msgs),
                                        ('server', idb, ida, cb, msgs)):
        mine = [r for r in real if first(r['mrc.src_conn'], 16) == me]
        bad_dst = [r['frame.number'] for r in mine if r['t'] != 1 and
                   first(r['mrc.dst_conn'], 16) != peer_]
        check('%s: every packet names the peer\'s connection id' % side, not bad_dst,
              '%s' % bad_dst[:10])
        dat = [r for r in mine if r['t'] == 5]
        clo = [r for r in mine if r['t'] == 4]
        # counters read while the connection was open, after its last DATA
        check('%s: DATA packets decoded (%d) == tx pkts counted (%d)' %
              (side, len(dat), conn['tx']['pkts']), len(dat) == conn['tx']['pkts'])
        rt = [r for r in dat if int(r['mrc.tx_count']) > 0]
        check('%s: retransmitted DATA decoded (%d) == tx retrans counted (%d)' %
              (side, len(rt), conn['tx']['retrans']), len(rt) == conn['tx']['retrans'])
        piggy = [r for r in dat if int(r['mrc.flags'], 16) & 2]
        check('%s: DATA with an ACK part decoded (%d) == tx acks-on-data (%d)' %
              (side, len(piggy), conn['tx']['acks_on_data']),
              len(piggy) == conn['tx']['acks_on_data'])
        # PSNs: isn, isn + 1, ... without a gap, DATA then the CLOSE
        psns = sorted({(int(r['mrc.psn']) - isn[me]) % 2**32 for r in dat + clo})
        check('%s: PSNs of DATA and CLOSE are isn + 0..%d, no gap' % (side, len(psns) - 1),
              psns == list(range(len(psns))), '%s' % psns[:40])
        cpsn = {(int(r['mrc.psn']) - isn[me]) % 2**32 for r in clo}
        check('%s: CLOSE takes the last PSN' % side, cpsn == {len(psns) - 1}, '%s' % cpsn)
        # message ids: 0..n-1, each message whole; CLOSE: n
        ids = sorted({int(r['mrc.msg_id']) for r in dat})
        check('%s: message ids 0..%d (tx msgs %d)' % (side, nmsg - 1, conn['tx']['msgs']),
              ids == list(range(nmsg)) and conn['tx']['msgs'] == nmsg, '%s' % ids)
        size = REQ_SIZE if side == 'client' else REPLY_SIZE
        cover = {}
        for r in dat:
            if int(r['mrc.msg_len']) != size:
                cover = None
                break
            cover.setdefault(int(r['mrc.msg_id']), set()).add(
                (int(r['mrc.offset']), int(r['mrc.payload_len'])))
        whole = cover is not None and all(
            sum(length for o, length in segs if length) >= size and
            max(o + length for o, length in segs) == size for segs in cover.values())
        check('%s: each message\'s segments have msg_len %d and reach its end' % (side, size),
              whole, '%s' % cover)
        check('%s: CLOSE carries msg_id %d (messages sent)' % (side, nmsg),
              clo and all(int(r['mrc.msg_id']) == nmsg and r['mrc.msg_len'] == '0'
                          for r in clo), '%s' % [r['mrc.msg_id'] for r in clo])
        # the retransmit tracepoint saw exactly the decoded retransmissions
        tr = set()
        pat = re.compile(r'mrc_retransmit: conn=([0-9a-f]+) psn=(\d+) tx=(\d+) ev=(\d+)')
        for line in open(trace):
            m = pat.search(line)
            if m and int(m.group(1), 16) == me:
                tr.add((int(m.group(2)), int(m.group(3)), int(m.group(4))))
        dec = {(int(r['mrc.psn']), int(r['mrc.tx_count']), int(r['mrc.ev']))
               for r in dat + clo if int(r['mrc.tx_count']) > 0}
        check('%s: mrc_retransmit events (%d) == decoded retransmissions (psn, tx, ev)' %
              (side, len(tr)), tr == dec, 'trace only: %s; capture only: %s' %
              (sorted(tr - dec)[:10], sorted(dec - tr)[:10]))
        # EV: the UDP source port is 0xC000 | ev
        evbad = [r['frame.number'] for r in dat + clo
                 if int(r['udp.srcport']) != 0xC000 | int(r['mrc.ev'])]
        check('%s: UDP source port == 0xC000 | ev on every DATA/CLOSE' % side, not evbad,
              '%s' % evbad[:10])

    # NACKs: the trimmed DATA they name was captured and sent again.
    nacks = [r for r in real if r['t'] == 7]
    trimmed = [r for r in nacks if r['mrc.nack_reason'] == '3']
    check('NACKs decoded (%d), all "trimmed"' % len(nacks), nacks and trimmed == nacks,
          '%s' % [r['mrc.nack_reason'] for r in nacks])
    sent = {}
    for r in real:
        if r['t'] == 5:
            sent.setdefault((first(r['mrc.src_conn'], 16), int(r['mrc.psn'])), []).append(
                (int(r['mrc.tx_count']), int(r['mrc.ev'])))
    miss = []
    for r in nacks:
        key = (first(r['mrc.dst_conn'], 16), int(r['mrc.trig_psn']))
        tx = sent.get(key, [])
        if (int(r['mrc.trig_tx']), int(r['mrc.trig_ev'])) not in tx or \
           max(t for t, _ in tx) <= int(r['mrc.trig_tx']):
            miss.append((r['frame.number'], key, r['mrc.trig_tx'], tx))
    check('each NACK names a captured transmission (psn, tx, ev) that was sent again',
          not miss, '%s' % miss[:10])
    # Challenges: each PROBE with CHALLENGE answered by a PROBE_ACK echoing it.
    ch = {r['mrc.challenge'] for r in real if r['t'] == 8 and
          r['mrc.flags.challenge'] in ('1', 'True')}
    ech = {r['mrc.challenge'] for r in real if r['t'] == 9 and
           r['mrc.flags.challenge'] in ('1', 'True')}
    check('challenges (%d) each echoed by a PROBE_ACK' % len(ch), ch and ch <= ech,
          'unanswered: %s' % sorted(ch - ech))
    rst = [r for r in real if r['t'] == 3]
    check('RESET "no listener" answers the REQ to a closed port',
          any(r['mrc.reason'] == '2' and any(q['t'] == 1 and
                                             first(q['mrc.src_conn'], 16) ==
                                             first(r['mrc.dst_conn'], 16) and
                                             first(q['mrc.isn']) ==
                                             first(r['mrc.src_conn'], 16)
                                             for q in real) for r in rst),
          '%s' % [(r['mrc.reason'], r['mrc.dst_conn'], r['mrc.src_conn']) for r in rst])

    # Crafted packets: the drop reason of the module's parser, and expert info.
    wrong = []
    for (what, why, _), r in zip(CRAFTED, crafted):
        exp = r['_ws.expert.message']
        if r['mrc.drop'] != why or (why == 'none') != (exp == '') or r['_ws.lua.text']:
            wrong.append('%s: want %s, got drop=%s expert=%s lua=%s' %
                         (what, why, r['mrc.drop'], exp, r['_ws.lua.text']))
    check('crafted packets (%d): each decoded with the parser\'s drop reason; expert info '
          'on every malformed one' % len(CRAFTED),
          len(crafted) == len(CRAFTED) and not wrong,
          '%d of %d decoded; %s' % (len(crafted), len(CRAFTED), '; '.join(wrong)))


def main():
    cmd = sys.argv[1] if len(sys.argv) > 1 else ''
    if cmd == 'peer':
        peer(sys.argv[2:])
    elif cmd == 'craft':
        craft(sys.argv[2:])
    elif cmd == 'crafted-hex':
        crafted_hex()
    elif cmd == 'check':
        analyse(sys.argv[2:])
        print('\n'.join(results))
    elif cmd == 'columns':
        print(' '.join('-e ' + c for c in COLUMNS))
    else:
        raise SystemExit('usage: see the head of ' + sys.argv[0])


if __name__ == '__main__':
    main()
