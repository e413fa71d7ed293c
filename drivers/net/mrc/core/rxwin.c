// SPDX-License-Identifier: GPL-2.0
/*
 * core/rxwin.c - the receiver's view of PSNs: which arrived, what to ACK.
 *
 * The bitmap is a ring: the bit of psn is psn % MRC_WIN_PKTS.  Only PSNs
 * in [cum, cum + MRC_WIN_PKTS) have bits, and the bits of PSNs that leave
 * the window as cum advances are cleared on the way, so a slot is always
 * clear when it is reused for psn + MRC_WIN_PKTS.
 */
#include "types.h"
#include "psn.h"
#include "rxwin.h"

#define RXW_WORDS	(MRC_WIN_PKTS / 64)
#define RXW_MASK	(MRC_WIN_PKTS - 1)

static bool rxw_test(const struct mrc_rxwin *w, u32 psn)
{
	u32 slot = psn & RXW_MASK;

	return (w->bits[slot / 64] >> (slot % 64)) & 1;
}

/* 64 bits of the ring starting at @slot (wrapping around its end). */
static u64 rxw_get64(const struct mrc_rxwin *w, u32 slot)
{
	u32 idx = (slot & RXW_MASK) / 64, sh = slot % 64;
	u64 v = w->bits[idx] >> sh;

	if (sh)
		v |= w->bits[(idx + 1) % RXW_WORDS] << (64 - sh);
	return v;
}

void mrc_rxwin_init(struct mrc_rxwin *w, u32 isn)
{
	memset(w, 0, sizeof(*w));
	w->cum = isn;
	w->high = isn;
}

enum mrc_rx_verdict mrc_rxwin_check(const struct mrc_rxwin *w, u32 psn)
{
	if (mrc_psn_before(psn, w->cum))
		return MRC_RX_DUP;
	if (!mrc_psn_in_window(psn, w->cum, MRC_WIN_PKTS))
		return MRC_RX_AHEAD;
	return rxw_test(w, psn) ? MRC_RX_DUP : MRC_RX_NEW;
}

void mrc_rxwin_mark(struct mrc_rxwin *w, u32 psn)
{
	u32 slot;

	/* Only a PSN checked as new may be marked; ignore anything else. */
	if (!mrc_psn_in_window(psn, w->cum, MRC_WIN_PKTS))
		return;
	slot = psn & RXW_MASK;
	if (!(w->bits[slot / 64] & (1ULL << (slot % 64))))
		w->count++;
	w->bits[slot / 64] |= 1ULL << (slot % 64);
	if (mrc_psn_after(psn + 1, w->high))
		w->high = psn + 1;

	/* Slide cum over the arrived prefix, clearing the bits it leaves. */
	while (rxw_test(w, w->cum)) {
		slot = w->cum & RXW_MASK;
		if (slot % 64 == 0 && w->bits[slot / 64] == ~0ULL) {
			w->bits[slot / 64] = 0;
			w->cum += 64;
			w->count -= 64;
			continue;
		}
		w->bits[slot / 64] &= ~(1ULL << (slot % 64));
		w->cum++;
		w->count--;
	}
}

void mrc_rxwin_sack(const struct mrc_rxwin *w, u32 *cum, u32 *base,
		    u64 bits[MRC_SACK_WORDS])
{
	u32 span = w->high - w->cum;	/* <= MRC_WIN_PKTS */
	u32 b, n, i;

	b = span > MRC_SACK_BITS ? w->high - MRC_SACK_BITS : w->cum;
	n = w->high - b;		/* PSNs [b, high) may have bits */
	for (i = 0; i < MRC_SACK_WORDS; i++) {
		u64 v = 0;

		if (n > 64 * i) {
			v = rxw_get64(w, b + 64 * i);
			if (n - 64 * i < 64)
				v &= (1ULL << (n - 64 * i)) - 1;
		}
		bits[i] = v;
	}
	/* The bit of cum is clear: cum has not arrived. */
	*cum = w->cum;
	*base = b;
}
