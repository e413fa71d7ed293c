/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mrc_peer.h - a hostile mrc peer: a userspace endpoint that speaks wire
 * format version 2 (Documentation/mrc/wire.rst) over plain UDP sockets
 * and does what no mrc kernel would: withhold segments, ignore the
 * credit, send overlapping segments, announce rails that are not its
 * own, never close.
 *
 * It lives in a namespace without an mrc device (mrc_peer_hosts() in
 * mrc_test.h), so it can bind UDP port 4796 on its rail addresses, one
 * socket per plane: that is where a real mrc host sends everything.
 * Packets are built from the structs of drivers/net/mrc/core/wire.h, and
 * every packet is checked with the module's own parser (core/wire.c,
 * linked in) before it is sent, so what a test calls hostile is always
 * the semantics, never a malformed header (peer_send() refuses those).
 * The peer's view of the server's PSNs is the module's own receive
 * window (core/rxwin.c, linked in).
 *
 * One struct mrc_peer holds the sockets and up to PEER_CONNS connections
 * (struct peer_conn); what arrives is matched to a connection by its
 * dst_conn.  peer_recv() also does what each connection's flags ask:
 * acknowledge the server's DATA, answer path and window probes, answer
 * challenges on some planes.  Include after mrc_test.h.
 */
#ifndef MRC_PEER_H
#define MRC_PEER_H

#include "core/psn.h"
#include "core/rxwin.h"
#include "core/wire.h"

#define MRC_PORT	4796		/* the mrc devices' default udp-port */
#define PEER_PLANES	2
#define PEER_CONNS	4
#define PEER_RCVBUF	(32 << 20)	/* never drop what the server sends */

struct mrc_peer;

/**
 * struct peer_conn - one connection of the peer
 * @p: the peer
 * @id: our connection id
 * @isn: our first PSN
 * @port: our mrc port
 * @srv_port: the listener's mrc port
 * @req_plane: the plane the REQ went out on
 * @req_dst: where it went (the server's address on that plane)
 * @established: the ACCEPT was taken and answered
 * @established_ms: when the ACK completing the handshake was sent
 * @srv_id: the server's connection id (from its ACCEPT)
 * @srv_isn: its first PSN
 * @srv_rwnd: the ACCEPT's credit: we may send PSNs below @isn + @srv_rwnd
 * @srv_payload: the ACCEPT's max_payload (the connection's segment size)
 * @srv_max_msg: the ACCEPT's max_msg_size
 * @srv_planes: bit per plane the ACCEPT announced a rail on
 * @srv_addr: the server's rail address per plane
 * @credit: the highest credit heard (ACCEPT, then rwnd_psn of ACKs)
 * @ack_cum: the highest cum_psn heard
 * @acks: ACKs received
 * @nacks: NACKs received
 * @rxw: the server's PSNs that arrived
 * @rwnd: the credit we give: PSNs below rxw.cum + @rwnd
 * @data_pkts: DATA and CLOSE packets received, per plane (duplicates too)
 * @data_bytes: payload bytes of new DATA
 * @data_dups: DATA and CLOSE packets already received
 * @trig_psn: the last DATA or CLOSE received: its PSN,
 * @trig_ev: its EV,
 * @trig_tx: its tx_count (what an ACK of it names)
 * @srv_closed: the server's CLOSE arrived
 * @srv_msgs: the messages it says it sent (its CLOSE's msg_id)
 * @close_psn: its CLOSE's PSN
 * @resets: RESETs received
 * @reset_reason: the last one's reason
 * @reset_ms: when it arrived (now_ms())
 * @challenges: challenges (PROBE with CHALLENGE) received per plane
 * @probes: other PROBEs received
 * @data_first_ms: when the first DATA arrived, per plane (0: none yet)
 * @chal_answered_ms: when we first answered a challenge, per plane
 * @ack_data: acknowledge every DATA and CLOSE at once
 * @answer_probes: answer path probes (PROBE_ACK) and window probes (ACK)
 * @answer_challenges: bit per plane whose challenges we answer
 * @next_psn: next PSN of ours (for the caller's bookkeeping)
 * @next_msg: next message id of ours (idem)
 */
struct peer_conn {
	struct mrc_peer *p;
	u32 id, isn;
	u16 port, srv_port;
	int req_plane;
	struct in_addr req_dst;
	bool established;
	long long established_ms;
	u32 srv_id, srv_isn, srv_rwnd;
	u16 srv_payload;
	u32 srv_max_msg;
	unsigned int srv_planes;
	struct in_addr srv_addr[PEER_PLANES];
	u32 credit, ack_cum;
	u32 acks, nacks;
	struct mrc_rxwin rxw;
	u32 rwnd;
	u32 data_pkts[PEER_PLANES];
	u64 data_bytes;
	u32 data_dups;
	u32 trig_psn;
	u16 trig_ev;
	u8 trig_tx;
	bool srv_closed;
	u32 srv_msgs, close_psn;
	u32 resets, reset_reason;
	long long reset_ms;
	u32 challenges[PEER_PLANES];
	u32 probes;
	long long data_first_ms[PEER_PLANES];
	long long chal_answered_ms[PEER_PLANES];
	bool ack_data, answer_probes;
	unsigned int answer_challenges;
	u32 next_psn, next_msg;
};

/**
 * struct peer_rx - one packet received
 * @plane: the plane (socket) it came in on
 * @from: its source address
 * @sport: its UDP source port
 * @len: its UDP payload length
 * @verdict: mrc_wire_parse()'s verdict (the rest is valid only if NONE)
 * @pkt: the parsed header
 * @c: the connection it is for, or NULL
 * @ms: when it was received (now_ms())
 * @buf: the UDP payload
 */
struct peer_rx {
	int plane;
	struct in_addr from;
	int sport;
	int len;
	enum mrc_drop_reason verdict;
	struct mrc_pkt pkt;
	struct peer_conn *c;
	long long ms;
	unsigned char buf[2048];
};

/**
 * struct mrc_peer - the peer's sockets and connections
 * @fd: UDP socket bound to @addr:4796 per plane, or -1
 * @addr: the peer's rail address per plane
 * @conn: its connections (@nconns used)
 * @nconns: connections made
 * @rx: packets received per type, all connections and strays
 * @rx_plane: packets received per plane
 * @rx_invalid: packets mrc_wire_parse() refused
 * @rx_stray: valid packets for no connection of ours
 * @answers: packets sent on our own while receiving (ACKs of the server's
 *	DATA, answers to its probes and challenges): a test that counts what
 *	the server received adds them to what it sent itself
 * @seed: random state
 */
struct mrc_peer {
	int fd[PEER_PLANES];
	struct in_addr addr[PEER_PLANES];
	struct peer_conn conn[PEER_CONNS];
	int nconns;
	unsigned long rx[__MRC_PKT_MAX];
	unsigned long rx_plane[PEER_PLANES];
	unsigned long rx_invalid, rx_stray;
	unsigned long answers;
	unsigned int seed;
};

/* A rail to announce: plane and IPv4 address. */
struct peer_rail {
	int plane;
	const char *ip;
};

/*
 * A UDP socket of namespace @ns (from and back to @home; @ns < 0: the
 * current one), non-blocking, bound to @ip:@port, with a receive buffer
 * of @rcvbuf bytes (SO_RCVBUFFORCE: no drops).  Returns it or -errno.
 */
static inline int udp_socket_in(int ns, int home, const char *ip, int port,
				int rcvbuf)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
	int fd, err = 0;

	if (inet_pton(AF_INET, ip, &a.sin_addr) != 1)
		return -EINVAL;
	if (ns >= 0 && setns(ns, CLONE_NEWNET))
		return -errno;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf)) ||
	    bind(fd, (struct sockaddr *)&a, sizeof(a)))
		err = -errno;
	if (err && fd >= 0)
		close(fd);
	if (ns >= 0 && setns(home, CLONE_NEWNET)) {
		if (!err)
			close(fd);
		return -errno;
	}
	return err ? err : fd;
}

static inline u32 peer_random(struct mrc_peer *p)
{
	u32 v;

	do {
		v = rnd_next(&p->seed);
	} while (!v);
	return v;
}

/*
 * Open the peer's sockets in the current namespace: plane i on @ips[i]
 * (NULL: no socket).  Returns 0 or -errno.
 */
static inline int peer_open(struct mrc_peer *p, const char *const ips[PEER_PLANES])
{
	int i;

	memset(p, 0, sizeof(*p));
	p->seed = (unsigned int)getpid() * 2654435761u ^ (unsigned int)now_ms();
	if (!p->seed)
		p->seed = 1;
	for (i = 0; i < PEER_PLANES; i++) {
		p->fd[i] = -1;
		if (!ips[i])
			continue;
		inet_pton(AF_INET, ips[i], &p->addr[i]);
		p->fd[i] = udp_socket_in(-1, -1, ips[i], MRC_PORT, PEER_RCVBUF);
		if (p->fd[i] < 0)
			return p->fd[i];
	}
	return 0;
}

static inline void peer_close(struct mrc_peer *p)
{
	int i;

	for (i = 0; i < PEER_PLANES; i++)
		if (p->fd[i] >= 0)
			close(p->fd[i]);
}

/*
 * A new connection: random id, isn and port; credit 1024 packets; it
 * acknowledges the server's data, answers probes and every challenge.
 */
static inline struct peer_conn *peer_conn_new(struct mrc_peer *p)
{
	struct peer_conn *c;

	if (p->nconns >= PEER_CONNS)
		return NULL;
	c = &p->conn[p->nconns++];
	memset(c, 0, sizeof(*c));
	c->p = p;
	c->id = peer_random(p);
	c->isn = peer_random(p);
	c->port = 40000 + peer_random(p) % 10000;
	c->rwnd = 1024;
	c->ack_data = true;
	c->answer_probes = true;
	c->answer_challenges = (1U << PEER_PLANES) - 1;
	c->next_psn = c->isn;
	return c;
}

/*
 * Send @len bytes of @buf from plane @plane's socket to @dst:4796, after
 * checking them with the module's parser: a packet it would not take is
 * a bug of the test, never sent (-EBADMSG).  Returns 0 or -errno.
 */
static inline int peer_sendto(struct mrc_peer *p, int plane, struct in_addr dst,
			      const void *buf, size_t len)
{
	struct sockaddr_in a = {
		.sin_family = AF_INET,
		.sin_port = htons(MRC_PORT),
		.sin_addr = dst,
	};
	struct mrc_pkt pkt;
	int tries = 0;

	if (plane < 0 || plane >= PEER_PLANES || p->fd[plane] < 0)
		return -EINVAL;
	if (mrc_wire_parse(buf, len, &pkt) != MRC_DROP_NONE)
		return -EBADMSG;
	while (sendto(p->fd[plane], buf, len, 0, (struct sockaddr *)&a, sizeof(a)) !=
	       (ssize_t)len) {
		if (errno != EAGAIN || tries++ >= 100)
			return -errno;
		wait_ev(p->fd[plane], POLLOUT, 10);
	}
	return 0;
}

/* Send to the server's rail on @plane (the REQ's address until ACCEPT). */
static inline int peer_send(struct peer_conn *c, int plane, const void *buf,
			    size_t len)
{
	struct in_addr dst = c->srv_planes & (1U << plane) ? c->srv_addr[plane] :
			     c->req_dst;

	return peer_sendto(c->p, plane, dst, buf, len);
}

static inline void peer_hdr(struct mrc_wire_hdr *h, u8 type, u16 flags,
			    u32 dst, u32 src)
{
	h->version = MRC_WIRE_VERSION;
	h->type = type;
	h->flags = cpu_to_be16(flags);
	h->dst_conn = cpu_to_be32(dst);
	h->src_conn = cpu_to_be32(src);
}

/*
 * A REQ (padded to MRC_REQ_WIRE_LEN) from plane @plane's socket to @dst,
 * for the listener's mrc port @dport: connection id @id, isn @isn, credit
 * @rwnd packets, @max_payload, @max_msg and the rails @rails[@n] (any
 * addresses).  Returns 0 or -errno.
 */
static inline int peer_req_raw(struct mrc_peer *p, int plane, const char *dst,
			       u16 dport, u16 sport, u32 id, u32 isn, u32 rwnd,
			       u16 max_payload, u32 max_msg,
			       const struct peer_rail *rails, int n)
{
	unsigned char buf[MRC_REQ_WIRE_LEN];
	struct mrc_wire_req *q = (void *)(buf + MRC_HDR_LEN);
	struct in_addr d;
	int i;

	if (n < 1 || n > MRC_WIRE_MAX_RAILS || inet_pton(AF_INET, dst, &d) != 1)
		return -EINVAL;
	memset(buf, 0, sizeof(buf));
	peer_hdr((void *)buf, MRC_PKT_REQ, 0, 0, id);
	q->dst_port = htons(dport);
	q->src_port = htons(sport);
	q->isn = cpu_to_be32(isn);
	q->rwnd = cpu_to_be32(rwnd);
	q->max_payload = cpu_to_be16(max_payload);
	q->n_rails = n;
	q->max_msg_size = cpu_to_be32(max_msg);
	for (i = 0; i < n; i++) {
		struct mrc_wire_rail *r = (void *)(buf + MRC_REQ_LEN(i));

		r->plane = rails[i].plane;
		r->family = 4;
		if (inet_pton(AF_INET, rails[i].ip, r->addr) != 1)
			return -EINVAL;
	}
	return peer_sendto(p, plane, d, buf, sizeof(buf));
}

/* The REQ of @c to @dst, listener port @dport (see peer_req_raw()). */
static inline int peer_req(struct peer_conn *c, int plane, const char *dst,
			   u16 dport, u16 max_payload, u32 max_msg,
			   const struct peer_rail *rails, int n)
{
	c->req_plane = plane;
	c->srv_port = dport;
	inet_pton(AF_INET, dst, &c->req_dst);
	return peer_req_raw(c->p, plane, dst, dport, c->port, c->id, c->isn,
			    c->rwnd, max_payload, max_msg, rails, n);
}

/*
 * An ACK (or NACK: @type) of @c on @plane with every field chosen by the
 * caller; @bits: MRC_SACK_WORDS words (NULL: none).
 */
static inline int peer_ack_raw(struct peer_conn *c, int plane, u8 type,
			       u8 nack_reason, u32 cum, u32 base,
			       const u64 *bits, u32 trig_psn, u16 trig_ev,
			       u8 trig_tx, u32 rwnd_psn)
{
	unsigned char buf[MRC_ACK_LEN];
	struct mrc_wire_ack *a = (void *)(buf + MRC_HDR_LEN);
	int i;

	memset(buf, 0, sizeof(buf));
	peer_hdr((void *)buf, type, 0, c->srv_id, c->id);
	a->cum_psn = cpu_to_be32(cum);
	a->sack_base = cpu_to_be32(base);
	for (i = 0; bits && i < MRC_SACK_WORDS; i++)
		a->sack[i] = cpu_to_be64(bits[i]);
	a->trig_psn = cpu_to_be32(trig_psn);
	a->trig_ev = cpu_to_be16(trig_ev);
	a->trig_tx = trig_tx;
	a->nack_reason = nack_reason;
	a->rwnd_psn = cpu_to_be32(rwnd_psn);
	return peer_send(c, plane, buf, sizeof(buf));
}

/*
 * An honest ACK of what arrived (@c->rxw), triggered by the server's
 * transmission @trig_psn/@trig_ev/@trig_tx, with our credit.
 */
static inline int peer_ack(struct peer_conn *c, int plane, u32 trig_psn,
			   u16 trig_ev, u8 trig_tx)
{
	u64 bits[MRC_SACK_WORDS];
	u32 cum, base;

	mrc_rxwin_sack(&c->rxw, &cum, &base, bits);
	return peer_ack_raw(c, plane, MRC_PKT_ACK, 0, cum, base, bits, trig_psn,
			    trig_ev, trig_tx, cum + c->rwnd);
}

/* An ACK that acknowledges nothing we have not acknowledged before. */
static inline int peer_ack_nothing(struct peer_conn *c, int plane)
{
	return peer_ack_raw(c, plane, MRC_PKT_ACK, 0, c->srv_isn, c->srv_isn, NULL,
			    c->srv_isn - 1, 0, 0, c->srv_isn + c->rwnd);
}

/*
 * A DATA segment of @c: any @psn, message, length, offset and payload
 * (@flags: MRC_F_DATA_ACK_NOW or 0), on @plane.
 */
static inline int peer_data(struct peer_conn *c, int plane, u32 psn, u32 msg_id,
			    u32 msg_len, u32 off, const void *payload,
			    size_t len, u16 flags)
{
	unsigned char buf[MRC_DATA_HDR_LEN + 1500];
	struct mrc_wire_data *d = (void *)(buf + MRC_HDR_LEN);

	if (len > 1500)
		return -EMSGSIZE;
	memset(buf, 0, MRC_DATA_HDR_LEN);
	peer_hdr((void *)buf, MRC_PKT_DATA, flags, c->srv_id, c->id);
	d->psn = cpu_to_be32(psn);
	d->msg_id = cpu_to_be32(msg_id);
	d->msg_len = cpu_to_be32(msg_len);
	d->offset = cpu_to_be32(off);
	d->ev = cpu_to_be16(psn & MRC_EV_MAX);
	memcpy(buf + MRC_DATA_HDR_LEN, payload, len);
	return peer_send(c, plane, buf, MRC_DATA_HDR_LEN + len);
}

/* Our CLOSE at @psn: we sent @msgs messages in all. */
static inline int peer_close_pkt(struct peer_conn *c, int plane, u32 psn, u32 msgs)
{
	unsigned char buf[MRC_DATA_HDR_LEN];
	struct mrc_wire_data *d = (void *)(buf + MRC_HDR_LEN);

	memset(buf, 0, sizeof(buf));
	peer_hdr((void *)buf, MRC_PKT_CLOSE, MRC_F_DATA_ACK_NOW, c->srv_id, c->id);
	d->psn = cpu_to_be32(psn);
	d->msg_id = cpu_to_be32(msgs);
	return peer_send(c, plane, buf, sizeof(buf));
}

/* A PROBE or PROBE_ACK (@type) with @flags and the body @pr. */
static inline int peer_probe(struct peer_conn *c, int plane, u8 type, u16 flags,
			     const struct mrc_wire_probe *pr)
{
	unsigned char buf[MRC_PROBE_LEN];

	peer_hdr((void *)buf, type, flags, c->srv_id, c->id);
	memcpy(buf + MRC_HDR_LEN, pr, sizeof(*pr));
	return peer_send(c, plane, buf, sizeof(buf));
}

/* A window probe: the server answers with an ACK carrying its credit. */
static inline int peer_window_probe(struct peer_conn *c, int plane)
{
	struct mrc_wire_probe pr = { 0 };

	return peer_probe(c, plane, MRC_PKT_PROBE, 0, &pr);
}

/* A RESET of @c (reason abort). */
static inline int peer_reset(struct peer_conn *c, int plane)
{
	unsigned char buf[MRC_RESET_LEN];
	struct mrc_wire_reset *r = (void *)(buf + MRC_HDR_LEN);

	peer_hdr((void *)buf, MRC_PKT_RESET, 0, c->srv_id, c->id);
	r->reason = cpu_to_be32(MRC_RESET_ABORT);
	return peer_send(c, plane, buf, sizeof(buf));
}

/* The connection a packet is for (its dst_conn), or NULL. */
static inline struct peer_conn *peer_find(struct mrc_peer *p, u32 dst)
{
	int i;

	for (i = 0; i < p->nconns; i++)
		if (p->conn[i].id == dst)
			return &p->conn[i];
	return NULL;
}

/* Take the server's ACCEPT @rx (it echoes our isn): @c is established. */
static inline int peer_take_accept(struct peer_conn *c, const struct peer_rx *rx)
{
	const struct mrc_wire_req *q = &rx->pkt.u.req.req;
	int i;

	if (be32_to_cpu(q->echo) != c->isn)
		return -EPROTO;
	c->srv_id = rx->pkt.src_conn;
	c->srv_isn = be32_to_cpu(q->isn);
	c->srv_rwnd = be32_to_cpu(q->rwnd);
	c->srv_payload = be16_to_cpu(q->max_payload);
	c->srv_max_msg = be32_to_cpu(q->max_msg_size);
	c->credit = c->isn + c->srv_rwnd;
	c->ack_cum = c->isn;
	c->srv_planes = 0;
	for (i = 0; i < q->n_rails; i++) {
		const struct mrc_wire_rail *r = &rx->pkt.u.req.rails[i];

		if (r->plane >= PEER_PLANES || r->family != 4)
			continue;
		c->srv_planes |= 1U << r->plane;
		memcpy(&c->srv_addr[r->plane], r->addr, 4);
	}
	mrc_rxwin_init(&c->rxw, c->srv_isn);
	c->established = true;
	return 0;
}

/* What a connection's flags ask for when @rx arrives for it. */
static inline void peer_react(struct peer_conn *c, struct peer_rx *rx)
{
	const struct mrc_pkt *pkt = &rx->pkt;
	int plane = rx->plane;
	u32 psn, rwnd;

	switch (pkt->type) {
	case MRC_PKT_ACCEPT:
		/* Our completing ACK was lost: the server repeats its ACCEPT. */
		if (c->established && pkt->src_conn == c->srv_id)
			peer_ack(c, plane, c->rxw.cum - 1, 0, 0);
		break;
	case MRC_PKT_ACK:
	case MRC_PKT_NACK:
		if (pkt->type == MRC_PKT_ACK)
			c->acks++;
		else
			c->nacks++;
		rwnd = be32_to_cpu(pkt->u.ack.rwnd_psn);
		if (mrc_psn_after(rwnd, c->credit))
			c->credit = rwnd;
		if (mrc_psn_after(be32_to_cpu(pkt->u.ack.cum_psn), c->ack_cum))
			c->ack_cum = be32_to_cpu(pkt->u.ack.cum_psn);
		break;
	case MRC_PKT_DATA:
	case MRC_PKT_CLOSE:
		psn = be32_to_cpu(pkt->u.data.psn);
		c->trig_psn = psn;
		c->trig_ev = be16_to_cpu(pkt->u.data.ev);
		c->trig_tx = pkt->u.data.tx_count;
		c->data_pkts[plane]++;
		if (!c->data_first_ms[plane])
			c->data_first_ms[plane] = rx->ms;
		if (mrc_rxwin_check(&c->rxw, psn) == MRC_RX_NEW) {
			mrc_rxwin_mark(&c->rxw, psn);
			c->data_bytes += pkt->payload_len;
			if (pkt->type == MRC_PKT_CLOSE) {
				c->srv_closed = true;
				c->srv_msgs = be32_to_cpu(pkt->u.data.msg_id);
				c->close_psn = psn;
			}
		} else {
			c->data_dups++;
		}
		if (c->ack_data)
			c->p->answers += !peer_ack(c, plane, psn, c->trig_ev, c->trig_tx);
		break;
	case MRC_PKT_PROBE:
		if (pkt->flags & MRC_F_PROBE_CHALLENGE) {
			c->challenges[plane]++;
			if (c->answer_challenges & (1U << plane)) {
				if (!c->chal_answered_ms[plane])
					c->chal_answered_ms[plane] = now_ms();
				c->p->answers += !peer_probe(c, plane, MRC_PKT_PROBE_ACK,
							     MRC_F_PROBE_CHALLENGE,
							     &pkt->u.probe);
			}
			break;
		}
		c->probes++;
		if (!c->answer_probes)
			break;
		if (!pkt->u.probe.seq)
			c->p->answers += !peer_ack(c, plane, c->rxw.cum - 1, 0, 0);
		else
			c->p->answers += !peer_probe(c, plane, MRC_PKT_PROBE_ACK, 0,
						     &pkt->u.probe);
		break;
	case MRC_PKT_RESET:
		c->resets++;
		c->reset_reason = be32_to_cpu(pkt->u.reset.reason);
		c->reset_ms = rx->ms;
		break;
	}
}

/*
 * Receive one packet, waiting at most @ms (0: only what is there).
 * Returns 1 (in *@rx, and reacted to), 0 if nothing came, or -errno.
 */
static inline int peer_recv(struct mrc_peer *p, int ms, struct peer_rx *rx)
{
	struct pollfd pfd[PEER_PLANES];
	struct sockaddr_in from;
	socklen_t flen = sizeof(from);
	int i, n = 0, r;

	for (i = 0; i < PEER_PLANES; i++) {
		pfd[i].fd = p->fd[i];
		pfd[i].events = POLLIN;
		pfd[i].revents = 0;
	}
	r = poll(pfd, PEER_PLANES, ms);
	if (r <= 0)
		return r < 0 ? -errno : 0;
	for (i = 0; i < PEER_PLANES; i++) {
		if (!(pfd[i].revents & POLLIN))
			continue;
		n = recvfrom(p->fd[i], rx->buf, sizeof(rx->buf), 0,
			     (struct sockaddr *)&from, &flen);
		if (n >= 0)
			break;
		if (errno != EAGAIN)
			return -errno;
	}
	if (i == PEER_PLANES)
		return 0;
	rx->plane = i;
	rx->from = from.sin_addr;
	rx->sport = ntohs(from.sin_port);
	rx->len = n;
	rx->ms = now_ms();
	rx->c = NULL;
	p->rx_plane[i]++;
	rx->verdict = mrc_wire_parse(rx->buf, n, &rx->pkt);
	if (rx->verdict != MRC_DROP_NONE) {
		p->rx_invalid++;
		return 1;
	}
	p->rx[rx->pkt.type]++;
	rx->c = peer_find(p, rx->pkt.dst_conn);
	if (!rx->c)
		p->rx_stray++;
	else if (rx->c->established)
		peer_react(rx->c, rx);
	return 1;
}

/* Receive and react until nothing came for @idle_ms, at most @max_ms. */
static inline int peer_drain(struct mrc_peer *p, int idle_ms, int max_ms)
{
	long long t0 = now_ms();
	struct peer_rx rx;
	int r, n = 0;

	while ((r = peer_recv(p, idle_ms, &rx)) > 0) {
		n++;
		if (now_ms() - t0 > max_ms)
			break;
	}
	return r < 0 ? r : n;
}

/*
 * Wait at most @ms for a packet of @type for @c (NULL: any connection or
 * none), reacting to everything on the way.  Returns 1 (in *@rx), 0 on
 * timeout, or -errno.
 */
static inline int peer_wait(struct mrc_peer *p, struct peer_conn *c, u8 type,
			    int ms, struct peer_rx *rx)
{
	long long end = now_ms() + ms;
	int r;

	for (;;) {
		long long left = end - now_ms();

		r = peer_recv(p, left > 0 ? left : 0, rx);
		if (r <= 0)
			return r;
		if (rx->verdict == MRC_DROP_NONE && rx->pkt.type == type &&
		    (!c || rx->c == c))
			return 1;
	}
}

/*
 * Open @c: a REQ from @plane to @dst (listener port @dport) announcing
 * @rails, the ACCEPT that echoes our isn, and the ACK that completes the
 * handshake.  Returns 0, -ETIMEDOUT (no ACCEPT within @ms) or -errno.
 */
static inline int peer_connect(struct peer_conn *c, int plane, const char *dst,
			       u16 dport, u16 max_payload,
			       const struct peer_rail *rails, int n, int ms)
{
	long long end = now_ms() + ms;
	struct peer_rx rx;
	int r;

	r = peer_req(c, plane, dst, dport, max_payload, MAX_MSG, rails, n);
	if (r)
		return r;
	for (;;) {
		long long left = end - now_ms();

		r = peer_wait(c->p, c, MRC_PKT_ACCEPT, left > 0 ? left : 0, &rx);
		if (r <= 0)
			return r ? r : -ETIMEDOUT;
		if (!peer_take_accept(c, &rx))
			break;
	}
	/* Nothing of the server's arrived yet: cum is its isn. */
	c->established_ms = now_ms();
	return peer_ack(c, plane, c->srv_isn - 1, 0, 0);
}

#endif /* MRC_PEER_H */
