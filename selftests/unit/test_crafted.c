// SPDX-License-Identifier: GPL-2.0
/*
 * The crafted packets of selftests/mrc_dissect.py (its CRAFTED table:
 * description, drop reason, UDP payload), with which mrc_dissect.sh
 * checks the Wireshark dissector's drop reasons and expert info, through
 * core/wire.c's parser: each must get exactly the table's reason.  The
 * table is the single source of those expectations; this test ties it to
 * the parser, so that the dissector cannot agree with a table that no
 * longer says what the module does.  The Makefile writes crafted.h from
 * "mrc_dissect.py crafted-hex" at build time.
 *
 * The reasons are mrc_wire_parse()'s, which needs no connection: a DATA
 * packet's ACK part and an ACK's host_delay_us are parsed as valid here
 * (and by the dissector), the connection drops them as reserved if its
 * handshake did not settle the capability (input.c, ack.c).
 */
#include <string.h>
#include "unit.h"
#include "core/wire.h"

static const struct crafted {
	const char *reason;	/* mrc_wire_drop_reason_name() of the verdict */
	const char *hex;	/* the UDP payload */
	const char *what;
} crafted[] = {
#include "crafted.h"
};

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* The drop reason named @name, or __MRC_DROP_MAX. */
static unsigned int reason_by_name(const char *name)
{
	unsigned int r;

	for (r = 0; r < __MRC_DROP_MAX; r++)
		if (!strcmp(name, mrc_wire_drop_reason_name(r)))
			return r;
	return __MRC_DROP_MAX;
}

TEST(crafted_packets_get_the_tables_drop_reason)
{
	unsigned int seen[__MRC_DROP_MAX] = {}, wrong = 0, i, r;

	for (i = 0; i < ARRAY_SIZE(crafted); i++) {
		const struct crafted *c = &crafted[i];
		size_t n = strlen(c->hex) / 2, j;
		unsigned int want = reason_by_name(c->reason);
		struct mrc_pkt pkt;
		unsigned int got;
		u8 *buf;

		ASSERT_EQ(0U, strlen(c->hex) % 2) TH_LOG("%s: odd hex", c->what);
		ASSERT_LT(want, (unsigned int)__MRC_DROP_MAX)
			TH_LOG("%s: \"%s\" is no drop reason", c->what, c->reason);
		/* exactly @n bytes: ASan catches a read past the packet */
		buf = malloc(n ? n : 1);
		ASSERT_NE(NULL, buf);
		for (j = 0; j < n; j++) {
			int hi = hexval(c->hex[2 * j]), lo = hexval(c->hex[2 * j + 1]);

			ASSERT_TRUE(hi >= 0 && lo >= 0) TH_LOG("%s: bad hex", c->what);
			buf[j] = (u8)(hi << 4 | lo);
		}
		memset(&pkt, 0, sizeof(pkt));
		got = mrc_wire_parse(buf, n, &pkt);
		free(buf);
		if (got != want) {
			TH_LOG("\"%s\" (%zu bytes): the table says %s, the parser %s",
			       c->what, n, c->reason, mrc_wire_drop_reason_name(got));
			wrong++;
		}
		seen[want]++;
	}
	EXPECT_EQ(0U, wrong);
	printf("# %zu crafted packets, %u with the parser's drop reason\n",
	       ARRAY_SIZE(crafted), (unsigned int)ARRAY_SIZE(crafted) - wrong);
	/*
	 * Every verdict the parser can give (the reasons up to bad-field:
	 * the later ones need a connection) is in the table at least once.
	 */
	for (r = MRC_DROP_NONE; r <= MRC_DROP_BAD_FIELD; r++)
		EXPECT_LT(0U, seen[r])
			TH_LOG("no crafted packet gets %s", mrc_wire_drop_reason_name(r));
}

TEST_HARNESS_MAIN
