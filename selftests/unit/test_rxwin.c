// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of core/rxwin.c against a model that keeps PSNs as unwrapped
 * 64-bit offsets from the initial PSN and remembers arrivals in a plain
 * array: verdicts, cum, high and SACK bitmaps must match it exactly, for
 * random arrival orders with duplicates, at the window edge and across
 * the 2^32 wrap.
 */
#include "unit.h"
#include "core/psn.h"
#include "core/rxwin.h"

/* The model: offsets from isn; arrived[] covers [0, MODEL_MAX). */
#define MODEL_MAX	40000

/* The verdict as an int, to compare with the enum's constants. */
static int rx_check(const struct mrc_rxwin *w, u32 psn)
{
	return mrc_rxwin_check(w, psn);
}

struct model {
	u32 isn;
	u64 cum;
	u64 high;
	bool arrived[MODEL_MAX];
};

static void model_init(struct model *m, u32 isn)
{
	memset(m, 0, sizeof(*m));
	m->isn = isn;
}

static int model_check(const struct model *m, u64 off)
{
	if (off < m->cum)
		return MRC_RX_DUP;
	if (off >= m->cum + MRC_WIN_PKTS)
		return MRC_RX_AHEAD;
	return m->arrived[off] ? MRC_RX_DUP : MRC_RX_NEW;
}

static void model_mark(struct model *m, u64 off)
{
	m->arrived[off] = true;
	if (off + 1 > m->high)
		m->high = off + 1;
	while (m->arrived[m->cum])
		m->cum++;
}

static void model_sack(const struct model *m, u64 *base, u64 bits[MRC_SACK_WORDS])
{
	u64 b = m->high > m->cum + MRC_SACK_BITS ? m->high - MRC_SACK_BITS : m->cum;
	int k;

	memset(bits, 0, MRC_SACK_WORDS * sizeof(u64));
	for (k = 0; k < MRC_SACK_BITS; k++)
		if (b + k < m->high && b + k > m->cum && m->arrived[b + k])
			bits[k / 64] |= 1ULL << (k % 64);
	*base = b;
}

static void check_state(struct __test_metadata *_metadata,
			const struct mrc_rxwin *w, const struct model *m)
{
	u64 mbits[MRC_SACK_WORDS], wbits[MRC_SACK_WORDS], mbase;
	u32 cum, base;
	int i;
	u64 off, n = 0;

	ASSERT_EQ((u32)(m->isn + m->cum), w->cum);
	ASSERT_EQ((u32)(m->isn + m->high), w->high);
	for (off = m->cum; off < m->high; off++)
		n += m->arrived[off];
	ASSERT_EQ(n, w->count) TH_LOG("arrived PSNs in [cum, high)");
	model_sack(m, &mbase, mbits);
	memset(wbits, 0xa5, sizeof(wbits));
	mrc_rxwin_sack(w, &cum, &base, wbits);
	ASSERT_EQ(w->cum, cum);
	ASSERT_EQ((u32)(m->isn + mbase), base);
	for (i = 0; i < MRC_SACK_WORDS; i++)
		ASSERT_EQ(mbits[i], wbits[i]) {
			TH_LOG("word %d cum %llu high %llu", i,
			       (unsigned long long)m->cum,
			       (unsigned long long)m->high);
		}
}

/* Random arrivals in and around the window, duplicates included. */
/* Returns how far cum moved. */
static u64 run_random(struct __test_metadata *_metadata, u32 isn, int steps,
		      u32 spread, bool full_checks)
{
	static struct model m;
	struct mrc_rxwin w;
	int v;
	u64 off, lo;
	int i;

	model_init(&m, isn);
	mrc_rxwin_init(&w, isn);
	check_state(_metadata, &w, &m);
	for (i = 0; i < steps && m.cum + MRC_WIN_PKTS + 100 < MODEL_MAX; i++) {
		u32 r = unit_rand32() % 100;

		/* Mostly the window, biased to its start; sometimes the edges. */
		lo = m.cum > 64 ? m.cum - 64 : 0;
		if (r < 3)
			off = m.cum + MRC_WIN_PKTS - 1 + unit_rand32() % 3;
		else if (r < 6)
			off = lo + unit_rand32() % 64;
		else if (r < 12)
			off = m.cum;	/* fill the first hole: cum moves on */
		else if (r < 50)
			off = m.cum + unit_rand32() % (spread / 8 + 1);
		else
			off = lo + unit_rand32() % (spread + 64);
		v = rx_check(&w, (u32)(isn + off));
		ASSERT_EQ(model_check(&m, off), v) {
			TH_LOG("step %d off %llu cum %llu", i,
			       (unsigned long long)off,
			       (unsigned long long)m.cum);
		}
		if (v == MRC_RX_NEW) {
			mrc_rxwin_mark(&w, (u32)(isn + off));
			model_mark(&m, off);
		}
		if (full_checks || v == MRC_RX_NEW || i % 16 == 0)
			check_state(_metadata, &w, &m);
	}
	/* Everything the model saw is a duplicate now, in and below the window. */
	for (off = m.cum > 300 ? m.cum - 300 : 0; off < m.cum + MRC_WIN_PKTS + 300; off++)
		ASSERT_EQ(model_check(&m, off), rx_check(&w, (u32)(isn + off)));
	return m.cum;
}

static u32 rand_isn(void)
{
	switch (unit_rand32() % 4) {
	case 0:
		return 0xffffffffU - unit_rand32() % 300;	/* wraps soon */
	case 1:
		return unit_rand32() % 16;
	case 2:
		return 0x7fffffffU - unit_rand32() % 300;	/* sign change */
	default:
		return unit_rand32();
	}
}

TEST(rxwin_random_vs_model)
{
	int round, wraps = 0;
	u64 moved;

	unit_seed();
	for (round = 0; round < 40; round++) {
		u32 isn = rand_isn();
		u32 spread = 1 + unit_rand32() % (MRC_WIN_PKTS + 128);

		moved = run_random(_metadata, isn, 6000, spread, false);
		ASSERT_LT(200ULL, moved);
		wraps += (u64)isn + moved > 0xffffffffULL;
	}
	TH_LOG("%d of 40 runs crossed 2^32", wraps);
}

TEST(rxwin_random_full_checks_near_wrap)
{
	int round;

	unit_seed();
	for (round = 0; round < 6; round++)
		run_random(_metadata, 0xffffffffU - unit_rand32() % 300, 4000,
			   1 + unit_rand32() % 400, true);
}

TEST(rxwin_in_order)
{
	struct mrc_rxwin w;
	u32 cum, base, psn, isn = 0xfffffff0U;
	u64 bits[MRC_SACK_WORDS];
	int i;

	mrc_rxwin_init(&w, isn);
	EXPECT_EQ(isn, w.cum);
	EXPECT_EQ(isn, w.high);
	for (i = 0; i < 5000; i++) {
		psn = isn + i;
		ASSERT_EQ(MRC_RX_NEW, rx_check(&w, psn));
		mrc_rxwin_mark(&w, psn);
		ASSERT_EQ(psn + 1, w.cum);
		ASSERT_EQ(psn + 1, w.high);
		ASSERT_EQ(MRC_RX_DUP, rx_check(&w, psn));
		mrc_rxwin_sack(&w, &cum, &base, bits);
		ASSERT_EQ(psn + 1, cum);
		ASSERT_EQ(psn + 1, base);
		ASSERT_EQ(0ULL, bits[0] | bits[1] | bits[2] | bits[3]);
	}
}

TEST(rxwin_window_edge)
{
	struct mrc_rxwin w;
	u32 isn = 0xffffff00U, last = isn + MRC_WIN_PKTS - 1;
	u32 cum, base;
	u64 bits[MRC_SACK_WORDS];

	mrc_rxwin_init(&w, isn);
	EXPECT_EQ(MRC_RX_NEW, rx_check(&w, last));
	EXPECT_EQ(MRC_RX_AHEAD, rx_check(&w, last + 1));
	EXPECT_EQ(MRC_RX_AHEAD, rx_check(&w, isn + 0x7fffffffU));
	/* Exactly 2^31 behind counts as behind (a duplicate). */
	EXPECT_EQ(MRC_RX_DUP, rx_check(&w, isn + 0x80000000U));
	EXPECT_EQ(MRC_RX_DUP, rx_check(&w, isn - 1));

	mrc_rxwin_mark(&w, last);
	EXPECT_EQ(isn, w.cum);
	EXPECT_EQ(last + 1, w.high);
	EXPECT_EQ(1U, w.count);
	mrc_rxwin_mark(&w, last);
	EXPECT_EQ(1U, w.count) TH_LOG("marking twice counts once");
	EXPECT_EQ(MRC_RX_DUP, rx_check(&w, last));
	mrc_rxwin_sack(&w, &cum, &base, bits);
	EXPECT_EQ(isn, cum);
	EXPECT_EQ(last + 1 - MRC_SACK_BITS, base);
	EXPECT_EQ(1ULL << 63, bits[3]);
	EXPECT_EQ(0ULL, bits[0] | bits[1] | bits[2]);

	/* The arrival of isn moves the window by one: last + 1 is in. */
	mrc_rxwin_mark(&w, isn);
	EXPECT_EQ(isn + 1, w.cum);
	EXPECT_EQ(1U, w.count) TH_LOG("isn left the window, last is still in it");
	EXPECT_EQ(MRC_RX_NEW, rx_check(&w, last + 1));
	EXPECT_EQ(MRC_RX_AHEAD, rx_check(&w, last + 2));
	mrc_rxwin_mark(&w, last + 1);
	EXPECT_EQ(last + 2, w.high);
	/* Its slot is the one isn left: it must not look received to isn + 2048. */
	EXPECT_EQ(MRC_RX_NEW, rx_check(&w, isn + 1));

	/* A marking outside the window is ignored. */
	mrc_rxwin_mark(&w, last + 100);
	EXPECT_EQ(last + 2, w.high);
	mrc_rxwin_mark(&w, isn - 5);
	EXPECT_EQ(isn + 1, w.cum);
}

TEST(rxwin_sack_exact_256)
{
	struct mrc_rxwin w;
	u32 cum, base, i;
	u64 bits[MRC_SACK_WORDS];

	/* high - cum == MRC_SACK_BITS: base stays at cum. */
	mrc_rxwin_init(&w, 100);
	mrc_rxwin_mark(&w, 100 + MRC_SACK_BITS - 1);
	mrc_rxwin_sack(&w, &cum, &base, bits);
	EXPECT_EQ(100U, cum);
	EXPECT_EQ(100U, base);
	EXPECT_EQ(1ULL << 63, bits[3]);
	/* One more: base moves so the newest is still described. */
	mrc_rxwin_mark(&w, 100 + MRC_SACK_BITS);
	mrc_rxwin_sack(&w, &cum, &base, bits);
	EXPECT_EQ(100U, cum);
	EXPECT_EQ(101U, base);
	EXPECT_EQ(3ULL << 62, bits[3]);
	/* Every other PSN. */
	mrc_rxwin_init(&w, 0xffffff80U);
	for (i = 1; i < 600; i += 2)
		mrc_rxwin_mark(&w, 0xffffff80U + i);
	mrc_rxwin_sack(&w, &cum, &base, bits);
	EXPECT_EQ(0xffffff80U, cum);
	EXPECT_EQ(0xffffff80U + 600 - MRC_SACK_BITS, base);
	for (i = 0; i < MRC_SACK_WORDS; i++)
		EXPECT_EQ(0xaaaaaaaaaaaaaaaaULL, bits[i]);
}

TEST_HARNESS_MAIN
