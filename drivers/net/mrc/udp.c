// SPDX-License-Identifier: GPL-2.0
/*
 * udp.c - mrc's UDP sockets: where packets come in.
 *
 * mrc packets are UDP datagrams to the device's udp-port.  Each port in use
 * in a namespace has one IPv4 and one IPv6 kernel socket, shared by the
 * devices using that port; all devices of a fabric use the same port.
 * Receiving through a UDP socket rather than an rx_handler keeps the
 * rail's IP stack in charge: fragments, netfilter and tcpdump work as for
 * any UDP, and a corrupted packet is dropped and counted as UDP counts it
 * (UdpInCsumErrors) before mrc parses it.
 *
 * A socket receives one of two ways:
 *  - direct: a UDP tunnel socket (the pattern of vxlan, wireguard and
 *    rxe), every packet straight to the encap_rcv hook.  UDP cuts every
 *    GSO skb for a socket with that hook (udp_unexpected_gso()), so a
 *    peer's burst (output.c) arrives as packets, at an skb and a head
 *    each;
 *  - queued: encap_rcv cleared, a plain UDP socket that accepts UDP GSO,
 *    drained by its sk_data_ready as each datagram is queued (in the
 *    softirq that queued it); a burst is taken whole, its segments read
 *    where they lie (mrc_udp_rcv_burst()).  The queue costs a packet that
 *    comes alone about 7 % more time in a ping-pong.
 * rx_burst picks one (0: direct, 1: queued) or, by default (2), both in
 * turn: direct for MRC_RX_DIRECT_MS, then queued for as long as bursts
 * come (fewer than MRC_RX_QUEUE_PKTS datagrams between two bursts taken
 * whole), then direct again.  A socket whose peers send bursts takes
 * them whole after at most 200 ms; one whose peers do not queues 256
 * datagrams every 200 ms, to find out.  Direct, a datagram only reads
 * when to try (no shared write); queued, leaving is counted in
 * datagrams, not time, so that a workload that pauses between its
 * transfers keeps taking them whole.
 *
 * A packet is attributed to the rail it arrived on (skb->dev); from there
 * to its device, if it came to that device's udp-port (else it is dropped
 * as no-rail: the rail is not one of that port's), and to a connection by
 * the id in its header.
 *
 * Reading order: the peer's xmit.c -> here (parsed by core/wire.c) ->
 * handshake.c for a REQ, input.c (the dispatcher) for everything else.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <linux/workqueue.h>
#include <net/inet_ecn.h>
#include <net/ipv6.h>
#include <net/udp.h>
#include <net/udp_tunnel.h>

#include "sock.h"

/* A kernel UDP socket's receive queue: 64 KiB bursts from many CPUs. */
#define MRC_UDP_RCVBUF		(4 << 20)
/* Datagrams one sk_data_ready call takes at most (each queuing calls it). */
#define MRC_UDP_DRAIN_MAX	64
/* Segments of a burst taken whole at most (UDP_SEGMENT allows 128). */
#define MRC_RX_BURST_MAX	64

/* rx_burst values */
enum {
	MRC_RX_DIRECT,
	MRC_RX_QUEUE,
	MRC_RX_AUTO,
};

/* rx_burst=2: time direct between tries, datagrams queued after the last burst */
#define MRC_RX_DIRECT_MS	200
#define MRC_RX_QUEUE_PKTS	256

static unsigned int rx_burst = MRC_RX_AUTO;
MRC_PARAM_UINT_RANGE(rx_burst, rx_burst, MRC_RX_DIRECT, MRC_RX_AUTO);
MODULE_PARM_DESC(rx_burst,
		 "Take a peer's UDP GSO burst whole (0: never, every packet to the encap_rcv hook and bursts cut by UDP; 1: always, every packet through the socket's queue; 2: queue while bursts come)");

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

/* The packet's addresses and DS field, from its IP header. */
static void mrc_udp_addrs(const struct sk_buff *skb, struct in6_addr *saddr,
			  struct in6_addr *daddr, u8 *dsfield)
{
	if (ip_hdr(skb)->version == 4) {
		ipv6_addr_set_v4mapped(ip_hdr(skb)->saddr, saddr);
		ipv6_addr_set_v4mapped(ip_hdr(skb)->daddr, daddr);
		*dsfield = ip_hdr(skb)->tos;
	} else {
		*saddr = ipv6_hdr(skb)->saddr;
		*daddr = ipv6_hdr(skb)->daddr;
		*dsfield = ipv6_get_dsfield(ipv6_hdr(skb));
	}
}

/*
 * The connection @pkt (from @saddr, on @rail of @mdev, @plane) is for,
 * with a reference, if its sender may speak for it; else NULL and
 * *@reason (a packet of no connection is answered with a RESET).
 * Context: RCU.
 */
static struct mrc_sock *mrc_udp_conn(struct net *net, struct mrc_dev *mdev,
				     struct mrc_rail *rail, u8 plane,
				     const struct mrc_pkt *pkt,
				     const struct in6_addr *saddr,
				     enum mrc_drop_reason *reason)
{
	struct mrc_sock *ms;
	u8 state;

	ms = mrc_conn_lookup(net, pkt->dst_conn);
	if (!ms) {
		/* Tell the sender, but never answer a RESET with a RESET. */
		if (pkt->type != MRC_PKT_RESET)
			mrc_reset_reply(mdev, rail, pkt, saddr, MRC_RESET_NO_CONN);
		*reason = MRC_DROP_NO_CONN;
		return NULL;
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
	     !mrc_udp_req_answer(ms, pkt, saddr) :
	     !mrc_prail(ms, plane)->family ||
	     !ipv6_addr_equal(saddr, &mrc_prail(ms, plane)->addr) ||
	     pkt->src_conn != READ_ONCE(ms->peer_id))) {
		sock_put(&ms->sk);
		*reason = MRC_DROP_BAD_SOURCE;
		return NULL;
	}
	return ms;
}

/*
 * Can @skb, a GSO skb, be taken whole: UDP segmentation (a peer's burst,
 * output.c) of at most MRC_RX_BURST_MAX segments that can hold a DATA
 * header, in page fragments whose pages may simply be referenced (not a
 * page pool's, not zero-copy user memory or a page cache's pages that a
 * writer may change under us (spliced), not device memory)?  A burst
 * built by a peer's mrc on this host (veth) qualifies; an skb that a NIC
 * driver's GRO built from page-pool pages does not, and is cut.
 */
static bool mrc_udp_burst_whole(struct sk_buff *skb)
{
	u32 gso = skb_shinfo(skb)->gso_size;

	return READ_ONCE(rx_burst) != MRC_RX_DIRECT &&
	       skb_shinfo(skb)->gso_type == SKB_GSO_UDP_L4 &&
	       !skb_has_frag_list(skb) && !skb_zcopy(skb) && !skb->pp_recycle &&
	       !skb_has_shared_frag(skb) &&
	       mrc_skb_frags_readable(skb) && gso > MRC_DATA_HDR_LEN &&
	       skb->len > sizeof(struct udphdr) &&
	       DIV_ROUND_UP(skb->len - sizeof(struct udphdr), gso) <= MRC_RX_BURST_MAX;
}

/*
 * Parse the segment of @seg bytes at @off in burst @skb (data at the UDP
 * header) into @pkt: read where it lies, only DATA.
 */
static enum mrc_drop_reason mrc_udp_burst_parse(const struct sk_buff *skb,
						u32 off, u32 seg,
						struct mrc_pkt *pkt)
{
	u8 hdr[MRC_DATA_HDR_LEN];
	enum mrc_drop_reason reason;
	const void *h;

	/* within skb->len: never NULL */
	h = skb_header_pointer(skb, off, min_t(u32, seg, sizeof(hdr)), hdr);
	if (mrc_wire_hdr_need(h, seg) > sizeof(hdr))
		return MRC_DROP_BAD_FIELD;
	reason = mrc_wire_parse(h, seg, pkt);
	if (!reason && pkt->type != MRC_PKT_DATA)
		reason = MRC_DROP_BAD_FIELD;
	return reason;
}

/*
 * Is every segment of burst @skb DATA of one connection, as a peer's mrc
 * sends them (output.c)?  The first one's headers in @pkt.  Anything
 * else (a GRO that merged other packets of the 4-tuple, say) is cut and
 * received a packet at a time.
 */
static bool mrc_udp_burst_uniform(const struct sk_buff *skb,
				  struct mrc_pkt *pkt)
{
	u32 gso = skb_shinfo(skb)->gso_size;
	u32 len = skb->len - sizeof(struct udphdr);
	struct mrc_pkt p;
	u32 pos;

	if (mrc_udp_burst_parse(skb, sizeof(struct udphdr), min(gso, len), pkt))
		return false;
	for (pos = gso; pos < len; pos += gso) {
		if (mrc_udp_burst_parse(skb, sizeof(struct udphdr) + pos,
					min(gso, len - pos), &p) ||
		    p.dst_conn != pkt->dst_conn || p.src_conn != pkt->src_conn)
			return false;
	}
	return true;
}

/*
 * A burst: a peer's run of DATA segments of one connection on one path,
 * sent as one UDP GSO skb (output.c) and handed to us whole (the socket
 * accepts SKB_GSO_UDP_L4); @first holds its first segment's headers
 * (mrc_udp_burst_uniform()).  Segments of gso_size bytes, the last maybe
 * shorter, each with its own headers, read where they lie: one connection
 * lookup, one lock and no copy for all of them (mrc_input_burst()).
 * Context: RCU.
 * Return: true if it was for a connection its source may speak for.
 */
static bool mrc_udp_rcv_burst(struct net *net, struct mrc_dev *mdev,
			      struct mrc_rail *rail, u8 plane,
			      struct sk_buff *skb, const struct mrc_pkt *first)
{
	u32 gso = skb_shinfo(skb)->gso_size;
	u32 len = skb->len - sizeof(struct udphdr);
	u32 n = DIV_ROUND_UP(len, gso), pos;
	enum mrc_drop_reason why, last = MRC_DROP_NONE;
	struct in6_addr saddr, daddr;
	struct sk_buff_head xq;
	bool ce, kept = false;
	struct mrc_sock *ms;
	struct mrc_pkt pkt;
	u32 now, host_us;
	u8 dsfield;

	mrc_stats_rx(mdev, rail, skb, n, len + n * sizeof(struct udphdr));
	mrc_udp_addrs(skb, &saddr, &daddr, &dsfield);
	ce = INET_ECN_is_ce(dsfield);
	ms = mrc_udp_conn(net, mdev, rail, plane, first, &saddr, &why);
	if (!ms) {
		/* Each segment counts, as each packet would. */
		for (pos = 0; pos < n; pos++)
			mrc_stats_rx_drop(mdev, rail, why, first);
		mrc_kfree_skb(skb, why);
		return false;
	}
	mrc_conn_lock(ms, &xq);
	now = mrc_now_us();	/* one clock read for every segment */
	host_us = ms->caps & MRC_F_REQ_HOST_DELAY ? mrc_host_delay_us(skb) : 0;
	if (n > 1) {
		ms->stats.rx_bursts++;
		ms->stats.rx_burst_pkts += n;
	}
	for (pos = 0; pos < len; pos += gso) {
		u32 off = sizeof(struct udphdr) + pos;

		/* it parsed in mrc_udp_burst_uniform(): it parses again */
		why = mrc_udp_burst_parse(skb, off, min(gso, len - pos), &pkt);
		if (why) {
			mrc_stats_rx_drop(mdev, rail, why, NULL);
			last = why;
			continue;
		}
		why = mrc_input_burst(ms, rail, plane, skb, off + pkt.hdr_len,
				      &pkt, ce, now, host_us, &xq);
		if (why)
			last = why;
		else
			kept = true;
	}
	mrc_conn_unlock(ms, &xq);
	sock_put(&ms->sk);
	/*
	 * Its pages live on in the runs if a segment was kept; else every
	 * segment was a counted drop, and the burst goes with the last one's
	 * reason.
	 */
	mrc_kfree_skb(skb, kept ? MRC_DROP_NONE : last);
	return true;
}

static bool mrc_udp_rcv(struct sock *sk, struct sk_buff *skb);

/*
 * A GSO skb not taken whole: cut into packets, as udp_queue_rcv_skb()
 * cuts one for a socket that does not accept GSO, each received alone.
 */
static void mrc_udp_rcv_cut(struct sock *sk, struct sk_buff *skb)
{
	struct sk_buff *segs, *next;

	/*
	 * Its checksum was checked (mrc_udp_data_ready()); UDP made a
	 * CHECKSUM_PARTIAL skb CHECKSUM_NONE when it pulled its header, and
	 * segmentation wants it partial, as it came (udp_rcv_segment() does
	 * the same for a looped packet).
	 */
	if (skb->ip_summed == CHECKSUM_NONE) {
		skb->ip_summed = CHECKSUM_PARTIAL;
		skb->csum_start = skb_transport_header(skb) - skb->head;
		skb->csum_offset = offsetof(struct udphdr, check);
	}
	__skb_push(skb, -skb_mac_offset(skb));
	segs = udp_rcv_segment(sk, skb, ip_hdr(skb)->version == 4);
	skb_list_walk_safe(segs, skb, next) {
		skb_mark_not_on_list(skb);
		__skb_pull(skb, skb_transport_offset(skb));
		udp_post_segment_fix_csum(skb);
		mrc_udp_rcv(sk, skb);
	}
}

/*
 * One datagram (or burst) of @sk, data at its UDP header.  Returns true
 * for a burst taken whole by a connection.  Context: BH.
 */
static bool mrc_udp_rcv(struct sock *sk, struct sk_buff *skb)
{
	bool whole = false, parsed = false;
	struct net *net = sock_net(sk);
	struct sk_buff_head xq;
	struct in6_addr saddr, daddr;
	enum mrc_drop_reason reason;
	struct mrc_pkt _pkt, *pkt = &_pkt;
	struct mrc_rail *rail;
	struct mrc_dev *mdev;
	struct mrc_sock *ms;
	unsigned int len;
	u8 dsfield, plane;

	rcu_read_lock();
	rail = mrc_udp_rail(skb);
	if (!rail)
		goto no_rail;
	mdev = rail->mdev;
	/*
	 * Only the device's own udp-port is its.  A device that moved to
	 * another port may find its old one still open, kept by another
	 * device of the namespace; a REQ taken from there would start a
	 * connection that answers from the new port, never completes, and
	 * keeps the device busy (the move back refused, EBUSY) for as long
	 * as the peer retries.
	 */
	if (unlikely(ntohs(inet_sk(sk)->inet_sport) != READ_ONCE(mdev->udp_port))) {
		reason = MRC_DROP_NO_RAIL;
		goto drop;
	}
	/* A rail may change planes (RTNL): one packet sees one plane. */
	plane = READ_ONCE(rail->plane);
	if (skb_is_gso(skb)) {
		if (mrc_udp_burst_whole(skb) && mrc_udp_burst_uniform(skb, pkt)) {
			whole = mrc_udp_rcv_burst(net, mdev, rail, plane, skb, pkt);
			rcu_read_unlock();
		} else {
			rcu_read_unlock();
			mrc_udp_rcv_cut(sk, skb);
		}
		return whole;
	}
	len = skb->len - sizeof(struct udphdr);
	mrc_stats_rx(mdev, rail, skb, 1, skb->len);
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
	parsed = true;

	mrc_udp_addrs(skb, &saddr, &daddr, &dsfield);
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
		reason = mrc_handshake_rcv(mdev, rail, plane, pkt, &saddr, &daddr);
		rcu_read_unlock();
		mrc_kfree_skb(skb, reason);	/* counted there if dropped */
		return false;
	}

	ms = mrc_udp_conn(net, mdev, rail, plane, pkt, &saddr, &reason);
	if (!ms)
		goto drop;

	mrc_conn_lock(ms, &xq);
	mrc_input(ms, rail, plane, skb, pkt, INET_ECN_is_ce(dsfield), &xq);
	mrc_conn_unlock(ms, &xq);
	sock_put(&ms->sk);
	rcu_read_unlock();
	return false;

drop:
	mrc_stats_rx_drop(mdev, rail, reason, parsed ? pkt : NULL);
	rcu_read_unlock();
	mrc_kfree_skb(skb, reason);
	return false;
no_rail:
	/* No device to count it on: a plain drop (skb:kfree_skb, dropwatch). */
	rcu_read_unlock();
	mrc_kfree_skb(skb, MRC_DROP_NO_RAIL);
	return false;
}

static int mrc_udp_encap_rcv(struct sock *sk, struct sk_buff *skb);

/* Stay direct for MRC_RX_DIRECT_MS from now (one write per tick at most). */
static void mrc_udp_rx_defer(struct mrc_udp_rx *rx)
{
	unsigned long at = jiffies + msecs_to_jiffies(MRC_RX_DIRECT_MS);

	if (READ_ONCE(rx->probe_at) != at)
		WRITE_ONCE(rx->probe_at, at);
}

/*
 * Switch @sk (its receive mode @rx) to its queue (@queue) or to the
 * encap_rcv hook, from the next datagram on: UDP reads encap_rcv per
 * datagram (READ_ONCE).
 */
static void mrc_udp_rx_switch(struct sock *sk, struct mrc_udp_rx *rx, bool queue)
{
	if (rx) {
		if (queue)
			WRITE_ONCE(rx->count, 0);
		else
			mrc_udp_rx_defer(rx);
	}
	WRITE_ONCE(udp_sk(sk)->encap_rcv, queue ? NULL : mrc_udp_encap_rcv);
}

/*
 * rx_burst=2, queued: count a datagram of @rx (@whole: a burst taken
 * whole, for a connection); is it time to go back to direct?
 */
static bool mrc_udp_rx_count(struct mrc_udp_rx *rx, bool whole)
{
	unsigned int n;

	if (!rx)
		return false;
	if (whole) {
		if (READ_ONCE(rx->count))
			WRITE_ONCE(rx->count, 0);
		return false;
	}
	n = READ_ONCE(rx->count) + 1;
	WRITE_ONCE(rx->count, n);
	return n >= MRC_RX_QUEUE_PKTS;
}

/*
 * Direct: the encap_rcv hook, as a UDP tunnel socket receives; UDP cuts
 * a burst into packets before this.  A change of the parameter, or
 * rx_burst=2's time to try the queue, takes effect from the next packet.
 * Context: BH, RCU (UDP's).
 */
static int mrc_udp_encap_rcv(struct sock *sk, struct sk_buff *skb)
{
	struct mrc_udp_rx *rx = rcu_dereference_sk_user_data(sk);
	unsigned int mode = READ_ONCE(rx_burst);

	if (mode == MRC_RX_QUEUE ||
	    (mode == MRC_RX_AUTO && rx &&
	     time_after_eq(jiffies, READ_ONCE(rx->probe_at))))
		mrc_udp_rx_switch(sk, rx, true);
	/* rx_burst=0 to 2: a direct spell first (a write per tick at most) */
	else if (mode == MRC_RX_DIRECT && rx)
		mrc_udp_rx_defer(rx);
	mrc_udp_rcv(sk, skb);
	return 0;
}

/* Count a checksum error of @sk's datagram @skb, as UDP does, and drop it. */
static void mrc_udp_csum_error(struct sock *sk, struct sk_buff *skb)
{
	struct net *net = sock_net(sk);
	struct mrc_rail *rail;

	if (sk->sk_family == AF_INET) {
		__UDP_INC_STATS(net, UDP_MIB_CSUMERRORS, 0);
		__UDP_INC_STATS(net, UDP_MIB_INERRORS, 0);
#if IS_ENABLED(CONFIG_IPV6)
	} else {
		__UDP6_INC_STATS(net, UDP_MIB_CSUMERRORS, 0);
		__UDP6_INC_STATS(net, UDP_MIB_INERRORS, 0);
#endif
	}
	atomic_inc(&sk->sk_drops);
	rail = mrc_udp_rail(skb);
	mrc_stats_rx_drop(rail ? rail->mdev : NULL, rail, MRC_DROP_CSUM, NULL);
	mrc_kfree_skb(skb, MRC_DROP_CSUM);	/* SKB_DROP_REASON_UDP_CSUM */
}

/*
 * Queued: a datagram was queued on @sk by the softirq that received it,
 * which calls us right after: take what is queued (at most
 * MRC_UDP_DRAIN_MAX: every queuing makes its own call) and receive it.
 * The checksum is checked as udp_recvmsg() checks it (a GSO skb's was
 * checked where it was built or merged, as UDP assumes too) and counted
 * as UDP counts it: InDatagrams per skb, InCsumErrors.
 * Context: BH.
 */
static void mrc_udp_data_ready(struct sock *sk)
{
	unsigned int mode = READ_ONCE(rx_burst);
	struct net *net = sock_net(sk);
	struct mrc_udp_rx *rx;
	struct sk_buff *skb;
	bool csum_ok, whole;
	int n, off, err;

	rcu_read_lock();
	rx = rcu_dereference_sk_user_data(sk);
	if (mode == MRC_RX_DIRECT)
		mrc_udp_rx_switch(sk, rx, false);
	for (n = 0; n < MRC_UDP_DRAIN_MAX; n++) {
		off = 0;
		skb = __skb_recv_udp(sk, MSG_DONTWAIT, &off, &err);
		if (!skb)
			break;
		whole = false;
		/*
		 * UDP kept its own data in skb->dev (dev_scratch): read what
		 * it said of the checksum, then put the device back.
		 */
		csum_ok = skb_is_gso(skb) || udp_skb_csum_unnecessary(skb);
		skb->dev = dev_get_by_index_rcu(net, skb->skb_iif);
		if (!skb->dev) {	/* gone meanwhile: no rail to count it */
			mrc_kfree_skb(skb, MRC_DROP_NO_RAIL);
		} else if (!csum_ok && __udp_lib_checksum_complete(skb)) {
			mrc_udp_csum_error(sk, skb);
		} else {
			if (sk->sk_family == AF_INET)
				__UDP_INC_STATS(net, UDP_MIB_INDATAGRAMS, 0);
#if IS_ENABLED(CONFIG_IPV6)
			else
				__UDP6_INC_STATS(net, UDP_MIB_INDATAGRAMS, 0);
#endif
			/* UDP pulled its header: the parser wants it back */
			skb_push_rcsum(skb, sizeof(struct udphdr));
			whole = mrc_udp_rcv(sk, skb);
		}
		if (mode == MRC_RX_AUTO && mrc_udp_rx_count(rx, whole))
			mrc_udp_rx_switch(sk, rx, false);
	}
	rcu_read_unlock();
}

/*
 * What UDP queued before sk_data_ready was ours would wait for the next
 * datagram: dropped (the peer resends), not received here in process
 * context.
 */
static void mrc_udp_purge(struct sock *sk)
{
	struct sk_buff *skb;
	int off = 0, err;

	while ((skb = __skb_recv_udp(sk, MSG_DONTWAIT, &off, &err))) {
		kfree_skb(skb);
		off = 0;
	}
}

static struct socket *mrc_udp_open(struct net *net, u16 port, int family,
				   struct mrc_udp_rx *rx,
				   struct netlink_ext_ack *extack)
{
	struct udp_tunnel_sock_cfg tcfg = {
		.sk_user_data = rx,
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
	/* rx_burst=2 tries the queue from the first datagram on */
	rx->probe_at = jiffies;
	rx->count = 0;
	err = udp_sock_create(net, &cfg, &sock);
	if (err) {
		NL_SET_ERR_MSG_FMT(extack, "cannot open UDP port %u (%s): error %d",
				   port, family == AF_INET6 ? "IPv6" : "IPv4", err);
		return ERR_PTR(err);
	}
	/*
	 * Both ways in (see the top of this file): a tunnel socket whose
	 * encap_rcv is cleared while it is queued, so that UDP queues every
	 * datagram, a peer's burst (UDP GSO from its host or a GSO
	 * forwarding path) whole; fraglist GRO skbs are still cut.  UDP reads
	 * encap_rcv per packet (READ_ONCE; twice for a GSO skb, so one racing
	 * a change may reach the hook whole, where it is received like any
	 * burst), and the two hooks switch it (mrc_udp_rx_switch()).  The
	 * queue is drained as it fills, so its limit is only what a burst
	 * from every CPU at once may need.
	 */
	setup_udp_tunnel_sock(net, sock, &tcfg);
	mrc_host_delay_sock(sock->sk);
	udp_set_bit(ACCEPT_L4, sock->sk);
	WRITE_ONCE(sock->sk->sk_rcvbuf, MRC_UDP_RCVBUF);
#ifdef CONFIG_NET_RX_BUSY_POLL
	/* __skb_recv_udp() must not busy-poll a NAPI from our softirq. */
	WRITE_ONCE(sock->sk->sk_ll_usec, 0);
#endif
	write_lock_bh(&sock->sk->sk_callback_lock);
	WRITE_ONCE(sock->sk->sk_data_ready, mrc_udp_data_ready);
	write_unlock_bh(&sock->sk->sk_callback_lock);
	if (READ_ONCE(rx_burst) == MRC_RX_QUEUE)
		WRITE_ONCE(udp_sk(sock->sk)->encap_rcv, NULL);
	mrc_udp_purge(sock->sk);
	return sock;
}

static void mrc_udp_port_free_rcu(struct rcu_head *head)
{
	kfree(container_of(head, struct mrc_udp_port, rcu));
}

/**
 * struct mrc_udp_open_work - a port's sockets, opened by a kworker
 * @work: the work item (on the caller's stack)
 * @net: the namespace
 * @up: the port (its number, its receive modes; its sockets are set)
 * @extack: the caller's, which waits
 * @err: 0 or the error
 */
struct mrc_udp_open_work {
	struct work_struct work;
	struct net *net;
	struct mrc_udp_port *up;
	struct netlink_ext_ack *extack;
	int err;
};

static void mrc_udp_open_work(struct work_struct *work)
{
	struct mrc_udp_open_work *ow = container_of(work, struct mrc_udp_open_work, work);
	struct mrc_udp_port *up = ow->up;

	up->sock4 = mrc_udp_open(ow->net, up->port, AF_INET, &up->rx4, ow->extack);
	if (IS_ERR(up->sock4)) {
		ow->err = PTR_ERR(up->sock4);
		return;
	}
#if IS_ENABLED(CONFIG_IPV6)
	up->sock6 = mrc_udp_open(ow->net, up->port, AF_INET6, &up->rx6, ow->extack);
	if (IS_ERR(up->sock6)) {
		ow->err = PTR_ERR(up->sock6);
		udp_tunnel_sock_release(up->sock4);
	}
#endif
}

/*
 * Open @up's sockets in a kworker, and wait.  A socket belongs to the
 * memory cgroup and the cgroup of the task that creates it
 * (mem_cgroup_sk_alloc(), cgroup_sk_alloc()): created by whoever added
 * the first device on the port, the sockets that receive every device's
 * traffic would charge the datagrams they queue to that task's memcg (a
 * container at its limit would drop the fabric's packets) and run its
 * cgroup's BPF ingress programs.  A kworker is in the root cgroups.
 * What else follows the creator changes with it: the cgroup BPF bind
 * hooks that run are the root cgroup's, the socket's uid and net_cls
 * classid are root's.  The capability to bind a privileged port is still
 * the caller's (checked here; a bind hook's grant of it does not apply).
 * system_unbound_wq has no rescuer: under memory pressure the wait (with
 * RTNL held) lasts until a worker can be made, and the work itself
 * allocates with GFP_KERNEL, as it would in the caller.
 */
static int mrc_udp_open_all(struct net *net, struct mrc_udp_port *up,
			    struct netlink_ext_ack *extack)
{
	struct mrc_udp_open_work ow = {
		.net = net,
		.up = up,
		.extack = extack,
	};

	if (inet_port_requires_bind_service(net, up->port) &&
	    !ns_capable(net->user_ns, CAP_NET_BIND_SERVICE)) {
		NL_SET_ERR_MSG_FMT(extack, "UDP port %u needs CAP_NET_BIND_SERVICE", up->port);
		return -EACCES;
	}
	INIT_WORK_ONSTACK(&ow.work, mrc_udp_open_work);
	queue_work(system_unbound_wq, &ow.work);
	flush_work(&ow.work);
	destroy_work_on_stack(&ow.work);
	return ow.err;
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
	int err;

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
	err = mrc_udp_open_all(net, up, extack);
	if (err) {
		kfree(up);
		return ERR_PTR(err);
	}
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
