/*
 * udp.c - DOSBox-compatible IPX-over-UDP tunnel client (see link_udp.h and
 * docs/links.md; DOSBox's ipx.cpp is the public reference).
 */
#include "ipxlab/link_udp.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ipxlab/buf.h"
#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"

#define QUEUE 64		/* sends batched per sendmmsg */
#define RXBATCH 64		/* receives per recvmmsg */
#define RXBUF (IPX_MAX_PACKET + 1)

struct udp_link {
	struct ipx_link link;
	int fd;
	struct sockaddr_in server;
	struct ipx_udp_options opts;
	int error;
	bool registered;
	ipx_time reg_started;
	ipx_time retry;
	struct ipx_timer reg_timer;
	struct ipx_hook flush_hook;
	/* send queue */
	unsigned nq;
	size_t qlen[QUEUE];
	uint8_t qbuf[QUEUE][IPX_UDP_MTU];
	/* receive buffers */
	uint8_t rbuf[RXBATCH][RXBUF];
};

int ipx_udp_resolve(const char *text, uint16_t default_port,
		    struct sockaddr_in *out, char *err, size_t errlen)
{
	char host[256];
	const char *colon;
	unsigned long port = default_port;
	struct addrinfo hints = { .ai_family = AF_INET,
				  .ai_socktype = SOCK_DGRAM };
	struct addrinfo *res = NULL;
	int rc;

	if (!text || !*text) {
		snprintf(err, errlen, "empty address");
		return IPX_EINVAL;
	}
	colon = strrchr(text, ':');
	if (colon) {
		char *end;

		if ((size_t)(colon - text) >= sizeof(host) || colon == text) {
			snprintf(err, errlen, "'%s': bad host", text);
			return IPX_EINVAL;
		}
		memcpy(host, text, (size_t)(colon - text));
		host[colon - text] = '\0';
		errno = 0;
		port = strtoul(colon + 1, &end, 10);
		if (!colon[1] || *end || errno || port == 0 || port > 65535) {
			snprintf(err, errlen,
				 "'%s': port must be a number from 1 to 65535",
				 text);
			return IPX_EINVAL;
		}
	} else {
		if (strlen(text) >= sizeof(host)) {
			snprintf(err, errlen, "host name too long");
			return IPX_EINVAL;
		}
		strcpy(host, text);
	}
	rc = getaddrinfo(host, NULL, &hints, &res);
	if (rc || !res) {
		snprintf(err, errlen, "cannot resolve '%s': %s", host,
			 gai_strerror(rc));
		return IPX_ERESOLVE;
	}
	memcpy(out, res->ai_addr, sizeof(*out));
	out->sin_port = htons((uint16_t)port);
	freeaddrinfo(res);
	return IPX_OK;
}

static void flush(struct ipx_link *link)
{
	struct udp_link *u = (struct udp_link *)link;

	if (!u->nq)
		return;
	/* ECONNREFUSED (no server yet), ENOBUFS, EAGAIN: datagrams are best
	 * effort; counted as tx_errors. */
	ipx_link_send_batch(link, u->fd, &u->qbuf[0][0], IPX_UDP_MTU, u->qlen,
			    u->nq, NULL);
	u->nq = 0;
}

static void flush_hook(struct ipx_loop *loop, void *ctx)
{
	(void)loop;
	flush(ctx);
}

static int enqueue(struct udp_link *u, const uint8_t *pkt, size_t len)
{
	if (len > IPX_UDP_MTU)
		return IPX_ETOOBIG;
	if (u->nq == QUEUE)
		flush(&u->link);
	/* The server relays by the header's nodes: the tap uses them too. */
	ipx_link_tap_ipx(&u->link, true, pkt, len, NULL, NULL);
	memcpy(u->qbuf[u->nq], pkt, len);
	u->qlen[u->nq++] = len;
	return IPX_OK;
}

static int udp_send(struct ipx_link *link, const uint8_t *pkt, size_t len,
		    const uint8_t next_hop[IPX_NODE_LEN])
{
	struct udp_link *u = (struct udp_link *)link;

	(void)next_hop;	/* the server relays by the header's destination */
	if (!u->registered)
		return IPX_ENOTUP;
	if (len < IPX_HDR_LEN)
		return IPX_EINVAL;
	return enqueue(u, pkt, len);
}

void ipx_udp_registration_encode(uint8_t pkt[IPX_HDR_LEN])
{
	struct ipx_header h = { .checksum = IPX_NO_CHECKSUM,
				.length = IPX_HDR_LEN,
				.type = IPX_TYPE_ECHO };

	h.dst.socket = IPX_SOCK_ECHO;
	h.src.socket = IPX_SOCK_ECHO;
	ipx_header_encode(&h, pkt);
}

static void send_registration(struct udp_link *u)
{
	uint8_t pkt[IPX_HDR_LEN];

	ipx_udp_registration_encode(pkt);
	enqueue(u, pkt, sizeof(pkt));
	flush(&u->link);
}

static void reg_tick(struct ipx_loop *loop, struct ipx_timer *t, void *ctx)
{
	struct udp_link *u = ctx;
	ipx_time now = ipx_loop_now(loop);

	if (u->registered)
		return;
	if (!ipx_time_before(now, u->reg_started + u->opts.register_timeout)) {
		char ip[INET_ADDRSTRLEN];

		inet_ntop(AF_INET, &u->server.sin_addr, ip, sizeof(ip));
		/* The command that waits says so (once, in its own words). */
		ipx_debug("udp: no answer from an IPX tunnel server at %s:%u "
			  "after %.1f s",
			  ip, ntohs(u->server.sin_port),
			  (double)u->opts.register_timeout / IPX_SEC);
		u->error = IPX_ETIMEOUT;
		ipx_link_set_up(&u->link, false);
		if (u->link.on_state)
			u->link.on_state(&u->link, false, u->link.state_ctx);
		return;
	}
	send_registration(u);
	/* The last wait ends at the time-out itself, not up to a back-off
	 * step later. */
	ipx_timer_start(loop, t,
			u->retry < u->reg_started + u->opts.register_timeout - now
				? u->retry
				: u->reg_started + u->opts.register_timeout - now,
			0);
	u->retry *= 2;
	if (u->retry > u->opts.retry_max)
		u->retry = u->opts.retry_max;
}

/* Answer a DOSBox ping (a broadcast to socket 2) as DOSBox clients do. */
static void answer_ping(struct udp_link *u, const struct ipx_header *ping)
{
	uint8_t pkt[IPX_HDR_LEN];
	struct ipx_header h = { .checksum = IPX_NO_CHECKSUM,
				.length = IPX_HDR_LEN,
				.type = 0 };

	h.dst.net = 0;
	memcpy(h.dst.node, ping->src.node, IPX_NODE_LEN);
	h.dst.socket = IPX_SOCK_ECHO;
	h.src.net = u->link.net;
	memcpy(h.src.node, u->link.node, IPX_NODE_LEN);
	h.src.socket = IPX_SOCK_ECHO;
	ipx_header_encode(&h, pkt);
	enqueue(u, pkt, sizeof(pkt));
}

static void handle(struct udp_link *u, const uint8_t *pkt, size_t len)
{
	struct ipx_link *link = &u->link;
	struct ipx_header h;

	/* Capture sees everything, tunnel control included: it is IPX. */
	ipx_link_tap_ipx(link, false, pkt, len, NULL, NULL);
	if (len > IPX_MAX_PACKET) {
		link->stats.rx_errors++;
		return;
	}
	if (!u->registered) {
		/* The first packet of 30 bytes or more to socket 2 is the
		 * server's answer; adopt the address it gives us. */
		if (len < IPX_HDR_LEN || ipx_get16(pkt + 16) != IPX_SOCK_ECHO) {
			link->stats.rx_errors++;
			return;
		}
		ipx_addr_read(pkt + 6, &h.dst);
		link->net = h.dst.net;
		memcpy(link->node, h.dst.node, IPX_NODE_LEN);
		u->registered = true;
		link->stats.rx_control++;
		ipx_timer_stop(link->loop, &u->reg_timer);
		ipx_link_set_up(link, true);
		return;
	}
	if (ipx_header_decode(pkt, len, &h) == IPX_OK &&
	    h.dst.socket == IPX_SOCK_ECHO) {
		if (ipx_node_is_broadcast(h.dst.node)) {
			if (!ipx_node_eq(h.src.node, link->node))
				answer_ping(u, &h);
			link->stats.rx_control++;
			return;
		}
		/* A repeated registration answer: nothing to do. */
		if (h.length == IPX_HDR_LEN && h.src.net == 1 &&
		    h.src.socket == IPX_SOCK_ECHO &&
		    ipx_node_eq(h.dst.node, link->node)) {
			link->stats.rx_control++;
			return;
		}
	}
	link->stats.rx_packets++;
	link->stats.rx_bytes += len;
	if (link->rx)
		link->rx(link, pkt, len, link->rx_ctx);
}

static void rx_one(void *ctx, unsigned i, size_t len, bool truncated,
		   const void *from)
{
	struct udp_link *u = ctx;

	(void)truncated;	/* longer than IPX_MAX_PACKET: handle() counts */
	(void)from;
	handle(u, u->rbuf[i], len);
}

static void on_readable(struct ipx_loop *loop, int fd, unsigned events,
			void *ctx)
{
	struct udp_link *u = ctx;

	(void)events;
	/* ECONNREFUSED: an ICMP error for an earlier send. */
	if (ipx_link_recv_batch(loop, fd, &u->rbuf[0][0], RXBUF,
				u->link.single_frame ? 1 : RXBATCH, NULL,
				0, rx_one, u) < 0)
		u->link.stats.rx_errors++;
}

static void udp_close(struct ipx_link *link)
{
	struct udp_link *u = (struct udp_link *)link;

	flush(link);
	ipx_timer_stop(link->loop, &u->reg_timer);
	ipx_loop_remove_hook(link->loop, &u->flush_hook);
	ipx_loop_del_fd(link->loop, u->fd);
	close(u->fd);
	free(u);
}

static const struct ipx_link_ops udp_ops = {
	.send = udp_send,
	.flush = flush,
	.close = udp_close,
};

int ipx_udp_link_open(struct ipx_loop *loop, const struct sockaddr_in *server,
		      const struct ipx_udp_options *opts,
		      struct ipx_link **out)
{
	struct udp_link *u = calloc(1, sizeof(*u));
	struct sockaddr_in any = { .sin_family = AF_INET };
	int rc;

	if (!u)
		return IPX_ENOMEM;
	if (opts)
		u->opts = *opts;
	if (!u->opts.register_timeout)
		u->opts.register_timeout = 30 * IPX_SEC;
	if (!u->opts.retry_first)
		u->opts.retry_first = 250 * IPX_MSEC;
	if (!u->opts.retry_max)
		u->opts.retry_max = 2 * IPX_SEC;
	u->server = *server;
	u->fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (u->fd < 0) {
		free(u);
		return IPX_EIO;
	}
	/* Bigger socket buffers ride out bursts (best effort). */
	{
		int sz = 1 << 20;

		setsockopt(u->fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
		setsockopt(u->fd, SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
	}
	if (bind(u->fd, (struct sockaddr *)&any, sizeof(any)) < 0 ||
	    connect(u->fd, (const struct sockaddr *)server, sizeof(*server)) < 0) {
		close(u->fd);
		free(u);
		return IPX_EIO;
	}
	u->link.ops = &udp_ops;
	u->link.loop = loop;
	u->link.kind = "udp";
	u->link.mtu = IPX_UDP_MTU;
	rc = ipx_loop_add_fd(loop, u->fd, IPX_EV_READ, on_readable, u);
	if (rc) {
		close(u->fd);
		free(u);
		return rc;
	}
	ipx_loop_add_hook(loop, &u->flush_hook, flush_hook, u);
	ipx_timer_init(&u->reg_timer, reg_tick, u);
	u->reg_started = ipx_loop_now(loop);
	u->retry = u->opts.retry_first;
	/* First registration right away; reg_tick sends the retries. */
	ipx_timer_start(loop, &u->reg_timer, 0, 0);
	*out = &u->link;
	return IPX_OK;
}

int ipx_udp_link_error(const struct ipx_link *link)
{
	return ((const struct udp_link *)link)->error;
}

int ipx_udp_link_local(const struct ipx_link *link, struct sockaddr_in *out)
{
	const struct udp_link *u = (const struct udp_link *)link;
	socklen_t len = sizeof(*out);

	return getsockname(u->fd, (struct sockaddr *)out, &len) < 0 ? IPX_EIO
								    : IPX_OK;
}

void ipx_udp_link_server(const struct ipx_link *link, struct sockaddr_in *out)
{
	*out = ((const struct udp_link *)link)->server;
}
