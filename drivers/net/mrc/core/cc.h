/* SPDX-License-Identifier: GPL-2.0 */
/*
 * core/cc.h - per-plane congestion control: a window in bytes, clocked
 * by ACKs, driven by ECN (DCTCP-like) and by queueing delay (NSCC-like).
 * Documentation/mrc/cc.rst has the equations and the reasons.
 *
 * One struct mrc_cc per plane of a connection.  The caller tells it what
 * it sends on the plane (mrc_cc_on_sent()), what the ACKs say about the
 * plane's packets (mrc_cc_on_ack(): bytes newly acknowledged, how many
 * of them were CE-marked, an RTT sample of a packet of this plane) and
 * what was declared lost (mrc_cc_on_lost()).  It may send while
 * mrc_cc_avail() > 0, at most mrc_cc_burst() bytes back to back.
 *
 * Summary:
 *  - Rounds.  A round begins at the ACK that ends the previous one.  It
 *    ends at the first ACK at which the bytes acknowledged or declared
 *    lost since it began reach the bytes in flight when it began plus
 *    those sent before its first ACK or loss (the sender's answer to the
 *    ACK that began it): one RTT when the window is full, shorter when
 *    the sender is application-limited.
 *  - Growth (only while the window is used: a send left less than one
 *    segment of window in this round or the last): slow start (+acked
 *    bytes) until the first cut if slow_start is set, then additive
 *    increase, one segment per window's worth of acknowledged bytes.
 *  - ECN: alpha <- (1 - g) alpha + g F at the end of each round, F the
 *    round's marked fraction, g = 1/16.  At the first ACK of a round
 *    carrying marks: cwnd <- cwnd (1 - alpha / 2) (once per round).
 *  - Delay: at the end of a round, with r the smallest RTT sample of the
 *    round, base the windowed minimum RTT and T the target queueing
 *    delay: if r > base + T, cwnd <- min(cwnd, W0 (1 - min(1, (r - base
 *    - T) / T) / 2)), W0 the window when the round began.
 *  - Loss: counted, the window is unchanged (a loss means a broken path,
 *    handled by the EV state machine).
 *  - Bounds: min_segs * mss <= cwnd <= max_cwnd, always.
 *
 * No division of 64-bit numbers, no floating point; u32 microseconds
 * compared wrap-safe.
 */
#ifndef _MRC_CORE_CC_H
#define _MRC_CORE_CC_H

#include "types.h"

/* alpha is a fraction in units of 2^-20 */
#define MRC_CC_ALPHA_SHIFT	20
#define MRC_CC_ALPHA_ONE	BIT(MRC_CC_ALPHA_SHIFT)
/* gain of the alpha average: g = 2^-4 */
#define MRC_CC_G_SHIFT		4
/* smallest automatic target queueing delay */
#define MRC_CC_TARGET_MIN_US	10
/* largest window the arithmetic supports (1 GiB) */
#define MRC_CC_CWND_LIMIT	BIT(30)

/* Recommended defaults (Documentation/mrc/cc.rst explains them). */
#define MRC_CC_DEF_INIT_SEGS		10
#define MRC_CC_DEF_MIN_SEGS		2
#define MRC_CC_DEF_MAX_CWND		BIT(20)
#define MRC_CC_DEF_TARGET_QDELAY_US	0	/* automatic: base RTT */
#define MRC_CC_DEF_BASE_RTT_WIN_US	10000000
#define MRC_CC_DEF_BURST_SEGS		16
#define MRC_CC_DEF_SLOW_START		1

/**
 * struct mrc_cc_params - tunables of the congestion control
 * @mss: segment size in bytes (the connection's payload per packet, or
 *	its wire size: whatever the caller counts in bytes); >= 1
 * @init_segs: initial window, in segments
 * @min_segs: smallest window, in segments (>= 1)
 * @max_cwnd: largest window, in bytes (about 1.5 x the plane's
 *	bandwidth-delay product, see mrc_cc_max_cwnd_for()); values above
 *	MRC_CC_CWND_LIMIT act as MRC_CC_CWND_LIMIT
 * @target_qdelay_us: queueing delay above which the window is cut (0:
 *	automatic, the base RTT but at least MRC_CC_TARGET_MIN_US)
 * @base_rtt_win_us: the base RTT is the smallest sample of the last one
 *	to two such periods (0: of all time)
 * @burst_segs: most segments sent back to back (mrc_cc_burst(); 0 counts
 *	as 1)
 * @slow_start: double the window per round until the first cut
 */
struct mrc_cc_params {
	u32 mss;
	u32 init_segs;
	u32 min_segs;
	u32 max_cwnd;
	u32 target_qdelay_us;
	u32 base_rtt_win_us;
	u16 burst_segs;
	u8 slow_start;
};

/**
 * struct mrc_cc - congestion state of one plane of a connection
 * @cwnd: congestion window, bytes
 * @in_flight: bytes sent and neither acknowledged nor declared lost
 * @ssthresh: slow start while @cwnd is below it (set to @cwnd at each
 *	cut; 0 without slow start)
 * @alpha: moving average of the marked fraction, MRC_CC_ALPHA_ONE = 1
 * @srtt_us: smoothed RTT (7/8 old + 1/8 sample; 0: no sample)
 * @base_rtt_us: windowed minimum RTT (0: no sample)
 * @base_cur_us: smallest sample of the current base RTT period
 * @base_prev_us: smallest sample of the previous one (0: none)
 * @base_epoch_us: when the current period began
 * @ai_bytes: acknowledged bytes not yet turned into additive increase
 * @round_target: bytes that end the round: in flight when it began,
 *	plus those sent before its first ACK or loss
 * @round_done: bytes acknowledged or declared lost in the round
 * @round_acked: bytes acknowledged in the round
 * @round_ce: of which CE-marked
 * @round_cwnd: @cwnd when the round began
 * @round_min_rtt_us: smallest RTT sample of the round, less the hosts'
 *	waits (0: none)
 * @round_start_us: when the round began (0: unknown, the first round)
 * @dlv_rate: bytes per millisecond acknowledged in the last round that
 *	had a known start and lasted at least the base RTT (0: none yet, or
 *	forgotten after a round longer than half the clock).  A round starts
 *	where the previous one ended: idle time counts, and lowers it
 * @round_ecn_cut: the ECN cut of this round happened
 * @round_open: the round has seen no ACK or loss yet: what is sent
 *	extends @round_target
 * @limited: bit 0: a send in this round left less than a segment of
 *	window; bit 1: in the previous round.  The window only grows when
 *	one is set
 * @rounds: rounds completed
 * @ecn_rounds: rounds with marks
 * @ecn_cuts: ECN cuts (at most one per round)
 * @delay_cuts: delay cuts that lowered the window (at most one per round)
 * @losses: mrc_cc_on_lost() calls
 * @lost_bytes: bytes declared lost
 */
struct mrc_cc {
	u32 cwnd;
	u32 in_flight;
	u32 ssthresh;
	u32 alpha;
	u32 srtt_us;
	u32 base_rtt_us;
	u32 base_cur_us;
	u32 base_prev_us;
	u32 base_epoch_us;
	u32 ai_bytes;
	u32 round_target;
	u32 round_done;
	u32 round_acked;
	u32 round_ce;
	u32 round_cwnd;
	u32 round_min_rtt_us;
	u32 round_start_us;
	u8 round_ecn_cut;
	u8 round_open;
	u8 limited;
	u32 dlv_rate;
	u64 rounds;
	u64 ecn_rounds;
	u64 ecn_cuts;
	u64 delay_cuts;
	u64 losses;
	u64 lost_bytes;
};

/**
 * mrc_cc_params_default() - fill in the recommended defaults
 * @p: the parameters
 * @mss: the segment size
 */
void mrc_cc_params_default(struct mrc_cc_params *p, u32 mss);

/**
 * mrc_cc_params_valid() - are these parameters consistent?
 * @p: the parameters
 *
 * For validating tunables before use: mss >= 1, 1 <= min_segs <=
 * init_segs, init_segs * mss <= max_cwnd <= MRC_CC_CWND_LIMIT,
 * target_qdelay_us and base_rtt_win_us below 2^31.  The other functions
 * do not rely on it (they clamp), but only valid parameters give the
 * documented behaviour.
 *
 * Return: true if valid.
 */
bool mrc_cc_params_valid(const struct mrc_cc_params *p);

/**
 * mrc_cc_max_cwnd_for() - 1.5 x the bandwidth-delay product
 * @mbps: link rate in Mbit/s
 * @rtt_us: base RTT in microseconds
 *
 * Return: 1.5 * @mbps * @rtt_us / 8 bytes, at most MRC_CC_CWND_LIMIT:
 * a value for &mrc_cc_params.max_cwnd.
 */
u32 mrc_cc_max_cwnd_for(u32 mbps, u32 rtt_us);

/**
 * mrc_cc_init() - start a plane's congestion control
 * @cc: the state
 * @p: parameters
 *
 * cwnd = init_segs * mss (within the bounds), nothing in flight, alpha =
 * 1 (the first marked round halves the window, as in DCTCP), no RTT
 * known, slow start if @p->slow_start, counters zero.
 */
void mrc_cc_init(struct mrc_cc *cc, const struct mrc_cc_params *p);

/**
 * mrc_cc_on_sent() - @bytes were sent on the plane
 * @cc: the state
 * @p: parameters
 * @bytes: their number (a retransmission counts too)
 */
void mrc_cc_on_sent(struct mrc_cc *cc, const struct mrc_cc_params *p,
		    u32 bytes);

/**
 * mrc_cc_on_ack_host() - an ACK acknowledged bytes sent on the plane
 * @cc: the state
 * @p: parameters
 * @acked_bytes: bytes of this plane newly acknowledged (they leave the
 *	flight; bytes already declared lost should not be included)
 * @ce_bytes: how many of them were CE-marked (clamped to @acked_bytes)
 * @rtt_us: an RTT sample of a packet of this plane (0: none)
 * @host_us: of which the packet and its ACK waited in the receiving
 *	hosts (0: not known)
 * @now_us: the time
 *
 * Updates the RTT estimates, cuts the window on the first marks of a
 * round, grows it, and ends the round if it is complete (alpha update,
 * delay cut).  An ACK with nothing acknowledged but an RTT sample only
 * updates the RTT estimates.  The smoothed and the base RTT take the
 * whole sample; the delay rule sees it less @host_us (at least 1 us).
 * A wait measured too long makes the round look fast: no delay cut in
 * that round (the base RTT, a minimum of whole samples, cannot fall).
 */
void mrc_cc_on_ack_host(struct mrc_cc *cc, const struct mrc_cc_params *p,
			u32 acked_bytes, u32 ce_bytes, u32 rtt_us, u32 host_us,
			u32 now_us);

/**
 * mrc_cc_on_ack() - mrc_cc_on_ack_host() without host waits
 * @cc: the state
 * @p: parameters
 * @acked_bytes: bytes of this plane newly acknowledged
 * @ce_bytes: how many of them were CE-marked
 * @rtt_us: an RTT sample of a packet of this plane (0: none)
 * @now_us: the time
 */
static inline void mrc_cc_on_ack(struct mrc_cc *cc,
				 const struct mrc_cc_params *p,
				 u32 acked_bytes, u32 ce_bytes, u32 rtt_us,
				 u32 now_us)
{
	mrc_cc_on_ack_host(cc, p, acked_bytes, ce_bytes, rtt_us, 0, now_us);
}

/**
 * mrc_cc_ce_bytes() - the bytes an ACK reports CE-marked
 * @seen: the highest count of the peer applied so far; advanced to
 *	@ce_count when that is ahead of it
 * @ce_count: the ACK's count of our packets the peer received CE-marked
 *	(wraps; counted since the connection began)
 * @nack: the ACK is a NACK of a packet a switch trimmed: one segment
 *	more, as if marked
 * @seg_size: bytes per segment
 *
 * ACKs may be lost and may arrive out of order, and one acknowledges up
 * to ack_every packets: a count ahead of @seen reports its whole
 * increase since @seen; a count not ahead of it (an older ACK) reports
 * nothing.  The caller passes the result to mrc_cc_on_ack() of the
 * plane of the ACK's trigger, which clamps it to the bytes acknowledged
 * there.
 *
 * Return: (increase + @nack) x @seg_size, at most U32_MAX.
 */
u32 mrc_cc_ce_bytes(u32 *seen, u32 ce_count, bool nack, u32 seg_size);

/**
 * mrc_cc_on_lost() - @bytes sent on the plane were declared lost
 * @cc: the state
 * @bytes: their number
 *
 * They leave the flight and count towards the end of the round; the
 * window does not change.
 */
void mrc_cc_on_lost(struct mrc_cc *cc, u32 bytes);

/**
 * mrc_cc_avail() - bytes the window still allows
 * @cc: the state
 *
 * Return: cwnd - in_flight, or 0 if in_flight >= cwnd.
 */
u32 mrc_cc_avail(const struct mrc_cc *cc);

/**
 * mrc_cc_burst() - bytes the caller may send back to back now
 * @cc: the state
 * @p: parameters
 *
 * Return: min(mrc_cc_avail(), burst_segs * mss).
 */
u32 mrc_cc_burst(const struct mrc_cc *cc, const struct mrc_cc_params *p);

/**
 * mrc_cc_pacing_rate() - a pacing rate for the plane
 * @cc: the state
 *
 * Return: bytes per second: cwnd / srtt times a gain (2 in slow start,
 * 5/4 otherwise, so pacing does not become the limit when the RTT
 * varies), or 0 before the first RTT sample (do not pace).
 */
u64 mrc_cc_pacing_rate(const struct mrc_cc *cc);

/**
 * mrc_cc_delivery_rate() - what the plane delivered in its last round
 * @cc: the state
 *
 * Unlike cwnd / srtt, this includes the queue a slow start is building
 * (the round's ACKs come at the bottleneck's pace) and what the sender
 * did not send (an application-limited round delivers less).
 *
 * Return: bytes per second acknowledged over the last complete round
 * that lasted at least the base RTT (the first round has no known start,
 * so not before the second round ends), or 0.
 */
u64 mrc_cc_delivery_rate(const struct mrc_cc *cc);

/**
 * mrc_cc_target_us() - the target queueing delay in use
 * @cc: the state
 * @p: parameters
 *
 * Return: @p->target_qdelay_us, or when it is 0 the base RTT (at least
 * MRC_CC_TARGET_MIN_US; MRC_CC_TARGET_MIN_US before any sample).
 */
u32 mrc_cc_target_us(const struct mrc_cc *cc, const struct mrc_cc_params *p);

#endif /* _MRC_CORE_CC_H */
