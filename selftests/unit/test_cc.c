// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of core/cc.c: initial values, additive increase of one
 * segment per RTT, slow start, no growth when application-limited, the
 * ECN cut (once per round, by alpha / 2), alpha converging to a constant
 * marked fraction (exact and random marking) and the window settling
 * lower the larger it is, the delay cut (once per round, proportional,
 * not fooled by one slow sample, not compounded with the ECN cut), the
 * windowed base RTT across the clock's wrap, loss never shrinking the
 * window, bounds/avail/burst on random operation sequences, pacing.
 *
 * "sim" below is a sender that keeps its window full over a path with a
 * fixed RTT: each ACK acknowledges the oldest packet one RTT after it
 * was sent, and the sender refills the window at once.
 */
#include "unit.h"
#include "core/cc.h"

#define MSS	1000
#define QN	8192
#define ONE	((u32)MRC_CC_ALPHA_ONE)

static void params(struct mrc_cc_params *p, bool slow_start)
{
	mrc_cc_params_default(p, MSS);
	p->slow_start = slow_start;
	p->max_cwnd = 4000 * MSS;
}

struct sim {
	struct mrc_cc cc;
	struct mrc_cc_params p;
	u32 sent_at[QN];
	u32 head, tail;		/* packets in flight: [head, tail) */
	u32 now;
	u32 rtt;
	u64 acks;
};

static void sim_fill(struct sim *s)
{
	while (mrc_cc_avail(&s->cc) >= s->p.mss && s->tail - s->head < QN) {
		mrc_cc_on_sent(&s->cc, &s->p, s->p.mss);
		s->sent_at[s->tail++ % QN] = s->now;
	}
}

static void sim_init(struct sim *s, const struct mrc_cc_params *p, u32 rtt,
		     u32 now)
{
	memset(s, 0, sizeof(*s));
	s->p = *p;
	s->rtt = rtt;
	s->now = now;
	mrc_cc_init(&s->cc, &s->p);
	sim_fill(s);
}

/* ACK the oldest packet, @ce of its bytes marked, @extra us of queueing. */
static void sim_ack(struct sim *s, u32 ce, u32 extra)
{
	u32 sent = s->sent_at[s->head++ % QN];
	u32 t = sent + s->rtt + extra;

	if ((s32)(t - s->now) > 0)
		s->now = t;
	mrc_cc_on_ack(&s->cc, &s->p, s->p.mss, ce, s->now - sent, s->now);
	s->acks++;
	sim_fill(s);
}

/* Run the sim until @us of its time have passed, marks per @ce_permille. */
static void sim_run(struct sim *s, u32 us, u32 ce_permille)
{
	u32 end = s->now + us;

	while ((s32)(s->now - end) < 0)
		sim_ack(s, s->p.mss * ce_permille / 1000, 0);
}

/* Send @n segments, then acknowledge them one by one (RTT @rtt). */
static void batch(struct mrc_cc *cc, const struct mrc_cc_params *p, u32 n,
		  u32 ce, u32 rtt, u32 *now)
{
	u32 i;

	for (i = 0; i < n; i++)
		mrc_cc_on_sent(cc, p, p->mss);
	for (i = 0; i < n; i++) {
		*now += 1;
		mrc_cc_on_ack(cc, p, p->mss, ce, rtt, *now);
	}
}

/* batch() without marks, @host_us of each @rtt spent in the hosts. */
static void batch_host(struct mrc_cc *cc, const struct mrc_cc_params *p,
		       u32 n, u32 rtt, u32 host_us, u32 *now)
{
	u32 i;

	for (i = 0; i < n; i++)
		mrc_cc_on_sent(cc, p, p->mss);
	for (i = 0; i < n; i++) {
		*now += 1;
		mrc_cc_on_ack_host(cc, p, p->mss, 0, rtt, host_us, *now);
	}
}

/* @n segments sent, then acknowledged one by one, @gap us apart. */
static void spaced(struct mrc_cc *cc, const struct mrc_cc_params *p, u32 n,
		   u32 gap, u32 *now)
{
	u32 i;

	for (i = 0; i < n; i++)
		mrc_cc_on_sent(cc, p, p->mss);
	for (i = 0; i < n; i++) {
		*now += gap;
		mrc_cc_on_ack(cc, p, p->mss, 0, 100, *now);
	}
}

TEST(cc_init)
{
	struct mrc_cc_params p;
	struct mrc_cc cc;

	mrc_cc_params_default(&p, 1400);
	ASSERT_TRUE(mrc_cc_params_valid(&p));
	EXPECT_EQ(1400U, p.mss);
	EXPECT_EQ((u32)MRC_CC_DEF_INIT_SEGS, p.init_segs);
	EXPECT_EQ((u32)MRC_CC_DEF_MIN_SEGS, p.min_segs);
	EXPECT_EQ((u32)MRC_CC_DEF_MAX_CWND, p.max_cwnd);
	EXPECT_EQ(0U, p.target_qdelay_us);
	EXPECT_EQ((u32)MRC_CC_DEF_BASE_RTT_WIN_US, p.base_rtt_win_us);
	EXPECT_EQ(MRC_CC_DEF_BURST_SEGS, p.burst_segs);
	EXPECT_EQ(1, p.slow_start);

	memset(&cc, 0x5a, sizeof(cc));
	mrc_cc_init(&cc, &p);
	EXPECT_EQ(14000U, cc.cwnd);
	EXPECT_EQ(0U, cc.in_flight);
	EXPECT_EQ(p.max_cwnd, cc.ssthresh);
	EXPECT_EQ(ONE, cc.alpha);
	EXPECT_EQ(0U, cc.srtt_us);
	EXPECT_EQ(0U, cc.base_rtt_us);
	EXPECT_EQ(0ULL, cc.rounds + cc.ecn_rounds + cc.ecn_cuts +
		  cc.delay_cuts + cc.losses + cc.lost_bytes);
	EXPECT_EQ(14000U, mrc_cc_avail(&cc));
	EXPECT_EQ(14000U, mrc_cc_burst(&cc, &p));	/* < 16 segments */
	EXPECT_EQ(0ULL, mrc_cc_pacing_rate(&cc));
	EXPECT_EQ((u32)MRC_CC_TARGET_MIN_US, mrc_cc_target_us(&cc, &p));

	/* Without slow start; initial window clamped into the bounds. */
	p.slow_start = 0;
	p.init_segs = 0;
	mrc_cc_init(&cc, &p);
	EXPECT_EQ(0U, cc.ssthresh);
	EXPECT_EQ(2U * 1400, cc.cwnd);
	p.init_segs = 100000;
	mrc_cc_init(&cc, &p);
	EXPECT_EQ(p.max_cwnd, cc.cwnd);
	p.max_cwnd = 0;		/* below the minimum: the minimum wins */
	mrc_cc_init(&cc, &p);
	EXPECT_EQ(2U * 1400, cc.cwnd);
}

TEST(cc_params_valid)
{
	struct mrc_cc_params p, q;

	mrc_cc_params_default(&p, 9000);
	ASSERT_TRUE(mrc_cc_params_valid(&p));
	q = p;
	q.mss = 0;
	EXPECT_FALSE(mrc_cc_params_valid(&q));
	q = p;
	q.min_segs = 0;
	EXPECT_FALSE(mrc_cc_params_valid(&q));
	q = p;
	q.min_segs = q.init_segs + 1;
	EXPECT_FALSE(mrc_cc_params_valid(&q));
	q = p;
	q.max_cwnd = q.init_segs * q.mss - 1;
	EXPECT_FALSE(mrc_cc_params_valid(&q));
	q.max_cwnd++;
	EXPECT_TRUE(mrc_cc_params_valid(&q));
	q = p;
	q.max_cwnd = MRC_CC_CWND_LIMIT + 1;
	EXPECT_FALSE(mrc_cc_params_valid(&q));
	q = p;
	q.init_segs = 0x80000000U;	/* init_segs * mss overflows 32 bits */
	EXPECT_FALSE(mrc_cc_params_valid(&q));
	q = p;
	q.target_qdelay_us = 0x80000000U;
	EXPECT_FALSE(mrc_cc_params_valid(&q));
	q = p;
	q.base_rtt_win_us = 0x80000000U;
	EXPECT_FALSE(mrc_cc_params_valid(&q));
	q = p;
	q.burst_segs = 0;	/* counts as 1 */
	EXPECT_TRUE(mrc_cc_params_valid(&q));
}

TEST(cc_max_cwnd_for)
{
	/* 100 Gb/s, 10 us: BDP 125000 bytes, 1.5 x = 187500 */
	EXPECT_EQ(187500U, mrc_cc_max_cwnd_for(100000, 10));
	/* 800 Gb/s, 8 us */
	EXPECT_EQ(1200000U, mrc_cc_max_cwnd_for(800000, 8));
	/* 10 Gb/s, 1 ms */
	EXPECT_EQ(1875000U, mrc_cc_max_cwnd_for(10000, 1000));
	EXPECT_EQ(0U, mrc_cc_max_cwnd_for(0, 1000));
	EXPECT_EQ((u32)MRC_CC_CWND_LIMIT, mrc_cc_max_cwnd_for(~0U, ~0U));
}

/* Exactly one segment per window of acknowledged bytes. */
TEST(cc_ai_exact)
{
	struct mrc_cc_params p;
	struct mrc_cc cc;
	u32 now = 0xfffffff0U, w, i;

	params(&p, false);
	mrc_cc_init(&cc, &p);
	for (i = 0; i < 50; i++) {
		w = cc.cwnd;
		batch(&cc, &p, w / MSS, 0, 100, &now);
		ASSERT_EQ(w + MSS, cc.cwnd) {
			TH_LOG("round %u", i);
		}
		ASSERT_EQ(0U, cc.in_flight);
	}
	EXPECT_EQ(60U * MSS, cc.cwnd);
	EXPECT_EQ(0ULL, cc.ecn_cuts + cc.delay_cuts);
	EXPECT_EQ(50ULL, cc.rounds);	/* one round per batch */
}

/* A full window on a path: +1 segment per RTT of time. */
TEST(cc_ai_per_rtt)
{
	static struct sim s;
	struct mrc_cc_params p;
	u32 w0, rtt = 500, k;

	params(&p, false);
	sim_init(&s, &p, rtt, 0xffff0000U);
	sim_run(&s, 10 * rtt, 0);
	w0 = s.cc.cwnd;
	for (k = 1; k <= 100; k++) {
		sim_run(&s, rtt, 0);
		/* within one segment of the ideal line */
		ASSERT_LE(w0 + (k - 1) * MSS, s.cc.cwnd) {
			TH_LOG("after %u RTTs: %u from %u", k, s.cc.cwnd, w0);
		}
		ASSERT_GE(w0 + (k + 1) * MSS, s.cc.cwnd);
	}
	EXPECT_EQ(rtt, s.cc.srtt_us);
	EXPECT_EQ(rtt, s.cc.base_rtt_us);
}

TEST(cc_slow_start)
{
	struct mrc_cc_params p;
	u32 now = 0, w, i, a;
	struct mrc_cc cc;

	params(&p, true);
	mrc_cc_init(&cc, &p);
	for (i = 0; i < 5; i++) {
		w = cc.cwnd;
		batch(&cc, &p, w / MSS, 0, 100, &now);
		ASSERT_EQ(2 * w, cc.cwnd);
	}
	EXPECT_EQ(320U * MSS, cc.cwnd);
	/* pacing: 2 x cwnd / srtt in slow start */
	EXPECT_EQ(2ULL * 320 * MSS * 10000, mrc_cc_pacing_rate(&cc));
	/* The first mark ends slow start: alpha has decayed 5 rounds. */
	w = cc.cwnd;
	a = cc.alpha;
	mrc_cc_on_sent(&cc, &p, MSS);
	mrc_cc_on_ack(&cc, &p, MSS, MSS, 100, ++now);
	EXPECT_EQ(cc.cwnd, cc.ssthresh);
	EXPECT_EQ(w - (u32)(((u64)w * a) >> 21), cc.cwnd);
	EXPECT_GT(w, cc.cwnd);
	EXPECT_EQ(1ULL, cc.ecn_cuts);
	/* Then additive increase. */
	w = cc.cwnd;
	batch(&cc, &p, (w + MSS - 1) / MSS, 0, 100, &now);
	EXPECT_EQ(w + MSS, cc.cwnd);

	/* Slow start stops at max_cwnd. */
	p.max_cwnd = 25 * MSS;
	mrc_cc_init(&cc, &p);
	for (i = 0; i < 4; i++)
		batch(&cc, &p, cc.cwnd / MSS, 0, 100, &now);
	EXPECT_EQ(25U * MSS, cc.cwnd);
}

/* A sender that uses a fifth of its window never grows it. */
TEST(cc_app_limited)
{
	struct mrc_cc_params p;
	struct mrc_cc cc;
	u32 now = 0, i, j;

	for (i = 0; i < 2; i++) {
		params(&p, i);
		mrc_cc_init(&cc, &p);
		for (j = 0; j < 200; j++)
			batch(&cc, &p, 2, 0, 100, &now);
		EXPECT_EQ(10U * MSS, cc.cwnd);
	}
	/* Filling it with smaller segments (the last one overshoots): grows. */
	params(&p, false);
	mrc_cc_init(&cc, &p);
	p.mss = 999;
	batch(&cc, &p, 11, 0, 100, &now);
	EXPECT_EQ(10U * MSS + 999, cc.cwnd);
}

/* Marks: one cut per round, by alpha / 2, whatever the number of marks. */
TEST(cc_ecn_once_per_round)
{
	struct mrc_cc_params p;
	u32 now = 0, i, w, a;
	struct mrc_cc cc;

	params(&p, false);
	p.init_segs = 40;
	mrc_cc_init(&cc, &p);
	/* alpha = 1: the first marked ACK halves the window, no more. */
	batch(&cc, &p, 40, MSS, 100, &now);
	EXPECT_EQ(1ULL, cc.ecn_cuts);
	EXPECT_EQ(1ULL, cc.ecn_rounds);
	EXPECT_EQ(1ULL, cc.rounds);
	EXPECT_EQ(ONE, cc.alpha);	/* F = 1 */
	/* 20000 after the cut, then 39 ACKs of AI: +1 segment */
	EXPECT_EQ(21U * MSS, cc.cwnd);
	/* Unmarked rounds: alpha decays by 15/16 per round. */
	for (i = 0; i < 10; i++)
		batch(&cc, &p, cc.cwnd / MSS, 0, 100, &now);
	EXPECT_EQ(1ULL, cc.ecn_cuts);
	EXPECT_EQ(11ULL, cc.rounds);
	a = ONE;
	for (i = 0; i < 10; i++)
		a = a - (a >> 4);
	EXPECT_EQ(a, cc.alpha);
	/* One marked ACK in a round: a cut of cwnd * alpha / 2. */
	w = cc.cwnd;
	for (i = 0; i < w / MSS; i++)
		mrc_cc_on_sent(&cc, &p, MSS);
	mrc_cc_on_ack(&cc, &p, MSS, 0, 100, ++now);
	EXPECT_EQ(w, cc.cwnd);
	mrc_cc_on_ack(&cc, &p, MSS, 1, 100, ++now);	/* one byte marked */
	EXPECT_EQ(w - (u32)(((u64)w * cc.alpha) >> 21), cc.cwnd);
	EXPECT_EQ(2ULL, cc.ecn_cuts);
	/* ce_bytes above acked_bytes counts as acked_bytes. */
	mrc_cc_on_ack(&cc, &p, MSS, 5 * MSS, 100, ++now);
	EXPECT_EQ(MSS + 1U, cc.round_ce);
}

/*
 * Run the sim with exactly @f permille of every ACK's bytes marked, then
 * with each packet marked with probability @f permille.  Return the mean
 * window over the second half of the exact run; check alpha.
 */
static u32 settle(struct __test_metadata *_metadata, u32 f)
{
	static struct sim s;
	struct mrc_cc_params p;
	u64 sum = 0, asum = 0;
	u32 i, n = 0, rtt = 200;
	s64 err;

	params(&p, true);
	sim_init(&s, &p, rtt, 0U - 1000 * rtt);	/* wraps */
	sim_run(&s, 2000 * rtt, f);
	for (i = 0; i < 2000; i++) {
		sim_run(&s, rtt, f);
		sum += s.cc.cwnd;
		n++;
	}
	/* alpha = F (rounds all have exactly F) */
	err = (s64)s.cc.alpha - (s64)((u64)ONE * f / 1000);
	EXPECT_GE(err, -(s64)ONE / 100) {
		TH_LOG("F %u/1000: alpha %u", f, s.cc.alpha);
	}
	EXPECT_LE(err, (s64)ONE / 100);
	EXPECT_LE(s.cc.cwnd, p.max_cwnd);
	EXPECT_GE(s.cc.cwnd, p.min_segs * p.mss);

	/* Random marking: alpha averages to F. */
	for (i = 0; i < 100000; i++) {
		sim_ack(&s, unit_rand32() % 1000 < f ? MSS : 0, 0);
		asum += s.cc.alpha;
	}
	err = (s64)(asum / 100000) - (s64)((u64)ONE * f / 1000);
	printf("# F %u/1000: mean cwnd %.2f segs, alpha %.4f (random: %.4f)\n",
	       f, (double)sum / n / MSS, (double)s.cc.alpha / ONE,
	       (double)asum / 100000 / ONE);
	EXPECT_GE(err, -(s64)ONE * 4 / 100) {
		TH_LOG("F %u/1000 random: mean alpha %llu", f,
		       (unsigned long long)(asum / 100000));
	}
	EXPECT_LE(err, (s64)ONE * 4 / 100);
	return (u32)(sum / n);
}

TEST(cc_alpha_converges_window_settles)
{
	static const u32 fs[] = { 100, 300, 600, 1000 };
	u32 w[ARRAY_SIZE(fs)], i;

	unit_seed();
	for (i = 0; i < ARRAY_SIZE(fs); i++)
		w[i] = settle(_metadata, fs[i]);
	/* The larger F, the smaller the window. */
	for (i = 1; i < ARRAY_SIZE(fs); i++)
		EXPECT_LT(w[i], w[i - 1]);
	/* Equilibrium of AI and cut: about 2 segments / F. */
	for (i = 0; i < ARRAY_SIZE(fs); i++) {
		u32 ideal = 2 * MSS * 1000 / fs[i];

		EXPECT_LE(ideal / 2, w[i]);
		EXPECT_GE(ideal * 2, w[i]);
	}
}

/* Delay: a cut at the end of a round, in proportion to the excess. */
TEST(cc_delay_cut_proportional)
{
	static const u32 excess[] = { 0, 1, 10, 25, 50, 75, 99, 100, 101, 300,
				      100000 };
	const u32 base = 100, target = 100;
	struct mrc_cc_params p;
	u32 now = 0xffffff00U, i, want, tol, w0;
	struct mrc_cc cc;
	double f;

	params(&p, false);
	p.target_qdelay_us = target;
	for (i = 0; i < ARRAY_SIZE(excess); i++) {
		p.init_segs = 40;
		mrc_cc_init(&cc, &p);
		/* base RTT from a first round (+1 segment) */
		batch(&cc, &p, 40, 0, base, &now);
		ASSERT_EQ(base, cc.base_rtt_us);
		ASSERT_EQ(41U * MSS, cc.cwnd);
		ASSERT_EQ(0ULL, cc.delay_cuts);
		w0 = cc.cwnd;
		/* the next round starts at w0: every sample is slow */
		batch(&cc, &p, w0 / MSS, 0, base + target + excess[i], &now);
		f = excess[i] >= target ? 1.0 : (double)excess[i] / target;
		want = (u32)(w0 * (1 - f / 2));
		tol = w0 / 1024 + 2;
		if (!excess[i]) {
			/* at the threshold: no cut, AI as usual */
			EXPECT_EQ(w0 + MSS, cc.cwnd);
			EXPECT_EQ(0ULL, cc.delay_cuts);
			continue;
		}
		EXPECT_LE(want - tol, cc.cwnd) {
			TH_LOG("excess %u: cwnd %u want %u", excess[i], cc.cwnd,
			       want);
		}
		EXPECT_GE(want + tol, cc.cwnd);
		EXPECT_EQ(1ULL, cc.delay_cuts);
		EXPECT_EQ(cc.cwnd, cc.ssthresh);
		EXPECT_EQ(base, cc.base_rtt_us);	/* slow samples: no change */
	}
}

TEST(cc_delay_once_per_round)
{
	struct mrc_cc_params p;
	struct mrc_cc cc;
	u32 now = 0, i, w;

	params(&p, false);
	p.init_segs = 64;
	p.target_qdelay_us = 0;		/* automatic: the base RTT */
	mrc_cc_init(&cc, &p);
	batch(&cc, &p, 64, 0, 100, &now);
	EXPECT_EQ(100U, mrc_cc_target_us(&cc, &p));
	/* base + 2 x target: halve, once per round */
	for (i = 0; i < 4; i++) {
		w = cc.cwnd;
		batch(&cc, &p, w / MSS, 0, 300, &now);
		EXPECT_EQ(i + 1ULL, cc.delay_cuts);
		EXPECT_EQ(w - w / 2, cc.cwnd);
	}
	EXPECT_EQ(5ULL, cc.rounds);
	/* Never below the minimum. */
	for (i = 0; i < 10; i++)
		batch(&cc, &p, cc.cwnd / MSS, 0, 300, &now);
	EXPECT_EQ(2U * MSS, cc.cwnd);

	/* One slow sample among fast ones is jitter, not a queue. */
	p.init_segs = 20;
	mrc_cc_init(&cc, &p);
	batch(&cc, &p, 20, 0, 100, &now);
	w = cc.cwnd;
	for (i = 0; i < w / MSS; i++)
		mrc_cc_on_sent(&cc, &p, MSS);
	for (i = 0; i < w / MSS; i++)
		mrc_cc_on_ack(&cc, &p, MSS, 0, i == 3 ? 5000 : 150, ++now);
	EXPECT_EQ(0ULL, cc.delay_cuts);
	EXPECT_EQ(w + MSS, cc.cwnd);
	EXPECT_LT(100U, cc.srtt_us);	/* the sample is in srtt */
}

/*
 * The hosts' waits are left out of the delay rule, not of the RTT: a round
 * slow only by them is not cut; one slow beyond them is; a wait measured
 * longer than the sample only makes its round look fast, and the base RTT
 * and srtt keep whole samples.
 */
TEST(cc_delay_host_waits)
{
	struct mrc_cc_params p;
	struct mrc_cc cc;
	u32 now = 0, i, w;

	params(&p, false);
	p.init_segs = 64;
	p.target_qdelay_us = 0;		/* automatic: the base RTT */
	mrc_cc_init(&cc, &p);
	batch(&cc, &p, 64, 0, 100, &now);
	ASSERT_EQ(100U, cc.base_rtt_us);
	/* 900 us of every 1000 waited in hosts: 100 in the fabric */
	for (i = 0; i < 3; i++)
		batch_host(&cc, &p, cc.cwnd / MSS, 1000, 900, &now);
	EXPECT_EQ(0ULL, cc.delay_cuts);
	EXPECT_EQ(100U, cc.base_rtt_us);
	EXPECT_LT(500U, cc.srtt_us);		/* whole samples */
	/* 1000 us, 600 in hosts: 400 in the fabric, beyond 2 x base */
	w = cc.cwnd;
	batch_host(&cc, &p, w / MSS, 1000, 600, &now);
	EXPECT_EQ(1ULL, cc.delay_cuts);
	EXPECT_EQ(w - w / 2, cc.cwnd);
	/* waits longer than the samples: no cut, base unchanged */
	batch_host(&cc, &p, cc.cwnd / MSS, 300, 5000, &now);
	EXPECT_EQ(1ULL, cc.delay_cuts);
	EXPECT_EQ(100U, cc.base_rtt_us);
}

/* Marks and delay in the same round: the larger cut, not both. */
TEST(cc_ecn_and_delay_not_compounded)
{
	struct mrc_cc_params p;
	struct mrc_cc cc;
	u32 now = 0, w0, ecn;

	params(&p, false);
	p.init_segs = 20;
	p.target_qdelay_us = 100;
	mrc_cc_init(&cc, &p);
	batch(&cc, &p, 20, 0, 100, &now);	/* base 100, cwnd 21 segs */
	w0 = cc.cwnd;
	ecn = w0 - (u32)(((u64)w0 * cc.alpha) >> 21);
	/* all marked, RTT base + 2 x target: the delay cut asks for a half */
	batch(&cc, &p, w0 / MSS, MSS, 300, &now);
	EXPECT_EQ(1ULL, cc.ecn_cuts);
	EXPECT_EQ(1ULL, cc.delay_cuts);
	EXPECT_LT(w0 / 2, ecn);		/* alpha < 1: the ECN cut is smaller */
	EXPECT_EQ(w0 - w0 / 2, cc.cwnd);	/* the larger cut, from w0 */
}

/* The base RTT is the minimum of the last one to two windows. */
TEST(cc_base_rtt_window)
{
	struct mrc_cc_params p;
	struct mrc_cc cc;
	u32 t0 = 0xffffffffU - 1500, t;

	params(&p, false);
	p.base_rtt_win_us = 1000;
	mrc_cc_init(&cc, &p);
	mrc_cc_on_ack(&cc, &p, 0, 0, 50, t0);
	EXPECT_EQ(50U, cc.base_rtt_us);
	for (t = 100; t <= 1900; t += 100) {
		mrc_cc_on_ack(&cc, &p, 0, 0, 200, t0 + t);
		EXPECT_EQ(50U, cc.base_rtt_us);	/* current or previous window */
	}
	mrc_cc_on_ack(&cc, &p, 0, 0, 200, t0 + 2000);	/* across the wrap */
	EXPECT_EQ(200U, cc.base_rtt_us);
	mrc_cc_on_ack(&cc, &p, 0, 0, 120, t0 + 2100);
	EXPECT_EQ(120U, cc.base_rtt_us);
	EXPECT_EQ(0ULL, cc.rounds);	/* ACKs of nothing end no round */

	/* Window 0: the minimum of all time. */
	p.base_rtt_win_us = 0;
	mrc_cc_init(&cc, &p);
	mrc_cc_on_ack(&cc, &p, 0, 0, 50, 0);
	for (t = 1; t < 100; t++)
		mrc_cc_on_ack(&cc, &p, 0, 0, 200, t * 100000000U);
	EXPECT_EQ(50U, cc.base_rtt_us);
}

/* Loss: bytes leave the flight, the window never changes. */
TEST(cc_loss_keeps_window)
{
	static struct sim s;
	struct mrc_cc_params p;
	u32 i, w, f;

	unit_seed();
	params(&p, true);
	sim_init(&s, &p, 300, 0);
	sim_run(&s, 30 * 300, 0);
	for (i = 0; i < 100000; i++) {
		w = s.cc.cwnd;
		if (unit_rand32() % 4 == 0 && s.tail != s.head) {
			f = s.cc.in_flight;
			s.head++;	/* the oldest packet is lost */
			mrc_cc_on_lost(&s.cc, MSS);
			ASSERT_EQ(w, s.cc.cwnd);
			ASSERT_EQ(f - MSS, s.cc.in_flight);
			sim_fill(&s);
		} else if (s.tail != s.head) {
			sim_ack(&s, 0, 0);
			ASSERT_LE(w, s.cc.cwnd);	/* no marks: never down */
		} else {
			sim_fill(&s);
		}
	}
	EXPECT_LT(0ULL, s.cc.losses);
	EXPECT_EQ(s.cc.losses * MSS, s.cc.lost_bytes);
	EXPECT_EQ(0ULL, s.cc.ecn_cuts + s.cc.delay_cuts);
	/* Losing more than is in flight clamps at 0. */
	mrc_cc_on_lost(&s.cc, ~0U);
	EXPECT_EQ(0U, s.cc.in_flight);
	EXPECT_EQ(s.cc.cwnd, mrc_cc_avail(&s.cc));
}

/*
 * Random parameters (valid or not) and random operations: the window
 * stays within its bounds, avail and burst are consistent, in_flight
 * matches a shadow count, nothing overflows (UBSan).
 */
TEST(cc_bounds_random)
{
	struct mrc_cc_params p;
	struct mrc_cc cc;
	u32 run, i, lo, hi, mss, now, w, b;
	u64 flight, bmax;

	unit_seed();
	for (run = 0; run < 300; run++) {
		memset(&p, 0, sizeof(p));
		p.mss = unit_rand32() % 8 ? 1 + unit_rand32() % 9000 :
			unit_rand32() >> (unit_rand32() % 32);
		p.init_segs = unit_rand32() % 100;
		p.min_segs = unit_rand32() % 8;
		p.max_cwnd = unit_rand32() % 4 ? unit_rand32() % (1U << 24) :
			     unit_rand32();
		p.target_qdelay_us = unit_rand32() % 2 ? 0 :
				     unit_rand32() >> (unit_rand32() % 32);
		p.base_rtt_win_us = unit_rand32() % 3 ? unit_rand32() % 100000 :
				    unit_rand32();
		p.burst_segs = unit_rand32() % 40;
		p.slow_start = unit_rand32() % 2;
		mss = p.mss ? p.mss : 1;
		lo = (u64)(p.min_segs ? p.min_segs : 1) * mss > MRC_CC_CWND_LIMIT ?
		     MRC_CC_CWND_LIMIT : (p.min_segs ? p.min_segs : 1) * mss;
		hi = p.max_cwnd < MRC_CC_CWND_LIMIT ? p.max_cwnd :
		     MRC_CC_CWND_LIMIT;
		if (hi < lo)
			hi = lo;
		bmax = (u64)(p.burst_segs ? p.burst_segs : 1) * mss;
		mrc_cc_init(&cc, &p);
		flight = 0;
		now = unit_rand32();
		for (i = 0; i < 3000; i++) {
			u32 op = unit_rand32() % 10, n, ce, rtt;

			now += unit_rand32() % 3000;
			w = cc.cwnd;
			if (op < 4) {
				n = unit_rand32() % 3 ? mss :
				    unit_rand32() >> (unit_rand32() % 32);
				mrc_cc_on_sent(&cc, &p, n);
				flight = flight + n > 0xffffffffU ?
					 0xffffffffU : flight + n;
				ASSERT_EQ(w, cc.cwnd);
			} else if (op < 9) {
				n = unit_rand32() % 3 ? mss :
				    unit_rand32() >> (unit_rand32() % 32);
				ce = unit_rand32() % 3 ? 0 :
				     unit_rand32() >> (unit_rand32() % 32);
				rtt = unit_rand32() % 4 ? 0 :
				      unit_rand32() >> (unit_rand32() % 32);
				mrc_cc_on_ack(&cc, &p, n, ce, rtt, now);
				flight -= n < flight ? n : flight;
			} else {
				n = unit_rand32() >> (unit_rand32() % 32);
				mrc_cc_on_lost(&cc, n);
				flight -= n < flight ? n : flight;
				ASSERT_EQ(w, cc.cwnd);
			}
			ASSERT_LE(lo, cc.cwnd) {
				TH_LOG("run %u step %u", run, i);
			}
			ASSERT_GE(hi, cc.cwnd) {
				TH_LOG("run %u step %u", run, i);
			}
			ASSERT_EQ(flight, cc.in_flight);
			ASSERT_EQ(cc.cwnd > flight ? cc.cwnd - flight : 0,
				  mrc_cc_avail(&cc));
			b = mrc_cc_burst(&cc, &p);
			ASSERT_LE(b, mrc_cc_avail(&cc));
			ASSERT_LE(b, bmax);
			ASSERT_TRUE(b == mrc_cc_avail(&cc) || b == bmax);
			ASSERT_GE(ONE, cc.alpha);
			ASSERT_GE(cc.rounds + 1, cc.ecn_cuts);
			ASSERT_GE(cc.rounds, cc.delay_cuts);
			mrc_cc_pacing_rate(&cc);
		}
	}
}

TEST(cc_burst)
{
	struct mrc_cc_params p;
	struct mrc_cc cc;

	params(&p, false);
	p.init_segs = 100;
	p.burst_segs = 16;
	mrc_cc_init(&cc, &p);
	EXPECT_EQ(16U * MSS, mrc_cc_burst(&cc, &p));
	mrc_cc_on_sent(&cc, &p, 90 * MSS);
	EXPECT_EQ(10U * MSS, mrc_cc_burst(&cc, &p));
	mrc_cc_on_sent(&cc, &p, 10 * MSS + 1);
	EXPECT_EQ(0U, mrc_cc_burst(&cc, &p));
	p.burst_segs = 0;	/* counts as 1 */
	mrc_cc_init(&cc, &p);
	EXPECT_EQ((u32)MSS, mrc_cc_burst(&cc, &p));
}

TEST(cc_pacing_rate)
{
	struct mrc_cc cc;
	double exact;
	u64 r;

	memset(&cc, 0, sizeof(cc));
	cc.cwnd = 100000;
	EXPECT_EQ(0ULL, mrc_cc_pacing_rate(&cc));	/* no RTT yet */
	cc.srtt_us = 1000;
	EXPECT_EQ(125000000ULL, mrc_cc_pacing_rate(&cc));	/* x 5/4 */
	cc.ssthresh = 200000;
	EXPECT_EQ(200000000ULL, mrc_cc_pacing_rate(&cc));	/* x 2 */
	cc.ssthresh = 0;
	cc.srtt_us = 3;
	r = mrc_cc_pacing_rate(&cc);
	EXPECT_LE(41666666666ULL - 2, r);	/* 100000 / 3 us x 5/4 */
	EXPECT_GE(41666666666ULL + 2, r);
	/* Large srtt: the remainder is scaled, error well below 0.1%. */
	cc.cwnd = 0x3fffffffU;
	cc.srtt_us = 1234567;
	r = mrc_cc_pacing_rate(&cc);
	exact = 1.25e6 * cc.cwnd / cc.srtt_us;
	EXPECT_LT(exact * 0.999, (double)r);
	EXPECT_GT(exact * 1.001, (double)r);
	cc.cwnd = 1;
	cc.srtt_us = 0xffffffffU;
	EXPECT_EQ(0ULL, mrc_cc_pacing_rate(&cc));
}

/*
 * The delivery rate: bytes acknowledged over the last round whose start
 * is known (not the first), at the pace the ACKs came, whatever cwnd and
 * srtt say; an application-limited round delivers what was sent; a
 * round shorter than the base RTT (one batch of ACKs) is no sample; a
 * round over half the u32 clock forgets the rate; a rate saturates.
 */
TEST(cc_delivery_rate)
{
	struct mrc_cc_params p;
	u32 now = 1000, i;
	struct mrc_cc cc;

	params(&p, true);
	mrc_cc_init(&cc, &p);
	EXPECT_EQ(0ULL, mrc_cc_delivery_rate(&cc));
	/* round 1: its start is unknown */
	spaced(&cc, &p, 10, 100, &now);
	EXPECT_EQ(1ULL, cc.rounds);
	EXPECT_EQ(0ULL, mrc_cc_delivery_rate(&cc));
	/* round 2: 20 segments, an ACK every 100 us: 2 ms */
	spaced(&cc, &p, 20, 100, &now);
	EXPECT_EQ(2ULL, cc.rounds);
	EXPECT_EQ(20ULL * MSS * 1000000 / 2000, mrc_cc_delivery_rate(&cc));
	/* cwnd / srtt says far more: 40 segments in 100 us, x 2 */
	EXPECT_LT(10 * mrc_cc_delivery_rate(&cc), mrc_cc_pacing_rate(&cc));
	/* round 3, application-limited: 2 segments in 2 ms */
	spaced(&cc, &p, 2, 1000, &now);
	EXPECT_EQ(3ULL, cc.rounds);
	EXPECT_EQ(2ULL * MSS * 1000000 / 2000, mrc_cc_delivery_rate(&cc));
	/* round 4: acknowledged in 20 us, under the base RTT (100): kept */
	spaced(&cc, &p, 2, 10, &now);
	EXPECT_EQ(4ULL, cc.rounds);
	EXPECT_EQ(2ULL * MSS * 1000000 / 2000, mrc_cc_delivery_rate(&cc));
	/* round 5: 5 s long (dt >= 2^22 us): 100 segments in 5 s */
	for (i = 0; i < 100; i++)
		mrc_cc_on_sent(&cc, &p, MSS);
	now += 5000000;
	mrc_cc_on_ack(&cc, &p, 100 * MSS, 0, 100, now);
	EXPECT_EQ(5ULL, cc.rounds);
	EXPECT_EQ(100ULL * MSS / 5, mrc_cc_delivery_rate(&cc));
	/* round 6: over half the clock: forgotten */
	mrc_cc_on_sent(&cc, &p, MSS);
	now += 0x80000000U;
	mrc_cc_on_ack(&cc, &p, MSS, 0, 100, now);
	EXPECT_EQ(0ULL, mrc_cc_delivery_rate(&cc));
	/* round 7: the rate saturates, never wraps: 4 GB in 1 ms */
	mrc_cc_on_sent(&cc, &p, MSS);
	cc.round_target = MSS;
	cc.round_acked = U32_MAX - MSS;
	cc.round_start_us = now;
	now += 1000;
	mrc_cc_on_ack(&cc, &p, MSS, 0, 100, now);
	EXPECT_EQ((u64)U32_MAX * 1000, mrc_cc_delivery_rate(&cc));
}

/*
 * The CE bytes of an ACK: the increase of the peer's count since the
 * highest one applied, whole; nothing for an older or equal count (ACKs
 * reordered or repeated); one segment more for a NACK; across the
 * count's wrap; saturating.
 */
TEST(cc_ce_bytes)
{
	u32 seen = 0;

	EXPECT_EQ(0U, mrc_cc_ce_bytes(&seen, 0, false, MSS));
	EXPECT_EQ(0U, seen);
	EXPECT_EQ(3U * MSS, mrc_cc_ce_bytes(&seen, 3, false, MSS));
	EXPECT_EQ(3U, seen);
	/* an ACK overtaken by a later one, then that one again */
	EXPECT_EQ(0U, mrc_cc_ce_bytes(&seen, 2, false, MSS));
	EXPECT_EQ(0U, mrc_cc_ce_bytes(&seen, 3, false, MSS));
	EXPECT_EQ(3U, seen);
	/* the ACK of 4..16 was lost: the next one reports all of it */
	EXPECT_EQ(14U * MSS, mrc_cc_ce_bytes(&seen, 17, false, MSS));
	/* a NACK: one segment, with or without news of the count */
	EXPECT_EQ(1U * MSS, mrc_cc_ce_bytes(&seen, 17, true, MSS));
	EXPECT_EQ(3U * MSS, mrc_cc_ce_bytes(&seen, 19, true, MSS));
	EXPECT_EQ(19U, seen);
	/* the count wraps */
	seen = 0xfffffffeU;
	EXPECT_EQ(4U * MSS, mrc_cc_ce_bytes(&seen, 2, false, MSS));
	EXPECT_EQ(2U, seen);
	EXPECT_EQ(0U, mrc_cc_ce_bytes(&seen, 0xffffffffU, false, MSS));
	EXPECT_EQ(2U, seen);
	/* saturates instead of wrapping */
	seen = 0;
	EXPECT_EQ(0xffffffffU, mrc_cc_ce_bytes(&seen, 0x7fffffffU, true, 65535));
	EXPECT_EQ(0x7fffffffU, seen);
	/* more than half the space ahead reads as behind: nothing, kept */
	seen = 0;
	EXPECT_EQ(0U, mrc_cc_ce_bytes(&seen, 0x80000001U, false, MSS));
	EXPECT_EQ(0U, seen);
}

TEST_HARNESS_MAIN
