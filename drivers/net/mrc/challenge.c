// SPDX-License-Identifier: GPL-2.0
/*
 * challenge.c - a rail the peer announced carries nothing until it has
 * proven to be the peer's.
 *
 * The handshake announces each end's rails (plane -> address), but only
 * one address is proven by it: the one the REQ went to (client) or came
 * from (server), because the ids that every later packet must carry were
 * sent there.  Any other announced address could be a third party's (a
 * hostile peer naming a victim), so before anything goes there, the rail
 * must echo a 64-bit random challenge: a PROBE with the CHALLENGE flag,
 * answered by a PROBE_ACK from that address with the same value.  Until
 * then the plane is closed to data, ACKs, path probes and RESETs.
 *
 * Who sends what to an address not proven yet:
 *  - the server (the end that got the REQ) challenges a rail only after a
 *    packet of the connection came from it (the client's own challenge,
 *    typically), and answers each challenge from it with one packet of
 *    the same size.  A hostile client spoofing a third party's address
 *    gets one answer per spoofed packet sent there, plus our own
 *    challenges, spaced from the probe timeout doubling up to 1 s;
 *  - the client (the end that connect()ed) challenges each such rail of
 *    the server at once, again after MRC_CHALLENGE_TRIES - 1 doubling
 *    intervals from 250 ms (0, 0.25, 0.75, 1.75 s: a loss burst does
 *    not close the plane for 30 s), and
 *    then every MRC_CHALLENGE_IDLE_US (30 s) while nothing comes from it;
 *    as the server while the rail speaks.  A server it chose to connect
 *    to can make it send at most MRC_CHALLENGE_TRIES 52-byte packets per
 *    plane at setup and one per 30 s after, or (if it can spoof the
 *    third party's address) one per second.
 *  - each challenge goes on the next EV of its plane (a black-holed path
 *    does not keep a plane closed), and none while our own rail there is
 *    down.
 *
 * Everything here runs under the conn lock.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/random.h>

#include "sock.h"

/* A client's unsolicited challenge of a silent rail, at most this often. */
#define MRC_CHALLENGE_IDLE_US	(30 * USEC_PER_SEC)
/* ... after this many, spaced like challenges to a rail that speaks. */
#define MRC_CHALLENGE_TRIES	4
/* The longest such space; a client's retries start from at least this. */
#define MRC_CHALLENGE_MAX_US	USEC_PER_SEC
#define MRC_CHALLENGE_RETRY_US	(250 * USEC_PER_MSEC)

/**
 * mrc_challenge_init() - which of the peer's rails the handshake proved
 * @ms: the connection, its paths just set up (conn lock, or not visible)
 *
 * The peer's rails at the address the handshake exchanged ids with are
 * proven; every other plane gets a challenge value.
 */
void mrc_challenge_init(struct mrc_sock *ms)
{
	u32 plane, now = mrc_now_us();
	struct mrc_challenge *c;

	ms->prail_ok = 0;
	for (plane = 0; plane < MRC_MAX_RAILS; plane++) {
		if (!(ms->planes & BIT(plane)))
			continue;
		if (ipv6_addr_equal(&mrc_prail(ms, plane)->addr, &ms->peer.smrc_addr)) {
			ms->prail_ok |= BIT(plane);
			continue;
		}
		c = &mrc_plane(ms, plane)->chal;
		c->value = get_random_u64();
		c->next_us = now;
	}
}

/* The @k-th path (EV) of @plane, round robin: challenges travel like data. */
static int mrc_challenge_path(const struct mrc_sock *ms, u8 plane, u32 k)
{
	u32 i, n = 0, first = -1;

	for (i = 0; i < ms->npaths; i++) {
		if (ms->evs[i].plane != plane)
			continue;
		if (first == -1)
			first = i;
		if (n++ == k)
			return i;
	}
	if (first == -1)
		return -1;
	return mrc_challenge_path(ms, plane, k % n);
}

static void mrc_challenge_fill(struct mrc_wire_probe *p, u64 value, u16 ev)
{
	p->seq = cpu_to_be32(upper_32_bits(value));
	p->ev = cpu_to_be16(ev);
	p->reserved = 0;
	p->stamp = cpu_to_be32(lower_32_bits(value));
}

/**
 * mrc_challenge_heard() - a packet of the connection came from the peer's
 *	rail on @plane
 * @ms: the connection (conn lock), ESTABLISHED
 * @plane: the plane
 *
 * If that rail is not proven yet, it may now be challenged (again).
 */
void mrc_challenge_heard(struct mrc_sock *ms, u8 plane)
{
	struct mrc_challenge *c;

	lockdep_assert_held(&ms->lock);
	if (!ms->plane || !(ms->planes & BIT(plane)) || mrc_plane_proven(ms, plane))
		return;
	c = &mrc_plane(ms, plane)->chal;
	if (!c->heard) {
		c->heard = true;
		mrc_path_start(ms);
	}
}

/**
 * mrc_challenge_tick() - send the challenges that are due
 * @ms: the connection (conn lock, RCU)
 * @now: mrc_now_us()
 * @xq: where PROBEs are queued
 *
 * Return: microseconds until the next challenge may be due, or S32_MAX.
 */
s32 mrc_challenge_tick(struct mrc_sock *ms, u32 now, struct sk_buff_head *xq)
{
	u32 base = min_t(u32, max_t(u32, ms->evp.probe_timeout_us, 2 * ms->rtt.srtt_us),
			 MRC_CHALLENGE_MAX_US);
	s32 soonest = S32_MAX;
	u32 plane;

	lockdep_assert_held(&ms->lock);
	for (plane = 0; plane < MRC_MAX_RAILS; plane++) {
		struct mrc_challenge *c;
		struct mrc_wire_probe p;
		u32 due, step;
		int path;

		if (!(ms->planes & BIT(plane)) || mrc_plane_proven(ms, plane))
			continue;
		c = &mrc_plane(ms, plane)->chal;
		/* When may the next one go: see the top of this file. */
		if (c->heard || (ms->client && c->sent &&
				 c->sent < MRC_CHALLENGE_TRIES))
			due = c->next_us;
		else if (ms->client)
			due = c->sent ? c->last_us + MRC_CHALLENGE_IDLE_US : now;
		else
			continue;	/* the server waits to hear from the rail */
		/*
		 * Times are u32 microseconds (they wrap in 71 minutes): a
		 * time due more than the longest wait ahead is one that
		 * wrapped while the plane was quiet, and is due now.
		 */
		if ((s32)(due - now) > 0 && (s32)(due - now) <= MRC_CHALLENGE_IDLE_US) {
			soonest = min_t(s32, soonest, due - now);
			continue;
		}
		path = mrc_challenge_path(ms, plane, c->sent);
		if (path < 0 || !mrc_path_rail_up(ms, plane)) {
			/* Our rail is down: nothing goes, nothing counts. */
			soonest = min_t(s32, soonest, base);
			continue;
		}
		mrc_challenge_fill(&p, c->value, ms->evs[path].ev);
		if (!mrc_output_probe(ms, MRC_PKT_PROBE, MRC_F_PROBE_CHALLENGE, &p,
				      plane, xq)) {
			/* No memory: nothing went, nothing counts. */
			soonest = min_t(s32, soonest, base);
			continue;
		}
		/* A client's retries to a silent rail span a loss burst. */
		step = ms->client && !c->heard ?
		       max_t(u32, base, MRC_CHALLENGE_RETRY_US) : base;
		c->heard = false;
		c->last_us = now;
		c->next_us = now + min_t(u32, step << min_t(u32, c->sent, 6),
					 MRC_CHALLENGE_MAX_US);
		c->sent++;
		soonest = min_t(s32, soonest, !ms->client ? S32_MAX :
				c->sent < MRC_CHALLENGE_TRIES ? c->next_us - now :
				MRC_CHALLENGE_IDLE_US);
	}
	return soonest;
}

/**
 * mrc_challenge_ack() - a PROBE_ACK with the CHALLENGE flag arrived
 * @ms: the connection (conn lock)
 * @plane: the plane it came in on (from the peer's rail there: udp.c)
 * @p: its body
 *
 * Return: MRC_DROP_NONE if it proved the peer's rail on @plane (the
 * plane opens), MRC_DROP_DUPLICATE if that rail is proven already,
 * MRC_DROP_BAD_FIELD for a value we did not send there.
 */
enum mrc_drop_reason mrc_challenge_ack(struct mrc_sock *ms, u8 plane,
				       const struct mrc_wire_probe *p)
{
	u64 value = (u64)be32_to_cpu(p->seq) << 32 | be32_to_cpu(p->stamp);
	const struct mrc_challenge *c;

	lockdep_assert_held(&ms->lock);
	if (!(ms->planes & BIT(plane)))
		return MRC_DROP_BAD_FIELD;
	c = &mrc_plane(ms, plane)->chal;
	if (mrc_plane_proven(ms, plane))
		return MRC_DROP_DUPLICATE;
	if (!c->sent || value != c->value)
		return MRC_DROP_BAD_FIELD;
	ms->prail_ok |= BIT(plane);
	return MRC_DROP_NONE;
}

/**
 * mrc_challenge_answer() - the peer challenges our rail on @plane
 * @ms: the connection (conn lock)
 * @plane: the plane it came in on, from the peer's rail there
 * @p: the PROBE's body, echoed
 * @xq: where the PROBE_ACK is queued
 *
 * One PROBE_ACK of the same size per challenge received, to the address
 * it came from (which we may not have proven ourselves yet).
 */
void mrc_challenge_answer(struct mrc_sock *ms, u8 plane,
			  const struct mrc_wire_probe *p,
			  struct sk_buff_head *xq)
{
	lockdep_assert_held(&ms->lock);
	if (!(ms->planes & BIT(plane)))
		return;
	mrc_output_probe(ms, MRC_PKT_PROBE_ACK, MRC_F_PROBE_CHALLENGE, p, plane, xq);
}
