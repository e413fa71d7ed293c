// SPDX-License-Identifier: GPL-2.0
/*
 * core/spray.c - spraying policies: which EV carries the next packet
 * (see spray.h for the rules).
 */
#include "types.h"
#include "ev.h"
#include "evindex.h"
#include "spray.h"
#include "txwin.h"

/* Classes of usable EVs, in order of preference. */
enum {
	MRC_SPRAY_GOOD,
	MRC_SPRAY_SKIP,
	MRC_SPRAY_NCLASS,
};

/* Fixed seed replacing a zero xorshift state (which would stay zero). */
#define MRC_SPRAY_SEED	0x9e3779b9U

u32 mrc_spray_rand(u32 *state)
{
	u32 x = *state ? *state : MRC_SPRAY_SEED;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*state = x;
	return x;
}

/* A number in [0, n) from a uniform u32 (multiply-shift, no division). */
static u32 mrc_spray_below(u32 r, u32 n)
{
	return (u32)(((u64)r * n) >> 32);
}

/* Class of an EV, or -1 if it may not carry data. */
static int mrc_spray_class(const struct mrc_ev *e)
{
	if (e->state == MRC_EV_GOOD)
		return MRC_SPRAY_GOOD;
	if (e->state == MRC_EV_SKIP)
		return MRC_SPRAY_SKIP;
	return -1;
}

static u32 mrc_spray_nplanes(const struct mrc_spray_ctx *c)
{
	return c->nplanes < MRC_SPRAY_MAX_PLANES ? c->nplanes :
						   MRC_SPRAY_MAX_PLANES;
}

/* Has @plane window and transmit space?  @plane < mrc_spray_nplanes(). */
static bool mrc_spray_plane_open(const struct mrc_spray_ctx *c, u32 plane)
{
	return c->planes[plane].avail && c->planes[plane].room;
}

/*
 * Weighted choice of a plane in @set (non-empty), probability
 * proportional to avail.  Weights are scaled down so that their sum fits
 * in 32 bits; a plane with a window never gets weight 0.
 */
static u32 mrc_spray_weighted(const struct mrc_spray_ctx *c, u32 np, u32 set)
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
	/* sum <= 2^31 + MRC_SPRAY_MAX_PLANES */
	x = mrc_spray_below(mrc_spray_rand(c->rng), sum);
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
	return last;	/* not reached: x < sum */
}

/*
 * "mrc": O(planes), whatever the number of EVs: the per-plane counts and
 * the k-th EV come from the index (evindex.h), not from a scan.
 */
static int mrc_spray_mrc_pick(const struct mrc_spray_ctx *c)
{
	static const u8 state[MRC_SPRAY_NCLASS] = {
		[MRC_SPRAY_GOOD] = MRC_EV_GOOD,
		[MRC_SPRAY_SKIP] = MRC_EV_SKIP,
	};
	const struct mrc_ev_index *x = c->index;
	u32 set[MRC_SPRAY_NCLASS] = { 0 };
	u32 np = mrc_spray_nplanes(c);
	u32 pl, k, k2, s, cnt, a, b;
	int cls;

	if (!x)
		return -1;
	if (np > x->nplanes)
		np = x->nplanes;
	for (pl = 0; pl < np; pl++) {
		if (!mrc_spray_plane_open(c, pl))
			continue;
		for (cls = 0; cls < MRC_SPRAY_NCLASS; cls++)
			if (mrc_evx_count(x, pl, state[cls]))
				set[cls] |= 1U << pl;
	}
	cls = set[MRC_SPRAY_GOOD] ? MRC_SPRAY_GOOD : MRC_SPRAY_SKIP;
	s = set[cls];
	if (!s)
		return -1;
	if (c->avoid_plane < np && (s & ~(1U << c->avoid_plane)))
		s &= ~(1U << c->avoid_plane);

	pl = mrc_spray_weighted(c, np, s);
	cnt = mrc_evx_count(x, pl, state[cls]);
	k = mrc_spray_below(mrc_spray_rand(c->rng), cnt);
	a = mrc_evx_nth(x, pl, state[cls], k);
	if (!c->paths || cnt < 2)
		return a;
	/* A second EV, uniform among the others */
	k2 = mrc_spray_below(mrc_spray_rand(c->rng), cnt - 1);
	if (k2 >= k)
		k2++;
	b = mrc_evx_nth(x, pl, state[cls], k2);
	return c->paths[b].in_flight < c->paths[a].in_flight ? b : a;
}

static int mrc_spray_rr_pick(const struct mrc_spray_ctx *c)
{
	/* First candidate seen per tier: class * 2 + on the avoided plane. */
	int first[2 * MRC_SPRAY_NCLASS] = { -1, -1, -1, -1 };
	u32 np = mrc_spray_nplanes(c);
	u32 i, j, pl, tier;
	int cls, pick = -1;

	if (!c->nevs)
		return -1;
	i = *c->cursor < c->nevs ? *c->cursor : *c->cursor % c->nevs;
	for (j = 0; j < c->nevs; j++, i = i + 1 < c->nevs ? i + 1 : 0) {
		cls = mrc_spray_class(&c->evs[i]);
		pl = c->evs[i].plane;
		if (cls < 0 || pl >= np || !mrc_spray_plane_open(c, pl))
			continue;
		tier = 2 * cls + (pl == c->avoid_plane);
		if (tier == 0) {
			pick = i;
			break;
		}
		if (first[tier] < 0)
			first[tier] = i;
	}
	for (tier = 1; pick < 0 && tier < ARRAY_SIZE(first); tier++)
		pick = first[tier];
	if (pick >= 0)
		*c->cursor = (u32)pick + 1 < c->nevs ? (u32)pick + 1 : 0;
	return pick;
}

const struct mrc_spray_ops mrc_spray_mrc = {
	.name = "mrc",
	.pick = mrc_spray_mrc_pick,
};

const struct mrc_spray_ops mrc_spray_rr = {
	.name = "rr",
	.pick = mrc_spray_rr_pick,
};

static const struct mrc_spray_ops *const mrc_spray_all[] = {
	&mrc_spray_mrc,
	&mrc_spray_rr,
};

const struct mrc_spray_ops *mrc_spray_get(unsigned int i)
{
	return i < ARRAY_SIZE(mrc_spray_all) ? mrc_spray_all[i] : NULL;
}

const struct mrc_spray_ops *mrc_spray_find(const char *name)
{
	unsigned int i;

	if (!name)
		return NULL;
	for (i = 0; i < ARRAY_SIZE(mrc_spray_all); i++)
		if (!strcmp(mrc_spray_all[i]->name, name))
			return mrc_spray_all[i];
	return NULL;
}
