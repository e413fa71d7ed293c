/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace.h - tracepoints of mrc: path state changes, EV replacement, rail
 * failover, retransmissions, retransmission timeouts, received packets
 * not taken (by mrc's reason), connection state changes and per-plane
 * congestion window changes.
 *
 * The three last take pointers and read what they report in
 * TP_fast_assign: a disabled tracepoint costs a patched-out branch and
 * no loads.  Documentation/mrc/operators.rst lists the fields.
 *
 * Usable from perf and bpftrace, e.g.
 *   perf record -e 'mrc:*' -a
 *   bpftrace -e 'tracepoint:mrc:mrc_ev_state { @[args->to] = count(); }'
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM mrc

#if !defined(_MRC_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _MRC_TRACE_H

#include <linux/tracepoint.h>

#include "sock.h"

TRACE_EVENT(mrc_ev_state,
	TP_PROTO(u32 conn, u32 path, u16 ev, u8 plane, u8 from, u8 to),
	TP_ARGS(conn, path, ev, plane, from, to),
	TP_STRUCT__entry(
		__field(u32, conn)
		__field(u32, path)
		__field(u16, ev)
		__field(u8, plane)
		__field(u8, from)
		__field(u8, to)
	),
	TP_fast_assign(
		__entry->conn = conn;
		__entry->path = path;
		__entry->ev = ev;
		__entry->plane = plane;
		__entry->from = from;
		__entry->to = to;
	),
	TP_printk("conn=%08x path=%u ev=%u plane=%u %s -> %s",
		  __entry->conn, __entry->path, __entry->ev, __entry->plane,
		  __print_symbolic(__entry->from, { 0, "good" }, { 1, "skip" },
				   { 2, "assumed-bad" }, { 3, "denied" }),
		  __print_symbolic(__entry->to, { 0, "good" }, { 1, "skip" },
				   { 2, "assumed-bad" }, { 3, "denied" }))
);

TRACE_EVENT(mrc_ev_replace,
	TP_PROTO(u32 conn, u32 path, u8 plane, u16 old_ev, u16 new_ev),
	TP_ARGS(conn, path, plane, old_ev, new_ev),
	TP_STRUCT__entry(
		__field(u32, conn)
		__field(u32, path)
		__field(u8, plane)
		__field(u16, old_ev)
		__field(u16, new_ev)
	),
	TP_fast_assign(
		__entry->conn = conn;
		__entry->path = path;
		__entry->plane = plane;
		__entry->old_ev = old_ev;
		__entry->new_ev = new_ev;
	),
	TP_printk("conn=%08x path=%u plane=%u ev %u -> %u", __entry->conn,
		  __entry->path, __entry->plane, __entry->old_ev,
		  __entry->new_ev)
);

TRACE_EVENT(mrc_failover,
	TP_PROTO(u32 conn, u8 plane, u32 pkts),
	TP_ARGS(conn, plane, pkts),
	TP_STRUCT__entry(
		__field(u32, conn)
		__field(u8, plane)
		__field(u32, pkts)
	),
	TP_fast_assign(
		__entry->conn = conn;
		__entry->plane = plane;
		__entry->pkts = pkts;
	),
	TP_printk("conn=%08x plane=%u in-flight packets moved=%u",
		  __entry->conn, __entry->plane, __entry->pkts)
);

TRACE_EVENT(mrc_retransmit,
	TP_PROTO(u32 conn, u32 psn, u8 tx_count, u16 ev, u8 plane),
	TP_ARGS(conn, psn, tx_count, ev, plane),
	TP_STRUCT__entry(
		__field(u32, conn)
		__field(u32, psn)
		__field(u8, tx_count)
		__field(u16, ev)
		__field(u8, plane)
	),
	TP_fast_assign(
		__entry->conn = conn;
		__entry->psn = psn;
		__entry->tx_count = tx_count;
		__entry->ev = ev;
		__entry->plane = plane;
	),
	TP_printk("conn=%08x psn=%u tx=%u ev=%u plane=%u", __entry->conn,
		  __entry->psn, __entry->tx_count, __entry->ev, __entry->plane)
);

TRACE_EVENT(mrc_rto,
	TP_PROTO(u32 conn, u32 una, u32 in_flight, u32 backoff, u32 rto_us),
	TP_ARGS(conn, una, in_flight, backoff, rto_us),
	TP_STRUCT__entry(
		__field(u32, conn)
		__field(u32, una)
		__field(u32, in_flight)
		__field(u32, backoff)
		__field(u32, rto_us)
	),
	TP_fast_assign(
		__entry->conn = conn;
		__entry->una = una;
		__entry->in_flight = in_flight;
		__entry->backoff = backoff;
		__entry->rto_us = rto_us;
	),
	TP_printk("conn=%08x una=%u in_flight=%u backoff=%u rto_us=%u",
		  __entry->conn, __entry->una, __entry->in_flight,
		  __entry->backoff, __entry->rto_us)
);

/* Names of the enums the events print, as the netlink spec names them. */
TRACE_DEFINE_ENUM(MRC_DROP_NONE);
TRACE_DEFINE_ENUM(MRC_DROP_SHORT);
TRACE_DEFINE_ENUM(MRC_DROP_VERSION);
TRACE_DEFINE_ENUM(MRC_DROP_TYPE);
TRACE_DEFINE_ENUM(MRC_DROP_RESERVED);
TRACE_DEFINE_ENUM(MRC_DROP_LENGTH);
TRACE_DEFINE_ENUM(MRC_DROP_BAD_FIELD);
TRACE_DEFINE_ENUM(MRC_DROP_CSUM);
TRACE_DEFINE_ENUM(MRC_DROP_NO_RAIL);
TRACE_DEFINE_ENUM(MRC_DROP_NO_CONN);
TRACE_DEFINE_ENUM(MRC_DROP_NO_LISTENER);
TRACE_DEFINE_ENUM(MRC_DROP_BAD_SOURCE);
TRACE_DEFINE_ENUM(MRC_DROP_STATE);
TRACE_DEFINE_ENUM(MRC_DROP_OUT_OF_WINDOW);
TRACE_DEFINE_ENUM(MRC_DROP_DUPLICATE);
TRACE_DEFINE_ENUM(MRC_DROP_NO_BUFFER);
TRACE_DEFINE_ENUM(MRC_DROP_BAD_DATA);
TRACE_DEFINE_ENUM(MRC_DROP_MSG_TOO_BIG);
TRACE_DEFINE_ENUM(MRC_DROP_BACKLOG);
TRACE_DEFINE_ENUM(MRC_DROP_BAD_ACK);
TRACE_DEFINE_ENUM(MRC_DROP_TRIMMED);
TRACE_DEFINE_ENUM(MRC_ST_CLOSED);
TRACE_DEFINE_ENUM(MRC_ST_LISTEN);
TRACE_DEFINE_ENUM(MRC_ST_REQ_SENT);
TRACE_DEFINE_ENUM(MRC_ST_REQ_RCVD);
TRACE_DEFINE_ENUM(MRC_ST_ESTABLISHED);
TRACE_DEFINE_ENUM(MRC_ST_TIME_WAIT);
TRACE_DEFINE_ENUM(MRC_PKT_REQ);
TRACE_DEFINE_ENUM(MRC_PKT_ACCEPT);
TRACE_DEFINE_ENUM(MRC_PKT_RESET);
TRACE_DEFINE_ENUM(MRC_PKT_CLOSE);
TRACE_DEFINE_ENUM(MRC_PKT_DATA);
TRACE_DEFINE_ENUM(MRC_PKT_ACK);
TRACE_DEFINE_ENUM(MRC_PKT_NACK);
TRACE_DEFINE_ENUM(MRC_PKT_PROBE);
TRACE_DEFINE_ENUM(MRC_PKT_PROBE_ACK);

#define mrc_show_drop_reason(r)						\
	__print_symbolic(r,						\
			 { MRC_DROP_NONE, "none" },			\
			 { MRC_DROP_SHORT, "short" },			\
			 { MRC_DROP_VERSION, "version" },		\
			 { MRC_DROP_TYPE, "type" },			\
			 { MRC_DROP_RESERVED, "reserved" },		\
			 { MRC_DROP_LENGTH, "length" },			\
			 { MRC_DROP_BAD_FIELD, "bad-field" },		\
			 { MRC_DROP_CSUM, "bad-checksum" },		\
			 { MRC_DROP_NO_RAIL, "no-rail" },		\
			 { MRC_DROP_NO_CONN, "no-conn" },		\
			 { MRC_DROP_NO_LISTENER, "no-listener" },	\
			 { MRC_DROP_BAD_SOURCE, "bad-source" },		\
			 { MRC_DROP_STATE, "state" },			\
			 { MRC_DROP_OUT_OF_WINDOW, "out-of-window" },	\
			 { MRC_DROP_DUPLICATE, "duplicate" },		\
			 { MRC_DROP_NO_BUFFER, "no-buffer" },		\
			 { MRC_DROP_BAD_DATA, "bad-data" },		\
			 { MRC_DROP_MSG_TOO_BIG, "msg-too-big" },	\
			 { MRC_DROP_BACKLOG, "backlog" },		\
			 { MRC_DROP_BAD_ACK, "bad-ack" },		\
			 { MRC_DROP_TRIMMED, "trimmed" })

#define mrc_show_conn_state(s)						\
	__print_symbolic(s,						\
			 { MRC_ST_CLOSED, "closed" },			\
			 { MRC_ST_LISTEN, "listen" },			\
			 { MRC_ST_REQ_SENT, "req-sent" },		\
			 { MRC_ST_REQ_RCVD, "req-rcvd" },		\
			 { MRC_ST_ESTABLISHED, "established" },		\
			 { MRC_ST_TIME_WAIT, "time-wait" })

#define mrc_show_pkt_type(t)						\
	__print_symbolic(t,						\
			 { 0, "none" },					\
			 { MRC_PKT_REQ, "req" },			\
			 { MRC_PKT_ACCEPT, "accept" },			\
			 { MRC_PKT_RESET, "reset" },			\
			 { MRC_PKT_CLOSE, "close" },			\
			 { MRC_PKT_DATA, "data" },			\
			 { MRC_PKT_ACK, "ack" },			\
			 { MRC_PKT_NACK, "nack" },			\
			 { MRC_PKT_PROBE, "probe" },			\
			 { MRC_PKT_PROBE_ACK, "probe-ack" })

/* Why a plane's window changed (mrc_cwnd), from the core's counters. */
#define MRC_TRACE_CWND_ECN	0	/* an ECN cut (cc.ecn_cuts grew) */
#define MRC_TRACE_CWND_DELAY	1	/* a delay cut (cc.delay_cuts grew) */
#define MRC_TRACE_CWND_GROWTH	2	/* slow start or additive increase */
#define MRC_TRACE_CWND_BOUND	3	/* lowered to the bounds (settings changed) */

#define mrc_show_cwnd_cause(c)						\
	__print_symbolic(c,						\
			 { MRC_TRACE_CWND_ECN, "ecn" },			\
			 { MRC_TRACE_CWND_DELAY, "delay" },		\
			 { MRC_TRACE_CWND_GROWTH, "growth" },		\
			 { MRC_TRACE_CWND_BOUND, "bound" })

/*
 * A received packet (or a burst's segment) mrc did not take, once per
 * count in the device's drop_<reason> counters (mrc_stats_rx_drop()):
 * @mdev, @rail where known, mrc's @reason, and @pkt's headers if it parsed.
 */
TRACE_EVENT(mrc_drop,
	TP_PROTO(const struct mrc_dev *mdev, const struct mrc_rail *rail,
		 u8 reason, const struct mrc_pkt *pkt),
	TP_ARGS(mdev, rail, reason, pkt),
	TP_STRUCT__entry(
		__field(int, ifindex)
		__field(int, rail)
		__field(u8, reason)
		__field(u8, type)
		__field(u32, conn)
		__field(u32, psn)
	),
	TP_fast_assign(
		__entry->ifindex = mdev ? mdev->dev->ifindex : 0;
		__entry->rail = rail ? rail->dev->ifindex : 0;
		__entry->reason = reason;
		__entry->type = pkt ? pkt->type : 0;
		__entry->conn = pkt ? pkt->dst_conn : 0;
		__entry->psn = pkt && (pkt->type == MRC_PKT_DATA ||
				       pkt->type == MRC_PKT_CLOSE) ?
			       be32_to_cpu(pkt->u.data.psn) : 0;
	),
	TP_printk("ifindex=%d rail=%d reason=%s type=%s conn=%08x psn=%u",
		  __entry->ifindex, __entry->rail,
		  mrc_show_drop_reason(__entry->reason),
		  mrc_show_pkt_type(__entry->type),
		  __entry->conn, __entry->psn)
);

/*
 * A connection (not a listener) moves from its state to @state; @err is
 * the error its socket reports (an abort's errno; 0: none).
 */
TRACE_EVENT(mrc_conn_state,
	TP_PROTO(const struct mrc_sock *ms, u8 state, int err),
	TP_ARGS(ms, state, err),
	TP_STRUCT__entry(
		__field(u32, conn)
		__field(u8, from)
		__field(u8, to)
		__field(int, err)
	),
	TP_fast_assign(
		__entry->conn = ms->id;
		__entry->from = ms->state;
		__entry->to = state;
		__entry->err = err;
	),
	TP_printk("conn=%08x %s -> %s err=%d", __entry->conn,
		  mrc_show_conn_state(__entry->from),
		  mrc_show_conn_state(__entry->to),
		  __entry->err)
);

/*
 * A plane's congestion window changed on an ACK: from @old (the core's
 * state before it, mrc_cc_snap()) to @cc, and why.
 */
TRACE_EVENT(mrc_cwnd,
	TP_PROTO(const struct mrc_sock *ms, u8 plane,
		 const struct mrc_cc_snap *old, const struct mrc_cc *cc),
	TP_ARGS(ms, plane, old, cc),
	TP_STRUCT__entry(
		__field(u32, conn)
		__field(u8, plane)
		__field(u8, cause)
		__field(u32, old_cwnd)
		__field(u32, cwnd)
		__field(u32, alpha)
		__field(u32, srtt_us)
	),
	TP_fast_assign(
		__entry->conn = ms->id;
		__entry->plane = plane;
		__entry->cause = cc->ecn_cuts != old->ecn_cuts ?
				 MRC_TRACE_CWND_ECN :
				 cc->delay_cuts != old->delay_cuts ?
				 MRC_TRACE_CWND_DELAY :
				 cc->cwnd > old->cwnd ? MRC_TRACE_CWND_GROWTH :
				 MRC_TRACE_CWND_BOUND;
		__entry->old_cwnd = old->cwnd;
		__entry->cwnd = cc->cwnd;
		__entry->alpha = cc->alpha;
		__entry->srtt_us = cc->srtt_us;
	),
	TP_printk("conn=%08x plane=%u cwnd %u -> %u cause=%s alpha=%u srtt_us=%u",
		  __entry->conn, __entry->plane, __entry->old_cwnd,
		  __entry->cwnd,
		  mrc_show_cwnd_cause(__entry->cause),
		  __entry->alpha, __entry->srtt_us)
);

#endif /* _MRC_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
