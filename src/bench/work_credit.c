/*
 * work_credit.c - the credit window of the datagram workloads
 * (bench_work.h, params.window): the sender keeps at most 'window'
 * datagrams not yet counted by the receiver, so a rate is the loss-free
 * rate of the path and not how fast a sender can fill a socket buffer.
 *
 * Credits travel outside the path under test, on a UDP socket pair of
 * their own: the receiver binds one on the tunnel's address (udp_bind)
 * and gives it in its READY info (info.credit); the sender connects to it
 * and sends one 8-byte hello, so the receiver knows where to answer. The
 * receiver then sends its cumulative delivered count (8 bytes,
 * big-endian) each time another quarter window has arrived. A sender
 * with a full window and no credit for BW_CREDIT_STALL takes the window
 * as lost, counts a stall and starts a new window.
 */
#include "work_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"

#define CREDIT_LEN 8

struct bw_credit {
	int fd;
	bool watched;
	bool have_peer;		/* receiver: the sender said hello */
	struct sockaddr_in local;	/* receiver: where it listens */
	struct sockaddr_in peer;	/* receiver: where to answer */
	uint64_t credited;	/* sender: the receiver's count */
	uint64_t told;		/* receiver: the count last sent */
	bool blocked;		/* sender: the pump waits for a credit */
	struct ipx_timer stall;	/* sender: no credit for this long */
	ipx_time last;		/* sender: last credit, or the go */
};

bool bw_credit_kind(enum ipx_bw_kind k)
{
	return k == IPX_BW_IPX || k == IPX_BW_NB_DGRAM || k == IPX_BW_UDP;
}

static void on_credit(struct ipx_loop *loop, int fd, unsigned events,
		      void *ctx)
{
	struct ipx_bw *w = ctx;
	struct bw_credit *c = w->credit;
	uint8_t buf[64];
	struct sockaddr_in from;
	socklen_t flen;
	ssize_t n;
	uint64_t v;

	(void)loop;
	(void)events;
	for (;;) {
		flen = sizeof(from);
		n = recvfrom(fd, buf, sizeof(buf), MSG_DONTWAIT,
			     (struct sockaddr *)&from, &flen);
		if (n < 0)
			break;
		if (n != CREDIT_LEN)
			continue;	/* not ours */
		if (w->role == IPX_BW_RECEIVER) {
			c->peer = from;
			c->have_peer = true;
			continue;
		}
		v = (uint64_t)ipx_get32(buf) << 32 | ipx_get32(buf + 4);
		if (v > c->credited)
			c->credited = v;
		c->last = bw_now(w);
	}
	if (w->role == IPX_BW_SENDER && c->blocked && bw_credit_allowance(w)) {
		c->blocked = false;
		ipx_timer_stop(w->loop, &c->stall);
		bw_pump_now(w);
	}
}

static void on_stall(struct ipx_loop *loop, struct ipx_timer *t, void *ctx)
{
	struct ipx_bw *w = ctx;
	struct bw_credit *c = w->credit;

	(void)loop;
	(void)t;
	if (!c->blocked || !bw_live(w))
		return;
	/* The window is lost (or its credits are): start a new one. */
	w->r.stalls++;
	c->credited = w->started;
	c->last = bw_now(w);
	c->blocked = false;
	bw_pump_now(w);
}

static int fail_errno(struct ipx_bw *w, const char *what)
{
	bw_set_error(w, "credit socket: %s: %s", what, strerror(errno));
	return IPX_EIO;
}

int bw_credit_open(struct ipx_bw *w)
{
	struct bw_credit *c = calloc(1, sizeof(*c));
	int rc;

	if (!c)
		return IPX_ENOMEM;
	w->credit = c;
	ipx_timer_init(&c->stall, on_stall, w);
	c->fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (c->fd < 0)
		return fail_errno(w, "socket");
	if (w->role == IPX_BW_SENDER) {
		uint8_t hello[CREDIT_LEN] = { 0 };

		if (w->p.peer.credit.sin_family != AF_INET ||
		    !w->p.peer.credit.sin_port) {
			bw_set_error(w, "a credit window, but the receiver "
					"gave no credit address");
			return IPX_EINVAL;
		}
		if (connect(c->fd, (const struct sockaddr *)&w->p.peer.credit,
			    sizeof(w->p.peer.credit)) < 0)
			return fail_errno(w, "connect");
		if (send(c->fd, hello, sizeof(hello), 0) < 0)
			return fail_errno(w, "send");
	} else {
		socklen_t alen = sizeof(c->local);

		c->local.sin_family = AF_INET;
		c->local.sin_addr = w->p.udp_bind;
		if (bind(c->fd, (struct sockaddr *)&c->local,
			 sizeof(c->local)) < 0)
			return fail_errno(w, "bind");
		if (getsockname(c->fd, (struct sockaddr *)&c->local, &alen) <
		    0)
			return fail_errno(w, "getsockname");
	}
	rc = ipx_loop_add_fd(w->loop, c->fd, IPX_EV_READ, on_credit, w);
	if (rc != IPX_OK) {
		bw_set_error(w, "cannot watch the credit socket: %s",
			     ipx_strerror(rc));
		return rc;
	}
	c->watched = true;
	return IPX_OK;
}

void bw_credit_info(const struct ipx_bw *w, struct ipx_bw_info *out)
{
	if (w->credit)
		out->credit = w->credit->local;
}

void bw_credit_go(struct ipx_bw *w)
{
	if (w->credit)
		w->credit->last = bw_now(w);
}

unsigned bw_credit_allowance(struct ipx_bw *w)
{
	struct bw_credit *c = w->credit;
	uint64_t out;
	ipx_time quiet;

	if (!c || w->role != IPX_BW_SENDER)
		return UINT32_MAX;
	out = w->started > c->credited ? w->started - c->credited : 0;
	if (out >= w->p.window) {
		if (!c->blocked) {
			c->blocked = true;
			quiet = bw_now(w) - c->last;
			ipx_timer_start(w->loop, &c->stall,
					quiet < BW_CREDIT_STALL
						? BW_CREDIT_STALL - quiet
						: 0,
					0);
		}
		return 0;
	}
	return (unsigned)(w->p.window - out);
}

bool bw_credit_blocked(const struct ipx_bw *w)
{
	return w->credit && w->credit->blocked;
}

void bw_credit_received(struct ipx_bw *w)
{
	struct bw_credit *c = w->credit;
	uint64_t every;
	uint8_t buf[CREDIT_LEN];

	if (!c || !c->have_peer)
		return;
	every = w->p.window >= 4 ? w->p.window / 4 : 1;
	if (w->r.delivered - c->told < every)
		return;
	c->told = w->r.delivered;
	ipx_put32(buf, (uint32_t)(c->told >> 32));
	ipx_put32(buf + 4, (uint32_t)c->told);
	/* A lost credit is made up by the next one, or by the stall rule. */
	(void)sendto(c->fd, buf, sizeof(buf), MSG_DONTWAIT,
		     (const struct sockaddr *)&c->peer, sizeof(c->peer));
}

void bw_credit_close(struct ipx_bw *w)
{
	struct bw_credit *c = w->credit;

	if (!c)
		return;
	ipx_timer_stop(w->loop, &c->stall);
	if (c->watched)
		ipx_loop_del_fd(w->loop, c->fd);
	if (c->fd >= 0)
		close(c->fd);
	free(c);
	w->credit = NULL;
}
