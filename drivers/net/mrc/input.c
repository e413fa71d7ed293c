// SPDX-License-Identifier: GPL-2.0
/*
 * input.c - the receive dispatcher: a packet of a connection, to its
 * handler.
 *
 * udp.c finds the connection of a parsed packet (core/wire.c) and calls
 * mrc_input() (or mrc_input_burst() per segment of a burst, a UDP GSO
 * skb taken whole) under the connection lock.  By type:
 *   ACCEPT, RESET   -> handshake.c (the connection's state)
 *   DATA, CLOSE     -> recv.c, the receiver (an ACK riding a DATA packet
 *                      goes to ack.c first)
 *   ACK, NACK       -> ack.c, the sender
 *   PROBE           -> a challenge answered (challenge.c), a window probe
 *                      answered with an ACK (recv.c), a path probe echoed
 *   PROBE_ACK       -> challenge.c or path.c
 * A REQ never gets here: udp.c hands it to handshake.c, since it has no
 * connection yet.  What matches no handler in the connection's state is
 * counted as a drop here (mrc_input_drop(), by reason) and freed with
 * mrc_kfree_skb(): kfree_skb_reason() so drop monitors see it, or
 * consume_skb() for a duplicate or a trimmed packet (protocol events).
 *
 * Reading order: udp.c -> here -> recv.c (DATA; then af_mrc.c recvmsg())
 * or ack.c (ACKs; then output.c sends what they allow).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include "sock.h"

/* A path probe: echo it on the plane and EV it came on. */
static void mrc_input_probe_ack(struct mrc_sock *ms, u8 plane,
				const struct mrc_wire_probe *probe,
				struct sk_buff_head *xq)
{
	if (mrc_prail(ms, plane)->family && mrc_plane_proven(ms, plane))
		mrc_output_probe(ms, MRC_PKT_PROBE_ACK, 0, probe, plane, xq);
}

/*
 * A packet or a burst's segment (@seg) for this connection; returns true
 * if @seg->skb was kept or freed, sets *@droppedp to the reason when
 * counted as a drop (else MRC_DROP_NONE).
 */
static bool __mrc_input(struct mrc_sock *ms, struct mrc_rail *rail, u8 plane,
			struct mrc_rx_seg *seg, struct mrc_pkt *pkt, bool ce,
			enum mrc_drop_reason *droppedp, struct sk_buff_head *xq)
{
	enum mrc_drop_reason dropped = MRC_DROP_NONE;
	bool kept = false;

	if (ms->state == MRC_ST_ESTABLISHED && !mrc_plane_proven(ms, plane))
		mrc_challenge_heard(ms, plane);
	switch (pkt->type) {
	case MRC_PKT_ACCEPT:
		/* counted there: the BAD_FIELD count precedes the abort */
		dropped = mrc_handshake_accept(ms, rail, plane, pkt, xq);
		break;
	case MRC_PKT_RESET:
		mrc_handshake_reset(ms, xq);
		break;
	case MRC_PKT_DATA:
	case MRC_PKT_CLOSE:
	case MRC_PKT_ACK:
	case MRC_PKT_NACK:
		if (ms->state == MRC_ST_REQ_RCVD)
			mrc_conn_established(ms, xq);
		/*
		 * An ACK on DATA first: a bad one drops the packet.  Only
		 * from a peer that negotiated it; otherwise the bit is
		 * reserved.  It may end the connection (TIME_WAIT): the
		 * segment is then a straggler, as below.
		 */
		if (pkt->type == MRC_PKT_DATA && pkt->flags & MRC_F_DATA_ACK) {
			if (!(ms->caps & MRC_F_REQ_ACK_DATA)) {
				mrc_input_drop(ms, rail, seg, &dropped, MRC_DROP_RESERVED);
				break;
			}
			if (ms->state == MRC_ST_ESTABLISHED) {
				mrc_ack_rcv(ms, rail, MRC_PKT_DATA, &pkt->u.dack,
					    pkt->flags & MRC_F_DATA_ACK_CE, seg,
					    &dropped, xq);
				if (dropped)
					break;
			}
		}
		if (ms->state == MRC_ST_TIME_WAIT &&
		    (pkt->type == MRC_PKT_DATA || pkt->type == MRC_PKT_CLOSE)) {
			/* A straggler: our ACK of it was lost. */
			mrc_input_drop(ms, rail, seg, &dropped, MRC_DROP_DUPLICATE);
			ms->stats.rx_dups++;
			ms->ack_trig_plane = plane;
			mrc_input_send_ack(ms, xq);
			break;
		}
		if (ms->state != MRC_ST_ESTABLISHED) {
			mrc_input_drop(ms, rail, seg, &dropped, MRC_DROP_STATE);
			break;
		}
		if (pkt->type == MRC_PKT_ACK || pkt->type == MRC_PKT_NACK) {
			mrc_ack_rcv(ms, rail, pkt->type, &pkt->u.ack,
				    pkt->flags & MRC_F_ACK_CE, seg, &dropped, xq);
			break;
		}
		kept = mrc_input_seg(ms, rail, plane, seg, pkt, ce, &dropped, xq);
		break;
	case MRC_PKT_PROBE:
		/* A challenge may overtake the ACK completing the handshake. */
		if (ms->state == MRC_ST_REQ_RCVD &&
		    (pkt->flags & MRC_F_PROBE_CHALLENGE))
			mrc_conn_established(ms, xq);
		if (ms->state != MRC_ST_ESTABLISHED) {
			mrc_input_drop(ms, rail, seg, &dropped, MRC_DROP_STATE);
			break;
		}
		if (pkt->flags & MRC_F_PROBE_CHALLENGE) {
			/* The peer proves our rail on this plane. */
			mrc_challenge_heard(ms, plane);
			mrc_challenge_answer(ms, plane, &pkt->u.probe, xq);
		} else if (!pkt->u.probe.seq) {
			/* A window probe: answer with our current credit. */
			ms->ack_trig_plane = plane;
			mrc_input_send_ack(ms, xq);
		} else {
			mrc_input_probe_ack(ms, plane, &pkt->u.probe, xq);
		}
		break;
	case MRC_PKT_PROBE_ACK: {
		enum mrc_drop_reason why;

		if (ms->state != MRC_ST_ESTABLISHED) {
			mrc_input_drop(ms, rail, seg, &dropped, MRC_DROP_STATE);
			break;
		}
		if (!(pkt->flags & MRC_F_PROBE_CHALLENGE)) {
			mrc_path_probe_ack(ms, &pkt->u.probe);
			break;
		}
		why = mrc_challenge_ack(ms, plane, &pkt->u.probe);
		if (why == MRC_DROP_NONE)
			mrc_output_push(ms, xq);	/* the plane opens */
		else
			mrc_input_drop(ms, rail, seg, &dropped, why);
		break;
	}
	default:
		mrc_input_drop(ms, rail, seg, &dropped, MRC_DROP_TYPE);
		break;
	}
	*droppedp = dropped;
	return kept;
}

/**
 * mrc_input() - a packet for this connection arrived
 * @ms: the connection (conn lock)
 * @rail: the rail it came in on
 * @plane: that rail's plane (read once by the caller)
 * @skb: the packet, data at the mrc header (consumed)
 * @pkt: its parsed headers
 * @ce: the IP header carried CE
 * @xq: where replies are queued
 */
void mrc_input(struct mrc_sock *ms, struct mrc_rail *rail, u8 plane,
	       struct sk_buff *skb, struct mrc_pkt *pkt, bool ce,
	       struct sk_buff_head *xq)
{
	struct mrc_rx_seg seg = {
		.skb = skb,
		.now = mrc_now_us(),
		.host_us = ms->caps & MRC_F_REQ_HOST_DELAY ?
			   mrc_host_delay_us(skb) : 0,
		.pkt = pkt,
	};
	enum mrc_drop_reason dropped;

	lockdep_assert_held(&ms->lock);
	if (__mrc_input(ms, rail, plane, &seg, pkt, ce, &dropped, xq))
		return;
	mrc_kfree_skb(skb, dropped);	/* a drop is what drop monitors see */
}

/**
 * mrc_input_burst() - a segment of a burst for this connection arrived
 * @ms: the connection (conn lock)
 * @rail: the rail the burst came in on
 * @plane: that rail's plane (read once by the caller)
 * @burst: the burst (a UDP GSO skb; not consumed here)
 * @off: where the segment's payload starts in @burst's data
 * @pkt: the segment's parsed headers (a DATA packet's)
 * @ce: the burst's IP header carried CE
 * @now: mrc_now_us(), read once for the whole burst
 * @host_us: the burst's wait in this host by then (mrc_host_delay_us())
 * @xq: where replies are queued
 *
 * The segment is processed as a packet of its own would be, but its bytes
 * stay where they are: a segment that continues its message's last run
 * is referenced from that run's skb (no allocation), any other gets an
 * skb that references them.
 *
 * Return: why the segment was dropped (and counted), or MRC_DROP_NONE.
 */
enum mrc_drop_reason mrc_input_burst(struct mrc_sock *ms,
				     struct mrc_rail *rail, u8 plane,
				     const struct sk_buff *burst, u32 off,
				     struct mrc_pkt *pkt, bool ce, u32 now,
				     u32 host_us, struct sk_buff_head *xq)
{
	struct mrc_rx_seg seg = {
		.burst = burst,
		.off = off,
		.now = now,
		.host_us = host_us,
		.pkt = pkt,
	};
	enum mrc_drop_reason dropped;

	lockdep_assert_held(&ms->lock);
	/* Its skb, if one was made, was kept or freed there. */
	__mrc_input(ms, rail, plane, &seg, pkt, ce, &dropped, xq);
	return dropped;
}
