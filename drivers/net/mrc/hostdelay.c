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
 * CLOCK_REALTIME, at netif_rx() or the NAPI receive) once any user asks
 * for receive timestamps (net_enable_timestamp(), a static key), and the
 * receiver subtracts it from the time it processes the packet.  The
 * peer's wait for a trigger travels back in the ACK (host_delay_us, with
 * the MRC_F_REQ_HOST_DELAY capability), our wait for the ACK is our own;
 * the plane's congestion control gets the RTT sample less both.  Loss
 * detection, the RTO and the paths keep the full sample: a packet that
 * waits in a host is still late.
 *
 * The kernel stamps every received packet of the machine while the key is
 * on (one clock read each, TCP's too), and mrc reads the clock once more
 * per datagram or burst: both only with cc_host_delay.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/moduleparam.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>

#include "mrc.h"

/* Whether net_enable_timestamp() is ours to undo: from init to exit. */
static bool mrc_host_delay_live;
static bool cc_host_delay = true;

/* Turning the parameter on or off turns the kernel's stamps with it. */
static int mrc_host_delay_set(const char *val, const struct kernel_param *kp)
{
	bool old = cc_host_delay;
	int err;

	err = param_set_bool(val, kp);
	if (err || !mrc_host_delay_live || old == cc_host_delay)
		return err;
	if (cc_host_delay)
		net_enable_timestamp();
	else
		net_disable_timestamp();
	return 0;
}

static const struct kernel_param_ops mrc_host_delay_ops = {
	.set = mrc_host_delay_set,
	.get = param_get_bool,
};

module_param_cb(cc_host_delay, &mrc_host_delay_ops, &cc_host_delay, 0644);
MODULE_PARM_DESC(cc_host_delay,
		 "Planes' windows ignore the time packets wait in the receiving hosts (receive timestamps on; a capability of the handshake)");

/**
 * mrc_host_delay_on() - is host delay measured and offered?
 *
 * Return: the cc_host_delay parameter.
 */
bool mrc_host_delay_on(void)
{
	return READ_ONCE(cc_host_delay);
}

/**
 * mrc_host_delay_us() - how long @skb waited in this host so far
 * @skb: a received packet
 *
 * Return: microseconds since the kernel stamped its arrival; 0 if it
 * carries no stamp (the parameter is off, or was off when it arrived),
 * or if the stamp is in the future or more than a second old (the
 * realtime clock was set meanwhile).
 */
u32 mrc_host_delay_us(const struct sk_buff *skb)
{
	s64 us;

	if (!skb->tstamp || !READ_ONCE(cc_host_delay))
		return 0;
	us = ktime_us_delta(ktime_get_real(), skb->tstamp);
	return us > 0 && us < USEC_PER_SEC ? (u32)us : 0;
}

/**
 * mrc_host_delay_init() - receive timestamps on if the parameter says so
 *
 * Context: module init, after the parameters were set.
 */
void __init mrc_host_delay_init(void)
{
	kernel_param_lock(THIS_MODULE);
	if (cc_host_delay)
		net_enable_timestamp();
	mrc_host_delay_live = true;
	kernel_param_unlock(THIS_MODULE);
}

/**
 * mrc_host_delay_exit() - undo mrc_host_delay_init() and the parameter's
 *	changes since
 *
 * Context: module exit or a failed init.
 */
void mrc_host_delay_exit(void)
{
	kernel_param_lock(THIS_MODULE);
	mrc_host_delay_live = false;
	if (cc_host_delay)
		net_disable_timestamp();
	kernel_param_unlock(THIS_MODULE);
}
