// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of the output of devices, rails, connections and paths:
 * synthetic replies and notifications of the mrc family, printed as text
 * and JSON and compared with the expected lines.  "make test".
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/genetlink.h>
#include <linux/mrc_netlink.h>

#include "mrcctl.h"
#include "nl.h"
#include "print.h"

/* ifindexes no netdevice of the test machine has */
#define DEV_IFINDEX	100005
#define RAIL_IFINDEX	100007

struct mrcctl_opts opts;

static int failed;
static char msgbuf[NL_TX_BUF_SIZE], msgbuf2[NL_TX_BUF_SIZE];

static struct nlmsghdr *msg_start_in(char *buf, __u8 cmd)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *genl;

	nlh->nlmsg_type = 0x20;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = cmd;
	genl->version = MRC_FAMILY_VERSION;
	return nlh;
}

static struct nlmsghdr *msg_start(__u8 cmd)
{
	return msg_start_in(msgbuf, cmd);
}

static void put_drop(struct nlmsghdr *nlh, __u32 reason, __u64 packets,
		     bool complete)
{
	struct nlattr *nest = mnl_attr_nest_start(nlh, MRC_A_STATS_DROP);

	mnl_attr_put(nlh, MRC_A_DROP_PAD, 0, NULL);
	mnl_attr_put_u32(nlh, MRC_A_DROP_REASON, reason);
	if (complete)
		mnl_attr_put_u64(nlh, MRC_A_DROP_PACKETS, packets);
	/* from a newer kernel */
	mnl_attr_put_u32(nlh, MRC_A_DROP_MAX + 1, 1);
	mnl_attr_nest_end(nlh, nest);
}

static void put_stats(struct nlmsghdr *nlh, int type, __u64 base, bool drops)
{
	struct nlattr *nest = mnl_attr_nest_start(nlh, type);
	int i;

	mnl_attr_put(nlh, MRC_A_STATS_PAD, 0, NULL);
	for (i = MRC_A_STATS_TX_PACKETS; i <= MRC_A_STATS_RX_DROPPED; i++)
		mnl_attr_put_u64(nlh, i, base + i);
	if (drops) {
		/* the kernel's order, not the enum's */
		put_drop(nlh, MRC_DROP_REASON_NO_CONN, 3, true);
		put_drop(nlh, MRC_DROP_REASON_DUPLICATE, 179, true);
		/* malformed: ignored */
		put_drop(nlh, MRC_DROP_REASON_SHORT, 0, false);
		mnl_attr_put_u32(nlh, MRC_A_STATS_DROP, 1);
		/* a reason of a newer kernel */
		put_drop(nlh, 99, 5, true);
		put_drop(nlh, MRC_DROP_REASON_BAD_CHECKSUM, 1, true);
	}
	/* from a newer kernel */
	mnl_attr_put_u64(nlh, MRC_A_STATS_MAX + 1, 12345);
	mnl_attr_nest_end(nlh, nest);
}

static void put_dev_rail(struct nlmsghdr *nlh, __u32 ifindex, const char *name,
			 __u32 plane, __u32 oper)
{
	struct nlattr *nest = mnl_attr_nest_start(nlh, MRC_A_DEV_RAIL);

	mnl_attr_put_u32(nlh, MRC_A_RAIL_IFINDEX, ifindex);
	if (name)
		mnl_attr_put_strz(nlh, MRC_A_RAIL_NAME, name);
	mnl_attr_put_u32(nlh, MRC_A_RAIL_PLANE, plane);
	mnl_attr_put_u32(nlh, MRC_A_RAIL_ADMIN_STATE, MRC_ADMIN_STATE_UP);
	mnl_attr_put_u32(nlh, MRC_A_RAIL_OPER_STATE, oper);
	mnl_attr_nest_end(nlh, nest);
}

static void put_ev_transitions(struct nlmsghdr *nlh)
{
	struct nlattr *nest = mnl_attr_nest_start(nlh, MRC_A_DEV_EV_TRANSITIONS);

	mnl_attr_put(nlh, MRC_A_EV_TRANSITIONS_PAD, 0, NULL);
	mnl_attr_put_u64(nlh, MRC_A_EV_TRANSITIONS_TO_GOOD, 41);
	mnl_attr_put_u64(nlh, MRC_A_EV_TRANSITIONS_TO_SKIP, 1234567890123ULL);
	mnl_attr_put_u64(nlh, MRC_A_EV_TRANSITIONS_TO_BAD, 37);
	mnl_attr_put_u64(nlh, MRC_A_EV_TRANSITIONS_TO_DENIED, 2);
	mnl_attr_put_u64(nlh, MRC_A_EV_TRANSITIONS_REPLACED, 5);
	/* from a newer kernel */
	mnl_attr_put_u64(nlh, MRC_A_EV_TRANSITIONS_MAX + 1, 9);
	mnl_attr_nest_end(nlh, nest);
}

static struct nlmsghdr *dev_msg(__u8 cmd, bool rails)
{
	struct nlmsghdr *nlh = msg_start(cmd);

	mnl_attr_put_u32(nlh, MRC_A_DEV_IFINDEX, 5);
	mnl_attr_put_strz(nlh, MRC_A_DEV_NAME, "mrc0");
	mnl_attr_put_strz(nlh, MRC_A_DEV_VERSION, "0.1.0");
	mnl_attr_put_u32(nlh, MRC_A_DEV_FAMILY, 22);
	mnl_attr_put_u16(nlh, MRC_A_DEV_UDP_PORT, 4796);
	mnl_attr_put_u32(nlh, MRC_A_DEV_MAX_MSG_SIZE, 1048576);
	mnl_attr_put_u32(nlh, MRC_A_DEV_EVS_PER_PLANE, 8);
	mnl_attr_put_strz(nlh, MRC_A_DEV_SPRAY, rails ? "mrc" : "rr");
	put_ev_transitions(nlh);
	if (rails) {
		put_dev_rail(nlh, 3, "eth1", 0, MRC_OPER_STATE_UP);
		put_dev_rail(nlh, 4, "eth2", 1, MRC_OPER_STATE_NO_CARRIER);
		/* no name: resolved, or the ifindex */
		put_dev_rail(nlh, RAIL_IFINDEX, NULL, 2, 9);
	}
	put_stats(nlh, MRC_A_DEV_STATS, 100, false);
	/* from a newer kernel */
	mnl_attr_put_u32(nlh, MRC_A_DEV_MAX + 1, 7);
	return nlh;
}

static void put_queue(struct nlmsghdr *nlh, __u32 type, __u32 id)
{
	struct nlattr *nest = mnl_attr_nest_start(nlh, MRC_A_RAIL_QUEUE);

	mnl_attr_put(nlh, MRC_A_QUEUE_PAD, 0, NULL);
	mnl_attr_put_u32(nlh, MRC_A_QUEUE_TYPE, type);
	mnl_attr_put_u32(nlh, MRC_A_QUEUE_ID, id);
	mnl_attr_put_u64(nlh, MRC_A_QUEUE_PACKETS, 10 + id);
	mnl_attr_put_u64(nlh, MRC_A_QUEUE_BYTES, 1000 + id);
	mnl_attr_nest_end(nlh, nest);
}

/*
 * A rail; full: names, addresses, stats and its queue entries rx 0, tx 0,
 * tx 1, type 7 id 3, the first nq of them.
 */
static struct nlmsghdr *rail_msg_q(__u8 cmd, bool full, int nq)
{
	struct nlmsghdr *nlh = msg_start(cmd);
	struct in6_addr a6;
	struct in_addr a4;

	mnl_attr_put_u32(nlh, MRC_A_RAIL_DEV_IFINDEX, full ? 1 : DEV_IFINDEX);
	mnl_attr_put_u32(nlh, MRC_A_RAIL_IFINDEX, RAIL_IFINDEX);
	if (full)
		mnl_attr_put_strz(nlh, MRC_A_RAIL_NAME, "eth1");
	mnl_attr_put_u32(nlh, MRC_A_RAIL_PLANE, 0);
	mnl_attr_put_u32(nlh, MRC_A_RAIL_ADMIN_STATE, MRC_ADMIN_STATE_UP);
	mnl_attr_put_u32(nlh, MRC_A_RAIL_OPER_STATE, MRC_OPER_STATE_UP);
	mnl_attr_put_u32(nlh, MRC_A_RAIL_MTU, 1500);
	if (full) {
		inet_pton(AF_INET, "10.1.0.1", &a4);
		mnl_attr_put_u32(nlh, MRC_A_RAIL_IPV4, a4.s_addr);
		inet_pton(AF_INET6, "fd00:1::1", &a6);
		mnl_attr_put(nlh, MRC_A_RAIL_IPV6, sizeof(a6), &a6);
		inet_pton(AF_INET, "192.168.7.9", &a4);
		mnl_attr_put_u32(nlh, MRC_A_RAIL_IPV4, a4.s_addr);
		inet_pton(AF_INET6, "fe80::1", &a6);
		mnl_attr_put(nlh, MRC_A_RAIL_IPV6, sizeof(a6), &a6);
		/* malformed: ignored */
		mnl_attr_put(nlh, MRC_A_RAIL_IPV6, 4, &a4);
	}
	mnl_attr_put_u32(nlh, MRC_A_RAIL_TX_QUEUES, 2);
	mnl_attr_put_u32(nlh, MRC_A_RAIL_RX_QUEUES, 1);
	if (full) {
		put_stats(nlh, MRC_A_RAIL_STATS, 0, true);
		if (nq > 0)
			put_queue(nlh, MRC_QUEUE_TYPE_RX, 0);
		if (nq > 1)
			put_queue(nlh, MRC_QUEUE_TYPE_TX, 0);
		if (nq > 2)
			put_queue(nlh, MRC_QUEUE_TYPE_TX, 1);
		if (nq > 3)
			put_queue(nlh, 7, 3);
	}
	return nlh;
}

static struct nlmsghdr *rail_msg(__u8 cmd, bool full)
{
	return rail_msg_q(cmd, full, 4);
}

/* how a dump goes on with the full rail after its first queue entry */
static struct nlmsghdr *rail_cont_msg(void)
{
	struct nlmsghdr *nlh = msg_start_in(msgbuf2, MRC_CMD_RAIL_GET);

	mnl_attr_put_u32(nlh, MRC_A_RAIL_DEV_IFINDEX, 1);
	mnl_attr_put_u32(nlh, MRC_A_RAIL_IFINDEX, RAIL_IFINDEX);
	mnl_attr_put_strz(nlh, MRC_A_RAIL_NAME, "eth1");
	put_queue(nlh, MRC_QUEUE_TYPE_TX, 0);
	put_queue(nlh, MRC_QUEUE_TYPE_TX, 1);
	put_queue(nlh, 7, 3);
	return nlh;
}

static void put_addr(struct nlmsghdr *nlh, int type, const char *addr)
{
	struct in6_addr a6;

	inet_pton(AF_INET6, addr, &a6);
	mnl_attr_put(nlh, type, sizeof(a6), &a6);
}

#define CONN_COUNTERS	(MRC_A_CONN_CE_RX - MRC_A_CONN_SEG_SIZE + 1)

static void put_conn_counters(struct nlmsghdr *nlh, const __u64 *val)
{
	int i;

	for (i = MRC_A_CONN_SEG_SIZE; i <= MRC_A_CONN_SND_QUEUE; i++)
		mnl_attr_put_u32(nlh, i, *val++);
	for (i = MRC_A_CONN_TX_MSGS; i <= MRC_A_CONN_CE_RX; i++)
		mnl_attr_put_u64(nlh, i, *val++);
}

/*
 * plane, cwnd, in-flight, srtt, base-rtt, ecn-ppm, evs good/skip/bad/denied;
 * rounds, ecn-cuts, delay-cuts, losses
 */
static void put_plane(struct nlmsghdr *nlh, const __u32 *val, const __u64 *cc)
{
	struct nlattr *nest = mnl_attr_nest_start(nlh, MRC_A_CONN_PLANE);
	int i;

	mnl_attr_put(nlh, MRC_A_CONN_PLANE_PAD, 0, NULL);
	for (i = MRC_A_CONN_PLANE_PLANE; i <= MRC_A_CONN_PLANE_EVS_DENIED; i++)
		mnl_attr_put_u32(nlh, i, *val++);
	for (i = MRC_A_CONN_PLANE_ROUNDS; i <= MRC_A_CONN_PLANE_LOSSES; i++)
		mnl_attr_put_u64(nlh, i, *cc++);
	mnl_attr_nest_end(nlh, nest);
}

enum conn_kind { CONN_V4, CONN_V6, CONN_LISTEN, CONN_BARE, CONN_HIDDEN };

static struct nlmsghdr *conn_msg(enum conn_kind kind)
{
	/* seg-size .. snd-queue; tx-msgs .. rto-count; rx-msgs .. ce-rx */
	static const __u64 v4[CONN_COUNTERS] = {
		1436, 592, 100, 20000, 3, 0, 1000, 0,
		200, 2021354, 1506, 0, 0,
		0, 0, 1, 0, 753, 754, 0,
	};
	static const __u64 v6[CONN_COUNTERS] = {
		8952, 31, 7, 200000, 64, 2, 0, 17,
		1, 2, 3, 4, 5,
		6, 7, 8, 9, 10, 11, 12,
	};
	static const __u32 plane0[] = { 0, 150000, 43080, 31, 24, 12345, 7, 1, 0, 0 };
	static const __u32 plane3[] = { 3, 14360, 0, 2000, 1500, 1000000, 2, 0, 5, 1 };
	static const __u64 cc0[] = { 120, 3, 1, 0 };
	static const __u64 cc3[] = { 5000000000ULL, 0, 7, 9 };
	static const __u64 zero[CONN_COUNTERS];
	struct nlmsghdr *nlh = msg_start(MRC_CMD_CONN_GET);
	struct nlattr *nest;

	switch (kind) {
	case CONN_V4:
	case CONN_HIDDEN:
		/* hidden: as an unprivileged user sees it, without ids */
		mnl_attr_put_u32(nlh, MRC_A_CONN_DEV_IFINDEX, 1);
		if (kind == CONN_V4) {
			mnl_attr_put_u32(nlh, MRC_A_CONN_ID, 0x1a2b3c4d);
			mnl_attr_put_u32(nlh, MRC_A_CONN_PEER_ID, 0x9f8e7d6c);
		}
		mnl_attr_put_u32(nlh, MRC_A_CONN_STATE,
				 MRC_CONN_STATE_ESTABLISHED);
		mnl_attr_put_u16(nlh, MRC_A_CONN_LOCAL_PORT, 49152);
		mnl_attr_put_u16(nlh, MRC_A_CONN_PEER_PORT, 7000);
		put_addr(nlh, MRC_A_CONN_LOCAL_ADDR, "::ffff:10.0.0.1");
		put_addr(nlh, MRC_A_CONN_PEER_ADDR, "::ffff:10.1.0.2");
		mnl_attr_put_u8(nlh, MRC_A_CONN_ORPHAN, 0);
		mnl_attr_put_u32(nlh, MRC_A_CONN_PLANES, 4);
		mnl_attr_put_u32(nlh, MRC_A_CONN_PATHS, 32);
		mnl_attr_put(nlh, MRC_A_CONN_PAD, 0, NULL);
		put_conn_counters(nlh, v4);
		/* a kernel with bursts and chunks (the others: one without) */
		mnl_attr_put_u64(nlh, MRC_A_CONN_TX_BURSTS, 301);
		mnl_attr_put_u64(nlh, MRC_A_CONN_TX_BURST_PKTS, 1204);
		mnl_attr_put_u64(nlh, MRC_A_CONN_RX_BURSTS, 3);
		mnl_attr_put_u64(nlh, MRC_A_CONN_RX_BURST_PKTS, 11);
		mnl_attr_put_u64(nlh, MRC_A_CONN_TX_CHUNKS, 54);
		mnl_attr_put_u64(nlh, MRC_A_CONN_TX_CHUNK_SEGS, 703);
		mnl_attr_put_u64(nlh, MRC_A_CONN_TX_CHUNK_ALONE, 12);
		/* and ACKs on DATA */
		mnl_attr_put_u64(nlh, MRC_A_CONN_ACKS_PIGGY_TX, 250);
		mnl_attr_put_u64(nlh, MRC_A_CONN_ACKS_PIGGY_RX, 248);
		mnl_attr_put_u32(nlh, MRC_A_CONN_CAPS,
				 MRC_CONN_CAPS_ACK_DATA | MRC_CONN_CAPS_HOST_DELAY);
		/* and spurious losses, the reordering window they grew */
		mnl_attr_put_u64(nlh, MRC_A_CONN_SPURIOUS, 5);
		mnl_attr_put_u32(nlh, MRC_A_CONN_REO_MULT, 2);
		/* the socket's owner and an inode above 32 bits */
		mnl_attr_put_u32(nlh, MRC_A_CONN_UID, 1000);
		mnl_attr_put_u64(nlh, MRC_A_CONN_INODE, 4294967301ULL);
		put_plane(nlh, plane0, cc0);
		put_plane(nlh, plane3, cc3);
		break;
	case CONN_V6:
		mnl_attr_put_u32(nlh, MRC_A_CONN_DEV_IFINDEX, DEV_IFINDEX);
		mnl_attr_put_u32(nlh, MRC_A_CONN_ID, 0x42);
		mnl_attr_put_u32(nlh, MRC_A_CONN_PEER_ID, 0xffffffff);
		mnl_attr_put_u32(nlh, MRC_A_CONN_STATE,
				 MRC_CONN_STATE_TIME_WAIT);
		mnl_attr_put_u16(nlh, MRC_A_CONN_LOCAL_PORT, 7000);
		mnl_attr_put_u16(nlh, MRC_A_CONN_PEER_PORT, 65535);
		put_addr(nlh, MRC_A_CONN_LOCAL_ADDR, "fd00::1");
		put_addr(nlh, MRC_A_CONN_PEER_ADDR, "fd00:1::2");
		mnl_attr_put_u8(nlh, MRC_A_CONN_ORPHAN, 1);
		mnl_attr_put_u32(nlh, MRC_A_CONN_PLANES, 2);
		mnl_attr_put_u32(nlh, MRC_A_CONN_PATHS, 8);
		mnl_attr_put_u32(nlh, MRC_A_CONN_CAPS, 0);
		put_conn_counters(nlh, v6);
		break;
	case CONN_LISTEN:
		mnl_attr_put_u32(nlh, MRC_A_CONN_DEV_IFINDEX, 1);
		mnl_attr_put_u32(nlh, MRC_A_CONN_ID, 0xabcd);
		mnl_attr_put_u32(nlh, MRC_A_CONN_PEER_ID, 0);
		mnl_attr_put_u32(nlh, MRC_A_CONN_STATE, MRC_CONN_STATE_LISTEN);
		mnl_attr_put_u16(nlh, MRC_A_CONN_LOCAL_PORT, 7000);
		mnl_attr_put_u16(nlh, MRC_A_CONN_PEER_PORT, 0);
		put_addr(nlh, MRC_A_CONN_LOCAL_ADDR, "::");
		put_addr(nlh, MRC_A_CONN_PEER_ADDR, "::");
		mnl_attr_put_u8(nlh, MRC_A_CONN_ORPHAN, 0);
		mnl_attr_put_u32(nlh, MRC_A_CONN_PLANES, 0);
		mnl_attr_put_u32(nlh, MRC_A_CONN_PATHS, 0);
		put_conn_counters(nlh, zero);
		mnl_attr_put_u32(nlh, MRC_A_CONN_UID, 0);
		mnl_attr_put_u64(nlh, MRC_A_CONN_INODE, 12345);
		break;
	case CONN_BARE:
		/* most attributes missing, some malformed, some unknown */
		mnl_attr_put_u32(nlh, MRC_A_CONN_ID, 5);
		mnl_attr_put_u32(nlh, MRC_A_CONN_STATE, 9);
		mnl_attr_put(nlh, MRC_A_CONN_LOCAL_ADDR, 4, "\x0a\0\0\x01");
		mnl_attr_put_u8(nlh, MRC_A_CONN_PEER_PORT, 7);
		mnl_attr_put_u32(nlh, MRC_A_CONN_SRTT_US, 250);
		mnl_attr_put_u64(nlh, MRC_A_CONN_RX_BYTES, 4096);
		mnl_attr_put_u32(nlh, MRC_A_CONN_MAX + 1, 7);
		/* planes: malformed (ignored), bare, some fields only */
		mnl_attr_put_u8(nlh, MRC_A_CONN_PLANE, 1);
		nest = mnl_attr_nest_start(nlh, MRC_A_CONN_PLANE);
		mnl_attr_put_u8(nlh, MRC_A_CONN_PLANE_PLANE, 2);
		mnl_attr_put_u32(nlh, MRC_A_CONN_PLANE_MAX + 1, 7);
		mnl_attr_nest_end(nlh, nest);
		nest = mnl_attr_nest_start(nlh, MRC_A_CONN_PLANE);
		mnl_attr_put_u32(nlh, MRC_A_CONN_PLANE_PLANE, 1);
		mnl_attr_put_u32(nlh, MRC_A_CONN_PLANE_ECN_PPM, 449);
		mnl_attr_put_u32(nlh, MRC_A_CONN_PLANE_EVS_SKIP, 3);
		mnl_attr_nest_end(nlh, nest);
		break;
	}
	return nlh;
}

/* conn-id, index, ev, plane, sport, state, since-ms, rtt-us; counters */
struct path_spec {
	__u32 conn, index, ev, plane, state, since_ms, rtt_us;
	__u64 ctr[MRC_A_PATH_PROBES - MRC_A_PATH_PKTS + 1];
};

/* conn 0: as an unprivileged user sees it, without the connection id */
static struct nlmsghdr *path_msg(const struct path_spec *p)
{
	struct nlmsghdr *nlh = msg_start(MRC_CMD_PATH_GET);
	int i;

	if (p->conn)
		mnl_attr_put_u32(nlh, MRC_A_PATH_CONN_ID, p->conn);
	mnl_attr_put_u32(nlh, MRC_A_PATH_INDEX, p->index);
	mnl_attr_put_u32(nlh, MRC_A_PATH_EV, p->ev);
	mnl_attr_put_u32(nlh, MRC_A_PATH_PLANE, p->plane);
	mnl_attr_put_u16(nlh, MRC_A_PATH_SPORT, 0xc000 | p->ev);
	mnl_attr_put_u32(nlh, MRC_A_PATH_STATE, p->state);
	mnl_attr_put_u32(nlh, MRC_A_PATH_SINCE_MS, p->since_ms);
	mnl_attr_put(nlh, MRC_A_PATH_PAD, 0, NULL);
	for (i = MRC_A_PATH_PKTS; i <= MRC_A_PATH_PROBES; i++)
		mnl_attr_put_u64(nlh, i, p->ctr[i - MRC_A_PATH_PKTS]);
	mnl_attr_put_u32(nlh, MRC_A_PATH_RTT_US, p->rtt_us);
	return nlh;
}

/* a path most of whose attributes are missing, malformed or unknown */
static struct nlmsghdr *path_bare_msg(void)
{
	struct nlmsghdr *nlh = msg_start(MRC_CMD_PATH_GET);

	mnl_attr_put_u32(nlh, MRC_A_PATH_CONN_ID, 5);
	mnl_attr_put_u32(nlh, MRC_A_PATH_INDEX, 0);
	mnl_attr_put_u32(nlh, MRC_A_PATH_EV, 16383);
	mnl_attr_put_u8(nlh, MRC_A_PATH_SPORT, 1);
	mnl_attr_put_u32(nlh, MRC_A_PATH_STATE, 9);
	mnl_attr_put_u32(nlh, MRC_A_PATH_PKTS, 1);
	mnl_attr_put_u64(nlh, MRC_A_PATH_LOSSES, 18446744073709551615ULL);
	mnl_attr_put_u32(nlh, MRC_A_PATH_MAX + 1, 7);
	return nlh;
}

static const struct path_spec paths[] = {
	{ 0x1a2b3c4d, 0, 4711, 0, MRC_EV_STATE_GOOD, 15230, 31,
	  { 1506, 2144730, 753, 0, 0, 0, 0 } },
	{ 0x1a2b3c4d, 1, 90, 3, MRC_EV_STATE_SKIP, 12, 2000,
	  { 17, 24412, 9, 4, 0, 1, 0 } },
	{ 0x1a2b3c4d, 2, 12000, 3, MRC_EV_STATE_ASSUMED_BAD, 4000000000U,
	  0, { 3, 4308, 0, 0, 2, 0, 12 } },
	{ 0x42, 0, 7, 1, MRC_EV_STATE_DENIED, 0, 7,
	  { 0, 0, 0, 0, 0, 0, 0 } },
};

/* the same paths without connection ids (hidden) */
static const struct path_spec hidden_paths[] = {
	{ 0, 0, 4711, 0, MRC_EV_STATE_GOOD, 15230, 31,
	  { 1506, 2144730, 753, 0, 0, 0, 0 } },
	{ 0, 1, 90, 3, MRC_EV_STATE_SKIP, 12, 2000,
	  { 17, 24412, 9, 4, 0, 1, 0 } },
	{ 0, 0, 7, 1, MRC_EV_STATE_DENIED, 0, 7,
	  { 0, 0, 0, 0, 0, 0, 0 } },
	{ 0, 0, 8, 1, MRC_EV_STATE_GOOD, 0, 7,
	  { 0, 0, 0, 0, 0, 0, 0 } },
	{ 0, 1, 9, 1, MRC_EV_STATE_GOOD, 0, 7,
	  { 0, 0, 0, 0, 0, 0, 0 } },
};

enum what {
	DEV, DEV_NO_RAILS, RAIL, RAIL_BARE, RAIL_SPLIT, CONNS, CONN_ONE, CONN_ODD,
	CONN_HIDDEN_IDS, PATHS, PATH_ODD, PATH_NONE, PATH_HIDDEN,
	PATH_HIDDEN_ONE,
};

/* print one object like "mrcctl [-j] [-p] [-s] ... show" or monitor */
static char *run(enum what what, bool json, bool pretty, bool stats,
		 const char *event)
{
	struct path_table table = {};
	FILE *saved = stdout;
	unsigned int i;
	char *buf = NULL;
	size_t len = 0;

	stdout = open_memstream(&buf, &len);
	if (!stdout)
		exit(1);
	opts.json = json;
	opts.stats = stats;
	print_init(json, pretty, event);
	if (!event)
		print_list_begin();
	switch (what) {
	case DEV:
	case DEV_NO_RAILS:
		dev_print(dev_msg(MRC_CMD_DEV_GET, what == DEV), event);
		break;
	case RAIL:
	case RAIL_BARE:
		rail_print(rail_msg(MRC_CMD_RAIL_GET, what == RAIL), event);
		break;
	case RAIL_SPLIT: {
		const struct nlmsghdr *parts[2] = {
			rail_msg_q(MRC_CMD_RAIL_GET, true, 1), rail_cont_msg(),
		};

		rail_print_parts(parts, 2, event);
		break;
	}
	case CONNS:
		conn_print(conn_msg(CONN_V4), event);
		conn_print(conn_msg(CONN_V6), event);
		conn_print(conn_msg(CONN_LISTEN), event);
		break;
	case CONN_ONE:
		conn_print(conn_msg(CONN_V4), event);
		break;
	case CONN_ODD:
		conn_print(conn_msg(CONN_BARE), event);
		break;
	case CONN_HIDDEN_IDS:
		conn_print(conn_msg(CONN_HIDDEN), event);
		break;
	case PATHS:
		for (i = 0; i < ARRAY_SIZE(paths); i++)
			path_print(path_msg(&paths[i]), &table);
		break;
	case PATH_ODD:
		path_print(path_msg(&paths[3]), &table);
		path_print(path_bare_msg(), &table);
		break;
	case PATH_NONE:
		break;
	case PATH_HIDDEN:
		for (i = 0; i < ARRAY_SIZE(hidden_paths); i++)
			path_print(path_msg(&hidden_paths[i]), &table);
		break;
	case PATH_HIDDEN_ONE:
		path_print(path_msg(&hidden_paths[2]), &table);
		break;
	}
	if (!event)
		print_list_end(true);
	fclose(stdout);
	stdout = saved;
	return buf;
}

static void check(const char *what, char *got, const char *want)
{
	if (strcmp(got, want)) {
		printf("not ok - %s\n--- got:\n%s--- want:\n%s", what, got,
		       want);
		failed = 1;
	} else {
		printf("ok - %s\n", what);
	}
	free(got);
}

static const char conn_text[] =
	"lo 1a2b3c4d: established 10.0.0.1:49152 -> 10.1.0.2:7000 peer-id 9f8e7d6c planes 4 paths 32 ack-data host-delay uid 1000 ino 4294967301\n"
	"    seg 1436 srtt 592us rttvar 100us rto 20000us in-flight 3 lost 0 window 1000 snd-queue 0 reo-mult 2\n"
	"    tx msgs 200 bytes 2021354 pkts 1506 retrans 0 spurious 5 rto 0 acks 753 acks-on-data 250 bursts 301 burst-pkts 1204 chunks 54 chunk-segs 703 chunk-alone 12\n"
	"    rx msgs 0 bytes 0 pkts 1 dups 0 acks 754 acks-on-data 248 ce 0 bursts 3 burst-pkts 11\n"
	"    plane 0 cwnd 150000 in-flight 43080 srtt 31us base-rtt 24us ecn 1.2% evs good 7 skip 1 bad 0 denied 0 rounds 120 ecn-cuts 3 delay-cuts 1 losses 0\n"
	"    plane 3 cwnd 14360 in-flight 0 srtt 2000us base-rtt 1500us ecn 100.0% evs good 2 skip 0 bad 5 denied 1 rounds 5000000000 ecn-cuts 0 delay-cuts 7 losses 9\n"
	"100005 00000042: time-wait [fd00::1]:7000 -> [fd00:1::2]:65535 peer-id ffffffff planes 2 paths 8 orphan\n"
	"    seg 8952 srtt 31us rttvar 7us rto 200000us in-flight 64 lost 2 window 0 snd-queue 17\n"
	"    tx msgs 1 bytes 2 pkts 3 retrans 4 rto 5 acks 10\n"
	"    rx msgs 6 bytes 7 pkts 8 dups 9 acks 11 ce 12\n"
	"lo 0000abcd: listen *:7000 -> * peer-id 00000000 planes 0 paths 0 uid 0 ino 12345\n"
	"    seg 0 srtt 0us rttvar 0us rto 0us in-flight 0 lost 0 window 0 snd-queue 0\n"
	"    tx msgs 0 bytes 0 pkts 0 retrans 0 rto 0 acks 0\n"
	"    rx msgs 0 bytes 0 pkts 0 dups 0 acks 0 ce 0\n";

/* the JSON objects of conn_text's connections */
static const char *const conn_json[] = {
	"{\"dev\":\"lo\",\"dev_ifindex\":1,\"id\":\"1a2b3c4d\",\"peer_id\":\"9f8e7d6c\",\"state\":\"established\",\"local\":{\"addr\":\"10.0.0.1\",\"port\":49152},\"peer\":{\"addr\":\"10.1.0.2\",\"port\":7000},\"orphan\":false,\"planes\":4,\"paths\":32,\"ack_data\":true,\"host_delay\":true,\"uid\":1000,\"inode\":4294967301,\"seg_size\":1436,\"srtt_us\":592,\"rttvar_us\":100,\"rto_us\":20000,\"in_flight\":3,\"lost\":0,\"window\":1000,\"snd_queue\":0,\"reo_mult\":2,\"tx\":{\"msgs\":200,\"bytes\":2021354,\"pkts\":1506,\"retrans\":0,\"spurious\":5,\"rto\":0,\"acks\":753,\"acks_on_data\":250,\"bursts\":301,\"burst_pkts\":1204,\"chunks\":54,\"chunk_segs\":703,\"chunk_alone\":12},\"rx\":{\"msgs\":0,\"bytes\":0,\"pkts\":1,\"dups\":0,\"acks\":754,\"acks_on_data\":248,\"ce\":0,\"bursts\":3,\"burst_pkts\":11},\"per_plane\":[{\"plane\":0,\"cwnd\":150000,\"in_flight\":43080,\"srtt_us\":31,\"base_rtt_us\":24,\"ecn_ppm\":12345,\"evs\":{\"good\":7,\"skip\":1,\"bad\":0,\"denied\":0},\"rounds\":120,\"ecn_cuts\":3,\"delay_cuts\":1,\"losses\":0},{\"plane\":3,\"cwnd\":14360,\"in_flight\":0,\"srtt_us\":2000,\"base_rtt_us\":1500,\"ecn_ppm\":1000000,\"evs\":{\"good\":2,\"skip\":0,\"bad\":5,\"denied\":1},\"rounds\":5000000000,\"ecn_cuts\":0,\"delay_cuts\":7,\"losses\":9}]}",
	"{\"dev_ifindex\":100005,\"id\":\"00000042\",\"peer_id\":\"ffffffff\",\"state\":\"time-wait\",\"local\":{\"addr\":\"fd00::1\",\"port\":7000},\"peer\":{\"addr\":\"fd00:1::2\",\"port\":65535},\"orphan\":true,\"planes\":2,\"paths\":8,\"ack_data\":false,\"host_delay\":false,\"seg_size\":8952,\"srtt_us\":31,\"rttvar_us\":7,\"rto_us\":200000,\"in_flight\":64,\"lost\":2,\"window\":0,\"snd_queue\":17,\"tx\":{\"msgs\":1,\"bytes\":2,\"pkts\":3,\"retrans\":4,\"rto\":5,\"acks\":10},\"rx\":{\"msgs\":6,\"bytes\":7,\"pkts\":8,\"dups\":9,\"acks\":11,\"ce\":12},\"per_plane\":[]}",
	"{\"dev\":\"lo\",\"dev_ifindex\":1,\"id\":\"0000abcd\",\"peer_id\":\"00000000\",\"state\":\"listen\",\"local\":{\"addr\":\"*\",\"port\":7000},\"peer\":{\"addr\":\"*\",\"port\":0},\"orphan\":false,\"planes\":0,\"paths\":0,\"uid\":0,\"inode\":12345,\"seg_size\":0,\"srtt_us\":0,\"rttvar_us\":0,\"rto_us\":0,\"in_flight\":0,\"lost\":0,\"window\":0,\"snd_queue\":0,\"tx\":{\"msgs\":0,\"bytes\":0,\"pkts\":0,\"retrans\":0,\"rto\":0,\"acks\":0},\"rx\":{\"msgs\":0,\"bytes\":0,\"pkts\":0,\"dups\":0,\"acks\":0,\"ce\":0},\"per_plane\":[]}",
};

static const char path_text[] =
	"CONN     INDEX    EV PLANE SPORT STATE              SINCE      PKTS        BYTES      ACKS    ECN LOSSES  NACKS PROBES       RTT\n"
	"1a2b3c4d     0  4711     0 53863 good             15230ms      1506      2144730       753      0      0      0      0      31us\n"
	"1a2b3c4d     1    90     3 49242 skip                12ms        17        24412         9      4      0      1      0    2000us\n"
	"1a2b3c4d     2 12000     3 61152 assumed-bad 4000000000ms         3         4308         0      0      2      0     12       0us\n"
	"\n"
	"00000042     0     7     1 49159 denied               0ms         0            0         0      0      0      0      0       7us\n"
	"";

static const char *const path_json[] = {
	"{\"conn_id\":\"1a2b3c4d\",\"index\":0,\"ev\":4711,\"plane\":0,\"sport\":53863,\"state\":\"good\",\"since_ms\":15230,\"pkts\":1506,\"bytes\":2144730,\"acks\":753,\"ecn\":0,\"losses\":0,\"nacks\":0,\"probes\":0,\"rtt_us\":31}",
	"{\"conn_id\":\"1a2b3c4d\",\"index\":1,\"ev\":90,\"plane\":3,\"sport\":49242,\"state\":\"skip\",\"since_ms\":12,\"pkts\":17,\"bytes\":24412,\"acks\":9,\"ecn\":4,\"losses\":0,\"nacks\":1,\"probes\":0,\"rtt_us\":2000}",
	"{\"conn_id\":\"1a2b3c4d\",\"index\":2,\"ev\":12000,\"plane\":3,\"sport\":61152,\"state\":\"assumed-bad\",\"since_ms\":4000000000,\"pkts\":3,\"bytes\":4308,\"acks\":0,\"ecn\":0,\"losses\":2,\"nacks\":0,\"probes\":12,\"rtt_us\":0}",
	"{\"conn_id\":\"00000042\",\"index\":0,\"ev\":7,\"plane\":1,\"sport\":49159,\"state\":\"denied\",\"since_ms\":0,\"pkts\":0,\"bytes\":0,\"acks\":0,\"ecn\":0,\"losses\":0,\"nacks\":0,\"probes\":0,\"rtt_us\":7}",
};

int main(void)
{
	char *want;

	check("dev text", run(DEV, false, false, false, NULL),
	      "mrc0: ifindex 5 udp-port 4796 max-msg-size 1048576 evs-per-plane 8 spray mrc family 22 version 0.1.0\n"
	      "    rail eth1 plane 0 admin up oper up\n"
	      "    rail eth2 plane 1 admin up oper no-carrier\n"
	      "    rail 100007 plane 2 admin up oper 9\n");
	check("dev text -s", run(DEV_NO_RAILS, false, false, true, NULL),
	      "mrc0: ifindex 5 udp-port 4796 max-msg-size 1048576 evs-per-plane 8 spray rr family 22 version 0.1.0\n"
	      "    stats tx-packets 102 tx-bytes 103 rx-packets 104 rx-bytes 105 tx-dropped 106 rx-dropped 107\n"
	      "    ev-transitions to-good 41 to-skip 1234567890123 to-bad 37 to-denied 2 replaced 5\n");
	check("dev json", run(DEV_NO_RAILS, true, false, false, NULL),
	      "[{\"ifname\":\"mrc0\",\"ifindex\":5,\"udp_port\":4796,\"max_msg_size\":1048576,\"evs_per_plane\":8,\"spray\":\"rr\",\"family\":22,\"version\":\"0.1.0\",\"rails\":[]}]\n");
	check("dev json -s", run(DEV, true, false, true, NULL),
	      "[{\"ifname\":\"mrc0\",\"ifindex\":5,\"udp_port\":4796,\"max_msg_size\":1048576,\"evs_per_plane\":8,\"spray\":\"mrc\",\"family\":22,\"version\":\"0.1.0\",\"rails\":[{\"ifname\":\"eth1\",\"ifindex\":3,\"plane\":0,\"admin_state\":\"up\",\"oper_state\":\"up\"},{\"ifname\":\"eth2\",\"ifindex\":4,\"plane\":1,\"admin_state\":\"up\",\"oper_state\":\"no-carrier\"},{\"ifindex\":100007,\"plane\":2,\"admin_state\":\"up\",\"oper_state\":9}],\"stats\":{\"tx_packets\":102,\"tx_bytes\":103,\"rx_packets\":104,\"rx_bytes\":105,\"tx_dropped\":106,\"rx_dropped\":107,\"drops\":{}},\"ev_transitions\":{\"to_good\":41,\"to_skip\":1234567890123,\"to_bad\":37,\"to_denied\":2,\"replaced\":5}}]\n");
	check("rail text", run(RAIL, false, false, false, NULL),
	      "eth1: dev lo plane 0 admin up oper up mtu 1500 tx-queues 2 rx-queues 1\n"
	      "    inet 10.1.0.1\n"
	      "    inet 192.168.7.9\n"
	      "    inet6 fd00:1::1\n"
	      "    inet6 fe80::1\n");
	check("rail text -s", run(RAIL, false, false, true, NULL),
	      "eth1: dev lo plane 0 admin up oper up mtu 1500 tx-queues 2 rx-queues 1\n"
	      "    inet 10.1.0.1\n"
	      "    inet 192.168.7.9\n"
	      "    inet6 fd00:1::1\n"
	      "    inet6 fe80::1\n"
	      "    stats tx-packets 2 tx-bytes 3 rx-packets 4 rx-bytes 5 tx-dropped 6 rx-dropped 7\n"
	      "    drops no-conn 3 duplicate 179 99 5 bad-checksum 1\n"
	      "    rx-queue 0 packets 10 bytes 1000\n"
	      "    tx-queue 0 packets 10 bytes 1000\n"
	      "    tx-queue 1 packets 11 bytes 1001\n"
	      "    queue 3 type 7 packets 13 bytes 1003\n");
	/* a rail a dump spread over two messages prints as one */
	check("rail text -s, two messages", run(RAIL_SPLIT, false, false, true, NULL),
	      "eth1: dev lo plane 0 admin up oper up mtu 1500 tx-queues 2 rx-queues 1\n"
	      "    inet 10.1.0.1\n"
	      "    inet 192.168.7.9\n"
	      "    inet6 fd00:1::1\n"
	      "    inet6 fe80::1\n"
	      "    stats tx-packets 2 tx-bytes 3 rx-packets 4 rx-bytes 5 tx-dropped 6 rx-dropped 7\n"
	      "    drops no-conn 3 duplicate 179 99 5 bad-checksum 1\n"
	      "    rx-queue 0 packets 10 bytes 1000\n"
	      "    tx-queue 0 packets 10 bytes 1000\n"
	      "    tx-queue 1 packets 11 bytes 1001\n"
	      "    queue 3 type 7 packets 13 bytes 1003\n");
	check("rail text, unresolvable names", run(RAIL_BARE, false, false, true, NULL),
	      "100007: dev 100005 plane 0 admin up oper up mtu 1500 tx-queues 2 rx-queues 1\n");
	check("rail json", run(RAIL_BARE, true, false, false, NULL),
	      "[{\"ifindex\":100007,\"dev_ifindex\":100005,\"plane\":0,\"admin_state\":\"up\",\"oper_state\":\"up\",\"mtu\":1500,\"tx_queues\":2,\"rx_queues\":1,\"ipv4\":[],\"ipv6\":[]}]\n");
	check("rail json -s", run(RAIL, true, false, true, NULL),
	      "[{\"ifname\":\"eth1\",\"ifindex\":100007,\"dev\":\"lo\",\"dev_ifindex\":1,\"plane\":0,\"admin_state\":\"up\",\"oper_state\":\"up\",\"mtu\":1500,\"tx_queues\":2,\"rx_queues\":1,\"ipv4\":[\"10.1.0.1\",\"192.168.7.9\"],\"ipv6\":[\"fd00:1::1\",\"fe80::1\"],\"stats\":{\"tx_packets\":2,\"tx_bytes\":3,\"rx_packets\":4,\"rx_bytes\":5,\"tx_dropped\":6,\"rx_dropped\":7,\"drops\":{\"no-conn\":3,\"duplicate\":179,\"99\":5,\"bad-checksum\":1}},\"queues\":[{\"type\":\"rx\",\"id\":0,\"packets\":10,\"bytes\":1000},{\"type\":\"tx\",\"id\":0,\"packets\":10,\"bytes\":1000},{\"type\":\"tx\",\"id\":1,\"packets\":11,\"bytes\":1001},{\"type\":7,\"id\":3,\"packets\":13,\"bytes\":1003}]}]\n");
	check("rail json -s, two messages", run(RAIL_SPLIT, true, false, true, NULL),
	      "[{\"ifname\":\"eth1\",\"ifindex\":100007,\"dev\":\"lo\",\"dev_ifindex\":1,\"plane\":0,\"admin_state\":\"up\",\"oper_state\":\"up\",\"mtu\":1500,\"tx_queues\":2,\"rx_queues\":1,\"ipv4\":[\"10.1.0.1\",\"192.168.7.9\"],\"ipv6\":[\"fd00:1::1\",\"fe80::1\"],\"stats\":{\"tx_packets\":2,\"tx_bytes\":3,\"rx_packets\":4,\"rx_bytes\":5,\"tx_dropped\":6,\"rx_dropped\":7,\"drops\":{\"no-conn\":3,\"duplicate\":179,\"99\":5,\"bad-checksum\":1}},\"queues\":[{\"type\":\"rx\",\"id\":0,\"packets\":10,\"bytes\":1000},{\"type\":\"tx\",\"id\":0,\"packets\":10,\"bytes\":1000},{\"type\":\"tx\",\"id\":1,\"packets\":11,\"bytes\":1001},{\"type\":7,\"id\":3,\"packets\":13,\"bytes\":1003}]}]\n");
	check("rail json -p", run(RAIL_BARE, true, true, false, NULL),
	      "[\n"
	      "    {\n"
	      "        \"ifindex\": 100007,\n"
	      "        \"dev_ifindex\": 100005,\n"
	      "        \"plane\": 0,\n"
	      "        \"admin_state\": \"up\",\n"
	      "        \"oper_state\": \"up\",\n"
	      "        \"mtu\": 1500,\n"
	      "        \"tx_queues\": 2,\n"
	      "        \"rx_queues\": 1,\n"
	      "        \"ipv4\": [],\n"
	      "        \"ipv6\": []\n"
	      "    }\n"
	      "]\n");
	check("monitor text rail", run(RAIL, false, false, true, "rail-add"),
	      "[rail-add] eth1: dev lo plane 0 admin up oper up mtu 1500 tx-queues 2 rx-queues 1\n");
	check("monitor text dev", run(DEV, false, false, false, "dev-change"),
	      "[dev-change] mrc0: ifindex 5 udp-port 4796 max-msg-size 1048576 evs-per-plane 8 spray mrc family 22 version 0.1.0\n");
	check("monitor json rail", run(RAIL_BARE, true, false, false, "rail-del"),
	      "{\"event\":\"rail-del\",\"ifindex\":100007,\"dev_ifindex\":100005,\"plane\":0,\"admin_state\":\"up\",\"oper_state\":\"up\",\"mtu\":1500,\"tx_queues\":2,\"rx_queues\":1,\"ipv4\":[],\"ipv6\":[]}\n");
	check("monitor json dev", run(DEV_NO_RAILS, true, false, false, "dev-add"),
	      "{\"event\":\"dev-add\",\"ifname\":\"mrc0\",\"ifindex\":5,\"udp_port\":4796,\"max_msg_size\":1048576,\"evs_per_plane\":8,\"spray\":\"rr\",\"family\":22,\"version\":\"0.1.0\",\"rails\":[]}\n");
	check("conn text", run(CONNS, false, false, false, NULL), conn_text);
	check("conn text -s", run(CONNS, false, false, true, NULL), conn_text);
	check("conn text, attributes missing or malformed",
	      run(CONN_ODD, false, false, false, NULL),
	      "? 00000005: 9 * -> *\n"
	      "    srtt 250us\n"
	      "    tx\n"
	      "    rx bytes 4096\n"
	      "    plane ?\n"
	      "    plane 1 ecn 0.0% evs skip 3\n");
	if (asprintf(&want, "[%s,%s,%s]\n", conn_json[0], conn_json[1],
		     conn_json[2]) < 0)
		return 1;
	check("conn json", run(CONNS, true, false, false, NULL), want);
	free(want);
	check("conn json -p, attributes missing or malformed",
	      run(CONN_ODD, true, true, true, NULL),
	      "[\n"
	      "    {\n"
	      "        \"id\": \"00000005\",\n"
	      "        \"state\": 9,\n"
	      "        \"srtt_us\": 250,\n"
	      "        \"tx\": {},\n"
	      "        \"rx\": {\n"
	      "            \"bytes\": 4096\n"
	      "        },\n"
	      "        \"per_plane\": [\n"
	      "            {\n"
	      "                \"evs\": {}\n"
	      "            },\n"
	      "            {\n"
	      "                \"plane\": 1,\n"
	      "                \"ecn_ppm\": 449,\n"
	      "                \"evs\": {\n"
	      "                    \"skip\": 3\n"
	      "                }\n"
	      "            }\n"
	      "        ]\n"
	      "    }\n"
	      "]\n");
	check("monitor text path-change", run(CONN_ONE, false, false, true, "path-change"),
	      "[path-change] lo 1a2b3c4d: plane 0 evs good 7 skip 1 bad 0 denied 0 plane 3 evs good 2 skip 0 bad 5 denied 1\n");
	check("monitor text path-change, attributes missing or malformed",
	      run(CONN_ODD, false, false, false, "path-change"),
	      "[path-change] ? 00000005: plane ? plane 1 evs skip 3\n");
	if (asprintf(&want, "{\"event\":\"path-change\",%s\n",
		     conn_json[0] + 1) < 0)
		return 1;
	check("monitor json path-change",
	      run(CONN_ONE, true, false, false, "path-change"), want);
	free(want);
	check("conn text, ids hidden", run(CONN_HIDDEN_IDS, false, false, false, NULL),
	      "lo (id hidden: needs CAP_NET_ADMIN): established 10.0.0.1:49152 -> 10.1.0.2:7000 planes 4 paths 32 ack-data host-delay uid 1000 ino 4294967301\n"
	      "    seg 1436 srtt 592us rttvar 100us rto 20000us in-flight 3 lost 0 window 1000 snd-queue 0 reo-mult 2\n"
	      "    tx msgs 200 bytes 2021354 pkts 1506 retrans 0 spurious 5 rto 0 acks 753 acks-on-data 250 bursts 301 burst-pkts 1204 chunks 54 chunk-segs 703 chunk-alone 12\n"
	      "    rx msgs 0 bytes 0 pkts 1 dups 0 acks 754 acks-on-data 248 ce 0 bursts 3 burst-pkts 11\n"
	      "    plane 0 cwnd 150000 in-flight 43080 srtt 31us base-rtt 24us ecn 1.2% evs good 7 skip 1 bad 0 denied 0 rounds 120 ecn-cuts 3 delay-cuts 1 losses 0\n"
	      "    plane 3 cwnd 14360 in-flight 0 srtt 2000us base-rtt 1500us ecn 100.0% evs good 2 skip 0 bad 5 denied 1 rounds 5000000000 ecn-cuts 0 delay-cuts 7 losses 9\n");
	/* conn_json[0] without "id" and "peer_id", with "ids_hidden" */
	check("conn json, ids hidden", run(CONN_HIDDEN_IDS, true, false, false, NULL),
	      "[{\"dev\":\"lo\",\"dev_ifindex\":1,\"ids_hidden\":true,\"state\":\"established\",\"local\":{\"addr\":\"10.0.0.1\",\"port\":49152},\"peer\":{\"addr\":\"10.1.0.2\",\"port\":7000},\"orphan\":false,\"planes\":4,\"paths\":32,\"ack_data\":true,\"host_delay\":true,\"uid\":1000,\"inode\":4294967301,\"seg_size\":1436,\"srtt_us\":592,\"rttvar_us\":100,\"rto_us\":20000,\"in_flight\":3,\"lost\":0,\"window\":1000,\"snd_queue\":0,\"reo_mult\":2,\"tx\":{\"msgs\":200,\"bytes\":2021354,\"pkts\":1506,\"retrans\":0,\"spurious\":5,\"rto\":0,\"acks\":753,\"acks_on_data\":250,\"bursts\":301,\"burst_pkts\":1204,\"chunks\":54,\"chunk_segs\":703,\"chunk_alone\":12},\"rx\":{\"msgs\":0,\"bytes\":0,\"pkts\":1,\"dups\":0,\"acks\":754,\"acks_on_data\":248,\"ce\":0,\"bursts\":3,\"burst_pkts\":11},\"per_plane\":[{\"plane\":0,\"cwnd\":150000,\"in_flight\":43080,\"srtt_us\":31,\"base_rtt_us\":24,\"ecn_ppm\":12345,\"evs\":{\"good\":7,\"skip\":1,\"bad\":0,\"denied\":0},\"rounds\":120,\"ecn_cuts\":3,\"delay_cuts\":1,\"losses\":0},{\"plane\":3,\"cwnd\":14360,\"in_flight\":0,\"srtt_us\":2000,\"base_rtt_us\":1500,\"ecn_ppm\":1000000,\"evs\":{\"good\":2,\"skip\":0,\"bad\":5,\"denied\":1},\"rounds\":5000000000,\"ecn_cuts\":0,\"delay_cuts\":7,\"losses\":9}]}]\n");
	check("path text", run(PATHS, false, false, false, NULL), path_text);
	/* three connections: each starts where the index stops growing */
	check("path text, ids hidden", run(PATH_HIDDEN, false, false, false, NULL),
	      "CONN     INDEX    EV PLANE SPORT STATE              SINCE      PKTS        BYTES      ACKS    ECN LOSSES  NACKS PROBES       RTT\n"
	      "hidden       0  4711     0 53863 good             15230ms      1506      2144730       753      0      0      0      0      31us\n"
	      "hidden       1    90     3 49242 skip                12ms        17        24412         9      4      0      1      0    2000us\n"
	      "\n"
	      "hidden       0     7     1 49159 denied               0ms         0            0         0      0      0      0      0       7us\n"
	      "\n"
	      "hidden       0     8     1 49160 good                 0ms         0            0         0      0      0      0      0       7us\n"
	      "hidden       1     9     1 49161 good                 0ms         0            0         0      0      0      0      0       7us\n");
	if (asprintf(&want, "[{\"conn_id_hidden\":true,%s]\n",
		     path_json[3] + strlen("{\"conn_id\":\"00000042\",")) < 0)
		return 1;
	check("path json, id hidden", run(PATH_HIDDEN_ONE, true, false, false, NULL),
	      want);
	free(want);
	check("path text -s", run(PATHS, false, false, true, NULL), path_text);
	check("path text, attributes missing or malformed",
	      run(PATH_ODD, false, false, false, NULL),
	      "CONN     INDEX    EV PLANE SPORT STATE              SINCE      PKTS        BYTES      ACKS    ECN LOSSES  NACKS PROBES       RTT\n"
	      "00000042     0     7     1 49159 denied               0ms         0            0         0      0      0      0      0       7us\n"
	      "\n"
	      "00000005     0 16383     -     - 9                      -         -            -         -      - 18446744073709551615      -      -         -\n");
	if (asprintf(&want, "[%s,%s,%s,%s]\n", path_json[0], path_json[1],
		     path_json[2], path_json[3]) < 0)
		return 1;
	check("path json", run(PATHS, true, false, false, NULL), want);
	free(want);
	check("path json -p, attributes missing or malformed",
	      run(PATH_ODD, true, true, false, NULL),
	      "[\n"
	      "    {\n"
	      "        \"conn_id\": \"00000042\",\n"
	      "        \"index\": 0,\n"
	      "        \"ev\": 7,\n"
	      "        \"plane\": 1,\n"
	      "        \"sport\": 49159,\n"
	      "        \"state\": \"denied\",\n"
	      "        \"since_ms\": 0,\n"
	      "        \"pkts\": 0,\n"
	      "        \"bytes\": 0,\n"
	      "        \"acks\": 0,\n"
	      "        \"ecn\": 0,\n"
	      "        \"losses\": 0,\n"
	      "        \"nacks\": 0,\n"
	      "        \"probes\": 0,\n"
	      "        \"rtt_us\": 7\n"
	      "    },\n"
	      "    {\n"
	      "        \"conn_id\": \"00000005\",\n"
	      "        \"index\": 0,\n"
	      "        \"ev\": 16383,\n"
	      "        \"state\": 9,\n"
	      "        \"losses\": 18446744073709551615\n"
	      "    }\n"
	      "]\n");
	check("path json, no paths", run(PATH_NONE, true, false, false, NULL),
	      "[]\n");
	check("path text, no paths", run(PATH_NONE, false, false, false, NULL),
	      "");
	return failed;
}
