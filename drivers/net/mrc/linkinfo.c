// SPDX-License-Identifier: GPL-2.0
/*
 * linkinfo.c - the rtnetlink view of mrc devices and rails: what "ip -d
 * link show" prints, and what "ip link add/set ... type mrc" sets.
 *
 *   IFLA_INFO_DATA of an mrc device (IFLA_MRC_*): udp-port, max-msg-size,
 *   evs-per-plane and spray policy; read, set at creation (newlink) and
 *   changed (changelink) with the same checks as the generic netlink
 *   dev-set: the same policy entries (mrc.h), then mrc_dev_configure().
 *   IFLA_INFO_SLAVE_DATA of a rail (IFLA_MRC_RAIL_*): its plane, admin
 *   and oper state; read-only (mrcctl rail set changes them).
 *
 * iproute2 prints these only with its link_mrc.so plugin
 * (tools/iproute2/); without it, "ip -d link" names the kind only.
 */

#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <net/netlink.h>
#include <net/rtnetlink.h>

#include "sock.h"

/* Room for a spray policy's name in a reply ("mrc", "rr"). */
#define MRC_LINK_SPRAY_NAME_MAX	16

/*
 * IFLA_MRC_* of "ip link add/set ... type mrc".  Strict from the first
 * attribute: rtnetlink parses IFLA_INFO_DATA with the deprecated
 * (liberal) parser, which would take a u32 port's low half.  The
 * entries are the generic netlink dev-set's (mrc.h): a bad value is
 * refused with the same errno and extack through either interface.
 */
const struct nla_policy mrc_link_policy[IFLA_MRC_MAX + 1] = {
	[IFLA_MRC_UNSPEC] = { .strict_start_type = IFLA_MRC_UDP_PORT },
	[IFLA_MRC_UDP_PORT] = MRC_DEV_POLICY_UDP_PORT,
	[IFLA_MRC_MAX_MSG_SIZE] = MRC_DEV_POLICY_MAX_MSG_SIZE,
	[IFLA_MRC_EVS_PER_PLANE] = MRC_DEV_POLICY_EVS_PER_PLANE,
	[IFLA_MRC_SPRAY] = MRC_DEV_POLICY_SPRAY,
};

/**
 * mrc_link_config() - the IFLA_MRC_* attributes of a request as a config
 * @data: the parsed IFLA_INFO_DATA (may be NULL: nothing to change)
 * @cfg: filled; fields not in @data keep their has_* flag false
 *
 * Return: true if @data asks for any change.
 */
bool mrc_link_config(struct nlattr *data[], struct mrc_dev_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	if (!data)
		return false;
	if (data[IFLA_MRC_UDP_PORT]) {
		cfg->has_udp_port = true;
		cfg->udp_port = nla_get_u16(data[IFLA_MRC_UDP_PORT]);
	}
	if (data[IFLA_MRC_MAX_MSG_SIZE]) {
		cfg->has_max_msg_size = true;
		cfg->max_msg_size = nla_get_u32(data[IFLA_MRC_MAX_MSG_SIZE]);
	}
	if (data[IFLA_MRC_EVS_PER_PLANE]) {
		cfg->has_evs_per_plane = true;
		cfg->evs_per_plane = nla_get_u32(data[IFLA_MRC_EVS_PER_PLANE]);
	}
	if (data[IFLA_MRC_SPRAY])
		cfg->spray = nla_data(data[IFLA_MRC_SPRAY]);
	return cfg->has_udp_port || cfg->has_max_msg_size ||
	       cfg->has_evs_per_plane || cfg->spray;
}

/* The IFLA_MRC_* attribute a mrc_dev_configure() refusal names. */
static int mrc_link_bad_attr(int bad)
{
	switch (bad) {
	case MRC_A_DEV_UDP_PORT:
		return IFLA_MRC_UDP_PORT;
	case MRC_A_DEV_MAX_MSG_SIZE:
		return IFLA_MRC_MAX_MSG_SIZE;
	case MRC_A_DEV_EVS_PER_PLANE:
		return IFLA_MRC_EVS_PER_PLANE;
	case MRC_A_DEV_SPRAY:
		return IFLA_MRC_SPRAY;
	}
	return 0;
}

/**
 * mrc_link_configure() - apply IFLA_MRC_* to a device, all or none
 * @mdev: the device
 * @cfg: from mrc_link_config()
 * @data: the attributes @cfg came from (to point the extack at)
 * @extack: where to explain a refusal
 *
 * Context: RTNL.
 * Return: 0 or an error of mrc_dev_configure(), with an extack message.
 */
int mrc_link_configure(struct mrc_dev *mdev, const struct mrc_dev_config *cfg,
		       struct nlattr *data[], struct netlink_ext_ack *extack)
{
	int err, bad;

	err = mrc_dev_configure(mdev, cfg, extack, &bad);
	if (err && mrc_link_bad_attr(bad))
		NL_SET_BAD_ATTR(extack, data[mrc_link_bad_attr(bad)]);
	return err;
}

/**
 * mrc_link_changelink() - "ip link set DEV type mrc ..."
 * @dev: the mrc device
 * @tb: IFLA_* of the request
 * @data: its IFLA_MRC_*
 * @extack: where to explain a refusal
 *
 * Context: RTNL.
 * Return: 0 or an error of mrc_dev_configure(), with an extack message.
 */
int mrc_link_changelink(struct net_device *dev, struct nlattr *tb[],
			struct nlattr *data[], struct netlink_ext_ack *extack)
{
	struct mrc_dev *mdev = netdev_priv(dev);
	struct mrc_dev_config cfg;
	int err;

	ASSERT_RTNL();
	if (!mrc_link_config(data, &cfg))
		return 0;
	err = mrc_link_configure(mdev, &cfg, data, extack);
	if (!err)
		mrc_nl_notify_dev(mdev, MRC_CMD_DEV_CHANGE_NTF);
	return err;
}

/**
 * mrc_link_get_size() - room mrc_link_fill_info() needs
 * @dev: the mrc device
 *
 * Return: bytes.
 */
size_t mrc_link_get_size(const struct net_device *dev)
{
	return nla_total_size(sizeof(u16)) +	/* IFLA_MRC_UDP_PORT */
	       nla_total_size(sizeof(u32)) +	/* IFLA_MRC_MAX_MSG_SIZE */
	       nla_total_size(sizeof(u32)) +	/* IFLA_MRC_EVS_PER_PLANE */
	       nla_total_size(MRC_LINK_SPRAY_NAME_MAX); /* IFLA_MRC_SPRAY */
}

/**
 * mrc_link_fill_info() - a device's settings in IFLA_INFO_DATA
 * @skb: the message
 * @dev: the mrc device
 *
 * The values are those dev-get reports; each is read once (READ_ONCE:
 * they change under RTNL, which a caller need not hold).
 *
 * Return: 0 or -EMSGSIZE.
 */
int mrc_link_fill_info(struct sk_buff *skb, const struct net_device *dev)
{
	const struct mrc_dev *mdev = netdev_priv(dev);

	if (nla_put_u16(skb, IFLA_MRC_UDP_PORT, READ_ONCE(mdev->udp_port)) ||
	    nla_put_u32(skb, IFLA_MRC_MAX_MSG_SIZE, READ_ONCE(mdev->max_msg_size)) ||
	    nla_put_u32(skb, IFLA_MRC_EVS_PER_PLANE, READ_ONCE(mdev->evs_per_plane)) ||
	    nla_put_string(skb, IFLA_MRC_SPRAY, READ_ONCE(mdev->spray)->name))
		return -EMSGSIZE;
	return 0;
}

/**
 * mrc_link_get_slave_size() - room mrc_link_fill_slave_info() needs
 * @dev: the mrc device
 * @slave_dev: one of its rails
 *
 * Return: bytes.
 */
size_t mrc_link_get_slave_size(const struct net_device *dev,
			       const struct net_device *slave_dev)
{
	return 3 * nla_total_size(sizeof(u32));
}

/**
 * mrc_link_fill_slave_info() - a rail's plane and states
 * @skb: the message
 * @dev: the mrc device
 * @slave_dev: one of its rails
 *
 * The rail is looked up in @dev's plane table under RCU (callers hold
 * RTNL today; nothing here needs it).  A netdevice whose master is @dev
 * but which is no rail any more (detach in progress) gets no attributes.
 *
 * Return: 0 or -EMSGSIZE.
 */
int mrc_link_fill_slave_info(struct sk_buff *skb, const struct net_device *dev,
			     const struct net_device *slave_dev)
{
	const struct mrc_dev *mdev = netdev_priv(dev);
	int plane, err = 0;

	rcu_read_lock();
	for (plane = 0; plane < MRC_MAX_RAILS; plane++) {
		const struct mrc_rail *rail = rcu_dereference(mdev->rails[plane]);

		if (!rail || rail->dev != slave_dev)
			continue;
		if (nla_put_u32(skb, IFLA_MRC_RAIL_PLANE, READ_ONCE(rail->plane)) ||
		    nla_put_u32(skb, IFLA_MRC_RAIL_ADMIN_STATE,
				READ_ONCE(rail->admin_state)) ||
		    nla_put_u32(skb, IFLA_MRC_RAIL_OPER_STATE,
				READ_ONCE(rail->oper_state)))
			err = -EMSGSIZE;
		break;
	}
	rcu_read_unlock();
	return err;
}
