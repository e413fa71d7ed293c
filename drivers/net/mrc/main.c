// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - mrc.ko entry point: module parameters, init and exit.
 *
 * mrc (Multipath Reliable Connection) sprays the packets of one reliable
 * connection over many paths across several NIC planes ("rails").  This
 * file only wires the subsystems together; each one lives in its own file
 * and Documentation/mrc.rst gives the reading order.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/net.h>
#include <linux/socket.h>
#include <net/genetlink.h>
#include <net/rtnetlink.h>
#include <uapi/linux/mrc_netlink.h>

#include "mrc.h"
#include "version.h"

struct mrc_module_params mrc_params = {
	.family = MRC_FAMILY_DEFAULT,
	.udp_port = MRC_UDP_PORT_DEFAULT,
};

module_param_named(family, mrc_params.family, int, 0444);
MODULE_PARM_DESC(family,
		 "Address family number used for AF_MRC sockets (default "
		 __stringify(MRC_FAMILY_DEFAULT) "; must be an unused slot below NPROTO)");

module_param_named(udp_port, mrc_params.udp_port, int, 0444);
MODULE_PARM_DESC(udp_port,
		 "Default UDP destination port of new mrc devices (default "
		 __stringify(MRC_UDP_PORT_DEFAULT) ")");

static int __init mrc_check_params(void)
{
	if (mrc_params.family <= AF_UNSPEC || mrc_params.family >= NPROTO) {
		pr_err("family=%d is out of range: must be 1..%d\n",
		       mrc_params.family, NPROTO - 1);
		return -EINVAL;
	}
	if (mrc_params.udp_port < 1 || mrc_params.udp_port > 65535) {
		pr_err("udp_port=%d is out of range: must be 1..65535\n",
		       mrc_params.udp_port);
		return -EINVAL;
	}
	return 0;
}

static int __init mrc_init(void)
{
	int err;

	err = mrc_check_params();
	if (err)
		return err;
	mrc_sysfs_init();
	mrc_input_setup();
	err = mrc_netns_init();
	if (err)
		return err;
	err = mrc_rail_init();
	if (err)
		goto err_netns;
	err = mrc_netlink_init();
	if (err)
		goto err_rail;
	err = mrc_device_init();
	if (err)
		goto err_netlink;
	err = mrc_af_init();
	if (err)
		goto err_device;

	pr_info("version " MRC_VERSION " loaded (family %d, udp port %d)\n",
		mrc_params.family, mrc_params.udp_port);
	return 0;

err_device:
	mrc_device_exit();
err_netlink:
	mrc_netlink_exit();
err_rail:
	mrc_rail_exit();
err_netns:
	mrc_netns_exit();
	return err;
}

static void __exit mrc_exit(void)
{
	mrc_af_exit();
	mrc_device_exit();	/* deletes every mrc device, detaching rails */
	mrc_netlink_exit();
	mrc_rail_exit();
	mrc_netns_exit();
	pr_info("version " MRC_VERSION " unloaded\n");
}

module_init(mrc_init);
module_exit(mrc_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("The mrc authors");
MODULE_DESCRIPTION("MRC: Multipath Reliable Connection over multi-plane fabrics");
MODULE_VERSION(MRC_VERSION);
/*
 * Autoload: "ip link add ... type mrc" (rtnl-link-mrc), a generic netlink
 * lookup of "mrc" by mrcctl or ynl (net-pf-16-proto-16-family-mrc), and
 * socket(AF_MRC, ...) for the default family number only (net-pf-22): a
 * module loaded with family=N is not found by socket(N, ...).
 */
MODULE_ALIAS_RTNL_LINK("mrc");
MODULE_ALIAS_GENL_FAMILY(MRC_FAMILY_NAME);
MODULE_ALIAS_NETPROTO(MRC_FAMILY_DEFAULT);
