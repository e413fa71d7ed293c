// SPDX-License-Identifier: GPL-2.0
/*
 * mrc_churn.c - AF_MRC sockets torn down under load (the C half of
 * mrc_churn.sh, which covers namespaces, rails, devices and rmmod).
 *
 * close_race: a connection carries messages both ways while threads sit
 *   in recvmsg(), poll() and send() on one end; the main thread then
 *   close()s that end (plainly, after shutdown(), as an abort with
 *   SO_LINGER 0, or together with the other end), right after the
 *   connection is set up or once messages flow both ways.  No call may fail with
 *   an errno outside the expected set, no thread may hang, and what did
 *   arrive must be an intact, in-order prefix of what was sent, in both
 *   directions.
 *
 * connect_cycles: connect, accept, one message each way, close; 10,000
 *   times (2,000 on the debug kernel, MRC_KERNEL=debug), cycling through
 *   the four ends of a connection: client closes first, server closes
 *   first, client aborts (SO_LINGER 0), client closes with an unread
 *   message (abort).  Every cycle must succeed; the rate is logged.
 *
 * After each test every object is gone: the connection table is empty
 * (mrcctl conn show, both namespaces), /sys/module/mrc/refcnt is back to
 * its value before the test (each socket file and each sock hold a
 * module reference, dropped when the sock is freed after its RCU grace
 * period) and so are the active objects of the module's sock slab "MRC"
 * in /proc/slabinfo (read after /sys/kernel/slab/MRC/shrink, which
 * flushes the per-CPU slabs that slabinfo counts as in use).
 *
 * Topology as in mrc_conn.c: two anonymous namespaces A (client) and B
 * (server), two veth rails between them; the listener lives in B.
 * MRC_CHURN_CYCLES and MRC_CHURN_RACES override the iteration counts.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sys/resource.h>

#include "kselftest_harness.h"
#include "mrc_test.h"

#define CHURN_PORT	5100
/* B's device again, on its rails (they stay in B when it goes). */
#define MRCB_AGAIN	"ip -batch - <<'EOF'\nlink add mrcB type mrc\n" \
			"link set dev b0 master mrcB\nlink set dev b1 master mrcB\n" \
			"link set dev mrcB up\nEOF"

#define RACE_MAX_MSG	8192

static int conn_count(int ns, int home)
{
	return conn_count_in(ns, home, false);
}

/* ---- the fixture -------------------------------------------------------- */

FIXTURE(churn) {
	int nsa, nsb;		/* namespaces: client side, server side */
	int lfd;		/* listener in B on CHURN_PORT */
	long refcnt0, slab0;	/* the module's objects before the test */
};

FIXTURE_SETUP(churn)
{
	long long t0;
	int line;

	self->nsa = -1;
	self->nsb = -1;
	self->lfd = -1;
	ASSERT_GT(mrc_family(), 0) TH_LOG("mrc.ko is not loaded");

	/* Orphans of earlier programs may still be ending: wait for quiet. */
	t0 = now_ms();
	while (module_refcnt() > 0 && now_ms() - t0 < 15000)
		usleep(100000);
	self->refcnt0 = module_refcnt();
	self->slab0 = slab_active();
	ASSERT_GE(self->refcnt0, 0) TH_LOG("cannot read /sys/module/mrc/refcnt");
	TH_LOG("before: module refcnt %ld, MRC slab active objects %ld",
	       self->refcnt0, self->slab0);

	line = mrc_two_hosts(&self->nsa, &self->nsb);
	ASSERT_EQ(0, line) TH_LOG("mrc_test.h:%d: the two hosts", line);

	self->lfd = listener_in(self->nsb, self->nsa, CHURN_PORT, 128);
	ASSERT_GE(self->lfd, 0) TH_LOG("listener: %s", strerror(-self->lfd));
}

FIXTURE_TEARDOWN(churn)
{
	if (self->lfd >= 0)
		close(self->lfd);
	if (self->nsa >= 0)
		close(self->nsa);
	if (self->nsb >= 0)
		close(self->nsb);
}

/*
 * Close the listener, then every object must go: no connection left in
 * either namespace, the module refcount and the MRC slab back to where
 * they were (within @ms: TIME_WAIT, then an RCU grace period).
 */
static void expect_all_gone(struct __test_metadata *_metadata, int *lfd,
			    int nsa, int nsb, long refcnt0, long slab0, int ms)
{
	long long t0 = now_ms();
	int ca = -1, cb = -1;
	long ref = -1, slab = -1;

	close(*lfd);
	*lfd = -1;
	do {
		ca = conn_count(nsa, nsa);
		cb = conn_count(nsb, nsa);
		ref = module_refcnt();
		slab = slab_active();
		if (!ca && !cb && ref == refcnt0 && slab <= slab0)
			break;
		usleep(100000);
	} while (now_ms() - t0 < ms);
	TH_LOG("after %lld ms: connections A %d B %d, module refcnt %ld (before %ld),",
	       now_ms() - t0, ca, cb, ref, refcnt0);
	TH_LOG("  MRC slab active objects %ld (before %ld)", slab, slab0);
	if (slab0 < 0)
		TH_LOG("no MRC line in /proc/slabinfo (merged cache): refcnt only");
	EXPECT_EQ(0, ca);
	EXPECT_EQ(0, cb);
	EXPECT_EQ(refcnt0, ref);
	EXPECT_EQ(slab0, slab0 < 0 ? slab0 : slab);
}

/* ---- close() racing with recvmsg/poll/send ----------------------------------- */

/*
 * Message k of a direction: a header (k, length) and bytes derived from
 * (k, @dir); the receiving side checks both.
 */
struct race_hdr {
	__u32 seq;
	__u32 len;
};

static void race_fill(unsigned char *buf, __u32 len, __u32 seq, int dir)
{
	struct race_hdr h = { .seq = seq, .len = len };
	__u32 x = seq * 2654435761u + dir + 1, i;

	memcpy(buf, &h, sizeof(h));
	for (i = sizeof(h); i < len; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		buf[i] = x;
	}
}

/* 0 if @buf (@n bytes) is message @seq of direction @dir. */
static int race_check(const unsigned char *buf, ssize_t n, __u32 seq, int dir)
{
	static __thread unsigned char want[RACE_MAX_MSG];
	struct race_hdr h;

	if (n < (ssize_t)sizeof(h))
		return -1;
	memcpy(&h, buf, sizeof(h));
	if (h.seq != seq || h.len != n || n > RACE_MAX_MSG)
		return -1;
	race_fill(want, n, seq, dir);
	return memcmp(buf, want, n) ? -1 : 0;
}

static __u32 race_len(unsigned int *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return sizeof(struct race_hdr) + *s % (RACE_MAX_MSG - sizeof(struct race_hdr));
}

/* What one thread saw. */
struct race_thread {
	pthread_t tid;
	int fd;
	int dir;		/* direction of the messages it sends (0/1) */
	int role;		/* RACE_RECV, RACE_POLL, RACE_SEND, RACE_PEER */
	int *stop;		/* set by the main thread (atomic) */
	unsigned int seed;
	long sent, rcvd, polls;
	bool eof;		/* recv() returned 0: an orderly end */
	int bad_errno;		/* an errno outside the expected set */
	const char *bad_op;
	long bad_seq;		/* message out of order or corrupt: its index */
};

enum { RACE_RECV, RACE_POLL, RACE_SEND, RACE_PEER };

static bool race_stopped(const struct race_thread *t)
{
	return __atomic_load_n(t->stop, __ATOMIC_RELAXED);
}

/* Errors a call on a socket being closed (or reset) may return. */
static bool race_errno_ok(int err)
{
	return err == EAGAIN || err == EBADF || err == EPIPE || err == ECONNRESET ||
	       err == ENOTCONN || err == ECONNABORTED;
}

/* A call failed: note it; true if the thread should stop. */
static bool race_fail(struct race_thread *t, const char *op, int err)
{
	if (!race_errno_ok(err)) {
		t->bad_errno = err;
		t->bad_op = op;
		return true;
	}
	return err != EAGAIN;
}

static void *race_recv(void *arg)
{
	struct race_thread *t = arg;
	unsigned char buf[RACE_MAX_MSG + 1];
	ssize_t n;

	while (!race_stopped(t)) {
		n = recv(t->fd, buf, sizeof(buf), 0);
		if (n == 0)
			break;		/* end of file */
		if (n < 0) {
			if (race_fail(t, "recv", errno))
				break;
			continue;
		}
		if (race_check(buf, n, t->rcvd, !t->dir)) {
			t->bad_seq = t->rcvd;
			break;
		}
		t->rcvd++;
	}
	return NULL;
}

static void *race_send(void *arg)
{
	struct race_thread *t = arg;
	unsigned char buf[RACE_MAX_MSG];
	__u32 len;
	ssize_t n;

	while (!race_stopped(t)) {
		len = race_len(&t->seed);
		race_fill(buf, len, t->sent, t->dir);
		n = send(t->fd, buf, len, MSG_NOSIGNAL);
		if (n < 0) {
			if (race_fail(t, "send", errno))
				break;
			continue;
		}
		if (n != len) {
			t->bad_errno = EMSGSIZE;
			t->bad_op = "send (short)";
			break;
		}
		t->sent++;
	}
	return NULL;
}

static void *race_poll(void *arg)
{
	struct race_thread *t = arg;
	struct pollfd p = { .fd = t->fd, .events = POLLIN | POLLOUT };

	while (!race_stopped(t)) {
		int r = poll(&p, 1, 5);

		if (r < 0) {
			t->bad_errno = errno;
			t->bad_op = "poll";
			break;
		}
		t->polls++;
		if (r && (p.revents & POLLNVAL))
			break;		/* the descriptor is closed */
		if (r && (p.revents & (POLLHUP | POLLERR)))
			usleep(1000);	/* over: wait for close() */
	}
	return NULL;
}

/* The other end: sends and receives without blocking until it ends. */
static void *race_peer(void *arg)
{
	struct race_thread *t = arg;
	unsigned char buf[RACE_MAX_MSG + 1];
	struct pollfd p = { .fd = t->fd };
	ssize_t n;
	__u32 len;

	while (!race_stopped(t)) {
		len = race_len(&t->seed);
		race_fill(buf, len, t->sent, t->dir);
		n = send(t->fd, buf, len, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n == len)
			t->sent++;
		else if (n < 0 && race_fail(t, "peer send", errno))
			break;
		for (;;) {
			n = recv(t->fd, buf, sizeof(buf), MSG_DONTWAIT);
			t->eof = !n;
			if (n <= 0)
				break;
			if (race_check(buf, n, t->rcvd, !t->dir)) {
				t->bad_seq = t->rcvd;
				goto out;
			}
			t->rcvd++;
		}
		if (n == 0)
			break;
		if (n < 0 && race_fail(t, "peer recv", errno))
			break;
		p.events = POLLIN | POLLOUT;
		if (poll(&p, 1, 2) < 0 || (p.revents & POLLNVAL))
			break;
	}
out:
	return NULL;
}

static void *race_thread_main(void *arg)
{
	struct race_thread *t = arg;

	switch (t->role) {
	case RACE_RECV:
		return race_recv(t);
	case RACE_POLL:
		return race_poll(t);
	case RACE_SEND:
		return race_send(t);
	}
	return race_peer(t);
}

/* Join @t within @ms; false if it hangs. */
static bool join_within(struct race_thread *t, int ms)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += ms / 1000;
	ts.tv_nsec += (ms % 1000) * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	return !pthread_timedjoin_np(t->tid, NULL, &ts);
}

static const char * const race_modes[] = {
	"close", "shutdown+close", "abort (SO_LINGER 0)", "close both ends",
};

TEST_F_TIMEOUT(churn, close_race, 400)
{
	int iters = env_int("MRC_CHURN_RACES", debug_kernel() ? 100 : 400);
	long tot_v2o = 0, tot_o2v = 0, polls = 0, empty = 0, hung = 0, orderly = 0;
	unsigned int seed = 12345;
	long long t0 = now_ms();
	int i, k;

	TH_LOG("%d iterations (recv, poll and send threads on the closed end)", iters);
	for (i = 0; i < iters; i++) {
		struct race_thread vt[3], pt;
		int stop = 0;
		int c, s, v, o, mode = i % 4;
		struct linger lg = { .l_onoff = 1, .l_linger = 0 };

		c = client(i & 1 ? "10.1.0.2" : "10.0.0.2", CHURN_PORT, 0);
		ASSERT_GE(c, 0) TH_LOG("iteration %d: connect: %s", i, strerror(-c));
		s = accept_wait(self->lfd, 10000, 0);
		ASSERT_GE(s, 0) TH_LOG("iteration %d: accept: %s", i, strerror(-s));
		/* The closed end alternates between client and server. */
		v = i & 2 ? c : s;
		o = v == c ? s : c;
		ASSERT_EQ(0, set_timeo(v, SO_RCVTIMEO, 20));
		ASSERT_EQ(0, set_timeo(v, SO_SNDTIMEO, 20));

		memset(vt, 0, sizeof(vt));
		memset(&pt, 0, sizeof(pt));
		pt.fd = o;
		pt.dir = 1;
		pt.role = RACE_PEER;
		pt.stop = &stop;
		pt.seed = ++seed * 7919;
		pt.bad_seq = -1;
		ASSERT_EQ(0, pthread_create(&pt.tid, NULL, race_thread_main, &pt));
		for (k = 0; k < 3; k++) {
			vt[k].fd = v;
			vt[k].role = k;
			vt[k].stop = &stop;
			vt[k].seed = ++seed * 7919;
			vt[k].bad_seq = -1;
			ASSERT_EQ(0, pthread_create(&vt[k].tid, NULL, race_thread_main,
						    &vt[k]));
		}
		/*
		 * Every other group of four: close once messages flow both
		 * ways; otherwise right after the connection is set up.
		 */
		if (i & 4) {
			long long tw = now_ms();

			while ((!__atomic_load_n(&pt.rcvd, __ATOMIC_RELAXED) ||
				!__atomic_load_n(&vt[0].rcvd, __ATOMIC_RELAXED)) &&
			       now_ms() - tw < 2000)
				usleep(1000);
		}
		usleep(rand_r(&seed) % 4000);

		switch (mode) {
		case 1:
			shutdown(v, SHUT_RDWR);
			break;
		case 2:
			ASSERT_EQ(0, setsockopt(v, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg)));
			break;
		}
		close(v);
		if (mode == 3)
			close(o);

		/* The closed end's threads end by themselves (EBADF, POLLNVAL). */
		for (k = 0; k < 3; k++) {
			if (!join_within(&vt[k], 10000)) {
				hung++;
				__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
			}
		}
		ASSERT_EQ(0, hung)
			TH_LOG("iteration %d (%s): a thread on the closed socket hangs",
			       i, race_modes[mode]);
		/* The peer sees the end, or is told to stop. */
		usleep(2000);
		__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
		ASSERT_TRUE(join_within(&pt, 10000))
			TH_LOG("iteration %d (%s): the peer's thread hangs", i, race_modes[mode]);
		if (mode != 3)
			close(o);

		for (k = 0; k < 2 && !vt[k].bad_errno; k++)
			;
		ASSERT_EQ(0, vt[k].bad_errno)
			TH_LOG("iteration %d (%s): %s failed: %s", i, race_modes[mode],
			       vt[k].bad_op, strerror(vt[k].bad_errno));
		ASSERT_EQ(0, pt.bad_errno)
			TH_LOG("iteration %d (%s): %s failed: %s", i, race_modes[mode],
			       pt.bad_op, strerror(pt.bad_errno));
		ASSERT_EQ(-1, vt[0].bad_seq)
			TH_LOG("iteration %d (%s): message %ld to the closed end %s",
			       i, race_modes[mode], vt[0].bad_seq, "out of order or corrupt");
		ASSERT_EQ(-1, pt.bad_seq)
			TH_LOG("iteration %d (%s): message %ld from the closed end %s",
			       i, race_modes[mode], pt.bad_seq, "out of order or corrupt");
		/* Nothing is invented: at most what was sent arrived. */
		ASSERT_LE(vt[0].rcvd, pt.sent);
		/*
		 * An orderly end (EOF, no reset) delivered everything the
		 * closed end's send() accepted, exactly.  A reset (unread
		 * data at close(), SO_LINGER 0, new data to a closed socket)
		 * may lose the rest, as with TCP.
		 */
		if (pt.eof) {
			ASSERT_EQ(vt[2].sent, pt.rcvd)
				TH_LOG("iteration %d (%s): EOF after %ld of %ld messages",
				       i, race_modes[mode], pt.rcvd, vt[2].sent);
			orderly++;
		} else {
			ASSERT_LE(pt.rcvd, vt[2].sent);
		}
		tot_v2o += pt.rcvd;
		tot_o2v += vt[0].rcvd;
		polls += vt[1].polls;
		if (!pt.rcvd && !vt[0].rcvd)
			empty++;
	}
	TH_LOG("%d iterations in %lld ms: %ld + %ld messages delivered intact,",
	       iters, now_ms() - t0, tot_v2o, tot_o2v);
	TH_LOG("  %ld polls, %ld iterations closed before any delivery", polls, empty);
	TH_LOG("  %ld orderly ends, each with every message delivered", orderly);
	/* The race is only worth something if traffic was flowing. */
	EXPECT_GT(tot_v2o + tot_o2v, iters);
	expect_all_gone(_metadata, &self->lfd, self->nsa, self->nsb,
			self->refcnt0, self->slab0, 20000);
}

/* ---- connect/accept/close cycles ------------------------------------------------ */

static const char * const cycle_ends[] = {
	"client closes first", "server closes first", "client aborts (SO_LINGER 0)",
	"client closes with an unread message",
};

TEST_F_TIMEOUT(churn, connect_cycles, 1200)
{
	int n = env_int("MRC_CHURN_CYCLES", debug_kernel() ? 1000 : 10000);
	struct linger lg = { .l_onoff = 1, .l_linger = 0 };
	int i, c, s, r, ok = 0, end_ok[4] = { 0 }, ca, cb, max_conns = 0;
	long long t0 = now_ms(), dt;
	char buf[64], want[64];

	TH_LOG("%d cycles%s", n, debug_kernel() ? " (debug kernel: 10000 on stock)" : "");
	for (i = 0; i < n; i++) {
		int end = i % 4;

		c = client(i & 4 ? "10.1.0.2" : "10.0.0.2", CHURN_PORT, 0);
		ASSERT_GE(c, 0) TH_LOG("cycle %d: connect: %s", i, strerror(-c));
		s = accept_wait(self->lfd, 10000, 0);
		ASSERT_GE(s, 0) TH_LOG("cycle %d: accept: %s", i, strerror(-s));
		ASSERT_EQ(0, set_timeo(c, SO_RCVTIMEO, 10000));
		ASSERT_EQ(0, set_timeo(s, SO_RCVTIMEO, 10000));

		snprintf(want, sizeof(want), "cycle %d from the client", i);
		ASSERT_EQ((int)strlen(want), neg_errno(send(c, want, strlen(want), MSG_NOSIGNAL)))
			TH_LOG("cycle %d: client send", i);
		r = neg_errno(recv(s, buf, sizeof(buf), 0));
		ASSERT_EQ((int)strlen(want), r) TH_LOG("cycle %d: server recv: %d", i, r);
		ASSERT_EQ(0, memcmp(buf, want, r));
		snprintf(want, sizeof(want), "cycle %d from the server", i);
		ASSERT_EQ((int)strlen(want), neg_errno(send(s, want, strlen(want), MSG_NOSIGNAL)))
			TH_LOG("cycle %d: server send", i);

		switch (end) {
		case 0:		/* client reads, closes; server sees EOF */
		case 1:		/* server closes; client reads the message, then EOF */
			r = neg_errno(recv(c, buf, sizeof(buf), 0));
			ASSERT_EQ((int)strlen(want), r) TH_LOG("cycle %d: client recv: %d", i, r);
			ASSERT_EQ(0, memcmp(buf, want, r));
			if (end == 0) {
				close(c);
				r = neg_errno(recv(s, buf, sizeof(buf), 0));
				ASSERT_EQ(0, r) TH_LOG("cycle %d: server expected EOF: %d", i, r);
				close(s);
			} else {
				close(s);
				r = neg_errno(recv(c, buf, sizeof(buf), 0));
				ASSERT_EQ(0, r) TH_LOG("cycle %d: client expected EOF: %d", i, r);
				close(c);
			}
			break;
		default:	/* 2: abort (SO_LINGER 0); 3: unread message, abort too */
			if (end == 2)
				ASSERT_EQ(0, setsockopt(c, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg)));
			/*
			 * 3: the message must be there to be unread.  Closed
			 * before it arrives, the client closes cleanly and the
			 * server may read EOF before the RESET its message
			 * then draws.
			 */
			if (end == 3) {
				struct pollfd p = { .fd = c, .events = POLLIN };

				ASSERT_EQ(1, poll(&p, 1, 10000))
					TH_LOG("cycle %d: the server's message never arrived", i);
			}
			close(c);
			r = neg_errno(recv(s, buf, sizeof(buf), 0));
			ASSERT_EQ(-ECONNRESET, r)
				TH_LOG("cycle %d (%s): server recv: %d", i, cycle_ends[end], r);
			close(s);
			break;
		}
		end_ok[end]++;
		ok++;
		if ((i + 1) % (n / 4 ?: 1) == 0) {
			ca = conn_count(self->nsa, self->nsa);
			cb = conn_count(self->nsb, self->nsa);
			TH_LOG("%d cycles: %lld ms, connections left A %d B %d, module refcnt %ld",
			       i + 1, now_ms() - t0, ca, cb, module_refcnt());
			if (ca + cb > max_conns)
				max_conns = ca + cb;
		}
	}
	dt = now_ms() - t0;
	TH_LOG("%d of %d cycles succeeded in %lld ms: %lld cycles/s", ok, n, dt,
	       dt ? ok * 1000LL / dt : 0);
	for (i = 0; i < 4; i++)
		TH_LOG("  %d x %s", end_ok[i], cycle_ends[i]);
	ASSERT_EQ(n, ok);
	/* Only connections in TIME_WAIT may linger (0.4 s each), never all. */
	EXPECT_LT(max_conns, 2000) TH_LOG("connections pile up");
	expect_all_gone(_metadata, &self->lfd, self->nsa, self->nsb,
			self->refcnt0, self->slab0, 20000);
}

/* ---- a parent going away while REQs arrive ------------------------------------- */

/*
 * Fork a process in the current namespace (A) that opens @n non-blocking
 * connections to @ip:@port as fast as it can and holds them until it is
 * killed, so handshakes run while the test tears the other end down.
 */
static pid_t fork_connects(const char *ip, int port, int n)
{
	pid_t pid = fork();
	int i;

	if (pid)
		return pid;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	for (i = 0; i < n; i++) {
		struct sockaddr_mrc a = mrc_addr(ip, port);
		int fd = socket(mrc_family(), SOCK_SEQPACKET | SOCK_NONBLOCK, 0);

		if (fd >= 0)
			connect(fd, (struct sockaddr *)&a, sizeof(a));
	}
	pause();
	_exit(0);
}

static void kill_wait(pid_t pid)
{
	kill(pid, SIGKILL);
	wait_child(pid);
}

/*
 * C1: a listener closed while REQs for it are being handled.  A REQ that
 * found the listener before close() must not attach its child to the
 * closed one (the child, the listener, the namespace and a module
 * reference would leak): every object is gone afterwards.
 */
TEST_F_TIMEOUT(churn, listener_close_vs_req, 300)
{
	int iters = env_int("MRC_CHURN_RACES", debug_kernel() ? 30 : 150) / 2;
	unsigned int seed = 777;
	long long t0 = now_ms();
	int i, lfd, accepted = 0;
	pid_t pid;

	TH_LOG("%d listeners closed under 40 connects each", iters);
	for (i = 0; i < iters; i++) {
		lfd = listener_in(self->nsb, self->nsa, CHURN_PORT + 1, 64);
		ASSERT_GE(lfd, 0) TH_LOG("iteration %d: %s", i, strerror(-lfd));
		pid = fork_connects(i & 1 ? "10.1.0.2" : "10.0.0.2", CHURN_PORT + 1, 40);
		ASSERT_GT(pid, 0);
		usleep(rand_r(&seed) % 20000);
		/* Accept a few: a queue with both accepted and waiting children. */
		if (i & 2) {
			int s = neg_errno(accept4(lfd, NULL, NULL, SOCK_NONBLOCK));

			if (s >= 0) {
				accepted++;
				close(s);
			}
		}
		close(lfd);
		usleep(rand_r(&seed) % 5000);
		kill_wait(pid);
	}
	TH_LOG("%d iterations in %lld ms, %d accepted", iters, now_ms() - t0, accepted);
	/* Half-open children of a REQ that came after close() get a RESET. */
	expect_all_gone(_metadata, &self->lfd, self->nsa, self->nsb,
			self->refcnt0, self->slab0, 20000);
}

/*
 * C2: the server's device deleted while REQs arrive.  A child the REQ
 * creates must not attach to the dying device (its unregister would wait
 * for it: "unregister_netdevice: waiting for", which fails the run too):
 * each deletion is quick, and every object is gone afterwards.
 */
TEST_F_TIMEOUT(churn, device_delete_vs_req, 300)
{
	int iters = debug_kernel() ? 8 : 30;
	long long t0, dt, worst = 0;
	int i;
	pid_t pid;

	for (i = 0; i < iters; i++) {
		pid = fork_connects(i & 1 ? "10.1.0.2" : "10.0.0.2", CHURN_PORT, 40);
		ASSERT_GT(pid, 0);
		usleep((i % 5) * 3000);
		t0 = now_ms();
		ASSERT_EQ(0, run_in(self->nsb, self->nsa, "ip link del dev mrcB"));
		dt = now_ms() - t0;
		worst = dt > worst ? dt : worst;
		kill_wait(pid);
		ASSERT_EQ(0, run_in(self->nsb, self->nsa, "%s", MRCB_AGAIN));
	}
	TH_LOG("%d deletions under connects: the slowest took %lld ms", iters, worst);
	EXPECT_LT(worst, debug_kernel() ? 8000 : 2000)
		TH_LOG("a deletion waited for a connection to go");
	expect_all_gone(_metadata, &self->lfd, self->nsa, self->nsb,
			self->refcnt0, self->slab0, 20000);
}

TEST_HARNESS_MAIN
