/* SPDX-License-Identifier: GPL-2.0 */
/*
 * iproute2_abi.h - what a plugin of ip(8) shares with ip itself.
 *
 * iproute2 installs no header for its plugins and promises no ABI: these
 * declarations copy its own (ip/ip_common.h struct link_util,
 * include/json_print.h, include/color.h, include/libnetlink.h).  struct
 * link_util is the same from 5.10 to 7.1; print_color_*() returned void
 * in 5.10 (the int we declare is not read).  print_uint() and
 * print_string() are inline wrappers there; the exported functions are
 * print_color_*().  A struct link_util that changes would break "ip -d
 * link" for mrc devices: upstreaming the kind is the lasting answer.
 */
#ifndef _MRC_IPROUTE2_ABI_H
#define _MRC_IPROUTE2_ABI_H

#include <stdio.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

/* One link kind: ip finds it as the symbol <kind>_link_util. */
struct link_util {
	struct link_util *next;
	const char *id;
	int maxattr;
	int (*parse_opt)(struct link_util *lu, int argc, char **argv,
			 struct nlmsghdr *n);
	void (*print_opt)(struct link_util *lu, FILE *f, struct rtattr *tb[]);
	void (*print_xstats)(struct link_util *lu, FILE *f, struct rtattr *xs);
	void (*print_help)(struct link_util *lu, int argc, char **argv, FILE *f);
	int (*parse_ifla_xstats)(struct link_util *lu, int argc, char **argv);
	int (*print_ifla_xstats)(struct nlmsghdr *n, void *arg);
};

enum output_type { PRINT_FP = 1, PRINT_JSON = 2, PRINT_ANY = 4 };

/* include/color.h: COLOR_IFNAME, MAC, INET, INET6, OPERSTATE_UP/DOWN, NONE */
enum color_attr { COLOR_NONE = 6 };

int print_color_uint(enum output_type t, enum color_attr color,
		     const char *key, const char *fmt, unsigned int value);
int print_color_string(enum output_type t, enum color_attr color,
		       const char *key, const char *fmt, const char *value);
int addattr_l(struct nlmsghdr *n, int maxlen, int type, const void *data,
	      int alen);

#endif /* _MRC_IPROUTE2_ABI_H */
