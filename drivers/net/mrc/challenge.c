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
 * What an unproven address can receive from us is bounded: at most
 * MRC_CHALLENGES challenges (spaced by doubling intervals, a few seconds
 * in all), and at most MRC_CHALLENGES answers to the peer's own
 * challenges.  A plane whose rail never answers stays unused by the
 * connection.
 *
 * Everything here runs under the conn lock.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/random.h>

#include "sock.h"

/**
 * mrc_challenge_init() - which of the peer's rails the handshake proved
 * @ms: the connection, its paths just set up (conn lock, or not visible)
 *
 * The peer's rails at the address the handshake exchanged ids with are
 * proven; every other plane gets a challenge, due now.
 */
void mrc_challenge_init(struct mrc_sock *ms)
{
	u32 plane, now = mrc_now_us();

	ms->prail_ok = 0;
	for (plane = 0; plane < MRC_MAX_RAILS; plane++) {
		struct mrc_challenge *c = &ms->chal[plane];

		if (!(ms->planes & BIT(plane)))
			continue;
		if (ipv6_addr_equal(&ms->prail[plane].addr, &ms->peer.smrc_addr)) {
			ms->prail_ok |= BIT(plane);
			continue;
		}
		c->value = get_random_u64();
		c->next_us = now;
	}
}

/* The first path (EV) of @plane: challenges travel like its data. */
static int mrc_challenge_path(const struct mrc_sock *ms, u8 plane)
{
	u32 i;

	for (i = 0; i < ms->npaths; i++)
		if (ms->evs[i].plane == plane)
			return i;
	return -1;
}

static void mrc_challenge_fill(struct mrc_wire_probe *p, u64 value, u16 ev)
{
	p->seq = cpu_to_be32(upper_32_bits(value));
	p->ev = cpu_to_be16(ev);
	p->reserved = 0;
	p->stamp = cpu_to_be32(lower_32_bits(value));
}

/**
 * mrc_challenge_tick() - send the challenges that are due
 * @ms: the connection (conn lock, RCU)
 * @now: mrc_now_us()
 * @xq: where PROBEs are queued
 *
 * Return: microseconds until the next challenge is due, or S32_MAX.
 */
s32 mrc_challenge_tick(struct mrc_sock *ms, u32 now, struct sk_buff_head *xq)
{
	u32 base = max_t(u32, ms->evp.probe_timeout_us, 2 * ms->rtt.srtt_us);
	s32 soonest = S32_MAX;
	u32 plane;

	lockdep_assert_held(&ms->lock);
	for (plane = 0; plane < MRC_MAX_RAILS; plane++) {
		struct mrc_challenge *c = &ms->chal[plane];
		struct mrc_wire_probe p;
		s32 due;
		int path;

		if (!(ms->planes & BIT(plane)) || (ms->prail_ok & BIT(plane)) ||
		    c->sent >= MRC_CHALLENGES)
			continue;
		due = (s32)(c->next_us - now);
		if (due > 0) {
			soonest = min(soonest, due);
			continue;
		}
		path = mrc_challenge_path(ms, plane);
		if (path < 0)
			continue;
		mrc_challenge_fill(&p, c->value, ms->evs[path].ev);
		mrc_output_probe(ms, MRC_PKT_PROBE, MRC_F_PROBE_CHALLENGE, &p,
				 plane, xq);
		/* Doubling intervals: 8 challenges span about 5 s. */
		c->next_us = now + min_t(u32, base << c->sent, USEC_PER_SEC * 4);
		c->sent++;
		if (c->sent < MRC_CHALLENGES)
			soonest = min_t(s32, soonest, c->next_us - now);
	}
	return soonest;
}

/**
 * mrc_challenge_ack() - a PROBE_ACK with the CHALLENGE flag arrived
 * @ms: the connection (conn lock)
 * @plane: the plane it came in on (from the peer's rail there: udp.c)
 * @p: its body
 *
 * Return: true if it proved the peer's rail on @plane (the plane opens).
 */
bool mrc_challenge_ack(struct mrc_sock *ms, u8 plane,
		       const struct mrc_wire_probe *p)
{
	const struct mrc_challenge *c = &ms->chal[plane];
	u64 value = (u64)be32_to_cpu(p->seq) << 32 | be32_to_cpu(p->stamp);

	lockdep_assert_held(&ms->lock);
	if (!(ms->planes & BIT(plane)) || (ms->prail_ok & BIT(plane)) ||
	    !c->sent || value != c->value)
		return false;
	ms->prail_ok |= BIT(plane);
	return true;
}

/**
 * mrc_challenge_answer() - the peer challenges our rail on @plane
 * @ms: the connection (conn lock)
 * @plane: the plane it came in on
 * @p: the PROBE's body, echoed
 * @xq: where the PROBE_ACK is queued
 *
 * The answer goes to the peer's rail on @plane, which we may not have
 * proven yet ourselves: toward an unproven address at most MRC_CHALLENGES
 * answers ever go.
 */
void mrc_challenge_answer(struct mrc_sock *ms, u8 plane,
			  const struct mrc_wire_probe *p,
			  struct sk_buff_head *xq)
{
	struct mrc_challenge *c = &ms->chal[plane];

	lockdep_assert_held(&ms->lock);
	if (!(ms->planes & BIT(plane)))
		return;
	if (!(ms->prail_ok & BIT(plane))) {
		if (c->answered >= MRC_CHALLENGES)
			return;
		c->answered++;
	}
	mrc_output_probe(ms, MRC_PKT_PROBE_ACK, MRC_F_PROBE_CHALLENGE, p, plane, xq);
}
