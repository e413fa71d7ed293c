#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
#
# mrc_ynl.py - the genl family against its spec, through the kernel's own
# YNL library (tools/net/ynl from linux-source-6.12):
#  - every operation's kernel policy (CTRL_CMD_GETPOLICY) accepts exactly
#    the request attributes the spec lists, with the spec's types and
#    ranges;
#  - the generic YNL CLI and mrcctl report the same devices and rails;
#  - malformed requests are refused with an extack message; a dev-set with
#    one refused value applies none;
#  - rails with many queues: dumps continue a rail over several messages,
#    do replies and notifications carry it whole, every queue once.
# Prints TAP.

import ctypes
import glob
import json
import os
import socket
import subprocess
import sys

TOP = os.environ.get('MRC_TOP') or os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = (glob.glob(os.environ.get('MRC_CACHE', '/var/cache/mrc') + '/linux-source-6.12-*/') or [''])[0]
SPEC = TOP + '/Documentation/netlink/specs/mrc.yaml'
SCHEMA = SRC + 'Documentation/netlink/genetlink-legacy.yaml'
NS = 'mrc-ynl'

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


def sh(cmd, check=True):
    r = subprocess.run(cmd, shell=True, capture_output=True, text=True)
    if check and r.returncode:
        raise RuntimeError('%s: %s' % (cmd, r.stderr))
    return r.stdout


if not SRC:
    # The YNL library is a tool of this test: without it, a failure.
    tap(False, 'linux-source-6.12 is extracted (tools/net/ynl; run make setup on the host)')
    print('1..%d' % n)
    sys.exit(1)
sys.path.insert(0, SRC + 'tools/net/ynl')
from lib import YnlFamily, NlError  # noqa: E402

# Work in a private namespace: enter it for this whole process.
sh('ip netns del %s 2>/dev/null; ip netns add %s' % (NS, NS), check=False)
fd = os.open('/run/netns/' + NS, os.O_RDONLY)
if ctypes.CDLL(None, use_errno=True).setns(fd, 0x40000000):  # CLONE_NEWNET
    raise OSError(ctypes.get_errno(), 'setns')
os.close(fd)
sh('''ip -batch - <<'B'
link add mrc0 type mrc
link add mrc1 type mrc
link add va0 numtxqueues 3 numrxqueues 2 type veth peer name va1
link add vb0 type veth peer name vb1
link set dev va0 addrgenmode none
addr add 10.7.0.1/24 dev va0
addr add fd00:7::1/64 dev va0 nodad
link set dev va0 master mrc0
link set dev vb0 master mrc1
B''')
sh('%s/tools/mrcctl/mrcctl rail set vb0 plane 4 state down' % TOP)
ifindex = {link['ifname']: link['ifindex'] for link in json.loads(sh('ip -j link show'))}

ynl = YnlFamily(SPEC, SCHEMA)

# ---- policies against the spec ------------------------------------------------
ctrl = YnlFamily(SRC + 'Documentation/netlink/specs/nlctrl.yaml', SCHEMA)
pol = ctrl.dump('getpolicy', {'family-name': 'mrc'})
op_pol = {}
policies = {}
for m in pol:
    if 'op-policy' in m:
        p = m['op-policy']
        op_pol[p['op-id']] = set(v for k, v in p.items() if k in ('do', 'dump'))
    if 'policy' in m:
        p = m['policy']
        policies.setdefault(p['policy-id'], {})[p['attr-id']] = p

UMAX = {'u8': 255, 'u16': 65535, 'u32': 4294967295}


def const(v):
    if isinstance(v, int):
        return v
    c = ynl.consts[v]
    return c['value'] if isinstance(c, dict) else c.value


def expected_policy(op):
    """attr id -> (type, min, max) the spec implies for op's requests."""
    exp = {}
    aset = ynl.attr_sets[op.yaml['attribute-set']]
    for mode in ('do', 'dump'):
        names = op.yaml.get(mode, {}).get('request', {}).get('attributes', [])
        for name in names:
            a = aset[name]
            t = a.yaml['type']
            lo, hi = 0, UMAX.get(t)
            if t == 'string':
                # ynl's "string" is the kernel's NLA_NUL_STRING: no range
                t, lo, hi = 'nul-string', None, None
            checks = a.yaml.get('checks', {})
            if 'enum' in a.yaml:
                hi = len(ynl.consts[a.yaml['enum']].entries) - 1
            if 'min' in checks:
                lo = const(checks['min'])
            if 'max' in checks:
                hi = const(checks['max'])
            exp[a.value] = (t, lo, hi)
    return exp


for name, op in ynl.ops.items():
    if 'notify' in op.yaml or 'event' in op.yaml:
        continue
    exp = expected_policy(op)
    ids = op_pol.get(op.value, set())
    got = {}
    for pid in ids:
        for aid, p in policies.get(pid, {}).items():
            got[aid] = (p['type'], p.get('min-value-u'), p.get('max-value-u'))
    tap(got == exp, 'policy of %s matches the spec' % name,
        'spec:   %s' % sorted(exp.items()), 'kernel: %s' % sorted(got.items()))

# ---- the generic CLI and mrcctl agree ------------------------------------------


def cli(args):
    return json.loads(sh('/usr/bin/python3 %stools/net/ynl/cli.py --spec %s --schema %s '
                         '--output-json %s' % (SRC, SPEC, SCHEMA, args)))


def mrcctl(args):
    return json.loads(sh('%s/tools/mrcctl/mrcctl -j -s %s' % (TOP, args)))


y_rails = {r['name']: r for r in cli('--dump rail-get')}
m_rails = {r['ifname']: r for r in mrcctl('rail show')}
tap(sorted(y_rails) == sorted(m_rails) == ['va0', 'vb0'],
    'cli.py and mrcctl list the same rails', y_rails.keys(), m_rails.keys())
same = True
diag = []
for name, y in y_rails.items():
    m = m_rails.get(name, {})
    pairs = [(y['dev-ifindex'], m.get('dev_ifindex')), (y['ifindex'], m.get('ifindex')),
             (y['plane'], m.get('plane')), (y['admin-state'], m.get('admin_state')),
             (y['oper-state'], m.get('oper_state')), (y['mtu'], m.get('mtu')),
             (y['tx-queues'], m.get('tx_queues')), (y['rx-queues'], m.get('rx_queues')),
             (y.get('ipv4', []), m.get('ipv4')), (y.get('ipv6', []), m.get('ipv6')),
             (len(y['queue']), len(m.get('queues', []))),
             (y['stats']['rx-dropped'], m.get('stats', {}).get('rx_dropped'))]
    for a, b in pairs:
        if a != b:
            same = False
            diag.append('%s: cli %r mrcctl %r' % (name, a, b))
tap(same, 'cli.py and mrcctl report the same rail attributes', *diag)
tap(y_rails['vb0']['plane'] == 4 and y_rails['vb0']['admin-state'] == 'down',
    'cli.py sees the plane and state mrcctl set')
y_devs = {d['name']: d for d in cli('--dump dev-get')}
m_devs = {d['ifname']: d for d in mrcctl('dev show')}
tap({k: (v['ifindex'], v['udp-port'], v['family'], [r['name'] for r in v.get('rail', [])])
     for k, v in y_devs.items()} ==
    {k: (v['ifindex'], v['udp_port'], v['family'], [r['ifname'] for r in v['rails']])
     for k, v in m_devs.items()},
    'cli.py and mrcctl report the same devices', y_devs, m_devs)

# ---- malformed requests -----------------------------------------------------------


def refused(desc, op, attrs, errno, msg):
    try:
        ynl.do(op, attrs)
    except NlError as e:
        ext = e.nl_msg.extack or {}
        ok = e.nl_msg.error == -errno and msg in (ext.get('msg') or '')
        tap(ok, desc, 'error %d extack %r' % (e.nl_msg.error, ext))
        return
    tap(False, desc, 'accepted')


refused('plane 32 is out of range', 'rail-add',
        {'dev-ifindex': ifindex['mrc0'], 'ifindex': ifindex['va1'], 'plane': 32},
        34, 'integer out of range')
refused('admin-state 2 is out of range', 'rail-set',
        {'ifindex': ifindex['va0'], 'admin-state': 2}, 34, 'integer out of range')
refused('ifindex 0 is refused by the policy', 'rail-get', {'ifindex': 0},
        34, 'integer out of range')
refused('an attribute the operation does not take is refused', 'rail-set',
        {'ifindex': ifindex['va0'], 'name': 'x'}, 22, 'Unsupported attribute')
refused('a missing required attribute is named', 'rail-del', {}, 22,
        'missing attribute ifindex')
refused('dev-set without a tunable explains itself', 'dev-set',
        {'ifindex': ifindex['mrc0']}, 22, 'nothing to change')
refused('max-msg-size above the limit is refused', 'dev-set',
        {'ifindex': ifindex['mrc0'], 'max-msg-size': 67108865}, 34, 'integer out of range')
refused('evs-per-plane 257 is refused by the policy', 'dev-set',
        {'ifindex': ifindex['mrc0'], 'evs-per-plane': 257}, 34, 'integer out of range')
refused('an unknown spray policy is named', 'dev-set',
        {'ifindex': ifindex['mrc0'], 'spray': 'bogus'}, 2,
        'unknown spray policy "bogus" (mrc, rr)')
# dev-set is all or nothing: a request with a refused value applies none.
def dev_tunables(name):
    d = ynl.do('dev-get', {'ifindex': ifindex[name]})
    return {k: d[k] for k in ('udp-port', 'max-msg-size', 'evs-per-plane', 'spray')}


def refused_whole(desc, attrs, errno, msg, bad):
    before = dev_tunables('mrc0')
    try:
        ynl.do('dev-set', dict(attrs, ifindex=ifindex['mrc0']))
        tap(False, desc, 'accepted')
        return
    except NlError as e:
        err, ext = e.nl_msg.error, e.nl_msg.extack or {}
    after = dev_tunables('mrc0')
    tap(err == -errno and ext.get('msg') == msg and ext.get('bad-attr') == bad and
        before == after, desc, 'error %d extack %r' % (err, ext),
        'before %r' % before, 'after  %r' % after)


refused_whole('dev-set: valid max-msg-size and evs-per-plane, unknown spray: nothing applied',
              {'max-msg-size': 2097152, 'evs-per-plane': 64, 'spray': 'bogus'}, 2,
              'unknown spray policy "bogus" (mrc, rr)', '.spray')
taken = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
taken.bind(('0.0.0.0', 6001))
refused_whole('dev-set: valid max-msg-size and spray, udp-port in use: nothing applied',
              {'max-msg-size': 2097152, 'spray': 'rr', 'udp-port': 6001}, 98,
              'cannot open UDP port 6001 (IPv4): error -98', '.udp-port')
taken.close()
refused('path-set of a missing connection', 'path-set',
        {'conn-id': 0x1234, 'ev': 7, 'denied': 1}, 2, 'no connection with id 00001234')
refused('path-set without ev names it', 'path-set',
        {'conn-id': 0x1234, 'denied': 1}, 22, 'ev')
refused('dev-get of a missing ifindex', 'dev-get', {'ifindex': 99999},
        19, 'no device with ifindex 99999')
refused('dev-get of a non-mrc device', 'dev-get', {'ifindex': ifindex['va1']},
        19, 'va1 is not an mrc device')

# A do returning the new rail, through the generic client.
r = ynl.do('rail-add', {'dev-ifindex': ifindex['mrc1'], 'ifindex': ifindex['va1'],
                        'plane': 9})
tap(r and r['name'] == 'va1' and r['plane'] == 9 and r['dev-ifindex'] == ifindex['mrc1'],
    'rail-add replies with the new rail', r)

# ---- rails with many queues ----------------------------------------------------------
# A rail message carries two nests per queue (44 bytes each): 128 + 128
# queues need ~11 KiB, more than the first part of a dump (~4 KiB on a
# fresh socket) and, with 1000 + 1000, more than any part (at most
# 32 KiB).  A dump continues such a rail in the next message(s); a do
# and a notification are sized for the whole rail.
sh('''ip -batch - <<'B'
link add d0 numtxqueues 128 numrxqueues 128 type dummy
link add d1 numtxqueues 1000 numrxqueues 1000 type dummy
link add d2 numtxqueues 4096 numrxqueues 4096 type dummy
B''')
sh('%s/tools/mrcctl/mrcctl rail add d0 dev mrc0' % TOP)
sh('%s/tools/mrcctl/mrcctl rail add d1 dev mrc1' % TOP)
ifindex = {link['ifname']: link['ifindex'] for link in json.loads(sh('ip -j link show'))}
want = {'d0': 128, 'd1': 1000}


def queues_once(name, queues, nq):
    """every RX and TX queue 0..nq-1 listed exactly once?"""
    seen = sorted((q['type'], q['id']) for q in queues)
    exp = sorted([('rx', i) for i in range(nq)] + [('tx', i) for i in range(nq)])
    dups = len(seen) - len(set(seen))
    return seen == exp, '%s: %d entries, %d duplicates, missing %s' % (
        name, len(seen), dups, sorted(set(exp) - set(seen))[:8])


for args, how in (('', 'cli.py'), ('--dbg-small-recv 4096', 'cli.py with 4 KiB reads')):
    msgs = cli('--dump rail-get ' + args)
    for name, nq in want.items():
        parts = [m for m in msgs if m.get('ifindex') == ifindex[name]]
        ok, diag = queues_once(name, [q for m in parts for q in m.get('queue', [])], nq)
        full = [m for m in parts if 'plane' in m]
        tap(ok and len(parts) > 1 and len(full) == 1 and 'plane' in parts[0] and
            all(set(m) == {'dev-ifindex', 'ifindex', 'name', 'queue'} for m in parts[1:]),
            '%s dump: %s\'s %d+%d queues each once, over %d messages (first whole, then continuations)'
            % (how, name, nq, nq, len(parts)), diag,
            'messages: %s' % [sorted(m) for m in parts][:4])
    tap([m['name'] for m in msgs if 'plane' in m] == ['va0', 'd0', 'd1', 'vb0', 'va1'],
        '%s dump: every rail once, in device then plane order' % how,
        [m['name'] for m in msgs if 'plane' in m])
r = cli('--do rail-get --json \'{"ifindex": %d}\'' % ifindex['d1'])
ok, diag = queues_once('d1', r.get('queue', []), 1000)
tap(ok and r['tx-queues'] == 1000, 'cli.py do: one reply with all 2000 queues of d1', diag)
m_rails = {r['ifname']: r for r in mrcctl('rail show')}
for name, nq in want.items():
    ok, diag = queues_once(name, m_rails.get(name, {}).get('queues', []), nq)
    tap(ok, 'mrcctl -j -s rail show: %s\'s %d+%d queues each once, one object' % (name, nq, nq),
        diag)
text = sh('%s/tools/mrcctl/mrcctl -s rail show d1' % TOP)
lines = [ln.split()[0:2] for ln in text.splitlines() if ln.startswith('    ') and '-queue' in ln]
tap(sorted(lines) == sorted([['rx-queue', str(i)] for i in range(1000)] +
                            [['tx-queue', str(i)] for i in range(1000)]),
    'mrcctl -s rail show d1 (do): 2000 queue lines, each once', text[:400])

# A notification is sized for the rail too: rail-change of d1 arrives whole.
ntf = YnlFamily(SPEC, SCHEMA)
ntf.ntf_subscribe('events')
sh('%s/tools/mrcctl/mrcctl rail set d1 state down' % TOP)
ntf.check_ntf()
got = [m['msg'] for m in ntf.async_msg_queue
       if m['name'] == 'rail-change-ntf' and m['msg'].get('ifindex') == ifindex['d1']]
ok, diag = queues_once('d1', got[0].get('queue', []) if got else [], 1000)
tap(len(got) == 1 and ok and got[0]['admin-state'] == 'down',
    'rail-change-ntf of d1: one message with all 2000 queues', diag,
    [m['name'] for m in ntf.async_msg_queue])

# The per-queue counters share one per-CPU block (at most 32 KiB): a rail
# with more queues is refused with the reason (the allocator used to WARN).
refused('4096+4096 queues are refused with the limit', 'rail-add',
        {'dev-ifindex': ifindex['mrc0'], 'ifindex': ifindex['d2']}, 22,
        'd2 has 4096 RX + 4096 TX queues; mrc counts at most 2034 per rail')

sh('ip netns del %s' % NS, check=False)
print('1..%d' % n)
sys.exit(1 if failed else 0)
