// SPDX-License-Identifier: GPL-2.0
/*
 * path.c - a connection's paths, their states, and which one the next
 * packet takes.
 *
 * A path is an entropy value (EV) on one plane: the UDP source port the
 * fabric's ECMP hashes on.  A connection gets evs-per-plane paths on every
 * plane both ends have a rail on (same address family).  EVs come from a
 * random odd-step sequence, so they are unique within a connection (until
 * 16384 have been handed out) and differ between connections.
 *
 * Each path runs the state machine of core/ev.c (GOOD, SKIP, ASSUMED_BAD,
 * DENIED); each plane has its congestion window (core/cc.c).  Per packet
 * the device's spray policy (core/spray.c) picks a GOOD path (SKIP when no
 * GOOD one is open), weighted by the planes' free windows, among planes
 * whose rail is up and can transmit.
 *
 * The path timer (ev_timer) ends SKIP holds, sends probes on ASSUMED_BAD
 * paths whose rail is up, replaces paths that keep failing by a fresh EV
 * on the same plane, and sends the rate-limited path-change notification.
 *
 * Everything here runs under the conn lock unless said otherwise.
 *
 * Reading order: output.c asks here which path a packet takes, then
 * xmit.c sends it; ack.c tells here what each path delivered.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/moduleparam.h>
#include <linux/random.h>

#include "core/psn.h"
#include "sock.h"
#include "trace.h"

/* Tunables of new connections (Documentation/mrc/cc.rst). */
static unsigned int cc_max_cwnd = MRC_CC_DEF_MAX_CWND;
module_param(cc_max_cwnd, uint, 0644);
MODULE_PARM_DESC(cc_max_cwnd, "Largest congestion window of a plane, bytes");
static unsigned int cc_target_qdelay_us = MRC_CC_DEF_TARGET_QDELAY_US;
module_param(cc_target_qdelay_us, uint, 0644);
MODULE_PARM_DESC(cc_target_qdelay_us,
		 "Queueing delay above which a plane's window shrinks, us (0: base RTT)");
static unsigned int cc_burst_segs = MRC_CC_DEF_BURST_SEGS;
module_param(cc_burst_segs, uint, 0644);
MODULE_PARM_DESC(cc_burst_segs, "Segments a plane may send at once");
static unsigned int ev_skip_hold_us = MRC_EV_DEF_SKIP_HOLD_US;
module_param(ev_skip_hold_us, uint, 0644);
MODULE_PARM_DESC(ev_skip_hold_us, "How long a path is avoided after an ECN echo, us");
static unsigned int ev_probe_interval_us = MRC_EV_DEF_PROBE_INTERVAL_US;
module_param(ev_probe_interval_us, uint, 0644);
MODULE_PARM_DESC(ev_probe_interval_us, "Probe interval of a failed path, us");
static unsigned int ev_probe_successes = MRC_EV_DEF_PROBE_SUCCESSES;
module_param(ev_probe_successes, uint, 0644);
MODULE_PARM_DESC(ev_probe_successes,
		 "Consecutive probe answers that bring a failed path back");
static unsigned int ev_replace_after = MRC_EV_DEF_REPLACE_AFTER;
module_param(ev_replace_after, uint, 0644);
MODULE_PARM_DESC(ev_replace_after,
		 "Consecutive probe failures after which a path gets a new EV (0: never)");

static bool loss_per_plane = true;
module_param(loss_per_plane, bool, 0644);
MODULE_PARM_DESC(loss_per_plane,
		 "Loss detection's time rule compares a packet with the newest delivery of its own plane, not of any (read when a connection starts)");

static bool spray_two_choices = true;
module_param(spray_two_choices, bool, 0644);
MODULE_PARM_DESC(spray_two_choices,
		 "\"mrc\" spraying draws two paths of the plane and takes the one with fewer packets in flight (read at each packet)");

/* Lowest timer period in jiffies (the path timer's granularity). */
#define MRC_PATH_TIMER_MIN	1

static u16 mrc_path_new_ev(struct mrc_sock *ms)
{
	return (ms->ev_base + ms->ev_step * ms->ev_count++) & MRC_EV_MAX;
}

static void mrc_path_params(struct mrc_sock *ms)
{
	struct mrc_cc_params *cp = &ms->ccp;
	struct mrc_ev_params *ep = &ms->evp;

	mrc_cc_params_default(cp, ms->seg_size);
	cp->max_cwnd = READ_ONCE(cc_max_cwnd);
	cp->target_qdelay_us = READ_ONCE(cc_target_qdelay_us);
	cp->burst_segs = clamp_t(u32, READ_ONCE(cc_burst_segs), 1, U16_MAX);
	if (!mrc_cc_params_valid(cp))
		mrc_cc_params_default(cp, ms->seg_size);

	mrc_ev_params_default(ep);
	ep->skip_hold_us = min_t(u32, READ_ONCE(ev_skip_hold_us), 1U << 30);
	ep->probe_interval_us = clamp_t(u32, READ_ONCE(ev_probe_interval_us),
					1000, 1U << 30);
	ep->probe_timeout_us = 2 * ep->probe_interval_us;
	ep->probe_successes = clamp_t(u32, READ_ONCE(ev_probe_successes), 1, 255);
	ep->replace_after = min_t(u32, READ_ONCE(ev_replace_after), 255);
}

/* The scoreboard's groups of paths (one per plane), a multiple of 8 bytes. */
static size_t mrc_path_groups_size(u32 nplanes)
{
	return round_up(array_size(nplanes, sizeof(struct mrc_txgroup)), 8);
}

/*
 * The paths' state is one allocation: the EVs, the per-plane state, the
 * scoreboard's groups of paths (mrc_path_groups()) and per-path state,
 * the scoreboard's first ring (its records, then its segments:
 * MRC_TXWIN_MIN each, mrc_path_ring()) and the scratch bytes, in that
 * order (each part a multiple of 8 bytes but the last).  A connection of
 * one plane (plane 0) and 32 paths takes 4056 bytes: one kmalloc-4k
 * object.  KASAN sees one object: an index past
 * evs[npaths] into the planes would go unnoticed, which is why planes are
 * reached through mrc_plane() (bounded by ms->planes), paths through
 * indices checked against ms->npaths, and the ring through PSNs masked
 * by its size.
 */
static size_t mrc_path_block_size(u32 n, u32 nplanes)
{
	BUILD_BUG_ON(sizeof(struct mrc_ev) % 8 || sizeof(struct mrc_plane) % 8 ||
		     sizeof(struct mrc_txpath) % 8 ||
		     (MRC_TXWIN_MIN * sizeof(struct mrc_txrec)) % 8 ||
		     (MRC_TXWIN_MIN * sizeof(struct mrc_txseg)) % 8);
	BUILD_BUG_ON(__alignof__(struct mrc_plane) > 8 ||
		     __alignof__(struct mrc_txpath) > 8 ||
		     __alignof__(struct mrc_txgroup) > 8 ||
		     __alignof__(struct mrc_txrec) > 8 ||
		     __alignof__(struct mrc_txseg) > 8);
	/* Plane 0's default paths in a kmalloc-4k object, ring included. */
	BUILD_BUG_ON(MRC_EVS_PER_PLANE_DEFAULT *
		     (sizeof(struct mrc_ev) + sizeof(struct mrc_txpath) + 1) +
		     sizeof(struct mrc_plane) + round_up(sizeof(struct mrc_txgroup), 8) +
		     MRC_TXWIN_MIN *
		     (sizeof(struct mrc_txrec) + sizeof(struct mrc_txseg)) > 4096);
	/* mrc_txpath.group is a plane number */
	BUILD_BUG_ON(MRC_MAX_RAILS > 256);
	return size_add(size_add(array_size(n, sizeof(struct mrc_ev)),
				 size_add(array_size(nplanes, sizeof(struct mrc_plane)),
					  mrc_path_groups_size(nplanes))),
			size_add(size_add(array_size(n, sizeof(struct mrc_txpath)), n),
				 MRC_TXWIN_MIN * (sizeof(struct mrc_txrec) +
						  sizeof(struct mrc_txseg))));
}

/**
 * mrc_path_ring() - the scoreboard ring that lives in the path block
 * @ms: the connection
 * @segs: where its segments' array is stored (may be NULL)
 *
 * MRC_TXWIN_MIN records and as many segments, zeroed by the allocation:
 * the ring of every connection until its window outgrows it
 * (mrc_output_ring_init(), mrc_output_grow()); freed with the block.
 *
 * Context: the conn lock, or the block cannot change (it is set up
 * before the connection is established and freed with the socket).
 * Return: its records, or NULL before mrc_path_setup() (or after
 * mrc_path_free()).
 */
struct mrc_txrec *mrc_path_ring(const struct mrc_sock *ms, struct mrc_txseg **segs)
{
	struct mrc_txrec *rec;

	if (!ms->evs)
		return NULL;
	rec = (struct mrc_txrec *)(ms->txpaths + ms->npaths);
	if (segs)
		*segs = (struct mrc_txseg *)(rec + MRC_TXWIN_MIN);
	return rec;
}

/**
 * mrc_path_groups() - the scoreboard's groups of paths, in the path block
 * @ms: the connection
 *
 * One per plane up to the highest in use (mrc_txpath.group is the path's
 * plane), or all paths in group 0 when the connection started with
 * loss_per_plane off.  Zeroed by the allocation, freed with the block.
 *
 * Context: the conn lock, or the block cannot change (as mrc_path_ring()).
 * Return: the table, or NULL before mrc_path_setup() (or after
 * mrc_path_free()).
 */
struct mrc_txgroup *mrc_path_groups(const struct mrc_sock *ms)
{
	if (!ms->evs)
		return NULL;
	return (struct mrc_txgroup *)(ms->plane + fls(ms->planes));
}

/**
 * mrc_path_setup() - create the connection's paths from both rail sets
 * @ms: the connection; both ends' rails (@lrail) and @seg_size are set
 * @mdev: the device it runs on (its evs-per-plane and spray policy)
 * @gfp: allocation flags
 *
 * Context: conn lock, or the connection is not yet visible.
 * Return: 0, -ENOMEM, or -ENETUNREACH when no plane is shared.
 */
int mrc_path_setup(struct mrc_sock *ms, struct mrc_dev *mdev, gfp_t gfp)
{
	u32 per = READ_ONCE(mdev->evs_per_plane);
	u32 n = 0, plane, i, nplanes, planes = 0, now = mrc_now_us();
	bool per_plane = READ_ONCE(loss_per_plane);
	struct mrc_plane *pl;
	struct mrc_ev *evs;

	per = clamp_t(u32, per, 1, MRC_MAX_PATHS / MRC_MAX_RAILS);
	for (plane = 0; plane < MRC_MAX_RAILS; plane++) {
		u8 family = mrc_lrail(ms, plane)->family;

		if (family && family == mrc_prail(ms, plane)->family) {
			planes |= BIT(plane);
			n += per;
		}
	}
	/*
	 * The only bound of the per-plane arrays below (fls entries); sysfs
	 * reads it without the conn lock (mrc_conns_plane_sums()).
	 */
	WRITE_ONCE(ms->planes, planes);
	if (!n)
		return -ENETUNREACH;
	/* Per-plane arrays up to the highest plane in use, not all 32. */
	nplanes = fls(ms->planes);
again:
	/*
	 * Atomic, maybe large (MRC_MAX_PATHS paths: 490 KB): when it fails,
	 * fewer paths per plane rather than no connection; only the last
	 * try, one path per plane, may warn.
	 */
	evs = kzalloc(mrc_path_block_size(n, nplanes),
		      per > 1 ? gfp | __GFP_NOWARN : gfp);
	if (!evs) {
		if (per > 1) {
			n /= per;
			per /= 2;
			n *= per;
			goto again;
		}
		WRITE_ONCE(ms->planes, 0);
		return -ENOMEM;
	}
	pl = (struct mrc_plane *)(evs + n);
	ms->txpaths = (struct mrc_txpath *)((u8 *)(pl + nplanes) +
					    mrc_path_groups_size(nplanes));
	/* After the ring: MRC_TXWIN_MIN records, as many segments. */
	ms->path_scratch = (u8 *)((struct mrc_txseg *)
		((struct mrc_txrec *)(ms->txpaths + n) + MRC_TXWIN_MIN) + MRC_TXWIN_MIN);
	mrc_path_params(ms);
	ms->ev_base = get_random_u32_below(MRC_EV_MAX + 1);
	ms->ev_step = get_random_u32_below(MRC_EV_MAX + 1) | 1;
	ms->ev_count = 0;
	n = 0;
	for (plane = 0; plane < MRC_MAX_RAILS; plane++) {
		if (!(ms->planes & BIT(plane)))
			continue;
		pl[plane].dst_ok = !dst_cache_init(&pl[plane].dst, gfp);
		mrc_cc_init(&pl[plane].cc, &ms->ccp);
		for (i = 0; i < per; i++, n++) {
			mrc_ev_init(&evs[n], mrc_path_new_ev(ms), plane, now);
			ms->txpaths[n].ev = evs[n].ev;
			ms->txpaths[n].group = per_plane ? plane : 0;
		}
	}
	/* The spray index comes with the first data (mrc_path_index()). */
	ms->spray = READ_ONCE(mdev->spray) ?: &mrc_spray_mrc;
	ms->spray_rng = get_random_u32() | 1;
	ms->spray_cursor = get_random_u32_below(n);
	ms->npaths = n;
	ms->evs = evs;
	/* Readers without the conn lock (sysfs sums) see initialised state. */
	smp_store_release(&ms->plane, pl);
	mrc_challenge_init(ms);
	return 0;
}

/**
 * mrc_path_free() - forget the paths
 * @ms: the connection, no longer on any packet path or device list
 */
void mrc_path_free(struct mrc_sock *ms)
{
	unsigned long planes = ms->planes;
	u32 plane;

	if (ms->plane)
		for_each_set_bit(plane, &planes, MRC_MAX_RAILS)
			if (ms->plane[plane].dst_ok)
				dst_cache_destroy(&ms->plane[plane].dst);
	kfree(ms->evs);	/* and the rest of the block */
	kfree(ms->ev_index);
	ms->evs = NULL;
	ms->ev_index = NULL;
	ms->plane = NULL;
	ms->txpaths = NULL;
	ms->txw.groups = NULL;
	ms->path_scratch = NULL;
	ms->npaths = 0;
	WRITE_ONCE(ms->planes, 0);
	ms->prail_ok = 0;
}

/* Can our rail on @plane take a packet now?  Context: RCU. */
static bool mrc_path_rail_room(const struct mrc_sock *ms, u8 plane)
{
	const struct mrc_rail *rail;
	struct net_device *dev;
	u32 q;

	if (!ms->mdev)
		return false;
	rail = rcu_dereference(ms->mdev->rails[plane]);
	if (!rail || READ_ONCE(rail->oper_state) != MRC_OPER_STATE_UP)
		return false;
	/* Some TX queue not stopped (qdiscs queue behind a stopped one). */
	dev = rail->dev;
	for (q = 0; q < dev->real_num_tx_queues; q++)
		if (!netif_xmit_stopped(netdev_get_tx_queue(dev, q)))
			return true;
	return false;
}

/**
 * mrc_path_rail_up() - is our rail on @plane up?
 * @ms: the connection
 * @plane: the plane
 *
 * Context: RCU.
 * Return: true if the device has an operationally up rail there.
 */
bool mrc_path_rail_up(const struct mrc_sock *ms, u8 plane)
{
	const struct mrc_rail *rail;

	if (!ms->mdev)
		return false;
	rail = rcu_dereference(ms->mdev->rails[plane]);
	return rail && READ_ONCE(rail->oper_state) == MRC_OPER_STATE_UP;
}

/**
 * mrc_path_planes() - what each plane may send now
 * @ms: the connection
 * @planes: MRC_MAX_RAILS entries, filled: free window (at most one burst)
 *	and whether the rail can transmit
 *
 * Context: conn lock, RCU.
 */
void mrc_path_planes(struct mrc_sock *ms, struct mrc_spray_plane *planes)
{
	u32 plane;

	lockdep_assert_held(&ms->lock);
	for (plane = 0; plane < MRC_MAX_RAILS; plane++) {
		if (!(ms->planes & BIT(plane))) {
			planes[plane].avail = 0;
			planes[plane].room = false;
			continue;
		}
		planes[plane].avail = mrc_cc_burst(&mrc_plane(ms, plane)->cc, &ms->ccp);
		/* A peer rail not proven yet takes nothing (challenge.c). */
		planes[plane].room = mrc_plane_proven(ms, plane) &&
				     mrc_path_rail_room(ms, plane);
	}
}

/*
 * The spray index of @ms, built on first use: an idle connection, or one
 * that only receives, never sprays and does not pay for it (176 bytes
 * for 32 paths; in the path block it would push a one-plane connection,
 * 4064 bytes, out of kmalloc-4k).  False without memory: nothing is
 * sent now; the next push tries again (an ACK's, or the retransmission
 * timer's, which mrc_output_push() arms while data waits: with nothing
 * in flight it fires as a persist timer).
 */
static bool mrc_path_index(struct mrc_sock *ms)
{
	u32 nplanes = fls(ms->planes);
	struct mrc_ev_index *x;

	lockdep_assert_held(&ms->lock);
	if (likely(ms->ev_index))
		return true;
	/* n <= MRC_MAX_PATHS: always fits the index's u16 positions */
	BUILD_BUG_ON(MRC_MAX_PATHS > MRC_EVX_MAX_EVS);
	x = kmalloc(mrc_evx_size(ms->npaths, nplanes), GFP_ATOMIC | __GFP_NOWARN);
	if (!x)
		return false;
	mrc_evx_init(x, ms->evs, ms->npaths, nplanes);
	ms->ev_index = x;
	return true;
}

/**
 * mrc_path_pick() - the path of the next data packet
 * @ms: the connection
 * @planes: from mrc_path_planes(), charged by the caller as it sends
 * @avoid_plane: a plane to avoid if another one is open, or -1
 *
 * When no GOOD or SKIP path is open but a plane has window and an up
 * rail, a path of that plane in ASSUMED_BAD is used as a last resort:
 * the data must go somewhere (every path of a lossy fabric can be marked
 * at once), and its delivery is itself a probe.
 *
 * Context: conn lock, RCU.
 * Return: a path index, or -1 if nothing may be sent now.
 */
int mrc_path_pick(struct mrc_sock *ms, struct mrc_spray_plane *planes,
		  int avoid_plane)
{
	struct mrc_spray_ctx c = {
		.evs = ms->evs,
		.nevs = ms->npaths,
		.planes = planes,
		.nplanes = ms->planes ? fls(ms->planes) : 0,
		.rng = &ms->spray_rng,
		.cursor = &ms->spray_cursor,
		.avoid_plane = avoid_plane < 0 ? MRC_SPRAY_NO_AVOID : avoid_plane,
		.paths = READ_ONCE(spray_two_choices) ? ms->txpaths : NULL,
	};
	u32 i, start, plane;
	int p;

	lockdep_assert_held(&ms->lock);
	if (!ms->npaths || !mrc_path_index(ms))
		return -1;
	c.index = ms->ev_index;
	p = ms->spray->pick(&c);
	if (p >= 0)
		return p;
	/* Usable paths, just no window: O(planes), from the index. */
	for (plane = 0; plane < c.nplanes; plane++)
		if (planes[plane].room &&
		    (mrc_evx_count(ms->ev_index, plane, MRC_EV_GOOD) ||
		     mrc_evx_count(ms->ev_index, plane, MRC_EV_SKIP)))
			return -1;
	/* Last resort (no usable path where a rail has room): a scan. */
	start = mrc_spray_rand(&ms->spray_rng) % ms->npaths;
	for (i = 0; i < ms->npaths; i++) {
		struct mrc_ev *e = &ms->evs[(start + i) % ms->npaths];

		if (e->state == MRC_EV_ASSUMED_BAD && planes[e->plane].room &&
		    planes[e->plane].avail)
			return (start + i) % ms->npaths;
	}
	return -1;
}

/**
 * mrc_path_pick_any() - a path for a control packet (ACK, PROBE, RESET)
 * @ms: the connection
 *
 * Any non-denied path whose rail is up, usable ones first; control
 * packets ignore congestion windows.
 *
 * Context: conn lock, RCU.
 * Return: a path index, or -1.
 */
int mrc_path_pick_any(struct mrc_sock *ms)
{
	u32 i, start, pass;

	lockdep_assert_held(&ms->lock);
	if (!ms->npaths)
		return -1;
	start = mrc_spray_rand(&ms->spray_rng) % ms->npaths;
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < ms->npaths; i++) {
			u32 p = (start + i) % ms->npaths;
			struct mrc_ev *e = &ms->evs[p];

			if (e->state == MRC_EV_DENIED ||
			    (!pass && !mrc_ev_usable(e)) ||
			    !mrc_plane_proven(ms, e->plane) ||
			    !mrc_path_rail_up(ms, e->plane))
				continue;
			return p;
		}
	}
	return -1;
}

/* Arm the path timer for @when (jiffies) unless it fires earlier. */
static void mrc_path_timer_at(struct mrc_sock *ms, unsigned long when)
{
	if (ms->state != MRC_ST_ESTABLISHED && ms->state != MRC_ST_TIME_WAIT)
		return;
	if (time_before(when, jiffies + MRC_PATH_TIMER_MIN))
		when = jiffies + MRC_PATH_TIMER_MIN;
	if (timer_pending(&ms->ev_timer) &&
	    time_before_eq(ms->ev_timer.expires, when))
		return;
	sk_reset_timer(&ms->sk, &ms->ev_timer, when);
}

/**
 * mrc_path_changed() - path @path left @old_state: refile, count, trace,
 *	notify
 * @ms: the connection
 * @path: the path
 * @old_state: its previous state
 *
 * Every change of a path's state (a transition of core/ev.c) must be
 * reported here: it keeps the spray index (@ms->ev_index) in step.  An
 * EV's plane never changes after mrc_path_setup().
 */
void mrc_path_changed(struct mrc_sock *ms, u32 path, unsigned int old_state)
{
	struct mrc_ev *e = &ms->evs[path];

	lockdep_assert_held(&ms->lock);
	/* The one place the spray index follows the paths' states. */
	if (ms->ev_index) {
		mrc_evx_update(ms->ev_index, ms->evs, path);
		DEBUG_NET_WARN_ON_ONCE(!mrc_evx_check(ms->ev_index, ms->evs,
						      ms->npaths));
	}
	trace_mrc_ev_state(ms->id, path, e->ev, e->plane, old_state, e->state);
	if (ms->mdev)
		mrc_stats_ev(ms->mdev, e->state);
	ms->path_dirty = true;
	/* The timer sends the notification and follows the new state. */
	mrc_path_timer_at(ms, ms->path_ntf_at);
}

/**
 * mrc_path_lost() - a packet sent on @path was declared lost
 * @ms: the connection
 * @path: the path
 */
void mrc_path_lost(struct mrc_sock *ms, u32 path)
{
	struct mrc_ev *e = &ms->evs[path];
	u8 old = e->state;

	lockdep_assert_held(&ms->lock);
	if (mrc_ev_on_loss(e, mrc_now_us()))
		mrc_path_changed(ms, path, old);
}

/**
 * mrc_path_acked() - an ACK (or NACK) arrived: per-plane congestion
 *	control and the trigger's path
 * @ms: the connection; each plane's ack_bytes holds what the ACK
 *	acknowledged there (cleared here)
 * @res: the scoreboard's view of the ACK
 * @host_us: of the RTT sample, the time the trigger and the ACK waited
 *	in the receiving hosts (hostdelay.c)
 * @ce: the trigger carried CE: an ECN echo for the trigger's path
 * @ce_count: the peer's count of our packets it received marked; its
 *	increase since the highest count applied is what the plane's window
 *	sees as marked (an ACK may cover up to ack_every packets, and the
 *	ACK that said CE may be lost or overtaken by a later one)
 * @nack: it was a NACK of a trimmed packet: congestion on the trigger's
 *	path (SKIP) and, in the plane's window, one segment as if marked
 *
 * The marks are applied only with a trigger whose transmission is known
 * (its plane); otherwise they wait for the next such ACK.
 */
void mrc_path_acked(struct mrc_sock *ms, const struct mrc_ack_result *res,
		    u32 host_us, bool ce, u32 ce_count, bool nack)
{
	unsigned long planes = ms->planes;
	u32 now = mrc_now_us(), plane, ce_bytes = 0;
	int tp = -1;

	lockdep_assert_held(&ms->lock);
	if (res->trig_path >= 0 && res->trig_path < ms->npaths) {
		struct mrc_ev *e = &ms->evs[res->trig_path];
		u8 old = e->state;
		bool changed = false;

		tp = e->plane;
		mrc_ev_on_ack(e, res->rtt_us);
		if (ce)
			changed = mrc_ev_on_ecn(e, &ms->evp, now);
		if (nack)
			changed |= mrc_ev_on_nack(e, &ms->evp, now);
		if (changed)
			mrc_path_changed(ms, res->trig_path, old);
		ce_bytes = mrc_cc_ce_bytes(&ms->ack_ce_seen, ce_count, nack,
					   ms->seg_size);
	}
	for_each_set_bit(plane, &planes, MRC_MAX_RAILS) {
		struct mrc_plane *pl = mrc_plane(ms, plane);
		u32 bytes = pl->ack_bytes;
		struct mrc_cc_snap old;
		bool traced;

		if (!bytes && plane != tp)
			continue;
		pl->ack_bytes = 0;
		/* A static branch: nothing is read unless someone traces. */
		traced = trace_mrc_cwnd_enabled();
		if (traced) {
			old.cwnd = pl->cc.cwnd;
			old.ecn_cuts = pl->cc.ecn_cuts;
			old.delay_cuts = pl->cc.delay_cuts;
		}
		mrc_cc_on_ack_host(&pl->cc, &ms->ccp, bytes,
				   plane == tp ? min(ce_bytes, bytes) : 0,
				   plane == tp ? res->rtt_us : 0, host_us, now);
		if (traced && pl->cc.cwnd != old.cwnd)
			trace_mrc_cwnd(ms, plane, &old, &pl->cc);
	}
}

/**
 * mrc_path_deny() - exclude a path from traffic, or allow it again
 * @ms: the connection (conn lock)
 * @ev: the path's EV
 * @deny: exclude it
 *
 * Return: 0, or -ENOENT if the connection has no path with that EV.
 */
int mrc_path_deny(struct mrc_sock *ms, u16 ev, bool deny)
{
	u32 i;

	lockdep_assert_held(&ms->lock);
	for (i = 0; i < ms->npaths; i++) {
		struct mrc_ev *e = &ms->evs[i];
		u8 old = e->state;

		if (e->ev != ev)
			continue;
		if (mrc_ev_deny(e, deny, mrc_now_us()))
			mrc_path_changed(ms, i, old);
		return 0;
	}
	return -ENOENT;
}

/* Send a PROBE on path @path. */
static void mrc_path_send_probe(struct mrc_sock *ms, u32 path,
				struct sk_buff_head *xq)
{
	struct mrc_ev *e = &ms->evs[path];
	struct mrc_wire_probe p = { 0 };
	u32 now = mrc_now_us();

	if (!++ms->probe_seq)
		ms->probe_seq = 1;	/* 0 is the window probe */
	if (!mrc_ev_probe_sent(e, ms->probe_seq, now))
		return;
	p.seq = cpu_to_be32(ms->probe_seq);
	p.ev = cpu_to_be16(e->ev);
	p.stamp = cpu_to_be32(now);
	/* Lost for lack of memory: counts as failed after the timeout. */
	mrc_output_probe(ms, MRC_PKT_PROBE, 0, &p, e->plane, xq);
}

/**
 * mrc_path_probe_ack() - a PROBE_ACK arrived
 * @ms: the connection
 * @p: its body
 */
void mrc_path_probe_ack(struct mrc_sock *ms, const struct mrc_wire_probe *p)
{
	u32 seq = be32_to_cpu(p->seq), i;
	u16 ev = be16_to_cpu(p->ev);

	lockdep_assert_held(&ms->lock);
	for (i = 0; i < ms->npaths; i++) {
		struct mrc_ev *e = &ms->evs[i];
		u8 old = e->state;

		if (e->ev != ev || !e->probe_pending || e->probe_seq != seq)
			continue;
		if (mrc_ev_probe_acked(e, seq, &ms->evp, mrc_now_us()))
			mrc_path_changed(ms, i, old);
		else
			mrc_path_timer_at(ms, jiffies);
		return;
	}
}

/* Give path @path a fresh EV on the same plane. */
static void mrc_path_replace(struct mrc_sock *ms, u32 path)
{
	struct mrc_ev *e = &ms->evs[path];
	u16 old_ev = e->ev;
	u8 old = e->state;

	mrc_ev_replace(e, mrc_path_new_ev(ms), mrc_now_us());
	ms->txpaths[path].ev = e->ev;
	trace_mrc_ev_replace(ms->id, path, e->plane, old_ev, e->ev);
	if (ms->mdev)
		mrc_stats_ev(ms->mdev, MRC_STATS_EV_REPLACED);
	if (old != e->state)
		mrc_path_changed(ms, path, old);
}

/*
 * A probe fails when its answer is later than twice the probe interval,
 * or than the connection's RTO-like bound when that is longer: a slow
 * host (or a long fabric) must not fail every probe and keep its paths
 * out forever.  At most 1 s.
 */
static void mrc_path_probe_timeout(struct mrc_sock *ms)
{
	u32 t = 2 * ms->evp.probe_interval_us;
	u32 r = ms->rtt.srtt_us ? 2 * ms->rtt.srtt_us + 4 * ms->rtt.rttvar_us : 0;

	ms->evp.probe_timeout_us = clamp_t(u32, r, t, max_t(u32, t, USEC_PER_SEC));
}

/* The path timer: holds, probes, replacements, notifications. */
static void mrc_path_timer(struct timer_list *t)
{
	struct mrc_sock *ms = from_timer(ms, t, ev_timer);
	unsigned long next = 0;
	bool notify = false, good = false;
	struct sk_buff_head xq;
	u32 now = mrc_now_us(), i, when;
	s32 soonest = S32_MAX;

	mrc_conn_lock(ms, &xq);
	if (ms->state != MRC_ST_ESTABLISHED || !ms->npaths)
		goto unlock;
	mrc_path_probe_timeout(ms);
	for (i = 0; i < ms->npaths; i++) {
		struct mrc_ev *e = &ms->evs[i];
		u8 old = e->state;

		if (mrc_ev_tick(e, &ms->evp, now)) {
			mrc_path_changed(ms, i, old);
			good |= e->state == MRC_EV_GOOD;
		}
		if (e->state != MRC_EV_ASSUMED_BAD)
			goto next_event;
		/*
		 * A rail that is down is not probed: it comes back by probes.
		 * Nor is a peer rail not proven yet: it gets challenges.
		 */
		if (!mrc_path_rail_up(ms, e->plane) ||
		    !mrc_plane_proven(ms, e->plane))
			continue;
		if (mrc_ev_wants_replacement(e, &ms->evp))
			mrc_path_replace(ms, i);
		else if (mrc_ev_probe_due(e, &ms->evp, now))
			mrc_path_send_probe(ms, i, &xq);
next_event:
		if (mrc_ev_next_event(e, &ms->evp, &when) &&
		    (s32)(when - now) < soonest)
			soonest = max_t(s32, (s32)(when - now), 0);
	}
	soonest = min(soonest, mrc_challenge_tick(ms, now, &xq));
	if (soonest != S32_MAX)
		next = jiffies + usecs_to_jiffies(soonest);
	/* EVs on down rails: look again at the probe interval. */
	for (i = 0; i < ms->npaths; i++) {
		if (ms->evs[i].state == MRC_EV_ASSUMED_BAD) {
			unsigned long at = jiffies +
				usecs_to_jiffies(ms->evp.probe_interval_us);

			if (!next || time_before(at, next))
				next = at;
			break;
		}
	}
	if (ms->path_dirty) {
		if (time_after_eq(jiffies, ms->path_ntf_at)) {
			notify = true;
			ms->path_dirty = false;
			ms->path_ntf_at = jiffies +
				msecs_to_jiffies(MRC_PATH_NTF_MS);
		} else if (!next || time_before(ms->path_ntf_at, next)) {
			next = ms->path_ntf_at;
		}
	}
	if (good)
		mrc_output_push(ms, &xq);
	if (next)
		mrc_path_timer_at(ms, next);
unlock:
	mrc_conn_unlock(ms, &xq);
	if (notify)
		mrc_nl_notify_paths(ms);
	sock_put(&ms->sk);
}

/**
 * mrc_path_init() - set up the path timer of a new socket
 * @ms: the socket
 */
void mrc_path_init(struct mrc_sock *ms)
{
	timer_setup(&ms->ev_timer, mrc_path_timer, 0);
	ms->path_ntf_at = jiffies;
}

/**
 * mrc_path_start() - the connection is established: challenge the peer's
 *	rails the handshake did not prove
 * @ms: the connection (conn lock), ESTABLISHED
 */
void mrc_path_start(struct mrc_sock *ms)
{
	lockdep_assert_held(&ms->lock);
	if (ms->prail_ok != ms->planes)
		mrc_path_timer_at(ms, jiffies);
}

/**
 * mrc_path_stop() - stop the path timer (the connection is finishing)
 * @ms: the connection (conn lock)
 */
void mrc_path_stop(struct mrc_sock *ms)
{
	lockdep_assert_held(&ms->lock);
	sk_stop_timer(&ms->sk, &ms->ev_timer);
}

/* Scoreboard callback of a rail failover: the packet leaves its window. */
static void mrc_path_failover_lost(void *ctx, u32 psn)
{
	mrc_output_lost_quiet(ctx, psn);
}

/* Our rail on @plane went away: its paths stop, its packets go elsewhere. */
static void mrc_path_rail_down(struct mrc_sock *ms, u8 plane,
			       struct sk_buff_head *xq)
{
	u32 now = mrc_now_us(), i, lost;

	if (ms->state != MRC_ST_ESTABLISHED || !(ms->planes & BIT(plane)))
		return;
	for (i = 0; i < ms->npaths; i++) {
		struct mrc_ev *e = &ms->evs[i];
		u8 old = e->state;

		ms->path_scratch[i] = e->plane == plane;
		if (e->plane == plane && mrc_ev_unusable(e, now))
			mrc_path_changed(ms, i, old);
	}
	lost = mrc_txwin_lose_paths(&ms->txw, ms->txpaths, ms->path_scratch,
				    mrc_path_failover_lost, ms);
	if (lost)
		trace_mrc_failover(ms->id, plane, lost);
	mrc_output_push(ms, xq);
}

/**
 * mrc_conns_rail_down() - a rail of @mdev is down, detached or changed MTU
 * @mdev: the device
 * @plane: the rail's plane
 *
 * Every connection of the device stops using the plane at once and sends
 * what was in flight on it again on its other planes.
 *
 * Context: process (RTNL) or softirq; takes the device's and each
 * connection's lock in turn.
 */
void mrc_conns_rail_down(struct mrc_dev *mdev, u8 plane)
{
	struct mrc_sock *batch[32];
	struct sk_buff_head xq;
	struct mrc_sock *ms;
	u32 n, i, skip = 0;

	__skb_queue_head_init(&xq);
	do {
		n = 0;
		i = 0;
		spin_lock_bh(&mdev->conns_lock);
		list_for_each_entry(ms, &mdev->conns, dev_node) {
			if (i++ < skip)
				continue;
			sock_hold(&ms->sk);
			batch[n++] = ms;
			if (n == ARRAY_SIZE(batch))
				break;
		}
		spin_unlock_bh(&mdev->conns_lock);
		skip += n;
		for (i = 0; i < n; i++) {
			ms = batch[i];
			mrc_conn_lock(ms, &xq);
			if (ms->mdev == mdev)
				mrc_path_rail_down(ms, plane, &xq);
			mrc_conn_unlock(ms, &xq);
			sock_put(&ms->sk);
		}
	} while (n == ARRAY_SIZE(batch));
}

/**
 * mrc_conns_plane_sums() - bytes in flight and windows of a plane, summed
 *	over a device's connections
 * @mdev: the device
 * @plane: the plane
 * @in_flight: filled: sum of the connections' bytes in flight on it
 * @cwnd: filled: sum of their congestion windows on it
 *
 * Unlocked reads of each connection's counters: a snapshot for sysfs.
 */
void mrc_conns_plane_sums(struct mrc_dev *mdev, u32 plane, u64 *in_flight,
			  u64 *cwnd)
{
	struct mrc_sock *ms;

	*in_flight = 0;
	*cwnd = 0;
	if (plane >= MRC_MAX_RAILS)
		return;
	spin_lock_bh(&mdev->conns_lock);
	list_for_each_entry(ms, &mdev->conns, dev_node) {
		/* Published by mrc_path_setup(), freed after leaving the list. */
		const struct mrc_plane *pl = smp_load_acquire(&ms->plane);

		if (!pl || !(READ_ONCE(ms->planes) & BIT(plane)))
			continue;
		*in_flight += READ_ONCE(pl[plane].cc.in_flight);
		*cwnd += READ_ONCE(pl[plane].cc.cwnd);
	}
	spin_unlock_bh(&mdev->conns_lock);
}
