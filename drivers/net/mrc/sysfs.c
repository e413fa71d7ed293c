// SPDX-License-Identifier: GPL-2.0
/*
 * sysfs.c - one value per file, bonding style.
 *
 *   /sys/class/net/<mrc dev>/mrc/   tunables and counters of a device
 *   /sys/class/net/<rail>/mrc_rail/ plane, states and counters of a rail
 *
 * Values come from the same functions as the netlink replies, so both
 * always agree.  Writes need CAP_NET_ADMIN in the device's namespace and
 * take RTNL (with rtnl_trylock()/restart_syscall() so a store never
 * deadlocks against an unregistration waiting for it); junk is -EINVAL.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/kernel.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/sysfs.h>

#include "sock.h"

static const char * const mrc_admin_state_names[] = {
	[MRC_ADMIN_STATE_DOWN] = "down",
	[MRC_ADMIN_STATE_UP] = "up",
};

static const char * const mrc_oper_state_names[] = {
	[MRC_OPER_STATE_UP] = "up",
	[MRC_OPER_STATE_ADMIN_DOWN] = "admin-down",
	[MRC_OPER_STATE_DEV_DOWN] = "dev-down",
	[MRC_OPER_STATE_NO_CARRIER] = "no-carrier",
};

static bool mrc_sysfs_may_write(struct net *net)
{
	return ns_capable(net->user_ns, CAP_NET_ADMIN);
}

/* ---- the device: /sys/class/net/<dev>/mrc/ -------------------------------- */

static struct mrc_dev *mrc_sysfs_dev(struct device *d)
{
	return netdev_priv(to_net_dev(d));
}

static ssize_t family_show(struct device *d, struct device_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "%d\n", mrc_params.family);
}
static DEVICE_ATTR_RO(family);

static ssize_t udp_port_show(struct device *d, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(mrc_sysfs_dev(d)->udp_port));
}

static ssize_t udp_port_store(struct device *d, struct device_attribute *attr,
			      const char *buf, size_t len)
{
	struct mrc_dev *mdev = mrc_sysfs_dev(d);
	u32 val;
	int err;

	if (!mrc_sysfs_may_write(dev_net(mdev->dev)))
		return -EPERM;
	if (kstrtou32(buf, 0, &val))
		return -EINVAL;
	if (!rtnl_trylock())
		return restart_syscall();
	err = mrc_dev_set_udp_port(mdev, val, NULL);
	if (!err)
		mrc_nl_notify_dev(mdev, MRC_CMD_DEV_CHANGE_NTF);
	rtnl_unlock();
	return err ?: len;
}
static DEVICE_ATTR_RW(udp_port);

static ssize_t max_msg_size_show(struct device *d, struct device_attribute *attr,
				 char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(mrc_sysfs_dev(d)->max_msg_size));
}

static ssize_t max_msg_size_store(struct device *d, struct device_attribute *attr,
				  const char *buf, size_t len)
{
	struct mrc_dev *mdev = mrc_sysfs_dev(d);
	u32 val;
	int err;

	if (!mrc_sysfs_may_write(dev_net(mdev->dev)))
		return -EPERM;
	if (kstrtou32(buf, 0, &val))
		return -EINVAL;
	if (!rtnl_trylock())
		return restart_syscall();
	err = mrc_dev_set_max_msg_size(mdev, val, NULL);
	if (!err)
		mrc_nl_notify_dev(mdev, MRC_CMD_DEV_CHANGE_NTF);
	rtnl_unlock();
	return err ?: len;
}
static DEVICE_ATTR_RW(max_msg_size);

static ssize_t evs_per_plane_show(struct device *d, struct device_attribute *attr,
				  char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(mrc_sysfs_dev(d)->evs_per_plane));
}

static ssize_t evs_per_plane_store(struct device *d, struct device_attribute *attr,
				   const char *buf, size_t len)
{
	struct mrc_dev *mdev = mrc_sysfs_dev(d);
	u32 val;
	int err;

	if (!mrc_sysfs_may_write(dev_net(mdev->dev)))
		return -EPERM;
	if (kstrtou32(buf, 0, &val))
		return -EINVAL;
	if (!rtnl_trylock())
		return restart_syscall();
	err = mrc_dev_set_evs_per_plane(mdev, val, NULL);
	if (!err)
		mrc_nl_notify_dev(mdev, MRC_CMD_DEV_CHANGE_NTF);
	rtnl_unlock();
	return err ?: len;
}
static DEVICE_ATTR_RW(evs_per_plane);

static ssize_t spray_show(struct device *d, struct device_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%s\n", READ_ONCE(mrc_sysfs_dev(d)->spray)->name);
}

static ssize_t spray_store(struct device *d, struct device_attribute *attr,
			   const char *buf, size_t len)
{
	struct mrc_dev *mdev = mrc_sysfs_dev(d);
	char name[16];
	int err;

	if (!mrc_sysfs_may_write(dev_net(mdev->dev)))
		return -EPERM;
	if (sscanf(buf, "%15s", name) != 1)
		return -EINVAL;
	if (!rtnl_trylock())
		return restart_syscall();
	err = mrc_dev_set_spray(mdev, name, NULL);
	if (!err)
		mrc_nl_notify_dev(mdev, MRC_CMD_DEV_CHANGE_NTF);
	rtnl_unlock();
	return err ? -EINVAL : len;
}
static DEVICE_ATTR_RW(spray);

/* Path state changes of the device's connections: ev_to_good etc. */
static ssize_t mrc_ev_trans_show(struct device *d, struct device_attribute *attr,
				 char *buf);

static struct device_attribute dev_attr_ev_to_good =
	__ATTR(ev_to_good, 0444, mrc_ev_trans_show, NULL);
static struct device_attribute dev_attr_ev_to_skip =
	__ATTR(ev_to_skip, 0444, mrc_ev_trans_show, NULL);
static struct device_attribute dev_attr_ev_to_bad =
	__ATTR(ev_to_bad, 0444, mrc_ev_trans_show, NULL);
static struct device_attribute dev_attr_ev_to_denied =
	__ATTR(ev_to_denied, 0444, mrc_ev_trans_show, NULL);
static struct device_attribute dev_attr_ev_replaced =
	__ATTR(ev_replaced, 0444, mrc_ev_trans_show, NULL);

static ssize_t mrc_ev_trans_show(struct device *d, struct device_attribute *attr,
				 char *buf)
{
	const struct device_attribute *which[] = {
		[MRC_EV_GOOD] = &dev_attr_ev_to_good,
		[MRC_EV_SKIP] = &dev_attr_ev_to_skip,
		[MRC_EV_ASSUMED_BAD] = &dev_attr_ev_to_bad,
		[MRC_EV_DENIED] = &dev_attr_ev_to_denied,
		[MRC_STATS_EV_REPLACED] = &dev_attr_ev_replaced,
	};
	struct mrc_dev *mdev = mrc_sysfs_dev(d);
	u32 i;

	for (i = 0; i < ARRAY_SIZE(which); i++)
		if (attr == which[i])
			return sysfs_emit(buf, "%llu\n",
					  mrc_stats_ev_read(mdev, i));
	return -EINVAL;
}

/* The rails in plane order, e.g. "eth1 eth2". */
static ssize_t rails_show(struct device *d, struct device_attribute *attr,
			  char *buf)
{
	struct mrc_dev *mdev = mrc_sysfs_dev(d);
	int plane, len = 0;

	rcu_read_lock();
	for (plane = 0; plane < MRC_MAX_RAILS; plane++) {
		struct mrc_rail *rail = rcu_dereference(mdev->rails[plane]);

		if (rail)
			len += sysfs_emit_at(buf, len, "%s%s", len ? " " : "",
					     rail->dev->name);
	}
	rcu_read_unlock();
	len += sysfs_emit_at(buf, len, "\n");
	return len;
}
static DEVICE_ATTR_RO(rails);

/*
 * Counters: one show function per object, the file name picks the field
 * (stats.c's mrc_stats_fields, shared by devices, rails and ethtool.c).
 */
static ssize_t mrc_stat_emit(const struct mrc_stats *st, const char *name,
			     char *buf)
{
	unsigned int i;

	for (i = 0; i < MRC_STATS_NR_FIELDS; i++)
		if (!strcmp(mrc_stats_fields[i].name, name))
			return sysfs_emit(buf, "%llu\n",
					  mrc_stats_field_read(st, i));
	return -EIO;
}

static ssize_t mrc_dev_stat_show(struct device *d, struct device_attribute *attr,
				 char *buf)
{
	struct mrc_stats st;

	mrc_dev_get_stats(mrc_sysfs_dev(d), &st);
	return mrc_stat_emit(&st, attr->attr.name, buf);
}

static struct device_attribute dev_attr_tx_packets =
	__ATTR(tx_packets, 0444, mrc_dev_stat_show, NULL);
static struct device_attribute dev_attr_tx_bytes =
	__ATTR(tx_bytes, 0444, mrc_dev_stat_show, NULL);
static struct device_attribute dev_attr_rx_packets =
	__ATTR(rx_packets, 0444, mrc_dev_stat_show, NULL);
static struct device_attribute dev_attr_rx_bytes =
	__ATTR(rx_bytes, 0444, mrc_dev_stat_show, NULL);
static struct device_attribute dev_attr_tx_dropped =
	__ATTR(tx_dropped, 0444, mrc_dev_stat_show, NULL);
static struct device_attribute dev_attr_rx_dropped =
	__ATTR(rx_dropped, 0444, mrc_dev_stat_show, NULL);

static struct attribute *mrc_dev_attrs[] = {
	&dev_attr_family.attr,
	&dev_attr_udp_port.attr,
	&dev_attr_max_msg_size.attr,
	&dev_attr_evs_per_plane.attr,
	&dev_attr_spray.attr,
	&dev_attr_ev_to_good.attr,
	&dev_attr_ev_to_skip.attr,
	&dev_attr_ev_to_bad.attr,
	&dev_attr_ev_to_denied.attr,
	&dev_attr_ev_replaced.attr,
	&dev_attr_rails.attr,
	&dev_attr_tx_packets.attr,
	&dev_attr_tx_bytes.attr,
	&dev_attr_rx_packets.attr,
	&dev_attr_rx_bytes.attr,
	&dev_attr_tx_dropped.attr,
	&dev_attr_rx_dropped.attr,
	NULL,
};

const struct attribute_group mrc_dev_sysfs_group = {
	.name = "mrc",
	.attrs = mrc_dev_attrs,
};

/*
 * Drop counters, one file per reason (the names of the netlink spec):
 * /sys/class/net/<dev>/mrc_drops/<reason> and
 * /sys/class/net/<rail>/mrc_rail/drops/<reason>.
 */
static ssize_t mrc_drop_emit(const struct mrc_stats *st, const char *name,
			     char *buf)
{
	unsigned int r;

	for (r = 1; r < __MRC_DROP_MAX; r++)
		if (!strcmp(mrc_wire_drop_reason_name(r), name))
			return sysfs_emit(buf, "%llu\n", st->drops[r]);
	return -EIO;
}

static ssize_t mrc_dev_drop_show(struct device *d, struct device_attribute *attr,
				 char *buf)
{
	struct mrc_stats st;

	mrc_dev_get_stats(mrc_sysfs_dev(d), &st);
	return mrc_drop_emit(&st, attr->attr.name, buf);
}

#define MRC_DEV_DROP(n) { .attr = { .name = n, .mode = 0444 }, .show = mrc_dev_drop_show }
static struct device_attribute mrc_dev_drop_attrs[] = {
	MRC_DEV_DROP("short"), MRC_DEV_DROP("version"), MRC_DEV_DROP("type"),
	MRC_DEV_DROP("reserved"), MRC_DEV_DROP("length"), MRC_DEV_DROP("bad-field"),
	MRC_DEV_DROP("bad-checksum"), MRC_DEV_DROP("no-rail"), MRC_DEV_DROP("no-conn"),
	MRC_DEV_DROP("no-listener"), MRC_DEV_DROP("bad-source"), MRC_DEV_DROP("state"),
	MRC_DEV_DROP("out-of-window"), MRC_DEV_DROP("duplicate"),
	MRC_DEV_DROP("no-buffer"), MRC_DEV_DROP("bad-data"),
	MRC_DEV_DROP("msg-too-big"), MRC_DEV_DROP("backlog"), MRC_DEV_DROP("bad-ack"),
	MRC_DEV_DROP("trimmed"),
};

static_assert(ARRAY_SIZE(mrc_dev_drop_attrs) == __MRC_DROP_MAX - 1);

static struct attribute *mrc_dev_drop_list[__MRC_DROP_MAX];

const struct attribute_group mrc_dev_drops_group = {
	.name = "mrc_drops",
	.attrs = mrc_dev_drop_list,
};

/* ---- a rail: /sys/class/net/<rail>/mrc_rail/ -------------------------------- */

struct mrc_rail_attribute {
	struct attribute attr;
	ssize_t (*show)(struct mrc_rail *rail, char *buf);
	ssize_t (*show_stat)(struct mrc_rail *rail, const char *name, char *buf);
	ssize_t (*store)(struct mrc_rail *rail, const char *buf, size_t len);
};

#define to_mrc_rail(k) container_of(k, struct mrc_rail, kobj)
#define to_mrc_rail_attr(a) container_of(a, struct mrc_rail_attribute, attr)

static ssize_t device_show(struct mrc_rail *rail, char *buf)
{
	return sysfs_emit(buf, "%s\n", rail->mdev->dev->name);
}

static ssize_t plane_show(struct mrc_rail *rail, char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(rail->plane));
}

static ssize_t plane_store(struct mrc_rail *rail, const char *buf, size_t len)
{
	u32 val;
	int err;

	if (kstrtou32(buf, 0, &val))
		return -EINVAL;
	if (!rtnl_trylock())
		return restart_syscall();
	err = mrc_rail_set_plane(rail, val, NULL);
	if (err == -ERANGE)
		err = -EINVAL;
	if (!err) {
		mrc_nl_notify_rail(rail, MRC_CMD_RAIL_CHANGE_NTF, GFP_KERNEL);
		mrc_nl_notify_dev(rail->mdev, MRC_CMD_DEV_CHANGE_NTF);
	}
	rtnl_unlock();
	return err ?: len;
}

static ssize_t admin_state_show(struct mrc_rail *rail, char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  mrc_admin_state_names[READ_ONCE(rail->admin_state)]);
}

static ssize_t admin_state_store(struct mrc_rail *rail, const char *buf,
				 size_t len)
{
	int state = sysfs_match_string(mrc_admin_state_names, buf);

	if (state < 0)
		return -EINVAL;
	if (!rtnl_trylock())
		return restart_syscall();
	mrc_rail_set_admin_state(rail, state);
	mrc_nl_notify_rail(rail, MRC_CMD_RAIL_CHANGE_NTF, GFP_KERNEL);
	mrc_nl_notify_dev(rail->mdev, MRC_CMD_DEV_CHANGE_NTF);
	rtnl_unlock();
	return len;
}

static ssize_t oper_state_show(struct mrc_rail *rail, char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  mrc_oper_state_names[READ_ONCE(rail->oper_state)]);
}

#define MRC_RAIL_ATTR_RO(name)						\
static struct mrc_rail_attribute mrc_rail_attr_##name = __ATTR_RO(name)
#define MRC_RAIL_ATTR_RW(name)						\
static struct mrc_rail_attribute mrc_rail_attr_##name = __ATTR_RW(name)

/* Sums over the device's connections of their windows on this plane. */
static ssize_t in_flight_show(struct mrc_rail *rail, char *buf)
{
	u64 in_flight, cwnd;

	mrc_conns_plane_sums(rail->mdev, READ_ONCE(rail->plane), &in_flight, &cwnd);
	return sysfs_emit(buf, "%llu\n", in_flight);
}

static ssize_t cwnd_show(struct mrc_rail *rail, char *buf)
{
	u64 in_flight, cwnd;

	mrc_conns_plane_sums(rail->mdev, READ_ONCE(rail->plane), &in_flight, &cwnd);
	return sysfs_emit(buf, "%llu\n", cwnd);
}

MRC_RAIL_ATTR_RO(device);
MRC_RAIL_ATTR_RO(in_flight);
MRC_RAIL_ATTR_RO(cwnd);
MRC_RAIL_ATTR_RW(plane);
MRC_RAIL_ATTR_RW(admin_state);
MRC_RAIL_ATTR_RO(oper_state);

static ssize_t mrc_rail_stat_show(struct mrc_rail *rail, const char *name,
				  char *buf)
{
	struct mrc_stats st;

	mrc_rail_get_stats(rail, &st);
	return mrc_stat_emit(&st, name, buf);
}

#define MRC_RAIL_STAT(n) \
	{ .attr = { .name = n, .mode = 0444 }, .show_stat = mrc_rail_stat_show }
static struct mrc_rail_attribute mrc_rail_attr_tx_packets = MRC_RAIL_STAT("tx_packets");
static struct mrc_rail_attribute mrc_rail_attr_tx_bytes = MRC_RAIL_STAT("tx_bytes");
static struct mrc_rail_attribute mrc_rail_attr_rx_packets = MRC_RAIL_STAT("rx_packets");
static struct mrc_rail_attribute mrc_rail_attr_rx_bytes = MRC_RAIL_STAT("rx_bytes");
static struct mrc_rail_attribute mrc_rail_attr_tx_dropped = MRC_RAIL_STAT("tx_dropped");
static struct mrc_rail_attribute mrc_rail_attr_rx_dropped = MRC_RAIL_STAT("rx_dropped");

static struct attribute *mrc_rail_attrs[] = {
	&mrc_rail_attr_device.attr,
	&mrc_rail_attr_plane.attr,
	&mrc_rail_attr_admin_state.attr,
	&mrc_rail_attr_oper_state.attr,
	&mrc_rail_attr_in_flight.attr,
	&mrc_rail_attr_cwnd.attr,
	&mrc_rail_attr_tx_packets.attr,
	&mrc_rail_attr_tx_bytes.attr,
	&mrc_rail_attr_rx_packets.attr,
	&mrc_rail_attr_rx_bytes.attr,
	&mrc_rail_attr_tx_dropped.attr,
	&mrc_rail_attr_rx_dropped.attr,
	NULL,
};

static const struct attribute_group mrc_rail_group = {
	.attrs = mrc_rail_attrs,
};

static ssize_t mrc_rail_attr_show(struct kobject *kobj, struct attribute *attr,
				  char *buf)
{
	struct mrc_rail_attribute *a = to_mrc_rail_attr(attr);

	if (a->show_stat)
		return a->show_stat(to_mrc_rail(kobj), attr->name, buf);
	return a->show(to_mrc_rail(kobj), buf);
}

static ssize_t mrc_rail_attr_store(struct kobject *kobj, struct attribute *attr,
				   const char *buf, size_t len)
{
	struct mrc_rail_attribute *a = to_mrc_rail_attr(attr);
	struct mrc_rail *rail = to_mrc_rail(kobj);

	if (!a->store)
		return -EIO;
	if (!mrc_sysfs_may_write(dev_net(rail->dev)))
		return -EPERM;
	return a->store(rail, buf, len);
}

static ssize_t mrc_rail_drop_show(struct mrc_rail *rail, const char *name,
				  char *buf)
{
	struct mrc_stats st;

	mrc_rail_get_stats(rail, &st);
	return mrc_drop_emit(&st, name, buf);
}

#define MRC_RAIL_DROP(n) \
	{ .attr = { .name = n, .mode = 0444 }, .show_stat = mrc_rail_drop_show }
static struct mrc_rail_attribute mrc_rail_drop_attrs[] = {
	MRC_RAIL_DROP("short"), MRC_RAIL_DROP("version"), MRC_RAIL_DROP("type"),
	MRC_RAIL_DROP("reserved"), MRC_RAIL_DROP("length"), MRC_RAIL_DROP("bad-field"),
	MRC_RAIL_DROP("bad-checksum"), MRC_RAIL_DROP("no-rail"), MRC_RAIL_DROP("no-conn"),
	MRC_RAIL_DROP("no-listener"), MRC_RAIL_DROP("bad-source"), MRC_RAIL_DROP("state"),
	MRC_RAIL_DROP("out-of-window"), MRC_RAIL_DROP("duplicate"),
	MRC_RAIL_DROP("no-buffer"), MRC_RAIL_DROP("bad-data"),
	MRC_RAIL_DROP("msg-too-big"), MRC_RAIL_DROP("backlog"), MRC_RAIL_DROP("bad-ack"),
	MRC_RAIL_DROP("trimmed"),
};

static_assert(ARRAY_SIZE(mrc_rail_drop_attrs) == __MRC_DROP_MAX - 1);

static struct attribute *mrc_rail_drop_list[__MRC_DROP_MAX];

static const struct attribute_group mrc_rail_drops_group = {
	.name = "drops",
	.attrs = mrc_rail_drop_list,
};

static const struct attribute_group *mrc_rail_groups_all[] = {
	&mrc_rail_group,
	&mrc_rail_drops_group,
	NULL,
};

/**
 * mrc_sysfs_init() - fill the attribute lists built from tables
 */
void mrc_sysfs_init(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(mrc_dev_drop_attrs); i++)
		mrc_dev_drop_list[i] = &mrc_dev_drop_attrs[i].attr;
	for (i = 0; i < ARRAY_SIZE(mrc_rail_drop_attrs); i++)
		mrc_rail_drop_list[i] = &mrc_rail_drop_attrs[i].attr;
}

static const struct sysfs_ops mrc_rail_sysfs_ops = {
	.show = mrc_rail_attr_show,
	.store = mrc_rail_attr_store,
};

static void mrc_rail_kobj_release(struct kobject *kobj)
{
	mrc_rail_free(to_mrc_rail(kobj));
}

const struct kobj_type mrc_rail_ktype = {
	.sysfs_ops = &mrc_rail_sysfs_ops,
	.release = mrc_rail_kobj_release,
	.default_groups = mrc_rail_groups_all,
};
