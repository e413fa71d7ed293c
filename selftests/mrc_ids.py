#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
#
# mrc_ids.py - helper of mrc_ids.sh, run as root or as nobody:
#
#   mrc_ids.py forge SRC DST PORT
#       What a local user on the peer host can do against a connection to
#       DST: read the connection ids from "mrcctl -j conn show" (the
#       connection whose peer is DST, established), then send a RESET
#       with them from a normal UDP socket bound to the rail address SRC,
#       source port 0xC000|7 (an entropy value), to DST:PORT.  When the
#       ids are hidden it can only guess: 00000001 for both.  Prints
#       "ids ID PEER_ID (from the dump|guessed)" and "sent N bytes".
#
#   mrc_ids.py ynl ID
#       The raw genl view of the caller (through tools/net/ynl): which
#       attributes the conn-get and path-get dumps carry, what a lookup
#       by the existing id ID and by a made-up id answers, and whether the
#       groups "events" and "conns" can be joined.  One line per fact.

import glob
import json
import os
import socket
import struct
import subprocess
import sys

TOP = os.environ.get('MRC_TOP') or os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def wire_version():
    # The version the module speaks: core/wire.h is authoritative.
    with open(os.path.join(TOP, 'drivers/net/mrc/core/wire.h')) as f:
        for line in f:
            if line.startswith('#define MRC_WIRE_VERSION'):
                return int(line.split()[2])
    raise SystemExit('MRC_WIRE_VERSION not found in core/wire.h')


def forge(src, dst, port):
    out = subprocess.run([TOP + '/tools/mrcctl/mrcctl', '-j', 'conn', 'show'],
                         capture_output=True, text=True, check=True).stdout
    conn = [c for c in json.loads(out)
            if c.get('state') == 'established' and c.get('peer', {}).get('addr') == dst]
    if len(conn) != 1:
        print('error: %d established connections to %s in %s' % (len(conn), dst, out))
        sys.exit(1)
    c = conn[0]
    if 'id' in c and 'peer_id' in c:
        ours, theirs, how = int(c['id'], 16), int(c['peer_id'], 16), 'from the dump'
    else:
        ours, theirs, how = 1, 1, 'guessed'
    print('ids %08x %08x (%s)' % (ours, theirs, how))
    # wire version 2 (core/wire.h MRC_WIRE_VERSION), type 3 (RESET),
    # flags 0, dst_conn (the receiver's id), src_conn (the sender's),
    # reason 1 (abort): 16 bytes
    pkt = struct.pack('!BBHIII', wire_version(), 3, 0, theirs, ours, 1)
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind((src, 0xC000 | 7))
    print('sent %d bytes' % s.sendto(pkt, (dst, port)))


def ynl(real_id):
    src = (glob.glob(os.environ.get('MRC_CACHE', '/var/cache/mrc') + '/linux-source-6.12-*/') or [''])[0]
    sys.path.insert(0, src + 'tools/net/ynl')
    from lib import YnlFamily, NlError
    spec = TOP + '/Documentation/netlink/specs/mrc.yaml'
    schema = src + 'Documentation/netlink/genetlink-legacy.yaml'
    y = YnlFamily(spec, schema)

    conns = y.dump('conn-get', {})
    for c in conns:
        print('conn-get dump: state %s, id %s, peer-id %s, tx-msgs %s' %
              (c.get('state'), 'id' in c, 'peer-id' in c, 'tx-msgs' in c))
    paths = y.dump('path-get', {})
    print('path-get dump: %d paths, %d with conn-id' %
          (len(paths), sum('conn-id' in p for p in paths)))

    def answer(what, op, attrs, dump=False):
        try:
            r = y.dump(op, attrs) if dump else y.do(op, attrs)
            print('%s: answered (%d)' % (what, len(r) if dump else 1))
        except NlError as e:
            print('%s: error %d "%s"' % (what, e.nl_msg.error,
                                          (e.nl_msg.extack or {}).get('msg')))

    answer('conn-get id existing', 'conn-get', {'id': real_id})
    answer('conn-get id made-up', 'conn-get', {'id': real_id ^ 0x5a5a5a5a})
    answer('path-get conn-id existing', 'path-get', {'conn-id': real_id}, True)
    answer('path-get conn-id made-up', 'path-get', {'conn-id': real_id ^ 0x5a5a5a5a}, True)
    for grp in ('events', 'conns'):
        g = YnlFamily(spec, schema)
        try:
            g.ntf_subscribe(grp)
            print('join %s: ok' % grp)
        except OSError as e:
            print('join %s: %s' % (grp, os.strerror(e.errno)))


if __name__ == '__main__':
    if sys.argv[1] == 'forge':
        forge(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    elif sys.argv[1] == 'ynl':
        ynl(int(sys.argv[2], 16))
    else:
        sys.exit('usage: mrc_ids.py forge SRC DST PORT | ynl ID')
