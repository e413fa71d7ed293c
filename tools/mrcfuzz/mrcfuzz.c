// SPDX-License-Identifier: GPL-2.0
/*
 * mrcfuzz - a system call fuzzer of the AF_MRC socket API and of the "mrc"
 * generic netlink family, run from userspace (in a test VM).
 *
 *   mrcfuzz [-S SEED] [-t SECONDS] [-j THREADS] [-a PEER]... [-l LOCAL]...
 *           [-p PORT] [-n NPORTS] [-d MRCDEV] [-r RAIL:PLANE]... [-U] [-R] [-v]
 *
 * THREADS threads share a small table of file descriptors.  Each one
 * repeatedly picks a random operation: socket, bind, connect, listen,
 * accept/accept4, send/sendto/sendmsg/sendmmsg, recv/recvmsg/recvmmsg,
 * setsockopt/getsockopt, getsockname/getpeername, poll, epoll, shutdown,
 * fcntl, dup, close, ioctl, a signal to another thread (EINTR paths),
 * random generic netlink messages to the mrc family and rtnetlink link
 * churn (mrc devices "mrcfzN", dummy rails "fzdN").  Addresses, ports,
 * sizes, flags, option lengths and pointers are valid-ish or garbage.
 * A service thread keeps listeners on PORT..PORT+NPORTS-1 and feeds the
 * connections it accepts into the table, so data flows when the peer
 * runs mrcfuzz too.
 *
 * -S SEED      seed (default: from the clock); printed at start.  Every
 *              thread's choices derive from it; the interleaving does not.
 * -t SECONDS   run time (default 10)
 * -j THREADS   fuzzing threads (default 8)
 * -a PEER      address of the peer host (repeatable): connect targets
 * -l LOCAL     address of this host (repeatable): bind/connect targets
 * -p PORT      first service port (default 7700), -n NPORTS of them (4)
 * -d MRCDEV    the topology's mrc device (default mrc0)
 * -r RAIL:PLANE  a rail of MRCDEV (repeatable); once a second and at the
 *              end it is put back on MRCDEV at PLANE, admin-state up,
 *              link up, and MRCDEV's settings restored, whatever the
 *              random netlink messages did in between; while its
 *              udp-port cannot be put back (connections run on it:
 *              "repair EBUSY" in the summary), no thread connects and
 *              the table's sockets are closed with SO_LINGER 0, so
 *              that the device drains; at the end, every rail of MRCDEV
 *              not given with -r is detached, whoever attached it
 * -R           repair only: put MRCDEV back as the -r options say (at
 *              least one; not with -U), as at the end of a run, and exit
 *              (0, or 1 if MRCDEV does not exist or the repair could not
 *              be done within 30 s)
 * -U           unprivileged run: no repair; a configuration request
 *              (genl dev-set, rail-add/del/set, path-set, rtnetlink link
 *              add/del/set) that succeeds is a violation, and so is a
 *              lookup by connection id (conn-get do, path-get with
 *              conn-id) that succeeds, a reply that carries a
 *              connection id or a join of the "conns" group that
 *              succeeds (ids are for CAP_NET_ADMIN only); the ids it
 *              tries are its own sockets' (getsockopt MRC_INFO)
 * -v           print every violation (default: the first 20)
 *
 * Messages of 16 bytes or more carry a header (magic, length, seed, hash)
 * that the receiver verifies: a received message that is not truncated
 * and fails the check is a violation (reliable messages must arrive whole).
 *
 * Violations (exit 1), each one precisely a kernel misbehaviour:
 *   - a call in a thread did not return for 30 s although every socket has
 *     SO_RCVTIMEO/SO_SNDTIMEO of at most 1 s, every poll/epoll timeout is
 *     short, and the thread got SIGUSR1 (no SA_RESTART) every second after
 *     the first 5 s; for netlink requests, which may wait for the RTNL
 *     without a timeout, 120 s
 *   - a call succeeded with an impossible result: send returned another
 *     length than asked on a SOCK_SEQPACKET socket; recv returned more than
 *     the buffer without MSG_TRUNC; a message failed its header check;
 *     getsockopt(MRC_INFO) returned a length above the request or the
 *     struct; getsockname/getpeername/accept returned another family or a
 *     length other than sizeof(struct sockaddr_mrc); socket() succeeded
 *     for a type other than SOCK_SEQPACKET or a protocol other than 0;
 *     bind/connect succeeded with an address length below the struct;
 *     poll returned events that were not asked for
 *   - a malformed netlink reply (lengths that do not add up)
 *   - with -U, a configuration request or a lookup by connection id
 *     succeeded, a genl reply disclosed a connection id, or joining the
 *     "conns" group succeeded
 * Unexpected errnos are counted, not failures.  Exit 2: setup error.
 *
 * Summary on stdout: "op NAME n=N ok=N EXXX=N ..." per operation, the
 * errno histogram of all operations, and "summary: ops=N ops_per_sec=N
 * violations=N".
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sockios.h>

#include <linux/mrc.h>

#define NSLOTS		48
#define MAX_THREADS	64
#define NERR		134		/* errno histogram buckets; last: other */
#define PRIV_FD_MIN	600		/* our own fds live above the table's */
#define MSG_MAGIC	0x4d524346	/* "MRCF" */
#define MSG_HDR		16
#define SMALL_BUF	65536
#define BIG_BUF		(4 << 20)
#define STUCK_KICK_MS	5000
#define STUCK_FAIL_MS	30000
#define STUCK_NL_MS	120000		/* netlink: waits for RTNL, no timeout */
#define NL_BUF		65536
#define NFZDEV		3		/* mrcfz0..2 */
#define NFZRAIL		4		/* fzd0..3 */
#define MAX_ADDRS	16
#define MAX_RAILS	8
#define MAX_IFS		64
#define NCONNIDS	16
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

enum op {
	OP_SOCKET, OP_BIND, OP_CONNECT, OP_LISTEN, OP_ACCEPT, OP_SEND,
	OP_SENDMSG, OP_SENDMMSG, OP_RECV, OP_RECVMSG, OP_RECVMMSG,
	OP_SETSOCKOPT, OP_GETSOCKOPT, OP_GETNAME, OP_POLL, OP_EPOLL,
	OP_SHUTDOWN, OP_FCNTL, OP_DUP, OP_CLOSE, OP_IOCTL, OP_SIGNAL,
	OP_GENL, OP_GENL_ADMIN, OP_GENL_BAD, OP_GENL_ID, OP_RTNL,
	OP_SVC_ACCEPT, OP_SVC_CONNECT, OP_RECV_DATA, OP_REPAIR, OP_MAX
};

static const char * const op_names[OP_MAX] = {
	"socket", "bind", "connect", "listen", "accept", "send",
	"sendmsg", "sendmmsg", "recv", "recvmsg", "recvmmsg",
	"setsockopt", "getsockopt", "getname", "poll", "epoll",
	"shutdown", "fcntl", "dup", "close", "ioctl", "signal",
	"genl", "genl-admin", "genl-bad", "genl-id", "rtnl", "svc-accept",
	"svc-connect", "recv-data", "repair",
};

/* Relative weights of the operations a fuzzing thread picks. */
static const unsigned int op_weight[OP_MAX] = {
	[OP_SOCKET] = 6, [OP_BIND] = 5, [OP_CONNECT] = 8, [OP_LISTEN] = 3,
	[OP_ACCEPT] = 4, [OP_SEND] = 10, [OP_SENDMSG] = 8, [OP_SENDMMSG] = 3,
	[OP_RECV] = 8, [OP_RECVMSG] = 8, [OP_RECVMMSG] = 3,
	[OP_SETSOCKOPT] = 6, [OP_GETSOCKOPT] = 6, [OP_GETNAME] = 4,
	[OP_POLL] = 4, [OP_EPOLL] = 3, [OP_SHUTDOWN] = 2, [OP_FCNTL] = 2,
	[OP_DUP] = 2, [OP_CLOSE] = 4, [OP_IOCTL] = 3, [OP_SIGNAL] = 1,
	[OP_GENL] = 6, [OP_RTNL] = 1,
};

struct thr {
	pthread_t tid;
	int idx;
	unsigned long long rng;
	int genl, rtnl, ep;
	unsigned int seq;
	unsigned char *buf;		/* BIG_BUF + SMALL_BUF */
	unsigned char *rbuf;		/* BIG_BUF + SMALL_BUF */
	unsigned char *nlbuf;		/* NL_BUF */
	unsigned long long since_ms;	/* start of the current op, 0: idle */
	int cur_op;
	int cur_slot;
	unsigned long long last_kick_ms;
	int done;
	unsigned long counts[OP_MAX][NERR];
};

static int family;
static unsigned long long seed;
static int nthreads = 8, run_secs = 10, unpriv, verbose, repair_only;
static int port_base = 7700, nports = 4;
static struct in6_addr peer_addrs[MAX_ADDRS], local_addrs[MAX_ADDRS];
static int npeer, nlocal;
static const char *mrcdev = "mrc0";
static char rail_names[MAX_RAILS][IF_NAMESIZE];
static unsigned int rail_planes[MAX_RAILS];
static int nrails;
static int genl_id, genl_mcgrp, genl_conns_grp;	/* "events", "conns" */

static int slots[NSLOTS];
static struct thr thrs[MAX_THREADS + 1];	/* + the service thread */
static struct thr main_thr;
static int stop_flag, start_flag;
/*
 * Set by repair() while the topology device's udp-port is not its own and
 * cannot be put back (EBUSY: connections run on it): until then no thread
 * starts a connection, which would aim at the peer's wrong port and keep
 * the device busy for the dead-peer time, and the next, for ever.  Only
 * a repair that puts the port back clears it: cleared at the start of
 * each try, it let the service thread start a connect (which blocks for
 * up to 2 s, longer than the repair interval) while the try's requests
 * waited for the RTNL, and that connect made the try fail again, once a
 * second for a whole debug-kernel run.
 */
static int port_held;
static unsigned long violations, kicks, kicks_by_op[OP_MAX];
static pthread_mutex_t print_lock = PTHREAD_MUTEX_INITIALIZER;

/* Interfaces of the namespace, refreshed by the main thread. */
static pthread_mutex_t if_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned int if_index[MAX_IFS];
static char if_names[MAX_IFS][IF_NAMESIZE];
static int n_ifs;

/*
 * Connection ids seen in conn/path replies and of our own sockets
 * (MRC_INFO): valid-ish targets of requests naming a connection.
 */
static unsigned int conn_ids[NCONNIDS];
static unsigned int conn_id_n;

/* Remember a connection id: a valid-ish target of lookups by id. */
static void note_conn_id(unsigned int id)
{
	unsigned int k = __atomic_fetch_add(&conn_id_n, 1, __ATOMIC_RELAXED);

	__atomic_store_n(&conn_ids[k % NCONNIDS], id, __ATOMIC_RELAXED);
}

/* The topology device's settings, restored by repair(). */
static unsigned int orig_port, orig_max_msg, orig_evs;
static char orig_spray[16];

/* A page that is never mapped: its address makes the kernel fault. */
static void *bad_ptr;

/* ---- helpers ----------------------------------------------------------- */

static unsigned long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ULL + ts.tv_nsec / 1000000;
}

static unsigned long long mix(unsigned long long x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

static unsigned long long rnd64(struct thr *t)
{
	t->rng ^= t->rng << 13;
	t->rng ^= t->rng >> 7;
	t->rng ^= t->rng << 17;
	return t->rng;
}

/* Uniform in 0..n-1 (n > 0). */
static unsigned int rnd(struct thr *t, unsigned int n)
{
	return rnd64(t) % n;
}

/* True with probability pct percent. */
static int chance(struct thr *t, unsigned int pct)
{
	return rnd(t, 100) < pct;
}

static int stopping(void)
{
	return __atomic_load_n(&stop_flag, __ATOMIC_RELAXED);
}

static void violation(struct thr *t, const char *fmt, ...)
{
	unsigned long n = __atomic_add_fetch(&violations, 1, __ATOMIC_RELAXED);
	va_list ap;

	if (n > 20 && !verbose)
		return;
	pthread_mutex_lock(&print_lock);
	fprintf(stderr, "mrcfuzz: VIOLATION (seed %llu, thread %d): ", seed,
		t ? t->idx : -1);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	pthread_mutex_unlock(&print_lock);
}

static void count(struct thr *t, int op, int err)
{
	if (err < 0 || err >= NERR)
		err = NERR - 1;
	t->counts[op][err]++;
}

/* Count the result of a call that returned rc (-1: errno). */
static void result(struct thr *t, int op, long rc)
{
	count(t, op, rc < 0 ? errno : 0);
}

/* Move a private fd out of the table's range. */
static int high_fd(int fd)
{
	int nfd;

	if (fd < 0)
		return fd;
	nfd = fcntl(fd, F_DUPFD_CLOEXEC, PRIV_FD_MIN);
	close(fd);
	return nfd;
}

static void set_timeouts(int fd, struct thr *t)
{
	struct timeval tv = { 0, 10000 + (t ? rnd(t, 990000) : 500000) };

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	tv.tv_usec = 10000 + (t ? rnd(t, 990000) : 500000);
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

/* Put fd into a slot; whatever was there is closed. */
static void slot_put(struct thr *t, int fd)
{
	int old = __atomic_exchange_n(&slots[rnd(t, NSLOTS)], fd, __ATOMIC_ACQ_REL);

	if (old >= 0)
		close(old);
}

/* A descriptor to operate on: mostly a table entry (maybe closed). */
static int pick_fd(struct thr *t)
{
	int s, fd, i;

	if (chance(t, 2))
		return chance(t, 50) ? -1 : (int)(1000 + rnd(t, 1000));
	/* mostly a live one: empty slots are skipped a few times */
	for (i = 0; i < 4; i++) {
		s = rnd(t, NSLOTS);
		t->cur_slot = s;
		fd = __atomic_load_n(&slots[s], __ATOMIC_ACQUIRE);
		if (fd >= 0)
			break;
	}
	return fd;
}

static void v4mapped(struct in6_addr *a, unsigned int ip)
{
	memset(a, 0, sizeof(*a));
	a->s6_addr[10] = 0xff;
	a->s6_addr[11] = 0xff;
	memcpy(&a->s6_addr[12], &ip, 4);
}

static int parse_addr(const char *s, struct in6_addr *a)
{
	struct in_addr v4;

	if (inet_pton(AF_INET6, s, a) == 1)
		return 0;
	if (inet_pton(AF_INET, s, &v4) == 1) {
		v4mapped(a, v4.s_addr);
		return 0;
	}
	return -1;
}

static unsigned int random_ifindex(struct thr *t, int mrc_only)
{
	unsigned int idx = 0;
	int i, n;

	if (chance(t, 5))
		return chance(t, 50) ? 0 : rnd64(t);
	pthread_mutex_lock(&if_lock);
	n = n_ifs;
	for (i = 0; n && i < 8; i++) {
		int k = rnd(t, n);

		idx = if_index[k];
		if (!mrc_only || !strncmp(if_names[k], "mrc", 3))
			break;
	}
	pthread_mutex_unlock(&if_lock);
	return idx;
}

static void refresh_ifs(void)
{
	struct if_nameindex *ni = if_nameindex(), *p;
	int n = 0;

	if (!ni)
		return;
	pthread_mutex_lock(&if_lock);
	for (p = ni; p->if_index && n < MAX_IFS; p++, n++) {
		if_index[n] = p->if_index;
		snprintf(if_names[n], IF_NAMESIZE, "%s", p->if_name);
	}
	n_ifs = n;
	pthread_mutex_unlock(&if_lock);
	if_freenameindex(ni);
}

/* ---- addresses ------------------------------------------------------------ */

static void random_addr(struct thr *t, struct in6_addr *a)
{
	unsigned int r = rnd(t, 100);

	if (r < 40 && npeer) {
		*a = peer_addrs[rnd(t, npeer)];
	} else if (r < 65 && nlocal) {
		*a = local_addrs[rnd(t, nlocal)];
	} else if (r < 75) {
		memset(a, 0, sizeof(*a));
	} else if (r < 80) {
		v4mapped(a, htonl(0x7f000001));
	} else if (r < 90) {
		v4mapped(a, rnd64(t));
	} else {
		unsigned long long x = rnd64(t), y = rnd64(t);

		memcpy(a->s6_addr, &x, 8);
		memcpy(a->s6_addr + 8, &y, 8);
	}
}

static unsigned int random_port(struct thr *t)
{
	unsigned int r = rnd(t, 100);

	if (r < 55)
		return port_base + rnd(t, nports);
	if (r < 70)
		return 0;
	if (r < 80)
		return 1 + rnd(t, 1023);
	if (r < 90)
		return port_base + nports + rnd(t, 8);
	return rnd(t, 65536);
}

/*
 * A sockaddr for bind/connect into *ss: returns its length and sets *ptr,
 * sometimes to NULL or an unmapped address.
 */
static socklen_t random_sockaddr(struct thr *t, struct sockaddr_storage *ss,
				 void **ptr)
{
	struct sockaddr_mrc *a = (struct sockaddr_mrc *)ss;
	static const socklen_t lens[] = { 0, 1, 2, 8, 16, 24, 28, 31, 33, 64,
					  sizeof(struct sockaddr_storage),
					  sizeof(struct sockaddr_storage) + 1,
					  4096 };
	socklen_t len = sizeof(*a);

	memset(ss, 0, sizeof(*ss));
	a->smrc_family = family;
	a->smrc_port = htons(random_port(t));
	random_addr(t, &a->smrc_addr);
	if (chance(t, 15))
		a->smrc_ifindex = random_ifindex(t, chance(t, 70));
	if (chance(t, 5))
		a->smrc_family = chance(t, 50) ? (chance(t, 50) ? AF_INET6 : AF_INET) :
				 rnd(t, 65536);
	if (chance(t, 3))
		a->smrc_zero[rnd(t, 8)] = 1 + rnd(t, 255);
	if (chance(t, 2)) {
		unsigned int i;

		for (i = sizeof(*a); i < sizeof(*ss); i++)
			((unsigned char *)ss)[i] = rnd(t, 256);
	}
	if (chance(t, 8))
		len = lens[rnd(t, ARRAY_SIZE(lens))];
	*ptr = ss;
	if (chance(t, 2))
		*ptr = chance(t, 50) ? NULL : bad_ptr;
	return len;
}

/* ---- socket operations ----------------------------------------------------- */

static void op_socket(struct thr *t)
{
	static const int types[] = { SOCK_STREAM, SOCK_DGRAM, SOCK_RAW, SOCK_RDM,
				     SOCK_DCCP, SOCK_PACKET, 0, 11 };
	int type = SOCK_SEQPACKET, proto = 0, fd;

	if (chance(t, 10))
		type = chance(t, 80) ? types[rnd(t, 8)] : (int)rnd64(t);
	if (chance(t, 30))
		type |= SOCK_NONBLOCK;
	if (chance(t, 30))
		type |= SOCK_CLOEXEC;
	if (chance(t, 6))
		proto = chance(t, 50) ? (int)(1 + rnd(t, 300)) : (int)rnd64(t);
	fd = socket(family, type, proto);
	result(t, OP_SOCKET, fd);
	if (fd < 0)
		return;
	if ((type & ~(SOCK_NONBLOCK | SOCK_CLOEXEC)) != SOCK_SEQPACKET || proto)
		violation(t, "socket(%d, %#x, %d) succeeded", family, type, proto);
	set_timeouts(fd, t);
	if (chance(t, 20)) {
		int v = 1;

		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &v, sizeof(v));
	}
	if (chance(t, 10)) {
		int v = 2048 + rnd(t, 1 << 20);

		setsockopt(fd, SOL_SOCKET, chance(t, 50) ? SO_SNDBUF : SO_RCVBUF,
			   &v, sizeof(v));
	}
	slot_put(t, fd);
}

static void op_bind(struct thr *t)
{
	struct sockaddr_storage ss;
	void *p;
	socklen_t len = random_sockaddr(t, &ss, &p);
	int rc = bind(pick_fd(t), p, len);

	result(t, OP_BIND, rc);
	if (!rc && len < sizeof(struct sockaddr_mrc))
		violation(t, "bind succeeded with address length %u", len);
}

static void op_connect(struct thr *t)
{
	struct sockaddr_storage ss;
	void *p;
	socklen_t len = random_sockaddr(t, &ss, &p);
	int fd = pick_fd(t), rc;

	if (__atomic_load_n(&port_held, __ATOMIC_RELAXED))
		return;
	if (fd >= 0 && chance(t, 20)) {
		/* a fresh socket: connects that can succeed */
		fd = socket(family, SOCK_SEQPACKET |
			    (chance(t, 30) ? SOCK_NONBLOCK : 0), 0);
		if (fd < 0) {
			result(t, OP_SOCKET, fd);
			return;
		}
		set_timeouts(fd, t);
		slot_put(t, fd);
	}
	rc = connect(fd, p, len);
	result(t, OP_CONNECT, rc);
	if (!rc && len < sizeof(struct sockaddr_mrc))
		violation(t, "connect succeeded with address length %u", len);
}

static void op_listen(struct thr *t)
{
	static const int backlogs[] = { -1, 0, 1, 2, 16, 128, 0x7fffffff };
	int fd = pick_fd(t);

	if (chance(t, 20)) {
		/* a fresh listener on a port the peer connects to (random_port) */
		struct sockaddr_mrc a = { .smrc_family = family };
		int one = 1;

		a.smrc_port = htons(port_base + nports + rnd(t, 8));
		fd = socket(family, SOCK_SEQPACKET, 0);
		if (fd < 0) {
			result(t, OP_SOCKET, fd);
			return;
		}
		set_timeouts(fd, t);
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		result(t, OP_BIND, bind(fd, (struct sockaddr *)&a, sizeof(a)));
		slot_put(t, fd);
	}
	result(t, OP_LISTEN, listen(fd, backlogs[rnd(t, 7)]));
}

/* A returned address: ss is NULL when it was not ours to read. */
static void check_name(struct thr *t, const char *what,
		       const struct sockaddr_storage *ss, socklen_t len,
		       socklen_t asked)
{
	const struct sockaddr_mrc *a = (const void *)ss;

	if (len != sizeof(*a))
		violation(t, "%s returned address length %u", what, len);
	else if (ss && asked >= 2 && a->smrc_family != family)
		violation(t, "%s returned family %u", what, a->smrc_family);
}

static void op_accept(struct thr *t)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss), asked;
	int fd = pick_fd(t), nfd, flags = 0, with_addr = chance(t, 50);
	void *p = &ss;

	if (chance(t, 20))
		len = rnd(t, 40);
	if (chance(t, 3))
		p = bad_ptr;
	asked = len;
	memset(&ss, 0, sizeof(ss));
	if (chance(t, 50)) {
		if (chance(t, 40))
			flags |= SOCK_NONBLOCK;
		if (chance(t, 40))
			flags |= SOCK_CLOEXEC;
		if (chance(t, 5))
			flags = rnd64(t);
		nfd = accept4(fd, with_addr ? p : NULL, with_addr ? &len : NULL, flags);
	} else {
		nfd = accept(fd, with_addr ? p : NULL, with_addr ? &len : NULL);
	}
	result(t, OP_ACCEPT, nfd);
	if (nfd < 0)
		return;
	set_timeouts(nfd, t);
	if (with_addr)
		check_name(t, "accept", p == &ss ? &ss : NULL, len, asked);
	slot_put(t, nfd);
}

static unsigned int random_len(struct thr *t)
{
	unsigned int r = rnd(t, 1000);

	if (r < 30)
		return 0;
	if (r < 80)
		return 1;
	if (r < 250)
		return 2 + rnd(t, 63);
	if (r < 600)
		return 65 + rnd(t, 9000);
	if (r < 950)
		return 9065 + rnd(t, SMALL_BUF - 9065);
	if (r < 990)
		return SMALL_BUF + rnd(t, (1 << 20) - SMALL_BUF + 1);
	return (1 << 20) + rnd(t, BIG_BUF - (1 << 20) + 1);
}

/* Payload bytes of a message: derived from its seed. */
static void fill_payload(unsigned char *p, unsigned int len, unsigned int s)
{
	unsigned long long x = mix(s + 1ULL);
	unsigned int i;

	for (i = 0; i < len; i += 8) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		memcpy(p + i, &x, len - i < 8 ? len - i : 8);
	}
}

static unsigned int hash32(const unsigned char *p, unsigned int len)
{
	unsigned int h = 2166136261u;

	while (len--)
		h = (h ^ *p++) * 16777619u;
	return h;
}

/* Build a message of len bytes in t->buf; checked by the receiver if whole. */
static void make_msg(struct thr *t, unsigned int len, int checked)
{
	unsigned int hdr[4], s = rnd64(t);

	if (len < MSG_HDR) {
		memset(t->buf, 0xa5, len);
		return;
	}
	fill_payload(t->buf + MSG_HDR, len - MSG_HDR, s);
	hdr[0] = checked ? MSG_MAGIC : ~MSG_MAGIC;
	hdr[1] = len;
	hdr[2] = s;
	hdr[3] = hash32(t->buf + MSG_HDR, len - MSG_HDR);
	memcpy(t->buf, hdr, sizeof(hdr));
}

/* Verify a message received whole (n bytes at p). */
static void check_msg(struct thr *t, const unsigned char *p, long n)
{
	unsigned int hdr[4];

	if (n < MSG_HDR)
		return;
	memcpy(hdr, p, sizeof(hdr));
	if (hdr[0] != MSG_MAGIC)
		return;
	if (hdr[1] != n)
		violation(t, "received a message of %ld bytes whose header says %u",
			  n, hdr[1]);
	else if (hash32(p + MSG_HDR, n - MSG_HDR) != hdr[3])
		violation(t, "received a corrupted message of %ld bytes (seed %u)",
			  n, hdr[2]);
}

/*
 * Split buf[0..len) into iovecs (consecutive, some empty).  bad: make one
 * entry fault.  Returns the count.
 */
static int make_iov(struct thr *t, struct iovec *iov, int max,
		    unsigned char *buf, unsigned int len, int *bad)
{
	int n = 1 + rnd(t, chance(t, 50) ? 1 : max), i;
	unsigned int off = 0;

	for (i = 0; i < n; i++) {
		unsigned int k = i == n - 1 ? len - off :
				 (chance(t, 20) ? 0 : rnd(t, len - off + 1));

		iov[i].iov_base = buf + off;
		iov[i].iov_len = k;
		off += k;
	}
	*bad = 0;
	if (chance(t, 3)) {
		i = rnd(t, n);
		*bad = 1;
		switch (rnd(t, 3)) {
		case 0:
			iov[i].iov_base = bad_ptr;
			iov[i].iov_len = 1 + rnd(t, 4096);
			break;
		case 1:
			iov[i].iov_base = NULL;
			iov[i].iov_len = 1 + rnd(t, 100);
			break;
		default:
			/* never a real buffer: the kernel must not write past it */
			iov[i].iov_base = bad_ptr;
			iov[i].iov_len = (size_t)1 << (40 + rnd(t, 23));
			break;
		}
	}
	return n;
}

static int random_send_flags(struct thr *t)
{
	static const int f[] = { MSG_DONTWAIT, MSG_NOSIGNAL, MSG_EOR, MSG_MORE,
				 MSG_OOB, MSG_CONFIRM, MSG_ZEROCOPY, MSG_FASTOPEN,
				 MSG_PEEK, MSG_DONTROUTE, MSG_BATCH };
	int flags = chance(t, 70) ? MSG_NOSIGNAL : 0;

	if (chance(t, 30))
		flags |= MSG_DONTWAIT;
	if (chance(t, 8))
		flags |= f[rnd(t, ARRAY_SIZE(f))];
	if (chance(t, 2))
		flags = rnd64(t);
	return flags;
}

static int random_recv_flags(struct thr *t)
{
	static const int f[] = { MSG_PEEK, MSG_TRUNC, MSG_WAITALL, MSG_ERRQUEUE,
				 MSG_OOB, MSG_CMSG_CLOEXEC, MSG_NOSIGNAL, MSG_CTRUNC };
	int flags = 0;

	if (chance(t, 40))
		flags |= MSG_DONTWAIT;
	if (chance(t, 15))
		flags |= f[rnd(t, ARRAY_SIZE(f))];
	if (chance(t, 2))
		flags = rnd64(t);
	return flags;
}

/* Random control data for sendmsg. */
static void random_control(struct thr *t, struct msghdr *m, unsigned char *cbuf,
			   size_t cap)
{
	unsigned int r = rnd(t, 100);

	m->msg_control = NULL;
	m->msg_controllen = 0;
	if (r < 80)
		return;
	if (r < 90) {
		struct cmsghdr *c = (struct cmsghdr *)cbuf;
		unsigned int dl = rnd(t, 32);
		unsigned int i;

		c->cmsg_len = CMSG_LEN(dl);
		c->cmsg_level = chance(t, 50) ? SOL_SOCKET :
				(chance(t, 50) ? SOL_MRC : (int)rnd64(t));
		c->cmsg_type = rnd(t, 80);
		for (i = 0; i < dl; i++)
			CMSG_DATA(c)[i] = rnd(t, 256);
		m->msg_control = cbuf;
		m->msg_controllen = CMSG_SPACE(dl);
		return;
	}
	if (r < 95) {
		unsigned int i, n = rnd(t, cap);

		for (i = 0; i < n; i++)
			cbuf[i] = rnd(t, 256);
		m->msg_control = cbuf;
		m->msg_controllen = n;
		return;
	}
	m->msg_control = chance(t, 50) ? bad_ptr : cbuf;
	m->msg_controllen = chance(t, 50) ? 64 : (size_t)rnd64(t);
}

static void sent(struct thr *t, int op, long rc, size_t len)
{
	result(t, op, rc);
	if (rc >= 0 && (size_t)rc != len)
		violation(t, "%s of %zu bytes returned %ld", op_names[op], len, rc);
}

/* Message length for a send: checked messages fit t->buf; others may not. */
static unsigned int send_len(struct thr *t, int *over)
{
	*over = chance(t, 1);
	if (*over)
		return (1 << 20) + 1 + rnd(t, 5 << 20);
	return random_len(t);
}

static void op_send(struct thr *t)
{
	int fd = pick_fd(t), over, flags = random_send_flags(t);
	unsigned int len = send_len(t, &over);
	long rc;

	if (over)
		len = BIG_BUF;
	make_msg(t, len, 1);
	if (chance(t, 3)) {
		rc = send(fd, chance(t, 50) ? bad_ptr : NULL, len, flags);
		result(t, OP_SEND, rc);
		return;
	}
	if (chance(t, 20)) {
		struct sockaddr_storage ss;
		void *p;
		socklen_t alen = random_sockaddr(t, &ss, &p);

		rc = sendto(fd, t->buf, len, flags, p, alen);
	} else {
		rc = send(fd, t->buf, len, flags);
	}
	sent(t, OP_SEND, rc, len);
}

/* One msghdr for sendmsg/sendmmsg; returns its total length. */
static size_t build_sendmsg(struct thr *t, struct msghdr *m, struct iovec *iov,
			    unsigned char *cbuf, struct sockaddr_storage *ss,
			    unsigned char *buf, unsigned int cap, int *bad)
{
	int over, i;
	unsigned int len = send_len(t, &over);
	size_t total = 0;

	if (len > cap)
		len = cap;

	memset(m, 0, sizeof(*m));
	if (over) {
		/* above the maximum message size: one buffer, repeated */
		int n = 2 + rnd(t, 6);

		for (i = 0; i < n; i++) {
			iov[i].iov_base = buf;
			iov[i].iov_len = 1 << 20;
			total += iov[i].iov_len;
		}
		m->msg_iov = iov;
		m->msg_iovlen = n;
		*bad = 1;
	} else {
		/* the caller's buffer already holds a message of this length */
		m->msg_iov = iov;
		m->msg_iovlen = make_iov(t, iov, 8, buf, len, bad);
		for (i = 0; i < (int)m->msg_iovlen; i++)
			total += iov[i].iov_len;
	}
	if (chance(t, 2))
		m->msg_iovlen = chance(t, 50) ? 1025 + rnd(t, 100) : 0;
	if (chance(t, 5)) {
		void *p;

		m->msg_namelen = random_sockaddr(t, ss, &p);
		m->msg_name = p;
	}
	random_control(t, m, cbuf, 256);
	return total;
}

static void op_sendmsg(struct thr *t)
{
	struct sockaddr_storage ss;
	unsigned char cbuf[256];
	struct iovec iov[8];
	struct msghdr m;
	int fd = pick_fd(t), bad, flags = random_send_flags(t);
	size_t total;
	long rc;

	total = build_sendmsg(t, &m, iov, cbuf, &ss, t->buf, BIG_BUF, &bad);
	/* the iovecs cover t->buf[0..total) in order: a checked message */
	if (!bad && m.msg_iovlen >= 1 && m.msg_iovlen <= 8)
		make_msg(t, total, 1);
	else
		make_msg(t, MSG_HDR, 0);
	rc = sendmsg(fd, &m, flags);
	if (!bad && m.msg_iovlen >= 1 && m.msg_iovlen <= 8) {
		sent(t, OP_SENDMSG, rc, total);
	} else {
		result(t, OP_SENDMSG, rc);
		if (rc >= 0 && (size_t)rc > total)
			violation(t, "sendmsg of %zu bytes returned %ld", total, rc);
	}
}

static void op_sendmmsg(struct thr *t)
{
	struct mmsghdr mm[4];
	struct iovec iov[4][8];
	unsigned char cbuf[4][256];
	struct sockaddr_storage ss[4];
	size_t total[4];
	int fd = pick_fd(t), n = 1 + rnd(t, 4), i, bad, rc;

	for (i = 0; i < n; i++) {
		unsigned char *b = t->buf + i * (BIG_BUF / 4);

		total[i] = build_sendmsg(t, &mm[i].msg_hdr, iov[i], cbuf[i], &ss[i],
					 b, BIG_BUF / 4, &bad);
		if (!bad && mm[i].msg_hdr.msg_iovlen >= 1 && mm[i].msg_hdr.msg_iovlen <= 8 &&
		    total[i] >= MSG_HDR) {
			unsigned int hdr[4], s = rnd64(t);

			fill_payload(b + MSG_HDR, total[i] - MSG_HDR, s);
			hdr[0] = MSG_MAGIC;
			hdr[1] = total[i];
			hdr[2] = s;
			hdr[3] = hash32(b + MSG_HDR, total[i] - MSG_HDR);
			memcpy(b, hdr, sizeof(hdr));
		} else {
			memset(b, 0, MSG_HDR);
		}
		mm[i].msg_len = 0;
	}
	rc = sendmmsg(fd, mm, n, random_send_flags(t));
	result(t, OP_SENDMMSG, rc);
	if (rc > n)
		violation(t, "sendmmsg of %d messages returned %d", n, rc);
	for (i = 0; rc > 0 && i < rc && i < n; i++)
		if (mm[i].msg_len > total[i])
			violation(t, "sendmmsg message of %zu bytes: msg_len %u",
				  total[i], mm[i].msg_len);
}

/* Buffer size for a receive. */
static size_t recv_size(struct thr *t)
{
	unsigned int r = rnd(t, 100);

	if (r < 5)
		return 0;
	if (r < 10)
		return 1 + rnd(t, MSG_HDR);
	if (r < 80)
		return SMALL_BUF;
	if (r < 90)
		return 1 + rnd(t, SMALL_BUF);
	return BIG_BUF;
}

/*
 * A receive call that returned data (not an error, not end-of-file)
 * counts once more as recv-data: what "messages were received" means.
 */
static void received(struct thr *t, int op, long rc, size_t cap, int flags,
		     int msg_flags, const unsigned char *p)
{
	result(t, op, rc);
	if (rc > 0)
		count(t, OP_RECV_DATA, 0);
	if (rc < 0)
		return;
	if ((size_t)rc > cap && !(flags & MSG_TRUNC))
		violation(t, "%s into %zu bytes returned %ld without MSG_TRUNC",
			  op_names[op], cap, rc);
	if ((size_t)rc <= cap && !(msg_flags & MSG_TRUNC) && p)
		check_msg(t, p, rc);
}

static void op_recv(struct thr *t)
{
	int fd = pick_fd(t), flags = random_recv_flags(t);
	size_t cap = recv_size(t);
	long rc;

	if (chance(t, 3)) {
		rc = recv(fd, chance(t, 50) ? bad_ptr : NULL, 1 + rnd(t, 4096), flags);
		result(t, OP_RECV, rc);
		return;
	}
	if (chance(t, 15)) {
		struct sockaddr_storage ss;
		socklen_t alen = sizeof(ss);

		rc = recvfrom(fd, t->rbuf, cap, flags, (struct sockaddr *)&ss, &alen);
	} else {
		rc = recv(fd, t->rbuf, cap, flags);
	}
	/* recv() reports no MSG_TRUNC: only a result shorter than cap is whole */
	received(t, OP_RECV, rc, cap, flags, (size_t)rc < cap ? 0 : MSG_TRUNC,
		 t->rbuf);
}

static void op_recvmsg(struct thr *t)
{
	struct sockaddr_storage ss;
	unsigned char cbuf[256];
	struct iovec iov[8];
	struct msghdr m;
	int fd = pick_fd(t), flags = random_recv_flags(t), bad;
	size_t cap = recv_size(t);
	long rc;

	memset(&m, 0, sizeof(m));
	m.msg_iov = iov;
	m.msg_iovlen = make_iov(t, iov, 8, t->rbuf, cap, &bad);
	if (chance(t, 20)) {
		m.msg_name = chance(t, 5) ? bad_ptr : &ss;
		m.msg_namelen = chance(t, 80) ? sizeof(ss) : rnd(t, 64);
	}
	if (chance(t, 20)) {
		m.msg_control = chance(t, 5) ? bad_ptr : cbuf;
		m.msg_controllen = rnd(t, sizeof(cbuf) + 1);
	}
	rc = recvmsg(fd, &m, flags);
	received(t, OP_RECVMSG, rc, cap, flags, m.msg_flags, bad ? NULL : t->rbuf);
}

static void op_recvmmsg(struct thr *t)
{
	struct mmsghdr mm[4];
	struct iovec iov[4][8];
	struct timespec ts = { 0, rnd(t, 300) * 1000000L };
	int fd = pick_fd(t), n = 1 + rnd(t, 4), i, rc, bad[4];
	int flags = random_recv_flags(t);
	size_t cap = SMALL_BUF;

	if (chance(t, 50))
		flags |= MSG_WAITFORONE;
	memset(mm, 0, sizeof(mm));
	for (i = 0; i < n; i++) {
		mm[i].msg_hdr.msg_iov = iov[i];
		mm[i].msg_hdr.msg_iovlen = make_iov(t, iov[i], 8,
						    t->rbuf + i * SMALL_BUF, cap, &bad[i]);
	}
	rc = recvmmsg(fd, mm, n, flags, chance(t, 50) ? &ts : NULL);
	result(t, OP_RECVMMSG, rc);
	if (rc > 0 && mm[0].msg_len > 0)
		count(t, OP_RECV_DATA, 0);
	if (rc > n)
		violation(t, "recvmmsg of %d messages returned %d", n, rc);
	for (i = 0; rc > 0 && i < rc && i < n; i++) {
		if (mm[i].msg_len > cap && !(flags & MSG_TRUNC))
			violation(t, "recvmmsg message %d: %u bytes into %zu", i,
				  mm[i].msg_len, cap);
		else if (!bad[i] && mm[i].msg_len <= cap &&
			 !(mm[i].msg_hdr.msg_flags & MSG_TRUNC))
			check_msg(t, t->rbuf + i * SMALL_BUF, mm[i].msg_len);
	}
}

/* An option value of random length at a random (maybe bad) place. */
static void *random_optval(struct thr *t, unsigned char *buf, size_t cap,
			   socklen_t *len)
{
	static const socklen_t lens[] = { 0, 1, 2, 3, 4, 8, 16, 32,
					  sizeof(struct mrc_info), 200 };
	unsigned int i, r = rnd(t, 100);

	*len = lens[rnd(t, ARRAY_SIZE(lens))];
	if (r < 3)
		*len = (socklen_t)rnd64(t);
	else if (r < 6)
		*len = 0x7fffffff;
	for (i = 0; i < cap; i++)
		buf[i] = chance(t, 50) ? 0 : rnd(t, 256);
	if (chance(t, 3))
		return chance(t, 50) ? NULL : bad_ptr;
	return buf;
}

static int is_timeout_opt(int name)
{
	return name == SO_RCVTIMEO_OLD || name == SO_SNDTIMEO_OLD ||
	       name == SO_RCVTIMEO_NEW || name == SO_SNDTIMEO_NEW;
}

static void op_setsockopt(struct thr *t)
{
	unsigned char buf[256];
	int fd = pick_fd(t), level, name, rc;
	unsigned int r = rnd(t, 100);
	socklen_t len;
	void *p = random_optval(t, buf, sizeof(buf), &len);

	if (r < 30) {
		level = SOL_MRC;
		name = chance(t, 50) ? MRC_INFO : (int)rnd(t, 10);
	} else if (r < 85) {
		level = SOL_SOCKET;
		name = rnd(t, 80);
	} else {
		static const int levels[] = { 0, SOL_IP, SOL_IPV6, IPPROTO_TCP, IPPROTO_UDP,
					      SOL_NETLINK, 298, 300, -1 };

		level = chance(t, 80) ? levels[rnd(t, 9)] : (int)rnd64(t);
		name = chance(t, 80) ? (int)rnd(t, 80) : (int)rnd64(t);
	}
	if (level == SOL_SOCKET && is_timeout_opt(name)) {
		/* our timeouts stay bounded: the watchdog relies on them */
		set_timeouts(fd, t);
		count(t, OP_SETSOCKOPT, 0);
		return;
	}
	if (level == SOL_SOCKET && name == SO_LINGER && p == buf && len >= 8) {
		int lv = rnd(t, 3);

		memcpy(buf + 4, &lv, 4);
	}
	rc = setsockopt(fd, level, name, p, len);
	result(t, OP_SETSOCKOPT, rc);
}

static void op_getsockopt(struct thr *t)
{
	unsigned char buf[256 + 64];
	int fd = pick_fd(t), level, name, rc;
	unsigned int r = rnd(t, 100);
	socklen_t len, asked;
	void *p = random_optval(t, buf, 256, &len);
	socklen_t *lp = &len;

	if (r < 50) {
		level = SOL_MRC;
		name = chance(t, 80) ? MRC_INFO : (int)rnd(t, 10);
	} else if (r < 90) {
		level = SOL_SOCKET;
		name = rnd(t, 80);
	} else {
		level = chance(t, 50) ? 0 : (int)rnd64(t);
		name = rnd(t, 80);
	}
	if (p == buf && len > 256)
		len = 256;
	if (chance(t, 2))
		lp = chance(t, 50) ? NULL : bad_ptr;
	asked = len;
	rc = getsockopt(fd, level, name, p, lp);
	result(t, OP_GETSOCKOPT, rc);
	if (!rc && level == SOL_MRC && name == MRC_INFO && lp == &len &&
	    (len > asked || len > sizeof(struct mrc_info)))
		violation(t, "getsockopt(MRC_INFO, %u) returned length %u", asked, len);
	/* our own connection's id: what an owner may look up, or not */
	if (!rc && level == SOL_MRC && name == MRC_INFO && lp == &len &&
	    p == buf && len >= offsetof(struct mrc_info, peer_id)) {
		unsigned int id;

		memcpy(&id, buf + offsetof(struct mrc_info, id), sizeof(id));
		if (id)
			note_conn_id(id);
	}
}

static void op_getname(struct thr *t)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss), asked;
	int fd = pick_fd(t), peer = chance(t, 50), rc;
	void *p = &ss;

	if (chance(t, 15))
		len = rnd(t, 40);
	if (chance(t, 3))
		p = chance(t, 50) ? NULL : bad_ptr;
	asked = len;
	memset(&ss, 0, sizeof(ss));
	rc = peer ? getpeername(fd, p, &len) : getsockname(fd, p, &len);
	result(t, OP_GETNAME, rc);
	if (!rc)
		check_name(t, peer ? "getpeername" : "getsockname",
			   p == &ss ? &ss : NULL, len, asked);
}

static void op_poll(struct thr *t)
{
	static const short ev[] = { POLLIN, POLLOUT, POLLPRI, POLLRDHUP, POLLRDNORM,
				    POLLWRNORM, POLLRDBAND, POLLMSG };
	struct pollfd pfd[4];
	int n = 1 + rnd(t, 4), i, j, rc;

	for (i = 0; i < n; i++) {
		pfd[i].fd = pick_fd(t);
		pfd[i].events = 0;
		for (j = 0; j < 3; j++)
			if (chance(t, 60))
				pfd[i].events |= ev[rnd(t, 8)];
		pfd[i].revents = 0;
	}
	rc = poll(pfd, n, rnd(t, 100));
	result(t, OP_POLL, rc);
	for (i = 0; rc > 0 && i < n; i++) {
		short extra = pfd[i].revents & ~(pfd[i].events | POLLERR | POLLHUP | POLLNVAL);

		if (extra)
			violation(t, "poll: events %#x asked, %#x returned",
				  pfd[i].events, pfd[i].revents);
	}
}

static void op_epoll(struct thr *t)
{
	struct epoll_event e, out[8];
	int fd = pick_fd(t), rc;
	unsigned int r = rnd(t, 100);

	e.events = rnd64(t) & (EPOLLIN | EPOLLOUT | EPOLLPRI | EPOLLRDHUP | EPOLLERR |
			       EPOLLHUP | EPOLLET | EPOLLONESHOT);
	if (chance(t, 5))
		e.events |= EPOLLEXCLUSIVE;
	e.data.u64 = fd;
	if (r < 40)
		rc = epoll_ctl(t->ep, EPOLL_CTL_ADD, fd, &e);
	else if (r < 55)
		rc = epoll_ctl(t->ep, EPOLL_CTL_MOD, fd, &e);
	else if (r < 65)
		rc = epoll_ctl(t->ep, EPOLL_CTL_DEL, fd, NULL);
	else
		rc = epoll_wait(t->ep, out, 8, rnd(t, 60));
	result(t, OP_EPOLL, rc);
	if (r >= 65 && rc > 8)
		violation(t, "epoll_wait returned %d of 8 events", rc);
}

static void op_shutdown(struct thr *t)
{
	static const int how[] = { SHUT_RD, SHUT_WR, SHUT_RDWR, -1, 3, 100 };

	result(t, OP_SHUTDOWN, shutdown(pick_fd(t), how[rnd(t, chance(t, 90) ? 3 : 6)]));
}

static void op_fcntl(struct thr *t)
{
	int fd = pick_fd(t), rc, fl;

	switch (rnd(t, 4)) {
	case 0:
		fl = fcntl(fd, F_GETFL);
		rc = fl < 0 ? fl : fcntl(fd, F_SETFL, fl ^ O_NONBLOCK);
		break;
	case 1:
		rc = fcntl(fd, F_SETFL, rnd64(t) & (O_NONBLOCK | O_APPEND | O_ASYNC));
		break;
	case 2:
		rc = fcntl(fd, F_SETFD, rnd(t, 2) ? FD_CLOEXEC : 0);
		break;
	default:
		rc = fcntl(fd, F_GETFD);
		break;
	}
	result(t, OP_FCNTL, rc);
}

static void op_dup(struct thr *t)
{
	int fd = pick_fd(t), nfd;

	nfd = chance(t, 50) ? dup(fd) : fcntl(fd, F_DUPFD_CLOEXEC, 3);
	result(t, OP_DUP, nfd);
	if (nfd >= PRIV_FD_MIN) {
		close(nfd);
		return;
	}
	if (nfd >= 0)
		slot_put(t, nfd);
}

static void op_close(struct thr *t)
{
	int s = rnd(t, NSLOTS), old, rc;

	/* often the slot another thread is working on right now */
	if (chance(t, 50)) {
		struct thr *o = &thrs[rnd(t, nthreads)];

		s = __atomic_load_n(&o->cur_slot, __ATOMIC_RELAXED);
		if (s < 0 || s >= NSLOTS)
			s = rnd(t, NSLOTS);
	}
	old = __atomic_exchange_n(&slots[s], -1, __ATOMIC_ACQ_REL);
	if (old < 0) {
		count(t, OP_CLOSE, EBADF);
		return;
	}
	rc = close(old);
	result(t, OP_CLOSE, rc);
}

static void op_ioctl(struct thr *t)
{
	static const unsigned long cmds[] = { SIOCINQ, SIOCOUTQ, SIOCOUTQNSD,
					      FIONBIO, FIOASYNC, SIOCATMARK,
					      SIOCGSTAMP_OLD, SIOCGSTAMPNS_OLD,
					      FIOGETOWN, SIOCGPGRP, FIONREAD };
	unsigned long cmd = cmds[rnd(t, ARRAY_SIZE(cmds))];
	unsigned char buf[64];
	void *arg = buf;
	int v = rnd(t, 2);

	memset(buf, 0, sizeof(buf));
	memcpy(buf, &v, sizeof(v));
	if (chance(t, 20)) {
		unsigned int type;

		cmd = (unsigned int)rnd64(t);
		type = (cmd >> 8) & 0xff;
		/* not the device/bridge/wireless/netns ioctls: not ours */
		if (type == 0x89 || type == 0x8b)
			cmd = SIOCINQ;
	}
	if (chance(t, 5))
		arg = chance(t, 50) ? NULL : bad_ptr;
	result(t, OP_IOCTL, ioctl(pick_fd(t), cmd, arg));
}

static void op_signal(struct thr *t)
{
	struct thr *o = &thrs[rnd(t, nthreads)];

	result(t, OP_SIGNAL, pthread_kill(o->tid, SIGUSR1) ? -1 : 0);
}

/* ---- netlink ------------------------------------------------------------------ */

static void put_attr(unsigned char *buf, size_t *off, size_t cap,
		     unsigned short type, const void *data, unsigned int len)
{
	struct nlattr *a = (struct nlattr *)(buf + *off);

	if (*off + NLA_HDRLEN + NLA_ALIGN(len) > cap)
		return;
	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	if (len)
		memcpy(buf + *off + NLA_HDRLEN, data, len);
	memset(buf + *off + NLA_HDRLEN + len, 0, NLA_ALIGN(len) - len);
	*off += NLA_HDRLEN + NLA_ALIGN(len);
}

static void put_u32(unsigned char *buf, size_t *off, size_t cap,
		    unsigned short type, unsigned int v)
{
	put_attr(buf, off, cap, type, &v, 4);
}

/* Well-formed attributes in [p, p+len)?  Returns 0 or -1. */
static int attrs_ok(const unsigned char *p, size_t len)
{
	while (len >= NLA_HDRLEN) {
		const struct nlattr *a = (const void *)p;
		size_t step = NLA_ALIGN(a->nla_len);

		if (a->nla_len < NLA_HDRLEN || a->nla_len > len)
			return -1;
		if (step > len)
			step = len;
		p += step;
		len -= step;
	}
	return len ? -1 : 0;
}

/*
 * Record the connection ids of a conn or path reply; with -U, an id in
 * one is a violation (ids are for CAP_NET_ADMIN only).
 */
static void note_conn_ids(struct thr *t, const struct genlmsghdr *g,
			  const unsigned char *p, size_t len)
{
	unsigned int type;

	if (g->cmd != MRC_CMD_CONN_GET && g->cmd != MRC_CMD_PATH_GET &&
	    g->cmd != MRC_CMD_PATH_CHANGE_NTF)
		return;
	while (len >= NLA_HDRLEN) {
		const struct nlattr *a = (const void *)p;

		if (a->nla_len < NLA_HDRLEN || (size_t)NLA_ALIGN(a->nla_len) > len)
			return;
		type = a->nla_type & NLA_TYPE_MASK;
		if (g->cmd == MRC_CMD_PATH_GET ? type == MRC_A_PATH_CONN_ID :
		    type == MRC_A_CONN_ID || type == MRC_A_CONN_PEER_ID) {
			unsigned int id;

			if (unpriv)
				violation(t, "genl cmd %u showed connection id attr %u to nobody",
					  g->cmd, type);
			if (a->nla_len == 8 && type != MRC_A_CONN_PEER_ID) {
				memcpy(&id, p + NLA_HDRLEN, 4);
				note_conn_id(id);
			}
		}
		p += NLA_ALIGN(a->nla_len);
		len -= NLA_ALIGN(a->nla_len);
	}
}

struct nl_reply {
	int err;		/* the ack's error (<= 0), or 1: none */
	const unsigned char *first;	/* first genl payload of ours, or NULL */
	size_t first_len;
	unsigned char copy[8192];	/* where first points (recv reuses buf) */
};

/*
 * Send the request in buf[0..len) and read the replies: until the ack or
 * NLMSG_DONE of seq when want_end, else whatever is there at once.
 * Checks every reply is well formed.  Returns 0, or -errno of a failed
 * send/recv.
 */
static int nl_talk(struct thr *t, int fd, int is_genl, const void *req, size_t len,
		   unsigned int seq, int want_end, struct nl_reply *rep)
{
	unsigned char *buf = t->nlbuf;
	int got_end = 0, loops = 0;
	long n;

	rep->err = 1;
	rep->first = NULL;
	if (send(fd, req, len, 0) < 0)
		return -errno;
	while (!got_end && loops++ < 2000) {
		size_t left;
		const unsigned char *p;

		n = recv(fd, buf, NL_BUF, want_end ? MSG_TRUNC : MSG_TRUNC | MSG_DONTWAIT);
		if (n < 0) {
			if (errno == ENOBUFS)
				continue;	/* notifications overran the socket */
			return want_end ? -errno : 0;
		}
		if (n > NL_BUF)
			continue;		/* truncated: not checked */
		p = buf;
		left = n;
		while (left >= NLMSG_HDRLEN) {
			const struct nlmsghdr *h = (const void *)p;
			size_t step;

			if (h->nlmsg_len < NLMSG_HDRLEN || h->nlmsg_len > left) {
				violation(t, "malformed netlink reply: nlmsg_len %u of %zu bytes",
					  h->nlmsg_len, left);
				return 0;
			}
			if (h->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = NLMSG_DATA(h);

				if (h->nlmsg_len < NLMSG_LENGTH(sizeof(*e))) {
					violation(t, "short netlink error message");
				} else if (h->nlmsg_seq == seq) {
					rep->err = e->error;
					got_end = 1;
				}
			} else if (h->nlmsg_type == NLMSG_DONE) {
				/* a dump's end, with its error (0: success) */
				if (h->nlmsg_seq == seq) {
					int derr = 0;

					if (h->nlmsg_len >= NLMSG_LENGTH(sizeof(derr)))
						memcpy(&derr, NLMSG_DATA(h), sizeof(derr));
					rep->err = derr > 0 ? 0 : derr;
					got_end = 1;
				}
			} else if (is_genl && h->nlmsg_type == genl_id) {
				const struct genlmsghdr *g = NLMSG_DATA(h);
				size_t plen = h->nlmsg_len - NLMSG_HDRLEN;

				if (plen < GENL_HDRLEN ||
				    attrs_ok((const unsigned char *)g + GENL_HDRLEN,
					     plen - GENL_HDRLEN))
					violation(t, "malformed genl message cmd %u len %u",
						  plen >= GENL_HDRLEN ? g->cmd : 0,
						  h->nlmsg_len);
				else
					note_conn_ids(t, g, (const unsigned char *)g + GENL_HDRLEN,
						      plen - GENL_HDRLEN);
				if (h->nlmsg_seq == seq && !rep->first &&
				    plen >= GENL_HDRLEN) {
					rep->first_len = plen - GENL_HDRLEN;
					if (rep->first_len > sizeof(rep->copy))
						rep->first_len = sizeof(rep->copy);
					memcpy(rep->copy, (const unsigned char *)g + GENL_HDRLEN,
					       rep->first_len);
					rep->first = rep->copy;
				}
			}
			step = NLMSG_ALIGN(h->nlmsg_len);
			if (step > left)
				step = left;
			p += step;
			left -= step;
		}
		if (!want_end)
			break;
	}
	return 0;
}

static int nl_open(int proto, int timeout_ms)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	struct timeval tv = { timeout_ms / 1000, (timeout_ms % 1000) * 1000 };
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, proto), one = 1;
	int sz = 1 << 20;

	if (fd < 0)
		return -1;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		close(fd);
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	return high_fd(fd);
}

/* Start a genl request in buf; returns the offset of the attributes. */
static size_t genl_start(unsigned char *buf, unsigned int type, unsigned int flags,
			 unsigned int seq, unsigned int cmd)
{
	struct nlmsghdr *h = (struct nlmsghdr *)buf;
	struct genlmsghdr *g = NLMSG_DATA(h);

	memset(buf, 0, NLMSG_HDRLEN + GENL_HDRLEN);
	h->nlmsg_type = type;
	h->nlmsg_flags = flags;
	h->nlmsg_seq = seq;
	g->cmd = cmd;
	g->version = MRC_FAMILY_VERSION;
	return NLMSG_HDRLEN + GENL_HDRLEN;
}

static int is_admin_cmd(unsigned int cmd)
{
	return cmd == MRC_CMD_DEV_SET || cmd == MRC_CMD_RAIL_ADD ||
	       cmd == MRC_CMD_RAIL_DEL || cmd == MRC_CMD_RAIL_SET ||
	       cmd == MRC_CMD_PATH_SET;
}

enum attr_kind { K_MRCDEV, K_IFINDEX, K_PLANE, K_ADMIN, K_PORT16, K_MSGSIZE,
		 K_EVS, K_SPRAY, K_CONNID, K_EV, K_BOOL8, K_INDEX };

struct attr_spec {
	unsigned short type;
	unsigned char kind;
};

struct cmd_spec {
	struct attr_spec a[6];
	int n;
};

static const struct cmd_spec cmd_specs[MRC_CMD_MAX + 1] = {
	[MRC_CMD_DEV_GET] = { { { MRC_A_DEV_IFINDEX, K_MRCDEV } }, 1 },
	[MRC_CMD_DEV_SET] = { { { MRC_A_DEV_IFINDEX, K_MRCDEV },
				{ MRC_A_DEV_UDP_PORT, K_PORT16 },
				{ MRC_A_DEV_MAX_MSG_SIZE, K_MSGSIZE },
				{ MRC_A_DEV_EVS_PER_PLANE, K_EVS },
				{ MRC_A_DEV_SPRAY, K_SPRAY } }, 5 },
	[MRC_CMD_RAIL_ADD] = { { { MRC_A_RAIL_DEV_IFINDEX, K_MRCDEV },
				 { MRC_A_RAIL_IFINDEX, K_IFINDEX },
				 { MRC_A_RAIL_PLANE, K_PLANE },
				 { MRC_A_RAIL_ADMIN_STATE, K_ADMIN } }, 4 },
	[MRC_CMD_RAIL_DEL] = { { { MRC_A_RAIL_IFINDEX, K_IFINDEX } }, 1 },
	[MRC_CMD_RAIL_SET] = { { { MRC_A_RAIL_IFINDEX, K_IFINDEX },
				 { MRC_A_RAIL_PLANE, K_PLANE },
				 { MRC_A_RAIL_ADMIN_STATE, K_ADMIN } }, 3 },
	[MRC_CMD_RAIL_GET] = { { { MRC_A_RAIL_IFINDEX, K_IFINDEX },
				 { MRC_A_RAIL_DEV_IFINDEX, K_MRCDEV } }, 2 },
	[MRC_CMD_CONN_GET] = { { { MRC_A_CONN_DEV_IFINDEX, K_MRCDEV },
				 { MRC_A_CONN_ID, K_CONNID } }, 2 },
	[MRC_CMD_PATH_GET] = { { { MRC_A_PATH_CONN_ID, K_CONNID } }, 1 },
	[MRC_CMD_PATH_SET] = { { { MRC_A_PATH_CONN_ID, K_CONNID },
				 { MRC_A_PATH_EV, K_EV },
				 { MRC_A_PATH_INDEX, K_INDEX },
				 { MRC_A_PATH_DENIED, K_BOOL8 } }, 4 },
};

/* Returns 1 if it put a connection id (K_CONNID), else 0. */
static int put_valid(struct thr *t, unsigned char *buf, size_t *off, size_t cap,
		     const struct attr_spec *s)
{
	static const char * const sprays[] = { "mrc", "rr", "", "bogus", "mrcmrcmrc" };
	unsigned int v;
	unsigned short v16;
	unsigned char v8;

	switch (s->kind) {
	case K_MRCDEV:
		v = random_ifindex(t, 1);
		break;
	case K_IFINDEX:
		v = random_ifindex(t, 0);
		break;
	case K_PLANE:
		v = chance(t, 90) ? rnd(t, 4) : rnd(t, 40);
		break;
	case K_ADMIN:
		v = chance(t, 90) ? rnd(t, 2) : rnd(t, 5);
		break;
	case K_PORT16:
		v16 = chance(t, 50) ? MRC_UDP_PORT_DEFAULT : rnd(t, 65536);
		put_attr(buf, off, cap, s->type, &v16, 2);
		return 0;
	case K_MSGSIZE:
		v = chance(t, 50) ? 1 + rnd(t, 1 << 20) :
		    (chance(t, 90) ? 1 + rnd(t, MRC_MAX_MSG_SIZE_LIMIT) : rnd64(t));
		break;
	case K_EVS:
		v = chance(t, 90) ? 1 + rnd(t, 256) : rnd(t, 1000);
		break;
	case K_SPRAY: {
		const char *sp = sprays[rnd(t, 5)];

		put_attr(buf, off, cap, s->type, sp, strlen(sp) + !chance(t, 5));
		return 0;
	}
	case K_CONNID:
		v = chance(t, 80) ? __atomic_load_n(&conn_ids[rnd(t, NCONNIDS)],
						    __ATOMIC_RELAXED) : rnd64(t);
		put_u32(buf, off, cap, s->type, v);
		return v != 0;
	case K_EV:
		v = chance(t, 80) ? rnd(t, 16) : rnd(t, 70000);
		break;
	case K_INDEX:
		v = rnd(t, 64);
		break;
	default:
		v8 = rnd(t, chance(t, 90) ? 2 : 256);
		put_attr(buf, off, cap, s->type, &v8, 1);
		return 0;
	}
	put_u32(buf, off, cap, s->type, v);
	return 0;
}

static void put_garbage(struct thr *t, unsigned char *buf, size_t *off, size_t cap,
			int depth)
{
	unsigned char data[64];
	unsigned short type = rnd(t, 40);
	unsigned int i, len = rnd(t, 40);

	if (chance(t, 10))
		type |= NLA_F_NET_BYTEORDER;
	if (depth < 3 && chance(t, 20)) {
		size_t start = *off;

		put_attr(buf, off, cap, type | NLA_F_NESTED, NULL, 0);
		if (*off == start)
			return;
		for (i = rnd(t, 4); i > 0; i--)
			put_garbage(t, buf, off, cap, depth + 1);
		((struct nlattr *)(buf + start))->nla_len = *off - start;
		return;
	}
	for (i = 0; i < len; i++)
		data[i] = rnd(t, 256);
	put_attr(buf, off, cap, type, data, len);
}

static void op_genl(struct thr *t)
{
	unsigned char req[1024];
	struct nl_reply rep;
	unsigned int cmd = rnd(t, MRC_CMD_MAX + 4), flags = NLM_F_REQUEST | NLM_F_ACK;
	unsigned int seq = ++t->seq, type = genl_id;
	int op = OP_GENL, want_end = 1, by_id = 0, i, rc;
	size_t off;

	if (chance(t, 30))
		flags |= NLM_F_DUMP;
	if (chance(t, 5) && !is_admin_cmd(cmd))
		flags &= ~NLM_F_ACK;
	if (is_admin_cmd(cmd) && !(flags & NLM_F_DUMP))
		op = OP_GENL_ADMIN;
	off = genl_start(req, type, flags, seq, cmd);
	if (cmd <= MRC_CMD_MAX) {
		const struct cmd_spec *cs = &cmd_specs[cmd];

		for (i = 0; i < cs->n; i++) {
			if (!chance(t, 85))
				continue;
			if (chance(t, 90))
				by_id |= put_valid(t, req, &off, sizeof(req), &cs->a[i]);
			else
				put_garbage(t, req, &off, sizeof(req), 0);
		}
	}
	/*
	 * A lookup by connection id: CAP_NET_ADMIN only.  Always with an
	 * ACK, so that its outcome is known (without one, success is
	 * silent and could not be told from a missed error).
	 */
	if (by_id && ((cmd == MRC_CMD_CONN_GET && !(flags & NLM_F_DUMP)) ||
		      (cmd == MRC_CMD_PATH_GET && (flags & NLM_F_DUMP)))) {
		op = OP_GENL_ID;
		flags |= NLM_F_ACK;
		((struct nlmsghdr *)req)->nlmsg_flags = flags;
	}
	if (chance(t, 15)) {
		for (i = 1 + rnd(t, 4); i > 0; i--)
			put_garbage(t, req, &off, sizeof(req), 0);
		op = OP_GENL_BAD;
	}
	((struct nlmsghdr *)req)->nlmsg_len = off;
	if (chance(t, 4)) {
		/* broken framing: no answer is owed */
		struct nlmsghdr *h = (struct nlmsghdr *)req;
		struct genlmsghdr *g = NLMSG_DATA(h);

		switch (rnd(t, 4)) {
		case 0:
			h->nlmsg_len = rnd(t, off + 1);
			break;
		case 1:
			h->nlmsg_len = off + 1 + rnd(t, 64);
			break;
		case 2:
			off = NLMSG_HDRLEN + rnd(t, GENL_HDRLEN);
			h->nlmsg_len = off;
			break;
		default:
			g->version = rnd(t, 256);
			g->reserved = rnd(t, 65536);
			break;
		}
		op = OP_GENL_BAD;
		want_end = 0;
	}
	if (chance(t, 2)) {
		/* control types only: other families are not ours to fuzz */
		((struct nlmsghdr *)req)->nlmsg_type = rnd(t, NLMSG_MIN_TYPE);
		op = OP_GENL_BAD;
		want_end = 0;
	}
	if (!(flags & NLM_F_ACK) && !(flags & NLM_F_DUMP))
		want_end = 0;
	rc = nl_talk(t, t->genl, 1, req, off, seq, want_end, &rep);
	if (rc) {
		count(t, op, -rc);
		return;
	}
	count(t, op, rep.err == 1 ? 0 : -rep.err);
	if (unpriv && op == OP_GENL_ADMIN && rep.err == 0)
		violation(t, "unprivileged genl command %u succeeded", cmd);
	if (unpriv && op == OP_GENL_ID && rep.err == 0)
		violation(t, "unprivileged lookup by connection id (genl command %u) succeeded",
			  cmd);
}

/* An rtnetlink request on our own devices; sets *admin for config ops. */
static void op_rtnl(struct thr *t)
{
	unsigned char req[512];
	struct nlmsghdr *h = (struct nlmsghdr *)req;
	struct ifinfomsg *ifi = NLMSG_DATA(h);
	struct nl_reply rep;
	char name[IF_NAMESIZE];
	unsigned int seq = ++t->seq, r = rnd(t, 100);
	size_t off = NLMSG_LENGTH(sizeof(*ifi));
	int is_mrc = chance(t, 50), k = rnd(t, is_mrc ? NFZDEV : NFZRAIL), rc;

	snprintf(name, sizeof(name), is_mrc ? "mrcfz%d" : "fzd%d", k);
	memset(req, 0, off);
	h->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	h->nlmsg_seq = seq;
	ifi->ifi_family = AF_UNSPEC;
	if (r < 35) {
		size_t li;

		h->nlmsg_type = RTM_NEWLINK;
		h->nlmsg_flags |= NLM_F_CREATE | NLM_F_EXCL;
		put_attr(req, &off, sizeof(req), IFLA_IFNAME, name, strlen(name) + 1);
		li = off;
		put_attr(req, &off, sizeof(req), IFLA_LINKINFO | NLA_F_NESTED, NULL, 0);
		put_attr(req, &off, sizeof(req), IFLA_INFO_KIND, is_mrc ? "mrc" : "dummy",
			 is_mrc ? 4 : 6);
		((struct nlattr *)(req + li))->nla_len = off - li;
	} else if (r < 55) {
		h->nlmsg_type = RTM_DELLINK;
		put_attr(req, &off, sizeof(req), IFLA_IFNAME, name, strlen(name) + 1);
	} else {
		/* enslave a dummy to one of our mrc devices, free it, or up/down */
		char mname[IF_NAMESIZE];

		snprintf(name, sizeof(name), "fzd%d", (int)rnd(t, NFZRAIL));
		snprintf(mname, sizeof(mname), "mrcfz%d", (int)rnd(t, NFZDEV));
		h->nlmsg_type = RTM_NEWLINK;
		ifi->ifi_index = if_nametoindex(chance(t, 20) ? mname : name);
		if (!ifi->ifi_index) {
			count(t, OP_RTNL, ENODEV);
			return;
		}
		if (r < 85) {
			put_u32(req, &off, sizeof(req), IFLA_MASTER,
				chance(t, 75) ? if_nametoindex(mname) : 0);
		} else {
			ifi->ifi_change = IFF_UP;
			ifi->ifi_flags = chance(t, 70) ? IFF_UP : 0;
		}
	}
	h->nlmsg_len = off;
	rc = nl_talk(t, t->rtnl, 0, req, off, seq, 1, &rep);
	if (rc) {
		count(t, OP_RTNL, -rc);
		return;
	}
	count(t, OP_RTNL, rep.err == 1 ? 0 : -rep.err);
	if (unpriv && rep.err == 0)
		violation(t, "unprivileged rtnetlink request %u succeeded", h->nlmsg_type);
}

/* ---- repair of the topology (main thread) ------------------------------------ */

/* Attribute type in [p, p+len), or NULL. */
static const struct nlattr *attr_find(const unsigned char *p, size_t len,
				      unsigned short type)
{
	while (p && len >= NLA_HDRLEN) {
		const struct nlattr *a = (const void *)p;

		if (a->nla_len < NLA_HDRLEN || (size_t)NLA_ALIGN(a->nla_len) > len)
			break;
		if ((a->nla_type & NLA_TYPE_MASK) == type)
			return a;
		p += NLA_ALIGN(a->nla_len);
		len -= NLA_ALIGN(a->nla_len);
	}
	return NULL;
}

/* An attribute of a reply's first message. */
static const struct nlattr *reply_attr(const struct nl_reply *rep, unsigned short type)
{
	return attr_find(rep->first, rep->first_len, type);
}

static unsigned int attr_u32(const struct nlattr *a)
{
	unsigned int v = 0;

	if (a && a->nla_len >= NLA_HDRLEN + 4)
		memcpy(&v, (const char *)a + NLA_HDRLEN, 4);
	else if (a && a->nla_len >= NLA_HDRLEN + 2)
		memcpy(&v, (const char *)a + NLA_HDRLEN, 2);
	return v;
}

static int genl_simple(struct thr *t, unsigned int cmd, const unsigned int *attrs,
		       int nattrs, struct nl_reply *rep)
{
	unsigned char req[256];
	unsigned int seq = ++t->seq;
	size_t off = genl_start(req, genl_id, NLM_F_REQUEST | NLM_F_ACK, seq, cmd);
	int i, rc;

	for (i = 0; i < nattrs; i++)
		put_u32(req, &off, sizeof(req), attrs[2 * i], attrs[2 * i + 1]);
	((struct nlmsghdr *)req)->nlmsg_len = off;
	rc = nl_talk(t, t->genl, 1, req, off, seq, 1, rep);
	return rc ? rc : (rep->err == 1 ? 0 : rep->err);
}

static void link_up(struct thr *t, unsigned int ifindex)
{
	unsigned char req[128];
	struct nlmsghdr *h = (struct nlmsghdr *)req;
	struct ifinfomsg *ifi = NLMSG_DATA(h);
	struct nl_reply rep;

	memset(req, 0, sizeof(req));
	h->nlmsg_len = NLMSG_LENGTH(sizeof(*ifi));
	h->nlmsg_type = RTM_NEWLINK;
	h->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	h->nlmsg_seq = ++t->seq;
	ifi->ifi_index = ifindex;
	ifi->ifi_flags = IFF_UP;
	ifi->ifi_change = IFF_UP;
	nl_talk(t, t->rtnl, 0, req, h->nlmsg_len, h->nlmsg_seq, 1, &rep);
}

/* Read the topology device's settings (once, at start). */
static void read_dev(struct thr *t)
{
	unsigned int dev = if_nametoindex(mrcdev);
	unsigned int attrs[2] = { MRC_A_DEV_IFINDEX, dev };
	const struct nlattr *a;
	struct nl_reply rep;

	if (!dev || genl_simple(t, MRC_CMD_DEV_GET, attrs, 1, &rep))
		return;
	orig_port = attr_u32(reply_attr(&rep, MRC_A_DEV_UDP_PORT)) & 0xffff;
	orig_max_msg = attr_u32(reply_attr(&rep, MRC_A_DEV_MAX_MSG_SIZE));
	orig_evs = attr_u32(reply_attr(&rep, MRC_A_DEV_EVS_PER_PLANE));
	a = reply_attr(&rep, MRC_A_DEV_SPRAY);
	if (a && a->nla_len > NLA_HDRLEN)
		snprintf(orig_spray, sizeof(orig_spray), "%.*s",
			 (int)(a->nla_len - NLA_HDRLEN), (const char *)a + NLA_HDRLEN);
}

/*
 * Detach from the topology device every rail not given with -r, whoever
 * attached it: the threads attach devices of the namespace (sit0, which
 * some kernels have in every namespace, is not deleted with the fuzzer's
 * own devices).  Returns 0, -errno if the interfaces could not be
 * listed, or -EAGAIN if a rail could not be detached: the caller tries
 * again.
 */
static int detach_foreign(struct thr *t, unsigned int dev)
{
	struct if_nameindex *ni = if_nameindex(), *p;
	struct nl_reply rep;
	int i, ret = 0;

	if (!ni)
		return -errno;
	for (p = ni; p->if_index; p++) {
		unsigned int get[2] = { MRC_A_RAIL_IFINDEX, p->if_index };

		for (i = 0; i < nrails; i++)
			if (!strcmp(p->if_name, rail_names[i]))
				break;
		/* not a rail (or gone meanwhile: its rail went with it) */
		if (i < nrails || genl_simple(t, MRC_CMD_RAIL_GET, get, 1, &rep) ||
		    attr_u32(reply_attr(&rep, MRC_A_RAIL_DEV_IFINDEX)) != dev)
			continue;
		if (genl_simple(t, MRC_CMD_RAIL_DEL, get, 1, &rep))
			ret = -EAGAIN;
	}
	if_freenameindex(ni);
	return ret;
}

/*
 * The udp-port is held by connections: close every socket of the table
 * with SO_LINGER 0, so that its connection ends at once (an idle
 * established one would otherwise keep the port for the whole run; an
 * orphan that cannot reach its peer, the dead-peer time).  As a close
 * op of the threads, it may close a descriptor a thread is using.
 */
static void release_slots(void)
{
	struct linger lg = { .l_onoff = 1, .l_linger = 0 };
	int s, fd;

	for (s = 0; s < NSLOTS; s++) {
		fd = __atomic_exchange_n(&slots[s], -1, __ATOMIC_ACQ_REL);
		if (fd < 0)
			continue;
		setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
		close(fd);
	}
}

/*
 * Put the topology back.  Returns 0, -EAGAIN if a rail could not be put
 * back yet (its plane held by a device the threads attached meanwhile),
 * or -EBUSY if the udp-port could not be restored yet: it cannot change
 * while connections run on the device (they would lose their port).  The
 * caller tries again later.  Sets port_held to the latter; @last (the
 * drain after the run) counts nothing, so "repair" in the summary is
 * what happened while the threads ran.
 */
static int repair(struct thr *t, bool last)
{
	unsigned int dev = if_nametoindex(mrcdev);
	struct nl_reply rep;
	int i, err, ret = 0, del_err[MAX_RAILS] = { 0 };

	if (!dev) {
		__atomic_store_n(&port_held, 0, __ATOMIC_RELAXED);
		return 0;
	}
	/*
	 * Two phases, so that rails whose planes were swapped (a0 on plane 1,
	 * a1 on plane 0) come back in one pass: first detach every rail of
	 * ours that is on another device or another plane, then attach what
	 * is missing and raise what is admin down.  The drain after the run
	 * first detaches every rail not given with -r, so that the device
	 * ends with exactly those.
	 */
	if (last)
		ret = detach_foreign(t, dev);
	for (i = 0; i < nrails; i++) {
		unsigned int ifi = if_nametoindex(rail_names[i]);
		unsigned int get[2] = { MRC_A_RAIL_IFINDEX, ifi };

		if (!ifi || genl_simple(t, MRC_CMD_RAIL_GET, get, 1, &rep))
			continue;
		if (attr_u32(reply_attr(&rep, MRC_A_RAIL_DEV_IFINDEX)) != dev ||
		    attr_u32(reply_attr(&rep, MRC_A_RAIL_PLANE)) != rail_planes[i]) {
			err = genl_simple(t, MRC_CMD_RAIL_DEL, get, 1, &rep);
			del_err[i] = err;
			if (!last)
				count(t, OP_REPAIR, -err);
		}
	}
	for (i = 0; i < nrails; i++) {
		unsigned int ifi = if_nametoindex(rail_names[i]);
		unsigned int get[2] = { MRC_A_RAIL_IFINDEX, ifi };
		unsigned int add[8] = { MRC_A_RAIL_DEV_IFINDEX, dev, MRC_A_RAIL_IFINDEX, ifi,
					MRC_A_RAIL_PLANE, rail_planes[i],
					MRC_A_RAIL_ADMIN_STATE, MRC_ADMIN_STATE_UP };
		unsigned int set[4] = { MRC_A_RAIL_IFINDEX, ifi, MRC_A_RAIL_ADMIN_STATE,
					MRC_ADMIN_STATE_UP };

		if (!ifi)
			continue;
		err = genl_simple(t, MRC_CMD_RAIL_GET, get, 1, &rep);
		if (err) {
			err = genl_simple(t, MRC_CMD_RAIL_ADD, add, 4, &rep);
		} else if (attr_u32(reply_attr(&rep, MRC_A_RAIL_DEV_IFINDEX)) != dev ||
			   attr_u32(reply_attr(&rep, MRC_A_RAIL_PLANE)) != rail_planes[i]) {
			/* the first phase could not detach it (counted there) */
			ret = del_err[i] ?: -EAGAIN;
			link_up(t, ifi);
			continue;
		} else if (!reply_attr(&rep, MRC_A_RAIL_ADMIN_STATE) ||
			   attr_u32(reply_attr(&rep, MRC_A_RAIL_ADMIN_STATE)) !=
			   MRC_ADMIN_STATE_UP) {
			err = genl_simple(t, MRC_CMD_RAIL_SET, set, 2, &rep);
		} else {
			err = 1;	/* in place */
		}
		if (err <= 0 && !last)
			count(t, OP_REPAIR, -err);
		if (err < 0)
			ret = -EAGAIN;
		link_up(t, ifi);
	}
	link_up(t, dev);
	if (!orig_port) {
		__atomic_store_n(&port_held, 0, __ATOMIC_RELAXED);
		return ret;
	}
	/*
	 * Two requests: dev-set is all or nothing, and the udp-port is
	 * refused (EBUSY) while connections run on the device.
	 */
	if (orig_max_msg || orig_evs || orig_spray[0]) {
		unsigned char req[256];
		unsigned int seq = ++t->seq;
		size_t off = genl_start(req, genl_id, NLM_F_REQUEST | NLM_F_ACK, seq,
					MRC_CMD_DEV_SET);

		put_u32(req, &off, sizeof(req), MRC_A_DEV_IFINDEX, dev);
		if (orig_max_msg)
			put_u32(req, &off, sizeof(req), MRC_A_DEV_MAX_MSG_SIZE, orig_max_msg);
		if (orig_evs)
			put_u32(req, &off, sizeof(req), MRC_A_DEV_EVS_PER_PLANE, orig_evs);
		if (orig_spray[0])
			put_attr(req, &off, sizeof(req), MRC_A_DEV_SPRAY, orig_spray,
				 strlen(orig_spray) + 1);
		((struct nlmsghdr *)req)->nlmsg_len = off;
		nl_talk(t, t->genl, 1, req, off, seq, 1, &rep);
	}
	{
		unsigned char req[128];
		unsigned int seq = ++t->seq;
		size_t off = genl_start(req, genl_id, NLM_F_REQUEST | NLM_F_ACK, seq,
					MRC_CMD_DEV_SET);
		unsigned short p16 = orig_port;

		put_u32(req, &off, sizeof(req), MRC_A_DEV_IFINDEX, dev);
		put_attr(req, &off, sizeof(req), MRC_A_DEV_UDP_PORT, &p16, 2);
		((struct nlmsghdr *)req)->nlmsg_len = off;
		if (nl_talk(t, t->genl, 1, req, off, seq, 1, &rep) == 0 &&
		    rep.err == -EBUSY) {
			if (!last)
				count(t, OP_REPAIR, EBUSY);
			__atomic_store_n(&port_held, 1, __ATOMIC_RELAXED);
			release_slots();
			return -EBUSY;
		}
	}
	/* put back, or refused for another reason: connects may aim again */
	__atomic_store_n(&port_held, 0, __ATOMIC_RELAXED);
	return ret;
}

/*
 * The drain after a run (and -R): repair until it succeeds, at most 30 s.
 * Our sockets are closed; connections may linger a while (orphans,
 * TIME_WAIT) and keep a changed udp-port busy, or a rail could not be
 * detached or attached yet.  Returns repair()'s last answer.
 */
static int final_repair(struct thr *t)
{
	unsigned long long until = now_ms() + 30000;
	int err;

	while ((err = repair(t, true)) && now_ms() < until)
		usleep(200000);
	if (err)	/* stdout: the test prints it beside the summary */
		printf("mrcfuzz: the topology could not be put back: %s\n",
		       strerror(-err));
	return err;
}

/* Delete the devices the fuzzer made. */
static void cleanup_devs(struct thr *t)
{
	unsigned char req[128];
	struct nlmsghdr *h = (struct nlmsghdr *)req;
	struct nl_reply rep;
	char name[IF_NAMESIZE];
	int i;

	for (i = 0; i < NFZDEV + NFZRAIL; i++) {
		size_t off = NLMSG_LENGTH(sizeof(struct ifinfomsg));

		if (i < NFZDEV)
			snprintf(name, sizeof(name), "mrcfz%d", i);
		else
			snprintf(name, sizeof(name), "fzd%d", i - NFZDEV);
		memset(req, 0, off);
		h->nlmsg_type = RTM_DELLINK;
		h->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
		h->nlmsg_seq = ++t->seq;
		put_attr(req, &off, sizeof(req), IFLA_IFNAME, name, strlen(name) + 1);
		h->nlmsg_len = off;
		nl_talk(t, t->rtnl, 0, req, off, h->nlmsg_seq, 1, &rep);
	}
}

/* Family id and the "events" and "conns" groups of the mrc genl family. */
static int resolve_family(struct thr *t)
{
	unsigned char req[128];
	unsigned int seq = ++t->seq;
	size_t off = genl_start(req, GENL_ID_CTRL, NLM_F_REQUEST | NLM_F_ACK, seq,
				CTRL_CMD_GETFAMILY);
	const struct nlattr *a;
	struct nl_reply rep;
	int save = genl_id;

	put_attr(req, &off, sizeof(req), CTRL_ATTR_FAMILY_NAME, MRC_FAMILY_NAME,
		 strlen(MRC_FAMILY_NAME) + 1);
	((struct nlmsghdr *)req)->nlmsg_len = off;
	genl_id = GENL_ID_CTRL;		/* so nl_talk() checks the reply */
	if (nl_talk(t, t->genl, 1, req, off, seq, 1, &rep) || !rep.first) {
		genl_id = save;
		return -1;
	}
	genl_id = attr_u32(reply_attr(&rep, CTRL_ATTR_FAMILY_ID)) & 0xffff;
	a = reply_attr(&rep, CTRL_ATTR_MCAST_GROUPS);
	if (a) {
		/* nested: one nest per group, each with an id and a name */
		const unsigned char *p = (const unsigned char *)a + NLA_HDRLEN;
		size_t len = a->nla_len - NLA_HDRLEN;

		while (len >= NLA_HDRLEN) {
			const struct nlattr *g = (const void *)p;
			const struct nlattr *id;

			if (g->nla_len < NLA_HDRLEN || (size_t)NLA_ALIGN(g->nla_len) > len)
				break;
			const struct nlattr *name;

			id = attr_find(p + NLA_HDRLEN, g->nla_len - NLA_HDRLEN,
				       CTRL_ATTR_MCAST_GRP_ID);
			name = attr_find(p + NLA_HDRLEN, g->nla_len - NLA_HDRLEN,
					 CTRL_ATTR_MCAST_GRP_NAME);
			if (name && name->nla_len > NLA_HDRLEN &&
			    !strncmp((const char *)name + NLA_HDRLEN, MRC_MCGRP_CONNS,
				     name->nla_len - NLA_HDRLEN))
				genl_conns_grp = attr_u32(id);
			else
				genl_mcgrp = attr_u32(id);
			p += NLA_ALIGN(g->nla_len);
			len -= NLA_ALIGN(g->nla_len);
		}
	}
	return genl_id ? 0 : -1;
}

/* ---- threads ----------------------------------------------------------------- */

static void (*const op_fn[OP_MAX])(struct thr *) = {
	[OP_SOCKET] = op_socket, [OP_BIND] = op_bind, [OP_CONNECT] = op_connect,
	[OP_LISTEN] = op_listen, [OP_ACCEPT] = op_accept, [OP_SEND] = op_send,
	[OP_SENDMSG] = op_sendmsg, [OP_SENDMMSG] = op_sendmmsg,
	[OP_RECV] = op_recv, [OP_RECVMSG] = op_recvmsg,
	[OP_RECVMMSG] = op_recvmmsg, [OP_SETSOCKOPT] = op_setsockopt,
	[OP_GETSOCKOPT] = op_getsockopt, [OP_GETNAME] = op_getname,
	[OP_POLL] = op_poll, [OP_EPOLL] = op_epoll, [OP_SHUTDOWN] = op_shutdown,
	[OP_FCNTL] = op_fcntl, [OP_DUP] = op_dup, [OP_CLOSE] = op_close,
	[OP_IOCTL] = op_ioctl, [OP_SIGNAL] = op_signal, [OP_GENL] = op_genl,
	[OP_RTNL] = op_rtnl,
};

static int pick_op(struct thr *t)
{
	unsigned int total = 0, r, i;

	for (i = 0; i < OP_MAX; i++)
		total += op_weight[i];
	r = rnd(t, total);
	for (i = 0; i < OP_MAX; i++) {
		if (r < op_weight[i])
			return i;
		r -= op_weight[i];
	}
	return OP_SOCKET;
}

static void op_begin(struct thr *t, int op)
{
	__atomic_store_n(&t->cur_op, op, __ATOMIC_RELAXED);
	__atomic_store_n(&t->since_ms, now_ms(), __ATOMIC_RELEASE);
}

static void op_end(struct thr *t)
{
	__atomic_store_n(&t->since_ms, 0, __ATOMIC_RELEASE);
}

static void *fuzz_thread(void *arg)
{
	struct thr *t = arg;

	while (!__atomic_load_n(&start_flag, __ATOMIC_ACQUIRE))
		usleep(1000);
	while (!stopping()) {
		int op = pick_op(t);

		op_begin(t, op);
		op_fn[op](t);
		op_end(t);
	}
	__atomic_store_n(&t->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static int listener(int port)
{
	struct sockaddr_mrc a = { .smrc_family = family, .smrc_port = htons(port) };
	int fd = socket(family, SOCK_SEQPACKET | SOCK_NONBLOCK, 0), one = 1;

	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) || listen(fd, 32)) {
		close(fd);
		return -1;
	}
	return high_fd(fd);
}

/*
 * A connection the fuzzing threads can use, whatever their random
 * addresses hit: a fresh socket connects to one of the peer's service
 * ports (the peer addresses in turn), sends one message and goes to the
 * table.  Its result (the first call that failed) counts as svc-connect.
 */
static void svc_connect(struct thr *t, unsigned int k)
{
	struct sockaddr_mrc a = { .smrc_family = family };
	/* 2 s: a busy debug kernel took longer than 0.5 s to connect */
	struct timeval tv = { 2, 0 };
	unsigned char msg[64] = { 0 };
	ssize_t n;
	int fd;

	if (__atomic_load_n(&port_held, __ATOMIC_RELAXED))
		return;
	a.smrc_addr = peer_addrs[k % npeer];
	a.smrc_port = htons(port_base + rnd(t, nports));
	/* out of the table's range while it connects (stale descriptors) */
	fd = high_fd(socket(family, SOCK_SEQPACKET, 0));
	if (fd < 0) {
		result(t, OP_SVC_CONNECT, fd);
		return;
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (connect(fd, (struct sockaddr *)&a, sizeof(a))) {
		result(t, OP_SVC_CONNECT, -1);
		close(fd);
		return;
	}
	n = send(fd, msg, sizeof(msg), 0);
	if (n != sizeof(msg)) {
		if (n < 0)
			result(t, OP_SVC_CONNECT, -1);
		else	/* a message goes whole or not at all */
			violation(t, "send of %zu bytes returned %zd", sizeof(msg), n);
		close(fd);
		return;
	}
	result(t, OP_SVC_CONNECT, 0);
	set_timeouts(fd, t);
	slot_put(t, fd);
}

/*
 * Keeps listeners on the service ports; accepted connections go to the
 * table.  Once a second it also connects to the peer (svc_connect()), so
 * that every run carries messages, not only the runs whose random
 * connects happen to find a listener.
 */
static void *service_thread(void *arg)
{
	struct thr *t = arg;
	struct pollfd pfd[16];
	unsigned long long last_check = 0;
	int i, n = nports > 16 ? 16 : nports;
	unsigned int k = 0;

	for (i = 0; i < n; i++)
		pfd[i].fd = -1;
	while (!__atomic_load_n(&start_flag, __ATOMIC_ACQUIRE))
		usleep(1000);
	while (!stopping()) {
		op_begin(t, OP_SVC_ACCEPT);
		if (now_ms() - last_check > 1000) {
			last_check = now_ms();
			for (i = 0; i < n; i++) {
				struct mrc_info info;
				socklen_t len = sizeof(info);

				/* a stale descriptor of a fuzzing thread may hit ours */
				if (pfd[i].fd >= 0 &&
				    (getsockopt(pfd[i].fd, SOL_MRC, MRC_INFO, &info, &len) ||
				     info.state != MRC_CONN_STATE_LISTEN)) {
					close(pfd[i].fd);
					pfd[i].fd = -1;
				}
				if (pfd[i].fd < 0)
					pfd[i].fd = listener(port_base + i);
				pfd[i].events = POLLIN;
			}
			if (npeer) {
				op_end(t);
				op_begin(t, OP_SVC_CONNECT);
				svc_connect(t, k++);
				op_end(t);
				op_begin(t, OP_SVC_ACCEPT);
			}
		}
		if (poll(pfd, n, 100) > 0) {
			for (i = 0; i < n; i++) {
				int fd;

				if (!(pfd[i].revents & POLLIN))
					continue;
				fd = accept4(pfd[i].fd, NULL, NULL,
					     chance(t, 50) ? SOCK_NONBLOCK : 0);
				result(t, OP_SVC_ACCEPT, fd);
				if (fd < 0)
					continue;
				set_timeouts(fd, t);
				slot_put(t, fd);
			}
		}
		op_end(t);
	}
	for (i = 0; i < n; i++)
		if (pfd[i].fd >= 0)
			close(pfd[i].fd);
	__atomic_store_n(&t->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void on_usr1(int sig)
{
	(void)sig;
}

/* Watch for threads stuck in a call: kick them, then give up on them. */
static int watchdog(int total)
{
	unsigned long long now = now_ms();
	int i, stuck = 0;

	for (i = 0; i < total; i++) {
		struct thr *t = &thrs[i];
		unsigned long long since = __atomic_load_n(&t->since_ms, __ATOMIC_ACQUIRE);

		int op = __atomic_load_n(&t->cur_op, __ATOMIC_RELAXED);
		int nl = op == OP_GENL || op == OP_GENL_ADMIN || op == OP_GENL_BAD ||
			 op == OP_GENL_ID || op == OP_RTNL;

		if (!since || now < since || now - since < STUCK_KICK_MS)
			continue;
		if (now - since >= (nl ? STUCK_NL_MS : STUCK_FAIL_MS)) {
			violation(t, "thread stuck in %s for %llu ms despite timeouts and signals",
				  op_names[op], now - since);
			stuck++;
			continue;
		}
		if (now - t->last_kick_ms >= 1000) {
			t->last_kick_ms = now;
			__atomic_add_fetch(&kicks, 1, __ATOMIC_RELAXED);
			kicks_by_op[op]++;
			pthread_kill(t->tid, SIGUSR1);
		}
	}
	return stuck;
}

static void print_usage(void)
{
	fprintf(stderr,
		"usage: mrcfuzz [-S SEED] [-t SECONDS] [-j THREADS] [-a PEER]... [-l LOCAL]...\n"
		"               [-p PORT] [-n NPORTS] [-d MRCDEV] [-r RAIL:PLANE]... [-U] [-R] [-v]\n");
	exit(2);
}

static void print_summary(int total, double secs)
{
	unsigned long all[NERR] = { 0 }, ops = 0;
	int op, e, i;

	for (op = 0; op < OP_MAX; op++) {
		unsigned long n = 0, c[NERR] = { 0 };

		for (i = 0; i <= total; i++)
			for (e = 0; e < NERR; e++)
				c[e] += i < total ? thrs[i].counts[op][e] :
					main_thr.counts[op][e];
		for (e = 0; e < NERR; e++) {
			n += c[e];
			all[e] += c[e];
		}
		if (!n)
			continue;
		ops += n;
		printf("op %s n=%lu ok=%lu", op_names[op], n, c[0]);
		for (e = 1; e < NERR; e++) {
			const char *name = e < NERR - 1 ? strerrorname_np(e) : NULL;

			if (!c[e])
				continue;
			if (name)
				printf(" %s=%lu", name, c[e]);
			else
				printf(" E%d=%lu", e, c[e]);
		}
		printf("\n");
	}
	printf("kicks (calls still running after %d s) by op:", STUCK_KICK_MS / 1000);
	for (op = 0; op < OP_MAX; op++)
		if (kicks_by_op[op])
			printf(" %s=%lu", op_names[op], kicks_by_op[op]);
	printf("\n");
	printf("errno all: ok=%lu", all[0]);
	for (e = 1; e < NERR; e++) {
		const char *name = e < NERR - 1 ? strerrorname_np(e) : NULL;

		if (!all[e])
			continue;
		if (name)
			printf(" %s=%lu", name, all[e]);
		else
			printf(" E%d=%lu", e, all[e]);
	}
	printf("\n");
	printf("summary: seed=%llu threads=%d secs=%.1f ops=%lu ops_per_sec=%.0f",
	       seed, nthreads, secs, ops, secs > 0 ? ops / secs : 0.0);
	printf(" kicks=%lu violations=%lu\n", __atomic_load_n(&kicks, __ATOMIC_RELAXED),
	       __atomic_load_n(&violations, __ATOMIC_RELAXED));
	fflush(stdout);
}

static void thr_init(struct thr *t, int idx)
{
	t->idx = idx;
	t->rng = mix(seed + 0x9e3779b97f4a7c15ULL * (idx + 1)) | 1;
	t->cur_slot = -1;
	t->genl = nl_open(NETLINK_GENERIC, 500);
	t->rtnl = nl_open(NETLINK_ROUTE, 1000);
	t->ep = high_fd(epoll_create1(EPOLL_CLOEXEC));
	t->buf = calloc(1, BIG_BUF + SMALL_BUF);
	t->rbuf = calloc(1, BIG_BUF + SMALL_BUF);
	t->nlbuf = malloc(NL_BUF);
	if (t->genl < 0 || t->rtnl < 0 || t->ep < 0 || !t->buf || !t->rbuf || !t->nlbuf) {
		fprintf(stderr, "mrcfuzz: setup of thread %d failed: %s\n", idx,
			strerror(errno));
		exit(2);
	}
}

int main(int argc, char **argv)
{
	struct thr *mt = &main_thr;	/* repair requests */
	unsigned long long start, deadline, last_repair = 0, last_ifs = 0;
	struct sigaction sa;
	int opt, i, stuck = 0, total;
	FILE *f;

	seed = (unsigned long long)time(NULL) ^ ((unsigned long long)getpid() << 20);
	while ((opt = getopt(argc, argv, "S:t:j:a:l:p:n:d:r:URv")) != -1) {
		switch (opt) {
		case 'S':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 't':
			run_secs = atoi(optarg);
			break;
		case 'j':
			nthreads = atoi(optarg);
			if (nthreads < 1 || nthreads > MAX_THREADS)
				print_usage();
			break;
		case 'a':
			if (npeer >= MAX_ADDRS || parse_addr(optarg, &peer_addrs[npeer++]))
				print_usage();
			break;
		case 'l':
			if (nlocal >= MAX_ADDRS || parse_addr(optarg, &local_addrs[nlocal++]))
				print_usage();
			break;
		case 'p':
			port_base = atoi(optarg);
			break;
		case 'n':
			nports = atoi(optarg);
			if (nports < 1 || nports > 16)
				print_usage();
			break;
		case 'd':
			mrcdev = optarg;
			break;
		case 'r': {
			char *c = strchr(optarg, ':');

			if (!c || nrails >= MAX_RAILS || c - optarg >= IF_NAMESIZE)
				print_usage();
			snprintf(rail_names[nrails], IF_NAMESIZE, "%.*s",
				 (int)(c - optarg), optarg);
			rail_planes[nrails++] = atoi(c + 1);
			break;
		}
		case 'U':
			unpriv = 1;
			break;
		case 'R':
			repair_only = 1;
			break;
		case 'v':
			verbose = 1;
			break;
		default:
			print_usage();
		}
	}

	/* -R puts rails back: it needs them, and the privilege */
	if (repair_only && (unpriv || !nrails))
		print_usage();

	f = fopen(MRC_FAMILY_SYSFS, "r");
	if (!f || fscanf(f, "%d", &family) != 1) {
		fprintf(stderr, "mrcfuzz: cannot read %s: is mrc loaded?\n", MRC_FAMILY_SYSFS);
		return 2;
	}
	fclose(f);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;	/* no SA_RESTART: blocking calls see EINTR */
	sigaction(SIGUSR1, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGIO, SIG_IGN);
	signal(SIGURG, SIG_IGN);

	bad_ptr = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (bad_ptr == MAP_FAILED) {
		perror("mrcfuzz: mmap");
		return 2;
	}
	for (i = 0; i < NSLOTS; i++)
		slots[i] = -1;

	mt->idx = -1;
	mt->genl = nl_open(NETLINK_GENERIC, 1000);
	mt->rtnl = nl_open(NETLINK_ROUTE, 1000);
	mt->nlbuf = malloc(NL_BUF);
	if (mt->genl < 0 || mt->rtnl < 0 || !mt->nlbuf || resolve_family(mt)) {
		fprintf(stderr, "mrcfuzz: cannot resolve the \"%s\" genl family\n",
			MRC_FAMILY_NAME);
		return 2;
	}
	refresh_ifs();
	if (!unpriv)
		read_dev(mt);
	if (repair_only) {
		if (!if_nametoindex(mrcdev)) {
			fprintf(stderr, "mrcfuzz: -R: no device %s\n", mrcdev);
			return 1;
		}
		return final_repair(mt) ? 1 : 0;
	}

	printf("mrcfuzz: seed=%llu threads=%d secs=%d mode=%s family=%d",
	       seed, nthreads, run_secs, unpriv ? "unprivileged" : "root", family);
	printf(" genl_id=%d mcgrp=%d peers=%d locals=%d rails=%d\n",
	       genl_id, genl_mcgrp, npeer, nlocal, nrails);
	fflush(stdout);

	total = nthreads + 1;
	for (i = 0; i < total; i++) {
		struct thr *t = &thrs[i];

		thr_init(t, i);
		/*
		 * Half the threads also hear the family's notifications; the
		 * "conns" group (they carry connection ids) is for
		 * CAP_NET_ADMIN only.
		 */
		if (genl_mcgrp && i % 2) {
			int g = genl_mcgrp;

			setsockopt(t->genl, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &g, sizeof(g));
		}
		if (genl_conns_grp && i % 2) {
			int g = genl_conns_grp;

			if (!setsockopt(t->genl, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &g,
					sizeof(g)) && unpriv)
				violation(t, "an unprivileged socket joined the \"conns\" group");
		}
	}
	start = now_ms();
	deadline = start + run_secs * 1000ULL;
	for (i = 0; i < total; i++) {
		if (pthread_create(&thrs[i].tid, NULL,
				   i < nthreads ? fuzz_thread : service_thread, &thrs[i])) {
			fprintf(stderr, "mrcfuzz: pthread_create failed\n");
			return 2;
		}
	}
	__atomic_store_n(&start_flag, 1, __ATOMIC_RELEASE);

	while (now_ms() < deadline && !stuck) {
		usleep(200000);
		stuck = watchdog(total);
		if (now_ms() - last_ifs >= 2000) {
			last_ifs = now_ms();
			refresh_ifs();
		}
		if (!unpriv && now_ms() - last_repair >= 1000) {
			last_repair = now_ms();
			repair(mt, false);
		}
	}
	__atomic_store_n(&stop_flag, 1, __ATOMIC_RELAXED);

	/* Every call in flight is bounded: wait for the threads to finish. */
	for (;;) {
		int running = 0;

		for (i = 0; i < total; i++)
			running += !__atomic_load_n(&thrs[i].done, __ATOMIC_ACQUIRE);
		if (!running)
			break;
		stuck = watchdog(total);
		if (stuck)
			break;
		usleep(100000);
	}
	if (stuck) {
		print_summary(total, (now_ms() - start) / 1000.0);
		fflush(stderr);
		_exit(1);
	}
	for (i = 0; i < total; i++)
		pthread_join(thrs[i].tid, NULL);
	for (i = 0; i < NSLOTS; i++)
		if (slots[i] >= 0)
			close(slots[i]);
	if (!unpriv) {
		cleanup_devs(mt);
		final_repair(mt);
	}
	print_summary(total, (deadline - start) / 1000.0);
	return __atomic_load_n(&violations, __ATOMIC_RELAXED) ? 1 : 0;
}
