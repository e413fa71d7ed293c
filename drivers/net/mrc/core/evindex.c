// SPDX-License-Identifier: GPL-2.0
/*
 * core/evindex.c - EVs bucketed by plane and state (see evindex.h).
 */
#include "types.h"
#include "ev.h"
#include "evindex.h"

static u32 mrc_evx_planes(u32 nplanes)
{
	return nplanes < MRC_EVX_MAX_PLANES ? nplanes : MRC_EVX_MAX_PLANES;
}

/* The bucket EV @e belongs in. */
static u32 mrc_evx_bucket(const struct mrc_ev_index *x, const struct mrc_ev *e)
{
	if (e->plane >= x->nplanes || e->state >= MRC_EVX_STATES)
		return x->nplanes * MRC_EVX_STATES;
	return e->plane * MRC_EVX_STATES + e->state;
}

size_t mrc_evx_size(u32 n, u32 nplanes)
{
	size_t sz = sizeof(struct mrc_ev_index) +
		    (2 * (size_t)n + mrc_evx_nbuckets(mrc_evx_planes(nplanes)) + 1) *
		    sizeof(u16) + n;

	return (sz + 7) & ~(size_t)7;
}

int mrc_evx_init(struct mrc_ev_index *x, const struct mrc_ev *evs, u32 n,
		 u32 nplanes)
{
	u16 *order, *pos, *start;
	u32 i, b, nb, p;
	u8 *key;

	if (n > MRC_EVX_MAX_EVS)
		return -1;
	x->n = n;
	x->nplanes = mrc_evx_planes(nplanes);
	nb = mrc_evx_nbuckets(x->nplanes);
	order = mrc_evx_order(x);
	pos = mrc_evx_pos(x);
	start = mrc_evx_start(x);
	key = mrc_evx_key(x);
	/* Counting sort: sizes, then each bucket's first position. */
	memset(start, 0, (nb + 1) * sizeof(*start));
	for (i = 0; i < n; i++) {
		key[i] = mrc_evx_bucket(x, &evs[i]);
		start[key[i] + 1]++;
	}
	for (b = 1; b <= nb; b++)
		start[b] += start[b - 1];
	/* Place; start[b] moves to the end of bucket b... */
	for (i = 0; i < n; i++) {
		p = start[key[i]]++;
		order[p] = i;
		pos[i] = p;
	}
	/* ...which is the start of bucket b + 1. */
	for (b = nb; b > 0; b--)
		start[b] = start[b - 1];
	start[0] = 0;
	return 0;
}

/* Swap the EVs at positions @p and @q. */
static void mrc_evx_swap(u16 *order, u16 *pos, u32 p, u32 q)
{
	u16 a = order[p], b = order[q];

	order[p] = b;
	order[q] = a;
	pos[a] = q;
	pos[b] = p;
}

void mrc_evx_update(struct mrc_ev_index *x, const struct mrc_ev *evs, u32 i)
{
	u16 *order = mrc_evx_order(x), *pos = mrc_evx_pos(x);
	u16 *start = mrc_evx_start(x);
	u8 *key = mrc_evx_key(x);
	u32 to = mrc_evx_bucket(x, &evs[i]), b = key[i], p = pos[i];

	/* Across each boundary: to the edge of the bucket, then the edge moves. */
	for (; b < to; b++) {
		mrc_evx_swap(order, pos, p, start[b + 1] - 1);
		p = --start[b + 1];
	}
	for (; b > to; b--) {
		mrc_evx_swap(order, pos, p, start[b]);
		p = start[b]++;
	}
	key[i] = to;
}

bool mrc_evx_check(const struct mrc_ev_index *x, const struct mrc_ev *evs,
		   u32 n)
{
	const u16 *order = mrc_evx_order(x), *pos = mrc_evx_pos(x);
	const u16 *start = mrc_evx_start(x);
	const u8 *key = mrc_evx_key(x);
	u32 nb, i, b;

	if (x->n != n || x->nplanes > MRC_EVX_MAX_PLANES)
		return false;
	nb = mrc_evx_nbuckets(x->nplanes);
	if (start[0] != 0 || start[nb] != n)
		return false;
	for (b = 0; b < nb; b++)
		if (start[b] > start[b + 1])
			return false;
	for (i = 0; i < n; i++) {
		b = key[i];
		if (b >= nb || pos[i] >= n || order[pos[i]] != i ||
		    b != mrc_evx_bucket(x, &evs[i]) ||
		    pos[i] < start[b] || pos[i] >= start[b + 1])
			return false;
	}
	return true;
}
