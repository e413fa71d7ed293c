// SPDX-License-Identifier: GPL-2.0
/*
 * input.c - packets of a connection: DATA placed, ACKs sent and applied.
 *
 * DATA: the receive window says whether the PSN is new (spraying makes
 * holes normal; they fill).  A new segment is checked against its message
 * (aligned to the segment size, full-size unless last, within the message,
 * not overlapping another) and placed among the message's segments by
 * offset.  A message is complete when all its bytes are there; recvmsg()
 * returns messages in order of their ids.  Receive memory is charged to
 * the socket and bounded: the credit we advertise (rwnd_psn) never lets
 * the peer send more than fits in max(SO_RCVBUF, max-msg-size + one
 * window of segments).
 *
 * ACKs: at least every MRC_ACK_EVERY packets, at once for a duplicate, a
 * CE mark, the end of a message or a CLOSE, otherwise within
 * MRC_ACK_DELAY_US.  Each ACK names its trigger (PSN, EV, transmission)
 * so the sender learns which path delivered what, and carries the CE
 * count and our credit.
 *
 * Context: every function here runs under the connection lock.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include "core/psn.h"
#include "sock.h"

/* Messages further ahead than this of the next one to deliver are bogus. */
#define MRC_MSG_ID_WINDOW	BIT(20)

/**
 * mrc_input_init() - nothing received yet
 * @ms: the connection
 */
void mrc_input_init(struct mrc_sock *ms)
{
	ms->rcv_msg_id = 0;
	ms->peer_closed = false;
}

/**
 * mrc_input_limit() - receive memory a connection is meant to hold
 * @ms: the connection
 *
 * Bytes of receive memory the connection may hold: SO_RCVBUF, but at
 * least one largest message (a message is only delivered whole) plus a
 * window's worth of segments, counted at their real truesize.  The hard
 * bound is twice this (see mrc_input_data()).
 *
 * Return: the limit in bytes.
 */
u32 mrc_input_limit(const struct mrc_sock *ms)
{
	u32 msg = ms->mdev ? READ_ONCE(ms->mdev->max_msg_size) : 0;
	u32 segs = msg / max(ms->seg_size, 1U) + 1;

	return max_t(u32, READ_ONCE(ms->sk.sk_rcvbuf),
		     (segs + 64) * ms->rx_truesize);
}

/*
 * Our credit: the peer may send PSNs below this.  Every PSN may carry a
 * full segment, and a segment costs the largest truesize seen so far, so
 * whatever the peer sends within the credit fits: a slow reader stalls
 * the sender instead of making us drop.
 */
static u32 mrc_input_rwnd(const struct mrc_sock *ms)
{
	u32 used = atomic_read(&ms->sk.sk_rmem_alloc);
	u32 limit = mrc_input_limit(ms);
	u32 pkts = used < limit ? (limit - used) / ms->rx_truesize : 0;
	u32 ahead = ms->rxw.high - ms->rxw.cum;

	/* Packets between cum and high are already counted in @used. */
	pkts = pkts + ahead;
	return ms->rxw.cum + min_t(u32, pkts, MRC_WIN_PKTS);
}

/* An ACK, or a NACK of @ms->ack_trig with @reason (enum mrc_nack_reason). */
static void mrc_input_send(struct mrc_sock *ms, u8 type, u8 reason,
			   struct sk_buff_head *xq)
{
	struct mrc_wire_ack *a;
	struct mrc_wire_hdr *h;
	struct sk_buff *skb;
	u64 bits[MRC_SACK_WORDS];
	u32 cum, base, i;
	s64 delay;
	int path = -1;
	u8 plane = ms->ack_trig_plane;
	u16 ev;

	mrc_conn_stop_ack(ms);
	skb = mrc_xmit_alloc(ms, MRC_ACK_LEN);
	if (!skb)
		return;
	h = skb_put(skb, MRC_HDR_LEN);
	h->version = MRC_WIRE_VERSION;
	h->type = type;
	h->flags = cpu_to_be16(ms->ack_trig.ce ? MRC_F_ACK_CE : 0);
	h->dst_conn = cpu_to_be32(ms->peer_id);
	h->src_conn = cpu_to_be32(ms->id);
	a = skb_put_zero(skb, sizeof(*a));
	mrc_rxwin_sack(&ms->rxw, &cum, &base, bits);
	a->cum_psn = cpu_to_be32(cum);
	a->sack_base = cpu_to_be32(base);
	for (i = 0; i < MRC_SACK_WORDS; i++)
		a->sack[i] = cpu_to_be64(bits[i]);
	a->trig_psn = cpu_to_be32(ms->ack_trig.psn);
	a->trig_ev = cpu_to_be16(ms->ack_trig.ev);
	a->trig_tx = ms->ack_trig.tx;
	a->nack_reason = reason;
	a->ce_count = cpu_to_be32(ms->ce_count);
	a->rwnd_psn = cpu_to_be32(mrc_input_rwnd(ms));
	delay = ktime_us_delta(ktime_get(), ms->ack_trig_at);
	a->ack_delay_us = cpu_to_be32(delay > 0 ? min_t(s64, delay, U32_MAX) : 0);

	/* Back on the plane the trigger came in on, with its EV. */
	ev = ms->ack_trig.ev;
	if (!ms->lrail[plane].family || !ms->prail[plane].family) {
		path = mrc_path_pick_any(ms);
		if (path < 0) {
			kfree_skb(skb);
			return;
		}
		plane = ms->evs[path].plane;
		ev = ms->evs[path].ev;
	}
	mrc_xmit_prepare(ms, skb, plane, ev);
	__skb_queue_tail(xq, skb);
	ms->ack_pending = 0;
	ms->rwnd_adv = be32_to_cpu(a->rwnd_psn);
	ms->stats.acks_tx++;
}

/**
 * mrc_input_send_ack() - acknowledge what arrived
 * @ms: the connection
 * @xq: where the ACK is queued
 */
void mrc_input_send_ack(struct mrc_sock *ms, struct sk_buff_head *xq)
{
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
	    msg_len > READ_ONCE(ms->mdev->max_msg_size))
		return false;
	return pkt->payload_len < min(ms->seg_size, msg_len - off);
}

/* Remember @pkt as the trigger of the next ACK (or NACK). */
static void mrc_input_trigger(struct mrc_sock *ms, struct mrc_rail *rail,
			      const struct mrc_pkt *pkt, bool ce)
{
	const struct mrc_wire_data *d = &pkt->u.data;

	ms->ack_trig.psn = be32_to_cpu(d->psn);
	ms->ack_trig.ev = be16_to_cpu(d->ev);
	ms->ack_trig.tx = d->tx_count;
	ms->ack_trig.ce = ce;
	ms->ack_trig_at = ktime_get();
	ms->ack_trig_plane = rail->plane;
}

/* Where segments of message @id are collected; created on first use. */
static struct mrc_rx_msg *mrc_input_msg(struct mrc_sock *ms, u32 id, u32 len)
{
	struct mrc_rx_msg *m = xa_load(&ms->rx_msgs, id);

	if (m)
		return m->len == len ? m : ERR_PTR(-EINVAL);
	m = kmalloc(sizeof(*m), GFP_ATOMIC);
	if (!m)
		return ERR_PTR(-ENOMEM);
	m->len = len;
	m->got = 0;
	__skb_queue_head_init(&m->segs);
	if (xa_err(xa_store(&ms->rx_msgs, id, m, GFP_ATOMIC))) {
		kfree(m);
		return ERR_PTR(-ENOMEM);
	}
	return m;
}

/* Place a checked segment; false if it overlaps one already there. */
static bool mrc_input_place(struct mrc_rx_msg *m, struct sk_buff *skb)
{
	u32 off = MRC_SKB_CB(skb)->offset;
	struct sk_buff *p;

	/* Sprayed segments come roughly in order: search from the tail. */
	skb_queue_reverse_walk(&m->segs, p) {
		if (MRC_SKB_CB(p)->offset == off)
			return false;
		if (MRC_SKB_CB(p)->offset < off) {
			__skb_queue_after(&m->segs, p, skb);
			goto placed;
		}
	}
	__skb_queue_head(&m->segs, skb);
placed:
	m->got += MRC_SKB_CB(skb)->len;
	return true;
}

static enum mrc_drop_reason mrc_input_data(struct mrc_sock *ms,
					   struct sk_buff *skb,
					   const struct mrc_pkt *pkt)
{
	const struct mrc_wire_data *d = &pkt->u.data;
	u32 msg_id = be32_to_cpu(d->msg_id);
	u32 msg_len = be32_to_cpu(d->msg_len);
	u32 off = be32_to_cpu(d->offset);
	u32 len = pkt->payload_len;
	struct mrc_rx_msg *m;

	if (msg_len > READ_ONCE(ms->mdev->max_msg_size))
		return MRC_DROP_MSG_TOO_BIG;
	if (off % ms->seg_size || (len != ms->seg_size && off + len != msg_len) ||
	    msg_id - ms->rcv_msg_id >= MRC_MSG_ID_WINDOW ||
	    (ms->peer_closed && msg_id - ms->rcv_msg_id >= ms->peer_msgs - ms->rcv_msg_id))
		return MRC_DROP_BAD_DATA;
	if (skb->truesize > ms->rx_truesize)
		ms->rx_truesize = skb->truesize;
	/*
	 * The credit was computed with the truesize known then; what was
	 * sent within it is accepted up to twice the limit (the hard bound),
	 * so an underestimate never turns into drops.
	 */
	if (atomic_read(&ms->sk.sk_rmem_alloc) + skb->truesize >
	    2 * mrc_input_limit(ms))
		return MRC_DROP_NO_BUFFER;
	m = mrc_input_msg(ms, msg_id, msg_len);
	if (IS_ERR(m))
		return PTR_ERR(m) == -ENOMEM ? MRC_DROP_NO_BUFFER : MRC_DROP_BAD_DATA;

	__skb_pull(skb, pkt->hdr_len);
	if (skb->len != len)
		pskb_trim(skb, len);
	MRC_SKB_CB(skb)->offset = off;
	MRC_SKB_CB(skb)->len = len;
	MRC_SKB_CB(skb)->msg_id = msg_id;
	MRC_SKB_CB(skb)->msg_len = msg_len;
	if (!mrc_input_place(m, skb))
		return MRC_DROP_BAD_DATA;
	skb_set_owner_r(skb, &ms->sk);
	if (m->got == m->len && msg_id == ms->rcv_msg_id)
		ms->sk.sk_data_ready(&ms->sk);
	return MRC_DROP_NONE;
}

/* DATA or CLOSE. Returns true if @skb was kept. */
static bool mrc_input_seg(struct mrc_sock *ms, struct mrc_rail *rail,
			  struct sk_buff *skb, const struct mrc_pkt *pkt,
			  bool ce, struct sk_buff_head *xq)
{
	const struct mrc_wire_data *d = &pkt->u.data;
	u32 psn = be32_to_cpu(d->psn);
	enum mrc_drop_reason reason;
	bool now = pkt->flags & MRC_F_DATA_ACK_NOW;
	bool kept = false;

	switch (mrc_rxwin_check(&ms->rxw, psn)) {
	case MRC_RX_AHEAD:
		mrc_count_drop(ms->mdev, rail, MRC_DROP_OUT_OF_WINDOW);
		return false;
	case MRC_RX_DUP:
		ms->stats.rx_dups++;
		mrc_count_drop(ms->mdev, rail, MRC_DROP_DUPLICATE);
		now = true;	/* our ACK may have been lost */
		break;
	case MRC_RX_NEW:
		if (mrc_input_trimmed(ms, pkt)) {
			/*
			 * Congestion on its path: NACK it at once, so that
			 * the sender resends it now and avoids that path.
			 * One small packet per packet received.
			 */
			mrc_count_drop(ms->mdev, rail, MRC_DROP_TRIMMED);
			mrc_input_trigger(ms, rail, pkt, ce);
			mrc_input_send(ms, MRC_PKT_NACK, MRC_NACK_TRIMMED, xq);
			return false;
		}
		if (pkt->type == MRC_PKT_CLOSE) {
			ms->peer_closed = true;
			ms->peer_msgs = be32_to_cpu(d->msg_id);
			now = true;
			ms->sk.sk_data_ready(&ms->sk);
		} else {
			reason = mrc_input_data(ms, skb, pkt);
			if (reason) {
				mrc_count_drop(ms->mdev, rail, reason);
				return false;
			}
			kept = true;
		}
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
	mrc_input_trigger(ms, rail, pkt, ce);
	if (now || ms->ack_pending >= MRC_ACK_EVERY)
		mrc_input_send_ack(ms, xq);
	else
		mrc_conn_arm_ack(ms);
	if (pkt->type == MRC_PKT_CLOSE)
		mrc_conn_maybe_done(ms);
	return kept;
}

/* A path probe: echo it on the plane and EV it came on. */
static void mrc_input_probe_ack(struct mrc_sock *ms, struct mrc_rail *rail,
				const struct mrc_wire_probe *probe,
				struct sk_buff_head *xq)
{
	if (ms->prail[rail->plane].family)
		mrc_output_probe(ms, MRC_PKT_PROBE_ACK, probe, rail->plane, xq);
}

static void mrc_input_ack(struct mrc_sock *ms, struct mrc_rail *rail,
			  const struct mrc_pkt *pkt, struct sk_buff_head *xq)
{
	const struct mrc_wire_ack *wa = &pkt->u.ack;
	struct mrc_ack_result res;
	struct mrc_ack_info a;
	u32 rwnd, rtt, reo, i;
	bool trimmed;

	a.cum = be32_to_cpu(wa->cum_psn);
	a.base = be32_to_cpu(wa->sack_base);
	for (i = 0; i < MRC_SACK_WORDS; i++)
		a.bits[i] = be64_to_cpu(wa->sack[i]);
	a.trig_psn = be32_to_cpu(wa->trig_psn);
	a.trig_ev = be16_to_cpu(wa->trig_ev);
	a.trig_tx = wa->trig_tx;
	a.ack_delay_us = be32_to_cpu(wa->ack_delay_us);

	if (!mrc_txwin_ack(&ms->txw, ms->txpaths, ms->npaths, &a, mrc_now_us(),
			   mrc_output_acked, ms, &res)) {
		mrc_count_drop(ms->mdev, rail, MRC_DROP_BAD_ACK);
		return;
	}
	ms->stats.acks_rx++;
	/* Any valid ACK shows the peer alive (the dead-peer clock). */
	ms->last_progress = jiffies;
	rwnd = be32_to_cpu(wa->rwnd_psn);
	if (mrc_psn_after(rwnd, ms->rwnd_psn) &&
	    rwnd - ms->txw.una <= MRC_WIN_PKTS)
		ms->rwnd_psn = rwnd;
	if (res.rtt_us)
		mrc_rtt_sample(&ms->rtt, res.rtt_us);
	/*
	 * Per-plane windows, and ECN/NACK on the trigger's path.  Of the
	 * NACKs only a trimmed packet says something about the path
	 * (congestion); it is sent again at once.
	 */
	trimmed = pkt->type == MRC_PKT_NACK &&
		  wa->nack_reason == MRC_NACK_TRIMMED;
	mrc_path_acked(ms, &res, pkt->flags & MRC_F_ACK_CE, trimmed);
	if (trimmed)
		mrc_txwin_nacked(&ms->txw, ms->txpaths, ms->npaths, &a,
				 mrc_output_lost_quiet, ms);
	if (res.acked_pkts)
		ms->backoff = 0;
	/*
	 * The reordering window: a quarter RTT plus twice its variation, at
	 * least 1 ms (emulated and busy hosts jitter by that much).
	 */
	rtt = ms->rtt.srtt_us;
	reo = max_t(u32, rtt / 4 + 2 * ms->rtt.rttvar_us, 1000);
	mrc_txwin_detect_loss(&ms->txw, ms->txpaths, mrc_now_us(), rtt, reo,
			      mrc_output_lost, ms);
	mrc_output_push(ms, xq);
	/*
	 * Nothing outstanding and nothing waiting for credit: no timer,
	 * except that an orphan keeps the dead-peer clock running.
	 */
	if (!ms->txw.in_flight && !ms->txw.lost &&
	    skb_queue_empty(&ms->send_queue)) {
		if (sock_flag(&ms->sk, SOCK_DEAD))
			sk_reset_timer(&ms->sk, &ms->rto_timer, ms->last_progress +
				       msecs_to_jiffies(MRC_DEAD_PEER_MS) + 1);
		else
			sk_stop_timer(&ms->sk, &ms->rto_timer);
	} else if (res.acked_pkts || !timer_pending(&ms->rto_timer)) {
		mrc_conn_arm_rto(ms);
	}
	if (ms->close_acked)
		mrc_conn_maybe_done(ms);
}

/**
 * mrc_input() - a packet for this connection arrived
 * @ms: the connection (conn lock)
 * @rail: the rail it came in on
 * @skb: the packet, data at the mrc header (consumed)
 * @pkt: its parsed headers
 * @ce: the IP header carried CE
 * @xq: where replies are queued
 */
void mrc_input(struct mrc_sock *ms, struct mrc_rail *rail, struct sk_buff *skb,
	       struct mrc_pkt *pkt, bool ce, struct sk_buff_head *xq)
{
	bool kept = false;

	switch (pkt->type) {
	case MRC_PKT_ACCEPT:
		mrc_handshake_accept(ms, rail, pkt, xq);
		break;
	case MRC_PKT_RESET:
		if (ms->state == MRC_ST_REQ_SENT)
			mrc_conn_abort(ms, ECONNREFUSED, false, xq);
		else
			mrc_conn_abort(ms, ECONNRESET, false, xq);
		break;
	case MRC_PKT_DATA:
	case MRC_PKT_CLOSE:
	case MRC_PKT_ACK:
	case MRC_PKT_NACK:
		if (ms->state == MRC_ST_REQ_RCVD)
			mrc_conn_established(ms, xq);
		if (ms->state == MRC_ST_TIME_WAIT && pkt->type == MRC_PKT_CLOSE) {
			/* A straggling CLOSE: our ACK was lost. */
			ms->ack_trig_plane = rail->plane;
			mrc_input_send_ack(ms, xq);
			break;
		}
		if (ms->state != MRC_ST_ESTABLISHED) {
			mrc_count_drop(ms->mdev, rail, MRC_DROP_STATE);
			break;
		}
		if (pkt->type == MRC_PKT_ACK || pkt->type == MRC_PKT_NACK)
			mrc_input_ack(ms, rail, pkt, xq);
		else if (sock_flag(&ms->sk, SOCK_DEAD) && pkt->type == MRC_PKT_DATA)
			/* Nobody will ever read it. */
			mrc_conn_abort(ms, 0, true, xq);
		else
			kept = mrc_input_seg(ms, rail, skb, pkt, ce, xq);
		break;
	case MRC_PKT_PROBE:
		if (ms->state != MRC_ST_ESTABLISHED)
			break;
		if (!pkt->u.probe.seq) {
			/* A window probe: answer with our current credit. */
			ms->ack_trig_plane = rail->plane;
			mrc_input_send_ack(ms, xq);
		} else {
			mrc_input_probe_ack(ms, rail, &pkt->u.probe, xq);
		}
		break;
	case MRC_PKT_PROBE_ACK:
		if (ms->state == MRC_ST_ESTABLISHED)
			mrc_path_probe_ack(ms, &pkt->u.probe);
		break;
	default:
		mrc_count_drop(ms->mdev, rail, MRC_DROP_TYPE);
		break;
	}
	if (!kept)
		consume_skb(skb);
}

/**
 * mrc_input_msg_ready() - can recvmsg() return something?
 * @ms: the connection
 *
 * Return: the length of the next message if it is complete, 0 if the
 * peer closed and everything was delivered, -EAGAIN otherwise.
 */
int mrc_input_msg_ready(struct mrc_sock *ms)
{
	struct mrc_rx_msg *m = xa_load(&ms->rx_msgs, ms->rcv_msg_id);

	if (m && m->got == m->len)
		return m->len;
	if (ms->peer_closed && ms->rcv_msg_id == ms->peer_msgs)
		return 0;
	return -EAGAIN;
}

/**
 * mrc_input_take_msg() - remove the next (complete) message
 * @ms: the connection
 *
 * Return: the message; the caller copies it out and frees it with
 * mrc_input_free_msg() outside the conn lock.
 */
struct mrc_rx_msg *mrc_input_take_msg(struct mrc_sock *ms)
{
	struct mrc_rx_msg *m = xa_erase(&ms->rx_msgs, ms->rcv_msg_id);

	if (m) {
		ms->rcv_msg_id++;
		ms->stats.rx_msgs++;
		ms->stats.rx_bytes += m->len;
	}
	return m;
}

/**
 * mrc_input_free_msg() - free a message and its segments
 * @m: the message
 */
void mrc_input_free_msg(struct mrc_rx_msg *m)
{
	__skb_queue_purge(&m->segs);
	kfree(m);
}

/**
 * mrc_input_purge() - drop everything received and not delivered
 * @ms: the connection
 */
void mrc_input_purge(struct mrc_sock *ms)
{
	struct mrc_rx_msg *m;
	unsigned long id;

	xa_for_each(&ms->rx_msgs, id, m) {
		xa_erase(&ms->rx_msgs, id);
		mrc_input_free_msg(m);
	}
}

/**
 * mrc_input_window_update() - the reader freed memory: tell the peer
 * @ms: the connection
 * @xq: where an ACK is queued
 * @old_rwnd: unused (the last advertised credit is what counts)
 *
 * Sends an ACK when the credit grew past what we last advertised by a
 * quarter of what is now open, so a sender stalled by a slow reader
 * resumes without an ACK per read.
 */
void mrc_input_window_update(struct mrc_sock *ms, struct sk_buff_head *xq,
			     u32 old_rwnd)
{
	u32 rwnd = mrc_input_rwnd(ms);
	s32 grown = mrc_psn_diff(rwnd, ms->rwnd_adv);
	s32 open = mrc_psn_diff(rwnd, ms->rxw.high);

	if (ms->state == MRC_ST_ESTABLISHED && grown > 0 &&
	    grown >= max_t(s32, open / 4, 1))
		mrc_input_send_ack(ms, xq);
}

/**
 * mrc_input_rwnd_now() - the credit we would advertise now
 * @ms: the connection
 *
 * Return: rwnd_psn.
 */
u32 mrc_input_rwnd_now(struct mrc_sock *ms)
{
	return mrc_input_rwnd(ms);
}
