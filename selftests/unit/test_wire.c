// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of core/wire.c: every packet type round-trips through a
 * builder written from the wire layout, every drop reason the parser can
 * give is reachable, truncated and mutated packets are rejected without
 * reading out of bounds (each parsed buffer is a malloc'd copy of exactly
 * the length passed, so ASan catches any overread), and the parser agrees
 * with an independent byte-offset oracle on random mutations.
 */
#include <assert.h>
#include <stddef.h>
#include "unit.h"
#include "core/wire.h"
#include "../wire_rebuild.h"

/* Struct sizes and a few offsets: the wire layout is an ABI. */
static_assert(sizeof(struct mrc_wire_hdr) == 12, "hdr");
static_assert(sizeof(struct mrc_wire_data) == 24, "data");
static_assert(sizeof(struct mrc_wire_ack) == 64, "ack");
static_assert(sizeof(struct mrc_wire_rail) == 20, "rail");
static_assert(sizeof(struct mrc_wire_req) == 24, "req");
static_assert(sizeof(struct mrc_wire_reset) == 4, "reset");
static_assert(sizeof(struct mrc_wire_probe) == 12, "probe");
static_assert(offsetof(struct mrc_wire_data, ev) == 16, "data.ev");
static_assert(offsetof(struct mrc_wire_ack, trig_psn) == 40, "ack.trig_psn");
static_assert(offsetof(struct mrc_wire_ack, ack_delay_us) == 56, "ack.delay");
static_assert(offsetof(struct mrc_wire_ack, host_delay_us) == 60, "ack.host_delay_us");
static_assert(offsetof(struct mrc_wire_req, max_msg_size) == 16, "req.mms");
static_assert(offsetof(struct mrc_wire_req, echo) == 20, "req.echo");
static_assert(offsetof(struct mrc_wire_probe, stamp) == 8, "probe.stamp");
static_assert(MRC_DATA_HDR_LEN == 36 && MRC_ACK_LEN == 76, "lengths");
static_assert(MRC_REQ_LEN(0) == 36 && MRC_REQ_LEN(32) == 676, "req lengths");
static_assert(MRC_REQ_WIRE_LEN == 676, "padded REQ");
static_assert(MRC_WIRE_VERSION == 2, "version");
static_assert(MRC_RESET_LEN == 16 && MRC_PROBE_LEN == 24, "lengths");

#define MAXPKT	(MRC_REQ_LEN(MRC_WIRE_MAX_RAILS + 2))

/* Byte-level writers and readers (big-endian), independent of the structs. */
static void w16(u8 *p, u16 v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static void w32(u8 *p, u32 v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static u16 r16(const u8 *p)
{
	return (u16)(p[0] << 8 | p[1]);
}

static u32 r32(const u8 *p)
{
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
}

static size_t put_hdr(u8 *b, u8 type, u16 flags, u32 dst, u32 src)
{
	b[0] = MRC_WIRE_VERSION;
	b[1] = type;
	w16(b + 2, flags);
	w32(b + 4, dst);
	w32(b + 8, src);
	return 12;
}

static u32 nz32(void)
{
	u32 v = unit_rand32();

	return v ? v : 1;
}

static u16 rand_ev(void)
{
	return unit_rand32() & MRC_EV_MAX;
}

/*
 * Tests that take their DATA from build_valid() and know its headers are
 * 36 bytes long leave this false; the others set it.
 */
static bool acks_on_data;

/*
 * A valid DATA (payload of @plen bytes; with acks_on_data, half of them
 * with an ACK part, a fourth of those with its CE flag) or CLOSE.
 */
static size_t build_data(u8 *b, u8 type, u32 plen)
{
	u32 msg_len = 0, off = 0, i, hdr = 36;
	u16 flags = unit_rand32() & MRC_F_DATA_ACK_NOW;

	if (type == MRC_PKT_DATA && acks_on_data && unit_rand32() & 1) {
		flags |= MRC_F_DATA_ACK;
		if (!(unit_rand32() & 3))
			flags |= MRC_F_DATA_ACK_CE;
		hdr = 100;
		for (i = 36; i < 100; i++)
			b[i] = unit_rand32();
		w16(b + 36 + 44, rand_ev());	/* trig_ev */
		b[36 + 47] = 0;			/* nack_reason */
		w32(b + 36 + 60, unit_rand32());	/* host_delay_us */
	}
	put_hdr(b, type, flags, nz32(), nz32());
	if (type == MRC_PKT_DATA) {
		msg_len = plen + unit_rand32() % 100000;
		off = unit_rand32() % (msg_len - plen + 1);
	}
	w32(b + 12, unit_rand32());
	w32(b + 16, unit_rand32());
	w32(b + 20, msg_len);
	w32(b + 24, off);
	w16(b + 28, rand_ev());
	b[30] = unit_rand32();
	b[31] = 0;
	w32(b + 32, 0);
	for (i = 0; i < plen; i++)
		b[hdr + i] = unit_rand32();
	return hdr + plen;
}

static size_t build_ack(u8 *b, u8 type)
{
	int i;

	put_hdr(b, type, unit_rand32() & MRC_F_ACK_MASK, nz32(), nz32());
	for (i = 12; i < 76; i++)
		b[i] = unit_rand32();
	w16(b + 56, rand_ev());
	b[59] = type == MRC_PKT_ACK ? 0 : 1 + unit_rand32() % (__MRC_NACK_MAX - 1);
	w32(b + 72, unit_rand32());	/* host_delay_us */
	return 76;
}

/*
 * A REQ (isn non-zero, echo 0, zero padding up to 676 bytes) or an ACCEPT
 * (echo non-zero, exactly its rails long) with @n rails.
 */
static size_t build_req(u8 *b, u8 type, unsigned int n)
{
	unsigned int i, j;
	u8 *r;

	put_hdr(b, type, unit_rand32() & MRC_F_REQ_MASK, type == MRC_PKT_REQ ? 0 : nz32(),
		nz32());
	w16(b + 12, unit_rand32());
	w16(b + 14, unit_rand32());
	w32(b + 16, type == MRC_PKT_REQ ? nz32() : unit_rand32());
	w32(b + 20, unit_rand32());
	w16(b + 24, 64 + unit_rand32() % (65536 - 64));
	b[26] = n;
	b[27] = 0;
	w32(b + 28, nz32());
	w32(b + 32, type == MRC_PKT_REQ ? 0 : nz32());
	for (i = 0; i < n; i++) {
		r = b + 36 + 20 * i;
		r[0] = unit_rand32() % 32;
		r[1] = unit_rand32() & 1 ? 4 : 6;
		r[2] = 0;
		r[3] = 0;
		for (j = 0; j < 16; j++)
			r[4 + j] = r[1] == 6 || j < 4 ? unit_rand32() : 0;
	}
	if (type != MRC_PKT_REQ || n > 32)
		return 36 + 20 * n;
	memset(b + 36 + 20 * n, 0, 676 - (36 + 20 * n));
	return 676;
}

static size_t build_reset(u8 *b)
{
	put_hdr(b, MRC_PKT_RESET, 0, nz32(), nz32());
	w32(b + 12, 1 + unit_rand32() % (__MRC_RESET_MAX - 1));
	return 16;
}

static size_t build_probe(u8 *b, u8 type)
{
	put_hdr(b, type, unit_rand32() & MRC_F_PROBE_MASK, nz32(), nz32());
	w32(b + 12, unit_rand32());
	w16(b + 16, rand_ev());
	w16(b + 18, 0);
	w32(b + 20, unit_rand32());
	return 24;
}

/* A random valid packet of @type. */
static size_t build_valid(u8 *b, u8 type)
{
	switch (type) {
	case MRC_PKT_DATA:
		return build_data(b, type, 1 + unit_rand32() % 200);
	case MRC_PKT_CLOSE:
		return build_data(b, type, 0);
	case MRC_PKT_ACK:
	case MRC_PKT_NACK:
		return build_ack(b, type);
	case MRC_PKT_REQ:
	case MRC_PKT_ACCEPT:
		return build_req(b, type, 1 + unit_rand32() % MRC_WIRE_MAX_RAILS);
	case MRC_PKT_RESET:
		return build_reset(b);
	default:
		return build_probe(b, type);
	}
}

/*
 * Parse a malloc'd copy of exactly @len bytes: ASan sees any overread.
 * Returns the reason as an int, to compare with the enum's constants.
 */
static int parse_exact(const u8 *b, size_t len, struct mrc_pkt *pkt)
{
	/* pkt->u.req.rails points into the copy: kept until the next call. */
	static u8 *copy;
	struct mrc_pkt again;
	u8 *head;
	size_t need;
	int why;

	free(copy);
	copy = malloc(len ? len : 1);
	memcpy(copy, b, len);
	memset(pkt, 0, sizeof(*pkt));
	why = mrc_wire_parse(copy, len, pkt);

	/* Parsing reads only mrc_wire_hdr_need() bytes: ASan checks it. */
	need = mrc_wire_hdr_need(b, len);
	if (need > len)
		return -1;
	head = malloc(need ? need : 1);
	memcpy(head, b, need);
	memset(&again, 0, sizeof(again));
	if ((int)mrc_wire_parse(head, len, &again) != why)
		why = -1;
	/* ... and to the same fields (the rails point into each buffer). */
	if (why == MRC_DROP_NONE) {
		struct mrc_pkt first = *pkt;

		if (pkt->type == MRC_PKT_REQ || pkt->type == MRC_PKT_ACCEPT) {
			first.u.req.rails = NULL;
			again.u.req.rails = NULL;
		}
		if (first.type != again.type || first.flags != again.flags ||
		    first.dst_conn != again.dst_conn ||
		    first.src_conn != again.src_conn ||
		    first.hdr_len != again.hdr_len ||
		    first.payload_len != again.payload_len ||
		    memcmp(&first.u, &again.u, sizeof(first.u)))
			why = -1;
	}
	free(head);
	return why;
}

/*
 * Independent validity oracle, written from the layout by byte offsets:
 * must agree with the parser on whether a packet is acceptable.
 */
static bool oracle_valid(const u8 *b, size_t len)
{
	u32 dst, src, plen, msg_len, off, n, i, j, hdr;
	u16 flags;
	const u8 *r;

	if (len < 12 || b[0] != 2 || b[1] < 1 || b[1] > 9)
		return false;
	flags = r16(b + 2);
	dst = r32(b + 4);
	src = r32(b + 8);
	/* Only a REQ has no dst_conn, and it must have none. */
	if (!src || (b[1] == MRC_PKT_REQ ? dst != 0 : dst == 0))
		return false;
	switch (b[1]) {
	case MRC_PKT_DATA:
	case MRC_PKT_CLOSE:
		/* An ACK part (flag 2; its CE flag 4 only with it): DATA only. */
		hdr = flags & 2 ? 100 : 36;
		if (len < hdr || (flags & ~7) || (flags & 6) == 4 ||
		    ((flags & 2) && b[1] == MRC_PKT_CLOSE) ||
		    b[31] || r32(b + 32) || r16(b + 28) > 0x3fff)
			return false;
		if ((flags & 2) && (r16(b + 80) > 0x3fff || b[83]))
			return false;
		plen = len - hdr;
		msg_len = r32(b + 20);
		off = r32(b + 24);
		if (b[1] == MRC_PKT_CLOSE)
			return !plen && !msg_len && !off;
		/* (headers only: a trimmed segment, inside its message) */
		return msg_len && off < msg_len && (u64)off + plen <= msg_len;
	case MRC_PKT_ACK:
	case MRC_PKT_NACK:
		if (len != 76 || (flags & ~1) || r16(b + 56) > 0x3fff)
			return false;
		return b[1] == MRC_PKT_ACK ? b[59] == 0 : b[59] >= 1 && b[59] <= 3;
	case MRC_PKT_REQ:
	case MRC_PKT_ACCEPT:
		/* A REQ: 676 bytes, isn set, echo 0, zero after its rails. */
		if (len < 36)
			return false;
		n = b[26];
		/* A REQ's flags: any (unknown ones ignored); an ACCEPT's: 1, 2 */
		if (n < 1 || n > 32 || (b[1] == MRC_PKT_ACCEPT && (flags & ~3)) ||
		    b[27] || r16(b + 24) < 64 || !r32(b + 28))
			return false;
		if (b[1] == MRC_PKT_REQ) {
			if (len != 676 || !r32(b + 16) || r32(b + 32))
				return false;
			for (i = 36 + 20 * n; i < len; i++)
				if (b[i])
					return false;
		} else if (len != 36 + 20 * n || !r32(b + 32)) {
			return false;
		}
		for (i = 0; i < n; i++) {
			r = b + 36 + 20 * i;
			if (r[0] >= 32 || r[2] || r[3] || (r[1] != 4 && r[1] != 6))
				return false;
			for (j = 4; r[1] == 4 && j < 16; j++)
				if (r[4 + j])
					return false;
		}
		return true;
	case MRC_PKT_RESET:
		return len == 16 && !flags && r32(b + 12) >= 1 && r32(b + 12) <= 6;
	default:
		return len == 24 && !(flags & ~1) && !r16(b + 18) && r16(b + 16) <= 0x3fff;
	}
}

/* Check a successfully parsed packet against the bytes it came from. */
static void check_parsed(struct __test_metadata *_metadata, const u8 *b,
			 size_t len, const struct mrc_pkt *pkt)
{
	u32 hdr;

	ASSERT_EQ(b[1], pkt->type);
	/* A REQ keeps the capabilities we know. */
	ASSERT_EQ(r16(b + 2) & (b[1] == MRC_PKT_REQ ? MRC_F_REQ_MASK : 0xffff), pkt->flags);
	ASSERT_EQ(r32(b + 4), pkt->dst_conn);
	ASSERT_EQ(r32(b + 8), pkt->src_conn);
	ASSERT_EQ(len, (size_t)pkt->hdr_len + pkt->payload_len);
	switch (pkt->type) {
	case MRC_PKT_DATA:
	case MRC_PKT_CLOSE:
		hdr = pkt->flags & MRC_F_DATA_ACK ? MRC_DATA_ACK_HDR_LEN : MRC_DATA_HDR_LEN;
		ASSERT_EQ(0, memcmp(&pkt->u.data, b + 12, sizeof(pkt->u.data)));
		if (pkt->flags & MRC_F_DATA_ACK)
			ASSERT_EQ(0, memcmp(&pkt->u.dack, b + 36, sizeof(pkt->u.dack)));
		ASSERT_EQ(r32(b + 12), be32_to_cpu(pkt->u.data.psn));
		ASSERT_EQ(r32(b + 16), be32_to_cpu(pkt->u.data.msg_id));
		ASSERT_EQ(r32(b + 20), be32_to_cpu(pkt->u.data.msg_len));
		ASSERT_EQ(r32(b + 24), be32_to_cpu(pkt->u.data.offset));
		ASSERT_EQ(r16(b + 28), be16_to_cpu(pkt->u.data.ev));
		ASSERT_EQ(b[30], pkt->u.data.tx_count);
		ASSERT_LE((u64)be32_to_cpu(pkt->u.data.offset) + pkt->payload_len,
			  (u64)be32_to_cpu(pkt->u.data.msg_len));
		break;
	case MRC_PKT_ACK:
	case MRC_PKT_NACK:
		hdr = MRC_ACK_LEN;
		ASSERT_EQ(0, memcmp(&pkt->u.ack, b + 12, sizeof(pkt->u.ack)));
		ASSERT_EQ(r32(b + 12), be32_to_cpu(pkt->u.ack.cum_psn));
		ASSERT_EQ(r32(b + 16), be32_to_cpu(pkt->u.ack.sack_base));
		ASSERT_EQ((u64)r32(b + 20) << 32 | r32(b + 24),
			  be64_to_cpu(pkt->u.ack.sack[0]));
		ASSERT_EQ((u64)r32(b + 44) << 32 | r32(b + 48),
			  be64_to_cpu(pkt->u.ack.sack[3]));
		ASSERT_EQ(r32(b + 52), be32_to_cpu(pkt->u.ack.trig_psn));
		ASSERT_EQ(r16(b + 56), be16_to_cpu(pkt->u.ack.trig_ev));
		ASSERT_EQ(b[58], pkt->u.ack.trig_tx);
		ASSERT_EQ(b[59], pkt->u.ack.nack_reason);
		ASSERT_EQ(r32(b + 60), be32_to_cpu(pkt->u.ack.ce_count));
		ASSERT_EQ(r32(b + 64), be32_to_cpu(pkt->u.ack.rwnd_psn));
		ASSERT_EQ(r32(b + 68), be32_to_cpu(pkt->u.ack.ack_delay_us));
		break;
	case MRC_PKT_REQ:
	case MRC_PKT_ACCEPT:
		hdr = pkt->type == MRC_PKT_REQ ? 676 : MRC_REQ_LEN(b[26]);
		ASSERT_EQ(0, memcmp(&pkt->u.req.req, b + 12, sizeof(pkt->u.req.req)));
		ASSERT_EQ(0, memcmp(pkt->u.req.rails, b + 36, 20 * b[26]));
		ASSERT_EQ(r16(b + 12), be16_to_cpu(pkt->u.req.req.dst_port));
		ASSERT_EQ(r16(b + 14), be16_to_cpu(pkt->u.req.req.src_port));
		ASSERT_EQ(r32(b + 16), be32_to_cpu(pkt->u.req.req.isn));
		ASSERT_EQ(r32(b + 20), be32_to_cpu(pkt->u.req.req.rwnd));
		ASSERT_EQ(r16(b + 24), be16_to_cpu(pkt->u.req.req.max_payload));
		ASSERT_EQ(b[26], pkt->u.req.req.n_rails);
		ASSERT_EQ(r32(b + 28), be32_to_cpu(pkt->u.req.req.max_msg_size));
		ASSERT_EQ(r32(b + 32), be32_to_cpu(pkt->u.req.req.echo));
		ASSERT_EQ(b[36], pkt->u.req.rails[0].plane);
		ASSERT_EQ(b[37], pkt->u.req.rails[0].family);
		break;
	case MRC_PKT_RESET:
		hdr = MRC_RESET_LEN;
		ASSERT_EQ(r32(b + 12), be32_to_cpu(pkt->u.reset.reason));
		break;
	default:
		hdr = MRC_PROBE_LEN;
		ASSERT_EQ(r32(b + 12), be32_to_cpu(pkt->u.probe.seq));
		ASSERT_EQ(r16(b + 16), be16_to_cpu(pkt->u.probe.ev));
		ASSERT_EQ(r32(b + 20), be32_to_cpu(pkt->u.probe.stamp));
		break;
	}
	ASSERT_EQ(hdr, pkt->hdr_len);
}

TEST(wire_round_trip_every_type)
{
	struct mrc_pkt pkt;
	u8 b[MAXPKT];
	size_t len;
	int type, i;

	unit_seed();
	acks_on_data = true;
	for (type = 1; type < __MRC_PKT_MAX; type++) {
		for (i = 0; i < 2000; i++) {
			len = build_valid(b, type);
			ASSERT_TRUE(oracle_valid(b, len));
			memset(&pkt, 0xa5, sizeof(pkt));
			ASSERT_EQ(MRC_DROP_NONE, parse_exact(b, len, &pkt)) {
				TH_LOG("type %d len %zu", type, len);
			}
			check_parsed(_metadata, b, len, &pkt);
		}
	}
}

/*
 * The builders the module sends with write every random valid packet of
 * the byte-level builders above again, byte for byte, from its parsed
 * fields (an ACK's through mrc_wire_get_ack()).
 */
TEST(wire_builders_byte_exact)
{
	u8 b[MAXPKT], out[MAXPKT];
	struct mrc_pkt pkt;
	size_t len, len2;
	int type, i;

	unit_seed();
	acks_on_data = true;
	for (type = 1; type < __MRC_PKT_MAX; type++) {
		for (i = 0; i < 2000; i++) {
			len = build_valid(b, type);
			ASSERT_EQ(MRC_DROP_NONE, parse_exact(b, len, &pkt));
			memset(out, 0xa5, sizeof(out));
			len2 = wire_rebuild(out, &pkt);
			memcpy(out + len2, b + len2, pkt.payload_len);
			len2 += pkt.payload_len;
			ASSERT_EQ(len, len2) TH_LOG("type %d", type);
			ASSERT_EQ(0, memcmp(b, out, len)) TH_LOG("type %d len %zu", type, len);
		}
	}
}

TEST(wire_round_trip_struct_builder)
{
	u8 buf[MRC_DATA_HDR_LEN + 3];
	struct mrc_wire_hdr h = {
		.version = MRC_WIRE_VERSION,
		.type = MRC_PKT_DATA,
		.flags = cpu_to_be16(MRC_F_DATA_ACK_NOW),
		.dst_conn = cpu_to_be32(7),
		.src_conn = cpu_to_be32(9),
	};
	struct mrc_wire_data d = {
		.psn = cpu_to_be32(0xfffffffeU),
		.msg_id = cpu_to_be32(3),
		.msg_len = cpu_to_be32(10),
		.offset = cpu_to_be32(7),
		.ev = cpu_to_be16(MRC_EV_MAX),
		.tx_count = 2,
	};
	struct mrc_pkt pkt;

	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), &d, sizeof(d));
	memset(buf + MRC_DATA_HDR_LEN, 'x', 3);
	ASSERT_EQ(MRC_DROP_NONE, parse_exact(buf, sizeof(buf), &pkt));
	EXPECT_EQ(MRC_PKT_DATA, pkt.type);
	EXPECT_EQ(MRC_F_DATA_ACK_NOW, pkt.flags);
	EXPECT_EQ(7U, pkt.dst_conn);
	EXPECT_EQ(9U, pkt.src_conn);
	EXPECT_EQ(MRC_DATA_HDR_LEN, pkt.hdr_len);
	EXPECT_EQ(3U, pkt.payload_len);
	EXPECT_EQ(0xfffffffeU, be32_to_cpu(pkt.u.data.psn));
	EXPECT_EQ(MRC_EV_MAX, be16_to_cpu(pkt.u.data.ev));
	EXPECT_EQ(0xfffdU, MRC_EV_SPORT(0x3ffdU));
	/* One byte more would end past msg_len. */
	d.offset = cpu_to_be32(8);
	memcpy(buf + sizeof(h), &d, sizeof(d));
	EXPECT_EQ(MRC_DROP_BAD_FIELD, parse_exact(buf, sizeof(buf), &pkt));
}

/* What the receive path makes linear: headers only, never the payload. */
TEST(wire_hdr_need)
{
	u8 b[MAXPKT];
	size_t len;

	len = build_data(b, MRC_PKT_DATA, 600);
	EXPECT_EQ(MRC_DATA_HDR_LEN, mrc_wire_hdr_need(b, len));
	len = build_data(b, MRC_PKT_CLOSE, 0);
	EXPECT_EQ(MRC_DATA_HDR_LEN, mrc_wire_hdr_need(b, len));
	len = build_ack(b, MRC_PKT_NACK);
	EXPECT_EQ(MRC_ACK_LEN, mrc_wire_hdr_need(b, len));
	len = build_req(b, MRC_PKT_REQ, 2);
	EXPECT_EQ(MRC_REQ_WIRE_LEN, mrc_wire_hdr_need(b, len));
	len = build_req(b, MRC_PKT_ACCEPT, 2);
	EXPECT_EQ(MRC_REQ_LEN(2), mrc_wire_hdr_need(b, len));
	/* A longer ACCEPT is parsed only up to the largest valid one. */
	EXPECT_EQ(MRC_REQ_WIRE_LEN, mrc_wire_hdr_need(b, MAXPKT));
	len = build_reset(b);
	EXPECT_EQ(MRC_RESET_LEN, mrc_wire_hdr_need(b, len + 100));
	len = build_probe(b, MRC_PKT_PROBE_ACK);
	EXPECT_EQ(MRC_PROBE_LEN, mrc_wire_hdr_need(b, len));
	b[1] = 0;
	EXPECT_EQ(MRC_HDR_LEN, mrc_wire_hdr_need(b, len));
	/* Short packets: what there is. */
	EXPECT_EQ(5U, mrc_wire_hdr_need(b, 5));
	EXPECT_EQ(0U, mrc_wire_hdr_need(b, 0));
}

TEST(wire_drop_short)
{
	struct mrc_pkt pkt;
	u8 b[MAXPKT];
	size_t len;

	unit_seed();
	len = build_valid(b, MRC_PKT_PROBE);
	for (len = 0; len < MRC_HDR_LEN; len++)
		EXPECT_EQ(MRC_DROP_SHORT, parse_exact(b, len, &pkt));
}

TEST(wire_drop_version)
{
	struct mrc_pkt pkt;
	u8 b[MAXPKT];
	size_t len;
	int v;

	unit_seed();
	len = build_valid(b, MRC_PKT_ACK);
	for (v = 0; v < 256; v++) {
		b[0] = v;
		EXPECT_EQ(v == 2 ? MRC_DROP_NONE : MRC_DROP_VERSION,
			  parse_exact(b, len, &pkt));
	}
	/* The version is checked before anything else but the length. */
	b[0] = 3;
	EXPECT_EQ(MRC_DROP_VERSION, parse_exact(b, MRC_HDR_LEN, &pkt));
}

/*
 * Version 1 is gone: its REQ (52 bytes: no echo, no padding) is dropped
 * as "version"; the same bytes labelled version 2 are a REQ of the wrong
 * length.
 */
TEST(wire_v1_dropped)
{
	struct mrc_pkt pkt;
	u8 b[MAXPKT];

	memset(b, 0, sizeof(b));
	put_hdr(b, MRC_PKT_REQ, 0, 0, 0x1234);
	b[0] = 1;
	w16(b + 12, 7000);
	w16(b + 14, 49152);
	w32(b + 16, 0xabcdef01);
	w32(b + 20, 1024);
	w16(b + 24, 1436);
	b[26] = 1;
	w32(b + 28, 1 << 20);
	b[32] = 0;			/* v1: rails right after max_msg_size */
	b[33] = 4;
	w32(b + 36, 0x0a000001);
	EXPECT_EQ(MRC_DROP_VERSION, parse_exact(b, 52, &pkt));
	b[0] = 2;
	EXPECT_EQ(MRC_DROP_LENGTH, parse_exact(b, 52, &pkt));
	/* A v1 RESET is as long as a v2 one: the version byte decides. */
	put_hdr(b, MRC_PKT_RESET, 0, 5, 6);
	w32(b + 12, MRC_RESET_NO_LISTENER);
	EXPECT_EQ(MRC_DROP_NONE, parse_exact(b, MRC_RESET_LEN, &pkt));
	b[0] = 1;
	EXPECT_EQ(MRC_DROP_VERSION, parse_exact(b, MRC_RESET_LEN, &pkt));
}

TEST(wire_drop_type)
{
	struct mrc_pkt pkt;
	u8 b[MAXPKT];
	size_t len;
	int t;

	unit_seed();
	len = build_valid(b, MRC_PKT_RESET);
	for (t = 0; t < 256; t++) {
		b[1] = t;
		if (t == 0 || t >= __MRC_PKT_MAX)
			EXPECT_EQ(MRC_DROP_TYPE, parse_exact(b, len, &pkt));
	}
}

TEST(wire_drop_reserved)
{
	struct mrc_pkt pkt;
	u8 b[MAXPKT];
	size_t len;
	int t, bit;

	unit_seed();
	/* Undefined flag bits, for every type. */
	for (t = 1; t < __MRC_PKT_MAX; t++) {
		/*
		 * A REQ ignores capabilities it does not know; an ACK part's
		 * flag on a CLOSE makes its headers too short (below).
		 */
		u16 mask = t == MRC_PKT_DATA || t == MRC_PKT_CLOSE ? MRC_F_DATA_MASK :
			   t == MRC_PKT_ACK || t == MRC_PKT_NACK ? MRC_F_ACK_MASK :
			   t == MRC_PKT_PROBE || t == MRC_PKT_PROBE_ACK ?
			   MRC_F_PROBE_MASK : t == MRC_PKT_REQ ? 0xffff :
			   t == MRC_PKT_ACCEPT ? MRC_F_REQ_MASK : 0;

		for (bit = 0; bit < 16; bit++) {
			if (mask & (1U << bit))
				continue;
			len = build_valid(b, t);
			w16(b + 2, r16(b + 2) | 1U << bit);
			EXPECT_EQ(MRC_DROP_RESERVED, parse_exact(b, len, &pkt));
		}
	}
	/* Reserved fields. */
	len = build_valid(b, MRC_PKT_DATA);
	b[31] = 1;
	EXPECT_EQ(MRC_DROP_RESERVED, parse_exact(b, len, &pkt));
	len = build_valid(b, MRC_PKT_CLOSE);
	b[35] = 0x80;
	EXPECT_EQ(MRC_DROP_RESERVED, parse_exact(b, len, &pkt));
	len = build_req(b, MRC_PKT_REQ, 3);
	b[27] = 4;
	EXPECT_EQ(MRC_DROP_RESERVED, parse_exact(b, len, &pkt));
	len = build_req(b, MRC_PKT_ACCEPT, 3);
	b[36 + 40 + 3] = 1;		/* third rail's reserved */
	EXPECT_EQ(MRC_DROP_RESERVED, parse_exact(b, len, &pkt));
	len = build_req(b, MRC_PKT_REQ, 1);
	b[37] = 4;
	memset(b + 40, 0, 16);
	b[40 + 15] = 1;			/* IPv4 rail, byte 15 of the address */
	EXPECT_EQ(MRC_DROP_RESERVED, parse_exact(b, len, &pkt));
	len = build_valid(b, MRC_PKT_PROBE_ACK);
	b[19] = 1;
	EXPECT_EQ(MRC_DROP_RESERVED, parse_exact(b, len, &pkt));
}

/* A REQ's echo is reserved, and so is every byte of its padding. */
TEST(wire_req_echo_and_padding_reserved)
{
	struct mrc_pkt pkt;
	u8 b[MAXPKT];
	unsigned int n, i;
	size_t len;

	unit_seed();
	for (n = 1; n <= MRC_WIRE_MAX_RAILS; n++) {
		len = build_req(b, MRC_PKT_REQ, n);
		ASSERT_EQ(MRC_REQ_WIRE_LEN, len);
		ASSERT_EQ(MRC_DROP_NONE, parse_exact(b, len, &pkt));
		EXPECT_EQ(MRC_REQ_WIRE_LEN, pkt.hdr_len);
		EXPECT_EQ(0U, pkt.payload_len);
		EXPECT_EQ(n, pkt.u.req.req.n_rails);
		/* every padding byte, each bit once in a while */
		for (i = MRC_REQ_LEN(n); i < len; i++) {
			b[i] = 1U << (i % 8);
			EXPECT_EQ(MRC_DROP_RESERVED, parse_exact(b, len, &pkt)) {
				TH_LOG("n_rails %u, padding byte %u", n, i);
			}
			b[i] = 0;
		}
		/* the echo, any byte of it */
		b[32 + n % 4] = 0x80;
		EXPECT_EQ(MRC_DROP_RESERVED, parse_exact(b, len, &pkt));
		b[32 + n % 4] = 0;
		EXPECT_EQ(MRC_DROP_NONE, parse_exact(b, len, &pkt));
	}
	/* An ACCEPT's echo is the REQ's isn: any non-zero value. */
	len = build_req(b, MRC_PKT_ACCEPT, 2);
	w32(b + 32, 0xffffffffU);
	ASSERT_EQ(MRC_DROP_NONE, parse_exact(b, len, &pkt));
	EXPECT_EQ(0xffffffffU, be32_to_cpu(pkt.u.req.req.echo));
	EXPECT_EQ(MRC_REQ_LEN(2), pkt.hdr_len);
	w32(b + 32, 1);
	ASSERT_EQ(MRC_DROP_NONE, parse_exact(b, len, &pkt));
	EXPECT_EQ(1U, be32_to_cpu(pkt.u.req.req.echo));
}

/*
 * PROBE and PROBE_ACK flag 0x0001, CHALLENGE: accepted, the 64-bit
 * challenge (seq, stamp) copied unchanged; every other flag reserved.
 */
TEST(wire_probe_challenge)
{
	struct mrc_pkt pkt;
	u8 b[MAXPKT];
	int t, bit;

	static_assert(MRC_F_PROBE_CHALLENGE == 0x0001, "challenge flag");
	unit_seed();
	for (t = MRC_PKT_PROBE; t <= MRC_PKT_PROBE_ACK; t++) {
		build_probe(b, t);
		w16(b + 2, MRC_F_PROBE_CHALLENGE);
		w32(b + 12, 0);			/* seq 0 is no window probe here */
		w32(b + 20, 0xfedcba98);
		ASSERT_EQ(MRC_DROP_NONE, parse_exact(b, MRC_PROBE_LEN, &pkt));
		EXPECT_EQ(MRC_F_PROBE_CHALLENGE, pkt.flags);
		EXPECT_EQ(0U, be32_to_cpu(pkt.u.probe.seq));
		EXPECT_EQ(0xfedcba98U, be32_to_cpu(pkt.u.probe.stamp));
		w32(b + 12, 0x01234567);
		ASSERT_EQ(MRC_DROP_NONE, parse_exact(b, MRC_PROBE_LEN, &pkt));
		EXPECT_EQ(0x01234567U, be32_to_cpu(pkt.u.probe.seq));
		w16(b + 2, 0);
		EXPECT_EQ(MRC_DROP_NONE, parse_exact(b, MRC_PROBE_LEN, &pkt));
		EXPECT_EQ(0, pkt.flags);
		for (bit = 1; bit < 16; bit++) {
			w16(b + 2, MRC_F_PROBE_CHALLENGE | 1U << bit);
			EXPECT_EQ(MRC_DROP_RESERVED, parse_exact(b, MRC_PROBE_LEN, &pkt));
		}
	}
}

TEST(wire_drop_length)
{
	struct mrc_pkt pkt;
	u8 b[MAXPKT];
	size_t len;
	int t;

	unit_seed();
	/* Every fixed-size type, one byte too short and one too long. */
	for (t = 1; t < __MRC_PKT_MAX; t++) {
		if (t == MRC_PKT_DATA)
			continue;
		len = build_valid(b, t);
		EXPECT_EQ(MRC_DROP_LENGTH, parse_exact(b, len - 1, &pkt));
		b[len] = 0;
		EXPECT_EQ(MRC_DROP_LENGTH, parse_exact(b, len + 1, &pkt));
	}
	/* DATA shorter than its headers. */
	len = build_valid(b, MRC_PKT_DATA);
	EXPECT_EQ(MRC_DROP_LENGTH, parse_exact(b, MRC_DATA_HDR_LEN - 1, &pkt));
	/* An ACCEPT whose n_rails does not match its length. */
	len = build_req(b, MRC_PKT_ACCEPT, 4);
	b[26] = 5;
	EXPECT_EQ(MRC_DROP_LENGTH, parse_exact(b, len, &pkt));
	b[26] = 3;
	EXPECT_EQ(MRC_DROP_LENGTH, parse_exact(b, len, &pkt));
	b[26] = 255;
	EXPECT_EQ(MRC_DROP_LENGTH, parse_exact(b, len, &pkt));
	/* An ACCEPT padded like a REQ. */
	len = build_req(b, MRC_PKT_ACCEPT, 4);
	memset(b + len, 0, MRC_REQ_WIRE_LEN - len);
	EXPECT_EQ(MRC_DROP_LENGTH, parse_exact(b, MRC_REQ_WIRE_LEN, &pkt));
	/* A CLOSE with a payload. */
	len = build_valid(b, MRC_PKT_CLOSE);
	b[len] = 'x';
	EXPECT_EQ(MRC_DROP_LENGTH, parse_exact(b, len + 1, &pkt));
}

/*
 * A REQ must be exactly 676 bytes, whatever its n_rails: unpadded (v1's
 * length), cut anywhere in its padding, or longer, it is dropped as
 * "length" before anything else is looked at.
 */
TEST(wire_req_padded_length)
{
	struct mrc_pkt pkt;
	u8 b[MAXPKT];
	unsigned int n;
	size_t len, l;

	unit_seed();
	for (n = 1; n < MRC_WIRE_MAX_RAILS; n++) {
		len = build_req(b, MRC_PKT_REQ, n);
		for (l = MRC_REQ_LEN(0); l < len; l++)
			EXPECT_EQ(MRC_DROP_LENGTH, parse_exact(b, l, &pkt)) {
				TH_LOG("n_rails %u, %zu bytes", n, l);
			}
		/* even when the bad length is not the only fault */
		b[27] = 1;
		w32(b + 4, 1);
		EXPECT_EQ(MRC_DROP_LENGTH, parse_exact(b, MRC_REQ_LEN(n), &pkt));
	}
	/* 32 rails fill a REQ: no padding. */
	len = build_req(b, MRC_PKT_REQ, MRC_WIRE_MAX_RAILS);
	ASSERT_EQ(MRC_REQ_LEN(MRC_WIRE_MAX_RAILS), len);
	EXPECT_EQ(MRC_DROP_NONE, parse_exact(b, len, &pkt));
	EXPECT_EQ(MRC_DROP_LENGTH, parse_exact(b, len - 20, &pkt));
	/* Longer: a byte, a rail more. */
	len = build_req(b, MRC_PKT_REQ, 3);
	memset(b + len, 0, sizeof(b) - len);
	EXPECT_EQ(MRC_DROP_LENGTH, parse_exact(b, len + 1, &pkt));
	EXPECT_EQ(MRC_DROP_LENGTH, parse_exact(b, len + 20, &pkt));
}

/* Build a valid packet of @type, apply @mutate, expect BAD_FIELD. */
#define EXPECT_BAD(type, mutate) do {					\
		len = build_valid(b, type);				\
		mutate;							\
		EXPECT_EQ(MRC_DROP_BAD_FIELD, parse_exact(b, len, &pkt)) { \
			TH_LOG("%s", #mutate);				\
		}							\
	} while (0)

/* A DATA trimmed to its headers by a switch parses, inside its message. */
TEST(wire_trimmed_data)
{
	struct mrc_pkt pkt;
	u8 b[MAXPKT];

	build_data(b, MRC_PKT_DATA, 0);
	w32(b + 20, 1000);
	w32(b + 24, 0);
	ASSERT_EQ(MRC_DROP_NONE, parse_exact(b, 36, &pkt));
	EXPECT_EQ(0U, pkt.payload_len);
	EXPECT_EQ(36U, pkt.hdr_len);
	w32(b + 24, 999);
	EXPECT_EQ(MRC_DROP_NONE, parse_exact(b, 36, &pkt));
	w32(b + 24, 1000);
	EXPECT_EQ(MRC_DROP_BAD_FIELD, parse_exact(b, 36, &pkt));
	w32(b + 20, 0);
	w32(b + 24, 0);
	EXPECT_EQ(MRC_DROP_BAD_FIELD, parse_exact(b, 36, &pkt));
}

TEST(wire_drop_bad_field)
{
	struct mrc_pkt pkt;
	u8 b[MAXPKT];
	size_t len;
	int t;

	unit_seed();
	/* Connection ids. */
	for (t = 1; t < __MRC_PKT_MAX; t++) {
		EXPECT_BAD(t, w32(b + 8, 0));
		if (t != MRC_PKT_REQ)
			EXPECT_BAD(t, w32(b + 4, 0));
	}
	EXPECT_BAD(MRC_PKT_REQ, w32(b + 4, 1));
	/* DATA and CLOSE. */
	EXPECT_BAD(MRC_PKT_DATA, w16(b + 28, MRC_EV_MAX + 1));
	EXPECT_BAD(MRC_PKT_CLOSE, w16(b + 28, 0xffff));
	EXPECT_BAD(MRC_PKT_DATA, w32(b + 20, 0); w32(b + 24, 0));
	EXPECT_BAD(MRC_PKT_DATA, w32(b + 24, r32(b + 20) - (u32)(len - 36) + 1));
	EXPECT_BAD(MRC_PKT_DATA, w32(b + 24, 0xffffffffU));
	EXPECT_BAD(MRC_PKT_DATA, w32(b + 20, 0xffffffffU); w32(b + 24, 0xffffffffU));
	EXPECT_BAD(MRC_PKT_DATA, w32(b + 20, (u32)(len - 36) - 1); w32(b + 24, 0));
	/* headers only (trimmed) at or beyond the message's end */
	EXPECT_BAD(MRC_PKT_DATA, len = 36; w32(b + 24, r32(b + 20)));
	EXPECT_BAD(MRC_PKT_CLOSE, w32(b + 20, 1));
	EXPECT_BAD(MRC_PKT_CLOSE, w32(b + 24, 1));
	/* ACK and NACK. */
	EXPECT_BAD(MRC_PKT_ACK, b[59] = MRC_NACK_NO_BUFFER);
	EXPECT_BAD(MRC_PKT_NACK, b[59] = 0);
	EXPECT_BAD(MRC_PKT_NACK, b[59] = __MRC_NACK_MAX);
	EXPECT_BAD(MRC_PKT_ACK, w16(b + 56, MRC_EV_MAX + 1));
	/* REQ and ACCEPT. */
	EXPECT_BAD(MRC_PKT_REQ, b[26] = 0);		/* padded: any n_rails */
	EXPECT_BAD(MRC_PKT_REQ, b[26] = 33);
	EXPECT_BAD(MRC_PKT_REQ, b[26] = 255);
	EXPECT_BAD(MRC_PKT_ACCEPT, b[26] = 0; len = MRC_REQ_LEN(0));
	EXPECT_BAD(MRC_PKT_ACCEPT, len = build_req(b, MRC_PKT_ACCEPT, 33));
	EXPECT_BAD(MRC_PKT_REQ, w16(b + 24, 63));
	EXPECT_BAD(MRC_PKT_ACCEPT, w32(b + 28, 0));
	EXPECT_BAD(MRC_PKT_REQ, b[36] = 32);		/* plane */
	EXPECT_BAD(MRC_PKT_REQ, b[37] = 5);		/* family */
	EXPECT_BAD(MRC_PKT_ACCEPT, b[37] = 0);
	EXPECT_BAD(MRC_PKT_REQ, w32(b + 16, 0));	/* isn 0 */
	EXPECT_BAD(MRC_PKT_ACCEPT, w32(b + 32, 0));	/* echo 0 */
	/* RESET, PROBE. */
	EXPECT_BAD(MRC_PKT_RESET, w32(b + 12, 0));
	EXPECT_BAD(MRC_PKT_RESET, w32(b + 12, __MRC_RESET_MAX));
	EXPECT_BAD(MRC_PKT_PROBE, w16(b + 16, MRC_EV_MAX + 1));
	EXPECT_BAD(MRC_PKT_PROBE_ACK, w16(b + 16, 0x8000));
}

/*
 * A DATA packet's ACK part (MRC_F_DATA_ACK): 64 bytes after the DATA
 * part, checked as an ACK's; only on DATA; its CE flag only with it.  A
 * REQ's unknown capabilities are ignored, an ACCEPT's are not.
 */
TEST(wire_data_ack)
{
	struct mrc_pkt pkt;
	u8 b[MAXPKT];
	size_t len, l;

	unit_seed();
	acks_on_data = true;
	do {
		len = build_data(b, MRC_PKT_DATA, 300);
	} while (!(r16(b + 2) & MRC_F_DATA_ACK));
	w16(b + 2, MRC_F_DATA_ACK | MRC_F_DATA_ACK_CE);
	EXPECT_EQ(MRC_DATA_ACK_HDR_LEN, mrc_wire_hdr_need(b, len));
	ASSERT_EQ(MRC_DROP_NONE, parse_exact(b, len, &pkt));
	EXPECT_EQ(MRC_DATA_ACK_HDR_LEN, pkt.hdr_len);
	EXPECT_EQ(300U, pkt.payload_len);
	EXPECT_EQ(0, memcmp(&pkt.u.dack, b + 36, 64));
	EXPECT_EQ(r32(b + 12), be32_to_cpu(pkt.u.data.psn));
	/* headers only: a trimmed segment; shorter: too short */
	for (l = MRC_DATA_HDR_LEN; l < MRC_DATA_ACK_HDR_LEN; l++)
		EXPECT_EQ(MRC_DROP_LENGTH, parse_exact(b, l, &pkt));
	EXPECT_EQ(MRC_DROP_NONE, parse_exact(b, MRC_DATA_ACK_HDR_LEN, &pkt));
	EXPECT_EQ(0U, pkt.payload_len);
	w16(b + 2, MRC_F_DATA_ACK_CE);
	EXPECT_EQ(MRC_DATA_HDR_LEN, mrc_wire_hdr_need(b, len));
	EXPECT_EQ(MRC_DROP_RESERVED, parse_exact(b, len, &pkt));
	w16(b + 2, MRC_F_DATA_ACK);
	b[36 + 47] = MRC_NACK_TRIMMED;		/* an ACK part is no NACK */
	EXPECT_EQ(MRC_DROP_BAD_FIELD, parse_exact(b, len, &pkt));
	b[36 + 47] = 0;
	w16(b + 36 + 44, MRC_EV_MAX + 1);	/* trig_ev */
	EXPECT_EQ(MRC_DROP_BAD_FIELD, parse_exact(b, len, &pkt));
	w16(b + 36 + 44, MRC_EV_MAX);
	w32(b + 36 + 60, 0xfedcba98);		/* host_delay_us: any value */
	EXPECT_EQ(MRC_DROP_NONE, parse_exact(b, len, &pkt));
	EXPECT_EQ(0xfedcba98U, be32_to_cpu(pkt.u.dack.host_delay_us));
	w32(b + 36 + 60, 0);
	EXPECT_EQ(MRC_DROP_NONE, parse_exact(b, len, &pkt));
	/* A CLOSE carries none. */
	len = build_data(b, MRC_PKT_CLOSE, 0);
	w16(b + 2, MRC_F_DATA_ACK);
	EXPECT_EQ(MRC_DROP_LENGTH, parse_exact(b, len, &pkt));
	memset(b + 36, 0, 64);
	EXPECT_EQ(MRC_DROP_RESERVED, parse_exact(b, MRC_DATA_ACK_HDR_LEN, &pkt));
	/* Capabilities. */
	len = build_req(b, MRC_PKT_REQ, 2);
	w16(b + 2, 0xffff);
	EXPECT_EQ(MRC_DROP_NONE, parse_exact(b, len, &pkt));
	EXPECT_EQ(MRC_F_REQ_MASK, pkt.flags);
	w16(b + 2, 0xfffc);
	EXPECT_EQ(MRC_DROP_NONE, parse_exact(b, len, &pkt));
	EXPECT_EQ(0, pkt.flags);
	len = build_req(b, MRC_PKT_ACCEPT, 2);
	w16(b + 2, MRC_F_REQ_ACK_DATA);
	EXPECT_EQ(MRC_DROP_NONE, parse_exact(b, len, &pkt));
	EXPECT_EQ(MRC_F_REQ_ACK_DATA, pkt.flags);
	w16(b + 2, MRC_F_REQ_ACK_DATA | MRC_F_REQ_HOST_DELAY);
	EXPECT_EQ(MRC_DROP_NONE, parse_exact(b, len, &pkt));
	EXPECT_EQ(MRC_F_REQ_ACK_DATA | MRC_F_REQ_HOST_DELAY, pkt.flags);
	w16(b + 2, MRC_F_REQ_ACK_DATA | 0x0004);
	EXPECT_EQ(MRC_DROP_RESERVED, parse_exact(b, len, &pkt));
}

/* The boundaries just inside every range are accepted. */
TEST(wire_accepts_limits)
{
	struct mrc_pkt pkt;
	u8 b[MAXPKT];
	size_t len;
	int i;

	unit_seed();
	len = build_data(b, MRC_PKT_DATA, 5);
	w32(b + 20, 0xffffffffU);
	w32(b + 24, 0xffffffffU - 5);
	w16(b + 28, MRC_EV_MAX);
	b[30] = 255;
	EXPECT_EQ(MRC_DROP_NONE, parse_exact(b, len, &pkt));
	EXPECT_EQ(5U, pkt.payload_len);
	len = build_data(b, MRC_PKT_DATA, 1);
	w32(b + 20, 1);
	w32(b + 24, 0);
	EXPECT_EQ(MRC_DROP_NONE, parse_exact(b, len, &pkt));
	len = build_req(b, MRC_PKT_REQ, MRC_WIRE_MAX_RAILS);
	w16(b + 24, 64);
	w32(b + 28, 1);
	w32(b + 16, 1);
	for (i = 0; i < MRC_WIRE_MAX_RAILS; i++)
		b[36 + 20 * i] = 31;
	EXPECT_EQ(MRC_DROP_NONE, parse_exact(b, len, &pkt));
	EXPECT_EQ(MRC_REQ_WIRE_LEN, pkt.hdr_len);
	EXPECT_EQ(31, pkt.u.req.rails[MRC_WIRE_MAX_RAILS - 1].plane);
	len = build_req(b, MRC_PKT_ACCEPT, MRC_WIRE_MAX_RAILS);
	EXPECT_EQ(MRC_DROP_NONE, parse_exact(b, len, &pkt));
	EXPECT_EQ(MRC_REQ_WIRE_LEN, pkt.hdr_len);
	len = build_req(b, MRC_PKT_ACCEPT, 1);
	w32(b + 16, 0);			/* the server's isn may be 0 */
	EXPECT_EQ(MRC_DROP_NONE, parse_exact(b, len, &pkt));
	EXPECT_EQ(MRC_REQ_LEN(1), pkt.hdr_len);
	len = build_ack(b, MRC_PKT_NACK);
	b[59] = __MRC_NACK_MAX - 1;
	EXPECT_EQ(MRC_DROP_NONE, parse_exact(b, len, &pkt));
	len = build_reset(b);
	w32(b + 12, __MRC_RESET_MAX - 1);
	EXPECT_EQ(MRC_DROP_NONE, parse_exact(b, len, &pkt));
}

TEST(wire_drop_reason_names)
{
	static const char * const names[] = {
		"none", "short", "version", "type", "reserved", "length",
		"bad-field", "bad-checksum", "no-rail", "no-conn",
		"no-listener", "bad-source", "state", "out-of-window",
		"duplicate", "no-buffer", "bad-data", "msg-too-big", "backlog",
		"bad-ack", "trimmed",
	};
	unsigned int i;

	ASSERT_EQ(ARRAY_SIZE(names), (size_t)__MRC_DROP_MAX);
	for (i = 0; i < ARRAY_SIZE(names); i++)
		EXPECT_STREQ(names[i], mrc_wire_drop_reason_name(i));
	EXPECT_STREQ("bad-checksum", mrc_wire_drop_reason_name(MRC_DROP_CSUM));
	EXPECT_STREQ("bad-ack", mrc_wire_drop_reason_name(MRC_DROP_BAD_ACK));
	EXPECT_STREQ("unknown", mrc_wire_drop_reason_name(__MRC_DROP_MAX));
	EXPECT_STREQ("unknown", mrc_wire_drop_reason_name(~0U));
}

/* Every prefix of every valid packet: rejected (or, for DATA, a shorter
 * payload), never read past its end.
 */
TEST(wire_truncations)
{
	struct mrc_pkt pkt;
	int why;
	u8 b[MAXPKT];
	size_t len, l;
	int t, i;

	unit_seed();
	for (t = 1; t < __MRC_PKT_MAX; t++) {
		for (i = 0; i < 20; i++) {
			if (t == MRC_PKT_REQ || t == MRC_PKT_ACCEPT)
				len = build_req(b, t, i ? 1 + unit_rand32() % 32 : 32);
			else
				len = build_valid(b, t);
			for (l = 0; l < len; l++) {
				why = parse_exact(b, l, &pkt);
				ASSERT_EQ(oracle_valid(b, l), why == MRC_DROP_NONE);
				if (t == MRC_PKT_DATA && l >= MRC_DATA_HDR_LEN) {
					ASSERT_EQ(MRC_DROP_NONE, why);
					ASSERT_EQ(l - MRC_DATA_HDR_LEN, pkt.payload_len);
				} else if (l < MRC_HDR_LEN) {
					ASSERT_EQ(MRC_DROP_SHORT, why);
				} else if (t != MRC_PKT_DATA) {
					ASSERT_EQ(MRC_DROP_LENGTH, why);
				} else {
					ASSERT_NE(MRC_DROP_NONE, why);
				}
			}
		}
	}
}

static bool documented_parse_reason(int why)
{
	switch (why) {
	case MRC_DROP_NONE:
	case MRC_DROP_SHORT:
	case MRC_DROP_VERSION:
	case MRC_DROP_TYPE:
	case MRC_DROP_RESERVED:
	case MRC_DROP_LENGTH:
	case MRC_DROP_BAD_FIELD:
		return true;
	default:
		return false;
	}
}

/* Random mutations of valid packets: no crash, no overread, only the
 * parser's documented reasons, and the same verdict as the oracle.
 */
TEST(wire_mutations_agree_with_oracle)
{
	u32 counts[__MRC_DROP_MAX] = { 0 };
	int why;
	struct mrc_pkt pkt;
	u8 b[MAXPKT + 64];
	int i, k, nmut, r;
	size_t len, pos;

	unit_seed();
	acks_on_data = true;
	for (i = 0; i < 300000; i++) {
		len = build_valid(b, 1 + unit_rand32() % (__MRC_PKT_MAX - 1));
		nmut = unit_rand32() % 4;
		for (k = 0; k < nmut; k++) {
			pos = unit_rand32() % len;
			r = unit_rand32() % 8;
			if (r == 0)
				b[pos] = unit_rand32();
			else if (r == 1)
				b[pos] ^= 1U << (unit_rand32() % 8);
			else if (r == 2)
				b[pos] = 0;
			else if (r == 3)
				b[pos] = 0xff;
			else if (r == 4)
				len = unit_rand32() % (len + 1);
			else if (r == 5 && len < MAXPKT)
				b[len++] = unit_rand32();
			else if (r == 6)
				b[pos] = unit_rand32() % 40;
			/* r == 7: leave it */
			if (!len)
				break;
		}
		why = parse_exact(b, len, &pkt);
		ASSERT_TRUE(documented_parse_reason(why)) {
			TH_LOG("reason %d", why);
		}
		ASSERT_EQ(oracle_valid(b, len), why == MRC_DROP_NONE) {
			TH_LOG("iteration %d: type %d len %zu reason %s", i,
			       len > 1 ? b[1] : -1, len,
			       mrc_wire_drop_reason_name(why));
		}
		if (why == MRC_DROP_NONE)
			check_parsed(_metadata, b, len, &pkt);
		counts[why]++;
	}
	for (i = 0; i <= MRC_DROP_BAD_FIELD; i++) {
		TH_LOG("%-10s %u", mrc_wire_drop_reason_name(i), counts[i]);
		EXPECT_NE(0U, counts[i]);
	}
}

/* Completely random bytes, of random lengths, behind a valid-looking start. */
TEST(wire_random_garbage)
{
	int why;
	struct mrc_pkt pkt;
	u8 b[1024];
	size_t len, j;
	int i;

	unit_seed();
	for (i = 0; i < 100000; i++) {
		len = unit_rand32() % sizeof(b);
		for (j = 0; j < len; j++)
			b[j] = unit_rand32();
		if (len > 1 && (i & 1)) {
			b[0] = MRC_WIRE_VERSION;
			b[1] = unit_rand32() % 11;
		}
		why = parse_exact(b, len, &pkt);
		ASSERT_TRUE(documented_parse_reason(why));
		ASSERT_EQ(oracle_valid(b, len), why == MRC_DROP_NONE);
	}
}

TEST_HARNESS_MAIN
