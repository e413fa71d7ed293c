/* SPDX-License-Identifier: GPL-2.0 */
/*
 * core/rtt.h - round-trip time estimation and the retransmission timeout
 * (RFC 6298, in microseconds).
 */
#ifndef _MRC_CORE_RTT_H
#define _MRC_CORE_RTT_H

#include "types.h"

/**
 * struct mrc_rtt - smoothed RTT state
 * @srtt_us: smoothed RTT (0: no sample yet)
 * @rttvar_us: RTT variation
 * @min_us: smallest sample seen (0: none)
 * @latest_us: latest sample
 * @max_ack_delay_us: the longest the peer may hold an ACK on purpose;
 *	samples exclude it (the ACK says how long it waited), so the RTO
 *	adds it, as QUIC's PTO adds max_ack_delay
 */
struct mrc_rtt {
	u32 srtt_us;
	u32 rttvar_us;
	u32 min_us;
	u32 latest_us;
	u32 max_ack_delay_us;
};

/**
 * mrc_rtt_sample() - feed one RTT sample
 * @r: the estimator
 * @sample_us: the sample (0 is treated as 1)
 *
 * First sample: srtt = sample, rttvar = sample / 2.  Then
 * rttvar = 3/4 rttvar + 1/4 |srtt - sample|, srtt = 7/8 srtt + 1/8 sample.
 */
void mrc_rtt_sample(struct mrc_rtt *r, u32 sample_us);

/**
 * mrc_rtt_ack_delay() - how much of an ACK's reported delay a sample
 *	may leave out
 * @r: the estimator (its @max_ack_delay_us)
 * @reported_us: the delay the ACK reports (how long its receiver held it)
 * @floor_us: what any ACK may be held (the delayed-ACK bound)
 *
 * As RFC 9002 5.3: at most the larger of @max_ack_delay_us and
 * @floor_us.  A hold beyond that (a late timer, a busy host) stays in the
 * sample, so srtt and rttvar learn it and the RTO, which adds only
 * @max_ack_delay_us, covers it.
 *
 * Return: min(@reported_us, max(@max_ack_delay_us, @floor_us)).
 */
u32 mrc_rtt_ack_delay(const struct mrc_rtt *r, u32 reported_us, u32 floor_us);

/**
 * mrc_rtt_rto() - the retransmission timeout
 * @r: the estimator
 * @min_us: lower bound (the rto-min tunable)
 * @max_us: upper bound
 * @initial_us: value before the first sample
 * @backoff: number of consecutive timeouts (doubles the result each,
 *	still capped at @max_us)
 *
 * Return: clamp(srtt + max(4 * rttvar, 1000) + max_ack_delay, min, max)
 * << backoff, capped at @max_us; without a sample @initial_us << backoff,
 * capped.
 */
u32 mrc_rtt_rto(const struct mrc_rtt *r, u32 min_us, u32 max_us,
		u32 initial_us, u32 backoff);

#endif /* _MRC_CORE_RTT_H */
