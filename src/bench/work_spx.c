/*
 * work_spx.c - the SPX I and SPX II workloads (work_int.h).
 *
 * Each send is one message of 'size' bytes (EOM set). A send completes
 * when SPX has it acknowledged: when the connection's queued bytes no
 * longer include it. A before-sleep hook looks after every loop turn (so
 * in the same turn an acknowledgement arrived), records the messages
 * acknowledged since, and starts more: SPX I one at a time (the next
 * when the previous one is acknowledged: stop-and-wait, as in 1990), SPX
 * II up to two windows' worth, so its window stays full. The hook
 * runs before the link's own flush hook (hooks run newest first), so
 * what it sends leaves in the same turn.
 *
 * The sender offers SPX II only for the spx2 kind, and fails if the
 * receiver does not accept it; the receiver's listener takes either.
 */
#include "work_int.h"

#include <stdlib.h>

#include "ipxlab/err.h"
#include "ipxlab/spx.h"

struct spx_fam {
	struct spx *spx;
	struct spx_listener *lst;
	struct spx_conn *conn;
	struct ipx_hook hook;
	bool hooked;
	/* sender: start times of the messages not yet acknowledged, a
	 * ring of 'cap' entries; n of them from 'head' */
	ipx_time *start;
	size_t cap, head, n;
	/* the connection's figures, kept when it closes */
	struct spx_status st;
	/* receiver: bytes of the message arriving */
	size_t msg;
};

static void spx_info(const struct ipx_bw *w, struct ipx_bw_info *out)
{
	const struct spx_fam *f = w->fam;

	ipx_node_address(w->node, &out->addr);
	out->addr.socket = spx_listener_socket(f->lst);
}

static void keep_status(struct spx_fam *f)
{
	if (f->conn)
		spx_get_status(f->conn, &f->st);
}

/* ---- sender ---- */

/* Messages the sender keeps queued: SPX I one; SPX II two windows'
 * worth, so the window is always full and the next packet ready when an
 * acknowledgement opens it, without inflating each message's time in the
 * queue beyond a window's round trip. */
static size_t queue_limit(const struct ipx_bw *w)
{
	const struct spx_fam *f = w->fam;
	size_t pkts, per_window, limit;

	if (w->p.kind == IPX_BW_SPX || !f->st.max_data)
		return 1;
	pkts = (w->p.size + f->st.max_data - 1) / f->st.max_data;
	per_window = f->st.window / pkts;
	limit = 2 * (per_window ? per_window : 1);
	return limit < f->cap ? limit : f->cap;
}

static bool queue_one(struct ipx_bw *w)
{
	struct spx_fam *f = w->fam;
	int rc;

	if (f->n >= queue_limit(w) || spx_send_space(f->conn) < w->p.size ||
	    !bw_may_start(w))
		return false;
	rc = spx_send(f->conn, w->payload, w->p.size, SPX_EOM, 0);
	if (rc != IPX_OK) {
		bw_fail(w, "SPX send: %s", ipx_strerror(rc));
		return false;
	}
	f->start[(f->head + f->n++) % f->cap] = bw_now(w);
	return true;
}

static void on_turn(struct ipx_loop *loop, void *ctx)
{
	struct ipx_bw *w = ctx;
	struct spx_fam *f = w->fam;
	size_t left;

	(void)loop;
	if (w->state != BW_RUNNING || !f->conn)
		return;
	keep_status(f);
	/* messages some of whose bytes are still queued */
	left = (f->st.queued_bytes + w->p.size - 1) / w->p.size;
	while (f->n > left) {
		ipx_time t = f->start[f->head];

		f->head = (f->head + 1) % f->cap;
		f->n--;
		bw_completed(w, t);
		if (w->state != BW_RUNNING)
			return;
	}
	while (queue_one(w))
		;
}

static void on_connected(struct spx_conn *c, int status, void *ctx)
{
	struct ipx_bw *w = ctx;
	struct spx_fam *f = w->fam;
	char a[IPX_ADDR_STRLEN];

	ipx_addr_format(&w->p.peer.addr, a);
	if (status != IPX_OK) {
		f->conn = NULL;
		bw_fail(w, "SPX connection to %s failed: %s", a,
			ipx_strerror(status));
		return;
	}
	keep_status(f);
	if (w->p.kind == IPX_BW_SPX2 && f->st.version != 2) {
		bw_fail(w, "the receiver %s did not accept SPX II", a);
		spx_abort(c);
		return;
	}
	bw_ready(w);
}

static void on_data(struct spx_conn *c, const uint8_t *data, size_t len,
		    unsigned flags, uint8_t ds, void *ctx)
{
	struct ipx_bw *w = ctx;
	struct spx_fam *f = w->fam;

	(void)c;
	(void)data;
	(void)ds;
	if (w->role != IPX_BW_RECEIVER)
		return;
	f->msg += len;
	if (flags & SPX_EOM) {
		bw_received(w, f->msg);
		f->msg = 0;
	}
}

static void on_closed(struct spx_conn *c, int reason, void *ctx)
{
	struct ipx_bw *w = ctx;
	struct spx_fam *f = w->fam;

	keep_status(f);
	if (c == f->conn)
		f->conn = NULL;
	/* An informed disconnect after the sender's last message is the
	 * normal end; anything else while running is a failure. */
	if (reason != IPX_OK || w->role == IPX_BW_SENDER)
		bw_fail(w, "the SPX connection %s: %s",
			reason == IPX_EABORTED ? "aborted" : "closed",
			ipx_strerror(reason));
}

static const struct spx_handlers handlers = {
	.on_connected = on_connected,
	.on_data = on_data,
	.on_closed = on_closed,
};

static void on_accept(struct spx_listener *l, struct spx_conn *c, void *ctx)
{
	struct ipx_bw *w = ctx;
	struct spx_fam *f = w->fam;

	(void)l;
	if (f->conn || !bw_live(w)) {	/* one connection per workload */
		spx_abort(c);
		return;
	}
	f->conn = c;
	spx_set_handlers(c, &handlers, w);
	keep_status(f);
}

static int spx_open(struct ipx_bw *w)
{
	struct spx_fam *f = calloc(1, sizeof(*f));
	struct spx_options so = { 0 };
	bool sender = w->role == IPX_BW_SENDER;
	int rc;

	if (!f)
		return IPX_ENOMEM;
	w->fam = f;
	so.spx2 = !sender || w->p.kind == IPX_BW_SPX2;
	so.window = w->p.spx_window;
	so.send_queue = w->p.send_queue;
	so.connect_timeout = (ipx_time)((w->p.setup_timeout > 0
						 ? w->p.setup_timeout
						 : 10.0) *
					IPX_SEC);
	f->spx = spx_new(w->node, &so);
	if (!f->spx)
		return IPX_ENOMEM;
	if (!sender) {
		rc = spx_listen(f->spx, 0, on_accept, w, &f->lst);
		if (rc != IPX_OK) {
			bw_set_error(w, "cannot listen for SPX: %s",
				     ipx_strerror(rc));
			return rc;
		}
		bw_ready(w);
		return IPX_OK;
	}
	/* a whole send queue of messages at most (64 KiB by default) */
	f->cap = (w->p.send_queue ? w->p.send_queue : 64 * 1024) / w->p.size +
		 1;
	f->start = calloc(f->cap, sizeof(*f->start));
	if (!f->start)
		return IPX_ENOMEM;
	rc = spx_connect(f->spx, &w->p.peer.addr, &handlers, w, &f->conn);
	if (rc != IPX_OK) {
		f->conn = NULL;
		bw_set_error(w, "cannot start an SPX connection: %s",
			     ipx_strerror(rc));
		return rc;
	}
	return IPX_OK;
}

static void spx_go(struct ipx_bw *w)
{
	struct spx_fam *f = w->fam;

	ipx_loop_add_hook(w->loop, &f->hook, on_turn, w);
	f->hooked = true;
	on_turn(w->loop, w);
}

static void spx_result(const struct ipx_bw *w, struct ipx_bw_result *r)
{
	const struct spx_fam *f = w->fam;
	struct spx_status st = f->st;

	if (f->conn)
		spx_get_status(f->conn, &st);
	r->retransmits = st.stats.retransmits;
	r->srtt_us = (double)st.srtt;
}

static void spx_close_fam(struct ipx_bw *w)
{
	struct spx_fam *f = w->fam;

	if (!f)
		return;
	if (f->hooked)
		ipx_loop_remove_hook(w->loop, &f->hook);
	if (f->conn && w->role == IPX_BW_SENDER)
		spx_close(f->conn);	/* informed: the disconnect leaves */
	if (f->lst)
		spx_listener_close(f->lst);
	if (f->spx)
		spx_free(f->spx);
	free(f->start);
	free(f);
	w->fam = NULL;
}

const struct bw_ops bw_spx_ops = {
	.open = spx_open,
	.info = spx_info,
	.go = spx_go,
	.result = spx_result,
	.close = spx_close_fam,
};
