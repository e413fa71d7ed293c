/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz.h - common part of the libFuzzer targets of the protocol core: a
 * reader that turns the fuzzer's bytes into operations and their
 * arguments, and a check that explains what failed and aborts (libFuzzer
 * then saves the input as a crash file).
 *
 * The entry point's name (libFuzzer's fixed, CamelCase one) comes from
 * the Makefile as -DFUZZ_ENTRY=...
 */
#ifndef _MRC_FUZZ_H
#define _MRC_FUZZ_H

#include "core/types.h"
#include <stdio.h>
#include <stdlib.h>

int FUZZ_ENTRY(const u8 *data, size_t size);

/*
 * The heavy, exhaustive checks are left out of the coverage feedback:
 * instrumenting their loops would only slow the fuzzer down.
 */
#define FUZZ_NOCOV	__attribute__((no_sanitize("coverage")))

/* Abort with the failed condition and a message (a printf format). */
#define FUZZ_CHECK(cond, ...) do {					\
	if (!(cond)) {							\
		fprintf(stderr, "FUZZ CHECK FAILED: %s:%d: %s: ",	\
			__FILE__, __LINE__, #cond);			\
		fprintf(stderr, __VA_ARGS__);				\
		fputc('\n', stderr);					\
		abort();						\
	}								\
} while (0)

/* The input, consumed from the front; exhausted input reads as zeros. */
struct fuzz_in {
	const u8 *p;
	size_t n;
};

static inline bool fin_more(const struct fuzz_in *in)
{
	return in->n > 0;
}

static inline u8 fin_u8(struct fuzz_in *in)
{
	if (!in->n)
		return 0;
	in->n--;
	return *in->p++;
}

static inline u16 fin_u16(struct fuzz_in *in)
{
	u16 v = fin_u8(in);

	return v | (u16)fin_u8(in) << 8;
}

static inline u32 fin_u32(struct fuzz_in *in)
{
	u32 v = fin_u16(in);

	return v | (u32)fin_u16(in) << 16;
}

static inline u64 fin_u64(struct fuzz_in *in)
{
	u64 v = fin_u32(in);

	return v | (u64)fin_u32(in) << 32;
}

/*
 * A 32-bit value that is often near an interesting edge: the selector's
 * low two bits pick raw, just below 2^32, just below 2^31, or small.
 */
static inline u32 fin_edge32(struct fuzz_in *in)
{
	u8 sel = fin_u8(in);
	u32 v = fin_u32(in);

	switch (sel & 3) {
	case 0:
		return v;
	case 1:
		return 0xffffffffU - (v & 0xfff);
	case 2:
		return 0x7fffffffU - (v & 0xfff);
	default:
		return v & 0xff;
	}
}

#endif /* _MRC_FUZZ_H */
