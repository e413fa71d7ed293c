/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mrc.h - objects of mrc.ko and the functions the files share.
 *
 * Reading order: main.c (module init/exit), netns.c (per-namespace
 * state), device.c (the "mrc" netdevice), rail.c (lower devices = rails),
 * netlink.c (generic netlink family "mrc"), sysfs.c, stats.c (what is
 * counted, and where), af_mrc.c (the AF_MRC socket family).
 *
 * Locking strategy
 * ================
 * - Configuration (devices, rails, planes, tunables, the per-netns device
 *   list) changes only under RTNL.  Netlink handlers, sysfs stores, the
 *   rtnl_link_ops and the netdevice notifier all run under RTNL, so they
 *   never race with each other.
 * - The data path (later) finds rails through mrc_dev.rails[] under RCU:
 *   a rail is unpublished with RCU_INIT_POINTER() and freed after a grace
 *   period (call_rcu), together with its per-CPU counters.
 * - Counters are per-CPU (u64_stats_sync), written locklessly by the CPU
 *   that owns them and summed by readers (sysfs, netlink, ndo_get_stats64);
 *   stats.c has all of them.
 * - Socket binding uses the per-netns port table's spinlock (af_mrc.c).
 * - Notifications are built from RCU-safe reads and sent with GFP_ATOMIC
 *   where the caller may be atomic (IPv6 address notifier).
 * Every struct field below says what protects it.
 */
#ifndef _MRC_H
#define _MRC_H

#include <linux/types.h>
#include <linux/list.h>
#include <linux/kobject.h>
#include <linux/moduleparam.h>
#include <linux/netdevice.h>
#include <linux/percpu.h>
#include <linux/sizes.h>
#include <linux/spinlock.h>
#include <linux/u64_stats_sync.h>
#include <uapi/linux/mrc.h>

#include "compat.h"
#include "stats.h"
#include "core/wire.h"

/**
 * struct mrc_module_params - load-time configuration of the module
 * @family: address family slot registered for AF_MRC sockets; fixed after
 *	load (parameter is read-only), so no locking is needed.
 * @udp_port: default UDP destination port given to new mrc devices; fixed
 *	after load.
 */
struct mrc_module_params {
	int family;
	int udp_port;
};

extern struct mrc_module_params mrc_params;

/*
 * MRC_PARAM_UINT_RANGE() - the writable module parameter @name, the
 * unsigned int @var (as module_param_named()), which takes only @lo..@hi:
 * anything else is EINVAL at load or on write.
 */
#define MRC_PARAM_UINT_RANGE(name, var, lo, hi)				\
	static int mrc_param_##name##_set(const char *val,		\
					  const struct kernel_param *kp) \
	{								\
		return param_set_uint_minmax(val, kp, lo, hi);		\
	}								\
	static const struct kernel_param_ops mrc_param_##name##_ops = { \
		.set = mrc_param_##name##_set,				\
		.get = param_get_uint,					\
	};								\
	module_param_cb(name, &mrc_param_##name##_ops, &(var), 0644)

/* Default of the max-msg-size tunable of a new device (1 MiB). */
#define MRC_MAX_MSG_SIZE_DEFAULT	SZ_1M

struct mrc_dev;
struct mrc_udp_port;
struct mrc_spray_ops;

/**
 * struct mrc_rail - a lower device of an mrc device (one fabric plane)
 * @mdev: the device the rail belongs to; constant while attached
 * @dev: the rail's netdevice, referenced (@dev_tracker) while attached
 * @dev_tracker: reference tracker of @dev
 * @plane: fabric plane, unique within @mdev; written under RTNL, read
 *	with READ_ONCE() elsewhere
 * @admin_state: enum mrc_admin_state; written under RTNL, READ_ONCE()
 * @oper_state: enum mrc_oper_state, derived from @admin_state and @dev's
 *	state by mrc_rail_update_state(); written under RTNL, READ_ONCE()
 * @num_rx_queues: RX queues counted in @stats (@dev->num_rx_queues at
 *	attach time); constant
 * @num_tx_queues: TX queues counted in @stats; constant
 * @mtu_vetoed: mrc refused the MTU change being notified; the core puts
 *	the old MTU back and notifies again, which mrc then ignores; RTNL
 * @stats: per-CPU counters, freed with the rail after a grace period
 * @kobj: /sys/class/net/<rail>/mrc_rail; its release frees the rail
 * @rcu: deferred free
 */
struct mrc_rail {
	struct mrc_dev *mdev;
	struct net_device *dev;
	netdevice_tracker dev_tracker;
	u32 plane;
	u32 admin_state;
	u32 oper_state;
	u32 num_rx_queues;
	u32 num_tx_queues;
	bool mtu_vetoed;
	struct mrc_pcpu_stats __percpu *stats;
	struct kobject kobj;
	struct rcu_head rcu;
};

/**
 * struct mrc_dev - private part of an mrc netdevice ("MRC NIC")
 * @dev: the netdevice; constant
 * @list: entry in the namespace's device list (struct mrc_net); RTNL
 * @rails: rails indexed by plane; written under RTNL, read under RCU
 * @nr_rails: number of non-NULL @rails; RTNL
 * @udp_port: UDP destination port of mrc packets; written under RTNL,
 *	read with READ_ONCE()
 * @max_msg_size: largest message a socket may send; written under RTNL,
 *	read with READ_ONCE()
 * @stats: per-CPU counters of the device as a whole
 * @udp: the UDP sockets of @udp_port; written under RTNL, read under RCU
 * @conns: connections running on the device; @conns_lock
 * @conns_lock: protects @conns and @dead
 * @dead: being unregistered: no connection may attach any more
 * @rmem: receive memory the device's connections committed, bytes: what
 *	they hold plus the price of the credit they granted, an idle one's
 *	only up to MRC_INITIAL_CREDIT PSNs (atomic; credit is granted only
 *	while it is under the dev_rmem_max parameter, recv.c)
 * @rmem_full: the same without the idle discount: what the connections
 *	could hold if every one used its credit; credit is granted only
 *	while it is under MRC_DEV_RMEM_OVERCOMMIT x dev_rmem_max (atomic)
 * @half_open: connections in REQ_RCVD on the device (atomic)
 * @evs_per_plane: paths per plane of new connections; RTNL, READ_ONCE()
 * @spray: path choice policy of new connections; RTNL, READ_ONCE()
 * @ev_trans: path state changes of the device's connections, by new state
 *	(enum mrc_ev_state), then replacements (MRC_STATS_EV_REPLACED)
 * @reset_rl: bounds RESET replies to packets of no connection (a flood of
 *	strays must not become a flood of replies): the jiffies (low 32 bits)
 *	that began the current second in the high half, the replies allowed
 *	in it in the low half (atomic64, mrc_reset_reply_allowed())
 */
struct mrc_dev {
	struct net_device *dev;
	struct list_head list;
	struct mrc_rail __rcu *rails[MRC_MAX_RAILS];
	u32 nr_rails;
	u16 udp_port;
	u32 max_msg_size;
	struct mrc_pcpu_stats __percpu *stats;
	struct mrc_udp_port __rcu *udp;
	struct list_head conns;
	spinlock_t conns_lock; /* see above */
	bool dead;
	atomic_long_t rmem;
	atomic_long_t rmem_full;
	atomic_t half_open;
	u32 evs_per_plane;
	const struct mrc_spray_ops *spray;
	atomic64_t ev_trans[MRC_STATS_EV_REPLACED + 1];
	atomic64_t reset_rl;
};

/**
 * struct mrc_udp_rx - how one UDP socket of a port receives (udp.c)
 * @probe_at: with rx_burst=2, while datagrams go to the encap_rcv hook:
 *	jiffies when the socket tries its queue again (read per datagram)
 * @count: with rx_burst=2, while they are queued: datagrams since the
 *	switch or since the last burst taken whole (written per datagram
 *	that is not one)
 *
 * READ_ONCE/WRITE_ONCE from any CPU's softirq, without ordering against
 * the encap_rcv switch: hints.  An increment lost in a race delays a
 * switch; a CPU that sees the new hook before the new @probe_at may try
 * the queue at once (the direct spell is then short, nothing worse).
 *
 * Aligned: the socket's sk_user_data points here, and the sk_user_data
 * of a socket keeps flags in a pointer's low 3 bits (SK_USER_DATA_*).
 */
struct mrc_udp_rx {
	unsigned long probe_at;
	unsigned int count;
} __aligned(8);

/**
 * struct mrc_udp_port - the UDP sockets receiving one udp-port
 * @node: entry in mrc_net.udp_ports; RTNL
 * @port: the port
 * @users: devices using it; RTNL
 * @sock4: IPv4 socket
 * @sock6: IPv6 socket (NULL without IPv6)
 * @rx4: @sock4's receive mode (its sk_user_data); written from any CPU,
 *	so on a cache line of its own
 * @rx6: @sock6's
 * @rcu: deferred free
 */
struct mrc_udp_port {
	struct list_head node;
	u16 port;
	unsigned int users;
	struct socket *sock4;
	struct socket *sock6;
	struct mrc_udp_rx rx4 ____cacheline_aligned_in_smp;
	struct mrc_udp_rx rx6 ____cacheline_aligned_in_smp;
	struct rcu_head rcu;
};

/**
 * struct mrc_net - per network namespace state
 * @devs: the mrc devices of the namespace; written under RTNL, read
 *	under RTNL or RCU
 * @ports: bound AF_MRC sockets, hashed by port; @ports_lock
 * @ports_lock: protects @ports
 * @udp_ports: UDP sockets, one struct per udp-port in use; RTNL
 * @conns: connections by id; written under @conns_lock, read under RCU
 * @conns_lock: protects @conns
 * @nr_conns: hashed connections (atomic)
 */
struct mrc_net {
	struct list_head devs;
	struct hlist_head ports[256];
	spinlock_t ports_lock; /* see above */
	struct list_head udp_ports;
	struct hlist_head conns[1024];
	spinlock_t conns_lock; /* see above */
	atomic_t nr_conns;
};

/* Tunables with defaults (later: per device). */
#define MRC_HALF_OPEN_MAX	1024	/* REQ_RCVD connections per device */
#define MRC_RESET_REPLY_BURST	200	/* RESET replies to strays per second per device */
#define MRC_ACCEPT_RETRIES	3	/* ACCEPT retransmissions by a half-open child */
#define MRC_RTO_MIN_US		20000	/* 20 ms: TCG timers are coarse */
#define MRC_RTO_MAX_US		2000000
#define MRC_RTO_INIT_US		200000
#define MRC_DEAD_PEER_MS	10000	/* dead_peer_ms default (no progress: ETIMEDOUT) */
#define MRC_ACK_DELAY_US	200	/* delayed-ACK bound */
/*
 * ack_pingpong_us's default: while the application answers each message
 * (pingpong), its answer carries the ACK if it leaves within this long.
 * A fifth of the peer's smallest RTO (MRC_RTO_MIN_US), as TCP's ATO
 * minimum is of its.
 */
#define MRC_ACK_PINGPONG_US	4000
/* ack_pingpong_us's largest value: what a peer's ACK may wait at most. */
#define MRC_ACK_PINGPONG_MAX_US	(MRC_RTO_MIN_US / 2)
#define MRC_ACK_RETRY_US	1000	/* an ACK that found no memory, again */
#define MRC_ACK_EVERY		16	/* ack_every default: ACK at least every N packets */
/*
 * ack_every's upper bound, and the protocol's: a receiver acknowledges at
 * least every this many DATA segments (wire.rst), which a sender relies
 * on when it does not ask for an ACK (lazy_fill_ack).
 */
#define MRC_ACK_EVERY_MAX	16
#define MRC_INITIAL_CREDIT	64	/* PSNs a REQ/ACCEPT grants, at most */
/* Idle connections' credit may add up to this many times dev_rmem_max. */
#define MRC_DEV_RMEM_OVERCOMMIT	4
#define MRC_MAX_INFLIGHT	2048	/* packets: a cap above the congestion windows */
#define MRC_EVS_PER_PLANE_DEFAULT 32	/* paths per plane of a connection */
#define MRC_EVS_PER_PLANE_MAX	256
#define MRC_PATH_NTF_MS		10	/* path-change-ntf: at most one per conn per */

/* netns.c */
struct mrc_net *mrc_net(const struct net *net);
int mrc_netns_init(void);
void mrc_netns_exit(void);

/**
 * struct mrc_dev_config - a change of a device's tunables (dev-set)
 * @has_udp_port: change @udp_port
 * @has_max_msg_size: change @max_msg_size
 * @has_evs_per_plane: change @evs_per_plane
 * @udp_port: new udp-port
 * @max_msg_size: new max-msg-size
 * @evs_per_plane: new evs-per-plane
 * @spray: name of the new spray policy, NULL: unchanged
 *
 * Filled by the caller on its stack; nothing shared.
 */
struct mrc_dev_config {
	bool has_udp_port;
	bool has_max_msg_size;
	bool has_evs_per_plane;
	u32 udp_port;
	u32 max_msg_size;
	u32 evs_per_plane;
	const char *spray;
};

/*
 * The policy entries of a device's tunables, shared by the two netlink
 * interfaces that set them: generic netlink dev-set (MRC_A_DEV_*) and
 * "ip link add/set ... type mrc" (IFLA_MRC_*).  One set of checks, so a
 * bad value gets the same errno and extack (message, attribute and the
 * policy's bounds) from either; they are the spec's checks
 * (Documentation/netlink/specs/mrc.yaml, compared by mrc_ynl.py).  The
 * spray name is checked by mrc_dev_configure(), for both too.
 */
extern struct netlink_range_validation mrc_max_msg_size_range;
#define MRC_DEV_POLICY_UDP_PORT		NLA_POLICY_MIN(NLA_U16, 1)
#define MRC_DEV_POLICY_MAX_MSG_SIZE	\
	NLA_POLICY_FULL_RANGE(NLA_U32, &mrc_max_msg_size_range)
#define MRC_DEV_POLICY_EVS_PER_PLANE	\
	NLA_POLICY_RANGE(NLA_U32, 1, MRC_EVS_PER_PLANE_MAX)
#define MRC_DEV_POLICY_SPRAY		{ .type = NLA_NUL_STRING }

/* device.c */
extern struct rtnl_link_ops mrc_link_ops;
bool netif_is_mrc(const struct net_device *dev);
struct mrc_dev *mrc_dev_get_by_index(struct net *net, int ifindex,
				     struct netlink_ext_ack *extack);
void mrc_dev_update_carrier(struct mrc_dev *mdev);
int mrc_dev_configure(struct mrc_dev *mdev, const struct mrc_dev_config *cfg,
		      struct netlink_ext_ack *extack, int *bad);
int mrc_dev_set_udp_port(struct mrc_dev *mdev, u32 port,
			 struct netlink_ext_ack *extack);
int mrc_dev_set_max_msg_size(struct mrc_dev *mdev, u32 size,
			     struct netlink_ext_ack *extack);
int mrc_dev_set_evs_per_plane(struct mrc_dev *mdev, u32 n,
			      struct netlink_ext_ack *extack);
int mrc_dev_set_spray(struct mrc_dev *mdev, const char *name,
		      struct netlink_ext_ack *extack);
int mrc_device_init(void);
void mrc_device_exit(void);

/* rail.c */
int mrc_rail_attach(struct mrc_dev *mdev, struct net_device *lower,
		    int plane, u32 admin_state, struct netlink_ext_ack *extack);
void mrc_rail_detach(struct mrc_rail *rail);
void mrc_rail_free(struct mrc_rail *rail);
struct mrc_rail *mrc_rail_from_dev(const struct net_device *lower);
struct mrc_rail *mrc_rail_from_dev_rcu(const struct net_device *lower);
int mrc_rail_set_plane(struct mrc_rail *rail, u32 plane,
		       struct netlink_ext_ack *extack);
void mrc_rail_set_admin_state(struct mrc_rail *rail, u32 state);
int mrc_rail_init(void);
void mrc_rail_exit(void);

/* netlink.c */
void mrc_nl_notify_dev(struct mrc_dev *mdev, u8 cmd);
void mrc_nl_notify_rail(struct mrc_rail *rail, u8 cmd, gfp_t gfp);
int mrc_netlink_init(void);
void mrc_netlink_exit(void);

/* ethtool.c */
extern const struct ethtool_ops mrc_ethtool_ops;

/* linkinfo.c */
extern const struct nla_policy mrc_link_policy[IFLA_MRC_MAX + 1];
bool mrc_link_config(struct nlattr *data[], struct mrc_dev_config *cfg);
int mrc_link_configure(struct mrc_dev *mdev, const struct mrc_dev_config *cfg,
		       struct nlattr *data[], struct netlink_ext_ack *extack);
int mrc_link_changelink(struct net_device *dev, struct nlattr *tb[],
			struct nlattr *data[], struct netlink_ext_ack *extack);
size_t mrc_link_get_size(const struct net_device *dev);
int mrc_link_fill_info(struct sk_buff *skb, const struct net_device *dev);
size_t mrc_link_get_slave_size(const struct net_device *dev,
			       const struct net_device *slave_dev);
int mrc_link_fill_slave_info(struct sk_buff *skb, const struct net_device *dev,
			     const struct net_device *slave_dev);

/* sysfs.c */
extern const struct attribute_group mrc_dev_sysfs_group;
extern const struct attribute_group mrc_dev_drops_group;
void mrc_sysfs_init(void);
extern const struct kobj_type mrc_rail_ktype;

/* recv.c */
void mrc_input_setup(void);

/* hostdelay.c */
/* A host wait this long or longer is not believed (reported: taken as 0). */
#define MRC_HOST_DELAY_MAX_US	1000000U
bool mrc_host_delay_offer(const struct mrc_dev *mdev);
void mrc_host_delay_sock(struct sock *sk);
u32 mrc_host_delay_us(const struct sk_buff *skb);

/* af_mrc.c */
int mrc_af_init(void);
void mrc_af_exit(void);

#endif /* _MRC_H */
