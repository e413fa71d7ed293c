/* SPDX-License-Identifier: GPL-2.0 */
/*
 * core/ev.h - the state of one path (entropy value, EV) of a connection.
 *
 * A connection sprays its packets over many EVs (UDP source ports, so
 * many ECMP paths) on each of its planes.  Each EV has a state:
 *
 *   GOOD         carries traffic.
 *   SKIP         temporarily avoided after an ECN echo or a NACK for a
 *                packet it carried; back to GOOD once the hold time has
 *                passed (mrc_ev_tick()).  The sprayer uses a SKIP EV only
 *                when no GOOD EV is usable (see spray.h).
 *   ASSUMED_BAD  a packet it carried was lost: a loss means a broken
 *                path, not congestion.  No data is sent on it; it is
 *                probed in the background, one probe at a time.  Back to
 *                GOOD after probe_successes consecutive acknowledged
 *                probes; after replace_after failed probes the caller is
 *                told to replace it with a fresh EV on the same plane.
 *   DENIED       administratively excluded.  Nothing but an administrative
 *                allow (mrc_ev_deny(e, false, now)) changes it; it then
 *                becomes GOOD.
 *
 * Transitions (anything not listed only updates counters):
 *
 *   GOOD        --ecn/nack-->          SKIP (hold = now + skip_hold_us)
 *   SKIP        --ecn/nack-->          SKIP (hold extended, not shortened)
 *   SKIP        --tick, hold over-->   GOOD
 *   GOOD, SKIP  --loss-->              ASSUMED_BAD (probe state reset)
 *   ASSUMED_BAD --probe_successes-th
 *                 consecutive ack-->   GOOD
 *   any         --replace-->           GOOD, new EV value, all reset
 *   not DENIED  --deny-->              DENIED
 *   DENIED      --allow-->             GOOD
 *
 * With skip_hold_us == 0 ECN echoes and NACKs never cause SKIP.
 *
 * Probing (ASSUMED_BAD only): a probe is due (mrc_ev_probe_due()) when
 * none is outstanding and probe_interval_us have passed since the last
 * one was sent, or since the EV became ASSUMED_BAD for the first.  The
 * caller sends it and calls mrc_ev_probe_sent() with the probe's
 * sequence number; mrc_ev_probe_acked() with the same number counts a
 * success.  A probe not acknowledged within probe_timeout_us is a
 * failure: mrc_ev_tick() (or a late mrc_ev_probe_acked()) resets the
 * consecutive successes (probe_ok) and increments probe_fail.  probe_fail
 * counts every failed probe since the EV became ASSUMED_BAD (successes do
 * not reset it), so a flaky path that fails one probe in two is replaced
 * too: mrc_ev_wants_replacement() is true once probe_fail reaches
 * replace_after (0: never).
 *
 * Times are u32 microseconds of the caller's clock, compared with
 * (s32)(a - b), so a deadline is only recognised within 2^31 us (35 min)
 * of it: the caller ticks every non-GOOD EV more often than that.
 *
 * Counters (pkts, bytes, ...) describe the current EV value: they are
 * kept across state changes but reset by mrc_ev_replace() and
 * mrc_ev_init().  The caller folds them into its totals before replacing
 * if it wants to keep them.
 */
#ifndef _MRC_CORE_EV_H
#define _MRC_CORE_EV_H

#include "types.h"

/**
 * enum mrc_ev_state - state of an EV
 * @MRC_EV_GOOD: carries traffic
 * @MRC_EV_SKIP: temporarily avoided (ECN echo or NACK) until skip_until_us
 * @MRC_EV_ASSUMED_BAD: lost a packet; only probes are sent on it
 * @MRC_EV_DENIED: administratively excluded
 * @__MRC_EV_STATE_MAX: number of states
 */
enum mrc_ev_state {
	MRC_EV_GOOD,
	MRC_EV_SKIP,
	MRC_EV_ASSUMED_BAD,
	MRC_EV_DENIED,
	__MRC_EV_STATE_MAX,
};

/* Recommended defaults (Documentation/mrc/cc.rst explains them). */
#define MRC_EV_DEF_SKIP_HOLD_US		1000
#define MRC_EV_DEF_PROBE_INTERVAL_US	10000
#define MRC_EV_DEF_PROBE_TIMEOUT_US	20000
#define MRC_EV_DEF_PROBE_SUCCESSES	3
#define MRC_EV_DEF_REPLACE_AFTER	8

/**
 * struct mrc_ev_params - tunables of the EV state machine
 * @skip_hold_us: how long an ECN echo or a NACK keeps an EV in SKIP
 *	(0: never SKIP)
 * @probe_interval_us: time between two probes of an ASSUMED_BAD EV, and
 *	from the loss to the first probe
 * @probe_timeout_us: a probe not acknowledged within this time failed
 * @probe_successes: consecutive acknowledged probes that make an
 *	ASSUMED_BAD EV GOOD again (0 counts as 1)
 * @replace_after: failed probes after which an ASSUMED_BAD EV should be
 *	replaced (0: never)
 */
struct mrc_ev_params {
	u32 skip_hold_us;
	u32 probe_interval_us;
	u32 probe_timeout_us;
	u8 probe_successes;
	u8 replace_after;
};

/**
 * struct mrc_ev - one path of a connection: an EV on a plane
 * @ev: the entropy value (on the wire: UDP source port, flow label)
 * @plane: the plane (rail) it leaves on; an index in the sprayer's plane
 *	table
 * @state: enum mrc_ev_state
 * @probe_pending: a probe is outstanding (ASSUMED_BAD only)
 * @probe_ok: consecutive acknowledged probes (ASSUMED_BAD only)
 * @probe_fail: failed probes since the EV became ASSUMED_BAD (saturates
 *	at 255)
 * @since_us: time of the last state change (or of mrc_ev_init())
 * @skip_until_us: end of the SKIP hold (meaningful in SKIP only)
 * @probe_seq: sequence number of the last probe sent
 * @probe_sent_us: when it was sent; on entering ASSUMED_BAD: the time of
 *	the loss, so the first probe is due probe_interval_us later
 * @rtt_us: last RTT sample, from a data ACK or a probe (0: none)
 * @nacks: NACKs for packets it carried
 * @probes: probes sent on it
 * @probe_fails: probes that failed (timed out)
 * @pkts: data packets sent on it
 * @bytes: data bytes sent on it
 * @acks: ACKs whose trigger was sent on it
 * @ecn: ECN echoes for it
 * @losses: packets it carried that were declared lost
 *
 * 80 bytes: a connection holds one per path (32 per plane by default),
 * 2.5 KB of an idle connection's 6 KB per end.  @nacks, @probes and
 * @probe_fails are 32 bits and wrap (as tcp_info's counters do).
 */
struct mrc_ev {
	u16 ev;
	u8 plane;
	u8 state;
	u8 probe_pending;
	u8 probe_ok;
	u8 probe_fail;
	u32 since_us;
	u32 skip_until_us;
	u32 probe_seq;
	u32 probe_sent_us;
	u32 rtt_us;
	u32 nacks;
	u32 probes;
	u32 probe_fails;
	u64 pkts;
	u64 bytes;
	u64 acks;
	u64 ecn;
	u64 losses;
};

/**
 * mrc_ev_params_default() - fill in the recommended defaults
 * @p: the parameters
 */
void mrc_ev_params_default(struct mrc_ev_params *p);

/**
 * mrc_ev_init() - start an EV: GOOD, counters zero
 * @e: the EV
 * @ev: its entropy value
 * @plane: its plane
 * @now: the time
 */
void mrc_ev_init(struct mrc_ev *e, u16 ev, u8 plane, u32 now);

/**
 * mrc_ev_usable() - may data be sent on @e?
 * @e: the EV
 *
 * Return: true if GOOD or SKIP (SKIP only as a last resort, see spray.h).
 */
static inline bool mrc_ev_usable(const struct mrc_ev *e)
{
	return e->state == MRC_EV_GOOD || e->state == MRC_EV_SKIP;
}

/**
 * mrc_ev_on_sent() - a data packet was sent on @e
 * @e: the EV
 * @bytes: its length (what the caller counts: payload or wire bytes)
 *
 * Counts only; never changes the state.
 */
void mrc_ev_on_sent(struct mrc_ev *e, u32 bytes);

/**
 * mrc_ev_on_ack() - an ACK was triggered by a packet sent on @e
 * @e: the EV
 * @rtt_us: its RTT sample (0: none; @e->rtt_us is then left alone)
 *
 * Counts and records the sample; never changes the state (an ASSUMED_BAD
 * EV only comes back through probes: a late ACK of a packet sent before
 * the loss says nothing about the path now).
 */
void mrc_ev_on_ack(struct mrc_ev *e, u32 rtt_us);

/**
 * mrc_ev_on_ecn() - the receiver echoed a CE mark of a packet sent on @e
 * @e: the EV
 * @p: parameters
 * @now: the time
 *
 * GOOD becomes SKIP until @now + skip_hold_us; a SKIP EV's hold is
 * extended to that time if it ended earlier.  ASSUMED_BAD and DENIED are
 * unchanged.  Nothing changes state when skip_hold_us is 0.  Always
 * counted in @e->ecn.
 *
 * Return: true if the state changed (GOOD -> SKIP).
 */
bool mrc_ev_on_ecn(struct mrc_ev *e, const struct mrc_ev_params *p, u32 now);

/**
 * mrc_ev_on_nack() - the receiver NACKed a packet sent on @e
 * @e: the EV
 * @p: parameters
 * @now: the time
 *
 * Same transitions as mrc_ev_on_ecn(); counted in @e->nacks.  Meant for
 * NACKs that say the path is congested (a trimmed packet); a NACK for a
 * reason on the receiver's side (no buffer) says nothing about the path.
 *
 * Return: true if the state changed (GOOD -> SKIP).
 */
bool mrc_ev_on_nack(struct mrc_ev *e, const struct mrc_ev_params *p, u32 now);

/**
 * mrc_ev_on_loss() - a data packet sent on @e was declared lost
 * @e: the EV
 * @now: the time
 *
 * GOOD and SKIP become ASSUMED_BAD: no outstanding probe, no successes,
 * no failures, first probe due probe_interval_us after @now.  A loss on
 * an ASSUMED_BAD EV (typically a packet sent before it became bad) or a
 * DENIED one changes nothing but @e->losses.
 *
 * Return: true if the state changed.
 */
bool mrc_ev_on_loss(struct mrc_ev *e, u32 now);

/**
 * mrc_ev_unusable() - the rail under @e went away (carrier, admin, MTU)
 * @e: the EV
 * @now: the time
 *
 * Like mrc_ev_on_loss() without counting a loss: GOOD and SKIP become
 * ASSUMED_BAD, so the EV carries no data until probes bring it back.
 *
 * Return: true if the state changed.
 */
bool mrc_ev_unusable(struct mrc_ev *e, u32 now);

/**
 * mrc_ev_tick() - let time pass
 * @e: the EV
 * @p: parameters
 * @now: the time
 *
 * SKIP whose hold has ended (@now at or after @e->skip_until_us) becomes
 * GOOD.  ASSUMED_BAD with an outstanding probe sent probe_timeout_us or
 * more before @now: the probe failed (probe_pending and probe_ok cleared,
 * probe_fail and probe_fails incremented); the state does not change, see
 * mrc_ev_wants_replacement().
 *
 * Return: true if the state changed.
 */
bool mrc_ev_tick(struct mrc_ev *e, const struct mrc_ev_params *p, u32 now);

/**
 * mrc_ev_next_event() - when mrc_ev_tick() or mrc_ev_probe_due() next
 *	has something to do for @e
 * @e: the EV
 * @p: parameters
 * @when: set to that time (may be in the past: act now)
 *
 * For arming the caller's timer: the end of a SKIP hold, the timeout of
 * an outstanding probe, or the time the next probe is due.
 *
 * Return: false if nothing is scheduled (GOOD, DENIED).
 */
bool mrc_ev_next_event(const struct mrc_ev *e, const struct mrc_ev_params *p,
		       u32 *when);

/**
 * mrc_ev_probe_due() - should a probe be sent on @e now?
 * @e: the EV
 * @p: parameters
 * @now: the time
 *
 * Return: true if ASSUMED_BAD, no probe outstanding and at least
 * probe_interval_us since @e->probe_sent_us.
 */
bool mrc_ev_probe_due(const struct mrc_ev *e, const struct mrc_ev_params *p,
		      u32 now);

/**
 * mrc_ev_probe_sent() - a probe was sent on @e
 * @e: the EV
 * @seq: its sequence number (the PROBE's seq; unique per connection)
 * @now: the time
 *
 * Records the outstanding probe (a previous one is forgotten without
 * counting as a failure).  Ignored unless ASSUMED_BAD.
 *
 * Return: true if recorded.
 */
bool mrc_ev_probe_sent(struct mrc_ev *e, u32 seq, u32 now);

/**
 * mrc_ev_probe_acked() - a PROBE_ACK arrived for @e
 * @e: the EV
 * @seq: the sequence number it acknowledges
 * @p: parameters
 * @now: the time
 *
 * Ignored unless ASSUMED_BAD with an outstanding probe of number @seq.
 * If the probe is younger than probe_timeout_us it succeeded: probe_ok is
 * incremented, @e->rtt_us set, and the EV becomes GOOD when probe_ok
 * reaches probe_successes.  An older one failed, exactly as if
 * mrc_ev_tick() had seen it time out.
 *
 * Return: true if the state changed (ASSUMED_BAD -> GOOD).
 */
bool mrc_ev_probe_acked(struct mrc_ev *e, u32 seq,
			const struct mrc_ev_params *p, u32 now);

/**
 * mrc_ev_wants_replacement() - should @e be replaced by a fresh EV?
 * @e: the EV
 * @p: parameters
 *
 * Return: true if ASSUMED_BAD, replace_after is not 0 and probe_fail has
 * reached it.
 */
bool mrc_ev_wants_replacement(const struct mrc_ev *e,
			      const struct mrc_ev_params *p);

/**
 * mrc_ev_replace() - give @e a new entropy value on the same plane
 * @e: the EV
 * @new_ev: the new value (the caller picks one unused in the connection)
 * @now: the time
 *
 * Equivalent to mrc_ev_init(@e, @new_ev, @e->plane, @now): GOOD, probe
 * state and counters reset (they described the old path).  Works in any
 * state; replacing a DENIED EV lifts the denial of the slot.
 *
 * Return: true if the state changed (it was not GOOD).
 */
bool mrc_ev_replace(struct mrc_ev *e, u16 new_ev, u32 now);

/**
 * mrc_ev_deny() - administratively deny or allow @e
 * @e: the EV
 * @deny: true: deny (any state becomes DENIED); false: allow (DENIED
 *	becomes GOOD, other states are unchanged)
 * @now: the time
 *
 * Probe state is cleared on both transitions.
 *
 * Return: true if the state changed.
 */
bool mrc_ev_deny(struct mrc_ev *e, bool deny, u32 now);

/**
 * mrc_ev_state_name() - name of a state
 * @state: enum mrc_ev_state
 *
 * Return: "good", "skip", "assumed-bad", "denied", or "unknown".
 */
const char *mrc_ev_state_name(unsigned int state);

#endif /* _MRC_CORE_EV_H */
