// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of core/spray.c: the "mrc" policy's distribution (planes in
 * proportion to their available windows, EVs uniform within a plane,
 * checked with chi-square bounds), eligibility rules checked against a
 * brute-force oracle on random inputs for both policies, avoid_plane,
 * the SKIP fallback, "none", round-robin order, large windows, lookup
 * by name, and the two-choices draw on packets in flight and RTT.
 */
#include "unit.h"
#include "core/ev.h"
#include "core/evindex.h"
#include "core/spray.h"
#include "core/txwin.h"

#define NPL	4
#define PER	8
#define NEV	(NPL * PER)

struct sp {
	struct mrc_ev evs[256];
	struct mrc_spray_plane planes[MRC_SPRAY_MAX_PLANES + 2];
	u32 rng;
	u32 cursor;
	struct mrc_spray_ctx c;
	struct mrc_txpath fl[256];
	u64 xbuf[256];		/* the EV index: mrc_evx_size(256, 32) = 1544 */
};

/* (Re)build the EV index over the EVs and planes the context has. */
static void sp_index(struct sp *s)
{
	struct mrc_ev_index *x = (struct mrc_ev_index *)s->xbuf;

	if (mrc_evx_size(s->c.nevs, s->c.nplanes) > sizeof(s->xbuf) ||
	    mrc_evx_init(x, s->evs, s->c.nevs, s->c.nplanes))
		abort();
	s->c.index = x;
}

/* "mrc" draws two EVs and takes the one with fewer packets in flight. */
static void sp_flight(struct sp *s)
{
	s->c.paths = s->fl;
}

/*
 * @npl planes of @per GOOD EVs each, interleaved (EV i is on plane
 * i % npl) so that nothing relies on EVs being grouped by plane.
 */
static void sp_init(struct sp *s, u32 npl, u32 per)
{
	u32 i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < npl * per; i++)
		mrc_ev_init(&s->evs[i], 0x100 + i, i % npl, 0);
	for (i = 0; i < npl; i++) {
		s->planes[i].avail = 10000;
		s->planes[i].room = true;
	}
	s->rng = unit_rand32();
	s->c.evs = s->evs;
	s->c.nevs = npl * per;
	s->c.planes = s->planes;
	s->c.nplanes = npl;
	s->c.rng = &s->rng;
	s->c.cursor = &s->cursor;
	s->c.avoid_plane = MRC_SPRAY_NO_AVOID;
	sp_index(s);
}

/* A state change, reported to the index as the module does. */
static void set_state(struct sp *s, u32 i, u8 state)
{
	s->evs[i].state = state;
	mrc_evx_update((struct mrc_ev_index *)s->xbuf, s->evs, i);
}

TEST(spray_find)
{
	const struct mrc_spray_ops *o;
	unsigned int i;

	ASSERT_EQ(&mrc_spray_mrc, mrc_spray_find("mrc"));
	ASSERT_EQ(&mrc_spray_rr, mrc_spray_find("rr"));
	EXPECT_EQ(NULL, mrc_spray_find("MRC"));
	EXPECT_EQ(NULL, mrc_spray_find(""));
	EXPECT_EQ(NULL, mrc_spray_find("mrc "));
	EXPECT_EQ(NULL, mrc_spray_find(NULL));
	EXPECT_STREQ("mrc", mrc_spray_mrc.name);
	EXPECT_STREQ("rr", mrc_spray_rr.name);
	EXPECT_EQ(&mrc_spray_mrc, mrc_spray_get(0));	/* the default */
	for (i = 0; (o = mrc_spray_get(i)); i++)
		EXPECT_EQ(o, mrc_spray_find(o->name));
	EXPECT_EQ(2U, i);
	EXPECT_EQ(NULL, mrc_spray_get(~0U));
}

TEST(spray_rand)
{
	u32 s = 0, x, i, ones = 0;

	/* A zero state is replaced; the state never becomes zero. */
	x = mrc_spray_rand(&s);
	EXPECT_NE(0U, s);
	EXPECT_EQ(x, s);
	for (i = 0; i < 100000; i++) {
		x = mrc_spray_rand(&s);
		ASSERT_NE(0U, s);
		ones += __builtin_popcount(x);
	}
	/* Bits are balanced: 16 per word on average, sigma ~ 894 in total. */
	EXPECT_LT(1600000U - 6000, ones);
	EXPECT_GT(1600000U + 6000, ones);
}

/*
 * Plane windows in the ratio 1:2:3:4, all with room: the histogram of
 * 200k picks fits the ratios (chi-square, 3 degrees of freedom), and the
 * EVs of each plane are picked uniformly (31 degrees of freedom).
 */
TEST(spray_weighted_distribution)
{
	static struct sp s;
	u32 plane_hits[NPL] = { 0 }, ev_hits[NEV] = { 0 };
	const u32 n = 200000;
	double chi = 0, chi_ev = 0, e, d;
	u32 i;
	int k;

	unit_seed();
	sp_init(&s, NPL, PER);
	for (i = 0; i < NPL; i++)
		s.planes[i].avail = 1500 * (i + 1);
	for (i = 0; i < n; i++) {
		k = mrc_spray_mrc.pick(&s.c);
		ASSERT_GE(k, 0);
		ASSERT_LT(k, NEV);
		plane_hits[s.evs[k].plane]++;
		ev_hits[k]++;
	}
	for (i = 0; i < NPL; i++) {
		e = n * (i + 1) / 10.0;
		d = plane_hits[i] - e;
		chi += d * d / e;
		printf("# plane %u: %u picks, expected %.0f\n", i, plane_hits[i], e);
	}
	for (i = 0; i < NEV; i++) {
		e = n * (s.evs[i].plane + 1) / 10.0 / PER;
		d = ev_hits[i] - e;
		chi_ev += d * d / e;
	}
	printf("# chi2 planes %.2f (3 dof), EVs %.2f (31 dof)\n", chi, chi_ev);
	/* P(chi2_3 > 25) ~ 1.6e-5; P(chi2_31 > 75) ~ 1.5e-5 */
	EXPECT_LT(chi, 25.0);
	EXPECT_LT(chi_ev, 75.0);
}

/* Windows near 2^32 on many planes: the weights are scaled, not wrapped. */
TEST(spray_large_windows)
{
	static struct sp s;
	u32 hits[3] = { 0 }, i;
	int k;

	unit_seed();
	sp_init(&s, 3, 2);
	s.planes[0].avail = 0xffffffffU;
	s.planes[1].avail = 0x7fffffffU;
	s.planes[2].avail = 1;		/* tiny but not zero */
	for (i = 0; i < 30000; i++) {
		k = mrc_spray_mrc.pick(&s.c);
		ASSERT_GE(k, 0);
		hits[s.evs[k].plane]++;
	}
	/* 2:1, sigma of plane 0's count ~ 82 */
	EXPECT_LT(20000U - 600, hits[0]);
	EXPECT_GT(20000U + 600, hits[0]);
	EXPECT_GT(20U, hits[2]);

	/* 32 planes of 0xffffffff: the total exceeds 2^36; still uniform. */
	sp_init(&s, MRC_SPRAY_MAX_PLANES, 1);
	for (i = 0; i < MRC_SPRAY_MAX_PLANES; i++)
		s.planes[i].avail = 0xffffffffU;
	memset(hits, 0, sizeof(hits));
	for (i = 0; i < 32000; i++) {
		k = mrc_spray_mrc.pick(&s.c);
		ASSERT_GE(k, 0);
		if (s.evs[k].plane == 31)
			hits[0]++;
	}
	/* expected 1000, sigma ~ 31 */
	EXPECT_LT(850U, hits[0]);
	EXPECT_GT(1150U, hits[0]);
}

/* Which EVs may be picked, by brute force. */
struct oracle {
	int cls;		/* 0 GOOD, 1 SKIP, -1 none */
	u32 planes;		/* planes the pick may come from */
};

static int ev_class(const struct mrc_ev *e)
{
	return e->state == MRC_EV_GOOD ? 0 : e->state == MRC_EV_SKIP ? 1 : -1;
}

static struct oracle oracle(const struct mrc_spray_ctx *c)
{
	struct oracle o = { -1, 0 };
	u32 set[2] = { 0, 0 }, i, pl;
	int cls;

	for (i = 0; i < c->nevs; i++) {
		cls = ev_class(&c->evs[i]);
		pl = c->evs[i].plane;
		if (cls < 0 || pl >= c->nplanes || pl >= MRC_SPRAY_MAX_PLANES ||
		    !c->planes[pl].avail || !c->planes[pl].room)
			continue;
		set[cls] |= 1U << pl;
	}
	o.cls = set[0] ? 0 : set[1] ? 1 : -1;
	if (o.cls < 0)
		return o;
	o.planes = set[o.cls];
	if (c->avoid_plane < 32 && (o.planes & ~(1U << c->avoid_plane)))
		o.planes &= ~(1U << c->avoid_plane);
	return o;
}

/* Is @a worse than @b for two choices (more packets in flight)? */
static bool two_worse(const struct sp *s, u32 a, u32 b)
{
	return s->fl[a].in_flight > s->fl[b].in_flight;
}

/*
 * Is EV @k worse than every other EV of its plane and class (and is
 * there another)?  Two choices never pick such an EV.
 */
static bool unique_worst(const struct sp *s, u32 k)
{
	u32 i, others = 0;

	for (i = 0; i < s->c.nevs; i++) {
		if (i == k || s->evs[i].plane != s->evs[k].plane ||
		    ev_class(&s->evs[i]) != ev_class(&s->evs[k]))
			continue;
		if (!two_worse(s, k, i))
			return false;
		others++;
	}
	return others > 0;
}

/*
 * Random EV states, windows, rooms, avoided planes, plane numbers out of
 * range: every pick of both policies is allowed by the oracle, and -1
 * exactly when the oracle allows nothing; with packets in flight, "mrc"
 * never takes the unique worst EV of its plane.
 */
TEST(spray_eligibility_random)
{
	static struct sp s;
	const struct mrc_spray_ops *ops[] = { &mrc_spray_mrc, &mrc_spray_rr };
	u32 iter, i, npl, nev, picks = 0, nones = 0;
	struct oracle o;
	unsigned int pi;
	int k, j;

	unit_seed();
	for (iter = 0; iter < 20000; iter++) {
		npl = 1 + unit_rand32() % (MRC_SPRAY_MAX_PLANES + 2);
		nev = unit_rand32() % 200;
		sp_init(&s, 0, 0);
		s.c.nevs = nev;
		s.c.nplanes = npl;
		s.cursor = unit_rand32();
		sp_index(&s);
		for (i = 0; i < nev; i++) {
			mrc_ev_init(&s.evs[i], i, unit_rand32() % (npl + 1), 0);
			mrc_evx_update((struct mrc_ev_index *)s.xbuf, s.evs, i);
			set_state(&s, i, unit_rand32() % 4 ?
				  unit_rand32() % 4 : MRC_EV_GOOD);
		}
		ASSERT_TRUE(mrc_evx_check(s.c.index, s.evs, nev));
		for (i = 0; i < npl; i++) {
			s.planes[i].avail = unit_rand32() % 3 ?
					    unit_rand32() >> (unit_rand32() % 32) : 0;
			s.planes[i].room = unit_rand32() % 4 != 0;
		}
		s.c.avoid_plane = unit_rand32() % 2 ? unit_rand32() % (npl + 2) :
				  MRC_SPRAY_NO_AVOID;
		if (iter % 2) {
			sp_flight(&s);
			for (i = 0; i < nev; i++) {
				s.fl[i].in_flight = unit_rand32() % 4;
				s.evs[i].rtt_us = unit_rand32() % 3;
			}
		}
		o = oracle(&s.c);
		for (pi = 0; pi < ARRAY_SIZE(ops); pi++) {
			for (j = 0; j < 4; j++) {
				k = ops[pi]->pick(&s.c);
				if (o.cls < 0) {
					ASSERT_EQ(-1, k);
					nones++;
					continue;
				}
				ASSERT_GE(k, 0) {
					TH_LOG("iter %u %s", iter, ops[pi]->name);
				}
				ASSERT_LT((u32)k, nev);
				ASSERT_EQ(o.cls, ev_class(&s.evs[k])) {
					TH_LOG("iter %u %s", iter, ops[pi]->name);
				}
				ASSERT_NE(0U, o.planes & (1U << s.evs[k].plane)) {
					TH_LOG("iter %u %s plane %u", iter,
					       ops[pi]->name, s.evs[k].plane);
				}
				ASSERT_TRUE(ops[pi] != &mrc_spray_rr ||
					    s.cursor < nev);
				/* two choices never take a plane's unique worst */
				if (ops[pi] == &mrc_spray_mrc && s.c.paths)
					ASSERT_FALSE(unique_worst(&s, k)) {
						TH_LOG("iter %u pick %d", iter, k);
					}
				picks++;
			}
		}
	}
	printf("# %u picks checked, %u nones\n", picks, nones);
	EXPECT_LT(10000U, picks);
	EXPECT_LT(1000U, nones);
}

TEST(spray_none)
{
	const struct mrc_spray_ops *ops[] = { &mrc_spray_mrc, &mrc_spray_rr };
	static struct sp s;
	unsigned int pi;
	u32 i;

	unit_seed();
	for (pi = 0; pi < ARRAY_SIZE(ops); pi++) {
		/* No window anywhere: wait for ACKs. */
		sp_init(&s, NPL, PER);
		for (i = 0; i < NPL; i++)
			s.planes[i].avail = 0;
		EXPECT_EQ(-1, ops[pi]->pick(&s.c));
		/* Window but no transmit space anywhere. */
		sp_init(&s, NPL, PER);
		for (i = 0; i < NPL; i++)
			s.planes[i].room = false;
		EXPECT_EQ(-1, ops[pi]->pick(&s.c));
		/* Every EV ASSUMED_BAD or DENIED. */
		sp_init(&s, NPL, PER);
		for (i = 0; i < NEV; i++)
			set_state(&s, i, i % 2 ? MRC_EV_ASSUMED_BAD :
				  MRC_EV_DENIED);
		EXPECT_EQ(-1, ops[pi]->pick(&s.c));
		/* No EVs, no planes. */
		sp_init(&s, NPL, PER);
		s.c.nevs = 0;
		sp_index(&s);
		EXPECT_EQ(-1, ops[pi]->pick(&s.c));
		sp_init(&s, NPL, PER);
		s.c.nplanes = 0;
		EXPECT_EQ(-1, ops[pi]->pick(&s.c));
		sp_index(&s);
		EXPECT_EQ(-1, ops[pi]->pick(&s.c));
		/* The only plane with a window has no usable EV. */
		sp_init(&s, NPL, PER);
		for (i = 1; i < NPL; i++)
			s.planes[i].avail = 0;
		for (i = 0; i < NEV; i += NPL)
			set_state(&s, i, MRC_EV_ASSUMED_BAD);
		EXPECT_EQ(-1, ops[pi]->pick(&s.c));
	}
}

/*
 * A plane with a huge window but no GOOD EV is passed over; a full rail
 * does not stop the others.
 */
TEST(spray_skips_planes)
{
	const struct mrc_spray_ops *ops[] = { &mrc_spray_mrc, &mrc_spray_rr };
	static struct sp s;
	unsigned int pi;
	u32 i;
	int k;

	unit_seed();
	for (pi = 0; pi < ARRAY_SIZE(ops); pi++) {
		sp_init(&s, NPL, PER);
		s.planes[0].avail = 1000000;	/* no GOOD EV */
		s.planes[1].room = false;	/* full queue */
		s.planes[2].avail = 0;		/* no window */
		s.planes[3].avail = 1;
		for (i = 0; i < NEV; i += NPL)
			set_state(&s, i, i % 8 ? MRC_EV_ASSUMED_BAD :
				  MRC_EV_DENIED);
		for (i = 0; i < 1000; i++) {
			k = ops[pi]->pick(&s.c);
			ASSERT_GE(k, 0);
			ASSERT_EQ(3, s.evs[k].plane);
		}
	}
}

/* Only when no eligible plane has a GOOD EV are SKIP EVs used. */
TEST(spray_skip_fallback)
{
	const struct mrc_spray_ops *ops[] = { &mrc_spray_mrc, &mrc_spray_rr };
	static struct sp s;
	unsigned int pi;
	u32 i, hits[NPL];
	int k;

	unit_seed();
	for (pi = 0; pi < ARRAY_SIZE(ops); pi++) {
		/* Plane 0 only SKIP EVs, plane 1 one GOOD EV among SKIPs. */
		sp_init(&s, 2, PER);
		for (i = 0; i < 2 * PER; i++)
			set_state(&s, i, MRC_EV_SKIP);
		set_state(&s, 5, MRC_EV_GOOD);	/* plane 1 */
		for (i = 0; i < 200; i++) {
			k = ops[pi]->pick(&s.c);
			ASSERT_EQ(5, k);
		}
		/* Its plane has no window: SKIP EVs of plane 0 then. */
		s.planes[1].avail = 0;
		for (i = 0; i < 200; i++) {
			k = ops[pi]->pick(&s.c);
			ASSERT_GE(k, 0);
			ASSERT_EQ(0, s.evs[k].plane);
			ASSERT_EQ(MRC_EV_SKIP, s.evs[k].state);
		}
		/* All SKIP, both planes open: both used. */
		s.planes[1].avail = 10000;
		set_state(&s, 5, MRC_EV_SKIP);
		memset(hits, 0, sizeof(hits));
		for (i = 0; i < 2000; i++) {
			k = ops[pi]->pick(&s.c);
			ASSERT_GE(k, 0);
			hits[s.evs[k].plane]++;
		}
		EXPECT_LT(800U, hits[0]);
		EXPECT_LT(800U, hits[1]);
	}
}

TEST(spray_avoid_plane)
{
	const struct mrc_spray_ops *ops[] = { &mrc_spray_mrc, &mrc_spray_rr };
	static struct sp s;
	unsigned int pi;
	u32 i, hits[NPL];
	int k;

	unit_seed();
	for (pi = 0; pi < ARRAY_SIZE(ops); pi++) {
		/* Respected when another plane is eligible. */
		sp_init(&s, NPL, PER);
		s.c.avoid_plane = 2;
		memset(hits, 0, sizeof(hits));
		for (i = 0; i < 3000; i++) {
			k = ops[pi]->pick(&s.c);
			ASSERT_GE(k, 0);
			hits[s.evs[k].plane]++;
		}
		EXPECT_EQ(0U, hits[2]);
		EXPECT_LT(500U, hits[0]);
		EXPECT_LT(500U, hits[1]);
		EXPECT_LT(500U, hits[3]);

		/* Ignored when it is the only eligible plane. */
		for (i = 0; i < NPL; i++)
			s.planes[i].avail = i == 2 ? 5000 : 0;
		for (i = 0; i < 300; i++) {
			k = ops[pi]->pick(&s.c);
			ASSERT_GE(k, 0);
			ASSERT_EQ(2, s.evs[k].plane);
		}

		/* A GOOD EV on the avoided plane beats SKIP EVs elsewhere. */
		sp_init(&s, 2, PER);
		for (i = 0; i < 2 * PER; i += 2)
			set_state(&s, i, MRC_EV_SKIP);	/* plane 0 */
		s.c.avoid_plane = 1;
		for (i = 0; i < 300; i++) {
			k = ops[pi]->pick(&s.c);
			ASSERT_GE(k, 0);
			ASSERT_EQ(1, s.evs[k].plane);
			ASSERT_EQ(MRC_EV_GOOD, s.evs[k].state);
		}
		/* An avoid_plane out of range is no constraint. */
		sp_init(&s, NPL, PER);
		s.c.avoid_plane = NPL + 7;
		memset(hits, 0, sizeof(hits));
		for (i = 0; i < 2000; i++) {
			k = ops[pi]->pick(&s.c);
			ASSERT_GE(k, 0);
			hits[s.evs[k].plane]++;
		}
		for (i = 0; i < NPL; i++)
			EXPECT_LT(300U, hits[i]);
	}
}

/* 8 EVs on one plane: n picks, the histogram in @hits. */
static void two_run(struct sp *s, u32 n, u32 *hits)
{
	u32 i;
	int k;

	memset(hits, 0, 8 * sizeof(*hits));
	for (i = 0; i < n; i++) {
		k = mrc_spray_mrc.pick(&s->c);
		if (k < 0 || k >= 8)
			return;
		hits[k]++;
	}
}

/*
 * Chi-square of @hits against the odd EVs (the losers) getting @p_odd of
 * the picks and the even ones the rest, uniformly within each group.
 */
static double two_chi(const u32 *hits, u32 n, double p_odd)
{
	double chi = 0, e, d;
	u32 i;

	for (i = 0; i < 8; i++) {
		e = n * (i % 2 ? p_odd : 1 - p_odd) / 4;
		d = hits[i] - e;
		chi += d * d / e;
	}
	return chi;
}

/*
 * Two choices: of two distinct EVs drawn from the chosen plane and class,
 * the one with fewer packets in flight, the first draw on a tie.  With 4
 * of a plane's 8 EVs loaded, a loaded one is taken only when both draws
 * are loaded: 4/8 * 3/7 = 3/14 of the picks.  Histograms are checked
 * with chi-square (7 dof; P(chi2_7 > 40) ~ 1.3e-6).
 */
TEST(spray_two_choices)
{
	static struct sp s;
	const u32 n = 100000;
	u32 i, hits[8];
	double chi;

	unit_seed();
	/* Packets in flight decide, not RTT: the loaded EVs are faster. */
	sp_init(&s, 1, 8);
	sp_flight(&s);
	for (i = 0; i < 8; i++) {
		s.fl[i].in_flight = i % 2 ? 2 : 0;
		s.evs[i].rtt_us = i % 2 ? 100 : 900;
	}
	two_run(&s, n, hits);
	chi = two_chi(hits, n, 3.0 / 14);
	printf("# loaded odd EVs: %u %u %u %u %u %u %u %u, chi2 %.2f\n",
	       hits[0], hits[1], hits[2], hits[3], hits[4], hits[5], hits[6],
	       hits[7], chi);
	EXPECT_LT(chi, 40.0);

	/* Equal in flight: uniform, whatever the RTTs (nobody starves). */
	for (i = 0; i < 8; i++) {
		s.fl[i].in_flight = 3;
		s.evs[i].rtt_us = i % 2 ? 900 : 100;
	}
	two_run(&s, n, hits);
	chi = two_chi(hits, n, 0.5);
	printf("# equal in flight: %u %u %u %u %u %u %u %u, chi2 %.2f\n",
	       hits[0], hits[1], hits[2], hits[3], hits[4], hits[5], hits[6],
	       hits[7], chi);
	EXPECT_LT(chi, 40.0);

	/* Two EVs, one loaded: always the other, and never a SKIP one. */
	sp_init(&s, 1, 3);
	sp_flight(&s);
	set_state(&s, 0, MRC_EV_SKIP);
	s.fl[1].in_flight = 1;
	for (i = 0; i < 1000; i++)
		ASSERT_EQ(2, mrc_spray_mrc.pick(&s.c));
	/* One usable EV: taken even when loaded (there is no second). */
	set_state(&s, 2, MRC_EV_ASSUMED_BAD);
	for (i = 0; i < 100; i++)
		ASSERT_EQ(1, mrc_spray_mrc.pick(&s.c));
	/* Two of three loaded alike: the third wins whenever drawn. */
	sp_init(&s, 1, 3);
	sp_flight(&s);
	s.fl[0].in_flight = 5;
	s.fl[1].in_flight = 5;
	memset(hits, 0, sizeof(hits));
	for (i = 0; i < 30000; i++)
		hits[mrc_spray_mrc.pick(&s.c)]++;
	printf("# 5 5 0 in flight: %u %u %u (2/3 on the third: 20000)\n",
	       hits[0], hits[1], hits[2]);
	/* sigma ~ 82 */
	EXPECT_LT(19500U, hits[2]);
	EXPECT_GT(20500U, hits[2]);
}

/*
 * The "mrc" pick before the index (two scans of the EV array), kept as
 * the reference: same draws in the same order, the k-th EV counted in
 * table order.
 */
static u32 ref_below(u32 r, u32 n)
{
	return (u32)(((u64)r * n) >> 32);
}

static u32 ref_weighted(const struct mrc_spray_ctx *c, u32 np, u32 set)
{
	u32 shift = 0, sum = 0, last = 0, x, pl, w;
	u64 total = 0;

	for (pl = 0; pl < np; pl++)
		if (set & (1U << pl))
			total += c->planes[pl].avail;
	while ((total >> shift) > (1ULL << 31))
		shift++;
	for (pl = 0; pl < np; pl++) {
		if (!(set & (1U << pl)))
			continue;
		w = c->planes[pl].avail >> shift;
		sum += w ? w : 1;
	}
	x = ref_below(mrc_spray_rand(c->rng), sum);
	for (pl = 0; pl < np; pl++) {
		if (!(set & (1U << pl)))
			continue;
		w = c->planes[pl].avail >> shift;
		if (!w)
			w = 1;
		if (x < w)
			return pl;
		x -= w;
		last = pl;
	}
	return last;
}

static int ref_nth(const struct mrc_spray_ctx *c, u32 pl, int cls, u32 k)
{
	u32 i, n = 0;

	for (i = 0; i < c->nevs; i++) {
		if (c->evs[i].plane != pl || ev_class(&c->evs[i]) != cls)
			continue;
		if (n++ == k)
			return i;
	}
	return -1;
}

static int ref_pick(const struct mrc_spray_ctx *c)
{
	u32 cnt[2][MRC_SPRAY_MAX_PLANES] = { { 0 } }, set[2] = { 0, 0 };
	u32 np = c->nplanes < 32 ? c->nplanes : 32, i, pl, k, k2, s;
	int cls, a, b;

	for (i = 0; i < c->nevs; i++) {
		cls = ev_class(&c->evs[i]);
		pl = c->evs[i].plane;
		if (cls >= 0 && pl < np)
			cnt[cls][pl]++;
	}
	for (pl = 0; pl < np; pl++) {
		if (!c->planes[pl].avail || !c->planes[pl].room)
			continue;
		for (cls = 0; cls < 2; cls++)
			if (cnt[cls][pl])
				set[cls] |= 1U << pl;
	}
	cls = set[0] ? 0 : 1;
	s = set[cls];
	if (!s)
		return -1;
	if (c->avoid_plane < np && (s & ~(1U << c->avoid_plane)))
		s &= ~(1U << c->avoid_plane);
	pl = ref_weighted(c, np, s);
	k = ref_below(mrc_spray_rand(c->rng), cnt[cls][pl]);
	a = ref_nth(c, pl, cls, k);
	if (!c->paths || cnt[cls][pl] < 2)
		return a;
	k2 = ref_below(mrc_spray_rand(c->rng), cnt[cls][pl] - 1);
	if (k2 >= k)
		k2++;
	b = ref_nth(c, pl, cls, k2);
	return c->paths[b].in_flight < c->paths[a].in_flight ? b : a;
}

/*
 * Same semantics as the scan it replaced: on random contexts (as in
 * spray_eligibility_random), with a freshly built index (buckets in
 * table order) "mrc" picks exactly the EV the reference picks from the
 * same random state; after random state changes through the index the
 * order within a bucket differs, but the plane, the class and the random
 * numbers used (the state afterwards) are still the same, and so is the
 * two-choices comparison when both candidates tie.
 */
TEST(spray_matches_scan)
{
	static struct sp s;
	u32 iter, i, j, npl, nev, rng0, rng_ref, same = 0, picks = 0;
	int k, r;

	unit_seed();
	for (iter = 0; iter < 20000; iter++) {
		npl = 1 + unit_rand32() % (MRC_SPRAY_MAX_PLANES + 2);
		nev = unit_rand32() % 200;
		sp_init(&s, 0, 0);
		s.c.nevs = nev;
		s.c.nplanes = npl;
		for (i = 0; i < nev; i++) {
			mrc_ev_init(&s.evs[i], i, unit_rand32() % (npl + 1), 0);
			s.evs[i].state = unit_rand32() % 3 ? unit_rand32() % 4 :
				MRC_EV_GOOD;
		}
		sp_index(&s);
		for (i = 0; i < npl; i++) {
			s.planes[i].avail = unit_rand32() % 3 ?
					    unit_rand32() >> (unit_rand32() % 32) : 0;
			s.planes[i].room = unit_rand32() % 4 != 0;
		}
		s.c.avoid_plane = unit_rand32() % 2 ? unit_rand32() % (npl + 2) :
				  MRC_SPRAY_NO_AVOID;
		if (iter % 2) {
			sp_flight(&s);
			for (i = 0; i < nev; i++)
				s.fl[i].in_flight = unit_rand32() % 3;
		}
		for (j = 0; j < 8; j++) {
			/* After the first half: churn the buckets' order. */
			if (j == 4 && nev)
				for (i = 0; i < 3 * nev; i++) {
					u32 e = unit_rand32() % nev;
					u8 st = s.evs[e].state;

					set_state(&s, e, unit_rand32() % 4);
					set_state(&s, e, st);
				}
			rng0 = s.rng;
			r = ref_pick(&s.c);
			rng_ref = s.rng;
			s.rng = rng0;
			k = mrc_spray_mrc.pick(&s.c);
			ASSERT_EQ(rng_ref, s.rng);
			ASSERT_EQ(r < 0, k < 0);
			if (k < 0)
				continue;
			picks++;
			ASSERT_EQ(s.evs[r].plane, s.evs[k].plane);
			ASSERT_EQ(ev_class(&s.evs[r]), ev_class(&s.evs[k]));
			if (j < 4)
				ASSERT_EQ(r, k) {
					TH_LOG("iter %u pick %u", iter, j);
				}
			same += r == k;
		}
	}
	printf("# %u picks, %u the same EV\n", picks, same);
	EXPECT_LT(20000U, picks);
}

/*
 * After thousands of moves in and out of the buckets (their order
 * scrambled), the pick is still uniform over the GOOD EVs of a plane
 * (chi-square, 47 dof; P(chi2_47 > 100) ~ 1e-5), never takes another,
 * and two choices still take a loaded EV only when both draws are
 * loaded: 24 of 48 loaded, 24/48 * 23/47 of the picks.
 */
TEST(spray_uniform_after_churn)
{
	static struct sp s;
	u32 hits[96] = { 0 }, i, e, good = 0, loaded = 0;
	const u32 n = 240000;
	double chi = 0, ex, d, p;
	int k;

	unit_seed();
	sp_init(&s, 1, 96);
	for (i = 0; i < 20000; i++) {
		e = unit_rand32() % 96;
		set_state(&s, e, unit_rand32() % 4);
	}
	/* Even EVs GOOD, odd ones each in another state. */
	for (i = 0; i < 96; i++)
		set_state(&s, i, i % 2 ? 1 + (i / 2) % 3 : MRC_EV_GOOD);
	ASSERT_TRUE(mrc_evx_check(s.c.index, s.evs, 96));
	for (i = 0; i < n; i++) {
		k = mrc_spray_mrc.pick(&s.c);
		ASSERT_GE(k, 0);
		ASSERT_EQ(0, k % 2);
		hits[k]++;
	}
	ex = n / 48.0;
	for (i = 0; i < 96; i += 2) {
		d = hits[i] - ex;
		chi += d * d / ex;
	}
	printf("# 48 GOOD EVs after churn: chi2 %.2f (47 dof)\n", chi);
	EXPECT_LT(chi, 100.0);

	sp_flight(&s);
	for (i = 0; i < 96; i += 2) {
		s.fl[i].in_flight = (i / 2) % 2 ? 4 : 1;
		good += (i / 2) % 2;
	}
	ASSERT_EQ(24U, good);
	for (i = 0; i < n; i++) {
		k = mrc_spray_mrc.pick(&s.c);
		ASSERT_GE(k, 0);
		loaded += s.fl[k].in_flight == 4;
	}
	p = 24.0 / 48 * 23 / 47;
	/* binomial: sigma = sqrt(n p (1 - p)) ~ 192; 6 sigma */
	printf("# loaded picks %u, expected %.0f\n", loaded, n * p);
	EXPECT_LT(n * p - 1150, (double)loaded);
	EXPECT_GT(n * p + 1150, (double)loaded);
}

/* Round-robin: GOOD EVs of eligible planes in array order, cyclically. */
TEST(spray_rr_cycles)
{
	/* eligible planes 1 and 2; GOOD among their EVs */
	static const int order1[] = { 1, 2, 5, 8, 10, 11 };
	/* all planes open, windows ignored */
	static const int order2[] = { 1, 2, 7, 9, 10, 11 };
	static struct sp s;
	u32 i;
	int k;

	unit_seed();
	sp_init(&s, 3, 4);		/* EV i on plane i % 3 */
	set_state(&s, 0, MRC_EV_SKIP);
	set_state(&s, 4, MRC_EV_ASSUMED_BAD);
	set_state(&s, 7, MRC_EV_DENIED);
	s.planes[0].avail = 0;		/* EVs 0, 3, 6, 9 are out */
	for (i = 0; i < 3 * ARRAY_SIZE(order1); i++) {
		k = mrc_spray_rr.pick(&s.c);
		ASSERT_EQ(order1[i % ARRAY_SIZE(order1)], k) {
			TH_LOG("pick %u", i);
		}
	}
	/* A huge cursor is taken modulo the EV count: 1000 % 12 = 4. */
	s.cursor = 1000;
	EXPECT_EQ(5, mrc_spray_rr.pick(&s.c));
	EXPECT_EQ(6U, s.cursor);

	s.planes[0].avail = 1;
	s.planes[1].avail = 1000000;
	s.planes[2].avail = 7;
	set_state(&s, 3, MRC_EV_SKIP);
	set_state(&s, 5, MRC_EV_DENIED);
	set_state(&s, 6, MRC_EV_ASSUMED_BAD);
	set_state(&s, 7, MRC_EV_GOOD);
	set_state(&s, 8, MRC_EV_SKIP);
	s.cursor = 0;
	for (i = 0; i < 3 * ARRAY_SIZE(order2); i++) {
		k = mrc_spray_rr.pick(&s.c);
		ASSERT_EQ(order2[i % ARRAY_SIZE(order2)], k) {
			TH_LOG("pick %u", i);
		}
	}
	/* The last GOOD EV wraps the cursor to 0. */
	s.cursor = 11;
	EXPECT_EQ(11, mrc_spray_rr.pick(&s.c));
	EXPECT_EQ(0U, s.cursor);
}

TEST_HARNESS_MAIN
