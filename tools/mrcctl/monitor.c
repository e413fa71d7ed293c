// SPDX-License-Identifier: GPL-2.0
/*
 * mrcctl monitor: print the notifications of the "events" group, and of
 * the "conns" group (path-change, CAP_NET_ADMIN only), one line each.
 */
#include <stdlib.h>
#include <linux/genetlink.h>
#include <linux/mrc_netlink.h>

#include "args.h"
#include "mrcctl.h"
#include "nl.h"
#include "print.h"

static const struct {
	__u8 cmd;
	const char *event;
	void (*print)(const struct nlmsghdr *nlh, const char *event);
} monitor_events[] = {
	{ MRC_CMD_DEV_ADD_NTF, "dev-add", dev_print },
	{ MRC_CMD_DEV_DEL_NTF, "dev-del", dev_print },
	{ MRC_CMD_DEV_CHANGE_NTF, "dev-change", dev_print },
	{ MRC_CMD_RAIL_ADD_NTF, "rail-add", rail_print },
	{ MRC_CMD_RAIL_DEL_NTF, "rail-del", rail_print },
	{ MRC_CMD_RAIL_CHANGE_NTF, "rail-change", rail_print },
	{ MRC_CMD_PATH_CHANGE_NTF, "path-change", conn_print },
};

void monitor_usage(FILE *f)
{
	fputs("Usage: mrcctl monitor\n"
	      "       mrcctl monitor help\n"
	      "Prints the events of mrc devices, rails and connections, one line\n"
	      "each, until interrupted: dev-add, dev-del, dev-change, rail-add,\n"
	      "rail-del, rail-change, path-change (the paths of a connection\n"
	      "changed state: its paths per plane and state; these carry\n"
	      "connection ids and need CAP_NET_ADMIN).\n", f);
}

static int monitor_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct genlmsghdr *genl = mnl_nlmsg_get_payload(nlh);
	const struct nl *nl = data;
	unsigned int i;

	if (nlh->nlmsg_type != nl->family ||
	    mnl_nlmsg_get_payload_len(nlh) < GENL_HDRLEN)
		return MNL_CB_OK;
	/* unknown commands: events of a newer kernel */
	for (i = 0; i < ARRAY_SIZE(monitor_events); i++) {
		if (monitor_events[i].cmd != genl->cmd)
			continue;
		monitor_events[i].print(nlh, monitor_events[i].event);
		if (print_flush() < 0)
			exit(1);
		break;
	}
	return MNL_CB_OK;
}

int do_monitor(int argc, char **argv)
{
	struct nl nl;
	int ret;

	if (argc && arg_is(argv[0], "help")) {
		if (argc > 1)
			usage_error("monitor", "unknown argument \"%s\"",
				    argv[1]);
		monitor_usage(stdout);
		return 0;
	}
	if (argc)
		usage_error("monitor", "unknown argument \"%s\"", argv[0]);

	if (nl_open(&nl) < 0)
		return 1;
	/* one compact JSON object or one text line per event */
	print_init(opts.json, false, true);
	ret = nl_monitor(&nl, monitor_cb, &nl);
	nl_close(&nl);
	return ret ? 1 : 0;
}
