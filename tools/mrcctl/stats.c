// SPDX-License-Identifier: GPL-2.0
/*
 * Counters (the stats attribute set) of a device or a rail.
 */
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
};

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
	print_nest_end();
}
