// SPDX-License-Identifier: GPL-2.0
/*
 * core/ev.c - the per-EV path state machine (see ev.h for the rules).
 */
#include "types.h"
#include "ev.h"

static const char *const mrc_ev_state_names[__MRC_EV_STATE_MAX] = {
	[MRC_EV_GOOD] = "good",
	[MRC_EV_SKIP] = "skip",
	[MRC_EV_ASSUMED_BAD] = "assumed-bad",
	[MRC_EV_DENIED] = "denied",
};

/* Is @t at or after @ref?  Wrap-safe within 2^31 us. */
static bool mrc_ev_reached(u32 t, u32 ref)
{
	return (s32)(t - ref) >= 0;
}

static void mrc_ev_probe_reset(struct mrc_ev *e, u32 now)
{
	e->probe_pending = 0;
	e->probe_ok = 0;
	e->probe_fail = 0;
	e->probe_sent_us = now;
}

static void mrc_ev_set(struct mrc_ev *e, u8 state, u32 now)
{
	e->state = state;
	e->since_us = now;
}

/* The outstanding probe failed. */
static void mrc_ev_probe_failed(struct mrc_ev *e)
{
	e->probe_pending = 0;
	e->probe_ok = 0;
	if (e->probe_fail < 255)
		e->probe_fail++;
	e->probe_fails++;
}

void mrc_ev_params_default(struct mrc_ev_params *p)
{
	p->skip_hold_us = MRC_EV_DEF_SKIP_HOLD_US;
	p->probe_interval_us = MRC_EV_DEF_PROBE_INTERVAL_US;
	p->probe_timeout_us = MRC_EV_DEF_PROBE_TIMEOUT_US;
	p->probe_successes = MRC_EV_DEF_PROBE_SUCCESSES;
	p->replace_after = MRC_EV_DEF_REPLACE_AFTER;
}

void mrc_ev_init(struct mrc_ev *e, u16 ev, u8 plane, u32 now)
{
	memset(e, 0, sizeof(*e));
	e->ev = ev;
	e->plane = plane;
	e->state = MRC_EV_GOOD;
	e->since_us = now;
	e->skip_until_us = now;
	e->probe_sent_us = now;
}

void mrc_ev_on_sent(struct mrc_ev *e, u32 bytes)
{
	e->pkts++;
	e->bytes += bytes;
}

void mrc_ev_on_ack(struct mrc_ev *e, u32 rtt_us)
{
	e->acks++;
	if (rtt_us)
		e->rtt_us = rtt_us;
}

/* ECN echo or NACK: GOOD -> SKIP, SKIP hold extended. */
static bool mrc_ev_congested(struct mrc_ev *e, const struct mrc_ev_params *p,
			     u32 now)
{
	u32 until = now + p->skip_hold_us;

	if (!p->skip_hold_us)
		return false;
	switch (e->state) {
	case MRC_EV_GOOD:
		mrc_ev_set(e, MRC_EV_SKIP, now);
		e->skip_until_us = until;
		return true;
	case MRC_EV_SKIP:
		if ((s32)(until - e->skip_until_us) > 0)
			e->skip_until_us = until;
		return false;
	default:
		return false;
	}
}

bool mrc_ev_on_ecn(struct mrc_ev *e, const struct mrc_ev_params *p, u32 now)
{
	e->ecn++;
	return mrc_ev_congested(e, p, now);
}

bool mrc_ev_on_nack(struct mrc_ev *e, const struct mrc_ev_params *p, u32 now)
{
	e->nacks++;
	return mrc_ev_congested(e, p, now);
}

bool mrc_ev_on_loss(struct mrc_ev *e, u32 now)
{
	e->losses++;
	if (e->state != MRC_EV_GOOD && e->state != MRC_EV_SKIP)
		return false;
	mrc_ev_set(e, MRC_EV_ASSUMED_BAD, now);
	mrc_ev_probe_reset(e, now);
	return true;
}

bool mrc_ev_unusable(struct mrc_ev *e, u32 now)
{
	if (e->state != MRC_EV_GOOD && e->state != MRC_EV_SKIP)
		return false;
	mrc_ev_set(e, MRC_EV_ASSUMED_BAD, now);
	mrc_ev_probe_reset(e, now);
	return true;
}

bool mrc_ev_tick(struct mrc_ev *e, const struct mrc_ev_params *p, u32 now)
{
	switch (e->state) {
	case MRC_EV_SKIP:
		if (!mrc_ev_reached(now, e->skip_until_us))
			return false;
		mrc_ev_set(e, MRC_EV_GOOD, now);
		return true;
	case MRC_EV_ASSUMED_BAD:
		if (e->probe_pending &&
		    mrc_ev_reached(now, e->probe_sent_us + p->probe_timeout_us))
			mrc_ev_probe_failed(e);
		return false;
	default:
		return false;
	}
}

bool mrc_ev_next_event(const struct mrc_ev *e, const struct mrc_ev_params *p,
		       u32 *when)
{
	switch (e->state) {
	case MRC_EV_SKIP:
		*when = e->skip_until_us;
		return true;
	case MRC_EV_ASSUMED_BAD:
		*when = e->probe_sent_us + (e->probe_pending ?
					    p->probe_timeout_us :
					    p->probe_interval_us);
		return true;
	default:
		return false;
	}
}

bool mrc_ev_probe_due(const struct mrc_ev *e, const struct mrc_ev_params *p,
		      u32 now)
{
	return e->state == MRC_EV_ASSUMED_BAD && !e->probe_pending &&
	       mrc_ev_reached(now, e->probe_sent_us + p->probe_interval_us);
}

bool mrc_ev_probe_sent(struct mrc_ev *e, u32 seq, u32 now)
{
	if (e->state != MRC_EV_ASSUMED_BAD)
		return false;
	e->probe_pending = 1;
	e->probe_seq = seq;
	e->probe_sent_us = now;
	e->probes++;
	return true;
}

bool mrc_ev_probe_acked(struct mrc_ev *e, u32 seq,
			const struct mrc_ev_params *p, u32 now)
{
	u8 need = p->probe_successes ? p->probe_successes : 1;

	if (e->state != MRC_EV_ASSUMED_BAD || !e->probe_pending ||
	    e->probe_seq != seq)
		return false;
	if (mrc_ev_reached(now, e->probe_sent_us + p->probe_timeout_us)) {
		mrc_ev_probe_failed(e);
		return false;
	}
	e->probe_pending = 0;
	e->rtt_us = now - e->probe_sent_us;
	if (!e->rtt_us)
		e->rtt_us = 1;
	if (e->probe_ok < 255)
		e->probe_ok++;
	if (e->probe_ok < need)
		return false;
	mrc_ev_set(e, MRC_EV_GOOD, now);
	mrc_ev_probe_reset(e, now);
	return true;
}

bool mrc_ev_wants_replacement(const struct mrc_ev *e,
			      const struct mrc_ev_params *p)
{
	return e->state == MRC_EV_ASSUMED_BAD && p->replace_after &&
	       e->probe_fail >= p->replace_after;
}

bool mrc_ev_replace(struct mrc_ev *e, u16 new_ev, u32 now)
{
	bool changed = e->state != MRC_EV_GOOD;

	mrc_ev_init(e, new_ev, e->plane, now);
	return changed;
}

bool mrc_ev_deny(struct mrc_ev *e, bool deny, u32 now)
{
	bool denied = e->state == MRC_EV_DENIED;

	if (deny == denied)
		return false;
	mrc_ev_set(e, deny ? MRC_EV_DENIED : MRC_EV_GOOD, now);
	mrc_ev_probe_reset(e, now);
	return true;
}

const char *mrc_ev_state_name(unsigned int state)
{
	if (state >= __MRC_EV_STATE_MAX)
		return "unknown";
	return mrc_ev_state_names[state];
}
