/*
 * ethrate.c - the Ethernet link benchmark (bench_eth.h, bench/README.md):
 * IPX datagrams over src/link/eth.c beside a plain AF_PACKET sender and
 * receiver of the same frames.
 *
 * One call measures one path with two forked processes, each in its own
 * network namespace. The parent talks to each over a SOCK_SEQPACKET
 * socketpair: commands down ('g' + the receiver's MAC: start sending;
 * 'm': reply with a snapshot; 's': stop, reply with the last snapshot and
 * exit), one struct msg up (ready, snapshot, or error). Every child dies
 * with the parent (PR_SET_PDEATHSIG) and carries an alarm.
 */
#include "ipxlab/bench_eth.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/link_eth.h"
#include "ipxlab/log.h"
#include "ipxlab/node.h"

#include "bench_util.h"

#define BATCH 64		/* frames per sendmmsg/recvmmsg and per turn */
#define SOCKET_NO 0x4545	/* the receiver's IPX socket */
#define FRAME_BUF 2048
#define READY_MS 5000
#define REPLY_MS 3000
#define CHILD_ALARM_S 120

enum { CMD_GO = 'g', CMD_MARK = 'm', CMD_STOP = 's' };
enum { MSG_READY = 1, MSG_SNAP, MSG_ERROR };

struct snap {
	uint64_t t_ns;
	uint64_t count;		/* sender: frames sent; receiver: counted */
	uint64_t cpu_ns;	/* user + system */
	uint64_t drops;		/* ipx receiver: its link's frame drops */
};

struct msg {
	uint32_t type;
	uint8_t mac[6];		/* ready: the interface's MAC */
	struct snap snap;
	char text[320];		/* error */
};

/* A child's state. */
struct worker {
	const struct ipx_ethb_opts *o;
	enum ipx_ethb_path path;
	bool sender;
	int ctl;
	bool go, stop;
	uint8_t dst[6];
	uint64_t count;
	/* raw */
	int fd;
	uint8_t mac[6];
	size_t flen;
	uint8_t frame[FRAME_BUF];
	/* ipx */
	struct ipx_loop *loop;
	struct ipx_node *node;
	struct ipx_link *link;
	struct ipx_socket *sock;
	uint8_t payload[IPX_MAX_PACKET];
};

static uint64_t cpu_ns(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) *
		       1000000000ull +
	       (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000u;
}

static void errorf(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void errorf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

const char *ipx_ethb_path_name(enum ipx_ethb_path path)
{
	return path == IPX_ETHB_RAW ? "raw" : "ipx";
}

void ipx_ethb_opts_default(struct ipx_ethb_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->seconds = IPX_ETHB_DEFAULT_SECONDS;
	o->warmup = IPX_ETHB_DEFAULT_WARMUP;
	o->payload = IPX_ETHB_DEFAULT_PAYLOAD;
	o->frame = IPX_FRAME_ETHERNET_II;
}

int ipx_ethb_parse_end(const char *text, struct ipx_ethb_end *out,
		       char *err, size_t errlen)
{
	const char *at = strchr(text, '@');
	size_t n = at ? (size_t)(at - text) : strlen(text);

	memset(out, 0, sizeof(*out));
	if (n == 0 || n >= sizeof(out->ifname)) {
		errorf(err, errlen,
		       "'%s': the interface name must be 1 to %zu characters",
		       text, sizeof(out->ifname) - 1);
		return IPX_EINVAL;
	}
	memcpy(out->ifname, text, n);
	if (at) {
		if (!at[1] || strlen(at + 1) >= sizeof(out->netns)) {
			errorf(err, errlen,
			       "'%s': give a network namespace after '@' "
			       "(a name from 'ip netns list')",
			       text);
			return IPX_EINVAL;
		}
		strcpy(out->netns, at + 1);
	}
	return IPX_OK;
}

size_t ipx_ethb_frame_len(const struct ipx_ethb_opts *o)
{
	size_t n = IPX_ETH_HDR_LEN + ipx_frame_overhead(o->frame) +
		   IPX_HDR_LEN + o->payload;

	return n < IPX_ETH_MIN_FRAME ? IPX_ETH_MIN_FRAME : n;
}

/* ---- the child side ---- */

static void child_send(struct worker *w, uint32_t type, const char *text)
{
	struct msg m;

	memset(&m, 0, sizeof(m));
	m.type = type;
	memcpy(m.mac, w->mac, 6);
	m.snap.t_ns = ipx_bench_now_ns();
	m.snap.cpu_ns = cpu_ns();
	m.snap.count = w->count;
	if (w->link) {
		if (w->sender)
			m.snap.count = w->link->stats.tx_packets;
		for (int d = 0; d < IPX_FRAME_DROP_COUNT; d++)
			m.snap.drops += ipx_eth_link_drops(
				w->link, (enum ipx_frame_drop)d);
	}
	if (text)
		snprintf(m.text, sizeof(m.text), "%s", text);
	if (send(w->ctl, &m, sizeof(m), MSG_NOSIGNAL) < 0)
		_exit(3);	/* the parent is gone */
}

static void child_fail(struct worker *w, const char *text)
	__attribute__((noreturn));
static void child_fail(struct worker *w, const char *text)
{
	child_send(w, MSG_ERROR, text);
	_exit(1);
}

/* Read every command waiting; blocks for the first if 'wait'. */
static void read_ctl(struct worker *w, bool wait)
{
	uint8_t buf[16];
	ssize_t n;

	while ((n = recv(w->ctl, buf, sizeof(buf), wait ? 0 : MSG_DONTWAIT)) >
	       0) {
		wait = false;
		if (buf[0] == CMD_GO && n >= 7) {
			memcpy(w->dst, buf + 1, 6);
			w->go = true;
		} else if (buf[0] == CMD_MARK) {
			child_send(w, MSG_SNAP, NULL);
		} else if (buf[0] == CMD_STOP) {
			w->stop = true;
		}
	}
	if (n == 0)
		_exit(3);	/* the parent is gone */
}

static void enter_netns(struct worker *w, const char *name)
{
	char path[160], text[320];
	int fd;

	if (!*name)
		return;
	snprintf(path, sizeof(path), "%s%s", strchr(name, '/') ? "" :
					     "/var/run/netns/", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || setns(fd, CLONE_NEWNET) < 0) {
		snprintf(text, sizeof(text),
			 "cannot enter network namespace %s: %s", path,
			 strerror(errno));
		child_fail(w, text);
	}
	close(fd);
}

/* The raw path's socket: bound to the frame type's protocol (receiver)
 * or to none (sender: it never receives). */
static void raw_open(struct worker *w, const char *ifname)
{
	static const uint16_t proto[IPX_FRAME_TYPES] = {
		[IPX_FRAME_ETHERNET_II] = ETH_P_IPX,
		[IPX_FRAME_8023] = ETH_P_802_3,
		[IPX_FRAME_8022] = ETH_P_802_2,
		[IPX_FRAME_SNAP] = ETH_P_802_2,
	};
	uint16_t p = w->sender ? 0 : htons(proto[w->o->frame]);
	struct sockaddr_ll a = { .sll_family = AF_PACKET, .sll_protocol = p };
	struct ifreq ifr;
	int size = 4 << 20;
	char text[320];

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	a.sll_ifindex = (int)if_nametoindex(ifname);
	w->fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, p);
	if (w->fd < 0 || !a.sll_ifindex ||
	    bind(w->fd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    ioctl(w->fd, SIOCGIFHWADDR, &ifr) < 0) {
		snprintf(text, sizeof(text), "raw socket on %s: %s%s", ifname,
			 !a.sll_ifindex ? "no such interface"
					: strerror(errno),
			 errno == EPERM ? " (needs root or CAP_NET_RAW)" : "");
		child_fail(w, text);
	}
	memcpy(w->mac, ifr.ifr_hwaddr.sa_data, 6);
	if (setsockopt(w->fd, SOL_SOCKET, SO_RCVBUFFORCE, &size,
		       sizeof(size)) < 0)
		setsockopt(w->fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	if (setsockopt(w->fd, SOL_SOCKET, SO_SNDBUFFORCE, &size,
		       sizeof(size)) < 0)
		setsockopt(w->fd, SOL_SOCKET, SO_SNDBUF, &size, sizeof(size));
}

/* The datagram both paths carry: an IPX packet from the sender's MAC to
 * the receiver's socket, and (raw) its frame. */
static void build_frame(struct worker *w)
{
	uint8_t pkt[IPX_MAX_PACKET];
	struct ipx_header h = { .checksum = IPX_NO_CHECKSUM,
				.type = 4 };
	size_t len = IPX_HDR_LEN + w->o->payload;

	h.length = (uint16_t)len;
	memcpy(h.dst.node, w->dst, 6);
	h.dst.socket = SOCKET_NO;
	memcpy(h.src.node, w->mac, 6);
	h.src.socket = SOCKET_NO;
	ipx_header_encode(&h, pkt);
	memcpy(pkt + IPX_HDR_LEN, w->payload, w->o->payload);
	w->flen = ipx_frame_encode(w->o->frame, w->dst, w->mac, pkt, len,
				   w->frame, sizeof(w->frame));
}

static void raw_sender(struct worker *w)
{
	struct mmsghdr msgs[BATCH];
	struct iovec iov = { 0 };

	while (!w->go && !w->stop)
		read_ctl(w, true);
	build_frame(w);
	iov.iov_base = w->frame;
	iov.iov_len = w->flen;
	memset(msgs, 0, sizeof(msgs));
	for (int i = 0; i < BATCH; i++) {
		msgs[i].msg_hdr.msg_iov = &iov;
		msgs[i].msg_hdr.msg_iovlen = 1;
	}
	while (!w->stop) {
		int n = sendmmsg(w->fd, msgs, BATCH, 0);

		if (n > 0)
			w->count += (uint64_t)n;
		read_ctl(w, false);
	}
}

static void raw_receiver(struct worker *w)
{
	static uint8_t bufs[BATCH][FRAME_BUF];
	struct mmsghdr msgs[BATCH];
	struct iovec iov[BATCH];
	size_t want = ipx_ethb_frame_len(w->o);

	while (!w->stop) {
		struct pollfd p[2] = { { w->fd, POLLIN, 0 },
				       { w->ctl, POLLIN, 0 } };
		int n;

		if (poll(p, 2, -1) < 0 && errno != EINTR)
			child_fail(w, "poll failed");
		if (p[1].revents)
			read_ctl(w, false);
		if (!p[0].revents)
			continue;
		do {
			for (int i = 0; i < BATCH; i++) {
				iov[i].iov_base = bufs[i];
				iov[i].iov_len = FRAME_BUF;
				memset(&msgs[i], 0, sizeof(msgs[i]));
				msgs[i].msg_hdr.msg_iov = &iov[i];
				msgs[i].msg_hdr.msg_iovlen = 1;
			}
			n = recvmmsg(w->fd, msgs, BATCH, MSG_DONTWAIT, NULL);
			for (int i = 0; i < n; i++)
				if (msgs[i].msg_len == want)
					w->count++;
		} while (n == BATCH);
	}
}

static void on_ctl(struct ipx_loop *loop, int fd, unsigned events, void *ctx)
{
	(void)loop;
	(void)fd;
	(void)events;
	read_ctl(ctx, false);
}

static void on_datagram(struct ipx_socket *sock, const struct ipx_header *hdr,
			const uint8_t *data, size_t len, void *ctx)
{
	struct worker *w = ctx;

	(void)sock;
	(void)hdr;
	(void)data;
	if (len == w->o->payload)
		w->count++;
}

static void ipx_open(struct worker *w, const char *ifname)
{
	struct ipx_eth_options eo = { .frame = w->o->frame };
	char err[256];

	w->loop = ipx_loop_new(ipx_clock_system());
	w->node = w->loop ? ipx_node_new(w->loop, NULL) : NULL;
	if (!w->node)
		child_fail(w, "out of memory");
	if (ipx_eth_link_open(w->loop, ifname, &eo, &w->link, err,
			      sizeof(err)) != IPX_OK)
		child_fail(w, err);
	memcpy(w->mac, w->link->node, 6);
	if (ipx_node_add_link(w->node, w->link) != IPX_OK ||
	    ipx_socket_open(w->node, SOCKET_NO, on_datagram, w, &w->sock) !=
		    IPX_OK ||
	    ipx_loop_add_fd(w->loop, w->ctl, IPX_EV_READ, on_ctl, w) !=
		    IPX_OK)
		child_fail(w, "cannot set up the IPX node");
}

static void ipx_sender(struct worker *w)
{
	struct ipx_addr dst = { .socket = SOCKET_NO };

	while (!w->go && !w->stop)
		ipx_loop_run_once(w->loop, 50 * IPX_MSEC);
	memcpy(dst.node, w->dst, 6);
	while (!w->stop) {
		for (int i = 0; i < BATCH; i++)
			ipx_socket_sendto(w->sock, &dst, 4, w->payload,
					  w->o->payload);
		ipx_loop_run_once(w->loop, 0);
	}
	ipx_loop_run_once(w->loop, 0);
}

static void ipx_receiver(struct worker *w)
{
	while (!w->stop)
		ipx_loop_run_once(w->loop, 50 * IPX_MSEC);
}

static void child_main(struct worker *w) __attribute__((noreturn));
static void child_main(struct worker *w)
{
	const struct ipx_ethb_end *end = w->sender ? &w->o->sender
						   : &w->o->receiver;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	alarm(CHILD_ALARM_S);
	ipx_log_set_level(IPX_LOG_ERROR);
	enter_netns(w, end->netns);
	for (size_t i = 0; i < w->o->payload; i++)
		w->payload[i] = (uint8_t)i;
	if (w->path == IPX_ETHB_RAW)
		raw_open(w, end->ifname);
	else
		ipx_open(w, end->ifname);
	child_send(w, MSG_READY, NULL);
	if (w->path == IPX_ETHB_RAW)
		w->sender ? raw_sender(w) : raw_receiver(w);
	else
		w->sender ? ipx_sender(w) : ipx_receiver(w);
	child_send(w, MSG_SNAP, NULL);
	_exit(0);
}

/* ---- the parent side ---- */

struct child {
	pid_t pid;
	int ctl;
	const char *role;
};

static int spawn(struct child *c, const struct ipx_ethb_opts *o,
		 enum ipx_ethb_path path, bool sender, char *err,
		 size_t errlen)
{
	int sv[2];

	c->role = sender ? "sender" : "receiver";
	c->pid = -1;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) {
		errorf(err, errlen, "socketpair: %s", strerror(errno));
		return IPX_EIO;
	}
	fflush(NULL);
	c->pid = fork();
	if (c->pid < 0) {
		errorf(err, errlen, "fork: %s", strerror(errno));
		close(sv[0]);
		close(sv[1]);
		return IPX_EIO;
	}
	if (c->pid == 0) {
		static struct worker w;

		close(sv[0]);
		w.o = o;
		w.path = path;
		w.sender = sender;
		w.ctl = sv[1];
		w.fd = -1;
		child_main(&w);
	}
	close(sv[1]);
	c->ctl = sv[0];
	return IPX_OK;
}

/* Wait for the child's next message of 'type'. */
static int expect(struct child *c, uint32_t type, struct msg *m, int ms,
		  char *err, size_t errlen)
{
	struct pollfd p = { c->ctl, POLLIN, 0 };
	ssize_t n;

	if (poll(&p, 1, ms) <= 0) {
		errorf(err, errlen, "the %s did not answer within %d ms",
		       c->role, ms);
		return IPX_ETIMEOUT;
	}
	n = recv(c->ctl, m, sizeof(*m), 0);
	if (n != (ssize_t)sizeof(*m)) {
		errorf(err, errlen, "the %s exited unexpectedly", c->role);
		return IPX_EIO;
	}
	if (m->type == MSG_ERROR) {
		errorf(err, errlen, "%s: %s", c->role, m->text);
		return IPX_EIO;
	}
	if (m->type != type) {
		errorf(err, errlen, "the %s sent message %u, not %u", c->role,
		       m->type, type);
		return IPX_EIO;
	}
	return IPX_OK;
}

static int ask(struct child *c, uint8_t cmd, struct msg *m, char *err,
	       size_t errlen)
{
	if (send(c->ctl, &cmd, 1, MSG_NOSIGNAL) != 1) {
		errorf(err, errlen, "the %s is gone", c->role);
		return IPX_EIO;
	}
	return expect(c, MSG_SNAP, m, REPLY_MS, err, errlen);
}

static void reap(struct child *c)
{
	if (c->pid > 0) {
		int status;

		for (int i = 0; i < 100; i++) {
			if (waitpid(c->pid, &status, WNOHANG) == c->pid) {
				c->pid = -1;
				break;
			}
			usleep(10000);
		}
		if (c->pid > 0) {
			kill(c->pid, SIGKILL);
			waitpid(c->pid, &status, 0);
		}
	}
	if (c->ctl >= 0)
		close(c->ctl);
	c->ctl = -1;
	c->pid = -1;
}

static void sleep_s(double s)
{
	struct timespec ts = { (time_t)s,
			       (long)((s - (double)(time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static double share(const struct snap *a, const struct snap *b)
{
	return b->t_ns > a->t_ns ? (double)(b->cpu_ns - a->cpu_ns) /
					   (double)(b->t_ns - a->t_ns)
				 : 0;
}

/* The run itself once both children are up. */
static int measure(const struct ipx_ethb_opts *o, struct child *rx,
		   struct child *tx, const uint8_t mac[6],
		   struct ipx_ethb_result *out, char *err, size_t errlen)
{
	struct msg r1, r2, s1, s2, sf, rf;
	uint8_t go[7] = { CMD_GO };
	int rc;

	memcpy(go + 1, mac, 6);
	if (send(tx->ctl, go, sizeof(go), MSG_NOSIGNAL) != sizeof(go)) {
		errorf(err, errlen, "the sender is gone");
		return IPX_EIO;
	}
	sleep_s(o->warmup);
	if ((rc = ask(rx, CMD_MARK, &r1, err, errlen)) ||
	    (rc = ask(tx, CMD_MARK, &s1, err, errlen)))
		return rc;
	sleep_s(o->seconds);
	if ((rc = ask(rx, CMD_MARK, &r2, err, errlen)) ||
	    (rc = ask(tx, CMD_MARK, &s2, err, errlen)) ||
	    (rc = ask(tx, CMD_STOP, &sf, err, errlen)))
		return rc;
	sleep_s(0.1);	/* what is in flight arrives */
	if ((rc = ask(rx, CMD_STOP, &rf, err, errlen)))
		return rc;
	out->seconds = (double)(r2.snap.t_ns - r1.snap.t_ns) / 1e9;
	out->packets = r2.snap.count - r1.snap.count;
	out->pps = out->seconds > 0 ? (double)out->packets / out->seconds : 0;
	out->mbps = out->pps * (double)out->frame_len / 1e6;
	out->sent = sf.snap.count;
	out->delivered = rf.snap.count;
	out->loss = out->sent ? 1.0 - (double)out->delivered /
					      (double)out->sent
			      : 0;
	if (out->loss < 0)
		out->loss = 0;
	out->rx_drops = rf.snap.drops;
	out->cpu_receiver = share(&r1.snap, &r2.snap);
	out->cpu_sender = share(&s1.snap, &s2.snap);
	return IPX_OK;
}

int ipx_ethb_run(const struct ipx_ethb_opts *o, enum ipx_ethb_path path,
		 struct ipx_ethb_result *out, char *err, size_t errlen)
{
	struct child rx = { -1, -1, "receiver" }, tx = { -1, -1, "sender" };
	struct msg m;
	uint8_t mac[6];
	int rc;

	memset(out, 0, sizeof(*out));
	out->path = path;
	out->frame_len = ipx_ethb_frame_len(o);
	if (o->frame == IPX_FRAME_AUTO || o->frame >= IPX_FRAME_TYPES ||
	    IPX_HDR_LEN + o->payload > ipx_frame_mtu(o->frame)) {
		errorf(err, errlen, "%zu payload bytes do not fit a %s frame",
		       o->payload, ipx_frame_type_name(o->frame));
		return IPX_EINVAL;
	}
	rc = spawn(&rx, o, path, false, err, errlen);
	if (rc == IPX_OK)
		rc = expect(&rx, MSG_READY, &m, READY_MS, err, errlen);
	if (rc == IPX_OK) {
		memcpy(mac, m.mac, 6);
		rc = spawn(&tx, o, path, true, err, errlen);
	}
	if (rc == IPX_OK)
		rc = expect(&tx, MSG_READY, &m, READY_MS, err, errlen);
	if (rc == IPX_OK)
		rc = measure(o, &rx, &tx, mac, out, err, errlen);
	reap(&tx);
	reap(&rx);
	return rc;
}
