/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat.h - the only place that knows kernel versions.
 *
 * mrc builds against Debian 12's stock 6.1 and against 6.12 (the debug
 * kernel).  Every API that differs between them gets one wrapper here,
 * named after the newer API, so the rest of the code reads like 6.12.
 */
#ifndef _MRC_COMPAT_H
#define _MRC_COMPAT_H

#include <linux/version.h>
#include <linux/netdevice.h>
#include <linux/netlink.h>
#include <net/genetlink.h>
#include <net/sock.h>
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
/* 6.10 moved sk_under_memory_pressure() and friends here. */
#include <net/proto_memory.h>
#endif

/*
 * ethtool_puts(): one ETH_GSTRING_LEN string, not a format.  Upstream
 * commit 2a48c635fd9a ("ethtool: Implement ethtool_puts()") added it
 * after 6.1 (6.1's headers lack it, 6.12's have it), and distributions
 * backport it to older kernels (RHEL 9's 5.14), so no version test is
 * right: Kbuild looks for its declaration in the kernel's
 * include/linux/ethtool.h and defines MRC_HAVE_ETHTOOL_PUTS.
 */
#ifndef MRC_HAVE_ETHTOOL_PUTS
#include <linux/ethtool.h>
static inline void ethtool_puts(u8 **data, const char *str)
{
	strscpy(*data, str, ETH_GSTRING_LEN);
	*data += ETH_GSTRING_LEN;
}
#endif

/*
 * An skb freed because its socket is gone or closed: 6.12 has a reason
 * for it, 6.1 none that fits.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#define MRC_SKB_DROP_SOCKET_CLOSE	SKB_DROP_REASON_SOCKET_CLOSE
#else
#define MRC_SKB_DROP_SOCKET_CLOSE	SKB_DROP_REASON_NOT_SPECIFIED
#endif

/* 6.12 turned NETIF_F_NETNS_LOCAL into dev->netns_immutable. */
static inline void mrc_netdev_set_netns_immutable(struct net_device *dev)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
	dev->netns_immutable = true;
#else
	dev->features |= NETIF_F_NETNS_LOCAL;
#endif
}

/* 6.12 has skbs whose frags are device memory (net_iov), not pages. */
static inline bool mrc_skb_frags_readable(const struct sk_buff *skb)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
	return skb_frags_readable(skb);
#else
	return true;
#endif
}

/* 6.2 moved a dump's parsed attributes into a struct genl_info. */
static inline struct nlattr **mrc_genl_dump_attrs(struct netlink_callback *cb)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
	return genl_dumpit_info(cb)->info.attrs;
#else
	return genl_dumpit_info(cb)->attrs;
#endif
}

/* 6.12's udp_tunnel6_xmit_skb() returns void, 6.1's an int nobody needs. */
#define mrc_udp_tunnel6_xmit_skb(dst, sk, skb, dev, saddr, daddr, prio, ttl, \
				 label, sport, dport, nocheck)		      \
	((void)udp_tunnel6_xmit_skb(dst, sk, skb, dev, saddr, daddr, prio, ttl, \
				    label, sport, dport, nocheck))

/* 6.10 passes accept()'s flags in a struct proto_accept_arg. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
#define MRC_ACCEPT_ARGS		struct proto_accept_arg *arg
#define MRC_ACCEPT_FLAGS	(arg->flags)
#else
#define MRC_ACCEPT_ARGS		int flags, bool kern
#define MRC_ACCEPT_FLAGS	(flags)
#endif

#ifndef NL_SET_ERR_MSG_FMT
/*
 * 6.1 has no formatted extack messages (6.2 added a buffer inside
 * struct netlink_ext_ack).  The message must outlive the handler, up to
 * netlink_ack(), so it is formatted into one slot of a small ring; a slot
 * is reused only after MRC_EXTACK_SLOTS newer messages, far more than can
 * be in flight between a handler's return and its ack.  The last byte of
 * every slot stays NUL, so a reader never runs past it.
 */
#define MRC_EXTACK_SLOTS	64
#define MRC_EXTACK_LEN		80
const char *mrc_extack_fmt(const char *fmt, ...) __printf(1, 2);
#define NL_SET_ERR_MSG_FMT(extack, fmt, args...) do {			\
	struct netlink_ext_ack *__extack = (extack);			\
									\
	if (__extack)							\
		__extack->_msg = mrc_extack_fmt(fmt, ##args);		\
} while (0)
#define MRC_NEED_EXTACK_FMT 1
#endif

#endif /* _MRC_COMPAT_H */
