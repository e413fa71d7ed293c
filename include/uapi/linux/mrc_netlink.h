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
 * enum mrc_conn_caps - Capabilities a connection's handshake settled
 *   (wire.rst).
 * @MRC_CONN_CAPS_ACK_DATA: Both ends read ACKs carried on DATA packets (module
 *   parameter ack_piggyback at both when the connection opened).
 * @MRC_CONN_CAPS_HOST_DELAY: Both ends report in their ACKs how long the
 *   acknowledged packet waited in the receiving host (module parameter
 *   cc_host_delay at both when the connection opened, and when each device's
 *   UDP port was opened); the planes' delay rule leaves that wait out.
 */
enum mrc_conn_caps {
	MRC_CONN_CAPS_ACK_DATA = 1,
	MRC_CONN_CAPS_HOST_DELAY = 2,
};

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

/**
 * enum mrc_conn_state - State of a connection.
 * @MRC_CONN_STATE_CLOSED: Never connected, or finished (closed, reset, timed
 *   out).
 * @MRC_CONN_STATE_LISTEN: A listening socket; its half-open children are
 *   req-rcvd.
 * @MRC_CONN_STATE_REQ_SENT: connect() sent its REQ, waiting for the ACCEPT.
 * @MRC_CONN_STATE_REQ_RCVD: Half-open, waiting for the client to confirm.
 * @MRC_CONN_STATE_ESTABLISHED: The handshake completed; data flows.
 * @MRC_CONN_STATE_TIME_WAIT: Both ends closed; waits briefly for stragglers.
 */
enum mrc_conn_state {
	MRC_CONN_STATE_CLOSED,
	MRC_CONN_STATE_LISTEN,
	MRC_CONN_STATE_REQ_SENT,
	MRC_CONN_STATE_REQ_RCVD,
	MRC_CONN_STATE_ESTABLISHED,
	MRC_CONN_STATE_TIME_WAIT,
};

/**
 * enum mrc_nl_ev_state - State of a path (entropy value) of a connection.
 * @MRC_EV_STATE_GOOD: Carries traffic.
 * @MRC_EV_STATE_SKIP: Avoided for a hold time after an ECN echo or a NACK.
 * @MRC_EV_STATE_ASSUMED_BAD: A packet was lost on it; no data, probed until it
 *   answers.
 * @MRC_EV_STATE_DENIED: Excluded by the administrator (path-set).
 */
enum mrc_nl_ev_state {
	MRC_EV_STATE_GOOD,
	MRC_EV_STATE_SKIP,
	MRC_EV_STATE_ASSUMED_BAD,
	MRC_EV_STATE_DENIED,
};

/**
 * enum mrc_nl_drop_reason - Why a received packet was dropped.
 * @MRC_DROP_REASON_NONE: Not dropped (never reported in a count).
 * @MRC_DROP_REASON_SHORT: Shorter than its headers.
 * @MRC_DROP_REASON_VERSION: Unknown wire version.
 * @MRC_DROP_REASON_TYPE: Unknown packet type.
 * @MRC_DROP_REASON_RESERVED: A reserved bit or field is set.
 * @MRC_DROP_REASON_LENGTH: Length does not match the packet type.
 * @MRC_DROP_REASON_BAD_FIELD: A header field is out of range.
 * @MRC_DROP_REASON_BAD_CHECKSUM: UDP checksum (counted by UDP as
 *   UdpInCsumErrors).
 * @MRC_DROP_REASON_NO_RAIL: Arrived on a rail of the device, but at another
 *   udp-port than the device's (a port the device left, kept open by another
 *   device of the namespace). A packet on a netdevice that is no rail at all
 *   has no device to count it on.
 * @MRC_DROP_REASON_NO_CONN: For an unknown connection.
 * @MRC_DROP_REASON_NO_LISTENER: REQ for a port nobody listens on.
 * @MRC_DROP_REASON_BAD_SOURCE: Not from the connection's peer.
 * @MRC_DROP_REASON_STATE: Not expected in the connection's state.
 * @MRC_DROP_REASON_OUT_OF_WINDOW: PSN outside the receive window.
 * @MRC_DROP_REASON_DUPLICATE: PSN already received (acknowledged again, not
 *   stored).
 * @MRC_DROP_REASON_NO_BUFFER: Beyond the receive credit, or out of memory.
 * @MRC_DROP_REASON_BAD_DATA: Segment inconsistent with its message.
 * @MRC_DROP_REASON_MSG_TOO_BIG: Message larger than max-msg-size.
 * @MRC_DROP_REASON_BACKLOG: Half-open or accept queue full.
 * @MRC_DROP_REASON_BAD_ACK: Acknowledges packets never sent.
 * @MRC_DROP_REASON_TRIMMED: DATA whose payload a switch cut (congestion);
 *   answered with a NACK.
 */
enum mrc_nl_drop_reason {
	MRC_DROP_REASON_NONE,
	MRC_DROP_REASON_SHORT,
	MRC_DROP_REASON_VERSION,
	MRC_DROP_REASON_TYPE,
	MRC_DROP_REASON_RESERVED,
	MRC_DROP_REASON_LENGTH,
	MRC_DROP_REASON_BAD_FIELD,
	MRC_DROP_REASON_BAD_CHECKSUM,
	MRC_DROP_REASON_NO_RAIL,
	MRC_DROP_REASON_NO_CONN,
	MRC_DROP_REASON_NO_LISTENER,
	MRC_DROP_REASON_BAD_SOURCE,
	MRC_DROP_REASON_STATE,
	MRC_DROP_REASON_OUT_OF_WINDOW,
	MRC_DROP_REASON_DUPLICATE,
	MRC_DROP_REASON_NO_BUFFER,
	MRC_DROP_REASON_BAD_DATA,
	MRC_DROP_REASON_MSG_TOO_BIG,
	MRC_DROP_REASON_BACKLOG,
	MRC_DROP_REASON_BAD_ACK,
	MRC_DROP_REASON_TRIMMED,
};

enum {
	MRC_A_DROP_PAD = 1,
	MRC_A_DROP_REASON,
	MRC_A_DROP_PACKETS,

	__MRC_A_DROP_MAX,
	MRC_A_DROP_MAX = (__MRC_A_DROP_MAX - 1)
};

enum {
	MRC_A_STATS_PAD = 1,
	MRC_A_STATS_TX_PACKETS,
	MRC_A_STATS_TX_BYTES,
	MRC_A_STATS_RX_PACKETS,
	MRC_A_STATS_RX_BYTES,
	MRC_A_STATS_TX_DROPPED,
	MRC_A_STATS_RX_DROPPED,
	MRC_A_STATS_DROP,

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
	MRC_A_CONN_PAD = 1,
	MRC_A_CONN_DEV_IFINDEX,
	MRC_A_CONN_ID,
	MRC_A_CONN_PEER_ID,
	MRC_A_CONN_STATE,
	MRC_A_CONN_LOCAL_PORT,
	MRC_A_CONN_PEER_PORT,
	MRC_A_CONN_LOCAL_ADDR,
	MRC_A_CONN_PEER_ADDR,
	MRC_A_CONN_ORPHAN,
	MRC_A_CONN_PLANES,
	MRC_A_CONN_PATHS,
	MRC_A_CONN_SEG_SIZE,
	MRC_A_CONN_SRTT_US,
	MRC_A_CONN_RTTVAR_US,
	MRC_A_CONN_RTO_US,
	MRC_A_CONN_IN_FLIGHT,
	MRC_A_CONN_LOST,
	MRC_A_CONN_WINDOW,
	MRC_A_CONN_SND_QUEUE,
	MRC_A_CONN_TX_MSGS,
	MRC_A_CONN_TX_BYTES,
	MRC_A_CONN_TX_PKTS,
	MRC_A_CONN_RETRANS,
	MRC_A_CONN_RTO_COUNT,
	MRC_A_CONN_RX_MSGS,
	MRC_A_CONN_RX_BYTES,
	MRC_A_CONN_RX_PKTS,
	MRC_A_CONN_RX_DUPS,
	MRC_A_CONN_ACKS_TX,
	MRC_A_CONN_ACKS_RX,
	MRC_A_CONN_CE_RX,
	MRC_A_CONN_PLANE,
	MRC_A_CONN_TX_BURSTS,
	MRC_A_CONN_TX_BURST_PKTS,
	MRC_A_CONN_RX_BURSTS,
	MRC_A_CONN_RX_BURST_PKTS,
	MRC_A_CONN_TX_CHUNKS,
	MRC_A_CONN_TX_CHUNK_SEGS,
	MRC_A_CONN_TX_CHUNK_ALONE,
	MRC_A_CONN_ACKS_PIGGY_TX,
	MRC_A_CONN_ACKS_PIGGY_RX,
	MRC_A_CONN_CAPS,
	MRC_A_CONN_SPURIOUS,
	MRC_A_CONN_REO_MULT,
	MRC_A_CONN_UID,
	MRC_A_CONN_INODE,

	__MRC_A_CONN_MAX,
	MRC_A_CONN_MAX = (__MRC_A_CONN_MAX - 1)
};

enum {
	MRC_A_EV_TRANSITIONS_PAD = 1,
	MRC_A_EV_TRANSITIONS_TO_GOOD,
	MRC_A_EV_TRANSITIONS_TO_SKIP,
	MRC_A_EV_TRANSITIONS_TO_BAD,
	MRC_A_EV_TRANSITIONS_TO_DENIED,
	MRC_A_EV_TRANSITIONS_REPLACED,

	__MRC_A_EV_TRANSITIONS_MAX,
	MRC_A_EV_TRANSITIONS_MAX = (__MRC_A_EV_TRANSITIONS_MAX - 1)
};

enum {
	MRC_A_CONN_PLANE_PAD = 1,
	MRC_A_CONN_PLANE_PLANE,
	MRC_A_CONN_PLANE_CWND,
	MRC_A_CONN_PLANE_IN_FLIGHT,
	MRC_A_CONN_PLANE_SRTT_US,
	MRC_A_CONN_PLANE_BASE_RTT_US,
	MRC_A_CONN_PLANE_ECN_PPM,
	MRC_A_CONN_PLANE_EVS_GOOD,
	MRC_A_CONN_PLANE_EVS_SKIP,
	MRC_A_CONN_PLANE_EVS_BAD,
	MRC_A_CONN_PLANE_EVS_DENIED,
	MRC_A_CONN_PLANE_ROUNDS,
	MRC_A_CONN_PLANE_ECN_CUTS,
	MRC_A_CONN_PLANE_DELAY_CUTS,
	MRC_A_CONN_PLANE_LOSSES,

	__MRC_A_CONN_PLANE_MAX,
	MRC_A_CONN_PLANE_MAX = (__MRC_A_CONN_PLANE_MAX - 1)
};

enum {
	MRC_A_PATH_PAD = 1,
	MRC_A_PATH_CONN_ID,
	MRC_A_PATH_INDEX,
	MRC_A_PATH_EV,
	MRC_A_PATH_PLANE,
	MRC_A_PATH_SPORT,
	MRC_A_PATH_STATE,
	MRC_A_PATH_SINCE_MS,
	MRC_A_PATH_PKTS,
	MRC_A_PATH_BYTES,
	MRC_A_PATH_ACKS,
	MRC_A_PATH_ECN,
	MRC_A_PATH_LOSSES,
	MRC_A_PATH_NACKS,
	MRC_A_PATH_PROBES,
	MRC_A_PATH_RTT_US,
	MRC_A_PATH_DENIED,

	__MRC_A_PATH_MAX,
	MRC_A_PATH_MAX = (__MRC_A_PATH_MAX - 1)
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
	MRC_A_DEV_EVS_PER_PLANE,
	MRC_A_DEV_SPRAY,
	MRC_A_DEV_EV_TRANSITIONS,
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
	MRC_CMD_CONN_GET,
	MRC_CMD_PATH_GET,
	MRC_CMD_PATH_SET,
	MRC_CMD_PATH_CHANGE_NTF,

	__MRC_CMD_MAX,
	MRC_CMD_MAX = (__MRC_CMD_MAX - 1)
};

#define MRC_MCGRP_EVENTS	"events"
#define MRC_MCGRP_CONNS		"conns"

#endif /* _UAPI_LINUX_MRC_NETLINK_H */
