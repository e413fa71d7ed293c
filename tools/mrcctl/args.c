// SPDX-License-Identifier: GPL-2.0
/*
 * Command-line arguments, see args.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <net/if.h>
#include <linux/mrc_netlink.h>

#include "args.h"

void usage_exit(const char *obj)
{
	if (obj)
		fprintf(stderr, " (try \"mrcctl %s help\")\n", obj);
	else
		fputs(" (try \"mrcctl help\")\n", stderr);
	exit(EXIT_USAGE);
}

bool arg_is(const char *arg, const char *word)
{
	return !strcmp(arg, word);
}

const char *arg_value(const char *obj, int argc, char **argv)
{
	if (argc < 2)
		usage_error(obj, "missing value for \"%s\"", argv[0]);
	return argv[1];
}

__u32 arg_u32(const char *obj, const char *what, const char *s, __u32 min,
	      __u32 max)
{
	unsigned long val;
	char *end;

	/* strtoul() would accept leading blanks, signs and "" */
	if (*s < '0' || *s > '9')
		goto bad;
	errno = 0;
	val = strtoul(s, &end, 10);
	if (errno || *end || val < min || val > max)
		goto bad;
	return val;
bad:
	usage_error(obj, "invalid %s \"%s\", expected %u..%u", what, s, min,
		    max);
}

__u32 arg_hex_u32(const char *obj, const char *what, const char *s, __u32 min,
		  __u32 max)
{
	unsigned long long val;
	const char *p = s;
	char *end;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	/* strtoull() would accept blanks, signs, "" and a second "0x" */
	if (!*p || strspn(p, "0123456789abcdefABCDEF") != strlen(p))
		goto bad;
	errno = 0;
	val = strtoull(p, &end, 16);
	if (errno || *end || val < min || val > max)
		goto bad;
	return val;
bad:
	usage_error(obj, "invalid %s \"%s\", expected %x..%x (hexadecimal)",
		    what, s, min, max);
}

__u32 arg_admin_state(const char *obj, const char *s)
{
	if (arg_is(s, "up"))
		return MRC_ADMIN_STATE_UP;
	if (arg_is(s, "down"))
		return MRC_ADMIN_STATE_DOWN;
	usage_error(obj, "invalid state \"%s\", expected \"up\" or \"down\"", s);
}

__u32 arg_ifindex(const char *name)
{
	unsigned int ifindex = if_nametoindex(name);

	if (!ifindex) {
		fprintf(stderr, "Error: device \"%s\" does not exist.\n", name);
		exit(1);
	}
	return ifindex;
}
