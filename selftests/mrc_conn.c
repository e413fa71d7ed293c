// SPDX-License-Identifier: GPL-2.0
/*
 * mrc_conn.c - AF_MRC connections: connect/accept, messages, close, errors.
 *
 * Every test builds two fresh network namespaces ("hosts"), connected
 * back to back by two veth pairs (two planes):
 *
 *   A (client):  mrcA, rails a0 10.0.0.1/24, a1 10.1.0.1/24
 *   B (server):  mrcB, rails b0 10.0.0.2/24, b1 10.1.0.2/24
 *   a0 <-> b0, a1 <-> b1
 *
 * Two namespaces, because addresses of one namespace are delivered
 * locally and never cross the veths.  The namespaces are anonymous
 * (unshare, kept by file descriptors), so they vanish with the test
 * process whatever happens to it.  The fixture leaves the process in A
 * with a listener, created in B, on the wildcard address and port
 * CONN_PORT; a socket stays in the namespace it was created in.
 *
 * The address family number is read from sysfs, never assumed.
 * MRC_SEED=N in the environment repeats the random message sizes of a
 * run (every run logs its seed).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/if.h>
#include <linux/mrc.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "kselftest_harness.h"

#define CONN_PORT	5000
#define MAX_MSG		1048576		/* the default max_msg_size */

/* ---- helpers ------------------------------------------------------------ */

static int mrc_family(void)
{
	static int fam;
	FILE *f;

	if (fam > 0)
		return fam;
	f = fopen(MRC_FAMILY_SYSFS, "r");
	if (f) {
		if (fscanf(f, "%d", &fam) != 1)
			fam = -1;
		fclose(f);
	}
	return fam;
}

static struct sockaddr_mrc mrc_addr(const char *ip, int port)
{
	struct sockaddr_mrc a;

	memset(&a, 0, sizeof(a));
	a.smrc_family = mrc_family();
	a.smrc_port = htons(port);
	if (ip) {
		a.smrc_addr.s6_addr[10] = 0xff;
		a.smrc_addr.s6_addr[11] = 0xff;
		inet_pton(AF_INET, ip, &a.smrc_addr.s6_addr[12]);
	}
	return a;
}

static bool is_v4mapped(const struct sockaddr_mrc *a, const char *ip)
{
	struct sockaddr_mrc want = mrc_addr(ip, 0);

	return !memcmp(&a->smrc_addr, &want.smrc_addr, sizeof(want.smrc_addr));
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* Run "ip -batch" on a formatted script, in the current namespace. */
static int ip_batch(const char *fmt, ...)
{
	char script[2048], cmd[2200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(script, sizeof(script), fmt, ap);
	va_end(ap);
	snprintf(cmd, sizeof(cmd), "ip -batch - <<'EOF'\n%sEOF", script);
	return system(cmd);
}

/* How many links of the current namespace are operationally UP (rtnetlink). */
static int links_up(void)
{
	struct {
		struct nlmsghdr nh;
		struct ifinfomsg ifi;
	} req = {
		.nh.nlmsg_len = sizeof(req),
		.nh.nlmsg_type = RTM_GETLINK,
		.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP,
		.ifi.ifi_family = AF_UNSPEC,
	};
	static char buf[65536];
	int fd, len, up = 0, done = 0;
	struct nlmsghdr *nh;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return -errno;
	if (send(fd, &req, sizeof(req), 0) != sizeof(req)) {
		close(fd);
		return -EIO;
	}
	while (!done) {
		len = recv(fd, buf, sizeof(buf), 0);
		if (len <= 0) {
			up = -EIO;
			break;
		}
		for (nh = (struct nlmsghdr *)buf; NLMSG_OK(nh, len); nh = NLMSG_NEXT(nh, len)) {
			struct ifinfomsg *ifi = NLMSG_DATA(nh);
			struct rtattr *rta = IFLA_RTA(ifi);
			int alen = IFLA_PAYLOAD(nh);

			if (nh->nlmsg_type == NLMSG_DONE || nh->nlmsg_type == NLMSG_ERROR) {
				done = 1;
				break;
			}
			for (; RTA_OK(rta, alen); rta = RTA_NEXT(rta, alen))
				if (rta->rta_type == IFLA_OPERSTATE &&
				    *(unsigned char *)RTA_DATA(rta) == IF_OPER_UP)
					up++;
		}
	}
	close(fd);
	return up;
}

/* Wait (up to 10 s) until @n links of the current namespace are UP. */
static int wait_links_up(int n)
{
	long long t0 = now_ms();

	while (links_up() < n) {
		if (now_ms() - t0 > 10000)
			return -1;
		usleep(20000);
	}
	return 0;
}

/* Deterministic contents of message @key: a xorshift stream. */
static void fill_msg(unsigned char *buf, size_t len, unsigned int key)
{
	unsigned int x = key * 2654435761u + 0x9e3779b9u;
	size_t i;

	for (i = 0; i < len; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		buf[i] = x >> 24;
	}
}

/* Offset of the first byte that differs from fill_msg(), or -1. */
static long check_msg(const unsigned char *buf, size_t len, unsigned int key)
{
	unsigned int x = key * 2654435761u + 0x9e3779b9u;
	size_t i;

	for (i = 0; i < len; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		if (buf[i] != (unsigned char)(x >> 24))
			return i;
	}
	return -1;
}

static unsigned int rnd_next(unsigned int *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* -errno of a -1 return, for ASSERT_EQ(-EXXX, ...). */
static int neg_errno(long r)
{
	return r < 0 ? -errno : r;
}

static int do_send(int fd, const void *buf, size_t len, int flags)
{
	return neg_errno(send(fd, buf, len, flags | MSG_NOSIGNAL));
}

/* recvmsg() into @buf; *@mflags gets msg_flags.  Returns n or -errno. */
static int do_recv(int fd, void *buf, size_t len, int flags, int *mflags)
{
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	int r = neg_errno(recvmsg(fd, &mh, flags));

	if (mflags)
		*mflags = mh.msg_flags;
	return r;
}

/* poll() one socket: the revents, 0 on timeout. */
static int wait_ev(int fd, short events, int ms)
{
	struct pollfd p = { .fd = fd, .events = events };
	int r = poll(&p, 1, ms);

	return r > 0 ? p.revents : r;
}

static int so_error(int fd)
{
	int err = -1;
	socklen_t len = sizeof(err);

	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len))
		return -errno;
	return err;
}

static int get_info(int fd, struct mrc_info *info)
{
	socklen_t len = sizeof(*info);

	memset(info, 0xff, sizeof(*info));
	if (getsockopt(fd, SOL_MRC, MRC_INFO, info, &len))
		return -errno;
	return len == sizeof(*info) ? 0 : -EMSGSIZE;
}

/* Wait until MRC_INFO's closing bits are @want: the last value seen. */
static int wait_closing(int fd, int want, int ms)
{
	long long t0 = now_ms();
	struct mrc_info info;

	for (;;) {
		if (get_info(fd, &info))
			return -1;
		if (info.closing == want || now_ms() - t0 >= ms)
			return info.closing;
		usleep(10000);
	}
}

static int port_of(int fd, bool peer)
{
	struct sockaddr_mrc a;
	socklen_t len = sizeof(a);
	int r = peer ? getpeername(fd, (struct sockaddr *)&a, &len) :
		       getsockname(fd, (struct sockaddr *)&a, &len);

	return r ? -errno : ntohs(a.smrc_port);
}

static int set_timeo(int fd, int opt, int ms)
{
	struct timeval tv = { .tv_sec = ms / 1000, .tv_usec = (ms % 1000) * 1000 };

	return setsockopt(fd, SOL_SOCKET, opt, &tv, sizeof(tv));
}

/* An AF_MRC socket of namespace @ns; the caller is back in @home after. */
static int mrc_socket_in(int ns, int home, int type_flags)
{
	int fd;

	if (setns(ns, CLONE_NEWNET))
		return -errno;
	fd = socket(mrc_family(), SOCK_SEQPACKET | type_flags, 0);
	if (fd < 0)
		fd = -errno;
	if (setns(home, CLONE_NEWNET)) {
		if (fd >= 0)
			close(fd);
		return -errno;
	}
	return fd;
}

/* A listener of namespace @ns on the wildcard address and @port. */
static int listener_in(int ns, int home, int port, int backlog)
{
	struct sockaddr_mrc a = mrc_addr(NULL, port);
	int fd = mrc_socket_in(ns, home, 0);

	if (fd < 0)
		return fd;
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) || listen(fd, backlog)) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

/* A client socket of the current namespace connected to @ip:@port. */
static int client(const char *ip, int port, int type_flags)
{
	struct sockaddr_mrc a = mrc_addr(ip, port);
	int fd = socket(mrc_family(), SOCK_SEQPACKET | type_flags, 0);

	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&a, sizeof(a))) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

/* accept4() once the listener is readable, at most @ms from now. */
static int accept_wait(int lfd, int ms, int flags)
{
	if (!(wait_ev(lfd, POLLIN, ms) & POLLIN))
		return -ETIMEDOUT;
	return neg_errno(accept4(lfd, NULL, NULL, flags));
}

/*
 * Fork a process that sends @n messages on @fd: message k has @sizes[k]
 * bytes and the contents fill_msg(k + @key).  Blocking sends; the child
 * exits 0 when all were sent, 1 (with a message on stderr) otherwise.
 */
static pid_t fork_sender(int fd, const size_t *sizes, int n, unsigned int key)
{
	unsigned char *buf;
	pid_t pid = fork();
	int k, r;

	if (pid)
		return pid;
	/* A failed test must not leave a sender blocked behind it. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	buf = malloc(MAX_MSG);
	if (!buf)
		_exit(1);
	for (k = 0; k < n; k++) {
		fill_msg(buf, sizes[k], k + key);
		r = do_send(fd, buf, sizes[k], 0);
		if (r != (int)sizes[k]) {
			fprintf(stderr, "# sender: message %d (%zu bytes): %d\n",
				k, sizes[k], r);
			_exit(1);
		}
	}
	_exit(0);
}

static int wait_child(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* ---- the fixture -------------------------------------------------------- */

FIXTURE(conn) {
	int nsa, nsb;	/* namespaces: client side, server side */
	int mrcb;	/* ifindex of mrcB (in B) */
	int lfd;	/* listener in B on CONN_PORT */
};

/*
 * One host: its mrc device and its two rails (@s 'a' or 'b', host
 * number @host), after the lines in @first.
 */
static int host_config(char s, int host, const char *first)
{
	char d = s == 'a' ? 'A' : 'B';

	return ip_batch("%slink set dev lo up\n"
			"link add mrc%c type mrc\n"
			"addr add 10.0.0.%d/24 dev %c0\n"
			"addr add 10.1.0.%d/24 dev %c1\n"
			"link set dev %c0 master mrc%c\n"
			"link set dev %c1 master mrc%c\n"
			"link set dev %c0 up\n"
			"link set dev %c1 up\n"
			"link set dev mrc%c up\n",
			first, d, host, s, host, s, s, d, s, d, s, s, d);
}

FIXTURE_SETUP(conn)
{
	char veths[256];

	self->nsa = -1;
	self->nsb = -1;
	self->lfd = -1;
	ASSERT_GT(mrc_family(), 0) TH_LOG("mrc.ko is not loaded");
	ASSERT_EQ(0, unshare(CLONE_NEWNET));
	self->nsa = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	ASSERT_GE(self->nsa, 0);
	ASSERT_EQ(0, unshare(CLONE_NEWNET));
	self->nsb = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	ASSERT_GE(self->nsb, 0);

	/* In B: the veth pairs, their a-ends going to A; then B's device. */
	snprintf(veths, sizeof(veths),
		 "link add b0 type veth peer name a0 netns /proc/%d/fd/%d\n"
		 "link add b1 type veth peer name a1 netns /proc/%d/fd/%d\n",
		 getpid(), self->nsa, getpid(), self->nsa);
	ASSERT_EQ(0, host_config('b', 2, veths));
	self->mrcb = if_nametoindex("mrcB");
	ASSERT_NE(0, self->mrcb);
	ASSERT_EQ(0, setns(self->nsa, CLONE_NEWNET));
	ASSERT_EQ(0, host_config('a', 1, ""));
	/* a0, a1 and mrcA, then b0, b1 and mrcB (lo stays "unknown") */
	ASSERT_EQ(0, wait_links_up(3)) TH_LOG("A's links never came up");
	ASSERT_EQ(0, setns(self->nsb, CLONE_NEWNET));
	ASSERT_EQ(0, wait_links_up(3)) TH_LOG("B's links never came up");
	ASSERT_EQ(0, setns(self->nsa, CLONE_NEWNET));

	self->lfd = listener_in(self->nsb, self->nsa, CONN_PORT, 128);
	ASSERT_GE(self->lfd, 0) TH_LOG("listener: %s", strerror(-self->lfd));
}

FIXTURE_TEARDOWN(conn)
{
	if (self->lfd >= 0)
		close(self->lfd);
	if (self->nsa >= 0)
		close(self->nsa);
	if (self->nsb >= 0)
		close(self->nsb);
}

/* Connect a client (in A) to @ip and accept it: *@c client, *@s server. */
static void connect_pair(struct __test_metadata *_metadata, int lfd,
			 const char *ip, int *c, int *s)
{
	*c = client(ip, CONN_PORT, 0);
	ASSERT_GE(*c, 0) TH_LOG("connect to %s: %s", ip, strerror(-*c));
	*s = accept_wait(lfd, 5000, 0);
	ASSERT_GE(*s, 0) TH_LOG("accept: %s", strerror(-*s));
}

/* ---- 1. connect and accept ---------------------------------------------- */

TEST_F(conn, connect_accept)
{
	static const char * const peers[] = { "10.1.0.2", "10.0.0.2" };
	static const char * const mine[] = { "10.1.0.1", "10.0.0.1" };
	struct sockaddr_mrc a;
	struct mrc_info info;
	socklen_t len;
	int i, c, s, side;

	for (i = 0; i < 2; i++) {
		connect_pair(_metadata, self->lfd, peers[i], &c, &s);

		len = sizeof(a);
		ASSERT_EQ(0, getpeername(c, (struct sockaddr *)&a, &len));
		EXPECT_EQ(sizeof(a), len);
		EXPECT_EQ(mrc_family(), a.smrc_family);
		EXPECT_EQ(CONN_PORT, ntohs(a.smrc_port));
		EXPECT_TRUE(is_v4mapped(&a, peers[i])) TH_LOG("client's peer address");

		len = sizeof(a);
		ASSERT_EQ(0, getpeername(s, (struct sockaddr *)&a, &len));
		EXPECT_EQ(mrc_family(), a.smrc_family);
		EXPECT_EQ(port_of(c, false), ntohs(a.smrc_port));
		EXPECT_GE(ntohs(a.smrc_port), 49152) TH_LOG("an ephemeral port");
		EXPECT_TRUE(is_v4mapped(&a, mine[i])) TH_LOG("server's peer address");

		len = sizeof(a);
		ASSERT_EQ(0, getsockname(s, (struct sockaddr *)&a, &len));
		EXPECT_EQ(mrc_family(), a.smrc_family);
		EXPECT_EQ(CONN_PORT, ntohs(a.smrc_port));
		EXPECT_EQ(self->mrcb, a.smrc_ifindex);
		EXPECT_TRUE(is_v4mapped(&a, peers[i])) TH_LOG("accepted socket's address");

		/* MRC_INFO is versioned by size: a short buffer gets a prefix. */
		len = 1;
		info.state = 0xff;
		ASSERT_EQ(0, getsockopt(c, SOL_MRC, MRC_INFO, &info, &len));
		EXPECT_EQ(1, len);
		EXPECT_EQ(MRC_CONN_STATE_ESTABLISHED, info.state);

		for (side = 0; side < 2; side++) {
			ASSERT_EQ(0, get_info(side ? s : c, &info));
			EXPECT_EQ(MRC_CONN_STATE_ESTABLISHED, info.state)
				TH_LOG("%s", side ? "server" : "client");
			EXPECT_EQ(0, info.closing);
			EXPECT_EQ(2, info.planes);
			EXPECT_GT(info.paths, 0);
			EXPECT_GT(info.seg_size, 1000);
			EXPECT_LE(info.seg_size, 1500);
			EXPECT_NE(0, info.id);
			EXPECT_NE(0, info.peer_id);
		}
		close(c);
		close(s);
	}
}

/* ---- 2. message boundaries and contents --------------------------------- */

TEST_F_TIMEOUT(conn, message_boundaries, 180)
{
	static const size_t fixed[] = { 1, 2, 1000, 1436, 1437, 65536, MAX_MSG };
	const int nfixed = ARRAY_SIZE(fixed), n = nfixed + 200;
	const char *env = getenv("MRC_SEED");
	unsigned int seed, s;
	size_t sizes[nfixed + 200];
	unsigned char *buf;
	long long t0;
	size_t total = 0;
	int c, srv, k, r, mflags;
	long bad;
	pid_t pid;

	seed = env ? strtoul(env, NULL, 0) : (unsigned int)(time(NULL) ^ getpid());
	if (!seed)
		seed = 1;
	TH_LOG("seed %u (MRC_SEED=%u repeats it)", seed, seed);
	s = seed;
	for (k = 0; k < n; k++) {
		sizes[k] = k < nfixed ? fixed[k] : 1 + rnd_next(&s) % 70000;
		total += sizes[k];
	}
	buf = malloc(MAX_MSG + 4096);
	ASSERT_NE(NULL, buf);
	connect_pair(_metadata, self->lfd, "10.1.0.2", &c, &srv);

	t0 = now_ms();
	pid = fork_sender(c, sizes, n, seed);
	ASSERT_GT(pid, 0);
	for (k = 0; k < n; k++) {
		r = do_recv(srv, buf, MAX_MSG + 4096, 0, &mflags);
		ASSERT_EQ((int)sizes[k], r) TH_LOG("message %d", k);
		EXPECT_FALSE(mflags & MSG_TRUNC);
		bad = check_msg(buf, r, k + seed);
		ASSERT_EQ(-1, bad) TH_LOG("message %d (%d bytes) differs at byte %ld",
					  k, r, bad);
	}
	EXPECT_EQ(0, wait_child(pid));
	TH_LOG("%d messages, %zu bytes in %lld ms", n, total, now_ms() - t0);
	EXPECT_EQ(-EAGAIN, do_recv(srv, buf, 16, MSG_DONTWAIT, NULL));
	free(buf);
	close(c);
	close(srv);
}

/* ---- 3. send errors ------------------------------------------------------ */

TEST_F(conn, send_errors)
{
	struct sockaddr_mrc peer = mrc_addr("10.1.0.2", CONN_PORT);
	unsigned char *buf = calloc(1, MAX_MSG + 1);
	int c, s, fd, mflags;

	ASSERT_NE(NULL, buf);
	fd = socket(mrc_family(), SOCK_SEQPACKET, 0);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(-ENOTCONN, do_send(fd, buf, 10, 0)) TH_LOG("unconnected");
	close(fd);

	connect_pair(_metadata, self->lfd, "10.1.0.2", &c, &s);
	EXPECT_EQ(-EMSGSIZE, do_send(c, buf, MAX_MSG + 1, 0));
	EXPECT_EQ(-EINVAL, do_send(c, buf, 0, 0)) TH_LOG("0-byte message");
	EXPECT_EQ(-EISCONN, neg_errno(sendto(c, buf, 10, MSG_NOSIGNAL,
					     (struct sockaddr *)&peer, sizeof(peer))));
	/* None of these sent anything: the next message is the first. */
	fill_msg(buf, 77, 3);
	ASSERT_EQ(77, do_send(c, buf, 77, 0));
	memset(buf, 0, 77);
	ASSERT_EQ(77, do_recv(s, buf, 4096, 0, &mflags));
	EXPECT_EQ(-1, check_msg(buf, 77, 3));
	EXPECT_EQ(-EAGAIN, do_recv(s, buf, 4096, MSG_DONTWAIT, NULL));
	free(buf);
	close(c);
	close(s);
}

/* ---- 4. MSG_TRUNC and MSG_PEEK ------------------------------------------ */

TEST_F(conn, trunc_and_peek)
{
	static const size_t sizes[] = { 100, 100, 60, 70 };
	unsigned char buf[512], again[512];
	int c, s, mflags;
	pid_t pid;

	connect_pair(_metadata, self->lfd, "10.1.0.2", &c, &s);
	pid = fork_sender(s, sizes, 4, 0);
	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, wait_child(pid));

	/* A short buffer: the rest of the message is discarded. */
	ASSERT_EQ(10, do_recv(c, buf, 10, 0, &mflags));
	EXPECT_TRUE(mflags & MSG_TRUNC);
	EXPECT_EQ(-1, check_msg(buf, 10, 0));
	/* MSG_TRUNC in flags: the real length. */
	ASSERT_EQ(100, do_recv(c, buf, 10, MSG_TRUNC, &mflags));
	EXPECT_TRUE(mflags & MSG_TRUNC);
	EXPECT_EQ(-1, check_msg(buf, 10, 1));
	/* Peek, then the same message again, then the next one. */
	ASSERT_EQ(60, do_recv(c, buf, sizeof(buf), MSG_PEEK, &mflags));
	EXPECT_FALSE(mflags & MSG_TRUNC);
	EXPECT_EQ(-1, check_msg(buf, 60, 2));
	ASSERT_EQ(60, do_recv(c, buf, sizeof(buf), MSG_PEEK, &mflags)) TH_LOG("peek twice");
	ASSERT_EQ(60, do_recv(c, again, sizeof(again), 0, &mflags));
	EXPECT_EQ(0, memcmp(buf, again, 60));
	ASSERT_EQ(70, do_recv(c, buf, sizeof(buf), 0, &mflags));
	EXPECT_EQ(-1, check_msg(buf, 70, 3));
	EXPECT_EQ(-EAGAIN, do_recv(c, buf, sizeof(buf), MSG_DONTWAIT, NULL));
	close(c);
	close(s);
}

/* ---- 5. non-blocking connect --------------------------------------------- */

TEST_F(conn, connect_nonblocking)
{
	struct sockaddr_mrc a = mrc_addr("10.1.0.2", CONN_PORT);
	struct mrc_info info;
	int c, s, ev;

	c = socket(mrc_family(), SOCK_SEQPACKET | SOCK_NONBLOCK, 0);
	ASSERT_GE(c, 0);
	ASSERT_EQ(-EINPROGRESS, neg_errno(connect(c, (struct sockaddr *)&a, sizeof(a))));
	ev = wait_ev(c, POLLOUT, 5000);
	ASSERT_TRUE(ev & POLLOUT) TH_LOG("revents %#x", ev);
	EXPECT_FALSE(ev & (POLLERR | POLLHUP));
	EXPECT_EQ(0, so_error(c));
	EXPECT_EQ(-EISCONN, neg_errno(connect(c, (struct sockaddr *)&a, sizeof(a))));
	ASSERT_EQ(0, get_info(c, &info));
	EXPECT_EQ(MRC_CONN_STATE_ESTABLISHED, info.state);
	s = accept_wait(self->lfd, 5000, 0);
	ASSERT_GE(s, 0);
	ASSERT_EQ(5, do_send(c, "hello", 5, 0));
	ASSERT_EQ(5, do_recv(s, &info, sizeof(info), 0, NULL));
	close(c);
	close(s);
}

/* ---- 6. refused connections ---------------------------------------------- */

TEST_F(conn, connect_refused)
{
	struct sockaddr_mrc a = mrc_addr("10.1.0.2", CONN_PORT + 1);
	long long t0;
	int fd, lfd, ev;

	/* Nobody on the port. */
	t0 = now_ms();
	EXPECT_EQ(-ECONNREFUSED, client("10.1.0.2", CONN_PORT + 1, 0));
	EXPECT_LT(now_ms() - t0, 2000);
	TH_LOG("refused after %lld ms", now_ms() - t0);

	/* A listener that was closed. */
	lfd = listener_in(self->nsb, self->nsa, CONN_PORT + 2, 8);
	ASSERT_GE(lfd, 0);
	close(lfd);
	t0 = now_ms();
	EXPECT_EQ(-ECONNREFUSED, client("10.0.0.2", CONN_PORT + 2, 0));
	EXPECT_LT(now_ms() - t0, 2000);

	/*
	 * Non-blocking: as TCP's, a failed connect() polls writable (with
	 * POLLERR and POLLHUP); SO_ERROR tells why.
	 */
	fd = socket(mrc_family(), SOCK_SEQPACKET | SOCK_NONBLOCK, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(-EINPROGRESS, neg_errno(connect(fd, (struct sockaddr *)&a, sizeof(a))));
	ev = wait_ev(fd, POLLOUT, 2000);
	EXPECT_TRUE(ev & POLLERR) TH_LOG("revents %#x", ev);
	EXPECT_TRUE(ev & POLLHUP) TH_LOG("revents %#x", ev);
	EXPECT_TRUE(ev & POLLOUT) TH_LOG("revents %#x", ev);
	EXPECT_EQ(ECONNREFUSED, so_error(fd));
	EXPECT_EQ(0, so_error(fd)) TH_LOG("SO_ERROR is cleared by reading it");
	close(fd);

	/* The listener on CONN_PORT still works. */
	connect_pair(_metadata, self->lfd, "10.1.0.2", &fd, &lfd);
	close(fd);
	close(lfd);
}

/* ---- 7. recv: non-blocking, timeout, poll -------------------------------- */

TEST_F(conn, recv_wait)
{
	static const size_t one[] = { 33 };
	unsigned char buf[64];
	long long t0, dt;
	int c, s, ev;
	pid_t pid;

	connect_pair(_metadata, self->lfd, "10.1.0.2", &c, &s);
	EXPECT_EQ(-EAGAIN, do_recv(c, buf, sizeof(buf), MSG_DONTWAIT, NULL));

	ASSERT_EQ(0, set_timeo(c, SO_RCVTIMEO, 200));
	t0 = now_ms();
	EXPECT_EQ(-EAGAIN, do_recv(c, buf, sizeof(buf), 0, NULL));
	dt = now_ms() - t0;
	EXPECT_GE(dt, 150);
	EXPECT_LE(dt, 2000);
	TH_LOG("SO_RCVTIMEO 200 ms: EAGAIN after %lld ms", dt);

	EXPECT_EQ(0, wait_ev(c, POLLIN, 300)) TH_LOG("readable with nothing sent");
	EXPECT_TRUE(wait_ev(c, POLLOUT, 0) & POLLOUT);

	/* A message sent while we sleep in poll() wakes us. */
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		usleep(300000);
		_exit(wait_child(fork_sender(s, one, 1, 9)));
	}
	t0 = now_ms();
	ev = wait_ev(c, POLLIN, 5000);
	dt = now_ms() - t0;
	EXPECT_TRUE(ev & POLLIN) TH_LOG("revents %#x after %lld ms", ev, dt);
	EXPECT_GE(dt, 200);
	EXPECT_EQ(33, do_recv(c, buf, sizeof(buf), MSG_DONTWAIT, NULL));
	EXPECT_EQ(-1, check_msg(buf, 33, 9));
	EXPECT_EQ(0, wait_child(pid));
	close(c);
	close(s);
}

/* ---- 8. shutdown(SHUT_WR): half-close ------------------------------------ */

TEST_F(conn, shutdown_half_close)
{
	static const size_t sizes[] = { 10, 3000, 20 };
	unsigned char buf[4096];
	int c, s, k, ev, fd;
	pid_t pid;

	fd = socket(mrc_family(), SOCK_SEQPACKET, 0);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(-ENOTCONN, neg_errno(shutdown(fd, SHUT_WR))) TH_LOG("unconnected");
	close(fd);

	connect_pair(_metadata, self->lfd, "10.1.0.2", &c, &s);
	pid = fork_sender(c, sizes, 3, 20);
	ASSERT_EQ(0, wait_child(pid));
	ASSERT_EQ(0, shutdown(c, SHUT_WR));
	EXPECT_EQ(-EPIPE, do_send(c, "x", 1, 0)) TH_LOG("send after SHUT_WR");

	for (k = 0; k < 3; k++) {
		ASSERT_EQ((int)sizes[k], do_recv(s, buf, sizeof(buf), 0, NULL));
		EXPECT_EQ(-1, check_msg(buf, sizes[k], k + 20));
	}
	ev = wait_ev(s, POLLIN | POLLRDHUP, 5000);
	EXPECT_TRUE(ev & POLLRDHUP) TH_LOG("revents %#x", ev);
	EXPECT_TRUE(ev & POLLIN) TH_LOG("revents %#x", ev);
	EXPECT_EQ(0, do_recv(s, buf, sizeof(buf), 0, NULL)) TH_LOG("EOF");
	EXPECT_EQ(0, do_recv(s, buf, sizeof(buf), MSG_DONTWAIT, NULL)) TH_LOG("EOF again");
	/*
	 * MRC_INFO: our CLOSE queued and everything acknowledged; the server
	 * saw the CLOSE and everything before it.
	 */
	EXPECT_EQ(3, wait_closing(c, 3, 2000));
	EXPECT_EQ(12, wait_closing(s, 12, 0));

	/* The other direction still works. */
	EXPECT_TRUE(wait_ev(s, POLLOUT, 0) & POLLOUT);
	fill_msg(buf, 500, 99);
	ASSERT_EQ(500, do_send(s, buf, 500, 0));
	memset(buf, 0, sizeof(buf));
	ASSERT_EQ(500, do_recv(c, buf, sizeof(buf), 0, NULL));
	EXPECT_EQ(-1, check_msg(buf, 500, 99));
	EXPECT_EQ(-EPIPE, do_send(c, "x", 1, 0)) TH_LOG("still shut down");
	close(c);
	close(s);
}

/* ---- 9. close() delivers what was queued --------------------------------- */

TEST_F(conn, close_delivers_queued)
{
	const int n = 20;
	size_t sizes[20];
	unsigned char *buf = malloc(MAX_MSG);
	int c, s, k, ev;
	pid_t pid;

	ASSERT_NE(NULL, buf);
	for (k = 0; k < n; k++)
		sizes[k] = k % 2 ? 100000 : 1 + 97 * k;
	connect_pair(_metadata, self->lfd, "10.1.0.2", &c, &s);
	pid = fork_sender(c, sizes, n, 40);
	ASSERT_EQ(0, wait_child(pid));
	close(c);	/* with most of it still queued or in flight */

	for (k = 0; k < n; k++) {
		ASSERT_EQ((int)sizes[k], do_recv(s, buf, MAX_MSG, 0, NULL))
			TH_LOG("message %d", k);
		EXPECT_EQ(-1, check_msg(buf, sizes[k], k + 40));
	}
	ev = wait_ev(s, POLLIN | POLLRDHUP, 5000);
	EXPECT_TRUE(ev & POLLRDHUP) TH_LOG("revents %#x", ev);
	EXPECT_EQ(0, do_recv(s, buf, MAX_MSG, 0, NULL)) TH_LOG("EOF");
	EXPECT_EQ(0, so_error(s));
	free(buf);
	close(s);
}

/* ---- 10. SO_LINGER 0: abort ---------------------------------------------- */

TEST_F(conn, linger_zero_resets)
{
	struct linger lg = { .l_onoff = 1, .l_linger = 0 };
	unsigned char buf[64];
	long long t0;
	int c, s, ev = 0;

	connect_pair(_metadata, self->lfd, "10.1.0.2", &c, &s);
	ASSERT_EQ(5, do_send(s, "hello", 5, 0));
	ASSERT_EQ(5, do_recv(c, buf, sizeof(buf), 0, NULL));
	ASSERT_EQ(0, setsockopt(c, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg)));
	close(c);

	/* POLLERR within 2 s (poll until it shows: HUP may come first). */
	t0 = now_ms();
	while (now_ms() - t0 < 2000) {
		ev = wait_ev(s, POLLIN, 2000);
		if (ev & POLLERR)
			break;
		usleep(10000);
	}
	EXPECT_TRUE(ev & POLLERR) TH_LOG("revents %#x after %lld ms", ev, now_ms() - t0);
	EXPECT_EQ(-ECONNRESET, do_recv(s, buf, sizeof(buf), MSG_DONTWAIT, NULL));
	EXPECT_EQ(0, do_recv(s, buf, sizeof(buf), MSG_DONTWAIT, NULL))
		TH_LOG("after the error is reported: EOF");
	EXPECT_EQ(-EPIPE, do_send(s, "x", 1, 0));
	close(s);
}

/* ---- 11. accept: non-blocking, accept4, poll ----------------------------- */

TEST_F(conn, accept_nonblocking)
{
	int c, s, fd, ev;
	char b[8];

	fd = socket(mrc_family(), SOCK_SEQPACKET, 0);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(-EINVAL, neg_errno(accept(fd, NULL, NULL))) TH_LOG("not listening");
	close(fd);

	ASSERT_EQ(0, fcntl(self->lfd, F_SETFL, O_NONBLOCK));
	EXPECT_EQ(-EAGAIN, neg_errno(accept(self->lfd, NULL, NULL)));
	EXPECT_EQ(0, wait_ev(self->lfd, POLLIN, 200));

	c = client("10.1.0.2", CONN_PORT, 0);
	ASSERT_GE(c, 0);
	ev = wait_ev(self->lfd, POLLIN, 5000);
	EXPECT_TRUE(ev & POLLIN) TH_LOG("revents %#x", ev);
	s = neg_errno(accept4(self->lfd, NULL, NULL, SOCK_NONBLOCK));
	ASSERT_GE(s, 0);
	EXPECT_TRUE(fcntl(s, F_GETFL) & O_NONBLOCK);
	EXPECT_EQ(-EAGAIN, do_recv(s, b, sizeof(b), 0, NULL)) TH_LOG("non-blocking child");
	EXPECT_EQ(-EAGAIN, neg_errno(accept(self->lfd, NULL, NULL))) TH_LOG("queue empty again");
	EXPECT_EQ(0, wait_ev(self->lfd, POLLIN, 0));
	ASSERT_EQ(3, do_send(c, "abc", 3, 0));
	EXPECT_TRUE(wait_ev(s, POLLIN, 5000) & POLLIN);
	EXPECT_EQ(3, do_recv(s, b, sizeof(b), 0, NULL));
	close(c);
	close(s);
}

/* Closing a listener resets the connections nobody accepted. */
TEST_F(conn, listener_close_resets_queued)
{
	unsigned char buf[16];
	long long t0;
	int c, ev = 0;

	c = client("10.1.0.2", CONN_PORT, 0);
	ASSERT_GE(c, 0);
	ASSERT_TRUE(wait_ev(self->lfd, POLLIN, 5000) & POLLIN);
	close(self->lfd);
	self->lfd = -1;

	t0 = now_ms();
	while (now_ms() - t0 < 2000) {
		ev = wait_ev(c, POLLIN, 2000);
		if (ev & POLLERR)
			break;
		usleep(10000);
	}
	EXPECT_TRUE(ev & POLLERR) TH_LOG("revents %#x after %lld ms", ev, now_ms() - t0);
	EXPECT_EQ(-ECONNRESET, do_recv(c, buf, sizeof(buf), MSG_DONTWAIT, NULL));
	close(c);
}

/* ---- 12. many connections ------------------------------------------------- */

struct hello {
	__u32 index;
	__u32 port;
};

TEST_F_TIMEOUT(conn, many_connections, 180)
{
	/* 1000: about 1 s on the stock kernel, 25 s on the debug kernel (TCG) */
	const int n = 1000;
	struct rlimit rl = { 2 * n + 256, 2 * n + 256 };
	int *cfd = calloc(n, sizeof(int)), *sfd = calloc(n, sizeof(int));
	char *done = calloc(n, 1), *seen = calloc(n, 1);
	struct pollfd *pfd = calloc(n, sizeof(*pfd));
	int *pidx = calloc(n, sizeof(int));
	int i, np, nsent = 0, nacc = 0, r, err;
	struct hello h;
	long long t0;

	ASSERT_TRUE(cfd && sfd && done && seen && pfd && pidx);
	ASSERT_EQ(0, setrlimit(RLIMIT_NOFILE, &rl));
	ASSERT_EQ(0, listen(self->lfd, n + 24));
	ASSERT_EQ(0, fcntl(self->lfd, F_SETFL, O_NONBLOCK));
	TH_LOG("%d connections", n);

	t0 = now_ms();
	for (i = 0; i < n; i++) {
		struct sockaddr_mrc a = mrc_addr("10.1.0.2", CONN_PORT);

		cfd[i] = socket(mrc_family(), SOCK_SEQPACKET | SOCK_NONBLOCK, 0);
		ASSERT_GE(cfd[i], 0);
		r = neg_errno(connect(cfd[i], (struct sockaddr *)&a, sizeof(a)));
		ASSERT_EQ(-EINPROGRESS, r) TH_LOG("connect %d", i);
	}

	while (nsent < n || nacc < n) {
		ASSERT_LT(now_ms() - t0, 120000)
			TH_LOG("%d sent, %d accepted after 120 s", nsent, nacc);
		while (nacc < n) {
			r = neg_errno(accept(self->lfd, NULL, NULL));
			if (r == -EAGAIN)
				break;
			ASSERT_GE(r, 0);
			sfd[nacc++] = r;
		}
		for (i = 0, np = 0; i < n; i++) {
			if (done[i])
				continue;
			pfd[np].fd = cfd[i];
			pfd[np].events = POLLOUT;
			pidx[np++] = i;
		}
		if (!np) {
			usleep(10000);
			continue;
		}
		ASSERT_LE(0, poll(pfd, np, 50));
		for (i = 0; i < np; i++) {
			int k = pidx[i];

			if (!pfd[i].revents)
				continue;
			err = so_error(cfd[k]);
			ASSERT_TRUE(pfd[i].revents & POLLOUT)
				TH_LOG("connection %d: revents %#x, error %d",
				       k, pfd[i].revents, err);
			ASSERT_EQ(0, err);
			h.index = k;
			h.port = port_of(cfd[k], false);
			ASSERT_EQ(sizeof(h), do_send(cfd[k], &h, sizeof(h), 0));
			done[k] = 1;
			nsent++;
		}
	}
	TH_LOG("all connected and accepted in %lld ms", now_ms() - t0);

	for (i = 0; i < n; i++) {
		ASSERT_TRUE(wait_ev(sfd[i], POLLIN, 10000) & POLLIN)
			TH_LOG("accepted socket %d got nothing", i);
		memset(&h, 0xff, sizeof(h));
		ASSERT_EQ(sizeof(h), do_recv(sfd[i], &h, sizeof(h) + 1, MSG_DONTWAIT, NULL));
		ASSERT_LT(h.index, n);
		EXPECT_FALSE(seen[h.index]) TH_LOG("index %u twice", h.index);
		seen[h.index] = 1;
		EXPECT_EQ(h.port, port_of(sfd[i], true)) TH_LOG("index %u", h.index);
	}
	for (i = 0; i < n; i++)
		close(cfd[i]);
	for (i = 0; i < n; i++)
		close(sfd[i]);
	TH_LOG("done in %lld ms", now_ms() - t0);
	free(cfd);
	free(sfd);
	free(done);
	free(seen);
	free(pfd);
	free(pidx);
}

/* ---- 13. a slow reader stalls the sender --------------------------------- */

TEST_F_TIMEOUT(conn, slow_reader, 180)
{
	const int sz = 100 * 1024, cap = 1000;
	unsigned char *buf = malloc(sz + 1);
	int c, s, n = 0, r, k, sndbuf = 65536, ev;
	struct mrc_info info;
	long long t0;

	ASSERT_NE(NULL, buf);
	connect_pair(_metadata, self->lfd, "10.1.0.2", &c, &s);
	ASSERT_EQ(0, setsockopt(c, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf)));

	t0 = now_ms();
	for (;;) {
		ASSERT_LT(n, cap) TH_LOG("%d x %d bytes sent: the reader never stalls us",
					 n, sz);
		fill_msg(buf, sz, n);
		r = do_send(c, buf, sz, MSG_DONTWAIT);
		if (r == sz) {
			n++;
			continue;
		}
		ASSERT_EQ(-EAGAIN, r);
		/* Full for now; still full after 2 s means stalled. */
		if (!(wait_ev(c, POLLOUT, 2000) & POLLOUT))
			break;
	}
	ASSERT_EQ(0, get_info(c, &info));
	TH_LOG("stalled after %d messages (%lld ms): in flight %u, window %u, queued %u",
	       n, now_ms() - t0, info.in_flight, info.window, info.snd_queue);
	EXPECT_GT(n, 0);
	ASSERT_EQ(0, set_timeo(c, SO_SNDTIMEO, 300));
	EXPECT_EQ(-EAGAIN, do_send(c, buf, sz, 0)) TH_LOG("blocking send, SO_SNDTIMEO");

	for (k = 0; k < n; k++) {
		r = do_recv(s, buf, sz + 1, 0, NULL);
		ASSERT_EQ(sz, r) TH_LOG("message %d", k);
		ASSERT_EQ(-1, check_msg(buf, sz, k)) TH_LOG("message %d", k);
	}
	EXPECT_EQ(-EAGAIN, do_recv(s, buf, sz, MSG_DONTWAIT, NULL));

	/* The reader caught up: the sender may go on. */
	ev = wait_ev(c, POLLOUT, 5000);
	ASSERT_TRUE(ev & POLLOUT) TH_LOG("revents %#x", ev);
	fill_msg(buf, sz, n);
	ASSERT_EQ(sz, do_send(c, buf, sz, 0));
	ASSERT_EQ(sz, do_recv(s, buf, sz + 1, 0, NULL));
	EXPECT_EQ(-1, check_msg(buf, sz, n));
	free(buf);
	close(c);
	close(s);
}

/* How many connections the mrc devices of this namespace have (netlink). */
static int conn_count(bool show)
{
	const char *top = getenv("MRC_TOP");
	char cmd[512], line[256];
	int n = 0;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "%s/tools/mrcctl/mrcctl %s conn show",
		 top ?: "..", show ? "-s" : "-j");
	f = popen(cmd, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		const char *p = line;

		if (show)
			fprintf(stderr, "# %s", line);

		while ((p = strstr(p, "\"id\""))) {
			n++;
			p++;
		}
	}
	return pclose(f) ? -1 : n;
}

/*
 * An orphan (closed by its application) whose CLOSE was acknowledged
 * waits for the peer's CLOSE; if the peer then vanishes, the orphan must
 * still end after the dead-peer time instead of living forever.
 */
TEST_F_TIMEOUT(conn, orphan_of_dead_peer, 60)
{
	unsigned char buf[16];
	long long t0;
	int c, s, n;

	ASSERT_EQ(0, conn_count(false)) TH_LOG("mrcctl conn show does not work");
	connect_pair(_metadata, self->lfd, "10.1.0.2", &c, &s);
	ASSERT_EQ(1, conn_count(false));
	close(c);
	ASSERT_TRUE(wait_ev(s, POLLIN, 5000) & POLLIN);
	ASSERT_EQ(0, do_recv(s, buf, sizeof(buf), MSG_DONTWAIT, NULL)) TH_LOG("EOF");
	usleep(500000);	/* the ACK of the CLOSE arrives */

	ASSERT_EQ(0, setns(self->nsb, CLONE_NEWNET));
	ASSERT_EQ(0, system("ip link del dev mrcB"));
	ASSERT_EQ(0, setns(self->nsa, CLONE_NEWNET));
	t0 = now_ms();
	while ((n = conn_count(false)) > 0 && now_ms() - t0 < 15000)
		usleep(250000);
	EXPECT_EQ(0, n) TH_LOG("the orphan still exists after %lld ms", now_ms() - t0);
	if (n)
		conn_count(true);
	else
		TH_LOG("orphan gone after %lld ms", now_ms() - t0);
	close(s);
}

/* ---- 14. the peer vanishes ------------------------------------------------ */

/* The server's device is deleted: its connection ends, the client hears. */
TEST_F_TIMEOUT(conn, device_gone_resets_peer, 60)
{
	unsigned char buf[256];
	int c, s, rr = 0;
	long long t0, dt;

	connect_pair(_metadata, self->lfd, "10.1.0.2", &c, &s);
	ASSERT_EQ(5, do_send(c, "hello", 5, 0));
	ASSERT_EQ(5, do_recv(s, buf, sizeof(buf), 0, NULL));

	t0 = now_ms();
	ASSERT_EQ(0, setns(self->nsb, CLONE_NEWNET));
	ASSERT_EQ(0, system("ip link del dev mrcB"));
	ASSERT_EQ(0, setns(self->nsa, CLONE_NEWNET));
	EXPECT_EQ(-ENETDOWN, do_recv(s, buf, sizeof(buf), MSG_DONTWAIT, NULL))
		TH_LOG("the server's connection lost its device");
	/* The client, idle, learns it from the server's RESET. */
	while ((dt = now_ms() - t0) < 9000) {
		rr = do_recv(c, buf, sizeof(buf), MSG_DONTWAIT, NULL);
		if (rr != -EAGAIN)
			break;
		usleep(50000);
	}
	TH_LOG("after %lld ms: recv %d", dt, rr);
	EXPECT_EQ(-ECONNRESET, rr);
	close(c);
	close(s);
}

TEST_F_TIMEOUT(conn, dead_peer, 60)
{
	unsigned char buf[256];
	int c, s, r = 0, rr = 0, err;
	long long t0, dt;

	connect_pair(_metadata, self->lfd, "10.1.0.2", &c, &s);
	ASSERT_EQ(5, do_send(c, "hello", 5, 0));
	ASSERT_EQ(5, do_recv(s, buf, sizeof(buf), 0, NULL));

	/*
	 * The server goes silent, as a crashed host does: its rails drop
	 * everything it sends.  (Deleting its device would tell the client
	 * with a RESET: device_gone_resets_peer.)
	 */
	t0 = now_ms();	/* about the client's last news from the server */
	ASSERT_EQ(0, setns(self->nsb, CLONE_NEWNET));
	ASSERT_EQ(0, system("tc qdisc add dev b0 root netem loss 100%"));
	ASSERT_EQ(0, system("tc qdisc add dev b1 root netem loss 100%"));
	ASSERT_EQ(0, setns(self->nsa, CLONE_NEWNET));

	while ((dt = now_ms() - t0) < 20000) {
		fill_msg(buf, 100, dt);
		r = do_send(c, buf, 100, MSG_DONTWAIT);
		if (r < 0 && r != -EAGAIN)
			break;
		rr = do_recv(c, buf, sizeof(buf), MSG_DONTWAIT, NULL);
		if (rr != -EAGAIN)
			break;
		usleep(100000);
	}
	err = r < 0 && r != -EAGAIN ? r : rr;
	TH_LOG("after %lld ms: send %d, recv %d", dt, r, rr);
	EXPECT_EQ(-ETIMEDOUT, err);
	EXPECT_GE(dt, 9000) TH_LOG("dead-peer time is 10 s");
	EXPECT_LE(dt, 13000);
	EXPECT_TRUE(wait_ev(c, POLLIN, 0) & POLLHUP);
	close(c);
	close(s);
}

TEST_HARNESS_MAIN
