/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Command-line arguments: usage errors (exit status 2), keywords, numbers
 * and device names.
 */
#ifndef MRCCTL_ARGS_H
#define MRCCTL_ARGS_H

#include <stdbool.h>
#include <stdio.h>
#include <stdnoreturn.h>
#include <linux/types.h>

#define EXIT_USAGE	2

/*
 * Print "mrcctl: MESSAGE (try "mrcctl [OBJ ]help")" and exit with status
 * 2; obj is NULL for errors outside of an object, fmt a string literal.
 */
#define usage_error(obj, fmt, ...)					\
	do {								\
		fprintf(stderr, "mrcctl: " fmt, ##__VA_ARGS__);		\
		usage_exit(obj);					\
	} while (0)

/* the end of usage_error(): the hint and exit status 2 */
noreturn void usage_exit(const char *obj);

bool arg_is(const char *arg, const char *word);
/* the value following keyword argv[0], or a usage error */
const char *arg_value(const char *obj, int argc, char **argv);
/* a decimal number in min..max, or a usage error naming what */
__u32 arg_u32(const char *obj, const char *what, const char *s, __u32 min,
	      __u32 max);
/*
 * A hexadecimal number in min..max, with or without "0x", or a usage
 * error naming what
 */
__u32 arg_hex_u32(const char *obj, const char *what, const char *s, __u32 min,
		  __u32 max);
/* "up" or "down" as an MRC_ADMIN_STATE_*, or a usage error */
__u32 arg_admin_state(const char *obj, const char *s);
/*
 * ifindex of the netdevice called name, or print "Error: device "NAME"
 * does not exist." and exit with status 1.
 */
__u32 arg_ifindex(const char *name);

#endif /* MRCCTL_ARGS_H */
