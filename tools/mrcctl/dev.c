// SPDX-License-Identifier: GPL-2.0
/*
 * mrcctl dev: show and change mrc devices.
 */
#include <linux/genetlink.h>
#include <linux/mrc_netlink.h>

#include "args.h"
#include "mrcctl.h"
#include "nl.h"
#include "print.h"

static const enum mnl_attr_data_type dev_types[MRC_A_DEV_MAX + 1] = {
	[MRC_A_DEV_IFINDEX] = MNL_TYPE_U32,
	[MRC_A_DEV_NAME] = MNL_TYPE_NUL_STRING,
	[MRC_A_DEV_VERSION] = MNL_TYPE_NUL_STRING,
	[MRC_A_DEV_FAMILY] = MNL_TYPE_U32,
	[MRC_A_DEV_UDP_PORT] = MNL_TYPE_U16,
	[MRC_A_DEV_MAX_MSG_SIZE] = MNL_TYPE_U32,
	[MRC_A_DEV_RAIL] = MNL_TYPE_NESTED,
	[MRC_A_DEV_EVS_PER_PLANE] = MNL_TYPE_U32,
	[MRC_A_DEV_SPRAY] = MNL_TYPE_NUL_STRING,
	[MRC_A_DEV_EV_TRANSITIONS] = MNL_TYPE_NESTED,
	[MRC_A_DEV_STATS] = MNL_TYPE_NESTED,
};

static const struct {
	unsigned int type;
	const char *jkey;
	const char *tkey;
} ev_transitions_fields[] = {
	{ MRC_A_EV_TRANSITIONS_TO_GOOD, "to_good", "to-good" },
	{ MRC_A_EV_TRANSITIONS_TO_SKIP, "to_skip", "to-skip" },
	{ MRC_A_EV_TRANSITIONS_TO_BAD, "to_bad", "to-bad" },
	{ MRC_A_EV_TRANSITIONS_TO_DENIED, "to_denied", "to-denied" },
	{ MRC_A_EV_TRANSITIONS_REPLACED, "replaced", "replaced" },
};

static const enum mnl_attr_data_type
ev_transitions_types[MRC_A_EV_TRANSITIONS_MAX + 1] = {
	[MRC_A_EV_TRANSITIONS_TO_GOOD] = MNL_TYPE_U64,
	[MRC_A_EV_TRANSITIONS_TO_SKIP] = MNL_TYPE_U64,
	[MRC_A_EV_TRANSITIONS_TO_BAD] = MNL_TYPE_U64,
	[MRC_A_EV_TRANSITIONS_TO_DENIED] = MNL_TYPE_U64,
	[MRC_A_EV_TRANSITIONS_REPLACED] = MNL_TYPE_U64,
};

/* the spec's checks of evs-per-plane */
#define EVS_PER_PLANE_MIN	1U
#define EVS_PER_PLANE_MAX	256U

void dev_usage(FILE *f)
{
	fprintf(f,
		"Usage: mrcctl dev show [DEV]\n"
		"       mrcctl dev set DEV [udp-port PORT] [max-msg-size BYTES]\n"
		"                          [evs-per-plane EVS] [spray POLICY]\n"
		"       mrcctl dev help\n"
		"where  DEV    := name of an mrc device\n"
		"       PORT   := 1..65535 (UDP destination port of its packets)\n"
		"       BYTES  := 1..%u (largest message a socket may send)\n"
		"       EVS    := %u..%u (paths a new connection gets on each plane)\n"
		"       POLICY := { mrc | rr } (path choice of new connections)\n"
		"\"show\" is the default command; \"list\" and \"ls\" are \"show\" too.\n",
		MRC_MAX_MSG_SIZE_LIMIT, EVS_PER_PLANE_MIN, EVS_PER_PLANE_MAX);
}

/*
 * Path state changes of the device's connections: text "ev-transitions
 * to-good N ...", JSON "ev_transitions": {"to_good": N, ...}
 */
static void dev_print_ev_transitions(const struct nlattr *nest)
{
	const struct nlattr *tb[MRC_A_EV_TRANSITIONS_MAX + 1] = {};
	unsigned int i;

	nl_parse_nested(nest, ev_transitions_types, MRC_A_EV_TRANSITIONS_MAX,
			tb);
	print_line("ev-transitions");
	print_nest_begin("ev_transitions");
	for (i = 0; i < ARRAY_SIZE(ev_transitions_fields); i++) {
		const struct nlattr *attr = tb[ev_transitions_fields[i].type];

		if (attr)
			print_u64(ev_transitions_fields[i].jkey,
				  ev_transitions_fields[i].tkey,
				  mnl_attr_get_u64(attr));
	}
	print_nest_end();
}

void dev_print(const struct nlmsghdr *nlh, const char *event)
{
	const struct nlattr *tb[MRC_A_DEV_MAX + 1] = {};
	const struct nlattr *attr;

	nl_parse(nlh, dev_types, MRC_A_DEV_MAX, tb);
	print_obj_begin();
	if (event)
		print_event(event);
	print_head(tb[MRC_A_DEV_NAME], tb[MRC_A_DEV_IFINDEX]);
	if (tb[MRC_A_DEV_IFINDEX])
		print_u64("ifindex", "ifindex",
			  mnl_attr_get_u32(tb[MRC_A_DEV_IFINDEX]));
	if (tb[MRC_A_DEV_UDP_PORT])
		print_u64("udp_port", "udp-port",
			  mnl_attr_get_u16(tb[MRC_A_DEV_UDP_PORT]));
	if (tb[MRC_A_DEV_MAX_MSG_SIZE])
		print_u64("max_msg_size", "max-msg-size",
			  mnl_attr_get_u32(tb[MRC_A_DEV_MAX_MSG_SIZE]));
	if (tb[MRC_A_DEV_EVS_PER_PLANE])
		print_u64("evs_per_plane", "evs-per-plane",
			  mnl_attr_get_u32(tb[MRC_A_DEV_EVS_PER_PLANE]));
	if (tb[MRC_A_DEV_SPRAY])
		print_str("spray", "spray",
			  mnl_attr_get_str(tb[MRC_A_DEV_SPRAY]));
	if (tb[MRC_A_DEV_FAMILY])
		print_u64("family", "family",
			  mnl_attr_get_u32(tb[MRC_A_DEV_FAMILY]));
	if (tb[MRC_A_DEV_VERSION])
		print_str("version", "version",
			  mnl_attr_get_str(tb[MRC_A_DEV_VERSION]));

	print_arr_begin("rails");
	mnl_attr_for_each(attr, nlh, GENL_HDRLEN) {
		if (mnl_attr_get_type(attr) != MRC_A_DEV_RAIL ||
		    mnl_attr_validate(attr, MNL_TYPE_NESTED) < 0)
			continue;
		rail_print_brief(attr);
	}
	print_arr_end();

	if (opts.stats && tb[MRC_A_DEV_STATS])
		stats_print(tb[MRC_A_DEV_STATS]);
	if (opts.stats && tb[MRC_A_DEV_EV_TRANSITIONS])
		dev_print_ev_transitions(tb[MRC_A_DEV_EV_TRANSITIONS]);
	print_obj_end();
}

static int dev_show_cb(const struct nlmsghdr *nlh, void *data)
{
	(void)data;
	dev_print(nlh, NULL);
	return MNL_CB_OK;
}

static int dev_show(int argc, char **argv)
{
	char buf[NL_TX_BUF_SIZE];
	struct nlmsghdr *nlh;
	__u32 ifindex = 0;
	struct nl nl;
	int ret;

	if (argc > 1)
		usage_error("dev", "unknown argument \"%s\"", argv[1]);
	if (argc)
		ifindex = arg_ifindex(argv[0]);

	if (nl_open(&nl) < 0)
		return 1;
	nlh = nl_msg(&nl, buf, MRC_CMD_DEV_GET,
		     ifindex ? NLM_F_ACK : NLM_F_DUMP | NLM_F_ACK);
	if (ifindex)
		mnl_attr_put_u32(nlh, MRC_A_DEV_IFINDEX, ifindex);
	print_list_begin();
	ret = nl_request(&nl, nlh, dev_show_cb, NULL);
	print_list_end(!ret);
	nl_close(&nl);
	if (print_flush() < 0)
		return 1;
	return ret ? 1 : 0;
}

static int dev_set(int argc, char **argv)
{
	__u32 port = 0, size = 0, evs = 0;
	char buf[NL_TX_BUF_SIZE];
	const char *spray = NULL;
	struct nlmsghdr *nlh;
	const char *name;
	__u32 ifindex;
	struct nl nl;
	int ret;

	if (!argc)
		usage_error("dev", "missing DEV for \"dev set\"");
	name = argv[0];
	for (argc--, argv++; argc; argc -= 2, argv += 2) {
		if (arg_is(argv[0], "udp-port")) {
			if (port)
				usage_error("dev", "duplicate \"udp-port\"");
			port = arg_u32("dev", "udp-port",
				       arg_value("dev", argc, argv), 1, 65535);
		} else if (arg_is(argv[0], "max-msg-size")) {
			if (size)
				usage_error("dev", "duplicate \"max-msg-size\"");
			size = arg_u32("dev", "max-msg-size",
				       arg_value("dev", argc, argv), 1,
				       MRC_MAX_MSG_SIZE_LIMIT);
		} else if (arg_is(argv[0], "evs-per-plane")) {
			if (evs)
				usage_error("dev", "duplicate \"evs-per-plane\"");
			evs = arg_u32("dev", "evs-per-plane",
				      arg_value("dev", argc, argv),
				      EVS_PER_PLANE_MIN, EVS_PER_PLANE_MAX);
		} else if (arg_is(argv[0], "spray")) {
			if (spray)
				usage_error("dev", "duplicate \"spray\"");
			spray = arg_value("dev", argc, argv);
			if (!arg_is(spray, "mrc") && !arg_is(spray, "rr"))
				usage_error("dev",
					    "invalid spray \"%s\", expected \"mrc\" or \"rr\"",
					    spray);
		} else {
			usage_error("dev", "unknown argument \"%s\"", argv[0]);
		}
	}
	if (!port && !size && !evs && !spray)
		usage_error("dev",
			    "nothing to set: give udp-port, max-msg-size, evs-per-plane and/or spray");
	ifindex = arg_ifindex(name);

	if (nl_open(&nl) < 0)
		return 1;
	nlh = nl_msg(&nl, buf, MRC_CMD_DEV_SET, NLM_F_ACK);
	mnl_attr_put_u32(nlh, MRC_A_DEV_IFINDEX, ifindex);
	if (port)
		mnl_attr_put_u16(nlh, MRC_A_DEV_UDP_PORT, port);
	if (size)
		mnl_attr_put_u32(nlh, MRC_A_DEV_MAX_MSG_SIZE, size);
	if (evs)
		mnl_attr_put_u32(nlh, MRC_A_DEV_EVS_PER_PLANE, evs);
	if (spray)
		mnl_attr_put_strz(nlh, MRC_A_DEV_SPRAY, spray);
	ret = nl_request(&nl, nlh, NULL, NULL);
	nl_close(&nl);
	return ret ? 1 : 0;
}

int do_dev(int argc, char **argv)
{
	const char *cmd = argc ? argv[0] : "show";

	if (argc) {
		argc--;
		argv++;
	}
	if (arg_is(cmd, "show") || arg_is(cmd, "list") || arg_is(cmd, "ls"))
		return dev_show(argc, argv);
	if (arg_is(cmd, "set"))
		return dev_set(argc, argv);
	if (arg_is(cmd, "help")) {
		if (argc)
			usage_error("dev", "unknown argument \"%s\"", argv[0]);
		dev_usage(stdout);
		return 0;
	}
	usage_error("dev", "unknown command \"%s\" for object \"dev\"", cmd);
}
