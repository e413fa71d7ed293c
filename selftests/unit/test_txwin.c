// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of core/txwin.c: scenarios for each rule (per-path loss, the
 * time rule, timeouts, retransmission, triggers, impossible ACKs, resize,
 * PSN and clock wraparound), then a random walk checked step by step
 * against a shadow model that keeps every PSN as an unwrapped offset.
 */
#include "unit.h"
#include "core/psn.h"
#include "core/rtt.h"
#include "core/txwin.h"

#define NPATHS	4
#define NGROUPS	2
#define MAXCB	(4 * MRC_WIN_PKTS)

struct tx {
	struct mrc_txwin w;
	struct mrc_txpath paths[NPATHS];
	struct mrc_txgroup groups[NGROUPS];
	struct mrc_txrec rec[MRC_WIN_PKTS];
	u32 acked[MAXCB];
	u32 nacked;
	u32 lost[MAXCB];
	u32 nlost;
};

static void cb_acked(void *ctx, u32 psn)
{
	struct tx *t = ctx;

	if (t->nacked < MAXCB)
		t->acked[t->nacked] = psn;
	t->nacked++;
}

static void cb_lost(void *ctx, u32 psn)
{
	struct tx *t = ctx;

	if (t->nlost < MAXCB)
		t->lost[t->nlost] = psn;
	t->nlost++;
}

static void tx_init(struct tx *t, u32 isn, u32 size)
{
	int i;

	memset(t, 0, sizeof(*t));
	mrc_txwin_init(&t->w, isn, t->rec, size, t->groups);	/* all in group 0 */
	for (i = 0; i < NPATHS; i++)
		t->paths[i].ev = 0x100 + 7 * i;
}

static struct mrc_txrec *tx_rec(struct tx *t, u32 psn)
{
	return &t->w.rec[psn & (t->w.size - 1)];
}

/* An ACK: cum, no SACK bits (base = cum), trigger @trig with its record's
 * tx_count and EV unless told otherwise.
 */
static void mk_ack(struct tx *t, struct mrc_ack_info *a, u32 cum, u32 trig)
{
	struct mrc_txrec *r = tx_rec(t, trig);

	memset(a, 0, sizeof(*a));
	a->cum = cum;
	a->base = cum;
	a->trig_psn = trig;
	a->trig_tx = r->tx_count;
	a->trig_ev = t->paths[r->path].ev;
}

static void sack(struct mrc_ack_info *a, u32 psn)
{
	u32 k = psn - a->base;

	a->bits[k / 64] |= 1ULL << (k % 64);
}

static bool do_ack(struct tx *t, const struct mrc_ack_info *a, u32 now,
		   struct mrc_ack_result *res)
{
	return mrc_txwin_ack(&t->w, t->paths, NPATHS, a, now, cb_acked, t, res);
}

static u32 detect(struct tx *t, u32 now, u32 rtt, u32 reo)
{
	return mrc_txwin_detect_loss(&t->w, t->paths, now, rtt, reo, 0, cb_lost, t);
}

/* Recount everything the scoreboard keeps as counters. */
static void check_counters(struct __test_metadata *_metadata, struct tx *t)
{
	u32 inf = 0, bytes = 0, lost = 0, pinf[NPATHS] = { 0 };
	struct mrc_txrec *r;
	u32 psn, i;

	for (psn = t->w.una; psn != t->w.nxt; psn++) {
		r = tx_rec(t, psn);
		ASSERT_NE(MRC_TX_FREE, r->state);
		if (psn == t->w.una)
			ASSERT_NE(MRC_TX_ACKED, r->state);
		if (r->state == MRC_TX_INFLIGHT) {
			inf++;
			bytes += r->len;
			pinf[r->path]++;
		} else if (r->state == MRC_TX_LOST) {
			lost++;
		}
	}
	ASSERT_EQ(inf, t->w.in_flight);
	ASSERT_EQ(bytes, t->w.in_flight_bytes);
	ASSERT_EQ(lost, t->w.lost);
	for (i = 0; i < NPATHS; i++)
		ASSERT_EQ(pinf[i], t->paths[i].in_flight);
	for (i = 0; i < t->w.size; i++) {
		if (mrc_psn_in_window(t->w.una + i, t->w.una, t->w.nxt - t->w.una))
			continue;
		r = tx_rec(t, t->w.una + i);
		ASSERT_EQ(MRC_TX_FREE, r->state);
	}
}

TEST(txwin_send_and_cum_ack)
{
	static struct tx t;
	struct mrc_ack_result res;
	struct mrc_ack_info a;
	u32 isn = 1000, i;

	tx_init(&t, isn, 16);
	EXPECT_TRUE(mrc_txwin_room(&t.w));
	for (i = 0; i < 16; i++)
		ASSERT_EQ(0, mrc_txwin_sent(&t.w, t.paths, isn + i, 0, 100 + i, 5000 + i));
	EXPECT_FALSE(mrc_txwin_room(&t.w));
	EXPECT_EQ(-1, mrc_txwin_sent(&t.w, t.paths, isn + 16, 0, 1, 6000));
	EXPECT_EQ(16U, t.w.in_flight);
	EXPECT_EQ(16U * 100 + 120, t.w.in_flight_bytes);
	EXPECT_EQ(16U, t.paths[0].in_flight);
	EXPECT_EQ(16U, t.paths[0].next_seq);
	EXPECT_EQ(5U, tx_rec(&t, isn + 5)->path_seq);
	check_counters(_metadata, &t);

	/* cum covers 10 PSNs; the trigger is the 10th, delayed 30 us. */
	mk_ack(&t, &a, isn + 10, isn + 9);
	a.ack_delay_us = 30;
	ASSERT_TRUE(do_ack(&t, &a, 6000, &res));
	EXPECT_EQ(10U, res.acked_pkts);
	EXPECT_EQ(10U * 100 + 45, res.acked_bytes);
	EXPECT_EQ(6000U - 5009 - 30, res.rtt_us);
	EXPECT_EQ(0, res.trig_path);
	EXPECT_EQ(10U, t.paths[0].acked_seq);
	EXPECT_EQ(5009U, t.groups[0].newest_acked_us);
	EXPECT_EQ(isn + 10, t.w.una);
	EXPECT_EQ(10U, t.nacked);
	for (i = 0; i < 10; i++)
		EXPECT_EQ(isn + i, t.acked[i]);
	EXPECT_TRUE(mrc_txwin_room(&t.w));
	check_counters(_metadata, &t);

	/* The same ACK again changes nothing and gives no sample. */
	ASSERT_TRUE(do_ack(&t, &a, 6100, &res));
	EXPECT_EQ(0U, res.acked_pkts);
	EXPECT_EQ(0U, res.rtt_us);
	EXPECT_EQ(-1, res.trig_path);

	/* An ack delay longer than the elapsed time: no sample. */
	mk_ack(&t, &a, isn + 11, isn + 10);
	a.ack_delay_us = 2000;
	ASSERT_TRUE(do_ack(&t, &a, 6000, &res));
	EXPECT_EQ(1U, res.acked_pkts);
	EXPECT_EQ(0U, res.rtt_us);
	EXPECT_EQ(0, res.trig_path);
	/* Exactly equal: a sample of 0 is reported as 1. */
	mk_ack(&t, &a, isn + 12, isn + 11);
	a.ack_delay_us = 6000 - 5011;
	ASSERT_TRUE(do_ack(&t, &a, 6000, &res));
	EXPECT_EQ(1U, res.rtt_us);
	/* A clock that went backwards gives no sample, whatever the delay. */
	mk_ack(&t, &a, isn + 13, isn + 12);
	a.ack_delay_us = 0xfffff000U;
	ASSERT_TRUE(do_ack(&t, &a, 4000, &res));
	EXPECT_EQ(1U, res.acked_pkts);
	EXPECT_EQ(0U, res.rtt_us);
	EXPECT_EQ(0, res.trig_path);
	check_counters(_metadata, &t);
}

/*
 * A coalesced ACK: every first transmission it covers is evidence for its
 * own path, not only the trigger; a retransmission is not (which copy
 * arrived is unknown).
 */
TEST(txwin_coalesced_ack_evidence)
{
	static struct tx t;
	struct mrc_ack_result res;
	struct mrc_ack_info a;
	u32 isn = 1000, now = 100, i;

	tx_init(&t, isn, 64);
	/* isn+0..7 on paths 0 1 2 3 0 1 2 3, one every microsecond. */
	for (i = 0; i < 8; i++)
		ASSERT_EQ(0, mrc_txwin_sent(&t.w, t.paths, isn + i, i % 4, 10, now + i));
	/* isn+1 is lost early and resent on path 1 (seq 2). */
	mk_ack(&t, &a, isn, isn + 5);
	sack(&a, isn + 5);
	ASSERT_TRUE(do_ack(&t, &a, 200, &res));
	EXPECT_EQ(1U, detect(&t, 200, 0, 0));
	EXPECT_EQ(isn + 1, t.lost[0]);
	ASSERT_EQ(1, mrc_txwin_sent(&t.w, t.paths, isn + 1, 1, 10, 201));
	/* One ACK, triggered by isn+7 (path 3), covers isn+1, +6 and +7. */
	mk_ack(&t, &a, isn, isn + 7);
	sack(&a, isn + 1);
	sack(&a, isn + 5);
	sack(&a, isn + 6);
	sack(&a, isn + 7);
	ASSERT_TRUE(do_ack(&t, &a, 300, &res));
	EXPECT_EQ(3U, res.acked_pkts);
	EXPECT_EQ(3, res.trig_path);
	EXPECT_EQ(2U, t.paths[3].acked_seq);	/* the trigger, seq 1 */
	EXPECT_EQ(2U, t.paths[2].acked_seq);	/* isn+6, seq 1 */
	EXPECT_EQ(2U, t.paths[1].acked_seq);	/* isn+5 only: +1 was a resend */
	EXPECT_EQ(now + 7, t.groups[0].newest_acked_us);
	/* isn+2 (path 2) and isn+3 (path 3) were overtaken on their paths. */
	EXPECT_EQ(2U, detect(&t, 300, 0, 0));
	EXPECT_EQ(isn + 2, t.lost[1]);
	EXPECT_EQ(isn + 3, t.lost[2]);
	EXPECT_EQ(MRC_TX_INFLIGHT, tx_rec(&t, isn)->state);
	EXPECT_EQ(MRC_TX_INFLIGHT, tx_rec(&t, isn + 4)->state);
	check_counters(_metadata, &t);

	/*
	 * newest_acked_us from a PSN that is not the trigger: isn+8 (path
	 * 0, sent at 400) arrives with an ACK whose trigger is the older
	 * isn+4 (sent at 104).
	 */
	ASSERT_EQ(0, mrc_txwin_sent(&t.w, t.paths, isn + 8, 0, 10, 400));
	mk_ack(&t, &a, isn, isn + 4);
	sack(&a, isn + 4);
	sack(&a, isn + 8);
	ASSERT_TRUE(do_ack(&t, &a, 500, &res));
	EXPECT_EQ(400U, t.groups[0].newest_acked_us);
	EXPECT_EQ(3U, t.paths[0].acked_seq);	/* isn+8 is path 0's seq 2 */
	/* isn (path 0, seq 0) is now overtaken on its path. */
	EXPECT_EQ(1U, detect(&t, 500, 0, 0));
	EXPECT_EQ(MRC_TX_LOST, tx_rec(&t, isn)->state);
	check_counters(_metadata, &t);
}

/* A first transmission declared lost that arrives late is not evidence. */
TEST(txwin_late_lost_no_evidence)
{
	static struct tx t;
	struct mrc_ack_result res;
	struct mrc_ack_info a;
	u32 isn = 10, i;

	tx_init(&t, isn, 64);
	/* isn+0..3 on path 0 (seqs 0..3), isn+4 on path 1 */
	for (i = 0; i < 4; i++)
		ASSERT_EQ(0, mrc_txwin_sent(&t.w, t.paths, isn + i, 0, 10, 100 + i));
	ASSERT_EQ(0, mrc_txwin_sent(&t.w, t.paths, isn + 4, 1, 10, 104));
	/* The RTO: everything in flight is lost. */
	EXPECT_EQ(5U, mrc_txwin_timeout(&t.w, t.paths, cb_lost, &t));
	/* isn+3's first transmission arrives late, trigger isn+4's. */
	mk_ack(&t, &a, isn, isn + 4);
	a.trig_tx = 0;
	sack(&a, isn + 3);
	ASSERT_TRUE(do_ack(&t, &a, 300, &res));
	EXPECT_EQ(1U, res.acked_pkts);
	EXPECT_EQ(0U, t.paths[0].acked_seq);
	check_counters(_metadata, &t);
}

/* Per-path rule: a later transmission acked on the same path. */
TEST(txwin_per_path_loss)
{
	static struct tx t;
	struct mrc_ack_result res;
	struct mrc_ack_info a;
	u32 isn = 0xfffffffeU, now = 100, i;

	tx_init(&t, isn, 64);
	/* PSNs isn+0..5 on paths 0 1 0 1 0 1 */
	for (i = 0; i < 6; i++)
		ASSERT_EQ(0, mrc_txwin_sent(&t.w, t.paths, isn + i, i % 2, 10, now + i));
	/* isn+2 (path 0, seq 1) arrives first. */
	mk_ack(&t, &a, isn, isn + 2);
	sack(&a, isn + 2);
	ASSERT_TRUE(do_ack(&t, &a, 200, &res));
	EXPECT_EQ(1U, res.acked_pkts);
	EXPECT_EQ(2U, t.paths[0].acked_seq);
	EXPECT_EQ(0U, t.paths[1].acked_seq);
	EXPECT_EQ(isn, t.w.una);
	/* isn+0 (path 0, seq 0) is lost; isn+1 (path 1) is not, RTT unknown. */
	EXPECT_EQ(1U, detect(&t, 200, 0, 0));
	EXPECT_EQ(1U, t.nlost);
	EXPECT_EQ(isn, t.lost[0]);
	EXPECT_EQ(MRC_TX_LOST, tx_rec(&t, isn)->state);
	EXPECT_EQ(MRC_TX_INFLIGHT, tx_rec(&t, isn + 1)->state);
	EXPECT_EQ(1U, t.paths[0].lost);
	EXPECT_EQ(0U, t.paths[1].lost);
	EXPECT_EQ(1U, t.w.lost);
	check_counters(_metadata, &t);
	/* Running it again finds nothing new. */
	EXPECT_EQ(0U, detect(&t, 200, 0, 0));

	/* isn+5 (path 1, seq 2) arrives: isn+1 and isn+3 are lost on path 1. */
	mk_ack(&t, &a, isn, isn + 5);
	sack(&a, isn + 2);
	sack(&a, isn + 5);
	ASSERT_TRUE(do_ack(&t, &a, 210, &res));
	EXPECT_EQ(1, res.trig_path);
	EXPECT_EQ(3U, t.paths[1].acked_seq);
	EXPECT_EQ(2U, detect(&t, 210, 0, 0));
	EXPECT_EQ(isn + 1, t.lost[1]);
	EXPECT_EQ(isn + 3, t.lost[2]);
	/* isn+4 (path 0, seq 2) is still in flight. */
	EXPECT_EQ(MRC_TX_INFLIGHT, tx_rec(&t, isn + 4)->state);
	check_counters(_metadata, &t);

	/* The lost isn+0 arrives after all (a late arrival): it is acked. */
	mk_ack(&t, &a, isn + 1, isn);
	ASSERT_TRUE(do_ack(&t, &a, 220, &res));
	EXPECT_EQ(1U, res.acked_pkts);
	EXPECT_EQ(isn + 1, t.w.una);
	EXPECT_EQ(2U, t.w.lost);
	EXPECT_EQ(0, res.trig_path);	/* same transmission: tx_count 0 */
	check_counters(_metadata, &t);
}

/* Time rule: needs an RTT, an older send than the newest delivered by
 * more than the reordering window, and RTT + window elapsed.
 */
TEST(txwin_time_rule)
{
	static struct tx t;
	struct mrc_ack_result res;
	struct mrc_ack_info a;
	u32 isn = 7, t0 = 0xffffff00U;	/* the clock wraps during the test */

	tx_init(&t, isn, 8);
	ASSERT_EQ(0, mrc_txwin_sent(&t.w, t.paths, isn, 0, 1, t0));
	ASSERT_EQ(0, mrc_txwin_sent(&t.w, t.paths, isn + 1, 1, 1, t0 + 40));
	ASSERT_EQ(0, mrc_txwin_sent(&t.w, t.paths, isn + 2, 2, 1, t0 + 100));
	mk_ack(&t, &a, isn, isn + 2);
	sack(&a, isn + 2);
	ASSERT_TRUE(do_ack(&t, &a, t0 + 150, &res));
	EXPECT_EQ(50U, res.rtt_us);
	EXPECT_EQ(t0 + 100, t.groups[0].newest_acked_us);

	/* No RTT: only the per-path rule, which says nothing here. */
	EXPECT_EQ(0U, detect(&t, t0 + 5000, 0, 50));
	/* RTT 100, reo 50: isn is lost once out for more than 150. */
	EXPECT_EQ(0U, detect(&t, t0 + 150, 100, 50));
	EXPECT_EQ(1U, detect(&t, t0 + 151, 100, 50));
	EXPECT_EQ(isn, t.lost[0]);
	EXPECT_EQ(1U, t.paths[0].lost);
	EXPECT_EQ(0U, detect(&t, t0 + 190, 100, 50));
	EXPECT_EQ(1U, detect(&t, t0 + 191, 100, 50));
	EXPECT_EQ(isn + 1, t.lost[1]);
	check_counters(_metadata, &t);

	/* A send within the reordering window of the newest is not lost. */
	tx_init(&t, isn, 8);
	ASSERT_EQ(0, mrc_txwin_sent(&t.w, t.paths, isn, 0, 1, t0 + 960));
	ASSERT_EQ(0, mrc_txwin_sent(&t.w, t.paths, isn + 1, 1, 1, t0 + 1000));
	mk_ack(&t, &a, isn, isn + 1);
	sack(&a, isn + 1);
	ASSERT_TRUE(do_ack(&t, &a, t0 + 1100, &res));
	EXPECT_EQ(0U, detect(&t, t0 + 100000, 100, 40));
	EXPECT_EQ(1U, detect(&t, t0 + 100000, 100, 39));
}

/*
 * The time rule compares a transmission with the newest delivery of its
 * own group: a plane with a shorter queue does not make another plane's
 * packets late (make bench's P1 lost dozens of packets so).
 */
TEST(txwin_time_rule_per_group)
{
	static struct tx t;
	struct mrc_ack_result res;
	struct mrc_ack_info a;
	u32 isn = 0xfffffffcU, t0 = 0x7fffff00U;

	tx_init(&t, isn, 8);
	t.paths[2].group = 1;
	t.paths[3].group = 1;
	/*
	 * isn on path 0 (group 0); isn+1 on path 2 (group 1) 5 us later;
	 * isn+2 on path 3 (group 1), isn+3 on path 1 (group 0) 60 us after
	 * isn.  isn+2 and isn+3 arrive: both groups are alive.
	 */
	ASSERT_EQ(0, mrc_txwin_sent(&t.w, t.paths, isn, 0, 1, t0));
	ASSERT_EQ(0, mrc_txwin_sent(&t.w, t.paths, isn + 1, 2, 1, t0 + 5));
	ASSERT_EQ(0, mrc_txwin_sent(&t.w, t.paths, isn + 2, 3, 1, t0 + 6));
	ASSERT_EQ(0, mrc_txwin_sent(&t.w, t.paths, isn + 3, 1, 1, t0 + 60));
	mk_ack(&t, &a, isn, isn + 3);
	sack(&a, isn + 2);
	sack(&a, isn + 3);
	ASSERT_TRUE(do_ack(&t, &a, t0 + 100, &res));
	EXPECT_EQ(t0 + 60, t.groups[0].newest_acked_us);
	EXPECT_EQ(t0 + 6, t.groups[1].newest_acked_us);
	EXPECT_EQ(t0 + 60, t.w.newest_acked_us);
	EXPECT_EQ(t0 + 100, t.groups[0].last_rx_us);
	EXPECT_EQ(t0 + 100, t.groups[1].last_rx_us);
	/* RTT 100, reo 50: isn is late against group 0's newest */
	EXPECT_EQ(0U, detect(&t, t0 + 150, 100, 50));
	EXPECT_EQ(1U, detect(&t, t0 + 151, 100, 50));
	EXPECT_EQ(isn, t.lost[0]);
	/*
	 * isn+1 is not, although 55 us older than the newest delivery of
	 * any group (the rule before groups would have declared it lost):
	 * its own group's newest is 1 us after it.
	 */
	EXPECT_EQ(0U, detect(&t, t0 + 156, 100, 50));
	EXPECT_EQ(MRC_TX_INFLIGHT, tx_rec(&t, isn + 1)->state);
	/* Group 1 silent for longer than RTT + window: any group judges. */
	EXPECT_EQ(0U, detect(&t, t0 + 250, 100, 50));
	EXPECT_EQ(1U, detect(&t, t0 + 251, 100, 50));
	EXPECT_EQ(isn + 1, t.lost[1]);
	check_counters(_metadata, &t);

	/*
	 * A group that never delivered is not dead but slower (its first
	 * packets): only its own deliveries, or the timeout, judge it.
	 */
	tx_init(&t, isn, 8);
	t.paths[2].group = 1;
	ASSERT_EQ(0, mrc_txwin_sent(&t.w, t.paths, isn, 2, 1, t0));
	ASSERT_EQ(0, mrc_txwin_sent(&t.w, t.paths, isn + 1, 0, 1, t0 + 60));
	mk_ack(&t, &a, isn, isn + 1);
	sack(&a, isn + 1);
	ASSERT_TRUE(do_ack(&t, &a, t0 + 100, &res));
	EXPECT_FALSE(t.groups[1].delivered);
	EXPECT_TRUE(t.groups[0].delivered);
	EXPECT_EQ(0U, detect(&t, t0 + 100000, 100, 50));
	EXPECT_EQ(MRC_TX_INFLIGHT, tx_rec(&t, isn)->state);
	check_counters(_metadata, &t);

	/* Stale times of a group become "long ago" when the group sends. */
	tx_init(&t, isn, 8);
	t.paths[2].group = 1;
	t.groups[1].newest_acked_us = t0 - 0x50000000U;
	t.groups[1].last_rx_us = t0 - 0x50000000U;
	ASSERT_EQ(0, mrc_txwin_sent(&t.w, t.paths, isn, 0, 1, t0));
	EXPECT_EQ(t0 - 0x50000000U, t.groups[1].newest_acked_us);
	/* (group 0's 0 was stale, the scoreboard's too) */
	EXPECT_EQ(t0 - (1U << 29), t.groups[0].newest_acked_us);
	EXPECT_EQ(t0 - (1U << 29), t.groups[0].last_rx_us);
	EXPECT_EQ(t0 - (1U << 29), t.w.newest_acked_us);
	ASSERT_EQ(0, mrc_txwin_sent(&t.w, t.paths, isn + 1, 2, 1, t0 + 1));
	EXPECT_EQ(t0 + 1 - (1U << 29), t.groups[1].newest_acked_us);
	EXPECT_EQ(t0 + 1 - (1U << 29), t.groups[1].last_rx_us);
	/* "long ago" stays valid: no rewrite at the next send */
	ASSERT_EQ(0, mrc_txwin_sent(&t.w, t.paths, isn + 2, 2, 1, t0 + 2));
	EXPECT_EQ(t0 + 1 - (1U << 29), t.groups[1].newest_acked_us);
}

/*
 * MRC_TXW_PATH_WAIT: a later transmission on the same path arrived, but
 * the earlier one is declared lost only once out for longer than an RTT
 * plus the reordering window (a host may hand two packets of one path to
 * two CPUs); without the flag, at once.
 */
TEST(txwin_path_wait)
{
	static struct tx t;
	struct mrc_ack_result res;
	struct mrc_ack_info a;
	u32 isn = 40, t0 = 0xfffffe00U;	/* the clock wraps */
	int k;

	for (k = 0; k < 2; k++) {
		tx_init(&t, isn, 8);
		ASSERT_EQ(0, mrc_txwin_sent(&t.w, t.paths, isn, 0, 1, t0));
		ASSERT_EQ(0, mrc_txwin_sent(&t.w, t.paths, isn + 1, 0, 1, t0 + 10));
		mk_ack(&t, &a, isn, isn + 1);
		sack(&a, isn + 1);
		ASSERT_TRUE(do_ack(&t, &a, t0 + 110, &res));
		EXPECT_EQ(2U, t.paths[0].acked_seq);
		if (!k) {	/* at once */
			EXPECT_EQ(1U, mrc_txwin_detect_loss(&t.w, t.paths, t0 + 110, 100, 1000,
							    0, cb_lost, &t));
			continue;
		}
		/* RTT 100 + window 1000: lost after 1100 us, not before */
		EXPECT_EQ(0U, mrc_txwin_detect_loss(&t.w, t.paths, t0 + 110, 100, 1000,
						    MRC_TXW_PATH_WAIT, cb_lost, &t));
		EXPECT_EQ(0U, mrc_txwin_detect_loss(&t.w, t.paths, t0 + 1100, 100, 1000,
						    MRC_TXW_PATH_WAIT, cb_lost, &t));
		/* the late packet may still arrive in between: not lost then */
		EXPECT_EQ(1U, mrc_txwin_detect_loss(&t.w, t.paths, t0 + 1101, 100, 1000,
						    MRC_TXW_PATH_WAIT, cb_lost, &t));
		EXPECT_EQ(isn, t.lost[0]);
		/* with no RTT yet: the window alone */
		tx_init(&t, isn, 8);
		ASSERT_EQ(0, mrc_txwin_sent(&t.w, t.paths, isn, 0, 1, t0));
		ASSERT_EQ(0, mrc_txwin_sent(&t.w, t.paths, isn + 1, 0, 1, t0 + 10));
		mk_ack(&t, &a, isn, isn + 1);
		sack(&a, isn + 1);
		ASSERT_TRUE(do_ack(&t, &a, t0 + 110, &res));
		EXPECT_EQ(0U, mrc_txwin_detect_loss(&t.w, t.paths, t0 + 1000, 0, 1000,
						    MRC_TXW_PATH_WAIT, cb_lost, &t));
		EXPECT_EQ(1U, mrc_txwin_detect_loss(&t.w, t.paths, t0 + 1001, 0, 1000,
						    MRC_TXW_PATH_WAIT, cb_lost, &t));
		check_counters(_metadata, &t);
	}
}

/*
 * The walk ends at the earliest first transmission not yet overdue (white
 * box: send times that decrease, which mrc_txwin_sent() rules out, make
 * the end visible).  isn+1 is overdue and on a path with later evidence,
 * but behind isn, which is not: with MRC_TXW_PATH_WAIT it is not reached.
 */
TEST(txwin_walk_ends_early)
{
	static struct tx t;
	struct mrc_ack_result res;
	struct mrc_ack_info a;
	u32 isn = 3, t0 = 1000000;

	tx_init(&t, isn, 8);
	ASSERT_EQ(0, mrc_txwin_sent(&t.w, t.paths, isn, 0, 1, t0 + 5000));
	ASSERT_EQ(0, mrc_txwin_sent(&t.w, t.paths, isn + 1, 1, 1, t0));
	ASSERT_EQ(0, mrc_txwin_sent(&t.w, t.paths, isn + 2, 1, 1, t0 + 10));
	mk_ack(&t, &a, isn, isn + 2);
	sack(&a, isn + 2);
	ASSERT_TRUE(do_ack(&t, &a, t0 + 5100, &res));
	EXPECT_EQ(0U, mrc_txwin_detect_loss(&t.w, t.paths, t0 + 5200, 100, 1000,
					    MRC_TXW_PATH_WAIT, cb_lost, &t));
	EXPECT_EQ(1U, mrc_txwin_detect_loss(&t.w, t.paths, t0 + 5200, 100, 1000,
					    0, cb_lost, &t));
	EXPECT_EQ(isn + 1, t.lost[0]);
}

/*
 * One round of the adaptive reordering window: PSN @psn on path 0 at
 * *@now, @psn + 1 on path 1 1000 us later and acknowledged (its trigger);
 * the time rule (RTT 100, window 50 x reo_mult <= 400) declares @psn lost.
 * Then either @psn arrives after all (@late: spurious) or its
 * retransmission on path 1 is acknowledged (not spurious).
 */
static void reo_round(struct __test_metadata *_metadata, struct tx *t, u32 psn,
		      u32 *now, bool late)
{
	struct mrc_ack_result res;
	struct mrc_ack_info a;

	ASSERT_EQ(0, mrc_txwin_sent(&t->w, t->paths, psn, 0, 1, *now));
	ASSERT_EQ(0, mrc_txwin_sent(&t->w, t->paths, psn + 1, 1, 1, *now + 1000));
	mk_ack(t, &a, psn, psn + 1);
	sack(&a, psn + 1);
	ASSERT_TRUE(do_ack(t, &a, *now + 1100, &res));
	ASSERT_EQ(0U, res.spurious);
	ASSERT_EQ(1U, mrc_txwin_detect_loss(&t->w, t->paths, *now + 3000, 100, 50,
					    MRC_TXW_REO_ADAPT, NULL, NULL));
	ASSERT_TRUE(t->w.reo_armed);
	if (!late)
		ASSERT_EQ(1, mrc_txwin_sent(&t->w, t->paths, psn, 1, 1, *now + 3000));
	mk_ack(t, &a, psn + 2, psn);	/* the original, or its retransmission */
	ASSERT_TRUE(do_ack(t, &a, *now + 3100, &res));
	ASSERT_EQ(late ? 1U : 0U, res.spurious);
	ASSERT_EQ(psn + 2, t->w.una);
	*now += 5000;
}

/*
 * The reordering window grows by the caller's for each batch of losses
 * that proves spurious, up to MRC_REO_MULT_MAX times it, and is the
 * caller's again after MRC_REO_PERSIST batches of real ones.  An ACK
 * triggered by the original of a retransmitted PSN is evidence too.
 */
TEST(txwin_reo_adapts)
{
	static struct tx t;
	struct mrc_ack_result res;
	struct mrc_ack_info a;
	u32 isn = 0xfffffff0U, now = 0xfffff000U, psn = isn;	/* both wrap */
	int i;

	tx_init(&t, isn, 8);
	EXPECT_EQ(1, t.w.reo_mult);
	EXPECT_FALSE(t.w.reo_armed);
	for (i = 0; i < MRC_REO_MULT_MAX + 2; i++, psn += 2) {
		reo_round(_metadata, &t, psn, &now, true);
		EXPECT_EQ(i + 2 > MRC_REO_MULT_MAX ? MRC_REO_MULT_MAX : i + 2, t.w.reo_mult);
		EXPECT_FALSE(t.w.reo_armed);
		EXPECT_EQ(0, t.w.reo_clean);
	}
	/* 8 x 50: a send 300 us before the newest delivery is not lost yet */
	ASSERT_EQ(0, mrc_txwin_sent(&t.w, t.paths, psn, 0, 1, now));
	ASSERT_EQ(0, mrc_txwin_sent(&t.w, t.paths, psn + 1, 1, 1, now + 300));
	mk_ack(&t, &a, psn, psn + 1);
	sack(&a, psn + 1);
	ASSERT_TRUE(do_ack(&t, &a, now + 400, &res));
	EXPECT_EQ(0U, mrc_txwin_detect_loss(&t.w, t.paths, now + 100000, 100, 50,
					    MRC_TXW_REO_ADAPT, NULL, NULL));
	EXPECT_EQ(1U, mrc_txwin_detect_loss(&t.w, t.paths, now + 100000, 100, 50, 0,
					    NULL, NULL));
	/* resent, and the original's ACK arrives: evidence for that batch */
	ASSERT_EQ(1, mrc_txwin_sent(&t.w, t.paths, psn, 1, 1, now + 100000));
	mk_ack(&t, &a, psn + 2, psn);
	a.trig_tx = 0;
	ASSERT_TRUE(do_ack(&t, &a, now + 100100, &res));
	EXPECT_EQ(1U, res.spurious);
	EXPECT_EQ(-1, res.trig_path);
	EXPECT_EQ(MRC_REO_MULT_MAX, t.w.reo_mult);
	EXPECT_FALSE(t.w.reo_armed);
	EXPECT_EQ(0, t.w.reo_clean);
	psn += 2;
	now += 200000;
	/* real losses: the 16th batch resets it */
	for (i = 1; i < MRC_REO_PERSIST; i++, psn += 2) {
		reo_round(_metadata, &t, psn, &now, false);
		EXPECT_EQ(MRC_REO_MULT_MAX, t.w.reo_mult);
		EXPECT_EQ(i, t.w.reo_clean);
	}
	reo_round(_metadata, &t, psn, &now, false);
	EXPECT_EQ(1, t.w.reo_mult);
	EXPECT_EQ(0, t.w.reo_clean);
	EXPECT_TRUE(t.w.reo_armed);
	check_counters(_metadata, &t);
}

/*
 * What is not evidence: a late arrival after an RTO (no loss declared by
 * the time rule: not armed); a trimmed packet's NACK, or an ACK that
 * names an earlier copy but does not cover its PSN.  What is: an ACK
 * that names the original and covers it.  And an ACK whose trigger an
 * earlier ACK acknowledged gives no RTT sample (its hold is stale).
 */
TEST(txwin_reo_evidence)
{
	static struct tx t;
	struct mrc_ack_result res;
	struct mrc_ack_info a;
	u32 isn = 500, now = 1000, p = isn + 1;

	tx_init(&t, isn, 16);
	ASSERT_EQ(0, mrc_txwin_sent(&t.w, t.paths, isn, 0, 1, now));
	ASSERT_EQ(1U, mrc_txwin_timeout(&t.w, t.paths, NULL, NULL));
	mk_ack(&t, &a, isn + 1, isn);
	ASSERT_TRUE(do_ack(&t, &a, now + 100, &res));
	EXPECT_EQ(1U, res.spurious);
	EXPECT_EQ(1, t.w.reo_mult);
	EXPECT_FALSE(t.w.reo_armed);

	/* p on path 0 declared lost by the time rule, resent on path 1 */
	ASSERT_EQ(0, mrc_txwin_sent(&t.w, t.paths, p, 0, 1, now));
	ASSERT_EQ(0, mrc_txwin_sent(&t.w, t.paths, p + 1, 1, 1, now + 1000));
	mk_ack(&t, &a, p, p + 1);
	sack(&a, p + 1);
	ASSERT_TRUE(do_ack(&t, &a, now + 1100, &res));
	EXPECT_EQ(100U, res.rtt_us);
	ASSERT_EQ(1U, mrc_txwin_detect_loss(&t.w, t.paths, now + 3000, 100, 50,
					    MRC_TXW_REO_ADAPT, NULL, NULL));
	EXPECT_TRUE(t.w.reo_armed);
	ASSERT_EQ(1, mrc_txwin_sent(&t.w, t.paths, p, 1, 1, now + 3000));
	/* p + 1's ACK again, later: no sample from a trigger acked before */
	ASSERT_TRUE(do_ack(&t, &a, now + 5000, &res));
	EXPECT_EQ(0U, res.rtt_us);
	EXPECT_EQ(1, res.trig_path);
	/* the trimmed original's NACK: it did not arrive */
	mk_ack(&t, &a, p, p);
	a.trig_tx = 0;
	a.nack_reason = MRC_NACK_TRIMMED;
	ASSERT_TRUE(do_ack(&t, &a, now + 5100, &res));
	EXPECT_EQ(0U, res.spurious);
	/* an ACK naming the original without covering p */
	mk_ack(&t, &a, p, p);
	a.trig_tx = 0;
	sack(&a, p + 1);
	ASSERT_TRUE(do_ack(&t, &a, now + 5200, &res));
	EXPECT_EQ(0U, res.spurious);
	EXPECT_EQ(1, t.w.reo_mult);
	/* covering it: the original arrived after its copy left */
	mk_ack(&t, &a, p + 2, p);
	a.trig_tx = 0;
	ASSERT_TRUE(do_ack(&t, &a, now + 5300, &res));
	EXPECT_EQ(1U, res.spurious);
	EXPECT_EQ(2, t.w.reo_mult);
	EXPECT_FALSE(t.w.reo_armed);
	EXPECT_EQ(p + 2, t.w.una);
	EXPECT_EQ(p + 2, t.w.reo_grow_seq);
	EXPECT_EQ(p + 2, t.w.reo_loss_seq);
	check_counters(_metadata, &t);
}

/* Before any delivery, a never-set newest_acked_us (0) must not make
 * everything look old, whatever the clock says.
 */
TEST(txwin_time_rule_no_delivery_yet)
{
	static const u32 starts[] = { 0x80000100U, 0xffffff00U, 0x40000000U, 5 };
	static struct tx t;
	u32 t0;
	unsigned int k;

	for (k = 0; k < ARRAY_SIZE(starts); k++) {
		t0 = starts[k];
		tx_init(&t, 0, 8);
		ASSERT_EQ(0, mrc_txwin_sent(&t.w, t.paths, 0, 0, 1, t0));
		ASSERT_EQ(0, mrc_txwin_sent(&t.w, t.paths, 1, 1, 1, t0 + 10));
		EXPECT_EQ(0U, detect(&t, t0 + 1000000, 100, 10));
		EXPECT_EQ(0U, detect(&t, t0 + 300, 100, 10));
	}
}

TEST(txwin_timeout_and_retransmit)
{
	static struct tx t;
	struct mrc_ack_result res;
	struct mrc_ack_info a;
	u32 isn = 0xfffffff8U, psn, i;

	tx_init(&t, isn, 16);
	for (i = 0; i < 12; i++)
		ASSERT_EQ(0, mrc_txwin_sent(&t.w, t.paths, isn + i, i % 3, 1000, 10 * i));
	/* isn + 3 and isn + 7 arrived (no trigger info worth anything) */
	mk_ack(&t, &a, isn, isn + 3);
	a.trig_ev = 0x3fff;
	sack(&a, isn + 3);
	sack(&a, isn + 7);
	ASSERT_TRUE(do_ack(&t, &a, 200, &res));
	EXPECT_EQ(2U, res.acked_pkts);
	EXPECT_EQ(0U, res.rtt_us);
	EXPECT_EQ(-1, res.trig_path);

	EXPECT_EQ(10U, mrc_txwin_timeout(&t.w, t.paths, cb_lost, &t));
	EXPECT_EQ(0U, t.w.in_flight);
	EXPECT_EQ(0U, t.w.in_flight_bytes);
	EXPECT_EQ(10U, t.w.lost);
	EXPECT_EQ(3ULL, t.paths[0].lost);	/* 0 6 9 (3 was acked) */
	EXPECT_EQ(3ULL, t.paths[1].lost);	/* 1 4 10 (7 was acked) */
	EXPECT_EQ(4ULL, t.paths[2].lost);	/* 2 5 8 11 */
	EXPECT_EQ(0U, mrc_txwin_timeout(&t.w, t.paths, cb_lost, &t));
	check_counters(_metadata, &t);

	/* next_lost walks the LOST PSNs in order, skipping acked ones. */
	ASSERT_TRUE(mrc_txwin_next_lost(&t.w, isn - 100, &psn));
	EXPECT_EQ(isn, psn);
	ASSERT_TRUE(mrc_txwin_next_lost(&t.w, isn + 3, &psn));
	EXPECT_EQ(isn + 4, psn);
	ASSERT_TRUE(mrc_txwin_next_lost(&t.w, isn + 7, &psn));
	EXPECT_EQ(isn + 8, psn);
	EXPECT_FALSE(mrc_txwin_next_lost(&t.w, isn + 12, &psn));
	EXPECT_FALSE(mrc_txwin_next_lost(&t.w, isn + 1000, &psn));

	/* Retransmit isn + 4 (lost on path 1) on path 3. */
	EXPECT_EQ(-1, mrc_txwin_sent(&t.w, t.paths, isn + 3, 3, 1000, 300));	/* acked */
	EXPECT_EQ(-1, mrc_txwin_sent(&t.w, t.paths, isn + 13, 3, 1000, 300));	/* not nxt */
	EXPECT_EQ(-1, mrc_txwin_sent(&t.w, t.paths, isn - 1, 3, 1000, 300));	/* behind */
	EXPECT_EQ(1, mrc_txwin_sent(&t.w, t.paths, isn + 4, 3, 1000, 300));
	EXPECT_EQ(-1, mrc_txwin_sent(&t.w, t.paths, isn + 4, 3, 1000, 300));	/* in flight */
	EXPECT_EQ(3, tx_rec(&t, isn + 4)->path);
	EXPECT_EQ(0U, tx_rec(&t, isn + 4)->path_seq);
	EXPECT_EQ(300U, tx_rec(&t, isn + 4)->sent_us);
	EXPECT_EQ(1U, t.paths[3].next_seq);
	EXPECT_EQ(1U, t.paths[3].in_flight);
	EXPECT_EQ(9U, t.w.lost);
	EXPECT_EQ(1U, t.w.in_flight);
	check_counters(_metadata, &t);
	/* Lost again, and again: tx_count counts on, capped at 255. */
	for (i = 2; i < 300; i++) {
		mrc_txwin_timeout(&t.w, t.paths, NULL, NULL);
		ASSERT_EQ(i < 255 ? (int)i : 255,
			  mrc_txwin_sent(&t.w, t.paths, isn + 4, i % 4, 1000, 300 + i));
	}
	check_counters(_metadata, &t);
}

/* A trigger naming an older transmission than the record's gives no
 * sample and no path evidence; the PSN is acked all the same.
 */
TEST(txwin_stale_trigger)
{
	static struct tx t;
	struct mrc_ack_result res;
	struct mrc_ack_info a;
	u32 isn = 0xffffffffU;

	tx_init(&t, isn, 4);
	ASSERT_EQ(0, mrc_txwin_sent(&t.w, t.paths, isn, 0, 1, 1000));
	ASSERT_EQ(0, mrc_txwin_sent(&t.w, t.paths, isn + 1, 0, 1, 1001));
	mrc_txwin_timeout(&t.w, t.paths, NULL, NULL);
	ASSERT_EQ(1, mrc_txwin_sent(&t.w, t.paths, isn, 1, 1, 5000));
	/* The original (tx 0 on path 0) arrives. */
	mk_ack(&t, &a, isn + 1, isn);
	a.trig_tx = 0;
	a.trig_ev = t.paths[0].ev;
	ASSERT_TRUE(do_ack(&t, &a, 5010, &res));
	EXPECT_EQ(1U, res.acked_pkts);
	EXPECT_EQ(0U, res.rtt_us);
	EXPECT_EQ(-1, res.trig_path);
	EXPECT_EQ(0U, t.paths[0].acked_seq);
	EXPECT_EQ(0U, t.paths[1].acked_seq);
	EXPECT_EQ(0U, t.paths[1].in_flight);
	check_counters(_metadata, &t);

	/* The right tx_count on the wrong EV: no sample either. */
	ASSERT_EQ(1, mrc_txwin_sent(&t.w, t.paths, isn + 1, 2, 1, 6000));
	mk_ack(&t, &a, isn + 1, isn + 1);
	sack(&a, isn + 1);
	a.trig_ev = t.paths[0].ev;
	ASSERT_TRUE(do_ack(&t, &a, 6010, &res));
	EXPECT_EQ(1U, res.acked_pkts);
	EXPECT_EQ(0U, res.rtt_us);
	EXPECT_EQ(-1, res.trig_path);
	EXPECT_EQ(t.w.una, t.w.nxt);
	/* A trigger below una (freed): accepted, no sample. */
	ASSERT_EQ(0, mrc_txwin_sent(&t.w, t.paths, isn + 2, 2, 1, 7000));
	mk_ack(&t, &a, isn + 3, isn + 2);
	a.trig_psn = isn;
	ASSERT_TRUE(do_ack(&t, &a, 7010, &res));
	EXPECT_EQ(1U, res.acked_pkts);
	EXPECT_EQ(0U, res.rtt_us);
	check_counters(_metadata, &t);
}

TEST(txwin_bad_acks_change_nothing)
{
	static struct tx t, saved;
	struct mrc_ack_result res;
	struct mrc_ack_info a;
	u32 isn = 0xfffffff0U, i;
	int k;

	tx_init(&t, isn, 64);
	for (i = 0; i < 40; i++)
		ASSERT_EQ(0, mrc_txwin_sent(&t.w, t.paths, isn + i, i % 4, 1, i));
	mk_ack(&t, &a, isn + 5, isn + 4);
	ASSERT_TRUE(do_ack(&t, &a, 100, &res));
	detect(&t, 100, 0, 0);
	memcpy(&saved, &t, sizeof(t));

	for (k = 0; k < 7; k++) {
		mk_ack(&t, &a, isn + 10, isn + 12);
		sack(&a, isn + 12);
		switch (k) {
		case 0:
			a.cum = isn + 41;		/* cum beyond nxt */
			break;
		case 1:
			sack(&a, isn + 40);		/* bit for nxt */
			break;
		case 2:
			a.bits[3] |= 1ULL << 63;	/* base + 255, far beyond */
			break;
		case 3:
			a.trig_psn = isn + 40;		/* trigger at nxt */
			break;
		case 4:
			a.trig_psn = isn + 0x7fffffffU;
			break;
		case 5:
			a.cum = isn + 0x70000000U;
			break;
		default:
			a.base = isn + 39;		/* bit 0: ok; bit 1: nxt */
			memset(a.bits, 0, sizeof(a.bits));
			a.bits[0] = 3;
			break;
		}
		ASSERT_FALSE(do_ack(&t, &a, 200, &res)) {
			TH_LOG("case %d", k);
		}
		ASSERT_EQ(0, memcmp(&t, &saved, sizeof(t))) {
			TH_LOG("case %d", k);
		}
	}
	/* cum == nxt and a bit for nxt - 1 are fine; bits below una ignored. */
	mk_ack(&t, &a, isn + 40, isn + 39);
	a.base = isn - 100;
	memset(a.bits, 0xff, sizeof(a.bits));
	a.bits[2] = 0;
	a.bits[3] = 0;
	ASSERT_TRUE(do_ack(&t, &a, 200, &res));
	EXPECT_EQ(35U, res.acked_pkts);
	EXPECT_EQ(t.w.nxt, t.w.una);
	check_counters(_metadata, &t);
}

TEST(txwin_resize)
{
	static struct mrc_txrec big[MRC_WIN_PKTS], small[32], odd[48];
	static struct tx t, ref;
	struct mrc_ack_result res;
	struct mrc_ack_info a;
	struct mrc_txrec *old;
	u32 isn = 0xffffffe0U, i;

	tx_init(&t, isn, 64);
	for (i = 0; i < 60; i++)
		ASSERT_EQ(0, mrc_txwin_sent(&t.w, t.paths, isn + i, i % 4, 10 + i, i));
	mk_ack(&t, &a, isn + 35, isn + 36);
	sack(&a, isn + 36);
	sack(&a, isn + 50);
	ASSERT_TRUE(do_ack(&t, &a, 100, &res));
	detect(&t, 100, 0, 0);
	mrc_txwin_timeout(&t.w, t.paths, NULL, NULL);
	ASSERT_EQ(1, mrc_txwin_sent(&t.w, t.paths, isn + 40, 2, 50, 200));
	memcpy(&ref, &t, sizeof(t));
	ASSERT_EQ(25U, t.w.nxt - t.w.una);

	EXPECT_TRUE(!mrc_txwin_resize(&t.w, small, 16));	/* too small */
	EXPECT_TRUE(!mrc_txwin_resize(&t.w, odd, 48));	/* not 2^n */
	EXPECT_TRUE(!mrc_txwin_resize(&t.w, big, 2 * MRC_WIN_PKTS));
	EXPECT_TRUE(!mrc_txwin_resize(&t.w, big, 0));
	EXPECT_TRUE(t.rec == t.w.rec);

	old = mrc_txwin_resize(&t.w, big, MRC_WIN_PKTS);
	EXPECT_TRUE(t.rec == old);
	EXPECT_TRUE(big == t.w.rec);
	old = mrc_txwin_resize(&t.w, small, 32);
	EXPECT_TRUE(big == old);
	EXPECT_EQ(32U, t.w.size);
	for (i = 0; i < 25; i++)
		ASSERT_EQ(0, memcmp(&small[(t.w.una + i) & 31],
				    &ref.rec[(t.w.una + i) & 63], sizeof(small[0])));
	EXPECT_EQ(ref.w.in_flight, t.w.in_flight);
	EXPECT_EQ(ref.w.lost, t.w.lost);
	check_counters(_metadata, &t);
	/* And it goes on working: ack everything. */
	while (mrc_txwin_next_lost(&t.w, t.w.una, &i))
		ASSERT_LE(1, mrc_txwin_sent(&t.w, t.paths, i, 3, 1, 300));
	mk_ack(&t, &a, t.w.nxt, t.w.nxt - 1);
	ASSERT_TRUE(do_ack(&t, &a, 400, &res));
	EXPECT_EQ(23U, res.acked_pkts);	/* 36 and 50 were acked before */
	EXPECT_EQ(t.w.nxt, t.w.una);
	check_counters(_metadata, &t);
}

/* A window of size 1 (stop and wait) across the 2^32 wrap. */
TEST(txwin_size_one_wraps)
{
	static struct tx t;
	struct mrc_ack_result res;
	struct mrc_ack_info a;
	u32 psn = 0xfffffffdU, now = 0xfffffff0U;
	int i;

	tx_init(&t, psn, 1);
	for (i = 0; i < 8; i++, psn++, now += 7) {
		ASSERT_EQ(0, mrc_txwin_sent(&t.w, t.paths, psn, i % 2, 1, now));
		ASSERT_FALSE(mrc_txwin_room(&t.w));
		mk_ack(&t, &a, psn + 1, psn);
		ASSERT_TRUE(do_ack(&t, &a, now + 5, &res));
		ASSERT_EQ(5U, res.rtt_us);
		ASSERT_EQ(psn + 1, t.w.una);
		ASSERT_EQ(now, t.groups[0].newest_acked_us);
	}
	EXPECT_EQ(5U, t.w.una);
}

/*
 * Random walk against a shadow model.  PSNs are unwrapped offsets from
 * isn; each has the record the model expects, and after each step the
 * scoreboard must agree with the model record by record and counter by
 * counter.  Trigger handling, per-path and time rules are re-derived
 * from the model's own state.
 */
#define SH_MAX	30000

struct shadow {
	u8 state;
	u8 tx_count;
	u16 path;
	u32 path_seq;
	u32 sent;
	u32 len;
	bool received;
};

struct walk {
	struct tx t;
	struct mrc_txrec ring2[MRC_WIN_PKTS];
	struct shadow sh[SH_MAX];
	struct mrc_txpath mp[NPATHS];
	u64 una, nxt;		/* unwrapped */
	u32 isn, now;
	bool newest_set[NGROUPS + 1];
	u32 newest[NGROUPS + 1];	/* per group of paths, then of any */
	u32 last_rx[NGROUPS];	/* txwin's: 0, "long ago" if stale at a send */
	bool delivered[NGROUPS];
	u8 reo_mult, reo_clean;	/* the adaptive reordering window */
	bool reo_armed;
	u64 grow_end, loss_end;	/* their rounds end when una reaches them */
	struct mrc_rtt rtt;
	u64 arrivals[SH_MAX];	/* off << 16 | tx_count << 8 | path */
	u32 narrivals;
};

static void walk_compare(struct __test_metadata *_metadata, struct walk *m)
{
	struct tx *t = &m->t;
	struct mrc_txrec *r;
	struct shadow *s;
	u64 off;
	int i;

	ASSERT_EQ((u32)(m->isn + m->una), t->w.una);
	ASSERT_EQ((u32)(m->isn + m->nxt), t->w.nxt);
	for (off = m->una; off < m->nxt; off++) {
		r = tx_rec(t, m->isn + off);
		s = &m->sh[off];
		ASSERT_EQ(s->state, r->state) {
			TH_LOG("off %llu", (unsigned long long)off);
		}
		ASSERT_EQ(s->tx_count, r->tx_count);
		ASSERT_EQ(s->path, r->path);
		ASSERT_EQ(s->path_seq, r->path_seq);
		ASSERT_EQ(s->sent, r->sent_us);
		ASSERT_EQ(s->len, r->len);
	}
	for (i = 0; i < NPATHS; i++) {
		ASSERT_EQ(m->mp[i].next_seq, t->paths[i].next_seq);
		ASSERT_EQ(m->mp[i].acked_seq, t->paths[i].acked_seq);
		ASSERT_EQ(m->mp[i].lost, t->paths[i].lost);
	}
	for (i = 0; i < NGROUPS; i++)
		if (m->newest_set[i])
			ASSERT_EQ(m->newest[i], t->groups[i].newest_acked_us);
	if (m->newest_set[NGROUPS])
		ASSERT_EQ(m->newest[NGROUPS], t->w.newest_acked_us);
	for (i = 0; i < NGROUPS; i++) {
		ASSERT_EQ(m->last_rx[i], t->groups[i].last_rx_us);
		ASSERT_EQ(m->delivered[i], t->groups[i].delivered);
	}
	ASSERT_EQ(m->reo_mult, t->w.reo_mult);
	ASSERT_EQ(m->reo_armed, t->w.reo_armed);
	ASSERT_EQ(m->reo_clean, t->w.reo_clean);
	ASSERT_EQ((u32)(m->isn + (m->una >= m->grow_end ? m->una : m->grow_end)),
		  t->w.reo_grow_seq);
	ASSERT_EQ((u32)(m->isn + (m->una >= m->loss_end ? m->una : m->loss_end)),
		  t->w.reo_loss_seq);
	check_counters(_metadata, t);
}

static void walk_send(struct __test_metadata *_metadata, struct walk *m,
		      u64 off, u16 path)
{
	struct shadow *s = &m->sh[off];
	u32 len = 1 + unit_rand32() % 9000;
	int expect, got;

	if (off == m->nxt)
		expect = m->nxt - m->una < m->t.w.size ? 0 : -1;
	else if (off >= m->una && off < m->nxt && s->state == MRC_TX_LOST)
		expect = s->tx_count < 255 ? s->tx_count + 1 : 255;
	else
		expect = -1;
	got = mrc_txwin_sent(&m->t.w, m->t.paths, (u32)(m->isn + off), path, len, m->now);
	ASSERT_EQ(expect, got);
	if (got < 0)
		return;
	if (off == m->nxt)
		m->nxt++;
	if (m->now - m->last_rx[m->mp[path].group] > (1U << 30))
		m->last_rx[m->mp[path].group] = m->now - (1U << 29);
	s->state = MRC_TX_INFLIGHT;
	s->tx_count = got;
	s->path = path;
	s->path_seq = m->mp[path].next_seq++;
	s->sent = m->now;
	s->len = len;
	/* The network: delivered with probability 3/4. */
	if (unit_rand32() % 4) {
		s->received = true;
		m->arrivals[m->narrivals++] = off << 16 | got << 8 | path;
	}
}

/* A first transmission (or the trigger's) arrived: newest of its group and of any. */
static void walk_newest(struct walk *m, const struct shadow *s)
{
	u8 g[2] = { m->mp[s->path].group, NGROUPS };
	int i;

	for (i = 0; i < 2; i++) {
		if (!m->newest_set[g[i]] || (s32)(s->sent - m->newest[g[i]]) > 0)
			m->newest[g[i]] = s->sent;
		m->newest_set[g[i]] = true;
	}
	m->last_rx[g[0]] = m->now;
	m->delivered[g[0]] = true;
}

/* Does the ACK (cum and base as offsets) say offset @off arrived? */
static bool walk_covers(const struct mrc_ack_info *a, u64 cum, s64 base, u64 off)
{
	s64 k = (s64)off - base;

	return off < cum || (k >= 0 && k < MRC_SACK_BITS && (a->bits[k / 64] >> (k % 64) & 1));
}

static void walk_ack(struct __test_metadata *_metadata, struct walk *m, bool bad)
{
	struct mrc_ack_result res;
	struct mrc_ack_info a;
	u32 nacked = 0, bytes = 0, sample = 0, spur = 0;
	u64 off, cum, pick, toff;
	s64 base;
	int k, trig_path = -1;
	struct shadow *s;

	if (!m->narrivals)
		return;
	memset(&a, 0, sizeof(a));
	/* The receiver's cum, or an older one (ACKs reorder). */
	for (cum = m->una; cum < m->nxt && m->sh[cum].received; cum++)
		;
	if (unit_rand32() % 4 == 0)
		cum -= unit_rand32() % (cum - m->una + 1);
	base = (s64)cum + (s64)(unit_rand32() % 400) - 40;
	a.cum = m->isn + cum;
	a.base = m->isn + base;
	for (k = 0; k < MRC_SACK_BITS; k++) {
		s64 o = base + k;
		bool rx = o < (s64)m->una ? unit_rand32() % 2 :
			  o < (s64)m->nxt && m->sh[o].received;

		/* Also leave out some bits: a receiver's base may skip. */
		if (rx && unit_rand32() % 8)
			a.bits[k / 64] |= 1ULL << (k % 64);
	}
	pick = m->arrivals[m->narrivals - 1 - unit_rand32() % (m->narrivals < 50 ?
							      m->narrivals : 50)];
	toff = pick >> 16;
	a.trig_psn = m->isn + toff;
	a.trig_tx = pick >> 8;
	a.trig_ev = m->mp[pick & 0xff].ev;
	if (unit_rand32() % 10 == 0)
		a.trig_ev ^= 1;
	a.ack_delay_us = unit_rand32() % 3 ? unit_rand32() % 50 : unit_rand32();

	if (bad) {
		static struct tx saved;

		switch (unit_rand32() % 3) {
		case 0:
			a.cum = m->isn + m->nxt + 1 + unit_rand32() % 1000;
			break;
		case 1:
			a.trig_psn = m->isn + m->nxt + unit_rand32() % 1000;
			break;
		default:
			a.base = m->isn + m->nxt - unit_rand32() % 256;
			a.bits[3] |= 1ULL << 63;
			break;
		}
		memcpy(&saved, &m->t, sizeof(saved));
		ASSERT_FALSE(mrc_txwin_ack(&m->t.w, m->t.paths, NPATHS, &a, m->now,
					   cb_acked, &m->t, &res));
		ASSERT_EQ(0, memcmp(&saved, &m->t, sizeof(saved)));
		return;
	}

	/* The model's expectations. */
	if (toff >= m->una && toff < m->nxt) {
		s = &m->sh[toff];
		if (s->tx_count == a.trig_tx && m->mp[s->path].ev == a.trig_ev) {
			u32 el = m->now - s->sent;

			trig_path = s->path;
			/* (not if an earlier ACK acknowledged the trigger) */
			if (s->state != MRC_TX_ACKED && (s32)el >= 0 && el >= a.ack_delay_us)
				sample = el - a.ack_delay_us ? el - a.ack_delay_us : 1;
			if (mrc_psn_after(s->path_seq + 1, m->mp[s->path].acked_seq))
				m->mp[s->path].acked_seq = s->path_seq + 1;
			walk_newest(m, s);
		} else if (a.trig_tx < s->tx_count && s->state == MRC_TX_INFLIGHT &&
			   walk_covers(&a, cum, base, toff)) {
			/* the trigger is a copy that arrived (arrivals[]) */
			spur++;
		}
	}
	for (off = m->una; off < m->nxt; off++) {
		s64 k2 = (s64)off - base;
		bool cov = off < cum || (k2 >= 0 && k2 < MRC_SACK_BITS &&
					 (a.bits[k2 / 64] >> (k2 % 64) & 1));

		s = &m->sh[off];
		if (!cov || s->state == MRC_TX_ACKED)
			continue;
		spur += s->state == MRC_TX_LOST;	/* a late arrival */
		/* A first transmission that arrived: evidence for its path. */
		if (s->state == MRC_TX_INFLIGHT && !s->tx_count) {
			if (mrc_psn_after(s->path_seq + 1, m->mp[s->path].acked_seq))
				m->mp[s->path].acked_seq = s->path_seq + 1;
			walk_newest(m, s);
		}
		s->state = MRC_TX_ACKED;
		nacked++;
		bytes += s->len;
	}
	m->t.nacked = 0;
	ASSERT_TRUE(mrc_txwin_ack(&m->t.w, m->t.paths, NPATHS, &a, m->now,
				  cb_acked, &m->t, &res));
	ASSERT_EQ(nacked, res.acked_pkts);
	ASSERT_EQ(nacked, m->t.nacked);
	ASSERT_EQ(bytes, res.acked_bytes);
	ASSERT_EQ(sample, res.rtt_us);
	ASSERT_EQ(trig_path, res.trig_path);
	ASSERT_EQ(spur, res.spurious);
	for (k = 0; k < (int)nacked; k++) {
		off = (u32)(m->t.acked[k] - m->isn);
		ASSERT_EQ(MRC_TX_ACKED, m->sh[off].state);
	}
	if (sample)
		mrc_rtt_sample(&m->rtt, sample);
	while (m->una < m->nxt && m->sh[m->una].state == MRC_TX_ACKED)
		m->sh[m->una++].state = MRC_TX_FREE;
	/* once a round (what was sent when it grew is acknowledged) */
	if (spur && m->reo_armed && m->una >= m->grow_end) {
		if (m->reo_mult < MRC_REO_MULT_MAX)
			m->reo_mult++;
		m->reo_armed = false;
		m->reo_clean = 0;
		m->grow_end = m->nxt;
	}
}

static void walk_loss(struct __test_metadata *_metadata, struct walk *m, bool timeout)
{
	u32 rtt = m->rtt.srtt_us, reo_us = unit_rand32() % 200, n = 0, got;
	u32 flags = unit_rand32() % 4;	/* MRC_TXW_REO_ADAPT, MRC_TXW_PATH_WAIT */
	s64 reo = (s64)reo_us * (flags & MRC_TXW_REO_ADAPT ? m->reo_mult : 1);
	bool late, by_path, by_time;
	struct shadow *s;
	u8 g;
	u64 off;
	int k;

	for (off = m->una; off < m->nxt; off++) {
		s = &m->sh[off];
		if (s->state != MRC_TX_INFLIGHT)
			continue;
		late = (s32)(m->now - s->sent) > (s64)rtt + reo;
		by_path = mrc_psn_before(s->path_seq, m->mp[s->path].acked_seq) &&
			  (late || !(flags & MRC_TXW_PATH_WAIT));
		g = m->mp[s->path].group;
		by_time = (rtt && late && m->newest_set[g] &&
			   (s32)(m->newest[g] - s->sent) > reo) ||
			  (rtt && late && m->delivered[g] &&
			   (s32)(m->now - m->last_rx[g]) > (s64)rtt + reo &&
			   m->newest_set[NGROUPS] && (s32)(m->newest[NGROUPS] - s->sent) > reo);
		if (!timeout && !by_path && !by_time)
			continue;
		s->state = MRC_TX_LOST;
		m->mp[s->path].lost++;
		n++;
	}
	m->t.nlost = 0;
	if (timeout)
		got = mrc_txwin_timeout(&m->t.w, m->t.paths, cb_lost, &m->t);
	else
		got = mrc_txwin_detect_loss(&m->t.w, m->t.paths, m->now, rtt, reo_us,
					    flags, cb_lost, &m->t);
	ASSERT_EQ(n, got);
	if (!timeout && n) {
		m->reo_armed = true;
		if (m->una >= m->loss_end) {	/* losses in a new round */
			m->loss_end = m->nxt;
			if (++m->reo_clean >= MRC_REO_PERSIST) {
				m->reo_mult = 1;
				m->reo_clean = 0;
			}
		}
	}
	ASSERT_EQ(n, m->t.nlost);
	for (k = 1; k < (int)n; k++)	/* in PSN order */
		ASSERT_TRUE(mrc_psn_before(m->t.lost[k - 1], m->t.lost[k]));
}

static void walk_run(struct __test_metadata *_metadata, struct walk *m, int steps)
{
	u32 size = 1U << (unit_rand32() % 12), psn;
	u64 off;
	int i, op;

	memset(m, 0, sizeof(*m));
	m->isn = unit_rand32() % 2 ? 0xffffffffU - unit_rand32() % 3000 : unit_rand32();
	m->now = unit_rand32() % 2 ? 0xffffffffU - unit_rand32() % 100000 : unit_rand32();
	tx_init(&m->t, m->isn, size);
	m->reo_mult = 1;
	/* Paths 0 and 1 in group 0, 2 and 3 in group 1 (as two planes). */
	for (i = 0; i < NPATHS; i++) {
		m->t.paths[i].group = i * NGROUPS / NPATHS;
		m->mp[i].group = m->t.paths[i].group;
		m->mp[i].ev = m->t.paths[i].ev;
	}

	for (i = 0; i < steps && m->nxt + 2 < SH_MAX && m->narrivals + 2 < SH_MAX; i++) {
		m->now += unit_rand32() % 300;
		op = unit_rand32() % 100;
		if (op < 40) {
			walk_send(_metadata, m, m->nxt, unit_rand32() % NPATHS);
		} else if (op < 55) {
			if (mrc_txwin_next_lost(&m->t.w, m->t.w.una +
						unit_rand32() % 8, &psn)) {
				off = (u32)(psn - m->isn);
				ASSERT_EQ(MRC_TX_LOST, m->sh[off].state);
				walk_send(_metadata, m, off,
					  (m->sh[off].path + 1 + unit_rand32() % 3) % NPATHS);
			}
		} else if (op < 58) {
			/* a send that must be refused */
			off = m->una + unit_rand32() % (m->nxt - m->una + 2);
			if (off != m->nxt && (off > m->nxt || m->sh[off].state != MRC_TX_LOST))
				walk_send(_metadata, m, off, 0);
		} else if (op < 85) {
			walk_ack(_metadata, m, false);
		} else if (op < 87) {
			walk_ack(_metadata, m, true);
		} else if (op < 97) {
			walk_loss(_metadata, m, false);
		} else if (op < 98) {
			walk_loss(_metadata, m, true);
		} else {
			/* resize to any power of two that fits */
			u32 ns = 1U << (unit_rand32() % 12);
			struct mrc_txrec *ring = m->t.w.rec == m->t.rec ? m->ring2 : m->t.rec;
			struct mrc_txrec *old;

			memset(ring, 0, sizeof(m->ring2));
			old = mrc_txwin_resize(&m->t.w, ring, ns);
			ASSERT_EQ(ns >= m->nxt - m->una, !!old);
		}
		walk_compare(_metadata, m);
	}
}

TEST(txwin_random_walk_vs_model)
{
	static struct walk m;
	int round;
	u64 sent = 0;

	unit_seed();
	for (round = 0; round < 30; round++) {
		walk_run(_metadata, &m, 4000);
		sent += m.nxt;
	}
	TH_LOG("%llu PSNs sent", (unsigned long long)sent);
}

/* A failed rail: exactly the in-flight packets of its paths become lost. */
TEST(txwin_lose_paths)
{
	static struct tx t;
	u8 dead[NPATHS] = { 0 };
	u32 isn = 0xfffffffaU, i;

	tx_init(&t, isn, 16);
	for (i = 0; i < 12; i++)
		ASSERT_EQ(0, mrc_txwin_sent(&t.w, t.paths, isn + i, i % 3, 100, i));
	dead[1] = 1;
	EXPECT_EQ(4U, mrc_txwin_lose_paths(&t.w, t.paths, dead, cb_lost, &t));
	EXPECT_EQ(4U, t.nlost);
	for (i = 0; i < t.nlost && i < MAXCB; i++)
		EXPECT_EQ(1U, (t.lost[i] - isn) % 3);
	EXPECT_EQ(8U, t.w.in_flight);
	EXPECT_EQ(4U, t.w.lost);
	EXPECT_EQ(0U, t.paths[1].in_flight);
	EXPECT_EQ(4ULL, t.paths[1].lost);
	/* Nothing more on those paths: a second call finds nothing. */
	EXPECT_EQ(0U, mrc_txwin_lose_paths(&t.w, t.paths, dead, cb_lost, &t));
	check_counters(_metadata, &t);
}

/*
 * A NACK of a trimmed packet: its transmission (same tx_count, same EV)
 * becomes lost and nothing else; a stale or settled trigger changes
 * nothing.
 */
TEST(txwin_nacked)
{
	static struct tx t;
	struct mrc_ack_result res;
	struct mrc_ack_info a;
	u32 isn = 0xfffffffeU, i;

	tx_init(&t, isn, 8);
	for (i = 0; i < 4; i++)
		ASSERT_EQ(0, mrc_txwin_sent(&t.w, t.paths, isn + i, i % 2, 100, 10 + i));
	/* NACK of isn + 2 (path 0); its cum/SACK acknowledge isn + 1. */
	mk_ack(&t, &a, isn, isn + 2);
	sack(&a, isn + 1);
	ASSERT_TRUE(do_ack(&t, &a, 50, &res));
	EXPECT_EQ(1U, res.acked_pkts);
	EXPECT_EQ(0, res.trig_path);
	EXPECT_TRUE(mrc_txwin_nacked(&t.w, t.paths, NPATHS, &a, cb_lost, &t));
	EXPECT_EQ(1U, t.nlost);
	EXPECT_EQ(isn + 2, t.lost[0]);
	EXPECT_EQ(MRC_TX_LOST, tx_rec(&t, isn + 2)->state);
	EXPECT_EQ(MRC_TX_INFLIGHT, tx_rec(&t, isn)->state);
	EXPECT_EQ(MRC_TX_INFLIGHT, tx_rec(&t, isn + 3)->state);
	check_counters(_metadata, &t);
	/* The same NACK again: already lost. */
	EXPECT_FALSE(mrc_txwin_nacked(&t.w, t.paths, NPATHS, &a, cb_lost, &t));
	/* Resent (tx 1): a NACK naming tx 0 is stale. */
	ASSERT_EQ(1, mrc_txwin_sent(&t.w, t.paths, isn + 2, 1, 100, 60));
	EXPECT_FALSE(mrc_txwin_nacked(&t.w, t.paths, NPATHS, &a, cb_lost, &t));
	/* The right tx_count on the wrong EV: nothing. */
	a.trig_tx = 1;
	a.trig_ev = t.paths[0].ev;
	EXPECT_FALSE(mrc_txwin_nacked(&t.w, t.paths, NPATHS, &a, cb_lost, &t));
	/* Beyond nxt, or behind una: nothing. */
	a.trig_psn = isn + 4;
	EXPECT_FALSE(mrc_txwin_nacked(&t.w, t.paths, NPATHS, &a, cb_lost, &t));
	a.trig_psn = isn - 1;
	EXPECT_FALSE(mrc_txwin_nacked(&t.w, t.paths, NPATHS, &a, cb_lost, &t));
	EXPECT_EQ(1U, t.nlost);
	check_counters(_metadata, &t);
}

TEST_HARNESS_MAIN
