// SPDX-License-Identifier: GPL-2.0
/*
 * core/rtt.c - RTT estimation and retransmission timeout (RFC 6298).
 *
 * Integer microseconds.  The averages are computed in 64 bits (no
 * overflow for any u32 input) and rounded to the nearest microsecond,
 * so that a steady RTT is tracked to within a few microseconds rather
 * than the up to 7 that truncation would lose.
 */
#include "types.h"
#include "rtt.h"

/* Lower bound of the variation term of the RTO (RFC 6298's G). */
#define MRC_RTO_VAR_MIN_US	1000

void mrc_rtt_sample(struct mrc_rtt *r, u32 sample_us)
{
	u32 s = sample_us ? sample_us : 1;
	u32 delta;

	r->latest_us = s;
	if (!r->min_us || s < r->min_us)
		r->min_us = s;

	if (!r->srtt_us) {
		r->srtt_us = s;
		r->rttvar_us = s / 2;
		return;
	}
	delta = r->srtt_us > s ? r->srtt_us - s : s - r->srtt_us;
	/* rttvar = 3/4 rttvar + 1/4 delta; srtt = 7/8 srtt + 1/8 s */
	r->rttvar_us = (u32)((3ULL * r->rttvar_us + delta + 2) >> 2);
	/* >= 1 as both srtt and s are: "no sample" is never reached again. */
	r->srtt_us = (u32)((7ULL * r->srtt_us + s + 4) >> 3);
}

u32 mrc_rtt_ack_delay(const struct mrc_rtt *r, u32 reported_us, u32 floor_us)
{
	u32 cap = r->max_ack_delay_us > floor_us ? r->max_ack_delay_us : floor_us;

	return reported_us < cap ? reported_us : cap;
}

u32 mrc_rtt_rto(const struct mrc_rtt *r, u32 min_us, u32 max_us,
		u32 initial_us, u32 backoff)
{
	u64 rto;

	if (r->srtt_us) {
		u64 var = 4ULL * r->rttvar_us;

		if (var < MRC_RTO_VAR_MIN_US)
			var = MRC_RTO_VAR_MIN_US;
		rto = r->srtt_us + var + r->max_ack_delay_us;
		if (rto < min_us)
			rto = min_us;
		if (rto > max_us)
			rto = max_us;
	} else {
		rto = initial_us;
	}

	/*
	 * rto < 2^32 here, so a shift by up to 32 cannot overflow 64 bits
	 * and already exceeds any u32 max_us (unless rto is 0).
	 */
	if (backoff > 32)
		backoff = 32;
	rto <<= backoff;
	return rto > max_us ? max_us : (u32)rto;
}
