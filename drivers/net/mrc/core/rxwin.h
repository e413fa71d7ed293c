/* SPDX-License-Identifier: GPL-2.0 */
/*
 * core/rxwin.h - the receiver's view of PSNs: which arrived, what to ACK.
 *
 * PSNs below @cum all arrived.  Bit (psn % MRC_WIN_PKTS) of @bits says
 * whether psn, for psn in [@cum, @cum + MRC_WIN_PKTS), arrived; a PSN
 * beyond that is "ahead" and must be dropped (the sender never sends
 * beyond the receiver's credit, which stays inside the window).  Spraying
 * reorders freely, so holes are normal: they fill as packets come in.
 */
#ifndef _MRC_CORE_RXWIN_H
#define _MRC_CORE_RXWIN_H

#include "types.h"
#include "wire.h"

/* Largest window of PSNs in flight / being reordered, in packets. */
#define MRC_WIN_PKTS	2048

/**
 * struct mrc_rxwin - received PSNs of one connection
 * @cum: every PSN before @cum arrived; @cum itself did not
 * @high: one past the highest PSN that arrived (@high >= @cum)
 * @count: PSNs in [@cum, @high) that arrived (the bits set)
 * @bits: arrival bitmap for [@cum, @cum + MRC_WIN_PKTS), indexed by
 *	psn % MRC_WIN_PKTS; bits of PSNs below @cum are always clear
 */
struct mrc_rxwin {
	u32 cum;
	u32 high;
	u32 count;
	u64 bits[MRC_WIN_PKTS / 64];
};

enum mrc_rx_verdict {
	MRC_RX_NEW,	/* in the window and not seen: accept it */
	MRC_RX_DUP,	/* already arrived (below @cum, or its bit is set) */
	MRC_RX_AHEAD,	/* at or beyond @cum + MRC_WIN_PKTS: drop */
};

/**
 * mrc_rxwin_init() - start a window
 * @w: the window
 * @isn: the peer's first PSN
 */
void mrc_rxwin_init(struct mrc_rxwin *w, u32 isn);

/**
 * mrc_rxwin_check() - what would arrival of @psn be?
 * @w: the window
 * @psn: an arriving PSN
 *
 * Does not change @w: the caller first stores the packet, then marks it.
 * PSNs "behind" @cum by up to 2^31 are duplicates; all others at or beyond
 * @cum + MRC_WIN_PKTS are ahead.
 *
 * Return: enum mrc_rx_verdict.
 */
enum mrc_rx_verdict mrc_rxwin_check(const struct mrc_rxwin *w, u32 psn);

/**
 * mrc_rxwin_mark() - record the arrival of a PSN checked as MRC_RX_NEW
 * @w: the window
 * @psn: the PSN
 *
 * Advances @cum over every consecutive arrived PSN and @high past @psn.
 */
void mrc_rxwin_mark(struct mrc_rxwin *w, u32 psn);

/**
 * mrc_rxwin_sack() - fill the SACK part of an ACK
 * @w: the window
 * @cum: set to @w->cum
 * @base: set to the first PSN the bitmap describes:
 *	max(@w->cum, @w->high - MRC_SACK_BITS), so the newest arrivals are
 *	always described
 * @bits: MRC_SACK_WORDS words, host order; bit j of word i is PSN
 *	@base + 64 * i + j
 */
void mrc_rxwin_sack(const struct mrc_rxwin *w, u32 *cum, u32 *base,
		    u64 bits[MRC_SACK_WORDS]);

#endif /* _MRC_CORE_RXWIN_H */
