// SPDX-License-Identifier: GPL-2.0
/*
 * mrc_close.c - the end of a connection keeps every byte, and behaves as
 * TCP's does in the same state.
 *
 * Each test asserts exact delivery (every message, its contents, then
 * EOF), never "a prefix arrived":
 *
 *  - half_close_read_late: messages that arrived stay readable after the
 *    connection ended (its TIME_WAIT is over) until the application reads
 *    them.
 *  - both_shutdown_last_data_lost: both ends send and shut down at once
 *    while the first transmission of each end's last DATA is dropped (a
 *    tc u32 filter on every rail): the CLOSE overtakes the data, yet
 *    neither end finishes before it has everything.
 *  - reply_close_duplicates: a server reads a request, queues a 1 MiB
 *    reply and closes while the client's rails duplicate half its
 *    packets: late duplicates of the request must not reset the orphan.
 *  - lossy_rounds: request/reply/close rounds under loss, duplication and
 *    reordering on every rail; every other round with reo_adapt (the
 *    adaptive reordering window); the same-path rule judging at once
 *    (loss_path_wait off), so that reordering makes losses spurious.
 *  - peek_failslab: MSG_PEEK allocates nothing, so with every atomic
 *    allocation of the task failing it still returns the message and
 *    leaves it (debug kernel: failslab).
 *  - linger_*: SO_LINGER > 0 blocks close() until everything was
 *    acknowledged; past the linger time it resets.
 *  - orphan_*: a closed socket finishing its connection is bounded in
 *    lifetime and in number.
 *  - socket semantics as TCP's: calls during a non-blocking connect,
 *    EPOLLRDHUP only after the peer's data, EPOLLOUT after SHUT_WR,
 *    listen(fd, 0), getpeername() until close(), a finished connection
 *    never reset later, children owned by the listener's owner.
 *
 * Topology: mrc_test.h (two namespaces, two veth rails); the process
 * lives in A (client), the fixture's listener in B.
 */
#define _GNU_SOURCE
#include <sys/fsuid.h>

#include "kselftest_harness.h"
#include "mrc_test.h"

#define CLOSE_PORT	5200

/* tc u32 matches: UDP to mrc's port; a DATA packet (mrc type at 29). */
#define U32_MRC		"match ip protocol 17 0xff match ip dport 4796 0xffff"
#define U32_DATA	U32_MRC " match u8 5 0xff at 29"
#define NETEM_DUP	"tc qdisc add dev X parent 1:1 handle 10: netem delay 100ms 95ms duplicate 50%"
/*
 * The debug kernel takes longer to answer: copies delayed 10..790 ms
 * (with 10..390 ms a busy debug VM once saw none of 51 arrive after the
 * server's close(); other runs 3 to 19).
 */
#define NETEM_DUP_SLOW	"tc qdisc add dev X parent 1:1 handle 10: netem delay 400ms 390ms duplicate 50%"

FIXTURE(close) {
	int nsa, nsb;	/* namespaces: client side, server side */
	int lfd;	/* listener in B on CLOSE_PORT */
	char sys[64];	/* B's sysfs, mounted by mount_b_sysfs(), or "" */
	long lazy_rto;	/* the parameter, restored if a test changed it */
	long tx_burst_max;	/* the parameter, restored */
	long reo_adapt;		/* the parameter, restored */
	long loss_path_wait;	/* the parameter, restored */
	long dead_peer_ms;	/* the parameter, restored */
	long orphan_fin_timeout_ms;	/* the parameter, restored */
};

FIXTURE_SETUP(close)
{
	int line;

	self->lfd = -1;
	self->sys[0] = 0;
	ASSERT_GT(mrc_family(), 0) TH_LOG("mrc.ko is not loaded");
	self->lazy_rto = mrc_param("lazy_rto");
	ASSERT_GE(self->lazy_rto, 0);
	self->tx_burst_max = mrc_param("tx_burst_max");
	ASSERT_GT(self->tx_burst_max, 0);
	self->reo_adapt = mrc_param("reo_adapt");
	ASSERT_GE(self->reo_adapt, 0);
	self->loss_path_wait = mrc_param("loss_path_wait");
	ASSERT_GE(self->loss_path_wait, 0);
	self->dead_peer_ms = mrc_param("dead_peer_ms");
	ASSERT_GT(self->dead_peer_ms, 0);
	self->orphan_fin_timeout_ms = mrc_param("orphan_fin_timeout_ms");
	ASSERT_GE(self->orphan_fin_timeout_ms, 0);
	line = mrc_two_hosts(&self->nsa, &self->nsb);
	ASSERT_EQ(0, line) TH_LOG("mrc_test.h:%d: the two hosts", line);
	self->lfd = listener_in(self->nsb, self->nsa, CLOSE_PORT, 128);
	ASSERT_GE(self->lfd, 0) TH_LOG("listener: %s", strerror(-self->lfd));
	/*
	 * One packet per skb: the drop filters (tc u32 on the rails' egress,
	 * before any segmentation) match one segment's headers, and a UDP
	 * GSO burst shows them only its first segment's.  Last: the harness
	 * skips the teardown of a setup that failed.
	 */
	ASSERT_EQ(0, mrc_set_param("tx_burst_max", 1));
}

FIXTURE_TEARDOWN(close)
{
	mrc_restore_param("lazy_rto", self->lazy_rto, 0);
	if (self->tx_burst_max > 0)
		mrc_set_param("tx_burst_max", self->tx_burst_max);
	if (self->reo_adapt >= 0)
		mrc_set_param("reo_adapt", self->reo_adapt);
	if (self->loss_path_wait >= 0)
		mrc_set_param("loss_path_wait", self->loss_path_wait);
	if (self->dead_peer_ms > 0)
		mrc_set_param("dead_peer_ms", self->dead_peer_ms);
	if (self->orphan_fin_timeout_ms >= 0)
		mrc_set_param("orphan_fin_timeout_ms", self->orphan_fin_timeout_ms);
	if (self->sys[0]) {
		umount2(self->sys, MNT_DETACH);
		rmdir(self->sys);
	}
	if (self->lfd >= 0)
		close(self->lfd);
	if (self->nsa >= 0)
		close(self->nsa);
	if (self->nsb >= 0)
		close(self->nsb);
}

static void pair(struct __test_metadata *_metadata, int lfd, int *c, int *s)
{
	*c = client("10.1.0.2", CLOSE_PORT, 0);
	ASSERT_GE(*c, 0) TH_LOG("connect: %s", strerror(-*c));
	*s = accept_wait(lfd, 5000, 0);
	ASSERT_GE(*s, 0) TH_LOG("accept: %s", strerror(-*s));
}

/* The same command on both rails of one host: "X" in @fmt is the rail. */
static int on_rails(int ns, int home, char host, const char *fmt)
{
	char cmd[1024], dev[4] = { host, '0', 0 };
	const char *x = strchr(fmt, 'X');
	int i, r = 0;

	for (i = 0; i < 2 && !r; i++) {
		dev[1] = '0' + i;
		snprintf(cmd, sizeof(cmd), "%.*s%s%s", (int)(x - fmt), fmt, dev, x + 1);
		r = run_in(ns, home, "%s", cmd);
	}
	return r;
}

/*
 * Drop, on egress of both rails of @host, the DATA packets that carry the
 * last segment of message @msg_id (its offset @last_off; with or without
 * ACK_NOW, which a peer that reads ACKs on DATA no longer gets at a
 * message's end, and with or without an ACK part, which follows the
 * DATA part) in their first (@max_tx 0) or first four (@max_tx 3)
 * transmissions.  Offsets: IPv4 (20) + UDP (8), then the mrc header:
 * type at 29, DATA's msg_id at 44, offset at 52 and tx_count at 58
 * (Documentation/mrc/wire.rst).
 */
static int drop_filter(int ns, int home, char host, unsigned int msg_id,
		       unsigned int last_off, int max_tx, int prio)
{
	char fmt[1024];

	snprintf(fmt, sizeof(fmt),
		 "tc filter add dev X egress protocol ip prio %d u32 %s %s%x%s%x%s%x%s",
		 prio, U32_DATA, "match u32 0x", msg_id, " 0xffffffff at 44 match u32 0x", last_off,
		 " 0xffffffff at 52 match u8 0 0x", max_tx ? 0xfc : 0xff, " at 58 action drop");
	return on_rails(ns, home, host, fmt);
}

static int drop_last_data(int ns, int home, char host, unsigned int msg_id,
			  unsigned int last_off, int max_tx)
{
	if (on_rails(ns, home, host, "tc qdisc add dev X clsact"))
		return -1;
	return drop_filter(ns, home, host, msg_id, last_off, max_tx, 1);
}

/* Offset of the last segment of a @size-byte message of @fd's connection. */
static unsigned int last_seg_off(int fd, size_t size)
{
	struct mrc_info info;

	if (get_info(fd, &info) || !info.seg_size)
		return 0;
	return (size - 1) / info.seg_size * info.seg_size;
}

/* Packets the drop filters of @host's rails dropped so far. */
static long tc_drops(int ns, int home, char host)
{
	char cmd[256], line[512];
	long n = 0, d;
	FILE *f;
	int i;

	if (setns(ns, CLONE_NEWNET))
		return -1;
	for (i = 0; i < 2; i++) {
		snprintf(cmd, sizeof(cmd), "tc -s filter show dev %c%d egress", host, i);
		f = popen(cmd, "r");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f)) {
			const char *p = strstr(line, "(dropped ");

			if (p && sscanf(p, "(dropped %ld", &d) == 1)
				n += d;
		}
		pclose(f);
	}
	if (setns(home, CLONE_NEWNET))
		return -1;
	return n;
}

/*
 * Mount B's sysfs on a directory of its own, for counters read at a
 * precise moment: b_drops() reads in microseconds where sysfs_read_in()
 * forks and mounts (100 ms and more on the debug kernel under TCG).
 */
static int mount_b_sysfs(char sys[64], int nsb, int home)
{
	snprintf(sys, 64, "/tmp/mrc_close.XXXXXX");
	if (!mkdtemp(sys)) {
		sys[0] = 0;
		return -errno;
	}
	return sysfs_mount_in(nsb, home, sys);
}

/* mrcB's drop counter @reason, through the mount of mount_b_sysfs(). */
static long b_drops(const char *sys, const char *reason)
{
	char path[256];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/class/net/mrcB/mrc_drops/%s", sys, reason);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/* recv() until something else than a message: that result (0, -errno). */
static int drain(int fd, int ms, int *msgs)
{
	unsigned char *buf = malloc(MAX_MSG + 1);
	long long t0 = now_ms();
	int r;

	*msgs = 0;
	if (!buf)
		return -ENOMEM;
	for (;;) {
		r = do_recv(fd, buf, MAX_MSG + 1, MSG_DONTWAIT, NULL);
		if (r > 0) {
			(*msgs)++;
			continue;
		}
		if (r != -EAGAIN || now_ms() - t0 > ms)
			break;
		usleep(10000);
	}
	free(buf);
	return r;
}

/* ---- data is never lost on close ----------------------------------------- */

TEST_F_TIMEOUT(close, half_close_read_late, 60)
{
	const int n = 50;
	size_t sizes[50];
	struct mrc_info info;
	int c, s, k, got = 0;

	for (k = 0; k < n; k++)
		sizes[k] = k % 5 ? 1 + 613 * k : 30000;
	pair(_metadata, self->lfd, &c, &s);
	ASSERT_EQ(0, shutdown(c, SHUT_WR));
	ASSERT_EQ(0, wait_child(fork_sender(s, sizes, n, 70)));
	close(s);

	/* Both ends closed, TIME_WAIT (400 ms) over; nothing read yet. */
	usleep(1500000);
	EXPECT_EQ(0, get_info(c, &info));
	EXPECT_EQ(MRC_CONN_STATE_CLOSED, info.state) TH_LOG("the connection ended");
	EXPECT_GT(info.rmem_alloc, 0) TH_LOG("with the messages still held");

	k = recv_all(c, sizes, n, 70, &got);
	EXPECT_EQ(-1, k) TH_LOG("message %d: recv %d", k, got);
	EXPECT_EQ(0, do_recv(c, &info, sizeof(info), 0, NULL)) TH_LOG("then EOF");
	EXPECT_EQ(0, do_recv(c, &info, sizeof(info), MSG_DONTWAIT, NULL)) TH_LOG("EOF again");
	EXPECT_EQ(0, so_error(c));
	close(c);
}

/*
 * Both ends send 8 messages and shut down; the first transmission of
 * each end's last segment is dropped, so each CLOSE arrives before the
 * data it follows.
 */
TEST_F_TIMEOUT(close, both_shutdown_last_data_lost, 60)
{
	static const size_t sizes[] = { 3000, 100, 5000, 1, 1436, 1437, 20000, 3000 };
	const int n = ARRAY_SIZE(sizes);
	int c, s, k, got = 0, i;
	pid_t pc = -1, ps = -1;
	unsigned int off;

	pair(_metadata, self->lfd, &c, &s);
	off = last_seg_off(c, sizes[n - 1]);
	ASSERT_LT(0, off);
	ASSERT_EQ(0, drop_last_data(self->nsa, self->nsa, 'a', n - 1, off, 0));
	ASSERT_EQ(0, drop_last_data(self->nsb, self->nsa, 'b', n - 1, off, 0));

	for (i = 0; i < 2; i++) {
		pid_t pid = fork();

		ASSERT_GE(pid, 0);
		if (!pid) {
			int fd = i ? s : c;

			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (wait_child(fork_sender(fd, sizes, n, i ? 200 : 100)))
				_exit(1);
			_exit(shutdown(fd, SHUT_WR) ? 2 : 0);
		}
		if (i)
			ps = pid;
		else
			pc = pid;
	}
	EXPECT_EQ(0, wait_child(pc));
	EXPECT_EQ(0, wait_child(ps));

	k = recv_all(s, sizes, n, 100, &got);
	EXPECT_EQ(-1, k) TH_LOG("server: message %d: recv %d", k, got);
	EXPECT_EQ(0, do_recv(s, &got, sizeof(got), 0, NULL)) TH_LOG("server: EOF");
	k = recv_all(c, sizes, n, 200, &got);
	EXPECT_EQ(-1, k) TH_LOG("client: message %d: recv %d", k, got);
	EXPECT_EQ(0, do_recv(c, &got, sizeof(got), 0, NULL)) TH_LOG("client: EOF");
	EXPECT_EQ(0, so_error(c));
	EXPECT_EQ(0, so_error(s));
	/* The scenario happened: one first transmission lost on each side. */
	EXPECT_EQ(1, tc_drops(self->nsa, self->nsa, 'a'));
	EXPECT_EQ(1, tc_drops(self->nsb, self->nsa, 'b'));
	close(c);
	close(s);
}

TEST_F_TIMEOUT(close, reply_close_duplicates, 240)
{
	const int rounds = debug_kernel() ? 5 : 20, nreq = 16;
	size_t req[16], reply[1] = { MAX_MSG };
	int c, s, r, k, got = 0, sndbuf = 4 << 20, resets = 0, dups;
	unsigned char *big = malloc(MAX_MSG);
	long dups0, late = 0, at_close, nc0, nc;

	ASSERT_NE(NULL, big);
	for (k = 0; k < nreq; k++)
		req[k] = 1000 + k;
	/*
	 * The client's DATA packets (only: its ACKs go straight) are
	 * duplicated half the time and delayed 5..195 ms each (debug kernel:
	 * 10..790 ms; with 5-195 ms one of its runs saw 1 late copy in 47,
	 * another none), so copies of the request keep arriving after the
	 * server has closed.
	 */
	ASSERT_EQ(0, on_rails(self->nsa, self->nsa, 'a',
			      "tc qdisc add dev X root handle 1: prio"));
	ASSERT_EQ(0, on_rails(self->nsa, self->nsa, 'a',
			      debug_kernel() ? NETEM_DUP_SLOW : NETEM_DUP));
	ASSERT_EQ(0, on_rails(self->nsa, self->nsa, 'a',
			      "tc filter add dev X parent 1: protocol ip prio 1 u32 "
			      U32_DATA " flowid 1:1"));
	k = mount_b_sysfs(self->sys, self->nsb, self->nsa);
	ASSERT_EQ(0, k) TH_LOG("B's sysfs: %s", strerror(-k));
	dups0 = b_drops(self->sys, "duplicate");
	ASSERT_GE(dups0, 0);
	nc0 = b_drops(self->sys, "no-conn");
	for (r = 0; r < rounds; r++) {
		pair(_metadata, self->lfd, &c, &s);
		ASSERT_EQ(0, setsockopt(s, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf)));
		fill_msg(big, MAX_MSG, r + 7);
		/* The reply is queued first, so close() follows the request at once. */
		ASSERT_EQ(MAX_MSG, do_send(s, big, MAX_MSG, 0));
		ASSERT_EQ(0, wait_child(fork_sender(c, req, nreq, r * 100)));
		k = recv_all(s, req, nreq, r * 100, &got);
		ASSERT_EQ(-1, k) TH_LOG("round %d: request %d: %d", r, k, got);
		close(s);	/* duplicates of the request still arrive */
		/* copies the orphan itself drops as duplicates */
		at_close = b_drops(self->sys, "duplicate");

		k = recv_all(c, reply, 1, r + 7, &got);
		if (k != -1 && got == -ECONNRESET)
			resets++;
		EXPECT_EQ(-1, k) TH_LOG("round %d: the reply: recv %d", r, got);
		EXPECT_EQ(0, do_recv(c, &got, sizeof(got), 0, NULL))
			TH_LOG("round %d: EOF", r);
		usleep(debug_kernel() ? 850000 : 250000);	/* the last copies */
		late += b_drops(self->sys, "duplicate") - at_close;
		close(c);
	}
	dups = b_drops(self->sys, "duplicate") - dups0;
	nc = b_drops(self->sys, "no-conn") - nc0;
	TH_LOG("%d rounds: %d duplicates at the server, %ld of them after close(),",
	       rounds, dups, late);
	TH_LOG("  %d resets; %ld copies found no connection", resets, nc);
	free(big);
	EXPECT_EQ(0, resets);
	EXPECT_GT(late, 0) TH_LOG("copies of the request reached the closed socket");
}

TEST_F_TIMEOUT(close, lossy_rounds, 300)
{
	/*
	 * At least @rounds; the stock kernel goes on (to @most) until a
	 * declared loss proved spurious: netem's dice gave none in 20 rounds
	 * once (32 retransmissions).
	 */
	const int rounds = debug_kernel() ? 6 : 20, most = debug_kernel() ? 6 : 60;
	static const size_t req[] = { 100, 5000, 1, 3000 };
	static const size_t reply[] = { 20000, 1436, 1437, 64000, 7, 30000, 2872, 9000 };
	const char *impair =
		"tc qdisc add dev X root netem delay 2ms 2ms loss 2% duplicate 5% reorder 10% 50%";
	int c, s, r, k, got = 0;
	unsigned int mult_max = 0;
	struct mrc_info info;
	long retrans = 0, spurious = 0;

	ASSERT_EQ(0, on_rails(self->nsa, self->nsa, 'a', impair));
	ASSERT_EQ(0, on_rails(self->nsb, self->nsa, 'b', impair));
	/*
	 * netem's 2 +- 2 ms jitter stays within the same-path rule's wait
	 * (an RTT plus at least 1 ms): with it, 60 rounds declared no loss
	 * spurious (2026-12-07).  Judging at once, as before the wait, makes
	 * some, which is what the accounting below needs.
	 */
	ASSERT_EQ(0, mrc_set_param("loss_path_wait", 0));
	for (r = 0; r < most && (r < rounds || !spurious); r++) {
		ASSERT_EQ(0, mrc_set_param("reo_adapt", r % 2));
		pair(_metadata, self->lfd, &c, &s);
		ASSERT_EQ(0, wait_child(fork_sender(c, req, ARRAY_SIZE(req), r)));
		ASSERT_EQ(0, shutdown(c, SHUT_WR));
		k = recv_all(s, req, ARRAY_SIZE(req), r, &got);
		ASSERT_EQ(-1, k) TH_LOG("round %d: request %d: %d", r, k, got);
		ASSERT_EQ(0, do_recv(s, &got, sizeof(got), 0, NULL)) TH_LOG("round %d", r);
		ASSERT_EQ(0, wait_child(fork_sender(s, reply, ARRAY_SIZE(reply), r + 50)));
		EXPECT_EQ(0, get_info(s, &info));
		retrans += info.retrans;
		spurious += info.spurious;
		/* tracked with reo_adapt off as well: 1 (its base) to 8 */
		EXPECT_TRUE(info.reo_mult >= 1 && info.reo_mult <= 8)
			TH_LOG("round %d: server reo_mult %u", r, info.reo_mult);
		mult_max = info.reo_mult > mult_max ? info.reo_mult : mult_max;
		close(s);
		k = recv_all(c, reply, ARRAY_SIZE(reply), r + 50, &got);
		ASSERT_EQ(-1, k) TH_LOG("round %d: reply %d: %d", r, k, got);
		ASSERT_EQ(0, do_recv(c, &got, sizeof(got), 0, NULL)) TH_LOG("round %d: EOF", r);
		EXPECT_EQ(0, get_info(c, &info));
		retrans += info.retrans;
		spurious += info.spurious;
		EXPECT_TRUE(info.reo_mult >= 1 && info.reo_mult <= 8)
			TH_LOG("round %d: client reo_mult %u", r, info.reo_mult);
		mult_max = info.reo_mult > mult_max ? info.reo_mult : mult_max;
		EXPECT_EQ(0, so_error(c));
		close(c);
	}
	mrc_set_param("reo_adapt", self->reo_adapt);
	mrc_set_param("loss_path_wait", self->loss_path_wait);
	TH_LOG("%d rounds intact, %ld retransmissions, %ld spurious losses",
	       r, retrans, spurious);
	TH_LOG("reordering window up to %u x its base", mult_max);
	EXPECT_GT(retrans, 0) TH_LOG("the impairments did cost something");
	/*
	 * netem's jitter reorders packets of one path, which loss detection
	 * takes as FIFO: some of its losses arrive after all.  In the debug
	 * kernel's 6 rounds there may be none.
	 */
	if (!debug_kernel()) {
		EXPECT_GT(spurious, 0) TH_LOG("reordering made some declared losses spurious");
	} else {
		TH_LOG("debug kernel: %ld spurious, not checked (its 6 rounds may have none)",
		       spurious);
	}
}

/* Write @val to /sys/kernel/debug/failslab/@name. */
static int failslab_set(const char *name, const char *val)
{
	char path[256];
	FILE *f;
	int r;

	snprintf(path, sizeof(path), "/sys/kernel/debug/failslab/%s", name);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	r = fputs(val, f) < 0 ? -EIO : 0;
	if (fclose(f))
		r = -errno;
	return r;
}

static int make_it_fail(int on)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/make-it-fail", gettid());
	f = fopen(path, "w");
	if (!f)
		return -errno;
	fprintf(f, "%d", on);
	return fclose(f) ? -errno : 0;
}

TEST_F(close, peek_failslab)
{
	static const size_t sizes[] = { 2000, 2000, 2000 };
	unsigned char buf[4096];
	int c, s, r;

	if (access("/sys/kernel/debug/failslab", F_OK))
		SKIP(return, "no failslab here (CONFIG_FAILSLAB): the debug kernel runs it");
	pair(_metadata, self->lfd, &c, &s);
	ASSERT_EQ(0, wait_child(fork_sender(s, sizes, 3, 30)));
	ASSERT_EQ(2000, do_recv(c, buf, sizeof(buf), 0, NULL));
	ASSERT_TRUE(wait_ev(c, POLLIN, 5000) & POLLIN);

	/* Every atomic allocation of this thread fails during the peek. */
	ASSERT_EQ(0, failslab_set("probability", "100"));
	ASSERT_EQ(0, failslab_set("interval", "1"));
	ASSERT_EQ(0, failslab_set("times", "-1"));
	ASSERT_EQ(0, failslab_set("verbose", "0"));
	ASSERT_EQ(0, failslab_set("task-filter", "Y"));
	ASSERT_EQ(0, failslab_set("ignore-gfp-wait", "Y"));
	ASSERT_EQ(0, make_it_fail(1));
	r = do_recv(c, buf, sizeof(buf), MSG_PEEK, NULL);
	make_it_fail(0);
	failslab_set("probability", "0");
	failslab_set("task-filter", "N");

	EXPECT_EQ(2000, r);
	EXPECT_EQ(-1, check_msg(buf, 2000, 31));
	memset(buf, 0, sizeof(buf));
	EXPECT_EQ(2000, do_recv(c, buf, sizeof(buf), 0, NULL)) TH_LOG("the peeked message again");
	EXPECT_EQ(-1, check_msg(buf, 2000, 31));
	EXPECT_EQ(2000, do_recv(c, buf, sizeof(buf), 0, NULL));
	EXPECT_EQ(-1, check_msg(buf, 2000, 32));
	close(c);
	close(s);
}

/* ---- SO_LINGER ------------------------------------------------------------ */

TEST_F_TIMEOUT(close, linger_waits_for_ack, 60)
{
	struct linger lg = { .l_onoff = 1, .l_linger = 10 };
	size_t sizes[20];
	long long t0, dt;
	int c, s, k, msgs, r;

	for (k = 0; k < 20; k++)
		sizes[k] = 50000;
	ASSERT_EQ(0, on_rails(self->nsa, self->nsa, 'a',
			      "tc qdisc add dev X root netem delay 100ms"));
	pair(_metadata, self->lfd, &c, &s);
	ASSERT_EQ(0, wait_child(fork_sender(c, sizes, 20, 3)));
	ASSERT_EQ(0, setsockopt(c, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg)));
	t0 = now_ms();
	ASSERT_EQ(0, close(c));
	dt = now_ms() - t0;
	TH_LOG("close() returned after %lld ms", dt);
	EXPECT_GE(dt, 90) TH_LOG("it waited for the acknowledgments");
	EXPECT_LT(dt, 10000);
	/* Acknowledged means here: all of it can be read without waiting. */
	r = drain(s, 0, &msgs);
	EXPECT_EQ(20, msgs);
	EXPECT_EQ(0, r) TH_LOG("EOF right after the messages");
	close(s);
}

TEST_F_TIMEOUT(close, linger_timeout_resets, 60)
{
	struct linger lg = { .l_onoff = 1, .l_linger = 1 };
	unsigned char *buf = malloc(65536);
	int c, s, n = 0, r, msgs, sndbuf = 65536;
	long long t0, dt;

	ASSERT_NE(NULL, buf);
	ASSERT_EQ(0, run_in(self->nsb, self->nsa,
			    "%s/tools/mrcctl/mrcctl dev set mrcB max-msg-size 65536",
			    getenv("MRC_TOP") ?: ".."));
	pair(_metadata, self->lfd, &c, &s);
	ASSERT_EQ(0, setsockopt(c, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf)));
	/* The server never reads: fill its credit, then our queue. */
	for (;;) {
		fill_msg(buf, 65536, n);
		r = do_send(c, buf, 65536, MSG_DONTWAIT);
		if (r == 65536) {
			n++;
			continue;
		}
		ASSERT_EQ(-EAGAIN, r);
		if (!(wait_ev(c, POLLOUT, 1000) & POLLOUT))
			break;
		ASSERT_LT(n, 500);
	}
	TH_LOG("%d messages queued or sent", n);
	ASSERT_EQ(0, setsockopt(c, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg)));
	t0 = now_ms();
	ASSERT_EQ(0, close(c));
	dt = now_ms() - t0;
	TH_LOG("close() returned after %lld ms", dt);
	EXPECT_GE(dt, 900);
	EXPECT_LT(dt, 3000);
	/* Then the connection was reset: the server reads what came, then that. */
	r = drain(s, 5000, &msgs);
	TH_LOG("server: %d messages, then %d", msgs, r);
	EXPECT_EQ(-ECONNRESET, r);
	EXPECT_LT(msgs, n);
	free(buf);
	close(s);
}

/* ---- orphans ------------------------------------------------------------- */

/* Wait until namespace @ns has @n connections; the time it took, or -1. */
static long long wait_conns(int ns, int home, int n, int ms)
{
	long long t0 = now_ms();

	while (conn_count_in(ns, home, false) != n) {
		if (now_ms() - t0 > ms)
			return -1;
		usleep(100000);
	}
	return now_ms() - t0;
}

/*
 * An orphan whose peer keeps its credit shut (its application never
 * reads) while answering every window probe: no progress, so it ends
 * after the dead-peer time (10 s) and resets the peer.
 */
TEST_F_TIMEOUT(close, orphan_window_shut, 60)
{
	unsigned char *buf = malloc(65536);
	int c, s, n = 0, r, msgs;
	long long dt;

	ASSERT_NE(NULL, buf);
	ASSERT_EQ(0, run_in(self->nsb, self->nsa,
			    "%s/tools/mrcctl/mrcctl dev set mrcB max-msg-size 65536",
			    getenv("MRC_TOP") ?: ".."));
	pair(_metadata, self->lfd, &c, &s);
	for (;;) {
		fill_msg(buf, 65536, n);
		r = do_send(c, buf, 65536, MSG_DONTWAIT);
		if (r == 65536) {
			n++;
			continue;
		}
		ASSERT_EQ(-EAGAIN, r);
		if (!(wait_ev(c, POLLOUT, 1000) & POLLOUT))
			break;
		ASSERT_LT(n, 500);
	}
	close(c);
	dt = wait_conns(self->nsa, self->nsa, 0, 20000);
	TH_LOG("%d messages; the orphan ended after %lld ms", n, dt);
	EXPECT_GE(dt, 7000) TH_LOG("the dead-peer time, 10 s, less the time to stall");
	EXPECT_NE(-1, dt) TH_LOG("the orphan still lives after 20 s");
	r = drain(s, 5000, &msgs);
	EXPECT_EQ(-ECONNRESET, r) TH_LOG("after %d messages", msgs);
	free(buf);
	close(s);
}

/* An orphan with everything acknowledged waits orphan_fin_timeout_ms. */
TEST_F_TIMEOUT(close, orphan_fin_timeout, 60)
{
	/* a busy debug kernel took 6.6 s to end it (and to show it) once */
	const long long lim = debug_kernel() ? 15000 : 4000;
	unsigned char buf[64];
	long long t0, dt;
	int c, s, r, msgs;

	/* (both restored by the teardown) */
	/* what ends the orphan is its FIN timeout, not the dead-peer time */
	ASSERT_EQ(0, mrc_set_param("dead_peer_ms", 60000));
	ASSERT_EQ(0, mrc_set_param("orphan_fin_timeout_ms", 1500));
	pair(_metadata, self->lfd, &c, &s);
	ASSERT_EQ(5, do_send(c, "hello", 5, 0));
	ASSERT_EQ(5, do_recv(s, buf, sizeof(buf), 0, NULL));
	t0 = now_ms();
	close(c);	/* the server never closes */
	dt = wait_conns(self->nsa, self->nsa, 0, 20000);
	TH_LOG("the orphan ended after %lld ms", dt);
	EXPECT_GE(dt, 1400);
	EXPECT_LE(dt, lim);
	/*
	 * As TCP in CLOSE_WAIT: the peer's data all came (EOF), then its
	 * RESET, which a writer learns as EPIPE.
	 */
	r = drain(s, 3000, &msgs);
	EXPECT_EQ(0, msgs);
	EXPECT_EQ(0, r);
	EXPECT_EQ(EPIPE, so_error(s)) TH_LOG("the orphan's RESET arrived");
	TH_LOG("the server's recv: %d after %lld ms", r, now_ms() - t0);
	close(s);
}

TEST_F_TIMEOUT(close, orphans_capped, 60)
{
	long old = mrc_param("max_orphans");
	int c[4], s[4], i, r, msgs;
	unsigned char buf[16];

	ASSERT_GT(old, 0);
	ASSERT_EQ(0, mrc_set_param("max_orphans", 2));
	for (i = 0; i < 4; i++) {
		pair(_metadata, self->lfd, &c[i], &s[i]);
		ASSERT_EQ(1, do_send(c[i], "x", 1, 0));
		ASSERT_EQ(1, do_recv(s[i], buf, sizeof(buf), 0, NULL));
	}
	/* Two orphans wait for their peers' CLOSE; the third is one too many. */
	for (i = 0; i < 3; i++)
		close(c[i]);
	r = drain(s[2], 2000, &msgs);
	EXPECT_EQ(0, r) TH_LOG("EOF: the third one's CLOSE, then its RESET");
	EXPECT_EQ(EPIPE, so_error(s[2])) TH_LOG("the third close() resets");
	EXPECT_EQ(0, so_error(s[0])) TH_LOG("the first orphan waits");
	EXPECT_EQ(0, so_error(s[1])) TH_LOG("the second orphan waits");
	EXPECT_NE(-1, wait_conns(self->nsa, self->nsa, 3, 2000))
		TH_LOG("two orphans and one open socket in A");
	/* They finish when their peers close; the count goes back down. */
	for (i = 0; i < 3; i++)
		close(s[i]);
	EXPECT_NE(-1, wait_conns(self->nsa, self->nsa, 1, 5000));
	/* With room for one orphan, the last close() is orderly: none leaked. */
	ASSERT_EQ(0, mrc_set_param("max_orphans", 1));
	close(c[3]);
	usleep(300000);
	EXPECT_EQ(0, so_error(s[3])) TH_LOG("an orphan is allowed again");
	EXPECT_NE(-1, wait_conns(self->nsa, self->nsa, 1, 2000));
	close(s[3]);
	EXPECT_NE(-1, wait_conns(self->nsa, self->nsa, 0, 5000));
	mrc_set_param("max_orphans", old);
}

/* ---- socket semantics as TCP's ------------------------------------------- */

static int sigpipes;

static void on_sigpipe(int sig)
{
	__atomic_fetch_add(&sigpipes, 1, __ATOMIC_RELAXED);
}

TEST_F_TIMEOUT(close, calls_during_connect, 60)
{
	struct sockaddr_mrc a = mrc_addr("10.1.0.2", CLOSE_PORT);
	unsigned char buf[16];
	long long t0, dt;
	int c, c2, s, s2;

	signal(SIGPIPE, on_sigpipe);
	/* The server's ACCEPT takes 300 ms. */
	ASSERT_EQ(0, on_rails(self->nsb, self->nsa, 'b',
			      "tc qdisc add dev X root netem delay 300ms"));
	c = socket(mrc_family(), SOCK_SEQPACKET | SOCK_NONBLOCK, 0);
	ASSERT_GE(c, 0);
	ASSERT_EQ(-EINPROGRESS, neg_errno(connect(c, (struct sockaddr *)&a, sizeof(a))));
	EXPECT_EQ(-EAGAIN, neg_errno(send(c, "x", 1, 0))) TH_LOG("send while connecting");
	EXPECT_EQ(0, __atomic_load_n(&sigpipes, __ATOMIC_RELAXED)) TH_LOG("and no SIGPIPE");
	EXPECT_EQ(-EAGAIN, do_recv(c, buf, sizeof(buf), 0, NULL)) TH_LOG("recv while connecting");
	EXPECT_EQ(0, wait_ev(c, POLLIN | POLLOUT, 0));
	EXPECT_TRUE(wait_ev(c, POLLOUT, 5000) & POLLOUT);
	EXPECT_EQ(1, neg_errno(send(c, "x", 1, 0)));

	/* A blocking send() waits for the connection, then sends. */
	c2 = socket(mrc_family(), SOCK_SEQPACKET | SOCK_NONBLOCK, 0);
	ASSERT_GE(c2, 0);
	ASSERT_EQ(-EINPROGRESS, neg_errno(connect(c2, (struct sockaddr *)&a, sizeof(a))));
	ASSERT_EQ(0, fcntl(c2, F_SETFL, 0));
	t0 = now_ms();
	EXPECT_EQ(2, neg_errno(send(c2, "yz", 2, 0)));
	dt = now_ms() - t0;
	EXPECT_GE(dt, 200) TH_LOG("send() returned after %lld ms", dt);
	EXPECT_EQ(0, __atomic_load_n(&sigpipes, __ATOMIC_RELAXED));

	s = accept_wait(self->lfd, 5000, 0);
	s2 = accept_wait(self->lfd, 5000, 0);
	ASSERT_GE(s, 0);
	ASSERT_GE(s2, 0);
	close(s);
	close(s2);
	close(c);
	close(c2);
	signal(SIGPIPE, SIG_DFL);
}

/* Send message @k (64 bytes) on @c, receive and check it on @s: ms taken. */
static long long one_msg(struct __test_metadata *_metadata, int c, int s, int k)
{
	unsigned char buf[65];
	long long t0 = now_ms();

	fill_msg(buf, 64, k);
	EXPECT_EQ(64, do_send(c, buf, 64, 0)) TH_LOG("message %d", k);
	EXPECT_EQ(64, do_recv(s, buf, sizeof(buf), 0, NULL)) TH_LOG("message %d", k);
	EXPECT_EQ(-1, check_msg(buf, 64, k)) TH_LOG("message %d", k);
	return now_ms() - t0;
}

/* Wait until everything @c sent is acknowledged; its info then. */
static void wait_acked(struct __test_metadata *_metadata, int c, struct mrc_info *info)
{
	int i;

	for (i = 0; i < 1000; i++) {
		ASSERT_EQ(0, get_info(c, info));
		if (!info->in_flight)
			return;
		usleep(1000);
	}
	ASSERT_EQ(0, info->in_flight);
}

/*
 * Data that leaves an idle connection gets a retransmission timer and a
 * dead-peer clock of its own (lazy_rto 1).  After a first message (an RTT
 * sample), message 2 leaves half an RTO after message 1 did, acknowledged
 * by then, while message 1's timer is still pending (checked), and its
 * first transmission is dropped: the RTO resends it one full RTO after it
 * left, neither when message 1's timer expires (early) nor when a
 * leftover one does (the handshake's, 200 ms: late; the bound catches it
 * while the RTO is under 49 ms).  Message 3 leaves after more than the
 * dead-peer time (10 s) of silence, and its first transmission is
 * dropped too: it is resent, the connection stays.
 */
TEST_F_TIMEOUT(close, rto_after_idle, 60)
{
	struct mrc_info info;
	long long dt, rto_ms, t0;
	int c, s;

	ASSERT_EQ(0, mrc_set_param("lazy_rto", 1));
	pair(_metadata, self->lfd, &c, &s);
	ASSERT_EQ(0, drop_last_data(self->nsa, self->nsa, 'a', 2, 0, 0));
	ASSERT_EQ(0, drop_filter(self->nsa, self->nsa, 'a', 3, 0, 0, 2));
	ASSERT_EQ(0, set_timeo(s, SO_RCVTIMEO, 20000));

	one_msg(_metadata, c, s, 0);		/* an RTT sample */
	wait_acked(_metadata, c, &info);
	rto_ms = info.rto_us / 1000;		/* message 1's timer */
	t0 = now_ms();
	one_msg(_metadata, c, s, 1);
	wait_acked(_metadata, c, &info);
	if (now_ms() < t0 + rto_ms / 2)
		usleep((t0 + rto_ms / 2 - now_ms()) * 1000);
	ASSERT_LT(now_ms() - t0, rto_ms) TH_LOG("message 1's timer expired already");
	ASSERT_EQ(0, get_info(c, &info));
	rto_ms = info.rto_us / 1000;		/* message 2's timer */
	dt = one_msg(_metadata, c, s, 2);
	ASSERT_EQ(0, get_info(c, &info));
	TH_LOG("message 2: %lld ms with one RTO of %lld ms", dt, rto_ms);
	EXPECT_EQ(1, info.retrans);
	EXPECT_EQ(1, info.rto);
	/* not by an older timer: early (message 1's) or late (the handshake's) */
	EXPECT_GE(dt, rto_ms) TH_LOG("resent before its RTO");
	EXPECT_LT(dt, 3 * rto_ms + 50) TH_LOG("resent long after its RTO");

	usleep(10500 * 1000);		/* MRC_DEAD_PEER_MS and more, silent */
	one_msg(_metadata, c, s, 3);
	ASSERT_EQ(0, get_info(c, &info));
	EXPECT_EQ(2, info.retrans);
	EXPECT_EQ(2, info.rto);
	EXPECT_EQ(MRC_CONN_STATE_ESTABLISHED, info.state);
	EXPECT_EQ(0, so_error(c));
	EXPECT_EQ(2, tc_drops(self->nsa, self->nsa, 'a'));
	close(c);
	close(s);
}

/*
 * EPOLLRDHUP (and EOF) only once every message before the peer's CLOSE
 * is here: the first four transmissions of the last segment are dropped,
 * so the CLOSE, sent right after it, arrives well before it (RTOs).
 */
TEST_F_TIMEOUT(close, rdhup_after_data, 60)
{
	static const size_t sizes[] = { 100, 3000, 4000 };
	struct mrc_info info;
	long long t0;
	int c, s, ev, k, got = 0, window = 0, early = 0;
	unsigned int off;
	pid_t pid;

	pair(_metadata, self->lfd, &c, &s);
	off = last_seg_off(s, sizes[2]);
	ASSERT_LT(0, off);
	ASSERT_EQ(0, drop_last_data(self->nsb, self->nsa, 'b', 2, off, 3));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		unsigned char buf[4000];

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		for (k = 0; k < 3; k++) {
			fill_msg(buf, sizes[k], k + 9);
			if (do_send(s, buf, sizes[k], 0) != (int)sizes[k])
				_exit(1);
		}
		_exit(shutdown(s, SHUT_WR) ? 2 : 0);
	}
	t0 = now_ms();
	for (;;) {
		ev = wait_ev(c, POLLIN | POLLRDHUP, 0);
		ASSERT_EQ(0, get_info(c, &info));
		/* Read after poll: a bit clear now was clear at the poll. */
		if (!(info.closing & 8) && (ev & (POLLRDHUP | POLLHUP)))
			early++;
		if ((info.closing & 4) && !(info.closing & 8))
			window++;
		if (info.closing & 8)
			break;
		ASSERT_LT(now_ms() - t0, 10000);
		usleep(1000);
	}
	TH_LOG("%d samples with the CLOSE here and data missing", window);
	EXPECT_EQ(0, early) TH_LOG("RDHUP before the data");
	EXPECT_GT(window, 0) TH_LOG("the CLOSE did overtake the data");
	EXPECT_TRUE(wait_ev(c, POLLRDHUP, 0) & POLLRDHUP);
	k = recv_all(c, sizes, 3, 9, &got);
	EXPECT_EQ(-1, k) TH_LOG("message %d: %d", k, got);
	EXPECT_EQ(0, do_recv(c, &got, sizeof(got), 0, NULL));
	EXPECT_EQ(4, tc_drops(self->nsb, self->nsa, 'b'));
	EXPECT_EQ(0, wait_child(pid));
	close(c);
	close(s);
}

TEST_F(close, pollout_after_shutdown)
{
	unsigned char buf[16];
	int c, s, ev;

	pair(_metadata, self->lfd, &c, &s);
	ASSERT_EQ(0, shutdown(c, SHUT_WR));
	ev = wait_ev(c, POLLOUT, 0);
	EXPECT_TRUE(ev & POLLOUT) TH_LOG("revents %#x: a writer learns EPIPE", ev);
	EXPECT_EQ(-EPIPE, do_send(c, "x", 1, 0));
	ASSERT_EQ(0, do_recv(s, buf, sizeof(buf), 0, NULL));
	close(s);
	ASSERT_EQ(0, do_recv(c, buf, sizeof(buf), 0, NULL));
	ev = wait_ev(c, POLLOUT, 1000);
	EXPECT_TRUE(ev & POLLOUT) TH_LOG("revents %#x", ev);
	EXPECT_TRUE(ev & POLLHUP) TH_LOG("revents %#x", ev);
	EXPECT_EQ(-EPIPE, do_send(c, "x", 1, 0));
	close(c);
}

TEST_F_TIMEOUT(close, listen_backlog_zero, 60)
{
	struct sockaddr_mrc a = mrc_addr("10.1.0.2", CLOSE_PORT + 1);
	int lfd, c1, c2, s1, s2;

	lfd = listener_in(self->nsb, self->nsa, CLOSE_PORT + 1, 0);
	ASSERT_GE(lfd, 0);
	c1 = client("10.1.0.2", CLOSE_PORT + 1, 0);
	ASSERT_GE(c1, 0) TH_LOG("listen(fd, 0) accepts one: %s", strerror(-c1));
	/* One waits in the queue: the next REQ is not taken. */
	c2 = socket(mrc_family(), SOCK_SEQPACKET | SOCK_NONBLOCK, 0);
	ASSERT_GE(c2, 0);
	ASSERT_EQ(-EINPROGRESS, neg_errno(connect(c2, (struct sockaddr *)&a, sizeof(a))));
	EXPECT_EQ(0, wait_ev(c2, POLLOUT, 500)) TH_LOG("the second waits");
	s1 = accept_wait(lfd, 1000, 0);
	ASSERT_GE(s1, 0);
	EXPECT_TRUE(wait_ev(c2, POLLOUT, 5000) & POLLOUT) TH_LOG("then it gets in");
	EXPECT_EQ(0, so_error(c2));
	s2 = accept_wait(lfd, 5000, 0);
	EXPECT_GE(s2, 0);
	close(c1);
	close(c2);
	close(s1);
	if (s2 >= 0)
		close(s2);
	close(lfd);
}

TEST_F_TIMEOUT(close, getpeername_until_close, 60)
{
	struct sockaddr_mrc a;
	struct mrc_info info;
	socklen_t len = sizeof(a);
	unsigned char buf[16];
	int c, s;

	pair(_metadata, self->lfd, &c, &s);
	ASSERT_EQ(0, shutdown(c, SHUT_WR));
	ASSERT_EQ(0, do_recv(s, buf, sizeof(buf), 0, NULL));
	close(s);
	ASSERT_EQ(0, do_recv(c, buf, sizeof(buf), 0, NULL));
	usleep(1000000);	/* past TIME_WAIT */
	EXPECT_EQ(0, get_info(c, &info));
	EXPECT_EQ(MRC_CONN_STATE_CLOSED, info.state);
	ASSERT_EQ(0, getpeername(c, (struct sockaddr *)&a, &len)) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(CLOSE_PORT, ntohs(a.smrc_port));
	EXPECT_TRUE(is_v4mapped(&a, "10.1.0.2"));
	close(c);
}

/* A connection that finished cleanly never becomes ECONNRESET later. */
TEST_F_TIMEOUT(close, finished_never_reset, 60)
{
	unsigned char buf[16];
	int c, s;

	pair(_metadata, self->lfd, &c, &s);
	ASSERT_EQ(3, do_send(c, "abc", 3, 0));
	ASSERT_EQ(0, shutdown(c, SHUT_WR));
	ASSERT_EQ(3, do_recv(s, buf, sizeof(buf), 0, NULL));
	ASSERT_EQ(0, do_recv(s, buf, sizeof(buf), 0, NULL));
	ASSERT_EQ(2, do_send(s, "de", 2, 0));
	ASSERT_EQ(0, shutdown(s, SHUT_WR));
	ASSERT_EQ(2, do_recv(c, buf, sizeof(buf), 0, NULL));
	ASSERT_EQ(0, do_recv(c, buf, sizeof(buf), 0, NULL));
	/* Both ends in (or near) TIME_WAIT: the server's device goes. */
	ASSERT_EQ(0, run_in(self->nsb, self->nsa, "ip link del dev mrcB"));
	usleep(500000);
	EXPECT_EQ(0, so_error(c));
	EXPECT_EQ(0, so_error(s)) TH_LOG("the server's finished connection");
	EXPECT_EQ(0, do_recv(c, buf, sizeof(buf), MSG_DONTWAIT, NULL));
	EXPECT_EQ(0, do_recv(s, buf, sizeof(buf), MSG_DONTWAIT, NULL));
	close(c);
	close(s);
}

TEST_F(close, child_owned_by_listener_owner)
{
	struct sockaddr_mrc a = mrc_addr(NULL, CLOSE_PORT + 2);
	struct mrc_info info;
	int lfd, c, s;

	/* A listener created with fsuid nobody (the socket's owner). */
	ASSERT_EQ(0, setns(self->nsb, CLONE_NEWNET));
	setfsuid(65534);
	lfd = socket(mrc_family(), SOCK_SEQPACKET, 0);
	setfsuid(0);
	ASSERT_EQ(0, setns(self->nsa, CLONE_NEWNET));
	ASSERT_GE(lfd, 0);
	ASSERT_EQ(0, bind(lfd, (struct sockaddr *)&a, sizeof(a)));
	ASSERT_EQ(0, listen(lfd, 4));
	ASSERT_EQ(0, get_info(lfd, &info));
	EXPECT_EQ(65534, info.uid);
	c = client("10.1.0.2", CLOSE_PORT + 2, 0);
	ASSERT_GE(c, 0);
	/*
	 * Until accepted, the child is nobody's too (routing and netlink see
	 * sk_uid); accept() then makes it the acceptor's (sock_graft(), as
	 * for TCP): here root.
	 */
	s = accept_wait(lfd, 5000, 0);
	ASSERT_GE(s, 0);
	ASSERT_EQ(0, get_info(s, &info));
	EXPECT_EQ(0, info.uid) TH_LOG("accepted by root");
	ASSERT_EQ(0, get_info(c, &info));
	EXPECT_EQ(0, info.uid);
	close(c);
	close(s);
	close(lfd);
}

TEST_HARNESS_MAIN
