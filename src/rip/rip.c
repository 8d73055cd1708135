/*
 * rip.c - IPX RIP: codec and agent (see rip.h and docs/routing.md).
 *
 * The routes themselves live in the node (node.h); this module decides
 * which ones to install from what neighbours say, and says what the node
 * knows. A router watches the node's table: every change it sees (its own,
 * a removed link, an expiry) marks that network dirty, and the dirty set
 * leaves as one triggered update on the next loop turn, each network with
 * its current metric or 16 hops if it is gone.
 */
#include "ipxlab/rip.h"

#include <stdlib.h>
#include <string.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"
#include "ipxlab/priv/drops.h"

#define DEFAULT_PERIOD (60 * IPX_SEC)
#define DEFAULT_EXPIRY (180 * IPX_SEC)
#define DEFAULT_RETRY (500 * IPX_MSEC)
#define MAX_INFLIGHT 32		/* networks being asked for at once */
#define MAX_TRIES 3
#define MAX_LINKS 8

/* A network an end node is asking for. */
struct inflight {
	uint32_t net;
	unsigned tries;
	ipx_time next;
};

struct ipx_rip {
	struct ipx_node *node;
	struct ipx_loop *loop;
	struct ipx_rip_options opts;
	struct ipx_socket *sock;
	struct ipx_timer periodic, expire, trigger, retry;
	/* Dirty networks for the next triggered update. */
	uint32_t *dirty;
	size_t ndirty, capdirty;
	bool quiet;		/* a refresh: not a change worth telling */
	/* Links and whether they were up at the last periodic check. */
	struct ipx_link *seen[MAX_LINKS];
	bool seen_up[MAX_LINKS];
	size_t nseen;
	struct inflight inflight[MAX_INFLIGHT];
	size_t ninflight;
	ipx_rip_response_cb on_response;
	void *on_response_ctx;
	struct ipx_rip_stats stats;
};

IPX_DROP_NAMES(IPX_RIP_DROPS, enum ipx_rip_drop, IPX_RIP_DROP_COUNT,
	       ipx_rip_drop_name)

/* ---- codec ---- */

int ipx_rip_decode(const uint8_t *p, size_t len, struct ipx_rip_msg *out,
		   enum ipx_rip_drop *why)
{
	enum ipx_rip_drop d;

	if (len < 2)
		d = IPX_RIP_DROP_SHORT;
	else if (ipx_get16(p) != IPX_RIP_REQUEST &&
		 ipx_get16(p) != IPX_RIP_RESPONSE)
		d = IPX_RIP_DROP_BAD_OP;
	else if ((len - 2) % IPX_RIP_ENTRY_LEN)
		d = IPX_RIP_DROP_BAD_LENGTH;
	else if (len == 2)
		d = IPX_RIP_DROP_EMPTY;
	else if ((len - 2) / IPX_RIP_ENTRY_LEN > IPX_RIP_MAX_ENTRIES)
		d = IPX_RIP_DROP_TOO_MANY;
	else
		goto good;
	if (why)
		*why = d;
	return IPX_EINVAL;
good:
	out->op = ipx_get16(p);
	out->count = (len - 2) / IPX_RIP_ENTRY_LEN;
	for (size_t i = 0; i < out->count; i++) {
		const uint8_t *e = p + 2 + i * IPX_RIP_ENTRY_LEN;

		out->entries[i].net = ipx_get32(e);
		out->entries[i].hops = ipx_get16(e + 4);
		out->entries[i].ticks = ipx_get16(e + 6);
	}
	return IPX_OK;
}

size_t ipx_rip_encode(const struct ipx_rip_msg *msg, uint8_t *out, size_t cap)
{
	size_t len = 2 + msg->count * IPX_RIP_ENTRY_LEN;

	if (msg->count > IPX_RIP_MAX_ENTRIES || len > cap)
		return 0;
	ipx_put16(out, msg->op);
	for (size_t i = 0; i < msg->count; i++) {
		uint8_t *e = out + 2 + i * IPX_RIP_ENTRY_LEN;

		ipx_put32(e, msg->entries[i].net);
		ipx_put16(e + 4, msg->entries[i].hops);
		ipx_put16(e + 6, msg->entries[i].ticks);
	}
	return len;
}

/* ---- sending ---- */

static const struct ipx_addr *bcast_on(const struct ipx_link *link,
				       struct ipx_addr *a)
{
	a->net = link->net;
	memcpy(a->node, ipx_node_broadcast, IPX_NODE_LEN);
	a->socket = IPX_SOCK_RIP;
	return a;
}

/* Send msg out 'link' to 'to' (or as the answer to 'req' when given). */
static void send_msg(struct ipx_rip *rip, struct ipx_link *link,
		     const struct ipx_addr *to, const struct ipx_header *req,
		     const struct ipx_rip_msg *msg)
{
	uint8_t buf[IPX_RIP_MAX_LEN];
	size_t len = ipx_rip_encode(msg, buf, sizeof(buf));
	int rc;

	if (!len || !msg->count)
		return;
	if (req)
		rc = ipx_socket_reply(rip->sock, req, IPX_TYPE_RIP, buf, len);
	else if (link)
		rc = ipx_socket_sendto_link(rip->sock, link, to, IPX_TYPE_RIP,
					    buf, len);
	else
		rc = ipx_socket_sendto(rip->sock, to, IPX_TYPE_RIP, buf, len);
	if (rc != IPX_OK) {
		rip->stats.drops[IPX_RIP_DROP_TX]++;
		return;
	}
	if (msg->op == IPX_RIP_REQUEST)
		rip->stats.tx_requests++;
	else
		rip->stats.tx_responses++;
}

/* Add an entry, sending the packet first when it is full. */
static void add_entry(struct ipx_rip *rip, struct ipx_link *link,
		      const struct ipx_addr *to, const struct ipx_header *req,
		      struct ipx_rip_msg *msg, uint32_t net, uint16_t hops,
		      uint16_t ticks)
{
	if (msg->count == IPX_RIP_MAX_ENTRIES) {
		send_msg(rip, link, to, req, msg);
		msg->count = 0;
	}
	msg->entries[msg->count].net = net;
	msg->entries[msg->count].hops = hops;
	msg->entries[msg->count].ticks = ticks;
	msg->count++;
}

/*
 * What a node on 'link' hears about route r from us: one router further,
 * plus the link's delay. False when split horizon keeps it off that link
 * (the route goes out that very link) or it would be unreachable.
 */
static bool advertised(const struct ipx_rip *rip, const struct ipx_link *link,
		       const struct ipx_route *r, uint16_t *hops,
		       uint16_t *ticks)
{
	uint32_t t;

	if (r->link == link || r->hops + 1 >= IPX_RIP_UNREACHABLE)
		return false;
	t = (uint32_t)r->ticks + ipx_node_link_ticks(rip->node, link);
	*hops = (uint16_t)(r->hops + 1);
	*ticks = (uint16_t)(t > 0xFFFF ? 0xFFFF : t);
	return true;
}

/* Every route the node has, in network order: internal, attached, learned. */
static size_t all_routes(const struct ipx_rip *rip, struct ipx_route **out)
{
	struct ipx_node *node = rip->node;
	size_t nl = ipx_node_link_count(node), nr = ipx_node_route_count(node);
	struct ipx_route *v = calloc(nl + nr + 1, sizeof(*v));
	size_t n = 0;

	*out = v;
	if (!v)
		return 0;
	if (ipx_node_internal_net(node) &&
	    ipx_node_route_lookup(node, ipx_node_internal_net(node), &v[n]) ==
		    IPX_OK)
		n++;
	for (size_t i = 0; i < nl; i++) {
		struct ipx_link *l = ipx_node_link(node, i);

		if (l->up && l->net &&
		    ipx_node_route_lookup(node, l->net, &v[n]) == IPX_OK &&
		    v[n].link == l)
			n++;
	}
	for (size_t i = 0; i < nr; i++)
		if (ipx_node_route_at(node, i)->link->up)
			v[n++] = *ipx_node_route_at(node, i);
	return n;
}

/*
 * The whole table as heard on 'link', to 'to' or as the answer to 'req';
 * with 'down' every entry says 16 hops (a router going away).
 */
static void send_table(struct ipx_rip *rip, struct ipx_link *link,
		       const struct ipx_addr *to, const struct ipx_header *req,
		       bool down)
{
	struct ipx_rip_msg msg = { .op = IPX_RIP_RESPONSE };
	struct ipx_route *v;
	size_t n = all_routes(rip, &v);
	uint16_t hops, ticks;

	for (size_t i = 0; i < n; i++)
		if (advertised(rip, link, &v[i], &hops, &ticks))
			add_entry(rip, link, to, req, &msg, v[i].net,
				  down ? IPX_RIP_UNREACHABLE : hops, ticks);
	send_msg(rip, link, to, req, &msg);
	free(v);
}

static void broadcast_table(struct ipx_rip *rip, bool down)
{
	struct ipx_addr to;

	for (size_t i = 0; i < ipx_node_link_count(rip->node); i++) {
		struct ipx_link *l = ipx_node_link(rip->node, i);

		if (l->up)
			send_table(rip, l, bcast_on(l, &to), NULL, down);
	}
}

/* ---- the table: changes, triggered updates, expiry ---- */

static void mark_dirty(struct ipx_rip *rip, uint32_t net)
{
	for (size_t i = 0; i < rip->ndirty; i++)
		if (rip->dirty[i] == net)
			return;
	if (rip->ndirty == rip->capdirty) {
		size_t cap = rip->capdirty ? rip->capdirty * 2 : 16;
		uint32_t *d = realloc(rip->dirty, cap * sizeof(*d));

		if (!d)
			return;	/* the next periodic broadcast says it */
		rip->dirty = d;
		rip->capdirty = cap;
	}
	rip->dirty[rip->ndirty++] = net;
	if (!ipx_timer_active(&rip->trigger))
		ipx_timer_start(rip->loop, &rip->trigger, 0, 0);
}

static void on_route(struct ipx_node *node, uint32_t net,
		     const struct ipx_route *now, void *ctx)
{
	struct ipx_rip *rip = ctx;

	(void)node;
	(void)now;
	if (!rip->quiet)
		mark_dirty(rip, net);
}

static void send_triggered(struct ipx_loop *loop, struct ipx_timer *t,
			   void *ctx)
{
	struct ipx_rip *rip = ctx;
	struct ipx_addr to;

	(void)loop;
	(void)t;
	for (size_t i = 0; i < ipx_node_link_count(rip->node); i++) {
		struct ipx_link *l = ipx_node_link(rip->node, i);
		struct ipx_rip_msg msg = { .op = IPX_RIP_RESPONSE };

		if (!l->up)
			continue;
		bcast_on(l, &to);
		for (size_t k = 0; k < rip->ndirty; k++) {
			struct ipx_route r;
			uint16_t hops, ticks;

			if (ipx_node_route_lookup(rip->node, rip->dirty[k],
						  &r) != IPX_OK)
				add_entry(rip, l, &to, NULL, &msg,
					  rip->dirty[k], IPX_RIP_UNREACHABLE,
					  IPX_RIP_UNREACHABLE);
			else if (advertised(rip, l, &r, &hops, &ticks))
				add_entry(rip, l, &to, NULL, &msg, r.net, hops,
					  ticks);
			else if (r.link == l && r.kind == IPX_ROUTE_LEARNED)
				/* Moved onto this link: what we said here
				 * before no longer holds. */
				add_entry(rip, l, &to, NULL, &msg, r.net,
					  IPX_RIP_UNREACHABLE,
					  IPX_RIP_UNREACHABLE);
		}
		send_msg(rip, l, &to, NULL, &msg);
	}
	rip->ndirty = 0;
	rip->stats.triggered++;
}

static void arm_expiry(struct ipx_rip *rip)
{
	ipx_time now = ipx_loop_now(rip->loop), first = 0;
	size_t n = ipx_node_route_count(rip->node);

	for (size_t i = 0; i < n; i++) {
		ipx_time at = ipx_node_route_at(rip->node, i)->updated +
			      rip->opts.expiry;

		if (i == 0 || ipx_time_before(at, first))
			first = at;
	}
	if (!n)
		ipx_timer_stop(rip->loop, &rip->expire);
	else
		ipx_timer_start(rip->loop, &rip->expire,
				ipx_time_before(now, first) ? first - now : 0, 0);
}

static void expire_routes(struct ipx_loop *loop, struct ipx_timer *t,
			  void *ctx)
{
	struct ipx_rip *rip = ctx;
	ipx_time now = ipx_loop_now(loop);

	(void)t;
	for (size_t i = 0; i < ipx_node_route_count(rip->node);) {
		const struct ipx_route *r = ipx_node_route_at(rip->node, i);

		if (!ipx_time_before(now, r->updated + rip->opts.expiry)) {
			ipx_debug("rip: route to %08X expired",
				  (unsigned)r->net);
			ipx_node_route_del(rip->node, r->net);
			rip->stats.expired++;
		} else {
			i++;
		}
	}
	arm_expiry(rip);
}

/* A router's links that went down since the last look: their networks
 * are gone (the node no longer finds a route), say so. */
static void check_links(struct ipx_rip *rip)
{
	size_t n = ipx_node_link_count(rip->node);

	for (size_t i = 0; i < n && i < MAX_LINKS; i++) {
		struct ipx_link *l = ipx_node_link(rip->node, i);

		for (size_t k = 0; k < rip->nseen; k++)
			if (rip->seen[k] == l && rip->seen_up[k] && !l->up &&
			    l->net)
				mark_dirty(rip, l->net);
	}
	rip->nseen = 0;
	for (size_t i = 0; i < n && i < MAX_LINKS; i++) {
		rip->seen[i] = ipx_node_link(rip->node, i);
		rip->seen_up[i] = rip->seen[i]->up;
		rip->nseen++;
	}
}

static void periodic(struct ipx_loop *loop, struct ipx_timer *t, void *ctx)
{
	struct ipx_rip *rip = ctx;

	(void)loop;
	(void)t;
	check_links(rip);
	broadcast_table(rip, false);
}

/* ---- receiving ---- */

static void resolved(struct ipx_rip *rip, uint32_t net)
{
	for (size_t i = 0; i < rip->ninflight; i++) {
		if (rip->inflight[i].net == net) {
			rip->inflight[i] = rip->inflight[--rip->ninflight];
			return;
		}
	}
}

/* One entry of a neighbour's response, heard on 'link' from 'from'. */
static void learn(struct ipx_rip *rip, struct ipx_link *link,
		  const uint8_t from[IPX_NODE_LEN],
		  const struct ipx_rip_entry *e)
{
	struct ipx_route cur, r = { 0 };
	bool have, same;

	if (e->net == 0 || e->net == IPX_RIP_ALL_NETS) {
		rip->stats.drops[IPX_RIP_DROP_BAD_ENTRY]++;
		return;
	}
	have = ipx_node_route_lookup(rip->node, e->net, &cur) == IPX_OK;
	if (have && cur.kind != IPX_ROUTE_LEARNED) {
		resolved(rip, e->net);	/* ours: attached or internal */
		return;
	}
	same = have && cur.link == link && ipx_node_eq(cur.via, from);
	if (e->hops >= IPX_RIP_UNREACHABLE) {
		if (same) {
			ipx_node_route_del(rip->node, e->net);
			rip->stats.withdrawn++;
		}
		return;
	}
	r.net = e->net;
	r.hops = e->hops;
	r.ticks = e->ticks;
	r.link = link;
	memcpy(r.via, from, IPX_NODE_LEN);
	r.updated = ipx_loop_now(rip->loop);
	if (!have || (!same && ipx_route_better(&r, &cur))) {
		if (ipx_node_route_set(rip->node, &r) == IPX_OK)
			rip->stats.learned++;
	} else if (same) {
		bool change = r.hops != cur.hops || r.ticks != cur.ticks;

		rip->quiet = !change;
		if (ipx_node_route_set(rip->node, &r) == IPX_OK && change)
			rip->stats.changed++;
		rip->quiet = false;
	}
	resolved(rip, e->net);
}

static void answer(struct ipx_rip *rip, struct ipx_link *link,
		   const struct ipx_header *hdr, const struct ipx_rip_msg *req)
{
	struct ipx_rip_msg msg = { .op = IPX_RIP_RESPONSE };

	for (size_t i = 0; i < req->count; i++) {
		struct ipx_route r;
		uint16_t hops, ticks;

		if (req->entries[i].net == IPX_RIP_ALL_NETS) {
			send_table(rip, link, &hdr->src, hdr, false);
			return;
		}
		if (ipx_node_route_lookup(rip->node, req->entries[i].net, &r) !=
		    IPX_OK)
			continue;
		/* The asker's own network, asked for by name: a node that
		 * does not know its number learns it from our answer, and a
		 * datagram it holds for that network leaves at once. */
		if (r.kind == IPX_ROUTE_ATTACHED && r.link == link)
			add_entry(rip, link, &hdr->src, hdr, &msg, r.net, 1,
				  ipx_node_link_ticks(rip->node, link));
		else if (advertised(rip, link, &r, &hops, &ticks))
			add_entry(rip, link, &hdr->src, hdr, &msg, r.net, hops,
				  ticks);
	}
	send_msg(rip, link, &hdr->src, hdr, &msg);
}

static void on_packet(struct ipx_socket *sock, const struct ipx_header *hdr,
		      const uint8_t *data, size_t len, void *ctx)
{
	struct ipx_rip *rip = ctx;
	struct ipx_link *link = ipx_node_rx_link(rip->node);
	struct ipx_rip_msg msg;
	enum ipx_rip_drop why;

	(void)sock;
	if (!link || ipx_node_is_own(rip->node, &hdr->src)) {
		rip->stats.drops[IPX_RIP_DROP_OWN]++;
		return;
	}
	if (ipx_rip_decode(data, len, &msg, &why) != IPX_OK) {
		rip->stats.drops[why]++;
		return;
	}
	if (msg.op == IPX_RIP_REQUEST) {
		rip->stats.rx_requests++;
		if (!rip->opts.router)
			rip->stats.drops[IPX_RIP_DROP_NOT_ROUTER]++;
		else
			answer(rip, link, hdr, &msg);
		return;
	}
	rip->stats.rx_responses++;
	/* Only a neighbour's word makes a route (its node is the next hop).
	 * One that crossed a router, sent to us alone, answers a request of
	 * ours to a router on another network: the asker is told. */
	if (hdr->hops != 0) {
		if (rip->on_response && !ipx_node_is_broadcast(hdr->dst.node))
			rip->on_response(hdr, &msg, rip->on_response_ctx);
		else
			rip->stats.drops[IPX_RIP_DROP_NOT_NEIGHBOUR]++;
		return;
	}
	/* The node has learnt its network number from it already, if it
	 * did not know it (ipx_node_set_link_net). */
	if (rip->on_response)
		rip->on_response(hdr, &msg, rip->on_response_ctx);
	for (size_t i = 0; i < msg.count; i++)
		learn(rip, link, hdr->src.node, &msg.entries[i]);
	arm_expiry(rip);
}

/* ---- asking ---- */

/*
 * An end node opens its (dynamic) socket only when it first asks: a node
 * that never routes keeps the dynamic sockets its applications had before
 * (0x4000 first; Wireshark decodes 0x4001 as "IPX Message").
 */
static int open_socket(struct ipx_rip *rip)
{
	if (rip->sock)
		return IPX_OK;
	return ipx_socket_open(rip->node, rip->opts.router ? IPX_SOCK_RIP : 0,
			       on_packet, rip, &rip->sock);
}

static int send_request(struct ipx_rip *rip, struct ipx_link *link,
			const struct ipx_addr *to, uint32_t net)
{
	struct ipx_rip_msg msg = { .op = IPX_RIP_REQUEST, .count = 1 };
	uint64_t before = rip->stats.tx_requests;

	if (open_socket(rip) != IPX_OK) {
		rip->stats.drops[IPX_RIP_DROP_TX]++;
		return IPX_ESOCKFULL;
	}

	msg.entries[0].net = net;
	msg.entries[0].hops = 0xFFFF;
	msg.entries[0].ticks = 0xFFFF;
	send_msg(rip, link, to, NULL, &msg);
	return rip->stats.tx_requests > before ? IPX_OK : IPX_EIO;
}

int ipx_rip_request(struct ipx_rip *rip, uint32_t net)
{
	struct ipx_addr to;
	int rc = IPX_ENOTUP;

	for (size_t i = 0; i < ipx_node_link_count(rip->node); i++) {
		struct ipx_link *l = ipx_node_link(rip->node, i);

		if (l->up && send_request(rip, l, bcast_on(l, &to), net) ==
				     IPX_OK)
			rc = IPX_OK;
	}
	return rc;
}

int ipx_rip_request_to(struct ipx_rip *rip, const struct ipx_addr *to,
		       uint32_t net)
{
	struct ipx_addr dst = *to;

	dst.socket = IPX_SOCK_RIP;
	return send_request(rip, NULL, &dst, net);
}

static void arm_retry(struct ipx_rip *rip)
{
	ipx_time now = ipx_loop_now(rip->loop), first = 0;

	for (size_t i = 0; i < rip->ninflight; i++)
		if (i == 0 || ipx_time_before(rip->inflight[i].next, first))
			first = rip->inflight[i].next;
	if (!rip->ninflight)
		ipx_timer_stop(rip->loop, &rip->retry);
	else
		ipx_timer_start(rip->loop, &rip->retry,
				ipx_time_before(now, first) ? first - now : 0, 0);
}

static void retry_requests(struct ipx_loop *loop, struct ipx_timer *t,
			   void *ctx)
{
	struct ipx_rip *rip = ctx;
	ipx_time now = ipx_loop_now(loop);

	(void)t;
	for (size_t i = 0; i < rip->ninflight;) {
		struct inflight *f = &rip->inflight[i];

		if (ipx_time_before(now, f->next)) {
			i++;
			continue;
		}
		if (f->tries >= MAX_TRIES) {
			*f = rip->inflight[--rip->ninflight];
			continue;
		}
		f->tries++;
		f->next = now + rip->opts.retry;
		ipx_rip_request(rip, f->net);
		i++;
	}
	arm_retry(rip);
}

/* The node has a datagram for a network it has no route to. */
static void on_miss(struct ipx_node *node, uint32_t net, void *ctx)
{
	struct ipx_rip *rip = ctx;

	(void)node;
	for (size_t i = 0; i < rip->ninflight; i++)
		if (rip->inflight[i].net == net)
			return;
	if (rip->ninflight == MAX_INFLIGHT)
		return;		/* the datagram times out */
	rip->inflight[rip->ninflight].net = net;
	rip->inflight[rip->ninflight].tries = 0;
	rip->inflight[rip->ninflight].next = ipx_loop_now(rip->loop);
	rip->ninflight++;
	arm_retry(rip);
}

/* ---- life cycle ---- */

int ipx_rip_new(struct ipx_node *node, const struct ipx_rip_options *opts,
		struct ipx_rip **out)
{
	struct ipx_rip *rip = calloc(1, sizeof(*rip));
	int rc;

	if (!rip)
		return IPX_ENOMEM;
	rip->node = node;
	rip->loop = ipx_node_loop(node);
	if (opts)
		rip->opts = *opts;
	if (!rip->opts.period)
		rip->opts.period = DEFAULT_PERIOD;
	if (!rip->opts.expiry)
		rip->opts.expiry = DEFAULT_EXPIRY;
	if (!rip->opts.retry)
		rip->opts.retry = DEFAULT_RETRY;
	if (rip->opts.router) {
		rc = open_socket(rip);
		if (rc != IPX_OK) {
			free(rip);
			return rc;
		}
	}
	ipx_timer_init(&rip->periodic, periodic, rip);
	ipx_timer_init(&rip->expire, expire_routes, rip);
	ipx_timer_init(&rip->trigger, send_triggered, rip);
	ipx_timer_init(&rip->retry, retry_requests, rip);
	ipx_node_set_route_miss(node, on_miss, rip, rip->opts.resolve_timeout);
	if (rip->opts.router) {
		rc = ipx_node_watch_routes(node, on_route, rip);
		if (rc != IPX_OK) {
			ipx_rip_free(rip);
			return rc;
		}
		ipx_node_set_forwarding(node, true);
		check_links(rip);
		ipx_rip_request(rip, IPX_RIP_ALL_NETS);
		/* The table now, then every period. */
		ipx_timer_start(rip->loop, &rip->periodic, 0,
				rip->opts.period);
	}
	*out = rip;
	return IPX_OK;
}

void ipx_rip_free(struct ipx_rip *rip)
{
	if (!rip)
		return;
	ipx_node_set_route_miss(rip->node, NULL, NULL, 0);
	ipx_node_unwatch_routes(rip->node, on_route, rip);
	ipx_timer_stop(rip->loop, &rip->periodic);
	ipx_timer_stop(rip->loop, &rip->expire);
	ipx_timer_stop(rip->loop, &rip->trigger);
	ipx_timer_stop(rip->loop, &rip->retry);
	if (rip->sock)
		ipx_socket_close(rip->sock);
	free(rip->dirty);
	free(rip);
}

void ipx_rip_shutdown(struct ipx_rip *rip)
{
	if (rip && rip->opts.router)
		broadcast_table(rip, true);
}

void ipx_rip_on_response(struct ipx_rip *rip, ipx_rip_response_cb cb,
			 void *ctx)
{
	rip->on_response = cb;
	rip->on_response_ctx = ctx;
}

const struct ipx_rip_stats *ipx_rip_stats(const struct ipx_rip *rip)
{
	return &rip->stats;
}

static int link_number(const struct ipx_node *node, const struct ipx_link *l)
{
	for (size_t i = 0; i < ipx_node_link_count(node); i++)
		if (ipx_node_link(node, i) == l)
			return (int)i;
	return -1;
}

void ipx_rip_print(const struct ipx_rip *rip, FILE *out)
{
	const struct ipx_rip_stats *s = &rip->stats;
	ipx_time now = ipx_loop_now(rip->loop);
	struct ipx_route *v;
	size_t n = all_routes(rip, &v);
	char hop[13];

	fprintf(out, "routes %zu\n", n);
	fprintf(out, "%-8s %4s %5s  %-12s %-8s %s\n", "network", "hops", "ticks",
		"next hop", "link", "age");
	for (size_t i = 0; i < n; i++) {
		const struct ipx_route *r = &v[i];

		if (r->kind == IPX_ROUTE_INTERNAL) {
			fprintf(out, "%08X %4u %5u  %-12s %-8s -\n",
				(unsigned)r->net, 0u, 0u, "internal", "-");
			continue;
		}
		fprintf(out, "%08X %4u %5u  %-12s %d (%s)  ", (unsigned)r->net,
			r->hops, r->ticks,
			r->kind == IPX_ROUTE_ATTACHED
				? "attached"
				: ipx_node_format(r->via, hop),
			link_number(rip->node, r->link), r->link->kind);
		if (r->kind == IPX_ROUTE_LEARNED)
			fprintf(out, "%.0f s\n",
				(double)(now - r->updated) / IPX_SEC);
		else
			fprintf(out, "-\n");
	}
	free(v);
	fprintf(out,
		"rip_rx_requests %llu\nrip_rx_responses %llu\n"
		"rip_tx_requests %llu\nrip_tx_responses %llu\n"
		"rip_learned %llu\nrip_changed %llu\nrip_withdrawn %llu\n"
		"rip_expired %llu\nrip_triggered %llu\n",
		(unsigned long long)s->rx_requests,
		(unsigned long long)s->rx_responses,
		(unsigned long long)s->tx_requests,
		(unsigned long long)s->tx_responses,
		(unsigned long long)s->learned, (unsigned long long)s->changed,
		(unsigned long long)s->withdrawn,
		(unsigned long long)s->expired,
		(unsigned long long)s->triggered);
	for (int d = 0; d < IPX_RIP_DROP_COUNT; d++)
		fprintf(out, "rip_drop_%s %llu\n", drop_names[d],
			(unsigned long long)s->drops[d]);
}
