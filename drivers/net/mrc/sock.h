/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sock.h - an AF_MRC socket and the connection it carries.
 *
 * A SOCK_SEQPACKET socket is one connection (or a listener).  Its state
 * is split by who may touch it:
 *
 *  - lock_sock() (the socket lock): serialises system calls; protects the
 *    binding, the connect/accept life cycle of the socket itself, and the
 *    message a reader is copying out (see mrc_recvmsg()).
 *  - ms->lock (a BH spinlock, "the connection lock"): everything the
 *    packet paths touch: state, scoreboards, queues, timers' decisions,
 *    counters, receive memory accounting (sk_forward_alloc).  Taken with
 *    spin_lock_bh() from process context, packet receive and timers
 *    alike; mrc_conn_lock()/mrc_conn_unlock() where packets are sent
 *    after the lock is dropped, spin_lock_bh() and mrc_conn_spin_unlock()
 *    where nothing is.  Both unlocks may fold what the reader freed and
 *    send a window update (mrc_input_fold_pending()): their callers hold
 *    no other mrc spinlock, have interrupts on and hold a reference.
 *    Nothing sleeps, allocates with GFP_KERNEL or copies user memory under
 *    it; packets to send are collected on a local list and sent after it
 *    is released (mrc_conn_unlock() does).  Functions documented "conn lock" assert
 *    it with lockdep_assert_held().
 *  - ms->rx_ready_lock: the complete messages waiting for recvmsg()
 *    (@rx_ready).  The packet paths append under the conn lock; the
 *    reader takes them with this lock alone, so a reader never waits for
 *    a burst being received on another CPU.  What the reader frees is
 *    uncharged later under the conn lock (mrc_input_release()).
 *  - ms->rx_spare, one message descriptor kept for reuse: no lock, one
 *    slot moved whole with xchg() and cmpxchg().  Only the reader puts
 *    one (lock_sock), only the packet paths take it (conn lock), and
 *    only mrc_input_purge(all) frees it, when no reader is left
 *    (SOCK_DEAD, or the socket's destruction).
 *  - the per-namespace connection table (ids) and port table: their own
 *    spinlocks; lookups from softirq are RCU with a reference taken
 *    (sockets are freed after a grace period, SOCK_RCU_FREE).
 *
 * Lock order (a lock may be taken while holding only locks above it):
 *
 *   RTNL                      configuration (mrc.h)
 *     lock_sock(listener)     accept()
 *       lock_sock(child)      (SINGLE_DEPTH_NESTING)
 *         ms->lock            the connection
 *           mdev->conns_lock, mn->conns_lock, lis->accept_lock,
 *           mn->ports_lock,
 *           ms->rx_ready_lock leaves: nothing is taken under them
 *
 * A child's ms->lock may be held when its listener's accept_lock is taken
 * (mrc_conn_established()), never the other way round: the listener walks
 * its lists under accept_lock and takes each child's lock only after
 * dropping it (mrc_listener_close()).  The packet paths run inside an RCU
 * read-side section (rails, devices, the UDP port).  Fields read without
 * their lock use READ_ONCE() against a WRITE_ONCE() writer.
 *
 * Reading order of the data path: af_mrc.c (sendmsg) -> output.c
 * (segments, PSNs, paths) -> path.c -> xmit.c (route per rail, UDP) ->
 * udp.c (receive) -> input.c (the dispatcher) -> recv.c (DATA placement,
 * ACKs sent) -> af_mrc.c (recvmsg); the peer's ACKs: input.c -> ack.c ->
 * output.c.  conn.c holds the connection table, timers and teardown;
 * handshake.c the REQ/ACCEPT exchange and RESETs; stats.c every counter
 * along the way.  Documentation/mrc/code.rst follows a packet in detail.
 */
#ifndef _MRC_SOCK_H
#define _MRC_SOCK_H

#include <linux/hrtimer.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <linux/skbuff.h>
#include <linux/timer.h>
#include <linux/rbtree.h>
#include <net/dst_cache.h>
#include <net/sock.h>

#include "mrc.h"
#include "core/cc.h"
#include "core/ev.h"
#include "core/rtt.h"
#include "core/spray.h"
#include "core/rxwin.h"
#include "core/txwin.h"
#include "core/wire.h"

/* Connection states.  Closing is tracked by flags, see below. */
enum mrc_state {
	MRC_ST_CLOSED = 0,	/* never connected, or done */
	MRC_ST_LISTEN,		/* a listener */
	MRC_ST_REQ_SENT,	/* connect(): REQ sent, waiting for ACCEPT */
	MRC_ST_REQ_RCVD,	/* half-open: ACCEPT sent, waiting for the client */
	MRC_ST_ESTABLISHED,	/* data flows (even while closing) */
	MRC_ST_TIME_WAIT,	/* both sides closed; re-acknowledges stragglers */
};

/**
 * struct mrc_challenge - proving one of the peer's announced rails
 *	(challenge.c)
 * @value: the random value our challenges to it carry
 * @next_us: the earliest next challenge while the rail speaks
 *	(mrc_now_us() time)
 * @last_us: when the last challenge went
 * @sent: challenges sent to it (picks the EV, the backoff)
 * @heard: a packet of the connection came from the rail since then
 */
struct mrc_challenge {
	u64 value;
	u32 next_us;
	u32 last_us;
	u32 sent;
	bool heard;
};

/**
 * struct mrc_cc_snap - what the mrc_cwnd tracepoint compares a plane's
 *	window with (path.c takes it only while the tracepoint is on)
 * @cwnd: &mrc_cc.cwnd before the ACK
 * @ecn_cuts: &mrc_cc.ecn_cuts before it
 * @delay_cuts: &mrc_cc.delay_cuts before it
 */
struct mrc_cc_snap {
	u32 cwnd;
	u64 ecn_cuts;
	u64 delay_cuts;
};

/**
 * struct mrc_plane - a connection's state on one plane
 * @cc: its congestion window and bytes in flight (core/cc.h)
 * @chal: the challenge of the peer's rail there (challenge.c)
 * @dst: route cache of its packets; initialised when @dst_ok
 * @ack_bytes: scratch of mrc_path_acked(): bytes one ACK acknowledged
 *	there
 * @dst_ok: @dst is initialised
 *
 * ms->plane has fls(ms->planes) of them, allocated with the paths
 * (mrc_path_setup()): index it only with a plane of ms->planes.
 */
struct mrc_plane {
	struct mrc_cc cc;
	struct mrc_challenge chal;
	struct dst_cache dst;
	u32 ack_bytes;
	bool dst_ok;
};

/* Paths (EVs) per connection: evs-per-plane (at most 256) x planes. */
#define MRC_MAX_PATHS		4096
/*
 * Scoreboard ring: starts small, in the path block (an idle or
 * request/response connection keeps those 512 bytes of records and
 * segments), grows in sendmsg up to MRC_WIN_PKTS.
 */
#define MRC_TXWIN_MIN		16

/**
 * struct mrc_endpoint_rail - one rail of an endpoint, as the handshake
 *	announced it
 * @family: AF_INET or AF_INET6 (0: the endpoint has no rail on this plane)
 * @addr: its address (IPv4 v4-mapped)
 */
struct mrc_endpoint_rail {
	u8 family;
	struct in6_addr addr;
};

/**
 * struct mrc_sock - an AF_MRC socket (see the top of this file for locks)
 * @sk: the socket; must be first
 * @bind_node: entry in the namespace's port table (ports_lock)
 * @bound: @local is valid (lock_sock + ports_lock)
 * @local: the bound address
 *
 * @lock: the connection lock
 * @state: enum mrc_state; written under the conn lock (mrc_set_state(),
 *	a release: udp.c reads the peer's rails after reading the state
 *	with an acquire), a listener's under lock_sock with WRITE_ONCE;
 *	read with READ_ONCE without a lock
 * @id: our connection id, unique in the namespace (0: none); constant
 *	while hashed
 * @peer_id: the peer's connection id; written under the conn lock before
 *	the connection leaves REQ_SENT/REQ_RCVD, READ_ONCE in udp.c
 * @id_node: entry in the namespace's connection table
 * @dev_node: entry in @mdev's connection list (mdev->conns_lock)
 * @mdev: the mrc device the connection runs on, with a reference
 *	(@dev_tracker) while set; conn lock
 * @dev_tracker: tracks the reference on @mdev->dev
 * @dev_put: the netdevice whose reference @dev_rcu drops
 * @dev_rcu: drops the device reference after a grace period
 * @peer: the peer's address as connect()ed to or as it came in
 * @lrail: our rails per plane, as announced in the handshake (@nrails
 *	entries, read through mrc_lrail()), followed by the peer's on the
 *	same planes (another @nrails, mrc_prail(); one it announces beyond
 *	them is of no use: a path needs a rail at both ends).  Allocated by
 *	the handshake (mrc_fill_lrails()) before the connection is hashed or
 *	on a device, freed with the socket
 * @nrails: our highest plane with a rail when the handshake began, plus
 *	one (0 before)
 * @udp_port: UDP destination port of the peer (our device's udp-port)
 * @seg_size: payload bytes of a full DATA segment (both ends can carry,
 *	at least the min_seg_size parameter); fixed once established
 * @peer_max_msg: largest message the peer accepts
 * @max_msg: largest message we accept: the device's max-msg-size when we
 *	announced it (REQ/ACCEPT); a later change applies to new connections
 * @evs: the connection's paths, one entropy value each (array of @npaths,
 *	allocated when the connection is established, in one block with
 *	@plane, @txpaths, the first ring of @txrec and @txseg, and
 *	@path_scratch: mrc_path_setup()); conn lock
 * @npaths: number of @evs
 * @ev_index: @evs bucketed by plane and state (core/evindex.h), for the
 *	spray policy's O(planes) pick; its own allocation, made with the
 *	first data packet (NULL before: idle and receive-only connections
 *	do without, mrc_path_index()) and freed with @evs;
 *	mrc_path_changed() refiles an EV after every state change; conn
 *	lock
 * @planes: bitmap of the planes the paths are on
 * @plane: per plane: congestion control, challenge, route cache
 *	(struct mrc_plane), fls(@planes) entries: index only with a plane
 *	of @planes.  Published with a release for readers without the conn
 *	lock (mrc_conns_plane_sums())
 * @ccp: its parameters (segment size etc.)
 * @evp: the path state machine's parameters
 * @spray: the path choice policy
 * @spray_rng: its random state
 * @spray_cursor: its round-robin cursor
 * @probe_seq: number of the last path probe
 * @prail_ok: bitmap of the planes whose peer rail proved it is the
 *	peer's (challenge.c); nothing but challenges goes to the others
 * @ev_base: first EV of the connection's EV sequence (random)
 * @ev_step: its step (random, odd: the sequence visits every EV once)
 * @ev_count: EVs handed out so far (paths, then replacements)
 * @path_scratch: @npaths bytes of scratch (rail failover)
 * @ev_timer: path states: hold expiry, probes, replacement, notifications
 * @path_dirty: path states changed since the last notification
 * @path_ntf_at: jiffies before which no new notification goes out
 * @ack_ce_seen: the highest CE count (our packets the peer received
 *	marked) applied to a plane's window: an ACK's marks are the
 *	difference (mrc_path_acked())
 *
 * @txw: sender scoreboard
 * @txrec: its ring: a client's from connect() until established (kept
 *	if the handshake fails), then the path block's (mrc_path_ring())
 *	until the window outgrows it (mrc_output_ring_init(), and
 *	mrc_output_grow() under lock_sock too); conn lock to change.
 *	Non-NULL also marks a socket that connected or tried to (af_mrc.c
 *	reads it under lock_sock)
 * @txseg: the segment of each PSN in flight, same ring index as @txrec
 * @send_queue: chunks (output.c) whose segments wait for their first
 *	transmission: the first chunk's from MRC_SKB_CB()->next on
 * @snd_msg_id: id of the next message sendmsg queues
 * @send_segs: segments on @send_queue (written under the conn lock,
 *	read without it by sendmsg)
 * @rwnd_psn: the peer's credit: we may send PSNs below it
 * @rtt: RTT estimator
 * @backoff: consecutive retransmission timeouts
 * @rto_timer: retransmission timeout
 * @rto_expires: jiffies @rto_timer was last set for
 * @rto_set: @rto_timer is set and its handler has not run for it yet
 *	(mrc_conn_rto_armed())
 * @last_progress: jiffies of the last forward progress (an ACK that
 *	acknowledged something, the handshake, or data queued on an idle
 *	connection: the wait for the peer starts then); the dead-peer clock
 * @txpaths: the scoreboard's per-path state, parallel to @evs
 * @close_queued: a CLOSE is on @send_queue or sent (no more sendmsg)
 * @close_acked: everything we sent, our CLOSE last, is acknowledged
 *	cumulatively
 * @tx_chunky: first transmissions leave in bursts (set by a push that
 *	sent a burst, cleared by one that sent none and sent segments on
 *	planes too slow for bursts):
 *	sendmsg queues messages in chunks of tx_chunk_segs segments
 *	(written under the conn lock, read without it by sendmsg)
 * @close_psn: PSN of our CLOSE
 * @close_acked_at: jiffies when @close_acked became true (an orphan waits
 *	for the peer's CLOSE at most orphan_fin_timeout_ms from then)
 * @orphan: counted in mrc_orphans (closed by its application, still
 *	finishing); conn lock
 *
 * @rxw: receiver window
 * @rx_msgs: messages being received (incomplete, or complete ahead of
 *	@rcv_msg_id), by id (struct mrc_rx_msg); conn lock
 * @rx_last: the message the last segment went to (a lookup cache)
 * @rx_ready: complete messages, in order, for recvmsg (struct
 *	mrc_rx_msg, @ready), still charged: appended under the conn lock
 *	and @rx_ready_lock, taken by the reader (lock_sock) under
 *	@rx_ready_lock alone.  Only the reader or close() frees one, so a
 *	reader may copy the first with lock_sock alone (MSG_PEEK)
 * @rx_ready_lock: protects @rx_ready (a leaf lock)
 * @rx_freed: bytes of messages the reader freed (already off
 *	sk_rmem_alloc) whose uncharge (sk_forward_alloc, the device's
 *	commitment) and window update wait for the conn lock (atomic)
 * @rx_spare: a message descriptor the reader freed, kept for the next
 *	message (rx_msg_spare): put by the reader (lock_sock, cmpxchg()),
 *	taken by packet receive (conn lock, xchg()), freed by
 *	mrc_input_purge(@all) once no reader is left; not charged (one per
 *	socket, its kmalloc bucket: 64 bytes on x86-64)
 * @rx_eof: everything the peer sent arrived, its CLOSE last
 *	(mrc_peer_done()); conn lock to write, READ_ONCE() by a waiting
 *	reader
 * @rcv_msg_id: id of the next message to complete in order (on
 *	@rx_ready)
 * @peer_closed: the peer's CLOSE arrived (maybe ahead of its data)
 * @peer_msgs: with @peer_closed: how many messages the peer sent in all
 * @peer_close_psn: with @peer_closed: the PSN of its CLOSE; everything the
 *	peer sent arrived once @rxw.cum is past it (mrc_peer_done())
 * @ack_pending: packets received since our last ACK
 * @pingpong: the application answers what it reads at once: a message's
 *	end is acknowledged by the reply's DATA (MRC_F_DATA_ACK) or the
 *	delayed ACK (ack_pingpong_us), not by the usual rule (recv.c:
 *	at once, or with lazy_end_ack as any segment); set when we send new
 *	data alone, with room for an ACK part, within ack_pingpong_us of the
 *	last arrival, cleared
 *	when the delayed ACK fires (as TCP's pingpong mode); only with
 *	MRC_F_REQ_ACK_DATA in @caps
 * @ack_trig: the packet that will trigger the next ACK
 * @ack_trig_at: when it arrived (mrc_now_us() time, of its batch)
 * @ack_trig_host: how long it had waited in this host by then, us
 *	(mrc_host_delay_us(); 0: not measured)
 * @ack_trig_plane: the plane of the rail it arrived on
 * @rwnd_adv: the highest credit (rwnd_psn) we advertised: the peer may
 *	send PSNs below it, and nothing at or beyond it is accepted
 * @rwnd_init: the initial credit of our REQ/ACCEPT, in packets
 * @rx_commit: receive memory committed on the device: held, plus the price
 *	of every PSN of credit that may still arrive, but at most
 *	MRC_INITIAL_CREDIT PSNs of it while @rx_idle (mrc_input_commit());
 *	conn lock
 * @rx_commit_full: @rx_commit without the idle discount (mdev->rmem_full);
 *	conn lock
 * @rx_idle: nothing held and nothing missing when @rx_commit was last
 *	computed: the credit beyond MRC_INITIAL_CREDIT is not reserved;
 *	conn lock
 * @rx_truesize: memory charged per PSN of credit: the largest truesize a
 *	received segment may keep (a bigger one is copied into a compact
 *	skb), fixed from our segment size
 * @ce_count: CE-marked packets received
 * @ack_timer: delayed ACK
 * @ack_armed: @ack_timer is queued or running and holds a socket
 *	reference: it will see to a pending ACK (conn lock; conn.c)
 * @ack_due: when the pending ACK must leave at the latest (mrc_now_us()
 *	time; conn lock)
 *
 * @accept_lock: listener: protects @accept_queue, @half_open,
 *	@half_open_list, @lis_closed and the children's @accept_node (a leaf
 *	lock)
 * @lis_closed: listener: closed; no child may join its lists any more
 * @accept_queue: listener: established children not yet accepted
 * @half_open: listener: children still in REQ_RCVD
 * @half_open_list: listener: those children
 * @listener: child: its listener, referenced until accepted (set once)
 * @client: the connection was opened by connect() (challenge.c); set
 *	before the connection is hashed, constant
 * @was_established: the connection reached ESTABLISHED (getpeername()
 *	answers from then on, as TCP's); set under the conn lock, read
 *	without it
 * @req_plane: client: the plane the REQ goes out on
 * @caps_offer: client: the capabilities (MRC_F_REQ_*) its first REQ
 *	offers (its retransmissions offer none); constant
 * @caps: the capabilities in force: a client's from the ACCEPT, a child's
 *	what its REQ offered and we support (its ACCEPT's flags); set before
 *	the connection is established, constant after
 * @isn: our first PSN
 * @peer_isn: the peer's first PSN
 * @accept_node: child: entry in the listener's @accept_queue
 * @stats: counters
 */
struct mrc_sock {
	struct sock sk;
	struct hlist_node bind_node;
	bool bound;
	struct sockaddr_mrc local;

	spinlock_t lock; /* see above */
	u8 state;
	u32 id;
	u32 peer_id;
	struct hlist_node id_node;
	struct list_head dev_node;
	struct mrc_dev *mdev;
	netdevice_tracker dev_tracker;
	struct net_device *dev_put;
	struct rcu_head dev_rcu;
	struct sockaddr_mrc peer;
	struct mrc_endpoint_rail *lrail;
	u8 nrails;
	u16 udp_port;
	u32 seg_size;
	u32 peer_max_msg;
	u32 max_msg;
	struct mrc_ev *evs;
	u32 npaths;
	u32 planes;
	struct mrc_plane *plane;
	struct mrc_ev_index *ev_index;
	struct mrc_cc_params ccp;
	struct mrc_ev_params evp;
	const struct mrc_spray_ops *spray;
	u32 spray_rng;
	u32 spray_cursor;
	u32 probe_seq;
	u32 prail_ok;
	u16 ev_base;
	u16 ev_step;
	u32 ev_count;
	u8 *path_scratch;
	struct timer_list ev_timer;
	bool path_dirty;
	unsigned long path_ntf_at;
	u32 ack_ce_seen;

	struct mrc_txwin txw;
	struct mrc_txrec *txrec;
	struct mrc_txseg *txseg;
	struct sk_buff_head send_queue;
	u32 snd_msg_id;
	u32 send_segs;
	u32 rwnd_psn;
	struct mrc_rtt rtt;
	u32 backoff;
	struct timer_list rto_timer;
	unsigned long rto_expires;
	bool rto_set;
	unsigned long last_progress;
	struct mrc_txpath *txpaths;
	bool close_queued;
	bool close_acked;
	bool tx_chunky;
	u32 close_psn;
	unsigned long close_acked_at;
	bool orphan;

	struct mrc_rxwin rxw;
	struct rb_root rx_msgs;
	struct mrc_rx_msg *rx_last;
	struct list_head rx_ready;
	spinlock_t rx_ready_lock; /* see above */
	atomic_t rx_freed;
	struct mrc_rx_msg *rx_spare;
	bool rx_eof;
	u32 rcv_msg_id;
	bool peer_closed;
	u32 peer_msgs;
	u32 peer_close_psn;
	u32 ack_pending;
	bool pingpong;
	struct {
		u32 psn;
		u16 ev;
		u8 tx;
		bool ce;
	} ack_trig;
	u32 ack_trig_at;
	u32 ack_trig_host;
	u8 ack_trig_plane;
	u32 rwnd_adv;
	u32 rwnd_init;
	u32 rx_commit;
	u32 rx_commit_full;
	bool rx_idle;
	u32 rx_truesize;
	u32 ce_count;
	struct hrtimer ack_timer;
	bool ack_armed;
	u32 ack_due;

	spinlock_t accept_lock; /* see above */
	bool lis_closed;
	struct list_head accept_queue;
	u32 half_open;
	struct list_head half_open_list;
	struct mrc_sock *listener;
	bool client;
	bool was_established;
	u8 req_plane;
	u8 caps_offer;
	u8 caps;
	u32 isn;
	u32 peer_isn;
	struct list_head accept_node;
	struct mrc_conn_stats stats;
};

static inline struct mrc_sock *mrc_sk(const struct sock *sk)
{
	return container_of(sk, struct mrc_sock, sk);
}

/**
 * struct mrc_rx_msg - a message being received (conn lock), then complete
 *	on @rx_ready (rx_ready_lock; the reader's once taken)
 * @node: entry in the connection's @rx_msgs, ordered by @id, until complete
 *	and next in order
 * @ready: then entry in the connection's @rx_ready
 * @id: its message id
 * @len: its length
 * @got: payload bytes placed so far; complete when @got == @len
 * @charged: receive memory charged for it: the sum of its skbs'
 *	truesize (what coalesced segments added included) and this struct
 * @segs: its runs by offset (MRC_SKB_CB(skb)->offset and ->len,
 *	skb->rbnode): an skb holds one segment or consecutive ones merged
 *	(rx_coalesce); runs lie on the grid of the segment size and never
 *	overlap
 * @last: the run with the highest offset (appending is O(1), and only it
 *	is merged into)
 */
struct mrc_rx_msg {
	union {
		struct rb_node node;
		struct list_head ready;
	};
	u32 id;
	u32 len;
	u32 got;
	u32 charged;
	struct rb_root segs;
	struct sk_buff *last;
};

/* Most segments of one message in one skb of the send queue (output.c). */
#define MRC_TX_CHUNK_MAX	16

/**
 * struct mrc_skb_cb - what mrc keeps in skb->cb
 * @offset: payload offset in the message (tx: of the chunk's first segment)
 * @len: payload length (tx: of the chunk's first segment; the others
 *	hold as much, but a message's last, which may hold less)
 * @msg_id: the message
 * @msg_len: the message's length
 * @head: bytes of mrc/UDP headers in front of the payload (rx)
 * @close: a CLOSE pseudo-segment (tx)
 * @slot: MRC_DATA_HDR_LEN bytes in front of each segment's first page
 *	fragment are the segment's own, for the headers of its first
 *	transmission in a burst (tx; output.c)
 * @segs: segments in the chunk, 1..MRC_TX_CHUNK_MAX (tx)
 * @next: the first of them not taken into the ring yet (tx, conn lock)
 * @frag: the page fragments of segment i are frags[@frag[i]] up to
 *	frags[@frag[i + 1]] (tx)
 */
struct mrc_skb_cb {
	u32 offset;
	u32 len;
	u32 msg_id;
	u32 msg_len;
	u16 head;
	bool close;
	bool slot;
	u8 segs;
	u8 next;
	u8 frag[MRC_TX_CHUNK_MAX + 1];
};

/**
 * struct mrc_txseg - the segment of a PSN in flight
 * @skb: the chunk that holds it (a reference of its own)
 * @idx: which of the chunk's segments (MRC_SKB_CB(@skb)->segs)
 * @lost: declared lost and not sent again yet: left the congestion window
 */
struct mrc_txseg {
	struct sk_buff *skb;
	u8 idx;
	bool lost;
};

#define MRC_SKB_CB(skb) ((struct mrc_skb_cb *)(skb)->cb)

/* Time base of the scoreboard: microseconds, wrapping u32. */
static inline u32 mrc_now_us(void)
{
	return (u32)div_u64(ktime_get_ns(), NSEC_PER_USEC);
}

/* conn.c */
int mrc_conn_hash(struct mrc_sock *ms);
void mrc_conn_unhash(struct mrc_sock *ms);
struct mrc_sock *mrc_conn_lookup(struct net *net, u32 id);
void mrc_conn_init(struct mrc_sock *ms);
void mrc_conn_arm_ack(struct mrc_sock *ms, bool answer);
void mrc_conn_stop_ack(struct mrc_sock *ms, bool sent);
void mrc_conn_destroy(struct mrc_sock *ms);
bool mrc_conn_set_dev(struct mrc_sock *ms, struct mrc_dev *mdev);
void mrc_conn_abort(struct mrc_sock *ms, int err, bool send_reset,
		    struct sk_buff_head *xq);
void mrc_conn_established(struct mrc_sock *ms, struct sk_buff_head *xq);
void mrc_conn_arm_rto(struct mrc_sock *ms);
void mrc_conn_rto_idle(struct mrc_sock *ms);
void mrc_conn_rto_stop(struct mrc_sock *ms);

/**
 * mrc_conn_rto_armed() - is a retransmission timer set?
 * @ms: the connection (conn lock)
 *
 * Pending, or expired with its handler not yet past the lock: unlike
 * timer_pending(), an expiry waiting for the lock counts as set, so that
 * nobody re-arms it for one more RTO meanwhile (the handler would then
 * take the due expiry for a stale one).  Inline: asked on every ACK.
 *
 * Return: true if mrc_conn_rto() will run for the current setting.
 */
static inline bool mrc_conn_rto_armed(const struct mrc_sock *ms)
{
	lockdep_assert_held(&ms->lock);
	return ms->rto_set;
}

void mrc_conn_maybe_done(struct mrc_sock *ms);
void mrc_conn_own_acked(struct mrc_sock *ms);
unsigned long mrc_conn_orphan_deadline(const struct mrc_sock *ms);
void mrc_dev_abort_conns(struct mrc_dev *mdev);
bool mrc_conn_finished(const struct mrc_sock *ms);

/* handshake.c */
struct mrc_dev *mrc_connect_route(struct net *net, int ifindex,
				  const struct in6_addr *daddr, u8 *plane);
int mrc_connect_start(struct mrc_sock *ms, struct mrc_dev *mdev, u8 plane,
		      struct sk_buff_head *xq);
enum mrc_drop_reason mrc_handshake_rcv(struct mrc_dev *mdev,
				       struct mrc_rail *rail, u8 plane,
				       struct mrc_pkt *pkt,
				       const struct in6_addr *saddr,
				       const struct in6_addr *daddr);
enum mrc_drop_reason mrc_handshake_accept(struct mrc_sock *ms,
					  struct mrc_rail *rail, u8 plane,
					  struct mrc_pkt *pkt,
					  struct sk_buff_head *xq);
void mrc_handshake_reset(struct mrc_sock *ms, struct sk_buff_head *xq);
bool mrc_handshake_retransmit(struct mrc_sock *ms, struct sk_buff_head *xq);
int mrc_handshake_child_ready(struct mrc_sock *ms);
void mrc_handshake_free_rails(struct mrc_sock *ms);
void mrc_reset_reply(struct mrc_dev *mdev, struct mrc_rail *rail,
		     const struct mrc_pkt *pkt, const struct in6_addr *saddr,
		     u32 reason);
void mrc_send_reset(struct mrc_sock *ms, u32 reason, struct sk_buff_head *xq);

/* output.c */
int mrc_output_queue_msg(struct mrc_sock *ms, struct msghdr *msg, size_t len);
struct sk_buff *mrc_output_alloc_close(gfp_t gfp);
int mrc_output_queue_close(struct mrc_sock *ms, struct sk_buff *skb);
void mrc_output_push(struct mrc_sock *ms, struct sk_buff_head *xq);
void mrc_output_lost(void *ctx, u32 psn);
void mrc_output_lost_quiet(void *ctx, u32 psn);
void mrc_output_acked(void *ctx, u32 psn);
void mrc_output_sndbuf_expand(struct mrc_sock *ms);
void mrc_output_purge(struct mrc_sock *ms);
void mrc_output_grow(struct mrc_sock *ms, u32 need);
void mrc_output_ring_init(struct mrc_sock *ms);
void mrc_output_ring_free(struct mrc_sock *ms, struct mrc_txrec *rec,
			  struct mrc_txseg *segs);
void mrc_send_probe(struct mrc_sock *ms, struct sk_buff_head *xq);
bool mrc_output_probe(struct mrc_sock *ms, u8 type, u16 flags,
		      const struct mrc_wire_probe *body, u8 plane,
		      struct sk_buff_head *xq);

/* challenge.c */
void mrc_challenge_init(struct mrc_sock *ms);
s32 mrc_challenge_tick(struct mrc_sock *ms, u32 now, struct sk_buff_head *xq);
void mrc_challenge_heard(struct mrc_sock *ms, u8 plane);
enum mrc_drop_reason mrc_challenge_ack(struct mrc_sock *ms, u8 plane,
				       const struct mrc_wire_probe *p);
void mrc_challenge_answer(struct mrc_sock *ms, u8 plane,
			  const struct mrc_wire_probe *p,
			  struct sk_buff_head *xq);

/* path.c */
int mrc_path_setup(struct mrc_sock *ms, struct mrc_dev *mdev, gfp_t gfp);
struct mrc_txrec *mrc_path_ring(const struct mrc_sock *ms, struct mrc_txseg **segs);
struct mrc_txgroup *mrc_path_groups(const struct mrc_sock *ms);
void mrc_path_free(struct mrc_sock *ms);
void mrc_path_planes(struct mrc_sock *ms, struct mrc_spray_plane *planes);
int mrc_path_pick(struct mrc_sock *ms, struct mrc_spray_plane *planes,
		  int avoid_plane);
int mrc_path_pick_any(struct mrc_sock *ms);
void mrc_path_changed(struct mrc_sock *ms, u32 path, unsigned int old_state);
void mrc_path_lost(struct mrc_sock *ms, u32 path);
void mrc_path_acked(struct mrc_sock *ms, const struct mrc_ack_result *res,
		    u32 host_us, bool ce, u32 ce_count, bool nack);
void mrc_path_probe_ack(struct mrc_sock *ms, const struct mrc_wire_probe *p);
int mrc_path_deny(struct mrc_sock *ms, u16 ev, bool deny);
void mrc_path_init(struct mrc_sock *ms);
void mrc_path_start(struct mrc_sock *ms);
bool mrc_path_rail_up(const struct mrc_sock *ms, u8 plane);
void mrc_path_stop(struct mrc_sock *ms);
void mrc_conns_rail_down(struct mrc_dev *mdev, u8 plane);
void mrc_conns_plane_sums(struct mrc_dev *mdev, u32 plane, u64 *in_flight,
			  u64 *cwnd);

/* xmit.c */
void mrc_xmit_headroom_note(const struct net_device *lower);
unsigned int mrc_xmit_headroom(void);
struct sk_buff *mrc_xmit_alloc(struct mrc_sock *ms, unsigned int len);
void mrc_xmit_prepare(struct mrc_sock *ms, struct sk_buff *skb, u8 plane,
		      u16 ev);
void mrc_xmit_list(struct net *net, struct sk_buff_head *xq);
void mrc_xmit_raw_prepare(struct sk_buff *skb, struct mrc_sock *ms, u8 plane,
			  const struct in6_addr *saddr,
			  const struct in6_addr *daddr, u16 dport, u16 ev);
void mrc_xmit_reply(struct mrc_dev *mdev, struct sk_buff *skb, u8 plane,
		    const struct in6_addr *saddr, const struct in6_addr *daddr,
		    u16 ev);

/*
 * Room in front of mrc headers for IPv6 + UDP + any link layer: an upper
 * bound (receive memory pricing); the skbs mrc builds reserve
 * mrc_xmit_headroom(), what the rails need.
 */
#define MRC_XMIT_HEADROOM	(LL_MAX_HEADER + sizeof(struct ipv6hdr) + \
				 sizeof(struct udphdr))

/* input.c */
/**
 * struct mrc_rx_seg - a received packet, or one segment of a burst
 * @skb: a packet of its own (data at the mrc header; kept or freed by
 *	the receive path), or for a burst's segment the skb made for its
 *	bytes, if any
 * @burst: the burst (not ours: its bytes from @off are referenced, never
 *	freed), or NULL
 * @off: where the segment's payload starts in @burst's data
 * @now: mrc_now_us(), read once per datagram or burst
 * @host_us: its wait in this host by then (mrc_host_delay_us())
 * @pkt: its parsed headers (what the mrc_drop tracepoint reports)
 *
 * For DATA and CLOSE this is the segment the receiver places; for an
 * ACK, its arrival time and wait.
 */
struct mrc_rx_seg {
	struct sk_buff *skb;
	const struct sk_buff *burst;
	u32 off;
	u32 now;
	u32 host_us;
	const struct mrc_pkt *pkt;
};

/**
 * mrc_input_drop() - count a drop of the packet being processed
 * @ms: the connection
 * @rail: the rail it came in on
 * @seg: the packet
 * @dropped: set to @reason: the caller frees the packet's skb with it
 *	(mrc_kfree_skb())
 * @reason: why (not MRC_DROP_NONE)
 */
static inline void mrc_input_drop(struct mrc_sock *ms, struct mrc_rail *rail,
				  const struct mrc_rx_seg *seg,
				  enum mrc_drop_reason *dropped,
				  enum mrc_drop_reason reason)
{
	mrc_stats_rx_drop(ms->mdev, rail, reason, seg->pkt);
	*dropped = reason;
}

enum mrc_drop_reason mrc_input_burst(struct mrc_sock *ms,
				     struct mrc_rail *rail, u8 plane,
				     const struct sk_buff *burst, u32 off,
				     struct mrc_pkt *pkt, bool ce, u32 now,
				     u32 host_us, struct sk_buff_head *xq);
void mrc_input(struct mrc_sock *ms, struct mrc_rail *rail, u8 plane,
	       struct sk_buff *skb, struct mrc_pkt *pkt, bool ce,
	       struct sk_buff_head *xq);

/* recv.c */
bool mrc_input_seg(struct mrc_sock *ms, struct mrc_rail *rail, u8 plane,
		   struct mrc_rx_seg *seg, const struct mrc_pkt *pkt,
		   bool ce, enum mrc_drop_reason *dropped,
		   struct sk_buff_head *xq);
void mrc_input_send_ack(struct mrc_sock *ms, struct sk_buff_head *xq);
u16 mrc_input_piggyback(struct mrc_sock *ms, void *buf);
/* Module parameter of recv.c (Documentation/mrc.rst). */
extern unsigned int mrc_ack_pingpong_us;
void mrc_input_sock_init(struct mrc_sock *ms);
bool mrc_input_readable(const struct mrc_sock *ms);
struct mrc_rx_msg *mrc_input_take_msg(struct mrc_sock *ms, bool peek);
void mrc_input_release(struct mrc_sock *ms, struct mrc_rx_msg *m,
		       bool delivered);
void mrc_input_fold(struct mrc_sock *ms, struct sk_buff_head *xq);
void mrc_input_fold_pending(struct mrc_sock *ms);
void mrc_input_purge(struct mrc_sock *ms, bool all);
void mrc_input_init(struct mrc_sock *ms);
void mrc_input_window_update(struct mrc_sock *ms, struct sk_buff_head *xq);
u32 mrc_input_limit(const struct mrc_sock *ms);
u32 mrc_input_initial_credit(struct mrc_sock *ms, const struct mrc_dev *mdev);
u32 mrc_input_truesize(u32 seg);
void mrc_input_leave_dev(struct mrc_sock *ms);
void mrc_input_commit(struct mrc_sock *ms);

/* ack.c */
void mrc_ack_rcv(struct mrc_sock *ms, struct mrc_rail *rail, u8 type,
		 const struct mrc_wire_ack *w, bool ce,
		 const struct mrc_rx_seg *seg, enum mrc_drop_reason *dropped,
		 struct sk_buff_head *xq);

/* netlink.c */
void mrc_nl_notify_paths(struct mrc_sock *ms);

/* udp.c */
struct mrc_udp_port *mrc_udp_port_get(struct net *net, u16 port,
				      struct netlink_ext_ack *extack);
void mrc_udp_port_put(struct net *net, struct mrc_udp_port *up);
bool mrc_udp_unicast_source(struct net *net, const struct net_device *dev,
			    const struct in6_addr *saddr);

/* af_mrc.c */
struct mrc_sock *mrc_listener_lookup(struct net *net, struct mrc_dev *mdev,
				     u16 port, const struct in6_addr *daddr);
void mrc_sock_info(struct mrc_sock *ms, struct mrc_info *info);
void mrc_listener_forget(struct mrc_sock *listener, struct mrc_sock *child,
			 bool half_open);
bool mrc_listener_full(struct mrc_sock *listener);
int mrc_listener_add_half_open(struct mrc_sock *listener,
			       struct mrc_sock *child);
struct mrc_sock *mrc_child_alloc(struct mrc_sock *listener);
void mrc_child_drop(struct mrc_sock *listener, struct mrc_sock *child);

/* Module parameters of af_mrc.c (Documentation/mrc.rst, "Bounds"). */
extern unsigned int mrc_min_seg_size;
extern unsigned long mrc_dev_rmem_max;
extern unsigned int mrc_orphan_fin_timeout_ms;
extern unsigned int mrc_max_orphans;
extern unsigned int mrc_half_open_timeout_ms;
extern unsigned int mrc_dead_peer_ms;
extern atomic_t mrc_orphans;

void mrc_set_state_err(struct mrc_sock *ms, u8 state, int err);

/**
 * mrc_set_state() - move a connection to @state
 * @ms: the connection (conn lock)
 * @state: enum mrc_state
 */
static inline void mrc_set_state(struct mrc_sock *ms, u8 state)
{
	mrc_set_state_err(ms, state, 0);
}

/**
 * mrc_conn_lock() - take the connection lock from process context
 * @ms: the connection
 * @xq: initialised here: packets to send once the lock is dropped
 *
 * Also enters an RCU read-side section: the packets prepared under the
 * lock name rails and devices that must stay until they are sent.
 */
static inline void mrc_conn_lock(struct mrc_sock *ms, struct sk_buff_head *xq)
	__acquires(&ms->lock)
{
	__skb_queue_head_init(xq);
	rcu_read_lock();
	spin_lock_bh(&ms->lock);
}

/**
 * mrc_conn_spin_unlock() - drop the connection lock taken with spin_lock_bh()
 * @ms: the connection
 *
 * The reader may have freed memory while we held the lock and left its
 * uncharge to us (mrc_input_release()): the barrier orders our unlock
 * before reading @rx_freed, as the reader's add is ordered before its
 * trylock, so one of us sees the other.  Cost per unlock: a full barrier
 * and an atomic_read().
 */
static inline void mrc_conn_spin_unlock(struct mrc_sock *ms)
	__releases(&ms->lock)
{
	spin_unlock_bh(&ms->lock);
	smp_mb();	/* pairs with mrc_input_release() */
	if (unlikely(atomic_read(&ms->rx_freed)))
		mrc_input_fold_pending(ms);
}

/**
 * mrc_conn_unlock() - drop the connection lock, then send what was queued
 * @ms: the connection
 * @xq: the packets prepared under the lock
 *
 * Memory the reader freed meanwhile is uncharged first (a window update
 * may join @xq).
 */
static inline void mrc_conn_unlock(struct mrc_sock *ms, struct sk_buff_head *xq)
	__releases(&ms->lock)
{
	if (unlikely(atomic_read(&ms->rx_freed)))
		mrc_input_fold(ms, xq);
	mrc_conn_spin_unlock(ms);
	mrc_xmit_list(sock_net(&ms->sk), xq);
	rcu_read_unlock();
}

/**
 * mrc_plane_proven() - may anything but a challenge go to the peer's rail
 *	on @plane?
 * @ms: the connection (conn lock)
 * @plane: the plane
 *
 * Return: true if the peer's rail there proved it is the peer's.
 */
static inline bool mrc_plane_proven(const struct mrc_sock *ms, u8 plane)
{
	lockdep_assert_held(&ms->lock);
	return ms->prail_ok & BIT(plane);
}

extern const struct mrc_endpoint_rail mrc_no_rail;

/**
 * mrc_lrail() - our rail on @plane, as the handshake announced it
 * @ms: the connection (its rails do not change once it is hashed)
 * @plane: any plane
 *
 * Return: the rail; one of family 0 (&mrc_no_rail) where there was none.
 */
static inline const struct mrc_endpoint_rail *
mrc_lrail(const struct mrc_sock *ms, u32 plane)
{
	return plane < ms->nrails ? &ms->lrail[plane] : &mrc_no_rail;
}

/**
 * mrc_prail() - the peer's rail on @plane, as its handshake announced it
 * @ms: the connection (conn lock, or its state read with an acquire)
 * @plane: any plane
 *
 * Return: the rail; one of family 0 (&mrc_no_rail) where there is none.
 */
static inline const struct mrc_endpoint_rail *
mrc_prail(const struct mrc_sock *ms, u32 plane)
{
	return plane < ms->nrails ? &ms->lrail[ms->nrails + plane] : &mrc_no_rail;
}

/**
 * mrc_plane() - the connection's state on @plane
 * @ms: the connection, with its paths (conn lock)
 * @plane: one of ms->planes: ms->plane has fls(ms->planes) entries
 *
 * Without the conn lock (sysfs, xmit.c), read ms->plane with an acquire
 * and check ms->planes instead.
 *
 * Return: &ms->plane[@plane].
 */
static inline struct mrc_plane *mrc_plane(const struct mrc_sock *ms, u32 plane)
{
	DEBUG_NET_WARN_ON_ONCE(plane >= MRC_MAX_RAILS || !(ms->planes & BIT(plane)));
	return &ms->plane[plane];
}

/**
 * mrc_peer_done() - did everything the peer sent, its CLOSE last, arrive?
 * @ms: the connection (conn lock)
 *
 * Every message is complete then: its segments precede the CLOSE in PSN
 * order.  Not before: a sprayed CLOSE often overtakes the last segments.
 *
 * Return: true once all PSNs up to the peer's CLOSE arrived.
 */
static inline bool mrc_peer_done(const struct mrc_sock *ms)
{
	lockdep_assert_held(&ms->lock);
	return ms->peer_closed &&
	       (s32)(ms->rxw.cum - ms->peer_close_psn) > 0;
}

/**
 * mrc_skb_add_page() - append @len bytes of @page at @off to @skb's frags
 * @skb: an skb whose data is ours alone, with a fragment slot to spare
 *	unless the bytes continue its last fragment
 * @page: the page
 * @off: where the bytes start in it
 * @len: how many
 *
 * Bytes that continue the last fragment in the same page extend it (its
 * page reference covers them); others take a reference and a slot.
 * skb->len and data_len grow; truesize is the caller's to add.
 */
static inline void mrc_skb_add_page(struct sk_buff *skb, struct page *page,
				    u32 off, u32 len)
{
	int nr = skb_shinfo(skb)->nr_frags;

	if (nr && skb_can_coalesce(skb, nr, page, off)) {
		skb_frag_size_add(&skb_shinfo(skb)->frags[nr - 1], len);
	} else {
		get_page(page);
		skb_fill_page_desc(skb, nr, page, off, len);
	}
	skb->len += len;
	skb->data_len += len;
}

#endif /* _MRC_SOCK_H */
