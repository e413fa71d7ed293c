// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_wire - arbitrary bytes into mrc_wire_parse() (core/wire.c).
 *
 * The input is one UDP payload.  It is parsed from a heap copy of exactly
 * its length (ASan sees any read past it), and:
 *  - the verdict must agree with an independent oracle written from the
 *    wire layout by byte offsets (wire.h, Documentation/mrc/wire.rst);
 *    a drop reason must be one the packet really deserves (a length
 *    mismatch is always reported as such: lengths are checked first);
 *  - an accepted packet must satisfy everything wire.h promises: known
 *    type, header length of its type, lengths within the buffer, payload
 *    only in DATA, reserved bits and fields zero, fields in range, the
 *    type-specific part copied unchanged; a REQ exactly 676 bytes (no
 *    ACCEPT is larger) with zero padding, an isn and no echo, an ACCEPT
 *    with an echo;
 *  - round trip: a packet rebuilt from struct mrc_pkt with core/wire.c's
 *    builders (the module's) must be the input's header bytes again, and
 *    parse to the same struct mrc_pkt;
 *  - the parser must not write to its input.
 */
#include <stddef.h>
#include "fuzz.h"
#include "core/wire.h"
#include "../wire_rebuild.h"

/* wire.c's limits, documented in wire.rst. */
#define PLANES		32
#define MIN_PAYLOAD	64
#define REQ_BYTES	676	/* every REQ, padded: 12 + 24 + 32 rails */

static u16 r16(const u8 *p)
{
	return (u16)(p[0] << 8 | p[1]);
}

static u32 r32(const u8 *p)
{
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
}

#define BIT_OF(reason)	(1U << (reason))

/*
 * The oracle: the set of drop reasons the packet deserves (0: valid).
 * A length that does not fit the type is reported in *len_bad: the parser
 * checks lengths first, so it must then say MRC_DROP_LENGTH.
 */
static u32 oracle(const u8 *b, size_t len, bool *len_bad)
{
	u32 why = 0, n, i, j, msg_len, off, reason, hdr;
	const u8 *r;
	u64 plen;
	u16 flags;

	*len_bad = false;
	if (len < 12)
		return BIT_OF(MRC_DROP_SHORT);
	if (b[0] != 2)
		return BIT_OF(MRC_DROP_VERSION);
	if (b[1] < 1 || b[1] > 9)
		return BIT_OF(MRC_DROP_TYPE);
	flags = r16(b + 2);

	switch (b[1]) {
	case MRC_PKT_DATA:
	case MRC_PKT_CLOSE:
		/* flag 2: an ACK part (64 bytes) follows; 4: its CE flag */
		hdr = flags & 2 ? 100 : 36;
		if (len < hdr) {
			*len_bad = true;
			return BIT_OF(MRC_DROP_LENGTH);
		}
		plen = len - hdr;
		if (b[1] == MRC_PKT_CLOSE && plen) {
			*len_bad = true;
			return BIT_OF(MRC_DROP_LENGTH);
		}
		if (flags & ~7U || (flags & 6) == 4 || b[31] || r32(b + 32) ||
		    (flags & 2 && b[1] == MRC_PKT_CLOSE))
			why |= BIT_OF(MRC_DROP_RESERVED);
		/* (the ACK part's last word, host_delay_us, is any value) */
		if (flags & 2 && b[1] == MRC_PKT_DATA) {
			if (b[83] || r16(b + 80) > 0x3fff)	/* reason, trig_ev */
				why |= BIT_OF(MRC_DROP_BAD_FIELD);
		}
		if (r16(b + 28) > 0x3fff)
			why |= BIT_OF(MRC_DROP_BAD_FIELD);
		msg_len = r32(b + 20);
		off = r32(b + 24);
		if (b[1] == MRC_PKT_CLOSE) {
			if (msg_len || off)
				why |= BIT_OF(MRC_DROP_BAD_FIELD);
		} else if (!msg_len || off >= msg_len || (u64)off + plen > msg_len) {
			why |= BIT_OF(MRC_DROP_BAD_FIELD);
		}
		break;
	case MRC_PKT_ACK:
	case MRC_PKT_NACK:
		if (len != 76) {
			*len_bad = true;
			return BIT_OF(MRC_DROP_LENGTH);
		}
		if (flags & ~1U)	/* (host_delay_us at 72: any value) */
			why |= BIT_OF(MRC_DROP_RESERVED);
		if (b[1] == MRC_PKT_ACK ? b[59] != 0 : (b[59] < 1 || b[59] > 3))
			why |= BIT_OF(MRC_DROP_BAD_FIELD);
		if (r16(b + 56) > 0x3fff)
			why |= BIT_OF(MRC_DROP_BAD_FIELD);
		break;
	case MRC_PKT_REQ:
	case MRC_PKT_ACCEPT:
		/* A REQ: always 676 bytes; an ACCEPT: 36 + 20 per rail. */
		if (len < 36 || len != (b[1] == MRC_PKT_REQ ? REQ_BYTES :
					36 + 20 * (size_t)b[26])) {
			*len_bad = true;
			return BIT_OF(MRC_DROP_LENGTH);
		}
		n = b[26];
		/* a REQ ignores unknown capabilities, an ACCEPT has 1 and 2 */
		if ((b[1] == MRC_PKT_ACCEPT && flags & ~3U) || b[27])
			why |= BIT_OF(MRC_DROP_RESERVED);
		if (n < 1 || n > 32 || r16(b + 24) < MIN_PAYLOAD || !r32(b + 28))
			why |= BIT_OF(MRC_DROP_BAD_FIELD);
		if (b[1] == MRC_PKT_REQ) {
			if (r32(b + 4) || !r32(b + 16))		/* dst_conn, isn */
				why |= BIT_OF(MRC_DROP_BAD_FIELD);
			if (r32(b + 32))			/* echo */
				why |= BIT_OF(MRC_DROP_RESERVED);
			for (i = 36 + 20 * (n > 32 ? 32 : n); i < len; i++)
				if (b[i])			/* padding */
					why |= BIT_OF(MRC_DROP_RESERVED);
			if (n > 32)
				n = 0;		/* rails: undefined */
		} else if (!r32(b + 32)) {
			why |= BIT_OF(MRC_DROP_BAD_FIELD);	/* echo */
		}
		for (i = 0; i < n; i++) {
			r = b + 36 + 20 * i;
			if (r[2] || r[3])
				why |= BIT_OF(MRC_DROP_RESERVED);
			if (r[1] == 4) {
				for (j = 8; j < 20; j++)
					if (r[j])
						why |= BIT_OF(MRC_DROP_RESERVED);
			} else if (r[1] != 6) {
				why |= BIT_OF(MRC_DROP_BAD_FIELD);
			}
			if (r[0] >= PLANES)
				why |= BIT_OF(MRC_DROP_BAD_FIELD);
		}
		break;
	case MRC_PKT_RESET:
		if (len != 16) {
			*len_bad = true;
			return BIT_OF(MRC_DROP_LENGTH);
		}
		if (flags)
			why |= BIT_OF(MRC_DROP_RESERVED);
		reason = r32(b + 12);
		if (reason < 1 || reason > 6)
			why |= BIT_OF(MRC_DROP_BAD_FIELD);
		break;
	default:	/* PROBE, PROBE_ACK; flag 1: CHALLENGE */
		if (len != 24) {
			*len_bad = true;
			return BIT_OF(MRC_DROP_LENGTH);
		}
		if (flags & ~1U || r16(b + 18))
			why |= BIT_OF(MRC_DROP_RESERVED);
		if (r16(b + 16) > 0x3fff)
			why |= BIT_OF(MRC_DROP_BAD_FIELD);
		break;
	}
	/* Connection ids: only a REQ has no dst_conn. */
	if (!r32(b + 8) || (b[1] != MRC_PKT_REQ && !r32(b + 4)))
		why |= BIT_OF(MRC_DROP_BAD_FIELD);
	return why;
}

/* What wire.h promises about an accepted packet, checked on the struct. */
static void check_accepted(const u8 *b, size_t len, const struct mrc_pkt *pkt)
{
	const struct mrc_wire_data *d = &pkt->u.data;
	const struct mrc_wire_ack *a = &pkt->u.ack;
	const struct mrc_wire_req *q = &pkt->u.req.req;
	u32 hdr = 0, i, j, msg_len, off;

	FUZZ_CHECK(b[0] == MRC_WIRE_VERSION, "version %u", b[0]);
	FUZZ_CHECK(pkt->type >= MRC_PKT_REQ && pkt->type < __MRC_PKT_MAX &&
		   pkt->type == b[1], "type %u, byte %u", pkt->type, b[1]);
	FUZZ_CHECK(pkt->flags == (r16(b + 2) & (b[1] == MRC_PKT_REQ ? MRC_F_REQ_MASK : 0xffff)) &&
		   pkt->dst_conn == r32(b + 4) &&
		   pkt->src_conn == r32(b + 8), "common header not copied");
	FUZZ_CHECK(pkt->src_conn, "src_conn 0 accepted");
	FUZZ_CHECK(pkt->type == MRC_PKT_REQ ? !pkt->dst_conn : !!pkt->dst_conn,
		   "type %u dst_conn %u", pkt->type, pkt->dst_conn);
	FUZZ_CHECK(pkt->hdr_len <= len && pkt->payload_len <= len - pkt->hdr_len,
		   "hdr_len %u payload_len %u len %zu", pkt->hdr_len,
		   pkt->payload_len, len);
	FUZZ_CHECK((size_t)pkt->hdr_len + pkt->payload_len == len,
		   "hdr_len %u + payload_len %u != len %zu", pkt->hdr_len,
		   pkt->payload_len, len);
	if (pkt->type != MRC_PKT_DATA)
		FUZZ_CHECK(!pkt->payload_len, "type %u payload %u", pkt->type,
			   pkt->payload_len);

	switch (pkt->type) {
	case MRC_PKT_DATA:
	case MRC_PKT_CLOSE:
		hdr = pkt->flags & MRC_F_DATA_ACK ? MRC_DATA_ACK_HDR_LEN : MRC_DATA_HDR_LEN;
		FUZZ_CHECK(!memcmp(d, b + MRC_HDR_LEN, sizeof(*d)), "data part");
		if (pkt->flags & MRC_F_DATA_ACK) {
			FUZZ_CHECK(pkt->type == MRC_PKT_DATA, "an ACK part on a CLOSE");
			FUZZ_CHECK(!memcmp(&pkt->u.dack, b + MRC_DATA_HDR_LEN,
					   sizeof(pkt->u.dack)), "ack part");
			FUZZ_CHECK(!pkt->u.dack.nack_reason &&
				   be16_to_cpu(pkt->u.dack.trig_ev) <= MRC_EV_MAX,
				   "ack part fields");
		} else {
			FUZZ_CHECK(!(pkt->flags & MRC_F_DATA_ACK_CE), "ACK_CE alone");
		}
		FUZZ_CHECK(!(pkt->flags & ~MRC_F_DATA_MASK), "flags %#x", pkt->flags);
		FUZZ_CHECK(!d->reserved && !d->reserved2, "reserved set");
		FUZZ_CHECK(be16_to_cpu(d->ev) <= MRC_EV_MAX, "ev %#x",
			   be16_to_cpu(d->ev));
		msg_len = be32_to_cpu(d->msg_len);
		off = be32_to_cpu(d->offset);
		if (pkt->type == MRC_PKT_CLOSE) {
			FUZZ_CHECK(!msg_len && !off, "CLOSE msg_len %u offset %u",
				   msg_len, off);
		} else {
			/* (payload 0: trimmed to its headers, inside it) */
			FUZZ_CHECK(msg_len && off < msg_len, "DATA msg_len %u offset %u",
				   msg_len, off);
			FUZZ_CHECK((u64)off + pkt->payload_len <= msg_len,
				   "offset %u + payload %u > msg_len %u", off,
				   pkt->payload_len, msg_len);
		}
		break;
	case MRC_PKT_ACK:
	case MRC_PKT_NACK:
		hdr = MRC_ACK_LEN;
		FUZZ_CHECK(!memcmp(a, b + MRC_HDR_LEN, sizeof(*a)), "ack part");
		FUZZ_CHECK(!(pkt->flags & ~MRC_F_ACK_MASK), "flags %#x", pkt->flags);
		FUZZ_CHECK(be16_to_cpu(a->trig_ev) <= MRC_EV_MAX, "trig_ev");
		if (pkt->type == MRC_PKT_ACK)
			FUZZ_CHECK(a->nack_reason == MRC_NACK_NONE, "ACK with reason");
		else
			FUZZ_CHECK(a->nack_reason > MRC_NACK_NONE &&
				   a->nack_reason < __MRC_NACK_MAX, "reason %u",
				   a->nack_reason);
		break;
	case MRC_PKT_REQ:
	case MRC_PKT_ACCEPT:
		FUZZ_CHECK(!memcmp(q, b + MRC_HDR_LEN, sizeof(*q)), "req part");
		FUZZ_CHECK(q->n_rails >= 1 && q->n_rails <= MRC_WIRE_MAX_RAILS,
			   "n_rails %u", q->n_rails);
		FUZZ_CHECK(!(pkt->flags & ~MRC_F_REQ_MASK) && !q->reserved, "reserved set");
		FUZZ_CHECK(be16_to_cpu(q->max_payload) >= MIN_PAYLOAD &&
			   be32_to_cpu(q->max_msg_size), "limits");
		if (pkt->type == MRC_PKT_REQ) {
			/* No ACCEPT is larger than the REQ it answers. */
			hdr = MRC_REQ_WIRE_LEN;
			FUZZ_CHECK(len == REQ_BYTES, "REQ of %zu bytes", len);
			FUZZ_CHECK(q->isn && !q->echo, "REQ isn %u echo %u",
				   be32_to_cpu(q->isn), be32_to_cpu(q->echo));
			for (i = MRC_REQ_LEN(q->n_rails); i < len; i++)
				FUZZ_CHECK(!b[i], "REQ padding byte %u", i);
		} else {
			hdr = MRC_REQ_LEN(q->n_rails);
			FUZZ_CHECK(q->echo, "ACCEPT echo 0");
		}
		for (i = 0; i < q->n_rails; i++) {
			const struct mrc_wire_rail *r = &pkt->u.req.rails[i];

			FUZZ_CHECK(!memcmp(r, b + MRC_REQ_LEN(i), sizeof(*r)),
				   "rail %u", i);
			FUZZ_CHECK(!r->reserved && r->plane < PLANES &&
				   (r->family == 4 || r->family == 6),
				   "rail %u", i);
			for (j = 4; r->family == 4 && j < sizeof(r->addr); j++)
				FUZZ_CHECK(!r->addr[j], "rail %u: IPv4 tail", i);
		}
		break;
	case MRC_PKT_RESET:
		hdr = MRC_RESET_LEN;
		FUZZ_CHECK(!memcmp(&pkt->u.reset, b + MRC_HDR_LEN,
				   sizeof(pkt->u.reset)), "reset part");
		FUZZ_CHECK(!pkt->flags, "flags");
		FUZZ_CHECK(be32_to_cpu(pkt->u.reset.reason) >= MRC_RESET_ABORT &&
			   be32_to_cpu(pkt->u.reset.reason) < __MRC_RESET_MAX,
			   "reason");
		break;
	case MRC_PKT_PROBE:
	case MRC_PKT_PROBE_ACK:
		hdr = MRC_PROBE_LEN;
		FUZZ_CHECK(!memcmp(&pkt->u.probe, b + MRC_HDR_LEN,
				   sizeof(pkt->u.probe)), "probe part");
		FUZZ_CHECK(!(pkt->flags & ~MRC_F_PROBE_MASK) && !pkt->u.probe.reserved,
			   "reserved set");
		FUZZ_CHECK(be16_to_cpu(pkt->u.probe.ev) <= MRC_EV_MAX, "ev");
		break;
	}
	FUZZ_CHECK(pkt->hdr_len == hdr, "type %u hdr_len %u, expected %u",
		   pkt->type, pkt->hdr_len, hdr);
}

int FUZZ_ENTRY(const u8 *data, size_t size)
{
	static struct mrc_pkt pkt, pkt2;
	static bool names_checked;
	u8 *copy, *again, *head;
	size_t hlen, need;
	bool len_bad;
	u32 allowed;
	int why, why2;
	unsigned int i;

	if (!names_checked) {
		for (i = 0; i < __MRC_DROP_MAX; i++)
			FUZZ_CHECK(strcmp(mrc_wire_drop_reason_name(i), "unknown"),
				   "reason %u has no name", i);
		FUZZ_CHECK(!strcmp(mrc_wire_drop_reason_name(__MRC_DROP_MAX),
				   "unknown"), "name past the end");
		names_checked = true;
	}

	copy = malloc(size ? size : 1);
	FUZZ_CHECK(copy, "out of memory");
	memcpy(copy, data, size);
	memset(&pkt, 0x5a, sizeof(pkt));
	why = mrc_wire_parse(copy, size, &pkt);
	FUZZ_CHECK(!memcmp(copy, data, size), "the parser wrote to its input");
	FUZZ_CHECK(why >= MRC_DROP_NONE && why < __MRC_DROP_MAX, "reason %d", why);

	/* The kernel makes only mrc_wire_hdr_need() bytes linear. */
	need = mrc_wire_hdr_need(data, size);
	FUZZ_CHECK(need <= size, "need %zu of %zu bytes", need, size);
	head = malloc(need ? need : 1);
	FUZZ_CHECK(head, "out of memory");
	memcpy(head, data, need);
	why2 = mrc_wire_parse(head, size, &pkt2);
	FUZZ_CHECK(why2 == why, "headers only: %s, whole packet: %s",
		   mrc_wire_drop_reason_name(why2), mrc_wire_drop_reason_name(why));
	free(head);

	allowed = oracle(data, size, &len_bad);
	if (why == MRC_DROP_NONE) {
		FUZZ_CHECK(!allowed, "accepted, but the oracle says %#x (type %u len %zu)",
			   allowed, size > 1 ? data[1] : 0, size);
		check_accepted(data, size, &pkt);
	} else {
		FUZZ_CHECK(allowed, "dropped as %s, but the oracle accepts (type %u len %zu)",
			   mrc_wire_drop_reason_name(why), data[1], size);
		FUZZ_CHECK(allowed & BIT_OF(why), "dropped as %s, the oracle says %#x",
			   mrc_wire_drop_reason_name(why), allowed);
		FUZZ_CHECK(!len_bad || why == MRC_DROP_LENGTH,
			   "length mismatch reported as %s",
			   mrc_wire_drop_reason_name(why));
		free(copy);
		return 0;
	}

	/* Round trip: rebuilt headers + the payload parse to the same. */
	again = malloc(size);
	FUZZ_CHECK(again, "out of memory");
	hlen = wire_rebuild(again, &pkt);
	FUZZ_CHECK(hlen == pkt.hdr_len, "rebuilt %zu bytes, hdr_len %u", hlen,
		   pkt.hdr_len);
	/* (a REQ's unknown capabilities are not rebuilt: the parser drops them) */
	FUZZ_CHECK(!memcmp(again, data, 2) && !memcmp(again + 4, data + 4, hlen - 4) &&
		   r16(again + 2) == pkt.flags, "rebuilt headers differ");
	memcpy(again + hlen, data + hlen, size - hlen);
	memset(&pkt2, 0x5a, sizeof(pkt2));
	why2 = mrc_wire_parse(again, size, &pkt2);
	FUZZ_CHECK(why2 == MRC_DROP_NONE, "rebuilt packet dropped as %s",
		   mrc_wire_drop_reason_name(why2));
	if (pkt.type == MRC_PKT_REQ || pkt.type == MRC_PKT_ACCEPT) {
		/* Rails are checked in place: each parse points at its buffer. */
		FUZZ_CHECK(pkt.u.req.rails == (void *)(copy + MRC_REQ_LEN(0)) &&
			   pkt2.u.req.rails == (void *)(again + MRC_REQ_LEN(0)),
			   "rails not in place");
		pkt2.u.req.rails = pkt.u.req.rails;
	}
	FUZZ_CHECK(!memcmp(&pkt, &pkt2, sizeof(pkt)), "reparse differs");
	free(again);
	free(copy);
	return 0;
}
