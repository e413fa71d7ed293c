// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of core/rtt.c: RFC 6298 arithmetic on known sequences, the
 * rounding bound on random ones, clamps, and the exponential backoff
 * (capped, and free of overflow or undefined shifts for any backoff).
 */
#include "unit.h"
#include "core/rtt.h"

#define MIN_US	200
#define MAX_US	60000000U
#define INIT_US	1000000U

TEST(rtt_first_sample)
{
	struct mrc_rtt r = { 0 };

	EXPECT_EQ(INIT_US, mrc_rtt_rto(&r, MIN_US, MAX_US, INIT_US, 0));
	mrc_rtt_sample(&r, 100);
	EXPECT_EQ(100U, r.srtt_us);
	EXPECT_EQ(50U, r.rttvar_us);
	EXPECT_EQ(100U, r.min_us);
	EXPECT_EQ(100U, r.latest_us);
	/* 100 + max(4 * 50, 1000) */
	EXPECT_EQ(1100U, mrc_rtt_rto(&r, MIN_US, MAX_US, INIT_US, 0));

	memset(&r, 0, sizeof(r));
	mrc_rtt_sample(&r, 10000);
	EXPECT_EQ(10000U, r.srtt_us);
	EXPECT_EQ(5000U, r.rttvar_us);
	EXPECT_EQ(30000U, mrc_rtt_rto(&r, MIN_US, MAX_US, INIT_US, 0));
}

TEST(rtt_zero_sample_is_one)
{
	struct mrc_rtt r = { 0 };

	mrc_rtt_sample(&r, 0);
	EXPECT_EQ(1U, r.srtt_us);
	EXPECT_EQ(0U, r.rttvar_us);
	EXPECT_EQ(1U, r.min_us);
	EXPECT_EQ(1U, r.latest_us);
	mrc_rtt_sample(&r, 0);
	EXPECT_EQ(1U, r.srtt_us);	/* never back to "no sample" */
	EXPECT_EQ(1001U, mrc_rtt_rto(&r, 0, MAX_US, INIT_US, 0));
}

/* A sequence worked out by hand (rounded to the nearest microsecond). */
TEST(rtt_known_sequence)
{
	static const struct {
		u32 sample, srtt, rttvar, min, rto;
	} seq[] = {
		/* first: srtt = s, rttvar = s / 2 */
		{ 8000, 8000, 4000, 8000, 24000 },
		/* delta 0: var = 12000 / 4, srtt = (56000 + 8000) / 8 */
		{ 8000, 8000, 3000, 8000, 20000 },
		/* delta 16000: var = (9000 + 16000) / 4 = 6250, srtt = 10000 */
		{ 24000, 10000, 6250, 8000, 35000 },
		/* delta 6000: var = (18750 + 6000) / 4 = 6187.5 -> 6188,
		 * srtt = (70000 + 4000) / 8 = 9250
		 */
		{ 4000, 9250, 6188, 4000, 34002 },
		/* delta 9249: var = (18564 + 9249) / 4 = 6953.25 -> 6953,
		 * srtt = (64750 + 1) / 8 = 8093.875 -> 8094
		 */
		{ 1, 8094, 6953, 1, 35906 },
	};
	struct mrc_rtt r = { 0 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(seq); i++) {
		mrc_rtt_sample(&r, seq[i].sample);
		EXPECT_EQ(seq[i].srtt, r.srtt_us) {
			TH_LOG("step %u", i);
		}
		EXPECT_EQ(seq[i].rttvar, r.rttvar_us) {
			TH_LOG("step %u", i);
		}
		EXPECT_EQ(seq[i].min, r.min_us);
		EXPECT_EQ(seq[i].sample, r.latest_us);
		EXPECT_EQ(seq[i].rto, mrc_rtt_rto(&r, MIN_US, MAX_US, INIT_US, 0));
	}
}

/* A steady RTT: srtt converges to within rounding, rttvar decays. */
TEST(rtt_converges)
{
	struct mrc_rtt r = { 0 };
	int i;

	mrc_rtt_sample(&r, 50);
	for (i = 0; i < 200; i++)
		mrc_rtt_sample(&r, 500);
	EXPECT_LE(497U, r.srtt_us);
	EXPECT_GE(503U, r.srtt_us);
	EXPECT_GE(6U, r.rttvar_us);
	EXPECT_EQ(50U, r.min_us);
	/* The variation term never goes below 1 ms. */
	EXPECT_EQ(r.srtt_us + 1000, mrc_rtt_rto(&r, 0, MAX_US, INIT_US, 0));
}

/*
 * Property: each update is RFC 6298's formula, exact up to rounding to
 * the nearest microsecond, without overflow for any u32 state or sample.
 */
TEST(rtt_matches_formula)
{
	u32 srtt, var, s, delta;
	struct mrc_rtt r;
	s64 e8, e4;
	int i;

	unit_seed();
	for (i = 0; i < 1000000; i++) {
		u32 shift = unit_rand32() % 33;

		r.srtt_us = (u32)(unit_rand64() >> (32 + shift % 32)) | 1;
		r.rttvar_us = unit_rand32() >> (unit_rand32() % 32);
		r.min_us = unit_rand32();
		r.latest_us = 0;
		s = unit_rand32() >> (unit_rand32() % 32);
		srtt = r.srtt_us;
		var = r.rttvar_us;
		mrc_rtt_sample(&r, s);
		if (!s)
			s = 1;
		delta = srtt > s ? srtt - s : s - srtt;
		/* 8 * srtt' within 4 of 7 srtt + s; 4 * var' within 2 of 3 var + delta */
		e8 = 8 * (s64)r.srtt_us - (7 * (s64)srtt + s);
		e4 = 4 * (s64)r.rttvar_us - (3 * (s64)var + delta);
		ASSERT_TRUE(e8 >= -4 && e8 <= 4) {
			TH_LOG("srtt %u s %u -> %u", srtt, s, r.srtt_us);
		}
		ASSERT_TRUE(e4 >= -2 && e4 <= 2) {
			TH_LOG("var %u d %u -> %u", var, delta, r.rttvar_us);
		}
		ASSERT_NE(0U, r.srtt_us);
		ASSERT_EQ(s, r.latest_us);
	}
}

TEST(rtt_clamps)
{
	struct mrc_rtt r = { 0 };

	mrc_rtt_sample(&r, 10);		/* rto would be 1010 */
	EXPECT_EQ(200000U, mrc_rtt_rto(&r, 200000, MAX_US, INIT_US, 0));
	EXPECT_EQ(1010U, mrc_rtt_rto(&r, 1000, MAX_US, INIT_US, 0));
	EXPECT_EQ(500U, mrc_rtt_rto(&r, 100, 500, INIT_US, 0));
	/* min above max: max wins */
	EXPECT_EQ(500U, mrc_rtt_rto(&r, 900, 500, INIT_US, 0));

	/* Huge values do not overflow the sum. */
	r.srtt_us = 0xffffffffU;
	r.rttvar_us = 0xffffffffU;
	EXPECT_EQ(0xffffffffU, mrc_rtt_rto(&r, 0, 0xffffffffU, INIT_US, 0));
	EXPECT_EQ(MAX_US, mrc_rtt_rto(&r, 0, MAX_US, INIT_US, 0));
	mrc_rtt_sample(&r, 0xffffffffU);
	EXPECT_EQ(0xffffffffU, r.srtt_us);
	EXPECT_EQ(0xbfffffffU, r.rttvar_us);	/* 3/4 of it, delta 0 */

	/* Without a sample: the initial value, capped but not raised. */
	memset(&r, 0, sizeof(r));
	EXPECT_EQ(300U, mrc_rtt_rto(&r, 1000, MAX_US, 300, 0));
	EXPECT_EQ(5000U, mrc_rtt_rto(&r, 0, 5000, INIT_US, 0));
}

/* The peer's longest ACK delay is added to the RTO (not to the samples). */
TEST(rtt_max_ack_delay)
{
	struct mrc_rtt r = { 0 };

	mrc_rtt_sample(&r, 20000);	/* 20000 + 4 x 10000 */
	EXPECT_EQ(60000U, mrc_rtt_rto(&r, MIN_US, MAX_US, INIT_US, 0));
	r.max_ack_delay_us = 10000;
	EXPECT_EQ(70000U, mrc_rtt_rto(&r, MIN_US, MAX_US, INIT_US, 0));
	EXPECT_EQ(140000U, mrc_rtt_rto(&r, MIN_US, MAX_US, INIT_US, 1));
	EXPECT_EQ(20000U, r.srtt_us);
	/* the floor still applies to the sum; no overflow at the extremes */
	EXPECT_EQ(200000U, mrc_rtt_rto(&r, 200000, MAX_US, INIT_US, 0));
	r.srtt_us = 0xffffffffU;
	r.rttvar_us = 0xffffffffU;
	r.max_ack_delay_us = 0xffffffffU;
	EXPECT_EQ(0xffffffffU, mrc_rtt_rto(&r, 0, 0xffffffffU, INIT_US, 0));
	/* no sample: the initial value alone */
	memset(&r, 0, sizeof(r));
	r.max_ack_delay_us = 10000;
	EXPECT_EQ(INIT_US, mrc_rtt_rto(&r, 0, MAX_US, INIT_US, 0));
}

/*
 * An ACK's reported delay counts up to the peer's max_ack_delay (or the
 * delayed-ACK bound when larger): the rest of a longer hold is RTT.
 */
TEST(rtt_ack_delay)
{
	struct mrc_rtt r = { 0 };

	EXPECT_EQ(150U, mrc_rtt_ack_delay(&r, 150, 200));
	EXPECT_EQ(200U, mrc_rtt_ack_delay(&r, 200, 200));
	EXPECT_EQ(200U, mrc_rtt_ack_delay(&r, 4000, 200));
	EXPECT_EQ(200U, mrc_rtt_ack_delay(&r, 0xffffffffU, 200));
	r.max_ack_delay_us = 10000;
	EXPECT_EQ(4000U, mrc_rtt_ack_delay(&r, 4000, 200));
	EXPECT_EQ(10000U, mrc_rtt_ack_delay(&r, 10000, 200));
	/* a timer 3 ms late: 3 ms of the hold are RTT */
	EXPECT_EQ(10000U, mrc_rtt_ack_delay(&r, 13000, 200));
	EXPECT_EQ(0U, mrc_rtt_ack_delay(&r, 0, 200));
	EXPECT_EQ(20000U, mrc_rtt_ack_delay(&r, 30000, 20000));
}

TEST(rtt_backoff)
{
	struct mrc_rtt r = { 0 };
	u32 b, prev = 0, rto;

	mrc_rtt_sample(&r, 1000);	/* 1000 + 2000 */
	for (b = 0; b < 10; b++)
		EXPECT_EQ(3000U << b, mrc_rtt_rto(&r, MIN_US, MAX_US, INIT_US, b));
	/* 3000 << 15 = 98304000 > MAX_US */
	EXPECT_EQ(MAX_US, mrc_rtt_rto(&r, MIN_US, MAX_US, INIT_US, 15));
	for (b = 0; b < 200; b++) {
		rto = mrc_rtt_rto(&r, MIN_US, MAX_US, INIT_US, b);
		EXPECT_LE(prev, rto);
		EXPECT_GE(MAX_US, rto);
		prev = rto;
	}
	EXPECT_EQ(MAX_US, mrc_rtt_rto(&r, MIN_US, MAX_US, INIT_US, 31));
	EXPECT_EQ(MAX_US, mrc_rtt_rto(&r, MIN_US, MAX_US, INIT_US, 32));
	EXPECT_EQ(MAX_US, mrc_rtt_rto(&r, MIN_US, MAX_US, INIT_US, 33));
	EXPECT_EQ(MAX_US, mrc_rtt_rto(&r, MIN_US, MAX_US, INIT_US, 0xffffffffU));
	/* The largest cap, the smallest value: 1 << 31, then capped. */
	memset(&r, 0, sizeof(r));
	EXPECT_EQ(0x80000000U, mrc_rtt_rto(&r, 0, 0xffffffffU, 1, 31));
	EXPECT_EQ(0xffffffffU, mrc_rtt_rto(&r, 0, 0xffffffffU, 1, 32));
	EXPECT_EQ(0xffffffffU, mrc_rtt_rto(&r, 0, 0xffffffffU, 0xffffffffU, 0xffffffffU));
	EXPECT_EQ(INIT_US << 3, mrc_rtt_rto(&r, MIN_US, MAX_US, INIT_US, 3));
	EXPECT_EQ(MAX_US, mrc_rtt_rto(&r, MIN_US, MAX_US, INIT_US, 6));
	EXPECT_EQ(0U, mrc_rtt_rto(&r, 0, MAX_US, 0, 40));
}

TEST_HARNESS_MAIN
