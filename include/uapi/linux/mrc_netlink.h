/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/mrc.yaml */
/* YNL-GEN uapi header */

#ifndef _UAPI_LINUX_MRC_NETLINK_H
#define _UAPI_LINUX_MRC_NETLINK_H

#define MRC_FAMILY_NAME		"mrc"
#define MRC_FAMILY_VERSION	1

#define MRC_MAX_RAILS		32
#define MRC_MAX_PLANE		31
#define MRC_MAX_MSG_SIZE_LIMIT	67108864

/**
 * enum mrc_admin_state - Whether mrc may use a rail, as set by the
 *   administrator.
 * @MRC_ADMIN_STATE_DOWN: mrc does not use the rail.
 * @MRC_ADMIN_STATE_UP: mrc uses the rail when its link is usable.
 */
enum mrc_admin_state {
	MRC_ADMIN_STATE_DOWN,
	MRC_ADMIN_STATE_UP,
};

/**
 * enum mrc_oper_state - Whether a rail can carry mrc traffic now, and if not,
 *   why.
 * @MRC_OPER_STATE_UP: Usable.
 * @MRC_OPER_STATE_ADMIN_DOWN: The rail's mrc admin-state is down.
 * @MRC_OPER_STATE_DEV_DOWN: The rail's netdevice is administratively down.
 * @MRC_OPER_STATE_NO_CARRIER: The rail's netdevice has no carrier.
 */
enum mrc_oper_state {
	MRC_OPER_STATE_UP,
	MRC_OPER_STATE_ADMIN_DOWN,
	MRC_OPER_STATE_DEV_DOWN,
	MRC_OPER_STATE_NO_CARRIER,
};

enum mrc_queue_type {
	MRC_QUEUE_TYPE_RX,
	MRC_QUEUE_TYPE_TX,
};

enum {
	MRC_A_STATS_PAD = 1,
	MRC_A_STATS_TX_PACKETS,
	MRC_A_STATS_TX_BYTES,
	MRC_A_STATS_RX_PACKETS,
	MRC_A_STATS_RX_BYTES,
	MRC_A_STATS_TX_DROPPED,
	MRC_A_STATS_RX_DROPPED,

	__MRC_A_STATS_MAX,
	MRC_A_STATS_MAX = (__MRC_A_STATS_MAX - 1)
};

enum {
	MRC_A_QUEUE_PAD = 1,
	MRC_A_QUEUE_TYPE,
	MRC_A_QUEUE_ID,
	MRC_A_QUEUE_PACKETS,
	MRC_A_QUEUE_BYTES,

	__MRC_A_QUEUE_MAX,
	MRC_A_QUEUE_MAX = (__MRC_A_QUEUE_MAX - 1)
};

enum {
	MRC_A_RAIL_PAD = 1,
	MRC_A_RAIL_DEV_IFINDEX,
	MRC_A_RAIL_IFINDEX,
	MRC_A_RAIL_NAME,
	MRC_A_RAIL_PLANE,
	MRC_A_RAIL_ADMIN_STATE,
	MRC_A_RAIL_OPER_STATE,
	MRC_A_RAIL_MTU,
	MRC_A_RAIL_IPV4,
	MRC_A_RAIL_IPV6,
	MRC_A_RAIL_TX_QUEUES,
	MRC_A_RAIL_RX_QUEUES,
	MRC_A_RAIL_STATS,
	MRC_A_RAIL_QUEUE,

	__MRC_A_RAIL_MAX,
	MRC_A_RAIL_MAX = (__MRC_A_RAIL_MAX - 1)
};

enum {
	MRC_A_DEV_PAD = 1,
	MRC_A_DEV_IFINDEX,
	MRC_A_DEV_NAME,
	MRC_A_DEV_VERSION,
	MRC_A_DEV_FAMILY,
	MRC_A_DEV_UDP_PORT,
	MRC_A_DEV_MAX_MSG_SIZE,
	MRC_A_DEV_RAIL,
	MRC_A_DEV_STATS,

	__MRC_A_DEV_MAX,
	MRC_A_DEV_MAX = (__MRC_A_DEV_MAX - 1)
};

enum {
	MRC_CMD_DEV_GET = 1,
	MRC_CMD_DEV_SET,
	MRC_CMD_RAIL_ADD,
	MRC_CMD_RAIL_DEL,
	MRC_CMD_RAIL_SET,
	MRC_CMD_RAIL_GET,
	MRC_CMD_DEV_ADD_NTF,
	MRC_CMD_DEV_DEL_NTF,
	MRC_CMD_DEV_CHANGE_NTF,
	MRC_CMD_RAIL_ADD_NTF,
	MRC_CMD_RAIL_DEL_NTF,
	MRC_CMD_RAIL_CHANGE_NTF,

	__MRC_CMD_MAX,
	MRC_CMD_MAX = (__MRC_CMD_MAX - 1)
};

#define MRC_MCGRP_EVENTS	"events"

#endif /* _UAPI_LINUX_MRC_NETLINK_H */
