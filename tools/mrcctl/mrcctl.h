/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mrcctl: command-line tool of the "mrc" generic netlink family.  Global
 * options and the objects' entry points.
 */
#ifndef MRCCTL_H
#define MRCCTL_H

#include <stdbool.h>
#include <stdio.h>
#include <libmnl/libmnl.h>
#include <linux/types.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

struct mrcctl_opts {
	bool json;
	bool pretty;
	bool stats;
};

extern struct mrcctl_opts opts;

/* OBJECT COMMAND [ARGS]: argv starts at COMMAND; return the exit status */
int do_dev(int argc, char **argv);
int do_rail(int argc, char **argv);
int do_conn(int argc, char **argv);
int do_path(int argc, char **argv);
int do_monitor(int argc, char **argv);

void dev_usage(FILE *f);
void rail_usage(FILE *f);
void conn_usage(FILE *f);
void path_usage(FILE *f);
void monitor_usage(FILE *f);

/*
 * Print the object of a reply or notification; event is the notification's
 * name ("rail-add"), NULL for replies.
 */
void dev_print(const struct nlmsghdr *nlh, const char *event);
void rail_print(const struct nlmsghdr *nlh, const char *event);
/*
 * A rail a dump spread over n messages: the first carries the rail, the
 * next ones its ifindex and more queues.
 */
void rail_print_parts(const struct nlmsghdr *const *parts, unsigned int n,
		      const char *event);
/*
 * A connection (reply of conn-get, or path-change notification); with an
 * event, text is one line: the connection and the paths of each plane per
 * state.
 */
void conn_print(const struct nlmsghdr *nlh, const char *event);

/* the text table of a path-get dump so far; zero it before the first row */
struct path_table {
	unsigned int rows;	/* rows printed; the header comes first */
	__u32 conn;		/* connection id of the last row (0: hidden) */
	__u32 index;		/* path index of the last row */
};

/* a path (reply of path-get): a row of the table in text */
void path_print(const struct nlmsghdr *nlh, struct path_table *t);
/* the summary of a rail (MRC_A_DEV_RAIL nest) in a device */
void rail_print_brief(const struct nlattr *nest);
/* a stats nest (MRC_A_DEV_STATS, MRC_A_RAIL_STATS) */
void stats_print(const struct nlattr *nest);

#endif /* MRCCTL_H */
