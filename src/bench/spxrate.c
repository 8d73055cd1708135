/*
 * spxrate.c - the SPX goodput benchmark (see ipxlab/bench.h and
 * bench/README.md): SPX I and SPX II beside IPX datagrams of the same
 * packet size, over the tunnel through a hub and over the in-memory link.
 *
 * udp rows fork three processes (hub, receiver node, sender node). The
 * parent talks to each over a SOCK_SEQPACKET socketpair: one-byte
 * commands down ('g' go, 'm' mark, 's' stop), one fixed-size message up
 * (READY, SNAP or ERROR). The receiver of an IPX row returns credits (its
 * cumulative datagram count) to the sender over a pipe every quarter
 * window. Children die with the parent (PR_SET_PDEATHSIG) and carry an
 * alarm; the parent kills and reaps every child on any error.
 *
 * mem rows run in this process: two nodes on one in-memory segment, the
 * loop driven with ipx_loop_run_once(loop, 0) on the real clock.
 */
#include "ipxlab/bench.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
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
#include "ipxlab/ipx.h"
#include "ipxlab/link.h"
#include "ipxlab/link_mem.h"
#include "ipxlab/link_udp.h"
#include "ipxlab/loop.h"
#include "ipxlab/node.h"
#include "ipxlab/spx.h"

#include "bench_util.h"

#define BENCH_SOCKET 0x4546	/* the receiver's IPX socket / SPX listener */
#define MEM_NET 0x00BE4C00
#define IDLE_WAIT (20 * IPX_MSEC)	/* children's longest sleep */
#define READY_MS 8000		/* registration and SPX set-up included */
#define REPLY_MS 3000
#define EXIT_MS 2000
#define CONNECT_WAIT (5 * IPX_SEC)
#define STALL_NS 200000000ull	/* IPX rows: no credit this long */
#define SEND_BURST 64		/* IPX datagrams per turn at most */

enum { CMD_GO = 'g', CMD_MARK = 'm', CMD_STOP = 's' };
enum { MSG_READY = 1, MSG_SNAP, MSG_ERROR };
enum role { R_SENDER, R_HUB, R_RECEIVER, R_COUNT };

static const char *const role_names[R_COUNT] = { "sender", "hub",
						 "receiver" };

/* What a process reports at a mark. */
struct snap {
	uint64_t t_ns;
	uint64_t user_ns, sys_ns;
	uint64_t bytes, packets;	/* receiver: delivered */
	uint64_t sent, errors;		/* IPX sender */
	/* SPX sender: its connection */
	uint64_t srtt, rto, rtt_samples;
	uint64_t tx_data, retransmits, timeouts, naks_rx, acks_rx;
};

struct msg {
	uint32_t type;
	struct snap snap;
	uint16_t port;		/* READY from the hub */
	struct ipx_addr addr;	/* READY from the receiver */
	int32_t version;	/* READY from an SPX sender */
	uint32_t window;
	uint64_t max_data;
	char text[200];		/* ERROR */
};

/* ---- small helpers ---- */

/* The machine's busy CPU time so far (/proc/stat, clock ticks). */
static bool machine_busy(uint64_t *busy)
{
	unsigned long long v[8] = { 0 };
	FILE *f = fopen("/proc/stat", "r");
	int n;

	if (!f)
		return false;
	n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0],
		   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
	fclose(f);
	if (n < 8)
		return false;
	/* user nice system [idle iowait] irq softirq steal */
	*busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
	return true;
}

static double busy_cpus(uint64_t b1, uint64_t b2, double wall)
{
	long hz = sysconf(_SC_CLK_TCK);

	if (hz <= 0)
		hz = 100;
	return wall > 0 ? (double)(b2 - b1) / (double)hz / wall : 0;
}

/* ---- names, sizes, defaults ---- */

const char *ipx_spxb_link_name(enum ipx_spxb_link link)
{
	return link == IPX_SPXB_UDP ? "udp" : "mem";
}

const char *ipx_spxb_kind_name(enum ipx_spxb_kind kind)
{
	switch (kind) {
	case IPX_SPXB_IPX_SMALL:
		return "ipx-small";
	case IPX_SPXB_SPX1:
		return "spx1";
	case IPX_SPXB_IPX_LARGE:
		return "ipx-large";
	case IPX_SPXB_SPX2:
		return "spx2";
	default:
		return "?";
	}
}

void ipx_spxb_opts_default(struct ipx_spxb_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->seconds = IPX_SPXB_DEFAULT_SECONDS;
	o->warmup = IPX_SPXB_DEFAULT_WARMUP;
	o->mem_mtu = IPX_UDP_MTU;
}

size_t ipx_spxb_packet_size(const struct ipx_spxb_opts *o,
			    enum ipx_spxb_link link, enum ipx_spxb_kind kind)
{
	size_t mtu = link == IPX_SPXB_UDP ? IPX_UDP_MTU : o->mem_mtu;

	if (kind == IPX_SPXB_IPX_SMALL || kind == IPX_SPXB_SPX1)
		return IPX_SPXB_SMALL_PACKET;
	return mtu;
}

static bool is_spx(enum ipx_spxb_kind kind)
{
	return kind == IPX_SPXB_SPX1 || kind == IPX_SPXB_SPX2;
}

/* Application bytes one full packet of the row carries. */
static size_t payload_of(size_t packet, enum ipx_spxb_kind kind)
{
	switch (kind) {
	case IPX_SPXB_SPX1:
		return packet - IPX_HDR_LEN - SPX_HDR_LEN;
	case IPX_SPXB_SPX2:
		return packet - IPX_HDR_LEN - SPX2_HDR_LEN;
	default:
		return packet - IPX_HDR_LEN;
	}
}

static unsigned ipx_window_of(const struct ipx_spxb_opts *o, size_t payload)
{
	return o->ipx_window ? o->ipx_window : ipx_bench_default_window(payload);
}

/* ======================================================================
 * The SPX ends, shared by the udp children and the mem rows
 * ====================================================================== */

struct spx_end {
	struct spx *spx;
	struct spx_listener *lst;
	struct spx_conn *conn;
	int connected;		/* on_connected status + 1000; 0 = not yet */
	bool closed;
	bool going;		/* sender: keep the send queue full */
	const uint8_t *chunk;
	size_t chunk_len;
	uint64_t bytes, packets;	/* receiver: delivered */
};

static void spx_fill(struct spx_end *e)
{
	while (e->going && e->conn && !e->closed) {
		if (spx_send(e->conn, e->chunk, e->chunk_len, 0, 0) != IPX_OK)
			return;	/* EAGAIN: on_sendable calls again */
	}
}

static void end_on_connected(struct spx_conn *c, int status, void *ctx)
{
	struct spx_end *e = ctx;

	(void)c;
	e->connected = status + 1000;
	if (status != IPX_OK)
		e->conn = NULL;
}

static void end_on_data(struct spx_conn *c, const uint8_t *data, size_t len,
			unsigned flags, uint8_t ds, void *ctx)
{
	struct spx_end *e = ctx;

	(void)c;
	(void)data;
	(void)flags;
	(void)ds;
	e->bytes += len;
	e->packets++;
}

static void end_on_sendable(struct spx_conn *c, void *ctx)
{
	(void)c;
	spx_fill(ctx);
}

static void end_on_closed(struct spx_conn *c, int reason, void *ctx)
{
	struct spx_end *e = ctx;

	(void)c;
	(void)reason;
	e->closed = true;
	e->conn = NULL;
}

static const struct spx_handlers end_handlers = {
	.on_connected = end_on_connected,
	.on_data = end_on_data,
	.on_sendable = end_on_sendable,
	.on_closed = end_on_closed,
};

static void end_on_accept(struct spx_listener *l, struct spx_conn *c,
			  void *ctx)
{
	struct spx_end *e = ctx;

	(void)l;
	if (e->conn) {	/* one connection per run */
		spx_abort(c);
		return;
	}
	e->conn = c;
	spx_set_handlers(c, &end_handlers, e);
}

static void spx_opts_of(const struct ipx_spxb_opts *o, enum ipx_spxb_kind kind,
			bool listener, struct spx_options *so)
{
	memset(so, 0, sizeof(*so));
	/* The listener takes either; the requester offers SPX II only in
	 * the spx2 row, so the spx1 row is a true SPX I connection. */
	so->spx2 = listener || kind == IPX_SPXB_SPX2;
	so->window = o->spx_window;
	so->send_queue = o->send_queue;
}

/* A chunk of whole packets, at most a quarter of the send queue. */
static uint8_t *make_chunk(size_t max_data, size_t queue, size_t *len)
{
	size_t n = queue / 4 / max_data;
	uint8_t *p;

	if (n < 1)
		n = 1;
	*len = n * max_data;
	if (*len > queue)
		*len = queue;
	p = malloc(*len);
	if (p)
		for (size_t i = 0; i < *len; i++)
			p[i] = (uint8_t)(i * 7 + 3);
	return p;
}

static void snap_spx(const struct spx_conn *c, struct snap *s)
{
	struct spx_status st;

	if (!c)
		return;
	spx_get_status(c, &st);
	s->srtt = st.srtt;
	s->rto = st.rto;
	s->rtt_samples = st.stats.rtt_samples;
	s->tx_data = st.stats.tx_data;
	s->retransmits = st.stats.retransmits;
	s->timeouts = st.stats.timeouts;
	s->naks_rx = st.stats.naks_rx;
	s->acks_rx = st.stats.acks_rx;
}

/* ======================================================================
 * udp: the children
 * ====================================================================== */

struct child {
	enum role role;
	const struct ipx_spxb_opts *o;
	enum ipx_spxb_kind kind;
	size_t packet;
	int ctl;
	int credit;		/* receiver: write end; sender: read end */
	bool going, quit;
	struct ipx_loop *loop;
	struct ipx_hub *hub;
	struct ipx_node *node;
	struct ipx_link *link;
	struct ipx_socket *sock;
	struct sockaddr_in hub_addr;
	struct ipx_addr dst;
	/* IPX rows */
	unsigned window;
	uint64_t sent, errors, credited, reported, credit_step;
	uint64_t last_credit_ns, link_errors0;
	uint64_t bytes, packets;	/* receiver */
	uint8_t *payload;
	/* SPX rows */
	struct spx_end end;
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
	memset(s, 0, sizeof(*s));
	s->t_ns = ipx_bench_now_ns();
	ipx_bench_cpu_ns(&s->user_ns, &s->sys_ns);
	if (c->role == R_RECEIVER) {
		s->bytes = is_spx(c->kind) ? c->end.bytes : c->bytes;
		s->packets = is_spx(c->kind) ? c->end.packets : c->packets;
	} else if (c->role == R_SENDER) {
		uint64_t refused = c->link ? c->link->stats.tx_errors -
						     c->link_errors0
					   : 0;

		s->sent = c->sent - c->errors - refused;
		s->errors = c->errors + refused;
		if (is_spx(c->kind))
			snap_spx(c->end.conn, s);
	}
}

static void send_snap(struct child *c)
{
	struct msg m;

	memset(&m, 0, sizeof(m));
	m.type = MSG_SNAP;
	fill_snap(c, &m.snap);
	child_send(c, &m);
}

static void handle_cmd(struct child *c, uint8_t cmd)
{
	switch (cmd) {
	case CMD_GO:
		c->going = true;
		c->last_credit_ns = ipx_bench_now_ns();
		if (is_spx(c->kind) && c->role == R_SENDER) {
			c->end.going = true;
			spx_fill(&c->end);
		}
		break;
	case CMD_MARK:
		send_snap(c);
		break;
	case CMD_STOP:
		c->going = false;
		c->end.going = false;
		c->quit = true;
		break;
	default:
		break;
	}
}

static void on_ctl(struct ipx_loop *loop, int fd, unsigned events, void *ctx)
{
	struct child *c = ctx;

	(void)loop;
	(void)events;
	for (;;) {
		uint8_t buf[16];
		ssize_t n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);

		if (n > 0) {
			for (ssize_t i = 0; i < n; i++)
				handle_cmd(c, buf[i]);
			continue;
		}
		if (n == 0)
			_exit(1);	/* the parent is gone */
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN || errno == EWOULDBLOCK)
			return;
		_exit(1);
	}
}

static void on_credit(struct ipx_loop *loop, int fd, unsigned events,
		      void *ctx)
{
	struct child *c = ctx;
	uint64_t v[64];
	ssize_t n;

	(void)loop;
	(void)events;
	while ((n = read(fd, v, sizeof(v))) > 0) {
		size_t k = (size_t)n / sizeof(v[0]);

		if (k && v[k - 1] > c->credited) {
			c->credited = v[k - 1];
			c->last_credit_ns = ipx_bench_now_ns();
		}
	}
}

static void new_loop(struct child *c)
{
	c->loop = ipx_loop_new(NULL);
	if (!c->loop)
		child_fail(c, "cannot create an event loop");
	if (ipx_loop_add_fd(c->loop, c->ctl, IPX_EV_READ, on_ctl, c) != IPX_OK)
		child_fail(c, "cannot watch the control socket");
}

static void turn(struct child *c, ipx_time wait)
{
	int rc = ipx_loop_run_once(c->loop, wait);

	if (rc < 0 && rc != IPX_EAGAIN)
		child_fail(c, "event loop: %s", ipx_strerror(rc));
}

static void child_exit(struct child *c) __attribute__((noreturn));
static void child_exit(struct child *c)
{
	send_snap(c);
	_exit(0);
}

static void hub_main(struct child *c) __attribute__((noreturn));
static void hub_main(struct child *c)
{
	struct ipx_hub_options ho;
	struct sockaddr_in where;
	struct msg m;
	char err[256];

	new_loop(c);
	memset(&ho, 0, sizeof(ho));
	ho.bind.sin_family = AF_INET;
	ho.bind.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (ipx_hub_open(c->loop, &ho, &c->hub, err, sizeof(err)) != IPX_OK)
		child_fail(c, "%s", err);
	ipx_hub_local(c->hub, &where);
	memset(&m, 0, sizeof(m));
	m.type = MSG_READY;
	m.port = ntohs(where.sin_port);
	child_send(c, &m);
	while (!c->quit)
		turn(c, IDLE_WAIT);
	child_exit(c);
}

static bool link_settled(void *ctx)
{
	struct ipx_link *link = ctx;

	return link->up || ipx_udp_link_error(link) != IPX_OK;
}

static void join_hub(struct child *c)
{
	struct ipx_udp_options uo;
	int rc;

	new_loop(c);
	c->node = ipx_node_new(c->loop, NULL);
	if (!c->node)
		child_fail(c, "out of memory");
	memset(&uo, 0, sizeof(uo));
	uo.register_timeout = 5 * IPX_SEC;
	uo.retry_first = 50 * IPX_MSEC;
	uo.retry_max = 500 * IPX_MSEC;
	rc = ipx_udp_link_open(c->loop, &c->hub_addr, &uo, &c->link);
	if (rc == IPX_OK)
		rc = ipx_node_add_link(c->node, c->link);
	if (rc != IPX_OK)
		child_fail(c, "cannot open the tunnel link: %s",
			   ipx_strerror(rc));
	rc = ipx_loop_run_until(c->loop, link_settled, c->link, 6 * IPX_SEC);
	if (!c->link->up)
		child_fail(c, "could not register with the hub at "
			      "127.0.0.1:%u (%s)",
			   ntohs(c->hub_addr.sin_port),
			   ipx_strerror(rc ? rc : ipx_udp_link_error(c->link)));
}

static void on_datagram(struct ipx_socket *sock, const struct ipx_header *hdr,
			const uint8_t *data, size_t len, void *ctx)
{
	struct child *c = ctx;

	(void)sock;
	(void)hdr;
	(void)data;
	c->packets++;
	c->bytes += len;
}

static void receiver_main(struct child *c) __attribute__((noreturn));
static void receiver_main(struct child *c)
{
	struct msg m;
	int rc;

	join_hub(c);
	if (is_spx(c->kind)) {
		struct spx_options so;

		spx_opts_of(c->o, c->kind, true, &so);
		c->end.spx = spx_new(c->node, &so);
		if (!c->end.spx)
			child_fail(c, "out of memory");
		rc = spx_listen(c->end.spx, BENCH_SOCKET, end_on_accept,
				&c->end, &c->end.lst);
	} else {
		rc = ipx_socket_open(c->node, BENCH_SOCKET, on_datagram, c,
				     &c->sock);
	}
	if (rc != IPX_OK)
		child_fail(c, "cannot open IPX socket %04X: %s", BENCH_SOCKET,
			   ipx_strerror(rc));
	memset(&m, 0, sizeof(m));
	m.type = MSG_READY;
	ipx_node_address(c->node, &m.addr);
	m.addr.socket = BENCH_SOCKET;
	child_send(c, &m);
	while (!c->quit) {
		turn(c, IDLE_WAIT);
		/* IPX rows: a credit every quarter window. */
		if (c->credit >= 0 && c->packets - c->reported >= c->credit_step &&
		    write(c->credit, &c->packets, sizeof(c->packets)) ==
			    (ssize_t)sizeof(c->packets))
			c->reported = c->packets;
	}
	child_exit(c);
}

/* IPX rows: how many datagrams the sender may send now. */
static unsigned allowance(struct child *c)
{
	uint64_t sent, inflight;

	if (!c->going)
		return 0;
	sent = c->sent - c->errors -
	       (c->link->stats.tx_errors - c->link_errors0);
	inflight = sent > c->credited ? sent - c->credited : 0;
	if (inflight >= c->window) {
		/* Credits stopped: something was lost. Forgive it. */
		if (ipx_bench_now_ns() - c->last_credit_ns > STALL_NS) {
			c->credited = sent;
			c->last_credit_ns = ipx_bench_now_ns();
		}
		return 0;
	}
	inflight = c->window - inflight;
	return inflight < SEND_BURST ? (unsigned)inflight : SEND_BURST;
}

static bool end_connected(void *ctx)
{
	return ((struct spx_end *)ctx)->connected != 0;
}

static void sender_main(struct child *c) __attribute__((noreturn));
static void sender_main(struct child *c)
{
	struct msg m;
	int rc;

	join_hub(c);
	memset(&m, 0, sizeof(m));
	m.type = MSG_READY;
	if (is_spx(c->kind)) {
		struct spx_options so;
		struct spx_status st;
		size_t queue;

		spx_opts_of(c->o, c->kind, false, &so);
		c->end.spx = spx_new(c->node, &so);
		if (!c->end.spx)
			child_fail(c, "out of memory");
		rc = spx_connect(c->end.spx, &c->dst, &end_handlers, &c->end,
				 &c->end.conn);
		if (rc != IPX_OK)
			child_fail(c, "spx_connect: %s", ipx_strerror(rc));
		ipx_loop_run_until(c->loop, end_connected, &c->end,
				   CONNECT_WAIT);
		if (c->end.connected != IPX_OK + 1000)
			child_fail(c, "the SPX connection to the receiver "
				      "failed: %s",
				   c->end.connected
					   ? ipx_strerror(c->end.connected -
							  1000)
					   : "no answer in 5 s");
		spx_get_status(c->end.conn, &st);
		queue = c->o->send_queue ? c->o->send_queue : 64 * 1024;
		c->payload = make_chunk(st.max_data, queue, &c->end.chunk_len);
		if (!c->payload)
			child_fail(c, "out of memory");
		c->end.chunk = c->payload;
		m.version = st.version;
		m.window = st.window;
		m.max_data = st.max_data;
	} else {
		size_t len = payload_of(c->packet, c->kind);

		c->payload = malloc(len);
		if (!c->payload)
			child_fail(c, "out of memory");
		for (size_t i = 0; i < len; i++)
			c->payload[i] = (uint8_t)(i * 7 + 1);
		rc = ipx_socket_open(c->node, 0, on_datagram, c, &c->sock);
		if (rc != IPX_OK)
			child_fail(c, "cannot open an IPX socket: %s",
				   ipx_strerror(rc));
		if (ipx_loop_add_fd(c->loop, c->credit, IPX_EV_READ, on_credit,
				    c) != IPX_OK)
			child_fail(c, "cannot watch the credit pipe");
		c->link_errors0 = c->link->stats.tx_errors;
	}
	child_send(c, &m);
	while (!c->quit) {
		unsigned n = 0;

		if (!is_spx(c->kind)) {
			size_t len = payload_of(c->packet, c->kind);

			n = allowance(c);
			for (unsigned i = 0; i < n; i++) {
				rc = ipx_socket_sendto(c->sock, &c->dst,
						       IPX_TYPE_PEP,
						       c->payload, len);
				c->sent++;
				if (rc != IPX_OK)
					c->errors++;
			}
		}
		if (is_spx(c->kind) && c->end.closed)
			child_fail(c, "the SPX connection closed during the "
				      "run");
		/* Flushes the link's queue (one sendmmsg), then polls. */
		turn(c, n ? 0 : IDLE_WAIT);
	}
	c->link->ops->flush(c->link);
	child_exit(c);
}

/* ======================================================================
 * udp: the parent
 * ====================================================================== */

struct run {
	const struct ipx_spxb_opts *o;
	enum ipx_spxb_kind kind;
	size_t packet;
	unsigned window;	/* IPX rows */
	struct ipx_bench_child p[R_COUNT];
	int credit[2];
	struct sockaddr_in hub_addr;
	struct ipx_addr dst;
	pid_t parent;
	char *err;
	size_t errlen;
};

typedef void (*child_fn)(struct child *c);

static void child_prologue(struct run *r, struct child *c)
{
	sigset_t none;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != r->parent)
		_exit(1);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGALRM, SIG_DFL);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	/* The last resort against a stray child. */
	alarm((unsigned)(r->o->warmup + r->o->seconds) + 30);
	for (int i = 0; i < R_COUNT; i++)
		if (r->p[i].present)
			close(r->p[i].fd);
	c->credit = -1;
	if (c->role == R_RECEIVER && r->credit[1] >= 0) {
		c->credit = r->credit[1];
		ipx_bench_close_fd(&r->credit[0]);
	} else if (c->role == R_SENDER && r->credit[0] >= 0) {
		c->credit = r->credit[0];
		ipx_bench_close_fd(&r->credit[1]);
	} else {
		ipx_bench_close_fd(&r->credit[0]);
		ipx_bench_close_fd(&r->credit[1]);
	}
	if (fcntl(c->ctl, F_SETFL, fcntl(c->ctl, F_GETFL) | O_NONBLOCK) < 0)
		child_fail(c, "fcntl: %s", strerror(errno));
}

static int spawn(struct run *r, enum role role, child_fn fn)
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
		c.kind = r->kind;
		c.packet = r->packet;
		c.ctl = sv[1];
		c.hub_addr = r->hub_addr;
		c.dst = r->dst;
		c.window = r->window;
		c.credit_step = r->window / 4 ? r->window / 4 : 1;
		close(sv[0]);
		child_prologue(r, &c);
		fn(&c);
		_exit(1);	/* not reached */
	}
	close(sv[1]);
	r->p[role] = (struct ipx_bench_child){ .present = true, .pid = pid, .fd = sv[0] };
	return IPX_OK;
}

static void kill_all(struct run *r)
{
	for (int i = 0; i < R_COUNT; i++)
		if (r->p[i].present)
			kill(r->p[i].pid, SIGKILL);
	for (int i = 0; i < R_COUNT; i++)
		ipx_bench_reap(&r->p[i], EXIT_MS, NULL);
}

static int child_gone(struct run *r, enum role role)
{
	int st = 0;
	char why[80];

	ipx_bench_reap(&r->p[role], 500, &st);
	ipx_bench_set_err(r->err, r->errlen, "the %s process ended: %s", role_names[role],
		ipx_hnet_exit_text(st, why, sizeof(why)));
	return IPX_EIO;
}

static int recv_msg(struct run *r, enum role role, struct msg *m,
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
				role_names[role], ms / 1000.0);
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
			role_names[role]);
		return IPX_EIO;
	}
	if (m->type == MSG_ERROR) {
		m->text[sizeof(m->text) - 1] = '\0';
		ipx_bench_set_err(r->err, r->errlen, "%s: %s", role_names[role], m->text);
		return IPX_EIO;
	}
	return IPX_OK;
}

static int expect(struct run *r, enum role role, uint32_t type,
		  struct msg *m, unsigned ms)
{
	int rc = recv_msg(r, role, m, ms);

	if (rc == IPX_OK && m->type != type) {
		ipx_bench_set_err(r->err, r->errlen,
			"unexpected message %u from the %s process", m->type,
			role_names[role]);
		rc = IPX_EIO;
	}
	return rc;
}

static int command(struct run *r, enum role role, uint8_t cmd)
{
	while (send(r->p[role].fd, &cmd, 1, MSG_NOSIGNAL) < 0) {
		if (errno == EINTR)
			continue;
		return child_gone(r, role);
	}
	return IPX_OK;
}

/* Sleep ms, but fail at once if a child speaks (an error) or dies. */
static int quiet(struct run *r, unsigned ms)
{
	uint64_t end = ipx_bench_now_ns() + (uint64_t)ms * 1000000ull;

	for (;;) {
		struct pollfd pfd[R_COUNT];
		enum role who[R_COUNT];
		nfds_t n = 0;
		uint64_t now = ipx_bench_now_ns();
		int rc;

		if (now >= end)
			return IPX_OK;
		for (int i = 0; i < R_COUNT; i++) {
			if (!r->p[i].present)
				continue;
			pfd[n] = (struct pollfd){ .fd = r->p[i].fd,
						  .events = POLLIN };
			who[n++] = (enum role)i;
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
					role_names[who[i]]);
				e = IPX_EIO;
			}
			return e;
		}
	}
}

static int mark_all(struct run *r, struct msg *m)
{
	int rc;

	for (int i = 0; i < R_COUNT; i++)
		if ((rc = command(r, (enum role)i, CMD_MARK)))
			return rc;
	for (int i = 0; i < R_COUNT; i++)
		if ((rc = expect(r, (enum role)i, MSG_SNAP, &m[i], REPLY_MS)))
			return rc;
	return IPX_OK;
}

static int finish(struct run *r, enum role role, struct msg *m)
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
			role_names[role], ipx_hnet_exit_text(st, why, sizeof(why)));
		return IPX_EIO;
	}
	return IPX_OK;
}

static double cpu_share(const struct snap *a, const struct snap *b)
{
	double wall = (double)(b->t_ns - a->t_ns);

	return wall > 0 ? (double)(b->user_ns + b->sys_ns - a->user_ns -
				   a->sys_ns) /
				  wall
			: 0;
}

static int run_udp(struct run *r, struct ipx_spxb_result *out)
{
	const struct ipx_spxb_opts *o = r->o;
	struct msg m, m1[R_COUNT], m2[R_COUNT], fin[R_COUNT];
	uint64_t b1 = 0, b2 = 0;
	bool mb;
	int rc;

	memset(m1, 0, sizeof(m1));
	memset(m2, 0, sizeof(m2));
	memset(fin, 0, sizeof(fin));
	if (!is_spx(r->kind) &&
	    pipe2(r->credit, O_NONBLOCK | O_CLOEXEC) < 0) {
		ipx_bench_set_err(r->err, r->errlen, "pipe: %s", strerror(errno));
		return IPX_EIO;
	}
	r->hub_addr.sin_family = AF_INET;
	r->hub_addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if ((rc = spawn(r, R_HUB, hub_main)) ||
	    (rc = expect(r, R_HUB, MSG_READY, &m, READY_MS)))
		return rc;
	r->hub_addr.sin_port = htons(m.port);
	if ((rc = spawn(r, R_RECEIVER, receiver_main)) ||
	    (rc = expect(r, R_RECEIVER, MSG_READY, &m, READY_MS)))
		return rc;
	r->dst = m.addr;
	if ((rc = spawn(r, R_SENDER, sender_main)) ||
	    (rc = expect(r, R_SENDER, MSG_READY, &m, READY_MS)))
		return rc;
	ipx_bench_close_fd(&r->credit[0]);
	ipx_bench_close_fd(&r->credit[1]);
	if (is_spx(r->kind)) {
		out->version = m.version;
		out->window = m.window;
		out->payload = (size_t)m.max_data;
		out->packet = out->payload + IPX_HDR_LEN +
			      (m.version == 2 ? SPX2_HDR_LEN : SPX_HDR_LEN);
	} else {
		out->window = r->window;
	}
	if ((rc = command(r, R_SENDER, CMD_GO)) ||
	    (rc = quiet(r, (unsigned)(o->warmup * 1000))))
		return rc;
	mb = machine_busy(&b1);
	if ((rc = mark_all(r, m1)) ||
	    (rc = quiet(r, (unsigned)(o->seconds * 1000))) ||
	    (rc = mark_all(r, m2)))
		return rc;
	mb = mb && machine_busy(&b2);
	if ((rc = finish(r, R_SENDER, &fin[R_SENDER])) ||
	    (rc = finish(r, R_RECEIVER, &fin[R_RECEIVER])) ||
	    (rc = finish(r, R_HUB, &fin[R_HUB])))
		return rc;
	{
		const struct snap *a = &m1[R_RECEIVER].snap;
		const struct snap *b = &m2[R_RECEIVER].snap;
		const struct snap *sa = &m1[R_SENDER].snap;
		const struct snap *sb = &m2[R_SENDER].snap;

		out->seconds = (double)(b->t_ns - a->t_ns) / 1e9;
		out->bytes = b->bytes - a->bytes;
		out->packets = b->packets - a->packets;
		out->srtt_us = (double)sb->srtt;
		out->rto_us = (double)sb->rto;
		out->rtt_samples = sb->rtt_samples;
		out->tx_data = sb->tx_data - sa->tx_data;
		out->retransmits = sb->retransmits - sa->retransmits;
		out->timeouts = sb->timeouts - sa->timeouts;
		out->naks_rx = sb->naks_rx - sa->naks_rx;
		out->acks_rx = sb->acks_rx - sa->acks_rx;
		out->cpu_sender = cpu_share(sa, sb);
		out->cpu_hub = cpu_share(&m1[R_HUB].snap, &m2[R_HUB].snap);
		out->cpu_receiver = cpu_share(a, b);
		if (mb)
			out->machine_busy = busy_cpus(
				b1, b2,
				(double)(m2[R_HUB].snap.t_ns -
					 m1[R_HUB].snap.t_ns) /
					1e9);
	}
	out->sent = fin[R_SENDER].snap.sent;
	out->delivered = fin[R_RECEIVER].snap.packets;
	return IPX_OK;
}

/* ======================================================================
 * mem: one process, two nodes on an in-memory segment, the real clock
 * ====================================================================== */

struct mem_rx {
	uint64_t bytes, packets;
};

static void mem_on_datagram(struct ipx_socket *sock,
			    const struct ipx_header *hdr, const uint8_t *data,
			    size_t len, void *ctx)
{
	struct mem_rx *rx = ctx;

	(void)sock;
	(void)hdr;
	(void)data;
	rx->bytes += len;
	rx->packets++;
}

struct mem_world {
	struct ipx_loop *loop;
	struct ipx_mem_segment *seg;
	struct ipx_node *node[2];	/* 0 sends, 1 receives */
	struct spx_end end[2];
	struct ipx_socket *sock[2];
	struct ipx_addr dst;		/* the receiver's socket */
	struct mem_rx rx;
	uint8_t *payload;
};

static void mem_free(struct mem_world *w)
{
	for (int i = 0; i < 2; i++) {
		if (w->end[i].spx)
			spx_free(w->end[i].spx);
		if (w->node[i])
			ipx_node_free(w->node[i]);
	}
	if (w->seg)
		ipx_mem_segment_free(w->seg);
	if (w->loop)
		ipx_loop_free(w->loop);
	free(w->payload);
}

/* One turn of the sender, then of the loop. */
static int mem_turn(struct mem_world *w, enum ipx_spxb_kind kind,
		    size_t len, unsigned window, uint64_t *sent)
{
	int rc;

	if (!is_spx(kind)) {
		while (*sent - w->rx.packets < window) {
			if (ipx_socket_sendto(w->sock[0], &w->dst, IPX_TYPE_PEP,
					      w->payload, len) != IPX_OK)
				return IPX_EIO;
			(*sent)++;
		}
	}
	rc = ipx_loop_run_once(w->loop, 0);
	return rc < 0 && rc != IPX_EAGAIN ? rc : IPX_OK;
}

static int run_mem(const struct ipx_spxb_opts *o, enum ipx_spxb_kind kind,
		   size_t packet, struct ipx_spxb_result *out, char *err,
		   size_t errlen)
{
	struct mem_world w;
	size_t len = payload_of(packet, kind);
	unsigned window = ipx_window_of(o, len);
	uint64_t sent = 0, t0, t1, t2, u1, s1, u2, s2, b1 = 0, b2 = 0;
	uint64_t bytes1 = 0, pk1 = 0;
	struct snap sp1, sp2;
	bool mb;
	int rc = IPX_OK;

	memset(&w, 0, sizeof(w));
	memset(&sp1, 0, sizeof(sp1));
	memset(&sp2, 0, sizeof(sp2));
	w.loop = ipx_loop_new(NULL);
	if (!w.loop)
		goto nomem;
	w.seg = ipx_mem_segment_new(w.loop, MEM_NET, 1);
	if (!w.seg)
		goto nomem;
	ipx_mem_segment_set_mtu(w.seg, o->mem_mtu);
	for (int i = 0; i < 2; i++) {
		struct ipx_link *l;

		w.node[i] = ipx_node_new(w.loop, NULL);
		if (!w.node[i])
			goto nomem;
		l = ipx_mem_link_new(w.seg, NULL);	/* 02:..:01, 02:..:02 */
		if (!l)
			goto nomem;
		if ((rc = ipx_node_add_link(w.node[i], l)) != IPX_OK) {
			ipx_bench_set_err(err, errlen, "cannot attach a link: %s",
				ipx_strerror(rc));
			goto out;
		}
	}
	if (is_spx(kind)) {
		struct spx_options so;
		struct spx_status st;
		struct ipx_addr dst;
		size_t queue = o->send_queue ? o->send_queue : 64 * 1024;

		for (int i = 0; i < 2; i++) {
			spx_opts_of(o, kind, i == 1, &so);
			w.end[i].spx = spx_new(w.node[i], &so);
			if (!w.end[i].spx)
				goto nomem;
		}
		rc = spx_listen(w.end[1].spx, BENCH_SOCKET, end_on_accept,
				&w.end[1], &w.end[1].lst);
		ipx_node_address(w.node[1], &dst);
		dst.socket = BENCH_SOCKET;
		if (rc == IPX_OK)
			rc = spx_connect(w.end[0].spx, &dst, &end_handlers,
					 &w.end[0], &w.end[0].conn);
		if (rc == IPX_OK)
			ipx_loop_run_until(w.loop, end_connected, &w.end[0],
					   CONNECT_WAIT);
		if (rc != IPX_OK || w.end[0].connected != IPX_OK + 1000) {
			ipx_bench_set_err(err, errlen,
				"the SPX connection on the in-memory link "
				"failed: %s",
				ipx_strerror(rc != IPX_OK ? rc
				     : w.end[0].connected
					     ? w.end[0].connected - 1000
					     : IPX_ETIMEOUT));
			rc = IPX_EIO;
			goto out;
		}
		/* Let the listener see the negotiation finish. */
		ipx_loop_run_for(w.loop, 10 * IPX_MSEC);
		spx_get_status(w.end[0].conn, &st);
		out->version = st.version;
		out->window = st.window;
		out->payload = st.max_data;
		out->packet = st.max_data + IPX_HDR_LEN +
			      (st.version == 2 ? SPX2_HDR_LEN : SPX_HDR_LEN);
		w.payload = make_chunk(st.max_data, queue, &w.end[0].chunk_len);
		if (!w.payload)
			goto nomem;
		w.end[0].chunk = w.payload;
		w.end[0].going = true;
		spx_fill(&w.end[0]);
	} else {
		w.payload = calloc(1, len);
		if (!w.payload)
			goto nomem;
		if ((rc = ipx_socket_open(w.node[1], BENCH_SOCKET,
					  mem_on_datagram, &w.rx,
					  &w.sock[1])) != IPX_OK ||
		    (rc = ipx_socket_open(w.node[0], 0, mem_on_datagram, &w.rx,
					  &w.sock[0])) != IPX_OK) {
			ipx_bench_set_err(err, errlen, "cannot open an IPX socket: %s",
				ipx_strerror(rc));
			goto out;
		}
		ipx_node_address(w.node[1], &w.dst);
		w.dst.socket = BENCH_SOCKET;
		out->window = window;
	}

	t0 = ipx_bench_now_ns();
	while (ipx_bench_now_ns() - t0 < (uint64_t)(o->warmup * 1e9))
		if ((rc = mem_turn(&w, kind, len, window, &sent)) != IPX_OK)
			goto failed;
	mb = machine_busy(&b1);
	ipx_bench_cpu_ns(&u1, &s1);
	t1 = ipx_bench_now_ns();
	bytes1 = is_spx(kind) ? w.end[1].bytes : w.rx.bytes;
	pk1 = is_spx(kind) ? w.end[1].packets : w.rx.packets;
	snap_spx(w.end[0].conn, &sp1);
	while (ipx_bench_now_ns() - t1 < (uint64_t)(o->seconds * 1e9)) {
		if ((rc = mem_turn(&w, kind, len, window, &sent)) != IPX_OK)
			goto failed;
		if (is_spx(kind) && w.end[0].closed) {
			ipx_bench_set_err(err, errlen, "the SPX connection closed during "
					     "the run");
			rc = IPX_EIO;
			goto out;
		}
	}
	t2 = ipx_bench_now_ns();
	ipx_bench_cpu_ns(&u2, &s2);
	mb = mb && machine_busy(&b2);
	snap_spx(w.end[0].conn, &sp2);
	out->seconds = (double)(t2 - t1) / 1e9;
	out->bytes = (is_spx(kind) ? w.end[1].bytes : w.rx.bytes) - bytes1;
	out->packets = (is_spx(kind) ? w.end[1].packets : w.rx.packets) - pk1;
	out->cpu_sender = (double)(u2 + s2 - u1 - s1) / (double)(t2 - t1);
	if (mb)
		out->machine_busy = busy_cpus(b1, b2, out->seconds);
	out->srtt_us = (double)sp2.srtt;
	out->rto_us = (double)sp2.rto;
	out->rtt_samples = sp2.rtt_samples;
	out->tx_data = sp2.tx_data - sp1.tx_data;
	out->retransmits = sp2.retransmits - sp1.retransmits;
	out->timeouts = sp2.timeouts - sp1.timeouts;
	out->naks_rx = sp2.naks_rx - sp1.naks_rx;
	out->acks_rx = sp2.acks_rx - sp1.acks_rx;
	out->sent = sent;
	out->delivered = w.rx.packets;
	rc = IPX_OK;
	goto out;
failed:
	ipx_bench_set_err(err, errlen, "the in-memory run failed: %s", ipx_strerror(rc));
	goto out;
nomem:
	ipx_bench_set_err(err, errlen, "out of memory");
	rc = IPX_ENOMEM;
out:
	mem_free(&w);
	return rc;
}

/* ====================================================================== */

int ipx_spxb_run(const struct ipx_spxb_opts *o, enum ipx_spxb_link link,
		 enum ipx_spxb_kind kind, struct ipx_spxb_result *out,
		 char *err, size_t errlen)
{
	size_t packet;
	int rc;

	memset(out, 0, sizeof(*out));
	if (link >= IPX_SPXB_LINKS || kind >= IPX_SPXB_KINDS ||
	    o->seconds <= 0 || o->warmup < 0 || o->mem_mtu < 576 ||
	    o->mem_mtu > IPX_MAX_PACKET) {
		ipx_bench_set_err(err, errlen, "bad benchmark options");
		return IPX_EINVAL;
	}
	packet = ipx_spxb_packet_size(o, link, kind);
	out->link = link;
	out->kind = kind;
	out->packet = packet;
	out->payload = payload_of(packet, kind);
	if (link == IPX_SPXB_MEM) {
		rc = run_mem(o, kind, packet, out, err, errlen);
	} else {
		struct run r;

		memset(&r, 0, sizeof(r));
		r.o = o;
		r.kind = kind;
		r.packet = packet;
		r.window = ipx_window_of(o, payload_of(packet, kind));
		r.credit[0] = r.credit[1] = -1;
		r.parent = getpid();
		r.err = err;
		r.errlen = errlen;
		for (int i = 0; i < R_COUNT; i++)
			r.p[i].fd = -1;
		rc = run_udp(&r, out);
		/* On success every child is reaped already; on error none
		 * may stay. */
		kill_all(&r);
		ipx_bench_close_fd(&r.credit[0]);
		ipx_bench_close_fd(&r.credit[1]);
	}
	if (rc != IPX_OK)
		return rc;
	out->goodput = out->seconds > 0 ? (double)out->bytes / out->seconds
					: 0;
	out->pps = out->seconds > 0 ? (double)out->packets / out->seconds : 0;
	return IPX_OK;
}
