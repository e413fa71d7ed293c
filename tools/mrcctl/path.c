// SPDX-License-Identifier: GPL-2.0
/*
 * mrcctl path: show the paths (entropy values) of connections, deny a path
 * or allow it again.
 */
#include <stdio.h>
#include <linux/genetlink.h>
#include <linux/mrc_netlink.h>

#include "args.h"
#include "mrcctl.h"
#include "nl.h"
#include "print.h"

/* the spec's check of an entropy value */
#define PATH_EV_MAX	16383U

static const char *const ev_state_names[] = {
	[MRC_EV_STATE_GOOD] = "good",
	[MRC_EV_STATE_SKIP] = "skip",
	[MRC_EV_STATE_ASSUMED_BAD] = "assumed-bad",
	[MRC_EV_STATE_DENIED] = "denied",
};

static const enum mnl_attr_data_type path_types[MRC_A_PATH_MAX + 1] = {
	[MRC_A_PATH_CONN_ID] = MNL_TYPE_U32,
	[MRC_A_PATH_INDEX] = MNL_TYPE_U32,
	[MRC_A_PATH_EV] = MNL_TYPE_U32,
	[MRC_A_PATH_PLANE] = MNL_TYPE_U32,
	[MRC_A_PATH_SPORT] = MNL_TYPE_U16,
	[MRC_A_PATH_STATE] = MNL_TYPE_U32,
	[MRC_A_PATH_SINCE_MS] = MNL_TYPE_U32,
	[MRC_A_PATH_PKTS] = MNL_TYPE_U64,
	[MRC_A_PATH_BYTES] = MNL_TYPE_U64,
	[MRC_A_PATH_ACKS] = MNL_TYPE_U64,
	[MRC_A_PATH_ECN] = MNL_TYPE_U64,
	[MRC_A_PATH_LOSSES] = MNL_TYPE_U64,
	[MRC_A_PATH_NACKS] = MNL_TYPE_U64,
	[MRC_A_PATH_PROBES] = MNL_TYPE_U64,
	[MRC_A_PATH_RTT_US] = MNL_TYPE_U32,
};

/*
 * A column of the text table and a key of the JSON object.  width < 0:
 * left-aligned; unit: appended to the number in text ("ms"), NULL for
 * columns printed otherwise (conn id, state).
 */
struct path_col {
	unsigned int type;
	const char *jkey;
	const char *head;
	int width;
	const char *unit;
};

static const struct path_col path_cols[] = {
	{ MRC_A_PATH_CONN_ID, "conn_id", "CONN", -8, NULL },
	{ MRC_A_PATH_INDEX, "index", "INDEX", 5, "" },
	{ MRC_A_PATH_EV, "ev", "EV", 5, "" },
	{ MRC_A_PATH_PLANE, "plane", "PLANE", 5, "" },
	{ MRC_A_PATH_SPORT, "sport", "SPORT", 5, "" },
	{ MRC_A_PATH_STATE, "state", "STATE", -11, NULL },
	{ MRC_A_PATH_SINCE_MS, "since_ms", "SINCE", 12, "ms" },
	{ MRC_A_PATH_PKTS, "pkts", "PKTS", 9, "" },
	{ MRC_A_PATH_BYTES, "bytes", "BYTES", 12, "" },
	{ MRC_A_PATH_ACKS, "acks", "ACKS", 9, "" },
	{ MRC_A_PATH_ECN, "ecn", "ECN", 6, "" },
	{ MRC_A_PATH_LOSSES, "losses", "LOSSES", 6, "" },
	{ MRC_A_PATH_NACKS, "nacks", "NACKS", 6, "" },
	{ MRC_A_PATH_PROBES, "probes", "PROBES", 6, "" },
	{ MRC_A_PATH_RTT_US, "rtt_us", "RTT", 9, "us" },
};

void path_usage(FILE *f)
{
	fprintf(f,
		"Usage: mrcctl path show [conn ID]\n"
		"       mrcctl path set conn ID ev EV { deny | allow }\n"
		"       mrcctl path help\n"
		"where  ID := 1..ffffffff (connection id, hexadecimal, with or without 0x)\n"
		"       EV := 0..%u (entropy value of a path of the connection)\n"
		"\"show\" is the default command; \"list\" and \"ls\" are \"show\" too.\n"
		"Connection ids are shown, and \"conn\" is accepted, only with CAP_NET_ADMIN.\n",
		PATH_EV_MAX);
}

static __u64 path_get_num(const struct nlattr *attr, unsigned int type)
{
	switch (path_types[type]) {
	case MNL_TYPE_U64:
		return mnl_attr_get_u64(attr);
	case MNL_TYPE_U16:
		return mnl_attr_get_u16(attr);
	default:
		return mnl_attr_get_u32(attr);
	}
}

/* text: the cell of column c, "-" if the attribute is missing */
static void path_cell(const struct path_col *c, const struct nlattr *attr,
		      char *buf, size_t size)
{
	__u32 val;

	if (!attr) {
		/* conn-id: only CAP_NET_ADMIN sees connection ids */
		snprintf(buf, size, c->type == MRC_A_PATH_CONN_ID ? "hidden" : "-");
	} else if (c->type == MRC_A_PATH_CONN_ID) {
		snprintf(buf, size, "%08x", mnl_attr_get_u32(attr));
	} else if (c->type == MRC_A_PATH_STATE) {
		val = mnl_attr_get_u32(attr);
		if (val < ARRAY_SIZE(ev_state_names) && ev_state_names[val])
			snprintf(buf, size, "%s", ev_state_names[val]);
		else
			snprintf(buf, size, "%u", val);
	} else {
		snprintf(buf, size, "%llu%s",
			 (unsigned long long)path_get_num(attr, c->type),
			 c->unit);
	}
}

/* text: one row of cells, or the header if tb is NULL */
static void path_print_row(const struct nlattr **tb)
{
	const struct path_col *c;
	char buf[32];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(path_cols); i++) {
		c = &path_cols[i];
		if (tb)
			path_cell(c, tb[c->type], buf, sizeof(buf));
		printf("%s%*s", i ? " " : "", c->width,
		       tb ? buf : c->head);
	}
	putchar('\n');
}

void path_print(const struct nlmsghdr *nlh, struct path_table *t)
{
	const struct nlattr *tb[MRC_A_PATH_MAX + 1] = {};
	const struct path_col *c;
	__u32 conn, index;
	unsigned int i;
	char id[16];

	nl_parse(nlh, path_types, MRC_A_PATH_MAX, tb);
	if (!print_json()) {
		/*
		 * One header; an empty line between connections.  Without
		 * ids (hidden), a connection's paths come in index order:
		 * an index that does not grow starts the next connection.
		 */
		conn = tb[MRC_A_PATH_CONN_ID] ?
		       mnl_attr_get_u32(tb[MRC_A_PATH_CONN_ID]) : 0;
		index = tb[MRC_A_PATH_INDEX] ?
			mnl_attr_get_u32(tb[MRC_A_PATH_INDEX]) : 0;
		if (!t->rows)
			path_print_row(NULL);
		else if (conn != t->conn || (!conn && index <= t->index))
			putchar('\n');
		t->rows++;
		t->conn = conn;
		t->index = index;
		path_print_row(tb);
		return;
	}

	print_obj_begin();
	for (i = 0; i < ARRAY_SIZE(path_cols); i++) {
		c = &path_cols[i];
		if (!tb[c->type]) {
			if (c->type == MRC_A_PATH_CONN_ID)
				print_bool("conn_id_hidden", NULL, true);
			continue;
		}
		if (c->type == MRC_A_PATH_CONN_ID) {
			snprintf(id, sizeof(id), "%08x",
				 mnl_attr_get_u32(tb[c->type]));
			print_str(c->jkey, NULL, id);
		} else if (c->type == MRC_A_PATH_STATE) {
			print_enum(c->jkey, NULL, ev_state_names,
				   ARRAY_SIZE(ev_state_names),
				   mnl_attr_get_u32(tb[c->type]));
		} else {
			print_u64(c->jkey, NULL,
				  path_get_num(tb[c->type], c->type));
		}
	}
	print_obj_end();
}

static int path_show_cb(const struct nlmsghdr *nlh, void *data)
{
	path_print(nlh, data);
	return MNL_CB_OK;
}

static int path_show(int argc, char **argv)
{
	struct path_table table = {};
	const char *id_arg = NULL;
	char buf[NL_TX_BUF_SIZE];
	struct nlmsghdr *nlh;
	struct nl nl;
	__u32 id = 0;
	int ret;

	for (; argc; argc -= 2, argv += 2) {
		if (arg_is(argv[0], "conn")) {
			if (id_arg)
				usage_error("path", "duplicate \"conn\"");
			id_arg = arg_value("path", argc, argv);
			id = arg_hex_u32("path", "conn", id_arg, 1, 0xffffffff);
		} else {
			usage_error("path", "unknown argument \"%s\"", argv[0]);
		}
	}

	if (nl_open(&nl) < 0)
		return 1;
	nlh = nl_msg(&nl, buf, MRC_CMD_PATH_GET, NLM_F_DUMP | NLM_F_ACK);
	if (id_arg)
		mnl_attr_put_u32(nlh, MRC_A_PATH_CONN_ID, id);
	print_list_begin();
	ret = nl_request(&nl, nlh, path_show_cb, &table);
	print_list_end(!ret);
	nl_close(&nl);
	if (print_flush() < 0)
		return 1;
	return ret ? 1 : 0;
}

/* path set conn ID ev EV { deny | allow } */
static int path_set(int argc, char **argv)
{
	const char *id_arg = NULL, *ev_arg = NULL;
	char buf[NL_TX_BUF_SIZE];
	__u32 id = 0, ev = 0;
	struct nlmsghdr *nlh;
	int deny = -1;
	struct nl nl;
	int ret;

	for (; argc; argc--, argv++) {
		if (arg_is(argv[0], "conn")) {
			if (id_arg)
				usage_error("path", "duplicate \"conn\"");
			id_arg = arg_value("path", argc, argv);
			id = arg_hex_u32("path", "conn", id_arg, 1, 0xffffffff);
			argc--;
			argv++;
		} else if (arg_is(argv[0], "ev")) {
			if (ev_arg)
				usage_error("path", "duplicate \"ev\"");
			ev_arg = arg_value("path", argc, argv);
			ev = arg_u32("path", "ev", ev_arg, 0, PATH_EV_MAX);
			argc--;
			argv++;
		} else if (arg_is(argv[0], "deny") || arg_is(argv[0], "allow")) {
			if (deny >= 0)
				usage_error("path",
					    "duplicate \"deny\" or \"allow\"");
			deny = arg_is(argv[0], "deny");
		} else {
			usage_error("path", "unknown argument \"%s\"", argv[0]);
		}
	}
	if (!id_arg)
		usage_error("path", "missing \"conn ID\" for \"path set\"");
	if (!ev_arg)
		usage_error("path", "missing \"ev EV\" for \"path set\"");
	if (deny < 0)
		usage_error("path",
			    "missing \"deny\" or \"allow\" for \"path set\"");

	if (nl_open(&nl) < 0)
		return 1;
	nlh = nl_msg(&nl, buf, MRC_CMD_PATH_SET, NLM_F_ACK);
	mnl_attr_put_u32(nlh, MRC_A_PATH_CONN_ID, id);
	mnl_attr_put_u32(nlh, MRC_A_PATH_EV, ev);
	mnl_attr_put_u8(nlh, MRC_A_PATH_DENIED, deny);
	ret = nl_request(&nl, nlh, NULL, NULL);
	nl_close(&nl);
	return ret ? 1 : 0;
}

int do_path(int argc, char **argv)
{
	const char *cmd = argc ? argv[0] : "show";

	if (argc) {
		argc--;
		argv++;
	}
	if (arg_is(cmd, "show") || arg_is(cmd, "list") || arg_is(cmd, "ls"))
		return path_show(argc, argv);
	if (arg_is(cmd, "set"))
		return path_set(argc, argv);
	if (arg_is(cmd, "help")) {
		if (argc)
			usage_error("path", "unknown argument \"%s\"", argv[0]);
		path_usage(stdout);
		return 0;
	}
	usage_error("path", "unknown command \"%s\" for object \"path\"", cmd);
}
