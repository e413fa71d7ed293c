// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_rxwin - the receiver's window (core/rxwin.c) against a model.
 *
 * Input: an ISN (selector byte + 4 bytes, see fin_edge32()), then
 * operations, each an opcode byte and its arguments: arrivals of PSNs
 * relative to the window (near, far behind, far ahead, raw, at the edge,
 * bursts), a check whose NEW packet is then dropped (no buffer), a mark
 * without check (the implementation ignores PSNs outside the window), and
 * SACK generation.
 *
 * The model keeps PSNs as unwrapped 64-bit offsets from the ISN and
 * arrivals in a tagged ring of its own; after every operation:
 *  - every verdict is the model's: a PSN is NEW (delivered) at most once,
 *    behind cum by up to 2^31 is a duplicate, at or beyond cum + the
 *    window is ahead;
 *  - cum and high are the model's; high - cum <= MRC_WIN_PKTS; count is
 *    the number of PSNs in [cum, high) received (the credit relies on it);
 *  - the SACK is exactly the model's: base = max(cum, high - 256), a bit
 *    set for every and only the PSNs received in [base, high);
 *  - check and SACK generation do not change the window;
 *  - the SACK, put into an ACK as the kernel does (recv.c) and parsed
 *    with mrc_wire_parse(), comes back unchanged;
 *  - NEW verdicts marked == PSNs the model has received.
 */
#include "fuzz.h"
#include "core/psn.h"
#include "core/rxwin.h"
#include "core/wire.h"

/* Model ring: larger than the window, so its slots never collide in it. */
#define RING		(2 * MRC_WIN_PKTS)

struct fz {
	struct mrc_rxwin w;
	u32 isn;
	u64 cum;		/* offsets from isn */
	u64 high;
	u64 tag[RING];		/* tag[off % RING] == off + 1: off arrived */
	u64 news;		/* NEW verdicts marked */
	struct mrc_rxwin last;	/* the window at the last check_sack() */
	bool changed;		/* a PSN was marked since */
	u64 ops;
};

static struct fz f;

static u32 psn_of(u64 off)
{
	return f.isn + (u32)off;
}

FUZZ_NOCOV static bool arrived(u64 off)
{
	return off < f.cum || f.tag[off % RING] == off + 1;
}

/* The verdict the documentation promises (rxwin.h). */
static int model_verdict(u32 psn, u64 *off)
{
	s32 d = (s32)(psn - psn_of(f.cum));

	if (d < 0)
		return MRC_RX_DUP;
	if (d >= MRC_WIN_PKTS)
		return MRC_RX_AHEAD;
	*off = f.cum + d;
	return arrived(*off) ? MRC_RX_DUP : MRC_RX_NEW;
}

static void model_mark(u64 off)
{
	f.tag[off % RING] = off + 1;
	if (off + 1 > f.high)
		f.high = off + 1;
	while (arrived(f.cum))
		f.cum++;
}

FUZZ_NOCOV static void check_sack(void)
{
	u64 bits[MRC_SACK_WORDS], b, want;
	struct mrc_rxwin snap = f.w;
	struct mrc_wire_hdr h = {
		.version = MRC_WIRE_VERSION,
		.type = MRC_PKT_ACK,
		.dst_conn = cpu_to_be32(1),
		.src_conn = cpu_to_be32(2),
	};
	struct mrc_wire_ack a = { 0 };
	u8 buf[MRC_ACK_LEN];
	struct mrc_pkt pkt;
	u32 cum, base, k;
	int why;

	memset(bits, 0xa5, sizeof(bits));
	mrc_rxwin_sack(&f.w, &cum, &base, bits);
	FUZZ_CHECK(!memcmp(&snap, &f.w, sizeof(snap)), "sack changed the window");
	FUZZ_CHECK(!memcmp(&snap, &f.last, sizeof(snap)) || f.changed,
		   "op %llu: the window changed, but no PSN was marked",
		   (unsigned long long)f.ops);
	f.last = snap;
	f.changed = false;
	FUZZ_CHECK(cum == psn_of(f.cum), "sack cum %u, model %u", cum, psn_of(f.cum));
	b = f.high - f.cum > MRC_SACK_BITS ? f.high - MRC_SACK_BITS : f.cum;
	FUZZ_CHECK(base == psn_of(b), "base %u, model %u (cum %u high %u)", base,
		   psn_of(b), psn_of(f.cum), psn_of(f.high));
	for (k = 0; k < MRC_SACK_BITS; k++) {
		want = b + k < f.high && arrived(b + k);
		FUZZ_CHECK(((bits[k / 64] >> (k % 64)) & 1) == want,
			   "bit %u (psn %u) is %llu, model %llu (cum %u high %u)",
			   k, base + k, (unsigned long long)(bits[k / 64] >> (k % 64)) & 1,
			   (unsigned long long)want, psn_of(f.cum), psn_of(f.high));
	}

	/* Into an ACK as recv.c builds it, and back through the parser. */
	a.cum_psn = cpu_to_be32(cum);
	a.sack_base = cpu_to_be32(base);
	for (k = 0; k < MRC_SACK_WORDS; k++)
		a.sack[k] = cpu_to_be64(bits[k]);
	a.trig_psn = cpu_to_be32(psn_of(f.high) - 1);
	a.trig_ev = cpu_to_be16(MRC_EV_MAX);
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), &a, sizeof(a));
	why = mrc_wire_parse(buf, sizeof(buf), &pkt);
	FUZZ_CHECK(why == MRC_DROP_NONE, "our ACK dropped as %s",
		   mrc_wire_drop_reason_name(why));
	FUZZ_CHECK(be32_to_cpu(pkt.u.ack.cum_psn) == cum &&
		   be32_to_cpu(pkt.u.ack.sack_base) == base, "ACK cum/base");
	for (k = 0; k < MRC_SACK_WORDS; k++)
		FUZZ_CHECK(be64_to_cpu(pkt.u.ack.sack[k]) == bits[k], "ACK word %u", k);
}

FUZZ_NOCOV static void check_state(void)
{
	u64 off, n = 0;

	for (off = f.cum; off < f.high; off++)
		n += arrived(off);
	FUZZ_CHECK(f.w.count == n, "count %u, model %llu (cum %u high %u)",
		   f.w.count, (unsigned long long)n, psn_of(f.cum), psn_of(f.high));
	FUZZ_CHECK(f.w.cum == psn_of(f.cum), "cum %u, model %u", f.w.cum,
		   psn_of(f.cum));
	FUZZ_CHECK(f.w.high == psn_of(f.high), "high %u, model %u", f.w.high,
		   psn_of(f.high));
	FUZZ_CHECK(f.w.high - f.w.cum <= MRC_WIN_PKTS, "window %u",
		   f.w.high - f.w.cum);
}

/* A packet arrives: check it, store it (unless @drop), mark it. */
static void arrive(u32 psn, bool drop)
{
	u32 cum = f.w.cum, high = f.w.high, slot = psn % MRC_WIN_PKTS / 64;
	u64 word = f.w.bits[slot];
	int v, mv;
	u64 off = 0;

	/* (check_sack() compares the whole window after each operation) */
	v = mrc_rxwin_check(&f.w, psn);
	FUZZ_CHECK(f.w.cum == cum && f.w.high == high && f.w.bits[slot] == word,
		   "check changed the window");
	mv = model_verdict(psn, &off);
	FUZZ_CHECK(v == mv, "op %llu: psn %u (cum %u high %u): verdict %d, model %d",
		   (unsigned long long)f.ops, psn, f.w.cum, f.w.high, v, mv);
	if (v != MRC_RX_NEW || drop)
		return;
	mrc_rxwin_mark(&f.w, psn);
	model_mark(off);
	f.news++;
	f.changed = true;
}

/* Mark without a check: in the window it is an arrival, else ignored. */
static void mark_blind(u32 psn)
{
	s32 d = (s32)(psn - psn_of(f.cum));
	u64 off = f.cum + (d > 0 ? d : 0);

	if (d >= 0 && d < MRC_WIN_PKTS && !arrived(off))
		f.news++;
	mrc_rxwin_mark(&f.w, psn);
	f.changed = true;
	if (d >= 0 && d < MRC_WIN_PKTS)
		model_mark(off);
}

FUZZ_NOCOV static void check_count(void)
{
	u64 n = f.cum, off;

	for (off = f.cum; off < f.high; off++)
		n += arrived(off);
	FUZZ_CHECK(n == f.news, "%llu PSNs received, %llu NEW verdicts",
		   (unsigned long long)n, (unsigned long long)f.news);
}

int FUZZ_ENTRY(const u8 *data, size_t size)
{
	struct fuzz_in in = { data, size };
	u32 cum32, psn, n, i, stride, start;
	u8 op;

	memset(&f, 0, sizeof(f));
	f.isn = fin_edge32(&in);
	mrc_rxwin_init(&f.w, f.isn);
	f.changed = true;
	check_state();
	check_sack();

	while (fin_more(&in)) {
		f.ops++;
		op = fin_u8(&in);
		cum32 = psn_of(f.cum);
		switch (op % 12) {
		case 0:		/* near the start of the window */
			arrive(cum32 + fin_u8(&in), false);
			break;
		case 1:		/* anywhere within +-32K of cum */
			arrive(cum32 + (s16)fin_u16(&in), false);
			break;
		case 2:		/* any PSN at all */
			arrive(fin_u32(&in), false);
			break;
		case 3:		/* the first hole: cum moves */
			arrive(cum32, false);
			break;
		case 4:		/* around the newest */
			arrive(psn_of(f.high) + (s8)fin_u8(&in), false);
			break;
		case 5:		/* around the window's end */
			arrive(cum32 + MRC_WIN_PKTS - 4 + fin_u8(&in) % 8, false);
			break;
		case 6:		/* around 2^31 away, both ways */
			arrive(cum32 + 0x80000000U + (s8)fin_u8(&in), false);
			break;
		case 7:		/* checked, then dropped (no buffer) */
			arrive(cum32 + (s16)fin_u16(&in), true);
			break;
		case 8:		/* marked without a check */
			mark_blind(cum32 + (s16)fin_u16(&in));
			break;
		case 9:		/* a burst, up or down, with a stride */
			start = fin_u16(&in) % (MRC_WIN_PKTS + 64);
			n = 1 + fin_u8(&in);
			stride = fin_u8(&in);
			for (i = 0; i < n; i++) {
				psn = stride & 0x80 ?
				      cum32 + start - i * (1 + (stride & 7)) :
				      cum32 + start + i * (1 + (stride & 7));
				arrive(psn, false);
			}
			break;
		case 10:	/* fill 1..8 words from cum, last one first */
			n = 64 * (1 + fin_u8(&in) % 8);
			for (i = n; i-- > 0;)
				arrive(cum32 + i, false);
			break;
		default:
			check_sack();
			check_count();
			break;
		}
		check_state();
		check_sack();
	}
	check_count();
	return 0;
}
