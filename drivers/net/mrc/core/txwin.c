// SPDX-License-Identifier: GPL-2.0
/*
 * core/txwin.c - the sender's scoreboard.
 *
 * Invariants: every PSN in [una, nxt) has a record that is INFLIGHT, LOST
 * or ACKED (the one at una is never ACKED between calls); every other
 * record is FREE and zero.  w->in_flight, w->in_flight_bytes, w->lost and
 * paths[].in_flight always equal what the records say.  Every loop runs
 * over at most nxt - una records or the 256 bits of an ACK.
 */
#include "types.h"
#include "psn.h"
#include "txwin.h"

/*
 * Each newest_acked_us (the scoreboard's, a group's) and a group's
 * last_rx_us is only believed while it is at most this old: the u32 clock
 * wraps every 71 minutes, and a value that was never set (or set very
 * long ago) could otherwise look newer than every transmission.  A stale
 * one becomes "long ago" (half as old: nothing is in flight that long).
 */
#define MRC_TX_STALE_US		BIT(30)
#define MRC_TX_LONG_AGO_US	(MRC_TX_STALE_US / 2)

static struct mrc_txrec *txw_rec(const struct mrc_txwin *w, u32 psn)
{
	return &w->rec[psn & (w->size - 1)];
}

/* (s32)(a - b) as a 64-bit number, for comparisons with u32 bounds. */
static s64 txw_time_diff(u32 a, u32 b)
{
	return (s32)(a - b);
}

static bool txw_newest_valid(u32 newest_us, u32 now_us)
{
	return now_us - newest_us <= MRC_TX_STALE_US;
}

/* A stale time becomes "long ago" (MRC_TX_LONG_AGO_US before @now_us). */
static void txw_unstale(u32 *t_us, u32 now_us)
{
	if (!txw_newest_valid(*t_us, now_us))
		*t_us = now_us - (u32)MRC_TX_LONG_AGO_US;
}

/* A delivery sent at @sent_us: newer, or @newest_us was stale. */
static void txw_newest_update(u32 *newest_us, u32 sent_us, u32 now_us)
{
	if (!txw_newest_valid(*newest_us, now_us) ||
	    txw_time_diff(sent_us, *newest_us) > 0)
		*newest_us = sent_us;
}

static int txw_ctz64(u64 v)
{
	return __builtin_ctzll(v);
}

void mrc_txwin_init(struct mrc_txwin *w, u32 isn, struct mrc_txrec *rec,
		    u32 size, struct mrc_txgroup *groups)
{
	memset(w, 0, sizeof(*w));
	w->una = isn;
	w->nxt = isn;
	w->size = size;
	w->rec = rec;
	w->groups = groups;
	w->reo_mult = 1;
	w->reo_grow_seq = isn;
	w->reo_loss_seq = isn;
}

struct mrc_txrec *mrc_txwin_resize(struct mrc_txwin *w, struct mrc_txrec *rec,
				   u32 size)
{
	struct mrc_txrec *old = w->rec;
	u32 psn;

	if (!size || (size & (size - 1)) || size > MRC_WIN_PKTS ||
	    size < w->nxt - w->una)
		return NULL;
	for (psn = w->una; psn != w->nxt; psn++)
		rec[psn & (size - 1)] = *txw_rec(w, psn);
	w->rec = rec;
	w->size = size;
	return old;
}

bool mrc_txwin_room(const struct mrc_txwin *w)
{
	return w->nxt - w->una < w->size;
}

int mrc_txwin_sent(struct mrc_txwin *w, struct mrc_txpath *paths, u32 psn,
		   u16 path, u32 len, u32 now_us)
{
	struct mrc_txpath *p = &paths[path];
	struct mrc_txgroup *g = &w->groups[p->group];
	struct mrc_txrec *r;

	if (psn == w->nxt) {
		if (!mrc_txwin_room(w))
			return -1;
		r = txw_rec(w, psn);
		r->tx_count = 0;
		w->nxt++;
	} else {
		if (!mrc_psn_in_window(psn, w->una, w->nxt - w->una))
			return -1;
		r = txw_rec(w, psn);
		if (r->state != MRC_TX_LOST)
			return -1;
		if (r->tx_count < 255)
			r->tx_count++;
		w->lost--;
	}
	/*
	 * A stale time becomes a harmless "long ago" before it wraps into
	 * looking recent: older than this transmission, and than any other
	 * still in flight.  Once per 9 minutes without a delivery.
	 */
	txw_unstale(&g->newest_acked_us, now_us);
	txw_unstale(&g->last_rx_us, now_us);
	txw_unstale(&w->newest_acked_us, now_us);

	r->sent_us = now_us;
	r->path_seq = p->next_seq++;
	r->path = path;
	r->state = MRC_TX_INFLIGHT;
	r->len = len;
	w->in_flight++;
	w->in_flight_bytes += len;
	p->in_flight++;
	return r->tx_count;
}

/* Take an INFLIGHT record out of the flight counters. */
static void txw_leave_flight(struct mrc_txwin *w, struct mrc_txpath *paths,
			     struct mrc_txrec *r)
{
	w->in_flight--;
	w->in_flight_bytes -= r->len;
	paths[r->path].in_flight--;
}

static void txw_mark_lost(struct mrc_txwin *w, struct mrc_txpath *paths,
			  struct mrc_txrec *r)
{
	txw_leave_flight(w, paths, r);
	r->state = MRC_TX_LOST;
	w->lost++;
	paths[r->path].lost++;
}

/*
 * Transmission @r arrived: its path (FIFO) delivered everything sent on
 * it before, whatever its group sent well before it is late, and the
 * group is alive.
 */
static void txw_delivered(struct mrc_txwin *w, struct mrc_txpath *p,
			  const struct mrc_txrec *r, u32 now_us)
{
	struct mrc_txgroup *g = &w->groups[p->group];

	if (mrc_psn_after(r->path_seq + 1, p->acked_seq))
		p->acked_seq = r->path_seq + 1;
	txw_newest_update(&g->newest_acked_us, r->sent_us, now_us);
	txw_newest_update(&w->newest_acked_us, r->sent_us, now_us);
	g->last_rx_us = now_us;
	g->delivered = true;
}

static void txw_mark_acked(struct mrc_txwin *w, struct mrc_txpath *paths,
			   u32 psn, u32 now_us, mrc_txwin_cb acked, void *ctx,
			   struct mrc_ack_result *res)
{
	struct mrc_txrec *r = txw_rec(w, psn);

	if (r->state == MRC_TX_ACKED)
		return;
	if (r->state == MRC_TX_INFLIGHT) {
		txw_leave_flight(w, paths, r);
		/*
		 * Only a first transmission is known to be the one that
		 * arrived: an ACK covering many PSNs is evidence for each
		 * of their paths, not only the trigger's.
		 */
		if (!r->tx_count)
			txw_delivered(w, &paths[r->path], r, now_us);
	} else {
		w->lost--;	/* LOST: a late arrival */
		res->spurious++;
	}
	r->state = MRC_TX_ACKED;
	res->acked_pkts++;
	res->acked_bytes += r->len;
	if (acked)
		acked(ctx, psn);
}

enum txw_where { TXW_BEHIND, TXW_IN, TXW_BEYOND };

/* Where @psn is relative to [una, nxt): behind, in, or at/after nxt. */
static enum txw_where txw_where(const struct mrc_txwin *w, u32 psn)
{
	if (mrc_psn_in_window(psn, w->una, w->nxt - w->una))
		return TXW_IN;
	return mrc_psn_before(psn, w->una) ? TXW_BEHIND : TXW_BEYOND;
}

/* Does ACK @a say that @psn arrived (below its cum, or a SACK bit)? */
static bool txw_ack_covers(const struct mrc_ack_info *a, u32 psn)
{
	u32 k = psn - a->base;

	return mrc_psn_before(psn, a->cum) ||
	       (k < MRC_SACK_BITS && (a->bits[k / 64] >> (k % 64) & 1));
}

/* Apply the ACK's trigger: RTT sample and per-path delivery evidence. */
static void txw_trigger(struct mrc_txwin *w, struct mrc_txpath *paths,
			u32 npaths, const struct mrc_ack_info *a, u32 now_us,
			struct mrc_ack_result *res)
{
	struct mrc_txrec *r = txw_rec(w, a->trig_psn);
	struct mrc_txpath *p;
	u32 elapsed;

	/*
	 * The record describes the acknowledged transmission only if it is
	 * the same transmission: same tx_count on a path with the same EV.
	 */
	if (r->tx_count != a->trig_tx || r->path >= npaths ||
	    paths[r->path].ev != a->trig_ev) {
		/*
		 * An earlier copy arrived after this one was sent: an ACK
		 * (a NACK's trigger did not arrive) that covers the PSN.
		 * Counted while the copy is in flight only: later ACKs name
		 * the same trigger until new data arrives (window updates,
		 * delayed ACKs), and a LOST record is counted when it is
		 * acknowledged (txw_mark_acked()).
		 */
		if (a->trig_tx < r->tx_count && a->nack_reason == MRC_NACK_NONE &&
		    r->state == MRC_TX_INFLIGHT && txw_ack_covers(a, a->trig_psn))
			res->spurious++;
		return;
	}
	p = &paths[r->path];

	/*
	 * A sample only from a trigger this ACK acknowledges first (RFC
	 * 9002 5.1): a later ACK naming it (a window update, a retry)
	 * reports a hold the sample must not keep beyond max_ack_delay.
	 */
	elapsed = now_us - r->sent_us;
	if (r->state != MRC_TX_ACKED && (s32)elapsed >= 0 && elapsed >= a->ack_delay_us) {
		u32 s = elapsed - a->ack_delay_us;

		res->rtt_us = s ? s : 1;
	}
	res->trig_path = r->path;
	txw_delivered(w, p, r, now_us);
}

bool mrc_txwin_ack(struct mrc_txwin *w, struct mrc_txpath *paths, u32 npaths,
		   const struct mrc_ack_info *a, u32 now_us,
		   mrc_txwin_cb acked, void *ctx, struct mrc_ack_result *res)
{
	u32 psn, i;
	u64 v;

	memset(res, 0, sizeof(*res));
	res->trig_path = -1;

	/* Validate everything first: an impossible ACK changes nothing. */
	if (mrc_psn_after(a->cum, w->nxt) ||
	    txw_where(w, a->trig_psn) == TXW_BEYOND)
		return false;
	for (i = 0; i < MRC_SACK_WORDS; i++) {
		for (v = a->bits[i]; v; v &= v - 1) {
			psn = a->base + 64 * i + txw_ctz64(v);
			if (txw_where(w, psn) == TXW_BEYOND)
				return false;
		}
	}

	/* The trigger first, while its record exists even if acked now. */
	if (txw_where(w, a->trig_psn) == TXW_IN)
		txw_trigger(w, paths, npaths, a, now_us, res);

	for (psn = w->una; psn != w->nxt && mrc_psn_before(psn, a->cum); psn++)
		txw_mark_acked(w, paths, psn, now_us, acked, ctx, res);
	for (i = 0; i < MRC_SACK_WORDS; i++) {
		for (v = a->bits[i]; v; v &= v - 1) {
			psn = a->base + 64 * i + txw_ctz64(v);
			if (txw_where(w, psn) == TXW_IN)
				txw_mark_acked(w, paths, psn, now_us, acked, ctx, res);
		}
	}

	while (w->una != w->nxt && txw_rec(w, w->una)->state == MRC_TX_ACKED) {
		memset(txw_rec(w, w->una), 0, sizeof(struct mrc_txrec));
		w->una++;
	}
	/* Rounds that ended: their marks follow @una until the next starts. */
	if (!mrc_psn_before(w->una, w->reo_grow_seq))
		w->reo_grow_seq = w->una;
	if (!mrc_psn_before(w->una, w->reo_loss_seq))
		w->reo_loss_seq = w->una;
	/*
	 * Losses were declared too early: a longer reordering window, at
	 * most once a round (until what was sent by now is acknowledged).
	 */
	if (res->spurious && w->reo_armed && w->reo_grow_seq == w->una) {
		if (w->reo_mult < MRC_REO_MULT_MAX)
			w->reo_mult++;
		w->reo_armed = false;
		w->reo_clean = 0;
		w->reo_grow_seq = w->nxt;
	}
	return true;
}

u32 mrc_txwin_detect_loss(struct mrc_txwin *w, struct mrc_txpath *paths,
			  u32 now_us, u32 rtt_us, u32 reo_us, u32 flags,
			  mrc_txwin_cb lost, void *ctx)
{
	s64 reo = (s64)reo_us * (flags & MRC_TXW_REO_ADAPT ? w->reo_mult : 1);
	bool any = rtt_us && txw_newest_valid(w->newest_acked_us, now_us);
	bool wait = flags & MRC_TXW_PATH_WAIT;
	s64 limit = (s64)rtt_us + reo;
	const struct mrc_txgroup *g;
	struct mrc_txrec *r;
	s64 age;
	u32 psn, n = 0;

	for (psn = w->una; psn != w->nxt; psn++) {
		r = txw_rec(w, psn);
		if (r->state != MRC_TX_INFLIGHT)
			continue;
		/*
		 * Lost if a later transmission on the same (FIFO) path
		 * arrived (with MRC_TXW_PATH_WAIT: and it has been out for
		 * longer than an RTT plus a reordering window); or, with an
		 * RTT, if it has been out that long and was sent more than
		 * that window before something that arrived: of its group,
		 * or of any group if its own, which delivered before, has
		 * delivered nothing for as long.
		 */
		age = txw_time_diff(now_us, r->sent_us);
		/*
		 * Every rule waits: a first transmission not yet out that
		 * long ends the walk, since every later PSN was last sent
		 * after it (first transmissions leave in PSN order, at send
		 * times that do not decrease).  The walk covers the overdue
		 * part of the window, not all of it.
		 */
		if (wait && age <= limit && !r->tx_count)
			break;
		if (!mrc_psn_before(r->path_seq, paths[r->path].acked_seq) ||
		    (wait && age <= limit)) {
			if (!rtt_us || age <= limit)
				continue;
			g = &w->groups[paths[r->path].group];
			if (!(txw_newest_valid(g->newest_acked_us, now_us) &&
			      txw_time_diff(g->newest_acked_us, r->sent_us) > reo) &&
			    !(any && g->delivered &&
			      txw_time_diff(now_us, g->last_rx_us) > limit &&
			      txw_time_diff(w->newest_acked_us, r->sent_us) > reo))
				continue;
		}
		txw_mark_lost(w, paths, r);
		n++;
		if (lost)
			lost(ctx, psn);
	}
	/* Losses in a new round: one more towards the window's reset. */
	if (n) {
		w->reo_armed = true;
		if (w->reo_loss_seq == w->una) {
			w->reo_loss_seq = w->nxt;
			if (++w->reo_clean >= MRC_REO_PERSIST) {
				w->reo_mult = 1;
				w->reo_clean = 0;
			}
		}
	}
	return n;
}

u32 mrc_txwin_timeout(struct mrc_txwin *w, struct mrc_txpath *paths,
		      mrc_txwin_cb lost, void *ctx)
{
	struct mrc_txrec *r;
	u32 psn, n = 0;

	for (psn = w->una; psn != w->nxt; psn++) {
		r = txw_rec(w, psn);
		if (r->state != MRC_TX_INFLIGHT)
			continue;
		txw_mark_lost(w, paths, r);
		n++;
		if (lost)
			lost(ctx, psn);
	}
	return n;
}

u32 mrc_txwin_lose_paths(struct mrc_txwin *w, struct mrc_txpath *paths,
			 const u8 *dead, mrc_txwin_cb lost, void *ctx)
{
	struct mrc_txrec *r;
	u32 psn, n = 0;

	for (psn = w->una; psn != w->nxt; psn++) {
		r = txw_rec(w, psn);
		if (r->state != MRC_TX_INFLIGHT || !dead[r->path])
			continue;
		txw_mark_lost(w, paths, r);
		n++;
		if (lost)
			lost(ctx, psn);
	}
	return n;
}

bool mrc_txwin_nacked(struct mrc_txwin *w, struct mrc_txpath *paths,
		      u32 npaths, const struct mrc_ack_info *a,
		      mrc_txwin_cb lost, void *ctx)
{
	struct mrc_txrec *r;

	if (txw_where(w, a->trig_psn) != TXW_IN)
		return false;
	r = txw_rec(w, a->trig_psn);
	if (r->state != MRC_TX_INFLIGHT || r->tx_count != a->trig_tx ||
	    r->path >= npaths || paths[r->path].ev != a->trig_ev)
		return false;
	txw_mark_lost(w, paths, r);
	if (lost)
		lost(ctx, a->trig_psn);
	return true;
}

bool mrc_txwin_next_lost(const struct mrc_txwin *w, u32 from, u32 *psn)
{
	u32 p;

	switch (txw_where(w, from)) {
	case TXW_BEYOND:
		return false;
	case TXW_BEHIND:
		from = w->una;
		break;
	default:
		break;
	}
	for (p = from; p != w->nxt; p++) {
		if (txw_rec(w, p)->state == MRC_TX_LOST) {
			*psn = p;
			return true;
		}
	}
	return false;
}
