/*
 * spx.c - the SPX module of a node: its sockets, listeners, the table of
 * connections by id, demultiplexing, connect requests, and the one slow
 * watchdog tick that serves every connection (see spx.h).
 */
#include <stdlib.h>
#include <string.h>

#include "ipxlab/err.h"
#include "ipxlab/log.h"
#include "ipxlab/priv/drops.h"
#include "spx_int.h"

IPX_DROP_NAMES(SPX_DROPS, enum spx_drop, SPX_DROP_COUNT, spx_drop_name)

static void watchdog_tick(struct ipx_loop *loop, struct ipx_timer *t,
			  void *ctx);

struct spx *spx_new(struct ipx_node *node, const struct spx_options *opts)
{
	const struct ipx_config *cfg = ipx_node_config(node);
	struct spx *spx = calloc(1, sizeof(*spx));

	if (!spx)
		return NULL;
	spx->node = node;
	spx->loop = ipx_node_loop(node);
	if (opts) {
		spx->opts = *opts;
	} else {
		spx->opts.spx2 = true;
	}
	if (!spx->opts.window)
		spx->opts.window = 32;
	if (spx->opts.window > 1024)
		spx->opts.window = 1024;
	if (!spx->opts.send_queue)
		spx->opts.send_queue = 64 * 1024;
	if (!spx->opts.connect_timeout)
		spx->opts.connect_timeout = 10 * IPX_SEC;
	spx->max_conns = cfg->spx_connections;
	spx->retry_count = cfg->ipx_retry_count;
	spx->listen_timeout = ipx_ticks(cfg->spx_listen_timeout);
	spx->verify_timeout = ipx_ticks(cfg->spx_verify_timeout);
	spx->abort_timeout = ipx_ticks(cfg->spx_abort_timeout);
	/* Start ids somewhere other than 1 so a restarted program's new
	 * connections are not mistaken for its old ones. */
	spx->next_id = (uint16_t)(0x1000 + (ipx_loop_now(spx->loop) / 7 % 0xD000));
	ipx_timer_init(&spx->tick, watchdog_tick, spx);
	return spx;
}

void spx_free(struct spx *spx)
{
	if (!spx)
		return;
	for (size_t b = 0; b < 256; b++)
		while (spx->table[b])
			spx_conn_destroy(spx->table[b]);
	while (spx->listeners)
		spx_listener_close(spx->listeners);
	ipx_socket_close(spx->client_sock);
	ipx_timer_stop(spx->loop, &spx->tick);
	free(spx);
}

const uint64_t *spx_drops(const struct spx *spx)
{
	return spx->drops;
}

size_t spx_conn_count(const struct spx *spx)
{
	return spx->nconns;
}

size_t spx_conn_size(void)
{
	return sizeof(struct spx_conn);
}

/* ---- the connection table ---- */

struct spx_conn *spx_table_find(const struct spx *spx, uint16_t id)
{
	for (struct spx_conn *c = spx->table[id & 0xFF]; c; c = c->hnext)
		if (c->local_id == id)
			return c;
	return NULL;
}

static struct spx_conn *find_by_remote(const struct spx *spx,
				       const struct ipx_addr *from,
				       uint16_t remote_id)
{
	for (size_t b = 0; b < 256; b++)
		for (struct spx_conn *c = spx->table[b]; c; c = c->hnext)
			if (c->incoming && c->remote_id == remote_id &&
			    ipx_addr_match(&c->remote, from))
				return c;
	return NULL;
}

static uint16_t new_id(struct spx *spx)
{
	for (;;) {
		uint16_t id = spx->next_id++;

		if (id != 0 && id != SPX_CONN_UNKNOWN && !spx_table_find(spx, id))
			return id;
	}
}

static int table_add(struct spx *spx, struct spx_conn *c)
{
	if (spx->nconns >= spx->max_conns)
		return IPX_ECONNFULL;
	c->local_id = new_id(spx);
	c->hnext = spx->table[c->local_id & 0xFF];
	spx->table[c->local_id & 0xFF] = c;
	spx->nconns++;
	if (!ipx_timer_active(&spx->tick))
		ipx_timer_start(spx->loop, &spx->tick, IPX_TICK, IPX_TICK);
	return IPX_OK;
}

void spx_table_remove(struct spx *spx, struct spx_conn *c)
{
	for (struct spx_conn **pp = &spx->table[c->local_id & 0xFF]; *pp;
	     pp = &(*pp)->hnext) {
		if (*pp == c) {
			*pp = c->hnext;
			spx->nconns--;
			break;
		}
	}
	if (spx->nconns == 0)
		ipx_timer_stop(spx->loop, &spx->tick);
}

/* ---- receiving ---- */

void spx_remember_gone(struct spx *spx, const struct spx_conn *c, bool clean,
		       uint8_t fin_ds, uint16_t fin_seq)
{
	struct spx_gone *g = &spx->gone[spx->ngone++ % 16];

	g->remote = c->remote;
	g->local_id = c->local_id;
	g->remote_id = c->remote_id;
	g->fin_ds = fin_ds;
	g->fin_seq = fin_seq;
	g->clean = clean;
}

/* An SPX header with nothing after it, straight to 'to'. */
static void send_bare(struct ipx_socket *sock, const struct ipx_addr *to,
		      uint8_t ds, uint16_t src_id, uint16_t dst_id,
		      uint16_t ack)
{
	struct spx_header a = { .cc = SPX_CC_SYS, .ds = ds, .src_id = src_id,
				.dst_id = dst_id, .ack = ack,
				.hdr_len = SPX_HDR_LEN };
	uint8_t p[SPX_HDR_LEN];

	spx_header_encode(&a, p);
	ipx_socket_sendto(sock, to, IPX_TYPE_SPX, p, sizeof(p));
}

/*
 * A disconnect or release for a connection we no longer have. If we took
 * that very packet (our answer was lost), answer again acknowledging it,
 * so the peer closes cleanly. Otherwise (we aborted, or never knew the
 * connection) answer with a disconnect ack that acknowledges nothing of
 * it (one before its sequence number): the peer must not think its data
 * arrived.
 */
static void answer_stray(struct spx *spx, struct ipx_socket *sock,
			 const struct ipx_header *ih,
			 const struct spx_header *h)
{
	uint8_t ds = SPX_DS_DISCONNECT_ACK;
	uint16_t ack = (uint16_t)(h->seq - 1);

	for (unsigned i = 0; i < 16; i++) {
		const struct spx_gone *g = &spx->gone[i];

		if (g->clean && g->local_id == h->dst_id &&
		    g->remote_id == h->src_id && g->fin_seq == h->seq &&
		    g->fin_ds == h->ds && ipx_addr_match(&g->remote, &ih->src)) {
			ack = (uint16_t)(h->seq + 1);
			if (h->ds == SPX_DS_RELEASE)
				ds = SPX_DS_RELEASE_ACK;
			break;
		}
	}
	send_bare(sock, &ih->src, ds, h->dst_id, h->src_id, ack);
}

/* Refuse a connect request at once: a disconnect from no connection
 * (source id 0xFFFF), which the caller reports as refused. */
static void refuse(struct ipx_socket *sock,
		   const struct ipx_header *ih, const struct spx_header *h)
{
	send_bare(sock, &ih->src, SPX_DS_DISCONNECT, SPX_CONN_UNKNOWN,
		  h->src_id, 0);
}

static void connect_request(struct spx *spx, struct spx_listener *l,
			    const struct ipx_header *ih,
			    const struct spx_header *h)
{
	struct spx_conn *c = find_by_remote(spx, &ih->src, h->src_id);

	if (c) {
		/* A repeated request: our accept was lost. */
		spx_conn_accept(c, h);
		return;
	}
	if (!l) {
		spx->drops[SPX_DROP_NOT_LISTENING]++;
		return;
	}
	if (l->busy) {
		spx->drops[SPX_DROP_REFUSED]++;
		refuse(l->sock, ih, h);
		return;
	}
	c = spx_conn_new(spx, l->sock, &ih->src, true);
	if (!c)
		return;
	if (table_add(spx, c) != IPX_OK) {
		spx->drops[SPX_DROP_TABLE_FULL]++;
		ipx_warn("spx: connect request refused: all %u SPX CONNECTIONS "
			 "in use",
			 spx->max_conns);
		free(c);
		refuse(l->sock, ih, h);
		return;
	}
	spx_conn_accept(c, h);
	c->busy++;
	l->accept(l, c, l->ctx);
	c->busy--;
	if (c->dead)
		spx_conn_destroy(c);
}

static void input(struct spx *spx, struct spx_listener *l,
		  struct ipx_socket *sock, const struct ipx_header *ih,
		  const uint8_t *data, size_t len)
{
	struct spx_header h;
	struct spx_conn *c;

	if (spx_header_decode(data, len, &h) != IPX_OK) {
		spx->drops[SPX_DROP_SHORT]++;
		return;
	}
	if (h.dst_id == SPX_CONN_UNKNOWN) {
		if ((h.cc & (SPX_CC_SYS | SPX_CC_ACK)) ==
			    (SPX_CC_SYS | SPX_CC_ACK) &&
		    h.src_id != SPX_CONN_UNKNOWN)
			connect_request(spx, l, ih, &h);
		else
			spx->drops[SPX_DROP_BAD_STATE]++;
		return;
	}
	c = spx_table_find(spx, h.dst_id);
	if (!c) {
		if (h.ds == SPX_DS_DISCONNECT || h.ds == SPX_DS_RELEASE)
			answer_stray(spx, sock, ih, &h);
		spx->drops[SPX_DROP_NO_CONN]++;
		return;
	}
	/* The accept may come from another socket than we called; after
	 * that, only the connection's own peer is heard. */
	if (c->state == SPX_CONNECTING) {
		/* Network 0 in the address we called means "this network":
		 * the answer tells us its number. */
		if ((c->remote.net != 0 && c->remote.net != ih->src.net) ||
		    !ipx_node_eq(c->remote.node, ih->src.node)) {
			spx->drops[SPX_DROP_WRONG_PEER]++;
			return;
		}
		c->remote.net = ih->src.net;
		c->remote.socket = ih->src.socket;
	} else if (!ipx_addr_match(&c->remote, &ih->src) ||
		   h.src_id != c->remote_id) {
		spx->drops[SPX_DROP_WRONG_PEER]++;
		return;
	}
	c->busy++;
	spx_conn_input(c, ih, &h, data + h.hdr_len, len - h.hdr_len);
	c->busy--;
	if (c->dead)
		spx_conn_destroy(c);
}

static void listener_recv(struct ipx_socket *sock, const struct ipx_header *ih,
			  const uint8_t *data, size_t len, void *ctx)
{
	struct spx_listener *l = ctx;

	input(l->spx, l, sock, ih, data, len);
}

static void client_recv(struct ipx_socket *sock, const struct ipx_header *ih,
			const uint8_t *data, size_t len, void *ctx)
{
	input(ctx, NULL, sock, ih, data, len);
}

/* ---- listeners and connect ---- */

int spx_listen(struct spx *spx, uint16_t socket, spx_accept_cb accept,
	       void *ctx, struct spx_listener **out)
{
	struct spx_listener *l = calloc(1, sizeof(*l));
	int rc;

	if (!l)
		return IPX_ENOMEM;
	if (!accept) {
		free(l);
		return IPX_EINVAL;
	}
	rc = ipx_socket_open(spx->node, socket, listener_recv, l, &l->sock);
	if (rc != IPX_OK) {
		free(l);
		return rc;
	}
	l->spx = spx;
	l->accept = accept;
	l->ctx = ctx;
	l->next = spx->listeners;
	spx->listeners = l;
	*out = l;
	return IPX_OK;
}

uint16_t spx_listener_socket(const struct spx_listener *l)
{
	return ipx_socket_number(l->sock);
}

void spx_listener_set_busy(struct spx_listener *l, bool busy)
{
	l->busy = busy;
}

void spx_listener_close(struct spx_listener *l)
{
	struct spx *spx = l->spx;

	/* Connections accepted here keep their socket: abort them first. */
	for (size_t b = 0; b < 256; b++) {
		struct spx_conn *c = spx->table[b];

		while (c) {
			struct spx_conn *next = c->hnext;

			if (c->sock == l->sock)
				spx_abort(c);
			c = next;
		}
	}
	for (struct spx_listener **pp = &spx->listeners; *pp;
	     pp = &(*pp)->next) {
		if (*pp == l) {
			*pp = l->next;
			break;
		}
	}
	ipx_socket_close(l->sock);
	free(l);
}

int spx_connect(struct spx *spx, const struct ipx_addr *dst,
		const struct spx_handlers *h, void *ctx, struct spx_conn **out)
{
	struct spx_conn *c;
	int rc;

	if (!dst || !h || ipx_node_is_broadcast(dst->node))
		return IPX_EINVAL;
	if (spx->nconns >= spx->max_conns)
		return IPX_ECONNFULL;
	if (!spx->client_sock) {
		rc = ipx_socket_open(spx->node, 0, client_recv, spx,
				     &spx->client_sock);
		if (rc != IPX_OK)
			return rc;
	}
	c = spx_conn_new(spx, spx->client_sock, dst, false);
	if (!c)
		return IPX_ENOMEM;
	rc = table_add(spx, c);
	if (rc != IPX_OK) {
		free(c);
		return rc;
	}
	c->h = *h;
	c->ctx = ctx;
	*out = c;
	spx_conn_start_connect(c);
	return IPX_OK;
}

void spx_set_handlers(struct spx_conn *c, const struct spx_handlers *h,
		      void *ctx)
{
	c->h = *h;
	c->ctx = ctx;
}

/* ---- the watchdog: one sweep per tick for every connection ---- */

static void watchdog_tick(struct ipx_loop *loop, struct ipx_timer *t,
			  void *ctx)
{
	struct spx *spx = ctx;
	ipx_time now = ipx_loop_now(loop);

	(void)t;
	for (size_t b = 0; b < 256; b++) {
		struct spx_conn *c = spx->table[b];

		while (c) {
			struct spx_conn *next = c->hnext;

			c->busy++;
			spx_conn_watchdog(c, now);
			c->busy--;
			if (c->dead)
				spx_conn_destroy(c);
			c = next;
		}
	}
}
