// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - every counter of mrc: what is counted, where, and how it is
 * read (stats.h says which kinds there are and who writes them).
 *
 * A device and each rail have one per-CPU block (struct mrc_pcpu_stats).
 * A packet is counted on its device and on its rail, so that the device's
 * numbers are the sum of its rails' plus what no rail can be charged
 * with (the device's own ndo_start_xmit, a drop whose rail is unknown).  The
 * block of a rail ends in two counters (packets, bytes) per hardware
 * queue, RX queues first: what spraying over a rail's TX queues did.
 * Writers run with BH disabled (softirq receive, or xmit.c's
 * local_bh_disable()), so this_cpu_ptr() is stable and each CPU's
 * u64_stats sequence has one writer.
 */

#include <linux/percpu.h>
#include <linux/skbuff.h>
#include <linux/u64_stats_sync.h>

#include "sock.h"
#include "trace.h"

/**
 * mrc_stats_alloc() - per-CPU counters of a device or a rail
 * @nqueues: RX + TX hardware queues counted (0 for a device); at most
 *	MRC_RAIL_MAX_QUEUES
 *
 * Return: the counters, zeroed, or NULL; freed with free_percpu().
 */
struct mrc_pcpu_stats __percpu *mrc_stats_alloc(u32 nqueues)
{
	struct mrc_pcpu_stats __percpu *pcpu;
	int cpu;

	if (WARN_ON_ONCE(nqueues > MRC_RAIL_MAX_QUEUES))
		return NULL;
	pcpu = __alloc_percpu(struct_size(pcpu, queue, 2 * nqueues),
			      __alignof__(struct mrc_pcpu_stats));
	if (!pcpu)
		return NULL;
	for_each_possible_cpu(cpu)
		u64_stats_init(&per_cpu_ptr(pcpu, cpu)->syncp);
	return pcpu;
}

/*
 * The traffic counters by name: sysfs.c and ethtool.c print these, so the
 * two cannot disagree on a name or on which field it reads.
 */
const struct mrc_stats_field mrc_stats_fields[MRC_STATS_NR_FIELDS] = {
	{ "tx_packets", offsetof(struct mrc_stats, tx_packets) },
	{ "tx_bytes", offsetof(struct mrc_stats, tx_bytes) },
	{ "rx_packets", offsetof(struct mrc_stats, rx_packets) },
	{ "rx_bytes", offsetof(struct mrc_stats, rx_bytes) },
	{ "tx_dropped", offsetof(struct mrc_stats, tx_dropped) },
	{ "rx_dropped", offsetof(struct mrc_stats, rx_dropped) },
};

/* Every u64 before drops[] is a traffic counter in the table above. */
static_assert(offsetof(struct mrc_stats, drops) ==
	      MRC_STATS_NR_FIELDS * sizeof(u64));

/*
 * The kernel's generic reason (enum skb_drop_reason) for each of mrc's, as
 * skb:kfree_skb and drop monitors report an skb mrc frees (mrc_kfree_skb()).
 * Only reasons that 6.1 and 6.12 both have, and only where one fits; the
 * others are NOT_SPECIFIED, and the mrc_drop tracepoint says which.  A
 * protocol event (duplicate, trimmed) is consumed, not dropped.
 */
const u16 mrc_drop_skb_reasons[__MRC_DROP_MAX] = {
	[MRC_DROP_NONE] = SKB_DROP_REASON_NOT_SPECIFIED,
	[MRC_DROP_SHORT] = SKB_DROP_REASON_PKT_TOO_SMALL,
	[MRC_DROP_VERSION] = SKB_DROP_REASON_UNHANDLED_PROTO,
	[MRC_DROP_TYPE] = SKB_DROP_REASON_UNHANDLED_PROTO,
	[MRC_DROP_RESERVED] = SKB_DROP_REASON_NOT_SPECIFIED,
	[MRC_DROP_LENGTH] = SKB_DROP_REASON_NOT_SPECIFIED,
	[MRC_DROP_BAD_FIELD] = SKB_DROP_REASON_NOT_SPECIFIED,
	[MRC_DROP_CSUM] = SKB_DROP_REASON_UDP_CSUM,
	[MRC_DROP_NO_RAIL] = SKB_DROP_REASON_NO_SOCKET,
	[MRC_DROP_NO_CONN] = SKB_DROP_REASON_NO_SOCKET,
	[MRC_DROP_NO_LISTENER] = SKB_DROP_REASON_NO_SOCKET,
	[MRC_DROP_BAD_SOURCE] = SKB_DROP_REASON_NOT_SPECIFIED,
	[MRC_DROP_STATE] = SKB_DROP_REASON_NOT_SPECIFIED,
	[MRC_DROP_OUT_OF_WINDOW] = SKB_DROP_REASON_NOT_SPECIFIED,
	[MRC_DROP_DUPLICATE] = SKB_DROP_REASON_NOT_SPECIFIED,	/* consumed */
	[MRC_DROP_NO_BUFFER] = SKB_DROP_REASON_PROTO_MEM,
	[MRC_DROP_BAD_DATA] = SKB_DROP_REASON_NOT_SPECIFIED,
	[MRC_DROP_MSG_TOO_BIG] = SKB_DROP_REASON_NOT_SPECIFIED,
	[MRC_DROP_BACKLOG] = SKB_DROP_REASON_NOT_SPECIFIED,
	[MRC_DROP_BAD_ACK] = SKB_DROP_REASON_NOT_SPECIFIED,
	[MRC_DROP_TRIMMED] = SKB_DROP_REASON_NOT_SPECIFIED,	/* consumed */
};

static_assert(SKB_DROP_REASON_MAX <= U16_MAX);

/* ---- Writers (BH disabled) ------------------------------------------- */

/**
 * mrc_stats_tx() - count packets handed to a rail
 * @mdev: the device
 * @rail: the rail
 * @q: the rail's TX queue they went to
 * @pkts: packets (a UDP GSO burst is several)
 * @len: their bytes in all
 *
 * Context: BH disabled.
 */
void mrc_stats_tx(struct mrc_dev *mdev, struct mrc_rail *rail, u32 q,
		  u32 pkts, unsigned int len)
{
	struct mrc_pcpu_stats *s = this_cpu_ptr(mdev->stats);

	lockdep_assert_in_softirq();

	u64_stats_update_begin(&s->syncp);
	u64_stats_add(&s->tx_packets, pkts);
	u64_stats_add(&s->tx_bytes, len);
	u64_stats_update_end(&s->syncp);
	s = this_cpu_ptr(rail->stats);
	u64_stats_update_begin(&s->syncp);
	u64_stats_add(&s->tx_packets, pkts);
	u64_stats_add(&s->tx_bytes, len);
	u64_stats_add(&s->queue[2 * (rail->num_rx_queues + q)], pkts);
	u64_stats_add(&s->queue[2 * (rail->num_rx_queues + q) + 1], len);
	u64_stats_update_end(&s->syncp);
}

/**
 * mrc_stats_tx_drop() - count a packet mrc could not transmit
 * @mdev: the device
 * @rail: the rail it was meant for (NULL: none, or the device's own xmit)
 *
 * Context: BH disabled.
 */
void mrc_stats_tx_drop(struct mrc_dev *mdev, struct mrc_rail *rail)
{
	struct mrc_pcpu_stats *s = this_cpu_ptr(mdev->stats);

	lockdep_assert_in_softirq();

	u64_stats_update_begin(&s->syncp);
	u64_stats_inc(&s->tx_dropped);
	u64_stats_update_end(&s->syncp);
	if (!rail)
		return;
	s = this_cpu_ptr(rail->stats);
	u64_stats_update_begin(&s->syncp);
	u64_stats_inc(&s->tx_dropped);
	u64_stats_update_end(&s->syncp);
}

/**
 * mrc_stats_rx() - count packets received from a rail
 * @mdev: the device
 * @rail: the rail
 * @skb: the skb they came in (its recorded RX queue is counted)
 * @pkts: packets (a UDP GSO burst taken whole is several)
 * @len: their bytes in all
 *
 * Context: BH disabled.
 */
void mrc_stats_rx(struct mrc_dev *mdev, struct mrc_rail *rail,
		  const struct sk_buff *skb, u32 pkts, unsigned int len)
{
	struct mrc_pcpu_stats *s = this_cpu_ptr(mdev->stats);
	u32 q;

	lockdep_assert_in_softirq();

	u64_stats_update_begin(&s->syncp);
	u64_stats_add(&s->rx_packets, pkts);
	u64_stats_add(&s->rx_bytes, len);
	u64_stats_update_end(&s->syncp);

	q = skb_rx_queue_recorded(skb) ? skb_get_rx_queue(skb) : 0;
	if (q >= rail->num_rx_queues)
		q = 0;
	s = this_cpu_ptr(rail->stats);
	u64_stats_update_begin(&s->syncp);
	u64_stats_add(&s->rx_packets, pkts);
	u64_stats_add(&s->rx_bytes, len);
	u64_stats_add(&s->queue[2 * q], pkts);
	u64_stats_add(&s->queue[2 * q + 1], len);
	u64_stats_update_end(&s->syncp);
}

/* One received packet not taken for @reason, in one object's counters. */
static void mrc_stats_rx_drop_one(struct mrc_pcpu_stats __percpu *pcpu,
				  enum mrc_drop_reason reason)
{
	struct mrc_pcpu_stats *s = this_cpu_ptr(pcpu);

	u64_stats_update_begin(&s->syncp);
	if (!mrc_drop_is_event(reason))
		u64_stats_inc(&s->rx_dropped);
	u64_stats_inc(&s->drops[reason]);
	u64_stats_update_end(&s->syncp);
}

/**
 * mrc_stats_rx_drop() - count a received packet mrc did not take
 * @mdev: the device (may be NULL: counted nowhere but its reason)
 * @rail: the rail it arrived on (may be NULL)
 * @reason: why; an unknown one counts as MRC_DROP_BAD_FIELD
 * @pkt: its parsed headers, if it parsed (else NULL)
 *
 * Counted by reason, and in rx_dropped unless a protocol event
 * (mrc_drop_is_event()); each call is one mrc_drop trace event, so the
 * events and the counters agree.  The caller frees the skb
 * (mrc_kfree_skb()), or, for a segment of a burst, goes on with the rest.
 *
 * Context: BH disabled.
 */
void mrc_stats_rx_drop(struct mrc_dev *mdev, struct mrc_rail *rail,
		       enum mrc_drop_reason reason, const struct mrc_pkt *pkt)
{
	lockdep_assert_in_softirq();
	if (reason >= __MRC_DROP_MAX)
		reason = MRC_DROP_BAD_FIELD;
	trace_mrc_drop(mdev, rail, reason, pkt);
	if (mdev)
		mrc_stats_rx_drop_one(mdev->stats, reason);
	if (rail)
		mrc_stats_rx_drop_one(rail->stats, reason);
}

/**
 * mrc_stats_ev() - count a path change of one of the device's connections
 * @mdev: the device
 * @what: the path's new state (enum mrc_ev_state), or MRC_STATS_EV_REPLACED
 *
 * Context: any.
 */
void mrc_stats_ev(struct mrc_dev *mdev, unsigned int what)
{
	if (!WARN_ON_ONCE(what > MRC_STATS_EV_REPLACED))
		atomic64_inc(&mdev->ev_trans[what]);
}

/* ---- Readers --------------------------------------------------------- */

/**
 * mrc_stats_ev_read() - path changes of a device's connections
 * @mdev: the device
 * @what: enum mrc_ev_state or MRC_STATS_EV_REPLACED
 *
 * Return: how many since the device was created.
 */
u64 mrc_stats_ev_read(const struct mrc_dev *mdev, unsigned int what)
{
	if (what > MRC_STATS_EV_REPLACED)
		return 0;
	return atomic64_read(&mdev->ev_trans[what]);
}

/**
 * mrc_stats_fold() - sum per-CPU counters
 * @pcpu: per-CPU counters of a device or rail
 * @st: the sum
 */
void mrc_stats_fold(const struct mrc_pcpu_stats __percpu *pcpu,
		    struct mrc_stats *st)
{
	unsigned int i;
	int cpu;
	u64 v;

	memset(st, 0, sizeof(*st));
	for_each_possible_cpu(cpu) {
		const struct mrc_pcpu_stats *s = per_cpu_ptr(pcpu, cpu);
		struct mrc_stats c;
		unsigned int start;

		do {
			start = u64_stats_fetch_begin(&s->syncp);
			c.tx_packets = u64_stats_read(&s->tx_packets);
			c.tx_bytes = u64_stats_read(&s->tx_bytes);
			c.rx_packets = u64_stats_read(&s->rx_packets);
			c.rx_bytes = u64_stats_read(&s->rx_bytes);
			c.tx_dropped = u64_stats_read(&s->tx_dropped);
			c.rx_dropped = u64_stats_read(&s->rx_dropped);
		} while (u64_stats_fetch_retry(&s->syncp, start));
		st->tx_packets += c.tx_packets;
		st->tx_bytes += c.tx_bytes;
		st->rx_packets += c.rx_packets;
		st->rx_bytes += c.rx_bytes;
		st->tx_dropped += c.tx_dropped;
		st->rx_dropped += c.rx_dropped;
		for (i = 0; i < __MRC_DROP_MAX; i++) {
			do {
				start = u64_stats_fetch_begin(&s->syncp);
				v = u64_stats_read(&s->drops[i]);
			} while (u64_stats_fetch_retry(&s->syncp, start));
			st->drops[i] += v;
		}
	}
}

/**
 * mrc_dev_get_stats() - counters of a device (all rails together)
 * @mdev: the device
 * @st: filled with the counters
 */
void mrc_dev_get_stats(const struct mrc_dev *mdev, struct mrc_stats *st)
{
	mrc_stats_fold(mdev->stats, st);
}

/**
 * mrc_rail_get_stats() - counters of a rail
 * @rail: the rail
 * @st: filled with the counters
 */
void mrc_rail_get_stats(const struct mrc_rail *rail, struct mrc_stats *st)
{
	mrc_stats_fold(rail->stats, st);
}

/**
 * mrc_rail_get_queue_stats() - counters of one hardware queue of a rail
 * @rail: the rail
 * @tx: TX queue (true) or RX queue (false)
 * @q: queue index, below @rail->num_tx_queues or @rail->num_rx_queues
 * @packets: filled with the packet count
 * @bytes: filled with the byte count
 */
void mrc_rail_get_queue_stats(const struct mrc_rail *rail, bool tx, u32 q,
			      u64 *packets, u64 *bytes)
{
	unsigned int idx = 2 * (tx ? rail->num_rx_queues + q : q);
	int cpu;

	*packets = 0;
	*bytes = 0;
	for_each_possible_cpu(cpu) {
		const struct mrc_pcpu_stats *s = per_cpu_ptr(rail->stats, cpu);
		unsigned int start;
		u64 p, b;

		do {
			start = u64_stats_fetch_begin(&s->syncp);
			p = u64_stats_read(&s->queue[idx]);
			b = u64_stats_read(&s->queue[idx + 1]);
		} while (u64_stats_fetch_retry(&s->syncp, start));
		*packets += p;
		*bytes += b;
	}
}

/**
 * mrc_conn_stats_info() - a connection's counters as MRC_INFO reports them
 * @cs: the counters (the caller holds the connection lock)
 * @info: filled in its counter fields; the others are left alone
 */
void mrc_conn_stats_info(const struct mrc_conn_stats *cs,
			 struct mrc_info *info)
{
	info->tx_msgs = cs->tx_msgs;
	info->tx_bytes = cs->tx_bytes;
	info->tx_pkts = cs->tx_pkts;
	info->retrans = cs->retrans;
	info->rto = cs->rto;
	info->rx_msgs = cs->rx_msgs;
	info->rx_bytes = cs->rx_bytes;
	info->rx_pkts = cs->rx_pkts;
	info->rx_dups = cs->rx_dups;
	info->acks_tx = cs->acks_tx;
	info->acks_rx = cs->acks_rx;
	info->ce_rx = cs->ce_rx;
	info->tx_bursts = cs->tx_bursts;
	info->tx_burst_pkts = cs->tx_burst_pkts;
	info->tx_chunks = cs->tx_chunks;
	info->tx_chunk_segs = cs->tx_chunk_segs;
	info->tx_chunk_alone = cs->tx_chunk_alone;
	info->acks_piggy_tx = cs->acks_piggy_tx;
	info->acks_piggy_rx = cs->acks_piggy_rx;
	info->rx_bursts = cs->rx_bursts;
	info->rx_burst_pkts = cs->rx_burst_pkts;
	info->spurious = cs->spurious;
}
