// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_txwin - the sender's scoreboard (core/txwin.c) against a model,
 * under honest and hostile ACKs.
 *
 * Input: the ring size (2^0..2^11), the number of paths (1..8), the ISN
 * and the clock's start (fin_edge32()), the paths' EVs, then operations,
 * each an opcode byte and its arguments: first transmissions (single and
 * bursts), retransmissions of LOST PSNs, sends of arbitrary PSNs, the
 * network (deliver or drop a packet in flight to a real receiver window,
 * mrc_rxwin), honest ACKs built from that receiver as the kernel builds
 * them, replays of older honest ACKs (ACKs reorder), honest ACKs with one
 * field made hostile, ACKs with every field hostile, loss detection with
 * arbitrary RTT and reordering window, timeouts, failed paths, storms of
 * timeouts and retransmissions of one PSN (tx_count saturates at 255),
 * resizes (to invalid sizes too), and the clock moving on (never so far
 * that a record in the window is older than 2^31 us, the limit txwin.h
 * sets).  Opcodes 18..35 (and alternately on) run the same operations
 * without callbacks (NULL), as a caller may.
 *
 * The model keeps PSNs as unwrapped offsets from the ISN, a shadow
 * record per PSN and the per-path counters.  Checked:
 *  - after every operation, record by record and counter by counter:
 *    states, paths, sequence numbers, times, lengths; in_flight,
 *    in_flight_bytes and lost are what the records say, per connection
 *    and per path; records outside [una, nxt) are FREE and zero; una's
 *    record is never ACKED; una never passes nxt (nxt - una <= size);
 *    a path's acked_seq never passes its next_seq;
 *  - an ACK is refused exactly when it acknowledges (cum, a SACK bit, or
 *    the trigger) a PSN at or beyond nxt; a refused ACK, a refused send
 *    and a refused resize change nothing (snapshot compare);
 *  - an honest ACK, new or replayed, is never refused;
 *  - the acked callback reports exactly the PSNs the ACK newly covers,
 *    each PSN at most once in its life; res (packets, bytes, RTT sample,
 *    trigger's path) is the model's;
 *  - the lost callback reports exactly the INFLIGHT PSNs the rules
 *    (txwin.h: per path, waiting or not, by time against the newest
 *    delivery of the path's group, timeout, failed paths) declare lost,
 *    in PSN order, and the return value counts them;
 *  - the adaptive reordering window (reo_mult, armed, clean) and each
 *    ACK's spurious evidence are the model's;
 *  - next_lost finds the model's first LOST PSN.
 */
#include "fuzz.h"
#include "core/psn.h"
#include "core/rxwin.h"
#include "core/txwin.h"

#define NPATHS_MAX	8
#define NGROUPS_MAX	3
#define SH_MAX		BIT(16)		/* PSNs a run may send */
#define NET_MAX		4096		/* packets in the network */
#define HIST		8		/* honest ACKs kept for replay */
#define AGE_MAX		0x7fffffffU	/* txwin.h: nothing is out 35 min */
#define STALE_US	BIT(30)		/* txwin.c: MRC_TX_STALE_US */

struct shadow {
	u32 sent;
	u32 path_seq;
	u32 len;
	u16 path;
	u8 tx_count;
	u8 state;
	bool acked_cb;		/* reported acked (ever) */
	bool expect;		/* the running call must report it */
	bool sel;		/* selected by the model for the running call */
};

struct mpath {
	u32 next_seq;
	u32 acked_seq;
	u64 lost;
	u16 ev;
	u8 group;
};

struct netpkt {
	u32 off;
	u16 path;
	u8 tx;
};

struct fz {
	/* under test */
	struct mrc_txwin w;
	struct mrc_txpath paths[NPATHS_MAX];
	struct mrc_txgroup groups[NGROUPS_MAX];
	struct mrc_txrec ring[2][MRC_WIN_PKTS];
	int cur;
	u32 npaths;

	/* the model */
	u32 isn;
	u64 una, nxt;		/* offsets from isn */
	u32 size;
	u32 now;
	u32 newest[NGROUPS_MAX + 1];	/* per group, then of any */
	u32 last_rx[NGROUPS_MAX];	/* per group: the last ACK of a delivery */
	bool delivered[NGROUPS_MAX];
	u8 reo_mult;		/* the adaptive reordering window */
	bool reo_armed;
	u8 reo_clean;
	u64 grow_end;		/* offsets: the growth's round ends when una */
	u64 loss_end;		/* reaches it; the counted losses' round */
	struct mpath mp[NPATHS_MAX];

	/* the running call's callbacks (none if quiet) */
	bool quiet;
	u32 ncb;
	s64 last_cb;

	/* the network and the receiver */
	struct netpkt net[NET_MAX];
	u32 nnet;
	struct mrc_rxwin rx;
	bool have_trig;
	u32 trig_psn;
	u16 trig_ev;
	u8 trig_tx;
	u32 trig_at;
	struct mrc_ack_info hist[HIST];
	u32 nhist;

	u64 ops;
	/* last member: reset up to the PSNs used only */
	struct shadow sh[SH_MAX];
};

static struct fz f;

/* What a refused operation must leave unchanged. */
static struct {
	struct mrc_txwin w;
	struct mrc_txpath paths[NPATHS_MAX];
	struct mrc_txgroup groups[NGROUPS_MAX];
	struct mrc_txrec ring[MRC_WIN_PKTS];
} snap;

static u32 psn_of(u64 off)
{
	return f.isn + (u32)off;
}

static struct mrc_txrec *rec_of(u64 off)
{
	return &f.w.rec[psn_of(off) & (f.w.size - 1)];
}

/* Where a PSN is: -1 behind una, 0 in [una, nxt) (*off set), 1 beyond. */
static int where(u32 psn, u64 *off)
{
	u32 d = psn - psn_of(f.una);

	if (d < f.nxt - f.una) {
		*off = f.una + d;
		return 0;
	}
	return (s32)d < 0 ? -1 : 1;
}

static bool newest_valid(const u32 *newest, u8 g, u32 now)
{
	return now - newest[g] <= STALE_US;
}

/* Before an operation that the model says must be refused. */
FUZZ_NOCOV static void take_snap(void)
{
	snap.w = f.w;
	memcpy(snap.paths, f.paths, sizeof(snap.paths));
	memcpy(snap.groups, f.groups, sizeof(snap.groups));
	memcpy(snap.ring, f.w.rec, f.w.size * sizeof(snap.ring[0]));
}

FUZZ_NOCOV static void check_snap(const char *what)
{
	FUZZ_CHECK(!memcmp(&snap.w, &f.w, sizeof(f.w)) &&
		   !memcmp(snap.paths, f.paths, sizeof(snap.paths)) &&
		   !memcmp(snap.groups, f.groups, sizeof(snap.groups)) &&
		   !memcmp(snap.ring, f.w.rec, f.w.size * sizeof(snap.ring[0])),
		   "op %llu: a refused %s changed the scoreboard",
		   (unsigned long long)f.ops, what);
	FUZZ_CHECK(!f.ncb, "op %llu: a refused %s called back",
		   (unsigned long long)f.ops, what);
}

FUZZ_NOCOV static void check_all(void)
{
	static const struct mrc_txrec zero;
	u32 inf = 0, bytes = 0, lost = 0, pinf[NPATHS_MAX] = { 0 }, i;
	struct mrc_txrec *r;
	struct shadow *s;
	u64 off;

	FUZZ_CHECK(f.w.una == psn_of(f.una) && f.w.nxt == psn_of(f.nxt),
		   "op %llu: una %u nxt %u, model %u %u", (unsigned long long)f.ops,
		   f.w.una, f.w.nxt, psn_of(f.una), psn_of(f.nxt));
	FUZZ_CHECK(f.w.nxt - f.w.una <= f.w.size, "una passed nxt: una %u nxt %u",
		   f.w.una, f.w.nxt);
	FUZZ_CHECK(f.w.size == f.size && f.w.rec == f.ring[f.cur], "ring");
	for (i = 0; i < NGROUPS_MAX; i++)
		FUZZ_CHECK(f.groups[i].newest_acked_us == f.newest[i] &&
			   f.groups[i].last_rx_us == f.last_rx[i] &&
			   f.groups[i].delivered == f.delivered[i],
			   "group %u newest_acked_us %u last_rx_us %u, model %u %u", i,
			   f.groups[i].newest_acked_us, f.groups[i].last_rx_us,
			   f.newest[i], f.last_rx[i]);
	FUZZ_CHECK(f.w.newest_acked_us == f.newest[NGROUPS_MAX],
		   "newest_acked_us %u, model %u", f.w.newest_acked_us,
		   f.newest[NGROUPS_MAX]);
	FUZZ_CHECK(f.w.reo_mult == f.reo_mult && f.w.reo_armed == f.reo_armed &&
		   f.w.reo_clean == f.reo_clean &&
		   f.w.reo_grow_seq == psn_of(f.una >= f.grow_end ? f.una : f.grow_end) &&
		   f.w.reo_loss_seq == psn_of(f.una >= f.loss_end ? f.una : f.loss_end),
		   "op %llu: reo mult %u armed %d clean %u, model %u %d %u",
		   (unsigned long long)f.ops, f.w.reo_mult, f.w.reo_armed, f.w.reo_clean,
		   f.reo_mult, f.reo_armed, f.reo_clean);
	FUZZ_CHECK(f.w.reo_mult >= 1 && f.w.reo_mult <= MRC_REO_MULT_MAX &&
		   f.w.reo_clean < MRC_REO_PERSIST, "reo mult %u clean %u out of range",
		   f.w.reo_mult, f.w.reo_clean);
	if (f.una != f.nxt)
		FUZZ_CHECK(rec_of(f.una)->state != MRC_TX_ACKED, "una %u is ACKED",
			   f.w.una);
	for (off = f.una; off < f.nxt; off++) {
		r = rec_of(off);
		s = &f.sh[off];
		FUZZ_CHECK(r->state == s->state && r->path == s->path &&
			   r->tx_count == s->tx_count && r->path_seq == s->path_seq &&
			   r->sent_us == s->sent && r->len == s->len,
			   "op %llu: psn %u: record state %u path %u tx %u seq %u sent %u len %u, model %u %u %u %u %u %u",
			   (unsigned long long)f.ops, psn_of(off), r->state, r->path,
			   r->tx_count, r->path_seq, r->sent_us, r->len, s->state,
			   s->path, s->tx_count, s->path_seq, s->sent, s->len);
		FUZZ_CHECK(r->state != MRC_TX_FREE, "psn %u FREE in [una, nxt)",
			   psn_of(off));
		if (r->state == MRC_TX_INFLIGHT) {
			inf++;
			bytes += r->len;
			pinf[r->path]++;
		} else if (r->state == MRC_TX_LOST) {
			lost++;
		}
	}
	for (i = 0; i < f.size - (f.nxt - f.una); i++) {
		r = rec_of(f.nxt + i);
		FUZZ_CHECK(!memcmp(r, &zero, sizeof(zero)),
			   "record of psn %u outside [una, nxt) not FREE and zero",
			   psn_of(f.nxt + i));
	}
	FUZZ_CHECK(f.w.in_flight == inf && f.w.in_flight_bytes == bytes &&
		   f.w.lost == lost,
		   "op %llu: in_flight %u bytes %u lost %u, records say %u %u %u",
		   (unsigned long long)f.ops, f.w.in_flight, f.w.in_flight_bytes,
		   f.w.lost, inf, bytes, lost);
	for (i = 0; i < f.npaths; i++) {
		struct mrc_txpath *p = &f.paths[i];

		FUZZ_CHECK(p->in_flight == pinf[i], "path %u in_flight %u, records %u",
			   i, p->in_flight, pinf[i]);
		FUZZ_CHECK(p->next_seq == f.mp[i].next_seq &&
			   p->acked_seq == f.mp[i].acked_seq &&
			   p->lost == f.mp[i].lost && p->ev == f.mp[i].ev,
			   "op %llu: path %u: next %u acked %u lost %llu, model %u %u %llu",
			   (unsigned long long)f.ops, i, p->next_seq, p->acked_seq,
			   (unsigned long long)p->lost, f.mp[i].next_seq,
			   f.mp[i].acked_seq, (unsigned long long)f.mp[i].lost);
		FUZZ_CHECK(!mrc_psn_after(p->acked_seq, p->next_seq),
			   "path %u acked_seq %u beyond next_seq %u", i, p->acked_seq,
			   p->next_seq);
	}
}

/* ---- callbacks ---- */

static struct shadow *cb_shadow(u32 psn, const char *what)
{
	u64 off = 0;

	FUZZ_CHECK(!where(psn, &off), "op %llu: %s psn %u outside [una %u, nxt %u)",
		   (unsigned long long)f.ops, what, psn, psn_of(f.una), psn_of(f.nxt));
	return &f.sh[off];
}

static void cb_acked(void *ctx, u32 psn)
{
	struct shadow *s = cb_shadow(psn, "acked");

	FUZZ_CHECK(ctx == &f, "ctx");
	FUZZ_CHECK(!s->acked_cb, "op %llu: psn %u reported acked twice",
		   (unsigned long long)f.ops, psn);
	FUZZ_CHECK(s->expect, "op %llu: psn %u reported acked: not newly covered by the ACK",
		   (unsigned long long)f.ops, psn);
	s->acked_cb = true;
	s->expect = false;
	f.ncb++;
}

static void cb_lost(void *ctx, u32 psn)
{
	struct shadow *s = cb_shadow(psn, "lost");
	s64 off = s - f.sh;

	FUZZ_CHECK(ctx == &f, "ctx");
	FUZZ_CHECK(s->expect, "op %llu: psn %u reported lost: state %u, not lost by the rules",
		   (unsigned long long)f.ops, psn, s->state);
	FUZZ_CHECK(off > f.last_cb, "op %llu: lost psn %u out of order",
		   (unsigned long long)f.ops, psn);
	f.last_cb = off;
	s->expect = false;
	f.ncb++;
}

/* Called without callbacks: what they would have been told is taken as told. */
static void quiet_done(bool acked)
{
	u64 o;

	for (o = f.una; o < f.nxt; o++) {
		if (!f.sh[o].expect)
			continue;
		f.sh[o].expect = false;
		f.sh[o].acked_cb |= acked;
		f.ncb++;
	}
}

/* ---- sending ---- */

/* Send @psn on @path; the model decides whether it may be sent. */
static void do_send(u32 psn, u16 path, u32 len)
{
	struct shadow *s = NULL;
	u64 off = 0;
	int want = -1, got;

	if (psn == psn_of(f.nxt)) {
		if (f.nxt - f.una < f.size && f.nxt < SH_MAX) {
			off = f.nxt;
			want = 0;
		} else if (f.nxt - f.una < f.size) {
			return;		/* the model is full: do not send */
		}
	} else if (!where(psn, &off) && f.sh[off].state == MRC_TX_LOST) {
		want = f.sh[off].tx_count < 255 ? f.sh[off].tx_count + 1 : 255;
	}

	f.ncb = 0;
	if (want < 0)
		take_snap();
	got = mrc_txwin_sent(&f.w, f.paths, psn, path, len, f.now);
	FUZZ_CHECK(got == want, "op %llu: send psn %u (una %u nxt %u size %u): %d, model %d",
		   (unsigned long long)f.ops, psn, psn_of(f.una), psn_of(f.nxt),
		   f.size, got, want);
	if (got < 0) {
		check_snap("send");
		return;
	}
	/* Stale times of the path's group, or of any, become "long ago". */
	if (!newest_valid(f.newest, f.mp[path].group, f.now))
		f.newest[f.mp[path].group] = f.now - (u32)(STALE_US / 2);
	if (!newest_valid(f.last_rx, f.mp[path].group, f.now))
		f.last_rx[f.mp[path].group] = f.now - (u32)(STALE_US / 2);
	if (!newest_valid(f.newest, NGROUPS_MAX, f.now))
		f.newest[NGROUPS_MAX] = f.now - (u32)(STALE_US / 2);
	if (off == f.nxt)
		f.nxt++;
	s = &f.sh[off];
	s->state = MRC_TX_INFLIGHT;
	s->tx_count = got;
	s->path = path;
	s->path_seq = f.mp[path].next_seq++;
	s->sent = f.now;
	s->len = len;
	if (f.nnet < NET_MAX)
		f.net[f.nnet++] = (struct netpkt){ off, path, got };
}

static void do_retransmit(u32 from, u16 path, u32 len)
{
	u64 off = 0, o;
	bool found, want = false;
	u32 psn = 0;
	int w = where(from, &off);

	if (w < 0)
		off = f.una;
	if (w <= 0) {
		for (o = off; o < f.nxt && !want; o++)
			if (f.sh[o].state == MRC_TX_LOST) {
				want = true;
				off = o;
			}
	}
	found = mrc_txwin_next_lost(&f.w, from, &psn);
	FUZZ_CHECK(found == want, "op %llu: next_lost from %u: %d, model %d",
		   (unsigned long long)f.ops, from, found, want);
	if (!found)
		return;
	FUZZ_CHECK(psn == psn_of(off), "next_lost from %u: %u, model %u", from,
		   psn, psn_of(off));
	do_send(psn, path, len);
}

/* ---- the network and the receiver ---- */

static void net_remove(u32 i)
{
	memmove(&f.net[i], &f.net[i + 1], (f.nnet - i - 1) * sizeof(f.net[0]));
	f.nnet--;
}

static void deliver(u32 i)
{
	struct netpkt p = f.net[i];
	u32 psn = psn_of(p.off);

	net_remove(i);
	/* As recv.c: beyond the window it is dropped, else it triggers. */
	switch (mrc_rxwin_check(&f.rx, psn)) {
	case MRC_RX_AHEAD:
		return;
	case MRC_RX_NEW:
		mrc_rxwin_mark(&f.rx, psn);
		break;
	default:
		break;
	}
	f.have_trig = true;
	f.trig_psn = psn;
	f.trig_ev = f.mp[p.path].ev;
	f.trig_tx = p.tx;
	f.trig_at = f.now;
}

/* ---- ACKs ---- */

/*
 * What an ACK field naming @psn is: in [una, nxt) (*off set), behind una,
 * beyond (at or after nxt), or exactly 2^31 from una or nxt, where serial
 * arithmetic is undefined (RFC 1982): the scoreboard may then refuse the
 * ACK or accept it, but an accepted one must not acknowledge anything by
 * that field.
 */
enum { IN, BEHIND, BEYOND, AMBIG };

static int classify(u32 psn, u64 *off)
{
	u32 d = psn - psn_of(f.una);

	if (d < f.nxt - f.una) {
		*off = f.una + d;
		return IN;
	}
	if (d == 0x80000000U || psn - psn_of(f.nxt) == 0x80000000U)
		return AMBIG;
	return (s32)d < 0 ? BEHIND : BEYOND;
}

/*
 * @s is newly acked by the running ACK: if it is a first transmission
 * still in flight, its path delivered up to it and it is the newest
 * delivered send (the scoreboard's txw_delivered()).
 */
static void newer(const struct shadow *s, u32 *newest, u8 g)
{
	if (!newest_valid(newest, g, f.now) || (s32)(s->sent - newest[g]) > 0)
		newest[g] = s->sent;
}

static void evidence(const struct shadow *s, struct mpath *mp, u32 *newest,
		     u32 *last_rx, bool *delivered)
{
	if (!s->expect || s->state != MRC_TX_INFLIGHT || s->tx_count)
		return;
	if (mrc_psn_after(s->path_seq + 1, mp[s->path].acked_seq))
		mp[s->path].acked_seq = s->path_seq + 1;
	newer(s, newest, mp[s->path].group);
	newer(s, newest, NGROUPS_MAX);
	last_rx[mp[s->path].group] = f.now;
	delivered[mp[s->path].group] = true;
}

/* Apply @a; the model predicts validity and every effect. */
/* Does @a set the SACK bit of @psn? */
static bool sack_bit(const struct mrc_ack_info *a, u32 psn)
{
	u32 k = psn - a->base;

	return k < MRC_SACK_BITS && (a->bits[k / 64] >> (k % 64) & 1);
}

static bool do_ack(const struct mrc_ack_info *a)
{
	u32 nacked = 0, bytes = 0, sample = 0, psn, i, el, dn, spur = 0;
	u32 newest[NGROUPS_MAX + 1], last_rx[NGROUPS_MAX];
	bool delivered[NGROUPS_MAX];
	int trig_path = -1, c, ct;
	s32 dc = (s32)(a->cum - psn_of(f.una));
	bool refuse = false, ambig = false, ok;
	struct mpath mp[NPATHS_MAX];
	struct mrc_ack_result res;
	struct shadow *s;
	u64 off = 0, o;
	u64 v;

	/* Refused when it acknowledges something at or beyond nxt. */
	dn = a->cum - psn_of(f.nxt);
	if (dn == 0x80000000U) {
		ambig = true;
		dc = 0;			/* if accepted: covers nothing */
	} else if ((s32)dn > 0) {
		refuse = true;
	}
	ct = classify(a->trig_psn, &off);
	refuse |= ct == BEYOND;
	ambig |= ct == AMBIG;
	for (i = 0; i < MRC_SACK_BITS; i++) {
		if ((a->bits[i / 64] >> (i % 64)) & 1) {
			c = classify(a->base + i, &off);
			refuse |= c == BEYOND;
			ambig |= c == AMBIG;
		}
	}

	/* If accepted: the trigger, same transmission (tx_count, EV)? */
	memcpy(mp, f.mp, sizeof(mp));
	memcpy(newest, f.newest, sizeof(newest));
	memcpy(last_rx, f.last_rx, sizeof(last_rx));
	memcpy(delivered, f.delivered, sizeof(delivered));
	if (ct == IN && !refuse) {
		classify(a->trig_psn, &off);
		s = &f.sh[off];
		if (s->tx_count == a->trig_tx && mp[s->path].ev == a->trig_ev) {
			trig_path = s->path;
			el = f.now - s->sent;
			/* (not from a trigger an earlier ACK acknowledged) */
			if (s->state != MRC_TX_ACKED && (s32)el >= 0 && el >= a->ack_delay_us)
				sample = el - a->ack_delay_us ? el - a->ack_delay_us : 1;
			if (mrc_psn_after(s->path_seq + 1, mp[s->path].acked_seq))
				mp[s->path].acked_seq = s->path_seq + 1;
			newer(s, newest, mp[s->path].group);
			newer(s, newest, NGROUPS_MAX);
			last_rx[mp[s->path].group] = f.now;
			delivered[mp[s->path].group] = true;
		} else if (a->trig_tx < s->tx_count && a->nack_reason == MRC_NACK_NONE &&
			   s->state == MRC_TX_INFLIGHT &&
			   (mrc_psn_before(a->trig_psn, a->cum) ||
			    sack_bit(a, a->trig_psn))) {
			spur++;		/* an earlier copy arrived */
		}
	}
	/* If accepted: what it newly covers, below cum and SACK bits. */
	for (o = f.una; !refuse && o < f.nxt && dc > 0 && o - f.una < (u64)dc; o++)
		f.sh[o].expect = f.sh[o].state != MRC_TX_ACKED;
	for (i = 0; !refuse && i < MRC_SACK_WORDS; i++) {
		for (v = a->bits[i]; v; v &= v - 1) {
			psn = a->base + 64 * i + __builtin_ctzll(v);
			if (classify(psn, &off) == IN &&
			    f.sh[off].state != MRC_TX_ACKED)
				f.sh[off].expect = true;
		}
	}
	/*
	 * Every newly acked first transmission is evidence for its path,
	 * in the scoreboard's order: the cum range, then the SACK bits
	 * (once each: a stale newest makes the order matter).
	 */
	for (o = f.una; !refuse && o < f.nxt && dc > 0 && o - f.una < (u64)dc; o++)
		evidence(&f.sh[o], mp, newest, last_rx, delivered);
	for (i = 0; !refuse && i < MRC_SACK_WORDS; i++) {
		for (v = a->bits[i]; v; v &= v - 1) {
			psn = a->base + 64 * i + __builtin_ctzll(v);
			if (classify(psn, &off) == IN &&
			    !(dc > 0 && off - f.una < (u64)dc))
				evidence(&f.sh[off], mp, newest, last_rx, delivered);
		}
	}
	for (o = f.una; o < f.nxt; o++) {
		if (f.sh[o].expect) {
			nacked++;
			bytes += f.sh[o].len;
			spur += f.sh[o].state == MRC_TX_LOST;	/* a late arrival */
		}
	}

	f.ncb = 0;
	if (refuse || ambig)
		take_snap();
	ok = mrc_txwin_ack(&f.w, f.paths, f.npaths, a, f.now,
			   f.quiet ? NULL : cb_acked, &f, &res);
	if (ok && f.quiet)
		quiet_done(true);
	if (!ok) {
		FUZZ_CHECK(refuse || ambig,
			   "op %llu: possible ACK refused: cum %u base %u trig %u (una %u nxt %u)",
			   (unsigned long long)f.ops, a->cum, a->base, a->trig_psn,
			   psn_of(f.una), psn_of(f.nxt));
		check_snap("ACK");
		for (o = f.una; o < f.nxt; o++)
			f.sh[o].expect = false;
		return false;
	}
	FUZZ_CHECK(!refuse,
		   "op %llu: impossible ACK accepted: cum %u base %u trig %u (una %u nxt %u)",
		   (unsigned long long)f.ops, a->cum, a->base, a->trig_psn,
		   psn_of(f.una), psn_of(f.nxt));
	memcpy(f.mp, mp, sizeof(mp));
	memcpy(f.newest, newest, sizeof(newest));
	memcpy(f.last_rx, last_rx, sizeof(last_rx));
	memcpy(f.delivered, delivered, sizeof(delivered));
	FUZZ_CHECK(f.ncb == nacked && res.acked_pkts == nacked,
		   "op %llu: %u PSNs newly acked, %u reported, res says %u",
		   (unsigned long long)f.ops, nacked, f.ncb, res.acked_pkts);
	FUZZ_CHECK(res.acked_bytes == bytes, "acked_bytes %u, model %u",
		   res.acked_bytes, bytes);
	FUZZ_CHECK(res.rtt_us == sample && res.trig_path == trig_path,
		   "op %llu: rtt %u trig_path %d, model %u %d",
		   (unsigned long long)f.ops, res.rtt_us, res.trig_path, sample,
		   trig_path);
	FUZZ_CHECK(res.spurious == spur, "op %llu: spurious %u, model %u",
		   (unsigned long long)f.ops, res.spurious, spur);

	for (o = f.una; o < f.nxt; o++) {
		s = &f.sh[o];
		FUZZ_CHECK(!s->expect, "psn %u not reported acked", psn_of(o));
		if (s->acked_cb && s->state != MRC_TX_ACKED)
			s->state = MRC_TX_ACKED;
	}
	while (f.una < f.nxt && f.sh[f.una].state == MRC_TX_ACKED)
		f.sh[f.una++].state = MRC_TX_FREE;
	/* evidence grows the window once a round, after declared losses */
	if (spur && f.reo_armed && f.una >= f.grow_end) {
		if (f.reo_mult < MRC_REO_MULT_MAX)
			f.reo_mult++;
		f.reo_armed = false;
		f.reo_clean = 0;
		f.grow_end = f.nxt;
	}
	return true;
}

static void honest_ack(struct mrc_ack_info *a, u32 delay)
{
	memset(a, 0, sizeof(*a));
	mrc_rxwin_sack(&f.rx, &a->cum, &a->base, a->bits);
	a->trig_psn = f.trig_psn;
	a->trig_ev = f.trig_ev;
	a->trig_tx = f.trig_tx;
	a->ack_delay_us = delay;
}

/* A PSN near the window: near una, near nxt, or anything. */
static u32 hostile_psn(struct fuzz_in *in)
{
	u8 sel = fin_u8(in);

	switch (sel & 3) {
	case 0:
		return psn_of(f.una) + (s8)fin_u8(in);
	case 1:
		return psn_of(f.nxt) + (s8)fin_u8(in);
	case 2:
		return psn_of(f.una) + (s16)fin_u16(in);
	default:
		return fin_u32(in);
	}
}

static void hostile_ack(struct fuzz_in *in)
{
	struct mrc_ack_info a = { 0 };
	u8 sel = fin_u8(in);
	u32 i;

	a.cum = hostile_psn(in);
	a.base = hostile_psn(in);
	if (sel & 1) {
		for (i = 0; i < MRC_SACK_WORDS; i++)
			a.bits[i] = fin_u64(in);
	} else {
		for (i = sel >> 5; i > 0; i--) {
			u8 k = fin_u8(in);

			a.bits[k / 64] |= 1ULL << (k % 64);
		}
	}
	a.trig_psn = sel & 2 ? hostile_psn(in) : a.cum - 1;
	if (sel & 4) {
		a.trig_ev = fin_u16(in) & MRC_EV_MAX;
		a.trig_tx = fin_u8(in);
	} else {
		u64 off = 0;

		if (!where(a.trig_psn, &off)) {
			a.trig_ev = f.mp[f.sh[off].path].ev;
			a.trig_tx = f.sh[off].tx_count;
		}
	}
	a.ack_delay_us = sel & 8 ? fin_u32(in) : fin_u8(in);
	do_ack(&a);
}

/* An honest ACK with one field made hostile. */
static void mutated_ack(struct fuzz_in *in)
{
	struct mrc_ack_info a;
	u8 sel = fin_u8(in), k = fin_u8(in);

	if (!f.have_trig)
		return;
	honest_ack(&a, fin_u8(in));
	switch (sel % 6) {
	case 0:
		a.bits[k / 64] |= 1ULL << (k % 64);
		break;
	case 1:
		a.cum = psn_of(f.nxt) + (s8)k;
		break;
	case 2:
		a.trig_psn = psn_of(f.nxt) + (s8)k;
		break;
	case 3:
		a.base += (s8)k;
		break;
	case 4:
		a.trig_tx += k;
		a.trig_ev ^= k & 3;
		break;
	default:
		a.base = psn_of(f.nxt) - k;
		a.bits[3] |= 1ULL << 63;
		break;
	}
	do_ack(&a);
}

/* ---- loss ---- */

enum { LOSS_DETECT, LOSS_TIMEOUT, LOSS_PATHS };

static void do_loss(int kind, u32 rtt, u32 reo_us, u32 flags, const u8 *dead)
{
	s64 reo = (s64)reo_us * (flags & MRC_TXW_REO_ADAPT ? f.reo_mult : 1);
	s64 limit = (s64)rtt + reo;
	bool late, by_path, by_time;
	struct shadow *s;
	u32 n = 0, got;
	u8 g;
	u64 o;

	for (o = f.una; o < f.nxt; o++) {
		s = &f.sh[o];
		if (s->state != MRC_TX_INFLIGHT)
			continue;
		if (kind == LOSS_PATHS && !dead[s->path])
			continue;
		g = f.mp[s->path].group;
		late = (s32)(f.now - s->sent) > limit;
		by_path = mrc_psn_before(s->path_seq, f.mp[s->path].acked_seq) &&
			  (late || !(flags & MRC_TXW_PATH_WAIT));
		by_time = (rtt && late && newest_valid(f.newest, g, f.now) &&
			   (s32)(f.newest[g] - s->sent) > reo) ||
			  (rtt && late && f.delivered[g] && (s32)(f.now - f.last_rx[g]) > limit &&
			   newest_valid(f.newest, NGROUPS_MAX, f.now) &&
			   (s32)(f.newest[NGROUPS_MAX] - s->sent) > reo);
		if (kind == LOSS_DETECT && !by_path && !by_time)
			continue;
		s->expect = true;
		s->sel = true;
		n++;
	}
	f.ncb = 0;
	f.last_cb = (s64)f.una - 1;
	if (kind == LOSS_DETECT)
		got = mrc_txwin_detect_loss(&f.w, f.paths, f.now, rtt, reo_us, flags,
					    f.quiet ? NULL : cb_lost, &f);
	else if (kind == LOSS_TIMEOUT)
		got = mrc_txwin_timeout(&f.w, f.paths, f.quiet ? NULL : cb_lost, &f);
	else
		got = mrc_txwin_lose_paths(&f.w, f.paths, dead,
					   f.quiet ? NULL : cb_lost, &f);
	if (f.quiet)
		quiet_done(false);
	FUZZ_CHECK(got == n && f.ncb == n,
		   "op %llu: loss kind %d (rtt %u reo %u x %u): %u lost, %u reported, model %u",
		   (unsigned long long)f.ops, kind, rtt, reo_us,
		   flags & MRC_TXW_REO_ADAPT ? f.reo_mult : 1,
		   got, f.ncb, n);
	for (o = f.una; o < f.nxt; o++) {
		s = &f.sh[o];
		FUZZ_CHECK(!s->expect, "psn %u not reported lost", psn_of(o));
		if (s->sel) {
			s->sel = false;
			s->state = MRC_TX_LOST;
			f.mp[s->path].lost++;
		}
	}
	/* A batch of losses arms the window's growth, and counts to its reset. */
	if (kind == LOSS_DETECT && n) {
		f.reo_armed = true;
		if (f.una >= f.loss_end) {	/* losses in a new round */
			f.loss_end = f.nxt;
			if (++f.reo_clean >= MRC_REO_PERSIST) {
				f.reo_mult = 1;
				f.reo_clean = 0;
			}
		}
	}
}

/* ---- the rest ---- */

static void do_resize(u32 size)
{
	struct mrc_txrec *other = f.ring[!f.cur], *old;
	bool want = size && !(size & (size - 1)) && size <= MRC_WIN_PKTS &&
		    size >= f.nxt - f.una;

	memset(other, 0, sizeof(f.ring[0]));
	f.ncb = 0;
	if (!want)
		take_snap();
	old = mrc_txwin_resize(&f.w, other, size);
	FUZZ_CHECK(!!old == want, "op %llu: resize to %u (nxt - una %u): %p",
		   (unsigned long long)f.ops, size, (u32)(f.nxt - f.una), (void *)old);
	if (!old) {
		check_snap("resize");
		return;
	}
	FUZZ_CHECK(old == f.ring[f.cur], "resize returned another ring");
	f.cur = !f.cur;
	f.size = size;
}

/* The clock moves on, but no record in the window gets older than 2^31. */
FUZZ_NOCOV static void advance(u32 d)
{
	u32 age, oldest = 0;
	u64 o;

	for (o = f.una; o < f.nxt; o++) {
		age = f.now - f.sh[o].sent;
		if (age > oldest)
			oldest = age;
	}
	if (d > AGE_MAX - oldest)
		d = AGE_MAX - oldest;
	f.now += d;
}

int FUZZ_ENTRY(const u8 *data, size_t size)
{
	struct fuzz_in in = { data, size };
	struct mrc_ack_info a;
	u8 dead[NPATHS_MAX], op, b;
	u32 i, n, len, psn, rtt, reo;
	u16 path;

	memset(f.sh, 0, (f.nxt < SH_MAX ? f.nxt + 1 : SH_MAX) * sizeof(f.sh[0]));
	memset(&f, 0, offsetof(struct fz, sh));
	f.size = 1U << (fin_u8(&in) % 12);
	f.npaths = 1 + fin_u8(&in) % NPATHS_MAX;
	f.isn = fin_edge32(&in);
	f.now = fin_edge32(&in);
	for (i = 0; i < f.npaths; i++) {
		f.mp[i].ev = fin_u16(&in) & MRC_EV_MAX;
		f.paths[i].ev = f.mp[i].ev;
		f.mp[i].group = f.mp[i].ev % NGROUPS_MAX;
		f.paths[i].group = f.mp[i].group;
	}
	mrc_txwin_init(&f.w, f.isn, f.ring[0], f.size, f.groups);
	f.reo_mult = 1;
	mrc_rxwin_init(&f.rx, f.isn);
	check_all();

	while (fin_more(&in)) {
		f.ops++;
		op = fin_u8(&in);
		b = fin_u8(&in);
		path = b % f.npaths;
		f.quiet = op / 18 % 2;
		switch (op % 18) {
		case 0:
		case 1:		/* a first transmission */
			do_send(psn_of(f.nxt), path, fin_u16(&in));
			break;
		case 2:		/* a burst of them, round robin */
			n = 1 + fin_u8(&in) % 64;
			len = fin_u16(&in);
			for (i = 0; i < n; i++)
				do_send(psn_of(f.nxt), (path + i) % f.npaths, len);
			break;
		case 3:		/* retransmit the next LOST PSN */
			psn = psn_of(f.una) + (s8)fin_u8(&in);
			do_retransmit(psn, path, fin_u16(&in));
			break;
		case 4:		/* send any PSN (mostly refused) */
			psn = hostile_psn(&in);
			do_send(psn, path, fin_u16(&in));
			break;
		case 5:		/* a packet arrives */
			n = fin_u16(&in);
			if (f.nnet)
				deliver(n % f.nnet);
			break;
		case 6:		/* the oldest packets arrive, or those of a path */
			n = 1 + fin_u8(&in) % 64;
			for (i = 0; i < f.nnet && n;) {
				if (b & 0x80 || f.net[i].path == path) {
					deliver(i);
					n--;
				} else {
					i++;
				}
			}
			break;
		case 7:		/* a packet is lost */
			n = fin_u16(&in);
			if (f.nnet)
				net_remove(n % f.nnet);
			break;
		case 8:		/* the receiver ACKs, honestly */
			if (!f.have_trig)
				break;
			honest_ack(&a, b & 1 ? f.now - f.trig_at : b);
			f.hist[f.nhist++ % HIST] = a;
			FUZZ_CHECK(do_ack(&a), "op %llu: honest ACK refused",
				   (unsigned long long)f.ops);
			break;
		case 9:		/* an older honest ACK arrives late */
			if (!f.nhist)
				break;
			a = f.hist[(f.nhist - 1 - b % HIST) % HIST];
			if (b % HIST >= f.nhist)
				break;
			FUZZ_CHECK(do_ack(&a), "op %llu: replayed honest ACK refused",
				   (unsigned long long)f.ops);
			break;
		case 10:
			mutated_ack(&in);
			break;
		case 11:
			hostile_ack(&in);
			break;
		case 12:	/* loss detection */
			rtt = b & 1 ? 0 : b & 2 ? fin_u32(&in) : fin_u16(&in);
			reo = b & 4 ? fin_u32(&in) : fin_u16(&in);
			do_loss(LOSS_DETECT, rtt, reo,
				(b & 8 ? 0 : MRC_TXW_REO_ADAPT) |
				(b & 16 ? MRC_TXW_PATH_WAIT : 0), NULL);
			break;
		case 13:
			do_loss(LOSS_TIMEOUT, 0, 0, 0, NULL);
			break;
		case 14:	/* failed paths: bit i of b is path i */
			for (i = 0; i < NPATHS_MAX; i++)
				dead[i] = (b >> i) & 1;
			do_loss(LOSS_PATHS, 0, 0, 0, dead);
			break;
		case 15:	/* resize, to any size at all if b & 0x80 */
			do_resize(b & 0x80 ? fin_u16(&in) : 1U << (b % 12));
			break;
		case 16:	/* time passes: up to 63 us, 16 s, or 2^31 us */
			advance(b & 0x80 ? fin_u32(&in) :
				b & 0x40 ? fin_u32(&in) & 0xffffff : b & 0x3f);
			break;
		default:	/* 17: the oldest PSN lost and sent again, n times */
			n = 1 + fin_u16(&in) % 300;
			for (i = 0; i < n && f.una != f.nxt && f.nxt - f.una <= 64; i++) {
				do_loss(LOSS_TIMEOUT, 0, 0, 0, NULL);
				do_retransmit(psn_of(f.una), (path + i) % f.npaths, i);
			}
			break;
		}
		check_all();
	}
	return 0;
}
