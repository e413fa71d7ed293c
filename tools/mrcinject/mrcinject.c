// SPDX-License-Identifier: GPL-2.0
/*
 * mrcinject - send crafted mrc packets, as a hostile peer would.
 *
 *   mrcinject -d DST -k KIND [-n COUNT] [options]     inject packets
 *   mrcinject -l -D MRCPORT [-B BACKLOG] [-w SECONDS] [-r FILE]
 *                                                     hold a listener
 *   mrcinject -Q -d ADDR [-w SECONDS]                 wait for a REQ from
 *                                                     ADDR, print it
 *   mrcinject -f FILE                                 one command per line
 *                                                     of FILE ("-": stdin),
 *                                                     each followed by
 *                                                     "end rc=N"
 *
 * Packets leave through a plain UDP socket (bound to -s/-P if given), so
 * the kernel fills in IP and UDP and computes the UDP checksum: what
 * arrives is exactly the mrc payload built here.  Every packet built is
 * first run through the module's own validator (core/wire.c, linked in)
 * and the tool refuses to send one whose verdict is not what its kind
 * means (a bug of this tool, not of the module).
 *
 * Kinds (and the drop reason each should cause at the receiver):
 *   short        fewer bytes than the common header       short
 *   version      unknown version                          version
 *   type         unknown type                             type
 *   reserved     a reserved bit or field set (15 variants) reserved
 *   length       length not matching the type (9 variants) length
 *   no-conn      valid DATA to a random connection id     no-conn
 *   window       DATA far beyond the receive window (-L)  out-of-window
 *   bad-ack      ACK of PSNs that were never sent         bad-ack
 *   bad-ack-data DATA whose ACK part (MRC_F_DATA_ACK) is   bad-ack
 *                a bad-ack's (reserved: to a connection   (reserved)
 *                without the ACK_DATA capability)
 *   host-delay   a bad-ack's ACK with host_delay_us set   reserved
 *                (to a connection without the HOST_DELAY  (bad-ack
 *                capability; with it)                      with it)
 *   huge         DATA of a 4 GiB message at the last PSN  msg-too-big
 *                of the credit (-L), not sent yet;
 *                with -M/-O: an inconsistent segment      bad-data
 *   reset-other  RESET with guessed ids (or -c/-C)        no-conn or
 *                                                         bad-source
 *   req-flood    REQs with distinct src ids to -D PORT    (half-open)
 *                (padded to 676 bytes; -U: not padded)    (-U: length)
 *   accept       ACCEPT to -c from -C, echoing -e         none, or
 *                (to a client in REQ_SENT)                bad-source
 *   bad-source   valid DATA with -c/-C ids, from anywhere bad-source
 *   garbage      random bytes of random length            (any)
 *   probe        window PROBE (answered with an ACK)      none
 *
 * The last line printed is a summary:
 *   kind=KIND sent=N bytes=N errors=N
 *
 * Options:
 *   -d ADDR       destination address (IPv4 or IPv6)
 *   -p PORT       destination UDP port (default 4796)
 *   -s ADDR       source address to bind (default: chosen by the route)
 *   -P PORT       source UDP port (default: ephemeral)
 *   -n COUNT      packets to send (default 1)
 *   -i USEC       pause between packets
 *   -c ID         dst_conn, hex as mrcctl prints it (default: random)
 *   -C ID         src_conn, hex (default: random)
 *   -S SEED       random seed (default: time and pid)
 *   -q PSN        DATA PSN (default: learned with -L, else random)
 *   -L            learn the connection's receive window by sniffing the
 *                 ACKs its owner (-c) sends to its peer (-C) (run in the
 *                 peer's namespace; CAP_NET_RAW), before every packet of
 *                 window/huge; a window PROBE asks for an ACK if none comes
 *   -m ID         DATA msg_id (default 0)
 *   -M LEN        DATA msg_len (huge: default 0xffffffff)
 *   -O OFF        DATA offset (default 0)
 *   -z LEN        DATA payload bytes (default 64)
 *   -u PSN        ACK cum_psn       (bad-ack: default, with -T and -a, a
 *   -T PSN        ACK trig_psn       pair of PSNs 2^31 apart: one of them
 *   -a PSN        ACK sack_base      is at or beyond any sender's next
 *   -b HEX        ACK sack word 0    PSN, i.e. never sent)
 *   -R REASON     RESET reason (default 1, abort)
 *   -D PORT       REQ: the listener's mrc port; -l: the port to listen on
 *   -A PLANE:ADDR REQ/ACCEPT rail (repeatable; default plane 0, the source
 *                 address)
 *   -e ECHO       ACCEPT echo, hex: the isn of the REQ it answers (default:
 *                 random, non-zero)
 *   -U            REQ not padded: MRC_REQ_LEN(rails) bytes, as in version 1
 *   -G SEGS       send the packets as UDP GSO bursts (UDP_SEGMENT) of up to
 *                 SEGS (2..64) packets of equal size, the last maybe
 *                 shorter: what a peer's mrc sends with tx_burst_max, here
 *                 of any kind (the receiver cuts a burst that is not DATA
 *                 of one connection; a burst of no connection gets one
 *                 RESET); sent= still counts packets
 *   -v            print what is learned
 *   -l            hold an AF_MRC listener on -D (never accepting) for -w
 *                 seconds (default 60) with backlog -B (default 4096)
 *   -r FILE       -l: create FILE once listening
 *   -Q            wait at most -w seconds (default 60) for the next REQ that
 *                 -d sends to this host's port -p and that mrc_wire_parse()
 *                 accepts (packet socket: CAP_NET_RAW; run in the
 *                 listener's namespace) and print "req src_conn=HEX
 *                 isn=HEX len=N n_rails=N dst_port=N" (len: its UDP
 *                 payload), or fail (exit 1)
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/mrc.h>

#include "core/wire.h"

#define OPTSTRING	"d:p:s:P:n:i:c:C:S:q:Lm:M:O:z:u:T:a:b:R:D:A:vlB:w:r:k:e:UQG:"
#define MAX_PKT		1472	/* UDP payload of a 1500-byte IPv4 MTU */
#define MAX_GSO_SEGS	64	/* UDP_MAX_SEGMENTS of 6.1 */
#ifndef UDP_SEGMENT
#define UDP_SEGMENT	103
#endif
#define WIN_PKTS	2048	/* MRC_WIN_PKTS of core/rxwin.h */
#define MAX_MSG_SIZE	BIT(20)

enum kind {
	K_SHORT, K_VERSION, K_TYPE, K_RESERVED, K_LENGTH, K_NO_CONN,
	K_WINDOW, K_BAD_ACK, K_HUGE, K_RESET_OTHER, K_REQ_FLOOD,
	K_BAD_SOURCE, K_GARBAGE, K_PROBE, K_ACCEPT, K_BAD_ACK_DATA,
	K_HOST_DELAY, __K_MAX,
};

static const char * const kind_names[__K_MAX] = {
	[K_SHORT] = "short",
	[K_VERSION] = "version",
	[K_TYPE] = "type",
	[K_RESERVED] = "reserved",
	[K_LENGTH] = "length",
	[K_NO_CONN] = "no-conn",
	[K_WINDOW] = "window",
	[K_BAD_ACK] = "bad-ack",
	[K_HUGE] = "huge",
	[K_RESET_OTHER] = "reset-other",
	[K_REQ_FLOOD] = "req-flood",
	[K_BAD_SOURCE] = "bad-source",
	[K_GARBAGE] = "garbage",
	[K_PROBE] = "probe",
	[K_ACCEPT] = "accept",
	[K_BAD_ACK_DATA] = "bad-ack-data",
	[K_HOST_DELAY] = "host-delay",
};

/* What wire parsing must say about a packet of a kind (-1: anything). */
static const int kind_parse[__K_MAX] = {
	[K_SHORT] = MRC_DROP_SHORT,
	[K_VERSION] = MRC_DROP_VERSION,
	[K_TYPE] = MRC_DROP_TYPE,
	[K_RESERVED] = MRC_DROP_RESERVED,
	[K_LENGTH] = MRC_DROP_LENGTH,
	[K_GARBAGE] = -1,
	/* the others are well-formed: MRC_DROP_NONE */
};

struct rail_opt {
	unsigned int plane;
	int family;		/* AF_INET or AF_INET6 */
	unsigned char addr[16];
};

struct opts {
	enum kind kind;
	struct sockaddr_storage dst, src;
	socklen_t dst_len;
	int have_src;
	unsigned int dport, sport;
	unsigned long long count;
	unsigned int gap_us;
	int have_dconn, have_sconn;
	u32 dconn, sconn;
	int have_psn;
	u32 psn;
	int learn;
	u32 msg_id, msg_len, offset, payload;
	int have_msg_len, have_offset;
	int have_cum, have_trig, have_base, have_bits;
	u32 cum, trig, base;
	u64 bits;
	u32 reason;
	unsigned int req_port;
	int have_echo, unpadded;
	u32 echo;
	struct rail_opt rails[MRC_WIRE_MAX_RAILS];
	unsigned int n_rails;
	int verbose;
	unsigned int gso;
};

static struct opts o = {
	.dport = MRC_UDP_PORT_DEFAULT,
	.count = 1,
	.payload = 64,
	.reason = MRC_RESET_ABORT,
	.kind = __K_MAX,
};

static u64 rng_state;

static u64 rnd(void)
{
	/* xorshift64* */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

static u32 rnd_nonzero(void)
{
	u32 v;

	do {
		v = (u32)rnd();
	} while (!v);
	return v;
}

static void die(const char *what)
{
	fprintf(stderr, "mrcinject: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void bad_usage(void)
{
	unsigned int k;

	fprintf(stderr,
		"usage: mrcinject -d DST -k KIND [-n COUNT] [-p PORT] [-s SRC] [-P SPORT]\n"
		"                 [-c DSTCONN] [-C SRCCONN] [-q PSN] [-L] [-m ID] [-M LEN]\n"
		"                 [-O OFF] [-z LEN] [-u CUM] [-T TRIG] [-a BASE] [-b BITS]\n"
		"                 [-R REASON] [-D MRCPORT] [-A PLANE:ADDR]... [-e ECHO] [-U]\n"
		"                 [-i USEC] [-S SEED] [-v]\n"
		"       mrcinject -l -D MRCPORT [-B BACKLOG] [-w SECONDS] [-r FILE]\n"
		"       mrcinject -Q -d SRC [-p PORT] [-w SECONDS]\n"
		"       mrcinject -f FILE|-\n"
		"kinds:");
	for (k = 0; k < __K_MAX; k++)
		fprintf(stderr, " %s", kind_names[k]);
	fputc('\n', stderr);
	exit(2);
}

static int parse_addr(const char *s, struct sockaddr_storage *ss, unsigned int port)
{
	struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)ss;
	struct sockaddr_in *a4 = (struct sockaddr_in *)ss;

	memset(ss, 0, sizeof(*ss));
	if (inet_pton(AF_INET, s, &a4->sin_addr) == 1) {
		a4->sin_family = AF_INET;
		a4->sin_port = htons(port);
		return sizeof(*a4);
	}
	if (inet_pton(AF_INET6, s, &a6->sin6_addr) == 1) {
		a6->sin6_family = AF_INET6;
		a6->sin6_port = htons(port);
		return sizeof(*a6);
	}
	fprintf(stderr, "mrcinject: bad address %s\n", s);
	exit(2);
}

static unsigned long num(const char *s, int base)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, base);
	if (errno || !*s || *end) {
		fprintf(stderr, "mrcinject: bad number %s\n", s);
		exit(2);
	}
	return v;
}

static void parse_rail(const char *s)
{
	struct rail_opt *r = &o.rails[o.n_rails];
	struct sockaddr_storage ss;
	const char *colon = strchr(s, ':');
	char plane[16];

	if (!colon || colon - s >= (int)sizeof(plane) || o.n_rails >= MRC_WIRE_MAX_RAILS)
		bad_usage();
	memcpy(plane, s, colon - s);
	plane[colon - s] = 0;
	r->plane = num(plane, 10);
	parse_addr(colon + 1, &ss, 0);
	r->family = ss.ss_family;
	memset(r->addr, 0, sizeof(r->addr));
	if (ss.ss_family == AF_INET)
		memcpy(r->addr, &((struct sockaddr_in *)&ss)->sin_addr, 4);
	else
		memcpy(r->addr, &((struct sockaddr_in6 *)&ss)->sin6_addr, 16);
	o.n_rails++;
}

/* ---- building packets ------------------------------------------------------ */

/*
 * With core/wire.c's builders, the module's own: what is well-formed here
 * is what the module sends; the kinds that break a rule change a byte
 * afterwards.
 */

static u32 dconn(void)
{
	return o.have_dconn ? o.dconn : rnd_nonzero();
}

static u32 sconn(void)
{
	return o.have_sconn ? o.sconn : rnd_nonzero();
}

/*
 * DATA (or CLOSE) header and payload; returns the packet length.  With
 * MRC_F_DATA_ACK in @flags the payload follows the ACK part's room, which
 * the caller fills.
 */
static size_t build_data(u8 *buf, u8 type, u16 flags, u32 dst, u32 src, u32 psn,
			 u32 msg_id, u32 msg_len, u32 off, u32 payload)
{
	u32 hdr = flags & MRC_F_DATA_ACK ? MRC_DATA_ACK_HDR_LEN : MRC_DATA_HDR_LEN;
	struct mrc_data_info d = {
		.psn = psn,
		.msg_id = msg_id,
		.msg_len = msg_len,
		.offset = off,
		.ev = rnd() & MRC_EV_MAX,
	};
	u32 i;

	mrc_wire_put_hdr(buf, type, flags, dst, src);
	mrc_wire_put_data(buf + MRC_HDR_LEN, &d);
	for (i = 0; i < payload; i++)
		buf[hdr + i] = (u8)rnd();
	return hdr + payload;
}

/* A well-formed DATA segment of a small message, ids and PSN given. */
static size_t build_plain_data(u8 *buf, u32 dst, u32 src, u32 psn)
{
	return build_data(buf, MRC_PKT_DATA, MRC_F_DATA_ACK_NOW, dst, src, psn,
			  o.msg_id, o.payload, 0, o.payload);
}

/* The fields of an ACK (a NACK's with @nack) part. */
static void ack_info(struct mrc_ack_info *a, bool nack, u32 cum, u32 base,
		     u64 word0, u32 trig)
{
	memset(a, 0, sizeof(*a));
	a->cum = cum;
	a->base = base;
	a->bits[0] = word0;
	a->trig_psn = trig;
	a->trig_ev = rnd() & MRC_EV_MAX;
	a->nack_reason = nack ? MRC_NACK_NO_BUFFER : MRC_NACK_NONE;
	a->rwnd_psn = cum + 64;
}

static size_t build_ack(u8 *buf, u8 type, u16 flags, u32 dst, u32 src,
			u32 cum, u32 base, u64 word0, u32 trig)
{
	struct mrc_ack_info a;

	ack_info(&a, type == MRC_PKT_NACK, cum, base, word0, trig);
	if (o.kind == K_HOST_DELAY)
		a.host_delay_us = 1 + rnd() % 1000;
	mrc_wire_put_hdr(buf, type, flags, dst, src);
	mrc_wire_put_ack(buf + MRC_HDR_LEN, &a);
	return MRC_ACK_LEN;
}

/*
 * A DATA segment of a small message (ids and PSN given) that carries an
 * ACK part (MRC_F_DATA_ACK) with @cum, @base, @word0 and @trig.
 */
static size_t build_data_ack(u8 *buf, u32 dst, u32 src, u32 psn, u32 cum,
			     u32 base, u64 word0, u32 trig)
{
	size_t len = build_data(buf, MRC_PKT_DATA, MRC_F_DATA_ACK, dst, src, psn,
				o.msg_id, o.payload, 0, o.payload);
	struct mrc_ack_info a;

	ack_info(&a, false, cum, base, word0, trig);
	mrc_wire_put_ack(buf + MRC_DATA_HDR_LEN, &a);
	return len;
}

/* Source address the kernel uses towards the destination. */
static void local_addr(struct sockaddr_storage *ss)
{
	socklen_t len = sizeof(*ss);
	int tmp;

	if (o.have_src) {
		*ss = o.src;
		return;
	}
	tmp = socket(o.dst.ss_family, SOCK_DGRAM, 0);
	if (tmp < 0 || connect(tmp, (struct sockaddr *)&o.dst, o.dst_len) ||
	    getsockname(tmp, (struct sockaddr *)ss, &len))
		die("finding the source address");
	close(tmp);
}

static size_t build_req(u8 *buf, u8 type, u16 flags, u32 dst, u32 src)
{
	struct mrc_req_info q;
	struct sockaddr_storage ss;
	unsigned int i, n = o.n_rails;
	size_t len;

	if (!n) {
		local_addr(&ss);
		o.rails[0].plane = 0;
		o.rails[0].family = ss.ss_family;
		memset(o.rails[0].addr, 0, sizeof(o.rails[0].addr));
		if (ss.ss_family == AF_INET)
			memcpy(o.rails[0].addr, &((struct sockaddr_in *)&ss)->sin_addr, 4);
		else
			memcpy(o.rails[0].addr, &((struct sockaddr_in6 *)&ss)->sin6_addr, 16);
		n = 1;
		o.n_rails = n;
	}
	memset(&q, 0, sizeof(q));
	q.dst_port = o.req_port;
	q.src_port = 1024 + rnd() % 60000;
	q.isn = rnd_nonzero();
	if (type == MRC_PKT_ACCEPT)
		q.echo = o.have_echo ? o.echo : rnd_nonzero();
	q.rwnd = 1024;
	q.max_payload = 1436;
	q.n_rails = n;
	q.max_msg_size = MAX_MSG_SIZE;
	mrc_wire_put_hdr(buf, type, flags, dst, src);
	/* a REQ is padded to the largest ACCEPT (but -u) */
	len = mrc_wire_put_req(buf + MRC_HDR_LEN, type, &q);
	for (i = 0; i < n; i++)
		mrc_wire_put_rail(buf + MRC_HDR_LEN, i, o.rails[i].plane,
				  o.rails[i].family == AF_INET ? 4 : 6, o.rails[i].addr);
	return o.unpadded ? MRC_REQ_LEN(n) : len;
}

static size_t build_reset(u8 *buf, u16 flags, u32 dst, u32 src, u32 reason)
{
	mrc_wire_put_hdr(buf, MRC_PKT_RESET, flags, dst, src);
	mrc_wire_put_reset(buf + MRC_HDR_LEN, reason);
	return MRC_RESET_LEN;
}

static size_t build_probe(u8 *buf, u16 flags, u32 dst, u32 src, u32 seq, u16 reserved)
{
	__be16 r = cpu_to_be16(reserved);

	mrc_wire_put_hdr(buf, MRC_PKT_PROBE, flags, dst, src);
	mrc_wire_put_probe(buf + MRC_HDR_LEN, seq, rnd() & MRC_EV_MAX, (u32)rnd());
	memcpy(buf + MRC_HDR_LEN + offsetof(struct mrc_wire_probe, reserved), &r, sizeof(r));
	return MRC_PROBE_LEN;
}

/* Valid REQ, then one reserved thing set; @v picks which. */
static size_t build_reserved(u8 *buf, unsigned long long v)
{
	u32 d = rnd_nonzero(), s = rnd_nonzero();
	size_t len;

	switch (v % 15) {
	case 0:		/* DATA flag beyond ACK_NOW, ACK and ACK_CE */
		return build_data(buf, MRC_PKT_DATA, 0x0008, d, s, (u32)rnd(), 0, 16, 0, 16);
	case 1:		/* DATA reserved byte */
		len = build_data(buf, MRC_PKT_DATA, 0, d, s, (u32)rnd(), 0, 16, 0, 16);
		buf[MRC_HDR_LEN + offsetof(struct mrc_wire_data, reserved)] = 1;
		return len;
	case 2:		/* DATA reserved2 */
		len = build_data(buf, MRC_PKT_DATA, 0, d, s, (u32)rnd(), 0, 16, 0, 16);
		buf[MRC_HDR_LEN + offsetof(struct mrc_wire_data, reserved2) + 3] = 0x80;
		return len;
	case 3:		/* CLOSE flag */
		return build_data(buf, MRC_PKT_CLOSE, 0x8000, d, s, (u32)rnd(), 3, 0, 0, 0);
	case 4:		/* ACK flag beyond CE */
		return build_ack(buf, MRC_PKT_ACK, 0x0004, d, s, 0, 0, 0, 0);
	case 5:		/* ACCEPT capability beyond ACK_DATA and HOST_DELAY */
		return build_req(buf, MRC_PKT_ACCEPT, MRC_F_REQ_MASK + 1, d, s);
	case 6:		/* DATA ACK_CE without an ACK part (a REQ's flags: ignored) */
		return build_data(buf, MRC_PKT_DATA, MRC_F_DATA_ACK_CE, d, s, (u32)rnd(), 0,
				  16, 0, 16);
	case 7:		/* REQ reserved byte */
		len = build_req(buf, MRC_PKT_REQ, 0, 0, s);
		buf[MRC_HDR_LEN + offsetof(struct mrc_wire_req, reserved)] = 1;
		return len;
	case 8:		/* REQ rail reserved */
		len = build_req(buf, MRC_PKT_REQ, 0, 0, s);
		buf[MRC_REQ_LEN(0) + offsetof(struct mrc_wire_rail, reserved)] = 1;
		return len;
	case 9:		/* IPv4 rail with bytes after its address */
		len = build_req(buf, MRC_PKT_REQ, 0, 0, s);
		buf[MRC_REQ_LEN(0) + offsetof(struct mrc_wire_rail, family)] = 4;
		buf[MRC_REQ_LEN(0) + offsetof(struct mrc_wire_rail, addr) + 15] = 1;
		return len;
	case 10:	/* RESET flags */
		return build_reset(buf, 0x0001, d, s, MRC_RESET_ABORT);
	case 11:	/* PROBE flags (0x0001 is CHALLENGE) */
		return build_probe(buf, 0x0100, d, s, 1, 0);
	case 12:	/* PROBE reserved */
		return build_probe(buf, 0, d, s, 1, 0x0001);
	case 13:	/* REQ echo (an ACCEPT's field) */
		len = build_req(buf, MRC_PKT_REQ, 0, 0, s);
		buf[MRC_HDR_LEN + offsetof(struct mrc_wire_req, echo)] = 1;
		return len;
	default:	/* REQ padding, its last byte */
		len = build_req(buf, MRC_PKT_REQ, 0, 0, s);
		if (o.n_rails == MRC_WIRE_MAX_RAILS)	/* no padding: echo */
			buf[MRC_HDR_LEN + offsetof(struct mrc_wire_req, echo) + 3] = 1;
		else
			buf[len - 1] = 0x80;
		return len;
	}
}

/* Valid packet of a type, then a length that does not fit it. */
static size_t build_length(u8 *buf, unsigned long long v)
{
	u32 d = rnd_nonzero(), s = rnd_nonzero();
	size_t len;

	switch (v % 9) {
	case 0:		/* DATA cut inside its header */
		build_data(buf, MRC_PKT_DATA, 0, d, s, 0, 0, 16, 0, 16);
		return MRC_HDR_LEN + rnd() % sizeof(struct mrc_wire_data);
	case 1:		/* CLOSE with a payload */
		build_data(buf, MRC_PKT_CLOSE, 0, d, s, 0, 3, 0, 0, 0);
		memset(buf + MRC_DATA_HDR_LEN, 0xab, 8);
		return MRC_DATA_HDR_LEN + 1 + rnd() % 8;
	case 2:		/* ACK one byte short */
		return build_ack(buf, MRC_PKT_ACK, 0, d, s, 0, 0, 0, 0) - 1;
	case 3:		/* NACK with trailing bytes */
		len = build_ack(buf, MRC_PKT_NACK, 0, d, s, 0, 0, 0, 0);
		memset(buf + len, 0, 4);
		return len + 4;
	case 4:		/* REQ shorter than its fixed part */
		build_req(buf, MRC_PKT_REQ, 0, 0, s);
		return MRC_REQ_LEN(0) - 1 - rnd() % 8;
	case 5:		/* REQ not padded (as in version 1) */
		build_req(buf, MRC_PKT_REQ, 0, 0, s);
		return MRC_REQ_LEN(o.n_rails) - (o.n_rails == MRC_WIRE_MAX_RAILS);
	case 6:		/* ACCEPT with half a rail more */
		len = build_req(buf, MRC_PKT_ACCEPT, 0, d, s);
		memset(buf + len, 0, sizeof(struct mrc_wire_rail) / 2);
		return len + sizeof(struct mrc_wire_rail) / 2;
	case 7:		/* RESET with a trailing byte */
		len = build_reset(buf, 0, d, s, MRC_RESET_ABORT);
		buf[len] = 0;
		return len + 1;
	default:	/* PROBE one byte short */
		return build_probe(buf, 0, d, s, 1, 0) - 1;
	}
}

/* ---- sending --------------------------------------------------------------- */

static int out_fd = -1;
static unsigned long long sent, sent_bytes, errors;

/* -G: the burst being built, segments of gso_seg bytes */
static u8 gso_buf[MAX_GSO_SEGS * MAX_PKT];
static size_t gso_len, gso_seg;
static unsigned int gso_n;

/*
 * Send @m (@len bytes, @pkts packets) to -d, retrying while the socket is
 * out of buffer space; count what was sent, or the error.
 */
static void send_msg(int fd, struct msghdr *m, size_t len, unsigned int pkts)
{
	int tries;

	m->msg_name = &o.dst;
	m->msg_namelen = o.dst_len;
	for (tries = 0; tries < 100; tries++) {
		if (sendmsg(fd, m, 0) == (ssize_t)len) {
			sent += pkts;
			sent_bytes += len;
			return;
		}
		if (errno != ENOBUFS && errno != EAGAIN && errno != ECONNREFUSED)
			break;
		usleep(1000);
	}
	if (errors++ < 5)
		fprintf(stderr, "mrcinject: sendmsg%s: %s\n",
			m->msg_controllen ? " (UDP_SEGMENT)" : "", strerror(errno));
}

static void send_one(int fd, const u8 *buf, size_t len)
{
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };

	send_msg(fd, &m, len, 1);
}

/* Send the burst built so far: one sendmsg() with UDP_SEGMENT. */
static void gso_flush(int fd)
{
	char cbuf[CMSG_SPACE(sizeof(uint16_t))] = { 0 };
	struct iovec iov = { .iov_base = gso_buf, .iov_len = gso_len };
	struct msghdr m = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cm = CMSG_FIRSTHDR(&m);
	uint16_t seg = gso_seg;

	if (gso_n <= 1) {
		if (gso_n)
			send_one(fd, gso_buf, gso_len);
		gso_n = 0;
		gso_len = 0;
		return;
	}
	cm->cmsg_level = IPPROTO_UDP;
	cm->cmsg_type = UDP_SEGMENT;
	cm->cmsg_len = CMSG_LEN(sizeof(seg));
	memcpy(CMSG_DATA(cm), &seg, sizeof(seg));
	send_msg(fd, &m, gso_len, gso_n);
	gso_n = 0;
	gso_len = 0;
}

/*
 * Add a packet to the burst: every segment but the last has the first
 * one's size, so a longer packet starts a new burst and a shorter one
 * ends this one.  A burst stays within a UDP datagram (64 KiB) and each
 * segment within the path MTU (1500: 1472 bytes of UDP payload over
 * IPv4, 1452 over IPv6); an empty packet, or a longer one, goes alone.
 */
static void gso_add(int fd, const u8 *buf, size_t len)
{
	size_t mtu = o.dst.ss_family == AF_INET6 ? MAX_PKT - 20 : MAX_PKT;

	if (!len || len > mtu) {
		gso_flush(fd);
		send_one(fd, buf, len);
		return;
	}
	if (gso_n && (len > gso_seg || gso_n >= o.gso || gso_len + len > 65000))
		gso_flush(fd);
	if (!gso_n)
		gso_seg = len;
	memcpy(gso_buf + gso_len, buf, len);
	gso_len += len;
	gso_n++;
	if (len < gso_seg)
		gso_flush(fd);
}

static void send_pkt(int fd, const u8 *buf, size_t len)
{
	if (o.gso > 1)
		gso_add(fd, buf, len);
	else
		send_one(fd, buf, len);
}

/* ---- learning a connection's receive state ------------------------------- */

struct learned {
	u32 cum, rwnd, high;
};

static int sniff_fd = -1;

static void sniff_open(void)
{
	int one = 1;

	sniff_fd = socket(AF_PACKET, SOCK_DGRAM | SOCK_NONBLOCK, htons(ETH_P_ALL));
	if (sniff_fd < 0)
		die("packet socket (-L needs CAP_NET_RAW)");
#ifdef PACKET_IGNORE_OUTGOING
	setsockopt(sniff_fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof(one));
#endif
	(void)one;
}

/* Is @p (an IP packet) an ACK of connection -c to its peer -C? */
static int sniff_parse(const u8 *p, size_t n, int proto, struct learned *l)
{
	struct mrc_wire_hdr h;
	struct mrc_wire_ack a;
	size_t ip;
	u32 i, hi = 0;
	u64 w;

	if (proto == ETH_P_IP) {
		if (n < 20 || p[0] >> 4 != 4 || p[9] != IPPROTO_UDP)
			return 0;
		ip = (p[0] & 0xf) * 4;
	} else if (proto == ETH_P_IPV6) {
		if (n < 40 || p[0] >> 4 != 6 || p[6] != IPPROTO_UDP)
			return 0;
		ip = 40;
	} else {
		return 0;
	}
	if (n < ip + 8 + MRC_ACK_LEN || (unsigned int)(p[ip + 2] << 8 | p[ip + 3]) != o.dport)
		return 0;
	p += ip + 8;
	memcpy(&h, p, sizeof(h));
	if (h.version != MRC_WIRE_VERSION || h.type != MRC_PKT_ACK ||
	    be32_to_cpu(h.src_conn) != o.dconn || be32_to_cpu(h.dst_conn) != o.sconn)
		return 0;
	memcpy(&a, p + MRC_HDR_LEN, sizeof(a));
	l->cum = be32_to_cpu(a.cum_psn);
	l->rwnd = be32_to_cpu(a.rwnd_psn);
	for (i = 0; i < MRC_SACK_WORDS; i++) {
		w = be64_to_cpu(a.sack[i]);
		if (w)
			hi = 64 * i + 64 - __builtin_clzll(w);
	}
	l->high = hi ? be32_to_cpu(a.sack_base) + hi : l->cum;
	return 1;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* Is @p (an IP packet) a well-formed REQ from -d to port -p?  Then @pkt. */
static int sniff_req_parse(const u8 *p, size_t n, int proto, struct mrc_pkt *pkt,
			   size_t *len)
{
	const struct sockaddr_in6 *d6 = (const struct sockaddr_in6 *)&o.dst;
	const struct sockaddr_in *d4 = (const struct sockaddr_in *)&o.dst;
	size_t ip, ulen;

	if (proto == ETH_P_IP && o.dst.ss_family == AF_INET) {
		if (n < 20 || p[0] >> 4 != 4 || p[9] != IPPROTO_UDP ||
		    memcmp(p + 12, &d4->sin_addr, 4))
			return 0;
		ip = (p[0] & 0xf) * 4;
	} else if (proto == ETH_P_IPV6 && o.dst.ss_family == AF_INET6) {
		if (n < 40 || p[0] >> 4 != 6 || p[6] != IPPROTO_UDP ||
		    memcmp(p + 8, &d6->sin6_addr, 16))
			return 0;
		ip = 40;
	} else {
		return 0;
	}
	if (n < ip + 8 || (unsigned int)(p[ip + 2] << 8 | p[ip + 3]) != o.dport)
		return 0;
	ulen = (size_t)(p[ip + 4] << 8 | p[ip + 5]);
	if (ulen < 8 || ip + ulen > n)
		return 0;
	*len = ulen - 8;
	return mrc_wire_parse(p + ip + 8, *len, pkt) == MRC_DROP_NONE &&
	       pkt->type == MRC_PKT_REQ;
}

/* -Q: the next REQ that -d sends us, within @secs seconds. */
static int sniff_req(unsigned int secs)
{
	static u8 buf[65536];
	long long end = now_ms() + secs * 1000LL, t;
	struct pollfd pfd;
	struct sockaddr_ll sll;
	struct mrc_pkt pkt;
	socklen_t sl;
	size_t len;
	ssize_t n;

	sniff_open();
	pfd.fd = sniff_fd;
	pfd.events = POLLIN;
	for (;;) {
		t = now_ms();
		if (t >= end)
			break;
		if (poll(&pfd, 1, end - t) <= 0)
			continue;
		sl = sizeof(sll);
		n = recvfrom(sniff_fd, buf, sizeof(buf), 0, (struct sockaddr *)&sll, &sl);
		if (n < 0 || sll.sll_pkttype == PACKET_OUTGOING)
			continue;
		if (!sniff_req_parse(buf, n, ntohs(sll.sll_protocol), &pkt, &len))
			continue;
		printf("req src_conn=%08x isn=%08x len=%zu n_rails=%u dst_port=%u\n",
		       pkt.src_conn, be32_to_cpu(pkt.u.req.req.isn), len,
		       pkt.u.req.req.n_rails, be16_to_cpu(pkt.u.req.req.dst_port));
		return 0;
	}
	fprintf(stderr, "mrcinject: -Q: no REQ from the address -d in %u s\n", secs);
	return 1;
}

/*
 * The receive state of the connection now: forget what was captured
 * before (a full socket buffer holds stale packets), then take the next
 * ACK; if none comes within 20 ms, ask for one with a window PROBE (not
 * counted as sent), again every 100 ms, for at most 3 s.
 */
static void learn(struct learned *l)
{
	static u8 pkt[65536];
	long long start = now_ms(), probe_at = start + 20, t;
	struct sockaddr_ll sll;
	struct pollfd pfd = { .fd = sniff_fd, .events = POLLIN };
	socklen_t sl;
	ssize_t n;
	u8 probe[MRC_PROBE_LEN];

	while (recv(sniff_fd, pkt, sizeof(pkt), 0) >= 0)
		;
	for (;;) {
		t = now_ms();
		if (t - start >= 3000)
			break;
		if (t >= probe_at) {
			build_probe(probe, 0, o.dconn, o.sconn, 0, 0);
			if (sendto(out_fd, probe, sizeof(probe), 0,
				   (struct sockaddr *)&o.dst, o.dst_len) < 0)
				die("sendto (probe)");
			probe_at = t + 100;
		}
		if (poll(&pfd, 1, probe_at - t) <= 0)
			continue;
		sl = sizeof(sll);
		n = recvfrom(sniff_fd, pkt, sizeof(pkt), 0, (struct sockaddr *)&sll, &sl);
		if (n < 0 || sll.sll_pkttype == PACKET_OUTGOING)
			continue;
		if (sniff_parse(pkt, n, ntohs(sll.sll_protocol), l))
			return;
	}
	fprintf(stderr, "mrcinject: -L: no ACK of connection %08x to %08x seen\n",
		o.dconn, o.sconn);
	exit(1);
}

/* Build packet number @i of the kind into @buf; returns its length. */
static size_t build(u8 *buf, unsigned long long i)
{
	struct learned l;
	size_t len;
	u32 x;

	switch (o.kind) {
	case K_SHORT:
		len = i % MRC_HDR_LEN;
		mrc_wire_put_hdr(buf, MRC_PKT_DATA, 0, rnd_nonzero(), rnd_nonzero());
		return len;
	case K_VERSION:
		len = build_plain_data(buf, rnd_nonzero(), rnd_nonzero(), (u32)rnd());
		do {
			buf[0] = (u8)rnd();
		} while (buf[0] == MRC_WIRE_VERSION);
		return len;
	case K_TYPE:
		len = build_plain_data(buf, rnd_nonzero(), rnd_nonzero(), (u32)rnd());
		buf[1] = i & 1 ? 0 : __MRC_PKT_MAX + rnd() % (256 - __MRC_PKT_MAX);
		return len;
	case K_RESERVED:
		return build_reserved(buf, i);
	case K_LENGTH:
		return build_length(buf, i);
	case K_NO_CONN:
		return build_plain_data(buf, dconn(), sconn(), (u32)rnd());
	case K_BAD_SOURCE:
		return build_plain_data(buf, dconn(), sconn(),
					o.have_psn ? o.psn : (u32)rnd());
	case K_WINDOW:
		/* 2^30 beyond the window's start: ahead, whatever arrives meanwhile */
		if (o.learn) {
			learn(&l);
			if (o.verbose && !i)
				fprintf(stderr, "mrcinject: learned cum=%u high=%u rwnd=%u\n",
					l.cum, l.high, l.rwnd);
			x = l.cum + (1U << 30) + (u32)i;
		} else {
			x = o.have_psn ? o.psn + (u32)i : (u32)rnd();
		}
		return build_plain_data(buf, dconn(), sconn(), x);
	case K_HUGE:
		/*
		 * The last PSN of the credit: inside it (beyond it, the
		 * receiver drops anything as out-of-window) and, unless the
		 * sender is stalled on the credit, not yet sent, so the
		 * segment is checked against its message.
		 */
		if (o.learn) {
			learn(&l);
			if (o.verbose && !i)
				fprintf(stderr, "mrcinject: learned cum=%u high=%u rwnd=%u\n",
					l.cum, l.high, l.rwnd);
			x = l.rwnd - 1;
		} else {
			x = o.have_psn ? o.psn : (u32)rnd();
		}
		if (!o.have_msg_len && !o.have_offset)
			return build_data(buf, MRC_PKT_DATA, 0, dconn(), sconn(), x,
					  o.msg_id, 0xffffffffU, 0, o.payload);
		return build_data(buf, MRC_PKT_DATA, 0, dconn(), sconn(), x, o.msg_id,
				  o.have_msg_len ? o.msg_len : MAX_MSG_SIZE, o.offset,
				  o.payload);
	case K_BAD_ACK:
	case K_HOST_DELAY:
		/*
		 * PSNs x and x + 2^31: whatever the sender's next PSN, one of
		 * them is at or beyond it, i.e. was never sent (unless it falls
		 * in the packets in flight: a chance of 2^-20 or less).
		 */
		x = (u32)rnd();
		return build_ack(buf, MRC_PKT_ACK, 0, dconn(), sconn(),
				 o.have_cum ? o.cum : x,
				 o.have_base ? o.base : x + (1U << 31),
				 o.have_bits ? o.bits : 1,
				 o.have_trig ? o.trig : x);
	case K_BAD_ACK_DATA:
		/* K_BAD_ACK's ACK, on a DATA segment (a random PSN) */
		x = (u32)rnd();
		return build_data_ack(buf, dconn(), sconn(), (u32)rnd(),
				      o.have_cum ? o.cum : x,
				      o.have_base ? o.base : x + (1U << 31),
				      o.have_bits ? o.bits : 1, o.have_trig ? o.trig : x);
	case K_RESET_OTHER:
		return build_reset(buf, 0, dconn(), sconn(), o.reason);
	case K_REQ_FLOOD:
		/* distinct src ids: every REQ is a new connection */
		x = o.have_sconn ? o.sconn + (u32)i : (u32)rnd();
		return build_req(buf, MRC_PKT_REQ, 0, 0, x ? x : 1);
	case K_GARBAGE:
		len = rnd() % (MAX_PKT + 1);
		for (x = 0; x < len; x += 8) {
			u64 r = rnd();

			memcpy(buf + x, &r, 8);
		}
		return len;
	case K_PROBE:
		return build_probe(buf, 0, dconn(), sconn(), 0, 0);
	case K_ACCEPT:
		return build_req(buf, MRC_PKT_ACCEPT, 0, dconn(), sconn());
	default:
		bad_usage();
	}
	return 0;
}

static int do_listen(unsigned int port, unsigned int backlog, unsigned int secs,
		     const char *ready)
{
	struct sockaddr_mrc a;
	FILE *f = fopen(MRC_FAMILY_SYSFS, "r");
	int family = -1, fd;

	if (!f || fscanf(f, "%d", &family) != 1)
		die("reading " MRC_FAMILY_SYSFS);
	fclose(f);
	fd = socket(family, SOCK_SEQPACKET, 0);
	if (fd < 0)
		die("socket");
	memset(&a, 0, sizeof(a));
	a.smrc_family = family;
	a.smrc_port = htons(port);
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) || listen(fd, backlog))
		die("bind/listen");
	if (ready) {
		f = fopen(ready, "w");
		if (f)
			fclose(f);
	}
	printf("listening port=%u backlog=%u\n", port, backlog);
	fflush(stdout);
	sleep(secs);
	close(fd);
	return 0;
}

static int run(int argc, char **argv)
{
	static u8 buf[65536];
	unsigned int backlog = 4096, hold = 60;
	const char *dst = NULL, *src = NULL, *ready = NULL;
	struct mrc_pkt pkt;
	unsigned long long i;
	int opt, listen_mode = 0, sniff_mode = 0, want;
	enum mrc_drop_reason why;
	size_t len;
	unsigned int k;

	rng_state = (u64)time(NULL) << 20 ^ getpid();
	while ((opt = getopt(argc, argv, OPTSTRING)) != -1) {
		switch (opt) {
		case 'd':
			dst = optarg;
			break;
		case 'p':
			o.dport = num(optarg, 0);
			break;
		case 's':
			src = optarg;
			break;
		case 'P':
			o.sport = num(optarg, 0);
			break;
		case 'n':
			o.count = num(optarg, 0);
			break;
		case 'i':
			o.gap_us = num(optarg, 0);
			break;
		case 'c':
			o.dconn = num(optarg, 16);
			o.have_dconn = 1;
			break;
		case 'C':
			o.sconn = num(optarg, 16);
			o.have_sconn = 1;
			break;
		case 'S':
			rng_state = num(optarg, 0);
			break;
		case 'q':
			o.psn = num(optarg, 0);
			o.have_psn = 1;
			break;
		case 'L':
			o.learn = 1;
			break;
		case 'm':
			o.msg_id = num(optarg, 0);
			break;
		case 'M':
			o.msg_len = num(optarg, 0);
			o.have_msg_len = 1;
			break;
		case 'O':
			o.offset = num(optarg, 0);
			o.have_offset = 1;
			break;
		case 'z':
			o.payload = num(optarg, 0);
			break;
		case 'u':
			o.cum = num(optarg, 0);
			o.have_cum = 1;
			break;
		case 'T':
			o.trig = num(optarg, 0);
			o.have_trig = 1;
			break;
		case 'a':
			o.base = num(optarg, 0);
			o.have_base = 1;
			break;
		case 'b':
			o.bits = strtoull(optarg, NULL, 16);
			o.have_bits = 1;
			break;
		case 'R':
			o.reason = num(optarg, 0);
			break;
		case 'D':
			o.req_port = num(optarg, 0);
			break;
		case 'A':
			parse_rail(optarg);
			break;
		case 'v':
			o.verbose = 1;
			break;
		case 'l':
			listen_mode = 1;
			break;
		case 'B':
			backlog = num(optarg, 0);
			break;
		case 'w':
			hold = num(optarg, 0);
			break;
		case 'r':
			ready = optarg;
			break;
		case 'e':
			o.echo = num(optarg, 16);
			o.have_echo = 1;
			break;
		case 'U':
			o.unpadded = 1;
			break;
		case 'Q':
			sniff_mode = 1;
			break;
		case 'G':
			o.gso = num(optarg, 10);
			if (o.gso < 2 || o.gso > MAX_GSO_SEGS)
				bad_usage();
			break;
		case 'k':
			for (k = 0; k < __K_MAX; k++)
				if (!strcmp(optarg, kind_names[k]))
					o.kind = k;
			if (o.kind == __K_MAX) {
				fprintf(stderr, "mrcinject: unknown kind %s\n", optarg);
				bad_usage();
			}
			break;
		default:
			bad_usage();
		}
	}
	if (listen_mode) {
		if (!o.req_port)
			bad_usage();
		return do_listen(o.req_port, backlog, hold, ready);
	}
	if (sniff_mode) {
		if (!dst)
			bad_usage();
		o.dst_len = parse_addr(dst, &o.dst, o.dport);
		return sniff_req(hold);
	}
	if (!dst || o.kind == __K_MAX || o.payload > MAX_PKT - MRC_DATA_ACK_HDR_LEN)
		bad_usage();
	if (o.kind == K_REQ_FLOOD && !o.req_port) {
		fprintf(stderr, "mrcinject: req-flood needs -D PORT (the listener's mrc port)\n");
		exit(2);
	}
	if (o.learn && (!o.have_dconn || !o.have_sconn)) {
		fprintf(stderr, "mrcinject: -L needs -c and -C\n");
		exit(2);
	}
	o.dst_len = parse_addr(dst, &o.dst, o.dport);
	out_fd = socket(o.dst.ss_family, SOCK_DGRAM, 0);
	if (out_fd < 0)
		die("socket");
	if (src || o.sport) {
		socklen_t sl;

		if (src) {
			sl = parse_addr(src, &o.src, o.sport);
			o.have_src = 1;
		} else {
			memset(&o.src, 0, sizeof(o.src));
			o.src.ss_family = o.dst.ss_family;
			sl = o.dst.ss_family == AF_INET ? sizeof(struct sockaddr_in) :
							  sizeof(struct sockaddr_in6);
			((struct sockaddr_in *)&o.src)->sin_port = htons(o.sport);
		}
		if (o.src.ss_family != o.dst.ss_family) {
			fprintf(stderr, "mrcinject: -s and -d of different families\n");
			exit(2);
		}
		if (bind(out_fd, (struct sockaddr *)&o.src, sl))
			die("bind");
	}
	if (o.learn)
		sniff_open();

	for (i = 0; i < o.count; i++) {
		len = build(buf, i);
		/* The module's validator must agree with what the kind means. */
		why = mrc_wire_parse(buf, len, &pkt);
		want = kind_parse[o.kind];
		if (o.kind == K_REQ_FLOOD && o.unpadded)
			want = MRC_DROP_LENGTH;
		if (o.have_msg_len || o.have_offset || o.have_cum || o.have_trig ||
		    o.have_base || o.have_bits)
			want = -1;	/* the user's fields: whatever they make */
		if (want >= 0 && (int)why != want) {
			fprintf(stderr, "mrcinject: %s packet %llu (%zu bytes) %s %s, not %s\n",
				kind_names[o.kind], i, len, "parses as",
				mrc_wire_drop_reason_name(why),
				mrc_wire_drop_reason_name(want));
			exit(1);
		}
		send_pkt(out_fd, buf, len);
		if (o.gap_us)
			usleep(o.gap_us);
	}
	if (o.gso > 1)
		gso_flush(out_fd);
	printf("kind=%s sent=%llu bytes=%llu errors=%llu\n", kind_names[o.kind], sent,
	       sent_bytes, errors);
	return errors ? 1 : 0;
}

/*
 * -f FILE: one command line per line of FILE ("-": stdin), each run in a
 * child of its own, then "end rc=N".  A script keeps one mrcinject per
 * network namespace instead of starting a process per injection.
 */
static int batch(const char *file)
{
	FILE *f = strcmp(file, "-") ? fopen(file, "r") : stdin;
	char line[4096], *args[256], *tok;
	int n, status;
	pid_t pid;

	if (!f)
		die(file);
	setvbuf(stdout, NULL, _IOLBF, 0);
	while (fgets(line, sizeof(line), f)) {
		n = 0;
		args[n++] = "mrcinject";
		for (tok = strtok(line, " \t\n"); tok && n < 255; tok = strtok(NULL, " \t\n"))
			args[n++] = tok;
		args[n] = NULL;
		if (n == 1)
			continue;
		fflush(stdout);
		fflush(stderr);
		pid = fork();
		if (pid < 0)
			die("fork");
		if (!pid) {
			optind = 0;	/* glibc: start getopt() afresh */
			exit(run(n, args));
		}
		if (waitpid(pid, &status, 0) < 0)
			die("waitpid");
		printf("end rc=%d\n", WIFEXITED(status) ? WEXITSTATUS(status) : 128);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "-f"))
		return batch(argv[2]);
	return run(argc, argv);
}
