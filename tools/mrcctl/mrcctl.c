// SPDX-License-Identifier: GPL-2.0
/*
 * mrcctl: command-line tool of the "mrc" generic netlink family.
 *
 * mrcctl [OPTIONS] OBJECT COMMAND [ARGS], in the manner of ip(8).  Order
 * of the checks: options, network namespace, the command line (exit
 * status 2), device names (1), then the generic netlink family (1).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "mrcctl.h"
#include "print.h"

#ifndef MRCCTL_VERSION
#define MRCCTL_VERSION "unknown"
#endif

#define NETNS_RUN_DIR	"/run/netns"

struct mrcctl_opts opts;

static void usage(FILE *f)
{
	fputs("Usage: mrcctl [OPTIONS] OBJECT [COMMAND [ARGS]]\n"
	      "       mrcctl help [OBJECT]\n"
	      "where  OBJECT := { dev | rail | conn | path | monitor }\n"
	      "       OPTIONS :=\n"
	      "         -j, --json        JSON output\n"
	      "         -p, --pretty      indented JSON output (with -j)\n"
	      "         -s, --stats       show counters of devices and rails\n"
	      "         -n, --netns NAME  run in network namespace NAME (" NETNS_RUN_DIR "/NAME)\n"
	      "         -V, --version     print the version and exit\n"
	      "         -h, --help        print this help and exit\n"
	      "\"mrcctl OBJECT help\" lists the commands of an object.\n", f);
}

/* "ip -n NAME": enter the network namespace bound at /run/netns/NAME */
static int netns_enter(const char *name)
{
	char path[sizeof(NETNS_RUN_DIR) + 256];
	int fd, err = 0;

	if (!*name || strchr(name, '/') || !strcmp(name, ".") ||
	    !strcmp(name, "..") || strlen(name) >= 256) {
		err = EINVAL;
		goto fail;
	}
	snprintf(path, sizeof(path), NETNS_RUN_DIR "/%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		goto fail;
	}
	if (setns(fd, CLONE_NEWNET) < 0)
		err = errno;
	close(fd);
	if (!err)
		return 0;
fail:
	fprintf(stderr, "Error: cannot enter netns %s: %s\n", name,
		strerror(err));
	return -1;
}

static int do_help(int argc, char **argv)
{
	if (argc > 1)
		usage_error(NULL, "unknown argument \"%s\"", argv[1]);
	if (!argc)
		usage(stdout);
	else if (arg_is(argv[0], "dev"))
		dev_usage(stdout);
	else if (arg_is(argv[0], "rail"))
		rail_usage(stdout);
	else if (arg_is(argv[0], "conn"))
		conn_usage(stdout);
	else if (arg_is(argv[0], "path"))
		path_usage(stdout);
	else if (arg_is(argv[0], "monitor"))
		monitor_usage(stdout);
	else
		usage_error(NULL, "unknown object \"%s\"", argv[0]);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option long_opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "stats", no_argument, NULL, 's' },
		{ "netns", required_argument, NULL, 'n' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *netns = NULL, *obj;
	int c;

	opterr = 0;
	/* "+": options end at OBJECT */
	while ((c = getopt_long(argc, argv, "+:jpsn:Vh", long_opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			opts.json = true;
			break;
		case 'p':
			opts.pretty = true;
			break;
		case 's':
			opts.stats = true;
			break;
		case 'n':
			netns = optarg;
			break;
		case 'V':
			printf("mrcctl %s\n", MRCCTL_VERSION);
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		case ':':
			usage_error(NULL, "option \"%s\" needs an argument",
				    argv[optind - 1]);
		default:
			if (optopt)
				usage_error(NULL, "unknown option \"-%c\"", optopt);
			usage_error(NULL, "unknown option \"%s\"",
				    argv[optind - 1]);
		}
	}
	argc -= optind;
	argv += optind;

	if (netns && netns_enter(netns) < 0)
		return 1;
	if (!argc) {
		usage(stderr);
		return EXIT_USAGE;
	}
	print_init(opts.json, opts.pretty, false);

	obj = argv[0];
	argc--;
	argv++;
	if (arg_is(obj, "dev"))
		return do_dev(argc, argv);
	if (arg_is(obj, "rail"))
		return do_rail(argc, argv);
	if (arg_is(obj, "conn"))
		return do_conn(argc, argv);
	if (arg_is(obj, "path"))
		return do_path(argc, argv);
	if (arg_is(obj, "monitor"))
		return do_monitor(argc, argv);
	if (arg_is(obj, "help"))
		return do_help(argc, argv);
	usage_error(NULL, "unknown object \"%s\"", obj);
}
