/* SPDX-License-Identifier: GPL-2.0 */
/*
 * core/wire.h - the mrc wire format, version 2 with capabilities
 * (Documentation/mrc/wire.rst).
 *
 * mrc packets are UDP payloads: IPv4 or IPv6 / UDP (destination port: the
 * mrc device's udp-port; source port: MRC_EV_SPORT(ev)) / mrc header /
 * type-specific part / payload.  Every field is big-endian, every struct
 * has a fixed size (checked with static asserts) and no padding.  Bits
 * and fields marked reserved must be zero: a packet with a reserved bit
 * set, an unknown version or type, or a length that does not match its
 * type is dropped and counted.  A capability (MRC_F_REQ_*) may give a
 * reserved bit or field a meaning on connections that negotiated it: the
 * ACK's host_delay_us, the DATA flags ACK and ACK_CE.
 */
#ifndef _MRC_CORE_WIRE_H
#define _MRC_CORE_WIRE_H

#include "types.h"

#define MRC_WIRE_VERSION	2

/* The entropy value (EV) is the UDP source port: 0xC000 | ev, ev < 2^14. */
#define MRC_EV_BITS		14
#define MRC_EV_MAX		((1U << MRC_EV_BITS) - 1)
#define MRC_EV_SPORT(ev)	(0xC000U | ((ev) & MRC_EV_MAX))

enum mrc_pkt_type {
	MRC_PKT_REQ = 1,	/* open a connection */
	MRC_PKT_ACCEPT = 2,	/* accept it */
	MRC_PKT_RESET = 3,	/* abort a connection (or refuse a REQ) */
	MRC_PKT_CLOSE = 4,	/* no more messages (reliable: has a PSN) */
	MRC_PKT_DATA = 5,	/* a segment of a message */
	MRC_PKT_ACK = 6,	/* selective acknowledgment */
	MRC_PKT_NACK = 7,	/* a packet was received but not accepted */
	MRC_PKT_PROBE = 8,	/* is this path alive? */
	MRC_PKT_PROBE_ACK = 9,	/* yes */
	__MRC_PKT_MAX,
};

/**
 * struct mrc_wire_hdr - common header of every mrc packet (12 bytes)
 * @version: MRC_WIRE_VERSION
 * @type: enum mrc_pkt_type
 * @flags: per type (MRC_F_*); undefined bits reserved
 * @dst_conn: the receiver's connection id (0 in a REQ)
 * @src_conn: the sender's connection id
 */
struct mrc_wire_hdr {
	u8 version;
	u8 type;
	__be16 flags;
	__be32 dst_conn;
	__be32 src_conn;
};

/*
 * DATA/CLOSE flags.  ACK (DATA only, and only to a peer whose REQ or
 * ACCEPT had MRC_F_REQ_ACK_DATA): an ACK part, a struct mrc_wire_ack
 * with the meaning of an ACK's, follows the DATA part, before the
 * payload; ACK_CE (only with ACK) is that ACK's MRC_F_ACK_CE.
 */
#define MRC_F_DATA_ACK_NOW	0x0001	/* please acknowledge without delay */
#define MRC_F_DATA_ACK		0x0002	/* an ACK part follows the DATA part */
#define MRC_F_DATA_ACK_CE	0x0004	/* the ACK part's trigger was CE-marked */
#define MRC_F_DATA_MASK		0x0007
/*
 * REQ/ACCEPT flags: capabilities.  A REQ offers them (a receiver ignores
 * bits it does not know, so a later capability needs no fallback), the
 * ACCEPT keeps those its sender supports too (only bits of the REQ's);
 * from then on both ends use what the ACCEPT has.  A version-2 receiver
 * drops a REQ with any flag (a reserved bit then): a client sends its
 * first REQ with its capabilities and the retransmissions without.
 * ACK_DATA: "I read ACK parts on DATA" (MRC_F_DATA_ACK).
 */
#define MRC_F_REQ_ACK_DATA	0x0001
#define MRC_F_REQ_HOST_DELAY	0x0002
#define MRC_F_REQ_MASK		0x0003
/* ACK/NACK flags */
#define MRC_F_ACK_CE		0x0001	/* the triggering packet was CE-marked */
#define MRC_F_ACK_MASK		0x0001
/*
 * PROBE/PROBE_ACK flags.  CHALLENGE: @seq and @stamp of the probe carry a
 * 64-bit random challenge sent to a peer rail not yet proven; the
 * PROBE_ACK echoes the body and the flag.
 */
#define MRC_F_PROBE_CHALLENGE	0x0001
#define MRC_F_PROBE_MASK	0x0001

/**
 * struct mrc_wire_data - DATA and CLOSE (24 bytes, then the payload)
 * @psn: packet sequence number; a retransmission reuses it
 * @msg_id: the message's number in the connection (0, 1, ...); in CLOSE:
 *	the number of messages the sender sent in all
 * @msg_len: the message's length in bytes (0 in CLOSE)
 * @offset: where the payload goes in the message
 * @ev: entropy value of this transmission (also the UDP source port)
 * @tx_count: 0 for the first transmission of @psn, then 1, 2, ...
 * @reserved: must be zero
 * @reserved2: must be zero
 *
 * The payload length is the UDP payload length minus the headers; every
 * segment but a message's last one carries exactly the connection's
 * segment size.
 */
struct mrc_wire_data {
	__be32 psn;
	__be32 msg_id;
	__be32 msg_len;
	__be32 offset;
	__be16 ev;
	u8 tx_count;
	u8 reserved;
	__be32 reserved2;
};

#define MRC_SACK_BITS		256
#define MRC_SACK_WORDS		(MRC_SACK_BITS / 64)

/**
 * struct mrc_wire_ack - ACK and NACK (64 bytes)
 * @cum_psn: every PSN before this one has been received
 * @sack_base: first PSN the bitmap describes
 * @sack: bit j of word i set: PSN @sack_base + 64 * i + j was received
 * @trig_psn: PSN of the packet that triggered this ACK
 * @trig_ev: the EV that packet came on
 * @trig_tx: its tx_count
 * @nack_reason: NACK: enum mrc_nack_reason; ACK: zero
 * @ce_count: CE-marked DATA/CLOSE packets received so far (wraps)
 * @rwnd_psn: flow-control credit: the receiver accepts PSNs below this
 * @ack_delay_us: microseconds between the trigger's arrival and this ACK
 * @host_delay_us: microseconds the trigger had waited in the receiving host
 *	when it arrived at mrc (0: not measured); zero unless the handshake
 *	settled MRC_F_REQ_HOST_DELAY
 */
struct mrc_wire_ack {
	__be32 cum_psn;
	__be32 sack_base;
	__be64 sack[MRC_SACK_WORDS];
	__be32 trig_psn;
	__be16 trig_ev;
	u8 trig_tx;
	u8 nack_reason;
	__be32 ce_count;
	__be32 rwnd_psn;
	__be32 ack_delay_us;
	__be32 host_delay_us;
};

enum mrc_nack_reason {
	MRC_NACK_NONE = 0,
	MRC_NACK_NO_BUFFER = 1,	/* beyond the credit or out of memory */
	MRC_NACK_BAD_DATA = 2,	/* inconsistent with the message */
	MRC_NACK_TRIMMED = 3,	/* a switch cut the payload: congestion */
	__MRC_NACK_MAX,
};

/**
 * struct mrc_wire_rail - one rail in a REQ/ACCEPT (20 bytes)
 * @plane: the rail's plane
 * @family: 4 or 6
 * @reserved: must be zero
 * @addr: IPv6 address, or IPv4 in the first four bytes (rest zero)
 */
struct mrc_wire_rail {
	u8 plane;
	u8 family;
	__be16 reserved;
	u8 addr[16];
};

#define MRC_WIRE_MAX_RAILS	32

/**
 * struct mrc_wire_req - REQ and ACCEPT (24 bytes, then @n_rails rails)
 * @dst_port: mrc port of the listener (REQ) / of the client (ACCEPT)
 * @src_port: mrc port of the sender
 * @isn: first PSN the sender will use; never 0 in a REQ (a RESET that
 *	answers a REQ carries it as its src_conn)
 * @rwnd: initial credit, in packets from the peer's isn
 * @max_payload: largest DATA payload the sender can receive
 * @n_rails: number of rails that follow (1..MRC_WIRE_MAX_RAILS)
 * @reserved: must be zero
 * @max_msg_size: largest message the sender accepts
 * @echo: ACCEPT: the @isn of the REQ it answers (never 0); REQ: reserved
 *
 * A REQ is padded with zero bytes after its rails to exactly
 * MRC_REQ_WIRE_LEN bytes, the largest ACCEPT there can be: an ACCEPT is
 * never larger than the REQ that caused it.  An ACCEPT is exactly
 * MRC_REQ_LEN(@n_rails) bytes.
 */
struct mrc_wire_req {
	__be16 dst_port;
	__be16 src_port;
	__be32 isn;
	__be32 rwnd;
	__be16 max_payload;
	u8 n_rails;
	u8 reserved;
	__be32 max_msg_size;
	__be32 echo;
};

/**
 * struct mrc_wire_reset - RESET (4 bytes)
 * @reason: enum mrc_reset_reason
 */
struct mrc_wire_reset {
	__be32 reason;
};

enum mrc_reset_reason {
	MRC_RESET_ABORT = 1,		/* the application aborted (SO_LINGER 0) */
	MRC_RESET_NO_LISTENER = 2,	/* REQ to a port nobody listens on */
	MRC_RESET_NO_CONN = 3,		/* packet for an unknown connection */
	MRC_RESET_PROTOCOL = 4,		/* the peer broke the protocol */
	MRC_RESET_BACKLOG = 5,		/* the listener's queue is full */
	MRC_RESET_TIMEOUT = 6,		/* the sender gave up on the peer */
	__MRC_RESET_MAX,
};

/**
 * struct mrc_wire_probe - PROBE and PROBE_ACK (12 bytes)
 * @seq: probe number, echoed (0: a window probe); with
 *	MRC_F_PROBE_CHALLENGE, the challenge's high 32 bits
 * @ev: EV probed, echoed
 * @reserved: must be zero
 * @stamp: sender's timestamp, echoed; with MRC_F_PROBE_CHALLENGE, the
 *	challenge's low 32 bits
 */
struct mrc_wire_probe {
	__be32 seq;
	__be16 ev;
	__be16 reserved;
	__be32 stamp;
};

#define MRC_HDR_LEN		sizeof(struct mrc_wire_hdr)
#define MRC_DATA_HDR_LEN	(MRC_HDR_LEN + sizeof(struct mrc_wire_data))
/* The headers of a DATA packet with an ACK part (MRC_F_DATA_ACK). */
#define MRC_DATA_ACK_HDR_LEN	(MRC_DATA_HDR_LEN + sizeof(struct mrc_wire_ack))
#define MRC_ACK_LEN		(MRC_HDR_LEN + sizeof(struct mrc_wire_ack))
#define MRC_REQ_LEN(n)		(MRC_HDR_LEN + sizeof(struct mrc_wire_req) + \
				 (n) * sizeof(struct mrc_wire_rail))
/* Every REQ, padded: the largest ACCEPT (676 bytes). */
#define MRC_REQ_WIRE_LEN	MRC_REQ_LEN(MRC_WIRE_MAX_RAILS)
#define MRC_RESET_LEN		(MRC_HDR_LEN + sizeof(struct mrc_wire_reset))
#define MRC_PROBE_LEN		(MRC_HDR_LEN + sizeof(struct mrc_wire_probe))

/* Why a received packet was dropped; each has its own counter. */
enum mrc_drop_reason {
	MRC_DROP_NONE = 0,
	MRC_DROP_SHORT,		/* shorter than its headers */
	MRC_DROP_VERSION,	/* unknown version */
	MRC_DROP_TYPE,		/* unknown type */
	MRC_DROP_RESERVED,	/* a reserved bit or field is set */
	MRC_DROP_LENGTH,	/* length does not match the type */
	MRC_DROP_BAD_FIELD,	/* a field is out of range */
	MRC_DROP_CSUM,		/* UDP checksum */
	MRC_DROP_NO_RAIL,	/* on a rail, but not at its device's udp-port */
	MRC_DROP_NO_CONN,	/* unknown connection */
	MRC_DROP_NO_LISTENER,	/* REQ for a port nobody listens on */
	MRC_DROP_BAD_SOURCE,	/* not from the connection's peer */
	MRC_DROP_STATE,		/* not expected in the connection's state */
	MRC_DROP_OUT_OF_WINDOW,	/* PSN outside the receive window */
	MRC_DROP_DUPLICATE,	/* PSN already received (or plane proven) */
	MRC_DROP_NO_BUFFER,	/* beyond the credit, or out of memory */
	MRC_DROP_BAD_DATA,	/* segment inconsistent with its message */
	MRC_DROP_MSG_TOO_BIG,	/* message above max-msg-size */
	MRC_DROP_BACKLOG,	/* half-open or accept queue full */
	MRC_DROP_BAD_ACK,	/* acknowledges PSNs never sent */
	MRC_DROP_TRIMMED,	/* payload cut by a switch: NACKed */
	__MRC_DROP_MAX,
};

/**
 * struct mrc_pkt - a parsed, validated packet header (host order)
 * @type: enum mrc_pkt_type
 * @flags: the header's flags
 * @dst_conn: receiver's connection id
 * @src_conn: sender's connection id
 * @hdr_len: bytes of headers (common + type-specific + rails, and a
 *	REQ's padding, or a DATA packet's ACK part)
 * @payload_len: bytes after the headers (DATA only; 0 otherwise)
 * @u: the type-specific part, still big-endian, copied out of the packet;
 *	but a REQ's or ACCEPT's rails (@u.req.rails), checked in place:
 *	they point into the parsed buffer and are valid as long as it is.
 *	A DATA packet with MRC_F_DATA_ACK has its ACK part in @u.dack,
 *	checked as an ACK's.
 */
struct mrc_pkt {
	u8 type;
	u16 flags;
	u32 dst_conn;
	u32 src_conn;
	u32 hdr_len;
	u32 payload_len;
	union {
		struct {
			struct mrc_wire_data data;
			struct mrc_wire_ack dack;
		};
		struct mrc_wire_ack ack;
		struct {
			struct mrc_wire_req req;
			const struct mrc_wire_rail *rails;
		} req;
		struct mrc_wire_reset reset;
		struct mrc_wire_probe probe;
	} u;
};

/**
 * mrc_wire_parse() - validate a packet and extract its headers
 * @buf: the UDP payload
 * @len: its length
 * @pkt: filled on success
 *
 * Checks version, type, lengths (a REQ: exactly MRC_REQ_WIRE_LEN, zero
 * padding), reserved bits and fields, and the ranges that do not depend
 * on connection state (n_rails, plane, family, a REQ's isn and an
 * ACCEPT's echo non-zero, DATA offset + payload within msg_len, a DATA
 * packet's ACK part as an ACK).  A REQ's flags are masked to the
 * capabilities we know.  Never reads past @len.
 *
 * Return: MRC_DROP_NONE, or why the packet must be dropped.
 */
enum mrc_drop_reason mrc_wire_parse(const void *buf, size_t len,
				    struct mrc_pkt *pkt);

/**
 * mrc_wire_hdr_need() - how much of a packet mrc_wire_parse() reads
 * @buf: the UDP payload, at least min(@len, MRC_HDR_LEN) bytes of it
 * @len: its whole length
 *
 * The receive path makes only this much linear: a DATA segment's payload
 * stays where the driver put it.  By the common header's type: DATA and
 * CLOSE their fixed headers (and a DATA packet's ACK part), a REQ or
 * ACCEPT all of it (up to the largest, MRC_REQ_WIRE_LEN), other types
 * their fixed length.
 *
 * Return: bytes from @buf that parsing reads, at most @len.
 */
size_t mrc_wire_hdr_need(const void *buf, size_t len);

/*
 * Builders: the module, mrcinject and the tests write packets with these
 * (host order in, wire order out), and mrc_wire_parse() reads them back.
 * Each writes its part at @buf, which has room for it (a REQ's or
 * ACCEPT's part: its rails and a REQ's padding too); @buf need not be
 * aligned.
 */

/**
 * mrc_wire_put_hdr() - write the common header (MRC_HDR_LEN bytes)
 * @buf: where
 * @type: enum mrc_pkt_type
 * @flags: MRC_F_* flags of @type
 * @dst_conn: the receiver's connection id (0 in a REQ)
 * @src_conn: the sender's connection id
 */
static inline void mrc_wire_put_hdr(void *buf, u8 type, u16 flags, u32 dst_conn,
				    u32 src_conn)
{
	struct mrc_wire_hdr h = {
		.version = MRC_WIRE_VERSION,
		.type = type,
		.flags = cpu_to_be16(flags),
		.dst_conn = cpu_to_be32(dst_conn),
		.src_conn = cpu_to_be32(src_conn),
	};

	memcpy(buf, &h, sizeof(h));
}

/**
 * struct mrc_data_info - a DATA or CLOSE header in host order
 * @psn: see struct mrc_wire_data
 * @msg_id: the message's number (CLOSE: messages sent in all)
 * @msg_len: its length (0 in CLOSE)
 * @offset: where the payload goes in the message
 * @ev: entropy value of the transmission
 * @tx_count: 0 for a first transmission, then 1, 2, ...
 */
struct mrc_data_info {
	u32 psn;
	u32 msg_id;
	u32 msg_len;
	u32 offset;
	u16 ev;
	u8 tx_count;
};

/**
 * mrc_wire_put_data() - write a DATA or CLOSE part (after the header)
 * @buf: where (sizeof(struct mrc_wire_data) bytes)
 * @d: its fields
 */
static inline void mrc_wire_put_data(void *buf, const struct mrc_data_info *d)
{
	struct mrc_wire_data w = {
		.psn = cpu_to_be32(d->psn),
		.msg_id = cpu_to_be32(d->msg_id),
		.msg_len = cpu_to_be32(d->msg_len),
		.offset = cpu_to_be32(d->offset),
		.ev = cpu_to_be16(d->ev),
		.tx_count = d->tx_count,
	};

	memcpy(buf, &w, sizeof(w));
}

/**
 * struct mrc_ack_info - an ACK or NACK in host order
 * @cum: every PSN before it arrived
 * @base: first PSN of @bits
 * @bits: SACK bitmap (see struct mrc_wire_ack)
 * @trig_psn: PSN of the packet that triggered the ACK
 * @trig_ev: its EV
 * @trig_tx: its tx_count
 * @nack_reason: enum mrc_nack_reason (MRC_NACK_NONE in an ACK)
 * @ce_count: CE-marked packets received so far
 * @rwnd_psn: the receiver's credit: it accepts PSNs below this
 * @ack_delay_us: receiver's delay before acknowledging
 * @host_delay_us: the trigger's wait in the receiving host before that
 */
struct mrc_ack_info {
	u32 cum;
	u32 base;
	u64 bits[MRC_SACK_WORDS];
	u32 trig_psn;
	u16 trig_ev;
	u8 trig_tx;
	u8 nack_reason;
	u32 ce_count;
	u32 rwnd_psn;
	u32 ack_delay_us;
	u32 host_delay_us;
};

/**
 * mrc_wire_put_ack() - write an ACK or NACK part (after the header)
 * @buf: where (sizeof(struct mrc_wire_ack) bytes)
 * @a: its fields
 */
void mrc_wire_put_ack(void *buf, const struct mrc_ack_info *a);

/**
 * mrc_wire_get_ack() - the fields of a parsed ACK or NACK, in host order
 * @w: its part, as mrc_wire_parse() copied it (struct mrc_pkt u.ack)
 * @a: filled
 */
void mrc_wire_get_ack(const struct mrc_wire_ack *w, struct mrc_ack_info *a);

/**
 * mrc_wire_put_reset() - write a RESET part (after the header)
 * @buf: where (sizeof(struct mrc_wire_reset) bytes)
 * @reason: enum mrc_reset_reason
 */
void mrc_wire_put_reset(void *buf, u32 reason);

/**
 * mrc_wire_put_probe() - write a PROBE or PROBE_ACK part (after the header)
 * @buf: where (sizeof(struct mrc_wire_probe) bytes)
 * @seq: probe number (0: a window probe), or a challenge's high half
 * @ev: EV probed
 * @stamp: the sender's timestamp, or a challenge's low half
 */
void mrc_wire_put_probe(void *buf, u32 seq, u16 ev, u32 stamp);

/**
 * struct mrc_req_info - a REQ or ACCEPT part in host order (rails apart)
 * @dst_port: see struct mrc_wire_req
 * @src_port: the sender's mrc port
 * @isn: its first PSN
 * @rwnd: its initial credit, in packets
 * @max_payload: the largest DATA payload it receives
 * @n_rails: rails that follow (1..MRC_WIRE_MAX_RAILS)
 * @max_msg_size: the largest message it accepts
 * @echo: ACCEPT: the REQ's isn; REQ: 0
 */
struct mrc_req_info {
	u16 dst_port;
	u16 src_port;
	u32 isn;
	u32 rwnd;
	u16 max_payload;
	u8 n_rails;
	u32 max_msg_size;
	u32 echo;
};

/**
 * mrc_wire_put_req() - write a REQ or ACCEPT part (after the header)
 * @buf: where: the part, @r->n_rails rails and a REQ's padding, up to
 *	MRC_REQ_WIRE_LEN - MRC_HDR_LEN bytes
 * @type: MRC_PKT_REQ or MRC_PKT_ACCEPT
 * @r: its fields
 *
 * The rails are zeroed, for mrc_wire_put_rail() to fill, and so is a
 * REQ's padding.
 *
 * Return: the packet's length with its header: MRC_REQ_WIRE_LEN for a
 * REQ, MRC_REQ_LEN(@r->n_rails) for an ACCEPT.
 */
size_t mrc_wire_put_req(void *buf, u8 type, const struct mrc_req_info *r);

/**
 * mrc_wire_put_rail() - write rail @i of a REQ or ACCEPT part
 * @buf: the part, as mrc_wire_put_req() wrote it
 * @i: the rail's index, below its n_rails
 * @plane: the rail's plane
 * @family: 4 or 6
 * @addr: 4 or 16 bytes, network order
 */
void mrc_wire_put_rail(void *buf, u32 i, u8 plane, u8 family, const void *addr);

/**
 * mrc_wire_drop_reason_name() - short name of a drop reason
 * @reason: enum mrc_drop_reason
 *
 * Return: a constant string such as "bad-checksum".
 */
const char *mrc_wire_drop_reason_name(unsigned int reason);

#endif /* _MRC_CORE_WIRE_H */
