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
 *
 * Reading order (Documentation/mrc/code.rst): a message starts here in
 * mrc_sendmsg(), then output.c; a received one ends here in
 * mrc_recvmsg(), after udp.c -> input.c -> recv.c.
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

/*
 * Bounds that are ours to set (Documentation/mrc.rst, "Bounds"; each one
 * with the test that proves it in Documentation/mrc/security.rst).
 */
unsigned int mrc_min_seg_size = 512;
module_param_named(min_seg_size, mrc_min_seg_size, uint, 0644);
MODULE_PARM_DESC(min_seg_size,
		 "Smallest segment (DATA payload) a connection accepts, bytes: a peer that cannot carry it is refused");
unsigned long mrc_dev_rmem_max = 256UL << 20;
module_param_named(dev_rmem_max, mrc_dev_rmem_max, ulong, 0644);
MODULE_PARM_DESC(dev_rmem_max,
		 "Receive memory the busy connections of one mrc device may commit, bytes (all credit: 4x)");
unsigned int mrc_orphan_fin_timeout_ms = 10000;
module_param_named(orphan_fin_timeout_ms, mrc_orphan_fin_timeout_ms, uint, 0644);
MODULE_PARM_DESC(orphan_fin_timeout_ms,
		 "How long a closed socket whose data is all acknowledged waits for the peer's CLOSE, ms");
unsigned int mrc_dead_peer_ms = MRC_DEAD_PEER_MS;
MRC_PARAM_UINT_RANGE(dead_peer_ms, mrc_dead_peer_ms, 1000, 3600000);
MODULE_PARM_DESC(dead_peer_ms,
		 "No progress for this long ends a connection with ETIMEDOUT, and a connect() with no ACCEPT, ms (1000-3600000)");
unsigned int mrc_half_open_timeout_ms = MRC_DEAD_PEER_MS;
module_param_named(half_open_timeout_ms, mrc_half_open_timeout_ms, uint, 0644);
MODULE_PARM_DESC(half_open_timeout_ms,
		 "How long a half-open connection waits for its client, ms");
unsigned int mrc_max_orphans = 4096;
module_param_named(max_orphans, mrc_max_orphans, uint, 0644);
MODULE_PARM_DESC(max_orphans,
		 "Closed sockets still finishing, at most; beyond it close() resets");
/* Closed sockets still finishing (orphans), all namespaces. */
atomic_t mrc_orphans = ATOMIC_INIT(0);

/*
 * Receive memory of all mrc sockets, in pages, like tcp_mem/udp_mem:
 * below mem[0] no pressure, above mem[1] pressure, above mem[2] nothing
 * more is accepted.  Defaults from the memory size, as UDP's (see
 * mrc_af_init()).
 */
static long sysctl_mrc_mem[3];
module_param_array_named(mem, sysctl_mrc_mem, long, NULL, 0644);
MODULE_PARM_DESC(mem, "Receive memory of all mrc sockets: min, pressure, max (pages)");
/* Each socket may keep rmem[0] bytes even under pressure. */
static int sysctl_mrc_rmem[3] = { 4096, 212992, 4194304 };
static atomic_long_t mrc_memory_allocated;
static DEFINE_PER_CPU(int, mrc_memory_per_cpu_fw_alloc);
static struct percpu_counter mrc_sockets_allocated;
static unsigned long mrc_memory_pressure;

static void mrc_enter_memory_pressure(struct sock *sk)
{
	WRITE_ONCE(mrc_memory_pressure, 1);
}

static struct proto mrc_proto = {
	.name = "MRC",
	.owner = THIS_MODULE,
	.obj_size = sizeof(struct mrc_sock),
	.enter_memory_pressure = mrc_enter_memory_pressure,
	.memory_pressure = &mrc_memory_pressure,
	.memory_allocated = &mrc_memory_allocated,
	.per_cpu_fw_alloc = &mrc_memory_per_cpu_fw_alloc,
	.sockets_allocated = &mrc_sockets_allocated,
	.sysctl_mem = sysctl_mrc_mem,
	.sysctl_rmem = sysctl_mrc_rmem,
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

	/*
	 * Process context only: the receive path looks listeners up under
	 * RCU, so a long search here never delays it.
	 */
	spin_lock(&mn->ports_lock);
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
		hlist_add_head_rcu(&ms->bind_node, mrc_port_bucket(mn, port));
	}
	spin_unlock(&mn->ports_lock);
	return err;
}

static void mrc_unbind(struct mrc_sock *ms)
{
	struct mrc_net *mn = mrc_net(sock_net(&ms->sk));

	spin_lock(&mn->ports_lock);
	if (!hlist_unhashed(&ms->bind_node))
		hlist_del_init_rcu(&ms->bind_node);
	spin_unlock(&mn->ports_lock);
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
 * Bindings never change while a socket is in the table, and sockets are
 * freed after a grace period (SOCK_RCU_FREE).
 *
 * Context: softirq, RCU.
 * Return: the listener, referenced, or NULL.
 */
struct mrc_sock *mrc_listener_lookup(struct net *net, struct mrc_dev *mdev,
				     u16 port, const struct in6_addr *daddr)
{
	struct mrc_net *mn = mrc_net(net);
	struct mrc_sock *ms, *best = NULL;
	int score, best_score = -1;

	hlist_for_each_entry_rcu(ms, mrc_port_bucket(mn, port), bind_node) {
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
	if (best && !refcount_inc_not_zero(&best->sk.sk_refcnt))
		best = NULL;
	return best;
}

/* Half-open plus queued children exceed the backlog (accept_lock). */
static bool __mrc_listener_full(struct mrc_sock *lis)
	__must_hold(&lis->accept_lock)
{
	lockdep_assert_held(&lis->accept_lock);
	return lis->half_open + READ_ONCE(lis->sk.sk_ack_backlog) >
	       READ_ONCE(lis->sk.sk_max_ack_backlog);
}

/**
 * mrc_listener_full() - would another child exceed the backlog?
 * @lis: the listener
 *
 * As TCP's: listen(fd, 0) still accepts one connection.  A hint for the
 * REQ's path before it allocates a child: mrc_listener_add_half_open()
 * checks again where it counts the child.
 *
 * Return: true if half-open plus queued children exceed the backlog.
 */
bool mrc_listener_full(struct mrc_sock *lis)
{
	bool full;

	spin_lock(&lis->accept_lock);
	full = __mrc_listener_full(lis);
	spin_unlock(&lis->accept_lock);
	return full;
}

/**
 * mrc_listener_add_half_open() - a REQ made a child
 * @lis: the listener
 * @child: the child (REQ_RCVD, conn lock); the list takes a reference
 *
 * The backlog is checked and the child counted under one hold of
 * accept_lock: REQs that several CPUs receive at once must not all pass
 * mrc_listener_full() and then add to the count.
 *
 * Return: 0; -ECONNREFUSED if the listener closed since the REQ found it
 * (its lists are emptied for good), -ENOBUFS if its backlog is full (the
 * caller ends the child in both cases).
 */
int mrc_listener_add_half_open(struct mrc_sock *lis, struct mrc_sock *child)
{
	int err = 0;

	lockdep_assert_held(&child->lock);
	spin_lock(&lis->accept_lock);
	if (lis->lis_closed) {
		err = -ECONNREFUSED;
	} else if (__mrc_listener_full(lis)) {
		err = -ENOBUFS;
	} else {
		sock_hold(&child->sk);
		list_add_tail(&child->accept_node, &lis->half_open_list);
		lis->half_open++;
	}
	spin_unlock(&lis->accept_lock);
	return err;
}

/**
 * mrc_conn_established() - a half-open child heard from its client
 * @ms: the child (conn lock)
 * @xq: where a RESET goes if the child cannot be completed
 *
 * Gives it its paths and scoreboard, moves it to its listener's accept
 * queue and wakes accept(); or, out of memory, ends it.
 */
void mrc_conn_established(struct mrc_sock *ms, struct sk_buff_head *xq)
{
	struct mrc_sock *lis = ms->listener;
	int err;

	lockdep_assert_held(&ms->lock);
	err = mrc_handshake_child_ready(ms);
	if (err) {
		mrc_conn_abort(ms, -err, true, xq);
		return;
	}
	mrc_set_state(ms, MRC_ST_ESTABLISHED);
	ms->backoff = 0;
	ms->last_progress = jiffies;
	mrc_conn_rto_stop(ms);
	mrc_input_commit(ms);	/* the credit of our ACCEPT */
	mrc_path_start(ms);
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

	lockdep_assert_held(&child->lock);
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
	WARN_ON_ONCE(atomic_read(&sk->sk_rmem_alloc) || sk->sk_forward_alloc);
	sk_sockets_allocated_dec(sk);
	sock_prot_inuse_add(sock_net(sk), sk->sk_prot, -1);
	if (ms->listener)
		sock_put(&ms->listener->sk);
}

static void mrc_sock_setup(struct mrc_sock *ms)
{
	struct sock *sk = &ms->sk;

	sk->sk_destruct = mrc_sk_destruct;
	sk_sockets_allocated_inc(sk);
	sock_prot_inuse_add(sock_net(sk), sk->sk_prot, 1);
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
 * Context: softirq.
 * Return: the child (one reference, ours), or NULL.
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
	/* What a TCP child inherits from its listener (sk_clone_lock()). */
	sk->sk_uid = lis->sk.sk_uid;
	sk->sk_mark = READ_ONCE(lis->sk.sk_mark);
	sk->sk_priority = READ_ONCE(lis->sk.sk_priority);
	sk->sk_sndbuf = READ_ONCE(lis->sk.sk_sndbuf);
	sk->sk_rcvbuf = READ_ONCE(lis->sk.sk_rcvbuf);
	sk->sk_userlocks = lis->sk.sk_userlocks;
	if (sock_flag(&lis->sk, SOCK_LINGER)) {
		sock_set_flag(sk, SOCK_LINGER);
		sk->sk_lingertime = READ_ONCE(lis->sk.sk_lingertime);
	}
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

/*
 * The listener closes: no child joins it any more (a REQ that found it
 * just before fails in mrc_listener_add_half_open()), and every child it
 * holds is aborted.  A half-open child's RESET goes where its ACCEPT
 * went (the REQ's source), an unaccepted one's to its peer's rails.
 */
static void mrc_listener_close(struct mrc_sock *lis)
{
	struct mrc_sock *child, *half_open;
	struct sk_buff_head xq;

	spin_lock_bh(&lis->accept_lock);
	lis->lis_closed = true;
	spin_unlock_bh(&lis->accept_lock);
	for (;;) {
		spin_lock_bh(&lis->accept_lock);
		child = list_first_entry_or_null(&lis->half_open_list,
						 struct mrc_sock, accept_node);
		half_open = child;
		if (!child)
			child = list_first_entry_or_null(&lis->accept_queue,
							 struct mrc_sock, accept_node);
		if (child) {
			/* By the list it was on: its state may be changing. */
			list_del_init(&child->accept_node);
			if (half_open)
				lis->half_open--;
			else
				sk_acceptq_removed(&lis->sk);
		}
		spin_unlock_bh(&lis->accept_lock);
		if (!child)
			break;
		mrc_conn_lock(child, &xq);
		mrc_conn_abort(child, ECONNABORTED, true, &xq);
		mrc_conn_unlock(child, &xq);
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
	mrc_conn_spin_unlock(child);
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
	/* sk_wait_event() returns at any wakeup: wait until it is decided. */
	while (READ_ONCE(ms->state) == MRC_ST_REQ_SENT) {
		if (!timeo) {
			err = -EINPROGRESS;	/* SO_SNDTIMEO ran out */
			goto out;
		}
		if (signal_pending(current)) {
			err = sock_intr_errno(timeo);
			goto out;
		}
		mrc_wait(sk, &timeo, READ_ONCE(ms->state) != MRC_ST_REQ_SENT);
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

/*
 * getpeername() works once the connection was established, until
 * close(): also after the peer closed, in TIME_WAIT and after the end;
 * ENOTCONN before, and after a connect() that failed (as TCP's, whose
 * failed connect leaves it unconnected).
 */
static int mrc_getname(struct socket *sock, struct sockaddr *uaddr, int peer)
{
	struct sockaddr_mrc *a = (struct sockaddr_mrc *)uaddr;
	struct sock *sk = sock->sk;
	struct mrc_sock *ms = mrc_sk(sk);

	lock_sock(sk);
	if (peer) {
		if (!READ_ONCE(ms->was_established)) {
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

/* Largest message this connection carries: both ends announced theirs. */
static u32 mrc_max_msg(const struct mrc_sock *ms)
{
	return min(ms->max_msg, ms->peer_max_msg);
}

/*
 * Wait (lock_sock held) while a connect() is in progress, as TCP does in
 * sendmsg(): -EAGAIN without a timeout, 0 once the state changed.
 */
static int mrc_wait_connected(struct mrc_sock *ms, long *timeo)
{
	struct sock *sk = &ms->sk;

	while (READ_ONCE(ms->state) == MRC_ST_REQ_SENT) {
		if (!*timeo)
			return -EAGAIN;
		if (signal_pending(current))
			return sock_intr_errno(*timeo);
		mrc_wait(sk, timeo, READ_ONCE(ms->state) != MRC_ST_REQ_SENT ||
			 READ_ONCE(sk->sk_err));
	}
	return 0;
}

static int mrc_sendmsg(struct socket *sock, struct msghdr *msg, size_t len)
{
	struct sock *sk = sock->sk;
	struct mrc_sock *ms = mrc_sk(sk);
	int flags = msg->msg_flags;
	long timeo;
	u32 max, need;
	int err;

	if (flags & ~(MSG_DONTWAIT | MSG_NOSIGNAL | MSG_EOR | MSG_CMSG_COMPAT))
		return -EOPNOTSUPP;
	if (msg->msg_name)
		return -EISCONN;

	lock_sock(sk);
	timeo = sock_sndtimeo(sk, flags & MSG_DONTWAIT);
	err = mrc_wait_connected(ms, &timeo);
	if (err)
		goto out;
	err = sock_error(sk);
	if (err == -EPIPE)
		goto pipe;	/* the peer reset after its CLOSE: as TCP */
	if (err)
		goto out;
	if (ms->close_queued || (sk->sk_shutdown & SEND_SHUTDOWN)) {
		err = -EPIPE;
		goto pipe;
	}
	if (READ_ONCE(ms->state) != MRC_ST_ESTABLISHED) {
		/* Over (or failed to connect): EPIPE; never connected: ENOTCONN. */
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
	if (len > max) {
		err = -EMSGSIZE;
		goto out;
	}

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
		if (err == -EPIPE)
			goto pipe;
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
	/* The scoreboard's ring covers what is in flight, queued and new. */
	need = READ_ONCE(ms->txw.nxt) - READ_ONCE(ms->txw.una) +
	       READ_ONCE(ms->send_segs) + DIV_ROUND_UP(len, ms->seg_size);
	mrc_output_grow(ms, need);
	err = mrc_output_queue_msg(ms, msg, len);
	if (!err)
		err = len;
	else if (err == -EPIPE)
		goto pipe;
	goto out;
pipe:
	if (!(flags & MSG_NOSIGNAL))
		send_sig(SIGPIPE, current, 0);
out:
	release_sock(sk);
	return err;
}

/* What recvmsg() would do now: return a message, EOF, or wait. */
enum mrc_rx_status {
	MRC_RX_WAIT,
	MRC_RX_MSG,
	MRC_RX_EOF,	/* everything the peer sent before its CLOSE delivered */
};

static enum mrc_rx_status mrc_rx_status(struct mrc_sock *ms)
{
	lockdep_assert_held(&ms->lock);
	if (mrc_input_readable(ms))
		return MRC_RX_MSG;
	return mrc_peer_done(ms) ? MRC_RX_EOF : MRC_RX_WAIT;
}

/*
 * recvmsg() readiness for mrc_wait(), and whether recvmsg() must look
 * under the conn lock: a message, EOF, an error or an end is visible.
 * Without the lock (packet receive may hold it for a burst on another
 * CPU): whoever changes one of these wakes the socket after it (the
 * barrier pairs with that wakeup's), and recvmsg() then decides under
 * the lock.
 */
static bool mrc_rx_ready(struct mrc_sock *ms)
{
	u8 state;

	smp_mb();	/* on the wait queue before reading the conditions */
	state = READ_ONCE(ms->state);
	return mrc_input_readable(ms) || READ_ONCE(ms->rx_eof) ||
	       READ_ONCE(ms->sk.sk_err) ||
	       (READ_ONCE(ms->sk.sk_shutdown) & RCV_SHUTDOWN) ||
	       (state != MRC_ST_ESTABLISHED && state != MRC_ST_TIME_WAIT &&
		state != MRC_ST_REQ_SENT);
}

/*
 * Messages come out whole, in order.  Those the peer sent stay readable
 * after the connection ended (finished, reset or its device gone) until
 * they are read or the socket is closed; then the error, if any, then
 * EOF.  The message a reader copies is taken off the ready queue
 * (mrc_input_take_msg(), without the conn lock) and released once copied,
 * or, with MSG_PEEK, left in place: a complete message never changes, and
 * only a reader (we hold lock_sock) or close() frees it, so peeking needs
 * no allocation.
 */
static int mrc_recvmsg(struct socket *sock, struct msghdr *msg, size_t len,
		       int flags)
{
	struct sock *sk = sock->sk;
	struct mrc_sock *ms = mrc_sk(sk);
	bool peek = flags & MSG_PEEK;
	struct mrc_rx_msg *m = NULL;
	enum mrc_rx_status st;
	struct sk_buff_head xq;
	struct sk_buff *skb;
	size_t copied = 0;
	long timeo;
	u32 mlen;
	int err = 0;
	u8 state;

	if (flags & ~(MSG_DONTWAIT | MSG_PEEK | MSG_TRUNC | MSG_CMSG_COMPAT |
		      MSG_WAITALL | MSG_NOSIGNAL))
		return -EOPNOTSUPP;

	lock_sock(sk);
	timeo = sock_rcvtimeo(sk, flags & MSG_DONTWAIT);
	for (;;) {
		m = mrc_input_take_msg(ms, peek);
		if (m)
			break;
		if (!mrc_rx_ready(ms))
			goto wait;
		/* EOF, an error or an end: the exact answer, under the lock. */
		mrc_conn_lock(ms, &xq);
		st = mrc_rx_status(ms);
		state = ms->state;
		mrc_conn_unlock(ms, &xq);
		if (st == MRC_RX_MSG)
			continue;
		if (st == MRC_RX_EOF)
			goto out;
		err = sock_error(sk);
		if (err)
			goto out;
		if (sk->sk_shutdown & RCV_SHUTDOWN)
			goto out;
		if (state != MRC_ST_ESTABLISHED && state != MRC_ST_TIME_WAIT &&
		    state != MRC_ST_REQ_SENT) {
			/* Over: EOF; never connected (or a listener): ENOTCONN. */
			err = state == MRC_ST_CLOSED && ms->txrec ? 0 : -ENOTCONN;
			goto out;
		}
wait:
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
	skb_rbtree_walk(skb, &m->segs) {
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
	if (!peek)
		mrc_input_release(ms, m, !err);	/* a failed copy is a drop */
	if (!err)
		err = (flags & MSG_TRUNC) ? mlen : copied;
out:
	release_sock(sk);
	return err;
}

/*
 * As TCP's poll: EPOLLIN for a message or EOF; EPOLLRDHUP (and EOF) only
 * once every message before the peer's CLOSE is here; EPOLLOUT also after
 * our own shutdown and at the end, so a writer learns EPIPE; EPOLLHUP when
 * both directions are done.
 */
static __poll_t mrc_poll(struct file *file, struct socket *sock,
			 poll_table *wait)
{
	struct sock *sk = sock->sk;
	struct mrc_sock *ms = mrc_sk(sk);
	u8 shutdown = READ_ONCE(sk->sk_shutdown);
	enum mrc_rx_status st;
	__poll_t mask = 0;
	bool peer_done;

	sock_poll_wait(file, sock, wait);
	if (READ_ONCE(sk->sk_err))
		mask |= EPOLLERR;
	if (shutdown & RCV_SHUTDOWN)
		mask |= EPOLLIN | EPOLLRDNORM | EPOLLRDHUP;

	if (READ_ONCE(ms->state) == MRC_ST_LISTEN) {
		spin_lock_bh(&ms->accept_lock);
		if (!list_empty(&ms->accept_queue))
			mask |= EPOLLIN | EPOLLRDNORM;
		spin_unlock_bh(&ms->accept_lock);
		return mask;
	}

	spin_lock_bh(&ms->lock);
	st = mrc_rx_status(ms);
	peer_done = mrc_peer_done(ms);
	if (st != MRC_RX_WAIT)
		mask |= EPOLLIN | EPOLLRDNORM;
	switch (ms->state) {
	case MRC_ST_ESTABLISHED:
	case MRC_ST_TIME_WAIT:
		if (peer_done)
			mask |= EPOLLRDHUP;
		if (ms->close_queued || (shutdown & SEND_SHUTDOWN))
			mask |= EPOLLOUT | EPOLLWRNORM;	/* send() says EPIPE */
		else if (ms->state == MRC_ST_ESTABLISHED &&
			 sk_wmem_alloc_get(sk) < READ_ONCE(sk->sk_sndbuf))
			mask |= EPOLLOUT | EPOLLWRNORM;
		if (peer_done && ms->close_queued)
			mask |= EPOLLHUP;
		break;
	case MRC_ST_CLOSED:
		if (ms->txrec)	/* was connected or connecting: it is over */
			mask |= EPOLLHUP | EPOLLIN | EPOLLRDNORM | EPOLLRDHUP |
				EPOLLOUT | EPOLLWRNORM;
		break;
	}
	mrc_conn_spin_unlock(ms);
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
		/* Small, and shutdown() does not fail for memory (TCP's). */
		struct sk_buff *skb = mrc_output_alloc_close(GFP_KERNEL | __GFP_NOFAIL);

		mrc_conn_lock(ms, &xq);
		if (ms->state == MRC_ST_ESTABLISHED) {
			err = mrc_output_queue_close(ms, skb);
			skb = NULL;
			mrc_output_push(ms, &xq);
		}
		mrc_conn_unlock(ms, &xq);
		consume_skb(skb);	/* not needed after all */
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
			ms->peer_closed << 2 | mrc_peer_done(ms) << 3;
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
	info->snd_queue = ms->send_segs;
	mrc_conn_stats_info(&ms->stats, info);
	info->rmem_alloc = atomic_read(&ms->sk.sk_rmem_alloc);
	info->rmem_limit = ms->seg_size ? mrc_input_limit(ms) : 0;
	info->max_msg = ms->max_msg;
	BUILD_BUG_ON(MRC_CONN_CAPS_ACK_DATA != MRC_F_REQ_ACK_DATA);
	BUILD_BUG_ON(MRC_CONN_CAPS_HOST_DELAY != MRC_F_REQ_HOST_DELAY);
	info->caps = ms->caps;
	info->reo_mult = ms->txrec ? ms->txw.reo_mult : 0;
	mrc_conn_spin_unlock(ms);
	/* sk_uid: what routing sees, and what a TCP child inherits. */
	info->uid = from_kuid_munged(sock_net(&ms->sk)->user_ns, ms->sk.sk_uid);
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

/* A lingering close() may return: everything acknowledged, or over. */
static bool mrc_close_done(struct mrc_sock *ms)
{
	return READ_ONCE(ms->close_acked) ||
	       READ_ONCE(ms->state) != MRC_ST_ESTABLISHED;
}

/*
 * close(): as TCP.  Unread messages or SO_LINGER 0 reset the connection;
 * otherwise our queued messages go out, then our CLOSE, and the socket
 * becomes an orphan that finishes the connection.  With SO_LINGER > 0
 * close() waits until everything was acknowledged, and resets the
 * connection if the linger time passes first.
 */
static int mrc_release(struct socket *sock)
{
	struct sock *sk = sock->sk;
	struct sk_buff *close_skb;
	struct mrc_sock *ms;
	struct sk_buff_head xq;
	bool linger = false;
	long timeo = 0;

	if (!sk)
		return 0;
	ms = mrc_sk(sk);

	lock_sock(sk);
	if (ms->state == MRC_ST_LISTEN) {
		WRITE_ONCE(ms->state, MRC_ST_CLOSED);
		mrc_unbind(ms);
		mrc_listener_close(ms);
	}
	mrc_unbind(ms);

	/*
	 * From here on new data resets the connection (nobody will read
	 * it).  The flag is set under the conn lock together with the check
	 * for unread messages, so no message slips in between.
	 */
	close_skb = mrc_output_alloc_close(GFP_KERNEL | __GFP_NOFAIL);
	mrc_conn_lock(ms, &xq);
	sock_set_flag(sk, SOCK_DEAD);
	switch (ms->state) {
	case MRC_ST_REQ_SENT:
		mrc_conn_abort(ms, 0, false, &xq);
		break;
	case MRC_ST_ESTABLISHED:
		if ((sock_flag(sk, SOCK_LINGER) && !sk->sk_lingertime) ||
		    !RB_EMPTY_ROOT(&ms->rx_msgs) || mrc_input_readable(ms)) {
			mrc_conn_abort(ms, 0, true, &xq);
			break;
		}
		if (mrc_output_queue_close(ms, close_skb)) {
			/* Without a CLOSE the peer would wait for nothing. */
			mrc_conn_abort(ms, 0, true, &xq);
		}
		close_skb = NULL;
		mrc_output_push(ms, &xq);
		linger = sock_flag(sk, SOCK_LINGER);
		break;
	}
	mrc_conn_unlock(ms, &xq);
	consume_skb(close_skb);	/* not needed after all */

	if (linger) {
		timeo = sk->sk_lingertime;
		while (!mrc_close_done(ms) && timeo && !signal_pending(current))
			mrc_wait(sk, &timeo, mrc_close_done(ms));
	}

	mrc_conn_lock(ms, &xq);
	if (linger && !timeo && !mrc_close_done(ms))
		mrc_conn_abort(ms, ETIMEDOUT, true, &xq);
	if (ms->state == MRC_ST_ESTABLISHED) {
		ms->orphan = true;
		mrc_input_commit(ms);	/* SOCK_DEAD: its credit is void */
		if (atomic_inc_return(&mrc_orphans) > READ_ONCE(mrc_max_orphans)) {
			mrc_conn_abort(ms, 0, true, &xq);
		} else {
			/* The wait for the peer's CLOSE counts from now. */
			if (ms->close_acked)
				ms->close_acked_at = jiffies;
			if (!mrc_conn_rto_armed(ms) || !ms->txw.in_flight)
				mrc_conn_arm_rto(ms);
		}
	}
	mrc_conn_unlock(ms, &xq);

	sock_orphan(sk);
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
	unsigned long limit;
	int err;

	if (!sysctl_mrc_mem[2]) {
		/* As udp_mem: an eighth of the memory, pressure at 3/4 of it. */
		limit = max(nr_free_buffer_pages() / 8, 128UL);
		sysctl_mrc_mem[0] = limit / 4 * 3;
		sysctl_mrc_mem[1] = limit;
		sysctl_mrc_mem[2] = sysctl_mrc_mem[0] * 2;
	}
	err = percpu_counter_init(&mrc_sockets_allocated, 0, GFP_KERNEL);
	if (err)
		return err;
	err = proto_register(&mrc_proto, 1);
	if (err)
		goto free_counter;
	mrc_family_ops.family = mrc_params.family;
	err = sock_register(&mrc_family_ops);
	if (err) {
		if (err == -EEXIST)
			pr_err("address family %d is already registered by another protocol; load mrc with family=N naming a free slot\n",
			       mrc_params.family);
		goto unregister;
	}
	return 0;

unregister:
	proto_unregister(&mrc_proto);
free_counter:
	percpu_counter_destroy(&mrc_sockets_allocated);
	return err;
}

/**
 * mrc_af_exit() - unregister the AF_MRC socket family
 */
void mrc_af_exit(void)
{
	sock_unregister(mrc_params.family);
	proto_unregister(&mrc_proto);
	percpu_counter_destroy(&mrc_sockets_allocated);
}
