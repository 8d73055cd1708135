/*
 * work.c - the common machinery of a benchmark workload (bench_work.h):
 * its life cycle and events, the sender's and receiver's counters on the
 * loop's clock, the datagram senders' pump, time mode, the receiver's
 * drain, CPU use and the result. What each interface does is in
 * work_ipx.c, work_spx.c, work_nb.c and work_udp.c (see work_int.h).
 *
 * Events are always told from a timer on the loop, never from inside an
 * ipx_bw_* call or an interface's callback, so the event callback may
 * free the workload.
 */
#include "work_int.h"

#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ipxlab/err.h"
#include "ipxlab/link.h"
#include "ipxlab/netbios.h"

#include "bench_util.h"

/* The largest UDP payload over IPv4, and the largest IPX packet (its
 * length field has 16 bits). */
#define UDP_MAX 65507
#define IPX_PKT_MAX 65535

static const char *const kind_names[IPX_BW_KINDS] = {
	[IPX_BW_IPX] = "ipx",
	[IPX_BW_SPX] = "spx",
	[IPX_BW_SPX2] = "spx2",
	[IPX_BW_NB_DGRAM] = "nb-dgram",
	[IPX_BW_NB_SESSION] = "nb-session",
	[IPX_BW_UDP] = "udp",
	[IPX_BW_RTT] = "rtt",
	[IPX_BW_NCP] = "ncp",
};

static const struct bw_ops *const kind_ops[IPX_BW_KINDS] = {
	[IPX_BW_IPX] = &bw_ipx_ops,
	[IPX_BW_SPX] = &bw_spx_ops,
	[IPX_BW_SPX2] = &bw_spx_ops,
	[IPX_BW_NB_DGRAM] = &bw_nb_dgram_ops,
	[IPX_BW_NB_SESSION] = &bw_nb_session_ops,
	[IPX_BW_UDP] = &bw_udp_ops,
	[IPX_BW_RTT] = &bw_rtt_ops,
	[IPX_BW_NCP] = &bw_ncp_ops,
};

/* The largest size each kind can send in one packet or message (IPX
 * kinds are checked against the route's MTU when they open). */
static const size_t kind_max[IPX_BW_KINDS] = {
	[IPX_BW_IPX] = IPX_PKT_MAX - IPX_HDR_LEN,
	[IPX_BW_SPX] = NB_MAX_MESSAGE,
	[IPX_BW_SPX2] = NB_MAX_MESSAGE,
	[IPX_BW_NB_DGRAM] = NB_MAX_DATAGRAM,
	[IPX_BW_NB_SESSION] = NB_MAX_MESSAGE,
	[IPX_BW_UDP] = UDP_MAX - IPX_HDR_LEN,
	[IPX_BW_RTT] = IPX_PKT_MAX - IPX_HDR_LEN,
	[IPX_BW_NCP] = 64 * 1024 * 1024,	/* a copy's file size */
};

const char *ipx_bw_kind_name(enum ipx_bw_kind k)
{
	return (unsigned)k < IPX_BW_KINDS ? kind_names[k] : "?";
}

int ipx_bw_kind_parse(const char *text, enum ipx_bw_kind *out)
{
	for (int k = 0; k < IPX_BW_KINDS; k++) {
		if (text && strcmp(text, kind_names[k]) == 0) {
			*out = (enum ipx_bw_kind)k;
			return IPX_OK;
		}
	}
	return IPX_EINVAL;
}

bool ipx_bw_kind_stop_and_wait(enum ipx_bw_kind k)
{
	return k == IPX_BW_SPX || k == IPX_BW_NB_SESSION;
}

/* ---- for the families ---- */

ipx_time bw_now(const struct ipx_bw *w)
{
	return ipx_loop_now(w->loop);
}

static void set_error_v(struct ipx_bw *w, const char *fmt, va_list ap)
{
	if (w->err[0])
		return;
	vsnprintf(w->err, sizeof(w->err), fmt, ap);
}

void bw_set_error(struct ipx_bw *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_error_v(w, fmt, ap);
	va_end(ap);
}

void bw_enter(struct ipx_bw *w)
{
	w->depth++;
}

static void free_now(struct ipx_bw *w);

bool bw_leave(struct ipx_bw *w)
{
	if (--w->depth == 0 && w->doomed) {
		free_now(w);
		return false;
	}
	return !w->doomed;
}

bool bw_live(const struct ipx_bw *w)
{
	return w->state != BW_DONE && w->state != BW_FAILED;
}

static void emit(struct ipx_bw *w, enum ipx_bw_event ev)
{
	w->pending |= 1u << ev;
	ipx_timer_start(w->loop, &w->ev_timer, 0, 0);
}

/* Tell one pending event per timer run, READY first; READY is not told
 * when the workload failed before anybody heard of it. */
static void on_event_timer(struct ipx_loop *loop, struct ipx_timer *t,
			   void *ctx)
{
	struct ipx_bw *w = ctx;
	enum ipx_bw_event ev;

	(void)loop;
	(void)t;
	if (w->pending & (1u << IPX_BW_FAILED))
		w->pending &= ~(1u << IPX_BW_READY);
	if (w->pending & (1u << IPX_BW_READY))
		ev = IPX_BW_READY;
	else if (w->pending & (1u << IPX_BW_DONE))
		ev = IPX_BW_DONE;
	else if (w->pending & (1u << IPX_BW_FAILED))
		ev = IPX_BW_FAILED;
	else
		return;
	w->pending &= ~(1u << ev);
	w->told |= 1u << ev;
	if (w->pending)
		ipx_timer_start(w->loop, &w->ev_timer, 0, 0);
	w->cb(w, ev, w->ctx);	/* may free w: nothing after this */
}

static void cpu_mark(struct ipx_bw *w)
{
	ipx_bench_cpu_ns(&w->cpu_user0, &w->cpu_sys0);
}

/* CPU used since cpu_mark(), and where this process runs now. */
static void cpu_take(struct ipx_bw *w)
{
	uint64_t u, s;

	ipx_bench_cpu_ns(&u, &s);
	w->r.cpu_user = (double)(u - w->cpu_user0) / 1e9;
	w->r.cpu_sys = (double)(s - w->cpu_sys0) / 1e9;
	w->r.cpu = sched_getcpu();
}

static void stop_timers(struct ipx_bw *w)
{
	ipx_timer_stop(w->loop, &w->pump);
	ipx_timer_stop(w->loop, &w->clock);
}

void bw_ready(struct ipx_bw *w)
{
	if (w->state != BW_OPENING)
		return;
	w->state = BW_READY;
	if (w->role == IPX_BW_RECEIVER)
		cpu_mark(w);
	emit(w, IPX_BW_READY);
}

static void done(struct ipx_bw *w)
{
	if (!bw_live(w))
		return;
	w->state = BW_DONE;
	stop_timers(w);
	cpu_take(w);
	emit(w, IPX_BW_DONE);
}

void bw_fail(struct ipx_bw *w, const char *fmt, ...)
{
	va_list ap;

	if (!bw_live(w))
		return;
	va_start(ap, fmt);
	set_error_v(w, fmt, ap);
	va_end(ap);
	w->state = BW_FAILED;
	stop_timers(w);
	cpu_take(w);
	emit(w, IPX_BW_FAILED);
}

uint64_t bw_in_flight(const struct ipx_bw *w)
{
	return w->started - w->r.sent - w->r.send_errors;
}

/* Another send may start: running, count not reached, time left. */
static bool may_start(const struct ipx_bw *w)
{
	if (w->state != BW_RUNNING || w->stopping)
		return false;
	return w->p.count == 0 || w->started < w->p.count;
}

bool bw_may_start(struct ipx_bw *w)
{
	if (!may_start(w))
		return false;
	w->started++;
	return true;
}

/* Done once nothing more may start and nothing is in flight. */
static void check_sender_done(struct ipx_bw *w)
{
	if (w->state == BW_RUNNING && !may_start(w) && bw_in_flight(w) == 0)
		done(w);
}

void bw_completed(struct ipx_bw *w, ipx_time since)
{
	ipx_time now = bw_now(w);

	if (w->state != BW_RUNNING)
		return;
	w->r.sent++;
	w->r.bytes += w->p.size;
	w->t_last = now;
	ipx_hist_add(&w->r.lat, (uint64_t)(now - since) * 1000u);
	check_sender_done(w);
}

void bw_send_error(struct ipx_bw *w)
{
	if (w->state != BW_RUNNING)
		return;
	w->r.send_errors++;
	check_sender_done(w);
}

void bw_received(struct ipx_bw *w, size_t bytes)
{
	if (w->role != IPX_BW_RECEIVER || !bw_live(w))
		return;
	if (!w->any) {
		w->any = true;
		w->t_first = bw_now(w);
	}
	w->t_last = bw_now(w);
	w->r.delivered++;
	w->r.bytes += bytes;
	bw_credit_received(w);
	if (w->p.count && w->r.delivered >= w->p.count)
		done(w);
}

uint64_t bw_flush_links(struct ipx_node *node)
{
	uint64_t refused = 0;

	for (size_t i = 0; i < ipx_node_link_count(node); i++) {
		struct ipx_link *l = ipx_node_link(node, i);
		uint64_t before = l->stats.tx_errors;

		l->ops->flush(l);
		refused += l->stats.tx_errors - before;
	}
	return refused;
}

uint64_t bw_send_copies(int fd, const void *buf, size_t len, unsigned n)
{
	struct mmsghdr msgs[BW_BURST];
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
	unsigned done = 0;
	uint64_t refused = 0;

	if (n > BW_BURST)
		n = BW_BURST;
	for (unsigned i = 0; i < n; i++) {
		memset(&msgs[i], 0, sizeof(msgs[i]));
		msgs[i].msg_hdr.msg_iov = &iov;
		msgs[i].msg_hdr.msg_iovlen = 1;
	}
	while (done < n) {
		int k = sendmmsg(fd, msgs + done, n - done, 0);

		if (k < 0) {
			if (errno == EINTR)
				continue;
			refused++;
			done++;
			continue;
		}
		done += (unsigned)k;
	}
	return refused;
}

/* ---- the socket baselines (UDP, Ethernet frames) ---- */

int bw_sock_watch(struct ipx_bw *w, ipx_fd_cb cb, const char *what)
{
	struct bw_sock *k = w->fam;
	int rc = ipx_loop_add_fd(w->loop, k->fd, IPX_EV_READ, cb, w);

	if (rc != IPX_OK) {
		bw_set_error(w, "cannot watch the %s socket: %s", what,
			     ipx_strerror(rc));
		return rc;
	}
	k->watched = true;
	return IPX_OK;
}

int bw_sock_send_one(struct ipx_bw *w)
{
	struct bw_sock *k = w->fam;

	if (k->nq == BW_BURST)
		return IPX_EAGAIN;
	k->nq++;
	return IPX_OK;
}

/* Every handed copy (all the same bytes) in one sendmmsg. */
uint64_t bw_sock_flush(struct ipx_bw *w)
{
	struct bw_sock *k = w->fam;
	uint64_t refused = bw_send_copies(k->fd, k->buf, k->len, k->nq);

	k->nq = 0;
	return refused;
}

void bw_sock_close(struct ipx_bw *w)
{
	struct bw_sock *k = w->fam;

	if (!k)
		return;
	if (k->watched)
		ipx_loop_del_fd(w->loop, k->fd);
	if (k->fd >= 0)
		close(k->fd);
	free(k->buf);
	free(k);
	w->fam = NULL;
}

/* ---- datagram senders: a burst per loop turn ---- */

static void on_pump(struct ipx_loop *loop, struct ipx_timer *t, void *ctx)
{
	struct ipx_bw *w = ctx;
	uint64_t handed = 0, refused;
	unsigned burst = w->ops->burst ? w->ops->burst(w) : BW_BURST;
	unsigned allow = bw_credit_allowance(w);

	(void)t;
	if (w->p.tx_wait)
		burst = bw_in_flight(w) ? 0 : 1;
	if (burst > allow)
		burst = allow;
	for (unsigned i = 0; i < burst && may_start(w); i++) {
		int rc = w->ops->send_one(w);

		if (rc == IPX_EAGAIN)
			break;
		w->started++;
		if (rc == IPX_OK)
			handed++;
		else
			w->r.send_errors++;
	}
	/* Handed is not complete until the kernel has it: flush now, so the
	 * time includes the system calls. */
	refused = handed ? w->ops->flush(w) : 0;
	if (refused > handed)
		refused = handed;	/* other traffic's failures */
	w->r.send_errors += refused;
	if (w->p.tx_wait) {	/* complete at ipx_bw_tx_done */
		check_sender_done(w);
		if (w->state == BW_RUNNING && !bw_in_flight(w))
			ipx_timer_start(loop, &w->pump, 1, 0);	/* refused */
		return;
	}
	w->r.sent += handed - refused;
	w->r.bytes += (handed - refused) * w->p.size;
	if (handed)
		w->t_last = bw_now(w);
	check_sender_done(w);
	/* Keep turning; on a simulated clock a turn takes 1 us, or time
	 * would never move and time mode never end. */
	if (w->state == BW_RUNNING && !bw_credit_blocked(w))
		ipx_timer_start(loop, &w->pump,
				ipx_loop_clock(loop)->simulated ? 1 : 0, 0);
}

void ipx_bw_tx_done(struct ipx_bw *w)
{
	if (!w || !w->p.tx_wait || w->state != BW_RUNNING ||
	    !bw_in_flight(w))
		return;
	w->r.sent++;
	w->r.bytes += w->p.size;
	w->t_last = bw_now(w);
	check_sender_done(w);
	if (w->state == BW_RUNNING)
		ipx_timer_start(w->loop, &w->pump, 0, 0);
}

void bw_pump_now(struct ipx_bw *w)
{
	if (w->state == BW_RUNNING && !w->ops->go)
		ipx_timer_start(w->loop, &w->pump, 0, 0);
}

/* ---- time mode and the receiver's drain ---- */

static void on_clock(struct ipx_loop *loop, struct ipx_timer *t, void *ctx)
{
	struct ipx_bw *w = ctx;
	ipx_time now = ipx_loop_now(loop), quiet_since, drain;

	(void)t;
	if (w->role == IPX_BW_SENDER) {
		w->stopping = true;
		check_sender_done(w);
		return;
	}
	drain = (ipx_time)((w->p.drain > 0 ? w->p.drain
					     : IPX_BW_DEFAULT_DRAIN) * IPX_SEC);
	quiet_since = w->any && w->t_last > w->t_start ? w->t_last
						       : w->t_start;
	if (now - quiet_since >= drain)
		done(w);
	else
		ipx_timer_start(loop, &w->clock, quiet_since + drain - now, 0);
}

/* ---- the API ---- */

static int check_params(enum ipx_bw_role role, const struct ipx_bw_params *p,
			char *err, size_t errlen)
{
	if ((unsigned)p->kind >= IPX_BW_KINDS) {
		ipx_bench_set_err(err, errlen, "unknown workload kind %d",
				  (int)p->kind);
		return IPX_EINVAL;
	}
	if (role != IPX_BW_SENDER && role != IPX_BW_RECEIVER) {
		ipx_bench_set_err(err, errlen, "unknown workload role %d",
				  (int)role);
		return IPX_EINVAL;
	}
	if (p->count == 0 && !(p->seconds > 0)) {
		ipx_bench_set_err(err, errlen,
				  "a workload needs a count or a time");
		return IPX_EINVAL;
	}
	/* most NCP operations have a size of their own: 0 is fine */
	if ((p->size < (p->kind == IPX_BW_RTT ? 4u : 1u) &&
	     p->kind != IPX_BW_NCP) ||
	    p->size > kind_max[p->kind]) {
		ipx_bench_set_err(err, errlen,
				  "%s: size %zu out of range (%u..%zu bytes)",
				  kind_names[p->kind], p->size,
				  p->kind == IPX_BW_RTT ? 4u : 1u,
				  kind_max[p->kind]);
		return IPX_ERANGE;
	}
	if (p->window && !bw_credit_kind(p->kind)) {
		ipx_bench_set_err(err, errlen, "%s: a window applies to the "
				  "datagram kinds only", kind_names[p->kind]);
		return IPX_EINVAL;
	}
	if (p->drain < 0 || p->setup_timeout < 0 || p->seconds < 0) {
		ipx_bench_set_err(err, errlen, "negative time in the workload");
		return IPX_EINVAL;
	}
	return IPX_OK;
}

int ipx_bw_new(struct ipx_node *node, struct ipx_loop *loop,
	       enum ipx_bw_role role, const struct ipx_bw_params *p,
	       ipx_bw_event_cb cb, void *ctx, struct ipx_bw **out, char *err,
	       size_t errlen)
{
	struct ipx_bw *w;
	size_t len;
	int rc;

	*out = NULL;
	if (!node || !loop || !p || !cb) {
		ipx_bench_set_err(err, errlen, "workload: missing argument");
		return IPX_EINVAL;
	}
	rc = check_params(role, p, err, errlen);
	if (rc != IPX_OK)
		return rc;
	w = calloc(1, sizeof(*w));
	len = p->size < 4 || p->kind == IPX_BW_NCP ? 4 : p->size;
	if (w)
		w->payload = malloc(len);
	if (!w || !w->payload) {
		free(w);
		ipx_bench_set_err(err, errlen, "out of memory");
		return IPX_ENOMEM;
	}
	for (size_t i = 0; i < len; i++)
		w->payload[i] = (uint8_t)('a' + i % 26);
	w->node = node;
	w->loop = loop;
	w->role = role;
	w->p = *p;
	w->ops = kind_ops[p->kind];
	if (p->kind == IPX_BW_UDP && bw_eth_baseline(node))
		w->ops = &bw_eth_ops;
	w->cb = cb;
	w->ctx = ctx;
	w->state = BW_OPENING;
	w->r.kind = p->kind;
	w->r.role = role;
	w->r.cpu = -1;
	ipx_hist_init(&w->r.lat);
	ipx_timer_init(&w->ev_timer, on_event_timer, w);
	ipx_timer_init(&w->pump, on_pump, w);
	ipx_timer_init(&w->clock, on_clock, w);
	rc = w->ops->open(w);
	if (rc == IPX_OK && p->window)
		rc = bw_credit_open(w);
	if (rc != IPX_OK) {
		ipx_bench_set_err(err, errlen, "%s %s: %s", kind_names[p->kind],
				  role == IPX_BW_SENDER ? "sender" : "receiver",
				  w->err[0] ? w->err : ipx_strerror(rc));
		ipx_bw_free(w);
		return rc;
	}
	*out = w;
	return IPX_OK;
}

void ipx_bw_info(const struct ipx_bw *w, struct ipx_bw_info *out)
{
	memset(out, 0, sizeof(*out));
	memset(out->nb_name, ' ', sizeof(out->nb_name));
	if (w->role == IPX_BW_RECEIVER && w->ops->info)
		w->ops->info(w, out);
	if (w->role == IPX_BW_RECEIVER)
		bw_credit_info(w, out);
}

int ipx_bw_go(struct ipx_bw *w)
{
	if (w->role != IPX_BW_SENDER || w->state != BW_READY)
		return IPX_EINVAL;
	w->state = BW_RUNNING;
	w->t_start = w->t_last = bw_now(w);
	cpu_mark(w);
	bw_credit_go(w);
	if (w->p.count == 0)
		ipx_timer_start(w->loop, &w->clock,
				(ipx_time)(w->p.seconds * IPX_SEC), 0);
	if (w->ops->go)
		w->ops->go(w);
	else
		ipx_timer_start(w->loop, &w->pump, 0, 0);
	return IPX_OK;
}

void ipx_bw_finish(struct ipx_bw *w)
{
	if (w->role != IPX_BW_RECEIVER || !bw_live(w) || w->finishing)
		return;
	w->finishing = true;
	w->t_start = bw_now(w);	/* the quiet time counts from here */
	on_clock(w->loop, &w->clock, w);
}

void ipx_bw_result(const struct ipx_bw *w, struct ipx_bw_result *out)
{
	ipx_time from = w->role == IPX_BW_SENDER ? w->t_start : w->t_first;

	*out = w->r;
	if (w->role == IPX_BW_RECEIVER && !w->any)
		from = w->t_last;
	out->seconds = w->t_last > from ? (double)(w->t_last - from) / IPX_SEC
					: 0;
	if (out->seconds > 0) {
		double n = (double)(w->role == IPX_BW_SENDER ? out->sent
							     : out->delivered);

		out->pps = n / out->seconds;
		out->kbps = (double)out->bytes / 1000.0 / out->seconds;
	}
	if (w->ops->result)
		w->ops->result(w, out);
}

const char *ipx_bw_error(const struct ipx_bw *w)
{
	return w->err;
}

void ipx_bw_free(struct ipx_bw *w)
{
	if (!w)
		return;
	if (w->depth) {
		/* inside a call that runs the loop: bw_leave frees it */
		w->doomed = true;
		w->state = BW_DONE;
		ipx_timer_stop(w->loop, &w->ev_timer);
		stop_timers(w);
		return;
	}
	free_now(w);
}

static void free_now(struct ipx_bw *w)
{
	/* Closing may call back (an SPX connection's on_closed): a workload
	 * already ended tells nothing more. */
	w->state = BW_DONE;
	if (w->ops->close)
		w->ops->close(w);
	bw_credit_close(w);
	ipx_timer_stop(w->loop, &w->ev_timer);
	stop_timers(w);
	free(w->payload);
	free(w);
}
