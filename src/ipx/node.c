/*
 * node.c - the IPX node: socket table, validation, dispatch, send path,
 * local loopback, and routing: the table of learned routes, forwarding
 * between links, type-20 propagation and packets waiting for a route
 * (see node.h and docs/routing.md).
 */
#include "ipxlab/node.h"

#include <stdlib.h>
#include <string.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"
#include "ipxlab/priv/drops.h"

#define NBUCKETS 64	/* socket hash buckets; at most 150 sockets */
#define MAX_LINKS 8
#define MAX_WATCHERS 4
#define MAX_PENDING 256	/* packets waiting for a route, node-wide */
#define NB_NETS 8	/* networks a type-20 broadcast records */
#define DEFAULT_RESOLVE_TIMEOUT (1500 * IPX_MSEC)

struct ipx_socket {
	struct ipx_node *node;
	uint16_t number;
	ipx_recv_cb cb;
	void *ctx;
	bool link_source;		/* source: the outgoing link's address */
	struct ipx_socket *next;	/* in its bucket */
};

/* A packet waiting to be looped back locally. */
struct loopback {
	struct loopback *next;
	size_t len;
	uint8_t pkt[];
};

/* A datagram waiting for a route to its network. */
struct pending {
	struct pending *next;
	ipx_time deadline;
	struct ipx_addr dst;
	uint16_t src_socket;
	uint8_t type;
	size_t len;
	uint8_t data[];
};

struct watcher {
	ipx_route_watch_cb cb;
	void *ctx;
};

struct ipx_node {
	struct ipx_loop *loop;
	struct ipx_config cfg;
	struct ipx_link *links[MAX_LINKS];
	uint16_t link_ticks[MAX_LINKS];
	ipx_time probe_at[MAX_LINKS];	/* next RIP probe allowed (learning) */
	size_t nlinks;
	uint32_t internal_net;
	uint8_t internal_node[IPX_NODE_LEN];	/* ipx_node_internal unless set */
	bool forwarding;
	struct ipx_link *rx_link;	/* during a receive callback */
	struct ipx_route *routes;	/* learned, sorted by net */
	size_t nroutes, caproutes;
	struct watcher watchers[MAX_WATCHERS];
	ipx_route_miss_cb miss_cb;
	void *miss_ctx;
	ipx_time resolve_timeout;
	struct pending *pend_head;
	size_t npending;
	struct ipx_timer pend_timer;
	struct ipx_socket *buckets[NBUCKETS];
	size_t nsockets;
	uint16_t next_dynamic;
	struct loopback *lb_head, **lb_tail;
	struct ipx_timer lb_timer;
	struct ipx_node_stats stats;
};

IPX_DROP_NAMES(IPX_DROPS, enum ipx_drop, IPX_DROP_COUNT, ipx_drop_name)

#define DROP_DESC_(id, name, desc) desc,
static const char *const drop_descs[] = { IPX_DROPS(DROP_DESC_) };
#undef DROP_DESC_

const char *ipx_drop_desc(enum ipx_drop d)
{
	return d < IPX_DROP_COUNT ? drop_descs[d] : "?";
}

const uint8_t ipx_node_internal[IPX_NODE_LEN] = { 0, 0, 0, 0, 0, 1 };

static void loopback_run(struct ipx_loop *loop, struct ipx_timer *t, void *ctx);
static void pending_expire(struct ipx_loop *loop, struct ipx_timer *t,
			   void *ctx);

struct ipx_node *ipx_node_new(struct ipx_loop *loop,
			      const struct ipx_config *cfg)
{
	struct ipx_node *node = calloc(1, sizeof(*node));

	if (!node)
		return NULL;
	node->loop = loop;
	if (cfg)
		node->cfg = *cfg;
	else
		ipx_config_defaults(&node->cfg);
	node->next_dynamic = IPX_SOCK_DYNAMIC_MIN;
	memcpy(node->internal_node, ipx_node_internal, IPX_NODE_LEN);
	node->lb_tail = &node->lb_head;
	ipx_timer_init(&node->lb_timer, loopback_run, node);
	ipx_timer_init(&node->pend_timer, pending_expire, node);
	node->resolve_timeout = DEFAULT_RESOLVE_TIMEOUT;
	return node;
}

void ipx_node_free(struct ipx_node *node)
{
	if (!node)
		return;
	for (size_t b = 0; b < NBUCKETS; b++) {
		while (node->buckets[b]) {
			struct ipx_socket *s = node->buckets[b];

			node->buckets[b] = s->next;
			free(s);
		}
	}
	for (size_t i = 0; i < node->nlinks; i++)
		ipx_link_close(node->links[i]);
	while (node->lb_head) {
		struct loopback *lb = node->lb_head;

		node->lb_head = lb->next;
		free(lb);
	}
	ipx_timer_stop(node->loop, &node->lb_timer);
	while (node->pend_head) {
		struct pending *pd = node->pend_head;

		node->pend_head = pd->next;
		free(pd);
	}
	ipx_timer_stop(node->loop, &node->pend_timer);
	free(node->routes);
	free(node);
}

static void link_rx(struct ipx_link *link, const uint8_t *pkt, size_t len,
		    void *ctx)
{
	ipx_node_input(ctx, link, pkt, len);
}

int ipx_node_add_link(struct ipx_node *node, struct ipx_link *link)
{
	if (!link)
		return IPX_EINVAL;
	if (node->nlinks == MAX_LINKS)
		return IPX_ERANGE;
	link->rx = link_rx;
	link->rx_ctx = node;
	node->link_ticks[node->nlinks] = 1;
	node->links[node->nlinks++] = link;
	return IPX_OK;
}

struct ipx_link *ipx_node_link(const struct ipx_node *node, size_t index)
{
	return index < node->nlinks ? node->links[index] : NULL;
}

size_t ipx_node_link_count(const struct ipx_node *node)
{
	return node->nlinks;
}

bool ipx_node_up(const struct ipx_node *node)
{
	return node->nlinks > 0 && node->links[0]->up;
}

void ipx_node_address(const struct ipx_node *node, struct ipx_addr *out)
{
	memset(out, 0, sizeof(*out));
	if (node->internal_net) {
		out->net = node->internal_net;
		memcpy(out->node, node->internal_node, IPX_NODE_LEN);
	} else if (node->nlinks > 0) {
		out->net = node->links[0]->net;
		memcpy(out->node, node->links[0]->node, IPX_NODE_LEN);
	}
}

struct ipx_loop *ipx_node_loop(const struct ipx_node *node)
{
	return node->loop;
}

const struct ipx_config *ipx_node_config(const struct ipx_node *node)
{
	return &node->cfg;
}

const struct ipx_node_stats *ipx_node_stats(const struct ipx_node *node)
{
	return &node->stats;
}

void ipx_node_count_drop(struct ipx_node *node, enum ipx_drop reason)
{
	if (reason < IPX_DROP_COUNT)
		node->stats.drops[reason]++;
}

void ipx_node_print_stats(const struct ipx_node *node, FILE *out, bool all)
{
	const struct ipx_node_stats *s = &node->stats;

	fprintf(out, "rx_packets %llu\nrx_bytes %llu\ntx_packets %llu\n"
		     "tx_bytes %llu\ndelivered %llu\nlooped %llu\n",
		(unsigned long long)s->rx_packets,
		(unsigned long long)s->rx_bytes,
		(unsigned long long)s->tx_packets,
		(unsigned long long)s->tx_bytes,
		(unsigned long long)s->delivered,
		(unsigned long long)s->looped);
	if (all || s->forwarded || s->propagated || s->resolved ||
	    s->net_learned || s->net_refused)
		fprintf(out, "forwarded %llu\npropagated %llu\nresolved %llu\n"
			     "net_learned %llu\nnet_refused %llu\n"
			     "net_probes %llu\n",
			(unsigned long long)s->forwarded,
			(unsigned long long)s->propagated,
			(unsigned long long)s->resolved,
			(unsigned long long)s->net_learned,
			(unsigned long long)s->net_refused,
			(unsigned long long)s->net_probes);
	for (int d = 0; d < IPX_DROP_COUNT; d++)
		if (all || s->drops[d])
			fprintf(out, "drop_%s %llu\n", drop_names[d],
				(unsigned long long)s->drops[d]);
}

/* ---- sockets ---- */

static size_t bucket_of(uint16_t number)
{
	return (number ^ (number >> 6)) % NBUCKETS;
}

static struct ipx_socket *find_socket(const struct ipx_node *node,
				      uint16_t number)
{
	for (struct ipx_socket *s = node->buckets[bucket_of(number)]; s;
	     s = s->next)
		if (s->number == number)
			return s;
	return NULL;
}

int ipx_socket_open(struct ipx_node *node, uint16_t number, ipx_recv_cb cb,
		    void *ctx, struct ipx_socket **out)
{
	struct ipx_socket *s;

	if (!cb || !out)
		return IPX_EINVAL;
	if (node->nsockets >= node->cfg.ipx_sockets)
		return IPX_ESOCKFULL;
	if (number == 0) {
		unsigned span = IPX_SOCK_DYNAMIC_MAX - IPX_SOCK_DYNAMIC_MIN + 1;

		/* At most 150 are open, so a free one is always near. */
		for (unsigned i = 0; i < span; i++) {
			uint16_t n = node->next_dynamic;

			node->next_dynamic = n == IPX_SOCK_DYNAMIC_MAX
						     ? IPX_SOCK_DYNAMIC_MIN
						     : (uint16_t)(n + 1);
			if (!find_socket(node, n)) {
				number = n;
				break;
			}
		}
		if (number == 0)
			return IPX_ESOCKFULL;
	} else if (find_socket(node, number)) {
		return IPX_EINUSE;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return IPX_ENOMEM;
	s->node = node;
	s->number = number;
	s->cb = cb;
	s->ctx = ctx;
	s->next = node->buckets[bucket_of(number)];
	node->buckets[bucket_of(number)] = s;
	node->nsockets++;
	*out = s;
	return IPX_OK;
}

void ipx_socket_close(struct ipx_socket *sock)
{
	struct ipx_socket **pp;

	if (!sock)
		return;
	for (pp = &sock->node->buckets[bucket_of(sock->number)]; *pp;
	     pp = &(*pp)->next) {
		if (*pp == sock) {
			*pp = sock->next;
			sock->node->nsockets--;
			free(sock);
			return;
		}
	}
}

uint16_t ipx_socket_number(const struct ipx_socket *sock)
{
	return sock->number;
}

struct ipx_node *ipx_socket_node(const struct ipx_socket *sock)
{
	return sock->node;
}

size_t ipx_node_socket_count(const struct ipx_node *node)
{
	return node->nsockets;
}

/* ---- links, addresses, the routing table ---- */

static int link_index(const struct ipx_node *node, const struct ipx_link *link)
{
	for (size_t i = 0; i < node->nlinks; i++)
		if (node->links[i] == link)
			return (int)i;
	return -1;
}

/* The link, up, whose network is net (never for net 0). */
static struct ipx_link *attached(const struct ipx_node *node, uint32_t net)
{
	if (net == 0)
		return NULL;
	for (size_t i = 0; i < node->nlinks; i++)
		if (node->links[i]->up && node->links[i]->net == net)
			return node->links[i];
	return NULL;
}

static struct ipx_link *first_up(const struct ipx_node *node)
{
	for (size_t i = 0; i < node->nlinks; i++)
		if (node->links[i]->up)
			return node->links[i];
	return NULL;
}

/* One link, up, on a network whose number is unknown: the segment is all
 * there is, so anything may go out on it (a node without routing). */
static struct ipx_link *lone_unknown(const struct ipx_node *node)
{
	if (node->nlinks == 1 && node->links[0]->up && node->links[0]->net == 0)
		return node->links[0];
	return NULL;
}

static void notify(struct ipx_node *node, uint32_t net)
{
	struct ipx_route now;
	bool have = ipx_node_route_lookup(node, net, &now) == IPX_OK;

	for (size_t i = 0; i < MAX_WATCHERS; i++) {
		struct watcher w = node->watchers[i];

		if (w.cb)
			w.cb(node, net, have ? &now : NULL, w.ctx);
	}
}

int ipx_node_remove_link(struct ipx_node *node, struct ipx_link *link)
{
	int idx = link ? link_index(node, link) : -1;
	uint32_t net;

	if (idx < 0)
		return IPX_EINVAL;
	net = link->net;
	for (size_t i = (size_t)idx; i + 1 < node->nlinks; i++) {
		node->links[i] = node->links[i + 1];
		node->link_ticks[i] = node->link_ticks[i + 1];
		node->probe_at[i] = node->probe_at[i + 1];
	}
	node->nlinks--;
	link->rx = NULL;
	link->rx_ctx = NULL;
	if (node->rx_link == link)
		node->rx_link = NULL;
	/* Routes through it go, each told to the watchers. */
	for (size_t i = 0; i < node->nroutes;) {
		if (node->routes[i].link == link)
			ipx_node_route_del(node, node->routes[i].net);
		else
			i++;
	}
	if (net)
		notify(node, net);
	return IPX_OK;
}

static void pending_flush(struct ipx_node *node, uint32_t net);

int ipx_node_set_link_net(struct ipx_node *node, struct ipx_link *link,
			  uint32_t net)
{
	if (link_index(node, link) < 0 || net == 0 || net == 0xFFFFFFFFu ||
	    net == node->internal_net)
		return IPX_EINVAL;
	if (link->net == net)
		return IPX_OK;
	if (link->net != 0)
		return IPX_EINUSE;
	link->net = net;
	node->stats.net_learned++;
	ipx_debug("node: this network is %08X", (unsigned)net);
	/* A learned route to it is now the link itself. */
	if (ipx_node_route_del(node, net) != IPX_OK)
		notify(node, net);
	pending_flush(node, net);
	return IPX_OK;
}

void ipx_node_set_link_ticks(struct ipx_node *node, struct ipx_link *link,
			     uint16_t ticks)
{
	int idx = link_index(node, link);

	if (idx >= 0)
		node->link_ticks[idx] = ticks ? ticks : 1;
}

uint16_t ipx_node_link_ticks(const struct ipx_node *node,
			     const struct ipx_link *link)
{
	int idx = link_index(node, link);

	return idx >= 0 ? node->link_ticks[idx] : 1;
}

int ipx_node_set_internal_net(struct ipx_node *node, uint32_t net)
{
	uint32_t old = node->internal_net;

	if (net == 0xFFFFFFFFu)
		return IPX_EINVAL;
	for (size_t i = 0; net && i < node->nlinks; i++)
		if (node->links[i]->net == net)
			return IPX_EINUSE;
	if (net && ipx_node_route_del(node, net) == IPX_OK)
		ipx_debug("node: internal network %08X replaces a learned route",
			  (unsigned)net);
	node->internal_net = net;
	if (old && old != net)
		notify(node, old);
	if (net)
		notify(node, net);
	return IPX_OK;
}

uint32_t ipx_node_internal_net(const struct ipx_node *node)
{
	return node->internal_net;
}

int ipx_node_set_internal_node(struct ipx_node *node,
			       const uint8_t addr[IPX_NODE_LEN])
{
	if (ipx_node_is_broadcast(addr))
		return IPX_EINVAL;
	memcpy(node->internal_node,
	       ipx_node_is_zero(addr) ? ipx_node_internal : addr, IPX_NODE_LEN);
	return IPX_OK;
}

const uint8_t *ipx_node_internal_node(const struct ipx_node *node)
{
	return node->internal_node;
}

void ipx_node_set_forwarding(struct ipx_node *node, bool on)
{
	node->forwarding = on;
}

bool ipx_node_forwarding(const struct ipx_node *node)
{
	return node->forwarding;
}

bool ipx_node_is_own(const struct ipx_node *node, const struct ipx_addr *addr)
{
	if (node->internal_net && addr->net == node->internal_net &&
	    ipx_node_eq(addr->node, node->internal_node))
		return true;
	for (size_t i = 0; i < node->nlinks; i++) {
		const struct ipx_link *l = node->links[i];

		if (ipx_node_eq(addr->node, l->node) &&
		    (addr->net == 0 || l->net == 0 || addr->net == l->net))
			return true;
	}
	return false;
}

struct ipx_link *ipx_node_rx_link(const struct ipx_node *node)
{
	return node->rx_link;
}

/* Index of net in the sorted table, or where it would go. */
static size_t route_pos(const struct ipx_node *node, uint32_t net, bool *found)
{
	size_t lo = 0, hi = node->nroutes;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (node->routes[mid].net < net)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = lo < node->nroutes && node->routes[lo].net == net;
	return lo;
}

int ipx_node_route_lookup(const struct ipx_node *node, uint32_t net,
			  struct ipx_route *out)
{
	struct ipx_link *link;
	bool found;
	size_t i;

	if (net == 0 || net == 0xFFFFFFFFu)
		return IPX_ENOROUTE;
	memset(out, 0, sizeof(*out));
	out->net = net;
	if (net == node->internal_net) {
		out->kind = IPX_ROUTE_INTERNAL;
		return IPX_OK;
	}
	link = attached(node, net);
	if (link) {
		out->kind = IPX_ROUTE_ATTACHED;
		out->link = link;
		return IPX_OK;
	}
	i = route_pos(node, net, &found);
	if (!found || !node->routes[i].link->up)
		return IPX_ENOROUTE;
	*out = node->routes[i];
	return IPX_OK;
}

int ipx_node_route_set(struct ipx_node *node, const struct ipx_route *r)
{
	bool found;
	size_t i;

	if (!r || r->net == 0 || r->net == 0xFFFFFFFFu ||
	    r->net == node->internal_net || link_index(node, r->link) < 0)
		return IPX_EINVAL;
	for (size_t k = 0; k < node->nlinks; k++)
		if (node->links[k]->net == r->net)
			return IPX_EINVAL;
	i = route_pos(node, r->net, &found);
	if (!found) {
		if (node->nroutes == node->caproutes) {
			size_t cap = node->caproutes ? node->caproutes * 2 : 16;
			struct ipx_route *nr =
				realloc(node->routes, cap * sizeof(*nr));

			if (!nr)
				return IPX_ENOMEM;
			node->routes = nr;
			node->caproutes = cap;
		}
		memmove(&node->routes[i + 1], &node->routes[i],
			(node->nroutes - i) * sizeof(*node->routes));
		node->nroutes++;
	}
	node->routes[i] = *r;
	node->routes[i].kind = IPX_ROUTE_LEARNED;
	notify(node, r->net);
	pending_flush(node, r->net);
	return IPX_OK;
}

int ipx_node_route_del(struct ipx_node *node, uint32_t net)
{
	bool found;
	size_t i = route_pos(node, net, &found);

	if (!found)
		return IPX_ENOTFOUND;
	memmove(&node->routes[i], &node->routes[i + 1],
		(node->nroutes - i - 1) * sizeof(*node->routes));
	node->nroutes--;
	notify(node, net);
	return IPX_OK;
}

size_t ipx_node_route_count(const struct ipx_node *node)
{
	return node->nroutes;
}

const struct ipx_route *ipx_node_route_at(const struct ipx_node *node,
					  size_t index)
{
	return index < node->nroutes ? &node->routes[index] : NULL;
}

int ipx_node_watch_routes(struct ipx_node *node, ipx_route_watch_cb cb,
			  void *ctx)
{
	for (size_t i = 0; i < MAX_WATCHERS; i++) {
		if (!node->watchers[i].cb) {
			node->watchers[i].cb = cb;
			node->watchers[i].ctx = ctx;
			return IPX_OK;
		}
	}
	return IPX_ERANGE;
}

void ipx_node_unwatch_routes(struct ipx_node *node, ipx_route_watch_cb cb,
			     void *ctx)
{
	for (size_t i = 0; i < MAX_WATCHERS; i++)
		if (node->watchers[i].cb == cb && node->watchers[i].ctx == ctx)
			node->watchers[i].cb = NULL;
}

/* ---- receive ---- */

static void deliver(struct ipx_node *node, struct ipx_link *link,
		    const struct ipx_header *hdr, const uint8_t *pkt)
{
	struct ipx_socket *s = find_socket(node, hdr->dst.socket);
	struct ipx_link *saved = node->rx_link;

	if (!s) {
		node->stats.drops[IPX_DROP_NO_SOCKET]++;
		return;
	}
	node->stats.delivered++;
	node->rx_link = link;
	s->cb(s, hdr, pkt + IPX_HDR_LEN, hdr->length - IPX_HDR_LEN, s->ctx);
	node->rx_link = saved;
}

static void accepted(struct ipx_node *node, const struct ipx_header *hdr)
{
	node->stats.rx_packets++;
	node->stats.rx_bytes += hdr->length;
}

/*
 * A packet from a node that does not know its network number yet (source
 * network 0) gets the number of the network it came in on before it goes
 * to another network, so that the answer can be routed back (as Linux's
 * ipxitf_rcv does).
 */
static void fill_source_net(uint8_t *copy, const struct ipx_header *hdr,
			    const struct ipx_link *in)
{
	if (hdr->src.net == 0 && in->net != 0)
		ipx_put32(copy + 18, in->net);
}

/* A changed copy with a real checksum gets it made again (the hop count
 * is left out of it, so raising that alone needs nothing). */
static void reseal(uint8_t *copy, const struct ipx_header *hdr)
{
	if (hdr->checksum != IPX_NO_CHECKSUM)
		ipx_put16(copy, ipx_checksum(copy, hdr->length));
}

/* Route a packet for another network on, one hop further. */
static void forward(struct ipx_node *node, struct ipx_link *in,
		    const struct ipx_header *hdr, const uint8_t *pkt)
{
	uint8_t copy[IPX_MAX_PACKET];
	struct ipx_route r;
	int rc;

	if (hdr->hops + 1 >= IPX_MAX_HOPS) {
		node->stats.drops[IPX_DROP_HOPS]++;
		return;
	}
	if (ipx_node_route_lookup(node, hdr->dst.net, &r) != IPX_OK ||
	    !r.link) {
		node->stats.drops[IPX_DROP_NO_ROUTE]++;
		return;
	}
	if (r.link == in) {
		node->stats.drops[IPX_DROP_SAME_LINK]++;
		return;
	}
	if (hdr->length > r.link->mtu || hdr->length > sizeof(copy)) {
		node->stats.drops[IPX_DROP_TX_TOOBIG]++;
		return;
	}
	memcpy(copy, pkt, hdr->length);
	copy[4] = (uint8_t)(hdr->hops + 1);
	fill_source_net(copy, hdr, in);
	reseal(copy, hdr);
	rc = ipx_link_send(r.link, copy, hdr->length,
			   r.kind == IPX_ROUTE_ATTACHED ? hdr->dst.node : r.via);
	if (rc == IPX_OK)
		node->stats.forwarded++;
	else
		node->stats.drops[rc == IPX_ETOOBIG ? IPX_DROP_TX_TOOBIG
						    : IPX_DROP_TX_LINK]++;
}

static bool nb_listed(const uint8_t *list, unsigned n, uint32_t net)
{
	for (unsigned i = 0; i < n; i++)
		if (ipx_get32(list + 4 * i) == net)
			return true;
	return false;
}

/*
 * A NetBIOS type-20 broadcast received on 'in' (spec section 4.2): record
 * in's network in the next of the 8 slots and pass it to every other
 * network not in the list yet. It is delivered locally either way.
 */
static void propagate(struct ipx_node *node, struct ipx_link *in,
		      const struct ipx_header *hdr, const uint8_t *pkt)
{
	uint8_t copy[IPX_MAX_PACKET];
	const uint8_t *list = pkt + IPX_HDR_LEN;
	unsigned tc = hdr->hops;

	if (hdr->length - IPX_HDR_LEN < NB_NETS * 4) {
		node->stats.drops[IPX_DROP_NB_SHORT]++;
		return;
	}
	if (tc >= NB_NETS) {
		node->stats.drops[IPX_DROP_NB_HOPS]++;
		return;
	}
	if (nb_listed(list, tc, in->net)) {
		node->stats.drops[IPX_DROP_NB_LOOP]++;
		return;
	}
	if (hdr->length > sizeof(copy)) {
		node->stats.drops[IPX_DROP_TX_TOOBIG]++;
		return;
	}
	memcpy(copy, pkt, hdr->length);
	ipx_put32(copy + IPX_HDR_LEN + 4 * tc, in->net);
	copy[4] = (uint8_t)(tc + 1);
	fill_source_net(copy, hdr, in);
	for (size_t i = 0; i < node->nlinks; i++) {
		struct ipx_link *out = node->links[i];
		int rc;

		if (out == in || !out->up ||
		    nb_listed(copy + IPX_HDR_LEN, tc + 1, out->net))
			continue;
		ipx_put32(copy + 6, out->net);
		reseal(copy, hdr);
		rc = hdr->length > out->mtu
			     ? IPX_ETOOBIG
			     : ipx_link_send(out, copy, hdr->length,
					     ipx_node_broadcast);
		if (rc == IPX_OK)
			node->stats.propagated++;
		else
			node->stats.drops[rc == IPX_ETOOBIG ? IPX_DROP_TX_TOOBIG
							    : IPX_DROP_TX_LINK]++;
	}
}

/* A router's packet for a network other than the one it came in on. */
static void route_in(struct ipx_node *node, struct ipx_link *in,
		     const struct ipx_header *hdr, const uint8_t *pkt)
{
	bool bcast = ipx_node_is_broadcast(hdr->dst.node);

	if (hdr->dst.net == node->internal_net) {
		if (!bcast && !ipx_node_eq(hdr->dst.node, node->internal_node)) {
			node->stats.drops[IPX_DROP_NOT_FOR_US]++;
			return;
		}
		accepted(node, hdr);
		deliver(node, in, hdr, pkt);
		return;
	}
	/* Addressed to us by our address on another of our networks. */
	for (size_t i = 0; !bcast && i < node->nlinks; i++) {
		struct ipx_link *l = node->links[i];

		if (l != in && l->net == hdr->dst.net &&
		    ipx_node_eq(hdr->dst.node, l->node)) {
			accepted(node, hdr);
			deliver(node, in, hdr, pkt);
			return;
		}
	}
	forward(node, in, hdr, pkt);
}

/*
 * A RIP response in a packet: from socket 0x453, operation 2, 1-50
 * entries of 8 bytes (the length field counts, as for the decoder).
 */
static bool is_rip_response(const struct ipx_header *hdr, const uint8_t *pkt)
{
	size_t n = (size_t)hdr->length - IPX_HDR_LEN;

	return hdr->src.socket == IPX_SOCK_RIP && n >= 2 + 8 &&
	       (n - 2) % 8 == 0 && (n - 2) / 8 <= 50 &&
	       ipx_get16(pkt + IPX_HDR_LEN) == 2;
}

/*
 * Ask the routers of 'link' for network 'net' (a RIP request broadcast
 * from socket 0x453, at most one a second per link): a router there
 * answers from its address on this segment, which is what is learnt.
 */
static void probe_net(struct ipx_node *node, struct ipx_link *link,
		      uint32_t net)
{
	uint8_t pkt[IPX_HDR_LEN + 10];
	struct ipx_header h = { .checksum = IPX_NO_CHECKSUM,
				.length = sizeof(pkt),
				.type = IPX_TYPE_RIP };
	int idx = link_index(node, link);
	ipx_time now = ipx_loop_now(node->loop);

	if (idx < 0 || !link->up || now < node->probe_at[idx])
		return;
	node->probe_at[idx] = now + IPX_SEC;
	memcpy(h.dst.node, ipx_node_broadcast, IPX_NODE_LEN);
	h.dst.socket = IPX_SOCK_RIP;
	memcpy(h.src.node, link->node, IPX_NODE_LEN);
	h.src.socket = IPX_SOCK_RIP;
	ipx_header_encode(&h, pkt);
	ipx_put16(pkt + IPX_HDR_LEN, 1);	/* request */
	ipx_put32(pkt + IPX_HDR_LEN + 2, net);
	ipx_put16(pkt + IPX_HDR_LEN + 6, 0xFFFF);
	ipx_put16(pkt + IPX_HDR_LEN + 8, 0xFFFF);
	if (ipx_link_send(link, pkt, sizeof(pkt), ipx_node_broadcast) ==
	    IPX_OK) {
		node->stats.tx_packets++;
		node->stats.tx_bytes += sizeof(pkt);
		node->stats.net_probes++;
	}
}

/*
 * What a packet on a link of unknown network number tells of it. Only a
 * router's own word is taken: a RIP response that was not forwarded
 * (hops 0) comes from the router's address on this network (a NetWare
 * workstation learnt its number from the routers the same way), unless
 * it comes from a router's internal network (node 00:...:01: an answer
 * to a request sent to that address). Anything else that names a
 * network is one unverified packet, which anybody on the segment can
 * send (a broadcast with hops 1 to DEADBEEF): it is refused and counted
 * (net_refused). A packet with hops > 0 says a router forwarded it here,
 * so the node asks the routers for its destination network (net_probes);
 * a router that has it answers, and that answer teaches the number.
 */
static void learn_net(struct ipx_node *node, struct ipx_link *link,
		      const struct ipx_header *hdr, const uint8_t *pkt)
{
	uint32_t net;

	if (hdr->hops == 0 && is_rip_response(hdr, pkt) &&
	    !ipx_node_eq(hdr->src.node, ipx_node_internal)) {
		net = hdr->src.net;
		if (net != 0 && net != 0xFFFFFFFFu && net != node->internal_net &&
		    ipx_node_set_link_net(node, link, net) == IPX_OK)
			return;
	}
	if (hdr->hops > 0) {
		net = hdr->dst.net;
		if (net == 0 || net == 0xFFFFFFFFu || net == node->internal_net)
			return;
		node->stats.net_refused++;
		probe_net(node, link, net);
	} else if (hdr->src.socket == IPX_SOCK_RIP && hdr->src.net != 0) {
		node->stats.net_refused++;
	}
}

void ipx_node_input(struct ipx_node *node, struct ipx_link *link,
		    const uint8_t *pkt, size_t len)
{
	struct ipx_header hdr;
	int rc = ipx_header_decode(pkt, len, &hdr);

	if (rc == IPX_ESHORT) {
		node->stats.drops[IPX_DROP_SHORT]++;
		return;
	}
	if (rc) {
		node->stats.drops[IPX_DROP_BADLEN]++;
		return;
	}
	if (hdr.checksum != IPX_NO_CHECKSUM &&
	    hdr.checksum != ipx_checksum(pkt, hdr.length)) {
		node->stats.drops[IPX_DROP_CHECKSUM]++;
		return;
	}
	if (hdr.hops >= IPX_MAX_HOPS) {
		node->stats.drops[IPX_DROP_HOPS]++;
		return;
	}
	if (link) {
		bool bcast = ipx_node_is_broadcast(hdr.dst.node);
		bool here = hdr.dst.net == 0 || hdr.dst.net == link->net;

		if (!here && (node->forwarding ||
			      (node->internal_net &&
			       hdr.dst.net == node->internal_net))) {
			route_in(node, link, &hdr, pkt);
			return;
		}
		/* A link whose network is unknown takes any network, as
		 * DOSBox does; routers tell it the number later (RIP). */
		if ((!bcast && !ipx_node_eq(hdr.dst.node, link->node)) ||
		    (!here && link->net != 0)) {
			node->stats.drops[IPX_DROP_NOT_FOR_US]++;
			return;
		}
		/* Our own broadcast coming back is looped locally already. */
		if (ipx_node_eq(hdr.src.node, link->node) &&
		    (hdr.src.net == link->net || hdr.src.net == 0)) {
			node->stats.drops[IPX_DROP_OWN_SOURCE]++;
			return;
		}
		if (link->net == 0 && !node->forwarding)
			learn_net(node, link, &hdr, pkt);
		accepted(node, &hdr);
		if (node->forwarding && bcast && hdr.type == IPX_TYPE_NETBIOS)
			propagate(node, link, &hdr, pkt);
	}
	deliver(node, link, &hdr, pkt);
}

static void loopback_run(struct ipx_loop *loop, struct ipx_timer *t, void *ctx)
{
	struct ipx_node *node = ctx;
	struct loopback *list = node->lb_head;

	(void)loop;
	(void)t;
	/* Take the whole queue: what callbacks loop back now waits a turn. */
	node->lb_head = NULL;
	node->lb_tail = &node->lb_head;
	while (list) {
		struct loopback *lb = list;

		list = lb->next;
		node->stats.looped++;
		ipx_node_input(node, NULL, lb->pkt, lb->len);
		free(lb);
	}
}

static int loop_back(struct ipx_node *node, const uint8_t *pkt, size_t len)
{
	struct loopback *lb = malloc(sizeof(*lb) + len);

	if (!lb)
		return IPX_ENOMEM;
	lb->next = NULL;
	lb->len = len;
	memcpy(lb->pkt, pkt, len);
	*node->lb_tail = lb;
	node->lb_tail = &lb->next;
	if (!ipx_timer_active(&node->lb_timer))
		return ipx_timer_start(node->loop, &node->lb_timer, 0, 0);
	return IPX_OK;
}

/* ---- send ---- */

/* Where a packet goes: out a link to a next hop, and/or back to us. */
struct path {
	struct ipx_link *link;		/* NULL: only local */
	uint8_t next_hop[IPX_NODE_LEN];
	bool segment;			/* dst is on link's own segment */
	bool internal;			/* to our internal network */
};

/* The path to dst; IPX_ENOROUTE when there is none. 'lone': a network
 * without a route may go out on a lone link of unknown number. */
static int find_path(const struct ipx_node *node, const struct ipx_addr *dst,
		     bool lone, struct path *p)
{
	struct ipx_route r;

	memset(p, 0, sizeof(*p));
	memcpy(p->next_hop, dst->node, IPX_NODE_LEN);
	if (dst->net == 0) {
		p->link = first_up(node);
		p->segment = true;
	} else if (ipx_node_route_lookup(node, dst->net, &r) == IPX_OK) {
		if (r.kind == IPX_ROUTE_INTERNAL) {
			p->internal = true;
			return IPX_OK;
		}
		p->link = r.link;
		p->segment = r.kind == IPX_ROUTE_ATTACHED;
		if (!p->segment)
			memcpy(p->next_hop, r.via, IPX_NODE_LEN);
	} else if (lone) {
		p->link = lone_unknown(node);
		p->segment = true;
	}
	return p->link ? IPX_OK : IPX_ENOROUTE;
}

/* Put the header in front of buf and send it along p. */
static int transmit(struct ipx_node *node, const struct path *p,
		    const struct ipx_addr *src, const struct ipx_addr *dst,
		    uint8_t type, struct ipx_buf *buf)
{
	struct ipx_header hdr;
	bool bcast, self;
	uint8_t *b;
	int rc = IPX_OK;

	if (p->link && (buf->len + IPX_HDR_LEN > p->link->mtu ||
			buf->len + IPX_HDR_LEN > 0xFFFF)) {
		node->stats.drops[IPX_DROP_TX_TOOBIG]++;
		return IPX_ETOOBIG;
	}
	b = ipx_buf_push(buf, IPX_HDR_LEN);
	if (!b)
		return IPX_EINVAL;
	hdr.checksum = IPX_NO_CHECKSUM;
	hdr.length = (uint16_t)buf->len;
	hdr.hops = 0;
	hdr.type = type;
	hdr.dst = *dst;
	hdr.src = *src;
	ipx_header_encode(&hdr, b);

	bcast = ipx_node_is_broadcast(dst->node);
	self = p->internal ||
	       (p->segment && ipx_node_eq(dst->node, p->link->node) &&
		(dst->net == 0 || dst->net == p->link->net));
	if ((bcast && p->segment) || self)
		rc = loop_back(node, buf->data, buf->len);
	if (!self && rc == IPX_OK) {
		rc = ipx_link_send(p->link, buf->data, buf->len, p->next_hop);
		if (rc == IPX_OK) {
			node->stats.tx_packets++;
			node->stats.tx_bytes += buf->len;
		} else {
			node->stats.drops[rc == IPX_ETOOBIG ? IPX_DROP_TX_TOOBIG
							    : IPX_DROP_TX_LINK]++;
		}
	}
	ipx_buf_pull(buf, IPX_HDR_LEN);
	return rc;
}

static void source_for(const struct ipx_node *node, const struct path *p,
		       uint16_t socket, struct ipx_addr *src)
{
	const struct ipx_socket *s;

	memset(src, 0, sizeof(*src));
	if (node->internal_net && p->link &&
	    (s = find_socket(node, socket)) != NULL && s->link_source) {
		src->net = p->link->net;
		memcpy(src->node, p->link->node, IPX_NODE_LEN);
	} else if (node->internal_net) {
		src->net = node->internal_net;
		memcpy(src->node, node->internal_node, IPX_NODE_LEN);
	} else if (p->link) {
		src->net = p->link->net;
		memcpy(src->node, p->link->node, IPX_NODE_LEN);
	}
	src->socket = socket;
}

static void pending_arm(struct ipx_node *node)
{
	ipx_time now = ipx_loop_now(node->loop), first = 0;
	bool any = false;

	for (struct pending *pd = node->pend_head; pd; pd = pd->next) {
		if (!any || ipx_time_before(pd->deadline, first))
			first = pd->deadline;
		any = true;
	}
	if (!any)
		ipx_timer_stop(node->loop, &node->pend_timer);
	else
		ipx_timer_start(node->loop, &node->pend_timer,
				ipx_time_before(now, first) ? first - now : 0, 0);
}

static int wait_for_route(struct ipx_node *node, uint16_t socket,
			  const struct ipx_addr *dst, uint8_t type,
			  const struct ipx_buf *buf)
{
	struct pending *pd, **pp;

	if (node->npending >= MAX_PENDING) {
		node->stats.drops[IPX_DROP_TX_PENDING]++;
		return IPX_EAGAIN;
	}
	pd = malloc(sizeof(*pd) + buf->len);
	if (!pd)
		return IPX_ENOMEM;
	pd->next = NULL;
	pd->deadline = ipx_loop_now(node->loop) + node->resolve_timeout;
	pd->dst = *dst;
	pd->src_socket = socket;
	pd->type = type;
	pd->len = buf->len;
	memcpy(pd->data, buf->data, buf->len);
	for (pp = &node->pend_head; *pp; pp = &(*pp)->next)
		;
	*pp = pd;
	node->npending++;
	if (!ipx_timer_active(&node->pend_timer))
		pending_arm(node);
	node->miss_cb(node, dst->net, node->miss_ctx);
	return IPX_OK;
}

/* The send path of every datagram the node originates. */
static int send_from(struct ipx_node *node, uint16_t socket,
		     const struct ipx_addr *dst, uint8_t type,
		     struct ipx_buf *buf, bool may_wait)
{
	bool resolve = may_wait && node->miss_cb && dst->net != 0 &&
		       dst->net != 0xFFFFFFFFu;
	struct ipx_addr src;
	struct path p;

	if (find_path(node, dst, !resolve, &p) != IPX_OK) {
		if (resolve)
			return wait_for_route(node, socket, dst, type, buf);
		node->stats.drops[IPX_DROP_TX_NOLINK]++;
		return node->nlinks && !node->links[0]->up ? IPX_ENOTUP
							   : IPX_ENOROUTE;
	}
	source_for(node, &p, socket, &src);
	return transmit(node, &p, &src, dst, type, buf);
}

/* A stack buffer with headroom around len bytes of data. */
#define STACK_BUF(name)                                                     \
	_Alignas(struct ipx_buf) uint8_t name##_mem[sizeof(struct ipx_buf) + \
						    IPX_BUF_HEADROOM +        \
						    IPX_MAX_PACKET];          \
	struct ipx_buf *name = (struct ipx_buf *)name##_mem;                 \
	name->cap = IPX_BUF_HEADROOM + IPX_MAX_PACKET;                        \
	ipx_buf_reset(name)

static int send_bytes(struct ipx_node *node, uint16_t socket,
		      const struct ipx_addr *dst, uint8_t type,
		      const void *data, size_t len, bool may_wait)
{
	uint8_t *p;

	if (len > IPX_MAX_PACKET - IPX_HDR_LEN) {
		node->stats.drops[IPX_DROP_TX_TOOBIG]++;
		return IPX_ETOOBIG;
	}
	STACK_BUF(buf);
	p = ipx_buf_put(buf, len);
	if (len)
		memcpy(p, data, len);
	return send_from(node, socket, dst, type, buf, may_wait);
}

/* Send what waited for net, now that it has a route. */
static void pending_flush(struct ipx_node *node, uint32_t net)
{
	struct pending **pp = &node->pend_head;

	while (*pp) {
		struct pending *pd = *pp;

		if (pd->dst.net != net) {
			pp = &pd->next;
			continue;
		}
		*pp = pd->next;
		node->npending--;
		if (send_bytes(node, pd->src_socket, &pd->dst, pd->type,
			       pd->data, pd->len, false) == IPX_OK)
			node->stats.resolved++;
		free(pd);
	}
	pending_arm(node);
}

static void pending_expire(struct ipx_loop *loop, struct ipx_timer *t,
			   void *ctx)
{
	struct ipx_node *node = ctx;
	ipx_time now = ipx_loop_now(loop);
	struct pending **pp = &node->pend_head;

	(void)t;
	while (*pp) {
		struct pending *pd = *pp;

		if (ipx_time_before(now, pd->deadline)) {
			pp = &pd->next;
			continue;
		}
		*pp = pd->next;
		node->npending--;
		/* No router answered: a lone segment of unknown number may
		 * still hold the destination. */
		if (lone_unknown(node))
			send_bytes(node, pd->src_socket, &pd->dst, pd->type,
				   pd->data, pd->len, false);
		else
			node->stats.drops[IPX_DROP_TX_NOROUTE]++;
		free(pd);
	}
	pending_arm(node);
}

void ipx_node_set_route_miss(struct ipx_node *node, ipx_route_miss_cb cb,
			     void *ctx, ipx_time timeout)
{
	node->miss_cb = cb;
	node->miss_ctx = ctx;
	node->resolve_timeout = timeout ? timeout : DEFAULT_RESOLVE_TIMEOUT;
}

size_t ipx_node_pending(const struct ipx_node *node)
{
	return node->npending;
}

size_t ipx_node_max_payload(const struct ipx_node *node,
			    const struct ipx_addr *dst)
{
	struct path p;
	struct ipx_link *link = NULL;
	size_t mtu;

	if (find_path(node, dst ? dst : &(struct ipx_addr){ 0 }, true, &p) ==
	    IPX_OK)
		link = p.link;
	else
		link = first_up(node);
	mtu = link ? link->mtu : p.internal ? IPX_LAN_PACKET : 576;
	return mtu > IPX_MAX_PACKET ? IPX_MAX_PACKET - IPX_HDR_LEN
				    : mtu - IPX_HDR_LEN;
}

int ipx_socket_send_buf(struct ipx_socket *sock, const struct ipx_addr *dst,
			uint8_t type, struct ipx_buf *buf)
{
	return send_from(sock->node, sock->number, dst, type, buf, true);
}

int ipx_socket_sendto(struct ipx_socket *sock, const struct ipx_addr *dst,
		      uint8_t type, const void *data, size_t len)
{
	return send_bytes(sock->node, sock->number, dst, type, data, len, true);
}

/* Send out 'link' to dst->node, from 'src'. */
static int send_on_link(struct ipx_socket *sock, struct ipx_link *link,
			const struct ipx_addr *src, const struct ipx_addr *dst,
			uint8_t type, const void *data, size_t len)
{
	struct ipx_node *node = sock->node;
	struct path p = { .link = link, .segment = true };
	uint8_t *b;

	if (link_index(node, link) < 0)
		return IPX_EINVAL;
	if (!link->up) {
		node->stats.drops[IPX_DROP_TX_NOLINK]++;
		return IPX_ENOTUP;
	}
	if (len > IPX_MAX_PACKET - IPX_HDR_LEN) {
		node->stats.drops[IPX_DROP_TX_TOOBIG]++;
		return IPX_ETOOBIG;
	}
	STACK_BUF(buf);
	b = ipx_buf_put(buf, len);
	if (len)
		memcpy(b, data, len);
	memcpy(p.next_hop, dst->node, IPX_NODE_LEN);
	return transmit(node, &p, src, dst, type, buf);
}

void ipx_socket_set_link_source(struct ipx_socket *sock, bool on)
{
	sock->link_source = on;
}

int ipx_socket_sendto_link(struct ipx_socket *sock, struct ipx_link *link,
			   const struct ipx_addr *dst, uint8_t type,
			   const void *data, size_t len)
{
	struct ipx_addr src = { .net = link->net, .socket = sock->number };

	memcpy(src.node, link->node, IPX_NODE_LEN);
	return send_on_link(sock, link, &src, dst, type, data, len);
}

int ipx_socket_reply(struct ipx_socket *sock, const struct ipx_header *req,
		     uint8_t type, const void *data, size_t len)
{
	struct ipx_link *in = sock->node->rx_link;
	struct ipx_addr src;

	/* Straight back when the source is on that network: it said so, or
	 * gave network 0, or the packet was not routed. */
	if (!in || (req->src.net != 0 && req->src.net != in->net &&
		    (in->net != 0 || req->hops != 0)))
		return ipx_socket_sendto(sock, &req->src, type, data, len);
	/* From the address it was sent to, unless that was a broadcast. */
	src = req->dst;
	src.socket = sock->number;
	if (ipx_node_is_broadcast(src.node) || src.net == 0 ||
	    !ipx_node_is_own(sock->node, &src)) {
		src.net = in->net;
		memcpy(src.node, in->node, IPX_NODE_LEN);
	}
	return send_on_link(sock, in, &src, &req->src, type, data, len);
}
