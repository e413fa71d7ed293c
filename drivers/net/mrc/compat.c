// SPDX-License-Identifier: GPL-2.0
/*
 * compat.c - out-of-line parts of compat.h for older kernels.
 */

#include <linux/atomic.h>
#include <linux/kernel.h>

#include "compat.h"

#ifdef MRC_NEED_EXTACK_FMT
static char mrc_extack_ring[MRC_EXTACK_SLOTS][MRC_EXTACK_LEN];
static atomic_t mrc_extack_next = ATOMIC_INIT(0);

/**
 * mrc_extack_fmt() - format an extack message into a ring slot (6.1 only)
 * @fmt: printf format
 *
 * Return: the formatted message, valid for the next MRC_EXTACK_SLOTS - 1
 * calls.
 */
const char *mrc_extack_fmt(const char *fmt, ...)
{
	unsigned int slot = (unsigned int)atomic_inc_return(&mrc_extack_next) %
			    MRC_EXTACK_SLOTS;
	char *buf = mrc_extack_ring[slot];
	va_list args;

	va_start(args, fmt);
	vsnprintf(buf, MRC_EXTACK_LEN - 1, fmt, args);
	va_end(args);
	return buf;
}
#endif
