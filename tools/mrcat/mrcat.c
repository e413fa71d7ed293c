// SPDX-License-Identifier: GPL-2.0
/*
 * mrcat - send and receive messages over AF_MRC, verifying every byte.
 *
 *   mrcat -l -p PORT [-b ADDR] [-k N] [options]       receive (listen)
 *   mrcat -c ADDR -p PORT [options]                   send (connect)
 *
 * Both sides derive message sizes and contents from the same seed, so the
 * receiver checks each message's length and every byte without anything
 * else on the wire.  The last line printed is a summary:
 *   role=... msgs=N bytes=N hash=HEX errors=N elapsed_ms=N mbit=N gap_ms=N
 * gap_ms is the longest time between two messages (the receiver's
 * longest delivery stall; the sender's longest blocked send).
 *
 * Options:
 *   -m COUNT      messages to send/expect (default 100; receiver: 0 = any
 *                 number, until the sender closes)
 *   -D SECONDS    sender: stop this long after connecting (and after -m COUNT
 *                 messages if given)
 *   -s SIZE       message size, or MIN-MAX for seeded random sizes
 *   -S SEED       seed (default 1)
 *   -t SECONDS    give up after this long (exit 3)
 *   -d USEC       sleep this long after each message: a slow reader, or
 *                 a sender that leaves the CPU to others
 *   -B BYTES      SO_SNDBUF and SO_RCVBUF
 *   -i IFINDEX    bind to this mrc device (a sender: connect through it)
 *   -k N          receiver: accept N connections one after another
 *   -q            no per-connection lines, summary only
 *   -r FILE       create FILE once listening (receiver) or connected
 *                 (sender), for scripts
 *   -T FILE       append "EPOCH_MS BYTES" (wall clock, bytes done so far)
 *                 to FILE at most every 100 ms: goodput over time
 *   -h            usage and options
 *
 * SIGUSR1 makes a sender stop as -D would, after the message it is
 * sending: an orderly end, then the summary (a script ends a transfer when
 * its own work is done, not on a clock).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <linux/mrc.h>

static int family;
static unsigned int min_size = 1000, max_size = 1000;
static unsigned long long count = 100, seed = 1, duration_ms;
static unsigned int slow_us, bufsize, ifindex, accepts = 1;
static int quiet;
static const char *ready_file;
static atomic_int stop_sending;	/* lock-free: set by a signal handler */

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

static unsigned int msg_size(unsigned long long i)
{
	if (min_size == max_size)
		return min_size;
	return min_size + mix(seed * 7919 + i) % (max_size - min_size + 1);
}

#define FNV_PRIME	0x100000001b3ULL

/*
 * Message @i's content, @len bytes, into @buf (@check false), or compared
 * with @buf (@check true); either way @buf is hashed into *@hash: FNV-1a
 * over 64-bit words, then the last bytes one by one.  One pass over the
 * message: in a TCG guest, a byte-at-a-time hash and separate passes for
 * filling, comparing and hashing cost as much CPU as the transfer.
 *
 * Return: true if @buf holds message @i (always, when filling).
 */
static bool msg_pass(unsigned char *buf, unsigned int len, unsigned long long i,
		     bool check, unsigned long long *hash)
{
	unsigned long long s = mix(seed ^ (i * 0x9e3779b97f4a7c15ULL));
	unsigned long long h = *hash, v, w;
	unsigned int j, k;
	bool same = true;

	for (j = 0; j + 8 <= len; j += 8) {
		v = mix(s + j);
		if (check) {
			memcpy(&w, buf + j, 8);
			same &= w == v;
		} else {
			memcpy(buf + j, &v, 8);
		}
		h = (h ^ v) * FNV_PRIME;
	}
	if (check && !same)	/* hash what arrived, not what was meant */
		for (h = *hash, k = 0; k < j; k += 8) {
			memcpy(&w, buf + k, 8);
			h = (h ^ w) * FNV_PRIME;
		}
	if (j < len) {
		unsigned char tail[8];

		v = mix(s + j);
		memcpy(tail, &v, 8);
		for (k = 0; j + k < len; k++) {
			if (check)
				same &= buf[j + k] == tail[k];
			else
				buf[j + k] = tail[k];
			h = (h ^ buf[j + k]) * FNV_PRIME;
		}
	}
	*hash = h;
	return same;
}

/* Hash @n bytes as msg_pass() does (a message of the wrong length). */
static unsigned long long fnv(unsigned long long h, const unsigned char *p,
			      size_t n)
{
	unsigned long long w;

	for (; n >= 8; n -= 8, p += 8) {
		memcpy(&w, p, 8);
		h = (h ^ w) * FNV_PRIME;
	}
	while (n--)
		h = (h ^ *p++) * FNV_PRIME;
	return h;
}

static int read_family(void)
{
	FILE *f = fopen(MRC_FAMILY_SYSFS, "r");
	int fam = -1;

	if (!f || fscanf(f, "%d", &fam) != 1) {
		fprintf(stderr, "mrcat: cannot read %s: is mrc loaded?\n", MRC_FAMILY_SYSFS);
		exit(2);
	}
	fclose(f);
	return fam;
}

static void parse_addr(const char *s, struct sockaddr_mrc *a)
{
	struct in_addr v4;

	if (inet_pton(AF_INET6, s, &a->smrc_addr) == 1)
		return;
	if (inet_pton(AF_INET, s, &v4) == 1) {
		memset(&a->smrc_addr, 0, sizeof(a->smrc_addr));
		a->smrc_addr.s6_addr[10] = 0xff;
		a->smrc_addr.s6_addr[11] = 0xff;
		memcpy(&a->smrc_addr.s6_addr[12], &v4, 4);
		return;
	}
	fprintf(stderr, "mrcat: bad address %s\n", s);
	exit(2);
}

static void setbufs(int fd)
{
	if (!bufsize)
		return;
	setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &bufsize, sizeof(bufsize));
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bufsize, sizeof(bufsize));
}

static unsigned long long max_gap_ms, last_ms, trace_ms;
static FILE *trace;

/* One more message done, @bytes in all: the longest gap, the trace. */
static void progress(unsigned long long bytes)
{
	unsigned long long t = now_ms();
	struct timespec ts;

	if (last_ms && t - last_ms > max_gap_ms)
		max_gap_ms = t - last_ms;
	last_ms = t;
	if (trace && t - trace_ms >= 100) {
		trace_ms = t;
		clock_gettime(CLOCK_REALTIME, &ts);
		fprintf(trace, "%llu %llu\n", ts.tv_sec * 1000ULL + ts.tv_nsec / 1000000,
			bytes);
		fflush(trace);
	}
}

static void summary(const char *role, unsigned long long msgs,
		    unsigned long long bytes, unsigned long long hash,
		    unsigned long long errors, unsigned long long ms)
{
	printf("role=%s msgs=%llu bytes=%llu hash=%016llx", role, msgs, bytes, hash);
	printf(" errors=%llu elapsed_ms=%llu mbit=%llu gap_ms=%llu\n", errors, ms,
	       ms ? bytes * 8 / 1000 / ms : 0, max_gap_ms);
	fflush(stdout);
}

static void print_info(int fd, const char *who)
{
	struct mrc_info info;
	socklen_t len = sizeof(info);

	if (quiet || getsockopt(fd, SOL_MRC, MRC_INFO, &info, &len))
		return;
	fprintf(stderr, "mrcat: %s: planes=%u paths=%u seg=%u srtt_us=%u", who,
		info.planes, info.paths, info.seg_size, info.srtt_us);
	fprintf(stderr, " tx_pkts=%llu retrans=%llu rto=%llu",
		(unsigned long long)info.tx_pkts, (unsigned long long)info.retrans,
		(unsigned long long)info.rto);
	fprintf(stderr, " rx_pkts=%llu dups=%llu",
		(unsigned long long)info.rx_pkts, (unsigned long long)info.rx_dups);
	/* a kernel from before bursts fills less */
	if (len >= offsetof(struct mrc_info, tx_burst_pkts) + sizeof(info.tx_burst_pkts))
		fprintf(stderr, " bursts=%llu burst_pkts=%llu",
			(unsigned long long)info.tx_bursts,
			(unsigned long long)info.tx_burst_pkts);
	if (len >= offsetof(struct mrc_info, rx_burst_pkts) + sizeof(info.rx_burst_pkts))
		fprintf(stderr, " rx_bursts=%llu rx_burst_pkts=%llu",
			(unsigned long long)info.rx_bursts,
			(unsigned long long)info.rx_burst_pkts);
	if (len >= offsetof(struct mrc_info, spurious) + sizeof(info.spurious))
		fprintf(stderr, " spurious=%llu reo_mult=%u",
			(unsigned long long)info.spurious, info.reo_mult);
	fputc('\n', stderr);
}

static int do_send(struct sockaddr_mrc *peer)
{
	unsigned long long i, bytes = 0, hash = 0xcbf29ce484222325ULL, h, start, connected;
	unsigned char *buf = malloc(max_size);
	int fd = socket(family, SOCK_SEQPACKET, 0);

	if (fd < 0 || !buf) {
		perror("mrcat: socket");
		return 1;
	}
	setbufs(fd);
	if (ifindex) {
		/* connect() takes the device from the socket's binding */
		struct sockaddr_mrc local = {
			.smrc_family = family,
			.smrc_ifindex = ifindex,
		};

		if (bind(fd, (struct sockaddr *)&local, sizeof(local))) {
			fprintf(stderr, "mrcat: bind: %s\n", strerror(errno));
			return 1;
		}
	}
	start = now_ms();
	if (connect(fd, (struct sockaddr *)peer, sizeof(*peer))) {
		fprintf(stderr, "mrcat: connect: %s\n", strerror(errno));
		return 1;
	}
	connected = now_ms();
	if (ready_file) {
		FILE *f = fopen(ready_file, "w");

		if (f)
			fclose(f);
	}
	last_ms = connected;
	for (i = 0; i < count; i++) {
		unsigned int len = msg_size(i);
		ssize_t n;

		if (atomic_load(&stop_sending) ||
		    (duration_ms && now_ms() - connected >= duration_ms))
			break;
		h = hash;
		msg_pass(buf, len, i, false, &h);
		n = send(fd, buf, len, MSG_NOSIGNAL);
		if (n != (ssize_t)len) {
			fprintf(stderr, "mrcat: send %llu: %s\n", i,
				n < 0 ? strerror(errno) : "short");
			print_info(fd, "sender");
			summary("send", i, bytes, hash, 1, now_ms() - start);
			return 1;
		}
		bytes += len;
		hash = h;
		progress(bytes);
		if (slow_us)
			usleep(slow_us);
	}
	count = i;
	/* Orderly end: our CLOSE, then wait for the receiver's. */
	shutdown(fd, SHUT_WR);
	if (recv(fd, buf, max_size, 0) < 0)
		fprintf(stderr, "mrcat: waiting for the end: %s\n", strerror(errno));
	print_info(fd, "sender");
	close(fd);
	summary("send", count, bytes, hash, 0, now_ms() - start);
	free(buf);
	return 0;
}

static int do_recv_one(int fd, unsigned long long *msgs, unsigned long long *bytes,
		       unsigned long long *hash, unsigned long long *errors)
{
	unsigned char *buf = malloc(max_size + 1);
	unsigned long long i = 0;
	int rc = 0;

	for (;;) {
		ssize_t n = recv(fd, buf, max_size + 1, 0);
		const char *bad;
		unsigned int len;

		if (n == 0)
			break;
		if (n < 0) {
			fprintf(stderr, "mrcat: recv %llu: %s\n", i, strerror(errno));
			rc = 1;
			(*errors)++;
			break;
		}
		len = msg_size(i);
		bad = NULL;
		if ((size_t)n != len) {
			bad = "wrong length";
			*hash = fnv(*hash, buf, n);
		} else if (!msg_pass(buf, len, i, true, hash)) {
			bad = "wrong content";
		}
		if (bad) {
			if (*errors < 5)
				fprintf(stderr, "mrcat: message %llu: %zd bytes, %s\n", i, n, bad);
			(*errors)++;
		}
		*bytes += n;
		(*msgs)++;
		i++;
		progress(*bytes);
		if (slow_us)
			usleep(slow_us);
	}
	if (count && i != count) {
		fprintf(stderr, "mrcat: got %llu messages, expected %llu\n", i, count);
		(*errors)++;
	}
	print_info(fd, "receiver");
	free(buf);
	return rc;
}

static int do_listen(struct sockaddr_mrc *local)
{
	unsigned long long msgs = 0, bytes = 0, errors = 0, start = 0;
	unsigned long long hash = 0xcbf29ce484222325ULL;
	int fd = socket(family, SOCK_SEQPACKET, 0), one = 1;
	unsigned int k;

	if (fd < 0) {
		perror("mrcat: socket");
		return 1;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	setbufs(fd);
	if (bind(fd, (struct sockaddr *)local, sizeof(*local)) || listen(fd, 16)) {
		fprintf(stderr, "mrcat: bind/listen: %s\n", strerror(errno));
		return 1;
	}
	if (!quiet)
		fprintf(stderr, "mrcat: listening on port %u\n", ntohs(local->smrc_port));
	if (ready_file) {
		FILE *f = fopen(ready_file, "w");

		if (f)
			fclose(f);
	}
	for (k = 0; k < accepts; k++) {
		int c = accept(fd, NULL, NULL);

		if (c < 0) {
			fprintf(stderr, "mrcat: accept: %s\n", strerror(errno));
			return 1;
		}
		if (!start)
			start = now_ms();
		last_ms = now_ms();
		do_recv_one(c, &msgs, &bytes, &hash, &errors);
		close(c);
	}
	summary("recv", msgs, bytes, hash, errors, now_ms() - start);
	close(fd);
	return errors ? 1 : 0;
}

/* Every option; mrcat.1 (Documentation/) says the same at length. */
static void print_usage(FILE *f)
{
	fputs("usage: mrcat -l -p PORT [-b ADDR] [-k N] [OPTIONS]   receive\n"
	      "       mrcat -c ADDR -p PORT [-D SECONDS] [OPTIONS]  send\n"
	      "       mrcat -h\n"
	      "OPTIONS: [-m COUNT] [-s SIZE|MIN-MAX] [-S SEED] [-t SECONDS] [-d USEC]\n"
	      "         [-B BYTES] [-i IFINDEX] [-q] [-r FILE] [-T FILE]\n"
	      "  -l          listen and receive, verifying every message\n"
	      "  -c ADDR     connect to ADDR (IPv4 or IPv6 of a rail of the peer) and send\n"
	      "  -p PORT     mrc port to listen on or connect to (1-65535)\n"
	      "  -b ADDR     receiver: bind to this local address (default: any)\n"
	      "  -k N        receiver: accept N connections one after another (default 1)\n"
	      "  -m COUNT    messages to send or expect (default 100; receiver: 0 = any)\n"
	      "  -D SECONDS  sender: stop this long after connecting\n"
	      "  -s SIZE     message size in bytes, or MIN-MAX for seeded random sizes\n"
	      "              (default 1000)\n"
	      "  -S SEED     seed of the sizes and contents (default 1); both ends alike\n"
	      "  -t SECONDS  give up after this long (exit status 3)\n"
	      "  -d USEC     sleep this long after each message\n"
	      "  -B BYTES    SO_SNDBUF and SO_RCVBUF\n"
	      "  -i IFINDEX  bind to this mrc device (a sender: connect through it)\n"
	      "  -q          no per-connection lines, the summary only\n"
	      "  -r FILE     create FILE once listening (receiver) or connected (sender)\n"
	      "  -T FILE     append \"EPOCH_MS BYTES\" to FILE at most every 100 ms\n"
	      "  -h          this help\n"
	      "SIGUSR1 makes a sender stop after the message it is sending.\n"
	      "Exit status: 0 every message verified, 1 an error, 2 usage, 3 timed out.\n",
	      f);
}

static void timeout(int sig)
{
	(void)sig;
	fprintf(stderr, "mrcat: timed out\n");
	_exit(3);
}

static void stop(int sig)
{
	(void)sig;
	atomic_store(&stop_sending, 1);
}

int main(int argc, char **argv)
{
	struct sockaddr_mrc a;
	struct sigaction sa;
	const char *connect_to = NULL, *bind_to = NULL;
	int listen_mode = 0, port = 0, opt, count_set = 0;
	char *dash;

	while ((opt = getopt(argc, argv, "lc:b:p:m:s:S:t:d:D:B:i:k:qr:T:h")) != -1) {
		switch (opt) {
		case 'l':
			listen_mode = 1;
			break;
		case 'c':
			connect_to = optarg;
			break;
		case 'b':
			bind_to = optarg;
			break;
		case 'p':
			port = atoi(optarg);
			break;
		case 'm':
			count = strtoull(optarg, NULL, 0);
			count_set = 1;
			break;
		case 's':
			min_size = strtoul(optarg, &dash, 0);
			max_size = min_size;
			if (*dash == '-')
				max_size = strtoul(dash + 1, NULL, 0);
			break;
		case 'S':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 't':
			signal(SIGALRM, timeout);
			alarm(atoi(optarg));
			break;
		case 'D':
			duration_ms = strtoull(optarg, NULL, 0) * 1000;
			break;
		case 'd':
			slow_us = strtoul(optarg, NULL, 0);
			break;
		case 'B':
			bufsize = strtoul(optarg, NULL, 0);
			break;
		case 'i':
			ifindex = strtoul(optarg, NULL, 0);
			break;
		case 'k':
			accepts = strtoul(optarg, NULL, 0);
			break;
		case 'q':
			quiet = 1;
			break;
		case 'r':
			ready_file = optarg;
			break;
		case 'T':
			trace = fopen(optarg, "a");
			if (!trace) {
				fprintf(stderr, "mrcat: %s: %s\n", optarg, strerror(errno));
				return 2;
			}
			break;
		case 'h':
			print_usage(stdout);
			return 0;
		default:
			print_usage(stderr);
			return 2;
		}
	}
	if ((!listen_mode && !connect_to) || !port || !min_size || max_size < min_size) {
		fprintf(stderr, "mrcat: need -l or -c ADDR, -p PORT, sizes >= 1\n");
		return 2;
	}
	if (duration_ms && !count_set)
		count = ~0ULL;
	/* Restarted, a blocked send() completes; the loop then stops. */
	sa.sa_handler = stop;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	family = read_family();
	memset(&a, 0, sizeof(a));
	a.smrc_family = family;
	a.smrc_port = htons(port);
	if (listen_mode) {
		a.smrc_ifindex = ifindex;
		if (bind_to)
			parse_addr(bind_to, &a);
		return do_listen(&a);
	}
	parse_addr(connect_to, &a);
	return do_send(&a);
}
