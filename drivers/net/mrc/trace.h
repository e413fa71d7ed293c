/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace.h - tracepoints of mrc: path state changes, EV replacement, rail
 * failover, retransmissions and retransmission timeouts.
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

#endif /* _MRC_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
