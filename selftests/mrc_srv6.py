#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
#
# mrc_srv6.py - datagrams along explicit SRv6 uSID paths, a helper of the
# tests on lib.sh's mrc_fabric_srv6:
#
#   mrc_srv6.py send PORT FLOW...
#   mrc_srv6.py send PORT -
#       FLOW is TAG,CARRIER,SRC,DST,COUNT: COUNT UDP datagrams SRC -> DST,
#       destination port PORT, payload "TAG SEQ", each carried in an outer
#       IPv6 header whose destination is the uSID carrier CARRIER and that
#       has no SRH (the kernel writes the outer header of a raw IPv6 socket
#       of protocol 41, IPv6 inside, or 4, IPv4 inside: SRC and DST are of
#       one family).  The inner packet is built here, checksums and all.
#       Prints "sent" once all are sent.  With "-", reads the FLOWs from
#       stdin, a line of them (separated by blanks) at a time, and prints
#       "sent" after each line: one process for many rounds.
#
#   mrc_srv6.py recv PORT READY
#       Prints the TAG of every datagram received on PORT (IPv6 and IPv4),
#       a line each, as it comes, until killed.  Creates the file READY
#       once the socket is bound.

import ipaddress
import socket
import struct
import sys


def csum(data):
    if len(data) % 2:
        data += b'\0'
    s = sum(struct.unpack('!%dH' % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def inner(src, dst, port, payload):
    """The inner IP packet (protocol number for the outer header, bytes)."""
    s, d = ipaddress.ip_address(src), ipaddress.ip_address(dst)
    if s.version != d.version:
        raise SystemExit('%s and %s: not one family' % (src, dst))
    ulen = 8 + len(payload)
    if s.version == 6:
        pseudo = s.packed + d.packed + struct.pack('!I3xB', ulen, socket.IPPROTO_UDP)
        udp = struct.pack('!HHHH', 9, port, ulen, 0) + payload
        c = csum(pseudo + udp) or 0xffff
        udp = udp[:6] + struct.pack('!H', c) + udp[8:]
        hdr = struct.pack('!IHBB', 6 << 28, ulen, socket.IPPROTO_UDP, 64)
        return 41, hdr + s.packed + d.packed + udp
    # IPv4: UDP checksum 0 (none), the header's own computed.
    udp = struct.pack('!HHHH', 9, port, ulen, 0) + payload
    hdr = struct.pack('!BBHHHBBH4s4s', 0x45, 0, 20 + ulen, 0, 0x4000, 64,
                      socket.IPPROTO_UDP, 0, s.packed, d.packed)
    hdr = hdr[:10] + struct.pack('!H', csum(hdr)) + hdr[12:]
    return 4, hdr + udp


def send(port, flows, socks):
    for flow in flows:
        tag, carrier, src, dst, count = flow.split(',')
        for seq in range(int(count)):
            proto, pkt = inner(src, dst, port, ('%s %d' % (tag, seq)).encode())
            if proto not in socks:
                socks[proto] = socket.socket(socket.AF_INET6, socket.SOCK_RAW, proto)
            socks[proto].sendto(pkt, (carrier, 0))
    print('sent', flush=True)


def recv(port, ready):
    s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
    s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
    s.bind(('::', port))
    open(ready, 'w').close()
    while True:
        data = s.recv(2048)
        print(data.split(b' ')[0].decode(errors='replace'), flush=True)


def main():
    if len(sys.argv) == 4 and sys.argv[1] == 'send' and sys.argv[3] == '-':
        socks = {}
        for line in sys.stdin:
            send(int(sys.argv[2]), line.split(), socks)
    elif len(sys.argv) >= 4 and sys.argv[1] == 'send':
        send(int(sys.argv[2]), sys.argv[3:], {})
    elif len(sys.argv) == 4 and sys.argv[1] == 'recv':
        recv(int(sys.argv[2]), sys.argv[3])
    else:
        raise SystemExit('usage: mrc_srv6.py send PORT FLOW... | recv PORT READY')


if __name__ == '__main__':
    main()
