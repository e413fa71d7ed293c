// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of core/evindex.c, the EVs bucketed by plane and state: the
 * layout after mrc_evx_init(), a randomized model test (thousands of
 * state and plane changes, through the EV state machine and by hand,
 * each followed by mrc_evx_update() and compared with a full scan of the
 * table), that mrc_evx_check() notices a stale or corrupted index, and
 * the size bound.
 */
#include "unit.h"
#include "core/ev.h"
#include "core/evindex.h"

#define MAXN	300

static u64 xbuf[(MAXN * 5 + 2 * 200 + 64) / 8];

static struct mrc_ev_index *xidx(void)
{
	return (struct mrc_ev_index *)xbuf;
}

/*
 * Counts per (plane, state) and the bucket contents, by a scan of the
 * table: each bucket holds exactly the EVs of its plane and state.
 */
static bool scan_agrees(const struct mrc_ev_index *x, const struct mrc_ev *evs,
			u32 n)
{
	static u8 seen[MAXN];
	u32 pl, st, i, k, cnt, idx;

	memset(seen, 0, sizeof(seen));
	for (pl = 0; pl < x->nplanes; pl++) {
		for (st = 0; st < MRC_EVX_STATES; st++) {
			cnt = 0;
			for (i = 0; i < n; i++)
				cnt += evs[i].plane == pl && evs[i].state == st;
			if (mrc_evx_count(x, pl, st) != cnt)
				return false;
			for (k = 0; k < cnt; k++) {
				idx = mrc_evx_nth(x, pl, st, k);
				if (idx >= n || seen[idx]++ ||
				    evs[idx].plane != pl || evs[idx].state != st)
					return false;
			}
		}
	}
	/* The rest: planes beyond the index or unknown states. */
	for (i = 0; i < n; i++)
		if (!seen[i] != (evs[i].plane >= x->nplanes ||
				 evs[i].state >= MRC_EVX_STATES))
			return false;
	return true;
}

TEST(evx_layout)
{
	static struct mrc_ev evs[12];
	struct mrc_ev_index *x = xidx();
	u32 i;

	/* Sizes: 4-byte header, order + pos + starts (u16), keys (u8). */
	EXPECT_EQ(176U, mrc_evx_size(32, 1));	/* 4 + 2 * 64 + 2 * 6 + 32 */
	EXPECT_EQ(mrc_evx_size(32, 32), mrc_evx_size(32, 40));
	EXPECT_EQ(0U, mrc_evx_size(256, 4) % 8);
	EXPECT_GE(mrc_evx_size(MAXN, 32), 4U + 5 * MAXN + 2 * (4 * 32 + 2));
	ASSERT_GE(sizeof(xbuf), mrc_evx_size(MAXN, 32));

	/* EV i on plane i % 3 (plane 2 beyond the index), states cycling. */
	for (i = 0; i < 12; i++) {
		mrc_ev_init(&evs[i], i, i % 3, 0);
		evs[i].state = (i / 3) % MRC_EVX_STATES;
	}
	ASSERT_EQ(0, mrc_evx_init(x, evs, 12, 2));
	ASSERT_TRUE(mrc_evx_check(x, evs, 12));
	ASSERT_TRUE(scan_agrees(x, evs, 12));
	/* One EV per (plane < 2, state); table order within a bucket. */
	for (i = 0; i < 12; i++) {
		if (i % 3 == 2)
			continue;
		EXPECT_EQ(1U, mrc_evx_count(x, i % 3, (i / 3) % 4));
		EXPECT_EQ(i, mrc_evx_nth(x, i % 3, (i / 3) % 4, 0));
	}
	for (i = 0; i < 12; i++)
		evs[i].state = MRC_EV_GOOD;
	ASSERT_EQ(0, mrc_evx_init(x, evs, 12, 2));
	EXPECT_EQ(4U, mrc_evx_count(x, 1, MRC_EV_GOOD));
	for (i = 0; i < 4; i++)
		EXPECT_EQ(3 * i + 1, mrc_evx_nth(x, 1, MRC_EV_GOOD, i));

	/* Too many EVs: refused, nothing written. */
	x->n = 7;
	EXPECT_EQ(-1, mrc_evx_init(x, NULL, MRC_EVX_MAX_EVS + 1, 1));
	EXPECT_EQ(7U, x->n);
	/* No EVs at all. */
	ASSERT_EQ(0, mrc_evx_init(x, evs, 0, 4));
	EXPECT_TRUE(mrc_evx_check(x, evs, 0));
	EXPECT_EQ(0U, mrc_evx_count(x, 3, MRC_EV_GOOD));
}

/* A change nobody reported, or a corrupted array, is found. */
TEST(evx_check_finds_staleness)
{
	static struct mrc_ev evs[40];
	struct mrc_ev_index *x = xidx();
	u16 t;
	u32 i;

	for (i = 0; i < 40; i++)
		mrc_ev_init(&evs[i], i, i % 4, 0);
	ASSERT_EQ(0, mrc_evx_init(x, evs, 40, 4));
	ASSERT_TRUE(mrc_evx_check(x, evs, 40));

	/* State changed, index not told: stale; told: consistent. */
	ASSERT_TRUE(mrc_ev_on_loss(&evs[17], 5));
	EXPECT_FALSE(mrc_evx_check(x, evs, 40));
	mrc_evx_update(x, evs, 17);
	EXPECT_TRUE(mrc_evx_check(x, evs, 40));
	/* Plane changed, not told. */
	evs[3].plane = 0;
	EXPECT_FALSE(mrc_evx_check(x, evs, 40));
	mrc_evx_update(x, evs, 3);
	EXPECT_TRUE(mrc_evx_check(x, evs, 40));
	/* Wrong table size. */
	EXPECT_FALSE(mrc_evx_check(x, evs, 39));
	/* Two order entries swapped without pos. */
	t = mrc_evx_order(x)[0];
	mrc_evx_order(x)[0] = mrc_evx_order(x)[39];
	mrc_evx_order(x)[39] = t;
	EXPECT_FALSE(mrc_evx_check(x, evs, 40));
	mrc_evx_order(x)[39] = mrc_evx_order(x)[0];
	mrc_evx_order(x)[0] = t;
	EXPECT_TRUE(mrc_evx_check(x, evs, 40));
	/* A bucket boundary moved. */
	mrc_evx_start(x)[1]++;
	EXPECT_FALSE(mrc_evx_check(x, evs, 40));
	mrc_evx_start(x)[1]--;
	EXPECT_TRUE(mrc_evx_check(x, evs, 40));
}

/*
 * The model test: random tables (0..MAXN EVs, 0..34 planes, EVs on
 * planes beyond the index too), then random steps: a transition of the
 * EV state machine (ECN, NACK, loss, unusable, tick, probe ack, deny,
 * allow, replace), a raw state (unknown states included) or a raw plane.
 * After each step the index is told, and must agree with a full scan
 * (mrc_evx_check() and an independent per-bucket scan); telling it again
 * changes no byte.
 */
TEST(evx_model_random)
{
	static struct mrc_ev evs[MAXN];
	static u64 copy[ARRAY_SIZE(xbuf)];
	struct mrc_ev_index *x = xidx();
	struct mrc_ev_params p;
	u32 round, step, n, npl, i, now = 0, moves = 0, steps = 0, op;
	size_t sz;

	unit_seed();
	mrc_ev_params_default(&p);
	p.probe_successes = 1;
	for (round = 0; round < 60; round++) {
		n = round % 10 ? unit_rand32() % (MAXN + 1) : round % 3;
		npl = unit_rand32() % 35;
		sz = mrc_evx_size(n, npl);
		ASSERT_GE(sizeof(xbuf), sz);
		for (i = 0; i < n; i++) {
			mrc_ev_init(&evs[i], i, unit_rand32() % (npl + 2), now);
			if (unit_rand32() % 2)
				evs[i].state = unit_rand32() % MRC_EVX_STATES;
		}
		ASSERT_EQ(0, mrc_evx_init(x, evs, n, npl));
		ASSERT_TRUE(mrc_evx_check(x, evs, n));
		ASSERT_TRUE(scan_agrees(x, evs, n));
		for (step = 0; n && step < 1000; step++, steps++) {
			struct mrc_ev *e;
			u8 old_state, old_plane;

			i = unit_rand32() % n;
			e = &evs[i];
			old_state = e->state;
			old_plane = e->plane;
			now += unit_rand32() % 3000;
			op = unit_rand32() % 12;
			switch (op) {
			case 0:
				mrc_ev_on_ecn(e, &p, now);
				break;
			case 1:
				mrc_ev_on_nack(e, &p, now);
				break;
			case 2:
				mrc_ev_on_loss(e, now);
				break;
			case 3:
				mrc_ev_unusable(e, now);
				break;
			case 4:
				mrc_ev_tick(e, &p, now);
				break;
			case 5:
				if (mrc_ev_probe_sent(e, step, now))
					mrc_ev_probe_acked(e, step, &p, now + 1);
				break;
			case 6:
				mrc_ev_deny(e, unit_rand32() % 2, now);
				break;
			case 7:
				mrc_ev_replace(e, unit_rand32(), now);
				break;
			case 8:
				e->state = unit_rand32() % (MRC_EVX_STATES + 2);
				break;
			default:
				e->plane = unit_rand32() % (npl + 2);
				break;
			}
			moves += e->state != old_state || e->plane != old_plane;
			mrc_evx_update(x, evs, i);
			ASSERT_TRUE(mrc_evx_check(x, evs, n)) {
				TH_LOG("round %u step %u op %u ev %u", round,
				       step, op, i);
			}
			ASSERT_TRUE(scan_agrees(x, evs, n)) {
				TH_LOG("round %u step %u op %u", round, step, op);
			}
			/* Idempotent: a second update moves nothing. */
			memcpy(copy, xbuf, sz);
			mrc_evx_update(x, evs, unit_rand32() % n);
			mrc_evx_update(x, evs, i);
			ASSERT_EQ(0, memcmp(copy, xbuf, sz));
		}
	}
	printf("# %u steps, %u changed a state or plane\n", steps, moves);
	EXPECT_LT(40000U, steps);
	EXPECT_LT(steps / 3, moves);
}

TEST_HARNESS_MAIN
