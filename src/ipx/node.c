/*
 * node.c - the IPX node: socket table, validation, dispatch, send path
 * and local loopback (see node.h).
 */
#include "ipxlab/node.h"

#include <stdlib.h>
#include <string.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"

#define NBUCKETS 64	/* socket hash buckets; at most 150 sockets */
#define MAX_LINKS 8

struct ipx_socket {
	struct ipx_node *node;
	uint16_t number;
	ipx_recv_cb cb;
	void *ctx;
	struct ipx_socket *next;	/* in its bucket */
};

/* A packet waiting to be looped back locally. */
struct loopback {
	struct loopback *next;
	size_t len;
	uint8_t pkt[];
};

struct ipx_node {
	struct ipx_loop *loop;
	struct ipx_config cfg;
	struct ipx_link *links[MAX_LINKS];
	size_t nlinks;
	struct ipx_socket *buckets[NBUCKETS];
	size_t nsockets;
	uint16_t next_dynamic;
	struct loopback *lb_head, **lb_tail;
	struct ipx_timer lb_timer;
	struct ipx_node_stats stats;
};

#define DROP_NAME_(id, name, desc) name,
static const char *const drop_names[] = { IPX_DROPS(DROP_NAME_) };
#undef DROP_NAME_
#define DROP_DESC_(id, name, desc) desc,
static const char *const drop_descs[] = { IPX_DROPS(DROP_DESC_) };
#undef DROP_DESC_

const char *ipx_drop_name(enum ipx_drop d)
{
	return d < IPX_DROP_COUNT ? drop_names[d] : "?";
}

const char *ipx_drop_desc(enum ipx_drop d)
{
	return d < IPX_DROP_COUNT ? drop_descs[d] : "?";
}

static void loopback_run(struct ipx_loop *loop, struct ipx_timer *t, void *ctx);

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
	node->lb_tail = &node->lb_head;
	ipx_timer_init(&node->lb_timer, loopback_run, node);
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
	if (node->nlinks > 0) {
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

/* ---- receive ---- */

static void deliver(struct ipx_node *node, const struct ipx_header *hdr,
		    const uint8_t *pkt)
{
	struct ipx_socket *s = find_socket(node, hdr->dst.socket);

	if (!s) {
		node->stats.drops[IPX_DROP_NO_SOCKET]++;
		return;
	}
	node->stats.delivered++;
	s->cb(s, hdr, pkt + IPX_HDR_LEN, hdr->length - IPX_HDR_LEN, s->ctx);
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

		if ((!bcast && !ipx_node_eq(hdr.dst.node, link->node)) ||
		    (hdr.dst.net != 0 && hdr.dst.net != link->net)) {
			node->stats.drops[IPX_DROP_NOT_FOR_US]++;
			return;
		}
		/* Our own broadcast coming back is looped locally already. */
		if (ipx_node_eq(hdr.src.node, link->node) &&
		    (hdr.src.net == link->net || hdr.src.net == 0)) {
			node->stats.drops[IPX_DROP_OWN_SOURCE]++;
			return;
		}
		node->stats.rx_packets++;
		node->stats.rx_bytes += hdr.length;
	}
	deliver(node, &hdr, pkt);
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

static struct ipx_link *route(const struct ipx_node *node, uint32_t net)
{
	for (size_t i = 0; i < node->nlinks; i++)
		if (node->links[i]->up &&
		    (net == 0 || node->links[i]->net == net))
			return node->links[i];
	/* One link and an unknown network: the segment is all there is. */
	if (node->nlinks == 1 && node->links[0]->up &&
	    node->links[0]->net == 0)
		return node->links[0];
	return NULL;
}

size_t ipx_node_max_payload(const struct ipx_node *node,
			    const struct ipx_addr *dst)
{
	struct ipx_link *link = route(node, dst ? dst->net : 0);
	size_t mtu = link ? link->mtu : 576;

	return mtu > IPX_MAX_PACKET ? IPX_MAX_PACKET - IPX_HDR_LEN
				    : mtu - IPX_HDR_LEN;
}

int ipx_socket_send_buf(struct ipx_socket *sock, const struct ipx_addr *dst,
			uint8_t type, struct ipx_buf *buf)
{
	struct ipx_node *node = sock->node;
	struct ipx_link *link = route(node, dst->net);
	struct ipx_header hdr;
	bool bcast, self;
	uint8_t *p;
	int rc;

	if (!link) {
		node->stats.drops[IPX_DROP_TX_NOLINK]++;
		return node->nlinks && !node->links[0]->up ? IPX_ENOTUP
							   : IPX_ENOROUTE;
	}
	if (buf->len + IPX_HDR_LEN > link->mtu ||
	    buf->len + IPX_HDR_LEN > 0xFFFF) {
		node->stats.drops[IPX_DROP_TX_TOOBIG]++;
		return IPX_ETOOBIG;
	}
	p = ipx_buf_push(buf, IPX_HDR_LEN);
	if (!p)
		return IPX_EINVAL;
	hdr.checksum = IPX_NO_CHECKSUM;
	hdr.length = (uint16_t)buf->len;
	hdr.hops = 0;
	hdr.type = type;
	hdr.dst = *dst;
	hdr.src.net = link->net;
	memcpy(hdr.src.node, link->node, IPX_NODE_LEN);
	hdr.src.socket = sock->number;
	ipx_header_encode(&hdr, p);

	bcast = ipx_node_is_broadcast(dst->node);
	self = ipx_node_eq(dst->node, link->node) &&
	       (dst->net == 0 || dst->net == link->net);
	rc = IPX_OK;
	if (bcast || self)
		rc = loop_back(node, buf->data, buf->len);
	if (!self && rc == IPX_OK) {
		rc = ipx_link_send(link, buf->data, buf->len, dst->node);
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

int ipx_socket_sendto(struct ipx_socket *sock, const struct ipx_addr *dst,
		      uint8_t type, const void *data, size_t len)
{
	_Alignas(struct ipx_buf) uint8_t storage[sizeof(struct ipx_buf) +
						 IPX_BUF_HEADROOM +
						 IPX_MAX_PACKET];
	struct ipx_buf *buf = (struct ipx_buf *)storage;
	uint8_t *p;

	if (len > IPX_MAX_PACKET - IPX_HDR_LEN) {
		sock->node->stats.drops[IPX_DROP_TX_TOOBIG]++;
		return IPX_ETOOBIG;
	}
	buf->cap = IPX_BUF_HEADROOM + IPX_MAX_PACKET;
	ipx_buf_reset(buf);
	p = ipx_buf_put(buf, len);
	if (len)
		memcpy(p, data, len);
	return ipx_socket_send_buf(sock, dst, type, buf);
}
