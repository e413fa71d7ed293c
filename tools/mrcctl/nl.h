/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Generic netlink plumbing: the "mrc" family, requests with extended ACK
 * error reporting, multicast notifications, attribute parsing.
 */
#ifndef MRCCTL_NL_H
#define MRCCTL_NL_H

#include <libmnl/libmnl.h>
#include <linux/types.h>

#define NL_ERRMSG_SIZE	256
/* requests are small: one page is plenty */
#define NL_TX_BUF_SIZE	4096

struct nl {
	struct mnl_socket *sk;
	unsigned int portid;
	unsigned int seq;
	__u16 family;		/* id of the "mrc" family */
	__u32 events_grp;	/* id of its "events" group, 0 if none */
	__u32 conns_grp;	/* id of its "conns" group, 0 if none */
	int err;		/* errno of the last failed request */
	char errmsg[NL_ERRMSG_SIZE];	/* its extack message, or "" */
};

/*
 * Open a socket and resolve the "mrc" family; on failure prints the error
 * and returns -1.
 */
int nl_open(struct nl *nl);
void nl_close(struct nl *nl);

/* start a request of the mrc family in buf (NL_TX_BUF_SIZE bytes) */
struct nlmsghdr *nl_msg(struct nl *nl, void *buf, __u8 cmd, __u16 flags);

/*
 * Send a request, pass each reply message to cb (may be NULL) until the
 * ACK or the end of the dump.  Returns 0, or -1 with nl->err (and
 * nl->errmsg) set.
 */
int nl_talk(struct nl *nl, struct nlmsghdr *nlh, mnl_cb_t cb, void *data);
/* nl_talk(), printing "Error: ..." on failure */
int nl_request(struct nl *nl, struct nlmsghdr *nlh, mnl_cb_t cb, void *data);
/* print "Error: <extack message or strerror>." for nl->err */
void nl_perror(const struct nl *nl);

/*
 * Join the "events" group, and the "conns" group if allowed (it needs
 * CAP_NET_ADMIN: without, a note goes to stderr), and pass every
 * notification to cb, forever.
 */
int nl_monitor(struct nl *nl, mnl_cb_t cb, void *data);

/*
 * Attribute tables: tb[type] = the last attribute of that type whose
 * payload is valid for types[type]; types[type] == MNL_TYPE_UNSPEC, types
 * above max and invalid attributes are ignored.
 */
void nl_parse(const struct nlmsghdr *nlh, const enum mnl_attr_data_type *types,
	      unsigned int max, const struct nlattr **tb);
void nl_parse_nested(const struct nlattr *nest,
		     const enum mnl_attr_data_type *types, unsigned int max,
		     const struct nlattr **tb);

#endif /* MRCCTL_NL_H */
