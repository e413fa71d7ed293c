// SPDX-License-Identifier: GPL-2.0
/*
 * mrcpp - the load generator of make bench: one program, four transports
 * (AF_MRC, TCP, MPTCP, UDP), so every peer is measured by the same code.
 *
 *   mrcpp -T PROTO -l [-b ADDR] -p PORT -M MODE [options]     server
 *   mrcpp -T PROTO -c ADDR -p PORT -M MODE [options]          client
 *
 * PROTO: mrc (SOCK_SEQPACKET of the loaded module's family, read from
 * sysfs), tcp, mptcp (IPPROTO_MPTCP = 262), udp (pp mode only).
 *
 * MODE:
 *   stream  client sends -s SIZE writes for -D SECONDS; the server counts
 *           received bytes in 10 ms bins of CLOCK_REALTIME (-o FILE:
 *           "ms_since_epoch bytes" per bin) and prints
 *           bytes=N elapsed_ms=N mbit=N gap_ms=N first_ms=N last_ms=N
 *           gap_ms: the longest time between two reads that returned data
 *           (the receiver's longest delivery stall), gap_at_ms: its start.
 *   pp      ping-pong: the client sends -s SIZE bytes (64), the server
 *           echoes them; -n COUNT round trips; the client prints
 *           n=N p50_us=N p99_us=N and (-o FILE) every sample in us.
 *   rounds  synchronous rounds, as in data-parallel training: the client
 *           runs -n ROUNDS rounds; each opens a NEW connection (a new
 *           source port), waits at the barrier -P FILE shared with the
 *           other clients (so all flows start together, handshakes done),
 *           sends -s SIZE bytes (messages or writes of at most 64 KiB),
 *           waits for the server's one-byte reply and closes.  -o FILE:
 *           one line per round, written through at once, "round start_us
 *           end_us connect_us retrans status" (CLOCK_MONOTONIC, one clock
 *           for every process of the machine; start at the barrier's
 *           release, end at the reply, both 0 if the round failed;
 *           retrans: packets retransmitted, mrc and TCP, else -1; status
 *           "ok" or what failed: connect, send, recv, with "-timeout" if
 *           its time ran out, barrier-timeout, barrier-broken, aborted).
 *           -R MS bounds each round (default 10000): the connect, and the
 *           send and the reply together, each to MS (a signal interrupts
 *           the blocking call, whatever the protocol); the round then
 *           fails and the client goes on to the barrier.  A wait at the
 *           barrier lasts at most 2 x MS + 5 s (the slowest client's
 *           round and connect); when it runs out the barrier is broken
 *           for every client of the set, and each records its remaining
 *           rounds as failed (barrier-timeout, barrier-broken, then
 *           aborted) and exits 1.  Prints rounds=N failed=N aborted=N
 *           bytes=N, p50_us= p99_us= max_us= of end - start, and (mrc,
 *           TCP) retrans=N over all rounds.  The server accepts one
 *           connection per round, answers once it has SIZE bytes, closes
 *           at the client's EOF (or after 3 x MS + 5 s without data), and
 *           exits after -n ROUNDS connections.
 *   barrier create FILE (-P) holding a process-shared barrier with a
 *           deadline for -k N processes (the clients of one set of
 *           rounds): made under a temporary name and renamed into place,
 *           so a client never maps it uninitialised; and exit.
 *   hold    server: accept -k N connections and keep them, idle, until
 *           killed.  Client: open -k N connections (-r FILE once all are
 *           up), or with -F fill one connection: send until the kernel
 *           takes no more (server never reads), print bytes=N and the
 *           socket's charged send memory (SO_MEMINFO) wmem=N, create -r
 *           FILE, and keep everything until killed.  The server, with
 *           -o FILE, writes rmem=N there every 100 ms: the receive memory
 *           charged to the sockets it accepted.
 *
 * Options: -r FILE (created when listening / connected / filled),
 * -t SECONDS (exit 3 after that), -B ADDR (client: bind the source),
 * -W CTL,ACK or -W - (stream and pp clients: the measured part only,
 * from the first send to the end of the transfer or the last round trip,
 * without process start and connect: cpu_jiffies=N, the whole machine's
 * busy time in /proc/stat units over that part, appended to the client's
 * output line; with CTL,ACK also "enable" and "disable" to the control
 * FIFO CTL of a "perf stat -D -1 --control fifo:CTL,ACK", each answered
 * on ACK within 5 s, else perf is left alone and a warning printed).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <linux/mrc.h>
#include <linux/sock_diag.h>

#ifndef IPPROTO_MPTCP
#define IPPROTO_MPTCP 262
#endif

enum proto { P_MRC, P_TCP, P_MPTCP, P_UDP };
static enum proto proto = P_TCP;
static const char *mode = "stream", *outfile, *ready_file, *bind_src, *barrier_file;
static unsigned int size = 65536, conns = 1, fill;
static unsigned long long count = 10000, duration_ms = 5000, round_ms = 10000;
static int mrc_family;
static const char *perf_ctl;
static int perf_ctl_fd = -1, perf_ack_fd = -1;
static unsigned long long cpu0;

static unsigned long long now_us(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return ts.tv_sec * 1000000ULL + ts.tv_nsec / 1000;
}

/*
 * Busy time of the whole machine: user + nice + system + irq + softirq,
 * in /proc/stat units; -1 if unreadable.
 */
static unsigned long long cpu_busy(void)
{
	unsigned long long v[7];
	FILE *f = fopen("/proc/stat", "r");
	int n;

	if (!f)
		return -1ULL;
	n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
		   &v[3], &v[4], &v[5], &v[6]);
	fclose(f);
	return n == 7 ? v[0] + v[1] + v[2] + v[5] + v[6] : -1ULL;
}

static void perf_close(void)
{
	close(perf_ctl_fd);
	close(perf_ack_fd);
	perf_ctl_fd = -1;
	perf_ack_fd = -1;
}

/* -W CTL,ACK: one command to perf's control FIFO, and perf's answer. */
static void perf_cmd(const char *cmd)
{
	struct pollfd p = { .events = POLLIN };
	char ack[64];
	ssize_t n;

	if (perf_ctl_fd < 0)
		return;
	n = dprintf(perf_ctl_fd, "%s\n", cmd);
	p.fd = perf_ack_fd;
	if (n > 0 && poll(&p, 1, 5000) == 1 && read(perf_ack_fd, ack, sizeof(ack)) > 0)
		return;
	fprintf(stderr, "mrcpp: perf did not answer \"%s\": events not counted\n", cmd);
	perf_close();
}

static void perf_open(void)
{
	char ctl[256], *ack;

	if (!perf_ctl || !strcmp(perf_ctl, "-"))
		return;
	snprintf(ctl, sizeof(ctl), "%s", perf_ctl);
	ack = strchr(ctl, ',');
	if (!ack) {
		fprintf(stderr, "mrcpp: -W CTL,ACK or -W -\n");
		exit(2);
	}
	*ack++ = 0;
	/* O_RDWR: never blocks on the open of a FIFO */
	perf_ctl_fd = open(ctl, O_RDWR);
	if (perf_ctl_fd < 0) {
		perror(ctl);
		exit(2);
	}
	perf_ack_fd = open(ack, O_RDWR);
	if (perf_ack_fd < 0) {
		perror(ack);
		exit(2);
	}
}

static void measure_start(void)
{
	perf_cmd("enable");
	cpu0 = cpu_busy();
}

/* Ends the measured part; returns " cpu_jiffies=N" (or "" without -W). */
static const char *measure_end(void)
{
	static char s[64];
	unsigned long long c = cpu_busy();

	perf_cmd("disable");
	if (!perf_ctl || c == -1ULL || cpu0 == -1ULL)
		return "";
	snprintf(s, sizeof(s), " cpu_jiffies=%llu", c - cpu0);
	return s;
}

/*
 * " mrc_tx_pkts=N mrc_tx_bursts=N mrc_tx_burst_pkts=N mrc_retrans=N" of
 * an mrc socket (what it sent, and how much of it as UDP GSO bursts), or
 * "" for another protocol or a kernel without the counters.
 */
static const char *mrc_tx_counters(int fd)
{
	static char s[160];
	struct mrc_info info;
	socklen_t len = sizeof(info);

	s[0] = 0;
	if (proto != P_MRC || getsockopt(fd, SOL_MRC, MRC_INFO, &info, &len) ||
	    len < offsetof(struct mrc_info, tx_burst_pkts) + sizeof(info.tx_burst_pkts))
		return s;
	snprintf(s, sizeof(s),
		 " mrc_tx_pkts=%llu mrc_tx_bursts=%llu mrc_tx_burst_pkts=%llu mrc_retrans=%llu",
		 (unsigned long long)info.tx_pkts, (unsigned long long)info.tx_bursts,
		 (unsigned long long)info.tx_burst_pkts, (unsigned long long)info.retrans);
	return s;
}

static void touch(const char *f)
{
	FILE *fp = f ? fopen(f, "w") : NULL;

	if (fp)
		fclose(fp);
}

static void die(const char *what)
{
	fprintf(stderr, "mrcpp: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* One SO_MEMINFO counter of @fd (bytes charged to the socket), or 0. */
static unsigned long long meminfo(int fd, int which)
{
	__u32 mi[SK_MEMINFO_VARS] = { 0 };
	socklen_t len = sizeof(mi);

	if (getsockopt(fd, SOL_SOCKET, SO_MEMINFO, mi, &len) || len <= which * sizeof(mi[0]))
		return 0;
	return mi[which];
}

/* Replace @f's contents with "rmem=N". */
static void write_file(const char *f, unsigned long long rmem)
{
	char tmp[4096];
	FILE *fp;

	snprintf(tmp, sizeof(tmp), "%s.tmp", f);
	fp = fopen(tmp, "w");
	if (!fp)
		return;
	fprintf(fp, "rmem=%llu\n", rmem);
	fclose(fp);
	rename(tmp, f);
}

/*
 * -M barrier: a barrier for n processes in a file, with a deadline:
 * a process-shared robust mutex and a condition variable on
 * CLOCK_MONOTONIC.  A wait that runs out breaks the barrier: that wait
 * and every later one fail at once, so no client waits forever for a
 * stuck one (and a barrier file serves one set of rounds).  Not for one
 * killed while it waits here: glibc's shared condition variable keeps
 * its reference and the broadcast that breaks the barrier blocks; the
 * others then end at their -t limit and their missing rounds count as
 * failed (report.py).  A futex or polling barrier would not.
 */
struct rbar {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned int n;		/* processes */
	unsigned int waiting;	/* arrived in this generation */
	unsigned int gen;	/* releases so far */
	unsigned int broken;
};

/*
 * A new file @f (a new inode, so that no process of an earlier set still
 * waits on it), initialised under a temporary name and renamed into
 * place: a client that opens @f never sees it zero-filled.
 */
static int barrier_create(const char *f, unsigned int n)
{
	pthread_mutexattr_t ma;
	pthread_condattr_t ca;
	struct rbar *b;
	char tmp[4096];
	int fd;

	snprintf(tmp, sizeof(tmp), "%s.%d.tmp", f, (int)getpid());
	unlink(tmp);
	fd = open(tmp, O_RDWR | O_CREAT | O_EXCL, 0600);
	if (fd < 0 || ftruncate(fd, sizeof(*b)))
		die(tmp);
	b = mmap(NULL, sizeof(*b), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (b == MAP_FAILED)
		die("mmap");
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED);
	/* a client killed while holding it must not block the others */
	pthread_mutexattr_setrobust(&ma, PTHREAD_MUTEX_ROBUST);
	pthread_condattr_init(&ca);
	pthread_condattr_setpshared(&ca, PTHREAD_PROCESS_SHARED);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	errno = pthread_mutex_init(&b->lock, &ma);
	if (errno)
		die("pthread_mutex_init");
	errno = pthread_cond_init(&b->cond, &ca);
	if (errno)
		die("pthread_cond_init");
	pthread_mutexattr_destroy(&ma);
	pthread_condattr_destroy(&ca);
	b->n = n;
	if (munmap(b, sizeof(*b)) || close(fd) || rename(tmp, f))
		die(f);
	return 0;
}

static struct rbar *barrier_open(const char *f)
{
	struct rbar *b;
	int fd = open(f, O_RDWR);

	if (fd < 0)
		die(f);
	b = mmap(NULL, sizeof(*b), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (b == MAP_FAILED)
		die("mmap");
	close(fd);
	return b;
}

/* After EOWNERDEAD: a client died holding the lock; the set is broken. */
static void barrier_owner_died(struct rbar *b)
{
	b->broken = 1;
	pthread_mutex_consistent(&b->lock);
}

/*
 * Wait until all n processes arrived, at most @limit_us: NULL once
 * released; "barrier-timeout" if this wait ran out (it breaks the
 * barrier), "barrier-broken" if the barrier was broken (by another's
 * wait, or by a client that died holding its lock).
 */
static const char *barrier_wait(struct rbar *b, unsigned long long limit_us)
{
	const char *st = NULL;
	unsigned long long dl = now_us(CLOCK_MONOTONIC) + limit_us;
	struct timespec ts = { .tv_sec = dl / 1000000, .tv_nsec = dl % 1000000 * 1000 };
	unsigned int gen;
	int e = pthread_mutex_lock(&b->lock);

	if (e == EOWNERDEAD)
		barrier_owner_died(b);
	else if (e)
		return "barrier-broken";
	gen = b->gen;
	if (b->broken) {
		st = "barrier-broken";
	} else if (++b->waiting == b->n) {
		b->waiting = 0;
		b->gen++;
		pthread_cond_broadcast(&b->cond);
	} else {
		while (b->gen == gen && !b->broken) {
			e = pthread_cond_timedwait(&b->cond, &b->lock, &ts);
			if (e == EOWNERDEAD)
				barrier_owner_died(b);
			else if (e)
				break;	/* ETIMEDOUT (or a bug): give up */
		}
		/* not released (if only just, it was): give up, for all */
		if (b->gen == gen) {
			st = b->broken ? "barrier-broken" : "barrier-timeout";
			b->broken = 1;
			pthread_cond_broadcast(&b->cond);
		}
	}
	pthread_mutex_unlock(&b->lock);
	return st;
}

static socklen_t mkaddr(const char *s, int port, struct sockaddr_storage *ss)
{
	memset(ss, 0, sizeof(*ss));
	if (proto == P_MRC) {
		struct sockaddr_mrc *a = (struct sockaddr_mrc *)ss;
		struct in_addr v4;

		a->smrc_family = mrc_family;
		a->smrc_port = htons(port);
		if (s && inet_pton(AF_INET, s, &v4) == 1) {
			a->smrc_addr.s6_addr[10] = 0xff;
			a->smrc_addr.s6_addr[11] = 0xff;
			memcpy(&a->smrc_addr.s6_addr[12], &v4, 4);
		} else if (s && inet_pton(AF_INET6, s, &a->smrc_addr) != 1) {
			fprintf(stderr, "mrcpp: bad address %s\n", s);
			exit(2);
		}
		return sizeof(*a);
	}
	{
		struct sockaddr_in *a = (struct sockaddr_in *)ss;

		a->sin_family = AF_INET;
		a->sin_port = htons(port);
		if (s && inet_pton(AF_INET, s, &a->sin_addr) != 1) {
			fprintf(stderr, "mrcpp: bad address %s\n", s);
			exit(2);
		}
		return sizeof(*a);
	}
}

static int mksock(void)
{
	int fd, one = 1;

	switch (proto) {
	case P_MRC:
		fd = socket(mrc_family, SOCK_SEQPACKET, 0);
		break;
	case P_TCP:
		fd = socket(AF_INET, SOCK_STREAM, 0);
		break;
	case P_MPTCP:
		fd = socket(AF_INET, SOCK_STREAM, IPPROTO_MPTCP);
		break;
	default:
		fd = socket(AF_INET, SOCK_DGRAM, 0);
	}
	if (fd < 0)
		die("socket");
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (proto == P_TCP || proto == P_MPTCP)
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return fd;
}

/* Read exactly n bytes (stream) or one message (mrc); 0 at EOF. */
static ssize_t readall(int fd, char *buf, size_t n)
{
	size_t got = 0;

	if (proto == P_MRC || proto == P_UDP)
		return recv(fd, buf, n, 0);
	while (got < n) {
		ssize_t r = recv(fd, buf + got, n - got, 0);

		if (r <= 0)
			return r;
		got += r;
	}
	return got;
}

static int writeall(int fd, const char *buf, size_t n)
{
	size_t done = 0;

	while (done < n) {
		ssize_t w = send(fd, buf + done, n - done, MSG_NOSIGNAL);

		if (w < 0)
			return -1;
		done += w;
	}
	return 0;
}

static int cmp(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a;
	unsigned long long y = *(const unsigned long long *)b;

	return x < y ? -1 : x > y;
}

static void report_samples(unsigned long long *v, unsigned long long n,
			   const char *measured)
{
	FILE *f = outfile ? fopen(outfile, "w") : NULL;
	unsigned long long i;

	for (i = 0; f && i < n; i++)
		fprintf(f, "%llu\n", v[i]);
	if (f)
		fclose(f);
	qsort(v, n, sizeof(*v), cmp);
	printf("n=%llu p50_us=%llu p99_us=%llu max_us=%llu%s\n", n,
	       n ? v[n / 2] : 0, n ? v[n * 99 / 100] : 0, n ? v[n - 1] : 0, measured);
	fflush(stdout);
}

/* ---- server --------------------------------------------------------------- */

static void serve_stream(int c)
{
	char *buf = malloc(size + 1);
	unsigned long long first = 0, last = 0, bytes = 0, gap = 0, gap_at = 0, t;
	unsigned long long nb = 0, base = 0, cap = 1 << 16;
	unsigned long long *bins = calloc(cap, sizeof(*bins));
	ssize_t r;

	while ((r = recv(c, buf, size + 1, 0)) > 0) {
		t = now_us(CLOCK_REALTIME);
		if (!first) {
			first = t;
			base = t / 10000;
		} else if (t - last > gap) {
			gap = t - last;
			gap_at = last;
		}
		last = t;
		bytes += r;
		nb = t / 10000 - base;
		if (nb >= cap) {
			bins = realloc(bins, 2 * nb * sizeof(*bins));
			memset(bins + cap, 0, (2 * nb - cap) * sizeof(*bins));
			cap = 2 * nb;
		}
		bins[nb] += r;
	}
	if (outfile) {
		FILE *f = fopen(outfile, "w");
		unsigned long long i;

		for (i = 0; f && first && i <= nb; i++)
			fprintf(f, "%llu %llu\n", (base + i) * 10, bins[i]);
		if (f)
			fclose(f);
	}
	printf("bytes=%llu elapsed_ms=%llu mbit=%.2f gap_ms=%.1f gap_at_ms=%llu",
	       bytes, (last - first) / 1000,
	       last > first ? bytes * 8.0 / (last - first) : 0.0, gap / 1000.0,
	       gap_at / 1000);
	printf(" first_ms=%llu last_ms=%llu\n", first / 1000, last / 1000);
	fflush(stdout);
}

static void serve_pp(int c)
{
	char buf[65536];
	ssize_t r;

	while ((r = readall(c, buf, proto == P_MRC ? sizeof(buf) : size)) > 0)
		if (writeall(c, buf, r))
			break;
}

/*
 * -M rounds: one round's connection: SIZE bytes in, one byte out, EOF.
 * At most 3 x -R + 5 s without data (the client's barrier wait and its
 * round) before giving up on the connection: the next round's waits.
 */
static void serve_round(int c)
{
	unsigned long long lim = 3 * round_ms * 1000ULL + 5000000;
	struct timeval tv = { .tv_sec = lim / 1000000, .tv_usec = lim % 1000000 };
	char *buf = malloc(65537);
	unsigned long long got = 0;
	ssize_t r = 1;

	setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	while (got < size && (r = recv(c, buf, 65537, 0)) > 0)
		got += r;
	if (got >= size && !writeall(c, "k", 1))
		while (recv(c, buf, 65537, 0) > 0)
			;
	free(buf);
}

static int server(const char *addr, int port)
{
	struct sockaddr_storage ss;
	socklen_t len = mkaddr(addr, port, &ss);
	int fd = mksock(), c;
	unsigned int k;

	if (bind(fd, (struct sockaddr *)&ss, len))
		die("bind");
	if (proto == P_UDP) {
		char buf[65536];
		struct sockaddr_storage from;
		socklen_t fl;
		ssize_t r;

		touch(ready_file);
		for (;;) {
			fl = sizeof(from);
			r = recvfrom(fd, buf, sizeof(buf), 0, (struct sockaddr *)&from, &fl);
			if (r < 0)
				die("recvfrom");
			if (r == 1 && buf[0] == 'q')
				return 0;
			sendto(fd, buf, r, 0, (struct sockaddr *)&from, fl);
		}
	}
	if (listen(fd, 1024))
		die("listen");
	touch(ready_file);
	if (!strcmp(mode, "hold")) {
		int *held = calloc(conns, sizeof(*held));

		for (k = 0; k < conns; k++) {
			held[k] = accept(fd, NULL, NULL);
			if (held[k] < 0)
				die("accept");
		}
		for (;;) {
			unsigned long long rmem = 0;

			for (k = 0; outfile && k < conns; k++)
				rmem += meminfo(held[k], SK_MEMINFO_RMEM_ALLOC);
			if (outfile)
				write_file(outfile, rmem);
			usleep(100000);
		}
	}
	if (!strcmp(mode, "rounds")) {
		unsigned long long i;

		for (i = 0; i < count; i++) {
			c = accept(fd, NULL, NULL);
			if (c < 0)
				die("accept");
			serve_round(c);
			close(c);
		}
		return 0;
	}
	c = accept(fd, NULL, NULL);
	if (c < 0)
		die("accept");
	if (!strcmp(mode, "stream"))
		serve_stream(c);
	else
		serve_pp(c);
	close(c);
	return 0;
}

/* ---- client --------------------------------------------------------------- */

static int do_connect(const char *addr, int port)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int fd = mksock();

	if (bind_src) {
		len = mkaddr(bind_src, 0, &ss);
		if (bind(fd, (struct sockaddr *)&ss, len))
			die("bind");
	}
	len = mkaddr(addr, port, &ss);
	if (connect(fd, (struct sockaddr *)&ss, len))
		die("connect");
	return fd;
}

/*
 * Packets retransmitted on connection @fd (mrc: MRC_INFO, TCP: TCP_INFO),
 * or -1 (MPTCP: no count for the whole connection).
 */
static long long retrans(int fd)
{
	struct mrc_info mi;
	struct tcp_info ti;
	socklen_t len;

	if (proto == P_MRC) {
		len = sizeof(mi);
		if (!getsockopt(fd, SOL_MRC, MRC_INFO, &mi, &len) &&
		    len >= offsetof(struct mrc_info, retrans) + sizeof(mi.retrans))
			return mi.retrans;
	} else if (proto == P_TCP) {
		len = sizeof(ti);
		if (!getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len) &&
		    len >= offsetof(struct tcp_info, tcpi_total_retrans) +
			   sizeof(ti.tcpi_total_retrans))
			return ti.tcpi_total_retrans;
	}
	return -1;
}

/*
 * -M rounds: the deadline of the blocking call in progress.  From it on,
 * SIGUSR1 (its handler without SA_RESTART) every 100 ms interrupts
 * whatever connect(), send() or recv() blocks, for every protocol (a
 * socket's SO_SNDTIMEO does not bound every protocol's connect()); the
 * repeats catch a call entered just after a signal.
 */
static timer_t round_timer;

static void on_deadline(int sig)
{
	(void)sig;
}

static void watchdog_init(void)
{
	struct sigaction sa = { .sa_handler = on_deadline };
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGUSR1 };

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, NULL) || timer_create(CLOCK_MONOTONIC, &ev, &round_timer))
		die("timer_create");
}

/* Arm for @deadline (CLOCK_MONOTONIC us), or disarm with 0. */
static void watchdog(unsigned long long deadline)
{
	struct itimerspec it = { 0 };

	if (deadline) {
		it.it_value.tv_sec = deadline / 1000000;
		it.it_value.tv_nsec = deadline % 1000000 * 1000;
		it.it_interval.tv_nsec = 100000000;
	}
	/* a signal generated before the disarm is handled before this returns */
	if (timer_settime(round_timer, TIMER_ABSTIME, &it, NULL))
		die("timer_settime");
}

/*
 * -M rounds: one round, on a new connection; "ok", or what failed, after
 * a warning.  A failed round is recorded and the client goes on to the
 * barrier, so that the others do not wait for it; only a broken barrier
 * ("barrier-timeout", "barrier-broken") ends the client's rounds.
 */
static const char *one_round(const char *addr, int port, struct rbar *b, char *buf,
			     unsigned long long *t, long long *rtx)
{
	static char status[32];
	unsigned long long lim = round_ms * 1000ULL, sent = 0, n;
	struct sockaddr_storage ss;
	socklen_t len = mkaddr(addr, port, &ss);
	const char *what = "connect", *bst;
	int fd = mksock(), err = 0;
	ssize_t r;

	t[0] = now_us(CLOCK_MONOTONIC);
	watchdog(t[0] + lim);
	if (connect(fd, (struct sockaddr *)&ss, len))
		err = errno == EINTR ? ETIMEDOUT : errno;
	watchdog(0);
	t[1] = now_us(CLOCK_MONOTONIC);
	/* at the barrier even after a failure: the others wait for us */
	bst = barrier_wait(b, 2 * lim + 5000000);
	t[2] = now_us(CLOCK_MONOTONIC);
	t[3] = t[2];
	if (bst) {
		fprintf(stderr, "mrcpp: round: %s: no more rounds\n", bst);
		*rtx = retrans(fd);
		close(fd);
		return bst;
	}
	if (!err)
		watchdog(t[2] + lim);
	while (!err && sent < size) {
		what = "send";
		if (now_us(CLOCK_MONOTONIC) >= t[2] + lim) {
			err = ETIMEDOUT;
			break;
		}
		n = size - sent < 65536 ? size - sent : 65536;
		r = send(fd, buf, n, MSG_NOSIGNAL);
		if (r < 0 && errno != EINTR)
			err = errno;
		else if (r > 0)
			sent += r;	/* mrc: a whole message; TCP: maybe part */
	}
	while (!err) {
		what = "recv";
		if (now_us(CLOCK_MONOTONIC) >= t[2] + lim) {
			err = ETIMEDOUT;
			break;
		}
		r = recv(fd, buf, 1, 0);
		if (r == 1)
			break;
		if (!r)
			err = ECONNRESET;	/* EOF: no reply */
		else if (errno != EINTR)
			err = errno;
	}
	watchdog(0);
	t[3] = now_us(CLOCK_MONOTONIC);
	*rtx = retrans(fd);
	close(fd);
	if (!err)
		return "ok";
	fprintf(stderr, "mrcpp: round: %s: %s\n", what, strerror(err));
	snprintf(status, sizeof(status), "%s%s", what, err == ETIMEDOUT ? "-timeout" : "");
	return status;
}

static int client_rounds(const char *addr, int port)
{
	unsigned long long *v = calloc(count + 1, sizeof(*v)), t[4], i, n = 0, aborted = 0;
	FILE *f = outfile ? fopen(outfile, "w") : NULL;
	char *buf = calloc(1, 65536), rtxs[32] = "";
	long long rtx, rtx_sum = 0;
	const char *st = "ok";
	struct rbar *b;

	if (!barrier_file) {
		fprintf(stderr, "mrcpp: -M rounds needs -P FILE (made by -M barrier)\n");
		return 2;
	}
	if (outfile && !f)
		die(outfile);
	b = barrier_open(barrier_file);
	watchdog_init();
	for (i = 0; i < count; i++) {
		if (!strncmp(st, "barrier", 7)) {
			/* the barrier is broken: the rest are failed too */
			aborted++;
			if (f)
				fprintf(f, "%llu 0 0 0 -1 aborted\n", i);
			continue;
		}
		st = one_round(addr, port, b, buf, t, &rtx);
		if (rtx >= 0 && rtx_sum >= 0)
			rtx_sum += rtx;
		else
			rtx_sum = -1;
		if (strcmp(st, "ok")) {
			if (f)
				fprintf(f, "%llu 0 0 %llu %lld %s\n", i, t[1] - t[0], rtx, st);
		} else {
			v[n++] = t[3] - t[2];
			if (f)
				fprintf(f, "%llu %llu %llu %llu %lld ok\n", i, t[2], t[3],
					t[1] - t[0], rtx);
		}
		/* each round's line at once: a client killed later loses none */
		if (f)
			fflush(f);
	}
	if (f)
		fclose(f);
	qsort(v, n, sizeof(*v), cmp);
	if (rtx_sum >= 0)
		snprintf(rtxs, sizeof(rtxs), " retrans=%lld", rtx_sum);
	printf("rounds=%llu failed=%llu aborted=%llu bytes=%llu", count, count - n, aborted,
	       n * size);
	printf(" p50_us=%llu p99_us=%llu max_us=%llu%s\n", n ? v[n / 2] : 0,
	       n ? v[n * 99 / 100] : 0, n ? v[n - 1] : 0, rtxs);
	fflush(stdout);
	return n == count ? 0 : 1;
}

static int client(const char *addr, int port)
{
	unsigned long long t0, *v, n = 0, i;
	char *buf = calloc(1, size + 1);
	const char *measured = "";
	int fd;

	if (!strcmp(mode, "hold")) {
		for (i = 0; i < conns; i++)
			do_connect(addr, port);
		if (fill) {
			unsigned long long bytes = 0, idle = 0;
			int fl;

			fd = do_connect(addr, port);
			fl = fcntl(fd, F_GETFL);
			fcntl(fd, F_SETFL, fl | O_NONBLOCK);
			/* until 1 s passes with nothing taken */
			while (idle < 100) {
				ssize_t w = send(fd, buf, size, MSG_NOSIGNAL);

				if (w > 0) {
					bytes += w;
					idle = 0;
				} else {
					usleep(10000);
					idle++;
				}
			}
			printf("bytes=%llu wmem=%llu\n", bytes,
			       meminfo(fd, SK_MEMINFO_WMEM_ALLOC) +
			       meminfo(fd, SK_MEMINFO_WMEM_QUEUED));
			fflush(stdout);
		}
		touch(ready_file);
		pause();
		return 0;
	}
	if (!strcmp(mode, "rounds"))
		return client_rounds(addr, port);
	fd = do_connect(addr, port);
	touch(ready_file);
	perf_open();
	if (!strcmp(mode, "stream")) {
		unsigned long long bytes = 0;

		measure_start();
		t0 = now_us(CLOCK_MONOTONIC);
		while (now_us(CLOCK_MONOTONIC) - t0 < duration_ms * 1000) {
			if (writeall(fd, buf, size))
				die("send");
			bytes += size;
		}
		shutdown(fd, SHUT_WR);
		while (recv(fd, buf, size, 0) > 0)
			;
		printf("sent=%llu%s", bytes, measure_end());
		printf("%s\n", mrc_tx_counters(fd));
		return 0;
	}
	/* pp */
	v = malloc(sizeof(*v) * (count + 1));
	if (proto == P_UDP) {
		struct timeval tv = { .tv_sec = 1 };

		setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	}
	measure_start();
	for (i = 0; i < count; i++) {
		t0 = now_us(CLOCK_MONOTONIC);
		if (writeall(fd, buf, size))
			die("send");
		if (readall(fd, buf, size) <= 0) {
			if (proto == P_UDP)
				continue;	/* lost: not a sample */
			die("recv");
		}
		v[n++] = now_us(CLOCK_MONOTONIC) - t0;
	}
	measured = measure_end();
	if (proto == P_UDP)
		send(fd, "q", 1, 0);
	shutdown(fd, SHUT_WR);
	report_samples(v, n, measured);
	return 0;
}

static void timeout(int sig)
{
	(void)sig;
	_exit(3);
}

int main(int argc, char **argv)
{
	const char *caddr = NULL, *baddr = NULL;
	int listen_mode = 0, port = 0, opt;

	while ((opt = getopt(argc, argv, "T:lc:b:p:M:s:n:D:k:Fo:r:t:B:W:P:R:")) != -1) {
		switch (opt) {
		case 'T':
			proto = !strcmp(optarg, "mrc") ? P_MRC :
				!strcmp(optarg, "mptcp") ? P_MPTCP :
				!strcmp(optarg, "udp") ? P_UDP : P_TCP;
			break;
		case 'l':
			listen_mode = 1;
			break;
		case 'c':
			caddr = optarg;
			break;
		case 'b':
			baddr = optarg;
			break;
		case 'p':
			port = atoi(optarg);
			break;
		case 'M':
			mode = optarg;
			break;
		case 's':
			size = strtoul(optarg, NULL, 0);
			break;
		case 'n':
			count = strtoull(optarg, NULL, 0);
			break;
		case 'D':
			duration_ms = strtod(optarg, NULL) * 1000;
			break;
		case 'k':
			conns = strtoul(optarg, NULL, 0);
			break;
		case 'F':
			fill = 1;
			break;
		case 'o':
			outfile = optarg;
			break;
		case 'r':
			ready_file = optarg;
			break;
		case 't':
			signal(SIGALRM, timeout);
			alarm(atoi(optarg));
			break;
		case 'B':
			bind_src = optarg;
			break;
		case 'W':
			perf_ctl = optarg;
			break;
		case 'P':
			barrier_file = optarg;
			break;
		case 'R':
			round_ms = strtoull(optarg, NULL, 0);
			break;
		default:
			fprintf(stderr, "usage: see the comment at the top of mrcpp.c\n");
			return 2;
		}
	}
	if (!strcmp(mode, "barrier")) {
		if (!barrier_file || !conns) {
			fprintf(stderr, "mrcpp: -M barrier needs -P FILE and -k N\n");
			return 2;
		}
		return barrier_create(barrier_file, conns);
	}
	if ((!listen_mode && !caddr) || !port || !size) {
		fprintf(stderr, "mrcpp: need -l or -c ADDR, and -p PORT\n");
		return 2;
	}
	if (strcmp(mode, "stream") && strcmp(mode, "pp") && strcmp(mode, "rounds") &&
	    strcmp(mode, "hold")) {
		fprintf(stderr, "mrcpp: unknown mode %s\n", mode);
		return 2;
	}
	if (!round_ms) {
		fprintf(stderr, "mrcpp: -R needs a time limit in ms\n");
		return 2;
	}
	if (proto == P_MRC) {
		FILE *f = fopen(MRC_FAMILY_SYSFS, "r");

		if (!f || fscanf(f, "%d", &mrc_family) != 1) {
			fprintf(stderr, "mrcpp: cannot read %s\n", MRC_FAMILY_SYSFS);
			return 2;
		}
		fclose(f);
	}
	signal(SIGTERM, timeout);
	return listen_mode ? server(baddr, port) : client(caddr, port);
}
