// SPDX-License-Identifier: GPL-2.0
/*
 * netlink.c - the generic netlink family "mrc".
 *
 * The family is specified in Documentation/netlink/specs/mrc.yaml; the
 * uapi enums are generated from it and the policies below are checked
 * against it by the selftests (CTRL_CMD_GETPOLICY).  Configuration needs
 * CAP_NET_ADMIN in the namespace's user namespace (GENL_UNS_ADMIN_PERM);
 * gets and dumps are open to everyone and see only their namespace.
 * Device and rail changes are announced on the multicast group "events".
 *
 * Connection ids are the only secret of a connection: whoever knows both
 * can forge a RESET from the peer's rail address (udp.c checks nothing
 * else).  So they go only to requesters with CAP_NET_ADMIN over the
 * namespace: dumps omit them for everyone else (who still see that the
 * connection exists, and its counters), a lookup by id is refused before
 * the id is looked at (EPERM: no probing for valid ids), and path-change
 * notifications, which carry them, go to the group "conns", whose members
 * need the same capability (GENL_MCAST_CAP_NET_ADMIN).  PSNs and ISNs are
 * never reported.  Documentation/mrc/security.rst, "Local users".
 *
 * Handlers take RTNL: it protects every object they touch.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/inetdevice.h>
#include <linux/rtnetlink.h>
#include <linux/uidgid.h>
#include <net/addrconf.h>
#include <net/genetlink.h>
#include <net/netlink.h>

#include "sock.h"
#include "version.h"

enum mrc_nl_groups {
	MRC_NLGRP_EVENTS,
	MRC_NLGRP_CONNS,
};

static const struct genl_multicast_group mrc_nl_mcgrps[] = {
	[MRC_NLGRP_EVENTS] = { .name = MRC_MCGRP_EVENTS },
	/* Its messages carry connection ids: joining needs CAP_NET_ADMIN. */
	[MRC_NLGRP_CONNS] = { .name = MRC_MCGRP_CONNS,
			      .flags = GENL_MCAST_CAP_NET_ADMIN },
};

static struct genl_family mrc_genl_family;

/* cb->args[] slot where a dump keeps whether it may show connection ids */
#define MRC_NL_DUMP_IDS		5

/*
 * May the requester of this dump see connection ids (CAP_NET_ADMIN over
 * the namespace)?  Decided once, in the first part of the dump, which runs
 * in the requester's context; later parts reuse the answer.
 */
static bool mrc_nl_dump_ids(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct net *net = sock_net(skb->sk);

	if (!cb->args[MRC_NL_DUMP_IDS])
		cb->args[MRC_NL_DUMP_IDS] =
			netlink_ns_capable(cb->skb, net->user_ns, CAP_NET_ADMIN) ? 2 : 1;
	return cb->args[MRC_NL_DUMP_IDS] == 2;
}

/*
 * A lookup by connection id: only for CAP_NET_ADMIN, refused before the
 * id is looked at, so that the answer says nothing about the id.
 */
static int mrc_nl_id_lookup_allowed(const struct sk_buff *skb, struct net *net,
				    const struct nlattr *attr,
				    struct netlink_ext_ack *extack)
{
	if (netlink_ns_capable(skb, net->user_ns, CAP_NET_ADMIN))
		return 0;
	NL_SET_ERR_MSG(extack,
		       "looking up a connection by id needs CAP_NET_ADMIN (ids are hidden from other users)");
	NL_SET_BAD_ATTR(extack, attr);
	return -EPERM;
}

/* ---- message builders ---------------------------------------------------- */

static int mrc_nl_put_drops(struct sk_buff *skb, const struct mrc_stats *st)
{
	struct nlattr *nest;
	u32 r;

	for (r = 0; r < __MRC_DROP_MAX; r++) {
		if (!st->drops[r])
			continue;
		nest = nla_nest_start(skb, MRC_A_STATS_DROP);
		if (!nest ||
		    nla_put_u32(skb, MRC_A_DROP_REASON, r) ||
		    nla_put_u64_64bit(skb, MRC_A_DROP_PACKETS, st->drops[r], MRC_A_DROP_PAD))
			return -EMSGSIZE;
		nla_nest_end(skb, nest);
	}
	return 0;
}

static int mrc_nl_put_stats(struct sk_buff *skb, int type,
			    const struct mrc_stats *st)
{
	struct nlattr *nest = nla_nest_start(skb, type);

	if (!nest ||
	    nla_put_u64_64bit(skb, MRC_A_STATS_TX_PACKETS, st->tx_packets, MRC_A_STATS_PAD) ||
	    nla_put_u64_64bit(skb, MRC_A_STATS_TX_BYTES, st->tx_bytes, MRC_A_STATS_PAD) ||
	    nla_put_u64_64bit(skb, MRC_A_STATS_RX_PACKETS, st->rx_packets, MRC_A_STATS_PAD) ||
	    nla_put_u64_64bit(skb, MRC_A_STATS_RX_BYTES, st->rx_bytes, MRC_A_STATS_PAD) ||
	    nla_put_u64_64bit(skb, MRC_A_STATS_TX_DROPPED, st->tx_dropped, MRC_A_STATS_PAD) ||
	    nla_put_u64_64bit(skb, MRC_A_STATS_RX_DROPPED, st->rx_dropped, MRC_A_STATS_PAD) ||
	    mrc_nl_put_drops(skb, st))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/* The drop reasons of the spec are the core's, value for value. */
static_assert((int)MRC_DROP_REASON_BAD_ACK == (int)MRC_DROP_BAD_ACK);
static_assert((int)MRC_DROP_REASON_TRIMMED == (int)MRC_DROP_TRIMMED);
static_assert((int)MRC_DROP_REASON_NO_CONN == (int)MRC_DROP_NO_CONN);
static_assert((int)MRC_DROP_REASON_SHORT == (int)MRC_DROP_SHORT);
static_assert((int)MRC_CONN_STATE_TIME_WAIT == (int)MRC_ST_TIME_WAIT);
static_assert((int)MRC_CONN_STATE_ESTABLISHED == (int)MRC_ST_ESTABLISHED);

/**
 * struct mrc_nl_plane - snapshot of one plane of a connection
 * @plane: the plane
 * @cwnd: congestion window, bytes
 * @in_flight: bytes in flight
 * @srtt_us: smoothed RTT
 * @base_rtt_us: base RTT
 * @alpha: ECN fraction, units of 2^-20
 * @evs: paths per state (enum mrc_ev_state)
 * @rounds: congestion control rounds completed
 * @ecn_cuts: window cuts for ECN marks
 * @delay_cuts: window cuts for delay
 * @losses: transmissions declared lost
 */
struct mrc_nl_plane {
	u32 plane;
	u32 cwnd;
	u32 in_flight;
	u32 srtt_us;
	u32 base_rtt_us;
	u32 alpha;
	u32 evs[__MRC_EV_STATE_MAX];
	u64 rounds;
	u64 ecn_cuts;
	u64 delay_cuts;
	u64 losses;
};

/* Per-plane state of @ms into @pl (MRC_MAX_RAILS); conn lock. */
static u32 mrc_nl_snap_planes(struct mrc_sock *ms, struct mrc_nl_plane *pl)
{
	u32 n = 0, plane, i;

	lockdep_assert_held(&ms->lock);
	for (plane = 0; plane < MRC_MAX_RAILS; plane++) {
		const struct mrc_cc *cc;

		if (!(ms->planes & BIT(plane)) || !ms->plane)
			continue;
		cc = &mrc_plane(ms, plane)->cc;
		memset(&pl[n], 0, sizeof(pl[n]));
		pl[n].plane = plane;
		pl[n].cwnd = cc->cwnd;
		pl[n].in_flight = cc->in_flight;
		pl[n].srtt_us = cc->srtt_us;
		pl[n].base_rtt_us = cc->base_rtt_us;
		pl[n].alpha = cc->alpha;
		pl[n].rounds = cc->rounds;
		pl[n].ecn_cuts = cc->ecn_cuts;
		pl[n].delay_cuts = cc->delay_cuts;
		pl[n].losses = cc->losses;
		for (i = 0; i < ms->npaths; i++)
			if (ms->evs[i].plane == plane &&
			    ms->evs[i].state < __MRC_EV_STATE_MAX)
				pl[n].evs[ms->evs[i].state]++;
		n++;
	}
	return n;
}

static int mrc_nl_put_planes(struct sk_buff *skb, const struct mrc_nl_plane *pl,
			     u32 n)
{
	struct nlattr *nest;
	u32 i;

	for (i = 0; i < n; i++) {
		nest = nla_nest_start(skb, MRC_A_CONN_PLANE);
		if (!nest ||
		    nla_put_u32(skb, MRC_A_CONN_PLANE_PLANE, pl[i].plane) ||
		    nla_put_u32(skb, MRC_A_CONN_PLANE_CWND, pl[i].cwnd) ||
		    nla_put_u32(skb, MRC_A_CONN_PLANE_IN_FLIGHT, pl[i].in_flight) ||
		    nla_put_u32(skb, MRC_A_CONN_PLANE_SRTT_US, pl[i].srtt_us) ||
		    nla_put_u32(skb, MRC_A_CONN_PLANE_BASE_RTT_US, pl[i].base_rtt_us) ||
		    nla_put_u32(skb, MRC_A_CONN_PLANE_ECN_PPM,
				(u32)(((u64)pl[i].alpha * 1000000) >> MRC_CC_ALPHA_SHIFT)) ||
		    nla_put_u32(skb, MRC_A_CONN_PLANE_EVS_GOOD, pl[i].evs[MRC_EV_GOOD]) ||
		    nla_put_u32(skb, MRC_A_CONN_PLANE_EVS_SKIP, pl[i].evs[MRC_EV_SKIP]) ||
		    nla_put_u32(skb, MRC_A_CONN_PLANE_EVS_BAD,
				pl[i].evs[MRC_EV_ASSUMED_BAD]) ||
		    nla_put_u32(skb, MRC_A_CONN_PLANE_EVS_DENIED, pl[i].evs[MRC_EV_DENIED]) ||
		    nla_put_u64_64bit(skb, MRC_A_CONN_PLANE_ROUNDS, pl[i].rounds,
				      MRC_A_CONN_PLANE_PAD) ||
		    nla_put_u64_64bit(skb, MRC_A_CONN_PLANE_ECN_CUTS, pl[i].ecn_cuts,
				      MRC_A_CONN_PLANE_PAD) ||
		    nla_put_u64_64bit(skb, MRC_A_CONN_PLANE_DELAY_CUTS,
				      pl[i].delay_cuts, MRC_A_CONN_PLANE_PAD) ||
		    nla_put_u64_64bit(skb, MRC_A_CONN_PLANE_LOSSES, pl[i].losses,
				      MRC_A_CONN_PLANE_PAD))
			return -EMSGSIZE;
		nla_nest_end(skb, nest);
	}
	return 0;
}

/**
 * struct mrc_nl_conn - snapshot of a connection for conn-get
 * @i: counters and state (mrc_sock_info())
 * @local: local address (the one in use when bound to every address)
 * @peer: peer address
 * @dev_ifindex: the mrc device (0: none)
 * @npl: entries of @pl
 * @orphan: the socket was closed by its owner
 * @has_sock: a socket holds the connection (@uid and @ino are set)
 * @uid: owner of the socket (sock_i_uid())
 * @ino: inode number of the socket (sock_i_ino())
 * @pl: per-plane state
 */
struct mrc_nl_conn {
	struct mrc_info i;
	struct sockaddr_mrc local;
	struct sockaddr_mrc peer;
	u32 dev_ifindex;
	u32 npl;
	bool orphan;
	bool has_sock;
	kuid_t uid;
	unsigned long ino;
	struct mrc_nl_plane pl[MRC_MAX_RAILS];
};

/*
 * Bytes of the attributes of a conn message with @npl planes, for
 * genlmsg_new() and a dump's first skb.  Counts what mrc_nl_put_conn()
 * puts: update both together.
 */
static size_t mrc_nl_conn_size(u32 npl)
{
	size_t plane = nla_total_size(0) +			/* the nest */
		       10 * nla_total_size(sizeof(u32)) +	/* plane..denied */
		       4 * nla_total_size_64bit(sizeof(u64));	/* rounds..losses */

	return 17 * nla_total_size(sizeof(u32)) +		/* with uid */
	       2 * nla_total_size(sizeof(u16)) +		/* ports */
	       2 * nla_total_size(sizeof(struct in6_addr)) +
	       nla_total_size(sizeof(u8)) +			/* orphan */
	       23 * nla_total_size_64bit(sizeof(u64)) +		/* with inode */
	       npl * plane;
}

/*
 * The owner and inode of @sk's socket, as sock_i_uid() and sock_i_ino()
 * read them, in one section of sk_callback_lock: sock_orphan() and
 * sock_graft() change sk_socket under it, so both come from the same
 * socket, or neither (an orphan, a child not accepted yet).
 */
static void mrc_nl_snap_owner(struct sock *sk, struct mrc_nl_conn *c)
{
	struct socket *sock;

	read_lock_bh(&sk->sk_callback_lock);
	sock = sk->sk_socket;
	c->has_sock = sock;
	if (sock) {
		c->uid = SOCK_INODE(sock)->i_uid;
		c->ino = SOCK_INODE(sock)->i_ino;
	}
	read_unlock_bh(&sk->sk_callback_lock);
}

/*
 * Snapshot of @ms into @c.
 * Context: process or softirq; takes the conn lock.
 */
static void mrc_nl_snap_conn(struct mrc_sock *ms, struct mrc_nl_conn *c)
{
	mrc_sock_info(ms, &c->i);
	spin_lock_bh(&ms->lock);
	c->npl = mrc_nl_snap_planes(ms, c->pl);
	c->local = ms->local;
	c->peer = ms->peer;
	/* Bound to every address: show the one the connection uses. */
	if (ipv6_addr_any(&c->local.smrc_addr) && mrc_lrail(ms, ms->req_plane)->family)
		c->local.smrc_addr = mrc_lrail(ms, ms->req_plane)->addr;
	c->dev_ifindex = ms->mdev ? ms->mdev->dev->ifindex : 0;
	mrc_conn_spin_unlock(ms);
	c->orphan = sock_flag(&ms->sk, SOCK_DEAD);
	mrc_nl_snap_owner(&ms->sk, c);
}

/*
 * The message of snapshot @c; @ids: with the connection's and its peer's
 * id (only for CAP_NET_ADMIN); @uns: the requester's user namespace, the
 * owner's uid is given in it (NULL: no uid, for a multicast).
 */
static int mrc_nl_put_conn(struct sk_buff *skb, const struct mrc_nl_conn *c,
			   u8 cmd, u32 portid, u32 seq, int flags, bool ids,
			   struct user_namespace *uns)
{
	const struct mrc_info *i = &c->i;
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &mrc_genl_family, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	if ((c->dev_ifindex && nla_put_u32(skb, MRC_A_CONN_DEV_IFINDEX, c->dev_ifindex)) ||
	    (ids && (nla_put_u32(skb, MRC_A_CONN_ID, i->id) ||
		     nla_put_u32(skb, MRC_A_CONN_PEER_ID, i->peer_id))) ||
	    nla_put_u32(skb, MRC_A_CONN_STATE, i->state) ||
	    nla_put_u16(skb, MRC_A_CONN_LOCAL_PORT, ntohs(c->local.smrc_port)) ||
	    nla_put_u16(skb, MRC_A_CONN_PEER_PORT, ntohs(c->peer.smrc_port)) ||
	    nla_put_in6_addr(skb, MRC_A_CONN_LOCAL_ADDR, &c->local.smrc_addr) ||
	    nla_put_in6_addr(skb, MRC_A_CONN_PEER_ADDR, &c->peer.smrc_addr) ||
	    nla_put_u8(skb, MRC_A_CONN_ORPHAN, c->orphan) ||
	    nla_put_u32(skb, MRC_A_CONN_PLANES, i->planes) ||
	    nla_put_u32(skb, MRC_A_CONN_PATHS, i->paths) ||
	    nla_put_u32(skb, MRC_A_CONN_SEG_SIZE, i->seg_size) ||
	    nla_put_u32(skb, MRC_A_CONN_SRTT_US, i->srtt_us) ||
	    nla_put_u32(skb, MRC_A_CONN_RTTVAR_US, i->rttvar_us) ||
	    nla_put_u32(skb, MRC_A_CONN_RTO_US, i->rto_us) ||
	    nla_put_u32(skb, MRC_A_CONN_IN_FLIGHT, i->in_flight) ||
	    nla_put_u32(skb, MRC_A_CONN_LOST, i->lost) ||
	    nla_put_u32(skb, MRC_A_CONN_WINDOW, i->window) ||
	    nla_put_u32(skb, MRC_A_CONN_SND_QUEUE, i->snd_queue) ||
	    nla_put_u64_64bit(skb, MRC_A_CONN_TX_MSGS, i->tx_msgs, MRC_A_CONN_PAD) ||
	    nla_put_u64_64bit(skb, MRC_A_CONN_TX_BYTES, i->tx_bytes, MRC_A_CONN_PAD) ||
	    nla_put_u64_64bit(skb, MRC_A_CONN_TX_PKTS, i->tx_pkts, MRC_A_CONN_PAD) ||
	    nla_put_u64_64bit(skb, MRC_A_CONN_RETRANS, i->retrans, MRC_A_CONN_PAD) ||
	    nla_put_u64_64bit(skb, MRC_A_CONN_RTO_COUNT, i->rto, MRC_A_CONN_PAD) ||
	    nla_put_u64_64bit(skb, MRC_A_CONN_RX_MSGS, i->rx_msgs, MRC_A_CONN_PAD) ||
	    nla_put_u64_64bit(skb, MRC_A_CONN_RX_BYTES, i->rx_bytes, MRC_A_CONN_PAD) ||
	    nla_put_u64_64bit(skb, MRC_A_CONN_RX_PKTS, i->rx_pkts, MRC_A_CONN_PAD) ||
	    nla_put_u64_64bit(skb, MRC_A_CONN_RX_DUPS, i->rx_dups, MRC_A_CONN_PAD) ||
	    nla_put_u64_64bit(skb, MRC_A_CONN_ACKS_TX, i->acks_tx, MRC_A_CONN_PAD) ||
	    nla_put_u64_64bit(skb, MRC_A_CONN_ACKS_RX, i->acks_rx, MRC_A_CONN_PAD) ||
	    nla_put_u64_64bit(skb, MRC_A_CONN_CE_RX, i->ce_rx, MRC_A_CONN_PAD) ||
	    nla_put_u64_64bit(skb, MRC_A_CONN_TX_BURSTS, i->tx_bursts, MRC_A_CONN_PAD) ||
	    nla_put_u64_64bit(skb, MRC_A_CONN_TX_BURST_PKTS, i->tx_burst_pkts,
			      MRC_A_CONN_PAD) ||
	    nla_put_u64_64bit(skb, MRC_A_CONN_RX_BURSTS, i->rx_bursts, MRC_A_CONN_PAD) ||
	    nla_put_u64_64bit(skb, MRC_A_CONN_RX_BURST_PKTS, i->rx_burst_pkts,
			      MRC_A_CONN_PAD) ||
	    nla_put_u64_64bit(skb, MRC_A_CONN_TX_CHUNKS, i->tx_chunks, MRC_A_CONN_PAD) ||
	    nla_put_u64_64bit(skb, MRC_A_CONN_TX_CHUNK_SEGS, i->tx_chunk_segs,
			      MRC_A_CONN_PAD) ||
	    nla_put_u64_64bit(skb, MRC_A_CONN_TX_CHUNK_ALONE, i->tx_chunk_alone,
			      MRC_A_CONN_PAD) ||
	    nla_put_u64_64bit(skb, MRC_A_CONN_ACKS_PIGGY_TX, i->acks_piggy_tx,
			      MRC_A_CONN_PAD) ||
	    nla_put_u64_64bit(skb, MRC_A_CONN_ACKS_PIGGY_RX, i->acks_piggy_rx,
			      MRC_A_CONN_PAD) ||
	    nla_put_u32(skb, MRC_A_CONN_CAPS, i->caps) ||
	    nla_put_u64_64bit(skb, MRC_A_CONN_SPURIOUS, i->spurious, MRC_A_CONN_PAD) ||
	    nla_put_u32(skb, MRC_A_CONN_REO_MULT, i->reo_mult) ||
	    (c->has_sock && uns &&
	     nla_put_u32(skb, MRC_A_CONN_UID, from_kuid_munged(uns, c->uid))) ||
	    (c->has_sock &&
	     nla_put_u64_64bit(skb, MRC_A_CONN_INODE, c->ino, MRC_A_CONN_PAD)) ||
	    mrc_nl_put_planes(skb, c->pl, c->npl)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/*
 * A message of its own for @ms, sized for its planes (conn-get do,
 * path-change-ntf); @uns: see mrc_nl_put_conn().
 */
static struct sk_buff *mrc_nl_conn_msg(struct mrc_sock *ms, u8 cmd, u32 portid,
				       u32 seq, gfp_t gfp,
				       struct user_namespace *uns)
{
	struct mrc_nl_conn *c;
	struct sk_buff *skb;
	int err = -ENOMEM;

	c = kmalloc(sizeof(*c), gfp);
	if (!c)
		return ERR_PTR(-ENOMEM);
	mrc_nl_snap_conn(ms, c);
	skb = genlmsg_new(mrc_nl_conn_size(c->npl), gfp);
	if (skb) {
		err = mrc_nl_put_conn(skb, c, cmd, portid, seq, 0, true, uns);
		/* sized for it: mrc_nl_conn_size() misses an attribute */
		WARN_ON_ONCE(err == -EMSGSIZE);
		if (err) {
			nlmsg_free(skb);
			skb = NULL;
		}
	}
	kfree(c);
	return skb ?: ERR_PTR(err);
}

/* Queues of a rail that rail-get reports: RX ones, then TX ones. */
static void mrc_nl_rail_queues(const struct mrc_rail *rail, u32 *nrx, u32 *ntx)
{
	*nrx = min(READ_ONCE(rail->dev->real_num_rx_queues), rail->num_rx_queues);
	*ntx = min(READ_ONCE(rail->dev->real_num_tx_queues), rail->num_tx_queues);
}

/* Bytes of one MRC_A_RAIL_QUEUE entry. */
static size_t mrc_nl_queue_size(void)
{
	return nla_total_size(0) +			/* the nest */
	       2 * nla_total_size(sizeof(u32)) +	/* type, id */
	       2 * nla_total_size_64bit(sizeof(u64));	/* packets, bytes */
}

/* Queue entry @pos of @rail (RX queues first, then TX queues). */
static int mrc_nl_put_queue(struct sk_buff *skb, const struct mrc_rail *rail,
			    u32 nrx, u32 pos)
{
	bool tx = pos >= nrx;
	u32 q = tx ? pos - nrx : pos;
	struct nlattr *nest;
	u64 packets, bytes;

	mrc_rail_get_queue_stats(rail, tx, q, &packets, &bytes);
	nest = nla_nest_start(skb, MRC_A_RAIL_QUEUE);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, MRC_A_QUEUE_TYPE,
			tx ? MRC_QUEUE_TYPE_TX : MRC_QUEUE_TYPE_RX) ||
	    nla_put_u32(skb, MRC_A_QUEUE_ID, q) ||
	    nla_put_u64_64bit(skb, MRC_A_QUEUE_PACKETS, packets, MRC_A_QUEUE_PAD) ||
	    nla_put_u64_64bit(skb, MRC_A_QUEUE_BYTES, bytes, MRC_A_QUEUE_PAD)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* The rail's IP addresses; RCU-safe (the IPv6 notifier may be atomic). */
static int mrc_nl_put_addrs(struct sk_buff *skb, const struct net_device *dev)
{
	const struct in_device *in_dev;
	const struct in_ifaddr *ifa;
	int err = 0;

	rcu_read_lock();
	in_dev = __in_dev_get_rcu(dev);
	if (in_dev) {
		in_dev_for_each_ifa_rcu(ifa, in_dev) {
			err = nla_put_in_addr(skb, MRC_A_RAIL_IPV4, ifa->ifa_local);
			if (err)
				goto out;
		}
	}
#if IS_ENABLED(CONFIG_IPV6)
	{
		const struct inet6_ifaddr *ifa6;
		struct inet6_dev *idev = __in6_dev_get(dev);

		if (idev) {
			list_for_each_entry_rcu(ifa6, &idev->addr_list, if_list) {
				err = nla_put_in6_addr(skb, MRC_A_RAIL_IPV6, &ifa6->addr);
				if (err)
					goto out;
			}
		}
	}
#endif
out:
	rcu_read_unlock();
	return err;
}

/*
 * Bytes of the attributes of a whole rail message, for genlmsg_new():
 * fixed attributes, the addresses there are now, the stats nest with
 * every drop reason, and every queue.  Context: RTNL or RCU.
 */
static size_t mrc_nl_rail_size(const struct mrc_rail *rail)
{
	const struct net_device *dev = rail->dev;
	const struct in_device *in_dev;
	const struct in_ifaddr *ifa;
	size_t addrs = 0;
	u32 nrx, ntx;

	rcu_read_lock();
	in_dev = __in_dev_get_rcu(dev);
	if (in_dev)
		in_dev_for_each_ifa_rcu(ifa, in_dev)
			addrs += nla_total_size(sizeof(__be32));
#if IS_ENABLED(CONFIG_IPV6)
	{
		const struct inet6_ifaddr *ifa6;
		struct inet6_dev *idev = __in6_dev_get(dev);

		if (idev)
			list_for_each_entry_rcu(ifa6, &idev->addr_list, if_list)
				addrs += nla_total_size(sizeof(struct in6_addr));
	}
#endif
	rcu_read_unlock();
	mrc_nl_rail_queues(rail, &nrx, &ntx);
	return 8 * nla_total_size(sizeof(u32)) +	/* ifindexes, plane, states, */
	       nla_total_size(IFNAMSIZ) +		/* mtu, queue counts; name */
	       addrs +
	       nla_total_size(0) +			/* stats */
	       6 * nla_total_size_64bit(sizeof(u64)) +
	       __MRC_DROP_MAX * (nla_total_size(0) + nla_total_size(sizeof(u32)) +
				 nla_total_size_64bit(sizeof(u64))) +
	       (size_t)(nrx + ntx) * mrc_nl_queue_size();
}

/*
 * A rail as described by rail-get: its attributes, then one queue entry
 * per RX queue, then per TX queue.
 *
 * @cont NULL: the whole rail or nothing (-EMSGSIZE).  Otherwise a dump
 * may spread a rail over several messages: *@cont 0 starts the rail; a
 * message that is full before the last queue ends there and sets *@cont
 * to 1 + the next queue entry.  The next message with that *@cont is a
 * continuation: dev-ifindex, ifindex and name only, then more queues.
 *
 * Context: RTNL or RCU.
 * Return: 0 when the rail is complete, 1 when more queues are to come,
 * -EMSGSIZE when nothing new fit (the message is cancelled).
 */
static int mrc_nl_fill_rail(struct sk_buff *skb, const struct mrc_rail *rail,
			    u8 cmd, u32 portid, u32 seq, int flags, long *cont)
{
	const struct net_device *dev = rail->dev;
	u32 nrx, ntx, pos, start = cont && *cont ? *cont - 1 : 0;
	struct mrc_stats st;
	void *hdr;

	mrc_nl_rail_queues(rail, &nrx, &ntx);
	if (start && start >= nrx + ntx)
		return 0;	/* the rail lost queues since: nothing left */
	hdr = genlmsg_put(skb, portid, seq, &mrc_genl_family, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, MRC_A_RAIL_DEV_IFINDEX, rail->mdev->dev->ifindex) ||
	    nla_put_u32(skb, MRC_A_RAIL_IFINDEX, dev->ifindex) ||
	    nla_put_string(skb, MRC_A_RAIL_NAME, dev->name))
		goto cancel;
	if (!start) {
		mrc_rail_get_stats(rail, &st);
		if (nla_put_u32(skb, MRC_A_RAIL_PLANE, READ_ONCE(rail->plane)) ||
		    nla_put_u32(skb, MRC_A_RAIL_ADMIN_STATE, READ_ONCE(rail->admin_state)) ||
		    nla_put_u32(skb, MRC_A_RAIL_OPER_STATE, READ_ONCE(rail->oper_state)) ||
		    nla_put_u32(skb, MRC_A_RAIL_MTU, READ_ONCE(dev->mtu)) ||
		    mrc_nl_put_addrs(skb, dev) ||
		    nla_put_u32(skb, MRC_A_RAIL_TX_QUEUES, READ_ONCE(dev->real_num_tx_queues)) ||
		    nla_put_u32(skb, MRC_A_RAIL_RX_QUEUES, READ_ONCE(dev->real_num_rx_queues)) ||
		    mrc_nl_put_stats(skb, MRC_A_RAIL_STATS, &st))
			goto cancel;
	}
	for (pos = start; pos < nrx + ntx; pos++) {
		if (!mrc_nl_put_queue(skb, rail, nrx, pos))
			continue;
		/* Full: go on in the next message, if this one has news. */
		if (!cont || (start && pos == start))
			goto cancel;
		*cont = 1 + pos;
		genlmsg_end(skb, hdr);
		return 1;
	}
	if (cont)
		*cont = 0;
	genlmsg_end(skb, hdr);
	return 0;

cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/*
 * A whole rail message, allocated for its size.  Addresses may come and
 * go between sizing and filling: then it is sized again, with room to
 * spare.  Context: RTNL or RCU (@gfp atomic).
 */
static struct sk_buff *mrc_nl_rail_msg(const struct mrc_rail *rail, u8 cmd,
				       u32 portid, u32 seq, gfp_t gfp)
{
	size_t slack = 0;
	struct sk_buff *skb;
	int tries;

	for (tries = 0; tries < 3; tries++, slack += NLMSG_GOODSIZE) {
		skb = genlmsg_new(mrc_nl_rail_size(rail) + slack, gfp);
		if (!skb)
			return ERR_PTR(-ENOMEM);
		if (!mrc_nl_fill_rail(skb, rail, cmd, portid, seq, 0, NULL))
			return skb;
		nlmsg_free(skb);
	}
	return ERR_PTR(-EMSGSIZE);
}

/* A device as described by dev-get. Context: RTNL or RCU. */
static int mrc_nl_fill_dev(struct sk_buff *skb, const struct mrc_dev *mdev,
			   u8 cmd, u32 portid, u32 seq, int flags)
{
	struct mrc_stats st;
	struct nlattr *nest;
	void *hdr;
	int plane;

	hdr = genlmsg_put(skb, portid, seq, &mrc_genl_family, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, MRC_A_DEV_IFINDEX, mdev->dev->ifindex) ||
	    nla_put_string(skb, MRC_A_DEV_NAME, mdev->dev->name) ||
	    nla_put_string(skb, MRC_A_DEV_VERSION, MRC_VERSION) ||
	    nla_put_u32(skb, MRC_A_DEV_FAMILY, mrc_params.family) ||
	    nla_put_u16(skb, MRC_A_DEV_UDP_PORT, READ_ONCE(mdev->udp_port)) ||
	    nla_put_u32(skb, MRC_A_DEV_MAX_MSG_SIZE, READ_ONCE(mdev->max_msg_size)) ||
	    nla_put_u32(skb, MRC_A_DEV_EVS_PER_PLANE, READ_ONCE(mdev->evs_per_plane)) ||
	    nla_put_string(skb, MRC_A_DEV_SPRAY, READ_ONCE(mdev->spray)->name))
		goto cancel;
	nest = nla_nest_start(skb, MRC_A_DEV_EV_TRANSITIONS);
	if (!nest ||
	    nla_put_u64_64bit(skb, MRC_A_EV_TRANSITIONS_TO_GOOD,
			      mrc_stats_ev_read(mdev, MRC_EV_GOOD),
			      MRC_A_EV_TRANSITIONS_PAD) ||
	    nla_put_u64_64bit(skb, MRC_A_EV_TRANSITIONS_TO_SKIP,
			      mrc_stats_ev_read(mdev, MRC_EV_SKIP),
			      MRC_A_EV_TRANSITIONS_PAD) ||
	    nla_put_u64_64bit(skb, MRC_A_EV_TRANSITIONS_TO_BAD,
			      mrc_stats_ev_read(mdev, MRC_EV_ASSUMED_BAD),
			      MRC_A_EV_TRANSITIONS_PAD) ||
	    nla_put_u64_64bit(skb, MRC_A_EV_TRANSITIONS_TO_DENIED,
			      mrc_stats_ev_read(mdev, MRC_EV_DENIED),
			      MRC_A_EV_TRANSITIONS_PAD) ||
	    nla_put_u64_64bit(skb, MRC_A_EV_TRANSITIONS_REPLACED,
			      mrc_stats_ev_read(mdev, MRC_STATS_EV_REPLACED),
			      MRC_A_EV_TRANSITIONS_PAD))
		goto cancel;
	nla_nest_end(skb, nest);

	rcu_read_lock();
	for (plane = 0; plane < MRC_MAX_RAILS; plane++) {
		const struct mrc_rail *rail = rcu_dereference(mdev->rails[plane]);

		if (!rail)
			continue;
		nest = nla_nest_start(skb, MRC_A_DEV_RAIL);
		if (!nest ||
		    nla_put_u32(skb, MRC_A_RAIL_IFINDEX, rail->dev->ifindex) ||
		    nla_put_string(skb, MRC_A_RAIL_NAME, rail->dev->name) ||
		    nla_put_u32(skb, MRC_A_RAIL_PLANE, READ_ONCE(rail->plane)) ||
		    nla_put_u32(skb, MRC_A_RAIL_ADMIN_STATE, READ_ONCE(rail->admin_state)) ||
		    nla_put_u32(skb, MRC_A_RAIL_OPER_STATE, READ_ONCE(rail->oper_state))) {
			rcu_read_unlock();
			goto cancel;
		}
		nla_nest_end(skb, nest);
	}
	rcu_read_unlock();

	mrc_dev_get_stats(mdev, &st);
	if (mrc_nl_put_stats(skb, MRC_A_DEV_STATS, &st))
		goto cancel;
	genlmsg_end(skb, hdr);
	return 0;

cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/* ---- notifications --------------------------------------------------------- */

/*
 * Send notification @skb to @group, or, if it could not be built (NULL or
 * an error pointer), tell the group's listeners that they missed one
 * (ENOBUFS on their next recv).
 */
static void mrc_nl_multicast(struct net *net, struct sk_buff *skb, u32 group,
			     gfp_t gfp)
{
	if (IS_ERR_OR_NULL(skb))
		genl_set_err(&mrc_genl_family, net, 0, group, -ENOBUFS);
	else
		genlmsg_multicast_netns(&mrc_genl_family, net, skb, 0, group, gfp);
}

/**
 * mrc_nl_notify_dev() - announce a device change on the "events" group
 * @mdev: the device
 * @cmd: MRC_CMD_DEV_ADD_NTF, MRC_CMD_DEV_DEL_NTF or MRC_CMD_DEV_CHANGE_NTF
 *
 * Context: process context (RTNL).
 */
void mrc_nl_notify_dev(struct mrc_dev *mdev, u8 cmd)
{
	struct net *net = dev_net(mdev->dev);
	struct sk_buff *skb;

	if (!genl_has_listeners(&mrc_genl_family, net, MRC_NLGRP_EVENTS))
		return;
	skb = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (skb && mrc_nl_fill_dev(skb, mdev, cmd, 0, 0, 0)) {
		nlmsg_free(skb);
		skb = NULL;
	}
	mrc_nl_multicast(net, skb, MRC_NLGRP_EVENTS, GFP_KERNEL);
}

/**
 * mrc_nl_notify_rail() - announce a rail change on the "events" group
 * @rail: the rail
 * @cmd: MRC_CMD_RAIL_ADD_NTF, MRC_CMD_RAIL_DEL_NTF or MRC_CMD_RAIL_CHANGE_NTF
 * @gfp: allocation flags (GFP_ATOMIC from atomic notifiers)
 *
 * Context: RTNL, or rcu_read_lock() with @gfp atomic.
 */
void mrc_nl_notify_rail(struct mrc_rail *rail, u8 cmd, gfp_t gfp)
{
	struct net *net = dev_net(rail->dev);
	struct sk_buff *skb;

	if (!genl_has_listeners(&mrc_genl_family, net, MRC_NLGRP_EVENTS))
		return;
	skb = mrc_nl_rail_msg(rail, cmd, 0, 0, gfp);
	mrc_nl_multicast(net, skb, MRC_NLGRP_EVENTS, gfp);
}

/*
 * A request lacks a required attribute: report it both ways, as the
 * missing-attribute extack attribute and as a message naming it.
 */
static bool mrc_nl_missing(struct genl_info *info, int attr, const char *name)
{
	if (!GENL_REQ_ATTR_CHECK(info, attr))
		return false;
	NL_SET_ERR_MSG_FMT(info->extack, "missing attribute %s", name);
	return true;
}

/* ---- device operations ----------------------------------------------------- */

static int mrc_nl_dev_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mrc_dev *mdev;
	struct sk_buff *msg;
	int err;

	if (mrc_nl_missing(info, MRC_A_DEV_IFINDEX, "ifindex"))
		return -EINVAL;
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;

	rtnl_lock();
	mdev = mrc_dev_get_by_index(genl_info_net(info),
				    nla_get_u32(info->attrs[MRC_A_DEV_IFINDEX]),
				    info->extack);
	if (IS_ERR(mdev)) {
		NL_SET_BAD_ATTR(info->extack, info->attrs[MRC_A_DEV_IFINDEX]);
		err = PTR_ERR(mdev);
	} else {
		err = mrc_nl_fill_dev(msg, mdev, MRC_CMD_DEV_GET, info->snd_portid,
				      info->snd_seq, 0);
	}
	rtnl_unlock();
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

static int mrc_nl_dev_get_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb)
{
	struct mrc_net *mn = mrc_net(sock_net(skb->sk));
	long idx = 0, start = cb->args[0];
	struct mrc_dev *mdev;
	int err = 0;

	rtnl_lock();
	list_for_each_entry(mdev, &mn->devs, list) {
		if (idx++ < start)
			continue;
		err = mrc_nl_fill_dev(skb, mdev, MRC_CMD_DEV_GET,
				      NETLINK_CB(cb->skb).portid,
				      cb->nlh->nlmsg_seq, NLM_F_MULTI);
		if (err) {
			idx--;
			break;
		}
	}
	rtnl_unlock();
	cb->args[0] = idx;
	/* A device too big for an empty message would loop forever. */
	if (err && !skb->len)
		return err;
	return skb->len;
}

static int mrc_nl_dev_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **tb = info->attrs;
	struct mrc_dev_config cfg = {};
	struct mrc_dev *mdev;
	int bad, err = 0;

	if (mrc_nl_missing(info, MRC_A_DEV_IFINDEX, "ifindex"))
		return -EINVAL;
	if (!tb[MRC_A_DEV_UDP_PORT] && !tb[MRC_A_DEV_MAX_MSG_SIZE] &&
	    !tb[MRC_A_DEV_EVS_PER_PLANE] && !tb[MRC_A_DEV_SPRAY]) {
		NL_SET_ERR_MSG(info->extack,
			       "nothing to change: give udp-port, max-msg-size, evs-per-plane or spray");
		return -EINVAL;
	}

	if (tb[MRC_A_DEV_UDP_PORT]) {
		cfg.has_udp_port = true;
		cfg.udp_port = nla_get_u16(tb[MRC_A_DEV_UDP_PORT]);
	}
	if (tb[MRC_A_DEV_MAX_MSG_SIZE]) {
		cfg.has_max_msg_size = true;
		cfg.max_msg_size = nla_get_u32(tb[MRC_A_DEV_MAX_MSG_SIZE]);
	}
	if (tb[MRC_A_DEV_EVS_PER_PLANE]) {
		cfg.has_evs_per_plane = true;
		cfg.evs_per_plane = nla_get_u32(tb[MRC_A_DEV_EVS_PER_PLANE]);
	}
	if (tb[MRC_A_DEV_SPRAY])
		cfg.spray = nla_data(tb[MRC_A_DEV_SPRAY]);

	rtnl_lock();
	mdev = mrc_dev_get_by_index(genl_info_net(info),
				    nla_get_u32(tb[MRC_A_DEV_IFINDEX]), info->extack);
	if (IS_ERR(mdev)) {
		NL_SET_BAD_ATTR(info->extack, tb[MRC_A_DEV_IFINDEX]);
		err = PTR_ERR(mdev);
		goto out;
	}
	/* All or nothing: a refused value leaves every tunable as it was. */
	err = mrc_dev_configure(mdev, &cfg, info->extack, &bad);
	if (err) {
		if (bad)
			NL_SET_BAD_ATTR(info->extack, tb[bad]);
		goto out;
	}
	mrc_nl_notify_dev(mdev, MRC_CMD_DEV_CHANGE_NTF);
out:
	rtnl_unlock();
	return err;
}

/* ---- rail operations -------------------------------------------------------- */

/* The rail an ifindex attribute names. Context: RTNL. */
static struct mrc_rail *mrc_nl_get_rail(struct genl_info *info)
{
	struct nlattr *attr = info->attrs[MRC_A_RAIL_IFINDEX];
	struct net_device *dev;
	struct mrc_rail *rail;

	dev = __dev_get_by_index(genl_info_net(info), nla_get_u32(attr));
	if (!dev) {
		NL_SET_ERR_MSG_FMT(info->extack, "no device with ifindex %u",
				   nla_get_u32(attr));
		NL_SET_BAD_ATTR(info->extack, attr);
		return ERR_PTR(-ENODEV);
	}
	rail = mrc_rail_from_dev(dev);
	if (!rail) {
		NL_SET_ERR_MSG_FMT(info->extack, "%s is not a rail of any mrc device",
				   dev->name);
		NL_SET_BAD_ATTR(info->extack, attr);
		return ERR_PTR(-ENOENT);
	}
	return rail;
}

static int mrc_nl_rail_add_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **tb = info->attrs;
	struct net *net = genl_info_net(info);
	u32 admin = MRC_ADMIN_STATE_UP;
	struct sk_buff *msg = NULL;
	struct net_device *lower;
	struct mrc_dev *mdev;
	int plane = -1;
	int err;

	if (mrc_nl_missing(info, MRC_A_RAIL_DEV_IFINDEX, "dev-ifindex") ||
	    mrc_nl_missing(info, MRC_A_RAIL_IFINDEX, "ifindex"))
		return -EINVAL;
	if (tb[MRC_A_RAIL_PLANE])
		plane = nla_get_u32(tb[MRC_A_RAIL_PLANE]);
	if (tb[MRC_A_RAIL_ADMIN_STATE])
		admin = nla_get_u32(tb[MRC_A_RAIL_ADMIN_STATE]);

	rtnl_lock();
	mdev = mrc_dev_get_by_index(net, nla_get_u32(tb[MRC_A_RAIL_DEV_IFINDEX]),
				    info->extack);
	if (IS_ERR(mdev)) {
		NL_SET_BAD_ATTR(info->extack, tb[MRC_A_RAIL_DEV_IFINDEX]);
		err = PTR_ERR(mdev);
		goto out;
	}
	lower = __dev_get_by_index(net, nla_get_u32(tb[MRC_A_RAIL_IFINDEX]));
	if (!lower) {
		NL_SET_ERR_MSG_FMT(info->extack, "no device with ifindex %u",
				   nla_get_u32(tb[MRC_A_RAIL_IFINDEX]));
		NL_SET_BAD_ATTR(info->extack, tb[MRC_A_RAIL_IFINDEX]);
		err = -ENODEV;
		goto out;
	}
	err = mrc_rail_attach(mdev, lower, plane, admin, info->extack);
	if (err)
		goto out;
	/* Attached: a reply that cannot be built does not undo that. */
	msg = mrc_nl_rail_msg(mrc_rail_from_dev(lower), MRC_CMD_RAIL_ADD,
			      info->snd_portid, info->snd_seq, GFP_KERNEL);
	if (IS_ERR(msg)) {
		NL_SET_ERR_MSG_FMT(info->extack,
				   "%s is attached, but the reply could not be built",
				   lower->name);
		err = PTR_ERR(msg);
	}
out:
	rtnl_unlock();
	return err ?: genlmsg_reply(msg, info);
}

static int mrc_nl_rail_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mrc_rail *rail;
	int err = 0;

	if (mrc_nl_missing(info, MRC_A_RAIL_IFINDEX, "ifindex"))
		return -EINVAL;
	rtnl_lock();
	rail = mrc_nl_get_rail(info);
	if (IS_ERR(rail))
		err = PTR_ERR(rail);
	else
		mrc_rail_detach(rail);
	rtnl_unlock();
	return err;
}

static int mrc_nl_rail_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **tb = info->attrs;
	struct mrc_rail *rail;
	int err = 0;

	if (mrc_nl_missing(info, MRC_A_RAIL_IFINDEX, "ifindex"))
		return -EINVAL;
	if (!tb[MRC_A_RAIL_PLANE] && !tb[MRC_A_RAIL_ADMIN_STATE]) {
		NL_SET_ERR_MSG(info->extack, "nothing to change: give plane or admin-state");
		return -EINVAL;
	}
	rtnl_lock();
	rail = mrc_nl_get_rail(info);
	if (IS_ERR(rail)) {
		err = PTR_ERR(rail);
		goto out;
	}
	if (tb[MRC_A_RAIL_PLANE]) {
		err = mrc_rail_set_plane(rail, nla_get_u32(tb[MRC_A_RAIL_PLANE]),
					 info->extack);
		if (err) {
			NL_SET_BAD_ATTR(info->extack, tb[MRC_A_RAIL_PLANE]);
			goto out;
		}
	}
	if (tb[MRC_A_RAIL_ADMIN_STATE])
		mrc_rail_set_admin_state(rail, nla_get_u32(tb[MRC_A_RAIL_ADMIN_STATE]));
	mrc_nl_notify_rail(rail, MRC_CMD_RAIL_CHANGE_NTF, GFP_KERNEL);
	mrc_nl_notify_dev(rail->mdev, MRC_CMD_DEV_CHANGE_NTF);
out:
	rtnl_unlock();
	return err;
}

static int mrc_nl_rail_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mrc_rail *rail;
	struct sk_buff *msg;
	int err;

	if (mrc_nl_missing(info, MRC_A_RAIL_IFINDEX, "ifindex"))
		return -EINVAL;
	rtnl_lock();
	rail = mrc_nl_get_rail(info);
	if (IS_ERR(rail)) {
		err = PTR_ERR(rail);
	} else {
		msg = mrc_nl_rail_msg(rail, MRC_CMD_RAIL_GET, info->snd_portid,
				      info->snd_seq, GFP_KERNEL);
		err = PTR_ERR_OR_ZERO(msg);
		if (err)
			NL_SET_ERR_MSG_FMT(info->extack, "the reply on rail %s could not be built",
					   rail->dev->name);
	}
	rtnl_unlock();
	return err ?: genlmsg_reply(msg, info);
}

/*
 * Rails in device then plane order.  Resumes at cb->args[0], the rail's
 * position; a rail whose queues did not fit in one message goes on in
 * the next (mrc_nl_fill_rail()): cb->args[1] is then its continuation
 * point and cb->args[2] its ifindex (if another rail took its position
 * meanwhile, that one starts from the beginning).
 */
static int mrc_nl_rail_get_dumpit(struct sk_buff *skb,
				  struct netlink_callback *cb)
{
	struct nlattr *filter = mrc_genl_dump_attrs(cb)[MRC_A_RAIL_DEV_IFINDEX];
	struct net *net = sock_net(skb->sk);
	long idx = 0, start = cb->args[0];
	struct mrc_dev *mdev;
	int plane, err = 0;

	rtnl_lock();
	if (filter) {
		mdev = mrc_dev_get_by_index(net, nla_get_u32(filter), cb->extack);
		if (IS_ERR(mdev)) {
			err = PTR_ERR(mdev);
			goto out;
		}
	}
	/* idx counts rails across all devices, in device then plane order. */
	list_for_each_entry(mdev, &mrc_net(net)->devs, list) {
		if (filter && mdev->dev->ifindex != nla_get_u32(filter))
			continue;
		for (plane = 0; plane < MRC_MAX_RAILS; plane++) {
			struct mrc_rail *rail = rtnl_dereference(mdev->rails[plane]);

			if (!rail || idx++ < start)
				continue;
			if (cb->args[2] != rail->dev->ifindex)
				cb->args[1] = 0;
			cb->args[2] = rail->dev->ifindex;
			err = mrc_nl_fill_rail(skb, rail, MRC_CMD_RAIL_GET,
					       NETLINK_CB(cb->skb).portid,
					       cb->nlh->nlmsg_seq, NLM_F_MULTI,
					       &cb->args[1]);
			if (err) {
				/* This rail again, where it stopped. */
				idx--;
				goto done;
			}
		}
	}
done:
	cb->args[0] = idx;
	/* Full (or a continuation ended): the next part goes on. */
	if (err && skb->len)
		err = 0;
out:
	rtnl_unlock();
	return err ?: skb->len;
}

/* ---- connection operations ------------------------------------------------- */

static int mrc_nl_conn_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mrc_sock *ms;
	struct sk_buff *msg;
	int err;

	if (mrc_nl_missing(info, MRC_A_CONN_ID, "id"))
		return -EINVAL;
	err = mrc_nl_id_lookup_allowed(skb, genl_info_net(info),
				       info->attrs[MRC_A_CONN_ID], info->extack);
	if (err)
		return err;
	ms = mrc_conn_lookup(genl_info_net(info),
			     nla_get_u32(info->attrs[MRC_A_CONN_ID]));
	if (!ms) {
		NL_SET_ERR_MSG_FMT(info->extack, "no connection with id %08x",
				   nla_get_u32(info->attrs[MRC_A_CONN_ID]));
		NL_SET_BAD_ATTR(info->extack, info->attrs[MRC_A_CONN_ID]);
		return -ENOENT;
	}
	msg = mrc_nl_conn_msg(ms, MRC_CMD_CONN_GET, info->snd_portid,
			      info->snd_seq, GFP_KERNEL,
			      sk_user_ns(NETLINK_CB(skb).sk));
	sock_put(&ms->sk);
	if (IS_ERR(msg))
		return PTR_ERR(msg);
	return genlmsg_reply(msg, info);
}

#define MRC_NL_CONN_BATCH	32

/* A dump's skbs hold at least one connection with every plane. */
static int mrc_nl_conn_get_start(struct netlink_callback *cb)
{
	cb->min_dump_alloc =
		nlmsg_total_size(genlmsg_total_size(mrc_nl_conn_size(MRC_MAX_RAILS)));
	return 0;
}

/*
 * Connections are listed per device, in the device's list order; a dump
 * resumes by position (cb->args[0] device, cb->args[1] connection).
 */
static int mrc_nl_conn_get_dumpit(struct sk_buff *skb,
				  struct netlink_callback *cb)
{
	struct nlattr *filter = mrc_genl_dump_attrs(cb)[MRC_A_CONN_DEV_IFINDEX];
	struct mrc_sock *batch[MRC_NL_CONN_BATCH];
	struct net *net = sock_net(skb->sk);
	struct mrc_nl_conn *c;
	long didx = 0, cidx;
	struct mrc_sock *ms;
	bool ids = mrc_nl_dump_ids(skb, cb);
	struct mrc_dev *mdev;
	int n, i, err = 0;

	c = kmalloc(sizeof(*c), GFP_KERNEL);	/* each connection's snapshot */
	if (!c)
		return -ENOMEM;
	rtnl_lock();
	if (filter) {
		mdev = mrc_dev_get_by_index(net, nla_get_u32(filter), cb->extack);
		if (IS_ERR(mdev)) {
			rtnl_unlock();
			kfree(c);
			return PTR_ERR(mdev);
		}
	}
	list_for_each_entry(mdev, &mrc_net(net)->devs, list) {
		if (filter && mdev->dev->ifindex != nla_get_u32(filter))
			continue;
		if (didx++ < cb->args[0])
			continue;
		for (;;) {
			/* Take a batch of references, fill without the list lock. */
			n = 0;
			cidx = 0;
			spin_lock_bh(&mdev->conns_lock);
			list_for_each_entry(ms, &mdev->conns, dev_node) {
				if (cidx++ < cb->args[1])
					continue;
				sock_hold(&ms->sk);
				batch[n++] = ms;
				if (n == MRC_NL_CONN_BATCH)
					break;
			}
			spin_unlock_bh(&mdev->conns_lock);
			for (i = 0; i < n; i++) {
				if (!err) {
					mrc_nl_snap_conn(batch[i], c);
					err = mrc_nl_put_conn(skb, c, MRC_CMD_CONN_GET,
							      NETLINK_CB(cb->skb).portid,
							      cb->nlh->nlmsg_seq,
							      NLM_F_MULTI, ids,
							      sk_user_ns(NETLINK_CB(cb->skb).sk));
				}
				if (!err)
					cb->args[1]++;
				sock_put(&batch[i]->sk);
			}
			if (err || n < MRC_NL_CONN_BATCH)
				break;
		}
		if (err)
			break;
		cb->args[0]++;
		cb->args[1] = 0;
	}
	rtnl_unlock();
	kfree(c);
	if (err && skb->len)
		err = 0;
	return err ?: skb->len;
}

/* ---- path operations -------------------------------------------------------- */

/* One path, with its connection's id if @ids; conn lock held. */
static int mrc_nl_fill_path(struct sk_buff *skb, struct mrc_sock *ms, u32 i,
			    u32 now, u32 portid, u32 seq, bool ids)
{
	const struct mrc_ev *e = &ms->evs[i];
	void *hdr;

	lockdep_assert_held(&ms->lock);
	hdr = genlmsg_put(skb, portid, seq, &mrc_genl_family, NLM_F_MULTI,
			  MRC_CMD_PATH_GET);
	if (!hdr)
		return -EMSGSIZE;
	if ((ids && nla_put_u32(skb, MRC_A_PATH_CONN_ID, ms->id)) ||
	    nla_put_u32(skb, MRC_A_PATH_INDEX, i) ||
	    nla_put_u32(skb, MRC_A_PATH_EV, e->ev) ||
	    nla_put_u32(skb, MRC_A_PATH_PLANE, e->plane) ||
	    nla_put_u16(skb, MRC_A_PATH_SPORT, MRC_EV_SPORT(e->ev)) ||
	    nla_put_u32(skb, MRC_A_PATH_STATE, e->state) ||
	    nla_put_u32(skb, MRC_A_PATH_SINCE_MS, (now - e->since_us) / 1000) ||
	    nla_put_u64_64bit(skb, MRC_A_PATH_PKTS, e->pkts, MRC_A_PATH_PAD) ||
	    nla_put_u64_64bit(skb, MRC_A_PATH_BYTES, e->bytes, MRC_A_PATH_PAD) ||
	    nla_put_u64_64bit(skb, MRC_A_PATH_ACKS, e->acks, MRC_A_PATH_PAD) ||
	    nla_put_u64_64bit(skb, MRC_A_PATH_ECN, e->ecn, MRC_A_PATH_PAD) ||
	    nla_put_u64_64bit(skb, MRC_A_PATH_LOSSES, e->losses, MRC_A_PATH_PAD) ||
	    nla_put_u64_64bit(skb, MRC_A_PATH_NACKS, e->nacks, MRC_A_PATH_PAD) ||
	    nla_put_u64_64bit(skb, MRC_A_PATH_PROBES, e->probes, MRC_A_PATH_PAD) ||
	    nla_put_u32(skb, MRC_A_PATH_RTT_US, e->rtt_us)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/* Paths of @ms from index *@pos on; advances *@pos. */
static int mrc_nl_fill_paths(struct sk_buff *skb, struct netlink_callback *cb,
			     struct mrc_sock *ms, long *pos, bool ids)
{
	u32 now = mrc_now_us();
	int err = 0;

	spin_lock_bh(&ms->lock);
	for (; *pos < ms->npaths; (*pos)++) {
		err = mrc_nl_fill_path(skb, ms, *pos, now,
				       NETLINK_CB(cb->skb).portid,
				       cb->nlh->nlmsg_seq, ids);
		if (err)
			break;
	}
	mrc_conn_spin_unlock(ms);
	return err;
}

/*
 * Paths of one connection (conn-id) or of every connection of the
 * namespace, device by device.  Resumes at cb->args[0] device,
 * cb->args[1] connection, cb->args[2] path.
 */
static int mrc_nl_path_get_dumpit(struct sk_buff *skb,
				  struct netlink_callback *cb)
{
	struct nlattr *filter = mrc_genl_dump_attrs(cb)[MRC_A_PATH_CONN_ID];
	struct net *net = sock_net(skb->sk);
	long didx = 0, cidx;
	struct mrc_sock *ms;
	bool ids = mrc_nl_dump_ids(skb, cb);
	struct mrc_dev *mdev;
	int err = 0;

	if (filter) {
		err = mrc_nl_id_lookup_allowed(cb->skb, net, filter, cb->extack);
		if (err)
			return err;
		ms = mrc_conn_lookup(net, nla_get_u32(filter));
		if (!ms) {
			NL_SET_ERR_MSG_FMT(cb->extack, "no connection with id %08x",
					   nla_get_u32(filter));
			return -ENOENT;
		}
		err = mrc_nl_fill_paths(skb, cb, ms, &cb->args[2], true);
		sock_put(&ms->sk);
		goto out;
	}
	rtnl_lock();
	list_for_each_entry(mdev, &mrc_net(net)->devs, list) {
		if (didx++ < cb->args[0])
			continue;
		for (;;) {
			ms = NULL;
			cidx = 0;
			spin_lock_bh(&mdev->conns_lock);
			list_for_each_entry(ms, &mdev->conns, dev_node) {
				if (cidx++ == cb->args[1]) {
					sock_hold(&ms->sk);
					break;
				}
			}
			if (list_entry_is_head(ms, &mdev->conns, dev_node))
				ms = NULL;
			spin_unlock_bh(&mdev->conns_lock);
			if (!ms)
				break;
			err = mrc_nl_fill_paths(skb, cb, ms, &cb->args[2], ids);
			sock_put(&ms->sk);
			if (err)
				break;
			cb->args[1]++;
			cb->args[2] = 0;
		}
		if (err)
			break;
		cb->args[0]++;
		cb->args[1] = 0;
	}
	rtnl_unlock();
out:
	if (err == -EMSGSIZE && skb->len)
		err = 0;
	return err ?: skb->len;
}

static int mrc_nl_path_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **tb = info->attrs;
	struct sk_buff_head xq;
	struct mrc_sock *ms;
	bool deny;
	u32 ev;
	int err;

	if (mrc_nl_missing(info, MRC_A_PATH_CONN_ID, "conn-id") ||
	    mrc_nl_missing(info, MRC_A_PATH_EV, "ev") ||
	    mrc_nl_missing(info, MRC_A_PATH_DENIED, "denied"))
		return -EINVAL;
	ev = nla_get_u32(tb[MRC_A_PATH_EV]);
	deny = nla_get_u8(tb[MRC_A_PATH_DENIED]);
	ms = mrc_conn_lookup(genl_info_net(info), nla_get_u32(tb[MRC_A_PATH_CONN_ID]));
	if (!ms) {
		NL_SET_ERR_MSG_FMT(info->extack, "no connection with id %08x",
				   nla_get_u32(tb[MRC_A_PATH_CONN_ID]));
		NL_SET_BAD_ATTR(info->extack, tb[MRC_A_PATH_CONN_ID]);
		return -ENOENT;
	}
	mrc_conn_lock(ms, &xq);
	if (!ms->npaths) {
		err = -ENOTCONN;
		NL_SET_ERR_MSG(info->extack, "the connection has no paths (not established)");
	} else {
		err = mrc_path_deny(ms, ev, deny);
		if (err) {
			NL_SET_ERR_MSG_FMT(info->extack,
					   "connection %08x has no path with ev %u",
					   ms->id, ev);
			NL_SET_BAD_ATTR(info->extack, tb[MRC_A_PATH_EV]);
		} else {
			mrc_output_push(ms, &xq);
		}
	}
	mrc_conn_unlock(ms, &xq);
	sock_put(&ms->sk);
	return err;
}

/**
 * mrc_nl_notify_paths() - path-change-ntf: a connection's paths changed
 * @ms: the connection (not locked)
 *
 * Sent on the "conns" group: it carries the connection ids, and only
 * CAP_NET_ADMIN may join it.
 *
 * Context: any but hard IRQ; allocates atomically.
 */
void mrc_nl_notify_paths(struct mrc_sock *ms)
{
	struct net *net = sock_net(&ms->sk);
	struct sk_buff *skb;

	if (!genl_has_listeners(&mrc_genl_family, net, MRC_NLGRP_CONNS))
		return;
	skb = mrc_nl_conn_msg(ms, MRC_CMD_PATH_CHANGE_NTF, 0, 0, GFP_ATOMIC, NULL);
	mrc_nl_multicast(net, skb, MRC_NLGRP_CONNS, GFP_ATOMIC);
}

/* ---- policies (must match Documentation/netlink/specs/mrc.yaml) ------------- */

static const struct nla_policy mrc_dev_get_nl_policy[MRC_A_DEV_IFINDEX + 1] = {
	[MRC_A_DEV_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
};

static const struct nla_policy mrc_dev_set_nl_policy[MRC_A_DEV_SPRAY + 1] = {
	[MRC_A_DEV_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
	[MRC_A_DEV_UDP_PORT] = MRC_DEV_POLICY_UDP_PORT,
	[MRC_A_DEV_MAX_MSG_SIZE] = MRC_DEV_POLICY_MAX_MSG_SIZE,
	[MRC_A_DEV_EVS_PER_PLANE] = MRC_DEV_POLICY_EVS_PER_PLANE,
	[MRC_A_DEV_SPRAY] = MRC_DEV_POLICY_SPRAY,
};

static const struct nla_policy mrc_rail_add_nl_policy[MRC_A_RAIL_ADMIN_STATE + 1] = {
	[MRC_A_RAIL_DEV_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
	[MRC_A_RAIL_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
	[MRC_A_RAIL_PLANE] = NLA_POLICY_MAX(NLA_U32, MRC_MAX_PLANE),
	[MRC_A_RAIL_ADMIN_STATE] = NLA_POLICY_MAX(NLA_U32, MRC_ADMIN_STATE_UP),
};

static const struct nla_policy mrc_rail_del_nl_policy[MRC_A_RAIL_IFINDEX + 1] = {
	[MRC_A_RAIL_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
};

static const struct nla_policy mrc_rail_set_nl_policy[MRC_A_RAIL_ADMIN_STATE + 1] = {
	[MRC_A_RAIL_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
	[MRC_A_RAIL_PLANE] = NLA_POLICY_MAX(NLA_U32, MRC_MAX_PLANE),
	[MRC_A_RAIL_ADMIN_STATE] = NLA_POLICY_MAX(NLA_U32, MRC_ADMIN_STATE_UP),
};

/* One policy serves do (ifindex) and dump (dev-ifindex) on 6.1's genl_ops. */
static const struct nla_policy mrc_rail_get_nl_policy[MRC_A_RAIL_IFINDEX + 1] = {
	[MRC_A_RAIL_DEV_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
	[MRC_A_RAIL_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
};

/* One policy serves do (id) and dump (dev-ifindex). */
static const struct nla_policy mrc_conn_get_nl_policy[MRC_A_CONN_ID + 1] = {
	[MRC_A_CONN_DEV_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
	[MRC_A_CONN_ID] = NLA_POLICY_MIN(NLA_U32, 1),
};

static const struct nla_policy mrc_path_get_nl_policy[MRC_A_PATH_CONN_ID + 1] = {
	[MRC_A_PATH_CONN_ID] = NLA_POLICY_MIN(NLA_U32, 1),
};

static const struct nla_policy mrc_path_set_nl_policy[MRC_A_PATH_DENIED + 1] = {
	[MRC_A_PATH_CONN_ID] = NLA_POLICY_MIN(NLA_U32, 1),
	[MRC_A_PATH_EV] = NLA_POLICY_MAX(NLA_U32, MRC_EV_MAX),
	[MRC_A_PATH_DENIED] = NLA_POLICY_MAX(NLA_U8, 1),
};

static const struct genl_ops mrc_nl_ops[] = {
	{
		.cmd = MRC_CMD_DEV_GET,
		.doit = mrc_nl_dev_get_doit,
		.dumpit = mrc_nl_dev_get_dumpit,
		.policy = mrc_dev_get_nl_policy,
		.maxattr = ARRAY_SIZE(mrc_dev_get_nl_policy) - 1,
	},
	{
		.cmd = MRC_CMD_DEV_SET,
		.doit = mrc_nl_dev_set_doit,
		.policy = mrc_dev_set_nl_policy,
		.maxattr = ARRAY_SIZE(mrc_dev_set_nl_policy) - 1,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = MRC_CMD_RAIL_ADD,
		.doit = mrc_nl_rail_add_doit,
		.policy = mrc_rail_add_nl_policy,
		.maxattr = ARRAY_SIZE(mrc_rail_add_nl_policy) - 1,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = MRC_CMD_RAIL_DEL,
		.doit = mrc_nl_rail_del_doit,
		.policy = mrc_rail_del_nl_policy,
		.maxattr = ARRAY_SIZE(mrc_rail_del_nl_policy) - 1,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = MRC_CMD_RAIL_SET,
		.doit = mrc_nl_rail_set_doit,
		.policy = mrc_rail_set_nl_policy,
		.maxattr = ARRAY_SIZE(mrc_rail_set_nl_policy) - 1,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = MRC_CMD_RAIL_GET,
		.doit = mrc_nl_rail_get_doit,
		.dumpit = mrc_nl_rail_get_dumpit,
		.policy = mrc_rail_get_nl_policy,
		.maxattr = ARRAY_SIZE(mrc_rail_get_nl_policy) - 1,
	},
	{
		.cmd = MRC_CMD_CONN_GET,
		.doit = mrc_nl_conn_get_doit,
		.start = mrc_nl_conn_get_start,
		.dumpit = mrc_nl_conn_get_dumpit,
		.policy = mrc_conn_get_nl_policy,
		.maxattr = ARRAY_SIZE(mrc_conn_get_nl_policy) - 1,
	},
	{
		.cmd = MRC_CMD_PATH_GET,
		.dumpit = mrc_nl_path_get_dumpit,
		.policy = mrc_path_get_nl_policy,
		.maxattr = ARRAY_SIZE(mrc_path_get_nl_policy) - 1,
	},
	{
		.cmd = MRC_CMD_PATH_SET,
		.doit = mrc_nl_path_set_doit,
		.policy = mrc_path_set_nl_policy,
		.maxattr = ARRAY_SIZE(mrc_path_set_nl_policy) - 1,
		.flags = GENL_UNS_ADMIN_PERM,
	},
};

static struct genl_family mrc_genl_family __ro_after_init = {
	.name = MRC_FAMILY_NAME,
	.version = MRC_FAMILY_VERSION,
	.netnsok = true,
	.parallel_ops = true,
	.module = THIS_MODULE,
	.ops = mrc_nl_ops,
	.n_ops = ARRAY_SIZE(mrc_nl_ops),
	.resv_start_op = MRC_CMD_RAIL_GET + 1,
	.mcgrps = mrc_nl_mcgrps,
	.n_mcgrps = ARRAY_SIZE(mrc_nl_mcgrps),
};

/**
 * mrc_netlink_init() - register the generic netlink family
 *
 * Return: 0 or a negative errno.
 */
int mrc_netlink_init(void)
{
	return genl_register_family(&mrc_genl_family);
}

/**
 * mrc_netlink_exit() - unregister the generic netlink family
 */
void mrc_netlink_exit(void)
{
	genl_unregister_family(&mrc_genl_family);
}
