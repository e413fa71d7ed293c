/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats.h - what mrc counts, and where (stats.c).
 *
 * Three kinds of counters:
 *  - traffic of a device and of each of its rails (packets and bytes each
 *    way, drops by reason, and per hardware queue of a rail): per-CPU,
 *    written locklessly by the CPU that owns them with BH disabled, summed
 *    by readers (ndo_get_stats64, sysfs, netlink rail-get/dev-get);
 *  - path state changes of a device's connections (atomic64, any context);
 *  - each connection's own (struct mrc_conn_stats in struct mrc_sock,
 *    under the connection lock, incremented where the event happens),
 *    read by getsockopt(MRC_INFO) and the netlink conn dump through
 *    mrc_conn_stats_info().
 * (A packet for an mrc port that arrived on a netdevice that is no rail
 * has no device to count it on: it is freed as a plain drop, after UDP
 * counted it.)
 * stats.c has the writers of the first two kinds and every reader;
 * the packet paths call the writers (udp.c, handshake.c and a
 * connection's input, input.c/recv.c/ack.c through mrc_input_drop(),
 * count what comes in, xmit.c what goes out, path.c the path changes).
 *
 * Not here, on purpose: the protocol core's own counters, per path
 * (struct mrc_ev: pkts, bytes, acks, ecn, losses) and per plane (struct
 * mrc_cc: rounds, ECN and delay cuts, losses).  They are part of the
 * state the core (plain C, no kernel calls) keeps and the unit tests
 * read; netlink.c reports them with the path and conn dumps.
 */
#ifndef _MRC_STATS_H
#define _MRC_STATS_H

#include <linux/types.h>
#include <linux/percpu.h>
#include <linux/skbuff.h>
#include <linux/u64_stats_sync.h>
#include <uapi/linux/mrc.h>

#include "core/ev.h"
#include "core/wire.h"

struct mrc_dev;
struct mrc_rail;
struct mrc_info;
struct net;
struct sk_buff;

/**
 * struct mrc_stats - traffic counters (a snapshot, or one CPU's share)
 * @tx_packets: mrc packets handed to a rail for transmission
 * @tx_bytes: bytes of those packets
 * @rx_packets: mrc packets received from a rail
 * @rx_bytes: bytes of those packets
 * @tx_dropped: packets mrc could not transmit
 * @rx_dropped: received packets mrc dropped: every reason of @drops but
 *	the protocol events (mrc_drop_is_event())
 * @drops: received packets not taken, by enum mrc_drop_reason
 */
struct mrc_stats {
	u64 tx_packets;
	u64 tx_bytes;
	u64 rx_packets;
	u64 rx_bytes;
	u64 tx_dropped;
	u64 rx_dropped;
	u64 drops[__MRC_DROP_MAX];
};

/**
 * struct mrc_pcpu_stats - one CPU's counters of a device or rail
 * @syncp: makes 64-bit reads consistent on 32-bit hosts
 * @tx_packets: see struct mrc_stats
 * @tx_bytes: see struct mrc_stats
 * @rx_packets: see struct mrc_stats
 * @rx_bytes: see struct mrc_stats
 * @tx_dropped: see struct mrc_stats
 * @rx_dropped: see struct mrc_stats
 * @drops: received packets not taken, by enum mrc_drop_reason
 * @queue: per hardware queue packets and bytes (rails only): first
 *	2 * num_rx_queues entries for RX, then 2 * num_tx_queues for TX
 *
 * Written only by the owning CPU (with BH disabled); read by anyone.
 */
struct mrc_pcpu_stats {
	struct u64_stats_sync syncp;
	u64_stats_t tx_packets;
	u64_stats_t tx_bytes;
	u64_stats_t rx_packets;
	u64_stats_t rx_bytes;
	u64_stats_t tx_dropped;
	u64_stats_t rx_dropped;
	u64_stats_t drops[__MRC_DROP_MAX];
	u64_stats_t queue[];
};

/*
 * Queues (RX + TX) a rail may have: their counters share one per-CPU
 * block, which the percpu allocator caps at PCPU_MIN_UNIT_SIZE (32 KiB;
 * beyond, it WARNs and fails): 2034 on 64-bit.
 */
#define MRC_RAIL_MAX_QUEUES \
	((PCPU_MIN_UNIT_SIZE - sizeof(struct mrc_pcpu_stats)) / \
	 (2 * sizeof(u64_stats_t)))

/**
 * struct mrc_stats_field - a traffic counter of struct mrc_stats by name
 * @name: its name in sysfs (mrc/, mrc_rail/) and in ethtool -S
 * @offset: its offsetof() in struct mrc_stats
 */
struct mrc_stats_field {
	const char *name;
	size_t offset;
};

/* The traffic counters of struct mrc_stats, in the order sysfs lists them. */
#define MRC_STATS_NR_FIELDS	6
extern const struct mrc_stats_field mrc_stats_fields[MRC_STATS_NR_FIELDS];

/**
 * mrc_stats_field_read() - one traffic counter of a snapshot
 * @st: the snapshot
 * @i: index into mrc_stats_fields, below MRC_STATS_NR_FIELDS
 *
 * Return: the counter.
 */
static inline u64 mrc_stats_field_read(const struct mrc_stats *st,
				       unsigned int i)
{
	return *(const u64 *)((const char *)st + mrc_stats_fields[i].offset);
}

/* Path changes counted per device beside the new states: replacements. */
#define MRC_STATS_EV_REPLACED	__MRC_EV_STATE_MAX

/**
 * struct mrc_conn_stats - counters of one connection (conn lock)
 * @tx_msgs: messages queued by sendmsg
 * @tx_bytes: their bytes
 * @tx_pkts: DATA/CLOSE packets sent, retransmissions included
 * @tx_bursts: skbs of two or more of those packets (UDP GSO, output.c)
 * @tx_burst_pkts: the packets they carried
 * @tx_chunks: skbs sendmsg queued with two or more segments (output.c)
 * @tx_chunk_segs: the segments they held
 * @tx_chunk_alone: transmissions of one of those segments in an skb of
 *	its own (retransmissions, and first transmissions that could not
 *	join a burst: an allocation an fclone's twin saves)
 * @rx_bursts: UDP GSO skbs received whole (udp.c)
 * @rx_burst_pkts: the packets they carried
 * @retrans: retransmissions
 * @rto: retransmission timeouts
 * @rx_msgs: messages complete in order (readable by recvmsg)
 * @rx_bytes: their bytes
 * @rx_pkts: DATA/CLOSE packets accepted
 * @rx_dups: duplicate DATA packets (acknowledged, not stored)
 * @acks_tx: ACKs sent
 * @acks_rx: ACKs received
 * @acks_piggy_tx: ACKs sent on DATA (MRC_F_DATA_ACK), not in @acks_tx
 * @acks_piggy_rx: ACKs received on DATA, not in @acks_rx
 * @ce_rx: CE-marked packets received
 * @spurious: declared losses that proved spurious (core/txwin.c)
 */
struct mrc_conn_stats {
	u64 tx_msgs;
	u64 tx_bytes;
	u64 tx_pkts;
	u64 tx_bursts;
	u64 tx_burst_pkts;
	u64 tx_chunks;
	u64 tx_chunk_segs;
	u64 tx_chunk_alone;
	u64 rx_bursts;
	u64 rx_burst_pkts;
	u64 retrans;
	u64 rto;
	u64 rx_msgs;
	u64 rx_bytes;
	u64 rx_pkts;
	u64 rx_dups;
	u64 acks_tx;
	u64 acks_rx;
	u64 acks_piggy_tx;
	u64 acks_piggy_rx;
	u64 ce_rx;
	u64 spurious;
};

/**
 * mrc_drop_is_event() - is a reason a protocol event rather than a loss?
 * @reason: enum mrc_drop_reason
 *
 * A duplicate (a packet, or a plane's proof, that arrived before: it is
 * acknowledged again) and a trimmed packet (its payload cut by a switch:
 * it is NACKed, and the sender resends it at once) did their job: they are
 * counted by reason, traced as mrc_drop, and freed with consume_skb(), but
 * they are not in rx_dropped and drop monitors do not see them.
 *
 * Return: true for MRC_DROP_DUPLICATE and MRC_DROP_TRIMMED.
 */
static inline bool mrc_drop_is_event(enum mrc_drop_reason reason)
{
	return reason == MRC_DROP_DUPLICATE || reason == MRC_DROP_TRIMMED;
}

extern const u16 mrc_drop_skb_reasons[__MRC_DROP_MAX];

/**
 * mrc_kfree_skb() - free a received skb mrc did not take
 * @skb: the skb (may be NULL)
 * @reason: why (enum mrc_drop_reason; MRC_DROP_NONE is no drop)
 *
 * A drop is freed with kfree_skb_reason() and the kernel's generic reason
 * that fits (stats.c, mrc_drop_skb_reasons), which skb:kfree_skb, drop
 * monitors and dropwatch report; a protocol event (mrc_drop_is_event())
 * or no drop at all with consume_skb().  Inline: the tracepoint's
 * location is the caller.
 */
static inline void mrc_kfree_skb(struct sk_buff *skb,
				 enum mrc_drop_reason reason)
{
	if (reason == MRC_DROP_NONE || mrc_drop_is_event(reason))
		consume_skb(skb);
	else
		kfree_skb_reason(skb, reason < __MRC_DROP_MAX ?
				 (enum skb_drop_reason)mrc_drop_skb_reasons[reason] :
				 SKB_DROP_REASON_NOT_SPECIFIED);
}

struct mrc_pcpu_stats __percpu *mrc_stats_alloc(u32 nqueues);
void mrc_stats_fold(const struct mrc_pcpu_stats __percpu *pcpu,
		    struct mrc_stats *st);
void mrc_dev_get_stats(const struct mrc_dev *mdev, struct mrc_stats *st);
void mrc_rail_get_stats(const struct mrc_rail *rail, struct mrc_stats *st);
void mrc_rail_get_queue_stats(const struct mrc_rail *rail, bool tx, u32 q,
			      u64 *packets, u64 *bytes);
void mrc_stats_tx(struct mrc_dev *mdev, struct mrc_rail *rail, u32 q,
		  u32 pkts, unsigned int len);
void mrc_stats_tx_drop(struct mrc_dev *mdev, struct mrc_rail *rail);
void mrc_stats_rx(struct mrc_dev *mdev, struct mrc_rail *rail,
		  const struct sk_buff *skb, u32 pkts, unsigned int len);
void mrc_stats_rx_drop(struct mrc_dev *mdev, struct mrc_rail *rail,
		       enum mrc_drop_reason reason, const struct mrc_pkt *pkt);
void mrc_stats_ev(struct mrc_dev *mdev, unsigned int what);
u64 mrc_stats_ev_read(const struct mrc_dev *mdev, unsigned int what);
void mrc_conn_stats_info(const struct mrc_conn_stats *cs,
			 struct mrc_info *info);

#endif /* _MRC_STATS_H */
