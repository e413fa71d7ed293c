#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
#
# mrc_tunables.py - a device's tunables (udp-port, max-msg-size,
# evs-per-plane, spray) are set through two netlink interfaces: generic
# netlink dev-set (MRC_A_DEV_*) and rtnetlink "ip link add/set ... type
# mrc" (IFLA_INFO_DATA, IFLA_MRC_*).  Both check them with the same policy
# entries (drivers/net/mrc/mrc.h) and mrc_dev_configure().  Raw requests,
# no library: each bad value below is sent through both (RTM_NEWLINK of a
# new device and of mrc0, dev-set of mrc0), and every refusal must be the
# expected errno, extack message, offending attribute (its offset in the
# request) and, for a range, the policy's bounds (NLMSGERR_ATTR_POLICY):
#   - out of range: udp-port 0, max-msg-size 0 and limit+1,
#     evs-per-plane 0 and 257: ERANGE "integer out of range", bounds;
#   - malformed: a u16 udp-port sent as 4 bytes, a u32 as 2 bytes
#     (EINVAL "invalid attribute length"), a spray name without its NUL
#     (EINVAL "Attribute failed policy validation");
#   - well formed but unknown: spray "bogus" (ENOENT, mrc's own message);
# and no refused request creates a device or changes mrc0.
# Prints TAP.

import ctypes
import json
import os
import socket
import struct
import subprocess
import sys

NS = 'mrc-tun'
NLM_F_REQUEST, NLM_F_ACK, NLM_F_CREATE, NLM_F_EXCL = 1, 4, 0x400, 0x200
NLMSG_ERROR = 2
NLM_F_ACK_TLVS = 0x200
NETLINK_EXT_ACK, NETLINK_GENERIC = 11, 16
SOL_NETLINK = 270
NLMSGERR_ATTR_MSG, NLMSGERR_ATTR_OFFS, NLMSGERR_ATTR_POLICY = 1, 2, 4
NL_POLICY_TYPE_ATTR_MIN_VALUE_U, NL_POLICY_TYPE_ATTR_MAX_VALUE_U = 4, 5
RTM_NEWLINK = 16
IFLA_IFNAME, IFLA_LINKINFO = 3, 18
IFLA_INFO_KIND, IFLA_INFO_DATA = 1, 2
GENL_ID_CTRL, CTRL_CMD_GETFAMILY, CTRL_ATTR_FAMILY_ID, CTRL_ATTR_FAMILY_NAME = 0x10, 3, 1, 2
NLA_F_NESTED = 0x8000

n = 0
failed = 0


def tap(ok, desc, *diag):
    global n, failed
    n += 1
    if not ok:
        failed += 1
    print(('ok' if ok else 'not ok') + ' %d %s' % (n, desc))
    for d in (diag if not ok else ()):
        for line in str(d).splitlines():
            print('#   ' + line)
    sys.stdout.flush()


def sh(cmd):
    return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout


def uapi(names):
    """Values of uapi constants (enums too): a C program prints them."""
    top = os.environ.get('MRC_TOP') or os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    src = '#include <stdio.h>\n#include <linux/mrc.h>\n#include <linux/mrc_netlink.h>\n' \
        'int main(void)\n{\n' + ''.join('\tprintf("%%lld\\n", (long long)%s);\n' % k
                                          for k in names) + '\treturn 0;\n}\n'
    exe = '/tmp/mrc_tunables_uapi'
    subprocess.run(['cc', '-I', top + '/include/uapi', '-x', 'c', '-o', exe, '-'],
                   input=src, text=True, check=True)
    vals = subprocess.run([exe], capture_output=True, text=True, check=True).stdout.split()
    os.unlink(exe)
    return dict(zip(names, map(int, vals)))


def attr(t, payload):
    a = struct.pack('=HH', 4 + len(payload), t) + payload
    return a + b'\0' * (-len(a) % 4)


def nest(t, *attrs):
    return attr(t | NLA_F_NESTED, b''.join(attrs))


class Nl:
    def __init__(self, proto):
        self.s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, proto)
        self.s.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
        self.s.bind((0, 0))
        self.seq = 0

    def talk(self, mtype, flags, body):
        """(errno, msg, offset of the bad attribute in body, policy {type: value})"""
        self.seq += 1
        hdr = struct.pack('=IHHII', 16 + len(body), mtype, NLM_F_REQUEST | NLM_F_ACK | flags,
                          self.seq, 0)
        self.s.send(hdr + body)
        while True:
            data = self.s.recv(65536)
            ln, t, fl, seq, _ = struct.unpack_from('=IHHII', data)
            if seq == self.seq and t == NLMSG_ERROR:
                break
        err = -struct.unpack_from('=i', data, 16)[0]
        # the echoed request: its header only (the kernel caps the echo
        # when it sends TLVs), then the TLVs
        off = 20 + (16 if fl & 0x100 else struct.unpack_from('=I', data, 20)[0])
        msg, boff, pol = None, None, {}
        while off + 4 <= ln:
            alen, at = struct.unpack_from('=HH', data, off)
            val = data[off + 4:off + alen]
            at &= 0x3fff
            if at == NLMSGERR_ATTR_MSG:
                msg = val.rstrip(b'\0').decode()
            elif at == NLMSGERR_ATTR_OFFS:
                boff = struct.unpack('=I', val)[0] - 16   # from the body's start
            elif at == NLMSGERR_ATTR_POLICY:
                p = 0
                while p + 4 <= len(val):
                    plen, pt = struct.unpack_from('=HH', val, p)
                    if plen == 12:
                        pol[pt & 0x3fff] = struct.unpack_from('=Q', val, p + 4)[0]
                    elif plen == 8:
                        pol[pt & 0x3fff] = struct.unpack_from('=I', val, p + 4)[0]
                    p += (plen + 3) & ~3
            off += (alen + 3) & ~3
        return err, msg, boff, pol


# Work in a private namespace: enter it for this whole process.
sh('ip netns del %s 2>/dev/null; ip netns add %s' % (NS, NS))
fd = os.open('/run/netns/' + NS, os.O_RDONLY)
if ctypes.CDLL(None, use_errno=True).setns(fd, 0x40000000):  # CLONE_NEWNET
    raise OSError(ctypes.get_errno(), 'setns')
os.close(fd)
sh('ip link add mrc0 type mrc')
ifindex = json.loads(sh('ip -j link show dev mrc0'))[0]['ifindex']

TUN = ('UDP_PORT', 'MAX_MSG_SIZE', 'EVS_PER_PLANE', 'SPRAY')
C = uapi(['MRC_MAX_MSG_SIZE_LIMIT', 'MRC_CMD_DEV_SET', 'MRC_FAMILY_VERSION', 'MRC_A_DEV_IFINDEX'] +
         ['MRC_A_DEV_' + k for k in TUN] + ['IFLA_MRC_' + k for k in TUN])
LIMIT, DEV_SET, FAMILY_VERSION = (C['MRC_MAX_MSG_SIZE_LIMIT'], C['MRC_CMD_DEV_SET'],
                                  C['MRC_FAMILY_VERSION'])
G = {k: C['MRC_A_DEV_' + k] for k in TUN + ('IFINDEX',)}
R = {k: C['IFLA_MRC_' + k] for k in TUN}

rt = Nl(socket.NETLINK_ROUTE)
gn = Nl(NETLINK_GENERIC)
# the family id (CTRL_CMD_GETFAMILY's reply is not an error: read it here)
gn.seq += 1
body = struct.pack('=BBH', CTRL_CMD_GETFAMILY, 1, 0) + attr(CTRL_ATTR_FAMILY_NAME, b'mrc\0')
gn.s.send(struct.pack('=IHHII', 20 + len(body) - 4, GENL_ID_CTRL, NLM_F_REQUEST,
                      gn.seq, 0) + body)
rep = gn.s.recv(65536)
off, fam = 20, None
while off + 4 <= len(rep):
    alen, at = struct.unpack_from('=HH', rep, off)
    if at == CTRL_ATTR_FAMILY_ID:
        fam = struct.unpack_from('=H', rep, off + 4)[0]
    off += (alen + 3) & ~3
tap(fam is not None, 'the "mrc" generic netlink family is found')


def settings():
    return sh('ip -d link show dev mrc0; ip -br link show')


def via_genl(key, payload):
    body = struct.pack('=BBH', DEV_SET, FAMILY_VERSION, 0) + \
        attr(G['IFINDEX'], struct.pack('=I', ifindex))
    pos = len(body)
    return gn.talk(fam, 0, body + attr(G[key], payload)), pos


def via_rtnl(key, payload, new):
    ifi = struct.pack('=BxHiII', socket.AF_UNSPEC, 0, 0 if new else ifindex, 0, 0)
    head = ifi + (attr(IFLA_IFNAME, b'mrcbad\0') if new else b'')
    kind = attr(IFLA_INFO_KIND, b'mrc')
    # IFLA_LINKINFO header, IFLA_INFO_KIND, IFLA_INFO_DATA header: then ours
    pos = len(head) + 4 + len(kind) + 4
    body = head + nest(IFLA_LINKINFO, kind, nest(IFLA_INFO_DATA, attr(R[key], payload)))
    return rt.talk(RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL if new else 0, body), pos


ERANGE, EINVAL, ENOENT = 34, 22, 2
RANGE = 'integer out of range'
u16, u32 = (lambda v: struct.pack('=H', v)), (lambda v: struct.pack('=I', v))
cases = [
    ('udp-port 0', 'UDP_PORT', u16(0), ERANGE, RANGE, (1, 65535)),
    ('max-msg-size 0', 'MAX_MSG_SIZE', u32(0), ERANGE, RANGE, (1, LIMIT)),
    ('max-msg-size limit+1', 'MAX_MSG_SIZE', u32(LIMIT + 1), ERANGE, RANGE, (1, LIMIT)),
    ('evs-per-plane 0', 'EVS_PER_PLANE', u32(0), ERANGE, RANGE, (1, 256)),
    ('evs-per-plane 257', 'EVS_PER_PLANE', u32(257), ERANGE, RANGE, (1, 256)),
    ('udp-port as 4 bytes (u16 expected)', 'UDP_PORT', u32(5000), EINVAL,
     'invalid attribute length', None),
    ('evs-per-plane as 2 bytes (u32 expected)', 'EVS_PER_PLANE', u16(3), EINVAL,
     'invalid attribute length', None),
    ('spray "rr" without its NUL', 'SPRAY', b'rr', EINVAL,
     'Attribute failed policy validation', None),
    ('spray "bogus"', 'SPRAY', b'bogus\0', ENOENT,
     'unknown spray policy "bogus" (mrc, rr)', None),
]
before = settings()
for desc, key, payload, errno, msg, bounds in cases:
    for how, (got, pos) in (('genl dev-set', via_genl(key, payload)),
                            ('RTM_NEWLINK of mrc0', via_rtnl(key, payload, False)),
                            ('RTM_NEWLINK of a new device', via_rtnl(key, payload, True))):
        err, m, boff, pol = got
        b = (pol.get(NL_POLICY_TYPE_ATTR_MIN_VALUE_U), pol.get(NL_POLICY_TYPE_ATTR_MAX_VALUE_U))
        want = (errno, msg, pos, bounds)
        have = (err, m, boff, b if bounds else None)
        tap(have == want, '%s through %s: %s "%s", the attribute named%s' %
            (desc, how, os.strerror(errno), msg, ', bounds %d..%d' % bounds if bounds else ''),
            'want (errno, msg, offset, bounds) %r' % (want,), 'got %r' % (have,))
tap(settings() == before, 'no refused request created a device or changed mrc0',
    before, settings())

sh('ip netns del %s' % NS)
print('1..%d' % n)
sys.exit(1 if failed else 0)
