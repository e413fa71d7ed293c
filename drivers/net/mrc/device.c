// SPDX-License-Identifier: GPL-2.0
/*
 * device.c - the "mrc" netdevice: one per MRC NIC.
 *
 * "ip link add mrc0 type mrc" creates one; its lower devices are the rails
 * (rail.c), attached with "ip link set eth1 master mrc0" or mrcctl.  The
 * device carries no IP traffic of its own: mrc packets leave through the
 * rails.  Its carrier is on while at least one rail is usable, and its
 * counters (ip -s link) are the sum of mrc traffic over all rails.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/etherdevice.h>
#include <linux/if_arp.h>
#include <linux/netdevice.h>
#include <net/rtnetlink.h>

#include "sock.h"

static const struct net_device_ops mrc_netdev_ops;

/**
 * netif_is_mrc() - is @dev an mrc device?
 * @dev: any netdevice
 *
 * Return: true for devices of link kind "mrc".
 */
bool netif_is_mrc(const struct net_device *dev)
{
	return dev->netdev_ops == &mrc_netdev_ops;
}

/**
 * mrc_dev_update_carrier() - carrier on iff at least one rail is usable
 * @mdev: the device
 *
 * Context: RTNL.
 */
void mrc_dev_update_carrier(struct mrc_dev *mdev)
{
	bool up = false;
	int plane;

	ASSERT_RTNL();
	for (plane = 0; plane < MRC_MAX_RAILS; plane++) {
		struct mrc_rail *rail = rtnl_dereference(mdev->rails[plane]);

		if (rail && rail->oper_state == MRC_OPER_STATE_UP) {
			up = true;
			break;
		}
	}
	if (up && !netif_carrier_ok(mdev->dev))
		netif_carrier_on(mdev->dev);
	else if (!up && netif_carrier_ok(mdev->dev))
		netif_carrier_off(mdev->dev);
}

/**
 * mrc_dev_get_by_index() - find an mrc device of a namespace by ifindex
 * @net: the namespace
 * @ifindex: the ifindex
 * @extack: where to explain a failure
 *
 * Context: RTNL.
 * Return: the device, or an ERR_PTR (-ENODEV) with an extack message.
 */
struct mrc_dev *mrc_dev_get_by_index(struct net *net, int ifindex,
				     struct netlink_ext_ack *extack)
{
	struct net_device *dev;

	ASSERT_RTNL();
	dev = __dev_get_by_index(net, ifindex);
	if (!dev) {
		NL_SET_ERR_MSG_FMT(extack, "no device with ifindex %d", ifindex);
		return ERR_PTR(-ENODEV);
	}
	if (!netif_is_mrc(dev)) {
		NL_SET_ERR_MSG_FMT(extack, "%s is not an mrc device", dev->name);
		return ERR_PTR(-ENODEV);
	}
	return netdev_priv(dev);
}

/* Bounds of max-msg-size in both netlink policies (mrc.h). */
struct netlink_range_validation mrc_max_msg_size_range __ro_after_init = {
	.min = 1,
	.max = MRC_MAX_MSG_SIZE_LIMIT,
};

/* Connections running on @mdev, in any state.  Context: conns_lock. */
static u32 mrc_dev_count_conns(struct mrc_dev *mdev)
{
	struct mrc_sock *ms;
	u32 n = 0;

	lockdep_assert_held(&mdev->conns_lock);
	list_for_each_entry(ms, &mdev->conns, dev_node)
		n++;
	return n;
}

/*
 * Switch @mdev to the UDP port @port, whose sockets @up holds, unless
 * connections run on the device: they receive on the old port, which
 * the switch closes, and their peers keep sending to it (a live
 * connection would go silent until the dead-peer time).  Listeners do
 * not care: a REQ names no port.  Under conns_lock, so that a
 * connection being set up either is counted or starts on the new port.
 * On refusal @up is released.  Context: RTNL.
 */
static int mrc_dev_switch_udp_port(struct mrc_dev *mdev, u16 port,
				   struct mrc_udp_port *up,
				   struct netlink_ext_ack *extack)
{
	struct net *net = dev_net(mdev->dev);
	struct mrc_udp_port *old;
	u32 n;

	spin_lock_bh(&mdev->conns_lock);
	n = mrc_dev_count_conns(mdev);
	if (n) {
		spin_unlock_bh(&mdev->conns_lock);
		mrc_udp_port_put(net, up);
		NL_SET_ERR_MSG_FMT(extack,
				   "%s has %u connection%s on udp-port %u: close %s before changing the port",
				   mdev->dev->name, n, n == 1 ? "" : "s",
				   mdev->udp_port, n == 1 ? "it" : "them");
		return -EBUSY;
	}
	old = rtnl_dereference(mdev->udp);
	rcu_assign_pointer(mdev->udp, up);
	WRITE_ONCE(mdev->udp_port, port);
	spin_unlock_bh(&mdev->conns_lock);
	/* May wait for a grace period: outside the spinlock. */
	if (old)
		mrc_udp_port_put(net, old);
	return 0;
}

/**
 * mrc_dev_configure() - change tunables of a device, all or none
 * @mdev: the device
 * @cfg: the new values; fields whose has_* flag is false stay as they are
 * @extack: where to explain a refusal
 * @bad: set to the MRC_A_DEV_* attribute of the refused value, if any
 *
 * Every value is checked before anything changes (the ranges again for
 * sysfs: both netlink interfaces' policies refuse them first, with the
 * same extack; mrc.h); then the UDP port,
 * the only change that can still fail (its sockets, or connections
 * using the old port), is switched first, and the others, which cannot
 * fail, follow.  So a refusal leaves the device exactly as it was.
 *
 * Context: RTNL.
 * Return: 0, or -EINVAL/-ENOENT (a bad value), -EBUSY (connections on
 * the old UDP port), or an error opening the new port; with an extack
 * message.
 */
int mrc_dev_configure(struct mrc_dev *mdev, const struct mrc_dev_config *cfg,
		      struct netlink_ext_ack *extack, int *bad)
{
	const struct mrc_spray_ops *spray = NULL;
	struct mrc_udp_port *up;
	int err;

	ASSERT_RTNL();
	*bad = 0;
	if (cfg->has_udp_port && (cfg->udp_port < 1 || cfg->udp_port > 65535)) {
		NL_SET_ERR_MSG_FMT(extack, "udp-port %u out of range 1..65535",
				   cfg->udp_port);
		*bad = MRC_A_DEV_UDP_PORT;
		return -EINVAL;
	}
	if (cfg->has_max_msg_size &&
	    (cfg->max_msg_size < 1 || cfg->max_msg_size > MRC_MAX_MSG_SIZE_LIMIT)) {
		NL_SET_ERR_MSG_FMT(extack, "max-msg-size %u out of range 1..%u",
				   cfg->max_msg_size, MRC_MAX_MSG_SIZE_LIMIT);
		*bad = MRC_A_DEV_MAX_MSG_SIZE;
		return -EINVAL;
	}
	if (cfg->has_evs_per_plane &&
	    (cfg->evs_per_plane < 1 || cfg->evs_per_plane > MRC_EVS_PER_PLANE_MAX)) {
		NL_SET_ERR_MSG_FMT(extack, "evs-per-plane %u out of range 1..%u",
				   cfg->evs_per_plane, MRC_EVS_PER_PLANE_MAX);
		*bad = MRC_A_DEV_EVS_PER_PLANE;
		return -EINVAL;
	}
	if (cfg->spray) {
		spray = mrc_spray_find(cfg->spray);
		if (!spray) {
			NL_SET_ERR_MSG_FMT(extack, "unknown spray policy \"%s\" (mrc, rr)",
					   cfg->spray);
			*bad = MRC_A_DEV_SPRAY;
			return -ENOENT;
		}
	}

	if (cfg->has_udp_port && cfg->udp_port != mdev->udp_port) {
		up = mrc_udp_port_get(dev_net(mdev->dev), cfg->udp_port, extack);
		err = PTR_ERR_OR_ZERO(up);
		if (!err)
			err = mrc_dev_switch_udp_port(mdev, cfg->udp_port, up, extack);
		if (err) {
			*bad = MRC_A_DEV_UDP_PORT;
			return err;
		}
	}
	if (cfg->has_max_msg_size)
		WRITE_ONCE(mdev->max_msg_size, cfg->max_msg_size);
	if (cfg->has_evs_per_plane)
		WRITE_ONCE(mdev->evs_per_plane, cfg->evs_per_plane);
	if (spray)
		WRITE_ONCE(mdev->spray, spray);
	return 0;
}

/**
 * mrc_dev_set_udp_port() - change the UDP port of a device's packets
 * @mdev: the device
 * @port: the new port, 1..65535
 * @extack: where to explain a failure
 *
 * Context: RTNL.
 * Return: 0, or an error of mrc_dev_configure().
 */
int mrc_dev_set_udp_port(struct mrc_dev *mdev, u32 port,
			 struct netlink_ext_ack *extack)
{
	struct mrc_dev_config cfg = { .has_udp_port = true, .udp_port = port };
	int bad;

	return mrc_dev_configure(mdev, &cfg, extack, &bad);
}

/**
 * mrc_dev_set_max_msg_size() - change the largest message size
 * @mdev: the device
 * @size: the new limit, 1..MRC_MAX_MSG_SIZE_LIMIT bytes
 * @extack: where to explain a failure
 *
 * Context: RTNL.
 * Return: 0 or -EINVAL.
 */
int mrc_dev_set_max_msg_size(struct mrc_dev *mdev, u32 size,
			     struct netlink_ext_ack *extack)
{
	struct mrc_dev_config cfg = { .has_max_msg_size = true, .max_msg_size = size };
	int bad;

	return mrc_dev_configure(mdev, &cfg, extack, &bad);
}

/**
 * mrc_dev_set_evs_per_plane() - paths per plane of new connections
 * @mdev: the device
 * @n: 1..MRC_EVS_PER_PLANE_MAX
 * @extack: error report
 *
 * Context: RTNL.
 * Return: 0 or -EINVAL.
 */
int mrc_dev_set_evs_per_plane(struct mrc_dev *mdev, u32 n,
			      struct netlink_ext_ack *extack)
{
	struct mrc_dev_config cfg = { .has_evs_per_plane = true, .evs_per_plane = n };
	int bad;

	return mrc_dev_configure(mdev, &cfg, extack, &bad);
}

/**
 * mrc_dev_set_spray() - path choice policy of new connections
 * @mdev: the device
 * @name: "mrc" or "rr"
 * @extack: error report
 *
 * Context: RTNL.
 * Return: 0 or -ENOENT.
 */
int mrc_dev_set_spray(struct mrc_dev *mdev, const char *name,
		      struct netlink_ext_ack *extack)
{
	struct mrc_dev_config cfg = { .spray = name };
	int bad;

	return mrc_dev_configure(mdev, &cfg, extack, &bad);
}

static int mrc_ndo_init(struct net_device *dev)
{
	struct mrc_dev *mdev = netdev_priv(dev);

	INIT_LIST_HEAD(&mdev->list);
	INIT_LIST_HEAD(&mdev->conns);
	spin_lock_init(&mdev->conns_lock);
	atomic_set(&mdev->half_open, 0);
	atomic_long_set(&mdev->rmem, 0);
	atomic_long_set(&mdev->rmem_full, 0);
	/* the first second begins with the first stray */
	atomic64_set(&mdev->reset_rl, (u64)(u32)(jiffies - HZ) << 32);
	mdev->stats = mrc_stats_alloc(0);
	if (!mdev->stats)
		return -ENOMEM;
	return 0;
}

/* Unregistration, for whatever reason (ip link del, namespace exit,
 * rmmod): detach every rail, then forget the device.
 */
static void mrc_ndo_uninit(struct net_device *dev)
{
	struct mrc_dev *mdev = netdev_priv(dev);
	struct mrc_udp_port *up;
	int plane;

	ASSERT_RTNL();
	mrc_dev_abort_conns(mdev);
	/* Every connection left: nothing may still count against us. */
	WARN_ON_ONCE(atomic_long_read(&mdev->rmem));
	WARN_ON_ONCE(atomic_long_read(&mdev->rmem_full));
	for (plane = 0; plane < MRC_MAX_RAILS; plane++) {
		struct mrc_rail *rail = rtnl_dereference(mdev->rails[plane]);

		if (rail)
			mrc_rail_detach(rail);
	}
	/* Only a device that completed registration is on the list. */
	if (!list_empty(&mdev->list)) {
		mrc_nl_notify_dev(mdev, MRC_CMD_DEV_DEL_NTF);
		list_del_rcu(&mdev->list);
	}
	up = rtnl_dereference(mdev->udp);
	if (up) {
		RCU_INIT_POINTER(mdev->udp, NULL);
		mrc_udp_port_put(dev_net(dev), up);
	}
}

static void mrc_dev_destructor(struct net_device *dev)
{
	struct mrc_dev *mdev = netdev_priv(dev);

	free_percpu(mdev->stats);
}

/* The device has no IP traffic of its own; whatever the stack hands it
 * (nothing, normally: it has no link layer and no addresses) is dropped
 * and counted.
 */
static netdev_tx_t mrc_ndo_start_xmit(struct sk_buff *skb,
				      struct net_device *dev)
{
	struct mrc_dev *mdev = netdev_priv(dev);

	mrc_stats_tx_drop(mdev, NULL);
	dev_kfree_skb_any(skb);
	return NETDEV_TX_OK;
}

static void mrc_ndo_get_stats64(struct net_device *dev,
				struct rtnl_link_stats64 *stats)
{
	struct mrc_dev *mdev = netdev_priv(dev);
	struct mrc_stats st;

	mrc_dev_get_stats(mdev, &st);
	stats->tx_packets = st.tx_packets;
	stats->tx_bytes = st.tx_bytes;
	stats->rx_packets = st.rx_packets;
	stats->rx_bytes = st.rx_bytes;
	stats->tx_dropped = st.tx_dropped;
	stats->rx_dropped = st.rx_dropped;
}

static int mrc_ndo_add_slave(struct net_device *dev, struct net_device *lower,
			     struct netlink_ext_ack *extack)
{
	return mrc_rail_attach(netdev_priv(dev), lower, -1, MRC_ADMIN_STATE_UP,
			       extack);
}

static int mrc_ndo_del_slave(struct net_device *dev, struct net_device *lower)
{
	struct mrc_rail *rail = mrc_rail_from_dev(lower);

	if (!rail || rail->mdev != netdev_priv(dev))
		return -EINVAL;
	mrc_rail_detach(rail);
	return 0;
}

static const struct net_device_ops mrc_netdev_ops = {
	.ndo_init = mrc_ndo_init,
	.ndo_uninit = mrc_ndo_uninit,
	.ndo_start_xmit = mrc_ndo_start_xmit,
	.ndo_get_stats64 = mrc_ndo_get_stats64,
	.ndo_add_slave = mrc_ndo_add_slave,
	.ndo_del_slave = mrc_ndo_del_slave,
};

static void mrc_dev_setup(struct net_device *dev)
{
	/* No link layer of its own (ARPHRD_VOID keeps IPv6 autoconf away). */
	dev->type = ARPHRD_VOID;
	dev->flags = IFF_NOARP;
	dev->hard_header_len = 0;
	dev->addr_len = 0;
	dev->mtu = ETH_MAX_MTU;	/* mrc packets size to their rails */
	dev->min_mtu = ETH_MIN_MTU;
	dev->max_mtu = ETH_MAX_MTU;
	dev->priv_flags |= IFF_NO_QUEUE;
	/*
	 * No netpoll (netconsole): it calls ndo_start_xmit with interrupts
	 * off, where the per-CPU counters (stats.c) may not be written.
	 */
	dev->priv_flags |= IFF_DISABLE_NETPOLL;
	dev->netdev_ops = &mrc_netdev_ops;
	dev->ethtool_ops = &mrc_ethtool_ops;
	dev->needs_free_netdev = true;
	dev->priv_destructor = mrc_dev_destructor;
	dev->sysfs_groups[0] = &mrc_dev_sysfs_group;
	/* Rails must stay in the device's namespace: the device stays too. */
	mrc_netdev_set_netns_immutable(dev);
}

static int mrc_newlink(struct net *src_net, struct net_device *dev,
		       struct nlattr *tb[], struct nlattr *data[],
		       struct netlink_ext_ack *extack)
{
	struct mrc_dev *mdev = netdev_priv(dev);
	struct mrc_dev_config cfg;
	struct mrc_udp_port *up;
	int err;

	mdev->dev = dev;
	mdev->udp_port = mrc_params.udp_port;
	mdev->max_msg_size = MRC_MAX_MSG_SIZE_DEFAULT;
	mdev->evs_per_plane = MRC_EVS_PER_PLANE_DEFAULT;
	mdev->spray = &mrc_spray_mrc;
	/* "ip link add ... type mrc udp-port N ...": the port is opened below */
	if (mrc_link_config(data, &cfg)) {
		if (cfg.has_udp_port)
			mdev->udp_port = cfg.udp_port;
		cfg.has_udp_port = false;
		err = mrc_link_configure(mdev, &cfg, data, extack);
		if (err)
			return err;
	}
	netif_carrier_off(dev);

	up = mrc_udp_port_get(dev_net(dev), mdev->udp_port, extack);
	if (IS_ERR(up))
		return PTR_ERR(up);
	err = register_netdevice(dev);
	if (err) {
		mrc_udp_port_put(dev_net(dev), up);
		return err;
	}
	rcu_assign_pointer(mdev->udp, up);
	/* netdevices get one driver group; the drop counters are a second. */
	err = sysfs_create_group(&dev->dev.kobj, &mrc_dev_drops_group);
	if (err) {
		NL_SET_ERR_MSG(extack, "cannot create the mrc_drops sysfs directory");
		unregister_netdevice(dev);
		return err;
	}
	list_add_tail_rcu(&mdev->list, &mrc_net(dev_net(dev))->devs);
	mrc_nl_notify_dev(mdev, MRC_CMD_DEV_ADD_NTF);
	return 0;
}

struct rtnl_link_ops mrc_link_ops __read_mostly = {
	.kind = "mrc",
	.priv_size = sizeof(struct mrc_dev),
	.setup = mrc_dev_setup,
	.newlink = mrc_newlink,
	/* linkinfo.c: ip -d link show, ip link set ... type mrc */
	.maxtype = IFLA_MRC_MAX,
	.policy = mrc_link_policy,
	.changelink = mrc_link_changelink,
	.get_size = mrc_link_get_size,
	.fill_info = mrc_link_fill_info,
	.get_slave_size = mrc_link_get_slave_size,
	.fill_slave_info = mrc_link_fill_slave_info,
};

/**
 * mrc_device_init() - register link kind "mrc"
 *
 * Return: 0 or a negative errno.
 */
int mrc_device_init(void)
{
	return rtnl_link_register(&mrc_link_ops);
}

/**
 * mrc_device_exit() - unregister link kind "mrc", deleting every device
 */
void mrc_device_exit(void)
{
	rtnl_link_unregister(&mrc_link_ops);
}
