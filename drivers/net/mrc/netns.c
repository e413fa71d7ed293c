// SPDX-License-Identifier: GPL-2.0
/*
 * netns.c - per network namespace state.
 *
 * Every mrc object lives in one namespace: devices (and so rails, which
 * must be in their device's namespace) and bound sockets.  Devices of a
 * dying namespace are deleted by the core (default_device_exit_batch)
 * before our exit runs; sockets hold a reference on their namespace.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <net/net_namespace.h>
#include <net/netns/generic.h>

#include "mrc.h"

static unsigned int mrc_net_id __read_mostly;

/**
 * mrc_net() - mrc's state of a network namespace
 * @net: the namespace
 *
 * Return: the namespace's struct mrc_net.
 */
struct mrc_net *mrc_net(const struct net *net)
{
	return net_generic(net, mrc_net_id);
}

static int __net_init mrc_net_init(struct net *net)
{
	struct mrc_net *mn = mrc_net(net);
	unsigned int i;

	INIT_LIST_HEAD(&mn->devs);
	for (i = 0; i < ARRAY_SIZE(mn->ports); i++)
		INIT_HLIST_HEAD(&mn->ports[i]);
	spin_lock_init(&mn->ports_lock);
	INIT_LIST_HEAD(&mn->udp_ports);
	for (i = 0; i < ARRAY_SIZE(mn->conns); i++)
		INIT_HLIST_HEAD(&mn->conns[i]);
	spin_lock_init(&mn->conns_lock);
	atomic_set(&mn->nr_conns, 0);
	return 0;
}

static void __net_exit mrc_net_exit(struct net *net)
{
	struct mrc_net *mn = mrc_net(net);

	WARN_ON_ONCE(!list_empty(&mn->devs));
	WARN_ON_ONCE(!list_empty(&mn->udp_ports));
}

static struct pernet_operations mrc_net_ops = {
	.init = mrc_net_init,
	.exit = mrc_net_exit,
	.id = &mrc_net_id,
	.size = sizeof(struct mrc_net),
};

/**
 * mrc_netns_init() - register the per-namespace state
 *
 * Return: 0 or a negative errno.
 */
int mrc_netns_init(void)
{
	return register_pernet_subsys(&mrc_net_ops);
}

/**
 * mrc_netns_exit() - unregister the per-namespace state
 */
void mrc_netns_exit(void)
{
	unregister_pernet_subsys(&mrc_net_ops);
}
