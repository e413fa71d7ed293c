/* SPDX-License-Identifier: GPL-2.0 */
/*
 * unit.h - common include of the userspace unit tests: the kernel's
 * kselftest harness plus a seeded, reproducible PRNG for property tests.
 * Set MRC_SEED=N to replay a failing run; the seed is always printed.
 */
#ifndef _MRC_UNIT_H
#define _MRC_UNIT_H

#include "core/types.h"
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "kselftest_harness.h"

static u64 unit_rng_state;

/* Seed once per test from MRC_SEED or the clock, and say which. */
static inline void unit_seed(void)
{
	const char *s = getenv("MRC_SEED");

	unit_rng_state = s ? strtoull(s, NULL, 0) : (u64)time(NULL);
	printf("# seed: MRC_SEED=%llu\n", (unsigned long long)unit_rng_state);
	if (!unit_rng_state)
		unit_rng_state = 1;
}

/* xorshift64*: fast, good enough for test inputs. */
static inline u64 unit_rand64(void)
{
	unit_rng_state ^= unit_rng_state >> 12;
	unit_rng_state ^= unit_rng_state << 25;
	unit_rng_state ^= unit_rng_state >> 27;
	return unit_rng_state * 0x2545F4914F6CDD1DULL;
}

static inline u32 unit_rand32(void)
{
	return (u32)(unit_rand64() >> 32);
}

#endif /* _MRC_UNIT_H */
