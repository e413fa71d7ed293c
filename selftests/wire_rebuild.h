/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wire_rebuild.h - for the unit tests and the fuzzer of core/wire.c: the
 * headers of a parsed packet written again with core/wire.c's builders,
 * the ones the module sends with (host order in; an ACK's fields through
 * mrc_wire_get_ack()).  Every packet mrc_wire_parse() accepts must come
 * out byte for byte as it went in.
 */
#ifndef _MRC_WIRE_REBUILD_H
#define _MRC_WIRE_REBUILD_H

#include "core/wire.h"

/* The headers of @pkt at @buf; returns their length (@pkt->hdr_len). */
static inline size_t wire_rebuild(u8 *buf, const struct mrc_pkt *pkt)
{
	const struct mrc_wire_req *q = &pkt->u.req.req;
	u8 *p = buf + MRC_HDR_LEN;
	struct mrc_data_info d;
	struct mrc_req_info r;
	struct mrc_ack_info a;
	size_t len;
	u32 i;

	mrc_wire_put_hdr(buf, pkt->type, pkt->flags, pkt->dst_conn, pkt->src_conn);
	switch (pkt->type) {
	case MRC_PKT_DATA:
	case MRC_PKT_CLOSE:
		d.psn = be32_to_cpu(pkt->u.data.psn);
		d.msg_id = be32_to_cpu(pkt->u.data.msg_id);
		d.msg_len = be32_to_cpu(pkt->u.data.msg_len);
		d.offset = be32_to_cpu(pkt->u.data.offset);
		d.ev = be16_to_cpu(pkt->u.data.ev);
		d.tx_count = pkt->u.data.tx_count;
		mrc_wire_put_data(p, &d);
		if (!(pkt->flags & MRC_F_DATA_ACK))
			return MRC_DATA_HDR_LEN;
		memset(&a, 0x5a, sizeof(a));
		mrc_wire_get_ack(&pkt->u.dack, &a);
		mrc_wire_put_ack(buf + MRC_DATA_HDR_LEN, &a);
		return MRC_DATA_ACK_HDR_LEN;
	case MRC_PKT_ACK:
	case MRC_PKT_NACK:
		memset(&a, 0x5a, sizeof(a));	/* every field must be set */
		mrc_wire_get_ack(&pkt->u.ack, &a);
		mrc_wire_put_ack(p, &a);
		return MRC_ACK_LEN;
	case MRC_PKT_REQ:
	case MRC_PKT_ACCEPT:
		r.dst_port = be16_to_cpu(q->dst_port);
		r.src_port = be16_to_cpu(q->src_port);
		r.isn = be32_to_cpu(q->isn);
		r.rwnd = be32_to_cpu(q->rwnd);
		r.max_payload = be16_to_cpu(q->max_payload);
		r.n_rails = q->n_rails;
		r.max_msg_size = be32_to_cpu(q->max_msg_size);
		r.echo = be32_to_cpu(q->echo);
		/* a REQ as handshake.c sends it: zeros up to the largest ACCEPT */
		len = mrc_wire_put_req(p, pkt->type, &r);
		for (i = 0; i < r.n_rails; i++)
			mrc_wire_put_rail(p, i, pkt->u.req.rails[i].plane,
					  pkt->u.req.rails[i].family,
					  pkt->u.req.rails[i].addr);
		return len;
	case MRC_PKT_RESET:
		mrc_wire_put_reset(p, be32_to_cpu(pkt->u.reset.reason));
		return MRC_RESET_LEN;
	default:
		mrc_wire_put_probe(p, be32_to_cpu(pkt->u.probe.seq),
				   be16_to_cpu(pkt->u.probe.ev),
				   be32_to_cpu(pkt->u.probe.stamp));
		return MRC_PROBE_LEN;
	}
}

#endif /* _MRC_WIRE_REBUILD_H */
