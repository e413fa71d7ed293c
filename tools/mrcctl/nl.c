// SPDX-License-Identifier: GPL-2.0
/*
 * Generic netlink plumbing, see nl.h.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <time.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/mrc_netlink.h>

#include "nl.h"

/*
 * Enough for any dump skb the kernel builds (at most 32 KiB); grown for
 * larger messages: a do reply or notification of a rail with many queues
 * (44 bytes each, up to 2034 of them) is sized for the whole rail.
 */
#define NL_RX_BUF_SIZE	65536

static char *rxbuf;
static size_t rxbuf_size;

/*
 * Receive one datagram into rxbuf, grown first if it is larger.  Returns
 * its length, or -1 with errno set.
 */
static ssize_t nl_recv(struct nl *nl)
{
	int fd = mnl_socket_get_fd(nl->sk);
	size_t want = rxbuf_size ? rxbuf_size : NL_RX_BUF_SIZE;
	ssize_t len;
	char *buf;

	len = recv(fd, NULL, 0, MSG_PEEK | MSG_TRUNC);
	if (len < 0)
		return -1;
	while (want < (size_t)len)
		want *= 2;
	if (want > rxbuf_size) {
		buf = realloc(rxbuf, want);
		if (!buf)
			return -1;
		rxbuf = buf;
		rxbuf_size = want;
	}
	len = recv(fd, rxbuf, rxbuf_size, 0);
	if (len > (ssize_t)rxbuf_size) {
		errno = ENOSPC;		/* grew in between: cannot happen */
		return -1;
	}
	return len;
}

struct parse_ctx {
	const enum mnl_attr_data_type *types;
	unsigned int max;
	const struct nlattr **tb;
};

static int parse_cb(const struct nlattr *attr, void *data)
{
	struct parse_ctx *ctx = data;
	unsigned int type = mnl_attr_get_type(attr);

	if (type > ctx->max || ctx->types[type] == MNL_TYPE_UNSPEC)
		return MNL_CB_OK;
	if (mnl_attr_validate(attr, ctx->types[type]) < 0)
		return MNL_CB_OK;
	ctx->tb[type] = attr;
	return MNL_CB_OK;
}

void nl_parse(const struct nlmsghdr *nlh, const enum mnl_attr_data_type *types,
	      unsigned int max, const struct nlattr **tb)
{
	struct parse_ctx ctx = { types, max, tb };

	mnl_attr_parse(nlh, GENL_HDRLEN, parse_cb, &ctx);
}

void nl_parse_nested(const struct nlattr *nest,
		     const enum mnl_attr_data_type *types, unsigned int max,
		     const struct nlattr **tb)
{
	struct parse_ctx ctx = { types, max, tb };

	mnl_attr_parse_nested(nest, parse_cb, &ctx);
}

struct talk_ctx {
	struct nl *nl;
	mnl_cb_t cb;
	void *data;
};

/* the extended ACK message of an error, ACK or DONE message, or NULL */
static const char *extack_msg(const struct nlmsghdr *nlh, size_t off)
{
	static const enum mnl_attr_data_type types[NLMSGERR_ATTR_MAX + 1] = {
		[NLMSGERR_ATTR_MSG] = MNL_TYPE_NUL_STRING,
	};
	const struct nlattr *tb[NLMSGERR_ATTR_MAX + 1] = {};
	struct parse_ctx ctx = { types, NLMSGERR_ATTR_MAX, tb };
	size_t len = mnl_nlmsg_get_payload_len(nlh);

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return NULL;
	off = MNL_ALIGN(off);
	if (off >= len)
		return NULL;
	mnl_attr_parse_payload((const char *)mnl_nlmsg_get_payload(nlh) + off,
			       len - off, parse_cb, &ctx);
	if (!tb[NLMSGERR_ATTR_MSG])
		return NULL;
	return mnl_attr_get_str(tb[NLMSGERR_ATTR_MSG]);
}

static void print_extack(const char *prefix, const char *msg)
{
	size_t len = strlen(msg);

	fprintf(stderr, "%s: %s%s\n", prefix, msg,
		len && msg[len - 1] == '.' ? "" : ".");
}

/* error is a negative errno, 0 for success */
static int talk_status(struct talk_ctx *ctx, int error, const char *msg)
{
	if (!error) {
		if (msg && *msg)
			print_extack("Warning", msg);
		return MNL_CB_STOP;
	}
	ctx->nl->err = error < 0 ? -error : EPROTO;
	if (msg)
		snprintf(ctx->nl->errmsg, sizeof(ctx->nl->errmsg), "%s", msg);
	errno = ctx->nl->err;
	return MNL_CB_ERROR;
}

static int talk_error(const struct nlmsghdr *nlh, void *data)
{
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	size_t off = sizeof(*e);

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*e))
		return talk_status(data, -EBADMSG, NULL);
	/* without NLM_F_CAPPED the whole request follows */
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED) &&
	    e->msg.nlmsg_len >= sizeof(struct nlmsghdr))
		off += e->msg.nlmsg_len - sizeof(struct nlmsghdr);
	return talk_status(data, e->error, extack_msg(nlh, off));
}

/* a dump's end; since Linux 4.x it carries the dump's error, if any */
static int talk_done(const struct nlmsghdr *nlh, void *data)
{
	int error = 0;

	if (mnl_nlmsg_get_payload_len(nlh) >= sizeof(error))
		memcpy(&error, mnl_nlmsg_get_payload(nlh), sizeof(error));
	if (error > 0)
		error = 0;
	return talk_status(data, error,
			   error ? extack_msg(nlh, sizeof(error)) : NULL);
}

static int talk_data(const struct nlmsghdr *nlh, void *data)
{
	struct talk_ctx *ctx = data;

	return ctx->cb ? ctx->cb(nlh, ctx->data) : MNL_CB_OK;
}

/* NULL entries (NLMSG_NOOP, NLMSG_OVERRUN) are skipped */
static mnl_cb_t talk_ctl[NLMSG_MIN_TYPE] = {
	[NLMSG_ERROR] = talk_error,
	[NLMSG_DONE] = talk_done,
};

int nl_talk(struct nl *nl, struct nlmsghdr *nlh, mnl_cb_t cb, void *data)
{
	struct talk_ctx ctx = { nl, cb, data };
	int ret = MNL_CB_OK;
	ssize_t n;

	nl->err = 0;
	nl->errmsg[0] = '\0';
	nlh->nlmsg_seq = ++nl->seq;
	if (mnl_socket_sendto(nl->sk, nlh, nlh->nlmsg_len) < 0) {
		nl->err = errno;
		return -1;
	}
	do {
		n = nl_recv(nl);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			nl->err = errno;
			return -1;
		}
		ret = mnl_cb_run2(rxbuf, n, nlh->nlmsg_seq, nl->portid,
				  talk_data, &ctx, talk_ctl, MNL_ARRAY_SIZE(talk_ctl));
	} while (ret > MNL_CB_STOP);
	if (ret < 0) {
		if (nl->err)
			return -1;
		nl->err = errno ? errno : EPROTO;
		/* mnl_cb_run2() says EINTR for NLM_F_DUMP_INTR */
		if (nl->err == EINTR)
			snprintf(nl->errmsg, sizeof(nl->errmsg),
				 "dump interrupted by a concurrent change, try again");
		return -1;
	}
	return 0;
}

void nl_perror(const struct nl *nl)
{
	if (nl->errmsg[0])
		print_extack("Error", nl->errmsg);
	else
		fprintf(stderr, "Error: %s.\n", strerror(nl->err));
}

int nl_request(struct nl *nl, struct nlmsghdr *nlh, mnl_cb_t cb, void *data)
{
	if (nl_talk(nl, nlh, cb, data) < 0) {
		nl_perror(nl);
		return -1;
	}
	return 0;
}

static int family_grp_cb(struct nl *nl, const struct nlattr *grp)
{
	static const enum mnl_attr_data_type types[CTRL_ATTR_MCAST_GRP_MAX + 1] = {
		[CTRL_ATTR_MCAST_GRP_NAME] = MNL_TYPE_NUL_STRING,
		[CTRL_ATTR_MCAST_GRP_ID] = MNL_TYPE_U32,
	};
	const struct nlattr *tb[CTRL_ATTR_MCAST_GRP_MAX + 1] = {};
	const char *name;

	nl_parse_nested(grp, types, CTRL_ATTR_MCAST_GRP_MAX, tb);
	if (!tb[CTRL_ATTR_MCAST_GRP_NAME] || !tb[CTRL_ATTR_MCAST_GRP_ID])
		return 0;
	name = mnl_attr_get_str(tb[CTRL_ATTR_MCAST_GRP_NAME]);
	if (!strcmp(name, MRC_MCGRP_EVENTS))
		nl->events_grp = mnl_attr_get_u32(tb[CTRL_ATTR_MCAST_GRP_ID]);
	else if (!strcmp(name, MRC_MCGRP_CONNS))
		nl->conns_grp = mnl_attr_get_u32(tb[CTRL_ATTR_MCAST_GRP_ID]);
	return 0;
}

static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	static const enum mnl_attr_data_type types[CTRL_ATTR_MAX + 1] = {
		[CTRL_ATTR_FAMILY_ID] = MNL_TYPE_U16,
		[CTRL_ATTR_MCAST_GROUPS] = MNL_TYPE_NESTED,
	};
	const struct nlattr *tb[CTRL_ATTR_MAX + 1] = {};
	const struct nlattr *grp;
	struct nl *nl = data;

	nl_parse(nlh, types, CTRL_ATTR_MAX, tb);
	if (tb[CTRL_ATTR_FAMILY_ID])
		nl->family = mnl_attr_get_u16(tb[CTRL_ATTR_FAMILY_ID]);
	if (tb[CTRL_ATTR_MCAST_GROUPS])
		mnl_attr_for_each_nested(grp, tb[CTRL_ATTR_MCAST_GROUPS])
			family_grp_cb(nl, grp);
	return MNL_CB_OK;
}

static int nl_resolve(struct nl *nl)
{
	char buf[NL_TX_BUF_SIZE];
	struct nlmsghdr *nlh;
	struct genlmsghdr *genl;

	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = GENL_ID_CTRL;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = CTRL_CMD_GETFAMILY;
	genl->version = 1;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, MRC_FAMILY_NAME);

	if (nl_talk(nl, nlh, family_cb, nl) < 0) {
		if (nl->err == ENOENT)
			fprintf(stderr,
				"Error: mrc is not loaded (generic netlink family \"%s\" not found).\n",
				MRC_FAMILY_NAME);
		else
			nl_perror(nl);
		return -1;
	}
	if (!nl->family) {
		fprintf(stderr,
			"Error: no id in the reply for generic netlink family \"%s\".\n",
			MRC_FAMILY_NAME);
		return -1;
	}
	return 0;
}

int nl_open(struct nl *nl)
{
	int one = 1;

	memset(nl, 0, sizeof(*nl));
	nl->sk = mnl_socket_open(NETLINK_GENERIC);
	if (!nl->sk) {
		fprintf(stderr, "Error: cannot open generic netlink socket: %s.\n",
			strerror(errno));
		return -1;
	}
	/* both are optional: older kernels just report less */
	mnl_socket_setsockopt(nl->sk, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(nl->sk, NETLINK_CAP_ACK, &one, sizeof(one));
	if (mnl_socket_bind(nl->sk, 0, MNL_SOCKET_AUTOPID) < 0) {
		fprintf(stderr, "Error: cannot bind generic netlink socket: %s.\n",
			strerror(errno));
		nl_close(nl);
		return -1;
	}
	nl->portid = mnl_socket_get_portid(nl->sk);
	nl->seq = time(NULL);
	if (nl_resolve(nl) < 0) {
		nl_close(nl);
		return -1;
	}
	return 0;
}

void nl_close(struct nl *nl)
{
	if (nl->sk)
		mnl_socket_close(nl->sk);
	nl->sk = NULL;
}

struct nlmsghdr *nl_msg(struct nl *nl, void *buf, __u8 cmd, __u16 flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *genl;

	nlh->nlmsg_type = nl->family;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = cmd;
	genl->version = MRC_FAMILY_VERSION;
	return nlh;
}

int nl_monitor(struct nl *nl, mnl_cb_t cb, void *data)
{
	unsigned int grp = nl->events_grp;
	ssize_t n;

	if (!grp) {
		fprintf(stderr,
			"Error: generic netlink family \"%s\" has no multicast group \"%s\".\n",
			MRC_FAMILY_NAME, MRC_MCGRP_EVENTS);
		return -1;
	}
	if (mnl_socket_setsockopt(nl->sk, NETLINK_ADD_MEMBERSHIP, &grp,
				  sizeof(grp)) < 0) {
		fprintf(stderr, "Error: cannot join multicast group \"%s\": %s.\n",
			MRC_MCGRP_EVENTS, strerror(errno));
		return -1;
	}
	/* path-change events carry connection ids: CAP_NET_ADMIN only */
	grp = nl->conns_grp;
	if (grp && mnl_socket_setsockopt(nl->sk, NETLINK_ADD_MEMBERSHIP, &grp,
					 sizeof(grp)) < 0) {
		if (errno != EPERM) {
			fprintf(stderr, "Error: cannot join multicast group \"%s\": %s.\n",
				MRC_MCGRP_CONNS, strerror(errno));
			return -1;
		}
		fprintf(stderr,
			"Note: no path-change events: they carry connection ids and need CAP_NET_ADMIN.\n");
	}
	for (;;) {
		n = nl_recv(nl);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ENOBUFS) {
				fprintf(stderr,
					"Warning: events lost (receive buffer overflow or kernel out of memory); dump to resync.\n");
				continue;
			}
			fprintf(stderr, "Error: cannot receive events: %s.\n",
				strerror(errno));
			return -1;
		}
		/* notifications are not ours: no sequence or port check */
		if (mnl_cb_run(rxbuf, n, 0, 0, cb, data) < 0 && errno != EINTR) {
			fprintf(stderr, "Error: bad event message: %s.\n",
				strerror(errno));
			return -1;
		}
	}
}
