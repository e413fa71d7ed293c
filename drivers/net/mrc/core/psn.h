/* SPDX-License-Identifier: GPL-2.0 */
/*
 * core/psn.h - packet sequence number arithmetic.
 *
 * PSNs are 32-bit and wrap.  Like TCP sequence numbers they are compared
 * with serial number arithmetic (RFC 1982): a is before b when the signed
 * distance b - a is positive.  The arithmetic is only meaningful while the
 * two numbers are less than 2^31 apart; the transport keeps its windows far
 * below that (see MRC_PSN_WINDOW_MAX).
 */
#ifndef _MRC_CORE_PSN_H
#define _MRC_CORE_PSN_H

#include "types.h"

/* Largest distance between two PSNs the transport ever compares. */
#define MRC_PSN_WINDOW_MAX	BIT(30)

/**
 * mrc_psn_diff() - signed distance from @b to @a
 * @a: a PSN
 * @b: a PSN
 *
 * Return: a - b as a signed number, positive when @a is after @b.
 */
static inline s32 mrc_psn_diff(u32 a, u32 b)
{
	return (s32)(a - b);
}

/**
 * mrc_psn_before() - is @a strictly before @b?
 * @a: a PSN
 * @b: a PSN
 *
 * Return: true if @a precedes @b in serial number order.
 */
static inline bool mrc_psn_before(u32 a, u32 b)
{
	return mrc_psn_diff(a, b) < 0;
}

/**
 * mrc_psn_after() - is @a strictly after @b?
 * @a: a PSN
 * @b: a PSN
 *
 * Return: true if @a follows @b in serial number order.
 */
static inline bool mrc_psn_after(u32 a, u32 b)
{
	return mrc_psn_diff(a, b) > 0;
}

/**
 * mrc_psn_in_window() - is @psn in [@base, @base + @size)?
 * @psn: the PSN to test
 * @base: first PSN of the window
 * @size: number of PSNs in the window
 *
 * Return: true if @psn lies within the window, wrap included.
 */
static inline bool mrc_psn_in_window(u32 psn, u32 base, u32 size)
{
	return psn - base < size;
}

/**
 * mrc_psn_max() - the later of two PSNs
 * @a: a PSN
 * @b: a PSN
 *
 * Return: whichever of @a and @b is after the other.
 */
static inline u32 mrc_psn_max(u32 a, u32 b)
{
	return mrc_psn_after(a, b) ? a : b;
}

#endif /* _MRC_CORE_PSN_H */
