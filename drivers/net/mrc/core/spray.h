/* SPDX-License-Identifier: GPL-2.0 */
/*
 * core/spray.h - which EV carries the next packet.
 *
 * A policy (struct mrc_spray_ops, like MPTCP's packet schedulers) looks at
 * the connection's EVs (struct mrc_ev, ev.h) and at one struct
 * mrc_spray_plane per plane, filled by the caller: the bytes the plane's
 * congestion window still allows (mrc_cc_avail()) and whether its rail
 * has transmit space right now.  A plane is eligible when both are
 * non-zero, the EV's plane number indexes the plane table and the plane
 * has a usable EV.  A full queue on one rail therefore never blocks the
 * others.
 *
 * Class: GOOD EVs are used whenever an eligible plane has one.  Only when
 * no eligible plane has a GOOD EV are SKIP EVs used, with the same rules,
 * so that a connection whose EVs were all marked keeps sending (its
 * congestion windows still limit it).  ASSUMED_BAD and DENIED EVs are
 * never picked.
 *
 * avoid_plane (for a retransmission: the plane of the lost transmission)
 * removes that plane from the choice when another plane is eligible in
 * the class used; it is ignored when it is the only one.
 *
 * Policies:
 *   "mrc" (default): a plane at random, with probability proportional to
 *        its available window; then one of its usable EVs uniformly, or,
 *        if the caller passes the scoreboard's per-EV records, of two
 *        distinct EVs drawn uniformly the one with fewer packets in
 *        flight (the first on a tie): paths through a fuller queue keep
 *        their packets in flight longer and lose the draws.
 *   "rr": round-robin over the EV array from a caller-kept cursor,
 *        skipping EVs that are not usable or whose plane is not eligible,
 *        ignoring the windows' sizes.
 *
 * "mrc" costs O(nplanes), whatever the number of EVs: it reads the
 * per-plane, per-state counts and the k-th EV of a bucket from the
 * caller's EV index (struct mrc_ev_index, evindex.h), which the caller
 * keeps up to date on every state change.  Which EV a given random number
 * selects depends on the order within the bucket, which the index
 * changes as EVs move; the choice is uniform all the same.  "rr" scans
 * the EV array, O(nevs + nplanes).  Neither allocates, and the EVs need
 * not be grouped by plane.  Randomness comes from a caller-owned
 * xorshift32 state (mrc_spray_rand()).
 */
#ifndef _MRC_CORE_SPRAY_H
#define _MRC_CORE_SPRAY_H

#include "types.h"
#include "ev.h"
#include "evindex.h"

struct mrc_txpath;

/* Planes beyond this number are never eligible (the wire allows 32). */
#define MRC_SPRAY_MAX_PLANES	32

/* No plane to avoid. */
#define MRC_SPRAY_NO_AVOID	(~0U)

/**
 * struct mrc_spray_plane - what the caller says about one plane
 * @avail: bytes its congestion window still allows (0: none)
 * @room: its rail can take a packet now
 */
struct mrc_spray_plane {
	u32 avail;
	bool room;
};

/**
 * struct mrc_spray_ctx - everything a policy looks at
 * @evs: the connection's EVs, any order
 * @nevs: their number
 * @index: the index of @evs (mrc_evx_init(), kept current with
 *	mrc_evx_update()) over at least @nplanes planes; required by "mrc"
 *	(without it "mrc" picks nothing), unused by "rr"
 * @planes: the plane table, indexed by struct mrc_ev.plane
 * @nplanes: its size (at most MRC_SPRAY_MAX_PLANES are considered)
 * @rng: xorshift32 state for "mrc" (caller-owned, see mrc_spray_rand())
 * @cursor: next EV index to consider for "rr" (caller-owned, any value)
 * @avoid_plane: plane to avoid if another is eligible, or
 *	MRC_SPRAY_NO_AVOID
 * @paths: the scoreboard's per-EV records, @nevs of them, same index as
 *	@evs; or NULL.  With them "mrc" draws two distinct EVs of the
 *	chosen plane and class and takes the one with fewer packets in
 *	flight (on a tie, the first draw); without, one EV uniformly.
 */
struct mrc_spray_ctx {
	const struct mrc_ev *evs;
	u32 nevs;
	const struct mrc_ev_index *index;
	const struct mrc_spray_plane *planes;
	u32 nplanes;
	u32 *rng;
	u32 *cursor;
	u32 avoid_plane;
	const struct mrc_txpath *paths;
};

/**
 * struct mrc_spray_ops - a spraying policy
 * @name: its name ("mrc", "rr")
 * @pick: chooses the EV of the next packet; returns its index in
 *	@c->evs, or -1 if no EV may be used now (no eligible plane: the
 *	caller waits for ACKs or transmit space)
 */
struct mrc_spray_ops {
	const char *name;
	int (*pick)(const struct mrc_spray_ctx *c);
};

/*
 * Weighted by available window, then uniform within the plane, or the
 * better of two by packets in flight (struct mrc_spray_ctx.paths).
 */
extern const struct mrc_spray_ops mrc_spray_mrc;
/* Round-robin, for comparison. */
extern const struct mrc_spray_ops mrc_spray_rr;

/**
 * mrc_spray_find() - a policy by name
 * @name: "mrc" or "rr"
 *
 * Return: the policy, or NULL if there is none of that name.
 */
const struct mrc_spray_ops *mrc_spray_find(const char *name);

/**
 * mrc_spray_get() - enumerate the policies
 * @i: 0, 1, ...
 *
 * Return: the @i-th policy (0 is the default, "mrc"), NULL past the end.
 */
const struct mrc_spray_ops *mrc_spray_get(unsigned int i);

/**
 * mrc_spray_rand() - next number of a xorshift32 generator
 * @state: the caller's state; seed it with any value (0 is replaced by a
 *	fixed non-zero seed)
 *
 * Return: a pseudo-random u32.
 */
u32 mrc_spray_rand(u32 *state);

#endif /* _MRC_CORE_SPRAY_H */
