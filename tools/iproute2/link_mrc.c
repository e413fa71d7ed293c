// SPDX-License-Identifier: GPL-2.0
/*
 * link_mrc.so - iproute2 support for link kind "mrc" (a plugin of ip(8)).
 *
 *   ip -d link show mrc0    mrc udp-port 4796 max-msg-size 1048576
 *                           evs-per-plane 32 spray mrc
 *   ip -d link show eth1    mrc_slave plane 0 admin-state up oper-state up
 *   ip link add mrc0 type mrc [udp-port N] [max-msg-size N]
 *                             [evs-per-plane N] [spray mrc|rr]
 *   ip link set mrc0 type mrc ...   the same, on an existing device
 *
 * ip looks a kind up as the symbol <kind>_link_util in
 * $IP_LIB_DIR/link_<kind>.so (default /usr/lib/x86_64-linux-gnu/ip on
 * Debian 12; iproute2's ip/iplink.c get_link_kind()), and a rail's slave
 * kind as "mrc_slave": this one library exports both symbols and is also
 * installed as link_mrc_slave.so (a symlink).
 *
 * ABI: ip hands the plugin its own struct link_util and the plugin calls
 * back into ip's exported functions; neither has a public header, so
 * iproute2_abi.h copies iproute2's declarations (the same from 5.10 to
 * 7.1).  Built and tested with Debian 12's iproute2 6.1.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/mrc.h>

#include "iproute2_abi.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* iplink.c's request buffer: struct iplink_req, 1024 bytes of attributes */
#define MRC_REQ_MAXLEN	1024

/* ---- the device ------------------------------------------------------------ */

static void mrc_usage(FILE *f)
{
	fprintf(f,
		"Usage: ... mrc [ udp-port PORT ] [ max-msg-size BYTES ]\n"
		"               [ evs-per-plane N ] [ spray { mrc | rr } ]\n"
		"\n"
		"Ranges are checked by the kernel (see mrcctl dev help).\n");
}

static int mrc_parse_u32(const char *key, const char *arg, unsigned long max,
			 unsigned int *val)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(arg, &end, 0);
	if (errno || !*arg || *end || v > max || arg[0] == '-') {
		fprintf(stderr, "mrc: invalid %s \"%s\"\n", key, arg);
		return -1;
	}
	*val = v;
	return 0;
}

static int mrc_parse_opt(struct link_util *lu, int argc, char **argv,
			 struct nlmsghdr *n)
{
	unsigned int v;

	for (; argc > 0; argc--, argv++) {
		const char *key = *argv;

		if (!strcmp(key, "help")) {
			mrc_usage(stderr);
			return -1;
		}
		if (strcmp(key, "udp-port") && strcmp(key, "max-msg-size") &&
		    strcmp(key, "evs-per-plane") && strcmp(key, "spray")) {
			fprintf(stderr, "mrc: unknown option \"%s\"\n", key);
			mrc_usage(stderr);
			return -1;
		}
		if (argc < 2) {
			fprintf(stderr, "mrc: %s needs a value\n", key);
			return -1;
		}
		argc--, argv++;
		/* a full request must not go out without the attribute */
		if (!strcmp(key, "spray")) {
			if (addattr_l(n, MRC_REQ_MAXLEN, IFLA_MRC_SPRAY, *argv,
				      strlen(*argv) + 1))
				return -1;
		} else if (!strcmp(key, "udp-port")) {
			__u16 port;

			if (mrc_parse_u32(key, *argv, 65535, &v))
				return -1;
			port = v;
			if (addattr_l(n, MRC_REQ_MAXLEN, IFLA_MRC_UDP_PORT, &port,
				      sizeof(port)))
				return -1;
		} else {
			if (mrc_parse_u32(key, *argv, 0xffffffffUL, &v))
				return -1;
			if (addattr_l(n, MRC_REQ_MAXLEN,
				      strcmp(key, "max-msg-size") ?
				      IFLA_MRC_EVS_PER_PLANE : IFLA_MRC_MAX_MSG_SIZE,
				      &v, sizeof(v)))
				return -1;
		}
	}
	return 0;
}

static int mrc_attr_u32(const struct rtattr *a, unsigned int *v)
{
	if (!a || RTA_PAYLOAD(a) < sizeof(*v))
		return -1;
	memcpy(v, RTA_DATA(a), sizeof(*v));
	return 0;
}

static void mrc_print_opt(struct link_util *lu, FILE *f, struct rtattr *tb[])
{
	const struct rtattr *a;
	unsigned int v;

	if (!tb)
		return;
	a = tb[IFLA_MRC_UDP_PORT];
	if (a && RTA_PAYLOAD(a) >= sizeof(__u16))
		print_color_uint(PRINT_ANY, COLOR_NONE, "udp_port", "udp-port %u ",
				 *(const __u16 *)RTA_DATA(a));
	if (!mrc_attr_u32(tb[IFLA_MRC_MAX_MSG_SIZE], &v))
		print_color_uint(PRINT_ANY, COLOR_NONE, "max_msg_size",
				 "max-msg-size %u ", v);
	if (!mrc_attr_u32(tb[IFLA_MRC_EVS_PER_PLANE], &v))
		print_color_uint(PRINT_ANY, COLOR_NONE, "evs_per_plane",
				 "evs-per-plane %u ", v);
	a = tb[IFLA_MRC_SPRAY];
	if (a && RTA_PAYLOAD(a) > 0 &&
	    memchr(RTA_DATA(a), 0, RTA_PAYLOAD(a)))
		print_color_string(PRINT_ANY, COLOR_NONE, "spray", "spray %s ",
				   RTA_DATA(a));
}

static void mrc_print_help(struct link_util *lu, int argc, char **argv, FILE *f)
{
	mrc_usage(f);
}

struct link_util mrc_link_util = {
	.id = "mrc",
	.maxattr = IFLA_MRC_MAX,
	.parse_opt = mrc_parse_opt,
	.print_opt = mrc_print_opt,
	.print_help = mrc_print_help,
};

/* ---- a rail (slave kind "mrc") ------------------------------------------- */

static const char *const mrc_admin_names[] = {
	[MRC_ADMIN_STATE_DOWN] = "down",
	[MRC_ADMIN_STATE_UP] = "up",
};

static const char *const mrc_oper_names[] = {
	[MRC_OPER_STATE_UP] = "up",
	[MRC_OPER_STATE_ADMIN_DOWN] = "admin-down",
	[MRC_OPER_STATE_DEV_DOWN] = "dev-down",
	[MRC_OPER_STATE_NO_CARRIER] = "no-carrier",
};

/* A state this version does not know is printed as its number. */
static void mrc_print_state(const char *key, const char *fmt,
			    const char *const *names, unsigned int n,
			    const struct rtattr *a)
{
	char buf[16];
	unsigned int v;

	if (mrc_attr_u32(a, &v))
		return;
	if (v < n && names[v]) {
		print_color_string(PRINT_ANY, COLOR_NONE, key, fmt, names[v]);
	} else {
		snprintf(buf, sizeof(buf), "%u", v);
		print_color_string(PRINT_ANY, COLOR_NONE, key, fmt, buf);
	}
}

static void mrc_slave_print_opt(struct link_util *lu, FILE *f,
				struct rtattr *tb[])
{
	unsigned int v;

	if (!tb)
		return;
	if (!mrc_attr_u32(tb[IFLA_MRC_RAIL_PLANE], &v))
		print_color_uint(PRINT_ANY, COLOR_NONE, "plane", "plane %u ", v);
	mrc_print_state("admin_state", "admin-state %s ", mrc_admin_names,
			ARRAY_SIZE(mrc_admin_names),
			tb[IFLA_MRC_RAIL_ADMIN_STATE]);
	mrc_print_state("oper_state", "oper-state %s ", mrc_oper_names,
			ARRAY_SIZE(mrc_oper_names),
			tb[IFLA_MRC_RAIL_OPER_STATE]);
}

static int mrc_slave_parse_opt(struct link_util *lu, int argc, char **argv,
			       struct nlmsghdr *n)
{
	fprintf(stderr,
		"mrc_slave: a rail's plane and admin-state are set with \"mrcctl rail set\"\n");
	return -1;
}

struct link_util mrc_slave_link_util = {
	.id = "mrc_slave",
	.maxattr = IFLA_MRC_RAIL_MAX,
	.parse_opt = mrc_slave_parse_opt,
	.print_opt = mrc_slave_print_opt,
};
