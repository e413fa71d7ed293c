/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mrc_test.h - what the C selftests share: two hosts in anonymous network
 * namespaces joined by veth rails, AF_MRC sockets in them, seeded message
 * contents, and the module's counters.  Include it after
 * kselftest_harness.h.
 *
 * The topology (mrc_two_hosts()):
 *
 *   A (client):  mrcA, rails a0 10.0.0.1/24, a1 10.1.0.1/24
 *   B (server):  mrcB, rails b0 10.0.0.2/24, b1 10.1.0.2/24
 *   a0 <-> b0, a1 <-> b1
 *
 * Two namespaces, because addresses of one namespace are delivered
 * locally and never cross the veths.  The namespaces are anonymous
 * (unshare, kept by file descriptors), so they vanish with the test
 * process whatever happens to it; the process is left in A.  A socket
 * stays in the namespace it was created in.  The address family number
 * is read from sysfs, never assumed.
 */
#ifndef MRC_TEST_H
#define MRC_TEST_H

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/if.h>
#include <linux/mrc.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#define MAX_MSG		1048576		/* the default max_msg_size */

static inline int mrc_family(void)
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

/* An address: IPv4 @ip as v4-mapped (NULL: the wildcard), port @port. */
static inline struct sockaddr_mrc mrc_addr(const char *ip, int port)
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

static inline bool is_v4mapped(const struct sockaddr_mrc *a, const char *ip)
{
	struct sockaddr_mrc want = mrc_addr(ip, 0);

	return !memcmp(&a->smrc_addr, &want.smrc_addr, sizeof(want.smrc_addr));
}

static inline long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* The VM runs the debug kernel (tools/vm/run sets MRC_KERNEL). */
static inline bool debug_kernel(void)
{
	const char *k = getenv("MRC_KERNEL");

	return k && !strcmp(k, "debug");
}

static inline int env_int(const char *name, int def)
{
	const char *v = getenv(name);

	return v && *v ? atoi(v) : def;
}

/* Run a formatted shell command; its exit status (0: success). */
static inline int run(const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;
	int r;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	r = system(cmd);
	return r == -1 ? -1 : WIFEXITED(r) ? WEXITSTATUS(r) : 128;
}

/* Run "ip -batch" on a formatted script, in the current namespace. */
static inline int ip_batch(const char *fmt, ...)
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
static inline int links_up(void)
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
static inline int wait_links_up(int n)
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
static inline void fill_msg(unsigned char *buf, size_t len, unsigned int key)
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
static inline long check_msg(const unsigned char *buf, size_t len, unsigned int key)
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

static inline unsigned int rnd_next(unsigned int *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* -errno of a -1 return, for ASSERT_EQ(-EXXX, ...). */
static inline int neg_errno(long r)
{
	return r < 0 ? -errno : r;
}

static inline int do_send(int fd, const void *buf, size_t len, int flags)
{
	return neg_errno(send(fd, buf, len, flags | MSG_NOSIGNAL));
}

/* recvmsg() into @buf; *@mflags gets msg_flags.  Returns n or -errno. */
static inline int do_recv(int fd, void *buf, size_t len, int flags, int *mflags)
{
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	int r = neg_errno(recvmsg(fd, &mh, flags));

	if (mflags)
		*mflags = mh.msg_flags;
	return r;
}

/* poll() one socket: the revents, 0 on timeout. */
static inline int wait_ev(int fd, short events, int ms)
{
	struct pollfd p = { .fd = fd, .events = events };
	int r = poll(&p, 1, ms);

	return r > 0 ? p.revents : r;
}

static inline int so_error(int fd)
{
	int err = -1;
	socklen_t len = sizeof(err);

	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len))
		return -errno;
	return err;
}

static inline int get_info(int fd, struct mrc_info *info)
{
	socklen_t len = sizeof(*info);

	memset(info, 0xff, sizeof(*info));
	if (getsockopt(fd, SOL_MRC, MRC_INFO, info, &len))
		return -errno;
	return len == sizeof(*info) ? 0 : -EMSGSIZE;
}

/* Wait until MRC_INFO's closing bits are @want: the last value seen. */
static inline int wait_closing(int fd, int want, int ms)
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

static inline int port_of(int fd, bool peer)
{
	struct sockaddr_mrc a;
	socklen_t len = sizeof(a);
	int r = peer ? getpeername(fd, (struct sockaddr *)&a, &len) :
		       getsockname(fd, (struct sockaddr *)&a, &len);

	return r ? -errno : ntohs(a.smrc_port);
}

static inline int set_timeo(int fd, int opt, int ms)
{
	struct timeval tv = { .tv_sec = ms / 1000, .tv_usec = (ms % 1000) * 1000 };

	return setsockopt(fd, SOL_SOCKET, opt, &tv, sizeof(tv));
}

/* An AF_MRC socket of namespace @ns; the caller is back in @home after. */
static inline int mrc_socket_in(int ns, int home, int type_flags)
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
static inline int listener_in(int ns, int home, int port, int backlog)
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
static inline int client(const char *ip, int port, int type_flags)
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
static inline int accept_wait(int lfd, int ms, int flags)
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
static inline pid_t fork_sender(int fd, const size_t *sizes, int n, unsigned int key)
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

static inline int wait_child(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/*
 * Receive @n messages on @fd: message k must be @sizes[k] bytes of
 * fill_msg(k + @key).  Returns -1 if all arrived intact, else the index
 * of the first that did not (its recv() result in *@got).
 */
static inline int recv_all(int fd, const size_t *sizes, int n, unsigned int key,
			   int *got)
{
	unsigned char *buf = malloc(MAX_MSG + 1);
	int k, r = 0;

	if (!buf)
		return 0;
	for (k = 0; k < n; k++) {
		r = do_recv(fd, buf, MAX_MSG + 1, 0, NULL);
		if (r != (int)sizes[k] || check_msg(buf, r, k + key) != -1)
			break;
	}
	free(buf);
	if (got)
		*got = r;
	return k == n ? -1 : k;
}

/*
 * One host: its mrc device and its two rails (@s 'a' or 'b', host
 * number @host), after the lines in @first.
 */
static inline int host_config(char s, int host, const char *first)
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

/*
 * Build the two hosts; *@nsa and *@nsb get their namespaces, the caller
 * is left in A.  Returns 0, or a line of the failure.
 */
static inline int mrc_two_hosts(int *nsa, int *nsb)
{
	char veths[256];

	*nsa = -1;
	*nsb = -1;
	if (unshare(CLONE_NEWNET))
		return __LINE__;
	*nsa = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (*nsa < 0 || unshare(CLONE_NEWNET))
		return __LINE__;
	*nsb = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (*nsb < 0)
		return __LINE__;

	/* In B: the veth pairs, their a-ends going to A; then B's device. */
	snprintf(veths, sizeof(veths),
		 "link add b0 type veth peer name a0 netns /proc/%d/fd/%d\n"
		 "link add b1 type veth peer name a1 netns /proc/%d/fd/%d\n",
		 getpid(), *nsa, getpid(), *nsa);
	if (host_config('b', 2, veths))
		return __LINE__;
	if (setns(*nsa, CLONE_NEWNET) || host_config('a', 1, ""))
		return __LINE__;
	/* a0, a1 and mrcA, then b0, b1 and mrcB (lo stays "unknown") */
	if (wait_links_up(3))
		return __LINE__;
	if (setns(*nsb, CLONE_NEWNET) || wait_links_up(3))
		return __LINE__;
	if (setns(*nsa, CLONE_NEWNET))
		return __LINE__;
	return 0;
}

/*
 * The hosts of a userspace peer (mrc_peer.h), and a third party:
 *
 *   A (peer):    no mrc device; a0 10.0.0.1/24, br1 10.1.0.1/24 (bridge
 *                of a1 and av)
 *   B (server):  mrcB, rails b0 10.0.0.2/24, b1 10.1.0.2/24
 *   V (victim):  v1 10.1.0.3/24 (av <-> v1), on plane 1's segment
 *   a0 <-> b0, a1 <-> b1
 *
 * Without an mrc device, nothing in A holds UDP port 4796, where B's mrc
 * sends everything: the peer binds it on A's rail addresses.  V is an
 * address of the 10.1.0.0/24 segment that B reaches through its rail b1
 * but that is not A's.  *@nsa, *@nsb and *@nsv get the namespaces; the
 * caller is left in A.  Returns 0, or a line of the failure.
 */
static inline int mrc_peer_hosts(int *nsa, int *nsb, int *nsv)
{
	char veths[512];
	pid_t me = getpid();

	*nsa = -1;
	*nsb = -1;
	*nsv = -1;
	if (unshare(CLONE_NEWNET))
		return __LINE__;
	*nsa = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (*nsa < 0 || unshare(CLONE_NEWNET))
		return __LINE__;
	*nsv = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (*nsv < 0 || unshare(CLONE_NEWNET))
		return __LINE__;
	*nsb = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (*nsb < 0)
		return __LINE__;

	snprintf(veths, sizeof(veths),
		 "link add b0 type veth peer name a0 netns /proc/%d/fd/%d\n"
		 "link add b1 type veth peer name a1 netns /proc/%d/fd/%d\n",
		 me, *nsa, me, *nsa);
	if (host_config('b', 2, veths))
		return __LINE__;
	if (setns(*nsv, CLONE_NEWNET) ||
	    ip_batch("link set dev lo up\n"
		     "link add v1 type veth peer name av netns /proc/%d/fd/%d\n"
		     "addr add 10.1.0.3/24 dev v1\n"
		     "link set dev v1 up\n", me, *nsa))
		return __LINE__;
	if (setns(*nsa, CLONE_NEWNET) ||
	    ip_batch("link set dev lo up\n"
		     "link add br1 type bridge stp_state 0 forward_delay 0\n"
		     "link set dev a1 master br1\n"
		     "link set dev av master br1\n"
		     "addr add 10.0.0.1/24 dev a0\n"
		     "addr add 10.1.0.1/24 dev br1\n"
		     "link set dev a0 up\n"
		     "link set dev a1 up\n"
		     "link set dev av up\n"
		     "link set dev br1 up\n"))
		return __LINE__;
	/* a0, a1, av, br1; v1; b0, b1, mrcB */
	if (wait_links_up(4))
		return __LINE__;
	if (setns(*nsv, CLONE_NEWNET) || wait_links_up(1))
		return __LINE__;
	if (setns(*nsb, CLONE_NEWNET) || wait_links_up(3))
		return __LINE__;
	if (setns(*nsa, CLONE_NEWNET))
		return __LINE__;
	return 0;
}

/*
 * Mount the sysfs of namespace @ns on the directory @dir, from and back
 * to @home: /sys/class/net there shows @ns's devices for as long as the
 * mount lives, to be read as often as needed (sysfs_read_in() mounts
 * once per read).  The caller's mounts become private to it
 * (unshare(CLONE_NEWNS)).  Returns 0 or -errno.
 */
static inline int sysfs_mount_in(int ns, int home, const char *dir)
{
	int err = 0;

	if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return -errno;
	if (setns(ns, CLONE_NEWNET))
		return -errno;
	if (mount("sysfs", dir, "sysfs", 0, NULL))
		err = -errno;
	if (setns(home, CLONE_NEWNET))
		return -errno;
	return err;
}

/* Run a shell command in namespace @ns, from and back to @home. */
static inline int run_in(int ns, int home, const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;
	int r;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	if (setns(ns, CLONE_NEWNET))
		return -1;
	r = run("%s", cmd);
	if (setns(home, CLONE_NEWNET))
		return -1;
	return r;
}

/*
 * A number in sysfs as namespace @ns sees it (/sys/class/net/... shows
 * the devices of the namespace that mounted sysfs, so a child process
 * mounts its own), or -1.
 */
static inline long sysfs_read_in(int ns, const char *path)
{
	int p[2];
	long v = -1;
	pid_t pid;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		FILE *f;

		close(p[0]);
		if (setns(ns, CLONE_NEWNET) || unshare(CLONE_NEWNS) ||
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
		    umount2("/sys", MNT_DETACH) ||
		    mount("sysfs", "/sys", "sysfs", 0, NULL))
			_exit(1);
		f = fopen(path, "r");
		if (!f || fscanf(f, "%ld", &v) != 1)
			_exit(1);
		_exit(write(p[1], &v, sizeof(v)) == sizeof(v) ? 0 : 1);
	}
	close(p[1]);
	if (read(p[0], &v, sizeof(v)) != sizeof(v))
		v = -1;
	close(p[0]);
	if (wait_child(pid))
		v = -1;
	return v;
}

/* A module parameter (/sys/module/mrc/parameters/@name; a bool's Y/N as
 * 1/0), or -1.
 */
static inline long mrc_param(const char *name)
{
	char path[256], tok[32], *end;
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/mrc/parameters/%s", name);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%31s", tok) == 1) {
			v = strtol(tok, &end, 10);
			if (!strcmp(tok, "Y") || !strcmp(tok, "N"))
				v = tok[0] == 'Y';
			else if (end == tok || *end)
				v = -1;
		}
		fclose(f);
	}
	return v;
}

static inline int mrc_set_param(const char *name, long v)
{
	char path[256];
	FILE *f;
	int r;

	snprintf(path, sizeof(path), "/sys/module/mrc/parameters/%s", name);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	r = fprintf(f, "%ld\n", v) < 0 ? -EIO : 0;
	if (fclose(f))
		r = -errno;
	return r;
}

/*
 * Put back parameter @name's value @saved (read before the test changed
 * it), unless @saved is below @min: never read, or unreadable.
 */
static inline void mrc_restore_param(const char *name, long saved, long min)
{
	if (saved >= min && mrc_param(name) != saved)
		mrc_set_param(name, saved);
}

static inline long module_refcnt(void)
{
	FILE *f = fopen("/sys/module/mrc/refcnt", "r");
	long n = -1;

	if (f) {
		if (fscanf(f, "%ld", &n) != 1)
			n = -1;
		fclose(f);
	}
	return n;
}

/* Active objects of the "MRC" slab after a shrink, or -1 if it has none. */
static inline long slab_active(void)
{
	char line[512], name[64];
	long active = -1, n;
	FILE *f;

	f = fopen("/sys/kernel/slab/MRC/shrink", "w");
	if (f) {
		fputs("1", f);
		fclose(f);
	}
	f = fopen("/proc/slabinfo", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %ld", name, &n) == 2 && !strcmp(name, "MRC"))
			active = n;
	fclose(f);
	return active;
}

/*
 * Connections of the mrc devices of namespace @ns (-1: the current one),
 * counted in `mrcctl -j conn show` (run as root: ids are shown), or -1.
 * With @show, the listing goes to stderr as diagnostics.
 */
static inline int conn_count_in(int ns, int home, bool show)
{
	const char *top = getenv("MRC_TOP");
	char cmd[512], *line = NULL;
	size_t size = 0;
	int n = 0;
	FILE *f;

	if (ns >= 0 && setns(ns, CLONE_NEWNET))
		return -1;
	snprintf(cmd, sizeof(cmd), "%s/tools/mrcctl/mrcctl %s conn show",
		 top ?: "..", show ? "-s" : "-j");
	f = popen(cmd, "r");
	if (f) {
		/* Whole lines: the JSON is one line, an "id" must not be cut. */
		while (getline(&line, &size, f) > 0) {
			const char *p = line;

			if (show)
				fprintf(stderr, "# %s", line);
			while ((p = strstr(p, "\"id\""))) {
				n++;
				p++;
			}
		}
		if (pclose(f))
			n = -1;
	} else {
		n = -1;
	}
	free(line);
	if (ns >= 0 && setns(home, CLONE_NEWNET))
		return -1;
	return n;
}

#endif /* MRC_TEST_H */
