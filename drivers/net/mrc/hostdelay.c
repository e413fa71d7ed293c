// SPDX-License-Identifier: GPL-2.0
/*
 * hostdelay.c - how long a packet waited in the receiving host before mrc
 * saw it, so that a plane's window reacts to queues in the fabric and not
 * to a busy host.
 *
 * A plane's delay rule (cc.rst, Delay) cuts the window when a round's
 * smallest RTT sample exceeds the base RTT by more than the target.  An
 * RTT sample is the time from our transmission to the ACK's processing,
 * less the delay the peer reports between the trigger's processing and
 * its ACK.  It still holds the time each of the two packets waited in its
 * receiving host: in a softirq backlog, behind the packets of a NAPI
 * batch, in the UDP socket's queue, for the connection's lock.  When the
 * hosts are the bottleneck (P5: one vCPU runs the sender and both
 * directions' veth receive), those waits are 100-1500 us against a
 * base RTT of 15 us, and the rule cut the window in seven rounds of ten
 * (2-3 segments): a busy host looked like a standing queue.
 *
 * As Swift separates endpoint from fabric delay, the waits are measured
 * where they happen: the kernel stamps a packet's arrival (skb->tstamp,
 * CLOCK_REALTIME, where it enters the host's receive path) once a socket
 * asks for receive timestamps (net_enable_timestamp(), a static key), and
 * the receiver subtracts it from the time it processes the packet.  The
 * peer's wait for a trigger travels back in the ACK (host_delay_us, with
 * the MRC_F_REQ_HOST_DELAY capability), our wait for the ACK is our own;
 * the plane's congestion control gets the RTT sample less both.  Loss
 * detection, the RTO and the paths keep the full sample: a packet that
 * waits in a host is still late.  Both halves are measured and used only
 * on connections that settled the capability.
 *
 * The timestamps are asked for by mrc's UDP sockets opened while
 * cc_host_delay is on (sock_enable_timestamps(); __sk_destruct() gives
 * them back): while such a port's sockets exist, the kernel stamps every
 * packet the machine receives (one clock read each, TCP's too), and mrc
 * reads the clock once more per datagram or burst of such a connection.
 * The parameter decides the capability for each new connection, but the
 * stamps only for ports opened after it changed.  The kernel's stamping
 * is one switch for the whole machine (a static key, on while any socket
 * asked), so a port whose sockets did not ask may still see stamped
 * packets, thanks to some other socket; mrc does not rely on that: a
 * device whose port was opened while the parameter was off neither
 * offers nor accepts HOST_DELAY (mrc_host_delay_offer()) until its port
 * is opened again with it on (udp-port changed away and back, with no
 * connection), and stamps stay on after it was turned off.
 *
 * Limits.  A wait counts from the stamp in the receiving namespace: a
 * packet redirected to an ifb (or by tc mirred) keeps its first stamp, so
 * a queue there counts as host wait.  The peer's half is the peer's word:
 * a peer can switch off the delay rule of its own connection (it could
 * also withhold or delay its ACKs); what is above MRC_HOST_DELAY_MAX_US is
 * taken as unknown (0).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/moduleparam.h>
#include <linux/skbuff.h>
#include <net/sock.h>

#include "mrc.h"

static bool cc_host_delay = true;
module_param(cc_host_delay, bool, 0644);
MODULE_PARM_DESC(cc_host_delay,
		 "Planes' windows ignore the time packets wait in the receiving hosts (receive timestamps on for UDP sockets opened while set; a capability of the handshake)");

/*
 * Did mrc ask for receive timestamps on this UDP socket?  No IPv6 socket
 * (a kernel without IPv6) asks nothing.
 */
static bool mrc_host_delay_stamped(const struct socket *sock)
{
	return !sock || sock_flag(sock->sk, SOCK_TIMESTAMP);
}

/**
 * mrc_host_delay_offer() - may a new connection of @mdev offer or accept
 *	HOST_DELAY?
 * @mdev: its device
 *
 * Only if cc_host_delay is on and the device's UDP sockets asked for
 * receive timestamps themselves (they were opened while it was on): the
 * stamps are then certain, not left to whatever other socket of the
 * machine asked for them.
 *
 * Context: any (takes the RCU read lock).
 * Return: true to offer (or accept) it.
 */
bool mrc_host_delay_offer(const struct mrc_dev *mdev)
{
	const struct mrc_udp_port *up;
	bool ok;

	if (!READ_ONCE(cc_host_delay))
		return false;
	rcu_read_lock();
	up = rcu_dereference(mdev->udp);
	ok = up && mrc_host_delay_stamped(up->sock4) &&
	     mrc_host_delay_stamped(up->sock6);
	rcu_read_unlock();
	return ok;
}

/**
 * mrc_host_delay_sock() - a UDP socket of ours asks for receive timestamps
 *	if cc_host_delay is on
 * @sk: the socket (its destruction gives them back)
 *
 * Context: process.
 */
void mrc_host_delay_sock(struct sock *sk)
{
	if (READ_ONCE(cc_host_delay))
		sock_enable_timestamps(sk);
}

/**
 * mrc_host_delay_us() - how long @skb waited in this host so far
 * @skb: a received packet
 *
 * Return: microseconds since the kernel stamped its arrival; 0 if it
 * carries no stamp (nobody asked for timestamps when it arrived), or if
 * the stamp is in the future or MRC_HOST_DELAY_MAX_US or more old (the
 * realtime clock was set meanwhile).
 */
u32 mrc_host_delay_us(const struct sk_buff *skb)
{
	s64 us;

	if (!skb->tstamp)
		return 0;
	us = ktime_us_delta(ktime_get_real(), skb->tstamp);
	return us > 0 && us < (s64)MRC_HOST_DELAY_MAX_US ? (u32)us : 0;
}
