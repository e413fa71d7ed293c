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

#include "core/psn.h"
#include "sock.h"

/* Ports handed out by bind() to port 0: the IANA dynamic range. */
#define MRC_PORT_EPHEMERAL_MIN	49152
#define MRC_PORT_EPHEMERAL_MAX	65535

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

/* Validate an address given by the user (bind, connect). */
static int mrc_check_uaddr(const struct sockaddr *uaddr, int addr_len,
			   struct sockaddr_mrc *a)
{
	if (addr_len < (int)sizeof(*a))
		return -EINVAL;
	memcpy(a, uaddr, sizeof(*a));
	if (a->smrc_family != mrc_params.family)
		return -EAFNOSUPPORT;
	if (memchr_inv(a->smrc_zero, 0, sizeof(a->smrc_zero)))
		return -EINVAL;
	return 0;
}

/* Bind @ms to @a (port 0: ephemeral). Context: lock_sock held. */
static int mrc_do_bind(struct mrc_sock *ms, struct sockaddr_mrc *a)
{
	struct sock *sk = &ms->sk;
	struct net *net = sock_net(sk);
	struct mrc_net *mn = mrc_net(net);
	u16 port = ntohs(a->smrc_port);
	int err;

	if (port && port < PROT_SOCK &&
	    !ns_capable(net->user_ns, CAP_NET_BIND_SERVICE))
		return -EACCES;
	if (ms->bound)
		return -EINVAL;
	err = mrc_bind_check_addr(net, a);
	if (err)
		return err;

	spin_lock_bh(&mn->ports_lock);
	if (!port) {
		port = mrc_port_ephemeral(mn, a, sk->sk_reuse);
		if (!port)
			err = -EADDRINUSE;
	} else if (mrc_port_clash(mn, port, a, sk->sk_reuse)) {
		err = -EADDRINUSE;
	}
	if (!err) {
		a->smrc_port = htons(port);
		ms->local = *a;
		ms->bound = true;
		hlist_add_head(&ms->bind_node, mrc_port_bucket(mn, port));
	}
	spin_unlock_bh(&mn->ports_lock);
	return err;
}

static void mrc_unbind(struct mrc_sock *ms)
{
	struct mrc_net *mn = mrc_net(sock_net(&ms->sk));

	spin_lock_bh(&mn->ports_lock);
	if (!hlist_unhashed(&ms->bind_node))
		hlist_del_init(&ms->bind_node);
	spin_unlock_bh(&mn->ports_lock);
}

static int mrc_bind(struct socket *sock, struct sockaddr *uaddr, int addr_len)
{
	struct mrc_sock *ms = mrc_sk(sock->sk);
	struct sockaddr_mrc a;
	int err;

	err = mrc_check_uaddr(uaddr, addr_len, &a);
	if (err)
		return err;
	lock_sock(&ms->sk);
	err = mrc_do_bind(ms, &a);
	release_sock(&ms->sk);
	return err;
}

/* Bind to an ephemeral port on every device, if not bound yet. */
static int mrc_autobind(struct mrc_sock *ms)
{
	struct sockaddr_mrc a = { .smrc_family = mrc_params.family };

	return ms->bound ? 0 : mrc_do_bind(ms, &a);
}

/* ---- listeners and their children ------------------------------------------ */

/**
 * mrc_listener_lookup() - the listener a REQ is for
 * @net: the namespace
 * @mdev: the device the REQ came in on
 * @port: the mrc port it names
 * @daddr: the address it was sent to
 *
 * The most specific binding wins (address, then device, then wildcard).
 * Context: softirq.  Return: the listener, referenced, or NULL.
 */
struct mrc_sock *mrc_listener_lookup(struct net *net, struct mrc_dev *mdev,
				     u16 port, const struct in6_addr *daddr)
{
	struct mrc_net *mn = mrc_net(net);
	struct mrc_sock *ms, *best = NULL;
	int score, best_score = -1;

	spin_lock_bh(&mn->ports_lock);
	hlist_for_each_entry(ms, mrc_port_bucket(mn, port), bind_node) {
		const struct sockaddr_mrc *a = &ms->local;

		if (ntohs(a->smrc_port) != port ||
		    READ_ONCE(ms->state) != MRC_ST_LISTEN)
			continue;
		if (a->smrc_ifindex && a->smrc_ifindex != mdev->dev->ifindex)
			continue;
		if (!mrc_addr_is_any(&a->smrc_addr) &&
		    !ipv6_addr_equal(&a->smrc_addr, daddr))
			continue;
		score = !mrc_addr_is_any(&a->smrc_addr) * 2 + !!a->smrc_ifindex;
		if (score > best_score) {
			best = ms;
			best_score = score;
		}
	}
	if (best)
		sock_hold(&best->sk);
	spin_unlock_bh(&mn->ports_lock);
	return best;
}

/**
 * mrc_listener_full() - would another child exceed the backlog?
 * @lis: the listener
 *
 * Return: true if half-open plus queued children reach the backlog.
 */
bool mrc_listener_full(struct mrc_sock *lis)
{
	bool full;

	spin_lock(&lis->accept_lock);
	full = lis->half_open + READ_ONCE(lis->sk.sk_ack_backlog) >=
	       READ_ONCE(lis->sk.sk_max_ack_backlog);
	spin_unlock(&lis->accept_lock);
	return full;
}

/**
 * mrc_listener_add_half_open() - a REQ made a child
 * @lis: the listener
 * @child: the child (REQ_RCVD); the list takes a reference
 */
void mrc_listener_add_half_open(struct mrc_sock *lis, struct mrc_sock *child)
{
	sock_hold(&child->sk);
	spin_lock(&lis->accept_lock);
	list_add_tail(&child->accept_node, &lis->half_open_list);
	lis->half_open++;
	spin_unlock(&lis->accept_lock);
}

/**
 * mrc_conn_established() - a half-open child heard from its client
 * @ms: the child (conn lock)
 * @xq: unused (the child has nothing to send yet)
 *
 * Moves it to its listener's accept queue and wakes accept().
 */
void mrc_conn_established(struct mrc_sock *ms, struct sk_buff_head *xq)
{
	struct mrc_sock *lis = ms->listener;

	ms->state = MRC_ST_ESTABLISHED;
	ms->backoff = 0;
	ms->last_progress = jiffies;
	sk_stop_timer(&ms->sk, &ms->rto_timer);
	if (ms->mdev)
		atomic_dec(&ms->mdev->half_open);
	if (!lis)
		return;
	spin_lock(&lis->accept_lock);
	if (!list_empty(&ms->accept_node)) {
		list_move_tail(&ms->accept_node, &lis->accept_queue);
		lis->half_open--;
		sk_acceptq_added(&lis->sk);
	}
	spin_unlock(&lis->accept_lock);
	lis->sk.sk_data_ready(&lis->sk);
}

/**
 * mrc_listener_forget() - a child died before it was accepted
 * @lis: its listener
 * @child: the child (conn lock)
 * @half_open: it died in REQ_RCVD (it counts in @lis's half_open)
 */
void mrc_listener_forget(struct mrc_sock *lis, struct mrc_sock *child,
			 bool half_open)
{
	bool listed;

	spin_lock(&lis->accept_lock);
	listed = !list_empty(&child->accept_node);
	if (listed)
		list_del_init(&child->accept_node);
	if (listed && half_open)
		lis->half_open--;
	spin_unlock(&lis->accept_lock);
	if (listed)
		__sock_put(&child->sk);	/* the caller holds a reference */
}

static void mrc_sk_destruct(struct sock *sk)
{
	struct mrc_sock *ms = mrc_sk(sk);

	mrc_conn_destroy(ms);
	if (ms->listener)
		sock_put(&ms->listener->sk);
}

static void mrc_sock_setup(struct mrc_sock *ms)
{
	struct sock *sk = &ms->sk;

	sk->sk_destruct = mrc_sk_destruct;
	sock_set_flag(sk, SOCK_RCU_FREE);
	INIT_HLIST_NODE(&ms->bind_node);
	spin_lock_init(&ms->accept_lock);
	mrc_conn_init(ms);
	mrc_input_init(ms);
}

/**
 * mrc_child_alloc() - a socket for a connection coming in to @lis
 * @lis: the listener
 *
 * Context: softirq.  Return: the child (one reference, ours), or NULL.
 */
struct mrc_sock *mrc_child_alloc(struct mrc_sock *lis)
{
	struct sock *sk;
	struct mrc_sock *ms;

	sk = sk_alloc(sock_net(&lis->sk), mrc_params.family, GFP_ATOMIC,
		      &mrc_proto, 0);
	if (!sk)
		return NULL;
	sock_init_data(NULL, sk);
	sk->sk_type = SOCK_SEQPACKET;
	sk->sk_sndbuf = READ_ONCE(lis->sk.sk_sndbuf);
	sk->sk_rcvbuf = READ_ONCE(lis->sk.sk_rcvbuf);
	ms = mrc_sk(sk);
	mrc_sock_setup(ms);
	sock_hold(&lis->sk);
	ms->listener = lis;
	return ms;
}

/**
 * mrc_child_drop() - free a child that never became reachable
 * @lis: its listener
 * @child: the child, unhashed, without timers
 */
void mrc_child_drop(struct mrc_sock *lis, struct mrc_sock *child)
{
	sock_put(&child->sk);
}

/* The listener closes: abort every child it still holds. */
static void mrc_listener_close(struct mrc_sock *lis)
{
	struct sk_buff_head xq;
	struct mrc_sock *child;

	__skb_queue_head_init(&xq);
	for (;;) {
		spin_lock_bh(&lis->accept_lock);
		child = list_first_entry_or_null(&lis->half_open_list,
						 struct mrc_sock, accept_node);
		if (!child)
			child = list_first_entry_or_null(&lis->accept_queue,
							 struct mrc_sock, accept_node);
		if (child) {
			list_del_init(&child->accept_node);
			if (child->state == MRC_ST_REQ_RCVD)
				lis->half_open--;
			else
				sk_acceptq_removed(&lis->sk);
		}
		spin_unlock_bh(&lis->accept_lock);
		if (!child)
			break;
		rcu_read_lock();
		spin_lock_bh(&child->lock);
		if (child->state == MRC_ST_REQ_RCVD && child->mdev)
			atomic_dec(&child->mdev->half_open);
		child->state = child->state == MRC_ST_REQ_RCVD ?
			       MRC_ST_ESTABLISHED : child->state;
		mrc_conn_abort(child, ECONNABORTED, true, &xq);
		spin_unlock_bh(&child->lock);
		mrc_xmit_list(sock_net(&lis->sk), &xq);
		rcu_read_unlock();
		sock_put(&child->sk);	/* the list's reference */
	}
}

/* ---- socket operations ---------------------------------------------------------- */

static int mrc_listen(struct socket *sock, int backlog)
{
	struct sock *sk = sock->sk;
	struct mrc_sock *ms = mrc_sk(sk);
	int err = 0;

	lock_sock(sk);
	if (ms->state == MRC_ST_LISTEN) {
		WRITE_ONCE(sk->sk_max_ack_backlog, backlog);
		goto out;
	}
	if (ms->state != MRC_ST_CLOSED || ms->mdev || ms->txrec) {
		err = -EINVAL;
		goto out;
	}
	err = mrc_autobind(ms);
	if (err)
		goto out;
	WRITE_ONCE(sk->sk_max_ack_backlog, backlog);
	WRITE_ONCE(ms->state, MRC_ST_LISTEN);
out:
	release_sock(sk);
	return err;
}

static int mrc_accept_common(struct socket *sock, struct socket *newsock,
			     int flags)
{
	struct sock *sk = sock->sk;
	struct mrc_sock *lis = mrc_sk(sk), *child = NULL;
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	long timeo;
	int err = 0;

	lock_sock(sk);
	if (lis->state != MRC_ST_LISTEN) {
		err = -EINVAL;
		goto out;
	}
	timeo = sock_rcvtimeo(sk, flags & O_NONBLOCK);
	add_wait_queue(sk_sleep(sk), &wait);
	for (;;) {
		spin_lock_bh(&lis->accept_lock);
		child = list_first_entry_or_null(&lis->accept_queue,
						 struct mrc_sock, accept_node);
		if (child) {
			list_del_init(&child->accept_node);
			sk_acceptq_removed(sk);
		}
		spin_unlock_bh(&lis->accept_lock);
		if (child)
			break;
		if (!timeo) {
			err = -EAGAIN;
			break;
		}
		if (signal_pending(current)) {
			err = sock_intr_errno(timeo);
			break;
		}
		release_sock(sk);
		timeo = wait_woken(&wait, TASK_INTERRUPTIBLE, timeo);
		lock_sock(sk);
		if (lis->state != MRC_ST_LISTEN) {
			err = -EINVAL;
			break;
		}
	}
	remove_wait_queue(sk_sleep(sk), &wait);
	if (!child)
		goto out;

	/* The accept queue's reference becomes the new socket's. */
	lock_sock_nested(&child->sk, SINGLE_DEPTH_NESTING);
	sock_graft(&child->sk, newsock);
	newsock->state = SS_CONNECTED;
	newsock->ops = sock->ops;
	spin_lock_bh(&child->lock);
	lis = child->listener;
	child->listener = NULL;
	spin_unlock_bh(&child->lock);
	release_sock(&child->sk);
	if (lis)
		sock_put(&lis->sk);
out:
	release_sock(sk);
	return err;
}

static int mrc_accept(struct socket *sock, struct socket *newsock,
		      MRC_ACCEPT_ARGS)
{
	return mrc_accept_common(sock, newsock, MRC_ACCEPT_FLAGS);
}

/* Wait while @cond is false; see sk_wait_event(). lock_sock held. */
#define mrc_wait(sk, timeo, cond) ({					\
	struct sock *__sk = (sk);					\
	DEFINE_WAIT_FUNC(__wait, woken_wake_function);			\
	int __rc;							\
									\
	add_wait_queue(sk_sleep(__sk), &__wait);			\
	__rc = sk_wait_event(__sk, timeo, cond, &__wait);		\
	remove_wait_queue(sk_sleep(__sk), &__wait);			\
	__rc;								\
})

static int mrc_connect(struct socket *sock, struct sockaddr *uaddr,
		       int addr_len, int flags)
{
	struct sock *sk = sock->sk;
	struct mrc_sock *ms = mrc_sk(sk);
	struct sk_buff_head xq;
	struct sockaddr_mrc a;
	struct mrc_dev *mdev;
	long timeo;
	u8 plane;
	int err;

	err = mrc_check_uaddr(uaddr, addr_len, &a);
	if (err)
		return err;
	if (!a.smrc_port || mrc_addr_is_any(&a.smrc_addr))
		return -EINVAL;

	lock_sock(sk);
	switch (READ_ONCE(ms->state)) {
	case MRC_ST_ESTABLISHED:
	case MRC_ST_TIME_WAIT:
		err = -EISCONN;
		goto out;
	case MRC_ST_REQ_SENT:
		err = -EALREADY;
		goto wait;
	case MRC_ST_LISTEN:
		err = -EINVAL;
		goto out;
	}
	if (ms->txrec) {
		/* Used: connected and over, or failed to connect. */
		err = sock_error(sk) ?: -EISCONN;
		goto out;
	}
	err = mrc_autobind(ms);
	if (err)
		goto out;

	__skb_queue_head_init(&xq);
	rcu_read_lock();
	mdev = mrc_connect_route(sock_net(sk), ms->local.smrc_ifindex,
				 &a.smrc_addr, &plane);
	if (!mdev) {
		rcu_read_unlock();
		err = -ENETUNREACH;
		goto out;
	}
	ms->peer = a;
	err = mrc_connect_start(ms, mdev, plane, &xq);
	mrc_xmit_list(sock_net(sk), &xq);
	rcu_read_unlock();
	if (err)
		goto out;
	sock->state = SS_CONNECTING;
	err = -EINPROGRESS;
wait:
	timeo = sock_sndtimeo(sk, flags & O_NONBLOCK);
	if (!timeo)
		goto out;
	if (!mrc_wait(sk, &timeo, READ_ONCE(ms->state) != MRC_ST_REQ_SENT)) {
		err = signal_pending(current) ? sock_intr_errno(timeo) : -EINPROGRESS;
		goto out;
	}
	if (READ_ONCE(ms->state) == MRC_ST_ESTABLISHED) {
		sock->state = SS_CONNECTED;
		err = 0;
	} else {
		sock->state = SS_UNCONNECTED;
		err = sock_error(sk) ?: -ECONNREFUSED;
	}
out:
	release_sock(sk);
	return err;
}

static int mrc_getname(struct socket *sock, struct sockaddr *uaddr, int peer)
{
	struct sockaddr_mrc *a = (struct sockaddr_mrc *)uaddr;
	struct sock *sk = sock->sk;
	struct mrc_sock *ms = mrc_sk(sk);

	lock_sock(sk);
	if (peer) {
		if (!ms->peer_id || ms->state != MRC_ST_ESTABLISHED) {
			release_sock(sk);
			return -ENOTCONN;
		}
		*a = ms->peer;
	} else if (ms->bound) {
		*a = ms->local;
	} else {
		memset(a, 0, sizeof(*a));
	}
	a->smrc_family = mrc_params.family;
	release_sock(sk);
	return sizeof(*a);
}

/*
 * Largest message this connection carries; 0 once it left its device.
 * A RESET or the device's deletion can end the connection (and clear
 * @mdev, whose reference goes after a grace period) under a sender that
 * already saw it established: read @mdev once, under RCU.
 */
static u32 mrc_max_msg(const struct mrc_sock *ms)
{
	const struct mrc_dev *mdev;
	u32 m = 0;

	rcu_read_lock();
	mdev = READ_ONCE(ms->mdev);
	if (mdev)
		m = READ_ONCE(mdev->max_msg_size);
	rcu_read_unlock();
	return min(m, ms->peer_max_msg);
}

static int mrc_sendmsg(struct socket *sock, struct msghdr *msg, size_t len)
{
	struct sock *sk = sock->sk;
	struct mrc_sock *ms = mrc_sk(sk);
	int flags = msg->msg_flags;
	long timeo;
	u32 max;
	int err;

	if (flags & ~(MSG_DONTWAIT | MSG_NOSIGNAL | MSG_EOR | MSG_CMSG_COMPAT))
		return -EOPNOTSUPP;
	if (msg->msg_name)
		return -EISCONN;

	lock_sock(sk);
	err = sock_error(sk);
	if (err)
		goto out;
	if (ms->close_queued || (sk->sk_shutdown & SEND_SHUTDOWN)) {
		err = -EPIPE;
		goto pipe;
	}
	if (READ_ONCE(ms->state) != MRC_ST_ESTABLISHED) {
		err = ms->txrec ? -EPIPE : -ENOTCONN;
		if (err == -EPIPE)
			goto pipe;
		goto out;
	}
	if (!len) {
		err = -EINVAL;
		goto out;
	}
	max = mrc_max_msg(ms);
	if (!max) {
		/* Ended since the check above: as if it had been seen. */
		err = sock_error(sk);
		if (err)
			goto out;
		err = -EPIPE;
		goto pipe;
	}
	if (len > max) {
		err = -EMSGSIZE;
		goto out;
	}

	timeo = sock_sndtimeo(sk, flags & MSG_DONTWAIT);
	while (sk_wmem_alloc_get(sk) >= READ_ONCE(sk->sk_sndbuf)) {
		if (!timeo) {
			err = -EAGAIN;
			goto out;
		}
		set_bit(SOCK_NOSPACE, &sk->sk_socket->flags);
		mrc_wait(sk, &timeo, sk_wmem_alloc_get(sk) < READ_ONCE(sk->sk_sndbuf) ||
			 READ_ONCE(sk->sk_err) ||
			 READ_ONCE(ms->state) != MRC_ST_ESTABLISHED);
		err = sock_error(sk);
		if (err)
			goto out;
		if (READ_ONCE(ms->state) != MRC_ST_ESTABLISHED) {
			err = -EPIPE;
			goto pipe;
		}
		if (signal_pending(current)) {
			err = sock_intr_errno(timeo);
			goto out;
		}
	}
	if (ms->txw.nxt - ms->txw.una >= ms->txw.size / 2)
		mrc_output_grow(ms);
	err = mrc_output_queue_msg(ms, msg, len);
	if (!err)
		err = len;
	goto out;
pipe:
	if (!(flags & MSG_NOSIGNAL))
		send_sig(SIGPIPE, current, 0);
out:
	release_sock(sk);
	return err;
}

/* recvmsg() readiness for mrc_wait(). */
static bool mrc_rx_ready(struct mrc_sock *ms)
{
	bool ready;

	spin_lock_bh(&ms->lock);
	ready = mrc_input_msg_ready(ms) >= 0;
	spin_unlock_bh(&ms->lock);
	return ready || READ_ONCE(ms->sk.sk_err) ||
	       (READ_ONCE(ms->sk.sk_shutdown) & RCV_SHUTDOWN) ||
	       (READ_ONCE(ms->state) != MRC_ST_ESTABLISHED &&
		READ_ONCE(ms->state) != MRC_ST_TIME_WAIT);
}

static int mrc_recvmsg(struct socket *sock, struct msghdr *msg, size_t len,
		       int flags)
{
	struct sock *sk = sock->sk;
	struct mrc_sock *ms = mrc_sk(sk);
	struct mrc_rx_msg *m = NULL;
	struct sk_buff_head xq;
	struct sk_buff *skb;
	size_t copied = 0;
	u32 rwnd, mlen;
	long timeo;
	int err = 0, r;

	if (flags & ~(MSG_DONTWAIT | MSG_PEEK | MSG_TRUNC | MSG_CMSG_COMPAT |
		      MSG_WAITALL | MSG_NOSIGNAL))
		return -EOPNOTSUPP;

	lock_sock(sk);
	timeo = sock_rcvtimeo(sk, flags & MSG_DONTWAIT);
	for (;;) {
		spin_lock_bh(&ms->lock);
		r = -EAGAIN;
		if (ms->state == MRC_ST_ESTABLISHED || ms->state == MRC_ST_TIME_WAIT)
			r = mrc_input_msg_ready(ms);
		if (r > 0) {
			rwnd = mrc_input_rwnd_now(ms);
			m = mrc_input_take_msg(ms);
		}
		spin_unlock_bh(&ms->lock);
		if (m)
			break;
		if (r == 0)
			goto out;		/* the peer closed: end of file */
		err = sock_error(sk);
		if (err)
			goto out;
		if (sk->sk_shutdown & RCV_SHUTDOWN)
			goto out;
		if (READ_ONCE(ms->state) != MRC_ST_ESTABLISHED) {
			err = ms->txrec ? 0 : -ENOTCONN;
			goto out;
		}
		if (!timeo) {
			err = -EAGAIN;
			goto out;
		}
		mrc_wait(sk, &timeo, mrc_rx_ready(ms));
		if (signal_pending(current)) {
			err = sock_intr_errno(timeo);
			goto out;
		}
	}

	mlen = m->len;
	skb_queue_walk(&m->segs, skb) {
		size_t n = min_t(size_t, skb->len, len - copied);

		if (!n)
			break;
		err = skb_copy_datagram_msg(skb, 0, msg, n);
		if (err)
			break;
		copied += n;
	}
	if (mlen > len)
		msg->msg_flags |= MSG_TRUNC;

	__skb_queue_head_init(&xq);
	rcu_read_lock();
	spin_lock_bh(&ms->lock);
	if ((flags & MSG_PEEK) &&
	    (ms->state == MRC_ST_ESTABLISHED || ms->state == MRC_ST_TIME_WAIT) &&
	    !xa_err(xa_store(&ms->rx_msgs, ms->rcv_msg_id - 1, m, GFP_ATOMIC))) {
		/* Put the message back where it was. */
		ms->rcv_msg_id--;
		ms->stats.rx_msgs--;
		ms->stats.rx_bytes -= mlen;
		m = NULL;
	} else {
		mrc_input_window_update(ms, &xq, rwnd);
	}
	spin_unlock_bh(&ms->lock);
	mrc_xmit_list(sock_net(sk), &xq);
	rcu_read_unlock();
	if (m)
		mrc_input_free_msg(m);
	if (!err)
		err = (flags & MSG_TRUNC) ? mlen : copied;
out:
	release_sock(sk);
	return err;
}

static __poll_t mrc_poll(struct file *file, struct socket *sock,
			 poll_table *wait)
{
	struct sock *sk = sock->sk;
	struct mrc_sock *ms = mrc_sk(sk);
	__poll_t mask = 0;

	sock_poll_wait(file, sock, wait);
	if (READ_ONCE(sk->sk_err))
		mask |= EPOLLERR;
	if (READ_ONCE(sk->sk_shutdown) & RCV_SHUTDOWN)
		mask |= EPOLLIN | EPOLLRDNORM | EPOLLRDHUP;

	if (READ_ONCE(ms->state) == MRC_ST_LISTEN) {
		spin_lock_bh(&ms->accept_lock);
		if (!list_empty(&ms->accept_queue))
			mask |= EPOLLIN | EPOLLRDNORM;
		spin_unlock_bh(&ms->accept_lock);
		return mask;
	}

	spin_lock_bh(&ms->lock);
	switch (ms->state) {
	case MRC_ST_ESTABLISHED:
	case MRC_ST_TIME_WAIT:
		if (mrc_input_msg_ready(ms) >= 0)
			mask |= EPOLLIN | EPOLLRDNORM;
		if (ms->peer_closed)
			mask |= EPOLLRDHUP;
		if (ms->state == MRC_ST_ESTABLISHED && !ms->close_queued &&
		    sk_wmem_alloc_get(sk) < READ_ONCE(sk->sk_sndbuf))
			mask |= EPOLLOUT | EPOLLWRNORM;
		if (ms->peer_closed && ms->close_acked)
			mask |= EPOLLHUP;
		break;
	case MRC_ST_CLOSED:
		if (ms->txrec)	/* was connected or connecting: it is over */
			mask |= EPOLLHUP | EPOLLIN | EPOLLRDNORM | EPOLLRDHUP;
		break;
	}
	spin_unlock_bh(&ms->lock);
	return mask;
}

static int mrc_shutdown(struct socket *sock, int how)
{
	struct sock *sk = sock->sk;
	struct mrc_sock *ms = mrc_sk(sk);
	struct sk_buff_head xq;
	int err = 0;

	how++;	/* SHUT_RD -> RCV_SHUTDOWN, SHUT_WR -> SEND_SHUTDOWN */
	if (how & ~SHUTDOWN_MASK || !how)
		return -EINVAL;

	lock_sock(sk);
	if (READ_ONCE(ms->state) != MRC_ST_ESTABLISHED &&
	    READ_ONCE(ms->state) != MRC_ST_TIME_WAIT) {
		err = -ENOTCONN;
		goto out;
	}
	WRITE_ONCE(sk->sk_shutdown, sk->sk_shutdown | how);
	if (how & SEND_SHUTDOWN) {
		__skb_queue_head_init(&xq);
		rcu_read_lock();
		spin_lock_bh(&ms->lock);
		if (ms->state == MRC_ST_ESTABLISHED) {
			err = mrc_output_queue_close(ms);
			mrc_output_push(ms, &xq);
		}
		spin_unlock_bh(&ms->lock);
		mrc_xmit_list(sock_net(sk), &xq);
		rcu_read_unlock();
	}
	sk->sk_state_change(sk);
out:
	release_sock(sk);
	return err;
}

static int mrc_setsockopt(struct socket *sock, int level, int optname,
			  sockptr_t optval, unsigned int optlen)
{
	return -ENOPROTOOPT;
}

/**
 * mrc_sock_info() - a snapshot of a connection's state and counters
 * @ms: the connection
 * @info: filled
 *
 * The same numbers getsockopt(MRC_INFO) and the netlink conn dump report.
 */
void mrc_sock_info(struct mrc_sock *ms, struct mrc_info *info)
{
	u32 plane, planes;

	memset(info, 0, sizeof(*info));
	spin_lock_bh(&ms->lock);
	info->state = ms->state;
	info->closing = ms->close_queued | ms->close_acked << 1 |
			ms->peer_closed << 2;
	planes = ms->planes;
	for (plane = 0; plane < MRC_MAX_RAILS; plane++)
		info->planes += !!(planes & BIT(plane));
	info->paths = ms->npaths;
	info->id = ms->id;
	info->peer_id = ms->peer_id;
	info->seg_size = ms->seg_size;
	info->srtt_us = ms->rtt.srtt_us;
	info->rttvar_us = ms->rtt.rttvar_us;
	info->rto_us = mrc_rtt_rto(&ms->rtt, MRC_RTO_MIN_US, MRC_RTO_MAX_US,
				   MRC_RTO_INIT_US, ms->backoff);
	info->in_flight = ms->txw.in_flight;
	info->lost = ms->txw.lost;
	if (ms->txrec && mrc_psn_after(ms->rwnd_psn, ms->txw.nxt))
		info->window = ms->rwnd_psn - ms->txw.nxt;
	info->snd_queue = skb_queue_len(&ms->send_queue);
	info->tx_msgs = ms->stats.tx_msgs;
	info->tx_bytes = ms->stats.tx_bytes;
	info->tx_pkts = ms->stats.tx_pkts;
	info->retrans = ms->stats.retrans;
	info->rto = ms->stats.rto;
	info->rx_msgs = ms->stats.rx_msgs;
	info->rx_bytes = ms->stats.rx_bytes;
	info->rx_pkts = ms->stats.rx_pkts;
	info->rx_dups = ms->stats.rx_dups;
	info->acks_tx = ms->stats.acks_tx;
	info->acks_rx = ms->stats.acks_rx;
	info->ce_rx = ms->stats.ce_rx;
	spin_unlock_bh(&ms->lock);
}

static int mrc_getsockopt(struct socket *sock, int level, int optname,
			  char __user *optval, int __user *optlen)
{
	struct mrc_info info;
	int len;

	if (level != SOL_MRC)
		return -ENOPROTOOPT;
	if (optname != MRC_INFO)
		return -ENOPROTOOPT;
	if (get_user(len, optlen))
		return -EFAULT;
	if (len < 0)
		return -EINVAL;
	len = min_t(int, len, sizeof(info));
	mrc_sock_info(mrc_sk(sock->sk), &info);
	if (copy_to_user(optval, &info, len) || put_user(len, optlen))
		return -EFAULT;
	return 0;
}

static int mrc_release(struct socket *sock)
{
	struct sock *sk = sock->sk;
	struct mrc_sock *ms;
	struct sk_buff_head xq;

	if (!sk)
		return 0;
	ms = mrc_sk(sk);
	__skb_queue_head_init(&xq);

	lock_sock(sk);
	/*
	 * Orphan first: from here on the packet paths treat the connection
	 * as one nobody reads (an ACK of our CLOSE must see it).
	 */
	sock_orphan(sk);
	if (ms->state == MRC_ST_LISTEN) {
		WRITE_ONCE(ms->state, MRC_ST_CLOSED);
		mrc_unbind(ms);
		mrc_listener_close(ms);
	}
	mrc_unbind(ms);

	rcu_read_lock();
	spin_lock_bh(&ms->lock);
	switch (ms->state) {
	case MRC_ST_REQ_SENT:
		mrc_conn_abort(ms, 0, false, &xq);
		break;
	case MRC_ST_ESTABLISHED:
		/* Abort like TCP: SO_LINGER 0, or unread messages left. */
		if ((sock_flag(sk, SOCK_LINGER) && !sk->sk_lingertime) ||
		    !xa_empty(&ms->rx_msgs)) {
			mrc_conn_abort(ms, 0, true, &xq);
			break;
		}
		/* Orderly: queued messages go out, then our CLOSE. */
		mrc_output_queue_close(ms);
		mrc_output_push(ms, &xq);
		/* An orphan lives at most the dead-peer time without news. */
		if (!timer_pending(&ms->rto_timer))
			mrc_conn_arm_rto(ms);
		break;
	}
	spin_unlock_bh(&ms->lock);
	mrc_xmit_list(sock_net(sk), &xq);
	rcu_read_unlock();

	release_sock(sk);
	sock->sk = NULL;
	sock_put(sk);	/* a live connection keeps the table's reference */
	return 0;
}

static const struct proto_ops mrc_seqpacket_ops = {
	.family = PF_UNSPEC,
	.owner = THIS_MODULE,
	.release = mrc_release,
	.bind = mrc_bind,
	.connect = mrc_connect,
	.socketpair = sock_no_socketpair,
	.accept = mrc_accept,
	.getname = mrc_getname,
	.poll = mrc_poll,
	.ioctl = sock_no_ioctl,
	.listen = mrc_listen,
	.shutdown = mrc_shutdown,
	.setsockopt = mrc_setsockopt,
	.getsockopt = mrc_getsockopt,
	.sendmsg = mrc_sendmsg,
	.recvmsg = mrc_recvmsg,
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
	mrc_sock_setup(mrc_sk(sk));
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
