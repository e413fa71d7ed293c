// SPDX-License-Identifier: GPL-2.0
/*
 * ethtool.c - "ethtool -i" and "ethtool -S" of an mrc device.
 *
 * ethtool -i: driver "mrc", version MRC_VERSION, no bus (the device is
 * virtual; its rails have their own).
 *
 * ethtool -S: one fixed layout for every mrc device, in this order:
 *   tx_packets ... rx_dropped       the device's traffic (stats.c's
 *                                   mrc_stats_fields: the names of sysfs
 *                                   mrc/ and of mrcctl's stats)
 *   drop_<reason>                   received packets dropped, per reason
 *                                   (core/wire.c's names, '-' as '_')
 *   ev_to_good ... ev_replaced      path changes of its connections
 *   plane<N>_tx_packets ...         the traffic of the rail on plane N,
 *     plane<N>_rx_dropped           N = 0..MRC_MAX_RAILS - 1; 0 if the
 *                                   plane has no rail
 * Every plane is listed, not only those that have a rail: ethtool reads
 * the count, the names and the values in separate calls, and the 6.1
 * core trusts its driver's count of the moment, not the caller's buffer;
 * a count that changed between the calls (a rail attached) would break
 * them.  A plane's counters are those of the rail now on it (a rail's
 * counters start at 0 when it is attached).
 *
 * The names and the values are produced by walking the same tables in
 * the same order.  The rail list is read under RTNL, which the ethtool
 * core holds around every one of these callbacks.
 */

#include <linux/ethtool.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/string.h>

#include "sock.h"
#include "version.h"

/* Path changes (mrc_stats_ev_read()), named as in sysfs mrc/. */
static const char * const mrc_ethtool_ev_names[] = {
	[MRC_EV_GOOD] = "ev_to_good",
	[MRC_EV_SKIP] = "ev_to_skip",
	[MRC_EV_ASSUMED_BAD] = "ev_to_bad",
	[MRC_EV_DENIED] = "ev_to_denied",
	[MRC_STATS_EV_REPLACED] = "ev_replaced",
};

static_assert(ARRAY_SIZE(mrc_ethtool_ev_names) == MRC_STATS_EV_REPLACED + 1);

#define MRC_ETHTOOL_NR_DROPS	(__MRC_DROP_MAX - 1)	/* not MRC_DROP_NONE */
#define MRC_ETHTOOL_NR_STATS						\
	(MRC_STATS_NR_FIELDS + MRC_ETHTOOL_NR_DROPS +			\
	 ARRAY_SIZE(mrc_ethtool_ev_names) +				\
	 MRC_MAX_RAILS * MRC_STATS_NR_FIELDS)

static void mrc_ethtool_get_drvinfo(struct net_device *dev,
				    struct ethtool_drvinfo *info)
{
	strscpy(info->driver, KBUILD_MODNAME, sizeof(info->driver));
	strscpy(info->version, MRC_VERSION, sizeof(info->version));
}

static int mrc_ethtool_get_sset_count(struct net_device *dev, int sset)
{
	if (sset != ETH_SS_STATS)
		return -EOPNOTSUPP;
	return MRC_ETHTOOL_NR_STATS;
}

static void mrc_ethtool_get_strings(struct net_device *dev, u32 sset, u8 *data)
{
	unsigned int i, plane;

	if (sset != ETH_SS_STATS)
		return;
	for (i = 0; i < MRC_STATS_NR_FIELDS; i++)
		ethtool_puts(&data, mrc_stats_fields[i].name);
	for (i = 1; i < __MRC_DROP_MAX; i++) {
		char *name = (char *)data;

		ethtool_sprintf(&data, "drop_%s", mrc_wire_drop_reason_name(i));
		strreplace(name, '-', '_');
	}
	for (i = 0; i < ARRAY_SIZE(mrc_ethtool_ev_names); i++)
		ethtool_puts(&data, mrc_ethtool_ev_names[i]);
	for (plane = 0; plane < MRC_MAX_RAILS; plane++)
		for (i = 0; i < MRC_STATS_NR_FIELDS; i++)
			ethtool_sprintf(&data, "plane%u_%s", plane,
					mrc_stats_fields[i].name);
}

static void mrc_ethtool_get_stats(struct net_device *dev,
				  struct ethtool_stats *stats, u64 *data)
{
	struct mrc_dev *mdev = netdev_priv(dev);
	struct mrc_stats st;
	unsigned int i, plane;
	u64 *start = data;

	ASSERT_RTNL();	/* mdev->rails[] */
	mrc_dev_get_stats(mdev, &st);
	for (i = 0; i < MRC_STATS_NR_FIELDS; i++)
		*data++ = mrc_stats_field_read(&st, i);
	for (i = 1; i < __MRC_DROP_MAX; i++)
		*data++ = st.drops[i];
	for (i = 0; i < ARRAY_SIZE(mrc_ethtool_ev_names); i++)
		*data++ = mrc_stats_ev_read(mdev, i);
	for (plane = 0; plane < MRC_MAX_RAILS; plane++) {
		struct mrc_rail *rail = rtnl_dereference(mdev->rails[plane]);

		if (rail)
			mrc_rail_get_stats(rail, &st);
		else
			memset(&st, 0, sizeof(st));
		for (i = 0; i < MRC_STATS_NR_FIELDS; i++)
			*data++ = mrc_stats_field_read(&st, i);
	}
	WARN_ON_ONCE(data - start != MRC_ETHTOOL_NR_STATS);
}

/* Installed on every mrc device (device.c). */
const struct ethtool_ops mrc_ethtool_ops = {
	.get_drvinfo = mrc_ethtool_get_drvinfo,
	.get_link = ethtool_op_get_link,
	.get_sset_count = mrc_ethtool_get_sset_count,
	.get_strings = mrc_ethtool_get_strings,
	.get_ethtool_stats = mrc_ethtool_get_stats,
};
