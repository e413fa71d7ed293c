// SPDX-License-Identifier: GPL-2.0
/*
 * udp.c - mrc's UDP sockets: where packets come in.
 *
 * mrc packets are UDP datagrams to the device's udp-port.  Each port in use
 * in a namespace has one IPv4 and one IPv6 kernel socket with an
 * encapsulation receive hook (the UDP tunnel pattern of vxlan, wireguard
 * and rxe), shared by the devices using that port; all devices of a fabric
 * use the same port.  Receiving through a UDP socket rather than an
 * rx_handler keeps the rail's IP stack in charge: fragments, netfilter,
 * tcpdump and the checksum (a corrupted packet is dropped and counted by
 * UDP, UdpInCsumErrors, before mrc sees it) all work as for any UDP.
 *
 * A packet is attributed to the rail it arrived on (skb->dev); from there
 * to its device and to a connection by the id in its header.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <net/inet_ecn.h>
#include <net/ipv6.h>
#include <net/udp.h>
#include <net/udp_tunnel.h>

#include "sock.h"

/**
 * mrc_count_drop() - count a dropped received packet
 * @mdev: the device (may be NULL: counted nowhere but its reason)
 * @rail: the rail it arrived on (may be NULL)
 * @reason: why
 *
 * Context: BH disabled.
 */
void mrc_count_drop(struct mrc_dev *mdev, struct mrc_rail *rail,
		    enum mrc_drop_reason reason)
{
	struct mrc_pcpu_stats *s;

	if (reason >= __MRC_DROP_MAX)
		reason = MRC_DROP_BAD_FIELD;
	if (mdev) {
		s = this_cpu_ptr(mdev->stats);
		u64_stats_update_begin(&s->syncp);
		u64_stats_inc(&s->rx_dropped);
		u64_stats_inc(&s->drops[reason]);
		u64_stats_update_end(&s->syncp);
	}
	if (rail) {
		s = this_cpu_ptr(rail->stats);
		u64_stats_update_begin(&s->syncp);
		u64_stats_inc(&s->rx_dropped);
		u64_stats_inc(&s->drops[reason]);
		u64_stats_update_end(&s->syncp);
	}
}

/* Count a received packet on its device, rail and RX queue. */
static void mrc_count_rx(struct mrc_dev *mdev, struct mrc_rail *rail,
			 const struct sk_buff *skb, unsigned int len)
{
	struct mrc_pcpu_stats *s = this_cpu_ptr(mdev->stats);
	u32 q;

	u64_stats_update_begin(&s->syncp);
	u64_stats_inc(&s->rx_packets);
	u64_stats_add(&s->rx_bytes, len);
	u64_stats_update_end(&s->syncp);

	q = skb_rx_queue_recorded(skb) ? skb_get_rx_queue(skb) : 0;
	if (q >= rail->num_rx_queues)
		q = 0;
	s = this_cpu_ptr(rail->stats);
	u64_stats_update_begin(&s->syncp);
	u64_stats_inc(&s->rx_packets);
	u64_stats_add(&s->rx_bytes, len);
	u64_stats_inc(&s->queue[2 * q]);
	u64_stats_add(&s->queue[2 * q + 1], len);
	u64_stats_update_end(&s->syncp);
}

/* The rail a packet came in on: skb->dev below an mrc device. RCU. */
static struct mrc_rail *mrc_udp_rail(const struct sk_buff *skb)
{
	struct net_device *upper = netdev_master_upper_dev_get_rcu(skb->dev);
	struct mrc_dev *mdev;
	int plane;

	if (!upper || !netif_is_mrc(upper))
		return NULL;
	mdev = netdev_priv(upper);
	for (plane = 0; plane < MRC_MAX_RAILS; plane++) {
		struct mrc_rail *rail = rcu_dereference(mdev->rails[plane]);

		if (rail && rail->dev == skb->dev)
			return rail;
	}
	return NULL;
}

/*
 * Is @pkt, from @saddr, an answer to the REQ of @ms (REQ_SENT)?  Only the
 * address connect() named answers, and with 64 bits: dst_conn is our id
 * (the lookup checked it), and an ACCEPT echoes our isn, a RESET carries
 * it as src_conn.  Other types are not answers; mrc_input() drops them
 * (DATA, CLOSE, ACK, NACK, PROBE, PROBE_ACK as "state").  @ms->isn is set
 * before @ms is hashed and never changes.
 */
static bool mrc_udp_req_answer(const struct mrc_sock *ms,
			       const struct mrc_pkt *pkt,
			       const struct in6_addr *saddr)
{
	if (!ipv6_addr_equal(saddr, &ms->peer.smrc_addr))
		return false;
	switch (pkt->type) {
	case MRC_PKT_ACCEPT:
		return be32_to_cpu(pkt->u.req.req.echo) == ms->isn;
	case MRC_PKT_RESET:
		return pkt->src_conn == ms->isn;
	default:
		return true;
	}
}

/**
 * mrc_udp_unicast_source() - may a packet from @saddr be answered?
 * @net: the namespace
 * @dev: the rail it came in on
 * @saddr: its source
 *
 * One host's unicast address: a FIB lookup for IPv4 (a subnet's broadcast
 * address is only known there).  Only REQs and replies to packets of no
 * connection pay for it.  Context: RCU.
 *
 * Return: true if so.
 */
bool mrc_udp_unicast_source(struct net *net, const struct net_device *dev,
			    const struct in6_addr *saddr)
{
	int type;

	if (ipv6_addr_v4mapped(saddr))
		return inet_addr_type_dev_table(net, dev, saddr->s6_addr32[3]) ==
		       RTN_UNICAST;
	type = ipv6_addr_type(saddr);
	return (type & IPV6_ADDR_UNICAST) && !(type & IPV6_ADDR_LOOPBACK);
}

/*
 * Is @daddr, where a REQ went, one of our unicast addresses?  The server
 * answers from it (and announces it on that plane): never from a
 * broadcast or multicast address the REQ was sent to.  Context: RCU.
 */
static bool mrc_udp_local_unicast(struct net *net, const struct net_device *dev,
				  const struct in6_addr *daddr)
{
	if (ipv6_addr_v4mapped(daddr))
		return inet_addr_type_dev_table(net, dev, daddr->s6_addr32[3]) ==
		       RTN_LOCAL;
	return (ipv6_addr_type(daddr) & IPV6_ADDR_UNICAST) &&
	       ipv6_chk_addr(net, daddr, NULL, 0);
}

static int mrc_udp_encap_rcv(struct sock *sk, struct sk_buff *skb)
{
	struct net *net = sock_net(sk);
	struct sk_buff_head xq;
	struct in6_addr saddr, daddr;
	enum mrc_drop_reason reason;
	struct mrc_pkt _pkt, *pkt = &_pkt;
	struct mrc_rail *rail;
	struct mrc_dev *mdev;
	struct mrc_sock *ms;
	unsigned int len;
	u8 dsfield, plane, state;

	rcu_read_lock();
	rail = mrc_udp_rail(skb);
	if (!rail) {
		atomic64_inc(&mrc_net(net)->no_rail);
		goto free;
	}
	mdev = rail->mdev;
	/* A rail may change planes (RTNL): one packet sees one plane. */
	plane = READ_ONCE(rail->plane);
	len = skb->len - sizeof(struct udphdr);
	mrc_count_rx(mdev, rail, skb, skb->len);
	/*
	 * Only the headers are made linear (a DATA segment's payload stays
	 * in the frags it came in), and parsing reads no further.  Both
	 * pulls are within skb->len: one fails only without memory.
	 */
	if (!pskb_may_pull(skb, sizeof(struct udphdr) + min_t(unsigned int, len, MRC_HDR_LEN)) ||
	    !pskb_may_pull(skb, sizeof(struct udphdr) +
			   mrc_wire_hdr_need(skb->data + sizeof(struct udphdr), len))) {
		reason = MRC_DROP_NO_BUFFER;
		goto drop;
	}
	reason = mrc_wire_parse(skb->data + sizeof(struct udphdr), len, pkt);
	if (reason)
		goto drop;

	if (ip_hdr(skb)->version == 4) {
		ipv6_addr_set_v4mapped(ip_hdr(skb)->saddr, &saddr);
		ipv6_addr_set_v4mapped(ip_hdr(skb)->daddr, &daddr);
		dsfield = ip_hdr(skb)->tos;
	} else {
		saddr = ipv6_hdr(skb)->saddr;
		daddr = ipv6_hdr(skb)->daddr;
		dsfield = ipv6_get_dsfield(ipv6_hdr(skb));
	}
	/* From here on the payload starts after the UDP and mrc headers. */
	__skb_pull(skb, sizeof(struct udphdr));

	/*
	 * A REQ is answered at its source, and so may be a packet of no
	 * connection: that must be one host's unicast address (a REQ forged
	 * from a subnet's broadcast address would make us broadcast).  An
	 * established connection only hears its proven peer (below).
	 */
	if (pkt->type == MRC_PKT_REQ &&
	    !mrc_udp_unicast_source(net, skb->dev, &saddr)) {
		reason = MRC_DROP_BAD_SOURCE;
		goto drop;
	}
	if (pkt->type == MRC_PKT_REQ &&
	    !mrc_udp_local_unicast(net, skb->dev, &daddr)) {
		reason = MRC_DROP_BAD_FIELD;
		goto drop;
	}
	if (pkt->type == MRC_PKT_REQ) {
		/* Its rails are read where they lie: freed after. */
		mrc_handshake_rcv(mdev, rail, plane, pkt, &saddr, &daddr);
		rcu_read_unlock();
		consume_skb(skb);
		return 0;
	}

	ms = mrc_conn_lookup(net, pkt->dst_conn);
	if (!ms) {
		/* Tell the sender, but never answer a RESET with a RESET. */
		if (pkt->type != MRC_PKT_RESET)
			mrc_reset_reply(mdev, rail, pkt, &saddr, MRC_RESET_NO_CONN);
		reason = MRC_DROP_NO_CONN;
		goto drop;
	}
	/*
	 * Only the peer, from its rail on this plane, speaks for the
	 * connection; until its rails and id are known (REQ_SENT: ACCEPT or
	 * RESET) only the address connect() named does, with our isn.
	 */
	/* Acquire: the peer's rails were set before the state said so. */
	state = smp_load_acquire(&ms->state);
	if (READ_ONCE(ms->mdev) != mdev ||
	    (state == MRC_ST_REQ_SENT ?
	     !mrc_udp_req_answer(ms, pkt, &saddr) :
	     !mrc_prail(ms, plane)->family ||
	     !ipv6_addr_equal(&saddr, &mrc_prail(ms, plane)->addr) ||
	     pkt->src_conn != READ_ONCE(ms->peer_id))) {
		sock_put(&ms->sk);
		reason = MRC_DROP_BAD_SOURCE;
		goto drop;
	}

	mrc_conn_lock(ms, &xq);
	mrc_input(ms, rail, plane, skb, pkt, INET_ECN_is_ce(dsfield), &xq);
	mrc_conn_unlock(ms, &xq);
	sock_put(&ms->sk);
	rcu_read_unlock();
	return 0;

drop:
	mrc_count_drop(mdev, rail, reason);
free:
	rcu_read_unlock();
	kfree_skb(skb);
	return 0;
}

static struct socket *mrc_udp_open(struct net *net, u16 port, int family,
				   struct netlink_ext_ack *extack)
{
	struct udp_tunnel_sock_cfg tcfg = {
		.encap_type = 1,
		.encap_rcv = mrc_udp_encap_rcv,
	};
	struct udp_port_cfg cfg = {
		.family = family,
		.local_udp_port = htons(port),
	};
	struct socket *sock;
	int err;

	if (family == AF_INET6) {
		cfg.ipv6_v6only = 1;
		cfg.local_ip6 = in6addr_any;
	} else {
		cfg.local_ip.s_addr = htonl(INADDR_ANY);
	}
	err = udp_sock_create(net, &cfg, &sock);
	if (err) {
		NL_SET_ERR_MSG_FMT(extack, "cannot open UDP port %u (%s): error %d",
				   port, family == AF_INET6 ? "IPv6" : "IPv4", err);
		return ERR_PTR(err);
	}
	setup_udp_tunnel_sock(net, sock, &tcfg);
	return sock;
}

static void mrc_udp_port_free_rcu(struct rcu_head *head)
{
	kfree(container_of(head, struct mrc_udp_port, rcu));
}

/**
 * mrc_udp_port_get() - the sockets of a port, opening them if needed
 * @net: the namespace
 * @port: the UDP port
 * @extack: where to explain a failure (the port is taken, say)
 *
 * Context: RTNL.
 * Return: the port, with a use counted, or an ERR_PTR.
 */
struct mrc_udp_port *mrc_udp_port_get(struct net *net, u16 port,
				      struct netlink_ext_ack *extack)
{
	struct mrc_net *mn = mrc_net(net);
	struct mrc_udp_port *up;

	ASSERT_RTNL();
	list_for_each_entry(up, &mn->udp_ports, node) {
		if (up->port == port) {
			up->users++;
			return up;
		}
	}
	up = kzalloc(sizeof(*up), GFP_KERNEL);
	if (!up)
		return ERR_PTR(-ENOMEM);
	up->port = port;
	up->users = 1;
	up->sock4 = mrc_udp_open(net, port, AF_INET, extack);
	if (IS_ERR(up->sock4)) {
		int err = PTR_ERR(up->sock4);

		kfree(up);
		return ERR_PTR(err);
	}
#if IS_ENABLED(CONFIG_IPV6)
	up->sock6 = mrc_udp_open(net, port, AF_INET6, extack);
	if (IS_ERR(up->sock6)) {
		int err = PTR_ERR(up->sock6);

		udp_tunnel_sock_release(up->sock4);
		kfree(up);
		return ERR_PTR(err);
	}
#endif
	list_add(&up->node, &mn->udp_ports);
	return up;
}

/**
 * mrc_udp_port_put() - stop using a port; its sockets close with the last
 * @net: the namespace
 * @up: the port
 *
 * Context: RTNL; the caller unpublished its pointer to @up already.
 */
void mrc_udp_port_put(struct net *net, struct mrc_udp_port *up)
{
	ASSERT_RTNL();
	if (--up->users)
		return;
	list_del(&up->node);
	/* Senders use the sockets under RCU: let them finish. */
	synchronize_net();
	udp_tunnel_sock_release(up->sock4);
	if (up->sock6)
		udp_tunnel_sock_release(up->sock6);
	call_rcu(&up->rcu, mrc_udp_port_free_rcu);
}
