// SPDX-License-Identifier: GPL-2.0
/*
 * output.c - from sendmsg() to packets on the wire.
 *
 * sendmsg() cuts a message into segments of the connection's segment size
 * (the payload every rail of both ends can carry), copies the user's data
 * into page fragments and queues all segments at once (a message is
 * atomic).  The queue is charged to the socket (sk_wmem_alloc); a writer
 * waits while it is over SO_SNDBUF, so a connection holds at most
 * SO_SNDBUF + one message of unacknowledged data.  Unless the
 * application set SO_SNDBUF, it grows with the planes' windows, as TCP's
 * does (mrc_output_sndbuf_expand()).
 *
 * Chunks (tx_chunk_segs > 1): while the connection's first transmissions
 * leave in bursts (below), up to tx_chunk_segs consecutive segments of a
 * message share one skb of the send queue, each in page fragments of its
 * own (MRC_SKB_CB()->frag): one allocation and one socket charge for them
 * all, not one each.  A PSN in flight (struct mrc_txseg) holds a
 * reference to its chunk and names its segment; the chunk, and its
 * charge, is freed with the last reference, when all its segments were
 * acknowledged (a lost segment keeps the memory of its chunk's
 * acknowledged ones charged until then).  Other skbs of the queue hold
 * one segment each, as fclones, as TCP's skbs.
 *
 * mrc_output_push() then sends what the receiver's credit (rwnd_psn), the
 * scoreboard ring, the planes' congestion windows (path.c, core/cc.c) and
 * a hard in-flight cap (MRC_MAX_INFLIGHT) allow: first retransmissions of
 * lost PSNs, each on a path of another plane when there is one, then new
 * segments, each getting the next PSN and a path from the sprayer.  The original
 * segment stays in the ring until acknowledged; a clone with the headers
 * pushed in front goes to the wire (its fclone twin: no allocation), or,
 * for a segment of a larger chunk, a small skb of its own with the
 * headers in its head and the segment's page fragments.
 *
 * Bursts (tx_burst_max > 1): when a plane is fast (mrc_output_burst_segs()),
 * consecutive
 * segments of equal size leave on one path as one UDP GSO skb, the layout
 * QUIC uses with UDP_SEGMENT: every segment's payload is preceded in the
 * page fragment by a slot that its first transmission fills with its own
 * headers, so the skb is [hdr|payload][hdr|payload]... in a few page
 * fragments, gso_size = header + segment size, and the stack (or the NIC)
 * cuts it into ordinary mrc packets after one traversal of IP, the qdisc
 * and the driver.  A retransmission always goes alone (its headers in
 * the clone's head, not in the slot that an earlier skb may still read).
 *
 * Reading order: af_mrc.c (sendmsg()) or ack.c (what an ACK lets us send)
 * -> here -> path.c (which path) -> xmit.c (out of the rail).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ipv6.h>
#include <linux/udp.h>

#include "core/psn.h"
#include "sock.h"
#include "trace.h"

/* Bursts of more segments cost more frags than an skb has (MAX_SKB_FRAGS). */
#define MRC_TX_BURST_LIMIT	16

static unsigned int tx_burst_max = MRC_TX_BURST_LIMIT;
MRC_PARAM_UINT_RANGE(tx_burst_max, tx_burst_max, 1, MRC_TX_BURST_LIMIT);
MODULE_PARM_DESC(tx_burst_max,
		 "Most segments sent as one UDP GSO skb (1..16; 1: one skb per packet)");

static unsigned int tx_burst_spread = 2;
MRC_PARAM_UINT_RANGE(tx_burst_spread, tx_burst_spread, 1, 64);
MODULE_PARM_DESC(tx_burst_spread,
		 "Bursts a plane's congestion window holds at least (1..64): coarser spraying below");

static unsigned int tx_chunk_segs = MRC_TX_CHUNK_MAX;
MRC_PARAM_UINT_RANGE(tx_chunk_segs, tx_chunk_segs, 1, MRC_TX_CHUNK_MAX);
MODULE_PARM_DESC(tx_chunk_segs,
		 "Most segments of a message in one skb of the send queue while bursts go out (1..16; 1: one skb per segment)");

static unsigned int sndbuf_max = 4 << 20;
MRC_PARAM_UINT_RANGE(sndbuf_max, sndbuf_max, 0, INT_MAX / 2);
MODULE_PARM_DESC(sndbuf_max,
		 "SO_SNDBUF grows with the windows up to this, bytes (0: never; not for sockets that set SO_SNDBUF)");

static bool lazy_fill_ack = true;
module_param(lazy_fill_ack, bool, 0644);
MODULE_PARM_DESC(lazy_fill_ack,
		 "A segment filling a window or the credit (or, last queued, SO_SNDBUF) asks for an ACK only below "
		 __stringify(MRC_ACK_EVERY_MAX) " in flight (0: any filling a window or credit)");

static unsigned int tx_burst_us = 1000;
MRC_PARAM_UINT_RANGE(tx_burst_us, tx_burst_us, 0, 10000);
MODULE_PARM_DESC(tx_burst_us,
		 "A burst holds at most this long at the plane's rate, us (0..10000; 0: no limit)");

/*
 * Copy @n bytes of the user's message into @skb's page fragments.  They
 * are packed into the socket's page fragment (sk_page_frag(), as TCP
 * does), so a segment is charged what it holds rather than a page of its
 * own: with a page per 1436-byte segment, SO_SNDBUF held a third of the
 * data it was sized for and limited a multi-rail connection's flight.
 */
static int mrc_output_copy(struct sock *sk, struct sk_buff *skb,
			   struct msghdr *msg, u32 n, bool slot)
{
	struct page_frag *pfrag = sk_page_frag(sk);
	bool refilled = false;

	/*
	 * The header slot and the payload's first bytes (at least 32) share
	 * a page; the slot is 4-byte aligned (the headers' fields are), and
	 * so is the payload after it.  The first chunk is copied without
	 * another refill: on a page nobody else holds, a refill would start
	 * over at offset 0, on the slot.
	 */
	if (slot) {
		if (!skb_page_frag_refill(MRC_DATA_HDR_LEN + 3 + max(32U, min(n, 256U)),
					  pfrag, sk->sk_allocation))
			return -ENOMEM;
		pfrag->offset = ALIGN(pfrag->offset, 4) + MRC_DATA_HDR_LEN;
		skb->truesize += MRC_DATA_HDR_LEN;
		refilled = true;
	}
	while (n) {
		int i = skb_shinfo(skb)->nr_frags;
		u32 chunk;

		/*
		 * A segment (at most 64 KiB) spans a few page fragments.  Not
		 * sk_page_frag_refill(): on failure it shrinks SO_SNDBUF by
		 * sk_wmem_queued, which mrc does not use.
		 */
		if (i >= MAX_SKB_FRAGS ||
		    (!refilled && !skb_page_frag_refill(32U, pfrag, sk->sk_allocation)))
			return -ENOMEM;
		refilled = false;
		chunk = min_t(u32, n, pfrag->size - pfrag->offset);
		/* sk_allocation has no __GFP_HIGHMEM: the page is mapped. */
		if (copy_from_iter(page_address(pfrag->page) + pfrag->offset,
				   chunk, &msg->msg_iter) != chunk)
			return -EFAULT;
		skb_fill_page_desc(skb, i, pfrag->page, pfrag->offset, chunk);
		get_page(pfrag->page);
		pfrag->offset += chunk;
		skb->len += chunk;
		skb->data_len += chunk;
		skb->truesize += chunk;
		n -= chunk;
	}
	return 0;
}

/*
 * A segment's skb in the send ring: only headroom in its head, the data
 * in page fragments.  As TCP's queue: an fclone, so the clone each
 * transmission sends comes with it, and header-released, so that clone
 * pushes its headers into the shared headroom without a copy
 * (skb_header_cloned() is false while no other clone is alive; a
 * retransmission while one still is pays for its own head).
 */
static struct sk_buff *mrc_output_alloc_seg(gfp_t gfp)
{
	/*
	 * Room for an ACK part too (64 bytes): on veth and Ethernet rails
	 * the head stays in the 512-byte kmalloc bucket.
	 */
	unsigned int hr = mrc_xmit_headroom() + MRC_DATA_ACK_HDR_LEN;
	struct sk_buff *skb;

	skb = alloc_skb_fclone(hr, gfp);
	if (skb) {
		skb_reserve(skb, hr);
		__skb_header_release(skb);
	}
	return skb;
}

/*
 * A chunk of several segments: never sent itself (a burst or a segment's
 * own skb carries its fragments), so no headroom and no fclone twin.
 */
static struct sk_buff *mrc_output_alloc_chunk(gfp_t gfp)
{
	return alloc_skb(0, gfp);
}

/* Offset in the message of segment @i of the chunk with @cb. */
static u32 mrc_output_seg_off(const struct mrc_skb_cb *cb, u32 i)
{
	return cb->offset + i * cb->len;
}

/*
 * Payload bytes of segment @i of the chunk with @cb: a chunk of several
 * segments starts with a full one, and only a message's last is shorter.
 */
static u32 mrc_output_seg_len(const struct mrc_skb_cb *cb, u32 i)
{
	return i ? min(cb->len, cb->msg_len - mrc_output_seg_off(cb, i)) : cb->len;
}

/*
 * Data is queued on a connection that had nothing outstanding and nothing
 * waiting: the wait for the peer starts now, and so does the dead-peer
 * clock (dead_peer_ms counts from the last progress, and an idle
 * connection made none for as long as it had nothing to send), whether
 * the data leaves at once or waits for credit or a path.
 */
static void mrc_output_wait_starts(struct mrc_sock *ms)
{
	if (!ms->txw.in_flight && !ms->txw.lost && skb_queue_empty(&ms->send_queue))
		ms->last_progress = jiffies;
}

/**
 * mrc_output_queue_msg() - queue a message from the user
 * @ms: the connection (lock_sock held; not the conn lock)
 * @msg: the user's message
 * @len: its length, 1..max
 *
 * Context: process context.
 * Return: 0, -EFAULT, -ENOMEM, or the connection's error.
 */
int mrc_output_queue_msg(struct mrc_sock *ms, struct msghdr *msg, size_t len)
{
	u32 seg = READ_ONCE(ms->seg_size), off = 0, segs = 0, k = 1;
	bool slot = READ_ONCE(tx_burst_max) > 1;
	gfp_t gfp = ms->sk.sk_allocation;
	u64 chunks = 0, chunk_segs = 0;
	struct sk_buff_head chunkq;
	struct sk_buff_head xq;
	struct sk_buff *skb;
	int err;

	/*
	 * Chunks only feed bursts: one skb per segment costs nothing more
	 * where every segment leaves alone (its fclone twin), and a chunk
	 * holds its memory until its last segment is acknowledged.
	 */
	if (slot && READ_ONCE(ms->tx_chunky) &&
	    2 * (2 + seg / PAGE_SIZE) <= MAX_SKB_FRAGS)	/* two fit (below) */
		k = READ_ONCE(tx_chunk_segs);
	__skb_queue_head_init(&chunkq);
	while (off < len) {
		struct mrc_skb_cb *cb;

		skb = k > 1 && len - off > seg ? mrc_output_alloc_chunk(gfp) :
						 mrc_output_alloc_seg(gfp);
		if (!skb) {
			err = -ENOMEM;
			goto fail;
		}
		__skb_queue_tail(&chunkq, skb);
		cb = MRC_SKB_CB(skb);
		memset(cb, 0, sizeof(*cb));
		cb->offset = off;
		cb->len = min_t(u32, seg, len - off);
		cb->msg_len = len;
		cb->slot = slot;
		/*
		 * A segment takes at most one page fragment more than its
		 * pages (the first may be a page's tail): stop before the
		 * next one could overflow MAX_SKB_FRAGS.
		 */
		do {
			u32 n = min_t(u32, seg, len - off);

			cb->frag[cb->segs] = skb_shinfo(skb)->nr_frags;
			err = mrc_output_copy(&ms->sk, skb, msg, n, slot);
			if (err)
				goto fail;
			cb->segs++;
			off += n;
		} while (off < len && cb->segs < k &&
			 skb_shinfo(skb)->nr_frags + 2 + seg / PAGE_SIZE <= MAX_SKB_FRAGS);
		cb->frag[cb->segs] = skb_shinfo(skb)->nr_frags;
		segs += cb->segs;
		if (cb->segs > 1) {
			chunks++;
			chunk_segs += cb->segs;
		}
		skb_set_owner_w(skb, &ms->sk);
	}

	mrc_conn_lock(ms, &xq);
	if (ms->state != MRC_ST_ESTABLISHED || ms->close_queued) {
		err = ms->sk.sk_err ? -ms->sk.sk_err : -EPIPE;
		mrc_conn_unlock(ms, &xq);
		__skb_queue_purge(&chunkq);
		return err;
	}
	skb_queue_walk(&chunkq, skb)
		MRC_SKB_CB(skb)->msg_id = ms->snd_msg_id;
	ms->snd_msg_id++;
	ms->stats.tx_msgs++;
	ms->stats.tx_bytes += len;
	ms->stats.tx_chunks += chunks;
	ms->stats.tx_chunk_segs += chunk_segs;
	mrc_output_wait_starts(ms);
	skb_queue_splice_tail_init(&chunkq, &ms->send_queue);
	WRITE_ONCE(ms->send_segs, ms->send_segs + segs);
	mrc_output_push(ms, &xq);
	mrc_conn_unlock(ms, &xq);
	return 0;

fail:
	__skb_queue_purge(&chunkq);
	return err;
}

/**
 * mrc_output_alloc_close() - the skb of a CLOSE, allocated beforehand
 * @gfp: allocation flags (GFP_KERNEL | __GFP_NOFAIL from a system call)
 *
 * Return: the skb, or NULL.
 */
struct sk_buff *mrc_output_alloc_close(gfp_t gfp)
{
	return mrc_output_alloc_seg(gfp);
}

/**
 * mrc_output_queue_close() - no more messages: queue our CLOSE
 * @ms: the connection (conn lock)
 * @skb: from mrc_output_alloc_close(), consumed
 *
 * The CLOSE is a reliable packet after the last segment; it says how many
 * messages we sent.
 *
 * Return: 0 or -ENOMEM (@skb was NULL).
 */
int mrc_output_queue_close(struct mrc_sock *ms, struct sk_buff *skb)
{
	lockdep_assert_held(&ms->lock);
	if (ms->close_queued || !skb) {
		consume_skb(skb);
		return ms->close_queued ? 0 : -ENOMEM;
	}
	memset(MRC_SKB_CB(skb), 0, sizeof(struct mrc_skb_cb));
	MRC_SKB_CB(skb)->msg_id = ms->snd_msg_id;
	MRC_SKB_CB(skb)->close = true;
	MRC_SKB_CB(skb)->segs = 1;
	skb_set_owner_w(skb, &ms->sk);
	mrc_output_wait_starts(ms);
	__skb_queue_tail(&ms->send_queue, skb);
	WRITE_ONCE(ms->send_segs, ms->send_segs + 1);
	ms->close_queued = true;
	return 0;
}

/*
 * The DATA/CLOSE headers of one transmission of segment @i of the chunk
 * with @cb at @h, with @flags (an ACK part's, written after them); they
 * ask for an ACK at once (@ack_now: mrc_output_fills(), a retransmission),
 * and for a CLOSE; at a message's end only from a peer that does not
 * read ACKs on DATA (one that does decides that itself, recv.c).
 */
static void mrc_output_hdr(const struct mrc_sock *ms,
			   const struct mrc_skb_cb *cb, u32 i, struct mrc_wire_hdr *h,
			   u32 psn, u8 tx_count, u16 ev, bool ack_now, u16 flags)
{
	struct mrc_data_info d = {
		.psn = psn,
		.msg_id = cb->msg_id,
		.msg_len = cb->msg_len,
		.offset = mrc_output_seg_off(cb, i),
		.ev = ev,
		.tx_count = tx_count,
	};

	if (ack_now || cb->close ||
	    (!(ms->caps & MRC_F_REQ_ACK_DATA) &&
	     d.offset + mrc_output_seg_len(cb, i) == cb->msg_len))
		flags |= MRC_F_DATA_ACK_NOW;
	mrc_wire_put_hdr(h, cb->close ? MRC_PKT_CLOSE : MRC_PKT_DATA, flags,
			 ms->peer_id, ms->id);
	mrc_wire_put_data(h + 1, &d);
}

/*
 * Append the page fragments of segment @i of chunk @skb to @to, with the
 * @slot bytes in front of its payload (its header slot in a burst, 0
 * for an skb whose headers are in its head).
 */
static void mrc_output_add_seg(struct sk_buff *to, const struct sk_buff *skb,
			       u32 i, u32 slot)
{
	const struct skb_shared_info *si = skb_shinfo(skb);
	const struct mrc_skb_cb *cb = MRC_SKB_CB(skb);
	u32 j;

	for (j = cb->frag[i]; j < cb->frag[i + 1]; j++) {
		const skb_frag_t *f = &si->frags[j];
		u32 off = skb_frag_off(f), len = skb_frag_size(f);

		if (j == cb->frag[i]) {
			off -= slot;
			len += slot;
		}
		mrc_skb_add_page(to, skb_frag_page(f), off, len);
		to->truesize += len;
	}
}

/*
 * Does our pending ACK go with this transmission of segment @i of the
 * chunk with @cb?  To a peer that reads ACKs on DATA, on a DATA segment
 * whose packet stays within the segment size with the ACK part (room).
 */
static bool mrc_output_room(const struct mrc_sock *ms,
			    const struct mrc_skb_cb *cb, u32 i)
{
	return !cb->close &&
	       mrc_output_seg_len(cb, i) + sizeof(struct mrc_wire_ack) <= ms->seg_size;
}

static bool mrc_output_piggy(const struct mrc_sock *ms,
			     const struct mrc_skb_cb *cb, u32 i)
{
	return ms->ack_pending && ms->caps & MRC_F_REQ_ACK_DATA &&
	       mrc_output_room(ms, cb, i);
}

/*
 * An skb for one transmission of segment @t, with its headers in the
 * head (and our pending ACK after them, mrc_output_piggy()): for a chunk
 * of one segment (an fclone) a clone, its twin; for a segment of a larger
 * chunk a small skb of its own with the segment's page fragments.
 */
static struct sk_buff *mrc_output_clone(struct mrc_sock *ms,
					const struct mrc_txseg *t, u32 psn,
					u8 tx_count, u16 ev, bool ack_now)
{
	const struct mrc_skb_cb *cb = MRC_SKB_CB(t->skb);
	bool piggy = mrc_output_piggy(ms, cb, t->idx);
	unsigned int hr = mrc_xmit_headroom() + MRC_DATA_HDR_LEN +
			  (piggy ? sizeof(struct mrc_wire_ack) : 0);
	struct sk_buff *c;
	u16 flags = 0;

	lockdep_assert_held(&ms->lock);
	if (cb->segs == 1 && t->skb->fclone == SKB_FCLONE_ORIG) {
		c = skb_clone(t->skb, GFP_ATOMIC);
		if (!c)
			return NULL;
		/* Copies the head only while an earlier transmission is alive. */
		if (skb_cow_head(c, hr)) {
			kfree_skb_reason(c, SKB_DROP_REASON_NOMEM);
			return NULL;
		}
	} else {
		c = alloc_skb(hr, GFP_ATOMIC);
		if (!c)
			return NULL;
		skb_reserve(c, hr);
		if (cb->segs > 1)
			ms->stats.tx_chunk_alone++;
		mrc_output_add_seg(c, t->skb, t->idx, 0);
	}
	if (piggy)
		flags = mrc_input_piggyback(ms, skb_push(c, sizeof(struct mrc_wire_ack)));
	mrc_output_hdr(ms, cb, t->idx, skb_push(c, MRC_DATA_HDR_LEN),
		       psn, tx_count, ev, ack_now, flags);
	return c;
}

/*
 * Take the send queue's first segment into the ring at PSN @psn: its
 * entry takes a reference to the chunk, or the queue's own with the
 * chunk's last segment.
 */
static void mrc_output_take(struct mrc_sock *ms, u32 psn)
{
	struct mrc_txseg *t = &ms->txseg[psn & (ms->txw.size - 1)];
	struct sk_buff *skb = skb_peek(&ms->send_queue);
	struct mrc_skb_cb *cb = MRC_SKB_CB(skb);

	lockdep_assert_held(&ms->lock);
	t->skb = skb;
	t->idx = cb->next;
	t->lost = false;
	if (++cb->next == cb->segs)
		__skb_unlink(skb, &ms->send_queue);
	else
		skb_get(skb);
	WRITE_ONCE(ms->send_segs, ms->send_segs - 1);
}

/* Undo mrc_output_take() of PSN @psn (not sent after all). */
static void mrc_output_untake(struct mrc_sock *ms, u32 psn)
{
	struct mrc_txseg *t = &ms->txseg[psn & (ms->txw.size - 1)];
	struct sk_buff *skb = t->skb;
	struct mrc_skb_cb *cb = MRC_SKB_CB(skb);

	lockdep_assert_held(&ms->lock);
	if (cb->next-- == cb->segs)
		__skb_queue_head(&ms->send_queue, skb);
	else
		consume_skb(skb);	/* the queue still holds it */
	t->skb = NULL;
	WRITE_ONCE(ms->send_segs, ms->send_segs + 1);
}

/*
 * Whether the segment just sent must ask for an ACK at once (ACK_NOW)
 * because the sender cannot go on without one: it fills the plane's
 * window (@cc) or the peer's credit, or (lazy_fill_ack) it is the last
 * queued segment and the send buffer is full, so the writer waits for
 * an ACK too (a small SO_SNDBUF).
 * A receiver acknowledges at least every MRC_ACK_EVERY_MAX segments
 * (ack_every is at most that, wire.rst), so with lazy_fill_ack a flight
 * of that many needs no request: an ACK is on its way, whatever the
 * peer's setting.  A smaller flight asks, so that it never waits for the
 * delayed ACK (MRC_ACK_DELAY_US) or, at a message's end, for the answer
 * the receiver's application may send (ack_pingpong_us).  Without
 * lazy_fill_ack every segment that fills a window asks, as before.
 */
static bool mrc_output_fills(const struct mrc_sock *ms, const struct mrc_cc *cc)
{
	bool full = !mrc_cc_avail(cc) || !mrc_psn_before(ms->txw.nxt, ms->rwnd_psn);

	if (!READ_ONCE(lazy_fill_ack))
		return full;
	if (ms->txw.in_flight >= MRC_ACK_EVERY_MAX)
		return false;
	/* or all the writer may queue is in flight: nothing left to send */
	return full || (!ms->send_segs &&
			sk_wmem_alloc_get(&ms->sk) >= READ_ONCE(ms->sk.sk_sndbuf));
}

/*
 * Account a transmission of PSN @psn (its segment is in the ring) on path
 * @path at @now (mrc_now_us() of this mrc_output_push()): scoreboard,
 * path, plane window and counters.  Returns its
 * transmission count (0: the first), or -1 if the scoreboard refused it.
 * *@ack_now: see mrc_output_fills(); and a retransmission (recovery).
 */
static int mrc_output_sent(struct mrc_sock *ms, u32 psn, int path, u32 now,
			   struct mrc_spray_plane *planes, bool *ack_now)
{
	struct mrc_txseg *t = &ms->txseg[psn & (ms->txw.size - 1)];
	struct mrc_ev *e = &ms->evs[path];
	u32 len = mrc_output_seg_len(MRC_SKB_CB(t->skb), t->idx);
	struct mrc_spray_plane *pl = &planes[e->plane];
	struct mrc_cc *cc = &mrc_plane(ms, e->plane)->cc;
	int tx;

	tx = mrc_txwin_sent(&ms->txw, ms->txpaths, psn, path, len, now);
	if (tx < 0)
		return tx;
	t->lost = false;
	mrc_ev_on_sent(e, len);
	mrc_cc_on_sent(cc, &ms->ccp, len);
	pl->avail -= min(pl->avail, max_t(u32, len, 1));
	ms->stats.tx_pkts++;
	if (tx > 0) {
		ms->stats.retrans++;
		trace_mrc_retransmit(ms->id, psn, tx, e->ev, e->plane);
	}
	*ack_now = tx > 0 || mrc_output_fills(ms, cc);
	return tx;
}

/* Transmit PSN @psn (its segment is in the ring) on path @path, alone, at @now. */
static bool mrc_output_send(struct mrc_sock *ms, u32 psn, int path, u32 now,
			    struct mrc_spray_plane *planes,
			    struct sk_buff_head *xq)
{
	const struct mrc_txseg *t = &ms->txseg[psn & (ms->txw.size - 1)];
	struct mrc_ev *e = &ms->evs[path];
	struct sk_buff *c;
	bool ack_now;
	int tx;

	tx = mrc_output_sent(ms, psn, path, now, planes, &ack_now);
	if (tx < 0)
		return false;
	/*
	 * New data alone, with room for an ACK, soon after data arrived: our
	 * application answers what it reads (TCP's pingpong mode), and its
	 * answers can carry the ACKs.  Bursts and full segments cannot.
	 */
	if (!tx && ms->caps & MRC_F_REQ_ACK_DATA && !ms->pingpong && ms->stats.rx_pkts &&
	    now - ms->ack_trig_at < READ_ONCE(mrc_ack_pingpong_us) &&
	    mrc_output_room(ms, MRC_SKB_CB(t->skb), t->idx))
		ms->pingpong = true;
	/*
	 * Without a clone the transmission is simply lost: the scoreboard
	 * and the timer will send it again.
	 */
	c = mrc_output_clone(ms, t, psn, tx, e->ev, ack_now);
	if (c) {
		mrc_xmit_prepare(ms, c, e->plane, e->ev);
		__skb_queue_tail(xq, c);
	}
	return true;
}

/*
 * Segments per burst on @plane, at most tx_burst_max, and
 *  - at most what the plane sends in tx_burst_us at its rate, as TCP
 *    sizes a TSO skb to about 1 ms of its pacing rate
 *    (tcp_tso_autosize()): a burst is only worth building where the
 *    sender is limited by its CPU, not by the rail.  The rate is what the
 *    plane delivered in its last round (mrc_cc_delivery_rate()) with a
 *    5/4 gain, not cwnd / srtt: in slow start the RTT samples do not
 *    include the queue being built yet, and cwnd / srtt overstates a 5
 *    Mbit/s plane's rate many times.  A burst of 2 takes about 19 Mbit/s
 *    (2 x 1484 wire bytes in a millisecond, after the gain), so the
 *    fabric's 5 Mbit/s rails (and any plane in its first two rounds,
 *    before it has a rate) send per packet, sprayed packet by packet;
 *  - at most a tx_burst_spread'th of the plane's window, so that a window
 *    is still sprayed over at least that many draws of the sprayer.
 * A burst and its UDP and IP headers fit 64 KiB: UDP's length, IPv4's
 * tot_len and IPv6's payload_len are 16 bits (jumbo segments burst less,
 * or not at all).
 */
static u32 mrc_output_burst_segs(const struct mrc_sock *ms, u8 plane)
{
	const struct mrc_cc *cc = &mrc_plane(ms, plane)->cc;
	u32 max = READ_ONCE(tx_burst_max), us = READ_ONCE(tx_burst_us);
	u32 pkt = MRC_DATA_HDR_LEN + ms->seg_size;

	if (max <= 1 || !ms->seg_size)
		return 1;
	max = min_t(u32, max, (U16_MAX - sizeof(struct udphdr) - sizeof(struct ipv6hdr)) / pkt);
	max = min_t(u32, max, cc->cwnd / (READ_ONCE(tx_burst_spread) * ms->seg_size));
	if (us && max > 1) {
		u64 rate = mrc_cc_delivery_rate(cc);	/* < 2^42 */
		u64 bytes = div_u64((rate + (rate >> 2)) * us, USEC_PER_SEC);

		if (bytes < (u64)max * pkt)
			max = div_u64(bytes, pkt);
	}
	return max ?: 1;
}

/*
 * May segment @i of chunk @skb follow one of @last_len bytes in a burst
 * whose segments are @seg_len bytes: it has a slot, is no CLOSE, holds at
 * most @seg_len bytes, and the one before it was full.
 */
static bool mrc_output_burst_fits(const struct sk_buff *skb, u32 i,
				  u32 seg_len, u32 last_len)
{
	const struct mrc_skb_cb *cb = MRC_SKB_CB(skb);

	return cb->slot && !cb->close && last_len == seg_len &&
	       mrc_output_seg_len(cb, i) <= seg_len;
}

/* Page fragments of segment @i of chunk @skb. */
static u32 mrc_output_seg_frags(const struct sk_buff *skb, u32 i)
{
	const struct mrc_skb_cb *cb = MRC_SKB_CB(skb);

	return cb->frag[i + 1] - cb->frag[i];
}

/*
 * The send queue's segment after segment @i of chunk @skb, in *@skb and
 * *@i; false if there is none.
 */
static bool mrc_output_next_seg(const struct mrc_sock *ms,
				struct sk_buff **skb, u32 *i)
{
	if (*i + 1 < MRC_SKB_CB(*skb)->segs) {
		(*i)++;
		return true;
	}
	*skb = skb_peek_next(*skb, &ms->send_queue);
	*i = 0;
	return !!*skb;
}

/* The slot in front of the payload of segment @i of chunk @skb. */
static struct mrc_wire_hdr *mrc_output_slot(const struct sk_buff *skb, u32 i)
{
	const skb_frag_t *f = &skb_shinfo(skb)->frags[MRC_SKB_CB(skb)->frag[i]];

	return page_address(skb_frag_page(f)) + skb_frag_off(f) - MRC_DATA_HDR_LEN;
}

/*
 * Send up to @k new segments, the first in the send queue and the ones
 * after it (of one message or several), on path @path as one GSO skb:
 * segments of the first one's size, the last maybe shorter, each with its
 * headers in its slot.  The caller checked that the first may go now
 * (credit, ring, window) and has a slot.
 *
 * Return: false if nothing was sent (a second segment may not follow
 * now, or out of memory): the caller sends the first alone.
 */
static bool mrc_output_burst(struct mrc_sock *ms, int path, u32 k, u32 now,
			     struct mrc_spray_plane *planes,
			     struct sk_buff_head *xq)
{
	struct mrc_txwin *w = &ms->txw;
	struct mrc_ev *e = &ms->evs[path];
	struct mrc_spray_plane *pl = &planes[e->plane];
	u32 n = 0, seg_len, last_len, hr, i, j;
	struct sk_buff *b, *skb, *next;

	/*
	 * A burst of one would cost an skb where the clone of the fclone
	 * pair costs nothing: only when a second segment may follow.
	 */
	skb = skb_peek(&ms->send_queue);
	i = MRC_SKB_CB(skb)->next;
	seg_len = mrc_output_seg_len(MRC_SKB_CB(skb), i);
	next = skb;
	j = i;
	if (!mrc_output_next_seg(ms, &next, &j) ||
	    !mrc_output_burst_fits(next, j, seg_len, seg_len) ||
	    mrc_output_seg_frags(skb, i) + mrc_output_seg_frags(next, j) > MAX_SKB_FRAGS ||
	    pl->avail <= seg_len || w->in_flight + 1 >= MRC_MAX_INFLIGHT ||
	    w->nxt - w->una + 1 >= w->size || !mrc_psn_before(w->nxt + 1, ms->rwnd_psn))
		return false;
	last_len = seg_len;

	hr = mrc_xmit_headroom();
	b = alloc_skb(hr, GFP_ATOMIC);
	if (!b)
		return false;
	skb_reserve(b, hr);
	while (n < k && (skb = skb_peek(&ms->send_queue))) {
		const struct mrc_skb_cb *cb = MRC_SKB_CB(skb);
		u32 psn = w->nxt, len;
		bool ack_now;
		int tx;

		i = cb->next;
		len = mrc_output_seg_len(cb, i);
		/* GSO: every segment of gso_size bytes, but the last. */
		if ((n && !mrc_output_burst_fits(skb, i, seg_len, last_len)) ||
		    skb_shinfo(b)->nr_frags + mrc_output_seg_frags(skb, i) > MAX_SKB_FRAGS)
			break;
		if (n && (w->in_flight >= MRC_MAX_INFLIGHT || !mrc_txwin_room(w) ||
			  !mrc_psn_before(psn, ms->rwnd_psn) || !pl->avail))
			break;
		/* The queue may drop its reference: @skb lives on in the ring. */
		mrc_output_take(ms, psn);
		tx = mrc_output_sent(ms, psn, path, now, planes, &ack_now);
		if (tx < 0) {
			/* Cannot happen: room and nxt were checked. */
			mrc_output_untake(ms, psn);
			break;
		}
		mrc_output_hdr(ms, cb, i, mrc_output_slot(skb, i), psn, tx, e->ev, ack_now, 0);
		mrc_output_add_seg(b, skb, i, MRC_DATA_HDR_LEN);
		last_len = len;
		n++;
	}
	if (!n) {
		consume_skb(b);
		return false;
	}
	if (n > 1) {
		skb_shinfo(b)->gso_size = MRC_DATA_HDR_LEN + seg_len;
		skb_shinfo(b)->gso_type = SKB_GSO_UDP_L4;
		skb_shinfo(b)->gso_segs = n;
		ms->stats.tx_bursts++;
		ms->stats.tx_burst_pkts += n;
	}
	mrc_xmit_prepare(ms, b, e->plane, e->ev);
	__skb_queue_tail(xq, b);
	return true;
}

/**
 * mrc_output_push() - send what credit and windows allow
 * @ms: the connection (conn lock, RCU)
 * @xq: where packets are queued
 *
 * Each plane sends at most its free congestion window, and at most one
 * burst (cc burst-segs) per call: a window that opens wide is filled by
 * the ACKs that follow, not at once.
 */
void mrc_output_push(struct mrc_sock *ms, struct sk_buff_head *xq)
{
	struct mrc_spray_plane planes[MRC_MAX_RAILS];
	struct mrc_txwin *w = &ms->txw;
	u32 psn = w->una, now, bursts = 0, slow = 0;
	struct sk_buff *skb;
	bool idle, waiting;
	int path;

	lockdep_assert_held(&ms->lock);
	if (ms->state != MRC_ST_ESTABLISHED || !ms->npaths)
		return;
	now = mrc_now_us();	/* one clock read for every segment sent */
	idle = !w->in_flight && !w->lost;
	mrc_path_planes(ms, planes);

	/* Retransmissions first, each away from the plane it was lost on. */
	while (w->lost && w->in_flight < MRC_MAX_INFLIGHT &&
	       mrc_txwin_next_lost(w, psn, &psn)) {
		const struct mrc_txrec *r = &w->rec[psn & (w->size - 1)];

		path = mrc_path_pick(ms, planes, ms->evs[r->path].plane);
		if (path < 0 || !mrc_output_send(ms, psn, path, now, planes, xq))
			break;
		psn++;
	}

	/* New segments, within the peer's credit. */
	while (!skb_queue_empty(&ms->send_queue) &&
	       w->in_flight < MRC_MAX_INFLIGHT && mrc_txwin_room(w) &&
	       mrc_psn_before(w->nxt, ms->rwnd_psn)) {
		path = mrc_path_pick(ms, planes, -1);
		if (path < 0)
			break;
		skb = skb_peek(&ms->send_queue);
		if (MRC_SKB_CB(skb)->slot && !MRC_SKB_CB(skb)->close) {
			u32 k = mrc_output_burst_segs(ms, ms->evs[path].plane);

			/* not on a path of last resort: it takes one packet */
			if (k > 1 && mrc_ev_usable(&ms->evs[path]) &&
			    mrc_output_burst(ms, path, k, now, planes, xq)) {
				bursts++;
				continue;
			}
			if (k <= 1)
				slow++;
		}
		psn = w->nxt;
		if (MRC_SKB_CB(skb)->close)
			ms->close_psn = psn;
		mrc_output_take(ms, psn);
		if (!mrc_output_send(ms, psn, path, now, planes, xq)) {
			/* Cannot happen: room and nxt were checked. */
			mrc_output_untake(ms, psn);
			break;
		}
	}

	/*
	 * Retransmission timer, or persist timer while the credit is closed.
	 * Data leaving an idle connection restarts it: a timer still pending
	 * then is a persist timer, an orphan's deadline, or one left to
	 * expire (mrc_conn_rto_idle()), none of them this data's RTO.
	 */
	/*
	 * sendmsg queues chunks while first transmissions leave in bursts:
	 * from a push that sent one, until a push that sent segments on
	 * planes too slow for bursts and none in a burst.  A burst refused
	 * for want of room (window, credit) or a usable path leaves it as
	 * it is: those segments go alone, at the cost of an fclone's.
	 */
	if ((bursts || slow) && ms->tx_chunky != !!bursts)
		WRITE_ONCE(ms->tx_chunky, !!bursts);
	waiting = w->in_flight || w->lost || !skb_queue_empty(&ms->send_queue);
	if ((idle && w->in_flight) || (waiting && !mrc_conn_rto_armed(ms)))
		mrc_conn_arm_rto(ms);
}

/**
 * mrc_output_probe() - queue a PROBE or PROBE_ACK
 * @ms: the connection (conn lock)
 * @type: MRC_PKT_PROBE or MRC_PKT_PROBE_ACK
 * @flags: MRC_F_PROBE_CHALLENGE or 0
 * @body: the probe's seq, ev and stamp (network order)
 * @plane: the plane it goes out on
 * @xq: where it is queued
 *
 * Return: true if queued (false: out of memory, the probe is lost).
 */
bool mrc_output_probe(struct mrc_sock *ms, u8 type, u16 flags,
		      const struct mrc_wire_probe *body, u8 plane,
		      struct sk_buff_head *xq)
{
	struct sk_buff *skb;

	lockdep_assert_held(&ms->lock);
	skb = mrc_xmit_alloc(ms, MRC_PROBE_LEN);
	if (!skb)
		return false;
	mrc_wire_put_hdr(skb_put(skb, MRC_HDR_LEN), type, flags, ms->peer_id, ms->id);
	mrc_wire_put_probe(skb_put(skb, sizeof(struct mrc_wire_probe)),
			   be32_to_cpu(body->seq), be16_to_cpu(body->ev),
			   be32_to_cpu(body->stamp));
	mrc_xmit_prepare(ms, skb, plane, be16_to_cpu(body->ev) & MRC_EV_MAX);
	__skb_queue_tail(xq, skb);
	return true;
}

/**
 * mrc_send_probe() - ask the peer for an ACK (its current credit)
 * @ms: the connection (conn lock)
 * @xq: where the PROBE is queued
 *
 * A window probe is a PROBE with sequence number 0; path probes
 * (path.c) number theirs from 1.
 */
void mrc_send_probe(struct mrc_sock *ms, struct sk_buff_head *xq)
{
	struct mrc_wire_probe p = { 0 };
	int path = mrc_path_pick_any(ms);

	lockdep_assert_held(&ms->lock);
	if (path < 0)
		return;
	p.ev = cpu_to_be16(ms->evs[path].ev);
	p.stamp = cpu_to_be32(mrc_now_us());
	mrc_output_probe(ms, MRC_PKT_PROBE, 0, &p, ms->evs[path].plane, xq);
}

/**
 * mrc_output_sndbuf_expand() - let the send buffer cover the windows
 * @ms: the connection (conn lock)
 *
 * A writer waits while the socket holds SO_SNDBUF, and what is in flight
 * is held until acknowledged, so SO_SNDBUF bounds the flight: the default
 * (net.core.wmem_default, 212992 bytes) kept a connection over four 50
 * Mbit/s rails with a 25 ms RTT at 60-80 Mbit/s whatever the windows
 * allowed.  As tcp_sndbuf_expand(): unless the application set
 * SO_SNDBUF, it grows to twice the segments the planes' windows let fly,
 * at what a queued segment is charged, up to sndbuf_max, and never
 * shrinks; not while mrc's memory is under pressure.
 */
void mrc_output_sndbuf_expand(struct mrc_sock *ms)
{
	struct sock *sk = &ms->sk;
	unsigned long planes = ms->planes;
	u32 max = READ_ONCE(sndbuf_max);
	int old = READ_ONCE(sk->sk_sndbuf);
	u64 win = 0, mem;
	u32 p;

	lockdep_assert_held(&ms->lock);
	/*
	 * setsockopt(SO_SNDBUF) runs under lock_sock, not our lock: it sets
	 * SOCK_SNDBUF_LOCK, then the size; read the size first and change
	 * it only if it is still what we read, so the application's wins.
	 */
	smp_rmb();	/* @old before the lock flag, as setsockopt() writes them */
	if ((sk->sk_userlocks & SOCK_SNDBUF_LOCK) || old >= max ||
	    !ms->seg_size || sk_under_memory_pressure(sk))
		return;
	for_each_set_bit(p, &planes, MRC_MAX_RAILS)
		win += ms->plane[p].cc.cwnd;
	mem = 2 * DIV_ROUND_UP_ULL(win, ms->seg_size) *
	      SKB_TRUESIZE(ms->seg_size + MRC_DATA_HDR_LEN);
	if (mem <= old || cmpxchg(&sk->sk_sndbuf, old, (int)min_t(u64, mem, max)) != old)
		return;
	sk->sk_write_space(sk);
}

/**
 * mrc_output_acked() - scoreboard callback: @psn was delivered
 * @ctx: the connection (conn lock)
 * @psn: the PSN
 */
void mrc_output_acked(void *ctx, u32 psn)
{
	struct mrc_sock *ms = ctx;
	u32 idx = psn & (ms->txw.size - 1);
	struct mrc_txseg *t = &ms->txseg[idx];
	struct sk_buff *skb = t->skb;

	lockdep_assert_held(&ms->lock);
	if (!skb)
		return;
	/* Bytes still in a plane's window: the plane's ACK accounting. */
	if (!t->lost) {
		const struct mrc_txrec *r = &ms->txw.rec[idx];

		mrc_plane(ms, ms->evs[r->path].plane)->ack_bytes += r->len;
	}
	t->skb = NULL;
	/* The chunk's last reference uncharges the socket, wakes writers. */
	consume_skb(skb);
}

/* @psn left its plane's window; true if it was still counted there. */
static bool mrc_output_leave_window(struct mrc_sock *ms, u32 psn, u32 *path)
{
	u32 idx = psn & (ms->txw.size - 1);
	const struct mrc_txrec *r = &ms->txw.rec[idx];
	struct mrc_txseg *t = &ms->txseg[idx];

	if (!t->skb || t->lost)
		return false;
	t->lost = true;
	mrc_cc_on_lost(&mrc_plane(ms, ms->evs[r->path].plane)->cc, r->len);
	*path = r->path;
	return true;
}

/**
 * mrc_output_lost() - scoreboard callback: @psn was declared lost
 * @ctx: the connection (conn lock)
 * @psn: the PSN
 *
 * The packet leaves its plane's window (a loss is no congestion signal)
 * and its path becomes ASSUMED_BAD; mrc_output_push() sends it again.
 */
void mrc_output_lost(void *ctx, u32 psn)
{
	struct mrc_sock *ms = ctx;
	u32 path;

	lockdep_assert_held(&ms->lock);
	if (mrc_output_leave_window(ms, psn, &path))
		mrc_path_lost(ms, path);
}

/**
 * mrc_output_lost_quiet() - like mrc_output_lost(), path state unchanged
 * @ctx: the connection (conn lock)
 * @psn: the PSN
 *
 * For a rail failover, which has already set the paths' states.
 */
void mrc_output_lost_quiet(void *ctx, u32 psn)
{
	struct mrc_sock *ms = ctx;
	u32 path;

	lockdep_assert_held(&ms->lock);
	mrc_output_leave_window(ms, psn, &path);
}

/**
 * mrc_output_purge() - drop every queued and unacknowledged segment
 * @ms: the connection (conn lock, or unreachable)
 */
void mrc_output_purge(struct mrc_sock *ms)
{
	u32 i;

	__skb_queue_purge(&ms->send_queue);
	WRITE_ONCE(ms->send_segs, 0);
	if (!ms->txseg)
		return;
	for (i = 0; i < ms->txw.size; i++) {
		/* one reference each; what is left was never acknowledged */
		kfree_skb_reason(ms->txseg[i].skb, MRC_SKB_DROP_SOCKET_CLOSE);
		ms->txseg[i].skb = NULL;
	}
}

/*
 * Move the scoreboard to the zeroed ring @rec/@segs of @size (a power of
 * two that holds every PSN in flight); the old ring's records go to
 * *@old_rec and its segments to *@old_segs, for mrc_output_ring_free().
 * False (nothing moved) if @size cannot hold them.
 */
static bool mrc_output_ring_move(struct mrc_sock *ms, struct mrc_txrec *rec,
				 struct mrc_txseg *segs, u32 size,
				 struct mrc_txrec **old_rec,
				 struct mrc_txseg **old_segs)
{
	u32 old = ms->txw.size, i;

	lockdep_assert_held(&ms->lock);
	if (size < ms->txw.nxt - ms->txw.una)
		return false;
	for (i = 0; i < old; i++) {
		u32 psn = ms->txw.una + i;

		if (mrc_psn_before(psn, ms->txw.nxt))
			segs[psn & (size - 1)] = ms->txseg[psn & (old - 1)];
	}
	*old_rec = mrc_txwin_resize(&ms->txw, rec, size);
	if (!*old_rec)
		return false;
	*old_segs = ms->txseg;
	ms->txrec = rec;
	ms->txseg = segs;
	return true;
}

/**
 * mrc_output_ring_free() - free a scoreboard ring the connection left
 * @ms: the connection (its path block, if any, not freed yet)
 * @rec: the ring's records (NULL: none)
 * @segs: its segments
 *
 * The path block's own ring (mrc_path_ring()) goes with the block.
 *
 * Context: before mrc_path_free(); the conn lock, or lock_sock after the
 * connection was established (the block does not change then).
 */
void mrc_output_ring_free(struct mrc_sock *ms, struct mrc_txrec *rec,
			  struct mrc_txseg *segs)
{
	if (rec && rec == mrc_path_ring(ms, NULL))
		return;
	kvfree(rec);
	kvfree(segs);
}

/**
 * mrc_output_ring_init() - the scoreboard moves into the path block
 * @ms: the connection (conn lock), its paths just set up
 *
 * An accepted connection starts its scoreboard there; a client moves the
 * ring connect() allocated into it (empty and of the first size: sendmsg
 * waits for the connection).  An idle connection keeps one allocation,
 * its path block, besides the socket.
 */
void mrc_output_ring_init(struct mrc_sock *ms)
{
	struct mrc_txrec *rec, *old_rec;
	struct mrc_txseg *segs, *old_segs;
	bool moved;

	lockdep_assert_held(&ms->lock);
	rec = mrc_path_ring(ms, &segs);
	if (WARN_ON_ONCE(!rec))
		return;
	if (!ms->txrec) {
		mrc_txwin_init(&ms->txw, ms->isn, rec, MRC_TXWIN_MIN,
			       mrc_path_groups(ms));
		ms->txrec = rec;
		ms->txseg = segs;
		return;
	}
	ms->txw.groups = mrc_path_groups(ms);	/* NULL since connect() */
	if (WARN_ON_ONCE(ms->txw.size != MRC_TXWIN_MIN || ms->txw.in_flight))
		return;
	/* Cannot fail: the same size.  A kmalloc'd ring: freed in atomic. */
	moved = mrc_output_ring_move(ms, rec, segs, MRC_TXWIN_MIN, &old_rec, &old_segs);
	if (!WARN_ON_ONCE(!moved))
		mrc_output_ring_free(ms, old_rec, old_segs);
}

/**
 * mrc_output_grow() - give the scoreboard a ring big enough for @need PSNs
 * @ms: the connection (lock_sock held; not the conn lock)
 * @need: PSNs in flight, queued, and about to be queued by the caller
 *
 * Once @need reaches half the ring, the ring grows, in one step, to the
 * smallest power of two above twice @need (at most MRC_WIN_PKTS): one
 * large message costs one reallocation, not one per doubling.  On
 * failure the ring stays as it is (the window is what it allows).
 *
 * Context: process context (sendmsg).
 */
void mrc_output_grow(struct mrc_sock *ms, u32 need)
{
	u32 old = READ_ONCE(ms->txw.size), size;
	struct mrc_txrec *rec, *old_rec;
	struct mrc_txseg *segs, *old_segs;

	if (need < old / 2 || old >= MRC_WIN_PKTS || !ms->txseg)
		return;
	size = min_t(u32, roundup_pow_of_two(2 * (unsigned long)need + 1), MRC_WIN_PKTS);
	rec = kvcalloc(size, sizeof(*rec), GFP_KERNEL);
	segs = kvcalloc(size, sizeof(*segs), GFP_KERNEL);
	if (!rec || !segs)
		goto out;

	spin_lock_bh(&ms->lock);
	if (ms->txw.size != old || !ms->txseg) {
		mrc_conn_spin_unlock(ms);
		goto out;
	}
	/* Cannot fail: size > old >= nxt - una, a power of two. */
	if (WARN_ON_ONCE(!mrc_output_ring_move(ms, rec, segs, size, &old_rec,
					       &old_segs))) {
		mrc_conn_spin_unlock(ms);
		goto out;
	}
	mrc_conn_spin_unlock(ms);
	/* The path block's ring stays with the block (we hold the socket). */
	mrc_output_ring_free(ms, old_rec, old_segs);
	return;
out:
	kvfree(rec);
	kvfree(segs);
}
