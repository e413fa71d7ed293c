// SPDX-License-Identifier: GPL-2.0
/*
 * Counters (the stats attribute set) of a device or a rail, with the
 * received packets dropped per reason.
 */
#include <stdio.h>
#include <linux/mrc_netlink.h>

#include "mrcctl.h"
#include "nl.h"
#include "print.h"

static const struct {
	unsigned int type;
	const char *jkey;
	const char *tkey;
} stats_fields[] = {
	{ MRC_A_STATS_TX_PACKETS, "tx_packets", "tx-packets" },
	{ MRC_A_STATS_TX_BYTES, "tx_bytes", "tx-bytes" },
	{ MRC_A_STATS_RX_PACKETS, "rx_packets", "rx-packets" },
	{ MRC_A_STATS_RX_BYTES, "rx_bytes", "rx-bytes" },
	{ MRC_A_STATS_TX_DROPPED, "tx_dropped", "tx-dropped" },
	{ MRC_A_STATS_RX_DROPPED, "rx_dropped", "rx-dropped" },
};

static const enum mnl_attr_data_type stats_types[MRC_A_STATS_MAX + 1] = {
	[MRC_A_STATS_TX_PACKETS] = MNL_TYPE_U64,
	[MRC_A_STATS_TX_BYTES] = MNL_TYPE_U64,
	[MRC_A_STATS_RX_PACKETS] = MNL_TYPE_U64,
	[MRC_A_STATS_RX_BYTES] = MNL_TYPE_U64,
	[MRC_A_STATS_TX_DROPPED] = MNL_TYPE_U64,
	[MRC_A_STATS_RX_DROPPED] = MNL_TYPE_U64,
	/* multi-attr, walked in order: DROP */
};

/* the spec's drop-reason names */
static const char *const drop_names[] = {
	[MRC_DROP_REASON_NONE] = "none",
	[MRC_DROP_REASON_SHORT] = "short",
	[MRC_DROP_REASON_VERSION] = "version",
	[MRC_DROP_REASON_TYPE] = "type",
	[MRC_DROP_REASON_RESERVED] = "reserved",
	[MRC_DROP_REASON_LENGTH] = "length",
	[MRC_DROP_REASON_BAD_FIELD] = "bad-field",
	[MRC_DROP_REASON_BAD_CHECKSUM] = "bad-checksum",
	[MRC_DROP_REASON_NO_RAIL] = "no-rail",
	[MRC_DROP_REASON_NO_CONN] = "no-conn",
	[MRC_DROP_REASON_NO_LISTENER] = "no-listener",
	[MRC_DROP_REASON_BAD_SOURCE] = "bad-source",
	[MRC_DROP_REASON_STATE] = "state",
	[MRC_DROP_REASON_OUT_OF_WINDOW] = "out-of-window",
	[MRC_DROP_REASON_DUPLICATE] = "duplicate",
	[MRC_DROP_REASON_NO_BUFFER] = "no-buffer",
	[MRC_DROP_REASON_BAD_DATA] = "bad-data",
	[MRC_DROP_REASON_MSG_TOO_BIG] = "msg-too-big",
	[MRC_DROP_REASON_BACKLOG] = "backlog",
	[MRC_DROP_REASON_BAD_ACK] = "bad-ack",
	[MRC_DROP_REASON_TRIMMED] = "trimmed",
};

static const enum mnl_attr_data_type drop_types[MRC_A_DROP_MAX + 1] = {
	[MRC_A_DROP_REASON] = MNL_TYPE_U32,
	[MRC_A_DROP_PACKETS] = MNL_TYPE_U64,
};

/*
 * The drop nests of a stats nest, in the kernel's order: text "drops
 * REASON PACKETS ..." (no line if there are none), JSON "drops":
 * {"REASON": PACKETS, ...}.  A reason this version does not know is named
 * by its number.
 */
static void stats_print_drops(const struct nlattr *stats)
{
	const struct nlattr *attr;
	char buf[16];
	bool line = false;

	print_nest_begin("drops");
	mnl_attr_for_each_nested(attr, stats) {
		const struct nlattr *tb[MRC_A_DROP_MAX + 1] = {};
		const char *name;
		__u32 reason;

		if (mnl_attr_get_type(attr) != MRC_A_STATS_DROP ||
		    mnl_attr_validate(attr, MNL_TYPE_NESTED) < 0)
			continue;
		nl_parse_nested(attr, drop_types, MRC_A_DROP_MAX, tb);
		if (!tb[MRC_A_DROP_REASON] || !tb[MRC_A_DROP_PACKETS])
			continue;
		reason = mnl_attr_get_u32(tb[MRC_A_DROP_REASON]);
		if (reason < ARRAY_SIZE(drop_names) && drop_names[reason]) {
			name = drop_names[reason];
		} else {
			snprintf(buf, sizeof(buf), "%u", reason);
			name = buf;
		}
		if (!line) {
			print_line("drops");
			line = true;
		}
		print_u64(name, name, mnl_attr_get_u64(tb[MRC_A_DROP_PACKETS]));
	}
	print_nest_end();
}

void stats_print(const struct nlattr *nest)
{
	const struct nlattr *tb[MRC_A_STATS_MAX + 1] = {};
	unsigned int i;

	nl_parse_nested(nest, stats_types, MRC_A_STATS_MAX, tb);
	print_line("stats");
	print_nest_begin("stats");
	for (i = 0; i < ARRAY_SIZE(stats_fields); i++) {
		const struct nlattr *attr = tb[stats_fields[i].type];

		if (attr)
			print_u64(stats_fields[i].jkey, stats_fields[i].tkey,
				  mnl_attr_get_u64(attr));
	}
	stats_print_drops(nest);
	print_nest_end();
}
