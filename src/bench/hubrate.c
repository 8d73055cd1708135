/*
 * hubrate.c - the hub forwarding-rate benchmark (see ipxlab/bench.h and
 * bench/README.md).
 *
 * One call measures one path. The parent forks the processes of the path
 * (plain: sender and receiver; hub: hub, receiver node, sender node), and
 * talks to each over a SOCK_SEQPACKET socketpair: one-byte commands down,
 * one fixed-size message up. Commands:
 *
 *   g  start sending (the sender only)
 *   m  mark: reply with a snapshot; the first mark opens the measurement
 *      window (CPU samples start), the second closes it
 *   p  peek: reply with a snapshot, nothing else
 *   s  stop: the sender stops sending and flushes; reply with the final
 *      snapshot and exit
 *
 * Credits (window > 0) go from the receiver to the sender over a pipe:
 * the receiver writes its cumulative delivered count (8 bytes) whenever
 * another quarter window has arrived.
 *
 * Every child dies with the parent (PR_SET_PDEATHSIG), has an alarm as a
 * last resort, and the parent kills and reaps all of them on any error.
 */
#include "ipxlab/bench.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
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

#include "ipxlab/bench_harness.h"
#include "ipxlab/err.h"
#include "ipxlab/hub.h"
#include "ipxlab/hub_capture.h"
#include "ipxlab/ipx.h"
#include "ipxlab/link.h"
#include "ipxlab/link_udp.h"
#include "ipxlab/loop.h"
#include "ipxlab/node.h"

#include "bench_util.h"

#define BATCH 64		/* per sendmmsg/recvmmsg, as the link does */
#define SOCKBUF (1 << 20)	/* socket buffers, as the link sets them */
#define BENCH_SOCKET 0x4545	/* the receiver node's IPX socket */
#define IDLE_WAIT (20 * IPX_MSEC)	/* children's longest sleep */
#define READY_MS 8000		/* registration included */
#define REPLY_MS 3000
#define EXIT_MS 2000
#define DRAIN_STEP_MS 10
#define DRAIN_MAX_MS 1000
#define STALL_NS 200000000ull	/* no credit this long: assume loss */

enum { CMD_GO = 'g', CMD_MARK = 'm', CMD_PEEK = 'p', CMD_STOP = 's' };
enum { MSG_READY = 1, MSG_SNAP, MSG_ERROR };

struct snap {
	uint64_t t_ns;
	uint64_t packets;	/* sender: sent; receiver: delivered;
				 * hub: relayed */
	uint64_t bytes;
	uint64_t user_ns, sys_ns, vcsw, ivcsw;
	uint64_t wakeups;	/* turns of the process's main loop */
	uint64_t aux[4];	/* sender: send errors, stalls;
				 * hub: rx, tx, drops */
};

struct msg {
	uint32_t type;
	int32_t cpu;
	struct snap snap;
	uint64_t samples[IPX_BENCH_MAX_CPUS];
	uint64_t nsamples;
	uint16_t port;		/* READY: hub or plain receiver UDP port */
	struct ipx_addr addr;	/* READY: receiver node address */
	char text[256];		/* ERROR */
};

/* ---- small helpers ---- */

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000ull +
	       (uint64_t)tv->tv_usec * 1000ull;
}

const char *ipx_bench_path_name(enum ipx_bench_path path)
{
	return path == IPX_BENCH_HUB ? "hub" : "plain";
}

const char *ipx_bench_role_name(enum ipx_bench_role role)
{
	switch (role) {
	case IPX_BENCH_SENDER:
		return "sender";
	case IPX_BENCH_HUBPROC:
		return "hub";
	case IPX_BENCH_RECEIVER:
		return "receiver";
	default:
		return "?";
	}
}

void ipx_bench_opts_default(struct ipx_bench_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->seconds = IPX_BENCH_DEFAULT_SECONDS;
	o->warmup = IPX_BENCH_DEFAULT_WARMUP;
	o->payload = IPX_BENCH_DEFAULT_PAYLOAD;
	o->window = ipx_bench_default_window(o->payload);
	for (int p = 0; p < 2; p++)
		for (int i = 0; i < IPX_BENCH_ROLES; i++)
			o->pin[p][i] = -1;
}

unsigned ipx_bench_default_window(size_t payload)
{
	return payload + IPX_HDR_LEN <= 512 ? 1024 : 512;
}

int ipx_bench_cpus_allowed(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return ipx_bench_cpus_online();
	return CPU_COUNT(&set);
}

int ipx_bench_cpus_online(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (int)n : 1;
}

/* ======================================================================
 * Children
 * ====================================================================== */

struct child {
	enum ipx_bench_role role;
	const struct ipx_bench_opts *o;
	int ctl;		/* socketpair end to the parent */
	int credit;		/* receiver: write end; sender: read end */
	bool going, quit, measuring;
	unsigned marks;
	/* counters */
	uint64_t packets, bytes, errors, stalls, wakeups;
	uint64_t credited, reported, credit_step;
	uint64_t last_credit_ns;
	uint64_t samples[IPX_BENCH_MAX_CPUS], nsamples;
	/* hub path */
	struct ipx_loop *loop;
	struct ipx_hub *hub;
	struct ipx_node *node;
	struct ipx_link *link;
	struct ipx_socket *sock;
	struct ipx_addr dst;
	uint64_t link_errors0;
	/* plain path */
	int fd;
	struct sockaddr_in target;	/* hub, or the plain receiver */
	uint8_t *payload;
};

static void child_send(struct child *c, const struct msg *m)
{
	while (send(c->ctl, m, sizeof(*m), MSG_NOSIGNAL) < 0) {
		if (errno != EINTR)
			_exit(1);	/* the parent is gone */
	}
}

static void child_fail(struct child *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
static void child_fail(struct child *c, const char *fmt, ...)
{
	struct msg m;
	va_list ap;

	memset(&m, 0, sizeof(m));
	m.type = MSG_ERROR;
	va_start(ap, fmt);
	vsnprintf(m.text, sizeof(m.text), fmt, ap);
	va_end(ap);
	child_send(c, &m);
	_exit(1);
}

static void fill_snap(struct child *c, struct snap *s)
{
	struct rusage ru;

	memset(s, 0, sizeof(*s));
	s->t_ns = ipx_bench_now_ns();
	if (getrusage(RUSAGE_SELF, &ru) == 0) {
		s->user_ns = tv_ns(&ru.ru_utime);
		s->sys_ns = tv_ns(&ru.ru_stime);
		s->vcsw = (uint64_t)ru.ru_nvcsw;
		s->ivcsw = (uint64_t)ru.ru_nivcsw;
	}
	s->wakeups = c->wakeups;
	switch (c->role) {
	case IPX_BENCH_SENDER:
		if (c->link) {
			/* Queued sends the link's sendmmsg then refused. */
			uint64_t refused =
				c->link->stats.tx_errors - c->link_errors0;

			s->packets = c->packets - c->errors - refused;
			s->aux[0] = c->errors + refused;
		} else {
			s->packets = c->packets - c->errors;
			s->aux[0] = c->errors;
		}
		s->aux[1] = c->stalls;
		break;
	case IPX_BENCH_HUBPROC: {
		const struct ipx_hub_stats *hs = ipx_hub_stats(c->hub);
		uint64_t drops = 0;

		for (int d = 0; d < IPX_HUB_DROP_COUNT; d++)
			drops += hs->drops[d];
		s->packets = hs->unicasts;
		s->bytes = hs->rx_bytes;
		s->aux[0] = hs->rx_packets;
		s->aux[1] = hs->tx_packets;
		s->aux[2] = drops;
		break;
	}
	default:
		s->packets = c->packets;
		s->bytes = c->bytes;
		break;
	}
}

static void send_snap(struct child *c)
{
	struct msg m;

	memset(&m, 0, sizeof(m));
	m.type = MSG_SNAP;
	m.cpu = sched_getcpu();
	fill_snap(c, &m.snap);
	memcpy(m.samples, c->samples, sizeof(m.samples));
	m.nsamples = c->nsamples;
	child_send(c, &m);
}

static void handle_cmd(struct child *c, uint8_t cmd)
{
	switch (cmd) {
	case CMD_GO:
		c->going = true;
		c->last_credit_ns = ipx_bench_now_ns();
		break;
	case CMD_MARK:
		c->marks++;
		if (c->marks == 1) {
			memset(c->samples, 0, sizeof(c->samples));
			c->nsamples = 0;
		}
		c->measuring = c->marks == 1;
		send_snap(c);
		break;
	case CMD_PEEK:
		send_snap(c);
		break;
	case CMD_STOP:
		c->going = false;
		c->quit = true;
		break;
	default:
		break;
	}
}

/* Read every pending command; the parent gone means exit. */
static void read_ctl(struct child *c)
{
	for (;;) {
		uint8_t buf[16];
		ssize_t n = recv(c->ctl, buf, sizeof(buf), MSG_DONTWAIT);

		if (n > 0) {
			for (ssize_t i = 0; i < n; i++)
				handle_cmd(c, buf[i]);
			continue;
		}
		if (n == 0)
			_exit(1);
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN || errno == EWOULDBLOCK)
			return;
		_exit(1);
	}
}

/* Once per turn of a child's main loop. */
static void sample_cpu(struct child *c)
{
	int cpu;

	c->wakeups++;
	if (!c->measuring)
		return;
	cpu = sched_getcpu();
	if (cpu >= 0 && cpu < IPX_BENCH_MAX_CPUS) {
		c->samples[cpu]++;
		c->nsamples++;
	}
}

/*
 * Receiver: return credits every quarter window. That cannot deadlock: a
 * sender blocks only with a whole window unreported, so once it has all
 * arrived at least a quarter is. (A lost datagram could; the sender's
 * stall timer covers that, and counts it.)
 */
static void give_credit(struct child *c)
{
	uint64_t v = c->packets;

	if (c->credit < 0 || v - c->reported < c->credit_step)
		return;
	if (write(c->credit, &v, sizeof(v)) == (ssize_t)sizeof(v))
		c->reported = v;
}

/* Sender: take the newest cumulative count the receiver wrote. */
static void take_credit(struct child *c)
{
	uint64_t v[64];
	ssize_t n;

	while ((n = read(c->credit, v, sizeof(v))) > 0) {
		size_t k = (size_t)n / sizeof(v[0]);

		if (k && v[k - 1] > c->credited) {
			c->credited = v[k - 1];
			c->last_credit_ns = ipx_bench_now_ns();
		}
	}
}

/* How many datagrams the sender may send now. */
static unsigned allowance(struct child *c)
{
	uint64_t sent, inflight;

	if (!c->going)
		return 0;
	if (!c->o->window)
		return BATCH;
	sent = c->packets - c->errors;
	if (c->link)
		sent -= c->link->stats.tx_errors - c->link_errors0;
	inflight = sent > c->credited ? sent - c->credited : 0;
	if (inflight >= c->o->window) {
		/* Credits stopped: something was lost after all. Forgive
		 * what is in flight rather than wait forever. */
		if (ipx_bench_now_ns() - c->last_credit_ns > STALL_NS) {
			c->stalls++;
			c->credited = sent;
			c->last_credit_ns = ipx_bench_now_ns();
			return 0;
		}
		return 0;
	}
	inflight = c->o->window - inflight;
	return inflight < BATCH ? (unsigned)inflight : BATCH;
}

static void child_exit(struct child *c) __attribute__((noreturn));
static void child_exit(struct child *c)
{
	send_snap(c);
	_exit(0);
}

static void set_sockbufs(int fd)
{
	int sz = SOCKBUF;

	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
	setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
}

static void fill_payload(struct child *c, size_t len)
{
	c->payload = malloc(len ? len : 1);
	if (!c->payload)
		child_fail(c, "out of memory");
	for (size_t i = 0; i < len; i++)
		c->payload[i] = (uint8_t)(i * 7 + 1);
}

/* ---- hub path children: the library's hub and nodes ---- */

static void on_ctl(struct ipx_loop *loop, int fd, unsigned events, void *ctx)
{
	(void)loop;
	(void)fd;
	(void)events;
	read_ctl(ctx);
}

static void on_credit(struct ipx_loop *loop, int fd, unsigned events,
		      void *ctx)
{
	(void)loop;
	(void)fd;
	(void)events;
	take_credit(ctx);
}

static void new_loop(struct child *c)
{
	c->loop = ipx_loop_new(NULL);
	if (!c->loop)
		child_fail(c, "cannot create an event loop");
	if (ipx_loop_add_fd(c->loop, c->ctl, IPX_EV_READ, on_ctl, c) != IPX_OK)
		child_fail(c, "cannot watch the control socket");
}

static void run_loop_once(struct child *c, ipx_time wait)
{
	int rc = ipx_loop_run_once(c->loop, wait);

	if (rc < 0 && rc != IPX_EAGAIN)
		child_fail(c, "event loop: %s", ipx_strerror(rc));
}

static void hub_main(struct child *c) __attribute__((noreturn));
static void hub_main(struct child *c)
{
	struct ipx_hub_options ho = { 0 };
	struct ipx_capture_options co = { .pcap_path = c->o->pcap };
	struct ipx_capture *cap = NULL;
	struct sockaddr_in where;
	struct msg m;
	char err[256];

	new_loop(c);
	ho.bind.sin_family = AF_INET;
	ho.bind.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ho.bind.sin_port = 0;
	if (c->o->pcap) {
		if (ipx_capture_open(c->loop, &co, &cap, err, sizeof(err)) !=
		    IPX_OK)
			child_fail(c, "--pcap %s", err);
		ipx_hub_capture(&ho, cap);
	}
	if (ipx_hub_open(c->loop, &ho, &c->hub, err, sizeof(err)) != IPX_OK)
		child_fail(c, "%s", err);
	ipx_hub_local(c->hub, &where);
	memset(&m, 0, sizeof(m));
	m.type = MSG_READY;
	m.port = ntohs(where.sin_port);
	child_send(c, &m);
	while (!c->quit) {
		run_loop_once(c, IDLE_WAIT);
		sample_cpu(c);
	}
	ipx_hub_flush(c->hub);
	/* The flush showed the capture the hub's last sends; the hub stays
	 * open for the final snapshot's counters. */
	if (cap) {
		if (ipx_capture_close(cap) != IPX_OK)
			child_fail(c, "--pcap %s: some packets could not be "
				      "written", c->o->pcap);
	}
	child_exit(c);
}

static bool link_settled(void *ctx)
{
	struct ipx_link *link = ctx;

	return link->up || ipx_udp_link_error(link) != IPX_OK;
}

/* Join the hub at c->target as an ipxlab node. */
static void join_hub(struct child *c)
{
	struct ipx_udp_options uo = { 0 };
	int rc;

	new_loop(c);
	c->node = ipx_node_new(c->loop, NULL);
	if (!c->node)
		child_fail(c, "out of memory");
	uo.register_timeout = 5 * IPX_SEC;
	uo.retry_first = 50 * IPX_MSEC;
	uo.retry_max = 500 * IPX_MSEC;
	rc = ipx_udp_link_open(c->loop, &c->target, &uo, &c->link);
	if (rc == IPX_OK)
		rc = ipx_node_add_link(c->node, c->link);
	if (rc != IPX_OK)
		child_fail(c, "cannot open the tunnel link: %s",
			   ipx_strerror(rc));
	rc = ipx_loop_run_until(c->loop, link_settled, c->link,
				6 * IPX_SEC);
	if (!c->link->up)
		child_fail(c, "could not register with the hub at "
			      "127.0.0.1:%u (%s)",
			   ntohs(c->target.sin_port),
			   ipx_strerror(rc ? rc : ipx_udp_link_error(c->link)));
}

static void on_bench_datagram(struct ipx_socket *sock,
			      const struct ipx_header *hdr,
			      const uint8_t *data, size_t len, void *ctx)
{
	struct child *c = ctx;

	(void)sock;
	(void)hdr;
	(void)data;
	c->packets++;
	c->bytes += len;
}

static void node_receiver_main(struct child *c) __attribute__((noreturn));
static void node_receiver_main(struct child *c)
{
	struct msg m;
	int rc;

	join_hub(c);
	rc = ipx_socket_open(c->node, BENCH_SOCKET, on_bench_datagram, c,
			     &c->sock);
	if (rc != IPX_OK)
		child_fail(c, "cannot open IPX socket %04X: %s", BENCH_SOCKET,
			   ipx_strerror(rc));
	memset(&m, 0, sizeof(m));
	m.type = MSG_READY;
	ipx_node_address(c->node, &m.addr);
	m.addr.socket = BENCH_SOCKET;
	child_send(c, &m);
	while (!c->quit) {
		run_loop_once(c, IDLE_WAIT);
		sample_cpu(c);
		give_credit(c);
	}
	child_exit(c);
}

static void node_sender_main(struct child *c) __attribute__((noreturn));
static void node_sender_main(struct child *c)
{
	struct msg m;
	int rc;

	fill_payload(c, c->o->payload);
	join_hub(c);
	rc = ipx_socket_open(c->node, 0, on_bench_datagram, c, &c->sock);
	if (rc != IPX_OK)
		child_fail(c, "cannot open an IPX socket: %s",
			   ipx_strerror(rc));
	if (c->credit >= 0 &&
	    ipx_loop_add_fd(c->loop, c->credit, IPX_EV_READ, on_credit, c))
		child_fail(c, "cannot watch the credit pipe");
	c->link_errors0 = c->link->stats.tx_errors;
	memset(&m, 0, sizeof(m));
	m.type = MSG_READY;
	child_send(c, &m);
	while (!c->quit) {
		unsigned n = allowance(c);

		for (unsigned i = 0; i < n; i++) {
			uint64_t seq = c->packets;

			if (c->o->payload >= sizeof(seq))
				memcpy(c->payload, &seq, sizeof(seq));
			rc = ipx_socket_sendto(c->sock, &c->dst, IPX_TYPE_PEP,
					       c->payload, c->o->payload);
			c->packets++;	/* attempted */
			if (rc != IPX_OK)
				c->errors++;
		}
		/* Flushes the link's queue (one sendmmsg), then polls. */
		run_loop_once(c, n ? 0 : IDLE_WAIT);
		sample_cpu(c);
	}
	c->link->ops->flush(c->link);
	child_exit(c);
}

/* ---- plain path children: ordinary UDP sockets ---- */

static void plain_receiver_main(struct child *c) __attribute__((noreturn));
static void plain_receiver_main(struct child *c)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t alen = sizeof(a);
	struct mmsghdr msgs[BATCH];
	struct iovec iov[BATCH];
	struct pollfd pfd[2];
	size_t bufsz = IPX_BENCH_MAX_PAYLOAD + IPX_HDR_LEN + 1;
	uint8_t *bufs = malloc(BATCH * bufsz);
	struct msg m;

	if (!bufs)
		child_fail(c, "out of memory");
	c->fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (c->fd < 0)
		child_fail(c, "socket: %s", strerror(errno));
	set_sockbufs(c->fd);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(c->fd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    getsockname(c->fd, (struct sockaddr *)&a, &alen) < 0)
		child_fail(c, "cannot bind a UDP socket on 127.0.0.1: %s",
			   strerror(errno));
	memset(&m, 0, sizeof(m));
	m.type = MSG_READY;
	m.port = ntohs(a.sin_port);
	child_send(c, &m);
	pfd[0] = (struct pollfd){ .fd = c->ctl, .events = POLLIN };
	pfd[1] = (struct pollfd){ .fd = c->fd, .events = POLLIN };
	while (!c->quit) {
		int n = poll(pfd, 2, (int)(IDLE_WAIT / IPX_MSEC));

		if (n < 0 && errno != EINTR)
			child_fail(c, "poll: %s", strerror(errno));
		if (n > 0 && pfd[1].revents) {
			/* The same work per batch as the tunnel link. */
			for (unsigned i = 0; i < BATCH; i++) {
				iov[i].iov_base = bufs + i * bufsz;
				iov[i].iov_len = bufsz;
				memset(&msgs[i], 0, sizeof(msgs[i]));
				msgs[i].msg_hdr.msg_iov = &iov[i];
				msgs[i].msg_hdr.msg_iovlen = 1;
			}
			n = recvmmsg(c->fd, msgs, BATCH, MSG_DONTWAIT, NULL);
			for (int i = 0; i < n; i++)
				c->bytes += msgs[i].msg_len;
			if (n > 0)
				c->packets += (unsigned)n;
		}
		if (pfd[0].revents)
			read_ctl(c);
		sample_cpu(c);
		give_credit(c);
	}
	child_exit(c);
}

static void plain_sender_main(struct child *c) __attribute__((noreturn));
static void plain_sender_main(struct child *c)
{
	size_t len = c->o->payload + IPX_HDR_LEN;
	struct mmsghdr msgs[BATCH];
	struct iovec iov[BATCH];
	struct pollfd pfd[2];
	uint8_t *bufs;
	struct msg m;
	nfds_t npfd = 1;

	fill_payload(c, len);
	bufs = malloc(BATCH * len);
	if (!bufs)
		child_fail(c, "out of memory");
	for (unsigned i = 0; i < BATCH; i++)
		memcpy(bufs + i * len, c->payload, len);
	c->fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (c->fd < 0)
		child_fail(c, "socket: %s", strerror(errno));
	set_sockbufs(c->fd);
	if (connect(c->fd, (struct sockaddr *)&c->target, sizeof(c->target)) <
	    0)
		child_fail(c, "connect: %s", strerror(errno));
	memset(&m, 0, sizeof(m));
	m.type = MSG_READY;
	child_send(c, &m);
	pfd[0] = (struct pollfd){ .fd = c->ctl, .events = POLLIN };
	if (c->credit >= 0) {
		pfd[1] = (struct pollfd){ .fd = c->credit, .events = POLLIN };
		npfd = 2;
	}
	while (!c->quit) {
		unsigned n = allowance(c), done = 0;
		int r;

		for (unsigned i = 0; i < n; i++) {
			uint64_t seq = c->packets + i;

			memcpy(bufs + i * len, &seq, sizeof(seq));
			iov[i].iov_base = bufs + i * len;
			iov[i].iov_len = len;
			memset(&msgs[i], 0, sizeof(msgs[i]));
			msgs[i].msg_hdr.msg_iov = &iov[i];
			msgs[i].msg_hdr.msg_iovlen = 1;
		}
		/* As the link's flush: a refused datagram is skipped. */
		while (done < n) {
			r = sendmmsg(c->fd, msgs + done, n - done, 0);
			if (r < 0) {
				if (errno == EINTR)
					continue;
				c->errors++;
				c->packets++;
				done++;
				continue;
			}
			c->packets += (unsigned)r;
			done += (unsigned)r;
		}
		r = poll(pfd, npfd, n ? 0 : (int)(IDLE_WAIT / IPX_MSEC));
		if (r < 0 && errno != EINTR)
			child_fail(c, "poll: %s", strerror(errno));
		if (r > 0 && pfd[0].revents)
			read_ctl(c);
		if (r > 0 && npfd > 1 && pfd[1].revents)
			take_credit(c);
		sample_cpu(c);
	}
	child_exit(c);
}

/* ======================================================================
 * Parent
 * ====================================================================== */

struct run {
	const struct ipx_bench_opts *o;
	enum ipx_bench_path path;
	struct ipx_bench_child p[IPX_BENCH_ROLES];
	int credit[2];
	struct sockaddr_in target;
	struct ipx_addr dst;
	pid_t parent;
	char *err;
	size_t errlen;
};

typedef void (*child_main_fn)(struct child *c);

/* Everything a child must do first: die with the parent, drop what is
 * not its own, pin itself if asked. */
static void child_prologue(struct run *r, enum ipx_bench_role role,
			   struct child *c)
{
	int pin = r->o->pin[r->path][role];
	sigset_t none;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != r->parent)
		_exit(1);
	/* The caller may block signals (signalfd); the alarm must work. */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGALRM, SIG_DFL);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	/* The last resort against a stray child. */
	alarm((unsigned)(r->o->warmup + r->o->seconds) + 30);
	for (int i = 0; i < IPX_BENCH_ROLES; i++)
		if (r->p[i].present)
			close(r->p[i].fd);
	if (role == IPX_BENCH_RECEIVER) {
		ipx_bench_close_fd(&r->credit[0]);
		c->credit = r->credit[1];
	} else if (role == IPX_BENCH_SENDER) {
		ipx_bench_close_fd(&r->credit[1]);
		c->credit = r->credit[0];
	} else {
		ipx_bench_close_fd(&r->credit[0]);
		ipx_bench_close_fd(&r->credit[1]);
		c->credit = -1;
	}
	if (fcntl(c->ctl, F_SETFL, fcntl(c->ctl, F_GETFL) | O_NONBLOCK) < 0)
		child_fail(c, "fcntl: %s", strerror(errno));
	if (pin >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(pin, &set);
		if (sched_setaffinity(0, sizeof(set), &set) < 0)
			child_fail(c, "cannot pin the %s to CPU %d: %s",
				   ipx_bench_role_name(role), pin,
				   strerror(errno));
	}
}

static int spawn(struct run *r, enum ipx_bench_role role, child_main_fn fn)
{
	int sv[2];
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) {
		ipx_bench_set_err(r->err, r->errlen, "socketpair: %s", strerror(errno));
		return IPX_EIO;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		ipx_bench_set_err(r->err, r->errlen, "fork: %s", strerror(errno));
		close(sv[0]);
		close(sv[1]);
		return IPX_EIO;
	}
	if (pid == 0) {
		struct child c;

		memset(&c, 0, sizeof(c));
		c.role = role;
		c.o = r->o;
		c.ctl = sv[1];
		c.fd = -1;
		c.target = r->target;
		c.dst = r->dst;
		c.credit_step = r->o->window / 4 ? r->o->window / 4 : 1;
		close(sv[0]);
		child_prologue(r, role, &c);
		fn(&c);
		_exit(1);	/* not reached */
	}
	close(sv[1]);
	r->p[role] = (struct ipx_bench_child){ .present = true, .pid = pid, .fd = sv[0] };
	return IPX_OK;
}

static void kill_all(struct run *r)
{
	for (int i = 0; i < IPX_BENCH_ROLES; i++)
		if (r->p[i].present)
			kill(r->p[i].pid, SIGKILL);
	for (int i = 0; i < IPX_BENCH_ROLES; i++)
		ipx_bench_reap(&r->p[i], EXIT_MS, NULL);
}

/* A child hung up: say how it ended. */
static int child_gone(struct run *r, enum ipx_bench_role role)
{
	struct ipx_bench_child *p = &r->p[role];
	int st = 0;
	char why[80];

	ipx_bench_reap(p, 500, &st);
	ipx_bench_set_err(r->err, r->errlen, "the %s process ended: %s",
		ipx_bench_role_name(role), ipx_hnet_exit_text(st, why, sizeof(why)));
	return IPX_EIO;
}

static int recv_msg(struct run *r, enum ipx_bench_role role, struct msg *m,
		    unsigned ms)
{
	struct ipx_bench_child *p = &r->p[role];
	struct pollfd pfd = { .fd = p->fd, .events = POLLIN };
	uint64_t end = ipx_bench_now_ns() + (uint64_t)ms * 1000000ull;
	ssize_t n;

	for (;;) {
		uint64_t now = ipx_bench_now_ns();
		int left = now >= end ? 0 : (int)((end - now) / 1000000ull) + 1;
		int rc = poll(&pfd, 1, left);

		if (rc > 0)
			break;
		if (rc < 0 && errno != EINTR) {
			ipx_bench_set_err(r->err, r->errlen, "poll: %s", strerror(errno));
			return IPX_EIO;
		}
		if (rc == 0 && ipx_bench_now_ns() >= end) {
			ipx_bench_set_err(r->err, r->errlen,
				"the %s process did not answer within %.1f s",
				ipx_bench_role_name(role), ms / 1000.0);
			return IPX_ETIMEOUT;
		}
	}
	do
		n = recv(p->fd, m, sizeof(*m), 0);
	while (n < 0 && errno == EINTR);
	if (n == 0 || (n < 0 && errno == ECONNRESET))
		return child_gone(r, role);
	if (n != (ssize_t)sizeof(*m)) {
		ipx_bench_set_err(r->err, r->errlen, "bad message from the %s process",
			ipx_bench_role_name(role));
		return IPX_EIO;
	}
	if (m->type == MSG_ERROR) {
		m->text[sizeof(m->text) - 1] = '\0';
		ipx_bench_set_err(r->err, r->errlen, "%s: %s", ipx_bench_role_name(role),
			m->text);
		return IPX_EIO;
	}
	return IPX_OK;
}

static int expect(struct run *r, enum ipx_bench_role role, uint32_t type,
		  struct msg *m, unsigned ms)
{
	int rc = recv_msg(r, role, m, ms);

	if (rc == IPX_OK && m->type != type) {
		ipx_bench_set_err(r->err, r->errlen,
			"unexpected message %u from the %s process", m->type,
			ipx_bench_role_name(role));
		rc = IPX_EIO;
	}
	return rc;
}

static int command(struct run *r, enum ipx_bench_role role, uint8_t cmd)
{
	struct ipx_bench_child *p = &r->p[role];

	while (send(p->fd, &cmd, 1, MSG_NOSIGNAL) < 0) {
		if (errno == EINTR)
			continue;
		return child_gone(r, role);
	}
	return IPX_OK;
}

/* Sleep ms, but fail at once if a child speaks or dies meanwhile. */
static int quiet(struct run *r, unsigned ms)
{
	uint64_t end = ipx_bench_now_ns() + (uint64_t)ms * 1000000ull;

	for (;;) {
		struct pollfd pfd[IPX_BENCH_ROLES];
		enum ipx_bench_role who[IPX_BENCH_ROLES];
		nfds_t n = 0;
		uint64_t now = ipx_bench_now_ns();
		int rc;

		if (now >= end)
			return IPX_OK;
		for (int i = 0; i < IPX_BENCH_ROLES; i++) {
			if (!r->p[i].present)
				continue;
			pfd[n] = (struct pollfd){ .fd = r->p[i].fd,
						  .events = POLLIN };
			who[n++] = (enum ipx_bench_role)i;
		}
		rc = poll(pfd, n, (int)((end - now + 999999) / 1000000));
		if (rc < 0 && errno != EINTR) {
			ipx_bench_set_err(r->err, r->errlen, "poll: %s", strerror(errno));
			return IPX_EIO;
		}
		for (nfds_t i = 0; rc > 0 && i < n; i++) {
			struct msg m;
			int e;

			if (!pfd[i].revents)
				continue;
			e = recv_msg(r, who[i], &m, 0);
			if (e == IPX_OK) {
				ipx_bench_set_err(r->err, r->errlen,
					"unexpected message from the %s "
					"process",
					ipx_bench_role_name(who[i]));
				e = IPX_EIO;
			}
			return e;
		}
	}
}

/* The machine's CPU time so far (/proc/stat, clock ticks): busy (not
 * idle or iowait) and stolen. False if it cannot be read. */
struct machine {
	bool ok;
	uint64_t t_ns, busy, steal;
};

static void read_machine(struct machine *mc)
{
	unsigned long long v[10] = { 0 };
	FILE *f = fopen("/proc/stat", "r");
	int n;

	mc->ok = false;
	mc->t_ns = ipx_bench_now_ns();
	if (!f)
		return;
	n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
		   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7],
		   &v[8], &v[9]);
	fclose(f);
	if (n < 8)
		return;
	/* user nice system idle iowait irq softirq steal (guest is in
	 * user already) */
	mc->busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
	mc->steal = v[7];
	mc->ok = true;
}

/* Mark every process; snapshots land in m[role]. */
static int mark_all(struct run *r, struct msg *m, struct machine *mc)
{
	int rc;

	read_machine(mc);
	for (int i = 0; i < IPX_BENCH_ROLES; i++)
		if (r->p[i].present &&
		    (rc = command(r, (enum ipx_bench_role)i, CMD_MARK)))
			return rc;
	for (int i = 0; i < IPX_BENCH_ROLES; i++)
		if (r->p[i].present &&
		    (rc = expect(r, (enum ipx_bench_role)i, MSG_SNAP, &m[i],
				 REPLY_MS)))
			return rc;
	return IPX_OK;
}

/* Stop one process, take its final snapshot and reap it. */
static int finish(struct run *r, enum ipx_bench_role role, struct msg *m)
{
	int rc = command(r, role, CMD_STOP);
	int st = 0;

	if (rc == IPX_OK)
		rc = expect(r, role, MSG_SNAP, m, REPLY_MS);
	if (rc)
		return rc;
	ipx_bench_reap(&r->p[role], EXIT_MS, &st);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		char why[80];

		ipx_bench_set_err(r->err, r->errlen, "the %s process ended: %s",
			ipx_bench_role_name(role),
			ipx_hnet_exit_text(st, why, sizeof(why)));
		return IPX_EIO;
	}
	return IPX_OK;
}

static void proc_stats(const struct msg *a, const struct msg *b,
		       struct ipx_bench_proc *out)
{
	double wall = (double)(b->snap.t_ns - a->snap.t_ns);

	memset(out, 0, sizeof(*out));
	out->present = true;
	if (wall > 0) {
		out->user = (double)(b->snap.user_ns - a->snap.user_ns) / wall;
		out->sys = (double)(b->snap.sys_ns - a->snap.sys_ns) / wall;
		out->cpu = out->user + out->sys;
	}
	out->wakeups = b->snap.wakeups - a->snap.wakeups;
	out->vcsw = b->snap.vcsw - a->snap.vcsw;
	out->ivcsw = b->snap.ivcsw - a->snap.ivcsw;
	memcpy(out->cpu_samples, b->samples, sizeof(out->cpu_samples));
	out->samples = b->nsamples;
	out->last_cpu = b->cpu;
}

static int run_path(struct run *r, struct ipx_bench_result *out)
{
	const struct ipx_bench_opts *o = r->o;
	bool hub = r->path == IPX_BENCH_HUB;
	struct msg m, m1[IPX_BENCH_ROLES], m2[IPX_BENCH_ROLES];
	struct msg fin[IPX_BENCH_ROLES];
	struct machine mc1, mc2;
	uint64_t last;
	int rc;

	memset(m1, 0, sizeof(m1));
	memset(m2, 0, sizeof(m2));
	memset(fin, 0, sizeof(fin));
	r->target.sin_family = AF_INET;
	r->target.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (o->window &&
	    pipe2(r->credit, O_NONBLOCK | O_CLOEXEC) < 0) {
		ipx_bench_set_err(r->err, r->errlen, "pipe: %s", strerror(errno));
		return IPX_EIO;
	}
	if (hub) {
		if ((rc = spawn(r, IPX_BENCH_HUBPROC, hub_main)) ||
		    (rc = expect(r, IPX_BENCH_HUBPROC, MSG_READY, &m, READY_MS)))
			return rc;
		r->target.sin_port = htons(m.port);
	}
	if ((rc = spawn(r, IPX_BENCH_RECEIVER,
			hub ? node_receiver_main : plain_receiver_main)) ||
	    (rc = expect(r, IPX_BENCH_RECEIVER, MSG_READY, &m, READY_MS)))
		return rc;
	if (hub)
		r->dst = m.addr;
	else
		r->target.sin_port = htons(m.port);
	if ((rc = spawn(r, IPX_BENCH_SENDER,
			hub ? node_sender_main : plain_sender_main)) ||
	    (rc = expect(r, IPX_BENCH_SENDER, MSG_READY, &m, READY_MS)))
		return rc;
	ipx_bench_close_fd(&r->credit[0]);
	ipx_bench_close_fd(&r->credit[1]);

	if ((rc = command(r, IPX_BENCH_SENDER, CMD_GO)) ||
	    (rc = quiet(r, (unsigned)(o->warmup * 1000))) ||
	    (rc = mark_all(r, m1, &mc1)) ||
	    (rc = quiet(r, (unsigned)(o->seconds * 1000))) ||
	    (rc = mark_all(r, m2, &mc2)) ||
	    (rc = finish(r, IPX_BENCH_SENDER, &fin[IPX_BENCH_SENDER])))
		return rc;
	/* Let the receiver drain what is still queued on the way. */
	last = UINT64_MAX;
	for (unsigned t = 0; t < DRAIN_MAX_MS; t += DRAIN_STEP_MS) {
		ipx_bench_sleep_ms(DRAIN_STEP_MS);
		if ((rc = command(r, IPX_BENCH_RECEIVER, CMD_PEEK)) ||
		    (rc = expect(r, IPX_BENCH_RECEIVER, MSG_SNAP, &m,
				 REPLY_MS)))
			return rc;
		if (m.snap.packets == last)
			break;
		last = m.snap.packets;
	}
	if ((rc = finish(r, IPX_BENCH_RECEIVER, &fin[IPX_BENCH_RECEIVER])) ||
	    (hub && (rc = finish(r, IPX_BENCH_HUBPROC,
				 &fin[IPX_BENCH_HUBPROC]))))
		return rc;

	out->path = r->path;
	out->datagram = o->payload + IPX_HDR_LEN;
	{
		const struct msg *a = &m1[IPX_BENCH_RECEIVER];
		const struct msg *b = &m2[IPX_BENCH_RECEIVER];

		out->seconds = (double)(b->snap.t_ns - a->snap.t_ns) / 1e9;
		out->packets = b->snap.packets - a->snap.packets;
	}
	out->pps = out->seconds > 0 ? (double)out->packets / out->seconds : 0;
	out->mbps = out->pps * (double)out->datagram / 1e6;
	out->sent = fin[IPX_BENCH_SENDER].snap.packets;
	out->send_errors = fin[IPX_BENCH_SENDER].snap.aux[0];
	out->stalls = fin[IPX_BENCH_SENDER].snap.aux[1];
	out->delivered = fin[IPX_BENCH_RECEIVER].snap.packets;
	out->lost = out->sent > out->delivered ? out->sent - out->delivered
					       : 0;
	out->loss = out->sent ? (double)out->lost / (double)out->sent : 0;
	if (hub) {
		const struct snap *h = &fin[IPX_BENCH_HUBPROC].snap;

		out->hub_relayed = h->packets;
		out->hub_rx = h->aux[0];
		out->hub_tx = h->aux[1];
		out->hub_drops = h->aux[2];
	}
	for (int i = 0; i < IPX_BENCH_ROLES; i++) {
		if (m1[i].type != MSG_SNAP)
			continue;
		proc_stats(&m1[i], &m2[i], &out->proc[i]);
		out->ours += out->proc[i].cpu;
	}
	if (mc1.ok && mc2.ok && mc2.t_ns > mc1.t_ns) {
		long hz = sysconf(_SC_CLK_TCK);
		double wall = (double)(mc2.t_ns - mc1.t_ns) / 1e9;

		if (hz <= 0)
			hz = 100;
		out->machine_busy = (double)(mc2.busy - mc1.busy) /
				    (double)hz / wall;
		out->machine_steal = (double)(mc2.steal - mc1.steal) /
				     (double)hz / wall;
	}
	return IPX_OK;
}

int ipx_bench_hub_path(const struct ipx_bench_opts *o,
		       enum ipx_bench_path path, struct ipx_bench_result *out,
		       char *err, size_t errlen)
{
	struct run r;
	int rc;

	memset(&r, 0, sizeof(r));
	memset(out, 0, sizeof(*out));
	r.o = o;
	r.path = path;
	r.credit[0] = r.credit[1] = -1;
	r.parent = getpid();
	r.err = err;
	r.errlen = errlen;
	for (int i = 0; i < IPX_BENCH_ROLES; i++)
		r.p[i].fd = -1;
	if (o->payload > IPX_BENCH_MAX_PAYLOAD || o->seconds <= 0 ||
	    o->warmup < 0) {
		ipx_bench_set_err(err, errlen, "bad benchmark options");
		return IPX_EINVAL;
	}
	rc = run_path(&r, out);
	/* On success every child is reaped already; on error none may stay. */
	kill_all(&r);
	ipx_bench_close_fd(&r.credit[0]);
	ipx_bench_close_fd(&r.credit[1]);
	return rc;
}
