// SPDX-License-Identifier: GPL-2.0
/*
 * mrc_socket.c - the AF_MRC socket API: creation, bind, getsockname.
 *
 * Every test runs in a fresh network namespace with two mrc devices:
 *   mrc0: rails va0 (10.1.0.1, fd00:1::1) and vb0 (10.1.1.1)
 *   mrc1: rail vc0 (10.2.0.1);  vz0 (10.3.0.1) is no rail.
 * The address family number is read from sysfs, never assumed.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/mrc.h>

#include "kselftest_harness.h"

static int mrc_family(void)
{
	FILE *f = fopen(MRC_FAMILY_SYSFS, "r");
	int fam = -1;

	if (f) {
		if (fscanf(f, "%d", &fam) != 1)
			fam = -1;
		fclose(f);
	}
	return fam;
}

static struct sockaddr_mrc mrc_addr(const char *ip, int port, int ifindex)
{
	struct sockaddr_mrc a;

	memset(&a, 0, sizeof(a));
	a.smrc_family = mrc_family();
	a.smrc_port = htons(port);
	a.smrc_ifindex = ifindex;
	if (ip && strchr(ip, ':')) {
		inet_pton(AF_INET6, ip, &a.smrc_addr);
	} else if (ip) {
		a.smrc_addr.s6_addr[10] = 0xff;
		a.smrc_addr.s6_addr[11] = 0xff;
		inet_pton(AF_INET, ip, &a.smrc_addr.s6_addr[12]);
	}
	return a;
}

static int mrc_socket(void)
{
	return socket(mrc_family(), SOCK_SEQPACKET, 0);
}

static int do_bind(int fd, const struct sockaddr_mrc *a)
{
	return bind(fd, (const struct sockaddr *)a, sizeof(*a)) ? -errno : 0;
}

static int bound_port(int fd)
{
	struct sockaddr_mrc a;
	socklen_t len = sizeof(a);

	if (getsockname(fd, (struct sockaddr *)&a, &len))
		return -errno;
	return ntohs(a.smrc_port);
}

FIXTURE(ns) {
	int mrc0, mrc1, va0;
};

FIXTURE_SETUP(ns)
{
	ASSERT_EQ(0, unshare(CLONE_NEWNET));
	ASSERT_EQ(0, system("ip -batch - <<'EOF'\n"
		"link set dev lo up\n"
		"link add mrc0 type mrc\n"
		"link add mrc1 type mrc\n"
		"link add va0 type veth peer name va1\n"
		"link add vb0 type veth peer name vb1\n"
		"link add vc0 type veth peer name vc1\n"
		"link add vz0 type veth peer name vz1\n"
		"link set dev va0 master mrc0\n"
		"link set dev vb0 master mrc0\n"
		"link set dev vc0 master mrc1\n"
		"addr add 10.1.0.1/24 dev va0\n"
		"addr add fd00:1::1/64 dev va0 nodad\n"
		"addr add 10.1.1.1/24 dev vb0\n"
		"addr add 10.2.0.1/24 dev vc0\n"
		"addr add 10.3.0.1/24 dev vz0\n"
		"EOF"));
	self->mrc0 = if_nametoindex("mrc0");
	self->mrc1 = if_nametoindex("mrc1");
	self->va0 = if_nametoindex("va0");
	ASSERT_NE(0, self->mrc0);
	ASSERT_NE(0, self->mrc1);
}

FIXTURE_TEARDOWN(ns)
{
}

TEST(family_is_registered)
{
	int fam = mrc_family();

	ASSERT_GT(fam, 0);
	ASSERT_LT(fam, 46);
	TH_LOG("AF_MRC is %d", fam);
}

TEST(socket_types)
{
	int fam = mrc_family(), fd;

	fd = socket(fam, SOCK_SEQPACKET, 0);
	ASSERT_GE(fd, 0);
	close(fd);
	fd = socket(fam, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	ASSERT_GE(fd, 0);
	close(fd);
	EXPECT_EQ(-1, socket(fam, SOCK_STREAM, 0));
	EXPECT_EQ(ESOCKTNOSUPPORT, errno);
	EXPECT_EQ(-1, socket(fam, SOCK_DGRAM, 0));
	EXPECT_EQ(ESOCKTNOSUPPORT, errno);
	EXPECT_EQ(-1, socket(fam, SOCK_RAW, 0));
	EXPECT_EQ(ESOCKTNOSUPPORT, errno);
	EXPECT_EQ(-1, socket(fam, SOCK_RDM, 0));
	EXPECT_EQ(ESOCKTNOSUPPORT, errno);
	EXPECT_EQ(-1, socket(fam, SOCK_SEQPACKET, 1));
	EXPECT_EQ(EPROTONOSUPPORT, errno);
}

TEST(sockaddr_layout)
{
	struct sockaddr_mrc a;

	ASSERT_EQ(32, sizeof(a));
	ASSERT_LE(sizeof(a), sizeof(struct sockaddr_storage));
	ASSERT_EQ(0, offsetof(struct sockaddr_mrc, smrc_family));
	ASSERT_EQ(2, offsetof(struct sockaddr_mrc, smrc_port));
	ASSERT_EQ(4, offsetof(struct sockaddr_mrc, smrc_ifindex));
	ASSERT_EQ(8, offsetof(struct sockaddr_mrc, smrc_addr));
	ASSERT_EQ(24, offsetof(struct sockaddr_mrc, smrc_zero));
}

TEST_F(ns, getsockname_unbound_and_getpeername)
{
	struct sockaddr_mrc a;
	socklen_t len = sizeof(a);
	int fd = mrc_socket();

	ASSERT_GE(fd, 0);
	memset(&a, 0xaa, sizeof(a));
	ASSERT_EQ(0, getsockname(fd, (struct sockaddr *)&a, &len));
	EXPECT_EQ(sizeof(a), len);
	EXPECT_EQ(mrc_family(), a.smrc_family);
	EXPECT_EQ(0, a.smrc_port);
	EXPECT_EQ(0, a.smrc_ifindex);
	EXPECT_EQ(-1, getpeername(fd, (struct sockaddr *)&a, &len));
	EXPECT_EQ(ENOTCONN, errno);
	close(fd);
}

TEST_F(ns, bind_bad_addresses)
{
	struct sockaddr_mrc a = mrc_addr(NULL, 5000, 0);
	int fd = mrc_socket();

	ASSERT_GE(fd, 0);
	EXPECT_EQ(-1, bind(fd, (struct sockaddr *)&a, sizeof(a) - 1));
	EXPECT_EQ(EINVAL, errno);
	a.smrc_family = AF_INET6;
	EXPECT_EQ(-EAFNOSUPPORT, do_bind(fd, &a));
	a = mrc_addr(NULL, 5000, 0);
	a.smrc_zero[7] = 1;
	EXPECT_EQ(-EINVAL, do_bind(fd, &a));
	a = mrc_addr("10.9.9.9", 5000, 0);
	EXPECT_EQ(-EADDRNOTAVAIL, do_bind(fd, &a));
	a = mrc_addr("10.3.0.1", 5000, 0);	/* on vz0, which is no rail */
	EXPECT_EQ(-EADDRNOTAVAIL, do_bind(fd, &a));
	a = mrc_addr("10.2.0.1", 5000, self->mrc0);	/* rail of mrc1, not mrc0 */
	EXPECT_EQ(-EADDRNOTAVAIL, do_bind(fd, &a));
	a = mrc_addr(NULL, 5000, self->va0);	/* a rail, not an mrc device */
	EXPECT_EQ(-ENODEV, do_bind(fd, &a));
	a = mrc_addr(NULL, 5000, 99999);
	EXPECT_EQ(-ENODEV, do_bind(fd, &a));
	/* Nothing above bound the socket. */
	EXPECT_EQ(0, bound_port(fd));
	close(fd);
}

TEST_F(ns, bind_addresses_of_rails)
{
	static const char * const ok[] = { "10.1.0.1", "fd00:1::1", "10.1.1.1" };
	struct sockaddr_mrc a, got;
	socklen_t len = sizeof(got);
	unsigned int i;

	for (i = 0; i < 3; i++) {
		int fd = mrc_socket();

		ASSERT_GE(fd, 0);
		a = mrc_addr(ok[i], 6000, i == 2 ? self->mrc0 : 0);
		EXPECT_EQ(0, do_bind(fd, &a)) TH_LOG("bind %s", ok[i]);
		ASSERT_EQ(0, getsockname(fd, (struct sockaddr *)&got, &len));
		EXPECT_EQ(0, memcmp(&a, &got, sizeof(a))) TH_LOG("getsockname of %s", ok[i]);
		close(fd);
	}
}

TEST_F(ns, bind_ephemeral)
{
	struct sockaddr_mrc a = mrc_addr(NULL, 0, 0);
	int fd = mrc_socket(), fd2 = mrc_socket(), port, port2;

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, do_bind(fd, &a));
	port = bound_port(fd);
	EXPECT_GE(port, 49152);
	EXPECT_LE(port, 65535);
	ASSERT_EQ(0, do_bind(fd2, &a));
	port2 = bound_port(fd2);
	EXPECT_NE(port, port2);
	EXPECT_EQ(-EINVAL, do_bind(fd, &a)) TH_LOG("second bind of a socket");
	close(fd);
	close(fd2);
}

TEST_F(ns, bind_conflicts)
{
	struct sockaddr_mrc any = mrc_addr(NULL, 7000, 0);
	struct sockaddr_mrc a1 = mrc_addr("10.1.0.1", 7001, 0);
	struct sockaddr_mrc b1 = mrc_addr("10.1.1.1", 7001, 0);
	struct sockaddr_mrc any1 = mrc_addr(NULL, 7001, 0);
	struct sockaddr_mrc d0 = mrc_addr(NULL, 7002, self->mrc0);
	struct sockaddr_mrc d1 = mrc_addr(NULL, 7002, self->mrc1);
	int fd[8], i, one = 1;

	for (i = 0; i < 8; i++)
		ASSERT_GE(fd[i] = mrc_socket(), 0);
	ASSERT_EQ(0, do_bind(fd[0], &any));
	EXPECT_EQ(-EADDRINUSE, do_bind(fd[1], &any));
	/* Different addresses share a port; a wildcard then clashes. */
	EXPECT_EQ(0, do_bind(fd[2], &a1));
	EXPECT_EQ(0, do_bind(fd[3], &b1));
	EXPECT_EQ(-EADDRINUSE, do_bind(fd[4], &any1));
	/* Different devices share a port. */
	EXPECT_EQ(0, do_bind(fd[5], &d0));
	EXPECT_EQ(0, do_bind(fd[6], &d1));
	/* SO_REUSEADDR on both sides lifts the clash. */
	ASSERT_EQ(0, setsockopt(fd[1], SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)));
	EXPECT_EQ(-EADDRINUSE, do_bind(fd[1], &any)) TH_LOG("only one side reuses");
	close(fd[0]);
	fd[0] = mrc_socket();
	ASSERT_EQ(0, setsockopt(fd[0], SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)));
	EXPECT_EQ(0, do_bind(fd[0], &any));
	EXPECT_EQ(0, do_bind(fd[1], &any));
	/* Closing frees the port. */
	close(fd[2]);
	fd[2] = mrc_socket();
	EXPECT_EQ(0, do_bind(fd[2], &a1));
	for (i = 0; i < 8; i++)
		close(fd[i]);
}

TEST_F(ns, privileged_ports)
{
	struct sockaddr_mrc a = mrc_addr(NULL, 80, 0);
	int fd = mrc_socket();

	ASSERT_GE(fd, 0);
	EXPECT_EQ(0, do_bind(fd, &a));
	close(fd);
	fd = mrc_socket();
	ASSERT_EQ(0, setresgid(65534, 65534, 65534));
	ASSERT_EQ(0, setresuid(65534, 65534, 65534));
	a = mrc_addr(NULL, 81, 0);
	EXPECT_EQ(-EACCES, do_bind(fd, &a));
	a = mrc_addr(NULL, 1024, 0);
	EXPECT_EQ(0, do_bind(fd, &a));
	close(fd);
}

TEST_F(ns, ports_are_per_namespace)
{
	struct sockaddr_mrc a = mrc_addr(NULL, 8000, 0);
	int fd = mrc_socket(), fd2;

	ASSERT_EQ(0, do_bind(fd, &a));
	ASSERT_EQ(0, unshare(CLONE_NEWNET));
	fd2 = mrc_socket();
	ASSERT_GE(fd2, 0);
	EXPECT_EQ(0, do_bind(fd2, &a)) TH_LOG("same port, other namespace");
	close(fd2);
	close(fd);
}

TEST_F_TIMEOUT(ns, ephemeral_ports_run_out, 300)
{
	struct sockaddr_mrc a = mrc_addr(NULL, 0, 0);
	const int n = 65535 - 49152 + 1;
	struct rlimit rl = { n + 64, n + 64 };
	int *fds = calloc(n + 1, sizeof(int)), i, err = 0;

	ASSERT_NE(NULL, fds);
	if (getenv("MRC_KERNEL") && !strcmp(getenv("MRC_KERNEL"), "debug") &&
	    !getenv("MRC_DEBUG_FULL"))
		SKIP(free(fds); return,
		     "16384 sockets: make check and make check-debug-full run it");
	ASSERT_EQ(0, setrlimit(RLIMIT_NOFILE, &rl));
	for (i = 0; i < n; i++) {
		fds[i] = mrc_socket();
		ASSERT_GE(fds[i], 0);
		err = do_bind(fds[i], &a);
		if (err)
			break;
	}
	EXPECT_EQ(0, err) TH_LOG("bind %d of %d failed", i, n);
	fds[n] = mrc_socket();
	EXPECT_EQ(-EADDRINUSE, do_bind(fds[n], &a));
	for (i = 0; i <= n; i++)
		close(fds[i]);
	free(fds);
}

TEST_F(ns, socket_options)
{
	int fd = mrc_socket(), val = 1 << 20, out = 0;
	socklen_t len = sizeof(out);
	struct mrc_info info;
	socklen_t ilen = sizeof(info);

	ASSERT_GE(fd, 0);
	EXPECT_EQ(-1, setsockopt(fd, SOL_MRC, 1, &val, sizeof(val)));
	EXPECT_EQ(ENOPROTOOPT, errno);
	EXPECT_EQ(-1, getsockopt(fd, SOL_MRC, 99, &out, &len));
	EXPECT_EQ(ENOPROTOOPT, errno);
	/* MRC_INFO works on any socket; a short buffer gets a prefix. */
	memset(&info, 0xff, sizeof(info));
	EXPECT_EQ(0, getsockopt(fd, SOL_MRC, MRC_INFO, &info, &ilen));
	EXPECT_EQ(sizeof(info), ilen);
	EXPECT_EQ(MRC_CONN_STATE_CLOSED, info.state);
	ilen = 4;
	EXPECT_EQ(0, getsockopt(fd, SOL_MRC, MRC_INFO, &info, &ilen));
	EXPECT_EQ(4, ilen);
	EXPECT_EQ(0, setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &val, sizeof(val)));
	len = sizeof(out);
	EXPECT_EQ(0, getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &out, &len));
	EXPECT_EQ(mrc_family(), out);
	len = sizeof(out);
	EXPECT_EQ(0, getsockopt(fd, SOL_SOCKET, SO_TYPE, &out, &len));
	EXPECT_EQ(SOCK_SEQPACKET, out);
	close(fd);
}

TEST_HARNESS_MAIN
