// SPDX-License-Identifier: GPL-2.0
/*
 * path.c - a connection's paths and which one the next packet takes.
 *
 * A path is an entropy value (EV) on one plane.  A connection gets
 * MRC_EVS_PER_PLANE paths on every plane both ends have a rail on (same
 * address family), with EVs unique within the connection and different
 * between connections (a random base), so ECMP in the fabric spreads them
 * over its links.  Until the sprayer (per-EV state, congestion control)
 * takes over, packets go round-robin over the usable paths; a
 * retransmission avoids the plane its previous transmission took when
 * another one is usable.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/random.h>

#include "sock.h"

/**
 * mrc_path_setup() - create the connection's paths from both rail sets
 * @ms: the connection; @lrail and @prail are filled
 * @gfp: allocation flags
 *
 * Context: conn lock, or the connection is not yet visible.
 * Return: 0, -ENOMEM, or -ENETUNREACH when no plane is shared.
 */
int mrc_path_setup(struct mrc_sock *ms, gfp_t gfp)
{
	u16 base = get_random_u32_below(MRC_EV_MAX + 1);
	u32 n = 0, plane, i;

	for (plane = 0; plane < MRC_MAX_RAILS; plane++)
		if (ms->lrail[plane].family &&
		    ms->lrail[plane].family == ms->prail[plane].family)
			n += MRC_EVS_PER_PLANE;
	if (!n)
		return -ENETUNREACH;
	ms->paths = kcalloc(n, sizeof(*ms->paths), gfp);
	ms->txpaths = kcalloc(n, sizeof(*ms->txpaths), gfp);
	if (!ms->paths || !ms->txpaths) {
		kfree(ms->paths);
		kfree(ms->txpaths);
		ms->paths = NULL;
		ms->txpaths = NULL;
		return -ENOMEM;
	}
	n = 0;
	for (plane = 0; plane < MRC_MAX_RAILS; plane++) {
		if (!ms->lrail[plane].family ||
		    ms->lrail[plane].family != ms->prail[plane].family)
			continue;
		if (!(ms->dst_planes & BIT(plane)) &&
		    !dst_cache_init(&ms->dst[plane], gfp))
			ms->dst_planes |= BIT(plane);
		for (i = 0; i < MRC_EVS_PER_PLANE; i++, n++) {
			ms->paths[n].plane = plane;
			ms->txpaths[n].ev = (base + n) & MRC_EV_MAX;
		}
	}
	ms->npaths = n;
	ms->next_path = get_random_u32_below(n);
	return 0;
}

/**
 * mrc_path_free() - forget the paths
 * @ms: the connection, no longer on any packet path
 */
void mrc_path_free(struct mrc_sock *ms)
{
	u32 plane;

	for (plane = 0; plane < MRC_MAX_RAILS; plane++)
		if (ms->dst_planes & BIT(plane))
			dst_cache_destroy(&ms->dst[plane]);
	ms->dst_planes = 0;
	kfree(ms->paths);
	kfree(ms->txpaths);
	ms->paths = NULL;
	ms->txpaths = NULL;
	ms->npaths = 0;
}

/* Is our rail on @plane up? Context: RCU or RTNL or conn lock + RCU. */
static bool mrc_path_plane_up(const struct mrc_sock *ms, u8 plane)
{
	const struct mrc_rail *rail;
	bool up;

	rcu_read_lock();
	rail = rcu_dereference(ms->mdev->rails[plane]);
	up = rail && READ_ONCE(rail->oper_state) == MRC_OPER_STATE_UP;
	rcu_read_unlock();
	return up;
}

/**
 * mrc_path_pick() - the path for the next packet
 * @ms: the connection (conn lock held)
 * @avoid_plane: a plane to avoid if another is usable, or -1
 *
 * Return: a path index, or -1 if no path is usable.
 */
int mrc_path_pick(struct mrc_sock *ms, int avoid_plane)
{
	int fallback = -1;
	u32 i;

	if (!ms->npaths || !ms->mdev)
		return -1;
	for (i = 0; i < ms->npaths; i++) {
		u32 p = (ms->next_path + i) % ms->npaths;
		u8 plane = ms->paths[p].plane;

		if (!mrc_path_plane_up(ms, plane))
			continue;
		if (plane == avoid_plane) {
			if (fallback < 0)
				fallback = p;
			continue;
		}
		ms->next_path = p + 1;
		return p;
	}
	if (fallback >= 0)
		ms->next_path = fallback + 1;
	return fallback;
}
