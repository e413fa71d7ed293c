// SPDX-License-Identifier: GPL-2.0
/*
 * core/cc.c - per-plane congestion control (see cc.h and
 * Documentation/mrc/cc.rst).
 *
 * Fractions are computed with 32-bit divisions only: the operands are
 * scaled down first when they are too large for the shifted numerator
 * to fit, which costs at most a few parts per million of precision.
 */
#include "types.h"
#include "cc.h"
#include "psn.h"

static u32 mrc_cc_mss(const struct mrc_cc_params *p)
{
	return p->mss ? p->mss : 1;
}

/* Smallest window in bytes. */
static u32 mrc_cc_lo(const struct mrc_cc_params *p)
{
	u64 lo = (u64)(p->min_segs ? p->min_segs : 1) * mrc_cc_mss(p);

	return lo > MRC_CC_CWND_LIMIT ? MRC_CC_CWND_LIMIT : (u32)lo;
}

/* Largest window in bytes (never below the smallest). */
static u32 mrc_cc_hi(const struct mrc_cc_params *p)
{
	u32 hi = p->max_cwnd < MRC_CC_CWND_LIMIT ? p->max_cwnd :
						   MRC_CC_CWND_LIMIT;
	u32 lo = mrc_cc_lo(p);

	return hi > lo ? hi : lo;
}

static u32 mrc_cc_clamp(u64 w, const struct mrc_cc_params *p)
{
	u32 lo = mrc_cc_lo(p), hi = mrc_cc_hi(p);

	if (w < lo)
		return lo;
	return w > hi ? hi : (u32)w;
}

static u32 mrc_cc_add_sat(u32 a, u32 b)
{
	return a + b < a ? ~0U : a + b;
}

/* @num / @den in units of 2^-20, for 0 <= @num <= @den, @den > 0. */
static u32 mrc_cc_frac(u32 num, u32 den)
{
	u32 q, r;

	while (den >= (1U << 22)) {
		num >>= 1;
		den >>= 1;
	}
	/* num <= den < 2^22: num << 10 and r << 10 fit in 32 bits */
	q = (num << 10) / den;
	r = (num << 10) % den;
	return (q << 10) + (r << 10) / den;
}

void mrc_cc_params_default(struct mrc_cc_params *p, u32 mss)
{
	p->mss = mss;
	p->init_segs = MRC_CC_DEF_INIT_SEGS;
	p->min_segs = MRC_CC_DEF_MIN_SEGS;
	p->max_cwnd = MRC_CC_DEF_MAX_CWND;
	p->target_qdelay_us = MRC_CC_DEF_TARGET_QDELAY_US;
	p->base_rtt_win_us = MRC_CC_DEF_BASE_RTT_WIN_US;
	p->burst_segs = MRC_CC_DEF_BURST_SEGS;
	p->slow_start = MRC_CC_DEF_SLOW_START;
}

bool mrc_cc_params_valid(const struct mrc_cc_params *p)
{
	return p->mss && p->min_segs && p->min_segs <= p->init_segs &&
	       (u64)p->init_segs * p->mss <= p->max_cwnd &&
	       p->max_cwnd <= MRC_CC_CWND_LIMIT &&
	       p->target_qdelay_us < (1U << 31) &&
	       p->base_rtt_win_us < (1U << 31);
}

u32 mrc_cc_max_cwnd_for(u32 mbps, u32 rtt_us)
{
	/* bytes = Mbit/s * us / 8; times 3/2 */
	u64 w = ((u64)mbps * rtt_us * 3) >> 4;

	return w > MRC_CC_CWND_LIMIT ? MRC_CC_CWND_LIMIT : (u32)w;
}

/*
 * Start a round now.  It ends when what is in flight, plus what is sent
 * before its first ACK or loss (the sender's answer to the ACK that
 * began it), has been acknowledged or declared lost: about one RTT.
 */
static void mrc_cc_round_start(struct mrc_cc *cc, u32 now)
{
	cc->round_start_us = now;
	cc->round_target = cc->in_flight;
	cc->round_open = 1;
	cc->round_done = 0;
	cc->round_acked = 0;
	cc->round_ce = 0;
	cc->round_cwnd = cc->cwnd;
	cc->round_min_rtt_us = 0;
	cc->round_ecn_cut = 0;
	cc->limited = (cc->limited & 1) << 1;
}

void mrc_cc_init(struct mrc_cc *cc, const struct mrc_cc_params *p)
{
	memset(cc, 0, sizeof(*cc));
	cc->cwnd = mrc_cc_clamp((u64)p->init_segs * mrc_cc_mss(p), p);
	cc->ssthresh = p->slow_start ? mrc_cc_hi(p) : 0;
	cc->alpha = MRC_CC_ALPHA_ONE;
	mrc_cc_round_start(cc, 0);
}

void mrc_cc_on_sent(struct mrc_cc *cc, const struct mrc_cc_params *p,
		    u32 bytes)
{
	cc->in_flight = mrc_cc_add_sat(cc->in_flight, bytes);
	if (cc->round_open)
		cc->round_target = mrc_cc_add_sat(cc->round_target, bytes);
	if ((u64)cc->in_flight + mrc_cc_mss(p) > cc->cwnd)
		cc->limited |= 1;
}

void mrc_cc_on_lost(struct mrc_cc *cc, u32 bytes)
{
	cc->in_flight -= bytes < cc->in_flight ? bytes : cc->in_flight;
	cc->round_done = mrc_cc_add_sat(cc->round_done, bytes);
	cc->round_open = 0;
	cc->losses++;
	cc->lost_bytes += bytes;
}

u32 mrc_cc_target_us(const struct mrc_cc *cc, const struct mrc_cc_params *p)
{
	if (p->target_qdelay_us)
		return p->target_qdelay_us;
	return cc->base_rtt_us > MRC_CC_TARGET_MIN_US ? cc->base_rtt_us :
							MRC_CC_TARGET_MIN_US;
}

/*
 * An RTT sample, of which @host waiting in hosts: smoothed RTT, windowed
 * minimum, the round's minimum.
 */
static void mrc_cc_rtt(struct mrc_cc *cc, const struct mrc_cc_params *p,
		       u32 rtt, u32 host, u32 now)
{
	u32 age = now - cc->base_epoch_us, q;

	cc->srtt_us = cc->srtt_us ?
		(u32)((7ULL * cc->srtt_us + rtt + 4) >> 3) : rtt;

	/*
	 * Two periods: the minimum of the current one and of the previous.
	 * A time before the period's start means the clock wrapped during a
	 * long silence: start a new period then too.
	 */
	if (!cc->base_cur_us) {
		cc->base_cur_us = rtt;
		cc->base_epoch_us = now;
	} else if (p->base_rtt_win_us &&
		   ((s32)age < 0 || age >= p->base_rtt_win_us)) {
		cc->base_prev_us = cc->base_cur_us;
		cc->base_cur_us = rtt;
		cc->base_epoch_us = now;
	} else if (rtt < cc->base_cur_us) {
		cc->base_cur_us = rtt;
	}
	cc->base_rtt_us = cc->base_prev_us && cc->base_prev_us < cc->base_cur_us ?
			  cc->base_prev_us : cc->base_cur_us;

	/* (at least 1: 0 is "no sample"; it is below any threshold) */
	q = rtt > host ? rtt - host : 1;
	if (!cc->round_min_rtt_us || q < cc->round_min_rtt_us)
		cc->round_min_rtt_us = q;
}

/* Window growth for @acked bytes: slow start or additive increase. */
static void mrc_cc_grow(struct mrc_cc *cc, const struct mrc_cc_params *p,
			u32 acked)
{
	u32 mss = mrc_cc_mss(p), n;
	u64 w;

	if (cc->cwnd < cc->ssthresh) {
		w = (u64)cc->cwnd + acked;
		if (w > cc->ssthresh)
			w = cc->ssthresh;
		cc->cwnd = mrc_cc_clamp(w, p);
		return;
	}
	/*
	 * One segment per cwnd bytes acknowledged.  ai_bytes < 2^30 (it was
	 * below a window, perhaps a larger one before a cut), and so is the
	 * remainder: no overflow.
	 */
	cc->ai_bytes += acked % cc->cwnd;
	n = acked / cc->cwnd + cc->ai_bytes / cc->cwnd;
	cc->ai_bytes %= cc->cwnd;
	if (n)
		cc->cwnd = mrc_cc_clamp((u64)cc->cwnd + (u64)n * mss, p);
}

/*
 * A cut: the window is @w now; slow start is over.  The progress towards
 * the next additive increase is kept (cuts may come every round).
 */
static void mrc_cc_cut(struct mrc_cc *cc, const struct mrc_cc_params *p, u64 w)
{
	cc->cwnd = mrc_cc_clamp(w, p);
	cc->ssthresh = cc->cwnd;
}

/* Delay reaction at the end of a round. */
static void mrc_cc_delay(struct mrc_cc *cc, const struct mrc_cc_params *p)
{
	u32 target = mrc_cc_target_us(cc, p);
	u64 thresh = (u64)cc->base_rtt_us + target;
	u32 excess, f;
	u64 w;

	if (!cc->round_min_rtt_us || !cc->base_rtt_us ||
	    cc->round_min_rtt_us <= thresh)
		return;
	excess = cc->round_min_rtt_us - (u32)thresh;
	/* f = min(1, excess / target) in units of 2^-10 */
	if (excess >= target) {
		f = 1024;
	} else {
		while (target >= (1U << 22)) {
			target >>= 1;
			excess >>= 1;
		}
		f = (excess << 10) / target;
	}
	/* beta = 1/2 */
	w = (u64)cc->round_cwnd - (((u64)cc->round_cwnd * f) >> 11);
	if (w < cc->cwnd) {
		mrc_cc_cut(cc, p, w);
		cc->delay_cuts++;
	}
}

/*
 * @bytes per @us microseconds (not 0) in bytes per @unit us, 32-bit
 * divisions only: q * unit + r * unit / us, where r < us, and us (with r)
 * halved until it is below 2^@bits, chosen so that r * unit < 2^32.
 */
static u64 mrc_cc_rate(u32 bytes, u32 us, u32 unit, unsigned int bits)
{
	u32 q = bytes / us, r = bytes % us;

	while (us >> bits) {
		us >>= 1;
		r >>= 1;
	}
	return (u64)q * unit + r * unit / us;
}

static void mrc_cc_round_end(struct mrc_cc *cc, const struct mrc_cc_params *p,
			     u32 now)
{
	u32 f, dt = now - cc->round_start_us;

	cc->rounds++;
	/*
	 * A round shorter than the base RTT was acknowledged in one batch
	 * of ACKs, not at the bottleneck's pace: no sample (as TCP ignores a
	 * delivery interval below min_rtt, tcp_rate_gen()).  A round whose
	 * start is unknown (the first) or that outlasted half the clock
	 * (about 36 minutes) says nothing either: a wrapped clock would
	 * overstate the rate, so an old rate is forgotten.
	 */
	if (!cc->round_start_us || (s32)dt <= 0) {
		cc->dlv_rate = 0;
	} else if (cc->base_rtt_us && dt >= cc->base_rtt_us) {
		/* bytes per ms (2^22 * 1000 < 2^32), saturated */
		u64 rate = mrc_cc_rate(cc->round_acked, dt, 1000, 22);

		cc->dlv_rate = rate > U32_MAX ? U32_MAX : (u32)rate;
	}
	if (cc->round_acked) {
		f = mrc_cc_frac(cc->round_ce, cc->round_acked);
		cc->alpha = cc->alpha - (cc->alpha >> MRC_CC_G_SHIFT) +
			    (f >> MRC_CC_G_SHIFT);
		if (cc->round_ce)
			cc->ecn_rounds++;
	}
	mrc_cc_delay(cc, p);
	/* 0 is "unknown": a clock that reads 0 starts the round at 1 us */
	mrc_cc_round_start(cc, now ? now : 1);
}

void mrc_cc_on_ack_host(struct mrc_cc *cc, const struct mrc_cc_params *p,
			u32 acked_bytes, u32 ce_bytes, u32 rtt_us, u32 host_us,
			u32 now_us)
{
	if (ce_bytes > acked_bytes)
		ce_bytes = acked_bytes;
	cc->in_flight -= acked_bytes < cc->in_flight ? acked_bytes :
						       cc->in_flight;
	if (rtt_us)
		mrc_cc_rtt(cc, p, rtt_us, host_us, now_us);
	cc->round_acked = mrc_cc_add_sat(cc->round_acked, acked_bytes);
	cc->round_ce = mrc_cc_add_sat(cc->round_ce, ce_bytes);
	cc->round_done = mrc_cc_add_sat(cc->round_done, acked_bytes);
	cc->round_open = 0;

	if (ce_bytes && !cc->round_ecn_cut) {
		/* cwnd (1 - alpha / 2), once per round */
		cc->round_ecn_cut = 1;
		cc->ecn_cuts++;
		mrc_cc_cut(cc, p, cc->cwnd -
			   (((u64)cc->cwnd * cc->alpha) >>
			    (MRC_CC_ALPHA_SHIFT + 1)));
	} else if (acked_bytes && cc->limited) {
		mrc_cc_grow(cc, p, acked_bytes);
	}
	/* The parameters may have changed since the last call. */
	cc->cwnd = mrc_cc_clamp(cc->cwnd, p);

	if (cc->round_done && cc->round_done >= cc->round_target)
		mrc_cc_round_end(cc, p, now_us);
}

u32 mrc_cc_ce_bytes(u32 *seen, u32 ce_count, bool nack, u32 seg_size)
{
	u64 segs = nack;

	if (mrc_psn_after(ce_count, *seen)) {
		segs += ce_count - *seen;
		*seen = ce_count;
	}
	segs *= seg_size;
	return segs > U32_MAX ? U32_MAX : (u32)segs;
}

u32 mrc_cc_avail(const struct mrc_cc *cc)
{
	return cc->cwnd > cc->in_flight ? cc->cwnd - cc->in_flight : 0;
}

u32 mrc_cc_burst(const struct mrc_cc *cc, const struct mrc_cc_params *p)
{
	u64 b = (u64)(p->burst_segs ? p->burst_segs : 1) * mrc_cc_mss(p);
	u32 avail = mrc_cc_avail(cc);

	return b < avail ? (u32)b : avail;
}

u64 mrc_cc_delivery_rate(const struct mrc_cc *cc)
{
	return (u64)cc->dlv_rate * 1000;
}

u64 mrc_cc_pacing_rate(const struct mrc_cc *cc)
{
	u64 rate;

	if (!cc->srtt_us)
		return 0;
	/* cwnd per second (2^12 * 10^6 < 2^32) */
	rate = mrc_cc_rate(cc->cwnd, cc->srtt_us, 1000000, 12);
	if (cc->cwnd < cc->ssthresh)
		return rate * 2;
	return rate + (rate >> 2);
}
