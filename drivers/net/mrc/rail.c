// SPDX-License-Identifier: GPL-2.0
/*
 * rail.c - rails: the lower devices of an mrc device, one per plane.
 *
 * A rail is any netdevice (veth, virtio-net, a real NIC) linked below an
 * mrc device as its master.  It keeps its own addresses and its normal
 * traffic; mrc only adds its own packets.  Each rail has a fabric plane
 * number, unique within its device, and an admin state; its oper state
 * says whether mrc can use it now and, if not, why.
 *
 * Lifetime: attach (rtnetlink master, or genl rail-add) creates the rail,
 * takes a tracked reference on the netdevice, publishes the rail in
 * mdev->rails[plane] and adds /sys/class/net/<rail>/mrc_rail.  Detach
 * (nomaster, rail-del, the netdevice unregistering or changing namespace,
 * the mrc device going away) undoes all of it under RTNL; the memory is
 * freed after an RCU grace period, so data-path readers that found the
 * rail under rcu_read_lock() stay safe.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/inetdevice.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/netdevice.h>
#include <linux/udp.h>
#include <linux/rtnetlink.h>
#include <net/addrconf.h>

#include "sock.h"

/**
 * mrc_rail_from_dev() - the rail a netdevice is, if any
 * @lower: any netdevice
 *
 * Context: RTNL.
 * Return: the rail, or NULL if @lower is not a rail.
 */
struct mrc_rail *mrc_rail_from_dev(const struct net_device *lower)
{
	struct net_device *upper;

	ASSERT_RTNL();
	upper = netdev_master_upper_dev_get((struct net_device *)lower);
	if (!upper || !netif_is_mrc(upper))
		return NULL;
	return netdev_lower_dev_get_private(upper, (struct net_device *)lower);
}

/**
 * mrc_rail_from_dev_rcu() - the rail a netdevice is, without RTNL
 * @lower: any netdevice
 *
 * Scans the namespace's mrc devices; for callers that cannot take RTNL.
 *
 * Context: rcu_read_lock().
 * Return: the rail, or NULL if @lower is not a rail.
 */
struct mrc_rail *mrc_rail_from_dev_rcu(const struct net_device *lower)
{
	struct mrc_net *mn = mrc_net(dev_net(lower));
	struct mrc_dev *mdev;
	int plane;

	list_for_each_entry_rcu(mdev, &mn->devs, list) {
		for (plane = 0; plane < MRC_MAX_RAILS; plane++) {
			struct mrc_rail *rail = rcu_dereference(mdev->rails[plane]);

			if (rail && rail->dev == lower)
				return rail;
		}
	}
	return NULL;
}

static u32 mrc_rail_compute_state(const struct mrc_rail *rail)
{
	if (rail->admin_state != MRC_ADMIN_STATE_UP)
		return MRC_OPER_STATE_ADMIN_DOWN;
	if (!netif_running(rail->dev))
		return MRC_OPER_STATE_DEV_DOWN;
	if (!netif_carrier_ok(rail->dev))
		return MRC_OPER_STATE_NO_CARRIER;
	return MRC_OPER_STATE_UP;
}

/* Recompute the oper state; announce a change. RTNL. */
static void mrc_rail_update_state(struct mrc_rail *rail, bool notify)
{
	u32 state = mrc_rail_compute_state(rail);

	if (state == rail->oper_state)
		return;
	WRITE_ONCE(rail->oper_state, state);
	mrc_dev_update_carrier(rail->mdev);
	/* Failover now; a rail coming up rejoins through path probes. */
	if (state != MRC_OPER_STATE_UP)
		mrc_conns_rail_down(rail->mdev, rail->plane);
	if (notify) {
		mrc_nl_notify_rail(rail, MRC_CMD_RAIL_CHANGE_NTF, GFP_KERNEL);
		mrc_nl_notify_dev(rail->mdev, MRC_CMD_DEV_CHANGE_NTF);
	}
}

static int mrc_rail_free_plane(const struct mrc_dev *mdev)
{
	int plane;

	for (plane = 0; plane < MRC_MAX_RAILS; plane++)
		if (!rcu_access_pointer(mdev->rails[plane]))
			return plane;
	return -1;
}

/**
 * mrc_rail_attach() - make a netdevice a rail of an mrc device
 * @mdev: the mrc device
 * @lower: the netdevice
 * @plane: the plane, or -1 for the lowest free one
 * @admin_state: initial enum mrc_admin_state
 * @extack: where to explain a refusal
 *
 * Context: RTNL.
 * Return: 0, or a negative errno with an extack message.
 */
int mrc_rail_attach(struct mrc_dev *mdev, struct net_device *lower,
		    int plane, u32 admin_state, struct netlink_ext_ack *extack)
{
	unsigned int nq = lower->num_rx_queues + lower->num_tx_queues;
	struct net_device *upper;
	struct mrc_rail *rail, *other;
	int err;

	ASSERT_RTNL();
	if (netif_is_mrc(lower)) {
		NL_SET_ERR_MSG_FMT(extack, "%s is an mrc device and cannot be a rail",
				   lower->name);
		return -EINVAL;
	}
	if (lower->flags & IFF_LOOPBACK) {
		NL_SET_ERR_MSG_FMT(extack, "%s is a loopback device and cannot be a rail",
				   lower->name);
		return -EINVAL;
	}
	if (!net_eq(dev_net(lower), dev_net(mdev->dev))) {
		NL_SET_ERR_MSG_FMT(extack, "%s is in another network namespace than %s",
				   lower->name, mdev->dev->name);
		return -EINVAL;
	}
	rail = mrc_rail_from_dev(lower);
	if (rail) {
		NL_SET_ERR_MSG_FMT(extack, "rail %s is already attached to %s",
				   lower->name, rail->mdev->dev->name);
		return -EBUSY;
	}
	upper = netdev_master_upper_dev_get(lower);
	if (upper) {
		NL_SET_ERR_MSG_FMT(extack, "%s already has a master (%s)",
				   lower->name, upper->name);
		return -EBUSY;
	}
	/* Two counters per queue in one per-CPU block (mrc_pcpu_stats). */
	if (nq > MRC_RAIL_MAX_QUEUES) {
		NL_SET_ERR_MSG_FMT(extack,
				   "%s has %u RX + %u TX queues; mrc counts at most %zu per rail",
				   lower->name, lower->num_rx_queues,
				   lower->num_tx_queues, MRC_RAIL_MAX_QUEUES);
		return -EINVAL;
	}
	if (mdev->nr_rails >= MRC_MAX_RAILS) {
		NL_SET_ERR_MSG_FMT(extack, "%s already has %d rails, the maximum",
				   mdev->dev->name, MRC_MAX_RAILS);
		return -ENOSPC;
	}
	if (plane >= 0) {
		other = rtnl_dereference(mdev->rails[plane]);
		if (other) {
			NL_SET_ERR_MSG_FMT(extack, "plane %d in use by %s",
					   plane, other->dev->name);
			return -EBUSY;
		}
	} else {
		plane = mrc_rail_free_plane(mdev);
	}

	rail = kzalloc(sizeof(*rail), GFP_KERNEL);
	if (!rail)
		goto err_nomem;
	rail->stats = mrc_stats_alloc(nq);
	if (!rail->stats) {
		kfree(rail);
		goto err_nomem;
	}
	rail->mdev = mdev;
	rail->dev = lower;
	rail->plane = plane;
	rail->admin_state = admin_state;
	rail->num_rx_queues = lower->num_rx_queues;
	rail->num_tx_queues = lower->num_tx_queues;
	rail->oper_state = mrc_rail_compute_state(rail);

	/* From here on the kobject owns the memory: kobject_put() frees. */
	err = kobject_init_and_add(&rail->kobj, &mrc_rail_ktype, &lower->dev.kobj,
				   "mrc_rail");
	if (err) {
		NL_SET_ERR_MSG_FMT(extack, "cannot create sysfs directory of rail %s",
				   lower->name);
		goto err_put;
	}
	err = netdev_master_upper_dev_link(lower, mdev->dev, rail, NULL, extack);
	if (err)
		goto err_del;
	netdev_hold(lower, &rail->dev_tracker, GFP_KERNEL);
	mrc_xmit_headroom_note(lower);

	rcu_assign_pointer(mdev->rails[plane], rail);
	mdev->nr_rails++;
	mrc_dev_update_carrier(mdev);
	mrc_nl_notify_rail(rail, MRC_CMD_RAIL_ADD_NTF, GFP_KERNEL);
	mrc_nl_notify_dev(mdev, MRC_CMD_DEV_CHANGE_NTF);
	return 0;

err_del:
	kobject_del(&rail->kobj);
err_put:
	kobject_put(&rail->kobj);
	return err;

err_nomem:
	NL_SET_ERR_MSG_FMT(extack, "no memory for rail %s", lower->name);
	return -ENOMEM;
}

/**
 * mrc_rail_detach() - detach a rail from its device and free it
 * @rail: the rail
 *
 * Context: RTNL.  @rail is freed after an RCU grace period.
 */
void mrc_rail_detach(struct mrc_rail *rail)
{
	struct mrc_dev *mdev = rail->mdev;

	ASSERT_RTNL();
	RCU_INIT_POINTER(mdev->rails[rail->plane], NULL);
	mdev->nr_rails--;
	mrc_conns_rail_down(mdev, rail->plane);
	mrc_nl_notify_rail(rail, MRC_CMD_RAIL_DEL_NTF, GFP_KERNEL);
	netdev_upper_dev_unlink(rail->dev, mdev->dev);
	kobject_del(&rail->kobj);
	netdev_put(rail->dev, &rail->dev_tracker);
	mrc_dev_update_carrier(mdev);
	mrc_nl_notify_dev(mdev, MRC_CMD_DEV_CHANGE_NTF);
	kobject_put(&rail->kobj);
}

static void mrc_rail_free_rcu(struct rcu_head *head)
{
	struct mrc_rail *rail = container_of(head, struct mrc_rail, rcu);

	free_percpu(rail->stats);
	kfree(rail);
}

/**
 * mrc_rail_free() - kobject release of a rail
 * @rail: the rail, already unpublished
 *
 * Frees the rail and its counters after a grace period.
 */
void mrc_rail_free(struct mrc_rail *rail)
{
	call_rcu(&rail->rcu, mrc_rail_free_rcu);
}

/**
 * mrc_rail_set_plane() - move a rail to another plane of its device
 * @rail: the rail
 * @plane: the new plane, 0..MRC_MAX_PLANE
 * @extack: where to explain a refusal
 *
 * Context: RTNL.
 * Return: 0, or -EBUSY/-ERANGE with an extack message.
 */
int mrc_rail_set_plane(struct mrc_rail *rail, u32 plane,
		       struct netlink_ext_ack *extack)
{
	struct mrc_dev *mdev = rail->mdev;
	struct mrc_rail *other;

	ASSERT_RTNL();
	if (plane > MRC_MAX_PLANE) {
		NL_SET_ERR_MSG_FMT(extack, "plane %u out of range 0..%d",
				   plane, MRC_MAX_PLANE);
		return -ERANGE;
	}
	if (plane == rail->plane)
		return 0;
	other = rtnl_dereference(mdev->rails[plane]);
	if (other) {
		NL_SET_ERR_MSG_FMT(extack, "plane %u in use by %s",
				   plane, other->dev->name);
		return -EBUSY;
	}
	RCU_INIT_POINTER(mdev->rails[rail->plane], NULL);
	mrc_conns_rail_down(mdev, rail->plane);
	WRITE_ONCE(rail->plane, plane);
	rcu_assign_pointer(mdev->rails[plane], rail);
	return 0;
}

/**
 * mrc_rail_set_admin_state() - let mrc use a rail, or not
 * @rail: the rail
 * @state: enum mrc_admin_state
 *
 * Context: RTNL.  The caller announces the change.
 */
void mrc_rail_set_admin_state(struct mrc_rail *rail, u32 state)
{
	ASSERT_RTNL();
	WRITE_ONCE(rail->admin_state, state);
	mrc_rail_update_state(rail, false);
}

/* ---- MTU: what the connections need ------------------------------------ */

/*
 * Connections of @rail's device that may send DATA on @rail's plane
 * (they announced a rail there) and whose full segments, with the IP,
 * UDP and mrc headers of their family on it, do not fit in @mtu.
 * @need: set to the smallest MTU they all fit in; @seg: to their largest
 * segment.  seg_size is fixed at the handshake (it may only shrink, to
 * the peer's limit), so a stale read errs on the safe side.
 * Context: RTNL; takes conns_lock.
 */
static u32 mrc_rail_mtu_users(struct mrc_rail *rail, u32 mtu, u32 *need,
			      u32 *seg)
{
	struct mrc_dev *mdev = rail->mdev;
	u32 plane = READ_ONCE(rail->plane), n = 0;
	struct mrc_sock *ms;

	*need = 0;
	*seg = 0;
	spin_lock_bh(&mdev->conns_lock);
	list_for_each_entry(ms, &mdev->conns, dev_node) {
		u8 family = READ_ONCE(mrc_lrail(ms, plane)->family);
		u32 s = READ_ONCE(ms->seg_size), pkt;

		if (!family || !s)
			continue;
		pkt = (family == AF_INET ? sizeof(struct iphdr) :
					   sizeof(struct ipv6hdr)) +
		      sizeof(struct udphdr) + MRC_DATA_HDR_LEN + s;
		if (pkt <= mtu)
			continue;
		n++;
		*need = max(*need, pkt);
		*seg = max(*seg, s);
	}
	spin_unlock_bh(&mdev->conns_lock);
	return n;
}

/*
 * A rail's MTU went down under connections whose segments no longer fit:
 * their DATA (DF set) would be dropped while small probes pass, and
 * paths would flap for good (seg_size is fixed at the handshake).  So
 * the change is refused.  NETDEV_PRECHANGEMTU cannot do it: it carries
 * neither the new MTU nor an extack.  NETDEV_CHANGEMTU carries the old
 * MTU, and when a notifier refuses it, dev_set_mtu_ext() puts the old
 * MTU back, notifies again and fails with the error.  This notifier
 * runs first (INT_MAX), so no one else acts on the refused MTU.  There is
 * no extack on this path: the reason goes to the kernel log.
 */
static int mrc_mtu_event(struct notifier_block *nb, unsigned long event,
			 void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);
	const struct netdev_notifier_info_ext *info = ptr;
	struct mrc_rail *rail;
	u32 need, seg, n;

	if (event != NETDEV_CHANGEMTU || netif_is_mrc(dev))
		return NOTIFY_DONE;
	rail = mrc_rail_from_dev(dev);
	/* Raising it is always fine, and so is the core's undoing. */
	if (!rail || dev->mtu >= info->ext.mtu)
		return NOTIFY_DONE;
	n = mrc_rail_mtu_users(rail, dev->mtu, &need, &seg);
	if (!n)
		return NOTIFY_DONE;
	rail->mtu_vetoed = true;
	pr_warn_ratelimited("%s: %u connection%s use%s %u-byte segments on rail %s: MTU must stay >= %u\n",
			    rail->mdev->dev->name, n, n == 1 ? "" : "s",
			    n == 1 ? "s" : "", seg, dev->name, need);
	return notifier_from_errno(-EBUSY);
}

/* ---- notifiers: the rail's netdevice changes --------------------------- */

static int mrc_netdev_event(struct notifier_block *nb, unsigned long event,
			    void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);
	struct mrc_rail *rail;

	if (netif_is_mrc(dev)) {
		if (event == NETDEV_CHANGENAME)
			mrc_nl_notify_dev(netdev_priv(dev), MRC_CMD_DEV_CHANGE_NTF);
		return NOTIFY_DONE;
	}
	rail = mrc_rail_from_dev(dev);
	if (!rail)
		return NOTIFY_DONE;

	switch (event) {
	case NETDEV_UNREGISTER:
		/* Deleted, or moving to another namespace. */
		mrc_rail_detach(rail);
		break;
	case NETDEV_UP:
	case NETDEV_DOWN:
	case NETDEV_CHANGE:
		mrc_rail_update_state(rail, true);
		break;
	case NETDEV_CHANGEMTU:
		/* The old MTU back after mrc_mtu_event() refused: no change. */
		if (rail->mtu_vetoed) {
			rail->mtu_vetoed = false;
			break;
		}
		/* Segments were sized for the old MTU: re-probe the plane. */
		mrc_conns_rail_down(rail->mdev, rail->plane);
		fallthrough;
	case NETDEV_CHANGENAME:
		mrc_nl_notify_rail(rail, MRC_CMD_RAIL_CHANGE_NTF, GFP_KERNEL);
		if (event == NETDEV_CHANGENAME)
			mrc_nl_notify_dev(rail->mdev, MRC_CMD_DEV_CHANGE_NTF);
		break;
	}
	return NOTIFY_DONE;
}

/* IPv4 address added or removed: inetaddr_chain is blocking, under RTNL. */
static int mrc_inetaddr_event(struct notifier_block *nb, unsigned long event,
			      void *ptr)
{
	struct in_ifaddr *ifa = ptr;
	struct mrc_rail *rail;

	if (event != NETDEV_UP && event != NETDEV_DOWN)
		return NOTIFY_DONE;
	rcu_read_lock();
	rail = mrc_rail_from_dev_rcu(ifa->ifa_dev->dev);
	if (rail)
		mrc_nl_notify_rail(rail, MRC_CMD_RAIL_CHANGE_NTF, GFP_ATOMIC);
	rcu_read_unlock();
	return NOTIFY_DONE;
}

#if IS_ENABLED(CONFIG_IPV6)
/* IPv6 address added or removed: atomic chain, maybe in softirq. */
static int mrc_inet6addr_event(struct notifier_block *nb, unsigned long event,
			       void *ptr)
{
	struct inet6_ifaddr *ifa = ptr;
	struct mrc_rail *rail;

	if (event != NETDEV_UP && event != NETDEV_DOWN)
		return NOTIFY_DONE;
	rcu_read_lock();
	rail = mrc_rail_from_dev_rcu(ifa->idev->dev);
	if (rail)
		mrc_nl_notify_rail(rail, MRC_CMD_RAIL_CHANGE_NTF, GFP_ATOMIC);
	rcu_read_unlock();
	return NOTIFY_DONE;
}

static struct notifier_block mrc_inet6addr_nb = {
	.notifier_call = mrc_inet6addr_event,
};
#endif

static struct notifier_block mrc_netdev_nb = {
	.notifier_call = mrc_netdev_event,
};

static struct notifier_block mrc_mtu_nb = {
	.notifier_call = mrc_mtu_event,
	.priority = INT_MAX,	/* before anyone acts on the new MTU */
};

static struct notifier_block mrc_inetaddr_nb = {
	.notifier_call = mrc_inetaddr_event,
};

/**
 * mrc_rail_init() - start following netdevice and address changes
 *
 * Return: 0 or a negative errno.
 */
int mrc_rail_init(void)
{
	int err;

	err = register_netdevice_notifier(&mrc_mtu_nb);
	if (err)
		return err;
	err = register_netdevice_notifier(&mrc_netdev_nb);
	if (err)
		goto err_mtu;
	err = register_inetaddr_notifier(&mrc_inetaddr_nb);
	if (err)
		goto err_netdev;
#if IS_ENABLED(CONFIG_IPV6)
	err = register_inet6addr_notifier(&mrc_inet6addr_nb);
	if (err)
		goto err_inet;
#endif
	return 0;

#if IS_ENABLED(CONFIG_IPV6)
err_inet:
	unregister_inetaddr_notifier(&mrc_inetaddr_nb);
#endif
err_netdev:
	unregister_netdevice_notifier(&mrc_netdev_nb);
err_mtu:
	unregister_netdevice_notifier(&mrc_mtu_nb);
	return err;
}

/**
 * mrc_rail_exit() - stop following netdevice and address changes
 *
 * Context: no mrc device (so no rail) exists any more.
 */
void mrc_rail_exit(void)
{
#if IS_ENABLED(CONFIG_IPV6)
	unregister_inet6addr_notifier(&mrc_inet6addr_nb);
#endif
	unregister_inetaddr_notifier(&mrc_inetaddr_nb);
	unregister_netdevice_notifier(&mrc_netdev_nb);
	unregister_netdevice_notifier(&mrc_mtu_nb);
	/* Let pending mrc_rail_free_rcu() callbacks run before unload. */
	rcu_barrier();
}
