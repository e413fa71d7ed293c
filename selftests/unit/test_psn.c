// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of core/psn.h: serial number arithmetic against a model that
 * keeps PSNs as unwrapped 64-bit integers.
 */
#include "unit.h"
#include "core/psn.h"

TEST(psn_basic_order)
{
	EXPECT_TRUE(mrc_psn_before(1, 2));
	EXPECT_FALSE(mrc_psn_before(2, 2));
	EXPECT_TRUE(mrc_psn_after(2, 1));
	EXPECT_EQ(0, mrc_psn_diff(7, 7));
	EXPECT_EQ(5, mrc_psn_diff(12, 7));
	EXPECT_EQ(-5, mrc_psn_diff(7, 12));
}

TEST(psn_wraps)
{
	EXPECT_TRUE(mrc_psn_before(0xfffffffeU, 1));
	EXPECT_TRUE(mrc_psn_after(0, 0xffffffffU));
	EXPECT_EQ(3, mrc_psn_diff(1, 0xfffffffeU));
	EXPECT_EQ(2U, mrc_psn_max(0xfffffff0U, 2));
	EXPECT_TRUE(mrc_psn_in_window(2, 0xfffffff0U, 32));
	EXPECT_FALSE(mrc_psn_in_window(16, 0xfffffff0U, 32));
	EXPECT_FALSE(mrc_psn_in_window(0xffffffefU, 0xfffffff0U, 32));
}

/*
 * Property: for any two points less than 2^31 apart on the unwrapped
 * line, the 32-bit arithmetic agrees with 64-bit arithmetic.
 */
TEST(psn_matches_unwrapped_model)
{
	int i;

	unit_seed();
	for (i = 0; i < 1000000; i++) {
		u64 a = (unit_rand64() >> 8) + (1ULL << 32);
		s64 d = (s64)(unit_rand64() % (2 * (u64)MRC_PSN_WINDOW_MAX)) -
			    MRC_PSN_WINDOW_MAX;
		u64 b = a + d;
		u32 wa = (u32)a, wb = (u32)b;
		u32 size = unit_rand32() % MRC_PSN_WINDOW_MAX;

		ASSERT_EQ((s64)a - (s64)b, mrc_psn_diff(wa, wb));
		ASSERT_EQ(a < b, mrc_psn_before(wa, wb));
		ASSERT_EQ(a > b, mrc_psn_after(wa, wb));
		ASSERT_EQ((u32)(a > b ? a : b), mrc_psn_max(wa, wb));
		ASSERT_EQ(b >= a && b < a + size, mrc_psn_in_window(wb, wa, size));
	}
}

TEST_HARNESS_MAIN
