// SPDX-License-Identifier: GPL-2.0
/*
 * handshake.c - opening a connection: REQ, ACCEPT, and RESET replies;
 * and a RESET received, which ends a connection in any state.
 *
 *   client                                   server (listening)
 *   connect(): REQ (rails, isn, credit) --->  half-open child (REQ_RCVD),
 *                                             ACCEPT (rails, isn, credit)
 *   ESTABLISHED  <--- ACCEPT
 *   ACK --------------------------------->  ESTABLISHED, on the accept queue
 *
 * Both ends announce their rails (plane -> address); data then flows on
 * every plane both have, with a segment size both can carry.  The REQ
 * goes out on the rail that routes to the address connect() named (any
 * rail address of the peer works).  REQ and ACCEPT are retransmitted
 * with backoff until answered or until the dead-peer time passes.  A REQ
 * to a port nobody listens on is answered with a RESET, so connect()
 * fails with ECONNREFUSED at once.  Half-open children are capped per
 * device (MRC_HALF_OPEN_MAX) and per listener (its backlog).
 *
 * Capabilities (MRC_F_REQ_* flags, wire.rst): a client's first REQ offers
 * what the ack_piggyback parameter allows; the server keeps what it
 * supports too and says so in its ACCEPT, which decides for both ends.
 * A server from before capabilities drops a REQ with flags, so the REQ's
 * retransmissions offer none, as TCP retries a SYN without ECN.
 *
 * Reading order: af_mrc.c (connect()) -> here -> xmit.c; udp.c hands
 * a REQ here, input.c an ACCEPT or a RESET; after the handshake, data
 * goes through output.c and recv.c.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/inetdevice.h>
#include <linux/random.h>
#include <net/addrconf.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/ipv6_stubs.h>
#include <net/route.h>

#include "sock.h"

static bool ack_piggyback = true;
module_param(ack_piggyback, bool, 0644);
MODULE_PARM_DESC(ack_piggyback,
		 "New connections offer and accept ACKs carried on DATA (a capability of the handshake)");

/* The capabilities we offer or accept now on @mdev. */
static u8 mrc_handshake_caps(const struct mrc_dev *mdev)
{
	return (READ_ONCE(ack_piggyback) ? MRC_F_REQ_ACK_DATA : 0) |
	       (mrc_host_delay_offer(mdev) ? MRC_F_REQ_HOST_DELAY : 0);
}

/*
 * The connection uses @caps.  With ACK_DATA the peer may hold an ACK for
 * its answer, up to its ack_pingpong_us (at most MRC_ACK_PINGPONG_MAX_US):
 * our RTO allows for that.
 */
static void mrc_handshake_set_caps(struct mrc_sock *ms, u8 caps)
{
	ms->caps = caps;
	ms->rtt.max_ack_delay_us = caps & MRC_F_REQ_ACK_DATA ? MRC_ACK_PINGPONG_MAX_US : 0;
}

/* The rail's first address of @family (AF_INET: v4-mapped). RCU. */
static bool mrc_rail_addr(const struct net_device *dev, int family,
			  struct in6_addr *addr)
{
	if (family == AF_INET) {
		const struct in_device *in_dev = __in_dev_get_rcu(dev);
		const struct in_ifaddr *ifa;

		if (!in_dev)
			return false;
		in_dev_for_each_ifa_rcu(ifa, in_dev) {
			ipv6_addr_set_v4mapped(ifa->ifa_local, addr);
			return true;
		}
		return false;
	}
#if IS_ENABLED(CONFIG_IPV6)
	{
		const struct inet6_dev *idev = __in6_dev_get(dev);
		const struct inet6_ifaddr *ifa6;

		if (!idev)
			return false;
		list_for_each_entry_rcu(ifa6, &idev->addr_list, if_list) {
			if (ipv6_addr_type(&ifa6->addr) & IPV6_ADDR_LINKLOCAL)
				continue;
			*addr = ifa6->addr;
			return true;
		}
	}
#endif
	return false;
}

/* Largest DATA payload a rail of @family carries. */
static u32 mrc_rail_max_payload(const struct net_device *dev, int family)
{
	u32 ip = family == AF_INET ? sizeof(struct iphdr) : sizeof(struct ipv6hdr);
	u32 mtu = READ_ONCE(dev->mtu);

	if (mtu < ip + sizeof(struct udphdr) + MRC_DATA_HDR_LEN + 64)
		return 0;
	return min_t(u32, mtu - ip - sizeof(struct udphdr) - MRC_DATA_HDR_LEN,
		     U16_MAX);
}

/* The rail of a plane a connection has none on (mrc_lrail(), mrc_prail()). */
const struct mrc_endpoint_rail mrc_no_rail;

/*
 * Our rails of @family, for the handshake, in a new @lrail (and room for
 * the peer's after them), up to our highest plane with a rail: most connections have a
 * few planes, not MRC_MAX_RAILS.  *@payload: what all of them can carry.
 * Context: RCU; @ms is neither hashed nor on a device yet.
 * Return: 0 or -ENOMEM.
 */
static int mrc_fill_lrails(struct mrc_sock *ms, struct mrc_dev *mdev,
			   int family, u32 *payload)
{
	struct mrc_endpoint_rail *rails;
	u32 plane, n = 0;

	for (plane = 0; plane < MRC_MAX_RAILS; plane++)
		if (rcu_access_pointer(mdev->rails[plane]))
			n = plane + 1;
	/* A REQ is enough to get here: a flood must not fill the log. */
	rails = kcalloc(2 * n, sizeof(*rails), GFP_ATOMIC | __GFP_NOWARN);
	if (!rails)
		return -ENOMEM;
	kfree(ms->lrail);	/* of a connect() that failed before */
	ms->lrail = rails;
	ms->nrails = n;
	*payload = U16_MAX;
	for (plane = 0; plane < n; plane++) {
		struct mrc_rail *rail = rcu_dereference(mdev->rails[plane]);
		struct mrc_endpoint_rail *er = &ms->lrail[plane];

		if (!rail || !mrc_rail_addr(rail->dev, family, &er->addr))
			continue;
		er->family = family;
		*payload = min(*payload, mrc_rail_max_payload(rail->dev, family));
	}
	return 0;
}

/**
 * mrc_handshake_free_rails() - forget both ends' rails
 * @ms: the socket, unreachable
 */
void mrc_handshake_free_rails(struct mrc_sock *ms)
{
	kfree(ms->lrail);
	ms->lrail = NULL;
	ms->nrails = 0;
}

static int mrc_addr_family(const struct in6_addr *addr)
{
	return ipv6_addr_v4mapped(addr) ? AF_INET : AF_INET6;
}

/*
 * Does the routing table send @daddr, from @saddr, out of @dev?  No output
 * interface is forced here: with one, Linux assumes any destination is on
 * link.  Per-plane routes (or source-address policy rules) decide.
 */
static bool mrc_rail_routes(struct net *net, const struct net_device *dev,
			    const struct in6_addr *saddr,
			    const struct in6_addr *daddr)
{
	if (ipv6_addr_v4mapped(daddr)) {
		struct flowi4 fl4 = {
			.daddr = daddr->s6_addr32[3],
			.saddr = saddr->s6_addr32[3],
			.flowi4_proto = IPPROTO_UDP,
		};
		struct rtable *rt = ip_route_output_key(net, &fl4);
		bool ok;

		if (IS_ERR(rt))
			return false;
		ok = rt->dst.dev == dev;
		ip_rt_put(rt);
		return ok;
	}
#if IS_ENABLED(CONFIG_IPV6)
	{
		struct flowi6 fl6 = {
			.daddr = *daddr,
			.saddr = *saddr,
			.flowi6_proto = IPPROTO_UDP,
		};
		struct dst_entry *dst;
		bool ok;

		dst = ipv6_stub->ipv6_dst_lookup_flow(net, NULL, &fl6, NULL);
		if (IS_ERR(dst))
			return false;
		ok = dst->dev == dev;
		dst_release(dst);
		return ok;
	}
#endif
	return false;
}

/**
 * mrc_connect_route() - the device and plane to open a connection through
 * @net: the namespace
 * @ifindex: an mrc device to use, or 0 for any
 * @daddr: the address connect() names
 * @plane: set to the plane whose rail reaches @daddr
 *
 * Context: RCU.
 * Return: the device, or NULL if no rail of a device reaches @daddr.
 */
struct mrc_dev *mrc_connect_route(struct net *net, int ifindex,
				  const struct in6_addr *daddr, u8 *plane)
{
	int family = mrc_addr_family(daddr);
	struct mrc_dev *mdev;
	u32 p;

	list_for_each_entry_rcu(mdev, &mrc_net(net)->devs, list) {
		if (ifindex && mdev->dev->ifindex != ifindex)
			continue;
		if (!(mdev->dev->flags & IFF_UP))
			continue;
		for (p = 0; p < MRC_MAX_RAILS; p++) {
			struct mrc_rail *rail = rcu_dereference(mdev->rails[p]);
			struct in6_addr saddr;

			if (!rail || READ_ONCE(rail->oper_state) != MRC_OPER_STATE_UP ||
			    !mrc_rail_addr(rail->dev, family, &saddr) ||
			    !mrc_rail_routes(net, rail->dev, &saddr, daddr))
				continue;
			*plane = p;
			return mdev;
		}
	}
	return NULL;
}

/*
 * A REQ or ACCEPT of @ms.  A REQ is padded to MRC_REQ_WIRE_LEN, so that no
 * ACCEPT is larger than the REQ it answers; an ACCEPT echoes the REQ's isn.
 * Context: conn lock, RCU.
 */
static struct sk_buff *mrc_build_req(struct mrc_sock *ms, u8 type)
{
	struct mrc_req_info r = {
		.dst_port = ntohs(ms->peer.smrc_port),
		.src_port = ntohs(ms->local.smrc_port),
		.isn = ms->isn,
		.rwnd = mrc_input_initial_credit(ms, ms->mdev),
		.max_payload = ms->seg_size,
		.max_msg_size = ms->max_msg,
		.echo = type == MRC_PKT_ACCEPT ? ms->peer_isn : 0,
	};
	struct sk_buff *skb;
	u32 plane, len, i = 0;
	void *body;

	lockdep_assert_held(&ms->lock);
	for (plane = 0; plane < ms->nrails; plane++)
		r.n_rails += !!ms->lrail[plane].family;
	len = type == MRC_PKT_REQ ? MRC_REQ_WIRE_LEN : MRC_REQ_LEN(r.n_rails);
	skb = mrc_xmit_alloc(ms, len);
	if (!skb)
		return NULL;
	/* A REQ's retransmissions offer nothing (the first one's backoff is 0). */
	mrc_wire_put_hdr(skb_put(skb, MRC_HDR_LEN), type,
			 type == MRC_PKT_ACCEPT ? ms->caps : ms->backoff ? 0 : ms->caps_offer,
			 type == MRC_PKT_REQ ? 0 : ms->peer_id, ms->id);
	body = skb_put(skb, len - MRC_HDR_LEN);
	mrc_wire_put_req(body, type, &r);
	for (plane = 0; plane < ms->nrails; plane++) {
		const struct mrc_endpoint_rail *er = &ms->lrail[plane];

		if (er->family == AF_INET)
			mrc_wire_put_rail(body, i++, plane, 4, &er->addr.s6_addr32[3]);
		else if (er->family)
			mrc_wire_put_rail(body, i++, plane, 6, &er->addr);
	}
	return skb;
}

/*
 * Take the peer's rails, segment size, credit and isn from a REQ/ACCEPT.
 * False if the peer cannot carry segments of at least min_seg_size bytes:
 * the receive memory a connection may pin grows as segments shrink, so
 * the smallest segment we accept is our setting, not the peer's.
 */
static bool mrc_take_peer(struct mrc_sock *ms, const struct mrc_pkt *pkt,
			  const struct mrc_dev *mdev)
{
	const struct mrc_wire_req *req = &pkt->u.req.req;
	struct mrc_endpoint_rail *prail = ms->lrail + ms->nrails;
	u32 i;

	if (be16_to_cpu(req->max_payload) < READ_ONCE(mrc_min_seg_size))
		return false;

	memset(prail, 0, ms->nrails * sizeof(*prail));
	for (i = 0; i < req->n_rails; i++) {
		const struct mrc_wire_rail *wr = &pkt->u.req.rails[i];
		struct mrc_endpoint_rail *er;

		/* Where we have no rail, no path goes: not worth keeping. */
		if (wr->plane >= ms->nrails)
			continue;
		er = &prail[wr->plane];

		if (wr->family == 4) {
			__be32 a;

			memcpy(&a, wr->addr, 4);
			er->family = AF_INET;
			ipv6_addr_set_v4mapped(a, &er->addr);
		} else {
			er->family = AF_INET6;
			memcpy(&er->addr, wr->addr, 16);
		}
	}
	WRITE_ONCE(ms->peer_id, pkt->src_conn);
	ms->peer_isn = be32_to_cpu(req->isn);
	ms->rwnd_psn = ms->isn + min_t(u32, be32_to_cpu(req->rwnd), MRC_WIN_PKTS);
	ms->seg_size = min_t(u32, ms->seg_size, be16_to_cpu(req->max_payload));
	ms->peer_max_msg = be32_to_cpu(req->max_msg_size);
	mrc_rxwin_init(&ms->rxw, ms->peer_isn);
	/* Until a packet arrives, ACKs name none (a PSN before the peer's). */
	ms->ack_trig.psn = ms->peer_isn - 1;
	ms->rx_truesize = mrc_input_truesize(ms->seg_size);
	/* The credit of our REQ/ACCEPT: enforced from now on. */
	ms->rwnd_adv = ms->peer_isn + mrc_input_initial_credit(ms, mdev);
	return true;
}

/*
 * A client's scoreboard ring of the initial size, until its paths are set
 * up (mrc_output_ring_init()): it marks the socket as used (connecting,
 * connected or over) for af_mrc.c.
 */
static int mrc_alloc_txwin(struct mrc_sock *ms, gfp_t gfp)
{
	ms->txrec = kcalloc(MRC_TXWIN_MIN, sizeof(*ms->txrec), gfp);
	ms->txseg = kcalloc(MRC_TXWIN_MIN, sizeof(*ms->txseg), gfp);
	if (!ms->txrec || !ms->txseg) {
		kfree(ms->txrec);
		kfree(ms->txseg);
		ms->txrec = NULL;
		ms->txseg = NULL;
		return -ENOMEM;
	}
	/* No groups until the paths exist: nothing is sent before. */
	mrc_txwin_init(&ms->txw, ms->isn, ms->txrec, MRC_TXWIN_MIN, NULL);
	return 0;
}

/**
 * mrc_handshake_child_ready() - a half-open child heard from its client
 * @ms: the child (conn lock), still in REQ_RCVD
 *
 * Gives it what only an established connection needs: the scoreboard and
 * the paths.  Until now a spoofed REQ cost us the child's socket alone.
 *
 * Return: 0, -ENOMEM or -ENETUNREACH.
 */
int mrc_handshake_child_ready(struct mrc_sock *ms)
{
	int err;

	lockdep_assert_held(&ms->lock);
	err = mrc_path_setup(ms, ms->mdev, GFP_ATOMIC);
	if (!err)
		mrc_output_ring_init(ms);	/* the scoreboard, in the path block */
	return err;
}

/**
 * mrc_connect_start() - send the REQ of a connect()
 * @ms: the socket, bound, with @peer set (lock_sock held)
 * @mdev: the device (from mrc_connect_route())
 * @plane: the plane whose rail reaches the peer
 * @xq: where the REQ is queued
 *
 * Context: process context, RCU read-side section.
 * Return: 0, or -ENOMEM / -ENETUNREACH.
 */
int mrc_connect_start(struct mrc_sock *ms, struct mrc_dev *mdev, u8 plane,
		      struct sk_buff_head *xq)
{
	int family = mrc_addr_family(&ms->peer.smrc_addr);
	struct sk_buff *skb;
	u32 payload;

	if (mrc_fill_lrails(ms, mdev, family, &payload))
		return -ENOMEM;
	/*
	 * Every rail carries a padded REQ (IPv4: MTU 704; the REQ has DF
	 * set), hence DATA of 640 bytes, more than the min_seg_size we
	 * accept by default.
	 */
	if (!mrc_lrail(ms, plane)->family || payload < READ_ONCE(mrc_min_seg_size) ||
	    payload + MRC_DATA_HDR_LEN < MRC_REQ_WIRE_LEN)
		return -ENETUNREACH;
	/* A RESET that answers the REQ carries the isn as src_conn: not 0. */
	do {
		ms->isn = get_random_u32();
	} while (!ms->isn);
	if (mrc_alloc_txwin(ms, GFP_ATOMIC))
		return -ENOMEM;
	ms->seg_size = payload;
	ms->rx_truesize = mrc_input_truesize(payload);
	ms->max_msg = READ_ONCE(mdev->max_msg_size);
	ms->client = true;
	ms->req_plane = plane;
	ms->caps_offer = mrc_handshake_caps(mdev);
	ms->udp_port = READ_ONCE(mdev->udp_port);

	spin_lock_bh(&ms->lock);
	if (!mrc_conn_set_dev(ms, mdev)) {
		/* The device is going away: the socket may connect again. */
		mrc_conn_spin_unlock(ms);
		kfree(ms->txrec);
		kfree(ms->txseg);
		ms->txrec = NULL;
		ms->txseg = NULL;
		memset(&ms->txw, 0, sizeof(ms->txw));
		return -ENETUNREACH;
	}
	/*
	 * Its id first, so that the state change is traced with it: the id
	 * is in no packet before the REQ leaves (after the unlock), and a
	 * packet that names it is received under this lock, after the state.
	 */
	mrc_conn_hash(ms);
	mrc_set_state(ms, MRC_ST_REQ_SENT);
	ms->last_progress = jiffies;
	skb = mrc_build_req(ms, MRC_PKT_REQ);
	if (skb) {
		mrc_xmit_raw_prepare(skb, ms, plane, &mrc_lrail(ms, plane)->addr,
				     &ms->peer.smrc_addr, ms->udp_port, 0);
		__skb_queue_tail(xq, skb);
	}
	mrc_conn_arm_rto(ms);
	mrc_conn_spin_unlock(ms);
	return 0;
}

/*
 * The ACCEPT goes back where the REQ came from, from the address it went
 * to, not to the rails the REQ announces: until the client answers, those
 * are only claims, and a REQ with a forged source must not make us send
 * to a third party more than one ACCEPT per REQ (and its retransmits).
 */
static void mrc_prepare_accept(struct mrc_sock *ms, struct sk_buff *skb)
{
	mrc_xmit_raw_prepare(skb, ms, ms->req_plane, &ms->local.smrc_addr,
			     &ms->peer.smrc_addr, ms->udp_port, 0);
}

/* Queue an ACCEPT of the half-open @ms. Context: conn lock, RCU. */
static bool mrc_send_accept(struct mrc_sock *ms, struct sk_buff_head *xq)
{
	struct sk_buff *skb = mrc_build_req(ms, MRC_PKT_ACCEPT);

	lockdep_assert_held(&ms->lock);
	if (!skb)
		return false;
	mrc_prepare_accept(ms, skb);
	__skb_queue_tail(xq, skb);
	return true;
}

/**
 * mrc_handshake_retransmit() - the REQ or ACCEPT went unanswered
 * @ms: the connection (conn lock)
 * @xq: where the packet is queued
 *
 * Return: true if a packet was queued.
 */
bool mrc_handshake_retransmit(struct mrc_sock *ms, struct sk_buff_head *xq)
{
	struct sk_buff *skb;
	u8 plane;

	lockdep_assert_held(&ms->lock);
	ms->backoff = min(ms->backoff + 1, 16U);
	mrc_conn_arm_rto(ms);
	if (ms->state == MRC_ST_REQ_SENT) {
		skb = mrc_build_req(ms, MRC_PKT_REQ);
		plane = ms->req_plane;
		if (skb)
			mrc_xmit_raw_prepare(skb, ms, plane, &mrc_lrail(ms, plane)->addr,
					     &ms->peer.smrc_addr, ms->udp_port, 0);
	} else {
		/*
		 * A REQ with a forged source makes us send ACCEPTs to
		 * whoever owns it: few retransmissions.  A client whose
		 * ACCEPT got lost repeats its REQ, and each REQ is
		 * answered (mrc_handshake_rcv()).
		 */
		if (ms->backoff > MRC_ACCEPT_RETRIES)
			return false;
		return mrc_send_accept(ms, xq);
	}
	if (!skb)
		return false;
	__skb_queue_tail(xq, skb);
	return true;
}

/**
 * mrc_send_reset() - tell the peer the connection is over
 * @ms: the connection (conn lock), with a device and a peer
 * @reason: enum mrc_reset_reason
 * @xq: where the RESET is queued
 *
 * A half-open child (REQ_RCVD) answers a REQ: its client does not know
 * our id yet and checks the RESET against its isn, which the RESET then
 * carries as src_conn.
 */
void mrc_send_reset(struct mrc_sock *ms, u32 reason, struct sk_buff_head *xq)
{
	struct sk_buff *skb;
	int path;
	u8 plane;

	lockdep_assert_held(&ms->lock);
	skb = mrc_xmit_alloc(ms, MRC_RESET_LEN);
	if (!skb)
		return;
	mrc_wire_put_hdr(skb_put(skb, MRC_HDR_LEN), MRC_PKT_RESET, 0, ms->peer_id,
			 ms->state == MRC_ST_REQ_RCVD ? ms->peer_isn : ms->id);
	mrc_wire_put_reset(skb_put(skb, sizeof(struct mrc_wire_reset)), reason);
	if (ms->state == MRC_ST_REQ_RCVD) {
		/* Where the ACCEPT went: the rails are not proven yet. */
		mrc_prepare_accept(ms, skb);
		__skb_queue_tail(xq, skb);
		return;
	}
	path = mrc_path_pick_any(ms);
	if (path >= 0) {
		mrc_xmit_prepare(ms, skb, ms->evs[path].plane,
				 ms->evs[path].ev);
	} else if (mrc_prail(ms, ms->req_plane)->family &&
		   mrc_plane_proven(ms, ms->req_plane)) {
		plane = ms->req_plane;
		mrc_xmit_prepare(ms, skb, plane, 0);
	} else {
		/* Where the handshake went: that address is proven. */
		plane = ms->req_plane;
		mrc_xmit_raw_prepare(skb, ms, plane, &mrc_lrail(ms, plane)->addr,
				     &ms->peer.smrc_addr, ms->udp_port, 0);
	}
	__skb_queue_tail(xq, skb);
}

/*
 * At most MRC_RESET_REPLY_BURST replies in a second: the second and its
 * count change together in one cmpxchg (__ratelimit() refuses whenever
 * two CPUs meet on its lock, so a lone stray could go unanswered while
 * the device is far below the limit).  The clock is read again on each
 * try, and a second that began up to a second after our reading (another
 * CPU's, a tick later) is the current one, not an old one: no count is
 * thrown away.  The window's start keeps the low 32 bits of jiffies:
 * after an idle time within a second of a multiple of 2^32 jiffies (49.7
 * days at HZ=1000) the old count is taken for the current one, which can
 * only refuse replies for at most two seconds.
 */
static bool mrc_reset_reply_allowed(struct mrc_dev *mdev)
{
	s64 old = atomic64_read(&mdev->reset_rl), new;

	do {
		u32 now = (u32)jiffies;
		s32 age = now - (u32)((u64)old >> 32);
		bool fresh = age >= HZ || age < -HZ;

		if (!fresh && (u32)old >= MRC_RESET_REPLY_BURST)
			return false;
		new = fresh ? (s64)((u64)now << 32 | 1) : old + 1;
	} while (!atomic64_try_cmpxchg(&mdev->reset_rl, &old, new));
	return true;
}

/**
 * mrc_reset_reply() - answer a packet that has no connection with a RESET
 * @mdev: the device it arrived on
 * @rail: the rail it arrived on
 * @pkt: the packet
 * @saddr: its source
 * @reason: enum mrc_reset_reason
 *
 * At most one small packet per packet received, and at most
 * MRC_RESET_REPLY_BURST per second per device: a flood of strays (spoofed,
 * perhaps, to aim our replies at a third party) gets the rest unanswered.
 * They are counted as dropped either way.  A REQ names no connection of
 * ours: the RESET carries the REQ's isn as src_conn, which its client
 * checks (it knows no id of ours yet).  Context: softirq, RCU.
 */
void mrc_reset_reply(struct mrc_dev *mdev, struct mrc_rail *rail,
		     const struct mrc_pkt *pkt, const struct in6_addr *saddr,
		     u32 reason)
{
	struct in6_addr laddr;
	struct sk_buff *skb;

	if (!mrc_reset_reply_allowed(mdev) ||
	    !mrc_udp_unicast_source(dev_net(mdev->dev), rail->dev, saddr))
		return;
	if (!mrc_rail_addr(rail->dev, mrc_addr_family(saddr), &laddr))
		return;
	skb = mrc_xmit_alloc(NULL, MRC_RESET_LEN);
	if (!skb)
		return;
	mrc_wire_put_hdr(skb_put(skb, MRC_HDR_LEN), MRC_PKT_RESET, 0, pkt->src_conn,
			 pkt->type == MRC_PKT_REQ ? be32_to_cpu(pkt->u.req.req.isn) :
			 pkt->dst_conn);
	mrc_wire_put_reset(skb_put(skb, sizeof(struct mrc_wire_reset)), reason);
	mrc_xmit_reply(mdev, skb, READ_ONCE(rail->plane), &laddr, saddr, 0);
}

/* A duplicate REQ (our ACCEPT got lost): the existing child, referenced. */
static struct mrc_sock *mrc_find_half_open(struct mrc_sock *lis,
					   const struct mrc_pkt *pkt,
					   const struct in6_addr *saddr)
{
	struct mrc_sock *child, *found = NULL;

	spin_lock(&lis->accept_lock);
	list_for_each_entry(child, &lis->half_open_list, accept_node) {
		if (child->peer_id == pkt->src_conn &&
		    ipv6_addr_equal(&child->peer.smrc_addr, saddr)) {
			sock_hold(&child->sk);
			found = child;
			break;
		}
	}
	spin_unlock(&lis->accept_lock);
	return found;
}

/**
 * mrc_handshake_rcv() - a REQ arrived
 * @mdev: the device
 * @rail: the rail it came in on
 * @plane: that rail's plane (read once by the caller)
 * @pkt: its parsed header (its rails point into the packet: the caller
 *	frees the packet after)
 * @saddr: its source address
 * @daddr: its destination address (ours)
 *
 * Context: softirq, RCU.
 * Return: MRC_DROP_NONE if the REQ was taken (a child made, or an ACCEPT
 * sent again), else why it was dropped (counted here; the caller frees it
 * with mrc_kfree_skb()).
 */
enum mrc_drop_reason mrc_handshake_rcv(struct mrc_dev *mdev,
				       struct mrc_rail *rail, u8 plane,
				       struct mrc_pkt *pkt,
				       const struct in6_addr *saddr,
				       const struct in6_addr *daddr)
{
	u16 port = be16_to_cpu(pkt->u.req.req.dst_port);
	enum mrc_drop_reason why = MRC_DROP_NONE;
	struct mrc_sock *lis, *child;
	struct sk_buff_head xq;
	bool reserved = false;
	int err;
	u32 payload;

	lis = mrc_listener_lookup(dev_net(mdev->dev), mdev, port, daddr);
	if (!lis) {
		mrc_stats_rx_drop(mdev, rail, MRC_DROP_NO_LISTENER, pkt);
		mrc_reset_reply(mdev, rail, pkt, saddr, MRC_RESET_NO_LISTENER);
		return MRC_DROP_NO_LISTENER;
	}
	child = mrc_find_half_open(lis, pkt, saddr);
	if (child) {
		mrc_conn_lock(child, &xq);
		if (child->state == MRC_ST_REQ_RCVD)
			mrc_send_accept(child, &xq);
		mrc_conn_unlock(child, &xq);
		sock_put(&child->sk);
		goto out;
	}

	/*
	 * The device's place is taken here, atomically: REQs that several
	 * CPUs receive at once must not all pass a check of the count and
	 * then add to it.  It is given back below if no child comes of it,
	 * and by the child when it leaves REQ_RCVD.
	 */
	reserved = atomic_add_unless(&mdev->half_open, 1, MRC_HALF_OPEN_MAX);
	if (!reserved || mrc_listener_full(lis)) {
		why = MRC_DROP_BACKLOG;
		mrc_stats_rx_drop(mdev, rail, why, pkt);
		goto out;
	}
	child = mrc_child_alloc(lis);
	if (!child) {
		why = MRC_DROP_NO_BUFFER;
		mrc_stats_rx_drop(mdev, rail, why, pkt);
		goto out;
	}
	child->peer.smrc_family = mrc_params.family;
	child->peer.smrc_port = pkt->u.req.req.src_port;
	child->peer.smrc_addr = *saddr;
	child->local.smrc_family = mrc_params.family;
	child->local.smrc_port = htons(port);
	child->local.smrc_ifindex = mdev->dev->ifindex;
	child->local.smrc_addr = *daddr;
	child->bound = true;
	child->isn = get_random_u32();
	child->req_plane = plane;
	mrc_handshake_set_caps(child, pkt->flags & mrc_handshake_caps(mdev));
	child->udp_port = READ_ONCE(mdev->udp_port);
	child->max_msg = READ_ONCE(mdev->max_msg_size);
	if (mrc_fill_lrails(child, mdev, mrc_addr_family(saddr), &payload)) {
		why = MRC_DROP_NO_BUFFER;
		mrc_stats_rx_drop(mdev, rail, why, pkt);
		mrc_child_drop(lis, child);
		goto out;
	}
	child->seg_size = payload;
	/*
	 * On the REQ's plane we are the address it was sent to (any address
	 * of the rail, not only its first): the client proved that one, and
	 * expects our packets from it.
	 */
	if (mrc_lrail(child, plane)->family)
		child->lrail[plane].addr = *daddr;
	if (payload < READ_ONCE(mrc_min_seg_size) || !mrc_take_peer(child, pkt, mdev) ||
	    !mrc_lrail(child, plane)->family || !mrc_prail(child, plane)->family) {
		why = MRC_DROP_BAD_FIELD;
		mrc_stats_rx_drop(mdev, rail, why, pkt);
		mrc_child_drop(lis, child);
		goto out;
	}

	/*
	 * The child costs its socket and nothing else until the client
	 * answers our ACCEPT: paths and the scoreboard come then
	 * (mrc_conn_established()).  It joins the device and the listener
	 * under its lock, so neither the device's deletion nor the
	 * listener's close can see it half made, and it fails to join
	 * either one that is already going away.
	 */
	mrc_conn_lock(child, &xq);
	if (!mrc_conn_set_dev(child, mdev)) {
		mrc_conn_unlock(child, &xq);
		why = MRC_DROP_STATE;
		mrc_stats_rx_drop(mdev, rail, why, pkt);
		mrc_child_drop(lis, child);
		goto out;
	}
	mrc_conn_hash(child);	/* its id first, as in mrc_connect_start() */
	mrc_set_state(child, MRC_ST_REQ_RCVD);
	reserved = false;	/* the child's now: it gives it back */
	child->last_progress = jiffies;
	err = mrc_listener_add_half_open(lis, child);
	if (err == -ECONNREFUSED) {
		/* The listener closed meanwhile: the client hears a RESET. */
		why = MRC_DROP_NO_LISTENER;
		mrc_stats_rx_drop(mdev, rail, why, pkt);
		mrc_conn_abort(child, 0, true, &xq);
	} else if (err) {
		/* Its backlog filled meanwhile: dropped, the client retries. */
		why = MRC_DROP_BACKLOG;
		mrc_stats_rx_drop(mdev, rail, why, pkt);
		mrc_conn_abort(child, 0, false, &xq);
	} else {
		mrc_send_accept(child, &xq);
		mrc_conn_arm_rto(child);
	}
	mrc_conn_unlock(child, &xq);
	/* ours: the table and the listener hold it now, or the RCU callback */
	sock_put(&child->sk);
out:
	if (reserved)
		atomic_dec(&mdev->half_open);
	sock_put(&lis->sk);
	return why;
}

/**
 * mrc_handshake_accept() - the ACCEPT of our REQ arrived
 * @ms: the connection (conn lock)
 * @rail: the rail it came in on
 * @plane: that rail's plane
 * @pkt: the packet (its rails point into the skb, which the caller keeps
 *	until this returns)
 * @xq: where the ACK completing the handshake is queued
 *
 * Return: why the packet was counted as a drop (the caller frees the skb
 * with it), or MRC_DROP_NONE.
 */
enum mrc_drop_reason mrc_handshake_accept(struct mrc_sock *ms,
					  struct mrc_rail *rail, u8 plane,
					  struct mrc_pkt *pkt,
					  struct sk_buff_head *xq)
{
	int err;

	lockdep_assert_held(&ms->lock);
	if (ms->state == MRC_ST_ESTABLISHED && pkt->src_conn == ms->peer_id) {
		/* Our completing ACK was lost: send another. */
		ms->ack_trig_plane = plane;
		mrc_input_send_ack(ms, xq);
		return MRC_DROP_NONE;
	}
	if (ms->state != MRC_ST_REQ_SENT) {
		mrc_stats_rx_drop(ms->mdev, rail, MRC_DROP_STATE, pkt);
		return MRC_DROP_STATE;
	}
	/* An ACCEPT keeps capabilities of our REQ's, never adds one. */
	if (pkt->flags & ~ms->caps_offer) {
		mrc_stats_rx_drop(ms->mdev, rail, MRC_DROP_BAD_FIELD, pkt);
		return MRC_DROP_BAD_FIELD;
	}
	mrc_handshake_set_caps(ms, pkt->flags);
	if (!mrc_take_peer(ms, pkt, ms->mdev)) {
		/*
		 * Segments smaller than we accept: refuse the connection, and
		 * tell the half-open child (raw, to the address connect()
		 * named) so it does not wait for us.
		 */
		mrc_stats_rx_drop(ms->mdev, rail, MRC_DROP_BAD_FIELD, pkt);
		WRITE_ONCE(ms->peer_id, pkt->src_conn);
		mrc_conn_abort(ms, EPROTO, true, xq);
		return MRC_DROP_BAD_FIELD;
	}
	err = mrc_path_setup(ms, ms->mdev, GFP_ATOMIC);
	if (err) {
		/* -ENETUNREACH: the rails share no plane. */
		mrc_conn_abort(ms, -err, true, xq);
		return MRC_DROP_NONE;
	}
	mrc_output_ring_init(ms);
	mrc_set_state(ms, MRC_ST_ESTABLISHED);
	ms->backoff = 0;
	ms->last_progress = jiffies;
	mrc_conn_rto_stop(ms);
	mrc_input_commit(ms);	/* the credit of our REQ */
	mrc_path_start(ms);
	ms->ack_trig_plane = plane;
	mrc_input_send_ack(ms, xq);
	ms->sk.sk_state_change(&ms->sk);
	mrc_output_push(ms, xq);
	return MRC_DROP_NONE;
}

/**
 * mrc_handshake_reset() - a RESET from the peer arrived
 * @ms: the connection (conn lock)
 * @xq: where what the abort sends is queued
 *
 * A connection whose every byte was delivered both ways (only our
 * CLOSE's acknowledgment is missing: the peer forgot the connection
 * after its TIME_WAIT) ends as finished, not reset.
 */
void mrc_handshake_reset(struct mrc_sock *ms, struct sk_buff_head *xq)
{
	lockdep_assert_held(&ms->lock);
	switch (ms->state) {
	case MRC_ST_REQ_SENT:
		mrc_conn_abort(ms, ECONNREFUSED, false, xq);
		break;
	case MRC_ST_TIME_WAIT:
		break;	/* finished: nothing to reset */
	default:
		/*
		 * As TCP in CLOSE_WAIT: once everything the peer sent is
		 * here, its reset is an EPIPE for our writer, not a reset of
		 * what we read.
		 */
		if (mrc_conn_finished(ms))
			mrc_conn_abort(ms, 0, false, xq);
		else
			mrc_conn_abort(ms, mrc_peer_done(ms) ? EPIPE : ECONNRESET,
				       false, xq);
		break;
	}
}
