/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * mrc: Multipath Reliable Connection - user API.
 *
 * Everything userspace needs to talk to mrc.ko: the socket address, the
 * socket options and the generic netlink family.  The address family
 * number is NOT a compile-time constant for programs: an out-of-tree module
 * has to borrow an unused slot below NPROTO, and the slot actually in use
 * is the module parameter /sys/module/mrc/parameters/family (also reported
 * by the generic netlink family).  MRC_FAMILY_DEFAULT is only the default.
 */
#ifndef _UAPI_LINUX_MRC_H
#define _UAPI_LINUX_MRC_H

#include <linux/types.h>
#include <linux/in6.h>
#include <linux/socket.h>
#include <linux/mrc_netlink.h>

/*
 * Default address family slot.  22 is AF_SNA ("Linux SNA Project"), which
 * is reserved in <linux/socket.h> but has never had an implementation in
 * the kernel tree.  See Documentation/mrc.rst, "Address family".
 */
#define MRC_FAMILY_DEFAULT	22

/*
 * Default UDP destination port of a new mrc device (changeable per device).
 * Chosen next to RoCEv2 (4791) and Ultra Ethernet (4793); it is not an
 * IANA assignment.  See Documentation/mrc.rst.
 */
#define MRC_UDP_PORT_DEFAULT	4796

/* sysfs file holding the address family number the loaded module uses. */
#define MRC_FAMILY_SYSFS	"/sys/module/mrc/parameters/family"

/* setsockopt()/getsockopt() level of AF_MRC options. */
#define SOL_MRC			299

/**
 * struct sockaddr_mrc - address of an mrc endpoint
 * @smrc_family: the AF_MRC family number (read it from MRC_FAMILY_SYSFS)
 * @smrc_port: port, network byte order; 0 in bind() asks for an ephemeral
 *	port
 * @smrc_ifindex: ifindex of an mrc device to bind to, or 0 for any device
 *	owning @smrc_addr (bind) or chosen by route (connect)
 * @smrc_addr: IPv6 address, IPv4 as v4-mapped (::ffff:a.b.c.d); in6addr_any
 *	in bind() means every mrc device of the network namespace.  Any
 *	address of any rail of a device stands for that device.
 * @smrc_zero: reserved, must be zero
 *
 * 32 bytes, no implicit padding, fits in struct sockaddr_storage.
 */
struct sockaddr_mrc {
	__kernel_sa_family_t	smrc_family;
	__be16			smrc_port;
	__u32			smrc_ifindex;
	struct in6_addr		smrc_addr;
	__u8			smrc_zero[8];
};

/* Socket options at level SOL_MRC. */
#define MRC_INFO		1	/* getsockopt: struct mrc_info */

/**
 * struct mrc_info - getsockopt(SOL_MRC, MRC_INFO)
 *
 * Versioned by size: the kernel fills min(optlen, its size) bytes and
 * returns that length; fields are only ever appended.
 *
 * @state: enum mrc_conn_state (mrc_netlink.h)
 * @closing: bit 0: our CLOSE queued, bit 1: everything we sent, our CLOSE
 *	last, was acknowledged cumulatively, bit 2: the peer's CLOSE arrived
 *	(maybe ahead of its last data), bit 3: everything the peer sent
 *	before its CLOSE arrived
 * @planes: number of planes the connection uses
 * @reserved: zero
 * @paths: number of paths (EVs)
 * @id: our connection id
 * @peer_id: the peer's connection id
 * @seg_size: payload bytes per full segment
 * @srtt_us: smoothed round-trip time
 * @rttvar_us: its variation
 * @rto_us: current retransmission timeout
 * @in_flight: packets sent and not acknowledged or declared lost
 * @lost: packets declared lost, not yet sent again
 * @window: packets the peer's credit still allows beyond what is in flight
 * @snd_queue: segments waiting for their first transmission
 * @tx_msgs: messages sent
 * @tx_bytes: their bytes
 * @tx_pkts: packets sent (DATA and CLOSE, retransmissions included)
 * @retrans: retransmissions
 * @rto: retransmission timeouts
 * @rx_msgs: messages received complete, in order (read or not)
 * @rx_bytes: their bytes
 * @rx_pkts: packets received (DATA and CLOSE)
 * @rx_dups: duplicate packets received
 * @acks_tx: ACK packets sent (ACKs on DATA: @acks_piggy_tx)
 * @acks_rx: ACK packets received (ACKs on DATA: @acks_piggy_rx)
 * @ce_rx: CE-marked packets received
 * @uid: the socket's owner (an accepted socket: its listener's owner)
 * @rmem_alloc: receive memory the connection holds now, bytes (segments
 *	and message bookkeeping, at their truesize)
 * @rmem_limit: what it may hold at most, bytes (max(SO_RCVBUF, one
 *	largest message and 64 segments); 0 before the handshake)
 * @max_msg: the largest message the connection accepts (max-msg-size of
 *	its device when it was opened)
 * @tx_bursts: skbs that carried two or more of the @tx_pkts packets (UDP
 *	segmentation offload; module parameter tx_burst_max)
 * @tx_burst_pkts: the packets those skbs carried
 * @rx_bursts: skbs that brought two or more packets at once (a peer's
 *	burst, handed to mrc whole by the UDP stack; module parameter
 *	rx_burst)
 * @rx_burst_pkts: the packets those skbs carried (each then received as
 *	a packet of its own would be: in @rx_pkts, in @rx_dups, or dropped)
 * @tx_chunks: skbs of the send queue that held two or more segments of a
 *	message (module parameter tx_chunk_segs)
 * @tx_chunk_segs: the segments those skbs held
 * @tx_chunk_alone: transmissions of one of those segments in an skb of
 *	its own, not in a burst (retransmissions, and first transmissions
 *	that could not join a burst)
 * @acks_piggy_tx: ACKs sent on DATA packets (not in @acks_tx)
 * @acks_piggy_rx: ACKs received on DATA packets (not in @acks_rx)
 * @caps: the capabilities the handshake settled (enum mrc_conn_caps of
 *	<linux/mrc_netlink.h>: MRC_CONN_CAPS_ACK_DATA, ACKs on DATA)
 * @reo_mult: loss detection's reordering window in multiples of its base
 *	(1-8 from connect() or, for an accepted connection, from the end of
 *	the handshake; 0 for a listener or a half-open child): grown by
 *	@spurious losses, reset by rounds of losses without them; used only
 *	while the module parameter reo_adapt is on (was reserved, zero)
 * @spurious: losses declared that proved spurious: the packet arrived
 *	after all (acknowledged while waiting for its retransmission, or its
 *	earlier copy triggered an ACK while the retransmission was in
 *	flight); each declared loss counts at most once
 */
struct mrc_info {
	__u8	state;
	__u8	closing;
	__u8	planes;
	__u8	reserved;
	__u32	paths;
	__u32	id;
	__u32	peer_id;
	__u32	seg_size;
	__u32	srtt_us;
	__u32	rttvar_us;
	__u32	rto_us;
	__u32	in_flight;
	__u32	lost;
	__u32	window;
	__u32	snd_queue;
	__u64	tx_msgs;
	__u64	tx_bytes;
	__u64	tx_pkts;
	__u64	retrans;
	__u64	rto;
	__u64	rx_msgs;
	__u64	rx_bytes;
	__u64	rx_pkts;
	__u64	rx_dups;
	__u64	acks_tx;
	__u64	acks_rx;
	__u64	ce_rx;
	__u32	uid;
	__u32	rmem_alloc;
	__u32	rmem_limit;
	__u32	max_msg;
	__u64	tx_bursts;
	__u64	tx_burst_pkts;
	__u64	rx_bursts;
	__u64	rx_burst_pkts;
	__u64	tx_chunks;
	__u64	tx_chunk_segs;
	__u64	tx_chunk_alone;
	__u64	acks_piggy_tx;
	__u64	acks_piggy_rx;
	__u32	caps;
	__u32	reo_mult;
	__u64	spurious;
};

/*
 * rtnetlink attributes of link kind "mrc" (IFLA_INFO_DATA): the device's
 * settings, as "ip -d link show" prints them and "ip link add/set ... type
 * mrc" sets them.  The generic netlink family (MRC_A_DEV_*) carries the
 * same values.
 */
enum {
	IFLA_MRC_UNSPEC,
	IFLA_MRC_UDP_PORT,		/* u16: UDP destination port */
	IFLA_MRC_MAX_MSG_SIZE,		/* u32: largest message, bytes */
	IFLA_MRC_EVS_PER_PLANE,		/* u32: paths per plane */
	IFLA_MRC_SPRAY,			/* string: path choice policy */
	__IFLA_MRC_MAX,
};

#define IFLA_MRC_MAX	(__IFLA_MRC_MAX - 1)

/*
 * rtnetlink attributes of a rail (IFLA_INFO_SLAVE_DATA of a netdevice
 * whose master is an mrc device; slave kind "mrc"); read-only.
 */
enum {
	IFLA_MRC_RAIL_UNSPEC,
	IFLA_MRC_RAIL_PLANE,		/* u32: plane number */
	IFLA_MRC_RAIL_ADMIN_STATE,	/* u32: enum mrc_admin_state */
	IFLA_MRC_RAIL_OPER_STATE,	/* u32: enum mrc_oper_state */
	__IFLA_MRC_RAIL_MAX,
};

#define IFLA_MRC_RAIL_MAX	(__IFLA_MRC_RAIL_MAX - 1)

#endif /* _UAPI_LINUX_MRC_H */
