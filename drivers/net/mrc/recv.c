// SPDX-License-Identifier: GPL-2.0
/*
 * recv.c - the receiver: DATA placed, ACKs sent, messages handed to
 * recvmsg().
 *
 * DATA: the receive window says whether the PSN is new (spraying makes
 * holes normal; they fill).  A PSN at or beyond the credit we advertised
 * is dropped.  A new segment must lie exactly on its message's grid:
 * at a multiple of the segment size, carrying the segment size or, for
 * the message's last segment, exactly the rest (so no two segments
 * overlap unless they are the same segment).  It is placed by offset in
 * an rbtree of runs (appending, the common case, is O(1)): a segment
 * that continues the message's last run is merged into that run's skb
 * (rx_coalesce), any other one starts a run, and a segment that lies
 * inside a run is bogus.  A message is complete when all its bytes are
 * there, and recvmsg() returns messages in order of their ids.
 *
 * Receive memory is charged per connection (sk_rmem_alloc, at most
 * mrc_input_limit()) and to the protocol (mrc_proto's memory_allocated,
 * under its sysctl limits).  Each PSN of credit costs at most rx_truesize
 * (a segment whose skb is bigger is copied into a compact one) plus its
 * message's struct, and the credit only grows by what the free memory
 * holds at that price: whatever the peer sends within it fits the
 * connection, and nothing beyond it is accepted.  The device's memory
 * (mrc_dev_rmem_max) is committed when credit is granted, not when data
 * arrives: a busy connection commits what it holds plus what it promised
 * (mrc_input_commit()), so credit is only granted what the device can
 * still back, and data sent within it is never dropped for the device's
 * sake (senders free what was acknowledged: we could not take it back).
 * An idle connection (nothing held, nothing missing) reserves at most
 * MRC_INITIAL_CREDIT PSNs of its credit, so idle connections do not keep
 * the device from busy ones; the first segment it receives makes it busy
 * again, and it commits its whole credit even where that exceeds
 * dev_rmem_max: then no connection of the device gets new credit until
 * memory is read.  What the idle discount leaves unreserved is bounded
 * as well: the full commitments (mdev->rmem_full) must stay under
 * MRC_DEV_RMEM_OVERCOMMIT x dev_rmem_max for any credit to be granted,
 * and receiving never raises them, so a device never holds more than
 * that (but for grants racing on other CPUs).
 * The limits and the price derive from our settings (max-msg-size,
 * SO_RCVBUF, min_seg_size, dev_rmem_max), never from numbers in packets.
 *
 * ACKs: at least every ack_every packets (a module parameter, at most
 * MRC_ACK_EVERY_MAX: senders rely on it), at once for a duplicate, a CE
 * mark, a CLOSE, a segment whose sender asks for it (ACK_NOW, output.c:
 * a retransmission, or a segment that fills a window while few are in
 * flight), when our credit ends within ack_every PSNs, and, from a peer
 * that does not read ACKs on DATA, at the end of a message; otherwise
 * within MRC_ACK_DELAY_US (ack_pingpong_us, below).  Each ACK names its
 * trigger (PSN, EV, transmission) so the sender learns which path
 * delivered what, and carries the CE count and our credit.  With a peer
 * that reads ACKs on DATA (MRC_F_REQ_ACK_DATA), a pending ACK rides our
 * next DATA packet that has room for it (output.c,
 * mrc_input_piggyback()); a message's end is acknowledged as any segment
 * (lazy_end_ack; at once without it), and while our application answers
 * each message (@pingpong) it waits for that answer, at most
 * ack_pingpong_us.
 *
 * Reading order: udp.c -> input.c (the dispatcher) -> here
 * (mrc_input_seg(): placed, delivered to rx_ready; ACKs out through
 * xmit.c) -> af_mrc.c (recvmsg() takes a message, mrc_input_take_msg(),
 * copies it out and releases it, mrc_input_release(); the credit its
 * memory frees reopens through mrc_input_fold()).  What the peer's ACKs
 * mean to our sender is ack.c.
 *
 * Context: every function here runs under the connection lock, but the
 * reader's: mrc_input_take_msg() and mrc_input_release() (lock_sock).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <net/netfilter/nf_conntrack.h>

#include "core/psn.h"
#include "sock.h"

/* Messages further ahead than this of the next one to deliver are bogus. */
#define MRC_MSG_ID_WINDOW	BIT(20)

static bool rx_coalesce = true;
module_param(rx_coalesce, bool, 0644);
MODULE_PARM_DESC(rx_coalesce,
		 "Keep a message's in-order segments in one skb, charged what their pages take");

static bool rx_msg_spare = true;
module_param(rx_msg_spare, bool, 0644);
MODULE_PARM_DESC(rx_msg_spare,
		 "Keep the last message descriptor a reader freed for the next message (one per socket)");

unsigned int mrc_ack_pingpong_us = MRC_ACK_PINGPONG_US;
MRC_PARAM_UINT_RANGE(ack_pingpong_us, mrc_ack_pingpong_us, 0, MRC_ACK_PINGPONG_MAX_US);
MODULE_PARM_DESC(ack_pingpong_us,
		 "With ACKs on DATA: how long the ACK of a message waits for the answer, us (0-"
		 __stringify(MRC_RTO_MIN_US) " / 2; 0: at once)");

static unsigned int ack_every = MRC_ACK_EVERY;
MRC_PARAM_UINT_RANGE(ack_every, ack_every, 1, MRC_ACK_EVERY_MAX);
MODULE_PARM_DESC(ack_every,
		 "ACK at least every N data segments, 1-" __stringify(MRC_ACK_EVERY_MAX)
		 " (sooner for CE, duplicates, ACK_NOW, and within "
		 __stringify(MRC_ACK_DELAY_US) " us)");

static bool lazy_end_ack = true;
module_param(lazy_end_ack, bool, 0644);
MODULE_PARM_DESC(lazy_end_ack,
		 "With ACKs on DATA: a message's end is acknowledged like any segment (ack_every, the delayed ACK), not at once");

/**
 * mrc_input_init() - nothing received yet
 * @ms: the connection
 */
void mrc_input_init(struct mrc_sock *ms)
{
	ms->rx_msgs = RB_ROOT;
	ms->rx_last = NULL;
	ms->rcv_msg_id = 0;
	ms->rx_eof = false;
	ms->peer_closed = false;
}

/**
 * mrc_input_sock_init() - the reader's side of a new socket
 * @ms: the socket
 */
void mrc_input_sock_init(struct mrc_sock *ms)
{
	INIT_LIST_HEAD(&ms->rx_ready);
	spin_lock_init(&ms->rx_ready_lock);
	atomic_set(&ms->rx_freed, 0);
	ms->rx_spare = NULL;
}

/**
 * mrc_input_truesize() - memory one PSN of credit may cost
 * @seg: the connection's segment size
 *
 * A generous truesize for a received segment (at least two pages, so
 * drivers with page-sized receive buffers do not need copies); a segment
 * whose skb is bigger is copied into a compact one before it is kept.
 *
 * Return: bytes.
 */
u32 mrc_input_truesize(u32 seg)
{
	u32 data = seg + MRC_XMIT_HEADROOM + MRC_DATA_HDR_LEN;
	/* What alloc_skb(seg), the compact copy, charges (__alloc_skb()). */
	u32 copy = SKB_DATA_ALIGN(sizeof(struct sk_buff)) +
		   kmalloc_size_roundup(SKB_DATA_ALIGN(seg) +
					SKB_DATA_ALIGN(sizeof(struct skb_shared_info)));

	return max_t(u32, copy,
		     SKB_TRUESIZE(max_t(u32, 2 * PAGE_SIZE, roundup_pow_of_two(data))));
}

/* Memory a message's bookkeeping takes: its kmalloc bucket, set at load. */
static u32 mrc_rx_msg_size __ro_after_init;

/**
 * mrc_input_setup() - what receive bookkeeping costs, once at module load
 *
 * kmalloc_size_roundup() is a lookup per call; the receive path prices
 * every ACK's credit with it, so the answer is kept.
 */
void __init mrc_input_setup(void)
{
	mrc_rx_msg_size = kmalloc_size_roundup(sizeof(struct mrc_rx_msg));
}

static u32 mrc_input_msg_cost(void)
{
	return mrc_rx_msg_size;
}

/*
 * A message descriptor: the socket's spare (rx_msg_spare) if it has one.
 * In a ping-pong every message is alone in flight, so the reader's free
 * and this allocation pair up: no slab round trip per message.  Takers
 * are serialised by the conn lock and the one putter by lock_sock; the
 * full barriers of xchg() and of a successful cmpxchg() order the
 * reader's last use of a descriptor before its reuse.  The caller sets
 * every field (the spare holds a freed message's values).
 */
static struct mrc_rx_msg *mrc_input_msg_alloc(struct mrc_sock *ms)
{
	struct mrc_rx_msg *m = NULL;

	lockdep_assert_held(&ms->lock);
	if (READ_ONCE(ms->rx_spare))
		m = xchg(&ms->rx_spare, NULL);
	return m ?: kmalloc(sizeof(*m), GFP_ATOMIC);
}

/* Keep @m as the spare if the slot is empty (and rx_msg_spare), else free it. */
static void mrc_input_msg_put(struct mrc_sock *ms, struct mrc_rx_msg *m)
{
	if (!READ_ONCE(rx_msg_spare) || cmpxchg(&ms->rx_spare, NULL, m))
		kfree(m);
}

/* What one PSN of credit costs at most: a segment and a message's struct. */
static u32 mrc_input_psn_cost(const struct mrc_sock *ms)
{
	return ms->rx_truesize + mrc_input_msg_cost();
}

/**
 * mrc_input_limit() - receive memory a connection may hold
 * @ms: the connection
 *
 * SO_RCVBUF, but at least one largest message (a message is only
 * delivered whole) plus 64 PSNs of reordering, at the price of
 * mrc_input_psn_cost() per segment.  Every term is ours: max_msg is what
 * we announced, seg_size is at least the min_seg_size parameter.
 *
 * Return: the limit in bytes (at most INT_MAX / 2: sk_rmem_alloc is an
 * int and twice the limit must not overflow).
 */
u32 mrc_input_limit(const struct mrc_sock *ms)
{
	u64 segs = ms->max_msg / max(ms->seg_size, 1U) + 1 + 64;
	u64 limit = max_t(u64, READ_ONCE(ms->sk.sk_rcvbuf),
			  segs * mrc_input_psn_cost(ms));

	return min_t(u64, limit, INT_MAX / 2);
}

/*
 * Our credit: the peer may send PSNs below this.  The PSNs between cum
 * and high that arrived are already charged; each one that may still
 * arrive is priced at mrc_input_psn_cost(), so everything sent within the
 * credit fits in the limit, and in what the device can back besides the
 * other connections' commitments: a slow reader (or a full device)
 * stalls the sender instead of making us drop.
 */
static u32 mrc_input_rwnd(const struct mrc_sock *ms)
{
	u32 used = atomic_read(&ms->sk.sk_rmem_alloc);
	u32 limit = mrc_input_limit(ms);
	u32 cost = mrc_input_psn_cost(ms);
	u32 pkts = used < limit ? (limit - used) / cost : 0;

	if (ms->mdev && ms->state == MRC_ST_ESTABLISHED) {
		long max = (long)READ_ONCE(mrc_dev_rmem_max);
		long others = atomic_long_read(&ms->mdev->rmem) - ms->rx_commit;
		long room = max - others - used;
		/* Idle connections' unreserved credit: a hard bound too. */
		long full = atomic_long_read(&ms->mdev->rmem_full) - ms->rx_commit_full;
		long froom = MRC_DEV_RMEM_OVERCOMMIT * max - full - used;

		room = min(room, froom);
		pkts = min_t(u32, pkts, room > 0 ? room / cost : 0);
	}
	pkts = min_t(u32, pkts + ms->rxw.count, MRC_WIN_PKTS);
	return ms->rxw.cum + pkts;
}

/**
 * mrc_input_commit() - publish what the connection holds and promised
 * @ms: the connection (conn lock), ESTABLISHED on its device
 *
 * Committed: the receive memory it holds plus, for every PSN of credit
 * that may still arrive, its price; PSNs beyond the peer's CLOSE never
 * arrive and cost nothing.  An idle connection (nothing held, no PSN
 * missing) commits the price of at most MRC_INITIAL_CREDIT PSNs: credit
 * granted once (after a large message, say) does not keep the device
 * from others while the connection is quiet.  Receiving within the
 * credit raises it only when it wakes an idle connection (a segment
 * costs at most its price); granting credit and holding messages do,
 * reading them lowers it.  Grants are checked against the device's sum,
 * so busy connections stay under dev_rmem_max but for grants racing on
 * other CPUs and idle connections waking up.  A closed socket
 * (SOCK_DEAD, an orphan waiting for the peer's CLOSE) commits only what
 * it holds: data that arrives for it resets the connection, so its
 * credit can never become a message.
 */
void mrc_input_commit(struct mrc_sock *ms)
{
	u32 promised = ms->rwnd_adv - ms->rxw.cum - ms->rxw.count;
	u32 used = atomic_read(&ms->sk.sk_rmem_alloc);
	u64 commit;

	lockdep_assert_held(&ms->lock);
	if (!ms->mdev || ms->state != MRC_ST_ESTABLISHED)
		return;
	if (ms->peer_closed)
		promised = min_t(u32, promised,
				 max_t(s32, mrc_psn_diff(ms->peer_close_psn, ms->rxw.cum), 0));
	promised = min_t(u32, promised, MRC_WIN_PKTS);
	if (sock_flag(&ms->sk, SOCK_DEAD))
		promised = 0;
	commit = used + (u64)promised * mrc_input_psn_cost(ms);
	if (commit != ms->rx_commit_full)
		atomic_long_add((long)commit - (long)ms->rx_commit_full,
				&ms->mdev->rmem_full);
	ms->rx_commit_full = commit;
	ms->rx_idle = !used && ms->rxw.high == ms->rxw.cum;
	if (ms->rx_idle)
		commit = used + (u64)min_t(u32, promised, MRC_INITIAL_CREDIT) *
				mrc_input_psn_cost(ms);
	if (commit != ms->rx_commit)
		atomic_long_add((long)commit - (long)ms->rx_commit, &ms->mdev->rmem);
	ms->rx_commit = commit;
}

/**
 * mrc_input_initial_credit() - the credit of our REQ or ACCEPT, in packets
 * @ms: the connection (its segment size and max_msg set)
 * @mdev: the device it runs on (a half-open child has not joined it yet)
 *
 * At most MRC_INITIAL_CREDIT PSNs, what the connection's limit holds, and
 * what the device can still back: the credit of a handshake is not
 * committed until the connection is established, so it stays small.  At
 * least one PSN.  Fixed the first time it is asked for, so a
 * retransmitted REQ and the credit we then enforce (@rwnd_adv) agree.
 *
 * Return: packets the peer may send from its isn before our first ACK.
 */
u32 mrc_input_initial_credit(struct mrc_sock *ms, const struct mrc_dev *mdev)
{
	u32 cost = mrc_input_psn_cost(ms), pkts;
	long room;

	if (ms->rwnd_init)
		return ms->rwnd_init;
	pkts = min_t(u32, mrc_input_limit(ms) / cost, MRC_INITIAL_CREDIT);
	room = (long)READ_ONCE(mrc_dev_rmem_max) - atomic_long_read(&mdev->rmem);
	pkts = min_t(u32, pkts, room > 0 ? room / cost : 0);
	ms->rwnd_init = max(pkts, 1U);
	return ms->rwnd_init;
}

/* Advertise @rwnd: from now on the peer may send below it. */
static void mrc_input_advertise(struct mrc_sock *ms, u32 rwnd)
{
	if (mrc_psn_after(rwnd, ms->rwnd_adv))
		ms->rwnd_adv = rwnd;
}

/*
 * Write the ACK (a NACK's with @reason) of what arrived at @buf: its
 * trigger, our SACK, CE count and credit.
 */
static void mrc_input_put_ack(struct mrc_sock *ms, u8 reason, void *buf)
{
	struct mrc_ack_info a;

	mrc_rxwin_sack(&ms->rxw, &a.cum, &a.base, a.bits);
	a.trig_psn = ms->ack_trig.psn;
	a.trig_ev = ms->ack_trig.ev;
	a.trig_tx = ms->ack_trig.tx;
	a.nack_reason = reason;
	a.ce_count = ms->ce_count;
	/* Never less than we promised already: the credit does not shrink. */
	mrc_input_advertise(ms, mrc_input_rwnd(ms));
	mrc_input_commit(ms);
	a.rwnd_psn = ms->rwnd_adv;
	a.ack_delay_us = mrc_now_us() - ms->ack_trig_at;	/* u32 time wraps */
	a.host_delay_us = ms->caps & MRC_F_REQ_HOST_DELAY ? ms->ack_trig_host : 0;
	mrc_wire_put_ack(buf, &a);
}

/**
 * mrc_input_piggyback() - carry our pending ACK on a DATA packet
 * @ms: the connection (conn lock), MRC_F_REQ_ACK_DATA in its @caps and an
 *	ACK pending
 * @buf: the packet's ACK part (sizeof(struct mrc_wire_ack) bytes after
 *	its DATA part)
 *
 * The ACK the delayed-ACK timer would have sent goes with the packet
 * instead, and is no longer pending.
 *
 * Return: the flags the DATA header gets for it.
 */
u16 mrc_input_piggyback(struct mrc_sock *ms, void *buf)
{
	lockdep_assert_held(&ms->lock);
	mrc_conn_stop_ack(ms, true);
	mrc_input_put_ack(ms, MRC_NACK_NONE, buf);
	ms->ack_pending = 0;
	ms->stats.acks_piggy_tx++;
	return MRC_F_DATA_ACK | (ms->ack_trig.ce ? MRC_F_DATA_ACK_CE : 0);
}

/* An ACK, or a NACK of @ms->ack_trig with @reason (enum mrc_nack_reason). */
static void mrc_input_send(struct mrc_sock *ms, u8 type, u8 reason,
			   struct sk_buff_head *xq)
{
	struct sk_buff *skb;
	u8 plane = ms->ack_trig_plane;
	int path = -1;
	u16 ev;

	lockdep_assert_held(&ms->lock);
	skb = mrc_xmit_alloc(ms, MRC_ACK_LEN);
	if (!skb) {
		/* Try again soon (an ACK: it also carries what a NACK says). */
		ms->ack_pending = max(ms->ack_pending, 1U);
		mrc_conn_arm_ack(ms, false);
		return;
	}
	mrc_conn_stop_ack(ms, true);
	mrc_wire_put_hdr(skb_put(skb, MRC_HDR_LEN), type,
			 ms->ack_trig.ce ? MRC_F_ACK_CE : 0, ms->peer_id, ms->id);
	mrc_input_put_ack(ms, reason, skb_put(skb, sizeof(struct mrc_wire_ack)));

	/* Back on the plane the trigger came in on (if proven), with its EV. */
	ev = ms->ack_trig.ev;
	if (!mrc_lrail(ms, plane)->family || !mrc_prail(ms, plane)->family ||
	    !mrc_plane_proven(ms, plane)) {
		path = mrc_path_pick_any(ms);
		if (path < 0) {
			/*
			 * No path at all: nothing to retry (the delayed-ACK
			 * timer restarts only for a failed allocation); the
			 * peer's probe or RTO asks again.
			 */
			ms->ack_pending = 0;
			kfree_skb_reason(skb, SKB_DROP_REASON_IP_OUTNOROUTES);
			return;
		}
		plane = ms->evs[path].plane;
		ev = ms->evs[path].ev;
	}
	mrc_xmit_prepare(ms, skb, plane, ev);
	__skb_queue_tail(xq, skb);
	ms->ack_pending = 0;
	ms->stats.acks_tx++;
}

/**
 * mrc_input_send_ack() - acknowledge what arrived
 * @ms: the connection (conn lock)
 * @xq: where the ACK is queued
 */
void mrc_input_send_ack(struct mrc_sock *ms, struct sk_buff_head *xq)
{
	lockdep_assert_held(&ms->lock);
	mrc_input_send(ms, MRC_PKT_ACK, MRC_NACK_NONE, xq);
}

/*
 * A switch trimmed it: a DATA segment shorter than its message's layout
 * allows (every segment but a message's last carries the segment size).
 * Misaligned or impossible ones are left to mrc_input_data() (bad-data).
 */
static bool mrc_input_trimmed(const struct mrc_sock *ms,
			      const struct mrc_pkt *pkt)
{
	const struct mrc_wire_data *d = &pkt->u.data;
	u32 msg_len = be32_to_cpu(d->msg_len);
	u32 off = be32_to_cpu(d->offset);

	if (pkt->type != MRC_PKT_DATA || off >= msg_len || off % ms->seg_size ||
	    msg_len > ms->max_msg)
		return false;
	return pkt->payload_len < min(ms->seg_size, msg_len - off);
}

/*
 * Remember @pkt, arrived at @now after waiting @host_us in this host, as
 * the trigger of the next ACK (or NACK).
 */
static void mrc_input_trigger(struct mrc_sock *ms, u8 plane,
			      const struct mrc_pkt *pkt, bool ce, u32 now,
			      u32 host_us)
{
	const struct mrc_wire_data *d = &pkt->u.data;

	ms->ack_trig.psn = be32_to_cpu(d->psn);
	ms->ack_trig.ev = be16_to_cpu(d->ev);
	ms->ack_trig.tx = d->tx_count;
	ms->ack_trig.ce = ce;
	ms->ack_trig_at = now;
	ms->ack_trig_host = host_us;
	ms->ack_trig_plane = plane;
}

/*
 * Receive memory: per connection (a hard limit) and the protocol's (its
 * pressure and hard limits, like any protocol's).  The device's share was
 * committed with the credit (mrc_input_commit()).  Only the connection
 * lock protects sk_forward_alloc: every charge and every uncharge of
 * receive memory happens under it.
 */
static bool mrc_input_may_charge(struct mrc_sock *ms, struct sk_buff *skb,
				 u32 size)
{
	struct sock *sk = &ms->sk;

	return atomic_read(&sk->sk_rmem_alloc) + size <= mrc_input_limit(ms) &&
	       sk_rmem_schedule(sk, skb, size);
}

/* Charge @size that mrc_input_may_charge() allowed (or more of it). */
static void mrc_input_charged(struct mrc_sock *ms, u32 size)
{
	atomic_add(size, &ms->sk.sk_rmem_alloc);
	sk_mem_charge(&ms->sk, size);
	if (ms->rx_idle)
		mrc_input_commit(ms);	/* busy again: reserve the credit */
}

static bool mrc_input_charge(struct mrc_sock *ms, struct sk_buff *skb, u32 size)
{
	if (!mrc_input_may_charge(ms, skb, size))
		return false;
	mrc_input_charged(ms, size);
	return true;
}

static void mrc_input_uncharge(struct mrc_sock *ms, u32 size)
{
	struct sock *sk = &ms->sk;

	atomic_sub(size, &sk->sk_rmem_alloc);
	sk_mem_uncharge(sk, size);
}

/**
 * mrc_input_leave_dev() - the connection leaves its device
 * @ms: the connection (conn lock), @mdev still set
 *
 * Its commitment (mrc_input_commit()) stops counting against the device;
 * the socket and the protocol keep what it holds charged.
 */
void mrc_input_leave_dev(struct mrc_sock *ms)
{
	lockdep_assert_held(&ms->lock);
	atomic_long_sub(ms->rx_commit, &ms->mdev->rmem);
	atomic_long_sub(ms->rx_commit_full, &ms->mdev->rmem_full);
	ms->rx_commit = 0;
	ms->rx_commit_full = 0;
}

/* Message @id, or NULL.  Ids in the tree are within 2^20 of rcv_msg_id. */
static struct mrc_rx_msg *mrc_input_find(struct mrc_sock *ms, u32 id)
{
	struct rb_node *n = ms->rx_msgs.rb_node;

	if (ms->rx_last && ms->rx_last->id == id)
		return ms->rx_last;
	while (n) {
		struct mrc_rx_msg *m = rb_entry(n, struct mrc_rx_msg, node);
		s32 d = id - m->id;

		if (!d)
			return m;
		n = d < 0 ? n->rb_left : n->rb_right;
	}
	return NULL;
}

/* Insert the new message @m (no message with its id exists). */
static void mrc_input_insert(struct mrc_sock *ms, struct mrc_rx_msg *m)
{
	struct rb_node **p = &ms->rx_msgs.rb_node, *parent = NULL;

	while (*p) {
		struct mrc_rx_msg *o = rb_entry(*p, struct mrc_rx_msg, node);

		parent = *p;
		p = (s32)(m->id - o->id) < 0 ? &parent->rb_left : &parent->rb_right;
	}
	rb_link_node(&m->node, parent, p);
	rb_insert_color(&m->node, &ms->rx_msgs);
}

/* One past the last byte of @skb in its message. */
static u32 mrc_input_seg_end(const struct sk_buff *skb)
{
	return MRC_SKB_CB(skb)->offset + MRC_SKB_CB(skb)->len;
}

/*
 * Place a checked segment of @m; false if the segment is already there.
 * An skb holds one segment or a run of them (mrc_input_coalesce()), all
 * on the grid: a new segment overlaps one only by lying inside it.
 */
static bool mrc_input_place(struct mrc_rx_msg *m, struct sk_buff *skb)
{
	struct rb_node **p = &m->segs.rb_node, *parent = NULL;
	u32 off = MRC_SKB_CB(skb)->offset;

	if (!m->last || mrc_input_seg_end(m->last) <= off) {
		/* Beyond every segment so far: the right child of the last. */
		if (m->last) {
			parent = &m->last->rbnode;
			p = &parent->rb_right;
		}
		m->last = skb;
	} else {
		while (*p) {
			struct sk_buff *o = rb_to_skb(*p);

			parent = *p;
			if (off < MRC_SKB_CB(o)->offset)
				p = &parent->rb_left;
			else if (off >= mrc_input_seg_end(o))
				p = &parent->rb_right;
			else
				return false;
		}
	}
	rb_link_node(&skb->rbnode, parent, p);
	rb_insert_color(&skb->rbnode, &m->segs);
	m->got += MRC_SKB_CB(skb)->len;
	return true;
}

/*
 * Is (@off, @len) exactly a segment of a @msg_len-byte message cut into
 * @seg-byte segments?
 */
static bool mrc_input_on_grid(u32 seg, u32 msg_len, u32 off, u32 len)
{
	return off < msg_len && !(off % seg) && len == min(seg, msg_len - off);
}

/*
 * Fragment slots that referencing @len bytes of @from at @off (all in its
 * page fragments) would add to @to; -1 if any of them are in @from's
 * linear part.  The first may extend @to's last fragment.
 */
static int mrc_input_frags_need(struct sk_buff *to, const struct sk_buff *from,
				u32 off, u32 len)
{
	const struct skb_shared_info *si = skb_shinfo(from);
	u32 pos = skb_headlen(from);
	int i, need = 0, nr = skb_shinfo(to)->nr_frags;

	if (off < pos)
		return -1;
	for (i = 0; i < si->nr_frags && len; i++) {
		const skb_frag_t *f = &si->frags[i];
		u32 fl = skb_frag_size(f), n;

		if (off >= pos + fl) {
			pos += fl;
			continue;
		}
		n = min(pos + fl - off, len);
		if (need || !nr ||
		    !skb_can_coalesce(to, nr, skb_frag_page(f),
				      skb_frag_off(f) + off - pos))
			need++;
		off += n;
		len -= n;
		pos += fl;
	}
	return len ? -1 : need;
}

/*
 * Reference @len bytes of @from at @off (mrc_input_frags_need() said they
 * fit) from @to's page fragments: a page reference each, no copy (a
 * piece that extends @to's last fragment within its page needs none).
 * The caller adds their truesize (mrc_input_burst_truesize()).
 */
static void mrc_input_frags_add(struct sk_buff *to, const struct sk_buff *from,
				u32 off, u32 len)
{
	const struct skb_shared_info *si = skb_shinfo(from);
	u32 pos = skb_headlen(from);
	int i;

	for (i = 0; i < si->nr_frags && len; i++) {
		const skb_frag_t *f = &si->frags[i];
		u32 fl = skb_frag_size(f), n;

		if (off >= pos + fl) {
			pos += fl;
			continue;
		}
		n = min(pos + fl - off, len);
		mrc_skb_add_page(to, skb_frag_page(f), skb_frag_off(f) + off - pos, n);
		off += n;
		len -= n;
		pos += fl;
	}
}

/*
 * What @len bytes of @burst cost: their share of its truesize (the pages
 * they keep alive were charged with it), at least the bytes.
 */
static u32 mrc_input_burst_truesize(const struct sk_buff *burst, u32 len)
{
	return max_t(u64, len, div_u64((u64)burst->truesize * len, burst->len));
}

/*
 * The skb of a burst's segment placed on its own: its bytes in the
 * burst's linear part copied, the rest referenced; or all of them copied
 * into a compact skb when referencing would cost more than the credit
 * priced a segment (mrc_input_truesize()) or more fragments than an skb
 * has, as mrc_input_keep() copies a packet.  NULL without memory.
 */
static struct sk_buff *mrc_input_burst_skb(const struct mrc_sock *ms,
					   const struct sk_buff *burst, u32 off,
					   u32 len)
{
	u32 hl = skb_headlen(burst);
	u32 lin = off < hl ? min(hl - off, len) : 0;
	struct sk_buff *c;
	u32 ts;
	int need;

	c = alloc_skb(lin, GFP_ATOMIC);
	if (!c)
		return NULL;
	if (lin)
		skb_put_data(c, burst->data + off, lin);
	if (len == lin)
		return c;
	need = mrc_input_frags_need(c, burst, off + lin, len - lin);
	ts = mrc_input_burst_truesize(burst, len - lin);
	if (need >= 0 && need <= MAX_SKB_FRAGS && c->truesize + ts <= ms->rx_truesize) {
		mrc_input_frags_add(c, burst, off + lin, len - lin);
		c->truesize += ts;
		return c;
	}
	consume_skb(c);		/* ours: a copy replaces it */
	c = alloc_skb(len, GFP_ATOMIC);
	if (c && skb_copy_bits(burst, off, skb_put(c, len), len)) {
		kfree_skb(c);	/* within burst->len: cannot happen */
		c = NULL;
	}
	return c;
}

/*
 * The skb of a segment we keep: no headers, no route, no conntrack entry,
 * no owner, and not bigger than the credit priced it (else a compact
 * copy).  NULL when out of memory (@skb is freed then).
 */
static struct sk_buff *mrc_input_keep(struct mrc_sock *ms, struct sk_buff *skb,
				      const struct mrc_pkt *pkt, u32 len)
{
	struct sk_buff *c = NULL;

	__skb_pull(skb, pkt->hdr_len);
	if (skb->len != len && pskb_trim(skb, len))
		goto free;
	skb_orphan(skb);
	skb_dst_drop(skb);
	nf_reset_ct(skb);
	if (skb->truesize <= ms->rx_truesize)
		return skb;
	c = alloc_skb(len, GFP_ATOMIC);
	/* Priced by mrc_input_truesize(); never more than the credit paid. */
	if (c && (c->truesize > ms->rx_truesize ||
		  skb_copy_bits(skb, 0, skb_put(c, len), len))) {
		consume_skb(c);	/* ours: the drop is @skb's */
		c = NULL;
	}
	if (c) {
		consume_skb(skb);	/* copied: not a drop */
		return c;
	}
free:
	kfree_skb_reason(skb, SKB_DROP_REASON_NOMEM);	/* counted: no-buffer */
	return NULL;
}

enum mrc_coalesce {
	MRC_COALESCE_NO,	/* place it on its own */
	MRC_COALESCE_DONE,	/* merged (and freed) */
	MRC_COALESCE_NOBUFS,	/* not even its whole truesize would fit */
};

/*
 * Receive coalescing, as tcp_try_coalesce(): a segment that continues the
 * last run of its message moves its page fragments onto that skb, which
 * is then charged only what the fragments add.  skb_try_coalesce() adds
 * to no skb whose data is shared, and on veth a segment sent alone may
 * arrive as a clone of the sender's queued skb (an fclone's twin): a
 * segment that may start a run gets its own head first
 * (mrc_input_unshare()).  Only appends coalesce: a segment that fills a
 * hole stays an skb of its own.
 */
static enum mrc_coalesce mrc_input_coalesce(struct mrc_sock *ms,
					    struct mrc_rx_msg *m,
					    struct sk_buff *skb)
{
	struct sk_buff *to = m->last;
	bool stolen;
	int delta;

	if (!READ_ONCE(rx_coalesce) || !to ||
	    mrc_input_seg_end(to) != MRC_SKB_CB(skb)->offset)
		return MRC_COALESCE_NO;
	/* What placing it alone would cost must fit, as for any segment. */
	if (!mrc_input_may_charge(ms, skb, skb->truesize))
		return MRC_COALESCE_NOBUFS;
	if (!skb_try_coalesce(to, skb, &stolen, &delta))
		return MRC_COALESCE_NO;
	/*
	 * Charged unconditionally, as tcp_try_coalesce() does: @to is
	 * changed already, and delta is at most what was just checked.
	 */
	mrc_input_charged(ms, delta);
	MRC_SKB_CB(to)->len += MRC_SKB_CB(skb)->len;
	m->got += MRC_SKB_CB(skb)->len;
	m->charged += delta;
	kfree_skb_partial(skb, stolen);
	return MRC_COALESCE_DONE;
}

/*
 * Receive coalescing of a burst's segment (@seg): its bytes are
 * referenced from the last run of its message when they continue it and
 * the run's skb is ours alone with fragment slots to spare (each segment
 * takes one: the next segment's headers lie between two payloads, so a
 * run holds at most MAX_SKB_FRAGS of them).  The run is charged the
 * segment's share of the burst's truesize; what the segment would cost
 * alone must fit.
 */
static enum mrc_coalesce mrc_input_coalesce_burst(struct mrc_sock *ms,
						  struct mrc_rx_msg *m,
						  const struct mrc_rx_seg *seg,
						  u32 off, u32 len)
{
	struct sk_buff *to = m->last;
	u32 ts;
	int need;

	/* as skb_try_coalesce(): frags go after a frag_list's bytes */
	if (!READ_ONCE(rx_coalesce) || !to || mrc_input_seg_end(to) != off ||
	    skb_cloned(to) || to->pp_recycle || skb_zcopy(to) ||
	    skb_has_frag_list(to))
		return MRC_COALESCE_NO;
	need = mrc_input_frags_need(to, seg->burst, seg->off, len);
	if (need < 0 || skb_shinfo(to)->nr_frags + need > MAX_SKB_FRAGS)
		return MRC_COALESCE_NO;
	ts = mrc_input_burst_truesize(seg->burst, len);
	/* never more than the credit priced a segment: alone, it is copied */
	if (SKB_TRUESIZE(0) + ts > ms->rx_truesize)
		return MRC_COALESCE_NO;
	if (!mrc_input_may_charge(ms, (struct sk_buff *)seg->burst,
				  SKB_TRUESIZE(0) + ts))
		return MRC_COALESCE_NOBUFS;
	mrc_input_frags_add(to, seg->burst, seg->off, len);
	to->truesize += ts;
	mrc_input_charged(ms, ts);
	MRC_SKB_CB(to)->len += len;
	m->got += len;
	m->charged += ts;
	return MRC_COALESCE_DONE;
}

/*
 * A segment that becomes its message's last run and has bytes after it
 * gets a head of its own, so that the next segments can be added to it
 * (its truesize is read after): on veth one allocation per run, none for
 * a single-segment message.  Without memory it simply stays shared.
 */
static void mrc_input_unshare(const struct mrc_rx_msg *m, struct sk_buff *skb)
{
	const struct mrc_skb_cb *cb = MRC_SKB_CB(skb);

	if (READ_ONCE(rx_coalesce) && skb_cloned(skb) &&
	    cb->offset + cb->len < cb->msg_len &&
	    (!m->last || mrc_input_seg_end(m->last) <= cb->offset))
		skb_unclone(skb, GFP_ATOMIC);
}

/*
 * The message at rcv_msg_id is complete: it, and the complete ones after
 * it, go to the reader's queue, still charged, and the reader is woken.
 */
static void mrc_input_deliver(struct mrc_sock *ms)
{
	struct rb_node *n = rb_first(&ms->rx_msgs);

	while (n) {
		struct mrc_rx_msg *m = rb_entry(n, struct mrc_rx_msg, node);

		if (m->id != ms->rcv_msg_id || m->got != m->len)
			break;
		n = rb_next(n);
		rb_erase(&m->node, &ms->rx_msgs);
		if (ms->rx_last == m)
			ms->rx_last = NULL;
		ms->rcv_msg_id++;
		ms->stats.rx_msgs++;
		ms->stats.rx_bytes += m->len;
		/*
		 * One message at a time: a hole that fills may complete
		 * hundreds, and the reader waits for this lock.
		 * list_add_tail() publishes with WRITE_ONCE(): the reader
		 * peeks without it (mrc_input_readable()) and may take and
		 * free @m as soon as the lock drops, so nothing reads @m
		 * after this.
		 */
		spin_lock(&ms->rx_ready_lock);
		list_add_tail(&m->ready, &ms->rx_ready);
		spin_unlock(&ms->rx_ready_lock);
	}
	ms->sk.sk_data_ready(&ms->sk);
}

/*
 * A new DATA segment.  On MRC_DROP_NONE it was kept; otherwise @seg->skb
 * is what the caller frees (NULL: nothing).
 */
static enum mrc_drop_reason mrc_input_data(struct mrc_sock *ms,
					   struct mrc_rx_seg *seg,
					   const struct mrc_pkt *pkt)
{
	const struct mrc_wire_data *d = &pkt->u.data;
	u32 msg_id = be32_to_cpu(d->msg_id);
	u32 msg_len = be32_to_cpu(d->msg_len);
	u32 off = be32_to_cpu(d->offset);
	u32 len = pkt->payload_len;
	struct mrc_rx_msg *m, *new = NULL;
	struct sk_buff *skb;
	u32 cost;

	if (msg_len > ms->max_msg)
		return MRC_DROP_MSG_TOO_BIG;
	if (!mrc_input_on_grid(ms->seg_size, msg_len, off, len) ||
	    msg_id - ms->rcv_msg_id >= MRC_MSG_ID_WINDOW ||
	    (ms->peer_closed && msg_id - ms->rcv_msg_id >= ms->peer_msgs - ms->rcv_msg_id))
		return MRC_DROP_BAD_DATA;
	m = mrc_input_find(ms, msg_id);
	if (m && m->len != msg_len)
		return MRC_DROP_BAD_DATA;
	if (!m) {
		new = mrc_input_msg_alloc(ms);
		if (!new)
			return MRC_DROP_NO_BUFFER;
		new->id = msg_id;
		new->len = msg_len;
		new->got = 0;
		new->charged = mrc_input_msg_cost();
		new->segs = RB_ROOT;
		new->last = NULL;
		m = new;
	}

	if (seg->burst) {
		if (!new) {
			switch (mrc_input_coalesce_burst(ms, m, seg, off, len)) {
			case MRC_COALESCE_NOBUFS:
				return MRC_DROP_NO_BUFFER;
			case MRC_COALESCE_DONE:
				goto placed;
			case MRC_COALESCE_NO:
				break;
			}
		}
		skb = mrc_input_burst_skb(ms, seg->burst, seg->off, len);
	} else {
		skb = mrc_input_keep(ms, seg->skb, pkt, len);
	}
	seg->skb = skb;
	if (!skb) {
		kfree(new);
		return MRC_DROP_NO_BUFFER;
	}
	MRC_SKB_CB(skb)->offset = off;
	MRC_SKB_CB(skb)->len = len;
	MRC_SKB_CB(skb)->msg_id = msg_id;
	MRC_SKB_CB(skb)->msg_len = msg_len;
	if (!new && !seg->burst) {
		switch (mrc_input_coalesce(ms, m, skb)) {
		case MRC_COALESCE_NOBUFS:
			return MRC_DROP_NO_BUFFER;
		case MRC_COALESCE_DONE:
			seg->skb = NULL;
			goto placed;
		case MRC_COALESCE_NO:
			break;
		}
	}
	mrc_input_unshare(m, skb);
	/* Never more than what the credit priced (mrc_input_keep()). */
	cost = skb->truesize + (new ? new->charged : 0);
	if (skb->truesize > ms->rx_truesize || !mrc_input_charge(ms, skb, cost)) {
		kfree(new);
		return MRC_DROP_NO_BUFFER;
	}
	if (!mrc_input_place(m, skb)) {
		/* A PSN the window saw as new, at a place taken: bogus. */
		mrc_input_uncharge(ms, cost);
		kfree(new);
		return MRC_DROP_BAD_DATA;
	}
	m->charged += skb->truesize;
	if (new)
		mrc_input_insert(ms, new);
placed:
	ms->rx_last = m;
	if (m->got == m->len && msg_id == ms->rcv_msg_id)
		mrc_input_deliver(ms);
	return MRC_DROP_NONE;
}

/*
 * The peer's CLOSE (PSN @psn) arrived, maybe ahead of its last data.  It
 * counts the messages the peer sent: not fewer than we have seen.
 */
static bool mrc_input_close(struct mrc_sock *ms, const struct mrc_pkt *pkt,
			    u32 psn)
{
	u32 msgs = be32_to_cpu(pkt->u.data.msg_id);
	struct rb_node *last = rb_last(&ms->rx_msgs);

	if (msgs - ms->rcv_msg_id >= MRC_MSG_ID_WINDOW ||
	    (last && msgs - rb_entry(last, struct mrc_rx_msg, node)->id - 1 >=
	     MRC_MSG_ID_WINDOW))
		return false;
	ms->peer_closed = true;
	ms->peer_msgs = msgs;
	ms->peer_close_psn = psn;
	return true;
}

/**
 * mrc_input_seg() - a DATA or CLOSE packet for an established connection
 * @ms: the connection (conn lock)
 * @rail: the rail it came in on
 * @plane: that rail's plane
 * @seg: the packet or the burst's segment
 * @pkt: its parsed headers
 * @ce: the IP header carried CE
 * @dropped: set to the reason when the packet was counted as a drop
 * @xq: where ACKs and NACKs are queued
 *
 * Return: true if @seg's skb was kept (or freed here).
 */
bool mrc_input_seg(struct mrc_sock *ms, struct mrc_rail *rail, u8 plane,
		   struct mrc_rx_seg *seg, const struct mrc_pkt *pkt,
		   bool ce, enum mrc_drop_reason *dropped,
		   struct sk_buff_head *xq)
{
	lockdep_assert_held(&ms->lock);
	const struct mrc_wire_data *d = &pkt->u.data;
	u32 psn = be32_to_cpu(d->psn);
	enum mrc_drop_reason reason;
	bool now = pkt->flags & MRC_F_DATA_ACK_NOW;
	bool was_done = mrc_peer_done(ms);
	bool kept = false, answer = false;
	enum mrc_rx_verdict v;
	u32 every;

	/*
	 * A peer that reads ACKs on DATA leaves a message's end to us: as
	 * any segment with lazy_end_ack (ack_every, the delayed ACK; at
	 * once without it), unless our application answers what it reads
	 * (then the answer carries it, or the delayed ACK after
	 * ack_pingpong_us).
	 */
	if (ms->caps & MRC_F_REQ_ACK_DATA && pkt->type == MRC_PKT_DATA &&
	    be32_to_cpu(d->offset) + pkt->payload_len == be32_to_cpu(d->msg_len)) {
		answer = ms->pingpong;
		now |= !answer && !READ_ONCE(lazy_end_ack);
	}

	v = mrc_rxwin_check(&ms->rxw, psn);
	if (v == MRC_RX_NEW && !mrc_psn_before(psn, ms->rwnd_adv))
		v = MRC_RX_AHEAD;	/* beyond the credit we gave */
	switch (v) {
	case MRC_RX_AHEAD:
		mrc_input_drop(ms, rail, seg, dropped, MRC_DROP_OUT_OF_WINDOW);
		return false;
	case MRC_RX_DUP:
		ms->stats.rx_dups++;
		mrc_input_drop(ms, rail, seg, dropped, MRC_DROP_DUPLICATE);
		now = true;	/* our ACK may have been lost */
		break;
	case MRC_RX_NEW:
		if (pkt->type == MRC_PKT_DATA && sock_flag(&ms->sk, SOCK_DEAD)) {
			/*
			 * New data for a socket nobody will ever read again
			 * (as TCP: duplicates are only acknowledged).
			 */
			mrc_input_drop(ms, rail, seg, dropped, MRC_DROP_STATE);
			mrc_conn_abort(ms, 0, true, xq);
			return false;
		}
		if (mrc_input_trimmed(ms, pkt)) {
			/*
			 * Congestion on its path: NACK it at once, so that
			 * the sender resends it now and avoids that path.
			 * One small packet per packet received.
			 */
			mrc_input_drop(ms, rail, seg, dropped, MRC_DROP_TRIMMED);
			mrc_input_trigger(ms, plane, pkt, ce, seg->now, seg->host_us);
			mrc_input_send(ms, MRC_PKT_NACK, MRC_NACK_TRIMMED, xq);
			return false;
		}
		if (pkt->type == MRC_PKT_CLOSE) {
			if (!mrc_input_close(ms, pkt, psn)) {
				mrc_input_drop(ms, rail, seg, dropped, MRC_DROP_BAD_DATA);
				return false;
			}
			now = true;
		} else {
			reason = mrc_input_data(ms, seg, pkt);
			if (reason) {
				if (seg->skb)
					mrc_kfree_skb(seg->skb, reason);
				mrc_input_drop(ms, rail, seg, dropped, reason);
				return true;	/* consumed here */
			}
			kept = true;
		}
		/*
		 * An arrival within the credit only lowers the commitment:
		 * left as it is (an overestimate) until the next ACK.
		 */
		mrc_rxwin_mark(&ms->rxw, psn);
		ms->stats.rx_pkts++;
		if (ce) {
			ms->ce_count++;
			ms->stats.ce_rx++;
			now = true;
		}
		break;
	}
	ms->ack_pending++;
	mrc_input_trigger(ms, plane, pkt, ce, seg->now, seg->host_us);
	every = READ_ONCE(ack_every);
	/* Also at once when the credit ends within the next ack_every PSNs. */
	if (now || ms->ack_pending >= every ||
	    !mrc_psn_before(psn + every, ms->rwnd_adv))
		mrc_input_send_ack(ms, xq);
	else
		mrc_conn_arm_ack(ms, answer);
	if (!was_done && mrc_peer_done(ms)) {
		/* Every message the peer sent is here: EOF after them. */
		WRITE_ONCE(ms->rx_eof, true);
		ms->sk.sk_data_ready(&ms->sk);
		mrc_conn_maybe_done(ms);
	}
	return kept;
}

/**
 * mrc_input_readable() - does a message wait for recvmsg()?
 * @ms: the connection (any context: a hint without a lock)
 *
 * Return: true if @rx_ready is not empty.
 */
bool mrc_input_readable(const struct mrc_sock *ms)
{
	return !list_empty(&ms->rx_ready);
}

/**
 * mrc_input_take_msg() - the next message for recvmsg()
 * @ms: the connection (lock_sock held: the only reader; not the conn lock)
 * @peek: leave it queued (only the reader or close() frees it)
 *
 * Return: the first complete message, unlinked unless @peek, or NULL.
 */
struct mrc_rx_msg *mrc_input_take_msg(struct mrc_sock *ms, bool peek)
{
	struct mrc_rx_msg *m;

	sock_owned_by_me(&ms->sk);
	spin_lock_bh(&ms->rx_ready_lock);
	m = list_first_entry_or_null(&ms->rx_ready, struct mrc_rx_msg, ready);
	if (m && !peek)
		list_del(&m->ready);
	spin_unlock_bh(&ms->rx_ready_lock);
	return m;
}

/*
 * Free a message's segments; @delivered: the reader copied it out (its
 * skbs are consumed; otherwise they are freed as drops, which drop
 * monitors and the skb:kfree_skb tracepoint see).  The caller frees @m.
 */
static void mrc_input_free_segs(struct mrc_rx_msg *m, bool delivered)
{
	struct sk_buff *skb, *next;

	/* Post-order: no rebalancing on the way (skb_rbtree_purge() is not exported). */
	rbtree_postorder_for_each_entry_safe(skb, next, &m->segs, rbnode) {
		memset(&skb->rbnode, 0, sizeof(skb->rbnode));	/* next, prev, dev */
		if (delivered)
			consume_skb(skb);
		else
			kfree_skb_reason(skb, MRC_SKB_DROP_SOCKET_CLOSE);
	}
}

/**
 * mrc_input_release() - the reader is done with a message: free it
 * @ms: the connection (lock_sock held; not the conn lock)
 * @m: from mrc_input_take_msg(), not peeked; freed here
 * @delivered: it was copied out (else its skbs are freed as drops)
 *
 * Its memory leaves sk_rmem_alloc at once.  The rest of the uncharge
 * (sk_forward_alloc, the device's commitment) and the window update that
 * may follow need the conn lock: taken here if it is free, else left in
 * @rx_freed to whoever holds it, who folds it before or after dropping it
 * (mrc_conn_unlock(), mrc_conn_spin_unlock()).  The reader never spins on
 * a lock that packet receive holds for a whole burst.  Cost per message
 * read: rx_ready_lock once (mrc_input_take_msg()), a cmpxchg() (the
 * descriptor kept as the spare, or a kfree()), an atomic_sub(), an
 * atomic_add(), a barrier and a trylock.
 */
void mrc_input_release(struct mrc_sock *ms, struct mrc_rx_msg *m,
		       bool delivered)
{
	u32 charged = m->charged;

	sock_owned_by_me(&ms->sk);
	mrc_input_free_segs(m, delivered);
	mrc_input_msg_put(ms, m);
	atomic_sub(charged, &ms->sk.sk_rmem_alloc);
	atomic_add(charged, &ms->rx_freed);
	smp_mb__after_atomic();	/* pairs with mrc_conn_spin_unlock() */
	mrc_input_fold_pending(ms);
}

/**
 * mrc_input_fold() - uncharge what the reader freed, maybe update the window
 * @ms: the connection (conn lock)
 * @xq: where a window update (an ACK) is queued
 */
void mrc_input_fold(struct mrc_sock *ms, struct sk_buff_head *xq)
{
	int freed;

	lockdep_assert_held(&ms->lock);
	freed = atomic_xchg(&ms->rx_freed, 0);
	if (!freed)
		return;
	sk_mem_uncharge(&ms->sk, freed);
	mrc_input_commit(ms);
	mrc_input_window_update(ms, xq);
}

/**
 * mrc_input_fold_pending() - fold @rx_freed if the conn lock is free
 * @ms: the connection (a reference held; not the conn lock)
 *
 * After a release of the lock that saw @rx_freed, and after the reader's
 * own add.  A failed trylock leaves it to the holder, who looks after its
 * unlock.  Softirq or process context with interrupts on, holding no mrc
 * spinlock (it may take the conn lock and send, as mrc_conn_unlock()
 * does).  The loop runs once more per message the reader freed
 * meanwhile: bounded by the one reader's progress.
 */
void mrc_input_fold_pending(struct mrc_sock *ms)
{
	struct sk_buff_head xq;

	while (atomic_read(&ms->rx_freed) && spin_trylock_bh(&ms->lock)) {
		__skb_queue_head_init(&xq);
		rcu_read_lock();
		mrc_input_fold(ms, &xq);
		spin_unlock_bh(&ms->lock);
		smp_mb();	/* as mrc_conn_spin_unlock() */
		mrc_xmit_list(sock_net(&ms->sk), &xq);
		rcu_read_unlock();
	}
}

/**
 * mrc_input_purge() - drop received messages
 * @ms: the connection (conn lock, or unreachable)
 * @all: every message and the spare descriptor (no reader is left); else
 *	only those recvmsg() can never return (the incomplete ones, in
 *	@rx_msgs): complete messages (@rx_ready) stay
 *	readable until the application reads them or closes the socket
 */
void mrc_input_purge(struct mrc_sock *ms, bool all)
{
	struct rb_node *n = rb_first(&ms->rx_msgs);
	struct mrc_rx_msg *m, *next;
	LIST_HEAD(ready);

	/* The tree holds no deliverable message: those are on rx_ready. */
	while (n) {
		m = rb_entry(n, struct mrc_rx_msg, node);
		n = rb_next(n);
		rb_erase(&m->node, &ms->rx_msgs);
		mrc_input_uncharge(ms, m->charged);
		mrc_input_free_segs(m, false);
		kfree(m);
	}
	ms->rx_last = NULL;
	if (!all)
		return;
	spin_lock_bh(&ms->rx_ready_lock);
	list_splice_init(&ms->rx_ready, &ready);
	spin_unlock_bh(&ms->rx_ready_lock);
	list_for_each_entry_safe(m, next, &ready, ready) {
		mrc_input_uncharge(ms, m->charged);
		mrc_input_free_segs(m, false);
		kfree(m);
	}
	/* The reader's spare (the caller's socket has no reader left). */
	kfree(xchg(&ms->rx_spare, NULL));
	/* What the reader freed and nobody folded yet. */
	sk_mem_uncharge(&ms->sk, atomic_xchg(&ms->rx_freed, 0));
}

/**
 * mrc_input_window_update() - the reader freed memory: tell the peer
 * @ms: the connection (conn lock)
 * @xq: where an ACK is queued
 *
 * Sends an ACK when the credit grew past what we last advertised by a
 * quarter of what is now open, so a sender stalled by a slow reader
 * resumes without an ACK per read.
 */
void mrc_input_window_update(struct mrc_sock *ms, struct sk_buff_head *xq)
{
	u32 rwnd = mrc_input_rwnd(ms);
	s32 grown = mrc_psn_diff(rwnd, ms->rwnd_adv);
	s32 open = mrc_psn_diff(rwnd, ms->rxw.high);

	lockdep_assert_held(&ms->lock);
	if (ms->state == MRC_ST_ESTABLISHED && grown > 0 &&
	    grown >= max_t(s32, open / 4, 1))
		mrc_input_send_ack(ms, xq);
}
