// SPDX-License-Identifier: GPL-2.0
/*
 * af_mrc.c - the AF_MRC socket family: create, bind, getsockname, close.
 *
 * socket(AF_MRC, SOCK_SEQPACKET, 0) gives a reliable-message socket.  The
 * family number is the module parameter "family" (an otherwise unused
 * slot below NPROTO, see Documentation/mrc.rst); programs read it from
 * /sys/module/mrc/parameters/family.
 *
 * An endpoint is (mrc device, port).  A socket binds to a port and
 * optionally to one mrc device (smrc_ifindex) and/or one address of one of
 * its rails (smrc_addr); in6addr_any with ifindex 0 means every mrc device
 * of the namespace.  Ports live in a per-namespace table (struct mrc_net,
 * protected by ports_lock).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/inetdevice.h>
#include <linux/module.h>
#include <linux/net.h>
#include <linux/random.h>
#include <net/addrconf.h>
#include <net/ipv6.h>
#include <net/sock.h>

#include "mrc.h"

/* Ports handed out by bind() to port 0: the IANA dynamic range. */
#define MRC_PORT_EPHEMERAL_MIN	49152
#define MRC_PORT_EPHEMERAL_MAX	65535

/**
 * struct mrc_sock - an AF_MRC socket
 * @sk: the socket; must be first
 * @bind_node: entry in the namespace's port table; ports_lock
 * @bound: @local is valid; written under lock_sock() and ports_lock
 * @local: the bound address (port in network order); as @bound
 */
struct mrc_sock {
	struct sock sk;
	struct hlist_node bind_node;
	bool bound;
	struct sockaddr_mrc local;
};

static struct mrc_sock *mrc_sk(const struct sock *sk)
{
	return container_of(sk, struct mrc_sock, sk);
}

static struct proto mrc_proto = {
	.name = "MRC",
	.owner = THIS_MODULE,
	.obj_size = sizeof(struct mrc_sock),
};

/* ---- addresses -------------------------------------------------------------- */

static bool mrc_addr_is_any(const struct in6_addr *addr)
{
	return ipv6_addr_any(addr);
}

/* Does @dev carry @addr (IPv6, or IPv4 v4-mapped)? Context: RCU. */
static bool mrc_dev_has_addr(const struct net_device *dev,
			     const struct in6_addr *addr)
{
	if (ipv6_addr_v4mapped(addr)) {
		const struct in_device *in_dev = __in_dev_get_rcu(dev);
		const struct in_ifaddr *ifa;

		if (!in_dev)
			return false;
		in_dev_for_each_ifa_rcu(ifa, in_dev)
			if (ifa->ifa_local == addr->s6_addr32[3])
				return true;
		return false;
	}
#if IS_ENABLED(CONFIG_IPV6)
	{
		const struct inet6_dev *idev = __in6_dev_get(dev);
		const struct inet6_ifaddr *ifa6;

		if (!idev)
			return false;
		list_for_each_entry_rcu(ifa6, &idev->addr_list, if_list)
			if (ipv6_addr_equal(&ifa6->addr, addr))
				return true;
	}
#endif
	return false;
}

/* Is @addr an address of a rail of @mdev (or of any mrc device)? RCU. */
static bool mrc_addr_is_local(struct net *net, const struct mrc_dev *only,
			      const struct in6_addr *addr)
{
	const struct mrc_dev *mdev;
	int plane;

	list_for_each_entry_rcu(mdev, &mrc_net(net)->devs, list) {
		if (only && mdev != only)
			continue;
		for (plane = 0; plane < MRC_MAX_RAILS; plane++) {
			const struct mrc_rail *rail = rcu_dereference(mdev->rails[plane]);

			if (rail && mrc_dev_has_addr(rail->dev, addr))
				return true;
		}
	}
	return false;
}

static int mrc_bind_check_addr(struct net *net, const struct sockaddr_mrc *a)
{
	const struct mrc_dev *mdev = NULL;
	int err = 0;

	rcu_read_lock();
	if (a->smrc_ifindex) {
		struct net_device *dev = dev_get_by_index_rcu(net, a->smrc_ifindex);

		if (!dev || !netif_is_mrc(dev)) {
			err = -ENODEV;
			goto out;
		}
		mdev = netdev_priv(dev);
	}
	if (!mrc_addr_is_any(&a->smrc_addr) &&
	    !mrc_addr_is_local(net, mdev, &a->smrc_addr))
		err = -EADDRNOTAVAIL;
out:
	rcu_read_unlock();
	return err;
}

/* ---- the port table ----------------------------------------------------------- */

static struct hlist_head *mrc_port_bucket(struct mrc_net *mn, u16 port)
{
	return &mn->ports[port % ARRAY_SIZE(mn->ports)];
}

/*
 * Two bindings of the same port clash when their devices and addresses
 * overlap (equal, or either one a wildcard), unless both sockets set
 * SO_REUSEADDR.  Context: ports_lock.
 */
static bool mrc_port_clash(struct mrc_net *mn, u16 port,
			   const struct sockaddr_mrc *a, bool reuse)
{
	struct mrc_sock *other;

	hlist_for_each_entry(other, mrc_port_bucket(mn, port), bind_node) {
		const struct sockaddr_mrc *o = &other->local;

		if (ntohs(o->smrc_port) != port)
			continue;
		if (o->smrc_ifindex && a->smrc_ifindex &&
		    o->smrc_ifindex != a->smrc_ifindex)
			continue;
		if (!mrc_addr_is_any(&o->smrc_addr) && !mrc_addr_is_any(&a->smrc_addr) &&
		    !ipv6_addr_equal(&o->smrc_addr, &a->smrc_addr))
			continue;
		if (reuse && other->sk.sk_reuse)
			continue;
		return true;
	}
	return false;
}

/* Pick a free ephemeral port, or 0 if all are taken. Context: ports_lock. */
static u16 mrc_port_ephemeral(struct mrc_net *mn, const struct sockaddr_mrc *a,
			      bool reuse)
{
	u32 range = MRC_PORT_EPHEMERAL_MAX - MRC_PORT_EPHEMERAL_MIN + 1;
	u32 off = get_random_u32_below(range);
	u32 i;

	for (i = 0; i < range; i++) {
		u16 port = MRC_PORT_EPHEMERAL_MIN + (off + i) % range;

		if (!mrc_port_clash(mn, port, a, reuse))
			return port;
	}
	return 0;
}

/* ---- socket operations ---------------------------------------------------------- */

static int mrc_bind(struct socket *sock, struct sockaddr *uaddr, int addr_len)
{
	struct sockaddr_mrc a;
	struct sock *sk = sock->sk;
	struct mrc_sock *ms = mrc_sk(sk);
	struct net *net = sock_net(sk);
	struct mrc_net *mn = mrc_net(net);
	u16 port;
	int err;

	if (addr_len < (int)sizeof(a))
		return -EINVAL;
	memcpy(&a, uaddr, sizeof(a));
	if (a.smrc_family != mrc_params.family)
		return -EAFNOSUPPORT;
	if (memchr_inv(a.smrc_zero, 0, sizeof(a.smrc_zero)))
		return -EINVAL;
	port = ntohs(a.smrc_port);
	if (port && port < PROT_SOCK &&
	    !ns_capable(net->user_ns, CAP_NET_BIND_SERVICE))
		return -EACCES;

	lock_sock(sk);
	if (ms->bound) {
		err = -EINVAL;
		goto out;
	}
	err = mrc_bind_check_addr(net, &a);
	if (err)
		goto out;

	spin_lock_bh(&mn->ports_lock);
	if (!port) {
		port = mrc_port_ephemeral(mn, &a, sk->sk_reuse);
		if (!port)
			err = -EADDRINUSE;
	} else if (mrc_port_clash(mn, port, &a, sk->sk_reuse)) {
		err = -EADDRINUSE;
	}
	if (!err) {
		a.smrc_port = htons(port);
		ms->local = a;
		ms->bound = true;
		hlist_add_head(&ms->bind_node, mrc_port_bucket(mn, port));
	}
	spin_unlock_bh(&mn->ports_lock);
out:
	release_sock(sk);
	return err;
}

static int mrc_getname(struct socket *sock, struct sockaddr *uaddr, int peer)
{
	struct sockaddr_mrc *a = (struct sockaddr_mrc *)uaddr;
	struct sock *sk = sock->sk;
	struct mrc_sock *ms = mrc_sk(sk);

	if (peer)
		return -ENOTCONN;
	lock_sock(sk);
	if (ms->bound)
		*a = ms->local;
	else
		memset(a, 0, sizeof(*a));
	a->smrc_family = mrc_params.family;
	release_sock(sk);
	return sizeof(*a);
}

static int mrc_setsockopt(struct socket *sock, int level, int optname,
			  sockptr_t optval, unsigned int optlen)
{
	return -ENOPROTOOPT;
}

static int mrc_getsockopt(struct socket *sock, int level, int optname,
			  char __user *optval, int __user *optlen)
{
	return -ENOPROTOOPT;
}

static int mrc_release(struct socket *sock)
{
	struct sock *sk = sock->sk;
	struct mrc_sock *ms;
	struct mrc_net *mn;

	if (!sk)
		return 0;
	ms = mrc_sk(sk);
	mn = mrc_net(sock_net(sk));

	lock_sock(sk);
	if (ms->bound) {
		spin_lock_bh(&mn->ports_lock);
		hlist_del_init(&ms->bind_node);
		ms->bound = false;
		spin_unlock_bh(&mn->ports_lock);
	}
	sock_orphan(sk);
	release_sock(sk);
	sock->sk = NULL;
	sock_put(sk);
	return 0;
}

/*
 * The family number is only known at load time.  The core never reads
 * proto_ops.family (it dispatches on net_proto_family, below, and reports
 * sk->sk_family), so it stays unset here and the ops stay const.
 */
static const struct proto_ops mrc_seqpacket_ops = {
	.family = PF_UNSPEC,
	.owner = THIS_MODULE,
	.release = mrc_release,
	.bind = mrc_bind,
	.connect = sock_no_connect,
	.socketpair = sock_no_socketpair,
	.accept = sock_no_accept,
	.getname = mrc_getname,
	.poll = datagram_poll,
	.listen = sock_no_listen,
	.shutdown = sock_no_shutdown,
	.setsockopt = mrc_setsockopt,
	.getsockopt = mrc_getsockopt,
	.sendmsg = sock_no_sendmsg,
	.recvmsg = sock_no_recvmsg,
	.mmap = sock_no_mmap,
};

static int mrc_create(struct net *net, struct socket *sock, int protocol,
		      int kern)
{
	struct sock *sk;

	if (sock->type != SOCK_SEQPACKET)
		return -ESOCKTNOSUPPORT;
	if (protocol != 0)
		return -EPROTONOSUPPORT;

	sk = sk_alloc(net, mrc_params.family, GFP_KERNEL, &mrc_proto, kern);
	if (!sk)
		return -ENOMEM;
	sock->ops = &mrc_seqpacket_ops;
	sock->state = SS_UNCONNECTED;
	sock_init_data(sock, sk);
	INIT_HLIST_NODE(&mrc_sk(sk)->bind_node);
	return 0;
}

static struct net_proto_family mrc_family_ops __ro_after_init = {
	.create = mrc_create,
	.owner = THIS_MODULE,
};

/**
 * mrc_af_init() - register the AF_MRC socket family
 *
 * Return: 0, or a negative errno (-EEXIST if the family slot is taken).
 */
int mrc_af_init(void)
{
	int err;

	err = proto_register(&mrc_proto, 1);
	if (err)
		return err;
	mrc_family_ops.family = mrc_params.family;
	err = sock_register(&mrc_family_ops);
	if (err) {
		if (err == -EEXIST)
			pr_err("address family %d is already registered by another protocol; load mrc with family=N naming a free slot\n",
			       mrc_params.family);
		proto_unregister(&mrc_proto);
	}
	return err;
}

/**
 * mrc_af_exit() - unregister the AF_MRC socket family
 */
void mrc_af_exit(void)
{
	sock_unregister(mrc_params.family);
	proto_unregister(&mrc_proto);
}
