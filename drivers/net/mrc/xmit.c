// SPDX-License-Identifier: GPL-2.0
/*
 * xmit.c - a packet leaves through one rail.
 *
 * Every packet is sent through the IP stack of the rail it is meant for:
 * the route is looked up with the rail as output interface and the rail's
 * address as source (like rxe), so neighbour resolution, netfilter,
 * qdiscs and tcpdump on the rail all see ordinary UDP.  A route that would
 * leave through another netdevice is refused: a plane's packets never
 * cross to another plane.  The UDP source port is the entropy value (and
 * so is the IPv6 flow label); the packet's hash is derived from it too.
 * The rail's TX queue is the one the stack picks: with XPS, one of the
 * sending CPU's queues chosen by that hash; without, the hash alone.  So
 * one connection spreads over every queue its sending CPUs may use (all
 * of them without XPS, or with fewer CPUs than queues).  The queue is
 * predicted as af_packet does and counted per queue.  DATA carries ECT(0).
 *
 * Packets are prepared under the connection lock onto a list and sent
 * here after it is dropped (mrc_xmit_list()).
 *
 * Reading order: output.c (and recv.c, handshake.c for what they send)
 * -> here -> the wire; the peer's udp.c receives it.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/jhash.h>
#include <linux/udp.h>
#include <net/inet_ecn.h>
#include <net/ip.h>
#include <net/ip6_route.h>
#include <net/ipv6.h>
#include <net/ipv6_stubs.h>
#include <net/route.h>
#include <net/udp_tunnel.h>

#include "sock.h"

/**
 * struct mrc_xmit_cb - where a prepared packet goes (in skb->cb)
 * @ms: its connection (the caller of mrc_xmit_list() holds a reference);
 *	its device is the connection's
 * @saddr: source address (a rail address of @mdev)
 * @daddr: destination address
 * @dport: destination UDP port
 * @ev: entropy value
 * @plane: the rail's plane
 * @ect: mark the packet ECT(0)
 * @raw: addressed by mrc_xmit_raw_prepare(), not to the peer's rail of
 *	@plane: the connection's route cache (keyed by plane) is not for it
 */
struct mrc_xmit_cb {
	struct mrc_sock *ms;
	struct in6_addr saddr;
	struct in6_addr daddr;
	u16 dport;
	u16 ev;
	u8 plane;
	bool ect;
	bool raw;
};

#define MRC_XMIT_CB(skb) ((struct mrc_xmit_cb *)(skb)->cb)

static_assert(sizeof(struct mrc_xmit_cb) <= sizeof_field(struct sk_buff, cb));
static_assert(sizeof(struct mrc_skb_cb) <= sizeof_field(struct sk_buff, cb));

/*
 * Headroom of the skbs mrc builds: an IPv6 and a UDP header, and the
 * link-layer room (LL_RESERVED_SPACE()) of the largest rail seen since
 * the module was loaded, at least an Ethernet header's.  It only grows,
 * when a rail is attached and when a transmission finds its rail's
 * device needing more than the skb has (a tunnel or a bond may raise its
 * needed_headroom later): the skbs built before pay a reallocation of
 * their head in the stack, nothing worse.  LL_MAX_HEADER instead (the
 * worst case of every link type, 128 bytes on Debian's kernel) made the
 * head of every queued segment a 1 KiB allocation, zeroed under
 * init_on_alloc, where 512 bytes do.
 */
#define MRC_XMIT_HEADROOM_MIN	(HH_DATA_ALIGN(ETH_HLEN) + sizeof(struct ipv6hdr) + \
				 sizeof(struct udphdr))
static unsigned int mrc_xmit_hr __read_mostly = MRC_XMIT_HEADROOM_MIN;

/* What a packet on @dev needs in front of its mrc headers. */
static unsigned int mrc_xmit_need(const struct net_device *dev)
{
	return min_t(unsigned int, LL_RESERVED_SPACE(dev) + sizeof(struct ipv6hdr) +
			sizeof(struct udphdr), MRC_XMIT_HEADROOM);
}

/**
 * mrc_xmit_headroom_note() - raise the headroom to what @dev needs
 * @dev: a rail's device
 *
 * Context: any (a lockless monotonic maximum).
 */
void mrc_xmit_headroom_note(const struct net_device *dev)
{
	unsigned int hr = mrc_xmit_need(dev), old = READ_ONCE(mrc_xmit_hr);

	while (hr > old) {
		unsigned int seen = cmpxchg(&mrc_xmit_hr, old, hr);

		if (seen == old)
			break;
		old = seen;
	}
}

/**
 * mrc_xmit_headroom() - headroom to reserve in front of mrc headers
 *
 * Return: bytes, at most MRC_XMIT_HEADROOM.
 */
unsigned int mrc_xmit_headroom(void)
{
	return READ_ONCE(mrc_xmit_hr);
}

/**
 * mrc_xmit_alloc() - a packet for headers of @len bytes (control packets)
 * @ms: unused for now (allocation is atomic)
 * @len: bytes of mrc headers the caller will skb_put()
 *
 * Return: an skb with room for IP and UDP in front, or NULL.
 */
struct sk_buff *mrc_xmit_alloc(struct mrc_sock *ms, unsigned int len)
{
	unsigned int hr = mrc_xmit_headroom();
	struct sk_buff *skb = alloc_skb(hr + len, GFP_ATOMIC);

	if (skb)
		skb_reserve(skb, hr);
	return skb;
}

/**
 * mrc_xmit_prepare() - address a packet of a connection to the peer
 * @ms: the connection (conn lock held)
 * @skb: the packet, mrc headers in place
 * @plane: the plane (rail) to use
 * @ev: the entropy value
 */
void mrc_xmit_prepare(struct mrc_sock *ms, struct sk_buff *skb, u8 plane,
		      u16 ev)
{
	struct mrc_xmit_cb *cb = MRC_XMIT_CB(skb);
	const struct mrc_wire_hdr *h;
	struct mrc_wire_hdr buf;
	u8 type;

	lockdep_assert_held(&ms->lock);
	/* A burst's headers are in its page fragments (output.c). */
	h = skb_header_pointer(skb, 0, sizeof(buf), &buf);
	type = h->type;
	/* Only a challenge goes to a peer rail not proven (challenge.c). */
	DEBUG_NET_WARN_ON_ONCE(!mrc_plane_proven(ms, plane) &&
			       !((type == MRC_PKT_PROBE || type == MRC_PKT_PROBE_ACK) &&
				 (h->flags & cpu_to_be16(MRC_F_PROBE_CHALLENGE))));
	memset(cb, 0, sizeof(*cb));
	cb->ms = ms;
	cb->saddr = mrc_lrail(ms, plane)->addr;
	cb->daddr = mrc_prail(ms, plane)->addr;
	cb->dport = ms->udp_port;
	cb->ev = ev;
	cb->plane = plane;
	cb->ect = type == MRC_PKT_DATA || type == MRC_PKT_CLOSE;
}

static int mrc_xmit4(struct net *net, struct mrc_rail *rail, struct sock *usk,
		     struct dst_cache *cache, const struct mrc_xmit_cb *cb,
		     struct sk_buff *skb, __be16 sport)
{
	struct flowi4 fl4 = {
		.daddr = cb->daddr.s6_addr32[3],
		.saddr = cb->saddr.s6_addr32[3],
		.flowi4_oif = rail->dev->ifindex,
		.flowi4_proto = IPPROTO_UDP,
		.fl4_sport = sport,
		.fl4_dport = htons(cb->dport),
	};
	__be32 saddr = fl4.saddr;
	struct rtable *rt = NULL;

	if (cache) {
		rt = dst_cache_get_ip4(cache, &saddr);
		/*
		 * The plane's rail may be another netdevice, or renumbered,
		 * since the route was cached: checked on every use.
		 */
		if (rt && (rt->dst.dev != rail->dev ||
			   saddr != cb->saddr.s6_addr32[3])) {
			ip_rt_put(rt);
			rt = NULL;
		}
	}
	if (!rt) {
		rt = ip_route_output_key(net, &fl4);
		if (IS_ERR(rt))
			return PTR_ERR(rt);
		/* One host's unicast address, through this rail, from its address. */
		if (rt->dst.dev != rail->dev || fl4.saddr != cb->saddr.s6_addr32[3] ||
		    rt->rt_type != RTN_UNICAST) {
			ip_rt_put(rt);
			return -ENETUNREACH;
		}
		if (cache)
			dst_cache_set_ip4(cache, &rt->dst, fl4.saddr);
	}
	udp_tunnel_xmit_skb(rt, usk, skb, cb->saddr.s6_addr32[3],
			    cb->daddr.s6_addr32[3], cb->ect ? INET_ECN_ECT_0 : 0,
			    ip4_dst_hoplimit(&rt->dst), htons(IP_DF), sport,
			    htons(cb->dport), false, false);
	return 0;
}

#if IS_ENABLED(CONFIG_IPV6)
static int mrc_xmit6(struct net *net, struct mrc_rail *rail, struct sock *usk,
		     struct dst_cache *cache, const struct mrc_xmit_cb *cb,
		     struct sk_buff *skb, __be16 sport)
{
	struct flowi6 fl6 = {
		.daddr = cb->daddr,
		.saddr = cb->saddr,
		.flowi6_oif = rail->dev->ifindex,
		.flowi6_proto = IPPROTO_UDP,
		.fl6_sport = sport,
		.fl6_dport = htons(cb->dport),
		.flowlabel = htonl(cb->ev) & IPV6_FLOWLABEL_MASK,
	};
	struct in6_addr saddr = cb->saddr;
	struct in6_addr saddr6 = cb->saddr, daddr6 = cb->daddr;
	struct dst_entry *dst = NULL;

	if (ipv6_addr_is_multicast(&daddr6))
		return -ENETUNREACH;
	if (cache) {
		dst = dst_cache_get_ip6(cache, &saddr);
		/* Checked on every use, as for IPv4. */
		if (dst && (dst->dev != rail->dev ||
			    !ipv6_addr_equal(&saddr, &cb->saddr))) {
			dst_release(dst);
			dst = NULL;
		}
	}
	if (!dst) {
		dst = ipv6_stub->ipv6_dst_lookup_flow(net, usk, &fl6, NULL);
		if (IS_ERR(dst))
			return PTR_ERR(dst);
		if (dst->dev != rail->dev) {
			dst_release(dst);
			return -ENETUNREACH;
		}
		if (cache)
			dst_cache_set_ip6(cache, dst, &fl6.saddr);
	}
	mrc_udp_tunnel6_xmit_skb(dst, usk, skb, rail->dev, &saddr6, &daddr6,
				 cb->ect ? INET_ECN_ECT_0 : 0,
				 ip6_dst_hoplimit(dst), fl6.flowlabel, sport,
				 htons(cb->dport), false);
	return 0;
}
#endif

/*
 * The TX queue the stack will pick for @skb on @dev (netdev_core_pick_tx()
 * runs the same function on the same skb, CPU and hash).  A driver's own
 * ndo_select_queue() may look at headers not pushed yet: for those the
 * generic choice is only an estimate.
 */
static u32 mrc_xmit_queue(struct net_device *dev, struct sk_buff *skb)
{
	if (dev->real_num_tx_queues <= 1)
		return 0;
#ifdef CONFIG_XPS
	skb->sender_cpu = raw_smp_processor_id() + 1;
#endif
	return netdev_cap_txqueue(dev, netdev_pick_tx(dev, skb, NULL));
}

/*
 * The route cache of a connection's packets on their plane, if there is
 * one: not for raw packets, nor before the paths exist (an ACK of a child
 * may leave while mrc_path_setup() runs), nor on a plane without paths.
 * The paths are freed with the socket, which the caller holds.
 */
static struct dst_cache *mrc_xmit_dst_cache(const struct mrc_xmit_cb *cb)
{
	struct mrc_plane *pl;

	if (!cb->ms || cb->raw)
		return NULL;
	pl = smp_load_acquire(&cb->ms->plane);	/* mrc_path_setup() */
	if (!pl || !(READ_ONCE(cb->ms->planes) & BIT(cb->plane)) ||
	    !pl[cb->plane].dst_ok)
		return NULL;
	return &pl[cb->plane].dst;
}

/* Send one prepared packet through @mdev. Context: BH disabled, RCU. */
static void mrc_xmit_one(struct net *net, struct mrc_dev *mdev,
			 struct sk_buff *skb)
{
	struct mrc_xmit_cb cb = *MRC_XMIT_CB(skb);
	struct mrc_rail *rail = rcu_dereference(mdev->rails[cb.plane]);
	struct mrc_udp_port *up = rcu_dereference(mdev->udp);
	struct dst_cache *cache = NULL;
	unsigned int len = skb->len;
	__be16 sport = htons(MRC_EV_SPORT(cb.ev));
	u32 hash, q, pkts = 1;
	int err;

	if (!rail || READ_ONCE(rail->oper_state) != MRC_OPER_STATE_UP || !up) {
		mrc_stats_tx_drop(mdev, rail);
		kfree_skb_reason(skb, SKB_DROP_REASON_DEV_READY);
		return;
	}
	cache = mrc_xmit_dst_cache(&cb);

	/* The EV is the packet's hash: it spreads over the TX queues. */
	hash = jhash_2words(cb.ev, cb.plane, 0x6d7263);
	skb_set_hash(skb, hash, PKT_HASH_TYPE_L4);
	q = mrc_xmit_queue(rail->dev, skb);
	if (q >= rail->num_tx_queues)
		q = 0;
	skb->ignore_df = 0;
	memset(skb->cb, 0, sizeof(skb->cb));
	/*
	 * A burst (output.c): UDP GSO wants the checksum left partial from
	 * the UDP header on (udp_tunnel_xmit_skb() pushes it right in front
	 * of the data and writes the pseudo-header sum for a GSO skb).
	 */
	if (skb_is_gso(skb)) {
		pkts = skb_shinfo(skb)->gso_segs;
		skb->ip_summed = CHECKSUM_PARTIAL;
		skb->csum_start = skb_headroom(skb) - sizeof(struct udphdr);
		skb->csum_offset = offsetof(struct udphdr, check);
	}

	/* One compare per packet: the rail's device may need more now. */
	if (unlikely(skb_headroom(skb) < mrc_xmit_need(rail->dev)))
		mrc_xmit_headroom_note(rail->dev);
	if (ipv6_addr_v4mapped(&cb.daddr))
		err = mrc_xmit4(net, rail, up->sock4->sk, cache, &cb, skb, sport);
#if IS_ENABLED(CONFIG_IPV6)
	else if (up->sock6)
		err = mrc_xmit6(net, rail, up->sock6->sk, cache, &cb, skb, sport);
#endif
	else
		err = -EAFNOSUPPORT;
	if (err) {
		mrc_stats_tx_drop(mdev, rail);
		kfree_skb_reason(skb, err == -ENETUNREACH || err == -EHOSTUNREACH ?
				 SKB_DROP_REASON_IP_OUTNOROUTES :
				 SKB_DROP_REASON_NOT_SPECIFIED);
		return;
	}
	mrc_stats_tx(mdev, rail, q, pkts, len);
}

/**
 * mrc_xmit_list() - send every packet of a list
 * @net: the namespace
 * @xq: packets prepared with mrc_xmit_prepare() or mrc_xmit_raw(); emptied
 *
 * Context: any; no mrc lock held.  The callers hold references on the
 * connections named in the packets.
 */
void mrc_xmit_list(struct net *net, struct sk_buff_head *xq)
{
	struct sk_buff *skb;

	if (skb_queue_empty(xq))
		return;
	local_bh_disable();
	rcu_read_lock();
	while ((skb = __skb_dequeue(xq))) {
		/*
		 * A connection that just ended (a RESET is its last packet)
		 * still reaches its device: the reference goes only after a
		 * grace period, and packets are prepared and sent in one RCU
		 * read-side section.
		 */
		struct mrc_sock *ms = MRC_XMIT_CB(skb)->ms;
		struct mrc_dev *mdev = READ_ONCE(ms->mdev);
		struct net_device *dev;

		if (!mdev) {
			smp_rmb();	/* pairs with mrc_conn_clear_dev() */
			dev = READ_ONCE(ms->dev_put);
			mdev = dev ? netdev_priv(dev) : NULL;
		}

		if (mdev)
			mrc_xmit_one(net, mdev, skb);
		else
			kfree_skb_reason(skb, SKB_DROP_REASON_DEV_READY);
	}
	rcu_read_unlock();
	local_bh_enable();
}

/**
 * mrc_xmit_raw_prepare() - address a packet to an address of our choice
 * @skb: the packet, mrc headers in place
 * @ms: the connection it belongs to (for its device)
 * @plane: the rail
 * @saddr: source address
 * @daddr: destination address
 * @dport: destination UDP port
 * @ev: entropy value
 *
 * For the REQ, sent before the peer's rails are known.
 */
void mrc_xmit_raw_prepare(struct sk_buff *skb, struct mrc_sock *ms, u8 plane,
			  const struct in6_addr *saddr,
			  const struct in6_addr *daddr, u16 dport, u16 ev)
{
	struct mrc_xmit_cb *cb = MRC_XMIT_CB(skb);

	memset(cb, 0, sizeof(*cb));
	cb->ms = ms;
	cb->saddr = *saddr;
	cb->daddr = *daddr;
	cb->dport = dport;
	cb->ev = ev;
	cb->plane = plane;
	cb->raw = true;
}

/**
 * mrc_xmit_reply() - send a packet that belongs to no connection at once
 * @mdev: the device
 * @skb: the packet, mrc headers in place
 * @plane: the rail
 * @saddr: source address
 * @daddr: destination address
 * @ev: entropy value
 *
 * Context: softirq, RCU (receive path).
 */
void mrc_xmit_reply(struct mrc_dev *mdev, struct sk_buff *skb, u8 plane,
		    const struct in6_addr *saddr, const struct in6_addr *daddr,
		    u16 ev)
{
	mrc_xmit_raw_prepare(skb, NULL, plane, saddr, daddr,
			     READ_ONCE(mdev->udp_port), ev);
	mrc_xmit_one(dev_net(mdev->dev), mdev, skb);
}
