// SPDX-License-Identifier: GPL-2.0
/*
 * End-to-end simulation of the protocol core, without a kernel: a sender
 * (mrc_txwin, mrc_rtt) sprays PSNs over K paths to a receiver (mrc_rxwin)
 * that answers every packet with an ACK built as the kernel builds it
 * (cum/base/bits from mrc_rxwin_sack, the arriving packet as trigger).
 * Every packet crosses the wire format (built, then mrc_wire_parse()).
 *
 * A path is a FIFO link each way with its own delay, serialization time
 * and loss; one path may start to black-hole everything at some time.
 * The sender runs loss detection on every ACK, the RTO when nothing else
 * happens, retransmits LOST PSNs on another path than the one they were
 * lost on, and stops using a path that keeps losing (for a while).  The
 * clock is simulated: no sleeping.
 *
 * Property, for hundreds of random configurations (reordering-heavy ones
 * included): every PSN is delivered exactly once (the receiver counts
 * MRC_RX_NEW verdicts per PSN), the sender's una reaches nxt, and all of
 * it in a bounded number of events.
 */
#include "unit.h"
#include "core/psn.h"
#include "core/rtt.h"
#include "core/rxwin.h"
#include "core/txwin.h"
#include "core/wire.h"

#define MAXP		4
#define QCAP		8192
#define MAXN		2500
#define SND_ID		0x1111
#define RCV_ID		0x2222
#define RTO_MIN_US	2000
#define RTO_MAX_US	2000000
#define RTO_INIT_US	50000
#define DOWN_LOSSES	4

struct qent {
	u64 at;
	u32 len;
	u8 buf[MRC_ACK_LEN];
};

struct queue {
	struct qent e[QCAP];
	u32 head, tail;		/* free-running */
	u64 last_at;		/* FIFO: nothing overtakes */
};

struct pathcfg {
	u32 delay_us;		/* one way, both directions */
	u32 ser_us;		/* serialization of a DATA packet */
	u32 loss_ppm;		/* DATA */
	u32 ack_loss_ppm;	/* ACK */
	u64 blackhole_at;	/* 0: never */
};

struct cfg {
	int npaths;
	u32 n;
	u32 size;
	u32 isn;
	u32 clock0;
	u32 ack_delay_max;
	bool ack_same_path;
	bool reo_adapt;		/* the adaptive reordering window */
	bool path_wait;		/* the path rule waits an RTT + window */
	int ngroups;		/* groups of paths (planes): path % ngroups */
	struct pathcfg p[MAXP];
};

struct sim {
	struct cfg c;
	u64 now;
	u64 events;
	struct queue fwd[MAXP], rev[MAXP];
	u64 link_free[MAXP];

	/* sender */
	struct mrc_txwin w;
	struct mrc_txrec rec[MRC_WIN_PKTS];
	struct mrc_txpath paths[MAXP];
	struct mrc_txgroup groups[MAXP];
	struct mrc_rtt rtt;
	u32 backoff;
	bool timer;
	u64 deadline;
	int rr;
	u32 consec_lost[MAXP];
	u64 down_until[MAXP];

	/* receiver */
	struct mrc_rxwin rxw;
	u8 delivered[MAXN];

	/* statistics */
	u64 tx_data, retx, timeouts, dups, acks_lost, data_lost;
};

static u32 now32(const struct sim *s)
{
	return s->c.clock0 + (u32)s->now;
}

static bool chance_ppm(u32 ppm)
{
	return unit_rand32() % 1000000 < ppm;
}

static bool blackholed(const struct sim *s, int p)
{
	return s->c.p[p].blackhole_at && s->now >= s->c.p[p].blackhole_at;
}

static void q_push(struct __test_metadata *_metadata, struct queue *q, u64 at,
		   const void *buf, u32 len)
{
	struct qent *e;

	ASSERT_LT(q->tail - q->head, (u32)QCAP);
	if (at < q->last_at)
		at = q->last_at;
	q->last_at = at;
	e = &q->e[q->tail++ % QCAP];
	e->at = at;
	e->len = len;
	memcpy(e->buf, buf, len);
}

/* ---- sender ---- */

static bool path_up(const struct sim *s, int p)
{
	return s->now >= s->down_until[p];
}

/* Round robin over the usable paths other than @exclude. */
static int pick_path(struct sim *s, int exclude)
{
	int i, p;

	for (i = 0; i < s->c.npaths; i++) {
		p = (s->rr + i) % s->c.npaths;
		if (p != exclude && path_up(s, p)) {
			s->rr = p + 1;
			return p;
		}
	}
	/* Nothing usable: any path but @exclude. */
	if (exclude < 0 || s->c.npaths < 2)
		return s->rr++ % s->c.npaths;
	return (exclude + 1 + unit_rand32() % (s->c.npaths - 1)) % s->c.npaths;
}

static void transmit(struct __test_metadata *_metadata, struct sim *s, u32 psn,
		     int tx, int p)
{
	u8 buf[MRC_DATA_HDR_LEN + 1];
	struct mrc_wire_hdr h = {
		.version = MRC_WIRE_VERSION,
		.type = MRC_PKT_DATA,
		.dst_conn = cpu_to_be32(RCV_ID),
		.src_conn = cpu_to_be32(SND_ID),
	};
	struct mrc_wire_data d = {
		.psn = cpu_to_be32(psn),
		.msg_id = cpu_to_be32(psn - s->c.isn),
		.msg_len = cpu_to_be32(1),
		.ev = cpu_to_be16(s->paths[p].ev),
		.tx_count = tx,
	};
	const struct pathcfg *pc = &s->c.p[p];
	u64 depart;

	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), &d, sizeof(d));
	buf[MRC_DATA_HDR_LEN] = (u8)psn;
	s->tx_data++;
	depart = (s->now > s->link_free[p] ? s->now : s->link_free[p]) + pc->ser_us;
	s->link_free[p] = depart;
	if (blackholed(s, p) || chance_ppm(pc->loss_ppm)) {
		s->data_lost++;
		return;
	}
	q_push(_metadata, &s->fwd[p], depart + pc->delay_us, buf, sizeof(buf));
}

static void arm_timer(struct sim *s, bool restart)
{
	if (!s->w.in_flight) {
		s->timer = false;
		return;
	}
	if (s->timer && !restart)
		return;
	s->timer = true;
	s->deadline = s->now + mrc_rtt_rto(&s->rtt, RTO_MIN_US, RTO_MAX_US,
					   RTO_INIT_US, s->backoff);
}

static void sender_push(struct __test_metadata *_metadata, struct sim *s)
{
	struct mrc_txwin *w = &s->w;
	u32 psn = w->una;
	int p, tx;

	/* Retransmissions first, each on another path than it was lost on. */
	while (w->lost && mrc_txwin_next_lost(w, psn, &psn)) {
		int was = w->rec[psn & (w->size - 1)].path;

		p = pick_path(s, s->c.npaths > 1 ? was : -1);
		if (s->c.npaths > 1)
			ASSERT_NE(was, p);
		tx = mrc_txwin_sent(w, s->paths, psn, p, 1, now32(s));
		ASSERT_LE(1, tx);
		s->retx++;
		transmit(_metadata, s, psn, tx, p);
		psn++;
	}
	/* New PSNs, as the window allows. */
	while (w->nxt - s->c.isn < s->c.n && mrc_txwin_room(w)) {
		p = pick_path(s, -1);
		psn = w->nxt;
		ASSERT_EQ(0, mrc_txwin_sent(w, s->paths, psn, p, 1, now32(s)));
		transmit(_metadata, s, psn, 0, p);
	}
	arm_timer(s, false);
}

static void cb_lost(void *ctx, u32 psn)
{
	struct sim *s = ctx;
	int p = s->w.rec[psn & (s->w.size - 1)].path;
	int i, up = 0;

	/* A path that keeps losing is avoided for a while (never the last). */
	if (++s->consec_lost[p] < DOWN_LOSSES || !path_up(s, p))
		return;
	for (i = 0; i < s->c.npaths; i++)
		up += path_up(s, i);
	if (up > 1)
		s->down_until[p] = s->now + 4 * (u64)mrc_rtt_rto(&s->rtt, RTO_MIN_US,
								 RTO_MAX_US, RTO_INIT_US, 0);
}

static void sender_ack(struct __test_metadata *_metadata, struct sim *s,
		       const struct qent *e)
{
	struct mrc_ack_result res;
	struct mrc_ack_info a;
	struct mrc_pkt pkt;
	u32 i, srtt, reo;

	/* As the kernel receives it: parsed, then converted to host order. */
	ASSERT_EQ(MRC_DROP_NONE, (int)mrc_wire_parse(e->buf, e->len, &pkt));
	ASSERT_EQ(MRC_PKT_ACK, pkt.type);
	ASSERT_EQ((u32)SND_ID, pkt.dst_conn);
	a.cum = be32_to_cpu(pkt.u.ack.cum_psn);
	a.base = be32_to_cpu(pkt.u.ack.sack_base);
	for (i = 0; i < MRC_SACK_WORDS; i++)
		a.bits[i] = be64_to_cpu(pkt.u.ack.sack[i]);
	a.trig_psn = be32_to_cpu(pkt.u.ack.trig_psn);
	a.trig_ev = be16_to_cpu(pkt.u.ack.trig_ev);
	a.trig_tx = pkt.u.ack.trig_tx;
	a.ack_delay_us = be32_to_cpu(pkt.u.ack.ack_delay_us);

	/* A genuine ACK is never impossible. */
	ASSERT_TRUE(mrc_txwin_ack(&s->w, s->paths, s->c.npaths, &a, now32(s),
				  NULL, NULL, &res));
	if (res.rtt_us)
		mrc_rtt_sample(&s->rtt, res.rtt_us);
	if (res.trig_path >= 0) {
		s->consec_lost[res.trig_path] = 0;
		s->down_until[res.trig_path] = 0;
	}
	if (res.acked_pkts)
		s->backoff = 0;
	srtt = s->rtt.srtt_us;
	reo = srtt / 4 > 200 ? srtt / 4 : 200;
	mrc_txwin_detect_loss(&s->w, s->paths, now32(s), srtt, reo,
			      (s->c.reo_adapt ? MRC_TXW_REO_ADAPT : 0) |
			      (s->c.path_wait ? MRC_TXW_PATH_WAIT : 0), cb_lost, s);
	sender_push(_metadata, s);
	arm_timer(s, res.acked_pkts != 0);
}

static void sender_timeout(struct __test_metadata *_metadata, struct sim *s)
{
	s->timer = false;
	s->timeouts++;
	mrc_txwin_timeout(&s->w, s->paths, cb_lost, s);
	if (s->backoff < 64)
		s->backoff++;
	sender_push(_metadata, s);
	arm_timer(s, true);
}

/* ---- receiver ---- */

static void receiver_data(struct __test_metadata *_metadata, struct sim *s,
			  const struct qent *e)
{
	u8 buf[MRC_ACK_LEN];
	struct mrc_wire_hdr h = {
		.version = MRC_WIRE_VERSION,
		.type = MRC_PKT_ACK,
		.dst_conn = cpu_to_be32(SND_ID),
		.src_conn = cpu_to_be32(RCV_ID),
	};
	struct mrc_wire_ack a = { 0 };
	u64 bits[MRC_SACK_WORDS];
	u32 psn, off, cum, base, delay, i;
	struct mrc_pkt pkt;
	u16 ev;
	int p, v;

	ASSERT_EQ(MRC_DROP_NONE, (int)mrc_wire_parse(e->buf, e->len, &pkt));
	ASSERT_EQ(MRC_PKT_DATA, pkt.type);
	ASSERT_EQ(1U, pkt.payload_len);
	psn = be32_to_cpu(pkt.u.data.psn);
	ev = be16_to_cpu(pkt.u.data.ev);
	off = psn - s->c.isn;
	ASSERT_LT(off, s->c.n);

	v = mrc_rxwin_check(&s->rxw, psn);
	ASSERT_NE(MRC_RX_AHEAD, v) {
		TH_LOG("psn %u cum %u", psn, s->rxw.cum);
	}
	if (v == MRC_RX_NEW) {
		mrc_rxwin_mark(&s->rxw, psn);
		s->delivered[off]++;
	} else {
		s->dups++;
	}

	/* The ACK, triggered by this packet. */
	mrc_rxwin_sack(&s->rxw, &cum, &base, bits);
	delay = s->c.ack_delay_max ? unit_rand32() % (s->c.ack_delay_max + 1) : 0;
	a.cum_psn = cpu_to_be32(cum);
	a.sack_base = cpu_to_be32(base);
	for (i = 0; i < MRC_SACK_WORDS; i++)
		a.sack[i] = cpu_to_be64(bits[i]);
	a.trig_psn = cpu_to_be32(psn);
	a.trig_ev = cpu_to_be16(ev);
	a.trig_tx = pkt.u.data.tx_count;
	a.rwnd_psn = cpu_to_be32(cum + MRC_WIN_PKTS);
	a.ack_delay_us = cpu_to_be32(delay);
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), &a, sizeof(a));

	/* Back on the path it came on (its EV), or any path. */
	for (p = 0; p < s->c.npaths && s->paths[p].ev != ev; p++)
		;
	ASSERT_LT(p, s->c.npaths);
	if (!s->c.ack_same_path)
		p = unit_rand32() % s->c.npaths;
	if (blackholed(s, p) || chance_ppm(s->c.p[p].ack_loss_ppm)) {
		s->acks_lost++;
		return;
	}
	q_push(_metadata, &s->rev[p], s->now + delay + s->c.p[p].delay_us, buf,
	       sizeof(buf));
}

/* ---- the simulation ---- */

static void random_cfg(struct cfg *c, int round)
{
	int i, kind = round % 5;

	memset(c, 0, sizeof(*c));
	c->reo_adapt = round % 2;
	c->path_wait = round / 2 % 2;
	c->npaths = 2 + unit_rand32() % (MAXP - 1);
	c->ngroups = 1 + unit_rand32() % c->npaths;
	c->n = 100 + unit_rand32() % (MAXN - 100);
	c->size = 1U << (1 + unit_rand32() % 11);
	c->isn = unit_rand32() % 2 ? 0xffffffffU - unit_rand32() % 4000 : unit_rand32();
	c->clock0 = unit_rand32() % 2 ? 0xffffffffU - unit_rand32() % 200000 : unit_rand32();
	c->ack_delay_max = unit_rand32() % 3 ? unit_rand32() % 100 : 0;
	c->ack_same_path = unit_rand32() % 2;
	for (i = 0; i < c->npaths; i++) {
		struct pathcfg *p = &c->p[i];
		static const u32 losses[] = { 0, 0, 1000, 10000, 50000, 200000 };

		p->delay_us = 5 + unit_rand32() % 500;
		p->ser_us = 1 + unit_rand32() % 20;
		p->loss_ppm = losses[unit_rand32() % ARRAY_SIZE(losses)];
		p->ack_loss_ppm = losses[unit_rand32() % ARRAY_SIZE(losses)];
	}
	switch (kind) {
	case 0:		/* clean: no loss at all */
		for (i = 0; i < c->npaths; i++) {
			c->p[i].loss_ppm = 0;
			c->p[i].ack_loss_ppm = 0;
		}
		break;
	case 1:		/* reordering-heavy: delays two orders of magnitude apart */
		for (i = 0; i < c->npaths; i++)
			c->p[i].delay_us = i % 2 ? 2000 + unit_rand32() % 8000 :
					   1 + unit_rand32() % 20;
		break;
	case 2:		/* a path black-holes everything at some point */
		c->p[unit_rand32() % c->npaths].blackhole_at = 1 + unit_rand32() % 20000;
		break;
	case 3:		/* reordering and a black hole */
		for (i = 0; i < c->npaths; i++)
			c->p[i].delay_us = 1 + unit_rand32() % 5000;
		c->p[0].blackhole_at = 1 + unit_rand32() % 50000;
		break;
	default:	/* whatever random_cfg drew */
		break;
	}
}

/* Returns the number of events the transfer took. */
static u64 run_transfer(struct __test_metadata *_metadata, struct sim *s, int round)
{
	u64 max_events = 400ULL * s->c.n + 100000;
	u32 i;
	int p;

	memset((u8 *)s + sizeof(s->c), 0, sizeof(*s) - sizeof(s->c));
	mrc_txwin_init(&s->w, s->c.isn, s->rec, s->c.size, s->groups);
	mrc_rxwin_init(&s->rxw, s->c.isn);
	for (p = 0; p < s->c.npaths; p++) {
		s->paths[p].ev = 0x100 + 0x123 * p;
		s->paths[p].group = s->c.ngroups ? p % s->c.ngroups : 0;
	}

	sender_push(_metadata, s);
	while (s->w.una != s->c.isn + s->c.n) {
		struct queue *q = NULL;
		u64 t = ~0ULL;
		bool is_ack = false;

		for (p = 0; p < s->c.npaths; p++) {
			if (s->fwd[p].head != s->fwd[p].tail &&
			    s->fwd[p].e[s->fwd[p].head % QCAP].at < t) {
				q = &s->fwd[p];
				t = q->e[q->head % QCAP].at;
				is_ack = false;
			}
			if (s->rev[p].head != s->rev[p].tail &&
			    s->rev[p].e[s->rev[p].head % QCAP].at < t) {
				q = &s->rev[p];
				t = q->e[q->head % QCAP].at;
				is_ack = true;
			}
		}
		/* Stuck: nothing in the network and no timer. */
		ASSERT_TRUE(q || s->timer) {
			TH_LOG("round %d: stuck at una %u nxt %u lost %u", round,
			       s->w.una, s->w.nxt, s->w.lost);
		}
		s->events++;
		ASSERT_LT(s->events, max_events) {
			TH_LOG("round %d: una %u nxt %u in flight %u lost %u",
			       round, s->w.una - s->c.isn, s->w.nxt - s->c.isn,
			       s->w.in_flight, s->w.lost);
		}
		if (s->timer && (!q || s->deadline <= t)) {
			ASSERT_LE(s->now, s->deadline);
			s->now = s->deadline;
			sender_timeout(_metadata, s);
			continue;
		}
		ASSERT_LE(s->now, t);
		s->now = t;
		if (is_ack)
			sender_ack(_metadata, s, &q->e[q->head % QCAP]);
		else
			receiver_data(_metadata, s, &q->e[q->head % QCAP]);
		q->head++;
	}

	/* Exactly once, all of it, and the scoreboard is empty. */
	for (i = 0; i < s->c.n; i++)
		ASSERT_EQ(1, s->delivered[i]) {
			TH_LOG("round %d: PSN isn + %u delivered %u times",
			       round, i, s->delivered[i]);
		}
	EXPECT_EQ(s->c.isn + s->c.n, s->rxw.cum);
	EXPECT_EQ(s->w.nxt, s->w.una);
	EXPECT_EQ(0U, s->w.in_flight);
	EXPECT_EQ(0U, s->w.in_flight_bytes);
	EXPECT_EQ(0U, s->w.lost);
	for (p = 0; p < s->c.npaths; p++)
		EXPECT_EQ(0U, s->paths[p].in_flight);
	return s->events;
}

static void run_rounds(struct __test_metadata *_metadata, int rounds, int kind)
{
	static struct sim s;
	u64 ev = 0, psns = 0, retx = 0, to = 0, dups = 0, simtime = 0;
	double worst = 0;
	int r;

	unit_seed();
	for (r = 0; r < rounds; r++) {
		random_cfg(&s.c, kind < 0 ? r : kind);
		run_transfer(_metadata, &s, r);
		if ((double)s.events / s.c.n > worst)
			worst = (double)s.events / s.c.n;
		ev += s.events;
		psns += s.c.n;
		retx += s.retx;
		to += s.timeouts;
		dups += s.dups;
		simtime += s.now;
	}
	TH_LOG("%d transfers, %llu PSNs, %llu events (worst %.1f per PSN), %llu retransmissions,",
	       rounds, (unsigned long long)psns, (unsigned long long)ev, worst,
	       (unsigned long long)retx);
	TH_LOG("%llu timeouts, %llu duplicates, %llu simulated ms",
	       (unsigned long long)to, (unsigned long long)dups,
	       (unsigned long long)simtime / 1000);
}

TEST(transfer_random_configs)
{
	run_rounds(_metadata, 250, -1);
}

TEST(transfer_reordering_heavy)
{
	run_rounds(_metadata, 60, 1);
}

TEST(transfer_black_hole)
{
	run_rounds(_metadata, 60, 3);
}

/* A fixed, readable case: two paths, one 100x slower, 10% loss each way. */
TEST(transfer_two_paths_lossy)
{
	static struct sim s;
	u64 events;

	unit_seed();
	memset(&s.c, 0, sizeof(s.c));
	s.c.npaths = 2;
	s.c.n = 2000;
	s.c.size = 256;
	s.c.isn = 0xffffff00U;
	s.c.clock0 = 0xfffff000U;
	s.c.ack_delay_max = 20;
	s.c.ack_same_path = true;
	s.c.path_wait = true;
	s.c.ngroups = 2;	/* as two planes */
	s.c.p[0] = (struct pathcfg){ .delay_us = 10, .ser_us = 2,
				     .loss_ppm = 100000, .ack_loss_ppm = 100000 };
	s.c.p[1] = (struct pathcfg){ .delay_us = 1000, .ser_us = 2,
				     .loss_ppm = 100000, .ack_loss_ppm = 100000 };
	events = run_transfer(_metadata, &s, 0);
	TH_LOG("%llu events, %llu retransmissions, %llu timeouts, %llu dups",
	       (unsigned long long)events, (unsigned long long)s.retx,
	       (unsigned long long)s.timeouts, (unsigned long long)s.dups);
}

TEST_HARNESS_MAIN
