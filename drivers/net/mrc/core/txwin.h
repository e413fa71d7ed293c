/* SPDX-License-Identifier: GPL-2.0 */
/*
 * core/txwin.h - the sender's scoreboard: what is in flight on which path,
 * what the ACKs say arrived, what is lost.
 *
 * Every PSN in [una, nxt) has a record in a ring the caller allocates
 * (a power-of-two number of entries, at most MRC_WIN_PKTS).  A record
 * remembers the last transmission of its PSN: the path (an index into the
 * caller's path table), that path's transmission sequence number, the
 * time, and the state.
 *
 * Loss is detected per path, because spraying makes PSN gaps normal, and
 * by time, as RACK does (RFC 8985).  A transmission is lost when a later
 * transmission on the same path has been acknowledged (a path delivers
 * in order), once it has been out for longer than an RTT plus a
 * reordering window (MRC_TXW_PATH_WAIT; a host that hands two packets of
 * one path to two CPUs reorders them); or when it has been out that long
 * and is older by more than the window than the newest delivered
 * transmission of its group of paths.  Groups are the caller's (mrc's
 * planes): a deeper queue on one plane must not make another plane's
 * packets look late.  A group that delivered before but nothing for as
 * long (a plane that died silently) is judged by the newest delivery of
 * any group instead.  The window adapts
 * as RACK's (RFC 8985, 6.2.4): a PSN declared lost that arrives after
 * all, or an ACK triggered by an earlier transmission than the last,
 * shows the window was too short, and the next one is the caller's times
 * one more (at most MRC_REO_MULT_MAX; once a round, a round ending when
 * what was sent by its start is acknowledged, and only after losses were
 * declared; not bounded by the RTT as RACK's is: under TCG a vCPU's
 * backlog delays a flow by more than an RTT, and the bound left every
 * such loss); losses declared in MRC_REO_PERSIST rounds with none found
 * spurious bring it back to the caller's.  A timeout (RTO)
 * declares everything in flight lost.  Lost PSNs are retransmitted with the
 * same PSN (tx_count + 1), usually on another path.
 *
 * Times are u32 microseconds of the caller's clock, compared with
 * wrap-safe arithmetic ((s32)(a - b)); nothing stays in flight for the 35
 * minutes it would take to confuse them.
 */
#ifndef _MRC_CORE_TXWIN_H
#define _MRC_CORE_TXWIN_H

#include "types.h"
#include "rxwin.h"
#include "wire.h"

/* Most the reordering window grows to: the caller's times this. */
#define MRC_REO_MULT_MAX	8
/* Batches of declared losses, none found spurious, that reset it. */
#define MRC_REO_PERSIST		16

enum mrc_tx_state {
	MRC_TX_FREE = 0,	/* outside [una, nxt) */
	MRC_TX_INFLIGHT,	/* sent, fate unknown */
	MRC_TX_LOST,		/* declared lost, waiting for retransmission */
	MRC_TX_ACKED,		/* delivered */
};

/**
 * struct mrc_txrec - the last transmission of one PSN (16 bytes)
 * @sent_us: when (caller's clock, microseconds)
 * @path_seq: sequence number of the transmission on its path
 * @path: index in the caller's path table
 * @tx_count: transmissions before this one (wire tx_count)
 * @state: enum mrc_tx_state
 * @len: bytes the packet carries (payload), for congestion accounting
 */
struct mrc_txrec {
	u32 sent_us;
	u32 path_seq;
	u16 path;
	u8 tx_count;
	u8 state;
	u32 len;
};

/**
 * struct mrc_txpath - what the scoreboard keeps per path (EV)
 * @ev: the entropy value; the ACK names the trigger's path by it
 * @group: the path's index in the caller's group table (constant)
 * @next_seq: sequence number of the next transmission on the path
 * @acked_seq: one past the highest sequence number known delivered
 *	(0: none yet); transmissions below it that are not acked are lost
 * @in_flight: packets in flight on the path
 * @lost: transmissions declared lost on the path (counter)
 */
struct mrc_txpath {
	u16 ev;
	u8 group;
	u32 next_seq;
	u32 acked_seq;
	u32 in_flight;
	u64 lost;
};

/**
 * struct mrc_txgroup - what the scoreboard keeps per group of paths
 * @newest_acked_us: send time of the newest transmission of the group
 *	known delivered (0 before the first: see MRC_TX_STALE_US)
 * @last_rx_us: when an ACK last showed a delivery of the group (valid
 *	once @delivered)
 * @delivered: the group delivered something; until then, it is not
 *	judged dead by its silence (a slower plane's first packets)
 *
 * The caller's table, zeroed when created, indexed by mrc_txpath.group.
 */
struct mrc_txgroup {
	u32 newest_acked_us;
	u32 last_rx_us;
	bool delivered;
};

/* mrc_txwin_detect_loss() flags */
#define MRC_TXW_REO_ADAPT	BIT(0)	/* the window is reo_us x reo_mult */
#define MRC_TXW_PATH_WAIT	BIT(1)	/* the path rule waits an RTT + window */

/**
 * struct mrc_txwin - the scoreboard of one connection
 * @una: oldest PSN not acknowledged (== @nxt when nothing is in flight)
 * @nxt: the next PSN to send for the first time
 * @size: number of records in @rec (power of two, <= MRC_WIN_PKTS)
 * @in_flight: records in state INFLIGHT
 * @in_flight_bytes: their @len, summed
 * @lost: records in state LOST
 * @newest_acked_us: send time of the newest transmission known delivered,
 *	of any group
 * @reo_mult: the reordering window is the caller's times this (1 to
 *	MRC_REO_MULT_MAX)
 * @reo_armed: losses were declared since @reo_mult last grew: spurious
 *	evidence may grow it
 * @reo_clean: rounds with declared losses since @reo_mult last grew; at
 *	MRC_REO_PERSIST it is 1 again
 * @reo_grow_seq: @reo_mult grows again once @una reaches it (the round
 *	after the last growth; @una itself between rounds)
 * @reo_loss_seq: the same for the rounds @reo_clean counts, which start
 *	when losses are declared
 * @rec: the ring, @size entries, record of psn at psn & (@size - 1)
 * @groups: the caller's group table (mrc_txwin_init())
 */
struct mrc_txwin {
	u32 una;
	u32 nxt;
	u32 size;
	u32 in_flight;
	u32 in_flight_bytes;
	u32 lost;
	u32 newest_acked_us;
	u8 reo_mult;
	bool reo_armed;
	u8 reo_clean;
	u32 reo_grow_seq;
	u32 reo_loss_seq;
	struct mrc_txrec *rec;
	struct mrc_txgroup *groups;
};

/**
 * struct mrc_ack_result - what an ACK changed
 * @acked_pkts: records newly ACKED
 * @acked_bytes: their @len summed
 * @rtt_us: RTT sample from the trigger (0: none; only when the trigger's
 *	record still describes the acknowledged transmission and no earlier
 *	ACK acknowledged it)
 * @trig_path: path index of the trigger's transmission, or -1
 * @spurious: evidence of losses declared too early: PSNs acknowledged
 *	while LOST (they arrived before their retransmission left), plus
 *	one if the trigger of an ACK (not a NACK) that covers it is an
 *	earlier transmission than the record's
 */
struct mrc_ack_result {
	u32 acked_pkts;
	u32 acked_bytes;
	u32 rtt_us;
	int trig_path;
	u32 spurious;
};

/* Callback: psn changed state (newly acked, or declared lost). */
typedef void (*mrc_txwin_cb)(void *ctx, u32 psn);

/**
 * mrc_txwin_init() - start a scoreboard
 * @w: the scoreboard
 * @isn: first PSN
 * @rec: zeroed ring of @size records
 * @size: power of two, 1..MRC_WIN_PKTS
 * @groups: the groups of paths: an entry for every mrc_txpath.group the
 *	caller's paths name, for as long as the scoreboard is used; or NULL
 *	until the caller's paths exist (set @w->groups then): nothing may be
 *	sent before
 */
void mrc_txwin_init(struct mrc_txwin *w, u32 isn, struct mrc_txrec *rec,
		    u32 size, struct mrc_txgroup *groups);

/**
 * mrc_txwin_resize() - move the records to a new ring
 * @w: the scoreboard
 * @rec: zeroed ring of @size records
 * @size: power of two, >= @w->nxt - @w->una, <= MRC_WIN_PKTS
 *
 * Return: the old ring (the caller frees it), or NULL if @size is too
 * small (nothing changed).
 */
struct mrc_txrec *mrc_txwin_resize(struct mrc_txwin *w, struct mrc_txrec *rec,
				   u32 size);

/**
 * mrc_txwin_room() - can a new PSN be sent?
 * @w: the scoreboard
 *
 * Return: true if @nxt - @una < @size.
 */
bool mrc_txwin_room(const struct mrc_txwin *w);

/**
 * mrc_txwin_sent() - record a transmission
 * @w: the scoreboard
 * @paths: the caller's path table
 * @psn: @w->nxt for a first transmission (which advances @nxt), or a LOST
 *	PSN in [una, nxt) for a retransmission
 * @path: index of the path used
 * @len: payload bytes
 * @now_us: the time; for first transmissions it never decreases (in PSN
 *	order), which mrc_txwin_detect_loss() relies on
 *
 * Return: the tx_count to put on the wire, or -1 if @psn may not be sent
 * now (not @nxt and not LOST, or no room) - a caller bug.
 */
int mrc_txwin_sent(struct mrc_txwin *w, struct mrc_txpath *paths, u32 psn,
		   u16 path, u32 len, u32 now_us);

/**
 * mrc_txwin_ack() - apply an ACK
 * @w: the scoreboard
 * @paths: the caller's path table
 * @npaths: its size
 * @a: the ACK
 * @now_us: the time
 * @acked: called for each PSN that becomes ACKED (also LOST ones: a late
 *	arrival), in no particular order
 * @ctx: for @acked
 * @res: filled with what changed
 *
 * Advances @una past acknowledged PSNs (their records become FREE),
 * updates the trigger's path (@acked_seq), its group (@newest_acked_us,
 * @last_rx_us) and @w->newest_acked_us, and so does every newly
 * acknowledged first transmission (the one that arrived is known: an ACK
 * that covers many PSNs is evidence for all their paths).
 * Spurious evidence (@res->spurious) grows @reo_mult if @reo_armed.
 *
 * Return: false if the ACK is impossible (acknowledges a PSN at or beyond
 * @nxt): the caller drops it as MRC_DROP_BAD_ACK and nothing changed.
 */
bool mrc_txwin_ack(struct mrc_txwin *w, struct mrc_txpath *paths, u32 npaths,
		   const struct mrc_ack_info *a, u32 now_us,
		   mrc_txwin_cb acked, void *ctx, struct mrc_ack_result *res);

/**
 * mrc_txwin_detect_loss() - declare lost what the evidence says is lost
 * @w: the scoreboard
 * @paths: the caller's path table
 * @now_us: the time
 * @rtt_us: current smoothed RTT (0: unknown; then only the per-path rule)
 * @reo_us: reordering window
 * @flags: MRC_TXW_REO_ADAPT: the window is @reo_us times @w->reo_mult;
 *	MRC_TXW_PATH_WAIT: the per-path rule, too, waits until a
 *	transmission has been out for @rtt_us plus the window (and the walk
 *	ends at the earliest first transmission that has not: see
 *	mrc_txwin_sent()'s @now_us)
 * @lost: called for each PSN that becomes LOST
 * @ctx: for @lost
 *
 * A batch of PSNs declared lost arms @reo_mult's growth, and counts
 * towards its reset (MRC_REO_PERSIST).
 *
 * Return: number of PSNs newly declared lost.
 */
u32 mrc_txwin_detect_loss(struct mrc_txwin *w, struct mrc_txpath *paths,
			  u32 now_us, u32 rtt_us, u32 reo_us, u32 flags,
			  mrc_txwin_cb lost, void *ctx);

/**
 * mrc_txwin_timeout() - the RTO fired: everything in flight is lost
 * @w: the scoreboard
 * @paths: the caller's path table
 * @lost: called for each PSN that becomes LOST
 * @ctx: for @lost
 *
 * Return: number of PSNs newly declared lost.
 */
u32 mrc_txwin_timeout(struct mrc_txwin *w, struct mrc_txpath *paths,
		      mrc_txwin_cb lost, void *ctx);

/**
 * mrc_txwin_lose_paths() - a set of paths failed: their packets are lost
 * @w: the scoreboard
 * @paths: the caller's path table
 * @dead: per path index, non-zero for the failed ones
 * @lost: called for each PSN that becomes LOST
 * @ctx: for @lost
 *
 * For a rail that went down: everything in flight on it is sent again
 * elsewhere at once, without waiting for evidence or a timeout.
 *
 * Return: number of PSNs newly declared lost.
 */
u32 mrc_txwin_lose_paths(struct mrc_txwin *w, struct mrc_txpath *paths,
			 const u8 *dead, mrc_txwin_cb lost, void *ctx);

/**
 * mrc_txwin_nacked() - a NACK said its trigger was not accepted
 * @w: the scoreboard (after mrc_txwin_ack() of that NACK)
 * @paths: the caller's path table
 * @npaths: entries in @paths
 * @a: the NACK
 * @lost: called if the trigger's PSN becomes LOST
 * @ctx: for @lost
 *
 * The trigger's transmission is lost if the record still describes it
 * (same tx_count, sent on a path with the same EV) and it is in flight;
 * an older or already settled transmission changes nothing.
 *
 * Return: true if the PSN was declared lost.
 */
bool mrc_txwin_nacked(struct mrc_txwin *w, struct mrc_txpath *paths,
		      u32 npaths, const struct mrc_ack_info *a,
		      mrc_txwin_cb lost, void *ctx);

/**
 * mrc_txwin_next_lost() - the oldest LOST PSN at or after @from
 * @w: the scoreboard
 * @from: where to start (PSNs before @w->una are skipped)
 * @psn: set to the PSN found
 *
 * Return: true if one was found.
 */
bool mrc_txwin_next_lost(const struct mrc_txwin *w, u32 from, u32 *psn);

#endif /* _MRC_CORE_TXWIN_H */
