/* SPDX-License-Identifier: GPL-2.0 */
/*
 * core/evindex.h - a connection's EVs grouped by plane and state, so that
 * the sprayer finds the k-th GOOD (or SKIP) EV of a plane in O(1).
 *
 * The index is one permutation of the EV table's indices, @order, cut
 * into buckets: bucket plane * MRC_EVX_STATES + state holds the EVs of
 * that plane in that state (enum mrc_ev_state), for every plane below
 * the index's plane count; one last bucket holds the EVs of higher
 * planes (or of an unknown state), which the sprayer never uses.  @pos is
 * the inverse permutation and @key the bucket each EV is filed in.
 *
 *   order: | p0 GOOD | p0 SKIP | p0 BAD | p0 DENIED | p1 GOOD | ... | rest |
 *   start:   ^0        ^1        ^2       ^3          ^4              ^4P  ^n
 *
 * Moving an EV to another bucket walks the bucket boundaries between the
 * two: at each, the EV is swapped with the bucket's last (or first)
 * element and the boundary moves by one.  A state change on the same
 * plane therefore costs at most 3 swaps; a change of plane (which the
 * module never makes: an EV keeps its plane for life) at most
 * MRC_EVX_STATES per plane crossed.  Nothing is allocated.
 *
 * Order within a bucket is arbitrary and changes with every move: the
 * sprayer's k-th EV of a bucket is uniform only because k is.
 *
 * The table's owner calls mrc_evx_update() after every change of an EV's
 * state or plane (the kernel glue does so in mrc_path_changed(), the one
 * place every transition of core/ev.c is reported to);
 * mrc_evx_check() verifies the whole index against a scan of the table.
 */
#ifndef _MRC_CORE_EVINDEX_H
#define _MRC_CORE_EVINDEX_H

#include "types.h"
#include "ev.h"

/* Buckets per plane: one per enum mrc_ev_state. */
#define MRC_EVX_STATES		__MRC_EV_STATE_MAX
/* Planes an index distinguishes (as many as the sprayer considers). */
#define MRC_EVX_MAX_PLANES	32
/* EVs an index holds (u16 positions). */
#define MRC_EVX_MAX_EVS		65535
/* A u8 key names a bucket, or the one after the last (never used). */
static_assert(MRC_EVX_MAX_PLANES * MRC_EVX_STATES + 1 <= 255,
	      "evindex: bucket keys are u8");

/**
 * struct mrc_ev_index - the EVs of a table, bucketed by (plane, state)
 * @n: EVs in the table
 * @nplanes: planes with their own buckets (0..MRC_EVX_MAX_PLANES)
 * @data: @n u16 of order, @n u16 of pos, nbuckets + 1 u16 of bucket
 *	starts, then @n u8 of keys (mrc_evx_size() bytes in all, this
 *	header included); reach them with the accessors below
 */
struct mrc_ev_index {
	u16 n;
	u16 nplanes;
	u16 data[];
};

/* Number of buckets of an index of @nplanes planes. */
static inline u32 mrc_evx_nbuckets(u32 nplanes)
{
	return nplanes * MRC_EVX_STATES + 1;
}

static inline u16 *mrc_evx_order(const struct mrc_ev_index *x)
{
	return (u16 *)x->data;
}

static inline u16 *mrc_evx_pos(const struct mrc_ev_index *x)
{
	return (u16 *)x->data + x->n;
}

static inline u16 *mrc_evx_start(const struct mrc_ev_index *x)
{
	return (u16 *)x->data + 2 * x->n;
}

static inline u8 *mrc_evx_key(const struct mrc_ev_index *x)
{
	return (u8 *)(mrc_evx_start(x) + mrc_evx_nbuckets(x->nplanes) + 1);
}

/**
 * mrc_evx_size() - bytes of an index
 * @n: EVs (at most MRC_EVX_MAX_EVS)
 * @nplanes: planes (more than MRC_EVX_MAX_PLANES count as that many)
 *
 * Return: the size to allocate (a multiple of 8), for mrc_evx_init().
 */
size_t mrc_evx_size(u32 n, u32 nplanes);

/**
 * mrc_evx_init() - build the index of a table
 * @x: mrc_evx_size(@n, @nplanes) bytes, any content
 * @evs: the table
 * @n: its EVs (at most MRC_EVX_MAX_EVS)
 * @nplanes: planes to index (more than MRC_EVX_MAX_PLANES count as that
 *	many); EVs of higher planes go to the unused last bucket
 *
 * Within a bucket, EVs are in table order.  O(n + planes).
 *
 * Return: 0, or -1 if @n is too large (then @x is left untouched).
 */
int mrc_evx_init(struct mrc_ev_index *x, const struct mrc_ev *evs, u32 n,
		 u32 nplanes);

/**
 * mrc_evx_update() - file EV @i where its state and plane say
 * @x: the index of @evs
 * @evs: the table
 * @i: the EV whose state or plane may have changed (< @x->n)
 *
 * Idempotent: nothing happens when the EV is where it belongs.  O(1) for
 * a change of state, O(planes) for a change of plane.
 */
void mrc_evx_update(struct mrc_ev_index *x, const struct mrc_ev *evs, u32 i);

/**
 * mrc_evx_count() - EVs of a plane in a state
 * @x: the index
 * @plane: the plane (< @x->nplanes)
 * @state: enum mrc_ev_state
 *
 * Return: their number.
 */
static inline u32 mrc_evx_count(const struct mrc_ev_index *x, u32 plane,
				u32 state)
{
	const u16 *start = mrc_evx_start(x);
	u32 b = plane * MRC_EVX_STATES + state;

	return start[b + 1] - start[b];
}

/**
 * mrc_evx_nth() - the @k-th EV of a plane in a state
 * @x: the index
 * @plane: the plane (< @x->nplanes)
 * @state: enum mrc_ev_state
 * @k: below mrc_evx_count(@x, @plane, @state)
 *
 * Return: its index in the table.
 */
static inline u32 mrc_evx_nth(const struct mrc_ev_index *x, u32 plane,
			      u32 state, u32 k)
{
	return mrc_evx_order(x)[mrc_evx_start(x)[plane * MRC_EVX_STATES + state] + k];
}

/**
 * mrc_evx_check() - is the index exactly what a scan of the table says?
 * @x: the index
 * @evs: the table
 * @n: its EVs
 *
 * Checks that @n matches, that order and pos are inverse permutations,
 * that the bucket starts are ordered and cover 0..n, and that every EV is
 * in the bucket of its current plane and state, and that bucket only.
 * O(n + planes); for tests and debug builds.
 *
 * Return: true if consistent.
 */
bool mrc_evx_check(const struct mrc_ev_index *x, const struct mrc_ev *evs,
		   u32 n);

#endif /* _MRC_CORE_EVINDEX_H */
