// SPDX-License-Identifier: GPL-2.0
/*
 * mrcctl conn: show the connections (and listeners) of mrc devices, with
 * their transport state, counters and per-plane state; the text of
 * path-change events.
 */
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <linux/genetlink.h>
#include <linux/mrc_netlink.h>

#include "args.h"
#include "mrcctl.h"
#include "nl.h"
#include "print.h"

static const char *const state_names[] = {
	[MRC_CONN_STATE_CLOSED] = "closed",
	[MRC_CONN_STATE_LISTEN] = "listen",
	[MRC_CONN_STATE_REQ_SENT] = "req-sent",
	[MRC_CONN_STATE_REQ_RCVD] = "req-rcvd",
	[MRC_CONN_STATE_ESTABLISHED] = "established",
	[MRC_CONN_STATE_TIME_WAIT] = "time-wait",
};

static const enum mnl_attr_data_type conn_types[MRC_A_CONN_MAX + 1] = {
	[MRC_A_CONN_DEV_IFINDEX] = MNL_TYPE_U32,
	[MRC_A_CONN_ID] = MNL_TYPE_U32,
	[MRC_A_CONN_PEER_ID] = MNL_TYPE_U32,
	[MRC_A_CONN_STATE] = MNL_TYPE_U32,
	[MRC_A_CONN_LOCAL_PORT] = MNL_TYPE_U16,
	[MRC_A_CONN_PEER_PORT] = MNL_TYPE_U16,
	/* struct in6_addr: the length is checked by conn_print() */
	[MRC_A_CONN_LOCAL_ADDR] = MNL_TYPE_BINARY,
	[MRC_A_CONN_PEER_ADDR] = MNL_TYPE_BINARY,
	[MRC_A_CONN_ORPHAN] = MNL_TYPE_U8,
	[MRC_A_CONN_PLANES] = MNL_TYPE_U32,
	[MRC_A_CONN_PATHS] = MNL_TYPE_U32,
	[MRC_A_CONN_SEG_SIZE] = MNL_TYPE_U32,
	[MRC_A_CONN_SRTT_US] = MNL_TYPE_U32,
	[MRC_A_CONN_RTTVAR_US] = MNL_TYPE_U32,
	[MRC_A_CONN_RTO_US] = MNL_TYPE_U32,
	[MRC_A_CONN_IN_FLIGHT] = MNL_TYPE_U32,
	[MRC_A_CONN_LOST] = MNL_TYPE_U32,
	[MRC_A_CONN_WINDOW] = MNL_TYPE_U32,
	[MRC_A_CONN_SND_QUEUE] = MNL_TYPE_U32,
	[MRC_A_CONN_TX_MSGS] = MNL_TYPE_U64,
	[MRC_A_CONN_TX_BYTES] = MNL_TYPE_U64,
	[MRC_A_CONN_TX_PKTS] = MNL_TYPE_U64,
	[MRC_A_CONN_RETRANS] = MNL_TYPE_U64,
	[MRC_A_CONN_RTO_COUNT] = MNL_TYPE_U64,
	[MRC_A_CONN_RX_MSGS] = MNL_TYPE_U64,
	[MRC_A_CONN_RX_BYTES] = MNL_TYPE_U64,
	[MRC_A_CONN_RX_PKTS] = MNL_TYPE_U64,
	[MRC_A_CONN_RX_DUPS] = MNL_TYPE_U64,
	[MRC_A_CONN_ACKS_TX] = MNL_TYPE_U64,
	[MRC_A_CONN_ACKS_RX] = MNL_TYPE_U64,
	[MRC_A_CONN_CE_RX] = MNL_TYPE_U64,
	[MRC_A_CONN_TX_BURSTS] = MNL_TYPE_U64,
	[MRC_A_CONN_TX_BURST_PKTS] = MNL_TYPE_U64,
	[MRC_A_CONN_RX_BURSTS] = MNL_TYPE_U64,
	[MRC_A_CONN_RX_BURST_PKTS] = MNL_TYPE_U64,
	[MRC_A_CONN_TX_CHUNKS] = MNL_TYPE_U64,
	[MRC_A_CONN_TX_CHUNK_SEGS] = MNL_TYPE_U64,
	[MRC_A_CONN_TX_CHUNK_ALONE] = MNL_TYPE_U64,
	[MRC_A_CONN_ACKS_PIGGY_TX] = MNL_TYPE_U64,
	[MRC_A_CONN_ACKS_PIGGY_RX] = MNL_TYPE_U64,
	[MRC_A_CONN_SPURIOUS] = MNL_TYPE_U64,
	[MRC_A_CONN_REO_MULT] = MNL_TYPE_U32,
	[MRC_A_CONN_CAPS] = MNL_TYPE_U32,
	[MRC_A_CONN_UID] = MNL_TYPE_U32,
	[MRC_A_CONN_INODE] = MNL_TYPE_U64,
	/* multi-attr, walked in order: PLANE (conn_plane_types) */
};

static const enum mnl_attr_data_type
conn_plane_types[MRC_A_CONN_PLANE_MAX + 1] = {
	[MRC_A_CONN_PLANE_PLANE] = MNL_TYPE_U32,
	[MRC_A_CONN_PLANE_CWND] = MNL_TYPE_U32,
	[MRC_A_CONN_PLANE_IN_FLIGHT] = MNL_TYPE_U32,
	[MRC_A_CONN_PLANE_SRTT_US] = MNL_TYPE_U32,
	[MRC_A_CONN_PLANE_BASE_RTT_US] = MNL_TYPE_U32,
	[MRC_A_CONN_PLANE_ECN_PPM] = MNL_TYPE_U32,
	[MRC_A_CONN_PLANE_EVS_GOOD] = MNL_TYPE_U32,
	[MRC_A_CONN_PLANE_EVS_SKIP] = MNL_TYPE_U32,
	[MRC_A_CONN_PLANE_EVS_BAD] = MNL_TYPE_U32,
	[MRC_A_CONN_PLANE_EVS_DENIED] = MNL_TYPE_U32,
	[MRC_A_CONN_PLANE_ROUNDS] = MNL_TYPE_U64,
	[MRC_A_CONN_PLANE_ECN_CUTS] = MNL_TYPE_U64,
	[MRC_A_CONN_PLANE_DELAY_CUTS] = MNL_TYPE_U64,
	[MRC_A_CONN_PLANE_LOSSES] = MNL_TYPE_U64,
};

/* a number of a continuation line: text " tkey VALUEunit", JSON number */
struct conn_field {
	unsigned int type;
	const char *jkey;
	const char *tkey;
	const char *unit;
};

/* segment size, RTT estimates, sender's state */
static const struct conn_field conn_snd_fields[] = {
	{ MRC_A_CONN_SEG_SIZE, "seg_size", "seg", "" },
	{ MRC_A_CONN_SRTT_US, "srtt_us", "srtt", "us" },
	{ MRC_A_CONN_RTTVAR_US, "rttvar_us", "rttvar", "us" },
	{ MRC_A_CONN_RTO_US, "rto_us", "rto", "us" },
	{ MRC_A_CONN_IN_FLIGHT, "in_flight", "in-flight", "" },
	{ MRC_A_CONN_LOST, "lost", "lost", "" },
	{ MRC_A_CONN_WINDOW, "window", "window", "" },
	{ MRC_A_CONN_SND_QUEUE, "snd_queue", "snd-queue", "" },
	/* last: scripts match "in-flight N lost N window N snd-queue N" */
	{ MRC_A_CONN_REO_MULT, "reo_mult", "reo-mult", "" },
};

static const struct conn_field conn_tx_fields[] = {
	{ MRC_A_CONN_TX_MSGS, "msgs", "msgs", "" },
	{ MRC_A_CONN_TX_BYTES, "bytes", "bytes", "" },
	{ MRC_A_CONN_TX_PKTS, "pkts", "pkts", "" },
	{ MRC_A_CONN_RETRANS, "retrans", "retrans", "" },
	{ MRC_A_CONN_SPURIOUS, "spurious", "spurious", "" },
	{ MRC_A_CONN_RTO_COUNT, "rto", "rto", "" },
	{ MRC_A_CONN_ACKS_TX, "acks", "acks", "" },
	{ MRC_A_CONN_ACKS_PIGGY_TX, "acks_on_data", "acks-on-data", "" },
	{ MRC_A_CONN_TX_BURSTS, "bursts", "bursts", "" },
	{ MRC_A_CONN_TX_BURST_PKTS, "burst_pkts", "burst-pkts", "" },
	{ MRC_A_CONN_TX_CHUNKS, "chunks", "chunks", "" },
	{ MRC_A_CONN_TX_CHUNK_SEGS, "chunk_segs", "chunk-segs", "" },
	{ MRC_A_CONN_TX_CHUNK_ALONE, "chunk_alone", "chunk-alone", "" },
};

static const struct conn_field conn_rx_fields[] = {
	{ MRC_A_CONN_RX_MSGS, "msgs", "msgs", "" },
	{ MRC_A_CONN_RX_BYTES, "bytes", "bytes", "" },
	{ MRC_A_CONN_RX_PKTS, "pkts", "pkts", "" },
	{ MRC_A_CONN_RX_DUPS, "dups", "dups", "" },
	{ MRC_A_CONN_ACKS_RX, "acks", "acks", "" },
	{ MRC_A_CONN_ACKS_PIGGY_RX, "acks_on_data", "acks-on-data", "" },
	{ MRC_A_CONN_CE_RX, "ce", "ce", "" },
	{ MRC_A_CONN_RX_BURSTS, "bursts", "bursts", "" },
	{ MRC_A_CONN_RX_BURST_PKTS, "burst_pkts", "burst-pkts", "" },
};

void conn_usage(FILE *f)
{
	fputs("Usage: mrcctl conn show [dev DEV] [id ID]\n"
	      "       mrcctl conn help\n"
	      "where  DEV := name of an mrc device\n"
	      "       ID  := 1..ffffffff (connection id, hexadecimal, with or without 0x)\n"
	      "\"show\" is the default command; \"list\" and \"ls\" are \"show\" too.\n"
	      "Connection ids are shown, and \"id\" is accepted, only with CAP_NET_ADMIN.\n",
	      f);
}

/*
 * The fields present of a continuation line (text) or of an object (JSON);
 * label NULL: the line starts with the first field present, and there is
 * no line if none is.
 */
static void conn_print_fields(const struct nlattr **tb,
			      const struct conn_field *f, unsigned int n,
			      const char *label)
{
	const char *tkey;
	unsigned int i;
	char buf[32];
	__u64 val;

	if (label)
		print_line(label);
	for (i = 0; i < n; i++) {
		if (!tb[f[i].type])
			continue;
		tkey = f[i].tkey;
		if (!label) {
			print_line(tkey);
			label = tkey;
			tkey = "";
		}
		if (conn_types[f[i].type] == MNL_TYPE_U64)
			val = mnl_attr_get_u64(tb[f[i].type]);
		else
			val = mnl_attr_get_u32(tb[f[i].type]);
		snprintf(buf, sizeof(buf), "%llu%s", (unsigned long long)val,
			 f[i].unit);
		print_u64(f[i].jkey, NULL, val);
		print_str(NULL, tkey, buf);
	}
}

/*
 * One end of a connection: text "ADDR:PORT" (IPv4, v4-mapped), "[ADDR]:PORT"
 * (IPv6) or "*:PORT" (the all-zero address), "*" alone for a peer without
 * address and port (listeners); JSON {"addr": ADDR or "*", "port": PORT}.
 */
static void conn_print_end(const char *jkey, const struct nlattr *addr,
			   const struct nlattr *port, bool peer)
{
	char abuf[INET6_ADDRSTRLEN], buf[INET6_ADDRSTRLEN + 16];
	struct in6_addr a = {};
	bool any, v6 = false;
	__u16 p = 0;

	if (addr)
		memcpy(&a, mnl_attr_get_payload(addr), sizeof(a));
	if (port)
		p = mnl_attr_get_u16(port);
	any = IN6_IS_ADDR_UNSPECIFIED(&a);
	if (any) {
		snprintf(abuf, sizeof(abuf), "*");
	} else if (IN6_IS_ADDR_V4MAPPED(&a)) {
		inet_ntop(AF_INET, &a.s6_addr[12], abuf, sizeof(abuf));
	} else {
		inet_ntop(AF_INET6, &a, abuf, sizeof(abuf));
		v6 = true;
	}

	if (peer && any && !p)
		snprintf(buf, sizeof(buf), "*");
	else if (!port)
		snprintf(buf, sizeof(buf), "%s", abuf);
	else
		snprintf(buf, sizeof(buf), v6 ? "[%s]:%u" : "%s:%u", abuf, p);
	print_str(NULL, "", buf);

	if (!addr && !port)
		return;
	print_nest_begin(jkey);
	print_str("addr", NULL, abuf);
	if (port)
		print_u64("port", NULL, p);
	print_nest_end();
}

/* text " tkey VALUEunit", JSON "jkey": VALUE, of a u32 attribute */
static void conn_print_unit(const char *jkey, const char *tkey,
			    const struct nlattr *attr, const char *unit)
{
	__u32 val = mnl_attr_get_u32(attr);
	char buf[32];

	snprintf(buf, sizeof(buf), "%u%s", val, unit);
	print_u64(jkey, NULL, val);
	print_str(NULL, tkey, buf);
}

/*
 * The paths of a plane per state: text " evs good N skip N bad N denied N"
 * (the present ones; nothing if none is), JSON "evs": {"good": N, ...}
 */
static void conn_print_plane_evs(const struct nlattr **tb)
{
	static const struct {
		unsigned int type;
		const char *key;
	} evs[] = {
		{ MRC_A_CONN_PLANE_EVS_GOOD, "good" },
		{ MRC_A_CONN_PLANE_EVS_SKIP, "skip" },
		{ MRC_A_CONN_PLANE_EVS_BAD, "bad" },
		{ MRC_A_CONN_PLANE_EVS_DENIED, "denied" },
	};
	bool label = false;
	unsigned int i;

	print_nest_begin("evs");
	for (i = 0; i < ARRAY_SIZE(evs); i++) {
		if (!tb[evs[i].type])
			continue;
		if (!label) {
			print_str(NULL, "", "evs");
			label = true;
		}
		print_u64(evs[i].key, evs[i].key,
			  mnl_attr_get_u32(tb[evs[i].type]));
	}
	print_nest_end();
}

/* text " tkey N" ("?" if missing), JSON "plane": N */
static void conn_print_plane_num(const struct nlattr **tb, const char *tkey)
{
	if (tb[MRC_A_CONN_PLANE_PLANE])
		print_u64("plane", tkey,
			  mnl_attr_get_u32(tb[MRC_A_CONN_PLANE_PLANE]));
	else
		print_str(NULL, tkey, "?");
}

/* a valid MRC_A_CONN_PLANE nest */
static bool conn_is_plane(const struct nlattr *attr)
{
	return mnl_attr_get_type(attr) == MRC_A_CONN_PLANE &&
	       mnl_attr_validate(attr, MNL_TYPE_NESTED) >= 0;
}

/*
 * One plane of a connection: text line "plane N cwnd BYTES in-flight
 * BYTES srtt USus base-rtt USus ecn PCT% evs good N skip N bad N denied
 * N rounds N ecn-cuts N delay-cuts N losses N", JSON {"plane": N, "cwnd":
 * BYTES, ..., "ecn_ppm": PPM, "evs": {"good": N, ...}, "rounds": N, ...}.
 */
static void conn_print_plane(const struct nlattr *nest)
{
	static const struct conn_field cc_fields[] = {
		{ MRC_A_CONN_PLANE_ROUNDS, "rounds", "rounds", NULL },
		{ MRC_A_CONN_PLANE_ECN_CUTS, "ecn_cuts", "ecn-cuts", NULL },
		{ MRC_A_CONN_PLANE_DELAY_CUTS, "delay_cuts", "delay-cuts", NULL },
		{ MRC_A_CONN_PLANE_LOSSES, "losses", "losses", NULL },
	};
	const struct nlattr *tb[MRC_A_CONN_PLANE_MAX + 1] = {};
	char buf[32];
	__u64 tenths;
	unsigned int f;

	nl_parse_nested(nest, conn_plane_types, MRC_A_CONN_PLANE_MAX, tb);
	print_line("plane");
	print_nest_begin(NULL);
	conn_print_plane_num(tb, "");
	if (tb[MRC_A_CONN_PLANE_CWND])
		print_u64("cwnd", "cwnd",
			  mnl_attr_get_u32(tb[MRC_A_CONN_PLANE_CWND]));
	if (tb[MRC_A_CONN_PLANE_IN_FLIGHT])
		print_u64("in_flight", "in-flight",
			  mnl_attr_get_u32(tb[MRC_A_CONN_PLANE_IN_FLIGHT]));
	if (tb[MRC_A_CONN_PLANE_SRTT_US])
		conn_print_unit("srtt_us", "srtt", tb[MRC_A_CONN_PLANE_SRTT_US],
				"us");
	if (tb[MRC_A_CONN_PLANE_BASE_RTT_US])
		conn_print_unit("base_rtt_us", "base-rtt",
				tb[MRC_A_CONN_PLANE_BASE_RTT_US], "us");
	if (tb[MRC_A_CONN_PLANE_ECN_PPM]) {
		/* parts per million as a percentage, rounded to 0.1 */
		print_u64("ecn_ppm", NULL,
			  mnl_attr_get_u32(tb[MRC_A_CONN_PLANE_ECN_PPM]));
		tenths = mnl_attr_get_u32(tb[MRC_A_CONN_PLANE_ECN_PPM]);
		tenths = (tenths + 500) / 1000;
		snprintf(buf, sizeof(buf), "%llu.%llu%%",
			 (unsigned long long)tenths / 10,
			 (unsigned long long)tenths % 10);
		print_str(NULL, "ecn", buf);
	}
	conn_print_plane_evs(tb);
	for (f = 0; f < ARRAY_SIZE(cc_fields); f++)
		if (tb[cc_fields[f].type])
			print_u64(cc_fields[f].jkey, cc_fields[f].tkey,
				  mnl_attr_get_u64(tb[cc_fields[f].type]));
	print_nest_end();
}

/*
 * Text of a path-change event, one line: "[EVENT] DEV ID: plane N evs
 * good N skip N bad N denied N plane N ..."
 */
static void conn_print_event(const struct nlmsghdr *nlh, const char *event,
			     const char *head)
{
	const struct nlattr *attr;

	print_obj_begin();
	print_event(event);
	print_head_str(head);
	mnl_attr_for_each(attr, nlh, GENL_HDRLEN) {
		const struct nlattr *tb[MRC_A_CONN_PLANE_MAX + 1] = {};

		if (!conn_is_plane(attr))
			continue;
		nl_parse_nested(attr, conn_plane_types, MRC_A_CONN_PLANE_MAX,
				tb);
		conn_print_plane_num(tb, "plane");
		conn_print_plane_evs(tb);
	}
	print_obj_end();
}

/*
 * The kernel reports connection ids only to CAP_NET_ADMIN (with both, a
 * local user could forge the peer's RESET); without them, text says so in
 * the head, JSON has "ids_hidden": true and no "id"/"peer_id".
 */
#define CONN_ID_HIDDEN	"(id hidden: needs CAP_NET_ADMIN)"

void conn_print(const struct nlmsghdr *nlh, const char *event)
{
	const struct nlattr *tb[MRC_A_CONN_MAX + 1] = {};
	char name[IF_NAMESIZE], head[IF_NAMESIZE + sizeof(CONN_ID_HIDDEN) + 1];
	char id[sizeof(CONN_ID_HIDDEN)] = CONN_ID_HIDDEN, peer_id[16] = "";
	const struct nlattr *attr;
	const char *dev = "?";
	__u32 ifindex;
	bool orphan;

	nl_parse(nlh, conn_types, MRC_A_CONN_MAX, tb);
	if (tb[MRC_A_CONN_LOCAL_ADDR] &&
	    mnl_attr_get_payload_len(tb[MRC_A_CONN_LOCAL_ADDR]) !=
	    sizeof(struct in6_addr))
		tb[MRC_A_CONN_LOCAL_ADDR] = NULL;
	if (tb[MRC_A_CONN_PEER_ADDR] &&
	    mnl_attr_get_payload_len(tb[MRC_A_CONN_PEER_ADDR]) !=
	    sizeof(struct in6_addr))
		tb[MRC_A_CONN_PEER_ADDR] = NULL;
	if (tb[MRC_A_CONN_DEV_IFINDEX]) {
		ifindex = mnl_attr_get_u32(tb[MRC_A_CONN_DEV_IFINDEX]);
		if (!if_indextoname(ifindex, name))
			snprintf(name, sizeof(name), "%u", ifindex);
		dev = name;
	}
	if (tb[MRC_A_CONN_ID])
		snprintf(id, sizeof(id), "%08x",
			 mnl_attr_get_u32(tb[MRC_A_CONN_ID]));
	if (tb[MRC_A_CONN_PEER_ID])
		snprintf(peer_id, sizeof(peer_id), "%08x",
			 mnl_attr_get_u32(tb[MRC_A_CONN_PEER_ID]));
	orphan = tb[MRC_A_CONN_ORPHAN] &&
		 mnl_attr_get_u8(tb[MRC_A_CONN_ORPHAN]);
	/* text: "DEV ID: STATE LOCAL -> PEER peer-id ..." */
	snprintf(head, sizeof(head), "%s %s", dev, id);
	if (event && !print_json()) {
		conn_print_event(nlh, event, head);
		return;
	}

	print_obj_begin();
	if (event)
		print_event(event);
	print_head_str(head);
	print_ifname("dev", NULL, NULL, tb[MRC_A_CONN_DEV_IFINDEX]);
	if (tb[MRC_A_CONN_DEV_IFINDEX])
		print_u64("dev_ifindex", NULL,
			  mnl_attr_get_u32(tb[MRC_A_CONN_DEV_IFINDEX]));
	if (tb[MRC_A_CONN_ID])
		print_str("id", NULL, id);
	else
		print_bool("ids_hidden", NULL, true);
	if (tb[MRC_A_CONN_PEER_ID])
		print_str("peer_id", NULL, peer_id);
	if (tb[MRC_A_CONN_STATE])
		print_enum("state", "", state_names, ARRAY_SIZE(state_names),
			   mnl_attr_get_u32(tb[MRC_A_CONN_STATE]));
	conn_print_end("local", tb[MRC_A_CONN_LOCAL_ADDR],
		       tb[MRC_A_CONN_LOCAL_PORT], false);
	print_str(NULL, "", "->");
	conn_print_end("peer", tb[MRC_A_CONN_PEER_ADDR],
		       tb[MRC_A_CONN_PEER_PORT], true);
	if (tb[MRC_A_CONN_ORPHAN])
		print_bool("orphan", NULL, orphan);
	if (tb[MRC_A_CONN_PEER_ID])
		print_str(NULL, "peer-id", peer_id);
	if (tb[MRC_A_CONN_PLANES])
		print_u64("planes", "planes",
			  mnl_attr_get_u32(tb[MRC_A_CONN_PLANES]));
	if (tb[MRC_A_CONN_PATHS])
		print_u64("paths", "paths",
			  mnl_attr_get_u32(tb[MRC_A_CONN_PATHS]));
	/* capabilities: text names the ones in force, JSON says each */
	if (tb[MRC_A_CONN_CAPS]) {
		print_bool("ack_data", "ack-data",
			   mnl_attr_get_u32(tb[MRC_A_CONN_CAPS]) & MRC_CONN_CAPS_ACK_DATA);
		print_bool("host_delay", "host-delay",
			   mnl_attr_get_u32(tb[MRC_A_CONN_CAPS]) &
			   MRC_CONN_CAPS_HOST_DELAY);
	}
	/* the socket's owner and inode, as ss shows them (absent: orphan) */
	if (tb[MRC_A_CONN_UID])
		print_u64("uid", "uid", mnl_attr_get_u32(tb[MRC_A_CONN_UID]));
	if (tb[MRC_A_CONN_INODE])
		print_u64("inode", "ino", mnl_attr_get_u64(tb[MRC_A_CONN_INODE]));
	print_bool(NULL, "orphan", orphan);

	conn_print_fields(tb, conn_snd_fields, ARRAY_SIZE(conn_snd_fields),
			  NULL);
	print_nest_begin("tx");
	conn_print_fields(tb, conn_tx_fields, ARRAY_SIZE(conn_tx_fields), "tx");
	print_nest_end();
	print_nest_begin("rx");
	conn_print_fields(tb, conn_rx_fields, ARRAY_SIZE(conn_rx_fields), "rx");
	print_nest_end();

	print_arr_begin("per_plane");
	mnl_attr_for_each(attr, nlh, GENL_HDRLEN)
		if (conn_is_plane(attr))
			conn_print_plane(attr);
	print_arr_end();
	print_obj_end();
}

/* data: ifindex of the mrc device whose connections to print, 0 for all */
static int conn_show_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[MRC_A_CONN_MAX + 1] = {};
	const __u32 *dev = data;

	if (*dev) {
		nl_parse(nlh, conn_types, MRC_A_CONN_MAX, tb);
		if (!tb[MRC_A_CONN_DEV_IFINDEX] ||
		    mnl_attr_get_u32(tb[MRC_A_CONN_DEV_IFINDEX]) != *dev)
			return MNL_CB_OK;
	}
	conn_print(nlh, NULL);
	return MNL_CB_OK;
}

static int conn_show(int argc, char **argv)
{
	const char *dev = NULL, *id_arg = NULL;
	char buf[NL_TX_BUF_SIZE];
	__u32 id = 0, dev_ifindex = 0;
	struct nlmsghdr *nlh;
	struct nl nl;
	int ret;

	for (; argc; argc -= 2, argv += 2) {
		if (arg_is(argv[0], "dev")) {
			if (dev)
				usage_error("conn", "duplicate \"dev\"");
			dev = arg_value("conn", argc, argv);
		} else if (arg_is(argv[0], "id")) {
			if (id_arg)
				usage_error("conn", "duplicate \"id\"");
			id_arg = arg_value("conn", argc, argv);
			id = arg_hex_u32("conn", "id", id_arg, 1, 0xffffffff);
		} else {
			usage_error("conn", "unknown argument \"%s\"", argv[0]);
		}
	}
	if (dev)
		dev_ifindex = arg_ifindex(dev);

	if (nl_open(&nl) < 0)
		return 1;
	if (id_arg) {
		nlh = nl_msg(&nl, buf, MRC_CMD_CONN_GET, NLM_F_ACK);
		mnl_attr_put_u32(nlh, MRC_A_CONN_ID, id);
	} else {
		nlh = nl_msg(&nl, buf, MRC_CMD_CONN_GET, NLM_F_DUMP | NLM_F_ACK);
		if (dev_ifindex)
			mnl_attr_put_u32(nlh, MRC_A_CONN_DEV_IFINDEX,
					 dev_ifindex);
	}
	print_list_begin();
	ret = nl_request(&nl, nlh, conn_show_cb, &dev_ifindex);
	print_list_end(!ret);
	nl_close(&nl);
	if (print_flush() < 0)
		return 1;
	return ret ? 1 : 0;
}

int do_conn(int argc, char **argv)
{
	const char *cmd = argc ? argv[0] : "show";

	if (argc) {
		argc--;
		argv++;
	}
	if (arg_is(cmd, "show") || arg_is(cmd, "list") || arg_is(cmd, "ls"))
		return conn_show(argc, argv);
	if (arg_is(cmd, "help")) {
		if (argc)
			usage_error("conn", "unknown argument \"%s\"", argv[0]);
		conn_usage(stdout);
		return 0;
	}
	usage_error("conn", "unknown command \"%s\" for object \"conn\"", cmd);
}
