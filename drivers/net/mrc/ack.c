// SPDX-License-Identifier: GPL-2.0
/*
 * ack.c - the sender's side of an ACK: what the peer acknowledged, lost
 * or asked again, applied to the scoreboard (core/txwin.c), the paths
 * (path.c), congestion control and RTT, the RTO and loss detection.
 *
 * An ACK or NACK packet, or the ACK riding a DATA packet (MRC_F_DATA_ACK),
 * comes from the receive dispatcher (input.c).  A valid ACK moves the
 * peer's credit (rwnd_psn), feeds an RTT sample, tells each plane's
 * window and the trigger's path what was delivered and marked (CE), and
 * for a trimmed packet's NACK (congestion) resends it at once.  Loss
 * detection then declares lost what is overdue by more than the
 * reordering window (loss_path_wait, reo_adapt), output.c sends what the
 * windows allow, and the RTO is re-armed or stopped.
 *
 * Reading order: udp.c -> input.c (dispatcher) -> here for ACKs; what is
 * lost or allowed goes out through output.c -> xmit.c.  The receiver's
 * half (DATA in, ACKs built and sent) is recv.c.
 *
 * Context: under the connection lock (mrc_input()).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include "core/psn.h"
#include "sock.h"

static bool loss_path_wait = true;
module_param(loss_path_wait, bool, 0644);
MODULE_PARM_DESC(loss_path_wait,
		 "Loss detection's per-path rule waits, as its time rule does, until a packet has been out for an RTT plus the reordering window");

static bool reo_adapt;
module_param(reo_adapt, bool, 0644);
MODULE_PARM_DESC(reo_adapt,
		 "Widen loss detection's reordering window when losses prove spurious (RACK-like; slows black-hole detection)");

/**
 * mrc_ack_rcv() - apply an ACK, a NACK or the ACK part of a DATA packet
 * @ms: the connection (conn lock)
 * @rail: the rail the packet came in on
 * @type: MRC_PKT_ACK, MRC_PKT_NACK, or MRC_PKT_DATA for an ACK on DATA
 * @w: the ACK part
 * @ce: the ACK's CE flag (the trigger was marked)
 * @seg: the packet (its arrival time, its wait in this host)
 * @dropped: set to the reason if the packet was counted as a drop (it
 *	acknowledges PSNs never sent, or uses a field the peer did not
 *	negotiate): it is dropped whole
 * @xq: where what the ACK lets us send is queued
 */
void mrc_ack_rcv(struct mrc_sock *ms, struct mrc_rail *rail, u8 type,
		 const struct mrc_wire_ack *w, bool ce,
		 const struct mrc_rx_seg *seg, enum mrc_drop_reason *dropped,
		 struct sk_buff_head *xq)
{
	u32 rwnd, rtt, reo, host, now = seg->now;
	struct mrc_ack_result res;
	struct mrc_ack_info a;
	bool trimmed, progress = false;

	lockdep_assert_held(&ms->lock);
	mrc_wire_get_ack(w, &a);
	/* Only from a peer that settled it; otherwise the field is reserved. */
	if (a.host_delay_us && !(ms->caps & MRC_F_REQ_HOST_DELAY)) {
		mrc_input_drop(ms, rail, seg, dropped, MRC_DROP_RESERVED);
		return;
	}
	/* A hold longer than the peer may take on purpose is RTT. */
	a.ack_delay_us = mrc_rtt_ack_delay(&ms->rtt, a.ack_delay_us, MRC_ACK_DELAY_US);

	if (!mrc_txwin_ack(&ms->txw, ms->txpaths, ms->npaths, &a, now,
			   mrc_output_acked, ms, &res)) {
		mrc_input_drop(ms, rail, seg, dropped, MRC_DROP_BAD_ACK);
		return;
	}
	if (type == MRC_PKT_DATA)
		ms->stats.acks_piggy_rx++;
	else
		ms->stats.acks_rx++;
	rwnd = a.rwnd_psn;
	if (mrc_psn_after(rwnd, ms->rwnd_psn) &&
	    rwnd - ms->txw.una <= MRC_WIN_PKTS) {
		ms->rwnd_psn = rwnd;
		progress = true;
	}
	/*
	 * The dead-peer clock: while we own a socket, any valid ACK shows the
	 * peer alive (a slow reader keeps its credit shut as long as it
	 * likes).  An orphan needs progress: data acknowledged or credit
	 * opened (which cannot go on without acknowledgments: the credit
	 * stays within a window of the oldest unacknowledged PSN).
	 */
	if (res.acked_pkts)
		progress = true;
	ms->stats.spurious += res.spurious;
	if (progress || !sock_flag(&ms->sk, SOCK_DEAD))
		ms->last_progress = jiffies;
	if (res.rtt_us)
		mrc_rtt_sample(&ms->rtt, res.rtt_us);
	/*
	 * Per-plane windows, and ECN/NACK on the trigger's path.  Of the
	 * NACKs only a trimmed packet says something about the path
	 * (congestion); it is sent again at once.
	 */
	trimmed = type == MRC_PKT_NACK && a.nack_reason == MRC_NACK_TRIMMED;
	/*
	 * The planes' windows tell the time the trigger and this ACK waited
	 * in the two hosts from the fabric's (hostdelay.c).  A peer's wait
	 * beyond what we believe of our own is unknown.
	 */
	host = seg->host_us +
	       (a.host_delay_us < MRC_HOST_DELAY_MAX_US ? a.host_delay_us : 0);
	mrc_path_acked(ms, &res, host, ce, a.ce_count, trimmed);
	if (res.acked_pkts)
		mrc_output_sndbuf_expand(ms);
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
	mrc_txwin_detect_loss(&ms->txw, ms->txpaths, now, rtt, reo,
			      (READ_ONCE(reo_adapt) ? MRC_TXW_REO_ADAPT : 0) |
			      (READ_ONCE(loss_path_wait) ? MRC_TXW_PATH_WAIT : 0),
			      mrc_output_lost, ms);
	mrc_output_push(ms, xq);
	mrc_conn_own_acked(ms);
	/* Nothing outstanding and nothing waiting for credit. */
	if (!ms->txw.in_flight && !ms->txw.lost &&
	    skb_queue_empty(&ms->send_queue)) {
		mrc_conn_rto_idle(ms);
	} else if (res.acked_pkts || !mrc_conn_rto_armed(ms)) {
		mrc_conn_arm_rto(ms);
	}
	mrc_conn_maybe_done(ms);
}
