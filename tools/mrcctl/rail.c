// SPDX-License-Identifier: GPL-2.0
/*
 * mrcctl rail: attach, detach, change and show rails (the lower devices of
 * mrc devices, one per fabric plane).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <linux/genetlink.h>
#include <linux/mrc_netlink.h>

#include "args.h"
#include "mrcctl.h"
#include "nl.h"
#include "print.h"

static const char *const admin_names[] = {
	[MRC_ADMIN_STATE_DOWN] = "down",
	[MRC_ADMIN_STATE_UP] = "up",
};

static const char *const oper_names[] = {
	[MRC_OPER_STATE_UP] = "up",
	[MRC_OPER_STATE_ADMIN_DOWN] = "admin-down",
	[MRC_OPER_STATE_DEV_DOWN] = "dev-down",
	[MRC_OPER_STATE_NO_CARRIER] = "no-carrier",
};

static const char *const queue_names[] = {
	[MRC_QUEUE_TYPE_RX] = "rx",
	[MRC_QUEUE_TYPE_TX] = "tx",
};

static const enum mnl_attr_data_type rail_types[MRC_A_RAIL_MAX + 1] = {
	[MRC_A_RAIL_DEV_IFINDEX] = MNL_TYPE_U32,
	[MRC_A_RAIL_IFINDEX] = MNL_TYPE_U32,
	[MRC_A_RAIL_NAME] = MNL_TYPE_NUL_STRING,
	[MRC_A_RAIL_PLANE] = MNL_TYPE_U32,
	[MRC_A_RAIL_ADMIN_STATE] = MNL_TYPE_U32,
	[MRC_A_RAIL_OPER_STATE] = MNL_TYPE_U32,
	[MRC_A_RAIL_MTU] = MNL_TYPE_U32,
	[MRC_A_RAIL_TX_QUEUES] = MNL_TYPE_U32,
	[MRC_A_RAIL_RX_QUEUES] = MNL_TYPE_U32,
	[MRC_A_RAIL_STATS] = MNL_TYPE_NESTED,
	/* multi-attr, walked in order: IPV4, IPV6, QUEUE */
};

static const enum mnl_attr_data_type queue_types[MRC_A_QUEUE_MAX + 1] = {
	[MRC_A_QUEUE_TYPE] = MNL_TYPE_U32,
	[MRC_A_QUEUE_ID] = MNL_TYPE_U32,
	[MRC_A_QUEUE_PACKETS] = MNL_TYPE_U64,
	[MRC_A_QUEUE_BYTES] = MNL_TYPE_U64,
};

void rail_usage(FILE *f)
{
	fprintf(f,
		"Usage: mrcctl rail add RAIL dev DEV [plane PLANE] [state STATE]\n"
		"       mrcctl rail del RAIL\n"
		"       mrcctl rail set RAIL [plane PLANE] [state STATE]\n"
		"       mrcctl rail show [RAIL] [dev DEV]\n"
		"       mrcctl rail help\n"
		"where  RAIL  := name of a netdevice, a lower device of an mrc device\n"
		"       DEV   := name of an mrc device\n"
		"       PLANE := 0..%u (default: the lowest free plane)\n"
		"       STATE := { up | down } (admin state, default: up)\n"
		"\"show\" is the default command; \"list\" and \"ls\" are \"show\" too.\n",
		MRC_MAX_PLANE);
}

/* plane, admin and oper state, common to rails and their summaries */
static void rail_print_states(const struct nlattr **tb)
{
	if (tb[MRC_A_RAIL_PLANE])
		print_u64("plane", "plane", mnl_attr_get_u32(tb[MRC_A_RAIL_PLANE]));
	if (tb[MRC_A_RAIL_ADMIN_STATE])
		print_enum("admin_state", "admin", admin_names,
			   ARRAY_SIZE(admin_names),
			   mnl_attr_get_u32(tb[MRC_A_RAIL_ADMIN_STATE]));
	if (tb[MRC_A_RAIL_OPER_STATE])
		print_enum("oper_state", "oper", oper_names,
			   ARRAY_SIZE(oper_names),
			   mnl_attr_get_u32(tb[MRC_A_RAIL_OPER_STATE]));
}

void rail_print_brief(const struct nlattr *nest)
{
	const struct nlattr *tb[MRC_A_RAIL_MAX + 1] = {};

	nl_parse_nested(nest, rail_types, MRC_A_RAIL_MAX, tb);
	print_line("rail");
	print_nest_begin(NULL);
	print_ifname("ifname", "", tb[MRC_A_RAIL_NAME], tb[MRC_A_RAIL_IFINDEX]);
	if (tb[MRC_A_RAIL_IFINDEX])
		print_u64("ifindex", NULL,
			  mnl_attr_get_u32(tb[MRC_A_RAIL_IFINDEX]));
	rail_print_states(tb);
	print_nest_end();
}

static void rail_print_addrs(const struct nlmsghdr *nlh, int family)
{
	char buf[INET6_ADDRSTRLEN];
	const struct nlattr *attr;
	struct in_addr in;

	print_arr_begin(family == AF_INET ? "ipv4" : "ipv6");
	mnl_attr_for_each(attr, nlh, GENL_HDRLEN) {
		if (family == AF_INET) {
			if (mnl_attr_get_type(attr) != MRC_A_RAIL_IPV4 ||
			    mnl_attr_validate(attr, MNL_TYPE_U32) < 0)
				continue;
			/* network byte order, as in_addr */
			in.s_addr = mnl_attr_get_u32(attr);
			inet_ntop(AF_INET, &in, buf, sizeof(buf));
		} else {
			if (mnl_attr_get_type(attr) != MRC_A_RAIL_IPV6 ||
			    mnl_attr_validate2(attr, MNL_TYPE_BINARY,
					       sizeof(struct in6_addr)) < 0)
				continue;
			inet_ntop(AF_INET6, mnl_attr_get_payload(attr), buf,
				  sizeof(buf));
		}
		print_line(family == AF_INET ? "inet" : "inet6");
		print_str(NULL, "", buf);
		print_elem_str(buf);
	}
	print_arr_end();
}

static void rail_print_queue(const struct nlattr *nest)
{
	const struct nlattr *tb[MRC_A_QUEUE_MAX + 1] = {};
	const char *label = "queue";
	bool known = false;
	__u32 type = 0;

	nl_parse_nested(nest, queue_types, MRC_A_QUEUE_MAX, tb);
	if (tb[MRC_A_QUEUE_TYPE]) {
		type = mnl_attr_get_u32(tb[MRC_A_QUEUE_TYPE]);
		if (type == MRC_QUEUE_TYPE_RX) {
			label = "rx-queue";
			known = true;
		} else if (type == MRC_QUEUE_TYPE_TX) {
			label = "tx-queue";
			known = true;
		}
	}
	print_line(label);
	print_nest_begin(NULL);
	if (tb[MRC_A_QUEUE_TYPE])
		print_enum("type", NULL, queue_names, ARRAY_SIZE(queue_names),
			   type);
	if (tb[MRC_A_QUEUE_ID])
		print_u64("id", "", mnl_attr_get_u32(tb[MRC_A_QUEUE_ID]));
	if (tb[MRC_A_QUEUE_TYPE] && !known)
		print_u64(NULL, "type", type);
	if (tb[MRC_A_QUEUE_PACKETS])
		print_u64("packets", "packets",
			  mnl_attr_get_u64(tb[MRC_A_QUEUE_PACKETS]));
	if (tb[MRC_A_QUEUE_BYTES])
		print_u64("bytes", "bytes",
			  mnl_attr_get_u64(tb[MRC_A_QUEUE_BYTES]));
	print_nest_end();
}

void rail_print_parts(const struct nlmsghdr *const *parts, unsigned int n,
		      const char *event)
{
	const struct nlattr *tb[MRC_A_RAIL_MAX + 1] = {};
	const struct nlmsghdr *nlh = parts[0];
	const struct nlattr *attr;
	unsigned int i;

	nl_parse(nlh, rail_types, MRC_A_RAIL_MAX, tb);
	print_obj_begin();
	if (event)
		print_event(event);
	print_head(tb[MRC_A_RAIL_NAME], tb[MRC_A_RAIL_IFINDEX]);
	if (tb[MRC_A_RAIL_IFINDEX])
		print_u64("ifindex", NULL,
			  mnl_attr_get_u32(tb[MRC_A_RAIL_IFINDEX]));
	print_ifname("dev", "dev", NULL, tb[MRC_A_RAIL_DEV_IFINDEX]);
	if (tb[MRC_A_RAIL_DEV_IFINDEX])
		print_u64("dev_ifindex", NULL,
			  mnl_attr_get_u32(tb[MRC_A_RAIL_DEV_IFINDEX]));
	rail_print_states(tb);
	if (tb[MRC_A_RAIL_MTU])
		print_u64("mtu", "mtu", mnl_attr_get_u32(tb[MRC_A_RAIL_MTU]));
	if (tb[MRC_A_RAIL_TX_QUEUES])
		print_u64("tx_queues", "tx-queues",
			  mnl_attr_get_u32(tb[MRC_A_RAIL_TX_QUEUES]));
	if (tb[MRC_A_RAIL_RX_QUEUES])
		print_u64("rx_queues", "rx-queues",
			  mnl_attr_get_u32(tb[MRC_A_RAIL_RX_QUEUES]));
	rail_print_addrs(nlh, AF_INET);
	rail_print_addrs(nlh, AF_INET6);

	if (opts.stats) {
		if (tb[MRC_A_RAIL_STATS])
			stats_print(tb[MRC_A_RAIL_STATS]);
		print_arr_begin("queues");
		for (i = 0; i < n; i++) {
			mnl_attr_for_each(attr, parts[i], GENL_HDRLEN) {
				if (mnl_attr_get_type(attr) != MRC_A_RAIL_QUEUE ||
				    mnl_attr_validate(attr, MNL_TYPE_NESTED) < 0)
					continue;
				rail_print_queue(attr);
			}
		}
		print_arr_end();
	}
	print_obj_end();
}

void rail_print(const struct nlmsghdr *nlh, const char *event)
{
	rail_print_parts(&nlh, 1, event);
}

/* the rail ifindex of a rail message, 0 if none */
static __u32 rail_ifindex(const struct nlmsghdr *nlh)
{
	const struct nlattr *tb[MRC_A_RAIL_MAX + 1] = {};

	nl_parse(nlh, rail_types, MRC_A_RAIL_MAX, tb);
	return tb[MRC_A_RAIL_IFINDEX] ?
	       mnl_attr_get_u32(tb[MRC_A_RAIL_IFINDEX]) : 0;
}

/*
 * The messages of a rail-get reply, kept until the end: a dump spreads a
 * rail with many queues over several messages (the first with the whole
 * rail, the next ones with its ifindex and more queues), printed as one.
 */
struct rail_reply {
	__u32 dev;		/* print only the rails of this mrc device */
	struct nlmsghdr **msg;
	unsigned int n, cap;
};

static int rail_show_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[MRC_A_RAIL_MAX + 1] = {};
	struct rail_reply *r = data;
	struct nlmsghdr **msg;

	if (r->dev) {
		nl_parse(nlh, rail_types, MRC_A_RAIL_MAX, tb);
		if (!tb[MRC_A_RAIL_DEV_IFINDEX] ||
		    mnl_attr_get_u32(tb[MRC_A_RAIL_DEV_IFINDEX]) != r->dev)
			return MNL_CB_OK;
	}
	if (r->n == r->cap) {
		msg = realloc(r->msg, (r->cap * 2 + 16) * sizeof(*msg));
		if (!msg)
			goto nomem;
		r->msg = msg;
		r->cap = r->cap * 2 + 16;
	}
	r->msg[r->n] = malloc(nlh->nlmsg_len);
	if (!r->msg[r->n])
		goto nomem;
	memcpy(r->msg[r->n++], nlh, nlh->nlmsg_len);
	return MNL_CB_OK;

nomem:
	errno = ENOMEM;
	return MNL_CB_ERROR;
}

/* print the rails of a reply, a rail's consecutive messages as one */
static void rail_show_print(struct rail_reply *r)
{
	unsigned int i, n;

	for (i = 0; i < r->n; i += n) {
		for (n = 1; i + n < r->n; n++)
			if (rail_ifindex(r->msg[i + n]) != rail_ifindex(r->msg[i]))
				break;
		rail_print_parts((const struct nlmsghdr *const *)&r->msg[i], n,
				 NULL);
	}
	for (i = 0; i < r->n; i++)
		free(r->msg[i]);
	free(r->msg);
}

static int rail_show(int argc, char **argv)
{
	const char *rail = NULL, *dev = NULL;
	struct rail_reply reply = {};
	char buf[NL_TX_BUF_SIZE];
	__u32 ifindex = 0;
	struct nlmsghdr *nlh;
	struct nl nl;
	int ret;

	for (; argc; argc--, argv++) {
		if (arg_is(argv[0], "dev")) {
			if (dev)
				usage_error("rail", "duplicate \"dev\"");
			dev = arg_value("rail", argc, argv);
			argc--;
			argv++;
		} else if (!rail) {
			rail = argv[0];
		} else {
			usage_error("rail", "unknown argument \"%s\"", argv[0]);
		}
	}
	if (rail)
		ifindex = arg_ifindex(rail);
	if (dev)
		reply.dev = arg_ifindex(dev);

	if (nl_open(&nl) < 0)
		return 1;
	if (ifindex) {
		nlh = nl_msg(&nl, buf, MRC_CMD_RAIL_GET, NLM_F_ACK);
		mnl_attr_put_u32(nlh, MRC_A_RAIL_IFINDEX, ifindex);
	} else {
		nlh = nl_msg(&nl, buf, MRC_CMD_RAIL_GET, NLM_F_DUMP | NLM_F_ACK);
		if (reply.dev)
			mnl_attr_put_u32(nlh, MRC_A_RAIL_DEV_IFINDEX,
					 reply.dev);
	}
	print_list_begin();
	ret = nl_request(&nl, nlh, rail_show_cb, &reply);
	rail_show_print(&reply);
	print_list_end(!ret);
	nl_close(&nl);
	if (print_flush() < 0)
		return 1;
	return ret ? 1 : 0;
}

/* rail add / rail set: RAIL [dev DEV] [plane PLANE] [state STATE] */
static int rail_change(int argc, char **argv, bool add)
{
	const char *cmd = add ? "add" : "set";
	const char *rail, *dev = NULL;
	char buf[NL_TX_BUF_SIZE];
	__u32 ifindex, dev_ifindex = 0;
	long plane = -1, state = -1;
	struct nlmsghdr *nlh;
	struct nl nl;
	int ret;

	if (!argc)
		usage_error("rail", "missing RAIL for \"rail %s\"", cmd);
	rail = argv[0];
	for (argc--, argv++; argc; argc -= 2, argv += 2) {
		if (add && arg_is(argv[0], "dev")) {
			if (dev)
				usage_error("rail", "duplicate \"dev\"");
			dev = arg_value("rail", argc, argv);
		} else if (arg_is(argv[0], "plane")) {
			if (plane >= 0)
				usage_error("rail", "duplicate \"plane\"");
			plane = arg_u32("rail", "plane",
					arg_value("rail", argc, argv), 0,
					MRC_MAX_PLANE);
		} else if (arg_is(argv[0], "state")) {
			if (state >= 0)
				usage_error("rail", "duplicate \"state\"");
			state = arg_admin_state("rail",
						arg_value("rail", argc, argv));
		} else {
			usage_error("rail", "unknown argument \"%s\"", argv[0]);
		}
	}
	if (add && !dev)
		usage_error("rail", "missing \"dev DEV\" for \"rail add\"");
	if (!add && plane < 0 && state < 0)
		usage_error("rail", "nothing to set: give plane and/or state");
	ifindex = arg_ifindex(rail);
	if (dev)
		dev_ifindex = arg_ifindex(dev);

	if (nl_open(&nl) < 0)
		return 1;
	nlh = nl_msg(&nl, buf, add ? MRC_CMD_RAIL_ADD : MRC_CMD_RAIL_SET,
		     NLM_F_ACK);
	if (add)
		mnl_attr_put_u32(nlh, MRC_A_RAIL_DEV_IFINDEX, dev_ifindex);
	mnl_attr_put_u32(nlh, MRC_A_RAIL_IFINDEX, ifindex);
	if (plane >= 0)
		mnl_attr_put_u32(nlh, MRC_A_RAIL_PLANE, plane);
	if (state >= 0)
		mnl_attr_put_u32(nlh, MRC_A_RAIL_ADMIN_STATE, state);
	/* rail add replies with the new rail: not printed */
	ret = nl_request(&nl, nlh, NULL, NULL);
	nl_close(&nl);
	return ret ? 1 : 0;
}

static int rail_del(int argc, char **argv)
{
	char buf[NL_TX_BUF_SIZE];
	struct nlmsghdr *nlh;
	__u32 ifindex;
	struct nl nl;
	int ret;

	if (!argc)
		usage_error("rail", "missing RAIL for \"rail del\"");
	if (argc > 1)
		usage_error("rail", "unknown argument \"%s\"", argv[1]);
	ifindex = arg_ifindex(argv[0]);

	if (nl_open(&nl) < 0)
		return 1;
	nlh = nl_msg(&nl, buf, MRC_CMD_RAIL_DEL, NLM_F_ACK);
	mnl_attr_put_u32(nlh, MRC_A_RAIL_IFINDEX, ifindex);
	ret = nl_request(&nl, nlh, NULL, NULL);
	nl_close(&nl);
	return ret ? 1 : 0;
}

int do_rail(int argc, char **argv)
{
	const char *cmd = argc ? argv[0] : "show";

	if (argc) {
		argc--;
		argv++;
	}
	if (arg_is(cmd, "show") || arg_is(cmd, "list") || arg_is(cmd, "ls"))
		return rail_show(argc, argv);
	if (arg_is(cmd, "add"))
		return rail_change(argc, argv, true);
	if (arg_is(cmd, "set"))
		return rail_change(argc, argv, false);
	if (arg_is(cmd, "del"))
		return rail_del(argc, argv);
	if (arg_is(cmd, "help")) {
		if (argc)
			usage_error("rail", "unknown argument \"%s\"", argv[0]);
		rail_usage(stdout);
		return 0;
	}
	usage_error("rail", "unknown command \"%s\" for object \"rail\"", cmd);
}
