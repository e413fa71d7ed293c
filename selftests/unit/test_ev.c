// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of core/ev.c: each transition of the EV state machine, the
 * SKIP hold, probe success counting, probe timeouts, the replacement
 * trigger, deny/allow, events that must not change the state, the clock
 * wrapping, then a random walk checked step by step against a shadow
 * model that keeps time as an unwrapped 64-bit number.
 */
#include "unit.h"
#include "core/ev.h"

static const struct mrc_ev_params P = {
	.skip_hold_us = 500,
	.probe_interval_us = 1000,
	.probe_timeout_us = 3000,
	.probe_successes = 3,
	.replace_after = 4,
};

/* A fresh EV moved into @state at @now through the public API. */
static void ev_in(struct mrc_ev *e, u8 state, u32 now)
{
	mrc_ev_init(e, 0x123, 2, now);
	if (state == MRC_EV_SKIP)
		mrc_ev_on_ecn(e, &P, now);
	else if (state == MRC_EV_ASSUMED_BAD)
		mrc_ev_on_loss(e, now);
	else if (state == MRC_EV_DENIED)
		mrc_ev_deny(e, true, now);
}

TEST(ev_init_and_names)
{
	struct mrc_ev_params d;
	struct mrc_ev e;

	memset(&e, 0xa5, sizeof(e));
	mrc_ev_init(&e, 0x3fff, 7, 12345);
	EXPECT_EQ(0x3fff, e.ev);
	EXPECT_EQ(7, e.plane);
	EXPECT_EQ(MRC_EV_GOOD, e.state);
	EXPECT_EQ(12345U, e.since_us);
	EXPECT_EQ(0, e.probe_pending);
	EXPECT_EQ(0, e.probe_ok);
	EXPECT_EQ(0, e.probe_fail);
	EXPECT_EQ(0U, e.rtt_us);
	EXPECT_EQ(0ULL, e.pkts + e.bytes + e.acks + e.ecn + e.nacks +
		  e.losses + e.probes + e.probe_fails);
	EXPECT_TRUE(mrc_ev_usable(&e));

	EXPECT_STREQ("good", mrc_ev_state_name(MRC_EV_GOOD));
	EXPECT_STREQ("skip", mrc_ev_state_name(MRC_EV_SKIP));
	EXPECT_STREQ("assumed-bad", mrc_ev_state_name(MRC_EV_ASSUMED_BAD));
	EXPECT_STREQ("denied", mrc_ev_state_name(MRC_EV_DENIED));
	EXPECT_STREQ("unknown", mrc_ev_state_name(__MRC_EV_STATE_MAX));
	EXPECT_STREQ("unknown", mrc_ev_state_name(~0U));

	mrc_ev_params_default(&d);
	EXPECT_EQ((u32)MRC_EV_DEF_SKIP_HOLD_US, d.skip_hold_us);
	EXPECT_EQ((u32)MRC_EV_DEF_PROBE_INTERVAL_US, d.probe_interval_us);
	EXPECT_EQ((u32)MRC_EV_DEF_PROBE_TIMEOUT_US, d.probe_timeout_us);
	EXPECT_EQ(MRC_EV_DEF_PROBE_SUCCESSES, d.probe_successes);
	EXPECT_EQ(MRC_EV_DEF_REPLACE_AFTER, d.replace_after);
	/* A probe must be able to time out before the next is due. */
	EXPECT_LT(d.probe_interval_us, d.probe_timeout_us);
}

TEST(ev_counters)
{
	struct mrc_ev e;

	mrc_ev_init(&e, 1, 0, 0);
	mrc_ev_on_sent(&e, 1000);
	mrc_ev_on_sent(&e, 24);
	EXPECT_EQ(2ULL, e.pkts);
	EXPECT_EQ(1024ULL, e.bytes);
	mrc_ev_on_ack(&e, 77);
	EXPECT_EQ(77U, e.rtt_us);
	mrc_ev_on_ack(&e, 0);		/* no sample: kept */
	EXPECT_EQ(77U, e.rtt_us);
	EXPECT_EQ(2ULL, e.acks);
	EXPECT_EQ(MRC_EV_GOOD, e.state);

	/* Neither sends nor ACKs change any state. */
	ev_in(&e, MRC_EV_ASSUMED_BAD, 10);
	mrc_ev_on_sent(&e, 1);
	mrc_ev_on_ack(&e, 5);
	EXPECT_EQ(MRC_EV_ASSUMED_BAD, e.state);
	EXPECT_EQ(10U, e.since_us);
}

static void check_skip(struct __test_metadata *_metadata, bool nack)
{
	u32 t0 = 1000;
	struct mrc_ev e;

	mrc_ev_init(&e, 1, 0, 0);
	EXPECT_TRUE(nack ? mrc_ev_on_nack(&e, &P, t0) : mrc_ev_on_ecn(&e, &P, t0));
	EXPECT_EQ(MRC_EV_SKIP, e.state);
	EXPECT_EQ(t0, e.since_us);
	EXPECT_EQ(t0 + P.skip_hold_us, e.skip_until_us);
	EXPECT_TRUE(mrc_ev_usable(&e));
	/* Again 100 us later: still SKIP, hold extended, no transition. */
	EXPECT_FALSE(nack ? mrc_ev_on_nack(&e, &P, t0 + 100) :
		     mrc_ev_on_ecn(&e, &P, t0 + 100));
	EXPECT_EQ(MRC_EV_SKIP, e.state);
	EXPECT_EQ(t0, e.since_us);
	EXPECT_EQ(t0 + 100 + P.skip_hold_us, e.skip_until_us);
	/* One stamped earlier (a stale time) does not shorten the hold. */
	EXPECT_FALSE(nack ? mrc_ev_on_nack(&e, &P, t0 + 50) :
		     mrc_ev_on_ecn(&e, &P, t0 + 50));
	EXPECT_EQ(t0 + 100 + P.skip_hold_us, e.skip_until_us);
	EXPECT_EQ(3ULL, nack ? e.nacks : e.ecn);
	EXPECT_EQ(0ULL, nack ? e.ecn : e.nacks);

	EXPECT_FALSE(mrc_ev_tick(&e, &P, t0 + 100 + P.skip_hold_us - 1));
	EXPECT_EQ(MRC_EV_SKIP, e.state);
	EXPECT_TRUE(mrc_ev_tick(&e, &P, t0 + 100 + P.skip_hold_us));
	EXPECT_EQ(MRC_EV_GOOD, e.state);
	EXPECT_EQ(t0 + 100 + P.skip_hold_us, e.since_us);
	EXPECT_FALSE(mrc_ev_tick(&e, &P, t0 + 100000));
	EXPECT_EQ(MRC_EV_GOOD, e.state);
}

TEST(ev_ecn_skip_hold)
{
	check_skip(_metadata, false);
}

TEST(ev_nack_skip_hold)
{
	check_skip(_metadata, true);
}

TEST(ev_skip_disabled)
{
	struct mrc_ev_params p = P;
	struct mrc_ev e;

	p.skip_hold_us = 0;
	mrc_ev_init(&e, 1, 0, 0);
	EXPECT_FALSE(mrc_ev_on_ecn(&e, &p, 10));
	EXPECT_FALSE(mrc_ev_on_nack(&e, &p, 10));
	EXPECT_EQ(MRC_EV_GOOD, e.state);
	EXPECT_EQ(1ULL, e.ecn);
	EXPECT_EQ(1ULL, e.nacks);
}

TEST(ev_loss)
{
	struct mrc_ev e;
	u8 s;

	for (s = MRC_EV_GOOD; s <= MRC_EV_SKIP; s++) {
		ev_in(&e, s, 100);
		e.probe_ok = 2;		/* stale values are reset */
		e.probe_fail = 9;
		e.probe_pending = 1;
		EXPECT_TRUE(mrc_ev_on_loss(&e, 250));
		EXPECT_EQ(MRC_EV_ASSUMED_BAD, e.state);
		EXPECT_FALSE(mrc_ev_usable(&e));
		EXPECT_EQ(250U, e.since_us);
		EXPECT_EQ(250U, e.probe_sent_us);
		EXPECT_EQ(0, e.probe_pending);
		EXPECT_EQ(0, e.probe_ok);
		EXPECT_EQ(0, e.probe_fail);
		EXPECT_EQ(1ULL, e.losses);
	}
	/* Losses while ASSUMED_BAD (or DENIED) change nothing but the count. */
	ev_in(&e, MRC_EV_ASSUMED_BAD, 100);
	ASSERT_TRUE(mrc_ev_probe_sent(&e, 1, 1100));
	ASSERT_FALSE(mrc_ev_probe_acked(&e, 1, &P, 1200));
	EXPECT_EQ(1, e.probe_ok);
	EXPECT_FALSE(mrc_ev_on_loss(&e, 1300));
	EXPECT_EQ(MRC_EV_ASSUMED_BAD, e.state);
	EXPECT_EQ(100U, e.since_us);
	EXPECT_EQ(1, e.probe_ok);
	EXPECT_EQ(1100U, e.probe_sent_us);
	EXPECT_EQ(2ULL, e.losses);
	ev_in(&e, MRC_EV_DENIED, 100);
	EXPECT_FALSE(mrc_ev_on_loss(&e, 200));
	EXPECT_EQ(MRC_EV_DENIED, e.state);
	EXPECT_EQ(1ULL, e.losses);
}

TEST(ev_unusable)
{
	struct mrc_ev e;
	u8 s;

	for (s = MRC_EV_GOOD; s <= MRC_EV_SKIP; s++) {
		ev_in(&e, s, 100);
		e.probe_pending = 1;
		EXPECT_TRUE(mrc_ev_unusable(&e, 300));
		EXPECT_EQ(MRC_EV_ASSUMED_BAD, e.state);
		EXPECT_EQ(300U, e.since_us);
		EXPECT_EQ(300U, e.probe_sent_us);
		EXPECT_EQ(0, e.probe_pending);
		EXPECT_EQ(0ULL, e.losses);	/* not a loss */
	}
	EXPECT_FALSE(mrc_ev_unusable(&e, 400));
	EXPECT_EQ(300U, e.since_us);
	ev_in(&e, MRC_EV_DENIED, 100);
	EXPECT_FALSE(mrc_ev_unusable(&e, 400));
	EXPECT_EQ(MRC_EV_DENIED, e.state);
}

TEST(ev_probe_success)
{
	u32 t = 5000, when, seq = 40;
	struct mrc_ev e;
	int i;

	ev_in(&e, MRC_EV_GOOD, 0);
	EXPECT_FALSE(mrc_ev_probe_due(&e, &P, t));	/* GOOD: never */
	EXPECT_FALSE(mrc_ev_probe_sent(&e, 1, t));	/* ignored */
	EXPECT_EQ(0ULL, e.probes);
	EXPECT_FALSE(mrc_ev_next_event(&e, &P, &when));

	ASSERT_TRUE(mrc_ev_on_loss(&e, t));
	ASSERT_TRUE(mrc_ev_next_event(&e, &P, &when));
	EXPECT_EQ(t + P.probe_interval_us, when);
	EXPECT_FALSE(mrc_ev_probe_due(&e, &P, t));
	EXPECT_FALSE(mrc_ev_probe_due(&e, &P, t + P.probe_interval_us - 1));
	for (i = 0; i < P.probe_successes; i++) {
		t += P.probe_interval_us;
		ASSERT_TRUE(mrc_ev_probe_due(&e, &P, t));
		ASSERT_TRUE(mrc_ev_probe_sent(&e, seq, t));
		EXPECT_FALSE(mrc_ev_probe_due(&e, &P, t + 10 * P.probe_interval_us));
		ASSERT_TRUE(mrc_ev_next_event(&e, &P, &when));
		EXPECT_EQ(t + P.probe_timeout_us, when);
		/* Wrong sequence numbers are ignored. */
		EXPECT_FALSE(mrc_ev_probe_acked(&e, seq + 1, &P, t + 10));
		EXPECT_FALSE(mrc_ev_probe_acked(&e, seq - 1, &P, t + 10));
		EXPECT_EQ(i, e.probe_ok);
		EXPECT_EQ(1, e.probe_pending);
		/* The last success makes it GOOD. */
		EXPECT_EQ(i == P.probe_successes - 1,
			  mrc_ev_probe_acked(&e, seq, &P, t + 20 + i));
		EXPECT_EQ(20U + i, e.rtt_us);
		EXPECT_EQ(0, e.probe_pending);
		/* A duplicate PROBE_ACK is ignored. */
		EXPECT_FALSE(mrc_ev_probe_acked(&e, seq, &P, t + 30));
		seq++;
	}
	EXPECT_EQ(MRC_EV_GOOD, e.state);
	EXPECT_EQ(t + 20 + P.probe_successes - 1, e.since_us);
	EXPECT_EQ(0, e.probe_ok);
	EXPECT_EQ(0, e.probe_fail);
	EXPECT_EQ((u64)P.probe_successes, e.probes);
	EXPECT_EQ(0ULL, e.probe_fails);
}

/* probe_successes 0 counts as 1; an RTT of 0 is reported as 1. */
TEST(ev_probe_one_success)
{
	struct mrc_ev_params p = P;
	struct mrc_ev e;

	p.probe_successes = 0;
	ev_in(&e, MRC_EV_ASSUMED_BAD, 0);
	ASSERT_TRUE(mrc_ev_probe_sent(&e, 7, 1000));
	EXPECT_TRUE(mrc_ev_probe_acked(&e, 7, &p, 1000));
	EXPECT_EQ(MRC_EV_GOOD, e.state);
	EXPECT_EQ(1U, e.rtt_us);
}

TEST(ev_probe_failures_and_replacement)
{
	struct mrc_ev_params p = P;
	u32 t = 0, seq = 0;
	struct mrc_ev e;
	int i;

	ev_in(&e, MRC_EV_ASSUMED_BAD, t);
	/* Two successes, then a timeout: the successes are forgotten. */
	for (i = 0; i < 2; i++) {
		t += P.probe_interval_us;
		ASSERT_TRUE(mrc_ev_probe_sent(&e, ++seq, t));
		ASSERT_FALSE(mrc_ev_probe_acked(&e, seq, &P, t + 5));
	}
	EXPECT_EQ(2, e.probe_ok);
	t += P.probe_interval_us;
	ASSERT_TRUE(mrc_ev_probe_due(&e, &P, t));
	ASSERT_TRUE(mrc_ev_probe_sent(&e, ++seq, t));
	EXPECT_FALSE(mrc_ev_tick(&e, &P, t + P.probe_timeout_us - 1));
	EXPECT_EQ(1, e.probe_pending);
	EXPECT_FALSE(mrc_ev_tick(&e, &P, t + P.probe_timeout_us));
	EXPECT_EQ(MRC_EV_ASSUMED_BAD, e.state);
	EXPECT_EQ(0, e.probe_pending);
	EXPECT_EQ(0, e.probe_ok);
	EXPECT_EQ(1, e.probe_fail);
	EXPECT_EQ(1ULL, e.probe_fails);
	/* The answer to the timed-out probe comes too late: ignored. */
	EXPECT_FALSE(mrc_ev_probe_acked(&e, seq, &P, t + P.probe_timeout_us + 1));
	EXPECT_EQ(0, e.probe_ok);
	EXPECT_EQ(1, e.probe_fail);
	/* The next probe is due an interval after the failed one was sent. */
	EXPECT_TRUE(mrc_ev_probe_due(&e, &P, t + P.probe_timeout_us));
	EXPECT_FALSE(mrc_ev_wants_replacement(&e, &P));

	/* A late answer before any tick also counts as a failure. */
	t += P.probe_timeout_us;
	ASSERT_TRUE(mrc_ev_probe_sent(&e, ++seq, t));
	EXPECT_FALSE(mrc_ev_probe_acked(&e, seq, &P, t + P.probe_timeout_us));
	EXPECT_EQ(2, e.probe_fail);
	EXPECT_EQ(0, e.probe_pending);

	/* A success does not reset the failures: flaky paths get replaced. */
	t += P.probe_timeout_us;
	ASSERT_TRUE(mrc_ev_probe_sent(&e, ++seq, t));
	ASSERT_FALSE(mrc_ev_probe_acked(&e, seq, &P, t + 1));
	EXPECT_EQ(2, e.probe_fail);
	for (i = 3; i <= P.replace_after; i++) {
		EXPECT_FALSE(mrc_ev_wants_replacement(&e, &P));
		t += P.probe_timeout_us;
		ASSERT_TRUE(mrc_ev_probe_sent(&e, ++seq, t));
		t += P.probe_timeout_us;
		EXPECT_FALSE(mrc_ev_tick(&e, &P, t));
		EXPECT_EQ(i, e.probe_fail);
	}
	EXPECT_TRUE(mrc_ev_wants_replacement(&e, &P));
	p.replace_after = 0;
	EXPECT_FALSE(mrc_ev_wants_replacement(&e, &p));
	p.replace_after = 255;
	EXPECT_FALSE(mrc_ev_wants_replacement(&e, &p));

	/* probe_fail saturates at 255, probe_fails keeps counting. */
	for (i = 0; i < 300; i++) {
		ASSERT_TRUE(mrc_ev_probe_sent(&e, ++seq, t));
		t += P.probe_timeout_us;
		mrc_ev_tick(&e, &P, t);
	}
	EXPECT_EQ(255, e.probe_fail);
	EXPECT_EQ(300ULL + P.replace_after, e.probe_fails);
	EXPECT_TRUE(mrc_ev_wants_replacement(&e, &p));

	/* Replacement: new EV, same plane, GOOD, everything reset. */
	e.pkts = 5;
	EXPECT_TRUE(mrc_ev_replace(&e, 0x77, t));
	EXPECT_EQ(0x77, e.ev);
	EXPECT_EQ(2, e.plane);
	EXPECT_EQ(MRC_EV_GOOD, e.state);
	EXPECT_EQ(t, e.since_us);
	EXPECT_EQ(0, e.probe_fail);
	EXPECT_EQ(0ULL, e.pkts + e.probes + e.probe_fails + e.losses);
	EXPECT_FALSE(mrc_ev_wants_replacement(&e, &P));
	/* Replacing a GOOD EV is not a state change. */
	EXPECT_FALSE(mrc_ev_replace(&e, 0x78, t));
	EXPECT_EQ(0x78, e.ev);
}

TEST(ev_deny_allow)
{
	struct mrc_ev e;
	u32 when;
	u8 s;

	for (s = MRC_EV_GOOD; s < __MRC_EV_STATE_MAX; s++) {
		ev_in(&e, s, 10);
		EXPECT_EQ(s != MRC_EV_DENIED, mrc_ev_deny(&e, true, 20));
		EXPECT_EQ(MRC_EV_DENIED, e.state);
		EXPECT_FALSE(mrc_ev_usable(&e));
		EXPECT_EQ(s != MRC_EV_DENIED ? 20U : 10U, e.since_us);
		/* Nothing but an allow moves it. */
		EXPECT_FALSE(mrc_ev_on_ecn(&e, &P, 30));
		EXPECT_FALSE(mrc_ev_on_nack(&e, &P, 30));
		EXPECT_FALSE(mrc_ev_on_loss(&e, 30));
		EXPECT_FALSE(mrc_ev_tick(&e, &P, 1000000));
		EXPECT_FALSE(mrc_ev_probe_due(&e, &P, 1000000));
		EXPECT_FALSE(mrc_ev_probe_sent(&e, 3, 40));
		EXPECT_FALSE(mrc_ev_probe_acked(&e, 3, &P, 41));
		EXPECT_FALSE(mrc_ev_wants_replacement(&e, &P));
		EXPECT_FALSE(mrc_ev_next_event(&e, &P, &when));
		EXPECT_FALSE(mrc_ev_deny(&e, true, 50));
		EXPECT_EQ(MRC_EV_DENIED, e.state);
		EXPECT_TRUE(mrc_ev_deny(&e, false, 60));
		EXPECT_EQ(MRC_EV_GOOD, e.state);
		EXPECT_EQ(60U, e.since_us);
		EXPECT_EQ(0, e.probe_pending);
		EXPECT_FALSE(mrc_ev_deny(&e, false, 70));
	}
	/* Allowing a non-DENIED EV changes nothing. */
	for (s = MRC_EV_GOOD; s < MRC_EV_DENIED; s++) {
		ev_in(&e, s, 10);
		EXPECT_FALSE(mrc_ev_deny(&e, false, 20));
		EXPECT_EQ(s, e.state);
		EXPECT_EQ(10U, e.since_us);
	}
}

/* Events that are not transitions of a state leave it alone. */
TEST(ev_no_transition_from_invalid_events)
{
	struct mrc_ev e;
	u8 s;

	for (s = MRC_EV_GOOD; s < __MRC_EV_STATE_MAX; s++) {
		/* tick: only SKIP (hold over) moves */
		ev_in(&e, s, 0);
		EXPECT_EQ(s == MRC_EV_SKIP, mrc_ev_tick(&e, &P, 100000));
		/* probe ACK without a probe: never */
		ev_in(&e, s, 0);
		EXPECT_FALSE(mrc_ev_probe_acked(&e, 0, &P, 10));
		EXPECT_EQ(s, e.state);
		/* ECN/NACK: only GOOD moves */
		ev_in(&e, s, 0);
		EXPECT_EQ(s == MRC_EV_GOOD, mrc_ev_on_ecn(&e, &P, 10));
		ev_in(&e, s, 0);
		EXPECT_EQ(s == MRC_EV_GOOD, mrc_ev_on_nack(&e, &P, 10));
		/* loss: GOOD and SKIP */
		ev_in(&e, s, 0);
		EXPECT_EQ(s <= MRC_EV_SKIP, mrc_ev_on_loss(&e, 10));
		/* probe due: ASSUMED_BAD only */
		ev_in(&e, s, 0);
		EXPECT_EQ(s == MRC_EV_ASSUMED_BAD,
			  mrc_ev_probe_due(&e, &P, P.probe_interval_us));
	}
	/* A SKIP EV cannot be probed back; its hold is not affected. */
	ev_in(&e, MRC_EV_SKIP, 0);
	EXPECT_FALSE(mrc_ev_probe_sent(&e, 1, 5));
	EXPECT_FALSE(mrc_ev_probe_acked(&e, 1, &P, 6));
	EXPECT_EQ(MRC_EV_SKIP, e.state);
	EXPECT_EQ(P.skip_hold_us, e.skip_until_us);
}

/* Deadlines across the wrap of the u32 clock. */
TEST(ev_clock_wrap)
{
	u32 t = 0xffffffffU - 100;
	struct mrc_ev e;
	u32 when;

	mrc_ev_init(&e, 1, 0, t);
	ASSERT_TRUE(mrc_ev_on_ecn(&e, &P, t));
	EXPECT_EQ(t + P.skip_hold_us, e.skip_until_us);	/* wrapped: small */
	EXPECT_LT(e.skip_until_us, 1000U);
	EXPECT_FALSE(mrc_ev_tick(&e, &P, t + 1));
	EXPECT_FALSE(mrc_ev_tick(&e, &P, 0xffffffffU));
	EXPECT_FALSE(mrc_ev_tick(&e, &P, 0));
	ASSERT_TRUE(mrc_ev_next_event(&e, &P, &when));
	EXPECT_EQ(e.skip_until_us, when);
	/* Extension across the wrap compares serially. */
	EXPECT_FALSE(mrc_ev_on_ecn(&e, &P, t + 50));
	EXPECT_EQ(t + 50 + P.skip_hold_us, e.skip_until_us);
	EXPECT_FALSE(mrc_ev_tick(&e, &P, t + 50 + P.skip_hold_us - 1));
	EXPECT_TRUE(mrc_ev_tick(&e, &P, t + 50 + P.skip_hold_us));

	/* Probe interval and timeout across the wrap. */
	ASSERT_TRUE(mrc_ev_on_loss(&e, t));
	EXPECT_FALSE(mrc_ev_probe_due(&e, &P, 0xffffffffU));
	EXPECT_FALSE(mrc_ev_probe_due(&e, &P, t + P.probe_interval_us - 1));
	EXPECT_TRUE(mrc_ev_probe_due(&e, &P, t + P.probe_interval_us));
	ASSERT_TRUE(mrc_ev_probe_sent(&e, 9, t + 10));
	EXPECT_FALSE(mrc_ev_tick(&e, &P, t + 10 + P.probe_timeout_us - 1));
	EXPECT_EQ(1, e.probe_pending);
	/* An answer after the wrap, 150 us later: a success, RTT 150. */
	EXPECT_FALSE(mrc_ev_probe_acked(&e, 9, &P, t + 160));
	EXPECT_EQ(150U, e.rtt_us);
	EXPECT_EQ(1, e.probe_ok);
	ASSERT_TRUE(mrc_ev_probe_sent(&e, 10, t + 200));
	mrc_ev_tick(&e, &P, t + 200 + P.probe_timeout_us);
	EXPECT_EQ(1, e.probe_fail);
	EXPECT_EQ(0, e.probe_ok);
}

/* ---- random walk against a shadow model ---- */

struct model {
	u8 state;
	u8 pending;
	u8 ok;
	u8 fail;
	u32 seq;
	u64 skip_until;
	u64 probe_sent;
	u64 since;
};

static bool m_congested(struct model *m, const struct mrc_ev_params *p,
			u64 now)
{
	if (!p->skip_hold_us)
		return false;
	if (m->state == MRC_EV_GOOD) {
		m->state = MRC_EV_SKIP;
		m->since = now;
		m->skip_until = now + p->skip_hold_us;
		return true;
	}
	if (m->state == MRC_EV_SKIP && now + p->skip_hold_us > m->skip_until)
		m->skip_until = now + p->skip_hold_us;
	return false;
}

static void m_reset(struct model *m, u8 state, u64 now)
{
	m->state = state;
	m->since = now;
	m->pending = 0;
	m->ok = 0;
	m->fail = 0;
	m->probe_sent = now;
}

static void m_fail(struct model *m)
{
	m->pending = 0;
	m->ok = 0;
	if (m->fail < 255)
		m->fail++;
}

/*
 * @steps random events at random times, each checked against the model;
 * @cover[from][to] counts the transitions seen.
 */
static void walk(struct __test_metadata *_metadata,
		 const struct mrc_ev_params *pp, int steps,
		 u32 cover[__MRC_EV_STATE_MAX][__MRC_EV_STATE_MAX])
{
	const struct mrc_ev_params p = *pp;
	u64 now = 0, base;
	bool r, mr, deny;
	struct model m;
	struct mrc_ev e;
	int i, op;
	u8 from;

	/* Start close to the wrap so that it happens during the walk. */
	base = 0xffffffffULL - (unit_rand32() % 100000);
	mrc_ev_init(&e, 5, 1, (u32)base);
	memset(&m, 0, sizeof(m));
	m_reset(&m, MRC_EV_GOOD, 0);

	for (i = 0; i < steps; i++) {
		u32 t;

		now += unit_rand32() % 400;
		t = (u32)(base + now);
		op = unit_rand32() % 12;
		mr = false;
		from = m.state;
		switch (op) {
		case 0:
			r = mrc_ev_on_ecn(&e, &p, t);
			mr = m_congested(&m, &p, now);
			break;
		case 1:
			r = mrc_ev_on_nack(&e, &p, t);
			mr = m_congested(&m, &p, now);
			break;
		case 2:
			r = mrc_ev_on_loss(&e, t);
			if (m.state <= MRC_EV_SKIP) {
				m_reset(&m, MRC_EV_ASSUMED_BAD, now);
				mr = true;
			}
			break;
		case 3:
		case 4:
		case 5:
			r = mrc_ev_tick(&e, &p, t);
			if (m.state == MRC_EV_SKIP && now >= m.skip_until) {
				m.state = MRC_EV_GOOD;
				m.since = now;
				mr = true;
			} else if (m.state == MRC_EV_ASSUMED_BAD && m.pending &&
				   now >= m.probe_sent + p.probe_timeout_us) {
				m_fail(&m);
			}
			break;
		case 6:
		case 7: {
			bool due = m.state == MRC_EV_ASSUMED_BAD && !m.pending &&
				   now >= m.probe_sent + p.probe_interval_us;

			ASSERT_EQ(due, mrc_ev_probe_due(&e, &p, t));
			/* Send when due, sometimes anyway. */
			if (due || unit_rand32() % 8 == 0) {
				r = mrc_ev_probe_sent(&e, ++m.seq, t);
				if (m.state == MRC_EV_ASSUMED_BAD) {
					m.pending = 1;
					m.probe_sent = now;
					mr = true;
				}
			} else {
				r = false;
			}
			break;
		}
		case 8:
		case 9: {
			/* The right sequence number mostly, sometimes not. */
			u32 seq = m.seq - (unit_rand32() % 4 == 0);
			u8 need = p.probe_successes ? p.probe_successes : 1;

			r = mrc_ev_probe_acked(&e, seq, &p, t);
			if (m.state == MRC_EV_ASSUMED_BAD && m.pending &&
			    seq == m.seq) {
				if (now >= m.probe_sent + p.probe_timeout_us) {
					m_fail(&m);
				} else {
					m.pending = 0;
					if (++m.ok >= need) {
						m_reset(&m, MRC_EV_GOOD, now);
						mr = true;
					}
				}
			}
			break;
		}
		case 10:
			if (unit_rand32() % 8)
				goto sent;
			deny = unit_rand32() % 2;
			r = mrc_ev_deny(&e, deny, t);
			if (deny && m.state != MRC_EV_DENIED) {
				m_reset(&m, MRC_EV_DENIED, now);
				mr = true;
			} else if (!deny && m.state == MRC_EV_DENIED) {
				m_reset(&m, MRC_EV_GOOD, now);
				mr = true;
			}
			break;
		default:
sent:
			if (mrc_ev_wants_replacement(&e, &p)) {
				ASSERT_TRUE(m.state == MRC_EV_ASSUMED_BAD &&
					    p.replace_after &&
					    m.fail >= p.replace_after);
				r = mrc_ev_replace(&e, e.ev + 1, t);
				m_reset(&m, MRC_EV_GOOD, now);
				mr = true;
			} else {
				ASSERT_FALSE(m.state == MRC_EV_ASSUMED_BAD &&
					     p.replace_after &&
					     m.fail >= p.replace_after);
				mrc_ev_on_sent(&e, 100);
				mrc_ev_on_ack(&e, 1 + unit_rand32() % 50);
				r = false;
			}
			break;
		}
		ASSERT_EQ(mr, r) {
			TH_LOG("step %d op %d state %u", i, op, m.state);
		}
		ASSERT_EQ(m.state, e.state) {
			TH_LOG("step %d op %d", i, op);
		}
		ASSERT_EQ((u32)(base + m.since), e.since_us);
		ASSERT_TRUE(m.state != MRC_EV_SKIP ||
			    (u32)(base + m.skip_until) == e.skip_until_us);
		if (m.state == MRC_EV_ASSUMED_BAD) {
			ASSERT_EQ(m.pending, e.probe_pending);
			ASSERT_EQ(m.ok, e.probe_ok);
			ASSERT_EQ(m.fail, e.probe_fail);
			ASSERT_EQ((u32)(base + m.probe_sent), e.probe_sent_us);
		}
		ASSERT_EQ(mrc_ev_usable(&e),
			  m.state == MRC_EV_GOOD || m.state == MRC_EV_SKIP);
		if (r && op != 6 && op != 7)
			cover[from][m.state]++;
	}
}

TEST(ev_random_walk)
{
	static const struct mrc_ev_params fixed = {
		.skip_hold_us = 1000,
		.probe_interval_us = 500,
		.probe_timeout_us = 1500,
		.probe_successes = 2,
		.replace_after = 3,
	};
	static const u8 want[][2] = {
		{ MRC_EV_GOOD, MRC_EV_SKIP },
		{ MRC_EV_SKIP, MRC_EV_GOOD },
		{ MRC_EV_GOOD, MRC_EV_ASSUMED_BAD },
		{ MRC_EV_SKIP, MRC_EV_ASSUMED_BAD },
		{ MRC_EV_ASSUMED_BAD, MRC_EV_GOOD },
		{ MRC_EV_GOOD, MRC_EV_DENIED },
		{ MRC_EV_SKIP, MRC_EV_DENIED },
		{ MRC_EV_ASSUMED_BAD, MRC_EV_DENIED },
		{ MRC_EV_DENIED, MRC_EV_GOOD },
	};
	u32 cover[__MRC_EV_STATE_MAX][__MRC_EV_STATE_MAX] = { { 0 } };
	struct mrc_ev_params p;
	unsigned int i, k;

	unit_seed();
	walk(_metadata, &fixed, 100000, cover);
	for (k = 0; k < ARRAY_SIZE(want); k++) {
		EXPECT_LT(0U, cover[want[k][0]][want[k][1]]) {
			TH_LOG("%s -> %s never seen",
			       mrc_ev_state_name(want[k][0]),
			       mrc_ev_state_name(want[k][1]));
		}
	}
	/* Then random parameters, 0 (disabled) included. */
	for (i = 0; i < 8; i++) {
		p.skip_hold_us = unit_rand32() % 4 ? 1 + unit_rand32() % 3000 : 0;
		p.probe_interval_us = unit_rand32() % 2000;
		p.probe_timeout_us = unit_rand32() % 4000;
		p.probe_successes = unit_rand32() % 5;
		p.replace_after = unit_rand32() % 6;
		walk(_metadata, &p, 50000, cover);
	}
	printf("# transitions seen (from -> to: count):");
	for (i = 0; i < __MRC_EV_STATE_MAX; i++)
		for (k = 0; k < __MRC_EV_STATE_MAX; k++)
			if (cover[i][k])
				printf(" %s->%s:%u", mrc_ev_state_name(i),
				       mrc_ev_state_name(k), cover[i][k]);
	printf("\n");
}

TEST_HARNESS_MAIN
