// SPDX-License-Identifier: GPL-2.0
/*
 * core/wire.c - validation of received mrc packets (wire format v2 with
 * capabilities), and the builders of the packets we send (at the end).
 *
 * Everything the parser reads is attacker-controlled: every field is read from a
 * local copy made after the length was checked (a REQ's or ACCEPT's
 * rails are checked where they lie: pkt->u.req.rails points there), and
 * every check is done before the packet is believed.  Checks run in a
 * fixed order (length first, then mostly reserved bits and fields before
 * field ranges, the connection ids last), so each malformed packet has
 * one well-defined drop reason.
 */
#include "types.h"
#include "wire.h"

/* Number of planes (struct mrc_wire_rail.plane is below this). */
#define MRC_WIRE_PLANES		32
/* Smallest max_payload a REQ/ACCEPT may announce. */
#define MRC_WIRE_MIN_PAYLOAD	64

/* An ACK's part (a NACK's if @nack), on its own or on DATA. */
static enum mrc_drop_reason check_ack(const struct mrc_wire_ack *a, bool nack)
{
	if (!nack) {
		if (a->nack_reason != MRC_NACK_NONE)
			return MRC_DROP_BAD_FIELD;
	} else if (a->nack_reason == MRC_NACK_NONE ||
		   a->nack_reason >= __MRC_NACK_MAX) {
		return MRC_DROP_BAD_FIELD;
	}
	if (be16_to_cpu(a->trig_ev) > MRC_EV_MAX)
		return MRC_DROP_BAD_FIELD;
	return MRC_DROP_NONE;
}

static enum mrc_drop_reason parse_data(const u8 *buf, size_t len, struct mrc_pkt *pkt)
{
	u32 hdr = pkt->flags & MRC_F_DATA_ACK ? MRC_DATA_ACK_HDR_LEN : MRC_DATA_HDR_LEN;
	enum mrc_drop_reason why;
	struct mrc_wire_data d;
	u32 msg_len, offset;
	u64 payload;

	if (len < hdr)		/* len >= MRC_DATA_HDR_LEN */
		return MRC_DROP_LENGTH;
	payload = len - hdr;
	memcpy(&d, buf + MRC_HDR_LEN, sizeof(d));
	if (pkt->type == MRC_PKT_CLOSE && payload)
		return MRC_DROP_LENGTH;
	if (pkt->flags & ~MRC_F_DATA_MASK)
		return MRC_DROP_RESERVED;
	/* An ACK part: only on DATA, and its CE flag only with it. */
	if ((pkt->flags & MRC_F_DATA_ACK_CE && !(pkt->flags & MRC_F_DATA_ACK)) ||
	    (pkt->flags & MRC_F_DATA_ACK && pkt->type == MRC_PKT_CLOSE))
		return MRC_DROP_RESERVED;
	if (d.reserved || d.reserved2)
		return MRC_DROP_RESERVED;
	if (pkt->flags & MRC_F_DATA_ACK) {
		memcpy(&pkt->u.dack, buf + MRC_DATA_HDR_LEN, sizeof(pkt->u.dack));
		why = check_ack(&pkt->u.dack, false);
		if (why)
			return why;
	}
	if (be16_to_cpu(d.ev) > MRC_EV_MAX)
		return MRC_DROP_BAD_FIELD;

	msg_len = be32_to_cpu(d.msg_len);
	offset = be32_to_cpu(d.offset);
	if (pkt->type == MRC_PKT_CLOSE) {
		if (msg_len || offset)
			return MRC_DROP_BAD_FIELD;
	} else {
		/*
		 * A message has 1..N bytes; each segment at least one, but
		 * a switch may have trimmed it to its headers (recv.c
		 * NACKs that): offset < msg_len and offset + payload <=
		 * msg_len, without overflow.
		 */
		if (!msg_len || offset >= msg_len || payload > msg_len - offset)
			return MRC_DROP_BAD_FIELD;
	}

	pkt->hdr_len = hdr;
	pkt->payload_len = (u32)payload;	/* <= msg_len, fits */
	pkt->u.data = d;
	return MRC_DROP_NONE;
}

static enum mrc_drop_reason parse_ack(const u8 *buf, size_t len, struct mrc_pkt *pkt)
{
	enum mrc_drop_reason why;
	struct mrc_wire_ack a;

	if (len != MRC_ACK_LEN)
		return MRC_DROP_LENGTH;
	memcpy(&a, buf + MRC_HDR_LEN, sizeof(a));
	if (pkt->flags & ~MRC_F_ACK_MASK)
		return MRC_DROP_RESERVED;
	why = check_ack(&a, pkt->type == MRC_PKT_NACK);
	if (why)
		return why;

	pkt->hdr_len = MRC_ACK_LEN;
	pkt->u.ack = a;
	return MRC_DROP_NONE;
}

static enum mrc_drop_reason check_rail(const struct mrc_wire_rail *r)
{
	unsigned int i;

	if (r->reserved)
		return MRC_DROP_RESERVED;
	if (r->family == 4) {
		/* An IPv4 address uses the first four bytes only. */
		for (i = 4; i < sizeof(r->addr); i++)
			if (r->addr[i])
				return MRC_DROP_RESERVED;
	} else if (r->family != 6) {
		return MRC_DROP_BAD_FIELD;
	}
	if (r->plane >= MRC_WIRE_PLANES)
		return MRC_DROP_BAD_FIELD;
	return MRC_DROP_NONE;
}

/*
 * REQ and ACCEPT.  A REQ is padded with zeros to MRC_REQ_WIRE_LEN, the
 * largest ACCEPT, so that no ACCEPT is larger than the REQ it answers (a
 * REQ's source may be forged); an ACCEPT is exactly its rails long.
 */
static enum mrc_drop_reason parse_req(const u8 *buf, size_t len, struct mrc_pkt *pkt)
{
	const u8 *rails = buf + MRC_REQ_LEN(0);
	bool is_req = pkt->type == MRC_PKT_REQ;
	enum mrc_drop_reason why;
	struct mrc_wire_req q;
	unsigned int i, n;

	if (len < MRC_REQ_LEN(0))
		return MRC_DROP_LENGTH;
	memcpy(&q, buf + MRC_HDR_LEN, sizeof(q));
	n = q.n_rails;
	if (len != (is_req ? MRC_REQ_WIRE_LEN : MRC_REQ_LEN(n)))
		return MRC_DROP_LENGTH;
	/* A REQ's unknown capabilities are ignored, an ACCEPT's are not. */
	if (is_req)
		pkt->flags &= MRC_F_REQ_MASK;
	else if (pkt->flags & ~MRC_F_REQ_MASK)
		return MRC_DROP_RESERVED;
	if (q.reserved || (is_req && q.echo))
		return MRC_DROP_RESERVED;
	if (n < 1 || n > MRC_WIRE_MAX_RAILS)
		return MRC_DROP_BAD_FIELD;
	/* n <= MRC_WIRE_MAX_RAILS: a REQ's padding is within len. */
	for (i = MRC_REQ_LEN(n); is_req && i < len; i++)
		if (buf[i])
			return MRC_DROP_RESERVED;
	if (be16_to_cpu(q.max_payload) < MRC_WIRE_MIN_PAYLOAD ||
	    !be32_to_cpu(q.max_msg_size))
		return MRC_DROP_BAD_FIELD;
	if (is_req && pkt->dst_conn)
		return MRC_DROP_BAD_FIELD;
	/* A RESET answering a REQ carries its isn; an ACCEPT echoes it. */
	if (is_req ? !q.isn : !q.echo)
		return MRC_DROP_BAD_FIELD;

	/* len is MRC_REQ_LEN(n) or more: every rail is within @buf. */
	for (i = 0; i < n; i++) {
		struct mrc_wire_rail r;

		memcpy(&r, rails + i * sizeof(r), sizeof(r));
		why = check_rail(&r);
		if (why)
			return why;
	}
	pkt->u.req.rails = (const struct mrc_wire_rail *)rails;

	pkt->hdr_len = len;	/* a REQ's padding is header too */
	pkt->u.req.req = q;
	return MRC_DROP_NONE;
}

static enum mrc_drop_reason parse_reset(const u8 *buf, size_t len, struct mrc_pkt *pkt)
{
	struct mrc_wire_reset r;
	u32 reason;

	if (len != MRC_RESET_LEN)
		return MRC_DROP_LENGTH;
	memcpy(&r, buf + MRC_HDR_LEN, sizeof(r));
	if (pkt->flags)
		return MRC_DROP_RESERVED;
	reason = be32_to_cpu(r.reason);
	if (reason < MRC_RESET_ABORT || reason >= __MRC_RESET_MAX)
		return MRC_DROP_BAD_FIELD;

	pkt->hdr_len = MRC_RESET_LEN;
	pkt->u.reset = r;
	return MRC_DROP_NONE;
}

static enum mrc_drop_reason parse_probe(const u8 *buf, size_t len, struct mrc_pkt *pkt)
{
	struct mrc_wire_probe p;

	if (len != MRC_PROBE_LEN)
		return MRC_DROP_LENGTH;
	memcpy(&p, buf + MRC_HDR_LEN, sizeof(p));
	if (pkt->flags & ~MRC_F_PROBE_MASK || p.reserved)
		return MRC_DROP_RESERVED;
	if (be16_to_cpu(p.ev) > MRC_EV_MAX)
		return MRC_DROP_BAD_FIELD;

	pkt->hdr_len = MRC_PROBE_LEN;
	pkt->u.probe = p;
	return MRC_DROP_NONE;
}

enum mrc_drop_reason mrc_wire_parse(const void *buf, size_t len,
				    struct mrc_pkt *pkt)
{
	struct mrc_wire_hdr h;
	enum mrc_drop_reason why;

	if (len < MRC_HDR_LEN)
		return MRC_DROP_SHORT;
	memcpy(&h, buf, sizeof(h));
	if (h.version != MRC_WIRE_VERSION)
		return MRC_DROP_VERSION;
	if (h.type == 0 || h.type >= __MRC_PKT_MAX)
		return MRC_DROP_TYPE;

	pkt->type = h.type;
	pkt->flags = be16_to_cpu(h.flags);
	pkt->dst_conn = be32_to_cpu(h.dst_conn);
	pkt->src_conn = be32_to_cpu(h.src_conn);
	pkt->payload_len = 0;

	switch (h.type) {
	case MRC_PKT_DATA:
	case MRC_PKT_CLOSE:
		if (len < MRC_DATA_HDR_LEN)
			return MRC_DROP_LENGTH;
		why = parse_data(buf, len, pkt);
		break;
	case MRC_PKT_ACK:
	case MRC_PKT_NACK:
		why = parse_ack(buf, len, pkt);
		break;
	case MRC_PKT_REQ:
	case MRC_PKT_ACCEPT:
		why = parse_req(buf, len, pkt);
		break;
	case MRC_PKT_RESET:
		why = parse_reset(buf, len, pkt);
		break;
	default:	/* MRC_PKT_PROBE, MRC_PKT_PROBE_ACK */
		why = parse_probe(buf, len, pkt);
		break;
	}
	if (why)
		return why;

	/* Connection ids: only a REQ does not know its receiver's yet. */
	if (!pkt->src_conn || (h.type != MRC_PKT_REQ && !pkt->dst_conn))
		return MRC_DROP_BAD_FIELD;
	return MRC_DROP_NONE;
}

size_t mrc_wire_hdr_need(const void *buf, size_t len)
{
	struct mrc_wire_hdr h;
	size_t need;

	if (len < MRC_HDR_LEN)
		return len;
	memcpy(&h, buf, sizeof(h));
	switch (h.type) {
	case MRC_PKT_DATA:
	case MRC_PKT_CLOSE:
		need = be16_to_cpu(h.flags) & MRC_F_DATA_ACK ?
		       MRC_DATA_ACK_HDR_LEN : MRC_DATA_HDR_LEN;
		break;
	case MRC_PKT_ACK:
	case MRC_PKT_NACK:
		need = MRC_ACK_LEN;
		break;
	case MRC_PKT_REQ:
	case MRC_PKT_ACCEPT:
		need = MRC_REQ_WIRE_LEN;
		break;
	case MRC_PKT_RESET:
		need = MRC_RESET_LEN;
		break;
	case MRC_PKT_PROBE:
	case MRC_PKT_PROBE_ACK:
		need = MRC_PROBE_LEN;
		break;
	default:
		need = MRC_HDR_LEN;
		break;
	}
	return need < len ? need : len;
}

/*
 * The builders fill a local struct and copy it out: a part starts 12
 * bytes into a packet, and an skb's data has no alignment to promise
 * (an ACK's __be64 words would be misaligned in place).  The header and
 * DATA builders, written once per packet sent, are inline in wire.h.
 */
void mrc_wire_put_ack(void *buf, const struct mrc_ack_info *a)
{
	struct mrc_wire_ack w = {
		.cum_psn = cpu_to_be32(a->cum),
		.sack_base = cpu_to_be32(a->base),
		.trig_psn = cpu_to_be32(a->trig_psn),
		.trig_ev = cpu_to_be16(a->trig_ev),
		.trig_tx = a->trig_tx,
		.nack_reason = a->nack_reason,
		.ce_count = cpu_to_be32(a->ce_count),
		.rwnd_psn = cpu_to_be32(a->rwnd_psn),
		.ack_delay_us = cpu_to_be32(a->ack_delay_us),
		.host_delay_us = cpu_to_be32(a->host_delay_us),
	};
	int i;

	for (i = 0; i < MRC_SACK_WORDS; i++)
		w.sack[i] = cpu_to_be64(a->bits[i]);
	memcpy(buf, &w, sizeof(w));
}

void mrc_wire_get_ack(const struct mrc_wire_ack *w, struct mrc_ack_info *a)
{
	int i;

	a->cum = be32_to_cpu(w->cum_psn);
	a->base = be32_to_cpu(w->sack_base);
	for (i = 0; i < MRC_SACK_WORDS; i++)
		a->bits[i] = be64_to_cpu(w->sack[i]);
	a->trig_psn = be32_to_cpu(w->trig_psn);
	a->trig_ev = be16_to_cpu(w->trig_ev);
	a->trig_tx = w->trig_tx;
	a->nack_reason = w->nack_reason;
	a->ce_count = be32_to_cpu(w->ce_count);
	a->rwnd_psn = be32_to_cpu(w->rwnd_psn);
	a->ack_delay_us = be32_to_cpu(w->ack_delay_us);
	a->host_delay_us = be32_to_cpu(w->host_delay_us);
}

void mrc_wire_put_reset(void *buf, u32 reason)
{
	struct mrc_wire_reset w = { .reason = cpu_to_be32(reason) };

	memcpy(buf, &w, sizeof(w));
}

void mrc_wire_put_probe(void *buf, u32 seq, u16 ev, u32 stamp)
{
	struct mrc_wire_probe w = {
		.seq = cpu_to_be32(seq),
		.ev = cpu_to_be16(ev),
		.stamp = cpu_to_be32(stamp),
	};

	memcpy(buf, &w, sizeof(w));
}

size_t mrc_wire_put_req(void *buf, u8 type, const struct mrc_req_info *r)
{
	size_t len = type == MRC_PKT_REQ ? MRC_REQ_WIRE_LEN : MRC_REQ_LEN(r->n_rails);
	struct mrc_wire_req w = {
		.dst_port = cpu_to_be16(r->dst_port),
		.src_port = cpu_to_be16(r->src_port),
		.isn = cpu_to_be32(r->isn),
		.rwnd = cpu_to_be32(r->rwnd),
		.max_payload = cpu_to_be16(r->max_payload),
		.n_rails = r->n_rails,
		.max_msg_size = cpu_to_be32(r->max_msg_size),
		.echo = cpu_to_be32(r->echo),
	};

	memset((u8 *)buf + sizeof(w), 0, len - MRC_HDR_LEN - sizeof(w));
	memcpy(buf, &w, sizeof(w));
	return len;
}

void mrc_wire_put_rail(void *buf, u32 i, u8 plane, u8 family, const void *addr)
{
	struct mrc_wire_rail w = { .plane = plane, .family = family };

	memcpy(w.addr, addr, family == 4 ? 4 : 16);
	memcpy((u8 *)buf + sizeof(struct mrc_wire_req) + i * sizeof(w), &w, sizeof(w));
}

static const char * const mrc_drop_names[__MRC_DROP_MAX] = {
	[MRC_DROP_NONE]		= "none",
	[MRC_DROP_SHORT]	= "short",
	[MRC_DROP_VERSION]	= "version",
	[MRC_DROP_TYPE]		= "type",
	[MRC_DROP_RESERVED]	= "reserved",
	[MRC_DROP_LENGTH]	= "length",
	[MRC_DROP_BAD_FIELD]	= "bad-field",
	[MRC_DROP_CSUM]		= "bad-checksum",
	[MRC_DROP_NO_RAIL]	= "no-rail",
	[MRC_DROP_NO_CONN]	= "no-conn",
	[MRC_DROP_NO_LISTENER]	= "no-listener",
	[MRC_DROP_BAD_SOURCE]	= "bad-source",
	[MRC_DROP_STATE]	= "state",
	[MRC_DROP_OUT_OF_WINDOW] = "out-of-window",
	[MRC_DROP_DUPLICATE]	= "duplicate",
	[MRC_DROP_NO_BUFFER]	= "no-buffer",
	[MRC_DROP_BAD_DATA]	= "bad-data",
	[MRC_DROP_MSG_TOO_BIG]	= "msg-too-big",
	[MRC_DROP_BACKLOG]	= "backlog",
	[MRC_DROP_BAD_ACK]	= "bad-ack",
	[MRC_DROP_TRIMMED]	= "trimmed",
};

const char *mrc_wire_drop_reason_name(unsigned int reason)
{
	if (reason >= __MRC_DROP_MAX || !mrc_drop_names[reason])
		return "unknown";
	return mrc_drop_names[reason];
}
