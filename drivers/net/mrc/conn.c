// SPDX-License-Identifier: GPL-2.0
/*
 * conn.c - connections: ids, timers, the end of a connection.
 *
 * Every connection has a random 32-bit id, unique in its namespace, that
 * the peer puts in every packet; the table maps ids to sockets for the
 * receive path (RCU lookup, a reference taken).  While a connection is in
 * the table it holds a reference on its socket, so an application may
 * close() and the connection still delivers what was queued ("orphan").
 *
 * Timers: @rto_timer drives retransmission (handshake and data), the
 * dead-peer check, an orphan's deadlines and TIME_WAIT; @ack_timer bounds
 * the delay of an ACK.  Both hold a socket reference while pending.
 *
 * The end of a connection: it reaches TIME_WAIT only when everything we
 * sent, our CLOSE last, is acknowledged cumulatively (a SACK of the CLOSE
 * alone leaves earlier data to retransmit) and everything the peer sent,
 * its CLOSE last, has arrived.  Until then retransmissions flow both ways.
 * TIME_WAIT re-acknowledges stragglers, then the connection leaves the
 * table; the messages a reader has not taken yet stay readable until it
 * takes them or closes the socket.
 *
 * Orphans (closed by their application while still finishing) are
 * bounded in number (max_orphans: beyond it close() resets) and in
 * lifetime: without progress (data acknowledged, credit opened) for the
 * dead-peer time while sending, and orphan_fin_timeout_ms after
 * everything was acknowledged while waiting for the peer's CLOSE; an ACK
 * that acknowledges nothing extends neither.
 *
 * The device reference of a connection is dropped only after an RCU
 * grace period: packets are prepared and sent inside one RCU read-side
 * section, so a packet never outlives the device it names.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/random.h>

#include "core/psn.h"
#include "sock.h"
#include "trace.h"

static struct hlist_head *mrc_conn_bucket(struct mrc_net *mn, u32 id)
{
	return &mn->conns[hash_32(id, ilog2(ARRAY_SIZE(mn->conns)))];
}

/**
 * mrc_conn_hash() - give a connection its id and make it reachable
 * @ms: the connection
 *
 * Takes the table's reference on the socket.
 *
 * Return: 0.
 */
int mrc_conn_hash(struct mrc_sock *ms)
{
	struct mrc_net *mn = mrc_net(sock_net(&ms->sk));
	struct mrc_sock *other;
	bool taken;
	u32 id;

	spin_lock_bh(&mn->conns_lock);
	do {
		id = get_random_u32();
		taken = !id;
		hlist_for_each_entry(other, mrc_conn_bucket(mn, id), id_node)
			if (other->id == id)
				taken = true;
	} while (taken);
	ms->id = id;
	sock_hold(&ms->sk);
	hlist_add_head_rcu(&ms->id_node, mrc_conn_bucket(mn, id));
	atomic_inc(&mn->nr_conns);
	spin_unlock_bh(&mn->conns_lock);
	return 0;
}

/**
 * mrc_conn_unhash() - make a connection unreachable
 * @ms: the connection
 *
 * Drops the table's reference (the caller holds its own).
 */
void mrc_conn_unhash(struct mrc_sock *ms)
{
	struct mrc_net *mn = mrc_net(sock_net(&ms->sk));
	bool was;

	spin_lock_bh(&mn->conns_lock);
	was = !hlist_unhashed(&ms->id_node);
	if (was) {
		hlist_del_init_rcu(&ms->id_node);
		atomic_dec(&mn->nr_conns);
	}
	spin_unlock_bh(&mn->conns_lock);
	if (was)
		__sock_put(&ms->sk);
}

/**
 * mrc_conn_lookup() - the connection with an id
 * @net: the namespace
 * @id: the id
 *
 * Context: any; takes and returns a socket reference.
 * Return: the connection, or NULL.
 */
struct mrc_sock *mrc_conn_lookup(struct net *net, u32 id)
{
	struct mrc_net *mn = mrc_net(net);
	struct mrc_sock *ms;

	rcu_read_lock();
	hlist_for_each_entry_rcu(ms, mrc_conn_bucket(mn, id), id_node) {
		if (READ_ONCE(ms->id) == id &&
		    refcount_inc_not_zero(&ms->sk.sk_refcnt)) {
			rcu_read_unlock();
			return ms;
		}
	}
	rcu_read_unlock();
	return NULL;
}

/**
 * mrc_conn_set_dev() - the connection runs on @mdev from now on
 * @ms: the connection (conn lock)
 * @mdev: the device
 *
 * Fails once the device is being unregistered (mrc_dev_abort_conns() has
 * started, or is about to start, ending its connections): a REQ or a
 * connect() racing with the deletion must not attach a connection that
 * nobody would end, pinning the device.
 *
 * Context: RCU or RTNL keeps @mdev alive during the call.
 * Return: true if attached.
 */
bool mrc_conn_set_dev(struct mrc_sock *ms, struct mrc_dev *mdev)
{
	lockdep_assert_held(&ms->lock);
	spin_lock(&mdev->conns_lock);
	if (mdev->dead) {
		spin_unlock(&mdev->conns_lock);
		return false;
	}
	netdev_hold(mdev->dev, &ms->dev_tracker, GFP_ATOMIC);
	WRITE_ONCE(ms->mdev, mdev);
	list_add_tail(&ms->dev_node, &mdev->conns);
	spin_unlock(&mdev->conns_lock);
	return true;
}

static void mrc_conn_put_dev_rcu(struct rcu_head *head)
{
	struct mrc_sock *ms = container_of(head, struct mrc_sock, dev_rcu);

	netdev_put(ms->dev_put, &ms->dev_tracker);
	sock_put(&ms->sk);
}

/* Leave the device; its reference goes after a grace period. */
static void mrc_conn_clear_dev(struct mrc_sock *ms)
{
	struct mrc_dev *mdev = ms->mdev;

	lockdep_assert_held(&ms->lock);
	if (!mdev)
		return;
	mrc_input_leave_dev(ms);
	spin_lock(&mdev->conns_lock);
	list_del_init(&ms->dev_node);
	spin_unlock(&mdev->conns_lock);
	/* mrc_xmit_list() falls back to @dev_put for a last RESET. */
	WRITE_ONCE(ms->dev_put, mdev->dev);
	smp_wmb();	/* @dev_put before @mdev reads NULL; see mrc_xmit_list() */
	WRITE_ONCE(ms->mdev, NULL);
	sock_hold(&ms->sk);
	call_rcu(&ms->dev_rcu, mrc_conn_put_dev_rcu);
}

static bool lazy_ack = true;
module_param(lazy_ack, bool, 0644);
MODULE_PARM_DESC(lazy_ack,
		 "Leave the delayed-ACK timer to expire when the ACK it waited for left otherwise");

/*
 * The delayed ACK.  @ack_armed (conn lock) says that the timer, queued or
 * running, holds a socket reference and will see to a pending ACK; only
 * the holder of the conn lock changes it, so an ACK that becomes pending
 * while the callback is finishing still gets a timer (hrtimer_active()
 * would have said "armed" then).  With lazy_ack an ACK that leaves
 * before its deadline (alone, or on DATA) leaves the timer queued: it
 * fires for nothing, or early for a later pending ACK and waits on until
 * that one's deadline (@ack_due), as lazy_rto does for the RTO timer.
 */
static enum hrtimer_restart mrc_conn_ack_timer(struct hrtimer *t)
{
	struct mrc_sock *ms = container_of(t, struct mrc_sock, ack_timer);
	struct sk_buff_head xq;
	u32 delay = 0;
	bool again;
	s32 early;

	mrc_conn_lock(ms, &xq);
	if (ms->ack_pending && ms->state == MRC_ST_ESTABLISHED) {
		early = ms->ack_due - mrc_now_us();
		if (early > 0) {
			delay = early;	/* armed for an ACK that left since */
		} else {
			/* No answer carried it in time: the usual rule for ends. */
			ms->pingpong = false;
			mrc_input_send_ack(ms, &xq);
			/* No memory for the ACK: try again soon. */
			if (ms->ack_pending)
				delay = MRC_ACK_RETRY_US;
		}
	}
	again = delay && ms->state == MRC_ST_ESTABLISHED;
	if (again)
		hrtimer_forward_now(t, ns_to_ktime((u64)delay * NSEC_PER_USEC));
	ms->ack_armed = again;
	mrc_conn_unlock(ms, &xq);
	if (again)
		return HRTIMER_RESTART;	/* keeps its socket reference */
	sock_put(&ms->sk);
	return HRTIMER_NORESTART;
}

/**
 * mrc_conn_arm_ack() - bound the delay of the pending ACK
 * @ms: the connection (conn lock), an ACK pending
 * @answer: it acknowledges a message's end that our application answers
 *	(@pingpong): the answer may carry it
 *
 * MRC_ACK_DELAY_US, or ack_pingpong_us for @answer, after the first
 * packet the ACK waits for arrived.  A timer armed before, for an ACK
 * that left since, may expire earlier (it then waits on) or, if the
 * delay was shortened meanwhile, later (by at most the longer delay).
 */
void mrc_conn_arm_ack(struct mrc_sock *ms, bool answer)
{
	u32 us = answer ? READ_ONCE(mrc_ack_pingpong_us) : MRC_ACK_DELAY_US;

	lockdep_assert_held(&ms->lock);
	if (ms->ack_pending <= 1)
		ms->ack_due = ms->ack_trig_at + us;
	if (ms->ack_armed)
		return;
	ms->ack_armed = true;
	sock_hold(&ms->sk);
	hrtimer_start(&ms->ack_timer, ns_to_ktime((u64)us * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_SOFT);
}

/**
 * mrc_conn_stop_ack() - no delayed ACK is needed now
 * @ms: the connection (conn lock)
 * @sent: an ACK just left: with lazy_ack the timer stays queued (it
 *	finds nothing pending, or a later ACK's deadline); false: the
 *	connection ends, cancel it
 */
void mrc_conn_stop_ack(struct mrc_sock *ms, bool sent)
{
	lockdep_assert_held(&ms->lock);
	if (!ms->ack_armed || (sent && READ_ONCE(lazy_ack)))
		return;
	/* Running: it waits for our lock, then finds nothing to do. */
	if (hrtimer_try_to_cancel(&ms->ack_timer) == 1) {
		ms->ack_armed = false;
		__sock_put(&ms->sk);
	}
}

static bool lazy_rto = true;
module_param(lazy_rto, bool, 0644);
MODULE_PARM_DESC(lazy_rto,
		 "Leave the retransmission timer to expire when all data is acknowledged");

/* Arm the retransmission timer for @expires (jiffies). */
static void mrc_conn_rto_set(struct mrc_sock *ms, unsigned long expires)
{
	lockdep_assert_held(&ms->lock);
	ms->rto_expires = expires;
	ms->rto_set = true;
	sk_reset_timer(&ms->sk, &ms->rto_timer, expires);
}

/**
 * mrc_conn_rto_stop() - stop the retransmission timer
 * @ms: the connection (conn lock)
 */
void mrc_conn_rto_stop(struct mrc_sock *ms)
{
	lockdep_assert_held(&ms->lock);
	ms->rto_set = false;
	sk_stop_timer(&ms->sk, &ms->rto_timer);
}

/**
 * mrc_conn_rto_idle() - everything sent was acknowledged, nothing waits
 * @ms: the connection (conn lock)
 *
 * An orphan keeps its clock running (its deadline, mrc_conn_arm_rto()).
 * Otherwise the timer is stopped, or with lazy_rto (the default) left to
 * expire: mrc_conn_rto() then finds nothing outstanding and does
 * nothing, and the next transmission of an idle connection re-arms it
 * (mrc_output_push()); an expiry that waited for the lock while that
 * happened sees the timer pending again and does nothing either.
 * Stopping it at each acknowledged message and starting it at the next
 * one costs two timer operations per message that TCP does not pay
 * either (its timer is not stopped when the flight empties:
 * INET_CSK_CLEAR_TIMERS is off).
 */
void mrc_conn_rto_idle(struct mrc_sock *ms)
{
	lockdep_assert_held(&ms->lock);
	if (ms->orphan)
		mrc_conn_arm_rto(ms);
	else if (!READ_ONCE(lazy_rto))
		mrc_conn_rto_stop(ms);
}

/**
 * mrc_conn_arm_rto() - (re)start the retransmission timer
 * @ms: the connection (conn lock)
 */
void mrc_conn_arm_rto(struct mrc_sock *ms)
{
	u32 us = mrc_rtt_rto(&ms->rtt, MRC_RTO_MIN_US, MRC_RTO_MAX_US,
			     MRC_RTO_INIT_US, ms->backoff);

	lockdep_assert_held(&ms->lock);
	if (ms->orphan && ms->state == MRC_ST_ESTABLISHED && !ms->txw.in_flight &&
	    !ms->txw.lost && skb_queue_empty(&ms->send_queue)) {
		/* Nothing to retransmit: wake up at the orphan's deadline. */
		mrc_conn_rto_set(ms, mrc_conn_orphan_deadline(ms) + 1);
		return;
	}
	mrc_conn_rto_set(ms, jiffies + usecs_to_jiffies(us) + 1);
}

/**
 * mrc_set_state_err() - move a connection to @state, for @err
 * @ms: the connection (conn lock)
 * @state: enum mrc_state
 * @err: the error it ends with (an abort's errno), or 0; only traced
 *
 * The mrc_conn_state tracepoint sees every change of a connection's
 * state (a listener's LISTEN and CLOSED are not a connection's).
 */
void mrc_set_state_err(struct mrc_sock *ms, u8 state, int err)
{
	lockdep_assert_held(&ms->lock);
	trace_mrc_conn_state(ms, state, err);
	if (state == MRC_ST_ESTABLISHED)
		WRITE_ONCE(ms->was_established, true);
	/* Pairs with smp_load_acquire() in udp.c: the rails before the state. */
	smp_store_release(&ms->state, state);
}

/*
 * Finish a connection (with @err, 0 for none): no more packets, leave
 * the table.  Complete messages stay for a reader of an open socket
 * (mrc_input_purge()).
 */
static void mrc_conn_finish(struct mrc_sock *ms, int err)
{
	lockdep_assert_held(&ms->lock);
	mrc_set_state_err(ms, MRC_ST_CLOSED, err);
	mrc_conn_rto_stop(ms);
	mrc_path_stop(ms);
	mrc_conn_stop_ack(ms, false);
	mrc_output_purge(ms);
	mrc_input_purge(ms, sock_flag(&ms->sk, SOCK_DEAD));
	mrc_conn_clear_dev(ms);
	mrc_conn_unhash(ms);
	if (ms->orphan) {
		ms->orphan = false;
		atomic_dec(&mrc_orphans);
	}
	ms->sk.sk_state_change(&ms->sk);
}

/**
 * mrc_conn_finished() - was every byte delivered, both ways?
 * @ms: the connection (conn lock)
 *
 * True when the peer's data up to its CLOSE all arrived and all of ours
 * before our CLOSE was acknowledged cumulatively: at most the
 * acknowledgment of our CLOSE itself is missing.  A RESET or the device's
 * deletion then ends the connection as finished, not as reset.
 *
 * Return: true if nothing can be lost any more.
 */
bool mrc_conn_finished(const struct mrc_sock *ms)
{
	lockdep_assert_held(&ms->lock);
	if (ms->state == MRC_ST_TIME_WAIT)
		return true;
	return ms->state == MRC_ST_ESTABLISHED && mrc_peer_done(ms) &&
	       ms->close_queued && skb_queue_empty(&ms->send_queue) &&
	       !mrc_psn_before(ms->txw.una, ms->close_psn);
}

/**
 * mrc_conn_abort() - end a connection at once
 * @ms: the connection (conn lock)
 * @err: the error the application sees (0: none)
 * @send_reset: tell the peer (RESET) if it may still be listening
 * @xq: where a RESET is queued
 */
void mrc_conn_abort(struct mrc_sock *ms, int err, bool send_reset,
		    struct sk_buff_head *xq)
{
	struct mrc_sock *listener;

	lockdep_assert_held(&ms->lock);
	if (ms->state == MRC_ST_CLOSED)
		return;
	if (mrc_conn_finished(ms)) {
		/* Nothing to lose: end quietly, as a finished connection. */
		err = 0;
		send_reset = false;
	}
	if (send_reset && ms->peer_id && ms->mdev)
		mrc_send_reset(ms, err == ETIMEDOUT ? MRC_RESET_TIMEOUT :
			       MRC_RESET_ABORT, xq);
	listener = NULL;
	if (ms->state == MRC_ST_REQ_RCVD) {
		/* A half-open child: uncount it on its device and listener. */
		if (ms->mdev)
			atomic_dec(&ms->mdev->half_open);
		listener = ms->listener;
	}
	/* The error first: a poller woken by the state change sees it. */
	if (err)
		WRITE_ONCE(ms->sk.sk_err, err);
	mrc_conn_finish(ms, err);
	if (listener)
		mrc_listener_forget(listener, ms, true);
	if (err)
		sk_error_report(&ms->sk);
}

/**
 * mrc_conn_own_acked() - note when everything we sent is acknowledged
 * @ms: the connection (conn lock)
 *
 * Our CLOSE is the last PSN we send: once it is sent and the cumulative
 * acknowledgment passed it, every byte of ours was delivered.
 */
void mrc_conn_own_acked(struct mrc_sock *ms)
{
	lockdep_assert_held(&ms->lock);
	if (ms->close_acked || !ms->close_queued ||
	    !skb_queue_empty(&ms->send_queue) || ms->txw.una != ms->txw.nxt)
		return;
	WRITE_ONCE(ms->close_acked, true);
	ms->close_acked_at = jiffies;
	ms->sk.sk_state_change(&ms->sk);	/* a lingering close() waits for it */
}

/**
 * mrc_conn_maybe_done() - both ends closed and everything delivered?
 * @ms: the connection (conn lock)
 *
 * Everything of ours acknowledged cumulatively, everything of the peer's
 * arrived: then the connection waits in TIME_WAIT (re-acknowledging
 * stragglers) for a while, and ends.
 */
void mrc_conn_maybe_done(struct mrc_sock *ms)
{
	lockdep_assert_held(&ms->lock);
	if (ms->state != MRC_ST_ESTABLISHED || !ms->close_acked ||
	    !mrc_peer_done(ms))
		return;
	mrc_set_state(ms, MRC_ST_TIME_WAIT);
	mrc_conn_rto_set(ms, jiffies + usecs_to_jiffies(2 * MRC_RTO_INIT_US));
	ms->sk.sk_state_change(&ms->sk);
}

/**
 * mrc_conn_orphan_deadline() - when an orphan with nothing in flight ends
 * @ms: the orphan (conn lock)
 *
 * Return: jiffies: orphan_fin_timeout_ms after everything of ours was
 * acknowledged, or the dead-peer time after the last progress.
 */
unsigned long mrc_conn_orphan_deadline(const struct mrc_sock *ms)
{
	lockdep_assert_held(&ms->lock);
	if (ms->close_acked)
		return ms->close_acked_at +
		       msecs_to_jiffies(READ_ONCE(mrc_orphan_fin_timeout_ms));
	return ms->last_progress + msecs_to_jiffies(READ_ONCE(mrc_dead_peer_ms));
}

/*
 * The RTO fired: nothing was acknowledged for that long, on any path.
 * That is evidence against the path of the oldest packet, not against
 * every path something was in flight on (a stalled host or a dead peer
 * look the same): the rest is sent again without blame.
 */
static void mrc_conn_rto_lost(void *ctx, u32 psn)
{
	struct mrc_sock *ms = ctx;

	if (psn == ms->txw.una)
		mrc_output_lost(ctx, psn);
	else
		mrc_output_lost_quiet(ctx, psn);
}

static void mrc_conn_rto(struct timer_list *t)
{
	struct mrc_sock *ms = from_timer(ms, t, rto_timer);
	struct sk_buff_head xq;
	unsigned long dead = msecs_to_jiffies(READ_ONCE(mrc_dead_peer_ms));

	mrc_conn_lock(ms, &xq);
	/*
	 * Re-armed for later while we waited for the lock (data left an
	 * idle connection whose timer was left to expire, or an ACK made
	 * progress): this expiry is stale.  The re-arm took its own
	 * reference.  Nobody re-arms a due expiry merely because it is no
	 * longer pending (mrc_conn_rto_armed()).
	 */
	if (timer_pending(&ms->rto_timer) && time_before(jiffies, ms->rto_expires))
		goto out;
	ms->rto_set = false;
	switch (ms->state) {
	case MRC_ST_REQ_SENT:
	case MRC_ST_REQ_RCVD:
		/*
		 * A client that never answered our ACCEPT gets no RESET, nor
		 * a server that never answered our REQ (we know no id of it).
		 */
		if (ms->state == MRC_ST_REQ_RCVD)
			dead = msecs_to_jiffies(READ_ONCE(mrc_half_open_timeout_ms));
		if (time_after(jiffies, ms->last_progress + dead))
			mrc_conn_abort(ms, ETIMEDOUT, false, &xq);
		else
			mrc_handshake_retransmit(ms, &xq);
		break;
	case MRC_ST_ESTABLISHED:
		if (time_after(jiffies, ms->last_progress + dead) &&
		    (ms->txw.in_flight || ms->txw.lost ||
		     !skb_queue_empty(&ms->send_queue))) {
			/* No news (an orphan: no progress) for the dead-peer time. */
			mrc_conn_abort(ms, ETIMEDOUT, true, &xq);
			break;
		}
		if (!ms->txw.in_flight && !ms->txw.lost) {
			/*
			 * Persist: data waits for credit; a window update may
			 * have been lost, so ask for one.  An orphan waiting for
			 * its peer's CLOSE waits until its deadline.
			 */
			if (!skb_queue_empty(&ms->send_queue)) {
				mrc_send_probe(ms, &xq);
				ms->backoff = min(ms->backoff + 1, 6U);
				mrc_conn_arm_rto(ms);
			} else if (ms->orphan) {
				if (time_after_eq(jiffies, mrc_conn_orphan_deadline(ms)))
					mrc_conn_abort(ms, ETIMEDOUT, true, &xq);
				else
					mrc_conn_arm_rto(ms);
			}
			break;
		}
		ms->backoff = min(ms->backoff + 1, 16U);
		ms->stats.rto++;
		trace_mrc_rto(ms->id, ms->txw.una, ms->txw.in_flight, ms->backoff,
			      mrc_rtt_rto(&ms->rtt, MRC_RTO_MIN_US, MRC_RTO_MAX_US,
					  MRC_RTO_INIT_US, ms->backoff));
		mrc_txwin_timeout(&ms->txw, ms->txpaths, mrc_conn_rto_lost, ms);
		mrc_output_push(ms, &xq);
		mrc_conn_arm_rto(ms);
		break;
	case MRC_ST_TIME_WAIT:
		mrc_conn_finish(ms, 0);
		break;
	}
out:
	mrc_conn_unlock(ms, &xq);
	sock_put(&ms->sk);
}

/**
 * mrc_conn_init() - initialise the connection part of a new socket
 * @ms: the socket
 */
void mrc_conn_init(struct mrc_sock *ms)
{
	spin_lock_init(&ms->lock);
	mrc_input_sock_init(ms);
	INIT_HLIST_NODE(&ms->id_node);
	INIT_LIST_HEAD(&ms->dev_node);
	INIT_LIST_HEAD(&ms->accept_queue);
	INIT_LIST_HEAD(&ms->half_open_list);
	INIT_LIST_HEAD(&ms->accept_node);
	skb_queue_head_init(&ms->send_queue);
	timer_setup(&ms->rto_timer, mrc_conn_rto, 0);
	hrtimer_init(&ms->ack_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
	ms->ack_timer.function = mrc_conn_ack_timer;
	mrc_path_init(ms);
	ms->last_progress = jiffies;
}

/**
 * mrc_conn_destroy() - free what a connection still owns (socket destruct)
 * @ms: the socket, unreachable and without timers
 */
void mrc_conn_destroy(struct mrc_sock *ms)
{
	mrc_output_purge(ms);
	mrc_input_purge(ms, true);
	sk_mem_reclaim_final(&ms->sk);
	mrc_output_ring_free(ms, ms->txrec, ms->txseg);
	mrc_path_free(ms);
	mrc_handshake_free_rails(ms);
	ms->txrec = NULL;
	ms->txseg = NULL;
	memset(&ms->txw, 0, sizeof(ms->txw));	/* its ring is gone */
}

/**
 * mrc_dev_abort_conns() - the device goes away: end its connections
 * @mdev: the device
 *
 * Each gets ENETDOWN and its peer a RESET (else an idle peer would wait
 * for the connection forever).
 *
 * Context: RTNL, process context.
 */
void mrc_dev_abort_conns(struct mrc_dev *mdev)
{
	struct sk_buff_head xq;
	struct mrc_sock *ms;

	/* From now on no connection attaches (mrc_conn_set_dev()). */
	spin_lock_bh(&mdev->conns_lock);
	mdev->dead = true;
	spin_unlock_bh(&mdev->conns_lock);
	for (;;) {
		spin_lock_bh(&mdev->conns_lock);
		ms = list_first_entry_or_null(&mdev->conns, struct mrc_sock, dev_node);
		if (ms)
			sock_hold(&ms->sk);
		spin_unlock_bh(&mdev->conns_lock);
		if (!ms)
			break;
		/* The RESET picks a path and a rail: RCU, as in softirq. */
		mrc_conn_lock(ms, &xq);
		if (ms->mdev == mdev) {
			/* Tell the peer (the rails are still attached). */
			mrc_conn_abort(ms, ENETDOWN, true, &xq);
			mrc_conn_clear_dev(ms);
		}
		mrc_conn_unlock(ms, &xq);
		sock_put(&ms->sk);
	}
}
