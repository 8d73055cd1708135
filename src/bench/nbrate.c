/*
 * nbrate.c - the NetBIOS benchmark (ipxlab/bench.h, "ipxlab bench
 * netbios"): NetBIOS datagram and session message rates beside IPX, all
 * measured in one run over the same hub on loopback.
 *
 * Three processes: the hub, a responder node (child) and the measuring
 * node (this process). The responder holds the name NBBENCH, echoes IPX
 * packets on socket 0x4748, counts IPX datagrams on 0x4749 and NetBIOS
 * datagrams to NBBENCH, returning a credit (its cumulative count) every
 * CREDIT_EVERY of either to our socket 0x474A, and keeps a LISTEN and a
 * RECEIVE posted for sessions. We measure, one after the other:
 *
 *   1. IPX round trips: one packet out, its echo back, again (ping-pong);
 *   2. IPX datagrams to 0x4749, at most 'window' not yet credited;
 *   3. NetBIOS datagrams (SEND DATAGRAM to NBBENCH) the same way;
 *   4. a NetBIOS session: SEND of 'msg_size'-byte messages, one after the
 *      other, each timed from submission to its POST (the session is
 *      stop-and-wait: one packet and its ack per message when it fits);
 *   5. the same with 65,535-byte messages (fragments, one round trip
 *      each).
 *
 * Each after a warm-up; rates are counted between two marks. The
 * children die with us (PR_SET_PDEATHSIG), have an alarm as a last
 * resort, and are killed and reaped whatever happens.
 */
#include "ipxlab/bench.h"

#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/hub.h"
#include "ipxlab/link_udp.h"
#include "ipxlab/log.h"
#include "ipxlab/netbios.h"

#include "bench_util.h"

#define ECHO_SOCKET 0x4748
#define SINK_SOCKET 0x4749
#define CREDIT_SOCKET 0x474A
#define CREDIT_EVERY 4
#define RESPONDER_RECEIVES 16	/* RECEIVE DATAGRAMs the responder keeps */
#define STALL (100 * IPX_MSEC)	/* no credit this long: assume a loss */
#define MAX_SAMPLES 2000000
#define NAME "NBBENCH"

enum { KIND_IPX = 1, KIND_NB = 2 };

void ipx_nbb_opts_default(struct ipx_nbb_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->seconds = IPX_NBB_DEFAULT_SECONDS;
	o->warmup = IPX_NBB_DEFAULT_WARMUP;
	o->size = IPX_NBB_DEFAULT_SIZE;
	o->window = IPX_NBB_DEFAULT_WINDOW;
}

/* A NetBIOS-friendly configuration: quick claims, room for commands. */
static void bench_config(struct ipx_config *cfg)
{
	ipx_config_defaults(cfg);
	cfg->netbios_broadcast_delay = 1;
	cfg->netbios_commands = 64;
	cfg->netbios_receive_buffers = 20;
	cfg->netbios_send_buffers = 20;
}

static bool link_settled(void *ctx)
{
	struct ipx_link *link = ctx;

	return link->up || ipx_udp_link_error(link) != IPX_OK;
}

/* A node of our own on the hub at 127.0.0.1:port. */
static int join(struct ipx_loop *loop, uint16_t port,
		const struct ipx_config *cfg, struct ipx_node **out)
{
	struct ipx_udp_options uo = { .register_timeout = 5 * IPX_SEC,
				      .retry_first = 50 * IPX_MSEC };
	struct sockaddr_in hub = { .sin_family = AF_INET,
				   .sin_port = htons(port),
				   .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct ipx_link *link;
	int rc;

	*out = ipx_node_new(loop, cfg);
	if (!*out)
		return IPX_ENOMEM;
	rc = ipx_udp_link_open(loop, &hub, &uo, &link);
	if (rc == IPX_OK)
		rc = ipx_node_add_link(*out, link);
	if (rc != IPX_OK)
		return rc;
	ipx_loop_run_until(loop, link_settled, link, 6 * IPX_SEC);
	return link->up ? IPX_OK : IPX_ETIMEOUT;
}

/* ---- the children ---- */

static void child_prologue(pid_t parent)
{
	sigset_t none;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGALRM, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGPIPE, SIG_IGN);
	alarm(600);
	ipx_log_set_level(IPX_LOG_ERROR);
}

static void hub_child(int fd) __attribute__((noreturn));
static void hub_child(int fd)
{
	struct ipx_hub_options ho = { 0 };
	struct ipx_loop *loop = ipx_loop_new(NULL);
	struct ipx_hub *hub;
	struct sockaddr_in where;
	uint16_t port;
	char err[256];

	ho.bind.sin_family = AF_INET;
	ho.bind.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (!loop || ipx_hub_open(loop, &ho, &hub, err, sizeof(err)) != IPX_OK)
		_exit(1);
	ipx_hub_local(hub, &where);
	port = ntohs(where.sin_port);
	if (write(fd, &port, sizeof(port)) != sizeof(port))
		_exit(1);
	ipx_loop_run(loop);
	_exit(0);
}

/* The responder's state. */
static struct {
	struct ipx_loop *loop;
	struct ipx_node *node;
	struct netbios *nb;
	struct ipx_socket *echo, *sink;
	uint64_t count[3];	/* by kind */
	struct nb_ncb dg[RESPONDER_RECEIVES], listen, recv;
	uint8_t dgbuf[RESPONDER_RECEIVES][NB_MAX_DATAGRAM];
	uint8_t msg[NB_MAX_MESSAGE];
} rs;

static void credit(uint8_t kind, const struct ipx_addr *to)
{
	uint8_t p[9];
	struct ipx_addr a = *to;

	if (++rs.count[kind] % CREDIT_EVERY)
		return;
	p[0] = kind;
	ipx_put32(p + 1, (uint32_t)(rs.count[kind] >> 32));
	ipx_put32(p + 5, (uint32_t)rs.count[kind]);
	a.socket = CREDIT_SOCKET;
	ipx_socket_sendto(rs.sink, &a, IPX_TYPE_PEP, p, sizeof(p));
}

static void on_echo(struct ipx_socket *sock, const struct ipx_header *h,
		    const uint8_t *data, size_t len, void *ctx)
{
	(void)ctx;
	ipx_socket_sendto(sock, &h->src, IPX_TYPE_PEP, data, len);
}

static void on_sink(struct ipx_socket *sock, const struct ipx_header *h,
		    const uint8_t *data, size_t len, void *ctx)
{
	(void)sock;
	(void)data;
	(void)len;
	(void)ctx;
	credit(KIND_IPX, &h->src);
}

static void on_dgram(struct nb_ncb *ncb)
{
	if (ncb->retcode == NB_RC_OK)
		credit(KIND_NB, &ncb->remote);
	ncb->length = NB_MAX_DATAGRAM;
	nb_submit(rs.nb, ncb);
}

static void on_listen(struct nb_ncb *ncb);

static void on_recv(struct nb_ncb *ncb)
{
	if (ncb->retcode == NB_RC_OK || ncb->retcode == NB_RC_INCOMPLETE) {
		ncb->length = NB_MAX_MESSAGE;
		if (nb_submit(rs.nb, ncb) == NB_RC_PENDING)
			return;
	}
	/* The session ended: wait for the next one. */
	rs.listen.callname[0] = '*';
	nb_name_parse(NAME, false, rs.listen.name);
	if (nb_submit(rs.nb, &rs.listen) != NB_RC_PENDING)
		_exit(3);
}

static void on_listen(struct nb_ncb *ncb)
{
	if (ncb->retcode != NB_RC_OK)
		_exit(3);
	rs.recv.command = NB_RECEIVE;
	rs.recv.lsn = ncb->lsn;
	rs.recv.buffer = rs.msg;
	rs.recv.length = NB_MAX_MESSAGE;
	rs.recv.post = on_recv;
	if (nb_submit(rs.nb, &rs.recv) != NB_RC_PENDING)
		_exit(3);
}

static bool claimed(void *ctx)
{
	return ((struct nb_ncb *)ctx)->retcode != NB_RC_PENDING;
}

static void responder_child(uint16_t port, int fd) __attribute__((noreturn));
static void responder_child(uint16_t port, int fd)
{
	struct ipx_config cfg;
	struct nb_ncb add = { .command = NB_ADD_NAME };
	uint8_t ready = 1;

	bench_config(&cfg);
	rs.loop = ipx_loop_new(NULL);
	if (!rs.loop || join(rs.loop, port, &cfg, &rs.node) != IPX_OK ||
	    nb_open(rs.node, NULL, &rs.nb) != IPX_OK ||
	    ipx_socket_open(rs.node, ECHO_SOCKET, on_echo, NULL, &rs.echo) ||
	    ipx_socket_open(rs.node, SINK_SOCKET, on_sink, NULL, &rs.sink))
		_exit(2);
	nb_name_parse(NAME, false, add.name);
	if (nb_submit(rs.nb, &add) != NB_RC_PENDING ||
	    ipx_loop_run_until(rs.loop, claimed, &add, 10 * IPX_SEC) ||
	    add.retcode != NB_RC_OK)
		_exit(2);
	for (int i = 0; i < RESPONDER_RECEIVES; i++) {
		rs.dg[i].command = NB_RECEIVE_DATAGRAM;
		rs.dg[i].num = add.num;
		rs.dg[i].buffer = rs.dgbuf[i];
		rs.dg[i].length = NB_MAX_DATAGRAM;
		rs.dg[i].post = on_dgram;
		if (nb_submit(rs.nb, &rs.dg[i]) != NB_RC_PENDING)
			_exit(2);
	}
	rs.listen.command = NB_LISTEN;
	rs.listen.post = on_listen;
	memcpy(rs.listen.name, add.name, NB_NAME_LEN);
	rs.listen.callname[0] = '*';
	if (nb_submit(rs.nb, &rs.listen) != NB_RC_PENDING)
		_exit(2);
	if (write(fd, &ready, 1) != 1)
		_exit(2);
	ipx_loop_run(rs.loop);
	_exit(0);
}

/* Fork the hub (port 0) or the responder (on the hub at 'port'); returns
 * its pid, and in *fd the read end of the pipe it reports on. */
static pid_t spawn(int *fd, uint16_t port)
{
	int p[2];
	pid_t parent = getpid(), pid;

	if (pipe(p) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		child_prologue(parent);
		if (!port)
			hub_child(p[1]);
		responder_child(port, p[1]);
	}
	close(p[1]);
	if (pid < 0) {
		close(p[0]);
		return -1;
	}
	*fd = p[0];
	return pid;
}

/* Read n bytes from a child within 'ms'. */
static int child_read(int fd, void *buf, size_t n, int ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	if (poll(&pfd, 1, ms) != 1)
		return -1;
	return read(fd, buf, n) == (ssize_t)n ? 0 : -1;
}

static void reap(pid_t pid)
{
	int st;

	if (pid <= 0)
		return;
	kill(pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
}

/* ---- measuring ---- */

static struct {
	struct ipx_loop *loop;
	struct ipx_node *node;
	struct netbios *nb;
	struct ipx_socket *sock, *credit;
	struct ipx_addr echo_to, sink_to;
	const struct ipx_nbb_opts *o;
	/* the test running */
	int test;
	bool stop;
	ipx_time sent_at;
	uint64_t sent, credited[3], stalls;
	ipx_time last_credit;
	double *samples;
	size_t nsamples;
	bool measuring;
	struct nb_ncb dg, call, send, hang;
	uint8_t buf[NB_MAX_MESSAGE];
} m;

static ipx_time now_us(void)
{
	return ipx_loop_now(m.loop);
}

static void sample(ipx_time t)
{
	if (m.measuring && m.nsamples < MAX_SAMPLES)
		m.samples[m.nsamples++] = (double)t;
}

static void on_credit(struct ipx_socket *sock, const struct ipx_header *h,
		      const uint8_t *data, size_t len, void *ctx)
{
	uint64_t c;

	(void)sock;
	(void)h;
	(void)ctx;
	if (len < 9 || (data[0] != KIND_IPX && data[0] != KIND_NB))
		return;
	c = (uint64_t)ipx_get32(data + 1) << 32 | ipx_get32(data + 5);
	if (c > m.credited[data[0]])
		m.credited[data[0]] = c;
	m.last_credit = now_us();
}

static void on_echo_reply(struct ipx_socket *sock, const struct ipx_header *h,
			  const uint8_t *data, size_t len, void *ctx)
{
	(void)h;
	(void)data;
	(void)len;
	(void)ctx;
	sample(now_us() - m.sent_at);
	m.sent++;
	if (m.stop)
		return;
	m.sent_at = now_us();
	ipx_socket_sendto(sock, &m.echo_to, IPX_TYPE_PEP, m.buf, 32);
}

/* Datagrams while the window has room (a stalled window is forgiven). */
static void pump(struct ipx_loop *loop, void *ctx)
{
	int kind = m.test;
	unsigned n = 0;

	(void)loop;
	(void)ctx;
	if (m.stop || (kind != KIND_IPX && kind != KIND_NB))
		return;
	if (m.sent > m.credited[kind] + m.o->window) {
		if (now_us() - m.last_credit < STALL)
			return;
		m.stalls++;
		m.credited[kind] = m.sent;
		m.last_credit = now_us();
	}
	while (m.sent < m.credited[kind] + m.o->window && n++ < 64) {
		int rc;

		if (kind == KIND_IPX)
			rc = ipx_socket_sendto(m.sock, &m.sink_to, IPX_TYPE_PEP,
					       m.buf, m.o->size);
		else
			rc = nb_submit(m.nb, &m.dg) == NB_RC_OK ? IPX_OK
								 : IPX_EIO;
		if (rc != IPX_OK)
			break;
		m.sent++;
	}
}

static void on_sent(struct nb_ncb *ncb)
{
	sample(now_us() - m.sent_at);
	if (ncb->retcode != NB_RC_OK) {
		m.stop = true;
		return;
	}
	m.sent++;
	if (m.stop)
		return;
	m.sent_at = now_us();
	if (nb_submit(m.nb, ncb) != NB_RC_PENDING)
		m.stop = true;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Percentile p by nearest rank, as every benchmark and ping report it. */
static double percentile(double p)
{
	size_t rank;

	if (!m.nsamples)
		return 0;
	rank = (size_t)ceil(p / 100 * (double)m.nsamples);
	return m.samples[rank ? rank - 1 : 0];
}

/* Run the test now set up: warm up, then count between two marks. */
static void measure(struct ipx_nbb_rate *r, const uint64_t *counter)
{
	uint64_t c0;
	ipx_time t0, t1;

	m.stop = false;
	m.nsamples = 0;
	m.measuring = false;
	ipx_loop_run_for(m.loop, (ipx_time)(m.o->warmup * IPX_SEC));
	c0 = *counter;
	t0 = now_us();
	m.measuring = true;
	ipx_loop_run_for(m.loop, (ipx_time)(m.o->seconds * IPX_SEC));
	r->count = *counter - c0;
	t1 = now_us();
	m.measuring = false;
	m.stop = true;
	r->seconds = (double)(t1 - t0) / IPX_SEC;
	r->rate = r->seconds > 0 ? (double)r->count / r->seconds : 0;
	qsort(m.samples, m.nsamples, sizeof(double), cmp_double);
	r->rtt_p50_us = percentile(50);
	r->rtt_p99_us = percentile(99);
	r->samples = m.nsamples;
	/* Let what is in flight finish. */
	ipx_loop_run_for(m.loop, 200 * IPX_MSEC);
}

static bool call_done(void *ctx)
{
	return ((struct nb_ncb *)ctx)->retcode != NB_RC_PENDING;
}

static int session_tests(struct ipx_nbb_result *out, char *err,
			 size_t errlen)
{
	struct nb_session_info si;

	memset(&m.call, 0, sizeof(m.call));
	m.call.command = NB_CALL;
	nb_permanent_name(ipx_node_link(m.node, 0)->node, m.call.name);
	nb_name_parse(NAME, false, m.call.callname);
	if (nb_submit(m.nb, &m.call) != NB_RC_PENDING ||
	    ipx_loop_run_until(m.loop, call_done, &m.call, 10 * IPX_SEC) ||
	    m.call.retcode != NB_RC_OK) {
		ipx_bench_set_err(err, errlen, "call %s: %s", NAME,
			nb_strerror(m.call.retcode));
		return IPX_EIO;
	}
	nb_session_info(m.nb, m.call.lsn, &si);
	out->max_data = si.max_data;
	for (int big = 0; big < 2; big++) {
		struct ipx_nbb_rate *r = big ? &out->big : &out->session;

		memset(&m.send, 0, sizeof(m.send));
		m.send.command = NB_SEND;
		m.send.lsn = m.call.lsn;
		m.send.buffer = m.buf;
		m.send.length = big ? NB_MAX_MESSAGE : (uint16_t)m.o->size;
		m.send.post = on_sent;
		m.sent = 0;
		m.stop = false;
		m.sent_at = now_us();
		if (nb_submit(m.nb, &m.send) != NB_RC_PENDING) {
			ipx_bench_set_err(err, errlen, "send: %s",
				nb_strerror(m.send.retcode));
			return IPX_EIO;
		}
		measure(r, &m.sent);
		ipx_loop_run_until(m.loop, call_done, &m.send, 10 * IPX_SEC);
		if (m.send.retcode != NB_RC_OK) {
			ipx_bench_set_err(err, errlen, "session send: %s",
				nb_strerror(m.send.retcode));
			return IPX_EIO;
		}
	}
	out->retransmits = nb_get_stats(m.nb)->retransmits;
	memset(&m.hang, 0, sizeof(m.hang));
	m.hang.command = NB_HANG_UP;
	m.hang.lsn = m.call.lsn;
	if (nb_submit(m.nb, &m.hang) == NB_RC_PENDING)
		ipx_loop_run_until(m.loop, call_done, &m.hang, 5 * IPX_SEC);
	return IPX_OK;
}

static int datagram_test(int kind, struct ipx_nbb_rate *r)
{
	struct ipx_hook hook;

	m.test = kind;
	m.sent = 0;
	m.credited[kind] = 0;
	m.stalls = 0;
	m.last_credit = now_us();
	ipx_loop_add_hook(m.loop, &hook, pump, NULL);
	measure(r, &m.credited[kind]);
	ipx_loop_remove_hook(m.loop, &hook);
	/* Delivered: the last credit rounds down to CREDIT_EVERY. */
	r->sent = m.sent;
	r->delivered = m.credited[kind];
	r->stalls = m.stalls;
	m.test = 0;
	return IPX_OK;
}

static int run_all(uint16_t port, struct ipx_nbb_result *out, char *err,
		   size_t errlen)
{
	struct ipx_config cfg;
	struct nb_ncb find = { .command = NB_FIND_NAME };
	int rc;

	bench_config(&cfg);
	m.loop = ipx_loop_new(NULL);
	if (!m.loop)
		return IPX_ENOMEM;
	rc = join(m.loop, port, &cfg, &m.node);
	if (rc == IPX_OK)
		rc = nb_open(m.node, NULL, &m.nb);
	if (rc == IPX_OK)
		rc = ipx_socket_open(m.node, 0, on_echo_reply, NULL, &m.sock);
	if (rc == IPX_OK)
		rc = ipx_socket_open(m.node, CREDIT_SOCKET, on_credit, NULL,
				     &m.credit);
	if (rc != IPX_OK) {
		ipx_bench_set_err(err, errlen, "measuring node: %s", ipx_strerror(rc));
		return rc;
	}
	/* Where the responder is: FIND NAME (and the cache keeps it). */
	nb_name_parse(NAME, false, find.callname);
	if (nb_submit(m.nb, &find) != NB_RC_PENDING ||
	    ipx_loop_run_until(m.loop, call_done, &find, 10 * IPX_SEC) ||
	    find.retcode != NB_RC_OK) {
		ipx_bench_set_err(err, errlen, "find %s: %s", NAME,
			nb_strerror(find.retcode));
		return IPX_EIO;
	}
	m.echo_to = m.sink_to = find.remote;
	m.echo_to.socket = ECHO_SOCKET;
	m.sink_to.socket = SINK_SOCKET;
	memset(m.buf, 'n', sizeof(m.buf));

	/* IPX datagrams, then NetBIOS datagrams. */
	datagram_test(KIND_IPX, &out->ipx_dgram);
	m.dg.command = NB_SEND_DATAGRAM;
	m.dg.num = 1;
	m.dg.buffer = m.buf;
	m.dg.length = (uint16_t)m.o->size;
	nb_name_parse(NAME, false, m.dg.callname);
	datagram_test(KIND_NB, &out->nb_dgram);
	/* IPX ping-pong right before the session, so that both round trips
	 * are measured with the processes placed alike on the CPUs. */
	m.sent = 0;
	m.stop = false;
	m.sent_at = now_us();
	ipx_socket_sendto(m.sock, &m.echo_to, IPX_TYPE_PEP, m.buf, 32);
	measure(&out->ipx_rtt, &m.sent);
	return session_tests(out, err, errlen);
}

int ipx_nbb_run(const struct ipx_nbb_opts *o, struct ipx_nbb_result *out,
		char *err, size_t errlen)
{
	pid_t hub = -1, resp = -1;
	int fd = -1, rc = IPX_EIO;
	uint16_t port;
	uint8_t ready;

	memset(out, 0, sizeof(*out));
	memset(&m, 0, sizeof(m));
	if (o->size < 1 || o->size > NB_MAX_DATAGRAM || o->window < CREDIT_EVERY) {
		ipx_bench_set_err(err, errlen, "size 1..%d, window at least %d",
			NB_MAX_DATAGRAM, CREDIT_EVERY);
		return IPX_EINVAL;
	}
	m.o = o;
	out->size = o->size;
	out->window = o->window;
	m.samples = malloc(MAX_SAMPLES * sizeof(double));
	if (!m.samples)
		return IPX_ENOMEM;
	hub = spawn(&fd, 0);
	if (hub < 0 || child_read(fd, &port, sizeof(port), 5000) < 0) {
		ipx_bench_set_err(err, errlen, "the hub did not start");
		goto out;
	}
	close(fd);
	fd = -1;
	resp = spawn(&fd, port);
	if (resp < 0 || child_read(fd, &ready, 1, 15000) < 0) {
		ipx_bench_set_err(err, errlen, "the responder node did not start");
		goto out;
	}
	rc = run_all(port, out, err, errlen);
out:
	if (fd >= 0)
		close(fd);
	if (m.nb)
		nb_close(m.nb);
	if (m.node)
		ipx_node_free(m.node);
	if (m.loop)
		ipx_loop_free(m.loop);
	reap(resp);
	reap(hub);
	free(m.samples);
	memset(&m, 0, sizeof(m));
	return rc;
}
